/*
 * metatables.c — Iceberg metadata tables (t$snapshots, t$history,
 * t$files, ...) and time travel, as relations of a FROM clause.
 *
 * Spec: apache/iceberg format/spec.md ("Snapshots", "Manifests", "Table
 * Metadata"); names and columns follow Trino's Iceberg connector metadata
 * tables (docs/iceberg-metadata.md lists them).
 *
 * A FROM item "<table>$<kind>" (schema-qualified or not) whose <table>
 * exists and whose <kind> is one of:
 *   snapshots  history  files  data_files  delete_files  manifests  refs
 *   properties  metadata_log_entries  partitions  statistics
 * reads the table's metadata as txn_table_load gives it (a transaction sees
 * its own snapshots).  Time travel: parse.c rewrites FOR VERSION |
 * TIMESTAMP AS OF x and AT / BEFORE(...) into TABLESAMPLE "floe$tt"(mode,
 * x), select.c evaluates x and asks metatable_snapshot_at for the table
 * and snapshot, and scans them as the table itself (in the snapshot's
 * schema); the names "t$v$123" / "t$ts$<time>" and Spark's t.branch_b /
 * t.tag_v1 resolve the same way (metatable_snapshot).
 *
 * Any other name with '$' is not ours (*found = false): a user table may
 * hold '$' in its name.
 *
 * Procedures (Iceberg's Spark procedures; no result rows, tag CALL):
 *   CALL rollback_to_snapshot('[ns.]t', id)     id: an ancestor of the current
 *   CALL set_current_snapshot('[ns.]t', id)     id: any snapshot of t
 *   CALL rollback_to_timestamp('[ns.]t', ts)    the newest ancestor at or before ts
 * make the snapshot current (refs "main", a snapshot-log entry) in one
 * metadata commit through txn_commit_metadata.
 *
 * INTERFACE ROUTINES (bind.h)
 *   metatable_relation(s, ctx, rv, a, &found, &ncols, &names, &types, &op, err)
 *   metatable_snapshot(s, ctx, rv, a, &found, &t, &snapshot_id, &schema, &tname, err)
 *                              a time-travel name: the table and snapshot to
 *                              scan (select.c scans it as the table itself)
 *   metatable_snapshot_at(s, ctx, rv, a, mode, text, us, &t, &snapshot_id, &schema,
 *                         &tname, err)   the same for TABLESAMPLE "floe$tt"
 *                              (parse.c's rewrite): mode 1 version/ref text,
 *                              2 at time us, 3 now + us, 4 before us, 5 the
 *                              parent of version text
 *   metatable_call(s, ctx, sql, cs, sink)       the procedures above
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/expr.h"
#include "server/users.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/constrel.h"
#include "sql/txn.h"
#include "table/manifest.h"
#include "table/metacols.h"
#include "table/table_stats.h"
#include "types/cast.h"
#include "types/datetime.h"

/* ---- rows of a metadata table ------------------------------------------- */

typedef ConstRel Rows;       /* the metadata table being built */

static void
put_i(Value *row, int c, int64_t v)
{
	row[c].is_null = false;
	if (row[c].type.id == TYPE_BOOL)
		row[c].u.b = v != 0;
	else
		row[c].u.i = v;
}

static void
put_s(Value *row, int c, const char *s)
{
	if (!s)
		return;
	row[c].is_null = false;
	row[c].u.s = strview_make(s, (uint32_t)strlen(s));
}

/* ---- JSON text of a snapshot summary ------------------------------------ */

static void
json_str(char **buf, size_t *len, size_t *cap, Arena *a, const char *s)
{
	const char *p;

	for (p = s; ; p++) {
		if (*len + 10 >= *cap) {
			size_t nc = *cap * 2 + 64;
			*buf = arena_realloc(a, *buf, *cap, nc);
			*cap = nc;
		}
		if (p == s)
			(*buf)[(*len)++] = '"';
		if (!*p)
			break;
		if ((unsigned char)*p < 0x20)
			*len += (size_t)snprintf(*buf + *len, 8, "\\u%04x", (unsigned)(unsigned char)*p);
		else if (*p == '"' || *p == '\\')
			(*buf)[(*len)++] = '\\', (*buf)[(*len)++] = *p;
		else
			(*buf)[(*len)++] = *p;
	}
	(*buf)[(*len)++] = '"';
	(*buf)[*len] = 0;
}

