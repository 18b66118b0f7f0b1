/*
 * logical_verify.c — checks that a logical plan is well formed
 * (plan/logical.h), so a broken rewrite fails in a test with the rule it
 * broke instead of computing a wrong answer later.
 *
 * RULES (each failure is XX000 naming the node and the rule):
 *   V1  each kind has its number of children (SETOP: 2+, INTERSECT and
 *       EXCEPT exactly 2) and a non-NULL child in every slot
 *   V2  every output ColumnId is in 1..next_id-1, once per node
 *   V3  every column is made by exactly one node: GET, PROJECT, AGGREGATE,
 *       VALUES, TABLE_FUNC, SETOP, CTE_REF, OPERATOR, a write's RETURNING make all of
 *       theirs; WINDOW its calls' columns; a MARK join its mark; the other
 *       nodes pass their children's columns on unchanged: FILTER, SORT,
 *       LIMIT, DISTINCT exactly the child's, JOIN left ++ right (SEMI/ANTI
 *       left), CTE its second child's
 *   V4  a node's expressions read only columns in scope (parameters,
 *       EXPR_PARAM_BASE and above, are in every scope): its children's
 *       outputs (GET: its own columns), plus, below a dependent join's right
 *       side, the join's correlated columns, which must be left outputs
 *   V5  a column reference has the type of the column it reads
 *   V6  shapes: PROJECT one expression per column; AGGREGATE keys + aggs
 *       columns; WINDOW child + calls columns; SETOP children as wide as it;
 *       VALUES rows of ncols expressions; FILTER at least one conjunct;
 *       writes one RETURNING expression per column; no EXPR_AGGREF left;
 *       AGGREGATE grouping() values only with grouping sets, naming keys;
 *       OPERATOR one column per operator column, of its type
 *   V7  a CTE_REF names a CTE whose definition encloses it... (the CTE node
 *       is an ancestor of the reference, through its second child)
 */
#include "plan/logical.h"

#include <stdio.h>
#include <string.h>

typedef struct Verify {
	const LogicalPlan *plan;
	floe_error *err;
	Arena *a;
	uint8_t *made;             /* [next_id]: how many nodes make the id */
	SqlType *type;             /* [next_id]: its type */
	int *ctes;                 /* enclosing CTE ids (V7) */
	int nctes, cap_ctes;
} Verify;

static int
fail(Verify *v, const LogicalOp *op, const char *rule, const char *what)
{
	return floe_errorf(v->err, ERRCODE_INTERNAL_ERROR, "logical plan: %s node breaks %s: %s",
			   lop_kind_name(op->kind), rule, what);
}

static bool
makes_all(LogicalKind k)
{
	switch (k) {
	case LOP_GET: case LOP_PROJECT: case LOP_AGGREGATE: case LOP_VALUES:
	case LOP_TABLE_FUNC: case LOP_SETOP: case LOP_CTE_REF:
	case LOP_INSERT: case LOP_UPDATE: case LOP_DELETE: case LOP_MERGE:
	case LOP_OPERATOR:
		return true;
	default:
		return false;
	}
}

static int
arity_ok(const LogicalOp *op)
{
	switch (op->kind) {
	case LOP_GET: case LOP_VALUES: case LOP_TABLE_FUNC: case LOP_CTE_REF: case LOP_OPERATOR:
		return op->nchildren == 0;
	case LOP_JOIN: case LOP_CTE:
		return op->nchildren == 2;
	case LOP_SETOP:
		return op->setop == LSET_UNION ? op->nchildren >= 2 : op->nchildren == 2;
	default:
		return op->nchildren == 1;
	}
}

static bool
same_type(SqlType a, SqlType b)
{
	return a.id == b.id && a.precision == b.precision && a.scale == b.scale &&
	       a.elem == b.elem;
}

