/*
 * test_vector_copy.c — vector_copy_rows' typed gathers, its DICT fast path
 * (vector_dense_under) and vector_init_raw, checked row by row against
 * the slow path (vector_get_value on the source), which reads every kind
 * through the one indexing rule of vector.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "types/vector.h"

static Arena *A;

static int setup(void **s) { A = arena_new(0); return 0; }
static int teardown(void **s) { arena_free(A); return 0; }

enum { N = 300 };

/* A flat source of type t: row i holds i * 7 + 1 (strings "s<i>..."),
 * NULL where i % 5 == 3 when with_nulls. */
static void
make_src(Vector *v, SqlType t, bool with_nulls)
{
	vector_init(v, t, A, N);
	for (uint32_t i = 0; i < N; i++) {
		Value x;
		memset(&x, 0, sizeof x);
		x.type = t;
		if (with_nulls && i % 5 == 3) {
			x.is_null = true;
		} else if (t.id == TYPE_TEXT) {
			char *b = arena_sprintf(A, "s%u-%s", i, i % 2 ? "a long string over twelve" : "x");
			x.u.s = strview_make(b, (uint32_t)strlen(b));
		} else if (t.id == TYPE_DECIMAL) {
			x.u.d = (int128)i * 7 + 1;
		} else if (t.id == TYPE_BOOL) {
			x.u.b = i % 3 == 0;
		} else {
			x.u.i = (int64_t)i * 7 + 1;
		}
		vector_set_value(v, i, &x);
	}
}

static void
same_value(const Value *a, const Value *b, uint32_t row)
{
	if (a->is_null || b->is_null) {
		if (a->is_null != b->is_null)
			fail_msg("row %u: null %d vs %d", row, a->is_null, b->is_null);
		return;
	}
	switch (a->type.id) {
	case TYPE_TEXT:
		if (!strview_eq(&a->u.s, &b->u.s))
			fail_msg("row %u: strings differ", row);
		break;
	case TYPE_DECIMAL:
		if (a->u.d != b->u.d)
			fail_msg("row %u: decimals differ", row);
		break;
	case TYPE_BOOL:
		if (a->u.b != b->u.b)
			fail_msg("row %u: bools differ", row);
		break;
	default:
		if (a->u.i != b->u.i)
			fail_msg("row %u: %lld vs %lld", row, (long long)a->u.i, (long long)b->u.i);
	}
}

/* dst rows j must be src rows sel[j] (or j). */
static void
check_copy(const Vector *src, const uint32_t *sel, uint32_t n, bool raw)
{
	Vector dst;

	if (raw)
		vector_init_raw(&dst, src->type, A, n + 3);
	else
		vector_init(&dst, src->type, A, n + 3);
	vector_copy_rows(&dst, 3, src, sel, n);
	for (uint32_t j = 0; j < n; j++) {
		Value a, b;
		vector_get_value(&dst, 3 + j, &a);
		vector_get_value(src, sel ? sel[j] : j, &b);
		same_value(&a, &b, j);
	}
}

static const TypeId ids[] = { TYPE_BOOL, TYPE_INT16, TYPE_INT32, TYPE_INT64, TYPE_DECIMAL, TYPE_TEXT };

static void
test_flat_and_dict(void **state)
{
	uint32_t sel[N], n = 0;

	for (uint32_t i = 0; i < N; i++)
		if (i % 3 != 1)
			sel[n++] = i;
	for (size_t t = 0; t < sizeof ids / sizeof ids[0]; t++) {
		for (int nulls = 0; nulls < 2; nulls++) {
			SqlType ty = ids[t] == TYPE_DECIMAL ? type_decimal(15, 2) : type_make(ids[t]);
			Vector flat, dict;
			uint32_t *map = arena_alloc(A, sizeof(uint32_t) * N);

			make_src(&flat, ty, nulls);
			check_copy(&flat, NULL, N, false);
			check_copy(&flat, sel, n, true);
			/* a DICT reversing its child */
			for (uint32_t i = 0; i < N; i++)
				map[i] = N - 1 - i;
			memset(&dict, 0, sizeof dict);
			dict = flat;
			dict.kind = VECTOR_DICT;
			dict.child = &flat;
			dict.dict_sel = map;
			dict.data = NULL;
			dict.validity = NULL;
			check_copy(&dict, NULL, N, true);
			check_copy(&dict, sel, n, false);
			assert_false(vector_dense_under(&dict, sel, n));
		}
	}
}

/* An expression result under a selection: row sel[j] is child row j. */
static void
test_dense_under(void **state)
{
	uint32_t sel[N], n = 0;
	Vector child, dict;
	uint32_t *map = arena_calloc(A, sizeof(uint32_t) * N);

	for (uint32_t i = 0; i < N; i++)
		if (i % 4 == 0 || i % 7 == 0)
			sel[n++] = i;
	make_src(&child, type_decimal(12, 2), true);
	child.capacity = n;
	for (uint32_t j = 0; j < n; j++)
		map[sel[j]] = j;
	dict = child;
	dict.kind = VECTOR_DICT;
	dict.child = &child;
	dict.dict_sel = map;
	dict.data = NULL;
	dict.validity = NULL;
	assert_true(vector_dense_under(&dict, sel, n));
	assert_false(vector_dense_under(&dict, NULL, n));
	assert_false(vector_dense_under(&child, sel, n));
	check_copy(&dict, sel, n, true);
	/* one row off: no longer dense, still copied right */
	map[sel[5]] = 6;
	assert_false(vector_dense_under(&dict, sel, n));
	check_copy(&dict, sel, n, true);
}

/* A CONST source and a destination that already has a validity bitmap. */
static void
test_const_and_validity(void **state)
{
	Value x;
	Vector c, dst, src;
	uint32_t sel[4] = { 0, 2, 9, 17 };

	memset(&x, 0, sizeof x);
	x.type = type_make(TYPE_INT64);
	x.u.i = 42;
	vector_init_const(&c, &x, A);
	check_copy(&c, sel, 4, true);
	make_src(&src, type_make(TYPE_INT32), false);
	vector_init(&dst, src.type, A, 8);
	for (uint32_t i = 0; i < 8; i++)
		vector_set_null(&dst, i);
	vector_copy_rows(&dst, 2, &src, sel, 4);
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(vector_is_valid(&dst, i), i >= 2 && i < 6);
	assert_int_equal(((int32_t *)dst.data)[4], 9 * 7 + 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_and_dict),
		cmocka_unit_test(test_dense_under),
		cmocka_unit_test(test_const_and_validity),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
