/*
 * test_datetime.c — date/time/timestamp/interval input and output, time
 * zones and calendar arithmetic.
 *
 * Every expected string below was produced by PostgreSQL 15.18 (DateStyle
 * ISO, MDY; IntervalStyle postgres; TimeZone as noted) running the same
 * input through ::date, ::time, ::timestamp, ::timestamptz or ::interval.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "types/datetime.h"

static floe_error err;
static char buf[1200];

enum { K_DATE, K_TIME, K_TS, K_TSTZ, K_IV };

/* Parse then format; on error return "ERR <sqlstate> <message>". */
static const char *
rt(int kind, const char *in)
{
	size_t n = strlen(in);
	int rc;
	int32_t d;
	int64_t t;
	Interval iv;
	switch (kind) {
	case K_DATE:
		rc = datetime_parse_date(in, n, &d, &err);
		if (rc == FLOE_OK)
			datetime_format_date(d, buf);
		break;
	case K_TIME:
		rc = datetime_parse_time(in, n, &t, &err);
		if (rc == FLOE_OK)
			datetime_format_time(t, buf);
		break;
	case K_TS:
		rc = datetime_parse_timestamp(in, n, &t, &err);
		if (rc == FLOE_OK)
			datetime_format_timestamp(t, buf);
		break;
	case K_TSTZ:
		rc = datetime_parse_timestamptz(in, n, &t, &err);
		if (rc == FLOE_OK)
			datetime_format_timestamptz(t, buf);
		break;
	default:
		rc = datetime_parse_interval(in, n, &iv, &err);
		if (rc == FLOE_OK)
			datetime_format_interval(iv, buf);
		break;
	}
	if (rc != FLOE_OK)
		snprintf(buf, sizeof buf, "ERR %s %s", err.sqlstate, err.message);
	return buf;
}

typedef struct { const char *in, *out; } Case;

static void
check(int kind, const Case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *got = rt(kind, c[i].in);
		if (strcmp(got, c[i].out) != 0)
			fail_msg("input \"%s\": got \"%s\", PostgreSQL says \"%s\"", c[i].in, got, c[i].out);
	}
}

#define CHECK(kind, arr) check(kind, arr, sizeof arr / sizeof arr[0])

static void
test_datetime__civil(void **state)
{
	int64_t y;
	int m, d;
	assert_int_equal(datetime_days_from_civil(1970, 1, 1), 0);
	assert_int_equal(datetime_days_from_civil(1969, 12, 31), -1);
	assert_int_equal(datetime_days_from_civil(2000, 3, 1), 11017);
	/* every day from 4714 BC to 10000 AD round-trips, months in order */
	int64_t prev = datetime_days_from_civil(-4713, 1, 1) - 1;
	for (int64_t yy = -4713; yy <= 10000; yy += 37)
		for (int mm = 1; mm <= 12; mm++) {
			int64_t k = datetime_days_from_civil(yy, mm, 1);
			datetime_civil_from_days(k, &y, &m, &d);
			assert_true(y == yy && m == mm && d == 1);
			assert_true(k > prev);
			prev = k;
		}
	assert_true(datetime_valid_civil(2024, 2, 29));
	assert_false(datetime_valid_civil(2023, 2, 29));
	assert_false(datetime_valid_civil(1900, 2, 29));
	assert_true(datetime_valid_civil(2000, 2, 29));
}

