/*
 * dml.c — UPDATE, DELETE and TRUNCATE on Iceberg tables, copy-on-write,
 * with PostgreSQL 15's semantics (command tags, NULL handling in WHERE,
 * assignment casts, NOT NULL checks, SQLSTATEs).
 *
 * Spec: apache/iceberg format/spec.md ("Row-level deletes" — copy-on-write
 * is the plain form: a snapshot whose manifests drop the rewritten data
 * files and add their replacements); PostgreSQL 15 docs "UPDATE",
 * "DELETE", "TRUNCATE".
 *
 * Copy-on-write plan of UPDATE / DELETE, all in ONE commit
 * (table_commit_replace):
 *
 *   for each live data file f of the current snapshot:
 *     PRUNE    skip f unread when its column bounds / null counts prove
 *              WHERE false on every row (prune(): simple comparisons)
 *     MATCH    scan f reading only the columns WHERE needs; evaluate WHERE
 *              once per row and remember the positions where it is TRUE
 *              in a bitmap (volatile functions run once per row)
 *       no match                       -> f untouched
 *       DELETE and every row matched   -> f removed, nothing written
 *     REWRITE  scan f with every column; DELETE keeps the rows not in the
 *              bitmap, UPDATE evaluates SET only on the bitmap's rows
 *              (CASE-like: SET a = 1/b WHERE b <> 0 never divides by
 *              zero) and keeps the other rows as they were; rows go to a
 *              DataWriter (one per unpartitioned spec, one per source file
 *              of a partitioned spec, which keeps that file's partition)
 *   commit: remove the matched files, add the written ones; no matched
 *   row -> no commit ("UPDATE 0").
 *
 * Without WHERE (or WHERE folded to TRUE) every row matches and MATCH is
 * skipped; WHERE folded to FALSE/NULL matches nothing and reads nothing.
 *
 * Invariants
 *   1. A failed statement commits nothing: every file it wrote is removed
 *      (unfinished writers aborted, finished ones' files deleted, and the
 *      commit's own failure leaves our data files to us to delete).
 *   2. The REWRITE pass of a file sees the rows in the MATCH pass's order
 *      (the scan is deterministic); a different row count is XX001.
 *   3. UPDATE never moves a row between partitions: SET of a partition
 *      source column is 0A000 for now.
 *
 * Write modes: write.delete.mode / write.update.mode are checked (a value
 * other than copy-on-write or merge-on-read is 22023 at DML time); both
 * run as copy-on-write in this slice (merge-on-read delete files come
 * later), which every Iceberg reader reads the same.
 *
 * RETURNING (PostgreSQL's: the post-image of updated rows, the pre-image
 * of deleted rows) is evaluated during REWRITE (a DELETE that drops a
 * whole file then reads it too), kept in the statement arena and sent
 * only after the commit succeeded, so a failed statement returns no rows.
 *
 * Uncorrelated subqueries (WHERE, SET, RETURNING) are run once while
 * binding (select_run_subquery), before any file is read.
 *
 * Memory: each file's scans live in op_arena, reset per file; the MATCH
 * bitmap (one bit per row of one file) in a per-file arena.
 *
 * Not yet (0A000): UPDATE ... FROM, DELETE ... USING, correlated
 * subqueries, WITH, WHERE CURRENT OF, tables with nested columns,
 * format-version 1 tables (upgrade to 2), SET of partition source
 * columns.  v3 row lineage is not carried over (rewritten rows get new
 * row ids).  A concurrent commit that removed a file being rewritten
 * makes the commit fail with 40001 (table_commit_replace).
 *
 * INTERFACE ROUTINES (bind.h)
 *   dml_update, dml_delete, dml_truncate
 *   dml_describe(s, ctx, sql, stmt, &ncols, &names, &types)   RETURNING's
 *       columns for the extended protocol's Describe (not yet in bind.h:
 *       engine.c's session_describe is to call it)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sql/bind.h"
#include "sql/txn.h"
#include "table/data_writer.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/cast.h"
#include "types/text.h"
#include "func/func.h"

/* One output stream of new data files. */
typedef struct Slot {
	DataWriter *w;
	const DataFile *src;     /* partitioned: the file whose partition it keeps */
	int32_t spec_id;
	bool shared;             /* unpartitioned spec: all rewritten files */
	bool finished;
	DataFile *files;
	int nfiles;
} Slot;

typedef struct Dml {
	Session *s;
	ExecCtx *ctx;
	const char *sql;
	bool update;
	Table *t;
	const IcebergSchema *schema;
	Scope scope;
	BindCtx b;
	Expr *where;             /* NULL: every row */
	Expr **set;              /* per schema field: new value or NULL */
	int *match_proj;         /* columns the MATCH pass reads */
	int nmatch_proj;
	Expr *match_where;       /* where over match_proj's columns */
	Arena *op_arena;         /* per file: the scans' state (reset per file) */
	Slot *slots;
	int nslots, cap_slots;
	const char **removed;
	int nremoved, cap_removed;
	int64_t rows;
	/* RETURNING: expressions over the table's columns, and the rows they
	 * gave, kept in the statement arena until the commit succeeds */
	Returning ret;
} Dml;

