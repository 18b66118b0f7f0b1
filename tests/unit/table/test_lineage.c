/*
 * test_lineage.c — Iceberg format-version 3 row lineage in the table layer
 * (apache/iceberg format/spec.md "Row Lineage", "First Row ID Assignment",
 * "First Row ID Inheritance", "Snapshot Row IDs"):
 *   - table_assign_row_ids on the spec's own example (manifests added1..3
 *     from next-row-id 1000 -> 1000, 1125, 1225; next-row-id 1375);
 *   - v3 appends: snapshot first-row-id / added-rows, table next-row-id,
 *     and the data files' first_row_id as scan planning inherits them;
 *   - a copy-on-write replace keeps the surviving file's first_row_id (now
 *     written explicitly in an EXISTING entry) while the rewritten manifest
 *     gets fresh ids (as Iceberg Java: its existing rows are counted);
 *   - a commit re-based after losing a race takes ids from the winner's
 *     next-row-id;
 *   - a v2 table upgraded to v3 (next-row-id 0): its old snapshot keeps no
 *     row ids; the first v3 commit assigns ids to the old files too;
 *   - the table's Spark-written lineage table (impala iceberg_v3_row_lineage)
 *     plans with the first_row_id values its manifests imply;
 *   - table_lineage_schema, and a data file written with it commits (DuckDB
 *     and hyparquet read its rows, reserved columns included);
 *   the last state of each passes iceberg-validate (and the earlier ones
 *   with it: it checks every snapshot) and icebird reads its row count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/data_writer.h"
#include "table/manifest.h"
#include "table/table.h"

static char dir[256];

static const char *
shared(void)
{
	static char abs[4096];
	const char *s = getenv("FLOE_SHARED");

	if (!abs[0] && !realpath(s && *s ? s : "../shared", abs))
		snprintf(abs, sizeof abs, "%s", s && *s ? s : "../shared");
	return abs;
}

static int
setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/floe-test-lineage-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[512];
	if (getenv("FLOE_KEEP_TMP"))
		return 0;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void
open_env(const char *sub, Catalog **cat, FileIO **io)
{
	char path[512];
	floe_error err;

	snprintf(path, sizeof path, "%s/%s", dir, sub);
	mkdir(path, 0777);
	snprintf(path, sizeof path, "%s/%s/catalog.db", dir, sub);
	if (catalog_sqlite_open(cat, path, "floe", &err) != FLOE_OK)
		fail_msg("catalog: %s", err.message);
	snprintf(path, sizeof path, "%s/%s", dir, sub);
	*io = fileio_local_new(path);
	assert_int_equal(catalog_create_namespace(*cat, "ns", &err), FLOE_OK);
}

static int
run(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void
validate(const char *metadata_path)
{
	char cmd[4096];
	int rc;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/iceberg-validate '%s' > '%s/validate.log' 2>&1",
		 shared(), metadata_path, dir);
	rc = run(cmd);
	if (rc != 0) {
		snprintf(cmd, sizeof cmd, "cat '%s/validate.log'", dir);
		(void)run(cmd);
		fail_msg("iceberg-validate %s exited %d", metadata_path, rc);
	}
}

/*
 * iceberg-validate, except its "missing first-row-id / added-rows (required
 * in v3)" errors for the snapshots committed before a v3 upgrade: the spec
 * ("Row Lineage for Upgraded Tables") says those keep no first-row-id.
 */
static void
validate_upgraded(const char *metadata_path, const int64_t *old, int nold)
{
	char cmd[4096], line[4096];
	FILE *p;
	int bad = 0, i;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/iceberg-validate '%s' 2>&1", shared(),
		 metadata_path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p)) {
		bool excused = false;
		if (strncmp(line, "ERROR", 5) != 0)
			continue;
		for (i = 0; i < nold; i++) {
			char a1[128], a2[128];
			snprintf(a1, sizeof a1, "snapshot %lld: missing first-row-id (required in v3)",
				 (long long)old[i]);
			snprintf(a2, sizeof a2, "snapshot %lld: missing added-rows (required in v3)",
				 (long long)old[i]);
			if (strstr(line, a1) || strstr(line, a2))
				excused = true;
		}
		if (!excused) {
			fprintf(stderr, "%s", line);
			bad++;
		}
	}
	pclose(p);
	if (bad)
		fail_msg("iceberg-validate %s: %d error(s)", metadata_path, bad);
}

