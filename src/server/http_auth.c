/*
 * http_auth.c — who an HTTP request acts as: HTTP Basic checked against
 * the pgwire users file (users.h: the same SCRAM verifiers and md5
 * secrets, re-read at every request so `floe user add/remove` act at
 * once), or an OAuth2 bearer token issued by the REST catalog's
 * /iceberg/v1/oauth/tokens (client_credentials: client_id is the user,
 * client_secret the password), or nobody under the trust method.
 *
 *   trust            Basic's user name is taken as is (no password check,
 *                    as pgwire's trust); no Authorization: floe's default
 *                    identity
 *   password/md5/scram-sha-256
 *                    Basic or Bearer required; else 401 (28000) with
 *                    WWW-Authenticate: Basic; a wrong password 28P01; an
 *                    unknown user does the same work against a mock
 *                    verifier and fails the same way
 * After HTTP_FAIL_MAX failures from one address within HTTP_FAIL_WINDOW
 * seconds, that address is refused (28000) until the window ends, as
 * pgwire does (server.c invariant 4).  Passwords are never logged.
 *
 * Tokens: 32 random bytes in hex, kept in memory (a restart forgets
 * them) for HTTP_TOKEN_TTL seconds, at most HTTP_MAX_TOKENS (the oldest
 * goes first).
 *
 * INTERFACE ROUTINES: http_auth, http_check_password, http_token_issue,
 * http_tokens_new/free
 * (http_internal.h).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "common/arena.h"
#include "server/auth_md5.h"
#include "server/auth_scram.h"
#include "server/authfail.h"
#include "server/http_internal.h"
#include "server/users.h"

#define HTTP_FAIL_MAX 10
#define HTTP_FAIL_WINDOW 60

typedef struct Token {
	char token[65];
	char *user;
	time_t expires;
} Token;

struct HttpTokens {
	pthread_mutex_t mu;
	Token t[HTTP_MAX_TOKENS];
	AuthFails *fails;             /* failed logins per address */
};

HttpTokens *
http_tokens_new(void)
{
	HttpTokens *t = xcalloc(1, sizeof *t);
	pthread_mutex_init(&t->mu, NULL);
	t->fails = authfail_new(HTTP_FAIL_MAX, HTTP_FAIL_WINDOW);
	return t;
}