static void
test_datetime__date(void **state)
{
	static const Case c[] = {
		{ "0044-03-15 BC", "0044-03-15 BC" }, { "10000-01-01", "10000-01-01" },
		{ "infinity", "infinity" }, { " -infinity ", "-infinity" },
		{ "4714-11-24 BC", "4714-11-24 BC" }, { "5874897-12-31", "5874897-12-31" },
		{ "20240102", "2024-01-02" }, { "2024/01/02", "2024-01-02" },
		{ "01/02/2024", "2024-01-02" }, { "January 2, 2024", "2024-01-02" },
		{ "2 Jan 2024", "2024-01-02" }, { "Jan-02-2024", "2024-01-02" },
		{ "01/02/24", "2024-01-02" }, { "1/2/99", "1999-01-02" },
		{ "2024.01.02", "2024-01-02" }, { "Jan 2 2024", "2024-01-02" },
		{ " 2024-01-02 ", "2024-01-02" }, { "Tue Jan 02 2024", "2024-01-02" },
		{ "2024-Jan-02", "2024-01-02" }, { "epoch", "1970-01-01" },
		{ "0044-03-15BC", "0044-03-15 BC" }, { "01/022/2024", "2024-01-22" },
		{ "2024-502-29", "ERR 22008 date/time field value out of range: \"2024-502-29\"" },
		{ "1969-12-31", "1969-12-31" }, { "2024-02-29", "2024-02-29" },
		{ "2000-02-29", "2000-02-29" }, { "0001-01-01", "0001-01-01" },
		{ "0001-12-31 BC", "0001-12-31 BC" },
		{ "2024-13-01", "ERR 22008 date/time field value out of range: \"2024-13-01\"" },
		{ "abc", "ERR 22007 invalid input syntax for type date: \"abc\"" },
		{ "2023-02-29", "ERR 22008 date/time field value out of range: \"2023-02-29\"" },
		{ "2024-01-32", "ERR 22008 date/time field value out of range: \"2024-01-32\"" },
		{ "0000-01-01", "ERR 22008 date/time field value out of range: \"0000-01-01\"" },
		{ "24-01-02", "ERR 22008 date/time field value out of range: \"24-01-02\"" },
		{ "4714-11-23 BC", "ERR 22008 date out of range: \"4714-11-23 BC\"" },
		{ "", "ERR 22007 invalid input syntax for type date: \"\"" },
	};
	CHECK(K_DATE, c);
	rt(K_DATE, "2024-13-01");
	assert_string_equal(err.hint, "Perhaps you need a different \"datestyle\" setting.");
}

static void
test_datetime__time(void **state)
{
	static const Case c[] = {
		{ "24:00:00", "24:00:00" }, { "23:59:59.9999999", "24:00:00" },
		{ "1:2", "01:02:00" }, { "12:34:56.5", "12:34:56.5" },
		{ "12:00 am", "00:00:00" }, { "1:00 pm", "13:00:00" }, { "allballs", "00:00:00" },
		{ "03:04", "03:04:00" }, { "12:34.5", "00:12:34.5" }, { "2024-01-02 03:04:05", "03:04:05" },
		{ "03:04:05+02", "03:04:05" }, { "040506", "04:05:06" },
		{ "24:00:01", "ERR 22008 date/time field value out of range: \"24:00:01\"" },
		{ "1 pm", "ERR 22007 invalid input syntax for type time: \"1 pm\"" },
		{ "03:04:25:", "ERR 22007 invalid input syntax for type time: \"03:04:25:\"" },
	};
	CHECK(K_TIME, c);
}

