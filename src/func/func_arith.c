/*
 * func_arith.c — arithmetic operators + - * / % and prefix -/+ on integers,
 * floats and numeric, with PostgreSQL 15's semantics and errors.
 *
 * Semantics follow PostgreSQL's utils/adt/int.c, int8.c, float.c and
 * numeric.c:
 *   - integer results that do not fit raise 22003 "smallint|integer|bigint
 *     out of range"; x / 0 and x % 0 raise 22012 "division by zero";
 *     integer division truncates toward zero, % takes the dividend's sign;
 *     MIN / -1 overflows, MIN % -1 is 0;
 *   - float results: an infinite result from finite inputs is 22003
 *     "value out of range: overflow", a zero product/quotient of nonzero
 *     inputs "value out of range: underflow"; x / 0.0 is 22012 unless x is
 *     NaN;
 *   - numeric (int128 unscaled, scale in the vector type): + - % work on
 *     aligned scales (the resolver casts both sides to one scale), * gives
 *     scale s1+s2 (rounded down to the output scale when that is capped),
 *     / rounds half away from zero to the output type's scale; more than 38
 *     digits is 22003 "value overflows numeric format".
 *   - numeric display scales (vector.h, dscale): each result row gets
 *     PostgreSQL's display scale from its arguments' rows: + - % the max,
 *     * the sum, unary - the same; / select_div_scale (at least 16
 *     significant digits, at least either input's scale) on the row's
 *     values.  Every display scale is capped at the output type's scale,
 *     which the resolver fixes per expression (for / max(16, inputs'
 *     scales)): a quotient below 1 (1.0/3: PostgreSQL prints 20 digits)
 *     prints 16, and 38 digits in all is the limit (22003 beyond).
 *
 * Mixed-type signatures (int2 + int4, float4 * float8, ...) are listed as
 * PostgreSQL has them so resolution picks the same operator; the resolver
 * widens both arguments to the result type, so kernels are homogeneous.
 *
 * INTERFACE ROUTINES
 *   func_arith_table[] / func_arith_count   (searched by func_registry.c)
 *   func_pow10[], func_dec_rescale(), func_dec_fits()
 */
#include <math.h>
#include "func/func_internal.h"
#include "types/decimal.h"

#define P10(n) ((int128)n)
const int128 func_pow10[39] = {
	P10(1), P10(10), P10(100), P10(1000), P10(10000), P10(100000), P10(1000000),
	P10(10000000), P10(100000000), P10(1000000000), P10(10000000000LL),
	P10(100000000000LL), P10(1000000000000LL), P10(10000000000000LL),
	P10(100000000000000LL), P10(1000000000000000LL), P10(10000000000000000LL),
	P10(100000000000000000LL), P10(1000000000000000000LL),
	P10(1000000000000000000LL) * 10, P10(1000000000000000000LL) * 100,
	P10(1000000000000000000LL) * 1000, P10(1000000000000000000LL) * 10000,
	P10(1000000000000000000LL) * 100000, P10(1000000000000000000LL) * 1000000,
	P10(1000000000000000000LL) * 10000000, P10(1000000000000000000LL) * 100000000,
	P10(1000000000000000000LL) * 1000000000,
	P10(1000000000000000000LL) * 10000000000LL,
	P10(1000000000000000000LL) * 100000000000LL,
	P10(1000000000000000000LL) * 1000000000000LL,
	P10(1000000000000000000LL) * 10000000000000LL,
	P10(1000000000000000000LL) * 100000000000000LL,
	P10(1000000000000000000LL) * 1000000000000000LL,
	P10(1000000000000000000LL) * 10000000000000000LL,
	P10(1000000000000000000LL) * 100000000000000000LL,
	P10(1000000000000000000LL) * 1000000000000000000LL,
	P10(1000000000000000000LL) * 1000000000000000000LL * 10,
	P10(1000000000000000000LL) * 1000000000000000000LL * 100,
};

bool
func_dec_fits(int128 v)
{
	return v < func_pow10[38] && v > -func_pow10[38];
}

