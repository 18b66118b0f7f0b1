/*
 * plan_test.h — what the plan/ unit tests share: an arena A and error E
 * (set up by each test file), and builders of the expressions their
 * hand-made plans use.
 */
#ifndef FLOE_TESTS_PLAN_TEST_H
#define FLOE_TESTS_PLAN_TEST_H

#include "func/func.h"
#include "plan/logical.h"

static Arena *A;
static floe_error E;

/* a reference to output column i of op */
static inline Expr *
col(const LogicalOp *op, int i)
{
	return expr_colref(A, (int)op->cols[i].id, op->cols[i].type);
}

static inline Expr *
num(int64_t i)
{
	Value v = value_int(TYPE_INT32, i);
	return expr_const(A, &v);
}

/* l <name> r, resolved as the binder would */
static inline Expr *
binop(const char *name, Expr *l, Expr *r)
{
	SqlType at[2] = { l->type, r->type }, ret, cast_to[2];
	const ScalarFunc *fn;
	Expr *e;

	assert_int_equal(func_resolve_scalar(name, at, 2, &fn, &ret, cast_to, &E), FLOE_OK);
	e = expr_new(A, EXPR_FUNC, ret, 2);
	e->fn = fn;
	e->args[0] = l;
	e->args[1] = r;
	return e;
}

/* sum(arg) appended to agg as its next aggregate and column */
static inline void
add_sum(LogicalPlan *p, LogicalOp *agg, Expr *arg)
{
	SqlType ret, cast_to;
	const AggFunc *sum;

	assert_int_equal(func_resolve_agg("sum", &arg->type, 1, false, &sum, &ret, &cast_to, &E), FLOE_OK);
	agg->aggs = arena_realloc(A, agg->aggs, sizeof *agg->aggs * (size_t)agg->naggs,
				  sizeof *agg->aggs * (size_t)(agg->naggs + 1));
	memset(&agg->aggs[agg->naggs], 0, sizeof *agg->aggs);
	agg->aggs[agg->naggs].fn = sum;
	agg->aggs[agg->naggs].arg = arg;
	agg->aggs[agg->naggs].type = ret;
	agg->naggs++;
	lop_add_column(p, agg, ret, "sum");
}

/* a one-key sort of op's column i */
static inline LogicalOp *
sort_by(LogicalPlan *p, LogicalOp *child, int i, bool desc)
{
	LogicalOp *s = lop_new(p, LOP_SORT, 1, child);
	s->nkeys = 1;
	s->keys = arena_calloc(A, sizeof *s->keys);
	s->keys[0].e = col(child, i);
	s->keys[0].desc = desc;
	s->keys[0].nulls_first = desc;
	lop_pass_columns(p, s, child);
	return s;
}

#endif
