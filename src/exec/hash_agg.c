/*
 * hash_agg.c — GROUP BY with aggregates (and DISTINCT, as a GROUP BY of
 * every column with no aggregates).  A pipeline breaker: open() consumes
 * the child, next() emits the groups VECTOR_SIZE at a time.
 *
 * States:  HA_BUILD (open: read child, hash keys, update states)
 *          -> HA_EMIT (next: keys + finalized aggregates) -> HA_DONE
 *
 * Layout: an open-addressing table of (hash, group id); group keys stored
 * column-wise in growable arrays (strings copied into the operator's
 * arena); aggregate states for group g at states + g * stride + offset[j].
 * GROUP BY treats NULLs as equal, and floats are normalised (-0 = 0, one
 * NaN) before hashing and comparing, as PostgreSQL groups them.
 *
 * DISTINCT aggregates remember the (group, value) pairs they have fed to
 * their state; FILTER (WHERE ...) narrows the rows an aggregate sees.
 * An aggregate with ORDER BY (string_agg(x, ',' ORDER BY y)) does not
 * update its states while the input is read: its rows (group id,
 * arguments, sort keys) are kept in a RowStore, sorted by (group, keys,
 * arrival) when the input ends, and fed to the states in that order; with
 * DISTINCT (whose sort keys are arguments) a row equal to the previous
 * one fed to the same group is skipped.
 *
 * Spilling (work_mem, spill.h), as PostgreSQL 13's hash aggregation:
 * once the table's memory passes ctx->mem_limit, the groups already in
 * it stay and keep absorbing their rows, but a row whose group is not in
 * the table is written (the child's whole row) to one of SPILL_PARTS
 * partition files chosen by 4 bits of its key hash.  When the input ends
 * the in-memory groups are finished and emitted, then each partition file
 * is aggregated the same way as a new input (a "pass"), with the next 4
 * hash bits if it spills again, up to MAX_LEVEL levels.  A group is thus
 * never split between passes, so every aggregate (DISTINCT, ORDER BY,
 * FILTER, string_agg) sees all of its rows in one state.  What cannot be
 * bounded this way (the states of groups already in memory growing, one
 * group's rows past MAX_LEVEL) fails with 53200 once it holds
 * SPILL_HARD_FACTOR times work_mem.  The table's memory counts what is
 * allocated (capacities) once it has grown, and a growth that would pass
 * work_mem starts the spilling instead, so a pass stays within work_mem;
 * the malloc'd table is charged to the statement's memory account every
 * batch (charge_heap; floe.query_memory_limit, 53200).
 *
 * Parallel (parallel.c, hash_agg_set_parallel): when the child pipeline
 * can be cloned down to a scan, open() runs `threads` copies of it (this
 * operator's child in the calling thread, clones in worker threads), each
 * feeding its own partial table (a HashAggOp of its own, same keys and
 * aggregates, never spilling); the partial tables are then folded into
 * this one group by group with AggFunc.combine, and next() emits as
 * usual.  Only aggregates whose result does not depend on the order of
 * their input are run this way (count, min, max, sum/avg/variance of
 * exact types, bool_and/or, bit_and/or; no DISTINCT, ORDER BY, string_agg,
 * float sums): so the parallel result equals the serial one exactly.  If
 * a partial table passes its share of work_mem (limit / threads) every
 * thread stops and the aggregation reruns serially, spilling as above.
 *
 * Invariants:
 *   1. group ids are dense 0..ngroups-1 in first-seen order (per pass).
 *   2. state pointers are recomputed per batch (the state buffer may move).
 *   3. a plain aggregation (no GROUP BY) has exactly one group, even over
 *      no input rows; a grouping by zero keys that is not plain (DISTINCT
 *      or a set operation of zero columns) has one group if it has input.
 *
 * INTERFACE ROUTINES
 *   hash_agg_new(ctx, child, nkeys, keys, naggs, aggs, plain)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "types/keyform.h"
#include "common/hash.h"
#include "exec/exec.h"
#include "exec/spill.h"
#include "func/func.h"

#define SPILL_BITS 4
#define SPILL_PARTS (1 << SPILL_BITS)
#define MAX_LEVEL 8

typedef struct Pending {
	SpillFile *f;
	int level;
} Pending;

typedef struct KeyCol {
	SqlType type;
	size_t width;
	char *data;
	uint8_t *nulls;
	uint8_t *dscale;         /* unconstrained numeric: each group's display
				    scale, its first row's (else NULL) */
	bool varies;             /* keep dscale (an unconstrained numeric key) */
	bool intkey;             /* a 4- or 8-byte integer type: compared as one */
} KeyCol;

typedef struct HashAggOp {
	Operator op;
	int nkeys, naggs;
	Expr **keys;
	AggCall *aggs;
	bool plain;
	Arena *arena;            /* keys' strings, agg allocations */
	KeyCol *kc;
	uint32_t ngroups, gcap;
	char *states;
	size_t stride;
	size_t *offsets;
	uint64_t *ht_hash;
	uint32_t *ht_gid;
	size_t ht_cap;
	uint32_t emit_pos;
	struct DistinctSet *dsets;  /* per aggregate: seen (group, value) pairs
				       of a DISTINCT aggregate (else unused) */
	RowStore **ostore;       /* per aggregate with ORDER BY: its input rows
				    (group id, arg, arg2, order keys), else NULL */
	size_t *orow_bytes;      /* per aggregate: bytes of one ostore row */
	/* spilling */
	SpillSet *ss;
	int level;               /* of the current pass */
	bool spilling;           /* new groups of this pass go to parts[] */
	SpillFile *parts[SPILL_PARTS];
	Pending *pending;
	int npending, cap_pending;
	Arena *read_arena;       /* a batch read back from a partition */
	/* aggregates whose states grow with their rows (DISTINCT, ORDER BY):
	 * a pass keeps its input (replay) until it passes the limit, then
	 * partitions all of it and the rest of its input (grace_all) */
	bool growing;
	bool grace_all;
	RowStore *replay;
	int64_t replay_bytes;
	/* parallel: threads running the child pipeline (<= 1: serial), their
	 * contexts and partial tables (part[0] is this operator, the others
	 * each own a clone of the child), the scan's MorselSource */
	int threads;
	ExecCtx **wctx;
	struct HashAggOp **part;
	MorselSource *ms;
	bool overflow;           /* this partial table passed its share */
	int64_t charged;         /* heap_bytes() charged to the memory account */
} HashAggOp;

/*
 * The (group, value) pairs a DISTINCT aggregate has already fed to its
 * state: open addressing over (hash, group id, value index); values kept
 * in a growable array (strings copied into the operator's arena).
 */
typedef struct DistinctSet {
	uint64_t *hash;
	uint32_t *gid;
	uint32_t *vidx;          /* EMPTY = free slot */
	size_t cap, n;
	char *vals;
	size_t width, vcap;
	uint8_t *null_seen;      /* [ncap] per group: a NULL kept (keeps_nulls) */
	size_t ncap;
} DistinctSet;

#define EMPTY UINT32_MAX
/* rows ahead whose table slot (and group, half as far) is fetched */
#define PREFETCH 16

/* Normalised bits of a key value for hashing and comparing. */
static void
norm_float(const void *src, TypeId id, void *dst)
{
	if (id == TYPE_FLOAT32) {
		float f;
		memcpy(&f, src, 4);
		if (f == 0)
			f = 0;
		if (isnan(f))
			f = NAN;
		memcpy(dst, &f, 4);
	} else {
		double d;
		memcpy(&d, src, 8);
		if (d == 0)
			d = 0;
		if (isnan(d))
			d = NAN;
		memcpy(dst, &d, 8);
	}
}

/* An interval key as PostgreSQL compares it (interval_cmp_value): one
 * span in microseconds with a month of 30 days, so '1 mon', '30 days' and
 * '720:00:00' are one group. */