/* Change scale, rounding half away from zero when digits are dropped. */
int
func_dec_rescale(int128 v, int from, int to, int128 *out)
{
	if (to == from) {
		*out = v;
		return FLOE_OK;
	}
	if (to > from) {
		int d = to - from;
		if (d > 38 || __builtin_mul_overflow(v, func_pow10[d], out) || !func_dec_fits(*out))
			return FLOE_ERR;
		return FLOE_OK;
	} else {
		int d = from - to;
		int128 q, r, half;
		if (d > 38) {
			*out = 0;
			return FLOE_OK;
		}
		q = v / func_pow10[d];
		r = v % func_pow10[d];
		half = func_pow10[d] / 2;
		if (r >= half)
			q++;
		else if (r <= -half)
			q--;
		*out = q;
		return FLOE_OK;
	}
}

/* floor(sqrt(x)) */
uint128
func_isqrt128(uint128 x)
{
	uint128 r, y;

	if (x < 2)
		return x;
	r = (uint128)sqrtl((long double)x);
	while (r > 0 && r > x / r)
		r--;
	for (;;) {
		y = r + 1;
		if (y > x / y)
			break;
		r = y;
	}
	return r;
}

static int
err_range(FuncCtx *ctx, TypeId id)
{
	const char *what = id == TYPE_INT16 ? "smallint" : id == TYPE_INT32 ? "integer" : "bigint";
	return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s out of range", what);
}

static int
err_div0(FuncCtx *ctx)
{
	return floe_errorf(ctx->err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
}

static int
err_float(FuncCtx *ctx, bool over)
{
	return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
			   "value out of range: %s", over ? "overflow" : "underflow");
}

static int
err_numeric(FuncCtx *ctx)
{
	return decimal_overflow_error(ctx->err);
}

/*
 * Binary kernel template.  BODY sees x, y (inputs), writes r (result) and
 * may `goto fail_range` / `goto fail_div0` / `goto fail_over` /
 * `goto fail_under` / `goto fail_num`.
 */
#define BINARY_KERNEL(fname, TA, TO, TID, BODY)                                        \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView va, vb;                                                     \
		const TA *a, *b;                                                       \
		TO *o = out->data;                                                     \
		uint32_t i;                                                            \
		vector_view(&args[0], &va);                                            \
		vector_view(&args[1], &vb);                                            \
		a = va.data;                                                           \
		b = vb.data;                                                           \
		if (!va.sel && !va.validity && !vb.validity && !out->validity &&       \
		    (!vb.sel || vb.sel == vector_zero_sel)) {                          \
			/* fast path: flat no-NULL left, flat or constant right */     \
			uint32_t step = vb.sel ? 0 : 1;                                \
			for (i = 0; i < count; i++) {                                  \
				TA x = a[i], y = b[i * step];                          \
				TO r;                                                  \
				BODY;                                                  \
				o[i] = r;                                              \
			}                                                              \
			return FLOE_OK;                                                \
		}                                                                      \
		for (i = 0; i < count; i++) {                                          \
			uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);                   \
			TA x, y;                                                       \
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
	fail_range: __attribute__((unused));                                           \
		return err_range(ctx, TID);                                            \
	fail_div0: __attribute__((unused));                                            \
		return err_div0(ctx);                                                  \
	fail_over: __attribute__((unused));                                            \
		return err_float(ctx, true);                                           \
	fail_under: __attribute__((unused));                                           \
		return err_float(ctx, false);                                          \
	fail_num: __attribute__((unused));                                             \
		return err_numeric(ctx);                                               \
	}

#define INT_KERNELS(T, TID, MIN, sfx)                                                  \
	BINARY_KERNEL(add_##sfx, T, T, TID,                                            \
		      if (__builtin_add_overflow(x, y, &r)) goto fail_range)           \
	BINARY_KERNEL(sub_##sfx, T, T, TID,                                            \
		      if (__builtin_sub_overflow(x, y, &r)) goto fail_range)           \
	BINARY_KERNEL(mul_##sfx, T, T, TID,                                            \
		      if (__builtin_mul_overflow(x, y, &r)) goto fail_range)           \
	BINARY_KERNEL(div_##sfx, T, T, TID,                                            \
		      if (y == 0) goto fail_div0;                                      \
		      if (y == -1) { if (x == MIN) goto fail_range; r = (T)-x; }       \
		      else r = (T)(x / y))                                             \
	BINARY_KERNEL(mod_##sfx, T, T, TID,                                            \
		      if (y == 0) goto fail_div0;                                      \
		      r = y == -1 ? 0 : (T)(x % y))

