/*
 * func_compare.c — comparison operators = <> < <= > >= on every floe type.
 *
 * Semantics follow PostgreSQL 15 (utils/adt/int.c, float.c float8_cmp_internal,
 * numeric.c, varlena.c, date.c, timestamp.c interval_cmp_value, uuid.c):
 *   - floats: NaN equals NaN and sorts above every other value;
 *   - numeric: the resolver aligns both sides to one scale, so comparing
 *     unscaled int128 values is exact;
 *   - text/bytea: byte-wise (C collation) via strview_cmp;
 *   - interval: compared as months*30 days + days + micros (interval_cmp_value);
 *   - cross-type signatures (int2 = int8, date < timestamp) are listed as
 *     PostgreSQL has them; the resolver widens both sides to the wider type.
 * NULL in either side gives NULL.
 *
 * INTERFACE ROUTINES
 *   func_compare_table[] / func_compare_count   (searched by func_registry.c)
 */
#include <math.h>
#include "func/func_internal.h"

#define CMP_NUM(x, y) (((x) > (y)) - ((x) < (y)))

static inline int
cmp_f64(double x, double y)
{
	if (isnan(x))
		return isnan(y) ? 0 : 1;
	if (isnan(y))
		return -1;
	return CMP_NUM(x, y);
}

static inline int128
iv_span(Interval v)
{
	return (int128)v.micros + ((int128)v.days + (int128)v.months * 30) * (int128)86400000000LL;
}

#define CMP_F(x, y) cmp_f64((x), (y))
#define CMP_S(x, y) strview_cmp(&(x), &(y))
#define CMP_IV(x, y) CMP_NUM(iv_span(x), iv_span(y))
#define CMP_U(x, y) memcmp((x).b, (y).b, 16)

