/*
 * dml.c — UPDATE [... FROM], DELETE [... USING] and TRUNCATE on Iceberg
 * tables, copy-on-write or merge-on-read, with PostgreSQL 15's semantics
 * (command tags, NULL handling in WHERE, assignment casts, NOT NULL checks,
 * SQLSTATEs).
 *
 * Spec: apache/iceberg format/spec.md ("Row-level deletes" — copy-on-write
 * is the plain form: a snapshot whose manifests drop the rewritten data
 * files and add their replacements); PostgreSQL 15 docs "UPDATE",
 * "DELETE", "TRUNCATE".
 *
 * Copy-on-write plan of a plain UPDATE / DELETE (no FROM / USING), all in
 * ONE commit (txn_commit):
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
 * UPDATE with WHERE reads a touched file ONCE where it can (onepass_file):
 * every column is scanned and WHERE evaluated batch by batch; the batches
 * before the first match are buffered and written unchanged when it
 * comes, the rest streams through the REWRITE logic.  A file without a
 * match is left alone; when ONEPASS_CELLS values (or ONEPASS_BYTES) are
 * buffered without a match, the buffer is dropped and MATCH goes on narrowly from that row
 * (then REWRITE as above).  DELETE keeps MATCH + REWRITE: a file whose
 * rows all match is dropped after the narrow read alone.
 *
 * Without WHERE (or WHERE folded to TRUE) every row matches and MATCH is
 * skipped; WHERE folded to FALSE/NULL matches nothing and reads nothing.
 *
 * Invariants
 *   1. A failed statement commits nothing: every file it wrote is removed
 *      (unfinished writers aborted, finished ones' files deleted, and the
 *      commit's own failure leaves our data files to us to delete) --
 *      except when the commit's outcome is unknown (08006: the catalog
 *      connection broke during the swap, which may have landed): then
 *      every data / delete file is kept and listed in
 *      <warehouse>/orphan-candidates (txn_commit_failed).
 *   2. The REWRITE pass of a file sees the rows in the MATCH pass's order
 *      (the scan is deterministic); a different row count is XX001.
 *   3. Partitions: rows copied by a rewrite stay in their file's
 *      partition (one writer per source file of a partitioned spec),
 *      except that rows of a file written under an older spec are written
 *      under the table's default spec (a commit adds files of the default
 *      spec only); an UPDATE that sets a partition source column writes
 *      its updated rows through one writer with the default spec
 *      (moved_slot, data_writer_set_spec), so a row may change partition.
 *   4. PRIMARY KEY: an UPDATE that sets a key column keeps the new and old
 *      key of every updated row; before the commit, a new key twice, or a
 *      new key held by a live row that is not an old key, is 23505
 *      (pk_check: end-of-statement, not PostgreSQL's row-by-row check).
 *   5. WHERE is evaluated once per row of a file, SET once per matched
 *      row (onepass_file's narrow fallback starts after the rows the full
 *      scan evaluated).
 *
 * The position path (pos_file) serves UPDATE ... FROM / DELETE ... USING
 * and merge-on-read: each file is scanned with its columns plus each row's
 * file position (SCAN_PROJ_FILE_POS, counting deleted rows: what a delete
 * file names), joined with the FROM / USING side or filtered by WHERE;
 * the changed positions are kept in a per-file bitmap (a target row joined
 * to several FROM rows changes once, by the first joined row: PostgreSQL
 * uses an unspecified one of them), UPDATE's new rows are written as they
 * come, then the positions become deletes (merge-on-read, delete_writer.h:
 * v2 position delete files, v3 deletion vectors) or the file is rewritten
 * without them (copy-on-write).  One commit adds data and delete files
 * and removes rewritten data files and replaced vectors.
 *
 * Joined DML: the FROM / USING items are planned by select.c as
 * SELECT * FROM items (joins, subqueries, VALUES, functions) and run once,
 * their rows copied into the statement arena; WHERE, SET and RETURNING
 * bind over target columns, a hidden position column, then the items'
 * columns (relation names per item; a JOIN without alias keeps its sides'
 * names).  The join is a hash join on WHERE's equalities between a
 * target-side and a FROM-side expression of equal types (the whole WHERE
 * is the residual), else a nested loop.  This is done here rather than by
 * planning a SELECT over the target because select.c cannot scan one data
 * file with positions; an exported select.c entry that plans a SELECT over
 * a given Operator as the target would let correlated subqueries
 * (decorrelated there) work too.
 *
 * v3 row lineage (spec "Row Lineage"; format version >= 3): every scan
 * whose rows are written also reads _row_id and
 * _last_updated_sequence_number (SCAN_PROJ_ROW_ID / _LAST_UPDATED_SEQ) and
 * the writers use table_lineage_schema: rows copied by copy-on-write keep
 * both values, updated rows keep _row_id and write a NULL sequence number
 * (they get the commit's).  On the position path the updated rows come
 * out of the join without them: lineage_ids reads the file's _row_id by
 * position first (one narrow scan per touched file of an UPDATE).
 *
 * Sort order (sort_order.c): when the table's default sort order can be
 * applied, every Slot collects its rows (slot_write) and writes them
 * sorted by it (slot_flush), at the end or every SLOT_SORT_ROWS rows, each
 * run into files of its own; the files record its sort_order_id.
 *
 * Write modes: write.delete.mode / write.update.mode (a value other than
 * copy-on-write or merge-on-read is 22023 at DML time).  merge-on-read
 * takes the position path; when the delete writer refuses (0A000: a form
 * it cannot write yet) the file falls back to copy-on-write, which every
 * reader reads the same.
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
 * Correlated subqueries: one WHERE conjunct EXISTS / NOT EXISTS / IN whose
 * subquery references the target joins its items (see
 * bind_where_sublink); SET c = (correlated scalar subquery) is a LEFT
 * join (bind_scalar; a bare aggregate call joins the subquery grouped by
 * its correlation keys: bind_scalar_agg); other correlated forms (an
 * expression over an aggregate, under OR, several...) are 0A000.
 *
 * WITH: read-only CTEs, visible to FROM / USING items (the planned
 * SELECT * FROM items carries the WITH) and to subqueries (BindCtx.with).
 *
 * Not yet (0A000): the correlated forms above, data-modifying WITH,
 * WHERE CURRENT OF, tables with nested columns, format-version 1 tables
 * (upgrade to 2).  A concurrent commit
 * that removed a file being rewritten
 * makes the commit fail with 40001 (table_commit_replace).
 *
 * INTERFACE ROUTINES (bind.h)
 *   dml_update, dml_delete, dml_truncate
 *   dml_describe(s, ctx, sql, stmt, &ncols, &names, &types)   RETURNING's
 *       columns of INSERT / UPDATE / DELETE for Describe
 *   dml_returning_bind / dml_returning_rows / dml_returning_send   RETURNING
 *       for any statement that writes a table's rows (INSERT, ON CONFLICT)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/check.h"
#include "sql/serial.h"
#include "sql/txn.h"
#include "sql/write_target.h"
#include "exec/modify.h"
#include "table/data_writer.h"
#include "table/delete_writer.h"
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
	bool fanout;             /* the default spec's partitions (d->moves) */
	bool finished;
	DataFile *files;
	int nfiles;
	/* the table's sort order (Dml.sort_keys): rows wait here, sorted into
	 * the writer at slot_flush; every SLOT_SORT_ROWS rows the writer's
	 * files are finished into rolled and a new writer starts, so each
	 * file holds one sorted run */
	RowStore *pending;
	DataFile *rolled;
	int nrolled;
	struct Dml *d;
} Slot;

#define SLOT_SORT_ROWS ((int64_t)1 << 20)

typedef struct Dml {
	Session *s;
	struct CheckBound *checks;   /* UPDATE: CHECK constraints (check.h) */
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
	/* the position path (joined DML, merge-on-read): rows carry their
	 * file position in column nfields; joined: the FROM / USING side's
	 * columns follow (nfrom of them), its rows materialised once */
	bool pos_path;
	bool joined;
	bool mor;                /* merge-on-read: delete files, no rewrite */
	bool narrow;             /* the position pass reads match_proj only */
	int nfrom;
	Operator *from_root;     /* the FROM side's plan (run once) */
	SqlType *from_types;
	Batch **from_rows;
	int nfrom_rows, cap_from_rows;
	bool anti;               /* NOT EXISTS: rows with no partner change */
	bool scalar;             /* SET c = (correlated scalar subquery): a LEFT
				    join; its marker column is the last one */
	int scalar_col;          /* the SET column(s) it gives */
	int *scalar_cols;
	int nscalar_cols;
	bool scalar_keep;        /* the SET value holds for unmatched rows too */
	Expr *join_cond;         /* anti: the join's condition (WHERE: the rest) */
	int nkeys;               /* equi-join keys: target side / FROM side */
	Expr **lkeys, **rkeys;
	PgQuery__WithClause *with;   /* the statement's WITH: its CTEs are
					 visible to FROM / USING and subqueries */
	DeleteWriter *dw;
	DataFile *dw_add;        /* its finished files */
	int ndw_add;
	/* PRIMARY KEY (identifier fields) of an UPDATE that sets a key
	 * column: the new and the old key of every updated row (pk_check) */
	int npk;
	int *pk;                 /* schema columns of the key */
	RowStore *newkeys, *oldkeys;
	RowStore *buf;           /* onepass_file: rows before the first match */
	/* v3 row lineage: rows are scanned with _row_id and
	 * _last_updated_sequence_number after the table's columns and written
	 * with wschema (table_lineage_schema); nw = the columns written */
	bool lineage;
	const IcebergSchema *wschema;
	SqlType *wtypes;
	int nw;
	int64_t *row_ids;        /* pos_file, UPDATE: _row_id by file position */
	uint8_t *row_id_ok;
	/* SET of a partition source column: updated rows go to one writer
	 * with the table's default spec (moved_slot), kept rows stay in
	 * their file's partition */
	bool moves;
	int mslot;               /* index + 1 in slots, 0: none yet */
	/* the table's default sort order, when it can be applied
	 * (sort_order_keys): rewritten files are sorted by it */
	SortKey *sort_keys;
	int nsort_keys;
	int32_t sort_order_id;
	/* metadata columns in WHERE (bind_where_meta): scope column
	 * meta_base + k is dml_meta_cols[k]; meta_used: WHERE names one */
	int meta_base;
	bool meta_used;
} Dml;

/* The metadata columns WHERE may name (as select.c's meta_cols: the
 * spec's reserved columns and floe's _file_size; the lineage ones on v3
 * only), each read by a scan as its SCAN_PROJ_* code. */
static const struct DmlMetaCol {
	const char *name;
	int proj;
	bool v3;
} dml_meta_cols[] = {
	{ "_file", SCAN_PROJ_FILE_PATH, false },
	{ "_pos", SCAN_PROJ_FILE_POS, false },
	{ "_spec_id", SCAN_PROJ_SPEC_ID, false },
	{ "_partition", SCAN_PROJ_PARTITION, false },
	{ "_file_size", SCAN_PROJ_FILE_SIZE, false },
	{ "_deleted", SCAN_PROJ_DELETED, false },
	{ "_row_id", SCAN_PROJ_ROW_ID, true },
	{ "_last_updated_sequence_number", SCAN_PROJ_LAST_UPDATED_SEQ, true },
};
#define N_DML_META_COLS ((int)(sizeof dml_meta_cols / sizeof dml_meta_cols[0]))

/* A metadata column's name (UPDATE SET of one: 0A000, as PostgreSQL's
 * "cannot assign to system column"; merge.c's UPDATE SET too). */
bool
dml_is_meta_col(const char *name)
{
	int k;

	for (k = 0; k < N_DML_META_COLS; k++)
		if (!strcmp(dml_meta_cols[k].name, name))
			return true;
	return false;
}

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
	table_job_id(buf, n);
}

/* Load the target table with PostgreSQL's 42P01 message; the role needs
 * `want` on it (acl.h). */
static int
load_table(Session *s, ExecCtx *ctx, const char *sql, PgQuery__RangeVar *rv, unsigned want,
	   Table **t)
{
	const char *ns, *name;
	BindCtx b;

	session_resolve_name(s, rv, &ns, &name);
	if (rv->schemaname && rv->schemaname[0])   /* USAGE on it, before the lookup */
		TRY(acl_check_schema_usage(s, ctx, ns, ctx->err));
	if (txn_table_load(s, ns, name, ctx->arena, t, ctx->err) == FLOE_OK) {
		TRY(acl_note_target(s, ctx, *t, want, ctx->err));
		return write_target_wap(s, t, ctx->arena, ctx->err);
	}
	if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE)) {
		bool found;
		TRY(write_target_branch(s, ctx, rv, t, &found));   /* t.branch_b */
		if (found)
			return acl_note_target(s, ctx, *t, want, ctx->err);
	}
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
dml_begin(Dml *d, Session *s, ExecCtx *ctx, const char *sql, PgQuery__RangeVar *rv, bool update,
	  unsigned want)
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
	TRY(load_table(s, ctx, sql, rv, want, &d->t));
	d->schema = metadata_current_schema(d->t->md);
	if (d->t->md->format_version < 2) {
		floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "%s on an Iceberg format-version 1 table is not supported", verb);
		return floe_error_hint(ctx->err,
				       "Upgrade the table to format version 2: "
				       "ALTER TABLE %s SET TBLPROPERTIES ('format-version' = '2').",
				       d->t->name);
	}
	TRY(check_mode(d->t->md, update ? "write.update.mode" : "write.delete.mode", ctx->err));
	{
		const char *mode = metadata_property(d->t->md, update ? "write.update.mode" :
						     "write.delete.mode");
		d->mor = d->pos_path = mode && !strcmp(mode, "merge-on-read");
	}
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
	d->lineage = d->t->md->format_version >= 3;
	d->wschema = d->lineage ? table_lineage_schema(d->schema, ctx->arena) : d->schema;
	d->nw = d->wschema->nfields;
	d->wtypes = ARENA_ARRAY(ctx->arena, SqlType, d->nw + 1);
	for (i = 0; i < d->nw; i++)
		d->wtypes[i] = d->wschema->fields[i].type;
	if (!sort_order_keys(ctx->arena, d->t->md, &d->sort_keys, &d->nsort_keys, &d->sort_order_id))
		d->nsort_keys = 0;
	return FLOE_OK;
}

