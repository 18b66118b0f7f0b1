/*
 * func_datetime.c — date/time operators and functions.
 *
 * Spec: PostgreSQL 15 documentation 9.9 "Date/Time Functions and
 * Operators" (utils/adt/date.c, timestamp.c), on top of types/datetime.h:
 *   date + int4, int4 + date, date - int4 -> date; date - date -> int4
 *   ("cannot subtract infinite dates"); date + time -> timestamp;
 *   date +/- interval, timestamp +/- interval -> timestamp; timestamptz
 *   +/- interval -> timestamptz (day arithmetic in the session zone);
 *   timestamp - timestamp, timestamptz - timestamptz -> interval
 *   (justify_hours, as timestamp_mi); time +/- interval -> time (wraps
 *   at midnight, months/days ignored); time - time -> interval;
 *   interval +/- interval, interval * float8, float8 * interval,
 *   interval / float8 -> interval;
 *   date_part(text, date|time|timestamp|timestamptz|interval) -> double;
 *   extract(...) — PostgreSQL 15 returns numeric whose scale depends on
 *   the field (second/epoch 6, milliseconds 3, others 0); floe resolves it
 *   to double precision, and func_refine_return turns it into numeric with
 *   that scale when the field is a constant (the kernel writes whichever
 *   type its output vector has);
 *   date_trunc(text, timestamp|timestamptz) keeps the type;
 *   to_char(timestamp|timestamptz, template) with the common template
 *   patterns (YYYY MM DD HH24 MI SS MS US, names, ordinals, FM, quoting);
 *   make_date, to_timestamp(double), justify_days/hours/interval;
 *   date_trunc(text, interval) (interval_trunc: week 0A000); timezone(zone,
 *   timestamp[tz]) = AT TIME ZONE (names, abbreviations, POSIX offsets);
 *   make_time, make_timestamp[tz] (6 args), make_interval (0..7 positional
 *   args); date_bin(interval, ts, origin); to_date/to_timestamp(text,
 *   template) for the common patterns (numbers read their width when another
 *   number follows, else all digits; a template separator matches any one
 *   input separator; 22007 on unreadable text, 22008 on out-of-range
 *   fields); to_char also FF1-FF6, OF/TZH/TZM, A.M./a.d. forms, and NULL for
 *   an empty template;
 *   now()/current_timestamp/transaction_timestamp/statement_timestamp/
 *   current_date/localtimestamp/localtime (the statement time the engine
 *   sets with func_set_statement_time) and clock_timestamp().
 *
 * INTERFACE ROUTINES
 *   func_datetime_table[] / func_datetime_count   (searched by func_registry.c)
 */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "func/func_internal.h"
#include "types/datetime.h"
#include "types/decimal.h"

/*
 * Binary kernel template: x (TA) and y (TB) in, r (TO) out; BODY may
 * `return FLOE_ERR` after filling ctx->err (datetime helpers do).
 */
#define DT_KERNEL(fname, TA, TB, TO, BODY)                                             \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView va, vb;                                                     \
		const TA *a;                                                           \
		const TB *b;                                                           \
		TO *o = out->data;                                                     \
		uint32_t i;                                                            \
		vector_view(&args[0], &va);                                            \
		vector_view(&args[1], &vb);                                            \
		a = va.data;                                                           \
		b = vb.data;                                                           \
		for (i = 0; i < count; i++) {                                          \
			uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);                   \
			TA x;                                                          \
			TB y;                                                          \
			TO r;                                                          \
			if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {                  \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			x = a[ka];                                                     \
			y = b[kb];                                                     \
			BODY;                                                          \
			o[i] = r;                                                      \
			out_valid(out, i);                                             \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

static int
date_ts(FuncCtx *ctx, int32_t d, int64_t *ts)
{
	return datetime_date_to_timestamp(d, ts, ctx->err);
}

static Interval
iv_negate(Interval v)
{
	Interval r = { -v.months, -v.days, -v.micros };
	return r;
}

DT_KERNEL(date_pl_int, int32_t, int32_t, int32_t,
	  TRY(datetime_date_add_days(x, y, &r, ctx->err)))
DT_KERNEL(int_pl_date, int32_t, int32_t, int32_t,
	  TRY(datetime_date_add_days(y, x, &r, ctx->err)))
DT_KERNEL(date_mi_int, int32_t, int32_t, int32_t,
	  TRY(datetime_date_add_days(x, -(int64_t)y, &r, ctx->err)))
DT_KERNEL(date_mi_date, int32_t, int32_t, int32_t,
	  if (x == DATE_NOBEGIN || x == DATE_NOEND || y == DATE_NOBEGIN || y == DATE_NOEND)
		  return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				     "cannot subtract infinite dates");
	  r = x - y)
DT_KERNEL(date_pl_time, int32_t, int64_t, int64_t,
	  TRY(date_ts(ctx, x, &r));
	  if (r != TS_NOBEGIN && r != TS_NOEND) r += y)
DT_KERNEL(time_pl_date, int64_t, int32_t, int64_t,
	  TRY(date_ts(ctx, y, &r));
	  if (r != TS_NOBEGIN && r != TS_NOEND) r += x)
DT_KERNEL(date_pl_iv, int32_t, Interval, int64_t,
	  int64_t t; TRY(date_ts(ctx, x, &t));
	  TRY(datetime_add_interval(t, y, false, &r, ctx->err)))
DT_KERNEL(iv_pl_date, Interval, int32_t, int64_t,
	  int64_t t; TRY(date_ts(ctx, y, &t));
	  TRY(datetime_add_interval(t, x, false, &r, ctx->err)))
DT_KERNEL(date_mi_iv, int32_t, Interval, int64_t,
	  int64_t t; TRY(date_ts(ctx, x, &t));
	  TRY(datetime_add_interval(t, iv_negate(y), false, &r, ctx->err)))
DT_KERNEL(ts_pl_iv, int64_t, Interval, int64_t,
	  TRY(datetime_add_interval(x, y, false, &r, ctx->err)))
DT_KERNEL(iv_pl_ts, Interval, int64_t, int64_t,
	  TRY(datetime_add_interval(y, x, false, &r, ctx->err)))
DT_KERNEL(ts_mi_iv, int64_t, Interval, int64_t,
	  TRY(datetime_add_interval(x, iv_negate(y), false, &r, ctx->err)))
DT_KERNEL(tz_pl_iv, int64_t, Interval, int64_t,
	  TRY(datetime_add_interval(x, y, true, &r, ctx->err)))
DT_KERNEL(iv_pl_tz, Interval, int64_t, int64_t,
	  TRY(datetime_add_interval(y, x, true, &r, ctx->err)))
DT_KERNEL(tz_mi_iv, int64_t, Interval, int64_t,
	  TRY(datetime_add_interval(x, iv_negate(y), true, &r, ctx->err)))
DT_KERNEL(ts_mi_ts, int64_t, int64_t, Interval,
	  TRY(datetime_timestamp_diff(x, y, &r, ctx->err)))
DT_KERNEL(time_pl_iv, int64_t, Interval, int64_t,
	  r = (int64_t)((x + y.micros % USECS_PER_DAY + USECS_PER_DAY) % USECS_PER_DAY))
DT_KERNEL(iv_pl_time, Interval, int64_t, int64_t,
	  r = (int64_t)((y + x.micros % USECS_PER_DAY + USECS_PER_DAY) % USECS_PER_DAY))
DT_KERNEL(time_mi_iv, int64_t, Interval, int64_t,
	  r = (int64_t)((x - y.micros % USECS_PER_DAY + USECS_PER_DAY) % USECS_PER_DAY))
DT_KERNEL(time_mi_time, int64_t, int64_t, Interval,
	  r.months = 0; r.days = 0; r.micros = x - y)
