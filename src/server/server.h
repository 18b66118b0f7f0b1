/*
 * server.h — `floe serve`: a TCP listener on a loopback address speaking the
 * PostgreSQL protocol (pgwire.c), one thread per connection, every
 * connection with its own Session over one shared Engine.
 *
 * INTERFACE ROUTINES
 *   server_listen(&srv, engine, host, port, auth_file, err)
 *                        bind + listen (port 0: any free port).  auth_file
 *                        NULL: trust, loopback only; else its users log in
 *                        with SCRAM-SHA-256 (lines "user:SCRAM-SHA-256$...")
 *   server_set_auth_timeout(srv, seconds)           startup + login deadline (60 s)
 *   server_port(srv)                                the port actually bound
 *   server_run(srv, stop)                           accept until *stop != 0
 *   server_free(srv)                                close every connection, join
 */
#ifndef FLOE_SERVER_H
#define FLOE_SERVER_H

#include <signal.h>
#include "common/error.h"
#include "sql/engine.h"

typedef struct Server Server;

int server_listen(Server **out, Engine *engine, const char *host, int port, const char *auth_file,
		  floe_error *err);
void server_set_auth_timeout(Server *srv, int seconds);
int server_port(const Server *srv);
int server_run(Server *srv, volatile sig_atomic_t *stop);
void server_free(Server *srv);

#endif
