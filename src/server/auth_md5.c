/*
 * auth_md5.c — the md5 password method as PostgreSQL implements it
 * (libpq's pg_md5_encrypt, the backend's md5_crypt_verify), and cleartext
 * password verification against stored secrets (plain_crypt_verify).
 *
 * Spec: PostgreSQL 15 "Frontend/Backend Protocol" — AuthenticationMD5Password
 * and PasswordMessage; "Password Authentication" (md5 stores
 * "md5" || md5hex(password || username)).  MD5 and PBKDF2 come from
 * OpenSSL's libcrypto.
 *
 * INTERFACE ROUTINES: see auth_md5.h.
 *
 * Invariants:
 *   1. Comparisons of secrets and proofs are constant time (CRYPTO_memcmp).
 *   2. A cleartext password checked against a SCRAM verifier must
 *      reproduce both StoredKey and ServerKey; a mock verifier (unknown
 *      user) never matches.
 *   3. Intermediate buffers holding password-derived bytes are wiped.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>

#include "server/auth_md5.h"

static void
md5_hex(const void *a, size_t an, const void *b, size_t bn, char out[33])
{
	static const char hex[] = "0123456789abcdef";
	uint8_t d[16];
	unsigned int dl = 16;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int i;

	EVP_DigestInit_ex(ctx, EVP_md5(), NULL);
	EVP_DigestUpdate(ctx, a, an);
	EVP_DigestUpdate(ctx, b, bn);
	EVP_DigestFinal_ex(ctx, d, &dl);
	EVP_MD_CTX_free(ctx);
	for (i = 0; i < 16; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[32] = 0;
	OPENSSL_cleanse(d, sizeof d);
}

void
auth_md5_secret(const char *password, const char *user, char out[AUTH_MD5_LEN + 1])
{
	memcpy(out, "md5", 3);
	md5_hex(password, strlen(password), user, strlen(user), out + 3);
}

bool
auth_md5_is_secret(const char *s)
{
	int i;
	if (strncmp(s, "md5", 3) != 0 || strlen(s) != AUTH_MD5_LEN)
		return false;
	for (i = 3; i < AUTH_MD5_LEN; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

bool
auth_md5_check(const char *secret, const uint8_t salt[4], const char *response)
{
	char want[AUTH_MD5_LEN + 1];
	bool ok;
	if (!secret || !auth_md5_is_secret(secret) || strlen(response) != AUTH_MD5_LEN)
		return false;
	memcpy(want, "md5", 3);
	md5_hex(secret + 3, 32, salt, 4, want + 3);
	ok = CRYPTO_memcmp(want, response, AUTH_MD5_LEN) == 0;
	OPENSSL_cleanse(want, sizeof want);
	return ok;
}

static bool
scram_password_check(const ScramVerifier *v, const char *password)
{
	uint8_t salted[SCRAM_KEY_LEN], ck[SCRAM_KEY_LEN], sk[SCRAM_KEY_LEN], stored[SCRAM_KEY_LEN];
	unsigned int len = SCRAM_KEY_LEN;
	bool ok;

	if (v->mock)
		return false;
	if (PKCS5_PBKDF2_HMAC(password, (int)strlen(password), v->salt, (int)v->salt_len, v->iterations,
			      EVP_sha256(), SCRAM_KEY_LEN, salted) != 1)
		return false;
	HMAC(EVP_sha256(), salted, SCRAM_KEY_LEN, (const uint8_t *)"Client Key", 10, ck, &len);
	SHA256(ck, SCRAM_KEY_LEN, stored);
	len = SCRAM_KEY_LEN;
	HMAC(EVP_sha256(), salted, SCRAM_KEY_LEN, (const uint8_t *)"Server Key", 10, sk, &len);
	ok = CRYPTO_memcmp(stored, v->stored_key, SCRAM_KEY_LEN) == 0 &&
	     CRYPTO_memcmp(sk, v->server_key, SCRAM_KEY_LEN) == 0;
	OPENSSL_cleanse(salted, sizeof salted);
	OPENSSL_cleanse(ck, sizeof ck);
	return ok;
}

bool
auth_password_check(const ScramVerifier *scram, const char *md5, const char *user, const char *password)
{
	if (scram)
		return scram_password_check(scram, password);
	if (md5 && md5[0]) {
		char got[AUTH_MD5_LEN + 1];
		bool ok;
		auth_md5_secret(password, user, got);
		ok = auth_md5_is_secret(md5) && CRYPTO_memcmp(got, md5, AUTH_MD5_LEN) == 0;
		OPENSSL_cleanse(got, sizeof got);
		return ok;
	}
	return false;
}
