/*
 * catalog_pg.c — the shared catalog: Iceberg's JDBC catalog schema in a
 * PostgreSQL database, through libpq (see catalog/catalog.h).  This file is
 * the libpq driver of catalog_jdbc.c, which holds the catalog's logic
 * (namespaces, tables, the compare-and-swap commits, the pool).
 *
 * Several `floe serve` processes (nodes) over one warehouse coordinate only
 * through this catalog: each table's current metadata location, swapped by
 * compare-and-swap.  The schema is the one catalog_sqlite.c creates
 * (apache/iceberg JdbcUtil.java, V1 with iceberg_type), so Iceberg's
 * JdbcCatalog can open the same database.  swap_tables runs in a BEGIN ...
 * COMMIT transaction: PostgreSQL's row locks make concurrent multi-table
 * swaps all-or-nothing.
 *
 * Connection loss: a statement that fails because the connection broke is
 * re-run once on a reset connection (not a swap: catalog_jdbc.c resolves
 * a swap's unknown outcome by reading the tables' locations again, and
 * reports 08006 only when no connection can be made).  Connections are
 * pooled only when healthy and idle (not inside a transaction).  libpq is
 * thread-safe for distinct connections.
 *
 * Cancel: no call blocks in libpq; a statement is sent (PQsendQueryParams)
 * and its reply waited for with poll() on PQsocket, so a catalog wait (a
 * row or table lock held in the catalog database, a slow server) ends with
 * 57014 when the session's statement is canceled or times out: a
 * PostgreSQL CancelRequest (PQcancel) is sent and the server's reply read,
 * so a canceled swap is known not to have landed.  A ROLLBACK is never
 * canceled; a statement that starts while the flag is raised is not sent.
 *
 * INTERFACE ROUTINES
 *   catalog_pg_open(&cat, conninfo, catalog_name, err)
 *   (the vtable of catalog.h, from catalog_jdbc.c)
 */
#include <postgresql/libpq-fe.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "catalog/catalog_jdbc.h"
#include "common/interrupt.h"

#define POOL_IDLE_MAX 32

/* 57014: nothing was sent, or the server canceled it (it did not run). */
static int
canceled(floe_error *err)
{
	return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
}

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
	else if (state && !strcmp(state, "57014"))
		return canceled(err);       /* our CancelRequest: the statement did not run */
	floe_errorf(err, code, "catalog: %s: %s", what, msg);
	/* drop libpq's trailing newline */
	{
		size_t n = strlen(err->message);
		if (n && err->message[n - 1] == '\n')
			err->message[n - 1] = 0;
	}
	return FLOE_ERR;
}

/* Wait for the reply to the query just sent and return it (NULL: the
 * connection broke).  While the statement's cancel flag is raised
 * (CancelRequest, statement_timeout, SIGTERM: common/interrupt.h) a
 * PostgreSQL CancelRequest is sent once, unless `cancellable` is false
 * (ROLLBACK after a failure); the wait goes on for the server's reply,
 * which is either the statement's result or its 57014: the outcome stays
 * known.  A server that answers nothing within CANCEL_WAIT_MS of the
 * cancel is treated as a lost connection (the socket is shut, so
 * pg_broken is true and a swap's outcome is resolved as after any break). */