static char *
summary_json(const Snapshot *sn, Arena *a)
{
	size_t cap = 256, len = 0;
	char *buf = arena_alloc(a, cap);
	int i;

	buf[len++] = '{';
	buf[len] = 0;
	if (sn->operation) {
		json_str(&buf, &len, &cap, a, "operation");
		buf[len++] = ':';
		json_str(&buf, &len, &cap, a, sn->operation);
	}
	for (i = 0; i < sn->nsummary; i++) {
		if (len > 1)
			buf[len++] = ',';
		json_str(&buf, &len, &cap, a, sn->summary[i].key);
		buf[len++] = ':';
		json_str(&buf, &len, &cap, a, sn->summary[i].value ? sn->summary[i].value : "");
	}
	if (len + 2 > cap)
		buf = arena_realloc(a, buf, cap, len + 2);
	buf[len++] = '}';
	buf[len] = 0;
	return buf;
}

/* ---- the metadata tables ------------------------------------------------- */

static void
fill_snapshots(Rows *r, const TableMetadata *md)
{
	int i;

	constrel_init(r, r->a, "committed_at:z snapshot_id:l parent_id:l operation:t manifest_list:t "
		  "summary:t");
	for (i = 0; i < md->nsnapshots; i++) {
		const Snapshot *sn = &md->snapshots[i];
		Value *row = constrel_row(r);
		put_i(row, 0, sn->timestamp_ms * 1000);
		put_i(row, 1, sn->snapshot_id);
		if (sn->has_parent)
			put_i(row, 2, sn->parent_snapshot_id);
		put_s(row, 3, sn->operation);
		put_s(row, 4, sn->manifest_list);
		put_s(row, 5, summary_json(sn, r->a));
	}
}

/* Is id the current snapshot or one of its ancestors? */
static bool
current_ancestor(const TableMetadata *md, int64_t id)
{
	const Snapshot *sn = metadata_current_snapshot(md);
	int guard = 0;

	while (sn && guard++ <= md->nsnapshots) {
		if (sn->snapshot_id == id)
			return true;
		sn = sn->has_parent ? metadata_snapshot_by_id(md, sn->parent_snapshot_id) : NULL;
	}
	return false;
}

static void
fill_history(Rows *r, const TableMetadata *md)
{
	int i;

	constrel_init(r, r->a, "made_current_at:z snapshot_id:l parent_id:l is_current_ancestor:b");
	for (i = 0; i < md->nsnapshot_log; i++) {
		const SnapshotLogEntry *e = &md->snapshot_log[i];
		const Snapshot *sn = metadata_snapshot_by_id(md, e->snapshot_id);
		Value *row = constrel_row(r);
		put_i(row, 0, e->timestamp_ms * 1000);
		put_i(row, 1, e->snapshot_id);
		if (sn && sn->has_parent)
			put_i(row, 2, sn->parent_snapshot_id);
		put_i(row, 3, current_ancestor(md, e->snapshot_id));
	}
}

static void
file_row(Rows *r, const DataFile *f)
{
	Value *row = constrel_row(r);

	put_i(row, 0, (int64_t)f->content);
	put_s(row, 1, f->file_path);
	put_s(row, 2, f->file_format);
	put_i(row, 3, f->spec_id);
	put_i(row, 4, f->record_count);
	put_i(row, 5, f->file_size_in_bytes);
	if (f->referenced_data_file)
		put_s(row, 6, f->referenced_data_file);
	if (f->has_content_offset) {
		put_i(row, 7, f->content_offset);
		put_i(row, 8, f->content_size_in_bytes);
	}
}

/* which: 0 all, 1 data only, 2 deletes only */
static int
fill_files(Rows *r, Session *s, const Table *t, int which, floe_error *err)
{
	DataFile *files;
	const DataFile **dels;
	int n, i, ndel;

	constrel_init(r, r->a, "content:i file_path:t file_format:t spec_id:i record_count:l "
		  "file_size_in_bytes:l referenced_data_file:t content_offset:l "
		  "content_size_in_bytes:l");
	TRY(table_scan_files(s->engine->io, t, -1, r->a, &files, &n, err));
	if (which != 2)
		for (i = 0; i < n; i++)
			file_row(r, &files[i]);
	if (which == 1)
		return FLOE_OK;
	/* delete files, each once (one may apply to several data files);
	 * a deletion vector is one row per vector (path + offset) */
	ndel = table_scan_delete_files(files, n, r->a, &dels);
	for (i = 0; i < ndel; i++)
		file_row(r, dels[i]);
	return FLOE_OK;
}