static void
test_datetime__timestamp(void **state)
{
	static const Case c[] = {
		{ "2024-01-02 03:04:05.678", "2024-01-02 03:04:05.678" },
		{ "0044-03-15 12:00:00 BC", "0044-03-15 12:00:00 BC" },
		{ "2024-01-02T03:04:05", "2024-01-02 03:04:05" },
		{ "2024-01-02 03:04:05.1234567", "2024-01-02 03:04:05.123457" },
		{ "2024-01-02 03:04:05.999999999", "2024-01-02 03:04:06" },
		{ "2024-01-02 23:59:60", "2024-01-03 00:00:00" },
		{ "2024-01-01 24:00:00", "2024-01-02 00:00:00" },
		{ "2024-01-01 12:00 pm", "2024-01-01 12:00:00" },
		{ "2024-01-01 12:00 am", "2024-01-01 00:00:00" },
		{ "epoch", "1970-01-01 00:00:00" }, { "-infinity", "-infinity" },
		{ "1900-02-28 23:59:59.000001", "1900-02-28 23:59:59.000001" },
		{ "2024-01-02 0304", "2024-01-02 03:04:00" },
		{ "2024-01-022 03:04:05", "2024-01-22 03:04:05" },
		{ "abc", "ERR 22007 invalid input syntax for type timestamp: \"abc\"" },
		{ "2024-01-02x", "ERR 22007 invalid input syntax for type timestamp: \"2024-01-02x\"" },
		{ "2024-01-02 03", "ERR 22007 invalid input syntax for type timestamp: \"2024-01-02 03\"" },
		{ "2024-02-30 25:00", "ERR 22008 date/time field value out of range: \"2024-02-30 25:00\"" },
		{ "2024-01-02 13:00 pm", "ERR 22008 date/time field value out of range: \"2024-01-02 13:00 pm\"" },
		{ "294277-01-01", "ERR 22008 timestamp out of range: \"294277-01-01\"" },
	};
	CHECK(K_TS, c);
}

static void
test_datetime__timestamptz(void **state)
{
	assert_int_equal(datetime_set_timezone("UTC", &err), FLOE_OK);
	static const Case utc[] = {
		{ "2024-01-02 03:04:05.678+02", "2024-01-02 01:04:05.678+00" },
		{ "0044-03-15 12:00:00 BC", "0044-03-15 12:00:00+00 BC" },
		{ "2024-01-02 03:04:05Z", "2024-01-02 03:04:05+00" },
		{ "2024-01-02 03:04:05 +05:30", "2024-01-01 21:34:05+00" },
		{ "2024-01-02 03:04:05-0830", "2024-01-02 11:34:05+00" },
		{ "2024-01-02", "2024-01-02 00:00:00+00" }, { "epoch", "1970-01-01 00:00:00+00" },
		{ "infinity", "infinity" },
		{ "2024-01-02 03:04:05 America/New_York", "2024-01-02 08:04:05+00" },
		{ "2024-07-02 03:04:05 Europe/Paris", "2024-07-02 01:04:05+00" },
		{ "2024-01-02 03:04:05 CET", "2024-01-02 02:04:05+00" },
		{ "2024-01-02 03:04:05 PST", "2024-01-02 11:04:05+00" },
		{ "2024-01-02 03:04:05 +16",
		  "ERR 22008 time zone displacement out of range: \"2024-01-02 03:04:05 +16\"" },
	};
	CHECK(K_TSTZ, utc);

	/* SET TIME ZONE '+05:30' (POSIX: west of UTC) */
	assert_int_equal(datetime_set_timezone("+05:30", &err), FLOE_OK);
	static const Case p530[] = { { "2024-01-01 00:00:00+00", "2023-12-31 18:30:00-05:30" } };
	CHECK(K_TSTZ, p530);
	/* SET TIME ZONE -8 */
	assert_int_equal(datetime_set_timezone_offset(-8 * 3600, &err), FLOE_OK);
	static const Case m8[] = { { "2024-01-01 00:00:00+00", "2023-12-31 16:00:00-08" } };
	CHECK(K_TSTZ, m8);
	assert_int_equal(datetime_set_timezone("UTC+3", &err), FLOE_OK);
	static const Case u3[] = { { "2024-01-01 00:00:00+00", "2023-12-31 21:00:00-03" } };
	CHECK(K_TSTZ, u3);
	assert_int_equal(datetime_set_timezone("Asia/Kolkata", &err), FLOE_OK);
	static const Case kol[] = {
		{ "2024-01-01 00:00:00+00", "2024-01-01 05:30:00+05:30" },
		{ "1900-01-01 00:00:00+00", "1900-01-01 05:21:10+05:21:10" },
	};
	CHECK(K_TSTZ, kol);
	assert_int_equal(datetime_set_timezone("Europe/Paris", &err), FLOE_OK);
	static const Case par[] = {
		{ "1900-01-01 00:00:00+00", "1900-01-01 00:09:21+00:09:21" },
		{ "2024-03-31 02:30:00", "2024-03-31 03:30:00+02" },   /* gap */
		{ "2024-10-27 02:30:00", "2024-10-27 02:30:00+01" },   /* overlap */
		{ "0044-03-15 12:00:00 BC", "0044-03-15 12:00:00+00:09:21 BC" },
		{ "2300-07-01 00:00:00+00", "2300-07-01 02:00:00+02" },
	};
	CHECK(K_TSTZ, par);
	assert_int_equal(datetime_set_timezone("America/New_York", &err), FLOE_OK);
	static const Case ny[] = {
		{ "2024-03-10 02:30", "2024-03-10 03:30:00-04" },
		{ "2024-11-03 01:30", "2024-11-03 01:30:00-05" },
	};
	CHECK(K_TSTZ, ny);
	assert_int_equal(datetime_set_timezone("Nowhere/Foo", &err), FLOE_ERR);
	assert_string_equal(err.message, "invalid value for parameter \"TimeZone\": \"Nowhere/Foo\"");
	assert_int_equal(datetime_set_timezone("UTC", &err), FLOE_OK);
}

