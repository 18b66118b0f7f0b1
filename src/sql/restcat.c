/*
 * restcat.c — the Iceberg REST catalog's operations (restcat.h) over the
 * engine's catalog, FileIO and privileges.
 *
 * Commit protocol (restcat_commit), for n tables at once:
 *   1. load every table's head from the catalog (not cached: table_load
 *      reads the catalog's location each time);
 *   2. check each requirement against that head (55000 on a failure:
 *      the REST server's CommitFailedException);
 *   3. apply the updates to metadata_copy(head), add the metadata-log
 *      entry, write <location>/metadata/NNNNN-<uuid>.metadata.json;
 *   4. swap every table from its head to its new file in one catalog call;
 *   5. on 40001 (a head moved: a SQL statement or another client
 *      committed) remove the written files and start again at 1, up to
 *      RESTCAT_TRIES times; a requirement that the new head breaks then
 *      fails in 2, as the spec asks ("the commit is rejected and the
 *      client retries with fresh metadata").
 * Requirements are therefore checked on exactly the head that is swapped
 * out (the swap asserts it), so a REST commit and a SQL commit never lose
 * each other's snapshots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/restcat.h"
#include "sql/txn.h"
#include "table/table.h"
#include "types/text.h"

static Engine *
eng(Session *s)
{
	return s->engine;
}

const char *
restcat_warehouse(Session *s)
{
	return eng(s)->io->root;
}

/* ---- privileges, through the SQL functions of the session ------------- */

typedef struct BoolSink {
	bool val;
	Arena *a;
} BoolSink;

static int
bool_batch(void *ctx, const Batch *b)
{
	BoolSink *bs = ctx;
	size_t len;
	const char *t;
	if (b->count && b->ncols) {
		t = vector_value_text(&b->cols[0], b->sel ? b->sel[0] : 0, bs->a, &len);
		bs->val = t && t[0] == 't';
	}
	return 0;
}

static int
bool_cols(void *ctx, int n, const char *const *names, const SqlType *types)
{
	(void)ctx, (void)n, (void)names, (void)types;
	return 0;
}

static int
bool_complete(void *ctx, const char *tag)
{
	(void)ctx, (void)tag;
	return 0;
}

static char *
quote_ident(Arena *a, const char *s)
{
	size_t n = strlen(s), i, o = 0;
	char *q = arena_alloc(a, 2 * n + 3);
	q[o++] = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			q[o++] = '"';
		q[o++] = s[i];
	}
	q[o++] = '"';
	q[o] = 0;
	return q;
}

/* Does the session's role hold every privilege of privs (comma list) on
 * the table (schema when name is NULL)?  42501 if not. */
static int
need(Session *s, const char *ns, const char *name, const char *const *privs, floe_error *err)
{
	Arena *a;
	int i, rc = FLOE_OK;
	if (acl_is_superuser(s))
		return FLOE_OK;
	a = arena_new(0);
	for (i = 0; privs[i] && rc == FLOE_OK; i++) {
		BoolSink bs = { false, a };
		ResultSink sink;
		const char *vals[2];
		memset(&sink, 0, sizeof sink);
		sink.ctx = &bs;
		sink.columns = bool_cols;
		sink.batch = bool_batch;
		sink.complete = bool_complete;
		vals[0] = name ? arena_sprintf(a, "%s.%s", quote_ident(a, ns), quote_ident(a, name))
			       : ns;
		vals[1] = privs[i];
		rc = session_exec_params(s, name ? "SELECT has_table_privilege($1, $2)"
						  : "SELECT has_schema_privilege($1, $2)",
					 2, vals, NULL, &sink, err);
		if (rc == FLOE_OK && !bs.val)
			rc = name ? floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
						"permission denied for table %s", name)
				  : floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
						"permission denied for schema %s", ns);
	}
	arena_free(a);
	return rc;
}

static int
null_batch(void *ctx, const Batch *b)
{
	(void)ctx, (void)b;
	return 0;
}

