/*
 * lateral.c — LATERAL joins: a nested loop that runs its right input once
 * per left row (PostgreSQL's Nested Loop with parameters).
 *
 * The right plan was built with its own ExecCtx `rctx` whose params array
 * holds the left input's columns: before each run, the current left row's
 * values are stored there and the right plan is re-opened, so its
 * expressions' parameter references (EXPR_PARAM_BASE + k, expr.c) read
 * that row.  Each right batch becomes one output batch: the left row's
 * values as CONST vectors, then the right batch's columns, narrowed by the
 * join condition (over left then right columns) when there is one.  LEFT:
 * a left row with no right row passing the condition is emitted once with
 * NULLs on the right.
 *
 * Invariants:
 *   1. the left batch and the right batch an output batch refers to stay
 *      valid until the next call (the right input is only pulled from
 *      inside next()).
 *   2. params values point into the current left batch: the right plan
 *      runs to its end before the left input is pulled again.
 *
 * INTERFACE ROUTINES
 *   lateral_new(ctx, left, right, rctx, type, cond)
 */
#include <string.h>
#include "exec/exec.h"

typedef struct LateralOp {
	Operator op;
	Operator *left, *right;
	ExecCtx *rctx;
	JoinType type;
	Expr *cond;
	Batch *lb;                 /* current left batch (compacted) */
	uint32_t li;               /* current left row */
	bool right_open;
	bool matched;
	uint32_t *sel;
} LateralOp;

static int
lat_open(Operator *op)
{
	LateralOp *l = (LateralOp *)op;

	l->lb = NULL;
	l->right_open = false;
	return op_open(l->left);
}

/* The output batch: left row li as constants, then `nr` right columns. */
static Batch *
pair_batch(LateralOp *l, const Batch *rb, uint32_t count)
{
	Operator *op = &l->op;
	Batch *b = ARENA_NEW(op->scratch, Batch);
	int nl = l->left->ncols, c;

	b->ncols = op->ncols;
	b->cols = ARENA_ARRAY(op->scratch, Vector, op->ncols ? op->ncols : 1);
	b->arena = op->scratch;
	for (c = 0; c < nl; c++)
		vector_init_const(&b->cols[c], &l->rctx->params[c], op->scratch);
	for (c = nl; c < op->ncols; c++) {
		if (rb) {
			b->cols[c] = rb->cols[c - nl];
		} else {
			Value v = value_null(op->types[c]);
			vector_init_const(&b->cols[c], &v, op->scratch);
		}
	}
	b->count = count;
	return b;
}

static int
lat_next(Operator *op, Batch **out)
{
	LateralOp *l = (LateralOp *)op;
	int nl = l->left->ncols, c;

	arena_reset(op->scratch);
	for (;;) {
		Batch *rb, *b;

		TRY(exec_check_cancel(op->ctx));
		if (!l->lb) {
			Batch *in;
			TRY(op_next(l->left, &in));
			if (!in) {
				*out = NULL;
				return FLOE_OK;
			}
			if (!in->count)
				continue;
			batch_compact(in);
			l->lb = in;
			l->li = 0;
		}
		if (!l->right_open) {
			for (c = 0; c < nl; c++) {
				vector_get_value(&l->lb->cols[c], l->li, &l->rctx->params[c]);
				l->rctx->params[c].type = l->left->types[c];
			}
			TRY(op_open(l->right));
			l->right_open = true;
			l->matched = false;
		}
		TRY(op_next(l->right, &rb));
		if (!rb) {
			bool emit_null = l->type == JOIN_LEFT && !l->matched;
			op_close(l->right);
			l->right_open = false;
			b = emit_null ? pair_batch(l, NULL, 1) : NULL;
			if (++l->li >= l->lb->count)
				l->lb = NULL;   /* params still point into it: b is built */
			if (b) {
				op->rows_out += 1;
				*out = b;
				return FLOE_OK;
			}
			continue;
		}
		if (!rb->count)
			continue;
		batch_compact(rb);
		b = pair_batch(l, rb, rb->count);
		if (l->cond) {
			Vector v;
			VectorView vv;
			uint32_t i, m = 0;
			if (rb->count > VECTOR_SIZE)
				l->sel = ARENA_ARRAY(op->scratch, uint32_t, rb->count);
			else if (!l->sel)
				l->sel = ARENA_ARRAY(op->ctx->arena, uint32_t, VECTOR_SIZE);
			TRY(expr_eval(op->ctx, l->cond, b, NULL, b->count, op->scratch, &v));
			vector_view(&v, &vv);
			for (i = 0; i < b->count; i++) {
				uint32_t k = vv.sel ? vv.sel[i] : i;
				if (validity_get(vv.validity, k) && ((const uint8_t *)vv.data)[k])
					l->sel[m++] = i;
			}
			if (!m)
				continue;
			b->sel = l->sel;
			b->count = m;
		}
		l->matched = true;
		op->rows_out += b->count;
		*out = b;
		return FLOE_OK;
	}
}

static void
lat_close(Operator *op)
{
	LateralOp *l = (LateralOp *)op;

	if (l->right_open)
		op_close(l->right);
	l->right_open = false;
	l->lb = NULL;
	op_close(l->left);
}

static const OperatorVT lateral_vt = { "Nested Loop", lat_open, lat_next, lat_close };

Operator *
lateral_new(ExecCtx *ctx, Operator *left, Operator *right, ExecCtx *rctx, JoinType type,
	    Expr *cond)
{
	LateralOp *l = ARENA_NEW(ctx->arena, LateralOp);
	int nl = left->ncols, nr = right->ncols;
	SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, nl + nr + 1);

	if (nl)
		memcpy(types, left->types, sizeof(SqlType) * (size_t)nl);
	if (nr)
		memcpy(types + nl, right->types, sizeof(SqlType) * (size_t)nr);
	op_init(&l->op, &lateral_vt, ctx, nl + nr, types, NULL);
	l->left = left;
	l->right = right;
	l->rctx = rctx;
	l->type = type;
	l->cond = cond;
	l->op.inputs = ARENA_ARRAY(ctx->arena, Operator *, 2);
	l->op.inputs[0] = left;
	l->op.inputs[1] = right;
	l->op.ninputs = 2;
	l->op.label = type == JOIN_LEFT ? "Nested Loop Left Join" : "Nested Loop";
	return &l->op;
}
