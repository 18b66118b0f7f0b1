/*
 * buffer.c — RowStore: rows materialised once and read by several
 * operators (GROUPING SETS: one aggregation per set over the same input;
 * WITH RECURSIVE: the work table the recursive term reads).
 *
 * A RowStore holds deep copies of batches (dense, flat vectors, long
 * strings copied into its own arena).  It is either filled from a child
 * operator by the first of its scans to open (a shared Materialize: the
 * child is read to the end and closed at once), or by its owner through
 * rowstore_append (a work table, child NULL).
 *
 * Invariants:
 *   1. a store with a child is filled at most once per round of opens: it
 *      is emptied when the last open scan closes, so a re-opened plan (a
 *      recursive term run again) reads its child again.
 *   2. a scan reads the batches present when it reaches them; batches are
 *      never modified after rowstore_append.
 *
 * INTERFACE ROUTINES
 *   rowstore_new(ctx, ncols, types, child)   child NULL: filled by the caller
 *   rowstore_append(rs, batch) / rowstore_clear(rs) / rowstore_rows(rs)
 *   rowstore_swap(a, b)                      exchange contents
 *   rowstore_batch(rs, i) / rowstore_nbatches(rs)
 *   rowstore_scan_new(ctx, rs, name)         an operator reading the store
 */
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"

struct RowStore {
	ExecCtx *ctx;
	int ncols;
	SqlType *types;
	Operator *child;
	bool filled;
	bool shown;                /* a scan lists child as its EXPLAIN input */
	int nopen;
	Arena *arena;
	Batch **batches;
	int nbatches, cap;
	int64_t nrows;
};

static void
free_store(void *p)
{
	RowStore *rs = p;
	free(rs->batches);
	rs->batches = NULL;
	arena_free(rs->arena);
}

RowStore *
rowstore_new(ExecCtx *ctx, int ncols, const SqlType *types, Operator *child)
{
	RowStore *rs = ARENA_NEW(ctx->arena, RowStore);

	rs->ctx = ctx;
	rs->ncols = ncols;
	rs->types = arena_memdup(ctx->arena, types, sizeof(SqlType) * (size_t)(ncols ? ncols : 1));
	rs->child = child;
	rs->arena = arena_new(256 * 1024);
	arena_on_reset(ctx->arena, free_store, rs);
	return rs;
}

void
rowstore_append(RowStore *rs, const Batch *in)
{
	Batch *b;
	int c;
	uint32_t i;

	if (!in->count)
		return;
	b = batch_new(rs->arena, rs->ncols, rs->types, in->count);
	for (c = 0; c < rs->ncols; c++) {
		Vector *v = &b->cols[c];
		vector_copy_rows(v, 0, &in->cols[c], in->sel, in->count);
		if (type_is_string(v->type.id)) {
			strview *sv = v->data;
			for (i = 0; i < in->count; i++)
				if (vector_is_valid(v, i) && sv[i].len > STRVIEW_INLINE)
					sv[i] = strview_make(arena_memdup(rs->arena, sv[i].u.ptr, sv[i].len),
							     sv[i].len);
		}
	}
	b->count = in->count;
	if (rs->nbatches == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 16;
		rs->batches = xrealloc(rs->batches, sizeof(Batch *) * (size_t)rs->cap);
	}
	rs->batches[rs->nbatches++] = b;
	rs->nrows += b->count;
}

void
rowstore_clear(RowStore *rs)
{
	rs->nbatches = 0;
	rs->nrows = 0;
	arena_reset(rs->arena);
}

void
rowstore_swap(RowStore *a, RowStore *b)
{
	RowStore t = *a;

	a->arena = b->arena;
	a->batches = b->batches;
	a->nbatches = b->nbatches;
	a->cap = b->cap;
	a->nrows = b->nrows;
	b->arena = t.arena;
	b->batches = t.batches;
	b->nbatches = t.nbatches;
	b->cap = t.cap;
	b->nrows = t.nrows;
}

int64_t
rowstore_rows(const RowStore *rs)
{
	return rs->nrows;
}

int
rowstore_nbatches(const RowStore *rs)
{
	return rs->nbatches;
}

Batch *
rowstore_batch(const RowStore *rs, int i)
{
	return rs->batches[i];
}

/* ---- scan ----------------------------------------------------------------- */

typedef struct StoreScanOp {
	Operator op;
	RowStore *rs;
	int pos;
	bool opened;
} StoreScanOp;

static int
fill(RowStore *rs)
{
	Batch *b;
	int rc;

	TRY(op_open(rs->child));
	for (;;) {
		if ((rc = exec_check_cancel(rs->ctx)) != FLOE_OK ||
		    (rc = op_next(rs->child, &b)) != FLOE_OK || !b)
			break;
		rowstore_append(rs, b);
	}
	op_close(rs->child);
	if (rc != FLOE_OK)
		return rc;
	rs->filled = true;
	return FLOE_OK;
}

static int
store_scan_open(Operator *op)
{
	StoreScanOp *s = (StoreScanOp *)op;

	s->pos = 0;
	if (!s->opened) {
		s->opened = true;
		s->rs->nopen++;
	}
	if (s->rs->child && !s->rs->filled)
		TRY(fill(s->rs));
	return FLOE_OK;
}

static int
store_scan_next(Operator *op, Batch **out)
{
	StoreScanOp *s = (StoreScanOp *)op;

	TRY(exec_check_cancel(op->ctx));
	if (s->pos >= s->rs->nbatches) {
		*out = NULL;
		return FLOE_OK;
	}
	*out = s->rs->batches[s->pos++];
	op->rows_out += (*out)->count;
	return FLOE_OK;
}

static void
store_scan_close(Operator *op)
{
	StoreScanOp *s = (StoreScanOp *)op;

	if (!s->opened)
		return;
	s->opened = false;
	if (--s->rs->nopen == 0 && s->rs->child) {
		rowstore_clear(s->rs);
		s->rs->filled = false;
	}
}

static const OperatorVT store_scan_vt = { "Materialize", store_scan_open, store_scan_next,
					  store_scan_close };
static const OperatorVT work_scan_vt = { "WorkTable Scan", store_scan_open, store_scan_next,
					 store_scan_close };

Operator *
rowstore_scan_new(ExecCtx *ctx, RowStore *rs)
{
	StoreScanOp *s = ARENA_NEW(ctx->arena, StoreScanOp);

	op_init(&s->op, rs->child ? &store_scan_vt : &work_scan_vt, ctx, rs->ncols, rs->types,
		NULL);
	s->rs = rs;
	if (rs->child && !rs->shown) {
		rs->shown = true;
		s->op.inputs = ARENA_ARRAY(ctx->arena, Operator *, 1);
		s->op.inputs[0] = rs->child;
		s->op.ninputs = 1;
	}
	return &s->op;
}
