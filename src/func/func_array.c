/*
 * func_array.c — array operators and functions, and their polymorphic
 * type resolution (PostgreSQL 15's anycompatiblearray/anycompatible).
 *
 * Spec: PostgreSQL 15 documentation 9.19 "Array Functions and Operators"
 * and 9.24 "Row and Array Comparisons" (ANY/ALL over an array), with
 * results checked against a real PostgreSQL 15 in
 * tests/sql/pgdiff/array_*.test.
 *
 *   = <> < <= > >=          btarraycmp order (array.h)
 *   ||                      array || array, array || elem, elem || array
 *   array_cat/append/prepend, array_length, array_upper, array_lower,
 *   array_ndims, array_dims, cardinality, array_position(s), array_remove,
 *   array_replace, string_to_array, array_to_string, and the signatures of
 *   func_regex.c's regexp_match / regexp_split_to_array (text[] results)
 *   floe_array_build(e1, ..., en)          ARRAY[e1, ..., en] (binder)
 *   floe_array_subscript(a, i)             a[i]: NULL out of range
 *   floe_array_slice(a, lo, hi) [_lo, _hi, _all]   a[lo:hi], a[lo:], a[:hi], a[:]
 *   floe_any_<op>(x, a) / floe_all_<op>(x, a)      x op ANY/ALL (a)
 *
 * Resolution (func_array_resolve, called by func_resolve_scalar first):
 * a call is ours when its name is one of the functions above, or it is an
 * operator with an array argument.  Arguments of array kind accept arrays
 * and unknown literals (which become the array type), element arguments
 * any non-array; the element type is the common type of every array's
 * element and every element argument (PostgreSQL's anycompatible rule,
 * an implicit cast one way), unknown-only calls default to text.
 *
 * INTERFACE ROUTINES
 *   func_array_resolve(name, argtypes, nargs, &fn, &ret, cast_to, &handled, err)
 *
 * Invariants: kernels decode each row into a scratch arena freed before
 * they return; result arrays and strings are copied into out->arena.
 */
#include <stdio.h>
#include <string.h>
#include "func/func_internal.h"
#include "types/array.h"
#include "types/cast.h"
#include "types/text.h"

/* ---- helpers ----------------------------------------------------------- */

typedef struct Rows {
	VectorView v[4];
	int n;
} Rows;

static void
rows_view(Rows *r, const Vector *args, int nargs)
{
	int j;
	r->n = nargs < 4 ? nargs : 4;
	for (j = 0; j < r->n; j++)
		vector_view(&args[j], &r->v[j]);
}

static bool
row_null(const Rows *r, int j, uint32_t i)
{
	uint32_t k = ARGK(r->v[j], i);
	return !ARGVALID(r->v[j], k);
}

static const strview *
row_str(const Rows *r, int j, uint32_t i)
{
	return &((const strview *)r->v[j].data)[ARGK(r->v[j], i)];
}

static int64_t
row_int(const Vector *arg, const Rows *r, int j, uint32_t i)
{
	uint32_t k = ARGK(r->v[j], i);
	switch (arg->type.id) {
	case TYPE_INT16: return ((const int16_t *)r->v[j].data)[k];
	case TYPE_INT32: return ((const int32_t *)r->v[j].data)[k];
	default: return ((const int64_t *)r->v[j].data)[k];
	}
}

static int
decode(FuncCtx *ctx, Arena *a, const Vector *arg, const Rows *r, int j, uint32_t i, Value **vals,
       uint32_t *n)
{
	return array_decode(row_str(r, j, i), arg->type, a, vals, n, ctx->err);
}

static int
emit(FuncCtx *ctx, Arena *a, Vector *out, uint32_t i, const Value *vals, uint32_t n)
{
	strview s;
	TRY(array_encode(a, out->type, vals, n, &s, ctx->err));
	vector_set_string(out, i, strview_data(&s), s.len);
	return FLOE_OK;
}

static void
set_int(Vector *out, uint32_t i, int32_t x)
{
	((int32_t *)out->data)[i] = x;
	out_valid(out, i);
}

