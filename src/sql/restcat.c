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
#include "table/table_stats.h"
#include "table/view_meta.h"
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

/* ---- schema, partition spec, sort order and snapshot removal updates ----
 *
 * These edit the metadata as its JSON document (metadata_serialize), which
 * is then parsed again (metadata_parse: every invariant of a loaded table
 * is checked on the result).  Ids, as the REST spec and the Java catalog
 * assign them: an add-schema / add-spec / add-sort-order whose requested id
 * is free, or names an identical entry, gets that id; otherwise an identical
 * existing entry's id is reused, else the highest id + 1.  set-current-schema
 * / set-default-spec / set-default-sort-order take an existing id, -1 for
 * the one added last in this commit, or the id an add of this commit asked
 * for (mapped to the id it got).  A spec field without field-id gets
 * last-partition-id + 1.  remove-snapshots (of existing snapshots: an
 * unknown id is 22023) drops the snapshots, the refs
 * pointing at them (main: the table then has no current snapshot), their
 * statistics and partition statistics, and the snapshot-log up to the last
 * entry of a removed snapshot (as Java's TableMetadata does).
 */
typedef struct Added {
	bool has;              /* something was added by this commit */
	int64_t asked, got;    /* the id it asked for (-1: none), the id it got */
} Added;

typedef struct AddedIds {
	Added schema, spec, order;
} AddedIds;

/* The greatest field id of a schema's (nested) type: "id" of fields,
 * "element-id", "key-id", "value-id". */
static int64_t
max_field_id(json_t *node)
{
	static const char *const ids[] = { "id", "element-id", "key-id", "value-id" };
	static const char *const subs[] = { "fields", "type", "element", "key", "value" };
	int64_t m = 0, x;
	size_t i, k;
	json_t *v;
	if (json_is_array(node)) {
		json_array_foreach(node, i, v)
			if ((x = max_field_id(v)) > m)
				m = x;
		return m;
	}
	if (!json_is_object(node))
		return 0;
	for (k = 0; k < 4; k++)
		if (json_is_integer(v = json_object_get(node, ids[k])) && json_integer_value(v) > m)
			m = json_integer_value(v);
	for (k = 0; k < 5; k++)
		if ((x = max_field_id(json_object_get(node, subs[k]))) > m)
			m = x;
	return m;
}

/* Does the (nested) type node hold a field with this id? */
static bool
has_field_id(json_t *node, int64_t id)
{
	static const char *const subs[] = { "fields", "type", "element", "key", "value" };
	size_t i;
	json_t *v;
	if (json_is_array(node)) {
		json_array_foreach(node, i, v)
			if (has_field_id(v, id))
				return true;
		return false;
	}
	if (!json_is_object(node))
		return false;
	if (json_is_integer(v = json_object_get(node, "id")) && json_integer_value(v) == id &&
	    json_object_get(node, "name"))
		return true;
	for (i = 0; i < 5; i++)
		if (has_field_id(json_object_get(node, subs[i]), id))
			return true;
	return false;
}

static json_t *
by_int(json_t *arr, const char *key, int64_t id)
{
	size_t i;
	json_t *x, *v;
	json_array_foreach(arr, i, x)
		if (json_is_integer(v = json_object_get(x, key)) && json_integer_value(v) == id)
			return x;
	return NULL;
}

static int64_t
max_id(json_t *arr, const char *key, int64_t floor)
{
	size_t i;
	json_t *x, *v;
	json_array_foreach(arr, i, x)
		if (json_is_integer(v = json_object_get(x, key)) && json_integer_value(v) > floor)
			floor = json_integer_value(v);
	return floor;
}

static json_t *
current_schema_json(json_t *doc)
{
	json_t *v = json_object_get(doc, "current-schema-id");
	return by_int(json_object_get(doc, "schemas"), "schema-id", json_integer_value(v));
}

static bool
same_member(json_t *x, json_t *y, const char *key, json_t *dflt)
{
	json_t *a = json_object_get(x, key), *b = json_object_get(y, key);
	return json_equal(a ? a : dflt, b ? b : dflt);
}

static bool
same_entry(json_t *x, json_t *y, const char *const *keys)
{
	json_t *none = json_array();
	bool eq = true;
	for (; *keys && eq; keys++)
		eq = same_member(x, y, *keys, none);
	json_decref(none);
	return eq;
}

