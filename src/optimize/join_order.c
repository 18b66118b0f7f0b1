/*
 * join_order.c — the join_order pass (optimize/optimizer.h): the order in
 * which each tree of inner joins joins its relations.
 *
 * A join tree here is a maximal tree of INNER and CROSS Join nodes (not
 * dependent, not marked for reduction): a comma FROM list as the binder
 * emits it (left-deep, in FROM order, each step's condition the WHERE
 * conjuncts it can apply: select.c from_plan) or an explicit [INNER |
 * CROSS] JOIN chain, or both mixed.  Its leaves are the relations; the
 * conjuncts of all its conditions form the join graph.  LEFT, RIGHT, FULL,
 * SEMI, ANTI, MARK and SINGLE joins are barriers: a tree below one is
 * ordered on its own and nothing moves across it (an outer join does not
 * commute with the inner joins around it in general).
 *
 * THE ORDER.  Up to JOIN_DP_MAX_RELS (12) relations whose hashable
 * equalities between single relations connect them all: the cheapest
 * tree by dynamic programming over the connected subsets (join_dp.h: its
 * rows and cost model, bushy trees, no cross products), the selectivity of
 * an edge 1 / the largest of its equalities' distinct counts (a key side:
 * its relation's unfiltered rows, as lcard_join_rows), unknown counts
 * 1 / the smaller relation; it replaces the greedy order below only when
 * that order, costed by the same model, is dearer by more than 1%, so
 * estimates that tie keep the greedy plan.  Each join of such a tree
 * takes the conjuncts its two halves complete.  Larger graphs, graphs
 * with an unknown estimate, graphs connected only through conditions over
 * several relations (or not at all), and every graph with the join_dp rule
 * off (floe.disabled_optimizers): the greedy order.
 *
 * THE GREEDY ORDER (left-deep): the first probe input is the largest
 * relation (by its estimate, lcard_rows); then, of the relations tied to
 * the joined set by a hashable equality, the one whose join is estimated
 * smallest (plan/cardinality.h lcard_join_rows: a key of the relation
 * meets one row per probe row, else |joined| x |rel| / the larger distinct
 * count of the keys, from ANALYZE's statistics or the manifests' bounds),
 * that estimate weighted by the relation's satellites (relations not yet
 * joined whose only conditions are equalities with it, each keeping
 * est / unfiltered of its rows: a small filtered dimension chain such as
 * supplier -> nation = 'X' comes before a big table that filters less,
 * TPC-H q21); within 0.1% the smaller relation; a relation tied by none:
 * the smallest one (a cross product).  Each step's condition: the
 * conjuncts whose relations are then all joined; conjuncts over no
 * relation's columns go on the last step.  physical.c picks each hash
 * join's build side from the estimates set here.
 *
 * COLUMN ORDER.  The rebuilt tree's columns are its relations' in join
 * order.  Nodes that read by ColumnId (Project, Aggregate) do not care;
 * the nodes between them and the tree that pass columns on (Filter, Sort,
 * Limit, Distinct, Window, Join, a CTE's use) get their column lists
 * rebuilt; where the consumer reads by position (the plan's root, a set
 * operation's branch, a CTE's definition, a write's rows), a Project with
 * fresh ids restores the old order.  ColumnIds keep their meaning.
 *
 * INTERFACE ROUTINES
 *   opt_join_order(plan, &root, &changed, err)
 */
#include "optimize/optimizer.h"
#include "optimize/join_dp.h"

#include <string.h>

#include "common/interrupt.h"
#include "func/func.h"
#include "plan/cardinality.h"

#define MAX_RELS 64

typedef struct Graph {
	LogicalPlan *plan;
	int n;                          /* relations */
	LogicalOp *rel[MAX_RELS];
	double est[MAX_RELS];           /* rows after the relation's filters */
	double raw[MAX_RELS];           /* rows before them */
	int nc, cap;                    /* conjuncts of the tree's conditions */
	Expr **conj;
	uint64_t *mask;                 /* relations each conjunct reads */
	bool *used;
	int *owner;                     /* [nowner] relation of a column, -1 */
	ColumnId nowner;                /* plan->next_id when the pass began */
} Graph;

/* The pass's state over one plan. */
typedef struct Walk {
	LogicalPlan *plan;
	int *owner;
	ColumnId nowner;
	bool changed;
	floe_error *err;
} Walk;

