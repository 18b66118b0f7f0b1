/*
 * physical.c — logical plan -> exec/ Operators (plan/physical.h).
 *
 * lower() handles one node: it lowers the children, then builds the
 * node's operator over them.  INVARIANTS:
 *   P1  the operator lowered for node N produces N's columns in N's order
 *       (so a parent maps a ColumnId to a position by looking it up in its
 *       children's LogicalOp.cols, offset by the widths before it)
 *   P2  every expression handed to exec/ is a copy: the logical plan is
 *       never changed, so it can be lowered again (a cached plan)
 *   P3  a node kind or feature not lowered yet is 0A000 naming it, never a
 *       partial plan
 *   P4  an OPERATOR leaf lowers to the Operator it holds: a plan with one
 *       can be lowered once only
 */
#include "plan/physical.h"
#include "plan/cardinality.h"

#include <stdint.h>
#include <string.h>

#include "func/func.h"

/* A pending magic-set reduction (a LEFT join marked `reduce`): at node
 * `at` of the join's right side, its rows whose keys (ik, over at's
 * columns) no left row has (ok, over the left's columns, materialised in
 * rs) are dropped. */
typedef struct Reduce {
	const LogicalOp *at;
	int nkeys;
	const Expr **ik;
	Expr **ok;               /* already over the left's positions */
	RowStore *rs;
} Reduce;

typedef struct Lower {
	ExecCtx *ctx;
	const LogicalPlan *plan;
	Arena *a;
	/* lowering a dependent join's right side per row (lateral.c): the
	 * left node, whose columns are read as parameters */
	const LogicalOp *outer;
	Reduce *reduce;
} Lower;

/* The inputs an expression's ColumnIds resolve against. */
typedef struct Inputs {
	int n;
	const LogicalOp *op[2];
} Inputs;

static int
not_yet(Lower *L, const char *what)
{
	return floe_errorf(L->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "the logical plan's %s cannot be lowered to operators yet", what);
}

/* position of id in the concatenation of the inputs' columns, or -1 */
static int
position(const Inputs *in, ColumnId id)
{
	int base = 0;
	for (int i = 0; i < in->n; i++) {
		int k = lop_find_column(in->op[i], id);
		if (k >= 0)
			return base + k;
		base += in->op[i]->ncols;
	}
	return -1;
}

/* P2: a copy of e with its ColumnIds replaced by input positions */
static Expr *
remap(Lower *L, const Expr *e, const Inputs *in)
{
	Expr *c;

	if (!e)
		return NULL;
	c = arena_memdup(L->a, e, sizeof *e);
	if (e->kind == EXPR_COLREF && e->col >= EXPR_PARAM_BASE)
		return c;    /* a parameter (logical.h PARAMETERS) */
	if (e->kind == EXPR_COLREF) {
		int pos = position(in, (ColumnId)e->col);
		if (pos < 0 && L->outer && (pos = lop_find_column(L->outer, (ColumnId)e->col)) >= 0) {
			c->col = EXPR_PARAM_BASE + pos;   /* the current left row's value */
			return c;
		}
		if (pos < 0) {
			floe_errorf(L->ctx->err, ERRCODE_INTERNAL_ERROR,
				    "logical plan: column #%d is not an input of the node being lowered",
				    e->col);
			return NULL;
		}
		c->col = pos;
		return c;
	}
	if (e->nargs) {
		c->args = arena_alloc(L->a, sizeof *c->args * (size_t)e->nargs);
		for (int i = 0; i < e->nargs; i++) {
			c->args[i] = remap(L, e->args[i], in);
			if (e->args[i] && !c->args[i])
				return NULL;
		}
	}
	return c;
}

static Expr **
remap_list(Lower *L, int n, Expr *const *es, const Inputs *in)
{
	Expr **out = n ? arena_alloc(L->a, sizeof *out * (size_t)n) : NULL;
	for (int i = 0; i < n; i++)
		if (!(out[i] = remap(L, es[i], in)))
			return NULL;
	return out;
}

static Expr *
and_of(Lower *L, int n, Expr **es)
{
	Expr *e;
	if (n == 1)
		return es[0];
	e = expr_new(L->a, EXPR_AND, type_make(TYPE_BOOL), n);
	memcpy(e->args, es, sizeof *es * (size_t)n);
	return e;
}

static Operator *lower(Lower *L, const LogicalOp *op);

/* x op y over two int8 values (DISTINCT ON, WITH TIES) */
static Expr *
int_cmp(Lower *L, const char *name, Expr *x, int64_t y)
{
	const ScalarFunc *fn;
	SqlType ret, types[2] = { x->type, type_make(TYPE_INT64) }, cast_to[2];
	Value v = value_int(TYPE_INT64, y);
	Expr *e;

	if (func_resolve_scalar(name, types, 2, &fn, &ret, cast_to, L->ctx->err) != FLOE_OK)
		return NULL;
	e = expr_new(L->a, EXPR_FUNC, ret, 2);
	e->fn = fn;
	e->args[0] = expr_cast(L->a, x, cast_to[0], 0);
	e->args[1] = expr_cast(L->a, expr_const(L->a, &v), cast_to[1], 0);
	return e;
}

/* a Project of child's first n columns (dropping helper columns after them) */
static Operator *
first_cols(Lower *L, Operator *child, int n)
{
	Expr **cols = arena_alloc(L->a, sizeof *cols * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++)
		cols[i] = expr_colref(L->a, i, child->types[i]);
	return project_new(L->ctx, child, n, cols);
}

