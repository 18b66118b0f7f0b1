/*
 * setop.c — INTERSECT / EXCEPT [ALL] output, as PostgreSQL's HashSetOp
 * computes it: the planner groups the union of both inputs by every column
 * (NULLs equal) with the count of each row in the left and in the right
 * input; this operator emits each distinct row
 *
 *   INTERSECT      once if left > 0 and right > 0
 *   INTERSECT ALL  min(left, right) times
 *   EXCEPT         once if left > 0 and right = 0
 *   EXCEPT ALL     max(left - right, 0) times
 *
 * States: SO_READ (fetch a child batch) -> SO_EMIT (repeat rows of it,
 * VECTOR_SIZE at a time, resuming at (row, copies done)) -> SO_READ ...
 *
 * INTERFACE ROUTINES
 *   setop_new(ctx, child, kind, all)
 */
#include "exec/exec.h"

typedef struct SetOpOp {
	Operator op;
	SetOpKind kind;
	bool all;
	Batch *in;
	int64_t *reps;            /* copies per logical row of in */
	uint32_t row;
	int64_t done;
} SetOpOp;

static int
setop_open(Operator *op)
{
	SetOpOp *s = (SetOpOp *)op;
	s->in = NULL;
	return op_open(op->child);
}

static int64_t
copies(SetOpOp *s, int64_t l, int64_t r)
{
	if (s->kind == SETOP_INTERSECT)
		return s->all ? (l < r ? l : r) : (l > 0 && r > 0);
	return s->all ? (l > r ? l - r : 0) : (l > 0 && r == 0);
}

static int
read_batch(SetOpOp *s, bool *eof)
{
	Operator *op = &s->op;
	Batch *in;
	VectorView lv, rv;
	uint32_t i;
	int nc = op->child->ncols;

	TRY(op_next(op->child, &in));
	if (!in) {
		*eof = true;
		return FLOE_OK;
	}
	*eof = false;
	vector_view(&in->cols[nc - 2], &lv);
	vector_view(&in->cols[nc - 1], &rv);
	s->reps = arena_alloc(op->scratch, sizeof(int64_t) * (in->count + 1));
	for (i = 0; i < in->count; i++) {
		uint32_t r = in->sel ? in->sel[i] : i;
		uint32_t a = lv.sel ? lv.sel[r] : r, b = rv.sel ? rv.sel[r] : r;
		int64_t l = validity_get(lv.validity, a) ? ((const int64_t *)lv.data)[a] : 0;
		int64_t x = validity_get(rv.validity, b) ? ((const int64_t *)rv.data)[b] : 0;
		s->reps[i] = copies(s, l, x);
	}
	s->in = in;
	s->row = 0;
	s->done = 0;
	return FLOE_OK;
}

static int
setop_next(Operator *op, Batch **out)
{
	SetOpOp *s = (SetOpOp *)op;
	Arena *keep = op->scratch;

	for (;;) {
		uint32_t *rows, n = 0;
		Batch *b;
		int j;

		TRY(exec_check_cancel(op->ctx));
		if (!s->in || s->row >= s->in->count) {
			bool eof;
			arena_reset(keep);
			TRY(read_batch(s, &eof));
			if (eof) {
				*out = NULL;
				return FLOE_OK;
			}
		}
		rows = arena_alloc(keep, sizeof(uint32_t) * VECTOR_SIZE);
		while (s->row < s->in->count && n < VECTOR_SIZE) {
			if (s->done < s->reps[s->row]) {
				rows[n++] = s->in->sel ? s->in->sel[s->row] : s->row;
				s->done++;
			} else {
				s->row++;
				s->done = 0;
			}
		}
		if (n == 0)
			continue;
		b = ARENA_NEW(keep, Batch);
		b->ncols = op->ncols;
		b->cols = ARENA_ARRAY(keep, Vector, op->ncols + 1);
		b->count = n;
		b->arena = keep;
		for (j = 0; j < op->ncols; j++) {
			vector_init(&b->cols[j], op->types[j], keep, n);
			vector_copy_rows(&b->cols[j], 0, &s->in->cols[j], rows, n);
		}
		op->rows_out += n;
		*out = b;
		return FLOE_OK;
	}
}

static void
setop_close(Operator *op)
{
	op_close(op->child);
}

static const OperatorVT setop_vt = { "SetOp", setop_open, setop_next, setop_close };

Operator *
setop_new(ExecCtx *ctx, Operator *child, SetOpKind kind, bool all)
{
	SetOpOp *s = ARENA_NEW(ctx->arena, SetOpOp);

	op_init(&s->op, &setop_vt, ctx, child->ncols - 2, child->types, child);
	s->kind = kind;
	s->all = all;
	return &s->op;
}
