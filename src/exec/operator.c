/*
 * operator.c — parts shared by every operator: construction, cancellation.
 */
#include <string.h>
#include "exec/exec.h"

void
op_init(Operator *op, const OperatorVT *vt, ExecCtx *ctx, int ncols, const SqlType *types,
	Operator *child)
{
	op->vt = vt;
	op->ctx = ctx;
	op->ncols = ncols;
	op->types = ARENA_ARRAY(ctx->arena, SqlType, ncols ? ncols : 1);
	if (ncols)
		memcpy(op->types, types, sizeof(SqlType) * (size_t)ncols);
	op->child = child;
	op->scratch = arena_new(64 * 1024);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, op->scratch);
}

int
exec_check_cancel(ExecCtx *ctx)
{
	if (ctx->cancel && *ctx->cancel)
		return floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED,
				   "canceling statement due to user request");
	return FLOE_OK;
}

/* Release the scratch memory of the last batch (the arena itself is freed
 * with the statement's arena). */
void
op_free_scratch(Operator *op)
{
	if (op && op->scratch)
		arena_reset(op->scratch);
}
