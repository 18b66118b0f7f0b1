/*
 * limit.c — LIMIT / OFFSET over the child's rows.
 *
 * INTERFACE ROUTINES
 *   limit_new(ctx, child, limit, offset)      limit -1 = no limit
 */
#include "exec/exec.h"

typedef struct LimitOp {
	Operator op;
	int64_t limit, offset;
	int64_t skipped, emitted;
	Batch out;
} LimitOp;

static int
limit_open(Operator *op)
{
	LimitOp *l = (LimitOp *)op;
	l->skipped = l->emitted = 0;
	return op_open(op->child);
}

static int
limit_next(Operator *op, Batch **out)
{
	LimitOp *l = (LimitOp *)op;

	arena_reset(op->scratch);
	for (;;) {
		Batch *in;
		uint32_t start = 0, n, i;
		uint32_t *sel;

		if (l->limit >= 0 && l->emitted >= l->limit) {
			*out = NULL;
			return FLOE_OK;
		}
		TRY(op_next(op->child, &in));
		if (!in) {
			*out = NULL;
			return FLOE_OK;
		}
		if (l->skipped < l->offset) {
			int64_t skip = l->offset - l->skipped;
			if (skip >= in->count) {
				l->skipped += in->count;
				continue;
			}
			start = (uint32_t)skip;
			l->skipped += skip;
		}
		n = in->count - start;
		if (l->limit >= 0 && (int64_t)n > l->limit - l->emitted)
			n = (uint32_t)(l->limit - l->emitted);
		if (n == 0)
			continue;
		sel = arena_alloc(op->scratch, sizeof(uint32_t) * n);
		for (i = 0; i < n; i++)
			sel[i] = in->sel ? in->sel[start + i] : start + i;
		l->out = *in;
		l->out.count = n;
		l->out.sel = sel;
		l->emitted += n;
		op->rows_out += n;
		*out = &l->out;
		return FLOE_OK;
	}
}

static void
limit_close(Operator *op)
{
	op_close(op->child);
}

static const OperatorVT limit_vt = { "Limit", limit_open, limit_next, limit_close };

Operator *
limit_new(ExecCtx *ctx, Operator *child, int64_t limit, int64_t offset)
{
	LimitOp *l = ARENA_NEW(ctx->arena, LimitOp);
	op_init(&l->op, &limit_vt, ctx, child->ncols, child->types, child);
	l->limit = limit;
	l->offset = offset;
	return &l->op;
}
