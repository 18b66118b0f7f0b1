/*
 * http.h — the HTTP side of `floe serve` (--http-port): the HTTP query API
 * (/v1/query, /v1/sessions) and the Iceberg REST catalog (/iceberg/v1/...),
 * served by libmicrohttpd with a thread per connection, over the same
 * Engine, users file, authentication method and TLS certificate as pgwire
 * (docs/http.md).
 *
 * Ports: cfg->port 0 picks a free port; with port_fallback (the port is
 * the default, the pgwire port + 1) a busy port also falls back to a free
 * one (http_port tells which; floe serve prints it) instead of failing, so
 * two servers started with --port N and --port N+1 both start.  An explicit
 * port that is busy fails (FLOE_ERR, 08006 naming the port).
 *
 * INTERFACE ROUTINES
 *   http_start(&h, engine, cfg, err)   bind and start serving (threads of its own)
 *   http_port(h)                       the port actually bound
 *   http_fell_back(h)                  true: the default port was busy
 *   http_stop(h)                       stop, close every HTTP session, free
 */
#ifndef FLOE_HTTP_H
#define FLOE_HTTP_H

#include <stdbool.h>
#include "common/error.h"
#include "sql/engine.h"

#define HTTP_MAX_SESSIONS 256      /* open x-floe-session-id sessions */
#define HTTP_SESSION_IDLE 300      /* s an idle session lives */

typedef struct HttpConfig {
	const char *host;          /* NULL: 127.0.0.1 */
	int port;                  /* 0: any free port */
	bool port_fallback;        /* busy default port: pick a free one */
	const char *users_file;    /* as ServerConfig (users.h); NULL: none */
	bool users_required;
	const char *auth_method;   /* server_auth_method_name(): "trust", "password", ... */
	const char *tls_cert, *tls_key;   /* PEM files: HTTPS only; NULL: HTTP */
	int max_connections;       /* 0: 500 */
	int max_sessions;          /* 0: HTTP_MAX_SESSIONS */
	int session_idle;          /* s; 0: HTTP_SESSION_IDLE */
	const char *warehouse;     /* the warehouse location (REST config) */
} HttpConfig;

typedef struct HttpServer HttpServer;

int http_start(HttpServer **out, Engine *engine, const HttpConfig *cfg, floe_error *err);
int http_port(const HttpServer *h);
bool http_fell_back(const HttpServer *h);
void http_stop(HttpServer *h);

#endif
