/*
 * sort.c — ORDER BY: materialise the input, sort row references, emit.
 * A pipeline breaker: open() consumes the child.
 *
 * Ordering follows PostgreSQL: NULLs sort as larger than every value
 * (last in ASC, first in DESC unless NULLS FIRST/LAST says otherwise);
 * floats order NaN above every number and -0 equal to 0; text compares
 * bytewise (floe's collation is C); intervals compare by their span with
 * 30-day months, as interval_cmp does.  The sort is stable (ties keep
 * input order), which PostgreSQL does not promise but tests like.
 *
 * Spilling above a memory limit is not implemented yet.
 *
 * INTERFACE ROUTINES
 *   sort_new(ctx, child, nkeys, keys)
 *   sort_compare_values(a, b, type)         shared three-way comparison
 */
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"

typedef struct RowRef {
	uint32_t batch;
	uint32_t row;
} RowRef;

typedef struct SortOp {
	Operator op;
	int nkeys;
	SortKey *keys;
	Arena *store;
	Batch **batches;
	uint32_t nbatches, cap_batches;
	RowRef *rows;
	size_t nrows, cap_rows;
	size_t emit_pos;
} SortOp;

int sort_compare_values(const void *a, const void *b, SqlType t);

static int
cmp_num(double x, double y)
{
	return x < y ? -1 : x > y;
}

int
sort_compare_values(const void *a, const void *b, SqlType t)
{
	switch (t.id) {
	case TYPE_BOOL:
		return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
	case TYPE_INT16: {
		int16_t x = *(const int16_t *)a, y = *(const int16_t *)b;
		return x < y ? -1 : x > y;
	}
	case TYPE_INT32: case TYPE_DATE: {
		int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
		return x < y ? -1 : x > y;
	}
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: {
		int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
		return x < y ? -1 : x > y;
	}
	case TYPE_FLOAT32: case TYPE_FLOAT64: {
		double x = t.id == TYPE_FLOAT32 ? *(const float *)a : *(const double *)a;
		double y = t.id == TYPE_FLOAT32 ? *(const float *)b : *(const double *)b;
		bool nx = x != x, ny = y != y;
		if (nx || ny)
			return nx && ny ? 0 : nx ? 1 : -1;
		return cmp_num(x, y);
	}
	case TYPE_DECIMAL: {
		int128 x, y;
		memcpy(&x, a, sizeof x);
		memcpy(&y, b, sizeof y);
		return x < y ? -1 : x > y;
	}
	case TYPE_TEXT: case TYPE_BYTEA:
		return strview_cmp((const strview *)a, (const strview *)b);
	case TYPE_INTERVAL: {
		const Interval *x = a, *y = b;
		int128 sx = ((int128)x->months * 30 + x->days) * (int128)86400000000LL + x->micros;
		int128 sy = ((int128)y->months * 30 + y->days) * (int128)86400000000LL + y->micros;
		return sx < sy ? -1 : sx > sy;
	}
	case TYPE_UUID:
		return memcmp(a, b, sizeof(Uuid));
	default:
		return 0;
	}
}

/* Deep copy of the rows of b into the sort's store: dense, strings owned. */
static Batch *
copy_batch(SortOp *s, const Batch *in)
{
	Batch *b = batch_new(s->store, in->ncols, s->op.types, in->count);
	int c;
	uint32_t i;

	for (c = 0; c < in->ncols; c++) {
		Vector *v = &b->cols[c];
		vector_copy_rows(v, 0, &in->cols[c], in->sel, in->count);
		if (type_is_string(v->type.id)) {
			strview *sv = v->data;
			for (i = 0; i < in->count; i++)
				if (vector_is_valid(v, i) && sv[i].len > STRVIEW_INLINE)
					sv[i] = strview_make(arena_memdup(s->store, sv[i].u.ptr, sv[i].len),
							     sv[i].len);
		}
	}
	b->count = in->count;
	return b;
}

