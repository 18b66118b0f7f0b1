/*
 * test_physical.c — plan/physical.h: logical plans built by hand over
 * VALUES are lowered to exec/ operators and run; their rows are what the
 * SQL they stand for gives in PostgreSQL 15 (written next to each case).
 * Kinds not lowered yet fail with 0A000 naming them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "func/func.h"
#include "plan/physical.h"
#include "plan_test.h"
#include "types/text.h"

static volatile int Cancel;
static ExecCtx Ctx;

static int
setup(void **state)
{
	(void)state;
	A = arena_new(1 << 16);
	floe_error_clear(&E);
	Cancel = 0;
	memset(&Ctx, 0, sizeof Ctx);
	Ctx.arena = A;
	Ctx.err = &E;
	Ctx.cancel = &Cancel;
	Ctx.threads = 1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	arena_free(A);
	return 0;
}



static Expr *
str(const char *s)
{
	Value v;
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_TEXT);
	v.u.s = strview_make(arena_strdup(A, s), (uint32_t)strlen(s));
	return expr_const(A, &v);
}


/* VALUES (1, 'a', 10), (2, 'b', 20), (3, 'a', 30), (4, 'c', 40) AS t(id, v, x) */
static LogicalOp *
values_t(LogicalPlan *p)
{
	static const char *const vs[] = { "a", "b", "a", "c" };
	LogicalOp *op = lop_new(p, LOP_VALUES, 0);
	lop_add_column(p, op, type_make(TYPE_INT32), "id");
	lop_add_column(p, op, type_make(TYPE_TEXT), "v");
	lop_add_column(p, op, type_make(TYPE_INT32), "x");
	op->nrows = 4;
	op->rows = arena_alloc(A, sizeof *op->rows * 4);
	for (int r = 0; r < 4; r++) {
		op->rows[r] = arena_alloc(A, sizeof **op->rows * 3);
		op->rows[r][0] = num(r + 1);
		op->rows[r][1] = str(vs[r]);
		op->rows[r][2] = num(10 * (r + 1));
	}
	return op;
}

/* lower, run, and return the rows as "c1|c2\n" lines */
static const char *
run(LogicalPlan *p, LogicalOp *root)
{
	Operator *op;
	Batch *b;
	char *out = arena_strdup(A, "");

	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	op = physical_lower(&Ctx, p, root);
	if (!op)
		fail_msg("lowering failed: %s", E.message);
	assert_int_equal(op->ncols, root->ncols);
	assert_int_equal(op_open(op), FLOE_OK);
	for (;;) {
		assert_int_equal(op_next(op, &b), FLOE_OK);
		if (!b)
			break;
		for (uint32_t i = 0; i < b->count; i++) {
			uint32_t k = b->sel ? b->sel[i] : i;
			for (int c = 0; c < b->ncols; c++) {
				Value v;
				size_t len;
				const char *t;
				vector_display_value(&b->cols[c], k, &v);
				t = value_to_text(&v, A, &len);
				out = arena_sprintf(A, "%s%s%s", out, c ? "|" : "", t ? t : "NULL");
			}
			out = arena_sprintf(A, "%s\n", out);
		}
	}
	op_close(op);
	return out;
}

/* SELECT v, sum(x) FROM t WHERE id > 1 GROUP BY v ORDER BY 2 DESC LIMIT 2
 *   -> c|40, a|30 */
static void
test_physical__filter_aggregate_sort_limit(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *t = values_t(p), *f, *agg, *s, *l;
	Expr *pred, *key;

	(void)state;
	f = lop_new(p, LOP_FILTER, 1, t);
	pred = binop(">", col(t, 0), num(1));
	lop_set_exprs(p, f, 1, &pred);
	lop_pass_columns(p, f, t);
	agg = lop_new(p, LOP_AGGREGATE, 1, f);
	key = col(f, 1);
	lop_set_exprs(p, agg, 1, &key);
	lop_add_column(p, agg, key->type, "v");
	add_sum(p, agg, col(f, 2));
	s = sort_by(p, agg, 1, true);
	l = lop_new(p, LOP_LIMIT, 1, s);
	l->limit = num(2);
	lop_pass_columns(p, l, s);
	assert_string_equal(run(p, l), "c|40\na|30\n");
}

/* SELECT id * 100 + x FROM t ORDER BY x % 20, id DESC: a sort key that is
 * an expression (computed below the sort, dropped above it)
 *   -> x % 20 = 0 for 20, 40 (ids 4, 2), 10 for 10, 30 (ids 3, 1) */
