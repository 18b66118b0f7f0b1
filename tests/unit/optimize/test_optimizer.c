/*
 * test_optimizer.c — optimize/optimizer.h: the pass list, the
 * floe.disabled_optimizers value, the filter_pushdown pass over
 * hand-built plans (a Filter over a Get becomes the Get's filters; other
 * Filters stay; the plan verifies after the pass), join_filter_pushdown
 * (conjuncts over a join move to the inputs they read, where legal) and
 * decorrelate (a dependent SINGLE join over equality correlation becomes
 * a grouped LEFT join; other correlation stays) and join_order (inner
 * joins reordered, outer joins barriers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "optimize/optimizer.h"
#include "unit/plan/plan_test.h"

static int
setup(void **state)
{
	(void)state;
	A = arena_new(0);
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

static LogicalOp *
get_t(LogicalPlan *p)
{
	LogicalOp *g = lop_new(p, LOP_GET, 0);
	g->schema = "public";
	g->name = "t";
	lop_add_column(p, g, type_make(TYPE_INT32), "a");
	lop_add_column(p, g, type_make(TYPE_INT32), "b");
	return g;
}

static LogicalOp *
filter(LogicalPlan *p, LogicalOp *in, Expr *c)
{
	LogicalOp *f = lop_new(p, LOP_FILTER, 1, in);
	lop_set_exprs(p, f, 1, &c);
	lop_pass_columns(p, f, in);
	return f;
}

/* Project(Filter(a > 1, Get t)) -> Project(Get t filters a > 1) */
static void
test_optimizer__filter_pushdown(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *g = get_t(p), *f = filter(p, g, binop(">", col(g, 0), num(1))), *pr, *root;
	Expr *e;

	(void)state;
	pr = lop_new(p, LOP_PROJECT, 1, f);
	e = col(f, 1);
	lop_set_exprs(p, pr, 1, &e);
	lop_add_column(p, pr, e->type, "b");
	root = pr;
	assert_int_equal(optimize_plan(p, &root, NULL, &E), FLOE_OK);
	assert_ptr_equal(root, pr);
	assert_ptr_equal(pr->children[0], g);
	assert_int_equal(g->nexprs, 1);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_int_equal(p->npasses, 1);
	assert_string_equal(p->passes[0], "filter_pushdown");
	assert_non_null(strstr(lplan_print(p, root, A), "Get public.t [#1 a, #2 b] filters (#1 > 1)"));
}

/* switched off by name (any case, blanks around): the plan stays */
static void
test_optimizer__disabled(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *g = get_t(p), *f = filter(p, g, binop(">", col(g, 0), num(1))), *root = f;

	(void)state;
	assert_int_equal(optimize_plan(p, &root, " Filter_Pushdown ", &E), FLOE_OK);
	assert_ptr_equal(root, f);
	assert_int_equal(g->nexprs, 0);
	assert_int_equal(p->npasses, 0);
}

/* a Filter over anything but a Get stays; two Filters over a Get both go */
static void
test_optimizer__only_over_get(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *g = get_t(p), *f1, *f2, *d, *f3, *root;

	(void)state;
	f1 = filter(p, g, binop(">", col(g, 0), num(1)));
	f2 = filter(p, f1, binop("<", col(f1, 1), num(9)));
	d = lop_new(p, LOP_DISTINCT, 1, f2);
	lop_pass_columns(p, d, f2);
	f3 = filter(p, d, binop("=", col(d, 0), num(5)));
	root = f3;
	assert_int_equal(optimize_plan(p, &root, "", &E), FLOE_OK);
	assert_ptr_equal(root, f3);
	assert_ptr_equal(d->children[0], g);
	assert_int_equal(g->nexprs, 2);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
}

