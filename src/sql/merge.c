/*
 * merge.c — MERGE INTO, INSERT ... ON CONFLICT, and PRIMARY KEY
 * enforcement of plain INSERT, all through one mechanism: the table's
 * current rows joined with a source, each joined row sent to the first
 * WHEN clause that accepts it, one snapshot at the end.
 *
 * Spec: PostgreSQL 15 documentation "MERGE" and "INSERT" (ON CONFLICT),
 * nodeModifyTable.c's rules for rows affected twice; WHEN NOT MATCHED BY
 * SOURCE / BY TARGET as PostgreSQL 17 defines them (parse.c rewrites them
 * before libpg_query and marks a BY SOURCE clause as a MATCHED clause with
 * override OVERRIDING_SYSTEM_VALUE, which the grammar never gives one);
 * apache/iceberg format/spec.md "Row-level deletes" (copy-on-write: a
 * snapshot that drops
 * the rewritten data files and adds their replacements; merge-on-read:
 * position deletes / deletion vectors written by table/delete_writer.h).
 *
 * Plan (one pass over the join):
 *
 *   target: one scan per live data file f_i, producing the table's columns,
 *           the row's position in f_i and the constant i  (T cols, pos, fidx);
 *           without BY SOURCE clauses, files whose column bounds exclude
 *           every source key are skipped (prune_target)
 *   source: SELECT * FROM <USING item>, plus a constant TRUE marker
 *   join:   hash join target x source on the ON condition's equality
 *           conjuncts between the two sides (the rest is the residual;
 *           none: block nested loop), INNER, LEFT (NOT MATCHED BY SOURCE
 *           clauses), RIGHT (NOT MATCHED [BY TARGET]) or FULL (both)
 *   row:    pos NULL -> not matched by target; marker NULL -> not matched
 *           by source; else matched.  Clauses of the row's kind are tried
 *           in order, the first whose AND condition is true acts:
 *             UPDATE  the new row (SET over target and source columns)
 *                     is written; the old row's (file, pos) is recorded
 *             DELETE  (file, pos) recorded
 *             INSERT  the row (VALUES over source columns) is written
 *   end:    per file the recorded positions are sorted: one recorded
 *           twice is a target row affected twice -> 21000, nothing
 *           written.  Copy-on-write: each file with recorded positions is
 *           rewritten without them; merge-on-read (write.merge.mode, also
 *           for ON CONFLICT): position deletes (v2) / deletion vectors
 *           (v3) for them, from the delete writer (a delete writer that
 *           answers 0A000 falls back to copy-on-write).  One TableChange
 *           through txn_commit.
 *
 * ON CONFLICT (cols) is the same join with source = the INSERT's coerced
 * rows (relation name "excluded"), ON = t.col = excluded.col for each
 * conflict column (NULLs never conflict), MATCHED -> DO UPDATE [WHERE] /
 * DO NOTHING and NOT MATCHED -> INSERT.  Rows of the INSERT with equal
 * keys are numbered first (a window row_number() partitioned by the keys,
 * in input order): any but the first is 21000 for DO UPDATE (PostgreSQL's
 * "cannot affect row a second time") and skipped for DO NOTHING.  Iceberg
 * has no unique index: the conflict columns may be any columns; they are
 * matched against the current rows.  A table with identifier fields
 * (PRIMARY KEY) makes a plain INSERT (engine.c's exec_insert calls
 * merge_insert) the same join with a "matched -> 23505" clause, and a key
 * twice among the inserted rows is 23505 as well (DETAIL: the key of the
 * first offending row in the INSERT's order, as PostgreSQL).  RETURNING
 * rows go out in the INSERT's order.  On a table with a primary key the
 * conflict columns must be exactly its columns (0A000 otherwise).  A
 * MERGE that writes rows into such a table, or a DO UPDATE that sets a key
 * column, checks the key afterwards (pk_check: the written keys against
 * each other and against the rows that stay).
 *
 * Invariants
 *   1. A failed statement commits nothing and removes every file written
 *      (but see 4).
 *   2. Only UPDATE/DELETE actions record (file, pos); DO NOTHING never
 *      counts as affecting a row (PostgreSQL: doing nothing is always OK).
 *   3. Written rows are checked against NOT NULL before they are written.
 *   4. Except when the commit's outcome is unknown (txn_commit fails with
 *      08006: the catalog connection broke, the swap may have landed):
 *      then every file written is kept and listed by txn_commit_failed.
 *   5. A commit re-based on a newer head checks the written keys again
 *      against what committed in between (keycheck.h, from txn_commit):
 *      23505, or 40001 for ON CONFLICT (key_clash_retry: the statement
 *      re-runs and decides against the new rows).
 *
 * WITH before MERGE: its CTEs are visible to the USING item and to
 * subqueries in ON and the WHEN clauses; WITH RECURSIVE is 42601, as in
 * PostgreSQL.
 *
 * Partitioned tables: new and updated rows go through one writer with the
 * table's default spec (data_writer_set_spec: an updated row may move to
 * another partition); a copy-on-write rewrite of a file of the
 * partitioned default spec goes to its own writer whose files keep that
 * file's spec id and partition tuple; the kept rows of a file of an older
 * spec are written under the default spec (with the new rows), since a
 * commit's added data files all carry the default spec; position deletes
 * / deletion vectors carry their data file's spec and partition
 * (delete_writer.h).
 *
 * Sort order (sort_order.c): when the table's default sort order can be
 * applied, rows for the shared writer collect in wpending and go to it
 * sorted (flush_w: at the end, or every WSORT_ROWS rows, each run into
 * files of its own), a partitioned file's own rewrite is sorted before its
 * writer (write_sorted, exec/modify.h); the files record its sort_order_id.
 *
 * Row lineage (format version 3, spec "Row Lineage"): the target scan
 * also produces each row's _row_id and _last_updated_sequence_number
 * (SCAN_PROJ_ROW_ID / _LAST_UPDATED_SEQ, join columns COL_ROWID /
 * COL_SEQ) and every writer writes table_lineage_schema: an UPDATE
 * action writes the old row's _row_id and a NULL sequence number (the
 * commit's), an INSERT NULL for both (new ids at commit), a copy-on-write
 * rewrite the kept rows' two values as scanned.
 *
 * Not yet: tables with nested columns and format
 * version 1 tables (0A000), RETURNING on MERGE (not in PostgreSQL 15),
 * ON CONFLICT ON CONSTRAINT / index expressions (0A000).  PostgreSQL 15
 * accepts a non-boolean ON (MERGE ... ON 1); floe requires a boolean
 * (42804).
 *
 * INTERFACE ROUTINES (bind.h)
 *   merge_exec(s, ctx, sql, stmt, sink)
 *   merge_insert(s, ctx, sql, insert_stmt, sink)
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

typedef enum Cat { CAT_MATCHED, CAT_NOT_MATCHED, CAT_BY_SOURCE } Cat;
typedef enum Act { ACT_UPDATE, ACT_DELETE, ACT_INSERT, ACT_NOTHING, ACT_ERROR } Act;

typedef struct Clause {
	Cat cat;
	Act act;
	Expr *cond;               /* over the join output; NULL: always */
	Expr **vals;              /* UPDATE / INSERT: per schema field */
} Clause;

typedef struct PosList {
	int64_t *pos;
	int64_t n, cap;
} PosList;

typedef struct Merge {
	Session *s;
	ExecCtx *ctx;
	const char *sql;
	Table *t;
	const IcebergSchema *schema;
	int nt;                   /* target columns */
	int nlin;                 /* 2 on format version 3 (row lineage), else 0 */
	const IcebergSchema *wschema;  /* what the writers write: schema, + lineage */
	const char *trel;         /* target relation name (alias) */
	DataFile *files;
	int nfiles;
	PosList *touched;         /* per file: positions updated or deleted */
	DataFile *all_files;      /* every live file (files: those not pruned) */
	int nall;
	int *file_map;            /* all_files index -> files index, or -1 */
	/* PRIMARY KEY check of MERGE / ON CONFLICT DO UPDATE: the identifier
	 * fields and the keys of every row written */
	int npk;
	int *pk;
	RowStore *newkeys;
	int *pk_cand;             /* pk_check's file index -> all_files index */
	/* source */
	Operator *src;
	int ns;
	char **snames;
	SqlType *stypes;
	const char *srel;
	/* binding: scope = target columns then source columns */
	Scope scope;
	BindCtx b;
	Expr *on;                 /* over the scope */
	/* ON split for the hash join: keys over the target input (lk) and the
	 * source input (rk), the rest over the join output */
	int nk;
	Expr **lk, **rk;
	Expr *residual;
	bool by_source;           /* some clause is WHEN NOT MATCHED BY SOURCE */
	Clause *clauses;
	int nclauses;
	bool reads;               /* a bound ON / WHEN / SET / RETURNING reads a
				     target column: SELECT on it (acl.h) */
	/* ON CONFLICT / PRIMARY KEY */
	bool on_conflict;
	int nkeys;
	int *keys;                /* target field indexes of the conflict columns */
	int dup_col;              /* source column: row_number among equal keys; -1 none */
	Act dup_act;              /* ACT_ERROR or ACT_NOTHING */
	const char *dup_state;
	const char *dup_msg;
	const char *dup_hint;
	bool pk_error;            /* matched rows are 23505 */
	bool pk_bad;              /* a 23505 was found: the earliest row's key */
	int64_t pk_bad_ord;
	char *pk_bad_detail;
	CheckBound *checks;       /* CHECK constraints of the rows written (check.h) */
	/* output */
	DataWriter *w;
	bool w_finished;
	DataFile *wfiles;
	int nwfiles;
	/* the table's default sort order, when it can be applied
	 * (sort_order_keys): rows for w wait in wpending and go to it sorted
	 * (flush_w), every WSORT_ROWS rows finishing w's files into wrolled;
	 * a partitioned file's rewrite sorts its rows before its writer */
	SortKey *sort_keys;
	int nsort_keys;
	int32_t sort_order_id;
	RowStore *wpending;
	DataFile *wrolled;
	int nwrolled;
	DataFile *rfiles;         /* copy-on-write rewrites of partitioned files */
	int nrfiles, caprfiles;
	int64_t affected;
	Arena *scratch;
	/* RETURNING (ON CONFLICT): over the written rows (dml.c's) */
	Returning ret;
	int64_t *ret_ord;         /* per returned row: its position in the INSERT */
	int64_t nret_ord, cap_ret_ord;
} Merge;