DT_KERNEL(iv_pl_iv, Interval, Interval, Interval,
	  TRY(datetime_interval_add(x, y, &r, ctx->err)))
DT_KERNEL(iv_mi_iv, Interval, Interval, Interval,
	  Interval ny; TRY(datetime_interval_neg(y, &ny, ctx->err));
	  TRY(datetime_interval_add(x, ny, &r, ctx->err)))
DT_KERNEL(iv_mul_f8, Interval, double, Interval,
	  TRY(datetime_interval_mul(x, y, &r, ctx->err)))
DT_KERNEL(f8_mul_iv, double, Interval, Interval,
	  TRY(datetime_interval_mul(y, x, &r, ctx->err)))
DT_KERNEL(iv_div_f8, Interval, double, Interval,
	  if (y == 0) return floe_errorf(ctx->err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
	  TRY(datetime_interval_mul(x, 1.0 / y, &r, ctx->err)))

/* field name of row i as a NUL-terminated lower-case string */
static const char *
field_at(FuncCtx *ctx, const strview *s, char *buf, size_t n)
{
	uint32_t len = s->len < n - 1 ? s->len : (uint32_t)(n - 1);
	func_utf8_lower(strview_data(s), len, buf);
	buf[len] = 0;
	return buf;
}

static int
date_part(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *a;
	double *o = out->data;
	TypeId kind = args[1].type.id;
	bool dec = out->type.id == TYPE_DECIMAL;   /* extract refined to numeric */
	uint32_t i;
	char buf[64];
	double d;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		const char *f;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		f = field_at(ctx, &a[ka], buf, sizeof buf);
		if (kind == TYPE_INTERVAL) {
			TRY(datetime_extract_interval(f, ((const Interval *)vb.data)[kb], &d,
						      ctx->err));
		} else {
			int64_t v = kind == TYPE_DATE ? ((const int32_t *)vb.data)[kb]
						      : ((const int64_t *)vb.data)[kb];
			TRY(datetime_extract(f, kind, v, &d, ctx->err));
		}
		if (dec)
			TRY(decimal_from_double(d, out->type.scale, &((int128 *)out->data)[i],
						ctx->err));
		else
			o[i] = d;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
date_trunc(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *a;
	const int64_t *b;
	int64_t *o = out->data;
	bool tz = args[1].type.id == TYPE_TIMESTAMPTZ;
	uint32_t i;
	char buf[64];

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		TRY(datetime_trunc(field_at(ctx, &a[ka], buf, sizeof buf), b[kb], tz, &o[i],
				   ctx->err));
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* make_date(y, m, d): negative years are BC (year 0 does not exist) */
static int
make_date(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v[3];
	int32_t *o = out->data;
	uint32_t i;
	int j;

	for (j = 0; j < 3; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		int32_t f[3];
		int64_t y, days;
		bool isnull = false;
		for (j = 0; j < 3; j++) {
			uint32_t k = ARGK(v[j], i);
			if (!ARGVALID(v[j], k))
				isnull = true;
			else
				f[j] = ((const int32_t *)v[j].data)[k];
		}
		if (isnull) {
			out_null(out, i);
			continue;
		}
		y = f[0] < 0 ? (int64_t)f[0] + 1 : f[0];
		if (f[0] == 0 || !datetime_valid_civil(y, f[1], f[2]))
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "date field value out of range: %d-%02d-%02d", f[0], f[1], f[2]);
		days = datetime_days_from_civil(y, f[1], f[2]);
		if (days < DATE_MIN_DAYS || days > DATE_MAX_DAYS)
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "date out of range: %d-%02d-%02d", f[0], f[1], f[2]);
		o[i] = (int32_t)days;
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* to_timestamp(double precision): seconds since the epoch, as timestamptz */
static int
to_timestamp(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va;
	const double *a;
	int64_t *o = out->data;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(va, i);
		double x, us;
		if (!ARGVALID(va, k)) {
			out_null(out, i);
			continue;
		}
		x = a[k];
		if (isnan(x))
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "timestamp cannot be NaN");
		if (isinf(x)) {
			o[i] = x > 0 ? TS_NOEND : TS_NOBEGIN;
		} else {
			us = rint(x * 1000000.0);
			if (!(us >= (double)TS_MIN_USECS && us < 9.2233720368547e18))
				return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
						   "timestamp out of range: \"%g\"", x);
			o[i] = (int64_t)us;
		}
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* justify_interval (timestamp.c): whole days to months and back, signs made
 * consistent */
static Interval
justify_interval(Interval v)
{
	int64_t wholeday = v.micros / USECS_PER_DAY, days, months;

	v.micros -= wholeday * USECS_PER_DAY;
	days = (int64_t)v.days + wholeday;
	months = (int64_t)v.months + days / DAYS_PER_MONTH;
	days -= (days / DAYS_PER_MONTH) * DAYS_PER_MONTH;
	if (months > 0 && (days < 0 || (days == 0 && v.micros < 0))) {
		days += DAYS_PER_MONTH;
		months--;
	} else if (months < 0 && (days > 0 || (days == 0 && v.micros > 0))) {
		days -= DAYS_PER_MONTH;
		months++;
	}
	if (days > 0 && v.micros < 0) {
		v.micros += USECS_PER_DAY;
		days--;
	} else if (days < 0 && v.micros > 0) {
		v.micros -= USECS_PER_DAY;
		days++;
	}
	v.days = (int32_t)days;
	v.months = (int32_t)months;
	return v;
}

#define JUSTIFY_KERNEL(fname, EXPR)                                                    \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView va;                                                         \
		const Interval *a;                                                     \
		Interval *o = out->data;                                               \
		uint32_t i;                                                            \
		vector_view(&args[0], &va);                                            \
		a = va.data;                                                           \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(va, i);                                      \
			if (!ARGVALID(va, k)) {                                        \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			o[i] = EXPR(a[k]);                                             \
			out_valid(out, i);                                             \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

JUSTIFY_KERNEL(justify_days_k, datetime_justify_days)
JUSTIFY_KERNEL(justify_hours_k, datetime_justify_hours)
JUSTIFY_KERNEL(justify_interval_k, justify_interval)

/* ---- date_trunc(interval), AT TIME ZONE, make_*, date_bin ------------------------ */

static int
date_trunc_iv(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *a;
	const Interval *b;
	Interval *o = out->data;
	uint32_t i;
	char buf[64];

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		TRY(datetime_trunc_interval(field_at(ctx, &a[ka], buf, sizeof buf), b[kb], &o[i],
					    ctx->err));
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* timezone(zone, timestamp) -> timestamptz (the wall clock read in zone);
 * timezone(zone, timestamptz) -> timestamp (the wall clock in zone) */
static int
timezone_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *a;
	const int64_t *b;
	int64_t *o = out->data;
	bool from_tz = args[1].type.id == TYPE_TIMESTAMPTZ;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		char zone[128];
		uint32_t zl;
		int32_t east;
		int64_t t;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		zl = a[ka].len < sizeof zone - 1 ? a[ka].len : (uint32_t)sizeof zone - 1;
		memcpy(zone, strview_data(&a[ka]), zl);
		zone[zl] = 0;
		t = b[kb];
		TRY(datetime_zone_offset(zone, t, !from_tz, &east, ctx->err));
		if (t != TS_NOBEGIN && t != TS_NOEND) {
			t = from_tz ? t + (int64_t)east * USECS_PER_SEC
				    : t - (int64_t)east * USECS_PER_SEC;
			if (t < TS_MIN_USECS || t > TS_MAX_USECS)
				return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
						   "timestamp out of range");
		}
		o[i] = t;
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* argument j of row i as a double; false when NULL */
static bool
f8_at(const VectorView *v, uint32_t i, double *x)
{
	uint32_t k = ARGK(*v, i);
	if (!ARGVALID(*v, k))
		return false;
	*x = ((const double *)v->data)[k];
	return true;
}

static int
no_such(FuncCtx *ctx, const char *name, int nargs)
{
	return floe_errorf(ctx->err, ERRCODE_UNDEFINED_FUNCTION,
			   "function %s with %d arguments does not exist", name, nargs);
}

/* an integer argument passed through the double-precision variadic */
static int
int_arg(FuncCtx *ctx, double x, int *out)
{
	if (!(x >= -2147483648.0 && x <= 2147483647.0))
		return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "integer out of range");
	*out = (int)x;
	return FLOE_OK;
}

/* make_timestamp / make_timestamptz (year, month, mday, hour, min, sec) */
static int
make_ts_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v[6];
	int64_t *o = out->data;
	bool tz = out->type.id == TYPE_TIMESTAMPTZ;
	uint32_t i;
	int j;

	if (nargs != 6)
		return no_such(ctx, tz ? "make_timestamptz" : "make_timestamp", nargs);
	for (j = 0; j < 6; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		double x[6];
		int f[5];
		bool isnull = false;
		for (j = 0; j < 6; j++)
			if (!f8_at(&v[j], i, &x[j]))
				isnull = true;
		if (isnull) {
			out_null(out, i);
			continue;
		}
		for (j = 0; j < 5; j++)
			TRY(int_arg(ctx, x[j], &f[j]));
		TRY(datetime_make_timestamp(f[0], f[1], f[2], f[3], f[4], x[5], &o[i], ctx->err));
		if (tz)
			o[i] = datetime_local_to_utc(o[i]);
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* make_time(hour, min, sec) */
static int
make_time_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v[3];
	int64_t *o = out->data;
	uint32_t i;
	int j;

	for (j = 0; j < 3; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		uint32_t k0 = ARGK(v[0], i), k1 = ARGK(v[1], i);
		int32_t h, mi;
		double sec;
		if (!ARGVALID(v[0], k0) || !ARGVALID(v[1], k1) || !f8_at(&v[2], i, &sec)) {
			out_null(out, i);
			continue;
		}
		h = ((const int32_t *)v[0].data)[k0];
		mi = ((const int32_t *)v[1].data)[k1];
		if (h < 0 || mi < 0 || mi > 59 || !(sec >= 0) || sec > 60 || h > 24 ||
		    (h == 24 && (mi > 0 || sec > 0)) ||
		    (int64_t)h * USECS_PER_HOUR + (int64_t)mi * USECS_PER_MIN + rint(sec * 1e6) >
			    USECS_PER_DAY)
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "time field value out of range: %d:%02d:%02g", h, mi, sec);
		o[i] = (int64_t)h * USECS_PER_HOUR + (int64_t)mi * USECS_PER_MIN +
		       (int64_t)rint(sec * 1e6);
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* make_interval(years, months, weeks, days, hours, mins, secs), trailing
 * arguments default to 0 */
static int
make_interval_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v[7];
	Interval *o = out->data;
	uint32_t i;
	int j;

	if (nargs > 7)
		return no_such(ctx, "make_interval", nargs);
	for (j = 0; j < nargs; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		double x[7] = { 0, 0, 0, 0, 0, 0, 0 };
		int f[6];
		bool isnull = false;
		double us;
		int64_t months, days;
		for (j = 0; j < nargs; j++)
			if (!f8_at(&v[j], i, &x[j]))
				isnull = true;
		if (isnull) {
			out_null(out, i);
			continue;
		}
		for (j = 0; j < 6; j++)
			TRY(int_arg(ctx, x[j], &f[j]));
		months = (int64_t)f[0] * 12 + f[1];
		days = (int64_t)f[2] * 7 + f[3];
		us = rint(((double)f[4] * 3600.0 + (double)f[5] * 60.0 + x[6]) * 1e6);
		if (months > INT32_MAX || months < INT32_MIN || days > INT32_MAX ||
		    days < INT32_MIN || !(us > -9.2e18 && us < 9.2e18))
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "interval out of range");
		o[i].months = (int32_t)months;
		o[i].days = (int32_t)days;
		o[i].micros = (int64_t)us;
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* date_bin(stride, source, origin) for timestamp and timestamptz */
static int
date_bin_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v[3];
	int64_t *o = out->data;
	uint32_t i;
	int j;

	for (j = 0; j < 3; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		uint32_t k0 = ARGK(v[0], i), k1 = ARGK(v[1], i), k2 = ARGK(v[2], i);
		Interval st;
		int64_t src, org, stride, diff, delta;
		if (!ARGVALID(v[0], k0) || !ARGVALID(v[1], k1) || !ARGVALID(v[2], k2)) {
			out_null(out, i);
			continue;
		}
		st = ((const Interval *)v[0].data)[k0];
		src = ((const int64_t *)v[1].data)[k1];
		org = ((const int64_t *)v[2].data)[k2];
		if (src == TS_NOBEGIN || src == TS_NOEND) {
			o[i] = src;
			out_valid(out, i);
			continue;
		}
		if (org == TS_NOBEGIN || org == TS_NOEND)
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "origin out of range");
		if (st.months != 0)
			return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "timestamps cannot be binned into intervals containing months or years");
		if (__builtin_mul_overflow((int64_t)st.days, USECS_PER_DAY, &stride) ||
		    __builtin_add_overflow(stride, st.micros, &stride))
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "interval out of range");
		if (stride <= 0)
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "stride must be greater than zero");
		if (__builtin_sub_overflow(src, org, &diff))
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "interval out of range");
		delta = diff - diff % stride;
		if (diff < 0 && diff % stride != 0)   /* round towards -infinity */
			delta -= stride;
		if (__builtin_add_overflow(org, delta, &o[i]) || o[i] < TS_MIN_USECS ||
		    o[i] > TS_MAX_USECS)
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "timestamp out of range");
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* ---- to_char(timestamp[tz], text) ------------------------------------------- */

