/*
 * select.c — SELECT and VALUES: binding and planning into an Operator tree.
 *
 * Each query level (plan_stmt) is bound into a logical plan (plan/
 * logical.h), verified in debug builds (lplan_verify) and lowered to exec/
 * Operators by plan/physical.c.  Its shape (each step only when the query
 * needs it):
 *
 *   FROM/WHERE: a Get per base table (its scan is sql/table_source.c's,
 *     built when physical.c lowers it), Join nodes for JOINs and comma
 *     lists (below), Filters of WHERE's conjuncts; a FROM subquery and a
 *     CTE reference planned again (inline, not shared: cte_shared) are
 *     their query level's nodes in the same plan (plan_inline); other
 *     FROM items are Operator leaves, still built as operators here
 *     (VALUES | function | view | shared or recursive CTE | LATERAL |
 *     catalog and metadata relations); a WHERE subquery planned as a
 *     semi/anti join lowers the FROM/WHERE nodes first and continues over
 *     operators (an Operator leaf)
 *     -> Aggregate(GROUP BY, aggregates; grouping sets as key masks)
 *     -> Filter(HAVING) -> Window(window functions)
 *     -> Project(select list + hidden ORDER BY keys)
 *     -> Distinct [ON] -> Sort(ORDER BY) -> Limit [WITH TIES]
 *     -> Project(drop hidden keys)
 *
 * A bare VALUES list is a Values node; a set operation a SetOp node over
 * its branches' plans (one logical plan for the whole tree).  The clause
 * expressions are bound over the positions of the node below, then read
 * its columns by ColumnId (lexpr_by_id, the chain_* helpers).
 *
 * Aggregated queries: targets, HAVING and ORDER BY are bound over the
 * source with aggregates collected; then every subtree equal to a GROUP BY
 * expression becomes a reference to that key and every aggregate a
 * reference to its result; a source column left over is PostgreSQL's
 * 42803 "must appear in the GROUP BY clause".
 *
 * FROM: several items and JOIN trees.  Each item is planned on its own;
 * the scope of the FROM clause is the concatenation of the items' columns,
 * each with its relation name (USING/NATURAL: the merged column first,
 * unqualified, and both sides' columns hidden from unqualified names and
 * from "*", as PostgreSQL shows them).  Explicit JOINs become a Join node
 * whose condition is USING's equalities then ON's conjuncts (physical.c
 * makes a HashJoin on the equalities whose sides reference one input each,
 * the rest residual; no equality: nested loop).  Comma
 * lists become Joins in FROM order over the WHERE conjuncts: conjuncts
 * shared by every arm of an OR are factored out of it, and each item that
 * every arm restricts gets the implied OR of those restrictions
 * (factor_ors, TPC-H q19); single-item conjuncts are pushed below the join
 * as filters (cheap ones first, order_conjuncts; each item's row estimate
 * scaled by their selectivity, conj_sel: 1/ndv for equality, the
 * manifests' bounds for a range over an integer or date column, else
 * System R's guesses); each Join holds the conjuncts it is the first to be
 * able to apply.  The order in which the items are joined (comma lists
 * and explicit inner JOIN chains alike) is the join_order pass's
 * (optimize/join_order.c), which also sets each join's estimate; parts the
 * binder lowers early (src_lower) run that pass first.  physical.c builds
 * the hash table on the smaller input when both estimates are known, else
 * on the right one.
 *
 * Set operations: both branches bound, columns coerced to PostgreSQL's
 * common type by a Project (always one for INTERSECT/EXCEPT, whose
 * lowering tags its rows there), a SetOp node over them (physical.c:
 * UNION ALL = Append, UNION = Append + HashAggregate, INTERSECT/EXCEPT
 * [ALL] = Append of (row, 1, 0) / (row, 0, 1), grouped with sum()s, then
 * exec's SetOp).  WITH: a CTE is planned again at each reference
 * (non-recursive only).
 *
 * Subqueries.  In WHERE conjuncts: EXISTS / NOT EXISTS / x IN (SELECT ...)
 * over a plain SELECT become SEMI / ANTI Join nodes of the logical plan
 * (plan_semi; physical.c lowers them to the hash joins): the inner
 * WHERE is bound with the outer scope visible as extra columns (BindCtx
 * corr_scope), its conjuncts' ORs factored (factor_ors), its outer =
 * inner equalities are the hash keys, other correlated conditions the
 * residual, the rest filter the inner side; an
 * IN over any other query is a semi join on its one column (NOT IN a
 * NULL-aware anti join; correlated ones run per outer row), applied to
 * the FROM item x comes from before the joins when it plans uncorrelated
 * (push_semi, TPC-H q18).  expr op (SELECT agg ... WHERE inner.k = outer.k
 * ...) becomes a dependent SINGLE Join node of the outer rows with the
 * subquery's ungrouped Aggregate over its correlated Filter
 * (plan_scalar_corr / scalar_dep), the value computed after the join with
 * count() coalesced to 0; optimize/decorrelate.c turns it into a LEFT join
 * with the subquery grouped by its keys (a key without rows: count 0, not
 * NULL), and physical.c applies the magic-set reduction below.  In
 * plan_semi (and in plan_scalar_corr without a logical plan), unless the
 * outer side is estimated larger, the outer rows are materialised once
 * (exec/buffer.c) and their keys semi-join the inner FROM item holding
 * the inner keys before its filters and joins (reduce_inner/reduce_item:
 * a magic-set reduction; TPC-H q2, q4, q17, q20, q21, q22).  EXISTS /
 * x IN (SELECT ...) inside a WHERE conjunct or select-list item (under
 * OR, NOT, CASE: plan_marks) become MARK Join nodes through plan_semi when
 * they have a hash key (an equality correlation, an uncorrelated IN's
 * x = y): the expression reads the mark, a hidden boolean column of the
 * scope (bind_sublink looks the SubLink up in BindCtx.mark_sl); the rule
 * is switched off by floe.disabled_optimizers = mark_join.  Any other
 * uncorrelated subquery is run once while binding (select_run_subquery)
 * and becomes a constant or an OR/AND over its values; other correlated
 * ones run per outer row (bind_expr.c's bind_subplan; also those that
 * read a column two levels up from inside plan_semi / plan_scalar_corr:
 * corr_fallback).
 *
 * Window functions (select list and ORDER BY only; 42P20 elsewhere, and
 * when nested): bind_expr's OVER branch calls select_window_call, which
 * binds the call's PARTITION BY / ORDER BY (a named WINDOW is looked up in
 * the SELECT's WINDOW clause), frame and arguments over the same input as
 * the select list (so over aggregate results in grouped queries), shares
 * one WindowSpec among calls with equal PARTITION BY + ORDER BY, and
 * returns a placeholder column WIN_BASE + call index; after aggregation
 * and HAVING one window operator (exec/window.c) appends the results and
 * the placeholders become its output columns.  The collector of the
 * SELECT being planned is thread-local (cur_win), saved and restored
 * around nested SELECTs.
 *
 * GROUPING SETS / ROLLUP / CUBE: expanded to a list of sets over the
 * distinct GROUP BY expressions, an Aggregate node with one key mask per
 * set and the grouping() calls as columns; physical.c plans one
 * HashAggregate per set over the input materialised once (exec/buffer.c),
 * NULL for the keys a set lacks, grouping() values as constants per set,
 * the sets' rows appended.
 *
 * WITH RECURSIVE: a self-referencing CTE becomes a Recursive Union
 * (exec/recursive.c) of its non-recursive term and its recursive term, in
 * which the CTE's name is a WorkTable Scan (see plan_recursive_cte).
 *
 * LATERAL (SELECT ...): planned once with the columns to its left as
 * parameters and run per outer row by exec/lateral.c (see plan_lateral).
 *
 * EXPLAIN: select_plan also takes an ExplainStmt (plan_explain): the plan's
 * text from exec/explain.c as rows of one column, after running it with
 * counters for ANALYZE; EXPLAIN (LOGICAL) prints the top query level's
 * logical plan instead (lplan_explain).
 *
 * Row lineage (Iceberg format version 3): a v3 table's scan also offers
 * the metadata columns _row_id and _last_updated_sequence_number (exec/
 * scan.c SCAN_PROJ_ROW_ID / SCAN_PROJ_LAST_UPDATED_SEQ), as Spark 4's
 * Iceberg tables do: bindable by name (qualified or not) anywhere, but not
 * part of "*", NATURAL joins or a FROM alias's column list; a user column
 * of the same name wins.  They are recognised by their name pointers
 * (lin_row_id / lin_seq).  On v1/v2 tables they do not exist (42703, as
 * Spark 4, which offers them only when the table supports row lineage).
 *
 * Not yet (0A000): LATERAL functions, correlated subqueries outside those
 * forms, TABLESAMPLE, XMLTABLE.
 *
 * INTERFACE ROUTINES (bind.h)
 *   select_plan(session, ctx, sql, stmt, &plan)
 *   select_run_subquery(bindctx, query, max_rows, &vals, &nrows, &type, &ncols)
 *   session_resolve_name(session, rangevar, &ns, &name)
 *   select_window_call(bindctx, funccall)   (declared in bind_expr.c)
 *   select_grouping_func(bindctx, groupingfunc)   (declared in bind_expr.c)
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "common/stack.h"
#include "format/parquet/parquet.h"
#include "func/func.h"
#include "ingest/copyinto.h"
#include "ingest/infer.h"
#include "ingest/ingest.h"
#include "optimize/optimizer.h"
#include "plan/physical.h"
#include "server/users.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/function.h"
#include "sql/sequence.h"
#include "sql/snapshot_pin.h"
#include "sql/table_source.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "sql/views.h"
#include "sql/warehouse.h"
#include "table/metadata.h"
#include "table/table.h"
#include "table/table_stats.h"
#include "types/cast.h"

/* window function results are bound as column references WIN_BASE + call
 * index until the window operator's output columns are known */
#define WIN_BASE (1 << 24)
/* grouping() results: placeholders GF_BASE + call index (below WIN_BASE's
 * range test: WIN_BASE <= col < GF_BASE are window results) */
#define GF_BASE (1 << 26)

static int
unsupported(BindCtx *b, const char *what, int location)
{
	floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", what);
	if (location >= 0)
		floe_error_position(b->err, bind_location(b, location));
	return FLOE_ERR;
}

void
session_resolve_name(Session *s, PgQuery__RangeVar *rv, const char **ns, const char **name)
{
	*ns = temp_resolve(s, rv->schemaname, rv->relname);   /* pg_temp first (temp.h) */
	if (!*ns)
		*ns = rv->schemaname && rv->schemaname[0] ? rv->schemaname : search_path_lookup(s, rv->relname);
	*name = rv->relname;
}

/* ---- FROM items -------------------------------------------------------- */

typedef struct Source {
	/* the item's rows: logical nodes of BindCtx.lp (a table's Get, a
	 * join's Join), or operators built while binding (op; the rest) --
	 * one of the two (src_node / src_lower convert) */
	LogicalOp *lop;
	Operator *op;
	Scope scope;
	double est;               /* estimated rows; < 0 unknown */
	double *ndv;              /* per column, estimated distinct values (< 0
				     unknown), or NULL */
	double *lo, *hi;          /* per column, the manifests' bounds of an
				     integer or date column (lo > hi unknown),
				     or NULL */
} Source;

static int plan_query(BindCtx *b, ExecCtx *ctx, Node *stmt, SelectPlan *out);
static int plan_stmt(BindCtx *parent, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out);
static int by_id_list(BindCtx *b, LogicalPlan *lp, int n, Expr **es, const LogicalOp *in, Expr ***out);
static int plan_stmt_logical(BindCtx *parent, ExecCtx *ctx, PgQuery__SelectStmt *s, LogicalPlan *lp,
			     SelectPlan *out);

/* The item's rows as a logical node: operators built while binding become
 * an Operator leaf.  sync_est: the node's estimate is the item's (join
 * build sides, physical.c, are chosen from the nodes' estimates). */
static LogicalOp *
src_node(BindCtx *b, Source *s, bool sync_est)
{
	if (!s->lop) {
		s->lop = lop_operator(b->lp, s->op, s->scope.ncols == s->op->ncols ? s->scope.names : NULL);
		s->op = NULL;
	}
	if (sync_est)
		s->lop->est_rows = s->est;
	return s->lop;
}

/* A FROM subquery or an inline CTE reference, planned with def as its
 * parent: its query level bound into b's logical plan, so src->lop is the
 * subtree the outer level's optimizer passes see and physical.c lowers
 * with it (operators, src->op, when b has no plan). */
static int
plan_inline(BindCtx *b, BindCtx *def, ExecCtx *ctx, Node *query, Source *src, SelectPlan *sub)
{
	if (!b->lp || query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
		TRY(plan_query(def, ctx, query, sub));
		src->op = sub->root;
		return FLOE_OK;
	}
	TRY(plan_stmt_logical(def, ctx, query->select_stmt, b->lp, sub));
	src->lop = sub->lop;
	return FLOE_OK;
}

/* The item's rows as operators now (its logical nodes lowered), for the
 * parts of the binder that still plan over operators: LATERAL, WHERE
 * subqueries planned as joins, correlated scalar subqueries. */
static int
src_lower(BindCtx *b, ExecCtx *ctx, Source *s)
{
	if (!s->lop)
		return FLOE_OK;
	/* its joins ordered as the optimizer orders a query level's: the
	 * order is the join_order pass's alone (optimize/join_order.c) */
	if (!optimizer_disabled(session_setting(b->session, "floe.disabled_optimizers"), "join_order")) {
		bool changed;
		TRY(opt_join_order(b->lp, &s->lop, &changed, b->err));
	}
	if (!(s->op = physical_lower(ctx, b->lp, s->lop)))
		return FLOE_ERR;
	s->lop = NULL;
	return FLOE_OK;
}

/* The row lineage metadata columns: distinct objects, so a scope column
 * is one of them exactly when its name points here. */
static char lin_row_id[] = "_row_id";
static char lin_seq[] = "_last_updated_sequence_number";

/* The per-file metadata columns (spec "Reserved Field IDs"; exec/scan.c),
 * on every table, recognised by their name pointers as the lineage ones. */
static char mc_file[] = "_file", mc_pos[] = "_pos", mc_spec[] = "_spec_id",
	    mc_part[] = "_partition", mc_size[] = "_file_size", mc_deleted[] = "_deleted";
static const struct MetaCol {
	char *name;
	int proj;                 /* SCAN_PROJ_* */
	bool v3;                  /* format version 3 only (row lineage) */
} meta_cols[] = {
	{ lin_row_id, SCAN_PROJ_ROW_ID, true },
	{ lin_seq, SCAN_PROJ_LAST_UPDATED_SEQ, true },
	{ mc_file, SCAN_PROJ_FILE_PATH, false },
	{ mc_pos, SCAN_PROJ_FILE_POS, false },
	{ mc_spec, SCAN_PROJ_SPEC_ID, false },
	{ mc_part, SCAN_PROJ_PARTITION, false },
	{ mc_size, SCAN_PROJ_FILE_SIZE, false },
	{ mc_deleted, SCAN_PROJ_DELETED, false },
};
#define N_META_COLS ((int)(sizeof meta_cols / sizeof meta_cols[0]))

static bool
is_lineage_col(const char *name)
{
	int k;

	for (k = 0; k < N_META_COLS; k++)
		if (name == meta_cols[k].name)
			return true;
	return false;
}

/* Might the statement name `name`?  (Its text holds it, any case; no
 * text: maybe.)  For "*" statements, whose used-name set is not kept. */
static bool
sql_mentions(const BindCtx *b, const char *name)
{
	for (; b; b = b->parent)
		if (b->sql)
			return strcasestr(b->sql, name) != NULL;
	return true;
}

/* Name src after alias (and its columns after the alias's column list:
 * 42P10 when that lists more columns than src has, as PostgreSQL). */
static int
apply_alias(BindCtx *b, Source *src, PgQuery__Alias *alias)
{
	size_t i;
	int k;

	if (!alias)
		return FLOE_OK;
	src->scope.relname = alias->aliasname;
	if (src->scope.relnames)
		for (k = 0; k < src->scope.ncols; k++)
			src->scope.relnames[k] = alias->aliasname;
	for (i = 0, k = 0; i < alias->n_colnames && k < src->scope.ncols; k++) {
		if ((src->scope.hidden && src->scope.hidden[k]) || is_lineage_col(src->scope.names[k]))
			continue;
		src->scope.names[k] = alias->colnames[i++]->string->sval;
	}
	if (i < alias->n_colnames)
		return floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
				   "table \"%s\" has %zu columns available but %zu columns specified",
				   alias->aliasname, i, alias->n_colnames);
	return FLOE_OK;
}

static void
scope_alloc(BindCtx *b, Scope *s, int n)
{
	memset(s, 0, sizeof *s);
	s->ncols = n;
	s->names = ARENA_ARRAY(b->arena, char *, n + 1);
	s->types = ARENA_ARRAY(b->arena, SqlType, n + 1);
	s->nested = ARENA_ARRAY(b->arena, char *, n + 1);
	s->relnames = ARENA_ARRAY(b->arena, char *, n + 1);
	s->hidden = ARENA_ARRAY(b->arena, bool, n + 1);
}

/* Copy src's columns into dst from column off on. */
static void
scope_put(Scope *dst, int off, const Scope *src)
{
	int i;

	for (i = 0; i < src->ncols; i++) {
		dst->names[off + i] = src->names[i];
		dst->types[off + i] = src->types[i];
		dst->nested[off + i] = src->nested ? src->nested[i] : NULL;
		dst->relnames[off + i] = (char *)scope_relname(src, i);
		dst->hidden[off + i] = src->hidden ? src->hidden[i] : false;
	}
}

/* PostgreSQL's 42712 for FROM t, t (or two items with the same alias). */
static int
check_dup_rel(BindCtx *b, const Scope *x, const Scope *y)
{
	int i, j;

	for (i = 0; i < x->ncols; i++) {
		const char *r = scope_relname(x, i);
		if (!r || (i > 0 && scope_relname(x, i - 1) && !strcmp(scope_relname(x, i - 1), r)))
			continue;
		for (j = 0; j < y->ncols; j++) {
			const char *q = scope_relname(y, j);
			if (q && !strcmp(q, r))
				return floe_errorf(b->err, ERRCODE_DUPLICATE_ALIAS,
						   "table name \"%s\" specified more than once", r);
		}
	}
	return FLOE_OK;
}

/* ---- expression helpers for join planning ----------------------------- */

/* A copy of e with column c replaced by map[c]. */
static Expr *
remap(Arena *a, const Expr *e, const int *map)
{
	Expr *c;
	int i;

	if (e->kind == EXPR_COLREF) {
		if (e->col >= EXPR_PARAM_BASE)
			return (Expr *)e;       /* a LATERAL parameter */
		c = arena_memdup(a, e, sizeof *e);
		c->col = map[e->col];
		return c;
	}
	if (!e->nargs)
		return (Expr *)e;
	c = arena_memdup(a, e, sizeof *e);
	c->args = ARENA_ARRAY(a, Expr *, e->nargs);
	for (i = 0; i < e->nargs; i++)
		c->args[i] = remap(a, e->args[i], map);
	return c;
}

/* Bit i set when e references a column of FROM item col_item[c] = i. */
static uint64_t
item_mask(const Expr *e, const int *col_item)
{
	uint64_t m = 0;
	int i;

	if (e->kind == EXPR_COLREF)
		return e->col >= EXPR_PARAM_BASE ? 0 : (uint64_t)1 << col_item[e->col];
	for (i = 0; i < e->nargs; i++)
		m |= item_mask(e->args[i], col_item);
	return m;
}

/* x NOT IN (c1, ..., cn) / x <> ALL (ARRAY[...]) as bound: an AND of
 * x <> ci, n >= INSET_MIN; kept as one conjunct so that it is evaluated
 * through one hash set (exec/inset.c), not as n filters. */
static bool
is_not_in_list(const Expr *e)
{
	int i;

	if (e->kind != EXPR_AND || e->nargs < INSET_MIN)
		return false;
	for (i = 0; i < e->nargs; i++) {
		const Expr *c = e->args[i];
		if (c->kind == EXPR_CONST && c->value.is_null)
			continue;
		if (c->kind != EXPR_FUNC || c->nargs != 2 || !c->fn || strcmp(c->fn->name, "<>") != 0 ||
		    c->args[1]->kind != EXPR_CONST)
			return false;
	}
	return true;
}

static int
count_conjuncts(const Expr *e)
{
	int i, n = 0;

	if (!e)
		return 0;
	if (e->kind != EXPR_AND || is_not_in_list(e))
		return 1;
	for (i = 0; i < e->nargs; i++)
		n += count_conjuncts(e->args[i]);
	return n;
}

static void
split_conjuncts(Expr *e, Expr **out, int *n)
{
	int i;

	if (!e)
		return;
	if (e->kind != EXPR_AND || is_not_in_list(e)) {
		out[(*n)++] = e;
		return;
	}
	for (i = 0; i < e->nargs; i++)
		split_conjuncts(e->args[i], out, n);
}

static Expr *
and_of(BindCtx *b, Expr **es, int n)
{
	Expr *e;

	if (n == 0)
		return NULL;
	if (n == 1)
		return es[0];
	e = expr_new(b->arena, EXPR_AND, type_make(TYPE_BOOL), n);
	memcpy(e->args, es, sizeof(Expr *) * (size_t)n);
	return e;
}

/* Can values of these types be hash-joined by their bytes? */
static bool
key_ok(SqlType a, SqlType b)
{
	return hash_join_key_ok(a, b);
}

static bool
is_equi(const Expr *e)
{
	return e->kind == EXPR_FUNC && e->nargs == 2 && e->fn && !strcmp(e->fn->name, "=") &&
	       key_ok(e->args[0]->type, e->args[1]->type);
}

/* x op y through func/'s operator resolution. */
static Expr *
make_op(BindCtx *b, const char *op, Expr *x, Expr *y)
{
	const ScalarFunc *fn;
	SqlType ret, types[2] = { x->type, y->type }, cast_to[2];
	Expr *e;

	if (x->unknown_literal)
		types[0] = type_make(TYPE_NULL);
	if (y->unknown_literal)
		types[1] = type_make(TYPE_NULL);
	if (func_resolve_scalar(op, types, 2, &fn, &ret, cast_to, b->err) != FLOE_OK)
		return NULL;
	if (x->unknown_literal && !(x = bind_coerce(b, x, cast_to[0], COERCE_EXPLICIT, NULL)))
		return NULL;
	if (y->unknown_literal && !(y = bind_coerce(b, y, cast_to[1], COERCE_EXPLICIT, NULL)))
		return NULL;
	e = expr_new(b->arena, EXPR_FUNC, ret, 2);
	e->fn = fn;
	e->args[0] = expr_cast(b->arena, x, cast_to[0], 0);
	e->args[1] = expr_cast(b->arena, y, cast_to[1], 0);
	return e;
}

/* x = y (USING columns that cannot be hashed, IN subqueries). */
static Expr *
make_eq(BindCtx *b, Expr *x, Expr *y)
{
	return make_op(b, "=", x, y);
}

static double
join_est(const Source *l, const Source *r, int nkeys)
{
	if (l->est < 0 || r->est < 0)
		return -1;
	if (nkeys)
		return l->est > r->est ? l->est : r->est;
	return l->est * r->est;
}


/* ---- scan projection ---------------------------------------------------- */

/* The names a statement mentions (ColumnRef parts, USING lists), found by
 * walking the whole parse tree through its protobuf descriptors; `all` when
 * it has "*" or NATURAL (which need every column). */
typedef struct UsedNames {
	bool all;
	int n, cap;
	const char **names;
} UsedNames;

static void
used_add(Arena *a, UsedNames *u, const char *name)
{
	if (u->n == u->cap) {
		int nc = u->cap ? u->cap * 2 : 32;
		u->names = arena_realloc(a, u->names, sizeof(char *) * (size_t)u->cap, sizeof(char *) * (size_t)nc);
		u->cap = nc;
	}
	u->names[u->n++] = name;
}

typedef struct UsedArg {
	Arena *a;
	UsedNames *u;
	int depth;
} UsedArg;

static void used_walk(Arena *a, UsedNames *u, const ProtobufCMessage *m, int depth);

static int
used_child(const ProtobufCMessage *c, void *arg)
{
	UsedArg *ua = arg;
	used_walk(ua->a, ua->u, c, ua->depth + 1);
	return ua->u->all;        /* nothing more to learn */
}

static void
used_walk(Arena *a, UsedNames *u, const ProtobufCMessage *m, int depth)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;

	if (depth > 1000) {
		u->all = true;
		return;
	}
	if (d == &pg_query__column_ref__descriptor) {
		const PgQuery__ColumnRef *c = (const PgQuery__ColumnRef *)m;
		size_t k;
		for (k = 0; k < c->n_fields; k++) {
			if (c->fields[k]->node_case == PG_QUERY__NODE__NODE_STRING)
				used_add(a, u, c->fields[k]->string->sval);
			else
				u->all = true;          /* t.* / * */
		}
		return;
	}
	if (d == &pg_query__func_call__descriptor) {
		/* row_to_json(t): t's whole row (bind_expr.c) */
		const PgQuery__FuncCall *f = (const PgQuery__FuncCall *)m;
		const Node *fn = f->n_funcname ? f->funcname[f->n_funcname - 1] : NULL;
		if (fn && fn->node_case == PG_QUERY__NODE__NODE_STRING &&
		    !strcmp(fn->string->sval, "row_to_json")) {
			u->all = true;
			return;
		}
	}
	if (d == &pg_query__sub_link__descriptor) {
		/* EXISTS (SELECT * ...): a "*" in its select list does not make
		 * every column used (TPC-H Q4, Q21); the columns it names are
		 * (the subquery may still evaluate its select list) */
		PgQuery__SubLink *sl = (PgQuery__SubLink *)m;
		if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK && sl->subselect &&
		    sl->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
		    sl->subselect->select_stmt->op == PG_QUERY__SET_OPERATION__SETOP_NONE &&
		    !sl->subselect->select_stmt->n_distinct_clause) {
			PgQuery__SelectStmt *ss = sl->subselect->select_stmt;
			size_t nt = ss->n_target_list, k;
			ss->n_target_list = 0;     /* walked without it, restored below */
			used_walk(a, u, &ss->base, depth + 1);
			ss->n_target_list = nt;
			for (k = 0; k < nt && !u->all; k++) {
				const PgQuery__ResTarget *rt = ss->target_list[k]->res_target;
				const PgQuery__ColumnRef *cr = rt && rt->val &&
					rt->val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF ? rt->val->column_ref : NULL;
				if (rt && rt->val && !(cr && cr->n_fields &&
				    cr->fields[cr->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR))
					used_walk(a, u, &rt->val->base, depth + 2);
			}
			return;
		}
	}
	if (d == &pg_query__join_expr__descriptor) {
		const PgQuery__JoinExpr *j = (const PgQuery__JoinExpr *)m;
		size_t k;
		if (j->is_natural)
			u->all = true;
		for (k = 0; k < j->n_using_clause; k++)
			if (j->using_clause[k]->node_case == PG_QUERY__NODE__NODE_STRING)
				used_add(a, u, j->using_clause[k]->string->sval);
	}
	{
		UsedArg ua = { a, u, depth };
		(void)sql_children(m, used_child, &ua);
	}
}

typedef struct RelArg {
	const char *name;
	int depth;
} RelArg;

static bool mentions_rel(const ProtobufCMessage *m, const char *name, int depth);

static int
mentions_rel_child(const ProtobufCMessage *c, void *arg)
{
	RelArg *ra = arg;
	return mentions_rel(c, ra->name, ra->depth + 1);
}

/* Does the parse tree m mention the unqualified relation `name`? */
static bool
mentions_rel(const ProtobufCMessage *m, const char *name, int depth)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;

	if (depth > 1000)
		return true;
	if (d == &pg_query__range_var__descriptor) {
		const PgQuery__RangeVar *rv = (const PgQuery__RangeVar *)m;
		return (!rv->schemaname || !rv->schemaname[0]) && rv->relname && !strcmp(rv->relname, name);
	}
	{
		RelArg ra = { name, depth };
		return sql_children(m, mentions_rel_child, &ra) != 0;
	}
}

static bool
used_has(const UsedNames *u, const char *name)
{
	int i;

	for (i = 0; i < u->n; i++)
		if (!strcmp(u->names[i], name))
			return true;
	return false;
}

static const UsedNames *
used_of(const BindCtx *b)
{
	for (; b; b = b->parent)
		if (b->used)
			return b->used;
	return NULL;
}

void
select_note_used(BindCtx *b, const Node *n)
{
	UsedNames *u = (UsedNames *)used_of(b);

	if (u && !u->all)
		used_walk(b->arena, u, &n->base, 0);
}

/* The bounds over all data files of an integer or date column (Iceberg
 * lower/upper bounds, little-endian); false when some file lacks them. */
static bool
column_bounds(const IcebergField *f, const DataFile *files, int nfiles, double *lo_out, double *hi_out)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t w;
	int i, k;

	switch (f->type.id) {
	case TYPE_INT16: case TYPE_INT32: case TYPE_DATE: w = 4; break;
	case TYPE_INT64: w = 8; break;
	default: return false;
	}
	if (nfiles == 0)
		return false;
	for (i = 0; i < nfiles; i++) {
		const ColumnStat *cs = NULL;
		int64_t l = 0, u = 0;
		for (k = 0; k < files[i].ncolumns; k++)
			if (files[i].columns[k].field_id == f->id)
				cs = &files[i].columns[k];
		if (!cs || !cs->lower || !cs->upper || cs->lower_len != w || cs->upper_len != w)
			return false;
		if (w == 4) {
			int32_t a, c;
			memcpy(&a, cs->lower, 4);   /* Iceberg single values: little-endian */
			memcpy(&c, cs->upper, 4);
			l = a;
			u = c;
		} else {
			memcpy(&l, cs->lower, 8);
			memcpy(&u, cs->upper, 8);
		}
		if (l < lo)
			lo = l;
		if (u > hi)
			hi = u;
	}
	if (hi < lo)
		return false;
	*lo_out = (double)lo;
	*hi_out = (double)hi;
	return true;
}

/* Distinct values of an integer or date column: at most hi - lo + 1 by its
 * bounds, and at most the rows; < 0 unknown. */
static double
column_ndv(double lo, double hi, double rows)
{
	if (lo > hi)
		return -1;
	return hi - lo + 1 < rows ? hi - lo + 1 : rows;
}

/* ---- WITH RECURSIVE ----------------------------------------------------- */

/*
 * A recursive CTE `name` (its query mentions itself) must be
 * "non-recursive term UNION [ALL] recursive term"; the non-recursive term
 * is planned first and gives the columns' names and types; while the
 * recursive term is planned, `name` resolves to a WorkTable Scan of a
 * RowStore (the innermost WorkRef of this thread); the two become a
 * Recursive Union (exec/recursive.c).  Like PostgreSQL, the recursive
 * term's column types must resolve to the non-recursive term's (42804),
 * and the self-reference may appear once, not in the non-recursive term.
 */
typedef struct WorkRef {
	const char *name;
	RowStore *rs;
	int ncols;
	char **names;
	SqlType *types;
	int uses;
	struct WorkRef *prev;
} WorkRef;

static _Thread_local WorkRef *cur_work;
static _Thread_local bool setop_branch;    /* plan_stmt of a set operation's branch */
/* plan_select_body of a set operation's branch: a bare NULL output column
 * stays untyped (TYPE_NULL) for the set operation's type resolution */
static _Thread_local bool keep_null_cols;

static Operator *coerce_branch(BindCtx *b, ExecCtx *ctx, SelectPlan *p, const SqlType *types);

static int
invalid_recursion(BindCtx *b, int location, const char *fmt, const char *name)
{
	floe_errorf(b->err, ERRCODE_INVALID_RECURSION, fmt, name);
	if (location >= 0)
		floe_error_position(b->err, bind_location(b, location));
	return FLOE_ERR;
}

static int
plan_recursive_cte(BindCtx *def, ExecCtx *ctx, PgQuery__CommonTableExpr *cte, SelectPlan *out)
{
	PgQuery__SelectStmt *q = cte->ctequery->select_stmt;
	SelectPlan l, r;
	WorkRef w;
	Operator *rop;
	int i, rc;

	if (q->op != PG_QUERY__SET_OPERATION__SETOP_UNION)
		return invalid_recursion(def, cte->location,
					 "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term",
					 cte->ctename);
	if (q->n_sort_clause)
		return unsupported(def, "ORDER BY in a recursive query", -1);
	if (q->limit_count || q->limit_offset)
		return unsupported(def, "LIMIT/OFFSET in a recursive query", -1);
	if (q->with_clause)
		return unsupported(def, "WITH in a recursive query's top level", -1);
	if (mentions_rel(&q->larg->base, cte->ctename, 0))
		return invalid_recursion(def, cte->location,
					 "recursive reference to query \"%s\" must not appear within its non-recursive term",
					 cte->ctename);
	TRY(plan_stmt(def, ctx, q->larg, &l));
	if (cte->n_aliascolnames > (size_t)l.ncols)
		return floe_errorf(def->err, ERRCODE_INVALID_COLUMN_REFERENCE,
				   "WITH query \"%s\" has %d columns available but %zu columns specified",
				   cte->ctename, l.ncols, cte->n_aliascolnames);
	memset(&w, 0, sizeof w);
	w.name = cte->ctename;
	w.ncols = l.ncols;
	w.names = ARENA_ARRAY(def->arena, char *, l.ncols + 1);
	w.types = l.types;
	for (i = 0; i < l.ncols; i++)
		w.names[i] = (size_t)i < cte->n_aliascolnames ? cte->aliascolnames[i]->string->sval :
			l.names[i];
	w.rs = rowstore_new(ctx, l.ncols, l.types, NULL);
	w.prev = cur_work;
	cur_work = &w;
	setop_branch = true;      /* a bare NULL takes the non-recursive term's type */
	rc = plan_stmt(def, ctx, q->rarg, &r);
	cur_work = w.prev;
	TRY(rc);
	if (r.ncols != l.ncols) {
		floe_errorf(def->err, ERRCODE_SYNTAX_ERROR,
			    "each UNION query must have the same number of columns");
		return FLOE_ERR;
	}
	for (i = 0; i < l.ncols; i++) {
		Expr *pair[2];
		SqlType t;
		pair[0] = expr_colref(def->arena, i, l.types[i]);
		pair[1] = expr_colref(def->arena, i, r.types[i]);
		TRY(bind_common_type(def, pair, 2, "UNION", &t));
		if (!type_equal(t, l.types[i])) {
			char b1[64], b2[64];
			floe_errorf(def->err, ERRCODE_DATATYPE_MISMATCH,
				    "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
				    cte->ctename, i + 1, func_type_name(l.types[i], b1, sizeof b1),
				    func_type_name(t, b2, sizeof b2));
			floe_error_hint(def->err, "Cast the output of the non-recursive term to the correct type.");
			return FLOE_ERR;
		}
	}
	if (!(rop = coerce_branch(def, ctx, &r, l.types)))
		return FLOE_ERR;
	out->root = recursive_new(ctx, l.root, rop, w.rs, !q->all);
	out->ncols = l.ncols;
	out->names = w.names;
	out->types = l.types;
	return FLOE_OK;
}

