/*
 * optimize.c — compaction of an Iceberg table: OPTIMIZE t [REWRITE
 * DELETES] and Spark's procedures CALL [system.]rewrite_data_files(table
 * => 't') / CALL [system.]rewrite_position_delete_files(table => 't').
 *
 * Spec: apache/iceberg format/spec.md — "Snapshots" (operation "replace":
 * data and delete files were added and removed without changing the
 * table's data), "Scan Planning" (which delete files apply to which data
 * files), "Row-level deletes".
 *
 * Plan, one snapshot:
 *   1. the live data files of the current snapshot (table_scan_files, each
 *      with the delete files that apply to it)
 *   2. candidates: every data file with deletes (live_deletes: a
 *      multi-file position delete file counts only where its file_path
 *      bounds, spelled in the file's folder, admit it), and (full form only)
 *      every data file smaller than write.target-file-size-bytes (default
 *      512 MB).  Candidates are grouped by partition (spec id + partition
 *      tuple); in the full form a group made of one small file without
 *      deletes is left alone (rewriting it would gain nothing).
 *   3. each group is scanned (every column; deletes applied by scan.c),
 *      sorted by the table's default sort order when it can be honoured
 *      (sort_order_input: the files record its sort_order_id), into
 *      one DataWriter whose files keep the group's spec id and partition
 *      tuple (rows never change partition: the tuple is the same for all);
 *      a group of an older spec (after ALTER TABLE ... PARTITION FIELD) is
 *      written under the default spec instead (data_writer_set_spec), as
 *      Spark's rewrite_data_files does (its output-spec-id default)
 *   4. commit (TableChange.operation "replace"): add the new files, remove
 *      the rewritten data files and each delete file that applied only to
 *      rewritten files (position deletes and DVs naming one rewritten file
 *      are retired by table.c with their data file; multi-file position
 *      deletes and equality deletes are named here).  New files get the
 *      commit's sequence number, so an equality delete kept for other
 *      files never applies to them (their rows already went through it).
 *
 * Invariants
 *   1. The table's rows are unchanged: the new files hold exactly the rows
 *      the scan of the rewritten files produced.
 *   2. The commit is staged on the table as loaded and swapped with no
 *      re-base (table_stage + table_publish_staged): a concurrent commit,
 *      which may have added deletes to a file rewritten here, makes
 *      OPTIMIZE fail with 40001 rather than resurrect rows.  A failure
 *      removes every file OPTIMIZE wrote, except when the swap's outcome
 *      is unknown (08006: the catalog connection broke): then the files
 *      are kept and listed by txn_commit_failed.
 *   3. Not inside a transaction block (25001, as PostgreSQL's VACUUM).
 *
 * Result: one row (rewritten_data_files_count, added_data_files_count,
 * rewritten_bytes_count, removed_delete_files_count), Spark's names, and
 * the command tag OPTIMIZE (CALL for the procedures).
 *
 * Row lineage (format version 3, spec "Row Lineage": compaction keeps
 * it): the scan also produces each row's _row_id and
 * _last_updated_sequence_number (SCAN_PROJ_ROW_ID / _LAST_UPDATED_SEQ)
 * and the writer writes them as the reserved columns
 * (table_lineage_schema), so every row keeps both values.
 *
 * Not yet: tables with nested columns (0A000).
 *
 * INTERFACE ROUTINES (bind.h)
 *   optimize_exec(s, ctx, ns, name, deletes_only, tag, sink)   ns NULL: search_path
 *   optimize_stmt(s, ctx, sql, stmt, vacuumstmt, sink)  OPTIMIZE t [REWRITE
 *                                DELETES], which parse.c hands over as VACUUM t
 *   optimize_call(s, ctx, sql, callstmt, sink)  CALL rewrite_data_files /
 *                                               rewrite_position_delete_files
 *   optimize_describe(sql, stmt, arena, &ncols, &names, &types)  Describe
 *   optimize_same_partition(x, y)   same spec id and partition tuple
 *   optimize_rewrite_files(s, ctx, t, files, n, &out, &nout)   step 3 for one
 *        group of one partition (the insert buffer's compaction, ingest/compact.c)
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

/* Same partition value (the values of one spec field share a type). */
static bool
pval_eq(const Value *x, const Value *y)
{
	bool xn = x->is_null || x->type.id == TYPE_NULL, yn = y->is_null || y->type.id == TYPE_NULL;

	if (xn || yn)
		return xn == yn;
	switch (x->type.id) {
	case TYPE_BOOL: return x->u.b == y->u.b;
	case TYPE_FLOAT32:
	case TYPE_FLOAT64: return x->u.f == y->u.f || (x->u.f != x->u.f && y->u.f != y->u.f);
	case TYPE_DECIMAL: return x->u.d == y->u.d;
	case TYPE_TEXT:
	case TYPE_BYTEA: return strview_cmp(&x->u.s, &y->u.s) == 0;
	case TYPE_UUID: return memcmp(x->u.uuid.b, y->u.uuid.b, 16) == 0;
	default: return x->u.i == y->u.i;
	}
}