/* a constant LIMIT / OFFSET; NULL leaves *out as it is (no limit, 0) */
static int
const_int(Lower *L, const Expr *e, const char *what, int64_t *out)
{
	Value v;
	if (expr_eval_const(e, L->ctx->env, L->a, &v, L->ctx->err) != FLOE_OK)
		return FLOE_ERR;
	if (v.is_null)
		return FLOE_OK;
	switch (v.type.id) {
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
		*out = v.u.i;
		return FLOE_OK;
	default:
		return floe_errorf(L->ctx->err, ERRCODE_DATATYPE_MISMATCH,
				   "argument of %s must be an integer", what);
	}
}

/* does e read only columns of input op? (and at least one) */
static bool
reads_only(const Expr *e, const LogicalOp *op, bool *any)
{
	if (e->kind == EXPR_COLREF && e->col >= EXPR_PARAM_BASE)
		return true;    /* a parameter: the same for every row of both sides */
	if (e->kind == EXPR_COLREF) {
		*any = true;
		return lop_find_column(op, (ColumnId)e->col) >= 0;
	}
	if (e->kind == EXPR_SUBPLAN)
		return false;
	for (int i = 0; i < e->nargs; i++)
		if (e->args[i] && !reads_only(e->args[i], op, any))
			return false;
	return true;
}

static bool
one_side(const Expr *e, const LogicalOp *op)
{
	bool any = false;
	return reads_only(e, op, &any) && any;
}

/* Split the first n conjuncts of join op's condition into hash keys and a
 * residual: a hashable a = b with a over the left input and b over the
 * right (or the other way round, the sides swapped) is a key, lk[k] / rk[k]
 * remapped to each input's positions; any other conjunct goes to rest[],
 * remapped over both inputs.  false on a remap error (L's error set). */
static bool
split_hash_keys(Lower *L, const LogicalOp *op, int n, Expr **lk, Expr **rk, int *nkeys, Expr **rest,
		int *nrest)
{
	const LogicalOp *lo = op->children[0], *ro = op->children[1];
	Inputs left = { 1, { lo } }, right = { 1, { ro } }, both = { 2, { lo, ro } };

	for (int i = 0; i < n; i++) {
		const Expr *c = op->exprs[i];
		if (c->kind == EXPR_FUNC && c->nargs == 2 && c->fn && strcmp(c->fn->name, "=") == 0 &&
		    hash_join_key_ok(c->args[0]->type, c->args[1]->type)) {
			const Expr *a = c->args[0], *b = c->args[1];
			if (one_side(a, ro) && one_side(b, lo)) {
				const Expr *t = a;
				a = b;
				b = t;
			}
			if (one_side(a, lo) && one_side(b, ro)) {
				if (!(lk[*nkeys] = remap(L, a, &left)) || !(rk[*nkeys] = remap(L, b, &right)))
					return false;
				(*nkeys)++;
				continue;
			}
		}
		if (!(rest[(*nrest)++] = remap(L, c, &both)))
			return false;
	}
	return true;
}

/* ANTI null_aware (x NOT IN (subquery)): exec's NOT IN join on its one
 * condition x = y, x over the left input (or a constant: 5 NOT IN ...),
 * y over the right */
static Operator *
lower_not_in(Lower *L, const LogicalOp *op, Operator *l, Operator *r)
{
	const LogicalOp *lo = op->children[0], *ro = op->children[1];
	Inputs left = { 1, { lo } }, right = { 1, { ro } };
	const Expr *c = op->nexprs == 1 ? op->exprs[0] : NULL, *a, *b;
	bool any = false;
	Expr **lk = arena_alloc(L->a, sizeof *lk), **rk = arena_alloc(L->a, sizeof *rk);

	if (!c || c->kind != EXPR_FUNC || c->nargs != 2 || !c->fn || strcmp(c->fn->name, "=") != 0 ||
	    !hash_join_key_ok(c->args[0]->type, c->args[1]->type))
		return not_yet(L, "NOT IN join on other than one hashable x = y"), NULL;
	a = c->args[0];
	b = c->args[1];
	if (!(reads_only(a, lo, &any) && reads_only(b, ro, &any))) {
		const Expr *t = a;
		a = b;
		b = t;
		if (!(reads_only(a, lo, &any) && reads_only(b, ro, &any)))
			return not_yet(L, "NOT IN join whose x = y mixes the inputs"), NULL;
	}
	/* the key arrays stay the operator's (hash_join_new keeps them) */
	if (!(*lk = remap(L, a, &left)) || !(*rk = remap(L, b, &right)))
		return NULL;
	return hash_join_new(L->ctx, l, r, JOIN_NOT_IN, 1, lk, rk, NULL, false);
}

/* MARK (EXISTS / IN inside an expression): exec's MARK hash join, every
 * left row plus the mark.  Its hashable left = right conjuncts are keys,
 * the rest the residual; null_aware (IN): the last conjunct is IN's
 * comparison, three-valued: the join's one key when it is the only
 * conjunct and a hashable x = y (x over the left input or a constant: an
 * uncorrelated IN), else tested on the pairs the keys and residual let
 * through (hash_join_set_mark). */