/* ---- shared CTEs -----------------------------------------------------------
 *
 * A CTE of the statement's top-level WITH that the statement names more
 * than once (TPC-H q15: revenue0 in FROM and in the max() subquery) is run
 * once, while planning, into a RowStore that every reference scans ("CTE
 * Scan"), as PostgreSQL materialises such CTEs.  Only under select_plan
 * (not EXPLAIN, whose plan must not run, nor when describing a prepared
 * statement), only SELECT CTEs, and only while the rows stay within 4 x
 * work_mem (256 MB without one); a larger one is dropped and planned at
 * each reference as before.  The list lives for one select_plan call
 * (thread-local, saved and restored around nested calls).
 */
typedef struct CteStore {
	const PgQuery__CommonTableExpr *cte;
	RowStore *rs;                  /* NULL: too large, plan inline */
	int ncols;
	char **names;
	SqlType *types;
	struct CteStore *next;
} CteStore;

typedef struct CteCache {
	CteStore *list;
} CteCache;

static _Thread_local CteCache *cte_cache;

/* How often the word w occurs in text (any case, as an identifier). */
static int
word_count(const char *text, const char *w)
{
	size_t n = strlen(w);
	const char *t;
	int c = 0;

	if (!text || !n)
		return 0;
	for (t = text; *t; t++) {
		if (strncasecmp(t, w, n) != 0)
			continue;
		if (t > text && (t[-1] == '_' || (t[-1] & 0x80) || isalnum((unsigned char)t[-1])))
			continue;
		if (t[n] == '_' || (t[n] & 0x80) || isalnum((unsigned char)t[n]))
			continue;
		c++;
	}
	return c;
}

/* Is this CTE (defined in p's WITH) one to materialise once? */
static bool
cte_shared(const BindCtx *p, const PgQuery__CommonTableExpr *cte)
{
	return cte_cache && p->parent && !p->parent->parent && !p->corr_scope &&
	       cte->ctequery->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
	       cte->ctematerialized != PG_QUERY__CTEMATERIALIZE__CTEMaterializeNever &&
	       word_count(p->sql, cte->ctename) >= 3;   /* its definition + two references */
}

/* The CTE's store, run now on first use; *out NULL: plan it inline. */
static int
cte_store(BindCtx *def, ExecCtx *ctx, PgQuery__CommonTableExpr *cte, CteStore **out)
{
	SelectPlan sub;
	CteStore *c;
	int64_t bytes = 0, cap = ctx->mem_limit > 0 ? 4 * ctx->mem_limit : (int64_t)256 << 20;
	int rc = FLOE_OK;

	for (c = cte_cache->list; c; c = c->next)
		if (c->cte == cte) {
			*out = c->rs ? c : NULL;
			return FLOE_OK;
		}
	*out = NULL;
	TRY(plan_query(def, ctx, cte->ctequery, &sub));
	c = ARENA_NEW(ctx->arena, CteStore);
	c->cte = cte;
	c->next = cte_cache->list;
	cte_cache->list = c;
	if (sub.root->est_rows >= 0 && sub.root->est_rows * 16.0 * (sub.ncols + 1) > (double)cap)
		return FLOE_OK;         /* estimated too large: inline */
	c->rs = rowstore_new(ctx, sub.ncols, sub.types, NULL);
	c->ncols = sub.ncols;
	c->names = sub.names;
	c->types = sub.types;
	TRY(op_open(sub.root));
	for (;;) {
		Batch *batch;
		if ((rc = exec_check_cancel(ctx)) != FLOE_OK || (rc = op_next(sub.root, &batch)) != FLOE_OK ||
		    !batch)
			break;
		rowstore_append(c->rs, batch);
		bytes += (int64_t)batch->count * 16 * (sub.ncols + 1);
		if (bytes > cap)
			break;
	}
	op_close(sub.root);
	if (rc != FLOE_OK)
		return rc;
	if (bytes > cap) {
		rowstore_clear(c->rs);
		c->rs = NULL;
		return FLOE_OK;
	}
	*out = c;
	return FLOE_OK;
}

/* A time-travel read being bound (source_timetravel -> source_table). */
typedef struct TimeTravel {
	PgQuery__RangeVar *rv;
	int mode;                 /* metatable_snapshot_at's */
	const char *text;
	int64_t us;
} TimeTravel;
static _Thread_local const TimeTravel *cur_tt;

static int
source_table_resolve(BindCtx *b, ExecCtx *ctx, PgQuery__RangeVar *rv, Source *src)
{
	IngestOverlay *overlay = NULL;
	const char *ns, *name, *relname = rv->relname;
	Table *t;
	const IcebergSchema *schema;
	DataFile *files;
	int nfiles, i;
	int *proj;
	int64_t snap = -1;        /* time travel: the snapshot read, else -1 */
	Engine *e = b->session->engine;

	if (cur_tt && cur_tt->rv == rv) {
		/* parse.c's TABLESAMPLE "floe$tt": the table at a snapshot */
		const TimeTravel *tt = cur_tt;
		cur_tt = NULL;
		TRY(ingest_before_metatable(b->session, rv, b->err));
		TRY(metatable_snapshot_at(b->session, ctx, rv, b->arena, tt->mode, tt->text, tt->us, &t,
					  &snap, &schema, &relname, b->err));
		goto scan;
	}

	if ((!rv->schemaname || !rv->schemaname[0]) && cur_work && !strcmp(cur_work->name, rv->relname)) {
		/* the recursive term's reference to its own CTE */
		WorkRef *w = cur_work;
		TRY(acl_lock_cte(ctx, b->err));    /* not locked by FOR UPDATE */
		if (++w->uses > 1)
			return invalid_recursion(b, rv->location,
						 "recursive reference to query \"%s\" must not appear more than once",
						 w->name);
		src->op = rowstore_scan_new(ctx, w->rs);
		src->op->label = arena_sprintf(b->arena, "WorkTable Scan on %s", w->name);
		src->est = -1;
		src->scope.ncols = w->ncols;
		src->scope.names = w->names;
		src->scope.types = w->types;
		src->scope.relname = rv->relname;
		TRY(apply_alias(b, src, rv->alias));
		return FLOE_OK;
	}
	if (!rv->schemaname || !rv->schemaname[0]) {
		/* a CTE of this query or an enclosing one */
		BindCtx *p;
		for (p = b; p; p = p->parent) {
			size_t ci;
			if (!p->with)
				continue;
			for (ci = 0; ci < p->with->n_ctes; ci++) {
				PgQuery__CommonTableExpr *cte = p->with->ctes[ci]->common_table_expr;
				if (!strcmp(cte->ctename, rv->relname)) {
					/* plan it where it was defined, seeing only the
					 * CTEs before it; FOR UPDATE does not lock it */
					BindCtx def = *p;
					PgQuery__WithClause w = *p->with;
					SelectPlan sub;
					size_t k;
					w.n_ctes = ci;
					def.with = &w;
					def.scope = NULL;
					CteStore *cs = NULL;
					bool rec;
					TRY(acl_lock_cte(ctx, b->err));
					rec = p->with->recursive &&
						   cte->ctequery->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
						   mentions_rel(&cte->ctequery->base, cte->ctename, 0);
					if (!rec && cte_shared(p, cte))
						TRY(cte_store(&def, ctx, cte, &cs));
					if (rec) {
						TRY(plan_recursive_cte(&def, ctx, cte, &sub));
					} else if (cs) {
						sub.root = rowstore_scan_new(ctx, cs->rs);
						sub.root->label = arena_sprintf(b->arena, "CTE Scan on %s", cte->ctename);
						sub.ncols = cs->ncols;
						sub.names = ARENA_ARRAY(b->arena, char *, cs->ncols + 1);
						memcpy(sub.names, cs->names, sizeof(char *) * (size_t)cs->ncols);
						sub.types = cs->types;
					} else {
						TRY(plan_inline(b, &def, ctx, cte->ctequery, src, &sub));
					}
					if (rec || cs)
						src->op = sub.root;
					src->est = -1;
					src->scope.ncols = sub.ncols;
					src->scope.names = sub.names;
					src->scope.types = sub.types;
					if (cte->n_aliascolnames > (size_t)sub.ncols)
						return floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
								   "WITH query \"%s\" has %d columns available but %zu columns specified",
								   cte->ctename, sub.ncols, cte->n_aliascolnames);
					for (k = 0; k < cte->n_aliascolnames; k++)
						src->scope.names[k] = cte->aliascolnames[k]->string->sval;
					src->scope.relname = rv->relname;
					TRY(apply_alias(b, src, rv->alias));
					return FLOE_OK;
				}
			}
		}
	}
	{
		/* pg_catalog / information_schema: pg_catalog is searched
		 * before search_path, as PostgreSQL does */
		bool found = false;
		TRY(pgcatalog_relation(b->session, ctx, rv->schemaname, rv->relname, b->arena, &found,
				       &src->scope.ncols, &src->scope.names, &src->scope.types,
				       &src->op, b->err));
		if (found) {
			src->est = 1000;
			src->scope.relname = rv->relname;
			TRY(apply_alias(b, src, rv->alias));
			return FLOE_OK;
		}
		/* Iceberg metadata tables (t$snapshots, ...) and time travel:
		 * the table's buffered rows are flushed first (ingest.h) */
		TRY(ingest_before_metatable(b->session, rv, b->err));
		TRY(metatable_relation(b->session, ctx, rv, b->arena, &found, &src->scope.ncols,
				       &src->scope.names, &src->scope.types, &src->op, b->err));
		if (found) {
			src->est = 1000;
			src->scope.relname = rv->relname;
			TRY(apply_alias(b, src, rv->alias));
			return FLOE_OK;
		}
		/* time travel: the table as of a snapshot, in its schema */
		TRY(metatable_snapshot(b->session, ctx, rv, b->arena, &found, &t, &snap, &schema,
				       &relname, b->err));
		if (found)
			goto scan;
	}
	session_resolve_name(b->session, rv, &ns, &name);
	if (rv->schemaname && rv->schemaname[0])   /* USAGE on it, before the lookup */
		TRY(acl_check_schema_usage(b->session, ctx, ns, b->err));
	/* floe.snapshot_mode: latest, pinned or explicit:<id> (snapshot_pin.h) */
	if (snapshot_pin_load(b->session, ns, name, b->arena, &t, &snap, &schema, b->err) != FLOE_OK) {
		bool is_seq = false;   /* SELECT * FROM a sequence (sequence.h) */
		if (floe_error_is(b->err, ERRCODE_UNDEFINED_TABLE)) {
			SelectPlan vp;
			bool is_view = false;
			floe_error_clear(b->err);
			TRY(seq_relation(b->session, ctx, ns, name, b->arena, &is_seq, &src->scope.ncols,
					 &src->scope.names, &src->scope.types, &src->op, b->err));
			if (is_seq) {
				/* SELECT on the sequence (PostgreSQL's message names it) */
				if (acl_note_rel(b->session, ctx, ns, name, NULL, ROLE_PRIV_SELECT, b->err) != FLOE_OK) {
					if (floe_error_is(b->err, ERRCODE_INSUFFICIENT_PRIVILEGE) &&
					    !strncmp(b->err->message, "permission denied for table", 27))
						floe_errorf(b->err, ERRCODE_INSUFFICIENT_PRIVILEGE,
							    "permission denied for sequence %s", name);
					return FLOE_ERR;
				}
				src->est = 1;
				src->scope.relname = rv->relname;
				return apply_alias(b, src, rv->alias);
			}
			/* a view (views.c)? */
			TRY(views_source(b, ctx, ns, name, &is_view, &vp));
			if (is_view) {
				src->op = vp.root;
				src->scope.ncols = vp.ncols;
				src->scope.names = vp.names;
				src->scope.types = vp.types;
				src->scope.relname = rv->relname;
				return apply_alias(b, src, rv->alias);
			}
			floe_errorf(b->err, ERRCODE_UNDEFINED_TABLE, "relation does not exist");
		}
		if (floe_error_is(b->err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(b->err, ERRCODE_UNDEFINED_TABLE, "relation \"%s%s%s\" does not exist",
				    rv->schemaname ? rv->schemaname : "", rv->schemaname && rv->schemaname[0] ? "." : "",
				    name);
		floe_error_position(b->err, bind_location(b, rv->location));
		return FLOE_ERR;
	}
	/* every table the statement reads, in any clause: SELECT on it */
	TRY(acl_note_rel(b->session, ctx, ns, name, t->md ? t->md->table_uuid : NULL, ROLE_PRIV_SELECT,
			 b->err));
	if (snap >= 0)
		goto scan;             /* explicit:<id>: a snapshot, no buffered rows */
	/* the table's insert-buffer rows, a second scan source (ingest.h) */
	TRY(ingest_overlay_load(b->session, ns, name, &t, b->arena, &overlay, b->err));
	schema = metadata_current_schema(t->md);
scan:
	TRY(table_scan_files(e->io, t, snap, b->arena, &files, &nfiles, b->err));
	src->est = 0;
	for (i = 0; i < nfiles; i++)
		src->est += (double)files[i].record_count;
	/* read only the columns the statement names (all of them for "*") */
	proj = ARENA_ARRAY(b->arena, int, schema->nfields + N_META_COLS + 1);
	{
		/* column aliases rename by position: read every column then */
		const UsedNames *u = rv->alias && rv->alias->n_colnames > 0 ? NULL : used_of(b);
		int np = 0;
		for (i = 0; i < schema->nfields; i++)
			if (!u || u->all || used_has(u, schema->fields[i].name))
				proj[np++] = i;
		/* metadata columns (v3 row lineage, per-file), when named (or
		 * maybe named); a user column of the same name wins */
		{
			int w;
			for (w = 0; w < N_META_COLS; w++) {
				bool shadowed = false;
				const char *mn = meta_cols[w].name;
				if (meta_cols[w].v3 && t->md->format_version < 3)
					continue;
				for (i = 0; i < schema->nfields; i++)
					if (!strcmp(schema->fields[i].name, mn))
						shadowed = true;
				if (!shadowed && (u && !u->all ? used_has(u, mn) : sql_mentions(b, mn)))
					proj[np++] = meta_cols[w].proj;
			}
		}
		if (np == 0 && schema->nfields > 0)
			proj[np++] = 0;         /* count(*): rows still need a column */
		src->scope.ncols = np;
	}
	src->ndv = ARENA_ARRAY(b->arena, double, src->scope.ncols + 1);
	src->lo = ARENA_ARRAY(b->arena, double, src->scope.ncols + 1);
	src->hi = ARENA_ARRAY(b->arena, double, src->scope.ncols + 1);
	src->scope.names = ARENA_ARRAY(b->arena, char *, src->scope.ncols + 1);
	src->scope.types = ARENA_ARRAY(b->arena, SqlType, src->scope.ncols + 1);
	src->scope.nested = ARENA_ARRAY(b->arena, char *, src->scope.ncols + 1);
	for (i = 0; i < src->scope.ncols; i++) {
		const IcebergField *f;
		src->lo[i] = 1;
		src->hi[i] = 0;
		if (proj[i] < 0) {
			/* row ids are unique; a file's columns have one value per file */
			int w;
			for (w = 0; w < N_META_COLS && meta_cols[w].proj != proj[i]; w++)
				;
			src->ndv[i] = proj[i] == SCAN_PROJ_ROW_ID ? src->est :
				proj[i] == SCAN_PROJ_FILE_PATH ? (double)nfiles : -1;
			src->scope.names[i] = meta_cols[w].name;
			src->scope.types[i] = scan_proj_type(proj[i]);
			continue;
		}
		f = &schema->fields[proj[i]];
		column_bounds(f, files, nfiles, &src->lo[i], &src->hi[i]);
		src->ndv[i] = column_ndv(src->lo[i], src->hi[i], src->est);
		{
			/* ANALYZE's (or another engine's) count, when the
			 * statistics cover this snapshot (table_stats.h) */
			double sn;
			if (table_stats_planner_ndv(t->md, snap, f->id, src->est, &sn) &&
			    (src->ndv[i] < 0 || sn < src->ndv[i]))
				src->ndv[i] = sn;
		}
		src->scope.names[i] = f->name;
		src->scope.types[i] = f->type;
		if (f->nested) {
			src->scope.types[i] = type_make(TYPE_NULL);
			src->scope.nested[i] = f->iceberg_type;
		}
	}
	src->scope.relname = (char *)relname;
	{
		/* the scan, planned here, built by table_source_op when the Get
		 * node is lowered (physical.c) */
		TableSource *ts = ARENA_NEW(b->arena, TableSource);
		ts->ns = t->ns;
		ts->name = t->name;
		ts->snapshot = snap;
		ts->md = t->md;
		ts->schema = schema;
		ts->ncols = src->scope.ncols;
		ts->proj = proj;
		ts->types = src->scope.types;
		ts->files = files;
		ts->nfiles = nfiles;
		ts->overlay = overlay;
		ts->label = rv->alias ? arena_sprintf(b->arena, "Seq Scan on %s %s", relname,
						      rv->alias->aliasname) :
			    arena_sprintf(b->arena, "Seq Scan on %s", relname);
		if (snap >= 0)
			ts->label = arena_sprintf(b->arena, "%s (snapshot %lld)", ts->label, (long long)snap);
		ts->est = src->est;
		ts->ndv = src->ndv;
		TRY(apply_alias(b, src, rv->alias));
		if (b->lp)
			src->lop = table_source_get(b->lp, ts, src->scope.names);
		else
			src->op = table_source_op(ctx, ts);
	}
	return FLOE_OK;
}

/* A FROM table as the binder resolves it (source_table_resolve); when the
 * statement's FOR UPDATE / SHARE locks this item, the relation it
 * resolves to needs UPDATE as well (acl.h acl_lock_enter). */
static int
source_table(BindCtx *b, ExecCtx *ctx, PgQuery__RangeVar *rv, Source *src)
{
	unsigned saved = acl_lock_enter(ctx, rv);
	int rc = source_table_resolve(b, ctx, rv, src);

	acl_lock_leave(ctx, saved);
	return rc;
}

static int
const_arg(BindCtx *b, Node *n, SqlType want, Value *out)
{
	Expr *e = bind_expr(b, n);
	if (!e)
		return FLOE_ERR;
	if (want.id != TYPE_NULL && !(e = bind_coerce(b, e, want, 1 /* assignment */, NULL)))
		return FLOE_ERR;
	if (expr_has_colref(e))
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "function arguments in FROM must be constants");
	return expr_eval_const(e, bind_env(b), b->arena, out, b->err);
}

/* A call of f's arguments (and options) under another, unqualified name. */
static Node *
renamed_call(BindCtx *b, const PgQuery__FuncCall *f, const char *name)
{
	Node *call = ARENA_NEW(b->arena, Node), *fn = ARENA_NEW(b->arena, Node);
	PgQuery__FuncCall *fc = ARENA_NEW(b->arena, PgQuery__FuncCall);

	*fc = *f;
	pg_query__node__init(fn);
	fn->node_case = PG_QUERY__NODE__NODE_STRING;
	fn->string = ARENA_NEW(b->arena, PgQuery__String);
	pg_query__string__init(fn->string);
	fn->string->sval = (char *)name;
	fc->n_funcname = 1;
	fc->funcname = ARENA_ARRAY(b->arena, Node *, 1);
	fc->funcname[0] = fn;
	pg_query__node__init(call);
	call->node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
	call->func_call = fc;
	return call;
}

/* The scope of a function in FROM that returns one column of type t:
 * column colname of relation relname, or (alias_col) named after a table
 * alias that lists no column names, as PostgreSQL names a scalar
 * function's column; then the alias applies. */
static int
one_column(BindCtx *b, Source *src, PgQuery__RangeFunction *rf, const char *colname,
	   const char *relname, SqlType t, bool alias_col)
{
	src->scope.ncols = 1;
	src->scope.names = ARENA_ARRAY(b->arena, char *, 1);
	src->scope.types = ARENA_ARRAY(b->arena, SqlType, 1);
	src->scope.names[0] = (char *)colname;
	src->scope.types[0] = t;
	src->scope.relname = (char *)relname;
	if (alias_col && rf->alias && rf->alias->n_colnames == 0)
		src->scope.names[0] = rf->alias->aliasname;
	TRY(apply_alias(b, src, rf->alias));
	return FLOE_OK;
}

/* the json set-returning functions (func_json.c's arrays under unnest) */
static bool
json_srf(const char *n)
{
	static const char *const names[] = {
		"json_object_keys", "jsonb_object_keys", "json_array_elements", "jsonb_array_elements",
		"json_array_elements_text", "jsonb_array_elements_text", "json_each", "jsonb_each",
		"json_each_text", "jsonb_each_text", "jsonb_path_query", "jsonb_path_query_tz",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(n, names[i]))
			return true;
	return false;
}

/* unnest(array) / regexp_matches(s, pattern [, flags]) in FROM (also
 * LATERAL: arguments over the outer row are evaluated per row, srf.c) */
static int
source_srf(BindCtx *b, ExecCtx *ctx, PgQuery__RangeFunction *rf, PgQuery__FuncCall *f,
	   const char *name, Source *src)
{
	bool unnest = !strcmp(name, "unnest"), subs = !strcmp(name, "generate_subscripts");
	bool ordinal = !strcmp(name, "__floe_expandarray_n"), row = !strcmp(name, "__floe_expandarray_row");
	Expr *args[3];
	SqlType t;
	size_t i;

	if (row) {
		/* _pg_expandarray(a) as a whole record (x, n) (array.h's
		 * ARRAY_RECORD): integer arrays only */
		char b0[64];
		if (f->n_args != 1 || !(args[0] = bind_expr(b, f->args[0])))
			return f->n_args != 1 ? floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
							    "function _pg_expandarray with %zu arguments does not exist",
							    f->n_args) : FLOE_ERR;
		if (args[0]->type.id != TYPE_ARRAY || !type_is_integer((TypeId)args[0]->type.elem))
			return unsupported(b, arena_sprintf(b->arena, "the whole record of _pg_expandarray(%s)",
							    func_type_name(args[0]->type, b0, sizeof b0)), f->location);
		t = args[0]->type;   /* int2vector too: the same elements */
		t.vector = ARRAY_RECORD;
		src->op = srf_new(ctx, 4, t, args, 1);
		src->op->label = "Function Scan on _pg_expandarray";
		return one_column(b, src, rf, "_pg_expandarray", "_pg_expandarray", t, false);
	}
	if (ordinal) {
		/* _pg_expandarray's n: the positions 1 .. cardinality */
		if (f->n_args != 1 || !(args[0] = bind_expr(b, f->args[0])))
			return f->n_args != 1 ? floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
							    "function _pg_expandarray with %zu arguments does not exist",
							    f->n_args) : FLOE_ERR;
		if (args[0]->type.id != TYPE_ARRAY) {
			char b0[64];
			floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
				    "function information_schema._pg_expandarray(%s) does not exist",
				    func_type_name(args[0]->type, b0, sizeof b0));
			floe_error_position(b->err, bind_location(b, f->location));
			return FLOE_ERR;
		}
		t = type_make(TYPE_INT32);
		src->op = srf_new(ctx, 3, t, args, 1);
		src->op->label = "Function Scan on _pg_expandarray";
		return one_column(b, src, rf, "n", "_pg_expandarray", t, false);
	}
	if (subs) {
		/* generate_subscripts(anyarray, int [, bool]) -> int */
		char b0[64], b1[64], b2[64];
		if (f->n_args < 2 || f->n_args > 3)
			return floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
					   "function generate_subscripts with %zu arguments does not exist",
					   f->n_args);
		for (i = 0; i < f->n_args; i++)
			if (!(args[i] = bind_expr(b, f->args[i])))
				return FLOE_ERR;
		if (args[0]->type.id != TYPE_ARRAY || !type_is_integer(args[1]->type.id) ||
		    (f->n_args == 3 && args[2]->type.id != TYPE_BOOL && !args[2]->unknown_literal)) {
			floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
				    "function generate_subscripts(%s, %s%s%s) does not exist",
				    func_type_name(args[0]->type, b0, sizeof b0),
				    func_type_name(args[1]->type, b1, sizeof b1), f->n_args == 3 ? ", " : "",
				    f->n_args == 3 ? func_type_name(args[2]->type, b2, sizeof b2) : "");
			floe_error_position(b->err, bind_location(b, f->location));
			return FLOE_ERR;
		}
		if (!(args[1] = bind_coerce(b, args[1], type_make(TYPE_INT32), 0, NULL)) ||
		    (f->n_args == 3 && !(args[2] = bind_coerce(b, args[2], type_make(TYPE_BOOL), 0, NULL))))
			return FLOE_ERR;
		t = type_make(TYPE_INT32);
		src->op = srf_new(ctx, 2, t, args, (int)f->n_args);
		src->op->label = arena_sprintf(b->arena, "Function Scan on %s%s%s", name,
					       rf->alias ? " " : "", rf->alias ? rf->alias->aliasname : "");
		return one_column(b, src, rf, name, name, t, true);
	}
	if (unnest ? f->n_args != 1 : (f->n_args < 2 || f->n_args > 3)) {
		if (unnest && f->n_args > 1)
			return unsupported(b, "unnest with more than one argument", f->location);
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
			    "function %s with %zu arguments does not exist", name, f->n_args);
		floe_error_position(b->err, bind_location(b, f->location));
		return FLOE_ERR;
	}
	for (i = 0; i < f->n_args; i++) {
		if (!(args[i] = bind_expr(b, f->args[i])))
			return FLOE_ERR;
		if (!unnest && !(args[i] = bind_coerce(b, args[i], type_make(TYPE_TEXT), 0, NULL)))
			return FLOE_ERR;
	}
	if (unnest) {
		char buf[64];
		if (args[0]->type.id != TYPE_ARRAY) {
			floe_errorf(b->err, args[0]->unknown_literal ? ERRCODE_AMBIGUOUS_FUNCTION :
				    ERRCODE_UNDEFINED_FUNCTION, args[0]->unknown_literal ?
				    "function unnest(unknown) is not unique" : "function unnest(%s) does not exist",
				    func_type_name(args[0]->type, buf, sizeof buf));
			floe_error_position(b->err, bind_location(b, f->location));
			return FLOE_ERR;
		}
		t = args[0]->type;
		t.id = (TypeId)t.elem;
		t.elem = 0;
	} else {
		t = type_make(TYPE_TEXT);
		t.elem = TYPE_TEXT;
		t.id = TYPE_ARRAY;
	}
	src->op = srf_new(ctx, unnest ? 0 : 1, t, args, (int)f->n_args);
	src->op->label = arena_sprintf(b->arena, "Function Scan on %s%s%s", name,
				       rf->alias ? " " : "", rf->alias ? rf->alias->aliasname : "");
	return one_column(b, src, rf, name, name, t, true);
}

static int source_item(BindCtx *b, ExecCtx *ctx, Node *item, Source *src);
static Node *srf_node(BindCtx *b, PgQuery__Node__NodeCase c);

static int
source_function(BindCtx *b, ExecCtx *ctx, PgQuery__RangeFunction *rf, Source *src)
{
	PgQuery__FuncCall *f;
	const char *name;
	Node *fn;

	if (rf->ordinality)
		return unsupported(b, "WITH ORDINALITY", -1);
	if (rf->n_functions > 1) {
		/* ROWS FROM (f1(...), f2(...), ...): in lockstep (srf.c) */
		size_t k;
		int c, nc = 0;
		Source *parts = ARENA_ARRAY(b->arena, Source, rf->n_functions);
		Operator **ops = ARENA_ARRAY(b->arena, Operator *, rf->n_functions);
		for (k = 0; k < rf->n_functions; k++) {
			PgQuery__RangeFunction one = *rf;
			one.n_functions = 1;
			one.functions = &rf->functions[k];
			one.alias = NULL;
			one.is_rowsfrom = false;
			memset(&parts[k], 0, sizeof parts[k]);
			parts[k].est = -1;
			TRY(source_function(b, ctx, &one, &parts[k]));
			ops[k] = parts[k].op;
			nc += parts[k].scope.ncols;
		}
		src->op = srf_zip_new(ctx, (int)rf->n_functions, ops);
		src->op->label = rf->alias ? arena_sprintf(b->arena, "Function Scan on %s",
							   rf->alias->aliasname) : "Function Scan";
		src->scope.ncols = nc;
		src->scope.names = ARENA_ARRAY(b->arena, char *, nc + 1);
		src->scope.types = ARENA_ARRAY(b->arena, SqlType, nc + 1);
		for (k = 0, nc = 0; k < rf->n_functions; k++)
			for (c = 0; c < parts[k].scope.ncols; c++, nc++) {
				src->scope.names[nc] = parts[k].scope.names[c];
				src->scope.types[nc] = parts[k].scope.types[c];
			}
		src->scope.relname = parts[0].scope.relname;
		TRY(apply_alias(b, src, rf->alias));
		return FLOE_OK;
	}
	if (rf->n_functions != 1)
		return unsupported(b, "this FROM function", -1);
	fn = rf->functions[0]->list->items[0];
	if (fn->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
		return unsupported(b, "this FROM function", -1);
	f = fn->func_call;
	name = f->funcname[f->n_funcname - 1]->string->sval;
	{
		/* a SQL function (function.c): its body as a subquery in FROM */
		bool handled;
		Node *q, *rs;
		TRY(function_source(b, ctx, f, rf->alias, &q, &handled));
		if (handled) {
			rs = srf_node(b, PG_QUERY__NODE__NODE_RANGE_SUBSELECT);
			rs->range_subselect = ARENA_NEW(b->arena, PgQuery__RangeSubselect);
			pg_query__range_subselect__init(rs->range_subselect);
			rs->range_subselect->subquery = q;
			rs->range_subselect->alias = rf->alias;
			if (!rf->alias) {
				PgQuery__Alias *al = ARENA_NEW(b->arena, PgQuery__Alias);
				pg_query__alias__init(al);
				al->aliasname = (char *)name;
				rs->range_subselect->alias = al;
			}
			return source_item(b, ctx, rs, src);
		}
	}
	if (!strcmp(name, "unnest") || !strcmp(name, "regexp_matches") ||
	    !strcmp(name, "generate_subscripts") || !strcmp(name, "__floe_expandarray_n") ||
	    !strcmp(name, "__floe_expandarray_row"))
		return source_srf(b, ctx, rf, f, name, src);
	if (!strcmp(name, "regexp_split_to_table") || !strcmp(name, "string_to_table")) {
		/* unnest of the pieces' array (func_regex.c's split, string_to_array):
		 * one text column named after the function or its alias */
		PgQuery__RangeFunction one = *rf;
		Node *list = ARENA_NEW(b->arena, Node), *call = renamed_call(b, f, "unnest");
		call->func_call->n_args = 1;
		call->func_call->args = ARENA_ARRAY(b->arena, Node *, 1);
		call->func_call->args[0] = renamed_call(b, f, name[0] == 'r' ? "__floe_regexp_split_to_table"
								      : "string_to_array");
		pg_query__node__init(list);
		list->node_case = PG_QUERY__NODE__NODE_LIST;
		list->list = ARENA_NEW(b->arena, PgQuery__List);
		pg_query__list__init(list->list);
		list->list->n_items = 1;
		list->list->items = ARENA_ARRAY(b->arena, Node *, 1);
		list->list->items[0] = call;
		one.n_functions = 1;
		one.functions = ARENA_ARRAY(b->arena, Node *, 1);
		one.functions[0] = list;
		one.alias = NULL;
		TRY(source_function(b, ctx, &one, src));
		src->scope.names[0] = rf->alias && rf->alias->n_colnames == 0 ? rf->alias->aliasname
									  : (char *)name;
		src->scope.relname = (char *)name;
		return apply_alias(b, src, rf->alias);
	}
	if (json_srf(name)) {
		/* json(b)_object_keys / _array_elements(_text) / _each(_text):
		 * unnest of func_json.c's array of the keys, elements, values
		 * (__floe_<name>); _each is ROWS FROM (keys, values) */
		bool each = strstr(name, "_each") != NULL;
		PgQuery__RangeFunction two = *rf;
		Node *lists[2];
		int k, n = each ? 2 : 1;
		for (k = 0; k < n; k++) {
			Node *inner = renamed_call(b, f, arena_sprintf(b->arena, "__floe_%s%s", name,
								       each && !k ? "_keys" : ""));
			Node *call = renamed_call(b, f, "unnest");
			call->func_call->n_args = 1;
			call->func_call->args = ARENA_ARRAY(b->arena, Node *, 1);
			call->func_call->args[0] = inner;
			lists[k] = ARENA_NEW(b->arena, Node);
			pg_query__node__init(lists[k]);
			lists[k]->node_case = PG_QUERY__NODE__NODE_LIST;
			lists[k]->list = ARENA_NEW(b->arena, PgQuery__List);
			pg_query__list__init(lists[k]->list);
			lists[k]->list->n_items = 1;
			lists[k]->list->items = ARENA_ARRAY(b->arena, Node *, 1);
			lists[k]->list->items[0] = call;
		}
		two.n_functions = (size_t)n;
		two.functions = ARENA_ARRAY(b->arena, Node *, 2);
		two.functions[0] = lists[0];
		two.functions[1] = lists[n - 1];
		two.alias = NULL;
		TRY(source_function(b, ctx, &two, src));
		if (each) {
			src->scope.names[0] = "key";
			src->scope.names[1] = "value";
		} else {
			/* _object_keys returns text: an alias names its column;
			 * _array_elements' column is its OUT parameter "value" */
			bool keys = strstr(name, "_keys") != NULL || strstr(name, "_path_query") != NULL;
			src->scope.names[0] = !keys ? "value" : rf->alias && rf->alias->n_colnames == 0
					      ? rf->alias->aliasname : (char *)name;
		}
		src->scope.relname = (char *)name;
		TRY(apply_alias(b, src, rf->alias));
		return FLOE_OK;
	}
	if (!strcmp(name, "_pg_expandarray")) {
		/* information_schema._pg_expandarray(arr): (x, n) = ROWS FROM
		 * (unnest(arr), positions 1..n) */
		PgQuery__RangeFunction two = *rf;
		Node *lists[2];
		int k;
		for (k = 0; k < 2; k++) {
			Node *call = renamed_call(b, f, k ? "__floe_expandarray_n" : "unnest");
			lists[k] = ARENA_NEW(b->arena, Node);
			pg_query__node__init(lists[k]);
			lists[k]->node_case = PG_QUERY__NODE__NODE_LIST;
			lists[k]->list = ARENA_NEW(b->arena, PgQuery__List);
			pg_query__list__init(lists[k]->list);
			lists[k]->list->n_items = 1;
			lists[k]->list->items = ARENA_ARRAY(b->arena, Node *, 1);
			lists[k]->list->items[0] = call;
		}
		two.n_functions = 2;
		two.functions = ARENA_ARRAY(b->arena, Node *, 2);
		two.functions[0] = lists[0];
		two.functions[1] = lists[1];
		two.alias = NULL;
		TRY(source_function(b, ctx, &two, src));
		src->scope.names[0] = "x";
		src->scope.names[1] = "n";
		src->scope.relname = "_pg_expandarray";
		TRY(apply_alias(b, src, rf->alias));
		return FLOE_OK;
	}
	if (!strcmp(name, "generate_series")) {
		Expr *args[3], *deferred[3] = { NULL, NULL, NULL };
		SqlType t;
		Value v[3];
		size_t i;

		if (f->n_args < 2 || f->n_args > 3) {
			floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
				    "function generate_series with %zu arguments does not exist", f->n_args);
			floe_error_position(b->err, bind_location(b, f->location));
			return FLOE_ERR;
		}
		for (i = 0; i < f->n_args; i++)
			if (!(args[i] = bind_expr(b, f->args[i])))
				return FLOE_ERR;
		if (bind_common_type(b, args, 2, "generate_series", &t) != FLOE_OK)
			return FLOE_ERR;
		if (args[0]->unknown_literal && args[1]->unknown_literal)
			t = type_make(TYPE_TIMESTAMPTZ);
		if (t.id == TYPE_INT16)
			t = type_make(TYPE_INT32);
		if (t.id == TYPE_DATE)
			t = type_make(TYPE_TIMESTAMP);
		if (t.id == TYPE_DECIMAL && f->n_args == 3 && !args[2]->unknown_literal &&
		    args[2]->type.id == TYPE_DECIMAL && args[2]->type.scale > t.scale)
			t = type_decimal(0, args[2]->type.scale);
		if (t.id == TYPE_DECIMAL) {
			/* one scale for start, stop and step: the largest */
			int s = t.scale, k;
			for (k = 0; k < (int)f->n_args; k++)
				if (!args[k]->unknown_literal && args[k]->type.id == TYPE_DECIMAL &&
				    args[k]->type.scale > s)
					s = args[k]->type.scale;
			t = type_decimal(38, s);
		}
		if (!type_is_numeric(t.id) && t.id != TYPE_TIMESTAMP && t.id != TYPE_TIMESTAMPTZ) {
			char buf[64];
			floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
				    "function generate_series(%s, %s) does not exist",
				    func_type_name(t, buf, sizeof buf), buf);
			floe_error_position(b->err, bind_location(b, f->location));
			return FLOE_ERR;
		}
		if (type_is_numeric(t.id) && (t.id == TYPE_FLOAT32 || t.id == TYPE_FLOAT64))
			t = type_decimal(38, 0);   /* PG has no float generate_series: numeric */
		for (i = 0; i < 2; i++) {
			if (!(args[i] = bind_coerce(b, args[i], t, 0, NULL)))
				return FLOE_ERR;
			if (expr_has_colref(args[i])) {
				/* a LATERAL parameter: evaluated per outer row */
				deferred[i] = args[i];
				v[i] = value_null(t);
			} else if (expr_eval_const(args[i], bind_env(b), b->arena, &v[i], b->err) != FLOE_OK) {
				return FLOE_ERR;
			}
		}
		if (f->n_args == 3) {
			SqlType st = (t.id == TYPE_TIMESTAMP || t.id == TYPE_TIMESTAMPTZ) ?
				type_make(TYPE_INTERVAL) : t;
			if (!(args[2] = bind_coerce(b, args[2], st, 0, NULL)))
				return FLOE_ERR;
			if (expr_has_colref(args[2])) {
				deferred[2] = args[2];
				v[2] = value_null(st);
			} else if (expr_eval_const(args[2], bind_env(b), b->arena, &v[2], b->err) != FLOE_OK) {
				return FLOE_ERR;
			}
		} else {
			if (t.id == TYPE_TIMESTAMP || t.id == TYPE_TIMESTAMPTZ) {
				floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
					    "function generate_series(timestamp, timestamp) does not exist");
				return FLOE_ERR;
			}
			memset(&v[2], 0, sizeof v[2]);
			v[2].type = t;
			if (t.id == TYPE_DECIMAL) {
				int128 one = 1;
				int k;
				for (k = 0; k < t.scale; k++)
					one *= 10;
				v[2].u.d = one;
			} else {
				v[2].u.i = 1;
			}
		}
		src->op = series_new(ctx, t, &v[0], &v[1], &v[2]);
		if (deferred[0] || deferred[1] || deferred[2])
			series_set_args(src->op, deferred[0], deferred[1], deferred[2]);
		src->op->label = rf->alias ? arena_sprintf(b->arena, "Function Scan on generate_series %s",
							   rf->alias->aliasname) :
			"Function Scan on generate_series";
		if ((t.id == TYPE_INT32 || t.id == TYPE_INT64) && !v[0].is_null && !v[1].is_null &&
		    !v[2].is_null && v[2].u.i != 0) {
			/* integer series: the exact row count */
			double n = ((double)v[1].u.i - (double)v[0].u.i) / (double)v[2].u.i + 1;
			src->op->est_rows = n < 0 ? 0 : (double)(int64_t)n;
		}
		return one_column(b, src, rf, "generate_series", "generate_series", t, true);
	}
	if (!strcmp(name, "infer_schema")) {   /* ingest/infer.c */
		TRY(infer_schema_source(b, ctx, f, &src->op, &src->scope.ncols, &src->scope.names,
					&src->scope.types));
		src->scope.relname = "infer_schema";
		return apply_alias(b, src, rf->alias);
	}
	if (!strcmp(name, "read_csv") || !strcmp(name, "read_json")) {   /* ingest/readfiles.c */
		TRY(readfiles_source(b, ctx, name, f, &src->op, &src->scope.ncols, &src->scope.names,
				     &src->scope.types));
		src->scope.relname = !strcmp(name, "read_csv") ? "read_csv" : "read_json";
		return apply_alias(b, src, rf->alias);
	}
	if (!strcmp(name, "read_parquet")) {
		Value path;
		const uint8_t *data;
		size_t len;
		ParquetFile *pf;
		IcebergSchema *schema;
		DataFile *file;
		int i, nc;
		int *proj;
		Engine *e = b->session->engine;

		if (f->n_args != 1) {
			floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
				    "read_parquet takes one argument: the file path");
			return FLOE_ERR;
		}
		TRY(const_arg(b, f->args[0], type_make(TYPE_TEXT), &path));
		if (path.is_null)
			return floe_errorf(b->err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					   "read_parquet path must not be NULL");
		file = ARENA_NEW(b->arena, DataFile);
		file->file_path = arena_strndup(b->arena, strview_data(&path.u.s), path.u.s.len);
		if (file->file_path[0] != '/' && !strstr(file->file_path, "://") &&
		    strncmp(file->file_path, "file:", 5)) {
			/* a relative path is the user's: resolve it against the
			 * process's working directory, not the warehouse */
			char cwd[4096];
			if (getcwd(cwd, sizeof cwd))
				file->file_path = arena_sprintf(b->arena, "%s/%s", cwd, file->file_path);
		}
		file->file_format = "PARQUET";
		/* the local file the FileIO reads (file: URI, prefix maps) */
		TRY(acl_check_file(b->session, fileio_resolve(e->io, file->file_path, b->arena), false,
				   b->err));
		/* read once, confined; the scan parses these bytes (file->bytes),
		 * never the path again */
		TRY(acl_read_file(b->session, e->io, file->file_path, b->arena, &data, &len, b->err));
		TRY(parquet_open(&pf, data, len, file->file_path, b->arena, b->err));
		file->bytes = data;
		file->nbytes = len;
		file->file_size_in_bytes = (int64_t)len;
		/* one column per top-level field: a nested field (struct, map,
		 * list of a non-primitive: its leaves) is a column of its own
		 * that fails with 0A000 where a query uses it */
		int nl = parquet_num_columns(pf);
		schema = ARENA_NEW(b->arena, IcebergSchema);
		schema->fields = ARENA_ARRAY(b->arena, IcebergField, nl + 1);
		proj = ARENA_ARRAY(b->arena, int, nl + 1);
		src->scope.nested = ARENA_ARRAY(b->arena, char *, nl + 1);
		nc = 0;
		for (i = 0; i < nl; i++) {
			const ParquetColumn *pc = parquet_column(pf, i);
			if (pc->nested) {
				if (nc > 0 && src->scope.nested[nc - 1] &&
				    strcmp(schema->fields[nc - 1].name, pc->top_name) == 0)
					continue;       /* another leaf of the same field */
				schema->fields[nc].id = -1;
				schema->fields[nc].name = arena_strdup(b->arena, pc->top_name);
				schema->fields[nc].type = type_make(TYPE_NULL);
				src->scope.nested[nc] = (char *)(pc->nested_type ? pc->nested_type : "struct");
				proj[nc] = nc;
				nc++;
				continue;
			}
			if (pc->type.id == TYPE_NULL)
				return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "Parquet column %s of %s has a type floe cannot read",
						   pc->name, file->file_path);
			schema->fields[nc].id = -1;
			schema->fields[nc].name = arena_strdup(b->arena, pc->name);
			schema->fields[nc].type = pc->type;
			src->scope.nested[nc] = NULL;
			proj[nc] = nc;
			nc++;
		}
		schema->nfields = nc;
		src->op = scan_new(ctx, schema, nc, proj, file, 1, true, NULL);
		src->scope.ncols = nc;
		src->scope.names = ARENA_ARRAY(b->arena, char *, nc + 1);
		src->scope.types = ARENA_ARRAY(b->arena, SqlType, nc + 1);
		for (i = 0; i < nc; i++) {
			src->scope.names[i] = schema->fields[i].name;
			src->scope.types[i] = schema->fields[i].type;
		}
		src->scope.relname = "read_parquet";
		TRY(apply_alias(b, src, rf->alias));
		return FLOE_OK;
	}
	floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist", name);
	floe_error_position(b->err, bind_location(b, f->location));
	return FLOE_ERR;
}