/* ---- correlated EXISTS / NOT EXISTS / IN in WHERE ------------------- */

static int bind_from(Dml *d, Node **items, size_t nitems, Operator **root);

/*
 * A WHERE conjunct EXISTS (SELECT ... FROM items WHERE cond), NOT EXISTS
 * (...) or x IN (SELECT y FROM items WHERE cond) whose subquery references
 * the target becomes a join with the items (the position path): EXISTS /
 * IN an inner join on cond [AND x = y] whose rows change each target row
 * once (a semi join), NOT EXISTS an anti join on cond.  cond binds with
 * the items' columns first and the target's as the outer scope, as in
 * PostgreSQL.  One such conjunct per statement, no FROM / USING, and a
 * plain subquery (no GROUP BY, DISTINCT, LIMIT, WITH, set operations);
 * other forms stay 0A000.
 */
static bool
correlated_error(const floe_error *err)
{
	return floe_error_is(err, ERRCODE_FEATURE_NOT_SUPPORTED) &&
	       strstr(err->message, "correlated subqueries") != NULL;
}

static Expr *
bind_bool_and(Arena *a, Expr *x, Expr *y)
{
	Expr *e = expr_new(a, EXPR_AND, type_make(TYPE_BOOL), 2);

	e->args[0] = x;
	e->args[1] = y;
	return e;
}

static Expr *
and_of(Arena *a, Expr **xs, int n)
{
	Expr *e;

	if (n == 0)
		return NULL;
	if (n == 1)
		return xs[0];
	e = expr_new(a, EXPR_AND, type_make(TYPE_BOOL), n);
	memcpy(e->args, xs, sizeof(Expr *) * (size_t)n);
	return e;
}

/* l = r for two bound expressions (PostgreSQL's operator resolution). */
static Expr *
bind_eq(BindCtx *b, Expr *l, Expr *r, int location)
{
	const ScalarFunc *fn;
	SqlType types[2], cast_to[2], ret;
	Expr *args[2] = { l, r }, *e;
	int i;

	for (i = 0; i < 2; i++)
		types[i] = args[i]->unknown_literal ? type_make(TYPE_NULL) : args[i]->type;
	if (func_resolve_scalar("=", types, 2, &fn, &ret, cast_to, b->err) != FLOE_OK) {
		floe_error_position(b->err, bind_location(b, location));
		return NULL;
	}
	e = expr_new(b->arena, EXPR_FUNC, ret, 2);
	e->fn = fn;
	for (i = 0; i < 2; i++) {
		Expr *a = args[i];
		if ((!type_equal(a->type, cast_to[i]) || a->unknown_literal) &&
		    !(a = bind_coerce(b, a, cast_to[i], COERCE_EXPLICIT, NULL)))
			return NULL;
		e->args[i] = a;
	}
	return e;
}

/* The kind of a conjunct: 1 EXISTS, 2 NOT EXISTS, 3 IN; 0 other. */
static int
sublink_kind(Node *n, PgQuery__SubLink **out)
{
	PgQuery__SubLink *sl;
	int neg = 0;

	if (n->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
	    n->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR && n->bool_expr->n_args == 1) {
		n = n->bool_expr->args[0];
		neg = 1;
	}
	if (n->node_case != PG_QUERY__NODE__NODE_SUB_LINK)
		return 0;
	sl = n->sub_link;
	*out = sl;
	if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK)
		return neg ? 2 : 1;
	if (!neg && sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK &&
	    (sl->n_oper_name == 0 ||
	     (sl->n_oper_name == 1 && sl->oper_name[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
	      !strcmp(sl->oper_name[0]->string->sval, "="))))
		return 3;
	return 0;
}