/* Add entry (its id member idkey, compared by keys) to doc's array arr. */
static void
add_entry(json_t *doc, const char *arr, const char *idkey, json_t *entry, const char *const *keys,
	  int64_t min_new, Added *ad)
{
	json_t *list = json_object_get(doc, arr), *x;
	int64_t asked = -1, id;
	size_t i;
	if (json_is_integer(json_object_get(entry, idkey)))
		asked = json_integer_value(json_object_get(entry, idkey));
	ad->has = true;
	ad->asked = asked;
	x = asked >= 0 ? by_int(list, idkey, asked) : NULL;
	if (x && same_entry(x, entry, keys)) {
		ad->got = asked;
		return;
	}
	if (asked >= 0 && !x) {
		id = asked;
	} else {
		json_array_foreach(list, i, x)
			if (same_entry(x, entry, keys)) {
				ad->got = json_integer_value(json_object_get(x, idkey));
				return;
			}
		id = max_id(list, idkey, min_new - 1) + 1;
	}
	x = json_deep_copy(entry);
	json_object_set_new(x, idkey, json_integer(id));
	json_array_append_new(list, x);
	ad->got = id;
}

/* Which id a set-current/default update names: -1 the last added, an id
 * an add of this commit asked for, else an existing one. */
static int
chosen_id(json_t *doc, json_t *u, const char *member, const char *arr, const char *idkey,
	  const Added *ad, const char *act, int64_t *out, floe_error *err)
{
	int64_t id;
	if (!get_int(u, member, &id))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "malformed %s (\"%s\" is required)",
				   act, member);
	if (id == -1) {
		if (!ad->has)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "%s: %s -1 names the last added one, and this commit added none", act, member);
		id = ad->got;
	} else if (ad->has && id == ad->asked) {
		id = ad->got;
	}
	if (!by_int(json_object_get(doc, arr), idkey, id))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "%s: there is no %s %lld", act,
				   member, (long long)id);
	*out = id;
	return FLOE_OK;
}

static int
doc_add_schema(json_t *doc, json_t *u, Added *ad, floe_error *err)
{
	static const char *const keys[] = { "fields", "identifier-field-ids", NULL };
	json_t *sc = json_object_get(u, "schema"), *t;
	int64_t last = json_integer_value(json_object_get(doc, "last-column-id")), asked, m;
	if (!json_is_object(sc) || !json_is_array(json_object_get(sc, "fields")) ||
	    ((t = json_object_get(sc, "type")) && !(json_is_string(t) && !strcmp(json_string_value(t), "struct"))))
		return bad(err, "add-schema (a \"schema\" of type struct with \"fields\")");
	if (get_int(u, "last-column-id", &asked)) {
		if (asked < last)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "add-schema: last-column-id %lld is below the table's %lld",
					   (long long)asked, (long long)last);
		last = asked;
	}
	sc = json_deep_copy(sc);
	json_object_set_new(sc, "type", json_string("struct"));
	add_entry(doc, "schemas", "schema-id", sc, keys, 0, ad);
	json_decref(sc);
	if ((m = max_field_id(json_object_get(u, "schema"))) > last)
		last = m;
	json_object_set_new(doc, "last-column-id", json_integer(last));
	return FLOE_OK;
}

static int
doc_add_spec(json_t *doc, json_t *u, Added *ad, floe_error *err)
{
	static const char *const keys[] = { "fields", NULL };
	json_t *sp = json_object_get(u, "spec"), *fields, *f, *cur = current_schema_json(doc);
	int64_t last = json_integer_value(json_object_get(doc, "last-partition-id")), src, fid;
	size_t i;
	if (!json_is_object(sp) || !json_is_array(json_object_get(sp, "fields")))
		return bad(err, "add-spec (a \"spec\" with \"fields\")");
	if (last < 999)
		last = 999;      /* partition field ids start at 1000 */
	sp = json_deep_copy(sp);
	fields = json_object_get(sp, "fields");
	json_array_foreach(fields, i, f) {
		if (!json_is_object(f) || !get_int(f, "source-id", &src) || !get_str(f, "transform") ||
		    !get_str(f, "name")) {
			json_decref(sp);
			return bad(err, "add-spec field (source-id, transform and name are required)");
		}
		if (!has_field_id(cur, src)) {
			json_decref(sp);
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "add-spec: partition field \"%.100s\": no column with id %lld in the current schema",
					   get_str(f, "name"), (long long)src);
		}
		if (!get_int(f, "field-id", &fid)) {
			fid = ++last;
			json_object_set_new(f, "field-id", json_integer(fid));
		} else if (fid > last) {
			last = fid;
		}
	}
	add_entry(doc, "partition-specs", "spec-id", sp, keys, 0, ad);
	json_decref(sp);
	if (last > json_integer_value(json_object_get(doc, "last-partition-id")))
		json_object_set_new(doc, "last-partition-id", json_integer(last));
	return FLOE_OK;
}