static const char *const month_names[] = { "January", "February", "March", "April", "May",
					   "June", "July", "August", "September", "October",
					   "November", "December" };
static const char *const day_names[] = { "Sunday", "Monday", "Tuesday", "Wednesday",
					 "Thursday", "Friday", "Saturday" };

typedef struct Tm {
	int64_t year;       /* astronomical */
	int mon, mday, hour, min, sec, usec, wday, yday;
	int64_t days;       /* since 1970-01-01 */
} Tm;

static void
tm_of(int64_t ts, Tm *tm)
{
	int64_t days = ts / USECS_PER_DAY, rem = ts % USECS_PER_DAY;

	if (rem < 0) {
		rem += USECS_PER_DAY;
		days--;
	}
	tm->days = days;
	datetime_civil_from_days(days, &tm->year, &tm->mon, &tm->mday);
	tm->hour = (int)(rem / USECS_PER_HOUR);
	tm->min = (int)(rem / USECS_PER_MIN % 60);
	tm->sec = (int)(rem / USECS_PER_SEC % 60);
	tm->usec = (int)(rem % USECS_PER_SEC);
	tm->wday = (int)(((days % 7) + 11) % 7);   /* 1970-01-01 was a Thursday (4) */
	tm->yday = (int)(days - datetime_days_from_civil(tm->year, 1, 1)) + 1;
}

/* case of a name as the pattern spells it: "MONTH", "Month", "month" */
static void
put_name(char *buf, size_t *n, const char *name, int ccase, int width, bool fm)
{
	size_t len = strlen(name), i;

	for (i = 0; i < len; i++) {
		char c = name[i];
		if (ccase == 2 || (ccase == 1 && i == 0))
			c = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
		else if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		buf[(*n)++] = c;
	}
	if (!fm)
		for (; (int)len < width; len++)
			buf[(*n)++] = ' ';
}

