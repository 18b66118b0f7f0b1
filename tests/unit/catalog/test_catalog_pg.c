/*
 * test_catalog_pg.c — the PostgreSQL catalog (catalog_pg.c) and the
 * multi-table swap of both SQL catalogs.
 *
 * The same cases run on a SQLite catalog file always, and on PostgreSQL
 * when FLOE_TEST_PG holds a conninfo (tests/suites/txn.sh gives one of
 * the throwaway PostgreSQL 15 of scripts/pg-test-server.sh; without it the
 * PostgreSQL cases are skipped):
 *   - namespaces and table CRUD with the catalog.h SQLSTATEs;
 *   - swap: CAS from the expected location, 40001 on a stale one, 42P01
 *     when the table is gone;
 *   - swap_tables: all or nothing — with one stale expected location no
 *     table moves;
 *   - two connections to one catalog see each other's swaps (how several
 *     floe processes share it);
 *   - PostgreSQL: a connection the server closes is re-made, and a swap
 *     whose connection broke is resolved (landed or re-run), never lost;
 *   - PostgreSQL: the iceberg_tables / iceberg_namespace_properties columns
 *     of Iceberg's JdbcCatalog (information_schema).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <postgresql/libpq-fe.h>
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
	snprintf(dir, sizeof dir, "/tmp/floe-test-catpg-XXXXXX");
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

/* A fresh catalog of each kind; the PostgreSQL one under a catalog_name of
 * its own so runs never see each other's rows. */
static Catalog *
open_kind(int pg, const char *name)
{
	Catalog *c = NULL;
	floe_error err;

	if (pg)
		assert_int_equal(catalog_pg_open(&c, getenv("FLOE_TEST_PG"), name, &err), FLOE_OK);
	else
		assert_int_equal(catalog_sqlite_open(&c, db, name, &err), FLOE_OK);
	return c;
}

static const char *
loc(Catalog *c, const char *ns, const char *t, Arena *a)
{
	char *l = NULL;
	floe_error err;
	assert_int_equal(catalog_load_table(c, ns, t, a, &l, &err), FLOE_OK);
	return l;
}

