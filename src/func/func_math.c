/*
 * func_math.c — mathematical functions: abs (@), round, trunc, ceil/ceiling,
 * floor, sign, sqrt (|/), cbrt (||/), power/pow (^), exp, ln, log/log10, pi,
 * scale, min_scale, trim_scale,
 * trigonometry (sin cos tan cot asin acos atan atan2 degrees radians),
 * gcd, lcm, factorial, div(numeric), and to_char(number, template) (EEEE:
 * scientific notation as numeric_out_sci).
 *
 * Spec: PostgreSQL 15 documentation 9.3 "Mathematical Functions and
 * Operators" and utils/adt/float.c, numeric.c, int.c:
 *   - abs of the most negative integer is 22003 "<type> out of range";
 *   - round(double precision) rounds half to even (rint), round(numeric)
 *     half away from zero; round/trunc(numeric, n) with n < 0 round to tens,
 *     hundreds...; the result keeps the argument's scale as its type's
 *     and displays n digits (max(n, 0)) as PostgreSQL (vector.h, dscale);
 *     abs keeps each row's display scale;
 *   - ceil/floor/round/trunc of numeric without n give scale 0;
 *   - sqrt of a negative, ln/log of zero or a negative, 0 ^ negative and
 *     negative ^ fractional raise PostgreSQL's 2201F / 2201E errors;
 *     infinite results of finite inputs are 22003 overflow.
 * sqrt, exp, ln, log, log10, log(b, x), power/pow/^ of numeric return
 * numeric (decimal.h: decimal_exp ...) with each row at PostgreSQL's
 * result scale (dscale), stored at a fixed physical scale per expression
 * (FRET_DEC_FN: max(arguments' scales, 20 exp / 30 logarithms / 16 power /
 * 19 sqrt); constants get their exact scale, func_math_const_scale); sqrt
 * is the correctly rounded integer square root (wider arithmetic when
 * 128 bits are short).  gcd/lcm(numeric) display at the larger scale;
 * factorial(bigint) is numeric.  Integer and float arguments resolve to
 * the double precision versions, as in PostgreSQL.
 *
 * INTERFACE ROUTINES
 *   func_math_table[] / func_math_count   (searched by func_registry.c)
 *   func_math_const_scale(f, consts, nargs) exact scale of exp(2.0) ...
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "func/func_internal.h"
#include "types/decimal.h"

static int
err_range(FuncCtx *ctx, TypeId id)
{
	const char *what = id == TYPE_INT16 ? "smallint" : id == TYPE_INT32 ? "integer" : "bigint";
	return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s out of range", what);
}

/*
 * Kernel template over 1 or 2 args: BODY sees x (and y when NARGS2), sets r,
 * or returns an error.  y is read only when the function has 2 arguments.
 */
#define MATH_KERNEL(fname, TA, TB, TO, BODY)                                           \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView va, vb;                                                     \
		const TA *a;                                                           \
		const TB *b = NULL;                                                    \
		TO *o = out->data;                                                     \
		uint32_t i;                                                            \
		vector_view(&args[0], &va);                                            \
		a = va.data;                                                           \
		if (nargs > 1) {                                                       \
			vector_view(&args[1], &vb);                                    \
			b = vb.data;                                                   \
		}                                                                      \
		for (i = 0; i < count; i++) {                                          \
			uint32_t ka = ARGK(va, i), kb = 0;                             \
			TA x;                                                          \
			TB y = 0;                                                      \
			TO r;                                                          \
			if (!ARGVALID(va, ka)) {                                       \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			if (b) {                                                       \
				kb = ARGK(vb, i);                                      \
				if (!ARGVALID(vb, kb)) {                               \
					out_null(out, i);                              \
					continue;                                      \
				}                                                      \
				y = b[kb];                                             \
			}                                                              \
			x = a[ka];                                                     \
			(void)y;                                                       \
			BODY;                                                          \
			o[i] = r;                                                      \
			out_valid(out, i);                                             \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

MATH_KERNEL(abs_i16, int16_t, int32_t, int16_t,
	    if (x == INT16_MIN) return err_range(ctx, TYPE_INT16); r = (int16_t)(x < 0 ? -x : x))
MATH_KERNEL(abs_i32, int32_t, int32_t, int32_t,
	    if (x == INT32_MIN) return err_range(ctx, TYPE_INT32); r = x < 0 ? -x : x)
MATH_KERNEL(abs_i64, int64_t, int32_t, int64_t,
	    if (x == INT64_MIN) return err_range(ctx, TYPE_INT64); r = x < 0 ? -x : x)
MATH_KERNEL(abs_f32, float, int32_t, float, r = fabsf(x))
MATH_KERNEL(abs_f64, double, int32_t, double, r = fabs(x))
MATH_KERNEL(abs_dec_k, int128, int32_t, int128, r = x < 0 ? -x : x)

/* abs(numeric) keeps each row's display scale (vector.h, dscale) */
static int
abs_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v;
	const uint8_t *ds = vector_dscale_of(&args[0]);
	uint32_t i;

	TRY(abs_dec_k(ctx, args, nargs, count, out));
	if (!vector_varies(&args[0]) || out->type.precision != 0 ||
	    out->type.scale != args[0].type.scale)
		return FLOE_OK;
	vector_view(&args[0], &v);
	vector_ensure_dscale(out);
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		out->dscale[i] = (uint8_t)vector_dscale_at(&args[0], ds, k, ((const int128 *)v.data)[k]);
	}
	return FLOE_OK;
}

MATH_KERNEL(round_f64, double, int32_t, double, r = rint(x))
MATH_KERNEL(trunc_f64, double, int32_t, double, r = trunc(x))
MATH_KERNEL(ceil_f64, double, int32_t, double, r = ceil(x))
MATH_KERNEL(floor_f64, double, int32_t, double, r = floor(x))
MATH_KERNEL(sign_f64, double, int32_t, double, r = x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0)
MATH_KERNEL(sign_dec, int128, int32_t, int128, r = x > 0 ? 1 : x < 0 ? -1 : 0)

#define FLOAT_RESULT(expr)                                                             \
	r = (expr);                                                                    \
	if (isinf(r) && !isinf(x))                                                     \
		return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,       \
				   "value out of range: overflow")

MATH_KERNEL(sqrt_f64, double, int32_t, double,
	    if (x < 0) return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
					  "cannot take square root of a negative number");
	    r = sqrt(x))
MATH_KERNEL(cbrt_f64, double, int32_t, double, r = cbrt(x))
MATH_KERNEL(exp_f64, double, int32_t, double,
	    r = exp(x);
	    if (isinf(r) && !isinf(x)) return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							  "value out of range: overflow");
	    if (r == 0 && !isinf(x)) return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							"value out of range: underflow"))

#define LOG_CHECK                                                                      \
	if (x == 0)                                                                    \
		return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_LOG,         \
				   "cannot take logarithm of zero");                   \
	if (x < 0)                                                                     \
		return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_LOG,         \
				   "cannot take logarithm of a negative number")

MATH_KERNEL(ln_f64, double, int32_t, double, LOG_CHECK; r = log(x))
MATH_KERNEL(log10_f64, double, int32_t, double, LOG_CHECK; r = log10(x))

MATH_KERNEL(power_f64, double, double, double,
	    if (x == 0 && y < 0)
		    return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
				       "zero raised to a negative power is undefined");
	    if (x < 0 && floor(y) != y && !isinf(y))
		    return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
				       "a negative number raised to a non-integer power yields a complex result");
	    r = pow(x, y);
	    if (isinf(r) && !isinf(x) && !isinf(y))
		    return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				       "value out of range: overflow");
	    if (r == 0 && x != 0 && !isinf(y) && !isinf(x))
		    return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				       "value out of range: underflow"))

