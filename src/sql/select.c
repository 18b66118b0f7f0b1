/*
 * select.c — SELECT and VALUES: binding and planning into an Operator tree.
 *
 * Plan shape (each step only when the query needs it):
 *
 *   source (table scan | VALUES | function | subquery | one empty row)
 *     -> Filter(WHERE) -> HashAggregate(GROUP BY, aggregates)
 *     -> Filter(HAVING) -> Project(select list + hidden ORDER BY keys)
 *     -> HashAggregate(DISTINCT) -> Sort(ORDER BY) -> Limit
 *     -> Project(drop hidden keys)
 *
 * Aggregated queries: targets, HAVING and ORDER BY are bound over the
 * source with aggregates collected; then every subtree equal to a GROUP BY
 * expression becomes a reference to that key and every aggregate a
 * reference to its result; a source column left over is PostgreSQL's
 * 42803 "must appear in the GROUP BY clause".
 *
 * Not yet (0A000): joins, several FROM items, set operations, WITH,
 * DISTINCT ON, window functions, subqueries in expressions.
 *
 * INTERFACE ROUTINES (bind.h)
 *   select_plan(session, ctx, sql, stmt, &plan)
 *   session_resolve_name(session, rangevar, &ns, &name)
 */
#include <string.h>
#include <unistd.h>
#include "format/parquet/parquet.h"
#include "func/func.h"
#include "sql/bind.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/cast.h"

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
	*ns = rv->schemaname && rv->schemaname[0] ? rv->schemaname : s->search_path;
	*name = rv->relname;
}

/* ---- FROM items -------------------------------------------------------- */

typedef struct Source {
	Operator *op;
	Scope scope;
} Source;

static int plan_query(BindCtx *b, ExecCtx *ctx, Node *stmt, SelectPlan *out);

static void
apply_alias(BindCtx *b, Source *src, PgQuery__Alias *alias)
{
	size_t i;

	if (!alias)
		return;
	src->scope.relname = alias->aliasname;
	for (i = 0; i < alias->n_colnames && (int)i < src->scope.ncols; i++)
		src->scope.names[i] = alias->colnames[i]->string->sval;
	(void)b;
}