/* The set of relations 0..n-1 */
static uint64_t
all_rels(int n)
{
	return n == 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

static bool
reorderable(const LogicalOp *op)
{
	return op->kind == LOP_JOIN && (op->join == LJ_INNER || op->join == LJ_CROSS) && op->ncorr == 0 &&
	       !op->reduce && !op->null_aware;
}

/* The relations and conjuncts of the tree at op; false: too many relations */
static bool
collect(Graph *g, LogicalOp *op)
{
	if (!reorderable(op)) {
		if (g->n == MAX_RELS)
			return false;
		g->rel[g->n++] = op;
		return true;
	}
	if (!collect(g, op->children[0]) || !collect(g, op->children[1]))
		return false;
	for (int i = 0; i < op->nexprs; i++) {
		if (g->nc == g->cap) {
			int nc = g->cap ? g->cap * 2 : 16;
			g->conj = arena_realloc(g->plan->arena, g->conj, sizeof *g->conj * (size_t)g->cap,
						sizeof *g->conj * (size_t)nc);
			g->cap = nc;
		}
		g->conj[g->nc++] = op->exprs[i];
	}
	return true;
}

/* Bit k set when e reads a column of relation k (parameters and columns
 * of no relation, a correlated subquery's outer ones, set none). */
static uint64_t
rel_mask(const Graph *g, const Expr *e)
{
	uint64_t m = 0;

	if (e->kind == EXPR_COLREF) {
		if (e->col <= 0 || e->col >= EXPR_PARAM_BASE || (ColumnId)e->col >= g->nowner ||
		    g->owner[e->col] < 0)
			return 0;
		return (uint64_t)1 << g->owner[e->col];
	}
	for (int i = 0; i < e->nargs; i++)
		m |= rel_mask(g, e->args[i]);
	return m;
}

static bool
is_equi(const Expr *e)
{
	return e->kind == EXPR_FUNC && e->nargs == 2 && e->fn && strcmp(e->fn->name, "=") == 0 &&
	       hash_join_key_ok(e->args[0]->type, e->args[1]->type);
}

/* Is conjunct i an equality with one side over the joined set only and the
 * other over relation k only (a hash key of joining k)? */
static bool
ties(const Graph *g, int i, uint64_t joined, int k)
{
	uint64_t kb = (uint64_t)1 << k, m0, m1;

	if (g->used[i] || !is_equi(g->conj[i]) || (g->mask[i] & ~(joined | kb)))
		return false;
	m0 = rel_mask(g, g->conj[i]->args[0]);
	m1 = rel_mask(g, g->conj[i]->args[1]);
	return (m0 && !(m0 & ~joined) && m1 == kb) || (m1 && !(m1 & ~joined) && m0 == kb);
}

/* The distinct values of column e of relation k (< 0: not a column, or
 * unknown), capped by the relation's rows after its filters
 * (lcard_column_ndv). */
static double
ndv_of(const Graph *g, const Expr *e)
{
	if (e->kind != EXPR_COLREF || e->col <= 0 || e->col >= EXPR_PARAM_BASE ||
	    (ColumnId)e->col >= g->nowner || g->owner[e->col] < 0)
		return -1;
	return lcard_column_ndv(g->rel[g->owner[e->col]], (ColumnId)e->col);
}

/* The fraction of relation k's rows that joining its filtered satellites
 * keeps (see the header). */
static double
satellites(const Graph *g, uint64_t joined, int k)
{
	uint64_t kb = (uint64_t)1 << k;
	double f = 1;

	for (int s = 0; s < g->n; s++) {
		uint64_t sb = (uint64_t)1 << s;
		bool tied = false, only = true;
		if (s == k || (joined & sb) || g->raw[s] <= 0 || g->est[s] < 0)
			continue;
		for (int i = 0; i < g->nc && only; i++) {
			if (g->used[i] || !(g->mask[i] & sb) || g->mask[i] == sb)
				continue;
			if (g->mask[i] == (sb | kb) && is_equi(g->conj[i]))
				tied = true;
			else
				only = false;
		}
		if (tied && only && g->est[s] < g->raw[s])
			f *= g->est[s] / g->raw[s];
	}
	return f;
}

/* The rows of joining relation k to the joined set (estimated `cur` rows;
 * < 0 unknown); *tied: a hashable equality ties k to the set (else the
 * join is a cross product). */
static double
step_rows(const Graph *g, uint64_t joined, double cur, int k, bool *tied)
{
	const LogicalOp *raw_op = lcard_unfiltered(g->rel[k]);
	double denom = -1;
	bool key = false;

	*tied = false;
	for (int i = 0; i < g->nc; i++) {
		const Expr *c = g->conj[i], *kc;
		double d0, d1;
		if (!ties(g, i, joined, k))
			continue;
		*tied = true;
		kc = rel_mask(g, c->args[0]) == (uint64_t)1 << k ? c->args[0] : c->args[1];
		if (kc->kind == EXPR_COLREF && g->raw[k] > 0 &&
		    lcard_column_ndv(raw_op, (ColumnId)kc->col) >= 0.9 * g->raw[k])
			key = true;
		d0 = ndv_of(g, c->args[0]);
		d1 = ndv_of(g, c->args[1]);
		if ((d0 > d1 ? d0 : d1) > denom)
			denom = d0 > d1 ? d0 : d1;
	}
	return lcard_join_rows(cur, g->est[k], g->raw[k], key, denom, *tied ? 1 : 0);
}

/* The greedy choice of the next relation to join to `joined` (estimated
 * `cur` rows). */
static int
pick_next(const Graph *g, uint64_t joined, double cur)
{
	double best = -1;
	int pick = -1;

	for (int k = 0; k < g->n; k++) {
		double e, rank;
		bool tied;
		if (joined & ((uint64_t)1 << k))
			continue;
		e = step_rows(g, joined, cur, k, &tied);
		if (!tied)
			continue;
		rank = e < 0 ? 1e300 : e * satellites(g, joined, k);
		/* within 0.1%: a tie, the smaller relation first */
		if (pick < 0 || rank < best * 0.999 ||
		    (rank <= best * 1.001 && g->est[k] >= 0 && g->est[k] < g->est[pick])) {
			pick = k;
			best = rank;
		}
	}
	if (pick >= 0)
		return pick;
	for (int k = 0; k < g->n; k++) {
		if (joined & ((uint64_t)1 << k))
			continue;
		if (pick < 0 || (g->est[k] >= 0 && (g->est[pick] < 0 || g->est[k] < g->est[pick])))
			pick = k;
	}
	return pick;
}

/* The work of one hash join step, in rows: the build side (the smaller
 * input, physical.c) inserted, the other probed, the output made; an
 * insert counted twice a probe. */
static double
step_cost(double cur, double rel, double out)
{
	double lo = cur < rel ? cur : rel, hi = cur < rel ? rel : cur;

	return 2 * lo + hi + out;
}

/* The greedy order of g's relations (see the header) into order[], and its
 * cost (< 0: some estimate unknown). */
static double
greedy_order(const Graph *g, int *order)
{
	uint64_t joined, all = all_rels(g->n);
	double cur, cost = 0;
	int start = 0, step = 0;

	for (int k = 1; k < g->n; k++)
		if (g->est[k] > g->est[start])
			start = k;
	cur = g->est[start];
	joined = (uint64_t)1 << start;
	order[step++] = start;
	while (joined != all) {
		int pick = pick_next(g, joined, cur);
		bool tied;
		double out = step_rows(g, joined, cur, pick, &tied);
		cost = cost < 0 || out < 0 ? -1 : cost + step_cost(cur, g->est[pick], out);
		cur = out;
		joined |= (uint64_t)1 << pick;
		order[step++] = pick;
	}
	return cost;
}

/* Is op's output the same column ids in the same order as cols[0..n)? */
static bool
same_cols(const LogicalOp *op, const LogicalColumn *cols, int n)
{
	if (op->ncols != n)
		return false;
	for (int i = 0; i < n; i++)
		if (op->cols[i].id != cols[i].id)
			return false;
	return true;
}

/* Is the tree at op left-deep over the relations in g's leaf order? */
static bool
left_deep(const Graph *g, const LogicalOp *op)
{
	int k = g->n - 1;

	for (; k > 0 && reorderable(op); k--, op = op->children[0])
		if (op->children[1] != g->rel[k])
			return false;
	return k == 0 && op == g->rel[0];
}

/* The distinct values of side e of an equality over relation k alone for
 * the DP's edge: its relation's unfiltered rows when e is a key of it
 * (lcard_join_rows' r_key), else ndv_of (< 0: unknown). */
static double
side_ndv(const Graph *g, const Expr *e, int k)
{
	if (e->kind != EXPR_COLREF || e->col <= 0 || e->col >= EXPR_PARAM_BASE ||
	    (ColumnId)e->col >= g->nowner || g->owner[e->col] != k)
		return -1;
	if (g->raw[k] > 0 && lcard_column_ndv(lcard_unfiltered(g->rel[k]), (ColumnId)e->col) >= 0.9 * g->raw[k])
		return g->raw[k];
	return ndv_of(g, e);
}

/* The DP model of g (join_dp.h), NULL when the DP does not apply (see the
 * header). */
static JoinDp *
dp_model(const Graph *g)
{
	int n = g->n;
	double *sel, *dmax;

	if (n < 3 || n > JOIN_DP_MAX_RELS || optimizer_disabled(g->plan->disabled, "join_dp"))
		return NULL;
	for (int k = 0; k < n; k++)
		if (g->est[k] < 0)
			return NULL;
	sel = arena_calloc(g->plan->arena, sizeof *sel * (size_t)(n * n));
	dmax = arena_alloc(g->plan->arena, sizeof *dmax * (size_t)(n * n));
	for (int i = 0; i < n * n; i++)
		dmax[i] = -1;
	for (int i = 0; i < g->nc; i++) {
		const Expr *c = g->conj[i];
		uint64_t m0, m1;
		int a, b;
		double d;
		if (!is_equi(c))
			continue;
		m0 = rel_mask(g, c->args[0]);
		m1 = rel_mask(g, c->args[1]);
		if (!m0 || !m1 || (m0 & (m0 - 1)) || (m1 & (m1 - 1)) || m0 == m1)
			continue;
		a = __builtin_ctzll(m0);
		b = __builtin_ctzll(m1);
		d = side_ndv(g, c->args[0], a);
		if (side_ndv(g, c->args[1], b) > d)
			d = side_ndv(g, c->args[1], b);
		sel[a * n + b] = sel[b * n + a] = 1;    /* an edge */
		if (d > dmax[a * n + b])
			dmax[a * n + b] = dmax[b * n + a] = d;
	}
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			double lo = g->est[a] < g->est[b] ? g->est[a] : g->est[b];
			if (!(sel[a * n + b] > 0))
				continue;
			if (dmax[a * n + b] > 0)
				sel[a * n + b] = dmax[a * n + b] < 1 ? 1 : 1 / dmax[a * n + b];
			else
				sel[a * n + b] = lo < 1 ? 1 : 1 / lo;
		}
	return join_dp_new(g->plan->arena, n, g->est, sel);
}

