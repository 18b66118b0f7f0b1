/*
 * test_cast.c — casts between floe types, against PostgreSQL 15.
 *
 * Expected results and messages were produced by PostgreSQL 15.18 running
 * the same casts (psql -Atc "select <literal>::<type>"), except the
 * CAST_EXACT_FLOAT rule, which is floe's own INSERT rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "types/cast.h"
#include "types/datetime.h"
#include "types/text.h"

static floe_error err;
static Arena *A;

static int setup(void **s) { A = arena_new(0); datetime_set_timezone("UTC", &err); return 0; }
static int teardown(void **s) { arena_free(A); return 0; }

static Value
lit(SqlType t, const char *s)
{
	Value v;
	if (value_from_text(&v, t, s, strlen(s), A, &err) != FLOE_OK)
		fail_msg("literal %s: %s", s, err.message);
	return v;
}

/* cast text literal of type `from` to `to` with flags; result text or ERR */
static const char *
cv(SqlType from, const char *s, SqlType to, int flags)
{
	Value in = lit(from, s), out;
	if (cast_value_ex(&out, &in, to, flags, A, &err) != FLOE_OK)
		return arena_sprintf(A, "ERR %s %s", err.sqlstate, err.message);
	size_t n;
	const char *r = value_to_text(&out, A, &n);
	return r ? r : "NULL";
}

#define T(id) type_make(id)
#define EQ(got, want) do { const char *g_ = (got); if (strcmp(g_, (want)) != 0) \
	fail_msg("%s:%d got \"%s\" want \"%s\"", __FILE__, __LINE__, g_, (want)); } while (0)

/* set timezone to 'America/New_York';
   select format('%s', '<lit>'::<from>::<to>)  (PostgreSQL 15.18) */
