/*
 * test_join_dp.c — optimize/join_dp.h: the rows of a subset are the same
 * whatever its order, the search finds the bushy tree of two filtered
 * stars that every left-deep order costs more, a chain keeps its edges
 * (no cross product), a graph that is not connected has no tree, and the
 * cost of a left-deep order is the model's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include "optimize/join_dp.h"

static Arena *A;

static int
setup(void **state)
{
	(void)state;
	A = arena_new(0);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	arena_free(A);
	return 0;
}

static void
edge(double *sel, int n, int a, int b, double s)
{
	sel[a * n + b] = sel[b * n + a] = s;
}

/* f1(10000) - d1(1 of 100, key), f2(9000) - d2(1 of 100, key), f1 - f2 on
 * 10 values: (f1 d1) (f2 d2) bushy, 100 x 90 / 10 = 900 rows */
static void
test_join_dp__bushy(void **state)
{
	double est[4] = { 10000, 1, 9000, 1 }, sel[16] = { 0 };
	int greedy[4] = { 0, 1, 2, 3 };
	JoinDp *dp;
	uint32_t l;

	(void)state;
	edge(sel, 4, 0, 1, 1.0 / 100);
	edge(sel, 4, 2, 3, 1.0 / 100);
	edge(sel, 4, 0, 2, 1.0 / 10);
	dp = join_dp_new(A, 4, est, sel);
	assert_non_null(dp);
	assert_true(join_dp_best(dp));
	assert_true(fabs(join_dp_rows(dp, 0xF) - 900) < 1e-6);
	assert_true(fabs(join_dp_rows(dp, 0x3) - 100) < 1e-6);
	assert_true(fabs(join_dp_rows(dp, 0x5) - 9000000) < 1e-3);
	l = join_dp_split(dp, 0xF);
	assert_true(l == 0x3 || l == 0xC);     /* {f1 d1} | {f2 d2} */
	assert_int_equal(join_dp_split(dp, 0x3) & 0x1, 0x1);   /* f1, the larger, probes */
	assert_int_equal(join_dp_split(dp, 0x1), 0);
	/* 2x1 + 10000 + 100, 2x1 + 9000 + 90, 2x90 + 100 + 900 */
	assert_true(fabs(join_dp_cost(dp, 0xF) - (10102 + 9092 + 1180)) < 1e-6);
	/* f1 d1 f2 d2 left-deep: 10102, 2x100 + 9000 + 90000, 2x1 + 90000 + 900 */
	assert_true(fabs(join_dp_order_cost(dp, greedy) - (10102 + 99200 + 90902)) < 1e-6);
	greedy[1] = 2, greedy[2] = 1;          /* f1 f2 d1 d2 */
	assert_true(join_dp_order_cost(dp, greedy) > join_dp_cost(dp, 0xF));
}

/* a chain a - b - c: never a x c */
static void
test_join_dp__chain(void **state)
{
	double est[3] = { 100, 1000000, 100 }, sel[9] = { 0 };
	int cross[3] = { 0, 2, 1 };
	JoinDp *dp;
	uint32_t l;

	(void)state;
	edge(sel, 3, 0, 1, 1.0 / 1000000);
	edge(sel, 3, 1, 2, 1.0 / 1000000);
	dp = join_dp_new(A, 3, est, sel);
	assert_true(join_dp_best(dp));
	l = join_dp_split(dp, 0x7);
	assert_true(l == 0x3 || l == 0x6 || l == 0x1 || l == 0x4);
	assert_true(join_dp_cost(dp, 0x5) < 0);        /* a, c: no tree */
	assert_true(join_dp_order_cost(dp, cross) < 0);
}

static void
test_join_dp__not_connected(void **state)
{
	double est[4] = { 10, 20, 30, 40 }, sel[16] = { 0 };
	JoinDp *dp;

	(void)state;
	edge(sel, 4, 0, 1, 0.1);
	edge(sel, 4, 2, 3, 0.1);
	dp = join_dp_new(A, 4, est, sel);
	assert_false(join_dp_best(dp));
	assert_null(join_dp_new(A, JOIN_DP_MAX_RELS + 1, est, sel));
	dp = join_dp_new(A, 1, est, sel);
	assert_false(join_dp_best(dp));
}

/* 12 relations in a star: the search ends, its tree covers them all */
static void
test_join_dp__twelve(void **state)
{
	double est[12], sel[144] = { 0 };
	JoinDp *dp;
	int leaves = 0;
	uint32_t stack[64], full = 0xFFF;
	int sp = 0;

	(void)state;
	for (int k = 0; k < 12; k++) {
		est[k] = k == 0 ? 1e7 : 100 * k;
		if (k)
			edge(sel, 12, 0, k, 1.0 / (100 * k));
	}
	dp = join_dp_new(A, 12, est, sel);
	assert_true(join_dp_best(dp));
	stack[sp++] = full;
	while (sp) {
		uint32_t s = stack[--sp], l = join_dp_split(dp, s);
		if (!l) {
			assert_int_equal(__builtin_popcount(s), 1);
			leaves++;
			continue;
		}
		assert_int_equal(l & ~s, 0);
		assert_true(l != s);
		stack[sp++] = l;
		stack[sp++] = s ^ l;
	}
	assert_int_equal(leaves, 12);
	assert_true(fabs(join_dp_rows(dp, full) - 1e7) < 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_join_dp__bushy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_join_dp__chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_join_dp__not_connected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_join_dp__twelve, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