static void
test_physical__project_and_expression_sort(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *t = values_t(p), *s, *pr;
	Expr *e;

	(void)state;
	s = lop_new(p, LOP_SORT, 1, t);
	s->nkeys = 2;
	s->keys = arena_calloc(A, sizeof *s->keys * 2);
	s->keys[0].e = binop("%", col(t, 2), num(20));
	s->keys[1].e = col(t, 0);
	s->keys[1].desc = true;
	s->keys[1].nulls_first = true;
	lop_pass_columns(p, s, t);
	pr = lop_new(p, LOP_PROJECT, 1, s);
	e = binop("+", binop("*", col(s, 0), num(100)), col(s, 2));
	lop_set_exprs(p, pr, 1, &e);
	lop_add_column(p, pr, e->type, "y");
	assert_string_equal(run(p, pr), "440\n220\n330\n110\n");
}

/* SELECT a.id, b.id FROM t a JOIN t b ON a.v = b.v AND a.id < b.id
 *   -> 1|3 (the two 'a' rows): a hash key plus a residual */
static void
test_physical__join_keys_and_residual(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *a = values_t(p), *b = values_t(p), *j, *pr;
	Expr *cond[2], *out[2];

	(void)state;
	j = lop_new(p, LOP_JOIN, 2, a, b);
	j->join = LJ_INNER;
	cond[0] = binop("=", col(b, 1), col(a, 1));   /* sides swapped: still a key */
	cond[1] = binop("<", col(a, 0), col(b, 0));
	lop_set_exprs(p, j, 2, cond);
	lop_pass_columns(p, j, a);
	lop_pass_columns(p, j, b);
	pr = lop_new(p, LOP_PROJECT, 1, j);
	out[0] = col(a, 0);
	out[1] = col(b, 0);
	lop_set_exprs(p, pr, 2, out);
	lop_add_column(p, pr, out[0]->type, "id");
	lop_add_column(p, pr, out[1]->type, "id");
	assert_string_equal(run(p, pr), "1|3\n");
}

/* SELECT v FROM t UNION SELECT v FROM t ORDER BY 1 -> a, b, c; with ALL: 8 rows */
static void
test_physical__union(void **state)
{
	LogicalPlan *p;
	LogicalOp *pa, *pb, *u, *s, *t1, *t2;
	Expr *e;

	(void)state;
	for (int all = 0; all <= 1; all++) {
		p = lplan_new(A);
		t1 = values_t(p);
		t2 = values_t(p);
		pa = lop_new(p, LOP_PROJECT, 1, t1);
		e = col(t1, 1);
		lop_set_exprs(p, pa, 1, &e);
		lop_add_column(p, pa, e->type, "v");
		pb = lop_new(p, LOP_PROJECT, 1, t2);
		e = col(t2, 1);
		lop_set_exprs(p, pb, 1, &e);
		lop_add_column(p, pb, e->type, "v");
		u = lop_new(p, LOP_SETOP, 2, pa, pb);
		u->setop = LSET_UNION;
		u->all = all;
		lop_add_column(p, u, type_make(TYPE_TEXT), "v");
		s = lop_new(p, LOP_SORT, 1, u);
		s->nkeys = 1;
		s->keys = arena_calloc(A, sizeof *s->keys);
		s->keys[0].e = col(u, 0);
		lop_pass_columns(p, s, u);
		assert_string_equal(run(p, s), all ? "a\na\na\na\nb\nb\nc\nc\n" : "a\nb\nc\n");
	}
}

/* Kinds with no lowering yet are 0A000 naming the kind; a negative LIMIT is
 * 2201W as in PostgreSQL */
static void
test_physical__refusals(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *g = lop_new(p, LOP_GET, 0), *l;

	(void)state;
	g->schema = "public";
	g->name = "t";
	lop_add_column(p, g, type_make(TYPE_INT32), "id");
	assert_null(physical_lower(&Ctx, p, g));
	assert_string_equal(E.sqlstate, "0A000");
	assert_non_null(strstr(E.message, "Get"));

	p = lplan_new(A);
	l = lop_new(p, LOP_LIMIT, 1, values_t(p));
	l->limit = num(-1);
	lop_pass_columns(p, l, l->children[0]);
	floe_error_clear(&E);
	assert_null(physical_lower(&Ctx, p, l));
	assert_string_equal(E.sqlstate, "2201W");
	assert_string_equal(E.message, "LIMIT must not be negative");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_physical__filter_aggregate_sort_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__project_and_expression_sort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__join_keys_and_residual, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__union, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__refusals, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