/* One row per partition of the current snapshot's data files: partition
 * as JSON-like text {"name":value,...} ({} unpartitioned), spec_id, and
 * the sums over its data files (deletes not subtracted, as Trino). */
static int
fill_partitions(Rows *r, Session *s, const Table *t, floe_error *err)
{
	DataFile *files;
	int n, i, j;
	char **keys;
	int *ri;                     /* the row of each file */

	constrel_init(r, r->a, "partition:t spec_id:i record_count:l file_count:l total_size:l");
	TRY(table_scan_files(s->engine->io, t, -1, r->a, &files, &n, err));
	keys = ARENA_ARRAY(r->a, char *, n + 1);
	ri = ARENA_ARRAY(r->a, int, n + 1);
	for (i = 0; i < n; i++) {
		Value *row = NULL;
		/* the same text as the _partition metadata column */
		TRY(metacol_partition_text(t->md, &files[i], r->a, &keys[i], err));
		ri[i] = -1;
		for (j = 0; j < i && ri[i] < 0; j++)
			if (files[j].spec_id == files[i].spec_id && !strcmp(keys[j], keys[i]))
				ri[i] = ri[j];
		if (ri[i] < 0) {
			row = constrel_row(r);
			ri[i] = r->nrows - 1;
			put_s(row, 0, keys[i]);
			put_i(row, 1, files[i].spec_id);
			put_i(row, 2, 0);
			put_i(row, 3, 0);
			put_i(row, 4, 0);
		}
		row = &r->vals[(size_t)ri[i] * (size_t)r->ncols];
		row[2].u.i += files[i].record_count;
		row[3].u.i += 1;
		row[4].u.i += files[i].file_size_in_bytes;
	}
	return FLOE_OK;
}

static int
fill_manifests(Rows *r, Session *s, const TableMetadata *md, floe_error *err)
{
	const Snapshot *sn = metadata_current_snapshot(md);
	const uint8_t *data;
	size_t len;
	ManifestFile *m;
	int n, i;

	constrel_init(r, r->a, "path:t length:l partition_spec_id:i added_snapshot_id:l content:i "
		  "sequence_number:l added_data_files_count:i existing_data_files_count:i "
		  "deleted_data_files_count:i added_rows_count:l existing_rows_count:l "
		  "deleted_rows_count:l");
	if (!sn || !sn->manifest_list)
		return FLOE_OK;
	TRY(fileio_read(s->engine->io, sn->manifest_list, r->a, &data, &len, err));
	TRY(manifest_list_read(data, len, sn->manifest_list, r->a, &m, &n, err));
	for (i = 0; i < n; i++) {
		Value *row = constrel_row(r);
		put_s(row, 0, m[i].manifest_path);
		put_i(row, 1, m[i].manifest_length);
		put_i(row, 2, m[i].partition_spec_id);
		put_i(row, 3, m[i].added_snapshot_id);
		put_i(row, 4, m[i].content);
		put_i(row, 5, m[i].sequence_number);
		put_i(row, 6, m[i].added_files_count);
		put_i(row, 7, m[i].existing_files_count);
		put_i(row, 8, m[i].deleted_files_count);
		put_i(row, 9, m[i].added_rows_count);
		put_i(row, 10, m[i].existing_rows_count);
		put_i(row, 11, m[i].deleted_rows_count);
	}
	return FLOE_OK;
}

/* One row per blob of the table's statistics files (table_stats.h):
 * column_name from the current schema (NULL for a dropped field), ndv the
 * blob's property, sketch_ndv the theta sketch's own estimate. */
