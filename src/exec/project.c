/*
 * project.c — the select list: one output column per expression.  Output
 * batches are dense (no selection vector): a filtered input is evaluated
 * under its selection and the results gathered.
 *
 * Clonable for parallel pipelines (parallel.c): the expressions are shared.
 *
 * INTERFACE ROUTINES
 *   project_new(ctx, child, nexprs, exprs)
 */
#include <string.h>
#include "exec/exec.h"

typedef struct ProjectOp {
	Operator op;
	Expr **exprs;
} ProjectOp;

static int
project_open(Operator *op)
{
	return op_open(op->child);
}

static int
project_next(Operator *op, Batch **out)
{
	ProjectOp *p = (ProjectOp *)op;
	Batch *in, *b;
	int c;

	arena_reset(op->scratch);
	TRY(exec_check_cancel(op->ctx));
	TRY(op_next(op->child, &in));
	if (!in) {
		*out = NULL;
		return FLOE_OK;
	}
	b = ARENA_NEW(op->scratch, Batch);
	b->ncols = op->ncols;
	b->cols = ARENA_ARRAY(op->scratch, Vector, op->ncols ? op->ncols : 1);
	b->count = in->count;
	b->arena = op->scratch;
	for (c = 0; c < op->ncols; c++) {
		Vector v;
		TRY(expr_eval(op->ctx, p->exprs[c], in, in->sel, in->count, op->scratch, &v));
		if (in->sel && v.kind != VECTOR_CONST) {
			vector_init(&b->cols[c], v.type, op->scratch, in->count);
			vector_copy_rows(&b->cols[c], 0, &v, in->sel, in->count);
		} else {
			b->cols[c] = v;
		}
		b->cols[c].type = op->types[c];
	}
	op->rows_out += b->count;
	*out = b;
	return FLOE_OK;
}

static void
project_close(Operator *op)
{
	op_close(op->child);
}

static Operator *
project_clone(Operator *op, ExecCtx *wctx)
{
	Operator *c = exec_clone(op->child, wctx), *p;

	if (!c)
		return NULL;
	p = project_new(wctx, c, op->ncols, ((ProjectOp *)op)->exprs);
	if (op->ncols)
		memcpy(p->types, op->types, sizeof(SqlType) * (size_t)op->ncols);
	return p;
}

static const OperatorVT project_vt = { "Project", project_open, project_next, project_close };

Operator *
project_new(ExecCtx *ctx, Operator *child, int nexprs, Expr **exprs)
{
	ProjectOp *p = ARENA_NEW(ctx->arena, ProjectOp);
	SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, nexprs ? nexprs : 1);
	int i;

	for (i = 0; i < nexprs; i++)
		types[i] = exprs[i]->type;
	op_init(&p->op, &project_vt, ctx, nexprs, types, child);
	p->exprs = exprs;
	p->op.clone = project_clone;
	return &p->op;
}