bool
optimize_same_partition(const DataFile *x, const DataFile *y)
{
	int i;

	if (x->spec_id != y->spec_id || x->npartition != y->npartition)
		return false;
	for (i = 0; i < x->npartition; i++)
		if (!pval_eq(&x->partition[i], &y->partition[i]))
			return false;
	return true;
}

static int
cmp_cstr(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Byte order of a path against a (possibly truncated) bound; 0 also when
 * the bound is not spelled in the path's folder (another prefix spelling
 * of the same file, a truncated bound): then it rules nothing out. */
static int
cmp_bound(const char *p, size_t n, const uint8_t *b, uint32_t bn)
{
	const char *slash = strrchr(p, '/');
	size_t dir = slash ? (size_t)(slash - p) + 1 : 0;
	int c;

	if (bn < dir || memcmp(p, b, dir) != 0)
		return 0;
	c = memcmp(p, b, n < bn ? n : bn);
	return c ? c : (n > bn) - (n < bn);
}

/* May delete file d (attached to f by scan planning) delete rows of f?
 * Scan planning attaches a position delete file naming several data files
 * to every file of its partition with an older or equal sequence number;
 * its file_path bounds rule most of them out (truncated bounds still
 * enclose every path in the file).  Candidate selection and which delete
 * files go use this; the rewrite's scan applies all of f's deletes. */
static bool
applies(const DataFile *d, const DataFile *f)
{
	size_t plen = strlen(f->file_path);
	int k;

	if (d->content != CONTENT_POSITION_DELETES || d->referenced_data_file)
		return true;
	for (k = 0; k < d->ncolumns; k++) {
		const ColumnStat *c = &d->columns[k];
		if (c->field_id != 2147483546)
			continue;
		if ((c->lower && cmp_bound(f->file_path, plen, c->lower, c->lower_len) < 0) ||
		    (c->upper && cmp_bound(f->file_path, plen, c->upper, c->upper_len) > 0))
			return false;
	}
	return true;
}

static int
live_deletes(const DataFile *f)
{
	int i, n = 0;

	for (i = 0; i < f->ndeletes; i++)
		n += applies(f->deletes[i], f);
	return n;
}

typedef struct Stats {
	int64_t rewritten, added, bytes, removed_deletes;
} Stats;

/* Scan the files of one group into a new writer; *out / *nout: its files. */
int
optimize_rewrite_files(Session *s, ExecCtx *ctx, Table *t, DataFile *files, int n, DataFile **out,
	      int *nout)
{
	const TableMetadata *md = t->md;
	const IcebergSchema *schema = metadata_current_schema(md);
	/* v3: every row keeps its _row_id and _last_updated_sequence_number */
	int nlin = md->format_version >= 3 ? 2 : 0;
	DataWriter *w = data_writer_new(s->engine->io, table_data_dir(t, ctx->arena),
					nlin ? table_lineage_schema(schema, ctx->arena) : schema, 0,
					ctx->arena);
	int *proj = ARENA_ARRAY(ctx->arena, int, schema->nfields + 2);
	const PartitionSpec *spec = metadata_default_spec(md);
	bool migrate = spec && files[0].spec_id != spec->spec_id;
	Operator *op;
	Batch *b;
	int i, k;
	int32_t order_id;

	/* files of an older spec: rows written under the default spec */
	if (migrate && data_writer_set_spec(w, spec, ctx->err) != FLOE_OK)
		goto fail;
	if (data_writer_set_table_properties(w, md, ctx->err) != FLOE_OK)
		goto fail;
	for (i = 0; i < schema->nfields; i++)
		proj[i] = i;
	proj[schema->nfields] = SCAN_PROJ_ROW_ID;
	proj[schema->nfields + 1] = SCAN_PROJ_LAST_UPDATED_SEQ;
	op = scan_new(ctx, schema, schema->nfields + nlin, proj, files, n, false, md);
	op = sort_order_input(ctx, md, op, &order_id);   /* the table's sort order */
	if (op_open(op) != FLOE_OK) {
		op_close(op);
		goto fail;
	}
	for (;;) {
		if (op_next(op, &b) != FLOE_OK) {
			op_close(op);
			goto fail;
		}
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		if (data_writer_write(w, b, ctx->err) != FLOE_OK) {
			op_close(op);
			goto fail;
		}
	}
	op_close(op);
	if (data_writer_finish(w, out, nout, ctx->err) != FLOE_OK)
		goto fail;
	for (k = 0; k < *nout && order_id >= 0; k++) {
		(*out)[k].has_sort_order_id = true;
		(*out)[k].sort_order_id = order_id;
	}
	for (k = 0; k < *nout && !(migrate && spec->nfields > 0); k++) {
		(*out)[k].spec_id = migrate ? spec->spec_id : files[0].spec_id;
		(*out)[k].npartition = migrate ? 0 : files[0].npartition;
		(*out)[k].partition = migrate ? NULL : files[0].partition;
	}
	data_writer_free(w);
	return FLOE_OK;
fail:
	data_writer_abort(w);
	data_writer_free(w);
	return FLOE_ERR;
}