/* join output layout */
#define COL_POS(m) ((m)->nt)
#define COL_FIDX(m) ((m)->nt + 1)
#define COL_ROWID(m) ((m)->nt + 2)           /* v3 (nlin == 2) only */
#define COL_SEQ(m) ((m)->nt + 3)
#define COL_SRC(m, j) ((m)->nt + 2 + (m)->nlin + (j))
#define COL_MARK(m) ((m)->nt + 2 + (m)->nlin + (m)->ns)

static int
complete(ResultSink *sink, const char *tag)
{
	if (sink && sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

static int
unsupported(Merge *m, const char *what)
{
	return floe_errorf(m->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", what);
}

static int
fail_at(Merge *m, int location)
{
	if (location >= 0)
		floe_error_position(m->ctx->err, bind_location(&m->b, location));
	return FLOE_ERR;
}

/* ---- target ------------------------------------------------------------ */

/* Load the target with PostgreSQL's 42P01, check what this file supports. */
static int
load_target(Merge *m, PgQuery__RangeVar *rv, const char *verb, unsigned want)
{
	ExecCtx *ctx = m->ctx;
	const char *ns, *name, *mode;
	int i;

	session_resolve_name(m->s, rv, &ns, &name);
	if (rv->schemaname && rv->schemaname[0])   /* USAGE on it, before the lookup */
		TRY(acl_check_schema_usage(m->s, ctx, ns, ctx->err));
	if (txn_table_load(m->s, ns, name, ctx->arena, &m->t, ctx->err) == FLOE_OK) {
		TRY(write_target_wap(m->s, &m->t, ctx->arena, ctx->err));
	} else {
		bool found = false;
		if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE))
			TRY(write_target_branch(m->s, ctx, rv, &m->t, &found));   /* t.branch_b */
		if (!found && floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE)) {
			floe_errorf(ctx->err, ERRCODE_UNDEFINED_TABLE,
				    "relation \"%s%s%s\" does not exist",
				    rv->schemaname ? rv->schemaname : "",
				    rv->schemaname && rv->schemaname[0] ? "." : "", name);
			fail_at(m, rv->location);
		}
		if (!found)
			return FLOE_ERR;
	}
	TRY(acl_note_target(m->s, ctx, m->t, want, ctx->err));   /* acl.h */
	m->schema = metadata_current_schema(m->t->md);
	m->nt = m->schema->nfields;
	TRY(check_constraints_bind(m->s, ctx, m->t, &m->checks));
	m->wschema = m->schema;
	if (m->t->md->format_version >= 3) {
		/* row lineage: updated rows keep _row_id, kept rows both values */
		m->nlin = 2;
		m->wschema = table_lineage_schema(m->schema, ctx->arena);
	}
	if (!sort_order_keys(ctx->arena, m->t->md, &m->sort_keys, &m->nsort_keys, &m->sort_order_id))
		m->nsort_keys = 0;
	m->trel = rv->alias ? rv->alias->aliasname : rv->relname;
	if (m->t->md->format_version < 2) {
		floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "%s on an Iceberg format-version 1 table is not supported", verb);
		return floe_error_hint(ctx->err, "Upgrade the table to format version 2.");
	}
	mode = metadata_property(m->t->md, "write.merge.mode");
	if (mode && strcmp(mode, "copy-on-write") && strcmp(mode, "merge-on-read")) {
		floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for table property \"write.merge.mode\": \"%s\"", mode);
		return floe_error_hint(ctx->err,
				       "Valid values are \"copy-on-write\" and \"merge-on-read\".");
	}
	for (i = 0; i < m->nt; i++)
		if (m->schema->fields[i].nested) {
			floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "%s of a table with nested columns is not supported yet", verb);
			return floe_error_detail(ctx->err, "Column \"%s\" has the nested type %s.",
						 m->schema->fields[i].name,
						 m->schema->fields[i].iceberg_type);
		}
	return FLOE_OK;
}

/* Every live row: table columns, position in its file, file index. */
static Operator *
target_op(Merge *m, bool empty)
{
	ExecCtx *ctx = m->ctx;
	int nout = m->nt + 2 + m->nlin;
	SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, nout);
	int *proj = ARENA_ARRAY(ctx->arena, int, nout);
	Operator **kids;
	int i, c;

	for (i = 0; i < m->nt; i++) {
		types[i] = m->schema->fields[i].type;
		proj[i] = i;
	}
	proj[m->nt] = SCAN_PROJ_FILE_POS;
	types[m->nt] = type_make(TYPE_INT64);
	types[m->nt + 1] = type_make(TYPE_INT32);
	if (m->nlin) {
		/* scan: cols, pos, rowid, seq; output: cols, pos, fidx, rowid, seq */
		proj[m->nt + 1] = SCAN_PROJ_ROW_ID;
		proj[m->nt + 2] = SCAN_PROJ_LAST_UPDATED_SEQ;
		types[COL_ROWID(m)] = types[COL_SEQ(m)] = type_make(TYPE_INT64);
	}
	if (empty || m->nfiles == 0)
		return values_new(ctx, nout, types, 0, NULL);
	kids = ARENA_ARRAY(ctx->arena, Operator *, m->nfiles);
	for (i = 0; i < m->nfiles; i++) {
		Operator *scan = scan_new(ctx, m->schema, m->nt + 1 + m->nlin, proj, &m->files[i], 1,
					  false, m->t->md);
		Expr **ex = ARENA_ARRAY(ctx->arena, Expr *, nout);
		Value fi = value_int(TYPE_INT32, i);
		for (c = 0; c <= m->nt; c++)
			ex[c] = expr_colref(ctx->arena, c, types[c]);
		ex[m->nt + 1] = expr_const(ctx->arena, &fi);
		for (c = 0; c < m->nlin; c++)
			ex[m->nt + 2 + c] = expr_colref(ctx->arena, m->nt + 1 + c, types[m->nt + 2 + c]);
		kids[i] = project_new(ctx, scan, nout, ex);
	}
	return m->nfiles == 1 ? kids[0] : append_new(ctx, m->nfiles, kids);
}

/* ---- scope and binding -------------------------------------------------- */

/* Scope: target columns (relation trel), then source columns (srel). */
static void
make_scope(Merge *m)
{
	Arena *a = m->ctx->arena;
	int n = m->nt + m->ns, i;

	memset(&m->scope, 0, sizeof m->scope);
	m->scope.ncols = n;
	m->scope.names = ARENA_ARRAY(a, char *, n + 1);
	m->scope.types = ARENA_ARRAY(a, SqlType, n + 1);
	m->scope.relnames = ARENA_ARRAY(a, char *, n + 1);
	m->scope.hidden = ARENA_ARRAY(a, bool, n + 1);
	for (i = 0; i < m->nt; i++) {
		m->scope.names[i] = m->schema->fields[i].name;
		m->scope.types[i] = m->schema->fields[i].type;
		m->scope.relnames[i] = (char *)m->trel;
	}
	for (i = 0; i < m->ns; i++) {
		m->scope.names[m->nt + i] = m->snames[i];
		m->scope.types[m->nt + i] = m->stypes[i];
		m->scope.relnames[m->nt + i] = (char *)m->srel;
	}
	memset(&m->b, 0, sizeof m->b);
	m->b.session = m->s;
	m->b.arena = a;
	m->b.err = m->ctx->err;
	m->b.sql = m->sql;
	m->b.exec = m->ctx;
	m->b.scope = &m->scope;
}

/* Which columns of the scope should unqualified names not see. */
static void
hide(Merge *m, bool target, bool source)
{
	int i;

	for (i = 0; i < m->nt + m->ns; i++)
		m->scope.hidden[i] = i < m->nt ? target : source;
}

/* Bit 1: e references target columns, bit 2: source columns. */
static int
sides(const Merge *m, const Expr *e)
{
	int r = 0, i;

	if (!e)
		return 0;
	if (e->kind == EXPR_COLREF)
		r |= e->col < m->nt ? 1 : 2;
	for (i = 0; i < e->nargs; i++)
		r |= sides(m, e->args[i]);
	return r;
}

/* A copy of e (over the scope) with column references moved to the join
 * output (base 0) or to the source input alone (to_source). */
static Expr *
to_join(Merge *m, const Expr *e, bool to_source)
{
	Expr *c = ARENA_NEW(m->ctx->arena, Expr);
	int i;

	*c = *e;
	if (e->kind == EXPR_COLREF && e->col >= m->nt)
		c->col = to_source ? e->col - m->nt : e->col + 2 + m->nlin;
	if (e->nargs) {
		c->args = ARENA_ARRAY(m->ctx->arena, Expr *, e->nargs);
		for (i = 0; i < e->nargs; i++)
			c->args[i] = e->args[i] ? to_join(m, e->args[i], to_source) : NULL;
	}
	return c;
}

static void
conjuncts(Expr *e, Expr **out, int *n)
{
	int i;

	if (e->kind != EXPR_AND) {
		out[(*n)++] = e;
		return;
	}
	for (i = 0; i < e->nargs; i++)
		conjuncts(e->args[i], out, n);
}

static int
count_conjuncts(const Expr *e)
{
	int i, n = 0;

	if (e->kind != EXPR_AND)
		return 1;
	for (i = 0; i < e->nargs; i++)
		n += count_conjuncts(e->args[i]);
	return n;
}

/* Split ON into hash keys (target expression = source expression) and
 * the residual. */
static void
split_on(Merge *m)
{
	Arena *a = m->ctx->arena;
	Expr **conj, **res;
	int n, nres = 0, i;

	n = count_conjuncts(m->on);
	conj = ARENA_ARRAY(a, Expr *, n);
	m->lk = ARENA_ARRAY(a, Expr *, n);
	m->rk = ARENA_ARRAY(a, Expr *, n);
	res = ARENA_ARRAY(a, Expr *, n);
	n = 0;
	m->nk = 0;
	conjuncts(m->on, conj, &n);
	for (i = 0; i < n; i++) {
		Expr *c = conj[i];
		if (c->kind == EXPR_FUNC && c->nargs == 2 && c->fn && !strcmp(c->fn->name, "=") &&
		    hash_join_key_ok(c->args[0]->type, c->args[1]->type)) {
			int s0 = sides(m, c->args[0]), s1 = sides(m, c->args[1]);
			if (s0 == 1 && s1 == 2) {
				m->lk[m->nk] = c->args[0];
				m->rk[m->nk++] = to_join(m, c->args[1], true);
				continue;
			}
			if (s0 == 2 && s1 == 1) {
				m->lk[m->nk] = c->args[1];
				m->rk[m->nk++] = to_join(m, c->args[0], true);
				continue;
			}
		}
		res[nres++] = to_join(m, c, false);
	}
	m->residual = NULL;
	if (nres == 1) {
		m->residual = res[0];
	} else if (nres > 1) {
		m->residual = expr_new(a, EXPR_AND, type_make(TYPE_BOOL), nres);
		memcpy(m->residual->args, res, sizeof(Expr *) * (size_t)nres);
	}
	for (i = 0; i < m->nclauses; i++)
		if (m->clauses[i].cat == CAT_BY_SOURCE)
			m->by_source = true;
}