static int
fill_statistics(Rows *r, Session *s, const TableMetadata *md, floe_error *err)
{
	const IcebergSchema *sc = metadata_current_schema(md);
	StatsRow *rows;
	int n, i, k;

	constrel_init(r, r->a, "snapshot_id:l column_name:t field_id:i ndv:l sketch_ndv:d "
		  "blob_type:t statistics_path:t");
	TRY(table_stats_list(s->engine->io, md, r->a, &rows, &n, err));
	for (i = 0; i < n; i++) {
		Value *row = constrel_row(r);
		put_i(row, 0, rows[i].snapshot_id);
		for (k = 0; sc && k < sc->nfields; k++)
			if (sc->fields[k].id == rows[i].field_id)
				put_s(row, 1, sc->fields[k].name);
		put_i(row, 2, rows[i].field_id);
		if (rows[i].has_ndv)
			put_i(row, 3, rows[i].ndv);
		if (rows[i].has_estimate) {
			row[4].is_null = false;
			row[4].u.f = rows[i].estimate;
		}
		put_s(row, 5, rows[i].blob_type);
		put_s(row, 6, rows[i].statistics_path);
	}
	return FLOE_OK;
}

static void
fill_refs(Rows *r, const TableMetadata *md)
{
	int i;
	bool main_seen = false;

	constrel_init(r, r->a, "name:t type:t snapshot_id:l max_reference_age_in_ms:l "
		      "min_snapshots_to_keep:i max_snapshot_age_in_ms:l");
	for (i = 0; i < md->nrefs; i++) {
		Value *row = constrel_row(r);
		put_s(row, 0, md->refs[i].name);
		put_s(row, 1, md->refs[i].type ? md->refs[i].type : "branch");
		put_i(row, 2, md->refs[i].snapshot_id);
		if (md->refs[i].has_max_ref_age_ms)
			put_i(row, 3, md->refs[i].max_ref_age_ms);
		if (md->refs[i].has_min_snapshots_to_keep)
			put_i(row, 4, md->refs[i].min_snapshots_to_keep);
		if (md->refs[i].has_max_snapshot_age_ms)
			put_i(row, 5, md->refs[i].max_snapshot_age_ms);
		main_seen |= !strcmp(md->refs[i].name, "main");
	}
	if (!main_seen && md->has_current_snapshot) {
		/* v1 metadata without refs: main is the current snapshot */
		Value *row = constrel_row(r);
		put_s(row, 0, "main");
		put_s(row, 1, "branch");
		put_i(row, 2, md->current_snapshot_id);
	}
}

static void
fill_properties(Rows *r, const TableMetadata *md)
{
	int i;

	constrel_init(r, r->a, "key:t value:t");
	for (i = 0; i < md->nproperties; i++) {
		Value *row = constrel_row(r);
		put_s(row, 0, md->properties[i].key);
		put_s(row, 1, md->properties[i].value);
	}
}

static void
fill_metadata_log(Rows *r, const Table *t)
{
	const TableMetadata *md = t->md;
	int i;

	constrel_init(r, r->a, "timestamp:z file:t latest_snapshot_id:l latest_schema_id:i "
		  "latest_sequence_number:l");
	for (i = 0; i < md->nmetadata_log; i++) {
		Value *row = constrel_row(r);
		put_i(row, 0, md->metadata_log[i].timestamp_ms * 1000);
		put_s(row, 1, md->metadata_log[i].metadata_file);
	}
	/* the current metadata file, as Trino lists it last */
	if (t->metadata_location) {
		Value *row = constrel_row(r);
		put_i(row, 0, md->last_updated_ms * 1000);
		put_s(row, 1, t->metadata_location);
		if (md->has_current_snapshot)
			put_i(row, 2, md->current_snapshot_id);
		put_i(row, 3, md->current_schema_id);
		put_i(row, 4, md->last_sequence_number);
	}
}

/* ---- time travel --------------------------------------------------------- */

/* The snapshot that arg names: a snapshot id or a ref (by_version), else a
 * time (the snapshot current then, by the snapshot log). */
static int
time_travel(const Table *t, const char *tname, bool by_version, const char *arg,
	    const Snapshot **out, floe_error *err)
{
	const Snapshot *sn;

	if (by_version) {
		char *end;
		long long id;
		int k;
		errno = 0;
		id = strtoll(arg, &end, 10);
		if (errno == ERANGE)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "snapshot %s of table \"%s\" does not exist", arg, tname);
		if (!*arg || *end) {
			/* a branch or tag name */
			for (k = 0; k < t->md->nrefs && strcmp(t->md->refs[k].name, arg); k++)
				;
			if (k == t->md->nrefs)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "table \"%s\" has no snapshot, branch or tag \"%s\"",
						   tname, arg);
			id = t->md->refs[k].snapshot_id;
		}
		sn = metadata_snapshot_by_id(t->md, (int64_t)id);
		if (!sn)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "snapshot %s of table \"%s\" does not exist", arg, tname);
	} else {
		int64_t ts;
		if (!strcasecmp(arg, "now") || !strcasecmp(arg, "current_timestamp"))
			ts = datetime_now();
		else
			TRY(datetime_parse_timestamptz(arg, strlen(arg), &ts, err));
		/* a snapshot is current from its millisecond on */
		sn = metadata_snapshot_as_of(t->md, ts >= 0 ? ts / 1000 : -((-ts + 999) / 1000));
		if (!sn)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "table \"%s\" has no snapshot at or before %s", tname, arg);
	}
	*out = sn;
	return FLOE_OK;
}