static Operator *
lower_mark(Lower *L, const LogicalOp *op, Operator *l, Operator *r)
{
	const LogicalOp *lo = op->children[0], *ro = op->children[1];
	Inputs left = { 1, { lo } }, right = { 1, { ro } }, both = { 2, { lo, ro } };
	int n = op->nexprs - (op->null_aware ? 1 : 0), nkeys = 0, nrest = 0;
	Expr **lk = arena_alloc(L->a, sizeof *lk * (size_t)(op->nexprs + 1));
	Expr **rk = arena_alloc(L->a, sizeof *rk * (size_t)(op->nexprs + 1));
	Expr **rest = arena_alloc(L->a, sizeof *rest * (size_t)(op->nexprs + 1));
	Expr *cmp = NULL;
	Operator *j;

	if (op->null_aware && op->nexprs < 1)
		return not_yet(L, "MARK join for IN without its comparison"), NULL;
	if (op->null_aware && n == 0) {
		const Expr *c = op->exprs[0], *a, *b;
		bool any = false;
		if (c->kind == EXPR_FUNC && c->nargs == 2 && c->fn && strcmp(c->fn->name, "=") == 0 &&
		    hash_join_key_ok(c->args[0]->type, c->args[1]->type)) {
			a = c->args[0];
			b = c->args[1];
			if (!(reads_only(a, lo, &any) && reads_only(b, ro, &any))) {
				const Expr *t = a;
				a = b;
				b = t;
			}
			any = false;
			if (reads_only(a, lo, &any) && one_side(b, ro)) {
				if (!(lk[0] = remap(L, a, &left)) || !(rk[0] = remap(L, b, &right)))
					return NULL;
				j = hash_join_new(L->ctx, l, r, JOIN_MARK, 1, lk, rk, NULL, false);
				hash_join_set_mark(j, NULL, true);
				j->est_rows = lo->est_rows;
				return j;
			}
		}
	}
	if (!split_hash_keys(L, op, n, lk, rk, &nkeys, rest, &nrest))
		return NULL;
	if (op->null_aware && !(cmp = remap(L, op->exprs[n], &both)))
		return NULL;
	j = hash_join_new(L->ctx, l, r, JOIN_MARK, nkeys, lk, rk, nrest ? and_of(L, nrest, rest) : NULL, false);
	hash_join_set_mark(j, cmp, false);
	j->est_rows = lo->est_rows;
	return j;
}

static Operator *
lower_join(Lower *L, const LogicalOp *op, Operator *l, Operator *r)
{
	static const JoinType kinds[] = {
		[LJ_INNER] = JOIN_INNER, [LJ_LEFT] = JOIN_LEFT, [LJ_RIGHT] = JOIN_RIGHT,
		[LJ_FULL] = JOIN_FULL, [LJ_SEMI] = JOIN_SEMI, [LJ_ANTI] = JOIN_ANTI,
		[LJ_CROSS] = JOIN_INNER,
	};
	const LogicalOp *lo = op->children[0], *ro = op->children[1];
	Expr **lk = arena_alloc(L->a, sizeof *lk * (size_t)(op->nexprs + 1));
	Expr **rk = arena_alloc(L->a, sizeof *rk * (size_t)(op->nexprs + 1));
	Expr **rest = arena_alloc(L->a, sizeof *rest * (size_t)(op->nexprs + 1));
	int nkeys = 0, nrest = 0;
	JoinType jt;
	bool build_left;
	Operator *j;

	if (op->ncorr)
		return not_yet(L, "dependent join"), NULL;
	if (op->join == LJ_MARK)
		return lower_mark(L, op, l, r);
	if (op->join == LJ_SINGLE)
		return not_yet(L, "SINGLE join"), NULL;
	if (op->join == LJ_ANTI && op->null_aware)
		return lower_not_in(L, op, l, r);
	jt = kinds[op->join];
	if (!split_hash_keys(L, op, op->nexprs, lk, rk, &nkeys, rest, &nrest))
		return NULL;
	/* the build side: the smaller input when both estimates are known,
	 * else the right one (SEMI/ANTI always build the right: hash_join.c) */
	build_left = lo->est_rows >= 0 && ro->est_rows >= 0 && lo->est_rows < ro->est_rows;
	j = hash_join_new(L->ctx, l, r, jt, nkeys, lk, rk, nrest ? and_of(L, nrest, rest) : NULL,
			  build_left);
	if (op->join == LJ_INNER && op->est_rows >= 0)
		j->est_rows = op->est_rows;     /* the binder's, from the keys' distinct counts */
	else if (jt == JOIN_INNER || jt == JOIN_LEFT || jt == JOIN_RIGHT || jt == JOIN_FULL)
		j->est_rows = lo->est_rows < 0 || ro->est_rows < 0 ? -1 :
			      nkeys ? (lo->est_rows > ro->est_rows ? lo->est_rows : ro->est_rows) :
			      lo->est_rows * ro->est_rows;
	return j;
}

/* Is key k of the Aggregate ag equated with a value of the left side lo
 * by a conjunct of the Filters under it (or of the Get they were pushed
 * into)? */
static bool
key_correlated(const LogicalOp *ag, int k, const LogicalOp *lo)
{
	for (const LogicalOp *f = ag->children[0];; f = f->children[0]) {
		for (int i = 0; i < f->nexprs && (f->kind == LOP_FILTER || f->kind == LOP_GET); i++) {
			const Expr *c = f->exprs[i];
			if (c->kind != EXPR_FUNC || c->nargs != 2 || !c->fn || strcmp(c->fn->name, "=") != 0)
				continue;
			for (int s = 0; s < 2; s++)
				if (expr_equal(c->args[s], ag->exprs[k]) && one_side(c->args[1 - s], lo))
					return true;
		}
		if (f->kind != LOP_FILTER)
			return false;
	}
}

/* Is each key of ag so equated (GROUP BY a correlated column: one group
 * per left row at most)? */
static bool
keys_correlated(const LogicalOp *ag, const LogicalOp *lo)
{
	for (int k = 0; k < ag->nexprs; k++)
		if (!key_correlated(ag, k, lo))
			return false;
	return true;
}

/* A dependent join not decorrelated (optimize/decorrelate.c switched off
 * or the shape not its): the right side lowered with its own ExecCtx whose
 * parameters are the left row's columns, run once per left row
 * (exec/lateral.c).  SINGLE over an ungrouped Aggregate only: at most one
 * right row, and NULLs when there is none (a scalar subquery's value). */
