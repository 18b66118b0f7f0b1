/*
 * hash_join.c — equi-join of two inputs: INNER, LEFT, RIGHT and FULL
 * [OUTER], SEMI and ANTI (EXISTS / IN, NOT EXISTS: left rows with / without
 * a match, once each), MARK (every left row once, with a boolean "has a
 * match": EXISTS / IN inside an expression, three-valued for IN), with a
 * residual (non-equi) condition.  With no keys it is a
 * block nested loop (every build row is a candidate for every probe row);
 * nested_loop.c builds it that way.
 *
 * Output columns are always left columns then right columns, whichever
 * side is the build side (build_left chooses; the planner picks the
 * smaller input when manifests give row counts).
 *
 * States (named as PostgreSQL's nodeHashjoin.c does):
 *
 *   HJ_BUILD        open(): consume the build child into flat column
 *                   stores, hash its keys, chain rows by bucket
 *   HJ_NEED_PROBE   next(): fetch a probe batch, hash its keys per column
 *   HJ_PROBE        collect (probe row, build row) candidates whose hashes
 *                   match, VECTOR_SIZE at a time; compare keys column by
 *                   column; gather the output; apply the residual; mark
 *                   matched rows
 *   HJ_PROBE_OUTER  emit the probe batch's unmatched rows (outer probe side;
 *                   SEMI: its matched rows, ANTI: its unmatched rows)
 *   HJ_BUILD_OUTER  after the probe input: emit unmatched build rows
 *   HJ_NEXT_PART    (spilled) the next pending partition: build it
 *   HJ_DONE
 *
 * Grace hash join (work_mem, spill.h): when the build side's copy passes
 * ctx->mem_limit, the rows built so far and the rest of the build input
 * are written to SPILL_PARTS partition files by 4 bits of their key hash,
 * then the whole probe input likewise; each (build, probe) partition pair
 * is then joined as a join of its own (recursively partitioned with the
 * next 4 bits if its build side is still too big, up to MAX_LEVEL).
 * Equal keys hash alike, so every match is within one pair; rows with a
 * NULL key go to partition 0, where they match nothing and are emitted
 * NULL-extended by outer, ANTI and NOT IN joins as before.  NOT IN's
 * "some build key is NULL" and "the build side is empty" are decided over
 * the whole build input (nb_total, build_null_any), not per partition.
 * A join without keys (block nested loop) cannot be partitioned: its
 * build side fails with 53200 above SPILL_HARD_FACTOR x work_mem.
 *
 * Memory counted is what is malloc'd (arena_held): the build input's
 * chunk copies (one arena per column), the table's store, the probe and
 * output batches and the spill buffers (held_now, EXPLAIN ANALYZE's Peak
 * Memory).  Before each build batch the join asks whether the build
 * would still fit once finished (build_need: held now + the widest
 * column's flat copy, made while that column's chunk copies are still
 * held and freed right after, + the bucket heads, chains and hashes of
 * the table) and partitions instead of growing past work_mem.
 *
 * Invariants:
 *   1. a row whose key has a NULL is never inserted / never probed: NULL
 *      keys never match (they still appear, NULL-extended, on outer sides).
 *   2. key types are equal on both sides (the planner casts them); floats
 *      are normalised (-0 = 0, NaN = NaN) as PostgreSQL's float equality.
 *   3. the probe batch and its key vectors live in probe_arena, valid until
 *      the next probe batch; output batches live in op->scratch.
 *   4. matching is per row pair: key equality then residual; a pair counts
 *      as a match for outer-join purposes only if the residual is true.
 *   5. SEMI/ANTI: the probe side is the left input, the output is the left
 *      columns only, and pairs are never emitted (only the match flags).
 *      NOT_IN is ANTI with SQL's NOT IN answer for WHERE: no row passes
 *      when the build side has a NULL key or the probe key is NULL, unless
 *      the build side is empty.
 *   5a. MARK is SEMI that emits every probe row, its mark after the left
 *      columns: true on a match; else NULL when IN's comparison (mark_cmp,
 *      over the pairs whose keys match and residual is true) was NULL for
 *      some pair, or, when the one key is IN's x = y (mark_null_key), when
 *      the build side has rows and a NULL key or the probe key is NULL
 *      (NOT_IN's facts, over the whole build input); else false.
 *   6. SEMI/ANTI/MARK stop at a probe row's first match (its remaining
 *      candidates are skipped), and candidate rounds that emit nothing
 *      reset scratch: a residual that rejects most pairs (a join with no
 *      equality keys) runs in memory bounded by one round, not by
 *      probe rows x build rows.
 *
 * Parallel probe (parallel.c): a clone (hash_join_clone) shares the
 * built table of its prototype, which the leader builds in its open()
 * before the workers start; the clone copies the table's pointers at its
 * own open() and probes it with its own clone of the probe input.  The
 * table is read-only while probed, except for the build-row match marks
 * of RIGHT/FULL joins (build_outer), which every copy sets with relaxed
 * atomic byte stores; the copies count themselves in the prototype's
 * `probers` at open (all before any probes), and the copy that finishes
 * its probe input last (atomic decrement to zero) emits the unmatched
 * build rows, after every mark is in.  If the prototype's build spilled,
 * partition_all has already read the whole probe input (all morsels of
 * the shared scan), so a clone
 * emits nothing and the prototype joins every partition itself.
 *
 * INTERFACE ROUTINES
 *   hash_join_new(ctx, left, right, type, nkeys, lkeys, rkeys, residual, build_left)
 *   hash_join_set_mark(op, cmp, null_key)   a MARK join's IN semantics
 *   hash_join_key_ok(a, b)         may a = b be a hash key (byte equality)?
 *   hash_join_probe_input(op)      the input a clone copies, or NULL
 *   hash_join_set_input(op, i, in) input i (0 left, 1 right) replaced by
 *                                  in (a Gather over it; parallel.c)
 */
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include <xxhash.h>
#include "common/hash.h"
#include "types/keyform.h"
#include "exec/exec.h"
#include "exec/spill.h"

#define SPILL_BITS 4
#define SPILL_PARTS (1 << SPILL_BITS)
#define MAX_LEVEL 8

typedef struct Pending {
	SpillFile *bf, *pf;
	int level;
} Pending;

typedef enum HJState {
	HJ_BUILD,
	HJ_NEED_PROBE,
	HJ_PROBE,
	HJ_PROBE_OUTER,
	HJ_BUILD_OUTER,
	HJ_NEXT_PART,
	HJ_DONE
} HJState;

