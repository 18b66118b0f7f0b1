/*
 * server.c — the listener of `floe serve`: accepts TCP connections on a
 * loopback address and runs each in its own thread through pgwire.c.
 *
 * Threads.  One thread per connection (simple, and a connection that runs a
 * long query blocks only itself in its read/write calls); the accept loop
 * polls the listening socket with a timeout so it notices `stop`, and reaps
 * finished connection threads.
 *
 * Concurrency design.  A thread per connection, not an event loop: the
 * engine's statements are long, blocking computations (Parquet scans,
 * sorts, file writes, catalog commits) written as straight-line C; an
 * event loop would need them all to yield, or a worker pool behind it,
 * which is a thread per running statement again.  A thread per connection
 * keeps each statement on its own stack and lets the kernel share the
 * cores; idle connections cost only a blocked thread (PostgreSQL itself
 * runs a process per connection).
 *
 * Statements of different sessions run at the same time, with no server
 * lock: the engine is thread-safe for concurrent sessions (engine.h):
 *   - a Session is used only by its connection's thread;
 *   - per-session state the executor reads as globals (the time zone,
 *     now()) is thread-local, installed from the Session by the engine at
 *     each statement start (datetime_use_zone, func_set_statement_time);
 *   - the catalog hands each call a connection of its own from a pool
 *     (catalog_sqlite.c: WAL + busy timeout; catalog_pg.c: libpq);
 *   - the metadata cache (table.c) is under its own mutex and its entries
 *     are immutable and reference-counted;
 *   - the Engine's FileIO is replaced, never changed, when a path map is
 *     added (engine.c);
 *   - two sessions committing the same table race in the catalog's
 *     compare-and-swap: the loser gets 40001 and an autocommit statement
 *     is re-run (txn.c), so every acknowledged row is committed once.
 * A CancelRequest only sets the target connection's cancel flag under
 * `conns_mu`, which the running statement polls (57014).
 *
 * Authentication (ServerConfig.auth_method, PostgreSQL's pg_hba methods):
 * trust, password (cleartext, checked against the SCRAM verifier or md5
 * secret), md5 (AuthenticationMD5Password; a user with only a SCRAM
 * verifier is asked for SCRAM instead, as PostgreSQL does) or
 * scram-sha-256 (auth_scram.c).  The secrets live in the users file
 * (users.h: <warehouse>/users, made by `floe user add`, or --auth-file),
 * re-read at every login so added or removed users take effect at once.
 * An unknown user runs the same exchange with a mock secret and fails
 * 28P01.  Trust is refused on any address but 127.0.0.1 / ::1 / localhost.
 *
 * TLS: with a certificate and key (ServerConfig.tls_cert/tls_key) an
 * SSLRequest is answered 'S' and the connection runs over OpenSSL
 * (TLS 1.2 or newer) from then on: conn_recv/conn_send are the only socket
 * I/O.  Over TLS, SCRAM-SHA-256-PLUS is offered too, bound to the
 * certificate's hash (tls-server-end-point).  Without them SSLRequest gets 'N'.  GSSENCRequest is always 'N'.
 * With tls_required a login on a connection without TLS is refused (28000)
 * before any password is asked for.
 *
 * INTERFACE ROUTINES: see server.h.
 *
 * Invariants:
 *   1. A Conn is in `conns` from accept until its thread is joined; a cancel
 *      finds it only there, under conns_mu, so it never touches a freed flag.
 *   2. No lock is held across an engine call; a Session is touched only by
 *      its connection's thread (see above).
 *   3. A connection's socket is closed only by its own thread; server_free
 *      shuts sockets down (shutdown(2)) to wake the threads, then joins them.
 *   4. Failed logins are counted per client address; after AUTH_FAIL_MAX
 *      failures within AUTH_FAIL_WINDOW seconds that address is refused
 *      (28000) until the window ends, before any password is checked.
 *   5. statement_timeout (the session's setting, read when a statement
 *      starts) is a deadline the watchdog thread turns into the connection's
 *      cancel flag; the 57014 error then says "statement timeout".
 *   6. A connection must finish startup and authentication within
 *      auth_timeout_ms (default 60 s, PostgreSQL's authentication_timeout)
 *      or it is closed; its first packet (startup packet or SSLRequest)
 *      must be whole within startup_timeout_ms (SERVER_STARTUP_TIMEOUT,
 *      10 s, at most auth_timeout).
 *   7. A logged-in connection waiting for its next message longer than
 *      idle_in_transaction_session_timeout (inside a transaction block) or
 *      idle_session_timeout (outside; the server's --idle-timeout when the
 *      session sets none) is closed with FATAL 25P03 / 57P05, as
 *      PostgreSQL does.
 *   8. At most max_connections connections get past login (the slot is
 *      taken when the session opens, after authentication); more are
 *      refused with FATAL 53300, as PostgreSQL's max_connections.
 *   9. A connection's thread closes its own session (pgwire_conn_free)
 *      and then sets c->pg = NULL under conns_mu; the accept loop only
 *      joins threads, so it accepts CancelRequests while statements run.
 *  10. No thread sleeps or does I/O while holding conns_mu or timer_mu.
 *  11. Startup-packet parameters that are settings: pgwire.c applies
 *      `options` and application_name; TimeZone (JDBC sends it, libpq
 *      sends PGTZ as "timezone") is read here from the bytes before they go
 *      to pgwire (peek_startup, the packet only, bounded by
 *      PGWIRE_MAX_STARTUP) and set when the session opens (be_session_open;
 *      a bad zone is a FATAL 22023, as PostgreSQL's).
 *  12. Connections that have not logged in never lock out a login
 *      (PostgreSQL forks a process per connection, so a silent socket
 *      costs it nothing; here it must not cost a thread or a slot):
 *      - an accepted socket gets no thread until its first packet is
 *        whole: until then it waits in `waiting`, polled by the accept
 *        loop, which reads its bytes (at most PGWIRE_MAX_STARTUP) without
 *        blocking and hands them to the thread it then starts; at most
 *        wait_max sockets wait (SERVER_MAX_WAITING, less when the file
 *        descriptor limit is low), SERVER_MAX_WAITING_PER_ADDR per client
 *        address: past either, the oldest waiting one is closed to make
 *        room (a real client sends its startup packet at once, so the
 *        oldest is the one that stalls); when accept(2) runs out of file
 *        descriptors the oldest waiting socket is closed too;
 *      - a thread that has not logged in (TLS handshake, password
 *        exchange) is closed the same way (shutdown(2)), oldest first,
 *        when more than SERVER_MAX_PREAUTH_PER_ADDR of one address or
 *        SERVER_MAX_PREAUTH in all are waiting for their client;
 *      - max_connections (invariant 8) counts logged-in connections only;
 *      - before login a send blocks at most startup_timeout_ms, after it
 *        60 s (a client that never reads its results).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "common/arena.h"
#include "common/stack.h"
#include "server/authfail.h"
#include "server/pgwire.h"
#include "server/server.h"
#include "server/users.h"
#include "sql/acl.h"

/* A running statement's statement_timeout (invariant 5): on the stack of
 * be_exec, linked into Server.timers while the statement runs. */
