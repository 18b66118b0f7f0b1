/*
 * wap.c — CALL cherrypick_snapshot / publish_changes (see wap.h).
 *
 * Semantics: Iceberg Java's CherryPickOperation as Spark's procedures call
 * it (docs/spark-procedures.md), for a snapshot S of table t:
 *   - S unknown: 22023; S already main's head or one of its ancestors: 55000.
 *   - S carries "wap.id" = w and a snapshot of main's history carries w as
 *     its wap.id or published-wap-id: 55000 (published already).
 *   - S's parent is main's head: a fast-forward, main moves to S (a
 *     metadata commit: current-snapshot-id, refs.main, one snapshot-log
 *     entry; no new snapshot).
 *   - else S is an "append": a new snapshot on main adding the data files
 *     S added (S's live files that its parent did not have), with
 *     "source-snapshot-id" = S and, when S has one, "published-wap-id" = w
 *     in its summary.
 *   - else (an overwrite or delete on another head): 55000; floe has no
 *     dynamic partition overwrite, the other case Iceberg replays.
 * publish_changes(t, w) cherry-picks the one snapshot whose wap.id is w:
 * none 42704, several 55000 (Iceberg: "non-unique WAP ID").
 * Not inside a transaction block (25001), as the other procedures.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sql/maintenance.h"
#include "sql/refs.h"
#include "sql/txn.h"
#include "sql/wap.h"

static const char *const out_cols[2] = { "source_snapshot_id", "current_snapshot_id" };

static const char *
summary_of(const Snapshot *sn, const char *key)
{
	int i;

	for (i = 0; i < sn->nsummary; i++)
		if (!strcmp(sn->summary[i].key, key))
			return sn->summary[i].value;
	return NULL;
}

/* Does main's history (its head and ancestors) hold wap id w? */
static bool
published(const TableMetadata *md, const char *w)
{
	const Snapshot *sn = md->has_current_snapshot ?
		metadata_snapshot_by_id(md, md->current_snapshot_id) : NULL;
	const char *x;
	int guard = 0;

	for (; sn && guard++ <= md->nsnapshots;
	     sn = sn->has_parent ? metadata_snapshot_by_id(md, sn->parent_snapshot_id) : NULL)
		if (((x = summary_of(sn, "wap.id")) && !strcmp(x, w)) ||
		    ((x = summary_of(sn, "published-wap-id")) && !strcmp(x, w)))
			return true;
	return false;
}

static int
cmp_path(const void *x, const void *y)
{
	return strcmp(((const DataFile *)x)->file_path, ((const DataFile *)y)->file_path);
}

/* The data files snapshot sn added: its live ones its parent lacks. */
static int
added_files(Session *s, ExecCtx *ctx, const Table *t, const Snapshot *sn, DataFile **out,
	    int *nout)
{
	DataFile *f, *p = NULL;
	int nf, np = 0, i, k = 0;

	TRY(table_scan_files(s->engine->io, t, sn->snapshot_id, ctx->arena, &f, &nf, ctx->err));
	if (sn->has_parent)
		TRY(table_scan_files(s->engine->io, t, sn->parent_snapshot_id, ctx->arena, &p, &np,
				     ctx->err));
	if (np > 0)
		qsort(p, (size_t)np, sizeof *p, cmp_path);
	*out = ARENA_ARRAY(ctx->arena, DataFile, nf + 1);
	for (i = 0; i < nf; i++) {
		if (f[i].content != CONTENT_DATA ||
		    (np > 0 && bsearch(&f[i], p, (size_t)np, sizeof *p, cmp_path)))
			continue;
		(*out)[k] = f[i];
		(*out)[k].deletes = NULL;
		(*out)[k++].ndeletes = 0;
	}
	*nout = k;
	return FLOE_OK;
}

