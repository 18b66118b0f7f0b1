/*
 * server.c — the listener of `floe serve`: accepts TCP connections on a
 * loopback address and runs each in its own thread through pgwire.c.
 *
 * Threads.  One thread per connection (simple, and a connection that runs a
 * long query blocks only itself in its read/write calls); the accept loop
 * polls the listening socket with a timeout so it notices `stop`, and reaps
 * finished connection threads.
 *
 * Engine safety.  The Engine is shared: its SQLite catalog connection, its
 * FileIO and the metadata cache are not thread-safe, and parts of the
 * session state are process-global (the time zone, now()).  So every call
 * into the engine (session_new/free, session_exec[_params],
 * session_describe) holds `engine_mu`: statements of different sessions run
 * one at a time.  A CancelRequest needs no engine lock: it only sets the
 * target connection's cancel flag under `conns_mu`, which the running
 * statement polls (57014).
 *
 * Authentication: with an auth file (server_listen's auth_file: lines
 * "user:<SCRAM-SHA-256 verifier>") every user must pass SCRAM-SHA-256
 * (auth_scram.c; an unknown user runs a mock exchange and fails 28P01);
 * without one, trust, and then listening is refused on any address but
 * 127.0.0.1 / ::1 / localhost.
 *
 * INTERFACE ROUTINES: see server.h.
 *
 * Invariants:
 *   1. A Conn is in `conns` from accept until its thread is joined; a cancel
 *      finds it only there, under conns_mu, so it never touches a freed flag.
 *   2. Every engine call holds engine_mu (see above).
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
 *      or it is closed.
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
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/arena.h"
#include "server/pgwire.h"
#include "server/server.h"

typedef struct Conn {
	struct Conn *next;
	Server *srv;
	int fd;
	int32_t pid, key;
	PgConn *pg;
	pthread_t thread;
	volatile int done;
	char addr[INET6_ADDRSTRLEN];   /* the client's address */
} Conn;

/* Failed logins per client address (rate limiting, invariant 4). */
#define AUTH_FAIL_MAX 5            /* failures allowed ... */
#define AUTH_FAIL_WINDOW 60        /* ... per this many seconds */
#define AUTH_FAIL_SLOTS 256
typedef struct AuthFail {
	char addr[INET6_ADDRSTRLEN];
	int count;
	time_t first;
} AuthFail;

struct Server {
	Engine *engine;
	int fd;
	int port;
	pthread_mutex_t engine_mu;
	pthread_mutex_t conns_mu;
	Conn *conns;
	int32_t next_pid;
	int auth_timeout_ms;               /* startup + authentication must end within */
	PgwireBackend be;
	/* SCRAM users from the auth file (none: trust) */
	int nusers;
	char **user_names;
	ScramVerifier *verifiers;
	AuthFail fails[AUTH_FAIL_SLOTS];   /* under conns_mu */
	/* statement_timeout: statements run one at a time (engine_mu), so one
	 * deadline suffices; the watchdog thread sets the flag when it passes */
	pthread_t watchdog;
	volatile int watchdog_stop;
	pthread_mutex_t timer_mu;
	int64_t deadline_us;               /* 0: none */
	volatile int *timer_flag;
	bool timed_out;
};

/* What pgwire holds as its session: the engine's Session and the
 * connection's cancel flag. */
typedef struct SrvSession {
	Session *s;
	volatile int *cancel;
} SrvSession;

