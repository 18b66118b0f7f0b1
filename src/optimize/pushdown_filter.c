/*
 * pushdown_filter.c — the filter_pushdown pass (optimize/optimizer.h): the
 * conjuncts of a Filter directly over a Get become the Get's pushed-down
 * filters (LogicalOp.exprs of a GET), and a Filter left without conjuncts
 * disappears.
 *
 * A Get's filters are what its scan must apply: physical.c lowers them as a
 * Filter over the scan today (whose operator gives Parquet pruning the
 * predicates, exec/filter.c), and a scan that evaluates them itself
 * (row-group and page filters, bloom filters) can take them from there
 * later without any other pass changing.  The conjuncts read only the Get's
 * columns (a Filter's input is its child), so moving them keeps every
 * ColumnId valid; their order is kept (the binder put cheap ones first).
 * Filters over joins, aggregates and the rest stay where they are: pushing
 * through them is the next step of this pass.
 */
#include "optimize/optimizer.h"

#include <string.h>

static void
push(LogicalPlan *plan, LogicalOp **at, bool *changed)
{
	LogicalOp *op = *at;

	for (int i = 0; i < op->nchildren; i++)
		push(plan, &op->children[i], changed);
	if (op->kind == LOP_FILTER && op->nchildren == 1 && op->children[0]->kind == LOP_GET &&
	    op->nexprs > 0) {
		LogicalOp *g = op->children[0];
		Expr **all = arena_alloc(plan->arena, sizeof *all * (size_t)(g->nexprs + op->nexprs));
		if (g->nexprs)
			memcpy(all, g->exprs, sizeof *all * (size_t)g->nexprs);
		memcpy(all + g->nexprs, op->exprs, sizeof *all * (size_t)op->nexprs);
		g->exprs = all;
		g->nexprs += op->nexprs;
		if (op->est_rows >= 0)
			g->est_rows = op->est_rows;
		*at = g;
		*changed = true;
	}
}

int
opt_pushdown_filter(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err)
{
	(void)err;
	*changed = false;
	push(plan, root, changed);
	return FLOE_OK;
}