/* The DP's best tree of the relations in s (all: every relation), each
 * join with the conjuncts its halves complete (column-free ones: the
 * root's). */
static LogicalOp *
dp_tree(Graph *g, const JoinDp *dp, uint32_t s, uint32_t all)
{
	uint32_t l = join_dp_split(dp, s);
	LogicalOp *lo, *ro, *jn;
	Expr **c;
	int nc = 0;

	if (!l)
		return g->rel[__builtin_ctz(s)];
	lo = dp_tree(g, dp, l, all);
	ro = dp_tree(g, dp, s ^ l, all);
	jn = lop_new(g->plan, LOP_JOIN, 2, lo, ro);
	lop_pass_columns(g->plan, jn, lo);
	lop_pass_columns(g->plan, jn, ro);
	c = arena_alloc(g->plan->arena, sizeof *c * (size_t)(g->nc + 1));
	for (int i = 0; i < g->nc; i++) {
		if (g->used[i] || (g->mask[i] & ~(uint64_t)s) || (!g->mask[i] && s != all))
			continue;
		g->used[i] = true;
		c[nc++] = g->conj[i];
	}
	jn->join = nc ? LJ_INNER : LJ_CROSS;
	lop_set_exprs(g->plan, jn, nc, c);
	jn->est_rows = join_dp_rows(dp, s);
	return jn;
}

