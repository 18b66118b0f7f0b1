/*
 * agg_stats.c — statistical aggregates: variance, var_samp, var_pop,
 * stddev, stddev_samp, stddev_pop; and of two variables (Y, X), in double
 * precision: regr_count, regr_sxx / syy / sxy, regr_avgx / avgy,
 * covar_pop / samp, corr, regr_r2, regr_slope, regr_intercept.
 *
 * Spec: PostgreSQL 15 documentation 9.21 table "Aggregate Functions for
 * Statistics" and utils/adt/float.c (float8_accum, float8_combine,
 * float8_var_samp ...) and numeric.c (numeric_accum,
 * numeric_stddev_internal):
 *   - real/double precision arguments -> double precision, accumulated with
 *     the Youngs-Cramer algorithm exactly as float8_accum does (N, Sx, Sxx),
 *     so results agree with PostgreSQL bit for bit;
 *   - smallint/integer/bigint/numeric arguments -> numeric, computed exactly
 *     from N, sum(x) and sum(x^2) in int128: (N*Sxx - Sx^2) / (N*(N-1))
 *     rounded half away from zero to PostgreSQL's scale for it
 *     (select_div_scale of that numerator and denominator: 16 significant
 *     digits, at least 2*scale), which is the row's display scale; stddev
 *     is the correctly rounded integer square root at that scale.  Both
 *     are stored at the result type's scale (20, or 2*scale when larger:
 *     func_registry.c), so a quotient needing more digits than that (a
 *     variance below 1e-4) prints at the type's scale; a
 *     numerator <= 0 gives 0 (PostgreSQL's guard against roundoff);
 *   - no rows -> NULL; the sample variants of one row -> NULL.
 * Sums that overflow 128 bits (huge bigint/numeric inputs) are 22003
 * "value overflows numeric format".
 *
 * INTERFACE ROUTINES
 *   func_agg_stats_sigs[], func_agg_stats_impls[], func_agg_stats_count
 *   (searched by func_registry.c; callers use func_resolve_agg)
 */
#include <math.h>
#include "func/func_internal.h"
#include "types/decimal.h"

enum { V_SAMP = 0, V_POP = 1 };

/* ---- double precision: Youngs-Cramer ------------------------------------ */

typedef struct FState {
	double n, sx, sxx;
} FState;

static void
f_init(void *s)
{
	memset(s, 0, sizeof(FState));
}

static int
overflow(FuncCtx *ctx)
{
	return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
			   "value out of range: overflow");
}

static inline int
f_accum(FuncCtx *ctx, FState *s, double x)
{
	double n0 = s->n, sx0 = s->sx;

	s->n += 1.0;
	s->sx += x;
	if (n0 > 0.0) {
		double tmp = x * s->n - s->sx;
		s->sxx += tmp * tmp / (s->n * n0);
		if (isinf(s->sx) || isinf(s->sxx)) {
			if (!isinf(sx0) && !isinf(x))
				return overflow(ctx);
			s->sxx = NAN;
		}
	} else if (isnan(x) || isinf(x)) {
		s->sxx = NAN;
	}
	return FLOE_OK;
}

