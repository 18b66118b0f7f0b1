/*
 * agg_basic.c — aggregate functions count, sum, avg, min, max, bool_and,
 * bool_or, every, with PostgreSQL 15's result types.
 *
 * Spec: PostgreSQL 15 documentation 9.21 "Aggregate Functions"; result
 * types as pg_aggregate has them: count -> bigint; sum(int2/int4) -> bigint,
 * sum(int8) -> numeric, sum(numeric) -> numeric, sum(float4) -> real,
 * sum(float8) -> double, sum(interval) -> interval; avg(int*) and
 * avg(numeric) -> numeric (exact: int128 sum / count, rounded half away
 * from zero to the result scale max(16, s), PostgreSQL's division display
 * scale for averages of magnitude >= 1); avg(float*) -> double; min/max keep
 * the type (text compares bytewise = C collation, floats put NaN above
 * everything as PostgreSQL does).  Empty input: count 0, the others NULL.
 * Overflow: sum(int2/int4) past bigint is 22003 "bigint out of range";
 * numeric sums past 38 digits 22003 "value overflows numeric format".
 *
 * Display scales (vector.h, dscale) of numeric results, as PostgreSQL:
 * sum(numeric) shows the largest display scale among the rows it added;
 * min/max the kept row's own; avg select_div_scale(sum, count) (at least
 * 16 significant digits: avg 36002.12 of 147790 rows shows 12 decimals),
 * capped at the result type's scale max(16, s), so an average below 1
 * shows 16 decimals where PostgreSQL shows 20.
 *
 * State blocks are plain structs (state_size bytes, init()ed by the
 * caller); update() adds a batch of rows where row i goes to states[i];
 * combine() merges two partial states; finalize() writes one row.
 * min/max(text) copy the kept string into ctx->arena, so states never
 * point into a batch that has been reset.
 *
 * INTERFACE ROUTINES
 *   func_agg_sigs[], func_agg_impls[], func_agg_count  (func_registry.c
 *   resolves over these; callers use func_resolve_agg)
 */
#include <math.h>
#include "func/func_internal.h"
#include "types/decimal.h"
#include "types/udt.h"

/* ---- count ---------------------------------------------------------------- */

typedef struct CountState {
	int64_t n;
} CountState;

static void
count_init(void *s)
{
	((CountState *)s)->n = 0;
}

static int
count_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	uint32_t i;

	if (!arg) {
		for (i = 0; i < count; i++)
			((CountState *)states[i])->n++;
		return FLOE_OK;
	}
	{
		VectorView v;
		vector_view(arg, &v);
		if (!v.validity) {
			for (i = 0; i < count; i++)
				((CountState *)states[i])->n++;
			return FLOE_OK;
		}
		for (i = 0; i < count; i++)
			if (ARGVALID(v, ARGK(v, i)))
				((CountState *)states[i])->n++;
	}
	return FLOE_OK;
}

static int
count_combine(FuncCtx *ctx, void *dst, const void *src)
{
	((CountState *)dst)->n += ((const CountState *)src)->n;
	return FLOE_OK;
}

static int
count_final(FuncCtx *ctx, void *s, Vector *out, uint32_t row)
{
	((int64_t *)out->data)[row] = ((CountState *)s)->n;
	out_valid(out, row);
	return FLOE_OK;
}

static const AggFunc agg_count = { "count", sizeof(CountState), count_init, count_update,
				   count_combine, count_final, NULL };

/* ---- sum of int2/int4 into bigint ---------------------------------------- */

typedef struct SumI64State {
	int64_t sum;
	bool any;
} SumI64State;

static void
sumi_init(void *s)
{
	memset(s, 0, sizeof(SumI64State));
}

static int
bigint_range(FuncCtx *ctx)
{
	return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
}

#define SUM_INT_UPDATE(fname, T)                                                       \
	static int fname(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states) \
	{                                                                              \
		VectorView v;                                                          \
		const T *d;                                                            \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			SumI64State *s = states[i];                                    \
			if (!ARGVALID(v, k))                                           \
				continue;                                              \
			if (__builtin_add_overflow(s->sum, (int64_t)d[k], &s->sum))    \
				return bigint_range(ctx);                              \
			s->any = true;                                                 \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

SUM_INT_UPDATE(sum_i16_update, int16_t)
SUM_INT_UPDATE(sum_i32_update, int32_t)

static int
sumi_combine(FuncCtx *ctx, void *dst, const void *src)
{
	SumI64State *d = dst;
	const SumI64State *s = src;

	if (!s->any)
		return FLOE_OK;
	if (__builtin_add_overflow(d->sum, s->sum, &d->sum))
		return bigint_range(ctx);
	d->any = true;
	return FLOE_OK;
}

static int
sumi_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	SumI64State *s = st;

	if (!s->any) {
		out_null(out, row);
		return FLOE_OK;
	}
	((int64_t *)out->data)[row] = s->sum;
	out_valid(out, row);
	return FLOE_OK;
}

static const AggFunc agg_sum_i16 = { "sum", sizeof(SumI64State), sumi_init, sum_i16_update,
				     sumi_combine, sumi_final, NULL };