static int
doc_add_sort_order(json_t *doc, json_t *u, Added *ad, floe_error *err)
{
	static const char *const keys[] = { "fields", NULL };
	json_t *so = json_object_get(u, "sort-order"), *f, *cur = current_schema_json(doc);
	const char *dir, *nulls;
	int64_t src;
	size_t i;
	if (!json_is_object(so) || !json_is_array(json_object_get(so, "fields")))
		return bad(err, "add-sort-order (a \"sort-order\" with \"fields\")");
	json_array_foreach(json_object_get(so, "fields"), i, f) {
		if (!json_is_object(f) || !get_int(f, "source-id", &src) || !get_str(f, "transform") ||
		    !(dir = get_str(f, "direction")) || !(nulls = get_str(f, "null-order")) ||
		    (strcmp(dir, "asc") && strcmp(dir, "desc")) ||
		    (strcmp(nulls, "nulls-first") && strcmp(nulls, "nulls-last")))
			return bad(err, "add-sort-order field (transform, source-id, direction asc|desc, "
					"null-order nulls-first|nulls-last)");
		if (!has_field_id(cur, src))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "add-sort-order: no column with id %lld in the current schema",
					   (long long)src);
	}
	if (!json_array_size(json_object_get(so, "fields"))) {
		/* the unsorted order is order 0 */
		so = json_pack("{s:i,s:[]}", "order-id", 0, "fields");
		add_entry(doc, "sort-orders", "order-id", so, keys, 0, ad);
	} else {
		so = json_deep_copy(so);
		if (json_is_integer(json_object_get(so, "order-id")) &&
		    json_integer_value(json_object_get(so, "order-id")) == 0)
			json_object_del(so, "order-id");   /* 0 is the unsorted order's */
		add_entry(doc, "sort-orders", "order-id", so, keys, 1, ad);
	}
	json_decref(so);
	return FLOE_OK;
}

static bool
in_ids(json_t *ids, json_t *v)
{
	size_t i;
	json_t *x;
	if (!json_is_integer(v))
		return false;
	json_array_foreach(ids, i, x)
		if (json_integer_value(x) == json_integer_value(v))
			return true;
	return false;
}

/* Drop the elements of doc's array arr whose member key is in ids. */
static void
drop_by(json_t *doc, const char *arr, const char *key, json_t *ids)
{
	json_t *list = json_object_get(doc, arr);
	size_t i = 0;
	while (i < json_array_size(list))
		if (in_ids(ids, json_object_get(json_array_get(list, i), key)))
			json_array_remove(list, i);
		else
			i++;
}

static int
doc_remove_snapshots(json_t *doc, json_t *u, floe_error *err)
{
	json_t *ids = json_object_get(u, "snapshot-ids"), *x, *refs, *log, *keep;
	const char *key;
	void *tmp;
	size_t i;
	if (!json_is_array(ids))
		return bad(err, "remove-snapshots (a \"snapshot-ids\" array)");
	json_array_foreach(ids, i, x) {
		if (!json_is_integer(x))
			return bad(err, "remove-snapshots (integer snapshot-ids)");
		if (!by_int(json_object_get(doc, "snapshots"), "snapshot-id", json_integer_value(x)))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "remove-snapshots: there is no snapshot %lld",
					   (long long)json_integer_value(x));
	}
	drop_by(doc, "snapshots", "snapshot-id", ids);
	drop_by(doc, "statistics", "snapshot-id", ids);
	drop_by(doc, "partition-statistics", "snapshot-id", ids);
	refs = json_object_get(doc, "refs");
	json_object_foreach_safe(refs, tmp, key, x)
		if (in_ids(ids, json_object_get(x, "snapshot-id")))
			json_object_del(refs, key);
	if (in_ids(ids, json_object_get(doc, "current-snapshot-id")))
		json_object_set_new(doc, "current-snapshot-id", json_integer(-1));
	/* a removed snapshot's log entry ends the history before it */
	log = json_object_get(doc, "snapshot-log");
	if (json_is_array(log)) {
		keep = json_array();
		json_array_foreach(log, i, x) {
			if (!by_int(json_object_get(doc, "snapshots"), "snapshot-id",
				    json_integer_value(json_object_get(x, "snapshot-id"))))
				json_array_clear(keep);
			else
				json_array_append(keep, x);
		}
		json_object_set_new(doc, "snapshot-log", keep);
	}
	return FLOE_OK;
}

/* set-partition-statistics (the spec's PartitionStatisticsFile: snapshot-id,
 * statistics-path, file-size-in-bytes; it replaces the snapshot's entry) and
 * remove-partition-statistics (snapshot-id) on the metadata's
 * "partition-statistics" list. */