INT_KERNELS(int16_t, TYPE_INT16, INT16_MIN, i16)
INT_KERNELS(int32_t, TYPE_INT32, INT32_MIN, i32)
INT_KERNELS(int64_t, TYPE_INT64, INT64_MIN, i64)

#define FLOAT_KERNELS(T, sfx, ISINF)                                                   \
	BINARY_KERNEL(add_##sfx, T, T, TYPE_FLOAT64,                                   \
		      r = x + y; if (ISINF(r) && !ISINF(x) && !ISINF(y)) goto fail_over)  \
	BINARY_KERNEL(sub_##sfx, T, T, TYPE_FLOAT64,                                   \
		      r = x - y; if (ISINF(r) && !ISINF(x) && !ISINF(y)) goto fail_over)  \
	BINARY_KERNEL(mul_##sfx, T, T, TYPE_FLOAT64,                                   \
		      r = x * y; if (ISINF(r) && !ISINF(x) && !ISINF(y)) goto fail_over;  \
		      if (r == 0 && x != 0 && y != 0) goto fail_under)                 \
	BINARY_KERNEL(div_##sfx, T, T, TYPE_FLOAT64,                                   \
		      if (y == 0 && !isnan(x)) goto fail_div0;                         \
		      r = x / y; if (ISINF(r) && !ISINF(x)) goto fail_over;            \
		      if (r == 0 && x != 0 && !ISINF(y)) goto fail_under)

FLOAT_KERNELS(float, f32, isinf)
FLOAT_KERNELS(double, f64, isinf)

int
func_dec_max_scale(const Vector *args, int nargs)
{
	int j, m = 0;

	for (j = 0; j < nargs; j++)
		if (args[j].type.id == TYPE_DECIMAL && args[j].type.scale > m)
			m = args[j].type.scale;
	return m;
}

int
func_dec_align(FuncCtx *ctx, const Vector *args, int nargs, int scale, uint32_t count,
	       const Vector **aligned)
{
	Vector *copy;
	int j;

	for (j = 0; j < nargs; j++)
		if (args[j].type.id == TYPE_DECIMAL && args[j].type.scale != scale)
			break;
	if (j == nargs) {
		*aligned = args;
		return FLOE_OK;
	}
	copy = arena_alloc(ctx->arena, sizeof(Vector) * (size_t)nargs);
	for (j = 0; j < nargs; j++) {
		VectorView v;
		uint32_t i;
		int128 *d;
		copy[j] = args[j];
		if (args[j].type.id != TYPE_DECIMAL || args[j].type.scale == scale)
			continue;
		vector_view(&args[j], &v);
		vector_init(&copy[j], type_decimal(0, scale), ctx->arena, count ? count : 1);
		d = copy[j].data;
		for (i = 0; i < count; i++) {
			uint32_t k = ARGK(v, i);
			if (!ARGVALID(v, k)) {
				vector_set_null(&copy[j], i);
				continue;
			}
			if (func_dec_rescale(((const int128 *)v.data)[k], args[j].type.scale, scale,
					     &d[i]) != FLOE_OK)
				return err_numeric(ctx);
		}
	}
	*aligned = copy;
	return FLOE_OK;
}

/* numeric: + - % on aligned scales (dec_align'ed to the output scale) */
BINARY_KERNEL(add_dec_al, int128, int128, TYPE_DECIMAL,
	      if (__builtin_add_overflow(x, y, &r) || !func_dec_fits(r)) goto fail_num)
BINARY_KERNEL(sub_dec_al, int128, int128, TYPE_DECIMAL,
	      if (__builtin_sub_overflow(x, y, &r) || !func_dec_fits(r)) goto fail_num)
BINARY_KERNEL(mod_dec_al, int128, int128, TYPE_DECIMAL,
	      if (y == 0) goto fail_div0;
	      r = x % y)

/*
 * Display scales (vector.h, dscale) of a numeric result: per row, the max
 * (DS_MAX: + - %) or the sum (DS_SUM: *) of the arguments' display scales
 * (an integer argument counts 0), capped at out's scale.  Written only when
 * an argument's rows vary or out sits at NUMERIC_DEFAULT_SCALE (which would
 * otherwise read as a stored column's); else every row prints at out's
 * scale, which is then the same rule applied to the types.
 */
enum { DS_MAX, DS_SUM };