/* ---- the hook ------------------------------------------------------------ */

static const char *const kinds[] = {
	"snapshots", "history", "files", "data_files", "delete_files", "manifests", "refs",
	"properties", "metadata_log_entries", "partitions", "statistics", NULL
};

/* rv's name as <table>$<kind> (*k the kind's index) or a time-travel name
 * (*tt 1 by version, 2 by timestamp; *arg after the marker); *base the
 * table part.  False when it is neither. */
static bool
split_name(PgQuery__RangeVar *rv, Arena *a, const char **base, int *k, int *tt, const char **arg)
{
	const char *dollar = rv->relname ? strrchr(rv->relname, '$') : NULL;
	const char *kind, *x, *v = NULL, *ts = NULL;

	*k = -1;
	*tt = 0;
	*arg = NULL;
	if (!dollar || dollar == rv->relname)
		return false;
	/* the last "$v$" / "$ts$" (a table name may hold '$'), else the
	 * last '$' before a kind */
	for (x = rv->relname + 1; (x = strstr(x, "$v$")); x++)
		v = x;
	for (x = rv->relname + 1; (x = strstr(x, "$ts$")); x++)
		ts = x;
	if (v && (!ts || v > ts))
		*tt = 1, *arg = v + 3, dollar = v;
	else if (ts)
		*tt = 2, *arg = ts + 4, dollar = ts;
	kind = dollar + 1;
	if (!*tt) {
		for (*k = 0; kinds[*k] && strcmp(kinds[*k], kind); (*k)++)
			;
		if (!kinds[*k])
			return false;
	}
	*base = arena_strndup(a, rv->relname, (size_t)(dollar - rv->relname));
	return true;
}

/* Load the table that base names (rv's schema), noting SELECT on it.
 * *found false when it is not a table and rv itself may be one. */
static int
load_base(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, const char *basename, bool tt,
	  Arena *a, bool *found, Table **t, const char **nsp, const char **namep, floe_error *err)
{
	PgQuery__RangeVar base = *rv;
	const char *ns, *name;
	floe_error e2;

	*found = false;
	base.relname = (char *)basename;
	session_resolve_name(s, &base, &ns, &name);
	memset(&e2, 0, sizeof e2);
	if (txn_table_load(s, ns, name, a, t, &e2) != FLOE_OK) {
		if (floe_error_is(&e2, ERRCODE_UNDEFINED_TABLE) && !tt)
			return FLOE_OK;        /* not ours: maybe a table named so */
		if (floe_error_is(&e2, ERRCODE_UNDEFINED_TABLE)) {
			/* a user table named "a$v$b"? */
			const char *ns2, *name2;
			Table *t2;
			session_resolve_name(s, rv, &ns2, &name2);
			memset(&e2, 0, sizeof e2);
			if (txn_table_load(s, ns2, name2, a, &t2, &e2) == FLOE_OK)
				return FLOE_OK;
		}
		if (floe_error_is(&e2, ERRCODE_UNDEFINED_TABLE))
			return floe_errorf(err, ERRCODE_UNDEFINED_TABLE,
					   "relation \"%s%s%s\" does not exist",
					   rv->schemaname ? rv->schemaname : "",
					   rv->schemaname && rv->schemaname[0] ? "." : "", base.relname);
		*err = e2;
		return FLOE_ERR;
	}
	*found = true;
	*nsp = ns;
	*namep = name;
	/* t$snapshots, t$v$id: t's SELECT privilege */
	return acl_note_rel(s, ctx, ns, name, (*t)->md ? (*t)->md->table_uuid : NULL,
			    ROLE_PRIV_SELECT, err);
}