/* The tree at *slot reordered; *reordered: the order of its relations
 * (or the tree's shape) changed.  A left-deep tree already in the chosen
 * order keeps its nodes and conditions and gets the estimates. */
static int
order_tree(Graph *g, LogicalOp **slot, bool *reordered, floe_error *err)
{
	LogicalOp *cur;
	uint64_t joined, all;
	double cur_est, step_est[MAX_RELS];
	int step, order[MAX_RELS], *njc;
	Expr ***jc;
	JoinDp *dp;

	for (int k = 0; k < g->n; k++) {
		g->est[k] = lcard_rows(g->rel[k]);
		g->raw[k] = lcard_rows(lcard_unfiltered(g->rel[k]));
		for (int i = 0; i < g->rel[k]->ncols; i++)
			if (g->rel[k]->cols[i].id < g->nowner)
				g->owner[g->rel[k]->cols[i].id] = k;
	}
	g->mask = arena_alloc(g->plan->arena, sizeof *g->mask * (size_t)(g->nc + 1));
	g->used = arena_alloc(g->plan->arena, sizeof *g->used * (size_t)(g->nc + 1));
	jc = arena_alloc(g->plan->arena, sizeof *jc * (size_t)g->n);
	njc = arena_alloc(g->plan->arena, sizeof *njc * (size_t)g->n);
	for (int i = 0; i < g->nc; i++) {
		g->mask[i] = rel_mask(g, g->conj[i]);
		g->used[i] = false;
	}
	greedy_order(g, order);
	dp = dp_model(g);
	if (dp && join_dp_best(dp)) {
		double gc = join_dp_order_cost(dp, order);
		uint32_t s_all = (uint32_t)all_rels(g->n);
		if (gc < 0 || join_dp_cost(dp, s_all) < 0.99 * gc) {
			*slot = dp_tree(g, dp, s_all, s_all);
			*reordered = true;
			return FLOE_OK;
		}
	}
	cur_est = g->est[order[0]];
	joined = (uint64_t)1 << order[0];
	all = all_rels(g->n);
	for (step = 1; step < g->n; step++) {
		int pick = order[step];
		uint64_t bit = (uint64_t)1 << pick;
		bool last = (joined | bit) == all, tied;

		if (interrupt_pending())
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		jc[step] = arena_alloc(g->plan->arena, sizeof **jc * (size_t)(g->nc + 1));
		njc[step] = 0;
		cur_est = step_rows(g, joined, cur_est, pick, &tied);
		for (int i = 0; i < g->nc; i++) {
			if (g->used[i] || (!last && (!(g->mask[i] & bit) || (g->mask[i] & ~(joined | bit)))))
				continue;
			g->used[i] = true;
			jc[step][njc[step]++] = g->conj[i];
		}
		step_est[step] = cur_est;
		joined |= bit;
	}
	*reordered = false;
	for (int k = 0; k < g->n; k++)
		if (order[k] != k)
			*reordered = true;
	if (!*reordered && left_deep(g, *slot)) {
		/* bottom-up: a relation's own columns may have changed order */
		LogicalOp *spine[MAX_RELS];
		cur = *slot;
		for (int k = g->n - 1; k > 0; k--, cur = cur->children[0])
			spine[k] = cur;
		for (int k = 1; k < g->n; k++) {
			spine[k]->est_rows = step_est[k];
			spine[k]->cols = NULL;
			spine[k]->ncols = 0;
			lop_pass_columns(g->plan, spine[k], spine[k]->children[0]);
			lop_pass_columns(g->plan, spine[k], spine[k]->children[1]);
		}
		return FLOE_OK;
	}
	*reordered = true;          /* or reshaped: a bushy tree made left-deep */
	cur = g->rel[order[0]];
	for (int k = 1; k < g->n; k++) {
		LogicalOp *jn = lop_new(g->plan, LOP_JOIN, 2, cur, g->rel[order[k]]);
		lop_pass_columns(g->plan, jn, cur);
		lop_pass_columns(g->plan, jn, g->rel[order[k]]);
		jn->join = njc[k] ? LJ_INNER : LJ_CROSS;
		lop_set_exprs(g->plan, jn, njc[k], jc[k]);
		jn->est_rows = step_est[k];
		cur = jn;
	}
	*slot = cur;
	return FLOE_OK;
}