#define END UINT32_MAX
/* probe rows ahead whose bucket (and first entry, half as far) is fetched */
#define PREFETCH 16

typedef struct HashJoinOp {
	Operator op;
	Operator *left, *right;
	Operator *build, *probe;
	JoinType type;
	int nkeys;
	Expr **bkeys, **pkeys;      /* key expressions over build / probe input */
	Expr *residual;             /* over the output columns, or NULL */
	bool build_left;
	bool probe_outer, build_outer;
	bool semi, anti;          /* JOIN_SEMI / JOIN_ANTI (/ JOIN_NOT_IN) */
	bool not_in;              /* JOIN_NOT_IN: NULL-aware anti join */
	bool markj;               /* JOIN_MARK (invariant 5a) */
	Expr *mark_cmp;           /* MARK: IN's comparison over the pair, or NULL */
	bool mark_null_key;       /* MARK: the one key is IN's x = y */
	bool build_null;          /* some build row has a NULL key */
	HJState state;
	/* build side */
	Arena *store;
	Arena **colarena;           /* [nbcols + nkeys]: chunk copies while building */
	int nbcols;
	Vector *bcols;              /* flat, nb rows */
	Vector *bkv;                /* flat key vectors, nb rows */
	uint32_t nb;
	uint64_t *bhash;
	uint32_t *heads, *chain;
	uint64_t mask;
	uint8_t *bmatched;
	uint32_t bouter_pos;
	/* probe side */
	Arena *probe_arena;
	Batch *pb;
	Vector *pkv;
	uint64_t *phash;
	uint32_t *phead;            /* each probe row's first chain entry, or END */
	uint8_t *pnull;
	uint8_t *pmatched;
	uint8_t *pnullm;            /* MARK: some pair's mark_cmp was NULL */
	uint32_t pi, cur;
	bool started;               /* cur is valid for pi */
	uint32_t pouter_pos;
	/* candidate buffers */
	uint32_t *cand_p, *cand_b;
	/* spilling: the current sources (build/probe at level 0, else scans
	 * of a partition pair), pending pairs, whole-input NOT IN facts */
	Operator *bsrc, *psrc;
	Operator *bscan, *pscan;
	SpillSet *ss;
	int level;
	SpillFile *cur_bf, *cur_pf;
	Pending *pending;
	int npending, cap_pending;
	int64_t nb_total;
	bool build_null_any;
	/* a clone for a parallel worker (parallel.c): probes proto's table */
	struct HashJoinOp *proto;
	/* build_outer over a shared table: copies still probing (in the
	 * prototype; the last to finish emits the unmatched build rows), and
	 * whether this copy still counts in it */
	atomic_int probers;
	bool counted;
} HashJoinOp;

/* Hash one key column into h[0..n) (combining with what is there) and
 * flag NULL rows.  rows: physical row of logical i (NULL: identity). */
static void
hash_column(const Vector *v, const uint32_t *rows, uint32_t n, uint64_t *h, uint8_t *isnull)
{
	VectorView vv;
	uint32_t i;
	TypeId id = v->type.id;
	size_t w = type_width(id);

	vector_view(v, &vv);
	/* integer keys: one typed loop (the common join key) */
	if (type_is_int_word(id)) {
		bool wide = w == 8;
		const int32_t *d4 = vv.data;
		const int64_t *d8 = vv.data;
		for (i = 0; i < n; i++) {
			uint32_t r = rows ? rows[i] : i;
			uint32_t k = vv.sel ? vv.sel[r] : r;
			uint64_t x;
			if (vv.validity && !validity_get(vv.validity, k)) {
				isnull[i] = 1;
				continue;
			}
			x = wide ? (uint64_t)d8[k] : (uint64_t)(int64_t)d4[k];
			h[i] = hash_mix64(h[i] * 31 + hash_mix64(x));
		}
		return;
	}
	for (i = 0; i < n; i++) {
		uint32_t r = rows ? rows[i] : i;
		uint32_t k = vv.sel ? vv.sel[r] : r;
		uint64_t x;

		if (!validity_get(vv.validity, k)) {
			isnull[i] = 1;
			continue;
		}
		switch (id) {
		case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY: {
			/* bpchar's trailing blanks, jsonb's number forms: keyform.h */
			const strview *s = (const strview *)vv.data + k;
			x = keyform_hash(v->type, strview_data(s), s->len);
			break;
		}
		case TYPE_FLOAT32: case TYPE_FLOAT64: {
			double d = id == TYPE_FLOAT32 ? ((const float *)vv.data)[k] : ((const double *)vv.data)[k];
			if (d == 0)
				d = 0;
			if (isnan(d))
				d = NAN;
			memcpy(&x, &d, 8);
			x = hash_mix64(x);
			break;
		}
		case TYPE_BOOL:
			x = hash_mix64(((const uint8_t *)vv.data)[k]);
			break;
		case TYPE_INT16:
			x = hash_mix64((uint64_t)(int64_t)((const int16_t *)vv.data)[k]);
			break;
		case TYPE_INT32: case TYPE_DATE:
			x = hash_mix64((uint64_t)(int64_t)((const int32_t *)vv.data)[k]);
			break;
		case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
			x = hash_mix64((uint64_t)((const int64_t *)vv.data)[k]);
			break;
		default:
			x = XXH3_64bits((const char *)vv.data + (size_t)k * w, w);
			break;
		}
		h[i] = hash_mix64(h[i] * 31 + x);
	}
}

/* Keep the candidates whose probe key equals the build key for one column.
 * Returns the new candidate count. */