/* Spark's t.branch_b / t.tag_v1 ([catalog.]t.branch_b): the ref's snapshot,
 * unless a table schema t.branch_b exists (it wins).  A branch reads in
 * the table's schema, a tag in its snapshot's (as Iceberg Java). */
static int
ref_read(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, bool *found, Table **t,
	 int64_t *snapshot_id, const IcebergSchema **schema, const char **tname, floe_error *err)
{
	bool branch = !strncmp(rv->relname, "branch_", 7);
	const char *ref = rv->relname + (branch ? 7 : 4), *ns, *name;
	PgQuery__RangeVar tv = *rv;
	const Snapshot *sn;
	floe_error e2;
	Table *t2;
	int k;

	memset(&e2, 0, sizeof e2);
	if (txn_table_load(s, rv->schemaname, rv->relname, a, &t2, &e2) == FLOE_OK ||
	    !floe_error_is(&e2, ERRCODE_UNDEFINED_TABLE))
		return FLOE_OK;              /* a table of that name (or not ours) */
	tv.schemaname = rv->catalogname;
	tv.catalogname = NULL;
	tv.relname = rv->schemaname;
	memset(&e2, 0, sizeof e2);
	session_resolve_name(s, &tv, &ns, &name);
	if (txn_table_load(s, ns, name, a, t, &e2) != FLOE_OK)
		return FLOE_OK;              /* no such table: rv's own error follows */
	*found = true;
	TRY(acl_note_rel(s, ctx, ns, name, (*t)->md ? (*t)->md->table_uuid : NULL, ROLE_PRIV_SELECT,
			 err));
	for (k = 0; k < (*t)->md->nrefs && strcmp((*t)->md->refs[k].name, ref); k++)
		;
	if (k == (*t)->md->nrefs || strcmp((*t)->md->refs[k].type, branch ? "branch" : "tag"))
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "table \"%s\" has no %s \"%s\"", name,
				   branch ? "branch" : "tag", ref);
	sn = metadata_snapshot_by_id((*t)->md, (*t)->md->refs[k].snapshot_id);
	if (!sn)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "snapshot %" PRId64 " of table \"%s\" does not exist",
				   (*t)->md->refs[k].snapshot_id, name);
	*snapshot_id = sn->snapshot_id;
	*schema = !branch && sn->has_schema_id ? metadata_schema_by_id((*t)->md, sn->schema_id) : NULL;
	if (!*schema)
		*schema = metadata_current_schema((*t)->md);
	*tname = rv->relname;
	return FLOE_OK;
}

int
metatable_snapshot(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, bool *found,
		   Table **t, int64_t *snapshot_id, const IcebergSchema **schema,
		   const char **tname, floe_error *err)
{
	const char *base, *arg, *ns, *name;
	const Snapshot *sn;
	int k, tt;

	*found = false;
	if (rv->schemaname && rv->schemaname[0] && rv->relname &&
	    (!strncmp(rv->relname, "branch_", 7) || !strncmp(rv->relname, "tag_", 4)))
		return ref_read(s, ctx, rv, a, found, t, snapshot_id, schema, tname, err);
	if (!split_name(rv, a, &base, &k, &tt, &arg) || !tt)
		return FLOE_OK;
	TRY(load_base(s, ctx, rv, base, true, a, found, t, &ns, &name, err));
	if (!*found)
		return FLOE_OK;
	TRY(time_travel(*t, base, tt == 1, arg, &sn, err));
	*snapshot_id = sn->snapshot_id;
	*schema = sn->has_schema_id ? metadata_schema_by_id((*t)->md, sn->schema_id) : NULL;
	if (!*schema)
		*schema = metadata_current_schema((*t)->md);
	*tname = base;
	return FLOE_OK;
}

