/*
 * values.c — VALUES lists: rows of constant expressions, produced in
 * batches of up to VECTOR_SIZE rows.  Also the one empty row of a SELECT
 * without FROM (ncols = 0, nrows = 1).
 *
 * INTERFACE ROUTINES
 *   values_new(ctx, ncols, types, nrows, rows)
 */
#include "exec/exec.h"

typedef struct ValuesOp {
	Operator op;
	int nrows;
	Expr ***rows;
	int pos;
} ValuesOp;

static int
values_open(Operator *op)
{
	((ValuesOp *)op)->pos = 0;
	return FLOE_OK;
}

static int
values_next(Operator *op, Batch **out)
{
	ValuesOp *v = (ValuesOp *)op;
	Batch *b;
	int n, i, c;

	arena_reset(op->scratch);
	if (v->pos >= v->nrows) {
		*out = NULL;
		return FLOE_OK;
	}
	n = v->nrows - v->pos;
	if (n > VECTOR_SIZE)
		n = VECTOR_SIZE;
	b = batch_new(op->scratch, op->ncols, op->types, (uint32_t)n);
	for (i = 0; i < n; i++) {
		Expr **row = v->rows[v->pos + i];
		for (c = 0; c < op->ncols; c++) {
			Value val;
			TRY(expr_eval_const(row[c], op->ctx->env, op->scratch, &val, op->ctx->err));
			vector_set_value(&b->cols[c], (uint32_t)i, &val);
		}
	}
	b->count = (uint32_t)n;
	v->pos += n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
values_close(Operator *op)
{
	(void)op;
}

static const OperatorVT values_vt = { "Values", values_open, values_next, values_close };

Operator *
values_new(ExecCtx *ctx, int ncols, const SqlType *types, int nrows, Expr ***rows)
{
	ValuesOp *v = ARENA_NEW(ctx->arena, ValuesOp);
	op_init(&v->op, &values_vt, ctx, ncols, types, NULL);
	v->nrows = nrows;
	v->rows = rows;
	v->op.est_rows = nrows;
	return &v->op;
}