static Operator *
lower_dependent(Lower *L, const LogicalOp *op)
{
	const LogicalOp *lo = op->children[0], *ro = op->children[1], *one = ro;
	ExecCtx *rctx;
	Lower R;
	Operator *l, *r;

	while (one->kind == LOP_PROJECT || one->kind == LOP_FILTER)
		one = one->children[0];
	if (op->join != LJ_SINGLE || op->nexprs || one->kind != LOP_AGGREGATE || one->nsets ||
	    (one->nexprs && !keys_correlated(one, lo)))
		return not_yet(L, "dependent join other than a SINGLE join over an aggregate with one group at most"),
		       NULL;
	if (L->ctx->nparams || L->outer)
		return not_yet(L, "dependent join inside a parameterised plan"), NULL;
	if (!(l = lower(L, lo)))
		return NULL;
	rctx = arena_alloc(L->a, sizeof *rctx);
	*rctx = *L->ctx;
	rctx->nparams = lo->ncols;
	rctx->params = arena_calloc(L->a, sizeof *rctx->params * (size_t)(lo->ncols + 1));
	R = *L;
	R.ctx = rctx;
	R.outer = lo;
	R.reduce = NULL;
	if (!(r = lower(&R, ro)))
		return NULL;
	return lateral_new(L->ctx, l, r, rctx, JOIN_LEFT, NULL);
}

/* do all n expressions read only op's columns (or parameters)? */
static bool
all_read(int n, const Expr **es, const LogicalOp *op)
{
	for (int i = 0; i < n; i++) {
		bool any = false;
		if (!reads_only(es[i], op, &any))
			return false;
	}
	return true;
}

/* The node of a reduced join's right side (below its Aggregate, `in`)
 * where the reduction applies: as deep as the keys stay readable, through
 * Filters and the key side of inner joins (and the preserved side of
 * LEFT, SEMI and ANTI joins), where dropping rows whose keys no left row
 * has removes only rows of groups the join never finds. */
static const LogicalOp *
reduce_point(const LogicalOp *in, int n, const Expr **ik)
{
	for (;;) {
		if (in->kind == LOP_FILTER) {
			in = in->children[0];
			continue;
		}
		if (in->kind == LOP_JOIN && !in->ncorr) {
			const LogicalOp *l = in->children[0], *r = in->children[1];
			bool inner = in->join == LJ_INNER || in->join == LJ_CROSS;
			if ((inner || in->join == LJ_LEFT || in->join == LJ_SEMI || in->join == LJ_ANTI) &&
			    all_read(n, ik, l)) {
				in = l;
				continue;
			}
			if (inner && all_read(n, ik, r)) {
				in = r;
				continue;
			}
		}
		return in;
	}
}

/* node `at`'s rows semi-joined with the left rows' keys (red): a Get's
 * below its pushed-down filters (a hash probe is cheaper than most
 * filters) */
static Operator *
lower_reduce_at(Lower *L, const LogicalOp *at, Reduce *red)
{
	Inputs self = { 1, { at } };
	Expr **lk = arena_alloc(L->a, sizeof *lk * (size_t)red->nkeys);
	Expr **rk = arena_alloc(L->a, sizeof *rk * (size_t)red->nkeys);
	Operator *o;

	for (int i = 0; i < red->nkeys; i++) {
		if (!(lk[i] = remap(L, red->ik[i], &self)))
			return NULL;
		rk[i] = red->ok[i];
	}
	if (at->kind == LOP_GET && at->nexprs && at->scan) {
		Expr **conj;
		if (!(o = at->scan(L->ctx, at, at->scan_arg)))
			return NULL;
		if (o->ncols != at->ncols)
			return floe_errorf(L->ctx->err, ERRCODE_INTERNAL_ERROR,
					   "logical plan: a Get's scan of another width"), NULL;
		o = hash_join_new(L->ctx, o, rowstore_scan_new(L->ctx, red->rs), JOIN_SEMI, red->nkeys, lk, rk,
				  NULL, false);
		conj = remap_list(L, at->nexprs, at->exprs, &self);
		return conj ? filter_new(L->ctx, o, and_of(L, at->nexprs, conj)) : NULL;
	}
	if (!(o = lower(L, at)))
		return NULL;
	return hash_join_new(L->ctx, o, rowstore_scan_new(L->ctx, red->rs), JOIN_SEMI, red->nkeys, lk, rk, NULL,
			     false);
}

/* A LEFT join marked reduce (optimize/decorrelate.c) whose right side is
 * an Aggregate grouped on the keys its condition equates with the left's
 * (under Filters: HAVING):
 * the left rows materialised once (exec/buffer.c), their keys semi-join
 * the aggregate's input at reduce_point, the join reads them again.  Any
 * other shape: the plain join. */
