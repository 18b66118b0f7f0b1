/*
 * inset.c — x [NOT] IN (c1, c2, ...) and x = ANY / <> ALL (ARRAY[c1, ...])
 * over constants, evaluated through a hash set instead of one comparison
 * per list element and row (PostgreSQL hashes such lists from 9 elements
 * on: MIN_ARRAY_SIZE_FOR_HASHED_SAOP in its executor).
 *
 * The binder (sql/bind_expr.c) turns the list into one n-ary OR of x = ci
 * (NOT IN, <> ALL: an AND of x <> ci), with the coercions it resolved per
 * element; optimizer passes, pruning and EXPLAIN see that OR as it is.
 * expr_eval asks inset_eval first for an OR/AND of INSET_MIN or more
 * arguments; the set applies when every argument is either
 *   - x = ci (x <> ci under AND), ci a constant, x the same expression in
 *     every argument up to an exact widening the binder added for that
 *     element (an integer to a wider integer, an integer or numeric to an
 *     unconstrained numeric of at least its scale: peel), where both sides
 *     have x's type, or are integers (compared as int64, as the cross-type
 *     comparisons do), or are integers and numerics (compared as numerics
 *     aligned to the largest scale, as the numeric comparison does), or
 *   - a NULL constant (an element the binder folded: x = NULL),
 * and x's type is bool, an integer, date, time, timestamp[tz], text (with
 * text's own comparison: not char(n), whose comparison ignores trailing
 * spaces), bytea, uuid, numeric or a float.  Otherwise (a column or an
 * expression in the list, x of different types, char(n), intervals, a
 * volatile x) the OR/AND is evaluated as it is.  select.c keeps such an
 * AND one conjunct (is_not_in_list) instead of n filters.
 *
 * Semantics are the OR's / AND's exactly (three-valued): x NULL gives NULL;
 * x equal to some ci gives true (IN) / false (NOT IN); otherwise NULL if a
 * ci is NULL, else false (IN) / true (NOT IN).  Equality is the comparison
 * function's: floats -0 = 0 and NaN = NaN (PostgreSQL's float8eq); numerics
 * compared at one scale (a batch whose x has a larger scale than the set's
 * is evaluated as the OR is; an x that overflows at that scale equals no
 * element); text and bytea byte-wise (floe's collation is C).  x is
 * evaluated once on the rows, as the OR's first argument is.
 *
 * Ownership: the sets are built on first use and kept by the ExecCtx that
 * evaluated them (ctx->insets, allocated in ctx->arena, freed with it):
 * Exprs stay read-only, so a cached plan run again builds its sets again
 * in its new statement.  A set is keyed by the OR's Expr; copies of an
 * ExecCtx made after the first set share the cache, so lookups and inserts
 * take its mutex (parallel workers evaluating the same filter).
 *
 * INTERFACE ROUTINES (expr.h)
 *   inset_eval(ctx, e, in, sel, n, scratch, out, &done)
 */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <xxhash.h>
#include "common/hash.h"
#include "exec/exec.h"
#include "func/func.h"
#include "types/decimal.h"

typedef struct InSet {
	const Expr *e;            /* the OR / AND */
	bool usable;              /* false: evaluate e as it is */
	bool has_null;            /* some element is NULL */
	const Expr *x;            /* the left operand, evaluated once per row */
	SqlType t;                /* the key type: x's, or numeric at `scale` */
	int scale;                /* TYPE_DECIMAL: keys and x compared at this scale */
	int nkeys;
	Value *keys;              /* distinct non-NULL elements */
	uint32_t *slots;          /* open addressing: key index + 1, 0 = empty */
	uint64_t mask;
	struct InSet *next;
} InSet;

struct InSetCache {
	pthread_mutex_t mu;
	InSet *sets;
	Arena *arena;
};

static bool
hashable_type(TypeId id)
{
	switch (id) {
	case TYPE_BOOL: case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
	case TYPE_FLOAT32: case TYPE_FLOAT64: case TYPE_DECIMAL:
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_DATE: case TYPE_TIME:
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: case TYPE_UUID:
		return true;
	default:
		return false;
	}
}