/* V4/V5/V6 over one expression; `vis` marks the ids in scope */
static int
check_expr(Verify *v, const LogicalOp *op, const Expr *e, const uint8_t *vis)
{
	char msg[160];

	if (!e)
		return FLOE_OK;
	if (e->kind == EXPR_AGGREF)
		return fail(v, op, "V6", "an aggregate reference survived binding");
	if (e->kind == EXPR_COLREF && e->col >= EXPR_PARAM_BASE)
		return FLOE_OK;    /* a parameter, in every scope */
	if (e->kind == EXPR_COLREF) {
		ColumnId id = (ColumnId)e->col;
		if (e->col <= 0 || id >= v->plan->next_id || !vis[id]) {
			snprintf(msg, sizeof msg, "reads #%d, which is not in its scope", e->col);
			return fail(v, op, "V4", msg);
		}
		if (!same_type(e->type, v->type[id])) {
			char t1[64], t2[64];
			snprintf(msg, sizeof msg, "reads #%d as %s, but it is %s", e->col,
				 type_name(e->type, t1, sizeof t1), type_name(v->type[id], t2, sizeof t2));
			return fail(v, op, "V5", msg);
		}
		return FLOE_OK;
	}
	for (int i = 0; i < e->nargs; i++)
		TRY(check_expr(v, op, e->args[i], vis));
	return FLOE_OK;
}

static int
check_exprs(Verify *v, const LogicalOp *op, int n, Expr *const *es, const uint8_t *vis)
{
	for (int i = 0; i < n; i++)
		TRY(check_expr(v, op, es[i], vis));
	return FLOE_OK;
}

/* pass 1: V1, V2 and the producer counts of V3 */
static int
count_made(Verify *v, const LogicalOp *op)
{
	int from = 0, to = 0;

	if (!arity_ok(op))
		return fail(v, op, "V1", "wrong number of children");
	for (int i = 0; i < op->nchildren; i++)
		if (!op->children[i])
			return fail(v, op, "V1", "a NULL child");
	for (int i = 0; i < op->ncols; i++) {
		ColumnId id = op->cols[i].id;
		if (id == 0 || id >= v->plan->next_id)
			return fail(v, op, "V2", "an output column id out of range");
		for (int j = 0; j < i; j++)
			if (op->cols[j].id == id)
				return fail(v, op, "V2", "the same column twice in its output");
	}
	if (makes_all(op->kind))
		to = op->ncols;
	else if (op->kind == LOP_WINDOW)
		from = op->children[0]->ncols, to = op->ncols;
	else if (op->kind == LOP_JOIN && op->join == LJ_MARK)
		from = op->ncols - 1, to = op->ncols;
	for (int i = from < 0 ? 0 : from; i < to; i++) {
		ColumnId id = op->cols[i].id;
		if (v->made[id] < 255)
			v->made[id]++;
		v->type[id] = op->cols[i].type;
	}
	for (int i = 0; i < op->nchildren; i++)
		TRY(count_made(v, op->children[i]));
	return FLOE_OK;
}

/* V3 for nodes that pass columns on: op's columns [at..at+n) are child's */
static int
passes(Verify *v, const LogicalOp *op, int at, const LogicalOp *child, int n)
{
	if (at + n > op->ncols || n > child->ncols)
		return fail(v, op, "V3", "fewer output columns than it passes on");
	for (int i = 0; i < n; i++)
		if (op->cols[at + i].id != child->cols[i].id)
			return fail(v, op, "V3", "an output column that is not its child's");
	return FLOE_OK;
}