static Operator *
lower_reduced(Lower *L, const LogicalOp *op)
{
	const LogicalOp *lo = op->children[0], *ro = op->children[1], *ag = ro;
	Inputs left = { 1, { lo } };
	const Expr **ik = arena_alloc(L->a, sizeof *ik * (size_t)(op->nexprs + 1));
	Expr **ok = arena_alloc(L->a, sizeof *ok * (size_t)(op->nexprs + 1));
	int n = 0;
	Reduce red, *saved = L->reduce;
	Operator *l, *r;

	while (ag->kind == LOP_FILTER)      /* HAVING over a grouped subquery */
		ag = ag->children[0];
	if (ag->kind == LOP_AGGREGATE && !ag->nsets) {
		for (int i = 0; i < op->nexprs; i++) {
			const Expr *c = op->exprs[i], *a, *b;
			int k;
			if (c->kind != EXPR_FUNC || c->nargs != 2 || !c->fn || strcmp(c->fn->name, "=") != 0 ||
			    !hash_join_key_ok(c->args[0]->type, c->args[1]->type))
				continue;
			a = c->args[0];
			b = c->args[1];
			if (b->kind != EXPR_COLREF || b->col >= EXPR_PARAM_BASE ||
			    lop_find_column(ag, (ColumnId)b->col) < 0) {
				const Expr *t = a;
				a = b;
				b = t;
			}
			if (b->kind != EXPR_COLREF || b->col >= EXPR_PARAM_BASE ||
			    (k = lop_find_column(ag, (ColumnId)b->col)) < 0 || k >= ag->nexprs || !one_side(a, lo))
				continue;
			if (!(ok[n] = remap(L, a, &left)))
				return NULL;
			ik[n++] = ag->exprs[k];
		}
	}
	if (!n) {
		if (!(l = lower(L, lo)) || !(r = lower(L, ro)))
			return NULL;
		return lower_join(L, op, l, r);
	}
	if (!(l = lower(L, lo)))
		return NULL;
	red.at = reduce_point(ag->children[0], n, ik);
	red.nkeys = n;
	red.ik = ik;
	red.ok = ok;
	red.rs = rowstore_new(L->ctx, l->ncols, l->types, l);
	L->reduce = &red;
	r = lower(L, ro);
	L->reduce = saved;
	if (!r)
		return NULL;
	if (red.at)
		return floe_errorf(L->ctx->err, ERRCODE_INTERNAL_ERROR,
				   "logical plan: a reduced join's reduction was not placed"), NULL;
	return lower_join(L, op, rowstore_scan_new(L->ctx, red.rs), r);
}

/* GROUPING SETS: the input materialised once, one aggregation per set over
 * it, each projected to every key (NULL where the set lacks it), the
 * aggregates and the grouping() values (constants per set); the sets'
 * rows appended (one set: no Append) */
static Operator *
lower_grouping_sets(Lower *L, const LogicalOp *op, Operator *child, Expr **keys, AggCall *aggs)
{
	RowStore *rs = rowstore_new(L->ctx, child->ncols, child->types, child);
	Operator **br = arena_alloc(L->a, sizeof *br * (size_t)op->nsets);
	int nkeys = op->nexprs, nout = op->ncols;

	for (int s = 0; s < op->nsets; s++) {
		Expr **sk = arena_alloc(L->a, sizeof *sk * (size_t)(nkeys + 1));
		Expr **ex = arena_alloc(L->a, sizeof *ex * (size_t)(nout + 1));
		int *pos = arena_alloc(L->a, sizeof *pos * (size_t)(nkeys + 1));
		int n = 0;
		Operator *ha;

		for (int k = 0; k < nkeys; k++) {
			pos[k] = -1;
			if (op->sets[s] & ((uint64_t)1 << k)) {
				sk[n] = keys[k];
				pos[k] = n++;
			}
		}
		ha = hash_agg_new(L->ctx, rowstore_scan_new(L->ctx, rs), n, sk, op->naggs, aggs, n == 0);
		for (int k = 0; k < nkeys; k++) {
			if (pos[k] >= 0) {
				ex[k] = expr_colref(L->a, pos[k], op->cols[k].type);
			} else {
				Value nv = value_null(op->cols[k].type);
				ex[k] = expr_const(L->a, &nv);
			}
		}
		for (int j = 0; j < op->naggs; j++)
			ex[nkeys + j] = expr_colref(L->a, n + j, op->aggs[j].type);
		for (int j = 0; j < op->ngroupings; j++) {
			const LogicalGrouping *g = &op->groupings[j];
			int64_t v = 0;
			Value gv;
			for (int a = 0; a < g->nargs; a++)
				v = (v << 1) | (pos[g->keys[a]] >= 0 ? 0 : 1);
			gv = value_int(TYPE_INT32, v);
			ex[nkeys + op->naggs + j] = expr_const(L->a, &gv);
		}
		br[s] = project_new(L->ctx, ha, nout, ex);
	}
	return op->nsets == 1 ? br[0] : append_new(L->ctx, op->nsets, br);
}

/* A hash aggregation's estimated groups from its keys' distinct counts
 * (cardinality.h): EXPLAIN's rows and its first table size. */
static Operator *
with_groups(Operator *agg, const LogicalOp *op)
{
	double g = lcard_groups(op);

	if (agg && g >= 0)
		agg->est_rows = g;
	return agg;
}

static Operator *
lower_aggregate(Lower *L, const LogicalOp *op, Operator *child, bool distinct)
{
	const LogicalOp *co = op->children[0];
	Inputs in = { 1, { co } };
	Expr **keys;
	AggCall *aggs = NULL;

	if (distinct) {
		keys = arena_alloc(L->a, sizeof *keys * (size_t)co->ncols);
		for (int i = 0; i < co->ncols; i++)
			keys[i] = expr_colref(L->a, i, co->cols[i].type);
		return with_groups(hash_agg_new(L->ctx, child, co->ncols, keys, 0, NULL, false), op);
	}
	if (!(keys = remap_list(L, op->nexprs, op->exprs, &in)) && op->nexprs)
		return NULL;
	if (op->naggs) {
		aggs = arena_memdup(L->a, op->aggs, sizeof *aggs * (size_t)op->naggs);
		for (int i = 0; i < op->naggs; i++) {
			const AggCall *s = &op->aggs[i];
			AggCall *d = &aggs[i];
			if ((s->arg && !(d->arg = remap(L, s->arg, &in))) ||
			    (s->arg2 && !(d->arg2 = remap(L, s->arg2, &in))) ||
			    (s->filter && !(d->filter = remap(L, s->filter, &in))))
				return NULL;
			if (s->norder) {
				d->order = arena_memdup(L->a, s->order, sizeof *d->order * (size_t)s->norder);
				for (int k = 0; k < s->norder; k++)
					if (!(d->order[k].e = remap(L, s->order[k].e, &in)))
						return NULL;
			}
		}
	}
	if (op->nsets)
		return lower_grouping_sets(L, op, child, keys, aggs);
	return with_groups(hash_agg_new(L->ctx, child, op->nexprs, keys, op->naggs, aggs,
					op->nexprs == 0), op);
}