#define F_UPDATE(fname, T)                                                             \
	static int fname(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states) \
	{                                                                              \
		VectorView v;                                                          \
		const T *d;                                                            \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			if (ARGVALID(v, k))                                            \
				TRY(f_accum(ctx, states[i], (double)d[k]));            \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

F_UPDATE(f32_update, float)
F_UPDATE(f64_update, double)

static int
f_combine(FuncCtx *ctx, void *dst, const void *src)
{
	FState *d = dst;
	const FState *s = src;
	double n, sx, tmp, sxx;

	if (s->n == 0.0)
		return FLOE_OK;
	if (d->n == 0.0) {
		*d = *s;
		return FLOE_OK;
	}
	n = d->n + s->n;
	sx = d->sx + s->sx;
	if (isinf(sx) && !isinf(d->sx) && !isinf(s->sx))
		return overflow(ctx);
	tmp = d->sx / d->n - s->sx / s->n;
	sxx = d->sxx + s->sxx + d->n * s->n * tmp * tmp / n;
	if (isinf(sxx) && !isinf(d->sxx) && !isinf(s->sxx))
		return overflow(ctx);
	d->n = n;
	d->sx = sx;
	d->sxx = sxx;
	return FLOE_OK;
}

static int
f_final(FuncCtx *ctx, FState *s, Vector *out, uint32_t row, int kind, bool root)
{
	double r;

	if (s->n == 0.0 || (kind == V_SAMP && s->n <= 1.0)) {
		out_null(out, row);
		return FLOE_OK;
	}
	r = s->sxx / (kind == V_SAMP ? s->n - 1.0 : s->n);
	((double *)out->data)[row] = root ? sqrt(r) : r;
	out_valid(out, row);
	return FLOE_OK;
}

#define F_FINAL(fname, kind, root)                                                     \
	static int fname(FuncCtx *ctx, void *st, Vector *out, uint32_t row)            \
	{                                                                              \
		return f_final(ctx, st, out, row, kind, root);                         \
	}

F_FINAL(f_var_samp, V_SAMP, false)
F_FINAL(f_var_pop, V_POP, false)
F_FINAL(f_sd_samp, V_SAMP, true)
F_FINAL(f_sd_pop, V_POP, true)

/* ---- exact: integers and numeric ------------------------------------------ */

typedef struct NState {
	int64_t n;
	int128 sx;          /* at scale `scale` */
	int128 sxx;         /* at scale 2 * scale */
	int32_t scale;
} NState;

static void
n_init(void *s)
{
	memset(s, 0, sizeof(NState));
}

static int
num_overflow(FuncCtx *ctx)
{
	return decimal_overflow_error(ctx->err);
}

static inline int
n_accum(FuncCtx *ctx, NState *s, int128 x)
{
	int128 sq;

	if (__builtin_mul_overflow(x, x, &sq) || __builtin_add_overflow(s->sxx, sq, &s->sxx) ||
	    __builtin_add_overflow(s->sx, x, &s->sx))
		return num_overflow(ctx);
	s->n++;
	return FLOE_OK;
}

#define N_UPDATE(fname, T)                                                             \
	static int fname(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states) \
	{                                                                              \
		VectorView v;                                                          \
		const T *d;                                                            \
		int scale = arg->type.id == TYPE_DECIMAL ? arg->type.scale : 0;        \
		uint32_t i;                                                            \
		vector_view(arg, &v);                                                  \
		d = v.data;                                                            \
		for (i = 0; i < count; i++) {                                          \
			uint32_t k = ARGK(v, i);                                       \
			NState *s = states[i];                                         \
			if (!ARGVALID(v, k))                                           \
				continue;                                              \
			s->scale = scale;                                              \
			TRY(n_accum(ctx, s, (int128)d[k]));                            \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

N_UPDATE(i16_update, int16_t)
N_UPDATE(i32_update, int32_t)
N_UPDATE(i64_update, int64_t)
N_UPDATE(dec_update, int128)

static int
n_combine(FuncCtx *ctx, void *dst, const void *src)
{
	NState *d = dst;
	const NState *s = src;

	if (!s->n)
		return FLOE_OK;
	if (__builtin_add_overflow(d->sx, s->sx, &d->sx) ||
	    __builtin_add_overflow(d->sxx, s->sxx, &d->sxx))
		return num_overflow(ctx);
	d->n += s->n;
	d->scale = s->scale;
	return FLOE_OK;
}

/* Row `row` of an unconstrained result displays at dsc (vector.h). */
static void
show_at(Vector *out, uint32_t row, int dsc)
{
	if (out->type.precision != 0 || dsc > out->type.scale)
		return;
	if (!out->dscale && dsc == out->type.scale && out->type.scale != NUMERIC_DEFAULT_SCALE)
		return;
	vector_ensure_dscale(out);
	out->dscale[row] = (uint8_t)dsc;
}

static int
n_final(FuncCtx *ctx, NState *s, Vector *out, uint32_t row, int kind, bool root)
{
	int128 num, sq, den, var;
	int so = out->type.scale, s2 = 2 * s->scale, rs, pad = 0;

	if (s->n == 0 || (kind == V_SAMP && s->n <= 1)) {
		out_null(out, row);
		return FLOE_OK;
	}
	/* N * Sxx - Sx^2, at scale 2s */
	if (__builtin_mul_overflow((int128)s->n, s->sxx, &num) ||
	    __builtin_mul_overflow(s->sx, s->sx, &sq) || __builtin_sub_overflow(num, sq, &num))
		return num_overflow(ctx);
	if (num <= 0) {
		((int128 *)out->data)[row] = 0;
		show_at(out, row, 0);          /* PostgreSQL's const_zero: "0" */
		out_valid(out, row);
		return FLOE_OK;
	}
	den = kind == V_SAMP ? (int128)s->n * (int128)(s->n - 1) : (int128)s->n * (int128)s->n;
	/* PostgreSQL: select_div_scale(N*Sxx - Sx^2, den); stddev's square
	 * root at the same scale.  Computed there when the output scale
	 * holds it, then stored at the output scale (trailing zeros). */
	rs = decimal_div_scale(num, s2, den, 0);
	if (rs < so && out->type.precision == 0) {
		so = rs;
		pad = out->type.scale - rs;
	}
	if (func_dec_div(num, s2, den, 0, so, &var) != FLOE_OK)
		return num_overflow(ctx);
	if (root) {
		/* sqrt(var / 10^so) * 10^so = sqrt(var * 10^so), correctly rounded */
		int128 x;
		if (so <= 38 && !__builtin_mul_overflow(var, func_pow10[so], &x)) {
			uint128 r = func_isqrt128((uint128)x);
			if ((uint128)x - r * r > r)
				r++;
			var = (int128)r;
		} else if (decimal_sqrt(var, so, so, &var, ctx->err) != FLOE_OK) {
			return FLOE_ERR;        /* wider arithmetic (decimal.c) */
		}
	}
	if (pad && func_dec_rescale(var, so, so + pad, &var) != FLOE_OK)
		return num_overflow(ctx);
	((int128 *)out->data)[row] = var;
	show_at(out, row, so);
	out_valid(out, row);
	return FLOE_OK;
}

#define N_FINAL(fname, kind, root)                                                     \
	static int fname(FuncCtx *ctx, void *st, Vector *out, uint32_t row)            \
	{                                                                              \
		return n_final(ctx, st, out, row, kind, root);                         \
	}

N_FINAL(n_var_samp, V_SAMP, false)
N_FINAL(n_var_pop, V_POP, false)
N_FINAL(n_sd_samp, V_SAMP, true)
N_FINAL(n_sd_pop, V_POP, true)

/* ---- two-variable: regr_*, covar_*, corr (float.c float8_regr_accum) --------- */

/* N, Sx, Sxx = sum((X - Sx/N)^2), Sy, Syy, Sxy = sum((X - Sx/N)(Y - Sy/N)),
 * by the Youngs-Cramer algorithm as float8_regr_accum, so results agree
 * with PostgreSQL's bit for bit.  Y is the first argument. */
typedef struct RState {
	double n, sx, sxx, sy, syy, sxy;
} RState;

static void
r_init(void *s)
{
	memset(s, 0, sizeof(RState));
}

static int
r_accum(FuncCtx *ctx, RState *s, double y, double x)
{
	double n0 = s->n, sx0 = s->sx, sy0 = s->sy;

	s->n += 1.0;
	s->sx += x;
	s->sy += y;
	if (n0 > 0.0) {
		double tx = x * s->n - s->sx, ty = y * s->n - s->sy, scale = 1.0 / (s->n * n0);
		s->sxx += tx * tx * scale;
		s->syy += ty * ty * scale;
		s->sxy += tx * ty * scale;
		if (isinf(s->sx) || isinf(s->sxx) || isinf(s->sy) || isinf(s->syy) || isinf(s->sxy)) {
			if (((isinf(s->sx) || isinf(s->sxx)) && !isinf(sx0) && !isinf(x)) ||
			    ((isinf(s->sy) || isinf(s->syy)) && !isinf(sy0) && !isinf(y)) ||
			    (isinf(s->sxy) && !isinf(sx0) && !isinf(x) && !isinf(sy0) && !isinf(y)))
				return overflow(ctx);
			if (isinf(s->sxx))
				s->sxx = NAN;
			if (isinf(s->syy))
				s->syy = NAN;
			if (isinf(s->sxy))
				s->sxy = NAN;
		}
	} else {
		/* a first Inf or NaN makes the dependent sums NaN */
		if (isnan(x) || isinf(x))
			s->sxx = s->sxy = NAN;
		if (isnan(y) || isinf(y))
			s->syy = s->sxy = NAN;
	}
	return FLOE_OK;
}

static int
r_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	(void)arg;
	(void)count;
	(void)states;
	return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR,
			   "a two-argument aggregate: call update2");
}

/* a row counts when both arguments are non-NULL (the functions are strict) */
static int
r_update2(FuncCtx *ctx, const Vector *argy, const Vector *argx, uint32_t count, void **states)
{
	VectorView vy, vx;
	const double *dy, *dx;
	uint32_t i;

	vector_view(argy, &vy);
	vector_view(argx, &vx);
	dy = vy.data;
	dx = vx.data;
	for (i = 0; i < count; i++) {
		uint32_t ky = ARGK(vy, i), kx = ARGK(vx, i);
		if (ARGVALID(vy, ky) && ARGVALID(vx, kx))
			TRY(r_accum(ctx, states[i], dy[ky], dx[kx]));
	}
	return FLOE_OK;
}

static int
r_combine(FuncCtx *ctx, void *dst, const void *src)
{
	RState *d = dst;
	const RState *s = src;
	double n, t1, t2, sxx, syy, sxy;

	if (s->n == 0.0)
		return FLOE_OK;
	if (d->n == 0.0) {
		*d = *s;
		return FLOE_OK;
	}
	n = d->n + s->n;
	t1 = d->sx / d->n - s->sx / s->n;
	t2 = d->sy / d->n - s->sy / s->n;
	sxx = d->sxx + s->sxx + d->n * s->n * t1 * t1 / n;
	syy = d->syy + s->syy + d->n * s->n * t2 * t2 / n;
	sxy = d->sxy + s->sxy + d->n * s->n * t1 * t2 / n;
	if ((isinf(d->sx + s->sx) && !isinf(d->sx) && !isinf(s->sx)) ||
	    (isinf(d->sy + s->sy) && !isinf(d->sy) && !isinf(s->sy)) ||
	    (isinf(sxx) && !isinf(d->sxx) && !isinf(s->sxx)) ||
	    (isinf(syy) && !isinf(d->syy) && !isinf(s->syy)) ||
	    (isinf(sxy) && !isinf(d->sxy) && !isinf(s->sxy)))
		return overflow(ctx);
	d->sx += s->sx;
	d->sy += s->sy;
	d->n = n;
	d->sxx = sxx;
	d->syy = syy;
	d->sxy = sxy;
	return FLOE_OK;
}

enum { R_SXX, R_SYY, R_SXY, R_AVGX, R_AVGY, R_COVAR_POP, R_COVAR_SAMP, R_CORR, R_R2, R_SLOPE,
       R_INTERCEPT };

/* The final functions (float8_regr_sxx ... float8_regr_intercept): NULL
 * without rows; vertical / horizontal lines as the standard says. */
static int
r_final(FuncCtx *ctx, const RState *s, Vector *out, uint32_t row, int kind)
{
	double r = 0;
	bool null = s->n < 1.0;

	(void)ctx;
	if (!null) {
		switch (kind) {
		case R_SXX: r = s->sxx; break;
		case R_SYY: r = s->syy; break;
		case R_SXY: r = s->sxy; break;
		case R_AVGX: r = s->sx / s->n; break;
		case R_AVGY: r = s->sy / s->n; break;
		case R_COVAR_POP: r = s->sxy / s->n; break;
		case R_COVAR_SAMP:
			null = s->n < 2.0;
			r = null ? 0 : s->sxy / (s->n - 1.0);
			break;
		case R_CORR:
			null = s->sxx == 0 || s->syy == 0;
			r = null ? 0 : s->sxy / sqrt(s->sxx * s->syy);
			break;
		case R_R2:
			null = s->sxx == 0;
			r = null ? 0 : s->syy == 0 ? 1.0 : (s->sxy * s->sxy) / (s->sxx * s->syy);
			break;
		case R_SLOPE:
			null = s->sxx == 0;
			r = null ? 0 : s->sxy / s->sxx;
			break;
		default:   /* R_INTERCEPT */
			null = s->sxx == 0;
			r = null ? 0 : (s->sy - s->sx * s->sxy / s->sxx) / s->n;
			break;
		}
	}
	if (null) {
		out_null(out, row);
		return FLOE_OK;
	}
	((double *)out->data)[row] = r;
	out_valid(out, row);
	return FLOE_OK;
}

static int
r_count_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	(void)ctx;
	((int64_t *)out->data)[row] = (int64_t)((const RState *)st)->n;
	out_valid(out, row);
	return FLOE_OK;
}

