/*
 * test_text.c — PostgreSQL input/output functions (value_to_text,
 * value_from_text, float shortest output).
 *
 * Every expected string was produced by PostgreSQL 15.18 (psql -Atc, default
 * settings: extra_float_digits 1, DateStyle ISO, MDY, bytea_output hex) on
 * the same input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "types/text.h"
#include "types/datetime.h"

static floe_error err;
static Arena *A;

/* text -> type -> text, or "ERR <sqlstate> <message>" */
static const char *
rt(SqlType t, const char *in)
{
	Value v;
	if (value_from_text(&v, t, in, strlen(in), A, &err) != FLOE_OK)
		return arena_sprintf(A, "ERR %s %s", err.sqlstate, err.message);
	size_t len;
	const char *s = value_to_text(&v, A, &len);
	assert_int_equal(strlen(s), len);
	return s;
}

typedef struct { const char *in, *out; } Case;

static void
check(SqlType t, const Case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got = rt(t, c[i].in);
		if (strcmp(got, c[i].out) != 0)
			fail_msg("input \"%s\": got \"%s\", PostgreSQL says \"%s\"", c[i].in, got, c[i].out);
	}
}
#define CHECK(t, arr) check(t, arr, sizeof arr / sizeof arr[0])

static int setup(void **s) { A = arena_new(0); return 0; }
static int teardown(void **s) { arena_free(A); return 0; }

static void
test_text__float8_out(void **state)
{
	/* select 0.1::float8, (1/3::float8), 1e15::float8, 1e16::float8, 1e-5::float8,
	 *  123456789.123::float8, 1e20::float8, '-0'::float8, 'NaN'::float8, 'inf'::float8,
	 *  '-Infinity'::float8, 1.2345678901234567e20::float8, 100000000000000::float8,
	 *  0.0001::float8, 0.00001234::float8, 5e-324::float8, 1.7976931348623157e308::float8,
	 *  123456789012345678::float8, 0::float8, 2.5::float8 */
	const double in[] = { 0.1, 1.0 / 3, 1e15, 1e16, 1e-5, 123456789.123, 1e20, -0.0, NAN,
			      INFINITY, -INFINITY, 1.2345678901234567e20, 100000000000000.0,
			      0.0001, 0.00001234, 5e-324, 1.7976931348623157e308,
			      123456789012345678.0, 0.0, 2.5,
			      /* ties: the 15-digit candidate lies exactly halfway to the
			       * neighbour; PostgreSQL's Ryu bounds are exclusive */
			      -75113977539078204.715, 229106473103019579.369 };
	const char *out[] = { "0.1", "0.3333333333333333", "1e+15", "1e+16", "1e-05",
			      "123456789.123", "1e+20", "-0", "NaN", "Infinity", "-Infinity",
			      "1.2345678901234567e+20", "100000000000000", "0.0001", "1.234e-05",
			      "5e-324", "1.7976931348623157e+308", "1.2345678901234568e+17", "0",
			      "2.5", "-7.511397753907821e+16", "2.2910647310301958e+17" };
	char buf[TEXT_FLOAT_BUF];
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		text_format_float8(in[i], buf);
		if (strcmp(buf, out[i]) != 0)
			fail_msg("float8 %zu: got %s want %s", i, buf, out[i]);
	}
}

static void
test_text__float4_out(void **state)
{
	/* select 0.1::float4, 1e6::float4, 123456::float4, 1234567::float4, 1e-5::float4,
	 *  3.4028235e38::float4, 1.17549435e-38::float4, 0.0001::float4, 16777217::float4,
	 *  '-0'::float4, 100000::float4, 1.5e-45::float4 */
	const float in[] = { 0.1f, 1e6f, 123456.0f, 1234567.0f, 1e-5f, 3.4028235e38f,
			     1.17549435e-38f, 0.0001f, 16777217.0f, -0.0f, 100000.0f, 1.5e-45f };
	const char *out[] = { "0.1", "1e+06", "123456", "1.234567e+06", "1e-05", "3.4028235e+38",
			      "1.1754944e-38", "0.0001", "1.6777216e+07", "-0", "100000", "1e-45" };
	char buf[TEXT_FLOAT_BUF];
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		text_format_float4(in[i], buf);
		if (strcmp(buf, out[i]) != 0)
			fail_msg("float4 %zu: got %s want %s", i, buf, out[i]);
	}
}