/* SORT: keys that are columns sort in place; any other key is computed by
 * a Project below (child columns + keys) and dropped by one above */
static Operator *
lower_sort(Lower *L, const LogicalOp *op, Operator *child)
{
	const LogicalOp *co = op->children[0];
	Inputs in = { 1, { co } };
	SortKey *keys = arena_calloc(L->a, sizeof *keys * (size_t)op->nkeys);
	Expr **extra = arena_alloc(L->a, sizeof *extra * (size_t)op->nkeys);
	int nextra = 0;

	for (int i = 0; i < op->nkeys; i++) {
		const Expr *e = op->keys[i].e;
		keys[i].desc = op->keys[i].desc;
		keys[i].nulls_first = op->keys[i].nulls_first;
		if (e->kind == EXPR_COLREF && (keys[i].col = position(&in, (ColumnId)e->col)) >= 0)
			continue;
		if (!(extra[nextra] = remap(L, e, &in)))
			return NULL;
		keys[i].col = co->ncols + nextra++;
	}
	if (nextra == 0)
		return sort_new(L->ctx, child, op->nkeys, keys);
	{
		int w = co->ncols + nextra;
		Expr **cols = arena_alloc(L->a, sizeof *cols * (size_t)w);
		Operator *wide, *sorted;
		for (int i = 0; i < co->ncols; i++)
			cols[i] = expr_colref(L->a, i, co->cols[i].type);
		memcpy(cols + co->ncols, extra, sizeof *extra * (size_t)nextra);
		wide = project_new(L->ctx, child, w, cols);
		sorted = sort_new(L->ctx, wide, op->nkeys, keys);
		return project_new(L->ctx, sorted, co->ncols, cols);
	}
}

/* DISTINCT ON (keys) in ORDER BY's order: the first row of each key group
 * = row_number() OVER (PARTITION BY keys ORDER BY the rest of the order)
 * = 1, the row number dropped again */
static Operator *
lower_distinct_on(Lower *L, const LogicalOp *op, Operator *child)
{
	const LogicalOp *co = op->children[0];
	Inputs in = { 1, { co } };
	WindowSpec *sp = arena_calloc(L->a, sizeof *sp);
	WindowCall *wc = arena_calloc(L->a, sizeof *wc);
	Operator *w, *f;
	Expr *eq;

	if (!(sp->part = remap_list(L, op->nexprs, op->exprs, &in)))
		return NULL;
	sp->npart = op->nexprs;
	sp->order = arena_alloc(L->a, sizeof *sp->order * (size_t)(op->nkeys + 1));
	sp->dirs = arena_calloc(L->a, sizeof *sp->dirs * (size_t)(op->nkeys + 1));
	for (int i = 0; i < op->nkeys; i++) {
		bool on = false;
		for (int j = 0; j < op->nexprs && !on; j++)
			on = expr_equal(op->keys[i].e, op->exprs[j]);
		if (on)
			continue;
		if (!(sp->order[sp->norder] = remap(L, op->keys[i].e, &in)))
			return NULL;
		sp->dirs[sp->norder].col = sp->order[sp->norder]->kind == EXPR_COLREF ? sp->order[sp->norder]->col : 0;
		sp->dirs[sp->norder].desc = op->keys[i].desc;
		sp->dirs[sp->norder].nulls_first = op->keys[i].nulls_first;
		sp->norder++;
	}
	wc->kind = WIN_ROW_NUMBER;
	wc->type = type_make(TYPE_INT64);
	w = window_new(L->ctx, child, 1, sp, 1, wc);
	if (!(eq = int_cmp(L, "=", expr_colref(L->a, co->ncols, wc->type), 1)))
		return NULL;
	f = filter_new(L->ctx, w, eq);
	return first_cols(L, f, co->ncols);
}

/* FETCH FIRST n ROWS WITH TIES after OFFSET m, over a SORT: a row is kept
 * when its row_number() > m and its rank() <= m + n (it is among the first
 * n, or a peer of the n-th), computed below the sort */
static Operator *lower_sort(Lower *L, const LogicalOp *op, Operator *child);

static Operator *
lower_with_ties(Lower *L, const LogicalOp *op, int64_t limit, int64_t offset)
{
	const LogicalOp *so = op->children[0], *co;
	Inputs in;
	WindowSpec *sp = arena_calloc(L->a, sizeof *sp);
	WindowCall *wc = arena_calloc(L->a, sizeof *wc * 2);
	Operator *child, *w, *f, *sorted;
	Expr *c[2];
	int64_t hi = limit > INT64_MAX - offset ? INT64_MAX : offset + limit;

	if (so->kind != LOP_SORT)
		return not_yet(L, "LIMIT WITH TIES over anything but a Sort"), NULL;
	co = so->children[0];
	in.n = 1;
	in.op[0] = co;
	if (!(child = lower(L, co)))
		return NULL;
	sp->norder = so->nkeys;
	sp->order = arena_alloc(L->a, sizeof *sp->order * (size_t)(so->nkeys + 1));
	sp->dirs = arena_calloc(L->a, sizeof *sp->dirs * (size_t)(so->nkeys + 1));
	for (int i = 0; i < so->nkeys; i++) {
		if (!(sp->order[i] = remap(L, so->keys[i].e, &in)))
			return NULL;
		sp->dirs[i].col = sp->order[i]->kind == EXPR_COLREF ? sp->order[i]->col : 0;
		sp->dirs[i].desc = so->keys[i].desc;
		sp->dirs[i].nulls_first = so->keys[i].nulls_first;
	}
	wc[0].kind = WIN_ROW_NUMBER;
	wc[1].kind = WIN_RANK;
	wc[0].type = wc[1].type = type_make(TYPE_INT64);
	w = window_new(L->ctx, child, 1, sp, 2, wc);
	if (!(c[0] = int_cmp(L, ">", expr_colref(L->a, co->ncols, wc[0].type), offset)) ||
	    !(c[1] = int_cmp(L, "<=", expr_colref(L->a, co->ncols + 1, wc[1].type), hi)))
		return NULL;
	f = filter_new(L->ctx, w, and_of(L, 2, arena_memdup(L->a, c, sizeof c)));
	if (!(sorted = lower_sort(L, so, f)))
		return NULL;
	return sorted->ncols == co->ncols ? sorted : first_cols(L, sorted, co->ncols);
}

