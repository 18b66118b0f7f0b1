/*
 * catalog_pg.c — the shared catalog: Iceberg's JDBC catalog schema in a
 * PostgreSQL database, through libpq (see catalog/catalog.h).
 *
 * Several `floe serve` processes (nodes) over one warehouse coordinate only
 * through this catalog: each table's current metadata location, swapped by
 * compare-and-swap.  The schema is the one catalog_sqlite.c creates
 * (apache/iceberg JdbcUtil.java, V1 with iceberg_type), so Iceberg's
 * JdbcCatalog can open the same database.
 *
 *   swap:        UPDATE iceberg_tables SET metadata_location = $new,
 *                previous_metadata_location = $expected WHERE key AND
 *                metadata_location = $expected     (0 rows -> 40001/42P01)
 *   swap_tables: BEGIN; the same UPDATE per table; COMMIT when every one
 *                changed a row, else ROLLBACK and 40001.  PostgreSQL's row
 *                locks make concurrent multi-table swaps all-or-nothing.
 *
 * Connection loss: a statement that fails because the connection broke is
 * re-run once on a reset connection.  A swap whose connection broke has an
 * unknown outcome: the catalog reconnects and reads the tables' locations
 * (resolve): all at the new ones -> it landed (success); all at the
 * expected ones -> it did not, and runs once more; else 40001.  Only when
 * no connection can be made is it 08006 ("outcome unknown"), never 40001,
 * so the caller keeps its files (txn.c also looks for its job id).
 *
 * Threads: the Engine's sessions call the catalog concurrently (server.c).
 * Every call takes a libpq connection of its own from a pool (connected on
 * demand, at most POOL_IDLE_MAX kept idle) and gives it back when done; a
 * connection that is broken or not idle (inside a transaction) is closed,
 * not pooled.  libpq is thread-safe for distinct connections.
 *
 * INTERFACE ROUTINES
 *   catalog_pg_open(&cat, conninfo, catalog_name, err)
 *   (the vtable of catalog.h)
 */
#include <postgresql/libpq-fe.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "catalog/catalog.h"

#define POOL_IDLE_MAX 32

typedef struct Pool {
	pthread_mutex_t mu;
	char *conninfo;
	PGconn *idle[POOL_IDLE_MAX];
	int nidle;
} Pool;

/* The shared catalog has conn = NULL; each call runs on a copy of it with
 * conn set to the connection it took (see WRAP below). */
typedef struct PgCatalog {
	Catalog base;
	PGconn *conn;
	char *name;
	Pool *pool;
} PgCatalog;

#define CONN(c) (((PgCatalog *)(c))->conn)
#define NAME(c) (((PgCatalog *)(c))->name)

static int
pg_err(PGconn *conn, const PGresult *r, floe_error *err, const char *what)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = r ? PQresultErrorMessage(r) : NULL;
	const char *code = ERRCODE_IO_ERROR;

	if (!msg || !*msg)
		msg = PQerrorMessage(conn);
	if (PQstatus(conn) != CONNECTION_OK)
		code = ERRCODE_CONNECTION_FAILURE;
	else if (state && (!strcmp(state, "40001") || !strcmp(state, "40P01")))
		code = ERRCODE_T_R_SERIALIZATION_FAILURE;
	floe_errorf(err, code, "catalog: %s: %s", what, msg);
	/* drop libpq's trailing newline */
	{
		size_t n = strlen(err->message);
		if (n && err->message[n - 1] == '\n')
			err->message[n - 1] = 0;
	}
	return FLOE_ERR;
}

/* Run sql with text parameters; *out is the result (caller clears) when it
 * succeeded.  A broken connection is reset and the statement re-run once
 * when retry is true. */
static int
run(Catalog *c, floe_error *err, PGresult **out, bool retry, const char *sql, int n,
    const char *const *args)
{
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		PGresult *r = PQexecParams(CONN(c), sql, n, NULL, args, NULL, NULL, 0);
		ExecStatusType st = PQresultStatus(r);
		if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
			if (out)
				*out = r;
			else
				PQclear(r);
			return FLOE_OK;
		}
		if (PQstatus(CONN(c)) != CONNECTION_OK && retry && attempt == 0) {
			PQclear(r);
			PQreset(CONN(c));
			continue;
		}
		pg_err(CONN(c), r, err, "query");
		PQclear(r);
		return FLOE_ERR;
	}
	return FLOE_ERR;
}

static int
changed(PGresult *r)
{
	int n = atoi(PQcmdTuples(r));
	PQclear(r);
	return n;
}