/* IS NOT DISTINCT FROM between elements (array_position, array_remove) */
static bool
same(const Value *x, const Value *y)
{
	if (x->is_null || y->is_null)
		return x->is_null && y->is_null;
	return array_value_compare(x, y) == 0;
}

#define KERNEL(name) \
	static int name(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)

#define BEGIN                                          \
	Rows r;                                        \
	Arena *a = arena_new(0);                       \
	int rc = FLOE_OK;                              \
	uint32_t i;                                    \
	rows_view(&r, args, nargs);                    \
	(void)ctx;                                     \
	for (i = 0; i < count && rc == FLOE_OK; i++) { \
		if ((i & 63) == 63)                    \
			arena_reset(a);

#define END         \
	}           \
	arena_free(a); \
	return rc;

#define CHECK(x) do { if ((x) != FLOE_OK) { rc = FLOE_ERR; continue; } } while (0)

/* ---- construction ------------------------------------------------------ */

KERNEL(k_build)
{
	Value *vals = NULL;
	int j;
	BEGIN
	vals = ARENA_ARRAY(a, Value, nargs + 1);
	for (j = 0; j < nargs; j++)
		vector_get_value(&args[j], i, &vals[j]);
	CHECK(emit(ctx, a, out, i, vals, (uint32_t)nargs));
	END
}

/* ---- comparison -------------------------------------------------------- */

#define CMPK(fname, OP)                                                       \
	KERNEL(fname)                                                         \
	{                                                                     \
		BEGIN                                                         \
		if (row_null(&r, 0, i) || row_null(&r, 1, i)) {               \
			out_null(out, i);                                     \
			continue;                                             \
		}                                                             \
		((uint8_t *)out->data)[i] =                                   \
			array_compare(row_str(&r, 0, i), row_str(&r, 1, i),   \
				      args[0].type) OP 0;                     \
		out_valid(out, i);                                            \
		END                                                           \
	}
CMPK(k_eq, ==)
CMPK(k_ne, !=)
CMPK(k_lt, <)
CMPK(k_le, <=)
CMPK(k_gt, >)
CMPK(k_ge, >=)

/* x op ANY/ALL (arr): ANY is true when some element compares true, else
 * NULL when x or some element is NULL, else false; ALL dually; an empty
 * array gives false/true whatever x is; a NULL array gives NULL. */
static int
anyall(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, int op, bool any)
{
	BEGIN
	Value x, *vals;
	uint32_t n, k;
	bool hit = false, unknown = false;
	if (row_null(&r, 1, i)) {
		out_null(out, i);
		continue;
	}
	CHECK(decode(ctx, a, &args[1], &r, 1, i, &vals, &n));
	vector_get_value(&args[0], i, &x);
	if (!x.is_null && x.type.id == TYPE_DECIMAL)
		value_to_display_scale(&x);
	for (k = 0; k < n && !hit; k++) {
		int c;
		bool t;
		if (x.is_null || vals[k].is_null) {
			unknown = true;
			continue;
		}
		c = array_value_compare(&x, &vals[k]);
		switch (op) {
		case 0: t = c == 0; break;
		case 1: t = c != 0; break;
		case 2: t = c < 0; break;
		case 3: t = c <= 0; break;
		case 4: t = c > 0; break;
		default: t = c >= 0; break;
		}
		if (t == any)
			hit = true;
	}
	if (hit) {
		((uint8_t *)out->data)[i] = any;
		out_valid(out, i);
	} else if (unknown) {
		out_null(out, i);
	} else {
		((uint8_t *)out->data)[i] = !any;
		out_valid(out, i);
	}
	END
}

#define ANYK(fname, op, any) \
	KERNEL(fname) { return anyall(ctx, args, nargs, count, out, op, any); }
ANYK(k_any_eq, 0, true)
ANYK(k_any_ne, 1, true)
ANYK(k_any_lt, 2, true)
ANYK(k_any_le, 3, true)
ANYK(k_any_gt, 4, true)
ANYK(k_any_ge, 5, true)
ANYK(k_all_eq, 0, false)
ANYK(k_all_ne, 1, false)
ANYK(k_all_lt, 2, false)
ANYK(k_all_le, 3, false)
ANYK(k_all_gt, 4, false)
ANYK(k_all_ge, 5, false)