static void
put_num(char *buf, size_t *n, int64_t v, int width, bool fm, const char *th)
{
	char tmp[32];
	int len = fm ? snprintf(tmp, sizeof tmp, "%lld", (long long)v)
		     : snprintf(tmp, sizeof tmp, "%0*lld", width, (long long)v);

	memcpy(buf + *n, tmp, (size_t)len);
	*n += (size_t)len;
	if (th) {
		int64_t a = v < 0 ? -v : v;
		const char *suf = (a % 100 >= 11 && a % 100 <= 13) ? "th" :
				  a % 10 == 1 ? "st" : a % 10 == 2 ? "nd" : a % 10 == 3 ? "rd" : "th";
		buf[(*n)++] = th[0] == 'T' ? (char)(suf[0] - 32) : suf[0];
		buf[(*n)++] = th[0] == 'T' ? (char)(suf[1] - 32) : suf[1];
	}
}

/* ISO 8601 week number and week-numbering year */
static void
iso_week(const Tm *tm, int64_t *iyear, int *week)
{
	int64_t y = tm->year;
	int64_t jan4 = datetime_days_from_civil(y, 1, 4);
	int64_t wd4 = ((jan4 % 7) + 10) % 7;            /* Monday = 0 */
	int64_t start = jan4 - wd4;                     /* Monday of week 1 */

	if (tm->days < start) {
		y--;
		jan4 = datetime_days_from_civil(y, 1, 4);
		wd4 = ((jan4 % 7) + 10) % 7;
		start = jan4 - wd4;
	} else {
		int64_t njan4 = datetime_days_from_civil(y + 1, 1, 4);
		int64_t nstart = njan4 - (((njan4 % 7) + 10) % 7);
		if (tm->days >= nstart) {
			y++;
			start = nstart;
		}
	}
	*iyear = y;
	*week = (int)((tm->days - start) / 7) + 1;
}

static bool
pat(const char *f, size_t flen, size_t i, const char *p)
{
	size_t n = strlen(p);
	return i + n <= flen && memcmp(f + i, p, n) == 0;
}

/* a numeric keyword: all upper case ("DD") or all lower case ("dd") */
static bool
kw(const char *f, size_t flen, size_t i, const char *p)
{
	size_t n = strlen(p), k;

	if (i + n > flen)
		return false;
	if (memcmp(f + i, p, n) == 0)
		return true;
	for (k = 0; k < n; k++) {
		char c = p[k] >= 'A' && p[k] <= 'Z' ? (char)(p[k] + 32) : p[k];
		if (f[i + k] != c)
			return false;
	}
	return true;
}

/* Format tm by PostgreSQL's to_char template rules (the common patterns). */
static size_t
format_tm(const Tm *tm, const char *f, size_t flen, char *buf, bool tz, int32_t east)
{
	size_t i = 0, n = 0;
	int64_t year_ce = tm->year > 0 ? tm->year : 1 - tm->year;   /* no year 0 */

	while (i < flen) {
		bool fm = false;
		const char *th = NULL;
		size_t before = n;
		int64_t v = 0;
		int width = 0, kind = 0;   /* 1 number, 2 done */
		if (pat(f, flen, i, "FM")) {
			fm = true;
			i += 2;
			if (i >= flen)
				break;
		}
		(void)before;
		if (f[i] == '"') {
			for (i++; i < flen && f[i] != '"'; i++) {
				if (f[i] == '\\' && i + 1 < flen)
					i++;
				buf[n++] = f[i];
			}
			i++;
			continue;
		}
#define NUM(p, val, w) else if (kw(f, flen, i, p)) { v = (val); width = (w); i += strlen(p); kind = 1; }
		if (pat(f, flen, i, "AM") || pat(f, flen, i, "PM")) {
			memcpy(buf + n, tm->hour < 12 ? "AM" : "PM", 2);
			n += 2, i += 2, kind = 2;
		} else if (pat(f, flen, i, "am") || pat(f, flen, i, "pm")) {
			memcpy(buf + n, tm->hour < 12 ? "am" : "pm", 2);
			n += 2, i += 2, kind = 2;
		} else if (pat(f, flen, i, "A.M.") || pat(f, flen, i, "P.M.")) {
			memcpy(buf + n, tm->hour < 12 ? "A.M." : "P.M.", 4);
			n += 4, i += 4, kind = 2;
		} else if (pat(f, flen, i, "a.m.") || pat(f, flen, i, "p.m.")) {
			memcpy(buf + n, tm->hour < 12 ? "a.m." : "p.m.", 4);
			n += 4, i += 4, kind = 2;
		} else if (pat(f, flen, i, "A.D.") || pat(f, flen, i, "B.C.")) {
			memcpy(buf + n, tm->year > 0 ? "A.D." : "B.C.", 4);
			n += 4, i += 4, kind = 2;
		} else if (pat(f, flen, i, "a.d.") || pat(f, flen, i, "b.c.")) {
			memcpy(buf + n, tm->year > 0 ? "a.d." : "b.c.", 4);
			n += 4, i += 4, kind = 2;
		} else if (kw(f, flen, i, "FF") && i + 2 < flen && f[i + 2] >= '1' && f[i + 2] <= '6') {
			int digits = f[i + 2] - '0', k;
			int64_t u = tm->usec;
			for (k = digits; k < 6; k++)
				u /= 10;
			v = u, width = digits, kind = 1;
			i += 3;
		} else if (tz && pat(f, flen, i, "OF")) {
			int32_t a = east < 0 ? -east : east;
			n += (size_t)sprintf(buf + n, "%c%02d", east < 0 ? '-' : '+', a / 3600);
			if (a / 60 % 60)
				n += (size_t)sprintf(buf + n, ":%02d", a / 60 % 60);
			i += 2, kind = 2;
		} else if (tz && pat(f, flen, i, "TZH")) {
			int32_t a = east < 0 ? -east : east;
			n += (size_t)sprintf(buf + n, "%c%02d", east < 0 ? '-' : '+', a / 3600);
			i += 3, kind = 2;
		} else if (tz && pat(f, flen, i, "TZM")) {
			int32_t a = east < 0 ? -east : east;
			n += (size_t)sprintf(buf + n, "%02d", a / 60 % 60);
			i += 3, kind = 2;
		} else if (pat(f, flen, i, "BC") || pat(f, flen, i, "AD")) {
			memcpy(buf + n, tm->year > 0 ? "AD" : "BC", 2);
			n += 2, i += 2, kind = 2;
		} else if (pat(f, flen, i, "bc") || pat(f, flen, i, "ad")) {
			memcpy(buf + n, tm->year > 0 ? "ad" : "bc", 2);
			n += 2, i += 2, kind = 2;
		} else if (pat(f, flen, i, "MONTH") || pat(f, flen, i, "Month") ||
			   pat(f, flen, i, "month")) {
			put_name(buf, &n, month_names[tm->mon - 1], f[i + 1] == 'O' ? 2 :
				 f[i] == 'M' ? 1 : 0, 9, fm);
			i += 5, kind = 2;
		} else if (pat(f, flen, i, "MON") || pat(f, flen, i, "Mon") || pat(f, flen, i, "mon")) {
			char ab[4];
			memcpy(ab, month_names[tm->mon - 1], 3);
			ab[3] = 0;
			put_name(buf, &n, ab, f[i + 1] == 'O' ? 2 : f[i] == 'M' ? 1 : 0, 3, true);
			i += 3, kind = 2;
		} else if (pat(f, flen, i, "DAY") || pat(f, flen, i, "Day") || pat(f, flen, i, "day")) {
			put_name(buf, &n, day_names[tm->wday], f[i + 1] == 'A' ? 2 :
				 f[i] == 'D' ? 1 : 0, 9, fm);
			i += 3, kind = 2;
		} else if (pat(f, flen, i, "DY") || pat(f, flen, i, "Dy") || pat(f, flen, i, "dy")) {
			char ab[4];
			memcpy(ab, day_names[tm->wday], 3);
			ab[3] = 0;
			put_name(buf, &n, ab, f[i + 1] == 'Y' ? 2 : f[i] == 'D' ? 1 : 0, 3, true);
			i += 2, kind = 2;
		} else if (tz && (pat(f, flen, i, "TZ") || pat(f, flen, i, "tz"))) {
			const char *z = datetime_timezone_name();
			size_t zl = strlen(z), k;
			for (k = 0; k < zl && k < 32; k++)
				buf[n++] = f[i] == 't' && z[k] >= 'A' && z[k] <= 'Z' ? (char)(z[k] + 32) : z[k];
			i += 2, kind = 2;
		} else if (kw(f, flen, i, "IYYY") || kw(f, flen, i, "IW")) {
			int64_t iy;
			int wk;
			iso_week(tm, &iy, &wk);
			if (f[i + 1] == 'Y' || f[i + 1] == 'y') {
				v = iy;
				width = 4;
				i += 4;
			} else {
				v = wk;
				width = 2;
				i += 2;
			}
			kind = 1;
		}
		NUM("ID", tm->wday == 0 ? 7 : tm->wday, 1)
		NUM("HH24", tm->hour, 2)
		NUM("HH12", tm->hour % 12 == 0 ? 12 : tm->hour % 12, 2)
		NUM("HH", tm->hour % 12 == 0 ? 12 : tm->hour % 12, 2)
		NUM("MI", tm->min, 2)
		NUM("SSSS", tm->hour * 3600 + tm->min * 60 + tm->sec, 1)
		NUM("SS", tm->sec, 2)
		NUM("MS", tm->usec / 1000, 3)
		NUM("US", tm->usec, 6)
		NUM("YYYY", year_ce, 4)
		NUM("YYY", year_ce % 1000, 3)
		NUM("YY", year_ce % 100, 2)
		NUM("Y", year_ce % 10, 1)
		NUM("MM", tm->mon, 2)
		NUM("DDD", tm->yday, 3)
		NUM("DD", tm->mday, 2)
		NUM("D", tm->wday + 1, 1)
		NUM("Q", (tm->mon - 1) / 3 + 1, 1)
		NUM("WW", (tm->yday - 1) / 7 + 1, 2)
		NUM("W", (tm->mday - 1) / 7 + 1, 1)
		NUM("CC", tm->year > 0 ? (tm->year + 99) / 100 : -((1 - tm->year + 99) / 100), 2)
		NUM("J", tm->days + 2440588, 1)
#undef NUM
		if (kind == 1) {
			if (pat(f, flen, i, "TH") || pat(f, flen, i, "th")) {
				th = f + i;
				i += 2;
			}
			put_num(buf, &n, v, width, fm, th);
			continue;
		}
		if (kind == 2)
			continue;
		/* a backslash quotes only a double quote; anything else is literal */
		if (f[i] == '\\' && i + 1 < flen && f[i + 1] == '"')
			i++;
		buf[n++] = f[i++];
	}
	return n;
}

