/*
 * test_logical.c — plan/logical.h: plans built by hand print as EXPLAIN
 * (LOGICAL) shows them and pass the verifier; each verifier rule rejects
 * the plan that breaks it (a rewrite that forgets a column, reads a column
 * out of scope, changes a type, makes a column twice...).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "func/func.h"
#include "plan/logical.h"
#include "plan_test.h"


static int
setup(void **state)
{
	(void)state;
	A = arena_new(1 << 14);
	floe_error_clear(&E);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	arena_free(A);
	return 0;
}




/* Get public.t [id int, v text, x bigint] */
static LogicalOp *
get_t(LogicalPlan *p)
{
	LogicalOp *g = lop_new(p, LOP_GET, 0);
	g->schema = "public";
	g->name = "t";
	lop_add_column(p, g, type_make(TYPE_INT32), "id");
	lop_add_column(p, g, type_make(TYPE_TEXT), "v");
	lop_add_column(p, g, type_make(TYPE_INT64), "x");
	return g;
}

/* SELECT v, sum(x) FROM t WHERE id > 3 GROUP BY v ORDER BY 2 DESC LIMIT 10 */
static LogicalOp *
grouped(LogicalPlan *p)
{
	LogicalOp *g = get_t(p), *f, *agg, *s, *l;
	Expr *pred, *key;

	f = lop_new(p, LOP_FILTER, 1, g);
	pred = binop(">", col(g, 0), num(3));
	lop_set_exprs(p, f, 1, &pred);
	lop_pass_columns(p, f, g);

	agg = lop_new(p, LOP_AGGREGATE, 1, f);
	key = col(f, 1);
	lop_set_exprs(p, agg, 1, &key);
	lop_add_column(p, agg, key->type, "v");
	add_sum(p, agg, col(f, 2));

	s = sort_by(p, agg, 1, true);

	l = lop_new(p, LOP_LIMIT, 1, s);
	l->limit = num(10);
	lop_pass_columns(p, l, s);
	return l;
}

static void
test_logical__print_and_verify(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *root = grouped(p);
	const char *text;

	(void)state;
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	text = lplan_print(p, root, A);
	assert_string_equal(text,
			    "Limit 10\n"
			    "  Sort #5 DESC\n"
			    "    Aggregate keys [#4 v := #2] aggs [#5 sum := sum(#3)]\n"
			    "      Filter (#1 > 3)\n"
			    "        Get public.t [#1 id, #2 v, #3 x]\n");
}

static void
test_logical__join_and_setop(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *a = get_t(p), *b = get_t(p), *c, *j, *pa, *pb, *u;
	Expr *cond, *e;

	(void)state;
	j = lop_new(p, LOP_JOIN, 2, a, b);
	j->join = LJ_INNER;
	cond = binop("=", col(a, 0), col(b, 0));
	lop_set_exprs(p, j, 1, &cond);
	lop_pass_columns(p, j, a);
	lop_pass_columns(p, j, b);
	assert_int_equal(lplan_verify(p, j, &E), FLOE_OK);

	/* UNION ALL of two one-column projections */
	pa = lop_new(p, LOP_PROJECT, 1, j);
	e = col(j, 1);
	lop_set_exprs(p, pa, 1, &e);
	lop_add_column(p, pa, e->type, "v");
	c = get_t(p);   /* a node appears once in a plan: a second scan of t */
	pb = lop_new(p, LOP_PROJECT, 1, c);
	e = col(c, 1);
	lop_set_exprs(p, pb, 1, &e);
	lop_add_column(p, pb, e->type, "v");
	u = lop_new(p, LOP_SETOP, 2, pa, pb);
	u->setop = LSET_UNION;
	u->all = true;
	lop_add_column(p, u, type_make(TYPE_TEXT), "v");
	assert_int_equal(lplan_verify(p, u, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, u, A),
			    "SetOp UNION ALL [#12 v]\n"
			    "  Project [#7 v := #2]\n"
			    "    Join INNER ON (#1 = #4)\n"
			    "      Get public.t [#1 id, #2 v, #3 x]\n"
			    "      Get public.t [#4 id, #5 v, #6 x]\n"
			    "  Project [#11 v := #9]\n"
			    "    Get public.t [#8 id, #9 v, #10 x]\n");
}

/* A correlated subquery as a dependent MARK join: the right side may read
 * the correlated left column, and only below the join's right side. */
static void
test_logical__dependent_join(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *outer = get_t(p), *inner = get_t(p), *f, *j;
	Expr *pred;

	(void)state;
	f = lop_new(p, LOP_FILTER, 1, inner);
	pred = binop("=", col(inner, 2), col(outer, 2));   /* inner.x = outer.x */
	lop_set_exprs(p, f, 1, &pred);
	lop_pass_columns(p, f, inner);
	j = lop_new(p, LOP_JOIN, 2, outer, f);
	j->join = LJ_MARK;
	lop_pass_columns(p, j, outer);
	lop_add_column(p, j, type_make(TYPE_BOOL), "exists");
	/* without the correlation the right side reads out of scope */
	assert_int_equal(lplan_verify(p, j, &E), FLOE_ERR);
	assert_non_null(strstr(E.message, "V4"));
	j->ncorr = 1;
	j->corr = arena_calloc(A, sizeof *j->corr);
	j->corr[0] = outer->cols[2].id;
	floe_error_clear(&E);
	assert_int_equal(lplan_verify(p, j, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, j, A),
			    "Join DEPENDENT MARK corr [#3] mark #7\n"
			    "  Get public.t [#1 id, #2 v, #3 x]\n"
			    "  Filter (#6 = #3)\n"
			    "    Get public.t [#4 id, #5 v, #6 x]\n");
}