static int
doc_partition_statistics(json_t *doc, const char *act, json_t *u, floe_error *err)
{
	json_t *list = json_object_get(doc, "partition-statistics"), *st, *x, *keep;
	int64_t id, size;
	size_t i;

	if (!strcmp(act, "remove-partition-statistics")) {
		if (!get_int(u, "snapshot-id", &id))
			return bad(err, "remove-partition-statistics (a \"snapshot-id\")");
		st = NULL;
	} else {
		st = json_object_get(u, "partition-statistics");
		if (!json_is_object(st) || !get_str(st, "statistics-path") || !get_int(st, "snapshot-id", &id) ||
		    !get_int(st, "file-size-in-bytes", &size) || size < 0)
			return bad(err, "set-partition-statistics (a \"partition-statistics\" object with snapshot-id, statistics-path, file-size-in-bytes)");
		if (!by_int(json_object_get(doc, "snapshots"), "snapshot-id", id))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "set-partition-statistics: there is no snapshot %lld", (long long)id);
	}
	keep = json_array();
	if (json_is_array(list))
		json_array_foreach(list, i, x) {
			json_t *xid = json_object_get(x, "snapshot-id");
			if (!json_is_integer(xid) || json_integer_value(xid) != id)
				json_array_append(keep, x);
		}
	if (st)
		json_array_append_new(keep, json_pack("{s:I, s:s, s:I}", "snapshot-id", (json_int_t)id,
						      "statistics-path", get_str(st, "statistics-path"),
						      "file-size-in-bytes", (json_int_t)size));
	if (json_array_size(keep))
		json_object_set_new(doc, "partition-statistics", keep);
	else {
		json_decref(keep);
		json_object_del(doc, "partition-statistics");
	}
	return FLOE_OK;
}

/* One of the updates above, on md (replaced by the edited document's parse). */
static int
edit_doc(TableMetadata *md, const char *act, json_t *u, AddedIds *ad, Arena *a, floe_error *err)
{
	json_t *doc = json_loads(metadata_serialize(md, a), 0, NULL);
	int64_t id;
	int rc;
	if (!doc)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "%s: the table's metadata does not serialize", act);
	json_object_del(doc, "schema");            /* v1's legacy members: written again from the model */
	json_object_del(doc, "partition-spec");
	if (!strcmp(act, "add-schema")) {
		rc = doc_add_schema(doc, u, &ad->schema, err);
	} else if (!strcmp(act, "set-current-schema")) {
		rc = chosen_id(doc, u, "schema-id", "schemas", "schema-id", &ad->schema, act, &id, err);
		if (rc == FLOE_OK)
			json_object_set_new(doc, "current-schema-id", json_integer(id));
	} else if (!strcmp(act, "add-spec")) {
		rc = doc_add_spec(doc, u, &ad->spec, err);
	} else if (!strcmp(act, "set-default-spec")) {
		rc = chosen_id(doc, u, "spec-id", "partition-specs", "spec-id", &ad->spec, act, &id, err);
		if (rc == FLOE_OK)
			json_object_set_new(doc, "default-spec-id", json_integer(id));
	} else if (!strcmp(act, "add-sort-order")) {
		rc = doc_add_sort_order(doc, u, &ad->order, err);
	} else if (!strcmp(act, "set-default-sort-order")) {
		rc = chosen_id(doc, u, "sort-order-id", "sort-orders", "order-id", &ad->order, act, &id, err);
		if (rc == FLOE_OK)
			json_object_set_new(doc, "default-sort-order-id", json_integer(id));
	} else if (!strcmp(act, "set-partition-statistics") || !strcmp(act, "remove-partition-statistics")) {
		rc = doc_partition_statistics(doc, act, u, err);
	} else {
		rc = doc_remove_snapshots(doc, u, err);
	}
	if (rc == FLOE_OK) {
		char *txt = json_dumps(doc, JSON_COMPACT);
		TableMetadata *nm;
		floe_error perr;
		if (!txt)
			abort();
		if (metadata_parse(txt, strlen(txt), act, a, &nm, &perr) != FLOE_OK)
			rc = floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid %s: %s", act, perr.message);
		else
			*md = *nm;
		free(txt);
	}
	json_decref(doc);
	return rc;
}

