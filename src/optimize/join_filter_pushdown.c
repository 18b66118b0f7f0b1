/*
 * join_filter_pushdown.c — the join_filter_pushdown pass (optimize/
 * optimizer.h): conjuncts move below joins, to the input(s) they read.
 *
 * Over a Join (directly, or through a Project over it: a USING join's
 * merged columns, whose expressions are substituted), a Filter's conjunct
 *   - that reads only the left input's columns goes below the join on the
 *     left when the left side is preserved or filtered by the join alike:
 *     INNER, CROSS, LEFT, SEMI, ANTI (its rows are the left rows, or the
 *     left rows extended);
 *   - that reads only the right input's: below on the right for INNER,
 *     CROSS and RIGHT;
 *   - that reads both: into the join's condition for INNER and CROSS
 *     (which becomes INNER: an equality there is a hash key, physical.c);
 *   - anything else stays above: a conjunct over the nullable side of an
 *     outer join (it sees the NULL-extended rows: pushing it would keep
 *     rows the WHERE removes), both sides of a FULL join, no column at all,
 *     a volatile call (it would run another number of times) or a
 *     subquery.
 * A Join's own condition: a conjunct that reads only the inner input of an
 * outer join (the right of LEFT, the left of RIGHT), or only the right of a
 * SEMI/ANTI join, or only one side of an INNER join, filters that input
 * instead (PostgreSQL's ON-clause pushdown: it never decides whether the
 * preserved rows appear).  Conjuncts of the preserved side of an outer join
 * stay in its condition (they decide which rows match, not which appear);
 * a NULL-aware ANTI join's condition (NOT IN's x = y) stays whole.
 *
 * A conjunct pushed to an input joins the input's Filter (appended after
 * its conjuncts) or a new Filter with the input's estimate (so the build
 * sides physical.c picks do not change); a Filter left without conjuncts
 * disappears.  The pass works top-down, so a conjunct travels through
 * nested joins to the scan it filters, where filter_pushdown (after it)
 * makes it the Get's filter and the scan's pruning predicate.  ColumnIds
 * keep their meaning: every moved conjunct reads columns of the node it
 * lands on (Filter and Join pass their children's columns on).
 */
#include "optimize/optimizer.h"

#include <string.h>

#include "func/func.h"

enum { SIDE_LEFT = 1, SIDE_RIGHT = 2, SIDE_OTHER = 4 };

/* the inputs of join j that e reads (SIDE_OTHER: a column of neither, a
 * subquery or a volatile call: not movable) */
static int
sides(const Expr *e, const LogicalOp *j)
{
	int s = 0;

	if (e->kind == EXPR_SUBPLAN || (e->kind == EXPR_FUNC && e->fn && func_is_volatile(e->fn)))
		return SIDE_OTHER;
	if (e->kind == EXPR_COLREF) {
		if (e->col >= EXPR_PARAM_BASE)
			return 0;       /* a parameter: the same for every row */
		if (lop_find_column(j->children[0], (ColumnId)e->col) >= 0)
			return SIDE_LEFT;
		if (j->nchildren > 1 && lop_find_column(j->children[1], (ColumnId)e->col) >= 0)
			return SIDE_RIGHT;
		return SIDE_OTHER;
	}
	for (int i = 0; i < e->nargs; i++)
		if (e->args[i])
			s |= sides(e->args[i], j);
	return s;
}

/* a copy of e with each column of project p replaced by its expression;
 * NULL when e reads a column p does not make */
static Expr *
through_project(LogicalPlan *plan, const Expr *e, const LogicalOp *p)
{
	Expr *c;

	if (e->kind == EXPR_COLREF && e->col < EXPR_PARAM_BASE) {
		int k = lop_find_column(p, (ColumnId)e->col);
		return k < 0 ? NULL : p->exprs[k];
	}
	c = arena_memdup(plan->arena, e, sizeof *e);
	if (e->nargs) {
		c->args = arena_alloc(plan->arena, sizeof *c->args * (size_t)e->nargs);
		for (int i = 0; i < e->nargs; i++) {
			c->args[i] = NULL;
			if (e->args[i] && !(c->args[i] = through_project(plan, e->args[i], p)))
				return NULL;
		}
	}
	return c;
}

static void
append(LogicalPlan *plan, Expr ***v, int *n, Expr *e)
{
	Expr **w = arena_alloc(plan->arena, sizeof *w * (size_t)(*n + 1));
	if (*n)
		memcpy(w, *v, sizeof *w * (size_t)*n);
	w[(*n)++] = e;
	*v = w;
}