typedef struct Timer {
	struct Timer *next;
	int64_t deadline_us;
	volatile int *flag;
	bool fired;
} Timer;

typedef struct Conn {
	struct Conn *next;
	Server *srv;
	int fd;
	int32_t pid, key;
	PgConn *pg;
	pthread_t thread;
	volatile int done;
	char addr[INET6_ADDRSTRLEN];   /* the client's address */
	SSL *ssl;                      /* after tls_start; owned by the thread */
	int64_t accepted_us;
	int64_t auth_deadline_us;
	int64_t startup_deadline_us;   /* the first packet must be whole (invariant 6) */
	/* invariant 12: bytes the accept loop read before the thread started */
	uint8_t *pre;
	size_t pre_len;
	bool admitted;                 /* counted against max_connections (be_auth) */
	/* under conns_mu: */
	bool logged_in;                /* past startup and authentication */
	bool client_wait;              /* before login, blocked on its client */
	bool evicted;                  /* shut down to make room (invariant 12) */
	/* the startup packet's TimeZone (peek_startup), applied at login */
	uint8_t *sbuf;
	size_t slen;
	bool startup_seen;
	char startup_tz[128];
} Conn;

/* The connection the calling thread serves (be_session_open reads it). */
static _Thread_local Conn *thread_conn;

/* Failed logins per client address (rate limiting, invariant 4). */
#define AUTH_FAIL_MAX 5            /* failures allowed ... */
#define AUTH_FAIL_WINDOW 60        /* ... per this many seconds */

/* Connections not logged in yet (invariant 12). */
#define SERVER_STARTUP_TIMEOUT 10          /* s for the first packet */
#define SERVER_MAX_WAITING 1024            /* sockets without a thread yet ... */
#define SERVER_MAX_WAITING_PER_ADDR 512    /* ... and per client address */
#define SERVER_MAX_PREAUTH 256             /* threads waiting on a client before login ... */
#define SERVER_MAX_PREAUTH_PER_ADDR 128    /* ... and per client address */
#define SERVER_SEND_TIMEOUT 60             /* s a send may block once logged in */
#define PRE_CAP (PGWIRE_MAX_STARTUP + 8)
struct Server {
	Engine *engine;
	int fd;
	int port;
	pthread_mutex_t conns_mu;
	Conn *conns;
	int32_t next_pid;
	int auth_timeout_ms;               /* startup + authentication must end within */
	int startup_timeout_ms;            /* the first packet must be whole within */
	/* invariant 12: accepted sockets without a thread, newest first; only
	 * the accept loop (server_run, then server_free) touches them */
	Conn *waiting;
	int nwaiting, wait_max;
	struct pollfd *pfds;               /* wait_max + 1 */
	int64_t idle_timeout_us;           /* default idle_session_timeout; 0: none */
	int max_connections;               /* logins beyond: 53300 */
	PgwireBackend be;
	PgAuthMethod method;
	char *users_file;                  /* NULL: no users */
	bool users_required;
	SSL_CTX *tls;                      /* NULL: no TLS */
	uint8_t cert_hash[EVP_MAX_MD_SIZE];  /* tls-server-end-point binding data */
	unsigned int cert_hash_len;          /* 0: not offered */
	bool tls_required;
	AuthFails *fails;                 /* failed logins per address */
	/* statement_timeout: one Timer per running statement that has one;
	 * the watchdog thread sets a timer's flag when its deadline passes */
	pthread_t watchdog;
	_Atomic int watchdog_stop;
	pthread_mutex_t timer_mu;
	Timer *timers;                     /* under timer_mu */
};

/* What pgwire holds as its session: the engine's Session and the
 * connection's cancel flag. */
typedef struct SrvSession {
	Session *s;
	volatile int *cancel;
} SrvSession;

/* A cancel flag is a volatile int the running statement polls (engine.h);
 * set it with an atomic store. */
static void
set_flag(volatile int *flag)
{
	__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}

/* Before login: mark the connection as blocked on its client (invariant
 * 12: the ones the accept loop may close to make room). */
static void
set_client_wait(Conn *c, bool on)
{
	if (c->logged_in)
		return;
	pthread_mutex_lock(&c->srv->conns_mu);
	c->client_wait = on;
	pthread_mutex_unlock(&c->srv->conns_mu);
}

static int64_t
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* statement_timeout & co. in microseconds (engine.c) */
static int64_t
timeout_us(const char *v)
{
	return engine_duration_us(v);
}

static void *
watchdog_main(void *arg)
{
	Server *srv = arg;
	while (!srv->watchdog_stop) {
		Timer *t;
		int64_t now;
		usleep(5000);
		now = now_us();
		pthread_mutex_lock(&srv->timer_mu);
		for (t = srv->timers; t; t = t->next)
			if (!t->fired && now >= t->deadline_us) {
				set_flag(t->flag);
				t->fired = true;
			}
		pthread_mutex_unlock(&srv->timer_mu);
	}
	return NULL;
}

/* ---- backend callbacks (no lock around the engine: see the top) --------- */