/* Filter(conj...) over Join(kind, t.a = u.a) of Get t and Get u */
static LogicalOp *
filter_join(LogicalPlan *p, LogicalJoinKind kind, LogicalOp **jout, LogicalOp **tout, LogicalOp **uout)
{
	LogicalOp *t = get_t(p), *u = get_t(p), *j, *f;
	Expr *on = binop("=", col(t, 0), col(u, 0)), *c[4];

	u->name = "u";
	j = lop_new(p, LOP_JOIN, 2, t, u);
	j->join = kind;
	lop_set_exprs(p, j, 1, &on);
	lop_pass_columns(p, j, t);
	lop_pass_columns(p, j, u);
	c[0] = binop(">", col(t, 1), num(1));           /* t only */
	c[1] = binop("<", col(u, 1), num(9));           /* u only */
	c[2] = binop("<", col(t, 1), col(u, 1));        /* both */
	c[3] = binop("=", num(1), num(1));              /* no column */
	f = lop_new(p, LOP_FILTER, 1, j);
	lop_set_exprs(p, f, 4, c);
	lop_pass_columns(p, f, j);
	*jout = j;
	*tout = t;
	*uout = u;
	return f;
}

/* INNER: t's and u's conjuncts filter their Gets, the one over both joins
 * the condition, the constant one stays; LEFT: only t's moves; FULL:
 * nothing; switched off: nothing */
static void
test_optimizer__join_filter_pushdown(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *j, *t, *u, *root = filter_join(p, LJ_INNER, &j, &t, &u);

	(void)state;
	assert_int_equal(optimize_plan(p, &root, "", &E), FLOE_OK);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, root, A),
			    "Filter (1 = 1)\n"
			    "  Join INNER ON (#1 = #3) AND (#2 < #4)\n"
			    "    Get public.t [#1 a, #2 b] filters (#2 > 1)\n"
			    "    Get public.u [#3 a, #4 b] filters (#4 < 9)\n");
	assert_int_equal(p->npasses, 2);
	assert_string_equal(p->passes[0], "join_filter_pushdown");

	p = lplan_new(A);
	root = filter_join(p, LJ_LEFT, &j, &t, &u);
	assert_int_equal(optimize_plan(p, &root, "filter_pushdown", &E), FLOE_OK);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, root, A),
			    "Filter (#4 < 9) AND (#2 < #4) AND (1 = 1)\n"
			    "  Join LEFT ON (#1 = #3)\n"
			    "    Filter (#2 > 1)\n"
			    "      Get public.t [#1 a, #2 b]\n"
			    "    Get public.u [#3 a, #4 b]\n");

	p = lplan_new(A);
	root = filter_join(p, LJ_FULL, &j, &t, &u);
	assert_int_equal(optimize_plan(p, &root, "", &E), FLOE_OK);
	assert_ptr_equal(root->children[0], j);
	assert_int_equal(root->nexprs, 4);
	assert_int_equal(p->npasses, 0);

	p = lplan_new(A);
	root = filter_join(p, LJ_INNER, &j, &t, &u);
	assert_int_equal(optimize_plan(p, &root, "join_filter_pushdown", &E), FLOE_OK);
	assert_int_equal(root->nexprs, 4);
	assert_ptr_equal(root->children[0], j);
	assert_int_equal(j->nexprs, 1);
}

/* a LEFT join's ON conjunct over u (the inner side) filters u; over t (the
 * preserved side) it stays in the condition */
static void
test_optimizer__join_condition_pushdown(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *t = get_t(p), *u = get_t(p), *j, *root;
	Expr *on[3];

	(void)state;
	u->name = "u";
	j = lop_new(p, LOP_JOIN, 2, t, u);
	j->join = LJ_LEFT;
	on[0] = binop("=", col(t, 0), col(u, 0));
	on[1] = binop(">", col(u, 1), num(5));
	on[2] = binop(">", col(t, 1), num(7));
	lop_set_exprs(p, j, 3, on);
	lop_pass_columns(p, j, t);
	lop_pass_columns(p, j, u);
	root = j;
	assert_int_equal(optimize_plan(p, &root, "", &E), FLOE_OK);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, root, A),
			    "Join LEFT ON (#1 = #3) AND (#2 > 7)\n"
			    "  Get public.t [#1 a, #2 b]\n"
			    "  Get public.u [#3 a, #4 b] filters (#4 > 5)\n");
}

static LogicalOp *
get_u(LogicalPlan *p)
{
	LogicalOp *g = lop_new(p, LOP_GET, 0);
	g->schema = "public";
	g->name = "u";
	lop_add_column(p, g, type_make(TYPE_INT32), "a");
	lop_add_column(p, g, type_make(TYPE_INT32), "b");
	return g;
}

