/*
 * buffer_pg.c — the insert buffer's PostgreSQL backend (buffer.h's
 * contracts, buffer_ops.h's table): the buffered INSERTs live in the
 * PostgreSQL database of the catalog (catalog_pg.c), so every `floe serve`
 * node of a warehouse sees every node's buffered rows and any node may
 * append, read and flush them.  Chosen by FLOE_INSERT_BUFFER_BACKEND =
 * postgres (ingest.c; refused unless the catalog is PostgreSQL).
 *
 * Tables (created at open, under an advisory lock as catalog_pg.c does):
 *   floe_insert_buffer_seq(table_uuid PK, seq)    a table's last sequence
 *   floe_insert_buffer(table_uuid, seq, dead, staged_ms, label, nbytes,
 *                      entry bytea, PK (table_uuid, seq))
 *
 * Design (the two contracts of buffer.h, for many nodes):
 *
 *   (a) Durability.  An append is ONE autocommit statement on a
 *       connection with synchronous_commit = on; it returns FLOE_OK only
 *       after PostgreSQL answered it, i.e. after its commit record is
 *       flushed.  A connection lost while the statement was out leaves the
 *       outcome unknown: 08006 is returned (the row may be in the buffer,
 *       as a lost COMMIT in PostgreSQL itself).
 *
 *   (b) Stable sequences.  Sequences are per table: the append statement
 *       takes the next one by INSERT ... ON CONFLICT DO UPDATE on the
 *       table's row of floe_insert_buffer_seq, which holds that row's lock
 *       until the statement's transaction committed.  A second append to
 *       the same table (any node) waits for the lock and then reads the
 *       committed value (READ COMMITTED re-reads the row it waited for),
 *       so a table's entries COMMIT IN SEQUENCE ORDER and PostgreSQL makes
 *       a commit visible before it releases its locks.  Hence any snapshot
 *       holds a prefix of each table's sequence: an entry that commits
 *       later always has a higher sequence than every entry a scan saw.
 *       ibuf_stable_seq is therefore "no limit" (UINT64_MAX): one scan (one
 *       statement, one snapshot) is itself a stable cut, and a flush that
 *       records the highest sequence it took never skips a later row.
 *       Appends to one table serialize on that row lock (one PostgreSQL
 *       commit at a time per table); different tables do not.  A node's
 *       concurrent appends to one table share commits (group commit,
 *       below pg_append's header).
 *       The caller passes the table's recorded floe.ingest-seq as a floor:
 *       a new sequence is above it, so rows buffered after a switch from
 *       the RocksDB backend (whose sequences are another counter) are never
 *       taken for committed ones.
 *
 *   Exactly once across nodes.  ingest.c's rules stay as they are: a flush
 *   scans, loads the table, keeps entries above its recorded sequence,
 *   commits with floe.ingest-seq = the highest taken, then discards up to
 *   it.  Two nodes must not flush one table at once: ibuf_flush_lock takes
 *   a PostgreSQL advisory lock (per table uuid, session level, on a
 *   connection held until ibuf_flush_unlock) around the whole flush, so the
 *   second flusher scans and loads the table after the first one's commit
 *   and discard.  A lock lost with its connection while its holder is still
 *   committing is covered by table.c's rule that a flush commit never
 *   re-bases over another flush commit (40001: the flush is retried and
 *   then drops what the other committed).  A node killed at any moment
 *   leaves committed entries only: the next flush (any node) drops those
 *   at or below the table's recorded sequence.
 *
 *   Statistics are read from the database (every node's entries): stats
 *   and table_stat are one query each; pending_bytes is cached for 200 ms
 *   (it is asked at every buffered INSERT; backpressure is approximate).
 *   flush_failures and "flushing" are this node's own.  A failed stats
 *   query returns the last rows read; a failed table_stat says "pending"
 *   so the caller's scan reports the error instead of skipping the rows.
 *
 * Cancel: no call blocks in libpq; replies are waited for with poll(), and
 * the statement's cancel flag (common/interrupt.h) sends a CancelRequest.
 * Connections are pooled (idle and healthy ones only); statements use at
 * most OPEN_MAX at once (more sessions wait for one), a flush's advisory
 * lock holds one more of its own.  Every routine may
 * come from any thread.
 *
 * INTERFACE ROUTINES
 *   ibuf_pg_open(&impl, conninfo, err)      (buffer_ops.h; ibuf_pg_ops)
 */
#include <postgresql/libpq-fe.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "common/arena.h"
#include "common/interrupt.h"
#include "ingest/buffer_ops.h"

#define POOL_MAX 16
#define OPEN_MAX 8                 /* statements' connections (flush locks may add) */
#define CANCEL_WAIT_MS 30000
#define CONNECT_WAIT_MS 10000
#define LOCK_WAIT_MS 60000
#define BYTES_CACHE_MS 200

#define BATCH_MAX 64
#define BATCH_BYTES (8 << 20)

typedef enum { W_QUEUED, W_TAKEN, W_DONE } WaiterState;

