/*
 * test_deletes.c — merge-on-read deletes written by table/delete_writer and
 * committed with table_commit, checked against readers nobody here wrote.
 *
 * A table is created and filled with SQL through the floe binary ($FLOE_BIN,
 * default build-san/floe): 4000 rows in two data files.  The test then loads
 * it through the catalog, deletes chosen positions with delete_writer (format
 * version 2: Parquet position-delete files; 3: deletion vectors in Puffin)
 * and commits.  Truth:
 *   - ../shared/tools/interop/bin/iceberg-validate --deep (manifests,
 *     delete-file schema/field ids/sort order, DV magic/CRC/cardinality);
 *   - parquet-check (DuckDB + hyparquet) and duckdb-sql read the position
 *     delete file: field ids 2147483546/2147483545, sorted rows;
 *   - iceberg-read (icebird) reads the table (v2; icebird has no DV
 *     support): its row count and id sum equal the expected set computed
 *     here, and floe's SELECT gives the same;
 *   - a second delete on the same files (v3: the new DV is the union, the old
 *     one is retired), then a copy-on-write DELETE through SQL on a table that
 *     already has deletes removes exactly the right rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/error.h"
#include "format/parquet/parquet.h"
#include "format/puffin/puffin.h"
#include "storage/fileio.h"
#include "table/delete_writer.h"
#include "table/deletes.h"
#include "table/table.h"

#define NROWS 4000

static const char *
floe_bin(void)
{
	const char *s = getenv("FLOE_BIN");
	return s && *s ? s : "build-san/floe";
}

static const char *
tools(void)
{
	static char buf[1024];
	const char *s = getenv("FLOE_SHARED");
	snprintf(buf, sizeof buf, "%s/tools/interop/bin", s && *s ? s : "../shared");
	return buf;
}

/* Run a shell command; its stdout (malloc'd); fail on non-zero exit. */
static char *
run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 4096, len = 0, got;
	char *out = malloc(cap);
	int st;

	assert_non_null(p);
	while ((got = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += got;
		if (len + 1 >= cap)
			out = realloc(out, cap *= 2);
	}
	out[len] = 0;
	st = pclose(p);
	if (st != 0) {
		static char msg[4096];
		snprintf(msg, sizeof msg, "command failed (%d): %s\n%.2000s", st, cmd, out);
		free(out);
		fail_msg("%s", msg);
	}
	return out;
}

typedef struct Fixture {
	char wh[256];
	Catalog *cat;
	FileIO *io;
	Arena *a;
	bool deleted[NROWS + 1];   /* by id */
} Fixture;

static void
sql(Fixture *fx, const char *q)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "%s -D %s -c \"%s\" 2>&1", floe_bin(), fx->wh, q);
	free(run(cmd));
}

static void
setup_table(Fixture *fx, int version)
{
	char q[1024];
	floe_error err;

	memset(fx, 0, sizeof *fx);
	strcpy(fx->wh, "/tmp/floe-test-deletes.XXXXXX");
	assert_non_null(mkdtemp(fx->wh));
	snprintf(q, sizeof q,
		 "CREATE TABLE t (id bigint, s text) WITH ('format-version' = '%d'); "
		 "INSERT INTO t SELECT g, 'row ' || CAST(g AS text) FROM generate_series(1, 3000) AS g; "
		 "INSERT INTO t SELECT g, NULL FROM generate_series(3001, %d) AS g", version, NROWS);
	sql(fx, q);
	snprintf(q, sizeof q, "%s/catalog.db", fx->wh);
	if (catalog_sqlite_open(&fx->cat, q, "floe", &err) != FLOE_OK)
		fail_msg("catalog: %s", err.message);
	fx->io = fileio_local_new(fx->wh);
	fx->a = arena_new(0);
}

static void
teardown(Fixture *fx)
{
	char cmd[512];
	catalog_close(fx->cat);
	fileio_free(fx->io);
	arena_free(fx->a);
	snprintf(cmd, sizeof cmd, "rm -rf %s", fx->wh);
	free(run(cmd));
}

static Table *
load(Fixture *fx)
{
	Table *t;
	floe_error err;
	if (table_load(fx->cat, fx->io, "public", "t", fx->a, &t, &err) != FLOE_OK)
		fail_msg("load: %s", err.message);
	return t;
}

