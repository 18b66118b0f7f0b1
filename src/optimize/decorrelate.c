/*
 * decorrelate.c — the decorrelate pass (optimize/optimizer.h): a correlated
 * scalar subquery over equality correlation becomes a LEFT join with the
 * subquery grouped on its correlated keys.
 *
 *   Join DEPENDENT SINGLE corr [...]            Join LEFT REDUCE ON o1 = #k1 ...
 *     L                                    =>     L
 *     Aggregate keys [] aggs [...]                Aggregate keys [#k1 := i1 ...] aggs [...]
 *       Filter o1 = i1 AND ... AND rest             Filter rest        (gone when empty)
 *         X                                           X
 *
 * where each oN reads only L's columns and each iN only X's, every
 * conjunct that reads L is such an equality, and nothing else below the
 * join reads L.  The join's output is L's columns, then the Aggregate's:
 * the new key columns (#k1 ...) join them, and the nodes above that pass
 * their children's columns on (Filter, Sort, Limit, Distinct, Join, CTE)
 * are widened to match, up to the first node that makes its own (a
 * Project), so no reader above changes.
 *
 * Why the answer is the same: for a left row whose keys have inner rows,
 * the group of those keys is exactly the rows the dependent aggregate saw
 * (the equalities are true only for non-NULL equal values, so a group
 * with a NULL key never matches); for a left row with none (or a NULL
 * key) the dependent aggregate is over no rows — NULL for every
 * aggregate but count — and the LEFT join gives NULLs.  count() is 0 over
 * no rows: its readers read coalesce(c, 0) (plan/logical.h, SINGLE; the
 * binder's rule), and an aggregate other than count whose value over no
 * rows is not NULL (regr_count) keeps the dependent form.
 *
 * The join is marked REDUCE when the left side is not estimated larger
 * than X: physical.c then materialises the left rows once and semi-joins
 * X's rows with their keys before grouping (a magic-set reduction), so only
 * the groups some left row needs are built.
 *
 * GROUPED: the Aggregate may have keys when each is one of the
 * correlated inner sides (GROUP BY the correlated column: one group per
 * left row at most, none over no inner rows, so NULL both ways and no
 * coalesce), with Filters (HAVING) between it and the join; the keys keep
 * their columns and the other inner sides are added after them.  HAVING
 * over an ungrouped aggregate keeps the dependent form.
 *
 * Not decorrelated (lowered per left row by physical.c, exec/lateral.c):
 * other correlation, a right side of another shape.
 */
#include "optimize/optimizer.h"

#include <string.h>

#include "func/func.h"

/* does e read a column of op (a ColumnId among op's outputs)? */
static bool
reads(const Expr *e, const LogicalOp *op)
{
	if (!e)
		return false;
	if (e->kind == EXPR_COLREF && e->col < EXPR_PARAM_BASE && lop_find_column(op, (ColumnId)e->col) >= 0)
		return true;
	for (int i = 0; i < e->nargs; i++)
		if (reads(e->args[i], op))
			return true;
	return false;
}

/* does every column e reads come from op (parameters aside), and e read
 * one? */
static bool
only(const Expr *e, const LogicalOp *op, bool *any)
{
	if (e->kind == EXPR_COLREF && e->col >= EXPR_PARAM_BASE)
		return true;
	if (e->kind == EXPR_COLREF) {
		*any = true;
		return lop_find_column(op, (ColumnId)e->col) >= 0;
	}
	if (e->kind == EXPR_SUBPLAN)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (e->args[i] && !only(e->args[i], op, any))
			return false;
	return true;
}

static bool
over(const Expr *e, const LogicalOp *op)
{
	bool any = false;
	return only(e, op, &any) && any;
}

static bool
list_reads(int n, Expr *const *es, const LogicalOp *l)
{
	for (int i = 0; i < n; i++)
		if (reads(es[i], l))
			return true;
	return false;
}

/* does any expression of the subtree at op read a column of l? */
static bool
subtree_reads(const LogicalOp *op, const LogicalOp *l)
{
	if (list_reads(op->nexprs, op->exprs, l))
		return true;
	for (int i = 0; i < op->naggs; i++) {
		const AggCall *a = &op->aggs[i];
		if (reads(a->arg, l) || reads(a->arg2, l) || reads(a->filter, l))
			return true;
		for (int k = 0; k < a->norder; k++)
			if (reads(a->order[k].e, l))
				return true;
	}
	for (int i = 0; i < op->nkeys; i++)
		if (reads(op->keys[i].e, l))
			return true;
	for (int s = 0; s < op->nspecs; s++)
		if (list_reads(op->specs[s].npart, op->specs[s].part, l) ||
		    list_reads(op->specs[s].norder, op->specs[s].order, l))
			return true;
	for (int i = 0; i < op->ncalls; i++)
		if (reads(op->calls[i].arg, l) || reads(op->calls[i].arg2, l) || reads(op->calls[i].arg3, l))
			return true;
	for (int r = 0; r < op->nrows; r++)
		if (list_reads(op->ncols, op->rows[r], l))
			return true;
	for (int i = 0; i < op->nchildren; i++)
		if (subtree_reads(op->children[i], l))
			return true;
	return false;
}

