/*
 * operator.c — parts shared by every operator: construction, cancellation,
 * the memory account check (exec_check_mem), the driver loop's step
 * (op_next_rows), and the EXPLAIN ANALYZE
 * wrappers of open/next (op_open / op_next call them when op->instr is
 * set): loops, rows, inclusive time.
 */
#include <string.h>
#include <time.h>
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
	op->est_rows = -1;
	op->scratch = arena_new(64 * 1024);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, op->scratch);
}

static MemAccount *
ctx_account(const ExecCtx *ctx)
{
	return ctx->mem ? ctx->mem : memacct_current();
}

int
exec_check_mem(ExecCtx *ctx)
{
	MemAccount *m = ctx_account(ctx);

	if (memacct_exceeded(m))
		return memacct_error(m, ctx->err);
	return FLOE_OK;
}

int
exec_check_cancel(ExecCtx *ctx)
{
	if (ctx->cancel && *ctx->cancel)
		return floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED,
				   "canceling statement due to user request");
	return exec_check_mem(ctx);
}

int
op_next_rows(ExecCtx *ctx, Operator *op, Arena *scratch, Batch **out)
{
	for (;;) {
		if (scratch)
			arena_reset(scratch);
		TRY(exec_check_cancel(ctx));
		TRY(op_next(op, out));
		if (!*out)
			return FLOE_OK;
		if ((*out)->count) {
			batch_compact(*out);
			return FLOE_OK;
		}
	}
}

/* Release the scratch memory of the last batch (the arena itself is freed
 * with the statement's arena). */
void
op_free_scratch(Operator *op)
{
	if (op && op->scratch)
		arena_reset(op->scratch);
}

static int64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
op_open_instr(Operator *op)
{
	OpInstr *in = op->instr;
	int64_t t0 = now_ns();
	int rc = op->vt->open(op);

	in->loops++;
	in->got_first = false;
	in->total_ns += now_ns() - t0;
	return rc;
}

int
op_next_instr(Operator *op, Batch **out)
{
	OpInstr *in = op->instr;
	int64_t t0 = now_ns(), dt;
	int rc = op->vt->next(op, out);

	dt = now_ns() - t0;
	in->total_ns += dt;
	if (!in->got_first) {
		/* startup: open + until the first batch */
		in->first_ns = in->total_ns;
		in->got_first = true;
	}
	if (rc == FLOE_OK && *out)
		in->rows += (*out)->count;
	return rc;
}