int
metatable_snapshot_at(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, int mode,
		      const char *text, int64_t us, Table **t, int64_t *snapshot_id,
		      const IcebergSchema **schema, const char **tname, floe_error *err)
{
	const char *ns, *name, *what;
	const Snapshot *sn = NULL;
	bool found;
	int64_t ms;

	TRY(load_base(s, ctx, rv, rv->relname, true, a, &found, t, &ns, &name, err));
	if (!found)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist",
				   rv->relname);
	if (mode == 1 || mode == 5) {
		TRY(time_travel(*t, rv->relname, true, text, &sn, err));
		if (mode == 5) {
			/* BEFORE(SNAPSHOT => x): the table as it was before x */
			const Snapshot *p = sn->has_parent ?
				metadata_snapshot_by_id((*t)->md, sn->parent_snapshot_id) : NULL;
			if (!p)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "snapshot %" PRId64 " of table \"%s\" has no parent snapshot",
						   sn->snapshot_id, rv->relname);
			sn = p;
		}
	} else {
		if (mode == 3)
			us = datetime_now() + us;              /* AT(OFFSET => seconds) */
		/* a snapshot is current from its millisecond on; BEFORE: strictly
		 * before the time */
		ms = us >= 0 ? us / 1000 : -((-us + 999) / 1000);
		if (mode == 4)
			ms = (us % 1000 ? ms + 1 : ms) - 1;
		sn = metadata_snapshot_as_of((*t)->md, ms);
		if (!sn) {
			Value v, out;
			v = value_null(type_make(TYPE_TIMESTAMPTZ));
			v.is_null = false;
			v.u.i = us;
			what = cast_value(&out, &v, type_make(TYPE_TEXT), a, err) == FLOE_OK ?
				arena_strndup(a, strview_data(&out.u.s), out.u.s.len) : "that time";
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "table \"%s\" has no snapshot %s %s", rv->relname,
					   mode == 4 ? "before" : "at or before", what);
		}
	}
	*snapshot_id = sn->snapshot_id;
	*schema = sn->has_schema_id ? metadata_schema_by_id((*t)->md, sn->schema_id) : NULL;
	if (!*schema)
		*schema = metadata_current_schema((*t)->md);
	*tname = rv->relname;
	return FLOE_OK;
}

int
metatable_relation(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, bool *found,
		   int *ncols, char ***names, SqlType **types, Operator **op, floe_error *err)
{
	const char *base, *arg, *ns, *name;
	Table *t;
	Rows r;
	int k, tt;

	*found = false;
	if (!split_name(rv, a, &base, &k, &tt, &arg) || tt)
		return FLOE_OK;           /* time travel: metatable_snapshot */
	TRY(load_base(s, ctx, rv, base, false, a, found, &t, &ns, &name, err));
	if (!*found)
		return FLOE_OK;
	memset(&r, 0, sizeof r);
	r.a = a;
	switch (k) {
	case 0: fill_snapshots(&r, t->md); break;
	case 1: fill_history(&r, t->md); break;
	case 2: case 3: case 4: TRY(fill_files(&r, s, t, k - 2, err)); break;
	case 5: TRY(fill_manifests(&r, s, t->md, err)); break;
	case 6: fill_refs(&r, t->md); break;
	case 7: fill_properties(&r, t->md); break;
	case 8: fill_metadata_log(&r, t); break;
	case 9: TRY(fill_partitions(&r, s, t, err)); break;
	default: TRY(fill_statistics(&r, s, t->md, err)); break;
	}
	*ncols = r.ncols;
	*names = r.names;
	*types = r.types;
	*op = constrel_op(ctx, &r, "Metadata");
	return FLOE_OK;
}

/* ---- procedures ------------------------------------------------------------ */