typedef struct PgWaiter {
	const char *label;
	uint64_t floor;
	const uint8_t *bytes;
	size_t len;
	uint64_t seq;
	int rc;
	floe_error *err;
	WaiterState state;
	struct PgWaiter *next;
} PgWaiter;

typedef struct PgGroup {
	char uuid[40];
	bool busy;                 /* a batch of this group is out */
	PgWaiter *head, *tail;     /* queued entries, in arrival order */
	struct PgGroup *next;
} PgGroup;

struct IbufImpl {
	char *conninfo;
	pthread_mutex_t mu;
	PGconn *idle[POOL_MAX];
	int nidle;
	int nopen;                 /* connections made and not finished */
	pthread_cond_t freed;      /* a connection was returned or finished */
	IbufStat *local;           /* this node's flushing / flush_failures */
	int nlocal, caplocal;
	IbufStat *last;            /* the last stats read */
	int nlast;
	int64_t bytes, bytes_ms;   /* pending_bytes' cache */
	struct PgGroup *groups;    /* group commit, one per table appended to */
	pthread_cond_t appended;   /* a group's batch finished */
};

typedef struct IbufImpl PgBuffer;

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char SCHEMA_SQL[] =
	"SELECT pg_advisory_xact_lock(7345227002);"
	"CREATE TABLE IF NOT EXISTS floe_insert_buffer_seq("
	"table_uuid VARCHAR(36) PRIMARY KEY, seq BIGINT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS floe_insert_buffer("
	"table_uuid VARCHAR(36) NOT NULL, seq BIGINT NOT NULL, dead BOOLEAN NOT NULL DEFAULT false,"
	"staged_ms BIGINT NOT NULL, label TEXT NOT NULL, nbytes INTEGER NOT NULL, entry BYTEA NOT NULL,"
	"PRIMARY KEY (table_uuid, seq));";

static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Wait for the reply to what was just sent (NULL: the connection broke);
 * a raised cancel flag sends one CancelRequest, the wait goes on for the
 * server's answer (CANCEL_WAIT_MS at most, then the link counts as lost). */
static PGresult *
wait_reply(PGconn *c)
{
	PGresult *r, *last = NULL;
	bool sent = false;
	int waited = 0;

	for (;;) {
		int fl = PQflush(c);
		struct pollfd p = { .fd = PQsocket(c), .events = POLLIN | (fl == 1 ? POLLOUT : 0) };
		if (fl < 0)
			break;
		if (fl == 0 && !PQisBusy(c)) {
			if (!(r = PQgetResult(c)))
				return last;
			PQclear(last);
			last = r;
			continue;
		}
		if (!sent && interrupt_pending()) {
			PGcancel *pc = PQgetCancel(c);
			char msg[256];
			if (pc) {
				(void)PQcancel(pc, msg, (int)sizeof msg);
				PQfreeCancel(pc);
			}
			sent = true;
		}
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			break;
		if (sent && (waited += 100) > CANCEL_WAIT_MS) {
			shutdown(p.fd, SHUT_RDWR);
			sent = false;
		}
		if ((p.revents & (POLLIN | POLLERR | POLLHUP)) && !PQconsumeInput(c))
			break;
	}
	while ((r = PQgetResult(c)) != NULL) {
		PQclear(last);
		last = r;
	}
	return last;
}

static int
pg_fail(PGconn *c, const PGresult *r, const char *what, floe_error *err)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = r ? PQresultErrorMessage(r) : NULL;
	size_t n;

	if (!msg || !*msg)
		msg = c ? PQerrorMessage(c) : "out of memory";
	if (state && !strcmp(state, "57014"))
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	floe_errorf(err, !c || PQstatus(c) != CONNECTION_OK ? ERRCODE_CONNECTION_FAILURE :
		    state && !strcmp(state, "40001") ? ERRCODE_T_R_SERIALIZATION_FAILURE : ERRCODE_IO_ERROR,
		    "insert buffer (PostgreSQL): %s: %s", what, msg);
	n = strlen(err->message);
	if (n && err->message[n - 1] == '\n')
		err->message[n - 1] = 0;
	return FLOE_ERR;
}

/* A new connection, polled (never libpq's blocking connect). */
static int
connect_new(PgBuffer *b, PGconn **out, floe_error *err)
{
	PGconn *c = PQconnectStart(b->conninfo);
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;
	int waited = 0;
	PGresult *r;

	*out = NULL;
	while (c && PQstatus(c) != CONNECTION_BAD && st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED) {
		struct pollfd p = { .fd = PQsocket(c), .events = st == PGRES_POLLING_READING ? POLLIN : POLLOUT };
		int n;
		if (interrupt_pending()) {
			PQfinish(c);
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		}
		if (p.fd < 0 || waited >= CONNECT_WAIT_MS)
			break;
		n = poll(&p, 1, 100);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0)
			st = PQconnectPoll(c);
		else
			waited += 100;
	}
	if (!c || PQstatus(c) != CONNECTION_OK) {
		floe_errorf(err, ERRCODE_CONNECTION_FAILURE, "insert buffer: could not connect to PostgreSQL: %s",
			    !c ? "out of memory" : waited >= CONNECT_WAIT_MS ? "timeout expired" : PQerrorMessage(c));
		PQfinish(c);
		return FLOE_ERR;
	}
	PQsetNoticeProcessor(c, quiet, NULL);
	/* an append is acknowledged after its commit is durable */
	r = PQsendQuery(c, "SET synchronous_commit = on") ? wait_reply(c) : NULL;
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		pg_fail(c, r, "connect", err);
		PQclear(r);
		PQfinish(c);
		return FLOE_ERR;
	}
	PQclear(r);
	*out = c;
	return FLOE_OK;
}

