/*
 * func_internal.h — helpers shared by the func/ family files (folder-private).
 *
 * Each family file exports one signature table (func_<family>_table[],
 * func_<family>_count) that func_registry.c searches.  Kernels read their
 * arguments through vector_view (flat, const and dict alike) with the
 * ARGK() index rule and write a flat output.
 */
#ifndef FLOE_FUNC_INTERNAL_H
#define FLOE_FUNC_INTERNAL_H

#include <string.h>
#include "func/func.h"

/* Row i's index into a view. */
#define ARGK(view, i) ((view).sel ? (view).sel[(i)] : (i))
#define ARGVALID(view, k) validity_get((view).validity, (k))

/* Result row i is NULL / valid. */
static inline void
out_null(Vector *out, uint32_t i)
{
	vector_set_null(out, i);
}

static inline void
out_valid(Vector *out, uint32_t i)
{
	if (out->validity)
		validity_set(out->validity, i);
}

/* Store a result string built in (or copied to) out->arena without copying. */
static inline void
out_string_owned(Vector *out, uint32_t i, const char *p, uint32_t len)
{
	((strview *)out->data)[i] = strview_make(p, len);
	out_valid(out, i);
}

#define DECLARE_TABLE(fam) \
	extern const ScalarFunc func_##fam##_table[]; \
	extern const int func_##fam##_count

DECLARE_TABLE(arith);
DECLARE_TABLE(compare);
DECLARE_TABLE(string);
DECLARE_TABLE(like);
DECLARE_TABLE(math);
DECLARE_TABLE(datetime);
DECLARE_TABLE(regex);

/* json/jsonb operators and functions (func_json.c): handled = the call is
 * one of them; not handled, the generic resolution goes on. */
int func_json_resolve(const char *name, const SqlType *argtypes, int nargs,
		      const ScalarFunc **out, SqlType *ret, SqlType *cast_to, bool *handled,
		      floe_error *err);

/* jsonb_path_* and @? @@ (func_jsonpath.c), the same contract */
int func_jsonpath_resolve(const char *name, const SqlType *argtypes, int nargs,
			  const ScalarFunc **out, SqlType *ret, SqlType *cast_to, bool *handled,
			  floe_error *err);
/* enum operators and functions (func_enum.c), as func_json_resolve */
int func_enum_resolve(const char *name, const SqlType *argtypes, int nargs,
		      const ScalarFunc **out, SqlType *ret, SqlType *cast_to, bool *handled,
		      floe_error *err);
/* min / max over an enum (agg_basic.c) */
const AggFunc *func_agg_enum_minmax(const char *name);

/* The char(n) (trailing-space-insensitive) variant of a comparison operator. */
const ScalarFunc *func_compare_bpchar(const char *op);

/* Powers of ten as int128: func_pow10[0..38]. */
extern const int128 func_pow10[39];

/* Exact decimal helpers (arith): FLOE_ERR on overflow of 38 digits. */
int func_dec_rescale(int128 v, int from_scale, int to_scale, int128 *out);
bool func_dec_fits(int128 v);
/*
 * Decimal arguments at one scale: returns args itself when every argument
 * already has `scale`, else a copy (in ctx->arena) whose decimal vectors are
 * rescaled flat vectors.  The resolver asks for aligned scales, but a caller
 * may hand over a literal at its own scale; kernels that add or compare
 * unscaled values call this first.  FLOE_ERR (22003) on overflow.
 */
int func_dec_align(FuncCtx *ctx, const Vector *args, int nargs, int scale, uint32_t count,
		   const Vector **aligned);
/* The largest scale among decimal arguments. */
int func_dec_max_scale(const Vector *args, int nargs);

/* x (scale sx) / y (scale sy) rounded half away from zero to scale so; y != 0 */
int func_dec_div(int128 x, int sx, int128 y, int sy, int so, int128 *out);

/* floor(sqrt(x)) on 128 bits */
uint128 func_isqrt128(uint128 x);

/* UTF-8: number of characters; byte offset of character n (clamped). */
uint32_t func_utf8_len(const char *s, uint32_t len);
uint32_t func_utf8_offset(const char *s, uint32_t len, uint32_t nchars);
/* Simple case mapping; the output has the same byte length as the input. */
void func_utf8_lower(const char *s, uint32_t len, char *dst);
void func_utf8_upper(const char *s, uint32_t len, char *dst);

/* func_regex.c: text[]-valued regex kernels (regexp_match, regexp_split_to_array) */
int func_regexp_match(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out);
int func_regexp_split(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out);
/* func_math.c: to_number's result scale from its constant arguments */
int func_to_number_scale(const Value *const *consts);
int func_regexp_split_table(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out);
/* func_array.c: arrays and their polymorphic resolution (func_registry.c) */
int func_array_resolve(const char *name, const SqlType *argtypes, int nargs,
		       const ScalarFunc **out, SqlType *ret, SqlType *cast_to, bool *handled,
		       floe_error *err);
/* func_math.c: PostgreSQL's result scale of a FRET_DEC_FN function whose
 * arguments are all constants, or -1 (func_registry.c) */
int func_math_const_scale(const ScalarFunc *f, const Value *const *consts, int nargs);

#endif
