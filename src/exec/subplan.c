/*
 * subplan.c — correlated subqueries that the planner could not turn into
 * joins, run once per outer row (PostgreSQL's SubPlan, nodeSubplan.c).
 *
 * The subquery was planned once (sql/bind_expr.c, select_plan_correlated)
 * in an ExecCtx of its own whose params are the outer query's columns
 * (column refs EXPR_PARAM_BASE + k, as for LATERAL).  An EXPR_SUBPLAN's
 * args[0..nparams) are those outer columns; for each selected row of the
 * batch their values are stored in params, the plan is opened, read and
 * closed, and the row's result is:
 *   SUBPLAN_EXPR    the single value; NULL for no row; 21000 "more than
 *                   one row returned by a subquery used as an expression"
 *   SUBPLAN_EXISTS  whether a row came (reading stops at the first)
 *   SUBPLAN_ANY/ALL x op v over the rows, x = args[nparams]: SQL's
 *                   three-valued OR / AND (true/false settles, else NULL
 *                   if some comparison was NULL; no rows: false / true)
 * Rows not in the selection are not evaluated (a CASE branch not taken
 * never runs its subquery).  Consecutive rows with the same parameter
 * values reuse the previous row's result (compared as fixed-width values;
 * text parameters always re-run).  Beyond that, each subplan keeps a hash
 * table from argument values (the parameters and x) to the result
 * (PostgreSQL's memoize idea): an outer row whose values were seen before
 * in the statement takes the stored result instead of running the plan.
 * Keys compare byte for byte per type (numeric with its display scale,
 * text and arrays by their bytes; types not listed in key_hash are never
 * cached), so a hit returns exactly what a run would.  The table is
 * bounded (CACHE_MAX_ENTRIES entries, CACHE_MAX_BYTES of copied keys and
 * results): when full it is emptied and refilled, never grown.
 *
 * Invariants:
 *   1. the plan is run to its end (or closed) before the next row's params
 *      are set; a mutex serialises batches evaluated by parallel workers,
 *      who share the one plan.
 *   2. param values point into `in`, valid for the whole call.
 *
 * INTERFACE ROUTINES
 *   subplan_eval(ctx, e, in, sel, n, scratch, out)
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "exec/subplan.h"
#include "types/value.h"

#define CACHE_MAX_ENTRIES 16384
#define CACHE_MAX_BYTES ((size_t)8 << 20)
#define CACHE_BUCKETS 4096

typedef struct CacheEnt {
	struct CacheEnt *next;
	uint64_t hash;
	Value *key;          /* [nkey] */
	Value res;
} CacheEnt;

typedef struct SubCache {
	Arena *arena;        /* entries, copied strings; freed with the statement */
	CacheEnt *buckets[CACHE_BUCKETS];
	uint32_t n;
	int nkey;
	SubPlan *owner;
} SubCache;

/* recursive: a subplan inside a subplan runs in the same thread */
static pthread_mutex_t subplan_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* Certainly equal (NULLs equal; text never, to stay simple). */
static bool
same_value(const Value *x, const Value *y)
{
	if (x->is_null || y->is_null)
		return x->is_null == y->is_null;
	switch (x->type.id) {
	case TYPE_BOOL: return x->u.b == y->u.b;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: case TYPE_DATE:
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		return x->u.i == y->u.i;
	default: return false;
	}
}

static uint64_t
mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ c[i]) * 1099511628211ULL;
	return h;
}

/* The hash of one key value; false if its type is never cached. */
static bool
key_hash(const Value *v, uint64_t *h)
{
	uint8_t tag = (uint8_t)v->type.id;

	*h = mix(*h, &tag, 1);
	*h = mix(*h, &v->is_null, 1);
	if (v->is_null)
		return true;
	switch (v->type.id) {
	case TYPE_BOOL:
		*h = mix(*h, &v->u.b, 1);
		return true;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: case TYPE_DATE: case TYPE_TIME:
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		*h = mix(*h, &v->u.i, sizeof v->u.i);
		return true;
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		*h = mix(*h, &v->u.f, sizeof v->u.f);
		return true;
	case TYPE_DECIMAL:
		*h = mix(*h, &v->u.d, sizeof v->u.d);
		*h = mix(*h, &v->type.scale, sizeof v->type.scale);
		*h = mix(*h, &v->dzeros, 1);
		return true;
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY:
		*h = mix(*h, strview_data(&v->u.s), v->u.s.len);
		return true;
	case TYPE_INTERVAL:
		*h = mix(*h, &v->u.iv.months, sizeof v->u.iv.months);
		*h = mix(*h, &v->u.iv.days, sizeof v->u.iv.days);
		*h = mix(*h, &v->u.iv.micros, sizeof v->u.iv.micros);
		return true;
	case TYPE_UUID:
		*h = mix(*h, &v->u.uuid, sizeof v->u.uuid);
		return true;
	default:
		return false;
	}
}