#define CANCEL_WAIT_MS 30000
static PGresult *
wait_result(PGconn *conn, bool cancellable)
{
	PGresult *r, *last = NULL;
	int sock = PQsocket(conn), waited = 0;
	bool sent_cancel = false;

	for (;;) {
		int fl = PQflush(conn);
		struct pollfd pfd = { .fd = sock, .events = POLLIN | (fl == 1 ? POLLOUT : 0) };
		if (fl < 0)
			break;
		if (fl == 0 && !PQisBusy(conn)) {
			r = PQgetResult(conn);
			if (!r)
				return last;
			PQclear(last);
			last = r;
			if (PQresultStatus(r) == PGRES_COPY_IN || PQresultStatus(r) == PGRES_COPY_OUT)
				return last;    /* not sent by the catalog; stop reading */
			continue;
		}
		if (cancellable && !sent_cancel && interrupt_pending()) {
			char msg[256];
			PGcancel *pc = PQgetCancel(conn);
			if (pc) {
				(void)PQcancel(pc, msg, (int)sizeof msg);
				PQfreeCancel(pc);
			}
			sent_cancel = true;
		}
		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			break;
		if (sent_cancel && (waited += 100) > CANCEL_WAIT_MS) {
			shutdown(sock, SHUT_RDWR);   /* PQconsumeInput fails: the link is lost */
			sent_cancel = false;
			cancellable = false;
		}
		if ((pfd.revents & (POLLIN | POLLERR | POLLHUP)) && !PQconsumeInput(conn))
			break;
	}
	/* the connection broke: drain what libpq holds */
	while ((r = PQgetResult(conn)) != NULL) {
		PQclear(last);
		last = r;
	}
	return last;
}

static bool pg_reset(void *conn);

/* JdbcDriver.exec: PQsendQueryParams with text parameters, waited for by
 * wait_result (cancellable; never a blocking PQexec). */
static int
pg_exec(void *vconn, floe_error *err, bool retry, const char *sql, int n,
	const char *const *args, Arena *a, char ***rows, int *nrows, int *changes)
{
	PGconn *conn = vconn;
	bool cancellable = strcmp(sql, "ROLLBACK") != 0;
	int attempt, i;

	for (attempt = 0; attempt < 2; attempt++) {
		PGresult *r;
		ExecStatusType st;
		if (cancellable && interrupt_pending())
			return canceled(err);
		r = PQsendQueryParams(conn, sql, n, NULL, args, NULL, NULL, 0)
			? wait_result(conn, cancellable) : NULL;
		st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
		if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
			if (rows) {
				int nr = PQntuples(r);
				*rows = ARENA_ARRAY(a, char *, nr + 1);
				for (i = 0; i < nr; i++)
					(*rows)[i] = PQgetisnull(r, i, 0) ? NULL
						: arena_strdup(a, PQgetvalue(r, i, 0));
				*nrows = nr;
			}
			if (changes)
				*changes = atoi(PQcmdTuples(r));
			PQclear(r);
			return FLOE_OK;
		}
		if (PQstatus(conn) != CONNECTION_OK && retry && attempt == 0) {
			PQclear(r);
			(void)pg_reset(conn);
			continue;
		}
		pg_err(conn, r, err, "query");
		PQclear(r);
		return FLOE_ERR;
	}
	return FLOE_ERR;
}

static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;     /* "relation already exists, skipping" and the like */
}

/* The conninfo's connect_timeout in seconds (0: none), which libpq does
 * not apply to a connection made with PQconnectPoll; as libpq, at least
 * 2 s. */
static int
connect_timeout_s(PGconn *conn)
{
	PQconninfoOption *opts = PQconninfo(conn), *o;
	int t = 0;

	for (o = opts; o && o->keyword; o++)
		if (!strcmp(o->keyword, "connect_timeout") && o->val && *o->val)
			t = atoi(o->val);
	PQconninfoFree(opts);
	return t <= 0 ? 0 : t < 2 ? 2 : t;
}

/* Drive a connection started with PQconnectStart / PQresetStart to its
 * end with poll() (never libpq's blocking connect), so the statement's
 * cancel flag (common/interrupt.h) stops it: 1 connected, 0 failed
 * (PQerrorMessage says why), -1 canceled or past connect_timeout
 * (*timed_out). */