static uint32_t
match_column(const Vector *pv, const Batch *pb, const Vector *bv, uint32_t *cp, uint32_t *cb,
	     uint32_t n)
{
	VectorView a;
	uint32_t i, m = 0;
	TypeId id = pv->type.id;
	size_t w = type_width(id);
	const char *bd = bv->data;

	vector_view(pv, &a);
#define PK(i) ({ uint32_t r_ = pb->sel ? pb->sel[cp[i]] : cp[i]; a.sel ? a.sel[r_] : r_; })
	switch (id) {
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY:
		if (keyform_special(pv->type)) {
			for (i = 0; i < n; i++) {
				const strview *x = (const strview *)a.data + PK(i), *y = (const strview *)bd + cb[i];
				if (keyform_eq(pv->type, strview_data(x), x->len, strview_data(y), y->len)) {
					cp[m] = cp[i];
					cb[m++] = cb[i];
				}
			}
			return m;
		}
		for (i = 0; i < n; i++) {
			uint32_t k = PK(i);
			if (strview_eq((const strview *)a.data + k, (const strview *)bd + cb[i])) {
				cp[m] = cp[i];
				cb[m++] = cb[i];
			}
		}
		return m;
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		for (i = 0; i < n; i++) {
			uint32_t k = PK(i);
			double x = id == TYPE_FLOAT32 ? ((const float *)a.data)[k] : ((const double *)a.data)[k];
			double y = id == TYPE_FLOAT32 ? ((const float *)bd)[cb[i]] : ((const double *)bd)[cb[i]];
			if (x == y || (isnan(x) && isnan(y))) {
				cp[m] = cp[i];
				cb[m++] = cb[i];
			}
		}
		return m;
	case TYPE_INT32: case TYPE_DATE:
		for (i = 0; i < n; i++) {
			uint32_t k = PK(i);
			if (((const int32_t *)a.data)[k] == ((const int32_t *)bd)[cb[i]]) {
				cp[m] = cp[i];
				cb[m++] = cb[i];
			}
		}
		return m;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		for (i = 0; i < n; i++) {
			uint32_t k = PK(i);
			if (((const int64_t *)a.data)[k] == ((const int64_t *)bd)[cb[i]]) {
				cp[m] = cp[i];
				cb[m++] = cb[i];
			}
		}
		return m;
	default:
		for (i = 0; i < n; i++) {
			uint32_t k = PK(i);
			if (memcmp((const char *)a.data + (size_t)k * w, bd + (size_t)cb[i] * w, w) == 0) {
				cp[m] = cp[i];
				cb[m++] = cb[i];
			}
		}
		return m;
	}
#undef PK
}

/* Deep-copy strings of a flat vector's rows [from, to) into arena a. */
static void
own_strings(Vector *v, uint32_t from, uint32_t to, Arena *a)
{
	strview *sv = v->data;
	uint32_t i;

	if (!type_is_string(v->type.id))
		return;
	for (i = from; i < to; i++)
		if (vector_is_valid(v, i) && sv[i].len > STRVIEW_INLINE)
			sv[i] = strview_make(arena_memdup(a, sv[i].u.ptr, sv[i].len), sv[i].len);
}

typedef struct Chunk {
	Vector *cols;   /* nbcols + nkeys */
	uint32_t count;
	struct Chunk *next;
} Chunk;

static int partition_all(HashJoinOp *h, Chunk *first, bool *done);

/* An arena chunk size: `max`, or a 1/div of a smaller work_mem (its
 * first chunks are held however few rows come), at least 4 kB. */
static size_t
chunk_hint(const ExecCtx *ctx, size_t max, int div)
{
	int64_t c = ctx->mem_limit > 0 ? ctx->mem_limit / div : (int64_t)max;

	if (c > (int64_t)max)
		c = (int64_t)max;
	return c < 4096 ? 4096 : (size_t)c;
}

/* Flat vector bytes of column j (type t) for nb rows: data, validity,
 * display scales, the chunk headers arena_alloc adds. */
static int64_t
flat_bytes(SqlType t, uint32_t nb)
{
	int64_t n = (int64_t)nb + 1;
	int64_t m = n * (int64_t)type_width(t.id) + (n + 63) / 64 * 8 + 64;

	if (t.id == TYPE_DECIMAL)
		m += n;
	return m;
}

static uint64_t
buckets_for(uint32_t nb)
{
	uint64_t nbuckets = 16;

	while (nbuckets < (uint64_t)nb * 2)
		nbuckets *= 2;
	return nbuckets;
}

/* What the table of nb rows adds once built: bucket heads, chains,
 * hashes, NULL flags and match marks. */
static int64_t
table_bytes(uint32_t nb)
{
	return (int64_t)buckets_for(nb) * 4 + ((int64_t)nb + 1) * (4 + 8 + 1 + 1) + 256;
}

/* The chunk copies of the build input: one arena per column, so each
 * column's copies are freed as soon as its flat vector is made (the
 * build never holds two copies of all its rows). */
static void
free_colarenas(HashJoinOp *h)
{
	int j;

	for (j = 0; j < h->nbcols + h->nkeys; j++) {
		arena_free(h->colarena[j]);
		h->colarena[j] = NULL;
	}
}

static void
free_colarenas_cb(void *p)
{
	free_colarenas(p);
}

/* Bytes this join holds now (as malloc'd): the table's store, the chunk
 * copies, the probe batch, the output batch and the spill buffers; noted
 * as the operator's peak. */
static int64_t
held_now(HashJoinOp *h)
{
	int64_t m = (int64_t)arena_held(h->store) + (int64_t)arena_held(h->probe_arena) +
		    (int64_t)arena_held(h->op.scratch) + spill_set_held(h->ss);
	int j;

	for (j = 0; j < h->nbcols + h->nkeys; j++)
		m += (int64_t)arena_held(h->colarena[j]);
	op_note_mem(&h->op, m);
	return m;
}

/* Would the build of nb rows pass work_mem once flattened and hashed?
 * What is held now, plus the largest column's flat copy (made while its
 * chunk copies are still held), plus the table. */
/* Should the build of nb rows partition?  When its finished table would
 * pass work_mem (build_need), unless what the rows add is under half of
 * it: then the arenas' first chunks (base, held before any row) are what
 * passes it, and partitioning again would not make that smaller. */
static int64_t build_need(HashJoinOp *h, uint32_t nb);

static bool
build_spills(HashJoinOp *h, uint32_t nb, int64_t base)
{
	int64_t need = build_need(h, nb);

	return spill_over(h->op.ctx, need) && 2 * (need - base) > h->op.ctx->mem_limit;
}

/* The rows' bytes the build holds (what the hard limit, spill_guard,
 * bounds: rows it cannot partition). */
static int64_t
rows_bytes(const HashJoinOp *h)
{
	int64_t m = (int64_t)arena_bytes(h->store);
	int j;

	for (j = 0; j < h->nbcols + h->nkeys; j++)
		if (h->colarena[j])
			m += (int64_t)arena_bytes(h->colarena[j]);
	return m;
}

