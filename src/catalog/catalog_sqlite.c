/*
 * catalog_sqlite.c — the embedded catalog: Iceberg's JDBC catalog schema in
 * a SQLite file (see catalog/catalog.h).
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
 * A namespace exists when it has a property row (we write "exists"="true",
 * as JdbcCatalog does) or a table.  Tables carry iceberg_type 'TABLE';
 * rows with NULL type (written by pre-V1 JDBC catalogs) count as tables.
 *
 * Commit (swap) is JdbcUtil's DO_COMMIT_SQL: UPDATE ... SET
 * metadata_location = new, previous_metadata_location = old WHERE key AND
 * metadata_location = expected.  Zero rows changed -> 40001 (or 42P01 when
 * the table is gone).  The database runs in WAL mode with a busy timeout,
 * so several floe processes can share one catalog file.
 *
 * Multi-table commit (swap_tables, for transactions): BEGIN IMMEDIATE (the
 * write lock first, so two committers never deadlock upgrading a read
 * lock), the same UPDATE per table, COMMIT only when each changed one row;
 * else ROLLBACK and 40001.
 *
 * Threads: the Engine's sessions call the catalog concurrently (server.c).
 * Every call takes a connection of its own from a pool (opened on demand,
 * at most POOL_IDLE_MAX kept idle) and gives it back when done, so no other
 * call's statement runs inside a swap_tables transaction and
 * sqlite3_changes / sqlite3_errmsg are the call's own.  SQLite's WAL mode
 * lets readers run beside the one writer; writers wait for each other in
 * the busy handler (no floe lock is held meanwhile).  A connection left
 * inside a transaction (a failed ROLLBACK) is closed, not pooled.
 *
 * INTERFACE ROUTINES
 *   catalog_sqlite_open(&cat, db_path, catalog_name, err)
 *   (the vtable of catalog.h)
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "catalog/catalog.h"

#define BUSY_TIMEOUT_MS 10000
#define POOL_IDLE_MAX 64

typedef struct Pool {
	pthread_mutex_t mu;
	char *path;
	sqlite3 *idle[POOL_IDLE_MAX];
	int nidle;
} Pool;

/* The shared catalog has db = NULL; each call runs on a copy of it with
 * db set to the connection it took (see WRAP below). */
typedef struct SqliteCatalog {
	Catalog base;
	sqlite3 *db;
	char *name;
	Pool *pool;
} SqliteCatalog;

#define DB(c) (((SqliteCatalog *)(c))->db)
#define NAME(c) (((SqliteCatalog *)(c))->name)

