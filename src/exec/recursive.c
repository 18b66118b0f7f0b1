/*
 * recursive.c — WITH RECURSIVE: PostgreSQL's Recursive Union.
 *
 * The non-recursive term `init` is run first; its rows are emitted and
 * put in the work table `work` (a RowStore the recursive term reads
 * through a WorkTable Scan).  Then the recursive term `rec` is run over the
 * work table; its rows are emitted and collected in an intermediate
 * store, which becomes the next work table; this repeats until an
 * iteration produces no rows (PostgreSQL's algorithm, SQL:1999 7.12).
 * UNION (distinct) drops every row equal to one already emitted (NULLs
 * equal, as UNION compares rows), including within one iteration.
 *
 * No depth limit: like PostgreSQL a query that never stops runs until it
 * is cancelled (statement_timeout / cancel: exec_check_cancel per batch).
 *
 * Invariants:
 *   1. `rec` is opened and closed once per iteration (its plan is re-run).
 *   2. with UNION every emitted row is in `seen` exactly once; the hash
 *      table refers to rows of `seen` by (batch, row).
 *
 * INTERFACE ROUTINES
 *   recursive_new(ctx, init, rec, work, distinct)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "types/keyform.h"
#include "common/hash.h"
#include "exec/exec.h"

typedef struct RecursiveOp {
	Operator op;
	Operator *init, *rec;
	RowStore *work, *next, *seen;
	bool distinct;
	int phase;                 /* 0 init, 1 recursive, 2 done */
	bool rec_open;
	/* UNION: rows of `seen` by hash */
	uint64_t *ht_hash;
	uint32_t *ht_batch, *ht_row;   /* ht_batch UINT32_MAX = free */
	size_t ht_cap, ht_n;
	uint32_t *keep, keep_cap;
} RecursiveOp;

/* Bits of one value for hashing / comparing (floats: -0 = 0, one NaN). */
static const void *
norm(const char *p, SqlType t, size_t w, char *buf)
{
	if (t.id == TYPE_FLOAT64) {
		double d;
		memcpy(&d, p, 8);
		if (d == 0)
			d = 0;
		if (isnan(d))
			d = NAN;
		memcpy(buf, &d, 8);
		return buf;
	}
	if (t.id == TYPE_FLOAT32) {
		float f;
		memcpy(&f, p, 4);
		if (f == 0)
			f = 0;
		if (isnan(f))
			f = NAN;
		memcpy(buf, &f, 4);
		return buf;
	}
	(void)w;
	return p;
}

static uint64_t
row_hash(const Batch *b, uint32_t r)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;
	int c;

	for (c = 0; c < b->ncols; c++) {
		const Vector *v = &b->cols[c];
		VectorView vv;
		uint32_t k;
		size_t w = type_width(v->type.id);
		char buf[16];

		vector_view(v, &vv);
		k = vv.sel ? vv.sel[r] : r;
		if (!validity_get(vv.validity, k)) {
			h = hash_mix64(h ^ 0x5bd1e995);
			continue;
		}
		if (type_is_string(v->type.id)) {
			/* bpchar's trailing blanks, jsonb's number forms: keyform.h */
			const strview *s = (const strview *)vv.data + k;
			h = hash_mix64(h ^ keyform_hash(v->type, strview_data(s), s->len));
		} else {
			h = hash_mix64(h ^ XXH3_64bits(norm((const char *)vv.data + w * k, v->type, w, buf), w));
		}
	}
	return h;
}

static bool
row_eq(const Batch *a, uint32_t ra, const Batch *b, uint32_t rb)
{
	int c;

	for (c = 0; c < a->ncols; c++) {
		VectorView va, vb;
		uint32_t ka, kb;
		size_t w = type_width(a->cols[c].type.id);
		bool na, nb;
		char x[16], y[16];

		vector_view(&a->cols[c], &va);
		vector_view(&b->cols[c], &vb);
		ka = va.sel ? va.sel[ra] : ra;
		kb = vb.sel ? vb.sel[rb] : rb;
		na = !validity_get(va.validity, ka);
		nb = !validity_get(vb.validity, kb);
		if (na || nb) {
			if (na != nb)
				return false;
			continue;
		}
		if (type_is_string(a->cols[c].type.id)) {
			const strview *sa = (const strview *)va.data + ka, *sb = (const strview *)vb.data + kb;
			if (!keyform_eq(a->cols[c].type, strview_data(sa), sa->len, strview_data(sb), sb->len))
				return false;
		} else if (memcmp(norm((const char *)va.data + w * ka, a->cols[c].type, w, x),
				  norm((const char *)vb.data + w * kb, a->cols[c].type, w, y), w) != 0) {
			return false;
		}
	}
	return true;
}

static void
ht_put(RecursiveOp *r, uint64_t h, uint32_t bi, uint32_t row)
{
	size_t m = r->ht_cap - 1, i = h & m;

	while (r->ht_batch[i] != UINT32_MAX)
		i = (i + 1) & m;
	r->ht_hash[i] = h;
	r->ht_batch[i] = bi;
	r->ht_row[i] = row;
	r->ht_n++;
}

static void
ht_grow(RecursiveOp *r)
{
	size_t oc = r->ht_cap, i;
	uint64_t *oh = r->ht_hash;
	uint32_t *ob = r->ht_batch, *orow = r->ht_row;

	r->ht_cap = oc ? oc * 2 : 1024;
	r->ht_hash = xmalloc(sizeof(uint64_t) * r->ht_cap);
	r->ht_batch = xmalloc(sizeof(uint32_t) * r->ht_cap);
	r->ht_row = xmalloc(sizeof(uint32_t) * r->ht_cap);
	memset(r->ht_batch, 0xff, sizeof(uint32_t) * r->ht_cap);
	r->ht_n = 0;
	for (i = 0; i < oc; i++)
		if (ob[i] != UINT32_MAX)
			ht_put(r, oh[i], ob[i], orow[i]);
	free(oh);
	free(ob);
	free(orow);
}