static void
dec_result_dscale(const Vector *args, int nargs, uint32_t count, Vector *out, int rule)
{
	VectorView v[2];
	const uint8_t *ds[2];
	bool any = false;
	uint32_t i;
	int j;

	if (out->type.id != TYPE_DECIMAL || out->type.precision != 0 || nargs > 2)
		return;
	bool uniform = true;
	int ud = 0;
	for (j = 0; j < nargs; j++) {
		int dj = 0;
		vector_view(&args[j], &v[j]);
		ds[j] = vector_dscale_of(&args[j]);
		if (vector_varies(&args[j])) {
			any = true;
			if (args[j].kind != VECTOR_CONST) {
				uniform = false;
				continue;
			}
			dj = vector_dscale_at(&args[j], ds[j], 0, ((const int128 *)v[j].data)[0]);
		} else if (args[j].type.id == TYPE_DECIMAL) {
			dj = args[j].type.scale;
		}
		ud = rule == DS_SUM ? ud + dj : (dj > ud ? dj : ud);
	}
	if (!any && out->type.scale != NUMERIC_DEFAULT_SCALE)
		return;
	if (uniform) {
		/* constants and fixed scales: one display scale for all rows */
		if (ud >= out->type.scale && out->type.scale != NUMERIC_DEFAULT_SCALE)
			return;
		vector_ensure_dscale(out);
		memset(out->dscale, ud < out->type.scale ? ud : out->type.scale, count);
		return;
	}
	vector_ensure_dscale(out);
	for (i = 0; i < count; i++) {
		int d = 0;
		for (j = 0; j < nargs; j++) {
			int dj = 0;
			if (args[j].type.id == TYPE_DECIMAL) {
				uint32_t k = ARGK(v[j], i);
				dj = vector_dscale_at(&args[j], ds[j], k, ((const int128 *)v[j].data)[k]);
			}
			d = rule == DS_SUM ? d + dj : (dj > d ? dj : d);
		}
		out->dscale[i] = (uint8_t)(d < out->type.scale ? d : out->type.scale);
	}
}

#define ALIGNED(fname, inner)                                                          \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		const Vector *al;                                                      \
		TRY(func_dec_align(ctx, args, nargs, out->type.scale, count, &al));    \
		TRY(inner(ctx, al, nargs, count, out));                                \
		dec_result_dscale(args, nargs, count, out, DS_MAX);                    \
		return FLOE_OK;                                                        \
	}

ALIGNED(add_dec, add_dec_al)
ALIGNED(sub_dec, sub_dec_al)
ALIGNED(mod_dec, mod_dec_al)