/* max_connections (invariant 8): a slot is taken once authentication
 * passed, so CancelRequests and connections still logging in (which may
 * never finish) take none (invariant 12). */
static bool
admit(Server *srv, Conn *c)
{
	int live = 0;
	Conn *o;
	pthread_mutex_lock(&srv->conns_mu);
	for (o = srv->conns; o; o = o->next)
		live += o != c && o->admitted && !o->done;
	if (live < srv->max_connections)
		c->admitted = true;
	pthread_mutex_unlock(&srv->conns_mu);
	return c->admitted;
}

static void *
be_session_open(void *ctx, const char *user, const char *database, volatile int *cancel_flag,
		floe_error *err)
{
	Server *srv = ctx;
	SrvSession *ss;

	if (thread_conn && !admit(srv, thread_conn)) {
		floe_errorf(err, ERRCODE_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
		return NULL;
	}
	ss = xcalloc(1, sizeof *ss);
	ss->s = session_new(srv->engine);
	if (thread_conn && thread_conn->startup_tz[0] &&
	    session_set_timezone(ss->s, thread_conn->startup_tz, err) != FLOE_OK) {
		session_free(ss->s);
		free(ss);
		return NULL;
	}
	session_set_identity(ss->s, user, database);
	if (acl_check_login(ss->s, err) != FLOE_OK) {   /* NOLOGIN: 28000 */
		session_free(ss->s);
		free(ss);
		return NULL;
	}
	ss->cancel = cancel_flag;
	session_set_cancel_flag(ss->s, cancel_flag);
	return ss;
}

static void
be_session_close(void *ctx, void *session)
{
	SrvSession *ss = session;
	(void)ctx;
	session_free(ss->s);
	free(ss);
}

static const char *
be_setting(void *ctx, void *session, const char *name)
{
	(void)ctx;
	return session_setting(((SrvSession *)session)->s, name);
}

static char
be_txn_status(void *ctx, void *session)
{
	(void)ctx;
	return session_txn_status(((SrvSession *)session)->s);
}

static int
be_exec(void *ctx, void *session, const char *sql, int nparams, const char *const *values,
	const uint32_t *oids, ResultSink *sink, floe_error *err)
{
	Server *srv = ctx;
	SrvSession *ss = session;
	int64_t tmo;
	bool fired = false;
	Timer t;
	int rc;

	tmo = timeout_us(session_setting(ss->s, "statement_timeout"));
	if (tmo) {
		t.deadline_us = now_us() + tmo;
		t.flag = ss->cancel;
		t.fired = false;
		pthread_mutex_lock(&srv->timer_mu);
		t.next = srv->timers;
		srv->timers = &t;
		pthread_mutex_unlock(&srv->timer_mu);
	}
	if (nparams < 0)
		rc = session_exec(ss->s, sql, sink, err);
	else
		rc = session_exec_params(ss->s, sql, nparams, values, oids, sink, err);
	if (tmo) {
		Timer **pt;
		pthread_mutex_lock(&srv->timer_mu);
		for (pt = &srv->timers; *pt != &t; pt = &(*pt)->next)
			;
		*pt = t.next;
		fired = t.fired;
		pthread_mutex_unlock(&srv->timer_mu);
	}
	if (rc != FLOE_OK && fired && floe_error_is(err, ERRCODE_QUERY_CANCELED))
		floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to statement timeout");
#ifdef FLOE_DEBUG
	/* pgwire aborts on it (its invariant 7): name the statement first */
	if (rc != FLOE_OK && !err->sqlstate[0])
		fprintf(stderr, "floe serve: a statement failed without filling its error: %.300s\n", sql);
#endif
	return rc;
}

static int
be_describe(void *ctx, void *session, const char *sql, int nparams, const uint32_t *oids,
	    Arena *a, SqlDescription *out, floe_error *err)
{
	SrvSession *ss = session;
	int rc;
	(void)ctx;
	rc = session_describe(ss->s, sql, nparams, oids, a, out, err);
#ifdef FLOE_DEBUG
	if (rc != FLOE_OK && !err->sqlstate[0])
		fprintf(stderr, "floe serve: a Parse failed without filling its error: %.300s\n", sql);
#endif
	return rc;
}

static int
be_auth(void *ctx, void *io, const char *user, PgAuthInfo *a, floe_error *err)
{
	Server *srv = ctx;
	Conn *c = io;
	const UserEntry *e;
	Users users;
	int how;

	if (srv->tls_required && !c->ssl) {
		floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
			    "connection without TLS refused: this server requires TLS");
		floe_error_hint(err, "Connect with sslmode=require.");
		return -1;
	}
	if (srv->method == PGAUTH_TRUST)
		return PGAUTH_TRUST;
	if (authfail_limited(srv->fails, c->addr)) {
		floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
			    "too many failed login attempts from %s", c->addr);
		floe_error_hint(err, "Try again in a minute.");
		return -1;
	}
	if (!srv->users_file) {
		memset(&users, 0, sizeof users);
	} else if (users_load(srv->users_file, !srv->users_required, &users, err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err->message);
		floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
			    "could not read the users file");
		return -1;
	}
	e = users_find(&users, user);
	how = srv->method;
	if (how == PGAUTH_MD5 && e && !e->md5[0] && e->scram_text)
		how = PGAUTH_SCRAM;        /* PostgreSQL: md5 falls back to SCRAM */
	if (how == PGAUTH_SCRAM) {
		if (e && e->scram_text)
			a->scram = e->scram;
		else
			scram_mock_verifier(user, &a->scram);
	} else if (e) {
		a->has_scram = e->scram_text != NULL;
		if (a->has_scram)
			a->scram = e->scram;
		memcpy(a->md5, e->md5, sizeof a->md5);
	}
	users_free(&users);
	return how;
}

static void
be_auth_failed(void *ctx, void *io, const char *user)
{
	Server *srv = ctx;
	Conn *c = io;

	/* PostgreSQL logs this too; never the password */
	fprintf(stderr, "floe serve: password authentication failed for user \"%s\" from %s\n", user, c->addr);
	authfail_note(srv->fails, c->addr);
}