/* INTERSECT / EXCEPT [ALL]: each side tagged (1, 0) / (0, 1), appended,
 * counted per distinct row with two sum()s, then exec's SetOp.  A side
 * that is a Project (the binder's cast to the common types) gets its tags
 * in that Project. */
static Operator *
lower_intersect_except(Lower *L, const LogicalOp *op)
{
	static const int tag[2][2] = { { 1, 0 }, { 0, 1 } };
	Operator *kids[2], *app, *agg;
	int n = op->ncols;
	Expr **dk = arena_alloc(L->a, sizeof *dk * (size_t)(n + 1));
	AggCall *aggs = arena_calloc(L->a, sizeof *aggs * 2);
	SqlType it = type_make(TYPE_INT32), cast_to;

	for (int i = 0; i < 2; i++) {
		const LogicalOp *ch = op->children[i];
		Expr **ex = arena_alloc(L->a, sizeof *ex * (size_t)(n + 2));
		Operator *below;
		if (ch->kind == LOP_PROJECT) {
			Inputs in = { 1, { ch->children[0] } };
			Expr **es = remap_list(L, ch->nexprs, ch->exprs, &in);
			if ((!es && ch->nexprs) || !(below = lower(L, ch->children[0])))
				return NULL;
			if (n)
				memcpy(ex, es, sizeof *ex * (size_t)n);
		} else {
			if (!(below = lower(L, ch)))
				return NULL;
			for (int c = 0; c < n; c++)
				ex[c] = expr_colref(L->a, c, ch->cols[c].type);
		}
		for (int t = 0; t < 2; t++) {
			Value v = value_int(TYPE_INT32, tag[i][t]);
			ex[n + t] = expr_const(L->a, &v);
		}
		kids[i] = project_new(L->ctx, below, n + 2, ex);
	}
	app = append_new(L->ctx, 2, arena_memdup(L->a, kids, sizeof kids));
	for (int c = 0; c < n; c++)
		dk[c] = expr_colref(L->a, c, op->cols[c].type);
	for (int i = 0; i < 2; i++) {
		if (func_resolve_agg("sum", &it, 1, false, &aggs[i].fn, &aggs[i].type, &cast_to, L->ctx->err) !=
		    FLOE_OK)
			return NULL;
		aggs[i].arg = expr_colref(L->a, n + i, it);
	}
	agg = hash_agg_new(L->ctx, app, n, dk, 2, aggs, false);
	return setop_new(L->ctx, agg, op->setop == LSET_INTERSECT ? SETOP_INTERSECT : SETOP_EXCEPT, op->all);
}

static Operator *
lower_window(Lower *L, const LogicalOp *op, Operator *child)
{
	Inputs in = { 1, { op->children[0] } };
	WindowSpec *specs = arena_memdup(L->a, op->specs, sizeof *specs * (size_t)op->nspecs);
	WindowCall *calls = arena_memdup(L->a, op->calls, sizeof *calls * (size_t)op->ncalls);

	for (int s = 0; s < op->nspecs; s++) {
		if ((op->specs[s].npart &&
		     !(specs[s].part = remap_list(L, op->specs[s].npart, op->specs[s].part, &in))) ||
		    (op->specs[s].norder &&
		     !(specs[s].order = remap_list(L, op->specs[s].norder, op->specs[s].order, &in))))
			return NULL;
	}
	for (int i = 0; i < op->ncalls; i++) {
		const WindowCall *c = &op->calls[i];
		if ((c->arg && !(calls[i].arg = remap(L, c->arg, &in))) ||
		    (c->arg2 && !(calls[i].arg2 = remap(L, c->arg2, &in))) ||
		    (c->arg3 && !(calls[i].arg3 = remap(L, c->arg3, &in))))
			return NULL;
	}
	return window_new(L->ctx, child, op->nspecs, specs, op->ncalls, calls);
}