static int
to_char_ts(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const int64_t *a;
	const strview *b;
	bool tz = args[0].type.id == TYPE_TIMESTAMPTZ;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		int64_t ts;
		int32_t east;
		Tm tm;
		char *buf;
		size_t n;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		ts = a[ka];
		if (ts == TS_NOBEGIN || ts == TS_NOEND) {
			out_null(out, i);       /* to_char of infinity is NULL */
			continue;
		}
		if (b[kb].len == 0) {
			out_null(out, i);       /* an empty template gives NULL */
			continue;
		}
		east = tz ? datetime_tz_offset_utc(ts) : 0;
		if (tz)
			ts = datetime_timestamptz_to_local(ts);
		tm_of(ts, &tm);
		/* each template byte expands to at most 40 bytes (names, numbers) */
		buf = arena_alloc(out->arena, (size_t)b[kb].len * 40 + 1);
		n = format_tm(&tm, strview_data(&b[kb]), b[kb].len, buf, tz, east);
		out_string_owned(out, i, buf, (uint32_t)n);
	}
	return FLOE_OK;
}

/* ---- to_date(text, text) / to_timestamp(text, text) ------------------------------- */

/* Parsed fields; -1 = absent */
typedef struct TmIn {
	int64_t year;
	int yy_digits, mon, mday, yday, hour, min, sec, usec, pm, h12, tzs, tzh, tzm, bc;
	int64_t julian, ssss;
} TmIn;

static int
bad_value(FuncCtx *ctx, const char *s, size_t n, const char *field)
{
	return floe_errorf(ctx->err, ERRCODE_INVALID_DATETIME_FORMAT,
			   "invalid value \"%.*s\" for \"%s\"", (int)(n > 20 ? 20 : n), s, field);
}

/* read a number of at most maxd digits (an optional sign when sgn) */
static int
read_num(FuncCtx *ctx, const char *s, size_t n, size_t *pos, int maxd, bool sgn,
	 const char *field, int64_t *out, int *ndig)
{
	size_t p = *pos;
	int64_t v = 0, sign = 1;
	int d = 0;

	while (p < n && s[p] == ' ')
		p++;
	if (sgn && p < n && (s[p] == '-' || s[p] == '+'))
		sign = s[p++] == '-' ? -1 : 1;
	while (p < n && d < maxd && s[p] >= '0' && s[p] <= '9') {
		v = v * 10 + (s[p++] - '0');
		d++;
	}
	if (d == 0)
		return bad_value(ctx, s + *pos, n - *pos, field);
	*pos = p;
	*out = v * sign;
	if (ndig)
		*ndig = d;
	return FLOE_OK;
}

/* match one of names (case-insensitive, full name or its 3-letter prefix) */
static int
read_name(FuncCtx *ctx, const char *s, size_t n, size_t *pos, const char *const *names,
	  int count, bool abbrev, const char *field, int *out)
{
	size_t p = *pos;
	int k;

	while (p < n && s[p] == ' ')
		p++;
	for (k = 0; k < count; k++) {
		size_t len = abbrev ? 3 : strlen(names[k]);
		if (p + len <= n && strncasecmp(s + p, names[k], len) == 0) {
			*pos = p + len;
			*out = k;
			return FLOE_OK;
		}
	}
	return floe_errorf(ctx->err, ERRCODE_INVALID_DATETIME_FORMAT,
			   "invalid value \"%.*s\" for \"%s\"", (int)(n - p > 9 ? 9 : n - p), s + p,
			   field);
}