/* ---- concatenation ----------------------------------------------------- */

KERNEL(k_cat)
{
	BEGIN
	Value *x = NULL, *y = NULL, *all;
	uint32_t nx = 0, ny = 0;
	bool n0 = row_null(&r, 0, i), n1 = row_null(&r, 1, i);
	if (n0 && n1) {
		out_null(out, i);
		continue;
	}
	if (!n0)
		CHECK(decode(ctx, a, &args[0], &r, 0, i, &x, &nx));
	if (!n1)
		CHECK(decode(ctx, a, &args[1], &r, 1, i, &y, &ny));
	all = ARENA_ARRAY(a, Value, nx + ny + 1);
	if (nx)
		memcpy(all, x, nx * sizeof(Value));
	if (ny)
		memcpy(all + nx, y, ny * sizeof(Value));
	CHECK(emit(ctx, a, out, i, all, nx + ny));
	END
}

/* array_append(arr, e) (ai = 0) and array_prepend(e, arr) (ai = 1) */
static int
append(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, int ai)
{
	BEGIN
	Value *x = NULL, *all, e;
	uint32_t nx = 0;
	if (!row_null(&r, ai, i))
		CHECK(decode(ctx, a, &args[ai], &r, ai, i, &x, &nx));
	vector_get_value(&args[1 - ai], i, &e);
	all = ARENA_ARRAY(a, Value, nx + 2);
	if (ai == 0) {
		if (nx)
			memcpy(all, x, nx * sizeof(Value));
		all[nx] = e;
	} else {
		all[0] = e;
		if (nx)
			memcpy(all + 1, x, nx * sizeof(Value));
	}
	CHECK(emit(ctx, a, out, i, all, nx + 1));
	END
}

KERNEL(k_append) { return append(ctx, args, nargs, count, out, 0); }
KERNEL(k_prepend) { return append(ctx, args, nargs, count, out, 1); }

/* ---- dimensions -------------------------------------------------------- */

static bool
count_of(FuncCtx *ctx, Arena *a, const Vector *args, const Rows *r, uint32_t i, uint32_t *n,
	 int *rc)
{
	Value *vals;
	if (row_null(r, 0, i))
		return false;
	if (decode(ctx, a, &args[0], r, 0, i, &vals, n) != FLOE_OK) {
		*rc = FLOE_ERR;
		return false;
	}
	return true;
}

/* array_length / array_upper (upper = true) / array_lower (lower) */
static int
dim(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, int which)
{
	BEGIN
	uint32_t n;
	int32_t lb;
	if (!count_of(ctx, a, args, &r, i, &n, &rc) || row_null(&r, 1, i) ||
	    row_int(&args[1], &r, 1, i) != 1 || n == 0) {
		out_null(out, i);
		continue;
	}
	/* int2vector / oidvector: lower bound 0 (array.h) */
	lb = array_lower_bound(args[0].type);
	set_int(out, i, which == 2 ? lb : which == 1 ? (int32_t)n - 1 + lb : (int32_t)n);
	END
}

KERNEL(k_length) { return dim(ctx, args, nargs, count, out, 0); }
KERNEL(k_upper) { return dim(ctx, args, nargs, count, out, 1); }
KERNEL(k_lower) { return dim(ctx, args, nargs, count, out, 2); }

KERNEL(k_cardinality)
{
	BEGIN
	uint32_t n;
	if (!count_of(ctx, a, args, &r, i, &n, &rc)) {
		out_null(out, i);
		continue;
	}
	set_int(out, i, (int32_t)n);
	END
}

KERNEL(k_ndims)
{
	BEGIN
	uint32_t n;
	if (!count_of(ctx, a, args, &r, i, &n, &rc) || n == 0) {
		out_null(out, i);
		continue;
	}
	set_int(out, i, 1);
	END
}

