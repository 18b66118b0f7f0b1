/*
 * func_math.c — mathematical functions: abs, round, trunc, ceil/ceiling,
 * floor, sign, sqrt, cbrt, power/pow, exp, ln, log/log10, pi.
 *
 * Spec: PostgreSQL 15 documentation 9.3 "Mathematical Functions and
 * Operators" and utils/adt/float.c, numeric.c, int.c:
 *   - abs of the most negative integer is 22003 "<type> out of range";
 *   - round(double precision) rounds half to even (rint), round(numeric)
 *     half away from zero; round/trunc(numeric, n) with n < 0 round to tens,
 *     hundreds...; the result keeps the argument's scale (floe types have
 *     one scale per column: PostgreSQL would print n digits);
 *   - ceil/floor/round/trunc of numeric without n give scale 0;
 *   - sqrt of a negative, ln/log of zero or a negative, 0 ^ negative and
 *     negative ^ fractional raise PostgreSQL's 2201F / 2201E errors;
 *     infinite results of finite inputs are 22003 overflow.
 * numeric sqrt/power/exp/ln are computed through double precision (the
 * resolver's numeric->float8 implicit cast does it), so they return double.
 *
 * INTERFACE ROUTINES
 *   func_math_table[] / func_math_count   (searched by func_registry.c)
 */
#include <math.h>
#include "func/func_internal.h"

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
MATH_KERNEL(abs_dec, int128, int32_t, int128, r = x < 0 ? -x : x)

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
MATH_KERNEL(div_dec, int128, int128, int128,
	    if (y == 0) return floe_errorf(ctx->err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
	    r = x / y)

/* sqrt(numeric): correctly rounded at the output scale */
static int
sqrt_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va;
	const int128 *a;
	int128 *o = out->data;
	int s = args[0].type.scale, so = out->type.scale, e = 2 * so - s;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	for (i = 0; i < count; i++) {
		uint32_t k = ARGK(va, i);
		int128 x = a[k], X;
		if (!ARGVALID(va, k)) {
			out_null(out, i);
			continue;
		}
		if (x < 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
					   "cannot take square root of a negative number");
		/* at the largest scale <= so where x * 10^(2*scale - s) fits 128 bits:
		 * correctly rounded there, zero digits after */
		{
			int sc = so, ee = e;
			uint128 r;
			while (sc > 0 && (ee > 38 || __builtin_mul_overflow(x, func_pow10[ee < 0 ? 0 : ee], &X)))
				sc--, ee -= 2;
			if (ee < 0) {
				/* s > 2*sc: drop digits of x first */
				func_dec_rescale(x, s, 2 * sc, &X);
			} else if (ee > 38 || __builtin_mul_overflow(x, func_pow10[ee], &X)) {
				return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
						   "value overflows numeric format");
			}
			r = func_isqrt128((uint128)X);
			if ((uint128)X - r * r > r)
				r++;
			o[i] = (int128)r * func_pow10[so - sc];
		}
		out_valid(out, i);
	}
	return FLOE_OK;
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
			return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
					   "value overflows numeric format");
		return FLOE_OK;
	}
	if (func_dec_rescale(x, s, os, out) != FLOE_OK)
		return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "value overflows numeric format");
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

const ScalarFunc func_math_table[] = {
	F1("abs", abs_i16, I2, I2), F1("abs", abs_i32, I4, I4), F1("abs", abs_i64, I8, I8),
	F1("abs", abs_f32, F4, F4), F1("abs", abs_f64, F8, F8), N1("abs", abs_dec, FRET_ARG0),
	F1("round", round_f64, F8, F8), N1("round", round_dec, FRET_DEC_ROUND),
	N2("round", round_dec, FRET_DEC_ROUND),
	F1("trunc", trunc_f64, F8, F8), N1("trunc", trunc_dec, FRET_DEC_ROUND),
	N2("trunc", trunc_dec, FRET_DEC_ROUND),
	F1("ceil", ceil_f64, F8, F8), N1("ceil", ceil_dec, FRET_DEC_ROUND),
	F1("ceiling", ceil_f64, F8, F8), N1("ceiling", ceil_dec, FRET_DEC_ROUND),
	F1("floor", floor_f64, F8, F8), N1("floor", floor_dec, FRET_DEC_ROUND),
	F1("sign", sign_f64, F8, F8), N1("sign", sign_dec, FRET_DEC_ROUND),
	F1("sqrt", sqrt_f64, F8, F8), N1("sqrt", sqrt_dec, FRET_DEC_SQRT),
	F1("cbrt", cbrt_f64, F8, F8),
	F1("exp", exp_f64, F8, F8),
	F1("ln", ln_f64, F8, F8),
	F1("log", log10_f64, F8, F8),
	F1("log10", log10_f64, F8, F8),
	F2("power", power_f64, F8, F8, F8),
	F2("pow", power_f64, F8, F8, F8),
	{ "^", power_f64, 2, 0, { F8, F8 }, F8, FRET_FIXED, true, true },
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
	F2("gcd", gcd_i32, I4, I4, I4), F2("gcd", gcd_i64, I8, I8, I8),
	F2("lcm", lcm_i32, I4, I4, I4), F2("lcm", lcm_i64, I8, I8, I8),
	{ "div", div_dec, 2, 0, { NU, NU }, NU, FRET_DEC_INT, true, false },
};
const int func_math_count = sizeof func_math_table / sizeof func_math_table[0];