/* The join of target and source: INNER, LEFT (BY SOURCE clauses), RIGHT
 * (NOT MATCHED clauses) or FULL. */
static Operator *
join_op(Merge *m, Operator *target, Operator *source)
{
	bool by_target = false;
	JoinType jt;
	int i;

	for (i = 0; i < m->nclauses; i++)
		if (m->clauses[i].cat == CAT_NOT_MATCHED)
			by_target = true;
	jt = by_target && m->by_source ? JOIN_FULL : by_target ? JOIN_RIGHT :
		m->by_source ? JOIN_LEFT : JOIN_INNER;
	return hash_join_new(m->ctx, target, source, jt, m->nk, m->lk, m->rk, m->residual, false);
}

/* ---- pruning target files by the source's keys ---------------------------
 *
 * Without BY SOURCE clauses a target row matters only when it can join a
 * source row.  The source is materialised first; for each hash key whose
 * target side is a plain column of an integer, date/time or text type,
 * the source's smallest and largest non-NULL key are compared with each
 * data file's column bounds: a file whose bounds lie outside that range
 * (or any file, when the source has no non-NULL key) is not read.  Text
 * bounds may be truncated (the lower a prefix, the upper incremented):
 * they still enclose the values.  Missing metrics keep the file.
 */
static int
prune_target(Merge *m)
{
	ExecCtx *ctx = m->ctx;
	KeyRange *kr;
	int nkr = 0, k, i, n;
	RowStore *rs;
	Batch *b;
	Arena *sc;
	int rc = FLOE_OK;

	if (m->by_source || m->nfiles == 0)
		return FLOE_OK;
	kr = ARENA_ARRAY(ctx->arena, KeyRange, m->nk + 1);
	for (k = 0; k < m->nk; k++)
		if (m->lk[k]->kind == EXPR_COLREF && key_range_type(m->lk[k]->type) &&
		    m->lk[k]->type.id == m->rk[k]->type.id) {
			kr[nkr].field_id = m->schema->fields[m->lk[k]->col].id;
			kr[nkr].id = m->lk[k]->type.id;
			nkr++;
		}
	if (!nkr)
		return FLOE_OK;
	/* materialise the source; the join reads the store */
	rs = rowstore_new(ctx, m->ns, m->stypes, NULL);
	TRY(op_open(m->src));
	for (;;) {
		if (op_next(m->src, &b) != FLOE_OK) {
			op_close(m->src);
			return FLOE_ERR;
		}
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		rowstore_append(rs, b);
	}
	op_close(m->src);
	m->src = rowstore_scan_new(ctx, rs);
	sc = arena_new(64 * 1024);
	for (i = 0; i < rowstore_nbatches(rs) && rc == FLOE_OK; i++) {
		b = rowstore_batch(rs, i);
		for (k = 0, nkr = 0; k < m->nk && rc == FLOE_OK; k++) {
			Vector v;
			if (!(m->lk[k]->kind == EXPR_COLREF && key_range_type(m->lk[k]->type) &&
			      m->lk[k]->type.id == m->rk[k]->type.id))
				continue;
			arena_reset(sc);
			if ((rc = expr_eval(ctx, m->rk[k], b, NULL, b->count, sc, &v)) != FLOE_OK)
				break;
			key_range_add(&kr[nkr++], &v, b->count, ctx->arena);
		}
	}
	arena_free(sc);
	TRY(rc);
	{
		DataFile *kept = ARENA_ARRAY(ctx->arena, DataFile, m->nfiles + 1);
		for (i = 0, n = 0; i < m->nfiles; i++) {
			bool out = false;
			for (k = 0; k < nkr && !out; k++)
				out = key_range_outside(&kr[k], &m->files[i]);
			m->file_map[i] = out ? -1 : n;
			if (!out)
				kept[n++] = m->files[i];
		}
		m->files = kept;
		m->nfiles = n;
	}
	return FLOE_OK;
}

/* ---- writing ------------------------------------------------------------ */

/* A data writer with the table's write.* properties; spec: partitioned
 * writes (NULL: one stream). */
static int
new_writer(Merge *m, const PartitionSpec *spec, DataWriter **out)
{
	const TableMetadata *md = m->t->md;
	DataWriter *w;

	w = data_writer_new(m->s->engine->io, table_data_dir(m->t, m->ctx->arena), m->wschema, 0,
			    m->ctx->arena);
	*out = w;
	TRY(data_writer_set_spec(w, spec, m->ctx->err));
	return data_writer_set_table_properties(w, md, m->ctx->err);
}

/* The writer of new and updated rows: the table's default spec. */
static int
writer(Merge *m)
{
	if (m->w)
		return FLOE_OK;
	return new_writer(m, metadata_default_spec(m->t->md), &m->w);
}

#define WSORT_ROWS ((int64_t)1 << 20)

/* The pending rows into w, sorted; roll: then w's files into wrolled and
 * a new w, so each file holds one sorted run. */
static int
flush_w(Merge *m, bool roll)
{
	if (!m->wpending || !m->w)
		return FLOE_OK;
	TRY(write_sorted(m->ctx, m->wpending, m->nsort_keys, m->sort_keys, m->w));
	if (!roll)
		return FLOE_OK;
	TRY(data_writer_finish_append(m->w, m->ctx->arena, &m->wrolled, &m->nwrolled, m->ctx->err));
	data_writer_free(m->w);
	m->w = NULL;
	return writer(m);
}

/* Rows (compact) for the shared writer w: to it, or to the sort. */
static int
write_w(Merge *m, const Batch *b)
{
	TRY(writer(m));
	if (!m->nsort_keys)
		return data_writer_write(m->w, b, m->ctx->err);
	if (!m->wpending) {
		SqlType *types = ARENA_ARRAY(m->ctx->arena, SqlType, m->wschema->nfields + 1);
		int i;
		for (i = 0; i < m->wschema->nfields; i++)
			types[i] = m->wschema->fields[i].type;
		m->wpending = rowstore_new(m->ctx, m->wschema->nfields, types, NULL);
	}
	rowstore_append(m->wpending, b);
	if (rowstore_rows(m->wpending) >= WSORT_ROWS)
		return flush_w(m, true);
	return FLOE_OK;
}

/* Do the kept rows of f go to the shared writer (the default spec)?  A
 * file of the partitioned default spec is rewritten into its own files,
 * which keep its partition tuple; a file of an older spec is rewritten
 * under the default spec (a commit adds data files of the default spec
 * only: table.c writes one manifest of added files). */
static bool
shared_rewrite(const Merge *m, const DataFile *f)
{
	const PartitionSpec *spec = metadata_default_spec(m->t->md);

	if (!spec || spec->nfields == 0)
		return true;
	return f->spec_id != spec->spec_id;
}

/* Evaluate vals on rows sel[0..n) of b, check NOT NULL, write them. */
static int
write_new(Merge *m, Clause *cl, const Batch *b, const uint32_t *sel, uint32_t n)
{
	Arena *sc = m->scratch;
	Batch *ob = batch_new(sc, m->nt, m->scope.types, n);
	int c;
	uint32_t j;

	for (c = 0; c < m->nt; c++) {
		Vector v;
		TRY(expr_eval(m->ctx, cl->vals[c], b, sel, n, sc, &v));
		vector_copy_rows(&ob->cols[c], 0, &v, sel, n);
	}
	ob->count = n;
	TRY(check_domain_rows(m->checks, m->ctx, ob, NULL, n));
	for (j = 0; j < n; j++)
		for (c = 0; c < m->nt; c++)
			if (m->schema->fields[c].required && !vector_is_valid(&ob->cols[c], j)) {
				floe_errorf(m->ctx->err, ERRCODE_NOT_NULL_VIOLATION,
					    "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
					    m->schema->fields[c].name, m->t->name);
				insert_row_detail(m->ctx->err, ob, -1, j, sc);
				return FLOE_ERR;
			}
	TRY(check_constraints_rows(m->checks, m->ctx, ob, NULL, n));
	TRY(writer(m));
	if (m->nlin) {
		/* row lineage: an updated row keeps its _row_id, a new row gets
		 * none; _last_updated_sequence_number NULL (this commit's) */
		Batch lb = *ob;
		Value nv = value_null(type_make(TYPE_INT64));
		lb.ncols = m->nt + 2;
		lb.cols = ARENA_ARRAY(sc, Vector, m->nt + 2);
		for (c = 0; c < m->nt; c++)
			lb.cols[c] = ob->cols[c];
		vector_init(&lb.cols[m->nt], type_make(TYPE_INT64), sc, n);
		vector_init(&lb.cols[m->nt + 1], type_make(TYPE_INT64), sc, n);
		if (cl->act == ACT_UPDATE)
			vector_copy_rows(&lb.cols[m->nt], 0, &b->cols[COL_ROWID(m)], sel, n);
		for (j = 0; j < n; j++) {
			if (cl->act != ACT_UPDATE)
				vector_set_value(&lb.cols[m->nt], j, &nv);
			vector_set_value(&lb.cols[m->nt + 1], j, &nv);
		}
		TRY(write_w(m, &lb));
	} else {
		TRY(write_w(m, ob));
	}
	if (m->newkeys) {
		Batch kb = *ob;
		kb.ncols = m->npk;
		kb.cols = ARENA_ARRAY(sc, Vector, m->npk);
		for (c = 0; c < m->npk; c++)
			kb.cols[c] = ob->cols[m->pk[c]];
		rowstore_append(m->newkeys, &kb);
	}
	if (m->ret.n) {
		TRY(dml_returning_rows(&m->ret, m->ctx, ob, NULL, ob->count, m->scratch));
		if (m->dup_col >= 0) {
			/* ON CONFLICT: RETURNING goes out in the INSERT's order */
			for (j = 0; j < n; j++) {
				Value o;
				if (m->nret_ord == m->cap_ret_ord) {
					int64_t nc = m->cap_ret_ord ? m->cap_ret_ord * 2 : 64;
					m->ret_ord = arena_realloc(m->ctx->arena, m->ret_ord,
								   sizeof(int64_t) * (size_t)m->cap_ret_ord,
								   sizeof(int64_t) * (size_t)nc);
					m->cap_ret_ord = nc;
				}
				vector_get_value(&b->cols[COL_SRC(m, m->dup_col + 1)], sel[j], &o);
				m->ret_ord[m->nret_ord++] = o.is_null ? 0 : o.u.i;
			}
		}
	}
	return FLOE_OK;
}