static long
icebird_rows(const char *metadata_path)
{
	char cmd[4096], buf[4096];
	FILE *p;
	size_t n;
	char *r;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/iceberg-read '%s' 2>&1", shared(),
		 metadata_path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(buf, 1, sizeof buf - 1, p);
	buf[n] = 0;
	pclose(p);
	r = strstr(buf, "\"rows\":");
	if (!r)
		fail_msg("iceberg-read: %s", buf);
	return strtol(r + 7, NULL, 10);
}

/* A real 3-row Parquet file (Iceberg Java: 1 id long, 2 value string). */
#define SRC_PARQUET "testdata/iceberg-tables/duckdb-iceberg/expression_filter/data/" \
	"00000-0-1406cdaa-c3e4-4e6d-a22b-d85e4a813169-00001.parquet"

static DataFile
put_data_file(FileIO *io, const char *path, Arena *a)
{
	char src[512];
	size_t len;
	char *bytes;
	floe_error err;
	DataFile f;

	snprintf(src, sizeof src, "%s/" SRC_PARQUET, shared());
	bytes = slurp(src, &len);
	assert_non_null(bytes);
	if (fileio_write(io, path, bytes, len, &err) != FLOE_OK)
		fail_msg("write %s: %s", path, err.message);
	free(bytes);
	memset(&f, 0, sizeof f);
	f.content = CONTENT_DATA;
	f.file_path = arena_strdup(a, path);
	f.file_format = "PARQUET";
	f.record_count = 3;
	f.file_size_in_bytes = (int64_t)len;
	return f;
}

static IcebergSchema *
two_column_schema(Arena *a)
{
	IcebergSchema *s = ARENA_NEW(a, IcebergSchema);

	s->nfields = 2;
	s->fields = ARENA_ARRAY(a, IcebergField, 2);
	s->fields[0].name = "id";
	s->fields[0].required = true;
	s->fields[0].type = type_make(TYPE_INT64);
	s->fields[1].name = "value";
	s->fields[1].type = type_make(TYPE_TEXT);
	return s;
}

/* Upgrade to format version 3 as ALTER TABLE ... SET ('format-version' =
 * '3') does (ddl.c): next-row-id starts at 0. */
static Table *
upgrade_v3(Catalog *cat, FileIO *io, Table *t, Arena *a)
{
	TableMetadata *md = metadata_copy(t->md, a);
	floe_error err;
	Table *out;

	md->format_version = 3;
	md->has_next_row_id = true;
	md->next_row_id = 0;
	if (table_commit_metadata(cat, io, t, md, a, &out, &err) != FLOE_OK)
		fail_msg("upgrade: %s", err.message);
	return out;
}

static const DataFile *
find_file(const DataFile *files, int n, const char *path)
{
	int i;
	for (i = 0; i < n; i++)
		if (!strcmp(files[i].file_path, path))
			return &files[i];
	fail_msg("file %s is not live", path);
	return NULL;
}

static void
assert_first_row_id(FileIO *io, Table *t, const char *path, int64_t want)
{
	Arena *a = arena_new(0);
	DataFile *files;
	const DataFile *f;
	floe_error err;
	int n;

	if (table_scan_files(io, t, -1, a, &files, &n, &err) != FLOE_OK)
		fail_msg("scan_files: %s", err.message);
	f = find_file(files, n, path);
	if (want < 0) {
		assert_false(f->has_first_row_id);
	} else {
		if (!f->has_first_row_id)
			fail_msg("%s: no first_row_id (want %lld)", path, (long long)want);
		assert_int_equal(f->first_row_id, want);
	}
	arena_free(a);
}

static void
assert_snapshot_ids(const Table *t, int64_t first, int64_t added, int64_t next)
{
	const Snapshot *s = metadata_current_snapshot(t->md);
	assert_non_null(s);
	assert_true(s->has_first_row_id);
	assert_true(s->has_added_rows);
	assert_int_equal(s->first_row_id, first);
	assert_int_equal(s->added_rows, added);
	assert_true(t->md->has_next_row_id);
	assert_int_equal(t->md->next_row_id, next);
}

/* The spec's "Row lineage example": existing manifest keeps 925; added1
 * (100 added, 25 existing) 1000, added2 (0, 100) 1125, added3 (125, 25)
 * 1225; next-row-id 1375.  Delete manifests get none. */