/* Filter(t.b > sum) over Join DEPENDENT SINGLE (t, Aggregate [] sum(u.b)
 * (Filter u.a = t.a AND u.b > 0 (u))), with the correlation conjunct given
 * as outer = inner (swapped: t.a = u.a) */
static LogicalOp *
dependent_plan(LogicalPlan *p, LogicalOp **join, LogicalOp **agg)
{
	LogicalOp *t = get_t(p), *u = get_u(p), *f, *ag, *j, *top;
	Expr *c[2];

	f = lop_new(p, LOP_FILTER, 1, u);
	c[0] = binop("=", col(t, 0), col(u, 0));
	c[1] = binop(">", col(u, 1), num(0));
	lop_set_exprs(p, f, 2, c);
	lop_pass_columns(p, f, u);
	ag = lop_new(p, LOP_AGGREGATE, 1, f);
	add_sum(p, ag, col(f, 1));
	j = lop_new(p, LOP_JOIN, 2, t, ag);
	j->join = LJ_SINGLE;
	j->ncorr = 1;
	j->corr = arena_alloc(A, sizeof *j->corr);
	j->corr[0] = t->cols[0].id;
	lop_pass_columns(p, j, t);
	lop_pass_columns(p, j, ag);
	top = filter(p, j, binop("=", col(j, 1), col(j, 2)));
	*join = j;
	*agg = ag;
	return top;
}

/* decorrelate: the dependent join becomes a LEFT join on t.a = #key over
 * the aggregate grouped on u.a; the uncorrelated conjunct stays below; the
 * Filter above is widened by the key column; the plan verifies */
static void
test_optimizer__decorrelate(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *j, *ag, *root;

	(void)state;
	root = dependent_plan(p, &j, &ag);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_int_equal(optimize_plan(p, &root, "filter_pushdown", &E), FLOE_OK);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_int_equal(j->join, LJ_LEFT);
	assert_int_equal(j->ncorr, 0);
	assert_int_equal(ag->nexprs, 1);
	assert_string_equal(lplan_print(p, root, A),
			    "Filter (#2 = #5)\n"
			    "  Join LEFT ON (#1 = #6) REDUCE\n"
			    "    Get public.t [#1 a, #2 b]\n"
			    "    Aggregate keys [#6 := #3] aggs [#5 sum := sum(#4)]\n"
			    "      Filter (#4 > 0)\n"
			    "        Get public.u [#3 a, #4 b]\n");
	assert_int_equal(root->ncols, 4);     /* t.a, t.b, the key, sum */
	assert_string_equal(p->passes[0], "decorrelate");
}

/* a correlation that is not an equality: the dependent join stays (and
 * so with the pass switched off) */
static void
test_optimizer__decorrelate_not_equality(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *j, *ag, *root;

	(void)state;
	root = dependent_plan(p, &j, &ag);
	ag->children[0]->exprs[0] = binop("<", col(j, 0), col(ag->children[0], 0));
	assert_int_equal(optimize_plan(p, &root, "", &E), FLOE_OK);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_int_equal(j->join, LJ_SINGLE);
	assert_int_equal(j->ncorr, 1);
	root = dependent_plan(p, &j, &ag);
	assert_int_equal(optimize_plan(p, &root, "decorrelate", &E), FLOE_OK);
	assert_int_equal(j->join, LJ_SINGLE);
}

/* three Gets joined t-u-w as written; join_order starts from the largest
 * (u), then of the two tied to it equally the smaller (t); a LEFT join is
 * a barrier (w stays its right side); a reordered root gets a Project
 * restoring the column order under fresh ids; switched off: as written */
static LogicalOp *
named_get(LogicalPlan *p, const char *name, double rows)
{
	LogicalOp *g = get_t(p);
	g->name = name;
	g->est_rows = rows;
	return g;
}

static LogicalOp *
join_of(LogicalPlan *p, LogicalJoinKind kind, LogicalOp *l, LogicalOp *r, Expr *c)
{
	LogicalOp *j = lop_new(p, LOP_JOIN, 2, l, r);
	j->join = kind;
	lop_pass_columns(p, j, l);
	lop_pass_columns(p, j, r);
	lop_set_exprs(p, j, 1, &c);
	return j;
}