static const struct { const char *from, *to, *lit, *out; } pg_casts[] = {
	{ "smallint", "bigint", "-32768", "-32768" },
	{ "smallint", "double precision", "-32768", "-32768" },
	{ "smallint", "smallint", "32767", "32767" },
	{ "smallint", "numeric(3,0)", "32767", "ERR 22003 numeric field overflow" },
	{ "smallint", "smallint", "12", "12" },
	{ "smallint", "bigint", "12", "12" },
	{ "smallint", "numeric(3,0)", "12", "12" },
	{ "smallint", "real", "-7", "-7" },
	{ "integer", "bigint", "2147483647", "2147483647" },
	{ "integer", "real", "2147483647", "2.1474836e+09" },
	{ "integer", "numeric", "2147483647", "2147483647" },
	{ "integer", "boolean", "2147483647", "t" },
	{ "integer", "integer", "-70000", "-70000" },
	{ "integer", "smallint", "1", "1" },
	{ "integer", "numeric(3,0)", "1", "1" },
	{ "bigint", "smallint", "9223372036854775807", "ERR 22003 smallint out of range" },
	{ "bigint", "numeric(5,2)", "9223372036854775807", "ERR 22003 numeric field overflow" },
	{ "bigint", "text", "9223372036854775807", "9223372036854775807" },
	{ "bigint", "integer", "-9223372036854775808", "ERR 22003 integer out of range" },
	{ "bigint", "numeric", "-9223372036854775808", "-9223372036854775808" },
	{ "bigint", "numeric(5,2)", "-9223372036854775808", "ERR 22003 numeric field overflow" },
	{ "bigint", "numeric(3,0)", "-9223372036854775808", "ERR 22003 numeric field overflow" },
	{ "bigint", "bigint", "3000000000", "3000000000" },
	{ "bigint", "double precision", "3000000000", "3000000000" },
	{ "bigint", "double precision", "16777217", "16777217" },
	{ "bigint", "numeric", "16777217", "16777217" },
	{ "bigint", "double precision", "-1", "-1" },
	{ "bigint", "text", "-1", "-1" },
	{ "real", "numeric(3,0)", "1e30", "ERR 22003 numeric field overflow" },
	{ "real", "character varying(3)", "-2.5", "-2." },
	{ "real", "text", "1.5e-40", "1.5e-40" },
	{ "real", "double precision", "123456.7", "123456.703125" },
	{ "real", "integer", "65504", "65504" },
	{ "real", "real", "65504", "65504" },
	{ "real", "character varying(3)", "65504", "655" },
	{ "real", "numeric(5,2)", "2147483520", "ERR 22003 numeric field overflow" },
	{ "double precision", "smallint", "2.5", "2" },
	{ "double precision", "integer", "2.5", "2" },
	{ "double precision", "character varying(3)", "2.5", "2.5" },
	{ "double precision", "smallint", "-3.5", "-4" },
	{ "double precision", "real", "1e20", "1e+20" },
	{ "double precision", "numeric(5,2)", "1e20", "ERR 22003 numeric field overflow" },
	{ "double precision", "character(4)", "1e20", "1e+2" },
	{ "double precision", "text", "1e-50", "1e-50" },
	{ "double precision", "bigint", "Infinity", "ERR 22003 bigint out of range" },
	{ "double precision", "bigint", "-0", "0" },
	{ "double precision", "bigint", "32767.5", "32768" },
	{ "double precision", "bigint", "2147483647.4", "2147483647" },
	{ "double precision", "bigint", "2147483647.5", "2147483648" },
	{ "numeric", "text", "0", "0" },
	{ "numeric", "integer", "1.005", "1" },
	{ "numeric", "numeric(3,0)", "-2.5", "-3" },
	{ "numeric", "text", "-2.5", "-2.5" },
	{ "numeric", "integer", "99999.995", "100000" },
	{ "numeric", "text", "99999.995", "99999.995" },
	{ "numeric", "character(4)", "99999.995", "9999" },
	{ "numeric", "double precision", "0.0000001", "1e-07" },
	{ "numeric", "numeric(3,0)", "0.0000001", "0" },
	{ "numeric", "numeric(3,0)", "-0.5", "-1" },
	{ "numeric", "bigint", "32767.49", "32767" },
	{ "numeric", "numeric(3,0)", "32767.49", "ERR 22003 numeric field overflow" },
	{ "numeric", "real", "32767.5", "32767.5" },
	{ "numeric", "numeric", "1e10", "10000000000" },
	{ "numeric(5,2)", "double precision", "-999.99", "-999.99" },
	{ "numeric(5,2)", "numeric", "-999.99", "-999.99" },
	{ "numeric(5,2)", "character varying(3)", "-999.99", "-99" },
	{ "numeric(5,2)", "character(4)", "-999.99", "-999" },
	{ "numeric(5,2)", "integer", "0.001", "0" },
	{ "numeric(5,2)", "numeric(3,0)", "0.001", "0" },
	{ "numeric(5,2)", "character varying(3)", "0.001", "0.0" },
	{ "boolean", "character(4)", "f", "fals" },
	{ "text", "uuid", "12", "ERR 22P02 invalid input syntax for type uuid: \"12\"" },
	{ "text", "bytea", "12", "\\x3132" },
	{ "text", "interval", "abc", "ERR 22007 invalid input syntax for type interval: \"abc\"" },
	{ "text", "interval", " 42 ", "00:00:42" },
	{ "text", "boolean", "1.5", "ERR 22P02 invalid input syntax for type boolean: \"1.5\"" },
	{ "text", "bytea", "1.5", "\\x312e35" },
	{ "text", "integer", "2024-01-02", "ERR 22P02 invalid input syntax for type integer: \"2024-01-02\"" },
	{ "text", "bigint", "2024-01-02", "ERR 22P02 invalid input syntax for type bigint: \"2024-01-02\"" },
	{ "text", "interval", "2024-01-02", "ERR 22007 invalid input syntax for type interval: \"2024-01-02\"" },
	{ "text", "bytea", "2024-01-02", "\\x323032342d30312d3032" },
	{ "text", "boolean", "t", "t" },
	{ "text", "character(4)", "t", "t   " },
	{ "text", "time", "t", "ERR 22007 invalid input syntax for type time: \"t\"" },
	{ "text", "uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11" },
	{ "text", "numeric(5,2)", "\\x0102", "ERR 22P02 invalid input syntax for type numeric: \"\\x0102\"" },
	{ "text", "text", "\\x0102", "\\x0102" },
	{ "text", "numeric(5,2)", "1 day", "ERR 22P02 invalid input syntax for type numeric: \"1 day\"" },
	{ "text", "time", "1 day", "ERR 22007 invalid input syntax for type time: \"1 day\"" },
	{ "text", "bigint", "03:04:05", "ERR 22P02 invalid input syntax for type bigint: \"03:04:05\"" },
	{ "text", "date", "2024-01-02 03:04:05", "2024-01-02" },
	{ "text", "timestamptz", "2024-01-02 03:04:05", "2024-01-02 03:04:05-05" },
	{ "text", "text", "abcdefghij", "abcdefghij" },
	{ "text", "bytea", "abcdefghij", "\\x6162636465666768696a" },
	{ "character varying(3)", "real", "abc", "ERR 22P02 invalid input syntax for type real: \"abc\"" },
	{ "character varying(3)", "bytea", "abc", "\\x616263" },
	{ "character varying(3)", "double precision", "ab", "ERR 22P02 invalid input syntax for type double precision: \"ab\"" },
	{ "character varying(3)", "timestamptz", "ab", "ERR 22007 invalid input syntax for type timestamp with time zone: \"ab\"" },
	{ "character varying(3)", "bytea", "ab", "\\x6162" },
	{ "character(4)", "text", "ab", "ab" },
	{ "character(4)", "smallint", "abcd", "ERR 22P02 invalid input syntax for type smallint: \"abcd\"" },
	{ "character(4)", "numeric(3,0)", "abcd", "ERR 22P02 invalid input syntax for type numeric: \"abcd\"" },
	{ "character(4)", "character(4)", "abcd", "abcd" },
	{ "character(4)", "date", "abcd", "ERR 22007 invalid input syntax for type date: \"abcd\"" },
	{ "character(4)", "timestamptz", "abcd", "ERR 22007 invalid input syntax for type timestamp with time zone: \"abcd\"" },
	{ "character(4)", "uuid", "abcd", "ERR 22P02 invalid input syntax for type uuid: \"abcd\"" },
	{ "character(4)", "bytea", "abcd", "\\x61626364" },
	{ "date", "character(4)", "2024-01-02", "2024" },
	{ "date", "timestamptz", "0044-03-15 BC", "0044-03-15 00:00:00-04:56:02 BC" },
	{ "date", "character varying(3)", "infinity", "inf" },
	{ "time", "interval", "24:00:00", "24:00:00" },
	{ "time", "text", "00:00:00", "00:00:00" },
	{ "timestamp", "time", "2024-01-02 03:04:05.678", "03:04:05.678" },
	{ "timestamp", "character varying(3)", "infinity", "inf" },
	{ "timestamp", "timestamptz", "0044-03-15 12:00:00 BC", "0044-03-15 12:00:00-04:56:02 BC" },
	{ "timestamptz", "character varying(3)", "2024-07-01 12:00:00+00", "202" },
	{ "timestamptz", "date", "2024-07-01 12:00:00+00", "2024-07-01" },
	{ "interval", "character(4)", "-1 mons 3 days -04:00:00", "-1 m" },
	{ "interval", "time", "-1 mons 3 days -04:00:00", "20:00:00" },
	{ "uuid", "character varying(3)", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0e" },
};

static SqlType
type_named(const char *n)
{
	SqlType t;
	if (!strcmp(n, "smallint")) return T(TYPE_INT16);
	if (!strcmp(n, "integer")) return T(TYPE_INT32);
	if (!strcmp(n, "bigint")) return T(TYPE_INT64);
	if (!strcmp(n, "real")) return T(TYPE_FLOAT32);
	if (!strcmp(n, "double precision")) return T(TYPE_FLOAT64);
	if (!strcmp(n, "numeric")) return type_decimal(0, 0);
	if (!strcmp(n, "numeric(5,2)")) return type_decimal(5, 2);
	if (!strcmp(n, "numeric(3,0)")) return type_decimal(3, 0);
	if (!strcmp(n, "boolean")) return T(TYPE_BOOL);
	if (!strcmp(n, "text")) return T(TYPE_TEXT);
	if (!strcmp(n, "character varying(3)")) return type_varchar(3);
	if (!strcmp(n, "character(4)")) {
		t = T(TYPE_TEXT);
		t.text_kind = TEXT_CHAR;
		t.typmod = 4;
		return t;
	}
	if (!strcmp(n, "date")) return T(TYPE_DATE);
	if (!strcmp(n, "time")) return T(TYPE_TIME);
	if (!strcmp(n, "timestamp")) return T(TYPE_TIMESTAMP);
	if (!strcmp(n, "timestamptz")) return T(TYPE_TIMESTAMPTZ);
	if (!strcmp(n, "interval")) return T(TYPE_INTERVAL);
	if (!strcmp(n, "uuid")) return T(TYPE_UUID);
	return T(TYPE_BYTEA);
}

static void
test_cast__pg_samples(void **state)
{
	datetime_set_timezone("America/New_York", &err);
	for (size_t i = 0; i < sizeof pg_casts / sizeof pg_casts[0]; i++) {
		Value in, out;
		const char *got;
		SqlType f = type_named(pg_casts[i].from), t = type_named(pg_casts[i].to);
		if (value_from_text(&in, f, pg_casts[i].lit, strlen(pg_casts[i].lit), A, &err) != FLOE_OK ||
		    cast_value(&out, &in, t, A, &err) != FLOE_OK)
			got = arena_sprintf(A, "ERR %s %s", err.sqlstate, err.message);
		else {
			size_t n;
			got = value_to_text(&out, A, &n);
			if (!got)
				got = "NULL";
		}
		if (strcmp(got, pg_casts[i].out) != 0)
			fail_msg("'%s'::%s::%s: got %s, PostgreSQL says %s", pg_casts[i].lit,
				 pg_casts[i].from, pg_casts[i].to, got, pg_casts[i].out);
	}
	datetime_set_timezone("UTC", &err);
}

static void
test_cast__numeric_pairs(void **state)
{
	/* select 2.5::float8::int, 3.5::float8::int2, (-2.5)::float8::int8, 1.5::float4::int
	 *   -> 2|4|-2|2 */
	EQ(cv(T(TYPE_FLOAT64), "2.5", T(TYPE_INT32), CAST_EXPLICIT), "2");
	EQ(cv(T(TYPE_FLOAT64), "3.5", T(TYPE_INT16), CAST_EXPLICIT), "4");
	EQ(cv(T(TYPE_FLOAT64), "-2.5", T(TYPE_INT64), CAST_EXPLICIT), "-2");
	EQ(cv(T(TYPE_FLOAT32), "1.5", T(TYPE_INT32), CAST_EXPLICIT), "2");
	EQ(cv(T(TYPE_FLOAT64), "NaN", T(TYPE_INT32), CAST_EXPLICIT), "ERR 22003 integer out of range");
	EQ(cv(T(TYPE_FLOAT64), "1e10", T(TYPE_INT32), CAST_EXPLICIT), "ERR 22003 integer out of range");
	EQ(cv(T(TYPE_FLOAT64), "1e39", T(TYPE_FLOAT32), CAST_EXPLICIT),
	   "ERR 22003 value out of range: overflow");
	EQ(cv(T(TYPE_FLOAT64), "1e-50", T(TYPE_FLOAT32), CAST_EXPLICIT),
	   "ERR 22003 value out of range: underflow");
	EQ(cv(T(TYPE_FLOAT64), "3e38", T(TYPE_FLOAT32), CAST_EXPLICIT), "3e+38");
	EQ(cv(T(TYPE_INT32), "40000", T(TYPE_INT16), CAST_EXPLICIT), "ERR 22003 smallint out of range");
	EQ(cv(T(TYPE_INT64), "3000000000", T(TYPE_INT32), CAST_EXPLICIT),
	   "ERR 22003 integer out of range");
	EQ(cv(type_decimal(0, 0), "99999999999999999999", T(TYPE_INT64), CAST_EXPLICIT),
	   "ERR 22003 bigint out of range");
	EQ(cv(type_decimal(0, 0), "40000.4", T(TYPE_INT16), CAST_EXPLICIT),
	   "ERR 22003 smallint out of range");
	/* select 1.5::numeric::int, 2.5::numeric::int, -2.5::numeric::int -> 2|3|-3 */
	EQ(cv(type_decimal(0, 0), "2.5", T(TYPE_INT32), CAST_EXPLICIT), "3");
	EQ(cv(type_decimal(0, 0), "-2.5", T(TYPE_INT32), CAST_EXPLICIT), "-3");
	/* select 0.1::float8::numeric, 0.1::float4::numeric, 1e20::float8::numeric,
	 *   123.456::float8::numeric(5,1), 1.0e-7::float8::numeric, 0.1::float4::float8
	 *   -> 0.1|0.1|100000000000000000000|123.5|0.0000001|0.10000000149011612 */
	EQ(cv(T(TYPE_FLOAT64), "0.1", type_decimal(0, 0), CAST_EXPLICIT), "0.1");
	EQ(cv(T(TYPE_FLOAT32), "0.1", type_decimal(0, 0), CAST_EXPLICIT), "0.1");
	EQ(cv(T(TYPE_FLOAT64), "1e20", type_decimal(0, 0), CAST_EXPLICIT), "100000000000000000000");
	EQ(cv(T(TYPE_FLOAT64), "123.456", type_decimal(5, 1), CAST_EXPLICIT), "123.5");
	EQ(cv(T(TYPE_FLOAT64), "1.0e-7", type_decimal(0, 0), CAST_EXPLICIT), "0.0000001");
	EQ(cv(T(TYPE_FLOAT32), "0.1", T(TYPE_FLOAT64), CAST_EXPLICIT), "0.10000000149011612");
	/* select 1.5::numeric(3,1)::numeric(2,0), (-1.5)::float4::numeric(3,0) -> 2|-2 */
	EQ(cv(type_decimal(3, 1), "1.5", type_decimal(2, 0), CAST_EXPLICIT), "2");
	EQ(cv(T(TYPE_FLOAT32), "-1.5", type_decimal(3, 0), CAST_EXPLICIT), "-2");
	EQ(cv(T(TYPE_FLOAT64), "12.5", type_decimal(3, 2), CAST_EXPLICIT),
	   "ERR 22003 numeric field overflow");
	assert_string_equal(err.detail,
		"A field with precision 3, scale 2 must round to an absolute value less than 10^1.");
	EQ(cv(T(TYPE_FLOAT64), "infinity", type_decimal(5, 2), CAST_EXPLICIT),
	   "ERR 22003 numeric field overflow");
	assert_string_equal(err.detail, "A field with precision 5, scale 2 cannot hold an infinite value.");
	EQ(cv(T(TYPE_INT32), "123", type_decimal(5, 2), CAST_EXPLICIT), "123.00");
	EQ(cv(T(TYPE_INT32), "1234", type_decimal(5, 2), CAST_EXPLICIT), "ERR 22003 numeric field overflow");
	/* floe's exact-float rule */
	EQ(cv(T(TYPE_INT64), "9007199254740993", T(TYPE_FLOAT64), CAST_EXACT_FLOAT),
	   "ERR 22003 bigint value 9007199254740993 cannot be stored exactly in double precision");
	EQ(cv(T(TYPE_INT32), "16777217", T(TYPE_FLOAT32), CAST_EXACT_FLOAT),
	   "ERR 22003 integer value 16777217 cannot be stored exactly in real");
	/* PostgreSQL itself rounds: 16777217::int4::float4, 9007199254740993::int8::float8 */
	EQ(cv(T(TYPE_INT32), "16777217", T(TYPE_FLOAT32), CAST_EXPLICIT), "1.6777216e+07");
	EQ(cv(T(TYPE_INT64), "9007199254740993", T(TYPE_FLOAT64), CAST_EXPLICIT),
	   "9.007199254740992e+15");
	EQ(cv(T(TYPE_INT64), "9007199254740992", T(TYPE_FLOAT64), CAST_EXACT_FLOAT),
	   "9.007199254740992e+15");
}

static void
test_cast__text_and_others(void **state)
{
	/* select true::text, false::varchar(3), 12345::varchar(3), 'ab  '::char(4)::varchar
	 *   -> true|fal|123|ab */
	EQ(cv(T(TYPE_BOOL), "t", T(TYPE_TEXT), CAST_EXPLICIT), "true");
	EQ(cv(T(TYPE_BOOL), "f", type_varchar(3), CAST_EXPLICIT), "fal");
	EQ(cv(T(TYPE_INT32), "12345", type_varchar(3), CAST_EXPLICIT), "123");
	EQ(cv(T(TYPE_INT32), "12345", type_varchar(3), 0),
	   "ERR 22001 value too long for type character varying(3)");
	SqlType c4 = T(TYPE_TEXT);
	c4.text_kind = TEXT_CHAR;
	c4.typmod = 4;
	EQ(cv(c4, "ab", type_varchar(10), CAST_EXPLICIT), "ab");
	EQ(cv(type_varchar(10), "ab", c4, CAST_EXPLICIT), "ab  ");
	EQ(cv(T(TYPE_TEXT), "abcdef", type_varchar(3), CAST_EXPLICIT), "abc");
	/* select '12'::text::int, 1.5::numeric::text, 1.5::float8::text, uuid::text,
	 *   '\x01'::bytea::text, true::int, 5::bool, 0::bool -> 12|1.5|1.5|...|\x01|1|t|f */
	EQ(cv(T(TYPE_TEXT), "12", T(TYPE_INT32), CAST_EXPLICIT), "12");
	EQ(cv(T(TYPE_TEXT), "x", T(TYPE_INT32), CAST_EXPLICIT),
	   "ERR 22P02 invalid input syntax for type integer: \"x\"");
	EQ(cv(type_decimal(0, 0), "1.5", T(TYPE_TEXT), CAST_EXPLICIT), "1.5");
	EQ(cv(T(TYPE_FLOAT64), "1.5", T(TYPE_TEXT), CAST_EXPLICIT), "1.5");
	EQ(cv(T(TYPE_UUID), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", T(TYPE_TEXT), CAST_EXPLICIT),
	   "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
	EQ(cv(T(TYPE_BYTEA), "\\x01", T(TYPE_TEXT), CAST_EXPLICIT), "\\x01");
	EQ(cv(T(TYPE_BOOL), "t", T(TYPE_INT32), CAST_EXPLICIT), "1");
	EQ(cv(T(TYPE_INT32), "5", T(TYPE_BOOL), CAST_EXPLICIT), "t");
	EQ(cv(T(TYPE_INT32), "0", T(TYPE_BOOL), CAST_EXPLICIT), "f");
	/* select 1::date -> ERROR: cannot cast type integer to date (42846) */
	EQ(cv(T(TYPE_INT32), "1", T(TYPE_DATE), CAST_EXPLICIT),
	   "ERR 42846 cannot cast type integer to date");
	EQ(cv(T(TYPE_INT16), "1", T(TYPE_BOOL), CAST_EXPLICIT),
	   "ERR 42846 cannot cast type smallint to boolean");
	/* select '2024-01-02'::date::timestamptz, '2024-01-02 03:04:05'::timestamp::time,
	 *  '-1 day -1 hour'::interval::time, '1 day 25:00'::interval::time, '12:34'::time::interval,
	 *  '2024-01-02 03:04:05+00'::timestamptz::date */
	EQ(cv(T(TYPE_DATE), "2024-01-02", T(TYPE_TIMESTAMPTZ), CAST_EXPLICIT), "2024-01-02 00:00:00+00");
	EQ(cv(T(TYPE_TIMESTAMP), "2024-01-02 03:04:05", T(TYPE_TIME), CAST_EXPLICIT), "03:04:05");
	EQ(cv(T(TYPE_INTERVAL), "-1 day -1 hour", T(TYPE_TIME), CAST_EXPLICIT), "23:00:00");
	EQ(cv(T(TYPE_INTERVAL), "1 day 25:00", T(TYPE_TIME), CAST_EXPLICIT), "01:00:00");
	EQ(cv(T(TYPE_TIME), "12:34", T(TYPE_INTERVAL), CAST_EXPLICIT), "12:34:00");
	EQ(cv(T(TYPE_TIMESTAMPTZ), "2024-01-02 03:04:05+00", T(TYPE_DATE), CAST_EXPLICIT), "2024-01-02");
	/* set timezone to 'America/New_York';
	 * select '2024-01-02 03:04:05+00'::timestamptz::date, ::timestamp, '2024-07-01'::date::timestamptz
	 *   -> 2024-01-01 | 2024-01-01 22:04:05 | 2024-07-01 00:00:00-04 */
	datetime_set_timezone("America/New_York", &err);
	EQ(cv(T(TYPE_TIMESTAMPTZ), "2024-01-02 03:04:05+00", T(TYPE_DATE), CAST_EXPLICIT), "2024-01-01");
	EQ(cv(T(TYPE_TIMESTAMPTZ), "2024-01-02 03:04:05+00", T(TYPE_TIMESTAMP), CAST_EXPLICIT),
	   "2024-01-01 22:04:05");
	EQ(cv(T(TYPE_DATE), "2024-07-01", T(TYPE_TIMESTAMPTZ), CAST_EXPLICIT), "2024-07-01 00:00:00-04");
	datetime_set_timezone("UTC", &err);
	/* select 'infinity'::timestamp::time -> NULL */
	EQ(cv(T(TYPE_TIMESTAMP), "infinity", T(TYPE_TIME), CAST_EXPLICIT), "NULL");
	Value nul = value_null(T(TYPE_INT32)), out;
	assert_int_equal(cast_value(&out, &nul, T(TYPE_TEXT), A, &err), FLOE_OK);
	assert_true(out.is_null);
}

static void
test_cast__allowed(void **state)
{
	/* pg_cast contexts (PostgreSQL 15): i = implicit, a = assignment, e = explicit */
	assert_true(cast_allowed(T(TYPE_INT32), T(TYPE_INT64), COERCE_IMPLICIT));
	assert_false(cast_allowed(T(TYPE_INT64), T(TYPE_INT32), COERCE_IMPLICIT));
	assert_true(cast_allowed(T(TYPE_INT64), T(TYPE_INT32), COERCE_ASSIGNMENT));
	assert_true(cast_allowed(type_decimal(10, 2), T(TYPE_FLOAT64), COERCE_IMPLICIT));
	assert_false(cast_allowed(T(TYPE_FLOAT64), type_decimal(10, 2), COERCE_IMPLICIT));
	assert_true(cast_allowed(T(TYPE_FLOAT64), type_decimal(10, 2), COERCE_ASSIGNMENT));
	assert_false(cast_allowed(T(TYPE_TEXT), T(TYPE_INT32), COERCE_ASSIGNMENT));
	assert_true(cast_allowed(T(TYPE_TEXT), T(TYPE_INT32), COERCE_EXPLICIT));
	assert_true(cast_allowed(T(TYPE_INT32), type_varchar(5), COERCE_ASSIGNMENT));
	assert_false(cast_allowed(T(TYPE_INT32), T(TYPE_TEXT), COERCE_IMPLICIT));
	assert_true(cast_allowed(T(TYPE_TEXT), type_varchar(5), COERCE_IMPLICIT));
	assert_false(cast_allowed(T(TYPE_BOOL), T(TYPE_INT32), COERCE_ASSIGNMENT));
	assert_true(cast_allowed(T(TYPE_BOOL), T(TYPE_INT32), COERCE_EXPLICIT));
	assert_true(cast_allowed(T(TYPE_DATE), T(TYPE_TIMESTAMPTZ), COERCE_IMPLICIT));
	assert_false(cast_allowed(T(TYPE_TIMESTAMPTZ), T(TYPE_TIMESTAMP), COERCE_IMPLICIT));
	assert_true(cast_allowed(T(TYPE_TIMESTAMPTZ), T(TYPE_TIMESTAMP), COERCE_ASSIGNMENT));
	assert_true(cast_allowed(T(TYPE_NULL), T(TYPE_UUID), COERCE_IMPLICIT));
	assert_false(cast_allowed(T(TYPE_UUID), T(TYPE_BYTEA), COERCE_EXPLICIT));
	assert_false(cast_allowed(T(TYPE_INT32), T(TYPE_DATE), COERCE_EXPLICIT));
}

static void
test_cast__vector(void **state)
{
	Vector in, out;
	vector_init(&in, T(TYPE_INT64), A, 8);
	int64_t *d = in.data;
	for (int i = 0; i < 8; i++)
		d[i] = (int64_t)i * 1000000000;
	vector_set_null(&in, 3);
	vector_init(&out, T(TYPE_INT32), A, 8);
	/* 3000000000 does not fit integer */
	assert_int_equal(cast_vector(&in, 8, &out, T(TYPE_INT32), 0, &err), FLOE_ERR);
	assert_string_equal(err.message, "integer out of range");
	vector_init(&out, T(TYPE_INT32), A, 8);
	assert_int_equal(cast_vector(&in, 3, &out, T(TYPE_INT32), 0, &err), FLOE_OK);
	assert_int_equal(((int32_t *)out.data)[2], 2000000000);
	/* to text, with a NULL row */
	vector_init(&out, T(TYPE_TEXT), A, 8);
	assert_int_equal(cast_vector(&in, 8, &out, T(TYPE_TEXT), CAST_EXPLICIT, &err), FLOE_OK);
	size_t n;
	assert_string_equal(vector_value_text(&out, 7, A, &n), "7000000000");
	assert_null(vector_value_text(&out, 3, A, &n));
	/* const input to double, fast path */
	Vector c, o2;
	Value x = value_int(TYPE_INT32, 7);
	vector_init_const(&c, &x, A);
	vector_init(&o2, T(TYPE_FLOAT64), A, 8);
	assert_int_equal(cast_vector(&c, 8, &o2, T(TYPE_FLOAT64), 0, &err), FLOE_OK);
	assert_true(((double *)o2.data)[5] == 7.0);
	/* text to numeric(6,2) rounds per row */
	Vector t, o3;
	vector_init(&t, T(TYPE_TEXT), A, 2);
	vector_set_string(&t, 0, "1.005", 5);
	vector_set_string(&t, 1, "  -2.5 ", 7);
	vector_init(&o3, type_decimal(6, 2), A, 2);
	assert_int_equal(cast_vector(&t, 2, &o3, type_decimal(6, 2), 0, &err), FLOE_OK);
	assert_string_equal(vector_value_text(&o3, 0, A, &n), "1.01");
	assert_string_equal(vector_value_text(&o3, 1, A, &n), "-2.50");

	/* checked numeric loops: same answers and messages as cast_value */
	Vector dv, o4, o5, o6;
	vector_init(&dv, type_decimal(10, 3), A, 3);
	((int128 *)dv.data)[0] = 1005;      /* 1.005 */
	((int128 *)dv.data)[1] = -2500;     /* -2.500 */
	((int128 *)dv.data)[2] = 123456789; /* 123456.789 */
	vector_init(&o4, type_decimal(5, 2), A, 3);
	assert_int_equal(cast_vector(&dv, 2, &o4, type_decimal(5, 2), 0, &err), FLOE_OK);
	assert_string_equal(vector_value_text(&o4, 0, A, &n), "1.01");
	assert_string_equal(vector_value_text(&o4, 1, A, &n), "-2.50");
	assert_int_equal(cast_vector(&dv, 3, &o4, type_decimal(5, 2), 0, &err), FLOE_ERR);
	assert_string_equal(err.detail,
		"A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
	vector_init(&o5, T(TYPE_FLOAT64), A, 3);
	assert_int_equal(cast_vector(&dv, 3, &o5, T(TYPE_FLOAT64), 0, &err), FLOE_OK);
	assert_string_equal(vector_value_text(&o5, 2, A, &n), "123456.789");
	vector_init(&o6, T(TYPE_INT16), A, 3);
	assert_int_equal(cast_vector(&o5, 2, &o6, T(TYPE_INT16), 0, &err), FLOE_OK);
	assert_string_equal(vector_value_text(&o6, 1, A, &n), "-2");   /* rint(-2.5) */
	assert_int_equal(cast_vector(&o5, 3, &o6, T(TYPE_INT16), 0, &err), FLOE_ERR);
	assert_string_equal(err.message, "smallint out of range");
	Vector iv, o7;
	vector_init(&iv, T(TYPE_INT32), A, 2);
	((int32_t *)iv.data)[0] = 99999;
	((int32_t *)iv.data)[1] = 100000;
	vector_init(&o7, type_decimal(7, 2), A, 2);
	assert_int_equal(cast_vector(&iv, 1, &o7, type_decimal(7, 2), 0, &err), FLOE_OK);
	assert_string_equal(vector_value_text(&o7, 0, A, &n), "99999.00");
	assert_int_equal(cast_vector(&iv, 2, &o7, type_decimal(7, 2), 0, &err), FLOE_ERR);
	assert_string_equal(err.message, "numeric field overflow");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cast__numeric_pairs),
		cmocka_unit_test(test_cast__text_and_others),
		cmocka_unit_test(test_cast__allowed),
		cmocka_unit_test(test_cast__vector),
		cmocka_unit_test(test_cast__pg_samples),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