/* an aggregate whose value over no rows is not NULL and not count's 0 */
static bool
nonnull_on_empty(const AggCall *a)
{
	return a->fn && strcmp(a->fn->name, "regr_count") == 0;
}

/* j's output columns again from its children (a node that passes them) */
static void
refresh(LogicalPlan *plan, LogicalOp *op)
{
	switch (op->kind) {
	case LOP_FILTER: case LOP_SORT: case LOP_LIMIT: case LOP_DISTINCT:
		if (op->ncols != op->children[0]->ncols) {
			op->ncols = 0;      /* lop_pass_columns appends */
			lop_pass_columns(plan, op, op->children[0]);
		}
		break;
	case LOP_CTE:
		if (op->ncols != op->children[1]->ncols) {
			op->ncols = 0;
			lop_pass_columns(plan, op, op->children[1]);
		}
		break;
	case LOP_JOIN: {
		const LogicalOp *l = op->children[0], *r = op->children[1];
		bool left_only = op->join == LJ_SEMI || op->join == LJ_ANTI || op->join == LJ_MARK;
		int n = l->ncols + (left_only ? 0 : r->ncols) + (op->join == LJ_MARK ? 1 : 0);
		LogicalColumn *cols;
		if (n == op->ncols)
			break;
		cols = arena_alloc(plan->arena, sizeof *cols * (size_t)(n + 1));
		memcpy(cols, l->cols, sizeof *cols * (size_t)l->ncols);
		if (!left_only)
			memcpy(cols + l->ncols, r->cols, sizeof *cols * (size_t)r->ncols);
		if (op->join == LJ_MARK)
			cols[n - 1] = op->cols[op->ncols - 1];
		op->cols = cols;
		op->ncols = n;
		break;
	}
	default:
		break;
	}
}

/* Decorrelate j if it has the shape above (or the grouped one); *done
 * when it did. */
