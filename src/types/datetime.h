/*
 * datetime.h — dates, times, timestamps and intervals as PostgreSQL 15 has
 * them (src/backend/utils/adt/{date,timestamp,datetime}.c semantics).
 *
 * Representation (types.h): date = int32 days since 1970-01-01; time =
 * int64 micros since midnight; timestamp = int64 micros since 1970-01-01
 * (no zone); timestamptz = int64 micros since 1970-01-01 UTC; interval =
 * {months, days, micros} kept separate, never normalised across units
 * (PostgreSQL's rule: a month is not a fixed number of days).
 * Infinity: date INT32_MAX / INT32_MIN, timestamp INT64_MAX / INT64_MIN.
 * Dates are proleptic Gregorian; year 0 does not exist in text (1 BC = year 0
 * internally, "0001-01-01 BC").
 *
 * The session time zone is per thread (datetime_set_timezone sets the
 * calling thread's; datetime_current_zone / datetime_use_zone save and
 * restore it, so an embedder running several sessions keeps one per
 * session): "UTC",
 * fixed offsets, and named zones read from the system tzdata
 * (/usr/share/zoneinfo TZif files, parsed here; thread-safe lookups).
 * floe's finite timestamps end at 294247-01-10 (int64 micros since 1970),
 * PostgreSQL's at 294276-12-31.
 *
 * INTERFACE ROUTINES
 *   datetime_days_from_civil(y, m, d) / datetime_civil_from_days(days, &y, &m, &d)
 *   datetime_parse_date/time/timestamp/timestamptz/interval(s, n, &out, err)
 *   datetime_format_date/time/timestamp/timestamptz/interval(v, buf) -> len
 *   datetime_set_timezone(name, err) / datetime_set_timezone_offset(secs, err)
 *   datetime_timezone_name() / datetime_set_statement_now(ts) / datetime_now()
 *   datetime_current_zone() / datetime_use_zone(z) / datetime_zone_name(z)
 *   datetime_current_style() / datetime_use_style(st)   DateStyle, IntervalStyle
 *   datetime_tz_offset_utc(ts_utc) / datetime_local_to_utc(local)
 *   datetime_timestamptz_to_local / datetime_add_interval / datetime_interval_*
 *   datetime_justify_hours/days/interval / datetime_timestamp_diff
 *   datetime_trunc / datetime_extract / datetime_extract_interval
 *   datetime_make_timestamp / datetime_date_to_timestamp / datetime_timestamp_to_date
 */
#ifndef FLOE_DATETIME_H
#define FLOE_DATETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/error.h"
#include "types/types.h"

#define USECS_PER_SEC   INT64_C(1000000)
#define USECS_PER_MIN   INT64_C(60000000)
#define USECS_PER_HOUR  INT64_C(3600000000)
#define USECS_PER_DAY   INT64_C(86400000000)
#define DAYS_PER_MONTH  30

#define DATE_NOBEGIN   INT32_MIN      /* -infinity */
#define DATE_NOEND     INT32_MAX      /* infinity */
#define TS_NOBEGIN     INT64_MIN
#define TS_NOEND       INT64_MAX

/* PostgreSQL's valid ranges: dates 4713-11-24 BC .. 5874897-12-31,
 * timestamps 4713-11-24 BC .. 294276-12-31 23:59:59.999999. */
#define DATE_MIN_DAYS  (-2440588)            /* 4714-11-24 BC (julian day 0) */
#define DATE_MAX_DAYS  (2147483493 - 2440588) /* 5874897-12-31 */
#define TS_MIN_USECS   (INT64_C(-210866803200000000))  /* 4714-11-24 00:00 BC */
/* PostgreSQL allows up to 294276-12-31; unix-epoch int64 micros end at
 * 294247-01-10 04:00:54.775806, which is floe's last finite timestamp. */
#define TS_MAX_USECS   (INT64_MAX - 1)