#define RANGE_CHECK(cond)                                                              \
	if (!(cond))                                                                   \
		return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,       \
				   "input is out of range")

MATH_KERNEL(sin_f64, double, int32_t, double, RANGE_CHECK(!isinf(x)); r = sin(x))
MATH_KERNEL(cos_f64, double, int32_t, double, RANGE_CHECK(!isinf(x)); r = cos(x))
MATH_KERNEL(tan_f64, double, int32_t, double, RANGE_CHECK(!isinf(x)); r = tan(x))
MATH_KERNEL(cot_f64, double, int32_t, double, RANGE_CHECK(!isinf(x)); r = 1.0 / tan(x))
MATH_KERNEL(asin_f64, double, int32_t, double, RANGE_CHECK(isnan(x) || (x >= -1 && x <= 1)); r = asin(x))
MATH_KERNEL(acos_f64, double, int32_t, double, RANGE_CHECK(isnan(x) || (x >= -1 && x <= 1)); r = acos(x))
MATH_KERNEL(atan_f64, double, int32_t, double, r = atan(x))
MATH_KERNEL(atan2_f64, double, double, double, r = atan2(x, y))
/* hyperbolic functions (float.c dsinh ... datanh): overflow gives infinity */
MATH_KERNEL(sinh_f64, double, int32_t, double, r = sinh(x))
MATH_KERNEL(cosh_f64, double, int32_t, double, r = cosh(x))
MATH_KERNEL(tanh_f64, double, int32_t, double, r = tanh(x))
MATH_KERNEL(asinh_f64, double, int32_t, double, r = asinh(x))
MATH_KERNEL(acosh_f64, double, int32_t, double, RANGE_CHECK(!(x < 1.0)); r = acosh(x))
MATH_KERNEL(atanh_f64, double, int32_t, double, RANGE_CHECK(!(x < -1.0 || x > 1.0));
	    r = x == -1.0 ? -INFINITY : x == 1.0 ? INFINITY : atanh(x))
MATH_KERNEL(degrees_f64, double, int32_t, double, r = x * (180.0 / M_PI))
MATH_KERNEL(radians_f64, double, int32_t, double, r = x * (M_PI / 180.0))

/* gcd/lcm (int.c int4gcd...): on magnitudes; results that do not fit the
 * type (gcd(MIN, 0), gcd(MIN, MIN), lcm overflow) are "<type> out of range" */
static uint64_t
ugcd(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static inline uint64_t
mag(int64_t x)
{
	return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

/* gcd/lcm of x, y with results bounded by max; FLOE_ERR when out of range */
static int
gcd_lcm(int64_t x, int64_t y, uint64_t max, bool lcm, int64_t *out)
{
	uint64_t g = ugcd(mag(x), mag(y)), l;

	if (!lcm) {
		if (g > max)
			return FLOE_ERR;
		*out = (int64_t)g;
		return FLOE_OK;
	}
	if (x == 0 || y == 0) {
		*out = 0;
		return FLOE_OK;
	}
	if (__builtin_mul_overflow(mag(x) / g, mag(y), &l) || l > max)
		return FLOE_ERR;
	*out = (int64_t)l;
	return FLOE_OK;
}

MATH_KERNEL(gcd_i32, int32_t, int32_t, int32_t,
	    int64_t v; if (gcd_lcm(x, y, INT32_MAX, false, &v)) return err_range(ctx, TYPE_INT32);
	    r = (int32_t)v)
MATH_KERNEL(lcm_i32, int32_t, int32_t, int32_t,
	    int64_t v; if (gcd_lcm(x, y, INT32_MAX, true, &v)) return err_range(ctx, TYPE_INT32);
	    r = (int32_t)v)
MATH_KERNEL(gcd_i64, int64_t, int64_t, int64_t,
	    int64_t v; if (gcd_lcm(x, y, INT64_MAX, false, &v)) return err_range(ctx, TYPE_INT64);
	    r = v)
MATH_KERNEL(lcm_i64, int64_t, int64_t, int64_t,
	    int64_t v; if (gcd_lcm(x, y, INT64_MAX, true, &v)) return err_range(ctx, TYPE_INT64);
	    r = v)

/* div(numeric, numeric): truncated integer quotient of aligned values */
MATH_KERNEL(div_dec_al, int128, int128, int128,
	    if (y == 0) return floe_errorf(ctx->err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
	    r = x / y)

/* Row k of numeric vector v at its display scale: value, *ds = the scale */
static int128
at_display(const Vector *v, const int128 *data, uint32_t k, int *ds)
{
	int128 x = data[k];
	int d = vector_dscale_at(v, vector_dscale_of(v), k, x), s = v->type.scale;

	if (v->type.id != TYPE_DECIMAL)
		d = s;
	*ds = d;
	return d < s ? x / func_pow10[s - d] : x;
}

/* Store r (at scale rs <= out's scale) in row i, displayed at rs. */
static int
put_scaled(FuncCtx *ctx, Vector *out, uint32_t i, int128 r, int rs)
{
	int128 *o = out->data;

	if (func_dec_rescale(r, rs, out->type.scale, &o[i]) != FLOE_OK)
		return decimal_overflow_error(ctx->err);
	if (out->type.precision == 0) {
		vector_ensure_dscale(out);
		out->dscale[i] = (uint8_t)rs;
	}
	out_valid(out, i);
	return FLOE_OK;
}

/* sqrt(numeric): correctly rounded at PostgreSQL's scale (sqrt_var's
 * rscale: 15 - 2 * base-10000 weight, at least the argument's display
 * scale), or at the output's scale when that is smaller */
static int
sqrt_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va;
	const int128 *a;
	int s = args[0].type.scale, so = out->type.scale;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(va, i);
		int128 x = a[k], X, xd;
		int ds, tgt;
		if (!ARGVALID(va, k)) {
			out_null(out, i);
			continue;
		}
		if (x < 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
					   "cannot take square root of a negative number");
		xd = at_display(&args[0], a, k, &ds);
		tgt = decimal_sqrt_scale(xd, ds);
		if (tgt > so)
			tgt = so;
		/* at the largest scale <= tgt where x * 10^(2*scale - s) fits 128 bits:
		 * correctly rounded there, zero digits after */
		{
			int sc = tgt, ee = 2 * tgt - s;
			uint128 r;
			while (sc > 0 && (ee > 38 || __builtin_mul_overflow(x, func_pow10[ee < 0 ? 0 : ee], &X)))
				sc--, ee -= 2;
			if (ee < 0) {
				/* s > 2*sc: drop digits of x first */
				func_dec_rescale(x, s, 2 * sc, &X);
			} else if (ee > 38 || __builtin_mul_overflow(x, func_pow10[ee], &X)) {
				return decimal_overflow_error(ctx->err);
			}
			if (sc < tgt) {
				/* x * 10^(2 tgt - s) passes 128 bits: wider arithmetic */
				int128 rr;
				TRY(decimal_sqrt(x, s, tgt, &rr, ctx->err));
				TRY(put_scaled(ctx, out, i, rr, tgt));
				continue;
			}
			r = func_isqrt128((uint128)X);
			if ((uint128)X - r * r > r)
				r++;
			TRY(put_scaled(ctx, out, i, (int128)r, sc));
		}
	}
	return FLOE_OK;
}

/* exp / ln / log10 / log(b, x) / power of numeric (decimal.h) */
enum { DF_EXP, DF_LN, DF_LOG10, DF_LOG, DF_POWER };

static int
dec_fn(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, int fn)
{
	VectorView va, vb;
	const int128 *a, *b = NULL;
	int so = out->type.scale;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	if (nargs > 1) {
		vector_view(&args[1], &vb);
		b = vb.data;
	}
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = 0;
		int128 x, y = 0, r;
		int dx, dy = 0, rs;
		if (!ARGVALID(va, ka)) {
			out_null(out, i);
			continue;
		}
		if (b) {
			kb = ARGK(vb, i);
			if (!ARGVALID(vb, kb)) {
				out_null(out, i);
				continue;
			}
			y = at_display(&args[1], b, kb, &dy);
		}
		x = at_display(&args[0], a, ka, &dx);
		switch (fn) {
		case DF_EXP:
			TRY(decimal_exp(x, dx, so, &r, &rs, ctx->err));
			break;
		case DF_LN:
			TRY(decimal_ln(x, dx, so, &r, &rs, ctx->err));
			break;
		case DF_LOG10:
			TRY(decimal_log(10, 0, x, dx, so, &r, &rs, ctx->err));
			break;
		case DF_LOG:
			TRY(decimal_log(x, dx, y, dy, so, &r, &rs, ctx->err));
			break;
		default:
			TRY(decimal_power(x, dx, y, dy, so, &r, &rs, ctx->err));
			break;
		}
		TRY(put_scaled(ctx, out, i, r, rs));
	}
	return FLOE_OK;
}

