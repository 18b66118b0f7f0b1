/*
 * test_commit_outcome.c — what a commit does when its catalog call fails
 * with an outcome it cannot see (table.h table_commit_outcome): through a
 * catalog wrapper that injects the failures a broken connection causes.
 *   - the swap landed, then the connection broke (08006): the commit
 *     succeeded, every file it wrote stays, nothing is listed;
 *   - the swap landed, a concurrent commit went on top of it, then the
 *     re-run swap saw 40001: success, no second (duplicate) snapshot, and
 *     the files the other commit inherited are still there;
 *   - the swap did not land and the catalog is unreachable, or reachable
 *     but the swap may still land (08006): 08006, every file written kept
 *     and listed in <root>/orphan-candidates, the table unchanged;
 *   - a plain 40001 (lost race) still re-bases and leaves no stray file;
 *   - metadata-only commits and CREATE: a landed-then-lost call succeeds
 *     and the metadata file it names exists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/table.h"

static char dir[256];

/* ---- a catalog that breaks on demand -------------------------------- */

enum {
	SWAP_OK,               /* pass through */
	SWAP_LANDED_LOST,      /* swap, then report 08006 */
	SWAP_LOST,             /* report 08006, do not swap */
	SWAP_LANDED_MOVED,     /* swap, commit another append on top, report 40001 */
	SWAP_RACE,             /* another append first, then the swap (40001) */
};

typedef struct Faulty {
	Catalog c;
	Catalog *real;
	FileIO *io;
	int swap_mode;         /* the next swap (then SWAP_OK) */
	bool create_lost;      /* the next create lands, then reports 08006 */
	bool down;             /* loads fail with 08006 */
	DataFile other;        /* what SWAP_LANDED_MOVED / SWAP_RACE append */
} Faulty;

#define F(c) ((Faulty *)(c))

static int
lost(floe_error *err)
{
	return floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
			   "catalog: connection lost during a commit; its outcome is unknown");
}

static int
f_create_namespace(Catalog *c, const char *ns, floe_error *err)
{
	return catalog_create_namespace(F(c)->real, ns, err);
}

static int
f_drop_namespace(Catalog *c, const char *ns, floe_error *err)
{
	return catalog_drop_namespace(F(c)->real, ns, err);
}

static int
f_namespace_exists(Catalog *c, const char *ns, bool *x, floe_error *err)
{
	return catalog_namespace_exists(F(c)->real, ns, x, err);
}

static int
f_list_namespaces(Catalog *c, Arena *a, char ***names, int *n, floe_error *err)
{
	return catalog_list_namespaces(F(c)->real, a, names, n, err);
}

static int
f_create_table(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	if (F(c)->create_lost) {
		F(c)->create_lost = false;
		if (catalog_create_table(F(c)->real, ns, name, loc, err) != FLOE_OK)
			return FLOE_ERR;
		return lost(err);
	}
	return catalog_create_table(F(c)->real, ns, name, loc, err);
}

static int
f_load_table(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	if (F(c)->down)
		return floe_errorf(err, ERRCODE_CONNECTION_FAILURE, "catalog: could not connect");
	return catalog_load_table(F(c)->real, ns, name, a, loc, err);
}

/* Another session's append of f->other on the current head. */
static void
other_append(Faulty *f, const char *ns, const char *name)
{
	Arena *a = arena_new(0);
	floe_error err;
	Table *h, *out;

	if (table_load(f->real, f->io, ns, name, a, &h, &err) != FLOE_OK ||
	    table_commit_append(f->real, f->io, h, &f->other, 1, "other-job", a, &out, &err) != FLOE_OK)
		fail_msg("the concurrent append: %s", err.message);
	arena_free(a);
}