static void
be_cancel(void *ctx, int32_t pid, int32_t key)
{
	Server *srv = ctx;
	Conn *c;
	pthread_mutex_lock(&srv->conns_mu);
	for (c = srv->conns; c; c = c->next)
		if (c->pid == pid && c->key == key && c->pg)
			set_flag(pgwire_cancel_flag(c->pg));
	pthread_mutex_unlock(&srv->conns_mu);
}

/* The connection's only socket reads and writes (TLS or clear):
 * bytes read, 0 at end of stream, -1 on error. */
static ssize_t
conn_recv(Conn *c, void *p, size_t cap)
{
	for (;;) {
		ssize_t n;
		if (c->ssl) {
			int r = SSL_read(c->ssl, p, cap > INT32_MAX ? INT32_MAX : (int)cap);
			if (r > 0)
				return r;
			if (SSL_get_error(c->ssl, r) == SSL_ERROR_ZERO_RETURN)
				return 0;
			if (errno == EINTR && SSL_get_error(c->ssl, r) == SSL_ERROR_SYSCALL)
				continue;
			ERR_clear_error();
			return -1;
		}
		n = recv(c->fd, p, cap, 0);
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -1 : n;
	}
}

static int
be_write(void *io, const void *p, size_t n)
{
	Conn *c = io;
	const char *b = p;
	int rc = 0;

	/* before login a client that does not read is one that stalls */
	set_client_wait(c, true);
	while (n) {
		ssize_t w;
		if (c->ssl) {
			int r = SSL_write(c->ssl, b, n > INT32_MAX ? INT32_MAX : (int)n);
			if (r <= 0) {
				ERR_clear_error();
				rc = -1;
				break;
			}
			w = r;
		} else {
			w = send(c->fd, b, n, MSG_NOSIGNAL);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				rc = -1;
				break;
			}
		}
		b += w;
		n -= (size_t)w;
	}
	set_client_wait(c, false);
	return rc;
}

/* tls-server-end-point (RFC 5929 §4.1): the certificate's hash with its
 * signature's digest, SHA-256 for MD5 and SHA-1; 0 when that digest is
 * unknown (e.g. Ed25519 certificates: no binding offered). */
static unsigned int
cert_hash(SSL_CTX *ctx, uint8_t *out)
{
	X509 *cert = SSL_CTX_get0_certificate(ctx);
	int md_nid = NID_undef;
	const EVP_MD *md;
	unsigned int len = 0;

	if (!cert || !OBJ_find_sigid_algs(X509_get_signature_nid(cert), &md_nid, NULL) || md_nid == NID_undef)
		return 0;
	md = (md_nid == NID_md5 || md_nid == NID_sha1) ? EVP_sha256() : EVP_get_digestbynid(md_nid);
	if (!md || EVP_MD_get_size(md) > SCRAM_CBIND_MAX || X509_digest(cert, md, out, &len) != 1)
		len = 0;
	ERR_clear_error();
	return len;
}

static size_t
be_tls_cbind(void *ctx, void *io, uint8_t *out, size_t cap)
{
	Server *srv = ctx;
	Conn *c = io;
	if (!c->ssl || !srv->cert_hash_len || srv->cert_hash_len > cap)
		return 0;
	memcpy(out, srv->cert_hash, srv->cert_hash_len);
	return srv->cert_hash_len;
}

/* After 'S': the TLS handshake, bounded by the login deadline. */
static int
be_tls_start(void *ctx, void *io)
{
	Server *srv = ctx;
	Conn *c = io;
	int64_t left = c->auth_deadline_us - now_us();
	struct timeval tv = { 0, 0 };
	int rc;

	if (left <= 0)
		return -1;
	tv.tv_sec = left / 1000000;
	tv.tv_usec = left % 1000000;
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	c->ssl = SSL_new(srv->tls);
	if (!c->ssl)
		return -1;
	SSL_set_fd(c->ssl, c->fd);
	rc = SSL_accept(c->ssl);
	tv.tv_sec = tv.tv_usec = 0;
	setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (rc != 1) {
		unsigned long e = ERR_get_error();
		char buf[256] = "";
		if (e)
			ERR_error_string_n(e, buf, sizeof buf);
		fprintf(stderr, "floe serve: TLS handshake with %s failed%s%s\n", c->addr, buf[0] ? ": " : "", buf);
		ERR_clear_error();
		SSL_free(c->ssl);
		c->ssl = NULL;
		return -1;
	}
	return 0;
}

/* COPY FROM STDIN: the connection's thread waits for the client's data
 * (until the data comes or the statement is cancelled or times out). */
static ssize_t
be_read(void *io, void *p, size_t cap)
{
	Conn *c = io;
	/* wait in slices so a CancelRequest, statement_timeout or shutdown
	 * (all set the cancel flag) stops a COPY whose client sends nothing */
	while (!(c->ssl && SSL_pending(c->ssl) > 0)) {
		struct pollfd pf = { c->fd, POLLIN, 0 };
		if (*pgwire_cancel_flag(c->pg))
			return -2;
		if (poll(&pf, 1, 50) != 0)
			break;
	}
	return conn_recv(c, p, cap);
}

/* ---- connections ------------------------------------------------------- */

/* How long a logged-in connection may wait for its next message (µs, 0:
 * forever), and the FATAL that ends the wait (invariant 7). */
static int64_t
idle_limit(Conn *c, const char **sqlstate, const char **msg)
{
	SrvSession *ss = pgwire_session(c->pg);
	int64_t us = 0;
	char st;

	if (!ss)
		return 0;
	/* only this connection's thread touches its Session */
	st = session_txn_status(ss->s);
	if (st == 'T' || st == 'E') {
		us = timeout_us(session_setting(ss->s, "idle_in_transaction_session_timeout"));
		*sqlstate = ERRCODE_IDLE_IN_TRANSACTION_SESSION_TIMEOUT;
		*msg = "terminating connection due to idle-in-transaction timeout";
	} else {
		const char *v = session_setting(ss->s, "idle_session_timeout");
		us = timeout_us(v);
		if (!us && (!v || !*v))
			us = c->srv->idle_timeout_us;
		*sqlstate = ERRCODE_IDLE_SESSION_TIMEOUT;
		*msg = "terminating connection due to idle-session timeout";
	}
	return us;
}

static uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Invariant 11: collect the bytes of the startup phase until the startup
 * packet (protocol 3) is whole, skipping SSLRequest/GSSENCRequest, and
 * keep its TimeZone.  pgwire.c validates the packet itself; anything odd
 * here just ends the peeking. */
static void
peek_startup(Conn *c, const char *bytes, size_t n)
{
	size_t cap = PGWIRE_MAX_STARTUP + 8;

	if (!c->sbuf)
		c->sbuf = xmalloc(cap);
	if (n > cap - c->slen) {
		c->startup_seen = true;
		return;
	}
	memcpy(c->sbuf + c->slen, bytes, n);
	c->slen += n;
	while (!c->startup_seen && c->slen >= 8) {
		uint32_t len = rd32(c->sbuf), code = rd32(c->sbuf + 4);
		size_t i;
		if (len < 8 || len > PGWIRE_MAX_STARTUP) {
			c->startup_seen = true;
			break;
		}
		if (c->slen < len)
			return;
		if (code == 80877103 || code == 80877104) {   /* SSL / GSSENC request */
			memmove(c->sbuf, c->sbuf + len, c->slen - len);
			c->slen -= len;
			continue;
		}
		c->startup_seen = true;
		if (code >> 16 != 3)
			break;
		/* key\0value\0 ... \0 */
		for (i = 8; i < len;) {
			const char *k = (const char *)c->sbuf + i, *v;
			size_t kl = strnlen(k, len - i), vl;
			if (kl == 0 || i + kl + 1 >= len)
				break;
			v = k + kl + 1;
			vl = strnlen(v, len - (i + kl + 1));
			if (i + kl + 1 + vl >= len)
				break;
			if (!strcasecmp(k, "timezone") && vl < sizeof c->startup_tz)
				memcpy(c->startup_tz, v, vl + 1);
			i += kl + 1 + vl + 1;
		}
	}
	if (c->startup_seen) {
		free(c->sbuf);
		c->sbuf = NULL;
		c->slen = 0;
	}
}

/* Bytes from the client to pgwire; 1: the connection ends.  The first
 * time the connection is logged in, its send timeout becomes the
 * logged-in one (invariant 12). */
static int
conn_input(Conn *c, const char *bytes, size_t n, PgState st)
{
	PgState now;
	if (!c->startup_seen && st == PG_STARTUP)
		peek_startup(c, bytes, n);
	if (pgwire_feed(c->pg, bytes, n))
		return 1;
	now = pgwire_state(c->pg);
	if (!c->logged_in && (now == PG_READY || now == PG_FAILED)) {
		struct timeval tv = { SERVER_SEND_TIMEOUT, 0 };
		setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
		pthread_mutex_lock(&c->srv->conns_mu);
		c->logged_in = true;
		c->client_wait = false;
		pthread_mutex_unlock(&c->srv->conns_mu);
	}
	return 0;
}

static void *
conn_main(void *arg)
{
	Conn *c = arg;
	char *buf = xmalloc(64 * 1024);
	PgConn *pg;
	int64_t auth_deadline = c->auth_deadline_us, idle_us = 0;
	const char *idle_state = NULL, *idle_msg = NULL;
	bool stop = false;

	thread_conn = c;
	if (c->pre_len) {
		/* the first packet, read by the accept loop (invariant 12) */
		stop = conn_input(c, (const char *)c->pre, c->pre_len, PG_STARTUP) != 0;
		idle_us = idle_limit(c, &idle_state, &idle_msg);
	}
	free(c->pre);
	c->pre = NULL;

	while (!stop) {
		ssize_t n;
		PgState st = pgwire_state(c->pg);
		if ((st == PG_READY || st == PG_FAILED) && idle_us > 0 && !(c->ssl && SSL_pending(c->ssl) > 0)) {
			/* server_free's shutdown(2) wakes this poll too */
			struct pollfd p = { c->fd, POLLIN, 0 };
			int64_t ms = idle_us / 1000 + 1;
			if (poll(&p, 1, ms > INT32_MAX ? INT32_MAX : (int)ms) == 0) {
				pgwire_terminate(c->pg, idle_state, idle_msg);
				break;
			}
		}
		if (st == PG_STARTUP || st == PG_AUTH) {
			/* authentication_timeout: a client that does not finish
			 * logging in is dropped (PostgreSQL closes silently too) */
			struct pollfd p = { c->fd, POLLIN, 0 };
			int64_t left = auth_deadline - now_us();
			int pr = 1;
			if (left <= 0)
				break;
			if (!(c->ssl && SSL_pending(c->ssl) > 0)) {
				set_client_wait(c, true);
				pr = poll(&p, 1, (int)(left / 1000) + 1);
				set_client_wait(c, false);
			}
			if (pr == 0)
				break;
		}
		n = conn_recv(c, buf, 64 * 1024);
		if (n <= 0)
			break;
		if (conn_input(c, buf, (size_t)n, st))
			break;
		idle_us = idle_limit(c, &idle_state, &idle_msg);
	}
	free(buf);
	if (c->ssl) {
		SSL_shutdown(c->ssl);     /* close_notify; no wait for the reply */
		SSL_free(c->ssl);
		c->ssl = NULL;
		ERR_clear_error();
	}
	/* the session is closed here, not by the accept loop's reap: closing
	 * it may roll back a transaction, and the accept loop must go on
	 * accepting (CancelRequests above all) meanwhile (invariant 9) */
	pthread_mutex_lock(&c->srv->conns_mu);
	pg = c->pg;
	c->pg = NULL;
	pthread_mutex_unlock(&c->srv->conns_mu);
	pgwire_conn_free(pg);
	pthread_mutex_lock(&c->srv->conns_mu);
	close(c->fd);
	c->fd = -1;
	c->done = 1;
	pthread_mutex_unlock(&c->srv->conns_mu);
	return NULL;
}

static void
conn_free(Conn *c)
{
	pgwire_conn_free(c->pg);     /* NULL once its thread ran */
	free(c->sbuf);
	free(c->pre);
	free(c);
}