/* Values of a and b compare as the same key type: one type id, and for
 * numerics one scale (text kinds differ in typmod only: the comparison
 * function, checked separately, tells char(n) apart). */
static bool
same_key_type(SqlType a, SqlType b)
{
	return a.id == b.id && (a.id != TYPE_DECIMAL || a.scale == b.scale);
}

static inline double
norm_float(double d)
{
	if (d == 0)
		return 0;          /* -0 = 0 */
	if (isnan(d))
		return NAN;        /* one NaN */
	return d;
}

/* The hash of a value of type id. */
static uint64_t
hash_value(TypeId id, const Value *v)
{
	switch (id) {
	case TYPE_TEXT: case TYPE_BYTEA:
		return XXH3_64bits(strview_data(&v->u.s), v->u.s.len);
	case TYPE_FLOAT32: case TYPE_FLOAT64: {
		double d = norm_float(v->u.f);
		uint64_t x;
		memcpy(&x, &d, 8);
		return hash_mix64(x);
	}
	case TYPE_DECIMAL:
		return XXH3_64bits(&v->u.d, sizeof v->u.d);
	case TYPE_UUID:
		return XXH3_64bits(&v->u.uuid, sizeof v->u.uuid);
	case TYPE_BOOL:
		return hash_mix64(v->u.b);
	default:
		return hash_mix64((uint64_t)v->u.i);
	}
}

static bool
same_value(TypeId id, const Value *a, const Value *b)
{
	switch (id) {
	case TYPE_TEXT: case TYPE_BYTEA:
		return strview_eq(&a->u.s, &b->u.s);
	case TYPE_FLOAT32: case TYPE_FLOAT64: {
		double x = a->u.f, y = b->u.f;
		return x == y || (isnan(x) && isnan(y));
	}
	case TYPE_DECIMAL:
		return a->u.d == b->u.d;
	case TYPE_UUID:
		return memcmp(&a->u.uuid, &b->u.uuid, sizeof a->u.uuid) == 0;
	case TYPE_BOOL:
		return a->u.b == b->u.b;
	default:
		return a->u.i == b->u.i;
	}
}

/* Row k of a flat vector's data as a Value of type t (no copy of strings). */
static inline void
value_at(SqlType t, const void *data, uint32_t k, Value *v)
{
	v->type = t;
	v->is_null = false;
	switch (t.id) {
	case TYPE_BOOL: v->u.b = ((const uint8_t *)data)[k] != 0; break;
	case TYPE_INT16: v->u.i = ((const int16_t *)data)[k]; break;
	case TYPE_INT32: case TYPE_DATE: v->u.i = ((const int32_t *)data)[k]; break;
	case TYPE_FLOAT32: v->u.f = ((const float *)data)[k]; break;
	case TYPE_FLOAT64: v->u.f = ((const double *)data)[k]; break;
	case TYPE_DECIMAL: v->u.d = ((const int128 *)data)[k]; break;
	case TYPE_TEXT: case TYPE_BYTEA: v->u.s = ((const strview *)data)[k]; break;
	case TYPE_UUID: v->u.uuid = ((const Uuid *)data)[k]; break;
	default: v->u.i = ((const int64_t *)data)[k]; break;
	}
}

static bool
lookup(const InSet *s, const Value *v)
{
	uint64_t h = hash_value(s->t.id, v), i;

	for (i = h & s->mask;; i = (i + 1) & s->mask) {
		uint32_t slot = s->slots[i];
		if (!slot)
			return false;
		if (same_value(s->t.id, &s->keys[slot - 1], v))
			return true;
	}
}

/* v (a numeric at scale from) at scale to >= from; false on overflow */
static bool
rescale(int128 *v, int from, int to)
{
	int128 m, lim;

	if (to == from)
		return true;
	if (to - from > 38)
		return false;
	m = decimal_pow10(to - from);
	lim = (((int128)1 << 126) - 1 + ((int128)1 << 126)) / m;   /* INT128_MAX / m */
	if (*v > lim || *v < -lim)
		return false;
	*v *= m;
	return true;
}