static int
apply_update(Session *s, TableMetadata *md, json_t *u, AddedIds *ad, Arena *a, floe_error *err)
{
	const char *act = get_str(u, "action");
	if (!json_is_object(u) || !act)
		return bad(err, "update (an object with \"action\")");
	if (!strcmp(act, "add-schema") || !strcmp(act, "set-current-schema") || !strcmp(act, "add-spec") ||
	    !strcmp(act, "set-default-spec") || !strcmp(act, "add-sort-order") ||
	    !strcmp(act, "set-default-sort-order") || !strcmp(act, "remove-snapshots") ||
	    !strcmp(act, "set-partition-statistics") || !strcmp(act, "remove-partition-statistics"))
		return edit_doc(md, act, u, ad, a, err);
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
	if (!strcmp(act, "set-statistics")) {
		/* the spec's StatisticsFile; replaces the snapshot's entry */
		json_t *st = json_object_get(u, "statistics");
		const char *path = json_is_object(st) ? get_str(st, "statistics-path") : NULL;
		StatisticsFile sf;
		memset(&sf, 0, sizeof sf);
		if (!path || !get_int(st, "snapshot-id", &sf.snapshot_id) ||
		    !get_int(st, "file-size-in-bytes", &sf.file_size_in_bytes) ||
		    !json_is_array(json_object_get(st, "blob-metadata")))
			return bad(err, "set-statistics (a \"statistics\" object with snapshot-id, statistics-path, file-size-in-bytes, blob-metadata)");
		if (!metadata_snapshot_by_id(md, sf.snapshot_id))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "set-statistics: there is no snapshot %lld", (long long)sf.snapshot_id);
		sf.statistics_path = arena_strdup(a, path);
		sf.raw = json_deep_copy(st);
		arena_on_reset(a, decref_cb, sf.raw);
		(void)table_stats_set(md, &sf, a);
		return FLOE_OK;
	}
	if (!strcmp(act, "remove-statistics")) {
		int64_t id;
		int i, k = 0;
		if (!get_int(u, "snapshot-id", &id))
			return bad(err, "remove-statistics (a \"snapshot-id\")");
		for (i = 0; i < md->nstatistics; i++)
			if (md->statistics[i].snapshot_id != id)
				md->statistics[k++] = md->statistics[i];
		md->nstatistics = k;
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
	AddedIds added;
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
	memset(&added, 0, sizeof added);
	json_array_foreach(c->updates, i, x)
		if (apply_update(s, md, x, &added, a, err) != FLOE_OK)
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

/* ---- views ------------------------------------------------------------------
 *
 * A view is an Iceberg view metadata file (format/view-spec.md, the same
 * files sql/views.c writes: table/view_meta.h) behind the catalog's view
 * entry.  Create and commit build or edit the file as a JSON document, write
 * the next <location>/metadata/NNNNN-<uuid>.metadata.json, check that floe
 * can read it back as a view (view_meta_read: its current version needs a
 * "postgresql" SQL representation, 0A000 otherwise) and then create or swap
 * the catalog entry; a commit that loses the swap (40001) starts again on
 * the new head, as table commits do.  Drop and rename run DROP VIEW / ALTER
 * VIEW ... RENAME TO as the session (its privileges, and views that depend
 * on the view stop a drop: 2BP01).
 */

#define RESTCAT_VIEW_VERSIONS 10    /* versions kept, as view_meta.c keeps */

int
restcat_list_views(Session *s, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	bool exists = false;
	if (catalog_namespace_exists(eng(s)->catalog, ns, &exists, err) != FLOE_OK)
		return FLOE_ERR;
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	return catalog_list_views(eng(s)->catalog, ns, a, names, n, err);
}

int
restcat_load_view(Session *s, const char *ns, const char *name, Arena *a, char **location,
		  char **metadata, floe_error *err)
{
	if (catalog_load_view(eng(s)->catalog, ns, name, a, location, err) != FLOE_OK)
		return FLOE_ERR;
	if (need(s, ns, name, P_SELECT, err) != FLOE_OK)
		return FLOE_ERR;
	return read_text(s, *location, a, metadata, err);
}

static int64_t
json_int_or(json_t *o, const char *key, int64_t dflt)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

/* Write doc as file number num under its location and check it reads back
 * as a floe view; *path and *json on success (the file is removed else). */
static int
write_view_doc(Session *s, json_t *doc, int num, Arena *a, char **path, char **json, floe_error *err)
{
	char *txt;
	ViewDef *d;
	floe_error rerr, ignore;
	if (!get_str(doc, "location"))
		return bad(err, "view metadata (a \"location\" string)");
	txt = json_dumps(doc, JSON_INDENT(2));
	if (!txt)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "the view's metadata does not serialize");
	*json = arena_strdup(a, txt);
	free(txt);
	*path = arena_sprintf(a, "%s/metadata/%05d-%s.metadata.json", get_str(doc, "location"), num,
			      new_uuid(a));
	if (fileio_write(eng(s)->io, *path, *json, strlen(*json), err) != FLOE_OK)
		return FLOE_ERR;
	if (view_meta_read(eng(s)->io, *path, a, &d, &rerr) != FLOE_OK) {
		(void)fileio_remove(eng(s)->io, *path, &ignore);
		if (strstr(rerr.message, "postgresql"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "floe's REST catalog keeps views whose current version has a "
					   "\"postgresql\" SQL representation: %s", rerr.message);
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid view metadata: %s",
				   rerr.message);
	}
	return FLOE_OK;
}

/* A view version's schema-id (-1: the last schema added, *last) and its
 * check against the document's schemas. */
static int
version_schema(json_t *doc, json_t *ver, int64_t last, floe_error *err)
{
	int64_t sid = json_int_or(ver, "schema-id", -2);
	if (sid == -1)
		sid = last;
	if (sid < 0)
		return bad(err, "view version (schema-id, or -1 after add-schema)");
	if (!by_int(json_object_get(doc, "schemas"), "schema-id", sid))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "view version: there is no schema %lld", (long long)sid);
	json_object_set_new(ver, "schema-id", json_integer(sid));
	return FLOE_OK;
}