/* bitwise operators (int.c int4and...; shifts as the C compiler on x86 does them) */
#define BIT_KERNELS(T, UT, sfx, BITS)                                                  \
	BINARY_KERNEL(and_##sfx, T, T, TYPE_INT64, r = (T)(x & y))                     \
	BINARY_KERNEL(or_##sfx, T, T, TYPE_INT64, r = (T)(x | y))                      \
	BINARY_KERNEL(xor_##sfx, T, T, TYPE_INT64, r = (T)(x ^ y))

BIT_KERNELS(int16_t, uint16_t, i16, 16)
BIT_KERNELS(int32_t, uint32_t, i32, 32)
BIT_KERNELS(int64_t, uint64_t, i64, 64)

/* shift kernels: left T, right int4 */
#define SHIFT_KERNEL(fname, T, UT, MASK, OPX)                                          \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView va, vb;                                                     \
		const T *a;                                                            \
		const int32_t *b;                                                      \
		T *o = out->data;                                                      \
		uint32_t i;                                                            \
		vector_view(&args[0], &va);                                            \
		vector_view(&args[1], &vb);                                            \
		a = va.data;                                                           \
		b = vb.data;                                                           \
		for (i = 0; i < count; i++) {                                          \
			uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);                   \
			if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {                  \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			OPX;                                                           \
			out_valid(out, i);                                             \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

/* int2 operands are promoted to int, as in C: shift count mod 32 */
SHIFT_KERNEL(shl_i16, int16_t, uint32_t, 31,
	     o[i] = (int16_t)(uint32_t)((uint32_t)(int32_t)a[ka] << (b[kb] & 31)))
SHIFT_KERNEL(shr_i16, int16_t, uint32_t, 31, o[i] = (int16_t)((int32_t)a[ka] >> (b[kb] & 31)))
SHIFT_KERNEL(shl_i32, int32_t, uint32_t, 31, o[i] = (int32_t)((uint32_t)a[ka] << (b[kb] & 31)))
SHIFT_KERNEL(shr_i32, int32_t, uint32_t, 31, o[i] = a[ka] >> (b[kb] & 31))
SHIFT_KERNEL(shl_i64, int64_t, uint64_t, 63, o[i] = (int64_t)((uint64_t)a[ka] << (b[kb] & 63)))
SHIFT_KERNEL(shr_i64, int64_t, uint64_t, 63, o[i] = a[ka] >> (b[kb] & 63))

/* numeric *: product at scale s1+s2, then down to the output scale */
static int
mul_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const int128 *a, *b;
	int128 *o = out->data;
	int ps = args[0].type.scale + args[1].type.scale, os = out->type.scale;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		int128 r;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		if (__builtin_mul_overflow(a[ka], b[kb], &r)) {
			/* more than 128 bits before rounding (0.5 * 0.5 at scale
			 * 20 each): the 256-bit product, rounded */
			int sr;
			floe_error e;
			if (decimal_mul(a[ka], args[0].type.scale, b[kb], args[1].type.scale,
					&r, &sr, &e) != FLOE_OK ||
			    func_dec_rescale(r, sr, os, &r) != FLOE_OK)
				return err_numeric(ctx);
		} else if (ps != os)
			func_dec_rescale(r, ps, os, &r);
		if (!func_dec_fits(r))
			return err_numeric(ctx);
		o[i] = r;
		out_valid(out, i);
	}
	dec_result_dscale(args, nargs, count, out, DS_SUM);
	return FLOE_OK;
}

/*
 * |x| * 10^k / |y| rounded half away from zero, by long division one
 * decimal digit at a time (no 256-bit intermediate needed).  FLOE_ERR when
 * the quotient exceeds 38 digits.
 */
static int
udiv_scaled(uint128 x, uint128 y, int k, uint128 *q)
{
	uint128 quo = x / y, rem = x % y, lim = (uint128)func_pow10[38];
	int step, j;

	if (quo >= lim)
		return FLOE_ERR;
	for (step = 0; step <= k; step++) {
		/* next digit: floor(10*rem / y), without overflowing 10*rem */
		uint128 acc = 0;
		int d = 0;
		for (j = 0; j < 10; j++) {
			acc += rem;
			if (acc >= y) {
				acc -= y;
				d++;
			}
		}
		rem = acc;
		if (step == k) {        /* rounding digit */
			if (d >= 5)
				quo++;
			break;
		}
		quo = quo * 10 + (uint128)d;
		if (quo >= lim)
			return FLOE_ERR;
	}
	if (quo >= lim)
		return FLOE_ERR;
	*q = quo;
	return FLOE_OK;
}

/* x (scale sx) / y (scale sy) at scale so; FLOE_ERR on overflow, y != 0 */
int
func_dec_div(int128 x, int sx, int128 y, int sy, int so, int128 *out)
{
	int k = so + sy - sx;
	uint128 ux = x < 0 ? -(uint128)x : (uint128)x;
	uint128 uy = y < 0 ? -(uint128)y : (uint128)y;
	uint128 q;
	bool neg = (x < 0) != (y < 0);

	if (k < 0) {
		/* divide by y * 10^-k: grow the divisor, rounding via one more digit */
		int128 yy;
		if (-k > 38 || __builtin_mul_overflow((int128)uy, func_pow10[-k], &yy)) {
			*out = 0;
			return FLOE_OK;
		}
		uy = (uint128)yy;
		k = 0;
	}
	if (udiv_scaled(ux, uy, k, &q) != FLOE_OK)
		return FLOE_ERR;
	*out = neg ? -(int128)q : (int128)q;
	return FLOE_OK;
}

static int
div_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const int128 *a, *b;
	int128 *o = out->data;
	int sx = args[0].type.scale, sy = args[1].type.scale, so = out->type.scale;
	const uint8_t *dsa = vector_dscale_of(&args[0]), *dsb = vector_dscale_of(&args[1]);
	bool dyn = out->type.precision == 0 && DECIMAL_DIV_SHRINK;
	uint32_t i;

	if (dyn)
		vector_ensure_dscale(out);
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
		if (b[kb] == 0)
			return err_div0(ctx);
		if (dyn) {
			/* PostgreSQL's select_div_scale on the display values */
			int da = vector_dscale_at(&args[0], dsa, ka, a[ka]);
			int db = vector_dscale_at(&args[1], dsb, kb, b[kb]);
			int rs = decimal_div_scale(a[ka] / func_pow10[sx - da], da,
						   b[kb] / func_pow10[sy - db], db);
			if (rs < so && DECIMAL_DIV_SHRINK) {
				int128 q;
				if (func_dec_div(a[ka], sx, b[kb], sy, rs, &q) != FLOE_OK ||
				    func_dec_rescale(q, rs, so, &o[i]) != FLOE_OK)
					return err_numeric(ctx);
				out->dscale[i] = (uint8_t)rs;
				out_valid(out, i);
				continue;
			}
			out->dscale[i] = (uint8_t)so;
		}
		if (func_dec_div(a[ka], sx, b[kb], sy, so, &o[i]) != FLOE_OK)
			return err_numeric(ctx);
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* Unary kernel template: BODY sees x, writes r. */
#define UNARY_KERNEL(fname, TA, TO, TID, BODY)                                         \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView va;                                                         \
		const TA *a;                                                           \
		TO *o = out->data;                                                     \
		uint32_t i;                                                            \
		vector_view(&args[0], &va);                                            \
		a = va.data;                                                           \
		for (i = 0; i < count; i++) {                                          \
			uint32_t ka = ARGK(va, i);                                     \
			TA x;                                                          \
			TO r;                                                          \
			if (!ARGVALID(va, ka)) {                                       \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			x = a[ka];                                                     \
			BODY;                                                          \
			o[i] = r;                                                      \
			out_valid(out, i);                                             \
		}                                                                      \
		return FLOE_OK;                                                        \
	fail_range: __attribute__((unused));                                           \
		return err_range(ctx, TID);                                            \
	}

UNARY_KERNEL(neg_i16, int16_t, int16_t, TYPE_INT16, if (x == INT16_MIN) goto fail_range; r = (int16_t)-x)
UNARY_KERNEL(neg_i32, int32_t, int32_t, TYPE_INT32, if (x == INT32_MIN) goto fail_range; r = -x)
UNARY_KERNEL(neg_i64, int64_t, int64_t, TYPE_INT64, if (x == INT64_MIN) goto fail_range; r = -x)
UNARY_KERNEL(neg_f32, float, float, TYPE_FLOAT32, r = -x)
UNARY_KERNEL(neg_f64, double, double, TYPE_FLOAT64, r = -x)
UNARY_KERNEL(neg_dec_k, int128, int128, TYPE_DECIMAL, r = -x)

static int
neg_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	TRY(neg_dec_k(ctx, args, nargs, count, out));
	dec_result_dscale(args, nargs, count, out, DS_MAX);
	return FLOE_OK;
}
UNARY_KERNEL(not_i16, int16_t, int16_t, TYPE_INT16, r = (int16_t)~x)
UNARY_KERNEL(not_i32, int32_t, int32_t, TYPE_INT32, r = ~x)
UNARY_KERNEL(not_i64, int64_t, int64_t, TYPE_INT64, r = ~x)
static int
neg_iv(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va;
	const Interval *a;
	Interval *o = out->data;
	uint32_t i;

	vector_view(&args[0], &va);
	a = va.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i);
		Interval x;
		if (!ARGVALID(va, ka)) {
			out_null(out, i);
			continue;
		}
		x = a[ka];
		if (x.months == INT32_MIN || x.days == INT32_MIN || x.micros == INT64_MIN)
			return floe_errorf(ctx->err, ERRCODE_DATETIME_FIELD_OVERFLOW,
					   "interval out of range");
		o[i].months = -x.months;
		o[i].days = -x.days;
		o[i].micros = -x.micros;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
ident(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	vector_copy_rows(out, 0, &args[0], NULL, count);
	return FLOE_OK;
}

#define I2 TYPE_INT16
#define I4 TYPE_INT32
#define I8 TYPE_INT64
#define F4 TYPE_FLOAT32
#define F8 TYPE_FLOAT64
#define NU TYPE_DECIMAL
#define IV TYPE_INTERVAL

#define SIG2(nm, k, a, b, r) { nm, k, 2, 0, { a, b }, r, FRET_FIXED, true, true }
#define SIG2R(nm, k, a, b, rule) { nm, k, 2, 0, { a, b }, NU, rule, true, true }
#define SIG1(nm, k, a, r) { nm, k, 1, 0, { a }, r, FRET_FIXED, true, true }

#define INT_SIGS(nm, op)                                                               \
	SIG2(nm, op##_i16, I2, I2, I2), SIG2(nm, op##_i32, I2, I4, I4),                \
	SIG2(nm, op##_i64, I2, I8, I8), SIG2(nm, op##_i32, I4, I2, I4),                \
	SIG2(nm, op##_i32, I4, I4, I4), SIG2(nm, op##_i64, I4, I8, I8),                \
	SIG2(nm, op##_i64, I8, I2, I8), SIG2(nm, op##_i64, I8, I4, I8),                \
	SIG2(nm, op##_i64, I8, I8, I8)
#define FLOAT_SIGS(nm, op)                                                             \
	SIG2(nm, op##_f32, F4, F4, F4), SIG2(nm, op##_f64, F4, F8, F8),                \
	SIG2(nm, op##_f64, F8, F4, F8), SIG2(nm, op##_f64, F8, F8, F8)

const ScalarFunc func_arith_table[] = {
	INT_SIGS("+", add), FLOAT_SIGS("+", add), SIG2R("+", add_dec, NU, NU, FRET_DEC_ADD),
	INT_SIGS("-", sub), FLOAT_SIGS("-", sub), SIG2R("-", sub_dec, NU, NU, FRET_DEC_ADD),
	INT_SIGS("*", mul), FLOAT_SIGS("*", mul), SIG2R("*", mul_dec, NU, NU, FRET_DEC_MUL),
	INT_SIGS("/", div), FLOAT_SIGS("/", div), SIG2R("/", div_dec, NU, NU, FRET_DEC_DIV),
	SIG2("%", mod_i16, I2, I2, I2), SIG2("%", mod_i32, I4, I4, I4),
	SIG2("%", mod_i64, I8, I8, I8), SIG2R("%", mod_dec, NU, NU, FRET_DEC_ADD),
	SIG2("mod", mod_i16, I2, I2, I2), SIG2("mod", mod_i32, I4, I4, I4),
	SIG2("mod", mod_i64, I8, I8, I8), SIG2R("mod", mod_dec, NU, NU, FRET_DEC_ADD),
	SIG1("u-", neg_i16, I2, I2), SIG1("u-", neg_i32, I4, I4), SIG1("u-", neg_i64, I8, I8),
	SIG1("u-", neg_f32, F4, F4), SIG1("u-", neg_f64, F8, F8),
	{ "u-", neg_dec, 1, 0, { NU }, NU, FRET_ARG0, true, true },
	SIG1("u-", neg_iv, IV, IV),
	SIG2("&", and_i16, I2, I2, I2), SIG2("&", and_i32, I4, I4, I4), SIG2("&", and_i64, I8, I8, I8),
	SIG2("|", or_i16, I2, I2, I2), SIG2("|", or_i32, I4, I4, I4), SIG2("|", or_i64, I8, I8, I8),
	SIG2("#", xor_i16, I2, I2, I2), SIG2("#", xor_i32, I4, I4, I4), SIG2("#", xor_i64, I8, I8, I8),
	SIG1("~", not_i16, I2, I2), SIG1("~", not_i32, I4, I4), SIG1("~", not_i64, I8, I8),
	SIG2("<<", shl_i16, I2, I4, I2), SIG2("<<", shl_i32, I4, I4, I4), SIG2("<<", shl_i64, I8, I4, I8),
	SIG2(">>", shr_i16, I2, I4, I2), SIG2(">>", shr_i32, I4, I4, I4), SIG2(">>", shr_i64, I8, I4, I8),
	SIG1("u+", ident, I2, I2), SIG1("u+", ident, I4, I4), SIG1("u+", ident, I8, I8),
	SIG1("u+", ident, F4, F4), SIG1("u+", ident, F8, F8),
	{ "u+", ident, 1, 0, { NU }, NU, FRET_ARG0, true, true },
};
const int func_arith_count = sizeof func_arith_table / sizeof func_arith_table[0];