static int64_t
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* statement_timeout in microseconds (PostgreSQL's units; no unit = ms);
 * 0 for none or an unparsable value. */
static int64_t
timeout_us(const char *v)
{
	char *end;
	double d;
	if (!v || !*v)
		return 0;
	d = strtod(v, &end);
	while (*end == ' ')
		end++;
	if (d <= 0 || d > 1e12)
		return 0;
	if (!*end || !strcmp(end, "ms"))
		return (int64_t)(d * 1000);
	if (!strcmp(end, "us"))
		return (int64_t)d;
	if (!strcmp(end, "s"))
		return (int64_t)(d * 1e6);
	if (!strcmp(end, "min"))
		return (int64_t)(d * 60e6);
	if (!strcmp(end, "h"))
		return (int64_t)(d * 3600e6);
	if (!strcmp(end, "d"))
		return (int64_t)(d * 86400e6);
	return 0;
}

static void *
watchdog_main(void *arg)
{
	Server *srv = arg;
	while (!srv->watchdog_stop) {
		usleep(5000);
		pthread_mutex_lock(&srv->timer_mu);
		if (srv->deadline_us && now_us() >= srv->deadline_us && srv->timer_flag) {
			*srv->timer_flag = 1;
			srv->timed_out = true;
			srv->deadline_us = 0;
		}
		pthread_mutex_unlock(&srv->timer_mu);
	}
	return NULL;
}

/* ---- backend callbacks (engine access under engine_mu) ------------------- */

static void *
be_session_open(void *ctx, const char *user, const char *database, volatile int *cancel_flag,
		floe_error *err)
{
	Server *srv = ctx;
	SrvSession *ss = xcalloc(1, sizeof *ss);
	(void)user;
	(void)database;
	(void)err;
	pthread_mutex_lock(&srv->engine_mu);
	ss->s = session_new(srv->engine);
	ss->cancel = cancel_flag;
	session_set_cancel_flag(ss->s, cancel_flag);
	pthread_mutex_unlock(&srv->engine_mu);
	return ss;
}

static void
be_session_close(void *ctx, void *session)
{
	Server *srv = ctx;
	SrvSession *ss = session;
	pthread_mutex_lock(&srv->engine_mu);
	session_free(ss->s);
	pthread_mutex_unlock(&srv->engine_mu);
	free(ss);
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
	int rc;

	pthread_mutex_lock(&srv->engine_mu);
	tmo = timeout_us(session_setting(ss->s, "statement_timeout"));
	if (tmo) {
		pthread_mutex_lock(&srv->timer_mu);
		srv->deadline_us = now_us() + tmo;
		srv->timer_flag = ss->cancel;
		srv->timed_out = false;
		pthread_mutex_unlock(&srv->timer_mu);
	}
	if (nparams < 0)
		rc = session_exec(ss->s, sql, sink, err);
	else
		rc = session_exec_params(ss->s, sql, nparams, values, oids, sink, err);
	if (tmo) {
		pthread_mutex_lock(&srv->timer_mu);
		fired = srv->timed_out;
		srv->deadline_us = 0;
		srv->timer_flag = NULL;
		pthread_mutex_unlock(&srv->timer_mu);
	}
	pthread_mutex_unlock(&srv->engine_mu);
	if (rc != FLOE_OK && fired && floe_error_is(err, ERRCODE_QUERY_CANCELED))
		floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to statement timeout");
	return rc;
}

static int
be_describe(void *ctx, void *session, const char *sql, int nparams, const uint32_t *oids,
	    Arena *a, SqlDescription *out, floe_error *err)
{
	Server *srv = ctx;
	SrvSession *ss = session;
	int rc;
	pthread_mutex_lock(&srv->engine_mu);
	rc = session_describe(ss->s, sql, nparams, oids, a, out, err);
	pthread_mutex_unlock(&srv->engine_mu);
	return rc;
}

/* The failure slot of addr (a free or the oldest one when `create`). */
static AuthFail *
fail_slot(Server *srv, const char *addr, bool create)
{
	AuthFail *f, *victim = NULL;
	for (f = srv->fails; f < srv->fails + AUTH_FAIL_SLOTS; f++) {
		if (f->count && !strcmp(f->addr, addr))
			return f;
		/* prefer a free slot, else the one whose window began first */
		if (!victim || (!f->count && victim->count) ||
		    (f->count && victim->count && f->first < victim->first))
			victim = f;
	}
	if (!create)
		return NULL;
	memset(victim, 0, sizeof *victim);
	snprintf(victim->addr, sizeof victim->addr, "%s", addr);
	return victim;
}

static int
be_auth(void *ctx, void *io, const char *user, ScramVerifier *v, floe_error *err)
{
	Server *srv = ctx;
	Conn *c = io;
	AuthFail *f;
	bool limited = false;
	int i;

	if (!srv->nusers)
		return 0;
	pthread_mutex_lock(&srv->conns_mu);
	f = fail_slot(srv, c->addr, false);
	if (f && time(NULL) - f->first < AUTH_FAIL_WINDOW && f->count >= AUTH_FAIL_MAX)
		limited = true;
	pthread_mutex_unlock(&srv->conns_mu);
	if (limited) {
		floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
			    "too many failed login attempts from %s", c->addr);
		floe_error_hint(err, "Try again in a minute.");
		return -1;
	}
	for (i = 0; i < srv->nusers; i++)
		if (!strcmp(srv->user_names[i], user)) {
			*v = srv->verifiers[i];
			return 1;
		}
	scram_mock_verifier(user, v);
	return 1;
}

static void
be_auth_failed(void *ctx, void *io, const char *user)
{
	Server *srv = ctx;
	Conn *c = io;
	AuthFail *f;
	time_t now = time(NULL);

	(void)user;
	pthread_mutex_lock(&srv->conns_mu);
	f = fail_slot(srv, c->addr, true);
	if (!f->count || now - f->first >= AUTH_FAIL_WINDOW) {
		f->count = 0;
		f->first = now;
	}
	f->count++;
	pthread_mutex_unlock(&srv->conns_mu);
}