static const AggFunc agg_sum_i32 = { "sum", sizeof(SumI64State), sumi_init, sum_i32_update,
				     sumi_combine, sumi_final, NULL };

/* ---- exact sums (int8, numeric) and averages (int*, numeric) -------------- */

typedef struct DecState {
	int128 sum;         /* at scale `scale` */
	int64_t n;
	int16_t scale;
	int8_t varied;      /* rows came with display scales (vector.h) ... */
	uint8_t dmax;       /* ... the largest of them; else `scale` is it */
} DecState;

static void
dec_init(void *s)
{
	memset(s, 0, sizeof(DecState));
}

static int
numeric_overflow(FuncCtx *ctx)
{
	return decimal_overflow_error(ctx->err);
}

static inline int
dec_add(FuncCtx *ctx, DecState *s, int128 x)
{
	if (__builtin_add_overflow(s->sum, x, &s->sum) || !func_dec_fits(s->sum))
		return numeric_overflow(ctx);
	s->n++;
	return FLOE_OK;
}

#define DEC_UPDATE(fname, T)                                                           \
	static int fname(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states) \
	{                                                                              \
		VectorView v;                                                          \
		const T *d;                                                            \
		int scale = arg->type.id == TYPE_DECIMAL ? arg->type.scale : 0;        \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		if (vector_varies(arg)) {                                              \
			/* rows with their own display scales: keep the largest */     \
			const uint8_t *ds = vector_dscale_of(arg);                     \
			for (i = 0; i < count; i++) {                                  \
				uint32_t k = ARGK(v, i);                               \
				DecState *s = states[i];                               \
				int dsc;                                               \
				if (!ARGVALID(v, k))                                   \
					continue;                                      \
				dsc = vector_dscale_at(arg, ds, k, (int128)d[k]);      \
				if (!s->n) {                                           \
					s->varied = 1;                                 \
					s->dmax = (uint8_t)dsc;                        \
				} else if (s->varied && dsc > s->dmax) {               \
					s->dmax = (uint8_t)dsc;                        \
				}                                                      \
				s->scale = (int16_t)scale;                             \
				TRY(dec_add(ctx, s, (int128)d[k]));                    \
			}                                                              \
			return FLOE_OK;                                                \
		}                                                                      \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			DecState *s = states[i];                                       \
			if (!ARGVALID(v, k))                                           \
				continue;                                              \
			s->scale = (int16_t)scale;                                     \
			s->varied = 0;                                                 \
			TRY(dec_add(ctx, s, (int128)d[k]));                            \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

DEC_UPDATE(dec_i16_update, int16_t)
DEC_UPDATE(dec_i32_update, int32_t)
DEC_UPDATE(dec_i64_update, int64_t)
DEC_UPDATE(dec_dec_update, int128)

static int
dec_combine(FuncCtx *ctx, void *dst, const void *src)
{
	DecState *d = dst;
	const DecState *s = src;

	if (!s->n)
		return FLOE_OK;
	if (__builtin_add_overflow(d->sum, s->sum, &d->sum) || !func_dec_fits(d->sum))
		return numeric_overflow(ctx);
	/* rows without display scales show the type's, the largest */
	if (!d->n) {
		d->varied = s->varied;
		d->dmax = s->dmax;
	} else if (!s->varied) {
		d->varied = 0;
	} else if (d->varied && s->dmax > d->dmax) {
		d->dmax = s->dmax;
	}
	d->n += s->n;
	d->scale = s->scale;
	return FLOE_OK;
}

/* Row `row` of an unconstrained result displays at dsc (vector.h). */
static void
set_dscale(Vector *out, uint32_t row, int dsc)
{
	if (out->type.precision != 0)
		return;
	if (dsc > out->type.scale)
		dsc = out->type.scale;
	if (!out->dscale && dsc == out->type.scale && out->type.scale != NUMERIC_DEFAULT_SCALE)
		return;
	vector_ensure_dscale(out);
	out->dscale[row] = (uint8_t)dsc;
}

/* sum: the sum at the output scale */
static int
dec_sum_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	DecState *s = st;

	if (!s->n) {
		out_null(out, row);
		return FLOE_OK;
	}
	if (func_dec_rescale(s->sum, s->scale, out->type.scale,
			     &((int128 *)out->data)[row]) != FLOE_OK)
		return numeric_overflow(ctx);
	/* PostgreSQL's sum displays at the largest scale it added */
	set_dscale(out, row, s->varied ? s->dmax : s->scale);
	out_valid(out, row);
	return FLOE_OK;
}

