/*
 * catalog_sqlite.c — the embedded catalog: Iceberg's JDBC catalog schema in
 * a SQLite file (see catalog/catalog.h).  This file is the SQLite driver of
 * catalog_jdbc.c, which holds the catalog's logic (namespaces, tables, the
 * compare-and-swap commits, the connection pool).
 *
 * Schema: the DDL of apache/iceberg core/.../jdbc/JdbcUtil.java (schema
 * version V1, i.e. with the iceberg_type column the V1 migration adds), so
 * Iceberg's JdbcCatalog (Spark, Trino, PyIceberg's SqlCatalog) can open the
 * same file:
 *
 *   iceberg_tables(catalog_name VARCHAR(255) NOT NULL,
 *                  table_namespace VARCHAR(255) NOT NULL,
 *                  table_name VARCHAR(255) NOT NULL,
 *                  metadata_location VARCHAR(1000),
 *                  previous_metadata_location VARCHAR(1000),
 *                  iceberg_type VARCHAR(5),
 *                  PRIMARY KEY (catalog_name, table_namespace, table_name))
 *   iceberg_namespace_properties(catalog_name VARCHAR(255) NOT NULL,
 *                  namespace VARCHAR(255) NOT NULL,
 *                  property_key VARCHAR(255),
 *                  property_value VARCHAR(1000),
 *                  PRIMARY KEY (catalog_name, namespace, property_key))
 *
 * Commit (swap) is JdbcUtil's DO_COMMIT_SQL (catalog_jdbc.c).  The database
 * runs in WAL mode with a busy handler (busy_wait: up to 10 s, ended by
 * the statement's cancel or timeout with 57014), so several floe processes
 * can share one catalog file.  Multi-table commits (swap_tables, for transactions)
 * start with BEGIN IMMEDIATE: the write lock first, so two committers never
 * deadlock upgrading a read lock.
 *
 * Threads: every catalog call runs on a pooled connection of its own
 * (catalog_jdbc.c), so sqlite3_changes / sqlite3_errmsg are the call's
 * own.  SQLite's WAL mode lets readers run beside the one writer; writers
 * wait for each other in the busy handler (no floe lock is held
 * meanwhile).  A connection left inside a transaction (a failed ROLLBACK)
 * is closed, not pooled.
 *
 * INTERFACE ROUTINES
 *   catalog_sqlite_open(&cat, db_path, catalog_name, err)
 *   (the vtable of catalog.h, from catalog_jdbc.c)
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "catalog/catalog_jdbc.h"
#include "common/interrupt.h"

#define BUSY_TIMEOUT_MS 10000
#define POOL_IDLE_MAX 64

static int
db_err(sqlite3 *db, floe_error *err, const char *what)
{
	int code = sqlite3_errcode(db);
	const char *state;

	if ((code == SQLITE_BUSY || code == SQLITE_LOCKED) && interrupt_pending())
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	state = (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		? ERRCODE_T_R_SERIALIZATION_FAILURE : ERRCODE_IO_ERROR;
	return floe_errorf(err, state, "catalog: %s: %s", what, sqlite3_errmsg(db));
}

/* Prepare sql and bind the string arguments to $1..$n (NULL binds SQL
 * NULL).  Statements stay prepared on their (pooled) connection: a
 * statement of the same text that is not running is reused (done() resets
 * it), so a catalog lookup does not parse SQL each time.  A connection
 * holds at most one idle statement per text: the few fixed texts of
 * catalog_jdbc.c. */
static int
prep(sqlite3 *db, sqlite3_stmt **st, floe_error *err, const char *sql, int n,
     const char *const *args)
{
	sqlite3_stmt *s = NULL;
	int i;

	while ((s = sqlite3_next_stmt(db, s)))
		if (!sqlite3_stmt_busy(s) && !strcmp(sqlite3_sql(s), sql))
			break;
	*st = s;
	if (!s && sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return db_err(db, err, "prepare");
	for (i = 0; i < n; i++) {
		char name[16];
		int k;
		snprintf(name, sizeof name, "$%d", i + 1);
		if ((k = sqlite3_bind_parameter_index(*st, name)) == 0)
			continue;
		if (args[i])
			sqlite3_bind_text(*st, k, args[i], -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(*st, k);
	}
	return FLOE_OK;
}

/* A statement of prep() is finished with: reset for the next prep(). */
static void
done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* JdbcDriver.exec */
static int
db_exec(void *vdb, floe_error *err, bool retry, const char *sql, int n,
	const char *const *args, Arena *a, char ***rows, int *nrows, int *changes)
{
	sqlite3 *db = vdb;
	sqlite3_stmt *st;
	char **v = NULL;
	int cnt = 0, cap = 0, rc;

	TRY(prep(db, &st, err, sql, n, args));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		if (!rows)
			continue;
		if (cnt == cap) {
			int ncap = cap ? cap * 2 : 8;
			v = arena_realloc(a, v, sizeof(char *) * (size_t)cap,
					  sizeof(char *) * (size_t)ncap);
			cap = ncap;
		}
		v[cnt++] = s ? arena_strdup(a, s) : NULL;
	}
	done(st);
	if (rc != SQLITE_DONE)
		return db_err(db, err, rows ? "query" : "execute");
	if (rows) {
		*rows = v;
		*nrows = cnt;
	}
	if (changes)
		*changes = sqlite3_changes(db);
	return FLOE_OK;
}

/* Close a connection with its prepared statements. */
static void
db_disconnect(void *vdb)
{
	sqlite3 *db = vdb;
	sqlite3_stmt *s;

	while (db && (s = sqlite3_next_stmt(db, NULL)))
		sqlite3_finalize(s);
	sqlite3_close(db);
}

/* A connection with the busy timeout; mutex: SQLITE_OPEN_NOMUTEX for a
 * pooled one (one thread at a time), SQLITE_OPEN_FULLMUTEX at open. */
/* The busy handler: wait for another connection's lock in 10 ms steps up
 * to BUSY_TIMEOUT_MS, and stop at once when the statement is canceled or
 * times out (sqlite3_busy_timeout's sleep cannot be interrupted). */
static int
busy_wait(void *arg, int count)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	(void)arg;
	if (interrupt_pending() || count >= BUSY_TIMEOUT_MS / 10)
		return 0;
	nanosleep(&ts, NULL);
	return 1;
}

