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
 * External sort (work_mem, spill.h): while the input is read, once the
 * buffered rows pass ctx->mem_limit they are sorted and written as a run
 * (a spill file, batches of at most VECTOR_SIZE rows), and the buffer
 * starts again.  At the end, runs are merged MERGE_FANIN at a time (each
 * merge of consecutive runs yields one run) until at most MERGE_FANIN
 * remain, which next() merges as it emits.  Runs hold consecutive slices
 * of the input and a merge prefers the earlier run on ties, so the result
 * is the same stable order as the in-memory sort.  Memory while merging:
 * one batch per open run, so fewer runs are merged at once when work_mem
 * has no room for MERGE_FANIN readers.  What is counted is what is
 * malloc'd (arena_held: store chunks, the row array's capacity, readers,
 * spill buffers; held_now, EXPLAIN ANALYZE's Peak Memory); a run is
 * written before the next batch could take the sort past work_mem.
 *
 * INTERFACE ROUTINES
 *   sort_new(ctx, child, nkeys, keys)
 *   sort_set_keys(op, nkeys, keys)          new keys for the next open (window.c's passes)
 *   sort_compare_values(a, b, type)         shared three-way comparison
 */
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"
#include "exec/spill.h"
#include "types/array.h"
#include "types/json.h"
#include "types/udt.h"

#define MERGE_FANIN 16

typedef struct RowRef {
	uint32_t batch;
	uint32_t row;
} RowRef;

/* One run being merged: its current batch and position. */
typedef struct RunReader {
	SpillFile *f;
	Arena *a;
	Batch *b;                /* NULL: exhausted */
	uint32_t pos;
} RunReader;

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
	/* external sort */
	SpillSet *ss;
	SpillFile **runs;
	int nruns, cap_runs;
	RunReader *rd;           /* [MERGE_FANIN] */
	int nrd;
	bool merging;            /* next() merges rd[] */
	Arena *merge_arena;      /* output batches of intermediate merges */
	int64_t batch_max;       /* the largest input batch's bytes in store */
	int fanin;               /* runs merged at once (<= MERGE_FANIN) */
} SortOp;

#define STORE_CHUNK (128 * 1024)
#define READER_CHUNK (64 * 1024)

/* Bytes the sort holds now, as malloc'd (the store, the row and batch
 * arrays, merge readers, output batches, spill buffers); noted as the
 * operator's peak. */
static int64_t
held_now(SortOp *s)
{
	int64_t m = (int64_t)arena_held(s->store) + (int64_t)arena_held(s->merge_arena) +
		    (int64_t)arena_held(s->op.scratch) + spill_set_held(s->ss) +
		    (int64_t)(sizeof(RowRef) * s->cap_rows) + (int64_t)(sizeof(Batch *) * s->cap_batches);
	int i;

	for (i = 0; i < MERGE_FANIN; i++)
		m += (int64_t)arena_held(s->rd[i].a);
	op_note_mem(&s->op, m);
	return m;
}

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
		if (t.id == TYPE_TEXT && t.text_kind == TEXT_ENUM)    /* declaration order */
			return udt_enum_cmp(t.udt, a, b);
		if (t.id == TYPE_TEXT && t.text_kind == TEXT_JSONB)   /* jsonb's btree order */
			return pgjsonb_cmp_text(strview_data(a), ((const strview *)a)->len,
						strview_data(b), ((const strview *)b)->len);
		if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR) {
			/* bpchar: trailing blanks do not count (bpcharcmp), so 'a' and
			 * 'a  ' are peers, as they are one group (types/keyform.h) */
			const char *x = strview_data(a), *y = strview_data(b);
			size_t xn = ((const strview *)a)->len, yn = ((const strview *)b)->len;
			int c;
			while (xn && x[xn - 1] == ' ')
				xn--;
			while (yn && y[yn - 1] == ' ')
				yn--;
			c = memcmp(x, y, xn < yn ? xn : yn);
			return c ? (c < 0 ? -1 : 1) : xn < yn ? -1 : xn > yn;
		}
		return strview_cmp((const strview *)a, (const strview *)b);
	case TYPE_ARRAY:
		return array_compare((const strview *)a, (const strview *)b, t);
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

