/*
 * test_table.c — table operations against real files and independent
 * readers:
 *   - create -> append twice (data files: a real Parquet file written by
 *     Iceberg Java, copied in) -> load -> scan_files; every metadata file
 *     written passes ../shared/tools/interop/bin/iceberg-validate and
 *     iceberg-read (icebird) reads the expected row count;
 *   - floe column facts (pg types, defaults) survive create -> load;
 *   - a commit that loses the catalog race re-bases and retries, leaving
 *     no stray files;
 *   - every table of ../shared/testdata/iceberg-tables registers (prefix
 *     maps taken from its MANIFEST.md) and, for every metadata file and
 *     snapshot without delete files, scan_files lists as many files and
 *     rows as expected/<table>.expected.json says; snapshots with delete
 *     files list as many data files, with the deletes attached (rows are
 *     the interop suite's), snapshots whose files are missing fail cleanly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/manifest.h"
#include "table/table.h"

static char dir[256];

static int count_files(const char *path);

/* Absolute: the FileIOs here have their own roots. */
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
	snprintf(dir, sizeof dir, "/tmp/floe-test-table-XXXXXX");
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
validate_map(const char *metadata_path, const char *extra)
{
	char cmd[4096];
	int rc;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/iceberg-validate '%s' %s > '%s/validate.log' 2>&1",
		 shared(), metadata_path, extra, dir);
	rc = run(cmd);
	if (rc != 0) {
		snprintf(cmd, sizeof cmd, "cat '%s/validate.log'", dir);
		(void)run(cmd);
		fail_msg("iceberg-validate %s exited %d", metadata_path, rc);
	}
}

static void
validate(const char *metadata_path)
{
	validate_map(metadata_path, "");
}

/* Row count icebird reads from the table (iceberg-read). */
static long
icebird_rows_map(const char *metadata_path, const char *extra)
{
	char cmd[4096], buf[4096];
	FILE *p;
	size_t n;
	char *r;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/iceberg-read '%s' %s 2>&1", shared(),
		 metadata_path, extra);
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

static long
icebird_rows(const char *metadata_path)
{
	return icebird_rows_map(metadata_path, "");
}

/* The Parquet file of duckdb-iceberg/expression_filter (Iceberg Java 1.9.2,
 * field ids 1 id long required, 2 value string; 3 rows). */
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

static int64_t
sum_rows(const DataFile *f, int n)
{
	int64_t s = 0;
	int i;
	for (i = 0; i < n; i++)
		s += f[i].record_count;
	return s;
}