/* Auth file: one "user:SCRAM-SHA-256$iter:salt$StoredKey:ServerKey" per
 * line (PostgreSQL's pg_authid.rolpassword form); '#' comments. */
static int
load_auth_file(Server *srv, const char *path, floe_error *err)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int lineno = 0;

	if (!f)
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not open auth file \"%s\": %s", path,
				   strerror(errno));
	while (fgets(line, sizeof line, f)) {
		char *colon, *nl = strchr(line, '\n');
		ScramVerifier v;
		lineno++;
		if (nl)
			*nl = 0;
		if (!line[0] || line[0] == '#')
			continue;
		colon = strchr(line, ':');
		if (!colon || colon == line || scram_verifier_parse(colon + 1, &v) != FLOE_OK) {
			fclose(f);
			return floe_errorf(err, "F0000" /* config_file_error */,
					   "auth file \"%s\" line %d: expected user:SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>",
					   path, lineno);
		}
		*colon = 0;
		srv->user_names = xrealloc(srv->user_names, sizeof(char *) * (size_t)(srv->nusers + 1));
		srv->verifiers = xrealloc(srv->verifiers, sizeof(ScramVerifier) * (size_t)(srv->nusers + 1));
		srv->user_names[srv->nusers] = xstrdup(line);
		srv->verifiers[srv->nusers] = v;
		srv->nusers++;
	}
	fclose(f);
	if (!srv->nusers)
		return floe_errorf(err, "F0000" /* config_file_error */, "auth file \"%s\" has no users", path);
	return FLOE_OK;
}

static void
be_cancel(void *ctx, int32_t pid, int32_t key)
{
	Server *srv = ctx;
	Conn *c;
	pthread_mutex_lock(&srv->conns_mu);
	for (c = srv->conns; c; c = c->next)
		if (c->pid == pid && c->key == key && c->pg)
			*pgwire_cancel_flag(c->pg) = 1;
	pthread_mutex_unlock(&srv->conns_mu);
}

static int
be_write(void *io, const void *p, size_t n)
{
	Conn *c = io;
	const char *b = p;
	while (n) {
		ssize_t w = send(c->fd, b, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* COPY FROM STDIN: the connection's thread waits for the client's data
 * (it holds the engine lock meanwhile, as any running statement does). */
static ssize_t
be_read(void *io, void *p, size_t cap)
{
	Conn *c = io;
	for (;;) {
		ssize_t n = recv(c->fd, p, cap, 0);
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -1 : n;
	}
}

/* ---- connections ------------------------------------------------------- */

static void *
conn_main(void *arg)
{
	Conn *c = arg;
	char *buf = xmalloc(64 * 1024);
	int64_t auth_deadline = now_us() + (int64_t)c->srv->auth_timeout_ms * 1000;

	for (;;) {
		ssize_t n;
		PgState st = pgwire_state(c->pg);
		if (st == PG_STARTUP || st == PG_AUTH) {
			/* authentication_timeout: a client that does not finish
			 * logging in is dropped (PostgreSQL closes silently too) */
			struct pollfd p = { c->fd, POLLIN, 0 };
			int64_t left = auth_deadline - now_us();
			if (left <= 0 || poll(&p, 1, (int)(left / 1000) + 1) == 0)
				break;
		}
		n = recv(c->fd, buf, 64 * 1024, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (pgwire_feed(c->pg, buf, (size_t)n))
			break;
	}
	free(buf);
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
	pgwire_conn_free(c->pg);
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

int
server_listen(Server **out, Engine *engine, const char *host, int port, const char *auth_file,
	      floe_error *err)
{
	struct addrinfo hints, *ai = NULL;
	char portstr[16];
	Server *srv;
	int fd, one = 1, rc;
	struct sockaddr_storage sa;
	socklen_t salen = sizeof sa;
	Server tmp;

	*out = NULL;
	memset(&tmp, 0, sizeof tmp);
	if (auth_file && load_auth_file(&tmp, auth_file, err) != FLOE_OK)
		goto fail;
	if (!tmp.nusers && !is_loopback(host)) {
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "floe serve listens only on a loopback address (127.0.0.1, ::1), not \"%s\", "
			    "unless password authentication is configured", host);
		floe_error_hint(err, "Without --auth-file connections are trusted without a password.");
		goto fail;
	}
	if (port < 0 || port > 65535) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid port %d", port);
		goto fail;
	}
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
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		freeaddrinfo(ai);
		floe_errorf(err, ERRCODE_CONNECTION_EXCEPTION, "could not create socket: %s", strerror(errno));
		goto fail;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 128) != 0) {
		int e = errno;
		freeaddrinfo(ai);
		close(fd);
		floe_errorf(err, ERRCODE_CONNECTION_EXCEPTION, "could not listen on %s port %d: %s",
			    host, port, strerror(e));
		goto fail;
	}
	freeaddrinfo(ai);
	srv = xcalloc(1, sizeof *srv);
	srv->nusers = tmp.nusers;
	srv->user_names = tmp.user_names;
	srv->verifiers = tmp.verifiers;
	srv->engine = engine;
	srv->fd = fd;
	if (getsockname(fd, (struct sockaddr *)&sa, &salen) == 0)
		srv->port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
							   : ((struct sockaddr_in *)&sa)->sin_port);
	pthread_mutex_init(&srv->engine_mu, NULL);
	pthread_mutex_init(&srv->conns_mu, NULL);
	pthread_mutex_init(&srv->timer_mu, NULL);
	srv->next_pid = 1000 + (int32_t)(random_key() & 0xffff);
	srv->auth_timeout_ms = 60 * 1000;
	srv->be.ctx = srv;
	srv->be.session_open = be_session_open;
	srv->be.session_close = be_session_close;
	srv->be.txn_status = be_txn_status;
	srv->be.exec = be_exec;
	srv->be.describe = be_describe;
	srv->be.cancel = be_cancel;
	srv->be.write = be_write;
	srv->be.auth = be_auth;
	srv->be.auth_failed = be_auth_failed;
	if (pthread_create(&srv->watchdog, NULL, watchdog_main, srv) != 0) {
		floe_errorf(err, ERRCODE_INTERNAL_ERROR, "could not start the timer thread");
		close(fd);
		pthread_mutex_destroy(&srv->engine_mu);
		pthread_mutex_destroy(&srv->conns_mu);
		pthread_mutex_destroy(&srv->timer_mu);
		free(srv);
		goto fail;
	}
	*out = srv;
	return FLOE_OK;
fail:
	while (tmp.nusers > 0)
		free(tmp.user_names[--tmp.nusers]);
	free(tmp.user_names);
	free(tmp.verifiers);
	return FLOE_ERR;
}

