/*
 * test_optimizer.c — optimize/optimizer.h: the pass list, the
 * floe.disabled_optimizers value, and the filter_pushdown pass over
 * hand-built plans (a Filter over a Get becomes the Get's filters; other
 * Filters stay; the plan verifies after the pass).
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
	assert_int_equal(optimizer_pass_count(), 1);
	assert_string_equal(optimizer_pass_name(0), "filter_pushdown");
	assert_null(optimizer_pass_name(1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_optimizer__filter_pushdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__disabled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__only_over_get, setup, teardown),
		cmocka_unit_test_setup_teardown(test_optimizer__canon, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