/* Byte-identical (the hashed fields of key_hash). */
static bool
key_same(const Value *x, const Value *y)
{
	if (x->type.id != y->type.id || x->is_null != y->is_null)
		return false;
	if (x->is_null)
		return true;
	switch (x->type.id) {
	case TYPE_BOOL: return x->u.b == y->u.b;
	case TYPE_FLOAT32: case TYPE_FLOAT64: return !memcmp(&x->u.f, &y->u.f, sizeof x->u.f);
	case TYPE_DECIMAL:
		return x->u.d == y->u.d && x->type.scale == y->type.scale && x->dzeros == y->dzeros;
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY:
		return x->u.s.len == y->u.s.len &&
		       !memcmp(strview_data(&x->u.s), strview_data(&y->u.s), x->u.s.len);
	case TYPE_INTERVAL:
		return x->u.iv.months == y->u.iv.months && x->u.iv.days == y->u.iv.days &&
		       x->u.iv.micros == y->u.iv.micros;
	case TYPE_UUID: return !memcmp(&x->u.uuid, &y->u.uuid, sizeof x->u.uuid);
	default: return x->u.i == y->u.i;
	}
}

static bool
has_bytes(const Value *v)
{
	return !v->is_null && (type_is_string(v->type.id) || v->type.id == TYPE_ARRAY);
}

static Value
copy_value(Arena *a, const Value *v)
{
	Value c = *v;
	if (has_bytes(v)) {
		char *p = arena_memdup(a, strview_data(&v->u.s), v->u.s.len ? v->u.s.len : 1);
		c.u.s = strview_make(p, v->u.s.len);
	}
	return c;
}

static void
cache_free(void *arg)
{
	SubCache *c = arg;

	c->owner->cache = NULL;
	arena_free(c->arena);
	free(c);
}

static SubCache *
cache_get(SubPlan *sp, int nkey)
{
	SubCache *c = sp->cache;

	if (c)
		return c;
	c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->arena = arena_new(1 << 16);
	c->nkey = nkey;
	c->owner = sp;
	sp->cache = c;
	arena_on_reset(sp->rctx->arena, cache_free, c);
	return c;
}

static const CacheEnt *
cache_find(const SubCache *c, uint64_t h, const Value *key)
{
	const CacheEnt *e;
	int a;

	for (e = c->buckets[h % CACHE_BUCKETS]; e; e = e->next) {
		if (e->hash != h)
			continue;
		for (a = 0; a < c->nkey && key_same(&e->key[a], &key[a]); a++)
			;
		if (a == c->nkey)
			return e;
	}
	return NULL;
}

static void
cache_put(SubCache *c, uint64_t h, const Value *key, const Value *res)
{
	CacheEnt *e;
	int a;

	if (c->n >= CACHE_MAX_ENTRIES || arena_bytes(c->arena) >= CACHE_MAX_BYTES) {
		arena_reset(c->arena);          /* full: start over, never grow */
		memset(c->buckets, 0, sizeof c->buckets);
		c->n = 0;
	}
	e = ARENA_NEW(c->arena, CacheEnt);
	e->hash = h;
	e->key = ARENA_ARRAY(c->arena, Value, c->nkey + 1);
	for (a = 0; a < c->nkey; a++)
		e->key[a] = copy_value(c->arena, &key[a]);
	e->res = copy_value(c->arena, res);
	e->next = c->buckets[h % CACHE_BUCKETS];
	c->buckets[h % CACHE_BUCKETS] = e;
	c->n++;
}

/* ANY/ALL fold of one subquery batch into *acc (1 true, 0 false, -1 NULL
 * seen, 2 undecided). */
static int
fold_cmp(SubPlan *sp, const Value *x, Batch *b, Arena *scratch, int *acc)
{
	Batch pair;
	Vector cols[2], res;
	VectorView v;
	uint32_t i;
	bool any = sp->kind == SUBPLAN_ANY;

	vector_init_const(&cols[0], x, scratch);
	cols[1] = b->cols[0];
	pair.ncols = 2;
	pair.cols = cols;
	pair.count = b->count;
	pair.sel = b->sel;
	pair.arena = scratch;
	TRY(expr_eval(sp->rctx, sp->cmp, &pair, b->sel, b->count, scratch, &res));
	vector_view(&res, &v);
	for (i = 0; i < b->count; i++) {
		uint32_t r = b->sel ? b->sel[i] : i;
		uint32_t k = v.sel ? v.sel[r] : r;
		if (!validity_get(v.validity, k)) {
			*acc = -1;
			continue;
		}
		if ((((const uint8_t *)v.data)[k] != 0) == any) {
			*acc = any ? 1 : 0;
			return FLOE_OK;
		}
	}
	return FLOE_OK;
}