static int128
interval_span(const char *p)
{
	Interval iv;
	memcpy(&iv, p, sizeof iv);
	return ((int128)iv.months * 30 + iv.days) * (int128)86400000000LL + iv.micros;
}

static uint64_t
hash_value(const char *p, SqlType t, size_t w)
{
	if (t.id == TYPE_INTERVAL) {
		int128 x = interval_span(p);
		return XXH3_64bits(&x, sizeof x);
	}
	if (type_is_string(t.id)) {
		/* bpchar's trailing blanks, jsonb's number forms: keyform.h */
		const strview *s = (const strview *)p;
		return keyform_hash(t, strview_data(s), s->len);
	}
	if (t.id == TYPE_FLOAT32 || t.id == TYPE_FLOAT64) {
		char buf[8] = { 0 };
		uint64_t x = 0;
		norm_float(p, t.id, buf);
		memcpy(&x, buf, w);
		return hash_mix64(x);
	}
	if (w <= 8) {
		uint64_t x = 0;
		memcpy(&x, p, w);
		return hash_mix64(x);
	}
	return XXH3_64bits(p, w);
}

static bool
value_eq(const char *a, const char *b, SqlType t, size_t w)
{
	if (keyform_special(t)) {
		const strview *x = (const strview *)a, *y = (const strview *)b;
		return keyform_eq(t, strview_data(x), x->len, strview_data(y), y->len);
	}
	if (type_is_string(t.id))
		return strview_eq((const strview *)a, (const strview *)b);
	if (t.id == TYPE_INTERVAL)
		return interval_span(a) == interval_span(b);
	if (t.id == TYPE_FLOAT32 || t.id == TYPE_FLOAT64) {
		char x[8], y[8];
		norm_float(a, t.id, x);
		norm_float(b, t.id, y);
		return memcmp(x, y, w) == 0;
	}
	return memcmp(a, b, w) == 0;
}

static int64_t group_bytes(const HashAggOp *h);

/* The first capacity of an array of `per` bytes a group (at least `min`
 * slots): room for the planner's estimated groups (op.est_rows, from the
 * keys' distinct counts: plan/cardinality.h) times `factor`, in the first
 * pass only, and only while that stays within a quarter of work_mem and
 * 2^24 slots; a power of two. */
static size_t
first_cap(const HashAggOp *h, size_t min, double factor, int64_t per)
{
	double want = h->op.est_rows * factor;
	int64_t lim = h->op.ctx && h->op.ctx->mem_limit > 0 ? h->op.ctx->mem_limit / 4 : (int64_t)1 << 28;
	size_t c = min;

	if (h->level > 0 || h->nkeys == 0 || want <= (double)min || h->threads > 1)
		return min;
	while ((double)c < want && c < ((size_t)1 << 24) && (int64_t)(c * 2) * per <= lim)
		c *= 2;
	return c;
}

static void
grow_groups(HashAggOp *h)
{
	uint32_t ncap = h->gcap ? h->gcap * 2 : (uint32_t)first_cap(h, 1024, 1, group_bytes(h));
	int k;

	for (k = 0; k < h->nkeys; k++) {
		h->kc[k].data = xrealloc(h->kc[k].data, h->kc[k].width * ncap);
		h->kc[k].nulls = xrealloc(h->kc[k].nulls, ncap);
		if (h->kc[k].varies)
			h->kc[k].dscale = xrealloc(h->kc[k].dscale, ncap);
	}
	h->states = xrealloc(h->states, h->stride * ncap + 16);
	h->gcap = ncap;
}

static void
ht_insert(HashAggOp *h, uint64_t hash, uint32_t gid)
{
	size_t mask = h->ht_cap - 1, s = hash & mask;
	while (h->ht_gid[s] != EMPTY)
		s = (s + 1) & mask;
	h->ht_hash[s] = hash;
	h->ht_gid[s] = gid;
}

static void
ht_grow(HashAggOp *h)
{
	uint64_t *oh = h->ht_hash;
	uint32_t *og = h->ht_gid;
	size_t oc = h->ht_cap, i;

	h->ht_cap = oc ? oc * 2 : first_cap(h, 4096, 2, 12);
	h->ht_hash = xmalloc(sizeof(uint64_t) * h->ht_cap);
	h->ht_gid = xmalloc(sizeof(uint32_t) * h->ht_cap);
	memset(h->ht_gid, 0xff, sizeof(uint32_t) * h->ht_cap);
	for (i = 0; i < oc; i++)
		if (og[i] != EMPTY)
			ht_insert(h, oh[i], og[i]);
	free(oh);
	free(og);
}

static uint32_t
new_group(HashAggOp *h)
{
	uint32_t g = h->ngroups++;
	int j;

	if (g >= h->gcap)
		grow_groups(h);
	for (j = 0; j < h->naggs; j++)
		h->aggs[j].fn->init(h->states + h->stride * g + h->offsets[j]);
	return g;
}

static void
dset_grow(DistinctSet *d)
{
	DistinctSet o = *d;
	size_t i;

	d->cap = o.cap ? o.cap * 2 : 64;
	d->hash = xmalloc(sizeof(uint64_t) * d->cap);
	d->gid = xmalloc(sizeof(uint32_t) * d->cap);
	d->vidx = xmalloc(sizeof(uint32_t) * d->cap);
	memset(d->vidx, 0xff, sizeof(uint32_t) * d->cap);
	for (i = 0; i < o.cap; i++) {
		size_t m = d->cap - 1, sl;
		if (o.vidx[i] == EMPTY)
			continue;
		for (sl = o.hash[i] & m; d->vidx[sl] != EMPTY; sl = (sl + 1) & m)
			;
		d->hash[sl] = o.hash[i];
		d->gid[sl] = o.gid[i];
		d->vidx[sl] = o.vidx[i];
	}
	free(o.hash);
	free(o.gid);
	free(o.vidx);
}

/* Is fn not strict (its update sees NULL arguments, so DISTINCT keeps
 * one NULL per group)?  Of floe's aggregates only array_agg; the strict
 * ones (count, sum, string_agg ...) never see NULLs. */
static bool
keeps_nulls(const AggFunc *fn)
{
	return !strcmp(fn->name, "array_agg");
}

/* True (and remembered) if group g had no NULL yet. */
static bool
dset_null(DistinctSet *d, uint32_t g)
{
	if (g >= d->ncap) {
		size_t nc = d->ncap ? d->ncap : 64;
		while (nc <= g)
			nc *= 2;
		d->null_seen = xrealloc(d->null_seen, nc);
		memset(d->null_seen + d->ncap, 0, nc - d->ncap);
		d->ncap = nc;
	}
	if (d->null_seen[g])
		return false;
	d->null_seen[g] = 1;
	return true;
}

/* True (and remembered) if value p of group g was not seen before. */
static bool
dset_add(HashAggOp *h, DistinctSet *d, SqlType t, uint32_t g, const char *p)
{
	uint64_t hv = hash_mix64(hash_value(p, t, d->width) ^ ((uint64_t)g * 0x9e3779b97f4a7c15ULL));
	size_t m, sl;

	if ((d->n + 1) * 2 > d->cap)
		dset_grow(d);
	m = d->cap - 1;
	for (sl = hv & m; d->vidx[sl] != EMPTY; sl = (sl + 1) & m)
		if (d->hash[sl] == hv && d->gid[sl] == g &&
		    value_eq(d->vals + d->width * d->vidx[sl], p, t, d->width))
			return false;
	if (d->n == d->vcap) {
		d->vcap = d->vcap ? d->vcap * 2 : 64;
		d->vals = xrealloc(d->vals, d->width * d->vcap);
	}
	memcpy(d->vals + d->width * d->n, p, d->width);
	if (type_is_string(t.id)) {
		strview *sv = (strview *)(d->vals + d->width * d->n);
		if (sv->len > STRVIEW_INLINE)
			*sv = strview_make(arena_memdup(h->arena, sv->u.ptr, sv->len), sv->len);
	}
	d->hash[sl] = hv;
	d->gid[sl] = g;
	d->vidx[sl] = (uint32_t)d->n++;
	return true;
}