static void
test_lineage__assignment_example(void **state)
{
	ManifestFile m[5];

	memset(m, 0, sizeof m);
	m[0].has_first_row_id = true;
	m[0].first_row_id = 925;
	m[0].added_rows_count = 75;
	m[1].added_rows_count = 100;
	m[1].existing_rows_count = 25;
	m[2].existing_rows_count = 100;
	m[3].content = 1;                  /* delete manifest in between */
	m[3].added_rows_count = 7;
	m[4].added_rows_count = 125;
	m[4].existing_rows_count = 25;
	assert_int_equal(table_assign_row_ids(1000, m, 5), 1375);
	assert_int_equal(m[0].first_row_id, 925);
	assert_int_equal(m[1].first_row_id, 1000);
	assert_int_equal(m[2].first_row_id, 1125);
	assert_false(m[3].has_first_row_id);
	assert_int_equal(m[4].first_row_id, 1225);
	/* nothing to assign: next-row-id unchanged */
	assert_int_equal(table_assign_row_ids(1375, m, 5), 1375);
}

/* v3 appends and a copy-on-write replace. */
static void
test_lineage__appends_and_replace(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t1, *t2, *t3;
	DataFile f[4];
	const char *rm[1];
	char loc[512], path[600];
	int i;

	open_env("app", &cat, &io);
	snprintf(loc, sizeof loc, "%s/app/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	t = upgrade_v3(cat, io, t, a);
	assert_int_equal(t->md->format_version, 3);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/data/f%d.parquet", loc, i);
		f[i] = put_data_file(io, path, a);
	}
	/* first commit: two files, ids 0..5 */
	if (table_commit_append(cat, io, t, &f[0], 2, NULL, a, &t1, &err) != FLOE_OK)
		fail_msg("append: %s", err.message);
	assert_snapshot_ids(t1, 0, 6, 6);
	assert_first_row_id(io, t1, f[0].file_path, 0);
	assert_first_row_id(io, t1, f[1].file_path, 3);

	/* second commit continues at next-row-id */
	assert_int_equal(table_commit_append(cat, io, t1, &f[2], 1, NULL, a, &t2, &err), FLOE_OK);
	assert_snapshot_ids(t2, 6, 3, 9);
	assert_first_row_id(io, t2, f[0].file_path, 0);
	assert_first_row_id(io, t2, f[1].file_path, 3);
	assert_first_row_id(io, t2, f[2].file_path, 6);

	/* replace f0 by f3: f1 keeps 3 (explicit in its EXISTING entry); the
	 * new manifest (f3) gets 9, the rewritten one 12 with room for its 3
	 * existing rows: next-row-id 15 */
	rm[0] = f[0].file_path;
	if (table_commit_replace(cat, io, t2, rm, 1, false, &f[3], 1, NULL, a, &t3, &err) != FLOE_OK)
		fail_msg("replace: %s", err.message);
	assert_snapshot_ids(t3, 9, 6, 15);
	assert_first_row_id(io, t3, f[1].file_path, 3);
	assert_first_row_id(io, t3, f[2].file_path, 6);
	assert_first_row_id(io, t3, f[3].file_path, 9);
	validate(t3->metadata_location);
	assert_int_equal(icebird_rows(t3->metadata_location), 9);
	/* time travel: the older snapshot still plans f0 at 0 */
	{
		DataFile *files;
		int n;
		assert_int_equal(table_scan_files(io, t3, t1->md->current_snapshot_id, a, &files, &n,
						  &err), FLOE_OK);
		assert_int_equal(find_file(files, n, f[0].file_path)->first_row_id, 0);
	}
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* Two writers append from the same base: the loser re-bases and takes
 * its ids from the winner's next-row-id (spec: "If a commit is retried,
 * the first-row-id must be reassigned"). */
static void
test_lineage__concurrent_appends(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t1, *t2;
	DataFile f[2];
	char loc[512], path[600];
	int i;

	open_env("conc", &cat, &io);
	snprintf(loc, sizeof loc, "%s/conc/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	t = upgrade_v3(cat, io, t, a);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/data/f%d.parquet", loc, i);
		f[i] = put_data_file(io, path, a);
	}
	assert_int_equal(table_commit_append(cat, io, t, &f[0], 1, NULL, a, &t1, &err), FLOE_OK);
	assert_snapshot_ids(t1, 0, 3, 3);
	/* t is stale now */
	if (table_commit_append(cat, io, t, &f[1], 1, NULL, a, &t2, &err) != FLOE_OK)
		fail_msg("re-based append: %s", err.message);
	assert_snapshot_ids(t2, 3, 3, 6);
	assert_first_row_id(io, t2, f[0].file_path, 0);
	assert_first_row_id(io, t2, f[1].file_path, 3);
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* v2 -> v3: the v2 snapshot has no row ids; the first v3 commit assigns
 * them to the new file (its manifest first) and to the old ones. */
static void
test_lineage__upgrade(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t1, *t2, *t3, *t4;
	int64_t old_snap;
	DataFile f[3];
	char loc[512], path[600];
	int i;

	open_env("upg", &cat, &io);
	snprintf(loc, sizeof loc, "%s/upg/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/data/f%d.parquet", loc, i);
		f[i] = put_data_file(io, path, a);
	}
	assert_int_equal(table_commit_append(cat, io, t, &f[0], 2, NULL, a, &t1, &err), FLOE_OK);
	assert_false(metadata_current_snapshot(t1->md)->has_first_row_id);
	assert_first_row_id(io, t1, f[0].file_path, -1);
	t2 = upgrade_v3(cat, io, t1, a);
	old_snap = t1->md->current_snapshot_id;
	/* upgraded, no new snapshot yet: still no row ids */
	assert_first_row_id(io, t2, f[0].file_path, -1);
	assert_int_equal(table_commit_append(cat, io, t2, &f[2], 1, NULL, a, &t3, &err), FLOE_OK);
	/* new manifest (f2: 3 rows) 0, the v2 manifest 3 (6 rows): next 9 */
	assert_snapshot_ids(t3, 0, 9, 9);
	assert_first_row_id(io, t3, f[2].file_path, 0);
	assert_first_row_id(io, t3, f[0].file_path, 3);
	assert_first_row_id(io, t3, f[1].file_path, 6);
	validate_upgraded(t3->metadata_location, &old_snap, 1);
	assert_int_equal(icebird_rows(t3->metadata_location), 9);
	/* an empty-handed next commit (TRUNCATE): first-row-id still set */
	assert_int_equal(table_commit_replace(cat, io, t3, NULL, 0, true, NULL, 0, NULL, a, &t4, &err),
			 FLOE_OK);
	assert_snapshot_ids(t4, 9, 0, 9);
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* Spark 4.0 / Iceberg 1.10.1 (testdata impala iceberg_v3_row_lineage, v5):
 * the compacted file's manifest has first_row_id 3 (its rows carry their
 * ids in the file); the manifests of DELETED entries 6. */
