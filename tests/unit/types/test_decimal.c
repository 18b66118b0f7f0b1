/*
 * test_decimal.c — 128-bit decimal arithmetic against PostgreSQL 15.
 *
 * Expected strings were produced by PostgreSQL 15.18 (psql -Atc "select ...")
 * running the same operations on numeric.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "types/decimal.h"

static floe_error err;

static void
parse(const char *s, int128 *v, int *sc)
{
	int rc = decimal_from_text(s, strlen(s), v, sc, &err);
	if (rc != FLOE_OK)
		fail_msg("parse %s: %s", s, err.message);
}

static const char *
fmt(int128 v, int s)
{
	static char buf[8][DECIMAL_FORMAT_BUF];
	static int k;
	char *b = buf[k++ & 7];
	decimal_format(v, s, b);
	return b;
}

typedef int (*binop)(int128, int, int128, int, int128 *, int *, floe_error *);

static const char *
op(binop f, const char *a, const char *b)
{
	int128 x, y, r;
	int sx, sy, sr;
	parse(a, &x, &sx);
	parse(b, &y, &sy);
	if (f(x, sx, y, sy, &r, &sr, &err) != FLOE_OK)
		return err.sqlstate;
	return fmt(r, sr);
}

static void
test_decimal__parse_format(void **state)
{
	/* select ' 12.3400 '::numeric, '1e5'::numeric, '.5'::numeric, '1.5e-3'::numeric,
	 *        '0.0'::numeric, '-0.00'::numeric  -> 12.3400|100000|0.5|0.0015|0.0|0.00 */
	const char *in[] = { " 12.3400 ", "1e5", ".5", "1.5e-3", "0.0", "-0.00", "-123", "+7.",
			     "99999999999999999999999999999999999999" };
	const char *out[] = { "12.3400", "100000", "0.5", "0.0015", "0.0", "0.00", "-123", "7",
			      "99999999999999999999999999999999999999" };
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		int128 v;
		int s;
		parse(in[i], &v, &s);
		assert_string_equal(fmt(v, s), out[i]);
	}
	int128 v;
	int s;
	/* ERROR:  invalid input syntax for type numeric: "abc" */
	assert_int_equal(decimal_from_text("abc", 3, &v, &s, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22P02");
	assert_string_equal(err.message, "invalid input syntax for type numeric: \"abc\"");
	assert_int_equal(decimal_from_text("1.2.3", 5, &v, &s, &err), FLOE_ERR);
	assert_string_equal(err.message, "invalid input syntax for type numeric: \"1.2.3\"");
	assert_int_equal(decimal_from_text("", 0, &v, &s, &err), FLOE_ERR);
	assert_int_equal(decimal_from_text("1e", 2, &v, &s, &err), FLOE_ERR);
	assert_int_equal(decimal_from_text("-", 1, &v, &s, &err), FLOE_ERR);
	/* 39 integer digits do not fit 128 bits' 38 */
	assert_int_equal(decimal_from_text("123456789012345678901234567890123456789", 39,
					   &v, &s, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22003");
	/* too many fraction digits: rounded to fit 38 digits */
	parse("1.23456789012345678901234567890123456789", &v, &s);
	assert_string_equal(fmt(v, s), "1.2345678901234567890123456789012345679");
}

static void
test_decimal__coerce(void **state)
{
	/* select 1.005::numeric(10,2), -1.005::numeric(10,2), 2.5::numeric(10,0),
	 *        -2.5::numeric(5,0), 0.5::numeric(2,2)  -> 1.01|-1.01|3|-3|0.50 */
	struct { const char *in; int p, s; const char *out; } c[] = {
		{ "1.005", 10, 2, "1.01" }, { "-1.005", 10, 2, "-1.01" }, { "2.5", 10, 0, "3" },
		{ "-2.5", 5, 0, "-3" }, { "0.5", 2, 2, "0.50" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int128 v, r;
		int s;
		parse(c[i].in, &v, &s);
		assert_int_equal(decimal_coerce(v, s, c[i].p, c[i].s, &r, &err), FLOE_OK);
		assert_string_equal(fmt(r, c[i].s), c[i].out);
	}
	/* select 123.45::numeric(4,2):
	 * ERROR:  numeric field overflow
	 * DETAIL:  A field with precision 4, scale 2 must round to an absolute value less than 10^2. */
	int128 v, r;
	int s;
	parse("123.45", &v, &s);
	assert_int_equal(decimal_coerce(v, s, 4, 2, &r, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22003");
	assert_string_equal(err.message, "numeric field overflow");
	assert_string_equal(err.detail,
		"A field with precision 4, scale 2 must round to an absolute value less than 10^2.");
	parse("0.995", &v, &s);
	assert_int_equal(decimal_coerce(v, s, 2, 2, &r, &err), FLOE_ERR);
	assert_string_equal(err.detail,
		"A field with precision 2, scale 2 must round to an absolute value less than 1.");
}

static void
test_decimal__arith(void **state)
{
	/* select 1::numeric/3, 10::numeric/4, 1.5/0.3, 2::numeric/3.000,
	 *   123456789.123/0.001, -7.5/2, 0/3.0, 1/7::numeric(10,5),
	 *   12345678901234567890::numeric/7, 0.0001/3, 1e-10/3 */
	assert_string_equal(op(decimal_div, "1", "3"), "0.33333333333333333333");
	assert_string_equal(op(decimal_div, "10", "4"), "2.5000000000000000");
	assert_string_equal(op(decimal_div, "1.5", "0.3"), "5.0000000000000000");
	assert_string_equal(op(decimal_div, "2", "3.000"), "0.66666666666666666667");
	assert_string_equal(op(decimal_div, "123456789.123", "0.001"), "123456789123.00000000");
	assert_string_equal(op(decimal_div, "-7.5", "2"), "-3.7500000000000000");
	assert_string_equal(op(decimal_div, "0", "3.0"), "0.00000000000000000000");
	assert_string_equal(op(decimal_div, "1", "7.00000"), "0.14285714285714285714");
	assert_string_equal(op(decimal_div, "12345678901234567890", "7"), "1763668414462081127");
	assert_string_equal(op(decimal_div, "0.0001", "3"), "0.000033333333333333333333");
	assert_string_equal(op(decimal_div, "1e-10", "3"), "0.0000000000333333333333333333");
	assert_string_equal(op(decimal_div, "1", "0"), "22012");
	assert_string_equal(err.message, "division by zero");
	/* select 1.50 * 2.0, 7.5 % 2, -7.5 % 2, 10 % 3.3 -> 3.000|1.5|-1.5|0.1 */
	assert_string_equal(op(decimal_mul, "1.50", "2.0"), "3.000");
	assert_string_equal(op(decimal_mod, "7.5", "2"), "1.5");
	assert_string_equal(op(decimal_mod, "-7.5", "2"), "-1.5");
	assert_string_equal(op(decimal_mod, "10", "3.3"), "0.1");
	assert_string_equal(op(decimal_mod, "1", "0"), "22012");
	assert_string_equal(op(decimal_add, "0.1", "0.25"), "0.35");
	assert_string_equal(op(decimal_sub, "0.1", "0.25"), "-0.15");
	assert_string_equal(op(decimal_add, "-1.5", "1.5"), "0.0");
	/* overflow, never wrap */
	assert_string_equal(op(decimal_add, "99999999999999999999999999999999999999",
			       "1"), "22003");
	assert_string_equal(op(decimal_mul, "99999999999999999999", "10000000000000000000"),
			    "22003");
	/* exact product too long: fraction digits are dropped first */
	assert_string_equal(op(decimal_mul, "1234567890.1234567890", "1234567890.1234567890"),
			    "1524157875323883675.0190519987501905210");
	assert_string_equal(op(decimal_add, "10000000000000000000000000000000000000", "0.5"),
			    "10000000000000000000000000000000000001");
	assert_int_equal(decimal_cmp(15, 1, 150, 2), 0);
	assert_int_equal(decimal_cmp(-15, 1, 149, 2), -1);
	assert_int_equal(decimal_cmp(decimal_pow10(37), 0, 1, 38), 1);
}

static void
test_decimal__convert(void **state)
{
	int64_t i;
	/* select 1.5::numeric::int, 2.5::numeric::int, -2.5::numeric::int -> 2|3|-3 */
	assert_int_equal(decimal_to_int64(15, 1, &i, &err), FLOE_OK);
	assert_int_equal(i, 2);
	assert_int_equal(decimal_to_int64(25, 1, &i, &err), FLOE_OK);
	assert_int_equal(i, 3);
	assert_int_equal(decimal_to_int64(-25, 1, &i, &err), FLOE_OK);
	assert_int_equal(i, -3);
	assert_int_equal(decimal_to_int64(decimal_pow10(19), 0, &i, &err), FLOE_ERR);
	assert_string_equal(err.message, "bigint out of range");
	assert_true(decimal_to_double(1, 1) == 0.1);
	int128 v;
	assert_int_equal(decimal_from_double(0.1, 3, &v, &err), FLOE_OK);
	assert_string_equal(fmt(v, 3), "0.100");
	assert_int_equal(decimal_from_double(-2.675, 2, &v, &err), FLOE_OK);
	assert_string_equal(fmt(v, 2), "-2.68");   /* %.15g gives -2.675: half away */
	assert_int_equal(decimal_digits(0), 1);
	assert_int_equal(decimal_digits(-999), 3);
	assert_int_equal(decimal_digits(decimal_pow10(38) - 1), 38);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal__parse_format),
		cmocka_unit_test(test_decimal__coerce),
		cmocka_unit_test(test_decimal__arith),
		cmocka_unit_test(test_decimal__convert),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
