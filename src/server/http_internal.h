/*
 * http_internal.h — what the files of the HTTP server share (http.c is the
 * listener and router; http_buf.c, http_auth.c, http_session.c,
 * http_query.c, http_iceberg.c do one job each).  Not for use outside
 * src/server/http*.c.
 *
 * A request reaches a handler whole: method, path (unescaped by
 * libmicrohttpd), body (at most HTTP_MAX_BODY bytes), the authenticated
 * user.  A handler fills an HttpResp (status, content type, body, extra
 * headers); http.c sends it.
 *
 * INTERFACE ROUTINES
 *   hbuf_put/puts/printf/json_str/free     a growable byte buffer with a limit
 *   http_header(req, name) / http_arg(req, name)    request header / query argument
 *   http_resp_header(resp, name, value)    add a response header
 *   http_sql_status(sqlstate)              the HTTP status of an error
 *   http_sql_error(resp, err)              {"error": {"sqlstate": ..., "message": ...}}
 *   http_auth(req, err)                    Basic / Bearer / trust -> req->user
 *   http_check_password(req, user, pw, err)   the users file's verdict
 *   http_token_issue(srv, user, out, cap)  an OAuth2 access token for user
 *   http_query(req, resp), http_sessions(req, resp)   the query API (http_query.c)
 *   http_iceberg(req, resp)                the REST catalog (http_iceberg.c)
 *   hsess_*                                 the session table (http_session.c)
 */
#ifndef FLOE_HTTP_INTERNAL_H
#define FLOE_HTTP_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>

#include "server/http.h"

#define HTTP_MAX_BODY (16u << 20)        /* request bodies */
#define HTTP_MAX_RESULT (256u << 20)     /* a query's response */
#define HTTP_TOKEN_TTL 3600              /* s an OAuth2 token lives */
#define HTTP_MAX_TOKENS 1024

typedef struct HttpBuf {
	char *p;
	size_t len, cap;
	size_t limit;          /* 0: none */
	bool overflow;         /* a put went past limit (the bytes were dropped) */
} HttpBuf;

void hbuf_put(HttpBuf *b, const char *s, size_t n);
void hbuf_puts(HttpBuf *b, const char *s);
void hbuf_printf(HttpBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s[0..n) as a JSON string literal (quotes included; invalid UTF-8 bytes
 * become U+FFFD) */
void hbuf_json_str(HttpBuf *b, const char *s, size_t n);
void hbuf_free(HttpBuf *b);

typedef struct HttpSessions HttpSessions;
typedef struct HttpTokens HttpTokens;

struct HttpServer {
	Engine *engine;
	struct MHD_Daemon *d;
	int port;
	bool fell_back;
	bool trust;                /* auth method trust */
	char *users_file;
	bool users_required;
	char *warehouse;
	char *tls_cert_pem, *tls_key_pem;
	HttpSessions *sessions;
	HttpTokens *tokens;
};

typedef struct HttpReq {
	HttpServer *srv;
	struct MHD_Connection *conn;
	const char *method;
	const char *path;
	const char *body;      /* NUL-terminated copy; body_len bytes */
	size_t body_len;
	const char *user;      /* the authenticated role; NULL: trust without a name */
} HttpReq;

#define HTTP_MAX_RESP_HEADERS 8
typedef struct HttpResp {
	int status;
	const char *content_type;
	HttpBuf body;
	int nheaders;
	char *hname[HTTP_MAX_RESP_HEADERS], *hvalue[HTTP_MAX_RESP_HEADERS];
} HttpResp;

const char *http_header(HttpReq *req, const char *name);
const char *http_arg(HttpReq *req, const char *name);
void http_resp_header(HttpResp *resp, const char *name, const char *value);
int http_sql_status(const char *sqlstate);
void http_sql_error(HttpResp *resp, const floe_error *err);

int http_auth(HttpReq *req, char *user, size_t cap, floe_error *err);
/* user:password right by the users file (always under trust); 28P01 */
int http_check_password(HttpReq *req, const char *user, const char *password, floe_error *err);
int http_token_issue(HttpServer *srv, const char *user, char *out, size_t cap);
HttpTokens *http_tokens_new(void);
void http_tokens_free(HttpTokens *t);

void http_query(HttpReq *req, HttpResp *resp);
void http_sessions(HttpReq *req, HttpResp *resp);
void http_iceberg(HttpReq *req, HttpResp *resp);

/* ---- sessions (http_session.c) ----
 * A session is named (x-floe-session-id, made by POST /v1/sessions, at
 * most max of them, closed after `idle` seconds unused) or one-shot (a
 * request without the header).  hsess_acquire gives it to one request at a
 * time (a second concurrent request on the same id waits); statement
 * timeouts and cancels act on its flag. */
typedef struct HttpSession {
	struct HttpSession *next;
	char id[40];            /* "" for one-shot */
	char *user;             /* NULL: floe's default identity */
	Session *s;
	pthread_mutex_t mu;     /* held by the request using it */
	volatile int cancel;
	int refs;               /* under the table's lock */
	int64_t last_ms;
	int64_t deadline_ms;    /* statement_timeout deadline, 0: none (table lock) */
	bool timed_out;         /* the watchdog fired the deadline */
	bool closed;
} HttpSession;

HttpSessions *hsess_new(Engine *e, int max, int idle_s);
void hsess_free(HttpSessions *t);
int hsess_open(HttpSessions *t, const char *user, bool named, HttpSession **out, floe_error *err);
int hsess_acquire(HttpSessions *t, const char *id, const char *user, HttpSession **out,
		  floe_error *err);
void hsess_release(HttpSessions *t, HttpSession *hs);
int hsess_close(HttpSessions *t, const char *id, const char *user, floe_error *err);
int hsess_cancel(HttpSessions *t, const char *id, const char *user, floe_error *err);
/* Arm / disarm the statement_timeout of the acquired session (us 0: none). */
void hsess_arm(HttpSessions *t, HttpSession *hs, int64_t us);
bool hsess_disarm(HttpSessions *t, HttpSession *hs);

#endif