KERNEL(k_dims)
{
	BEGIN
	uint32_t n;
	char buf[32];
	if (!count_of(ctx, a, args, &r, i, &n, &rc) || n == 0) {
		out_null(out, i);
		continue;
	}
	snprintf(buf, sizeof buf, "[%d:%d]", array_lower_bound(args[0].type),
		 (int)n - 1 + array_lower_bound(args[0].type));
	vector_set_string(out, i, buf, (uint32_t)strlen(buf));
	END
}

/* ---- subscripts -------------------------------------------------------- */

KERNEL(k_subscript)
{
	BEGIN
	Value *vals, e;
	uint32_t n;
	int64_t k;
	if (row_null(&r, 0, i) || row_null(&r, 1, i)) {
		out_null(out, i);
		continue;
	}
	CHECK(decode(ctx, a, &args[0], &r, 0, i, &vals, &n));
	k = row_int(&args[1], &r, 1, i) + 1 - array_lower_bound(args[0].type);
	if (k < 1 || k > (int64_t)n || vals[k - 1].is_null) {
		out_null(out, i);
		continue;
	}
	CHECK(array_elem_value(&vals[k - 1], out->type, &e, ctx->err));
	vector_set_value(out, i, &e);
	END
}

/* a[lo:hi]; has_lo/has_hi false: that bound omitted */
static int
slice(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, bool has_lo,
      bool has_hi)
{
	BEGIN
	Value *vals;
	uint32_t n;
	int64_t lo = 1, hi;
	int jl = 1, jh = has_lo ? 2 : 1;
	if (row_null(&r, 0, i) || (has_lo && row_null(&r, jl, i)) || (has_hi && row_null(&r, jh, i))) {
		out_null(out, i);
		continue;
	}
	CHECK(decode(ctx, a, &args[0], &r, 0, i, &vals, &n));
	hi = n;
	if (has_lo && row_int(&args[jl], &r, jl, i) > lo)
		lo = row_int(&args[jl], &r, jl, i);
	if (has_hi && row_int(&args[jh], &r, jh, i) < hi)
		hi = row_int(&args[jh], &r, jh, i);
	if (hi < lo)
		CHECK(emit(ctx, a, out, i, vals, 0));
	else
		CHECK(emit(ctx, a, out, i, vals + lo - 1, (uint32_t)(hi - lo + 1)));
	END
}

KERNEL(k_slice) { return slice(ctx, args, nargs, count, out, true, true); }
KERNEL(k_slice_lo) { return slice(ctx, args, nargs, count, out, true, false); }
KERNEL(k_slice_hi) { return slice(ctx, args, nargs, count, out, false, true); }
KERNEL(k_slice_all) { return slice(ctx, args, nargs, count, out, false, false); }

/* ---- searching --------------------------------------------------------- */

/* the element argument j of row i, at the array's element scale */
static void
elem_arg(const Vector *args, int j, uint32_t i, Value *e)
{
	vector_get_value(&args[j], i, e);
	if (!e->is_null && e->type.id == TYPE_DECIMAL)
		value_to_display_scale(e);
}

KERNEL(k_position)
{
	BEGIN
	Value *vals, e;
	uint32_t n, k;
	int64_t start = 1;
	if (row_null(&r, 0, i)) {
		out_null(out, i);
		continue;
	}
	if (nargs == 3) {
		if (row_null(&r, 2, i)) {
			rc = floe_errorf(ctx->err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					 "initial position must not be null");
			continue;
		}
		start = row_int(&args[2], &r, 2, i);
	}
	CHECK(decode(ctx, a, &args[0], &r, 0, i, &vals, &n));
	elem_arg(args, 1, i, &e);
	out_null(out, i);
	for (k = start < 1 ? 0 : (uint32_t)(start - 1); start <= (int64_t)n && k < n; k++)
		if (same(&vals[k], &e)) {
			set_int(out, i, (int32_t)k + 1);
			break;
		}
	END
}

/*
 * array_positions, array_remove and array_replace: one pass comparing each
 * element with argument 1 (IS NOT DISTINCT FROM) that keeps, per element,
 * its position when it is the same (POSITIONS), the element when it is not
 * (REMOVE), or argument 2 in place of the same ones (REPLACE).
 */