static int
exp_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_fn(ctx, args, nargs, count, out, DF_EXP);
}

static int
ln_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_fn(ctx, args, nargs, count, out, DF_LN);
}

static int
log10_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_fn(ctx, args, nargs, count, out, DF_LOG10);
}

static int
log_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_fn(ctx, args, nargs, count, out, DF_LOG);
}

static int
power_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_fn(ctx, args, nargs, count, out, DF_POWER);
}

/* gcd / lcm of numeric: on the common scale of both (the resolver aligns
 * them), displayed at the larger display scale (PostgreSQL's numeric_gcd) */
static int
gcd_lcm_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, bool lcm)
{
	VectorView va, vb;
	const int128 *a, *b;
	int s = out->type.scale;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		uint128 x, y, g, r;
		int dx, dy;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		dx = vector_dscale_at(&args[0], vector_dscale_of(&args[0]), ka, a[ka]);
		dy = vector_dscale_at(&args[1], vector_dscale_of(&args[1]), kb, b[kb]);
		x = a[ka] < 0 ? (uint128)0 - (uint128)a[ka] : (uint128)a[ka];
		y = b[kb] < 0 ? (uint128)0 - (uint128)b[kb] : (uint128)b[kb];
		for (g = x, r = y; r;) {
			uint128 t = g % r;
			g = r;
			r = t;
		}
		if (lcm) {
			if (!x || !y)
				g = 0;
			else if (__builtin_mul_overflow(x / g, y, &r) ||
				 r >= (uint128)func_pow10[38])
				return decimal_overflow_error(ctx->err);
			else
				g = r;
		}
		((int128 *)out->data)[i] = (int128)g;       /* at scale s */
		if (out->type.precision == 0) {
			int d = dx > dy ? dx : dy;
			vector_ensure_dscale(out);
			out->dscale[i] = (uint8_t)(d < s ? d : s);
		}
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
gcd_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return gcd_lcm_dec(ctx, args, nargs, count, out, false);
}

static int
lcm_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return gcd_lcm_dec(ctx, args, nargs, count, out, true);
}

/* factorial(bigint) -> numeric scale 0 (22003 past 33!, floe's 38 digits) */
static int
factorial(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va;
	const int64_t *a;
	int128 *o = out->data;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(va, i);
		int128 f = 1;
		int64_t n, j;
		if (!ARGVALID(va, k)) {
			out_null(out, i);
			continue;
		}
		n = a[k];
		if (n < 0)
			return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
					   "factorial of a negative number is undefined");
		if (n > 33)
			return decimal_overflow_error(ctx->err);
		for (j = 2; j <= n; j++)
			f *= j;
		if (func_dec_rescale(f, 0, out->type.scale, &o[i]) != FLOE_OK)
			return decimal_overflow_error(ctx->err);
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
div_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	const Vector *al;

	TRY(func_dec_align(ctx, args, nargs, func_dec_max_scale(args, nargs), count, &al));
	return div_dec_al(ctx, al, nargs, count, out);
}

/*
 * numeric round/trunc/ceil/floor: drop digits below 10^-n (n digits after
 * the point; n may be negative) of a value with scale s, write at scale os.
 * mode: 0 round half away from zero, 1 trunc, 2 ceil, 3 floor.
 */
static int
dec_round(FuncCtx *ctx, int128 x, int s, int n, int os, int mode, int128 *out)
{
	int drop = s - n;
	int128 q = x, p, rem;

	if (drop > 0) {
		if (drop > 38) {
			q = 0;
			rem = x;
			p = 0;
		} else {
			p = func_pow10[drop];
			q = x / p;
			rem = x % p;
		}
		if (rem != 0) {
			switch (mode) {
			case 0:
				if (p && rem >= p / 2 && rem > 0)
					q++;
				else if (p && rem <= -(p / 2) && rem < 0)
					q--;
				break;
			case 2:
				if (rem > 0)
					q++;
				break;
			case 3:
				if (rem < 0)
					q--;
				break;
			default:
				break;
			}
		}
		/* back to scale os: q is at scale n */
		if (func_dec_rescale(q, n, os, out) != FLOE_OK)
			return decimal_overflow_error(ctx->err);
		return FLOE_OK;
	}
	if (func_dec_rescale(x, s, os, out) != FLOE_OK)
		return decimal_overflow_error(ctx->err);
	return FLOE_OK;
}

static int
dec_round_common(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
		 int mode)
{
	VectorView va, vb;
	const int128 *a;
	const int32_t *b = NULL;
	int128 *o = out->data;
	int s = args[0].type.scale, os = out->type.scale;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	if (nargs > 1) {
		vector_view(&args[1], &vb);
		b = vb.data;
	}
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i);
		int n = 0;
		if (!ARGVALID(va, ka)) {
			out_null(out, i);
			continue;
		}
		if (b) {
			uint32_t kb = ARGK(vb, i);
			if (!ARGVALID(vb, kb)) {
				out_null(out, i);
				continue;
			}
			n = b[kb];
			if (n > 1000)
				n = 1000;
			if (n < -1000)
				n = -1000;
			if (n > os)
				n = os;
		}
		TRY(dec_round(ctx, a[ka], s, n, os, mode, &o[i]));
		if (b && out->type.precision == 0) {
			/* PostgreSQL displays round/trunc(x, n) with max(n, 0)
			 * digits (vector.h, dscale) */
			vector_ensure_dscale(out);
			out->dscale[i] = (uint8_t)(n < 0 ? 0 : n);
		}
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
round_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_round_common(ctx, args, nargs, count, out, 0);
}

static int
trunc_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_round_common(ctx, args, nargs, count, out, 1);
}

static int
ceil_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_round_common(ctx, args, nargs, count, out, 2);
}

static int
floor_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return dec_round_common(ctx, args, nargs, count, out, 3);
}

static int
pi(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	double *o = out->data;
	uint32_t i;

	for (i = 0; i < count; i++) {
		o[i] = M_PI;
		out_valid(out, i);
	}
	return FLOE_OK;
}

/*
 * random() and setseed(x), as PostgreSQL 15's (float.c drandom / setseed
 * over common/pg_prng.c): the xoroshiro128** generator, its 128-bit state
 * filled by two steps of splitmix64 from a 64-bit seed; a double is the top
 * 52 bits of the next output times 2^-52, in [0, 1); setseed(x), x in
 * [-1, 1], seeds with (int64)(x * (2^52 - 1)).  So after setseed the
 * values are PostgreSQL's.  One state per thread (a session's statements
 * run on its thread; a parallel worker has its own), seeded from the OS on
 * first use.
 */