/* Run one DDL statement as the session (its privileges and errors). */
static int
run_sql(Session *s, const char *sql, floe_error *err)
{
	ResultSink sink;
	memset(&sink, 0, sizeof sink);
	sink.columns = bool_cols;
	sink.batch = null_batch;
	sink.complete = bool_complete;
	return session_exec(s, sql, &sink, err);
}

static int
check_ns_name(const char *ns, floe_error *err)
{
	if (!*ns)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "empty namespace");
	if (strchr(ns, '\x1f'))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "nested namespaces are not supported (floe's namespaces are schemas)");
	return FLOE_OK;
}

/* ---- namespaces ---------------------------------------------------------- */

int
restcat_list_namespaces(Session *s, Arena *a, char ***names, int *n, floe_error *err)
{
	return catalog_list_namespaces(eng(s)->catalog, a, names, n, err);
}

int
restcat_namespace_exists(Session *s, const char *ns, bool *exists, floe_error *err)
{
	return catalog_namespace_exists(eng(s)->catalog, ns, exists, err);
}

int
restcat_create_namespace(Session *s, const char *ns, floe_error *err)
{
	Arena *a;
	int rc;
	if (check_ns_name(ns, err) != FLOE_OK)
		return FLOE_ERR;
	a = arena_new(0);
	rc = run_sql(s, arena_sprintf(a, "CREATE SCHEMA %s", quote_ident(a, ns)), err);
	arena_free(a);
	return rc;
}

int
restcat_drop_namespace(Session *s, const char *ns, floe_error *err)
{
	Arena *a;
	bool exists = false;
	int rc;
	if (check_ns_name(ns, err) != FLOE_OK)
		return FLOE_ERR;
	if (catalog_namespace_exists(eng(s)->catalog, ns, &exists, err) != FLOE_OK)
		return FLOE_ERR;
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	a = arena_new(0);
	rc = run_sql(s, arena_sprintf(a, "DROP SCHEMA %s RESTRICT", quote_ident(a, ns)), err);
	arena_free(a);
	return rc;
}

int
restcat_list_tables(Session *s, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	bool exists = false;
	if (catalog_namespace_exists(eng(s)->catalog, ns, &exists, err) != FLOE_OK)
		return FLOE_ERR;
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	return catalog_list_tables(eng(s)->catalog, ns, a, names, n, err);
}

/* ---- tables ---------------------------------------------------------------- */

static const char *const P_SELECT[] = { "SELECT", NULL };
static const char *const P_WRITE[] = { "INSERT", "UPDATE", "DELETE", NULL };
static const char *const P_CREATE[] = { "CREATE", NULL };

static int
read_text(Session *s, const char *path, Arena *a, char **out, floe_error *err)
{
	const uint8_t *data;
	size_t len;
	if (fileio_read(eng(s)->io, path, a, &data, &len, err) != FLOE_OK)
		return FLOE_ERR;
	*out = arena_strndup(a, (const char *)data, len);
	return FLOE_OK;
}

int
restcat_load(Session *s, const char *ns, const char *name, Arena *a, char **location,
	     char **metadata, floe_error *err)
{
	Table *t;
	if (table_load(eng(s)->catalog, eng(s)->io, ns, name, a, &t, err) != FLOE_OK)
		return FLOE_ERR;
	if (need(s, ns, name, P_SELECT, err) != FLOE_OK)
		return FLOE_ERR;
	*location = t->metadata_location;
	return read_text(s, t->metadata_location, a, metadata, err);
}

static char *
new_uuid(Arena *a)
{
	unsigned char b[16];
	int i;
	if (getrandom(b, sizeof b, 0) != sizeof b)
		for (i = 0; i < 16; i++)
			b[i] = (unsigned char)rand();
	b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
	return arena_sprintf(a, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			     b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			     b[12], b[13], b[14], b[15]);
}