#define DATETIME_BUF 128   /* enough for any formatted value */

/* Civil calendar <-> days since 1970-01-01 (proleptic Gregorian;
 * astronomical years: 0 = 1 BC). */
int64_t datetime_days_from_civil(int64_t y, int m, int d);
void datetime_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
bool datetime_valid_civil(int64_t y, int m, int d);

/* Text input, PostgreSQL's rules and messages (22007 bad format, 22008 field
 * out of range).  `n` bytes of `s`, surrounding spaces allowed. */
int datetime_parse_date(const char *s, size_t n, int32_t *out, floe_error *err);
int datetime_parse_time(const char *s, size_t n, int64_t *out, floe_error *err);
int datetime_parse_timestamp(const char *s, size_t n, int64_t *out, floe_error *err);
/* A zone in the text ("+02", "Z", "UTC") wins over the session zone. */
int datetime_parse_timestamptz(const char *s, size_t n, int64_t *out, floe_error *err);
int datetime_parse_interval(const char *s, size_t n, Interval *out, floe_error *err);

/* 'now', 'today', 'tomorrow', 'yesterday' use the statement's start time:
 * set it per thread at statement (or transaction) start; 0 (the default)
 * reads the clock at each call. */
void datetime_set_statement_now(int64_t ts_utc);
int64_t datetime_statement_now(void);   /* the value set, 0: none */
int64_t datetime_now(void);   /* UTC micros */

/* DateStyle and IntervalStyle, per thread like the time zone (the engine
 * installs the session's at each statement start; parallel.c copies them
 * into worker threads).  style: output of date/timestamp(tz); order: the
 * field order of ambiguous input ("01/02/2024") and of SQL/Postgres output. */
enum { DATESTYLE_ISO, DATESTYLE_SQL, DATESTYLE_POSTGRES, DATESTYLE_GERMAN };
enum { DATEORDER_MDY, DATEORDER_DMY, DATEORDER_YMD };
enum { INTSTYLE_POSTGRES, INTSTYLE_POSTGRES_VERBOSE, INTSTYLE_SQL_STANDARD, INTSTYLE_ISO_8601 };
typedef struct DatetimeStyle {
	int8_t style, order, interval;
} DatetimeStyle;
DatetimeStyle datetime_current_style(void);       /* default ISO, MDY; postgres */
void datetime_use_style(DatetimeStyle st);

/* Text output under the thread's DateStyle / IntervalStyle; returns the
 * length; buf holds DATETIME_BUF bytes. */
int datetime_format_date(int32_t d, char *buf);
int datetime_format_time(int64_t t, char *buf);
int datetime_format_timestamp(int64_t ts, char *buf);
int datetime_format_timestamptz(int64_t ts, char *buf);   /* session zone */
int datetime_format_interval(Interval iv, char *buf);

/* Session time zone, as PostgreSQL reads a string TimeZone setting: "UTC",
 * a zone name ("Europe/Paris", case-insensitive), or a POSIX-style offset
 * where positive is WEST ("+05:30" and "UTC+3" are behind UTC).  Default
 * "UTC". 22023 'invalid value for parameter "TimeZone": "x"'. */
int datetime_set_timezone(const char *name, floe_error *err);
/* SET TIME ZONE <number|interval>: ISO sign, seconds east of UTC. */
int datetime_set_timezone_offset(int32_t east_seconds, floe_error *err);
const char *datetime_timezone_name(void);
/* The calling thread's zone, and installing one (NULL: UTC).  Zones are
 * immutable and live as long as the process: a Session keeps the pointer. */
typedef struct Zone DatetimeZone;
const DatetimeZone *datetime_current_zone(void);
void datetime_use_zone(const DatetimeZone *z);
const char *datetime_zone_name(const DatetimeZone *z);   /* NULL: "UTC" */
/* Offset east of UTC in seconds at the UTC instant ts (micros). */
int32_t datetime_tz_offset_utc(int64_t ts_utc);
/* Local wall-clock timestamp -> UTC instant (PostgreSQL's DST choice). */
int64_t datetime_local_to_utc(int64_t local);
int64_t datetime_timestamptz_to_local(int64_t ts_utc);