static __thread uint64_t rng_s0, rng_s1;
static __thread bool rng_seeded;

static uint64_t
rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t
splitmix64_next(uint64_t *st)
{
	uint64_t z = (*st += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static void
rng_seed(uint64_t seed)
{
	rng_s0 = splitmix64_next(&seed);
	rng_s1 = splitmix64_next(&seed);
	if (!rng_s0 && !rng_s1) {      /* the all-zero state is a fixed point */
		rng_s0 = 0x5851F42D4C957F2DULL;
		rng_s1 = 0x14057B7EF767814FULL;
	}
	rng_seeded = true;
}

static double
rng_double(void)
{
	uint64_t s0, sx, v;

	if (!rng_seeded) {
		uint64_t seed = 0;
		FILE *f = fopen("/dev/urandom", "rb");
		if (!f || fread(&seed, sizeof seed, 1, f) != 1)
			seed = (uint64_t)time(NULL) ^ ((uint64_t)(uintptr_t)&seed << 16);
		if (f)
			fclose(f);
		rng_seed(seed);
	}
	s0 = rng_s0;
	sx = rng_s1 ^ s0;
	v = rotl64(s0 * 5, 7) * 9;
	rng_s0 = rotl64(s0, 24) ^ sx ^ (sx << 16);
	rng_s1 = rotl64(sx, 37);
	return ldexp((double)(v >> 12), -52);
}

static int
random_f64(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	double *o = out->data;
	uint32_t i;

	(void)ctx;
	(void)args;
	(void)nargs;
	for (i = 0; i < count; i++) {
		o[i] = rng_double();
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* setseed(x): void in PostgreSQL; here an empty text (what psql shows) */
static int
setseed(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v;
	uint32_t i;

	(void)nargs;
	vector_view(&args[0], &v);
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		double x;
		if (!validity_get(v.validity, k)) {
			out_null(out, i);
			continue;
		}
		x = ((const double *)v.data)[k];
		if (x < -1 || x > 1 || isnan(x))
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "setseed parameter %g is out of allowed range [-1,1]", x);
		rng_seed((uint64_t)(int64_t)((double)((1ULL << 52) - 1) * x));
		vector_set_string(out, i, "", 0);
	}
	return FLOE_OK;
}

/* width_bucket(x, low, high, count): bucket 1..count of equal width, 0 below,
 * count+1 above (high < low counts downward) */
static int
width_bucket(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v[4];
	int32_t *o = out->data;
	uint32_t i;
	int j;

	for (j = 0; j < 4; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		double x, lo, hi;
		int32_t n;
		bool isnull = false;
		for (j = 0; j < 4; j++)
			if (!ARGVALID(v[j], ARGK(v[j], i)))
				isnull = true;
		if (isnull) {
			out_null(out, i);
			continue;
		}
		x = ((const double *)v[0].data)[ARGK(v[0], i)];
		lo = ((const double *)v[1].data)[ARGK(v[1], i)];
		hi = ((const double *)v[2].data)[ARGK(v[2], i)];
		n = ((const int32_t *)v[3].data)[ARGK(v[3], i)];
		if (n <= 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION, "count must be greater than zero");
		if (isnan(x) || isnan(lo) || isnan(hi))
			return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION,
					   "operand, lower bound, and upper bound cannot be NaN");
		if (isinf(lo) || isinf(hi))
			return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION, "lower and upper bounds must be finite");
		if (lo == hi)
			return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION, "lower bound cannot equal upper bound");
		if (lo < hi) {
			if (x < lo)
				o[i] = 0;
			else if (x >= hi) {
				if (n == INT32_MAX)
					return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							   "integer out of range");
				o[i] = n + 1;
			} else
				o[i] = (int32_t)((double)n * ((x - lo) / (hi - lo))) + 1;
		} else {
			if (x > lo)
				o[i] = 0;
			else if (x <= hi) {
				if (n == INT32_MAX)
					return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							   "integer out of range");
				o[i] = n + 1;
			} else
				o[i] = (int32_t)((double)n * ((lo - x) / (lo - hi))) + 1;
		}
		if (o[i] > n && x < hi && lo < hi)
			o[i] = n;   /* rounding at the top edge */
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* ---- to_number(text, text) ------------------------------------------------------------ */

/*
 * PostgreSQL 15's to_number (formatting.c NUM_processor reading a string,
 * described from its behaviour, not copied): the template is walked once
 * and every node takes input as follows.
 *   9 0 . D   one position: a space is skipped first; before the first
 *             digit a sign is read ('-' or '+', '<' with PR); then a
 *             digit is taken (a fraction digit only while the template has
 *             fraction positions left), or the decimal point if the
 *             template has one and none was read; after a digit with S in
 *             the template, a '-' / '+' right behind it is the sign (S is
 *             anchored to the number); with MI / PL and nothing read, a
 *             sign here is taken.  The position then consumes one
 *             character, whatever it was.
 *   , G       consume a ',' if there is one (never under FM)
 *   MI PL SG  a '-' / '+' (SG: either) there is the sign; else skip one
 *             non-data character (not a digit, '.', ',', '+', '-')
 *   L         skip one non-data character (the currency symbol)
 *   TH th     skip up to two non-data characters
 *   S PR FM   nothing here (S and PR act at the digit positions)
 *   other     a literal (also inside "..."): consumes one character
 * The digits read make the value; its scale is the fraction digits read.
 * No digit at all is 22P02 (invalid input syntax for type numeric, of the
 * sign and the digits read); more integer digits than the template's
 * positions 22003 (numeric field overflow, PostgreSQL's DETAIL); an empty
 * template gives NULL.  Not supported for input, as in PostgreSQL: EEEE and
 * RN (0A000); V is 0A000 too (not implemented).
 */
typedef struct NumRead {
	int128 v;
	int scale;          /* fraction digits read */
} NumRead;

static bool
tok_at(const char *f, size_t flen, size_t i, const char *t)
{
	size_t n = strlen(t), k;

	if (i + n > flen)
		return false;
	for (k = 0; k < n; k++) {
		char c = f[i + k];
		if (c >= 'a' && c <= 'z')
			c = (char)(c - 32);
		if (c != t[k])
			return false;
	}
	return true;
}

static bool
data_char(char c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == ',' || c == '+' || c == '-';
}

/* The template's shape: integer and fraction positions, flags. */
typedef struct NumTpl {
	int pre, post;
	bool dec, fm, lsign, bracket, plus_minus;
} NumTpl;

static int
num_template(const char *f, size_t flen, NumTpl *t, floe_error *err)
{
	size_t i;

	memset(t, 0, sizeof *t);
	for (i = 0; i < flen; i++) {
		char c = f[i];
		if (c == '"') {
			for (i++; i < flen && f[i] != '"'; i++)
				if (f[i] == '\\' && i + 1 < flen)
					i++;
		} else if (tok_at(f, flen, i, "EEEE")) {
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "\"EEEE\" not supported for input");
		} else if (tok_at(f, flen, i, "RN")) {
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "\"RN\" not supported for input");
		} else if (tok_at(f, flen, i, "FM")) {
			t->fm = true;
			i++;
		} else if (tok_at(f, flen, i, "MI") || tok_at(f, flen, i, "PL") ||
			   tok_at(f, flen, i, "SG")) {
			t->plus_minus = true;
			i++;
		} else if (tok_at(f, flen, i, "PR")) {
			t->bracket = true;
			i++;
		} else if (tok_at(f, flen, i, "TH")) {
			i++;
		} else if (c == 'S' || c == 's') {
			if (t->lsign)
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "cannot use \"S\" twice");
			t->lsign = true;
		} else if (c == 'V' || c == 'v') {
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "to_number with \"V\" is not supported");
		} else if (c == '.' || c == 'D' || c == 'd') {
			if (t->dec)
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "multiple decimal points");
			t->dec = true;
		} else if (c == '9' || c == '0') {
			if (t->dec)
				t->post++;
			else
				t->pre++;
		}
	}
	return FLOE_OK;
}