int
restcat_create(Session *s, const char *ns, const char *name, const char *json, Arena *a,
	       char **location, floe_error *err)
{
	TableMetadata *md;
	char *path;
	floe_error ignore;
	if (check_ns_name(ns, err) != FLOE_OK || need(s, ns, NULL, P_CREATE, err) != FLOE_OK)
		return FLOE_ERR;
	if (metadata_parse(json, strlen(json), "the CreateTableRequest", a, &md, err) != FLOE_OK)
		return FLOE_ERR;
	if (acl_check_location(s, md->location, err) != FLOE_OK)
		return FLOE_ERR;
	path = arena_sprintf(a, "%s/metadata/00000-%s.metadata.json", md->location, new_uuid(a));
	if (fileio_write(eng(s)->io, path, json, strlen(json), err) != FLOE_OK)
		return FLOE_ERR;
	if (catalog_create_table(eng(s)->catalog, ns, name, path, err) != FLOE_OK) {
		(void)fileio_remove(eng(s)->io, path, &ignore);
		return FLOE_ERR;
	}
	*location = path;
	return FLOE_OK;
}

int
restcat_register(Session *s, const char *ns, const char *name, const char *loc, floe_error *err)
{
	if (check_ns_name(ns, err) != FLOE_OK || need(s, ns, NULL, P_CREATE, err) != FLOE_OK ||
	    acl_check_location(s, loc, err) != FLOE_OK)
		return FLOE_ERR;
	return table_register(eng(s)->catalog, eng(s)->io, ns, name, loc, err);
}

int
restcat_drop(Session *s, const char *ns, const char *name, bool purge, floe_error *err)
{
	Arena *a = arena_new(0);
	char *loc;
	int rc = catalog_load_table(eng(s)->catalog, ns, name, a, &loc, err);
	arena_free(a);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	if (!acl_is_superuser(s))
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must be owner of table %s", name);
	return table_drop(eng(s)->catalog, eng(s)->io, ns, name, purge, err);
}

int
restcat_rename(Session *s, const char *ns, const char *name, const char *new_ns, const char *new_name,
	       floe_error *err)
{
	Arena *a;
	int rc;
	if (check_ns_name(ns, err) != FLOE_OK || check_ns_name(new_ns, err) != FLOE_OK)
		return FLOE_ERR;
	if (strcmp(ns, new_ns) != 0 && strcmp(name, new_name) != 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "renaming a table and moving it to another namespace at once is not supported");
	a = arena_new(0);
	if (strcmp(ns, new_ns) != 0)
		rc = run_sql(s, arena_sprintf(a, "ALTER TABLE %s.%s SET SCHEMA %s", quote_ident(a, ns),
					      quote_ident(a, name), quote_ident(a, new_ns)), err);
	else if (strcmp(name, new_name) != 0)
		rc = run_sql(s, arena_sprintf(a, "ALTER TABLE %s.%s RENAME TO %s", quote_ident(a, ns),
					      quote_ident(a, name), quote_ident(a, new_name)), err);
	else
		rc = floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	arena_free(a);
	return rc;
}

/* ---- requirements ------------------------------------------------------------ */

static int
failed(floe_error *err, const char *fmt, const char *what, long long want, long long have)
{
	floe_errorf(err, "55000" /* object_not_in_prerequisite_state */, fmt, what, want, have);
	return FLOE_ERR;
}

static bool
get_int(json_t *o, const char *key, int64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v))
		return false;
	*out = json_integer_value(v);
	return true;
}

static const char *
get_str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static const SnapshotRef *
find_ref(const TableMetadata *md, const char *name)
{
	int i;
	for (i = 0; i < md->nrefs; i++)
		if (!strcmp(md->refs[i].name, name))
			return &md->refs[i];
	return NULL;
}

static int
bad(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "malformed %s", what);
}