static int source_join(BindCtx *b, ExecCtx *ctx, PgQuery__JoinExpr *j, Source *src);

/* ---- LATERAL ------------------------------------------------------------- */

/*
 * A LATERAL derived table is planned once with the columns of the FROM
 * items to its left visible as parameters (BindCtx corr_scope with base
 * EXPR_PARAM_BASE, set on the subquery's own BindCtx through cur_lateral),
 * in an ExecCtx of its own whose params the lateral operator
 * (exec/lateral.c) fills from each left row before re-running it.  The
 * items to its left are joined first (a comma list: cross joined, the
 * WHERE applied above); the combining join may be INNER/CROSS or LEFT.
 */
typedef struct LateralDef {
	BindCtx *def;
	Scope *outer;
} LateralDef;

static _Thread_local LateralDef *cur_lateral;

static int
plan_lateral(BindCtx *b, ExecCtx *ctx, Source *l, Node *rnode, Source *r, ExecCtx **rctx_out)
{
	PgQuery__RangeSubselect *rs = rnode->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT ?
		rnode->range_subselect : NULL;
	ExecCtx *rctx = ARENA_NEW(b->arena, ExecCtx);
	BindCtx def = *b;
	LateralDef ld, *prev = cur_lateral;
	SelectPlan sub;
	int rc;

	*rctx = *ctx;
	rctx->nparams = l->scope.ncols;
	rctx->params = ARENA_ARRAY(b->arena, Value, l->scope.ncols + 1);
	def.scope = NULL;
	def.exec = rctx;
	if (!rs) {
		/* a function: its arguments see the outer columns */
		def.corr_scope = &l->scope;
		def.corr_base = EXPR_PARAM_BASE;
		memset(r, 0, sizeof *r);
		r->est = -1;
		TRY(source_function(&def, rctx, rnode->range_function, r));
		*rctx_out = rctx;
		return FLOE_OK;
	}
	ld.def = &def;
	ld.outer = &l->scope;
	cur_lateral = &ld;
	rc = plan_query(&def, rctx, rs->subquery, &sub);
	cur_lateral = prev;
	TRY(rc);
	memset(r, 0, sizeof *r);
	r->op = sub.root;
	r->est = -1;
	r->scope.ncols = sub.ncols;
	r->scope.names = sub.names;
	r->scope.types = sub.types;
	r->scope.relname = rs->alias ? rs->alias->aliasname : NULL;
	TRY(apply_alias(b, r, rs->alias));
	*rctx_out = rctx;
	return FLOE_OK;
}

static bool mentions_column(const ProtobufCMessage *m, int depth);

static int
mentions_column_child(const ProtobufCMessage *c, void *arg)
{
	return mentions_column(c, *(int *)arg + 1);
}

static bool
mentions_column(const ProtobufCMessage *m, int depth)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;

	if (d == &pg_query__column_ref__descriptor || depth > 1000)
		return true;
	return sql_children(m, mentions_column_child, &depth) != 0;
}

/* A LATERAL derived table, or a FROM function whose arguments use columns
 * (functions in FROM are implicitly LATERAL in PostgreSQL). */
static bool
is_lateral(Node *n)
{
	if (n->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT)
		return n->range_subselect->lateral;
	if (n->node_case == PG_QUERY__NODE__NODE_RANGE_FUNCTION)
		return mentions_column(&n->range_function->base, 0);
	return false;
}

/* l LATERAL-joined with r (INNER or LEFT, cond over the combined scope's
 * ON clause or NULL) into src. */
static int
join_lateral(BindCtx *b, ExecCtx *ctx, Source *l, Node *rnode, JoinType jt, Node *quals, Source *src)
{
	Source r;
	ExecCtx *rctx;
	Scope comb, *saved = b->scope;
	Expr *cond = NULL;

	TRY(src_lower(b, ctx, l));
	TRY(plan_lateral(b, ctx, l, rnode, &r, &rctx));
	TRY(check_dup_rel(b, &l->scope, &r.scope));
	scope_alloc(b, &comb, l->scope.ncols + r.scope.ncols);
	scope_put(&comb, 0, &l->scope);
	scope_put(&comb, l->scope.ncols, &r.scope);
	if (quals) {
		b->scope = &comb;
		b->allow_aggs = false;
		b->where = "JOIN conditions";
		cond = bind_coerce_bool(b, bind_expr(b, quals), "JOIN/ON");
		b->scope = saved;
		if (!cond)
			return FLOE_ERR;
		if (cond->kind == EXPR_CONST && !cond->value.is_null && cond->value.u.b)
			cond = NULL;
	}
	memset(src, 0, sizeof *src);
	src->op = lateral_new(ctx, l->op, r.op, rctx, jt, cond);
	src->est = -1;
	src->scope = comb;
	return FLOE_OK;
}

/* Cross join of items[0..n) (the FROM items left of a comma-list LATERAL). */
static int
cross_items(BindCtx *b, ExecCtx *ctx, Source *items, int n, Source *out)
{
	int i, total = 0;

	for (i = 0; i < n; i++)
		TRY(src_lower(b, ctx, &items[i]));
	*out = items[0];
	for (i = 1; i < n; i++) {
		Source acc = *out;
		Scope comb;
		total = acc.scope.ncols + items[i].scope.ncols;
		scope_alloc(b, &comb, total);
		scope_put(&comb, 0, &acc.scope);
		scope_put(&comb, acc.scope.ncols, &items[i].scope);
		memset(out, 0, sizeof *out);
		out->op = nested_loop_new(ctx, acc.op, items[i].op, JOIN_INNER, NULL);
		out->est = acc.est >= 0 && items[i].est >= 0 ? acc.est * items[i].est : -1;
		out->scope = comb;
	}
	return FLOE_OK;
}

/* FROM t TABLESAMPLE "floe$tt"(mode, x): parse.c's time travel (FOR
 * VERSION | TIMESTAMP AS OF x, AT / BEFORE(...)); x is a constant
 * expression (parameters and uncorrelated subqueries too), read as a
 * snapshot id or ref name (text) or as a timestamptz (an OFFSET: seconds). */