static int64_t
build_need(HashJoinOp *h, uint32_t nb)
{
	int64_t widest = 0;
	int j;

	for (j = 0; j < h->nbcols + h->nkeys; j++) {
		SqlType t = j < h->nbcols ? h->build->types[j] : h->bkeys[j - h->nbcols]->type;
		int64_t f = flat_bytes(t, nb);
		if (f > widest)
			widest = f;
	}
	return held_now(h) + widest + table_bytes(nb);
}

static int
build(HashJoinOp *h, bool *partitioned)
{
	Operator *op = &h->op;
	Chunk *first = NULL, **tail = &first, *c;
	int ncv = h->nbcols + h->nkeys, j;
	uint32_t i, nb = 0, pos;
	uint64_t nbuckets;
	int64_t base;

	*partitioned = false;
	/* spare chunks of the last build would count as held */
	arena_release(h->store);
	free_colarenas(h);
	for (j = 0; j < ncv; j++)
		h->colarena[j] = arena_new(chunk_hint(op->ctx, 64 * 1024, 64));
	base = held_now(h);
	h->build_null = false;
	h->bouter_pos = 0;
	h->nb = 0;
	for (;;) {
		Batch *in;
		TRY(exec_check_cancel(op->ctx));
		arena_reset(op->scratch);
		if (nb && h->nkeys && h->level < MAX_LEVEL && build_spills(h, nb, base)) {
			*partitioned = true;
			return partition_all(h, first, partitioned);
		}
		TRY(spill_guard(op->ctx, rows_bytes(h), h->nkeys ? "hash join" : "nested loop join"));
		TRY(op_next(h->bsrc, &in));
		if (!in)
			break;
		if (in->count == 0)
			continue;
		c = ARENA_NEW(h->store, Chunk);
		c->cols = ARENA_ARRAY(h->store, Vector, ncv + 1);
		c->count = in->count;
		for (j = 0; j < h->nbcols; j++) {
			vector_init(&c->cols[j], h->build->types[j], h->colarena[j], in->count);
			vector_copy_rows(&c->cols[j], 0, &in->cols[j], in->sel, in->count);
			own_strings(&c->cols[j], 0, in->count, h->store);
		}
		for (j = 0; j < h->nkeys; j++) {
			Vector kv;
			Arena *ka = h->colarena[h->nbcols + j];
			TRY(expr_eval(op->ctx, h->bkeys[j], in, in->sel, in->count, op->scratch, &kv));
			vector_init(&c->cols[h->nbcols + j], h->bkeys[j]->type, ka, in->count);
			vector_copy_rows(&c->cols[h->nbcols + j], 0, &kv, in->sel, in->count);
			own_strings(&c->cols[h->nbcols + j], 0, in->count, h->store);
		}
		if ((uint64_t)nb + in->count >= UINT32_MAX)
			return floe_errorf(op->ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "hash join build side has too many rows");
		nb += in->count;
		*tail = c;
		tail = &c->next;
	}
	h->nb = nb;
	if (h->level == 0)
		h->nb_total = nb;
	h->bcols = ARENA_ARRAY(h->store, Vector, ncv + 1);
	for (j = 0; j < ncv; j++) {
		SqlType t = j < h->nbcols ? h->build->types[j] : h->bkeys[j - h->nbcols]->type;
		vector_init(&h->bcols[j], t, h->store, nb ? nb : 1);
		pos = 0;
		for (c = first; c; c = c->next) {
			vector_copy_rows(&h->bcols[j], pos, &c->cols[j], NULL, c->count);
			pos += c->count;
		}
		held_now(h);
		/* this column's chunk copies are done with */
		arena_free(h->colarena[j]);
		h->colarena[j] = NULL;
	}
	h->bkv = h->bcols + h->nbcols;
	h->bmatched = arena_calloc(h->store, nb + 1);
	nbuckets = buckets_for(nb);
	h->mask = nbuckets - 1;
	h->heads = arena_alloc(h->store, sizeof(uint32_t) * nbuckets);
	memset(h->heads, 0xff, sizeof(uint32_t) * nbuckets);
	h->chain = arena_alloc(h->store, sizeof(uint32_t) * (nb + 1));
	h->bhash = arena_calloc(h->store, sizeof(uint64_t) * (nb + 1));
	{
		uint8_t *isnull = arena_calloc(h->store, nb + 1);
		for (j = 0; j < h->nkeys; j++)
			hash_column(&h->bkv[j], NULL, nb, h->bhash, isnull);
		/* insert in reverse so chains list rows in input order */
		for (i = nb; i-- > 0;) {
			uint64_t b;
			if (isnull[i]) {
				h->build_null = true;
				h->build_null_any = true;
				continue;
			}
			b = h->bhash[i] & h->mask;
			h->chain[i] = h->heads[b];
			h->heads[b] = i;
		}
	}
	held_now(h);
	return FLOE_OK;
}

/* ---- Grace partitioning ------------------------------------------------------ */

static int
part_of(const HashJoinOp *h, uint64_t hash, bool isnull)
{
	if (isnull)
		return 0;
	return (int)((hash >> (64 - SPILL_BITS * (h->level + 1))) & (SPILL_PARTS - 1));
}

/* Write the rows of b (ncols columns of src's types) to parts[] by the
 * hash of key vectors kv (indexed like b's logical rows when dense, else
 * through b->sel: rows = b->sel). */
static int
write_parts(HashJoinOp *h, Operator *src, SpillFile **parts, Batch *b, const Vector *kv,
	    bool build_side)
{
	Operator *op = &h->op;
	uint32_t n = b->count, i;
	uint64_t *hash = arena_calloc(op->scratch, sizeof(uint64_t) * n);
	uint8_t *isnull = arena_calloc(op->scratch, n);
	uint32_t *rows = arena_alloc(op->scratch, sizeof(uint32_t) * n);
	int j, p;

	for (j = 0; j < h->nkeys; j++)
		hash_column(&kv[j], b->sel, n, hash, isnull);
	if (build_side && h->level == 0) {
		h->nb_total += n;
		for (i = 0; i < n; i++)
			if (isnull[i])
				h->build_null_any = true;
	}
	for (p = 0; p < SPILL_PARTS; p++) {
		uint32_t c = 0;
		for (i = 0; i < n; i++)
			if (part_of(h, hash[i], isnull[i]) == p)
				rows[c++] = i;
		if (!c)
			continue;
		if (!parts[p])
			TRY(spill_file_new(h->ss, src->ncols, src->types, &parts[p]));
		TRY(spill_write(parts[p], b, rows, c));
	}
	return FLOE_OK;
}

