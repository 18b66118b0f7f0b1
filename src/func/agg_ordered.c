/*
 * agg_ordered.c — the ordered-set aggregates of PostgreSQL 15:
 *   percentile_cont(fraction) WITHIN GROUP (ORDER BY x)    x numeric-like -> double precision
 *   percentile_cont(fractions[]) WITHIN GROUP (ORDER BY x) -> double precision[]
 *   percentile_disc(fraction) WITHIN GROUP (ORDER BY x)    -> x's type
 *   percentile_disc(fractions[]) WITHIN GROUP (ORDER BY x) -> x's type []
 *   mode() WITHIN GROUP (ORDER BY x)                       -> x's type
 *
 * Spec: PostgreSQL 15 documentation 9.21 table 9.62 "Ordered-Set Aggregate
 * Functions", and the behaviour of its orderedsetaggs.c (read, not
 * copied): NULL keys are ignored; over n keys in the WITHIN GROUP order,
 * percentile_disc(f) is key number max(ceil(f * n), 1); percentile_cont(f)
 * interpolates linearly between keys floor(f * (n - 1)) and
 * ceil(f * (n - 1)) (0-based), lo + (hi - lo) * (f * (n - 1) - floor(...));
 * mode() is the most frequent key, the first in the order among equally
 * frequent ones.  A NULL fraction gives NULL (NULL elements of a fraction
 * array give NULL elements); a fraction outside [0, 1] or NaN is 22003
 * "percentile value F is not between 0 and 1".  No non-NULL key: NULL.
 *
 * How the rows arrive: the binder makes an AggCall whose arg is the key,
 * arg2 the fraction (none for mode) and whose ORDER BY is the WITHIN GROUP
 * key, so exec/hash_agg.c sorts each group's rows and feeds them in order;
 * these states only collect the non-NULL keys in arrival order.  The
 * fraction must be a constant (the binder checks), so every row carries
 * the same one; the state keeps the first.  Such aggregates never run as
 * parallel partial states (hash_agg.c keeps ordered aggregates serial);
 * combine appends anyway.  Memory: one Value per non-NULL key, like
 * array_agg; long strings copied into the aggregate's arena.
 *
 * Known differences: percentile_cont over interval keys is 0A000; a
 * fraction outside [0, 1] with no input row at all gives NULL where
 * PostgreSQL still raises 22003 (the state never saw the fraction).
 *
 * INTERFACE ROUTINES (agg_ordered.h)
 *   agg_ordered_is, agg_ordered_resolve
 */
#include <math.h>
#include <stdio.h>
#include "func/agg_ordered.h"
#include "func/func_internal.h"
#include "types/array.h"
#include "types/value.h"
#include "types/vector.h"

typedef struct OsState {
	Value *vals;        /* the non-NULL keys, in the WITHIN GROUP order */
	uint32_t n, cap;
	bool have_dir;      /* dir holds the fraction (first row's) */
	Value dir;
} OsState;

static void
os_init(void *s)
{
	memset(s, 0, sizeof(OsState));
}

static bool
needs_copy(const Value *v)
{
	return !v->is_null && (type_is_string(v->type.id) || v->type.id == TYPE_ARRAY) &&
	       v->u.s.len > STRVIEW_INLINE;
}

static Value
keep(FuncCtx *ctx, const Value *v)
{
	Value c = *v;
	if (needs_copy(v))
		c.u.s = strview_make(arena_memdup(ctx->arena, strview_data(&v->u.s), v->u.s.len), v->u.s.len);
	return c;
}

static int
push(FuncCtx *ctx, OsState *s, const Value *v)
{
	if (s->n == s->cap) {
		uint32_t nc = s->cap ? s->cap * 2 : 8;
		if (nc > (1u << 28))
			return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "too many rows in one group of an ordered-set aggregate");
		s->vals = arena_realloc(ctx->arena, s->vals, sizeof(Value) * s->cap, sizeof(Value) * nc);
		s->cap = nc;
		/* floe.query_memory_limit bounds the rows held (arena.h) */
		if (arena_over_limit(ctx->arena))
			return memacct_error(arena_account(ctx->arena), ctx->err);
	}
	s->vals[s->n++] = keep(ctx, v);
	return FLOE_OK;
}

static int
os_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		Value v;
		vector_get_value(arg, i, &v);
		if (!v.is_null)
			TRY(push(ctx, states[i], &v));
	}
	return FLOE_OK;
}

