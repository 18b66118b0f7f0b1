/*
 * auth_scram.c — SCRAM-SHA-256 server side (RFC 5802, RFC 7677) in
 * PostgreSQL's dialect: gs2 headers "n,," / "y,," and, for
 * SCRAM-SHA-256-PLUS over TLS, "p=tls-server-end-point,," (RFC 5929: the
 * channel binding data is the hash of the server's certificate), the
 * user name comes from the startup packet (the SCRAM "n=" attribute is
 * ignored, as PostgreSQL ignores it), verifiers in pg_authid's format.
 * Hashes and PBKDF2 come from OpenSSL's libcrypto.
 *
 * Spec: RFC 5802 §3 (algorithm), §5 (message syntax), §7 (formal syntax);
 * RFC 7677 (SHA-256); PostgreSQL's "SASL Authentication" protocol section.
 *
 * INTERFACE ROUTINES: see auth_scram.h.
 *
 * Invariants:
 *   1. Every client message is bounded (SCRAM_MSG_MAX) and parsed
 *      attribute by attribute; anything unexpected is 08P01, a wrong proof
 *      28P01.
 *   2. The proof is checked in constant time (CRYPTO_memcmp).
 *   3. An unknown user gets a deterministic mock verifier, so the exchange
 *      looks the same whether or not the user exists; it always fails.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/auth_scram.h"

#define NONCE_RAW 18

/* base64 of n bytes into out (NUL-terminated); out must hold 4*ceil(n/3)+1 */
static void
b64_encode(const uint8_t *p, size_t n, char *out)
{
	EVP_EncodeBlock((unsigned char *)out, p, (int)n);
}

/* base64 text (exact length len) to bytes; -1 if malformed or > max */
static int
b64_decode(const char *s, size_t len, uint8_t *out, size_t max)
{
	uint8_t tmp[SCRAM_MSG_MAX];
	int n, pad = 0;
	size_t i;

	if (len == 0 || len % 4 != 0 || len / 4 * 3 > sizeof tmp)
		return -1;
	for (i = 0; i < len; i++) {
		char ch = s[i];
		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		      ch == '+' || ch == '/' || (ch == '=' && i >= len - 2)))
			return -1;
	}
	if (s[len - 1] == '=')
		pad++;
	if (s[len - 2] == '=')
		pad++;
	n = EVP_DecodeBlock(tmp, (const unsigned char *)s, (int)len);
	if (n < 0)
		return -1;
	n -= pad;
	if (n < 0 || (size_t)n > max)
		return -1;
	memcpy(out, tmp, (size_t)n);
	return n;
}

static void
hmac(const uint8_t *key, size_t klen, const void *msg, size_t n, uint8_t out[SCRAM_KEY_LEN])
{
	unsigned int len = SCRAM_KEY_LEN;
	HMAC(EVP_sha256(), key, (int)klen, msg, n, out, &len);
}

int
scram_verifier_parse(const char *s, ScramVerifier *out)
{
	const char *p, *colon, *dollar, *colon2;
	char *end;
	long it;
	int n;

	memset(out, 0, sizeof *out);
	if (strncmp(s, "SCRAM-SHA-256$", 14) != 0)
		return FLOE_ERR;
	p = s + 14;
	it = strtol(p, &end, 10);
	if (end == p || *end != ':' || it < 1 || it > 10000000)
		return FLOE_ERR;
	out->iterations = (int)it;
	colon = end;
	dollar = strchr(colon + 1, '$');
	if (!dollar)
		return FLOE_ERR;
	n = b64_decode(colon + 1, (size_t)(dollar - colon - 1), out->salt, SCRAM_SALT_MAX);
	if (n <= 0)
		return FLOE_ERR;
	out->salt_len = (size_t)n;
	colon2 = strchr(dollar + 1, ':');
	if (!colon2)
		return FLOE_ERR;
	if (b64_decode(dollar + 1, (size_t)(colon2 - dollar - 1), out->stored_key, SCRAM_KEY_LEN) != SCRAM_KEY_LEN)
		return FLOE_ERR;
	if (b64_decode(colon2 + 1, strlen(colon2 + 1), out->server_key, SCRAM_KEY_LEN) != SCRAM_KEY_LEN)
		return FLOE_ERR;
	return FLOE_OK;
}