/* conjunct e filters child `i` of join j */
static void
filter_input(LogicalPlan *plan, LogicalOp *j, int i, Expr *e)
{
	LogicalOp *in = j->children[i];

	if (in->kind != LOP_FILTER) {
		LogicalOp *f = lop_new(plan, LOP_FILTER, 1, in);
		lop_pass_columns(plan, f, in);
		f->est_rows = in->est_rows;
		j->children[i] = in = f;
	}
	append(plan, &in->exprs, &in->nexprs, e);
}

/* May a conjunct reading `s` (SIDE_*) over join j move: to which input
 * (0 left, 1 right), 2 into the condition, -1 not at all? */
static int
filter_target(const LogicalOp *j, int s)
{
	bool inner = j->join == LJ_INNER || j->join == LJ_CROSS;

	if (s == SIDE_LEFT)
		return inner || j->join == LJ_LEFT || j->join == LJ_SEMI || j->join == LJ_ANTI ? 0 : -1;
	if (s == SIDE_RIGHT)
		return inner || j->join == LJ_RIGHT ? 1 : -1;
	if (s == (SIDE_LEFT | SIDE_RIGHT))
		return inner ? 2 : -1;
	return -1;
}

static bool
movable_join(const LogicalOp *j)
{
	return j->kind == LOP_JOIN && j->ncorr == 0 && j->join != LJ_MARK && j->join != LJ_SINGLE &&
	       j->nchildren == 2;
}

/* the Filter *at over a Join (or over a Project over a Join): its
 * movable conjuncts moved */
static void
push_filter(LogicalPlan *plan, LogicalOp **at, bool *changed)
{
	LogicalOp *f = *at, *p = NULL, *j = f->children[0];
	Expr **keep = NULL;
	int nkeep = 0;

	if (j->kind == LOP_PROJECT && j->nchildren == 1 && movable_join(j->children[0])) {
		p = j;
		j = p->children[0];
	}
	if (!movable_join(j))
		return;
	for (int i = 0; i < f->nexprs; i++) {
		Expr *e = f->exprs[i], *below = p ? through_project(plan, e, p) : e;
		int t = below ? filter_target(j, sides(below, j)) : -1;
		if (t < 0) {
			append(plan, &keep, &nkeep, e);
			continue;
		}
		if (t == 2) {
			append(plan, &j->exprs, &j->nexprs, below);
			if (j->join == LJ_CROSS)
				j->join = LJ_INNER;
		} else {
			filter_input(plan, j, t, below);
		}
		*changed = true;
	}
	if (nkeep == f->nexprs)
		return;
	if (nkeep) {
		f->exprs = keep;
		f->nexprs = nkeep;
	} else {
		*at = f->children[0];
	}
}

/* join j's own condition: conjuncts over its inner input only filter it */
static void
push_condition(LogicalPlan *plan, LogicalOp *j, bool *changed)
{
	Expr **keep = NULL;
	int nkeep = 0, n = j->nexprs;

	if (!movable_join(j) || j->join == LJ_FULL || (j->join == LJ_ANTI && j->null_aware))
		return;
	for (int i = 0; i < n; i++) {
		Expr *e = j->exprs[i];
		int s = sides(e, j), t = -1;
		if (s == SIDE_LEFT && (j->join == LJ_INNER || j->join == LJ_RIGHT))
			t = 0;
		else if (s == SIDE_RIGHT && j->join != LJ_RIGHT)
			t = 1;
		if (t < 0) {
			append(plan, &keep, &nkeep, e);
			continue;
		}
		filter_input(plan, j, t, e);
		*changed = true;
	}
	if (nkeep < n) {
		j->exprs = keep;
		j->nexprs = nkeep;
	}
}

static void
push(LogicalPlan *plan, LogicalOp **at, bool *changed)
{
	if ((*at)->kind == LOP_FILTER && (*at)->nchildren == 1)
		push_filter(plan, at, changed);
	if ((*at)->kind == LOP_JOIN)
		push_condition(plan, *at, changed);
	for (int i = 0; i < (*at)->nchildren; i++)
		push(plan, &(*at)->children[i], changed);
}

int
opt_join_filter_pushdown(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err)
{
	(void)err;
	*changed = false;
	push(plan, root, changed);
	return FLOE_OK;
}