static int
check_requirement(const Table *head, json_t *r, floe_error *err)
{
	const TableMetadata *md = head->md;
	const char *type = get_str(r, "type");
	int64_t v;
	if (!json_is_object(r) || !type)
		return bad(err, "requirement (an object with \"type\")");
	if (!strcmp(type, "assert-create"))
		return floe_errorf(err, "55000", "requirement failed: table \"%s\" already exists", head->name);
	if (!strcmp(type, "assert-table-uuid")) {
		const char *u = get_str(r, "uuid");
		if (!u)
			return bad(err, "assert-table-uuid");
		if (!md->table_uuid || strcasecmp(u, md->table_uuid) != 0)
			return floe_errorf(err, "55000", "requirement failed: table uuid %s, the table's is %s",
					   u, md->table_uuid ? md->table_uuid : "none");
		return FLOE_OK;
	}
	if (!strcmp(type, "assert-ref-snapshot-id")) {
		const char *ref = get_str(r, "ref");
		json_t *sid = json_object_get(r, "snapshot-id");
		const SnapshotRef *x;
		int64_t have = -1;
		bool exists;
		if (!ref || (sid && !json_is_integer(sid) && !json_is_null(sid)))
			return bad(err, "assert-ref-snapshot-id");
		x = find_ref(md, ref);
		exists = x != NULL;
		if (x)
			have = x->snapshot_id;
		else if (!strcmp(ref, "main") && md->has_current_snapshot && md->current_snapshot_id >= 0)
			exists = true, have = md->current_snapshot_id;
		if (!sid || json_is_null(sid)) {
			if (exists)
				return floe_errorf(err, "55000", "requirement failed: branch or tag %s was created concurrently (snapshot %lld)",
						   ref, (long long)have);
			return FLOE_OK;
		}
		if (!exists)
			return floe_errorf(err, "55000", "requirement failed: branch or tag %s is missing, expected snapshot %lld",
					   ref, (long long)json_integer_value(sid));
		if (have != json_integer_value(sid))
			return failed(err, "requirement failed: %s has changed: expected snapshot %lld, is %lld",
				      ref, (long long)json_integer_value(sid), (long long)have);
		return FLOE_OK;
	}
#define ASSERT_INT(t, key, field, what)                                                          \
	if (!strcmp(type, t)) {                                                                  \
		if (!get_int(r, key, &v))                                                        \
			return bad(err, t);                                                      \
		if (v != (int64_t)(field))                                                       \
			return failed(err, "requirement failed: %s: expected %lld, is %lld", what, \
				      (long long)v, (long long)(field));                         \
		return FLOE_OK;                                                                  \
	}
	ASSERT_INT("assert-last-assigned-field-id", "last-assigned-field-id", md->last_column_id,
		   "last assigned field id")
	ASSERT_INT("assert-current-schema-id", "current-schema-id", md->current_schema_id,
		   "current schema id")
	ASSERT_INT("assert-last-assigned-partition-id", "last-assigned-partition-id",
		   md->last_partition_id, "last assigned partition id")
	ASSERT_INT("assert-default-spec-id", "default-spec-id", md->default_spec_id, "default spec id")
	ASSERT_INT("assert-default-sort-order-id", "default-sort-order-id", md->default_sort_order_id,
		   "default sort order id")
#undef ASSERT_INT
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "unknown requirement type \"%.100s\"", type);
}

/* ---- updates --------------------------------------------------------------------- */