enum { POSITIONS, REMOVE, REPLACE };

static int
scan_same(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, int what)
{
	BEGIN
	Value *vals, e, to, *res;
	uint32_t n, k, m = 0;
	if (row_null(&r, 0, i)) {
		out_null(out, i);
		continue;
	}
	CHECK(decode(ctx, a, &args[0], &r, 0, i, &vals, &n));
	elem_arg(args, 1, i, &e);
	if (what == REPLACE)
		elem_arg(args, 2, i, &to);
	res = ARENA_ARRAY(a, Value, n + 1);
	for (k = 0; k < n; k++) {
		bool hit = same(&vals[k], &e);
		if (what == POSITIONS && hit)
			res[m++] = value_int(TYPE_INT32, k + 1);
		else if (what == REMOVE && !hit)
			res[m++] = vals[k];
		else if (what == REPLACE)
			res[m++] = hit ? to : vals[k];
	}
	CHECK(emit(ctx, a, out, i, res, m));
	END
}

KERNEL(k_positions) { return scan_same(ctx, args, nargs, count, out, POSITIONS); }
KERNEL(k_remove) { return scan_same(ctx, args, nargs, count, out, REMOVE); }
KERNEL(k_replace) { return scan_same(ctx, args, nargs, count, out, REPLACE); }

/* ---- text ---------------------------------------------------------------- */

/* string_to_array(s, delim [, null_string]) */
KERNEL(k_string_to_array)
{
	BEGIN
	const strview *s, *d, *ns = NULL;
	const char *p, *dp;
	uint32_t len, dl, cap, m = 0, at = 0;
	Value *vals;
	SqlType tt = type_make(TYPE_TEXT);
	if (row_null(&r, 0, i)) {
		out_null(out, i);
		continue;
	}
	s = row_str(&r, 0, i);
	p = strview_data(s);
	len = s->len;
	d = row_null(&r, 1, i) ? NULL : row_str(&r, 1, i);
	if (nargs == 3 && !row_null(&r, 2, i))
		ns = row_str(&r, 2, i);
	cap = len + 1;
	vals = ARENA_ARRAY(a, Value, cap);
	dp = d ? strview_data(d) : NULL;
	dl = d ? d->len : 0;
	if (len > 0) {
		for (;;) {
			uint32_t end, next;
			if (!d) {            /* NULL delimiter: one element per character */
				uint32_t cl = 1;
				while (at + cl < len && ((unsigned char)p[at + cl] & 0xc0) == 0x80)
					cl++;
				end = at + cl;
				next = end;
			} else if (dl == 0) {  /* empty delimiter: the whole string */
				end = len;
				next = len;
			} else {
				const char *f = NULL;
				uint32_t q;
				for (q = at; q + dl <= len; q++)
					if (!memcmp(p + q, dp, dl)) {
						f = p + q;
						break;
					}
				end = f ? (uint32_t)(f - p) : len;
				next = f ? end + dl : len + 1;
			}
			memset(&vals[m], 0, sizeof vals[m]);
			vals[m].type = tt;
			if (ns && ns->len == end - at && !memcmp(strview_data(ns), p + at, ns->len))
				vals[m].is_null = true;
			else
				vals[m].u.s = strview_make(p + at, end - at);
			m++;
			if (next > len || (!d && next == len) || (d && dl == 0))
				break;
			at = next;
			if (m == cap)
				break;
		}
	}
	CHECK(emit(ctx, a, out, i, vals, m));
	END
}

