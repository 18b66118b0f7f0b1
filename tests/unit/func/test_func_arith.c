/*
 * test_func_arith.c — arithmetic, comparison and math kernels: NULLs,
 * const and dict inputs, overflow and division-by-zero errors.  Expected
 * values and error texts are PostgreSQL 15's (psql against a real
 * postgresql-15 server; queries quoted per assertion).
 */
#include <math.h>
#include "func_testutil.h"

static void
test_func_arith__int_add_nulls_const_dict(void **state)
{
	int64_t a[] = { 1, 2, 3, 4 }, b[] = { 10, 20, 30, 40 };
	bool an[] = { false, true, false, false };
	Vector args[2], out, child;
	uint32_t sel[] = { 3, 0, 1, 3 };

	args[0] = t_ints(TYPE_INT32, a, an, 4);
	args[1] = t_ints(TYPE_INT32, b, NULL, 4);
	assert_int_equal(t_call("+", args, 2, 4, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 11);
	assert_true(t_null_at(&out, 1));
	assert_int_equal(t_int_at(&out, 2), 33);
	assert_int_equal(t_int_at(&out, 3), 44);

	/* const right side: x * 3 */
	args[1] = t_const_int(TYPE_INT32, 3);
	assert_int_equal(t_call("*", args, 2, 4, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 3);
	assert_true(t_null_at(&out, 1));
	assert_int_equal(t_int_at(&out, 3), 12);

	/* dict left side over b: rows b[3], b[0], b[1], b[3] minus const 3 */
	child = t_ints(TYPE_INT32, b, NULL, 4);
	args[0] = t_dict(&child, sel, 4);
	assert_int_equal(t_call("-", args, 2, 4, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 37);
	assert_int_equal(t_int_at(&out, 1), 7);
	assert_int_equal(t_int_at(&out, 2), 17);
	assert_int_equal(t_int_at(&out, 3), 37);

	/* NULL constant: every row NULL */
	args[1] = t_const_null(type_make(TYPE_INT32));
	assert_int_equal(t_call("+", args, 2, 4, &out), FLOE_OK);
	assert_true(t_null_at(&out, 0) && t_null_at(&out, 3));
}

static void
expect_err(const char *op, Vector *args, int nargs, const char *code, const char *msg)
{
	Vector out;
	assert_int_equal(t_call(op, args, nargs, 1, &out), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, code);
	assert_string_equal(T_err.message, msg);
}

static void
test_func_arith__int_errors(void **state)
{
	Vector args[2];
	int64_t v;

	/* select 32767::int2 + 1::int2 -> ERROR: smallint out of range */
	v = 32767;
	args[0] = t_ints(TYPE_INT16, &v, NULL, 1);
	args[1] = t_const_int(TYPE_INT16, 1);
	expect_err("+", args, 2, "22003", "smallint out of range");
	/* select 2147483647 + 1 -> integer out of range */
	v = INT32_MAX;
	args[0] = t_ints(TYPE_INT32, &v, NULL, 1);
	args[1] = t_const_int(TYPE_INT32, 1);
	expect_err("+", args, 2, "22003", "integer out of range");
	/* select 9223372036854775807::int8 * 2 -> bigint out of range */
	v = INT64_MAX;
	args[0] = t_ints(TYPE_INT64, &v, NULL, 1);
	args[1] = t_const_int(TYPE_INT64, 2);
	expect_err("*", args, 2, "22003", "bigint out of range");
	/* select (-9223372036854775808)::int8 / -1 -> bigint out of range */
	v = INT64_MIN;
	args[0] = t_ints(TYPE_INT64, &v, NULL, 1);
	args[1] = t_const_int(TYPE_INT64, -1);
	expect_err("/", args, 2, "22003", "bigint out of range");
	/* ... % -1 is 0 */
	{
		Vector out;
		assert_int_equal(t_call("%", args, 2, 1, &out), FLOE_OK);
		assert_int_equal(t_int_at(&out, 0), 0);
	}
	/* select 7 / 0 -> 22012 division by zero; 7 % 0 too */
	v = 7;
	args[0] = t_ints(TYPE_INT32, &v, NULL, 1);
	args[1] = t_const_int(TYPE_INT32, 0);
	expect_err("/", args, 2, "22012", "division by zero");
	expect_err("%", args, 2, "22012", "division by zero");
	/* select -(-32768)::int2 -> smallint out of range */
	v = INT16_MIN;
	args[0] = t_ints(TYPE_INT16, &v, NULL, 1);
	expect_err("u-", args, 1, "22003", "smallint out of range");
	expect_err("abs", args, 1, "22003", "smallint out of range");
}

static void
test_func_arith__int_div_mod_signs(void **state)
{
	/* select -7 / 2, -7 % 2, 7 % -2 -> -3 | -1 | 1 */
	int64_t a[] = { -7, -7, 7 }, b[] = { 2, 2, -2 };
	Vector args[2], out;

	args[0] = t_ints(TYPE_INT32, a, NULL, 3);
	args[1] = t_ints(TYPE_INT32, b, NULL, 3);
	assert_int_equal(t_call("/", args, 2, 3, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), -3);
	assert_int_equal(t_call("%", args, 2, 3, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 1), -1);
	assert_int_equal(t_int_at(&out, 2), 1);
}

static void
test_func_arith__float(void **state)
{
	double a[] = { 1.5, 1e308, 1e-300, NAN }, b[] = { 0, 1e308, 1e-300, 0 };
	Vector args[2], out;

	/* select 'nan'::float8 / 0 -> NaN */
	args[0] = t_floats(TYPE_FLOAT64, &a[3], 1);
	args[1] = t_floats(TYPE_FLOAT64, &b[3], 1);
	assert_int_equal(t_call("/", args, 2, 1, &out), FLOE_OK);
	assert_true(isnan(((double *)out.data)[0]));
	/* select 1.5::float8 / 0 -> division by zero */
	args[0] = t_floats(TYPE_FLOAT64, &a[0], 1);
	args[1] = t_floats(TYPE_FLOAT64, &b[0], 1);
	expect_err("/", args, 2, "22012", "division by zero");
	/* select 1e308::float8 + 1e308::float8 -> value out of range: overflow */
	args[0] = t_floats(TYPE_FLOAT64, &a[1], 1);
	args[1] = t_floats(TYPE_FLOAT64, &b[1], 1);
	expect_err("+", args, 2, "22003", "value out of range: overflow");
	/* select 1e-300::float8 * 1e-300::float8 -> value out of range: underflow */
	args[0] = t_floats(TYPE_FLOAT64, &a[2], 1);
	args[1] = t_floats(TYPE_FLOAT64, &b[2], 1);
	expect_err("*", args, 2, "22003", "value out of range: underflow");
}

static void
test_func_arith__numeric(void **state)
{
	/* numeric(.,2) values 1.25, 1.50, 10.50 ; numeric(.,1) 2.5 */
	int64_t a[] = { 125, 150, 1050 }, b[] = { 25, 225, 40 };
	Vector args[2], out;

	/* select 1.25 * 2.5 -> 3.125 (scale 2+1) */
	args[0] = t_decs(2, a, 1);
	args[1] = t_decs(1, b, 1);
	assert_int_equal(t_call("*", args, 2, 1, &out), FLOE_OK);
	assert_string_equal(t_dec_at(&out, 0), "3.125");
	/* select 1.50 - 2.25 -> -0.75 */
	args[0] = t_decs(2, &a[1], 1);
	args[1] = t_decs(2, &b[1], 1);
	assert_int_equal(t_call("-", args, 2, 1, &out), FLOE_OK);
	assert_string_equal(t_dec_at(&out, 0), "-0.75");
	/* select 10.50 / 4 -> 2.6250000000000000 */
	args[0] = t_decs(2, &a[2], 1);
	{
		int64_t four = 4;
		args[1] = t_decs(0, &four, 1);
	}
	assert_int_equal(t_call("/", args, 2, 1, &out), FLOE_OK);
	assert_string_equal(t_dec_at(&out, 0), "2.6250000000000000");
	/* select 2::numeric/3 -> 0.66666666666666666667 as in PostgreSQL (20 digits
	 * for quotients < 1: the row's display scale) */
	{
		int64_t two = 2, three = 3;
		args[0] = t_decs(0, &two, 1);
		args[1] = t_decs(0, &three, 1);
		assert_int_equal(t_call("/", args, 2, 1, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 0), "0.66666666666666666667");
		two = -2;
		args[0] = t_decs(0, &two, 1);
		assert_int_equal(t_call("/", args, 2, 1, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 0), "-0.66666666666666666667");
		/* select 1::numeric / 0 -> division by zero */
		three = 0;
		args[1] = t_decs(0, &three, 1);
		expect_err("/", args, 2, "22012", "division by zero");
	}
	/* select 7.5 % 2 -> 1.5 (aligned to scale 1) */
	{
		int64_t x = 75, y = 20;
		args[0] = t_decs(1, &x, 1);
		args[1] = t_decs(1, &y, 1);
		assert_int_equal(t_call("%", args, 2, 1, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 0), "1.5");
	}
	/* 10^37 * 10 = 10^38 needs 39 digits: beyond floe's numeric(38) */
	{
		Vector big;
		int64_t ten = 10;
		int128 p = 1;
		int k;
		for (k = 0; k < 37; k++)
			p *= 10;
		vector_init(&big, type_decimal(0, 0), T_arena, 1);
		((int128 *)big.data)[0] = p;
		args[0] = big;
		args[1] = t_decs(0, &ten, 1);
		expect_err("*", args, 2, "22003", "value overflows numeric format");
		((int128 *)big.data)[0] = p * 9;
		args[1] = big;
		expect_err("+", args, 2, "22003", "value overflows numeric format");
	}
}

/* a literal handed over at its own scale (not cast_to's) still adds and
 * compares exactly: select 1.25 + 1.5, 1.10 = 1.1, 1.10 < 1.2 -> 2.75 | t | t */
static void
test_func_arith__numeric_unaligned(void **state)
{
	SqlType in[2] = { type_decimal(0, 2), type_decimal(0, 1) }, ct[2], ret;
	const ScalarFunc *f;
	FuncCtx ctx = { T_arena, &T_err, NULL };
	int64_t a = 125, b = 15, c = 110, d = 11, e = 12;
	Vector args[2], out;

	assert_int_equal(func_resolve_scalar("+", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
	args[0] = t_decs(2, &a, 1);
	args[1] = t_decs(1, &b, 1);
	vector_init(&out, ret, T_arena, 1);
	assert_int_equal(f->kernel(&ctx, args, 2, 1, &out), FLOE_OK);
	assert_string_equal(t_dec_at(&out, 0), "2.75");
	assert_int_equal(func_resolve_scalar("=", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
	args[0] = t_decs(2, &c, 1);
	args[1] = t_decs(1, &d, 1);
	vector_init(&out, ret, T_arena, 1);
	assert_int_equal(f->kernel(&ctx, args, 2, 1, &out), FLOE_OK);
	assert_int_equal(((uint8_t *)out.data)[0], 1);
	assert_int_equal(func_resolve_scalar("<", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
	args[1] = t_decs(1, &e, 1);
	assert_int_equal(f->kernel(&ctx, args, 2, 1, &out), FLOE_OK);
	assert_int_equal(((uint8_t *)out.data)[0], 1);
}

static void
test_func_arith__compare(void **state)
{
	double fa[] = { NAN, NAN, 1.0 }, fb[] = { NAN, INFINITY, 2.0 };
	const char *sa[] = { "abc", "abcdefghijklmnopq", NULL }, *sb[] = { "abd", "abcdefghijklmnopq", "x" };
	Vector args[2], out;

	/* select 'NaN'::float8 = 'NaN'::float8 -> t; 'NaN' > 'Infinity' -> t */
	args[0] = t_floats(TYPE_FLOAT64, fa, 3);
	args[1] = t_floats(TYPE_FLOAT64, fb, 3);
	assert_int_equal(t_call("=", args, 2, 3, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 1);
	assert_int_equal(t_int_at(&out, 2), 0);
	assert_int_equal(t_call(">", args, 2, 3, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 1), 1);
	assert_int_equal(t_int_at(&out, 2), 0);
	/* text: 'abc' < 'abd', long strings equal, NULL -> NULL */
	args[0] = t_texts(sa, 3);
	args[1] = t_texts(sb, 3);
	assert_int_equal(t_call("<", args, 2, 3, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 1);
	assert_int_equal(t_int_at(&out, 1), 0);
	assert_true(t_null_at(&out, 2));
	assert_int_equal(t_call("=", args, 2, 3, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 0);
	assert_int_equal(t_int_at(&out, 1), 1);
	/* select 1.10 = 1.1 -> t : the resolver aligns scales (cast_to) */
	{
		SqlType in[2] = { type_decimal(3, 2), type_decimal(2, 1) }, ct[2], ret;
		const ScalarFunc *f;
		int64_t x = 110, y = 110;
		assert_int_equal(func_resolve_scalar("=", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
		args[0] = t_decs(2, &x, 1);
		args[1] = t_decs(2, &y, 1);     /* 1.1 cast to scale 2 */
		assert_int_equal(ct[1].scale, 2);
		assert_int_equal(t_call("=", args, 2, 1, &out), FLOE_OK);
		assert_int_equal(t_int_at(&out, 0), 1);
	}
}

static void
test_func_arith__math(void **state)
{
	double a[] = { 2.5, 3.5, -2.5, -1 };
	Vector args[2], out;

	/* select round(2.5::float8), round(3.5::float8), round(-2.5::float8) -> 2 | 4 | -2 */
	args[0] = t_floats(TYPE_FLOAT64, a, 3);
	assert_int_equal(t_call("round", args, 1, 3, &out), FLOE_OK);
	assert_true(((double *)out.data)[0] == 2.0);
	assert_true(((double *)out.data)[1] == 4.0);
	assert_true(((double *)out.data)[2] == -2.0);
	/* select sqrt(-1::float8) -> 2201F cannot take square root of a negative number */
	args[0] = t_floats(TYPE_FLOAT64, &a[3], 1);
	expect_err("sqrt", args, 1, "2201F", "cannot take square root of a negative number");
	/* select ln(0::float8) -> 2201E cannot take logarithm of zero */
	{
		double z = 0;
		args[0] = t_floats(TYPE_FLOAT64, &z, 1);
		expect_err("ln", args, 1, "2201E", "cannot take logarithm of zero");
		args[1] = t_floats(TYPE_FLOAT64, &a[3], 1);
		/* select power(0::float8, -1::float8) */
		expect_err("power", args, 2, "2201F", "zero raised to a negative power is undefined");
	}
	/* select round(2.5), round(-2.5), round(2.45, 1), trunc(-2.99), ceil(-2.5), floor(-2.5)
	 * -> 3 | -3 | 2.5 | -2 | -2 | -3 (numeric rounds half away from zero) */
	{
		int64_t d[] = { 25, -25 }, x = 245, y = -299;
		Vector two;
		args[0] = t_decs(1, d, 2);
		assert_int_equal(t_call("round", args, 1, 2, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 0), "3");
		assert_string_equal(t_dec_at(&out, 1), "-3");
		assert_int_equal(t_call("ceil", args, 1, 2, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 1), "-2");
		assert_int_equal(t_call("floor", args, 1, 2, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 1), "-3");
		args[0] = t_decs(2, &y, 1);
		assert_int_equal(t_call("trunc", args, 1, 1, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 0), "-2");
		/* round(2.45, 1) -> 2.5: stored at the argument's scale, displayed
		 * at the rounding's (dscale) */
		args[0] = t_decs(2, &x, 1);
		two = t_const_int(TYPE_INT32, 1);
		args[1] = two;
		assert_int_equal(t_call("round", args, 2, 1, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 0), "2.5");
		/* with the constant known (func_refine_return): round(2.45, 1) -> 2.5 and
		 * round(2.45, 3) -> 2.450, as PostgreSQL prints them */
		{
			SqlType in[2] = { type_decimal(3, 2), type_make(TYPE_INT32) }, ct[2], ret;
			const ScalarFunc *f;
			Value one = value_int(TYPE_INT32, 1), three = value_int(TYPE_INT32, 3);
			const Value *consts[2] = { NULL, &one };
			FuncCtx ctx = { T_arena, &T_err, NULL };
			assert_int_equal(func_resolve_scalar("round", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
			func_refine_return(f, consts, 2, &ret);
			assert_int_equal(ret.scale, 1);
			vector_init(&out, ret, T_arena, 1);
			assert_int_equal(f->kernel(&ctx, args, 2, 1, &out), FLOE_OK);
			assert_string_equal(t_dec_at(&out, 0), "2.5");
			consts[1] = &three;
			assert_int_equal(func_resolve_scalar("round", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
			func_refine_return(f, consts, 2, &ret);
			vector_init(&out, ret, T_arena, 1);
			args[1] = t_const_int(TYPE_INT32, 3);
			assert_int_equal(f->kernel(&ctx, args, 2, 1, &out), FLOE_OK);
			assert_string_equal(t_dec_at(&out, 0), "2.450");
		}
		/* select 2 ^ 10, |/ 16, @ -5 -> 1024 | 4 | 5 */
		{
			double ftwo = 2, ften = 10, sixteen = 16;
			Vector p2[2];
			p2[0] = t_floats(TYPE_FLOAT64, &ftwo, 1);
			p2[1] = t_floats(TYPE_FLOAT64, &ften, 1);
			assert_int_equal(t_call("^", p2, 2, 1, &out), FLOE_OK);
			assert_true(((double *)out.data)[0] == 1024.0);
			p2[0] = t_floats(TYPE_FLOAT64, &sixteen, 1);
			assert_int_equal(t_call("|/", p2, 1, 1, &out), FLOE_OK);
			assert_true(((double *)out.data)[0] == 4.0);
			p2[0] = t_const_int(TYPE_INT32, -5);
			assert_int_equal(t_call("@", p2, 1, 1, &out), FLOE_OK);
			assert_int_equal(t_int_at(&out, 0), 5);
		}
		/* round(1234.5, -2) -> 1200 */
		x = 12345;
		args[0] = t_decs(1, &x, 1);
		args[1] = t_const_int(TYPE_INT32, -2);
		assert_int_equal(t_call("round", args, 2, 1, &out), FLOE_OK);
		assert_string_equal(t_dec_at(&out, 0), "1200");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_func_arith__int_add_nulls_const_dict, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_arith__int_errors, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_arith__int_div_mod_signs, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_arith__float, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_arith__numeric, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_arith__compare, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_arith__numeric_unaligned, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_arith__math, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