static void
record(Merge *m, const Batch *b, const uint32_t *sel, uint32_t n)
{
	VectorView pv, fv;
	uint32_t j;

	vector_view(&b->cols[COL_POS(m)], &pv);
	vector_view(&b->cols[COL_FIDX(m)], &fv);
	for (j = 0; j < n; j++) {
		uint32_t r = sel[j];
		int64_t pos = ((const int64_t *)pv.data)[pv.sel ? pv.sel[r] : r];
		int32_t fi = ((const int32_t *)fv.data)[fv.sel ? fv.sel[r] : r];
		PosList *pl = &m->touched[fi];
		if (pl->n == pl->cap) {
			int64_t nc = pl->cap ? pl->cap * 2 : 64;
			pl->pos = arena_realloc(m->ctx->arena, pl->pos, sizeof(int64_t) * (size_t)pl->cap,
						sizeof(int64_t) * (size_t)nc);
			pl->cap = nc;
		}
		pl->pos[pl->n++] = pos;
	}
}

/* 23505 for the key of row r of b (key columns at cols[]): PostgreSQL
 * reports the first offending row in the INSERT's order, so the one with
 * the smallest position is kept and reported after the pass. */
static int
key_violation(Merge *m, const Batch *b, const int *cols, uint32_t r)
{
	Value o;
	int64_t ord;

	vector_get_value(&b->cols[COL_SRC(m, m->dup_col + 1)], r, &o);
	ord = o.is_null ? 0 : o.u.i;
	if (m->pk_bad && ord >= m->pk_bad_ord)
		return FLOE_OK;
	m->pk_bad = true;
	m->pk_bad_ord = ord;
	m->pk_bad_detail = arena_sprintf(m->ctx->arena, "%s already exists.",
					 key_text(m->scratch, m->schema, m->keys, m->nkeys, b, cols, r));
	return FLOE_OK;
}

static int
pk_error(Merge *m)
{
	floe_errorf(m->ctx->err, ERRCODE_UNIQUE_VIOLATION,
		    "duplicate key value violates unique constraint \"%s_pkey\"", m->t->name);
	return floe_error_detail(m->ctx->err, "%s", m->pk_bad_detail);
}

static int
dup_error(Merge *m)
{
	floe_errorf(m->ctx->err, m->dup_state, "%s", m->dup_msg);
	if (m->dup_hint)
		floe_error_hint(m->ctx->err, "%s", m->dup_hint);
	return FLOE_ERR;
}

/* Route the rows of one join batch to their clauses and act. */
static int
merge_batch(Merge *m, Batch *b)
{
	uint32_t n = b->count, i, ns;
	Arena *sc = m->scratch;
	int *choice = ARENA_ARRAY(sc, int, n);
	uint8_t *cat = ARENA_ARRAY(sc, uint8_t, n);
	uint32_t *sel = ARENA_ARRAY(sc, uint32_t, n);
	int k;

	for (i = 0; i < n; i++) {
		bool tp = vector_is_valid(&b->cols[COL_POS(m)], i);
		bool sp = vector_is_valid(&b->cols[COL_MARK(m)], i);
		cat[i] = tp && sp ? CAT_MATCHED : tp ? CAT_BY_SOURCE : CAT_NOT_MATCHED;
		choice[i] = -1;
		if (sp && m->dup_col >= 0) {
			/* a row of the INSERT whose key came earlier in it */
			Value rn;
			bool dup;
			int c;
			vector_get_value(&b->cols[COL_SRC(m, m->dup_col)], i, &rn);
			dup = !rn.is_null && rn.u.i > 1;
			for (c = 0; dup && c < m->nkeys; c++)
				if (!vector_is_valid(&b->cols[COL_SRC(m, m->keys[c])], i))
					dup = false;
			if (dup) {
				if (m->dup_act == ACT_ERROR) {
					if (m->pk_error) {
						int *cols = ARENA_ARRAY(sc, int, m->nkeys);
						for (c = 0; c < m->nkeys; c++)
							cols[c] = COL_SRC(m, m->keys[c]);
						TRY(key_violation(m, b, cols, i));
						choice[i] = -2;
						continue;
					}
					return dup_error(m);
				}
				choice[i] = -2;
			}
		}
	}
	for (k = 0; k < m->nclauses; k++) {
		Clause *cl = &m->clauses[k];
		ns = 0;
		for (i = 0; i < n; i++)
			if (choice[i] == -1 && cat[i] == cl->cat)
				sel[ns++] = i;
		if (!ns)
			continue;
		if (cl->cond) {
			Vector pv;
			VectorView v;
			uint32_t j;
			TRY(expr_eval(m->ctx, cl->cond, b, sel, ns, sc, &pv));
			vector_view(&pv, &v);
			for (j = 0; j < ns; j++) {
				uint32_t r = sel[j], q = v.sel ? v.sel[r] : r;
				if (validity_get(v.validity, q) && ((const uint8_t *)v.data)[q])
					choice[r] = k;
			}
		} else {
			for (i = 0; i < ns; i++)
				choice[sel[i]] = k;
		}
	}
	for (k = 0; k < m->nclauses; k++) {
		Clause *cl = &m->clauses[k];
		ns = 0;
		for (i = 0; i < n; i++)
			if (choice[i] == k)
				sel[ns++] = i;
		if (!ns)
			continue;
		switch (cl->act) {
		case ACT_UPDATE:
			record(m, b, sel, ns);
			TRY(write_new(m, cl, b, sel, ns));
			m->affected += ns;
			break;
		case ACT_DELETE:
			record(m, b, sel, ns);
			m->affected += ns;
			break;
		case ACT_INSERT:
			TRY(write_new(m, cl, b, sel, ns));
			m->affected += ns;
			break;
		case ACT_NOTHING:
			break;
		case ACT_ERROR: {
			int *cols = ARENA_ARRAY(sc, int, m->nkeys);
			int c;
			for (c = 0; c < m->nkeys; c++)
				cols[c] = COL_SRC(m, m->keys[c]);
			for (i = 0; i < ns; i++)
				TRY(key_violation(m, b, cols, sel[i]));
			break;
		}
		}
	}
	return FLOE_OK;
}

static int
cmp_pos(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Where a copy-on-write rewrite's kept rows go: the shared writer
 * (write_w), f's own rows to sort, or f's own writer. */
typedef struct KeepArg {
	Merge *m;
	bool shared;
	RowStore *own;
	DataWriter *w;
} KeepArg;

/* cow_rewrite's batches: the kept rows, as the table's columns then (v3)
 * _row_id and the sequence number (the file position dropped). */
static int
keep_rows(void *arg, Batch *b, uint32_t *hit, uint32_t nhit, uint32_t *keep, uint32_t nkeep,
	  Arena *scratch)
{
	KeepArg *ka = arg;
	Merge *m = ka->m;
	Batch ob;

	if (!nkeep)
		return FLOE_OK;
	ob = *b;
	ob.ncols = m->nt;
	if (m->nlin) {
		/* table columns, then _row_id and the sequence number */
		ob.ncols = m->nt + 2;
		ob.cols = ARENA_ARRAY(scratch, Vector, m->nt + 2);
		memcpy(ob.cols, b->cols, sizeof(Vector) * (size_t)m->nt);
		ob.cols[m->nt] = b->cols[m->nt + 1];
		ob.cols[m->nt + 1] = b->cols[m->nt + 2];
	}
	if (nkeep < b->count) {
		ob.sel = keep;
		ob.count = nkeep;
		batch_compact(&ob);
	}
	if (ka->shared)
		return write_w(m, &ob);
	if (ka->own) {
		rowstore_append(ka->own, &ob);
		return FLOE_OK;
	}
	return data_writer_write(ka->w, &ob, m->ctx->err);
}

/* Copy-on-write: write f's rows but the sorted positions pl. */
static int
rewrite_file(Merge *m, DataFile *f, const PosList *pl)
{
	ExecCtx *ctx = m->ctx;
	int i, rc = FLOE_ERR;
	DataWriter *w = NULL;
	RowStore *own = NULL;     /* f's own writer's rows, to sort */
	bool shared = shared_rewrite(m, f);   /* kept rows to m->w (write_w) */
	CowRewrite rw;
	KeepArg ka;

	if (shared) {
		TRY(writer(m));
		w = m->w;
	} else if (new_writer(m, NULL, &w) != FLOE_OK) {
		data_writer_abort(w);
		data_writer_free(w);
		return FLOE_ERR;
	}
	if (!shared && m->nsort_keys) {
		SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, m->wschema->nfields + 1);
		for (i = 0; i < m->wschema->nfields; i++)
			types[i] = m->wschema->fields[i].type;
		own = rowstore_new(ctx, m->wschema->nfields, types, NULL);
	}
	ka.m = m;
	ka.shared = shared;
	ka.own = own;
	ka.w = w;
	/* v3: kept rows keep _row_id and the sequence number */
	cow_rewrite_init(&rw, ctx, m->schema, m->t->md, f, m->nlin != 0, m->scratch);
	rw.by_pos = true;
	rw.pos = pl->pos;
	rw.npos = pl->n;
	rw.rows = keep_rows;
	rw.arg = &ka;
	if (cow_rewrite(&rw) != FLOE_OK)
		goto out;
	if (!shared) {
		/* f's own files: its spec id and partition tuple */
		DataFile *files;
		int nfiles, j;
		if ((own && write_sorted(ctx, own, m->nsort_keys, m->sort_keys, w) != FLOE_OK) ||
		    data_writer_finish(w, &files, &nfiles, ctx->err) != FLOE_OK)
			goto out;
		if (m->nrfiles + nfiles > m->caprfiles) {
			int nc = (m->nrfiles + nfiles) * 2;
			m->rfiles = arena_realloc(ctx->arena, m->rfiles,
						  sizeof(DataFile) * (size_t)m->caprfiles,
						  sizeof(DataFile) * (size_t)nc);
			m->caprfiles = nc;
		}
		for (j = 0; j < nfiles; j++) {
			files[j].spec_id = f->spec_id;
			files[j].npartition = f->npartition;
			files[j].partition = f->partition;
			if (m->nsort_keys) {
				files[j].has_sort_order_id = true;
				files[j].sort_order_id = m->sort_order_id;
			}
			m->rfiles[m->nrfiles++] = files[j];
		}
		data_writer_free(w);
		w = NULL;
	}
	rc = FLOE_OK;
out:
	if (w && !shared) {
		data_writer_abort(w);
		data_writer_free(w);
	}
	return rc;
}