static int
source_timetravel(BindCtx *b, ExecCtx *ctx, PgQuery__RangeTableSample *ts, Source *src)
{
	BindCtx def = *b;
	TimeTravel tt;
	Expr *x;
	Value v;
	int rc;

	if (ts->n_args != 2 || !ts->relation ||
	    ts->relation->node_case != PG_QUERY__NODE__NODE_RANGE_VAR ||
	    ts->args[0]->node_case != PG_QUERY__NODE__NODE_A_CONST)
		return unsupported(b, "TABLESAMPLE", ts->location);
	memset(&tt, 0, sizeof tt);
	tt.rv = ts->relation->range_var;
	tt.mode = ts->args[0]->a_const->ival ? ts->args[0]->a_const->ival->ival : 0;
	if (tt.mode == 0) {
		char *what = arena_strdup(b->arena, ts->args[1]->node_case == PG_QUERY__NODE__NODE_A_CONST &&
			ts->args[1]->a_const->sval ? ts->args[1]->a_const->sval->sval : "?"), *c;
		for (c = what; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "time travel by %s is not supported (Iceberg tables have snapshots: AT(SNAPSHOT => id) or AT(TIMESTAMP => ts))",
			    what);
		floe_error_position(b->err, bind_location(b, ts->location));
		return FLOE_ERR;
	}
	def.scope = NULL;         /* a constant: no column of the query */
	def.where = "time travel";
	if (!(x = bind_expr(&def, ts->args[1])))
		return FLOE_ERR;
	if (tt.mode == 1 || tt.mode == 5) {
		/* a snapshot id, or a branch / tag name */
		bool text = type_is_string(x->type.id) || x->type.id == TYPE_NULL || x->unknown_literal;
		if (!(x = bind_coerce(&def, x, type_make(text ? TYPE_TEXT : TYPE_INT64), 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, bind_env(b), b->arena, &v, b->err));
		if (!v.is_null)
			tt.text = text ? arena_strndup(b->arena, strview_data(&v.u.s), v.u.s.len) :
				arena_sprintf(b->arena, "%lld", (long long)v.u.i);
	} else {
		SqlType to = type_make(tt.mode == 3 ? TYPE_INT64 : TYPE_TIMESTAMPTZ);
		if (!(x = bind_coerce(&def, x, to, 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, bind_env(b), b->arena, &v, b->err));
		tt.us = tt.mode == 3 ? v.u.i * 1000000 : v.u.i;
	}
	if (v.is_null && b->session->params_describe)
		return source_table(b, ctx, tt.rv, src);   /* $n unknown yet: the columns now */
	if (v.is_null)
		return floe_errorf(b->err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
				   "the version or time of a time-travel read must not be NULL");
	cur_tt = &tt;
	rc = source_table(b, ctx, tt.rv, src);
	cur_tt = NULL;
	return rc;
}

static int
source_item(BindCtx *b, ExecCtx *ctx, Node *item, Source *src)
{
	memset(src, 0, sizeof *src);
	src->est = -1;
	switch (item->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
		return source_table(b, ctx, item->range_var, src);
	case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
		return source_function(b, ctx, item->range_function, src);
	case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: {
		SelectPlan sub;
		PgQuery__RangeSubselect *rs = item->range_subselect;
		BindCtx def = *b;
		def.scope = NULL;   /* LATERAL as the first FROM item: nothing to its left */
		TRY(plan_inline(b, &def, ctx, rs->subquery, src, &sub));
		src->scope.ncols = sub.ncols;
		src->scope.names = sub.names;
		src->scope.types = sub.types;
		src->scope.relname = rs->alias ? rs->alias->aliasname : NULL;
		TRY(apply_alias(b, src, rs->alias));
		return FLOE_OK;
	}
	case PG_QUERY__NODE__NODE_JOIN_EXPR:
		return source_join(b, ctx, item->join_expr, src);
	case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE: {
		PgQuery__RangeTableSample *ts = item->range_table_sample;
		if (ts->n_method == 1 && ts->method[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
		    !strcmp(ts->method[0]->string->sval, "floe$tt"))
			return source_timetravel(b, ctx, ts, src);
		return unsupported(b, "TABLESAMPLE", ts->location);
	}
	case PG_QUERY__NODE__NODE_RANGE_TABLE_FUNC:
		return unsupported(b, "XMLTABLE", item->range_table_func->location);
	default:
		return unsupported(b, "this FROM item", -1);
	}
}

/* Index of the one visible column `name` of s; 42703/42702 as PostgreSQL
 * words them for USING. */
static int
using_col(BindCtx *b, const Scope *s, const char *name, const char *side, int *out)
{
	int i, n = 0;

	for (i = 0; i < s->ncols; i++) {
		if ((s->hidden && s->hidden[i]) || strcmp(s->names[i], name) != 0)
			continue;
		if (n++ == 0)
			*out = i;
	}
	if (n == 0)
		return floe_errorf(b->err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" specified in USING clause does not exist in %s table", name, side);
	if (n > 1)
		return floe_errorf(b->err, ERRCODE_AMBIGUOUS_COLUMN,
				   "common column name \"%s\" appears more than once in %s table", name, side);
	return FLOE_OK;
}

static int
source_join(BindCtx *b, ExecCtx *ctx, PgQuery__JoinExpr *j, Source *src)
{
	Source l, r;
	JoinType jt;
	Scope comb;
	int nl, nr, i, k, nusing = 0, nkeys = 0, nconj, ncond = 0;
	char **using = NULL;
	int *li = NULL, *ri = NULL;
	Expr **cond, **conj;
	Expr **ucol = NULL;
	LogicalOp *jn;
	Scope *saved = b->scope;

	switch (j->jointype) {
	case PG_QUERY__JOIN_TYPE__JOIN_INNER: jt = JOIN_INNER; break;
	case PG_QUERY__JOIN_TYPE__JOIN_LEFT: jt = JOIN_LEFT; break;
	case PG_QUERY__JOIN_TYPE__JOIN_RIGHT: jt = JOIN_RIGHT; break;
	case PG_QUERY__JOIN_TYPE__JOIN_FULL: jt = JOIN_FULL; break;
	default: return unsupported(b, "this join type", -1);
	}
	if (is_lateral(j->rarg)) {
		if (jt != JOIN_INNER && jt != JOIN_LEFT)
			return floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
					   "The combining JOIN type must be INNER or LEFT for a LATERAL reference.");
		if (j->is_natural || j->n_using_clause)
			return unsupported(b, "NATURAL/USING joins with LATERAL", -1);
		TRY(source_item(b, ctx, j->larg, &l));
		TRY(join_lateral(b, ctx, &l, j->rarg, jt, j->quals, src));
		if (j->alias)
			return unsupported(b, "an alias on a LATERAL join", -1);
		return FLOE_OK;
	}
	TRY(source_item(b, ctx, j->larg, &l));
	TRY(source_item(b, ctx, j->rarg, &r));
	TRY(check_dup_rel(b, &l.scope, &r.scope));
	nl = l.scope.ncols;
	nr = r.scope.ncols;
	scope_alloc(b, &comb, nl + nr);
	scope_put(&comb, 0, &l.scope);
	scope_put(&comb, nl, &r.scope);

	/* USING / NATURAL column lists */
	if (j->is_natural) {
		using = ARENA_ARRAY(b->arena, char *, nl + 1);
		for (i = 0; i < nl; i++) {
			bool dup = false;
			if ((l.scope.hidden && l.scope.hidden[i]) || is_lineage_col(l.scope.names[i]))
				continue;
			for (k = 0; k < nusing; k++)
				if (!strcmp(using[k], l.scope.names[i]))
					dup = true;
			for (k = 0; !dup && k < nr; k++)
				if (!(r.scope.hidden && r.scope.hidden[k]) && !is_lineage_col(r.scope.names[k]) &&
				    !strcmp(r.scope.names[k], l.scope.names[i])) {
					using[nusing++] = l.scope.names[i];
					break;
				}
		}
	} else if (j->n_using_clause) {
		using = ARENA_ARRAY(b->arena, char *, j->n_using_clause);
		for (i = 0; i < (int)j->n_using_clause; i++) {
			using[i] = j->using_clause[i]->string->sval;
			for (k = 0; k < i; k++)
				if (!strcmp(using[k], using[i]))
					return floe_errorf(b->err, ERRCODE_DUPLICATE_COLUMN,
							   "column name \"%s\" appears more than once in USING clause",
							   using[i]);
		}
		nusing = (int)j->n_using_clause;
	}
	nconj = nusing;
	conj = NULL;
	if (j->quals) {
		Expr *q;
		b->scope = &comb;
		b->allow_aggs = false;
		b->where = "JOIN conditions";
		q = bind_coerce_bool(b, bind_expr(b, j->quals), "JOIN/ON");
		b->scope = saved;
		if (!q)
			return FLOE_ERR;
		nconj = count_conjuncts(q);
		conj = ARENA_ARRAY(b->arena, Expr *, nconj + 1);
		nconj = 0;
		split_conjuncts(q, conj, &nconj);
	}
	/* the condition's conjuncts over the combined scope: USING's equalities,
	 * then ON's; physical.c splits the hash keys (those of hashable types
	 * with a side over each input: nkeys here too) from the residual */
	cond = ARENA_ARRAY(b->arena, Expr *, nconj + nusing + 1);
	if (nusing) {
		int *sh = ARENA_ARRAY(b->arena, int, nr + 1);
		li = ARENA_ARRAY(b->arena, int, nusing);
		ri = ARENA_ARRAY(b->arena, int, nusing);
		ucol = ARENA_ARRAY(b->arena, Expr *, nusing);
		for (k = 0; k < nr; k++)
			sh[k] = k + nl;
		for (i = 0; i < nusing; i++) {
			Expr *pair[2], *x, *y;
			SqlType t;
			TRY(using_col(b, &l.scope, using[i], "left", &li[i]));
			TRY(using_col(b, &r.scope, using[i], "right", &ri[i]));
			pair[0] = expr_colref(b->arena, li[i], l.scope.types[li[i]]);
			pair[1] = expr_colref(b->arena, ri[i], r.scope.types[ri[i]]);
			TRY(bind_common_type(b, pair, 2, "JOIN/USING", &t));
			if (!(x = bind_coerce(b, pair[0], t, COERCE_IMPLICIT, NULL)) ||
			    !(y = bind_coerce(b, pair[1], t, COERCE_IMPLICIT, NULL)))
				return FLOE_ERR;
			y = remap(b->arena, y, sh);
			if (key_ok(t, t)) {
				/* a hash key: x = y with no casts, both of type t */
				const ScalarFunc *fn;
				SqlType ret, tt[2] = { t, t }, cast_to[2];
				Expr *eq;
				TRY(func_resolve_scalar("=", tt, 2, &fn, &ret, cast_to, b->err));
				eq = expr_new(b->arena, EXPR_FUNC, ret, 2);
				eq->fn = fn;
				eq->args[0] = x;
				eq->args[1] = y;
				cond[ncond++] = eq;
				nkeys++;
			} else if (!(cond[ncond++] = make_eq(b, x, y))) {
				return FLOE_ERR;
			}
			/* the merged column */
			if (jt == JOIN_RIGHT) {
				ucol[i] = y;
			} else if (jt == JOIN_FULL) {
				Expr *c = expr_new(b->arena, EXPR_COALESCE, t, 2);
				c->args[0] = x;
				c->args[1] = y;
				ucol[i] = c;
			} else {
				ucol[i] = x;
			}
		}
	}
	for (i = 0; conj && i < nconj; i++) {
		Expr *c = conj[i];
		if (is_equi(c)) {
			uint64_t m0 = 0, m1 = 0;
			int *side = ARENA_ARRAY(b->arena, int, nl + nr + 1);
			for (k = 0; k < nl + nr; k++)
				side[k] = k < nl ? 0 : 1;
			m0 = item_mask(c->args[0], side);
			m1 = item_mask(c->args[1], side);
			if ((m0 == 1 && m1 == 2) || (m0 == 2 && m1 == 1))
				nkeys++;
		}
		cond[ncond++] = c;
	}
	{
		static const LogicalJoinKind lk[] = { [JOIN_INNER] = LJ_INNER, [JOIN_LEFT] = LJ_LEFT,
						     [JOIN_RIGHT] = LJ_RIGHT, [JOIN_FULL] = LJ_FULL };
		LogicalOp *ln = src_node(b, &l, true), *rn = src_node(b, &r, true);
		if (ln->ncols != nl || rn->ncols != nr)
			return floe_errorf(b->err, ERRCODE_INTERNAL_ERROR,
					   "a JOIN input of another width than its scope");
		jn = lop_new(b->lp, LOP_JOIN, 2, ln, rn);
		lop_pass_columns(b->lp, jn, ln);
		lop_pass_columns(b->lp, jn, rn);
		jn->join = jt == JOIN_INNER && ncond == 0 ? LJ_CROSS : lk[jt];
		TRY(by_id_list(b, b->lp, ncond, cond, jn, &jn->exprs));
		jn->nexprs = ncond;
	}
	src->est = join_est(&l, &r, nkeys);
	if (jt == JOIN_LEFT && src->est >= 0 && src->est < l.est)
		src->est = l.est;
	jn->est_rows = src->est;
	src->lop = jn;
	if (nusing) {
		Expr **ex = ARENA_ARRAY(b->arena, Expr *, nusing + nl + nr + 1);
		Scope out;
		LogicalOp *p = lop_new(b->lp, LOP_PROJECT, 1, jn);
		scope_alloc(b, &out, nusing + nl + nr);
		for (i = 0; i < nusing; i++) {
			ex[i] = ucol[i];
			out.names[i] = using[i];
			out.types[i] = ucol[i]->type;
		}
		for (i = 0; i < nl + nr; i++)
			ex[nusing + i] = expr_colref(b->arena, i, comb.types[i]);
		scope_put(&out, nusing, &comb);
		for (i = 0; i < nusing; i++) {
			out.hidden[nusing + li[i]] = true;
			out.hidden[nusing + nl + ri[i]] = true;
		}
		TRY(by_id_list(b, b->lp, nusing + nl + nr, ex, jn, &p->exprs));
		p->nexprs = nusing + nl + nr;
		for (i = 0; i < p->nexprs; i++)
			lop_add_column(b->lp, p, out.types[i], out.names[i]);
		p->est_rows = src->est;
		src->lop = p;
		src->scope = out;
	} else {
		src->scope = comb;
	}
	if (j->alias) {
		if (j->alias->n_colnames)
			return unsupported(b, "column aliases on a JOIN", -1);
		TRY(apply_alias(b, src, j->alias));
		/* behind an alias the sides' USING columns are gone */
		for (i = 0; i < src->scope.ncols; i++)
			if (src->scope.hidden[i])
				src->scope.relnames[i] = NULL;
	}
	return FLOE_OK;
}

/* ---- the FROM list ---------------------------------------------------- */

typedef struct FromList {
	int n;
	Source *items;
	int *offset;              /* first column of item i in the FROM scope */
	int *col_item;            /* item of each FROM scope column */
} FromList;

/* Plan every FROM item and build the FROM clause's scope in src. */
static int
from_items(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, FromList *fl, Source *src)
{
	int i, k, total = 0;

	memset(src, 0, sizeof *src);
	memset(fl, 0, sizeof *fl);
	src->est = -1;
	if (s->n_from_clause == 0) {
		static Expr **empty_row;
		Expr ***rows = ARENA_ARRAY(b->arena, Expr **, 1);
		rows[0] = empty_row;
		src->op = values_new(ctx, 0, NULL, 1, rows);
		src->est = 1;
		return FLOE_OK;
	}
	fl->n = (int)s->n_from_clause;
	if (fl->n > 64)
		return unsupported(b, "a FROM list of more than 64 items", -1);
	fl->items = ARENA_ARRAY(b->arena, Source, fl->n);
	fl->offset = ARENA_ARRAY(b->arena, int, fl->n + 1);
	for (i = 0, k = 0; i < fl->n; i++) {
		if (is_lateral(s->from_clause[i]) && i > 0) {
			/* the items so far become one, LATERAL-joined with this one */
			Source left;
			TRY(cross_items(b, ctx, fl->items, i - k, &left));
			TRY(join_lateral(b, ctx, &left, s->from_clause[i], JOIN_INNER, NULL,
					 &fl->items[0]));
			k = i;        /* items merged away */
			fl->offset[0] = 0;
			total = fl->items[0].scope.ncols;
			continue;
		}
		TRY(source_item(b, ctx, s->from_clause[i], &fl->items[i - k]));
		for (int p = 0; p < i - k; p++)
			TRY(check_dup_rel(b, &fl->items[p].scope, &fl->items[i - k].scope));
		fl->offset[i - k] = total;
		total += fl->items[i - k].scope.ncols;
	}
	fl->n -= k;
	fl->offset[fl->n] = total;
	if (fl->n == 1) {
		*src = fl->items[0];
		return FLOE_OK;
	}
	scope_alloc(b, &src->scope, total);
	fl->col_item = ARENA_ARRAY(b->arena, int, total + 1);
	for (i = 0; i < fl->n; i++) {
		scope_put(&src->scope, fl->offset[i], &fl->items[i].scope);
		for (k = 0; k < fl->items[i].scope.ncols; k++)
			fl->col_item[fl->offset[i] + k] = i;
	}
	return FLOE_OK;
}

/* ---- OR factoring -------------------------------------------------------
 *
 * A WHERE conjunct (A AND B) OR (A AND C) equals A AND (B OR C) (the
 * distributive law holds in three-valued logic), so A becomes a conjunct
 * of its own: an equality in it can be a join key and a one-item condition
 * a filter below the joins (PostgreSQL's find_duplicate_ors does the same).
 * Then, for each FROM item k that every arm of a remaining many-item OR
 * restricts, the OR over the arms of their item-k conjuncts is implied by
 * the OR (an arm that is true makes its item-k part true) and is added as
 * one more conjunct, which becomes a filter on k below the joins; the OR
 * itself stays and is evaluated above the join (as PostgreSQL's
 * extract_restriction_or_clauses).  An OR with a volatile call is left as
 * it is (factoring or copying it would change how often it runs).
 */

static bool
is_volatile(const Expr *e)
{
	static const char *const names[] = { "random", "clock_timestamp", "timeofday",
					     "gen_random_uuid", "nextval", "setseed", "set_config" };
	size_t k;
	int i;

	if (e->kind == EXPR_FUNC && e->fn)
		for (k = 0; k < sizeof names / sizeof names[0]; k++)
			if (!strcmp(e->fn->name, names[k]))
				return true;
	for (i = 0; i < e->nargs; i++)
		if (is_volatile(e->args[i]))
			return true;
	return false;
}

typedef struct ConjVec {
	Expr **v;
	int n, cap;
} ConjVec;

static void
cv_push(Arena *a, ConjVec *c, Expr *e)
{
	if (c->n == c->cap) {
		int nc = c->cap ? c->cap * 2 : 16;
		c->v = arena_realloc(a, c->v, sizeof(Expr *) * (size_t)c->cap, sizeof(Expr *) * (size_t)nc);
		c->cap = nc;
	}
	c->v[c->n++] = e;
}

static Expr *
or_of(BindCtx *b, Expr **es, int n)
{
	Expr *e;

	if (n == 1)
		return es[0];
	e = expr_new(b->arena, EXPR_OR, type_make(TYPE_BOOL), n);
	memcpy(e->args, es, sizeof(Expr *) * (size_t)n);
	return e;
}

/* A rough cost of evaluating e per row: one per operator, more for text
 * arguments and for comparing two columns (less selective than a
 * comparison with a constant, as a rule). */
static int
expr_cost(const Expr *e)
{
	int i, c = 0, ncol = 0;
	bool text = false;

	if (e->kind == EXPR_COLREF || e->kind == EXPR_CONST)
		return 0;
	for (i = 0; i < e->nargs; i++) {
		c += expr_cost(e->args[i]);
		text |= type_is_string(e->args[i]->type.id);
		ncol += e->args[i]->kind == EXPR_COLREF ||
			(e->args[i]->kind == EXPR_CAST && e->args[i]->args[0]->kind == EXPR_COLREF);
	}
	if (e->kind == EXPR_AND || e->kind == EXPR_OR)
		return c;
	return c + 1 + (text ? 2 : 0) + (ncol > 1 ? 1 : 0);
}

/* Order filter conjuncts cheapest first (stable: equal costs keep the
 * query's order, so a guard such as x <> 0 stays before 1 / x > 1, which
 * costs more), as PostgreSQL's order_qual_clauses: AND evaluates each
 * conjunct only on the rows the ones before it passed. */
static void
order_conjuncts(Expr **c, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		Expr *x = c[i];
		int k = expr_cost(x);
		for (j = i; j > 0 && expr_cost(c[j - 1]) > k; j--)
			c[j] = c[j - 1];
		c[j] = x;
	}
}

/* The fraction of an item's rows a condition over its columns keeps, for
 * join ordering and build sides: 1 / ndv for column = constant when the
 * manifests give the column's distinct count, else System R's defaults
 * (0.1 for equality, 1/3 for a range), as PostgreSQL guesses without
 * statistics. */
/* column < / <= / > / >= constant over an integer or date column with
 * known bounds: the part of [lo, hi] it keeps (values spread evenly);
 * else 1/3. */
static double
range_sel(const Expr *e, const Source *it)
{
	const Expr *c = e->args[0], *k = e->args[1];
	bool less = e->fn->name[0] == '<';
	double lo, hi, v, f;
	Value cv;

	if (c->kind != EXPR_COLREF) {
		c = e->args[1];
		k = e->args[0];
		less = !less;
	}
	if (c->kind != EXPR_COLREF || k->kind != EXPR_CONST || k->value.is_null || !it->lo ||
	    c->col >= it->scope.ncols || it->lo[c->col] > it->hi[c->col] || k->type.id != c->type.id)
		return 1.0 / 3;
	cv = k->value;
	switch (c->type.id) {
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: case TYPE_DATE:
		v = (double)cv.u.i;
		break;
	default:
		return 1.0 / 3;
	}
	lo = it->lo[c->col];
	hi = it->hi[c->col];
	f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
	if (!less)
		f = 1 - f;
	return f < 0.001 ? 0.001 : f > 1 ? 1 : f;
}

static double
conj_sel(const Expr *e, const Source *it)
{
	double s;
	int i;

	switch (e->kind) {
	case EXPR_AND:
		for (s = 1, i = 0; i < e->nargs; i++)
			s *= conj_sel(e->args[i], it);
		return s;
	case EXPR_OR:
		for (s = 0, i = 0; i < e->nargs; i++)
			s += conj_sel(e->args[i], it);
		return s > 1 ? 1 : s;
	case EXPR_NOT:
		return 1 - conj_sel(e->args[0], it);
	case EXPR_IS_NULL:
		return 0.05;
	case EXPR_IS_NOT_NULL:
		return 0.95;
	case EXPR_FUNC:
		break;
	default:
		return 0.5;
	}
	if (!e->fn || e->nargs != 2)
		return 0.5;
	if (!strcmp(e->fn->name, "=")) {
		const Expr *c = e->args[0]->kind == EXPR_COLREF ? e->args[0] : e->args[1];
		const Expr *k = c == e->args[0] ? e->args[1] : e->args[0];
		if (c->kind == EXPR_COLREF && !expr_has_colref(k) && it->ndv && c->col < it->scope.ncols &&
		    it->ndv[c->col] >= 1)
			return 1 / it->ndv[c->col];
		return 0.1;
	}
	if (!strcmp(e->fn->name, "<>"))
		return 0.9;
	if (!strcmp(e->fn->name, "<") || !strcmp(e->fn->name, ">") || !strcmp(e->fn->name, "<=") ||
	    !strcmp(e->fn->name, ">="))
		return range_sel(e, it);
	if (!strcmp(e->fn->name, "~~") || !strcmp(e->fn->name, "~~*"))
		return 0.1;
	return 0.5;
}

/* Equal conjuncts: the same tree, or x = y and y = x. */
static bool
same_conjunct(const Expr *x, const Expr *y)
{
	if (expr_equal(x, y))
		return true;
	return x->kind == EXPR_FUNC && y->kind == EXPR_FUNC && x->nargs == 2 && y->nargs == 2 &&
	       x->fn && x->fn == y->fn && !strcmp(x->fn->name, "=") &&
	       expr_equal(x->args[0], y->args[1]) && expr_equal(x->args[1], y->args[0]);
}

/* Remove element j of v[0..*n), keeping the order. */
static void
drop_at(Expr **v, int *n, int j)
{
	memmove(v + j, v + j + 1, sizeof(Expr *) * (size_t)(*n - j - 1));
	(*n)--;
}

/* The conjunct list conj[0..*nc) with its ORs factored and the implied
 * one-item ORs added (see above); col_item NULL: factoring only. */
static Expr **
factor_ors(BindCtx *b, Expr **conj, int *nc, const int *col_item, int nitems)
{
	ConjVec out = { NULL, 0, 0 };
	int i, j, m, q, k;

	for (i = 0; i < *nc; i++) {
		Expr *o = conj[i], ***arms;
		int na, *alen, ncommon = 0;
		bool gone = false;
		uint64_t om;

		if (o->kind != EXPR_OR || o->nargs < 2 || is_volatile(o)) {
			cv_push(b->arena, &out, o);
			continue;
		}
		na = o->nargs;
		arms = ARENA_ARRAY(b->arena, Expr **, na);
		alen = ARENA_ARRAY(b->arena, int, na);
		for (m = 0; m < na; m++) {
			arms[m] = ARENA_ARRAY(b->arena, Expr *, count_conjuncts(o->args[m]) + 1);
			split_conjuncts(o->args[m], arms[m], &alen[m]);
		}
		/* conjuncts of the first arm found in every other arm */
		for (j = 0; j < alen[0];) {
			Expr *a = arms[0][j];
			int *at = ARENA_ARRAY(b->arena, int, na);
			bool everywhere = true;
			if (bind_check_cancel(b) != FLOE_OK) {
				*nc = 0;        /* the caller's bind_check_cancel fails too */
				return out.v;
			}
			for (m = 1; everywhere && m < na; m++) {
				at[m] = -1;
				for (q = 0; q < alen[m] && at[m] < 0; q++)
					if (same_conjunct(arms[m][q], a))
						at[m] = q;
				everywhere = at[m] >= 0;
			}
			if (!everywhere) {
				j++;
				continue;
			}
			cv_push(b->arena, &out, a);
			ncommon++;
			drop_at(arms[0], &alen[0], j);
			for (m = 1; m < na; m++)
				drop_at(arms[m], &alen[m], at[m]);
		}
		for (m = 0; m < na; m++)
			gone |= alen[m] == 0;
		if (gone)
			continue;       /* A AND (B OR TRUE) = A */
		if (ncommon) {
			Expr **ae = ARENA_ARRAY(b->arena, Expr *, na);
			for (m = 0; m < na; m++)
				ae[m] = and_of(b, arms[m], alen[m]);
			o = or_of(b, ae, na);
		}
		cv_push(b->arena, &out, o);
		if (!col_item)
			continue;
		om = item_mask(o, col_item);
		if (!(om & (om - 1)))
			continue;       /* one item or none: a filter as it is */
		for (k = 0; k < nitems && k < 64; k++) {
			uint64_t bit = (uint64_t)1 << k;
			Expr **darm;
			bool all = true;
			if (!(om & bit))
				continue;
			darm = ARENA_ARRAY(b->arena, Expr *, na);
			for (m = 0; all && m < na; m++) {
				Expr **part = ARENA_ARRAY(b->arena, Expr *, alen[m] + 1);
				int np = 0;
				for (q = 0; q < alen[m]; q++)
					if (item_mask(arms[m][q], col_item) == bit)
						part[np++] = arms[m][q];
				all = np > 0;
				darm[m] = all ? and_of(b, part, np) : NULL;
			}
			if (all)
				cv_push(b->arena, &out, or_of(b, darm, na));
		}
	}
	*nc = out.n;
	return out.v;
}

/* Join the FROM items with the WHERE conjuncts (see the header); src->lop
 * gets the FROM clause's rows in FROM order with WHERE applied, as logical
 * nodes of b->lp: Filters over the items (their estimates the conjuncts'
 * selectivities), Joins left-deep in FROM order (each one's condition the
 * conjuncts it is the first to be able to apply), a Filter of the
 * conjuncts that read no column.  The order in which they join is the
 * join_order pass's (optimize/join_order.c; switched off: FROM order);
 * physical.c splits hash keys from the residual and picks the build side
 * from the nodes' estimates.  (One item and no WHERE: src as it is.) */
static int
from_plan(BindCtx *b, ExecCtx *ctx, FromList *fl, Expr *where, Source *src)
{
	int nconj = count_conjuncts(where), nc = 0, i, k, total;
	Expr **conj;
	uint64_t *mask, joined;
	bool *used;
	Source cur;
	Expr **top;
	int ntop = 0;
	LogicalPlan *lp = b->lp;
	LogicalOp scope_op;   /* not a plan node: its columns are the FROM scope's */

	(void)ctx;
	if (fl->n <= 1) {
		if (where) {
			LogicalOp *in = src_node(b, src, false), *f = lop_new(lp, LOP_FILTER, 1, in);
			conj = ARENA_ARRAY(b->arena, Expr *, nconj + 1);
			split_conjuncts(where, conj, &nc);
			order_conjuncts(conj, nc);
			lop_pass_columns(lp, f, in);
			TRY(by_id_list(b, lp, nc, conj, in, &f->exprs));
			f->nexprs = nc;
			src->lop = f;
		}
		return FLOE_OK;
	}
	total = fl->offset[fl->n];
	/* every item as a node; the FROM scope's positions -> ColumnIds */
	memset(&scope_op, 0, sizeof scope_op);
	scope_op.kind = LOP_JOIN;
	scope_op.ncols = total;
	scope_op.cols = ARENA_ARRAY(b->arena, LogicalColumn, total + 1);
	for (k = 0; k < fl->n; k++) {
		LogicalOp *n = src_node(b, &fl->items[k], true);
		if (n->ncols != fl->items[k].scope.ncols)
			return floe_errorf(b->err, ERRCODE_INTERNAL_ERROR,
					   "a FROM item of another width than its scope");
		if (n->ncols > 0)       /* a zero-column item: (SELECT), VALUES of no columns */
			memcpy(scope_op.cols + fl->offset[k], n->cols, sizeof *n->cols * (size_t)n->ncols);
	}
	conj = ARENA_ARRAY(b->arena, Expr *, nconj + 1);
	split_conjuncts(where, conj, &nc);
	conj = factor_ors(b, conj, &nc, fl->col_item, fl->n);
	TRY(bind_check_cancel(b));
	mask = ARENA_ARRAY(b->arena, uint64_t, nc + 1);
	used = ARENA_ARRAY(b->arena, bool, nc + 1);
	top = ARENA_ARRAY(b->arena, Expr *, nc + 1);
	for (i = 0; i < nc; i++) {
		mask[i] = item_mask(conj[i], fl->col_item);
		if (mask[i] == 0) {
			top[ntop++] = conj[i];
			used[i] = true;
		}
	}
	/* single-item conjuncts become filters on their item */
	for (k = 0; k < fl->n; k++) {
		int *local = ARENA_ARRAY(b->arena, int, total + 1), nf = 0;
		Expr **f = ARENA_ARRAY(b->arena, Expr *, nc + 1);
		for (i = 0; i < total; i++)
			local[i] = i - fl->offset[k];
		for (i = 0; i < nc; i++)
			if (!used[i] && mask[i] == (uint64_t)1 << k) {
				f[nf++] = remap(b->arena, conj[i], local);
				used[i] = true;
			}
		if (nf) {
			LogicalOp *in = fl->items[k].lop, *fo = lop_new(lp, LOP_FILTER, 1, in);
			order_conjuncts(f, nf);
			lop_pass_columns(lp, fo, in);
			TRY(by_id_list(b, lp, nf, f, in, &fo->exprs));
			fo->nexprs = nf;
			fl->items[k].lop = fo;
			if (fl->items[k].est > 0) {
				double e = fl->items[k].est;
				for (i = 0; i < nf; i++)
					e *= conj_sel(f[i], &fl->items[k]);
				fl->items[k].est = e < 1 ? 1 : e;
			}
		}
		fl->items[k].lop->est_rows = fl->items[k].est;
	}
	/* the joins in FROM order (the join_order pass reorders them) */
	cur = fl->items[0];
	joined = 1;
	for (k = 1; k < fl->n; k++) {
		uint64_t bit = (uint64_t)1 << k;
		Source *it = &fl->items[k];
		Expr **jc = ARENA_ARRAY(b->arena, Expr *, nc + 1);
		int njc = 0, nkeys = 0;
		LogicalOp *jn;
		TRY(bind_check_cancel(b));
		for (i = 0; i < nc; i++) {
			uint64_t m0, m1;
			if (used[i] || !(mask[i] & bit) || (mask[i] & ~(joined | bit)))
				continue;
			used[i] = true;
			if (!(jc[njc++] = lexpr_by_id(lp, conj[i], &scope_op, b->err)))
				return FLOE_ERR;
			if (is_equi(conj[i])) {
				m0 = item_mask(conj[i]->args[0], fl->col_item);
				m1 = item_mask(conj[i]->args[1], fl->col_item);
				if ((m0 && !(m0 & ~joined) && m1 == bit) || (m1 && !(m1 & ~joined) && m0 == bit))
					nkeys++;
			}
		}
		jn = lop_new(lp, LOP_JOIN, 2, cur.lop, it->lop);
		lop_pass_columns(lp, jn, cur.lop);
		lop_pass_columns(lp, jn, it->lop);
		jn->join = njc ? LJ_INNER : LJ_CROSS;
		lop_set_exprs(lp, jn, njc, jc);
		cur.lop = jn;
		cur.est = join_est(&cur, it, nkeys);
		cur.lop->est_rows = cur.est;
		joined |= bit;
	}
	if (ntop) {
		LogicalOp *f = lop_new(lp, LOP_FILTER, 1, cur.lop);
		lop_pass_columns(lp, f, cur.lop);
		TRY(by_id_list(b, lp, ntop, top, cur.lop, &f->exprs));
		f->nexprs = ntop;
		f->est_rows = cur.est;
		cur.lop = f;
	}
	src->lop = cur.lop;
	src->op = NULL;
	src->est = cur.est;
	return FLOE_OK;
}

/* ---- VALUES ------------------------------------------------------------ */

static int
plan_values(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out)
{
	int nrows = (int)s->n_values_lists, ncols = -1, r, c;
	Expr ***rows = ARENA_ARRAY(b->arena, Expr **, nrows);
	Expr **col = ARENA_ARRAY(b->arena, Expr *, nrows);

	b->allow_aggs = false;
	b->where = "VALUES";
	for (r = 0; r < nrows; r++) {
		PgQuery__List *l = s->values_lists[r]->list;
		if (ncols < 0)
			ncols = (int)l->n_items;
		else if ((int)l->n_items != ncols) {
			floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "VALUES lists must all be the same length");
			if (sql_location(&s->values_lists[r]->base) >= 0)
				floe_error_position(b->err, bind_location(b, sql_location(&s->values_lists[r]->base)));
			return FLOE_ERR;
		}
		rows[r] = ARENA_ARRAY(b->arena, Expr *, ncols);
		for (c = 0; c < ncols; c++) {
			if (l->items[c]->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
				return unsupported(b, "DEFAULT in VALUES outside INSERT", -1);
			if (!(rows[r][c] = bind_expr(b, l->items[c])))
				return FLOE_ERR;
		}
	}
	out->ncols = ncols;
	out->names = ARENA_ARRAY(b->arena, char *, ncols);
	out->types = ARENA_ARRAY(b->arena, SqlType, ncols);
	for (c = 0; c < ncols; c++) {
		for (r = 0; r < nrows; r++)
			col[r] = rows[r][c];
		TRY(bind_common_type(b, col, nrows, "VALUES", &out->types[c]));
		out->names[c] = arena_sprintf(b->arena, "column%d", c + 1);
		for (r = 0; r < nrows; r++)
			if (!(rows[r][c] = bind_coerce(b, rows[r][c], out->types[c], 0, NULL)))
				return FLOE_ERR;
	}
	out->lop = lop_new(out->lplan, LOP_VALUES, 0);
	out->lop->nrows = nrows;
	out->lop->rows = rows;
	for (c = 0; c < ncols; c++)
		lop_add_column(out->lplan, out->lop, out->types[c], out->names[c]);
	(void)ctx;
	return FLOE_OK;
}

/* ---- aggregation rewrite ---------------------------------------------- */

typedef struct AggRewrite {
	BindCtx *b;
	int nkeys;
	Expr **keys;
	Scope *scope;
	/* grouping() placeholders: gf_sets ? column gf_col + index : 0 */
	bool gf_sets;
	int gf_col;
} AggRewrite;

static Expr *
rewrite_agg(AggRewrite *rw, Expr *e)
{
	int k, i;

	for (k = 0; k < rw->nkeys; k++)
		if (expr_equal(e, rw->keys[k])) {
			Expr *r = expr_colref(rw->b->arena, k, e->type);
			r->location = e->location;
			return r;
		}
	if (e->kind == EXPR_AGGREF) {
		Expr *r = expr_colref(rw->b->arena, rw->nkeys + e->col, e->type);
		return r;
	}
	if (e->kind == EXPR_COLREF && e->col >= GF_BASE) {
		Value z = value_int(TYPE_INT32, 0);
		if (rw->gf_sets)
			return expr_colref(rw->b->arena, rw->gf_col + (e->col - GF_BASE), e->type);
		return expr_const(rw->b->arena, &z);
	}
	if (e->kind == EXPR_COLREF && e->col >= WIN_BASE)
		return e;    /* a window function's result (select.c windows) */
	if (e->kind == EXPR_COLREF && e->col >= EXPR_PARAM_BASE)
		return e;    /* a LATERAL parameter: constant within the query */
	if (e->kind == EXPR_COLREF) {
		const char *rel = scope_relname(rw->scope, e->col);
		floe_errorf(rw->b->err, ERRCODE_GROUPING_ERROR,
			    "column \"%s%s%s\" must appear in the GROUP BY clause or be used in an aggregate function",
			    rel ? rel : "", rel ? "." : "", rw->scope->names[e->col]);
		if (e->location)
			floe_error_position(rw->b->err, e->location);
		return NULL;
	}
	if (e->nargs) {
		Expr *c = arena_memdup(rw->b->arena, e, sizeof *e);
		c->args = ARENA_ARRAY(rw->b->arena, Expr *, e->nargs);
		for (i = 0; i < e->nargs; i++)
			if (!(c->args[i] = rewrite_agg(rw, e->args[i])))
				return NULL;
		return c;
	}
	return e;
}


static bool
is_star(Node *n)
{
	PgQuery__ColumnRef *c;
	if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
		return false;
	c = n->column_ref;
	return c->fields[c->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

static int
limit_value(BindCtx *b, Node *n, const char *what, const char *code, int64_t *out)
{
	Expr *e;
	Value v;

	if (!n)
		return FLOE_OK;
	b->allow_aggs = false;
	b->where = what;
	{
		Scope *saved = b->scope;
		b->scope = NULL;
		e = bind_expr(b, n);
		b->scope = saved;
	}
	if (!e || !(e = bind_coerce(b, e, type_make(TYPE_INT64), 1, NULL)))
		return FLOE_ERR;
	if (expr_has_colref(e))
		return unsupported(b, arena_sprintf(b->arena, "%s referencing a LATERAL outer column", what),
				   -1);
	TRY(expr_eval_const(e, bind_env(b), b->arena, &v, b->err));
	if (v.is_null)
		return FLOE_OK;
	if (v.u.i < 0)
		return floe_errorf(b->err, code, "%s must not be negative", what);
	*out = v.u.i;
	return FLOE_OK;
}

/* ---- EXISTS / IN as semi and anti joins ---------------------------------- */

static void
collect_and(Node *n, Node **out, int *k)
{
	if (n->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
	    n->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
		size_t i;
		for (i = 0; i < n->bool_expr->n_args; i++)
			collect_and(n->bool_expr->args[i], out, k);
		return;
	}
	out[(*k)++] = n;
}

static int
count_and(Node *n)
{
	int k = 0;
	size_t i;

	if (n->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
	    n->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
		for (i = 0; i < n->bool_expr->n_args; i++)
			k += count_and(n->bool_expr->args[i]);
		return k;
	}
	return 1;
}

/* A WHERE conjunct this planner turns into a semi/anti join: EXISTS,
 * NOT EXISTS, x IN (SELECT ...) (= ANY).  Returns the SubLink or NULL. */
static PgQuery__SubLink *
semi_candidate(Node *n, bool *anti)
{
	PgQuery__SubLink *sl;

	*anti = false;
	if (n->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
	    n->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR && n->bool_expr->n_args == 1 &&
	    n->bool_expr->args[0]->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
		*anti = true;
		n = n->bool_expr->args[0];
	}
	if (n->node_case != PG_QUERY__NODE__NODE_SUB_LINK)
		return NULL;
	sl = n->sub_link;
	if (sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return NULL;
	if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK)
		return sl;
	if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK && sl->testexpr &&
	    (sl->testexpr->node_case != PG_QUERY__NODE__NODE_ROW_EXPR || !*anti) &&
	    (sl->n_oper_name == 0 ||
	     !strcmp(sl->oper_name[sl->n_oper_name - 1]->string->sval, "=")))
		return sl;
	return NULL;
}

/* Is sub a plain SELECT ... FROM ... WHERE whose rows are its FROM rows
 * (no aggregation, grouping, limits or set operations)? */
static bool
plain_select(PgQuery__SelectStmt *sub)
{
	size_t i;

	if (sub->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sub->n_values_lists ||
	    sub->n_group_clause || sub->having_clause || sub->limit_count || sub->limit_offset ||
	    sub->n_window_clause || sub->n_distinct_clause || sub->n_locking_clause ||
	    (sub->with_clause && sub->with_clause->recursive))
		return false;
	for (i = 0; i < sub->n_target_list; i++) {
		Node *v = sub->target_list[i]->res_target->val;
		if (v && v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
			PgQuery__FuncCall *f = v->func_call;
			if (bind_is_aggregate_name(f->funcname[f->n_funcname - 1]->string->sval) || f->over)
				return false;
		}
	}
	return true;
}

static bool
refs_range(const Expr *e, int lo, int hi)
{
	int i;

	if (e->kind == EXPR_COLREF)
		return e->col >= lo && e->col < hi;
	for (i = 0; i < e->nargs; i++)
		if (refs_range(e->args[i], lo, hi))
			return true;
	return false;
}

/*
 * A correlation conjunct `outer_expr = inner_expr` (either way round) of a
 * subquery whose inner columns are 0..ni-1 and outer ones ni..ni+no-1: the
 * outer side remapped to the outer query's columns and the inner side, as
 * a hash key pair.  False when c is not such an equality.
 */
static bool
corr_key(Arena *a, Expr *c, int ni, int no, const int *to_outer, Expr **okey, Expr **ikey)
{
	Expr *a0, *a1;
	bool a0o, a0i, a1o, a1i;

	if (!is_equi(c))
		return false;
	a0 = c->args[0];
	a1 = c->args[1];
	a0o = refs_range(a0, ni, ni + no);
	a0i = refs_range(a0, 0, ni);
	a1o = refs_range(a1, ni, ni + no);
	a1i = refs_range(a1, 0, ni);
	if (a0o && !a0i && a1i && !a1o) {
		*okey = remap(a, a0, to_outer);
		*ikey = a1;
		return true;
	}
	if (a1o && !a1i && a0i && !a0o) {
		*okey = remap(a, a1, to_outer);
		*ikey = a0;
		return true;
	}
	return false;
}

/* Semi-join the inner rows of a subquery with the outer rows' keys before
 * building or grouping them?  Yes unless the outer side is known to be
 * larger than the inner one (then few inner rows would go, and
 * materialising the outer rows costs). */
static bool
reduce_inner(double outer_est, const Source *inner)
{
	if (outer_est < 0 || inner->est < 0)
		return true;
	return outer_est <= inner->est;
}

/* The inner rows (of ifl, planned into isrc by from_plan later) semi-joined
 * with the keys of the outer rows in rs: on the one FROM item that all the
 * inner keys ik come from, below its filters and joins (a hash probe per
 * row is cheaper than most filters, and the joins see fewer rows); false
 * when the keys span items (the caller joins after from_plan). */
static bool
reduce_item(BindCtx *b, ExecCtx *ctx, FromList *ifl, Source *isrc, int nkeys, Expr **ik, Expr **ok,
	    RowStore *rs)
{
	uint64_t m = 0;
	Expr **lk;
	int i, k, *local;
	Source *it;

	if (ifl->n <= 1) {
		if (src_lower(b, ctx, isrc) != FLOE_OK)
			return false;
		isrc->op = hash_join_new(ctx, isrc->op, rowstore_scan_new(ctx, rs), JOIN_SEMI, nkeys, ik, ok,
					 NULL, false);
		return true;
	}
	for (i = 0; i < nkeys; i++)
		m |= item_mask(ik[i], ifl->col_item);
	if (!m || (m & (m - 1)))
		return false;
	for (k = 0; !(m & ((uint64_t)1 << k)); k++)
		;
	it = &ifl->items[k];
	local = ARENA_ARRAY(b->arena, int, ifl->offset[ifl->n] + 1);
	for (i = 0; i < ifl->offset[ifl->n]; i++)
		local[i] = i - ifl->offset[k];
	lk = ARENA_ARRAY(b->arena, Expr *, nkeys + 1);
	for (i = 0; i < nkeys; i++)
		lk[i] = remap(b->arena, ik[i], local);
	if (src_lower(b, ctx, it) != FLOE_OK)
		return false;
	it->op = hash_join_new(ctx, it->op, rowstore_scan_new(ctx, rs), JOIN_SEMI, nkeys, lk, ok, NULL, false);
	return true;
}

static int plan_scalar_corr(BindCtx *b, ExecCtx *ctx, Source *os, Node *n, PgQuery__SubLink *sl,
			    bool *handled, Expr **value);
static int chain_filter(BindCtx *b, LogicalPlan *lp, LogicalOp **cur, Expr *cond);
static int chain_project(BindCtx *b, LogicalPlan *lp, LogicalOp **cur, int n, Expr **es, char **names);
static int chain_aggregate(BindCtx *b, LogicalPlan *lp, LogicalOp *ag, const LogicalOp *in, Expr **keys,
			   int nkeys);

/* rc of plan_semi / plan_scalar_corr: a subquery that reads a level this
 * planner cannot pass down (a column two levels up, read by a subquery of
 * the inner WHERE) is left to the expression binder, which plans it per
 * outer row with every enclosing level's columns as parameters
 * (bind_expr.c's bind_subplan); any other error stays. */
static int
corr_fallback(BindCtx *b, int rc, bool *handled)
{
	if (rc == FLOE_OK)
		return FLOE_OK;
	if (strcmp(b->err->sqlstate, ERRCODE_FEATURE_NOT_SUPPORTED) != 0 ||
	    strncmp(b->err->message, "correlated subqueries", 21) != 0)
		return rc;
	floe_error_clear(b->err);
	*handled = false;
	return FLOE_OK;
}
static PgQuery__SubLink *scalar_candidate(Node *n, bool *sub_right);
static void scope_hidden_cols(BindCtx *b, Scope *s, int n, const SqlType *types);

/* The logical node of os joined (kind, null_aware: logical.h) with the
 * rows of node r on the conjuncts conj[n], which read first's columns then
 * second's by position (first/second: os's node and r, in either order);
 * os becomes the Join (its columns are os's: a SEMI/ANTI join passes the
 * left rows on). */
static int
semi_node(BindCtx *b, Source *os, LogicalOp *r, bool outer_first, LogicalJoinKind kind, bool null_aware,
	  int n, Expr **conj)
{
	LogicalOp *l = src_node(b, os, false), *j, both;
	const LogicalOp *first = outer_first ? l : r, *second = outer_first ? r : l;

	memset(&both, 0, sizeof both);
	both.kind = LOP_JOIN;
	both.ncols = first->ncols + second->ncols;
	both.cols = ARENA_ARRAY(b->arena, LogicalColumn, both.ncols + 1);
	memcpy(both.cols, first->cols, sizeof *both.cols * (size_t)first->ncols);
	memcpy(both.cols + first->ncols, second->cols, sizeof *both.cols * (size_t)second->ncols);
	j = lop_new(b->lp, LOP_JOIN, 2, l, r);
	j->join = kind;
	j->null_aware = null_aware;
	lop_pass_columns(b->lp, j, l);
	TRY(by_id_list(b, b->lp, n, conj, &both, &j->exprs));
	j->nexprs = n;
	if (kind == LJ_MARK) {
		/* the mark: a hidden column of os's scope (plan_marks) */
		SqlType bt = type_make(TYPE_BOOL);
		lop_add_column(b->lp, j, bt, "mark");
		j->est_rows = l->est_rows;
		scope_hidden_cols(b, &os->scope, 1, &bt);
	}
	os->lop = j;
	os->op = NULL;
	return FLOE_OK;
}

/*
 * os (rows of the outer scope) semi/anti-joined with the subquery of sl.
 * A plain subquery is joined on its FROM rows: its WHERE conjuncts that
 * compare an outer expression with an inner one are hash keys, other
 * correlated ones are residual, the rest filter the inner side.  Other
 * IN subqueries are planned whole (uncorrelated only) and joined on their
 * one column (NOT IN: a NULL-aware ANTI join).  With a logical plan
 * (b->lp) the join is a SEMI / ANTI Join node over os's and the inner
 * side's nodes, which physical.c lowers to the hash join (the keys are the
 * same equalities: is_equi is physical.c's key rule), so the optimizer
 * passes see through it; without one, the hash join operator.  *handled =
 * false: leave it to the expression binder.
 */
static int
plan_semi(BindCtx *b, ExecCtx *ctx, Source *os, PgQuery__SubLink *sl, bool anti, bool mark, bool *handled)
{
	PgQuery__SelectStmt *sub = sl->subselect->select_stmt;
	Scope *outer = &os->scope;
	int no = outer->ncols, ni, nc = 0, i, nkeys = 0, nres = 0, ninner = 0;
	Expr **conj = NULL, **ok, **ik, **res, **inner;
	Expr *x = NULL, *y = NULL, **xs = NULL, **ys = NULL;
	int nx = 0;               /* (a, b) IN (SELECT ...): the row's nx values */
	Expr *in_cmp = NULL;      /* MARK for IN: the comparison, three-valued */
	Source isrc;
	BindCtx ib;
	int *to_out, *to_outer;
	Node **deferred = NULL;
	int ndef = 0;
	RowStore *rs = NULL;
	bool reduced = false;

	*handled = false;
	if (mark && (!b->lp || anti))
		return FLOE_OK;
	memset(&isrc, 0, sizeof isrc);
	memset(&ib, 0, sizeof ib);
	ib.session = b->session;
	ib.arena = b->arena;
	ib.err = b->err;
	ib.sql = b->sql;
	ib.parent = b;
	ib.exec = ctx;
	ib.lp = b->lp;
	if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK) {
		b->allow_aggs = false;
		b->where = "WHERE";
		if (sl->testexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
			/* a row IN a plain SELECT: one equality per column (NOT IN
			 * and other queries: the expression binder, which refuses) */
			PgQuery__RowExpr *re = sl->testexpr->row_expr;
			if (anti || !plain_select(sub) || re->n_args < 2)
				return FLOE_OK;
			nx = (int)re->n_args;
			xs = ARENA_ARRAY(b->arena, Expr *, nx);
			for (i = 0; i < nx; i++)
				if (!(xs[i] = bind_expr(b, re->args[i])))
					return FLOE_ERR;
		} else {
			if (!(x = bind_expr(b, sl->testexpr)))
				return FLOE_ERR;
			xs = &x;
			nx = 1;
		}
	}
	if (!plain_select(sub) || (x && anti)) {
		/* IN over any query, and NOT IN (NULL-aware, uncorrelated only) */
		SelectPlan p;
		Expr *eq;
		if (!x)
			return FLOE_OK;
		if (plan_query(b, ctx, sl->subselect, &p) != FLOE_OK) {
			/* correlated (or otherwise not plannable on its own): the
			 * expression binder plans it per row, or reports the error */
			floe_error_clear(b->err);
			return FLOE_OK;
		}
		if (p.ncols != 1)
			return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "subquery has too %s columns",
					   p.ncols > 1 ? "many" : "few");
		/* x over the outer columns, y the subquery's one column after them */
		y = expr_colref(b->arena, no, p.types[0]);
		if (!(eq = make_eq(b, x, y)))
			return FLOE_ERR;
		if ((anti || mark) && !key_ok(eq->args[0]->type, eq->args[1]->type))
			return FLOE_OK;
		if (mark) {
			/* x IN (any query) in an expression: its mark */
			TRY(semi_node(b, os, lop_operator(b->lp, p.root, NULL), true, LJ_MARK, true, 1, &eq));
		} else if (b->lp) {
			/* an unhashable IN: physical.c makes the = the residual of
			 * a keyless semi join */
			TRY(semi_node(b, os, lop_operator(b->lp, p.root, NULL), true, anti ? LJ_ANTI : LJ_SEMI,
				      anti, 1, &eq));
		} else if (key_ok(eq->args[0]->type, eq->args[1]->type)) {
			int *m = ARENA_ARRAY(b->arena, int, no + 2);
			m[no] = 0;
			eq->args[1] = remap(b->arena, eq->args[1], m);
			os->op = hash_join_new(ctx, os->op, p.root, anti ? JOIN_NOT_IN : JOIN_SEMI, 1, &eq->args[0],
					       &eq->args[1], NULL, false);
		} else {
			os->op = hash_join_new(ctx, os->op, p.root, JOIN_SEMI, 0, NULL, NULL, eq, false);
		}
		*handled = true;
		return FLOE_OK;
	}
	if (sub->with_clause)
		ib.with = sub->with_clause;
	{
		FromList ifl;
		TRY(from_items(&ib, ctx, sub, &ifl, &isrc));
		ni = isrc.scope.ncols;
		ib.scope = &isrc.scope;
		ib.corr_scope = outer;
		ib.corr_base = ni;
		ib.allow_aggs = false;
		ib.where = "WHERE";
		if (nx) {
			if ((int)sub->n_target_list != nx)
				return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "subquery has too %s columns",
						   (int)sub->n_target_list > nx ? "many" : "few");
			ys = ARENA_ARRAY(b->arena, Expr *, nx);
			for (i = 0; i < nx; i++) {
				PgQuery__ResTarget *rt = sub->target_list[i]->res_target;
				if (is_star(rt->val))
					return FLOE_OK;
				if (!(ys[i] = bind_expr(&ib, rt->val)))
					return FLOE_ERR;
			}
		}
		if (sub->where_clause) {
			/* subqueries of the inner WHERE apply to the inner rows */
			int nn = count_and(sub->where_clause), k2 = 0, j, nbe = 0;
			Node **wn = ARENA_ARRAY(b->arena, Node *, nn + 1);
			Expr **be = ARENA_ARRAY(b->arena, Expr *, nn + 1), *w;
			deferred = ARENA_ARRAY(b->arena, Node *, nn + 1);
			collect_and(sub->where_clause, wn, &k2);
			for (j = 0; j < k2; j++) {
				bool an, sr;
				if (semi_candidate(wn[j], &an) || scalar_candidate(wn[j], &sr)) {
					deferred[ndef++] = wn[j];
					continue;
				}
				if (!(be[nbe++] = bind_coerce_bool(&ib, bind_expr(&ib, wn[j]), "WHERE")))
					return FLOE_ERR;
			}
			w = and_of(b, be, nbe);
			conj = ARENA_ARRAY(b->arena, Expr *, count_conjuncts(w) + nx + 1);
			split_conjuncts(w, conj, &nc);
			/* (outer.k = k AND x) OR (outer.k = k AND y): k a hash key */
			conj = factor_ors(b, conj, &nc, NULL, 0);
			TRY(bind_check_cancel(b));
			{
				Expr **c2 = ARENA_ARRAY(b->arena, Expr *, nc + nx + 1);
				if (nc)
					memcpy(c2, conj, sizeof(Expr *) * (size_t)nc);
				conj = c2;      /* room for x = y below */
			}
		} else {
			conj = ARENA_ARRAY(b->arena, Expr *, nx + 1);
		}
		ok = ARENA_ARRAY(b->arena, Expr *, nc + nx + 1);
		ik = ARENA_ARRAY(b->arena, Expr *, nc + nx + 1);
		res = ARENA_ARRAY(b->arena, Expr *, nc + nx + 1);
		inner = ARENA_ARRAY(b->arena, Expr *, nc + nx + 1);
		to_out = ARENA_ARRAY(b->arena, int, ni + no + 1);
		to_outer = ARENA_ARRAY(b->arena, int, ni + no + 1);
		for (i = 0; i < ni + no; i++) {
			to_out[i] = i < ni ? no + i : i - ni;
			to_outer[i] = i - ni;
		}
		if (nx) {
			/* x = y: x over the outer scope, y over inner (+ outer)
			 * columns (MARK: one comparison, the Join's last conjunct) */
			int *shift = ARENA_ARRAY(b->arena, int, no + 1);
			Expr **eqs = ARENA_ARRAY(b->arena, Expr *, nx + 1);
			for (i = 0; i < no; i++)
				shift[i] = ni + i;
			for (i = 0; i < nx; i++)
				if (!(eqs[i] = make_eq(b, remap(b->arena, xs[i], shift), ys[i])))
					return FLOE_ERR;
			if (mark)
				in_cmp = and_of(b, eqs, nx);
			else
				for (i = 0; i < nx; i++)
					conj[nc++] = eqs[i];
		}
		/* the conjuncts joining the two sides, over inner then outer
		 * positions: the Join node's condition (keys and residual in
		 * conjunct order, as the hash join's) */
		{
			int nj = 0;
			Expr **jc = ARENA_ARRAY(b->arena, Expr *, nc + 1);
			for (i = 0; i < nc; i++) {
				Expr *c = conj[i];
				bool o = refs_range(c, ni, ni + no);
				if (!o) {
					inner[ninner++] = c;
					continue;
				}
				jc[nj++] = c;
				if (corr_key(b->arena, c, ni, no, to_outer, &ok[nkeys], &ik[nkeys])) {
					nkeys++;
					continue;
				}
				res[nres++] = remap(b->arena, c, to_out);
			}
			conj = jc;
			nc = nj;
		}
		if (mark) {
			/* a MARK join needs a hash key (else the per-row subplan):
			 * an equality correlation, or an uncorrelated IN's x = y;
			 * an uncorrelated EXISTS the binder runs once */
			if (!nkeys && !(in_cmp && nc == 0 && is_equi(in_cmp) && refs_range(in_cmp, ni, ni + no)))
				return FLOE_OK;
			if (in_cmp)
				conj[nc++] = in_cmp;
		}
		/* a large inner side: only its rows whose keys some outer row has
		 * (the outer rows materialised once, their keys semi-join the
		 * inner rows), so the hash table is built over few rows */
		if (!mark && nkeys && reduce_inner(os->lop ? os->lop->est_rows : os->op->est_rows, &isrc)) {
			TRY(src_lower(b, ctx, os));
			rs = rowstore_new(ctx, no, outer->types, os->op);
			reduced = reduce_item(b, ctx, &ifl, &isrc, nkeys, ik, ok, rs);
		}
		TRY(from_plan(&ib, ctx, &ifl, and_of(b, inner, ninner), &isrc));
		if (rs && !reduced) {
			TRY(src_lower(&ib, ctx, &isrc));
			isrc.op = hash_join_new(ctx, isrc.op, rowstore_scan_new(ctx, rs), JOIN_SEMI, nkeys, ik, ok,
						NULL, false);
		}
		if (rs)
			os->op = rowstore_scan_new(ctx, rs);
		ib.corr_scope = NULL;
		for (i = 0; i < ndef; i++) {
			bool an, done;
			PgQuery__SubLink *s2 = semi_candidate(deferred[i], &an);
			if (s2) {
				TRY(corr_fallback(&ib, plan_semi(&ib, ctx, &isrc, s2, an, false, &done), &done));
			} else {
				TRY(corr_fallback(&ib, plan_scalar_corr(&ib, ctx, &isrc, deferred[i], NULL, &done, NULL),
						  &done));
			}
			if (!done) {
				Expr *e = bind_coerce_bool(&ib, bind_expr(&ib, deferred[i]), "WHERE");
				if (!e)
					return FLOE_ERR;
				if (isrc.lop)
					TRY(chain_filter(&ib, b->lp, &isrc.lop, e));
				else
					isrc.op = filter_new(ctx, isrc.op, e);
			}
		}
	}
	if (b->lp) {
		TRY(semi_node(b, os, src_node(&ib, &isrc, false), false,
			      mark ? LJ_MARK : anti ? LJ_ANTI : LJ_SEMI, in_cmp != NULL, nc, conj));
	} else {
		TRY(src_lower(&ib, ctx, &isrc));
		os->op = hash_join_new(ctx, os->op, isrc.op, anti ? JOIN_ANTI : JOIN_SEMI, nkeys, ok, ik,
				       and_of(b, res, nres), false);
	}
	*handled = true;
	return FLOE_OK;
}


