/*
 * test_func_resolve.c — operator/function/aggregate type resolution against
 * PostgreSQL 15's answers (pg_typeof(...) and error texts taken from a real
 * postgresql-15 server with psql; the queries are quoted per case).
 */
#include "func_testutil.h"

static SqlType
T(TypeId id)
{
	return type_make(id);
}

/* resolve name(a[, b]) and check the result type name and cast_to names */
static void
check(const char *name, SqlType a, SqlType b, int nargs, const char *want_ret,
      const char *want0, const char *want1)
{
	SqlType in[2] = { a, b }, cast_to[2], ret;
	const ScalarFunc *f;
	char buf[64];

	floe_error_clear(&T_err);
	if (func_resolve_scalar(name, in, nargs, &f, &ret, cast_to, &T_err) != FLOE_OK)
		fail_msg("%s: %s", name, T_err.message);
	assert_string_equal(func_type_name(ret, buf, sizeof buf), want_ret);
	if (want0)
		assert_string_equal(type_name(cast_to[0], buf, sizeof buf), want0);
	if (want1 && nargs > 1)
		assert_string_equal(type_name(cast_to[1], buf, sizeof buf), want1);
	assert_non_null(f->kernel);
}

static void
check_err(const char *name, SqlType a, SqlType b, int nargs, const char *code,
	  const char *msg, const char *hint)
{
	SqlType in[2] = { a, b }, cast_to[2], ret;
	const ScalarFunc *f;

	floe_error_clear(&T_err);
	assert_int_equal(func_resolve_scalar(name, in, nargs, &f, &ret, cast_to, &T_err), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, code);
	assert_string_equal(T_err.message, msg);
	if (hint)
		assert_string_equal(T_err.hint, hint);
}

static void
test_func_resolve__arith_types(void **state)
{
	/* select pg_typeof(1::int2+1::int2) -> smallint */
	check("+", T(TYPE_INT16), T(TYPE_INT16), 2, "smallint", "smallint", "smallint");
	/* pg_typeof(1::int2+1::int8) -> bigint (widened: kernel runs on bigint) */
	check("+", T(TYPE_INT16), T(TYPE_INT64), 2, "bigint", "bigint", "bigint");
	check("*", T(TYPE_INT32), T(TYPE_INT64), 2, "bigint", "bigint", "bigint");
	check("-", T(TYPE_INT16), T(TYPE_INT32), 2, "integer", "integer", "integer");
	/* pg_typeof(1::int4/1::numeric) -> numeric */
	check("/", T(TYPE_INT32), type_decimal(10, 2), 2, "numeric", "numeric(10,0)", "numeric(10,2)");
	/* pg_typeof(1.5::numeric+1::float8) -> double precision */
	check("+", type_decimal(2, 1), T(TYPE_FLOAT64), 2, "double precision",
	      "double precision", "double precision");
	/* pg_typeof(1::int4 + 1::float4) -> double precision (float84pl wins) */
	check("+", T(TYPE_INT32), T(TYPE_FLOAT32), 2, "double precision",
	      "double precision", "double precision");
	/* pg_typeof(1::int2 % 1::int4) -> integer */
	check("%", T(TYPE_INT16), T(TYPE_INT32), 2, "integer", "integer", "integer");
	/* pg_typeof(NULL + 1) -> integer; pg_typeof('1' + 1) -> integer */
	check("+", T(TYPE_NULL), T(TYPE_INT32), 2, "integer", "integer", "integer");
	/* pg_typeof(1::float4 + 1::float4) -> real */
	check("+", T(TYPE_FLOAT32), T(TYPE_FLOAT32), 2, "real", "real", "real");
	/* pg_typeof(-1::int8) -> bigint */
	check("u-", T(TYPE_INT64), T(TYPE_NULL), 1, "bigint", "bigint", NULL);
}