static int
db_err(sqlite3 *db, floe_error *err, const char *what)
{
	int code = sqlite3_errcode(db);
	const char *state = (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		? ERRCODE_T_R_SERIALIZATION_FAILURE : ERRCODE_IO_ERROR;
	return floe_errorf(err, state, "catalog: %s: %s", what, sqlite3_errmsg(db));
}

/* Prepare sql and bind the string arguments (NULL binds SQL NULL).
 * Statements stay prepared on their (pooled) connection: a statement of
 * the same text that is not running is reused (done() resets it), so a
 * catalog lookup does not parse SQL each time.  A connection holds at most
 * one idle statement per text: the few fixed texts of this file. */
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
		if (args[i])
			sqlite3_bind_text(*st, i + 1, args[i], -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(*st, i + 1);
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

/* Close a connection with its prepared statements. */
static void
close_db(sqlite3 *db)
{
	sqlite3_stmt *s;

	while (db && (s = sqlite3_next_stmt(db, NULL)))
		sqlite3_finalize(s);
	sqlite3_close(db);
}

/* Run a statement that returns no rows; *changes = rows changed. */
static int
exec_args(sqlite3 *db, floe_error *err, int *changes, const char *sql, int n,
	  const char *const *args)
{
	sqlite3_stmt *st;
	int rc;

	TRY(prep(db, &st, err, sql, n, args));
	rc = sqlite3_step(st);
	done(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_err(db, err, "execute");
	if (changes)
		*changes = sqlite3_changes(db);
	return FLOE_OK;
}

/* Does the query return at least one row? */
static int
any_row(sqlite3 *db, floe_error *err, bool *found, const char *sql, int n,
	const char *const *args)
{
	sqlite3_stmt *st;
	int rc;

	TRY(prep(db, &st, err, sql, n, args));
	rc = sqlite3_step(st);
	done(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_err(db, err, "query");
	*found = rc == SQLITE_ROW;
	return FLOE_OK;
}

/* First text column of every row, into an arena array. */
static int
list_rows(sqlite3 *db, floe_error *err, Arena *a, char ***out, int *nout,
	  const char *sql, int n, const char *const *args)
{
	sqlite3_stmt *st;
	char **v = NULL;
	int cnt = 0, cap = 0, rc;

	TRY(prep(db, &st, err, sql, n, args));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		if (cnt == cap) {
			int ncap = cap ? cap * 2 : 8;
			v = arena_realloc(a, v, sizeof(char *) * (size_t)cap,
					  sizeof(char *) * (size_t)ncap);
			cap = ncap;
		}
		v[cnt++] = arena_strdup(a, s ? s : "");
	}
	done(st);
	if (rc != SQLITE_DONE)
		return db_err(db, err, "list");
	*out = v;
	*nout = cnt;
	return FLOE_OK;
}

static int
ns_exists(Catalog *c, const char *ns, bool *exists, floe_error *err)
{
	const char *args[] = { NAME(c), ns };

	TRY(any_row(DB(c), err, exists,
		    "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? "
		    "AND namespace = ? LIMIT 1", 2, args));
	if (*exists)
		return FLOE_OK;
	return any_row(DB(c), err, exists,
		       "SELECT 1 FROM iceberg_tables WHERE catalog_name = ? "
		       "AND table_namespace = ? LIMIT 1", 2, args);
}

static int
ns_create(Catalog *c, const char *ns, floe_error *err)
{
	const char *args[] = { NAME(c), ns };
	bool exists;

	TRY(ns_exists(c, ns, &exists, err));
	if (exists)
		return floe_errorf(err, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", ns);
	return exec_args(DB(c), err, NULL,
			 "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, "
			 "property_key, property_value) VALUES (?, ?, 'exists', 'true')", 2, args);
}

static int
ns_drop(Catalog *c, const char *ns, floe_error *err)
{
	const char *args[] = { NAME(c), ns };
	bool exists, has_tables;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	TRY(any_row(DB(c), err, &has_tables,
		    "SELECT 1 FROM iceberg_tables WHERE catalog_name = ? "
		    "AND table_namespace = ? LIMIT 1", 2, args));
	if (has_tables)
		return floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				   "cannot drop schema \"%s\" because other objects depend on it", ns);
	return exec_args(DB(c), err, NULL,
			 "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? "
			 "AND namespace = ?", 2, args);
}

static int
ns_list(Catalog *c, Arena *a, char ***names, int *n, floe_error *err)
{
	const char *args[] = { NAME(c), NAME(c) };

	return list_rows(DB(c), err, a, names, n,
			 "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = ? "
			 "UNION SELECT table_namespace FROM iceberg_tables WHERE catalog_name = ? "
			 "ORDER BY 1", 2, args);
}

static int
tbl_create(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	const char *args[] = { NAME(c), ns, name, loc };
	bool exists;
	int changes = 0;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	TRY(exec_args(DB(c), err, &changes,
		      "INSERT OR IGNORE INTO iceberg_tables (catalog_name, table_namespace, "
		      "table_name, metadata_location, previous_metadata_location, iceberg_type) "
		      "VALUES (?, ?, ?, ?, NULL, 'TABLE')", 4, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s.%s\" already exists",
				   ns, name);
	return FLOE_OK;
}

static int
tbl_load(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	const char *args[] = { NAME(c), ns, name };
	sqlite3_stmt *st;
	int rc;

	TRY(prep(DB(c), &st, err,
		 "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = ? "
		 "AND table_namespace = ? AND table_name = ? "
		 "AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", 3, args));
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		*loc = s ? arena_strdup(a, s) : NULL;
	}
	done(st);
	if (rc == SQLITE_ROW && *loc)
		return FLOE_OK;
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist",
				   ns, name);
	return db_err(DB(c), err, "load table");
}

static int
tbl_swap(Catalog *c, const char *ns, const char *name, const char *expected,
	 const char *new_loc, floe_error *err)
{
	const char *args[] = { new_loc, expected, NAME(c), ns, name, expected };
	int changes = 0;
	Arena *a;
	char *cur;
	int rc;

	TRY(exec_args(DB(c), err, &changes,
		      "UPDATE iceberg_tables SET metadata_location = ?, "
		      "previous_metadata_location = ? WHERE catalog_name = ? AND "
		      "table_namespace = ? AND table_name = ? AND metadata_location = ?",
		      6, args));
	if (changes == 1)
		return FLOE_OK;
	a = arena_new(0);
	rc = tbl_load(c, ns, name, a, &cur, err);
	arena_free(a);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit table \"%s.%s\": concurrent update", ns, name);
}

static int
tbl_swap_many(Catalog *c, int n, const char *const *ns, const char *const *names,
	      const char *const *expected, const char *const *new_locs, floe_error *err)
{
	floe_error ignore;
	int i, changes;

	if (n == 1)
		return tbl_swap(c, ns[0], names[0], expected[0], new_locs[0], err);
	TRY(exec_args(DB(c), err, NULL, "BEGIN IMMEDIATE", 0, NULL));
	for (i = 0; i < n; i++) {
		const char *args[] = { new_locs[i], expected[i], NAME(c), ns[i], names[i],
				       expected[i] };
		changes = 0;
		if (exec_args(DB(c), err, &changes,
			      "UPDATE iceberg_tables SET metadata_location = ?, "
			      "previous_metadata_location = ? WHERE catalog_name = ? AND "
			      "table_namespace = ? AND table_name = ? AND metadata_location = ?",
			      6, args) != FLOE_OK)
			goto fail;
		if (changes != 1) {
			floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				    "could not commit table \"%s.%s\": concurrent update", ns[i],
				    names[i]);
			goto fail;
		}
	}
	if (exec_args(DB(c), err, NULL, "COMMIT", 0, NULL) == FLOE_OK)
		return FLOE_OK;
fail:
	(void)exec_args(DB(c), &ignore, NULL, "ROLLBACK", 0, NULL);
	return FLOE_ERR;
}