/* Compare row ra of batch a with row rb of batch b on the sort keys. */
static int
key_cmp(const SortOp *s, const Batch *a, uint32_t ra, const Batch *b, uint32_t rb)
{
	int k;

	for (k = 0; k < s->nkeys; k++) {
		const SortKey *key = &s->keys[k];
		const Vector *va = &a->cols[key->col];
		const Vector *vb = &b->cols[key->col];
		bool na = !validity_get(va->validity, ra);
		bool nb = !validity_get(vb->validity, rb);
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
			c = sort_compare_values((const char *)va->data + w * ra,
						(const char *)vb->data + w * rb, va->type);
		}
		if (c)
			return key->desc ? -c : c;
	}
	return 0;
}

static int
row_cmp(const void *pa, const void *pb, void *arg)
{
	const RowRef *ra = pa, *rb = pb;
	SortOp *s = arg;
	int c = key_cmp(s, s->batches[ra->batch], ra->row, s->batches[rb->batch], rb->row);

	if (c)
		return c;
	/* stable */
	if (ra->batch != rb->batch)
		return ra->batch < rb->batch ? -1 : 1;
	return ra->row < rb->row ? -1 : ra->row > rb->row;
}

/* Copy row r of src (flat) into row i of dst (flat, dst's arena owns
 * long strings when own_strings). */
static void
copy_row(Batch *dst, uint32_t i, const Batch *src, uint32_t r, bool own_strings)
{
	int c;

	for (c = 0; c < dst->ncols; c++) {
		Vector *dv = &dst->cols[c];
		const Vector *sv = &src->cols[c];
		size_t w = type_width(dv->type.id);

		if (!validity_get(sv->validity, r)) {
			memset((char *)dv->data + w * i, 0, w);
			vector_set_null(dv, i);
			continue;
		}
		if (own_strings && type_is_string(dv->type.id)) {
			const strview *x = (const strview *)sv->data + r;
			vector_set_string(dv, i, strview_data(x), x->len);
		} else {
			memcpy((char *)dv->data + w * i, (const char *)sv->data + w * r, w);
		}
		if (dv->type.id == TYPE_DECIMAL)
			vector_copy_dscale(dv, i, sv, r);
	}
}

/* The sorted rows [pos, pos + n) of the in-memory buffer as a batch in a. */
static Batch *
gather_sorted(SortOp *s, Arena *a, size_t pos, uint32_t n)
{
	Operator *op = &s->op;
	Batch *b = batch_new(a, op->ncols, op->types, n);
	uint32_t i;
	int c;

	for (c = 0; c < op->ncols; c++) {
		Vector *dst = &b->cols[c];
		size_t w = type_width(dst->type.id);
		bool dec = dst->type.id == TYPE_DECIMAL;   /* carries display scales */
		for (i = 0; i < n; i++) {
			const RowRef *r = &s->rows[pos + i];
			const Vector *src = &s->batches[r->batch]->cols[c];
			memcpy((char *)dst->data + w * i, (const char *)src->data + w * r->row, w);
			if (!validity_get(src->validity, r->row))
				vector_set_null(dst, i);
			if (dec)
				vector_copy_dscale(dst, i, src, r->row);
		}
	}
	b->count = n;
	return b;
}

static void
clear_buffer(SortOp *s)
{
	s->nbatches = 0;
	s->nrows = 0;
	/* spare chunks would count as held (and the merge needs the room) */
	arena_release(s->store);
}

static void
push_run(SortOp *s, SpillFile *f)
{
	if (s->nruns == s->cap_runs) {
		int ncap = s->cap_runs ? s->cap_runs * 2 : 16;
		s->runs = arena_realloc(s->op.ctx->arena, s->runs, sizeof(SpillFile *) * (size_t)s->cap_runs,
					sizeof(SpillFile *) * (size_t)ncap);
		s->cap_runs = ncap;
	}
	s->runs[s->nruns++] = f;
}

static int
add_run(SortOp *s, SpillFile **out)
{
	TRY(spill_file_new(s->ss, s->op.ncols, s->op.types, out));
	push_run(s, *out);
	return FLOE_OK;
}

/* Sort the buffered rows and write them as the next run. */
static int
write_run(SortOp *s)
{
	SpillFile *f;
	size_t pos;

	if (s->nrows > 1)
		qsort_r(s->rows, s->nrows, sizeof(RowRef), row_cmp, s);
	TRY(add_run(s, &f));
	for (pos = 0; pos < s->nrows; pos += VECTOR_SIZE) {
		uint32_t n = (uint32_t)(s->nrows - pos < VECTOR_SIZE ? s->nrows - pos : VECTOR_SIZE);
		TRY(exec_check_cancel(s->op.ctx));
		arena_reset(s->merge_arena);
		TRY(spill_write(f, gather_sorted(s, s->merge_arena, pos, n), NULL, n));
	}
	spill_file_park(f);     /* no buffer while it waits for the merge */
	held_now(s);
	clear_buffer(s);
	return FLOE_OK;
}