static int
open_db(const char *path, int mutex, sqlite3 **out, floe_error *err)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | mutex,
			    NULL) != SQLITE_OK) {
		floe_errorf(err, ERRCODE_IO_ERROR, "could not open catalog \"%s\": %s", path,
			    db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return FLOE_ERR;
	}
	sqlite3_busy_handler(db, busy_wait, NULL);
	*out = db;
	return FLOE_OK;
}

static int
db_connect(const char *path, void **out, floe_error *err)
{
	sqlite3 *db;

	TRY(open_db(path, SQLITE_OPEN_NOMUTEX, &db, err));
	*out = db;
	return FLOE_OK;
}

/* not inside a transaction */
static bool
db_reusable(void *db)
{
	return sqlite3_get_autocommit(db) != 0;
}

/* a local file: the connection never breaks */
static bool
db_broken(void *db)
{
	return false;
}

static bool
db_reset(void *db)
{
	return true;
}

static const JdbcDriver sqlite_driver = {
	.begin_sql = "BEGIN IMMEDIATE",
	.name_order = "",
	.pool_idle_max = POOL_IDLE_MAX,
	.exec = db_exec,
	.connect = db_connect,
	.reusable = db_reusable,
	.disconnect = db_disconnect,
	.broken = db_broken,
	.reset = db_reset,
};

static int
exec_sql(sqlite3 *db, const char *sql, floe_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		floe_errorf(err, ERRCODE_IO_ERROR, "catalog: %s", msg ? msg : "error");
		sqlite3_free(msg);
		return FLOE_ERR;
	}
	return FLOE_OK;
}

/* Does iceberg_tables have the V1 iceberg_type column? */
static bool
has_type_column(sqlite3 *db)
{
	sqlite3_stmt *st;
	bool found = false;

	if (sqlite3_prepare_v2(db, "PRAGMA table_info(iceberg_tables)", -1, &st, NULL) != SQLITE_OK)
		return false;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 1);
		if (col && strcmp(col, "iceberg_type") == 0)
			found = true;
	}
	sqlite3_finalize(st);
	return found;
}

int
catalog_sqlite_open(Catalog **out, const char *db_path, const char *catalog_name,
		    floe_error *err)
{
	sqlite3 *db;

	TRY(open_db(db_path, SQLITE_OPEN_FULLMUTEX, &db, err));
	if (exec_sql(db, "PRAGMA journal_mode=WAL", err) != FLOE_OK ||
	    exec_sql(db,
		     "CREATE TABLE IF NOT EXISTS iceberg_tables("
		     "catalog_name VARCHAR(255) NOT NULL,"
		     "table_namespace VARCHAR(255) NOT NULL,"
		     "table_name VARCHAR(255) NOT NULL,"
		     "metadata_location VARCHAR(1000),"
		     "previous_metadata_location VARCHAR(1000),"
		     "iceberg_type VARCHAR(5),"
		     "PRIMARY KEY (catalog_name, table_namespace, table_name));"
		     "CREATE TABLE IF NOT EXISTS iceberg_namespace_properties("
		     "catalog_name VARCHAR(255) NOT NULL,"
		     "namespace VARCHAR(255) NOT NULL,"
		     "property_key VARCHAR(255),"
		     "property_value VARCHAR(1000),"
		     "PRIMARY KEY (catalog_name, namespace, property_key));"
		     CATALOG_JDBC_SEQ_SCHEMA, err) != FLOE_OK) {
		floe_error_prefix(err, "catalog \"%s\": ", db_path);
		sqlite3_close(db);
		return FLOE_ERR;
	}
	if (!has_type_column(db) &&
	    exec_sql(db, "ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)",
		     err) != FLOE_OK) {
		sqlite3_close(db);
		return FLOE_ERR;
	}
	return catalog_jdbc_new(out, &sqlite_driver, db_path, catalog_name, db);
}