/* Run the plan for the current params; the row's value into *res. */
static int
run_one(SubPlan *sp, const Value *x, Arena *scratch, SqlType type, Value *res)
{
	Operator *root = sp->root;
	Batch *b;
	int64_t rows = 0;
	int acc = 2, rc;

	*res = value_null(type);
	TRY(op_open(root));
	while ((rc = op_next(root, &b)) == FLOE_OK && b) {
		if (b->count == 0)
			continue;
		if (sp->kind == SUBPLAN_EXISTS) {
			rows = 1;
			break;
		}
		if (sp->kind == SUBPLAN_EXPR) {
			if (rows + b->count > 1) {
				op_close(root);
				return floe_errorf(sp->rctx->err, ERRCODE_CARDINALITY_VIOLATION,
						   "more than one row returned by a subquery used as an expression");
			}
			vector_get_value(&b->cols[0], b->sel ? b->sel[0] : 0, res);
			if (!res->is_null && (type_is_string(res->type.id) ||
					      res->type.id == TYPE_ARRAY)) {
				/* the bytes outlive the plan's batch */
				const char *p = strview_data(&res->u.s);
				char *cp = arena_memdup(scratch, p, res->u.s.len ? res->u.s.len : 1);
				res->u.s = strview_make(cp, res->u.s.len);
			}
			res->type = type;
			rows += b->count;
			continue;
		}
		if ((rc = fold_cmp(sp, x, b, scratch, &acc)) != FLOE_OK)
			break;
		if (acc == 0 || acc == 1)
			break;
	}
	op_close(root);
	TRY(rc);
	if (sp->kind == SUBPLAN_EXISTS) {
		res->is_null = false;
		res->u.b = rows > 0;
	} else if (sp->kind != SUBPLAN_EXPR) {
		if (acc == 2)
			acc = sp->kind == SUBPLAN_ALL;
		if (acc >= 0) {
			res->is_null = false;
			res->u.b = acc == 1;
		}
	}
	return FLOE_OK;
}

int
subplan_eval(ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel,
	     uint32_t n, Arena *scratch, Vector *out)
{
	SubPlan *sp = e->subplan;
	int np = sp->nparams, na = e->nargs, a, rc = FLOE_OK;
	Vector *argv = ARENA_ARRAY(scratch, Vector, na + 1);
	Value *prev = ARENA_ARRAY(scratch, Value, na + 1);
	Value *cur = ARENA_ARRAY(scratch, Value, na + 1);
	Value res;
	uint32_t i, phys = 0;
	bool have_prev = false;

	for (i = 0; i < n; i++) {
		uint32_t r = sel ? sel[i] : i;
		if (r + 1 > phys)
			phys = r + 1;
	}
	for (a = 0; a < na; a++)
		TRY(expr_eval(ctx, e->args[a], in, sel, n, scratch, &argv[a]));
	vector_init(out, e->type, scratch, phys ? phys : 1);
	memset(&res, 0, sizeof res);
	pthread_mutex_lock(&subplan_lock);
	for (i = 0; i < n && rc == FLOE_OK; i++) {
		uint32_t r = sel ? sel[i] : i;
		bool same = have_prev;
		if (ctx->cancel && *ctx->cancel) {
			rc = floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED,
					 "canceling statement due to user request");
			break;
		}
		for (a = 0; a < na; a++) {
			vector_get_value(&argv[a], r, &cur[a]);
			if (same && !same_value(&cur[a], &prev[a]))
				same = false;
		}
		if (!same) {
			uint64_t h = 14695981039346656037ULL;
			bool cacheable = true;
			const CacheEnt *hit = NULL;
			SubCache *c;
			for (a = 0; a < na && cacheable; a++)
				cacheable = key_hash(&cur[a], &h);
			c = cacheable ? cache_get(sp, na) : NULL;
			if (c && (hit = cache_find(c, h, cur)) != NULL) {
				res = hit->res;
			} else {
				for (a = 0; a < np; a++)
					sp->rctx->params[sp->param_idx[a]] = cur[a];
				rc = run_one(sp, np < na ? &cur[np] : NULL, scratch, e->type, &res);
				if (rc != FLOE_OK) {
					if (sp->rctx->err != ctx->err)
						*ctx->err = *sp->rctx->err;
					break;
				}
				if (c)
					cache_put(c, h, cur, &res);
			}
			memcpy(prev, cur, sizeof(Value) * (size_t)na);
			have_prev = true;
		}
		if (res.is_null)
			vector_set_null(out, r);
		else
			vector_set_value(out, r, &res);
	}
	pthread_mutex_unlock(&subplan_lock);
	return rc;
}