static int
unsupported(Dml *d, const char *what, int location)
{
	floe_errorf(d->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", what);
	if (location >= 0)
		floe_error_position(d->ctx->err, bind_location(&d->b, location));
	return FLOE_ERR;
}

static int
complete(ResultSink *sink, const char *tag)
{
	if (sink && sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

static void
job_id(char *buf, size_t n)
{
	snprintf(buf, n, "floe-%lx-%lx", (long)time(NULL), (long)random());
}

/* Load the target table with PostgreSQL's 42P01 message. */
static int
load_table(Session *s, ExecCtx *ctx, const char *sql, PgQuery__RangeVar *rv, Table **t)
{
	const char *ns, *name;
	BindCtx b;

	session_resolve_name(s, rv, &ns, &name);
	if (txn_table_load(s, ns, name, ctx->arena, t, ctx->err) == FLOE_OK)
		return FLOE_OK;
	if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE)) {
		floe_errorf(ctx->err, ERRCODE_UNDEFINED_TABLE, "relation \"%s%s%s\" does not exist",
			    rv->schemaname ? rv->schemaname : "",
			    rv->schemaname && rv->schemaname[0] ? "." : "", name);
		memset(&b, 0, sizeof b);
		b.sql = sql;
		floe_error_position(ctx->err, bind_location(&b, rv->location));
	}
	return FLOE_ERR;
}

/* A write-mode property must be one of Iceberg's two values. */
static int
check_mode(const TableMetadata *md, const char *key, floe_error *err)
{
	const char *v = metadata_property(md, key);

	if (!v || !strcmp(v, "copy-on-write") || !strcmp(v, "merge-on-read"))
		return FLOE_OK;
	floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
		    "invalid value for table property \"%s\": \"%s\"", key, v);
	return floe_error_hint(err, "Valid values are \"copy-on-write\" and \"merge-on-read\".");
}

/* Common start of UPDATE and DELETE: table, checks, scope, binder. */
static int
dml_begin(Dml *d, Session *s, ExecCtx *ctx, const char *sql, PgQuery__RangeVar *rv, bool update)
{
	const char *verb = update ? "UPDATE" : "DELETE";
	int i;

	memset(d, 0, sizeof *d);
	d->s = s;
	d->ctx = ctx;
	d->sql = sql;
	d->update = update;
	d->b.session = s;
	d->b.arena = ctx->arena;
	d->b.err = ctx->err;
	d->b.sql = sql;
	d->b.exec = ctx;          /* uncorrelated subqueries run once, at bind time */
	TRY(load_table(s, ctx, sql, rv, &d->t));
	d->schema = metadata_current_schema(d->t->md);
	if (d->t->md->format_version < 2) {
		floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "%s on an Iceberg format-version 1 table is not supported", verb);
		return floe_error_hint(ctx->err,
				       "Upgrade the table to format version 2: ALTER TABLE %s SET TBLPROPERTIES ('format-version' = '2').",
				       d->t->name);
	}
	TRY(check_mode(d->t->md, update ? "write.update.mode" : "write.delete.mode", ctx->err));
	for (i = 0; i < d->schema->nfields; i++)
		if (d->schema->fields[i].nested) {
			floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "%s of a table with nested columns is not supported yet", verb);
			return floe_error_detail(ctx->err, "Column \"%s\" has the nested type %s.",
						 d->schema->fields[i].name,
						 d->schema->fields[i].iceberg_type);
		}
	d->scope.ncols = d->schema->nfields;
	d->scope.names = ARENA_ARRAY(ctx->arena, char *, d->schema->nfields + 1);
	d->scope.types = ARENA_ARRAY(ctx->arena, SqlType, d->schema->nfields + 1);
	for (i = 0; i < d->schema->nfields; i++) {
		d->scope.names[i] = d->schema->fields[i].name;
		d->scope.types[i] = d->schema->fields[i].type;
	}
	d->scope.relname = rv->alias ? rv->alias->aliasname : rv->relname;
	d->b.scope = &d->scope;
	return FLOE_OK;
}

static int
bind_where(Dml *d, Node *w)
{
	if (!w)
		return FLOE_OK;
	if (w->node_case == PG_QUERY__NODE__NODE_CURRENT_OF_EXPR)
		return unsupported(d, "WHERE CURRENT OF", -1);
	d->b.allow_aggs = false;
	d->b.where = "WHERE";
	d->where = bind_coerce_bool(&d->b, bind_expr(&d->b, w), "WHERE");
	if (!d->where)
		return FLOE_ERR;
	if (d->where->kind == EXPR_CONST && !d->where->value.is_null && d->where->value.u.b)
		d->where = NULL;         /* WHERE true: every row */
	return FLOE_OK;
}

/* ---- MATCH pass -------------------------------------------------------- */

static void
mark_cols(const Expr *e, bool *used)
{
	int i;

	if (!e)
		return;
	if (e->kind == EXPR_COLREF)
		used[e->col] = true;
	for (i = 0; i < e->nargs; i++)
		mark_cols(e->args[i], used);
}

/* A copy of e with column references renumbered through map. */
static Expr *
remap(Arena *a, const Expr *e, const int *map)
{
	Expr *c = ARENA_NEW(a, Expr);
	int i;

	*c = *e;
	if (e->kind == EXPR_COLREF)
		c->col = map[e->col];
	if (e->nargs) {
		c->args = ARENA_ARRAY(a, Expr *, e->nargs);
		for (i = 0; i < e->nargs; i++)
			c->args[i] = e->args[i] ? remap(a, e->args[i], map) : NULL;
	}
	return c;
}

/* The MATCH pass reads only the columns WHERE references (at least one,
 * so batches still carry the row count). */
static void
plan_match(Dml *d)
{
	int n = d->schema->nfields, i;
	bool *used = ARENA_ARRAY(d->ctx->arena, bool, n + 1);
	int *map = ARENA_ARRAY(d->ctx->arena, int, n + 1);

	mark_cols(d->where, used);
	d->match_proj = ARENA_ARRAY(d->ctx->arena, int, n + 1);
	for (i = 0; i < n; i++)
		if (used[i]) {
			map[i] = d->nmatch_proj;
			d->match_proj[d->nmatch_proj++] = i;
		}
	if (d->nmatch_proj == 0)
		d->match_proj[d->nmatch_proj++] = 0;
	d->match_where = remap(d->ctx->arena, d->where, map);
}

