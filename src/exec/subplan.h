/*
 * subplan.h — correlated subqueries run once per outer row (PostgreSQL's
 * SubPlan); see subplan.c.
 */
#ifndef FLOE_EXEC_SUBPLAN_H
#define FLOE_EXEC_SUBPLAN_H

#include "exec/exec.h"
#include "exec/expr.h"

typedef enum SubPlanKind {
	SUBPLAN_EXPR,     /* scalar: its one value, NULL for no row, 21000 for two */
	SUBPLAN_EXISTS,   /* EXISTS: true when a row comes */
	SUBPLAN_ANY,      /* x op ANY (IN is = ANY): three-valued OR */
	SUBPLAN_ALL       /* x op ALL: three-valued AND */
} SubPlanKind;

typedef struct SubPlan {
	SubPlanKind kind;
	Operator *root;    /* planned in rctx, outer columns = rctx->params */
	ExecCtx *rctx;
	int nparams;       /* the Expr's args[j], j < nparams, fills params[param_idx[j]] */
	int *param_idx;
	Expr *cmp;         /* ANY/ALL: x op v, x = column 0, v = column 1 */
	/* argument values -> result, bounded (subplan.c); NULL until the first
	 * row, freed with the statement's arena */
	struct SubCache *cache;
} SubPlan;

/* Evaluate an EXPR_SUBPLAN over the rows sel[0..n) of in (expr_eval's
 * contract). */
int subplan_eval(ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel,
		 uint32_t n, Arena *scratch, Vector *out);

#endif
