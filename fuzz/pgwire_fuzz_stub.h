/*
 * pgwire_fuzz_stub.h — shared part of fuzz_pgwire_startup.c and
 * fuzz_pgwire_message.c: pgwire.c and pgwire_msg.c compiled into the target
 * (fuzz/fuzz.mk links only the decoder layers, not server/ or sql/), and a
 * stub PgwireBackend standing in for the engine: every statement returns
 * two columns (int4, text) and three rows, one of them NULL; SQL containing
 * "err" fails with 22012 at position 1; Describe reports the same columns
 * for SQL starting with "SELECT"; user "scram" authenticates with
 * SCRAM-SHA-256 (password "pw"), "password" with a cleartext password and
 * "md5" with the md5 method (both "pw"), user "mock" gets the unknown-user
 * mock exchange, everyone else is trusted.  Output is checked, then
 * discarded: stub_write aborts unless it is whole messages whose
 * ErrorResponses and NoticeResponses carry a valid SQLSTATE.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/auth_md5.c"
#include "server/auth_scram.c"
#include "server/pgwire.c"
#include "server/pgwire_msg.c"

static void *
stub_open(void *ctx, const char *user, const char *database, volatile int *flag, floe_error *err)
{
	static int session;
	if (!strcmp(user, "refuse")) {
		floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "role \"%s\" refused", user);
		return NULL;
	}
	return &session;
}

static void
stub_close(void *ctx, void *session)
{
}

static const SqlType *
stub_types(void)
{
	static SqlType t[2];
	t[0] = type_make(TYPE_INT32);
	t[1] = type_make(TYPE_TEXT);
	return t;
}

static int
stub_exec(void *ctx, void *session, const char *sql, int nparams, const char *const *values,
	  const uint32_t *oids, ResultSink *sink, floe_error *err)
{
	static const char *const names[2] = { "a", "b" };
	Arena *a;
	Batch *b;
	int i;

	if (strstr(sql, "err")) {
		floe_errorf(err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
		floe_error_position(err, 1);
		return FLOE_ERR;
	}
	if (!sink)
		return FLOE_OK;
	if (!sql[0]) {
		sink->complete(sink->ctx, "");
		return FLOE_OK;
	}
	a = arena_new(4096);
	sink->columns(sink->ctx, 2, names, stub_types());
	b = batch_new(a, 2, stub_types(), 4);
	for (i = 0; i < 3; i++) {
		((int32_t *)b->cols[0].data)[i] = i;
		if (i == 1)
			vector_set_null(&b->cols[1], (uint32_t)i);
		else
			vector_set_string(&b->cols[1], (uint32_t)i, nparams > 0 && values[0] ? values[0] : "x",
					  (uint32_t)strlen(nparams > 0 && values[0] ? values[0] : "x"));
	}
	b->count = 3;
	sink->batch(sink->ctx, b);
	sink->complete(sink->ctx, "SELECT 3");
	arena_free(a);
	return FLOE_OK;
}

static int
stub_describe(void *ctx, void *session, const char *sql, int nparams, const uint32_t *oids,
	      Arena *a, SqlDescription *out, floe_error *err)
{
	static char *names[2] = { "a", "b" };
	memset(out, 0, sizeof *out);
	out->ncols = -1;
	out->nstmts = sql[0] ? 1 : 0;
	if (strstr(sql, "err"))
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "syntax error");
	if (!strncmp(sql, "SELECT", 6)) {
		out->ncols = 2;
		out->names = names;
		out->types = (SqlType *)stub_types();
	}
	return FLOE_OK;
}

static void
stub_cancel(void *ctx, int32_t pid, int32_t key)
{
}

/* An ErrorResponse / NoticeResponse body: fields (type byte + cstr) up to
 * a 0 byte, with S, M and a C of five [0-9A-Z], not XX000. */
static void
check_error_fields(const uint8_t *b, size_t n)
{
	size_t off = 0;
	bool has_s = false, has_m = false, has_c = false;

	while (off < n && b[off]) {
		uint8_t f = b[off++];
		const uint8_t *v = b + off, *nul = memchr(v, 0, n - off);
		size_t k;
		if (!nul)
			abort();                 /* a field without its NUL */
		if (f == 'C') {
			if (nul - v != 5)
				abort();
			for (k = 0; k < 5; k++)
				if (!((v[k] >= '0' && v[k] <= '9') || (v[k] >= 'A' && v[k] <= 'Z')))
					abort();   /* not a SQLSTATE: garbage reached the client */
			/* XX000 is pgwire's stand-in for an error that was never
			 * filled: neither pgwire nor this stub reports it */
			if (!memcmp(v, "XX000", 5))
				abort();
			has_c = true;
		}
		has_s |= f == 'S';
		has_m |= f == 'M';
		off = (size_t)(nul - b) + 1;
	}
	if (off + 1 != n || !has_s || !has_m || !has_c)
		abort();
}

/* Every write is whole backend messages (pgwire.c invariant 2), but for
 * the single 'N'/'S' byte answering an SSLRequest; every ErrorResponse
 * and NoticeResponse is well formed (invariant 7).  ASan checks every
 * byte is initialised memory it may read. */
static int
stub_write(void *io, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t off = 0;

	if (n == 1 && (b[0] == 'N' || b[0] == 'S'))
		return 0;
	while (off < n) {
		uint32_t len;
		if (n - off < 5)
			abort();
		len = pg_get_u32(b + off + 1);
		if (len < 4 || len > n - off - 1)
			abort();
		if (b[off] == 'E' || b[off] == 'N')
			check_error_fields(b + off + 5, len - 4);
		off += 1 + len;
	}
	return 0;
}

static int
stub_auth(void *ctx, void *io, const char *user, PgAuthInfo *a, floe_error *err)
{
	if (!strcmp(user, "limited")) {
		floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "too many failed login attempts");
		return -1;
	}
	if (!strcmp(user, "scram") || !strcmp(user, "password"))
		a->has_scram = scram_verifier_parse("SCRAM-SHA-256$4096:MDEyMzQ1Njc4OWFiY2RlZg==$"
						    "5ZYEbgx2oIM3fZnh8TduMjqml9cWqbXQbEZWmn915Ik=:"
						    "6sv9J26dRZ6UzzzrfUNYjbMnEf5W9S+QtAvKkuddjcI=", &a->scram) == FLOE_OK;
	if (!strcmp(user, "scram")) {
		if (a->has_scram)
			return PGAUTH_SCRAM;
		floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "bad stub verifier");
		return -1;
	}
	if (!strcmp(user, "password"))
		return PGAUTH_PASSWORD;
	if (!strcmp(user, "md5")) {
		auth_md5_secret("pw", user, a->md5);
		return PGAUTH_MD5;
	}
	if (!strcmp(user, "mock")) {
		scram_mock_verifier(user, &a->scram);
		return PGAUTH_SCRAM;
	}
	return PGAUTH_TRUST;
}

static const PgwireBackend stub_backend = {
	.session_open = stub_open,
	.session_close = stub_close,
	.exec = stub_exec,
	.describe = stub_describe,
	.cancel = stub_cancel,
	.write = stub_write,
	.auth = stub_auth,
};