static int
reader_load(SortOp *s, RunReader *r)
{
	arena_reset(r->a);
	r->pos = 0;
	return spill_read(r->f, r->a, &r->b);
}

/* Open readers on runs files[0..n). */
static int
readers_open(SortOp *s, SpillFile **files, int n)
{
	int i;

	s->nrd = n;
	for (i = 0; i < n; i++) {
		RunReader *r = &s->rd[i];
		if (!r->a)
			r->a = arena_new(READER_CHUNK);
		r->f = files[i];
		TRY(spill_rewind(r->f));
		TRY(reader_load(s, r));
	}
	return FLOE_OK;
}

static void
readers_close(SortOp *s)
{
	int i;

	for (i = 0; i < s->nrd; i++) {
		spill_file_close(s->rd[i].f);
		s->rd[i].f = NULL;
		s->rd[i].b = NULL;
	}
	s->nrd = 0;
}

/* Up to cap merged rows from the readers into a new batch in a; *out NULL
 * when every reader is exhausted. */
static int
merge_batch(SortOp *s, Arena *a, uint32_t cap, Batch **out)
{
	Batch *b = NULL;
	uint32_t n = 0;

	while (n < cap) {
		int best = -1, i;
		for (i = 0; i < s->nrd; i++) {
			RunReader *r = &s->rd[i];
			if (!r->b)
				continue;
			/* ties: the earlier run wins (stability) */
			if (best < 0 || key_cmp(s, r->b, r->pos, s->rd[best].b, s->rd[best].pos) < 0)
				best = i;
		}
		if (best < 0)
			break;
		if (!b)
			b = batch_new(a, s->op.ncols, s->op.types, cap);
		copy_row(b, n++, s->rd[best].b, s->rd[best].pos, true);
		if (++s->rd[best].pos >= s->rd[best].b->count)
			TRY(reader_load(s, &s->rd[best]));
	}
	if (b)
		b->count = n;
	held_now(s);
	*out = b;
	return FLOE_OK;
}

/* Merge runs until at most MERGE_FANIN remain; then open them for next(). */
static int
merge_runs(SortOp *s)
{
	/* as many readers as work_mem has room for (each holds one batch of
	 * its run, read into its own arena), 2 .. MERGE_FANIN */
	s->fanin = MERGE_FANIN;
	if (s->op.ctx->mem_limit > 0) {
		int64_t per = READER_CHUNK + 2 * s->batch_max;
		int64_t room = s->op.ctx->mem_limit - held_now(s) - 2 * s->batch_max;
		int64_t k = room / per;
		s->fanin = k < 2 ? 2 : k > MERGE_FANIN ? MERGE_FANIN : (int)k;
	}
	while (s->nruns > s->fanin) {
		SpillFile **old = s->runs;
		int nold = s->nruns, from;

		s->runs = NULL;
		s->nruns = s->cap_runs = 0;
		for (from = 0; from < nold; from += s->fanin) {
			int n = nold - from < s->fanin ? nold - from : s->fanin;
			SpillFile *dst;
			Batch *b;
			if (n == 1) {
				push_run(s, old[from]);
				continue;
			}
			TRY(add_run(s, &dst));
			TRY(readers_open(s, old + from, n));
			for (;;) {
				TRY(exec_check_cancel(s->op.ctx));
				arena_reset(s->merge_arena);
				TRY(merge_batch(s, s->merge_arena, VECTOR_SIZE, &b));
				if (!b)
					break;
				TRY(spill_write(dst, b, NULL, b->count));
			}
			spill_file_park(dst);
			readers_close(s);
		}
	}
	TRY(readers_open(s, s->runs, s->nruns));
	s->merging = true;
	return FLOE_OK;
}

