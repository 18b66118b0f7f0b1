/*
 * filter.c — WHERE / HAVING: keeps the rows whose predicate is true, by
 * narrowing the batch's selection vector (no copying).
 *
 * Clonable for parallel pipelines (parallel.c): the predicate is shared.
 *
 * INTERFACE ROUTINES
 *   filter_new(ctx, child, pred)
 */
#include "exec/exec.h"

typedef struct FilterOp {
	Operator op;
	Expr *pred;
	Batch out;
} FilterOp;

static int
filter_open(Operator *op)
{
	return op_open(op->child);
}

static int
filter_next(Operator *op, Batch **out)
{
	FilterOp *f = (FilterOp *)op;

	arena_reset(op->scratch);
	for (;;) {
		Batch *in;
		Vector pv;
		VectorView v;
		uint32_t *sel, i, n = 0;

		TRY(exec_check_cancel(op->ctx));
		TRY(op_next(op->child, &in));
		if (!in) {
			*out = NULL;
			return FLOE_OK;
		}
		if (in->count == 0)
			continue;
		TRY(expr_eval(op->ctx, f->pred, in, in->sel, in->count, op->scratch, &pv));
		vector_view(&pv, &v);
		sel = arena_alloc(op->scratch, sizeof(uint32_t) * in->count);
		for (i = 0; i < in->count; i++) {
			uint32_t r = in->sel ? in->sel[i] : i;
			uint32_t k = v.sel ? v.sel[r] : r;
			if (validity_get(v.validity, k) && ((const uint8_t *)v.data)[k])
				sel[n++] = r;
		}
		if (n == 0)
			continue;
		f->out = *in;
		f->out.count = n;
		f->out.sel = (n == in->count && !in->sel) ? NULL : sel;
		op->rows_out += n;
		*out = &f->out;
		return FLOE_OK;
	}
}

static void
filter_close(Operator *op)
{
	op_close(op->child);
}

static Operator *
filter_clone(Operator *op, ExecCtx *wctx)
{
	Operator *c = exec_clone(op->child, wctx);
	return c ? filter_new(wctx, c, ((FilterOp *)op)->pred) : NULL;
}

static const OperatorVT filter_vt = { "Filter", filter_open, filter_next, filter_close };

Operator *
filter_new(ExecCtx *ctx, Operator *child, Expr *pred)
{
	FilterOp *f = ARENA_NEW(ctx->arena, FilterOp);
	op_init(&f->op, &filter_vt, ctx, child->ncols, child->types, child);
	f->pred = pred;
	f->op.clone = filter_clone;
	scan_set_prune(child, pred);
	return &f->op;
}
