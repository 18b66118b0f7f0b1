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
 */
#include "plan/physical.h"

#include <stdint.h>
#include <string.h>

#include "func/func.h"

typedef struct Lower {
	ExecCtx *ctx;
	const LogicalPlan *plan;
	Arena *a;
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
	if (e->kind == EXPR_COLREF) {
		int pos = position(in, (ColumnId)e->col);
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

/* a constant LIMIT / OFFSET; NULL leaves *out as it is (no limit, 0) */
static int
const_int(Lower *L, const Expr *e, const char *what, int64_t *out)
{
	Value v;
	if (expr_eval_const(e, L->a, &v, L->ctx->err) != FLOE_OK)
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

static Operator *
lower_join(Lower *L, const LogicalOp *op, Operator *l, Operator *r)
{
	static const JoinType kinds[] = {
		[LJ_INNER] = JOIN_INNER, [LJ_LEFT] = JOIN_LEFT, [LJ_RIGHT] = JOIN_RIGHT,
		[LJ_FULL] = JOIN_FULL, [LJ_SEMI] = JOIN_SEMI, [LJ_ANTI] = JOIN_ANTI,
		[LJ_CROSS] = JOIN_INNER,
	};
	const LogicalOp *lo = op->children[0], *ro = op->children[1];
	Inputs left = { 1, { lo } }, right = { 1, { ro } }, both = { 2, { lo, ro } };
	Expr **lk = arena_alloc(L->a, sizeof *lk * (size_t)(op->nexprs + 1));
	Expr **rk = arena_alloc(L->a, sizeof *rk * (size_t)(op->nexprs + 1));
	Expr **rest = arena_alloc(L->a, sizeof *rest * (size_t)(op->nexprs + 1));
	int nkeys = 0, nrest = 0;

	if (op->ncorr)
		return not_yet(L, "dependent join"), NULL;
	if (op->join == LJ_MARK || op->join == LJ_SINGLE)
		return not_yet(L, op->join == LJ_MARK ? "MARK join" : "SINGLE join"), NULL;
	for (int i = 0; i < op->nexprs; i++) {
		const Expr *c = op->exprs[i];
		if (c->kind == EXPR_FUNC && c->nargs == 2 && c->fn && strcmp(c->fn->name, "=") == 0 &&
		    c->args[0]->type.id == c->args[1]->type.id) {
			const Expr *a = c->args[0], *b = c->args[1];
			if (one_side(a, ro) && one_side(b, lo)) {
				const Expr *t = a;
				a = b;
				b = t;
			}
			if (one_side(a, lo) && one_side(b, ro)) {
				if (!(lk[nkeys] = remap(L, a, &left)) || !(rk[nkeys] = remap(L, b, &right)))
					return NULL;
				nkeys++;
				continue;
			}
		}
		if (!(rest[nrest++] = remap(L, c, &both)))
			return NULL;
	}
	if (nkeys == 0 && (op->join == LJ_INNER || op->join == LJ_CROSS || op->join == LJ_LEFT))
		return nested_loop_new(L->ctx, l, r, kinds[op->join], nrest ? and_of(L, nrest, rest) : NULL);
	return hash_join_new(L->ctx, l, r, kinds[op->join], nkeys, lk, rk,
			     nrest ? and_of(L, nrest, rest) : NULL, false);
}

static Operator *
lower_aggregate(Lower *L, const LogicalOp *op, Operator *child, bool distinct)
{
	const LogicalOp *co = op->children[0];
	Inputs in = { 1, { co } };
	Expr **keys;
	AggCall *aggs = NULL;

	if (op->nsets)
		return not_yet(L, "grouping sets"), NULL;
	if (distinct) {
		keys = arena_alloc(L->a, sizeof *keys * (size_t)co->ncols);
		for (int i = 0; i < co->ncols; i++)
			keys[i] = expr_colref(L->a, i, co->cols[i].type);
		return hash_agg_new(L->ctx, child, co->ncols, keys, 0, NULL, false);
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
	return hash_agg_new(L->ctx, child, op->nexprs, keys, op->naggs, aggs, op->nexprs == 0);
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
	switch (op->kind) {
	case LOP_GET: return not_yet(L, "Get"), NULL;
	case LOP_TABLE_FUNC: return not_yet(L, "TableFunction"), NULL;
	case LOP_CTE: return not_yet(L, "CTE"), NULL;
	case LOP_CTE_REF: return not_yet(L, "CTERef"), NULL;
	case LOP_INSERT: case LOP_UPDATE: case LOP_DELETE: case LOP_MERGE:
		return not_yet(L, lop_kind_name(op->kind)), NULL;
	case LOP_SETOP:
		if (op->setop != LSET_UNION)
			return not_yet(L, op->setop == LSET_INTERSECT ? "INTERSECT" : "EXCEPT"), NULL;
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
			return not_yet(L, "DISTINCT ON"), NULL;
		return lower_aggregate(L, op, kids[0], true);
	case LOP_WINDOW:
		return lower_window(L, op, kids[0]);
	case LOP_SORT:
		return lower_sort(L, op, kids[0]);
	case LOP_LIMIT: {
		int64_t limit = INT64_MIN, offset = 0;   /* INT64_MIN: none (or NULL) */
		if (op->with_ties)
			return not_yet(L, "LIMIT WITH TIES"), NULL;
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