/* ---- EXISTS / IN inside expressions as MARK joins ------------------------ */

#define MAX_MARKS 16

typedef struct MarkFind {
	PgQuery__SubLink *sl[MAX_MARKS];
	int n;
	bool aggs;                /* an aggregate call was seen (agg_seen) */
} MarkFind;

static int mark_find(const ProtobufCMessage *m, void *arg);

/* Collect into mf the SubLinks of expression m a MARK join can answer:
 * EXISTS and x = ANY (x IN) over a SELECT, not inside another subquery. */
static int
mark_find(const ProtobufCMessage *m, void *arg)
{
	MarkFind *mf = arg;

	if (m->descriptor == &pg_query__sub_link__descriptor) {
		PgQuery__SubLink *sl = (PgQuery__SubLink *)m;
		bool in = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK && sl->testexpr &&
			  (sl->n_oper_name == 0 || !strcmp(sl->oper_name[sl->n_oper_name - 1]->string->sval, "="));
		if ((in || sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) && mf->n < MAX_MARKS &&
		    sl->subselect && sl->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT)
			mf->sl[mf->n++] = sl;
		return 0;         /* its subquery is another level */
	}
	if (m->descriptor == &pg_query__func_call__descriptor) {
		const PgQuery__FuncCall *f = (const PgQuery__FuncCall *)m;
		if (f->n_funcname && !f->over &&
		    bind_is_aggregate_name(f->funcname[f->n_funcname - 1]->string->sval))
			mf->aggs = true;
	}
	return sql_children(m, mark_find, mf);
}

/* Does the select list (or ORDER BY) of s call an aggregate outside its
 * subqueries?  (Then a mark outside the aggregates' arguments is read
 * above the grouping, which a hidden source column cannot be.) */
static bool
agg_seen(PgQuery__SelectStmt *s)
{
	MarkFind mf;

	memset(&mf, 0, sizeof mf);
	for (size_t i = 0; i < s->n_target_list; i++)
		(void)mark_find(&s->target_list[i]->base, &mf);
	for (size_t i = 0; i < s->n_sort_clause; i++)
		(void)mark_find(&s->sort_clause[i]->base, &mf);
	return mf.aggs;
}

/* Would plan_marks look at expression n? */
static bool
mark_candidate(BindCtx *b, Node *n)
{
	MarkFind mf;

	if (!b->lp || optimizer_disabled(session_setting(b->session, "floe.disabled_optimizers"), "mark_join"))
		return false;
	memset(&mf, 0, sizeof mf);
	(void)mark_find(&n->base, &mf);
	return mf.n > 0;
}

/*
 * Before expression n is bound over os's rows: each EXISTS / x IN
 * (SELECT ...) in it (under OR, NOT, CASE, in the select list) that
 * plan_semi can join on a hash key (an equality correlation, or an
 * uncorrelated IN's x = y) becomes a MARK Join of os's node with the
 * subquery's nodes; its mark is a hidden boolean column of os's scope,
 * which bind_sublink returns for that SubLink (b->mark_sl, until the
 * caller's mark_done).  Any other (or a failure planning it) is left to
 * the expression binder: run once when uncorrelated, else per outer row
 * (EXPR_SUBPLAN).  floe.disabled_optimizers = mark_join switches it off.
 */
static int
plan_marks(BindCtx *b, ExecCtx *ctx, Source *os, Node *n)
{
	MarkFind mf;
	bool allow = b->allow_aggs;
	const char *where = b->where;

	b->nmarks = 0;
	if (!mark_candidate(b, n))
		return FLOE_OK;
	memset(&mf, 0, sizeof mf);
	(void)mark_find(&n->base, &mf);
	b->mark_sl = ARENA_ARRAY(b->arena, const PgQuery__SubLink *, mf.n + 1);
	b->mark_col = ARENA_ARRAY(b->arena, int, mf.n + 1);
	for (int i = 0; i < mf.n; i++) {
		bool handled = false;
		int rc = plan_semi(b, ctx, os, mf.sl[i], false, true, &handled);
		b->allow_aggs = allow;
		b->where = where;
		if (rc != FLOE_OK) {
			/* the expression binder plans it (and reports its errors);
			 * a cancel stays one */
			if (!strcmp(b->err->sqlstate, ERRCODE_QUERY_CANCELED))
				return rc;
			floe_error_clear(b->err);
			continue;
		}
		if (!handled)
			continue;
		b->mark_sl[b->nmarks] = mf.sl[i];
		b->mark_col[b->nmarks++] = os->scope.ncols - 1;
		{
			/* EXPLAIN (VERBOSE)'s Optimizer: line names it too */
			LogicalPlan *lp = b->lp;
			bool seen = false;
			for (int k = 0; k < lp->npasses; k++)
				seen |= !strcmp(lp->passes[k], "mark_join");
			if (!seen && lp->npasses < LPLAN_MAX_PASSES)
				lp->passes[lp->npasses++] = "mark_join";
		}
	}
	return FLOE_OK;
}

static void
mark_done(BindCtx *b)
{
	b->nmarks = 0;
}

/*
 * x [NOT] IN (a grouped or set-operation query) where x is over one FROM
 * item: semi/anti-join that item before the joins (TPC-H q18's orders
 * with the keys of its GROUP BY ... HAVING), so the joins see its few
 * rows.  Only when the subquery plans on its own (not correlated: planned
 * with the item's columns as the only outer scope, any failure leaves the
 * conjunct to the usual path after the joins, which reports it).
 */
static int
push_semi(BindCtx *b, ExecCtx *ctx, FromList *fl, Node *n, bool *done)
{
	bool anti, handled = false;
	PgQuery__SubLink *sl = semi_candidate(n, &anti);
	Scope *all = b->scope;
	uint64_t m;
	Expr *x;
	int k, rc;

	*done = false;
	if (!sl || sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK ||
	    plain_select(sl->subselect->select_stmt))
		return FLOE_OK;
	b->allow_aggs = false;
	b->where = "WHERE";
	if (!(x = bind_expr(b, sl->testexpr))) {
		floe_error_clear(b->err);
		return FLOE_OK;
	}
	m = item_mask(x, fl->col_item);
	if (!m || (m & (m - 1)))
		return FLOE_OK;
	for (k = 0; !(m & ((uint64_t)1 << k)); k++)
		;
	b->scope = &fl->items[k].scope;
	rc = plan_semi(b, ctx, &fl->items[k], sl, anti, false, &handled);
	b->scope = all;
	if (rc != FLOE_OK) {
		floe_error_clear(b->err);
		return FLOE_OK;
	}
	if (!handled)
		return FLOE_OK;
	if (fl->items[k].est > 0)
		fl->items[k].est /= 2;
	*done = true;
	return FLOE_OK;
}

/* ---- correlated scalar subqueries in WHERE ------------------------------ */

/* expr op (SELECT agg... FROM ... WHERE inner.k = outer.k ...): returns the
 * SubLink side (*sub_right says which side) or NULL. */
static PgQuery__SubLink *
scalar_candidate(Node *n, bool *sub_right)
{
	PgQuery__AExpr *a;
	Node *side;

	if (n->node_case != PG_QUERY__NODE__NODE_A_EXPR)
		return NULL;
	a = n->a_expr;
	if (a->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || !a->lexpr || !a->rexpr || a->n_name != 1)
		return NULL;
	*sub_right = a->rexpr->node_case == PG_QUERY__NODE__NODE_SUB_LINK;
	side = *sub_right ? a->rexpr : a->lexpr;
	if (side->node_case != PG_QUERY__NODE__NODE_SUB_LINK ||
	    side->sub_link->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK ||
	    side->sub_link->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return NULL;
	return side->sub_link;
}

/* e with every count() aggregate reference c replaced by coalesce(c, 0):
 * the value a group that the LEFT join finds no match for must give (every
 * other aggregate is NULL over no rows, as the join's NULLs are). */
static Expr *
count_zero(BindCtx *b, Expr *e, const AggCall *aggs)
{
	Expr *c;
	int i;

	if (e->kind == EXPR_AGGREF) {
		Value z;
		if (strcmp(aggs[e->col].fn->name, "count"))
			return e;
		z = value_int(e->type.id, 0);
		c = expr_new(b->arena, EXPR_COALESCE, e->type, 2);
		c->args[0] = e;
		c->args[1] = expr_const(b->arena, &z);
		return c;
	}
	if (!e->nargs)
		return e;
	c = arena_memdup(b->arena, e, sizeof *e);
	c->args = ARENA_ARRAY(b->arena, Expr *, e->nargs);
	for (i = 0; i < e->nargs; i++)
		c->args[i] = count_zero(b, e->args[i], aggs);
	return c;
}

/* scope s with n more hidden columns of the given types (a select-list
 * subquery's values, read by position) */
static void
scope_hidden_cols(BindCtx *b, Scope *s, int n, const SqlType *types)
{
	Scope ext;
	int no = s->ncols;

	scope_alloc(b, &ext, no + n);
	scope_put(&ext, 0, s);
	for (int k = 0; k < n; k++) {
		ext.names[no + k] = "?column?";
		ext.types[no + k] = types[k];
		ext.hidden[no + k] = true;
	}
	*s = ext;
}

/*
 * plan_scalar_corr with a logical plan: the subquery as a dependent SINGLE
 * join of os's node with
 *   [Filter <having>] (Aggregate keys [gk] aggs (Filter <correlated conjuncts>
 *                      (inner FROM/WHERE)))
 * (gk: a GROUP BY of correlated inner columns, ngk of them; having only
 * with it)
 * (the correlated conjuncts, corrc[ncorr], are the outer = inner equalities
 * over the inner then the outer columns), which optimize/decorrelate.c
 * turns into a LEFT join with the aggregate grouped on the inner keys (and
 * physical.c runs per outer row when that pass is off).  target: the
 * subquery's value over its aggregates.  WHERE (n): os becomes
 * Project <outer columns> (Filter <expr op value> (Join)); select list:
 * os is the Join, its scope gains the aggregates as hidden columns and
 * *value is the subquery's value over that scope.
 */
static int
scalar_dep(BindCtx *b, BindCtx *ib, ExecCtx *ctx, Source *os, FromList *ifl, Source *isrc, Node *n,
	   bool sub_right, Expr *target, int ngk, Expr **gk, Expr *having, int ncorr, Expr **corrc,
	   Expr *inner_where, bool *handled, Expr **value)
{
	AggRewrite rw = { ib, ngk, gk, &isrc->scope, false, 0 };
	LogicalPlan *lp = b->lp;
	Scope *outer = &os->scope;
	int no = outer->ncols, naggs = ib->naggs, ncj = 0, nout = ngk + naggs;
	LogicalOp *l, *x, *f, *ag, *top, *j, both;
	Expr *val;
	int *shift;
	SqlType *atypes;

	/* the value over the aggregates; ungrouped, count() over no rows is
	 * 0, and its readers read coalesce(c, 0) (plan/logical.h, SINGLE);
	 * grouped, no rows are no group: NULL */
	val = ngk ? target : count_zero(b, target, ib->aggs);
	if (!(val = rewrite_agg(&rw, val)) || (having && !(having = rewrite_agg(&rw, having)))) {
		/* an inner column outside an aggregate: the expression binder
		 * plans it and reports what PostgreSQL reports */
		floe_error_clear(b->err);
		return FLOE_OK;
	}
	TRY(from_plan(ib, ctx, ifl, inner_where, isrc));
	l = src_node(b, os, false);
	x = src_node(ib, isrc, false);
	memset(&both, 0, sizeof both);
	both.kind = LOP_JOIN;
	both.ncols = x->ncols + l->ncols;
	both.cols = ARENA_ARRAY(b->arena, LogicalColumn, both.ncols + 1);
	memcpy(both.cols, x->cols, sizeof *both.cols * (size_t)x->ncols);
	memcpy(both.cols + x->ncols, l->cols, sizeof *both.cols * (size_t)l->ncols);
	f = lop_new(lp, LOP_FILTER, 1, x);
	lop_pass_columns(lp, f, x);
	TRY(by_id_list(b, lp, ncorr, corrc, &both, &f->exprs));
	f->nexprs = ncorr;
	f->est_rows = x->est_rows;
	ag = lop_new(lp, LOP_AGGREGATE, 1, f);
	TRY(chain_aggregate(ib, lp, ag, f, gk, ngk));
	ag->est_rows = 1;
	top = ag;
	if (having) {
		TRY(chain_filter(ib, lp, &top, having));
		top->est_rows = 1;
	}
	j = lop_new(lp, LOP_JOIN, 2, l, top);
	j->join = LJ_SINGLE;
	j->ncols = l->ncols + top->ncols;
	j->cols = ARENA_ARRAY(b->arena, LogicalColumn, j->ncols + 1);
	memcpy(j->cols, l->cols, sizeof *j->cols * (size_t)l->ncols);
	memcpy(j->cols + l->ncols, top->cols, sizeof *j->cols * (size_t)top->ncols);
	/* the outer columns the inner side reads */
	j->corr = ARENA_ARRAY(b->arena, ColumnId, no + 1);
	for (int k = 0; k < l->ncols; k++) {
		bool used = false;
		for (int c = 0; c < ncorr && !used; c++)
			used = refs_range(corrc[c], x->ncols + k, x->ncols + k + 1);
		if (used)
			j->corr[ncj++] = l->cols[k].id;
	}
	j->ncorr = ncj;
	j->est_rows = l->est_rows;
	os->lop = j;
	os->op = NULL;
	shift = ARENA_ARRAY(b->arena, int, nout + 1);
	atypes = ARENA_ARRAY(b->arena, SqlType, nout + 1);
	for (int k = 0; k < nout; k++) {
		shift[k] = no + k;
		atypes[k] = k < ngk ? gk[k]->type : ib->aggs[k - ngk].type;
	}
	val = remap(b->arena, val, shift);
	if (!n) {
		scope_hidden_cols(b, outer, nout, atypes);
		*value = val;
		*handled = true;
		return FLOE_OK;
	}
	{
		/* expr op value over the outer columns + the aggregates */
		PgQuery__AExpr *a = n->a_expr;
		const char *opname = a->name[0]->string->sval;
		Scope ext, *saved = b->scope;
		Expr *other, *cmp, **keep;
		scope_alloc(b, &ext, no);
		scope_put(&ext, 0, outer);
		b->scope = &ext;
		b->allow_aggs = false;
		b->where = "WHERE";
		other = bind_expr(b, sub_right ? a->lexpr : a->rexpr);
		b->scope = saved;
		if (!other)
			return FLOE_ERR;
		cmp = sub_right ? make_op(b, opname, other, val) : make_op(b, opname, val, other);
		if (!cmp || !(cmp = bind_coerce_bool(b, cmp, "WHERE")))
			return FLOE_ERR;
		TRY(chain_filter(b, lp, &os->lop, cmp));
		os->lop->est_rows = l->est_rows;
		keep = ARENA_ARRAY(b->arena, Expr *, no + 1);
		for (int k = 0; k < no; k++)
			keep[k] = expr_colref(b->arena, k, outer->types[k]);
		TRY(chain_project(b, lp, &os->lop, no, keep, outer->names));
		os->lop->est_rows = l->est_rows;
	}
	*handled = true;
	return FLOE_OK;
}

/*
 * Plan one such conjunct (n) over os's rows, or a select-list subquery
 * (sl, n = NULL: os's scope gains hidden columns and *value is the
 * subquery's value over it).  With a logical plan: scalar_dep's dependent
 * SINGLE join (optimize/decorrelate.c makes it the join below).  Without
 * one (over operators): the subquery becomes
 *   SELECT inner keys, value FROM ... WHERE <inner conditions> GROUP BY inner keys
 * LEFT JOINed to os on outer key = inner key (a missing group is the NULL
 * an empty aggregate gives, count() coalesced to 0), then filtered by expr
 * op value and projected back to the outer columns.  Only correlation by
 * equalities, at least one aggregate, none non-NULL over no rows but
 * count; else *handled = false.
 */
static int
plan_scalar_corr(BindCtx *b, ExecCtx *ctx, Source *os, Node *n, PgQuery__SubLink *sl, bool *handled,
		 Expr **value)
{
	bool sub_right = false;
	PgQuery__SelectStmt *sub;
	PgQuery__AExpr *a = n ? n->a_expr : NULL;
	Scope *outer = &os->scope;
	Operator **op = &os->op;
	int no = outer->ncols, ni, nc = 0, i, nkeys = 0, ninner = 0, ncorr = 0, ngk = 0;
	Expr **conj, **ok, **ik, **inner, **corrc, *target, *other, *cmp, **grp = NULL, *having = NULL;
	Source isrc;
	FromList ifl;
	BindCtx ib;
	int *to_outer;
	bool correlated = false, reduced = false;
	RowStore *rs = NULL;

	*handled = false;
	if (n)
		sl = scalar_candidate(n, &sub_right);
	sub = sl->subselect->select_stmt;
	/* GROUP BY (with a logical plan): only on correlated columns, below;
	 * HAVING only with it (over no rows an ungrouped HAVING may pass) */
	if (sub->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sub->n_values_lists ||
	    (sub->n_group_clause && !b->lp) || (sub->having_clause && !sub->n_group_clause) ||
	    sub->limit_count || sub->limit_offset || sub->n_distinct_clause ||
	    sub->n_window_clause || sub->n_target_list != 1 || sub->with_clause || !sub->where_clause)
		return FLOE_OK;
	memset(&ib, 0, sizeof ib);
	ib.session = b->session;
	ib.arena = b->arena;
	ib.err = b->err;
	ib.sql = b->sql;
	ib.parent = b;
	ib.exec = ctx;
	ib.lp = b->lp;
	TRY(from_items(&ib, ctx, sub, &ifl, &isrc));
	ni = isrc.scope.ncols;
	ib.scope = &isrc.scope;
	ib.corr_scope = outer;
	ib.corr_base = ni;
	ib.allow_aggs = false;
	ib.where = "WHERE";
	{
		Expr *w = bind_coerce_bool(&ib, bind_expr(&ib, sub->where_clause), "WHERE");
		if (!w)
			return FLOE_ERR;
		conj = ARENA_ARRAY(b->arena, Expr *, count_conjuncts(w) + 1);
		split_conjuncts(w, conj, &nc);
		conj = factor_ors(b, conj, &nc, NULL, 0);
		TRY(bind_check_cancel(b));
	}
	ok = ARENA_ARRAY(b->arena, Expr *, nc + 1);
	ik = ARENA_ARRAY(b->arena, Expr *, nc + 1);
	inner = ARENA_ARRAY(b->arena, Expr *, nc + 1);
	corrc = ARENA_ARRAY(b->arena, Expr *, nc + 1);
	to_outer = ARENA_ARRAY(b->arena, int, ni + no + 1);
	for (i = 0; i < ni + no; i++)
		to_outer[i] = i - ni;
	for (i = 0; i < nc; i++) {
		Expr *c = conj[i];
		if (!refs_range(c, ni, ni + no)) {
			inner[ninner++] = c;
			continue;
		}
		correlated = true;
		if (corr_key(b->arena, c, ni, no, to_outer, &ok[nkeys], &ik[nkeys])) {
			nkeys++;
			corrc[ncorr++] = c;
			continue;
		}
		return FLOE_OK;         /* a correlation this planner cannot key */
	}
	if (!correlated)
		return FLOE_OK;         /* uncorrelated: the binder runs it once */
	/* the value: aggregates over the inner rows, grouped by the inner keys */
	ib.allow_aggs = true;
	ib.where = "this context";
	ib.corr_scope = NULL;
	if (!(target = bind_expr(&ib, sub->target_list[0]->res_target->val))) {
		floe_error_clear(b->err);
		return FLOE_OK;
	}
	if (sub->n_group_clause) {
		/* GROUP BY correlated inner columns only: one group per outer
		 * row at most (another grouping may give several rows: 21000,
		 * the expression binder's) */
		ngk = (int)sub->n_group_clause;
		grp = ARENA_ARRAY(b->arena, Expr *, ngk + 1);
		ib.allow_aggs = false;
		ib.where = "GROUP BY";
		for (i = 0; i < ngk; i++) {
			bool found = false;
			if (!(grp[i] = bind_expr(&ib, sub->group_clause[i]))) {
				floe_error_clear(b->err);
				return FLOE_OK;
			}
			for (int k = 0; k < nkeys && !found; k++)
				found = expr_equal(grp[i], ik[k]);
			if (!found)
				return FLOE_OK;
		}
		if (sub->having_clause) {
			ib.allow_aggs = true;
			ib.where = "HAVING";
			if (!(having = bind_coerce_bool(&ib, bind_expr(&ib, sub->having_clause), "HAVING"))) {
				floe_error_clear(b->err);
				return FLOE_OK;
			}
		}
	} else if (ib.naggs == 0) {
		return FLOE_OK;
	}
	for (i = 0; i < ib.naggs; i++)
		if (!strcmp(ib.aggs[i].fn->name, "regr_count"))
			return FLOE_OK;
	if (b->lp)
		return scalar_dep(b, &ib, ctx, os, &ifl, &isrc, n, sub_right, target, ngk, grp, having, ncorr,
				  corrc, and_of(b, inner, ninner), handled, value);
	TRY(src_lower(b, ctx, os));
	/* only the groups of keys the outer rows have: the outer rows
	 * materialised once, their keys semi-join the inner rows */
	if (reduce_inner((*op)->est_rows, &isrc)) {
		rs = rowstore_new(ctx, no, outer->types, *op);
		reduced = reduce_item(b, ctx, &ifl, &isrc, nkeys, ik, ok, rs);
	}
	TRY(from_plan(&ib, ctx, &ifl, and_of(b, inner, ninner), &isrc));
	TRY(src_lower(&ib, ctx, &isrc));
	if (rs && !reduced)
		isrc.op = hash_join_new(ctx, isrc.op, rowstore_scan_new(ctx, rs), JOIN_SEMI, nkeys, ik, ok,
					NULL, false);
	{
		AggRewrite rw = { &ib, nkeys, ik, &isrc.scope, false, 0 };
		Operator *g, *left = *op;
		Expr **gk = ARENA_ARRAY(b->arena, Expr *, nkeys + 1);
		Expr **keep = ARENA_ARRAY(b->arena, Expr *, no + 1);
		int *shift = ARENA_ARRAY(b->arena, int, nkeys + ib.naggs + 1);
		Scope ext;

		/* count() over a missing group is 0: coalesce it after the join */
		target = count_zero(b, target, ib.aggs);
		if (!(target = rewrite_agg(&rw, target)))
			return FLOE_ERR;
		if (rs)
			left = rowstore_scan_new(ctx, rs);
		g = hash_agg_new(ctx, isrc.op, nkeys, ik, ib.naggs, ib.aggs, false);
		for (i = 0; i < nkeys; i++)
			gk[i] = expr_colref(b->arena, i, ik[i]->type);
		*op = hash_join_new(ctx, left, g, JOIN_LEFT, nkeys, ok, gk, NULL, false);
		/* the value over the outer columns + (keys, aggregates) */
		for (i = 0; i < nkeys + ib.naggs; i++)
			shift[i] = no + i;
		target = remap(b->arena, target, shift);
		if (!n) {
			/* a select-list value: the outer columns + the value */
			Expr **ex = ARENA_ARRAY(b->arena, Expr *, no + 2);
			for (i = 0; i < no; i++)
				ex[i] = expr_colref(b->arena, i, outer->types[i]);
			ex[no] = target;
			*op = project_new(ctx, *op, no + 1, ex);
			scope_hidden_cols(b, outer, 1, &target->type);
			*value = expr_colref(b->arena, no, target->type);
			*handled = true;
			return FLOE_OK;
		}
		/* expr op value over the outer columns + (keys, value) */
		scope_alloc(b, &ext, no);
		scope_put(&ext, 0, outer);
		{
			Scope *saved = b->scope;
			b->scope = &ext;
			b->allow_aggs = false;
			b->where = "WHERE";
			other = bind_expr(b, sub_right ? a->lexpr : a->rexpr);
			b->scope = saved;
			if (!other)
				return FLOE_ERR;
		}
		{
			Expr *v = target;
			const char *opname = a->name[0]->string->sval;
			cmp = sub_right ? make_op(b, opname, other, v) : make_op(b, opname, v, other);
			if (!cmp || !(cmp = bind_coerce_bool(b, cmp, "WHERE")))
				return FLOE_ERR;
		}
		*op = filter_new(ctx, *op, cmp);
		for (i = 0; i < no; i++)
			keep[i] = expr_colref(b->arena, i, outer->types[i]);
		*op = project_new(ctx, *op, no, keep);
	}
	*handled = true;
	return FLOE_OK;
}

/* ---- SELECT ------------------------------------------------------------ */


/* ---- window functions -------------------------------------------------- */

/*
 * Window calls are collected while the select list and ORDER BY are bound
 * (bind_expr's f->over branch calls select_window_call): each becomes a
 * placeholder column reference WIN_BASE + call index, which plan_select
 * maps to the window operator's output column once the input (source or
 * aggregate output) is known.  The collector of the SELECT being planned
 * is thread-local; nested SELECTs save and restore it.
 */

typedef struct WinCollect {
	BindCtx *b;
	PgQuery__SelectStmt *s;    /* for the WINDOW clause */
	bool allowed;              /* binding the select list or ORDER BY */
	bool in_window;            /* binding a window call's arguments */
	int nspecs, ncalls, cap;
	WindowSpec *specs;
	WindowCall *calls;
	/* grouping(args) calls: placeholders GF_BASE + index */
	int ngf, cap_gf;
	Expr ***gf_args;
	int *gf_nargs;
	int *gf_loc;
} WinCollect;

static _Thread_local WinCollect *cur_win;

static PgQuery__WindowDef *
win_lookup(WinCollect *w, const char *name, int location)
{
	size_t i;

	for (i = 0; i < w->s->n_window_clause; i++) {
		PgQuery__WindowDef *d = w->s->window_clause[i]->window_def;
		if (d->name && !strcmp(d->name, name))
			return d;
	}
	floe_errorf(w->b->err, ERRCODE_UNDEFINED_OBJECT, "window \"%s\" does not exist", name);
	floe_error_position(w->b->err, bind_location(w->b, location));
	return NULL;
}

static int
frame_off(BindCtx *b, Node *n, int64_t *out)
{
	Expr *e = bind_expr(b, n);
	Value v;

	if (!e || !(e = bind_coerce(b, e, type_make(TYPE_INT64), COERCE_IMPLICIT, NULL)))
		return FLOE_ERR;
	if (expr_has_colref(e))
		return unsupported(b, "a frame offset that is not a constant", -1);
	TRY(expr_eval_const(e, bind_env(b), b->arena, &v, b->err));
	if (v.is_null) {
		floe_errorf(b->err, ERRCODE_NULL_VALUE_NOT_ALLOWED, "frame starting offset must not be null");
		return FLOE_ERR;
	}
	if (v.u.i < 0) {
		floe_errorf(b->err, ERRCODE_INVALID_PRECEDING_OR_FOLLOWING_SIZE, "frame starting offset must not be negative");
		return FLOE_ERR;
	}
	/* no partition has 2^40 rows: keeps i +/- offset from overflowing */
	*out = v.u.i > ((int64_t)1 << 40) ? (int64_t)1 << 40 : v.u.i;
	return FLOE_OK;
}

/* PostgreSQL's FRAMEOPTION_* bits (nodes/parsenodes.h) */
enum {
	FO_RANGE = 0x2, FO_ROWS = 0x4, FO_GROUPS = 0x8,
	FO_START_UNB_PREC = 0x20, FO_END_UNB_PREC = 0x40, FO_START_UNB_FOLL = 0x80,
	FO_END_UNB_FOLL = 0x100, FO_START_CUR = 0x200, FO_END_CUR = 0x400,
	FO_START_PREC = 0x800, FO_END_PREC = 0x1000, FO_START_FOLL = 0x2000, FO_END_FOLL = 0x4000,
	FO_EXCLUDE = 0x8000 | 0x10000 | 0x20000
};

/* a RANGE offset: a constant of the ORDER BY key's type, not negative */
static int
range_off(BindCtx *b, Node *n, SqlType t, Value *out)
{
	Expr *e = bind_expr(b, n);
	bool neg;

	/* in_range(): integer keys take a bigint offset, floats a double,
	 * date/timestamp(tz) an interval */
	if (t.id == TYPE_DATE || t.id == TYPE_TIMESTAMP || t.id == TYPE_TIMESTAMPTZ) {
		if (e && !e->unknown_literal && e->type.id != TYPE_INTERVAL) {
			char b1[64], b2[64];
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
				    func_type_name(t, b1, sizeof b1), func_type_name(e->type, b2, sizeof b2));
			return FLOE_ERR;
		}
		t = type_make(TYPE_INTERVAL);
	} else if (t.id == TYPE_INT16 || t.id == TYPE_INT32)
		t = type_make(TYPE_INT64);
	else if (t.id == TYPE_FLOAT32)
		t = type_make(TYPE_FLOAT64);
	if (!e || !(e = bind_coerce(b, e, t, COERCE_IMPLICIT, NULL)))
		return FLOE_ERR;
	if (expr_has_colref(e))
		return unsupported(b, "a frame offset that is not a constant", -1);
	TRY(expr_eval_const(e, bind_env(b), b->arena, out, b->err));
	neg = out->is_null ? false : t.id == TYPE_FLOAT32 || t.id == TYPE_FLOAT64 ? out->u.f < 0 :
	      t.id == TYPE_DECIMAL ? out->u.d < 0 :
	      t.id == TYPE_INTERVAL ? ((int128)out->u.iv.months * 30 + out->u.iv.days) *
				      (int128)86400000000LL + out->u.iv.micros < 0 :
	      out->u.i < 0;
	if (out->is_null) {
		floe_errorf(b->err, ERRCODE_NULL_VALUE_NOT_ALLOWED, "frame starting offset must not be null");
		return FLOE_ERR;
	}
	if (neg) {
		floe_errorf(b->err, ERRCODE_INVALID_PRECEDING_OR_FOLLOWING_SIZE, "invalid preceding or following size in window function");
		return FLOE_ERR;
	}
	return FLOE_OK;
}