static int
check_version(json_t *ver, floe_error *err)
{
	if (!json_is_object(ver) || !json_is_array(json_object_get(ver, "representations")) ||
	    !json_is_array(json_object_get(ver, "default-namespace")))
		return bad(err, "view version (an object with representations and default-namespace)");
	if (!json_is_integer(json_object_get(ver, "timestamp-ms")))
		json_object_set_new(ver, "timestamp-ms", json_integer(now_ms()));
	if (!json_is_object(json_object_get(ver, "summary")))
		json_object_set_new(ver, "summary", json_object());
	return FLOE_OK;
}

int
restcat_create_view(Session *s, const char *ns, const char *name, json_t *req, Arena *a,
		    char **location, char **metadata, floe_error *err)
{
	json_t *schema = json_object_get(req, "schema"), *ver = json_object_get(req, "view-version");
	json_t *props = json_object_get(req, "properties"), *doc, *sc, *v;
	const char *loc = get_str(req, "location");
	char *tloc, *path, *json;
	floe_error e, ignore;
	int rc;

	if (check_ns_name(ns, err) != FLOE_OK || need(s, ns, NULL, P_CREATE, err) != FLOE_OK)
		return FLOE_ERR;
	if (!json_is_object(schema) || !json_is_object(ver) || (props && !json_is_object(props)) || !loc)
		return bad(err, "CreateViewRequest (name, location, schema, view-version, properties)");
	if (acl_check_location(s, loc, err) != FLOE_OK)
		return FLOE_ERR;
	if (catalog_load_table(eng(s)->catalog, ns, name, a, &tloc, &e) == FLOE_OK)
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	sc = json_deep_copy(schema);
	v = json_deep_copy(ver);
	if (!json_is_integer(json_object_get(sc, "schema-id")))
		json_object_set_new(sc, "schema-id", json_integer(0));
	if (json_int_or(v, "version-id", 0) < 1)
		json_object_set_new(v, "version-id", json_integer(1));
	doc = json_pack("{s:s,s:i,s:s,s:[o],s:[],s:[],s:o,s:I}", "view-uuid", new_uuid(a),
			"format-version", 1, "location", loc, "schemas", sc, "versions", "version-log",
			"properties", props ? json_deep_copy(props) : json_object(), "current-version-id",
			(json_int_t)json_int_or(v, "version-id", 1));
	rc = check_version(v, err);
	if (rc == FLOE_OK)
		rc = version_schema(doc, v, json_int_or(sc, "schema-id", 0), err);
	if (rc == FLOE_OK) {
		json_array_append(json_object_get(doc, "versions"), v);
		json_array_append_new(json_object_get(doc, "version-log"),
				      json_pack("{s:I,s:O}", "timestamp-ms",
						(json_int_t)json_int_or(v, "timestamp-ms", now_ms()),
						"version-id", json_object_get(v, "version-id")));
		rc = write_view_doc(s, doc, 0, a, &path, &json, err);
	}
	json_decref(v);
	json_decref(doc);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	if (catalog_create_view(eng(s)->catalog, ns, name, path, err) != FLOE_OK) {
		(void)fileio_remove(eng(s)->io, path, &ignore);
		return FLOE_ERR;
	}
	*location = path;
	*metadata = json;
	return FLOE_OK;
}

static int
check_view_requirement(json_t *doc, json_t *r, floe_error *err)
{
	const char *type = get_str(r, "type"), *u, *have = get_str(doc, "view-uuid");
	if (!json_is_object(r) || !type)
		return bad(err, "requirement (an object with \"type\")");
	if (strcmp(type, "assert-view-uuid") != 0)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "unknown view requirement type \"%.100s\"", type);
	if (!(u = get_str(r, "uuid")))
		return bad(err, "assert-view-uuid");
	if (!have || strcasecmp(u, have) != 0)
		return floe_errorf(err, "55000", "requirement failed: view uuid %s, the view's is %s", u,
				   have ? have : "none");
	return FLOE_OK;
}

/* One ViewUpdate on doc; *last_schema / *last_version: the ids the last
 * add-schema / add-view-version gave (-1 in the spec refers to them). */