static int
f_swap_table(Catalog *c, const char *ns, const char *name, const char *expected,
	     const char *loc, floe_error *err)
{
	Faulty *f = F(c);
	int mode = f->swap_mode;

	f->swap_mode = SWAP_OK;
	switch (mode) {
	case SWAP_LANDED_LOST:
		TRY(catalog_swap_table(f->real, ns, name, expected, loc, err));
		return lost(err);
	case SWAP_LOST:
		return lost(err);
	case SWAP_LANDED_MOVED:
		TRY(catalog_swap_table(f->real, ns, name, expected, loc, err));
		other_append(f, ns, name);
		return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				   "could not commit: concurrent update");
	case SWAP_RACE:
		other_append(f, ns, name);
		break;
	default:
		break;
	}
	return catalog_swap_table(f->real, ns, name, expected, loc, err);
}

static int
f_drop_table(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	return catalog_drop_table(F(c)->real, ns, name, err);
}

static int
f_swap_tables(Catalog *c, int n, const char *const *ns, const char *const *names,
	      const char *const *expected, const char *const *locs, floe_error *err)
{
	return catalog_swap_tables(F(c)->real, n, ns, names, expected, locs, err);
}

static int
f_list_tables(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	return catalog_list_tables(F(c)->real, ns, a, names, n, err);
}

static void
f_close(Catalog *c)
{
	catalog_close(F(c)->real);
	free(c);
}

static int
f_rename_table(Catalog *c, const char *ns, const char *name, const char *new_ns,
	       const char *new_name, floe_error *err)
{
	return catalog_rename_table(F(c)->real, ns, name, new_ns, new_name, err);
}

static const CatalogVT faulty_vt = {   /* later entries (views, ...): unused here */
	.create_namespace = f_create_namespace, .drop_namespace = f_drop_namespace,
	.namespace_exists = f_namespace_exists, .list_namespaces = f_list_namespaces,
	.create_table = f_create_table, .load_table = f_load_table, .swap_table = f_swap_table,
	.drop_table = f_drop_table, .swap_tables = f_swap_tables, .list_tables = f_list_tables,
	.close = f_close, .rename_table = f_rename_table,
};

/* ---- helpers ---------------------------------------------------------- */

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/floe-test-outcome-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[512];

	(void)state;
	if (getenv("FLOE_KEEP_TMP"))
		return 0;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static Faulty *
open_env(const char *sub, char *root, size_t n)
{
	Faulty *f = calloc(1, sizeof *f);
	char path[600];
	floe_error err;

	snprintf(root, n, "%s/%s", dir, sub);
	mkdir(root, 0777);
	snprintf(path, sizeof path, "%s/catalog.db", root);
	if (catalog_sqlite_open(&f->real, path, "floe", &err) != FLOE_OK)
		fail_msg("catalog: %s", err.message);
	f->c.vt = &faulty_vt;
	f->io = fileio_local_new(root);
	assert_int_equal(catalog_create_namespace(&f->c, "ns", &err), FLOE_OK);
	return f;
}

static void
close_env(Faulty *f)
{
	FileIO *io = f->io;

	catalog_close(&f->c);
	fileio_free(io);
}

static IcebergSchema *
one_column(Arena *a)
{
	IcebergSchema *s = ARENA_NEW(a, IcebergSchema);

	s->nfields = 1;
	s->fields = ARENA_ARRAY(a, IcebergField, 1);
	s->fields[0].name = "id";
	s->fields[0].type = type_make(TYPE_INT64);
	return s;
}

/* A data file record (the commit never opens it). */
static DataFile
data_file(FileIO *io, const char *root, const char *name, Arena *a)
{
	DataFile d;
	floe_error err;
	char *path = arena_sprintf(a, "%s/ns/t/data/%s", root, name);

	assert_int_equal(fileio_write(io, path, "PAR1", 4, &err), FLOE_OK);
	memset(&d, 0, sizeof d);
	d.content = CONTENT_DATA;
	d.file_path = path;
	d.file_format = "PARQUET";
	d.record_count = 1;
	d.file_size_in_bytes = 4;
	return d;
}