int
metatable_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink)
{
	PgQuery__FuncCall *f = cs->funccall;
	const char *name = f->funcname[f->n_funcname - 1]->string->sval;
	static const char *const argnames[2] = { "table", "snapshot_id" };
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	bool by_time = !strcmp(name, "rollback_to_timestamp");
	bool any = !strcmp(name, "set_current_snapshot");
	Value args[2];
	bool have[2] = { false, false };
	BindCtx b;
	const char *ns, *tbl, *dot;
	const Snapshot *target = NULL, *sn;
	TableMetadata *md;
	Table *t, *out;
	int64_t now;
	size_t i;
	int k;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	b.sql = sql;
	b.where = "CALL";
	b.exec = ctx;             /* uncorrelated subqueries run once, here */
	for (i = 0; i < f->n_args; i++) {
		Node *n = f->args[i];
		int slot = (int)i;
		Expr *x;
		SqlType to;
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			slot = -1;
			for (k = 0; k < 2; k++)
				if (!strcmp(n->named_arg_expr->name, argnames[k]) ||
				    (k == 1 && by_time && !strcmp(n->named_arg_expr->name, "timestamp")))
					slot = k;
			if (slot < 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
						   "%s has no argument named \"%s\"", name,
						   n->named_arg_expr->name);
			n = n->named_arg_expr->arg;
		}
		if (slot >= 2)
			return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "%s takes 2 arguments", name);
		to = type_make(slot == 0 ? TYPE_TEXT : by_time ? TYPE_TIMESTAMPTZ : TYPE_INT64);
		if (!(x = bind_expr(&b, n)) || !(x = bind_coerce(&b, x, to, 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, ctx->env, a, &args[slot], err));
		if (args[slot].is_null)
			return floe_errorf(err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					   "%s arguments must not be NULL", name);
		have[slot] = true;
	}
	if (!have[0] || !have[1])
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "%s(table, %s) needs 2 arguments",
				   name, by_time ? "timestamp" : "snapshot_id");
	tbl = arena_strndup(a, strview_data(&args[0].u.s), args[0].u.s.len);
	ns = NULL;
	if ((dot = strchr(tbl, '.'))) {
		ns = arena_strndup(a, tbl, (size_t)(dot - tbl));
		tbl = dot + 1;
	}
	if (!ns)
		ns = search_path_lookup(s, tbl);
	TRY(txn_table_load(s, ns, tbl, a, &t, err));
	if (by_time) {
		/* the newest ancestor of the current snapshot at or before ts */
		int64_t ms = args[1].u.i >= 0 ? args[1].u.i / 1000 : -((-args[1].u.i + 999) / 1000);
		int guard = 0;
		for (sn = metadata_current_snapshot(t->md); sn && guard++ <= t->md->nsnapshots;
		     sn = sn->has_parent ? metadata_snapshot_by_id(t->md, sn->parent_snapshot_id) : NULL)
			if (sn->timestamp_ms <= ms) {
				target = sn;
				break;
			}
		if (!target)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "table \"%s\" has no snapshot at or before that time", tbl);
	} else {
		target = metadata_snapshot_by_id(t->md, args[1].u.i);
		if (!target)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "snapshot %" PRId64 " of table \"%s\" does not exist",
					   args[1].u.i, tbl);
		if (!any && !current_ancestor(t->md, target->snapshot_id))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "snapshot %" PRId64 " is not an ancestor of the current snapshot of table \"%s\"",
					   target->snapshot_id, tbl);
	}
	if (!t->md->has_current_snapshot || t->md->current_snapshot_id != target->snapshot_id) {
		md = metadata_copy(t->md, a);
		md->has_current_snapshot = true;
		md->current_snapshot_id = target->snapshot_id;
		/* refs: main moves (added if absent) */
		md->refs = ARENA_ARRAY(a, SnapshotRef, t->md->nrefs + 1);
		memcpy(md->refs, t->md->refs, sizeof(SnapshotRef) * (size_t)t->md->nrefs);
		md->nrefs = t->md->nrefs;
		for (k = 0; k < md->nrefs && strcmp(md->refs[k].name, "main"); k++)
			;
		if (k == md->nrefs) {
			memset(&md->refs[k], 0, sizeof md->refs[k]);
			md->refs[k].name = "main";
			md->refs[k].type = "branch";
			md->nrefs++;
		}
		md->refs[k].snapshot_id = target->snapshot_id;
		/* snapshot log: the target became current now */
		now = datetime_now() / 1000;
		if (now < t->md->last_updated_ms)
			now = t->md->last_updated_ms;
		for (k = 0; k < t->md->nsnapshot_log; k++)
			if (now < t->md->snapshot_log[k].timestamp_ms)
				now = t->md->snapshot_log[k].timestamp_ms;
		md->snapshot_log = ARENA_ARRAY(a, SnapshotLogEntry, t->md->nsnapshot_log + 1);
		memcpy(md->snapshot_log, t->md->snapshot_log,
		       sizeof(SnapshotLogEntry) * (size_t)t->md->nsnapshot_log);
		md->snapshot_log[t->md->nsnapshot_log].timestamp_ms = now;
		md->snapshot_log[t->md->nsnapshot_log].snapshot_id = target->snapshot_id;
		md->nsnapshot_log = t->md->nsnapshot_log + 1;
		TRY(txn_commit_metadata(s, t, md, a, &out, err));
	}
	if (sink && sink->complete)
		sink->complete(sink->ctx, "CALL");
	return FLOE_OK;
}