static int
win_frame(BindCtx *b, PgQuery__WindowDef *d, const WindowSpec *sp, WindowFrame *fr)
{
	int o = d->frame_options;

	memset(fr, 0, sizeof *fr);
	fr->start = WB_UNBOUNDED_PRECEDING;
	fr->end = WB_CURRENT;
	if (!(o & 1))
		return FLOE_OK;  /* default: RANGE UNBOUNDED PRECEDING .. CURRENT ROW */
	if ((o & FO_GROUPS) && sp->norder == 0) {
		floe_errorf(b->err, ERRCODE_WINDOWING_ERROR, "GROUPS mode requires an ORDER BY clause");
		floe_error_position(b->err, bind_location(b, d->location));
		return FLOE_ERR;
	}
	fr->groups = (o & FO_GROUPS) != 0;
	fr->exclude = o & 0x8000 ? 1 : o & 0x10000 ? 2 : o & 0x20000 ? 3 : 0;
	fr->rows = (o & FO_ROWS) != 0;
	if (!fr->rows && !fr->groups && (o & (FO_START_PREC | FO_END_PREC | FO_START_FOLL | FO_END_FOLL))) {
		TypeId t;
		if (sp->norder != 1) {
			floe_errorf(b->err, ERRCODE_WINDOWING_ERROR,
				    "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column");
			floe_error_position(b->err, bind_location(b, d->location));
			return FLOE_ERR;
		}
		t = sp->order[0]->type.id;
		if (t != TYPE_INT16 && t != TYPE_INT32 && t != TYPE_INT64 && t != TYPE_FLOAT32 &&
		    t != TYPE_FLOAT64 && t != TYPE_DECIMAL && t != TYPE_DATE && t != TYPE_TIMESTAMP &&
		    t != TYPE_TIMESTAMPTZ)
			return unsupported(b, "RANGE with offset PRECEDING/FOLLOWING on this type",
					   d->location);
		fr->range_off = true;
		if (o & (FO_START_PREC | FO_START_FOLL))
			TRY(range_off(b, d->start_offset, sp->order[0]->type, &fr->start_val));
		if (o & (FO_END_PREC | FO_END_FOLL))
			TRY(range_off(b, d->end_offset, sp->order[0]->type, &fr->end_val));
	}
	fr->start = o & FO_START_UNB_PREC ? WB_UNBOUNDED_PRECEDING : o & FO_START_CUR ? WB_CURRENT :
		    o & FO_START_PREC ? WB_PRECEDING : o & FO_START_FOLL ? WB_FOLLOWING :
		    WB_UNBOUNDED_FOLLOWING;
	fr->end = o & FO_END_UNB_FOLL ? WB_UNBOUNDED_FOLLOWING : o & FO_END_CUR ? WB_CURRENT :
		  o & FO_END_PREC ? WB_PRECEDING : o & FO_END_FOLL ? WB_FOLLOWING :
		  WB_UNBOUNDED_PRECEDING;
	if ((fr->rows || fr->groups) && (o & (FO_START_PREC | FO_START_FOLL)))
		TRY(frame_off(b, d->start_offset, &fr->start_off));
	if ((fr->rows || fr->groups) && (o & (FO_END_PREC | FO_END_FOLL)))
		TRY(frame_off(b, d->end_offset, &fr->end_off));
	return FLOE_OK;
}

static int
win_spec(WinCollect *w, PgQuery__WindowDef *part_def, PgQuery__WindowDef *order_def, int *out)
{
	BindCtx *b = w->b;
	WindowSpec sp;
	int i, k;

	memset(&sp, 0, sizeof sp);
	sp.npart = (int)part_def->n_partition_clause;
	sp.norder = (int)order_def->n_order_clause;
	sp.part = ARENA_ARRAY(b->arena, Expr *, sp.npart + 1);
	sp.order = ARENA_ARRAY(b->arena, Expr *, sp.norder + 1);
	sp.dirs = ARENA_ARRAY(b->arena, SortKey, sp.norder + 1);
	for (i = 0; i < sp.npart; i++) {
		if (!(sp.part[i] = bind_expr(b, part_def->partition_clause[i])))
			return FLOE_ERR;
		if (sp.part[i]->unknown_literal &&
		    !(sp.part[i] = bind_coerce(b, sp.part[i], type_make(TYPE_TEXT), 0, NULL)))
			return FLOE_ERR;
		TRY(select_check_sortable(b, sp.part[i]->type, false,
					  sql_location(&part_def->partition_clause[i]->base)));
	}
	for (i = 0; i < sp.norder; i++) {
		PgQuery__SortBy *sb = order_def->order_clause[i]->sort_by;
		if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
			return unsupported(b, "ORDER BY ... USING", -1);
		if (!(sp.order[i] = bind_expr(b, sb->node)))
			return FLOE_ERR;
		if (sp.order[i]->unknown_literal &&
		    !(sp.order[i] = bind_coerce(b, sp.order[i], type_make(TYPE_TEXT), 0, NULL)))
			return FLOE_ERR;
		TRY(select_check_sortable(b, sp.order[i]->type, true, sql_location(&sb->node->base)));
		sp.dirs[i].desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST)
			sp.dirs[i].nulls_first = true;
		else if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST)
			sp.dirs[i].nulls_first = false;
		else
			sp.dirs[i].nulls_first = sp.dirs[i].desc;
	}
	/* one sort per distinct spec */
	for (k = 0; k < w->nspecs; k++) {
		WindowSpec *o = &w->specs[k];
		bool same = o->npart == sp.npart && o->norder == sp.norder;
		for (i = 0; same && i < sp.npart; i++)
			same = expr_equal(o->part[i], sp.part[i]);
		for (i = 0; same && i < sp.norder; i++)
			same = expr_equal(o->order[i], sp.order[i]) &&
			       o->dirs[i].desc == sp.dirs[i].desc &&
			       o->dirs[i].nulls_first == sp.dirs[i].nulls_first;
		if (same) {
			*out = k;
			return FLOE_OK;
		}
	}
	w->specs = arena_realloc(b->arena, w->specs, sizeof(WindowSpec) * (size_t)w->nspecs,
				 sizeof(WindowSpec) * (size_t)(w->nspecs + 1));
	w->specs[w->nspecs] = sp;
	*out = w->nspecs++;
	return FLOE_OK;
}

static const struct { const char *name; WinKind kind; int minargs, maxargs; } win_funcs[] = {
	{ "row_number", WIN_ROW_NUMBER, 0, 0 }, { "rank", WIN_RANK, 0, 0 },
	{ "dense_rank", WIN_DENSE_RANK, 0, 0 }, { "percent_rank", WIN_PERCENT_RANK, 0, 0 },
	{ "cume_dist", WIN_CUME_DIST, 0, 0 }, { "ntile", WIN_NTILE, 1, 1 },
	{ "lag", WIN_LAG, 1, 3 }, { "lead", WIN_LEAD, 1, 3 },
	{ "first_value", WIN_FIRST_VALUE, 1, 1 }, { "last_value", WIN_LAST_VALUE, 1, 1 },
	{ "nth_value", WIN_NTH_VALUE, 2, 2 },
};

static Expr *
win_fail(BindCtx *b, int location)
{
	if (location >= 0 && b->err->position == 0)
		floe_error_position(b->err, bind_location(b, location));
	return NULL;
}

/* the call's function, arguments and result type */
static int
win_bind_call(WinCollect *w, PgQuery__FuncCall *f, WindowCall *call)
{
	BindCtx *b = w->b;
	const char *name = f->funcname[f->n_funcname - 1]->string->sval;
	Expr *args[3] = { NULL, NULL, NULL };
	size_t i, nw = sizeof win_funcs / sizeof win_funcs[0];
	int n = (int)f->n_args;

	if (f->agg_distinct)
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "DISTINCT is not implemented for window functions"), win_fail(b, f->location), FLOE_ERR;
	if (f->n_agg_order || f->agg_within_group)
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "aggregate ORDER BY is not implemented for window functions"),
		       win_fail(b, f->location), FLOE_ERR;
	if (n > 3)
		return unsupported(b, "window functions with more than three arguments", f->location), FLOE_ERR;
	for (i = 0; i < (size_t)n; i++) {
		if (f->args[i]->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
			return unsupported(b, "named arguments", f->location), FLOE_ERR;
		if (!(args[i] = bind_expr(b, f->args[i])))
			return FLOE_ERR;
	}
	for (i = 0; i < nw; i++)
		if (!strcmp(win_funcs[i].name, name))
			break;
	if (i < nw && !f->agg_star) {
		if (f->agg_filter)
			return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "FILTER is not implemented for non-aggregate window functions"),
			       win_fail(b, f->location), FLOE_ERR;
		if (n < win_funcs[i].minargs || n > win_funcs[i].maxargs) {
			floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s(%s) does not exist",
				    name, n ? "..." : "");
			return win_fail(b, f->location), FLOE_ERR;
		}
		call->kind = win_funcs[i].kind;
		switch (call->kind) {
		case WIN_ROW_NUMBER: case WIN_RANK: case WIN_DENSE_RANK:
			call->type = type_make(TYPE_INT64);
			break;
		case WIN_PERCENT_RANK: case WIN_CUME_DIST:
			call->type = type_make(TYPE_FLOAT64);
			break;
		case WIN_NTILE:
			call->type = type_make(TYPE_INT32);
			if (!(call->arg = bind_coerce(b, args[0], call->type, COERCE_IMPLICIT, NULL)))
				return FLOE_ERR;
			break;
		case WIN_NTH_VALUE:
			if (!(call->arg2 = bind_coerce(b, args[1], type_make(TYPE_INT32), COERCE_IMPLICIT, NULL)))
				return FLOE_ERR;
			/* fallthrough */
		case WIN_FIRST_VALUE: case WIN_LAST_VALUE:
			call->arg = args[0];
			if (call->arg->unknown_literal &&
			    !(call->arg = bind_coerce(b, call->arg, type_make(TYPE_TEXT), 0, NULL)))
				return FLOE_ERR;
			call->type = call->arg->type;
			break;
		default: { /* lag, lead */
			SqlType t;
			if (n >= 2 && !(call->arg2 = bind_coerce(b, args[1], type_make(TYPE_INT32),
								 COERCE_IMPLICIT, NULL)))
				return FLOE_ERR;
			if (n == 3) {
				Expr *pair[2] = { args[0], args[2] };
				if (bind_common_type(b, pair, 2, "lag", &t) != FLOE_OK)
					return FLOE_ERR;
				if (!(call->arg3 = bind_coerce(b, args[2], t, COERCE_IMPLICIT, NULL)))
					return FLOE_ERR;
			} else {
				t = args[0]->unknown_literal || args[0]->type.id == TYPE_NULL ?
				    type_make(TYPE_TEXT) : args[0]->type;
			}
			if (!(call->arg = bind_coerce(b, args[0], t, COERCE_IMPLICIT, NULL)))
				return FLOE_ERR;
			call->type = t;
			break;
		}
		}
		return FLOE_OK;
	}
	if (bind_is_aggregate_name(name)) {
		SqlType types[3], cast_to[3];
		if (n > 2)
			return unsupported(b, "window aggregates with more than two arguments", f->location), FLOE_ERR;
		for (i = 0; i < (size_t)n; i++)
			types[i] = args[i]->unknown_literal ? type_make(TYPE_NULL) : args[i]->type;
		if (func_resolve_agg(name, types, n, f->agg_star, &call->agg, &call->type, cast_to,
				     b->err) != FLOE_OK)
			return win_fail(b, f->location), FLOE_ERR;
		if (n && !(call->arg = bind_coerce(b, args[0], cast_to[0], COERCE_EXPLICIT, NULL)))
			return FLOE_ERR;
		if (n == 2 && !(call->arg2 = bind_coerce(b, args[1], cast_to[1], COERCE_EXPLICIT, NULL)))
			return FLOE_ERR;
		if (f->agg_filter) {
			/* agg(x) FILTER (WHERE p) OVER ...: agg(CASE WHEN p THEN x END),
			 * the same for aggregates that skip NULL inputs (count(*):
			 * count(CASE WHEN p THEN 1 END)) */
			Expr *p = bind_coerce_bool(b, bind_expr(b, f->agg_filter), "FILTER"), *c;
			Value one;
			if (!p)
				return FLOE_ERR;
			if (!strcmp(name, "array_agg"))
				return unsupported(b, "FILTER in window array_agg", f->location), FLOE_ERR;
			if (!n) {
				SqlType it = type_make(TYPE_INT32), ct;
				one = value_int(TYPE_INT32, 1);
				call->arg = expr_const(b->arena, &one);
				if (func_resolve_agg("count", &it, 1, false, &call->agg, &call->type, &ct,
						     b->err) != FLOE_OK)
					return win_fail(b, f->location), FLOE_ERR;
			}
			c = expr_new(b->arena, EXPR_CASE, call->arg->type, 2);
			c->args[0] = p;
			c->args[1] = call->arg;
			call->arg = c;
		}
		call->kind = WIN_AGG;
		return FLOE_OK;
	}
	floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE,
		    "OVER specified, but %s is not a window function nor an aggregate function", name);
	return win_fail(b, f->location), FLOE_ERR;
}

static bool
same_arg(const Expr *x, const Expr *y)
{
	return (!x && !y) || (x && y && expr_equal(x, y));
}

static bool
same_call(const WindowCall *x, const WindowCall *y)
{
	const WindowFrame *a = &x->frame, *c = &y->frame;

	if (x->kind != y->kind || x->spec != y->spec || x->agg != y->agg ||
	    !same_arg(x->arg, y->arg) || !same_arg(x->arg2, y->arg2) || !same_arg(x->arg3, y->arg3) ||
	    a->rows != c->rows || a->start != c->start || a->end != c->end ||
	    a->start_off != c->start_off || a->end_off != c->end_off || a->range_off != c->range_off ||
	    a->groups != c->groups || a->exclude != c->exclude)
		return false;
	/* RANGE offsets: distinct calls unless both offsets are absent */
	return !a->range_off;
}

Expr *
select_window_call(BindCtx *b, PgQuery__FuncCall *f)
{
	WinCollect *w = cur_win;
	PgQuery__WindowDef *d = f->over, *base = NULL, *pdef, *odef, *fdef;
	WindowCall call;
	Expr *ref;
	int spec, k;

	if (b->in_agg) {
		floe_errorf(b->err, ERRCODE_GROUPING_ERROR,
			    "aggregate function calls cannot contain window function calls");
		return win_fail(b, f->location);
	}
	if (w && w->b == b && w->in_window) {
		floe_errorf(b->err, ERRCODE_WINDOWING_ERROR, "window function calls cannot be nested");
		return win_fail(b, f->location);
	}
	if (!w || w->b != b || !w->allowed) {
		floe_errorf(b->err, ERRCODE_WINDOWING_ERROR, "window functions are not allowed in %s",
			    b->where && strcmp(b->where, "this context") ? b->where : "this context");
		return win_fail(b, f->location);
	}
	if (f->n_funcname == 2 && strcmp(f->funcname[0]->string->sval, "pg_catalog") != 0) {
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s.%s does not exist",
			    f->funcname[0]->string->sval, f->funcname[1]->string->sval);
		return win_fail(b, f->location);
	}
	/* OVER w, or OVER (w ...) */
	if (d->name && d->name[0] && !d->n_partition_clause && !d->n_order_clause &&
	    !(d->frame_options & 1)) {
		if (!(d = win_lookup(w, d->name, f->location)))
			return NULL;
	} else if (d->refname && d->refname[0]) {
		if (!(base = win_lookup(w, d->refname, d->location)))
			return NULL;
		if (d->n_partition_clause) {
			floe_errorf(b->err, ERRCODE_WINDOWING_ERROR,
				    "cannot override PARTITION BY clause of window \"%s\"", d->refname);
			return win_fail(b, d->location);
		}
		if (d->n_order_clause && base->n_order_clause) {
			floe_errorf(b->err, ERRCODE_WINDOWING_ERROR,
				    "cannot override ORDER BY clause of window \"%s\"", d->refname);
			return win_fail(b, d->location);
		}
		if (base->frame_options & 1) {
			floe_errorf(b->err, ERRCODE_WINDOWING_ERROR,
				    "cannot copy window \"%s\" because it has a frame clause", d->refname);
			return win_fail(b, d->location);
		}
	}
	pdef = base ? base : d;
	odef = base && !d->n_order_clause ? base : d;
	fdef = d;
	memset(&call, 0, sizeof call);
	w->in_window = true;
	if (win_spec(w, pdef, odef, &spec) != FLOE_OK ||
	    win_frame(b, fdef, &w->specs[spec], &call.frame) != FLOE_OK ||
	    win_bind_call(w, f, &call) != FLOE_OK) {
		w->in_window = false;
		return NULL;
	}
	w->in_window = false;
	call.spec = spec;
	/* the same call twice (select list and ORDER BY): one result column */
	for (k = 0; k < w->ncalls; k++)
		if (same_call(&w->calls[k], &call)) {
			ref = expr_colref(b->arena, WIN_BASE + k, call.type);
			ref->location = bind_location(b, f->location);
			return ref;
		}
	w->calls = arena_realloc(b->arena, w->calls, sizeof(WindowCall) * (size_t)w->ncalls,
				 sizeof(WindowCall) * (size_t)(w->ncalls + 1));
	w->calls[w->ncalls] = call;
	ref = expr_colref(b->arena, WIN_BASE + w->ncalls++, call.type);
	ref->location = bind_location(b, f->location);
	return ref;
}

static bool
has_winref(const Expr *e)
{
	int i;

	if (e->kind == EXPR_COLREF && e->col >= WIN_BASE && e->col < GF_BASE)
		return true;
	for (i = 0; i < e->nargs; i++)
		if (has_winref(e->args[i]))
			return true;
	return false;
}

/* window placeholders -> output columns base + call index */
static Expr *
win_remap(Arena *a, Expr *e, int base)
{
	Expr *c;
	int i;

	if (!has_winref(e))
		return e;
	c = arena_memdup(a, e, sizeof *e);
	if (e->kind == EXPR_COLREF) {
		c->col = base + (e->col - WIN_BASE);
		return c;
	}
	c->args = ARENA_ARRAY(a, Expr *, e->nargs);
	for (i = 0; i < e->nargs; i++)
		c->args[i] = win_remap(a, e->args[i], base);
	return c;
}

/* ---- GROUPING SETS, ROLLUP, CUBE, grouping() ----------------------------- */

/*
 * GROUP BY items expand to a list of grouping sets over the distinct key
 * expressions (PostgreSQL's expand_grouping_sets): a plain expression is
 * the one set {e}; (a, b) the set {a, b}; ROLLUP(e1..en) the n+1 prefixes;
 * CUBE(e1..en) all 2^n subsets; GROUPING SETS(...) the concatenation of
 * its items' sets; the items of the clause combine as a cartesian product.
 * When there is more than one set, the input is materialised once and
 * aggregated per set; each set's rows carry NULL for the keys it lacks and
 * the value of every grouping() call (bit i set when argument i is not
 * grouped in that set), and the sets' rows are appended.
 */
typedef struct GSet {
	int n;
	int *k;
} GSet;

typedef struct GSets {
	int n, cap;
	GSet *s;
} GSets;

typedef struct GroupCtx {
	BindCtx *b;
	Expr **targets;
	char **names;
	int nvisible;
	Scope *scope;
	Expr **keys;
	int *key_tgt;              /* [nkeys]: the select-list entry a key is, or -1 */
	int nkeys, cap_keys;
	bool any_sets;
} GroupCtx;

#define MAX_GROUPING_SETS 4096

static void
gs_add(Arena *a, GSets *g, int n, const int *k)
{
	if (g->n == g->cap) {
		int nc = g->cap ? g->cap * 2 : 4;
		g->s = arena_realloc(a, g->s, sizeof(GSet) * (size_t)g->cap, sizeof(GSet) * (size_t)nc);
		g->cap = nc;
	}
	g->s[g->n].n = n;
	g->s[g->n].k = ARENA_ARRAY(a, int, n + 1);
	if (n)
		memcpy(g->s[g->n].k, k, sizeof(int) * (size_t)n);
	g->n++;
}

/* One GROUP BY expression -> index of its key (new or equal to one). */
static int
group_key(GroupCtx *g, Node *n, int *out)
{
	BindCtx *b = g->b;
	Expr *e = NULL;
	int k, tgt = -1;

	if (n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
	    n->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
		int pos = n->a_const->ival->ival;
		if (pos < 1 || pos > g->nvisible) {
			floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
				    "GROUP BY position %d is not in select list", pos);
			floe_error_position(b->err, bind_location(b, n->a_const->location));
			return FLOE_ERR;
		}
		e = g->targets[pos - 1];
		tgt = pos - 1;
	} else {
		/* a bare name that is an output alias but not a source column */
		if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && n->column_ref->n_fields == 1 &&
		    n->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
			const char *nm = n->column_ref->fields[0]->string->sval;
			bool in_src = false;
			for (k = 0; k < g->scope->ncols; k++)
				if (!strcmp(g->scope->names[k], nm))
					in_src = true;
			for (k = 0; !in_src && k < g->nvisible; k++)
				if (!strcmp(g->names[k], nm))
					e = g->targets[k];
		}
		if (!e && !(e = bind_expr(b, n)))
			return FLOE_ERR;
	}
	if (e->kind == EXPR_AGGREF)
		return floe_errorf(b->err, ERRCODE_GROUPING_ERROR,
				   "aggregate functions are not allowed in GROUP BY");
	TRY(select_check_sortable(b, e->type, false, sql_location(&n->base)));
	if (e->unknown_literal && !(e = bind_coerce(b, e, type_make(TYPE_TEXT), 0, NULL)))
		return FLOE_ERR;
	if (has_winref(e)) {
		floe_errorf(b->err, ERRCODE_WINDOWING_ERROR, "window functions are not allowed in GROUP BY");
		if (e->location)
			floe_error_position(b->err, e->location);
		return FLOE_ERR;
	}
	/* PostgreSQL keys grouping columns by select-list entry: an item
	 * names the first entry equal to it, and two entries with equal
	 * expressions (GROUP BY ROLLUP(1, 2) over "a, a") are two keys */
	for (k = 0; tgt < 0 && k < g->nvisible; k++)
		if (expr_equal(g->targets[k], e))
			tgt = k;
	for (k = 0; k < g->nkeys; k++)
		if (expr_equal(g->keys[k], e) && (tgt < 0 || g->key_tgt[k] < 0 || g->key_tgt[k] == tgt)) {
			*out = k;
			return FLOE_OK;
		}
	if (g->nkeys == g->cap_keys) {
		g->keys = arena_realloc(b->arena, g->keys, sizeof(Expr *) * (size_t)g->cap_keys,
					sizeof(Expr *) * (size_t)g->cap_keys * 2);
		g->key_tgt = arena_realloc(b->arena, g->key_tgt, sizeof(int) * (size_t)g->cap_keys,
					   sizeof(int) * (size_t)g->cap_keys * 2);
		g->cap_keys *= 2;
	}
	g->keys[g->nkeys] = e;
	g->key_tgt[g->nkeys] = tgt;
	*out = g->nkeys++;
	return FLOE_OK;
}

/* A "simple set" item: an expression, or a parenthesised list of them. */
static int
group_simple(GroupCtx *g, Node *n, int **k, int *nk)
{
	Arena *a = g->b->arena;

	if (n->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
	    n->row_expr->row_format != PG_QUERY__COERCION_FORM__COERCE_EXPLICIT_CALL) {
		size_t i;
		*k = ARENA_ARRAY(a, int, n->row_expr->n_args + 1);
		*nk = (int)n->row_expr->n_args;
		for (i = 0; i < n->row_expr->n_args; i++)
			TRY(group_key(g, n->row_expr->args[i], &(*k)[i]));
		return FLOE_OK;
	}
	*k = ARENA_ARRAY(a, int, 1);
	*nk = 1;
	return group_key(g, n, &(*k)[0]);
}

static int
group_item(GroupCtx *g, Node *n, GSets *out)
{
	BindCtx *b = g->b;
	Arena *a = b->arena;
	PgQuery__GroupingSet *gs;
	size_t i;

	if (n->node_case != PG_QUERY__NODE__NODE_GROUPING_SET) {
		int *k, nk;
		TRY(group_simple(g, n, &k, &nk));
		gs_add(a, out, nk, k);
		return FLOE_OK;
	}
	gs = n->grouping_set;
	g->any_sets = true;
	switch (gs->kind) {
	case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY:
		gs_add(a, out, 0, NULL);
		return FLOE_OK;
	case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SIMPLE: {
		int *all = ARENA_ARRAY(a, int, 1), nall = 0;
		for (i = 0; i < gs->n_content; i++) {
			int *k, nk;
			TRY(group_simple(g, gs->content[i], &k, &nk));
			all = arena_realloc(a, all, sizeof(int) * (size_t)(nall ? nall : 1),
					    sizeof(int) * (size_t)(nall + nk + 1));
			memcpy(all + nall, k, sizeof(int) * (size_t)nk);
			nall += nk;
		}
		gs_add(a, out, nall, all);
		return FLOE_OK;
	}
	case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_ROLLUP:
	case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE: {
		int ne = (int)gs->n_content, e, total = 0;
		int **ek = ARENA_ARRAY(a, int *, ne + 1), *enk = ARENA_ARRAY(a, int, ne + 1);
		int *buf;
		bool cube = gs->kind == PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE;
		if (cube && ne > 12) {
			floe_errorf(b->err, ERRCODE_TOO_MANY_COLUMNS, "CUBE is limited to 12 elements");
			floe_error_position(b->err, bind_location(b, gs->location));
			return FLOE_ERR;
		}
		for (e = 0; e < ne; e++) {
			TRY(group_simple(g, gs->content[e], &ek[e], &enk[e]));
			total += enk[e];
		}
		buf = ARENA_ARRAY(a, int, total + 1);
		if (!cube) {
			for (e = ne; e >= 0; e--) {
				int m = 0, j;
				for (j = 0; j < e; j++) {
					memcpy(buf + m, ek[j], sizeof(int) * (size_t)enk[j]);
					m += enk[j];
				}
				gs_add(a, out, m, buf);
			}
		} else {
			int mask;
			for (mask = (1 << ne) - 1; mask >= 0; mask--) {
				int m = 0, j;
				for (j = 0; j < ne; j++)
					if (mask & (1 << (ne - 1 - j))) {
						memcpy(buf + m, ek[j], sizeof(int) * (size_t)enk[j]);
						m += enk[j];
					}
				gs_add(a, out, m, buf);
			}
		}
		return FLOE_OK;
	}
	case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS:
		for (i = 0; i < gs->n_content; i++) {
			TRY(group_item(g, gs->content[i], out));
			if (out->n > MAX_GROUPING_SETS)
				return floe_errorf(b->err, ERRCODE_STATEMENT_TOO_COMPLEX,
						   "too many grouping sets present (maximum 4096)");
		}
		return FLOE_OK;
	default:
		return unsupported(b, "this grouping set", gs->location);
	}
}

static int
int_cmp(const void *x, const void *y)
{
	int a = *(const int *)x, c = *(const int *)y;
	return a < c ? -1 : a > c;
}

/* Sort a set's keys and drop repeats (GROUP BY a, ROLLUP(a) groups by a once). */
static void
gs_normalise(GSet *s)
{
	int i, m = 0;

	qsort(s->k, (size_t)s->n, sizeof(int), int_cmp);
	for (i = 0; i < s->n; i++)
		if (!m || s->k[m - 1] != s->k[i])
			s->k[m++] = s->k[i];
	s->n = m;
}

static int
group_sets(GroupCtx *g, PgQuery__SelectStmt *s, GSets *out)
{
	BindCtx *b = g->b;
	Arena *a = b->arena;
	GSets acc = { 0, 0, NULL };
	size_t i;
	int x, y;

	gs_add(a, &acc, 0, NULL);
	for (i = 0; i < s->n_group_clause; i++) {
		GSets item = { 0, 0, NULL }, prod = { 0, 0, NULL };
		TRY(group_item(g, s->group_clause[i], &item));
		if ((int64_t)acc.n * item.n > MAX_GROUPING_SETS)
			return floe_errorf(b->err, ERRCODE_STATEMENT_TOO_COMPLEX,
					   "too many grouping sets present (maximum 4096)");
		for (x = 0; x < acc.n; x++)
			for (y = 0; y < item.n; y++) {
				int *k = ARENA_ARRAY(a, int, acc.s[x].n + item.s[y].n + 1);
				memcpy(k, acc.s[x].k, sizeof(int) * (size_t)acc.s[x].n);
				memcpy(k + acc.s[x].n, item.s[y].k, sizeof(int) * (size_t)item.s[y].n);
				gs_add(a, &prod, acc.s[x].n + item.s[y].n, k);
			}
		acc = prod;
	}
	for (x = 0; x < acc.n; x++)
		gs_normalise(&acc.s[x]);
	if (s->group_distinct) {
		int m = 0;
		for (x = 0; x < acc.n; x++) {
			bool dup = false;
			for (y = 0; y < m && !dup; y++)
				dup = acc.s[y].n == acc.s[x].n &&
				      !memcmp(acc.s[y].k, acc.s[x].k, sizeof(int) * (size_t)acc.s[x].n);
			if (!dup)
				acc.s[m++] = acc.s[x];
		}
		acc.n = m;
	}
	*out = acc;
	return FLOE_OK;
}

/* grouping(args) while binding (bind_expr.c): a placeholder GF_BASE + i. */
Expr *
select_grouping_func(BindCtx *b, PgQuery__GroupingFunc *f)
{
	WinCollect *w = cur_win;
	Expr **args, *ref;
	size_t i;

	if (!w || !b->allow_aggs || b->in_agg) {
		floe_errorf(b->err, ERRCODE_GROUPING_ERROR, "%s",
			    b->in_agg ? "aggregate function calls cannot contain grouping operations" :
			    arena_sprintf(b->arena, "grouping operations are not allowed in %s",
					  b->where ? b->where : "this context"));
		floe_error_position(b->err, bind_location(b, f->location));
		return NULL;
	}
	if (f->n_args > 31) {
		floe_errorf(b->err, ERRCODE_TOO_MANY_ARGUMENTS, "GROUPING must have fewer than 32 arguments");
		floe_error_position(b->err, bind_location(b, f->location));
		return NULL;
	}
	args = ARENA_ARRAY(b->arena, Expr *, f->n_args + 1);
	for (i = 0; i < f->n_args; i++)
		if (!(args[i] = bind_expr(b, f->args[i])))
			return NULL;
	if (w->ngf == w->cap_gf) {
		int nc = w->cap_gf ? w->cap_gf * 2 : 4;
		w->gf_args = arena_realloc(b->arena, w->gf_args, sizeof(Expr **) * (size_t)w->cap_gf,
					   sizeof(Expr **) * (size_t)nc);
		w->gf_nargs = arena_realloc(b->arena, w->gf_nargs, sizeof(int) * (size_t)w->cap_gf,
					    sizeof(int) * (size_t)nc);
		w->gf_loc = arena_realloc(b->arena, w->gf_loc, sizeof(int) * (size_t)w->cap_gf,
					  sizeof(int) * (size_t)nc);
		w->cap_gf = nc;
	}
	w->gf_args[w->ngf] = args;
	w->gf_nargs[w->ngf] = (int)f->n_args;
	w->gf_loc[w->ngf] = bind_location(b, f->location);
	ref = expr_colref(b->arena, GF_BASE + w->ngf++, type_make(TYPE_INT32));
	ref->location = bind_location(b, f->location);
	return ref;
}

/* Every grouping() argument must be a GROUP BY expression (42803). */
static int
check_grouping_args(BindCtx *b, WinCollect *w, Expr **keys, int nkeys)
{
	int i, j, k;

	for (i = 0; i < w->ngf; i++)
		for (j = 0; j < w->gf_nargs[i]; j++) {
			for (k = 0; k < nkeys; k++)
				if (expr_equal(keys[k], w->gf_args[i][j]))
					break;
			if (k == nkeys) {
				Expr *a = w->gf_args[i][j];
				floe_errorf(b->err, ERRCODE_GROUPING_ERROR,
					    "arguments to GROUPING must be grouping expressions of the associated query level");
				floe_error_position(b->err, a->location ? a->location : w->gf_loc[i]);
				return FLOE_ERR;
			}
		}
	return FLOE_OK;
}

/* What srf_targets changed in the parse tree, put back after planning (the
 * tree may be freed by its own allocator, which must not see arena nodes). */
#define SRF_MAX 16
typedef struct SrfUndo {
	int nfound;
	Node *found[SRF_MAX], saved[SRF_MAX];
	PgQuery__ResTarget *named[SRF_MAX];   /* targets given the function's name */
	char *names[SRF_MAX];                 /* their names before */
	int nnamed;
	Node **from;
	size_t nfrom;
	bool wrapped;                         /* srf_wrap rebuilt the statement: */
	PgQuery__SelectStmt stmt;             /* the statement before */
} SrfUndo;

static int srf_targets(BindCtx *b, PgQuery__SelectStmt *s, SrfUndo *undo);
static int plan_select_body(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out,
			    WinCollect *win);

static int
plan_select(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out)
{
	WinCollect wc, *prev = cur_win;
	int rc;

	SrfUndo undo;
	int k;

	TRY(stack_check(b->err));
	memset(&undo, 0, sizeof undo);

	memset(&wc, 0, sizeof wc);
	wc.b = b;
	wc.s = s;
	cur_win = &wc;
	rc = srf_targets(b, s, &undo);
	if (rc == FLOE_OK)
		rc = plan_select_body(b, ctx, s, out, &wc);
	b->scope = NULL;   /* it pointed into plan_select_body's frame */
	if (undo.nfound) {
		for (k = 0; k < undo.nfound; k++)
			*undo.found[k] = undo.saved[k];
		for (k = 0; k < undo.nnamed; k++)
			undo.named[k]->name = undo.names[k];
		s->from_clause = undo.from;
		s->n_from_clause = undo.nfrom;
	}
	if (undo.wrapped)
		*s = undo.stmt;
	cur_win = prev;
	return rc;
}

/* ---- set-returning functions in the SELECT list ----------------------------
 * SELECT ..., f(args), ..., g(args) ... FROM items  with SRF calls
 * (unnest, regexp_matches, generate_series, generate_subscripts) anywhere
 * in the targets is planned as
 *   SELECT ..., __floe_srf.s1, ..., __floe_srf.s2 ... FROM items,
 *          LATERAL ROWS FROM (f(args), g(args)) __floe_srf(s1, s2)
 * (one function: LATERAL f(args) __floe_srf(f)): the functions run in
 * lockstep, the shorter padded with NULLs, one output row per row of the
 * longest, none when every one returns none (PostgreSQL 10+'s ProjectSet).
 * A target that is just the call keeps the function's name.  As
 * PostgreSQL: an SRF inside CASE, COALESCE or an aggregate / window
 * call's arguments is 0A000 with its message; an SRF nested in another
 * SRF's arguments is 0A000 here (PostgreSQL runs it).  With GROUP BY,
 * aggregates, HAVING or windows the grouped part moves into a derived
 * table first (srf_wrap). */
typedef struct SrfFind {
	Node *found[SRF_MAX];     /* the SRF calls' Nodes, in target order */
	int count;
	bool agg;                 /* an aggregate or window call in the targets */
	bool nested;              /* an SRF inside another SRF's arguments */
	const char *inside;       /* CASE / COALESCE / aggregate / window: PG's error */
	BindCtx *b;
} SrfFind;

static bool
srf_name(const char *n)
{
	return !strcmp(n, "unnest") || !strcmp(n, "regexp_matches") ||
	       !strcmp(n, "generate_series") || !strcmp(n, "generate_subscripts") ||
	       !strcmp(n, "_pg_expandarray") || !strcmp(n, "regexp_split_to_table") ||
	       !strcmp(n, "string_to_table") ||
	       (json_srf(n) && !strstr(n, "_each"));   /* _each's record: not in a select list */
}

static int srf_find(const ProtobufCMessage *m, void *arg);

/* (information_schema._pg_expandarray(a)).x or .n (pgjdbc's getIndexInfo):
 * the field's name, else NULL */