/* Join and free finished connections (all of them when `all`). */
static void
reap(Server *srv, bool all)
{
	Conn **pc = &srv->conns, *c;
	for (;;) {
		pthread_mutex_lock(&srv->conns_mu);
		while (*pc && !(all || (*pc)->done))
			pc = &(*pc)->next;
		c = *pc;
		if (c)
			*pc = c->next;
		pthread_mutex_unlock(&srv->conns_mu);
		if (!c)
			break;
		pthread_join(c->thread, NULL);
		conn_free(c);
	}
}

static int32_t
random_key(void)
{
	uint32_t k = 0;
	if (getrandom(&k, sizeof k, 0) != sizeof k)
		k = (uint32_t)rand() ^ (uint32_t)time(NULL);
	return (int32_t)k;
}

/* ---- listener ---------------------------------------------------------- */

static bool
is_loopback(const char *host)
{
	return !strcmp(host, "127.0.0.1") || !strcmp(host, "localhost") || !strcmp(host, "::1");
}

static const char *const method_names[] = { "trust", "scram-sha-256", "password", "md5" };

/* The TLS context for cert/key (PEM), TLS 1.2 or newer. */
static SSL_CTX *
tls_context(const char *cert, const char *key, floe_error *err)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	unsigned long e;
	char buf[256];
	const char *what = cert;

	if (!ctx)
		goto fail;
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION);
	SSL_CTX_set_mode(ctx, SSL_MODE_AUTO_RETRY);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1)
		goto fail;
	what = key;
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 || SSL_CTX_check_private_key(ctx) != 1)
		goto fail;
	return ctx;
fail:
	e = ERR_get_error();
	ERR_error_string_n(e, buf, sizeof buf);
	ERR_clear_error();
	floe_errorf(err, "F0000" /* config_file_error */, "could not load TLS %s \"%s\": %s",
		    what == cert ? "certificate" : "private key", what, e ? buf : "unknown error");
	SSL_CTX_free(ctx);
	return NULL;
}

int
server_listen(Server **out, Engine *engine, const ServerConfig *cfg, floe_error *err)
{
	struct addrinfo hints, *ai = NULL;
	char portstr[16];
	Server *srv;
	int fd = -1, one = 1, rc, i, port = cfg->port;
	struct sockaddr_storage sa;
	socklen_t salen = sizeof sa;
	const char *host = cfg->host ? cfg->host : "127.0.0.1";
	PgAuthMethod method = PGAUTH_TRUST;
	SSL_CTX *tls = NULL;
	Users users;

	*out = NULL;
	memset(&users, 0, sizeof users);
	if (cfg->users_file && users_load(cfg->users_file, !cfg->users_required, &users, err) != FLOE_OK)
		return FLOE_ERR;
	if (cfg->users_required && !users.n) {
		floe_errorf(err, "F0000" /* config_file_error */, "auth file \"%s\" has no users", cfg->users_file);
		goto fail;
	}
	if (cfg->auth_method) {
		for (i = 0; i < 4 && strcmp(cfg->auth_method, method_names[i]) != 0; i++)
			;
		if (i == 4) {
			floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				    "invalid authentication method \"%s\" (trust, password, md5, scram-sha-256)",
				    cfg->auth_method);
			goto fail;
		}
		method = (PgAuthMethod)i;
	} else if (users.n) {
		method = PGAUTH_SCRAM;
	}
	if (method == PGAUTH_TRUST && !is_loopback(host)) {
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "floe serve listens only on a loopback address (127.0.0.1, ::1), not \"%s\", "
			    "unless password authentication is configured", host);
		floe_error_hint(err, "Add users with \"floe user add NAME\" (then SCRAM-SHA-256 is the default), "
				"or pass --auth-file.");
		goto fail;
	}
	if (port < 0 || port > 65535) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid port %d", port);
		goto fail;
	}
	if ((cfg->tls_cert != NULL) != (cfg->tls_key != NULL)) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "TLS needs both a certificate and a key");
		goto fail;
	}
	if (cfg->tls_required && !cfg->tls_cert) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "requiring TLS needs a certificate and a key");
		goto fail;
	}
	if (cfg->tls_key) {
		/* as PostgreSQL: a private key others can read is refused */
		struct stat ks;
		if (stat(cfg->tls_key, &ks) == 0 && (ks.st_mode & (S_IRWXO | S_IWGRP | S_IXGRP))) {
			floe_errorf(err, "F0000" /* config_file_error */,
				    "private key file \"%s\" has group or world access", cfg->tls_key);
			floe_error_hint(err, "File must have permissions u=rw (0600) or less if owned by the "
					"server's user, or u=rw,g=r (0640) or less.");
			goto fail;
		}
	}
	if (cfg->tls_cert && !(tls = tls_context(cfg->tls_cert, cfg->tls_key, err)))
		goto fail;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(portstr, sizeof portstr, "%d", port);
	if ((rc = getaddrinfo(!strcmp(host, "localhost") ? "127.0.0.1" : host, portstr, &hints, &ai)) != 0) {
		floe_errorf(err, ERRCODE_CONNECTION_EXCEPTION, "could not resolve \"%s\": %s",
			    host, gai_strerror(rc));
		goto fail;
	}
	/* non-blocking: the accept loop accepts until EAGAIN */
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		freeaddrinfo(ai);
		floe_errorf(err, ERRCODE_CONNECTION_EXCEPTION, "could not create socket: %s", strerror(errno));
		goto fail;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1024) != 0) {
		int e = errno;
		freeaddrinfo(ai);
		floe_errorf(err, ERRCODE_CONNECTION_EXCEPTION, "could not listen on %s port %d: %s",
			    host, port, strerror(e));
		goto fail;
	}
	freeaddrinfo(ai);
	srv = xcalloc(1, sizeof *srv);
	srv->fails = authfail_new(AUTH_FAIL_MAX, AUTH_FAIL_WINDOW);
	srv->method = method;
	srv->users_file = cfg->users_file ? xstrdup(cfg->users_file) : NULL;
	srv->users_required = cfg->users_required;
	srv->tls = tls;
	if (tls)
		srv->cert_hash_len = cert_hash(tls, srv->cert_hash);
	srv->tls_required = cfg->tls_required;
	srv->engine = engine;
	srv->fd = fd;
	if (getsockname(fd, (struct sockaddr *)&sa, &salen) == 0)
		srv->port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
							   : ((struct sockaddr_in *)&sa)->sin_port);
	pthread_mutex_init(&srv->conns_mu, NULL);
	pthread_mutex_init(&srv->timer_mu, NULL);
	srv->next_pid = 1000 + (int32_t)(random_key() & 0xffff);
	srv->auth_timeout_ms = (cfg->auth_timeout > 0 ? cfg->auth_timeout : 60) * 1000;
	srv->startup_timeout_ms = srv->auth_timeout_ms < SERVER_STARTUP_TIMEOUT * 1000
				  ? srv->auth_timeout_ms : SERVER_STARTUP_TIMEOUT * 1000;
	{
		/* a waiting socket must leave descriptors for logged-in
		 * connections, files and the catalog (invariant 12) */
		struct rlimit rl;
		srv->wait_max = SERVER_MAX_WAITING;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
		    (rl.rlim_cur - 64) / 4 < (rlim_t)srv->wait_max)
			srv->wait_max = rl.rlim_cur > 128 ? (int)((rl.rlim_cur - 64) / 4) : 16;
		srv->pfds = xcalloc((size_t)srv->wait_max + 1, sizeof *srv->pfds);
	}
	srv->idle_timeout_us = cfg->idle_timeout > 0 ? (int64_t)cfg->idle_timeout * 1000000 : 0;
	srv->max_connections = cfg->max_connections > 0 ? cfg->max_connections : SERVER_MAX_CONNECTIONS;
	srv->be.ctx = srv;
	srv->be.session_open = be_session_open;
	srv->be.session_close = be_session_close;
	srv->be.txn_status = be_txn_status;
	srv->be.setting = be_setting;
	srv->be.exec = be_exec;
	srv->be.describe = be_describe;
	srv->be.cancel = be_cancel;
	srv->be.write = be_write;
	srv->be.auth = be_auth;
	srv->be.auth_failed = be_auth_failed;
	srv->be.tls_start = tls ? be_tls_start : NULL;
	srv->be.tls_cbind = be_tls_cbind;
	users_free(&users);
	if (pthread_create(&srv->watchdog, NULL, watchdog_main, srv) != 0) {
		floe_errorf(err, ERRCODE_INTERNAL_ERROR, "could not start the timer thread");
		close(fd);
		pthread_mutex_destroy(&srv->conns_mu);
		pthread_mutex_destroy(&srv->timer_mu);
		free(srv->users_file);
		free(srv->pfds);
		SSL_CTX_free(tls);
		authfail_free(srv->fails);
		free(srv);
		return FLOE_ERR;
	}
	*out = srv;
	return FLOE_OK;