static bool
is_sep(char c)
{
	return !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* does a number pattern follow directly at template position i (then a
 * field reads exactly its width, as "YYYYMMDD") */
static bool
num_follows(const char *f, size_t flen, size_t i)
{
	if (i + 1 < flen && f[i] == 'F' && f[i + 1] == 'M')
		i += 2;
	return i < flen && strchr("YMDHSIJUFC", f[i] >= 'a' && f[i] <= 'z' ? f[i] - 32 : f[i]) &&
	       !(i + 2 < flen && strncasecmp(f + i, "MON", 3) == 0) &&
	       !(i + 1 < flen && strncasecmp(f + i, "DY", 2) == 0) &&
	       !(i + 2 < flen && strncasecmp(f + i, "DAY", 3) == 0);
}

static int
parse_tm(FuncCtx *ctx, const char *s, size_t n, const char *f, size_t flen, TmIn *t)
{
	size_t i = 0, p = 0;
	static const struct { const char *pat; int width; int id; } nums[] = {
		{ "YYYY", 4, 1 }, { "YYY", 3, 2 }, { "YY", 2, 3 }, { "Y", 1, 4 },
		{ "HH24", 2, 5 }, { "HH12", 2, 6 }, { "HH", 2, 6 }, { "MI", 2, 7 },
		{ "SSSS", 5, 8 }, { "SS", 2, 9 }, { "MS", 3, 10 }, { "US", 6, 11 },
		{ "MM", 2, 12 }, { "DDD", 3, 13 }, { "DD", 2, 14 }, { "D", 1, 15 },
		{ "J", 7, 16 }, { "CC", 2, 17 }, { "Q", 1, 15 }, { "WW", 2, 15 }, { "W", 1, 15 },
		{ "IYYY", 4, 15 }, { "IW", 2, 15 }, { "ID", 1, 15 }, { "TZH", 2, 18 }, { "TZM", 2, 19 },
	};

	while (i < flen) {
		size_t k;
		bool done = false;
		if (i + 1 < flen && f[i] == 'F' && (f[i + 1] == 'M' || f[i + 1] == 'X')) {
			i += 2;
			continue;
		}
		if (f[i] == '"') {   /* quoted literal: skip as many input characters */
			for (i++; i < flen && f[i] != '"'; i++)
				if (p < n)
					p++;
			i++;
			continue;
		}
		if (i + 2 < flen && (f[i] == 'F' || f[i] == 'f') && (f[i + 1] == 'F' || f[i + 1] == 'f') &&
		    f[i + 2] >= '1' && f[i + 2] <= '6') {
			int64_t v;
			int d, w = f[i + 2] - '0';
			TRY(read_num(ctx, s, n, &p, w, false, "FF", &v, &d));
			for (; d < 6; d++)
				v *= 10;
			t->usec = (int)v;
			i += 3;
			continue;
		}
		if (pat(f, flen, i, "AM") || pat(f, flen, i, "PM") || pat(f, flen, i, "am") ||
		    pat(f, flen, i, "pm") || pat(f, flen, i, "A.M.") || pat(f, flen, i, "P.M.") ||
		    pat(f, flen, i, "a.m.") || pat(f, flen, i, "p.m.")) {
			size_t len = f[i + 1] == '.' ? 4 : 2;
			while (p < n && s[p] == ' ')
				p++;
			if (p + len <= n && (s[p] == 'A' || s[p] == 'a' || s[p] == 'P' || s[p] == 'p') &&
			    (len == 2 ? (s[p + 1] == 'M' || s[p + 1] == 'm')
				      : (s[p + 1] == '.' && (s[p + 2] == 'M' || s[p + 2] == 'm') &&
					 s[p + 3] == '.'))) {
				t->pm = s[p] == 'P' || s[p] == 'p';
				p += len;
			} else
				return floe_errorf(ctx->err, ERRCODE_INVALID_DATETIME_FORMAT,
						   "invalid value \"%.*s\" for \"%.*s\"",
						   (int)(n - p > 2 ? 2 : n - p), s + p, (int)len, f + i);
			i += len;
			continue;
		}
		if (pat(f, flen, i, "BC") || pat(f, flen, i, "AD") || pat(f, flen, i, "bc") ||
		    pat(f, flen, i, "ad") || pat(f, flen, i, "B.C.") || pat(f, flen, i, "A.D.") ||
		    pat(f, flen, i, "b.c.") || pat(f, flen, i, "a.d.")) {
			size_t len = f[i + 1] == '.' ? 4 : 2;
			while (p < n && s[p] == ' ')
				p++;
			if (p < n && (s[p] == 'B' || s[p] == 'b'))
				t->bc = 1;
			p = p + len <= n ? p + len : n;
			i += len;
			continue;
		}
		if (i + 2 < flen && (strncasecmp(f + i, "MONTH", 5) == 0 && i + 4 < flen)) {
			int m;
			TRY(read_name(ctx, s, n, &p, month_names, 12, false, "MONTH", &m));
			t->mon = m + 1;
			i += 5;
			continue;
		}
		if (i + 2 < flen && strncasecmp(f + i, "MON", 3) == 0) {
			int m;
			TRY(read_name(ctx, s, n, &p, month_names, 12, true, "MON", &m));
			t->mon = m + 1;
			i += 3;
			continue;
		}
		if (i + 2 < flen && strncasecmp(f + i, "DAY", 3) == 0) {
			int d;
			TRY(read_name(ctx, s, n, &p, day_names, 7, false, "DAY", &d));
			i += 3;
			continue;
		}
		if (i + 1 < flen && strncasecmp(f + i, "DY", 2) == 0) {
			int d;
			TRY(read_name(ctx, s, n, &p, day_names, 7, true, "DY", &d));
			i += 2;
			continue;
		}
		for (k = 0; k < sizeof nums / sizeof nums[0]; k++) {
			int64_t v;
			int d, width;
			size_t pl = strlen(nums[k].pat);
			if (!kw(f, flen, i, nums[k].pat))
				continue;
			/* a field followed directly by another number reads its width;
			 * otherwise as many digits as there are (YYYY up to 9) */
			width = num_follows(f, flen, i + pl) ? nums[k].width
				: nums[k].id == 1 || nums[k].id == 16 || nums[k].id == 8 ? 9
				: nums[k].id == 10 || nums[k].id == 11 ? nums[k].width : 9;
			TRY(read_num(ctx, s, n, &p, width, nums[k].id == 18, nums[k].pat, &v, &d));
			if (v > INT32_MAX && nums[k].id != 16 && nums[k].id != 1)
				return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
						   "value for \"%s\" in source string is out of range",
						   nums[k].pat);
			switch (nums[k].id) {
			case 1: t->year = v; t->yy_digits = d; break;
			case 2: case 3: case 4: t->year = v; t->yy_digits = (int)pl; break;
			case 5: t->hour = (int)v; t->h12 = 0; break;
			case 6: t->hour = (int)v; t->h12 = 1; break;
			case 7: t->min = (int)v; break;
			case 8: t->ssss = v; break;
			case 9: t->sec = (int)v; break;
			case 10: for (; d < 3; d++) v *= 10; t->usec = (int)v * 1000; break;
			case 11: for (; d < 6; d++) v *= 10; t->usec = (int)v; break;
			case 12: t->mon = (int)v; break;
			case 13: t->yday = (int)v; break;
			case 14: t->mday = (int)v; break;
			case 16: t->julian = v; break;
			case 18: t->tzh = (int)(v < 0 ? -v : v); t->tzs = v < 0 ? -1 : 1; break;
			case 19: t->tzm = (int)v; break;
			default: break;   /* accepted, ignored (as PostgreSQL mostly does) */
			}
			i += pl;
			done = true;
			break;
		}
		if (done)
			continue;
		/* a separator in the template matches any one separator (or none) of
		 * the input; runs of spaces are skipped; other characters skip one */
		if (f[i] == ' ') {
			while (p < n && s[p] == ' ')
				p++;
		} else if (is_sep(f[i])) {
			if (p < n && is_sep(s[p]))
				p++;
		} else if (p < n)
			p++;
		i++;
	}
	return FLOE_OK;
}