#define R_AGG(var, nm, kind)                                                           \
	static int var##_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)     \
	{                                                                              \
		return r_final(ctx, st, out, row, kind);                               \
	}                                                                              \
	static const AggFunc var = { nm, sizeof(RState), r_init, r_update, r_combine,  \
				     var##_final, r_update2 }

R_AGG(agg_regr_sxx, "regr_sxx", R_SXX);
R_AGG(agg_regr_syy, "regr_syy", R_SYY);
R_AGG(agg_regr_sxy, "regr_sxy", R_SXY);
R_AGG(agg_regr_avgx, "regr_avgx", R_AVGX);
R_AGG(agg_regr_avgy, "regr_avgy", R_AVGY);
R_AGG(agg_covar_pop, "covar_pop", R_COVAR_POP);
R_AGG(agg_covar_samp, "covar_samp", R_COVAR_SAMP);
R_AGG(agg_corr, "corr", R_CORR);
R_AGG(agg_regr_r2, "regr_r2", R_R2);
R_AGG(agg_regr_slope, "regr_slope", R_SLOPE);
R_AGG(agg_regr_intercept, "regr_intercept", R_INTERCEPT);
static const AggFunc agg_regr_count = { "regr_count", sizeof(RState), r_init, r_update, r_combine,
					r_count_final, r_update2 };

/* ---- tables ------------------------------------------------------------------ */

#define FAGG(var, nm, upd, fin) \
	static const AggFunc var = { nm, sizeof(FState), f_init, upd, f_combine, fin, NULL }
#define NAGG(var, nm, upd, fin) \
	static const AggFunc var = { nm, sizeof(NState), n_init, upd, n_combine, fin, NULL }

/* one AggFunc per (final function, input kind) */
#define KINDS(nm, ffin, nfin, sfx)                                                     \
	FAGG(f32_##sfx, nm, f32_update, ffin);                                         \
	FAGG(f64_##sfx, nm, f64_update, ffin);                                         \
	NAGG(i16_##sfx, nm, i16_update, nfin);                                         \
	NAGG(i32_##sfx, nm, i32_update, nfin);                                         \
	NAGG(i64_##sfx, nm, i64_update, nfin);                                         \
	NAGG(dec_##sfx, nm, dec_update, nfin)

KINDS("var_samp", f_var_samp, n_var_samp, vs);
KINDS("var_pop", f_var_pop, n_var_pop, vp);
KINDS("stddev_samp", f_sd_samp, n_sd_samp, ss);
KINDS("stddev_pop", f_sd_pop, n_sd_pop, sp);

#define SIG(nm, a, r) { nm, NULL, 1, 0, { a }, r, FRET_FIXED, false, false }
#define SIGS(nm)                                                                       \
	SIG(nm, TYPE_FLOAT32, TYPE_FLOAT64), SIG(nm, TYPE_FLOAT64, TYPE_FLOAT64),      \
	SIG(nm, TYPE_INT16, TYPE_DECIMAL), SIG(nm, TYPE_INT32, TYPE_DECIMAL),          \
	SIG(nm, TYPE_INT64, TYPE_DECIMAL), SIG(nm, TYPE_DECIMAL, TYPE_DECIMAL)
#define IMPLS(sfx) &f32_##sfx, &f64_##sfx, &i16_##sfx, &i32_##sfx, &i64_##sfx, &dec_##sfx

#define SIG2(nm, r) { nm, NULL, 2, 0, { TYPE_FLOAT64, TYPE_FLOAT64 }, r, FRET_FIXED, false, false }

const ScalarFunc func_agg_stats_sigs[] = {
	SIGS("variance"), SIGS("var_samp"), SIGS("var_pop"),
	SIGS("stddev"), SIGS("stddev_samp"), SIGS("stddev_pop"),
	SIG2("regr_count", TYPE_INT64), SIG2("regr_sxx", TYPE_FLOAT64), SIG2("regr_syy", TYPE_FLOAT64),
	SIG2("regr_sxy", TYPE_FLOAT64), SIG2("regr_avgx", TYPE_FLOAT64), SIG2("regr_avgy", TYPE_FLOAT64),
	SIG2("covar_pop", TYPE_FLOAT64), SIG2("covar_samp", TYPE_FLOAT64), SIG2("corr", TYPE_FLOAT64),
	SIG2("regr_r2", TYPE_FLOAT64), SIG2("regr_slope", TYPE_FLOAT64),
	SIG2("regr_intercept", TYPE_FLOAT64),
};

const AggFunc *const func_agg_stats_impls[] = {
	IMPLS(vs), IMPLS(vs), IMPLS(vp), IMPLS(ss), IMPLS(ss), IMPLS(sp),
	&agg_regr_count, &agg_regr_sxx, &agg_regr_syy, &agg_regr_sxy, &agg_regr_avgx, &agg_regr_avgy,
	&agg_covar_pop, &agg_covar_samp, &agg_corr, &agg_regr_r2, &agg_regr_slope, &agg_regr_intercept,
};

const int func_agg_stats_count = sizeof func_agg_stats_sigs / sizeof func_agg_stats_sigs[0];

_Static_assert(sizeof func_agg_stats_sigs / sizeof func_agg_stats_sigs[0] ==
	       sizeof func_agg_stats_impls / sizeof func_agg_stats_impls[0],
	       "stats agg tables out of step");