static void
bits_grow(Arena *a, uint64_t **bits, size_t *words, int64_t rows)
{
	size_t need = (size_t)((rows + 63) / 64);
	size_t nw;

	if (need <= *words)
		return;
	nw = *words ? *words * 2 : 64;
	while (nw < need)
		nw *= 2;
	*bits = arena_realloc(a, *bits, *words * sizeof(uint64_t), nw * sizeof(uint64_t));
	memset(*bits + *words, 0, (nw - *words) * sizeof(uint64_t));
	*words = nw;
}

static inline bool
bit_get(const uint64_t *bits, int64_t i)
{
	return bits ? (bits[i >> 6] >> (i & 63)) & 1 : true;
}

/* Evaluate WHERE on every row of f: bitmap of TRUE rows (in fa), the
 * file's row count and the number of matches. */
static int
match_file(Dml *d, DataFile *f, Arena *fa, Arena *scratch, uint64_t **bits, int64_t *nrows,
	   int64_t *nmatch)
{
	ExecCtx *ctx = d->ctx;
	ExecCtx sctx = *ctx;     /* the scan's memory goes with op_arena */
	Operator *scan;
	size_t words = 0;
	Batch *b;
	int rc = FLOE_ERR;

	*bits = NULL;
	*nrows = 0;
	*nmatch = 0;
	sctx.arena = d->op_arena;
	scan = scan_new(&sctx, d->schema, d->nmatch_proj, d->match_proj, f, 1, false, d->t->md);
	if (op_open(scan) != FLOE_OK)
		goto out;
	for (;;) {
		Vector pv;
		VectorView v;
		uint32_t i;

		arena_reset(scratch);
		if (exec_check_cancel(ctx) != FLOE_OK || op_next(scan, &b) != FLOE_OK)
			goto out;
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		if (expr_eval(ctx, d->match_where, b, NULL, b->count, scratch, &pv) != FLOE_OK)
			goto out;
		vector_view(&pv, &v);
		for (i = 0; i < b->count; i++) {
			uint32_t k = v.sel ? v.sel[i] : i;
			if (validity_get(v.validity, k) && ((const uint8_t *)v.data)[k]) {
				int64_t pos = *nrows + i;
				bits_grow(fa, bits, &words, pos + 1);
				(*bits)[pos >> 6] |= (uint64_t)1 << (pos & 63);
				(*nmatch)++;
			}
		}
		*nrows += b->count;
	}
	if (*nmatch)
		bits_grow(fa, bits, &words, *nrows);   /* REWRITE reads every row's bit */
	rc = FLOE_OK;
out:
	op_close(scan);
	return rc;
}

/* ---- pruning by column bounds ------------------------------------------ */

/*
 * A file is skipped without being read when its column metrics prove WHERE
 * cannot be true on any of its rows: a conjunct (or every disjunct) is
 * `col op const` (=, <, <=, >, >=, either side) on an integer, date, time,
 * timestamp(tz) or text column whose bounds exclude the constant, `col IS
 * NULL` with no nulls, or any comparison on a column that is all NULL.
 * Bounds are Iceberg's single-value serialization; truncated text bounds
 * still enclose the values (lower is a prefix, upper was incremented).
 * No metrics for the column: the file is read.
 */
static const ColumnStat *
file_stat(const DataFile *f, int32_t field_id)
{
	int i;

	for (i = 0; i < f->ncolumns; i++)
		if (f->columns[i].field_id == field_id)
			return &f->columns[i];
	return NULL;
}

static bool
prunable_type(TypeId id)
{
	return type_is_integer(id) || id == TYPE_DATE || id == TYPE_TIME || id == TYPE_TIMESTAMP ||
	       id == TYPE_TIMESTAMPTZ || id == TYPE_TEXT;
}

/* A bound against a constant: <0, 0, >0; false when it cannot be decoded. */
static bool
bound_cmp(TypeId id, const uint8_t *b, uint32_t len, const Value *c, int *out)
{
	if (id == TYPE_TEXT) {
		strview bv = strview_make((const char *)b, len);
		*out = strview_cmp(&bv, &c->u.s);
		return true;
	}
	if (len == 4 || len == 8) {
		int64_t v;
		if (len == 4) {
			uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
				     (uint32_t)b[3] << 24;
			v = (int32_t)u;
		} else {
			uint64_t u = 0;
			int k;
			for (k = 7; k >= 0; k--)
				u = u << 8 | b[k];
			v = (int64_t)u;
		}
		*out = v < c->u.i ? -1 : v > c->u.i;
		return true;
	}
	return false;
}

static bool
prune_cmp(const DataFile *f, const IcebergSchema *schema, const Expr *e)
{
	const Expr *col, *k;
	const char *op = e->fn->name;
	const ColumnStat *st;
	TypeId id;
	int c;
	bool flip;

	if (e->nargs != 2 || !e->args[0] || !e->args[1])
		return false;
	flip = e->args[0]->kind == EXPR_CONST;
	col = e->args[flip ? 1 : 0];
	k = e->args[flip ? 0 : 1];
	if (col->kind != EXPR_COLREF || k->kind != EXPR_CONST)
		return false;
	id = schema->fields[col->col].type.id;
	if (!(st = file_stat(f, schema->fields[col->col].id)))
		return false;
	if (k->value.is_null)
		return true;                     /* strict comparison with NULL */
	if (st->value_count >= 0 && st->null_count == st->value_count)
		return true;                     /* all NULL */
	if (schema->fields[col->col].type.id == TYPE_TEXT &&
	    schema->fields[col->col].type.text_kind == TEXT_CHAR)
		return false;                    /* bpchar: trailing blanks do not count */
	if (!prunable_type(id) || k->type.id != id) {
		if (!(type_is_integer(id) && type_is_integer(k->type.id)))
			return false;
	}
	if (flip) {                              /* c op col  ->  col op' c */
		if (!strcmp(op, "<"))
			op = ">";
		else if (!strcmp(op, "<="))
			op = ">=";
		else if (!strcmp(op, ">"))
			op = "<";
		else if (!strcmp(op, ">="))
			op = "<=";
	}
	if (!strcmp(op, "=") || !strcmp(op, "<") || !strcmp(op, "<=")) {
		if (st->lower && bound_cmp(id, st->lower, st->lower_len, &k->value, &c)) {
			if (!strcmp(op, "<") && c >= 0)
				return true;
			if (strcmp(op, "<") && c > 0)
				return true;
		}
	}
	if (!strcmp(op, "=") || !strcmp(op, ">") || !strcmp(op, ">=")) {
		if (st->upper && bound_cmp(id, st->upper, st->upper_len, &k->value, &c)) {
			if (!strcmp(op, ">") && c <= 0)
				return true;
			if (strcmp(op, ">") && c < 0)
				return true;
		}
	}
	return false;
}

