/*
 * auth_scram.h — SCRAM-SHA-256 password authentication, server side, as
 * PostgreSQL does it (RFC 5802 / RFC 7677), with SCRAM-SHA-256-PLUS
 * channel binding (tls-server-end-point, RFC 5929) over TLS.
 *
 * A verifier is PostgreSQL's stored form (pg_authid.rolpassword):
 *   SCRAM-SHA-256$<iterations>:<salt base64>$<StoredKey base64>:<ServerKey base64>
 * so the server never holds the password itself.
 *
 * The exchange (the bytes are the SASL payloads of the protocol messages):
 *   client-first  "n,,n=<user>,r=<client nonce>"
 *   server-first  "r=<client nonce><server nonce>,s=<salt>,i=<iterations>"
 *   client-final  "c=biws,r=<nonce>,p=<ClientProof base64>"
 *   server-final  "v=<ServerSignature base64>"
 *
 * INTERFACE ROUTINES
 *   scram_verifier_parse(s, &v)                 FLOE_OK, or FLOE_ERR if malformed
 *   scram_verifier_make(password, iterations, buf, n)   a new verifier, random salt
 *   scram_mock_verifier(user, &v)               a plausible verifier for an unknown user
 *   scram_server_first(st, v, msg, n, out, outn, err)     no channel binding
 *   scram_server_first_cb(st, v, plus, cbind, cbind_len, msg, n, out, outn, err)
 *                       plus: the client chose SCRAM-SHA-256-PLUS; cbind: the
 *                       server certificate's hash when TLS offers binding
 *                       (then a client saying "y" is a downgrade: 28000)
 *   scram_server_final(st, msg, n, out, outn, err)      28P01 on a wrong proof
 */
#ifndef FLOE_AUTH_SCRAM_H
#define FLOE_AUTH_SCRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/error.h"

#define SCRAM_KEY_LEN 32
#define SCRAM_SALT_MAX 64
#define SCRAM_MSG_MAX 1024
#define SCRAM_CBIND_MAX 64     /* a certificate hash (SHA-512 at most) */

typedef struct ScramVerifier {
	int iterations;
	uint8_t salt[SCRAM_SALT_MAX];
	size_t salt_len;
	uint8_t stored_key[SCRAM_KEY_LEN];
	uint8_t server_key[SCRAM_KEY_LEN];
	bool mock;              /* unknown user: the exchange runs, then fails */
} ScramVerifier;

typedef struct ScramState {
	ScramVerifier v;
	char client_first_bare[SCRAM_MSG_MAX];
	char server_first[SCRAM_MSG_MAX];
	char nonce[SCRAM_MSG_MAX];     /* client nonce + server nonce */
	char gs2[64];                  /* the client's gs2 header, "n,," ... */
	uint8_t cbind[SCRAM_CBIND_MAX];   /* plus: channel binding data */
	size_t cbind_len;
	bool plus;
} ScramState;

int scram_verifier_parse(const char *s, ScramVerifier *out);
int scram_verifier_make(const char *password, int iterations, char *buf, size_t n);
void scram_mock_verifier(const char *user, ScramVerifier *out);
int scram_server_first(ScramState *st, const ScramVerifier *v, const uint8_t *msg, size_t n,
		       char *out, size_t outn, floe_error *err);
int scram_server_first_cb(ScramState *st, const ScramVerifier *v, bool plus, const uint8_t *cbind,
			  size_t cbind_len, const uint8_t *msg, size_t n, char *out, size_t outn,
			  floe_error *err);
int scram_server_final(ScramState *st, const uint8_t *msg, size_t n, char *out, size_t outn,
		       floe_error *err);

#endif