static const char *
srf_expand_field(const Node *n)
{
	const PgQuery__AIndirection *ind = n->a_indirection;
	const PgQuery__FuncCall *f;
	const char *fld;
	if (!ind->arg || ind->arg->node_case != PG_QUERY__NODE__NODE_FUNC_CALL ||
	    ind->n_indirection != 1 || ind->indirection[0]->node_case != PG_QUERY__NODE__NODE_STRING)
		return NULL;
	f = ind->arg->func_call;
	if (strcmp(f->funcname[f->n_funcname - 1]->string->sval, "_pg_expandarray") || f->n_args != 1)
		return NULL;
	fld = ind->indirection[0]->string->sval;
	return !strcmp(fld, "x") || !strcmp(fld, "n") ? fld : NULL;
}

/* walk m's children with sf->inside = what (PostgreSQL's context) */
static int
srf_find_in(const ProtobufCMessage *m, SrfFind *sf, const char *what)
{
	const char *prev = sf->inside;
	int rc;
	sf->inside = what;
	rc = sql_children(m, srf_find, sf);
	sf->inside = prev;
	return rc;
}

static int
srf_find(const ProtobufCMessage *m, void *arg)
{
	SrfFind *sf = arg;

	if (m->descriptor == &pg_query__select_stmt__descriptor)
		return 0;                         /* a subquery has its own targets */
	if (m->descriptor == &pg_query__node__descriptor) {
		Node *n = (Node *)m;
		if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
			return 0;
		if (n->node_case == PG_QUERY__NODE__NODE_A_INDIRECTION && srf_expand_field(n)) {
			/* (information_schema._pg_expandarray(a)).x / .n: an SRF
			 * of one column (srf_targets) */
			SrfFind in = *sf;
			if (sf->inside || sf->count == SRF_MAX) {
				sf->nested = true;
				return 0;
			}
			sf->found[sf->count++] = n;
			in.count = 0;
			in.inside = NULL;
			if (sql_children(&n->a_indirection->arg->func_call->base, srf_find, &in))
				return 1;
			if (in.count)
				sf->nested = true;
			sf->agg |= in.agg;    /* unnest(array_agg(x)): after the grouping */
			return 0;
		}
		if (n->node_case == PG_QUERY__NODE__NODE_CASE_EXPR)
			return srf_find_in(m, sf, "CASE");
		if (n->node_case == PG_QUERY__NODE__NODE_COALESCE_EXPR)
			return srf_find_in(m, sf, "COALESCE");
		if (n->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
			PgQuery__FuncCall *f = n->func_call;
			const char *nm = f->funcname[f->n_funcname - 1]->string->sval;
			if (f->over || bind_is_aggregate_name(nm)) {
				sf->agg = true;
				return srf_find_in(m, sf, f->over ? "window" : "aggregate");
			}
			if (srf_name(nm)) {
				SrfFind in = *sf;
				if (sf->inside) {
					BindCtx *b = sf->b;
					if (!strcmp(sf->inside, "aggregate") || !strcmp(sf->inside, "window"))
						floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
							    "%s function calls cannot contain set-returning function calls",
							    sf->inside);
					else
						floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
							    "set-returning functions are not allowed in %s", sf->inside);
					floe_error_position(b->err, bind_location(b, f->location));
					floe_error_hint(b->err, "You might be able to move the set-returning function into a LATERAL FROM item.");
					return 1;
				}
				if (sf->count == SRF_MAX) {
					sf->nested = true;    /* reported as unsupported */
					return 0;
				}
				sf->found[sf->count++] = n;
				/* its arguments are the LATERAL call's: any SRF there is nested */
				in.count = 0;
				in.inside = NULL;
				if (sql_children(m, srf_find, &in))
					return 1;
				if (in.count)
					sf->nested = true;
				sf->agg |= in.agg;    /* unnest(array_agg(x)): after the grouping */
				return 0;
			}
		}
	}
	return sql_children(m, srf_find, sf);
}

static Node *
srf_node(BindCtx *b, PgQuery__Node__NodeCase c)
{
	Node *n = ARENA_NEW(b->arena, Node);
	pg_query__node__init(n);
	n->node_case = c;
	return n;
}

/* rel.col as a ColumnRef */
static Node *
srf_colref(BindCtx *b, const char *rel, const char *col, int location)
{
	Node *n = srf_node(b, PG_QUERY__NODE__NODE_COLUMN_REF);
	int i;
	n->column_ref = ARENA_NEW(b->arena, PgQuery__ColumnRef);
	pg_query__column_ref__init(n->column_ref);
	n->column_ref->n_fields = 2;
	n->column_ref->fields = ARENA_ARRAY(b->arena, Node *, 2);
	n->column_ref->location = location;
	for (i = 0; i < 2; i++) {
		Node *f = srf_node(b, PG_QUERY__NODE__NODE_STRING);
		f->string = ARENA_NEW(b->arena, PgQuery__String);
		pg_query__string__init(f->string);
		f->string->sval = (char *)(i ? col : rel);
		n->column_ref->fields[i] = f;
	}
	return n;
}

static Node *
srf_restarget(BindCtx *b, const char *name, Node *val)
{
	Node *n = srf_node(b, PG_QUERY__NODE__NODE_RES_TARGET);
	n->res_target = ARENA_NEW(b->arena, PgQuery__ResTarget);
	pg_query__res_target__init(n->res_target);
	n->res_target->name = (char *)name;
	n->res_target->val = val;
	n->res_target->location = -1;
	return n;
}

/* SRFs with GROUP BY, aggregates, HAVING, windows or DISTINCT: PostgreSQL
 * runs them after the grouping (ProjectSet above Agg), DISTINCT, ORDER BY
 * and LIMIT after them.  The statement becomes
 *   SELECT <targets> FROM (SELECT <grouped part> ...) __floe_g
 *   [DISTINCT ... ORDER BY ... LIMIT ...]
 * where a target that is an SRF call takes its arguments from the derived
 * table's columns __floe_a<i>_<j>, and any other target is the derived
 * table's __floe_t<i> under its own name.  A target with an SRF inside a
 * larger expression stays 0A000.  The statement is put back by plan_select
 * (undo->stmt). */
static int
srf_wrap(BindCtx *b, PgQuery__SelectStmt *s, SrfUndo *undo)
{
	PgQuery__SelectStmt *in = ARENA_NEW(b->arena, PgQuery__SelectStmt);
	PgQuery__RangeSubselect *rs;
	Node **itl, **otl, *rsn;
	size_t i, j, nin = 0;

	for (i = 0; i < s->n_target_list; i++) {
		PgQuery__ResTarget *rt = s->target_list[i]->res_target;
		SrfFind one;
		memset(&one, 0, sizeof one);
		one.b = b;
		if (srf_find(&s->target_list[i]->base, &one))
			return FLOE_ERR;
		if (one.count && (one.count > 1 || one.found[0] != rt->val))
			return unsupported(b, "a set-returning function inside an expression with GROUP BY, aggregates, DISTINCT or windows",
					   rt->location);
		nin += one.count ? (rt->val->node_case == PG_QUERY__NODE__NODE_FUNC_CALL ?
				    rt->val->func_call->n_args : 1) : 1;
	}
	itl = ARENA_ARRAY(b->arena, Node *, nin + 1);
	otl = ARENA_ARRAY(b->arena, Node *, s->n_target_list + 1);
	nin = 0;
	for (i = 0; i < s->n_target_list; i++) {
		PgQuery__ResTarget *rt = s->target_list[i]->res_target;
		Node *v = rt->val, *call;
		PgQuery__FuncCall *f, *fc;
		bool field = v->node_case == PG_QUERY__NODE__NODE_A_INDIRECTION;
		SrfFind one;
		memset(&one, 0, sizeof one);
		one.b = b;
		(void)srf_find(&s->target_list[i]->base, &one);
		if (!one.count) {
			const char *nm = arena_sprintf(b->arena, "__floe_t%zu", i + 1);
			itl[nin++] = srf_restarget(b, nm, v);
			otl[i] = srf_restarget(b, rt->name && rt->name[0] ? rt->name : bind_colname(v),
					       srf_colref(b, "__floe_g", nm, rt->location));
			continue;
		}
		f = field ? v->a_indirection->arg->func_call : v->func_call;
		fc = ARENA_NEW(b->arena, PgQuery__FuncCall);
		*fc = *f;
		fc->args = ARENA_ARRAY(b->arena, Node *, f->n_args + 1);
		for (j = 0; j < f->n_args; j++) {
			const char *nm = arena_sprintf(b->arena, "__floe_a%zu_%zu", i + 1, j + 1);
			itl[nin++] = srf_restarget(b, nm, f->args[j]);
			fc->args[j] = srf_colref(b, "__floe_g", nm, f->location);
		}
		call = srf_node(b, PG_QUERY__NODE__NODE_FUNC_CALL);
		call->func_call = fc;
		if (field) {
			Node *ind = srf_node(b, PG_QUERY__NODE__NODE_A_INDIRECTION);
			ind->a_indirection = ARENA_NEW(b->arena, PgQuery__AIndirection);
			*ind->a_indirection = *v->a_indirection;
			ind->a_indirection->arg = call;
			call = ind;
		}
		otl[i] = srf_restarget(b, rt->name, call);
	}
	*in = *s;
	in->n_target_list = nin;
	in->target_list = itl;
	in->n_distinct_clause = 0;
	in->distinct_clause = NULL;
	in->n_sort_clause = 0;
	in->sort_clause = NULL;
	in->limit_count = in->limit_offset = NULL;
	in->limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
	in->with_clause = NULL;
	in->into_clause = NULL;
	in->n_locking_clause = 0;
	in->locking_clause = NULL;
	rs = ARENA_NEW(b->arena, PgQuery__RangeSubselect);
	pg_query__range_subselect__init(rs);
	rs->subquery = srf_node(b, PG_QUERY__NODE__NODE_SELECT_STMT);
	rs->subquery->select_stmt = in;
	rs->alias = ARENA_NEW(b->arena, PgQuery__Alias);
	pg_query__alias__init(rs->alias);
	rs->alias->aliasname = "__floe_g";
	rsn = srf_node(b, PG_QUERY__NODE__NODE_RANGE_SUBSELECT);
	rsn->range_subselect = rs;
	undo->wrapped = true;
	undo->stmt = *s;
	s->n_target_list = s->n_target_list;
	s->target_list = otl;
	s->n_from_clause = 1;
	s->from_clause = ARENA_ARRAY(b->arena, Node *, 1);
	s->from_clause[0] = rsn;
	s->where_clause = NULL;
	s->n_group_clause = 0;
	s->group_clause = NULL;
	s->group_distinct = false;
	s->having_clause = NULL;
	s->n_window_clause = 0;
	s->window_clause = NULL;
	return FLOE_OK;
}

static int
srf_targets(BindCtx *b, PgQuery__SelectStmt *s, SrfUndo *undo)
{
	SrfFind sf;
	Node *rfn, **from;
	PgQuery__RangeFunction *rf;
	size_t i;
	int k, n;

	memset(&sf, 0, sizeof sf);
	sf.b = b;
	for (i = 0; i < s->n_target_list; i++)
		if (srf_find(&s->target_list[i]->base, &sf))
			return FLOE_ERR;
	if (!sf.count)
		return FLOE_OK;
	n = sf.count;
	for (i = 0; i < s->n_target_list; i++) {
		PgQuery__ResTarget *rt = s->target_list[i]->res_target;
		if (rt->val && rt->val->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
		    rt->val->column_ref->n_fields == 1 &&
		    rt->val->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_A_STAR)
			return unsupported(b, "SELECT * with a set-returning function in the SELECT list (name the columns)",
					   sf.found[0]->func_call->location);
	}
	if (sf.nested)
		return unsupported(b, "a set-returning function in the arguments of another one in the SELECT list",
				   sf.found[0]->func_call->location);
	if (sf.agg || s->n_group_clause || s->having_clause || s->n_window_clause) {
		/* (DISTINCT alone applies to the rows the SRFs make: as is) */
		if (undo->wrapped)
			return unsupported(b, "set-returning functions in the SELECT list with GROUP BY, aggregates, DISTINCT or windows",
					   -1);
		TRY(srf_wrap(b, s, undo));
		return srf_targets(b, s, undo);
	}
	/* FROM ..., LATERAL ROWS FROM (f(args), ...) AS __floe_srf(<names>) */
	rf = ARENA_NEW(b->arena, PgQuery__RangeFunction);
	pg_query__range_function__init(rf);
	rf->lateral = true;
	rf->is_rowsfrom = n > 1;
	rf->n_functions = (size_t)n;
	rf->functions = ARENA_ARRAY(b->arena, Node *, n);
	rf->alias = ARENA_NEW(b->arena, PgQuery__Alias);
	pg_query__alias__init(rf->alias);
	rf->alias->aliasname = "__floe_srf";
	rf->alias->n_colnames = (size_t)n;
	rf->alias->colnames = ARENA_ARRAY(b->arena, Node *, n);
	for (k = 0; k < n; k++) {
		bool field = sf.found[k]->node_case == PG_QUERY__NODE__NODE_A_INDIRECTION;
		PgQuery__FuncCall *f = field ? sf.found[k]->a_indirection->arg->func_call :
				       sf.found[k]->func_call;
		const char *nm = field ? srf_expand_field(sf.found[k]) :
				 f->funcname[f->n_funcname - 1]->string->sval;
		const char *col = n == 1 ? nm : arena_sprintf(b->arena, "s%d", k + 1);
		Node *call = ARENA_NEW(b->arena, Node), *ref, *lst;
		*call = *sf.found[k];
		if (field || !strcmp(nm, "_pg_expandarray")) {
			/* (_pg_expandarray(a)).x = unnest(a); .n = its positions;
			 * the whole record: __floe_expandarray_row (srf.c) */
			call = renamed_call(b, f, !field ? "__floe_expandarray_row" :
					    nm[0] == 'x' ? "unnest" : "__floe_expandarray_n");
		}
		lst = ARENA_NEW(b->arena, Node);
		pg_query__node__init(lst);
		lst->node_case = PG_QUERY__NODE__NODE_LIST;
		lst->list = ARENA_NEW(b->arena, PgQuery__List);
		pg_query__list__init(lst->list);
		lst->list->n_items = 1;
		lst->list->items = ARENA_ARRAY(b->arena, Node *, 1);
		lst->list->items[0] = call;
		rf->functions[k] = lst;
		rf->alias->colnames[k] = ARENA_NEW(b->arena, Node);
		pg_query__node__init(rf->alias->colnames[k]);
		rf->alias->colnames[k]->node_case = PG_QUERY__NODE__NODE_STRING;
		rf->alias->colnames[k]->string = ARENA_NEW(b->arena, PgQuery__String);
		pg_query__string__init(rf->alias->colnames[k]->string);
		rf->alias->colnames[k]->string->sval = (char *)col;
		/* a target that is just the call keeps the function's name */
		for (i = 0; i < s->n_target_list; i++) {
			PgQuery__ResTarget *rt = s->target_list[i]->res_target;
			if (rt->val == sf.found[k] && (!rt->name || !rt->name[0]) && n > 1) {
				undo->named[undo->nnamed] = rt;
				undo->names[undo->nnamed++] = rt->name;
				rt->name = (char *)nm;
			}
		}
		/* the call in the targets becomes __floe_srf.<col> */
		undo->found[k] = sf.found[k];
		undo->saved[k] = *sf.found[k];
		undo->nfound = k + 1;
		ref = sf.found[k];
		pg_query__node__init(ref);
		ref->node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
		ref->column_ref = ARENA_NEW(b->arena, PgQuery__ColumnRef);
		pg_query__column_ref__init(ref->column_ref);
		ref->column_ref->n_fields = 2;
		ref->column_ref->fields = ARENA_ARRAY(b->arena, Node *, 2);
		ref->column_ref->location = f->location;
		for (i = 0; i < 2; i++) {
			Node *fld = ARENA_NEW(b->arena, Node);
			pg_query__node__init(fld);
			fld->node_case = PG_QUERY__NODE__NODE_STRING;
			fld->string = ARENA_NEW(b->arena, PgQuery__String);
			pg_query__string__init(fld->string);
			fld->string->sval = i ? (char *)col : "__floe_srf";
			ref->column_ref->fields[i] = fld;
		}
	}
	rfn = ARENA_NEW(b->arena, Node);
	pg_query__node__init(rfn);
	rfn->node_case = PG_QUERY__NODE__NODE_RANGE_FUNCTION;
	rfn->range_function = rf;
	undo->from = s->from_clause;
	undo->nfrom = s->n_from_clause;
	from = ARENA_ARRAY(b->arena, Node *, s->n_from_clause + 1);
	for (i = 0; i < s->n_from_clause; i++)
		from[i] = s->from_clause[i];
	from[s->n_from_clause] = rfn;
	s->from_clause = from;
	s->n_from_clause++;
	return FLOE_OK;
}

/* ---- the clause chain as logical nodes (plan/logical.h) -----------------
 * Each clause's expressions are bound over the positions of the node below
 * (the FROM scope, the aggregation's keys + aggregates, the window's
 * input + results, the select list); these make the node and turn the
 * positions into ColumnIds (lexpr_by_id).  plan_stmt lowers the query
 * level's plan to operators (plan/physical.c). */

static int
by_id_list(BindCtx *b, LogicalPlan *lp, int n, Expr **es, const LogicalOp *in, Expr ***out)
{
	*out = ARENA_ARRAY(b->arena, Expr *, n + 1);
	for (int i = 0; i < n; i++)
		if (!((*out)[i] = lexpr_by_id(lp, es[i], in, b->err)))
			return FLOE_ERR;
	return FLOE_OK;
}

static int
chain_filter(BindCtx *b, LogicalPlan *lp, LogicalOp **cur, Expr *cond)
{
	LogicalOp *f = lop_new(lp, LOP_FILTER, 1, *cur);

	lop_pass_columns(lp, f, *cur);
	f->nexprs = 1;
	f->exprs = ARENA_ARRAY(b->arena, Expr *, 1);
	if (!(f->exprs[0] = lexpr_by_id(lp, cond, *cur, b->err)))
		return FLOE_ERR;
	*cur = f;
	return FLOE_OK;
}

static int
chain_project(BindCtx *b, LogicalPlan *lp, LogicalOp **cur, int n, Expr **es, char **names)
{
	LogicalOp *p = lop_new(lp, LOP_PROJECT, 1, *cur);

	TRY(by_id_list(b, lp, n, es, *cur, &p->exprs));
	p->nexprs = n;
	for (int i = 0; i < n; i++)
		lop_add_column(lp, p, es[i]->type, names ? names[i] : NULL);
	*cur = p;
	return FLOE_OK;
}

/* GROUP BY keys and the aggregate calls (b->aggs) over `in` */
static int
chain_aggregate(BindCtx *b, LogicalPlan *lp, LogicalOp *ag, const LogicalOp *in, Expr **keys, int nkeys)
{
	TRY(by_id_list(b, lp, nkeys, keys, in, &ag->exprs));
	ag->nexprs = nkeys;
	for (int k = 0; k < nkeys; k++)
		lop_add_column(lp, ag, keys[k]->type, NULL);
	ag->naggs = b->naggs;
	ag->aggs = ARENA_ARRAY(b->arena, AggCall, b->naggs + 1);
	for (int j = 0; j < b->naggs; j++) {
		const AggCall *s = &b->aggs[j];
		AggCall *d = &ag->aggs[j];
		*d = *s;
		if ((s->arg && !(d->arg = lexpr_by_id(lp, s->arg, in, b->err))) ||
		    (s->arg2 && !(d->arg2 = lexpr_by_id(lp, s->arg2, in, b->err))) ||
		    (s->filter && !(d->filter = lexpr_by_id(lp, s->filter, in, b->err))))
			return FLOE_ERR;
		if (s->norder) {
			d->order = ARENA_ARRAY(b->arena, AggOrderKey, s->norder);
			for (int k = 0; k < s->norder; k++) {
				d->order[k] = s->order[k];
				if (!(d->order[k].e = lexpr_by_id(lp, s->order[k].e, in, b->err)))
					return FLOE_ERR;
			}
		}
		lop_add_column(lp, ag, s->type, s->fn ? s->fn->name : NULL);
	}
	return FLOE_OK;
}

/* GROUPING SETS / ROLLUP / CUBE: one key mask per set, and the grouping()
 * calls' values as columns after the aggregates */
static int
chain_grouping_sets(BindCtx *b, LogicalPlan *lp, LogicalOp *ag, Expr **keys, int nkeys, const GSets *sets,
		    const WinCollect *w)
{
	if (nkeys > 64)
		return unsupported(b, "grouping sets over more than 64 GROUP BY expressions", -1);
	ag->nsets = sets->n;
	ag->sets = ARENA_ARRAY(b->arena, uint64_t, sets->n + 1);
	for (int i = 0; i < sets->n; i++) {
		ag->sets[i] = 0;
		for (int j = 0; j < sets->s[i].n; j++)
			ag->sets[i] |= (uint64_t)1 << sets->s[i].k[j];
	}
	ag->ngroupings = w->ngf;
	ag->groupings = ARENA_ARRAY(b->arena, LogicalGrouping, w->ngf + 1);
	for (int j = 0; j < w->ngf; j++) {
		LogicalGrouping *g = &ag->groupings[j];
		g->nargs = w->gf_nargs[j];
		g->keys = ARENA_ARRAY(b->arena, int, g->nargs + 1);
		for (int a = 0; a < g->nargs; a++) {
			int k;
			for (k = 0; k < nkeys && !expr_equal(keys[k], w->gf_args[j][a]); k++)
				;
			g->keys[a] = k;    /* check_grouping_args: every argument is a key */
		}
		lop_add_column(lp, ag, type_make(TYPE_INT32), "grouping");
	}
	return FLOE_OK;
}

/* one WINDOW node for the query's window calls (win->specs, win->calls) */
static int
chain_window(BindCtx *b, LogicalPlan *lp, LogicalOp **cur, const WinCollect *win)
{
	LogicalOp *w = lop_new(lp, LOP_WINDOW, 1, *cur);

	lop_pass_columns(lp, w, *cur);
	w->nspecs = win->nspecs;
	w->specs = ARENA_ARRAY(b->arena, WindowSpec, win->nspecs + 1);
	for (int k = 0; k < win->nspecs; k++) {
		w->specs[k] = win->specs[k];
		TRY(by_id_list(b, lp, win->specs[k].npart, win->specs[k].part, *cur, &w->specs[k].part));
		TRY(by_id_list(b, lp, win->specs[k].norder, win->specs[k].order, *cur, &w->specs[k].order));
	}
	w->ncalls = win->ncalls;
	w->calls = ARENA_ARRAY(b->arena, WindowCall, win->ncalls + 1);
	for (int k = 0; k < win->ncalls; k++) {
		const WindowCall *s = &win->calls[k];
		WindowCall *d = &w->calls[k];
		*d = *s;
		if ((s->arg && !(d->arg = lexpr_by_id(lp, s->arg, *cur, b->err))) ||
		    (s->arg2 && !(d->arg2 = lexpr_by_id(lp, s->arg2, *cur, b->err))) ||
		    (s->arg3 && !(d->arg3 = lexpr_by_id(lp, s->arg3, *cur, b->err))))
			return FLOE_ERR;
		lop_add_column(lp, w, s->type, NULL);
	}
	*cur = w;
	return FLOE_OK;
}

/* ORDER BY keys (columns of `in` by position) as op's sort keys */
static void
chain_sort_keys(BindCtx *b, LogicalOp *op, const LogicalOp *in, const SortKey *sort, int nsort)
{
	op->nkeys = nsort;
	op->keys = ARENA_ARRAY(b->arena, LogicalSortKey, nsort + 1);
	for (int i = 0; i < nsort; i++) {
		const LogicalColumn *c = &in->cols[sort[i].col];
		op->keys[i].e = expr_colref(b->arena, (int)c->id, c->type);
		op->keys[i].desc = sort[i].desc;
		op->keys[i].nulls_first = sort[i].nulls_first;
	}
}

/* LIMIT / OFFSET (limit < 0: none), values already checked */
static void
chain_limit(BindCtx *b, LogicalPlan *lp, LogicalOp **cur, int64_t limit, int64_t offset, bool ties)
{
	LogicalOp *l;

	if (limit < 0 && offset <= 0)
		return;
	l = lop_new(lp, LOP_LIMIT, 1, *cur);
	lop_pass_columns(lp, l, *cur);
	if (limit >= 0) {
		Value v = value_int(TYPE_INT64, limit);
		l->limit = expr_const(b->arena, &v);
	}
	if (offset > 0) {
		Value v = value_int(TYPE_INT64, offset);
		l->offset = expr_const(b->arena, &v);
	}
	l->with_ties = ties;
	*cur = l;
}

/* FETCH FIRST ... WITH TIES needs an ORDER BY and a row count */
static int
check_ties(BindCtx *b, PgQuery__SelectStmt *s)
{
	if (s->limit_option != PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES)
		return FLOE_OK;
	if (!s->n_sort_clause)
		return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR,
				   "WITH TIES cannot be specified without ORDER BY clause");
	if (s->limit_count && s->limit_count->node_case == PG_QUERY__NODE__NODE_A_CONST &&
	    s->limit_count->a_const->isnull)
		return floe_errorf(b->err, ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE,
				   "row count cannot be null in FETCH FIRST ... WITH TIES clause");
	return FLOE_OK;
}

/* Select-list entry i, when it is a grouping key that another key equals
 * (GROUP BY ROLLUP(1, 2) over "a, a"): a reference to its own key column
 * of the aggregation's output, which the grouping sets null on their own;
 * else NULL (rewrite_agg maps it). */
static Expr *
own_key(BindCtx *b, Expr **keys, const int *key_tgt, int nkeys, int i)
{
	int k, j;

	for (k = 0; key_tgt && k < nkeys; k++) {
		if (key_tgt[k] != i)
			continue;
		for (j = 0; j < nkeys; j++)
			if (j != k && expr_equal(keys[j], keys[k]))
				return expr_colref(b->arena, k, keys[k]->type);
		break;
	}
	return NULL;
}

/* PostgreSQL's get_sort_group_operators: json and jsonpath (their arrays
 * too) have neither an
 * equality nor an ordering operator, so it cannot be a DISTINCT, GROUP BY,
 * set-operation, window PARTITION BY or aggregate DISTINCT key (42883
 * "could not identify an equality operator for type json") nor an ORDER BY
 * key (the same for "an ordering operator", with PostgreSQL's HINT).
 * byte_loc: where the key starts in the statement (-1: no position). */
int
select_check_sortable(BindCtx *b, SqlType t, bool ordering, int byte_loc)
{
	bool arr = t.id == TYPE_ARRAY && t.elem == TYPE_TEXT;

	const char *tn = t.text_kind == TEXT_JSON ? "json" : "jsonpath";

	if ((t.id != TYPE_TEXT && !arr) || (t.text_kind != TEXT_JSON && t.text_kind != TEXT_JSONPATH))
		return FLOE_OK;
	floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "could not identify an %s operator for type %s%s",
		    ordering ? "ordering" : "equality", tn, arr ? "[]" : "");
	if (ordering)
		floe_error_hint(b->err, "Use an explicit ordering operator or modify the query.");
	if (byte_loc >= 0)
		floe_error_position(b->err, bind_location(b, byte_loc));
	return FLOE_ERR;
}

/* The output column an ORDER BY or DISTINCT ON item names, as PostgreSQL's
 * findTargetlistEntrySQL92: an ordinal, an output column name, or an
 * expression: one already in the list, else a hidden column appended to
 * targets (refused for plain SELECT DISTINCT, at loc). */
static int
sort_item_col(BindCtx *b, Node *n, const char *clause, bool plain_distinct, int loc,
	      Expr **targets, char **names, int *ntargets, int nvisible, int *out)
{
	int col = -1, k;

	if (n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
	    n->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
		int pos = n->a_const->ival->ival;
		if (pos < 1 || pos > nvisible) {
			floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
				    "%s position %d is not in select list", clause, pos);
			floe_error_position(b->err, bind_location(b, n->a_const->location));
			return FLOE_ERR;
		}
		*out = pos - 1;
		return FLOE_OK;
	}
	if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && n->column_ref->n_fields == 1 &&
	    n->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
		const char *nm = n->column_ref->fields[0]->string->sval;
		int hits = 0;
		for (k = 0; k < nvisible; k++)
			if (!strcmp(names[k], nm)) {
				if (hits++ == 0)
					col = k;
				else if (!expr_equal(targets[k], targets[col])) {
					floe_errorf(b->err, ERRCODE_AMBIGUOUS_COLUMN, "%s \"%s\" is ambiguous",
						    clause, nm);
					floe_error_position(b->err, bind_location(b, n->column_ref->location));
					return FLOE_ERR;
				}
			}
	}
	if (col < 0) {
		Expr *e = bind_expr(b, n);
		if (!e)
			return FLOE_ERR;
		if (e->unknown_literal && !(e = bind_coerce(b, e, type_make(TYPE_TEXT), 0, NULL)))
			return FLOE_ERR;
		for (k = 0; k < *ntargets; k++)
			if (expr_equal(targets[k], e)) {
				col = k;
				break;
			}
		if (col < 0) {
			if (plain_distinct) {
				floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
					    "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
				floe_error_position(b->err, bind_location(b, loc));
				return FLOE_ERR;
			}
			targets[*ntargets] = e;
			names[*ntargets] = "?sort?";
			col = (*ntargets)++;
		}
	}
	*out = col;
	return FLOE_OK;
}