static int
any_row(Catalog *c, floe_error *err, bool *found, const char *sql, int n,
	const char *const *args)
{
	PGresult *r;

	TRY(run(c, err, &r, true, sql, n, args));
	*found = PQntuples(r) > 0;
	PQclear(r);
	return FLOE_OK;
}

static int
list_rows(Catalog *c, floe_error *err, Arena *a, char ***out, int *nout, const char *sql,
	  int n, const char *const *args)
{
	PGresult *r;
	int i, rows;

	TRY(run(c, err, &r, true, sql, n, args));
	rows = PQntuples(r);
	*out = ARENA_ARRAY(a, char *, rows + 1);
	for (i = 0; i < rows; i++)
		(*out)[i] = arena_strdup(a, PQgetvalue(r, i, 0));
	*nout = rows;
	PQclear(r);
	return FLOE_OK;
}

static int
ns_exists(Catalog *c, const char *ns, bool *exists, floe_error *err)
{
	const char *args[] = { NAME(c), ns };

	TRY(any_row(c, err, exists,
		    "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = $1 "
		    "AND namespace = $2 LIMIT 1", 2, args));
	if (*exists)
		return FLOE_OK;
	return any_row(c, err, exists,
		       "SELECT 1 FROM iceberg_tables WHERE catalog_name = $1 "
		       "AND table_namespace = $2 LIMIT 1", 2, args);
}

static int
ns_create(Catalog *c, const char *ns, floe_error *err)
{
	const char *args[] = { NAME(c), ns };
	PGresult *r;
	bool exists;

	TRY(ns_exists(c, ns, &exists, err));
	if (exists)
		return floe_errorf(err, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", ns);
	TRY(run(c, err, &r, true,
		"INSERT INTO iceberg_namespace_properties (catalog_name, namespace, "
		"property_key, property_value) VALUES ($1, $2, 'exists', 'true') "
		"ON CONFLICT DO NOTHING", 2, args));
	if (changed(r) == 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", ns);
	return FLOE_OK;
}

static int
ns_drop(Catalog *c, const char *ns, floe_error *err)
{
	const char *args[] = { NAME(c), ns };
	bool exists, has_tables;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	TRY(any_row(c, err, &has_tables,
		    "SELECT 1 FROM iceberg_tables WHERE catalog_name = $1 "
		    "AND table_namespace = $2 LIMIT 1", 2, args));
	if (has_tables)
		return floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				   "cannot drop schema \"%s\" because other objects depend on it", ns);
	return run(c, err, NULL, true,
		   "DELETE FROM iceberg_namespace_properties WHERE catalog_name = $1 "
		   "AND namespace = $2", 2, args);
}

static int
ns_list(Catalog *c, Arena *a, char ***names, int *n, floe_error *err)
{
	const char *args[] = { NAME(c) };

	return list_rows(c, err, a, names, n,
			 "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = $1 "
			 "UNION SELECT table_namespace FROM iceberg_tables WHERE catalog_name = $1 "
			 "ORDER BY 1", 1, args);
}

static int
tbl_create(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	const char *args[] = { NAME(c), ns, name, loc };
	PGresult *r;
	bool exists;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	TRY(run(c, err, &r, true,
		"INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
		"metadata_location, previous_metadata_location, iceberg_type) "
		"VALUES ($1, $2, $3, $4, NULL, 'TABLE') ON CONFLICT DO NOTHING", 4, args));
	if (changed(r) == 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s.%s\" already exists",
				   ns, name);
	return FLOE_OK;
}

static int
tbl_load(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	const char *args[] = { NAME(c), ns, name };
	PGresult *r;

	TRY(run(c, err, &r, true,
		"SELECT metadata_location FROM iceberg_tables WHERE catalog_name = $1 "
		"AND table_namespace = $2 AND table_name = $3 "
		"AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", 3, args));
	if (PQntuples(r) == 0 || PQgetisnull(r, 0, 0)) {
		PQclear(r);
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist",
				   ns, name);
	}
	*loc = arena_strdup(a, PQgetvalue(r, 0, 0));
	PQclear(r);
	return FLOE_OK;
}

static const char SWAP_SQL[] =
	"UPDATE iceberg_tables SET metadata_location = $1, previous_metadata_location = $2 "
	"WHERE catalog_name = $3 AND table_namespace = $4 AND table_name = $5 "
	"AND metadata_location = $2";

/* 40001, or 42P01 when the table is gone. */
static int
swap_lost(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	Arena *a = arena_new(0);
	char *cur;
	int rc = tbl_load(c, ns, name, a, &cur, err);

	arena_free(a);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit table \"%s.%s\": concurrent update", ns, name);
}