static int
add_snapshot(TableMetadata *md, json_t *js, Arena *a, floe_error *err)
{
	Snapshot *arr, *sn;
	json_t *summary, *v;
	const char *key, *ml;
	int64_t x;

	if (!json_is_object(js) || !get_int(js, "snapshot-id", &x) || !(ml = get_str(js, "manifest-list")))
		return bad(err, "add-snapshot (snapshot-id and manifest-list are required)");
	if (metadata_snapshot_by_id(md, x))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "snapshot %lld already exists",
				   (long long)x);
	arr = ARENA_ARRAY(a, Snapshot, md->nsnapshots + 1);
	if (md->nsnapshots)
		memcpy(arr, md->snapshots, sizeof *arr * (size_t)md->nsnapshots);
	sn = &arr[md->nsnapshots];
	sn->snapshot_id = x;
	if (get_int(js, "parent-snapshot-id", &x)) {
		sn->has_parent = true;
		sn->parent_snapshot_id = x;
	}
	if (!get_int(js, "timestamp-ms", &sn->timestamp_ms))
		return bad(err, "add-snapshot (timestamp-ms is required)");
	if (md->format_version >= 2) {
		if (!get_int(js, "sequence-number", &sn->sequence_number))
			return bad(err, "add-snapshot (sequence-number is required in format version 2 and 3)");
		if (sn->sequence_number <= md->last_sequence_number)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "cannot add snapshot with sequence number %lld older than the last sequence number %lld",
					   (long long)sn->sequence_number, (long long)md->last_sequence_number);
		md->last_sequence_number = sn->sequence_number;
	}
	sn->manifest_list = arena_strdup(a, ml);
	if (get_int(js, "schema-id", &x)) {
		sn->has_schema_id = true;
		sn->schema_id = (int32_t)x;
		if (!metadata_schema_by_id(md, sn->schema_id))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "unknown schema id %lld",
					   (long long)x);
	}
	summary = json_object_get(js, "summary");
	if (!json_is_object(summary) || !get_str(summary, "operation"))
		return bad(err, "add-snapshot (summary.operation is required)");
	sn->operation = arena_strdup(a, get_str(summary, "operation"));
	sn->summary = ARENA_ARRAY(a, MdProp, json_object_size(summary) + 1);
	json_object_foreach(summary, key, v) {
		if (!strcmp(key, "operation"))
			continue;
		if (!json_is_string(v))
			return bad(err, "add-snapshot summary (string values)");
		sn->summary[sn->nsummary].key = arena_strdup(a, key);
		sn->summary[sn->nsummary].value = arena_strdup(a, json_string_value(v));
		sn->nsummary++;
	}
	if (md->format_version >= 3) {
		if (!get_int(js, "first-row-id", &sn->first_row_id) ||
		    !get_int(js, "added-rows", &sn->added_rows))
			return bad(err, "add-snapshot (first-row-id and added-rows are required in format version 3)");
		if (sn->first_row_id < md->next_row_id)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "first-row-id %lld is below the table's next-row-id %lld",
					   (long long)sn->first_row_id, (long long)md->next_row_id);
		sn->has_first_row_id = sn->has_added_rows = true;
		md->has_next_row_id = true;
		md->next_row_id = sn->first_row_id + sn->added_rows;
	}
	md->snapshots = arr;
	md->nsnapshots++;
	return FLOE_OK;
}

static void
decref_cb(void *j)
{
	json_decref(j);
}

