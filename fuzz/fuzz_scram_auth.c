/*
 * fuzz_scram_auth.c — fuzz target for the password-authentication parsers
 * of server/auth_scram.c and server/auth_md5.c: stored secrets
 * (scram_verifier_parse, auth_md5_is_secret) and the SCRAM exchange with
 * and without channel binding (scram_server_first_cb, scram_server_final).
 *
 * Input layout: byte 0 = flags (bit 0: the client chose
 * SCRAM-SHA-256-PLUS, bit 1: the server has channel binding data, bit 2:
 * parse the rest as a stored secret only); the rest is split at the first
 * '\n' into the client-first and client-final messages (a SCRAM verifier
 * for password "pw" is used; the nonce check fails for random input, so
 * seeds carry the server nonce placeholder "@@" that is replaced by the
 * real combined nonce to reach the proof check).
 *
 * Property checked: any bytes are accepted or refused with an error, never
 * a crash, overread, leak or unbounded allocation; an exchange that passes
 * must have proved the password.
 *
 * INTERFACE ROUTINES
 *   LLVMFuzzerTestOneInput(data, size)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/auth_md5.c"
#include "server/auth_scram.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char verifier[] = "SCRAM-SHA-256$4096:MDEyMzQ1Njc4OWFiY2RlZg==$"
			       "5ZYEbgx2oIM3fZnh8TduMjqml9cWqbXQbEZWmn915Ik=:"
			       "6sv9J26dRZ6UzzzrfUNYjbMnEf5W9S+QtAvKkuddjcI=";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t cbind[32] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	ScramVerifier v, parsed;
	ScramState st;
	floe_error err;
	char out[SCRAM_MSG_MAX], final[SCRAM_MSG_MAX * 2];
	const uint8_t *nl;
	size_t n1, fl = 0, i;
	uint8_t flags;

	if (size < 1 || size > 4 * SCRAM_MSG_MAX)
		return 0;
	flags = data[0];
	data++;
	size--;
	if (flags & 4) {
		char *s = malloc(size + 1);
		memcpy(s, data, size);
		s[size] = 0;
		(void)scram_verifier_parse(s, &parsed);
		(void)auth_md5_is_secret(s);
		(void)auth_md5_check(s, (const uint8_t *)"salt", "md5");
		free(s);
		return 0;
	}
	if (scram_verifier_parse(verifier, &v) != FLOE_OK)
		abort();
	nl = memchr(data, '\n', size);
	n1 = nl ? (size_t)(nl - data) : size;
	if (scram_server_first_cb(&st, &v, flags & 1, flags & 2 ? cbind : NULL, flags & 2 ? sizeof cbind : 0,
				  data, n1, out, sizeof out, &err) != FLOE_OK || !nl)
		return 0;
	/* client-final with "@@" replaced by the combined nonce */
	for (i = n1 + 1; i < size && fl < sizeof final - SCRAM_MSG_MAX; i++) {
		if (data[i] == '@' && i + 1 < size && data[i + 1] == '@') {
			fl += (size_t)snprintf(final + fl, sizeof final - fl, "%s", st.nonce);
			i++;
		} else {
			final[fl++] = (char)data[i];
		}
	}
	if (scram_server_final(&st, (const uint8_t *)final, fl, out, sizeof out, &err) == FLOE_OK &&
	    strncmp(out, "v=", 2) != 0)
		abort();
	return 0;
}