/* text -> local timestamp micros (to_date uses the day only) */
static int
to_ts_text(FuncCtx *ctx, const strview *sv, const strview *fv, int64_t *out, bool *has_tz,
	   int32_t *east)
{
	const char *s = strview_data(sv), *f = strview_data(fv);
	TmIn t = { .year = 0, .yy_digits = 4, .mon = 1, .mday = 1, .yday = -1, .hour = 0,
		   .min = 0, .sec = 0, .usec = 0, .pm = -1, .h12 = 0, .tzs = 0, .tzh = -1,
		   .tzm = 0, .bc = 0, .julian = -1, .ssss = -1 };
	int64_t y, days;
	int hour;

	TRY(parse_tm(ctx, s, sv->len, f, fv->len, &t));
	y = t.year;
	if (t.yy_digits < 4 && y < 100 && t.yy_digits == 2)
		y += y < 70 ? 2000 : 1900;
	else if (t.yy_digits == 3 && y < 1000)
		y += y < 100 ? 2000 : 1000;
	else if (t.yy_digits == 1 && y < 10)
		y += 2000;
	if (t.bc) {
		if (y <= 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_DATETIME_FORMAT,
					   "inconsistent use of year %04lld and \"BC\"", (long long)y);
		y = 1 - y;
	} else if (y < 0)   /* year 0 (also the default) is 1 BC, as PostgreSQL */
		y = y + 1;
	hour = t.hour;
	if (t.h12 || t.pm >= 0) {
		if (hour < 1 || hour > 12)
			return floe_errorf(ctx->err, ERRCODE_INVALID_DATETIME_FORMAT,
					   "hour \"%d\" is invalid for the 12-hour clock", hour);
		if (t.pm == 1 && hour < 12)
			hour += 12;
		else if (t.pm != 1 && hour == 12)
			hour = 0;
	}
	if (t.julian >= 0) {
		days = t.julian - 2440588;
	} else if (t.yday >= 0) {
		if (t.yday < 1 || t.yday > (datetime_valid_civil(y, 2, 29) ? 366 : 365))
			goto range;
		days = datetime_days_from_civil(y, 1, 1) + t.yday - 1;
	} else {
		if (!datetime_valid_civil(y, t.mon, t.mday))
			goto range;
		days = datetime_days_from_civil(y, t.mon, t.mday);
	}
	if (t.ssss >= 0) {
		if (t.ssss >= 86400)
			goto range;
		hour = (int)(t.ssss / 3600);
		t.min = (int)(t.ssss / 60 % 60);
		t.sec = (int)(t.ssss % 60);
	}
	if (hour < 0 || hour > 24 || t.min < 0 || t.min > 59 || t.sec < 0 || t.sec > 60 ||
	    (hour == 24 && (t.min || t.sec || t.usec)))
		goto range;
	if (days < DATE_MIN_DAYS || days > DATE_MAX_DAYS)
		return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
				   "date out of range: \"%.*s\"", (int)sv->len, s);
	*out = days * USECS_PER_DAY + (int64_t)hour * USECS_PER_HOUR +
	       (int64_t)t.min * USECS_PER_MIN + (int64_t)t.sec * USECS_PER_SEC + t.usec;
	*has_tz = t.tzh >= 0;
	*east = *has_tz ? (t.tzs < 0 ? -1 : 1) * (t.tzh * 3600 + t.tzm * 60) : 0;
	return FLOE_OK;
range:
	return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
			   "date/time field value out of range: \"%.*s\"", (int)sv->len, s);
}

static int
to_date_ts_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *a, *b;
	bool date = out->type.id == TYPE_DATE;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		int64_t local;
		bool has_tz;
		int32_t east;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		TRY(to_ts_text(ctx, &a[ka], &b[kb], &local, &has_tz, &east));
		if (date) {
			((int32_t *)out->data)[i] = (int32_t)(local / USECS_PER_DAY -
							      (local % USECS_PER_DAY < 0));
		} else {
			int64_t t = has_tz ? local - (int64_t)east * USECS_PER_SEC
					   : datetime_local_to_utc(local);
			if (t < TS_MIN_USECS || t > TS_MAX_USECS)
				return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
						   "timestamp out of range");
			((int64_t *)out->data)[i] = t;
		}
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* ---- now() and friends ------------------------------------------------------------ */

/* per thread: a server thread runs one session's statement at a time */
static _Thread_local int64_t statement_time;

void
func_set_statement_time(int64_t micros_utc)
{
	statement_time = micros_utc;
}

int64_t
func_statement_time(void)
{
	return statement_time;
}

static int64_t
clock_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * USECS_PER_SEC + t.tv_nsec / 1000;
}

static int64_t
stmt_now(void)
{
	int64_t t = statement_time;
	return t ? t : clock_now();
}

/* what: 0 timestamptz, 1 local timestamp, 2 local date, 3 local time */
static int
now_common(Vector *out, uint32_t count, int64_t t, int what)
{
	uint32_t i;
	int64_t local = what ? datetime_timestamptz_to_local(t) : t;
	int64_t days = local / USECS_PER_DAY, rem = local % USECS_PER_DAY;

	if (rem < 0) {
		rem += USECS_PER_DAY;
		days--;
	}
	for (i = 0; i < count; i++) {
		if (what == 2)
			((int32_t *)out->data)[i] = (int32_t)days;
		else if (what == 3)
			((int64_t *)out->data)[i] = rem;
		else
			((int64_t *)out->data)[i] = local;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
now_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return now_common(out, count, stmt_now(), 0);
}

static int
clock_timestamp_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return now_common(out, count, clock_now(), 0);
}

static int
localtimestamp_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return now_common(out, count, stmt_now(), 1);
}

static int
current_date_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return now_common(out, count, stmt_now(), 2);
}

static int
localtime_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return now_common(out, count, stmt_now(), 3);
}

/* ---- age(timestamp, timestamp) ------------------------------------------------------- */

static int
days_in_month(int64_t y, int m)
{
	static const int dm[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : dm[m - 1];
}

/* PostgreSQL's timestamp_age: field-wise difference, borrowing upward */
static Interval
age_of(int64_t t1, int64_t t2)
{
	Tm a, b;
	int64_t usec, sec, min, hour, mday, mon, year;
	bool flip = t1 < t2;
	Interval r;

	tm_of(t1, &a);
	tm_of(t2, &b);
	usec = a.usec - b.usec;
	sec = a.sec - b.sec;
	min = a.min - b.min;
	hour = a.hour - b.hour;
	mday = a.mday - b.mday;
	mon = a.mon - b.mon;
	year = a.year - b.year;
	if (flip) {
		usec = -usec, sec = -sec, min = -min, hour = -hour;
		mday = -mday, mon = -mon, year = -year;
	}
	while (usec < 0)
		usec += USECS_PER_SEC, sec--;
	while (sec < 0)
		sec += 60, min--;
	while (min < 0)
		min += 60, hour--;
	while (hour < 0)
		hour += 24, mday--;
	while (mday < 0) {
		if (flip)
			mday += days_in_month(a.year, a.mon);
		else
			mday += days_in_month(b.year, b.mon);
		mon--;
	}
	while (mon < 0)
		mon += 12, year--;
	if (flip) {
		usec = -usec, sec = -sec, min = -min, hour = -hour;
		mday = -mday, mon = -mon, year = -year;
	}
	r.months = (int32_t)(year * 12 + mon);
	r.days = (int32_t)mday;
	r.micros = ((hour * 60 + min) * 60 + sec) * USECS_PER_SEC + usec;
	return r;
}

static int
age2(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const int64_t *a, *b;
	Interval *o = out->data;
	bool tz = args[0].type.id == TYPE_TIMESTAMPTZ;
	int64_t today = 0;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	if (nargs == 2) {
		vector_view(&args[1], &vb);
		b = vb.data;
	} else {
		/* age(ts) = age(midnight of today, ts) */
		int64_t local = datetime_timestamptz_to_local(stmt_now());
		today = local - ((local % USECS_PER_DAY) + USECS_PER_DAY) % USECS_PER_DAY;
		if (tz)
			today = datetime_local_to_utc(today);
		b = NULL;
	}
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i);
		int64_t x, y;
		if (!ARGVALID(va, ka) || (b && !ARGVALID(vb, ARGK(vb, i)))) {
			out_null(out, i);
			continue;
		}
		if (b) {
			x = a[ka];
			y = b[ARGK(vb, i)];
		} else {
			x = today;
			y = a[ka];
		}
		if (x == TS_NOBEGIN || x == TS_NOEND || y == TS_NOBEGIN || y == TS_NOEND)
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "interval out of range");
		if (tz) {
			x = datetime_timestamptz_to_local(x);
			y = datetime_timestamptz_to_local(y);
		}
		o[i] = age_of(x, y);
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* isfinite(date|timestamp|timestamptz|interval) */
static int
isfinite_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va;
	TypeId t = args[0].type.id;
	uint8_t *o = out->data;
	uint32_t i;

	vector_view(&args[0], &va);
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(va, i);
		if (!ARGVALID(va, k)) {
			out_null(out, i);
			continue;
		}
		if (t == TYPE_DATE) {
			int32_t d = ((const int32_t *)va.data)[k];
			o[i] = d != DATE_NOBEGIN && d != DATE_NOEND;
		} else if (t == TYPE_INTERVAL) {
			o[i] = 1;
		} else {
			int64_t x = ((const int64_t *)va.data)[k];
			o[i] = x != TS_NOBEGIN && x != TS_NOEND;
		}
		out_valid(out, i);
	}
	return FLOE_OK;
}