void
http_tokens_free(HttpTokens *t)
{
	int i;
	if (!t)
		return;
	for (i = 0; i < HTTP_MAX_TOKENS; i++)
		free(t->t[i].user);
	authfail_free(t->fails);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

int
http_token_issue(HttpServer *srv, const char *user, char *out, size_t cap)
{
	HttpTokens *t = srv->tokens;
	unsigned char rnd[32];
	time_t now = time(NULL);
	Token *victim = NULL;
	int i;
	if (cap < 65 || getrandom(rnd, sizeof rnd, 0) != sizeof rnd)
		return FLOE_ERR;
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", rnd[i]);
	pthread_mutex_lock(&t->mu);
	for (i = 0; i < HTTP_MAX_TOKENS; i++) {
		Token *k = &t->t[i];
		if (!k->token[0] || k->expires <= now) {
			victim = k;
			break;
		}
		if (!victim || k->expires < victim->expires)
			victim = k;
	}
	free(victim->user);
	memcpy(victim->token, out, 65);
	victim->user = xstrdup(user ? user : "");
	victim->expires = now + HTTP_TOKEN_TTL;
	pthread_mutex_unlock(&t->mu);
	return FLOE_OK;
}

/* The user of a live token into user; false if none. */
static bool
token_user(HttpTokens *t, const char *tok, char *user, size_t cap)
{
	time_t now = time(NULL);
	bool found = false;
	int i;
	if (strlen(tok) != 64)
		return false;
	pthread_mutex_lock(&t->mu);
	for (i = 0; i < HTTP_MAX_TOKENS; i++)
		if (t->t[i].token[0] && t->t[i].expires > now && !strcmp(t->t[i].token, tok)) {
			snprintf(user, cap, "%s", t->t[i].user);
			found = true;
			break;
		}
	pthread_mutex_unlock(&t->mu);
	return found;
}

static void
client_addr(HttpReq *req, char *buf, size_t cap)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(req->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	snprintf(buf, cap, "?");
	if (ci && ci->client_addr) {
		const struct sockaddr *sa = ci->client_addr;
		if (sa->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buf, (socklen_t)cap);
		else if (sa->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buf, (socklen_t)cap);
	}
}

static int
failed(HttpTokens *t, const char *addr, const char *user, floe_error *err)
{
	fprintf(stderr, "floe serve: HTTP password authentication failed for user \"%s\" from %s\n",
		user, addr);
	authfail_note(t->fails, addr);
	return floe_errorf(err, "28P01" /* invalid_password */,
			   "password authentication failed for user \"%s\"", user);
}

/* Is user:password right by the users file? */
static bool
password_ok(HttpServer *srv, const char *user, const char *password, floe_error *err, bool *io_error)
{
	Users users;
	const UserEntry *e;
	ScramVerifier mock;
	bool ok;
	*io_error = false;
	memset(&users, 0, sizeof users);
	if (srv->users_file && users_load(srv->users_file, !srv->users_required, &users, err) != FLOE_OK) {
		fprintf(stderr, "floe serve: %s\n", err->message);
		*io_error = true;
		return false;
	}
	e = users_find(&users, user);
	if (e) {
		ok = auth_password_check(e->scram_text ? &e->scram : NULL, e->md5[0] ? e->md5 : NULL,
					 user, password);
	} else {
		scram_mock_verifier(user, &mock);     /* the same work, then no */
		(void)auth_password_check(&mock, NULL, user, password);
		ok = false;
	}
	users_free(&users);
	return ok;
}

int
http_check_password(HttpReq *req, const char *user, const char *password, floe_error *err)
{
	HttpServer *srv = req->srv;
	char addr[64];
	bool io_error;
	if (srv->trust)
		return FLOE_OK;
	client_addr(req, addr, sizeof addr);
	if (authfail_limited(srv->tokens->fails, addr))
		return floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
				   "too many failed login attempts from %s", addr);
	if (!password_ok(srv, user, password, err, &io_error))
		return io_error ? floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
					      "could not read the users file")
				: failed(srv->tokens, addr, user, err);
	return FLOE_OK;
}

int
http_auth(HttpReq *req, char *user, size_t cap, floe_error *err)
{
	HttpServer *srv = req->srv;
	const char *authz = http_header(req, MHD_HTTP_HEADER_AUTHORIZATION);

	user[0] = 0;
	req->user = NULL;
	if (authz && !strncasecmp(authz, "Bearer ", 7)) {
		const char *tok = authz + 7;
		while (*tok == ' ')
			tok++;
		if (!token_user(srv->tokens, tok, user, cap))
			return floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
					   "invalid or expired bearer token");
		req->user = user[0] ? user : NULL;
		return FLOE_OK;
	}
	if (authz && strncasecmp(authz, "Basic ", 6) != 0)
		return floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
				   "unsupported Authorization scheme (use Basic or Bearer)");
	if (!authz) {
		if (srv->trust)
			return FLOE_OK;
		return floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
				   "authentication required (HTTP Basic with a floe user, or a bearer token)");
	}
	{
		char *pass = NULL;
		char *name = MHD_basic_auth_get_username_password(req->conn, &pass);
		int rc;
		if (!name || !*name || strlen(name) >= cap) {
			MHD_free(name);
			MHD_free(pass);
			return floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
					   "malformed Basic credentials");
		}
		snprintf(user, cap, "%s", name);
		rc = http_check_password(req, user, pass ? pass : "", err);
		if (pass)
			memset(pass, 0, strlen(pass));
		MHD_free(name);
		MHD_free(pass);
		if (rc != FLOE_OK)
			return rc;
	}
	req->user = user;
	return FLOE_OK;
}