static int
set_ref(TableMetadata *md, json_t *u, Arena *a, floe_error *err)
{
	const char *name = get_str(u, "ref-name"), *type = get_str(u, "type"), *key;
	const Snapshot *sn;
	SnapshotRef *refs, *r = NULL;
	json_t *extra = NULL, *v;
	int64_t sid;
	int i;

	if (!name || !type || !get_int(u, "snapshot-id", &sid) ||
	    (strcmp(type, "branch") != 0 && strcmp(type, "tag") != 0))
		return bad(err, "set-snapshot-ref (ref-name, type branch|tag, snapshot-id)");
	if (!(sn = metadata_snapshot_by_id(md, sid)))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "cannot set %s to unknown snapshot %lld", name, (long long)sid);
	if (!strcmp(name, "main") && strcmp(type, "branch") != 0)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "main must be a branch");
	json_object_foreach(u, key, v) {
		if (!strcmp(key, "action") || !strcmp(key, "ref-name") || !strcmp(key, "type") ||
		    !strcmp(key, "snapshot-id"))
			continue;
		if (strcmp(key, "max-ref-age-ms") && strcmp(key, "max-snapshot-age-ms") &&
		    strcmp(key, "min-snapshots-to-keep"))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "unknown member \"%.100s\" of set-snapshot-ref", key);
		if (!json_is_integer(v))
			return bad(err, "set-snapshot-ref retention (integers)");
		if (!extra)
			extra = json_object();
		json_object_set(extra, key, v);
	}
	if (extra)
		arena_on_reset(a, decref_cb, extra);
	for (i = 0; i < md->nrefs; i++)
		if (!strcmp(md->refs[i].name, name))
			r = &md->refs[i];
	if (!r) {
		refs = ARENA_ARRAY(a, SnapshotRef, md->nrefs + 1);
		if (md->nrefs)
			memcpy(refs, md->refs, sizeof *refs * (size_t)md->nrefs);
		md->refs = refs;
		r = &refs[md->nrefs++];
		r->name = arena_strdup(a, name);
	}
	r->snapshot_id = sid;
	r->type = arena_strdup(a, type);
	r->extra = extra;
	if (!strcmp(name, "main")) {
		SnapshotLogEntry *log = ARENA_ARRAY(a, SnapshotLogEntry, md->nsnapshot_log + 1);
		if (md->nsnapshot_log)
			memcpy(log, md->snapshot_log, sizeof *log * (size_t)md->nsnapshot_log);
		log[md->nsnapshot_log].snapshot_id = sid;
		log[md->nsnapshot_log].timestamp_ms = sn->timestamp_ms;
		md->snapshot_log = log;
		md->nsnapshot_log++;
		md->has_current_snapshot = true;
		md->current_snapshot_id = sid;
	}
	return FLOE_OK;
}

static int
apply_update(Session *s, TableMetadata *md, json_t *u, Arena *a, floe_error *err)
{
	const char *act = get_str(u, "action");
	if (!json_is_object(u) || !act)
		return bad(err, "update (an object with \"action\")");
	if (!strcmp(act, "assign-uuid")) {
		const char *id = get_str(u, "uuid");
		if (!id)
			return bad(err, "assign-uuid");
		if (!md->table_uuid || strcasecmp(id, md->table_uuid) != 0)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "cannot assign uuid %s to a table whose uuid is %s", id,
					   md->table_uuid ? md->table_uuid : "none");
		return FLOE_OK;
	}
	if (!strcmp(act, "upgrade-format-version")) {
		int64_t v;
		if (!get_int(u, "format-version", &v))
			return bad(err, "upgrade-format-version");
		if (v != md->format_version)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "upgrade-format-version from %d to %lld is not supported",
					   md->format_version, (long long)v);
		return FLOE_OK;
	}
	if (!strcmp(act, "set-properties")) {
		json_t *up = json_object_get(u, "updates"), *v;
		const char *key;
		if (!json_is_object(up))
			return bad(err, "set-properties (an \"updates\" object)");
		json_object_foreach(up, key, v) {
			if (!json_is_string(v))
				return bad(err, "set-properties (string values)");
			metadata_set_property(md, key, json_string_value(v), a);
		}
		table_apply_floe_properties(md);
		return FLOE_OK;
	}
	if (!strcmp(act, "remove-properties")) {
		json_t *rm = json_object_get(u, "removals"), *v;
		size_t i;
		if (!json_is_array(rm))
			return bad(err, "remove-properties (a \"removals\" array)");
		json_array_foreach(rm, i, v) {
			if (!json_is_string(v))
				return bad(err, "remove-properties (string removals)");
			metadata_set_property(md, json_string_value(v), NULL, a);
		}
		table_apply_floe_properties(md);
		return FLOE_OK;
	}
	if (!strcmp(act, "add-snapshot"))
		return add_snapshot(md, json_object_get(u, "snapshot"), a, err);
	if (!strcmp(act, "set-snapshot-ref"))
		return set_ref(md, u, a, err);
	if (!strcmp(act, "remove-snapshot-ref")) {
		const char *name = get_str(u, "ref-name");
		int i, k = 0;
		if (!name)
			return bad(err, "remove-snapshot-ref");
		if (!strcmp(name, "main"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "removing the main branch is not supported");
		for (i = 0; i < md->nrefs; i++)
			if (strcmp(md->refs[i].name, name) != 0)
				md->refs[k++] = md->refs[i];
		md->nrefs = k;
		return FLOE_OK;
	}
	if (!strcmp(act, "set-location")) {
		const char *loc = get_str(u, "location");
		if (!loc || !*loc)
			return bad(err, "set-location");
		if (acl_check_location(s, loc, err) != FLOE_OK)
			return FLOE_ERR;
		md->location = arena_strdup(a, loc);
		return FLOE_OK;
	}
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "table update \"%.100s\" is not supported by floe's REST catalog", act);
}