static int
plan_select_body(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out, WinCollect *win)
{
	Source src;
	FromList fl;
	Operator *op = NULL;
	Expr **targets;
	char **names;
	int ntargets = 0, cap, i, k, *tloc;
	Expr *where = NULL, *having = NULL;
	Expr **keys = NULL;
	int nkeys = 0, *key_tgt = NULL;
	bool aggregated;
	SortKey *sort = NULL;
	int nsort = 0, nvisible;
	int64_t limit = -1, offset = 0;
	bool distinct = s->n_distinct_clause > 0;
	bool keep_null = keep_null_cols && !distinct && !s->n_sort_clause && !s->n_group_clause;
	GSets sets = { 0, 0, NULL };
	bool multi_sets = false;
	int ndon = 0, *don = NULL;
	bool ties = s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES;
	LogicalPlan *lp = out->lplan;
	LogicalOp *cur;
	LogicalOp *from_lop = NULL;   /* the FROM/WHERE result as logical nodes,
					 or NULL: as operators (op) */

	keep_null_cols = false;
	if (s->n_locking_clause)
		return unsupported(b, "FOR UPDATE/SHARE", -1);
	if (s->into_clause)
		return unsupported(b, "SELECT INTO", -1);
	if (distinct && !(s->n_distinct_clause == 1 && (s->distinct_clause[0] == NULL ||
			 s->distinct_clause[0]->node_case == PG_QUERY__NODE__NODE__NOT_SET))) {
		ndon = (int)s->n_distinct_clause;       /* DISTINCT ON (...) */
		distinct = false;
	}
	TRY(check_ties(b, s));

	TRY(from_items(b, ctx, s, &fl, &src));
	b->scope = &src.scope;

	/* WHERE: EXISTS / IN conjuncts become semi/anti joins over the rest */
	if (s->where_clause) {
		int nw = 0, nsemi = 0, nbound = 0;
		Node **wc = ARENA_ARRAY(b->arena, Node *, count_and(s->where_clause) + 1);
		Node **semis = ARENA_ARRAY(b->arena, Node *, count_and(s->where_clause) + 1);
		Expr **bound = ARENA_ARRAY(b->arena, Expr *, count_and(s->where_clause) + 1);
		collect_and(s->where_clause, wc, &nw);
		for (i = 0; i < nw; i++) {
			bool anti, sr;
			if (semi_candidate(wc[i], &anti) || scalar_candidate(wc[i], &sr) ||
			    mark_candidate(b, wc[i])) {
				semis[nsemi++] = wc[i];
				continue;
			}
			b->allow_aggs = false;
			b->where = "WHERE";
			if (!(bound[nbound++] = bind_coerce_bool(b, bind_expr(b, wc[i]), "WHERE")))
				return FLOE_ERR;
		}
		where = and_of(b, bound, nbound);
		for (i = 0; fl.n > 1 && i < nsemi; i++) {
			bool done;
			TRY(push_semi(b, ctx, &fl, semis[i], &done));
			if (done)
				semis[i] = NULL;
		}
		b->scope = &src.scope;
		TRY(from_plan(b, ctx, &fl, where, &src));
		/* subqueries left in WHERE: EXISTS / IN as SEMI / ANTI Join nodes
		 * over the FROM/WHERE result (plan_semi); correlated scalar ones
		 * are still planned over operators */
		for (i = 0; i < nsemi; i++) {
			bool anti, handled;
			PgQuery__SubLink *sl;
			if (!semis[i])
				continue;
			sl = semi_candidate(semis[i], &anti);
			if (sl) {
				TRY(corr_fallback(b, plan_semi(b, ctx, &src, sl, anti, false, &handled), &handled));
			} else if (scalar_candidate(semis[i], &anti)) {
				TRY(corr_fallback(b, plan_scalar_corr(b, ctx, &src, semis[i], NULL, &handled, NULL),
						  &handled));
			} else {
				/* EXISTS / IN inside the conjunct: MARK joins below it */
				handled = false;
				b->allow_aggs = false;
				b->where = "WHERE";
				TRY(plan_marks(b, ctx, &src, semis[i]));
			}
			if (!handled) {
				Expr *e;
				b->allow_aggs = false;
				b->where = "WHERE";
				e = bind_coerce_bool(b, bind_expr(b, semis[i]), "WHERE");
				mark_done(b);
				if (!e)
					return FLOE_ERR;
				if (src.lop)
					TRY(chain_filter(b, lp, &src.lop, e));
				else
					src.op = filter_new(ctx, src.op, e);
			}
		}
		from_lop = src.lop;
		op = src.op;
	} else {
		TRY(from_plan(b, ctx, &fl, NULL, &src));
		from_lop = src.lop;
		op = src.op;
	}

	/* select list (aggregates allowed) */
	cap = (int)s->n_target_list * (src.scope.ncols + 1) + (int)s->n_sort_clause +
	      (int)s->n_distinct_clause + 1;
	targets = ARENA_ARRAY(b->arena, Expr *, cap);
	names = ARENA_ARRAY(b->arena, char *, cap);
	tloc = ARENA_ARRAY(b->arena, int, cap);
	b->allow_aggs = true;
	b->where = "this context";
	win->allowed = true;
	for (i = 0; i < (int)s->n_target_list; i++) {
		PgQuery__ResTarget *rt = s->target_list[i]->res_target;
		if (is_star(rt->val)) {
			PgQuery__ColumnRef *c = rt->val->column_ref;
			const char *qual = c->n_fields == 2 ? c->fields[0]->string->sval : NULL;
			bool seen = false;
			for (k = 0; qual && k < src.scope.ncols; k++)
				if (scope_relname(&src.scope, k) && !strcmp(scope_relname(&src.scope, k), qual))
					seen = true;
			if (qual && !seen) {
				floe_errorf(b->err, ERRCODE_UNDEFINED_TABLE,
					    "missing FROM-clause entry for table \"%s\"",
					    c->fields[0]->string->sval);
				floe_error_position(b->err, bind_location(b, c->location));
				return FLOE_ERR;
			}
			if (s->n_from_clause == 0) {
				floe_errorf(b->err, ERRCODE_SYNTAX_ERROR,
					    "SELECT * with no tables specified is not valid");
				floe_error_position(b->err, bind_location(b, c->location));
				return FLOE_ERR;
			}
			for (k = 0; k < src.scope.ncols; k++) {
				if (qual ? !scope_relname(&src.scope, k) ||
					   strcmp(scope_relname(&src.scope, k), qual) != 0 :
				    src.scope.hidden && src.scope.hidden[k])
					continue;
				if (is_lineage_col(src.scope.names[k]))
					continue;       /* metadata columns: never in "*" */
				if (src.scope.nested && src.scope.nested[k]) {
					floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						    "column \"%s\" has the nested type %s, which floe cannot read yet",
						    src.scope.names[k], src.scope.nested[k]);
					floe_error_position(b->err, bind_location(b, c->location));
					return FLOE_ERR;
				}
				tloc[ntargets] = c->location;
				targets[ntargets] = expr_colref(b->arena, k, src.scope.types[k]);
				names[ntargets++] = src.scope.names[k];
			}
			continue;
		}
		if (rt->val->node_case == PG_QUERY__NODE__NODE_SUB_LINK &&
		    rt->val->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
		    rt->val->sub_link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
		    s->n_group_clause == 0 && !s->having_clause) {
			/* a correlated scalar subquery: more (hidden) source columns */
			bool handled;
			Expr *val = NULL;
			src.lop = from_lop;
			src.op = op;
			TRY(corr_fallback(b, plan_scalar_corr(b, ctx, &src, NULL, rt->val->sub_link, &handled, &val),
					  &handled));
			from_lop = src.lop;
			op = src.op;
			if (handled) {
				tloc[ntargets] = sql_location(&rt->val->base);
				targets[ntargets] = val;
				names[ntargets++] = rt->name && rt->name[0] ? rt->name : (char *)bind_colname(rt->val);
				continue;
			}
		}
		if (s->n_group_clause == 0 && !s->having_clause && mark_candidate(b, rt->val) && !agg_seen(s)) {
			/* EXISTS / IN inside the item: MARK joins, their marks
			 * hidden source columns */
			src.lop = from_lop;
			src.op = op;
			TRY(plan_marks(b, ctx, &src, rt->val));
			b->allow_aggs = true;
			b->where = "this context";
			from_lop = src.lop;
			op = src.op;
		}
		tloc[ntargets] = sql_location(&rt->val->base);
		targets[ntargets] = bind_expr(b, rt->val);
		mark_done(b);
		if (!targets[ntargets])
			return FLOE_ERR;
		if ((targets[ntargets]->unknown_literal || targets[ntargets]->type.id == TYPE_NULL) &&
		    !(keep_null && targets[ntargets]->type.id == TYPE_NULL &&
		      targets[ntargets]->kind == EXPR_CONST)) {
			/* an unknown-typed output column resolves to text */
			if (!(targets[ntargets] = bind_coerce(b, targets[ntargets], type_make(TYPE_TEXT), 0, NULL)))
				return FLOE_ERR;
		}
		names[ntargets++] = rt->name && rt->name[0] ? rt->name : (char *)bind_colname(rt->val);
	}
	nvisible = ntargets;
	win->allowed = false;

	/* GROUP BY: distinct key expressions and the grouping sets over them */
	if (s->n_group_clause) {
		GroupCtx g;
		memset(&g, 0, sizeof g);
		g.b = b;
		g.targets = targets;
		g.names = names;
		g.nvisible = nvisible;
		g.scope = &src.scope;
		g.keys = ARENA_ARRAY(b->arena, Expr *, 8);
		g.key_tgt = ARENA_ARRAY(b->arena, int, 8);
		g.cap_keys = 8;
		b->allow_aggs = false;
		b->where = "GROUP BY";
		TRY(group_sets(&g, s, &sets));
		keys = g.keys;
		key_tgt = g.key_tgt;
		nkeys = g.nkeys;
		multi_sets = g.any_sets && !(sets.n == 1 && sets.s[0].n == nkeys);
	}

	/* HAVING */
	if (s->having_clause) {
		b->allow_aggs = true;
		b->where = "HAVING";
		having = bind_coerce_bool(b, bind_expr(b, s->having_clause), "HAVING");
		if (!having)
			return FLOE_ERR;
	}

	/* ORDER BY: ordinals, output names, or expressions (hidden columns) */
	if (s->n_sort_clause) {
		sort = ARENA_ARRAY(b->arena, SortKey, s->n_sort_clause);
		b->allow_aggs = true;
		b->where = "ORDER BY";
		win->allowed = true;
		for (i = 0; i < (int)s->n_sort_clause; i++) {
			PgQuery__SortBy *sb = s->sort_clause[i]->sort_by;
			int col;

			if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
				return unsupported(b, "ORDER BY ... USING", -1);
			TRY(sort_item_col(b, sb->node, "ORDER BY", distinct, sb->location, targets, names,
					  &ntargets, nvisible, &col));
			TRY(select_check_sortable(b, targets[col]->type, true, sql_location(&sb->node->base)));
			sort[nsort].col = col;
			sort[nsort].desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
			if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST)
				sort[nsort].nulls_first = true;
			else if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST)
				sort[nsort].nulls_first = false;
			else
				sort[nsort].nulls_first = sort[nsort].desc;
			nsort++;
		}
		win->allowed = false;
	}

	/* DISTINCT ON: its items resolve like ORDER BY's; the ORDER BY must
	 * start with them (transformDistinctOnClause's rule, 42P10) */
	if (ndon) {
		bool skipped = false;
		int nd = 0, j;
		don = ARENA_ARRAY(b->arena, int, ndon);
		b->allow_aggs = true;
		b->where = "DISTINCT ON";
		win->allowed = true;
		for (i = 0; i < ndon; i++) {
			int col;
			TRY(sort_item_col(b, s->distinct_clause[i], "DISTINCT ON", false, -1, targets, names,
					  &ntargets, nvisible, &col));
			TRY(select_check_sortable(b, targets[col]->type, false,
						  sql_location(&s->distinct_clause[i]->base)));
			for (j = 0; j < nd && don[j] != col; j++)
				;
			if (j == nd)
				don[nd++] = col;
		}
		ndon = nd;
		win->allowed = false;
		for (i = 0; i < nsort; i++) {
			for (j = 0; j < ndon && don[j] != sort[i].col; j++)
				;
			if (j == ndon)
				skipped = true;
			else if (skipped)
				break;
		}
		for (j = 0; i == nsort && skipped && j < ndon; j++) {
			for (k = 0; k < nsort && sort[k].col != don[j]; k++)
				;
			if (k == nsort)
				break;
		}
		if (i < nsort || (skipped && j < ndon))
			return floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
					   "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
	}

	for (i = 0; distinct && !ndon && i < nvisible; i++)   /* plain DISTINCT's keys */
		TRY(select_check_sortable(b, targets[i]->type, false, tloc[i]));

	TRY(limit_value(b, s->limit_count, "LIMIT", ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, &limit));
	TRY(limit_value(b, s->limit_offset, "OFFSET", ERRCODE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE,
			&offset));
	if (s->limit_count && limit < 0 && s->limit_count->node_case == PG_QUERY__NODE__NODE_A_CONST &&
	    s->limit_count->a_const->isnull)
		limit = -1;

	/* the clause chain as logical nodes over the FROM/WHERE result */
	cur = from_lop ? from_lop :
	      lop_operator(lp, op, src.scope.ncols == op->ncols ? src.scope.names : NULL);
	aggregated = nkeys > 0 || b->naggs > 0 || s->n_group_clause > 0;
	TRY(check_grouping_args(b, win, keys, nkeys));
	if (aggregated) {
		AggRewrite rw = { b, nkeys, keys, &src.scope, false, 0 };
		LogicalOp *ag = lop_new(lp, LOP_AGGREGATE, 1, cur);
		TRY(chain_aggregate(b, lp, ag, cur, keys, nkeys));
		if (multi_sets) {
			TRY(chain_grouping_sets(b, lp, ag, keys, nkeys, &sets, win));
			rw.gf_sets = true;
			rw.gf_col = nkeys + b->naggs;
		}
		cur = ag;
		for (i = 0; i < ntargets; i++) {
			Expr *own = own_key(b, keys, key_tgt, nkeys, i);
			if (own)
				targets[i] = own;
			else if (!(targets[i] = rewrite_agg(&rw, targets[i])))
				return FLOE_ERR;
		}
		if (having) {
			if (!(having = rewrite_agg(&rw, having)))
				return FLOE_ERR;
			TRY(chain_filter(b, lp, &cur, having));
		}
	} else if (having) {
		/* HAVING without GROUP BY or aggregates: one group of all rows */
		cur = lop_new(lp, LOP_AGGREGATE, 1, cur);
		if (expr_has_colref(having)) {
			AggRewrite rw = { b, 0, NULL, &src.scope, false, 0 };
			if (!rewrite_agg(&rw, having))
				return FLOE_ERR;
		}
		TRY(chain_filter(b, lp, &cur, having));
	}
	if (win->ncalls) {
		/* window functions over the (grouped) rows */
		int base = cur->ncols, j;
		if (aggregated) {
			AggRewrite rw = { b, nkeys, keys, &src.scope, multi_sets, nkeys + b->naggs };
			for (k = 0; k < win->nspecs; k++) {
				WindowSpec *sp = &win->specs[k];
				for (j = 0; j < sp->npart; j++)
					if (!(sp->part[j] = rewrite_agg(&rw, sp->part[j])))
						return FLOE_ERR;
				for (j = 0; j < sp->norder; j++)
					if (!(sp->order[j] = rewrite_agg(&rw, sp->order[j])))
						return FLOE_ERR;
			}
			for (k = 0; k < win->ncalls; k++) {
				WindowCall *wcall = &win->calls[k];
				if ((wcall->arg && !(wcall->arg = rewrite_agg(&rw, wcall->arg))) ||
				    (wcall->arg2 && !(wcall->arg2 = rewrite_agg(&rw, wcall->arg2))) ||
				    (wcall->arg3 && !(wcall->arg3 = rewrite_agg(&rw, wcall->arg3))))
					return FLOE_ERR;
			}
		}
		TRY(chain_window(b, lp, &cur, win));
		for (i = 0; i < ntargets; i++)
			targets[i] = win_remap(b->arena, targets[i], base);
	}
	TRY(chain_project(b, lp, &cur, ntargets, targets, names));
	if (ndon) {
		/* DISTINCT ON: the first row of each key group in ORDER BY's order */
		LogicalOp *d = lop_new(lp, LOP_DISTINCT, 1, cur);
		lop_pass_columns(lp, d, cur);
		d->nexprs = ndon;
		d->exprs = ARENA_ARRAY(b->arena, Expr *, ndon);
		for (i = 0; i < ndon; i++)
			d->exprs[i] = expr_colref(b->arena, (int)cur->cols[don[i]].id, cur->cols[don[i]].type);
		chain_sort_keys(b, d, cur, sort, nsort);
		cur = d;
	}
	if (distinct) {
		LogicalOp *d = lop_new(lp, LOP_DISTINCT, 1, cur);
		lop_pass_columns(lp, d, cur);
		cur = d;
	}
	if (nsort) {
		LogicalOp *so = lop_new(lp, LOP_SORT, 1, cur);
		lop_pass_columns(lp, so, cur);
		chain_sort_keys(b, so, cur, sort, nsort);
		cur = so;
	}
	chain_limit(b, lp, &cur, limit, offset, ties && limit >= 0);
	if (ntargets > nvisible) {
		Expr **vis = ARENA_ARRAY(b->arena, Expr *, nvisible + 1);
		for (i = 0; i < nvisible; i++)
			vis[i] = expr_colref(b->arena, i, targets[i]->type);
		TRY(chain_project(b, lp, &cur, nvisible, vis, names));
	}
	out->lop = cur;
	out->ncols = nvisible;
	out->names = names;
	out->types = ARENA_ARRAY(b->arena, SqlType, nvisible + 1);
	for (i = 0; i < nvisible; i++)
		out->types[i] = targets[i]->type;
	return FLOE_OK;
}

/* ---- set operations ---------------------------------------------------- */

static const char *
setop_name(PgQuery__SetOperation op)
{
	return op == PG_QUERY__SET_OPERATION__SETOP_UNION ? "UNION" :
	       op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT ? "INTERSECT" : "EXCEPT";
}

/* Project branch p's columns to types: a recursive CTE's recursive term. */
static Operator *
coerce_branch(BindCtx *b, ExecCtx *ctx, SelectPlan *p, const SqlType *types)
{
	Expr **ex = ARENA_ARRAY(b->arena, Expr *, p->ncols + 1);
	bool same = true;
	int i;

	for (i = 0; i < p->ncols; i++) {
		ex[i] = expr_colref(b->arena, i, p->types[i]);
		if (p->types[i].id == TYPE_NULL && types[i].id != TYPE_NULL) {
			/* an untyped NULL column of a set operation's branch */
			Value nv = value_null(types[i]);
			ex[i] = expr_const(b->arena, &nv);
			same = false;
		} else if (!type_equal(p->types[i], types[i])) {
			same = false;
			if (!(ex[i] = bind_coerce(b, ex[i], types[i], COERCE_IMPLICIT, NULL)))
				return NULL;
		}
	}
	return same ? p->root : project_new(ctx, p->root, p->ncols, ex);
}

/* A set operation's branch p as a child of the SETOP node: a Project to
 * the common types when they differ (always for INTERSECT / EXCEPT, whose
 * lowering puts its side tags into that Project). */
static LogicalOp *
coerce_lbranch(BindCtx *b, LogicalPlan *lp, SelectPlan *p, const SqlType *types, bool always)
{
	Expr **ex = ARENA_ARRAY(b->arena, Expr *, p->ncols + 1);
	LogicalOp *cur = p->lop;
	bool same = !always;
	int i;

	for (i = 0; i < p->ncols; i++) {
		ex[i] = expr_colref(b->arena, i, p->types[i]);
		if (p->types[i].id == TYPE_NULL && types[i].id != TYPE_NULL) {
			/* an untyped NULL column of a set operation's branch */
			Value nv = value_null(types[i]);
			ex[i] = expr_const(b->arena, &nv);
			same = false;
		} else if (!type_equal(p->types[i], types[i])) {
			same = false;
			if (!(ex[i] = bind_coerce(b, ex[i], types[i], COERCE_IMPLICIT, NULL)))
				return NULL;
		}
	}
	if (same)
		return cur;
	if (chain_project(b, lp, &cur, p->ncols, ex, p->names) != FLOE_OK)
		return NULL;
	return cur;
}

static int plan_stmt_logical(BindCtx *parent, ExecCtx *ctx, PgQuery__SelectStmt *s, LogicalPlan *lp,
			     SelectPlan *out);

/* Where column i of a set operation starts: in its leftmost branch's
 * select list (a "*" there: the star), as PostgreSQL places its errors. */
static int
setop_col_location(PgQuery__SelectStmt *s, int i)
{
	size_t k;
	int at = 0;

	while (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE && s->larg)
		s = s->larg;
	for (k = 0; k < s->n_target_list; k++) {
		Node *v = s->target_list[k]->res_target->val;
		if (is_star(v))
			return v->column_ref->location;   /* which column of it: unknown */
		if (at++ == i)
			return sql_location(&v->base);
	}
	return -1;
}

static int
plan_setop(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out)
{
	SelectPlan l, r;
	int n, i;
	SqlType *types;
	LogicalPlan *lp = out->lplan;
	LogicalOp *cur, *kids[2];
	const char *name = setop_name(s->op);
	bool union_ = s->op == PG_QUERY__SET_OPERATION__SETOP_UNION;
	bool ties = s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES;

	TRY(check_ties(b, s));
	setop_branch = true;
	TRY(plan_stmt_logical(b, ctx, s->larg, lp, &l));
	setop_branch = true;
	TRY(plan_stmt_logical(b, ctx, s->rarg, lp, &r));
	if (l.ncols != r.ncols) {
		/* at the right branch's select list, as PostgreSQL */
		int at = -1;
		size_t k;
		floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "each %s query must have the same number of columns",
			    name);
		for (k = 0; s->rarg->op == PG_QUERY__SET_OPERATION__SETOP_NONE && k < s->rarg->n_target_list; k++) {
			int loc = sql_location(&s->rarg->target_list[k]->base);
			if (loc >= 0 && (at < 0 || loc < at))
				at = loc;
		}
		if (at >= 0)
			floe_error_position(b->err, bind_location(b, at));
		return FLOE_ERR;
	}
	n = l.ncols;
	types = ARENA_ARRAY(b->arena, SqlType, n + 1);
	for (i = 0; i < n; i++) {
		Expr *pair[2] = { expr_colref(b->arena, i, l.types[i]), expr_colref(b->arena, i, r.types[i]) };
		TRY(bind_common_type(b, pair, 2, name, &types[i]));
	}
	for (i = 0; !s->all && i < n; i++)
		TRY(select_check_sortable(b, types[i], false, setop_col_location(s, i)));
	if (!(kids[0] = coerce_lbranch(b, lp, &l, types, !union_)) ||
	    !(kids[1] = coerce_lbranch(b, lp, &r, types, !union_)))
		return FLOE_ERR;
	cur = lop_new(lp, LOP_SETOP, 2, kids[0], kids[1]);
	cur->setop = union_ ? LSET_UNION : s->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT ? LSET_INTERSECT :
		     LSET_EXCEPT;
	cur->all = s->all;
	for (i = 0; i < n; i++)
		lop_add_column(lp, cur, types[i], l.names[i]);
	out->ncols = n;
	out->names = l.names;
	out->types = types;

	/* ORDER BY / LIMIT over the result: output columns only */
	if (s->n_sort_clause) {
		SortKey *sort = ARENA_ARRAY(b->arena, SortKey, s->n_sort_clause);
		LogicalOp *so;
		Scope sc;
		memset(&sc, 0, sizeof sc);
		sc.ncols = n;
		sc.names = out->names;
		sc.types = types;
		for (i = 0; i < (int)s->n_sort_clause; i++) {
			PgQuery__SortBy *sb = s->sort_clause[i]->sort_by;
			Node *nd = sb->node;
			int col = -1;
			if (nd->node_case == PG_QUERY__NODE__NODE_A_CONST &&
			    nd->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
				int p = nd->a_const->ival->ival;
				if (p < 1 || p > n) {
					floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
						    "ORDER BY position %d is not in select list", p);
					floe_error_position(b->err, bind_location(b, nd->a_const->location));
					return FLOE_ERR;
				}
				col = p - 1;
			} else {
				Expr *e;
				Scope *saved = b->scope;
				b->scope = &sc;
				b->allow_aggs = false;
				b->where = "ORDER BY";
				e = bind_expr(b, nd);
				b->scope = saved;
				if (!e)
					return FLOE_ERR;
				if (e->kind != EXPR_COLREF) {
					floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						    "invalid UNION/INTERSECT/EXCEPT ORDER BY clause");
					floe_error_detail(b->err, "Only result column names can be used, not expressions or functions.");
					return FLOE_ERR;
				}
				col = e->col;
			}
			TRY(select_check_sortable(b, types[col], true, sql_location(&nd->base)));
			if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
				return unsupported(b, "ORDER BY ... USING", -1);
			sort[i].col = col;
			sort[i].desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
			if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST)
				sort[i].nulls_first = true;
			else if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST)
				sort[i].nulls_first = false;
			else
				sort[i].nulls_first = sort[i].desc;
		}
		so = lop_new(lp, LOP_SORT, 1, cur);
		lop_pass_columns(lp, so, cur);
		chain_sort_keys(b, so, cur, sort, (int)s->n_sort_clause);
		cur = so;
	}
	if (s->limit_count || s->limit_offset) {
		int64_t limit = -1, offset = 0;
		TRY(limit_value(b, s->limit_count, "LIMIT", ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, &limit));
		TRY(limit_value(b, s->limit_offset, "OFFSET",
				ERRCODE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, &offset));
		chain_limit(b, lp, &cur, limit, offset, ties && limit >= 0);
	}
	out->lop = cur;
	return FLOE_OK;
}

/* ---- statements and subqueries ------------------------------------------ */

/* The columns of every query level: at most BIND_MAX_COLUMNS, 54011. */
static int
check_width(BindCtx *b, int ncols)
{
	if (ncols > BIND_MAX_COLUMNS)
		return floe_errorf(b->err, ERRCODE_TOO_MANY_COLUMNS, "target lists can have at most %d entries",
				   BIND_MAX_COLUMNS);
	return FLOE_OK;
}

/* One query level (SELECT, VALUES, or a set operation over levels) bound
 * into logical nodes of lp (NULL: a plan of its own): out->lop. */
static int
plan_stmt_logical(BindCtx *parent, ExecCtx *ctx, PgQuery__SelectStmt *s, LogicalPlan *lp, SelectPlan *out)
{
	BindCtx b;
	bool branch = setop_branch;

	memset(out, 0, sizeof *out);
	out->lplan = lp ? lp : lplan_new(parent->arena);
	memset(&b, 0, sizeof b);
	b.session = parent->session;
	b.arena = parent->arena;
	b.err = parent->err;
	b.sql = parent->sql;
	b.parent = parent;
	b.exec = ctx;
	b.lp = out->lplan;
	if (cur_lateral && (cur_lateral->def == parent ||
			    (setop_branch && parent->corr_base == EXPR_PARAM_BASE && parent->corr_scope))) {
		/* the LATERAL subquery itself (or a branch of it, a set
		 * operation): the outer columns are parameters */
		b.corr_scope = cur_lateral->outer;
		b.corr_base = EXPR_PARAM_BASE;
	}
	setop_branch = false;
	if (s->with_clause) {
		size_t i, j;
		for (i = 0; i < s->with_clause->n_ctes; i++)
			for (j = 0; j < i; j++)
				if (!strcmp(s->with_clause->ctes[i]->common_table_expr->ctename,
					    s->with_clause->ctes[j]->common_table_expr->ctename))
					return floe_errorf(b.err, ERRCODE_DUPLICATE_ALIAS,
							   "WITH query name \"%s\" specified more than once",
							   s->with_clause->ctes[i]->common_table_expr->ctename);
		b.with = s->with_clause;
	}
	if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE) {
		TRY(plan_setop(&b, ctx, s, out));
	} else if (s->n_values_lists) {
		if (s->n_sort_clause || s->limit_count || s->limit_offset)
			return unsupported(&b, "ORDER BY/LIMIT on a bare VALUES list", -1);
		TRY(plan_values(&b, ctx, s, out));
	} else {
		keep_null_cols = branch;
		TRY(plan_select(&b, ctx, s, out));
	}
	return check_width(&b, out->ncols);
}

/* One query level planned: its logical plan optimized (optimize/
 * optimizer.h; floe.disabled_optimizers), verified in debug builds and
 * lowered to operators, out->root. */
static int
plan_stmt(BindCtx *parent, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out)
{
	TRY(plan_stmt_logical(parent, ctx, s, NULL, out));
	TRY(optimize_plan(out->lplan, &out->lop,
			  session_setting(parent->session, "floe.disabled_optimizers"), parent->err));
#ifdef FLOE_DEBUG
	TRY(lplan_verify(out->lplan, out->lop, parent->err));
#endif
	if (!(out->root = physical_lower(ctx, out->lplan, out->lop)))
		return FLOE_ERR;
	return FLOE_OK;
}

static int
plan_query(BindCtx *parent, ExecCtx *ctx, Node *stmt, SelectPlan *out)
{
	if (stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return floe_errorf(parent->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "this kind of subquery is not supported yet");
	return plan_stmt(parent, ctx, stmt->select_stmt, out);
}

int
select_run_subquery(BindCtx *b, Node *query, int64_t max_rows, Value **vals, int64_t *nrows,
		    SqlType *type, int *ncols)
{
	SelectPlan p;
	ExecCtx *ctx = b->exec;
	Value *v = NULL;
	int64_t n = 0, cap = 0;
	int rc = FLOE_OK;

	*nrows = 0;
	*vals = NULL;
	if (!ctx)
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "subqueries are not supported in this statement yet");
	TRY(plan_query(b, ctx, query, &p));
	*ncols = p.ncols;
	*type = p.ncols ? p.types[0] : type_make(TYPE_NULL);
	TRY(op_open(p.root));
	while (max_rows < 0 || n < max_rows) {
		Batch *batch;
		uint32_t i;
		if ((rc = op_next(p.root, &batch)) != FLOE_OK || !batch)
			break;
		for (i = 0; i < batch->count && (max_rows < 0 || n < max_rows); i++) {
			uint32_t r = batch->sel ? batch->sel[i] : i;
			if (n == cap) {
				int64_t nc = cap ? cap * 2 : 16;
				v = arena_realloc(b->arena, v, sizeof(Value) * (size_t)cap, sizeof(Value) * (size_t)nc);
				cap = nc;
			}
			if (p.ncols == 0) {
				v[n++] = value_null(type_make(TYPE_NULL));
				continue;
			}
			vector_get_value(&batch->cols[0], r, &v[n]);
			v[n].type = *type;
			if (!v[n].is_null && type_is_string(type->id) && v[n].u.s.len > STRVIEW_INLINE)
				v[n].u.s = strview_make(arena_memdup(b->arena, v[n].u.s.u.ptr, v[n].u.s.len),
							v[n].u.s.len);
			n++;
		}
	}
	op_close(p.root);
	if (rc != FLOE_OK)
		return rc;
	*vals = v;
	*nrows = n;
	return FLOE_OK;
}

/* Plan a correlated subquery of an expression once, its references to
 * `outer` (the enclosing query's columns) as parameters of a fresh ExecCtx
 * (*rctx_out; EXPR_PARAM_BASE + k reads params[k]), for exec/subplan.c
 * to run per outer row.  As plan_lateral. */
int
select_plan_correlated(BindCtx *b, Node *query, Scope *outer, ExecCtx **rctx_out, SelectPlan *out)
{
	ExecCtx *rctx;
	BindCtx def = *b;
	LateralDef ld, *prev = cur_lateral;
	int rc;

	if (!b->exec)
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "subqueries are not supported in this statement yet");
	rctx = ARENA_NEW(b->arena, ExecCtx);
	*rctx = *b->exec;
	rctx->nparams = outer->ncols;
	rctx->params = ARENA_ARRAY(b->arena, Value, outer->ncols + 1);
	rctx->threads = 1;
	def.exec = rctx;   /* def.scope stays: deeper references to it are 0A000 */
	ld.def = &def;
	ld.outer = outer;
	cur_lateral = &ld;
	rc = plan_query(&def, rctx, query, out);
	cur_lateral = prev;
	TRY(rc);
	*rctx_out = rctx;
	return FLOE_OK;
}

/* ---- EXPLAIN ------------------------------------------------------------ */

/*
 * EXPLAIN [ANALYZE] [VERBOSE] query, or EXPLAIN (option [value], ...) query
 * with ANALYZE, VERBOSE, COSTS, TIMING, SUMMARY and FORMAT TEXT: the plan
 * of a SELECT / VALUES query as one text column "QUERY PLAN" (exec/
 * explain.c).  ANALYZE runs the query here, its rows discarded, with
 * per-operator counters; SUMMARY (default on with ANALYZE) adds the
 * planning and execution times.
 */
static int
explain_bool(BindCtx *b, PgQuery__DefElem *d, bool *out)
{
	Node *a = d->arg;

	if (!a) {
		*out = true;
		return FLOE_OK;
	}
	if (a->node_case == PG_QUERY__NODE__NODE_STRING || a->node_case == PG_QUERY__NODE__NODE_BOOLEAN ||
	    a->node_case == PG_QUERY__NODE__NODE_INTEGER) {
		const char *v = a->node_case == PG_QUERY__NODE__NODE_STRING ? a->string->sval : NULL;
		if (a->node_case == PG_QUERY__NODE__NODE_BOOLEAN) {
			*out = a->boolean->boolval;
			return FLOE_OK;
		}
		if (a->node_case == PG_QUERY__NODE__NODE_INTEGER && (a->integer->ival == 0 || a->integer->ival == 1)) {
			*out = a->integer->ival == 1;
			return FLOE_OK;
		}
		if (v && (!strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "yes"))) {
			*out = true;
			return FLOE_OK;
		}
		if (v && (!strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "no"))) {
			*out = false;
			return FLOE_OK;
		}
	}
	floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "%s requires a Boolean value", d->defname);
	floe_error_position(b->err, bind_location(b, d->location));
	return FLOE_ERR;
}

static int64_t
mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
plan_explain(BindCtx *b, ExecCtx *ctx, PgQuery__ExplainStmt *st, SelectPlan *out)
{
	ExplainOpts o = { false, false, true, true, false };
	bool summary = false, summary_set = false, timing_set = false, logical = false;
	const char *refused = NULL;
	SelectPlan p;
	char **lines;
	int nlines, i, rc = FLOE_OK;
	int64_t t0 = mono_ns(), t1, t2 = 0, t3 = 0;
	FileIOStats io0;            /* object-store requests (sql/warehouse.h) */

	fileio_stats(&io0);
	Expr ***rows;
	SqlType tt = type_make(TYPE_TEXT);
	size_t k;

	for (k = 0; k < st->n_options; k++) {
		PgQuery__DefElem *d = st->options[k]->def_elem;
		const char *n = d->defname;
		if (!strcmp(n, "analyze"))
			TRY(explain_bool(b, d, &o.analyze));
		else if (!strcmp(n, "logical"))
			TRY(explain_bool(b, d, &logical));
		else if (!strcmp(n, "verbose"))
			TRY(explain_bool(b, d, &o.verbose));
		else if (!strcmp(n, "costs"))
			TRY(explain_bool(b, d, &o.costs));
		else if (!strcmp(n, "timing")) {
			TRY(explain_bool(b, d, &o.timing));
			timing_set = true;
		} else if (!strcmp(n, "summary")) {
			TRY(explain_bool(b, d, &summary));
			summary_set = true;
		} else if (!strcmp(n, "format")) {
			const char *v = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_STRING ?
				d->arg->string->sval : "";
			if (strcmp(v, "text") != 0)
				return unsupported(b, arena_sprintf(b->arena, "EXPLAIN (FORMAT %s)", v),
						   d->location);
		} else if (!strcmp(n, "buffers") || !strcmp(n, "wal") || !strcmp(n, "settings")) {
			return unsupported(b, arena_sprintf(b->arena, "EXPLAIN option %s", n), d->location);
		} else {
			floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "unrecognized EXPLAIN option \"%s\"", n);
			floe_error_position(b->err, bind_location(b, d->location));
			return FLOE_ERR;
		}
	}
	if (timing_set && o.timing && !o.analyze)
		return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "EXPLAIN option TIMING requires ANALYZE");
	if (!summary_set)
		summary = o.analyze;
	o.summary = summary;
	if (logical && (refused = o.analyze ? "ANALYZE" : o.verbose ? "VERBOSE" : timing_set ? "TIMING" : NULL))
		return unsupported(b, arena_sprintf(b->arena, "EXPLAIN (LOGICAL) with %s", refused), -1);
	if (!st->query || st->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
		/* EXPLAIN of a write needs what it needs on its target
		 * (dml.c), as PostgreSQL checks it before anything else */
		TRY(dml_explain_privileges(b->session, ctx, b->sql, st->query));
		return unsupported(b, "EXPLAIN of a statement other than SELECT/VALUES", -1);
	}
	TRY(plan_query(b, ctx, st->query, &p));
	p.root = exec_parallelize(ctx, p.root);
	t1 = mono_ns();
	if (logical) {
		/* the logical plan the operators were lowered from, one line a node */
		char *text = arena_strdup(b->arena, lplan_explain(p.lplan, p.lop, o.costs, b->arena));
		char *line, *save = NULL;
		lines = ARENA_ARRAY(b->arena, char *, strlen(text) + 1);
		nlines = 0;
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			lines[nlines++] = line;
	} else if (o.analyze) {
		Batch *batch;
		explain_instrument(p.root, ctx->arena);
		t2 = mono_ns();
		if ((rc = op_open(p.root)) == FLOE_OK) {
			for (;;) {
				if ((rc = op_next(p.root, &batch)) != FLOE_OK || !batch)
					break;
			}
		}
		op_close(p.root);
		t3 = mono_ns();
		TRY(rc);
	}
	if (!logical) {
		TRY(explain_text(p.root, &o, ctx->arena, &lines, &nlines));
		if (o.analyze)
			warehouse_explain_requests(&io0, fileio_is_remote(b->session->engine->io->root), ctx->arena,
						   &lines, &nlines);
		if (o.verbose && p.lplan && p.lplan->npasses) {
			/* the optimizer passes that changed the top query level */
			char **more = ARENA_ARRAY(b->arena, char *, nlines + 2);
			char *t = arena_strdup(b->arena, "Optimizer:");
			memcpy(more, lines, sizeof *more * (size_t)nlines);
			for (i = 0; i < p.lplan->npasses; i++)
				t = arena_sprintf(b->arena, "%s%s %s", t, i ? "," : "", p.lplan->passes[i]);
			more[nlines++] = t;
			lines = more;
		}
	}
	rows = ARENA_ARRAY(b->arena, Expr **, nlines + 2);
	for (i = 0; i < nlines + 2; i++) {
		const char *text = i < nlines ? lines[i] :
			i == nlines ? arena_sprintf(b->arena, "Planning Time: %.3f ms", (double)(t1 - t0) / 1e6) :
			arena_sprintf(b->arena, "Execution Time: %.3f ms", (double)(t3 - t2) / 1e6);
		Value v;
		memset(&v, 0, sizeof v);
		v.type = tt;
		v.u.s = strview_make(text, (uint32_t)strlen(text));
		rows[i] = ARENA_ARRAY(b->arena, Expr *, 1);
		rows[i][0] = expr_const(b->arena, &v);
	}
	if (summary && !o.analyze)
		nlines += 1;           /* planning time only */
	else if (summary)
		nlines += 2;
	out->root = values_new(ctx, 1, &tt, nlines, rows);
	out->ncols = 1;
	out->names = ARENA_ARRAY(b->arena, char *, 1);
	out->names[0] = "QUERY PLAN";
	out->types = ARENA_ARRAY(b->arena, SqlType, 1);
	out->types[0] = tt;
	return FLOE_OK;
}

int
select_plan_subquery(BindCtx *b, ExecCtx *ctx, const char *sql, Node *query, SelectPlan *out)
{
	BindCtx def;
	WorkRef *saved_work = cur_work;
	int rc;

	memset(&def, 0, sizeof def);
	def.session = b->session;
	def.arena = b->arena;
	def.err = b->err;
	def.sql = sql;
	def.exec = b->exec;
	cur_work = NULL;
	rc = plan_query(&def, ctx, query, out);
	cur_work = saved_work;
	return rc;
}

int
select_plan(Session *s, ExecCtx *ctx, const char *sql, Node *stmt, SelectPlan *out)
{
	BindCtx b;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = ctx->err;
	b.sql = sql;
	b.exec = ctx;
	b.used = ARENA_NEW(ctx->arena, UsedNames);
	used_walk(ctx->arena, b.used, &stmt->base, 0);
	if (stmt->node_case == PG_QUERY__NODE__NODE_EXPLAIN_STMT)
		return plan_explain(&b, ctx, stmt->explain_stmt, out);
	{
		CteCache cc = { NULL }, *saved = cte_cache;
		int rc;
		/* describing a statement (no parameter values) runs nothing */
		cte_cache = s->params_describe ? NULL : &cc;
		rc = plan_query(&b, ctx, stmt, out);
		cte_cache = saved;
		TRY(rc);
	}
	out->root = exec_parallelize(ctx, out->root);
	return FLOE_OK;
}