/* array_to_string(arr, delim [, null_string]) */
KERNEL(k_array_to_string)
{
	BEGIN
	Value *vals;
	uint32_t n, k, total = 0, w = 0;
	const strview *d, *ns = NULL;
	const char **txt;
	size_t *tl;
	char *buf;
	bool first = true;
	if (row_null(&r, 0, i) || row_null(&r, 1, i)) {
		out_null(out, i);
		continue;
	}
	CHECK(decode(ctx, a, &args[0], &r, 0, i, &vals, &n));
	d = row_str(&r, 1, i);
	if (nargs == 3 && !row_null(&r, 2, i))
		ns = row_str(&r, 2, i);
	txt = ARENA_ARRAY(a, const char *, n + 1);
	tl = ARENA_ARRAY(a, size_t, n + 1);
	for (k = 0; k < n; k++) {
		if (vals[k].is_null) {
			txt[k] = ns ? strview_data(ns) : NULL;
			tl[k] = ns ? ns->len : 0;
		} else {
			txt[k] = value_to_text(&vals[k], a, &tl[k]);
		}
		if (txt[k])
			total += (uint32_t)tl[k] + d->len;
	}
	buf = arena_alloc(out->arena, total + 1);
	for (k = 0; k < n; k++) {
		if (!txt[k])
			continue;
		if (!first) {
			memcpy(buf + w, strview_data(d), d->len);
			w += d->len;
		}
		first = false;
		memcpy(buf + w, txt[k], tl[k]);
		w += (uint32_t)tl[k];
	}
	out_string_owned(out, i, buf, w);
	END
}

/* ---- resolution ---------------------------------------------------------- */

enum { K_ARR = 1, K_ELEM, K_INT, K_TEXT };
enum { R_BOOL = 1, R_INT, R_ARR, R_ELEM, R_TEXT, R_TEXTARR, R_INTARR };

typedef struct ArrSig {
	ScalarFunc f;            /* name, kernel, nargs, variadic, ... */
	uint8_t kinds[4];
	uint8_t ret;
} ArrSig;

#define SIG(name, k, n, var, k0, k1, k2, ret, op) \
	{ { name, k, n, var, { 0 }, 0, FRET_FIXED, false, op }, { k0, k1, k2, 0 }, ret }