/* The version number of a metadata file name "NNNNN-<uuid>.metadata.json". */
static int
next_version(const Table *t)
{
	const char *b = strrchr(t->metadata_location, '/');
	int v = 0;
	b = b ? b + 1 : t->metadata_location;
	if (*b >= '0' && *b <= '9') {
		while (*b >= '0' && *b <= '9' && v < 1000000)
			v = v * 10 + (*b++ - '0');
		if (*b == '-')
			return v + 1;
	}
	return t->md->nmetadata_log + 1;
}

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Steps 1-3 for one change: its head in *head, its new file written. */
static int
stage(Session *s, RestChange *c, Arena *a, Table **head, char **path, char **json, floe_error *err)
{
	TableMetadata *md;
	MetadataLogEntry *log;
	size_t i;
	json_t *x;
	int64_t ts = now_ms();

	if (table_load(eng(s)->catalog, eng(s)->io, c->ns, c->name, a, head, err) != FLOE_OK)
		return FLOE_ERR;
	if (c->requirements && !json_is_array(c->requirements))
		return bad(err, "commit (\"requirements\" must be an array)");
	if (c->updates && !json_is_array(c->updates))
		return bad(err, "commit (\"updates\" must be an array)");
	json_array_foreach(c->requirements, i, x)
		if (check_requirement(*head, x, err) != FLOE_OK)
			return FLOE_ERR;
	md = metadata_copy((*head)->md, a);
	json_array_foreach(c->updates, i, x)
		if (apply_update(s, md, x, a, err) != FLOE_OK)
			return FLOE_ERR;
	if (ts < (*head)->md->last_updated_ms)
		ts = (*head)->md->last_updated_ms;
	md->last_updated_ms = ts;
	log = ARENA_ARRAY(a, MetadataLogEntry, md->nmetadata_log + 1);
	if (md->nmetadata_log)
		memcpy(log, md->metadata_log, sizeof *log * (size_t)md->nmetadata_log);
	log[md->nmetadata_log].timestamp_ms = (*head)->md->last_updated_ms;
	log[md->nmetadata_log].metadata_file = (*head)->metadata_location;
	md->metadata_log = log;
	md->nmetadata_log++;
	*json = metadata_serialize(md, a);
	{
		/* what it wrote must read back (the same validation as every load) */
		TableMetadata *check;
		if (metadata_parse(*json, strlen(*json), "the committed metadata", a, &check, err) != FLOE_OK)
			return FLOE_ERR;
	}
	*path = arena_sprintf(a, "%s/metadata/%05d-%s.metadata.json", md->location, next_version(*head),
			      new_uuid(a));
	return fileio_write(eng(s)->io, *path, *json, strlen(*json), err);
}