/* Partition a whole input: key vectors evaluated per batch. */
static int
partition_input(HashJoinOp *h, Operator *src, Expr **keys, SpillFile **parts, bool build_side)
{
	Operator *op = &h->op;

	for (;;) {
		Batch *in;
		Vector *kv;
		int j;
		arena_reset(op->scratch);
		TRY(exec_check_cancel(op->ctx));
		TRY(op_next(src, &in));
		if (!in)
			return FLOE_OK;
		if (!in->count)
			continue;
		kv = ARENA_ARRAY(op->scratch, Vector, h->nkeys + 1);
		for (j = 0; j < h->nkeys; j++)
			TRY(expr_eval(op->ctx, keys[j], in, in->sel, in->count, op->scratch, &kv[j]));
		TRY(write_parts(h, src, parts, in, kv, build_side));
	}
}

static void
push_pending(HashJoinOp *h, SpillFile *bf, SpillFile *pf, int level)
{
	if (h->npending == h->cap_pending) {
		int ncap = h->cap_pending ? h->cap_pending * 2 : 32;
		h->pending = arena_realloc(h->op.ctx->arena, h->pending,
					   sizeof(Pending) * (size_t)h->cap_pending,
					   sizeof(Pending) * (size_t)ncap);
		h->cap_pending = ncap;
	}
	h->pending[h->npending].bf = bf;
	h->pending[h->npending].pf = pf;
	h->pending[h->npending].level = level;
	h->npending++;
}

/* The build side outgrew the limit: the chunks built so far, the rest of
 * the build source and the whole probe source go to partition files. */
static int
partition_all(HashJoinOp *h, Chunk *first, bool *partitioned)
{
	Operator *op = &h->op;
	SpillFile *bparts[SPILL_PARTS] = { 0 }, *pparts[SPILL_PARTS] = { 0 };
	Chunk *c;
	int p;

	*partitioned = true;
	if (h->level == 0) {
		h->nb_total = 0;
		h->build_null_any = false;
	}
	for (c = first; c; c = c->next) {
		Batch b = { h->nbcols, c->cols, c->count, NULL, h->store };
		arena_reset(op->scratch);
		TRY(write_parts(h, h->bsrc, bparts, &b, c->cols + h->nbcols, true));
	}
	held_now(h);
	arena_release(h->store);
	free_colarenas(h);
	TRY(partition_input(h, h->bsrc, h->bkeys, bparts, true));
	TRY(partition_input(h, h->psrc, h->pkeys, pparts, false));
	arena_reset(op->scratch);
	{
		/* all build rows in one partition: its keys do not split (one
		 * key); more levels would only copy it again */
		int nb = 0, next = h->level + 1;
		for (p = 0; p < SPILL_PARTS; p++)
			nb += bparts[p] != NULL;
		if (nb == 1)
			next = MAX_LEVEL;
		for (p = SPILL_PARTS; p-- > 0;)
			if (bparts[p] || pparts[p])
				push_pending(h, bparts[p], pparts[p], next);
	}
	return FLOE_OK;
}

/* Start the next pending partition pair: *more = false when none is left. */
static int
next_part(HashJoinOp *h, bool *more)
{
	for (;;) {
		Pending pd;
		bool partitioned;

		spill_file_close(h->cur_bf);
		spill_file_close(h->cur_pf);
		h->cur_bf = h->cur_pf = NULL;
		if (!h->npending) {
			*more = false;
			return FLOE_OK;
		}
		pd = h->pending[--h->npending];
		h->cur_bf = pd.bf;
		h->cur_pf = pd.pf;
		h->level = pd.level;
		spill_scan_set(h->bscan, pd.bf);
		spill_scan_set(h->pscan, pd.pf);
		h->bsrc = h->bscan;
		h->psrc = h->pscan;
		TRY(op_open(h->bscan));
		TRY(op_open(h->pscan));
		TRY(build(h, &partitioned));
		if (!partitioned) {
			*more = true;
			return FLOE_OK;
		}
	}
}

static int
hj_open(Operator *op)
{
	HashJoinOp *h = (HashJoinOp *)op;
	bool partitioned;

	if (h->proto) {
		/* a clone: probe the prototype's table (opened before us) */
		HashJoinOp *p = h->proto;
		h->counted = false;
		TRY(op_open(h->probe));
		h->level = 0;
		h->npending = 0;
		h->psrc = h->probe;
		h->bsrc = NULL;
		if (p->state != HJ_NEED_PROBE || p->npending) {
			h->state = HJ_DONE;
			return FLOE_OK;
		}
		h->bcols = p->bcols;
		h->bkv = p->bkv;
		h->nb = p->nb;
		h->bhash = p->bhash;
		h->heads = p->heads;
		h->chain = p->chain;
		h->mask = p->mask;
		h->bmatched = p->bmatched;
		h->build_null = p->build_null;
		h->build_null_any = p->build_null_any;
		h->nb_total = p->nb_total;
		h->bouter_pos = 0;
		h->state = HJ_NEED_PROBE;
		/* opened before any copy probes (parallel.c opens every copy,
		 * then starts the threads) */
		h->counted = p->counted;
		if (h->counted)
			atomic_fetch_add(&p->probers, 1);
		return FLOE_OK;
	}
	TRY(op_open(h->left));
	TRY(op_open(h->right));
	h->state = HJ_BUILD;
	h->level = 0;
	h->npending = 0;
	h->bsrc = h->build;
	h->psrc = h->probe;
	h->nb_total = 0;
	h->build_null_any = false;
	TRY(build(h, &partitioned));
	h->state = partitioned ? HJ_NEXT_PART : HJ_NEED_PROBE;
	h->counted = h->build_outer && !partitioned;
	atomic_store(&h->probers, 1);
	return FLOE_OK;
}

/* An output batch: probe rows prow[0..n) (logical indexes into pb, or
 * NULL-extended when prow == NULL) and build rows brow (or NULL-extended). */