static int
source_table(BindCtx *b, ExecCtx *ctx, PgQuery__RangeVar *rv, Source *src)
{
	const char *ns, *name;
	Table *t;
	const IcebergSchema *schema;
	DataFile *files;
	int nfiles, i;
	int *proj;
	Engine *e = b->session->engine;

	session_resolve_name(b->session, rv, &ns, &name);
	if (table_load(e->catalog, e->io, ns, name, b->arena, &t, b->err) != FLOE_OK) {
		if (floe_error_is(b->err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(b->err, ERRCODE_UNDEFINED_TABLE, "relation \"%s%s%s\" does not exist",
				    rv->schemaname ? rv->schemaname : "", rv->schemaname && rv->schemaname[0] ? "." : "",
				    name);
		floe_error_position(b->err, bind_location(b, rv->location));
		return FLOE_ERR;
	}
	schema = metadata_current_schema(t->md);
	TRY(table_scan_files(e->io, t, -1, b->arena, &files, &nfiles, b->err));
	proj = ARENA_ARRAY(b->arena, int, schema->nfields + 1);
	src->scope.ncols = schema->nfields;
	src->scope.names = ARENA_ARRAY(b->arena, char *, schema->nfields + 1);
	src->scope.types = ARENA_ARRAY(b->arena, SqlType, schema->nfields + 1);
	src->scope.nested = ARENA_ARRAY(b->arena, char *, schema->nfields + 1);
	for (i = 0; i < schema->nfields; i++) {
		proj[i] = i;
		src->scope.names[i] = schema->fields[i].name;
		src->scope.types[i] = schema->fields[i].type;
		if (schema->fields[i].nested) {
			src->scope.types[i] = type_make(TYPE_NULL);
			src->scope.nested[i] = schema->fields[i].iceberg_type;
		}
	}
	src->scope.relname = rv->relname;
	/* nested columns are skipped in the scan: they read as NULL for now */
	src->op = scan_new(ctx, schema, schema->nfields, proj, files, nfiles, false, t->md);
	apply_alias(b, src, rv->alias);
	return FLOE_OK;
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
	return expr_eval_const(e, b->arena, out, b->err);
}

static int
source_function(BindCtx *b, ExecCtx *ctx, PgQuery__RangeFunction *rf, Source *src)
{
	PgQuery__FuncCall *f;
	const char *name;
	Node *fn;

	if (rf->n_functions != 1 || rf->is_rowsfrom || rf->ordinality || rf->lateral)
		return unsupported(b, "ROWS FROM / WITH ORDINALITY / LATERAL", -1);
	fn = rf->functions[0]->list->items[0];
	if (fn->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
		return unsupported(b, "this FROM function", -1);
	f = fn->func_call;
	name = f->funcname[f->n_funcname - 1]->string->sval;
	if (!strcmp(name, "generate_series")) {
		Expr *args[3];
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
		for (i = 0; i < 2; i++)
			if (!(args[i] = bind_coerce(b, args[i], t, 0, NULL)) ||
			    expr_eval_const(args[i], b->arena, &v[i], b->err) != FLOE_OK)
				return FLOE_ERR;
		if (f->n_args == 3) {
			SqlType st = (t.id == TYPE_TIMESTAMP || t.id == TYPE_TIMESTAMPTZ) ?
				type_make(TYPE_INTERVAL) : t;
			if (!(args[2] = bind_coerce(b, args[2], st, 0, NULL)) ||
			    expr_eval_const(args[2], b->arena, &v[2], b->err) != FLOE_OK)
				return FLOE_ERR;
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
		src->scope.ncols = 1;
		src->scope.names = ARENA_ARRAY(b->arena, char *, 1);
		src->scope.types = ARENA_ARRAY(b->arena, SqlType, 1);
		src->scope.names[0] = "generate_series";
		src->scope.types[0] = t;
		src->scope.relname = "generate_series";
		if (rf->alias && rf->alias->n_colnames == 0) {
			/* PostgreSQL names a scalar function's column after the alias */
			src->scope.names[0] = rf->alias->aliasname;
		}
		apply_alias(b, src, rf->alias);
		return FLOE_OK;
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
		if (file->file_path[0] != '/' && !strstr(file->file_path, "://")) {
			/* a relative path is the user's: resolve it against the
			 * process's working directory, not the warehouse */
			char cwd[4096];
			if (getcwd(cwd, sizeof cwd))
				file->file_path = arena_sprintf(b->arena, "%s/%s", cwd, file->file_path);
		}
		file->file_format = "PARQUET";
		TRY(fileio_read(e->io, file->file_path, b->arena, &data, &len, b->err));
		TRY(parquet_open(&pf, data, len, file->file_path, b->arena, b->err));
		nc = parquet_num_columns(pf);
		schema = ARENA_NEW(b->arena, IcebergSchema);
		schema->fields = ARENA_ARRAY(b->arena, IcebergField, nc + 1);
		schema->nfields = nc;
		proj = ARENA_ARRAY(b->arena, int, nc + 1);
		for (i = 0; i < nc; i++) {
			const ParquetColumn *pc = parquet_column(pf, i);
			if (pc->nested || pc->type.id == TYPE_NULL)
				return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "nested Parquet columns are not supported yet: %s (in %s)",
						   pc->name, file->file_path);
			schema->fields[i].id = -1;
			schema->fields[i].name = arena_strdup(b->arena, pc->name);
			schema->fields[i].type = pc->type;
			proj[i] = i;
		}
		src->op = scan_new(ctx, schema, nc, proj, file, 1, true, NULL);
		src->scope.ncols = nc;
		src->scope.names = ARENA_ARRAY(b->arena, char *, nc + 1);
		src->scope.types = ARENA_ARRAY(b->arena, SqlType, nc + 1);
		for (i = 0; i < nc; i++) {
			src->scope.names[i] = schema->fields[i].name;
			src->scope.types[i] = schema->fields[i].type;
		}
		src->scope.relname = "read_parquet";
		apply_alias(b, src, rf->alias);
		return FLOE_OK;
	}
	floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist", name);
	floe_error_position(b->err, bind_location(b, f->location));
	return FLOE_ERR;
}

static int
source_for(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, Source *src)
{
	Node *item;

	memset(src, 0, sizeof *src);
	if (s->n_from_clause == 0) {
		static Expr **empty_row;
		Expr ***rows = ARENA_ARRAY(b->arena, Expr **, 1);
		rows[0] = empty_row;
		src->op = values_new(ctx, 0, NULL, 1, rows);
		return FLOE_OK;
	}
	if (s->n_from_clause > 1)
		return unsupported(b, "a FROM list with several items (joins)", -1);
	item = s->from_clause[0];
	switch (item->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
		return source_table(b, ctx, item->range_var, src);
	case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
		return source_function(b, ctx, item->range_function, src);
	case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: {
		SelectPlan sub;
		PgQuery__RangeSubselect *rs = item->range_subselect;
		if (rs->lateral)
			return unsupported(b, "LATERAL", -1);
		TRY(plan_query(b, ctx, rs->subquery, &sub));
		src->op = sub.root;
		src->scope.ncols = sub.ncols;
		src->scope.names = sub.names;
		src->scope.types = sub.types;
		src->scope.relname = rs->alias ? rs->alias->aliasname : NULL;
		apply_alias(b, src, rs->alias);
		return FLOE_OK;
	}
	case PG_QUERY__NODE__NODE_JOIN_EXPR:
		return unsupported(b, "JOIN", -1);
	default:
		return unsupported(b, "this FROM item", -1);
	}
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
	out->root = values_new(ctx, ncols, out->types, nrows, rows);
	return FLOE_OK;
}

/* ---- aggregation rewrite ---------------------------------------------- */

typedef struct AggRewrite {
	BindCtx *b;
	int nkeys;
	Expr **keys;
	Scope *scope;
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
	if (e->kind == EXPR_COLREF) {
		const char *rel = rw->scope->relname;
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

/* ---- SELECT ------------------------------------------------------------ */

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
	TRY(expr_eval_const(e, b->arena, &v, b->err));
	if (v.is_null)
		return FLOE_OK;
	if (v.u.i < 0)
		return floe_errorf(b->err, code, "%s must not be negative", what);
	*out = v.u.i;
	return FLOE_OK;
}

static int
plan_select(BindCtx *b, ExecCtx *ctx, PgQuery__SelectStmt *s, SelectPlan *out)
{
	Source src;
	Operator *op;
	Expr **targets;
	char **names;
	int ntargets = 0, cap, i, k;
	Expr *where = NULL, *having = NULL;
	Expr **keys = NULL;
	int nkeys = 0;
	bool aggregated;
	SortKey *sort = NULL;
	int nsort = 0, nvisible;
	int64_t limit = -1, offset = 0;
	bool distinct = s->n_distinct_clause > 0;

	if (s->with_clause)
		return unsupported(b, "WITH", -1);
	if (s->n_window_clause)
		return unsupported(b, "WINDOW", -1);
	if (s->n_locking_clause)
		return unsupported(b, "FOR UPDATE/SHARE", -1);
	if (s->into_clause)
		return unsupported(b, "SELECT INTO", -1);
	if (distinct && !(s->n_distinct_clause == 1 && (s->distinct_clause[0] == NULL ||
			 s->distinct_clause[0]->node_case == PG_QUERY__NODE__NODE__NOT_SET)))
		return unsupported(b, "DISTINCT ON", -1);
	if (s->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES)
		return unsupported(b, "FETCH ... WITH TIES", -1);

	TRY(source_for(b, ctx, s, &src));
	b->scope = &src.scope;
	op = src.op;

	/* WHERE */
	if (s->where_clause) {
		b->allow_aggs = false;
		b->where = "WHERE";
		where = bind_coerce_bool(b, bind_expr(b, s->where_clause), "WHERE");
		if (!where)
			return FLOE_ERR;
	}

	/* select list (aggregates allowed) */
	cap = (int)s->n_target_list + src.scope.ncols + (int)s->n_sort_clause + 1;
	targets = ARENA_ARRAY(b->arena, Expr *, cap);
	names = ARENA_ARRAY(b->arena, char *, cap);
	b->allow_aggs = true;
	b->where = "this context";
	for (i = 0; i < (int)s->n_target_list; i++) {
		PgQuery__ResTarget *rt = s->target_list[i]->res_target;
		if (is_star(rt->val)) {
			PgQuery__ColumnRef *c = rt->val->column_ref;
			if (c->n_fields == 2 && (!src.scope.relname ||
			    strcmp(c->fields[0]->string->sval, src.scope.relname) != 0)) {
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
				if (src.scope.nested && src.scope.nested[k]) {
					floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						    "column \"%s\" has the nested type %s, which floe cannot read yet",
						    src.scope.names[k], src.scope.nested[k]);
					floe_error_position(b->err, bind_location(b, c->location));
					return FLOE_ERR;
				}
				targets[ntargets] = expr_colref(b->arena, k, src.scope.types[k]);
				names[ntargets++] = src.scope.names[k];
			}
			continue;
		}
		if (!(targets[ntargets] = bind_expr(b, rt->val)))
			return FLOE_ERR;
		if (targets[ntargets]->unknown_literal || targets[ntargets]->type.id == TYPE_NULL) {
			/* an unknown-typed output column resolves to text */
			if (!(targets[ntargets] = bind_coerce(b, targets[ntargets], type_make(TYPE_TEXT), 0, NULL)))
				return FLOE_ERR;
		}
		names[ntargets++] = rt->name && rt->name[0] ? rt->name : (char *)bind_colname(rt->val);
	}
	nvisible = ntargets;

	/* GROUP BY */
	if (s->n_group_clause) {
		keys = ARENA_ARRAY(b->arena, Expr *, s->n_group_clause);
		b->allow_aggs = false;
		b->where = "GROUP BY";
		for (i = 0; i < (int)s->n_group_clause; i++) {
			Node *g = s->group_clause[i];
			Expr *e = NULL;
			if (g->node_case == PG_QUERY__NODE__NODE_A_CONST &&
			    g->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
				int pos = g->a_const->ival->ival;
				if (pos < 1 || pos > nvisible) {
					floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
						    "GROUP BY position %d is not in select list", pos);
					floe_error_position(b->err, bind_location(b, g->a_const->location));
					return FLOE_ERR;
				}
				e = targets[pos - 1];
			} else if (g->node_case == PG_QUERY__NODE__NODE_GROUPING_SET ||
				   g->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
				return unsupported(b, "GROUPING SETS/ROLLUP/CUBE", -1);
			} else {
				/* a bare name that is an output alias but not a source column */
				if (g->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
				    g->column_ref->n_fields == 1 &&
				    g->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
					const char *nm = g->column_ref->fields[0]->string->sval;
					bool in_src = false;
					for (k = 0; k < src.scope.ncols; k++)
						if (!strcmp(src.scope.names[k], nm))
							in_src = true;
					for (k = 0; !in_src && k < nvisible; k++)
						if (!strcmp(names[k], nm))
							e = targets[k];
				}
				if (!e && !(e = bind_expr(b, g)))
					return FLOE_ERR;
			}
			if (e->kind == EXPR_AGGREF || (e->nargs && b->naggs && expr_has_colref(e) && 0)) {
				floe_errorf(b->err, ERRCODE_GROUPING_ERROR,
					    "aggregate functions are not allowed in GROUP BY");
				return FLOE_ERR;
			}
			if (e->unknown_literal && !(e = bind_coerce(b, e, type_make(TYPE_TEXT), 0, NULL)))
				return FLOE_ERR;
			keys[nkeys++] = e;
		}
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
		for (i = 0; i < (int)s->n_sort_clause; i++) {
			PgQuery__SortBy *sb = s->sort_clause[i]->sort_by;
			Node *n = sb->node;
			int col = -1;

			if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING)
				return unsupported(b, "ORDER BY ... USING", -1);
			if (n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
			    n->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
				int pos = n->a_const->ival->ival;
				if (pos < 1 || pos > nvisible) {
					floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
						    "ORDER BY position %d is not in select list", pos);
					floe_error_position(b->err, bind_location(b, n->a_const->location));
					return FLOE_ERR;
				}
				col = pos - 1;
			} else if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
				   n->column_ref->n_fields == 1 &&
				   n->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
				const char *nm = n->column_ref->fields[0]->string->sval;
				int hits = 0;
				for (k = 0; k < nvisible; k++)
					if (!strcmp(names[k], nm)) {
						if (hits++ == 0)
							col = k;
						else if (!expr_equal(targets[k], targets[col])) {
							floe_errorf(b->err, ERRCODE_AMBIGUOUS_COLUMN,
								    "ORDER BY \"%s\" is ambiguous", nm);
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
				for (k = 0; k < ntargets; k++)
					if (expr_equal(targets[k], e)) {
						col = k;
						break;
					}
				if (col < 0) {
					if (distinct) {
						floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
							    "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
						floe_error_position(b->err, bind_location(b, sb->location));
						return FLOE_ERR;
					}
					targets[ntargets] = e;
					names[ntargets] = "?sort?";
					col = ntargets++;
				}
			}
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
	}

	TRY(limit_value(b, s->limit_count, "LIMIT", ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, &limit));
	TRY(limit_value(b, s->limit_offset, "OFFSET", ERRCODE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE,
			&offset));
	if (s->limit_count && limit < 0 && s->limit_count->node_case == PG_QUERY__NODE__NODE_A_CONST &&
	    s->limit_count->a_const->isnull)
		limit = -1;

	/* plan */
	if (where)
		op = filter_new(ctx, op, where);
	aggregated = nkeys > 0 || b->naggs > 0;
	if (aggregated) {
		AggRewrite rw = { b, nkeys, keys, &src.scope };
		op = hash_agg_new(ctx, op, nkeys, keys, b->naggs, b->aggs, nkeys == 0);
		for (i = 0; i < ntargets; i++)
			if (!(targets[i] = rewrite_agg(&rw, targets[i])))
				return FLOE_ERR;
		if (having) {
			if (!(having = rewrite_agg(&rw, having)))
				return FLOE_ERR;
			op = filter_new(ctx, op, having);
		}
	} else if (having) {
		/* HAVING without GROUP BY or aggregates: one group of all rows */
		op = hash_agg_new(ctx, op, 0, NULL, 0, NULL, true);
		if (expr_has_colref(having)) {
			AggRewrite rw = { b, 0, NULL, &src.scope };
			if (!rewrite_agg(&rw, having))
				return FLOE_ERR;
		}
		op = filter_new(ctx, op, having);
	}
	op = project_new(ctx, op, ntargets, targets);
	if (distinct) {
		Expr **dk = ARENA_ARRAY(b->arena, Expr *, ntargets + 1);
		for (i = 0; i < ntargets; i++)
			dk[i] = expr_colref(b->arena, i, targets[i]->type);
		op = hash_agg_new(ctx, op, ntargets, dk, 0, NULL, false);
	}
	if (nsort)
		op = sort_new(ctx, op, nsort, sort);
	if (limit >= 0 || offset > 0)
		op = limit_new(ctx, op, limit, offset);
	if (ntargets > nvisible) {
		Expr **vis = ARENA_ARRAY(b->arena, Expr *, nvisible + 1);
		for (i = 0; i < nvisible; i++)
			vis[i] = expr_colref(b->arena, i, targets[i]->type);
		op = project_new(ctx, op, nvisible, vis);
	}
	out->root = op;
	out->ncols = nvisible;
	out->names = names;
	out->types = ARENA_ARRAY(b->arena, SqlType, nvisible + 1);
	for (i = 0; i < nvisible; i++)
		out->types[i] = targets[i]->type;
	return FLOE_OK;
}

static int
plan_query(BindCtx *parent, ExecCtx *ctx, Node *stmt, SelectPlan *out)
{
	PgQuery__SelectStmt *s;
	BindCtx b;

	if (stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return floe_errorf(parent->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "this kind of subquery is not supported yet");
	s = stmt->select_stmt;
	memset(&b, 0, sizeof b);
	b.session = parent->session;
	b.arena = parent->arena;
	b.err = parent->err;
	b.sql = parent->sql;
	if (s->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
		return unsupported(&b, "UNION/INTERSECT/EXCEPT", -1);
	if (s->n_values_lists) {
		if (s->n_sort_clause || s->limit_count || s->limit_offset)
			return unsupported(&b, "ORDER BY/LIMIT on a bare VALUES list", -1);
		return plan_values(&b, ctx, s, out);
	}
	return plan_select(&b, ctx, s, out);
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
	return plan_query(&b, ctx, stmt, out);
}