static int
os_update2(FuncCtx *ctx, const Vector *arg, const Vector *arg2, uint32_t count, void **states)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		OsState *s = states[i];
		Value v;
		if (!s->have_dir) {
			vector_get_value(arg2, i, &v);
			s->dir = keep(ctx, &v);
			s->have_dir = true;
		}
		vector_get_value(arg, i, &v);
		if (!v.is_null)
			TRY(push(ctx, s, &v));
	}
	return FLOE_OK;
}

static int
os_combine(FuncCtx *ctx, void *dst, const void *src)
{
	OsState *d = dst;
	const OsState *s = src;
	uint32_t i;

	if (!d->have_dir && s->have_dir) {
		d->dir = s->dir;
		d->have_dir = true;
	}
	for (i = 0; i < s->n; i++)
		TRY(push(ctx, d, &s->vals[i]));
	return FLOE_OK;
}

static int
check_fraction(FuncCtx *ctx, double f)
{
	if (isnan(f) || f < 0 || f > 1)
		return floe_errorf(ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "percentile value %g is not between 0 and 1", f);
	return FLOE_OK;
}

/* percentile_disc: the index of key number max(ceil(f * n), 1). */
static uint32_t
disc_index(double f, uint32_t n)
{
	double r = ceil(f * (double)n);
	return r > 1 ? (uint32_t)r - 1 : 0;
}

static double
cont_value(const OsState *s, double f)
{
	double pos = f * (double)(s->n - 1);
	double lo_row = floor(pos), hi_row = ceil(pos);
	double lo = s->vals[(uint32_t)lo_row].u.f, hi;

	if (lo_row == hi_row)
		return lo;
	hi = s->vals[(uint32_t)hi_row].u.f;
	return lo + (pos - lo_row) * (hi - lo);
}

static int
cont_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	OsState *s = st;
	Value v;

	if (!s->have_dir || s->dir.is_null) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	TRY(check_fraction(ctx, s->dir.u.f));
	if (s->n == 0) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_FLOAT64);
	v.u.f = cont_value(s, s->dir.u.f);
	vector_set_value(out, row, &v);
	return FLOE_OK;
}

static int
disc_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	OsState *s = st;

	if (!s->have_dir || s->dir.is_null) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	TRY(check_fraction(ctx, s->dir.u.f));
	if (s->n == 0) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	vector_set_value(out, row, &s->vals[disc_index(s->dir.u.f, s->n)]);
	return FLOE_OK;
}

/* The array forms: one result element per fraction, in the fractions'
 * order; NULL fractions give NULL elements.  No non-NULL key: NULL. */
static int
multi_final(FuncCtx *ctx, OsState *s, bool cont, Vector *out, uint32_t row)
{
	Value *fr, *res;
	uint32_t nf, i;
	SqlType elem = array_elem_type(out->type);
	strview r;

	if (!s->have_dir || s->dir.is_null || s->n == 0) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	TRY(array_decode(&s->dir.u.s, s->dir.type, ctx->arena, &fr, &nf, ctx->err));
	res = ARENA_ARRAY(ctx->arena, Value, nf ? nf : 1);
	for (i = 0; i < nf; i++) {
		if (fr[i].is_null) {
			res[i] = value_null(elem);
			continue;
		}
		TRY(check_fraction(ctx, fr[i].u.f));
		if (cont) {
			memset(&res[i], 0, sizeof res[i]);
			res[i].type = type_make(TYPE_FLOAT64);
			res[i].u.f = cont_value(s, fr[i].u.f);
		} else {
			res[i] = s->vals[disc_index(fr[i].u.f, s->n)];
			if (res[i].type.id == TYPE_DECIMAL)
				value_to_display_scale(&res[i]);
		}
	}
	TRY(array_encode(ctx->arena, out->type, res, nf, &r, ctx->err));
	vector_set_string(out, row, strview_data(&r), r.len);
	return FLOE_OK;
}

static int
cont_multi_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	return multi_final(ctx, st, true, out, row);
}

static int
disc_multi_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	return multi_final(ctx, st, false, out, row);
}

