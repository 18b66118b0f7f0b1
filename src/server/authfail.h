/*
 * authfail.h — failed logins counted per client address, for pgwire
 * (server.c) and the HTTP API (http_auth.c): after `max` failures within
 * `window` seconds an address is refused until the window ends.
 *
 * A fixed table of slots (no allocation per client): a new address takes
 * a free slot or the one whose window began first.  Thread-safe (its own
 * mutex).
 *
 * INTERFACE ROUTINES
 *   authfail_new(max, window) / authfail_free(f)
 *   authfail_limited(f, addr)   true: addr is refused now
 *   authfail_note(f, addr)      one more failure of addr
 */
#ifndef FLOE_AUTHFAIL_H
#define FLOE_AUTHFAIL_H

#include <stdbool.h>

typedef struct AuthFails AuthFails;

AuthFails *authfail_new(int max, int window);
void authfail_free(AuthFails *f);
bool authfail_limited(AuthFails *f, const char *addr);
void authfail_note(AuthFails *f, const char *addr);

#endif