static int
commit_attempts(Session *s, int n, RestChange *ch, Arena *a, floe_error *err)
{
	Table *heads[RESTCAT_MAX_TABLES];
	char *paths[RESTCAT_MAX_TABLES], *json[RESTCAT_MAX_TABLES];
	const char *nss[RESTCAT_MAX_TABLES], *names[RESTCAT_MAX_TABLES];
	const char *expected[RESTCAT_MAX_TABLES], *locs[RESTCAT_MAX_TABLES];
	int attempt, i, k, rc = FLOE_ERR;

	if (n < 1 || n > RESTCAT_MAX_TABLES)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "a commit changes 1 to %d tables, not %d", RESTCAT_MAX_TABLES, n);
	for (i = 0; i < n; i++) {
		for (k = 0; k < i; k++)
			if (!strcmp(ch[k].ns, ch[i].ns) && !strcmp(ch[k].name, ch[i].name))
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "table %s.%s appears twice in the commit", ch[i].ns, ch[i].name);
		if (table_load(eng(s)->catalog, eng(s)->io, ch[i].ns, ch[i].name, a, &heads[i], err) != FLOE_OK ||
		    need(s, ch[i].ns, ch[i].name, P_WRITE, err) != FLOE_OK)
			return FLOE_ERR;
	}
	for (attempt = 0; attempt < RESTCAT_TRIES; attempt++) {
		int nw = 0;
		floe_error ignore;
		for (i = 0; i < n; i++) {
			if (stage(s, &ch[i], a, &heads[i], &paths[i], &json[i], err) != FLOE_OK)
				break;
			nw++;
			nss[i] = ch[i].ns;
			names[i] = ch[i].name;
			expected[i] = heads[i]->metadata_location;
			locs[i] = paths[i];
		}
		if (i == n)
			rc = n == 1 ? catalog_swap_table(eng(s)->catalog, nss[0], names[0], expected[0], locs[0], err)
				: catalog_swap_tables(eng(s)->catalog, n, nss, names, expected, locs, err);
		if (i == n && rc == FLOE_OK) {
			for (i = 0; i < n; i++) {
				ch[i].location = paths[i];
				ch[i].metadata = json[i];
			}
			return FLOE_OK;
		}
		if (i == n && floe_error_is(err, ERRCODE_CONNECTION_FAILURE)) {
			floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
				    "the outcome of the commit is unknown: the catalog connection failed");
			return FLOE_ERR;    /* its files may be referenced: kept */
		}
		for (k = 0; k < nw; k++)
			(void)fileio_remove(eng(s)->io, paths[k], &ignore);
		if (i < n || !floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE))
			return FLOE_ERR;
		rc = FLOE_ERR;       /* a head moved: check and apply again on the new heads */
		txn_backoff(RESTCAT_BACKOFF_MS, attempt);
	}
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit after %d attempts: the tables kept changing", RESTCAT_TRIES);
}

static int
key_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * The commit holds each table's write turn (engine.c), as an autocommit SQL
 * write does, so this process's SQL writers and REST committers of a table
 * queue instead of colliding (12 REST commits racing 12 INSERTs lost one
 * after RESTCAT_TRIES collisions); other processes are met by the swap and
 * its back-off.  Turns are taken in key order: every other holder holds
 * one, so no cycle can form.
 */
int
restcat_commit(Session *s, int n, RestChange *ch, Arena *a, floe_error *err)
{
	char *keys[RESTCAT_MAX_TABLES];
	WriteTurn *turns[RESTCAT_MAX_TABLES];
	int i, nt = 0, rc = FLOE_OK;

	if (n < 1 || n > RESTCAT_MAX_TABLES)
		return commit_attempts(s, n, ch, a, err);    /* its error */
	for (i = 0; i < n; i++)
		keys[i] = arena_sprintf(a, "%s.%s", ch[i].ns, ch[i].name);
	qsort(keys, (size_t)n, sizeof keys[0], key_cmp);
	for (i = 0; i < n && rc == FLOE_OK; i++) {
		if (i > 0 && !strcmp(keys[i], keys[i - 1]))
			continue;      /* commit_attempts reports the repeat */
		rc = engine_write_turn_take(s, keys[i], &turns[nt], err);
		if (rc == FLOE_OK)
			nt++;
	}
	if (rc == FLOE_OK)
		rc = commit_attempts(s, n, ch, a, err);
	while (nt > 0)
		engine_write_turn_give(s, turns[--nt]);
	return rc;
}