static void
test_func_resolve__numeric_scales(void **state)
{
	SqlType in[2] = { type_decimal(10, 2), type_decimal(12, 3) }, cast_to[2], ret;
	const ScalarFunc *f;

	/* select 1.50 + 2.250 -> 3.750 : scale max(2,3), both sides aligned */
	assert_int_equal(func_resolve_scalar("+", in, 2, &f, &ret, cast_to, &T_err), FLOE_OK);
	assert_int_equal(ret.scale, 3);
	assert_int_equal(cast_to[0].scale, 3);
	assert_int_equal(cast_to[1].scale, 3);
	/* select 1.50 * 2.250 -> 3.37500 : scale 2+3 */
	assert_int_equal(func_resolve_scalar("*", in, 2, &f, &ret, cast_to, &T_err), FLOE_OK);
	assert_int_equal(ret.scale, 5);
	assert_int_equal(cast_to[0].scale, 2);
	/* select 3/2::numeric -> 1.5000000000000000 : stored at scale 20
	 * (decimal_quotient_scale), each row displayed at select_div_scale */
	assert_int_equal(func_resolve_scalar("/", in, 2, &f, &ret, cast_to, &T_err), FLOE_OK);
	assert_int_equal(ret.scale, 20);
	/* n + '1.5' for n numeric(10,2): the unknown side takes n's scale -> 6.00 */
	{
		SqlType in2[2] = { type_decimal(10, 2), type_make(TYPE_NULL) };
		assert_int_equal(func_resolve_scalar("+", in2, 2, &f, &ret, cast_to, &T_err), FLOE_OK);
		assert_int_equal(cast_to[1].id, TYPE_DECIMAL);
		assert_int_equal(cast_to[1].scale, 2);
		assert_int_equal(ret.scale, 2);
	}
	/* comparisons align scales too */
	assert_int_equal(func_resolve_scalar("<", in, 2, &f, &ret, cast_to, &T_err), FLOE_OK);
	assert_int_equal(ret.id, TYPE_BOOL);
	assert_int_equal(cast_to[0].scale, 3);
}

static void
test_func_resolve__functions(void **state)
{
	/* pg_typeof(round(5)) -> double precision (float8 is preferred) */
	check("round", T(TYPE_INT32), T(TYPE_NULL), 1, "double precision", "double precision", NULL);
	/* pg_typeof(round(1.5)) -> numeric */
	check("round", type_decimal(2, 1), T(TYPE_NULL), 1, "numeric", "numeric(2,1)", NULL);
	/* pg_typeof(abs(1::int2)) -> smallint */
	check("abs", T(TYPE_INT16), T(TYPE_NULL), 1, "smallint", "smallint", NULL);
	/* pg_typeof(length('x'::varchar)) -> integer */
	check("length", type_varchar(10), T(TYPE_NULL), 1, "integer", "character varying(10)", NULL);
	/* pg_typeof(mod(1::int2, 1::int4)) -> integer */
	check("mod", T(TYPE_INT16), T(TYPE_INT32), 2, "integer", "integer", "integer");
	/* pg_typeof(power(2, 3)) -> double precision */
	check("power", T(TYPE_INT32), T(TYPE_INT32), 2, "double precision", "double precision",
	      "double precision");
	/* substr('abc', 2) */
	check("substr", T(TYPE_NULL), T(TYPE_INT32), 2, "text", "text", "integer");
}

static void
test_func_resolve__text_ops(void **state)
{
	/* pg_typeof(1 || 'a'::text) -> text (anynonarray || text: left side to text) */
	check("||", T(TYPE_INT32), T(TYPE_TEXT), 2, "text", "text", "text");
	/* pg_typeof('a' || 'b') -> text */
	check("||", T(TYPE_NULL), T(TYPE_NULL), 2, "text", "text", "text");
	/* 'a' = 'b' -> text = text */
	check("=", T(TYPE_NULL), T(TYPE_NULL), 2, "boolean", "text", "text");
	/* x LIKE 'a%' */
	check("~~", type_varchar(5), T(TYPE_NULL), 2, "boolean", "character varying(5)", "text");
	/* date '2020-01-02' < timestamp ... : both widened to timestamp */
	check("<", T(TYPE_DATE), T(TYPE_TIMESTAMP), 2, "boolean",
	      "timestamp without time zone", "timestamp without time zone");
}