static Batch *
gather(HashJoinOp *h, const uint32_t *prow, const uint32_t *brow, uint32_t n, bool pairs)
{
	Operator *op = &h->op;
	Batch *b = ARENA_NEW(op->scratch, Batch);
	int nl = h->left->ncols, nr = h->right->ncols, j;
	int ncols = pairs ? nl + nr : op->ncols;
	int pbase = h->build_left ? nl : 0, bbase = h->build_left ? 0 : nl;
	int np = h->build_left ? nr : nl;

	b->ncols = ncols;
	b->cols = ARENA_ARRAY(op->scratch, Vector, ncols + 1);
	b->count = n;
	b->arena = op->scratch;
	for (j = 0; j < np; j++) {
		Vector *v = &b->cols[pbase + j];
		if (prow) {
			uint32_t *phys = arena_alloc(op->scratch, sizeof(uint32_t) * (n + 1)), i;
			for (i = 0; i < n; i++)
				phys[i] = h->pb->sel ? h->pb->sel[prow[i]] : prow[i];
			vector_init(v, h->probe->types[j], op->scratch, n ? n : 1);
			vector_copy_rows(v, 0, &h->pb->cols[j], phys, n);
		} else {
			Value nv = value_null(h->probe->types[j]);
			vector_init_const(v, &nv, op->scratch);
		}
	}
	for (j = 0; j < h->nbcols && (pairs || !(h->semi || h->anti || h->markj)); j++) {
		Vector *v = &b->cols[bbase + j];
		if (brow) {
			vector_init(v, h->build->types[j], op->scratch, n ? n : 1);
			vector_copy_rows(v, 0, &h->bcols[j], brow, n);
		} else {
			Value nv = value_null(h->build->types[j]);
			vector_init_const(v, &nv, op->scratch);
		}
	}
	return b;
}

static int
next_probe_batch(HashJoinOp *h, bool *eof)
{
	Operator *op = &h->op;
	Batch *in;
	uint32_t *rows = NULL;
	int j;

	arena_reset(h->probe_arena);
	for (;;) {
		TRY(op_next(h->psrc, &in));
		if (!in) {
			*eof = true;
			return FLOE_OK;
		}
		if (in->count)
			break;
	}
	*eof = false;
	h->pb = in;
	h->pkv = ARENA_ARRAY(h->probe_arena, Vector, h->nkeys + 1);
	h->phash = arena_calloc(h->probe_arena, sizeof(uint64_t) * in->count);
	h->pnull = arena_calloc(h->probe_arena, in->count);
	h->pmatched = arena_calloc(h->probe_arena, in->count);
	h->pnullm = h->markj ? arena_calloc(h->probe_arena, in->count) : NULL;
	if (in->sel) {
		rows = in->sel;
	}
	for (j = 0; j < h->nkeys; j++) {
		TRY(expr_eval(op->ctx, h->pkeys[j], in, in->sel, in->count, h->probe_arena, &h->pkv[j]));
		hash_column(&h->pkv[j], rows, in->count, h->phash, h->pnull);
	}
	/* bucket heads for the whole batch first: independent loads the CPU
	 * overlaps (a big table's buckets miss the caches), prefetched ahead */
	h->phead = arena_alloc(h->probe_arena, sizeof(uint32_t) * in->count);
	{
		uint32_t i, n = in->count;
		for (i = 0; i < n; i++) {
			if (i + PREFETCH < n)
				__builtin_prefetch(&h->heads[h->phash[i + PREFETCH] & h->mask]);
			h->phead[i] = h->pnull[i] || h->nb == 0 ? END : h->heads[h->phash[i] & h->mask];
		}
	}
	h->pi = 0;
	h->started = false;
	h->pouter_pos = 0;
	if (!h->proto)
		held_now(h);
	return FLOE_OK;
}

/* Build row b has a match (copies probing one table in parallel may mark
 * the same row at once: a relaxed atomic byte store). */
static inline void
mark(HashJoinOp *h, uint32_t b)
{
	__atomic_store_n(&h->bmatched[b], 1, __ATOMIC_RELAXED);
}

/* MARK: the candidate pairs b (m of them, keys equal) settle their probe
 * rows' marks: the residual must be true, then mark_cmp true marks the row
 * matched, NULL notes a NULL answer (invariant 5a). */
static int
mark_round(HashJoinOp *h, Batch *b, uint32_t m)
{
	Operator *op = &h->op;
	uint32_t *sel = NULL, k = m, i;
	Vector cv;
	VectorView v;

	if (h->residual) {
		TRY(expr_eval(op->ctx, h->residual, b, NULL, m, op->scratch, &cv));
		vector_view(&cv, &v);
		sel = arena_alloc(op->scratch, sizeof(uint32_t) * m);
		k = 0;
		for (i = 0; i < m; i++) {
			uint32_t x = v.sel ? v.sel[i] : i;
			if (validity_get(v.validity, x) && ((const uint8_t *)v.data)[x])
				sel[k++] = i;
		}
	}
	if (!h->mark_cmp) {
		for (i = 0; i < k; i++)
			h->pmatched[h->cand_p[sel ? sel[i] : i]] = 1;
		return FLOE_OK;
	}
	if (k == 0)
		return FLOE_OK;
	TRY(expr_eval(op->ctx, h->mark_cmp, b, sel, k, op->scratch, &cv));
	vector_view(&cv, &v);
	for (i = 0; i < k; i++) {
		uint32_t r = sel ? sel[i] : i, x = v.sel ? v.sel[r] : r;
		if (!validity_get(v.validity, x))
			h->pnullm[h->cand_p[r]] = 1;
		else if (((const uint8_t *)v.data)[x])
			h->pmatched[h->cand_p[r]] = 1;
	}
	return FLOE_OK;
}

/* One round of candidates for the current probe batch; *out may be NULL
 * when every candidate failed. */