/* True when no row of f can satisfy e. */
static bool
prune(const DataFile *f, const IcebergSchema *schema, const Expr *e)
{
	const ColumnStat *st;
	int i;

	switch (e->kind) {
	case EXPR_AND:
		for (i = 0; i < e->nargs; i++)
			if (prune(f, schema, e->args[i]))
				return true;
		return false;
	case EXPR_OR:
		for (i = 0; i < e->nargs; i++)
			if (!prune(f, schema, e->args[i]))
				return false;
		return e->nargs > 0;
	case EXPR_IS_NULL:
	case EXPR_IS_NOT_NULL:
		if (e->nargs != 1 || e->args[0]->kind != EXPR_COLREF)
			return false;
		st = file_stat(f, schema->fields[e->args[0]->col].id);
		if (!st || st->null_count < 0)
			return false;
		if (e->kind == EXPR_IS_NULL)
			return st->null_count == 0;
		return st->value_count >= 0 && st->null_count == st->value_count;
	case EXPR_FUNC:
		if (e->fn && e->fn->is_operator &&
		    (!strcmp(e->fn->name, "=") || !strcmp(e->fn->name, "<") ||
		     !strcmp(e->fn->name, "<=") || !strcmp(e->fn->name, ">") ||
		     !strcmp(e->fn->name, ">=")))
			return prune_cmp(f, schema, e);
		return false;
	default:
		return false;
	}
}

/* ---- RETURNING --------------------------------------------------------- */

static bool
is_star(Node *n)
{
	PgQuery__ColumnRef *c;

	if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
		return false;
	c = n->column_ref;
	return c->n_fields > 0 &&
	       c->fields[c->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

/*
 * RETURNING's target list over a table's columns (bind.h): b->scope must
 * list the schema's fields first, in order (NULL: a scope of exactly those
 * is made, named relname).  "*" and "rel.*" expand to the schema's fields;
 * an unaliased expression is named as PostgreSQL's FigureColname does.
 */
int
dml_returning_bind(Returning *r, BindCtx *b, const IcebergSchema *schema, const char *relname,
		   Node **list, int n)
{
	int cap = n + schema->nfields * n + 1, i, k;

	memset(r, 0, sizeof *r);
	if (!b->scope) {
		Scope *sc = ARENA_NEW(b->arena, Scope);
		sc->ncols = schema->nfields;
		sc->names = ARENA_ARRAY(b->arena, char *, schema->nfields + 1);
		sc->types = ARENA_ARRAY(b->arena, SqlType, schema->nfields + 1);
		for (i = 0; i < schema->nfields; i++) {
			sc->names[i] = schema->fields[i].name;
			sc->types[i] = schema->fields[i].type;
		}
		sc->relname = (char *)relname;
		b->scope = sc;
	}
	r->exprs = ARENA_ARRAY(b->arena, Expr *, cap);
	r->names = ARENA_ARRAY(b->arena, char *, cap);
	b->allow_aggs = false;
	b->where = "RETURNING";
	for (i = 0; i < n; i++) {
		PgQuery__ResTarget *rt = list[i]->res_target;
		Expr *e;

		if (is_star(rt->val)) {
			PgQuery__ColumnRef *c = rt->val->column_ref;
			if (c->n_fields == 2 &&
			    (c->fields[0]->node_case != PG_QUERY__NODE__NODE_STRING ||
			     strcmp(c->fields[0]->string->sval, relname) != 0)) {
				floe_errorf(b->err, ERRCODE_UNDEFINED_TABLE,
					    "missing FROM-clause entry for table \"%s\"",
					    c->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING ?
					    c->fields[0]->string->sval : "?");
				floe_error_position(b->err, bind_location(b, c->location));
				return FLOE_ERR;
			}
			if (c->n_fields > 2) {
				floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					    "this RETURNING target is not supported yet");
				floe_error_position(b->err, bind_location(b, c->location));
				return FLOE_ERR;
			}
			for (k = 0; k < schema->nfields; k++) {
				r->exprs[r->n] = expr_colref(b->arena, k, schema->fields[k].type);
				r->names[r->n++] = schema->fields[k].name;
			}
			continue;
		}
		if (!(e = bind_expr(b, rt->val)))
			return FLOE_ERR;
		if ((e->unknown_literal || e->type.id == TYPE_NULL) &&
		    !(e = bind_coerce(b, e, type_make(TYPE_TEXT), COERCE_IMPLICIT, NULL)))
			return FLOE_ERR;
		r->exprs[r->n] = e;
		r->names[r->n++] = rt->name && rt->name[0] ? rt->name :
			(char *)bind_colname(rt->val);
	}
	r->types = ARENA_ARRAY(b->arena, SqlType, r->n + 1);
	for (i = 0; i < r->n; i++)
		r->types[i] = r->exprs[i]->type;
	return FLOE_OK;
}

/* Evaluate RETURNING on rows sel[0..n) of b (NULL: 0..n-1) and keep the
 * values (copied into ctx->arena, the statement's). */
int
dml_returning_rows(Returning *r, ExecCtx *ctx, const Batch *b, const uint32_t *sel, uint32_t n,
		   Arena *scratch)
{
	Arena *a = ctx->arena;
	Vector *vals;
	uint32_t j;
	int c;

	if (n == 0 || r->n == 0)
		return FLOE_OK;
	vals = ARENA_ARRAY(scratch, Vector, r->n);
	for (c = 0; c < r->n; c++)
		TRY(expr_eval(ctx, r->exprs[c], b, sel, n, scratch, &vals[c]));
	for (j = 0; j < n; j++) {
		uint32_t row = sel ? sel[j] : j;
		Batch *out = r->nbatches ? r->batches[r->nbatches - 1] : NULL;
		if (!out || out->count == VECTOR_SIZE) {
			if (r->nbatches == r->cap_batches) {
				int nc = r->cap_batches ? r->cap_batches * 2 : 8;
				r->batches = arena_realloc(a, r->batches,
							   sizeof(Batch *) * (size_t)r->cap_batches,
							   sizeof(Batch *) * (size_t)nc);
				r->cap_batches = nc;
			}
			out = batch_new(a, r->n, r->types, VECTOR_SIZE);
			r->batches[r->nbatches++] = out;
		}
		for (c = 0; c < r->n; c++) {
			Value v;
			vector_get_value(&vals[c], row, &v);
			vector_set_value(&out->cols[c], out->count, &v);
		}
		out->count++;
	}
	return FLOE_OK;
}

/* After the commit: RowDescription, the rows (the caller sends the tag). */
int
dml_returning_send(Returning *r, ExecCtx *ctx, ResultSink *sink)
{
	int i;

	if (!r->n || !sink)
		return FLOE_OK;
	if (sink->columns && sink->columns(sink->ctx, r->n, (const char *const *)r->names,
					   r->types) != 0)
		return floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED,
				   "canceling statement due to user request");
	for (i = 0; i < r->nbatches; i++)
		if (sink->batch && sink->batch(sink->ctx, r->batches[i]) != 0)
			return floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED,
					   "canceling statement due to user request");
	return FLOE_OK;
}

