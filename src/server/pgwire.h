/*
 * pgwire.h — one PostgreSQL protocol v3 connection as a state machine fed
 * with bytes: no sockets, no threads, no engine calls of its own.
 *
 * The server (server.c) reads bytes from a socket and hands them to
 * pgwire_feed; pgwire writes its replies through backend->write and reaches
 * the SQL engine only through the PgwireBackend callbacks.  The fuzz targets
 * (fuzz/fuzz_pgwire_*.c) drive the same code with stub callbacks.
 *
 * INTERFACE ROUTINES
 *   pgwire_conn_new(backend, io, pid, key) / pgwire_conn_free(c)
 *   pgwire_feed(c, bytes, n)        process every whole message; 1 = close
 *   pgwire_flush(c)                 write buffered output
 *   pgwire_set_reader(c, read)      blocking reads for COPY FROM STDIN
 *   pgwire_cancel_flag(c)           the flag a CancelRequest sets
 *   pgwire_state(c)                 PgState, for tests
 *   pgwire_session(c)               the backend's session (NULL before login)
 *   pgwire_terminate(c, sqlstate, msg)  FATAL to the client, then PG_CLOSED
 */
#ifndef FLOE_PGWIRE_H
#define FLOE_PGWIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "common/arena.h"
#include "common/error.h"
#include "server/auth_md5.h"
#include "server/auth_scram.h"
#include "sql/engine.h"

typedef enum PgState {
	PG_STARTUP = 0,     /* waiting for the startup packet (SSL/GSS requests loop here) */
	PG_AUTH,            /* SCRAM-SHA-256 exchange: only SASL messages ('p') */
	PG_READY,           /* idle or between extended-protocol messages */
	PG_FAILED,          /* extended-protocol error: discard until Sync */
	PG_CLOSED           /* Terminate, FATAL error or cancel request: close the socket */
} PgState;

/* How a user logs in (PostgreSQL's pg_hba methods). */
typedef enum PgAuthMethod {
	PGAUTH_TRUST = 0,
	PGAUTH_SCRAM = 1,       /* SCRAM-SHA-256 */
	PGAUTH_PASSWORD = 2,    /* cleartext password */
	PGAUTH_MD5 = 3          /* md5(md5(password || user) || salt) */
} PgAuthMethod;

typedef struct PgAuthInfo {
	ScramVerifier scram;
	bool has_scram;
	char md5[AUTH_MD5_LEN + 1];   /* "md5..." or "" */
} PgAuthInfo;

/* What a connection needs from the outside world.  `ctx` is the backend's,
 * `io` (given to pgwire_conn_new) the connection's transport. */
typedef struct PgwireBackend {
	void *ctx;
	/* a session for user/database; NULL and err filled to refuse */
	void *(*session_open)(void *ctx, const char *user, const char *database,
			      volatile int *cancel_flag, floe_error *err);
	void (*session_close)(void *ctx, void *session);
	/* ReadyForQuery's status byte: 'I' idle, 'T' in a transaction block,
	 * 'E' in a failed block; NULL: always 'I' */
	char (*txn_status)(void *ctx, void *session);
	/* nparams < 0: a simple-protocol query string (several statements);
	 * else session_exec_params */
	int (*exec)(void *ctx, void *session, const char *sql, int nparams,
		    const char *const *values, const uint32_t *oids, ResultSink *sink,
		    floe_error *err);
	int (*describe)(void *ctx, void *session, const char *sql, int nparams,
			const uint32_t *oids, Arena *arena, SqlDescription *out, floe_error *err);
	/* the session's current value of a setting (lower-case name, as
	 * SHOW), for the ParameterStatus messages of reported settings; NULL
	 * (the callback or its result): PostgreSQL's default is reported */
	const char *(*setting)(void *ctx, void *session, const char *name);
	/* a CancelRequest for (pid, key) arrived on this connection */
	void (*cancel)(void *ctx, int32_t pid, int32_t key);
	/* send bytes: 0, or -1 when the client is gone */
	int (*write)(void *io, const void *p, size_t n);
	/* how `user` on connection `io` authenticates: a PgAuthMethod with *a
	 * filled (SCRAM: a.scram, a mock verifier for an unknown user;
	 * PASSWORD: a.has_scram/a.scram or a.md5; MD5: a.md5, "" for an unknown
	 * user), or -1 refused with err filled (too many failed logins).
	 * NULL: trust for everyone. */
	int (*auth)(void *ctx, void *io, const char *user, PgAuthInfo *a, floe_error *err);
	/* a failed login for `user` (rate limiting, logging); may be NULL */
	void (*auth_failed)(void *ctx, void *io, const char *user);
	/* SSLRequest: NULL answers 'N'; else pgwire answers 'S' and this runs
	 * the TLS handshake on `io` (0 ok: the rest of the connection is
	 * encrypted, -1 failed: the connection closes) */
	int (*tls_start)(void *ctx, void *io);
	/* after tls_start: the tls-server-end-point channel binding data (the
	 * server certificate's hash) into out, its length; 0: none, then
	 * SCRAM-SHA-256-PLUS is not offered.  May be NULL. */
	size_t (*tls_cbind)(void *ctx, void *io, uint8_t *out, size_t cap);
} PgwireBackend;

typedef struct PgConn PgConn;

PgConn *pgwire_conn_new(const PgwireBackend *backend, void *io, int32_t pid, int32_t key);
void pgwire_conn_free(PgConn *c);
/* Returns 0 to keep reading, 1 when the connection must be closed (after
 * its output was written). */
int pgwire_feed(PgConn *c, const void *bytes, size_t n);
int pgwire_flush(PgConn *c);
/* COPY FROM STDIN needs to wait for the client's data inside a statement:
 * read(io, p, cap) blocks until bytes arrive and returns their count, 0 at
 * end of stream, -1 on error, -2 when it stopped waiting because the
 * connection's cancel flag was set (the COPY fails with 57014).  Without a reader (the default) COPY FROM
 * STDIN is refused with 0A000. */
void pgwire_set_reader(PgConn *c, ssize_t (*read)(void *io, void *p, size_t cap));
volatile int *pgwire_cancel_flag(PgConn *c);
PgState pgwire_state(const PgConn *c);
void *pgwire_session(const PgConn *c);
void pgwire_terminate(PgConn *c, const char *sqlstate, const char *msg);

/* Largest message accepted: startup packets, and per message type. */
#define PGWIRE_MAX_STARTUP 10000
#define PGWIRE_MAX_SMALL 10000
#define PGWIRE_MAX_LARGE (64u << 20)

#endif