static void
crud_and_swaps(int pg)
{
	char name[64];
	Catalog *c, *c2;
	Arena *a = arena_new(0);
	floe_error err;
	bool exists;
	char **names;
	int n;

	snprintf(name, sizeof name, "unit%ld%d", (long)getpid(), pg);
	c = open_kind(pg, name);
	c2 = open_kind(pg, name);

	assert_int_equal(catalog_create_namespace(c, "s", &err), FLOE_OK);
	assert_int_equal(catalog_create_namespace(c, "s", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P06");
	assert_int_equal(catalog_namespace_exists(c2, "s", &exists, &err), FLOE_OK);
	assert_true(exists);
	assert_int_equal(catalog_create_table(c, "nope", "t", "/x", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "3F000");
	assert_int_equal(catalog_create_table(c, "s", "t1", "/m/t1-0", &err), FLOE_OK);
	assert_int_equal(catalog_create_table(c, "s", "t2", "/m/t2-0", &err), FLOE_OK);
	assert_int_equal(catalog_create_table(c, "s", "t1", "/m/t1-x", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P07");
	assert_int_equal(catalog_list_tables(c2, "s", a, &names, &n, &err), FLOE_OK);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "t1");
	assert_int_equal(catalog_load_table(c, "s", "zz", a, &names[0], &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");

	/* single CAS */
	assert_int_equal(catalog_swap_table(c, "s", "t1", "/m/t1-0", "/m/t1-1", &err), FLOE_OK);
	assert_string_equal(loc(c2, "s", "t1", a), "/m/t1-1");
	assert_int_equal(catalog_swap_table(c2, "s", "t1", "/m/t1-0", "/m/t1-2", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "40001");
	assert_int_equal(catalog_swap_table(c2, "s", "gone", "/a", "/b", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");

	/* multi CAS: all or nothing */
	{
		const char *ns[] = { "s", "s" }, *t[] = { "t1", "t2" };
		const char *stale[] = { "/m/t1-1", "/m/t2-STALE" }, *good[] = { "/m/t1-1", "/m/t2-0" };
		const char *next[] = { "/m/t1-2", "/m/t2-1" };
		assert_int_equal(catalog_swap_tables(c, 2, ns, t, stale, next, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "40001");
		assert_string_equal(loc(c2, "s", "t1", a), "/m/t1-1");
		assert_string_equal(loc(c2, "s", "t2", a), "/m/t2-0");
		assert_int_equal(catalog_swap_tables(c, 2, ns, t, good, next, &err), FLOE_OK);
		assert_string_equal(loc(c2, "s", "t1", a), "/m/t1-2");
		assert_string_equal(loc(c2, "s", "t2", a), "/m/t2-1");
		/* the other connection lost: nothing moves */
		assert_int_equal(catalog_swap_tables(c2, 2, ns, t, good, next, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "40001");
		/* and the connection is usable after a rolled-back swap */
		assert_int_equal(catalog_swap_table(c2, "s", "t2", "/m/t2-1", "/m/t2-2", &err), FLOE_OK);
		assert_string_equal(loc(c, "s", "t2", a), "/m/t2-2");
	}

	assert_int_equal(catalog_drop_namespace(c, "s", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "2BP01");
	assert_int_equal(catalog_drop_table(c, "s", "t1", &err), FLOE_OK);
	assert_int_equal(catalog_drop_table(c, "s", "t2", &err), FLOE_OK);
	assert_int_equal(catalog_drop_table(c, "s", "t2", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42P01");
	assert_int_equal(catalog_drop_namespace(c, "s", &err), FLOE_OK);
	assert_int_equal(catalog_namespace_exists(c2, "s", &exists, &err), FLOE_OK);
	assert_false(exists);
	catalog_close(c);
	catalog_close(c2);
	arena_free(a);
}

static void
test_catalog_pg__sqlite_swaps(void **state)
{
	crud_and_swaps(0);
}

static void
test_catalog_pg__pg_swaps(void **state)
{
	if (!getenv("FLOE_TEST_PG"))
		skip();
	crud_and_swaps(1);
}

static void
test_catalog_pg__jdbc_schema(void **state)
{
	Catalog *c;
	PGconn *conn;
	PGresult *r;
	char cols[1024] = "";
	size_t o = 0;
	int i;

	if (!getenv("FLOE_TEST_PG"))
		skip();
	c = open_kind(1, "schema");
	catalog_close(c);
	conn = PQconnectdb(getenv("FLOE_TEST_PG"));
	assert_int_equal(PQstatus(conn), CONNECTION_OK);
	r = PQexec(conn, "SELECT table_name, column_name, is_nullable FROM information_schema.columns "
		   "WHERE table_name IN ('iceberg_tables', 'iceberg_namespace_properties') "
		   "ORDER BY table_name, ordinal_position");
	assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
	for (i = 0; i < PQntuples(r); i++)
		o += (size_t)snprintf(cols + o, sizeof cols - o, "%s.%s.%s,", PQgetvalue(r, i, 0),
				      PQgetvalue(r, i, 1), PQgetvalue(r, i, 2));
	assert_string_equal(cols,
			    "iceberg_namespace_properties.catalog_name.NO,"
			    "iceberg_namespace_properties.namespace.NO,"
			    "iceberg_namespace_properties.property_key.NO,"
			    "iceberg_namespace_properties.property_value.YES,"
			    "iceberg_tables.catalog_name.NO,"
			    "iceberg_tables.table_namespace.NO,"
			    "iceberg_tables.table_name.NO,"
			    "iceberg_tables.metadata_location.YES,"
			    "iceberg_tables.previous_metadata_location.YES,"
			    "iceberg_tables.iceberg_type.YES,");
	PQclear(r);
	PQfinish(conn);
}

/* The server closes the catalog's connection (pg_terminate_backend, as a
 * restart or failover would): loads and a swap reconnect; the swap, whose
 * outcome was unknown, is resolved by reading the location and re-run. */
static void
test_catalog_pg__reconnect(void **state)
{
	char ci[1024], name[64];
	const char *ns[] = { "s", "s" }, *t[] = { "k1", "k2" };
	const char *exp[] = { "/k1-0", "/k2-0" }, *next[] = { "/k1-1", "/k2-1" };
	Catalog *c;
	PGconn *killer;
	PGresult *r;
	Arena *a = arena_new(0);
	floe_error err;
	int round;

	if (!getenv("FLOE_TEST_PG"))
		skip();
	snprintf(ci, sizeof ci, "%s application_name=floe_unit_victim", getenv("FLOE_TEST_PG"));
	snprintf(name, sizeof name, "reconnect%ld", (long)getpid());
	assert_int_equal(catalog_pg_open(&c, ci, name, &err), FLOE_OK);
	killer = PQconnectdb(getenv("FLOE_TEST_PG"));
	assert_int_equal(PQstatus(killer), CONNECTION_OK);
	assert_int_equal(catalog_create_namespace(c, "s", &err), FLOE_OK);
	assert_int_equal(catalog_create_table(c, "s", "k1", "/k1-0", &err), FLOE_OK);
	assert_int_equal(catalog_create_table(c, "s", "k2", "/k2-0", &err), FLOE_OK);
	for (round = 0; round < 3; round++) {
		r = PQexec(killer, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
			   "WHERE application_name = 'floe_unit_victim'");
		assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
		assert_int_equal(PQntuples(r), 1);
		PQclear(r);
		usleep(100 * 1000);
		if (round == 0) {
			assert_string_equal(loc(c, "s", "k1", a), "/k1-0");
		} else if (round == 1) {
			assert_int_equal(catalog_swap_table(c, "s", "k1", "/k1-0", "/k1-1", &err), FLOE_OK);
			assert_string_equal(loc(c, "s", "k1", a), "/k1-1");
		} else {
			exp[0] = "/k1-1";
			next[0] = "/k1-2";
			assert_int_equal(catalog_swap_tables(c, 2, ns, t, exp, next, &err), FLOE_OK);
			assert_string_equal(loc(c, "s", "k1", a), "/k1-2");
			assert_string_equal(loc(c, "s", "k2", a), "/k2-1");
		}
	}
	assert_int_equal(catalog_drop_table(c, "s", "k1", &err), FLOE_OK);
	assert_int_equal(catalog_drop_table(c, "s", "k2", &err), FLOE_OK);
	assert_int_equal(catalog_drop_namespace(c, "s", &err), FLOE_OK);
	PQfinish(killer);
	catalog_close(c);
	arena_free(a);
}

static void
test_catalog_pg__bad_conninfo(void **state)
{
	Catalog *c = NULL;
	floe_error err;

	assert_int_equal(catalog_pg_open(&c, "host=127.0.0.1 port=1 connect_timeout=2", "x", &err),
			 FLOE_ERR);
	assert_string_equal(err.sqlstate, "08000");
	assert_non_null(strstr(err.message, "PostgreSQL catalog"));
	assert_null(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_catalog_pg__sqlite_swaps, setup, teardown),
		cmocka_unit_test(test_catalog_pg__bad_conninfo),
		cmocka_unit_test_setup_teardown(test_catalog_pg__pg_swaps, setup, teardown),
		cmocka_unit_test(test_catalog_pg__jdbc_schema),
		cmocka_unit_test(test_catalog_pg__reconnect),
	};
	/* without a server (the unit suite) only the first two: cmocka counts
	 * a skipped test as a failure in its exit status */
	if (!getenv("FLOE_TEST_PG"))
		return _cmocka_run_group_tests("tests", tests, 2, NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