/* Evaluate e over the batch's rows into a dense vector of in->count rows. */
static int
eval_dense(HashAggOp *h, const Expr *e, Batch *in, Vector *out)
{
	Operator *op = &h->op;
	Vector raw;

	TRY(expr_eval(op->ctx, e, in, in->sel, in->count, op->scratch, &raw));
	if (in->sel && raw.kind != VECTOR_CONST) {
		vector_init(out, raw.type, op->scratch, in->count);
		vector_copy_rows(out, 0, &raw, in->sel, in->count);
	} else {
		*out = raw;
	}
	return FLOE_OK;
}

/* ---- aggregates with ORDER BY ---------------------------------------------- */

/* Store column layout of aggregate j's buffered rows. */
static int
ord_arg_col(const AggCall *a)
{
	return a->arg ? 1 : -1;
}

static int
ord_key_col(const AggCall *a)
{
	return 1 + (a->arg ? 1 : 0) + (a->arg2 ? 1 : 0);
}

/* Keep the rows of `in` that aggregate j sees (FILTER) in its store. */
static int
buffer_ordered(HashAggOp *h, int j, Batch *in, const uint32_t *gids)
{
	Operator *op = &h->op;
	AggCall *a = &h->aggs[j];
	uint32_t n = in->count, m = 0, i;
	uint32_t *keep = arena_alloc(op->scratch, sizeof(uint32_t) * (n ? n : 1));
	int ncols = ord_key_col(a) + a->norder, c = 0, k;
	Batch *b = ARENA_NEW(op->scratch, Batch);
	Vector tmp;

	if (a->filter) {
		Vector fvec;
		VectorView fv;
		TRY(eval_dense(h, a->filter, in, &fvec));
		vector_view(&fvec, &fv);
		for (i = 0; i < n; i++) {
			uint32_t fk = fv.sel ? fv.sel[i] : i;
			if (validity_get(fv.validity, fk) && ((const uint8_t *)fv.data)[fk])
				keep[m++] = i;
		}
	} else {
		for (i = 0; i < n; i++)
			keep[m++] = i;
	}
	if (!m)
		return FLOE_OK;
	b->ncols = ncols;
	b->cols = ARENA_ARRAY(op->scratch, Vector, ncols);
	b->arena = op->scratch;
	vector_init(&b->cols[c], type_make(TYPE_INT64), op->scratch, m);
	for (i = 0; i < m; i++)
		((int64_t *)b->cols[c].data)[i] = gids[keep[i]];
	c++;
	if (a->arg) {
		TRY(eval_dense(h, a->arg, in, &tmp));
		vector_init(&b->cols[c], tmp.type, op->scratch, m);
		vector_copy_rows(&b->cols[c], 0, &tmp, keep, m);
		c++;
	}
	if (a->arg2) {
		TRY(eval_dense(h, a->arg2, in, &tmp));
		vector_init(&b->cols[c], tmp.type, op->scratch, m);
		vector_copy_rows(&b->cols[c], 0, &tmp, keep, m);
		c++;
	}
	for (k = 0; k < a->norder; k++) {
		TRY(eval_dense(h, a->order[k].e, in, &tmp));
		vector_init(&b->cols[c], tmp.type, op->scratch, m);
		vector_copy_rows(&b->cols[c], 0, &tmp, keep, m);
		c++;
	}
	b->count = m;
	rowstore_append(h->ostore[j], b);
	return FLOE_OK;
}

typedef struct OrdRef {
	uint32_t batch, row;
} OrdRef;

typedef struct OrdSort {
	RowStore *rs;
	const AggCall *a;
	int key0;
} OrdSort;

