/*
 * test_dscale.c — per-row display scales of unconstrained numeric vectors
 * (vector.h "Display scale", value.h dzeros): copies carry them, text output
 * prints at them, casts to unconstrained numeric set them, stored columns
 * (numeric at NUMERIC_DEFAULT_SCALE without dscale) print without trailing
 * zeros.
 *
 * Expected texts are PostgreSQL 15's for the same values (psql -Atc):
 * select 1.50::numeric -> 1.50, '2.5'::float8::numeric -> 2.5,
 * 7::numeric -> 7, '0.0100'::numeric -> 0.0100.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "types/cast.h"
#include "types/decimal.h"
#include "types/text.h"
#include "types/vector.h"

static floe_error err;
static Arena *A;

static int setup(void **s) { A = arena_new(0); return 0; }
static int teardown(void **s) { arena_free(A); return 0; }

static const char *
row_text(const Vector *v, uint32_t i)
{
	size_t n;
	const char *s = vector_value_text(v, i, A, &n);
	return s ? s : "NULL";
}

/* a (0, scale) vector holding unscaled values vals[], display scales ds[] (NULL: none) */
static Vector
dec_vector(int scale, const int128 *vals, const uint8_t *ds, uint32_t n)
{
	Vector v;
	vector_init(&v, type_decimal(0, scale), A, n);
	memcpy(v.data, vals, sizeof(int128) * n);
	if (ds) {
		vector_ensure_dscale(&v);
		memcpy(v.dscale, ds, n);
	}
	return v;
}

static void
test_dscale__text_at_row_scale(void **state)
{
	int128 vals[3] = { 1500000, 2250000, 30000000 };   /* scale 6 */
	uint8_t ds[3] = { 2, 6, 0 };
	Vector v = dec_vector(6, vals, ds, 3);

	assert_string_equal(row_text(&v, 0), "1.50");
	assert_string_equal(row_text(&v, 1), "2.250000");
	assert_string_equal(row_text(&v, 2), "30");
	assert_int_equal(vector_row_dscale(&v, 0), 2);
	/* vector_get_value keeps the type's scale; dzeros says what is hidden */
	Value x;
	vector_get_value(&v, 0, &x);
	assert_true(x.u.d == 1500000);
	assert_int_equal(x.type.scale, 6);
	assert_int_equal(x.dzeros, 4);
	assert_string_equal(value_to_text(&x, A, &(size_t){0}), "1.50");
	value_to_display_scale(&x);
	assert_true(x.u.d == 150);
	assert_int_equal(x.type.scale, 2);
}

static void
test_dscale__stored_column_trims(void **state)
{
	/* decimal(38,10) as read from Iceberg: 1.5, 10, 0.001, 0 */
	int128 vals[4] = { 15000000000, 100000000000, 10000000, 0 };
	Vector v = dec_vector(NUMERIC_DEFAULT_SCALE, vals, NULL, 4);

	assert_true(vector_varies(&v));
	assert_string_equal(row_text(&v, 0), "1.5");
	assert_string_equal(row_text(&v, 1), "10");
	assert_string_equal(row_text(&v, 2), "0.001");
	assert_string_equal(row_text(&v, 3), "0");
	/* a constrained numeric(20,10) prints all its digits */
	Vector c = v;
	c.type = type_decimal(20, 10);
	assert_false(vector_varies(&c));
	assert_string_equal(row_text(&c, 0), "1.5000000000");
}

static void
test_dscale__copies_carry(void **state)
{
	int128 vals[3] = { 150, 225, 300 };   /* scale 2 */
	uint8_t ds[3] = { 1, 2, 0 };
	Vector src = dec_vector(2, vals, ds, 3), dst, flat;
	uint32_t sel[2] = { 2, 0 };

	vector_init(&dst, type_decimal(0, 2), A, 4);
	vector_copy_rows(&dst, 1, &src, sel, 2);
	assert_string_equal(row_text(&dst, 1), "3");
	assert_string_equal(row_text(&dst, 2), "1.5");

	/* a dictionary over src, flattened */
	Vector d;
	uint32_t dsel[3] = { 1, 1, 0 };
	memset(&d, 0, sizeof d);
	d.type = src.type;
	d.kind = VECTOR_DICT;
	d.child = &src;
	d.dict_sel = dsel;
	d.arena = A;
	d.capacity = 3;
	assert_string_equal(row_text(&d, 2), "1.5");
	flat = d;
	vector_flatten(&flat, 3);
	assert_string_equal(row_text(&flat, 0), "2.25");
	assert_string_equal(row_text(&flat, 2), "1.5");

	/* hand-written gathers */
	Vector g;
	vector_init(&g, type_decimal(0, 2), A, 2);
	((int128 *)g.data)[0] = vals[2];
	vector_copy_dscale(&g, 0, &src, 2);
	((int128 *)g.data)[1] = vals[1];
	vector_copy_dscale(&g, 1, &src, 1);
	assert_string_equal(row_text(&g, 0), "3");
	assert_string_equal(row_text(&g, 1), "2.25");

	/* set_value of a value read from a row keeps its display scale */
	Value x;
	Vector one;
	vector_get_value(&src, 0, &x);
	vector_init(&one, type_decimal(0, 2), A, 1);
	vector_set_value(&one, 0, &x);
	assert_string_equal(row_text(&one, 0), "1.5");
	vector_init_const(&one, &x, A);
	assert_string_equal(row_text(&one, 0), "1.5");
}