/* UNION: keep the rows of b not seen before (and not repeated within b);
 * returns the batch to emit (b with a selection), or NULL if none.  Rows
 * kept from b are hashed as (pending batch, k) until b joins `seen`. */
static Batch *
dedup(RecursiveOp *r, Batch *b)
{
	uint32_t i, n = 0, pending = (uint32_t)rowstore_nbatches(r->seen);

	batch_compact(b);
	if (b->count > r->keep_cap) {
		r->keep_cap = b->count;
		r->keep = ARENA_ARRAY(r->op.ctx->arena, uint32_t, r->keep_cap);
	}
	for (i = 0; i < b->count; i++) {
		uint64_t h = row_hash(b, i);
		size_t m, j;
		bool dup = false;
		if ((r->ht_n + 1) * 2 > r->ht_cap)
			ht_grow(r);
		m = r->ht_cap - 1;
		for (j = h & m; r->ht_batch[j] != UINT32_MAX; j = (j + 1) & m) {
			if (r->ht_hash[j] != h)
				continue;
			if (r->ht_batch[j] == pending ? row_eq(b, r->keep[r->ht_row[j]], b, i) :
			    row_eq(rowstore_batch(r->seen, (int)r->ht_batch[j]), r->ht_row[j], b, i)) {
				dup = true;
				break;
			}
		}
		if (dup)
			continue;
		ht_put(r, h, pending, n);
		r->keep[n++] = i;
	}
	if (!n)
		return NULL;
	b->sel = r->keep;
	b->count = n;
	rowstore_append(r->seen, b);
	return b;
}

static int
rec_open(Operator *op)
{
	RecursiveOp *r = (RecursiveOp *)op;

	rowstore_clear(r->work);
	rowstore_clear(r->next);
	rowstore_clear(r->seen);
	if (r->ht_cap)
		memset(r->ht_batch, 0xff, sizeof(uint32_t) * r->ht_cap);
	r->ht_n = 0;
	r->phase = 0;
	r->rec_open = false;
	return op_open(r->init);
}

static int
rec_next(Operator *op, Batch **out)
{
	RecursiveOp *r = (RecursiveOp *)op;
	Batch *b;

	for (;;) {
		TRY(exec_check_cancel(op->ctx));
		if (r->phase == 2) {
			*out = NULL;
			return FLOE_OK;
		}
		if (r->phase == 0) {
			TRY(op_next(r->init, &b));
			if (!b) {
				op_close(r->init);
				r->phase = 1;
				if (!rowstore_rows(r->work)) {
					r->phase = 2;
					continue;
				}
				TRY(op_open(r->rec));
				r->rec_open = true;
				continue;
			}
		} else {
			TRY(op_next(r->rec, &b));
			if (!b) {
				op_close(r->rec);
				r->rec_open = false;
				rowstore_swap(r->work, r->next);
				rowstore_clear(r->next);
				if (!rowstore_rows(r->work)) {
					r->phase = 2;
					continue;
				}
				TRY(op_open(r->rec));
				r->rec_open = true;
				continue;
			}
		}
		if (!b->count)
			continue;
		if (r->distinct && !(b = dedup(r, b)))
			continue;
		rowstore_append(r->phase == 0 ? r->work : r->next, b);
		op->rows_out += b->count;
		*out = b;
		return FLOE_OK;
	}
}

/* The UNION hash table; also run at the arena's reset, as a statement that
 * fails (statement_timeout, an error in a subquery) may never close us. */
static void
free_table(void *p)
{
	RecursiveOp *r = p;

	free(r->ht_hash);
	free(r->ht_batch);
	free(r->ht_row);
	r->ht_hash = NULL;
	r->ht_batch = r->ht_row = NULL;
	r->ht_cap = r->ht_n = 0;
}

static void
rec_close(Operator *op)
{
	RecursiveOp *r = (RecursiveOp *)op;

	if (r->phase == 0)
		op_close(r->init);
	if (r->rec_open)
		op_close(r->rec);
	r->rec_open = false;
	r->phase = 2;
	free_table(r);
	rowstore_clear(r->work);
	rowstore_clear(r->next);
	rowstore_clear(r->seen);
}

static const OperatorVT rec_vt = { "Recursive Union", rec_open, rec_next, rec_close };

Operator *
recursive_new(ExecCtx *ctx, Operator *init, Operator *rec, RowStore *work, bool distinct)
{
	RecursiveOp *r = ARENA_NEW(ctx->arena, RecursiveOp);

	op_init(&r->op, &rec_vt, ctx, init->ncols, init->types, NULL);
	r->init = init;
	r->rec = rec;
	r->work = work;
	r->next = rowstore_new(ctx, init->ncols, init->types, NULL);
	r->seen = rowstore_new(ctx, init->ncols, init->types, NULL);
	r->distinct = distinct;
	r->op.inputs = ARENA_ARRAY(ctx->arena, Operator *, 2);
	r->op.inputs[0] = init;
	r->op.inputs[1] = rec;
	r->op.ninputs = 2;
	r->keep_cap = VECTOR_SIZE;
	r->keep = ARENA_ARRAY(ctx->arena, uint32_t, VECTOR_SIZE);
	r->phase = 2;
	arena_on_reset(ctx->arena, free_table, r);
	return &r->op;
}