#define CMP_KERNEL(fname, T, CMP, OP)                                                  \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView va, vb;                                                     \
		const T *a, *b;                                                        \
		uint8_t *o = out->data;                                                \
		uint32_t i;                                                            \
		vector_view(&args[0], &va);                                            \
		vector_view(&args[1], &vb);                                            \
		a = va.data;                                                           \
		b = vb.data;                                                           \
		if (!va.sel && !va.validity && !vb.validity && !out->validity &&       \
		    (!vb.sel || vb.sel == vector_zero_sel)) {                          \
			/* fast path: flat no-NULL left, flat or constant right */     \
			uint32_t step = vb.sel ? 0 : 1;                                \
			for (i = 0; i < count; i++)                                    \
				o[i] = CMP(a[i], b[i * step]) OP 0;                    \
			return FLOE_OK;                                                \
		}                                                                      \
		for (i = 0; i < count; i++) {                                          \
			uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);                   \
			if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {                  \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			o[i] = CMP(a[ka], b[kb]) OP 0;                                 \
			out_valid(out, i);                                             \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

#define CMP_KERNELS(T, CMP, sfx)                                                       \
	CMP_KERNEL(eq_##sfx, T, CMP, ==) CMP_KERNEL(ne_##sfx, T, CMP, !=)              \
	CMP_KERNEL(lt_##sfx, T, CMP, <) CMP_KERNEL(le_##sfx, T, CMP, <=)               \
	CMP_KERNEL(gt_##sfx, T, CMP, >) CMP_KERNEL(ge_##sfx, T, CMP, >=)

CMP_KERNELS(uint8_t, CMP_NUM, b)
CMP_KERNELS(int16_t, CMP_NUM, i16)
CMP_KERNELS(int32_t, CMP_NUM, i32)
CMP_KERNELS(int64_t, CMP_NUM, i64)
CMP_KERNELS(float, CMP_F, f32)
CMP_KERNELS(double, CMP_F, f64)
CMP_KERNELS(int128, CMP_NUM, deca)

/* numeric comparisons: both sides at the larger scale first */
#define DEC_CMP(op)                                                                    \
	static int op##_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, \
			    Vector *out)                                               \
	{                                                                              \
		const Vector *al;                                                      \
		TRY(func_dec_align(ctx, args, nargs, func_dec_max_scale(args, nargs), count, &al)); \
		return op##_deca(ctx, al, nargs, count, out);                          \
	}
DEC_CMP(eq) DEC_CMP(ne) DEC_CMP(lt) DEC_CMP(le) DEC_CMP(gt) DEC_CMP(ge)
CMP_KERNELS(strview, CMP_S, s)
CMP_KERNELS(Interval, CMP_IV, iv)
CMP_KERNELS(Uuid, CMP_U, u)

/*
 * text = and <>: one 8-byte compare first (strview_eq).  Against a
 * constant of at most STRVIEW_INLINE bytes, both strviews hold every byte
 * inline (zero padded, strview_make), so equality is two 8-byte compares,
 * branch-free.
 */
static int
eq_text_common(const Vector *args, uint32_t count, Vector *out, bool negate)
{
	VectorView va, vb;
	const strview *a, *b;
	uint8_t *o = out->data;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	if (vb.sel == vector_zero_sel && !vb.validity && !va.validity && !out->validity &&
	    b[0].len <= STRVIEW_INLINE) {
		uint64_t h0, h1;
		memcpy(&h0, &b[0], 8);
		memcpy(&h1, (const char *)&b[0] + 8, 8);
		for (i = 0; i < count; i++) {
			uint32_t ka = ARGK(va, i);
			uint64_t x0, x1;
			memcpy(&x0, &a[ka], 8);
			memcpy(&x1, (const char *)&a[ka] + 8, 8);
			o[i] = (uint8_t)(((x0 == h0) & (x1 == h1)) != negate);
		}
		return FLOE_OK;
	}
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		o[i] = strview_eq(&a[ka], &b[kb]) != negate;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
eq_text(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return eq_text_common(args, count, out, false);
}

static int
ne_text(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return eq_text_common(args, count, out, true);
}

/* char(n): trailing spaces do not count (bpchareq, bpcharcmp) */
static inline int
cmp_bpchar(const strview *a, const strview *b)
{
	const char *pa = strview_data(a), *pb = strview_data(b);
	uint32_t la = a->len, lb = b->len, n;
	int c;

	while (la && pa[la - 1] == ' ')
		la--;
	while (lb && pb[lb - 1] == ' ')
		lb--;
	n = la < lb ? la : lb;
	c = n ? memcmp(pa, pb, n) : 0;
	if (c)
		return c;
	return la < lb ? -1 : la > lb;
}

#define CMP_BP(x, y) cmp_bpchar(&(x), &(y))
CMP_KERNELS(strview, CMP_BP, bp)

/*
 * GREATEST/LEAST(v1, ...): NULLs are ignored; NULL only when every argument
 * is NULL (PostgreSQL's MinMaxExpr).  The resolver gives all arguments one
 * type (variadic signature per type).
 */
#define MINMAX_KERNEL(fname, T, CMP, SIGN)                                             \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		VectorView vs[16];                                                     \
		VectorView *v = nargs <= 16 ? vs :                                     \
			arena_alloc(ctx->arena, sizeof *v * (size_t)nargs);            \
		T *o = out->data;                                                      \
		uint32_t i;                                                            \
		int j;                                                                 \
		for (j = 0; j < nargs; j++)                                            \
			vector_view(&args[j], &v[j]);                                  \
		for (i = 0; i < count; i++) {                                          \
			const T *best = NULL;                                          \
			for (j = 0; j < nargs; j++) {                                  \
				uint32_t k = ARGK(v[j], i);                            \
				const T *x;                                            \
				if (!ARGVALID(v[j], k))                                \
					continue;                                      \
				x = &((const T *)v[j].data)[k];                        \
				if (!best || CMP(*x, *best) * (SIGN) > 0)              \
					best = x;                                      \
			}                                                              \
			if (!best) {                                                   \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			o[i] = *best;                                                  \
			out_valid(out, i);                                             \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

#define MINMAX_BOTH(sfx, T, CMP)                                                       \
	MINMAX_KERNEL(greatest_##sfx, T, CMP, 1) MINMAX_KERNEL(least_##sfx, T, CMP, -1)

MINMAX_BOTH(b, uint8_t, CMP_NUM)
MINMAX_BOTH(i16, int16_t, CMP_NUM)
MINMAX_BOTH(i32, int32_t, CMP_NUM)
MINMAX_BOTH(i64, int64_t, CMP_NUM)
MINMAX_BOTH(f32, float, CMP_F)
MINMAX_BOTH(f64, double, CMP_F)
MINMAX_BOTH(deca, int128, CMP_NUM)

static int
greatest_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	const Vector *al;

	TRY(func_dec_align(ctx, args, nargs, out->type.scale, count, &al));
	return greatest_deca(ctx, al, nargs, count, out);
}

static int
least_dec(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	const Vector *al;

	TRY(func_dec_align(ctx, args, nargs, out->type.scale, count, &al));
	return least_deca(ctx, al, nargs, count, out);
}
MINMAX_BOTH(s, strview, CMP_S)
MINMAX_BOTH(iv, Interval, CMP_IV)
MINMAX_BOTH(u, Uuid, CMP_U)

#define BO TYPE_BOOL
#define OPS6(A, B, sfx)                                                                \
	{ "=", eq_##sfx, 2, 0, { A, B }, BO, FRET_FIXED, true, true },                 \
	{ "<>", ne_##sfx, 2, 0, { A, B }, BO, FRET_FIXED, true, true },                \
	{ "<", lt_##sfx, 2, 0, { A, B }, BO, FRET_FIXED, true, true },                 \
	{ "<=", le_##sfx, 2, 0, { A, B }, BO, FRET_FIXED, true, true },                \
	{ ">", gt_##sfx, 2, 0, { A, B }, BO, FRET_FIXED, true, true },                 \
	{ ">=", ge_##sfx, 2, 0, { A, B }, BO, FRET_FIXED, true, true }

#define I2 TYPE_INT16
#define I4 TYPE_INT32
#define I8 TYPE_INT64
#define F4 TYPE_FLOAT32
#define F8 TYPE_FLOAT64
#define DA TYPE_DATE
#define TS TYPE_TIMESTAMP
#define TZ TYPE_TIMESTAMPTZ

const ScalarFunc func_compare_table[] = {
	OPS6(TYPE_BOOL, TYPE_BOOL, b),
	OPS6(I2, I2, i16), OPS6(I2, I4, i32), OPS6(I2, I8, i64),
	OPS6(I4, I2, i32), OPS6(I4, I4, i32), OPS6(I4, I8, i64),
	OPS6(I8, I2, i64), OPS6(I8, I4, i64), OPS6(I8, I8, i64),
	OPS6(F4, F4, f32), OPS6(F4, F8, f64), OPS6(F8, F4, f64), OPS6(F8, F8, f64),
	OPS6(TYPE_DECIMAL, TYPE_DECIMAL, dec),
	{ "=", eq_text, 2, 0, { TYPE_TEXT, TYPE_TEXT }, BO, FRET_FIXED, true, true },
	{ "<>", ne_text, 2, 0, { TYPE_TEXT, TYPE_TEXT }, BO, FRET_FIXED, true, true },
	{ "<", lt_s, 2, 0, { TYPE_TEXT, TYPE_TEXT }, BO, FRET_FIXED, true, true },
	{ "<=", le_s, 2, 0, { TYPE_TEXT, TYPE_TEXT }, BO, FRET_FIXED, true, true },
	{ ">", gt_s, 2, 0, { TYPE_TEXT, TYPE_TEXT }, BO, FRET_FIXED, true, true },
	{ ">=", ge_s, 2, 0, { TYPE_TEXT, TYPE_TEXT }, BO, FRET_FIXED, true, true },
	OPS6(TYPE_BYTEA, TYPE_BYTEA, s),
	OPS6(DA, DA, i32), OPS6(DA, TS, i64), OPS6(DA, TZ, i64),
	OPS6(TS, DA, i64), OPS6(TS, TS, i64), OPS6(TS, TZ, i64),
	OPS6(TZ, DA, i64), OPS6(TZ, TS, i64), OPS6(TZ, TZ, i64),
	OPS6(TYPE_TIME, TYPE_TIME, i64),
	OPS6(TYPE_INTERVAL, TYPE_INTERVAL, iv),
	OPS6(TYPE_UUID, TYPE_UUID, u),
#define GL(T, sfx, rule)                                                               \
	{ "greatest", greatest_##sfx, 1, 1, { T }, T, rule, false, false },            \
	{ "least", least_##sfx, 1, 1, { T }, T, rule, false, false }
	GL(TYPE_BOOL, b, FRET_FIXED), GL(I2, i16, FRET_FIXED), GL(I4, i32, FRET_FIXED),
	GL(I8, i64, FRET_FIXED), GL(F4, f32, FRET_FIXED), GL(F8, f64, FRET_FIXED),
	GL(TYPE_DECIMAL, dec, FRET_DEC_ADD), GL(TYPE_TEXT, s, FRET_FIXED),
	GL(TYPE_BYTEA, s, FRET_FIXED), GL(DA, i32, FRET_FIXED), GL(TS, i64, FRET_FIXED),
	GL(TZ, i64, FRET_FIXED), GL(TYPE_TIME, i64, FRET_FIXED), GL(TYPE_INTERVAL, iv, FRET_FIXED),
	GL(TYPE_UUID, u, FRET_FIXED),
};
const int func_compare_count = sizeof func_compare_table / sizeof func_compare_table[0];

/* char(n) op char(n): picked by the resolver, never searched by name */
static const ScalarFunc bpchar_ops[] = {
	OPS6(TYPE_TEXT, TYPE_TEXT, bp),
};

const ScalarFunc *
func_compare_bpchar(const char *op)
{
	size_t i;

	for (i = 0; i < sizeof bpchar_ops / sizeof bpchar_ops[0]; i++)
		if (!strcmp(bpchar_ops[i].name, op))
			return &bpchar_ops[i];
	return NULL;
}