fail:
	if (fd >= 0)
		close(fd);
	SSL_CTX_free(tls);
	users_free(&users);
	return FLOE_ERR;
}

const char *
server_auth_method_name(const Server *srv)
{
	return method_names[srv->method];
}

int
server_port(const Server *srv)
{
	return srv->port;
}

/* ---- the accept loop (invariant 12) --------------------------------------- */

/* Among the threads not logged in of addr (NULL: of everyone), when more
 * than `limit` are alive, shut down the oldest one blocked on its client;
 * false when none was.  Under conns_mu. */
static bool
evict_if_over(Server *srv, const char *addr, int limit)
{
	Conn *o, *victim = NULL;
	int n = 0;

	for (o = srv->conns; o; o = o->next) {
		if (o->done || o->logged_in || o->evicted || o->fd < 0 || (addr && strcmp(o->addr, addr)))
			continue;
		n++;
		if (o->client_wait && (!victim || o->accepted_us < victim->accepted_us))
			victim = o;
	}
	if (n <= limit || !victim)
		return false;
	victim->evicted = true;
	shutdown(victim->fd, SHUT_RDWR);    /* its thread wakes and ends (invariant 3) */
	return true;
}

/* Invariant 12's limits on threads not logged in, with room for one more
 * of new_addr when it is not NULL.  Under conns_mu. */
static void
enforce_preauth(Server *srv, const char *new_addr)
{
	int extra = new_addr ? 1 : 0, n = 0;
	Conn *o;

	while (evict_if_over(srv, NULL, SERVER_MAX_PREAUTH - extra))
		;
	if (new_addr) {
		while (evict_if_over(srv, new_addr, SERVER_MAX_PREAUTH_PER_ADDR - 1))
			;
		return;
	}
	for (o = srv->conns; o; o = o->next)
		n += !o->done && !o->logged_in && !o->evicted;
	if (n <= SERVER_MAX_PREAUTH_PER_ADDR)
		return;       /* no address can be over */
	for (o = srv->conns; o; o = o->next)
		if (!o->done && !o->logged_in && !o->evicted)
			while (evict_if_over(srv, o->addr, SERVER_MAX_PREAUTH_PER_ADDR))
				;
}

/* Start the thread of a connection whose first packet is whole. */
static void
conn_start(Server *srv, Conn *c)
{
	pthread_attr_t at;
	int rc;

	c->pg = pgwire_conn_new(&srv->be, c, c->pid, c->key);
	pgwire_set_reader(c->pg, be_read);
	pthread_mutex_lock(&srv->conns_mu);
	enforce_preauth(srv, c->addr);
	rc = stack_attr_session(&at);
	if (rc == 0) {
		rc = pthread_create(&c->thread, &at, conn_main, c);
		pthread_attr_destroy(&at);
	}
	if (rc != 0) {
		pthread_mutex_unlock(&srv->conns_mu);
		close(c->fd);
		conn_free(c);
		return;
	}
	c->next = srv->conns;
	srv->conns = c;
	pthread_mutex_unlock(&srv->conns_mu);
}

static void
waiting_drop(Conn *c)
{
	close(c->fd);
	conn_free(c);
}

/* Unlink and close the oldest waiting socket (of addr, or of anyone when
 * addr is NULL); false when there is none. */