static void
test_table__create_append_scan(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t1, *t2, *l;
	DataFile f[3], *files;
	int n;
	char loc[512], path[600];
	const char *keys[] = { "owner" }, *vals[] = { "floe-test" };

	open_env("cas", &cat, &io);
	snprintf(loc, sizeof loc, "%s/cas/wh/ns/t", dir);
	if (table_create(cat, io, loc, "ns", "t", two_column_schema(a), keys, vals, 1, a, &t,
			 &err) != FLOE_OK)
		fail_msg("create: %s", err.message);
	assert_int_equal(t->md->format_version, 2);
	assert_int_equal(t->md->last_column_id, 2);
	assert_int_equal(metadata_current_schema(t->md)->fields[0].id, 1);
	assert_int_equal(metadata_current_schema(t->md)->fields[1].id, 2);
	assert_string_equal(metadata_current_schema(t->md)->fields[0].iceberg_type, "long");
	assert_string_equal(metadata_property(t->md, "owner"), "floe-test");
	assert_non_null(strstr(t->metadata_location, "/metadata/00000-"));
	assert_null(metadata_current_snapshot(t->md));
	assert_int_equal(table_scan_files(io, t, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 0);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &l, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P07");

	/* n == 0: no commit */
	assert_int_equal(table_commit_append(cat, io, t, NULL, 0, NULL, a, &t1, &err), FLOE_OK);
	assert_ptr_equal(t1, t);

	snprintf(path, sizeof path, "%s/data/a.parquet", loc);
	f[0] = put_data_file(io, path, a);
	if (table_commit_append(cat, io, t, f, 1, "job-1", a, &t1, &err) != FLOE_OK)
		fail_msg("append 1: %s", err.message);
	assert_non_null(strstr(t1->metadata_location, "/metadata/00001-"));
	assert_int_equal(t1->md->last_sequence_number, 1);
	assert_string_equal(metadata_summary_get(metadata_current_snapshot(t1->md), "floe.job-id"),
			    "job-1");
	assert_string_equal(metadata_current_snapshot(t1->md)->operation, "append");
	validate(t1->metadata_location);

	snprintf(path, sizeof path, "%s/data/b.parquet", loc);
	f[1] = put_data_file(io, path, a);
	snprintf(path, sizeof path, "%s/data/c.parquet", loc);
	f[2] = put_data_file(io, path, a);
	if (table_commit_append(cat, io, t1, f + 1, 2, NULL, a, &t2, &err) != FLOE_OK)
		fail_msg("append 2: %s", err.message);
	assert_int_equal(t2->md->last_sequence_number, 2);
	assert_int_equal(t2->md->nsnapshots, 2);
	assert_int_equal(t2->md->nsnapshot_log, 2);
	assert_int_equal(t2->md->nmetadata_log, 2);
	assert_string_equal(metadata_summary_get(metadata_current_snapshot(t2->md), "total-records"), "9");
	assert_string_equal(metadata_summary_get(metadata_current_snapshot(t2->md), "total-data-files"), "3");
	validate(t2->metadata_location);
	assert_int_equal(icebird_rows(t2->metadata_location), 9);

	/* load sees the last commit; scan lists all three files */
	if (table_load(cat, io, "ns", "t", a, &l, &err) != FLOE_OK)
		fail_msg("load: %s", err.message);
	assert_string_equal(l->metadata_location, t2->metadata_location);
	assert_int_equal(table_scan_files(io, l, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 3);
	assert_int_equal(sum_rows(files, n), 9);
	/* time travel to the first snapshot */
	assert_int_equal(table_scan_files(io, l, l->md->snapshots[0].snapshot_id, a, &files, &n,
					  &err), FLOE_OK);
	assert_int_equal(n, 1);
	assert_string_equal(files[0].file_path, f[0].file_path);
	assert_int_equal(table_scan_files(io, l, 12345, a, &files, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42704");

	/* missing table */
	assert_int_equal(table_load(cat, io, "ns", "nope", a, &l, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");

	/* drop with purge removes the files under the location */
	assert_int_equal(table_drop(cat, io, "ns", "t", true, &err), FLOE_OK);
	assert_false(fileio_exists(io, f[0].file_path));
	assert_false(fileio_exists(io, t2->metadata_location));
	assert_false(fileio_exists(io, t->metadata_location));
	assert_int_equal(table_load(cat, io, "ns", "t", a, &l, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");
	assert_int_equal(table_drop(cat, io, "ns", "t", false, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");

	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* A commit that fails for a reason other than a lost race (here: the table
 * was dropped meanwhile) returns that error and leaves no files behind. */
static void
test_table__failed_commit_cleans_up(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t2;
	DataFile f;
	char loc[512], path[600];
	int before;

	open_env("fail", &cat, &io);
	snprintf(loc, sizeof loc, "%s/fail/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	assert_string_equal(table_data_dir(t, a), arena_sprintf(a, "%s/data", loc));
	snprintf(path, sizeof path, "%s/data/a.parquet", loc);
	f = put_data_file(io, path, a);
	snprintf(path, sizeof path, "%s/metadata", loc);
	before = count_files(path);
	assert_int_equal(table_drop(cat, io, "ns", "t", false, &err), FLOE_OK);
	assert_int_equal(table_commit_append(cat, io, t, &f, 1, NULL, a, &t2, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");
	assert_int_equal(count_files(path), before);
	/* a data file of the wrong kind is refused before anything is written */
	assert_int_equal(table_register(cat, io, "ns", "t", t->metadata_location, &err), FLOE_OK);
	f.content = CONTENT_POSITION_DELETES;
	assert_int_equal(table_commit_append(cat, io, t, &f, 1, NULL, a, &t2, &err), FLOE_ERR);
	assert_int_equal(count_files(path), before);
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

static bool
has_file(const DataFile *files, int n, const char *path)
{
	int i;
	for (i = 0; i < n; i++)
		if (strcmp(files[i].file_path, path) == 0)
			return true;
	return false;
}

/* Copy-on-write commits: overwrite (remove + add), delete, truncate; each
 * result passes iceberg-validate and icebird reads the right row count. */
static void
test_table__replace(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t1, *t2, *t3, *t4, *t5, *t6;
	DataFile f[4], *files;
	const char *rm[2];
	char loc[512], path[600];
	int n, i;

	open_env("replace", &cat, &io);
	snprintf(loc, sizeof loc, "%s/replace/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof path, "%s/data/f%d.parquet", loc, i);
		f[i] = put_data_file(io, path, a);
	}
	assert_int_equal(table_commit_append(cat, io, t, &f[0], 1, NULL, a, &t1, &err), FLOE_OK);
	assert_int_equal(table_commit_append(cat, io, t1, &f[1], 1, NULL, a, &t2, &err), FLOE_OK);

	/* UPDATE-like: f0 replaced by f2 */
	rm[0] = f[0].file_path;
	if (table_commit_replace(cat, io, t2, rm, 1, false, &f[2], 1, "upd", a, &t3, &err) != FLOE_OK)
		fail_msg("overwrite: %s", err.message);
	assert_string_equal(metadata_current_snapshot(t3->md)->operation, "overwrite");
	assert_string_equal(metadata_summary_get(metadata_current_snapshot(t3->md), "deleted-data-files"), "1");
	assert_string_equal(metadata_summary_get(metadata_current_snapshot(t3->md), "total-records"), "6");
	assert_int_equal(table_scan_files(io, t3, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 2);
	assert_true(has_file(files, n, f[1].file_path));
	assert_true(has_file(files, n, f[2].file_path));
	validate(t3->metadata_location);
	assert_int_equal(icebird_rows(t3->metadata_location), 6);
	/* the older snapshot still sees f0 (time travel) */
	assert_int_equal(table_scan_files(io, t3, t2->md->current_snapshot_id, a, &files, &n, &err), FLOE_OK);
	assert_true(has_file(files, n, f[0].file_path));

	/* a stale writer removing f0 again: 40001, no retries needed */
	if (table_commit_replace(cat, io, t2, rm, 1, false, NULL, 0, NULL, a, &t4, &err) == FLOE_OK)
		fail_msg("removing a file that is gone must fail");
	assert_string_equal(err.sqlstate, "40001");
	/* a stale writer removing f1 (still live): re-based onto t3, succeeds */
	rm[0] = f[1].file_path;
	if (table_commit_replace(cat, io, t2, rm, 1, false, NULL, 0, NULL, a, &t4, &err) != FLOE_OK)
		fail_msg("delete: %s", err.message);
	assert_string_equal(metadata_current_snapshot(t4->md)->operation, "delete");
	assert_int_equal(table_scan_files(io, t4, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 1);
	assert_string_equal(files[0].file_path, f[2].file_path);
	validate(t4->metadata_location);

	/* TRUNCATE, then INSERT again */
	assert_int_equal(table_commit_replace(cat, io, t4, NULL, 0, true, NULL, 0, NULL, a, &t5, &err),
			 FLOE_OK);
	assert_int_equal(table_scan_files(io, t5, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 0);
	assert_string_equal(metadata_summary_get(metadata_current_snapshot(t5->md), "total-records"), "0");
	validate(t5->metadata_location);
	/* (icebird 0.3.1 refuses a snapshot without live data manifests) */
	assert_int_equal(table_commit_replace(cat, io, t5, NULL, 0, true, &f[3], 1, NULL, a, &t6, &err),
			 FLOE_OK);
	assert_int_equal(table_scan_files(io, t6, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 1);
	validate(t6->metadata_location);
	assert_int_equal(icebird_rows(t6->metadata_location), 3);
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* Loads of one metadata location share one parse; each caller's arena
 * holds a reference, so freeing one arena leaves the others valid. */
static void
test_table__metadata_cache(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0), *a1 = arena_new(0), *a2 = arena_new(0);
	floe_error err;
	Table *t, *l1, *l2;
	uint64_t h0, m0, h1, m1;
	char loc[512];
	int i;

	open_env("cache", &cat, &io);
	snprintf(loc, sizeof loc, "%s/cache/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	table_metadata_cache_stats(&h0, &m0);
	assert_int_equal(table_load(cat, io, "ns", "t", a1, &l1, &err), FLOE_OK);
	assert_int_equal(table_load(cat, io, "ns", "t", a2, &l2, &err), FLOE_OK);
	table_metadata_cache_stats(&h1, &m1);
	assert_true(h1 - h0 >= 1);
	assert_ptr_equal(l1->md, l2->md);
	arena_free(a1);
	assert_string_equal(metadata_current_schema(l2->md)->fields[1].name, "value");
	/* more distinct files than cache slots: entries in use are kept */
	for (i = 0; i < 70; i++) {
		Table *x;
		char name[32];
		snprintf(name, sizeof name, "t%d", i);
		assert_int_equal(table_register(cat, io, "ns", name, t->metadata_location, &err), FLOE_OK);
		assert_int_equal(table_load(cat, io, "ns", name, a2, &x, &err), FLOE_OK);
		assert_ptr_equal(x->md, l2->md);
	}
	assert_string_equal(metadata_current_schema(l2->md)->fields[0].name, "id");
	arena_free(a2);
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* Repeated plans of one snapshot share one cached plan: each caller gets
 * its own DataFile array over shared, read-only contents that stay valid
 * while any caller's arena holds them; another snapshot is another entry. */
static void
test_table__scan_cache(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0), *a1 = arena_new(0), *a2 = arena_new(0);
	floe_error err;
	Table *t, *t1, *t2;
	DataFile f[2], *x1, *x2, *x3;
	uint64_t h0, m0, h1, m1;
	int n1, n2, n3;
	char loc[512], path[600];

	open_env("scancache", &cat, &io);
	snprintf(loc, sizeof loc, "%s/scancache/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	snprintf(path, sizeof path, "%s/data/a.parquet", loc);
	f[0] = put_data_file(io, path, a);
	snprintf(path, sizeof path, "%s/data/b.parquet", loc);
	f[1] = put_data_file(io, path, a);
	assert_int_equal(table_commit_append(cat, io, t, f, 1, NULL, a, &t1, &err), FLOE_OK);
	assert_int_equal(table_commit_append(cat, io, t1, f + 1, 1, NULL, a, &t2, &err), FLOE_OK);

	table_scan_cache_stats(&h0, &m0);
	assert_int_equal(table_scan_files(io, t2, -1, a1, &x1, &n1, &err), FLOE_OK);
	assert_int_equal(table_scan_files(io, t2, -1, a2, &x2, &n2, &err), FLOE_OK);
	table_scan_cache_stats(&h1, &m1);
	assert_int_equal(n1, 2);
	assert_int_equal(n2, 2);
	assert_true(h1 - h0 >= 1);
	assert_true(x1 != x2);                                  /* own arrays */
	assert_ptr_equal(x1[0].file_path, x2[0].file_path);     /* shared contents */
	x1[0].record_count = -1;
	assert_int_equal(x2[0].record_count, 3);
	arena_free(a1);
	assert_non_null(strstr(x2[0].file_path, ".parquet"));
	assert_non_null(strstr(x2[1].file_path, ".parquet"));
	/* the first snapshot: its own plan */
	assert_int_equal(table_scan_files(io, t2, t1->md->current_snapshot_id, a2, &x3, &n3, &err),
			 FLOE_OK);
	assert_int_equal(n3, 1);
	assert_string_equal(x3[0].file_path, f[0].file_path);
	arena_free(a2);
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

static int
count_files(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* Two writers start from the same head; the second one's CAS fails, it
 * re-bases, and both appends end up in the table. */
static void
test_table__concurrent_append(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *ta, *tb, *ra, *rb, *l;
	DataFile fa, fb, *files;
	int n;
	char loc[512], path[600];

	open_env("conc", &cat, &io);
	snprintf(loc, sizeof loc, "%s/conc/wh/ns/t", dir);
	assert_int_equal(table_create(cat, io, loc, "ns", "t", two_column_schema(a), NULL, NULL, 0,
				      a, &t, &err), FLOE_OK);
	assert_int_equal(table_load(cat, io, "ns", "t", a, &ta, &err), FLOE_OK);
	assert_int_equal(table_load(cat, io, "ns", "t", a, &tb, &err), FLOE_OK);
	snprintf(path, sizeof path, "%s/data/a.parquet", loc);
	fa = put_data_file(io, path, a);
	snprintf(path, sizeof path, "%s/data/b.parquet", loc);
	fb = put_data_file(io, path, a);
	assert_int_equal(table_commit_append(cat, io, ta, &fa, 1, "a", a, &ra, &err), FLOE_OK);
	if (table_commit_append(cat, io, tb, &fb, 1, "b", a, &rb, &err) != FLOE_OK)
		fail_msg("re-based append: %s", err.message);
	assert_int_equal(rb->md->nsnapshots, 2);
	assert_int_equal(rb->md->last_sequence_number, 2);
	assert_true(rb->md->snapshots[1].parent_snapshot_id == ra->md->current_snapshot_id);
	assert_non_null(strstr(rb->metadata_location, "/metadata/00002-"));
	assert_int_equal(table_load(cat, io, "ns", "t", a, &l, &err), FLOE_OK);
	assert_string_equal(l->metadata_location, rb->metadata_location);
	assert_int_equal(table_scan_files(io, l, -1, a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 2);
	/* metadata folder: 3 metadata files + 2 x (manifest + list); the failed
	 * attempt's three files were removed */
	snprintf(path, sizeof path, "%s/metadata", loc);
	assert_int_equal(count_files(path), 7);
	validate(l->metadata_location);
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* floe-only column facts round-trip through table properties. */
static void
test_table__floe_column_properties(void **state)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	IcebergSchema s;
	IcebergField f[6];
	Table *t, *l;
	const IcebergSchema *ls;
	SqlType ch = type_make(TYPE_TEXT);

	memset(&s, 0, sizeof s);
	memset(f, 0, sizeof f);
	ch.text_kind = TEXT_CHAR;
	ch.typmod = 3;
	f[0].name = "a"; f[0].type = type_make(TYPE_INT16); f[0].default_sql = "7";
	f[1].name = "b"; f[1].type = type_varchar(10);
	f[2].name = "c"; f[2].type = ch;
	f[3].name = "d"; f[3].type = type_decimal(0, 0);
	f[4].name = "e"; f[4].type = type_decimal(12, 2); f[4].default_sql = "now()";
	f[5].name = "g"; f[5].type = type_make(TYPE_TIMESTAMPTZ);
	s.nfields = 6;
	s.fields = f;
	open_env("props", &cat, &io);
	if (table_create(cat, io, NULL, "ns", "p", &s, NULL, NULL, 0, a, &t, &err) != FLOE_OK)
		fail_msg("create: %s", err.message);
	assert_true(t->md->location[0] == '/');
	assert_int_equal(table_load(cat, io, "ns", "p", a, &l, &err), FLOE_OK);
	ls = metadata_current_schema(l->md);
	assert_int_equal(ls->nfields, 6);
	assert_string_equal(ls->fields[0].iceberg_type, "int");
	assert_int_equal(ls->fields[0].type.id, TYPE_INT16);
	assert_string_equal(ls->fields[0].default_sql, "7");
	assert_string_equal(ls->fields[1].iceberg_type, "string");
	assert_true(type_equal(ls->fields[1].type, type_varchar(10)));
	assert_true(type_equal(ls->fields[2].type, ch));
	assert_string_equal(ls->fields[3].iceberg_type, "decimal(38,10)");
	assert_int_equal(ls->fields[3].type.id, TYPE_DECIMAL);
	assert_int_equal(ls->fields[3].type.precision, 0);
	assert_string_equal(ls->fields[4].iceberg_type, "decimal(12,2)");
	assert_true(type_equal(ls->fields[4].type, type_decimal(12, 2)));
	assert_string_equal(ls->fields[4].default_sql, "now()");
	assert_null(ls->fields[5].default_sql);
	assert_string_equal(metadata_property(l->md, "floe.column.1.pg-type"), "smallint");
	assert_string_equal(metadata_property(l->md, "floe.column.2.pg-type"),
			    "character varying(10)");
	assert_null(metadata_property(l->md, "floe.column.5.pg-type"));
	validate(l->metadata_location);

	/* schema evolution + property change through table_commit_metadata */
	{
		TableMetadata *md = metadata_copy(l->md, a);
		IcebergSchema ns = *metadata_current_schema(l->md);
		Table *l2, *l3;
		ns.schema_id = 1;
		ns.fields = ARENA_ARRAY(a, IcebergField, ns.nfields + 1);
		memcpy(ns.fields, ls->fields, sizeof(IcebergField) * (size_t)ls->nfields);
		ns.fields[ns.nfields].id = 7;
		ns.fields[ns.nfields].name = "added";
		ns.fields[ns.nfields].type = type_make(TYPE_INT64);
		ns.fields[ns.nfields].iceberg_type = "long";
		ns.nfields++;
		metadata_add_schema(md, &ns, a);
		metadata_set_property(md, "floe.column.7.default", "42", a);
		metadata_set_property(md, "floe.column.1.default", NULL, a);
		if (table_commit_metadata(cat, io, l, md, a, &l2, &err) != FLOE_OK)
			fail_msg("commit metadata: %s", err.message);
		assert_int_equal(table_load(cat, io, "ns", "p", a, &l3, &err), FLOE_OK);
		assert_string_equal(l3->metadata_location, l2->metadata_location);
		assert_int_equal(l3->md->nschemas, 2);
		assert_int_equal(l3->md->last_column_id, 7);
		assert_int_equal(metadata_current_schema(l3->md)->nfields, 7);
		assert_string_equal(metadata_current_schema(l3->md)->fields[6].default_sql, "42");
		assert_null(metadata_current_schema(l3->md)->fields[0].default_sql);
		assert_int_equal(metadata_current_schema(l3->md)->fields[0].type.id, TYPE_INT16);
		assert_int_equal(l3->md->nmetadata_log, 1);
		validate(l3->metadata_location);
		/* a stale base loses: 40001 */
		md = metadata_copy(l->md, a);
		metadata_set_property(md, "x", "y", a);
		assert_int_equal(table_commit_metadata(cat, io, l, md, a, &l2, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "40001");
	}

	/* a type Iceberg cannot hold */
	f[5].type = type_make(TYPE_INTERVAL);
	assert_int_equal(table_create(cat, io, NULL, "ns", "q", &s, NULL, NULL, 0, a, &t, &err),
			 FLOE_ERR);
	assert_string_equal(err.sqlstate, "0A000");
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

/* Append to a copy of a table another engine wrote: its manifests are
 * carried forward, the result passes iceberg-validate and icebird reads
 * one more file's rows. */
static void
append_foreign(const char *sub, const char *prefix, const char *mdfile, const char *name)
{
	Catalog *cat;
	FileIO *io;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t, *t2;
	DataFile *files, *files2, f;
	const uint8_t *bytes;
	size_t len;
	int n, n2;
	int64_t rows;
	char copy[512], cmd[4096], mdpath[1200], map[2048], env[64];

	snprintf(env, sizeof env, "foreign-%s", name);
	open_env(env, &cat, &io);
	snprintf(copy, sizeof copy, "%s/%s/%s", dir, env, name);
	snprintf(cmd, sizeof cmd, "cp -r '%s/testdata/iceberg-tables/%s' '%s' && chmod -R u+w '%s'",
		 shared(), sub, copy, copy);
	assert_int_equal(run(cmd), 0);
	fileio_map_prefix(io, prefix, copy);
	snprintf(mdpath, sizeof mdpath, "%s/metadata/%s", copy, mdfile);
	if (table_register(cat, io, "ns", name, mdpath, &err) != FLOE_OK)
		fail_msg("register %s: %s", mdpath, err.message);
	assert_int_equal(table_load(cat, io, "ns", name, a, &t, &err), FLOE_OK);
	assert_int_equal(table_scan_files(io, t, -1, a, &files, &n, &err), FLOE_OK);
	assert_true(n > 0);
	rows = sum_rows(files, n);

	/* a second copy of the first data file, under a new name */
	f = files[0];
	f.file_path = arena_sprintf(a, "%s/data/floe-appended.parquet", t->md->location);
	assert_int_equal(fileio_read(io, files[0].file_path, a, &bytes, &len, &err), FLOE_OK);
	assert_int_equal(fileio_write(io, f.file_path, bytes, len, &err), FLOE_OK);
	if (table_commit_append(cat, io, t, &f, 1, "foreign", a, &t2, &err) != FLOE_OK)
		fail_msg("append to %s: %s", name, err.message);
	assert_int_equal(t2->md->format_version, t->md->format_version);
	assert_int_equal(table_scan_files(io, t2, -1, a, &files2, &n2, &err), FLOE_OK);
	assert_int_equal(n2, n + 1);
	assert_int_equal(sum_rows(files2, n2), rows + f.record_count);
	/* the appended file's partition tuple reads back as given */
	{
		int i, k, found = 0;
		for (i = 0; i < n2; i++) {
			if (strcmp(files2[i].file_path, f.file_path) != 0)
				continue;
			found++;
			assert_int_equal(files2[i].npartition, f.npartition);
			assert_int_equal(files2[i].spec_id, files[0].spec_id);
			for (k = 0; k < f.npartition; k++) {
				assert_int_equal(files2[i].partition[k].is_null, f.partition[k].is_null);
				if (!f.partition[k].is_null && f.partition[k].type.id != TYPE_TEXT)
					assert_true(files2[i].partition[k].u.i == f.partition[k].u.i);
			}
		}
		assert_int_equal(found, 1);
	}
	/* the new manifest's partition summary bounds the appended tuple */
	if (f.npartition > 0) {
		const uint8_t *ld;
		size_t llen;
		ManifestFile *mf;
		int nmf;
		const Snapshot *cs = metadata_current_snapshot(t2->md);
		assert_int_equal(fileio_read(io, cs->manifest_list, a, &ld, &llen, &err), FLOE_OK);
		assert_int_equal(manifest_list_read(ld, llen, cs->manifest_list, a, &mf, &nmf, &err), FLOE_OK);
		assert_true(mf[0].added_snapshot_id == cs->snapshot_id);
		assert_int_equal(mf[0].npartitions, f.npartition);
		if (!f.partition[0].is_null && f.partition[0].type.id != TYPE_TEXT) {
			int32_t day;
			assert_non_null(mf[0].partitions[0].lower);
			assert_int_equal(mf[0].partitions[0].lower_len, 4);
			memcpy(&day, mf[0].partitions[0].lower, 4);
			assert_int_equal(day, f.partition[0].u.i);
			assert_memory_equal(mf[0].partitions[0].lower, mf[0].partitions[0].upper, 4);
		}
	}
	assert_string_equal(metadata_summary_get(metadata_current_snapshot(t2->md), "total-records"),
			    arena_sprintf(a, "%lld", (long long)(rows + f.record_count)));
	snprintf(map, sizeof map, "--map '%s=%s'", prefix, copy);
	validate_map(fileio_resolve(io, t2->metadata_location, a), map);
	assert_int_equal(icebird_rows_map(fileio_resolve(io, t2->metadata_location, a), map),
			 rows + f.record_count);

	/* copy-on-write delete of one of the other engine's files */
	{
		Table *t3;
		const char *rm[1];
		DataFile *files3;
		int n3;
		rm[0] = files[0].file_path;
		if (table_commit_replace(cat, io, t2, rm, 1, false, NULL, 0, NULL, a, &t3, &err) != FLOE_OK)
			fail_msg("delete from %s: %s", name, err.message);
		assert_int_equal(table_scan_files(io, t3, -1, a, &files3, &n3, &err), FLOE_OK);
		assert_int_equal(n3, n);
		assert_int_equal(sum_rows(files3, n3), rows);
		validate_map(fileio_resolve(io, t3->metadata_location, a), map);
		/* icebird 0.3.1 throws on v1 manifests with EXISTING/DELETED entries
		 * (it wants a file_sequence_number, which v1 does not have) */
		if (n3 > 0 && rows > 0 && t3->md->format_version >= 2)
			assert_int_equal(icebird_rows_map(fileio_resolve(io, t3->metadata_location, a), map),
					 rows);
	}
	catalog_close(cat);
	fileio_free(io);
	arena_free(a);
}

static void
test_table__append_to_foreign_tables(void **state)
{
	/* v2, Iceberg Java 1.9.2, relative locations */
	append_foreign("duckdb-iceberg/expression_filter", "data/persistent/expression_filter",
		       "00001-19739cda-f528-4429-84cc-377ffdd24c75.metadata.json", "ef");
	/* v3, Impala (row lineage) */
	append_foreign("impala/iceberg_v3/iceberg_v3_row_lineage",
		       "hdfs://localhost:20500/test-warehouse/iceberg_v3_row_lineage",
		       "v3.metadata.json", "v3");
	/* v1, Spark 3, partitioned by day(ts) */
	append_foreign("polars/iceberg-table", "/tmp/iceberg/t1", "v2.metadata.json", "pday");
	/* v1, Spark 2.4 */
	append_foreign("impala/iceberg_non_partitioned",
		       "/test-warehouse/iceberg_test/iceberg_non_partitioned", "v2.metadata.json",
		       "np");
}

/* ---- real tables ------------------------------------------------------ */

/* Every "`from` -> `to`" pair of MANIFEST.md's "Path prefixes" lines. */
static void
add_manifest_maps(FileIO *io)
{
	char path[512], *text, *line;
	size_t len;
	int maps = 0;

	snprintf(path, sizeof path, "%s/testdata/iceberg-tables/MANIFEST.md", shared());
	text = slurp(path, &len);
	assert_non_null(text);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *p = strstr(line, "Path prefixes found");
		while (p && (p = strchr(p, '`')) != NULL) {
			char *from = p + 1, *e1 = strchr(from, '`'), *to, *e2;
			if (!e1 || strncmp(e1, "` -> `", 6) != 0)
				break;
			to = e1 + 6;
			e2 = strchr(to, '`');
			if (!e2)
				break;
			*e1 = 0;
			*e2 = 0;
			{
				char local[1024];
				snprintf(local, sizeof local, "%s/testdata/%s", shared(), to);
				fileio_map_prefix(io, from, local);
				maps++;
			}
			p = e2 + 1;
		}
	}
	free(text);
	assert_true(maps >= 71);
}

static int ntables, nsnap_ok, nsnap_deletes, nsnap_attached, nsnap_missing;

static void
check_table_expected(Catalog *cat, FileIO *io, const char *expected_path)
{
	json_error_t je;
	json_t *root = json_load_file(expected_path, 0, &je), *mfs, *mf;
	const char *table;
	size_t i;

	assert_non_null(root);
	table = json_string_value(json_object_get(root, "table"));
	assert_non_null(table);
	mfs = json_object_get(root, "metadata_files");
	json_array_foreach(mfs, i, mf) {
		Arena *a = arena_new(0);
		const char *file = json_string_value(json_object_get(mf, "metadata_file"));
		char path[1024], name[64];
		floe_error err;
		Table *t;
		json_t *snaps = json_object_get(mf, "snapshots"), *s;
		size_t j;

		snprintf(path, sizeof path, "%s/testdata/%s/metadata/%s", shared(), table, file);
		if (access(path, F_OK) != 0) {
			arena_free(a);
			continue;
		}
		if (strstr(path, "big_query_error") && strcmp(file, "v0.metadata.json") == 0) {
			/* the MANIFEST's unusable stub: registering must fail */
			assert_int_equal(table_register(cat, io, "ns", "stub", path, &err), FLOE_ERR);
			assert_string_equal(err.sqlstate, "XX001");
			arena_free(a);
			continue;
		}
		snprintf(name, sizeof name, "t%d", ntables++);
		if (table_register(cat, io, "ns", name, path, &err) != FLOE_OK)
			fail_msg("register %s: %s", path, err.message);
		if (table_load(cat, io, "ns", name, a, &t, &err) != FLOE_OK)
			fail_msg("load %s: %s", path, err.message);
		json_array_foreach(snaps, j, s) {
			const char *sid = json_string_value(json_object_get(s, "snapshot_id"));
			int64_t id = (int64_t)strtoull(sid, NULL, 10);
			long ndel = (long)(json_integer_value(json_object_get(s, "position_delete_files")) +
					   json_integer_value(json_object_get(s, "deletion_vectors")) +
					   json_integer_value(json_object_get(s, "equality_delete_files")));
			DataFile *files;
			int n, rc;

			rc = table_scan_files(io, t, id, a, &files, &n, &err);
			if (json_object_get(s, "expected_error")) {
				if (rc == FLOE_OK)
					fail_msg("%s snapshot %s: expected an error", path, sid);
				assert_string_equal(err.sqlstate, "58P01");
				nsnap_missing++;
				continue;
			}
			if (ndel > 0) {
				/* delete files are attached to data files (rows: interop suite) */
				int k, withdel = 0;
				if (rc != FLOE_OK)
					fail_msg("%s snapshot %s: %s", path, sid, err.message);
				if (n != json_integer_value(json_object_get(s, "data_files")))
					fail_msg("%s snapshot %s: %d data files", path, sid, n);
				for (k = 0; k < n; k++)
					withdel += files[k].ndeletes > 0;
				nsnap_attached += withdel > 0;   /* 0 only for dangling deletes */
				nsnap_deletes++;
				continue;
			}
			if (rc != FLOE_OK)
				fail_msg("%s snapshot %s: %s", path, sid, err.message);
			if (n != json_integer_value(json_object_get(s, "data_files")) ||
			    sum_rows(files, n) != json_integer_value(json_object_get(s, "expected_row_count")))
				fail_msg("%s snapshot %s: %d files %lld rows, expected %lld files %lld rows",
					 path, sid, n, (long long)sum_rows(files, n),
					 (long long)json_integer_value(json_object_get(s, "data_files")),
					 (long long)json_integer_value(json_object_get(s, "expected_row_count")));
			nsnap_ok++;
		}
		/* the current snapshot through -1 agrees with the expected current */
		{
			json_t *cur = json_object_get(mf, "current_snapshot_id");
			DataFile *files;
			int n;
			if (json_is_integer(cur) && json_integer_value(cur) == -1) {
				assert_null(metadata_current_snapshot(t->md));
				assert_int_equal(table_scan_files(io, t, -1, a, &files, &n, &err), FLOE_OK);
				assert_int_equal(n, 0);
			} else if (json_is_string(cur)) {
				assert_non_null(metadata_current_snapshot(t->md));
				assert_true(t->md->current_snapshot_id ==
					    (int64_t)strtoull(json_string_value(cur), NULL, 10));
			}
		}
		assert_int_equal(table_drop(cat, io, "ns", name, false, &err), FLOE_OK);
		assert_true(access(path, F_OK) == 0);   /* drop without purge keeps files */
		arena_free(a);
	}
	json_decref(root);
}

static void
walk_expected(Catalog *cat, FileIO *io, const char *d)
{
	DIR *dd = opendir(d);
	struct dirent *e;
	char path[1024];

	assert_non_null(dd);
	while ((e = readdir(dd)) != NULL) {
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", d, e->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			walk_expected(cat, io, path);
		else if (strstr(e->d_name, ".expected.json"))
			check_table_expected(cat, io, path);
	}
	closedir(dd);
}

static void
test_table__register_real_tables(void **state)
{
	Catalog *cat;
	FileIO *io;
	char path[512];

	open_env("real", &cat, &io);
	add_manifest_maps(io);
	ntables = nsnap_ok = nsnap_deletes = nsnap_attached = nsnap_missing = 0;
	snprintf(path, sizeof path, "%s/testdata/iceberg-tables/expected", shared());
	walk_expected(cat, io, path);
	print_message("registered %d metadata files: %d snapshots scanned, %d with delete files "
		      "(%d with deletes attached to data files), %d with missing files (58P01)\n",
		      ntables, nsnap_ok, nsnap_deletes, nsnap_attached, nsnap_missing);
	assert_true(nsnap_attached > 0);
	assert_true(ntables > 100);
	assert_true(nsnap_ok > 100);
	catalog_close(cat);
	fileio_free(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table__create_append_scan),
		cmocka_unit_test(test_table__concurrent_append),
		cmocka_unit_test(test_table__failed_commit_cleans_up),
		cmocka_unit_test(test_table__metadata_cache),
		cmocka_unit_test(test_table__scan_cache),
		cmocka_unit_test(test_table__replace),
		cmocka_unit_test(test_table__floe_column_properties),
		cmocka_unit_test(test_table__append_to_foreign_tables),
		cmocka_unit_test(test_table__register_real_tables),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