void
optimize_remove_added(Session *s, const RewriteSet *rs)
{
	floe_error ignore;
	int i;

	for (i = 0; i < rs->nadd; i++)
		fileio_remove(s->engine->io, rs->add[i].file_path, &ignore);
}

int
optimize_rewrite_group(Session *s, ExecCtx *ctx, Table *t, DataFile *g, int ng, RewriteSet *rs)
{
	DataFile *out;
	int i, nout;

	if (optimize_rewrite_files(s, ctx, t, g, ng, &out, &nout) != FLOE_OK) {
		optimize_remove_added(s, rs);
		return FLOE_ERR;
	}
	for (i = 0; i < ng; i++)
		rs->remove[rs->nremove++] = g[i].file_path;
	if (rs->nadd + nout > rs->capadd) {
		int nc = (rs->nadd + nout) * 2;
		rs->add = arena_realloc(ctx->arena, rs->add, sizeof(DataFile) * (size_t)rs->capadd,
					sizeof(DataFile) * (size_t)nc);
		rs->capadd = nc;
	}
	if (nout > 0)
		memcpy(rs->add + rs->nadd, out, sizeof(DataFile) * (size_t)nout);
	rs->nadd += nout;
	return FLOE_OK;
}

static int
send_result(ExecCtx *ctx, const Stats *st, const char *tag, ResultSink *sink)
{
	static const char *const names[4] = { "rewritten_data_files_count",
		"added_data_files_count", "rewritten_bytes_count", "removed_delete_files_count" };
	SqlType types[4];
	Value v[4];
	Batch *b;
	int i;

	types[0] = types[1] = types[3] = type_make(TYPE_INT32);
	types[2] = type_make(TYPE_INT64);
	b = batch_new(ctx->arena, 4, types, 1);
	v[0] = value_int(TYPE_INT32, st->rewritten);
	v[1] = value_int(TYPE_INT32, st->added);
	v[2] = value_int(TYPE_INT64, st->bytes);
	v[3] = value_int(TYPE_INT32, st->removed_deletes);
	for (i = 0; i < 4; i++)
		vector_set_value(&b->cols[i], 0, &v[i]);
	b->count = 1;
	if (sink && sink->columns)
		sink->columns(sink->ctx, 4, names, types);
	if (sink && sink->batch)
		sink->batch(sink->ctx, b);
	if (sink && sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

int
optimize_exec(Session *s, ExecCtx *ctx, const char *ns, const char *name, bool deletes_only,
	      const char *tag, ResultSink *sink)
{
	Engine *e = s->engine;
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	const char *v;
	char job[64];
	Table *t, *staged;
	DataFile *files;
	RewriteSet rs;
	int nfiles, i, j, k, ngroups = 0, nremove = 0, nw = 0;
	int *group, *cand;
	int64_t target = DATA_WRITER_DEFAULT_TARGET;
	const char **remove;
	char **written = NULL, **keep = NULL;
	int nkeep = 0;
	Stats st;
	TableChange ch;

	memset(&st, 0, sizeof st);
	if (session_txn_status(s) != 'I')
		return floe_errorf(err, ERRCODE_ACTIVE_SQL_TRANSACTION,
				   "%s cannot run inside a transaction block", tag);
	if (txn_table_load(s, ns ? ns : search_path_lookup(s, name), name, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s%s%s\" does not exist",
				    ns ? ns : "", ns ? "." : "", name);
		return FLOE_ERR;
	}
	{
		const IcebergSchema *schema = metadata_current_schema(t->md);
		for (i = 0; i < schema->nfields; i++)
			if (schema->fields[i].nested)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "OPTIMIZE of a table with nested columns is not supported yet");
	}
	if ((v = metadata_property(t->md, "write.target-file-size-bytes"))) {
		char *end;
		long long x = strtoll(v, &end, 10);
		if (end == v || *end || x <= 0)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for table property write.target-file-size-bytes: \"%s\"",
					   v);
		target = x;
	}
	TRY(table_scan_files(e->io, t, -1, a, &files, &nfiles, err));

	/* candidates, grouped by partition */
	cand = ARENA_ARRAY(a, int, nfiles + 1);
	group = ARENA_ARRAY(a, int, nfiles + 1);
	for (i = 0; i < nfiles; i++) {
		DataFile *f = &files[i];
		group[i] = -1;
		cand[i] = f->content == CONTENT_DATA &&
			  (live_deletes(f) > 0 || (!deletes_only && f->file_size_in_bytes < target));
		if (!cand[i])
			continue;
		for (j = 0; j < i; j++)
			if (cand[j] && optimize_same_partition(&files[j], f)) {
				group[i] = group[j];
				break;
			}
		if (group[i] < 0)
			group[i] = ngroups++;
	}
	/* a group of one clean small file stays as it is */
	for (k = 0; k < ngroups; k++) {
		int members = 0, dirty = 0, last = -1;
		for (i = 0; i < nfiles; i++)
			if (cand[i] && group[i] == k) {
				members++;
				dirty += live_deletes(&files[i]) > 0;
				last = i;
			}
		if (members == 1 && !dirty)
			cand[last] = 0;
	}

	memset(&rs, 0, sizeof rs);
	rs.remove = ARENA_ARRAY(a, const char *, nfiles + 1);
	for (k = 0; k < ngroups; k++) {
		DataFile *g = ARENA_ARRAY(a, DataFile, nfiles + 1);
		int ng = 0;
		for (i = 0; i < nfiles; i++)
			if (cand[i] && group[i] == k) {
				g[ng++] = files[i];
				st.bytes += files[i].file_size_in_bytes;
			}
		if (ng > 0)
			TRY(optimize_rewrite_group(s, ctx, t, g, ng, &rs));
	}
	remove = rs.remove;
	nremove = rs.nremove;
	st.rewritten = nremove;
	st.added = rs.nadd;
	if (nremove == 0)
		return send_result(ctx, &st, tag, sink);

	/* delete files that may apply to a data file left alone stay (none
	 * so far: such a file has deletes, so it is rewritten; kept for
	 * whatever selection rule comes next) */
	for (i = 0; i < nfiles; i++)
		if (!cand[i])
			nkeep += files[i].ndeletes;
	keep = ARENA_ARRAY(a, char *, nkeep + 1);
	nkeep = 0;
	for (i = 0; i < nfiles; i++)
		if (!cand[i])
			for (j = 0; j < files[i].ndeletes; j++)
				if (applies(files[i].deletes[j], &files[i]))
					keep[nkeep++] = files[i].deletes[j]->file_path;
	qsort(keep, (size_t)nkeep, sizeof(char *), cmp_cstr);
	{
		int nd = 0;
		const char **dels;
		for (i = 0; i < nfiles; i++)
			if (cand[i])
				nd += files[i].ndeletes;
		dels = ARENA_ARRAY(a, const char *, nd + 1);
		nd = 0;
		for (i = 0; i < nfiles; i++)
			if (cand[i])
				for (j = 0; j < files[i].ndeletes; j++)
					dels[nd++] = files[i].deletes[j]->file_path;
		qsort(dels, (size_t)nd, sizeof(char *), cmp_cstr);
		remove = arena_realloc(a, remove, sizeof(char *) * (size_t)(nfiles + 1),
				       sizeof(char *) * (size_t)(nfiles + nd + 1));
		for (i = 0; i < nd; i++) {
			if (i > 0 && !strcmp(dels[i], dels[i - 1]))
				continue;
			if (nkeep > 0 && bsearch(&dels[i], keep, (size_t)nkeep, sizeof(char *), cmp_cstr))
				continue;
			st.removed_deletes++;
			remove[nremove++] = dels[i];
		}
	}

	memset(&ch, 0, sizeof ch);
	table_job_id(job, sizeof job);
	ch.add = rs.add;
	ch.nadd = rs.nadd;
	ch.remove = remove;
	ch.nremove = nremove;
	ch.job_id = job;
	ch.operation = "replace";
	/* no re-base: a concurrent commit may have added deletes to a file
	 * rewritten here (invariant 2) */
	if (table_stage(e->io, t, &ch, a, &staged, &written, &nw, err) != FLOE_OK) {
		optimize_remove_added(s, &rs);
		return FLOE_ERR;
	}
	if (table_publish_staged(e->catalog, e->io, t, staged, written, nw, job, a, err) != FLOE_OK) {
		if (!txn_commit_failed(s, &ch, err))   /* else the swap may have landed */
			optimize_remove_added(s, &rs);
		return FLOE_ERR;
	}
	return send_result(ctx, &st, tag, sink);
}