static void
test_datetime__interval(void **state)
{
	static const Case c[] = {
		{ "1 day 02:00:00", "1 day 02:00:00" }, { "3 months", "3 mons" }, { "P1D", "1 day" },
		{ "P1Y2M3DT4H5M6.5S", "1 year 2 mons 3 days 04:05:06.5" },
		{ "-1 day 2 hours", "-1 days +02:00:00" }, { "1 year -1 mon", "11 mons" },
		{ "-1 days -02:00:00", "-1 days -02:00:00" }, { "1.5 days", "1 day 12:00:00" },
		{ "1.5 months", "1 mon 15 days" }, { "1.5 years", "1 year 6 mons" },
		{ "90 minutes", "01:30:00" }, { "@ 1 hour ago", "-01:00:00" },
		{ "1 year 2 mons 3 days 04:05:06.789", "1 year 2 mons 3 days 04:05:06.789" },
		{ "1.2345678 sec", "00:00:01.234568" }, { "-0.5 sec", "-00:00:00.5" },
		{ "1 day -00:00:01", "1 day -00:00:01" }, { "PT1.5H", "01:30:00" },
		{ "P1.5Y", "1 year 6 mons" }, { "P0.5M", "15 days" }, { "P1W", "7 days" },
		{ "1 millisecond", "00:00:00.001" }, { "3 microseconds", "00:00:00.000003" },
		{ "1 yr 2 hrs 3 mins 4 secs", "1 year 02:03:04" },
		{ "0", "00:00:00" }, { "10", "00:00:10" }, { "1:30", "01:30:00" },
		{ "-1:30", "-01:30:00" }, { "100 hours", "100:00:00" }, { "1 week", "7 days" },
		{ "2 decades", "20 years" }, { "1.25 mon", "1 mon 7 days 12:00:00" },
		{ "0.000001 sec", "00:00:00.000001" },
		{ "1 mon -1 day +1 hour", "1 mon -1 days +01:00:00" },
		{ "-1 mon 1 day", "-1 mons +1 day" }, { "-2 years 3 mons", "-1 years -9 mons" },
		{ "1 2:03:04", "1 day 02:03:04" }, { "-1 2:03:04", "-1 days +02:03:04" },
		{ "1:2:3.5", "01:02:03.5" }, { "- 1 day", "-1 days" }, { "+1 day", "1 day" },
		{ "1 day ago", "-1 days" }, { "1 day -2 hours ago", "-1 days +02:00:00" },
		{ "1.5", "00:00:01.5" }, { "1 hour 30", "01:00:30" },
		{ "P4.8M", "4 mons 23 days 24:00:00" }, { "5 1 hour", "5 days 01:00:00" },
		{ "24 decade 15:03.984187", "240 years 00:15:03.984187" },
		{ "1 week 2 days", "9 days" }, { "1 year 1 decade", "11 years" },
		{ "3.5 sec 5 ms", "ERR 22007 invalid input syntax for type interval: \"3.5 sec 5 ms\"" },
		{ "1 min 1:00", "ERR 22007 invalid input syntax for type interval: \"1 min 1:00\"" },
		{ "0.1sec", "00:00:00.1" }, { "0.10Sec", "00:00:00.1" }, { ".5 weeks", "3 days 12:00:00" },
		{ "1h", "01:00:00" }, { "2d", "2 days" }, { "3 mins", "00:03:00" },
		{ "5 s", "00:00:05" }, { "1 y 2 mon", "1 year 2 mons" },
		{ "1.1 years", "1 year 1 mon" }, { "0.1 years", "1 mon" }, { "1.7 mon", "1 mon 21 days" },
		{ "1.33333 days", "1 day 07:59:59.712" }, { "2.5 weeks", "17 days 12:00:00" },
		{ "-1.5 days", "-1 days -12:00:00" }, { "1 century", "100 years" },
		{ "1 millennium", "1000 years" }, { "-1.3 years", "-1 years -4 mons" },
		{ "abc", "ERR 22007 invalid input syntax for type interval: \"abc\"" },
		{ "1 dayz", "ERR 22007 invalid input syntax for type interval: \"1 dayz\"" },
		{ "1 day 1 day", "ERR 22007 invalid input syntax for type interval: \"1 day 1 day\"" },
		{ "5 minutes 3 minutes",
		  "ERR 22007 invalid input syntax for type interval: \"5 minutes 3 minutes\"" },
		{ "2147483648 days",
		  "ERR 22015 interval field value out of range: \"2147483648 days\"" },
	};
	CHECK(K_IV, c);
}