#define DA TYPE_DATE
#define TI TYPE_TIME
#define TS TYPE_TIMESTAMP
#define TZ TYPE_TIMESTAMPTZ
#define IV TYPE_INTERVAL
#define I4 TYPE_INT32
#define F8 TYPE_FLOAT64
#define TX TYPE_TEXT
#define OP(nm, k, a, b, r) { nm, k, 2, 0, { a, b }, r, FRET_FIXED, true, true }
#define FN(nm, k, a, b, r) { nm, k, 2, 0, { a, b }, r, FRET_FIXED, true, false }

const ScalarFunc func_datetime_table[] = {
	OP("+", date_pl_int, DA, I4, DA), OP("+", int_pl_date, I4, DA, DA),
	OP("-", date_mi_int, DA, I4, DA), OP("-", date_mi_date, DA, DA, I4),
	OP("+", date_pl_time, DA, TI, TS), OP("+", time_pl_date, TI, DA, TS),
	OP("+", date_pl_iv, DA, IV, TS), OP("+", iv_pl_date, IV, DA, TS),
	OP("-", date_mi_iv, DA, IV, TS),
	OP("+", ts_pl_iv, TS, IV, TS), OP("+", iv_pl_ts, IV, TS, TS),
	OP("-", ts_mi_iv, TS, IV, TS),
	OP("+", tz_pl_iv, TZ, IV, TZ), OP("+", iv_pl_tz, IV, TZ, TZ),
	OP("-", tz_mi_iv, TZ, IV, TZ),
	OP("-", ts_mi_ts, TS, TS, IV), OP("-", ts_mi_ts, TZ, TZ, IV),
	OP("+", time_pl_iv, TI, IV, TI), OP("+", iv_pl_time, IV, TI, TI),
	OP("-", time_mi_iv, TI, IV, TI), OP("-", time_mi_time, TI, TI, IV),
	OP("+", iv_pl_iv, IV, IV, IV), OP("-", iv_mi_iv, IV, IV, IV),
	OP("*", iv_mul_f8, IV, F8, IV), OP("*", f8_mul_iv, F8, IV, IV),
	OP("/", iv_div_f8, IV, F8, IV),
	FN("date_part", date_part, TX, DA, F8), FN("date_part", date_part, TX, TI, F8),
	FN("date_part", date_part, TX, TS, F8), FN("date_part", date_part, TX, TZ, F8),
	FN("date_part", date_part, TX, IV, F8),
	FN("extract", date_part, TX, DA, F8), FN("extract", date_part, TX, TI, F8),
	FN("extract", date_part, TX, TS, F8), FN("extract", date_part, TX, TZ, F8),
	FN("extract", date_part, TX, IV, F8),
	FN("date_trunc", date_trunc, TX, TS, TS), FN("date_trunc", date_trunc, TX, TZ, TZ),
	FN("to_char", to_char_ts, TS, TX, TX), FN("to_char", to_char_ts, TZ, TX, TX),
#define NOW(nm, k, r) { nm, k, 0, 0, { 0 }, r, FRET_FIXED, false, false }
	NOW("now", now_k, TZ), NOW("current_timestamp", now_k, TZ),
	NOW("transaction_timestamp", now_k, TZ), NOW("statement_timestamp", now_k, TZ),
	NOW("clock_timestamp", clock_timestamp_k, TZ), NOW("localtimestamp", localtimestamp_k, TS),
	NOW("current_date", current_date_k, DA), NOW("localtime", localtime_k, TI),
	FN("age", age2, TS, TS, IV), FN("age", age2, TZ, TZ, IV),
	{ "age", age2, 1, 0, { TS }, IV, FRET_FIXED, true, false },
	{ "age", age2, 1, 0, { TZ }, IV, FRET_FIXED, true, false },
	{ "isfinite", isfinite_k, 1, 0, { DA }, TYPE_BOOL, FRET_FIXED, true, false },
	{ "isfinite", isfinite_k, 1, 0, { TS }, TYPE_BOOL, FRET_FIXED, true, false },
	{ "isfinite", isfinite_k, 1, 0, { TZ }, TYPE_BOOL, FRET_FIXED, true, false },
	{ "isfinite", isfinite_k, 1, 0, { IV }, TYPE_BOOL, FRET_FIXED, true, false },
	{ "make_date", make_date, 3, 0, { I4, I4, I4 }, DA, FRET_FIXED, true, false },
	{ "to_timestamp", to_timestamp, 1, 0, { F8 }, TZ, FRET_FIXED, true, false },
	{ "justify_days", justify_days_k, 1, 0, { IV }, IV, FRET_FIXED, true, false },
	{ "justify_hours", justify_hours_k, 1, 0, { IV }, IV, FRET_FIXED, true, false },
	{ "justify_interval", justify_interval_k, 1, 0, { IV }, IV, FRET_FIXED, true, false },
	FN("date_trunc", date_trunc_iv, TX, IV, IV),
	FN("to_date", to_date_ts_k, TX, TX, DA), FN("to_timestamp", to_date_ts_k, TX, TX, TZ),
	FN("timezone", timezone_k, TX, TS, TZ), FN("timezone", timezone_k, TX, TZ, TS),
	{ "make_time", make_time_k, 3, 0, { I4, I4, F8 }, TI, FRET_FIXED, true, false },
	{ "make_timestamp", make_ts_k, 1, 1, { F8 }, TS, FRET_FIXED, true, false },
	{ "make_timestamptz", make_ts_k, 1, 1, { F8 }, TZ, FRET_FIXED, true, false },
	{ "make_interval", make_interval_k, 0, 0, { 0 }, IV, FRET_FIXED, true, false },
	{ "make_interval", make_interval_k, 1, 1, { F8 }, IV, FRET_FIXED, true, false },
	{ "date_bin", date_bin_k, 3, 0, { IV, TS, TS }, TS, FRET_FIXED, true, false },
	{ "date_bin", date_bin_k, 3, 0, { IV, TZ, TZ }, TZ, FRET_FIXED, true, false },
};
const int func_datetime_count = sizeof func_datetime_table / sizeof func_datetime_table[0];