/* x without an exact widening: CAST(y AS numeric) with no precision and
 * a scale at least y's (an integer or a numeric), or an integer to a
 * wider integer, changes no value, so the keys can be compared with y
 * (aligned to their scale). */
static const Expr *
peel(const Expr *x)
{
	const Expr *y;

	if (x->kind != EXPR_CAST)
		return x;
	y = x->args[0];
	/* an integer widened (int4 = int8 constant) */
	if (type_is_integer(x->type.id) && type_is_integer(y->type.id) &&
	    type_width(y->type.id) <= type_width(x->type.id))
		return y;
	if (x->type.id != TYPE_DECIMAL || x->type.precision != 0)
		return x;
	if (type_is_integer(y->type.id) ||
	    (y->type.id == TYPE_DECIMAL && y->type.scale <= x->type.scale))
		return y;
	return x;
}

/* Keys compared as numerics at one scale (integers and numerics mixed)? */
static bool
numeric_mode(const InSet *s)
{
	return s->t.id == TYPE_DECIMAL;
}

/* v (an integer or a numeric of type vt) as a numeric at the set's scale;
 * false when it does not fit */
static bool
to_key_numeric(const InSet *s, SqlType vt, Value *v)
{
	if (type_is_integer(vt.id)) {
		v->u.d = (int128)v->u.i;
		return rescale(&v->u.d, 0, s->scale);
	}
	return rescale(&v->u.d, vt.scale, s->scale);
}

/* Decide whether e has the shape of a hashable list and build its set. */
static void
build(InSet *s, const Expr *e, Arena *a)
{
	bool any = e->kind == EXPR_OR;
	const char *op = any ? "=" : "<>";
	const ScalarFunc *text_eq = NULL;
	SqlType argt[2], ret, cast_to[2];
	floe_error err;
	uint64_t cap = 16;
	bool numeric = false;
	int i;

	s->usable = false;
	for (i = 0; i < e->nargs; i++) {
		const Expr *c = e->args[i], *x;
		SqlType ct;
		if (c->kind == EXPR_CONST && c->value.is_null && c->type.id == TYPE_BOOL) {
			s->has_null = true;
			continue;
		}
		if (c->kind != EXPR_FUNC || c->nargs != 2 || !c->fn || !c->fn->is_operator ||
		    strcmp(c->fn->name, op) != 0 || c->args[1]->kind != EXPR_CONST)
			return;
		x = peel(c->args[0]);
		if (!s->x) {
			s->x = x;
			if (!hashable_type(x->type.id) || expr_is_volatile(x))
				return;
		} else if (x != s->x && !expr_equal(x, s->x)) {
			return;
		}
		ct = c->args[1]->type;
		if (!same_key_type(ct, c->args[1]->value.type))
			return;
		if (c->args[0]->type.id == TYPE_DECIMAL) {
			/* x (or its exact widening) = a numeric constant */
			if (ct.id != TYPE_DECIMAL)
				return;
			numeric = true;
			if (ct.scale > s->scale)
				s->scale = ct.scale;
		} else if (type_is_integer(x->type.id)) {
			/* integers of any width compare as int64 */
			if (!type_is_integer(ct.id))
				return;
		} else if (!same_key_type(ct, x->type)) {
			return;
		} else if (x->type.id == TYPE_TEXT) {
			/* text's comparison only (char(n) has its own) */
			if (!text_eq) {
				argt[0] = argt[1] = type_make(TYPE_TEXT);
				memset(&err, 0, sizeof err);
				if (func_resolve_scalar(op, argt, 2, &text_eq, &ret, cast_to, &err) != FLOE_OK)
					return;
			}
			if (c->fn != text_eq)
				return;
		}
	}
	if (!s->x)
		return;
	s->t = s->x->type;
	if (numeric || s->t.id == TYPE_DECIMAL) {
		if (s->t.id == TYPE_DECIMAL && s->t.scale > s->scale)
			s->scale = s->t.scale;
		s->t = type_make(TYPE_DECIMAL);
		s->t.scale = (uint8_t)s->scale;
	}
	while (cap < (uint64_t)e->nargs * 2)
		cap *= 2;
	s->slots = ARENA_ARRAY(a, uint32_t, cap);
	s->mask = cap - 1;
	s->keys = ARENA_ARRAY(a, Value, e->nargs);
	for (i = 0; i < e->nargs; i++) {
		const Expr *c = e->args[i];
		Value v;
		uint64_t h, j;
		if (c->kind == EXPR_CONST)
			continue;
		v = c->args[1]->value;
		if (v.is_null) {
			s->has_null = true;
			continue;
		}
		if (numeric_mode(s) && !to_key_numeric(s, v.type, &v))
			return;
		h = hash_value(s->t.id, &v);
		for (j = h & s->mask; s->slots[j]; j = (j + 1) & s->mask)
			if (same_value(s->t.id, &s->keys[s->slots[j] - 1], &v))
				break;
		if (s->slots[j])
			continue;          /* a duplicate */
		s->keys[s->nkeys++] = v;
		s->slots[j] = (uint32_t)s->nkeys;
	}
	s->usable = true;
}