static int
probe_round(HashJoinOp *h, Batch **out)
{
	Operator *op = &h->op;
	uint32_t n = 0, i, m;
	uint32_t count = h->pb->count;
	int j;

	*out = NULL;
	{
		/* the walk in locals (stores through h would alias the loads) */
		const uint64_t *bhash = h->bhash, *phash = h->phash;
		const uint32_t *chain = h->chain, *phead = h->phead;
		uint32_t *cand_p = h->cand_p, *cand_b = h->cand_b;
		uint32_t p = h->pi, cur = h->cur;
		bool started = h->started, settle = h->semi || h->anti || h->markj;

		while (n < VECTOR_SIZE && p < count) {
			if (!started) {
				started = true;
				cur = phead[p];
				if (p + PREFETCH / 2 < count && phead[p + PREFETCH / 2] != END) {
					__builtin_prefetch(&bhash[phead[p + PREFETCH / 2]]);
					__builtin_prefetch(&chain[phead[p + PREFETCH / 2]]);
				}
			} else if (settle && h->pmatched[p]) {
				cur = END;   /* SEMI/ANTI/MARK: the first match settles the row */
			}
			{
				uint64_t ph = phash[p];
				while (cur != END && n < VECTOR_SIZE) {
					uint32_t c = cur;
					cand_p[n] = p;
					cand_b[n] = c;
					n += bhash[c] == ph;
					cur = chain[c];
				}
			}
			if (cur == END) {
				p++;
				started = false;
			}
		}
		h->pi = p;
		h->cur = cur;
		h->started = started;
	}
	m = n;
	for (j = 0; j < h->nkeys && m; j++)
		m = match_column(&h->pkv[j], h->pb, &h->bkv[j], h->cand_p, h->cand_b, m);
	if (m == 0)
		return FLOE_OK;
	{
		Batch *b;
		if ((h->semi || h->anti || h->markj) && !h->residual && !h->mark_cmp) {
			for (i = 0; i < m; i++)
				h->pmatched[h->cand_p[i]] = 1;
			return FLOE_OK;
		}
		b = gather(h, h->cand_p, h->cand_b, m, true);
		if (h->markj)
			return mark_round(h, b, m);
		if (h->residual) {
			Vector pv;
			VectorView v;
			uint32_t *sel = arena_alloc(op->scratch, sizeof(uint32_t) * m), k = 0;
			TRY(expr_eval(op->ctx, h->residual, b, NULL, m, op->scratch, &pv));
			vector_view(&pv, &v);
			for (i = 0; i < m; i++) {
				uint32_t x = v.sel ? v.sel[i] : i;
				if (validity_get(v.validity, x) && ((const uint8_t *)v.data)[x]) {
					sel[k++] = i;
					h->pmatched[h->cand_p[i]] = 1;
					if (h->build_outer)
						mark(h, h->cand_b[i]);
				}
			}
			if (k == 0 || h->semi || h->anti)
				return FLOE_OK;
			if (k < m) {
				b->sel = sel;
				b->count = k;
			}
		} else {
			for (i = 0; i < m; i++)
				h->pmatched[h->cand_p[i]] = 1;
			if (h->build_outer)
				for (i = 0; i < m; i++)
					mark(h, h->cand_b[i]);
		}
		*out = b;
	}
	return FLOE_OK;
}

/* MARK: the mark column (after the left columns) of the output batch b
 * of probe rows rows[0..n) (invariant 5a) */
static void
mark_column(HashJoinOp *h, Batch *b, const uint32_t *rows, uint32_t n)
{
	Vector *v = &b->cols[h->left->ncols];
	uint8_t *d;
	bool facts_null = h->mark_null_key && h->nb_total > 0;

	vector_init(v, type_make(TYPE_BOOL), h->op.scratch, n ? n : 1);
	d = v->data;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = rows[i];
		d[i] = h->pmatched[p] != 0;
		if (!h->pmatched[p] &&
		    ((h->pnullm && h->pnullm[p]) || (facts_null && (h->build_null_any || h->pnull[p]))))
			vector_set_null(v, i);
	}
}

static int
hj_next(Operator *op, Batch **out)
{
	HashJoinOp *h = (HashJoinOp *)op;

	arena_reset(op->scratch);
	for (;;) {
		TRY(exec_check_cancel(op->ctx));
		switch (h->state) {
		case HJ_BUILD:
		case HJ_NEED_PROBE: {
			bool eof;
			TRY(next_probe_batch(h, &eof));
			h->state = eof ? (h->build_outer ? HJ_BUILD_OUTER : HJ_NEXT_PART) : HJ_PROBE;
			if (eof && h->counted) {
				/* a shared table: only the last copy to finish its
				 * probe input emits the unmatched build rows */
				HashJoinOp *o = h->proto ? h->proto : h;
				h->counted = false;
				if (atomic_fetch_sub(&o->probers, 1) != 1)
					h->state = HJ_NEXT_PART;
			}
			break;
		}
		case HJ_NEXT_PART: {
			bool more;
			TRY(next_part(h, &more));
			h->state = more ? HJ_NEED_PROBE : HJ_DONE;
			break;
		}
		case HJ_PROBE: {
			Batch *b;
			if (h->pi >= h->pb->count) {
				h->state = h->probe_outer ? HJ_PROBE_OUTER : HJ_NEED_PROBE;
				break;
			}
			/* nothing of the last round is kept: candidates that all
			 * failed (a selective residual, SEMI/ANTI) must not pile
			 * up in scratch until a batch is emitted */
			arena_reset(op->scratch);
			TRY(probe_round(h, &b));
			if (b) {
				op->rows_out += b->count;
				*out = b;
				return FLOE_OK;
			}
			break;
		}
		case HJ_PROBE_OUTER: {
			uint32_t *rows = arena_alloc(op->scratch, sizeof(uint32_t) * VECTOR_SIZE), n = 0;
			while (h->pouter_pos < h->pb->count && n < VECTOR_SIZE) {
				uint32_t p = h->pouter_pos;
				bool emit = h->markj || !h->pmatched[p] != h->semi;
				/* x NOT IN (set): never true when the set has a NULL
				 * or x is NULL, always true when the set is empty */
				if (h->not_in && h->nb_total > 0 && (h->build_null_any || h->pnull[p]))
					emit = false;
				if (emit)
					rows[n++] = p;
				h->pouter_pos++;
			}
			if (h->pouter_pos >= h->pb->count)
				h->state = HJ_NEED_PROBE;
			if (n) {
				*out = gather(h, rows, NULL, n, false);
				if (h->markj)
					mark_column(h, *out, rows, n);
				op->rows_out += n;
				return FLOE_OK;
			}
			break;
		}
		case HJ_BUILD_OUTER: {
			uint32_t *rows = arena_alloc(op->scratch, sizeof(uint32_t) * VECTOR_SIZE), n = 0;
			while (h->bouter_pos < h->nb && n < VECTOR_SIZE) {
				if (!__atomic_load_n(&h->bmatched[h->bouter_pos], __ATOMIC_RELAXED))
					rows[n++] = h->bouter_pos;
				h->bouter_pos++;
			}
			if (h->bouter_pos >= h->nb)
				h->state = HJ_NEXT_PART;
			if (n) {
				*out = gather(h, NULL, rows, n, false);
				op->rows_out += n;
				return FLOE_OK;
			}
			break;
		}
		case HJ_DONE:
			*out = NULL;
			return FLOE_OK;
		}
	}
}