static int walk(Walk *w, LogicalOp **slot, bool positional);

/* op passes on (some of) child c's columns at [at, at + n): rebuild them
 * from the child's current ones (its order may have changed). */
static void
repass(LogicalPlan *plan, LogicalOp *op)
{
	LogicalColumn *old = op->cols;
	int oldn = op->ncols, keep_from = 0, extra;
	const LogicalOp *c0 = op->children[0];
	bool left_only;

	switch (op->kind) {
	case LOP_FILTER: case LOP_SORT: case LOP_LIMIT: case LOP_DISTINCT: case LOP_WINDOW:
		keep_from = c0->ncols;          /* a Window's calls follow */
		op->cols = NULL;
		op->ncols = 0;
		lop_pass_columns(plan, op, c0);
		break;
	case LOP_JOIN:
		left_only = op->join == LJ_SEMI || op->join == LJ_ANTI || op->join == LJ_MARK;
		keep_from = c0->ncols + (left_only ? 0 : op->children[1]->ncols);
		op->cols = NULL;
		op->ncols = 0;
		lop_pass_columns(plan, op, c0);
		if (!left_only)
			lop_pass_columns(plan, op, op->children[1]);
		break;
	case LOP_CTE:
		op->cols = NULL;
		op->ncols = 0;
		lop_pass_columns(plan, op, op->children[1]);
		return;
	default:
		return;
	}
	extra = oldn - keep_from;
	if (extra > 0) {
		LogicalColumn *all = arena_alloc(plan->arena, sizeof *all * (size_t)(op->ncols + extra));
		memcpy(all, op->cols, sizeof *all * (size_t)op->ncols);
		memcpy(all + op->ncols, old + keep_from, sizeof *all * (size_t)extra);
		op->cols = all;
		op->ncols += extra;
	}
}