int
optimize_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink)
{
	PgQuery__FuncCall *f = cs->funccall;
	const char *name = f->funcname[f->n_funcname - 1]->string->sval;
	bool deletes_only = strcmp(name, "rewrite_position_delete_files") == 0;
	floe_error *err = ctx->err;
	char *table = NULL, *dot;
	BindCtx b;
	size_t i;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = err;
	b.sql = sql;
	b.where = "CALL";
	for (i = 0; i < f->n_args; i++) {
		Node *n = f->args[i];
		Expr *x;
		Value v;
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			if (strcmp(n->named_arg_expr->name, "table") != 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
						   "%s has no argument named \"%s\"", name,
						   n->named_arg_expr->name);
			n = n->named_arg_expr->arg;
		} else if (i > 0) {
			return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
					   "%s takes one argument (table)", name);
		}
		if (!(x = bind_expr(&b, n)) || !(x = bind_coerce(&b, x, type_make(TYPE_TEXT), 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, ctx->env, ctx->arena, &v, err));
		if (v.is_null)
			return floe_errorf(err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					   "%s arguments must not be NULL", name);
		table = arena_strndup(ctx->arena, strview_data(&v.u.s), v.u.s.len);
	}
	if (!table)
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "%s(table) needs a table name",
				   name);
	if ((dot = strchr(table, '.'))) {
		*dot = 0;
		return optimize_exec(s, ctx, table, dot + 1, deletes_only, "CALL", sink);
	}
	return optimize_exec(s, ctx, NULL, table, deletes_only, "CALL", sink);
}