static void
test_datetime__arith(void **state)
{
	int64_t ts, r;
	Interval iv;
	assert_int_equal(datetime_set_timezone("UTC", &err), FLOE_OK);
	/* select '2024-01-31'::timestamp + '1 mon'::interval -> 2024-02-29 00:00:00 */
	datetime_parse_timestamp("2024-01-31", 10, &ts, &err);
	datetime_parse_interval("1 mon", 5, &iv, &err);
	assert_int_equal(datetime_add_interval(ts, iv, false, &r, &err), FLOE_OK);
	datetime_format_timestamp(r, buf);
	assert_string_equal(buf, "2024-02-29 00:00:00");
	/* select '2024-01-31 10:00'::timestamp + '1 year 1 day 1 hour' -> 2025-02-01 11:00:00 */
	datetime_parse_timestamp("2024-01-31 10:00", 16, &ts, &err);
	datetime_parse_interval("1 year 1 day 1 hour", 19, &iv, &err);
	assert_int_equal(datetime_add_interval(ts, iv, false, &r, &err), FLOE_OK);
	datetime_format_timestamp(r, buf);
	assert_string_equal(buf, "2025-02-01 11:00:00");
	/* set timezone 'Europe/Paris'; select '2024-03-30 12:00+01'::timestamptz
	 *   + '1 day' -> 2024-03-31 12:00:00+02 ; + '24 hours' -> 2024-03-31 13:00:00+02 */
	assert_int_equal(datetime_set_timezone("Europe/Paris", &err), FLOE_OK);
	datetime_parse_timestamptz("2024-03-30 12:00+01", 19, &ts, &err);
	datetime_parse_interval("1 day", 5, &iv, &err);
	assert_int_equal(datetime_add_interval(ts, iv, true, &r, &err), FLOE_OK);
	datetime_format_timestamptz(r, buf);
	assert_string_equal(buf, "2024-03-31 12:00:00+02");
	datetime_parse_interval("24 hours", 8, &iv, &err);
	assert_int_equal(datetime_add_interval(ts, iv, true, &r, &err), FLOE_OK);
	datetime_format_timestamptz(r, buf);
	assert_string_equal(buf, "2024-03-31 13:00:00+02");
	assert_int_equal(datetime_set_timezone("UTC", &err), FLOE_OK);
	/* select '2024-03-01 12:00'::timestamp - '2024-01-01 00:00' -> 60 days 12:00:00 */
	int64_t a, b;
	datetime_parse_timestamp("2024-03-01 12:00", 16, &a, &err);
	datetime_parse_timestamp("2024-01-01 00:00", 16, &b, &err);
	assert_int_equal(datetime_timestamp_diff(a, b, &iv, &err), FLOE_OK);
	datetime_format_interval(iv, buf);
	assert_string_equal(buf, "60 days 12:00:00");
	/* select '1 mon'::interval > '29 days'::interval -> t; = '30 days' -> t */
	Interval m1 = { 1, 0, 0 }, d29 = { 0, 29, 0 }, d30 = { 0, 30, 0 };
	assert_int_equal(datetime_interval_cmp(m1, d29), 1);
	assert_int_equal(datetime_interval_cmp(m1, d30), 0);
	/* select '1 mon 1 day'::interval * 1.5 -> 1 mon 16 days 12:00:00 */
	Interval x = { 1, 1, 0 };
	assert_int_equal(datetime_interval_mul(x, 1.5, &iv, &err), FLOE_OK);
	datetime_format_interval(iv, buf);
	assert_string_equal(buf, "1 mon 16 days 12:00:00");
}