static int
count_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Lines of <root>/orphan-candidates (0 when there is none). */
static int
orphan_lines(const char *root, const char *must_contain)
{
	char path[600], line[2048];
	FILE *fp;
	int n = 0;
	bool found = !must_contain;

	snprintf(path, sizeof path, "%s/orphan-candidates", root);
	if (!(fp = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof line, fp)) {
		n++;
		if (must_contain && strstr(line, must_contain))
			found = true;
	}
	fclose(fp);
	return found ? n : -1;
}

/* The current head's metadata, manifest list and manifests all exist and
 * it lists `files` data files. */
static Table *
check_head(Faulty *f, int files, Arena *a)
{
	floe_error err;
	Table *h;
	DataFile *df;
	int n;

	f->down = false;
	if (table_load(&f->c, f->io, "ns", "t", a, &h, &err) != FLOE_OK)
		fail_msg("load: %s", err.message);
	if (h->md->has_current_snapshot) {
		const Snapshot *sn = NULL;
		int i;
		for (i = 0; i < h->md->nsnapshots; i++)
			if (h->md->snapshots[i].snapshot_id == h->md->current_snapshot_id)
				sn = &h->md->snapshots[i];
		assert_non_null(sn);
		assert_true(fileio_exists(f->io, sn->manifest_list));
	}
	if (table_scan_files(f->io, h, -1, a, &df, &n, &err) != FLOE_OK)
		fail_msg("scan: %s", err.message);
	assert_int_equal(n, files);
	return h;
}

static Table *
new_table(Faulty *f, Arena *a)
{
	floe_error err;
	Table *t;

	if (table_create(&f->c, f->io, NULL, "ns", "t", one_column(a), NULL, NULL, 0, a, &t, &err) !=
	    FLOE_OK)
		fail_msg("create: %s", err.message);
	return t;
}

/* ---- tests ------------------------------------------------------------ */

static void
test_outcome__landed_then_lost_is_success(void **state)
{
	Arena *a = arena_new(0);
	char root[300], mdir[400];
	Faulty *f = open_env("landed", root, sizeof root);
	Table *t = new_table(f, a), *out;
	DataFile d = data_file(f->io, root, "a.parquet", a);
	floe_error err;

	(void)state;
	f->swap_mode = SWAP_LANDED_LOST;
	if (table_commit_append(&f->c, f->io, t, &d, 1, "job-1", a, &out, &err) != FLOE_OK)
		fail_msg("a swap that landed failed: %s", err.message);
	check_head(f, 1, a);
	assert_int_equal(orphan_lines(root, NULL), 0);
	snprintf(mdir, sizeof mdir, "%s/ns/t/metadata", root);
	assert_int_equal(count_dir(mdir), 4);      /* 2 metadata files, list, manifest */
	close_env(f);
	arena_free(a);
}

static void
test_outcome__landed_then_moved_is_no_duplicate(void **state)
{
	Arena *a = arena_new(0);
	char root[300];
	Faulty *f = open_env("moved", root, sizeof root);
	Table *t = new_table(f, a), *out, *h;
	DataFile d = data_file(f->io, root, "a.parquet", a);
	floe_error err;

	(void)state;
	f->other = data_file(f->io, root, "b.parquet", a);
	f->swap_mode = SWAP_LANDED_MOVED;
	if (table_commit_append(&f->c, f->io, t, &d, 1, "job-2", a, &out, &err) != FLOE_OK)
		fail_msg("a swap that landed failed: %s", err.message);
	h = check_head(f, 2, a);                 /* ours once, the other's */
	assert_int_equal(h->md->nsnapshots, 2);
	assert_int_equal(orphan_lines(root, NULL), 0);
	close_env(f);
	arena_free(a);
}