static int
ord_cmp(const void *pa, const void *pb, void *arg)
{
	const OrdRef *x = pa, *y = pb;
	const OrdSort *os = arg;
	const Batch *bx = rowstore_batch(os->rs, (int)x->batch), *by = rowstore_batch(os->rs, (int)y->batch);
	int64_t gx = ((const int64_t *)bx->cols[0].data)[x->row];
	int64_t gy = ((const int64_t *)by->cols[0].data)[y->row];
	int k;

	if (gx != gy)
		return gx < gy ? -1 : 1;
	for (k = 0; k < os->a->norder; k++) {
		const AggOrderKey *key = &os->a->order[k];
		const Vector *vx = &bx->cols[os->key0 + k], *vy = &by->cols[os->key0 + k];
		bool nx = !validity_get(vx->validity, x->row), ny = !validity_get(vy->validity, y->row);
		size_t w = type_width(vx->type.id);
		int c;
		if (nx || ny) {
			if (nx && ny)
				continue;
			return nx ? (key->nulls_first ? -1 : 1) : (key->nulls_first ? 1 : -1);
		}
		c = sort_compare_values((const char *)vx->data + w * x->row,
					(const char *)vy->data + w * y->row, vx->type);
		if (c)
			return key->desc ? -c : c;
	}
	if (x->batch != y->batch)
		return x->batch < y->batch ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Copy value (batch, row) of column col into dst row i. */
static void
ord_copy(const Batch *src, int col, uint32_t row, Vector *dst, uint32_t i)
{
	const Vector *v = &src->cols[col];
	size_t w = type_width(v->type.id);

	memcpy((char *)dst->data + w * i, (const char *)v->data + w * row, w);
	vector_copy_dscale(dst, i, v, row);
	if (!validity_get(v->validity, row))
		vector_set_null(dst, i);
}

static bool
ord_same_arg(const Batch *bx, uint32_t rx, const Batch *by, uint32_t ry, int col)
{
	const Vector *vx = &bx->cols[col], *vy = &by->cols[col];
	size_t w = type_width(vx->type.id);
	bool nx = !validity_get(vx->validity, rx), ny = !validity_get(vy->validity, ry);

	if (nx || ny)
		return nx && ny;
	return sort_compare_values((const char *)vx->data + w * rx, (const char *)vy->data + w * ry,
				   vx->type) == 0;
}

/* Sort aggregate j's buffered rows and feed them to the group states. */
static int
feed_ordered(HashAggOp *h, int j)
{
	Operator *op = &h->op;
	AggCall *a = &h->aggs[j];
	RowStore *rs = h->ostore[j];
	int nb = rowstore_nbatches(rs), bi, ac = ord_arg_col(a);
	size_t total = (size_t)rowstore_rows(rs), n = 0, pos;
	OrdRef *refs;
	OrdSort os = { rs, a, ord_key_col(a) };
	bool have_prev = false;
	OrdRef prev = { 0, 0 };

	if (!total)
		return FLOE_OK;
	refs = xmalloc(sizeof(OrdRef) * total);
	for (bi = 0; bi < nb; bi++) {
		const Batch *b = rowstore_batch(rs, bi);
		uint32_t r;
		for (r = 0; r < b->count; r++) {
			refs[n].batch = (uint32_t)bi;
			refs[n].row = r;
			n++;
		}
	}
	qsort_r(refs, n, sizeof(OrdRef), ord_cmp, &os);
	for (pos = 0; pos < n;) {
		uint32_t m = 0, cap = VECTOR_SIZE;
		Vector arg, arg2;
		void **ptrs;
		FuncCtx fc = { h->arena, op->ctx->err, op->ctx->env };
		int rc;

		arena_reset(op->scratch);
		if ((rc = exec_check_cancel(op->ctx)) != FLOE_OK) {
			free(refs);
			return rc;
		}
		ptrs = arena_alloc(op->scratch, sizeof(void *) * cap);
		if (a->arg)
			vector_init(&arg, a->arg->type, op->scratch, cap);
		if (a->arg2)
			vector_init(&arg2, a->arg2->type, op->scratch, cap);
		for (; pos < n && m < cap; pos++) {
			const Batch *b = rowstore_batch(rs, (int)refs[pos].batch);
			uint32_t r = refs[pos].row;
			int64_t g = ((const int64_t *)b->cols[0].data)[r];
			if (a->distinct && ac >= 0) {
				const Batch *pb;
				if (!validity_get(b->cols[ac].validity, r) && !keeps_nulls(a->fn))
					continue;   /* strict DISTINCT aggregates ignore NULLs */
				pb = have_prev ? rowstore_batch(rs, (int)prev.batch) : NULL;
				if (pb && ((const int64_t *)pb->cols[0].data)[prev.row] == g &&
				    ord_same_arg(pb, prev.row, b, r, ac))
					continue;
				prev = refs[pos];
				have_prev = true;
			}
			ptrs[m] = h->states + h->stride * (size_t)g + h->offsets[j];
			if (a->arg)
				ord_copy(b, ac, r, &arg, m);
			if (a->arg2)
				ord_copy(b, ac + 1, r, &arg2, m);
			m++;
		}
		if (!m)
			continue;
		if (a->arg2)
			rc = a->fn->update2(&fc, &arg, &arg2, m, ptrs);
		else
			rc = a->fn->update(&fc, a->arg ? &arg : NULL, m, ptrs);
		if (rc != FLOE_OK) {
			free(refs);
			return rc;
		}
	}
	free(refs);
	rowstore_clear(rs);
	return FLOE_OK;
}

/* ---- memory and spilling ----------------------------------------------------- */

/* Bytes of one group's keys and states. */
static int64_t
group_bytes(const HashAggOp *h)
{
	int64_t b = (int64_t)h->stride;
	int k;

	for (k = 0; k < h->nkeys; k++)
		b += (int64_t)(h->kc[k].width + 1 + h->kc[k].varies);
	return b;
}

/* The malloc'd table as allocated (capacities): what the statement's
 * memory account is charged (charge_heap). */
static int64_t
heap_bytes(const HashAggOp *h)
{
	int64_t m = (int64_t)h->gcap * group_bytes(h) + (int64_t)h->ht_cap * 12;
	int k;

	for (k = 0; k < h->naggs; k++) {
		const DistinctSet *d = &h->dsets[k];
		m += (int64_t)d->cap * 16 + (int64_t)d->vcap * (int64_t)d->width + (int64_t)d->ncap;
	}
	return m;
}

/* Charge the table's growth since the last call to the memory account
 * (53200 past floe.query_memory_limit). */
static int
charge_heap(HashAggOp *h)
{
	int64_t now = heap_bytes(h), d = now - h->charged;

	h->charged = now;
	memacct_charge(arena_account(h->arena), d);   /* the account h->arena holds */
	/* EXPLAIN ANALYZE's Peak Memory: all this operator has malloc'd */
	op_note_mem(&h->op, now + (int64_t)arena_held(h->arena) + (int64_t)arena_held(h->read_arena) +
			    (int64_t)arena_held(h->op.scratch) + spill_set_held(h->ss));
	return exec_check_mem(h->op.ctx);
}

static int64_t
mem_used(const HashAggOp *h)
{
	/* groups in use while the table has its first allocations (they
	 * alone may pass a small work_mem), then what is allocated: a grown
	 * table holds up to twice its groups' bytes */
	int64_t m = (int64_t)arena_bytes(h->arena);
	int k;

	if (h->gcap > 1024 || h->ht_cap > 4096)
		m += (int64_t)h->gcap * group_bytes(h) + (int64_t)h->ht_cap * 12;
	else
		m += (int64_t)h->ngroups * (24 + group_bytes(h));
	for (k = 0; k < h->naggs; k++) {
		const DistinctSet *d = &h->dsets[k];
		m += (int64_t)d->cap * 16 + (int64_t)d->vcap * (int64_t)d->width;
		if (h->ostore[k])
			m += rowstore_rows(h->ostore[k]) * (int64_t)h->orow_bytes[k];
	}
	return m;
}

/* Forget every group (the end of a pass, close). */
static void
reset_table(HashAggOp *h)
{
	int k;

	for (k = 0; k < h->nkeys; k++) {
		free(h->kc[k].data);
		free(h->kc[k].nulls);
		free(h->kc[k].dscale);
		h->kc[k].data = NULL;
		h->kc[k].nulls = NULL;
		h->kc[k].dscale = NULL;
	}
	for (k = 0; k < h->naggs; k++) {
		DistinctSet *d = &h->dsets[k];
		free(d->hash);
		free(d->gid);
		free(d->vidx);
		free(d->vals);
		free(d->null_seen);
		d->null_seen = NULL;
		d->ncap = 0;
		d->hash = NULL;
		d->gid = d->vidx = NULL;
		d->vals = NULL;
		d->cap = d->n = d->vcap = 0;
	}
	for (k = 0; k < h->naggs; k++)
		if (h->ostore[k])
			rowstore_clear(h->ostore[k]);
	free(h->states);
	free(h->ht_hash);
	free(h->ht_gid);
	h->states = NULL;
	h->ht_hash = NULL;
	h->ht_gid = NULL;
	h->ngroups = h->gcap = 0;
	h->ht_cap = 0;
	h->emit_pos = 0;
	arena_reset(h->arena);
	/* (not through op.ctx: this also runs when the statement's arena
	 * is freed, after its ExecCtx is gone) */
	memacct_charge(arena_account(h->arena), -h->charged);
	h->charged = 0;
}

/* Would a table growth of `extra` bytes pass work_mem?  Then the pass
 * spills new groups instead of growing (when it may spill). */
static bool
grow_spills(HashAggOp *h, int64_t extra)
{
	return !h->growing && h->level < MAX_LEVEL && h->ngroups &&
	       spill_over(h->op.ctx, mem_used(h) + extra);
}

static int
part_of(const HashAggOp *h, uint64_t hash)
{
	return (int)((hash >> (64 - SPILL_BITS * (h->level + 1))) & (SPILL_PARTS - 1));
}

/* Write rows[0..n) of in (logical) to partition p of this pass. */
static int
spill_rows(HashAggOp *h, Batch *in, int p, const uint32_t *rows, uint32_t n)
{
	Operator *c = h->op.child;

	if (!h->parts[p])
		TRY(spill_file_new(h->ss, c->ncols, c->types, &h->parts[p]));
	return spill_write(h->parts[p], in, rows, n);
}

/* The end of a pass's input: its partitions become pending passes. */
static void
push_parts(HashAggOp *h)
{
	int p, nparts = 0, next = h->level + 1;

	for (p = 0; p < SPILL_PARTS; p++)
		nparts += h->parts[p] != NULL;
	/* everything in one partition with nothing kept here: its keys do not
	 * split (one group); more levels would only copy it again */
	if (nparts == 1 && h->ngroups == 0)
		next = MAX_LEVEL;
	for (p = 0; p < SPILL_PARTS; p++) {
		if (!h->parts[p])
			continue;
		if (h->npending == h->cap_pending) {
			int ncap = h->cap_pending ? h->cap_pending * 2 : 32;
			h->pending = arena_realloc(h->op.ctx->arena, h->pending,
						   sizeof(Pending) * (size_t)h->cap_pending,
						   sizeof(Pending) * (size_t)ncap);
			h->cap_pending = ncap;
		}
		h->pending[h->npending].f = h->parts[p];
		h->pending[h->npending].level = next;
		h->npending++;
		h->parts[p] = NULL;
	}
	h->spilling = false;
}

/* Evaluate the keys over in (dense views) and hash every row. */
static int
hash_keys(HashAggOp *h, Batch *in, Vector *kv, VectorView *views, uint64_t *hashes)
{
	Operator *op = &h->op;
	uint32_t n = in->count, i;
	int k;

	for (k = 0; k < h->nkeys; k++) {
		Vector raw;
		TRY(expr_eval(op->ctx, h->keys[k], in, in->sel, n, op->scratch, &raw));
		if (in->sel && raw.kind != VECTOR_CONST) {
			vector_init(&kv[k], raw.type, op->scratch, n);
			vector_copy_rows(&kv[k], 0, &raw, in->sel, n);
		} else {
			kv[k] = raw;
		}
		vector_view(&kv[k], &views[k]);
	}
	for (i = 0; i < n; i++)
		hashes[i] = 0x9e3779b97f4a7c15ULL;
	for (k = 0; k < h->nkeys; k++) {
		const char *d = views[k].data;
		size_t w = h->kc[k].width;
		if (h->kc[k].intkey && !views[k].validity) {
			/* the values' bytes zero-extended, as hash_value does */
			const uint32_t *sel = views[k].sel;
			for (i = 0; i < n; i++) {
				uint32_t r = sel ? sel[i] : i;
				uint64_t x = w == 8 ? ((const uint64_t *)d)[r] : ((const uint32_t *)d)[r];
				uint64_t hv = hash_mix64(x);
				hashes[i] = hash_mix64(hashes[i] ^ (hv + 0x9e3779b97f4a7c15ULL + (hashes[i] << 6)));
			}
			continue;
		}
		for (i = 0; i < n; i++) {
			uint32_t r = views[k].sel ? views[k].sel[i] : i;
			uint64_t hv = validity_get(views[k].validity, r) ?
				hash_value(d + w * r, h->kc[k].type, w) : 0x5bd1e995ULL;
			hashes[i] = hash_mix64(hashes[i] ^ (hv + 0x9e3779b97f4a7c15ULL + (hashes[i] << 6)));
		}
	}
	return FLOE_OK;
}

/* Write every row of in to its partition (gids[i] == EMPTY: only those
 * rows when gids != NULL). */
static int
spill_batch(HashAggOp *h, Batch *in, const uint64_t *hashes, const uint32_t *gids)
{
	uint32_t n = in->count, i;
	uint32_t *rows = arena_alloc(h->op.scratch, sizeof(uint32_t) * (n ? n : 1));
	int p;

	for (p = 0; p < SPILL_PARTS; p++) {
		uint32_t c = 0;
		for (i = 0; i < n; i++)
			if ((!gids || gids[i] == EMPTY) && part_of(h, hashes[i]) == p)
				rows[c++] = i;
		if (c)
			TRY(spill_rows(h, in, p, rows, c));
	}
	return FLOE_OK;
}

/* Are rows a and b of the batch's keys equal?  Every key an integer word
 * without NULLs (consume's same_run). */
static inline bool
same_int_keys(const HashAggOp *h, const VectorView *views, uint32_t a, uint32_t b)
{
	int k;

	for (k = 0; k < h->nkeys; k++) {
		const uint32_t *sel = views[k].sel;
		uint32_t ra = sel ? sel[a] : a, rb = sel ? sel[b] : b;
		if (h->kc[k].width == 8 ?
		    ((const int64_t *)views[k].data)[ra] != ((const int64_t *)views[k].data)[rb] :
		    ((const int32_t *)views[k].data)[ra] != ((const int32_t *)views[k].data)[rb])
			return false;
	}
	return true;
}

static int
consume(HashAggOp *h, Batch *in)
{
	Operator *op = &h->op;
	uint32_t n = in->count, i;
	VectorView *views = ARENA_ARRAY(op->scratch, VectorView, h->nkeys ? h->nkeys : 1);
	Vector *kv = ARENA_ARRAY(op->scratch, Vector, h->nkeys ? h->nkeys : 1);
	uint64_t *hashes = arena_alloc(op->scratch, sizeof(uint64_t) * n);
	uint32_t *gids = arena_alloc(op->scratch, sizeof(uint32_t) * n);
	void **ptrs = arena_alloc(op->scratch, sizeof(void *) * n);
	uint32_t nspill = 0;
	bool same_run = h->nkeys > 0;
	int k, j;

	TRY(hash_keys(h, in, kv, views, hashes));
	if (h->grace_all)
		return spill_batch(h, in, hashes, NULL);
	/* integer keys without NULLs: a row whose keys equal the previous
	 * row's is in that row's group, with no table probe (input sorted or
	 * clustered by the keys, as lineitem by l_orderkey) */
	for (k = 0; k < h->nkeys; k++)
		if (!h->kc[k].intkey || views[k].validity)
			same_run = false;
	/* probe / insert */
	for (i = 0; i < n; i++) {
		uint32_t g = EMPTY;
		if (same_run && i > 0 && gids[i - 1] != EMPTY && same_int_keys(h, views, i - 1, i)) {
			gids[i] = gids[i - 1];
			continue;
		}
		/* a big table's slots, keys and states miss the caches: fetch
		 * the slot PREFETCH rows ahead, its group's key and states
		 * half as far (the slot is in cache by then) */
		if (h->ht_cap && h->nkeys) {
			size_t pm = h->ht_cap - 1;
			if (i + PREFETCH < n) {
				size_t s2 = hashes[i + PREFETCH] & pm;
				__builtin_prefetch(&h->ht_gid[s2]);
				__builtin_prefetch(&h->ht_hash[s2]);
			}
			if (i + PREFETCH / 2 < n) {
				uint32_t g2 = h->ht_gid[hashes[i + PREFETCH / 2] & pm];
				if (g2 != EMPTY && g2 < h->ngroups) {
					__builtin_prefetch(h->kc[0].data + h->kc[0].width * g2);
					__builtin_prefetch(h->states + h->stride * g2);
				}
			}
		}
		if (h->nkeys == 0) {
			/* no keys: one group, made by the first row unless plain
			 * (DISTINCT or a set operation over zero columns) */
			if (!h->ngroups)
				new_group(h);
			g = 0;
		} else {
			size_t mask, s;
			/* a growth past work_mem starts spilling instead (while
			 * spilling no group is added: the table never fills) */
			if ((size_t)(h->ngroups + 1) * 2 > h->ht_cap && !h->spilling) {
				if (h->ht_cap && grow_spills(h, (int64_t)h->ht_cap * 24))
					h->spilling = true;
				else
					ht_grow(h);
			}
			mask = h->ht_cap - 1;
			for (s = hashes[i] & mask; h->ht_gid[s] != EMPTY; s = (s + 1) & mask) {
				uint32_t cand = h->ht_gid[s];
				bool eq = h->ht_hash[s] == hashes[i];
				for (k = 0; eq && k < h->nkeys; k++) {
					uint32_t r = views[k].sel ? views[k].sel[i] : i;
					bool valid = validity_get(views[k].validity, r);
					bool gnull = h->kc[k].nulls[cand];
					size_t w = h->kc[k].width;
					if (!valid || gnull)
						eq = !valid && gnull;
					else if (h->kc[k].intkey && w == 8)
						eq = ((const int64_t *)views[k].data)[r] ==
						     ((const int64_t *)h->kc[k].data)[cand];
					else if (h->kc[k].intkey)
						eq = ((const int32_t *)views[k].data)[r] ==
						     ((const int32_t *)h->kc[k].data)[cand];
					else
						eq = value_eq((const char *)views[k].data + w * r,
							      h->kc[k].data + w * cand, h->kc[k].type, w);
				}
				if (eq) {
					g = cand;
					break;
				}
			}
			/* the limit is checked every 64 new groups: one batch may
			 * hold VECTOR_SIZE of them */
			if (g == EMPTY && !h->spilling && !h->growing && h->ngroups &&
			    (h->ngroups & 63) == 0 &&
			    h->level < MAX_LEVEL && spill_over(op->ctx, mem_used(h)))
				h->spilling = true;
			if (g == EMPTY && !h->spilling && h->ngroups == h->gcap &&
			    grow_spills(h, (int64_t)h->gcap * group_bytes(h)))
				h->spilling = true;
			if (g == EMPTY && h->spilling) {
				gids[i] = EMPTY;
				nspill++;
				continue;
			}
			if (g == EMPTY) {
				g = new_group(h);
				for (k = 0; k < h->nkeys; k++) {
					uint32_t r = views[k].sel ? views[k].sel[i] : i;
					size_t w = h->kc[k].width;
					char *dst = h->kc[k].data + w * g;
					bool valid = validity_get(views[k].validity, r);
					h->kc[k].nulls[g] = !valid;
					if (h->kc[k].varies)
						h->kc[k].dscale[g] = (uint8_t)h->kc[k].type.scale;
					if (!valid) {
						memset(dst, 0, w);
						continue;
					}
					memcpy(dst, (const char *)views[k].data + w * r, w);
					if (h->kc[k].varies)
						h->kc[k].dscale[g] = (uint8_t)vector_dscale_at(&kv[k],
							vector_dscale_of(&kv[k]), r, *(const int128 *)dst);
					if (type_is_string(h->kc[k].type.id)) {
						strview *sv = (strview *)dst;
						if (sv->len > STRVIEW_INLINE)
							*sv = strview_make(arena_memdup(h->arena, sv->u.ptr, sv->len), sv->len);
					}
				}
				ht_insert(h, hashes[i], g);
			}
		}
		gids[i] = g;
	}
	if (nspill) {
		/* rows of groups not in the table go to their partitions; the
		 * others (kept) update states below */
		uint32_t *ksel = arena_alloc(op->scratch, sizeof(uint32_t) * n), m = 0;
		Batch *kept;
		TRY(spill_batch(h, in, hashes, gids));
		for (i = 0; i < n; i++)
			if (gids[i] != EMPTY) {
				ksel[m] = in->sel ? in->sel[i] : i;
				gids[m++] = gids[i];
			}
		if (!m)
			return FLOE_OK;
		kept = ARENA_NEW(op->scratch, Batch);
		*kept = *in;
		kept->sel = ksel;
		kept->count = m;
		in = kept;
		n = m;
	}
	/* update aggregate states */
	for (j = 0; j < h->naggs; j++) {
		AggCall *a = &h->aggs[j];
		FuncCtx fc = { h->arena, op->ctx->err, op->ctx->env };
		Vector arg, arg2;
		uint32_t m = n, *keep = NULL;

		if (h->ostore[j]) {
			TRY(buffer_ordered(h, j, in, gids));
			continue;
		}

		for (i = 0; i < n; i++)
			ptrs[i] = h->states + h->stride * gids[i] + h->offsets[j];
		if (a->arg)
			TRY(eval_dense(h, a->arg, in, &arg));
		if (a->arg2)
			TRY(eval_dense(h, a->arg2, in, &arg2));
		if (a->filter || a->distinct) {
			/* the rows this aggregate sees: FILTER true, DISTINCT new */
			VectorView fv, av;
			Vector fvec;
			keep = arena_alloc(op->scratch, sizeof(uint32_t) * n);
			if (a->filter) {
				TRY(eval_dense(h, a->filter, in, &fvec));
				vector_view(&fvec, &fv);
			}
			if (a->distinct)
				vector_view(&arg, &av);
			m = 0;
			for (i = 0; i < n; i++) {
				if (a->filter) {
					uint32_t fk = fv.sel ? fv.sel[i] : i;
					if (!validity_get(fv.validity, fk) || !((const uint8_t *)fv.data)[fk])
						continue;
				}
				if (a->distinct) {
					uint32_t ak = av.sel ? av.sel[i] : i;
					DistinctSet *d = &h->dsets[j];
					if (!validity_get(av.validity, ak)) {
						/* strict aggregates ignore NULLs; the
						 * others keep the group's first one */
						if (!keeps_nulls(a->fn) || !dset_null(d, gids[i]))
							continue;
					} else if (!dset_add(h, d, arg.type, gids[i],
						      (const char *)av.data + d->width * ak))
						continue;
				}
				keep[m] = i;
				ptrs[m] = ptrs[i];
				m++;
			}
			if (m == 0)
				continue;
			if (a->arg) {
				Vector c;
				vector_init(&c, arg.type, op->scratch, m);
				vector_copy_rows(&c, 0, &arg, keep, m);
				arg = c;
			}
			if (a->arg2) {
				Vector c;
				vector_init(&c, arg2.type, op->scratch, m);
				vector_copy_rows(&c, 0, &arg2, keep, m);
				arg2 = c;
			}
		}
		if (a->arg2)
			TRY(a->fn->update2(&fc, &arg, &arg2, m, ptrs));
		else
			TRY(a->fn->update(&fc, a->arg ? &arg : NULL, m, ptrs));
	}
	return FLOE_OK;
}

/* Bytes a deep copy of in holds (the replay's accounting). */
static int64_t
batch_bytes(const Batch *in)
{
	int64_t m = 0;
	int c;

	for (c = 0; c < in->ncols; c++) {
		const Vector *v = &in->cols[c];
		m += (int64_t)in->count * (int64_t)(type_width(v->type.id) + 1);
		if (type_is_string(v->type.id)) {
			VectorView vv;
			uint32_t i;
			vector_view(v, &vv);
			for (i = 0; i < in->count; i++) {
				uint32_t r = in->sel ? in->sel[i] : i, k = vv.sel ? vv.sel[r] : r;
				const strview *sv = (const strview *)vv.data + k;
				if (validity_get(vv.validity, k) && sv->len > STRVIEW_INLINE)
					m += sv->len;
			}
		}
	}
	return m;
}

/* The pass outgrew the limit with growing aggregates: forget its groups,
 * partition the input read so far, and from now on all of it. */
static int
start_grace(HashAggOp *h)
{
	Operator *op = &h->op;
	int nb = rowstore_nbatches(h->replay), i;

	reset_table(h);
	for (i = 0; i < nb; i++) {
		Batch *b = rowstore_batch(h->replay, i);
		VectorView *views = ARENA_ARRAY(op->scratch, VectorView, h->nkeys);
		Vector *kv = ARENA_ARRAY(op->scratch, Vector, h->nkeys);
		uint64_t *hashes = arena_alloc(op->scratch, sizeof(uint64_t) * b->count);
		TRY(exec_check_cancel(op->ctx));
		TRY(hash_keys(h, b, kv, views, hashes));
		TRY(spill_batch(h, b, hashes, NULL));
		arena_reset(op->scratch);
	}
	rowstore_clear(h->replay);
	h->replay_bytes = 0;
	h->grace_all = true;
	return FLOE_OK;
}

/* Read one pass's input (the child at level 0, else a partition file). */
static int
run_pass(HashAggOp *h, SpillFile *f)
{
	Operator *op = &h->op;
	Batch *in;
	int j;

	if (h->plain)
		new_group(h);
	for (;;) {
		arena_reset(op->scratch);
		TRY(exec_check_cancel(op->ctx));
		if (f) {
			arena_reset(h->read_arena);
			TRY(spill_read(f, h->read_arena, &in));
		} else {
			TRY(op_next(op->child, &in));
		}
		if (!in)
			break;
		if (!in->count)
			continue;
		if (h->growing && !h->grace_all && h->level < MAX_LEVEL) {
			rowstore_append(h->replay, in);
			h->replay_bytes += batch_bytes(in);
		}
		TRY(consume(h, in));
		TRY(charge_heap(h));
		if (h->growing && !h->grace_all && h->level < MAX_LEVEL &&
		    spill_over(op->ctx, mem_used(h) + h->replay_bytes))
			TRY(start_grace(h));
		TRY(spill_guard(op->ctx, mem_used(h), "hash aggregation"));
	}
	for (j = 0; j < h->naggs; j++)
		if (h->ostore[j])
			TRY(feed_ordered(h, j));
	push_parts(h);
	h->grace_all = false;
	rowstore_clear(h->replay);
	h->replay_bytes = 0;
	h->emit_pos = 0;
	return FLOE_OK;
}

/* ---- parallel ------------------------------------------------------------------ */

/* Are group g of a and group h of b's keys equal? */
static bool
same_keys(const HashAggOp *a, uint32_t ga, const HashAggOp *b, uint32_t gb)
{
	int k;

	for (k = 0; k < a->nkeys; k++) {
		size_t w = a->kc[k].width;
		bool na = a->kc[k].nulls[ga], nb = b->kc[k].nulls[gb];
		if (na || nb) {
			if (na != nb)
				return false;
			continue;
		}
		if (!value_eq(a->kc[k].data + w * ga, b->kc[k].data + w * gb, a->kc[k].type, w))
			return false;
	}
	return true;
}

static int
combine_group(HashAggOp *h, uint32_t d, const HashAggOp *w, uint32_t g)
{
	FuncCtx fc = { h->arena, h->op.ctx->err, h->op.ctx->env };
	int j;

	for (j = 0; j < h->naggs; j++)
		TRY(h->aggs[j].fn->combine(&fc, h->states + h->stride * d + h->offsets[j],
					   w->states + w->stride * g + w->offsets[j]));
	return FLOE_OK;
}

/* Fold partial table w into this one: its groups in first-seen order,
 * states merged with combine (w's memory stays until w is reset). */
static int
merge_part(HashAggOp *h, HashAggOp *w)
{
	uint64_t *ghash;
	uint32_t g;
	size_t sl;
	int k, rc = FLOE_OK;

	if (!w->ngroups)
		return FLOE_OK;
	if (h->nkeys == 0) {
		if (!h->ngroups)
			new_group(h);
		return combine_group(h, 0, w, 0);
	}
	ghash = xmalloc(sizeof(uint64_t) * w->ngroups);
	for (sl = 0; sl < w->ht_cap; sl++)
		if (w->ht_gid[sl] != EMPTY)
			ghash[w->ht_gid[sl]] = w->ht_hash[sl];
	for (g = 0; g < w->ngroups && rc == FLOE_OK; g++) {
		uint64_t hv = ghash[g];
		uint32_t d = EMPTY;
		size_t mask;

		if ((g & 4095) == 0 && (rc = exec_check_cancel(h->op.ctx)) != FLOE_OK)
			break;
		if ((size_t)(h->ngroups + 1) * 2 > h->ht_cap)
			ht_grow(h);
		mask = h->ht_cap - 1;
		/* this table's slots, keys and states miss the caches (w's are
		 * read in order): as consume, the slot PREFETCH groups ahead,
		 * the group it holds half as far */
		if (g + PREFETCH < w->ngroups) {
			size_t s2 = ghash[g + PREFETCH] & mask;
			__builtin_prefetch(&h->ht_gid[s2]);
			__builtin_prefetch(&h->ht_hash[s2]);
		}
		if (g + PREFETCH / 2 < w->ngroups) {
			uint32_t g2 = h->ht_gid[ghash[g + PREFETCH / 2] & mask];
			if (g2 != EMPTY && g2 < h->ngroups) {
				__builtin_prefetch(h->kc[0].data + h->kc[0].width * g2);
				__builtin_prefetch(h->states + h->stride * g2);
			}
		}
		for (sl = hv & mask; h->ht_gid[sl] != EMPTY; sl = (sl + 1) & mask) {
			uint32_t cand = h->ht_gid[sl];
			if (h->ht_hash[sl] == hv && same_keys(h, cand, w, g)) {
				d = cand;
				break;
			}
		}
		if (d == EMPTY) {
			d = new_group(h);
			for (k = 0; k < h->nkeys; k++) {
				size_t wd = h->kc[k].width;
				char *dst = h->kc[k].data + wd * d;
				memcpy(dst, w->kc[k].data + wd * g, wd);
				h->kc[k].nulls[d] = w->kc[k].nulls[g];
				if (h->kc[k].varies)
					h->kc[k].dscale[d] = w->kc[k].dscale[g];
				if (!h->kc[k].nulls[d] && type_is_string(h->kc[k].type.id)) {
					strview *sv = (strview *)dst;
					if (sv->len > STRVIEW_INLINE)
						*sv = strview_make(arena_memdup(h->arena, sv->u.ptr, sv->len),
								   sv->len);
				}
			}
			ht_insert(h, hv, d);
		}
		rc = combine_group(h, d, w, g);
	}
	free(ghash);
	return rc;
}

/* One thread's share: its copy of the child into its partial table. */
static int
par_fn(void *arg, int i, ParRun *pr)
{
	HashAggOp *h = arg, *t = h->part[i];
	Operator *c = t->op.child;
	int64_t share = h->op.ctx->mem_limit > 0 ? h->op.ctx->mem_limit / h->threads : 0;

	if (t->plain)
		new_group(t);
	for (;;) {
		Batch *in;
		if (par_aborted(pr))
			return FLOE_OK;
		arena_reset(t->op.scratch);
		TRY(op_next(c, &in));
		if (!in)
			return FLOE_OK;
		if (!in->count)
			continue;
		TRY(consume(t, in));
		TRY(charge_heap(t));
		if (share > 0 && mem_used(t) > share) {
			t->overflow = true;
			par_abort(pr);
			return FLOE_OK;
		}
	}
}

/* Run the child pipeline on h->threads threads; *done false: run serially
 * (not clonable, or a partial table outgrew its share of work_mem). */
static int
par_open(HashAggOp *h, bool *done)
{
	Operator *op = &h->op, *scan;
	int n = h->threads, i, rc;
	bool over = false;

	*done = false;
	if (!h->part) {
		int64_t share = op->ctx->mem_limit > 0 ? op->ctx->mem_limit / n : 0;
		if (!(scan = exec_pipeline_scan(op->child))) {
			h->threads = 0;
			return FLOE_OK;
		}
		h->ms = scan_morsels(scan);
		h->part = ARENA_ARRAY(op->ctx->arena, HashAggOp *, n);
		h->wctx = ARENA_ARRAY(op->ctx->arena, ExecCtx *, n);
		h->part[0] = h;
		h->wctx[0] = op->ctx;
		for (i = 1; i < n; i++) {
			Operator *c;
			h->wctx[i] = exec_worker_ctx(op->ctx, share ? share : 0);
			if (!(c = exec_clone(op->child, h->wctx[i]))) {
				h->threads = 0;   /* some operator cannot be copied */
				h->part = NULL;
				return FLOE_OK;
			}
			h->part[i] = (HashAggOp *)hash_agg_new(h->wctx[i], c, h->nkeys, h->keys,
							       h->naggs, h->aggs, h->plain);
		}
	}
	morsel_reset(h->ms);
	for (i = 0; i < n; i++) {
		if (i)
			reset_table(h->part[i]);
		h->part[i]->overflow = false;
		h->part[i]->level = MAX_LEVEL;    /* partial tables never spill */
	}
	rc = op_open(op->child);
	for (i = 1; i < n && rc == FLOE_OK; i++)
		rc = op_open(h->part[i]->op.child);
	if (rc == FLOE_OK)
		rc = par_run(op->ctx, n, h->wctx, par_fn, h);
	for (i = 0; i < n; i++) {
		h->part[i]->level = 0;
		over |= h->part[i]->overflow;
		if (i)
			exec_instr_add(op->child, h->part[i]->op.child);
	}
	TRY(rc);
	if (over) {
		/* rerun serially: the scan alone reads every unit again */
		for (i = 1; i < n; i++) {
			op_close(h->part[i]->op.child);
			reset_table(h->part[i]);
		}
		op_close(op->child);
		reset_table(h);
		morsel_reset(h->ms);
		return FLOE_OK;
	}
	for (i = 1; i < n; i++)
		TRY(merge_part(h, h->part[i]));
	h->emit_pos = 0;
	*done = true;
	return FLOE_OK;
}

/* May the aggregate run as partial states merged by combine, with the
 * serial result exactly? */
static bool
par_safe(const AggCall *a)
{
	static const char *const exact[] = {
		"sum", "avg", "bool_and", "bool_or", "every", "bit_and", "bit_or", "variance",
		"var_samp", "var_pop", "stddev", "stddev_samp", "stddev_pop"
	};
	const char *n = a->fn->name;
	size_t k;

	if (a->distinct || a->norder || a->arg2 || !a->fn->combine)
		return false;
	if (!strcmp(n, "count") || !strcmp(n, "min") || !strcmp(n, "max"))
		return true;
	if (a->arg && (a->arg->type.id == TYPE_FLOAT32 || a->arg->type.id == TYPE_FLOAT64))
		return false;   /* the sum's last bits depend on the order */
	/* sum/avg(numeric): exact int128 sums; the display-scale fields merge
	 * as the serial update sets them (varied: every row had its own
	 * scale; dmax: the largest), so dec_combine gives the serial result */
	for (k = 0; k < sizeof exact / sizeof exact[0]; k++)
		if (!strcmp(n, exact[k]))
			return true;
	return false;
}

static int
hash_agg_open(Operator *op)
{
	HashAggOp *h = (HashAggOp *)op;
	bool done = false;

	reset_table(h);
	h->level = 0;
	h->npending = 0;
	if (h->threads > 1)
		TRY(par_open(h, &done));
	if (done)
		return FLOE_OK;
	TRY(op_open(op->child));
	return run_pass(h, NULL);
}

/* After a pass's groups are emitted: the next pending partition. */
static int
next_pass(HashAggOp *h, bool *more)
{
	Pending pd;

	*more = false;
	while (h->npending) {
		pd = h->pending[--h->npending];
		reset_table(h);
		h->level = pd.level;
		if (run_pass(h, pd.f) != FLOE_OK)
			return FLOE_ERR;
		spill_file_close(pd.f);
		if (h->ngroups) {
			*more = true;
			return FLOE_OK;
		}
	}
	return FLOE_OK;
}

static int
hash_agg_next(Operator *op, Batch **out)
{
	HashAggOp *h = (HashAggOp *)op;
	uint32_t n, i;
	Batch *b;
	int k, j;

	arena_reset(op->scratch);
	if (h->emit_pos >= h->ngroups) {
		bool more;
		TRY(next_pass(h, &more));
		if (!more) {
			*out = NULL;
			return FLOE_OK;
		}
		arena_reset(op->scratch);
	}
	n = h->ngroups - h->emit_pos;
	if (n > VECTOR_SIZE)
		n = VECTOR_SIZE;
	b = batch_new(op->scratch, op->ncols, op->types, n);
	for (k = 0; k < h->nkeys; k++) {
		size_t w = h->kc[k].width;
		memcpy(b->cols[k].data, h->kc[k].data + w * h->emit_pos, w * n);
		for (i = 0; i < n; i++)
			if (h->kc[k].nulls[h->emit_pos + i])
				vector_set_null(&b->cols[k], i);
		if (h->kc[k].varies) {
			vector_ensure_dscale(&b->cols[k]);
			memcpy(b->cols[k].dscale, h->kc[k].dscale + h->emit_pos, n);
		}
	}
	for (j = 0; j < h->naggs; j++) {
		FuncCtx fc = { op->scratch, op->ctx->err, op->ctx->env };
		for (i = 0; i < n; i++)
			TRY(h->aggs[j].fn->finalize(&fc, h->states + h->stride * (h->emit_pos + i) +
						    h->offsets[j], &b->cols[h->nkeys + j], i));
	}
	b->count = n;
	h->emit_pos += n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
hash_agg_close(Operator *op)
{
	HashAggOp *h = (HashAggOp *)op;
	int p;

	op_close(op->child);
	reset_table(h);
	if (h->part) {
		int i;
		for (i = 1; i < h->threads; i++) {
			op_close(h->part[i]->op.child);
			reset_table(h->part[i]);
		}
	}
	for (p = 0; p < SPILL_PARTS; p++)
		h->parts[p] = NULL;
	h->npending = 0;
	h->spilling = false;
	h->grace_all = false;
	rowstore_clear(h->replay);
	h->replay_bytes = 0;
	spill_set_close(h->ss);
	arena_reset(h->read_arena);
}

static void
free_tables(void *p)
{
	HashAggOp *h = p;

	reset_table(h);
	arena_free(h->arena);
	arena_free(h->read_arena);
}

static const OperatorVT hash_agg_vt = { "HashAggregate", hash_agg_open, hash_agg_next,
					hash_agg_close };

bool
hash_agg_set_parallel(Operator *op, int threads)
{
	HashAggOp *h = (HashAggOp *)op;
	int j;

	if (op->vt != &hash_agg_vt || threads < 2 || h->growing || h->part)
		return false;
	for (j = 0; j < h->naggs; j++)
		if (!par_safe(&h->aggs[j]))
			return false;
	h->threads = threads;
	op->label = arena_sprintf(op->ctx->arena, "Parallel %s (threads=%d)",
				  h->plain ? "Aggregate" : "HashAggregate", threads);
	return true;
}

Operator *
hash_agg_new(ExecCtx *ctx, Operator *child, int nkeys, Expr **keys, int naggs, AggCall *aggs,
	     bool plain)
{
	HashAggOp *h = ARENA_NEW(ctx->arena, HashAggOp);
	SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, nkeys + naggs + 1);
	int k, j;

	for (k = 0; k < nkeys; k++)
		types[k] = keys[k]->type;
	for (j = 0; j < naggs; j++)
		types[nkeys + j] = aggs[j].type;
	op_init(&h->op, &hash_agg_vt, ctx, nkeys + naggs, types, child);
	h->nkeys = nkeys;
	h->naggs = naggs;
	h->keys = keys;
	h->aggs = aggs;
	h->plain = plain && nkeys == 0;
	h->arena = arena_new(64 * 1024);
	h->read_arena = arena_new(64 * 1024);
	h->ss = spill_set_new(ctx);
	if (h->plain) {
		h->op.label = "Aggregate";
		h->op.est_rows = 1;
	}
	h->kc = ARENA_ARRAY(ctx->arena, KeyCol, nkeys ? nkeys : 1);
	for (k = 0; k < nkeys; k++) {
		h->kc[k].type = keys[k]->type;
		h->kc[k].width = type_width(keys[k]->type.id);
		h->kc[k].varies = keys[k]->type.id == TYPE_DECIMAL && keys[k]->type.precision == 0;
		h->kc[k].intkey = type_is_int_word(keys[k]->type.id);
	}
	h->offsets = ARENA_ARRAY(ctx->arena, size_t, naggs ? naggs : 1);
	h->dsets = ARENA_ARRAY(ctx->arena, DistinctSet, naggs ? naggs : 1);
	for (j = 0; j < naggs; j++)
		if (aggs[j].distinct && aggs[j].arg)
			h->dsets[j].width = type_width(aggs[j].arg->type.id);
	h->ostore = ARENA_ARRAY(ctx->arena, RowStore *, naggs ? naggs : 1);
	h->orow_bytes = ARENA_ARRAY(ctx->arena, size_t, naggs ? naggs : 1);
	for (j = 0; j < naggs; j++) {
		const AggCall *a = &aggs[j];
		SqlType *ot;
		int c = 0, k2;
		if (!a->norder)
			continue;
		ot = ARENA_ARRAY(ctx->arena, SqlType, ord_key_col(a) + a->norder);
		ot[c++] = type_make(TYPE_INT64);
		if (a->arg)
			ot[c++] = a->arg->type;
		if (a->arg2)
			ot[c++] = a->arg2->type;
		for (k2 = 0; k2 < a->norder; k2++)
			ot[c++] = a->order[k2].e->type;
		h->ostore[j] = rowstore_new(ctx, c, ot, NULL);
		for (k2 = 0; k2 < c; k2++)
			h->orow_bytes[j] += type_width(ot[k2].id) + 1;
	}
	for (j = 0; j < naggs; j++) {
		h->offsets[j] = h->stride;
		h->stride += (aggs[j].fn->state_size + 15) & ~(size_t)15;
	}
	if (h->stride == 0)
		h->stride = 16;
	for (j = 0; j < naggs; j++)
		if (aggs[j].distinct || aggs[j].norder)
			h->growing = nkeys > 0;
	h->replay = rowstore_new(ctx, child->ncols, child->types, NULL);
	arena_on_reset(ctx->arena, free_tables, h);
	return &h->op;
}