static int
tbl_drop(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	const char *args[] = { NAME(c), ns, name };
	int changes = 0;

	TRY(exec_args(DB(c), err, &changes,
		      "DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
		      "table_namespace = ? AND table_name = ? "
		      "AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", 3, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist",
				   ns, name);
	return FLOE_OK;
}

static int
tbl_list(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	const char *args[] = { NAME(c), ns };
	bool exists;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	return list_rows(DB(c), err, a, names, n,
			 "SELECT table_name FROM iceberg_tables WHERE catalog_name = ? AND "
			 "table_namespace = ? AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL) "
			 "ORDER BY table_name", 2, args);
}

/* ---- the connection pool ----------------------------------------------- */

static int
open_conn(const char *path, sqlite3 **out, floe_error *err)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		floe_errorf(err, ERRCODE_IO_ERROR, "could not open catalog \"%s\": %s", path,
			    db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return FLOE_ERR;
	}
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	*out = db;
	return FLOE_OK;
}

/* h = a copy of the shared catalog c with a connection of its own. */
static int
take(Catalog *c, SqliteCatalog *h, floe_error *err)
{
	SqliteCatalog *sc = (SqliteCatalog *)c;
	Pool *p = sc->pool;

	*h = *sc;
	h->db = NULL;
	pthread_mutex_lock(&p->mu);
	if (p->nidle)
		h->db = p->idle[--p->nidle];
	pthread_mutex_unlock(&p->mu);
	if (h->db)
		return FLOE_OK;
	return open_conn(p->path, &h->db, err);
}