/* The data file holding ids lo.. (by record count: 3000 -> 1.., 1000 -> 3001..). */
static DataFile *
file_of(DataFile *files, int n, int64_t rows)
{
	int i;
	for (i = 0; i < n; i++)
		if (files[i].record_count == rows)
			return &files[i];
	fail_msg("no data file of %lld rows", (long long)rows);
	return NULL;
}

/* Delete positions (ascending) of the 3000-row and the 1000-row file. */
static Table *
delete_positions(Fixture *fx, const int64_t *pa, int na, const int64_t *pb, int nb,
		 int *nadd_out, int *nrem_out)
{
	Table *t = load(fx), *out;
	DataFile *files, *add;
	char **rem;
	int n, nadd, nrem, i;
	floe_error err;
	DeleteWriter *w;
	TableChange ch;

	floe_error_clear(&err);
	assert_int_equal(table_scan_files(fx->io, t, -1, fx->a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 2);
	w = delete_writer_new(fx->io, t, fx->a);
	if (na && delete_writer_add(w, file_of(files, n, 3000), pa, na, &err) != FLOE_OK)
		fail_msg("add: %s", err.message);
	if (nb && delete_writer_add(w, file_of(files, n, 1000), pb, nb, &err) != FLOE_OK)
		fail_msg("add: %s", err.message);
	if (delete_writer_finish(w, &add, &nadd, &rem, &nrem, &err) != FLOE_OK)
		fail_msg("finish: %s", err.message);
	memset(&ch, 0, sizeof ch);
	ch.add = add;
	ch.nadd = nadd;
	ch.remove = (const char *const *)rem;
	ch.nremove = nrem;
	if (table_commit(fx->cat, fx->io, t, &ch, fx->a, &out, &err) != FLOE_OK)
		fail_msg("commit: %s", err.message);
	for (i = 0; i < na; i++)
		fx->deleted[pa[i] + 1] = true;
	for (i = 0; i < nb; i++)
		fx->deleted[pb[i] + 3001] = true;
	*nadd_out = nadd;
	*nrem_out = nrem;
	return out;
}

static void
expected(const Fixture *fx, long long *count, long long *sum)
{
	int i;
	*count = *sum = 0;
	for (i = 1; i <= NROWS; i++)
		if (!fx->deleted[i]) {
			(*count)++;
			*sum += i;
		}
}

/* floe, icebird and iceberg-validate agree with the expected rows.
 * icebird 0.3.1 cannot read deletion vectors (it takes the Puffin file for
 * Parquet): v3 tables rely on iceberg-validate's own DV decoding (magic,
 * CRC, cardinality = record_count, positions < rows) and floe's rows. */
static void
check_readers(Fixture *fx, const Table *t)
{
	bool icebird = t->md->format_version < 3;
	char cmd[2048], want[128], *out, *p;
	long long count, sum, icount = 0, isum = 0;

	expected(fx, &count, &sum);
	snprintf(cmd, sizeof cmd, "%s -D %s -A -t -c 'SELECT count(*), sum(id) FROM t' 2>&1",
		 floe_bin(), fx->wh);
	out = run(cmd);
	snprintf(want, sizeof want, "%lld|%lld\n", count, sum);
	assert_string_equal(out, want);
	free(out);
	/* the interop validator minus its report of v3 lineage columns */
	snprintf(cmd, sizeof cmd, "FLOE_INTEROP_BIN=%s tests/tools/iceberg-validate.sh %s --deep 2>&1",
		 tools(), t->metadata_location);
	free(run(cmd));
	if (!icebird)
		return;
	snprintf(cmd, sizeof cmd, "%s/iceberg-read %s --csv 2>&1", tools(), t->metadata_location);
	out = run(cmd);
	p = strstr(out, "\nid,s\n");
	assert_non_null(p);
	for (p += 6; *p; ) {
		isum += strtoll(p, &p, 10);
		icount++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	assert_int_equal(icount, count);
	assert_int_equal(isum, sum);
	free(out);
}

static void
test_v2_position_deletes(void **state)
{
	(void)state;
	Fixture fx;
	static const int64_t pa[] = { 0, 5, 6, 7, 1000, 2999 }, pb[] = { 10, 11, 12, 999 };
	static const int64_t pa2[] = { 5, 100, 101 };
	int nadd, nrem;
	Table *t;
	DataFile *files;
	int n, i, k, npos = 0;
	floe_error err;
	char cmd[2048], *out;

	setup_table(&fx, 2);
	t = delete_positions(&fx, pa, 6, pb, 4, &nadd, &nrem);
	assert_int_equal(nadd, 1);               /* one unpartitioned position-delete file */
	assert_int_equal(nrem, 0);
	assert_string_equal(t->md->snapshots[t->md->nsnapshots - 1].operation, "delete");
	assert_string_equal(metadata_summary_get(&t->md->snapshots[t->md->nsnapshots - 1],
						 "added-position-deletes"), "10");
	assert_string_equal(metadata_summary_get(&t->md->snapshots[t->md->nsnapshots - 1],
						 "total-delete-files"), "1");
	check_readers(&fx, t);

	/* the delete file itself, as DuckDB and hyparquet see it */
	assert_int_equal(table_scan_files(fx.io, t, -1, fx.a, &files, &n, &err), FLOE_OK);
	for (i = 0; i < n; i++)
		for (k = 0; k < files[i].ndeletes; k++) {
			const DataFile *d = files[i].deletes[k];
			assert_int_equal(d->content, CONTENT_POSITION_DELETES);
			assert_null(d->referenced_data_file);        /* names two files */
			snprintf(cmd, sizeof cmd, "%s/parquet-check %s --quiet --expect-rows 10 2>&1",
				 tools(), fileio_resolve(fx.io, d->file_path, fx.a));
			free(run(cmd));
			snprintf(cmd, sizeof cmd,
				 "%s/duckdb-sql \"SELECT count(*) FROM (SELECT file_path, pos, lag(file_path) "
				 "OVER () AS pp, lag(pos) OVER () AS lp FROM read_parquet('%s')) "
				 "WHERE pp > file_path OR (pp = file_path AND lp >= pos)\" --no-header 2>&1",
				 tools(), fileio_resolve(fx.io, d->file_path, fx.a));
			out = run(cmd);
			assert_string_equal(out, "0\n");     /* sorted by path, then pos */
			free(out);
			snprintf(cmd, sizeof cmd,
				 "%s/duckdb-sql \"SELECT name, field_id FROM parquet_schema('%s') WHERE "
				 "field_id IS NOT NULL ORDER BY 1\" --no-header 2>&1",
				 tools(), fileio_resolve(fx.io, d->file_path, fx.a));
			out = run(cmd);
			assert_string_equal(out, "file_path,2147483546\npos,2147483545\n");
			free(out);
			npos++;
		}
	assert_int_equal(npos, 2);                   /* one file, attached to both data files */

	/* a second delete, overlapping (position 5 again): a second file */
	t = delete_positions(&fx, pa2, 3, NULL, 0, &nadd, &nrem);
	assert_int_equal(nadd, 1);
	assert_string_equal(metadata_summary_get(&t->md->snapshots[t->md->nsnapshots - 1],
						 "total-delete-files"), "2");
	check_readers(&fx, t);

	/* copy-on-write DELETE through SQL on a table with position deletes */
	sql(&fx, "DELETE FROM t WHERE id % 7 = 0 OR id BETWEEN 3005 AND 3020");
	for (i = 1; i <= NROWS; i++)
		if (i % 7 == 0 || (i >= 3005 && i <= 3020))
			fx.deleted[i] = true;
	check_readers(&fx, load(&fx));
	teardown(&fx);
}

static void
test_v3_deletion_vectors(void **state)
{
	(void)state;
	Fixture fx;
	static const int64_t pa[] = { 0, 1, 2, 64, 536, 2999 }, pb[] = { 500 };
	static const int64_t pa2[] = { 3, 1000 }, pb2[] = { 500, 501 };
	int nadd, nrem, n, i, k, ndv = 0;
	Table *t;
	DataFile *files;
	floe_error err;

	setup_table(&fx, 3);
	t = delete_positions(&fx, pa, 6, pb, 1, &nadd, &nrem);
	assert_int_equal(nadd, 2);               /* one DV per data file, one Puffin file */
	assert_int_equal(nrem, 0);
	assert_string_equal(metadata_summary_get(&t->md->snapshots[t->md->nsnapshots - 1],
						 "added-dvs"), "2");
	check_readers(&fx, t);

	assert_int_equal(table_scan_files(fx.io, t, -1, fx.a, &files, &n, &err), FLOE_OK);
	for (i = 0; i < n; i++)
		for (k = 0; k < files[i].ndeletes; k++) {
			const DataFile *d = files[i].deletes[k];
			int64_t *pos, np;
			assert_string_equal(d->file_format, "PUFFIN");
			assert_string_equal(d->referenced_data_file, files[i].file_path);
			assert_true(d->has_content_offset);
			assert_int_equal(deletes_file_positions(fx.io, &files[i], fx.a, &pos, &np, &err),
					 FLOE_OK);
			assert_int_equal(np, files[i].record_count == 3000 ? 6 : 1);
			assert_int_equal(d->record_count, np);
			ndv++;
		}
	assert_int_equal(ndv, 2);

	/* a second delete: each file's new DV is the union; the old ones retire */
	t = delete_positions(&fx, pa2, 2, pb2, 2, &nadd, &nrem);
	assert_int_equal(nadd, 2);
	assert_int_equal(nrem, 1);               /* both old DVs lived in one Puffin file */
	assert_string_equal(metadata_summary_get(&t->md->snapshots[t->md->nsnapshots - 1],
						 "total-delete-files"), "2");
	assert_int_equal(table_scan_files(fx.io, t, -1, fx.a, &files, &n, &err), FLOE_OK);
	for (i = 0; i < n; i++) {
		assert_int_equal(files[i].ndeletes, 1);
		assert_int_equal(files[i].deletes[0]->record_count,
				 files[i].record_count == 3000 ? 8 : 2);
	}
	check_readers(&fx, t);

	/* only one file gets a new DV: the other file's DV in the same Puffin
	 * file must stay */
	t = delete_positions(&fx, NULL, 0, (const int64_t[]){ 7 }, 1, &nadd, &nrem);
	assert_int_equal(nadd, 1);
	assert_int_equal(nrem, 1);
	check_readers(&fx, t);

	sql(&fx, "DELETE FROM t WHERE id % 5 = 0");
	for (i = 1; i <= NROWS; i++)
		if (i % 5 == 0)
			fx.deleted[i] = true;
	check_readers(&fx, load(&fx));
	teardown(&fx);
}

static const char *
shared_dir(void)
{
	const char *s = getenv("FLOE_SHARED");
	return s && *s ? s : "../shared";
}

static long long
floe_count(Fixture *fx, const char *table)
{
	char cmd[1024], *out;
	long long n;
	snprintf(cmd, sizeof cmd, "%s -D %s -A -t -c 'SELECT count(*) FROM %s' 2>&1", floe_bin(),
		 fx->wh, table);
	out = run(cmd);
	n = atoll(out);
	free(out);
	return n;
}

/*
 * A partitioned table written by Hive (Impala's
 * iceberg_v2_partitioned_position_deletes, copied to the warehouse; its
 * position deletes spell the root two ways): delete_writer groups the new
 * deletes per partition (one file each, the data file's spec and tuple),
 * they combine with Hive's, iceberg-validate --deep accepts the result; then
 * a copy-on-write DELETE through SQL rewrites files that carry deletes.
 */
static void
test_partitioned_external(void **state)
{
	(void)state;
	Fixture fx;
	char cmd[4096], ext[512], meta[600], *out;
	const char *tbl = "iceberg_v2_partitioned_position_deletes";
	Table *t, *t2;
	DataFile *files, *add;
	char **rem;
	int n, nadd, nrem, i, added = 0;
	long long before, after;
	floe_error err;
	DeleteWriter *w;
	TableChange ch;

	setup_table(&fx, 2);
	snprintf(ext, sizeof ext, "%s/ext/", fx.wh);
	snprintf(cmd, sizeof cmd, "mkdir -p %s && cp -r %s/testdata/iceberg-tables/impala/hadoop_catalog/ice/%s %s",
		 ext, shared_dir(), tbl, ext);
	free(run(cmd));
	snprintf(meta, sizeof meta, "%s%s/metadata/v3.metadata.json", ext, tbl);
	snprintf(cmd, sizeof cmd,
		 "CALL register_table('p', '%s', map_from => '/test-warehouse/iceberg_test/hadoop_catalog/ice/', map_to => '%s'); "
		 "CALL register_table('p_map2', '%s', map_from => 'hdfs://localhost:20500/test-warehouse/iceberg_test/hadoop_catalog/ice/', map_to => '%s')",
		 meta, ext, meta, ext);
	sql(&fx, cmd);
	fileio_map_prefix(fx.io, "/test-warehouse/iceberg_test/hadoop_catalog/ice/", ext);
	fileio_map_prefix(fx.io, "hdfs://localhost:20500/test-warehouse/iceberg_test/hadoop_catalog/ice/", ext);
	before = floe_count(&fx, "p");
	assert_int_equal(before, 10);              /* MANIFEST.md */

	if (table_load(fx.cat, fx.io, "public", "p", fx.a, &t, &err) != FLOE_OK)
		fail_msg("load: %s", err.message);
	assert_int_equal(table_scan_files(fx.io, t, -1, fx.a, &files, &n, &err), FLOE_OK);
	w = delete_writer_new(fx.io, t, fx.a);
	for (i = 0; i < n; i++) {
		/* the first position no delete removes yet */
		int64_t *old, nold, p = 0, k;
		assert_int_equal(deletes_file_positions(fx.io, &files[i], fx.a, &old, &nold, &err), FLOE_OK);
		for (k = 0; k < nold && old[k] == p; k++)
			p++;
		if (p >= files[i].record_count)
			continue;
		assert_int_equal(delete_writer_add(w, &files[i], &p, 1, &err), FLOE_OK);
		added++;
	}
	assert_true(added >= 2);
	assert_int_equal(delete_writer_finish(w, &add, &nadd, &rem, &nrem, &err), FLOE_OK);
	assert_true(nadd >= 2);                    /* one per partition */
	for (i = 0; i < nadd; i++) {
		assert_int_equal(add[i].npartition, 1);
		assert_int_equal(add[i].spec_id, files[0].spec_id);
	}
	memset(&ch, 0, sizeof ch);
	ch.add = add;
	ch.nadd = nadd;
	if (table_commit(fx.cat, fx.io, t, &ch, fx.a, &t2, &err) != FLOE_OK)
		fail_msg("commit: %s", err.message);
	after = floe_count(&fx, "p");
	assert_int_equal(after, before - added);
	snprintf(cmd, sizeof cmd,
		 "%s/iceberg-validate %s --deep --map /test-warehouse/iceberg_test/hadoop_catalog/ice/=%s "
		 "--map hdfs://localhost:20500/test-warehouse/iceberg_test/hadoop_catalog/ice/=%s 2>&1",
		 tools(), fileio_resolve(fx.io, t2->metadata_location, fx.a), ext, ext);
	{
		/* Hive's own manifests lack v2 header keys (ERRORs about those
		 * two files); every other finding is floe's and must not exist */
		FILE *p = popen(cmd, "r");
		char line[8192];
		int nerr = 0;
		assert_non_null(p);
		while (fgets(line, sizeof line, p))
			if (strncmp(line, "ERROR", 5) == 0) {
				if (!strstr(line, "MISSING Avro header key") ||
				    !(strstr(line, "771485e9-78ac-4ffc-b1ef-1fda5bab33cf-m0.avro") ||
				      strstr(line, "464c179e-c9ba-40f5-a35f-144106a1f16c-m0.avro")))
					fail_msg("iceberg-validate: %s", line);
				nerr++;
			}
		pclose(p);
		assert_int_equal(nerr, 10);
	}

	/* copy-on-write over Hive's and floe's deletes: ids 1..20, 10 left */
	snprintf(cmd, sizeof cmd, "%s -D %s -A -t -c 'SELECT count(*) FROM p WHERE id %% 4 = 0' 2>&1",
		 floe_bin(), fx.wh);
	out = run(cmd);
	sql(&fx, "DELETE FROM p WHERE id % 4 = 0");
	assert_int_equal(floe_count(&fx, "p"), after - atoll(out));
	free(out);
	teardown(&fx);
}

/* Damage a delete file in place; floe's SELECT fails with an error naming it. */
static void
damage_and_expect_xx001(Fixture *fx, const char *path, long off, long keep)
{
	char cmd[2048], *out;
	FILE *f = fopen(path, "r+b");
	size_t cap = 4096, len = 0, got;
	FILE *p;
	int st;

	assert_non_null(f);
	if (keep >= 0) {
		assert_int_equal(ftruncate(fileno(f), keep), 0);
	} else {
		int c;
		fseek(f, off, SEEK_SET);
		c = fgetc(f);
		fseek(f, off, SEEK_SET);
		fputc(c ^ 0x5a, f);
	}
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s -D %s -A -t -c 'SELECT count(*) FROM t' 2>&1", floe_bin(),
		 fx->wh);
	p = popen(cmd, "r");
	out = malloc(cap);
	while ((got = fread(out + len, 1, cap - len - 1, p)) > 0)
		len += got;
	out[len] = 0;
	st = pclose(p);
	/* the shell prints "ERROR:  <message>" (XX001 messages name the file) */
	if (st == 0 || !strstr(out, "ERROR") || !strstr(out, strrchr(path, '/') + 1)) {
		static char msg[4096];
		snprintf(msg, sizeof msg, "expected XX001 naming %s, got (%d): %.1000s", path, st, out);
		free(out);
		fail_msg("%s", msg);
	}
	free(out);
}

static const DataFile *
first_delete(Fixture *fx, const Table *t, const DataFile **data)
{
	DataFile *files;
	int n, i;
	floe_error err;

	assert_int_equal(table_scan_files(fx->io, t, -1, fx->a, &files, &n, &err), FLOE_OK);
	for (i = 0; i < n; i++)
		if (files[i].ndeletes > 0) {
			*data = &files[i];
			return files[i].deletes[0];
		}
	fail_msg("no delete file");
	return NULL;
}

/* deletes_load itself: XX001 naming the delete file. */
static void
load_fails_xx001(Fixture *fx, const Table *t, const DataFile *data, const DataFile *d)
{
	DeleteLoader *l = deletes_loader_new(fx->io, metadata_current_schema(t->md), fx->a);
	DeleteSet *set;
	floe_error err;

	floe_error_clear(&err);
	assert_int_equal(deletes_load(l, data, fx->a, &set, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	assert_non_null(strstr(err.message, strrchr(d->file_path, '/') + 1));
}

static void
test_corrupt_delete_files(void **state)
{
	(void)state;
	Fixture fx;
	static const int64_t pa[] = { 1, 2, 3 };
	const DataFile *d, *data;
	int nadd, nrem;
	Table *t;

	/* v2: a truncated position-delete file */
	setup_table(&fx, 2);
	t = delete_positions(&fx, pa, 3, NULL, 0, &nadd, &nrem);
	d = first_delete(&fx, t, &data);
	damage_and_expect_xx001(&fx, fileio_resolve(fx.io, d->file_path, fx.a), 0,
				d->file_size_in_bytes / 2);
	load_fails_xx001(&fx, t, data, d);
	teardown(&fx);

	/* v3: one flipped byte inside the DV blob (CRC), then a cut Puffin file */
	setup_table(&fx, 3);
	t = delete_positions(&fx, pa, 3, NULL, 0, &nadd, &nrem);
	d = first_delete(&fx, t, &data);
	damage_and_expect_xx001(&fx, fileio_resolve(fx.io, d->file_path, fx.a),
				(long)d->content_offset + 10, -1);
	load_fails_xx001(&fx, t, data, d);
	damage_and_expect_xx001(&fx, fileio_resolve(fx.io, d->file_path, fx.a), 0,
				(long)d->content_offset + 6);
	load_fails_xx001(&fx, t, data, d);
	teardown(&fx);

	/* v3: a bare DV blob (valid CRC) without its Puffin footer, then with
	 * its footer but no leading PFA1 magic: both refused (puffin-spec.md) */
	setup_table(&fx, 3);
	t = delete_positions(&fx, pa, 3, NULL, 0, &nadd, &nrem);
	d = first_delete(&fx, t, &data);
	damage_and_expect_xx001(&fx, fileio_resolve(fx.io, d->file_path, fx.a), 0,
				(long)(d->content_offset + d->content_size_in_bytes));
	load_fails_xx001(&fx, t, data, d);
	teardown(&fx);
	setup_table(&fx, 3);
	t = delete_positions(&fx, pa, 3, NULL, 0, &nadd, &nrem);
	d = first_delete(&fx, t, &data);
	damage_and_expect_xx001(&fx, fileio_resolve(fx.io, d->file_path, fx.a), 1, -1);
	load_fails_xx001(&fx, t, data, d);
	teardown(&fx);
}

static void
test_v1_refused(void **state)
{
	(void)state;
	Fixture fx;
	Table *t;
	DataFile *files;
	int n;
	floe_error err;
	DeleteWriter *w;
	static const int64_t p[] = { 1 };

	setup_table(&fx, 1);
	t = load(&fx);
	assert_int_equal(table_scan_files(fx.io, t, -1, fx.a, &files, &n, &err), FLOE_OK);
	w = delete_writer_new(fx.io, t, fx.a);
	assert_int_equal(delete_writer_add(w, &files[0], p, 1, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "0A000");
	assert_non_null(strstr(err.message, "format-version"));
	teardown(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2_position_deletes),
		cmocka_unit_test(test_v3_deletion_vectors),
		cmocka_unit_test(test_partitioned_external),
		cmocka_unit_test(test_corrupt_delete_files),
		cmocka_unit_test(test_v1_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
