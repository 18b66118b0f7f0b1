/*
 * server.h — `floe serve`: a TCP listener on a loopback address speaking the
 * PostgreSQL protocol (pgwire.c), one thread per connection, every
 * connection with its own Session over one shared Engine; password
 * authentication (users.h) and TLS (OpenSSL) when configured.
 *
 * INTERFACE ROUTINES
 *   server_listen(&srv, engine, cfg, err)
 *                        bind + listen (port 0: any free port), load the users
 *                        and the TLS certificate
 *   server_port(srv)                                the port actually bound
 *   server_auth_method_name(srv)                    "trust", "scram-sha-256", ...
 *   server_run(srv, stop)                           accept until *stop != 0
 *   server_free(srv)                                close every connection, join
 */
#ifndef FLOE_SERVER_H
#define FLOE_SERVER_H

#include <signal.h>
#include <stdbool.h>
#include "common/error.h"
#include "sql/engine.h"

#define SERVER_MAX_CONNECTIONS 500

typedef struct ServerConfig {
	const char *host;          /* NULL: 127.0.0.1 */
	int port;
	/* users and their secrets (users.h format), re-read at every login */
	const char *users_file;    /* NULL: none */
	bool users_required;       /* the file must exist and name a user (--auth-file) */
	/* "trust", "password", "md5", "scram-sha-256"; NULL: scram-sha-256
	 * when the users file names a user, else trust */
	const char *auth_method;
	const char *tls_cert, *tls_key;   /* PEM files; NULL: no TLS ('N') */
	bool tls_required;         /* logins without TLS are refused (28000) */
	int auth_timeout;          /* seconds to finish startup + login; 0: 60 */
	int idle_timeout;          /* seconds: default idle_session_timeout; 0: none */
	int max_connections;       /* 0: SERVER_MAX_CONNECTIONS */
} ServerConfig;

typedef struct Server Server;

int server_listen(Server **out, Engine *engine, const ServerConfig *cfg, floe_error *err);
int server_port(const Server *srv);
const char *server_auth_method_name(const Server *srv);
int server_run(Server *srv, volatile sig_atomic_t *stop);
void server_free(Server *srv);

#endif