static void
test_lineage__spark_table(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t;
	DataFile *files;
	char mdpath[1200], map_to[1024];
	int n;

	open_env("spark", &cat, &io);
	snprintf(map_to, sizeof map_to, "%s/testdata/iceberg-tables/impala/iceberg_v3/iceberg_v3_row_lineage",
		 shared());
	fileio_map_prefix(io, "hdfs://localhost:20500/test-warehouse/iceberg_v3_row_lineage", map_to);
	snprintf(mdpath, sizeof mdpath, "%s/metadata/v5.metadata.json", map_to);
	if (table_register(cat, io, "ns", "rl", mdpath, &err) != FLOE_OK)
		fail_msg("register: %s", err.message);
	assert_int_equal(table_load(cat, io, "ns", "rl", a, &t, &err), FLOE_OK);
	assert_int_equal(t->md->next_row_id, 6);
	assert_int_equal(table_scan_files(io, t, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 1);
	assert_true(files[0].has_first_row_id);
	assert_int_equal(files[0].first_row_id, 3);
	/* compaction keeps the data sequence number it started from */
	assert_int_equal(files[0].data_sequence_number, 3);
	/* the third append's snapshot: its file inherits 2 (manifest list) */
	assert_int_equal(table_scan_files(io, t, 2872597867664652808LL, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 3);
	{
		int i, seen = 0;
		for (i = 0; i < n; i++) {
			assert_true(files[i].has_first_row_id);
			assert_int_equal(files[i].first_row_id, files[i].data_sequence_number - 1);
			seen |= 1 << files[i].first_row_id;
		}
		assert_int_equal(seen, 7);
	}
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* The writers' schema: the table's fields, then _row_id and
 * _last_updated_sequence_number (optional long, reserved ids); a file
 * written with it commits, and the table schema does not change. */
static void
test_lineage__writer_schema(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t1;
	const IcebergSchema *ts;
	IcebergSchema *ls;
	DataWriter *w;
	DataFile *out;
	Batch *b;
	SqlType types[4];
	char loc[512], ddir[600];
	int nout, i;

	open_env("ws", &cat, &io);
	snprintf(loc, sizeof loc, "%s/ws/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	t = upgrade_v3(cat, io, t, a);
	ts = metadata_current_schema(t->md);
	ls = table_lineage_schema(ts, a);
	assert_int_equal(ls->nfields, ts->nfields + 2);
	assert_int_equal(ts->nfields, 2);
	assert_int_equal(ls->fields[0].id, ts->fields[0].id);
	assert_int_equal(ls->fields[2].id, ICEBERG_FIELD_ROW_ID);
	assert_string_equal(ls->fields[2].name, "_row_id");
	assert_int_equal(ls->fields[3].id, ICEBERG_FIELD_LAST_UPDATED_SEQ);
	assert_string_equal(ls->fields[3].name, "_last_updated_sequence_number");
	for (i = 2; i < 4; i++) {
		assert_false(ls->fields[i].required);
		assert_int_equal(ls->fields[i].type.id, TYPE_INT64);
		assert_string_equal(ls->fields[i].iceberg_type, "long");
	}
	/* rows: a kept row (7, 3), an updated row (8, NULL), an inserted one */
	for (i = 0; i < 4; i++)
		types[i] = ls->fields[i].type;
	b = batch_new(a, 4, types, 3);
	for (i = 0; i < 3; i++) {
		Value v = value_int(TYPE_INT64, 100 + i);
		vector_set_value(&b->cols[0], (uint32_t)i, &v);
		v.type = type_make(TYPE_TEXT);
		v.u.s = strview_make("x", 1);
		vector_set_value(&b->cols[1], (uint32_t)i, &v);
	}
	{
		Value v = value_int(TYPE_INT64, 7);
		vector_set_value(&b->cols[2], 0, &v);
		v = value_int(TYPE_INT64, 8);
		vector_set_value(&b->cols[2], 1, &v);
		vector_set_null(&b->cols[2], 2);
		v = value_int(TYPE_INT64, 3);
		vector_set_value(&b->cols[3], 0, &v);
		vector_set_null(&b->cols[3], 1);
		vector_set_null(&b->cols[3], 2);
	}
	b->count = 3;
	snprintf(ddir, sizeof ddir, "%s/data", loc);
	w = data_writer_new(io, ddir, ls, 0, a);
	if (data_writer_write(w, b, &err) != FLOE_OK || data_writer_finish(w, &out, &nout, &err) != FLOE_OK)
		fail_msg("write: %s", err.message);
	data_writer_free(w);
	assert_int_equal(nout, 1);
	if (table_commit_append(cat, io, t, out, nout, NULL, a, &t1, &err) != FLOE_OK)
		fail_msg("commit: %s", err.message);
	assert_int_equal(metadata_current_schema(t1->md)->nfields, 2);
	assert_snapshot_ids(t1, 0, 3, 3);
	assert_first_row_id(io, t1, out[0].file_path, 0);
	assert_int_equal(icebird_rows(t1->metadata_location), 3);
	/* DuckDB and hyparquet read the file, reserved columns included */
	{
		char cmd[4096];
		snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-check '%s' --quiet --expect-rows 3 "
			 "> '%s/pc.log' 2>&1", shared(), out[0].file_path, dir);
		if (run(cmd) != 0) {
			snprintf(cmd, sizeof cmd, "cat '%s/pc.log'", dir);
			(void)run(cmd);
			fail_msg("parquet-check %s", out[0].file_path);
		}
		snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-dump '%s' --no-header > '%s/pd.csv' 2>&1",
			 shared(), out[0].file_path, dir);
		assert_int_equal(run(cmd), 0);
		snprintf(cmd, sizeof cmd, "grep -qx '100,x,7,3' '%s/pd.csv' && grep -qx '101,x,8,' '%s/pd.csv' && "
			 "grep -qx '102,x,,' '%s/pd.csv'", dir, dir, dir);
		if (run(cmd) != 0) {
			snprintf(cmd, sizeof cmd, "cat '%s/pd.csv'", dir);
			(void)run(cmd);
			fail_msg("parquet-dump rows differ");
		}
	}
	/* (iceberg-validate reports the reserved columns as "not in the table
	 * schema"; it does so for Spark's own lineage table too) */
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lineage__assignment_example),
		cmocka_unit_test(test_lineage__appends_and_replace),
		cmocka_unit_test(test_lineage__concurrent_appends),
		cmocka_unit_test(test_lineage__upgrade),
		cmocka_unit_test(test_lineage__spark_table),
		cmocka_unit_test(test_lineage__writer_schema),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