static void
expect_rule(LogicalPlan *p, LogicalOp *root, const char *rule)
{
	floe_error_clear(&E);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_ERR);
	assert_string_equal(E.sqlstate, "XX000");
	if (!strstr(E.message, rule))
		fail_msg("expected %s, got: %s", rule, E.message);
}

static void
test_logical__verifier_rules(void **state)
{
	LogicalPlan *p;
	LogicalOp *root, *f, *agg;

	(void)state;
	/* V1: a Filter with no child */
	p = lplan_new(A);
	root = lop_new(p, LOP_FILTER, 0);
	expect_rule(p, root, "V1");

	/* V3: a Filter that drops a column of its child */
	p = lplan_new(A);
	root = grouped(p);
	f = root->children[0]->children[0]->children[0];   /* Limit > Sort > Agg > Filter */
	assert_int_equal(f->kind, LOP_FILTER);
	f->ncols = 2;
	expect_rule(p, root, "V3");

	/* V4: the sort key reads a column below the aggregate */
	p = lplan_new(A);
	root = grouped(p);
	agg = root->children[0]->children[0];
	root->children[0]->keys[0].e = col(agg->children[0], 2);
	expect_rule(p, root, "V4");

	/* V5: a reference with the wrong type */
	p = lplan_new(A);
	root = grouped(p);
	root->children[0]->keys[0].e->type = type_make(TYPE_TEXT);
	expect_rule(p, root, "V5");

	/* V3: the same column made by two nodes */
	p = lplan_new(A);
	root = grouped(p);
	agg = root->children[0]->children[0];
	agg->cols[0].id = agg->children[0]->cols[0].id;
	expect_rule(p, root, "V3");

	/* V3: one node in two places of the plan */
	p = lplan_new(A);
	f = get_t(p);
	root = lop_new(p, LOP_JOIN, 2, f, f);
	root->join = LJ_CROSS;
	lop_pass_columns(p, root, f);
	lop_pass_columns(p, root, f);
	expect_rule(p, root, "V");

	/* V6: a Project with more columns than expressions */
	p = lplan_new(A);
	root = lop_new(p, LOP_PROJECT, 1, get_t(p));
	lop_add_column(p, root, type_make(TYPE_INT32), "a");
	expect_rule(p, root, "V6");

	/* V7: a CTE reference outside its CTE */
	p = lplan_new(A);
	root = lop_new(p, LOP_CTE_REF, 0);
	root->cte_id = 1;
	expect_rule(p, root, "V7");
}

/* An Operator leaf: its columns are the operator's, printed with its name
 * and estimate; a parameter (EXPR_PARAM_BASE) is in every scope; a leaf
 * unlike its operator, or grouping() values without grouping sets, break
 * V5 / V6 */
static void
test_logical__operator_leaf(void **state)
{
	SqlType types[2] = { type_make(TYPE_INT32), type_make(TYPE_TEXT) };
	char *names[2] = { "a", "b" };
	Operator fake;
	LogicalPlan *p = lplan_new(A);
	LogicalOp *leaf, *pr, *agg;
	Expr *e;

	(void)state;
	memset(&fake, 0, sizeof fake);
	fake.ncols = 2;
	fake.types = types;
	fake.label = "Seq Scan on t";
	fake.est_rows = 4;
	leaf = lop_operator(p, &fake, names);
	pr = lop_new(p, LOP_PROJECT, 1, leaf);
	e = binop("+", col(leaf, 0), expr_colref(A, EXPR_PARAM_BASE, type_make(TYPE_INT32)));
	lop_set_exprs(p, pr, 1, &e);
	lop_add_column(p, pr, e->type, "x");
	assert_int_equal(lplan_verify(p, pr, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, pr, A),
			    "Project [#3 x := (#1 + param0)]\n"
			    "  Operator Seq Scan on t [#1 a, #2 b] (rows=4)\n");
	assert_string_equal(lplan_explain(p, pr, false, A),
			    "Project [#3 x := (#1 + param0)]\n"
			    "  Operator Seq Scan on t [#1 a, #2 b]\n");

	types[1] = type_make(TYPE_INT64);
	expect_rule(p, pr, "V5");
	types[1] = type_make(TYPE_TEXT);
	fake.ncols = 1;
	expect_rule(p, pr, "V6");
	fake.ncols = 2;

	agg = lop_new(p, LOP_AGGREGATE, 1, leaf);
	agg->ngroupings = 1;
	agg->groupings = arena_calloc(A, sizeof *agg->groupings);
	lop_add_column(p, agg, type_make(TYPE_INT32), "grouping");
	expect_rule(p, agg, "V6");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_logical__print_and_verify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logical__join_and_setop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logical__dependent_join, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logical__verifier_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logical__operator_leaf, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