/* avg: sum / n rounded to the output scale */
static int
dec_avg_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	DecState *s = st;

	if (!s->n) {
		out_null(out, row);
		return FLOE_OK;
	}
	if (out->type.precision == 0) {
		/* PostgreSQL: sum / count at select_div_scale of the sum (at its
		 * display scale) and the count; capped at the output scale */
		int dm = s->varied && s->dmax < s->scale ? s->dmax : s->scale;
		int rs = decimal_div_scale(s->sum / func_pow10[s->scale - dm], dm, (int128)s->n, 0);
		if (rs < out->type.scale && DECIMAL_DIV_SHRINK) {
			int128 q;
			if (func_dec_div(s->sum, s->scale, (int128)s->n, 0, rs, &q) != FLOE_OK ||
			    func_dec_rescale(q, rs, out->type.scale, &((int128 *)out->data)[row]) != FLOE_OK)
				return numeric_overflow(ctx);
			set_dscale(out, row, rs);
			out_valid(out, row);
			return FLOE_OK;
		}
		set_dscale(out, row, out->type.scale);
	}
	if (func_dec_div(s->sum, s->scale, (int128)s->n, 0, out->type.scale,
			 &((int128 *)out->data)[row]) != FLOE_OK)
		return numeric_overflow(ctx);
	out_valid(out, row);
	return FLOE_OK;
}

#define DEC_AGG(var, nm, upd, fin) \
	static const AggFunc var = { nm, sizeof(DecState), dec_init, upd, dec_combine, fin, NULL }
DEC_AGG(agg_sum_i64, "sum", dec_i64_update, dec_sum_final);
DEC_AGG(agg_sum_dec, "sum", dec_dec_update, dec_sum_final);
DEC_AGG(agg_avg_i16, "avg", dec_i16_update, dec_avg_final);
DEC_AGG(agg_avg_i32, "avg", dec_i32_update, dec_avg_final);
DEC_AGG(agg_avg_i64, "avg", dec_i64_update, dec_avg_final);
DEC_AGG(agg_avg_dec, "avg", dec_dec_update, dec_avg_final);

/* ---- float sums and averages ---------------------------------------------- */

typedef struct FloatState {
	double sum;
	int64_t n;
} FloatState;

static void
float_init(void *s)
{
	memset(s, 0, sizeof(FloatState));
}

static int
float_overflow(FuncCtx *ctx)
{
	return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
			   "value out of range: overflow");
}

/* float4 sums accumulate in float4 (float4pl), float8 in float8 (float8pl) */
#define FLOAT_UPDATE(fname, T)                                                         \
	static int fname(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states) \
	{                                                                              \
		VectorView v;                                                          \
		const T *d;                                                            \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			FloatState *s = states[i];                                     \
			T r;                                                           \
			if (!ARGVALID(v, k))                                           \
				continue;                                              \
			r = (T)s->sum + d[k];                                          \
			if (isinf(r) && !isinf((T)s->sum) && !isinf(d[k]))             \
				return float_overflow(ctx);                            \
			s->sum = r;                                                    \
			s->n++;                                                        \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

FLOAT_UPDATE(f32_update, float)
FLOAT_UPDATE(f64_update, double)

/* avg(float4) accumulates in float8 (float4_accum) */
static int
f32_avg_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	VectorView v;
	const float *d;
	uint32_t i;

	vector_view(arg, &v);
	d = v.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		FloatState *s = states[i];
		double r;
		if (!ARGVALID(v, k))
			continue;
		r = s->sum + (double)d[k];
		if (isinf(r) && !isinf(s->sum) && !isinf(d[k]))
			return float_overflow(ctx);
		s->sum = r;
		s->n++;
	}
	return FLOE_OK;
}

static int
float_combine(FuncCtx *ctx, void *dst, const void *src)
{
	FloatState *d = dst;
	const FloatState *s = src;
	double r;

	if (!s->n)
		return FLOE_OK;
	r = d->sum + s->sum;
	if (isinf(r) && !isinf(d->sum) && !isinf(s->sum))
		return float_overflow(ctx);
	d->sum = r;
	d->n += s->n;
	return FLOE_OK;
}

static int
float_sum_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	FloatState *s = st;

	if (!s->n) {
		out_null(out, row);
		return FLOE_OK;
	}
	if (out->type.id == TYPE_FLOAT32)
		((float *)out->data)[row] = (float)s->sum;
	else
		((double *)out->data)[row] = s->sum;
	out_valid(out, row);
	return FLOE_OK;
}

static int
float_avg_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	FloatState *s = st;

	if (!s->n) {
		out_null(out, row);
		return FLOE_OK;
	}
	((double *)out->data)[row] = s->sum / (double)s->n;
	out_valid(out, row);
	return FLOE_OK;
}

static const AggFunc agg_sum_f32 = { "sum", sizeof(FloatState), float_init, f32_update,
				     float_combine, float_sum_final, NULL };
static const AggFunc agg_sum_f64 = { "sum", sizeof(FloatState), float_init, f64_update,
				     float_combine, float_sum_final, NULL };
static const AggFunc agg_avg_f32 = { "avg", sizeof(FloatState), float_init, f32_avg_update,
				     float_combine, float_avg_final, NULL };
static const AggFunc agg_avg_f64 = { "avg", sizeof(FloatState), float_init, f64_update,
				     float_combine, float_avg_final, NULL };

/* ---- sum(interval) ----------------------------------------------------------- */

typedef struct IvState {
	Interval sum;
	bool any;
} IvState;

static void
iv_init(void *s)
{
	memset(s, 0, sizeof(IvState));
}