static int
apply_view_update(Session *s, json_t *doc, json_t *u, int64_t *last_schema, int64_t *last_version,
		  floe_error *err)
{
	const char *act = get_str(u, "action");
	json_t *x, *v;
	const char *key;
	size_t i;
	if (!json_is_object(u) || !act)
		return bad(err, "update (an object with \"action\")");
	if (!strcmp(act, "assign-uuid")) {
		const char *id = get_str(u, "uuid");
		if (!id)
			return bad(err, "assign-uuid");
		if (strcasecmp(id, get_str(doc, "view-uuid") ? get_str(doc, "view-uuid") : "") != 0)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "cannot assign uuid %s to a view whose uuid is %s", id,
					   get_str(doc, "view-uuid"));
		return FLOE_OK;
	}
	if (!strcmp(act, "upgrade-format-version")) {
		int64_t fv = json_int_or(u, "format-version", -1);
		if (fv != json_int_or(doc, "format-version", 1))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "upgrade-format-version of a view from %lld to %lld is not supported",
					   (long long)json_int_or(doc, "format-version", 1), (long long)fv);
		return FLOE_OK;
	}
	if (!strcmp(act, "add-schema")) {
		json_t *sc = json_object_get(u, "schema"), *schemas = json_object_get(doc, "schemas"), *c;
		int64_t want;
		if (!json_is_object(sc) || !json_is_array(json_object_get(sc, "fields")))
			return bad(err, "add-schema (a \"schema\" with fields)");
		c = json_deep_copy(sc);
		want = json_int_or(c, "schema-id", -1);
		json_object_del(c, "schema-id");
		json_array_foreach(schemas, i, x) {
			json_t *y = json_deep_copy(x);
			bool same;
			json_object_del(y, "schema-id");
			same = json_equal(y, c);
			json_decref(y);
			if (same) {   /* an identical schema: its id */
				json_decref(c);
				*last_schema = json_int_or(x, "schema-id", 0);
				return FLOE_OK;
			}
		}
		if (want < 0 || by_int(schemas, "schema-id", want))
			want = max_id(schemas, "schema-id", -1) + 1;
		json_object_set_new(c, "schema-id", json_integer(want));
		json_array_append_new(schemas, c);
		*last_schema = want;
		return FLOE_OK;
	}
	if (!strcmp(act, "set-location")) {
		const char *loc = get_str(u, "location");
		if (!loc || !*loc)
			return bad(err, "set-location");
		if (acl_check_location(s, loc, err) != FLOE_OK)
			return FLOE_ERR;
		json_object_set_new(doc, "location", json_string(loc));
		return FLOE_OK;
	}
	if (!strcmp(act, "set-properties")) {
		json_t *up = json_object_get(u, "updates"), *p = json_object_get(doc, "properties");
		if (!json_is_object(up))
			return bad(err, "set-properties (an \"updates\" object)");
		if (!json_is_object(p)) {
			p = json_object();
			json_object_set_new(doc, "properties", p);
		}
		json_object_foreach(up, key, v) {
			if (!json_is_string(v))
				return bad(err, "set-properties (string values)");
			json_object_set(p, key, v);
		}
		return FLOE_OK;
	}
	if (!strcmp(act, "remove-properties")) {
		json_t *rm = json_object_get(u, "removals");
		if (!json_is_array(rm))
			return bad(err, "remove-properties (a \"removals\" array)");
		json_array_foreach(rm, i, v) {
			if (!json_is_string(v))
				return bad(err, "remove-properties (string removals)");
			json_object_del(json_object_get(doc, "properties"), json_string_value(v));
		}
		return FLOE_OK;
	}
	if (!strcmp(act, "add-view-version")) {
		json_t *ver = json_object_get(u, "view-version"), *vs = json_object_get(doc, "versions"), *c;
		int64_t want;
		int rc;
		if (!json_is_object(ver))
			return bad(err, "add-view-version (a \"view-version\")");
		c = json_deep_copy(ver);
		rc = check_version(c, err);
		if (rc == FLOE_OK)
			rc = version_schema(doc, c, *last_schema, err);
		if (rc != FLOE_OK) {
			json_decref(c);
			return FLOE_ERR;
		}
		want = json_int_or(c, "version-id", -1);
		if (want < 1 || by_int(vs, "version-id", want))
			want = max_id(vs, "version-id", 0) + 1;
		if (want < 1)
			want = 1;
		json_object_set_new(c, "version-id", json_integer(want));
		json_array_append_new(vs, c);
		*last_version = want;
		return FLOE_OK;
	}
	if (!strcmp(act, "set-current-view-version")) {
		int64_t id = json_int_or(u, "view-version-id", -2);
		if (id == -1)
			id = *last_version;
		if (id < 0)
			return bad(err, "set-current-view-version (view-version-id, or -1 after add-view-version)");
		if (!by_int(json_object_get(doc, "versions"), "version-id", id))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "set-current-view-version: there is no version %lld", (long long)id);
		json_object_set_new(doc, "current-version-id", json_integer(id));
		return FLOE_OK;
	}
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "view update \"%.100s\" is not supported by floe's REST catalog", act);
}

/* The file number of ".../NNNNN-<uuid>.metadata.json" + 1. */
static int
next_file_number(const char *path)
{
	const char *b = strrchr(path, '/');
	return atoi(b ? b + 1 : path) + 1;
}