static void
test_func_resolve__errors(void **state)
{
	const char *h_op = "No operator matches the given name and argument types. "
			   "You might need to add explicit type casts.";
	const char *h_fn = "No function matches the given name and argument types. "
			   "You might need to add explicit type casts.";

	/* select 1 = 'a'::text */
	check_err("=", T(TYPE_INT32), T(TYPE_TEXT), 2, "42883",
		  "operator does not exist: integer = text", h_op);
	/* select '1' + '2' */
	check_err("+", T(TYPE_NULL), T(TYPE_NULL), 2, "42725",
		  "operator is not unique: unknown + unknown",
		  "Could not choose a best candidate operator. You might need to add explicit type casts.");
	/* select foo(1) */
	check_err("foo", T(TYPE_INT32), T(TYPE_NULL), 1, "42883",
		  "function foo(integer) does not exist", h_fn);
	/* select -'a'::text */
	check_err("u-", T(TYPE_TEXT), T(TYPE_NULL), 1, "42883", "operator does not exist: - text",
		  "No operator matches the given name and argument type. "
		  "You might need to add an explicit type cast.");
	/* select abs('x'::text); select length(1) */
	check_err("abs", T(TYPE_TEXT), T(TYPE_NULL), 1, "42883",
		  "function abs(text) does not exist", h_fn);
	check_err("length", T(TYPE_INT32), T(TYPE_NULL), 1, "42883",
		  "function length(integer) does not exist", h_fn);
	/* numeric(10,2) = boolean */
	check_err("=", type_decimal(10, 2), T(TYPE_BOOL), 2, "42883",
		  "operator does not exist: numeric = boolean", h_op);
}