static int
iv_add(FuncCtx *ctx, Interval *d, const Interval *x)
{
	if (__builtin_add_overflow(d->months, x->months, &d->months) ||
	    __builtin_add_overflow(d->days, x->days, &d->days) ||
	    __builtin_add_overflow(d->micros, x->micros, &d->micros))
		return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW, "interval out of range");
	return FLOE_OK;
}

static int
iv_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	VectorView v;
	const Interval *d;
	uint32_t i;

	vector_view(arg, &v);
	d = v.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		IvState *s = states[i];
		if (!ARGVALID(v, k))
			continue;
		TRY(iv_add(ctx, &s->sum, &d[k]));
		s->any = true;
	}
	return FLOE_OK;
}

static int
iv_combine(FuncCtx *ctx, void *dst, const void *src)
{
	IvState *d = dst;
	const IvState *s = src;

	if (!s->any)
		return FLOE_OK;
	TRY(iv_add(ctx, &d->sum, &s->sum));
	d->any = true;
	return FLOE_OK;
}

static int
iv_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	IvState *s = st;

	if (!s->any) {
		out_null(out, row);
		return FLOE_OK;
	}
	((Interval *)out->data)[row] = s->sum;
	out_valid(out, row);
	return FLOE_OK;
}

typedef struct IvAvgState {
	Interval sum;
	int64_t n;
} IvAvgState;

static void
ivavg_init(void *s)
{
	memset(s, 0, sizeof(IvAvgState));
}

static int
ivavg_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	VectorView v;
	const Interval *d;
	uint32_t i;

	vector_view(arg, &v);
	d = v.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		IvAvgState *s = states[i];
		if (!ARGVALID(v, k))
			continue;
		TRY(iv_add(ctx, &s->sum, &d[k]));
		s->n++;
	}
	return FLOE_OK;
}

static int
ivavg_combine(FuncCtx *ctx, void *dst, const void *src)
{
	IvAvgState *d = dst;
	const IvAvgState *s = src;

	if (!s->n)
		return FLOE_OK;
	TRY(iv_add(ctx, &d->sum, &s->sum));
	d->n += s->n;
	return FLOE_OK;
}

/* sum / n as PostgreSQL's interval_div: fractional months spill into days,
 * fractional days into time */
static int
ivavg_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	IvAvgState *s = st;
	double f, mrd, sec;
	Interval r;

	if (!s->n) {
		out_null(out, row);
		return FLOE_OK;
	}
	f = (double)s->n;
	r.months = (int32_t)(s->sum.months / f);
	r.days = (int32_t)(s->sum.days / f);
	mrd = (s->sum.months / f - r.months) * 30.0;
	sec = (s->sum.days / f - r.days + mrd - (int)mrd) * 86400.0;
	sec = rint(sec * 1000000.0) / 1000000.0;
	if (fabs(sec) >= 86400.0) {
		r.days += (int32_t)(sec / 86400.0);
		sec -= (int)(sec / 86400.0) * 86400.0;
	}
	r.days += (int32_t)mrd;
	r.micros = (int64_t)rint((double)s->sum.micros / f + sec * 1000000.0);
	((Interval *)out->data)[row] = r;
	out_valid(out, row);
	return FLOE_OK;
}

static const AggFunc agg_avg_iv = { "avg", sizeof(IvAvgState), ivavg_init, ivavg_update,
				    ivavg_combine, ivavg_final, NULL };

static const AggFunc agg_sum_iv = { "sum", sizeof(IvState), iv_init, iv_update, iv_combine,
				    iv_final, NULL };

/* ---- min / max -------------------------------------------------------------- */

typedef struct MinMaxState {
	union {
		int64_t i;
		double f;
		int128 d;
		strview s;
		Interval iv;
	} v;
	bool any;
	uint8_t dscale;     /* numeric: the kept value's display scale */
	uint32_t udt;       /* enum: its OID (the labels' order, types/udt.h) */
} MinMaxState;

static void
mm_init(void *s)
{
	memset(s, 0, sizeof(MinMaxState));
}

static inline int
cmp_f(double x, double y)
{
	if (isnan(x))
		return isnan(y) ? 0 : 1;
	if (isnan(y))
		return -1;
	return (x > y) - (x < y);
}

static inline int128
iv_span(Interval v)
{
	return (int128)v.micros + ((int128)v.days + (int128)v.months * 30) * (int128)86400000000LL;
}

#define CMP_I(x, y) (((x) > (y)) - ((x) < (y)))
#define CMP_F(x, y) cmp_f((x), (y))
#define CMP_IV(x, y) CMP_I(iv_span(x), iv_span(y))

/*
 * min/max for one physical type.  FIELD is the union member holding the
 * kept value, CMP compares, SIGN is -1 for min and +1 for max.
 */