void
server_set_auth_timeout(Server *srv, int seconds)
{
	srv->auth_timeout_ms = seconds > 0 ? seconds * 1000 : 60 * 1000;
}

int
server_port(const Server *srv)
{
	return srv->port;
}

int
server_run(Server *srv, volatile sig_atomic_t *stop)
{
	while (!*stop) {
		struct pollfd p = { srv->fd, POLLIN, 0 };
		int fd, one = 1;
		Conn *c;
		struct sockaddr_storage peer;
		socklen_t peerlen;
		struct timeval sndtimeo = { 60, 0 };

		reap(srv, false);
		if (poll(&p, 1, 200) <= 0)
			continue;
		peerlen = sizeof peer;
		fd = accept4(srv->fd, (struct sockaddr *)&peer, &peerlen, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		/* a client that stops reading must not hold engine_mu forever:
		 * after 60 s a blocked send fails and the statement is cancelled */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &sndtimeo, sizeof sndtimeo);
		c = xcalloc(1, sizeof *c);
		c->srv = srv;
		c->fd = fd;
		if (peer.ss_family == AF_INET6)
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&peer)->sin6_addr, c->addr, sizeof c->addr);
		else
			inet_ntop(AF_INET, &((struct sockaddr_in *)&peer)->sin_addr, c->addr, sizeof c->addr);
		c->pid = srv->next_pid++;
		c->key = random_key();
		c->pg = pgwire_conn_new(&srv->be, c, c->pid, c->key);
		pgwire_set_reader(c->pg, be_read);
		pthread_mutex_lock(&srv->conns_mu);
		if (pthread_create(&c->thread, NULL, conn_main, c) != 0) {
			pthread_mutex_unlock(&srv->conns_mu);
			close(fd);
			conn_free(c);
			continue;
		}
		c->next = srv->conns;
		srv->conns = c;
		pthread_mutex_unlock(&srv->conns_mu);
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
	pthread_mutex_lock(&srv->conns_mu);
	for (c = srv->conns; c; c = c->next) {
		*pgwire_cancel_flag(c->pg) = 1;
		if (c->fd >= 0)
			shutdown(c->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&srv->conns_mu);
	reap(srv, true);
	srv->watchdog_stop = 1;
	pthread_join(srv->watchdog, NULL);
	pthread_mutex_destroy(&srv->timer_mu);
	while (srv->nusers > 0)
		free(srv->user_names[--srv->nusers]);
	free(srv->user_names);
	free(srv->verifiers);
	pthread_mutex_destroy(&srv->engine_mu);
	pthread_mutex_destroy(&srv->conns_mu);
	free(srv);
}