static void
test_func_resolve__char_n(void **state)
{
	/* select 'ab'::char(3) = 'ab', 'ab'::char(3) = 'ab '::text, length('ab'::char(4)),
	 * 'ab'::char(3) || 'x', 'ab'::char(3) like 'ab', 'ab'::char(3) like 'ab_'
	 * -> t | f | 2 | abx | f | t */
	SqlType ch = type_make(TYPE_TEXT), in[2], ct[2], ret;
	const ScalarFunc *f;
	Vector args[2], out;
	FuncCtx ctx = { T_arena, &T_err, NULL };

	ch.text_kind = TEXT_CHAR;
	ch.typmod = 3;
	/* char = unknown: trailing-space-insensitive kernel, char kept */
	in[0] = ch;
	in[1] = type_make(TYPE_NULL);
	assert_int_equal(func_resolve_scalar("=", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
	assert_int_equal(ct[0].text_kind, TEXT_CHAR);
	args[0] = t_const_text("ab ");
	args[1] = t_const_text("ab");
	vector_init(&out, ret, T_arena, 1);
	assert_int_equal(f->kernel(&ctx, args, 2, 1, &out), FLOE_OK);
	assert_int_equal(((uint8_t *)out.data)[0], 1);
	/* char = text: char side cast to text (rtrim), plain text comparison */
	in[1] = type_make(TYPE_TEXT);
	assert_int_equal(func_resolve_scalar("=", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
	assert_int_equal(ct[0].text_kind, TEXT_PLAIN);
	args[0] = t_const_text("ab");
	args[1] = t_const_text("ab ");
	assert_int_equal(f->kernel(&ctx, args, 2, 1, &out), FLOE_OK);
	assert_int_equal(((uint8_t *)out.data)[0], 0);
	/* length(char(4)) and char || unknown take text */
	assert_int_equal(func_resolve_scalar("length", in, 1, &f, &ret, ct, &T_err), FLOE_OK);
	assert_int_equal(ct[0].text_kind, TEXT_PLAIN);
	in[1] = type_make(TYPE_NULL);
	assert_int_equal(func_resolve_scalar("||", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
	assert_int_equal(ct[0].text_kind, TEXT_PLAIN);
	/* LIKE sees the padded value */
	assert_int_equal(func_resolve_scalar("~~", in, 2, &f, &ret, ct, &T_err), FLOE_OK);
	assert_int_equal(ct[0].text_kind, TEXT_CHAR);
}

static void
test_func_resolve__pg_typeof(void **state)
{
	/* select pg_typeof(n) for n numeric(10,2) -> numeric; v varchar(10) -> character varying */
	SqlType in[1] = { type_decimal(10, 2) }, ct[1], ret;
	const ScalarFunc *f;
	Vector args[1], out;
	FuncCtx ctx = { T_arena, &T_err, NULL };
	int64_t one = 1;

	assert_int_equal(func_resolve_scalar("pg_typeof", in, 1, &f, &ret, ct, &T_err), FLOE_OK);
	assert_true(type_equal(ct[0], in[0]));
	args[0] = t_decs(2, &one, 1);
	args[0].type = in[0];
	vector_init(&out, ret, T_arena, 1);
	assert_int_equal(f->kernel(&ctx, args, 1, 1, &out), FLOE_OK);
	assert_string_equal(t_text_at(&out, 0), "numeric");
	in[0] = type_varchar(10);
	args[0] = t_const_text("x");
	args[0].type = in[0];
	assert_int_equal(func_resolve_scalar("pg_typeof", in, 1, &f, &ret, ct, &T_err), FLOE_OK);
	assert_int_equal(f->kernel(&ctx, args, 1, 1, &out), FLOE_OK);
	assert_string_equal(t_text_at(&out, 0), "character varying");
}

static void
check_agg(const char *name, SqlType a, bool star, const char *want_ret)
{
	SqlType cast_to[1], ret;
	const AggFunc *f;
	char buf[64];

	floe_error_clear(&T_err);
	if (func_resolve_agg(name, &a, star ? 0 : 1, star, &f, &ret, cast_to, &T_err) != FLOE_OK)
		fail_msg("%s: %s", name, T_err.message);
	assert_string_equal(func_type_name(ret, buf, sizeof buf), want_ret);
	assert_non_null(f->update);
}

static void
test_func_resolve__aggregates(void **state)
{
	SqlType cast_to[1], ret, a;
	const AggFunc *f;

	/* pg_typeof(count(*)), sum(1::int8), avg(1::int2), sum(1::float4), max('a'::varchar) */
	check_agg("count", T(TYPE_NULL), true, "bigint");
	check_agg("count", T(TYPE_TEXT), false, "bigint");
	check_agg("sum", T(TYPE_INT32), false, "bigint");
	check_agg("sum", T(TYPE_INT64), false, "numeric");
	check_agg("avg", T(TYPE_INT16), false, "numeric");
	check_agg("sum", T(TYPE_FLOAT32), false, "real");
	check_agg("avg", T(TYPE_FLOAT32), false, "double precision");
	check_agg("max", T(TYPE_DATE), false, "date");
	check_agg("min", T(TYPE_TEXT), false, "text");
	/* pg_typeof(max(v)) for v varchar(10) -> text */
	check_agg("max", type_varchar(10), false, "text");
	/* count(x) reads x as is */
	a = type_decimal(10, 2);
	assert_int_equal(func_resolve_agg("count", &a, 1, false, &f, &ret, cast_to, &T_err), FLOE_OK);
	assert_true(type_equal(cast_to[0], a));
	/* avg(numeric(10,2)) -> numeric stored at scale 20 (rows display at
	 * select_div_scale); sum keeps scale 2 */
	assert_int_equal(func_resolve_agg("avg", &a, 1, false, &f, &ret, cast_to, &T_err), FLOE_OK);
	assert_int_equal(ret.scale, 20);
	assert_int_equal(func_resolve_agg("sum", &a, 1, false, &f, &ret, cast_to, &T_err), FLOE_OK);
	assert_int_equal(ret.scale, 2);
	assert_true(func_is_aggregate("string_agg"));
	assert_true(func_is_aggregate("stddev_pop"));
	assert_false(func_is_aggregate("upper"));
	/* select sum('1') -> 42725 function sum(unknown) is not unique */
	a = T(TYPE_NULL);
	assert_int_equal(func_resolve_agg("sum", &a, 1, false, &f, &ret, cast_to, &T_err), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "42725");
	assert_string_equal(T_err.message, "function sum(unknown) is not unique");
	/* select max(true) -> 42883 function max(boolean) does not exist */
	a = T(TYPE_BOOL);
	assert_int_equal(func_resolve_agg("max", &a, 1, false, &f, &ret, cast_to, &T_err), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "42883");
	assert_string_equal(T_err.message, "function max(boolean) does not exist");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_func_resolve__arith_types, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_resolve__numeric_scales, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_resolve__functions, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_resolve__text_ops, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_resolve__errors, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_resolve__aggregates, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_resolve__char_n, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_resolve__pg_typeof, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