static const char *
ivmul(const char *iv, double f)
{
	Interval a, r;
	datetime_parse_interval(iv, strlen(iv), &a, &err);
	if (datetime_interval_mul(a, f, &r, &err) != FLOE_OK)
		return err.message;
	datetime_format_interval(r, buf);
	return buf;
}

static const char *
justify(const char *iv)
{
	Interval a;
	datetime_parse_interval(iv, strlen(iv), &a, &err);
	datetime_format_interval(datetime_justify_interval(a), buf);
	return buf;
}

static const char *
tz_op(const char *ts, const char *iv, const char *trunc)
{
	int64_t t, r;
	Interval a;
	datetime_parse_timestamptz(ts, strlen(ts), &t, &err);
	if (trunc)
		assert_int_equal(datetime_trunc(trunc, t, true, &r, &err), FLOE_OK);
	else {
		datetime_parse_interval(iv, strlen(iv), &a, &err);
		assert_int_equal(datetime_add_interval(t, a, true, &r, &err), FLOE_OK);
	}
	datetime_format_timestamptz(r, buf);
	return buf;
}

static void
test_datetime__now(void **state)
{
	int64_t now, t;
	int32_t d;
	/* 2024-03-10 05:30:00 UTC; New York is still on EST (-05) then */
	datetime_parse_timestamptz("2024-03-10 05:30:00+00", 22, &now, &err);
	datetime_set_statement_now(now);
	assert_int_equal(datetime_set_timezone("America/New_York", &err), FLOE_OK);
	assert_int_equal(datetime_parse_timestamptz(" now ", 5, &t, &err), FLOE_OK);
	assert_true(t == now);
	assert_int_equal(datetime_parse_timestamp("now", 3, &t, &err), FLOE_OK);
	datetime_format_timestamp(t, buf);
	assert_string_equal(buf, "2024-03-10 00:30:00");
	assert_int_equal(datetime_parse_date("today", 5, &d, &err), FLOE_OK);
	datetime_format_date(d, buf);
	assert_string_equal(buf, "2024-03-10");
	assert_int_equal(datetime_parse_timestamptz("tomorrow", 8, &t, &err), FLOE_OK);
	datetime_format_timestamptz(t, buf);
	assert_string_equal(buf, "2024-03-11 00:00:00-04");
	assert_int_equal(datetime_parse_date("yesterday", 9, &d, &err), FLOE_OK);
	datetime_format_date(d, buf);
	assert_string_equal(buf, "2024-03-09");
	assert_int_equal(datetime_parse_time("now", 3, &t, &err), FLOE_OK);
	datetime_format_time(t, buf);
	assert_string_equal(buf, "00:30:00");
	datetime_set_statement_now(0);
	assert_true(datetime_now() > now);
	assert_int_equal(datetime_set_timezone("UTC", &err), FLOE_OK);
}