static int
bind_where_sublink(Dml *d, Node *w)
{
	Node **conj = &w;
	int nconj = 1, i, si = -1, kind = 0, nrest = 0, n = d->schema->nfields;
	Expr **rest, *cond = NULL;
	PgQuery__SubLink *sl = NULL;
	PgQuery__SelectStmt *q;
	Scope inner, outer;
	floe_error *err = d->ctx->err;

	if (w->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
	    w->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
		conj = w->bool_expr->args;
		nconj = (int)w->bool_expr->n_args;
	}
	rest = ARENA_ARRAY(d->ctx->arena, Expr *, nconj + 2);
	for (i = 0; i < nconj; i++) {
		PgQuery__SubLink *x = NULL;
		int k;
		Expr *e = bind_expr(&d->b, conj[i]);
		if (e) {
			if (!(e = bind_coerce_bool(&d->b, e, "WHERE")))
				return FLOE_ERR;
			rest[nrest++] = e;
			continue;
		}
		if (!correlated_error(err) || si >= 0 || !(k = sublink_kind(conj[i], &x)))
			return FLOE_ERR;
		floe_error_clear(err);
		si = i;
		kind = k;
		sl = x;
	}
	if (si < 0 || !sl->subselect || sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return unsupported(d, "this correlated subquery", -1);
	q = sl->subselect->select_stmt;
	if (q->op != PG_QUERY__SET_OPERATION__SETOP_NONE || q->n_group_clause || q->having_clause ||
	    q->n_distinct_clause || q->limit_count || q->limit_offset || q->with_clause ||
	    q->n_values_lists || q->n_window_clause || !q->n_from_clause ||
	    (kind == 3 && (q->n_target_list != 1 || !sl->testexpr ||
			   sl->testexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)))
		return unsupported(d, "this form of correlated subquery", sl->location);
	TRY(bind_from(d, q->from_clause, q->n_from_clause, &d->from_root));
	/* inner: the items' columns first; the target answers as the outer
	 * query (qualified references still reach it) */
	inner = d->scope;
	inner.hidden = ARENA_ARRAY(d->ctx->arena, bool, inner.ncols + 1);
	memcpy(inner.hidden, d->scope.hidden, sizeof(bool) * (size_t)inner.ncols);
	for (i = 0; i < n; i++)
		inner.hidden[i] = true;
	outer = d->scope;
	outer.ncols = n;
	d->b.scope = &inner;
	d->b.corr_scope = &outer;
	d->b.corr_base = 0;
	if (q->where_clause &&
	    !(cond = bind_coerce_bool(&d->b, bind_expr(&d->b, q->where_clause), "WHERE")))
		return FLOE_ERR;
	if (kind == 3) {
		Expr *r = bind_expr(&d->b, q->target_list[0]->res_target->val), *l, *eq;
		d->b.scope = &outer;
		d->b.corr_scope = NULL;
		if (!r || !(l = bind_expr(&d->b, sl->testexpr)) ||
		    !(eq = bind_eq(&d->b, l, r, sl->location)))
			return FLOE_ERR;
		if (eq->type.id != TYPE_BOOL)
			return unsupported(d, "this IN comparison", sl->location);
		cond = cond ? bind_bool_and(d->ctx->arena, cond, eq) : eq;
	}
	d->b.scope = &d->scope;
	d->b.corr_scope = NULL;
	d->scope.ncols = n;          /* SET / RETURNING see the target only */
	if (kind == 2) {
		d->anti = true;
		d->join_cond = cond;
	} else if (cond) {
		rest[nrest++] = cond;
	}
	d->where = and_of(d->ctx->arena, rest, nrest);
	return FLOE_OK;
}

static int bind_scalar_agg(Dml *d, int c, PgQuery__SubLink *sl, PgQuery__SelectStmt *q);
static Node *wrap(Arena *a, PgQuery__Node__NodeCase kind, void *msg);
static bool has_agg(const ProtobufCMessage *m, int depth);

static int
has_agg_child(const ProtobufCMessage *c, void *arg)
{
	return has_agg(c, *(int *)arg + 1);
}

/* Does the parse tree m call an aggregate (outside subqueries too)? */
static bool
has_agg(const ProtobufCMessage *m, int depth)
{
	const ProtobufCMessageDescriptor *desc = m->descriptor;

	if (depth > 1000)
		return true;
	if (desc == &pg_query__func_call__descriptor) {
		const PgQuery__FuncCall *f = (const PgQuery__FuncCall *)m;
		Node *nm = f->n_funcname ? f->funcname[f->n_funcname - 1] : NULL;
		if (nm && nm->node_case == PG_QUERY__NODE__NODE_STRING &&
		    bind_is_aggregate_name(nm->string->sval))
			return true;
	}
	return sql_children(m, has_agg_child, &depth) != 0;
}

typedef struct OnlyArg {
	const char *rel;
	int depth;
	int seen;
} OnlyArg;

static int only_rel(const ProtobufCMessage *m, const char *rel, int depth);

static int
only_rel_child(const ProtobufCMessage *c, void *arg)
{
	OnlyArg *oa = arg;
	int r = only_rel(c, oa->rel, oa->depth + 1);
	if (r > 0)
		oa->seen = 1;
	return r < 0;             /* stop at the first reference to another relation */
}

/* Are all column references of m qualified with rel (and is there one)? */
static int
only_rel(const ProtobufCMessage *m, const char *rel, int depth)
{
	const ProtobufCMessageDescriptor *desc = m->descriptor;

	if (depth > 1000)
		return -1;
	if (desc == &pg_query__column_ref__descriptor) {
		const PgQuery__ColumnRef *c = (const PgQuery__ColumnRef *)m;
		return c->n_fields == 2 && c->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
		       !strcmp(c->fields[0]->string->sval, rel) ? 1 : -1;
	}
	if (desc == &pg_query__sub_link__descriptor)
		return -1;
	{
		OnlyArg oa = { rel, depth, 0 };
		if (sql_children(m, only_rel_child, &oa) != 0)
			return -1;
		return oa.seen;
	}
}

typedef struct RefsArg {
	const char *rel;
	int depth;
} RefsArg;

static bool refs_rel(const ProtobufCMessage *m, const char *rel, int depth);

static int
refs_rel_child(const ProtobufCMessage *c, void *arg)
{
	RefsArg *ra = arg;
	return refs_rel(c, ra->rel, ra->depth + 1);
}

/* Does the parse tree n reference relation rel (rel.col)? */
static bool
refs_rel(const ProtobufCMessage *m, const char *rel, int depth)
{
	const ProtobufCMessageDescriptor *desc = m->descriptor;

	if (depth > 1000)
		return true;
	if (desc == &pg_query__column_ref__descriptor) {
		const PgQuery__ColumnRef *c = (const PgQuery__ColumnRef *)m;
		return c->n_fields == 2 && c->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
		       !strcmp(c->fields[0]->string->sval, rel);
	}
	{
		RefsArg ra = { rel, depth };
		return sql_children(m, refs_rel_child, &ra) != 0;
	}
}

static Node *
wrap(Arena *a, PgQuery__Node__NodeCase kind, void *msg)
{
	Node *n = ARENA_NEW(a, Node);

	pg_query__node__init(n);
	n->node_case = kind;
	n->select_stmt = msg;        /* the union: every member is a pointer */
	return n;
}

static Node *
res_target(Arena *a, const char *name, Node *val)
{
	PgQuery__ResTarget *rt = ARENA_NEW(a, PgQuery__ResTarget);

	pg_query__res_target__init(rt);
	rt->name = (char *)name;
	rt->val = val;
	rt->location = -1;
	return wrap(a, PG_QUERY__NODE__NODE_RES_TARGET, rt);
}

static Node *
column_ref2(Arena *a, const char *rel, const char *col)
{
	PgQuery__ColumnRef *cr = ARENA_NEW(a, PgQuery__ColumnRef);
	PgQuery__String *s1 = ARENA_NEW(a, PgQuery__String), *s2 = ARENA_NEW(a, PgQuery__String);

	pg_query__column_ref__init(cr);
	pg_query__string__init(s1);
	pg_query__string__init(s2);
	s1->sval = (char *)rel;
	s2->sval = (char *)col;
	cr->n_fields = 2;
	cr->fields = ARENA_ARRAY(a, Node *, 2);
	cr->fields[0] = wrap(a, PG_QUERY__NODE__NODE_STRING, s1);
	cr->fields[1] = wrap(a, PG_QUERY__NODE__NODE_STRING, s2);
	cr->location = -1;
	return wrap(a, PG_QUERY__NODE__NODE_COLUMN_REF, cr);
}

/*
 * SET c = (SELECT agg(...) FROM items WHERE inner.k = t.col AND ...): the
 * subquery grouped by its correlation keys becomes a derived table
 *   (SELECT k1 AS __k1, ..., agg(...) AS __v FROM items
 *    WHERE <conjuncts without the target> GROUP BY k1, ...) AS __s
 * LEFT joined on t.col = __s.__k1 ...; a row without a group gets count's
 * 0, any other aggregate's NULL (PostgreSQL's value over no rows).  The
 * subquery's references to the target must be qualified (t.col) and sit
 * in equalities with an expression of the items; the SET value is the
 * aggregate call itself.  Other forms are 0A000.
 */
static int
bind_scalar_agg(Dml *d, int c, PgQuery__SubLink *sl, PgQuery__SelectStmt *q)
{
	Arena *a = d->ctx->arena;
	const char *rel = d->scope.relname;
	Node *w = q->where_clause, **conj = &w, **inner, **keys, **outer, *tv, *item, *val, **items;
	PgQuery__SelectStmt *ss;
	PgQuery__RangeSubselect *rs;
	PgQuery__Alias *al;
	int nconj = 1, ninner = 0, nkeys = 0, i, n = d->schema->nfields;
	Expr *cond = NULL, *e;
	const char *fname;
	bool is_count;

	tv = q->target_list[0]->res_target->val;
	fname = tv->func_call->funcname[tv->func_call->n_funcname - 1]->string->sval;
	is_count = !strcmp(fname, "count");
	if (tv->func_call->over || refs_rel(&tv->base, rel, 0))
		return unsupported(d, "this correlated aggregate subquery in SET", sl->location);
	if (w && w->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
	    w->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
		conj = w->bool_expr->args;
		nconj = (int)w->bool_expr->n_args;
	}
	inner = ARENA_ARRAY(a, Node *, nconj + 1);
	keys = ARENA_ARRAY(a, Node *, nconj + 1);
	outer = ARENA_ARRAY(a, Node *, nconj + 1);
	for (i = 0; w && i < nconj; i++) {
		PgQuery__AExpr *x;
		bool l, r;
		if (!refs_rel(&conj[i]->base, rel, 0)) {
			inner[ninner++] = conj[i];
			continue;
		}
		if (conj[i]->node_case != PG_QUERY__NODE__NODE_A_EXPR)
			goto bad;
		x = conj[i]->a_expr;
		if (x->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || x->n_name != 1 ||
		    x->name[0]->node_case != PG_QUERY__NODE__NODE_STRING ||
		    strcmp(x->name[0]->string->sval, "=") || !x->lexpr || !x->rexpr)
			goto bad;
		l = refs_rel(&x->lexpr->base, rel, 0);
		r = refs_rel(&x->rexpr->base, rel, 0);
		/* the target's side names only the target's columns, qualified */
		if (l == r || only_rel(l ? &x->lexpr->base : &x->rexpr->base, rel, 0) != 1)
			goto bad;
		keys[nkeys] = l ? x->rexpr : x->lexpr;
		outer[nkeys++] = l ? x->lexpr : x->rexpr;
	}
	if (nkeys == 0)
		goto bad;
	/* the derived table */
	ss = ARENA_NEW(a, PgQuery__SelectStmt);
	pg_query__select_stmt__init(ss);
	ss->op = PG_QUERY__SET_OPERATION__SETOP_NONE;
	ss->limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
	ss->n_target_list = (size_t)nkeys + 1;
	ss->target_list = ARENA_ARRAY(a, Node *, nkeys + 1);
	for (i = 0; i < nkeys; i++)
		ss->target_list[i] = res_target(a, arena_sprintf(a, "__k%d", i + 1), keys[i]);
	ss->target_list[nkeys] = res_target(a, "__v", tv);
	ss->n_from_clause = q->n_from_clause;
	ss->from_clause = q->from_clause;
	if (ninner == 1) {
		ss->where_clause = inner[0];
	} else if (ninner > 1) {
		PgQuery__BoolExpr *be = ARENA_NEW(a, PgQuery__BoolExpr);
		pg_query__bool_expr__init(be);
		be->boolop = PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
		be->n_args = (size_t)ninner;
		be->args = inner;
		be->location = -1;
		ss->where_clause = wrap(a, PG_QUERY__NODE__NODE_BOOL_EXPR, be);
	}
	ss->n_group_clause = (size_t)nkeys;
	ss->group_clause = keys;
	ss->with_clause = d->with;
	rs = ARENA_NEW(a, PgQuery__RangeSubselect);
	al = ARENA_NEW(a, PgQuery__Alias);
	pg_query__range_subselect__init(rs);
	pg_query__alias__init(al);
	al->aliasname = "__s";
	rs->subquery = wrap(a, PG_QUERY__NODE__NODE_SELECT_STMT, ss);
	rs->alias = al;
	item = wrap(a, PG_QUERY__NODE__NODE_RANGE_SUBSELECT, rs);
	d->scalar = true;
	d->scalar_keep = is_count;   /* count over no rows is 0, not NULL */
	d->scalar_col = c;
	d->scalar_cols = ARENA_ARRAY(a, int, 1);
	d->scalar_cols[0] = c;
	d->nscalar_cols = 1;
	items = ARENA_ARRAY(a, Node *, 1);
	items[0] = item;
	if (bind_from(d, items, 1, &d->from_root) != FLOE_OK) {
		if (floe_error_is(d->ctx->err, ERRCODE_UNDEFINED_COLUMN) ||
		    floe_error_is(d->ctx->err, ERRCODE_UNDEFINED_TABLE))
			goto bad;   /* an unqualified reference to the target */
		return FLOE_ERR;
	}
	/* the join: t.col = __s.__ki (the target's expressions over its own
	 * columns, the keys after its hidden position) */
	d->scope.ncols = n;
	for (i = 0; i < nkeys; i++) {
		Expr *l = bind_expr(&d->b, outer[i]), *eq;
		int kc = n + 1 + i;
		if (!l || !(eq = bind_eq(&d->b, l, expr_colref(a, kc, d->scope.types[kc]), sl->location)))
			return FLOE_ERR;
		cond = cond ? bind_bool_and(a, cond, eq) : eq;
	}
	d->join_cond = cond;
	/* the value: __s.__v (count: coalesce(__s.__v, 0)) */
	d->scope.ncols = n + 1 + nkeys + 2;
	val = column_ref2(a, "__s", "__v");
	if (is_count) {
		PgQuery__CoalesceExpr *ce = ARENA_NEW(a, PgQuery__CoalesceExpr);
		PgQuery__AConst *zero = ARENA_NEW(a, PgQuery__AConst);
		PgQuery__Integer *iv = ARENA_NEW(a, PgQuery__Integer);
		pg_query__coalesce_expr__init(ce);
		pg_query__a__const__init(zero);
		pg_query__integer__init(iv);
		iv->ival = 0;
		zero->val_case = PG_QUERY__A__CONST__VAL_IVAL;
		zero->ival = iv;
		zero->location = -1;
		ce->n_args = 2;
		ce->args = ARENA_ARRAY(a, Node *, 2);
		ce->args[0] = val;
		ce->args[1] = wrap(a, PG_QUERY__NODE__NODE_A_CONST, zero);
		ce->location = -1;
		val = wrap(a, PG_QUERY__NODE__NODE_COALESCE_EXPR, ce);
	}
	e = bind_expr(&d->b, val);
	d->scope.ncols = n;
	if (!e || !(e = bind_coerce_column(&d->b, e, &d->schema->fields[c])))
		return FLOE_ERR;
	d->set[c] = e;
	return FLOE_OK;
bad:
	floe_error_clear(d->ctx->err);
	return unsupported(d, "this correlated aggregate subquery in SET (the target's columns must be qualified and compared with = to the subquery's)",
			   sl->location);
}

/*
 * SET c = (SELECT e FROM items WHERE cond) referencing the target (no FROM,
 * no other correlated subquery): a LEFT join of the target's rows passing
 * WHERE with the items on cond; a row with no partner gets NULL, a row
 * with two is 21000, as PostgreSQL's subquery.  e must not aggregate
 * (0A000: a grouped subquery is not decorrelated here).
 */
static int
bind_scalar(Dml *d, const int *cols, int ncols, PgQuery__SubLink *sl)
{
	PgQuery__SelectStmt *q;
	Scope inner, outer;
	int i, k, n = d->schema->nfields;
	Node *tv;
	Expr *e;

	if (!sl->subselect || sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return unsupported(d, "this correlated subquery", sl->location);
	q = sl->subselect->select_stmt;
	if (q->op != PG_QUERY__SET_OPERATION__SETOP_NONE || q->n_group_clause || q->having_clause ||
	    q->n_distinct_clause || q->limit_count || q->limit_offset || q->with_clause ||
	    q->n_values_lists || q->n_window_clause || !q->n_from_clause)
		return unsupported(d, "this form of correlated subquery in SET", sl->location);
	if ((int)q->n_target_list != ncols) {
		floe_errorf(d->ctx->err, ERRCODE_SYNTAX_ERROR,
			    "number of columns does not match number of values");
		floe_error_position(d->ctx->err, bind_location(&d->b, sl->location));
		return FLOE_ERR;
	}
	tv = q->target_list[0]->res_target->val;
	if (ncols == 1 && tv && tv->node_case == PG_QUERY__NODE__NODE_FUNC_CALL &&
	    bind_is_aggregate_name(tv->func_call->funcname[tv->func_call->n_funcname - 1]->string->sval))
		return bind_scalar_agg(d, cols[0], sl, q);
	for (k = 0; k < ncols; k++)
		if (has_agg(&q->target_list[k]->base, 0))
			return unsupported(d, "a subquery in SET computing over an aggregate here",
					   sl->location);
	d->scalar = true;
	d->scalar_col = cols[0];
	d->scalar_cols = (int *)cols;
	d->nscalar_cols = ncols;
	TRY(bind_from(d, q->from_clause, q->n_from_clause, &d->from_root));
	inner = d->scope;
	inner.hidden = ARENA_ARRAY(d->ctx->arena, bool, inner.ncols + 1);
	memcpy(inner.hidden, d->scope.hidden, sizeof(bool) * (size_t)inner.ncols);
	for (i = 0; i < n; i++)
		inner.hidden[i] = true;
	outer = d->scope;
	outer.ncols = n;
	d->b.scope = &inner;
	d->b.corr_scope = &outer;
	d->b.corr_base = 0;
	if (q->where_clause &&
	    !(d->join_cond = bind_coerce_bool(&d->b, bind_expr(&d->b, q->where_clause), "WHERE")))
		return FLOE_ERR;
	for (k = 0; k < ncols; k++) {
		d->b.scope = &inner;
		d->b.corr_scope = &outer;
		e = bind_expr(&d->b, q->target_list[k]->res_target->val);
		d->b.scope = &d->scope;
		d->b.corr_scope = NULL;
		if (!e || !(e = bind_coerce_column(&d->b, e, &d->schema->fields[cols[k]])))
			return FLOE_ERR;
		d->set[cols[k]] = e;
	}
	d->scope.ncols = n;          /* the other SET items / RETURNING: the target */
	return FLOE_OK;
}

/* Is a metadata column (scope columns from meta_base on) referenced? */
static int
meta_ref(const Dml *d, const Expr *e)
{
	int i, k;

	if (!e)
		return -1;
	if (e->kind == EXPR_COLREF && e->col >= d->meta_base && e->col < d->meta_base + N_DML_META_COLS)
		return e->col - d->meta_base;
	for (i = 0; i < e->nargs; i++)
		if ((k = meta_ref(d, e->args[i])) >= 0)
			return k;
	return -1;
}

/*
 * The metadata columns become bindable in WHERE: appended to the scope
 * (after the hidden position column of an unjoined statement: column
 * n + 1 + k is dml_meta_cols[k], where the scans put them; a user column
 * of the same name wins, a v3 one needs a v3 table).  Taken out again
 * after WHERE (SET and RETURNING do not see them).  Returns the scope's
 * column count to restore.
 */
static int
bind_where_meta(Dml *d)
{
	Scope *sc = &d->scope;
	int n = d->schema->nfields, old = sc->ncols, base, k, i;
	size_t was = (size_t)old + 1, now;

	base = d->joined ? old : n + 1;
	now = (size_t)base + N_DML_META_COLS + 1;
	sc->names = arena_realloc(d->ctx->arena, sc->names, sizeof(char *) * was, sizeof(char *) * now);
	sc->types = arena_realloc(d->ctx->arena, sc->types, sizeof(SqlType) * was,
				  sizeof(SqlType) * now);
	if (sc->relnames)
		sc->relnames = arena_realloc(d->ctx->arena, sc->relnames, sizeof(char *) * was,
					     sizeof(char *) * now);
	sc->hidden = sc->hidden ? arena_realloc(d->ctx->arena, sc->hidden, sizeof(bool) * was,
						sizeof(bool) * now) :
				  ARENA_ARRAY(d->ctx->arena, bool, now);
	if (!d->joined) {
		sc->names[n] = "";
		sc->types[n] = type_make(TYPE_INT64);
		sc->hidden[n] = true;        /* the position (pos_file's column n) */
		if (sc->relnames)
			sc->relnames[n] = NULL;
	}
	for (k = 0; k < N_DML_META_COLS; k++) {
		const char *mn = dml_meta_cols[k].name;
		bool off = dml_meta_cols[k].v3 && d->t->md->format_version < 3;
		for (i = 0; i < n; i++)
			if (!strcmp(d->schema->fields[i].name, mn))
				off = true;          /* a user column of that name */
		sc->names[base + k] = off ? "" : (char *)mn;
		sc->types[base + k] = scan_proj_type(dml_meta_cols[k].proj);
		sc->hidden[base + k] = off;
		if (sc->relnames)
			sc->relnames[base + k] = sc->relname;
	}
	sc->ncols = base + N_DML_META_COLS;
	d->meta_base = base;
	return old;
}

static int
bind_where(Dml *d, Node *w)
{
	int keep;

	if (!w)
		return FLOE_OK;
	if (w->node_case == PG_QUERY__NODE__NODE_CURRENT_OF_EXPR)
		return unsupported(d, "WHERE CURRENT OF", -1);
	d->b.allow_aggs = false;
	d->b.where = "WHERE";
	keep = bind_where_meta(d);
	d->where = bind_expr(&d->b, w);
	d->scope.ncols = keep;
	if (d->where && meta_ref(d, d->where) >= 0) {
		if (d->joined)
			return floe_errorf(d->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "metadata column \"%s\" in the WHERE of UPDATE ... FROM / DELETE ... USING is not supported yet",
					   dml_meta_cols[meta_ref(d, d->where)].name);
		d->meta_used = true;
	}
	if (!d->where && !d->joined && correlated_error(d->ctx->err)) {
		floe_error_clear(d->ctx->err);
		return bind_where_sublink(d, w);
	}
	d->where = bind_coerce_bool(&d->b, d->where, "WHERE");
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
	int n = d->schema->nfields, i, k;
	int nc = n + 1 + N_DML_META_COLS;   /* metadata columns: bind_where_meta */
	bool *used = ARENA_ARRAY(d->ctx->arena, bool, nc + 1);
	int *map = ARENA_ARRAY(d->ctx->arena, int, nc + 1);

	mark_cols(d->where, used);
	d->nmatch_proj = 0;
	d->match_proj = ARENA_ARRAY(d->ctx->arena, int, nc + 1);
	for (i = 0; i < n; i++)
		if (used[i]) {
			map[i] = d->nmatch_proj;
			d->match_proj[d->nmatch_proj++] = i;
		}
	for (k = 0; d->meta_used && k < N_DML_META_COLS; k++)
		if (used[d->meta_base + k]) {
			map[d->meta_base + k] = d->nmatch_proj;
			d->match_proj[d->nmatch_proj++] = dml_meta_cols[k].proj;
		}
	if (d->nmatch_proj == 0)
		d->match_proj[d->nmatch_proj++] = 0;
	d->match_where = d->where ? remap(d->ctx->arena, d->where, map) : NULL;
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

/* Evaluate WHERE on every row of f from row `from` on (the rows before
 * are not matched): bitmap of TRUE rows (in fa), the file's row count and
 * the number of matches. */
static int
match_file(Dml *d, DataFile *f, int64_t from, Arena *fa, Arena *scratch, uint64_t **bits,
	   int64_t *nrows, int64_t *nmatch)
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
		uint32_t i, *fsel, nf;

		if (op_next_rows(ctx, scan, scratch, &b) != FLOE_OK)
			goto out;
		if (!b)
			break;
		if (*nrows + b->count <= from) {
			*nrows += b->count;
			continue;
		}
		if (*nrows < from) {
			/* the batch holding row `from`: evaluate from there */
			uint32_t skip = (uint32_t)(from - *nrows), k;
			fsel = ARENA_ARRAY(scratch, uint32_t, b->count);
			for (k = skip; k < b->count; k++)
				fsel[k - skip] = k;
			nf = b->count - skip;
		} else {
			fsel = NULL;
			nf = b->count;
		}
		if (expr_eval(ctx, d->match_where, b, fsel, nf, scratch, &pv) != FLOE_OK)
			goto out;
		vector_view(&pv, &v);
		for (i = fsel ? fsel[0] : 0; i < b->count; i++) {
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
 * No metrics for the column: the file is read.  prune_file (exec/prune.c)
 * is the same proof SELECT's scans use.
 */
static bool
prune(const DataFile *f, const IcebergSchema *schema, const Expr *e)
{
	return prune_file(e, schema->nfields, NULL, schema, f);
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
	int cap = n + 1, i, k;

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
			/* *: every visible column of the scope (the target's, then
			 * a joined FROM's, as PostgreSQL); rel.*: rel's columns */
			PgQuery__ColumnRef *c = rt->val->column_ref;
			const Scope *sc = b->scope;
			const char *rel = NULL;
			int before = r->n;
			if (c->n_fields > 2) {
				floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					    "this RETURNING target is not supported yet");
				floe_error_position(b->err, bind_location(b, c->location));
				return FLOE_ERR;
			}
			if (c->n_fields == 2)
				rel = c->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING ?
				      c->fields[0]->string->sval : "?";
			if (r->n + sc->ncols + (n - i) >= cap) {
				int nc = r->n + sc->ncols + (n - i) + 1;
				r->exprs = arena_realloc(b->arena, r->exprs, sizeof(Expr *) * (size_t)cap,
							 sizeof(Expr *) * (size_t)nc);
				r->names = arena_realloc(b->arena, r->names, sizeof(char *) * (size_t)cap,
							 sizeof(char *) * (size_t)nc);
				cap = nc;
			}
			for (k = 0; k < sc->ncols; k++) {
				const char *kr = scope_relname(sc, k);
				if (sc->hidden && sc->hidden[k] && !(rel && kr && !strcmp(kr, rel)))
					continue;
				if (!sc->names[k][0] || (rel && (!kr || strcmp(kr, rel) != 0)))
					continue;
				r->exprs[r->n] = expr_colref(b->arena, k, sc->types[k]);
				r->names[r->n++] = sc->names[k];
			}
			if (rel && r->n == before) {
				floe_errorf(b->err, ERRCODE_UNDEFINED_TABLE,
					    "missing FROM-clause entry for table \"%s\"", rel);
				floe_error_position(b->err, bind_location(b, c->location));
				return FLOE_ERR;
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
	if (r->n > BIND_MAX_COLUMNS)
		return floe_errorf(b->err, ERRCODE_TOO_MANY_COLUMNS, "target lists can have at most %d entries",
				   BIND_MAX_COLUMNS);
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

/* A new writer slot (the array grows), its writer on the table's data folder
 * with the table's write.* properties; the caller sets what the slot is for. */
static Slot *
new_slot(Dml *d, floe_error *err)
{
	Slot *sl;

	if (d->nslots == d->cap_slots) {
		int nc = d->cap_slots ? d->cap_slots * 2 : 8;
		d->slots = arena_realloc(d->ctx->arena, d->slots, sizeof(Slot) * (size_t)d->cap_slots,
					 sizeof(Slot) * (size_t)nc);
		d->cap_slots = nc;
	}
	sl = &d->slots[d->nslots++];
	memset(sl, 0, sizeof *sl);
	sl->d = d;
	sl->w = data_writer_new(d->s->engine->io, table_data_dir(d->t, d->ctx->arena), d->wschema, 0,
				d->ctx->arena);
	if (data_writer_set_table_properties(sl->w, d->t->md, err) != FLOE_OK)
		return NULL;
	if (d->nsort_keys)
		sl->pending = rowstore_new(d->ctx, d->nw, d->wtypes, NULL);
	return sl;
}

/* The pending rows, sorted, into sl's writer; roll: then finish its files
 * into sl->rolled and start a new writer (same properties and spec). */
static int
slot_flush(Slot *sl, bool roll, floe_error *err)
{
	Dml *d = sl->d;
	int rc;

	if (!sl->pending || rowstore_rows(sl->pending) == 0)
		return FLOE_OK;
	rc = write_sorted(d->ctx, sl->pending, d->nsort_keys, d->sort_keys, sl->w);
	if (rc != FLOE_OK || !roll)
		return rc;
	TRY(data_writer_finish_append(sl->w, d->ctx->arena, &sl->rolled, &sl->nrolled, err));
	data_writer_free(sl->w);
	sl->w = data_writer_new(d->s->engine->io, table_data_dir(d->t, d->ctx->arena), d->wschema, 0,
				d->ctx->arena);
	TRY(data_writer_set_table_properties(sl->w, d->t->md, err));
	if (sl->fanout)
		TRY(data_writer_set_spec(sl->w, metadata_default_spec(d->t->md), err));
	return FLOE_OK;
}

/* Rows of b (compact) to sl: its writer, or its pending rows to sort. */
static int
slot_write(Slot *sl, const Batch *b, floe_error *err)
{
	if (!sl->pending)
		return data_writer_write(sl->w, b, err);
	rowstore_append(sl->pending, b);
	if (rowstore_rows(sl->pending) >= SLOT_SORT_ROWS)
		return slot_flush(sl, true, err);
	return FLOE_OK;
}

static Slot *moved_slot(Dml *d, floe_error *err);

static Slot *
slot_for(Dml *d, const DataFile *f, floe_error *err)
{
	const TableMetadata *md = d->t->md;
	const PartitionSpec *spec = metadata_spec_by_id(md, f->spec_id);
	bool unpart = (!spec || spec->nfields == 0) && f->npartition == 0;
	Slot *sl;
	int i;

	if (f->spec_id != md->default_spec_id)
		return moved_slot(d, err);   /* an older spec: rows take the current one */
	if (unpart)
		for (i = 0; i < d->nslots; i++)
			if (d->slots[i].shared && d->slots[i].spec_id == f->spec_id)
				return &d->slots[i];
	if (!(sl = new_slot(d, err)))
		return NULL;
	sl->src = f;
	sl->spec_id = f->spec_id;
	sl->shared = unpart;
	return sl;
}

/* The writer of updated rows when they may change partition (invariant
 * 3): the table's default spec, one file per partition tuple. */
static Slot *
moved_slot(Dml *d, floe_error *err)
{
	const TableMetadata *md = d->t->md;
	Slot *sl;

	if (d->mslot > 0)
		return &d->slots[d->mslot - 1];
	if (!(sl = new_slot(d, err)))
		return NULL;
	sl->spec_id = md->default_spec_id;
	sl->fanout = true;
	d->mslot = d->nslots;       /* index + 1 */
	if (data_writer_set_spec(sl->w, metadata_default_spec(md), err) != FLOE_OK)
		return NULL;
	return sl;
}

/* Write rows sel (n of them) of b to sl (b is left as it was). */
static int
write_sel(Slot *sl, const Batch *b, const uint32_t *sel, uint32_t n, Arena *scratch,
	  floe_error *err)
{
	Batch wb = *b;

	if (n == 0)
		return FLOE_OK;
	wb.cols = ARENA_ARRAY(scratch, Vector, b->ncols + 1);
	memcpy(wb.cols, b->cols, sizeof(Vector) * (size_t)b->ncols);
	if (n < b->count) {
		wb.sel = (uint32_t *)sel;
		wb.count = n;
	}
	batch_compact(&wb);
	return slot_write(sl, &wb, err);
}

/* ---- v3 row lineage ---------------------------------------------------- */

/* The projection of a scan whose rows are written: every column, then
 * (lineage) _row_id and _last_updated_sequence_number; *n = its length. */
static int *
write_proj(Dml *d, int *n)
{
	int nf = d->schema->nfields, i;
	int *proj = ARENA_ARRAY(d->op_arena, int, nf + 3);

	for (i = 0; i < nf; i++)
		proj[i] = i;
	*n = nf;
	if (d->lineage) {
		proj[(*n)++] = SCAN_PROJ_ROW_ID;
		proj[(*n)++] = SCAN_PROJ_LAST_UPDATED_SEQ;
	}
	return proj;
}

/* Updated rows (msel, NULL = all) keep their _row_id and get a NULL
 * _last_updated_sequence_number (the new file's sequence number). */
static void
lineage_updated(Dml *d, Batch *ob, const uint32_t *msel, uint32_t nm, Arena *scratch)
{
	int c = d->schema->nfields + 1;
	Vector v;
	uint32_t j;

	if (!d->lineage)
		return;
	vector_init(&v, type_make(TYPE_INT64), scratch, ob->count);
	vector_copy_rows(&v, 0, &ob->cols[c], NULL, ob->count);
	for (j = 0; j < nm; j++)
		vector_set_null(&v, msel ? msel[j] : j);
	ob->cols[c] = v;
}

/* ---- PRIMARY KEY ------------------------------------------------------ */

/*
 * An UPDATE that sets a column of the PRIMARY KEY (Iceberg
 * identifier-field-ids) is checked once every row is updated, before the
 * commit (the SQL standard's end-of-statement check, which PostgreSQL
 * makes row by row): 23505 when two updated rows get the same key, or an
 * updated row gets the key of a live row the statement did not update (a
 * live row with a new key that is not also an OLD key of an updated row:
 * the table's keys were unique before).  NULL keys cannot occur (key
 * columns are NOT NULL, checked first).
 */
static void
pk_plan(Dml *d)
{
	const IcebergSchema *sc = d->schema;
	SqlType *types;
	bool set = false;
	int i, c;

	if (sc->nidentifier == 0)
		return;
	d->pk = ARENA_ARRAY(d->ctx->arena, int, sc->nidentifier + 1);
	types = ARENA_ARRAY(d->ctx->arena, SqlType, sc->nidentifier + 1);
	for (i = 0; i < sc->nidentifier; i++)
		for (c = 0; c < sc->nfields; c++)
			if (sc->fields[c].id == sc->identifier_field_ids[i]) {
				types[d->npk] = sc->fields[c].type;
				d->pk[d->npk++] = c;
				set = set || d->set[c];
			}
	if (!set || d->npk != sc->nidentifier) {
		d->npk = 0;              /* keys unchanged (or nested: not checked) */
		return;
	}
	d->newkeys = rowstore_new(d->ctx, d->npk, types, NULL);
	d->oldkeys = rowstore_new(d->ctx, d->npk, types, NULL);
}

/* Keep the new (from out) and old (from in) keys of the rows msel. */
static void
pk_collect(Dml *d, const Batch *in, const Batch *out, const uint32_t *msel, uint32_t nm,
	   Arena *scratch)
{
	Batch kb;
	int k;

	memset(&kb, 0, sizeof kb);
	kb.ncols = d->npk;
	kb.cols = ARENA_ARRAY(scratch, Vector, d->npk);
	kb.count = nm;
	kb.sel = (uint32_t *)msel;
	kb.arena = scratch;
	for (k = 0; k < d->npk; k++)
		kb.cols[k] = out->cols[d->pk[k]];
	rowstore_append(d->newkeys, &kb);
	for (k = 0; k < d->npk; k++)
		kb.cols[k] = in->cols[d->pk[k]];
	rowstore_append(d->oldkeys, &kb);
}

/* Run op to its end; its first row (key columns first) is a violation. */
static int
pk_first_row(Dml *d, Operator *op)
{
	Batch *b;
	int rc;

	if ((rc = op_open(op)) == FLOE_OK)
		if ((rc = op_next_rows(d->ctx, op, NULL, &b)) == FLOE_OK && b)
			rc = key_error(d->ctx->err, d->t->name,
				       key_text(d->ctx->arena, d->schema, d->pk, d->npk, b, NULL, 0));
	op_close(op);
	return rc;
}

static int
pk_check(Dml *d, DataFile *files, int nfiles)
{
	ExecCtx *ctx = d->ctx;
	Arena *a = ctx->arena;
	int np = d->npk, c, i, ncand;
	Expr **lk = ARENA_ARRAY(a, Expr *, np), **rk = ARENA_ARRAY(a, Expr *, np);
	Expr **lk2 = ARENA_ARRAY(a, Expr *, np), **rk2 = ARENA_ARRAY(a, Expr *, np);
	DataFile *cand = ARENA_ARRAY(a, DataFile, nfiles + 1);
	int *idx = ARENA_ARRAY(a, int, nfiles + 1);
	KeyCheck kc;
	Operator *op;

	if (rowstore_rows(d->newkeys) == 0)
		return FLOE_OK;
	kc.ctx = ctx;
	kc.schema = d->schema;
	kc.table = d->t->name;
	kc.npk = np;
	kc.pk = d->pk;
	/* two updated rows with one key */
	TRY(key_check_twice(&kc, d->newkeys));

	/* a key of a live row the statement leaves alone: the live files
	 * whose bounds admit a new key, semi-joined with the new keys,
	 * anti-joined with the old ones */
	ncand = key_check_files(&kc, d->newkeys, files, nfiles, idx);
	if (ncand == 0)
		return FLOE_OK;
	for (i = 0; i < ncand; i++)
		cand[i] = files[idx[i]];
	for (c = 0; c < np; c++) {
		SqlType kt = d->schema->fields[d->pk[c]].type;
		lk[c] = expr_colref(a, c, kt);
		rk[c] = expr_colref(a, c, kt);
		lk2[c] = expr_colref(a, c, kt);
		rk2[c] = expr_colref(a, c, kt);
	}
	op = scan_new(ctx, d->schema, np, d->pk, cand, ncand, false, d->t->md);
	op = hash_join_new(ctx, op, rowstore_scan_new(ctx, d->newkeys), JOIN_SEMI, np, lk, rk, NULL,
			   false);
	op = hash_join_new(ctx, op, rowstore_scan_new(ctx, d->oldkeys), JOIN_ANTI, np, lk2, rk2,
			   NULL, false);
	return pk_first_row(d, op);
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
	for (c = 0; c < d->schema->nfields; c++) {
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
	if (!d->scalar)
		TRY(check_domain_rows(d->checks, ctx, out, msel, nm));
	/* row by row, columns in order: PostgreSQL reports the first row */
	for (j = 0; j < nm; j++) {
		uint32_t r = msel ? msel[j] : j;
		for (c = 0; c < d->schema->nfields; c++) {
			if (!d->set[c] || !d->schema->fields[c].required)
				continue;
			if (!vector_is_valid(&out->cols[c], r)) {
				floe_errorf(ctx->err, ERRCODE_NOT_NULL_VIOLATION,
					    "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
					    d->schema->fields[c].name, d->t->name);
				insert_row_detail(ctx->err, out, d->schema->nfields, r, scratch);
				return FLOE_ERR;
			}
		}
	}
	if (!d->scalar)   /* the scalar path checks after scalar_nulls */
		TRY(check_constraints_rows(d->checks, ctx, out, msel, nm));
	if (d->npk)
		pk_collect(d, b, out, msel, nm, scratch);
	return FLOE_OK;
}

/* One batch of the REWRITE: hit the rows matched (cow_split_bits), keep
 * the others.  DELETE writes the kept rows, UPDATE every row with SET
 * applied to the matched ones; RETURNING as it goes. */
static int
rewrite_batch(Dml *d, Slot *sl, Batch *b, uint32_t *hit, uint32_t nhit, uint32_t *keep,
	      uint32_t nkeep, Arena *scratch, int64_t *changed)
{
	/* DELETE: rows to keep; UPDATE: rows to change */
	uint32_t *sel = d->update ? hit : keep, nsel = d->update ? nhit : nkeep;
	Batch ob;

	*changed += nhit;
	if (!d->update && d->ret.n && nhit)
		/* RETURNING of DELETE: the pre-image of the deleted rows */
		TRY(dml_returning_rows(&d->ret, d->ctx, b, nhit == b->count ? NULL : hit, nhit,
				       scratch));
	if (!d->update) {
		if (nsel == 0)
			return FLOE_OK;
		if (nsel < b->count) {
			b->sel = sel;
			b->count = nsel;
			batch_compact(b);
		}
		ob = *b;
	} else if (nsel == 0) {
		ob = *b;
	} else {
		TRY(update_batch(d, b, nsel == b->count ? NULL : sel, nsel, scratch, &ob));
		lineage_updated(d, &ob, nsel == b->count ? NULL : sel, nsel, scratch);
		if (d->ret.n)   /* RETURNING of UPDATE: the post-image */
			TRY(dml_returning_rows(&d->ret, d->ctx, &ob, nsel == b->count ? NULL : sel,
					       nsel, scratch));
		if (d->moves) {
			/* updated rows to the default spec's partitions, the
			 * others stay in the file's */
			Slot *ms = moved_slot(d, d->ctx->err);
			if (!ms)
				return FLOE_ERR;
			TRY(write_sel(ms, &ob, sel, nsel, scratch, d->ctx->err));
			return write_sel(sl, &ob, keep, nkeep, scratch, d->ctx->err);
		}
	}
	batch_compact(&ob);
	return slot_write(sl, &ob, d->ctx->err);
}

/* What cow_rewrite's batches go to: the statement, the file, its slot. */
typedef struct RewriteArg {
	Dml *d;
	DataFile *f;
	Slot *sl;
	int64_t *changed;
} RewriteArg;

static int
rewrite_rows(void *arg, Batch *b, uint32_t *hit, uint32_t nhit, uint32_t *keep, uint32_t nkeep,
	     Arena *scratch)
{
	RewriteArg *ra = arg;

	return rewrite_batch(ra->d, ra->sl, b, hit, nhit, keep, nkeep, scratch, ra->changed);
}

/* A copy-on-write rewrite of f (cow_rewrite) by the statement d: rows
 * after the table's columns and (lineage) the two lineage columns. */
static void
rewrite_init(CowRewrite *rw, RewriteArg *ra, Dml *d, DataFile *f, Arena *scratch)
{
	cow_rewrite_init(rw, d->ctx, d->schema, d->t->md, f, d->lineage, scratch);
	rw->scan_arena = d->op_arena;   /* the scan's memory goes with op_arena */
	rw->arg = ra;
	ra->d = d;
	ra->f = f;
}

/* Rewrite f: DELETE drops the bitmap's rows, UPDATE changes them. */
static int
rewrite_file(Dml *d, DataFile *f, const uint64_t *bits, int64_t nrows, Arena *scratch,
	     int64_t *changed)
{
	CowRewrite rw;
	RewriteArg ra;

	rewrite_init(&rw, &ra, d, f, scratch);
	rw.bits = bits;
	rw.nrows = nrows;
	rw.rows = rewrite_rows;
	ra.changed = changed;
	if (!(ra.sl = slot_for(d, f, d->ctx->err)))
		return FLOE_ERR;
	return cow_rewrite(&rw);
}

/*
 * UPDATE with WHERE, copy-on-write, in one read of f (invariant 5): every
 * column is scanned and WHERE evaluated per batch; batches before the
 * first match are buffered (d->buf); at the first match they go to the
 * writer unchanged and the rest of the file streams through
 * rewrite_batch.  A file without a match is left alone.  When the buffer
 * reaches ONEPASS_CELLS values without a match, the buffer is dropped and
 * the rest of the file is matched by a narrow scan from that row on
 * (match_file with `from`: no row's WHERE runs twice); a match there
 * rewrites the file in a second read, as the two-pass plan does.
 * *done: f was handled (rewritten or untouched); false: the caller
 * rewrites it with *bits / *nrows / *nmatch.
 */
#define ONEPASS_CELLS (1 << 20)
#define ONEPASS_BYTES ((int64_t)64 << 20)

/* About the bytes a deep copy of b takes: 16 per value plus long strings. */
static int64_t
batch_bytes(const Batch *b)
{
	int64_t n = (int64_t)b->count * 16 * b->ncols;
	int c;
	uint32_t j;

	for (c = 0; c < b->ncols; c++) {
		VectorView v;
		if (!type_is_string(b->cols[c].type.id))
			continue;
		vector_view(&b->cols[c], &v);
		for (j = 0; j < b->count; j++) {
			uint32_t k = v.sel ? v.sel[j] : j;
			if (validity_get(v.validity, k) && ((const strview *)v.data)[k].len > STRVIEW_INLINE)
				n += ((const strview *)v.data)[k].len;
		}
	}
	return n;
}

static void add_removed(Dml *d, const char *path);

static int match_file(Dml *d, DataFile *f, int64_t from, Arena *fa, Arena *scratch,
		      uint64_t **bits, int64_t *nrows, int64_t *nmatch);

static int
onepass_file(Dml *d, DataFile *f, Arena *fa, Arena *scratch, uint64_t **bitsp, int64_t *nrows,
	     int64_t *nmatch, bool *done)
{
	ExecCtx *ctx = d->ctx;
	ExecCtx sctx = *ctx;     /* the scan's memory goes with op_arena */
	int n, i, rc = FLOE_ERR;
	int *proj = write_proj(d, &n);
	Operator *scan;
	Slot *sl = NULL;
	int64_t pos = 0, changed = 0, cells = 0, bytes = 0;
	uint64_t *bits = NULL;
	size_t words = 0;
	bool streaming = false, overflow = false;
	Batch *b;

	*done = false;
	*nmatch = 0;
	if (!d->buf)
		d->buf = rowstore_new(ctx, n, d->wtypes, NULL);
	rowstore_clear(d->buf);
	sctx.arena = d->op_arena;
	scan = scan_new(&sctx, d->schema, n, proj, f, 1, false, d->t->md);
	if (op_open(scan) != FLOE_OK)
		goto out;
	for (;;) {
		Vector pv;
		VectorView v;
		uint32_t j, cnt, nm = 0, *hit, *keep, nh, nk;

		if (op_next_rows(ctx, scan, scratch, &b) != FLOE_OK)
			goto out;
		if (!b)
			break;
		cnt = b->count;
		if (expr_eval(ctx, d->where, b, NULL, cnt, scratch, &pv) != FLOE_OK)
			goto out;
		vector_view(&pv, &v);
		bits_grow(fa, &bits, &words, pos + cnt);
		for (j = 0; j < cnt; j++) {
			uint32_t k = v.sel ? v.sel[j] : j;
			if (validity_get(v.validity, k) && ((const uint8_t *)v.data)[k]) {
				bits[(pos + j) >> 6] |= (uint64_t)1 << ((pos + j) & 63);
				nm++;
			}
		}
		*nmatch += nm;
		if (!streaming && nm == 0) {
			rowstore_append(d->buf, b);
			pos += cnt;
			cells += (int64_t)cnt * n;
			bytes += batch_bytes(b);
			if (cells >= ONEPASS_CELLS || bytes >= ONEPASS_BYTES) {
				overflow = true;
				break;
			}
			continue;
		}
		if (!streaming) {
			/* the first match: the buffered rows are unchanged */
			if (!(sl = slot_for(d, f, ctx->err)))
				goto out;
			for (i = 0; i < rowstore_nbatches(d->buf); i++)
				if (slot_write(sl, rowstore_batch(d->buf, i), ctx->err) !=
				    FLOE_OK)
					goto out;
			rowstore_clear(d->buf);
			streaming = true;
		}
		hit = ARENA_ARRAY(scratch, uint32_t, cnt);
		keep = ARENA_ARRAY(scratch, uint32_t, cnt);
		cow_split_bits(bits, pos, cnt, hit, &nh, keep, &nk);
		if (rewrite_batch(d, sl, b, hit, nh, keep, nk, scratch, &changed) != FLOE_OK)
			goto out;
		pos += cnt;
	}
	op_close(scan);
	scan = NULL;
	rowstore_clear(d->buf);
	if (streaming) {
		d->rows += changed;
		add_removed(d, f->file_path);
		*done = true;
	} else if (!overflow) {
		*done = true;            /* no match: f stays */
	} else {
		/* no match in the first rows: match the rest narrowly */
		if (match_file(d, f, pos, fa, scratch, bitsp, nrows, nmatch) != FLOE_OK)
			goto out;
		*done = *nmatch == 0;
	}
	rc = FLOE_OK;
out:
	if (scan)
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
		if (!sl->finished) {
			data_writer_abort(sl->w);
			for (k = 0; k < sl->nrolled; k++)   /* (finished: in files) */
				fileio_remove(d->s->engine->io, sl->rolled[k].file_path, &ignore);
		} else {
			for (k = 0; k < sl->nfiles; k++)
				fileio_remove(d->s->engine->io, sl->files[k].file_path, &ignore);
		}
		data_writer_free(sl->w);
	}
	d->nslots = 0;
	if (d->dw)
		delete_writer_abort(d->dw);
	d->dw = NULL;
}

/* ---- the position path: joined DML and merge-on-read ----------------- */

/*
 * Each file is scanned with its columns plus the row's file position
 * (SCAN_PROJ_FILE_POS: counts deleted rows too, what a delete file
 * names), joined with the FROM / USING side (hash join on the WHERE's
 * equalities between the two sides, the whole WHERE as the residual) or
 * filtered by WHERE.  A target row is changed once, by its first joined
 * row (PostgreSQL updates a row joined to several source rows once, with
 * an unspecified one of them: floe takes the first the join produces).
 * UPDATE evaluates SET on that joined row and writes the new row; the
 * file's changed positions then become deletes (merge-on-read) or the file
 * is rewritten without them (copy-on-write).
 */

/* An operator over the FROM side's materialised rows. */
typedef struct RowsOp {
	Operator op;
	Dml *d;
	int next;
	Batch out;
} RowsOp;

static int
rows_open(Operator *op)
{
	((RowsOp *)op)->next = 0;
	return FLOE_OK;
}

static int
rows_next(Operator *op, Batch **out)
{
	RowsOp *r = (RowsOp *)op;

	if (r->next >= r->d->nfrom_rows) {
		*out = NULL;
		return FLOE_OK;
	}
	r->out = *r->d->from_rows[r->next++];
	r->out.cols = ARENA_ARRAY(op->ctx->arena, Vector, r->out.ncols + 1);
	memcpy(r->out.cols, r->d->from_rows[r->next - 1]->cols,
	       sizeof(Vector) * (size_t)r->out.ncols);
	*out = &r->out;
	return FLOE_OK;
}

static void
rows_close(Operator *op)
{
	(void)op;
}

static const OperatorVT rows_vt = { "FromRows", rows_open, rows_next, rows_close };

static Operator *
rows_new(ExecCtx *ctx, Dml *d)
{
	RowsOp *r = ARENA_NEW(ctx->arena, RowsOp);

	op_init(&r->op, &rows_vt, ctx, d->nfrom, d->from_types, NULL);
	r->d = d;
	return &r->op;
}

/* Run the FROM side once, its rows deep-copied into the statement arena. */
static int
materialise_from(Dml *d, Operator *root)
{
	Arena *a = d->ctx->arena;
	Batch *b;
	int rc = FLOE_ERR;

	if (op_open(root) != FLOE_OK)
		goto out;
	for (;;) {
		Batch *cp;
		uint32_t i;
		int c;

		if (op_next_rows(d->ctx, root, NULL, &b) != FLOE_OK)
			goto out;
		if (!b)
			break;
		cp = batch_new(a, d->nfrom, d->from_types, b->count);
		for (i = 0; i < b->count; i++)
			for (c = 0; c < d->nfrom; c++) {
				Value v;
				vector_get_value(&b->cols[c], i, &v);
				vector_set_value(&cp->cols[c], i, &v);
			}
		cp->count = b->count;
		if (d->nfrom_rows == d->cap_from_rows) {
			int nc = d->cap_from_rows ? d->cap_from_rows * 2 : 8;
			d->from_rows = arena_realloc(a, d->from_rows,
						     sizeof(Batch *) * (size_t)d->cap_from_rows,
						     sizeof(Batch *) * (size_t)nc);
			d->cap_from_rows = nc;
		}
		d->from_rows[d->nfrom_rows++] = cp;
	}
	rc = FLOE_OK;
out:
	op_close(root);
	return rc;
}

/* Which side an expression's columns come from: 1 target (and its
 * position), 2 the FROM side, 3 both, 0 none. */
static int
expr_side(const Expr *e, int ntarget)
{
	int side = 0, i;

	if (!e)
		return 0;
	if (e->kind == EXPR_COLREF)
		return e->col < ntarget ? 1 : 2;
	for (i = 0; i < e->nargs; i++)
		side |= expr_side(e->args[i], ntarget);
	return side;
}

/* Hash keys: conjuncts target_expr = from_expr of equal types. */
static void
plan_join_keys(Dml *d, Expr *const *cond)
{
	int nt = d->schema->nfields + 1, i, n = 0;
	const Expr *w = *cond;
	Expr *const *conj;
	int nconj;
	int *map;

	if (!w)
		return;
	conj = w->kind == EXPR_AND ? w->args : cond;
	nconj = w->kind == EXPR_AND ? w->nargs : 1;
	d->lkeys = ARENA_ARRAY(d->ctx->arena, Expr *, nconj + 1);
	d->rkeys = ARENA_ARRAY(d->ctx->arena, Expr *, nconj + 1);
	map = ARENA_ARRAY(d->ctx->arena, int, nt + d->nfrom + 1);
	for (i = 0; i < nt + d->nfrom; i++)
		map[i] = i >= nt ? i - nt : i;
	for (i = 0; i < nconj; i++) {
		const Expr *e = conj[i];
		int s0, s1;
		if (!e || e->kind != EXPR_FUNC || !e->fn || !e->fn->is_operator ||
		    strcmp(e->fn->name, "=") != 0 || e->nargs != 2 ||
		    !type_equal(e->args[0]->type, e->args[1]->type))
			continue;
		s0 = expr_side(e->args[0], nt);
		s1 = expr_side(e->args[1], nt);
		if (s0 == 1 && s1 == 2) {
			d->lkeys[n] = e->args[0];
			d->rkeys[n++] = remap(d->ctx->arena, e->args[1], map);
		} else if (s0 == 2 && s1 == 1) {
			d->lkeys[n] = e->args[1];
			d->rkeys[n++] = remap(d->ctx->arena, e->args[0], map);
		}
	}
	d->nkeys = n;
}

/* The batch's first nfields columns, rows sel (NULL: all), for the data
 * writer. */
static int
write_target_rows(Dml *d, DataFile *f, const Batch *b, uint32_t *sel, uint32_t n, int lc, int pcol,
		  Arena *scratch)
{
	Batch wb = *b;
	Slot *sl = d->moves && lc < 0 ? moved_slot(d, d->ctx->err) : slot_for(d, f, d->ctx->err);
	int nf = d->schema->nfields;

	if (!sl)
		return FLOE_ERR;
	wb.ncols = d->nw;
	wb.cols = ARENA_ARRAY(scratch, Vector, wb.ncols + 1);
	memcpy(wb.cols, b->cols, sizeof(Vector) * (size_t)nf);
	if (d->lineage && lc >= 0) {
		/* kept rows: their lineage as scanned (columns lc, lc + 1) */
		wb.cols[nf] = b->cols[lc];
		wb.cols[nf + 1] = b->cols[lc + 1];
	} else if (d->lineage) {
		/* updated rows: the _row_id at their file position, NULL seq */
		const int64_t *pv = (const int64_t *)b->cols[pcol].data;
		uint32_t j;
		vector_init(&wb.cols[nf], type_make(TYPE_INT64), scratch, b->count);
		vector_init(&wb.cols[nf + 1], type_make(TYPE_INT64), scratch, b->count);
		for (j = 0; j < b->count; j++) {
			vector_set_null(&wb.cols[nf], j);
			vector_set_null(&wb.cols[nf + 1], j);
		}
		for (j = 0; j < (sel ? n : b->count); j++) {
			uint32_t r = sel ? sel[j] : j;
			int64_t p = pv[r];
			if (d->row_ids && p >= 0 && p < f->record_count && d->row_id_ok[p]) {
				((int64_t *)wb.cols[nf].data)[r] = d->row_ids[p];
				vector_set_valid(&wb.cols[nf], r);
			}
		}
	}
	if (sel && n < b->count) {
		wb.sel = sel;
		wb.count = n;
	}
	batch_compact(&wb);
	return slot_write(sl, &wb, d->ctx->err);
}

/* A correlated scalar subquery with no row is NULL: the SET column(s) of
 * the LEFT join's unmatched rows (marker NULL), then their NOT NULL check. */
static int
scalar_nulls(Dml *d, Batch *ob, const uint32_t *sel, uint32_t ns, Arena *scratch)
{
	int mk = ob->ncols - 1, k;

	for (k = 0; k < d->nscalar_cols; k++) {
		int c = d->scalar_cols[k];
		const IcebergField *f = &d->schema->fields[c];
		Vector v;
		uint32_t j;

		vector_init(&v, f->type, scratch, ob->count);
		vector_copy_rows(&v, 0, &ob->cols[c], NULL, ob->count);
		for (j = 0; j < ns; j++) {
			uint32_t r = ns == ob->count ? j : sel[j];
			if (!d->scalar_keep && !vector_is_valid(&ob->cols[mk], r))
				vector_set_null(&v, r);
			if (f->required && !vector_is_valid(&v, r)) {
				floe_errorf(d->ctx->err, ERRCODE_NOT_NULL_VIOLATION,
					    "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
					    f->name, d->t->name);
				ob->cols[c] = v;
				insert_row_detail(d->ctx->err, ob, d->schema->nfields, r, scratch);
				return FLOE_ERR;
			}
		}
		ob->cols[c] = v;
	}
	return check_constraints_rows(d->checks, d->ctx, ob, ns == ob->count ? NULL : sel, ns);
}

/* UPDATE on the position path (lineage): the _row_id of every live row
 * of f by file position, in fa (a scan of the position and the id). */
static int
lineage_ids(Dml *d, DataFile *f, Arena *fa)
{
	ExecCtx sctx = *d->ctx;
	int proj[2] = { SCAN_PROJ_FILE_POS, SCAN_PROJ_ROW_ID };
	Operator *scan;
	Batch *b;
	int rc;

	if (f->record_count <= 0)
		return FLOE_OK;
	d->row_ids = arena_alloc(fa, sizeof(int64_t) * (size_t)f->record_count);
	d->row_id_ok = arena_alloc(fa, (size_t)f->record_count);
	memset(d->row_id_ok, 0, (size_t)f->record_count);
	sctx.arena = d->op_arena;
	scan = scan_new(&sctx, d->schema, 2, proj, f, 1, false, d->t->md);
	if ((rc = op_open(scan)) == FLOE_OK)
		for (;;) {
			uint32_t j;
			if ((rc = op_next(scan, &b)) != FLOE_OK || !b)
				break;
			batch_compact(b);
			for (j = 0; j < b->count; j++) {
				int64_t p = ((const int64_t *)b->cols[0].data)[j];
				if (p < 0 || p >= f->record_count) {
					rc = FLOE_CORRUPT(d->ctx->err,
							  "row position %lld out of range in data file \"%s\"",
							  (long long)p, f->file_path);
					break;
				}
				if (vector_is_valid(&b->cols[1], j)) {
					d->row_ids[p] = ((const int64_t *)b->cols[1].data)[j];
					d->row_id_ok[p] = 1;
				}
			}
			if (rc != FLOE_OK)
				break;
		}
	op_close(scan);
	return rc;
}

/* The copy-on-write pass of the position path: the rows kept as scanned
 * (their lineage at columns nfields + 1, + 2). */
static int
keep_rows(void *arg, Batch *b, uint32_t *hit, uint32_t nhit, uint32_t *keep, uint32_t nkeep,
	  Arena *scratch)
{
	RewriteArg *ra = arg;
	int n = ra->d->schema->nfields;

	if (!nkeep)
		return FLOE_OK;
	return write_target_rows(ra->d, ra->f, b, keep, nkeep, n + 1, n, scratch);
}

/* The position path for one file. */
static int
pos_file(Dml *d, DataFile *f, Arena *fa, Arena *scratch)
{
	ExecCtx *ctx = d->ctx;
	ExecCtx sctx = *ctx;     /* the scans' memory goes with op_arena */
	int n = d->schema->nfields, i, rc = FLOE_ERR, pcol = n;
	int *proj = ARENA_ARRAY(d->op_arena, int, n + 4);
	Operator *scan, *op;
	Expr *where = d->where;  /* NULL once applied (metadata columns) */
	uint64_t *bits = NULL;
	size_t words = 0, w;
	int64_t nmatch = 0, *pos, npos = 0;
	CowRewrite rw;
	RewriteArg ra;
	Batch *b;

	for (i = 0; i < n; i++)
		proj[i] = i;
	proj[n] = SCAN_PROJ_FILE_POS;
	proj[n + 1] = SCAN_PROJ_ROW_ID;          /* the copy-on-write scan (lineage) */
	proj[n + 2] = SCAN_PROJ_LAST_UPDATED_SEQ;
	sctx.arena = d->op_arena;
	d->row_ids = NULL;
	if (d->update && d->lineage && lineage_ids(d, f, fa) != FLOE_OK)
		return FLOE_ERR;
	if (d->narrow) {
		int *np = ARENA_ARRAY(d->op_arena, int, d->nmatch_proj + 2);
		memcpy(np, d->match_proj, sizeof(int) * (size_t)d->nmatch_proj);
		np[d->nmatch_proj] = SCAN_PROJ_FILE_POS;
		pcol = d->nmatch_proj;
		scan = op = scan_new(&sctx, d->schema, pcol + 1, np, f, 1, false, d->t->md);
		if (d->match_where)
			op = filter_new(&sctx, scan, d->match_where);
	} else if (d->meta_used) {
		/* WHERE's metadata columns after the position (bind_where_meta),
		 * filtered on, then dropped: the rest sees columns and position */
		int *mp = ARENA_ARRAY(d->op_arena, int, n + 1 + N_DML_META_COLS);
		Expr **keep = ARENA_ARRAY(d->op_arena, Expr *, n + 1);
		memcpy(mp, proj, sizeof(int) * (size_t)(n + 1));
		for (i = 0; i < N_DML_META_COLS; i++)
			mp[n + 1 + i] = dml_meta_cols[i].proj;
		for (i = 0; i < n; i++)
			keep[i] = expr_colref(d->op_arena, i, d->schema->fields[i].type);
		keep[n] = expr_colref(d->op_arena, n, type_make(TYPE_INT64));
		op = scan_new(&sctx, d->schema, n + 1 + N_DML_META_COLS, mp, f, 1, false, d->t->md);
		op = filter_new(&sctx, op, d->where);
		scan = op = project_new(&sctx, op, n + 1, keep);
		where = NULL;
	} else {
		scan = op = scan_new(&sctx, d->schema, n + 1, proj, f, 1, false, d->t->md);
	}
	if (d->narrow) {
		/* planned above */
	} else if (d->joined && d->scalar) {
		if (where)
			op = filter_new(&sctx, op, where);
		op = hash_join_new(&sctx, op, rows_new(&sctx, d), JOIN_LEFT, d->nkeys, d->lkeys,
				   d->rkeys, d->join_cond, false);
	} else if (d->joined && d->anti) {
		op = hash_join_new(&sctx, scan, rows_new(&sctx, d), JOIN_ANTI, d->nkeys, d->lkeys,
				   d->rkeys, d->join_cond, false);
		if (where)
			op = filter_new(&sctx, op, where);
	} else if (d->joined) {
		op = hash_join_new(&sctx, scan, rows_new(&sctx, d), JOIN_INNER, d->nkeys, d->lkeys,
				   d->rkeys, where, false);
	} else if (where) {
		op = filter_new(&sctx, scan, where);
	}
	if (op_open(op) != FLOE_OK)
		goto out;
	for (;;) {
		uint32_t *sel, ns = 0, j;
		const int64_t *pv;

		if (op_next_rows(ctx, op, scratch, &b) != FLOE_OK)
			goto out;
		if (!b)
			break;
		pv = (const int64_t *)b->cols[pcol].data;
		sel = ARENA_ARRAY(scratch, uint32_t, b->count);
		for (j = 0; j < b->count; j++) {
			int64_t p = pv[j];
			if (p < 0 || p >= f->record_count) {
				FLOE_CORRUPT(ctx->err, "row position %lld out of range in data file \"%s\"",
					     (long long)p, f->file_path);
				goto out;
			}
			bits_grow(fa, &bits, &words, p + 1);
			if (bit_get(bits, p) && d->scalar) {
				floe_errorf(ctx->err, ERRCODE_CARDINALITY_VIOLATION,
					    "more than one row returned by a subquery used as an expression");
				goto out;
			}
			if (bit_get(bits, p))
				continue;         /* changed already (joined to another row) */
			bits[p >> 6] |= (uint64_t)1 << (p & 63);
			sel[ns++] = j;
		}
		if (ns == 0)
			continue;
		nmatch += ns;
		if (d->update) {
			Batch ob;
			if (update_batch(d, b, ns == b->count ? NULL : sel, ns, scratch, &ob) != FLOE_OK ||
			    (d->scalar && scalar_nulls(d, &ob, sel, ns, scratch) != FLOE_OK) ||
			    (d->ret.n && dml_returning_rows(&d->ret, ctx, &ob, ns == b->count ? NULL : sel,
							    ns, scratch) != FLOE_OK))
				goto out;
			if (write_target_rows(d, f, &ob, sel, ns, -1, pcol, scratch) != FLOE_OK)
				goto out;
		} else if (d->ret.n &&
			   dml_returning_rows(&d->ret, ctx, b, ns == b->count ? NULL : sel, ns,
					      scratch) != FLOE_OK) {
			goto out;
		}
	}
	op_close(op);
	op = NULL;
	d->rows += nmatch;
	if (nmatch == 0) {
		rc = FLOE_OK;
		goto out;
	}
	/* the changed positions, ascending */
	pos = arena_alloc(fa, sizeof(int64_t) * (size_t)nmatch);
	for (w = 0; w < words; w++) {
		uint64_t x = bits[w];
		while (x) {
			int bit = __builtin_ctzll(x);
			pos[npos++] = (int64_t)(w * 64 + (size_t)bit);
			x &= x - 1;
		}
	}
	if (d->mor) {
		if (!d->dw)
			d->dw = delete_writer_new(d->s->engine->io, d->t, ctx->arena);
		if (delete_writer_add(d->dw, f, pos, npos, ctx->err) == FLOE_OK) {
			rc = FLOE_OK;
			goto out;
		}
		if (!floe_error_is(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED))
			goto out;
		/* a delete the writer cannot write (yet): copy-on-write gives
		 * the same rows to every reader */
		floe_error_clear(ctx->err);
		d->mor = false;
	}
	/* copy-on-write: the file again, without the changed positions */
	rewrite_init(&rw, &ra, d, f, scratch);
	rw.by_pos = true;
	rw.pos = pos;
	rw.npos = npos;
	rw.rows = keep_rows;
	if (cow_rewrite(&rw) != FLOE_OK)
		goto out;
	add_removed(d, f->file_path);
	rc = FLOE_OK;
out:
	if (op)
		op_close(op);
	return rc;
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
	if (d->where && !d->pos_path)
		plan_match(d);
	if (d->mor && !d->update && !d->ret.n && !d->joined) {
		/* merge-on-read DELETE: read WHERE's columns and the position */
		plan_match(d);
		d->narrow = true;
	}
	if (d->joined) {
		plan_join_keys(d, d->anti || d->scalar ? &d->join_cond : &d->where);
		TRY(materialise_from(d, d->from_root));
		if (d->nfrom_rows == 0 && !d->anti && !d->scalar)
			return FLOE_OK;      /* nothing to join with */
	}
	fa = arena_new(64 * 1024);
	scratch = arena_new(256 * 1024);
	d->op_arena = arena_new(16 * 1024);
	for (i = 0; i < nfiles; i++) {
		DataFile *f = &files[i];
		uint64_t *bits = NULL;
		int64_t nrows = f->record_count, nmatch = f->record_count;

		arena_reset(fa);
		arena_reset(d->op_arena);   /* frees the previous file's scans */
		if (d->pos_path) {
			if (!d->joined && d->where && prune(f, d->schema, d->where))
				continue;
			if (pos_file(d, f, fa, scratch) != FLOE_OK)
				goto fail;
			continue;
		}
		if (d->where) {
			bool done;
			if (prune(f, d->schema, d->where))
				continue;
			if (d->update && !d->meta_used) {
				if (onepass_file(d, f, fa, scratch, &bits, &nrows, &nmatch, &done) !=
				    FLOE_OK)
					goto fail;
				if (done)
					continue;
			} else if (match_file(d, f, 0, fa, scratch, &bits, &nrows, &nmatch) != FLOE_OK) {
				goto fail;
			}
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
	if (d->npk && pk_check(d, files, nfiles) != FLOE_OK)
		goto fail;
	if (d->nremoved == 0 && !d->dw && d->nslots == 0)
		return FLOE_OK;
	if (d->dw) {
		DataFile *dadd;
		char **drm;
		int ndadd, ndrm;
		if (delete_writer_finish(d->dw, &dadd, &ndadd, &drm, &ndrm, ctx->err) != FLOE_OK)
			goto fail;
		d->dw_add = dadd;
		d->ndw_add = ndadd;
		for (k = 0; k < ndrm; k++)
			add_removed(d, drm[k]);
	}

	for (i = 0; i < d->nslots; i++) {
		Slot *sl = &d->slots[i];
		if (slot_flush(sl, false, ctx->err) != FLOE_OK)
			goto fail;
		sl->files = sl->rolled;      /* the earlier runs' files first */
		sl->nfiles = sl->nrolled;
		if (data_writer_finish_append(sl->w, ctx->arena, &sl->files, &sl->nfiles, ctx->err) !=
		    FLOE_OK)
			goto fail;
		sl->finished = true;
		for (k = 0; k < sl->nfiles; k++) {
			if (sl->pending) {
				sl->files[k].has_sort_order_id = true;
				sl->files[k].sort_order_id = d->sort_order_id;
			}
			if (sl->fanout)
				continue;       /* the writer set spec and partition */
			sl->files[k].spec_id = sl->spec_id;
			if (!sl->shared) {
				sl->files[k].npartition = sl->src->npartition;
				sl->files[k].partition = sl->src->partition;
			}
		}
		nadded += sl->nfiles;
	}
	added = ARENA_ARRAY(ctx->arena, DataFile, nadded + d->ndw_add + 1);
	nadded = 0;
	for (i = 0; i < d->nslots; i++)
		for (k = 0; k < d->slots[i].nfiles; k++)
			added[nadded++] = d->slots[i].files[k];
	for (k = 0; k < d->ndw_add; k++)
		added[nadded++] = d->dw_add[k];     /* delete files / vectors */
	job_id(job, sizeof job);
	{
		TableChange ch;
		memset(&ch, 0, sizeof ch);
		ch.remove = (const char *const *)d->removed;
		ch.nremove = d->nremoved;
		ch.add = added;
		ch.nadd = nadded;
		ch.job_id = job;
		if (txn_commit(d->s, d->t, &ch, ctx->arena, &out, ctx->err) != FLOE_OK) {
			if (!txn_commit_failed(d->s, &ch, ctx->err))
				goto fail;
			/* 08006: the swap may have landed and name our files:
			 * keep them all, listed as orphan candidates (invariant 1) */
			for (i = 0; i < d->nslots; i++)
				data_writer_free(d->slots[i].w);
			d->nslots = 0;
			d->dw = NULL;
			return FLOE_ERR;
		}
	}
	for (i = 0; i < d->nslots; i++)
		data_writer_free(d->slots[i].w);
	d->nslots = 0;
	d->dw = NULL;            /* committed: its files are the table's now */
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

/* ---- UPDATE ... FROM / DELETE ... USING: the joined side -------------- */

/* WITH on UPDATE / DELETE: read-only CTEs (select.c plans them where they
 * are referenced); data-modifying ones are 0A000. */
static int
check_with(ExecCtx *ctx, PgQuery__WithClause *w)
{
	size_t i;

	for (i = 0; w && i < w->n_ctes; i++) {
		Node *q = w->ctes[i]->common_table_expr->ctequery;
		if (!q || q->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
			return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "data-modifying statements in WITH are not supported yet");
	}
	return FLOE_OK;
}

/* SELECT * FROM items (a parse tree sharing the statement's items). */
static Node *
select_star_from(Arena *a, PgQuery__WithClause *with, Node **items, size_t nitems, bool marker)
{
	PgQuery__AStar *star = ARENA_NEW(a, PgQuery__AStar);
	PgQuery__ColumnRef *cr = ARENA_NEW(a, PgQuery__ColumnRef);
	PgQuery__ResTarget *rt = ARENA_NEW(a, PgQuery__ResTarget);
	PgQuery__SelectStmt *ss = ARENA_NEW(a, PgQuery__SelectStmt);
	Node **n = ARENA_ARRAY(a, Node *, 4);
	int i;

	for (i = 0; i < 4; i++) {
		n[i] = ARENA_NEW(a, Node);
		pg_query__node__init(n[i]);
	}
	pg_query__a__star__init(star);
	pg_query__column_ref__init(cr);
	pg_query__res_target__init(rt);
	pg_query__select_stmt__init(ss);
	n[0]->node_case = PG_QUERY__NODE__NODE_A_STAR;
	n[0]->a_star = star;
	cr->n_fields = 1;
	cr->fields = &n[0];
	cr->location = -1;
	n[1]->node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
	n[1]->column_ref = cr;
	rt->val = n[1];
	rt->location = -1;
	n[2]->node_case = PG_QUERY__NODE__NODE_RES_TARGET;
	n[2]->res_target = rt;
	ss->n_target_list = 1;
	ss->target_list = &n[2];
	if (marker) {
		/* SELECT *, true: a column that is NULL only on a LEFT join's
		 * unmatched rows */
		PgQuery__AConst *k = ARENA_NEW(a, PgQuery__AConst);
		PgQuery__Boolean *bv = ARENA_NEW(a, PgQuery__Boolean);
		PgQuery__ResTarget *rt2 = ARENA_NEW(a, PgQuery__ResTarget);
		Node *kn = ARENA_NEW(a, Node), *rn = ARENA_NEW(a, Node);
		pg_query__a__const__init(k);
		pg_query__boolean__init(bv);
		pg_query__res_target__init(rt2);
		pg_query__node__init(kn);
		pg_query__node__init(rn);
		bv->boolval = true;
		k->val_case = PG_QUERY__A__CONST__VAL_BOOLVAL;
		k->boolval = bv;
		k->location = -1;
		kn->node_case = PG_QUERY__NODE__NODE_A_CONST;
		kn->a_const = k;
		rt2->val = kn;
		rt2->location = -1;
		rn->node_case = PG_QUERY__NODE__NODE_RES_TARGET;
		rn->res_target = rt2;
		ss->target_list = ARENA_ARRAY(a, Node *, 2);
		ss->target_list[0] = n[2];
		ss->target_list[1] = rn;
		ss->n_target_list = 2;
	}
	ss->n_from_clause = nitems;
	ss->from_clause = items;
	ss->op = PG_QUERY__SET_OPERATION__SETOP_NONE;
	ss->limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
	ss->with_clause = with;      /* the statement's WITH (not the parser's tree) */
	n[3]->node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
	n[3]->select_stmt = ss;
	return n[3];
}

/* The relation name each column of FROM item `it` answers to (NULL: only
 * unqualified references); *k advances by the item's column count. */
static int
item_relnames(Dml *d, Node *it, char **out, int *k, int max)
{
	SelectPlan p;
	const char *rel = NULL;
	int i, start = *k;

	if (it->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR && !it->join_expr->alias &&
	    !it->join_expr->n_using_clause && !it->join_expr->is_natural) {
		TRY(item_relnames(d, it->join_expr->larg, out, k, max));
		TRY(item_relnames(d, it->join_expr->rarg, out, k, max));
		return FLOE_OK;
	}
	TRY(select_plan(d->s, d->ctx, d->sql, select_star_from(d->ctx->arena, d->with, &it, 1, false), &p));
	switch (it->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
		rel = it->range_var->alias ? it->range_var->alias->aliasname : it->range_var->relname;
		if (!it->range_var->alias && !d->scope.relnames &&
		    !strcmp(rel, d->scope.relname)) {
			floe_errorf(d->ctx->err, ERRCODE_DUPLICATE_ALIAS,
				    "table name \"%s\" specified more than once", rel);
			floe_error_position(d->ctx->err, bind_location(&d->b, it->range_var->location));
			return FLOE_ERR;
		}
		break;
	case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
		rel = it->range_subselect->alias ? it->range_subselect->alias->aliasname : NULL;
		break;
	case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
		rel = it->range_function->alias ? it->range_function->alias->aliasname : NULL;
		break;
	case PG_QUERY__NODE__NODE_JOIN_EXPR:
		rel = it->join_expr->alias ? it->join_expr->alias->aliasname : NULL;
		break;
	default:
		break;
	}
	for (i = 0; i < p.ncols && start + i < max; i++)
		out[start + i] = (char *)rel;
	*k = start + p.ncols;
	return FLOE_OK;
}

/*
 * Plan the FROM / USING items (SELECT * FROM items: select.c plans joins,
 * subqueries, functions) and widen the scope to the target's columns, its
 * hidden file position, then the items' columns.  The rows are read once
 * when the statement runs (materialise_from).
 */
static int
bind_from(Dml *d, Node **items, size_t nitems, Operator **root)
{
	SelectPlan p;
	int n = d->schema->nfields, m, i, k = 0;
	Scope *sc = &d->scope;
	char **rels;

	TRY(select_plan(d->s, d->ctx, d->sql,
			select_star_from(d->ctx->arena, d->with, items, nitems, d->scalar), &p));
	m = p.ncols;
	rels = ARENA_ARRAY(d->ctx->arena, char *, m + 1);
	for (i = 0; i < (int)nitems; i++)
		TRY(item_relnames(d, items[i], rels, &k, m));
	if (k != m - (d->scalar ? 1 : 0))
		for (i = 0; i < m; i++)
			rels[i] = NULL;
	if (d->scalar) {
		rels[m - 1] = NULL;
		p.names[m - 1] = "";         /* the marker: hidden below */
	}
	d->joined = d->pos_path = true;
	d->nfrom = m;
	d->from_types = p.types;
	*root = p.root;
	sc->names = arena_realloc(d->ctx->arena, sc->names, sizeof(char *) * (size_t)(n + 1),
				  sizeof(char *) * (size_t)(n + m + 2));
	sc->types = arena_realloc(d->ctx->arena, sc->types, sizeof(SqlType) * (size_t)(n + 1),
				  sizeof(SqlType) * (size_t)(n + m + 2));
	sc->relnames = ARENA_ARRAY(d->ctx->arena, char *, n + m + 2);
	sc->hidden = ARENA_ARRAY(d->ctx->arena, bool, n + m + 2);
	for (i = 0; i < n; i++)
		sc->relnames[i] = sc->relname;
	sc->names[n] = "";
	sc->types[n] = type_make(TYPE_INT64);
	sc->hidden[n] = true;                /* the file position */
	for (i = 0; i < m; i++) {
		sc->names[n + 1 + i] = p.names[i];
		sc->types[n + 1 + i] = p.types[i];
		sc->relnames[n + 1 + i] = rels[i];
		sc->hidden[n + 1 + i] = !p.names[i][0];
	}
	sc->ncols = n + 1 + m;
	return FLOE_OK;
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
			floe_error_position(d->ctx->err, bind_location(&d->b, sql_location(&src->base)));
			return FLOE_ERR;
		}
		v = args[m->colno - 1];
	}
	*val = v;
	return FLOE_OK;
}

/* SET (cols) = (uncorrelated SELECT): the subquery as a derived table
 * LEFT joined to every row (no row: NULLs; two rows: 21000). */
static int
set_multi_derived(Dml *d, int *cols, int n, PgQuery__SubLink *sl, int nout)
{
	Arena *a = d->ctx->arena;
	PgQuery__RangeSubselect *rs = ARENA_NEW(a, PgQuery__RangeSubselect);
	PgQuery__Alias *al = ARENA_NEW(a, PgQuery__Alias);
	Node **items = ARENA_ARRAY(a, Node *, 1);
	int k, nt = d->schema->nfields;

	if (nout != n) {
		floe_errorf(d->ctx->err, ERRCODE_SYNTAX_ERROR,
			    "number of columns does not match number of values");
		floe_error_position(d->ctx->err, bind_location(&d->b, sl->location));
		return FLOE_ERR;
	}
	pg_query__range_subselect__init(rs);
	pg_query__alias__init(al);
	al->aliasname = "__s";
	rs->subquery = sl->subselect;
	rs->alias = al;
	items[0] = wrap(a, PG_QUERY__NODE__NODE_RANGE_SUBSELECT, rs);
	d->scalar = true;
	d->scalar_col = cols[0];
	d->scalar_cols = cols;
	d->nscalar_cols = n;
	TRY(bind_from(d, items, 1, &d->from_root));
	for (k = 0; k < n; k++) {
		int sc = nt + 1 + k;
		Expr *e = expr_colref(a, sc, d->scope.types[sc]);
		if (!(e = bind_coerce_column(&d->b, e, &d->schema->fields[cols[k]])))
			return FLOE_ERR;
		d->set[cols[k]] = e;
	}
	d->scope.ncols = nt;         /* the other SET items / RETURNING: the target */
	return FLOE_OK;
}

/*
 * SET (a, b, ...) = (SELECT x, y, ... FROM ...), correlated or not: the
 * subquery is a LEFT join (bind_scalar) giving each listed column; the
 * ResTargets i .. i + ncolumns - 1 of the statement are its columns.
 */
static int
set_multi_subquery(Dml *d, PgQuery__UpdateStmt *st, int i, int c0)
{
	PgQuery__MultiAssignRef *m = st->target_list[i]->res_target->val->multi_assign_ref;
	int n = m->ncolumns, k, j;
	int *cols = ARENA_ARRAY(d->ctx->arena, int, n + 1);
	PgQuery__SubLink *sl = m->source->sub_link;

	if (d->joined || d->scalar)
		return unsupported(d, "UPDATE ... SET (...) = (SELECT ...) with FROM or another subquery",
				   st->target_list[i]->res_target->location);
	if (m->colno != 1 || i + n > (int)st->n_target_list)
		return unsupported(d, "this form of multiple-column UPDATE",
				   st->target_list[i]->res_target->location);
	cols[0] = c0;
	for (k = 1; k < n; k++) {
		PgQuery__ResTarget *rt = st->target_list[i + k]->res_target;
		int c = find_column(d, rt->name);
		if (c < 0) {
			floe_errorf(d->ctx->err, ERRCODE_UNDEFINED_COLUMN,
				    "column \"%s\" of relation \"%s\" does not exist", rt->name,
				    d->t->name);
			floe_error_position(d->ctx->err, bind_location(&d->b, rt->location));
			return FLOE_ERR;
		}
		for (j = 0; j < k; j++)
			if (cols[j] == c || d->set[c]) {
				floe_errorf(d->ctx->err, ERRCODE_SYNTAX_ERROR,
					    "multiple assignments to same column \"%s\"", rt->name);
				floe_error_position(d->ctx->err, bind_location(&d->b, rt->location));
				return FLOE_ERR;
			}
		if (rt->n_indirection)
			return unsupported(d, "assignment to a subfield or array element", rt->location);
		if (is_partition_source(d->t->md, d->schema->fields[c].id))
			d->moves = true;
		cols[k] = c;
	}
	if (sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__MULTIEXPR_SUBLINK &&
	    sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK)
		return unsupported(d, "this form of multiple-column UPDATE", sl->location);
	{
		/* uncorrelated (it plans on its own): the whole subquery is the
		 * joined item, any SELECT; else the correlated form */
		SelectPlan p;
		if (select_plan(d->s, d->ctx, d->sql, sl->subselect, &p) == FLOE_OK)
			return set_multi_derived(d, cols, n, sl, p.ncols);
		if (!floe_error_is(d->ctx->err, ERRCODE_UNDEFINED_TABLE) &&
		    !floe_error_is(d->ctx->err, ERRCODE_UNDEFINED_COLUMN) &&
		    !correlated_error(d->ctx->err))
			return FLOE_ERR;
		floe_error_clear(d->ctx->err);
	}
	return bind_scalar(d, cols, n, sl);
}

/* After binding: SELECT on the target as well when what the binder bound
 * reads one of its columns (columns 0 .. nfields-1 of every scope the
 * statement's expressions were bound over): WHERE (with the correlated
 * subqueries it became a join for), SET, RETURNING, as PostgreSQL marks
 * the columns it reads.  UPDATE t SET a = 1 FROM u WHERE u.x = 1 reads
 * none; SET a = a, WHERE a = 1, RETURNING t.a do. */
static int
note_reads(Dml *d)
{
	int n = d->schema->nfields;
	bool reads = acl_exprs_read_target(&d->where, 1, n) ||
		     acl_exprs_read_target(&d->join_cond, 1, n) ||
		     acl_exprs_read_target(d->ret.exprs, d->ret.n, n);

	if (!reads && d->set)
		reads = acl_exprs_read_target(d->set, n, n);
	return acl_note_target_read(d->s, d->ctx, d->t, reads, d->ctx->err);
}

/* Bind an UPDATE: table, WHERE, SET, RETURNING (nothing is read). */
static int
update_bind(Dml *d, Session *s, ExecCtx *ctx, const char *sql, PgQuery__UpdateStmt *st)
{
	int i, c;

	TRY(check_with(ctx, st->with_clause));
	TRY(dml_begin(d, s, ctx, sql, st->relation, true, ROLE_PRIV_UPDATE));
	d->b.with = d->with = st->with_clause;
	if (st->n_from_clause)
		TRY(bind_from(d, st->from_clause, st->n_from_clause, &d->from_root));
	TRY(bind_where(d, st->where_clause));

	TRY(check_constraints_bind(s, ctx, d->t, &d->checks));
	d->set = ARENA_ARRAY(ctx->arena, Expr *, d->schema->nfields + 1);
	d->b.allow_aggs = false;
	d->b.where = "UPDATE";
	for (i = 0; i < (int)st->n_target_list; i++) {
		PgQuery__ResTarget *rt = st->target_list[i]->res_target;
		const IcebergField *f;
		Node *val;
		Expr *x;

		c = find_column(d, rt->name);
		if (c < 0 && dml_is_meta_col(rt->name)) {
			floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "cannot assign to system column \"%s\"", rt->name);
			floe_error_position(ctx->err, bind_location(&d->b, rt->location));
			return FLOE_ERR;
		}
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
			d->moves = true;         /* updated rows may change partition */
		if (rt->val && rt->val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF &&
		    rt->val->multi_assign_ref->source &&
		    rt->val->multi_assign_ref->source->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
			TRY(set_multi_subquery(d, st, i, c));
			i += rt->val->multi_assign_ref->ncolumns - 1;
			continue;
		}
		TRY(set_value(d, rt, &val));
		if (!val || val->node_case != PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
			TRY(identity_update_check(&d->b, f, -1));   /* 428C9, as PostgreSQL */
		if (val && val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) {
			if (!(x = bind_default_expr(&d->b, f)))
				return FLOE_ERR;
		} else if (!(x = bind_expr(&d->b, val))) {
			if (!correlated_error(ctx->err) || d->joined || d->scalar || !val ||
			    val->node_case != PG_QUERY__NODE__NODE_SUB_LINK ||
			    val->sub_link->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK)
				return FLOE_ERR;
			floe_error_clear(ctx->err);
			{
				int *one = ARENA_ARRAY(ctx->arena, int, 1);
				one[0] = c;
				TRY(bind_scalar(d, one, 1, val->sub_link));
			}
			continue;
		} else if (!(x = bind_coerce_column(&d->b, x, f))) {
			return FLOE_ERR;
		}
		d->set[c] = x;
	}
	pk_plan(d);
	if (st->n_returning_list)
		TRY(dml_returning_bind(&d->ret, &d->b, d->schema, d->scope.relname, st->returning_list,
					 (int)st->n_returning_list));
	return note_reads(d);
}

/* Run a bound UPDATE / DELETE, send its RETURNING rows (after the
 * commit), complete with "<verb> <rows>". */
static int
run_report(Dml *d, ExecCtx *ctx, ResultSink *sink, const char *verb)
{
	char tag[64];

	TRY(dml_run(d));
	TRY(dml_returning_send(&d->ret, ctx, sink));
	snprintf(tag, sizeof tag, "%s %lld", verb, (long long)d->rows);
	return complete(sink, tag);
}

int
dml_update(Session *s, ExecCtx *ctx, const char *sql, PgQuery__UpdateStmt *st, ResultSink *sink)
{
	Dml d;

	TRY(update_bind(&d, s, ctx, sql, st));
	return run_report(&d, ctx, sink, "UPDATE");
}

/* ---- DELETE ------------------------------------------------------------ */

static int
delete_bind(Dml *d, Session *s, ExecCtx *ctx, const char *sql, PgQuery__DeleteStmt *st)
{
	TRY(check_with(ctx, st->with_clause));
	TRY(dml_begin(d, s, ctx, sql, st->relation, false, ROLE_PRIV_DELETE));
	d->b.with = d->with = st->with_clause;
	if (st->n_using_clause)
		TRY(bind_from(d, st->using_clause, st->n_using_clause, &d->from_root));
	TRY(bind_where(d, st->where_clause));
	if (st->n_returning_list)
		TRY(dml_returning_bind(&d->ret, &d->b, d->schema, d->scope.relname, st->returning_list,
					 (int)st->n_returning_list));
	return note_reads(d);
}

int
dml_delete(Session *s, ExecCtx *ctx, const char *sql, PgQuery__DeleteStmt *st, ResultSink *sink)
{
	Dml d;

	TRY(delete_bind(&d, s, ctx, sql, st));
	return run_report(&d, ctx, sink, "DELETE");
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

/*
 * EXPLAIN of a write (select.c refuses it after this): the privileges the
 * statement would need, checked as it checks them.  UPDATE / DELETE are
 * bound as they run (what the binder bound decides SELECT on the target;
 * nothing of the target is read); INSERT: the write, its source (VALUES,
 * SELECT, CTEs: insert_source) and RETURNING as bound; with ON CONFLICT
 * bound as it runs (merge_insert_explain_privileges: the arbiter, DO
 * UPDATE's SET and WHERE and their subqueries); MERGE: bound as it runs (merge_explain_privileges:
 * the actions' writes, the source, ON and WHEN), as PostgreSQL's EXPLAIN
 * checks what running the statement checks.  Only a 42501 is kept: any
 * other error leaves the caller's 0A000.
 */
int
dml_explain_privileges(Session *s, ExecCtx *ctx, const char *sql, Node *q)
{
	Dml d;
	Returning r;
	int rc = FLOE_OK;

	if (!q)
		return FLOE_OK;
	switch (q->node_case) {
	case PG_QUERY__NODE__NODE_UPDATE_STMT:
		rc = update_bind(&d, s, ctx, sql, q->update_stmt);
		break;
	case PG_QUERY__NODE__NODE_DELETE_STMT:
		rc = delete_bind(&d, s, ctx, sql, q->delete_stmt);
		break;
	case PG_QUERY__NODE__NODE_MERGE_STMT:
		/* its target, source, ON and WHEN, bound as MERGE binds them */
		rc = merge_explain_privileges(s, ctx, sql, q->merge_stmt);
		break;
	case PG_QUERY__NODE__NODE_INSERT_STMT: {
		unsigned want = acl_write_privs(q);
		Operator *src;
		Table *t;
		if (q->insert_stmt->on_conflict_clause) {
			/* bound as it runs (merge.c): the arbiter, the source, DO
			 * UPDATE's SET and WHERE, RETURNING */
			rc = merge_insert_explain_privileges(s, ctx, sql, q->insert_stmt);
			break;
		}
		rc = load_table(s, ctx, sql, q->insert_stmt->relation, want, &t);
		/* the source (VALUES, SELECT, its CTEs and subqueries), bound
		 * as INSERT binds it, then RETURNING */
		if (rc == FLOE_OK)
			rc = insert_source(s, ctx, sql, q->insert_stmt, t, &src);
		if (rc == FLOE_OK && q->insert_stmt->n_returning_list)
			rc = insert_describe(s, ctx, sql, q->insert_stmt, &r);
		break;
	}
	default:
		break;
	}
	if (rc != FLOE_OK && !floe_error_is(ctx->err, ERRCODE_INSUFFICIENT_PRIVILEGE)) {
		floe_error_clear(ctx->err);
		rc = FLOE_OK;
	}
	return rc;
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
		TRY(load_table(s, ctx, sql, n->range_var, ROLE_PRIV_TRUNCATE, &ts[i]));
		if (ts[i]->md->format_version < 2) {
			floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "TRUNCATE on an Iceberg format-version 1 table is not supported");
			return floe_error_hint(ctx->err,
					       "Upgrade the table to format version 2: "
				       "ALTER TABLE %s SET TBLPROPERTIES ('format-version' = '2').",
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