static void
unknown_case(const char *sub, bool down)
{
	Arena *a = arena_new(0);
	char root[300], mdir[400];
	Faulty *f = open_env(sub, root, sizeof root);
	Table *t = new_table(f, a), *out, *h;
	DataFile d = data_file(f->io, root, "a.parquet", a);
	floe_error err;
	int before;

	snprintf(mdir, sizeof mdir, "%s/ns/t/metadata", root);
	before = count_dir(mdir);
	f->swap_mode = SWAP_LOST;
	f->down = down;
	assert_int_equal(table_commit_append(&f->c, f->io, t, &d, 1, "job-3", a, &out, &err),
			 FLOE_ERR);
	assert_string_equal(err.sqlstate, ERRCODE_CONNECTION_FAILURE);
	assert_non_null(strstr(err.message, "outcome is unknown"));
	h = check_head(f, 0, a);
	assert_string_equal(h->metadata_location, t->metadata_location);
	/* metadata file, manifest list, manifest: kept and listed */
	assert_int_equal(count_dir(mdir), before + 3);
	assert_int_equal(orphan_lines(root, "job-3\t"), 3);
	assert_int_equal(orphan_lines(root, ".metadata.json"), 3);
	close_env(f);
	arena_free(a);
}

static void
test_outcome__unreachable_is_unknown(void **state)
{
	(void)state;
	unknown_case("down", true);
}

static void
test_outcome__reachable_but_lost_is_unknown(void **state)
{
	(void)state;
	unknown_case("lost", false);
}

static void
test_outcome__plain_race_rebases(void **state)
{
	Arena *a = arena_new(0);
	char root[300], mdir[400];
	Faulty *f = open_env("race", root, sizeof root);
	Table *t = new_table(f, a), *out;
	DataFile d = data_file(f->io, root, "a.parquet", a);
	floe_error err;

	(void)state;
	f->other = data_file(f->io, root, "b.parquet", a);
	f->swap_mode = SWAP_RACE;
	if (table_commit_append(&f->c, f->io, t, &d, 1, "job-4", a, &out, &err) != FLOE_OK)
		fail_msg("re-base: %s", err.message);
	check_head(f, 2, a);
	snprintf(mdir, sizeof mdir, "%s/ns/t/metadata", root);
	/* create + other (3) + ours (3): the lost attempt's files are gone */
	assert_int_equal(count_dir(mdir), 7);
	assert_int_equal(orphan_lines(root, NULL), 0);
	close_env(f);
	arena_free(a);
}

static void
test_outcome__metadata_commit_and_create(void **state)
{
	Arena *a = arena_new(0);
	char root[300];
	Faulty *f = open_env("meta", root, sizeof root);
	Table *t, *out, *h;
	TableMetadata *md;
	floe_error err;

	(void)state;
	f->create_lost = true;
	t = new_table(f, a);
	assert_true(fileio_exists(f->io, t->metadata_location));
	md = metadata_copy(t->md, a);
	metadata_set_property(md, "owner", "me", a);
	f->swap_mode = SWAP_LANDED_LOST;
	if (table_commit_metadata(&f->c, f->io, t, md, a, &out, &err) != FLOE_OK)
		fail_msg("a metadata swap that landed failed: %s", err.message);
	h = check_head(f, 0, a);
	assert_true(fileio_exists(f->io, h->metadata_location));
	assert_string_equal(metadata_property(h->md, "owner"), "me");
	/* not landed, catalog unreachable: the file stays, listed */
	md = metadata_copy(h->md, a);
	metadata_set_property(md, "owner", "you", a);
	f->swap_mode = SWAP_LOST;
	f->down = true;
	assert_int_equal(table_commit_metadata(&f->c, f->io, h, md, a, &out, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, ERRCODE_CONNECTION_FAILURE);
	assert_int_equal(orphan_lines(root, ".metadata.json"), 1);
	close_env(f);
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outcome__landed_then_lost_is_success),
		cmocka_unit_test(test_outcome__landed_then_moved_is_no_duplicate),
		cmocka_unit_test(test_outcome__unreachable_is_unknown),
		cmocka_unit_test(test_outcome__reachable_but_lost_is_unknown),
		cmocka_unit_test(test_outcome__plain_race_rebases),
		cmocka_unit_test(test_outcome__metadata_commit_and_create),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