int
scram_verifier_make(const char *password, int iterations, char *buf, size_t n)
{
	uint8_t salt[16], salted[SCRAM_KEY_LEN], ck[SCRAM_KEY_LEN], sk[SCRAM_KEY_LEN], stored[SCRAM_KEY_LEN];
	char s64[32], st64[64], sk64[64];

	if (RAND_bytes(salt, sizeof salt) != 1)
		return FLOE_ERR;
	if (PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, sizeof salt, iterations,
			      EVP_sha256(), SCRAM_KEY_LEN, salted) != 1)
		return FLOE_ERR;
	hmac(salted, SCRAM_KEY_LEN, "Client Key", 10, ck);
	SHA256(ck, SCRAM_KEY_LEN, stored);
	hmac(salted, SCRAM_KEY_LEN, "Server Key", 10, sk);
	b64_encode(salt, sizeof salt, s64);
	b64_encode(stored, SCRAM_KEY_LEN, st64);
	b64_encode(sk, SCRAM_KEY_LEN, sk64);
	if ((size_t)snprintf(buf, n, "SCRAM-SHA-256$%d:%s$%s:%s", iterations, s64, st64, sk64) >= n)
		return FLOE_ERR;
	return FLOE_OK;
}

/* The process's secret for mock salts: made once (connection threads call
 * scram_mock_verifier concurrently). */
static uint8_t mock_secret[32];
static pthread_once_t mock_once = PTHREAD_ONCE_INIT;

static void
mock_init(void)
{
	if (RAND_bytes(mock_secret, sizeof mock_secret) != 1)
		memset(mock_secret, 0x5a, sizeof mock_secret);
}

void
scram_mock_verifier(const char *user, ScramVerifier *out)
{
	uint8_t *secret = mock_secret;
	const size_t secret_len = sizeof mock_secret;
	uint8_t h[SCRAM_KEY_LEN];

	pthread_once(&mock_once, mock_init);
	memset(out, 0, sizeof *out);
	out->iterations = 4096;
	hmac(secret, secret_len, user, strlen(user), h);
	memcpy(out->salt, h, 16);
	out->salt_len = 16;
	out->mock = true;
}

/* Attribute `name` ("r", "c", "p", ...) at *p, up to the next ',' or the end. */
static const char *
attr(const char **p, const char *end, char name, size_t *len)
{
	const char *s = *p, *comma;
	if (end - s < 2 || s[0] != name || s[1] != '=')
		return NULL;
	s += 2;
	comma = memchr(s, ',', (size_t)(end - s));
	*len = (size_t)((comma ? comma : end) - s);
	*p = comma ? comma + 1 : end;
	return s;
}

static int
bad(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION, "malformed SCRAM message (%s)", what);
}

int
scram_server_first(ScramState *st, const ScramVerifier *v, const uint8_t *msg, size_t n,
		   char *out, size_t outn, floe_error *err)
{
	return scram_server_first_cb(st, v, false, NULL, 0, msg, n, out, outn, err);
}

static int
negotiation(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION, "SCRAM channel binding negotiation error (%s)", what);
}

int
scram_server_first_cb(ScramState *st, const ScramVerifier *v, bool plus, const uint8_t *cbind,
		      size_t cbind_len, const uint8_t *msg, size_t n, char *out, size_t outn,
		      floe_error *err)
{
	const char *p = (const char *)msg, *end = p + n, *bare, *r;
	uint8_t raw[NONCE_RAW];
	char snonce[32], salt64[SCRAM_SALT_MAX * 2];
	size_t len;

	ScramVerifier vv = *v;     /* v may point into st */

	memset(st, 0, sizeof *st);
	st->v = vv;
	v = &st->v;
	if (n >= SCRAM_MSG_MAX || memchr(msg, 0, n))
		return bad(err, "client-first too long");
	if (cbind_len > SCRAM_CBIND_MAX)
		return bad(err, "channel binding data too long");
	/* gs2-header: "n,," (no binding), "y,," (the client could bind but
	 * thinks the server cannot), "p=tls-server-end-point,," (binding) */
	if (n >= 2 && p[0] == 'p' && p[1] == '=') {
		static const char tse[] = "p=tls-server-end-point,";
		if (n < sizeof tse - 1 || memcmp(p, tse, sizeof tse - 1) != 0)
			return bad(err, "unsupported channel binding type");
		if (!plus || !cbind_len)
			return negotiation(err, "binding requested without SCRAM-SHA-256-PLUS");
		p += sizeof tse - 2;
		st->plus = true;
		memcpy(st->cbind, cbind, cbind_len);
		st->cbind_len = cbind_len;
	} else {
		if (n < 3 || (p[0] != 'n' && p[0] != 'y') || p[1] != ',')
			return bad(err, "gs2 header");
		if (plus)
			return negotiation(err, "SCRAM-SHA-256-PLUS without binding");
		if (p[0] == 'y' && cbind_len)
			return negotiation(err, "the client thinks the server cannot bind, but it can");
		p += 1;
	}
	/* p is at the ',' that ends the cbind-flag */
	p++;
	if (p < end && *p == 'a') {        /* authzid: skip */
		const char *c = memchr(p, ',', (size_t)(end - p));
		if (!c)
			return bad(err, "authzid");
		p = c;
	}
	if (p >= end || *p != ',')
		return bad(err, "gs2 header");
	p++;
	if ((size_t)(p - (const char *)msg) >= sizeof st->gs2)
		return bad(err, "gs2 header too long");
	memcpy(st->gs2, msg, (size_t)(p - (const char *)msg));
	bare = p;
	if (!attr(&p, end, 'n', &len))
		return bad(err, "username");
	if (!(r = attr(&p, end, 'r', &len)) || len == 0 || len > 256)
		return bad(err, "nonce");
	{
		size_t i;
		for (i = 0; i < len; i++)
			if (r[i] < 0x21 || r[i] > 0x7e || r[i] == ',')
				return bad(err, "nonce characters");
	}
	memcpy(st->client_first_bare, bare, (size_t)(end - bare));
	if (RAND_bytes(raw, sizeof raw) != 1)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "could not generate a nonce");
	b64_encode(raw, sizeof raw, snonce);
	snprintf(st->nonce, sizeof st->nonce, "%.*s%s", (int)len, r, snonce);
	b64_encode(v->salt, v->salt_len, salt64);
	if ((size_t)snprintf(st->server_first, sizeof st->server_first, "r=%s,s=%s,i=%d", st->nonce, salt64,
			     v->iterations) >= sizeof st->server_first)
		return bad(err, "too long");
	if ((size_t)snprintf(out, outn, "%s", st->server_first) >= outn)
		return bad(err, "too long");
	return FLOE_OK;
}