#define MINMAX(name, T, FIELD, CMP, SIGN, STORE_T)                                     \
	static int name##_update(FuncCtx *ctx, const Vector *arg, uint32_t count,     \
				 void **states)                                        \
	{                                                                              \
		VectorView v;                                                          \
		const T *d;                                                            \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			MinMaxState *s = states[i];                                    \
			if (!ARGVALID(v, k))                                           \
				continue;                                              \
			if (!s->any || CMP((STORE_T)d[k], s->v.FIELD) * (SIGN) > 0) {  \
				s->v.FIELD = (STORE_T)d[k];                            \
				s->any = true;                                         \
			}                                                              \
		}                                                                      \
		return FLOE_OK;                                                        \
	}                                                                              \
	static int name##_combine(FuncCtx *ctx, void *dst, const void *src)           \
	{                                                                              \
		MinMaxState *dd = dst;                                                 \
		const MinMaxState *ss = src;                                           \
		if (ss->any && (!dd->any || CMP(ss->v.FIELD, dd->v.FIELD) * (SIGN) > 0)) \
			*dd = *ss;                                                     \
		return FLOE_OK;                                                        \
	}                                                                              \
	static int name##_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)    \
	{                                                                              \
		MinMaxState *s = st;                                                   \
		if (!s->any) {                                                         \
			out_null(out, row);                                            \
			return FLOE_OK;                                                \
		}                                                                      \
		((T *)out->data)[row] = (T)s->v.FIELD;                                 \
		out_valid(out, row);                                                   \
		return FLOE_OK;                                                        \
	}                                                                              \
	static const AggFunc agg_##name = { (SIGN) < 0 ? "min" : "max", sizeof(MinMaxState), mm_init,       \
					    name##_update, name##_combine, name##_final, NULL };

#define MINMAX_BOTH(sfx, T, FIELD, CMP, STORE_T)                                       \
	MINMAX(min_##sfx, T, FIELD, CMP, -1, STORE_T)                                  \
	MINMAX(max_##sfx, T, FIELD, CMP, 1, STORE_T)

MINMAX_BOTH(i16, int16_t, i, CMP_I, int64_t)
MINMAX_BOTH(i32, int32_t, i, CMP_I, int64_t)
MINMAX_BOTH(i64, int64_t, i, CMP_I, int64_t)
MINMAX_BOTH(f32, float, f, CMP_F, double)
MINMAX_BOTH(f64, double, f, CMP_F, double)

/* numeric: as MINMAX, keeping the chosen row's display scale (vector.h) */
#define MINMAX_DEC(name, SIGN)                                                         \
	static int name##_update(FuncCtx *ctx, const Vector *arg, uint32_t count,     \
				 void **states)                                        \
	{                                                                              \
		VectorView v;                                                          \
		const int128 *d;                                                       \
		const uint8_t *ds = vector_dscale_of(arg);                             \
		bool varies = vector_varies(arg);                                      \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			MinMaxState *s = states[i];                                    \
			if (!ARGVALID(v, k))                                           \
				continue;                                              \
			/* >= : of equal values the later one, as numeric_smaller \
			 * and numeric_larger (its display scale shows) */     \
			if (!s->any || CMP_I(d[k], s->v.d) * (SIGN) >= 0) {            \
				s->v.d = d[k];                                         \
				s->dscale = (uint8_t)(varies ? vector_dscale_at(arg, ds, k, d[k]) \
						   : arg->type.scale);                 \
				s->any = true;                                         \
			}                                                              \
		}                                                                      \
		return FLOE_OK;                                                        \
	}                                                                              \
	static int name##_combine(FuncCtx *ctx, void *dst, const void *src)           \
	{                                                                              \
		MinMaxState *dd = dst;                                                 \
		const MinMaxState *ss = src;                                           \
		if (ss->any && (!dd->any || CMP_I(ss->v.d, dd->v.d) * (SIGN) > 0))     \
			*dd = *ss;                                                     \
		return FLOE_OK;                                                        \
	}                                                                              \
	static int name##_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)    \
	{                                                                              \
		MinMaxState *s = st;                                                   \
		if (!s->any) {                                                         \
			out_null(out, row);                                            \
			return FLOE_OK;                                                \
		}                                                                      \
		((int128 *)out->data)[row] = s->v.d;                                   \
		set_dscale(out, row, s->dscale);                                       \
		out_valid(out, row);                                                   \
		return FLOE_OK;                                                        \
	}                                                                              \
	static const AggFunc agg_##name = { (SIGN) < 0 ? "min" : "max", sizeof(MinMaxState), mm_init,       \
					    name##_update, name##_combine, name##_final, NULL };
MINMAX_DEC(min_dec, -1)
MINMAX_DEC(max_dec, 1)
MINMAX_BOTH(iv, Interval, iv, CMP_IV, Interval)

/* text: copy the kept string into ctx->arena */
static int
mm_text_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states, int sign)
{
	VectorView v;
	const strview *d;
	uint32_t i;

	vector_view(arg, &v);
	d = v.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		MinMaxState *s = states[i];
		if (!ARGVALID(v, k))
			continue;
		if (!s->any || strview_cmp(&d[k], &s->v.s) * sign > 0) {
			if (d[k].len > STRVIEW_INLINE)
				s->v.s = strview_make(arena_memdup(ctx->arena, strview_data(&d[k]),
								   d[k].len), d[k].len);
			else
				s->v.s = d[k];
			s->any = true;
		}
	}
	return FLOE_OK;
}