/* A pooled connection, else a new one; a statement (capped) waits while
 * OPEN_MAX are out, so many sessions share a few PostgreSQL backends. */
static int
conn_get_cap(PgBuffer *b, bool capped, PGconn **out, floe_error *err)
{
	int rc;

	*out = NULL;
	pthread_mutex_lock(&b->mu);
	while (!b->nidle && capped && b->nopen >= OPEN_MAX) {
		struct timespec ts;
		if (interrupt_pending()) {
			pthread_mutex_unlock(&b->mu);
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000000L;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		(void)pthread_cond_timedwait(&b->freed, &b->mu, &ts);
	}
	if (b->nidle) {
		*out = b->idle[--b->nidle];
		pthread_mutex_unlock(&b->mu);
		return FLOE_OK;
	}
	b->nopen++;
	pthread_mutex_unlock(&b->mu);
	if ((rc = connect_new(b, out, err)) != FLOE_OK) {
		pthread_mutex_lock(&b->mu);
		b->nopen--;
		pthread_cond_signal(&b->freed);
		pthread_mutex_unlock(&b->mu);
	}
	return rc;
}

static int
conn_get(PgBuffer *b, PGconn **out, floe_error *err)
{
	return conn_get_cap(b, true, out, err);
}

/* Finish a connection conn_get gave. */
static void
conn_drop(PgBuffer *b, PGconn *c)
{
	PQfinish(c);
	pthread_mutex_lock(&b->mu);
	b->nopen--;
	pthread_cond_signal(&b->freed);
	pthread_mutex_unlock(&b->mu);
}

static void
conn_put(PgBuffer *b, PGconn *c)
{
	if (!c)
		return;
	if (PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) == PQTRANS_IDLE) {
		pthread_mutex_lock(&b->mu);
		if (b->nidle < POOL_MAX) {
			b->idle[b->nidle++] = c;
			pthread_cond_signal(&b->freed);
			pthread_mutex_unlock(&b->mu);
			return;
		}
		pthread_mutex_unlock(&b->mu);
	}
	conn_drop(b, c);
}

/* Run one statement on c: text parameters (binary where lens[i] > 0),
 * results in `binary` or text.  *res: the result (PQclear it). */
static int
run_on(PGconn *c, const char *sql, int n, const char *const *vals, const int *lens, bool binary,
       PGresult **res, const char *what, floe_error *err)
{
	int fmts[8] = { 0 };
	PGresult *r;
	ExecStatusType st;
	int i;

	*res = NULL;
	if (interrupt_pending())
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	for (i = 0; i < n && i < 8; i++)
		fmts[i] = lens && lens[i] > 0 ? 1 : 0;
	r = PQsendQueryParams(c, sql, n, NULL, vals, lens, fmts, binary ? 1 : 0) ? wait_reply(c) : NULL;
	st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		pg_fail(c, r, what, err);
		PQclear(r);
		return FLOE_ERR;
	}
	*res = r;
	return FLOE_OK;
}

/* run_on a pooled connection; a statement that may be repeated
 * (idempotent) is re-run once on a new connection when the link broke. */
static int
run(PgBuffer *b, const char *sql, int n, const char *const *vals, const int *lens, bool binary,
    bool idempotent, PGresult **res, const char *what, floe_error *err)
{
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		PGconn *c;
		int rc;
		TRY(conn_get(b, &c, err));
		rc = run_on(c, sql, n, vals, lens, binary, res, what, err);
		if (rc == FLOE_OK || PQstatus(c) == CONNECTION_OK || !idempotent || attempt == 1) {
			conn_put(b, c);
			return rc;
		}
		conn_drop(b, c);
		floe_error_clear(err);
	}
	return FLOE_ERR;
}

static int
pg_open(IbufImpl **out, const char *conninfo, floe_error *err)
{
	PgBuffer *b = xcalloc(1, sizeof *b);
	PGconn *c;
	PGresult *r;

	*out = NULL;
	b->conninfo = xstrdup(conninfo);
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->freed, NULL);
	pthread_cond_init(&b->appended, NULL);
	b->nopen = 1;
	if (connect_new(b, &c, err) != FLOE_OK) {
		pthread_cond_destroy(&b->appended);
		pthread_cond_destroy(&b->freed);
		pthread_mutex_destroy(&b->mu);
		free(b->conninfo);
		free(b);
		return FLOE_ERR;
	}
	/* several statements: one implicit transaction (the advisory lock's) */
	r = PQsendQuery(c, SCHEMA_SQL) ? wait_reply(c) : NULL;
	if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
		pg_fail(c, r, "creating the buffer tables", err);
		PQclear(r);
		PQfinish(c);
		pthread_cond_destroy(&b->appended);
		pthread_cond_destroy(&b->freed);
		pthread_mutex_destroy(&b->mu);
		free(b->conninfo);
		free(b);
		return FLOE_ERR;
	}
	PQclear(r);
	conn_put(b, c);
	*out = b;
	return FLOE_OK;
}

