/*
 * logical_print.c — text of a logical plan (EXPLAIN (LOGICAL)) and of one
 * expression (plan/logical.h).
 *
 * One line per node, children indented by two spaces below it:
 *
 *   Limit 10
 *     Sort #5 DESC, #3
 *       Aggregate keys [#5 := #1] aggs [#6 := sum(#2)]
 *         Get public.t [#1 id, #2 v]
 *
 * Columns print as #id (the ColumnId), so a reader can follow a value from
 * the node that makes it to every node that reads it; a node that makes new
 * columns shows `#id name := expression`.  The text is stable: plan tests
 * compare it.  Expressions print fully parenthesised with PostgreSQL's
 * operator names; constants print as their canonical text, quoted when they
 * are not numbers or booleans.
 */
#include "plan/logical.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "func/func.h"
#include "types/text.h"

typedef struct Buf {
	Arena *a;
	char *s;
	size_t len, cap;
} Buf;

static void
put(Buf *b, const char *s)
{
	size_t n = strlen(s);
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = arena_realloc(b->a, b->s, b->cap, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

static void
putf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void
putf(Buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	put(b, tmp);
}

static void put_expr(Buf *b, const Expr *e);

static void
put_list(Buf *b, int n, Expr *const *es, const char *sep)
{
	for (int i = 0; i < n; i++) {
		if (i)
			put(b, sep);
		put_expr(b, es[i]);
	}
}

static bool
unquoted_type(TypeId t)
{
	switch (t) {
	case TYPE_BOOL: case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
	case TYPE_FLOAT32: case TYPE_FLOAT64: case TYPE_DECIMAL:
		return true;
	default:
		return false;
	}
}

static void
put_const(Buf *b, const Expr *e)
{
	size_t len;
	const char *t;

	if (e->param) {
		putf(b, "$%d", e->param);
		return;
	}
	if (e->value.is_null) {
		put(b, "NULL");
		return;
	}
	t = value_to_text_canonical(&e->value, b->a, &len);
	if (!t) {
		put(b, "NULL");
		return;
	}
	if (unquoted_type(e->value.type.id) && !e->unknown_literal) {
		put(b, t);
		return;
	}
	put(b, "'");
	for (const char *p = t; *p; p++) {
		char c[3] = { *p, 0, 0 };
		if (*p == '\'')
			c[1] = '\'';
		put(b, c);
	}
	put(b, "'");
}

static void
put_expr(Buf *b, const Expr *e)
{
	char tn[64];

	if (!e) {
		put(b, "<null>");
		return;
	}
	switch (e->kind) {
	case EXPR_CONST:
		put_const(b, e);
		return;
	case EXPR_COLREF:
		if (e->col >= EXPR_PARAM_BASE)
			putf(b, "param%d", e->col - EXPR_PARAM_BASE);
		else
			putf(b, "#%d", e->col);
		return;
	case EXPR_FUNC:
		if (e->fn && e->fn->is_operator && e->nargs == 2) {
			put(b, "(");
			put_expr(b, e->args[0]);
			putf(b, " %s ", e->fn->name);
			put_expr(b, e->args[1]);
			put(b, ")");
		} else if (e->fn && e->fn->is_operator && e->nargs == 1) {
			putf(b, "(%s ", e->fn->name);
			put_expr(b, e->args[0]);
			put(b, ")");
		} else {
			put(b, e->fn ? e->fn->name : "?");
			put(b, "(");
			put_list(b, e->nargs, e->args, ", ");
			put(b, ")");
		}
		return;
	case EXPR_CAST:
		put(b, "CAST(");
		put_expr(b, e->args[0]);
		putf(b, " AS %s)", type_name(e->type, tn, sizeof tn));
		return;
	case EXPR_AND:
	case EXPR_OR:
		put(b, "(");
		put_list(b, e->nargs, e->args, e->kind == EXPR_AND ? " AND " : " OR ");
		put(b, ")");
		return;
	case EXPR_NOT:
		put(b, "(NOT ");
		put_expr(b, e->args[0]);
		put(b, ")");
		return;
	case EXPR_IS_NULL: case EXPR_IS_NOT_NULL: case EXPR_IS_TRUE: case EXPR_IS_NOT_TRUE:
	case EXPR_IS_FALSE: case EXPR_IS_NOT_FALSE: {
		static const char *const suffix[] = {
			[EXPR_IS_NULL] = "IS NULL", [EXPR_IS_NOT_NULL] = "IS NOT NULL",
			[EXPR_IS_TRUE] = "IS TRUE", [EXPR_IS_NOT_TRUE] = "IS NOT TRUE",
			[EXPR_IS_FALSE] = "IS FALSE", [EXPR_IS_NOT_FALSE] = "IS NOT FALSE",
		};
		put(b, "(");
		put_expr(b, e->args[0]);
		putf(b, " %s)", suffix[e->kind]);
		return;
	}
	case EXPR_CASE: {
		int pairs = (e->nargs - (e->has_else ? 1 : 0)) / 2;
		put(b, "CASE");
		for (int i = 0; i < pairs; i++) {
			put(b, " WHEN ");
			put_expr(b, e->args[2 * i]);
			put(b, " THEN ");
			put_expr(b, e->args[2 * i + 1]);
		}
		if (e->has_else) {
			put(b, " ELSE ");
			put_expr(b, e->args[e->nargs - 1]);
		}
		put(b, " END");
		return;
	}
	case EXPR_COALESCE:
		put(b, "COALESCE(");
		put_list(b, e->nargs, e->args, ", ");
		put(b, ")");
		return;
	case EXPR_DISTINCT:
	case EXPR_NOT_DISTINCT:
		put(b, "(");
		put_expr(b, e->args[0]);
		put(b, e->kind == EXPR_DISTINCT ? " IS DISTINCT FROM " : " IS NOT DISTINCT FROM ");
		put_expr(b, e->args[1]);
		put(b, ")");
		return;
	case EXPR_AGGREF:
		putf(b, "agg%d", e->col);
		return;
	case EXPR_SUBPLAN:
		put(b, "(SubPlan");
		if (e->nargs) {
			put(b, " ");
			put_list(b, e->nargs, e->args, ", ");
		}
		put(b, ")");
		return;
	}
	put(b, "?");
}

const char *
lexpr_print(const Expr *e, Arena *arena)
{
	Buf b = { .a = arena };
	put(&b, "");
	put_expr(&b, e);
	return b.s;
}

/* `#id name` of output column i */
static void
put_col(Buf *b, const LogicalColumn *c)
{
	putf(b, "#%u", c->id);
	if (c->name && c->name[0]) {
		put(b, " ");
		put(b, c->name);
	}
}

static void
put_cols(Buf *b, const LogicalOp *op, int from, int to)
{
	put(b, "[");
	for (int i = from; i < to; i++) {
		if (i > from)
			put(b, ", ");
		put_col(b, &op->cols[i]);
	}
	put(b, "]");
}

/* "[#5 name := expr, ...]": columns from..from+n made by exprs */
static void
put_made(Buf *b, const LogicalOp *op, int from, int n, Expr *const *es)
{
	put(b, "[");
	for (int i = 0; i < n && from + i < op->ncols; i++) {
		if (i)
			put(b, ", ");
		put_col(b, &op->cols[from + i]);
		put(b, " := ");
		put_expr(b, es[i]);
	}
	put(b, "]");
}

static void
put_key(Buf *b, const Expr *e, bool desc, bool nulls_first)
{
	put_expr(b, e);
	if (desc)
		put(b, " DESC");
	if (nulls_first != desc)
		put(b, nulls_first ? " NULLS FIRST" : " NULLS LAST");
}

static const char *
join_name(LogicalJoinKind k)
{
	static const char *const n[] = {
		[LJ_INNER] = "INNER", [LJ_LEFT] = "LEFT", [LJ_RIGHT] = "RIGHT", [LJ_FULL] = "FULL",
		[LJ_SEMI] = "SEMI", [LJ_ANTI] = "ANTI", [LJ_CROSS] = "CROSS", [LJ_MARK] = "MARK",
		[LJ_SINGLE] = "SINGLE",
	};
	return (unsigned)k < sizeof n / sizeof n[0] && n[k] ? n[k] : "?";
}

static void
put_relname(Buf *b, const LogicalOp *op)
{
	if (op->schema) {
		put(b, op->schema);
		put(b, ".");
	}
	put(b, op->name ? op->name : "?");
}

static void
put_agg(Buf *b, const AggCall *a)
{
	put(b, a->fn ? a->fn->name : "?");
	put(b, "(");
	if (a->distinct)
		put(b, "DISTINCT ");
	if (!a->arg)
		put(b, "*");
	else
		put_expr(b, a->arg);
	if (a->arg2) {
		put(b, ", ");
		put_expr(b, a->arg2);
	}
	for (int k = 0; k < a->norder; k++) {
		put(b, k ? ", " : " ORDER BY ");
		put_key(b, a->order[k].e, a->order[k].desc, a->order[k].nulls_first);
	}
	put(b, ")");
	if (a->filter) {
		put(b, " FILTER (WHERE ");
		put_expr(b, a->filter);
		put(b, ")");
	}
}

static const char *
win_name(WinKind k)
{
	static const char *const n[] = {
		[WIN_ROW_NUMBER] = "row_number", [WIN_RANK] = "rank", [WIN_DENSE_RANK] = "dense_rank",
		[WIN_PERCENT_RANK] = "percent_rank", [WIN_CUME_DIST] = "cume_dist", [WIN_NTILE] = "ntile",
		[WIN_LAG] = "lag", [WIN_LEAD] = "lead", [WIN_FIRST_VALUE] = "first_value",
		[WIN_LAST_VALUE] = "last_value", [WIN_NTH_VALUE] = "nth_value", [WIN_AGG] = "agg",
	};
	return (unsigned)k < sizeof n / sizeof n[0] && n[k] ? n[k] : "win";
}

static void
put_node(Buf *b, const LogicalOp *op)
{
	put(b, lop_kind_name(op->kind));
	switch (op->kind) {
	case LOP_GET:
		put(b, " ");
		put_relname(b, op);
		if (op->snapshot.snapshot_id)
			putf(b, " AS OF VERSION %lld", (long long)op->snapshot.snapshot_id);
		if (op->snapshot.ref)
			putf(b, " AS OF REF %s", op->snapshot.ref);
		if (op->snapshot.timestamp)
			putf(b, " AS OF TIMESTAMP '%s'", op->snapshot.timestamp);
		put(b, " ");
		put_cols(b, op, 0, op->ncols);
		if (op->nexprs) {
			put(b, " filters ");
			put_list(b, op->nexprs, op->exprs, " AND ");
		}
		break;
	case LOP_FILTER:
		put(b, " ");
		put_list(b, op->nexprs, op->exprs, " AND ");
		break;
	case LOP_PROJECT:
		put(b, " ");
		put_made(b, op, 0, op->nexprs, op->exprs);
		break;
	case LOP_JOIN:
		put(b, " ");
		if (op->ncorr)
			put(b, "DEPENDENT ");
		put(b, join_name(op->join));
		if ((op->join == LJ_ANTI || op->join == LJ_MARK) && op->null_aware)
			put(b, " NULL-AWARE");
		if (op->nexprs) {
			put(b, " ON ");
			put_list(b, op->nexprs, op->exprs, " AND ");
		}
		if (op->reduce)
			put(b, " REDUCE");
		if (op->ncorr) {
			put(b, " corr [");
			for (int i = 0; i < op->ncorr; i++)
				putf(b, "%s#%u", i ? ", " : "", op->corr[i]);
			put(b, "]");
		}
		if (op->join == LJ_MARK && op->ncols)
			putf(b, " mark #%u", op->cols[op->ncols - 1].id);
		break;
	case LOP_AGGREGATE:
		put(b, " keys ");
		put_made(b, op, 0, op->nexprs, op->exprs);
		put(b, " aggs [");
		for (int i = 0; i < op->naggs && op->nexprs + i < op->ncols; i++) {
			if (i)
				put(b, ", ");
			put_col(b, &op->cols[op->nexprs + i]);
			put(b, " := ");
			put_agg(b, &op->aggs[i]);
		}
		put(b, "]");
		if (op->nsets) {
			put(b, " sets [");
			for (int s = 0; s < op->nsets; s++) {
				put(b, s ? ", (" : "(");
				for (int k = 0, first = 1; k < op->nexprs; k++)
					if (op->sets[s] & ((uint64_t)1 << k)) {
						putf(b, "%s#%u", first ? "" : ", ", op->cols[k].id);
						first = 0;
					}
				put(b, ")");
			}
			put(b, "]");
		}
		if (op->ngroupings) {
			put(b, " grouping [");
			for (int i = 0; i < op->ngroupings; i++) {
				int at = op->nexprs + op->naggs + i;
				if (i)
					put(b, ", ");
				if (at < op->ncols)
					put_col(b, &op->cols[at]);
				put(b, " := grouping(");
				for (int k = 0; k < op->groupings[i].nargs; k++) {
					int key = op->groupings[i].keys[k];
					if (key >= 0 && key < op->ncols)
						putf(b, "%s#%u", k ? ", " : "", op->cols[key].id);
				}
				put(b, ")");
			}
			put(b, "]");
		}
		break;
	case LOP_WINDOW: {
		int base = op->children[0]->ncols;
		put(b, " [");
		for (int i = 0; i < op->ncalls && base + i < op->ncols; i++) {
			const WindowCall *c = &op->calls[i];
			const WindowSpec *s = c->spec >= 0 && c->spec < op->nspecs ? &op->specs[c->spec] : NULL;
			if (i)
				put(b, ", ");
			put_col(b, &op->cols[base + i]);
			putf(b, " := %s(", c->agg ? c->agg->name : win_name(c->kind));
			if (c->arg)
				put_expr(b, c->arg);
			put(b, ") OVER (");
			if (s) {
				if (s->npart) {
					put(b, "PARTITION BY ");
					put_list(b, s->npart, s->part, ", ");
				}
				for (int k = 0; k < s->norder; k++) {
					put(b, k ? ", " : (s->npart ? " ORDER BY " : "ORDER BY "));
					put_key(b, s->order[k], s->dirs[k].desc, s->dirs[k].nulls_first);
				}
			}
			put(b, ")");
		}
		put(b, "]");
		break;
	}
	case LOP_SORT:
		for (int i = 0; i < op->nkeys; i++) {
			put(b, i ? ", " : " ");
			put_key(b, op->keys[i].e, op->keys[i].desc, op->keys[i].nulls_first);
		}
		break;
	case LOP_LIMIT:
		if (op->limit) {
			put(b, " ");
			put_expr(b, op->limit);
		}
		if (op->offset) {
			put(b, " OFFSET ");
			put_expr(b, op->offset);
		}
		if (op->with_ties)
			put(b, " WITH TIES");
		break;
	case LOP_DISTINCT:
		if (op->nexprs) {
			put(b, " ON (");
			put_list(b, op->nexprs, op->exprs, ", ");
			put(b, ")");
		}
		break;
	case LOP_SETOP:
		put(b, op->setop == LSET_UNION ? " UNION" : op->setop == LSET_INTERSECT ? " INTERSECT" : " EXCEPT");
		if (op->all)
			put(b, " ALL");
		put(b, " ");
		put_cols(b, op, 0, op->ncols);
		break;
	case LOP_VALUES:
		putf(b, " %d row%s ", op->nrows, op->nrows == 1 ? "" : "s");
		put_cols(b, op, 0, op->ncols);
		break;
	case LOP_TABLE_FUNC:
		put(b, " ");
		put_relname(b, op);
		put(b, "(");
		put_list(b, op->nexprs, op->exprs, ", ");
		put(b, ") ");
		put_cols(b, op, 0, op->ncols);
		break;
	case LOP_CTE:
		putf(b, " %d%s", op->cte_id, op->materialize ? " MATERIALIZED" : "");
		if (op->name)
			putf(b, " %s", op->name);
		break;
	case LOP_CTE_REF:
		putf(b, " %d", op->cte_id);
		if (op->name)
			putf(b, " %s", op->name);
		put(b, " ");
		put_cols(b, op, 0, op->ncols);
		break;
	case LOP_OPERATOR:
		if (op->physical)
			putf(b, " %s", op->physical->label ? op->physical->label : op->physical->vt->name);
		put(b, " ");
		put_cols(b, op, 0, op->ncols);
		break;
	case LOP_INSERT: case LOP_UPDATE: case LOP_DELETE: case LOP_MERGE:
		put(b, " ");
		put_relname(b, op);
		if (op->nreturning) {
			put(b, " RETURNING ");
			put_made(b, op, 0, op->nreturning, op->returning);
		}
		break;
	}
}

static void
print_tree(Buf *b, const LogicalOp *op, int depth, bool costs)
{
	for (int i = 0; i < depth; i++)
		put(b, "  ");
	put_node(b, op);
	if (costs && op->est_rows >= 0)
		putf(b, " (rows=%.0f)", op->est_rows);
	put(b, "\n");
	for (int i = 0; i < op->nchildren; i++)
		print_tree(b, op->children[i], depth + 1, costs);
}

const char *
lplan_explain(const LogicalPlan *plan, const LogicalOp *op, bool costs, Arena *arena)
{
	Buf b = { .a = arena };
	(void)plan;
	put(&b, "");
	print_tree(&b, op, 0, costs);
	return b.s;
}

const char *
lplan_print(const LogicalPlan *plan, const LogicalOp *op, Arena *arena)
{
	return lplan_explain(plan, op, true, arena);
}