/* ---- REWRITE pass ------------------------------------------------------ */

static Slot *
slot_for(Dml *d, const DataFile *f, floe_error *err)
{
	const TableMetadata *md = d->t->md;
	const PartitionSpec *spec = metadata_spec_by_id(md, f->spec_id);
	bool unpart = (!spec || spec->nfields == 0) && f->npartition == 0;
	Slot *sl;
	int i;

	if (unpart)
		for (i = 0; i < d->nslots; i++)
			if (d->slots[i].shared && d->slots[i].spec_id == f->spec_id)
				return &d->slots[i];
	if (d->nslots == d->cap_slots) {
		int nc = d->cap_slots ? d->cap_slots * 2 : 8;
		d->slots = arena_realloc(d->ctx->arena, d->slots, sizeof(Slot) * (size_t)d->cap_slots,
					 sizeof(Slot) * (size_t)nc);
		d->cap_slots = nc;
	}
	sl = &d->slots[d->nslots];
	memset(sl, 0, sizeof *sl);
	sl->w = data_writer_new(d->s->engine->io, table_data_dir(d->t, d->ctx->arena), d->schema, 0,
				d->ctx->arena);
	sl->src = f;
	sl->spec_id = f->spec_id;
	sl->shared = unpart;
	d->nslots++;
	for (i = 0; i < md->nproperties; i++)   /* write.* table properties */
		if (!strncmp(md->properties[i].key, "write.", 6) &&
		    data_writer_set_property(sl->w, md->properties[i].key, md->properties[i].value,
					     err) != FLOE_OK)
			return NULL;
	return sl;
}

static void
row_detail(floe_error *err, const Batch *b, uint32_t row, Arena *a)
{
	char buf[900];
	size_t used = 0;
	int c;

	used += (size_t)snprintf(buf + used, sizeof buf - used, "Failing row contains (");
	for (c = 0; c < b->ncols && used < sizeof buf - 8; c++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[c], row, a, &len);
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%.*s", c ? ", " : "",
					 t ? (int)(len > 200 ? 200 : len) : 4, t ? t : "null");
	}
	if (used < sizeof buf - 2)
		snprintf(buf + used, sizeof buf - used, ").");
	floe_error_detail(err, "%s", buf);
}

/* UPDATE one batch: SET evaluated on the msel rows (NULL = all), other
 * rows kept; NOT NULL checked on the new values. */
static int
update_batch(Dml *d, Batch *b, const uint32_t *msel, uint32_t nm, Arena *scratch, Batch *out)
{
	ExecCtx *ctx = d->ctx;
	int c;
	uint32_t j;

	*out = *b;
	out->cols = ARENA_ARRAY(scratch, Vector, b->ncols);
	memcpy(out->cols, b->cols, sizeof(Vector) * (size_t)b->ncols);
	for (c = 0; c < b->ncols; c++) {
		Vector nv;
		if (!d->set[c])
			continue;
		TRY(expr_eval(ctx, d->set[c], b, msel, nm, scratch, &nv));
		if (!msel) {
			out->cols[c] = nv;
		} else {
			Vector m;
			vector_init(&m, d->schema->fields[c].type, scratch, b->count);
			vector_copy_rows(&m, 0, &b->cols[c], NULL, b->count);
			for (j = 0; j < nm; j++)
				vector_copy_rows(&m, msel[j], &nv, &msel[j], 1);
			out->cols[c] = m;
		}
	}
	/* row by row, columns in order: PostgreSQL reports the first row */
	for (j = 0; j < nm; j++) {
		uint32_t r = msel ? msel[j] : j;
		for (c = 0; c < b->ncols; c++) {
			if (!d->set[c] || !d->schema->fields[c].required)
				continue;
			if (!vector_is_valid(&out->cols[c], r)) {
				floe_errorf(ctx->err, ERRCODE_NOT_NULL_VIOLATION,
					    "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
					    d->schema->fields[c].name, d->t->name);
				row_detail(ctx->err, out, r, scratch);
				return FLOE_ERR;
			}
		}
	}
	return FLOE_OK;
}