int
scram_server_final(ScramState *st, const uint8_t *msg, size_t n, char *out, size_t outn,
		   floe_error *err)
{
	const char *p = (const char *)msg, *end = p + n, *c, *r, *proof, *without_end;
	size_t clen, rlen, plen, i;
	uint8_t cb[sizeof st->gs2 + SCRAM_CBIND_MAX + 8], want[sizeof st->gs2 + SCRAM_CBIND_MAX], pr[SCRAM_KEY_LEN], sig[SCRAM_KEY_LEN], ck[SCRAM_KEY_LEN], h[SCRAM_KEY_LEN];
	char authmsg[3 * SCRAM_MSG_MAX + 4], sig64[64];
	int cbn, an;
	size_t gl = strlen(st->gs2), wl;

	if (n >= SCRAM_MSG_MAX || memchr(msg, 0, n))
		return bad(err, "client-final too long");
	if (!(c = attr(&p, end, 'c', &clen)))
		return bad(err, "channel binding attribute");
	/* c= is base64(gs2 header || channel binding data) */
	memcpy(want, st->gs2, gl);
	if (st->plus)
		memcpy(want + gl, st->cbind, st->cbind_len);
	wl = gl + (st->plus ? st->cbind_len : 0);
	cbn = b64_decode(c, clen, cb, sizeof cb);
	if (cbn < 0 || (size_t)cbn != wl || CRYPTO_memcmp(cb, want, wl) != 0)
		return floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION,
				   st->plus ? "SCRAM channel binding check failed" : "unexpected SCRAM channel-binding attribute in client-final-message");
	if (!(r = attr(&p, end, 'r', &rlen)) || rlen != strlen(st->nonce) || memcmp(r, st->nonce, rlen) != 0)
		return bad(err, "nonce mismatch");
	/* extensions until p= */
	while (p < end && !(p[0] == 'p' && end - p > 1 && p[1] == '=')) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		if (!comma)
			return bad(err, "proof");
		p = comma + 1;
	}
	without_end = p - 1;
	if (!(proof = attr(&p, end, 'p', &plen)) || p != end)
		return bad(err, "proof");
	if (b64_decode(proof, plen, pr, sizeof pr) != SCRAM_KEY_LEN)
		return bad(err, "proof length");
	an = snprintf(authmsg, sizeof authmsg, "%s,%s,%.*s", st->client_first_bare, st->server_first,
		      (int)(without_end - (const char *)msg), (const char *)msg);
	if (an < 0 || (size_t)an >= sizeof authmsg)
		return bad(err, "too long");
	/* ClientKey = proof XOR HMAC(StoredKey, AuthMessage); H(ClientKey) == StoredKey */
	hmac(st->v.stored_key, SCRAM_KEY_LEN, authmsg, (size_t)an, sig);
	for (i = 0; i < SCRAM_KEY_LEN; i++)
		ck[i] = pr[i] ^ sig[i];
	SHA256(ck, SCRAM_KEY_LEN, h);
	if (st->v.mock || CRYPTO_memcmp(h, st->v.stored_key, SCRAM_KEY_LEN) != 0)
		return floe_errorf(err, ERRCODE_INVALID_PASSWORD, "password authentication failed");
	hmac(st->v.server_key, SCRAM_KEY_LEN, authmsg, (size_t)an, sig);
	b64_encode(sig, SCRAM_KEY_LEN, sig64);
	if ((size_t)snprintf(out, outn, "v=%s", sig64) >= outn)
		return bad(err, "too long");
	return FLOE_OK;
}