static int
check_shape(Verify *v, const LogicalOp *op)
{
	const LogicalOp *c0 = op->nchildren > 0 ? op->children[0] : NULL;
	const LogicalOp *c1 = op->nchildren > 1 ? op->children[1] : NULL;

	switch (op->kind) {
	case LOP_FILTER:
		if (op->nexprs < 1)
			return fail(v, op, "V6", "no conjunct");
		/* fall through */
	case LOP_SORT: case LOP_LIMIT: case LOP_DISTINCT:
		if (op->ncols != c0->ncols)
			return fail(v, op, "V3", "its output is not exactly its child's");
		return passes(v, op, 0, c0, c0->ncols);
	case LOP_CTE:
		if (op->ncols != c1->ncols)
			return fail(v, op, "V3", "its output is not exactly its second child's");
		return passes(v, op, 0, c1, c1->ncols);
	case LOP_JOIN: {
		bool left_only = op->join == LJ_SEMI || op->join == LJ_ANTI || op->join == LJ_MARK;
		int want = c0->ncols + (left_only ? 0 : c1->ncols) + (op->join == LJ_MARK ? 1 : 0);
		if (op->ncols != want)
			return fail(v, op, "V3", "its output is not left ++ right");
		TRY(passes(v, op, 0, c0, c0->ncols));
		if (!left_only)
			TRY(passes(v, op, c0->ncols, c1, c1->ncols));
		if (op->join == LJ_CROSS && op->nexprs)
			return fail(v, op, "V6", "a CROSS join with a condition");
		return FLOE_OK;
	}
	case LOP_WINDOW:
		if (op->ncols != c0->ncols + op->ncalls)
			return fail(v, op, "V6", "columns are not child + calls");
		return passes(v, op, 0, c0, c0->ncols);
	case LOP_PROJECT:
		if (op->nexprs != op->ncols)
			return fail(v, op, "V6", "not one expression per column");
		return FLOE_OK;
	case LOP_AGGREGATE:
		if (op->ncols != op->nexprs + op->naggs + op->ngroupings)
			return fail(v, op, "V6", "columns are not keys + aggregates + grouping() values");
		if (op->nsets && op->nexprs > 64)
			return fail(v, op, "V6", "grouping sets over more than 64 keys");
		if (op->ngroupings && !op->nsets)
			return fail(v, op, "V6", "grouping() values without grouping sets");
		for (int i = 0; i < op->ngroupings; i++)
			for (int k = 0; k < op->groupings[i].nargs; k++)
				if (op->groupings[i].keys[k] < 0 || op->groupings[i].keys[k] >= op->nexprs)
					return fail(v, op, "V6", "a grouping() argument that is no key");
		return FLOE_OK;
	case LOP_OPERATOR:
		if (!op->physical || op->physical->ncols != op->ncols)
			return fail(v, op, "V6", "not one column per operator column");
		for (int i = 0; i < op->ncols; i++)
			if (!same_type(op->cols[i].type, op->physical->types[i]))
				return fail(v, op, "V5", "a column typed unlike its operator's");
		return FLOE_OK;
	case LOP_SETOP:
		for (int i = 0; i < op->nchildren; i++)
			if (op->children[i]->ncols != op->ncols)
				return fail(v, op, "V6", "a child of another width");
		return FLOE_OK;
	case LOP_VALUES:
		if (op->nrows < 1 || !op->rows)
			return fail(v, op, "V6", "no rows");
		return FLOE_OK;
	case LOP_INSERT: case LOP_UPDATE: case LOP_DELETE: case LOP_MERGE:
		if (op->nreturning != op->ncols)
			return fail(v, op, "V6", "not one RETURNING expression per column");
		return FLOE_OK;
	default:
		return FLOE_OK;
	}
}

static uint8_t *
scope_of(Verify *v, const LogicalOp *op, const uint8_t *outer)
{
	uint8_t *vis = arena_calloc(v->a, v->plan->next_id);
	if (outer)
		memcpy(vis, outer, v->plan->next_id);
	if (op->kind == LOP_GET) {
		for (int i = 0; i < op->ncols; i++)
			vis[op->cols[i].id] = 1;
	}
	for (int c = 0; c < op->nchildren; c++)
		for (int i = 0; i < op->children[c]->ncols; i++)
			vis[op->children[c]->cols[i].id] = 1;
	return vis;
}

