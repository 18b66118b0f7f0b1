/*
 * auth_md5.h — PostgreSQL's md5 password method and cleartext password
 * checks against stored secrets.
 *
 * A stored md5 secret is PostgreSQL's pg_authid form: "md5" followed by
 * md5hex(password || user) (35 characters).  The md5 exchange: the server
 * sends AuthenticationMD5Password with a random 4-byte salt; the client
 * answers "md5" || md5hex(md5hex(password || user) || salt).
 *
 * INTERFACE ROUTINES
 *   auth_md5_secret(password, user, out)        the stored form of a password
 *   auth_md5_is_secret(s)                       "md5" + 32 lowercase hex digits?
 *   auth_md5_check(secret, salt, response)      does the client's answer match?
 *   auth_password_check(scram, md5, user, password)
 *                                               a cleartext password against a
 *                                               SCRAM verifier (preferred) or md5
 */
#ifndef FLOE_AUTH_MD5_H
#define FLOE_AUTH_MD5_H

#include <stdbool.h>
#include <stdint.h>
#include "server/auth_scram.h"

#define AUTH_MD5_LEN 35     /* "md5" + 32 hex digits */

void auth_md5_secret(const char *password, const char *user, char out[AUTH_MD5_LEN + 1]);
bool auth_md5_is_secret(const char *s);
bool auth_md5_check(const char *secret, const uint8_t salt[4], const char *response);
bool auth_password_check(const ScramVerifier *scram, const char *md5, const char *user,
			 const char *password);

#endif