static int
min_text_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	return mm_text_update(ctx, arg, count, states, -1);
}

static int
max_text_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	return mm_text_update(ctx, arg, count, states, 1);
}

static int
min_text_combine(FuncCtx *ctx, void *dst, const void *src)
{
	MinMaxState *d = dst;
	const MinMaxState *s = src;

	if (s->any && (!d->any || strview_cmp(&s->v.s, &d->v.s) < 0))
		*d = *s;
	return FLOE_OK;
}

static int
max_text_combine(FuncCtx *ctx, void *dst, const void *src)
{
	MinMaxState *d = dst;
	const MinMaxState *s = src;

	if (s->any && (!d->any || strview_cmp(&s->v.s, &d->v.s) > 0))
		*d = *s;
	return FLOE_OK;
}

static int
mm_text_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	MinMaxState *s = st;

	if (!s->any) {
		out_null(out, row);
		return FLOE_OK;
	}
	vector_set_string(out, row, strview_data(&s->v.s), s->v.s.len);
	return FLOE_OK;
}

/* enum: by the labels' declaration order (udt_enum_cmp) */
static int
mm_enum_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states, int sign)
{
	VectorView v;
	const strview *d;
	uint32_t i;

	vector_view(arg, &v);
	d = v.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		MinMaxState *s = states[i];
		if (!ARGVALID(v, k))
			continue;
		if (!s->any || udt_enum_cmp(arg->type.udt, &d[k], &s->v.s) * sign > 0) {
			if (d[k].len > STRVIEW_INLINE)
				s->v.s = strview_make(arena_memdup(ctx->arena, strview_data(&d[k]),
								   d[k].len), d[k].len);
			else
				s->v.s = d[k];
			s->any = true;
			s->udt = arg->type.udt;
		}
	}
	return FLOE_OK;
}

static int
min_enum_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	return mm_enum_update(ctx, arg, count, states, -1);
}

static int
max_enum_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	return mm_enum_update(ctx, arg, count, states, 1);
}

static int
mm_enum_combine(void *dst, const void *src, int sign)
{
	MinMaxState *d = dst;
	const MinMaxState *s = src;

	if (s->any && (!d->any || udt_enum_cmp(s->udt, &s->v.s, &d->v.s) * sign > 0))
		*d = *s;
	return FLOE_OK;
}

static int
min_enum_combine(FuncCtx *ctx, void *dst, const void *src)
{
	return mm_enum_combine(dst, src, -1);
}

static int
max_enum_combine(FuncCtx *ctx, void *dst, const void *src)
{
	return mm_enum_combine(dst, src, 1);
}

static int mm_text_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row);

static const AggFunc agg_min_enum = { "min", sizeof(MinMaxState), mm_init, min_enum_update,
				      min_enum_combine, mm_text_final, NULL };
static const AggFunc agg_max_enum = { "max", sizeof(MinMaxState), mm_init, max_enum_update,
				      max_enum_combine, mm_text_final, NULL };

const AggFunc *
func_agg_enum_minmax(const char *name)
{
	return name[1] == 'i' ? &agg_min_enum : &agg_max_enum;
}

static const AggFunc agg_min_text = { "min", sizeof(MinMaxState), mm_init, min_text_update,
				      min_text_combine, mm_text_final, NULL };
static const AggFunc agg_max_text = { "max", sizeof(MinMaxState), mm_init, max_text_update,
				      max_text_combine, mm_text_final, NULL };

/* ---- bool_and / bool_or / every --------------------------------------------- */

typedef struct BoolState {
	bool any;
	bool v;
} BoolState;

static void
bool_and_init(void *s)
{
	((BoolState *)s)->any = false;
	((BoolState *)s)->v = true;
}

static void
bool_or_init(void *s)
{
	((BoolState *)s)->any = false;
	((BoolState *)s)->v = false;
}

static int
bool_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states, bool and)
{
	VectorView v;
	const uint8_t *d;
	uint32_t i;

	vector_view(arg, &v);
	d = v.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		BoolState *s = states[i];
		if (!ARGVALID(v, k))
			continue;
		s->v = and ? (s->v && d[k]) : (s->v || d[k]);
		s->any = true;
	}
	return FLOE_OK;
}

static int
bool_and_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	return bool_update(ctx, arg, count, states, true);
}

static int
bool_or_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	return bool_update(ctx, arg, count, states, false);
}

static int
bool_and_combine(FuncCtx *ctx, void *dst, const void *src)
{
	BoolState *d = dst;
	const BoolState *s = src;

	if (s->any) {
		d->v = d->v && s->v;
		d->any = true;
	}
	return FLOE_OK;
}

static int
bool_or_combine(FuncCtx *ctx, void *dst, const void *src)
{
	BoolState *d = dst;
	const BoolState *s = src;

	if (s->any) {
		d->v = d->v || s->v;
		d->any = true;
	}
	return FLOE_OK;
}