static int
connect_wait(PGconn *conn, PostgresPollingStatusType (*step)(PGconn *), bool *timed_out)
{
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;
	int limit_ms = connect_timeout_s(conn) * 1000, waited = 0;

	*timed_out = false;
	for (;;) {
		struct pollfd pfd;
		int n;
		if (st == PGRES_POLLING_OK)
			return 1;
		if (st == PGRES_POLLING_FAILED)
			return 0;
		if (interrupt_pending())
			return -1;
		if (limit_ms && waited >= limit_ms) {
			*timed_out = true;
			return -1;
		}
		/* the socket can change between steps (another address) */
		pfd.fd = PQsocket(conn);
		pfd.events = st == PGRES_POLLING_READING ? POLLIN : POLLOUT;
		pfd.revents = 0;
		if (pfd.fd < 0)
			return 0;
		n = poll(&pfd, 1, 100);
		if (n < 0 && errno != EINTR)
			return 0;
		if (n > 0)
			st = step(conn);
		else
			waited += 100;
	}
}

/* A new connection; a failure is `code` (08000 at open, 08006 later),
 * the statement's cancel or timeout 57014 (nothing was sent yet). */
static int
open_conn(const char *conninfo, const char *code, PGconn **out, floe_error *err)
{
	PGconn *conn = PQconnectStart(conninfo);
	bool timed_out = false;
	int rc = conn && PQstatus(conn) != CONNECTION_BAD
		? connect_wait(conn, PQconnectPoll, &timed_out) : 0;

	if (rc < 0 && !timed_out) {
		PQfinish(conn);
		return canceled(err);
	}
	if (rc <= 0 || PQstatus(conn) != CONNECTION_OK) {
		floe_errorf(err, code, "could not connect to the PostgreSQL catalog: %s",
			    timed_out ? "timeout expired" : conn ? PQerrorMessage(conn) : "out of memory");
		PQfinish(conn);
		return FLOE_ERR;
	}
	PQsetNoticeProcessor(conn, quiet, NULL);
	*out = conn;
	return FLOE_OK;
}

static int
pg_connect(const char *conninfo, void **out, floe_error *err)
{
	PGconn *conn;

	TRY(open_conn(conninfo, ERRCODE_CONNECTION_FAILURE, &conn, err));
	*out = conn;
	return FLOE_OK;
}

static bool
pg_reusable(void *conn)
{
	return PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE;
}

static void
pg_disconnect(void *conn)
{
	PQfinish(conn);
}

static bool
pg_broken(void *conn)
{
	return PQstatus(conn) != CONNECTION_OK;
}

/* reconnect (PQresetStart, polled as a new connection: a cancel or the
 * connect_timeout ends it, the connection then stays broken) */
static bool
pg_reset(void *conn)
{
	bool timed_out;

	if (!PQresetStart(conn))
		return false;
	return connect_wait(conn, PQresetPoll, &timed_out) == 1 && PQstatus(conn) == CONNECTION_OK;
}

static const JdbcDriver pg_driver = {
	.begin_sql = "BEGIN",
	.name_order = " COLLATE \"C\"",
	.pool_idle_max = POOL_IDLE_MAX,
	.exec = pg_exec,
	.connect = pg_connect,
	.reusable = pg_reusable,
	.disconnect = pg_disconnect,
	.broken = pg_broken,
	.reset = pg_reset,
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
	"PRIMARY KEY (catalog_name, namespace, property_key));"
	CATALOG_JDBC_SEQ_SCHEMA;

int
catalog_pg_open(Catalog **out, const char *conninfo, const char *catalog_name, floe_error *err)
{
	PGconn *conn;
	PGresult *r;

	TRY(open_conn(conninfo, ERRCODE_CONNECTION_EXCEPTION, &conn, err));
	/* simple query protocol: several statements, one implicit transaction;
	 * waited for as every statement (wait_result: cancellable) */
	r = PQsendQuery(conn, SCHEMA_SQL) ? wait_result(conn, true) : NULL;
	if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
		pg_err(conn, r, err, "creating the catalog tables");
		PQclear(r);
		PQfinish(conn);
		return FLOE_ERR;
	}
	PQclear(r);
	return catalog_jdbc_new(out, &pg_driver, conninfo, catalog_name, conn);
}
