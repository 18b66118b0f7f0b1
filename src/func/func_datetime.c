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
format_tm(const Tm *tm, const char *f, size_t flen, char *buf, bool tz)
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
		if (tz)
			ts = datetime_timestamptz_to_local(ts);
		tm_of(ts, &tm);
		/* each template byte expands to at most 40 bytes (names, numbers) */
		buf = arena_alloc(out->arena, (size_t)b[kb].len * 40 + 1);
		n = format_tm(&tm, strview_data(&b[kb]), b[kb].len, buf, tz);
		out_string_owned(out, i, buf, (uint32_t)n);
	}
	return FLOE_OK;
}

/* ---- now() and friends ------------------------------------------------------------ */

static int64_t statement_time;

void
func_set_statement_time(int64_t micros_utc)
{
	__atomic_store_n(&statement_time, micros_utc, __ATOMIC_RELAXED);
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
	int64_t t = __atomic_load_n(&statement_time, __ATOMIC_RELAXED);
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
};
const int func_datetime_count = sizeof func_datetime_table / sizeof func_datetime_table[0];