static void
hj_close(Operator *op)
{
	HashJoinOp *h = (HashJoinOp *)op;

	if (h->proto) {
		op_close(h->probe);
		spill_set_close(h->ss);
		return;
	}
	op_close(h->left);
	op_close(h->right);
	h->cur_bf = h->cur_pf = NULL;
	h->npending = 0;
	spill_set_close(h->ss);
}

static const OperatorVT hash_join_vt = { "HashJoin", hj_open, hj_next, hj_close };

/* A worker's copy: its own probe input (cloned), the build input shared
 * (never opened, read nor closed by the copy). */
static Operator *
hj_clone(Operator *op, ExecCtx *wctx)
{
	HashJoinOp *h = (HashJoinOp *)op, *c;
	Operator *probe;
	Expr **lkeys, **rkeys;

	if (h->proto || !(probe = exec_clone(h->probe, wctx)))
		return NULL;
	lkeys = h->build_left ? h->bkeys : h->pkeys;
	rkeys = h->build_left ? h->pkeys : h->bkeys;
	c = (HashJoinOp *)hash_join_new(wctx, h->build_left ? h->build : probe,
					h->build_left ? probe : h->right, h->type, h->nkeys, lkeys,
					rkeys, h->residual, h->build_left);
	c->proto = h;
	c->mark_cmp = h->mark_cmp;
	c->mark_null_key = h->mark_null_key;
	if (op->ncols)
		memcpy(c->op.types, op->types, sizeof(SqlType) * (size_t)op->ncols);
	return &c->op;
}

bool
hash_join_key_ok(SqlType a, SqlType b)
{
	if (a.id != b.id)
		return false;
	switch (a.id) {
	case TYPE_NULL:
	case TYPE_INTERVAL:
		return false;
	case TYPE_DECIMAL:
		return a.scale == b.scale;
	case TYPE_TEXT:
		return a.text_kind != TEXT_CHAR && b.text_kind != TEXT_CHAR;
	default:
		return true;
	}
}

Operator *
hash_join_new(ExecCtx *ctx, Operator *left, Operator *right, JoinType type, int nkeys,
	      Expr **left_keys, Expr **right_keys, Expr *residual, bool build_left)
{
	HashJoinOp *h = ARENA_NEW(ctx->arena, HashJoinOp);
	int nl = left->ncols, nr = right->ncols;
	SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, nl + nr + 1);
	bool left_outer = type == JOIN_LEFT || type == JOIN_FULL;
	bool right_outer = type == JOIN_RIGHT || type == JOIN_FULL;
	bool semi = type == JOIN_SEMI, anti = type == JOIN_ANTI || type == JOIN_NOT_IN;
	bool markj = type == JOIN_MARK;

	if (semi || anti || markj) {
		build_left = false;
		left_outer = true;   /* the probe batch's rows are emitted by flag */
		nr = 0;
	}

	if (nl)
		memcpy(types, left->types, sizeof(SqlType) * (size_t)nl);
	if (nr)
		memcpy(types + nl, right->types, sizeof(SqlType) * (size_t)nr);
	if (markj)
		types[nl] = type_make(TYPE_BOOL);
	op_init(&h->op, &hash_join_vt, ctx, nl + nr + (markj ? 1 : 0), types, NULL);
	h->left = left;
	h->right = right;
	h->type = type;
	h->nkeys = nkeys;
	h->residual = residual;
	h->build_left = build_left;
	h->semi = semi;
	h->anti = anti;
	h->not_in = type == JOIN_NOT_IN;
	h->markj = markj;
	h->build = build_left ? left : right;
	h->probe = build_left ? right : left;
	h->bkeys = build_left ? left_keys : right_keys;
	h->pkeys = build_left ? right_keys : left_keys;
	h->nbcols = h->build->ncols;
	h->probe_outer = build_left ? right_outer : left_outer;
	h->build_outer = build_left ? left_outer : right_outer;
	h->store = arena_new(chunk_hint(ctx, 256 * 1024, 16));
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, h->store);
	h->colarena = ARENA_ARRAY(ctx->arena, Arena *, h->nbcols + nkeys + 1);
	arena_on_reset(ctx->arena, free_colarenas_cb, h);
	h->probe_arena = arena_new(64 * 1024);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, h->probe_arena);
	h->cand_p = ARENA_ARRAY(ctx->arena, uint32_t, VECTOR_SIZE);
	h->cand_b = ARENA_ARRAY(ctx->arena, uint32_t, VECTOR_SIZE);
	h->ss = spill_set_new(ctx);
	h->bscan = spill_scan_new(ctx, h->build->ncols, h->build->types, NULL);
	h->pscan = spill_scan_new(ctx, h->probe->ncols, h->probe->types, NULL);
	/* EXPLAIN: PostgreSQL's node names; the probe input first */
	h->op.inputs = ARENA_ARRAY(ctx->arena, Operator *, 2);
	h->op.inputs[0] = left;
	h->op.inputs[1] = right;
	h->op.ninputs = 2;
	{
		static const char *const kind[] = { "", " Left", " Right", " Full", " Semi", " Anti",
						    " Anti", " Mark" };
		h->op.label = arena_sprintf(ctx->arena, "%s%s%s", nkeys ? "Hash" : "Nested Loop",
					    kind[type], nkeys || type != JOIN_INNER ? " Join" : "");
	}
	h->op.clone = hj_clone;
	return &h->op;
}

void
hash_join_set_mark(Operator *op, Expr *cmp, bool null_key)
{
	HashJoinOp *h = (HashJoinOp *)op;

	if (op->vt != &hash_join_vt || !h->markj)
		return;
	h->mark_cmp = cmp;
	h->mark_null_key = null_key;
}

Operator *
hash_join_probe_input(Operator *op)
{
	HashJoinOp *h = (HashJoinOp *)op;

	if (!op || op->vt != &hash_join_vt || h->proto)
		return NULL;
	return h->probe;
}

void
hash_join_set_input(Operator *op, int i, Operator *in)
{
	HashJoinOp *h = (HashJoinOp *)op;

	if (op->vt != &hash_join_vt || i < 0 || i > 1 || in->ncols != op->inputs[i]->ncols)
		return;
	if (h->build == op->inputs[i])
		h->build = in;
	if (h->probe == op->inputs[i])
		h->probe = in;
	if (i == 0)
		h->left = in;
	else
		h->right = in;
	op->inputs[i] = in;
}