/* Steps 1-3 of a view commit: the head's document edited and written. */
static int
stage_view(Session *s, const char *ns, const char *name, json_t *reqs, json_t *ups, Arena *a,
	   char **head, char **path, char **json, floe_error *err)
{
	char *text;
	json_t *doc, *x;
	json_error_t je;
	int64_t last_schema = -1, last_version = -1, cur;
	size_t i;
	int rc = FLOE_OK;

	if (catalog_load_view(eng(s)->catalog, ns, name, a, head, err) != FLOE_OK ||
	    read_text(s, *head, a, &text, err) != FLOE_OK)
		return FLOE_ERR;
	if (!(doc = json_loads(text, 0, &je)) || !json_is_object(doc) ||
	    !json_is_array(json_object_get(doc, "versions")) || !json_is_array(json_object_get(doc, "schemas"))) {
		json_decref(doc);
		return FLOE_CORRUPT(err, "view metadata file %s is not Iceberg view metadata", *head);
	}
	cur = json_int_or(doc, "current-version-id", -1);
	json_array_foreach(reqs, i, x)
		if (rc == FLOE_OK)
			rc = check_view_requirement(doc, x, err);
	json_array_foreach(ups, i, x)
		if (rc == FLOE_OK)
			rc = apply_view_update(s, doc, x, &last_schema, &last_version, err);
	if (rc == FLOE_OK) {
		int64_t now = json_int_or(doc, "current-version-id", -1);
		json_t *vs = json_object_get(doc, "versions");
		if (now != cur) {
			json_t *log = json_object_get(doc, "version-log");
			if (!json_is_array(log)) {
				log = json_array();
				json_object_set_new(doc, "version-log", log);
			}
			json_array_append_new(log, json_pack("{s:I,s:I}", "timestamp-ms", (json_int_t)now_ms(),
							     "version-id", (json_int_t)now));
		}
		/* history: the newest RESTCAT_VIEW_VERSIONS, never the current one */
		for (i = 0; json_array_size(vs) > RESTCAT_VIEW_VERSIONS && i < json_array_size(vs);)
			if (json_int_or(json_array_get(vs, i), "version-id", -1) == now)
				i++;
			else
				json_array_remove(vs, i);
		rc = write_view_doc(s, doc, next_file_number(*head), a, path, json, err);
	}
	json_decref(doc);
	return rc;
}

int
restcat_commit_view(Session *s, const char *ns, const char *name, json_t *reqs, json_t *ups,
		    Arena *a, char **location, char **metadata, floe_error *err)
{
	char *head, *path, *json, *l;
	floe_error ignore;
	int attempt;
	if ((reqs && !json_is_array(reqs)) || (ups && !json_is_array(ups)))
		return bad(err, "CommitViewRequest (\"requirements\" and \"updates\" are arrays)");
	if (catalog_load_view(eng(s)->catalog, ns, name, a, &l, err) != FLOE_OK)
		return FLOE_ERR;
	if (!acl_is_superuser(s))
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must be owner of view %s", name);
	for (attempt = 0; attempt < RESTCAT_TRIES; attempt++) {
		if (stage_view(s, ns, name, reqs, ups, a, &head, &path, &json, err) != FLOE_OK)
			return FLOE_ERR;
		if (catalog_swap_view(eng(s)->catalog, ns, name, head, path, err) == FLOE_OK) {
			*location = path;
			*metadata = json;
			return FLOE_OK;
		}
		if (floe_error_is(err, ERRCODE_CONNECTION_FAILURE))
			return floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
					   "the outcome of the commit is unknown: the catalog connection failed");
		(void)fileio_remove(eng(s)->io, path, &ignore);
		if (!floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE))
			return FLOE_ERR;
		txn_backoff(RESTCAT_BACKOFF_MS, attempt);
	}
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit after %d attempts: the view kept changing", RESTCAT_TRIES);
}

int
restcat_drop_view(Session *s, const char *ns, const char *name, floe_error *err)
{
	Arena *a = arena_new(0);
	char *loc;
	int rc = check_ns_name(ns, err);
	if (rc == FLOE_OK)
		rc = catalog_load_view(eng(s)->catalog, ns, name, a, &loc, err);
	if (rc == FLOE_OK)
		rc = run_sql(s, arena_sprintf(a, "DROP VIEW %s.%s", quote_ident(a, ns), quote_ident(a, name)),
			     err);
	arena_free(a);
	return rc;
}

int
restcat_rename_view(Session *s, const char *ns, const char *name, const char *new_ns,
		    const char *new_name, floe_error *err)
{
	Arena *a;
	char *loc;
	int rc;
	if (check_ns_name(ns, err) != FLOE_OK || check_ns_name(new_ns, err) != FLOE_OK)
		return FLOE_ERR;
	a = arena_new(0);
	rc = catalog_load_view(eng(s)->catalog, ns, name, a, &loc, err);
	if (rc == FLOE_OK && strcmp(ns, new_ns) != 0)
		rc = floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				 "moving a view to another namespace is not supported");
	else if (rc == FLOE_OK && !strcmp(name, new_name))
		rc = floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	else if (rc == FLOE_OK)
		rc = run_sql(s, arena_sprintf(a, "ALTER VIEW %s.%s RENAME TO %s", quote_ident(a, ns),
					      quote_ident(a, name), quote_ident(a, new_name)), err);
	arena_free(a);
	return rc;
}