static Operator *
lower(Lower *L, const LogicalOp *op)
{
	Operator *kids[2] = { NULL, NULL };
	Inputs in = { 0, { NULL, NULL } };

	if (exec_check_cancel(L->ctx) != FLOE_OK)
		return NULL;
	if (L->reduce && L->reduce->at == op) {
		Reduce *red = L->reduce;
		Operator *o;
		L->reduce = NULL;
		o = lower_reduce_at(L, op, red);
		red->at = NULL;     /* placed */
		L->reduce = red;
		return o;
	}
	switch (op->kind) {
	case LOP_JOIN:
		if (op->ncorr)
			return lower_dependent(L, op);
		if (op->reduce && op->join == LJ_LEFT)
			return lower_reduced(L, op);
		break;
	case LOP_GET: {
		Operator *scan;
		if (!op->scan)
			return not_yet(L, "Get without a table source"), NULL;
		if (!(scan = op->scan(L->ctx, op, op->scan_arg)))
			return NULL;
		if (scan->ncols != op->ncols)
			return floe_errorf(L->ctx->err, ERRCODE_INTERNAL_ERROR,
					   "logical plan: a Get's scan of another width"), NULL;
		if (op->nexprs) {
			/* pushed-down filters (optimize/pushdown_filter.c): a
			 * Filter over the scan, which hands its predicates to the
			 * scan's pruning (exec/filter.c) */
			Inputs self = { 1, { op } };
			Expr **conj = remap_list(L, op->nexprs, op->exprs, &self);
			return conj ? filter_new(L->ctx, scan, and_of(L, op->nexprs, conj)) : NULL;
		}
		return scan;
	}
	case LOP_TABLE_FUNC: return not_yet(L, "TableFunction"), NULL;
	case LOP_CTE: return not_yet(L, "CTE"), NULL;
	case LOP_CTE_REF: return not_yet(L, "CTERef"), NULL;
	case LOP_INSERT: case LOP_UPDATE: case LOP_DELETE: case LOP_MERGE:
		return not_yet(L, lop_kind_name(op->kind)), NULL;
	case LOP_OPERATOR:
		if (op->physical->ncols != op->ncols)
			return floe_errorf(L->ctx->err, ERRCODE_INTERNAL_ERROR,
					   "logical plan: an Operator leaf of another width"), NULL;
		return op->physical;
	case LOP_LIMIT:
		if (op->with_ties) {
			int64_t limit = INT64_MIN, offset = 0;
			if ((op->limit && const_int(L, op->limit, "LIMIT", &limit) != FLOE_OK) ||
			    (op->offset && const_int(L, op->offset, "OFFSET", &offset) != FLOE_OK))
				return NULL;
			if (limit < 0 || offset < 0)
				return floe_errorf(L->ctx->err, ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE,
						   "%s must not be negative", offset < 0 ? "OFFSET" : "LIMIT"),
				       NULL;
			return lower_with_ties(L, op, limit, offset);
		}
		break;
	case LOP_SETOP:
		if (op->setop != LSET_UNION)
			return lower_intersect_except(L, op);
		{
			Operator **ch = arena_alloc(L->a, sizeof *ch * (size_t)op->nchildren);
			Operator *app;
			for (int i = 0; i < op->nchildren; i++)
				if (!(ch[i] = lower(L, op->children[i])))
					return NULL;
			app = append_new(L->ctx, op->nchildren, ch);
			if (op->all)
				return app;
			{
				Expr **keys = arena_alloc(L->a, sizeof *keys * (size_t)op->ncols);
				for (int i = 0; i < op->ncols; i++)
					keys[i] = expr_colref(L->a, i, op->cols[i].type);
				return hash_agg_new(L->ctx, app, op->ncols, keys, 0, NULL, false);
			}
		}
	default:
		break;
	}
	for (int i = 0; i < op->nchildren && i < 2; i++) {
		if (!(kids[i] = lower(L, op->children[i])))
			return NULL;
		in.op[in.n++] = op->children[i];
	}
	switch (op->kind) {
	case LOP_VALUES: {
		Expr ***rows = arena_alloc(L->a, sizeof *rows * (size_t)op->nrows);
		SqlType *types = arena_alloc(L->a, sizeof *types * (size_t)(op->ncols ? op->ncols : 1));
		for (int c = 0; c < op->ncols; c++)
			types[c] = op->cols[c].type;
		for (int r = 0; r < op->nrows; r++)
			if (!(rows[r] = remap_list(L, op->ncols, op->rows[r], &in)) && op->ncols)
				return NULL;
		return values_new(L->ctx, op->ncols, types, op->nrows, rows);
	}
	case LOP_FILTER: {
		Expr **conj = remap_list(L, op->nexprs, op->exprs, &in);
		return conj ? filter_new(L->ctx, kids[0], and_of(L, op->nexprs, conj)) : NULL;
	}
	case LOP_PROJECT: {
		Expr **es = remap_list(L, op->nexprs, op->exprs, &in);
		return es || !op->nexprs ? project_new(L->ctx, kids[0], op->nexprs, es) : NULL;
	}
	case LOP_JOIN:
		return lower_join(L, op, kids[0], kids[1]);
	case LOP_AGGREGATE:
		return lower_aggregate(L, op, kids[0], false);
	case LOP_DISTINCT:
		if (op->nexprs)
			return lower_distinct_on(L, op, kids[0]);
		return lower_aggregate(L, op, kids[0], true);
	case LOP_WINDOW:
		return lower_window(L, op, kids[0]);
	case LOP_SORT:
		return lower_sort(L, op, kids[0]);
	case LOP_LIMIT: {
		int64_t limit = INT64_MIN, offset = 0;   /* INT64_MIN: none (or NULL) */
		if ((op->limit && const_int(L, op->limit, "LIMIT", &limit) != FLOE_OK) ||
		    (op->offset && const_int(L, op->offset, "OFFSET", &offset) != FLOE_OK))
			return NULL;
		if ((limit < 0 && limit != INT64_MIN) || offset < 0)
			return floe_errorf(L->ctx->err, ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE,
					   "%s must not be negative", offset < 0 ? "OFFSET" : "LIMIT"),
			       NULL;
		return limit_new(L->ctx, kids[0], limit == INT64_MIN ? -1 : limit, offset);
	}
	default:
		return not_yet(L, lop_kind_name(op->kind)), NULL;
	}
}

Operator *
physical_lower(ExecCtx *ctx, const LogicalPlan *plan, const LogicalOp *op)
{
	Lower L = { .ctx = ctx, .plan = plan, .a = ctx->arena };
	return lower(&L, op);
}