static int
num_read(const char *s, size_t n, const char *f, size_t flen, NumRead *out, floe_error *err)
{
	NumTpl t;
	char digits[80];
	int nd = 0, rpre = 0, rpost = 0, k;
	char sign = ' ';
	bool rdec = false;
	size_t i, p = 0;
	int128 v = 0;

	TRY(num_template(f, flen, &t, err));
	for (i = 0; i < flen; i++) {
		char c = f[i];
		if (p >= n)
			break;
		if (c == '"') {
			for (i++; i < flen && f[i] != '"'; i++) {
				if (f[i] == '\\' && i + 1 < flen)
					i++;
				if (p < n)
					p++;
			}
			continue;
		}
		if (c == '9' || c == '0' || c == '.' || c == 'D' || c == 'd') {
			bool digit_pos = c == '9' || c == '0', isread = false;
			if (s[p] == ' ')
				p++;
			if (p >= n)
				break;
			if (sign == ' ' && digit_pos && rpre + rpost == 0) {
				if (s[p] == '-' || (t.bracket && s[p] == '<')) {
					sign = '-';
					p++;
				} else if (s[p] == '+') {
					sign = '+';
					p++;
				}
			}
			if (p >= n)
				break;
			if (s[p] >= '0' && s[p] <= '9') {
				if (!(rdec && rpost == t.post)) {
					if (nd >= (int)sizeof digits)
						return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
								   "value overflows numeric format");
					digits[nd++] = s[p];
					if (rdec)
						rpost++;
					else
						rpre++;
					isread = true;
				}
			} else if (t.dec && !rdec && s[p] == '.') {
				rdec = true;
				isread = true;
			}
			if (sign == ' ' && rpre + rpost > 0 && p + 1 <= n) {
				if (t.lsign && isread && p + 1 < n && !(s[p + 1] >= '0' && s[p + 1] <= '9')) {
					if (s[p + 1] == '-' || s[p + 1] == '+') {
						sign = s[p + 1];
						p++;
					}
				} else if (!isread && !t.lsign && t.plus_minus &&
					   (s[p] == '-' || s[p] == '+')) {
					sign = s[p];
				}
			}
			p++;
			continue;
		}
		if (c == ',' || c == 'G' || c == 'g') {
			if (!t.fm && s[p] == ',')
				p++;
			continue;
		}
		if (tok_at(f, flen, i, "MI") || tok_at(f, flen, i, "PL") || tok_at(f, flen, i, "SG")) {
			bool mi = tok_at(f, flen, i, "MI"), pl = tok_at(f, flen, i, "PL");
			i++;
			if ((s[p] == '-' && !pl) || (s[p] == '+' && !mi)) {
				sign = s[p];
				p++;
			} else if (!data_char(s[p])) {
				p++;
			}
			continue;
		}
		if (tok_at(f, flen, i, "TH")) {
			i++;
			for (k = 0; k < 2 && p < n && !data_char(s[p]); k++)
				p++;
			continue;
		}
		if (tok_at(f, flen, i, "FM") || tok_at(f, flen, i, "PR")) {
			i++;
			continue;
		}
		if (c == 'L' || c == 'l') {
			if (!data_char(s[p]))
				p++;
			continue;
		}
		if (c == 'S' || c == 's')
			continue;
		p++;   /* a literal */
	}
	if (nd == 0) {
		char txt[4] = { sign, 0 };
		return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
				   "invalid input syntax for type numeric: \"%s\"", txt);
	}
	for (k = 0; k < nd && k < rpre && digits[k] == '0'; k++)
		;
	if (rpre - k > t.pre) {
		char lim[16];
		if (t.pre)
			snprintf(lim, sizeof lim, "10^%d", t.pre);
		else
			snprintf(lim, sizeof lim, "1");
		floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
		return floe_error_detail(err,
					 "A field with precision %d, scale %d must round to an absolute value less than %s.",
					 t.pre + rpost, rpost, lim);
	}
	if (nd - k > 38)
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "value overflows numeric format");
	for (; k < nd; k++)
		v = v * 10 + (digits[k] - '0');
	out->v = sign == '-' ? -v : v;
	out->scale = rpost;
	return FLOE_OK;
}

/* The result scale of to_number: the fraction digits its constants read
 * (or the template's fraction positions with a constant template only;
 * NUMERIC_DEFAULT_SCALE without one), for func_refine_return. */
int
func_to_number_scale(const Value *const *consts)
{
	const Value *s = consts ? consts[0] : NULL, *f = consts ? consts[1] : NULL;
	floe_error e;
	NumRead r;
	NumTpl t;

	if (!f || f->is_null || !type_is_string(f->type.id))
		return NUMERIC_DEFAULT_SCALE;
	if (num_template(strview_data(&f->u.s), f->u.s.len, &t, &e) != FLOE_OK)
		return NUMERIC_DEFAULT_SCALE;   /* the kernel reports it */
	if (s && !s->is_null && type_is_string(s->type.id) &&
	    num_read(strview_data(&s->u.s), s->u.s.len, strview_data(&f->u.s), f->u.s.len, &r,
		     &e) == FLOE_OK)
		return r.scale;
	return t.post;
}

static int
to_number_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *a, *b;
	int128 *o = out->data;
	int scale = out->type.scale;
	uint32_t i;

	(void)nargs;
	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		NumRead r;
		int128 v;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb) || b[kb].len == 0) {
			out_null(out, i);
			continue;
		}
		TRY(num_read(strview_data(&a[ka]), a[ka].len, strview_data(&b[kb]), b[kb].len, &r,
			     ctx->err));
		if (r.scale > scale) {
			/* more fraction digits than the result type keeps: round */
			int128 d = func_pow10[r.scale - scale], q = r.v / d, m = r.v % d;
			if (m * 2 >= d)
				q++;
			else if (m * 2 <= -d)
				q--;
			v = q;
		} else if (func_dec_rescale(r.v, r.scale, scale, &v) != FLOE_OK) {
			return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
					   "value overflows numeric format");
		}
		o[i] = v;
		out_valid(out, i);
		if (out->type.precision == 0) {
			/* PostgreSQL's result prints the fraction digits it read
			 * (1.5 of '999D99', not 1.50): the row's display scale */
			vector_ensure_dscale(out);
			out->dscale[i] = (uint8_t)(r.scale < scale ? r.scale : scale);
		}
	}
	return FLOE_OK;
}

/* ---- to_char(number, text) ------------------------------------------------------------ */

/*
 * PostgreSQL's numeric templates (formatting.c NUM_processor), the common
 * part: 9 (digit, leading zero blank), 0 (digit, leading zero kept), . D
 * (decimal point), , G (group separator, blank before the first digit),
 * S (sign anchored to the number, + or -), MI PL SG (sign at that place),
 * FM (no padding: no leading blanks, no trailing fraction zeros from 9),
 * TH th (ordinal suffix); anything else is copied.  The value is rounded
 * to the template's fraction digits; too many integer digits print #.
 * intd: the integer digits without leading zeros ("" for 0); fracd: the
 * fraction digits, exactly as many as the template has.
 */