static int
mode_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	OsState *s = st;
	uint32_t i, best = 0, best_n = 0, run = 0, run_n = 0;

	if (s->n == 0) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	for (i = 0; i < s->n; i++) {
		if (run_n && array_value_compare(&s->vals[i], &s->vals[run]) == 0) {
			run_n++;
			continue;
		}
		if (run_n > best_n) {
			best = run;
			best_n = run_n;
		}
		run = i;
		run_n = 1;
	}
	if (run_n > best_n)
		best = run;
	vector_set_value(out, row, &s->vals[best]);
	return FLOE_OK;
}

static const AggFunc agg_cont = { "percentile_cont", sizeof(OsState), os_init, os_update,
				  os_combine, cont_final, os_update2 };
static const AggFunc agg_cont_multi = { "percentile_cont", sizeof(OsState), os_init, os_update,
					os_combine, cont_multi_final, os_update2 };
static const AggFunc agg_disc = { "percentile_disc", sizeof(OsState), os_init, os_update,
				  os_combine, disc_final, os_update2 };
static const AggFunc agg_disc_multi = { "percentile_disc", sizeof(OsState), os_init, os_update,
					os_combine, disc_multi_final, os_update2 };
static const AggFunc agg_mode = { "mode", sizeof(OsState), os_init, os_update, os_combine,
				  mode_final, NULL };

bool
agg_ordered_is(const char *name)
{
	return !strcmp(name, "percentile_cont") || !strcmp(name, "percentile_disc") ||
	       !strcmp(name, "mode");
}

static int
not_found(const char *name, int ndirect, SqlType direct, int nkeys, SqlType key, floe_error *err)
{
	char b1[64], b2[64];
	char sig[160];

	if (ndirect && nkeys)
		snprintf(sig, sizeof sig, "%s, %s%s", func_type_name(direct, b1, sizeof b1),
			 func_type_name(key, b2, sizeof b2), ndirect + nkeys > 2 ? ", ..." : "");
	else if (ndirect || nkeys)
		snprintf(sig, sizeof sig, "%s%s",
			 ndirect ? func_type_name(direct, b1, sizeof b1) : func_type_name(key, b1, sizeof b1),
			 ndirect + nkeys > 1 ? ", ..." : "");
	else
		sig[0] = 0;
	return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "function %s(%s) does not exist", name, sig);
}

static bool
fraction_type(SqlType t)
{
	return t.id == TYPE_NULL || type_is_numeric(t.id);
}

int
agg_ordered_resolve(const char *name, int ndirect, SqlType direct, int nkeys, SqlType key,
		    const AggFunc **agg, SqlType *ret, SqlType *key_cast, SqlType *direct_cast,
		    floe_error *err)
{
	bool multi;

	if (key.id == TYPE_NULL)
		key = type_make(TYPE_TEXT);     /* an unknown literal key sorts as text */
	*key_cast = key;
	*direct_cast = type_make(TYPE_NULL);
	if (!strcmp(name, "mode")) {
		if (ndirect != 0 || nkeys != 1)
			return not_found(name, ndirect, direct, nkeys, key, err);
		*agg = &agg_mode;
		*ret = key;
		return FLOE_OK;
	}
	if (ndirect != 1 || nkeys != 1)
		return not_found(name, ndirect, direct, nkeys, key, err);
	if (direct.id == TYPE_ARRAY && fraction_type(array_elem_type(direct)))
		multi = true;
	else if (fraction_type(direct))
		multi = false;
	else
		return not_found(name, ndirect, direct, nkeys, key, err);
	*direct_cast = multi ? array_of(type_make(TYPE_FLOAT64)) : type_make(TYPE_FLOAT64);
	if (!strcmp(name, "percentile_cont")) {
		if (key.id == TYPE_INTERVAL)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "percentile_cont over interval is not supported yet");
		if (!type_is_numeric(key.id))
			return not_found(name, ndirect, direct, nkeys, key, err);
		*key_cast = type_make(TYPE_FLOAT64);
		*ret = multi ? array_of(*key_cast) : *key_cast;
		*agg = multi ? &agg_cont_multi : &agg_cont;
		return FLOE_OK;
	}
	if (!strcmp(name, "percentile_disc")) {
		if (multi) {
			if (key.id == TYPE_ARRAY || !array_elem_supported(key))
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "percentile_disc with an array of fractions over %s is not supported",
						   key.id == TYPE_ARRAY ? "arrays" : "this type");
			*ret = array_of(key);
		} else {
			*ret = key;
		}
		*agg = multi ? &agg_disc_multi : &agg_disc;
		return FLOE_OK;
	}
	return not_found(name, ndirect, direct, nkeys, key, err);
}