/* After the connection broke during a swap: reconnect and read where the
 * tables are.  All at new: the swap landed (FLOE_OK, *landed).  All at
 * expected: it did not (FLOE_OK, !*landed: the caller may run it again).
 * Otherwise 40001; no connection: 08006, the outcome unknown. */
static int
resolve(Catalog *c, int n, const char *const *ns, const char *const *names,
	const char *const *expected, const char *const *new_locs, bool *landed, floe_error *err)
{
	Arena *a;
	int i, at_new = 0, at_old = 0;

	PQreset(CONN(c));
	if (PQstatus(CONN(c)) != CONNECTION_OK)
		return floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
				   "catalog: connection lost during a commit; its outcome is unknown");
	a = arena_new(0);
	for (i = 0; i < n; i++) {
		char *cur;
		if (tbl_load(c, ns[i], names[i], a, &cur, err) != FLOE_OK) {
			arena_free(a);
			return FLOE_ERR;
		}
		at_new += !strcmp(cur, new_locs[i]);
		at_old += !strcmp(cur, expected[i]);
	}
	arena_free(a);
	*landed = at_new == n;
	if (at_new == n || at_old == n)
		return FLOE_OK;
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit: concurrent update");
}

static int swap_once(Catalog *c, int n, const char *const *ns, const char *const *names,
		     const char *const *expected, const char *const *new_locs, floe_error *err);

/* A swap, resolved and run once more when the connection broke under it. */
static int
swap_resolved(Catalog *c, int n, const char *const *ns, const char *const *names,
	      const char *const *expected, const char *const *new_locs, floe_error *err)
{
	int attempt;
	bool landed;

	for (attempt = 0; attempt < 2; attempt++) {
		if (swap_once(c, n, ns, names, expected, new_locs, err) == FLOE_OK)
			return FLOE_OK;
		if (PQstatus(CONN(c)) == CONNECTION_OK)
			return FLOE_ERR;
		TRY(resolve(c, n, ns, names, expected, new_locs, &landed, err));
		if (landed)
			return FLOE_OK;
	}
	return FLOE_ERR;
}

static int
tbl_swap(Catalog *c, const char *ns, const char *name, const char *expected,
	 const char *new_loc, floe_error *err)
{
	return swap_resolved(c, 1, &ns, &name, &expected, &new_loc, err);
}

static int
swap_once(Catalog *c, int n, const char *const *ns, const char *const *names,
	  const char *const *expected, const char *const *new_locs, floe_error *err)
{
	floe_error ignore;
	PGresult *r;
	int i;

	if (n == 1) {
		const char *args[] = { new_locs[0], expected[0], NAME(c), ns[0], names[0] };
		TRY(run(c, err, &r, false, SWAP_SQL, 5, args));
		if (changed(r) == 1)
			return FLOE_OK;
		return swap_lost(c, ns[0], names[0], err);
	}
	TRY(run(c, err, NULL, true, "BEGIN", 0, NULL));
	for (i = 0; i < n; i++) {
		const char *args[] = { new_locs[i], expected[i], NAME(c), ns[i], names[i] };
		if (run(c, err, &r, false, SWAP_SQL, 5, args) != FLOE_OK)
			goto fail;
		if (changed(r) != 1) {
			(void)run(c, &ignore, NULL, false, "ROLLBACK", 0, NULL);
			return swap_lost(c, ns[i], names[i], err);
		}
	}
	if (run(c, err, NULL, false, "COMMIT", 0, NULL) == FLOE_OK)
		return FLOE_OK;
fail:
	if (PQstatus(CONN(c)) == CONNECTION_OK)
		(void)run(c, &ignore, NULL, false, "ROLLBACK", 0, NULL);
	return FLOE_ERR;
}

static int
tbl_swap_many(Catalog *c, int n, const char *const *ns, const char *const *names,
	      const char *const *expected, const char *const *new_locs, floe_error *err)
{
	return swap_resolved(c, n, ns, names, expected, new_locs, err);
}

static int
tbl_drop(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	const char *args[] = { NAME(c), ns, name };
	PGresult *r;

	TRY(run(c, err, &r, true,
		"DELETE FROM iceberg_tables WHERE catalog_name = $1 AND "
		"table_namespace = $2 AND table_name = $3 "
		"AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", 3, args));
	if (changed(r) == 0)
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
	return list_rows(c, err, a, names, n,
			 "SELECT table_name FROM iceberg_tables WHERE catalog_name = $1 AND "
			 "table_namespace = $2 AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL) "
			 "ORDER BY table_name COLLATE \"C\"", 2, args);
}

/* ---- the connection pool ----------------------------------------------- */

static void quiet(void *arg, const char *message);