static size_t
format_number(bool neg, const char *intd, const char *fracd, const char *f, size_t flen,
	      char *buf)
{
	size_t i, n = 0;
	int int_pos = 0, frac_pos = 0, zero_start = -1, ip = 0, fp = 0, ndig = (int)strlen(intd);
	bool fm = false, explicit_sign = false, anchored_sign = false, in_frac = false;
	bool started = false, sign_done = false, overflow;
	size_t frac_end = 0;

	/* pass 1: shape of the template */
	for (i = 0; i < flen; i++) {
		if (!strncmp(f + i, "FM", 2) || !strncmp(f + i, "fm", 2)) {
			fm = true;
			i++;
		} else if (f[i] == '"') {
			for (i++; i < flen && f[i] != '"'; i++)
				;
		} else if (!strncmp(f + i, "MI", 2) || !strncmp(f + i, "SG", 2) ||
			   !strncmp(f + i, "mi", 2) || !strncmp(f + i, "sg", 2)) {
			explicit_sign = true;   /* PL adds a +, the usual sign stays */
			i++;
		} else if (!strncmp(f + i, "PL", 2) || !strncmp(f + i, "pl", 2)) {
			i++;
		} else if (!strncmp(f + i, "TH", 2) || !strncmp(f + i, "th", 2)) {
			i++;
		} else if (f[i] == 'S' || f[i] == 's') {
			anchored_sign = true;
		} else if (f[i] == '.' || f[i] == 'D' || f[i] == 'd') {
			in_frac = true;
		} else if (f[i] == '9' || f[i] == '0') {
			if (in_frac) {
				frac_pos++;
			} else {
				if (f[i] == '0' && zero_start < 0)
					zero_start = int_pos;
				int_pos++;
			}
		}
	}
	if (zero_start < 0)
		zero_start = int_pos;
	overflow = ndig > int_pos;
	(void)frac_pos;
	in_frac = false;

#define PUT_SIGN()                                                                     \
	do {                                                                           \
		if (!sign_done && !explicit_sign) {                                    \
			if (neg)                                                       \
				buf[n++] = '-';                                        \
			else if (anchored_sign)                                        \
				buf[n++] = '+';                                        \
			else if (!fm)                                                  \
				buf[n++] = ' ';                                        \
		}                                                                      \
		sign_done = true;                                                      \
	} while (0)

	for (i = 0; i < flen; i++) {
		char c = f[i];
		if (c == '"') {
			for (i++; i < flen && f[i] != '"'; i++) {
				if (f[i] == '\\' && i + 1 < flen)
					i++;
				buf[n++] = f[i];
			}
			continue;
		}
		if (!strncmp(f + i, "FM", 2) || !strncmp(f + i, "fm", 2)) {
			i++;
			continue;
		}
		if (!strncmp(f + i, "MI", 2) || !strncmp(f + i, "mi", 2)) {
			if (neg)
				buf[n++] = '-';
			else if (!fm)
				buf[n++] = ' ';
			i++;
			continue;
		}
		if (!strncmp(f + i, "PL", 2) || !strncmp(f + i, "pl", 2)) {
			buf[n++] = neg ? ' ' : '+';
			i++;
			continue;
		}
		if (!strncmp(f + i, "SG", 2) || !strncmp(f + i, "sg", 2)) {
			buf[n++] = neg ? '-' : '+';
			i++;
			continue;
		}
		if (!strncmp(f + i, "TH", 2) || !strncmp(f + i, "th", 2)) {
			/* ordinal of the integer part's last two digits */
			int last = ndig ? intd[ndig - 1] - '0' : 0;
			int tens = ndig > 1 ? intd[ndig - 2] - '0' : 0;
			const char *suf = tens == 1 ? "th" : last == 1 ? "st" : last == 2 ? "nd" :
					  last == 3 ? "rd" : "th";
			buf[n++] = c == 'T' ? (char)(suf[0] - 32) : suf[0];
			buf[n++] = c == 'T' ? (char)(suf[1] - 32) : suf[1];
			i++;
			continue;
		}
		if (c == 'S' || c == 's')
			continue;               /* anchored: printed before the first digit */
		if (c == '9' || c == '0') {
			if (!in_frac) {
				int lead = int_pos - ndig;      /* positions before the number */
				if (overflow) {
					if (ip == 0)
						PUT_SIGN();
					buf[n++] = '#';
				} else if (ip < lead) {
					if (ip >= zero_start) {
						PUT_SIGN();
						buf[n++] = '0';
						started = true;
					} else if (!fm) {
						buf[n++] = ' ';
					}
				} else {
					PUT_SIGN();
					buf[n++] = intd[ip - lead];
					started = true;
				}
				ip++;
			} else {
				buf[n++] = overflow ? '#' : fracd[fp];
				if (c == '0' || overflow)
					frac_end = n;
				fp++;
			}
			continue;
		}
		if (c == '.' || c == 'D' || c == 'd') {
			if (!sign_done)
				PUT_SIGN();
			buf[n++] = '.';
			in_frac = true;
			frac_end = n;
			continue;
		}
		if (c == ',' || c == 'G' || c == 'g') {
			if (started || overflow)
				buf[n++] = ',';
			else if (!fm)
				buf[n++] = ' ';
			continue;
		}
		buf[n++] = c;
	}
	if (!sign_done && !explicit_sign && neg)
		buf[n++] = '-';
	/* FM: drop trailing fraction zeros that came from 9 positions */
	if (fm && in_frac) {
		size_t e = n;
		while (e > frac_end && buf[e - 1] == '0')
			e--;
		if (e < n) {
			/* keep any text after the digits (MI, TH) */
			size_t k, tail = 0;
			for (k = n; k > 0 && !(buf[k - 1] >= '0' && buf[k - 1] <= '9') &&
				    buf[k - 1] != '.'; k--)
				tail++;
			if (tail == 0)
				n = e;
		}
	}
#undef PUT_SIGN
	return n;
}

/* fraction digits of a template */
static int
template_frac(const char *f, size_t flen)
{
	size_t i;
	int nf = 0;
	bool in_frac = false;

	for (i = 0; i < flen; i++) {
		if (f[i] == '.' || f[i] == 'D' || f[i] == 'd')
			in_frac = true;
		else if (in_frac && (f[i] == '9' || f[i] == '0'))
			nf++;
		else if (!strncmp(f + i, "FM", 2) || !strncmp(f + i, "fm", 2) ||
			 !strncmp(f + i, "TH", 2) || !strncmp(f + i, "th", 2))
			i++;
	}
	return nf;
}

/* digits of |v| (scale nf, already rounded) into intd / fracd */
static void
split_digits(uint128 u, int nf, char *intd, char *fracd)
{
	char tmp[64];
	int n = 0, k, ni;

	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	while (n <= nf)
		tmp[n++] = '0';
	ni = n - nf;
	for (k = 0; k < ni; k++)
		intd[k] = tmp[n - 1 - k];
	intd[ni] = 0;
	if (ni == 1 && intd[0] == '0')
		intd[0] = 0;
	for (k = 0; k < nf; k++)
		fracd[k] = tmp[nf - 1 - k];
	fracd[nf] = 0;
}

/* Row k of an integer or numeric vector as an int128 (numeric: unscaled). */
static int128
exact_at(const VectorView *va, TypeId t, uint32_t k)
{
	switch (t) {
	case TYPE_DECIMAL: return ((const int128 *)va->data)[k];
	case TYPE_INT16: return ((const int16_t *)va->data)[k];
	case TYPE_INT32: return ((const int32_t *)va->data)[k];
	default: return ((const int64_t *)va->data)[k];
	}
}

/*
 * to_char(x, '9.99EEEE'): PostgreSQL's scientific form, sign or space, one
 * digit, `nf` fraction digits (rounded half away from zero for exact
 * types, printf's rounding for floats), "e", a signed exponent of at least
 * two digits (numeric_out_sci / float8's "%+.*e").  Returns the length.
 */