static int
bool_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	BoolState *s = st;

	if (!s->any) {
		out_null(out, row);
		return FLOE_OK;
	}
	((uint8_t *)out->data)[row] = s->v;
	out_valid(out, row);
	return FLOE_OK;
}

static const AggFunc agg_bool_and = { "bool_and", sizeof(BoolState), bool_and_init,
				      bool_and_update, bool_and_combine, bool_final, NULL };
static const AggFunc agg_bool_or = { "bool_or", sizeof(BoolState), bool_or_init,
				     bool_or_update, bool_or_combine, bool_final, NULL };

/* ---- bit_and / bit_or (integers) ---------------------------------------------------- */

typedef struct BitState {
	int64_t v;
	bool any;
} BitState;

static void
bit_init(void *s)
{
	memset(s, 0, sizeof(BitState));
}

#define BIT_UPDATE(fname, T, OP)                                                       \
	static int fname(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states) \
	{                                                                              \
		VectorView v;                                                          \
		const T *d;                                                            \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			BitState *s = states[i];                                       \
			if (!ARGVALID(v, k))                                           \
				continue;                                              \
			s->v = s->any ? (s->v OP (int64_t)d[k]) : (int64_t)d[k];       \
			s->any = true;                                                 \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

BIT_UPDATE(band_i16, int16_t, &)
BIT_UPDATE(band_i32, int32_t, &)
BIT_UPDATE(band_i64, int64_t, &)
BIT_UPDATE(bor_i16, int16_t, |)
BIT_UPDATE(bor_i32, int32_t, |)
BIT_UPDATE(bor_i64, int64_t, |)

static int
band_combine(FuncCtx *ctx, void *dst, const void *src)
{
	BitState *d = dst;
	const BitState *s = src;

	if (s->any) {
		d->v = d->any ? (d->v & s->v) : s->v;
		d->any = true;
	}
	return FLOE_OK;
}

static int
bor_combine(FuncCtx *ctx, void *dst, const void *src)
{
	BitState *d = dst;
	const BitState *s = src;

	if (s->any) {
		d->v = d->any ? (d->v | s->v) : s->v;
		d->any = true;
	}
	return FLOE_OK;
}

static int
bit_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	BitState *s = st;
	Value v;

	if (!s->any) {
		out_null(out, row);
		return FLOE_OK;
	}
	v = value_int(out->type.id, s->v);
	vector_set_value(out, row, &v);
	return FLOE_OK;
}

#define BIT_AGG(var, nm, upd, comb) \
	static const AggFunc var = { nm, sizeof(BitState), bit_init, upd, comb, bit_final, NULL }
BIT_AGG(agg_band_i16, "bit_and", band_i16, band_combine);
BIT_AGG(agg_band_i32, "bit_and", band_i32, band_combine);
BIT_AGG(agg_band_i64, "bit_and", band_i64, band_combine);
BIT_AGG(agg_bor_i16, "bit_or", bor_i16, bor_combine);
BIT_AGG(agg_bor_i32, "bit_or", bor_i32, bor_combine);
BIT_AGG(agg_bor_i64, "bit_or", bor_i64, bor_combine);

/* ---- string_agg(value, delimiter) ------------------------------------------------ */

/*
 * The buffer holds delimiter+value for every value, the first delimiter
 * included (its length in `lead`), so partial states combine by plain
 * concatenation and finalize drops the first delimiter (PostgreSQL 16's
 * string_agg_combine does the same).
 */
typedef struct StrAggState {
	char *buf;
	uint32_t len, cap, lead;
	bool any;
} StrAggState;

static void
stragg_init(void *s)
{
	memset(s, 0, sizeof(StrAggState));
}

static int
stragg_append(FuncCtx *ctx, StrAggState *s, const char *p, uint32_t n)
{
	if ((uint64_t)s->len + n > 1024u * 1024u * 1024u - 1)
		return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "out of memory: string_agg result too large");
	if (s->len + n > s->cap) {
		uint32_t nc = (s->len + n) * 2 + 32;
		s->buf = arena_realloc(ctx->arena, s->buf, s->cap, nc);
		s->cap = nc;
		/* floe.query_memory_limit bounds the string (arena.h) */
		if (arena_over_limit(ctx->arena))
			return memacct_error(arena_account(ctx->arena), ctx->err);
	}
	if (n)
		memcpy(s->buf + s->len, p, n);
	s->len += n;
	return FLOE_OK;
}

static int
stragg_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR,
			   "string_agg is a two-argument aggregate: call update2");
}

static int
stragg_update2(FuncCtx *ctx, const Vector *arg, const Vector *arg2, uint32_t count,
	       void **states)
{
	VectorView v, d;
	const strview *vs, *ds;
	uint32_t i;

	vector_view(arg, &v);
	vector_view(arg2, &d);
	vs = v.data;
	ds = d.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i), kd = ARGK(d, i);
		StrAggState *s = states[i];
		uint32_t dl = 0;
		if (!ARGVALID(v, k))
			continue;
		if (ARGVALID(d, kd)) {
			dl = ds[kd].len;
			TRY(stragg_append(ctx, s, strview_data(&ds[kd]), dl));
		}
		if (!s->any)
			s->lead = dl;
		TRY(stragg_append(ctx, s, strview_data(&vs[k]), vs[k].len));
		s->any = true;
	}
	return FLOE_OK;
}