/* h = a copy of the shared catalog c with a connection of its own. */
static int
take(Catalog *c, PgCatalog *h, floe_error *err)
{
	PgCatalog *pc = (PgCatalog *)c;
	Pool *p = pc->pool;

	*h = *pc;
	h->conn = NULL;
	pthread_mutex_lock(&p->mu);
	if (p->nidle)
		h->conn = p->idle[--p->nidle];
	pthread_mutex_unlock(&p->mu);
	if (h->conn)
		return FLOE_OK;
	h->conn = PQconnectdb(p->conninfo);
	if (!h->conn || PQstatus(h->conn) != CONNECTION_OK) {
		floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
			    "could not connect to the PostgreSQL catalog: %s",
			    h->conn ? PQerrorMessage(h->conn) : "out of memory");
		PQfinish(h->conn);
		return FLOE_ERR;
	}
	PQsetNoticeProcessor(h->conn, quiet, NULL);
	return FLOE_OK;
}

static void
give(PgCatalog *h)
{
	Pool *p = h->pool;
	PGconn *conn = h->conn;

	if (PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE) {
		pthread_mutex_lock(&p->mu);
		if (p->nidle < POOL_IDLE_MAX) {
			p->idle[p->nidle++] = conn;
			conn = NULL;
		}
		pthread_mutex_unlock(&p->mu);
	}
	if (conn)
		PQfinish(conn);
}

#define WRAP(fn, params, args)                                   \
	static int w_##fn params                                 \
	{                                                        \
		PgCatalog h;                                     \
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
	PgCatalog *pc = (PgCatalog *)c;
	int i;

	if (!c)
		return;
	for (i = 0; i < pc->pool->nidle; i++)
		PQfinish(pc->pool->idle[i]);
	pthread_mutex_destroy(&pc->pool->mu);
	free(pc->pool->conninfo);
	free(pc->pool);
	free(pc->name);
	free(pc);
}

static const CatalogVT pg_vt = {
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

/* The schema, created once; an advisory lock keeps two processes that
 * start together from racing on CREATE TABLE IF NOT EXISTS. */
static const char SCHEMA_SQL[] =
	"SELECT pg_advisory_xact_lock(7345227001);"
	"CREATE TABLE IF NOT EXISTS iceberg_tables("
	"catalog_name VARCHAR(255) NOT NULL,"
	"table_namespace VARCHAR(255) NOT NULL,"
	"table_name VARCHAR(255) NOT NULL,"
	"metadata_location VARCHAR(1000),"
	"previous_metadata_location VARCHAR(1000),"
	"iceberg_type VARCHAR(5),"
	"PRIMARY KEY (catalog_name, table_namespace, table_name));"
	"ALTER TABLE iceberg_tables ADD COLUMN IF NOT EXISTS iceberg_type VARCHAR(5);"
	"CREATE TABLE IF NOT EXISTS iceberg_namespace_properties("
	"catalog_name VARCHAR(255) NOT NULL,"
	"namespace VARCHAR(255) NOT NULL,"
	"property_key VARCHAR(255),"
	"property_value VARCHAR(1000),"
	"PRIMARY KEY (catalog_name, namespace, property_key));";

static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;     /* "relation already exists, skipping" and the like */
}

int
catalog_pg_open(Catalog **out, const char *conninfo, const char *catalog_name, floe_error *err)
{
	PgCatalog *c;
	PGconn *conn = PQconnectdb(conninfo);
	PGresult *r;

	if (!conn || PQstatus(conn) != CONNECTION_OK) {
		floe_errorf(err, ERRCODE_CONNECTION_EXCEPTION,
			    "could not connect to the PostgreSQL catalog: %s",
			    conn ? PQerrorMessage(conn) : "out of memory");
		PQfinish(conn);
		return FLOE_ERR;
	}
	PQsetNoticeProcessor(conn, quiet, NULL);
	/* simple query protocol: several statements, one implicit transaction */
	r = PQexec(conn, SCHEMA_SQL);
	if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
		pg_err(conn, r, err, "creating the catalog tables");
		PQclear(r);
		PQfinish(conn);
		return FLOE_ERR;
	}
	PQclear(r);
	c = xcalloc(1, sizeof *c);
	c->base.vt = &pg_vt;
	c->conn = NULL;
	c->name = xstrdup(catalog_name && *catalog_name ? catalog_name : "floe");
	c->pool = xcalloc(1, sizeof *c->pool);
	pthread_mutex_init(&c->pool->mu, NULL);
	c->pool->conninfo = xstrdup(conninfo);
	c->pool->idle[c->pool->nidle++] = conn;   /* the first pooled connection */
	*out = &c->base;
	return FLOE_OK;
}