int
ibuf_pg_open(IbufImpl **out, const char *conninfo, floe_error *err)
{
	return pg_open(out, conninfo, err);
}

static void
pg_close(PgBuffer *b)
{
	int i;

	for (i = 0; i < b->nidle; i++)
		PQfinish(b->idle[i]);
	while (b->groups) {
		struct PgGroup *g = b->groups;
		b->groups = g->next;
		free(g);
	}
	pthread_cond_destroy(&b->appended);
	pthread_cond_destroy(&b->freed);
	pthread_mutex_destroy(&b->mu);
	free(b->local);
	free(b->last);
	free(b->conninfo);
	free(b);
}

static bool
pg_is_owner(const PgBuffer *b)
{
	(void)b;
	return true;               /* every node appends, discards, flushes */
}

static int
pg_refresh(PgBuffer *b, floe_error *err)
{
	(void)b;
	(void)err;
	return FLOE_OK;            /* every read asks the database */
}

/* ---- append: group commit ------------------------------------------------
 * Appends to one table serialize on its sequence row (design (b)), so one
 * PostgreSQL commit per entry caps a table at one commit's latency.  The
 * appends of a node to one table therefore share commits: each enqueues
 * its entry on the table's PgGroup; while no batch of the group is out,
 * one of them (the leader) takes the queue (up to BATCH_MAX entries /
 * BATCH_BYTES), sends it as ONE statement (the sequence row moved by k,
 * the entries given seq - k + 1 .. seq in queue order) and hands every
 * entry its sequence or the statement's error.  The rest wait.  Each
 * append still returns only after the commit holding its entry (contract
 * (a)); the entries of one statement commit together and in sequence
 * order, so (b) holds as before.  A batch that failed with 57014 (the
 * leader's statement was cancelled: nothing committed) is re-queued for
 * the others; a queued entry whose own statement is cancelled leaves the
 * queue (57014) and is never sent; once taken it waits for the outcome. */
static PgGroup *
group_of(PgBuffer *b, const char *uuid)
{
	PgGroup *g;

	for (g = b->groups; g; g = g->next)
		if (!strcmp(g->uuid, uuid))
			return g;
	g = xcalloc(1, sizeof *g);
	snprintf(g->uuid, sizeof g->uuid, "%s", uuid);
	g->next = b->groups;
	b->groups = g;
	return g;
}

static void
group_push(PgGroup *g, PgWaiter *w)
{
	w->next = NULL;
	w->state = W_QUEUED;
	if (g->tail)
		g->tail->next = w;
	else
		g->head = w;
	g->tail = w;
}

static void
group_unlink(PgGroup *g, PgWaiter *w)
{
	PgWaiter **pp, *prev = NULL;

	for (pp = &g->head; *pp; prev = *pp, pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			if (g->tail == w)
				g->tail = prev;
			return;
		}
}

/* Send one batch (k entries, queue order) as one statement; on success
 * the entries' sequences are set. */