/* Rewrite f: DELETE drops the bitmap's rows, UPDATE changes them. */
static int
rewrite_file(Dml *d, DataFile *f, const uint64_t *bits, int64_t nrows, Arena *scratch,
	     int64_t *changed)
{
	ExecCtx *ctx = d->ctx;
	ExecCtx sctx = *ctx;     /* the scan's memory goes with op_arena */
	int n = d->schema->nfields, i, rc = FLOE_ERR;
	int *proj = ARENA_ARRAY(d->op_arena, int, n + 1);
	Operator *scan;
	Slot *sl;
	int64_t pos = 0;
	Batch *b;
	uint32_t *sel = NULL;

	for (i = 0; i < n; i++)
		proj[i] = i;
	if (!(sl = slot_for(d, f, ctx->err)))
		return FLOE_ERR;
	sctx.arena = d->op_arena;
	scan = scan_new(&sctx, d->schema, n, proj, f, 1, false, d->t->md);
	if (op_open(scan) != FLOE_OK)
		goto out;
	for (;;) {
		uint32_t j, nsel = 0;
		Batch ob;

		arena_reset(scratch);
		if (exec_check_cancel(ctx) != FLOE_OK || op_next(scan, &b) != FLOE_OK)
			goto out;
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		if (bits && pos + b->count > nrows) {
			FLOE_CORRUPT(ctx->err, "data file \"%s\" changed while it was being rewritten",
				     f->file_path);
			goto out;
		}
		sel = ARENA_ARRAY(scratch, uint32_t, b->count);
		/* DELETE: rows to keep; UPDATE: rows to change */
		for (j = 0; j < b->count; j++)
			if (bit_get(bits, pos + j) == d->update)
				sel[nsel++] = j;
		pos += b->count;
		*changed += d->update ? nsel : b->count - nsel;
		if (!d->update && d->ret.n && nsel < b->count) {
			/* RETURNING of DELETE: the pre-image of the deleted rows */
			uint32_t *dsel = ARENA_ARRAY(scratch, uint32_t, b->count);
			uint32_t nd = 0;
			for (j = 0; j < b->count; j++)
				if (bit_get(bits, pos - b->count + j))
					dsel[nd++] = j;
			if (dml_returning_rows(&d->ret, d->ctx, b, nd == b->count ? NULL : dsel, nd, scratch) != FLOE_OK)
				goto out;
		}
		if (!d->update) {
			if (nsel == 0)
				continue;
			if (nsel < b->count) {
				b->sel = sel;
				b->count = nsel;
				batch_compact(b);
			}
			ob = *b;
		} else if (nsel == 0) {
			ob = *b;
		} else if (update_batch(d, b, nsel == b->count ? NULL : sel, nsel, scratch,
					&ob) != FLOE_OK ||
			   (d->ret.n && dml_returning_rows(&d->ret, d->ctx, &ob,
							  nsel == b->count ? NULL : sel, nsel,
							  scratch) != FLOE_OK)) {
			goto out;   /* RETURNING of UPDATE: the post-image */
		}
		batch_compact(&ob);
		if (data_writer_write(sl->w, &ob, ctx->err) != FLOE_OK)
			goto out;
	}
	if (bits && pos != nrows) {
		FLOE_CORRUPT(ctx->err, "data file \"%s\" changed while it was being rewritten",
			     f->file_path);
		goto out;
	}
	rc = FLOE_OK;
out:
	op_close(scan);
	return rc;
}

static void
add_removed(Dml *d, const char *path)
{
	if (d->nremoved == d->cap_removed) {
		int nc = d->cap_removed ? d->cap_removed * 2 : 16;
		d->removed = arena_realloc(d->ctx->arena, d->removed,
					   sizeof(char *) * (size_t)d->cap_removed,
					   sizeof(char *) * (size_t)nc);
		d->cap_removed = nc;
	}
	d->removed[d->nremoved++] = path;
}

/* Invariant 1: remove everything this statement wrote. */
static void
cleanup(Dml *d)
{
	int i, k;
	floe_error ignore;

	for (i = 0; i < d->nslots; i++) {
		Slot *sl = &d->slots[i];
		if (!sl->finished)
			data_writer_abort(sl->w);
		else
			for (k = 0; k < sl->nfiles; k++)
				fileio_remove(d->s->engine->io, sl->files[k].file_path, &ignore);
		data_writer_free(sl->w);
	}
	d->nslots = 0;
}