/* Do op's children feed op by position (their column order is op's
 * meaning) rather than by ColumnId? */
static bool
child_positional(const LogicalOp *op, int c)
{
	switch (op->kind) {
	case LOP_PROJECT: case LOP_AGGREGATE: case LOP_FILTER: case LOP_SORT: case LOP_LIMIT:
	case LOP_DISTINCT: case LOP_WINDOW: case LOP_JOIN:
		return false;
	case LOP_CTE:
		return c == 0;
	default:
		return true;
	}
}

/* Order the join trees at and under *slot.  positional: *slot's consumer
 * reads its columns by position, so a changed order gets a Project. */
static int
walk(Walk *w, LogicalOp **slot, bool positional)
{
	LogicalOp *op = *slot;
	LogicalColumn *before = op->cols;
	int nbefore = op->ncols;
	LogicalPlan *plan = w->plan;

	if (reorderable(op)) {
		Graph g;
		bool reordered = false;
		memset(&g, 0, sizeof g);
		g.plan = plan;
		g.owner = w->owner;
		g.nowner = w->nowner;
		if (collect(&g, op)) {
			for (int k = 0; k < g.n; k++)
				TRY(walk(w, &g.rel[k], false));
			TRY(order_tree(&g, slot, &reordered, w->err));
			for (int k = 0; k < g.n; k++)
				for (int i = 0; i < g.rel[k]->ncols; i++)
					if (g.rel[k]->cols[i].id < w->nowner)
						w->owner[g.rel[k]->cols[i].id] = -1;
			w->changed |= reordered;
		} else {
			for (int c = 0; c < op->nchildren; c++)
				TRY(walk(w, &op->children[c], false));
			repass(plan, op);
		}
	} else {
		bool moved = false;
		for (int c = 0; c < op->nchildren; c++) {
			LogicalColumn *cb = op->children[c]->cols;
			int nb = op->children[c]->ncols;
			TRY(walk(w, &op->children[c], child_positional(op, c)));
			moved |= !same_cols(op->children[c], cb, nb);
		}
		if (moved)
			repass(plan, op);
	}
	if (positional && !same_cols(*slot, before, nbefore)) {
		/* the old order back, under fresh ids (the consumer reads positions) */
		LogicalOp *in = *slot, *p = lop_new(plan, LOP_PROJECT, 1, in);
		p->nexprs = nbefore;
		p->exprs = arena_alloc(plan->arena, sizeof *p->exprs * (size_t)(nbefore + 1));
		for (int i = 0; i < nbefore; i++) {
			p->exprs[i] = expr_colref(plan->arena, (int)before[i].id, before[i].type);
			lop_add_column(plan, p, before[i].type, before[i].name);
		}
		p->est_rows = in->est_rows;
		*slot = p;
	}
	return FLOE_OK;
}

int
opt_join_order(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err)
{
	Walk w;

	w.plan = plan;
	w.nowner = plan->next_id;
	w.owner = arena_alloc(plan->arena, sizeof *w.owner * (size_t)(w.nowner + 1));
	w.changed = false;
	w.err = err;
	for (ColumnId i = 0; i <= w.nowner; i++)
		w.owner[i] = -1;
	TRY(walk(&w, root, true));
	*changed = w.changed;
	return FLOE_OK;
}