static void
test_datetime__interval_ops(void **state)
{
	/* select '1 mon 1 day'::interval * 1.5, '1 mon'::interval * 0.3,
	 *  '1 day 1 hour'::interval * 2.7, '-1 mon -3 days'::interval * 0.77,
	 *  '3 mons'::interval / 7, '1 year'::interval * 1.33333 */
	assert_string_equal(ivmul("1 mon 1 day", 1.5), "1 mon 16 days 12:00:00");
	assert_string_equal(ivmul("1 mon", 0.3), "9 days");
	assert_string_equal(ivmul("1 day 1 hour", 2.7), "2 days 19:30:00");
	assert_string_equal(ivmul("-1 mon -3 days", 0.77), "-25 days -09:50:24");
	assert_string_equal(ivmul("3 mons", 1.0 / 7), "12 days 20:34:17.1552");
	assert_string_equal(ivmul("1 year", 1.33333), "1 year 3 mons 29 days 23:58:16.32");
	/* select justify_interval('1 mon -1 hour'), justify_interval('-35 days 25:00'),
	 *  justify_interval('1 mon -35 days'), justify_interval('100 days 5000 hours') */
	assert_string_equal(justify("1 mon -1 hour"), "29 days 23:00:00");
	assert_string_equal(justify("-35 days 25:00"), "-1 mons -3 days -23:00:00");
	assert_string_equal(justify("1 mon -35 days"), "-5 days");
	assert_string_equal(justify("100 days 5000 hours"), "10 mons 8 days 08:00:00");
	/* set timezone to 'America/New_York';
	 * select date_trunc('hour', '2024-11-03 05:30:00+00'::timestamptz),
	 *  date_trunc('hour', '2024-11-03 06:30:00+00'::timestamptz),
	 *  date_trunc('day', '2024-11-03 06:30:00+00'::timestamptz),
	 *  '2024-03-09 02:30:00-05'::timestamptz + '1 day',
	 *  '2024-02-10 02:30:00-05'::timestamptz + '1 mon 1 day' */
	assert_int_equal(datetime_set_timezone("America/New_York", &err), FLOE_OK);
	assert_string_equal(tz_op("2024-11-03 05:30:00+00", NULL, "hour"), "2024-11-03 01:00:00-04");
	assert_string_equal(tz_op("2024-11-03 06:30:00+00", NULL, "hour"), "2024-11-03 01:00:00-05");
	assert_string_equal(tz_op("2024-11-03 06:30:00+00", NULL, "day"), "2024-11-03 00:00:00-04");
	assert_string_equal(tz_op("2024-03-09 02:30:00-05", "1 day", NULL), "2024-03-10 03:30:00-04");
	assert_string_equal(tz_op("2024-02-10 02:30:00-05", "1 mon 1 day", NULL),
			    "2024-03-11 03:30:00-04");
	assert_int_equal(datetime_set_timezone("UTC", &err), FLOE_OK);
}