static const ArrSig sigs[] = {
	SIG("floe_array_build", k_build, 1, 1, K_ELEM, 0, 0, R_ARR, false),
	SIG("=", k_eq, 2, 0, K_ARR, K_ARR, 0, R_BOOL, true),
	SIG("<>", k_ne, 2, 0, K_ARR, K_ARR, 0, R_BOOL, true),
	SIG("<", k_lt, 2, 0, K_ARR, K_ARR, 0, R_BOOL, true),
	SIG("<=", k_le, 2, 0, K_ARR, K_ARR, 0, R_BOOL, true),
	SIG(">", k_gt, 2, 0, K_ARR, K_ARR, 0, R_BOOL, true),
	SIG(">=", k_ge, 2, 0, K_ARR, K_ARR, 0, R_BOOL, true),
	SIG("floe_any_=", k_any_eq, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_any_<>", k_any_ne, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_any_<", k_any_lt, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_any_<=", k_any_le, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_any_>", k_any_gt, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_any_>=", k_any_ge, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_all_=", k_all_eq, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_all_<>", k_all_ne, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_all_<", k_all_lt, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_all_<=", k_all_le, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_all_>", k_all_gt, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("floe_all_>=", k_all_ge, 2, 0, K_ELEM, K_ARR, 0, R_BOOL, false),
	SIG("||", k_cat, 2, 0, K_ARR, K_ARR, 0, R_ARR, true),
	SIG("||", k_append, 2, 0, K_ARR, K_ELEM, 0, R_ARR, true),
	SIG("||", k_prepend, 2, 0, K_ELEM, K_ARR, 0, R_ARR, true),
	SIG("array_cat", k_cat, 2, 0, K_ARR, K_ARR, 0, R_ARR, false),
	SIG("array_append", k_append, 2, 0, K_ARR, K_ELEM, 0, R_ARR, false),
	SIG("array_prepend", k_prepend, 2, 0, K_ELEM, K_ARR, 0, R_ARR, false),
	SIG("array_length", k_length, 2, 0, K_ARR, K_INT, 0, R_INT, false),
	SIG("array_upper", k_upper, 2, 0, K_ARR, K_INT, 0, R_INT, false),
	SIG("array_lower", k_lower, 2, 0, K_ARR, K_INT, 0, R_INT, false),
	SIG("array_ndims", k_ndims, 1, 0, K_ARR, 0, 0, R_INT, false),
	SIG("array_dims", k_dims, 1, 0, K_ARR, 0, 0, R_TEXT, false),
	SIG("cardinality", k_cardinality, 1, 0, K_ARR, 0, 0, R_INT, false),
	SIG("floe_array_subscript", k_subscript, 2, 0, K_ARR, K_INT, 0, R_ELEM, false),
	SIG("floe_array_slice", k_slice, 3, 0, K_ARR, K_INT, K_INT, R_ARR, false),
	SIG("floe_array_slice_lo", k_slice_lo, 2, 0, K_ARR, K_INT, 0, R_ARR, false),
	SIG("floe_array_slice_hi", k_slice_hi, 2, 0, K_ARR, K_INT, 0, R_ARR, false),
	SIG("floe_array_slice_all", k_slice_all, 1, 0, K_ARR, 0, 0, R_ARR, false),
	SIG("array_position", k_position, 2, 0, K_ARR, K_ELEM, 0, R_INT, false),
	SIG("array_position", k_position, 3, 0, K_ARR, K_ELEM, K_INT, R_INT, false),
	SIG("array_positions", k_positions, 2, 0, K_ARR, K_ELEM, 0, R_INTARR, false),
	SIG("array_remove", k_remove, 2, 0, K_ARR, K_ELEM, 0, R_ARR, false),
	SIG("array_replace", k_replace, 3, 0, K_ARR, K_ELEM, K_ELEM, R_ARR, false),
	SIG("string_to_array", k_string_to_array, 2, 0, K_TEXT, K_TEXT, 0, R_TEXTARR, false),
	SIG("string_to_array", k_string_to_array, 3, 0, K_TEXT, K_TEXT, K_TEXT, R_TEXTARR, false),
	SIG("regexp_match", func_regexp_match, 2, 0, K_TEXT, K_TEXT, 0, R_TEXTARR, false),
	SIG("regexp_match", func_regexp_match, 3, 0, K_TEXT, K_TEXT, K_TEXT, R_TEXTARR, false),
	SIG("regexp_split_to_array", func_regexp_split, 2, 0, K_TEXT, K_TEXT, 0, R_TEXTARR, false),
	SIG("regexp_split_to_array", func_regexp_split, 3, 0, K_TEXT, K_TEXT, K_TEXT, R_TEXTARR, false),
	SIG("__floe_regexp_split_to_table", func_regexp_split_table, 2, 0, K_TEXT, K_TEXT, 0, R_TEXTARR, false),
	SIG("__floe_regexp_split_to_table", func_regexp_split_table, 3, 0, K_TEXT, K_TEXT, K_TEXT, R_TEXTARR,
	    false),
	SIG("array_to_string", k_array_to_string, 2, 0, K_ARR, K_TEXT, 0, R_TEXT, false),
	SIG("array_to_string", k_array_to_string, 3, 0, K_ARR, K_TEXT, K_TEXT, R_TEXT, false),
};

static bool
is_unknown(SqlType t)
{
	return t.id == TYPE_NULL;
}

static int
kind_at(const ArrSig *s, int i)
{
	if (i < s->f.nargs && i < 4)
		return s->kinds[i];
	return s->f.variadic && s->f.nargs > 0 && s->f.nargs <= 4 ? s->kinds[s->f.nargs - 1] : 0;
}

static bool
matches(const ArrSig *s, const SqlType *in, int nargs)
{
	int i;
	if (s->f.variadic ? nargs < s->f.nargs : nargs != s->f.nargs)
		return false;
	for (i = 0; i < nargs; i++) {
		int k = kind_at(s, i);
		SqlType t = in[i];
		switch (k) {
		case K_ARR:
			if (t.id != TYPE_ARRAY && !is_unknown(t))
				return false;
			break;
		case K_ELEM:
			if (t.id == TYPE_ARRAY)
				return false;
			break;
		case K_INT:
			if (!is_unknown(t) && !type_is_integer(t.id))
				return false;
			break;
		case K_TEXT:
			if (!is_unknown(t) && t.id != TYPE_TEXT)
				return false;
			break;
		}
	}
	return true;
}

/* PostgreSQL's anycompatible: the common type of the candidates */
static bool
common(SqlType *acc, bool *have, SqlType t)
{
	if (!*have) {
		*acc = t;
		*have = true;
		return true;
	}
	if (type_equal(*acc, t))
		return true;
	if (acc->id == t.id) {
		if (t.id == TYPE_DECIMAL)
			*acc = type_decimal(0, acc->scale > t.scale ? acc->scale : t.scale);
		else
			*acc = type_make(t.id);
		return true;
	}
	if (cast_allowed(*acc, t, COERCE_IMPLICIT)) {
		*acc = t;
		return true;
	}
	return cast_allowed(t, *acc, COERCE_IMPLICIT);
}

static bool
ours(const char *name)
{
	size_t k;
	if (!strncmp(name, "floe_a", 6))
		return true;
	if (!((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_'))
		return false;     /* an operator: only array arguments make it ours */
	for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
		if (!sigs[k].f.is_operator && !strcmp(sigs[k].f.name, name))
			return true;
	return false;
}

int
func_array_resolve(const char *name, const SqlType *argtypes, int nargs,
		   const ScalarFunc **out, SqlType *ret, SqlType *cast_to, bool *handled,
		   floe_error *err)
{
	const ArrSig *s = NULL;
	SqlType elem;
	bool have = false, any_array = false;
	size_t k;
	int i;
	char b1[64], b2[64];

	*handled = false;
	for (i = 0; i < nargs; i++)
		if (argtypes[i].id == TYPE_ARRAY)
			any_array = true;
	if (!ours(name) && !any_array)
		return FLOE_OK;
	for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
		if (!strcmp(sigs[k].f.name, name) && matches(&sigs[k], argtypes, nargs)) {
			s = &sigs[k];
			break;
		}
	if (!s)
		return FLOE_OK;     /* func_resolve_scalar reports "does not exist" */
	*handled = true;
	for (i = 0; i < nargs; i++) {
		int kd = kind_at(s, i);
		SqlType t = argtypes[i];
		if (is_unknown(t) || (kd != K_ARR && kd != K_ELEM))
			continue;
		if (kd == K_ARR)
			t = array_elem_type(t);
		if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR && s->ret != R_BOOL)
			t = type_make(TYPE_TEXT);
		if (!common(&elem, &have, t)) {
			func_type_name(elem, b1, sizeof b1);
			func_type_name(t, b2, sizeof b2);
			if (s->f.is_operator)
				return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
						   "operator does not exist: %s%s %s %s",
						   b1, kind_at(s, 0) == K_ARR ? "[]" : "", name, b2);
			return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
					   "function %s arguments of types %s and %s are not compatible",
					   name, b1, b2);
		}
	}
	if (!have)
		elem = type_make(TYPE_TEXT);
	if (elem.id == TYPE_ARRAY || !array_elem_supported(elem))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "multidimensional arrays are not supported");
	for (i = 0; i < nargs; i++) {
		switch (kind_at(s, i)) {
		case K_ARR:
			cast_to[i] = array_of(elem);
			if (argtypes[i].id == TYPE_ARRAY && argtypes[i].vector &&
			    type_equal(array_elem_type(argtypes[i]), elem))
				cast_to[i] = argtypes[i];   /* int2vector: lower bound 0 */
			break;
		case K_ELEM: cast_to[i] = elem; break;
		case K_INT: cast_to[i] = type_make(TYPE_INT32); break;
		default: cast_to[i] = type_make(TYPE_TEXT); break;
		}
	}
	switch (s->ret) {
	case R_BOOL: *ret = type_make(TYPE_BOOL); break;
	case R_INT: *ret = type_make(TYPE_INT32); break;
	case R_ARR: *ret = array_of(elem); break;
	case R_ELEM: *ret = elem; break;
	case R_TEXT: *ret = type_make(TYPE_TEXT); break;
	case R_TEXTARR: *ret = array_of(type_make(TYPE_TEXT)); break;
	default: *ret = array_of(type_make(TYPE_INT32)); break;
	}
	*out = &s->f;
	return FLOE_OK;
}