static void
cleanup(Merge *m)
{
	floe_error ignore;
	int k;

	for (k = 0; k < m->nrfiles; k++)
		fileio_remove(m->s->engine->io, m->rfiles[k].file_path, &ignore);
	m->nrfiles = 0;
	if (!m->w_finished)        /* (finished: they are in wfiles) */
		for (k = 0; k < m->nwrolled; k++)
			fileio_remove(m->s->engine->io, m->wrolled[k].file_path, &ignore);
	m->nwrolled = 0;
	if (!m->w)
		return;
	if (!m->w_finished)
		data_writer_abort(m->w);
	else
		for (k = 0; k < m->nwfiles; k++)
			fileio_remove(m->s->engine->io, m->wfiles[k].file_path, &ignore);
	data_writer_free(m->w);
	m->w = NULL;
}

/*
 * The PRIMARY KEY after a MERGE (or an ON CONFLICT DO UPDATE of a key
 * column): no key twice among the rows written, and none equal to the key
 * of a row that stays (a live row not updated or deleted).  Reads every
 * live file's key columns (not only the files the join read).
 */
static bool
pos_touched(const PosList *pl, int64_t pos)
{
	int64_t lo = 0, hi = pl->n;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (pl->pos[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pl->n && pl->pos[lo] == pos;
}

static int
pk_check(Merge *m)
{
	ExecCtx *ctx = m->ctx;
	Arena *a = ctx->arena;
	SqlType *kt = ARENA_ARRAY(a, SqlType, m->npk + 1);
	int *cols = ARENA_ARRAY(a, int, m->npk + 1);
	Expr **lk = ARENA_ARRAY(a, Expr *, m->npk + 1), **rk = ARENA_ARRAY(a, Expr *, m->npk + 1);
	Operator *op;
	Batch *b;
	KeyCheck kc;
	int c, i, rc = FLOE_OK;

	kc.ctx = ctx;
	kc.schema = m->schema;
	kc.table = m->t->name;
	kc.npk = m->npk;
	kc.pk = m->pk;
	/* a key twice among the rows written */
	TRY(key_check_twice(&kc, m->newkeys));
	if (m->nall == 0)
		return FLOE_OK;
	/* a key of a row that stays: the live files whose bounds admit one of
	 * the written keys (file index = all_files index), joined on the key */
	{
		DataFile *pruned = m->files, *cand = ARENA_ARRAY(a, DataFile, m->nall + 1);
		int npruned = m->nfiles, ncand, k;
		int *cand_idx = ARENA_ARRAY(a, int, m->nall + 1);
		ncand = key_check_files(&kc, m->newkeys, m->all_files, m->nall, cand_idx);
		if (ncand == 0)
			return FLOE_OK;
		for (k = 0; k < ncand; k++)
			cand[k] = m->all_files[cand_idx[k]];
		m->files = cand;
		m->nfiles = ncand;
		op = target_op(m, false);
		m->files = pruned;
		m->nfiles = npruned;
		m->pk_cand = cand_idx;
	}
	for (c = 0; c < m->npk; c++) {
		kt[c] = m->schema->fields[m->pk[c]].type;
		lk[c] = expr_colref(a, m->pk[c], kt[c]);
		rk[c] = expr_colref(a, c, kt[c]);
		cols[c] = m->pk[c];
	}
	op = hash_join_new(ctx, op, rowstore_scan_new(ctx, m->newkeys), JOIN_INNER, m->npk, lk, rk,
			   NULL, false);
	if (op_open(op) != FLOE_OK) {
		op_close(op);
		return FLOE_ERR;
	}
	while (rc == FLOE_OK) {
		VectorView pv, fv;
		uint32_t j;
		if ((rc = op_next_rows(ctx, op, NULL, &b)) != FLOE_OK || !b)
			break;
		vector_view(&b->cols[COL_POS(m)], &pv);
		vector_view(&b->cols[COL_FIDX(m)], &fv);
		for (j = 0; j < b->count && rc == FLOE_OK; j++) {
			int64_t pos = ((const int64_t *)pv.data)[pv.sel ? pv.sel[j] : j];
			int32_t fi = ((const int32_t *)fv.data)[fv.sel ? fv.sel[j] : j];
			i = m->file_map[m->pk_cand[fi]];
			if (i >= 0 && pos_touched(&m->touched[i], pos))
				continue;       /* updated or deleted by this statement */
			rc = key_error(ctx->err, m->t->name,
				       key_text(a, m->schema, m->pk, m->npk, b, cols, j));
		}
	}
	op_close(op);
	return rc;
}

/* Run the join, check rows affected twice, rewrite, commit. */
static int
merge_run(Merge *m, bool no_target)
{
	ExecCtx *ctx = m->ctx;
	Operator *src, *join;
	Expr **ex;
	Batch *b;
	int i, nremove = 0, nadd = 0;
	const char **remove;
	DataFile *add;
	Table *out;
	char job[64];
	Value t = { 0 };
	DeleteWriter *dw = NULL;
	DataFile *dadd = NULL;
	char **dremove = NULL;
	int ndadd = 0, ndremove = 0;
	const char *mode = metadata_property(m->t->md, "write.merge.mode");

	t.type = type_make(TYPE_BOOL);
	t.u.b = true;
	ex = ARENA_ARRAY(ctx->arena, Expr *, m->ns + 1);
	for (i = 0; i < m->ns; i++)
		ex[i] = expr_colref(ctx->arena, i, m->stypes[i]);
	ex[m->ns] = expr_const(ctx->arena, &t);
	split_on(m);
	m->all_files = m->files;
	m->nall = m->nfiles;
	m->file_map = ARENA_ARRAY(ctx->arena, int, m->nfiles + 1);
	for (i = 0; i < m->nfiles; i++)
		m->file_map[i] = i;
	if (!no_target)
		TRY(prune_target(m));
	if (no_target || m->nfiles == 0) {
		/* no target row: every source row is not matched (no hash table) */
		int nout = m->nt + 2 + m->nlin + m->ns + 1;
		Expr **pe = ARENA_ARRAY(ctx->arena, Expr *, nout);
		Value nv;
		for (i = 0; i < m->nt; i++) {
			nv = value_null(m->schema->fields[i].type);
			pe[i] = expr_const(ctx->arena, &nv);
		}
		nv = value_null(type_make(TYPE_INT64));
		pe[m->nt] = expr_const(ctx->arena, &nv);
		for (i = 0; i < m->nlin; i++)
			pe[m->nt + 2 + i] = expr_const(ctx->arena, &nv);
		nv = value_null(type_make(TYPE_INT32));
		pe[m->nt + 1] = expr_const(ctx->arena, &nv);
		for (i = 0; i <= m->ns; i++)
			pe[COL_SRC(m, i)] = ex[i];
		m->nfiles = 0;
		join = project_new(ctx, m->src, nout, pe);
	} else {
		src = project_new(ctx, m->src, m->ns + 1, ex);
		join = join_op(m, target_op(m, false), src);
	}
	m->touched = ARENA_ARRAY(ctx->arena, PosList, m->nfiles + 1);
	m->scratch = arena_new(256 * 1024);
	if (op_open(join) != FLOE_OK)
		goto fail_open;
	for (;;) {
		if (op_next_rows(ctx, join, m->scratch, &b) != FLOE_OK)
			goto fail_open;
		if (!b)
			break;
		if (merge_batch(m, b) != FLOE_OK)
			goto fail_open;
	}
	if (m->pk_bad) {
		pk_error(m);
		goto fail_open;
	}
	op_close(join);
	join = NULL;
	for (i = 0; i < m->nfiles; i++) {
		PosList *pl = &m->touched[i];
		int64_t k;
		if (!pl->n)
			continue;
		qsort(pl->pos, (size_t)pl->n, sizeof(int64_t), cmp_pos);
		for (k = 1; k < pl->n; k++)
			if (pl->pos[k] == pl->pos[k - 1]) {
				if (m->on_conflict)
					dup_error(m);
				else {
					floe_errorf(ctx->err, ERRCODE_CARDINALITY_VIOLATION,
						    "MERGE command cannot affect row a second time");
					floe_error_hint(ctx->err,
							"Ensure that not more than one source row matches any one target row.");
				}
				goto fail;
			}
		nremove++;
	}
	if (m->newkeys && rowstore_rows(m->newkeys) > 0 && pk_check(m) != FLOE_OK)
		goto fail;
	if (nremove && mode && !strcmp(mode, "merge-on-read")) {
		/* position deletes / deletion vectors, when the delete writer works */
		dw = delete_writer_new(m->s->engine->io, m->t, ctx->arena);
		for (i = 0; i < m->nfiles; i++)
			if (m->touched[i].n &&
			    delete_writer_add(dw, &m->files[i], m->touched[i].pos, m->touched[i].n,
					      ctx->err) != FLOE_OK)
				break;
		if (i == m->nfiles &&
		    delete_writer_finish(dw, &dadd, &ndadd, &dremove, &ndremove, ctx->err) == FLOE_OK) {
			nremove = 0;
		} else {
			delete_writer_abort(dw);
			dw = NULL;
			if (!floe_error_is(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED))
				goto fail;
			floe_error_clear(ctx->err);     /* not yet: copy-on-write */
		}
	}
	remove = ARENA_ARRAY(ctx->arena, const char *, nremove + ndremove + 1);
	if (!dw) {
		nremove = 0;
		for (i = 0; i < m->nfiles; i++) {
			if (!m->touched[i].n)
				continue;
			if (rewrite_file(m, &m->files[i], &m->touched[i]) != FLOE_OK)
				goto fail;
			remove[nremove++] = m->files[i].file_path;
		}
	}
	for (i = 0; i < ndremove; i++)
		remove[nremove++] = dremove[i];
	arena_free(m->scratch);
	m->scratch = NULL;
	if (m->w) {
		if (flush_w(m, false) != FLOE_OK)
			goto fail;
		m->wfiles = m->wrolled;      /* the earlier runs' files first */
		m->nwfiles = m->nwrolled;
		if (data_writer_finish_append(m->w, ctx->arena, &m->wfiles, &m->nwfiles, ctx->err) !=
		    FLOE_OK)
			goto fail;
		m->w_finished = true;
		for (i = 0; i < m->nwfiles && m->nsort_keys; i++) {
			m->wfiles[i].has_sort_order_id = true;
			m->wfiles[i].sort_order_id = m->sort_order_id;
		}
	}
	add = ARENA_ARRAY(ctx->arena, DataFile, m->nwfiles + m->nrfiles + ndadd + 1);
	for (i = 0; i < m->nwfiles; i++) {
		const PartitionSpec *spec = metadata_default_spec(m->t->md);
		add[nadd] = m->wfiles[i];
		if (spec && spec->nfields == 0)
			add[nadd].spec_id = spec->spec_id;
		nadd++;
	}
	for (i = 0; i < m->nrfiles; i++)
		add[nadd++] = m->rfiles[i];
	for (i = 0; i < ndadd; i++)
		add[nadd++] = dadd[i];
	if (nadd || nremove) {
		TableChange ch;
		table_job_id(job, sizeof job);
		memset(&ch, 0, sizeof ch);
		ch.add = add;
		ch.nadd = nadd;
		ch.remove = remove;
		ch.nremove = nremove;
		ch.job_id = job;
		ch.key_clash_retry = m->on_conflict;   /* decide again: keycheck.h */
		if (txn_commit(m->s, m->t, &ch, ctx->arena, &out, ctx->err) != FLOE_OK) {
			floe_error keep = *ctx->err;
			floe_error ignore;
			if (txn_commit_failed(m->s, &ch, ctx->err)) {
				/* the swap may have landed: keep every file (invariant 4) */
				if (m->w)
					data_writer_free(m->w);
				m->w = NULL;
				return FLOE_ERR;
			}
			for (i = 0; i < ndadd; i++)
				fileio_remove(m->s->engine->io, dadd[i].file_path, &ignore);
			cleanup(m);
			*ctx->err = keep;
			return FLOE_ERR;
		}
	} else {
		cleanup(m);
	}
	if (m->w)
		data_writer_free(m->w);
	m->w = NULL;
	return FLOE_OK;
fail_open:
	op_close(join);
fail:
	if (m->scratch)
		arena_free(m->scratch);
	m->scratch = NULL;
	{
		floe_error keep = *ctx->err;
		floe_error ignore;
		if (dw && dadd)         /* finished: its files are ours to remove */
			for (i = 0; i < ndadd; i++)
				fileio_remove(m->s->engine->io, dadd[i].file_path, &ignore);
		else if (dw)
			delete_writer_abort(dw);
		cleanup(m);
		*ctx->err = keep;
	}
	return FLOE_ERR;
}

/* ---- MERGE ---------------------------------------------------------------- */

static int
find_field(Merge *m, const char *name)
{
	int i;

	for (i = 0; i < m->nt; i++)
		if (!strcmp(m->schema->fields[i].name, name))
			return i;
	return -1;
}

/* PostgreSQL's error for a reference to a relation a clause cannot see. */
static int
check_sides(Merge *m, Expr *e, int allowed, const char *rel)
{
	if (!e || !(sides(m, e) & ~allowed))
		return FLOE_OK;
	floe_errorf(m->ctx->err, ERRCODE_UNDEFINED_TABLE,
		    "invalid reference to FROM-clause entry for table \"%s\"", rel);
	return FLOE_ERR;
}

/* The name of an unaliased function in FROM: the function's own name. */
static const char *
range_function_name(PgQuery__RangeFunction *rf)
{
	Node *l = rf->functions[0], *f;
	PgQuery__FuncCall *fc;
	Node *last;

	if (l->node_case != PG_QUERY__NODE__NODE_LIST || l->list->n_items < 1)
		return NULL;
	f = l->list->items[0];
	if (f->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
		return NULL;
	fc = f->func_call;
	if (!fc->n_funcname)
		return NULL;
	last = fc->funcname[fc->n_funcname - 1];
	return last->node_case == PG_QUERY__NODE__NODE_STRING ? last->string->sval : NULL;
}

/* [WITH ...] SELECT * FROM <item>: the source's rows, names and types. */
static int
plan_source(Merge *m, Node *item, PgQuery__WithClause *with)
{
	SqlStmt *stmts;
	int n;
	SelectPlan p;
	Node *q, *own;
	int rc;

	TRY(sql_parse("SELECT * FROM x", m->ctx->arena, &stmts, &n, m->ctx->err));
	q = stmts[0].node;
	own = q->select_stmt->from_clause[0];
	q->select_stmt->from_clause[0] = item;
	q->select_stmt->with_clause = with;
	rc = select_plan(m->s, m->ctx, m->sql, q, &p);
	q->select_stmt->from_clause[0] = own;   /* each tree frees its own nodes */
	q->select_stmt->with_clause = NULL;
	TRY(rc);
	m->src = p.root;
	m->ns = p.ncols;
	m->snames = p.names;
	m->stypes = p.types;
	if (item->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
		m->srel = item->range_var->alias ? item->range_var->alias->aliasname :
			item->range_var->relname;
	else if (item->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT &&
		 item->range_subselect->alias)
		m->srel = item->range_subselect->alias->aliasname;
	else if (item->node_case == PG_QUERY__NODE__NODE_RANGE_FUNCTION &&
		 item->range_function->alias)
		m->srel = item->range_function->alias->aliasname;
	else if (item->node_case == PG_QUERY__NODE__NODE_RANGE_FUNCTION &&
		 item->range_function->n_functions == 1 && !item->range_function->is_rowsfrom)
		m->srel = range_function_name(item->range_function);   /* as PostgreSQL */
	if (!m->srel)
		return unsupported(m, "this MERGE source");
	return FLOE_OK;
}

/* Bind SET list of an UPDATE clause: vals = target columns, SET ones replaced. */
static int
bind_set(Merge *m, Clause *cl, PgQuery__Node **list, size_t n)
{
	size_t i;
	int c;

	cl->vals = ARENA_ARRAY(m->ctx->arena, Expr *, m->nt + 1);
	for (i = 0; i < n; i++) {
		PgQuery__ResTarget *rt = list[i]->res_target;
		Node *val = rt->val;
		const IcebergField *f;
		Expr *x;

		c = find_field(m, rt->name);
		if (c < 0 && dml_is_meta_col(rt->name)) {
			floe_errorf(m->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "cannot assign to system column \"%s\"", rt->name);
			return fail_at(m, rt->location);
		}
		if (c < 0) {
			floe_errorf(m->ctx->err, ERRCODE_UNDEFINED_COLUMN,
				    "column \"%s\" of relation \"%s\" does not exist", rt->name, m->t->name);
			return fail_at(m, rt->location);
		}
		f = &m->schema->fields[c];
		if (rt->n_indirection)
			return unsupported(m, "assignment to a subfield or array element");
		if (cl->vals[c]) {
			floe_errorf(m->ctx->err, ERRCODE_SYNTAX_ERROR,
				    "multiple assignments to same column \"%s\"", rt->name);
			return fail_at(m, rt->location);
		}
		if (val && val->node_case == PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF) {
			PgQuery__MultiAssignRef *ma = val->multi_assign_ref;
			Node *srcn = ma->source;
			if (!srcn || srcn->node_case != PG_QUERY__NODE__NODE_ROW_EXPR)
				return unsupported(m, "this form of multiple-column assignment");
			if ((int)srcn->row_expr->n_args != ma->ncolumns || ma->colno < 1 ||
			    ma->colno > (int)srcn->row_expr->n_args) {
				floe_errorf(m->ctx->err, ERRCODE_SYNTAX_ERROR,
					    "number of columns does not match number of values");
				return fail_at(m, sql_location(&srcn->base));
			}
			val = srcn->row_expr->args[ma->colno - 1];
		}
		if (!val || val->node_case != PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
			TRY(identity_update_check(&m->b, f, -1));   /* 428C9, as UPDATE's */
		if (val && val->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
			x = bind_default_expr(&m->b, f);
		else if ((x = bind_expr(&m->b, val)))
			x = bind_coerce_column(&m->b, x, f);
		if (!x)
			return FLOE_ERR;
		m->reads = m->reads || acl_exprs_read_target(&x, 1, m->nt);
		cl->vals[c] = x;
	}
	for (c = 0; c < m->nt; c++)
		cl->vals[c] = cl->vals[c] ? to_join(m, cl->vals[c], false) :
			expr_colref(m->ctx->arena, c, m->schema->fields[c].type);
	return FLOE_OK;
}

/* INSERT [(cols)] VALUES (...) | DEFAULT VALUES of a MERGE clause. */
static int
bind_insert(Merge *m, Clause *cl, PgQuery__MergeWhenClause *w)
{
	int *target = ARENA_ARRAY(m->ctx->arena, int, m->nt + 1);
	int ntarget, i, c;
	Expr **bound;

	cl->vals = ARENA_ARRAY(m->ctx->arena, Expr *, m->nt + 1);
	for (c = 0; c < m->nt; c++)
		target[c] = c;
	ntarget = m->nt;
	if (w->n_target_list) {
		bool *seen = ARENA_ARRAY(m->ctx->arena, bool, m->nt + 1);
		ntarget = (int)w->n_target_list;
		target = ARENA_ARRAY(m->ctx->arena, int, ntarget + 1);
		for (i = 0; i < ntarget; i++) {
			PgQuery__ResTarget *rt = w->target_list[i]->res_target;
			c = find_field(m, rt->name);
			if (c < 0) {
				floe_errorf(m->ctx->err, ERRCODE_UNDEFINED_COLUMN,
					    "column \"%s\" of relation \"%s\" does not exist", rt->name,
					    m->t->name);
				return fail_at(m, rt->location);
			}
			if (seen[c]) {
				floe_errorf(m->ctx->err, ERRCODE_DUPLICATE_COLUMN,
					    "column \"%s\" specified more than once", rt->name);
				return fail_at(m, rt->location);
			}
			seen[c] = true;
			target[i] = c;
		}
	}
	/* as PostgreSQL: bind the values, check their number, then coerce */
	bound = ARENA_ARRAY(m->ctx->arena, Expr *, w->n_values + 1);
	for (i = 0; i < (int)w->n_values; i++) {
		Node *v = w->values[i];
		if (v->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
			continue;
		if (!(bound[i] = bind_expr(&m->b, v)))
			return FLOE_ERR;
		TRY(check_sides(m, bound[i], 2, m->trel));
	}
	if (w->n_values)      /* not DEFAULT VALUES */
		TRY(insert_check_width(&m->b, (int)w->n_values, ntarget, w->target_list, w->n_target_list,
				       w->values));
	for (i = 0; i < (int)w->n_values; i++) {
		Expr *x;
		if (!bound[i])
			continue;
		if (!(x = bind_coerce_column(&m->b, bound[i], &m->schema->fields[target[i]])))
			return FLOE_ERR;
		cl->vals[target[i]] = to_join(m, x, false);
	}
	for (c = 0; c < m->nt; c++)
		if (!cl->vals[c] && !(cl->vals[c] = bind_default_expr(&m->b, &m->schema->fields[c])))
			return FLOE_ERR;
	return FLOE_OK;
}

static int
bind_clause(Merge *m, Clause *cl, PgQuery__MergeWhenClause *w, Cat cat)
{
	Expr *cond = NULL;

	memset(cl, 0, sizeof *cl);
	cl->cat = cat;
	hide(m, cat == CAT_NOT_MATCHED, cat == CAT_BY_SOURCE);
	m->b.allow_aggs = false;
	m->b.where = "WHEN";
	if (w->condition) {
		if (!(cond = bind_coerce_bool(&m->b, bind_expr(&m->b, w->condition), "WHEN")))
			return FLOE_ERR;
		m->reads = m->reads || acl_exprs_read_target(&cond, 1, m->nt);
		if (cat == CAT_NOT_MATCHED)
			TRY(check_sides(m, cond, 2, m->trel));
		if (cat == CAT_BY_SOURCE)
			TRY(check_sides(m, cond, 1, m->srel));
		cl->cond = to_join(m, cond, false);
	}
	switch (w->command_type) {
	case PG_QUERY__CMD_TYPE__CMD_UPDATE:
		cl->act = ACT_UPDATE;
		m->b.where = "UPDATE";
		TRY(bind_set(m, cl, w->target_list, w->n_target_list));
		if (cat == CAT_BY_SOURCE) {
			int c;
			for (c = 0; c < m->nt; c++)
				TRY(check_sides(m, cl->vals[c], 1 | 4, m->srel));
		}
		break;
	case PG_QUERY__CMD_TYPE__CMD_DELETE:
		cl->act = ACT_DELETE;
		break;
	case PG_QUERY__CMD_TYPE__CMD_INSERT:
		cl->act = ACT_INSERT;
		m->b.where = "VALUES";
		TRY(bind_insert(m, cl, w));
		break;
	case PG_QUERY__CMD_TYPE__CMD_NOTHING:
		cl->act = ACT_NOTHING;
		break;
	default:
		return unsupported(m, "this MERGE action");
	}
	return FLOE_OK;
}

/* A table with a PRIMARY KEY whose rows this statement writes (UPDATE /
 * INSERT actions): collect the written keys for pk_check. */
static void
want_pk_check(Merge *m)
{
	const IcebergSchema *sc = m->schema;
	SqlType *types;
	int i, c;

	if (sc->nidentifier == 0)
		return;
	m->pk = ARENA_ARRAY(m->ctx->arena, int, sc->nidentifier + 1);
	types = ARENA_ARRAY(m->ctx->arena, SqlType, sc->nidentifier + 1);
	for (i = 0; i < sc->nidentifier; i++)
		for (c = 0; c < m->nt; c++)
			if (sc->fields[c].id == sc->identifier_field_ids[i]) {
				types[m->npk] = sc->fields[c].type;
				m->pk[m->npk++] = c;
				break;
			}
	if (m->npk)
		m->newkeys = rowstore_new(m->ctx, m->npk, types, NULL);
}

/* Bind a MERGE: its target (the actions' writes), source, ON and WHEN
 * clauses, checking every privilege they need (acl.h) as the binder
 * resolves them; nothing runs but uncorrelated subqueries. */
static int
merge_bind(Merge *m, Session *s, ExecCtx *ctx, const char *sql, PgQuery__MergeStmt *st)
{
	Expr *on;
	int i;

	memset(m, 0, sizeof *m);
	m->s = s;
	m->ctx = ctx;
	m->sql = sql;
	m->dup_col = -1;
	m->b.sql = sql;
	if (st->with_clause && st->with_clause->recursive)
		return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
				   "WITH RECURSIVE is not supported for MERGE statement");
	TRY(load_target(m, st->relation, "MERGE", acl_merge_privs(st)));
	TRY(plan_source(m, st->source_relation, st->with_clause));
	if (!strcmp(m->srel, m->trel)) {
		floe_errorf(ctx->err, ERRCODE_DUPLICATE_ALIAS,
			    "name \"%s\" specified more than once", m->srel);
		return floe_error_detail(ctx->err, "The name is used both as MERGE target table and data source.");
	}
	make_scope(m);
	m->b.with = st->with_clause;    /* CTEs are visible to subqueries in ON / WHEN too */
	m->b.where = "JOIN/ON";
	hide(m, false, false);
	if (!(on = bind_coerce_bool(&m->b, bind_expr(&m->b, st->join_condition), "JOIN/ON")))
		return FLOE_ERR;
	m->on = on;
	m->reads = acl_exprs_read_target(&on, 1, m->nt);
	m->clauses = ARENA_ARRAY(ctx->arena, Clause, st->n_merge_when_clauses + 1);
	for (i = 0; i < (int)st->n_merge_when_clauses; i++) {
		PgQuery__MergeWhenClause *w = st->merge_when_clauses[i]->merge_when_clause;
		Cat cat = w->matched ? CAT_MATCHED : CAT_NOT_MATCHED;
		if (w->matched && w->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE)
			cat = CAT_BY_SOURCE;   /* parse.c's mark of WHEN NOT MATCHED BY SOURCE */
		TRY(bind_clause(m, &m->clauses[m->nclauses++], w, cat));
	}
	/* MERGE ... ON true WHEN MATCHED THEN DELETE reads no target column */
	return acl_note_target_read(s, ctx, m->t, m->reads, ctx->err);
}

int
merge_explain_privileges(Session *s, ExecCtx *ctx, const char *sql, PgQuery__MergeStmt *st)
{
	Merge m;

	return merge_bind(&m, s, ctx, sql, st);
}

int
merge_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__MergeStmt *st, ResultSink *sink)
{
	Merge m;
	int i;
	char tag[64];

	TRY(merge_bind(&m, s, ctx, sql, st));
	for (i = 0; i < m.nclauses; i++)
		if (m.clauses[i].act == ACT_UPDATE || m.clauses[i].act == ACT_INSERT) {
			want_pk_check(&m);
			break;
		}
	TRY(table_scan_files(s->engine->io, m.t, -1, ctx->arena, &m.files, &m.nfiles, ctx->err));
	TRY(merge_run(&m, false));
	snprintf(tag, sizeof tag, "MERGE %lld", (long long)m.affected);
	return complete(sink, tag);
}

/* ---- INSERT ... ON CONFLICT, PRIMARY KEY ------------------------------------ */

static char *
quote_ident(Arena *a, const char *s)
{
	size_t n = strlen(s), i, k = 0;
	char *o = arena_alloc(a, 2 * n + 3);

	o[k++] = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			o[k++] = '"';
		o[k++] = s[i];
	}
	o[k++] = '"';
	o[k] = '\0';
	return o;
}

/* Source = the INSERT's rows numbered by key (row_number() over
 * (partition by keys), input order kept), ON = key equality. */
static int
conflict_join(Merge *m, Operator *rows)
{
	ExecCtx *ctx = m->ctx;
	Arena *a = ctx->arena;
	WindowSpec *specs = ARENA_ARRAY(a, WindowSpec, 2);
	WindowCall *calls = ARENA_ARRAY(a, WindowCall, 2);
	char *on = "";
	Node *n;
	int i;

	m->ns = m->nt + 2;
	m->snames = ARENA_ARRAY(a, char *, m->ns);
	m->stypes = ARENA_ARRAY(a, SqlType, m->ns);
	for (i = 0; i < m->nt; i++) {
		m->snames[i] = m->schema->fields[i].name;
		m->stypes[i] = m->schema->fields[i].type;
	}
	m->snames[m->nt] = "?rn";
	m->snames[m->nt + 1] = "?ord";
	m->stypes[m->nt] = m->stypes[m->nt + 1] = type_make(TYPE_INT64);
	m->srel = "excluded";
	m->dup_col = m->nt;
	specs[0].npart = m->nkeys;
	specs[0].part = ARENA_ARRAY(a, Expr *, m->nkeys + 1);
	for (i = 0; i < m->nkeys; i++)
		specs[0].part[i] = expr_colref(a, m->keys[i], m->schema->fields[m->keys[i]].type);
	for (i = 0; i < 2; i++) {
		calls[i].kind = WIN_ROW_NUMBER;
		calls[i].spec = i;
		calls[i].type = type_make(TYPE_INT64);
		calls[i].frame.start = WB_UNBOUNDED_PRECEDING;
		calls[i].frame.end = WB_CURRENT;
	}
	/* the last spec (no keys) decides the output order: the input's */
	m->src = window_new(ctx, rows, 2, specs, 2, calls);
	make_scope(m);
	hide(m, false, true);
	for (i = 0; i < m->nkeys; i++) {
		const char *c = quote_ident(a, m->schema->fields[m->keys[i]].name);
		on = arena_sprintf(a, "%s%s%s.%s = excluded.%s", on, i ? " AND " : "",
				   quote_ident(a, m->trel), c, c);
	}
	TRY(sql_parse_expr(on, a, &n, ctx->err));
	hide(m, false, false);
	{
		const char *saved = m->b.sql;
		m->b.sql = NULL;
		m->on = bind_expr(&m->b, n);
		m->b.sql = saved;
	}
	if (!m->on)
		return FLOE_ERR;
	return FLOE_OK;
}

/* RETURNING over the table's columns (dml_returning_bind). */
static int
bind_returning(Merge *m, PgQuery__Node **list, int n)
{
	Scope sc;
	BindCtx b = m->b;

	memset(&sc, 0, sizeof sc);
	sc.ncols = m->nt;
	sc.names = m->scope.names;
	sc.types = m->scope.types;
	sc.relname = (char *)m->trel;
	b.scope = &sc;
	return dml_returning_bind(&m->ret, &b, m->schema, m->trel, list, n);
}

static int
cmp_ord(const void *a, const void *b, void *arg)
{
	const int64_t *ord = arg;
	int64_t x = ord[*(const int64_t *)a], y = ord[*(const int64_t *)b];
	return x < y ? -1 : x > y;
}

/* The RETURNING rows in ret_ord order (rows of the INSERT come once each). */
static void
returning_sort(Merge *m)
{
	Returning *r = &m->ret;
	Arena *a = m->ctx->arena;
	int64_t total = 0, i, *perm;
	Batch **nb;
	int nnb = 0, c;

	for (i = 0; i < r->nbatches; i++)
		total += r->batches[i]->count;
	if (total != m->nret_ord || total < 2)
		return;
	perm = ARENA_ARRAY(a, int64_t, total);
	for (i = 0; i < total; i++)
		perm[i] = i;
	qsort_r(perm, (size_t)total, sizeof(int64_t), cmp_ord, m->ret_ord);
	nb = ARENA_ARRAY(a, Batch *, r->nbatches);
	for (i = 0; i < total; i++) {
		const Batch *src = r->batches[perm[i] / VECTOR_SIZE];
		uint32_t row = (uint32_t)(perm[i] % VECTOR_SIZE);
		Batch *out = nnb ? nb[nnb - 1] : NULL;
		if (!out || out->count == VECTOR_SIZE)
			out = nb[nnb++] = batch_new(a, r->n, r->types, VECTOR_SIZE);
		for (c = 0; c < r->n; c++) {
			Value v;
			vector_get_value(&src->cols[c], row, &v);
			vector_set_value(&out->cols[c], out->count, &v);
		}
		out->count++;
	}
	r->cap_batches = r->nbatches;
	r->batches = nb;
	r->nbatches = nnb;
}

static int
returning_send(Merge *m, ResultSink *sink)
{
	if (!m->ret.n || !sink)
		return FLOE_OK;
	returning_sort(m);
	return dml_returning_send(&m->ret, m->ctx, sink);
}

/* Do the conflict columns name exactly the table's identifier fields? */
static bool
same_as_primary_key(const Merge *m)
{
	const IcebergSchema *sc = m->schema;
	int i, k;

	for (k = 0; k < m->nkeys; k++) {
		for (i = 0; i < sc->nidentifier; i++)
			if (sc->fields[m->keys[k]].id == sc->identifier_field_ids[i])
				break;
		if (i == sc->nidentifier)
			return false;
	}
	for (i = 0; i < sc->nidentifier; i++) {
		for (k = 0; k < m->nkeys; k++)
			if (sc->fields[m->keys[k]].id == sc->identifier_field_ids[i])
				break;
		if (k == m->nkeys)
			return false;
	}
	return true;
}

/* INSERT ... ON CONFLICT (and into a table with a PRIMARY KEY) bound as
 * a MERGE: the target, the arbiter, the source, DO UPDATE's SET and
 * WHERE, RETURNING -- every relation they read checked as it is bound,
 * then SELECT on the target when they read its columns. */
static int
insert_bind(Merge *mp, Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is)
{
#define m (*mp)
	PgQuery__OnConflictClause *oc = is->on_conflict_clause;
	Operator *rows;
	Clause *cl;
	int i;

	memset(&m, 0, sizeof m);
	m.s = s;
	m.ctx = ctx;
	m.sql = sql;
	m.dup_col = -1;
	m.b.sql = sql;
	m.on_conflict = oc != NULL;
	TRY(load_target(&m, is->relation, "INSERT", acl_insert_privs(is)));
	/* conflict columns */
	m.keys = ARENA_ARRAY(ctx->arena, int, m.nt + 1);
	if (oc && oc->infer && oc->infer->conname && oc->infer->conname[0])
		return unsupported(&m, "ON CONFLICT ON CONSTRAINT");
	if (oc && oc->infer) {
		if (oc->infer->where_clause)
			return unsupported(&m, "ON CONFLICT (...) WHERE");
		for (i = 0; i < (int)oc->infer->n_index_elems; i++) {
			Node *e = oc->infer->index_elems[i];
			int c;
			if (e->node_case != PG_QUERY__NODE__NODE_INDEX_ELEM || !e->index_elem->name)
				return unsupported(&m, "an expression as ON CONFLICT target");
			c = find_field(&m, e->index_elem->name);
			if (c < 0) {
				floe_errorf(ctx->err, ERRCODE_UNDEFINED_COLUMN,
					    "column \"%s\" does not exist", e->index_elem->name);
				return fail_at(&m, oc->infer->location);
			}
			m.keys[m.nkeys++] = c;
		}
		m.reads = true;      /* the arbiter columns are read (PostgreSQL) */
		if (m.schema->nidentifier > 0 && !same_as_primary_key(&m)) {
			/* rows inserted past another key's conflicts could repeat the
			 * primary key, which nothing would check */
			floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "ON CONFLICT on columns other than the primary key of \"%s\" is not supported yet",
				    m.t->name);
			floe_error_hint(ctx->err, "Name exactly the primary key columns, or omit the column list.");
			return fail_at(&m, oc->infer->location);
		}
	} else {
		if (oc && oc->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE) {
			floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
				    "ON CONFLICT DO UPDATE requires inference specification or constraint name");
			floe_error_hint(ctx->err, "For example, ON CONFLICT (column_name).");
			return fail_at(&m, oc->location);
		}
		for (i = 0; i < m.schema->nidentifier; i++) {
			int c, k;
			for (c = 0; c < m.nt; c++)
				if (m.schema->fields[c].id == m.schema->identifier_field_ids[i])
					break;
			for (k = 0; k < m.nkeys; k++)
				if (m.keys[k] == c)
					break;
			if (c < m.nt && k == m.nkeys)
				m.keys[m.nkeys++] = c;
		}
	}
	TRY(insert_source(s, ctx, sql, is, m.t, &rows));
	if (m.nkeys) {
		TRY(conflict_join(&m, rows));
	} else {
		/* nothing can conflict: a join with no target rows */
		m.src = rows;
		m.ns = m.nt;
		m.snames = ARENA_ARRAY(ctx->arena, char *, m.nt + 1);
		m.stypes = ARENA_ARRAY(ctx->arena, SqlType, m.nt + 1);
		for (i = 0; i < m.nt; i++) {
			m.snames[i] = m.schema->fields[i].name;
			m.stypes[i] = m.schema->fields[i].type;
		}
		m.srel = "excluded";
		make_scope(&m);
		{
			Value f = { 0 };
			f.type = type_make(TYPE_BOOL);
			m.on = expr_const(ctx->arena, &f);
		}
	}
	m.b.with = is->with_clause;   /* WITH ... INSERT: CTEs seen by SET / WHERE too */
	m.clauses = ARENA_ARRAY(ctx->arena, Clause, 3);
	/* MATCHED */
	cl = &m.clauses[m.nclauses++];
	cl->cat = CAT_MATCHED;
	if (!oc) {
		cl->act = ACT_ERROR;
		m.pk_error = true;
		m.dup_act = ACT_ERROR;
	} else if (oc->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_NOTHING) {
		cl->act = ACT_NOTHING;
		m.dup_act = ACT_NOTHING;
	} else {
		cl->act = ACT_UPDATE;
		m.dup_act = ACT_ERROR;
		m.dup_state = ERRCODE_CARDINALITY_VIOLATION;
		m.dup_msg = "ON CONFLICT DO UPDATE command cannot affect row a second time";
		m.dup_hint = "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.";
		hide(&m, false, true);
		m.b.allow_aggs = false;
		m.b.where = "UPDATE";
		TRY(bind_set(&m, cl, oc->target_list, oc->n_target_list));
		for (i = 0; i < m.nkeys; i++)
			if (cl->vals[m.keys[i]]->kind != EXPR_COLREF ||
			    cl->vals[m.keys[i]]->col != m.keys[i]) {
				want_pk_check(&m);   /* SET of a key column */
				break;
			}
		if (oc->where_clause) {
			Expr *w;
			m.b.where = "WHERE";
			if (!(w = bind_coerce_bool(&m.b, bind_expr(&m.b, oc->where_clause), "WHERE")))
				return FLOE_ERR;
			m.reads = m.reads || acl_exprs_read_target(&w, 1, m.nt);
			cl->cond = to_join(&m, w, false);
		}
	}
	/* NOT MATCHED: insert the row as proposed */
	cl = &m.clauses[m.nclauses++];
	cl->cat = CAT_NOT_MATCHED;
	cl->act = ACT_INSERT;
	cl->vals = ARENA_ARRAY(ctx->arena, Expr *, m.nt + 1);
	for (i = 0; i < m.nt; i++)
		cl->vals[i] = expr_colref(ctx->arena, COL_SRC(&m, i), m.schema->fields[i].type);
	if (is->n_returning_list)
		TRY(bind_returning(&m, is->returning_list, (int)is->n_returning_list));
	m.reads = m.reads || acl_exprs_read_target(m.ret.exprs, m.ret.n, m.nt);
	return acl_note_target_read(s, ctx, m.t, m.reads, ctx->err);
#undef m
}

/* EXPLAIN INSERT ... ON CONFLICT: the privileges running it checks
 * (dml_explain_privileges), DO UPDATE's SET / WHERE subqueries too. */
int
merge_insert_explain_privileges(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is)
{
	Merge m;
	return insert_bind(&m, s, ctx, sql, is);
}

int
merge_insert(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, ResultSink *sink)
{
	Merge m;
	char tag[64];

	TRY(insert_bind(&m, s, ctx, sql, is));
	if (m.nkeys)
		TRY(table_scan_files(s->engine->io, m.t, -1, ctx->arena, &m.files, &m.nfiles,
				     ctx->err));
	TRY(merge_run(&m, m.nkeys == 0));
	TRY(returning_send(&m, sink));
	snprintf(tag, sizeof tag, "INSERT 0 %lld", (long long)m.affected);
	return complete(sink, tag);
}