static void
give(SqliteCatalog *h)
{
	Pool *p = h->pool;
	sqlite3 *db = h->db;

	if (sqlite3_get_autocommit(db)) {     /* not inside a transaction */
		pthread_mutex_lock(&p->mu);
		if (p->nidle < POOL_IDLE_MAX) {
			p->idle[p->nidle++] = db;
			db = NULL;
		}
		pthread_mutex_unlock(&p->mu);
	}
	if (db)
		close_db(db);
}

#define WRAP(fn, params, args)                                   \
	static int w_##fn params                                 \
	{                                                        \
		SqliteCatalog h;                                 \
		int rc;                                          \
		if (take(c, &h, err) != FLOE_OK)                 \
			return FLOE_ERR;                         \
		rc = fn args;                                    \
		give(&h);                                        \
		return rc;                                       \
	}

WRAP(ns_create, (Catalog *c, const char *ns, floe_error *err), (&h.base, ns, err))
WRAP(ns_drop, (Catalog *c, const char *ns, floe_error *err), (&h.base, ns, err))
WRAP(ns_exists, (Catalog *c, const char *ns, bool *exists, floe_error *err),
     (&h.base, ns, exists, err))
WRAP(ns_list, (Catalog *c, Arena *a, char ***names, int *n, floe_error *err),
     (&h.base, a, names, n, err))
WRAP(tbl_create, (Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err),
     (&h.base, ns, name, loc, err))
WRAP(tbl_load, (Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err),
     (&h.base, ns, name, a, loc, err))
WRAP(tbl_swap, (Catalog *c, const char *ns, const char *name, const char *expected,
		const char *new_loc, floe_error *err),
     (&h.base, ns, name, expected, new_loc, err))
WRAP(tbl_drop, (Catalog *c, const char *ns, const char *name, floe_error *err),
     (&h.base, ns, name, err))
WRAP(tbl_swap_many, (Catalog *c, int n, const char *const *ns, const char *const *names,
		     const char *const *expected, const char *const *new_locs, floe_error *err),
     (&h.base, n, ns, names, expected, new_locs, err))
WRAP(tbl_list, (Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err),
     (&h.base, ns, a, names, n, err))

static void
cat_close(Catalog *c)
{
	SqliteCatalog *sc = (SqliteCatalog *)c;
	int i;

	if (!c)
		return;
	for (i = 0; i < sc->pool->nidle; i++)
		close_db(sc->pool->idle[i]);
	pthread_mutex_destroy(&sc->pool->mu);
	free(sc->pool->path);
	free(sc->pool);
	free(sc->name);
	free(sc);
}

static const CatalogVT sqlite_vt = {
	.create_namespace = w_ns_create,
	.drop_namespace = w_ns_drop,
	.namespace_exists = w_ns_exists,
	.list_namespaces = w_ns_list,
	.create_table = w_tbl_create,
	.load_table = w_tbl_load,
	.swap_table = w_tbl_swap,
	.drop_table = w_tbl_drop,
	.swap_tables = w_tbl_swap_many,
	.list_tables = w_tbl_list,
	.close = cat_close,
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
	SqliteCatalog *c;
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		floe_errorf(err, ERRCODE_IO_ERROR, "could not open catalog \"%s\": %s", db_path,
			    db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return FLOE_ERR;
	}
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
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
		     "PRIMARY KEY (catalog_name, namespace, property_key));", err) != FLOE_OK) {
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
	c = xcalloc(1, sizeof *c);
	c->base.vt = &sqlite_vt;
	c->db = NULL;
	c->name = xstrdup(catalog_name && *catalog_name ? catalog_name : "floe");
	c->pool = xcalloc(1, sizeof *c->pool);
	pthread_mutex_init(&c->pool->mu, NULL);
	c->pool->path = xstrdup(db_path);
	c->pool->idle[c->pool->nidle++] = db;   /* the first pooled connection */
	*out = &c->base;
	return FLOE_OK;
}