static int
row_cmp(const void *pa, const void *pb, void *arg)
{
	const RowRef *ra = pa, *rb = pb;
	SortOp *s = arg;
	int k;

	for (k = 0; k < s->nkeys; k++) {
		const SortKey *key = &s->keys[k];
		const Vector *va = &s->batches[ra->batch]->cols[key->col];
		const Vector *vb = &s->batches[rb->batch]->cols[key->col];
		bool na = !validity_get(va->validity, ra->row);
		bool nb = !validity_get(vb->validity, rb->row);
		int c;

		if (na || nb) {
			if (na && nb)
				continue;
			/* a NULL is "first" iff nulls_first */
			c = na ? (key->nulls_first ? -1 : 1) : (key->nulls_first ? 1 : -1);
			return c;
		}
		{
			size_t w = type_width(va->type.id);
			c = sort_compare_values((const char *)va->data + w * ra->row,
						(const char *)vb->data + w * rb->row, va->type);
		}
		if (c)
			return key->desc ? -c : c;
	}
	/* stable */
	if (ra->batch != rb->batch)
		return ra->batch < rb->batch ? -1 : 1;
	return ra->row < rb->row ? -1 : ra->row > rb->row;
}

static int
sort_open(Operator *op)
{
	SortOp *s = (SortOp *)op;
	Batch *in;

	TRY(op_open(op->child));
	for (;;) {
		Batch *b;
		uint32_t i;

		TRY(exec_check_cancel(op->ctx));
		TRY(op_next(op->child, &in));
		if (!in)
			break;
		if (!in->count)
			continue;
		b = copy_batch(s, in);
		if (s->nbatches == s->cap_batches) {
			s->cap_batches = s->cap_batches ? s->cap_batches * 2 : 64;
			s->batches = xrealloc(s->batches, sizeof(Batch *) * s->cap_batches);
		}
		s->batches[s->nbatches] = b;
		if (s->nrows + b->count > s->cap_rows) {
			while (s->nrows + b->count > s->cap_rows)
				s->cap_rows = s->cap_rows ? s->cap_rows * 2 : 4096;
			s->rows = xrealloc(s->rows, sizeof(RowRef) * s->cap_rows);
		}
		for (i = 0; i < b->count; i++) {
			s->rows[s->nrows].batch = s->nbatches;
			s->rows[s->nrows].row = i;
			s->nrows++;
		}
		s->nbatches++;
	}
	if (s->nrows > 1)
		qsort_r(s->rows, s->nrows, sizeof(RowRef), row_cmp, s);
	s->emit_pos = 0;
	return FLOE_OK;
}

static int
sort_next(Operator *op, Batch **out)
{
	SortOp *s = (SortOp *)op;
	uint32_t n, i;
	Batch *b;
	int c;

	arena_reset(op->scratch);
	if (s->emit_pos >= s->nrows) {
		*out = NULL;
		return FLOE_OK;
	}
	n = (uint32_t)(s->nrows - s->emit_pos < VECTOR_SIZE ? s->nrows - s->emit_pos : VECTOR_SIZE);
	b = batch_new(op->scratch, op->ncols, op->types, n);
	for (c = 0; c < op->ncols; c++) {
		Vector *dst = &b->cols[c];
		size_t w = type_width(dst->type.id);
		bool dec = dst->type.id == TYPE_DECIMAL;   /* carries display scales */
		for (i = 0; i < n; i++) {
			const RowRef *r = &s->rows[s->emit_pos + i];
			const Vector *src = &s->batches[r->batch]->cols[c];
			memcpy((char *)dst->data + w * i, (const char *)src->data + w * r->row, w);
			if (!validity_get(src->validity, r->row))
				vector_set_null(dst, i);
			if (dec)
				vector_copy_dscale(dst, i, src, r->row);
		}
	}
	b->count = n;
	s->emit_pos += n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
sort_close(Operator *op)
{
	SortOp *s = (SortOp *)op;

	op_close(op->child);
	free(s->batches);
	free(s->rows);
	s->batches = NULL;
	s->rows = NULL;
	s->nbatches = s->cap_batches = 0;
	s->nrows = s->cap_rows = 0;
	if (s->store)
		arena_reset(s->store);
}

static const OperatorVT sort_vt = { "Sort", sort_open, sort_next, sort_close };

Operator *
sort_new(ExecCtx *ctx, Operator *child, int nkeys, const SortKey *keys)
{
	SortOp *s = ARENA_NEW(ctx->arena, SortOp);

	op_init(&s->op, &sort_vt, ctx, child->ncols, child->types, child);
	s->nkeys = nkeys;
	s->keys = arena_memdup(ctx->arena, keys, sizeof(SortKey) * (size_t)(nkeys ? nkeys : 1));
	s->store = arena_new(1 << 20);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, s->store);
	return &s->op;
}