static void
test_dscale__casts(void **state)
{
	/* text -> numeric at scale 10: each row's own scale */
	Vector t, out, txt;
	const char *in[4] = { "1.50", "7", "0.0100", "-2.5e1" };
	const char *want[4] = { "1.50", "7", "0.0100", "-25" };
	vector_init(&t, type_make(TYPE_TEXT), A, 4);
	for (int i = 0; i < 4; i++)
		vector_set_string(&t, (uint32_t)i, in[i], (uint32_t)strlen(in[i]));
	vector_init(&out, type_decimal(0, 10), A, 4);
	assert_int_equal(cast_vector(&t, 4, &out, type_decimal(0, 10), 0, &err), FLOE_OK);
	for (int i = 0; i < 4; i++)
		assert_string_equal(row_text(&out, (uint32_t)i), want[i]);
	/* and back to text at the display scale */
	vector_init(&txt, type_make(TYPE_TEXT), A, 4);
	assert_int_equal(cast_vector(&out, 4, &txt, type_make(TYPE_TEXT), 0, &err), FLOE_OK);
	for (int i = 0; i < 4; i++)
		assert_string_equal(row_text(&txt, (uint32_t)i), want[i]);

	/* float8 -> numeric: the "%.15g" digits */
	Vector f, fo;
	vector_init(&f, type_make(TYPE_FLOAT64), A, 2);
	((double *)f.data)[0] = 2.5;
	((double *)f.data)[1] = 0.1;
	vector_init(&fo, type_decimal(0, 10), A, 2);
	assert_int_equal(cast_vector(&f, 2, &fo, type_decimal(0, 10), 0, &err), FLOE_OK);
	assert_string_equal(row_text(&fo, 0), "2.5");
	assert_string_equal(row_text(&fo, 1), "0.1");

	/* integer -> numeric at a larger scale prints no fraction */
	Vector iv, io;
	vector_init(&iv, type_make(TYPE_INT32), A, 1);
	((int32_t *)iv.data)[0] = 7;
	vector_init(&io, type_decimal(0, 3), A, 1);
	assert_int_equal(cast_vector(&iv, 1, &io, type_decimal(0, 3), 0, &err), FLOE_OK);
	assert_string_equal(row_text(&io, 0), "7");

	/* numeric(5,2) -> numeric at scale 4 keeps 2 digits; -> numeric(6,3) shows 3 */
	int128 vals[1] = { 150 };
	Vector c = dec_vector(2, vals, NULL, 1), co;
	c.type = type_decimal(5, 2);
	vector_init(&co, type_decimal(0, 4), A, 1);
	assert_int_equal(cast_vector(&c, 1, &co, type_decimal(0, 4), 0, &err), FLOE_OK);
	assert_true(((int128 *)co.data)[0] == 15000);
	assert_string_equal(row_text(&co, 0), "1.50");
	vector_init(&co, type_decimal(6, 3), A, 1);
	assert_int_equal(cast_vector(&c, 1, &co, type_decimal(6, 3), 0, &err), FLOE_OK);
	assert_string_equal(row_text(&co, 0), "1.500");

	/* the binder's type for CAST(x AS numeric) */
	assert_int_equal(cast_unconstrained_numeric(type_decimal(10, 3)).scale, 3);
	assert_int_equal(cast_unconstrained_numeric(type_make(TYPE_INT64)).scale, 0);
	assert_int_equal(cast_unconstrained_numeric(type_make(TYPE_TEXT)).scale,
			 NUMERIC_DEFAULT_SCALE);
	assert_int_equal(cast_unconstrained_numeric(type_make(TYPE_FLOAT64)).precision, 0);
}

static void
test_dscale__trim_scale(void **state)
{
	assert_int_equal(numeric_trim_scale(1500, 3), 1);
	assert_int_equal(numeric_trim_scale(0, 5), 0);
	assert_int_equal(numeric_trim_scale(-120, 2), 1);
	assert_int_equal(numeric_trim_scale(7, 0), 0);
	assert_int_equal(numeric_trim_scale(123, 2), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dscale__text_at_row_scale),
		cmocka_unit_test(test_dscale__stored_column_trims),
		cmocka_unit_test(test_dscale__copies_carry),
		cmocka_unit_test(test_dscale__casts),
		cmocka_unit_test(test_dscale__trim_scale),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