static void
test_text__float_in(void **state)
{
	static const Case c8[] = {
		{ " 1.5 ", "1.5" }, { " +3.5e2 ", "350" }, { ".5", "0.5" }, { "5.", "5" },
		{ "infinity", "Infinity" }, { "-inf", "-Infinity" }, { "nan", "NaN" },
		{ "1e400", "ERR 22003 \"1e400\" is out of range for type double precision" },
		{ "1e-400", "ERR 22003 \"1e-400\" is out of range for type double precision" },
		{ "abc", "ERR 22P02 invalid input syntax for type double precision: \"abc\"" },
		{ "0x10", "16" }, { "1.5x", "ERR 22P02 invalid input syntax for type double precision: \"1.5x\"" },
	};
	CHECK(type_make(TYPE_FLOAT64), c8);
	/* a 1000-character literal: select ('1.' || repeat('0', 997) || '5')::float8 -> 1 */
	char lng[1100] = "1.";
	memset(lng + 2, '0', 997);
	strcpy(lng + 999, "5");
	Value lv;
	assert_int_equal(value_from_text(&lv, type_make(TYPE_FLOAT64), lng, strlen(lng), A, &err), FLOE_OK);
	assert_true(lv.u.f == 1.0);
	static const Case c4[] = {
		{ "1e39", "ERR 22003 \"1e39\" is out of range for type real" },
		{ "abc", "ERR 22P02 invalid input syntax for type real: \"abc\"" },
		{ "0.1", "0.1" },
	};
	CHECK(type_make(TYPE_FLOAT32), c4);
}

static void
test_text__ints_bool(void **state)
{
	static const Case i4[] = {
		{ " 42 ", "42" }, { "-2147483648", "-2147483648" }, { "2147483647", "2147483647" },
		{ "99999999999", "ERR 22003 value \"99999999999\" is out of range for type integer" },
		{ "abc", "ERR 22P02 invalid input syntax for type integer: \"abc\"" },
		{ "1.5", "ERR 22P02 invalid input syntax for type integer: \"1.5\"" },
		{ "2147483648", "ERR 22003 value \"2147483648\" is out of range for type integer" },
	};
	CHECK(type_make(TYPE_INT32), i4);
	static const Case i8[] = {
		{ "9223372036854775807", "9223372036854775807" }, { "+7", "7" },
		{ "-9223372036854775808", "-9223372036854775808" },
		{ "", "ERR 22P02 invalid input syntax for type bigint: \"\"" },
		{ "-9223372036854775809",
		  "ERR 22003 value \"-9223372036854775809\" is out of range for type bigint" },
		{ "99999999999999999999999",
		  "ERR 22003 value \"99999999999999999999999\" is out of range for type bigint" },
	};
	CHECK(type_make(TYPE_INT64), i8);
	static const Case i2[] = {
		{ "-32768", "-32768" },
		{ "32768", "ERR 22003 value \"32768\" is out of range for type smallint" },
	};
	CHECK(type_make(TYPE_INT16), i2);
	static const Case b[] = {
		{ "t", "t" }, { "TRUE", "t" }, { " yes ", "t" }, { "of", "f" }, { "on", "t" },
		{ "0", "f" }, { "n", "f" }, { "tr", "t" }, { "off", "f" },
		{ "o", "ERR 22P02 invalid input syntax for type boolean: \"o\"" },
		{ "abc", "ERR 22P02 invalid input syntax for type boolean: \"abc\"" },
	};
	CHECK(type_make(TYPE_BOOL), b);
}