/* MATCH + REWRITE over every live file, then one commit. */
static int
dml_run(Dml *d)
{
	ExecCtx *ctx = d->ctx;
	Engine *e = d->s->engine;
	DataFile *files, *added;
	int nfiles, i, k, nadded = 0;
	Arena *fa = NULL, *scratch = NULL;
	bool none = false;
	Table *out;
	char job[64];

	if (d->where && d->where->kind == EXPR_CONST)
		none = true;             /* WHERE false / NULL (true became NULL) */
	TRY(table_scan_files(e->io, d->t, -1, ctx->arena, &files, &nfiles, ctx->err));
	if (none || nfiles == 0)
		return FLOE_OK;
	if (d->where)
		plan_match(d);
	fa = arena_new(64 * 1024);
	scratch = arena_new(256 * 1024);
	d->op_arena = arena_new(16 * 1024);
	for (i = 0; i < nfiles; i++) {
		DataFile *f = &files[i];
		uint64_t *bits = NULL;
		int64_t nrows = f->record_count, nmatch = f->record_count;

		arena_reset(fa);
		arena_reset(d->op_arena);   /* frees the previous file's scans */
		if (d->where) {
			if (prune(f, d->schema, d->where))
				continue;
			if (match_file(d, f, fa, scratch, &bits, &nrows, &nmatch) != FLOE_OK)
				goto fail;
			if (nmatch == 0)
				continue;
			if (nmatch == nrows)
				bits = NULL;    /* every row */
		}
		if (d->update || bits || d->ret.n) {
			nmatch = 0;
			if (rewrite_file(d, f, bits, nrows, scratch, &nmatch) != FLOE_OK)
				goto fail;
		}
		d->rows += nmatch;
		add_removed(d, f->file_path);
	}
	arena_free(fa);
	arena_free(scratch);
	arena_free(d->op_arena);
	fa = scratch = NULL;
	d->op_arena = NULL;
	if (d->nremoved == 0)
		return FLOE_OK;

	for (i = 0; i < d->nslots; i++) {
		Slot *sl = &d->slots[i];
		if (data_writer_finish(sl->w, &sl->files, &sl->nfiles, ctx->err) != FLOE_OK)
			goto fail;
		sl->finished = true;
		for (k = 0; k < sl->nfiles; k++) {
			sl->files[k].spec_id = sl->spec_id;
			if (!sl->shared) {
				sl->files[k].npartition = sl->src->npartition;
				sl->files[k].partition = sl->src->partition;
			}
		}
		nadded += sl->nfiles;
	}
	added = ARENA_ARRAY(ctx->arena, DataFile, nadded + 1);
	nadded = 0;
	for (i = 0; i < d->nslots; i++)
		for (k = 0; k < d->slots[i].nfiles; k++)
			added[nadded++] = d->slots[i].files[k];
	job_id(job, sizeof job);
	{
		TableChange ch;
		memset(&ch, 0, sizeof ch);
		ch.remove = (const char *const *)d->removed;
		ch.nremove = d->nremoved;
		ch.add = added;
		ch.nadd = nadded;
		ch.job_id = job;
		if (txn_commit(d->s, d->t, &ch, ctx->arena, &out, ctx->err) != FLOE_OK)
			goto fail;
	}
	for (i = 0; i < d->nslots; i++)
		data_writer_free(d->slots[i].w);
	d->nslots = 0;
	return FLOE_OK;
fail:
	if (fa)
		arena_free(fa);
	if (scratch)
		arena_free(scratch);
	if (d->op_arena)
		arena_free(d->op_arena);
	d->op_arena = NULL;
	{
		floe_error keep = *ctx->err;
		cleanup(d);
		*ctx->err = keep;
	}
	return FLOE_ERR;
}

/* ---- UPDATE ------------------------------------------------------------ */

static int
find_column(Dml *d, const char *name)
{
	int i;

	for (i = 0; i < d->schema->nfields; i++)
		if (!strcmp(d->schema->fields[i].name, name))
			return i;
	return -1;
}

/* Is column c the source of a partition field of any spec? */
static bool
is_partition_source(const TableMetadata *md, int32_t field_id)
{
	int i, k;

	for (i = 0; i < md->nspecs; i++)
		for (k = 0; k < md->specs[i].nfields; k++)
			if (md->specs[i].fields[k].source_id == field_id)
				return true;
	return false;
}

/* The value expression of SET target rt (MultiAssignRef: one element of a
 * (a, b) = (x, y) row). */
static int
set_value(Dml *d, PgQuery__ResTarget *rt, Node **val)
{
	Node *v = rt->val;

	if (v && v->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF) {
		PgQuery__MultiAssignRef *m = v->multi_assign_ref;
		Node *src = m->source;
		size_t nargs;
		Node **args;

		if (src && src->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
			nargs = src->row_expr->n_args;
			args = src->row_expr->args;
		} else if (src && src->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
			return unsupported(d, "UPDATE ... SET (...) = (SELECT ...)", rt->location);
		} else {
			return unsupported(d, "this form of multiple-column UPDATE", rt->location);
		}
		if ((int)nargs != m->ncolumns || m->colno < 1 || m->colno > (int)nargs) {
			floe_errorf(d->ctx->err, ERRCODE_SYNTAX_ERROR,
				    "number of columns does not match number of values");
			floe_error_position(d->ctx->err, bind_location(&d->b, rt->location));
			return FLOE_ERR;
		}
		v = args[m->colno - 1];
	}
	*val = v;
	return FLOE_OK;
}

/* Bind an UPDATE: table, WHERE, SET, RETURNING (nothing is read). */
static int
update_bind(Dml *d, Session *s, ExecCtx *ctx, const char *sql, PgQuery__UpdateStmt *st)
{
	int i, c;

	if (st->with_clause)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "WITH is not supported yet in UPDATE");
	TRY(dml_begin(d, s, ctx, sql, st->relation, true));
	if (st->n_from_clause)
		return unsupported(d, "UPDATE ... FROM", -1);
	TRY(bind_where(d, st->where_clause));

	d->set = ARENA_ARRAY(ctx->arena, Expr *, d->schema->nfields + 1);
	d->b.allow_aggs = false;
	d->b.where = "UPDATE";
	for (i = 0; i < (int)st->n_target_list; i++) {
		PgQuery__ResTarget *rt = st->target_list[i]->res_target;
		const IcebergField *f;
		Node *val;
		Expr *x;

		c = find_column(d, rt->name);
		if (c < 0) {
			floe_errorf(ctx->err, ERRCODE_UNDEFINED_COLUMN,
				    "column \"%s\" of relation \"%s\" does not exist", rt->name,
				    d->t->name);
			floe_error_position(ctx->err, bind_location(&d->b, rt->location));
			return FLOE_ERR;
		}
		f = &d->schema->fields[c];
		if (rt->n_indirection)
			return unsupported(d, "assignment to a subfield or array element", rt->location);
		if (d->set[c]) {
			floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
				    "multiple assignments to same column \"%s\"", rt->name);
			floe_error_position(ctx->err, bind_location(&d->b, rt->location));
			return FLOE_ERR;
		}
		if (is_partition_source(d->t->md, f->id))
			return unsupported(d, "UPDATE of a partition source column", rt->location);
		TRY(set_value(d, rt, &val));
		if (val && val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) {
			if (!(x = bind_default_expr(&d->b, f)))
				return FLOE_ERR;
		} else if (!(x = bind_expr(&d->b, val)) || !(x = bind_coerce_column(&d->b, x, f))) {
			return FLOE_ERR;
		}
		d->set[c] = x;
	}
	if (st->n_returning_list)
		TRY(dml_returning_bind(&d->ret, &d->b, d->schema, d->scope.relname, st->returning_list,
					 (int)st->n_returning_list));
	return FLOE_OK;
}