static LogicalOp *
three_joins(LogicalPlan *p, LogicalJoinKind top)
{
	LogicalOp *t = named_get(p, "t", 10), *u = named_get(p, "u", 1000), *w = named_get(p, "w", 100);
	LogicalOp *j1 = join_of(p, LJ_INNER, t, u, binop("=", col(t, 0), col(u, 0)));
	return join_of(p, top, j1, w, binop("=", col(u, 1), col(w, 0)));
}

static void
test_optimizer__join_order(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *root = three_joins(p, LJ_INNER);

	(void)state;
	assert_int_equal(optimize_plan(p, &root, NULL, &E), FLOE_OK);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, root, A),
			    "Project [#7 a := #1, #8 b := #2, #9 a := #3, #10 b := #4, #11 a := #5, #12 b := #6] (rows=1000)\n"
			    "  Join INNER ON (#4 = #5) (rows=1000)\n"
			    "    Join INNER ON (#1 = #3) (rows=1000)\n"
			    "      Get public.u [#3 a, #4 b] (rows=1000)\n"
			    "      Get public.t [#1 a, #2 b] (rows=10)\n"
			    "    Get public.w [#5 a, #6 b] (rows=100)\n");
	assert_int_equal(p->npasses, 1);
	assert_string_equal(p->passes[0], "join_order");

	p = lplan_new(A);
	root = three_joins(p, LJ_LEFT);
	assert_int_equal(optimize_plan(p, &root, NULL, &E), FLOE_OK);
	assert_int_equal(lplan_verify(p, root, &E), FLOE_OK);
	assert_string_equal(lplan_print(p, root, A),
			    "Project [#7 a := #1, #8 b := #2, #9 a := #3, #10 b := #4, #11 a := #5, #12 b := #6]\n"
			    "  Join LEFT ON (#4 = #5)\n"
			    "    Join INNER ON (#1 = #3) (rows=1000)\n"
			    "      Get public.u [#3 a, #4 b] (rows=1000)\n"
			    "      Get public.t [#1 a, #2 b] (rows=10)\n"
			    "    Get public.w [#5 a, #6 b] (rows=100)\n");

	p = lplan_new(A);
	root = three_joins(p, LJ_INNER);
	assert_int_equal(optimize_plan(p, &root, "join_order", &E), FLOE_OK);
	assert_int_equal(root->kind, LOP_JOIN);
	assert_string_equal(root->children[0]->children[0]->name, "t");
	assert_int_equal(p->npasses, 0);
}

/* floe.disabled_optimizers: names checked and normalised; 22023 otherwise */
static void
test_optimizer__canon(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(optimizer_canon_disabled(" FILTER_pushdown, filter_pushdown ,", out, sizeof out, &E),
			 FLOE_OK);
	assert_string_equal(out, "filter_pushdown");
	assert_int_equal(optimizer_canon_disabled("", out, sizeof out, &E), FLOE_OK);
	assert_string_equal(out, "");
	assert_int_equal(optimizer_canon_disabled("filter_pushdown,join_magic", out, sizeof out, &E), FLOE_ERR);
	assert_string_equal(E.sqlstate, "22023");
	assert_non_null(strstr(E.message, "\"join_magic\" is not an optimizer pass"));
	assert_int_equal(optimizer_pass_count(), 6);
	assert_string_equal(optimizer_pass_name(0), "mark_join");     /* the binder's rule */
	assert_string_equal(optimizer_pass_name(1), "decorrelate");
	assert_string_equal(optimizer_pass_name(2), "join_filter_pushdown");
	assert_string_equal(optimizer_pass_name(3), "join_order");
	assert_string_equal(optimizer_pass_name(4), "join_dp");       /* join_order's rule */
	assert_string_equal(optimizer_pass_name(5), "filter_pushdown");
	assert_null(optimizer_pass_name(6));
	assert_int_equal(optimizer_canon_disabled("Mark_Join", out, sizeof out, &E), FLOE_OK);
	assert_string_equal(out, "mark_join");
	assert_true(optimizer_disabled(" decorrelate, MARK_JOIN", "mark_join"));
	assert_false(optimizer_disabled("decorrelate", "mark_join"));
	assert_false(optimizer_disabled(NULL, "mark_join"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_optimizer__filter_pushdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__disabled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__only_over_get, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__join_filter_pushdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__join_condition_pushdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__decorrelate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__decorrelate_not_equality, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__join_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__canon, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