/* Conversions with range checks (22008 "date out of range for timestamp",
 * "timestamp out of range"). */
int datetime_date_to_timestamp(int32_t d, int64_t *out, floe_error *err);
int datetime_timestamp_to_date(int64_t ts, int32_t *out, floe_error *err);

/* timestamp(tz) + interval: months first (clamping the day to the month's
 * end), then days (in local time for tz), then micros. 22008 "timestamp out
 * of range". */
int datetime_add_interval(int64_t ts, Interval iv, bool tz, int64_t *out,
			  floe_error *err);
int datetime_date_add_days(int32_t d, int64_t days, int32_t *out, floe_error *err);
/* Interval arithmetic with 22008 "interval out of range". */
int datetime_interval_add(Interval a, Interval b, Interval *out, floe_error *err);
int datetime_interval_neg(Interval a, Interval *out, floe_error *err);
int datetime_interval_mul(Interval a, double f, Interval *out, floe_error *err);
/* Comparison as PostgreSQL: months*30 days, days*24h, combined (int128). */
int datetime_interval_cmp(Interval a, Interval b);
/* justify_hours/justify_days/justify_interval. */
Interval datetime_justify_hours(Interval a);
Interval datetime_justify_days(Interval a);
Interval datetime_justify_interval(Interval a);
/* timestamp - timestamp = interval {0, days, micros} as PostgreSQL
 * (timestamp_mi then justify_hours). */
int datetime_timestamp_diff(int64_t a, int64_t b, Interval *out, floe_error *err);

/* date_trunc(field, ts): field "microseconds".."millennium"; 22023 on an
 * unknown unit ('unit "x" not recognized for type timestamp without time
 * zone'). tz: truncate in the session zone (PostgreSQL's offset rules). */
int datetime_trunc(const char *field, int64_t ts, bool tz, int64_t *out,
		   floe_error *err);
/* date_trunc(field, interval); 22023 unknown unit, 0A000 "week" */
int datetime_trunc_interval(const char *field, Interval iv, Interval *out, floe_error *err);
/* UTC offset (seconds east) of zone `name` (names, abbreviations, POSIX
 * offsets) at t: a UTC instant, or (is_local) a wall-clock time with
 * PostgreSQL's DST gap/overlap rules; 22023 unknown zone */
int datetime_zone_offset(const char *name, int64_t t, bool is_local, int32_t *east,
			 floe_error *err);
/* extract(field from ts) as a double ("year", "month", "day", "hour",
 * "minute", "second" (with fraction), "dow", "isodow", "doy", "epoch",
 * "quarter", "week", "isoyear", "decade", "century", "millennium",
 * "milliseconds", "microseconds"). kind = TYPE_DATE, TYPE_TIME,
 * TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ (v is days for date), TYPE_INTERVAL uses
 * datetime_extract_interval.  Values are exact where PostgreSQL's numeric
 * extract() is.  For an infinite input, monotonic fields (epoch, year,
 * decade, century, millennium, isoyear, julian) give +-Infinity and the
 * others set *out = NAN: PostgreSQL returns NULL there, so callers map NAN
 * to NULL. */
int datetime_extract(const char *field, TypeId kind, int64_t v, double *out,
		     floe_error *err);
int datetime_extract_interval(const char *field, Interval iv, double *out,
			      floe_error *err);
/* Build a timestamp from fields (22008 on bad fields). */
int datetime_make_timestamp(int64_t y, int mo, int d, int h, int mi, double sec,
			    int64_t *out, floe_error *err);

/* Test hook (tests/unit/types): does a TZif image parse?  Bad images
 * must fail cleanly. */
bool datetime__tzif_ok(const unsigned char *b, size_t n);

#endif