static int
send_batch(PgBuffer *b, const char *uuid, PgWaiter **ws, int k, floe_error *err)
{
	Arena *a = arena_new(0);
	char *sql, ms[32], nk[32], fl[32];
	const char **vals = ARENA_ARRAY(a, const char *, 4 + 3 * k);
	int *lens = ARENA_ARRAY(a, int, 4 + 3 * k);
	int *fmts = ARENA_ARRAY(a, int, 4 + 3 * k);
	uint64_t floor = 0, last = 0;
	size_t used, cap = 512 + (size_t)k * 64;
	PGresult *r = NULL;
	PGconn *c;
	int i, rc, n = 4 + 3 * k;

	for (i = 0; i < k; i++)
		if (ws[i]->floor > floor)
			floor = ws[i]->floor;
	snprintf(fl, sizeof fl, "%" PRId64, floor > (uint64_t)INT64_MAX - 1 - BATCH_MAX ?
		 INT64_MAX - 1 - BATCH_MAX : (int64_t)floor);
	snprintf(ms, sizeof ms, "%" PRId64, now_ms());
	snprintf(nk, sizeof nk, "%d", k);
	sql = arena_alloc(a, cap);
	used = (size_t)snprintf(sql, cap,
		"WITH s AS (INSERT INTO floe_insert_buffer_seq AS q VALUES ($1, $2::bigint + $3::bigint) "
		"ON CONFLICT (table_uuid) DO UPDATE SET seq = greatest(q.seq, $2::bigint) + $3::bigint "
		"RETURNING seq) "
		"INSERT INTO floe_insert_buffer (table_uuid, seq, staged_ms, label, nbytes, entry) "
		"SELECT $1, s.seq - $3::bigint + v.i, $4::bigint, v.l, v.n, v.e FROM s, (VALUES ");
	vals[0] = uuid;
	vals[1] = fl;
	vals[2] = nk;
	vals[3] = ms;
	for (i = 0; i < 4; i++)
		lens[i] = fmts[i] = 0;
	for (i = 0; i < k; i++) {
		int p = 4 + 3 * i;
		used += (size_t)snprintf(sql + used, cap - used, "%s(%d, $%d::text, $%d::integer, $%d::bytea)",
					 i ? ", " : "", i + 1, p + 1, p + 2, p + 3);
		vals[p] = ws[i]->label;
		vals[p + 1] = arena_sprintf(a, "%zu", ws[i]->len);
		vals[p + 2] = ws[i]->len ? (const char *)ws[i]->bytes : "";   /* binary, or the text '' */
		lens[p] = lens[p + 1] = fmts[p] = fmts[p + 1] = 0;
		lens[p + 2] = (int)ws[i]->len;
		fmts[p + 2] = ws[i]->len ? 1 : 0;
	}
	snprintf(sql + used, cap - used, ") AS v(i, l, n, e) RETURNING seq");
	/* not idempotent: a broken link is an unknown outcome (08006) */
	if ((rc = conn_get(b, &c, err)) == FLOE_OK) {
		if (interrupt_pending())
			rc = floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		else {
			PGresult *x = PQsendQueryParams(c, sql, n, NULL, vals, lens, fmts, 0) ? wait_reply(c) : NULL;
			ExecStatusType st = x ? PQresultStatus(x) : PGRES_FATAL_ERROR;
			if (st != PGRES_TUPLES_OK) {
				rc = pg_fail(c, x, "append", err);
				PQclear(x);
			} else
				r = x;
		}
		conn_put(b, c);
	}
	if (rc == FLOE_OK) {
		if (PQntuples(r) != k)
			rc = floe_errorf(err, ERRCODE_IO_ERROR,
					 "insert buffer (PostgreSQL): append returned %d rows for %d entries",
					 PQntuples(r), k);
		for (i = 0; rc == FLOE_OK && i < PQntuples(r); i++) {
			uint64_t v = strtoull(PQgetvalue(r, i, 0), NULL, 10);
			if (v > last)
				last = v;
		}
		for (i = 0; rc == FLOE_OK && i < k; i++)
			ws[i]->seq = last - (uint64_t)k + (uint64_t)i + 1;
	}
	PQclear(r);
	arena_free(a);
	return rc;
}

static int
pg_append(PgBuffer *b, const char *uuid, const char *label, uint64_t floor, const uint8_t *bytes,
	  size_t len, uint64_t *seq, floe_error *err)
{
	PgWaiter me = { label, floor, bytes, len, 0, FLOE_OK, err, W_QUEUED, NULL };
	PgGroup *g;

	if (len > INT32_MAX / 2)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "insert buffer entry too large");
	pthread_mutex_lock(&b->mu);
	g = group_of(b, uuid);
	group_push(g, &me);
	while (me.state != W_DONE) {
		PgWaiter *ws[BATCH_MAX];
		floe_error berr;
		size_t nb = 0;
		int k = 0, i, rc;

		if (g->busy) {
			struct timespec ts;
			if (me.state == W_QUEUED && interrupt_pending()) {
				group_unlink(g, &me);
				pthread_mutex_unlock(&b->mu);
				return floe_errorf(err, ERRCODE_QUERY_CANCELED,
						   "canceling statement due to user request");
			}
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100 * 1000000L;
			ts.tv_sec += ts.tv_nsec / 1000000000L;
			ts.tv_nsec %= 1000000000L;
			(void)pthread_cond_timedwait(&b->appended, &b->mu, &ts);
			continue;
		}
		/* lead one batch (ours, or the queue's head if ours is further on) */
		while (g->head && k < BATCH_MAX && (k == 0 || nb + g->head->len <= BATCH_BYTES)) {
			PgWaiter *w = g->head;
			g->head = w->next;
			if (!g->head)
				g->tail = NULL;
			w->state = W_TAKEN;
			nb += w->len;
			ws[k++] = w;
		}
		g->busy = true;
		pthread_mutex_unlock(&b->mu);
		floe_error_clear(&berr);
		rc = send_batch(b, g->uuid, ws, k, &berr);
		pthread_mutex_lock(&b->mu);
		g->busy = false;
		for (i = 0; i < k; i++) {
			PgWaiter *w = ws[i];
			if (rc != FLOE_OK && w != &me && floe_error_is(&berr, ERRCODE_QUERY_CANCELED)) {
				group_push(g, w);      /* not committed: theirs goes out again */
				continue;
			}
			w->rc = rc;
			if (rc != FLOE_OK)
				*w->err = berr;
			w->state = W_DONE;
		}
		if (rc == FLOE_OK)
			b->bytes += (int64_t)nb;
		pthread_cond_broadcast(&b->appended);
	}
	pthread_mutex_unlock(&b->mu);
	*seq = me.seq;
	return me.rc;
}

