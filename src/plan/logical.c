/*
 * logical.c — constructors of logical plan nodes (plan/logical.h).
 *
 * Nodes and their arrays live in the plan's arena.  A constructor makes the
 * node and links its children; the caller then fills the payload of its
 * kind and its output columns (lop_add_column allocates a fresh ColumnId,
 * lop_pass_columns copies a child's columns with their ids: FILTER, SORT,
 * LIMIT and DISTINCT produce exactly what they read).
 */
#include "plan/logical.h"

#include <stdarg.h>
#include <string.h>

LogicalPlan *
lplan_new(Arena *arena)
{
	LogicalPlan *p = arena_calloc(arena, sizeof *p);
	p->arena = arena;
	p->next_id = 1;
	p->next_cte = 1;
	return p;
}

ColumnId
lplan_column(LogicalPlan *plan)
{
	return plan->next_id++;
}

LogicalOp *
lop_new(LogicalPlan *plan, LogicalKind kind, int nchildren, ...)
{
	LogicalOp *op = arena_calloc(plan->arena, sizeof *op);
	va_list ap;

	op->kind = kind;
	op->est_rows = -1;
	op->nchildren = nchildren;
	if (nchildren > 0) {
		op->children = arena_calloc(plan->arena, sizeof *op->children * (size_t)nchildren);
		va_start(ap, nchildren);
		for (int i = 0; i < nchildren; i++)
			op->children[i] = va_arg(ap, LogicalOp *);
		va_end(ap);
	}
	return op;
}

static void
grow_cols(LogicalPlan *plan, LogicalOp *op, int n)
{
	LogicalColumn *c = arena_alloc(plan->arena, sizeof *c * (size_t)n);
	if (op->ncols)
		memcpy(c, op->cols, sizeof *c * (size_t)op->ncols);
	op->cols = c;
}

ColumnId
lop_add_column(LogicalPlan *plan, LogicalOp *op, SqlType type, const char *name)
{
	grow_cols(plan, op, op->ncols + 1);
	op->cols[op->ncols].id = lplan_column(plan);
	op->cols[op->ncols].type = type;
	op->cols[op->ncols].name = name ? arena_strdup(plan->arena, name) : NULL;
	return op->cols[op->ncols++].id;
}

void
lop_pass_columns(LogicalPlan *plan, LogicalOp *op, const LogicalOp *child)
{
	if (child->ncols == 0)
		return;
	grow_cols(plan, op, op->ncols + child->ncols);
	memcpy(op->cols + op->ncols, child->cols, sizeof *op->cols * (size_t)child->ncols);
	op->ncols += child->ncols;
}

int
lop_find_column(const LogicalOp *op, ColumnId id)
{
	for (int i = 0; i < op->ncols; i++)
		if (op->cols[i].id == id)
			return i;
	return -1;
}

void
lop_set_exprs(LogicalPlan *plan, LogicalOp *op, int n, Expr **exprs)
{
	op->nexprs = n;
	op->exprs = n ? arena_memdup(plan->arena, exprs, sizeof *exprs * (size_t)n) : NULL;
}

const char *
lop_kind_name(LogicalKind kind)
{
	switch (kind) {
	case LOP_GET: return "Get";
	case LOP_FILTER: return "Filter";
	case LOP_PROJECT: return "Project";
	case LOP_JOIN: return "Join";
	case LOP_AGGREGATE: return "Aggregate";
	case LOP_WINDOW: return "Window";
	case LOP_SORT: return "Sort";
	case LOP_LIMIT: return "Limit";
	case LOP_DISTINCT: return "Distinct";
	case LOP_SETOP: return "SetOp";
	case LOP_VALUES: return "Values";
	case LOP_TABLE_FUNC: return "TableFunction";
	case LOP_CTE: return "CTE";
	case LOP_CTE_REF: return "CTERef";
	case LOP_INSERT: return "Insert";
	case LOP_UPDATE: return "Update";
	case LOP_DELETE: return "Delete";
	case LOP_MERGE: return "Merge";
	case LOP_OPERATOR: return "Operator";
	}
	return "?";
}

LogicalOp *
lop_operator(LogicalPlan *plan, Operator *physical, char *const *names)
{
	LogicalOp *op = lop_new(plan, LOP_OPERATOR, 0);
	op->physical = physical;
	op->est_rows = physical->est_rows;
	for (int i = 0; i < physical->ncols; i++)
		lop_add_column(plan, op, physical->types[i], names ? names[i] : NULL);
	return op;
}

Expr *
lexpr_by_id(LogicalPlan *plan, const Expr *e, const LogicalOp *in, floe_error *err)
{
	Expr *c;

	if (!e)
		return NULL;
	c = arena_memdup(plan->arena, e, sizeof *e);
	if (e->kind == EXPR_COLREF && e->col < EXPR_PARAM_BASE) {
		if (e->col < 0 || e->col >= in->ncols) {
			floe_errorf(err, ERRCODE_INTERNAL_ERROR,
				    "logical plan: column %d read from a %s node of %d columns", e->col,
				    lop_kind_name(in->kind), in->ncols);
			return NULL;
		}
		c->col = (int)in->cols[e->col].id;
		return c;
	}
	if (e->nargs) {
		c->args = arena_alloc(plan->arena, sizeof *c->args * (size_t)e->nargs);
		for (int i = 0; i < e->nargs; i++)
			if ((c->args[i] = lexpr_by_id(plan, e->args[i], in, err)) == NULL && e->args[i])
				return NULL;
	}
	return c;
}