static void
cache_free(void *p)
{
	struct InSetCache *c = p;

	pthread_mutex_destroy(&c->mu);
}

/* The set of e in ctx's cache, built on first use. */
static const InSet *
get_set(ExecCtx *ctx, const Expr *e)
{
	struct InSetCache *c = ctx->insets;
	InSet *s;

	if (!c) {
		c = ARENA_NEW(ctx->arena, struct InSetCache);
		pthread_mutex_init(&c->mu, NULL);
		c->arena = ctx->arena;
		arena_on_reset(ctx->arena, cache_free, c);
		ctx->insets = c;
	}
	pthread_mutex_lock(&c->mu);
	for (s = c->sets; s; s = s->next)
		if (s->e == e)
			break;
	if (!s) {
		s = ARENA_NEW(c->arena, InSet);
		s->e = e;
		build(s, e, c->arena);
		s->next = c->sets;
		c->sets = s;
	}
	pthread_mutex_unlock(&c->mu);
	return s;
}

int
inset_eval(ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel, uint32_t n,
	   Arena *scratch, Vector *out, bool *done)
{
	const InSet *s;
	Vector xv;
	VectorView v;
	uint8_t *od;
	uint32_t i, phys = 0;
	int decided = e->kind == EXPR_OR;

	*done = false;
	if (!ctx || !ctx->arena || e->nargs < INSET_MIN || (e->kind != EXPR_OR && e->kind != EXPR_AND))
		return FLOE_OK;
	s = get_set(ctx, e);
	if (!s->usable)
		return FLOE_OK;
	TRY(expr_eval(ctx, s->x, in, sel, n, scratch, &xv));
	if (xv.type.id != s->x->type.id ||
	    (xv.type.id == TYPE_DECIMAL && xv.type.scale > s->scale))
		return FLOE_OK;        /* not the keys' type or scale: as the OR */
	for (i = 0; i < n; i++) {
		uint32_t r = sel ? sel[i] : i;
		if (r + 1 > phys)
			phys = r + 1;
	}
	vector_view(&xv, &v);
	vector_init(out, type_make(TYPE_BOOL), scratch, phys);
	od = out->data;
	for (i = 0; i < n; i++) {
		uint32_t r = sel ? sel[i] : i;
		uint32_t k = v.sel ? v.sel[r] : r;
		Value xk;
		if (!validity_get(v.validity, k)) {
			vector_set_null(out, r);
			continue;
		}
		value_at(xv.type, v.data, k, &xk);
		if (numeric_mode(s) && !to_key_numeric(s, xv.type, &xk)) {
			/* beyond every key at that scale: no match */
			if (s->has_null)
				vector_set_null(out, r);
			else
				od[r] = (uint8_t)!decided;
			continue;
		}
		if (lookup(s, &xk))
			od[r] = (uint8_t)decided;
		else if (s->has_null)
			vector_set_null(out, r);
		else
			od[r] = (uint8_t)!decided;
	}
	*done = true;
	return FLOE_OK;
}