static uint64_t
pg_stable_seq(PgBuffer *b)
{
	(void)b;
	return UINT64_MAX;         /* a scan is a stable cut (design (b)) */
}

static uint64_t
be64(const char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | (uint8_t)p[i];
	return v;
}

static int
scan_kind(PgBuffer *b, bool dead, const char *uuid, uint64_t after, uint64_t upto, ibuf_visit_fn visit,
	  void *arg, floe_error *err)
{
	static const char sql[] =
		"SELECT seq, entry FROM floe_insert_buffer WHERE table_uuid = $1 AND dead = $2 "
		"AND seq > $3::bigint AND seq <= $4::bigint ORDER BY seq";
	char lo[32], hi[32];
	const char *vals[4] = { uuid, dead ? "t" : "f", lo, hi };
	PGresult *r;
	int i, n, rc = FLOE_OK;

	snprintf(lo, sizeof lo, "%" PRId64, after > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)after);
	snprintf(hi, sizeof hi, "%" PRId64, upto > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)upto);
	TRY(run(b, sql, 4, vals, NULL, true, true, &r, "scan", err));
	n = PQntuples(r);
	for (i = 0; i < n && rc == FLOE_OK; i++) {
		if (PQgetlength(r, i, 0) != 8) {
			rc = floe_errorf(err, ERRCODE_DATA_CORRUPTED, "corrupt insert buffer entry");
			break;
		}
		rc = visit(arg, be64(PQgetvalue(r, i, 0)), (const uint8_t *)PQgetvalue(r, i, 1),
			   (size_t)PQgetlength(r, i, 1));
	}
	PQclear(r);
	return rc;
}

static int
pg_scan(PgBuffer *b, const char *uuid, uint64_t after, uint64_t upto, ibuf_visit_fn visit, void *arg,
	floe_error *err)
{
	return scan_kind(b, false, uuid, after, upto, visit, arg, err);
}

static int
pg_dead_scan(PgBuffer *b, const char *uuid, ibuf_visit_fn visit, void *arg, floe_error *err)
{
	return scan_kind(b, true, uuid, 0, UINT64_MAX, visit, arg, err);
}

static int
exec_uuid(PgBuffer *b, const char *sql, const char *uuid, const char *arg2, const char *what,
	  floe_error *err)
{
	const char *vals[2] = { uuid, arg2 };
	PGresult *r;

	TRY(run(b, sql, arg2 ? 2 : 1, vals, NULL, false, true, &r, what, err));
	PQclear(r);
	pthread_mutex_lock(&b->mu);
	b->bytes_ms = 0;           /* pending_bytes asks again */
	pthread_mutex_unlock(&b->mu);
	return FLOE_OK;
}

static int
pg_discard(PgBuffer *b, const char *uuid, uint64_t upto, floe_error *err)
{
	char hi[32];

	snprintf(hi, sizeof hi, "%" PRId64, upto > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)upto);
	return exec_uuid(b, "DELETE FROM floe_insert_buffer WHERE table_uuid = $1 AND NOT dead "
			 "AND seq <= $2::bigint", uuid, hi, "discard", err);
}

static int
pg_dead_letter(PgBuffer *b, const char *uuid, floe_error *err)
{
	return exec_uuid(b, "UPDATE floe_insert_buffer SET dead = true WHERE table_uuid = $1 AND NOT dead",
			 uuid, NULL, "dead letter", err);
}

static int
pg_dead_discard(PgBuffer *b, const char *uuid, floe_error *err)
{
	return exec_uuid(b, "DELETE FROM floe_insert_buffer WHERE table_uuid = $1 AND dead", uuid, NULL,
			 "discard dead letters", err);
}

/* This node's slot of uuid (created when add); under mu. */
static IbufStat *
local_of(PgBuffer *b, const char *uuid, bool add)
{
	int i;

	for (i = 0; i < b->nlocal; i++)
		if (!strcmp(b->local[i].uuid, uuid))
			return &b->local[i];
	if (!add)
		return NULL;
	if (b->nlocal == b->caplocal) {
		b->caplocal = b->caplocal ? b->caplocal * 2 : 16;
		b->local = xrealloc(b->local, sizeof(IbufStat) * (size_t)b->caplocal);
	}
	memset(&b->local[b->nlocal], 0, sizeof(IbufStat));
	snprintf(b->local[b->nlocal].uuid, sizeof b->local[b->nlocal].uuid, "%s", uuid);
	return &b->local[b->nlocal++];
}

static int
pg_dead_replay(PgBuffer *b, const char *uuid, floe_error *err)
{
	IbufStat *s;

	pthread_mutex_lock(&b->mu);
	if ((s = local_of(b, uuid, false)))
		s->flush_failures = 0;
	pthread_mutex_unlock(&b->mu);
	return exec_uuid(b, "UPDATE floe_insert_buffer SET dead = false WHERE table_uuid = $1 AND dead",
			 uuid, NULL, "replay dead letters", err);
}

/* The rows of a statistics query (table_uuid, dead, count, bytes, oldest,
 * max seq, label) into a malloc'd list merged with this node's slots. */