static int
decorrelate_join(LogicalPlan *plan, LogicalOp *j, bool *done)
{
	LogicalOp *l = j->children[0], *ag = j->children[1], *f, *x, *having[8];
	Expr **keys, **cond, **rest;
	int nkeys = 0, nrest = 0, nhaving = 0, nold, nnew, *kcol, *kpos;
	LogicalColumn *cols;

	*done = false;
	while (ag->kind == LOP_FILTER && nhaving < 8) {
		having[nhaving++] = ag;
		ag = ag->children[0];
	}
	if (j->join != LJ_SINGLE || j->nexprs || ag->kind != LOP_AGGREGATE || ag->nsets ||
	    ag->ngroupings || ag->children[0]->kind != LOP_FILTER)
		return FLOE_OK;
	/* HAVING over an ungrouped aggregate may keep its row over no inner
	 * rows, which the LEFT join cannot give */
	if (nhaving && !ag->nexprs)
		return FLOE_OK;
	for (int h = 0; h < nhaving; h++)
		if (list_reads(having[h]->nexprs, having[h]->exprs, l))
			return FLOE_OK;
	f = ag->children[0];
	x = f->children[0];
	for (int i = 0; i < ag->naggs && !ag->nexprs; i++)
		if (nonnull_on_empty(&ag->aggs[i]))
			return FLOE_OK;
	if (subtree_reads(x, l))
		return FLOE_OK;
	{
		LogicalOp probe = *ag;   /* the aggregate's own expressions, not X's */
		probe.nchildren = 0;
		if (subtree_reads(&probe, l))
			return FLOE_OK;
	}
	keys = arena_alloc(plan->arena, sizeof *keys * (size_t)(f->nexprs + 1));
	cond = arena_alloc(plan->arena, sizeof *cond * (size_t)(f->nexprs + 1));
	rest = arena_alloc(plan->arena, sizeof *rest * (size_t)(f->nexprs + 1));
	kpos = arena_alloc(plan->arena, sizeof *kpos * (size_t)(f->nexprs + 1));
	for (int i = 0; i < f->nexprs; i++) {
		Expr *c = f->exprs[i];
		const Expr *a, *b;
		bool swap;
		if (!reads(c, l)) {
			rest[nrest++] = c;
			continue;
		}
		if (c->kind != EXPR_FUNC || c->nargs != 2 || !c->fn || strcmp(c->fn->name, "=") != 0 ||
		    !hash_join_key_ok(c->args[0]->type, c->args[1]->type))
			return FLOE_OK;
		a = c->args[0];
		b = c->args[1];
		swap = !(over(a, l) && over(b, x));
		if (swap && !(over(b, l) && over(a, x)))
			return FLOE_OK;
		/* the condition: c with its inner side the key column (argument
		 * order kept: the = was resolved for it) */
		keys[nkeys] = c->args[swap ? 0 : 1];
		kpos[nkeys] = swap ? 0 : 1;
		cond[nkeys] = arena_memdup(plan->arena, c, sizeof *c);
		cond[nkeys]->args = arena_alloc(plan->arena, sizeof *c->args * 2);
		cond[nkeys]->args[swap ? 1 : 0] = c->args[swap ? 1 : 0];
		nkeys++;
	}
	if (!nkeys)
		return FLOE_OK;
	/* a grouped subquery: each of its keys one of the correlated inner
	 * sides, so a left row sees one group at most (GROUP BY the correlated
	 * column); those keys keep their columns */
	nold = ag->nexprs;
	kcol = arena_alloc(plan->arena, sizeof *kcol * (size_t)(nkeys + 1));
	for (int k = 0; k < nkeys; k++)
		kcol[k] = -1;
	for (int g = 0; g < nold; g++) {
		bool found = false;
		for (int k = 0; k < nkeys; k++)
			if (expr_equal(ag->exprs[g], keys[k])) {
				if (kcol[k] < 0)
					kcol[k] = g;
				found = true;
			}
		if (!found)
			return FLOE_OK;
	}
	/* the aggregate grouped on its keys and the other inner sides */
	nnew = 0;
	for (int k = 0; k < nkeys; k++)
		if (kcol[k] < 0)
			nnew++;
	cols = arena_alloc(plan->arena, sizeof *cols * (size_t)(nnew + ag->ncols + 1));
	{
		Expr **gk = arena_alloc(plan->arena, sizeof *gk * (size_t)(nold + nnew + 1));
		int n = nold;
		memcpy(cols, ag->cols, sizeof *cols * (size_t)nold);
		if (nold)
			memcpy(gk, ag->exprs, sizeof *gk * (size_t)nold);
		for (int k = 0; k < nkeys; k++) {
			if (kcol[k] >= 0)
				continue;
			cols[n].id = lplan_column(plan);
			cols[n].type = keys[k]->type;
			cols[n].name = NULL;
			gk[n] = keys[k];
			kcol[k] = n++;
		}
		memcpy(cols + n, ag->cols + nold, sizeof *cols * (size_t)(ag->ncols - nold));
		for (int k = 0; k < nkeys; k++)
			cond[k]->args[kpos[k]] = expr_colref(plan->arena, (int)cols[kcol[k]].id, keys[k]->type);
		ag->cols = cols;
		ag->ncols += nnew;
		ag->exprs = gk;
		ag->nexprs = n;
	}
	if (nrest) {
		f->exprs = rest;
		f->nexprs = nrest;
	} else {
		ag->children[0] = x;
	}
	ag->est_rows = -1;         /* the build side stays the aggregate (physical.c) */
	for (int h = nhaving - 1; h >= 0; h--) {
		refresh(plan, having[h]);
		having[h]->est_rows = -1;
	}
	j->join = LJ_LEFT;
	j->ncorr = 0;
	j->corr = NULL;
	j->exprs = cond;
	j->nexprs = nkeys;
	j->reduce = l->est_rows < 0 || x->est_rows < 0 || l->est_rows <= x->est_rows;
	refresh(plan, j);
	*done = true;
	return FLOE_OK;
}

static int
walk(LogicalPlan *plan, LogicalOp *op, bool *changed)
{
	bool done = false;

	for (int i = 0; i < op->nchildren; i++)
		TRY(walk(plan, op->children[i], changed));
	if (op->kind == LOP_JOIN && op->ncorr)
		TRY(decorrelate_join(plan, op, &done));
	else
		refresh(plan, op);
	*changed = *changed || done;
	return FLOE_OK;
}

int
opt_decorrelate(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err)
{
	(void)err;
	*changed = false;
	return walk(plan, *root, changed);
}