/* pass 2: V3 (passing nodes), V4-V7; `outer` = correlated ids in scope */
static int
check(Verify *v, const LogicalOp *op, const uint8_t *outer)
{
	const uint8_t *vis;
	const uint8_t *right_outer = outer;

	if (op->kind == LOP_JOIN && op->ncorr) {
		uint8_t *ro = arena_calloc(v->a, v->plan->next_id);
		const LogicalOp *l = op->children[0];
		if (outer)
			memcpy(ro, outer, v->plan->next_id);
		for (int i = 0; i < op->ncorr; i++) {
			if (op->corr[i] == 0 || op->corr[i] >= v->plan->next_id ||
			    lop_find_column(l, op->corr[i]) < 0)
				return fail(v, op, "V4", "a correlated column that is not a left output");
			ro[op->corr[i]] = 1;
		}
		right_outer = ro;
	}
	/* children first, so the first rule reported is the lowest broken one */
	for (int i = 0; i < op->nchildren; i++) {
		bool defines = op->kind == LOP_CTE && i == 1;
		if (defines) {
			if (v->nctes == v->cap_ctes) {
				int cap = v->cap_ctes ? v->cap_ctes * 2 : 8;
				v->ctes = arena_realloc(v->a, v->ctes, sizeof *v->ctes * (size_t)v->cap_ctes,
							sizeof *v->ctes * (size_t)cap);
				v->cap_ctes = cap;
			}
			v->ctes[v->nctes++] = op->cte_id;
		}
		TRY(check(v, op->children[i], op->kind == LOP_JOIN && i == 1 ? right_outer : outer));
		if (defines)
			v->nctes--;
	}
	TRY(check_shape(v, op));
	vis = scope_of(v, op, outer);
	TRY(check_exprs(v, op, op->nexprs, op->exprs, vis));
	switch (op->kind) {
	case LOP_AGGREGATE:
		for (int i = 0; i < op->naggs; i++) {
			const AggCall *a = &op->aggs[i];
			TRY(check_expr(v, op, a->arg, vis));
			TRY(check_expr(v, op, a->arg2, vis));
			TRY(check_expr(v, op, a->filter, vis));
			for (int k = 0; k < a->norder; k++)
				TRY(check_expr(v, op, a->order[k].e, vis));
		}
		break;
	case LOP_WINDOW:
		for (int s = 0; s < op->nspecs; s++) {
			TRY(check_exprs(v, op, op->specs[s].npart, op->specs[s].part, vis));
			TRY(check_exprs(v, op, op->specs[s].norder, op->specs[s].order, vis));
		}
		for (int i = 0; i < op->ncalls; i++) {
			const WindowCall *c = &op->calls[i];
			if (c->spec < 0 || c->spec >= op->nspecs)
				return fail(v, op, "V6", "a window call naming no spec");
			TRY(check_expr(v, op, c->arg, vis));
			TRY(check_expr(v, op, c->arg2, vis));
			TRY(check_expr(v, op, c->arg3, vis));
		}
		break;
	case LOP_SORT: case LOP_DISTINCT:
		for (int i = 0; i < op->nkeys; i++)
			TRY(check_expr(v, op, op->keys[i].e, vis));
		break;
	case LOP_LIMIT: {
		uint8_t *none = arena_calloc(v->a, v->plan->next_id);
		TRY(check_expr(v, op, op->limit, none));
		TRY(check_expr(v, op, op->offset, none));
		break;
	}
	case LOP_VALUES:
		for (int r = 0; r < op->nrows; r++)
			TRY(check_exprs(v, op, op->ncols, op->rows[r], vis));
		break;
	case LOP_INSERT: case LOP_UPDATE: case LOP_DELETE: case LOP_MERGE:
		TRY(check_exprs(v, op, op->nreturning, op->returning, vis));
		break;
	case LOP_CTE_REF: {
		bool found = false;
		for (int i = 0; i < v->nctes; i++)
			found = found || v->ctes[i] == op->cte_id;
		if (!found)
			return fail(v, op, "V7", "a reference to no enclosing CTE");
		break;
	}
	default:
		break;
	}
	return FLOE_OK;
}

int
lplan_verify(const LogicalPlan *plan, const LogicalOp *op, floe_error *err)
{
	Arena *a = arena_new(4096);
	Verify v = { .plan = plan, .err = err, .a = a };
	int rc;

	v.made = arena_calloc(a, plan->next_id);
	v.type = arena_calloc(a, sizeof *v.type * plan->next_id);
	rc = count_made(&v, op);
	if (rc == FLOE_OK)
		for (ColumnId id = 1; id < plan->next_id; id++)
			if (v.made[id] > 1) {
				char msg[96];
				snprintf(msg, sizeof msg, "column #%u is made by %d nodes", id, v.made[id]);
				rc = floe_errorf(err, ERRCODE_INTERNAL_ERROR, "logical plan breaks V3: %s", msg);
				break;
			}
	if (rc == FLOE_OK)
		rc = check(&v, op, NULL);
	arena_free(a);
	return rc;
}