static const char STATS_SQL[] =
	"SELECT table_uuid, dead, count(*), sum(nbytes)::bigint, min(staged_ms), max(seq), "
	"(array_agg(label ORDER BY seq DESC))[1] FROM floe_insert_buffer";

static IbufStat *
stat_slot(IbufStat **st, int *n, int *cap, const char *uuid)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*st)[i].uuid, uuid))
			return &(*st)[i];
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*st = xrealloc(*st, sizeof(IbufStat) * (size_t)*cap);
	}
	memset(&(*st)[*n], 0, sizeof(IbufStat));
	snprintf((*st)[*n].uuid, sizeof (*st)[*n].uuid, "%s", uuid);
	return &(*st)[(*n)++];
}

static void
stats_from(PGresult *r, IbufStat **st, int *n, int *cap)
{
	int i;

	for (i = 0; i < PQntuples(r); i++) {
		IbufStat *s = stat_slot(st, n, cap, PQgetvalue(r, i, 0));
		int64_t cnt = strtoll(PQgetvalue(r, i, 2), NULL, 10);
		if (!s->label[0])
			snprintf(s->label, sizeof s->label, "%s", PQgetvalue(r, i, 6));
		if (PQgetvalue(r, i, 1)[0] == 't') {
			s->dead_objects += cnt;
			continue;
		}
		s->pending_objects += cnt;
		s->pending_bytes += strtoll(PQgetvalue(r, i, 3), NULL, 10);
		s->oldest_ms = strtoll(PQgetvalue(r, i, 4), NULL, 10);
		s->max_seq = strtoull(PQgetvalue(r, i, 5), NULL, 10);
	}
}

/* Merge this node's flushing / failures into st (and keep the slots of
 * tables with failures and nothing buffered, as the RocksDB backend does);
 * under mu. */
static void
merge_local(PgBuffer *b, IbufStat **st, int *n, int *cap)
{
	int i;

	for (i = 0; i < b->nlocal; i++) {
		IbufStat *l = &b->local[i], *s;
		bool known = false;
		int k;
		for (k = 0; k < *n; k++)
			if (!strcmp((*st)[k].uuid, l->uuid))
				known = true;
		if (!known && !l->flush_failures && !l->flushing)
			continue;
		s = stat_slot(st, n, cap, l->uuid);
		s->flush_failures = l->flush_failures;
		s->flushing = l->flushing;
		if (!s->label[0])
			snprintf(s->label, sizeof s->label, "%s", l->label);
	}
}

static void
pg_stats(PgBuffer *b, IbufStat **stats, int *n)
{
	PGresult *r;
	floe_error err;
	IbufStat *st = NULL;
	int ns = 0, cap = 0;
	char sql[sizeof STATS_SQL + 64];

	floe_error_clear(&err);
	snprintf(sql, sizeof sql, "%s GROUP BY table_uuid, dead", STATS_SQL);
	if (run(b, sql, 0, NULL, NULL, false, true, &r, "statistics", &err) == FLOE_OK) {
		stats_from(r, &st, &ns, &cap);
		PQclear(r);
		pthread_mutex_lock(&b->mu);
		free(b->last);
		b->last = xmalloc(sizeof(IbufStat) * (size_t)(ns + 1));
		if (ns)
			memcpy(b->last, st, sizeof(IbufStat) * (size_t)ns);
		b->nlast = ns;
	} else {
		/* the last rows read (a PostgreSQL outage fails the statement's
		 * catalog access as well) */
		pthread_mutex_lock(&b->mu);
		ns = cap = b->nlast;
		st = xmalloc(sizeof(IbufStat) * (size_t)(ns + 1));
		if (ns)
			memcpy(st, b->last, sizeof(IbufStat) * (size_t)ns);
	}
	merge_local(b, &st, &ns, &cap);
	pthread_mutex_unlock(&b->mu);
	if (!st)
		st = xmalloc(sizeof(IbufStat));
	*stats = st;
	*n = ns;
}

static bool
pg_table_stat(PgBuffer *b, const char *uuid, IbufStat *out)
{
	PGresult *r;
	floe_error err;
	IbufStat *st = NULL, *l;
	int ns = 0, cap = 0;
	char sql[sizeof STATS_SQL + 96];
	const char *vals[1] = { uuid };
	bool found;

	memset(out, 0, sizeof *out);
	floe_error_clear(&err);
	snprintf(sql, sizeof sql, "%s WHERE table_uuid = $1 GROUP BY table_uuid, dead", STATS_SQL);
	if (run(b, sql, 1, vals, NULL, false, true, &r, "statistics", &err) != FLOE_OK) {
		/* unknown: "pending", so the caller's scan reports the error */
		snprintf(out->uuid, sizeof out->uuid, "%s", uuid);
		out->pending_objects = 1;
		out->max_seq = UINT64_MAX;
		return true;
	}
	stats_from(r, &st, &ns, &cap);
	PQclear(r);
	pthread_mutex_lock(&b->mu);
	l = local_of(b, uuid, false);
	found = ns > 0 || (l && (l->flush_failures || l->flushing));
	if (ns > 0)
		*out = st[0];
	else
		snprintf(out->uuid, sizeof out->uuid, "%s", uuid);
	if (l) {
		out->flush_failures = l->flush_failures;
		out->flushing = l->flushing;
	}
	pthread_mutex_unlock(&b->mu);
	free(st);
	return found;
}