int
optimize_stmt(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
	      PgQuery__VacuumStmt *vs, ResultSink *sink)
{
	bool deletes_only = false;
	const char *ns, *name;
	PgQuery__RangeVar *rv;

	if (!sql_is_optimize(sql, st, &deletes_only))
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "%s is not supported (OPTIMIZE t compacts a table)",
				   vs->is_vacuumcmd ? "VACUUM" : "ANALYZE");
	if (vs->n_rels != 1 || vs->n_options > 0 ||
	    vs->rels[0]->node_case != PG_QUERY__NODE__NODE_VACUUM_RELATION ||
	    !(rv = vs->rels[0]->vacuum_relation->relation) ||
	    vs->rels[0]->vacuum_relation->n_va_cols > 0)
		return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
				   "OPTIMIZE takes one table name, optionally followed by REWRITE DELETES");
	session_resolve_name(s, rv, &ns, &name);
	return optimize_exec(s, ctx, ns, name, deletes_only, "OPTIMIZE", sink);
}

/* The result columns of statement st when it is OPTIMIZE or CALL
 * rewrite_data_files / rewrite_position_delete_files (extended protocol
 * Describe); false for any other statement. */
bool
optimize_describe(const char *sql, const SqlStmt *st, Arena *a, int *ncols, char ***names,
		  SqlType **types)
{
	static const char *const cols[4] = { "rewritten_data_files_count",
		"added_data_files_count", "rewritten_bytes_count", "removed_delete_files_count" };
	Node *n = st->node;
	bool deletes_only;
	int i;

	if (n->node_case == PG_QUERY__NODE__NODE_CALL_STMT) {
		PgQuery__FuncCall *f = n->call_stmt->funccall;
		const char *name = f && f->n_funcname > 0 ? f->funcname[f->n_funcname - 1]->string->sval : "";
		if (strcmp(name, "rewrite_data_files") != 0 &&
		    strcmp(name, "rewrite_position_delete_files") != 0)
			return false;
	} else if (n->node_case != PG_QUERY__NODE__NODE_VACUUM_STMT ||
		   !sql_is_optimize(sql, st, &deletes_only)) {
		return false;
	}
	*ncols = 4;
	*names = ARENA_ARRAY(a, char *, 4);
	*types = ARENA_ARRAY(a, SqlType, 4);
	for (i = 0; i < 4; i++) {
		(*names)[i] = arena_strdup(a, cols[i]);
		(*types)[i] = type_make(i == 2 ? TYPE_INT64 : TYPE_INT32);
	}
	return true;
}