static int
sort_open(Operator *op)
{
	SortOp *s = (SortOp *)op;
	Batch *in;
	int64_t before, base;

	s->merging = false;
	s->nruns = 0;
	s->batch_max = 0;
	base = held_now(s);
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
		before = (int64_t)arena_bytes(s->store);
		b = copy_batch(s, in);
		if ((int64_t)arena_bytes(s->store) - before > s->batch_max)
			s->batch_max = (int64_t)arena_bytes(s->store) - before;
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
		/* would the next batch pass work_mem?  Its copy may take a new
		 * store chunk (or its own), the row array may double, and
		 * writing the run gathers a batch and its spill buffer */
		{
			int64_t next = s->batch_max > STORE_CHUNK ? s->batch_max : STORE_CHUNK;
			if (s->nrows + VECTOR_SIZE > s->cap_rows)
				next += (int64_t)(sizeof(RowRef) * s->cap_rows) * 2;
			/* (unless what the rows add is under half of work_mem: then
			 * the arenas' first chunks are what passes it, and runs of
			 * one batch would not make that smaller) */
			int64_t need = held_now(s) + next + 2 * s->batch_max;
			if (spill_over(op->ctx, need) && 2 * (need - base) > op->ctx->mem_limit)
				TRY(write_run(s));
		}
	}
	if (s->nruns) {
		if (s->nrows)
			TRY(write_run(s));
		return merge_runs(s);
	}
	if (s->nrows > 1)
		qsort_r(s->rows, s->nrows, sizeof(RowRef), row_cmp, s);
	s->emit_pos = 0;
	held_now(s);
	return FLOE_OK;
}

static int
sort_next(Operator *op, Batch **out)
{
	SortOp *s = (SortOp *)op;
	uint32_t n;

	arena_reset(op->scratch);
	if (s->merging) {
		TRY(exec_check_cancel(op->ctx));
		TRY(merge_batch(s, op->scratch, VECTOR_SIZE, out));
		if (*out)
			op->rows_out += (*out)->count;
		return FLOE_OK;
	}
	if (s->emit_pos >= s->nrows) {
		*out = NULL;
		return FLOE_OK;
	}
	n = (uint32_t)(s->nrows - s->emit_pos < VECTOR_SIZE ? s->nrows - s->emit_pos : VECTOR_SIZE);
	*out = gather_sorted(s, op->scratch, s->emit_pos, n);
	s->emit_pos += n;
	op->rows_out += n;
	return FLOE_OK;
}

static void
sort_close(Operator *op)
{
	SortOp *s = (SortOp *)op;
	int i;

	op_close(op->child);
	free(s->batches);
	free(s->rows);
	s->batches = NULL;
	s->rows = NULL;
	s->nbatches = s->cap_batches = 0;
	s->nrows = s->cap_rows = 0;
	if (s->store)
		arena_reset(s->store);
	for (i = 0; i < MERGE_FANIN; i++)
		if (s->rd[i].a) {
			arena_free(s->rd[i].a);
			s->rd[i].a = NULL;
		}
	s->nrd = 0;
	s->merging = false;
	s->nruns = 0;
	spill_set_close(s->ss);
}

static void
free_readers(void *p)
{
	SortOp *s = p;
	int i;

	for (i = 0; i < MERGE_FANIN; i++)
		if (s->rd[i].a) {
			arena_free(s->rd[i].a);
			s->rd[i].a = NULL;
		}
}

static const OperatorVT sort_vt = { "Sort", sort_open, sort_next, sort_close };

Operator *
sort_new(ExecCtx *ctx, Operator *child, int nkeys, const SortKey *keys)
{
	SortOp *s = ARENA_NEW(ctx->arena, SortOp);

	op_init(&s->op, &sort_vt, ctx, child->ncols, child->types, child);
	s->nkeys = nkeys;
	s->keys = arena_memdup(ctx->arena, keys, sizeof(SortKey) * (size_t)(nkeys ? nkeys : 1));
	s->store = arena_new(STORE_CHUNK);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, s->store);
	s->merge_arena = arena_new(64 * 1024);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, s->merge_arena);
	s->rd = ARENA_ARRAY(ctx->arena, RunReader, MERGE_FANIN);
	arena_on_reset(ctx->arena, free_readers, s);
	s->ss = spill_set_new(ctx);
	return &s->op;
}

void
sort_set_keys(Operator *op, int nkeys, const SortKey *keys)
{
	SortOp *s = (SortOp *)op;

	s->nkeys = nkeys;
	s->keys = arena_memdup(op->ctx->arena, keys, sizeof(SortKey) * (size_t)(nkeys ? nkeys : 1));
}