static void
test_text__uuid_bytea(void **state)
{
	static const Case u[] = {
		{ "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" },
		{ "A0EEBC999C0B4EF8BB6D6BB9BD380A11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" },
		{ "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" },
		{ "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1",
		  "ERR 22P02 invalid input syntax for type uuid: \"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1\"" },
	};
	CHECK(type_make(TYPE_UUID), u);
	static const Case b[] = {
		{ "\\x0102ff", "\\x0102ff" }, { "abc\\\\d\\001", "\\x6162635c6401" },
		{ "\\x 01 02", "\\x0102" }, { "", "\\x" },
		{ "\\x0g", "ERR 22023 invalid hexadecimal digit: \"g\"" },
		{ "\\x012", "ERR 22023 invalid hexadecimal data: odd number of digits" },
		{ "a\\9", "ERR 22P02 invalid input syntax for type bytea" },
	};
	CHECK(type_make(TYPE_BYTEA), b);
}

static void
test_text__char_numeric(void **state)
{
	/* select 'abc  '::varchar(3), 'ab'::char(4) */
	static const Case v3[] = {
		{ "abc  ", "abc" }, { "ab", "ab" },
		{ "abcd", "ERR 22001 value too long for type character varying(3)" },
		{ "h\xc3\xa9l", "h\xc3\xa9l" },   /* 3 characters, 4 bytes */
	};
	CHECK(type_varchar(3), v3);
	/* select E'\xc3\x28', E'ab\xe2\x82', E'\xed\xa0\x80', E'\xc0\x80', E'\xf4\x90\x80\x80' */
	static const Case bad[] = {
		{ "\xc3\x28", "ERR 22021 invalid byte sequence for encoding \"UTF8\": 0xc3 0x28" },
		{ "ab\xe2\x82", "ERR 22021 invalid byte sequence for encoding \"UTF8\": 0xe2 0x82" },
		{ "\xed\xa0\x80", "ERR 22021 invalid byte sequence for encoding \"UTF8\": 0xed 0xa0 0x80" },
		{ "\xc0\x80", "ERR 22021 invalid byte sequence for encoding \"UTF8\": 0xc0 0x80" },
		{ "\xf4\x90\x80\x80",
		  "ERR 22021 invalid byte sequence for encoding \"UTF8\": 0xf4 0x90 0x80 0x80" },
		{ "\xf0\x9f\x98\x80 ok", "\xf0\x9f\x98\x80 ok" },
		/* pg_utf_mblen: a byte 0xf8.. announces one byte */
		{ "\xff\xfe", "ERR 22021 invalid byte sequence for encoding \"UTF8\": 0xff" },
	};
	CHECK(type_make(TYPE_TEXT), bad);
	SqlType c4 = type_make(TYPE_TEXT);
	c4.text_kind = TEXT_CHAR;
	c4.typmod = 4;
	static const Case cc[] = {
		{ "ab", "ab  " }, { "abcde", "ERR 22001 value too long for type character(4)" },
	};
	CHECK(c4, cc);
	/* select '12.345'::numeric(5,2), '-0.005'::numeric(4,2), ' 1e2 '::numeric(5,1) */
	static const Case n52[] = {
		{ "12.345", "12.35" }, { "-0.005", "-0.01" },
		{ "1234.5", "ERR 22003 numeric field overflow" },
		{ "abc", "ERR 22P02 invalid input syntax for type numeric: \"abc\"" },
	};
	CHECK(type_decimal(5, 2), n52);
	rt(type_decimal(5, 2), "1234.5");
	assert_string_equal(err.detail,
		"A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
	static const Case n51[] = { { " 1e2 ", "100.0" } };
	CHECK(type_decimal(5, 1), n51);
	/* unconstrained numeric keeps the literal's scale: select '1.50'::numeric -> 1.50 */
	static const Case nu[] = { { "1.50", "1.50" }, { "-0.00", "0.00" }, { "7", "7" } };
	CHECK(type_decimal(0, 0), nu);
}

static void
test_text__temporal_vector(void **state)
{
	/* value_to_text on dates/timestamps/intervals delegates to datetime.c */
	static const Case d[] = { { "0044-03-15 BC", "0044-03-15 BC" } };
	CHECK(type_make(TYPE_DATE), d);
	static const Case iv[] = { { "1 day -2 hours ago", "-1 days +02:00:00" } };
	CHECK(type_make(TYPE_INTERVAL), iv);
	/* vector_value_text on flat, const and NULL rows */
	Vector v;
	vector_init(&v, type_make(TYPE_INT32), A, 4);
	Value x = value_int(TYPE_INT32, -5);
	vector_set_value(&v, 0, &x);
	vector_set_null(&v, 1);
	size_t len;
	assert_string_equal(vector_value_text(&v, 0, A, &len), "-5");
	assert_null(vector_value_text(&v, 1, A, &len));
	Vector c;
	Value f;
	value_from_text(&f, type_make(TYPE_FLOAT64), "0.1", 3, A, &err);
	vector_init_const(&c, &f, A);
	assert_string_equal(vector_value_text(&c, 3, A, &len), "0.1");
	Value n = value_null(type_make(TYPE_TEXT));
	assert_null(value_to_text(&n, A, &len));
}

/* Random garbage through every input function: clean errors only, and any
 * accepted value must print and re-read to the same text (ASan/UBSan). */
static void
test_text__garbage(void **state)
{
	static const char alphabet[] = "0123456789+-.:/ eE\\xTtZzPpYyMmDdHhSs@{}abcnfio,_\x80\xc3";
	uint64_t seed = 12345;
	char in[48];
	int accepted = 0;
	for (int iter = 0; iter < 30000; iter++) {
		static const char *seeds[] = {
			"2024-01-02 03:04:05.678+02", "1 day 02:00:00", "P1Y2M3DT4H5.5S", "-12.345e3",
			"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "Jan 2 2024 BC", "12:34:56.5 pm",
			"\\x0102ff", "1.5 years 3 mons ago", "01/02/99 23:59:60", "true", " 42 ",
			"0044-03-15 12:00:00 Europe/Paris", "-1 2:03:04", "1e-5", "NaN",
		};
		size_t n;
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		if (iter % 2) {
			n = (seed >> 33) % sizeof in;
			for (size_t k = 0; k < n; k++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				in[k] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
			}
		} else {
			const char *sd = seeds[(seed >> 33) % (sizeof seeds / sizeof seeds[0])];
			n = strlen(sd);
			memcpy(in, sd, n);
			for (int m = 0; m < 3; m++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				size_t pos = (seed >> 33) % (n + 1);
				char c = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
				switch ((seed >> 45) % 3) {
				case 0: if (pos < n) in[pos] = c; break;
				case 1: if (n + 1 < sizeof in) { memmove(in + pos + 1, in + pos, n - pos); in[pos] = c; n++; } break;
				default: if (pos < n) { memmove(in + pos, in + pos + 1, n - pos - 1); n--; } break;
				}
			}
		}
		TypeId id = (TypeId)(1 + (iter / 2) % (TYPE__COUNT - 1));
		SqlType t = id == TYPE_DECIMAL ? type_decimal(iter % 2 ? 0 : 12, 3) : type_make(id);
		Value v, w;
		if (value_from_text(&v, t, in, n, A, &err) != FLOE_OK) {
			assert_int_equal(strlen(err.sqlstate), 5);
			continue;
		}
		size_t len;
		const char *s1 = value_to_text(&v, A, &len);
		accepted++;
		if (id == TYPE_TIMESTAMPTZ || id == TYPE_BYTEA)
			continue;
		if (value_from_text(&w, v.type, s1, len, A, &err) != FLOE_OK)
			fail_msg("type %d: \"%.*s\" printed as \"%s\" does not read back: %s",
				 (int)id, (int)n, in, s1, err.message);
		const char *s2 = value_to_text(&w, A, &len);
		if (strcmp(s1, s2) != 0)
			fail_msg("type %d: \"%.*s\": %s then %s", (int)id, (int)n, in, s1, s2);
		if ((iter & 1023) == 0) {
			arena_free(A);
			A = arena_new(0);
		}
	}
	print_message("garbage: %d of 30000 inputs accepted\n", accepted);
	assert_true(accepted > 2000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text__float8_out),
		cmocka_unit_test(test_text__float4_out),
		cmocka_unit_test(test_text__float_in),
		cmocka_unit_test(test_text__ints_bool),
		cmocka_unit_test(test_text__uuid_bytea),
		cmocka_unit_test(test_text__char_numeric),
		cmocka_unit_test(test_text__temporal_vector),
		cmocka_unit_test(test_text__garbage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