static void
pg_note_flush(PgBuffer *b, const char *uuid, bool started, bool ok)
{
	IbufStat *s;

	pthread_mutex_lock(&b->mu);
	s = local_of(b, uuid, true);
	if (started) {
		s->flushing = true;
	} else {
		s->flushing = false;
		s->flush_failures = ok ? 0 : s->flush_failures + 1;
	}
	if (!s->flushing && !s->flush_failures)
		*s = b->local[--b->nlocal];
	pthread_mutex_unlock(&b->mu);
}

/* Every table's live bytes, fresh (or cached up to BYTES_CACHE_MS). */
static int64_t
bytes_now(PgBuffer *b, bool fresh)
{
	PGresult *r;
	floe_error err;
	int64_t v, t = now_ms();

	pthread_mutex_lock(&b->mu);
	v = b->bytes;
	if (!fresh && b->bytes_ms && t - b->bytes_ms < BYTES_CACHE_MS) {
		pthread_mutex_unlock(&b->mu);
		return v;
	}
	pthread_mutex_unlock(&b->mu);
	floe_error_clear(&err);
	if (run(b, "SELECT coalesce(sum(nbytes), 0)::bigint FROM floe_insert_buffer WHERE NOT dead", 0, NULL,
		NULL, false, true, &r, "statistics", &err) != FLOE_OK)
		return v;
	v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	pthread_mutex_lock(&b->mu);
	b->bytes = v;
	b->bytes_ms = t;
	pthread_mutex_unlock(&b->mu);
	return v;
}

static int64_t
pg_pending_bytes(PgBuffer *b)
{
	return bytes_now(b, false);
}

static bool
pg_wait_bytes_below(PgBuffer *b, int64_t limit, int64_t timeout_ms, volatile int *cancel)
{
	int64_t end = now_ms() + timeout_ms;

	for (;;) {
		if (bytes_now(b, true) < limit)
			return true;
		if (now_ms() >= end || (cancel && *cancel))
			return false;
		usleep(100 * 1000);
	}
}

/* The advisory lock of uuid's flush, on a connection of its own kept
 * until unlock (a lost connection releases it: see the design). */
static int
pg_flush_lock(PgBuffer *b, const char *uuid, void **token, floe_error *err)
{
	static const char sql[] = "SELECT pg_try_advisory_lock(734522703, hashtext($1))";
	const char *vals[1] = { uuid };
	PGconn *c;
	int waited = 0;

	*token = NULL;
	TRY(conn_get_cap(b, false, &c, err));   /* not capped: a flush holds it and runs statements */
	for (;;) {
		PGresult *r;
		bool got;
		if (run_on(c, sql, 1, vals, NULL, false, &r, "flush lock", err) != FLOE_OK) {
			conn_drop(b, c);
			return FLOE_ERR;
		}
		got = PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
		PQclear(r);
		if (got)
			break;
		if (interrupt_pending() || waited >= LOCK_WAIT_MS) {
			conn_put(b, c);
			if (interrupt_pending())
				return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
			return floe_errorf(err, ERRCODE_OBJECT_IN_USE,
					   "another floe node has been flushing this table's buffered rows for %d s",
					   LOCK_WAIT_MS / 1000);
		}
		usleep(20 * 1000);
		waited += 20;
	}
	*token = c;
	return FLOE_OK;
}

static void
pg_flush_unlock(PgBuffer *b, const char *uuid, void *token)
{
	PGconn *c = token;
	const char *vals[1] = { uuid };
	PGresult *r;
	floe_error err;

	if (!c)
		return;
	floe_error_clear(&err);
	if (run_on(c, "SELECT pg_advisory_unlock(734522703, hashtext($1))", 1, vals, NULL, false, &r,
		   "flush unlock", &err) == FLOE_OK) {
		PQclear(r);
		conn_put(b, c);
	} else {
		conn_drop(b, c);    /* the server drops the lock with the session */
	}
}

const IbufOps ibuf_pg_ops = {
	.name = "postgres",
	.shared = true,
	.close = pg_close,
	.is_owner = pg_is_owner,
	.refresh = pg_refresh,
	.append = pg_append,
	.scan = pg_scan,
	.stable_seq = pg_stable_seq,
	.discard = pg_discard,
	.dead_letter = pg_dead_letter,
	.dead_scan = pg_dead_scan,
	.dead_discard = pg_dead_discard,
	.dead_replay = pg_dead_replay,
	.stats = pg_stats,
	.table_stat = pg_table_stat,
	.note_flush = pg_note_flush,
	.pending_bytes = pg_pending_bytes,
	.wait_bytes_below = pg_wait_bytes_below,
	.flush_lock = pg_flush_lock,
	.flush_unlock = pg_flush_unlock,
};