static int
stragg_combine(FuncCtx *ctx, void *dst, const void *src)
{
	StrAggState *d = dst;
	const StrAggState *s = src;

	if (!s->any)
		return FLOE_OK;
	if (!d->any)
		d->lead = s->lead;
	TRY(stragg_append(ctx, d, s->buf, s->len));
	d->any = true;
	return FLOE_OK;
}

static int
stragg_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	StrAggState *s = st;

	if (!s->any) {
		out_null(out, row);
		return FLOE_OK;
	}
	vector_set_string(out, row, s->buf + s->lead, s->len - s->lead);
	return FLOE_OK;
}

static const AggFunc agg_string_agg = { "string_agg", sizeof(StrAggState), stragg_init,
					stragg_update, stragg_combine, stragg_final,
					stragg_update2 };

/* ---- signatures ------------------------------------------------------------------ */

#define I2 TYPE_INT16
#define I4 TYPE_INT32
#define I8 TYPE_INT64
#define F4 TYPE_FLOAT32
#define F8 TYPE_FLOAT64
#define NU TYPE_DECIMAL
#define TX TYPE_TEXT
#define A1(nm, a, r) { nm, NULL, 1, 0, { a }, r, FRET_FIXED, false, false }
#define A1R(nm, a) { nm, NULL, 1, 0, { a }, 0, FRET_ARG0, false, false }

const ScalarFunc func_agg_sigs[] = {
	{ "count", NULL, 0, 0, { 0 }, I8, FRET_FIXED, false, false },
	A1("count", FARG_ANY, I8),
	A1("sum", I2, I8), A1("sum", I4, I8), A1("sum", I8, NU), A1("sum", NU, NU),
	A1("sum", F4, F4), A1("sum", F8, F8), A1("sum", TYPE_INTERVAL, TYPE_INTERVAL),
	A1("avg", I2, NU), A1("avg", I4, NU), A1("avg", I8, NU), A1("avg", NU, NU),
	A1("avg", F4, F8), A1("avg", F8, F8), A1("avg", TYPE_INTERVAL, TYPE_INTERVAL),
#define MM(nm)                                                                         \
	A1R(nm, I2), A1R(nm, I4), A1R(nm, I8), A1R(nm, F4), A1R(nm, F8), A1R(nm, NU),  \
	A1R(nm, TX), A1R(nm, TYPE_DATE), A1R(nm, TYPE_TIME), A1R(nm, TYPE_TIMESTAMP),  \
	A1R(nm, TYPE_TIMESTAMPTZ), A1R(nm, TYPE_INTERVAL)
	MM("min"), MM("max"),
	A1("bool_and", TYPE_BOOL, TYPE_BOOL), A1("bool_or", TYPE_BOOL, TYPE_BOOL),
	A1("every", TYPE_BOOL, TYPE_BOOL),
	A1("bit_and", I2, I2), A1("bit_and", I4, I4), A1("bit_and", I8, I8),
	A1("bit_or", I2, I2), A1("bit_or", I4, I4), A1("bit_or", I8, I8),
	{ "string_agg", NULL, 2, 0, { TX, TX }, TX, FRET_FIXED, false, false },
	{ "string_agg", NULL, 2, 0, { TYPE_BYTEA, TYPE_BYTEA }, TYPE_BYTEA, FRET_FIXED, false, false },
};

const AggFunc *const func_agg_impls[] = {
	&agg_count, &agg_count,
	&agg_sum_i16, &agg_sum_i32, &agg_sum_i64, &agg_sum_dec,
	&agg_sum_f32, &agg_sum_f64, &agg_sum_iv,
	&agg_avg_i16, &agg_avg_i32, &agg_avg_i64, &agg_avg_dec,
	&agg_avg_f32, &agg_avg_f64, &agg_avg_iv,
	&agg_min_i16, &agg_min_i32, &agg_min_i64, &agg_min_f32, &agg_min_f64, &agg_min_dec,
	&agg_min_text, &agg_min_i32, &agg_min_i64, &agg_min_i64, &agg_min_i64, &agg_min_iv,
	&agg_max_i16, &agg_max_i32, &agg_max_i64, &agg_max_f32, &agg_max_f64, &agg_max_dec,
	&agg_max_text, &agg_max_i32, &agg_max_i64, &agg_max_i64, &agg_max_i64, &agg_max_iv,
	&agg_bool_and, &agg_bool_or, &agg_bool_and,
	&agg_band_i16, &agg_band_i32, &agg_band_i64,
	&agg_bor_i16, &agg_bor_i32, &agg_bor_i64,
	&agg_string_agg, &agg_string_agg,
};

const int func_agg_count = sizeof func_agg_sigs / sizeof func_agg_sigs[0];

_Static_assert(sizeof func_agg_sigs / sizeof func_agg_sigs[0] ==
	       sizeof func_agg_impls / sizeof func_agg_impls[0], "agg tables out of step");