static int
cherrypick(Session *s, ExecCtx *ctx, Table *t, int64_t id, int64_t *current)
{
	const TableMetadata *md = t->md;
	const Snapshot *sn = metadata_snapshot_by_id(md, id);
	floe_error *err = ctx->err;
	const char *w, *op;
	bool has_cur = md->has_current_snapshot;
	int64_t cur = md->current_snapshot_id;
	Table *out;

	if (!sn)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "snapshot %" PRId64 " of table \"%s\" does not exist", id, t->name);
	w = summary_of(sn, "wap.id");
	if (w && published(md, w))
		return floe_errorf(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
				   "wap id \"%s\" of table \"%s\" was published already", w, t->name);
	if (has_cur && refs_is_ancestor(md, cur, id))
		return floe_errorf(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
				   "snapshot %" PRId64 " is already in the history of table \"%s\"'s "
				   "current snapshot", id, t->name);
	if (sn->has_parent == has_cur && (!has_cur || sn->parent_snapshot_id == cur)) {
		/* fast-forward: main moves to sn */
		TableMetadata *m = metadata_copy(md, ctx->arena);
		SnapshotRef *r = ARENA_ARRAY(ctx->arena, SnapshotRef, m->nrefs + 1);
		int k;
		if (m->nrefs)
			memcpy(r, m->refs, sizeof *r * (size_t)m->nrefs);
		m->refs = r;
		for (k = 0; k < m->nrefs && strcmp(m->refs[k].name, "main"); k++)
			;
		if (k == m->nrefs) {
			memset(&m->refs[k], 0, sizeof m->refs[k]);
			m->refs[k].name = "main";
			m->refs[k].type = "branch";
			m->nrefs++;
		}
		m->refs[k].snapshot_id = id;
		refs_move_main(m, id, ctx->arena);
		TRY(txn_commit_metadata(s, t, m, ctx->arena, &out, err));
		*current = id;
		return FLOE_OK;
	}
	op = sn->operation ? sn->operation : "";
	if (strcmp(op, "append") != 0) {
		floe_errorf(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
			    "cannot cherry-pick snapshot %" PRId64 ": its operation \"%s\" is not an "
			    "append and its parent is not the current snapshot", id, op);
		return floe_error_hint(err, "Only appends can be applied to a table that changed since; "
				       "an overwrite or delete must be published before other commits.");
	}
	{
		TableChange ch;
		MdProp sum[2];
		DataFile *files;
		int n;
		char idbuf[32];
		TRY(added_files(s, ctx, t, sn, &files, &n));
		snprintf(idbuf, sizeof idbuf, "%" PRId64, id);
		sum[0].key = "source-snapshot-id";
		sum[0].value = idbuf;
		sum[1].key = "published-wap-id";
		sum[1].value = (char *)w;
		memset(&ch, 0, sizeof ch);
		ch.add = files;
		ch.nadd = n;
		ch.operation = "append";
		ch.summary = sum;
		ch.nsummary = w ? 2 : 1;
		if (n == 0)
			return floe_errorf(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
					   "snapshot %" PRId64 " added no data files to cherry-pick", id);
		if (txn_commit(s, t, &ch, ctx->arena, &out, err) != FLOE_OK) {
			txn_commit_failed(s, &ch, err);   /* the files are sn's: never removed */
			return FLOE_ERR;
		}
		*current = out->md->current_snapshot_id;
	}
	return FLOE_OK;
}

static int
send_row(ExecCtx *ctx, int64_t source, int64_t current, ResultSink *sink)
{
	SqlType types[2] = { type_make(TYPE_INT64), type_make(TYPE_INT64) };
	Batch *b = batch_new(ctx->arena, 2, types, 1);
	Value x;

	x = value_int(TYPE_INT64, source);
	vector_set_value(&b->cols[0], 0, &x);
	x = value_int(TYPE_INT64, current);
	vector_set_value(&b->cols[1], 0, &x);
	b->count = 1;
	if (sink && sink->columns)
		sink->columns(sink->ctx, 2, out_cols, types);
	if (sink && sink->batch)
		sink->batch(sink->ctx, b);
	return engine_complete(sink, "CALL");
}

int
wap_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f, ResultSink *sink,
	 bool *handled)
{
	const char *proc = f->funcname[f->n_funcname - 1]->string->sval, *ns, *name;
	bool pick = !strcmp(proc, "cherrypick_snapshot");
	ArgSpec spec[2] = { { "table", TYPE_TEXT }, { NULL, TYPE_INT64 } };
	Value v[2];
	bool have[2];
	int64_t id = 0, current = 0;
	Table *t;
	int i;

	*handled = pick || !strcmp(proc, "publish_changes");
	if (!*handled)
		return FLOE_OK;
	spec[1].name = pick ? "snapshot_id" : "wap_id";
	spec[1].type = pick ? TYPE_INT64 : TYPE_TEXT;
	TRY(maintenance_bind_args(s, ctx, sql, f, proc, spec, 2, v, have));
	if (!have[1])
		return floe_errorf(ctx->err, ERRCODE_UNDEFINED_FUNCTION, "%s needs %s", proc,
				   spec[1].name);
	TRY(maintenance_outside_block(s, proc, ctx->err));
	maintenance_split_name(s, ctx->arena, &v[0], &ns, &name);
	TRY(maintenance_load(s, ctx, ns, name, &t));
	if (pick) {
		id = v[1].u.i;
	} else {
		const char *w = arena_strndup(ctx->arena, strview_data(&v[1].u.s), v[1].u.s.len), *x;
		int found = 0;
		for (i = 0; i < t->md->nsnapshots; i++)
			if ((x = summary_of(&t->md->snapshots[i], "wap.id")) && !strcmp(x, w)) {
				id = t->md->snapshots[i].snapshot_id;
				found++;
			}
		if (found == 0)
			return floe_errorf(ctx->err, ERRCODE_UNDEFINED_OBJECT,
					   "table \"%s\" has no snapshot staged with wap id \"%s\"", name, w);
		if (found > 1) {
			floe_errorf(ctx->err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
				    "table \"%s\" has %d snapshots staged with wap id \"%s\"", name, found, w);
			return floe_error_hint(ctx->err, "Publish one of them with cherrypick_snapshot(table, snapshot_id).");
		}
	}
	TRY(cherrypick(s, ctx, t, id, &current));
	return send_row(ctx, id, current, sink);
}

bool
wap_describe(const char *name, Arena *a, int *ncols, char ***names, SqlType **types)
{
	int i;

	if (strcmp(name, "cherrypick_snapshot") && strcmp(name, "publish_changes"))
		return false;
	*ncols = 2;
	*names = ARENA_ARRAY(a, char *, 2);
	*types = ARENA_ARRAY(a, SqlType, 2);
	for (i = 0; i < 2; i++) {
		(*names)[i] = arena_strdup(a, out_cols[i]);
		(*types)[i] = type_make(TYPE_INT64);
	}
	return true;
}
