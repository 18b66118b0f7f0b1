/*
 * test_catalog_sqlite.c — the SQLite catalog: Iceberg JDBC catalog schema
 * (columns and primary keys of apache/iceberg JdbcUtil.java), namespaces,
 * table CRUD, and the compare-and-swap commit (40001 on a stale expected
 * location), also across two connections to one file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/error.h"

static char dir[256], db[300];

static int
setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/floe-test-catalog-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/catalog.db", dir);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Column list of a table as "name type pk," */
static void
columns(sqlite3 *h, const char *table, char *out, size_t n)
{
	sqlite3_stmt *st;
	char sql[128];
	size_t o = 0;

	snprintf(sql, sizeof sql, "PRAGMA table_info(%s)", table);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	out[0] = 0;
	while (sqlite3_step(st) == SQLITE_ROW)
		o += (size_t)snprintf(out + o, n - o, "%s %s %d %d,", sqlite3_column_text(st, 1),
				      sqlite3_column_text(st, 2), sqlite3_column_int(st, 3),
				      sqlite3_column_int(st, 5));
	sqlite3_finalize(st);
}

static void
test_catalog_sqlite__jdbc_schema(void **state)
{
	Catalog *c;
	floe_error err;
	sqlite3 *h;
	char cols[1024];

	assert_int_equal(catalog_sqlite_open(&c, db, "cat", &err), FLOE_OK);
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	columns(h, "iceberg_tables", cols, sizeof cols);
	assert_string_equal(cols,
		"catalog_name VARCHAR(255) 1 1,table_namespace VARCHAR(255) 1 2,"
		"table_name VARCHAR(255) 1 3,metadata_location VARCHAR(1000) 0 0,"
		"previous_metadata_location VARCHAR(1000) 0 0,iceberg_type VARCHAR(5) 0 0,");
	columns(h, "iceberg_namespace_properties", cols, sizeof cols);
	assert_string_equal(cols,
		"catalog_name VARCHAR(255) 1 1,namespace VARCHAR(255) 1 2,"
		"property_key VARCHAR(255) 0 3,property_value VARCHAR(1000) 0 0,");
	{
		sqlite3_stmt *st;
		assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	catalog_close(c);
	/* reopening an existing catalog works */
	assert_int_equal(catalog_sqlite_open(&c, db, "cat", &err), FLOE_OK);
	catalog_close(c);
}

static void
test_catalog_sqlite__namespaces_and_tables(void **state)
{
	Catalog *c;
	floe_error err;
	Arena *a = arena_new(0);
	bool exists;
	char **names, *loc;
	int n;

	assert_int_equal(catalog_sqlite_open(&c, db, "cat", &err), FLOE_OK);
	assert_int_equal(catalog_namespace_exists(c, "ns1", &exists, &err), FLOE_OK);
	assert_false(exists);
	assert_int_equal(catalog_create_table(c, "ns1", "t", "/x/m0.json", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "3F000");
	assert_int_equal(catalog_create_namespace(c, "ns1", &err), FLOE_OK);
	assert_int_equal(catalog_create_namespace(c, "ns1", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P06");
	assert_int_equal(catalog_create_namespace(c, "ns0", &err), FLOE_OK);
	assert_int_equal(catalog_namespace_exists(c, "ns1", &exists, &err), FLOE_OK);
	assert_true(exists);
	assert_int_equal(catalog_list_namespaces(c, a, &names, &n, &err), FLOE_OK);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "ns0");
	assert_string_equal(names[1], "ns1");

	assert_int_equal(catalog_create_table(c, "ns1", "t", "/x/m0.json", &err), FLOE_OK);
	assert_int_equal(catalog_create_table(c, "ns1", "t", "/x/m0.json", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P07");
	assert_int_equal(catalog_create_table(c, "ns1", "a", "/x/a0.json", &err), FLOE_OK);
	assert_int_equal(catalog_list_tables(c, "ns1", a, &names, &n, &err), FLOE_OK);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "a");
	assert_string_equal(names[1], "t");
	assert_int_equal(catalog_list_tables(c, "nope", a, &names, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "3F000");

	assert_int_equal(catalog_load_table(c, "ns1", "t", a, &loc, &err), FLOE_OK);
	assert_string_equal(loc, "/x/m0.json");
	assert_int_equal(catalog_load_table(c, "ns1", "zz", a, &loc, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");

	/* compare-and-swap */
	assert_int_equal(catalog_swap_table(c, "ns1", "t", "/x/m0.json", "/x/m1.json", &err), FLOE_OK);
	assert_int_equal(catalog_swap_table(c, "ns1", "t", "/x/m0.json", "/x/m2.json", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "40001");
	assert_int_equal(catalog_load_table(c, "ns1", "t", a, &loc, &err), FLOE_OK);
	assert_string_equal(loc, "/x/m1.json");
	assert_int_equal(catalog_swap_table(c, "ns1", "zz", "/x/m0.json", "/x/m2.json", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");
	{
		sqlite3 *h;
		sqlite3_stmt *st;
		assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
		assert_int_equal(sqlite3_prepare_v2(h,
			"SELECT previous_metadata_location, iceberg_type FROM iceberg_tables "
			"WHERE catalog_name='cat' AND table_namespace='ns1' AND table_name='t'",
			-1, &st, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(st, 0), "/x/m0.json");
		assert_string_equal((const char *)sqlite3_column_text(st, 1), "TABLE");
		sqlite3_finalize(st);
		sqlite3_close(h);
	}

	/* drop: non-empty namespace refused */
	assert_int_equal(catalog_drop_namespace(c, "ns1", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "2BP01");
	assert_int_equal(catalog_drop_table(c, "ns1", "t", &err), FLOE_OK);
	assert_int_equal(catalog_drop_table(c, "ns1", "t", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");
	assert_int_equal(catalog_drop_table(c, "ns1", "a", &err), FLOE_OK);
	assert_int_equal(catalog_drop_namespace(c, "ns1", &err), FLOE_OK);
	assert_int_equal(catalog_drop_namespace(c, "ns1", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "3F000");

	/* another catalog name in the same file sees nothing */
	{
		Catalog *c2;
		assert_int_equal(catalog_sqlite_open(&c2, db, "other", &err), FLOE_OK);
		assert_int_equal(catalog_namespace_exists(c2, "ns0", &exists, &err), FLOE_OK);
		assert_false(exists);
		catalog_close(c2);
	}
	catalog_close(c);
	arena_free(a);
}

/* Two connections race on one table: exactly one swap wins. */
static void
test_catalog_sqlite__cas_two_connections(void **state)
{
	Catalog *c1, *c2;
	floe_error err;
	Arena *a = arena_new(0);
	char *loc;

	assert_int_equal(catalog_sqlite_open(&c1, db, "cat", &err), FLOE_OK);
	assert_int_equal(catalog_sqlite_open(&c2, db, "cat", &err), FLOE_OK);
	assert_int_equal(catalog_create_namespace(c1, "race", &err), FLOE_OK);
	assert_int_equal(catalog_create_table(c1, "race", "t", "v0", &err), FLOE_OK);
	assert_int_equal(catalog_load_table(c2, "race", "t", a, &loc, &err), FLOE_OK);
	assert_string_equal(loc, "v0");
	assert_int_equal(catalog_swap_table(c2, "race", "t", "v0", "v1-by-c2", &err), FLOE_OK);
	assert_int_equal(catalog_swap_table(c1, "race", "t", "v0", "v1-by-c1", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "40001");
	assert_int_equal(catalog_load_table(c1, "race", "t", a, &loc, &err), FLOE_OK);
	assert_string_equal(loc, "v1-by-c2");
	catalog_close(c1);
	catalog_close(c2);
	arena_free(a);
}

/* A catalog file made by an older JdbcCatalog (schema V0: no iceberg_type
 * column) is migrated as JdbcCatalog does (ALTER TABLE ADD COLUMN), and its
 * rows (type NULL) are tables. */
static void
test_catalog_sqlite__v0_schema(void **state)
{
	char path[400];
	sqlite3 *h;
	Catalog *c;
	floe_error err;
	Arena *a = arena_new(0);
	char *loc, cols[1024];

	snprintf(path, sizeof path, "%s/v0.db", dir);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h,
		"CREATE TABLE iceberg_tables(catalog_name VARCHAR(255) NOT NULL,"
		"table_namespace VARCHAR(255) NOT NULL,table_name VARCHAR(255) NOT NULL,"
		"metadata_location VARCHAR(1000),previous_metadata_location VARCHAR(1000),"
		"PRIMARY KEY (catalog_name, table_namespace, table_name));"
		"INSERT INTO iceberg_tables VALUES ('cat', 'db', 'old', '/w/db/old/m.json', NULL);",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(catalog_sqlite_open(&c, path, "cat", &err), FLOE_OK);
	assert_int_equal(catalog_load_table(c, "db", "old", a, &loc, &err), FLOE_OK);
	assert_string_equal(loc, "/w/db/old/m.json");
	assert_int_equal(catalog_swap_table(c, "db", "old", "/w/db/old/m.json", "/w/db/old/m2.json", &err),
			 FLOE_OK);
	catalog_close(c);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	columns(h, "iceberg_tables", cols, sizeof cols);
	assert_non_null(strstr(cols, "iceberg_type VARCHAR(5)"));
	sqlite3_close(h);
	arena_free(a);
}

static void
test_catalog_sqlite__bad_path(void **state)
{
	Catalog *c;
	floe_error err;

	assert_int_equal(catalog_sqlite_open(&c, "/nonexistent-dir/x/catalog.db", "cat", &err),
			 FLOE_ERR);
	assert_string_equal(err.sqlstate, "58030");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_sqlite__jdbc_schema),
		cmocka_unit_test(test_catalog_sqlite__namespaces_and_tables),
		cmocka_unit_test(test_catalog_sqlite__cas_two_connections),
		cmocka_unit_test(test_catalog_sqlite__v0_schema),
		cmocka_unit_test(test_catalog_sqlite__bad_path),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
