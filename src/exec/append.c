/*
 * append.c — UNION ALL: the batches of each child in turn, unchanged.
 *
 * States: child index i; APPEND_RUN while i < nchildren, then done.
 * Invariant: every child produces the operator's column types (the
 * planner coerces each branch before appending).
 *
 * INTERFACE ROUTINES
 *   append_new(ctx, nchildren, children)
 */
#include "exec/exec.h"

typedef struct AppendOp {
	Operator op;
	int n, cur;
	Operator **children;
} AppendOp;

static int
append_open(Operator *op)
{
	AppendOp *a = (AppendOp *)op;
	int i;

	for (i = 0; i < a->n; i++)
		TRY(op_open(a->children[i]));
	a->cur = 0;
	return FLOE_OK;
}

static int
append_next(Operator *op, Batch **out)
{
	AppendOp *a = (AppendOp *)op;

	while (a->cur < a->n) {
		Batch *b;
		TRY(exec_check_cancel(op->ctx));
		TRY(op_next(a->children[a->cur], &b));
		if (!b) {
			a->cur++;
			continue;
		}
		if (b->count == 0)
			continue;
		op->rows_out += b->count;
		*out = b;
		return FLOE_OK;
	}
	*out = NULL;
	return FLOE_OK;
}

static void
append_close(Operator *op)
{
	AppendOp *a = (AppendOp *)op;
	int i;

	for (i = 0; i < a->n; i++)
		op_close(a->children[i]);
}

static const OperatorVT append_vt = { "Append", append_open, append_next, append_close };

Operator *
append_new(ExecCtx *ctx, int nchildren, Operator **children)
{
	AppendOp *a = ARENA_NEW(ctx->arena, AppendOp);

	op_init(&a->op, &append_vt, ctx, children[0]->ncols, children[0]->types, NULL);
	a->n = nchildren;
	a->children = children;
	a->op.inputs = children;
	a->op.ninputs = nchildren;
	return &a->op;
}