int
dml_update(Session *s, ExecCtx *ctx, const char *sql, PgQuery__UpdateStmt *st, ResultSink *sink)
{
	Dml d;
	char tag[64];

	TRY(update_bind(&d, s, ctx, sql, st));
	TRY(dml_run(&d));
	TRY(dml_returning_send(&d.ret, ctx, sink));
	snprintf(tag, sizeof tag, "UPDATE %lld", (long long)d.rows);
	return complete(sink, tag);
}

/* ---- DELETE ------------------------------------------------------------ */

static int
delete_bind(Dml *d, Session *s, ExecCtx *ctx, const char *sql, PgQuery__DeleteStmt *st)
{
	if (st->with_clause)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "WITH is not supported yet in DELETE");
	TRY(dml_begin(d, s, ctx, sql, st->relation, false));
	if (st->n_using_clause)
		return unsupported(d, "DELETE ... USING", -1);
	TRY(bind_where(d, st->where_clause));
	if (st->n_returning_list)
		TRY(dml_returning_bind(&d->ret, &d->b, d->schema, d->scope.relname, st->returning_list,
					 (int)st->n_returning_list));
	return FLOE_OK;
}

int
dml_delete(Session *s, ExecCtx *ctx, const char *sql, PgQuery__DeleteStmt *st, ResultSink *sink)
{
	Dml d;
	char tag[64];

	TRY(delete_bind(&d, s, ctx, sql, st));
	TRY(dml_run(&d));
	TRY(dml_returning_send(&d.ret, ctx, sink));
	snprintf(tag, sizeof tag, "DELETE %lld", (long long)d.rows);
	return complete(sink, tag);
}

/* ---- Describe (extended protocol) -------------------------------------- */

/*
 * The result columns of an UPDATE / DELETE without running it: bound as
 * dml_update / dml_delete bind it (errors included), nothing read.
 * *ncols = -1 when the statement returns no rows (no RETURNING, TRUNCATE,
 * any other statement).  names and types live in ctx->arena.
 */
int
dml_describe(Session *s, ExecCtx *ctx, const char *sql, Node *stmt, int *ncols, char ***names,
	     SqlType **types)
{
	Dml d;

	*ncols = -1;
	*names = NULL;
	*types = NULL;
	if (stmt->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT) {
		if (!stmt->update_stmt->n_returning_list)
			return FLOE_OK;
		TRY(update_bind(&d, s, ctx, sql, stmt->update_stmt));
	} else if (stmt->node_case == PG_QUERY__NODE__NODE_DELETE_STMT) {
		if (!stmt->delete_stmt->n_returning_list)
			return FLOE_OK;
		TRY(delete_bind(&d, s, ctx, sql, stmt->delete_stmt));
	} else if (stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT) {
		if (!stmt->insert_stmt->n_returning_list)
			return FLOE_OK;
		TRY(insert_describe(s, ctx, sql, stmt->insert_stmt, &d.ret));
	} else {
		return FLOE_OK;
	}
	*ncols = d.ret.n;
	*names = d.ret.names;
	*types = d.ret.types;
	return FLOE_OK;
}

/* ---- TRUNCATE ---------------------------------------------------------- */

/*
 * TRUNCATE [TABLE] [ONLY] t [, ...] [RESTART IDENTITY | CONTINUE IDENTITY]
 * [CASCADE | RESTRICT]: every table is loaded first (so a missing one
 * changes nothing), then each gets one metadata-only commit removing all
 * its live data files (an empty snapshot, no scan).  floe tables have no
 * sequences or foreign keys, so the options change nothing, as for a
 * plain PostgreSQL table.  Several tables commit one after the other: not
 * atomic across tables.
 */
int
dml_truncate(Session *s, ExecCtx *ctx, const char *sql, PgQuery__TruncateStmt *st, ResultSink *sink)
{
	Table **ts = ARENA_ARRAY(ctx->arena, Table *, st->n_relations + 1);
	int i;
	char job[64];

	for (i = 0; i < (int)st->n_relations; i++) {
		Node *n = st->relations[i];
		if (n->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
			return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "this TRUNCATE target is not supported");
		TRY(load_table(s, ctx, sql, n->range_var, &ts[i]));
		if (ts[i]->md->format_version < 2) {
			floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "TRUNCATE on an Iceberg format-version 1 table is not supported");
			return floe_error_hint(ctx->err,
					       "Upgrade the table to format version 2: ALTER TABLE %s SET TBLPROPERTIES ('format-version' = '2').",
					       ts[i]->name);
		}
	}
	for (i = 0; i < (int)st->n_relations; i++) {
		Table *out;
		int j;
		bool dup = false;
		for (j = 0; j < i; j++)
			if (!strcmp(ts[j]->ns, ts[i]->ns) && !strcmp(ts[j]->name, ts[i]->name))
				dup = true;
		if (dup || !ts[i]->md->has_current_snapshot)
			continue;           /* never written, or named twice: nothing to do */
		job_id(job, sizeof job);
		{
			TableChange ch;
			memset(&ch, 0, sizeof ch);
			ch.remove_all = true;
			ch.job_id = job;
			TRY(txn_commit(s, ts[i], &ch, ctx->arena, &out, ctx->err));
		}
	}
	return complete(sink, "TRUNCATE TABLE");
}