static void
test_datetime__trunc_extract(void **state)
{
	int64_t ts, r;
	double d;
	assert_int_equal(datetime_set_timezone("UTC", &err), FLOE_OK);
	datetime_parse_timestamp("2024-05-15 13:45:12.345678", 26, &ts, &err);
	/* select date_trunc('<f>', '2024-05-15 13:45:12.345678'::timestamp) */
	const char *f[] = { "second", "minute", "hour", "day", "week", "month", "quarter",
			    "year", "decade", "century", "millennium", "milliseconds" };
	const char *e[] = { "2024-05-15 13:45:12", "2024-05-15 13:45:00", "2024-05-15 13:00:00",
			    "2024-05-15 00:00:00", "2024-05-13 00:00:00", "2024-05-01 00:00:00",
			    "2024-04-01 00:00:00", "2024-01-01 00:00:00", "2020-01-01 00:00:00",
			    "2001-01-01 00:00:00", "2001-01-01 00:00:00", "2024-05-15 13:45:12.345" };
	for (int i = 0; i < 12; i++) {
		assert_int_equal(datetime_trunc(f[i], ts, false, &r, &err), FLOE_OK);
		datetime_format_timestamp(r, buf);
		assert_string_equal(buf, e[i]);
	}
	/* select date_trunc('Fortnight', now()::timestamp), date_trunc('timezone', ...),
	 *        extract(hour from date '2024-01-01') */
	assert_int_equal(datetime_trunc("Fortnight", ts, false, &r, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22023");
	assert_string_equal(err.message,
		"unit \"fortnight\" not recognized for type timestamp without time zone");
	assert_int_equal(datetime_trunc("timezone", ts, false, &r, &err), FLOE_ERR);
	assert_string_equal(err.message,
		"unit \"timezone\" not supported for type timestamp without time zone");
	assert_int_equal(datetime_extract("hour", TYPE_DATE, 0, &d, &err), FLOE_ERR);
	assert_string_equal(err.message, "unit \"hour\" not supported for type date");
	/* select extract(<f> from '2024-05-15 13:45:12.345678'::timestamp) */
	const char *xf[] = { "year", "month", "day", "hour", "minute", "second", "dow", "isodow",
			     "doy", "week", "quarter", "epoch", "century", "decade", "isoyear" };
	const double xe[] = { 2024, 5, 15, 13, 45, 12.345678, 3, 3, 136, 20, 2,
			      1715780712.345678, 21, 202, 2024 };
	for (int i = 0; i < 15; i++) {
		assert_int_equal(datetime_extract(xf[i], TYPE_TIMESTAMP, ts, &d, &err), FLOE_OK);
		if (d != xe[i])
			fail_msg("extract %s: %.17g != %.17g", xf[i], d, xe[i]);
	}
	/* select extract(year from '0044-03-15 BC'::date) -> -44;
	 *        extract(century from '0044-03-15 BC'::date) -> -1 */
	int32_t dd;
	datetime_parse_date("0044-03-15 BC", 13, &dd, &err);
	assert_int_equal(datetime_extract("year", TYPE_DATE, dd, &d, &err), FLOE_OK);
	assert_true(d == -44);
	assert_int_equal(datetime_extract("century", TYPE_DATE, dd, &d, &err), FLOE_OK);
	assert_true(d == -1);
	/* select extract(week from '2021-01-01'::date) -> 53, isoyear -> 2020 */
	datetime_parse_date("2021-01-01", 10, &dd, &err);
	assert_int_equal(datetime_extract("week", TYPE_DATE, dd, &d, &err), FLOE_OK);
	assert_true(d == 53);
	assert_int_equal(datetime_extract("isoyear", TYPE_DATE, dd, &d, &err), FLOE_OK);
	assert_true(d == 2020);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_datetime__civil),
		cmocka_unit_test(test_datetime__date),
		cmocka_unit_test(test_datetime__time),
		cmocka_unit_test(test_datetime__timestamp),
		cmocka_unit_test(test_datetime__timestamptz),
		cmocka_unit_test(test_datetime__interval),
		cmocka_unit_test(test_datetime__arith),
		cmocka_unit_test(test_datetime__now),
		cmocka_unit_test(test_datetime__interval_ops),
		cmocka_unit_test(test_datetime__trunc_extract),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