static bool
waiting_evict_oldest(Server *srv, const char *addr)
{
	Conn **pw, **victim = NULL;
	for (pw = &srv->waiting; *pw; pw = &(*pw)->next)
		if (!addr || !strcmp((*pw)->addr, addr))
			victim = pw;       /* newest first: the last match is the oldest */
	if (!victim)
		return false;
	{
		Conn *c = *victim;
		*victim = c->next;
		srv->nwaiting--;
		waiting_drop(c);
	}
	return true;
}

/* Read what a waiting socket has, without blocking: 0 keep waiting, 1
 * its first packet is whole (or its length word is bad: pgwire answers
 * that), -1 the client closed or failed (PostgreSQL closes such an
 * incomplete startup silently too). */
static int
waiting_read(Conn *c)
{
	ssize_t n;
	uint32_t len;

	if (!c->pre)
		c->pre = xmalloc(PRE_CAP);
	n = recv(c->fd, c->pre + c->pre_len, PRE_CAP - c->pre_len, MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	c->pre_len += (size_t)n;
	if (c->pre_len < 4)
		return 0;
	len = rd32(c->pre);
	if (len < 8 || len > PGWIRE_MAX_STARTUP)
		return 1;
	return c->pre_len >= len ? 1 : 0;
}

/* Accept what the listener has queued into `waiting`; *pause_until set
 * when out of file descriptors with nothing left to close. */
static void
accept_some(Server *srv, int64_t *pause_until)
{
	int k;

	for (k = 0; k < 64; k++) {
		struct sockaddr_storage peer;
		socklen_t peerlen = sizeof peer;
		int fd, one = 1, n_addr = 0;
		struct timeval sndtimeo = { srv->startup_timeout_ms / 1000, (srv->startup_timeout_ms % 1000) * 1000 };
		Conn *c, *w;

		fd = accept4(srv->fd, (struct sockaddr *)&peer, &peerlen, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE) {
				/* the oldest waiting socket is the likeliest stall */
				if (waiting_evict_oldest(srv, NULL))
					continue;
				*pause_until = now_us() + 100000;
			}
			return;     /* EAGAIN: nothing more queued */
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		/* a client that stops reading must not keep its statement (and
		 * the snapshot and memory it holds) forever: a blocked send
		 * fails after startup_timeout before login, 60 s after, and the
		 * statement is cancelled */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &sndtimeo, sizeof sndtimeo);
		c = xcalloc(1, sizeof *c);
		c->srv = srv;
		c->fd = fd;
		if (peer.ss_family == AF_INET6)
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&peer)->sin6_addr, c->addr, sizeof c->addr);
		else
			inet_ntop(AF_INET, &((struct sockaddr_in *)&peer)->sin_addr, c->addr, sizeof c->addr);
		c->accepted_us = now_us();
		c->auth_deadline_us = c->accepted_us + (int64_t)srv->auth_timeout_ms * 1000;
		c->startup_deadline_us = c->accepted_us + (int64_t)srv->startup_timeout_ms * 1000;
		c->pid = srv->next_pid++;
		c->key = random_key();
		for (w = srv->waiting; w; w = w->next)
			n_addr += !strcmp(w->addr, c->addr);
		if (n_addr >= SERVER_MAX_WAITING_PER_ADDR)
			waiting_evict_oldest(srv, c->addr);
		else if (srv->nwaiting >= srv->wait_max)
			waiting_evict_oldest(srv, NULL);
		c->next = srv->waiting;
		srv->waiting = c;
		srv->nwaiting++;
	}
}

int
server_run(Server *srv, volatile sig_atomic_t *stop)
{
	int64_t pause_until = 0;

	while (!*stop) {
		struct pollfd *pf = srv->pfds;
		int n = 0, i, timeout = 200;
		int64_t now = now_us();
		bool listening = now >= pause_until;
		Conn *w, **pw;

		reap(srv, false);
		/* threads that came to wait on their client since they started */
		pthread_mutex_lock(&srv->conns_mu);
		enforce_preauth(srv, NULL);
		pthread_mutex_unlock(&srv->conns_mu);
		if (listening)
			pf[n++] = (struct pollfd){ srv->fd, POLLIN, 0 };
		for (w = srv->waiting; w; w = w->next) {
			int64_t ms = (w->startup_deadline_us - now) / 1000 + 1;
			pf[n++] = (struct pollfd){ w->fd, POLLIN, 0 };
			if (ms < timeout)
				timeout = ms < 0 ? 0 : (int)ms;
		}
		if (poll(pf, (nfds_t)n, timeout) < 0)
			continue;
		/* the waiting sockets, in the order polled (accept_some adds
		 * new ones in front only after this) */
		now = now_us();
		i = listening ? 1 : 0;
		for (pw = &srv->waiting; (w = *pw);) {
			int r = pf[i++].revents ? waiting_read(w) : 0;
			if (!r && now >= w->startup_deadline_us)
				r = -1;     /* no whole first packet in time (invariant 6) */
			if (!r) {
				pw = &w->next;
				continue;
			}
			*pw = w->next;
			srv->nwaiting--;
			if (r > 0)
				conn_start(srv, w);
			else
				waiting_drop(w);
		}
		if (listening && (pf[0].revents & POLLIN))
			accept_some(srv, &pause_until);
	}
	return FLOE_OK;
}

void
server_free(Server *srv)
{
	Conn *c;
	if (!srv)
		return;
	close(srv->fd);
	while (srv->waiting) {
		c = srv->waiting;
		srv->waiting = c->next;
		waiting_drop(c);
	}
	free(srv->pfds);
	pthread_mutex_lock(&srv->conns_mu);
	for (c = srv->conns; c; c = c->next) {
		if (c->pg)
			set_flag(pgwire_cancel_flag(c->pg));
		if (c->fd >= 0)
			shutdown(c->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&srv->conns_mu);
	reap(srv, true);
	srv->watchdog_stop = 1;
	pthread_join(srv->watchdog, NULL);
	pthread_mutex_destroy(&srv->timer_mu);
	free(srv->users_file);
	SSL_CTX_free(srv->tls);
	pthread_mutex_destroy(&srv->conns_mu);
	authfail_free(srv->fails);
	free(srv);
}