static size_t
eeee_text(TypeId t, int128 v, int scale, double x, int nf, char *buf, size_t cap)
{
	char m[64];
	int e = 0;

	if (t == TYPE_FLOAT64 || t == TYPE_FLOAT32) {
		if (isnan(x) || isinf(x))
			return (size_t)snprintf(buf, cap, " %s", isnan(x) ? "NaN" :
						x > 0 ? "Infinity" : "-Infinity");
		return (size_t)snprintf(buf, cap, "%s%.*e", x < 0 ? "" : " ", nf, x);
	}
	{
		uint128 u = v < 0 ? (uint128)0 - (uint128)v : (uint128)v, mant;
		int sh;
		if (u)
			e = decimal_log10_floor(v, scale);
		/* mant = round(|v| / 10^(scale + e - nf)) */
		sh = scale + e - nf;
		if (sh <= 0) {
			mant = u * (uint128)func_pow10[-sh];
		} else if (sh > 38) {
			mant = 0;
		} else {
			uint128 p = (uint128)func_pow10[sh];
			mant = u / p + (u % p >= p / 2 ? 1 : 0);
		}
		/* a mantissa rounding up to 10 stays so (9.995 -> 10.00e+00),
		 * as numeric_out_sci */
		split_digits(mant, nf, m, m + 32);
		return (size_t)snprintf(buf, cap, "%s%s%s%se%c%02d", v < 0 ? "-" : " ",
					m[0] ? m : "0", nf ? "." : "", m + 32,
					e < 0 ? '-' : '+', e < 0 ? -e : e);
	}
}

static int
to_char_num(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *b;
	TypeId t = args[0].type.id;
	int scale = t == TYPE_DECIMAL ? args[0].type.scale : 0;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		const char *f;
		size_t flen, n;
		int nf;
		char intd[400], fracd[400], *buf;
		bool neg;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		f = strview_data(&b[kb]);
		flen = b[kb].len;
		nf = template_frac(f, flen);
		if (nf > 38)
			nf = 38;
		if (memmem(f, flen, "EEEE", 4) || memmem(f, flen, "eeee", 4)) {
			int128 v = 0;
			double x = 0;
			if (nf > 30)
				nf = 30;
			if (t == TYPE_FLOAT64)
				x = ((const double *)va.data)[ka];
			else if (t == TYPE_FLOAT32)
				x = ((const float *)va.data)[ka];
			else
				v = exact_at(&va, t, ka);
			buf = arena_alloc(out->arena, 96);
			n = eeee_text(t, v, scale, x, nf, buf, 96);
			out_string_owned(out, i, buf, (uint32_t)n);
			continue;
		}
		if (t == TYPE_FLOAT64 || t == TYPE_FLOAT32) {
			double x = t == TYPE_FLOAT64 ? ((const double *)va.data)[ka]
						     : ((const float *)va.data)[ka];
			char tmp[400];
			char *dot;
			if (isnan(x) || isinf(x) || fabs(x) >= 1e38) {
				/* too big for digits: all # */
				snprintf(intd, sizeof intd, "%s", "999999999999999999999999999999999999999");
				fracd[0] = 0;
				memset(fracd, '0', (size_t)nf);
				fracd[nf] = 0;
				neg = x < 0;
			} else {
				neg = signbit(x) && x != 0;
				snprintf(tmp, sizeof tmp, "%.*f", nf, fabs(x));
				dot = strchr(tmp, '.');
				if (dot)
					*dot = 0;
				snprintf(intd, sizeof intd, "%s", strcmp(tmp, "0") ? tmp : "");
				snprintf(fracd, sizeof fracd, "%s", dot ? dot + 1 : "");
			}
		} else {
			int128 v = exact_at(&va, t, ka);
			if (func_dec_rescale(v, scale, nf, &v) != FLOE_OK) {
				/* more digits than 128 bits: print all # */
				memset(intd, '9', 39);
				intd[39] = 0;
				memset(fracd, '0', (size_t)nf);
				fracd[nf] = 0;
				neg = v < 0;
			} else {
				neg = v < 0;
				split_digits(neg ? -(uint128)v : (uint128)v, nf, intd, fracd);
			}
		}
		/* a zero integer part shows as 0 when there are no fraction digits;
		 * a value that rounds to zero has no sign */
		if (!intd[0] && nf == 0)
			snprintf(intd, sizeof intd, "0");
		if (neg && (!intd[0] || !strcmp(intd, "0")) && strspn(fracd, "0") == strlen(fracd))
			neg = false;
		/* every template byte gives at most 2 output bytes (+ a sign) */
		buf = arena_alloc(out->arena, flen * 2 + 4);
		n = format_number(neg, intd, fracd, f, flen, buf);
		out_string_owned(out, i, buf, (uint32_t)n);
	}
	return FLOE_OK;
}

/*
 * scale(numeric): the display scale (vector.h, dscale); min_scale: the
 * fewest fraction digits that represent the value exactly; trim_scale:
 * the value displayed at min_scale (PostgreSQL 13+).
 */
enum { SC_SCALE, SC_MIN, SC_TRIM };

static int
scale_common(const Vector *args, uint32_t count, Vector *out, int what)
{
	VectorView v;
	const int128 *a;
	const uint8_t *ds = vector_dscale_of(&args[0]);
	uint32_t i;

	vector_view(&args[0], &v);
	a = v.data;
	if (what == SC_TRIM)
		vector_ensure_dscale(out);
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(v, i);
		int d;
		if (!ARGVALID(v, k)) {
			out_null(out, i);
			continue;
		}
		d = vector_dscale_at(&args[0], ds, k, a[k]);
		if (what == SC_SCALE) {
			((int32_t *)out->data)[i] = d;
		} else {
			int m = numeric_trim_scale(a[k], args[0].type.scale);
			if (what == SC_MIN) {
				((int32_t *)out->data)[i] = m;
			} else {
				((int128 *)out->data)[i] = a[k];
				out->dscale[i] = (uint8_t)m;
			}
		}
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
scale_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return scale_common(args, count, out, SC_SCALE);
}

static int
min_scale_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return scale_common(args, count, out, SC_MIN);
}

static int
trim_scale_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	if (out->type.precision != 0 || out->type.scale != args[0].type.scale)
		return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR, "trim_scale: unexpected type");
	return scale_common(args, count, out, SC_TRIM);
}

#define I2 TYPE_INT16
#define I4 TYPE_INT32
#define I8 TYPE_INT64
#define F4 TYPE_FLOAT32
#define F8 TYPE_FLOAT64
#define NU TYPE_DECIMAL
#define F1(nm, k, a, r) { nm, k, 1, 0, { a }, r, FRET_FIXED, true, false }
#define F2(nm, k, a, b, r) { nm, k, 2, 0, { a, b }, r, FRET_FIXED, true, false }
#define N1(nm, k, rule) { nm, k, 1, 0, { NU }, NU, rule, true, false }
#define N2(nm, k, rule) { nm, k, 2, 0, { NU, I4 }, NU, rule, true, false }
/* numeric functions whose rows carry PostgreSQL's result scale (dscale):
 * physical scale max(the arguments' scales, minscale) (func.h, FRET_DEC_FN) */
#define NF1(nm, k, minscale) { nm, k, 1, 0, { NU }, minscale, FRET_DEC_FN, true, false }
#define NF2(nm, k, minscale) { nm, k, 2, 0, { NU, NU }, minscale, FRET_DEC_FN, true, false }

const ScalarFunc func_math_table[] = {
	F1("abs", abs_i16, I2, I2), F1("abs", abs_i32, I4, I4), F1("abs", abs_i64, I8, I8),
	F1("abs", abs_f32, F4, F4), F1("abs", abs_f64, F8, F8), N1("abs", abs_dec, FRET_ARG0),
	F1("scale", scale_dec, NU, I4), F1("min_scale", min_scale_dec, NU, I4),
	N1("trim_scale", trim_scale_dec, FRET_ARG0),
	F1("round", round_f64, F8, F8), N1("round", round_dec, FRET_DEC_ROUND),
	N2("round", round_dec, FRET_DEC_ROUND),
	F1("trunc", trunc_f64, F8, F8), N1("trunc", trunc_dec, FRET_DEC_ROUND),
	N2("trunc", trunc_dec, FRET_DEC_ROUND),
	F1("ceil", ceil_f64, F8, F8), N1("ceil", ceil_dec, FRET_DEC_ROUND),
	F1("ceiling", ceil_f64, F8, F8), N1("ceiling", ceil_dec, FRET_DEC_ROUND),
	F1("floor", floor_f64, F8, F8), N1("floor", floor_dec, FRET_DEC_ROUND),
	F1("sign", sign_f64, F8, F8), N1("sign", sign_dec, FRET_DEC_ROUND),
	F1("sqrt", sqrt_f64, F8, F8), NF1("sqrt", sqrt_dec, 19),
	F1("cbrt", cbrt_f64, F8, F8),
	F1("exp", exp_f64, F8, F8), NF1("exp", exp_dec, 20),
	F1("ln", ln_f64, F8, F8), NF1("ln", ln_dec, 30),
	F1("log", log10_f64, F8, F8), NF1("log", log10_dec, 30),
	F1("log10", log10_f64, F8, F8), NF1("log10", log10_dec, 30),
	NF2("log", log_dec, 30),
	F2("power", power_f64, F8, F8, F8), NF2("power", power_dec, 16),
	F2("pow", power_f64, F8, F8, F8), NF2("pow", power_dec, 16),
	{ "^", power_f64, 2, 0, { F8, F8 }, F8, FRET_FIXED, true, true },
	{ "^", power_dec, 2, 0, { NU, NU }, 16, FRET_DEC_FN, true, true },
	{ "|/", sqrt_f64, 1, 0, { F8 }, F8, FRET_FIXED, true, true },
	{ "||/", cbrt_f64, 1, 0, { F8 }, F8, FRET_FIXED, true, true },
	{ "@", abs_i16, 1, 0, { I2 }, I2, FRET_FIXED, true, true },
	{ "@", abs_i32, 1, 0, { I4 }, I4, FRET_FIXED, true, true },
	{ "@", abs_i64, 1, 0, { I8 }, I8, FRET_FIXED, true, true },
	{ "@", abs_f32, 1, 0, { F4 }, F4, FRET_FIXED, true, true },
	{ "@", abs_f64, 1, 0, { F8 }, F8, FRET_FIXED, true, true },
	{ "@", abs_dec, 1, 0, { NU }, NU, FRET_ARG0, true, true },
	{ "pi", pi, 0, 0, { 0 }, F8, FRET_FIXED, true, false },
	F1("sin", sin_f64, F8, F8), F1("cos", cos_f64, F8, F8), F1("tan", tan_f64, F8, F8),
	F1("cot", cot_f64, F8, F8), F1("asin", asin_f64, F8, F8), F1("acos", acos_f64, F8, F8),
	F1("atan", atan_f64, F8, F8), F2("atan2", atan2_f64, F8, F8, F8),
	F1("degrees", degrees_f64, F8, F8), F1("radians", radians_f64, F8, F8),
	F1("sinh", sinh_f64, F8, F8), F1("cosh", cosh_f64, F8, F8), F1("tanh", tanh_f64, F8, F8),
	F1("asinh", asinh_f64, F8, F8), F1("acosh", acosh_f64, F8, F8), F1("atanh", atanh_f64, F8, F8),
	{ "random", random_f64, 0, 0, { 0 }, F8, FRET_FIXED, true, false },
	F1("setseed", setseed, F8, TYPE_TEXT),
	F2("gcd", gcd_i32, I4, I4, I4), F2("gcd", gcd_i64, I8, I8, I8),
	F2("lcm", lcm_i32, I4, I4, I4), F2("lcm", lcm_i64, I8, I8, I8),
	{ "gcd", gcd_dec, 2, 0, { NU, NU }, NU, FRET_DEC_ADD, true, false },
	{ "lcm", lcm_dec, 2, 0, { NU, NU }, NU, FRET_DEC_ADD, true, false },
	{ "factorial", factorial, 1, 0, { I8 }, NU, FRET_DEC_INT, true, false },
	F2("to_char", to_char_num, I4, TYPE_TEXT, TYPE_TEXT),
	F2("to_char", to_char_num, I8, TYPE_TEXT, TYPE_TEXT),
	F2("to_char", to_char_num, F4, TYPE_TEXT, TYPE_TEXT),
	F2("to_char", to_char_num, F8, TYPE_TEXT, TYPE_TEXT),
	F2("to_char", to_char_num, NU, TYPE_TEXT, TYPE_TEXT),
	{ "to_number", to_number_k, 2, 0, { TYPE_TEXT, TYPE_TEXT }, NU, FRET_FIXED, true, false },
	{ "width_bucket", width_bucket, 4, 0, { F8, F8, F8, I4 }, I4, FRET_FIXED, true, false },
	{ "div", div_dec, 2, 0, { NU, NU }, NU, FRET_DEC_INT, true, false },
};
const int func_math_count = sizeof func_math_table / sizeof func_math_table[0];

/*
 * The exact PostgreSQL result scale of a FRET_DEC_FN function whose
 * arguments are all constants (func_refine_return), or -1: the kernel then
 * computes at that physical scale and prints every digit PostgreSQL does.
 */
int
func_math_const_scale(const ScalarFunc *f, const Value *const *consts, int nargs)
{
	int128 v[2], r;
	int sc[2], rs = -1, i, rc;
	floe_error e;

	if (f->ret_rule != FRET_DEC_FN || !consts || nargs < 1 || nargs > 2)
		return -1;
	for (i = 0; i < nargs; i++) {
		const Value *c = consts[i];
		if (!c || c->is_null || c->type.id != TYPE_DECIMAL)
			return -1;
		sc[i] = c->type.scale - c->dzeros;
		v[i] = c->u.d / func_pow10[c->dzeros];
	}
	if (f->kernel == sqrt_dec) {
		if (v[0] < 0)
			return -1;
		rs = decimal_sqrt_scale(v[0], sc[0]);
		return rs > DECIMAL_MAX_SCALE ? -1 : rs;
	}
	if (f->kernel == exp_dec)
		rc = decimal_exp(v[0], sc[0], DECIMAL_MAX_SCALE, &r, &rs, &e);
	else if (f->kernel == ln_dec)
		rc = decimal_ln(v[0], sc[0], DECIMAL_MAX_SCALE, &r, &rs, &e);
	else if (f->kernel == log10_dec)
		rc = decimal_log(10, 0, v[0], sc[0], DECIMAL_MAX_SCALE, &r, &rs, &e);
	else if (f->kernel == log_dec)
		rc = decimal_log(v[0], sc[0], v[1], sc[1], DECIMAL_MAX_SCALE, &r, &rs, &e);
	else if (f->kernel == power_dec)
		rc = decimal_power(v[0], sc[0], v[1], sc[1], DECIMAL_MAX_SCALE, &r, &rs, &e);
	else
		return -1;
	/* the value must also fit at that scale (38 digits in all) */
	if (rc != FLOE_OK || decimal_digits(r) > 38)
		return -1;
	return rs;
}
