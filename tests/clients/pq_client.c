/*
 * pq_client.c — a libpq client that exercises `floe serve` the way real
 * applications do: prepared statements with text and binary parameters,
 * binary results decoded by the client, parameters of every floe type
 * (int2/4/8, float4/8, numeric, bool, text, bytea, date, time, timestamp,
 * timestamptz, interval, uuid) sent in text and in binary, single-row mode,
 * errors with SQLSTATEs and positions, a CancelRequest during a long query,
 * COPY FROM STDIN (PQputCopyData/PQputCopyEnd; a bad row is 22P02 with
 * PostgreSQL's CONTEXT "COPY t, line 2, column i: "x"" and commits nothing; CopyFail is 57014) and COPY TO STDOUT (PQgetCopyData),
 * and SCRAM-SHA-256 logins with the right and a wrong password (28P01).
 *
 * Usage: pq_client "host=127.0.0.1 port=N user=u dbname=floe" TEST [BAD]
 * TEST is one of: params, binary, errors, singlerow, cancel, copy,
 * password (CONNINFO has the right password: the login used it, and the
 * same CONNINFO with a wrong one fails with "password authentication
 * failed"), scram (CONNINFO logs in, the CONNINFO BAD, a wrong password,
 * fails with 28P01; the SQLSTATE is read from libpq's verbose message).
 * The params, binary and copy tests also pass against PostgreSQL 15.
 * Prints "ok NAME" per check and "not ok NAME: why" on failure; exits 1 if
 * any check failed.  The expected values are PostgreSQL 15's documented
 * binary formats (the *send functions of src/backend/utils/adt) and libpq's behaviour, not
 * floe's own output.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void
check(int cond, const char *name, const char *fmt, ...)
{
	if (cond) {
		printf("ok %s\n", name);
		return;
	}
	va_list ap;
	printf("not ok %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failures++;
}

static PGresult *
must(PGconn *c, PGresult *r, ExecStatusType want, const char *what)
{
	if (PQresultStatus(r) != want) {
		printf("not ok %s: status %s: %s\n", what, PQresStatus(PQresultStatus(r)),
		       PQresultErrorMessage(r));
		failures++;
	}
	(void)c;
	return r;
}

static void
exec_ok(PGconn *c, const char *sql)
{
	PGresult *r = PQexec(c, sql);
	if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
		printf("not ok exec %s: %s\n", sql, PQresultErrorMessage(r));
		failures++;
	}
	PQclear(r);
}

static uint32_t
be32(const char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return ntohl(v);
}

static uint64_t
be64(const char *p)
{
	return ((uint64_t)be32(p) << 32) | be32(p + 4);
}

/* ---- params: text parameters, typed by context or declared ------------- */
static void
test_params(PGconn *c)
{
	PGresult *r;
	const char *vals[8];
	Oid types[8];

	exec_ok(c, "DROP TABLE IF EXISTS p");
	exec_ok(c, "CREATE TABLE p (i int, b bigint, s text, n numeric(10,2), d date, f double precision, ok boolean)");
	r = must(c, PQprepare(c, "ins", "INSERT INTO p VALUES ($1, $2, $3, $4, $5, $6, $7)", 0, NULL),
		 PGRES_COMMAND_OK, "prepare insert");
	PQclear(r);
	r = must(c, PQdescribePrepared(c, "ins"), PGRES_COMMAND_OK, "describe insert");
	check(PQnparams(r) == 7, "describe_nparams", "nparams %d", PQnparams(r));
	check(PQnfields(r) == 0, "describe_insert_nodata", "nfields %d", PQnfields(r));
	PQclear(r);
	vals[0] = "1"; vals[1] = "9000000000"; vals[2] = "it's"; vals[3] = "12.345";
	vals[4] = "2024-02-29"; vals[5] = "0.1"; vals[6] = "true";
	r = must(c, PQexecPrepared(c, "ins", 7, vals, NULL, NULL, 0), PGRES_COMMAND_OK, "insert 1");
	check(!strcmp(PQcmdStatus(r), "INSERT 0 1"), "insert_tag", "tag %s", PQcmdStatus(r));
	PQclear(r);
	vals[0] = "2"; vals[1] = NULL; vals[2] = NULL; vals[3] = NULL; vals[4] = NULL; vals[5] = NULL; vals[6] = NULL;
	PQclear(must(c, PQexecPrepared(c, "ins", 7, vals, NULL, NULL, 0), PGRES_COMMAND_OK, "insert nulls"));

	r = must(c, PQprepare(c, "sel", "SELECT i, b, s, n, d, f, ok FROM p WHERE i = $1", 0, NULL),
		 PGRES_COMMAND_OK, "prepare select");
	PQclear(r);
	r = must(c, PQdescribePrepared(c, "sel"), PGRES_COMMAND_OK, "describe select");
	check(PQnfields(r) == 7 && PQftype(r, 0) == 23 && PQftype(r, 1) == 20 && PQftype(r, 2) == 25 &&
	      PQftype(r, 3) == 1700 && PQftype(r, 4) == 1082 && PQftype(r, 5) == 701 && PQftype(r, 6) == 16,
	      "describe_types", "nfields %d", PQnfields(r));
	check(PQfmod(r, 3) == ((10 << 16) | 2) + 4, "numeric_typmod", "typmod %d", PQfmod(r, 3));
	check(PQfsize(r, 0) == 4 && PQfsize(r, 1) == 8 && PQfsize(r, 2) == -1, "type_sizes", "sizes");
	check(!strcmp(PQfname(r, 2), "s"), "describe_names", "name %s", PQfname(r, 2));
	PQclear(r);
	vals[0] = "1";
	r = must(c, PQexecPrepared(c, "sel", 1, vals, NULL, NULL, 0), PGRES_TUPLES_OK, "select 1");
	if (PQntuples(r) == 1) {
		check(!strcmp(PQgetvalue(r, 0, 1), "9000000000"), "text_int8", "%s", PQgetvalue(r, 0, 1));
		check(!strcmp(PQgetvalue(r, 0, 2), "it's"), "text_quote", "%s", PQgetvalue(r, 0, 2));
		check(!strcmp(PQgetvalue(r, 0, 3), "12.35"), "text_numeric_rounded", "%s", PQgetvalue(r, 0, 3));
		check(!strcmp(PQgetvalue(r, 0, 4), "2024-02-29"), "text_date", "%s", PQgetvalue(r, 0, 4));
		check(!strcmp(PQgetvalue(r, 0, 5), "0.1"), "text_float8", "%s", PQgetvalue(r, 0, 5));
		check(!strcmp(PQgetvalue(r, 0, 6), "t"), "text_bool", "%s", PQgetvalue(r, 0, 6));
	} else {
		check(0, "select_one_row", "%d rows", PQntuples(r));
	}
	PQclear(r);
	vals[0] = "2";
	r = must(c, PQexecPrepared(c, "sel", 1, vals, NULL, NULL, 0), PGRES_TUPLES_OK, "select 2");
	check(PQntuples(r) == 1 && PQgetisnull(r, 0, 1) && PQgetisnull(r, 0, 6), "text_nulls", "rows %d", PQntuples(r));
	PQclear(r);

	/* declared types: int8 parameter, and unknown-typed arithmetic */
	types[0] = 20;
	vals[0] = "41";
	r = must(c, PQexecParams(c, "SELECT $1 + 1 AS x", 1, types, vals, NULL, NULL, 0), PGRES_TUPLES_OK, "declared int8");
	check(PQntuples(r) == 1 && PQftype(r, 0) == 20 && !strcmp(PQgetvalue(r, 0, 0), "42"), "declared_int8",
	      "type %u value %s", PQftype(r, 0), PQntuples(r) ? PQgetvalue(r, 0, 0) : "-");
	PQclear(r);
	vals[0] = "hello";
	r = must(c, PQexecParams(c, "SELECT $1 AS t", 1, NULL, vals, NULL, NULL, 0), PGRES_TUPLES_OK, "unknown text");
	check(PQntuples(r) == 1 && PQftype(r, 0) == 25 && !strcmp(PQgetvalue(r, 0, 0), "hello"), "unknown_param_text",
	      "type %u", PQftype(r, 0));
	PQclear(r);
	vals[0] = "3";
	r = must(c, PQexecParams(c, "SELECT count(*) FROM p WHERE i < $1", 1, NULL, vals, NULL, NULL, 0),
		 PGRES_TUPLES_OK, "param in where");
	check(PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 0), "2"), "param_where", "%s",
	      PQntuples(r) ? PQgetvalue(r, 0, 0) : "-");
	PQclear(r);
	/* wrong number of parameters: libpq sends what we give; server says 08P01 */
	r = PQexecPrepared(c, "sel", 0, NULL, NULL, NULL, 0);
	check(PQresultStatus(r) == PGRES_FATAL_ERROR &&
	      !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE) ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : "", "08P01"),
	      "param_count_mismatch", "%s", PQresultErrorMessage(r));
	PQclear(r);
	/* the connection still works after the error (discard until Sync) */
	r = must(c, PQexec(c, "SELECT 1"), PGRES_TUPLES_OK, "after error");
	PQclear(r);
	/* DEALLOCATE reaches protocol-level statements */
	r = must(c, PQexec(c, "DEALLOCATE sel"), PGRES_COMMAND_OK, "deallocate");
	check(!strcmp(PQcmdStatus(r), "DEALLOCATE"), "deallocate_tag", "%s", PQcmdStatus(r));
	PQclear(r);
	r = PQexecPrepared(c, "sel", 1, vals, NULL, NULL, 0);
	check(PQresultStatus(r) == PGRES_FATAL_ERROR && PQresultErrorField(r, PG_DIAG_SQLSTATE) &&
	      !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE), "26000"), "deallocated_gone", "%s",
	      PQresultErrorMessage(r));
	PQclear(r);
	r = must(c, PQexecParams(c, "DEALLOCATE ALL", 0, NULL, NULL, NULL, NULL, 0), PGRES_COMMAND_OK,
		 "deallocate all (extended)");
	check(!strcmp(PQcmdStatus(r), "DEALLOCATE ALL"), "deallocate_all_tag", "%s", PQcmdStatus(r));
	PQclear(r);
	r = PQexecPrepared(c, "ins", 7, vals, NULL, NULL, 0);
	check(PQresultStatus(r) == PGRES_FATAL_ERROR, "deallocate_all_gone", "%s", PQresStatus(PQresultStatus(r)));
	PQclear(r);
}

/* ---- binary results and parameters ------------------------------------ */
static void
test_binary(PGconn *c)
{
	PGresult *r;
	const char *sql =
		"SELECT true, 7::smallint, -8::int, 9000000000::bigint, 1.5::real, -2.25::double precision, "
		"'héllo'::text, '\\x00ff10'::bytea, '2000-01-02'::date, '2000-01-01 00:00:01.5'::timestamp, "
		"'1999-12-31 23:59:59+00'::timestamptz, '-12345.678'::numeric(12,4), "
		"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '1 mon 2 days 00:00:03'::interval, "
		"'01:02:03'::time, 0.0001::numeric(10,4), NULL::int";
	const char *p;
	uint32_t u;
	float f;
	double d;

	r = must(c, PQexecParams(c, sql, 0, NULL, NULL, NULL, NULL, 1), PGRES_TUPLES_OK, "binary select");
	if (PQntuples(r) != 1 || PQnfields(r) != 17) {
		check(0, "binary_shape", "%d rows %d cols", PQntuples(r), PQnfields(r));
		PQclear(r);
		return;
	}
	check(PQfformat(r, 0) == 1, "binary_format_flag", "%d", PQfformat(r, 0));
	check(PQgetlength(r, 0, 0) == 1 && PQgetvalue(r, 0, 0)[0] == 1, "bin_bool", "len %d", PQgetlength(r, 0, 0));
	p = PQgetvalue(r, 0, 1);
	check(PQgetlength(r, 0, 1) == 2 && (int16_t)((uint8_t)p[0] << 8 | (uint8_t)p[1]) == 7, "bin_int2", "len %d", PQgetlength(r, 0, 1));
	check(PQgetlength(r, 0, 2) == 4 && (int32_t)be32(PQgetvalue(r, 0, 2)) == -8, "bin_int4", "");
	check(PQgetlength(r, 0, 3) == 8 && (int64_t)be64(PQgetvalue(r, 0, 3)) == 9000000000LL, "bin_int8", "");
	u = be32(PQgetvalue(r, 0, 4));
	memcpy(&f, &u, 4);
	check(PQgetlength(r, 0, 4) == 4 && f == 1.5f, "bin_float4", "%g", f);
	{
		uint64_t x = be64(PQgetvalue(r, 0, 5));
		memcpy(&d, &x, 8);
	}
	check(PQgetlength(r, 0, 5) == 8 && d == -2.25, "bin_float8", "%g", d);
	check(PQgetlength(r, 0, 6) == 6 && !memcmp(PQgetvalue(r, 0, 6), "h\xc3\xa9llo", 6), "bin_text", "len %d", PQgetlength(r, 0, 6));
	check(PQgetlength(r, 0, 7) == 3 && !memcmp(PQgetvalue(r, 0, 7), "\x00\xff\x10", 3), "bin_bytea", "len %d", PQgetlength(r, 0, 7));
	check(PQgetlength(r, 0, 8) == 4 && (int32_t)be32(PQgetvalue(r, 0, 8)) == 1, "bin_date", "%d", (int32_t)be32(PQgetvalue(r, 0, 8)));
	check(PQgetlength(r, 0, 9) == 8 && (int64_t)be64(PQgetvalue(r, 0, 9)) == 1500000, "bin_timestamp", "%" PRId64, (int64_t)be64(PQgetvalue(r, 0, 9)));
	check(PQgetlength(r, 0, 10) == 8 && (int64_t)be64(PQgetvalue(r, 0, 10)) == -1000000, "bin_timestamptz", "%" PRId64, (int64_t)be64(PQgetvalue(r, 0, 10)));
	{
		/* numeric_send of -12345.6780 at scale 4: ndigits 3 (1 2345 6780),
		 * weight 1, sign 0x4000, dscale 4 */
		static const unsigned char want[] = { 0, 3, 0, 1, 0x40, 0, 0, 4, 0, 1, 0x09, 0x29, 0x1a, 0x7c };
		check(PQgetlength(r, 0, 11) == (int)sizeof want && !memcmp(PQgetvalue(r, 0, 11), want, sizeof want),
		      "bin_numeric", "len %d", PQgetlength(r, 0, 11));
	}
	check(PQgetlength(r, 0, 12) == 16 && (uint8_t)PQgetvalue(r, 0, 12)[0] == 0xa0 && (uint8_t)PQgetvalue(r, 0, 12)[15] == 0x11,
	      "bin_uuid", "len %d", PQgetlength(r, 0, 12));
	p = PQgetvalue(r, 0, 13);
	check(PQgetlength(r, 0, 13) == 16 && be64(p) == 3000000 && be32(p + 8) == 2 && be32(p + 12) == 1,
	      "bin_interval", "len %d", PQgetlength(r, 0, 13));
	check(PQgetlength(r, 0, 14) == 8 && be64(PQgetvalue(r, 0, 14)) == 3723000000ULL, "bin_time", "");
	{
		/* 0.0001: ndigits 1, weight -1, sign 0, dscale 4, digit 1 */
		static const unsigned char want[] = { 0, 1, 0xff, 0xff, 0, 0, 0, 4, 0, 1 };
		check(PQgetlength(r, 0, 15) == (int)sizeof want && !memcmp(PQgetvalue(r, 0, 15), want, sizeof want),
		      "bin_numeric_small", "len %d", PQgetlength(r, 0, 15));
	}
	check(PQgetisnull(r, 0, 16), "bin_null", "");
	PQclear(r);

	/* binary parameters with declared types, echoed back as text */
	{
		char b_bool = 1, b_i2[2] = { 0x01, 0x02 }, b_i4[4], b_i8[8], b_f8[8], b_date[4], b_ts[8];
		char b_num[] = { 0, 2, 0, 0, 0, 0, 0, 2, 0, 42, 0x13, 0x88 };   /* 42.50 */
		char b_bytea[] = { 'a', 0, 'b' };
		const char *vals[9];
		int lens[9], fmts[9];
		Oid types[9] = { 16, 21, 23, 20, 701, 1082, 1114, 1700, 17 };
		uint32_t x;
		uint64_t y;
		double dv = 0.5;
		int i;

		x = htonl((uint32_t)-5);
		memcpy(b_i4, &x, 4);
		y = (uint64_t)-7000000000LL;
		for (i = 0; i < 8; i++)
			b_i8[i] = (char)(y >> (56 - 8 * i));
		memcpy(&y, &dv, 8);
		for (i = 0; i < 8; i++)
			b_f8[i] = (char)(y >> (56 - 8 * i));
		x = htonl(366);     /* 2001-01-01 */
		memcpy(b_date, &x, 4);
		y = 86400000000ULL + 250000;   /* 2000-01-02 00:00:00.25 */
		for (i = 0; i < 8; i++)
			b_ts[i] = (char)(y >> (56 - 8 * i));
		vals[0] = &b_bool; lens[0] = 1;
		vals[1] = b_i2; lens[1] = 2;
		vals[2] = b_i4; lens[2] = 4;
		vals[3] = b_i8; lens[3] = 8;
		vals[4] = b_f8; lens[4] = 8;
		vals[5] = b_date; lens[5] = 4;
		vals[6] = b_ts; lens[6] = 8;
		vals[7] = b_num; lens[7] = sizeof b_num;
		vals[8] = b_bytea; lens[8] = 3;
		for (i = 0; i < 9; i++)
			fmts[i] = 1;
		r = must(c, PQexecParams(c, "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9", 9, types, vals, lens, fmts, 0),
			 PGRES_TUPLES_OK, "binary params");
		if (PQntuples(r) == 1 && PQnfields(r) == 9) {
			check(!strcmp(PQgetvalue(r, 0, 0), "t"), "binparam_bool", "%s", PQgetvalue(r, 0, 0));
			check(!strcmp(PQgetvalue(r, 0, 1), "258"), "binparam_int2", "%s", PQgetvalue(r, 0, 1));
			check(!strcmp(PQgetvalue(r, 0, 2), "-5"), "binparam_int4", "%s", PQgetvalue(r, 0, 2));
			check(!strcmp(PQgetvalue(r, 0, 3), "-7000000000"), "binparam_int8", "%s", PQgetvalue(r, 0, 3));
			check(!strcmp(PQgetvalue(r, 0, 4), "0.5"), "binparam_float8", "%s", PQgetvalue(r, 0, 4));
			check(!strcmp(PQgetvalue(r, 0, 5), "2001-01-01"), "binparam_date", "%s", PQgetvalue(r, 0, 5));
			check(!strcmp(PQgetvalue(r, 0, 6), "2000-01-02 00:00:00.25"), "binparam_timestamp", "%s", PQgetvalue(r, 0, 6));
			check(!strcmp(PQgetvalue(r, 0, 7), "42.50"), "binparam_numeric", "%s", PQgetvalue(r, 0, 7));
			check(!strcmp(PQgetvalue(r, 0, 8), "\\x610062"), "binparam_bytea", "%s", PQgetvalue(r, 0, 8));
			check(PQftype(r, 0) == 16 && PQftype(r, 2) == 23 && PQftype(r, 7) == 1700, "binparam_types", "");
		} else {
			check(0, "binary_params_shape", "%d rows %d cols", PQntuples(r), PQnfields(r));
		}
		PQclear(r);
		/* too few bytes: 08P01 (int4recv runs out of message); too many: 22P03 */
		lens[2] = 3;
		r = PQexecParams(c, "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9", 9, types, vals, lens, fmts, 0);
		check(PQresultStatus(r) == PGRES_FATAL_ERROR && PQresultErrorField(r, PG_DIAG_SQLSTATE) &&
		      !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE), "08P01"), "binparam_short", "%s",
		      PQresultErrorMessage(r));
		PQclear(r);
		lens[2] = 4;
		lens[3] = 9;
		{
			char b_i8x[9] = { 0 };
			vals[3] = b_i8x;
			r = PQexecParams(c, "SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9", 9, types, vals, lens, fmts, 0);
		}
		check(PQresultStatus(r) == PGRES_FATAL_ERROR && PQresultErrorField(r, PG_DIAG_SQLSTATE) &&
		      !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE), "22P03"), "binparam_long", "%s",
		      PQresultErrorMessage(r));
		PQclear(r);
	}
}

/* ---- errors ---------------------------------------------------------- */
static void
expect_error(PGconn *c, const char *sql, const char *state, const char *pos, const char *name)
{
	PGresult *r = PQexec(c, sql);
	const char *s = PQresultErrorField(r, PG_DIAG_SQLSTATE);
	const char *p = PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION);
	const char *sev = PQresultErrorField(r, PG_DIAG_SEVERITY_NONLOCALIZED);
	check(PQresultStatus(r) == PGRES_FATAL_ERROR && s && !strcmp(s, state) &&
	      (!pos || (p && !strcmp(p, pos))) && sev && !strcmp(sev, "ERROR"),
	      name, "status %s state %s pos %s: %s", PQresStatus(PQresultStatus(r)), s ? s : "-",
	      p ? p : "-", PQresultErrorMessage(r));
	PQclear(r);
}

static void
test_errors(PGconn *c)
{
	PGresult *r;
	const char *vals[1] = { "abc" };

	expect_error(c, "SELECT 1/0", "22012", NULL, "err_div0");
	expect_error(c, "SELECT * FROM nosuch", "42P01", "15", "err_undefined_table_pos");
	expect_error(c, "SELEC 1", "42601", "1", "err_syntax_pos");
	expect_error(c, "SELECT 1; SELECT 1/0; SELECT 3", "22012", NULL, "err_multi_stops");
	r = PQexecParams(c, "SELECT $1::int", 1, NULL, vals, NULL, NULL, 0);
	check(PQresultStatus(r) == PGRES_FATAL_ERROR && PQresultErrorField(r, PG_DIAG_SQLSTATE) &&
	      !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE), "22P02"), "err_param_22P02", "%s",
	      PQresultErrorMessage(r));
	PQclear(r);
	r = PQprepare(c, "two", "SELECT 1; SELECT 2", 0, NULL);
	check(PQresultStatus(r) == PGRES_FATAL_ERROR && PQresultErrorField(r, PG_DIAG_SQLSTATE) &&
	      !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE), "42601"), "err_prepare_multi", "%s",
	      PQresultErrorMessage(r));
	PQclear(r);
	r = PQexecPrepared(c, "nosuch", 0, NULL, NULL, NULL, 0);
	check(PQresultStatus(r) == PGRES_FATAL_ERROR && PQresultErrorField(r, PG_DIAG_SQLSTATE) &&
	      !strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE), "26000"), "err_no_statement", "%s",
	      PQresultErrorMessage(r));
	PQclear(r);
	r = PQexec(c, "");
	check(PQresultStatus(r) == PGRES_EMPTY_QUERY, "empty_query", "%s", PQresStatus(PQresultStatus(r)));
	PQclear(r);
	r = PQexecParams(c, "", 0, NULL, NULL, NULL, NULL, 0);
	check(PQresultStatus(r) == PGRES_EMPTY_QUERY, "empty_query_extended", "%s", PQresStatus(PQresultStatus(r)));
	PQclear(r);
	r = must(c, PQexec(c, "SELECT 'still alive'"), PGRES_TUPLES_OK, "alive after errors");
	PQclear(r);
	check(!strncmp(PQparameterStatus(c, "server_version"), "15.", 3) &&
	      !strcmp(PQparameterStatus(c, "integer_datetimes"), "on") &&
	      !strcmp(PQparameterStatus(c, "server_encoding"), "UTF8") &&
	      !strcmp(PQparameterStatus(c, "standard_conforming_strings"), "on"),
	      "parameter_status", "server_version %s", PQparameterStatus(c, "server_version"));
	check(PQserverVersion(c) / 10000 == 15, "server_version_num", "%d", PQserverVersion(c));
	check(PQbackendPID(c) != 0, "backend_pid", "");
}

/* ---- single-row mode ------------------------------------------------- */
static void
test_singlerow(PGconn *c)
{
	PGresult *r;
	int rows = 0, single = 0;
	long sum = 0;

	if (!PQsendQuery(c, "SELECT * FROM generate_series(1, 5000) AS g(x)") || !PQsetSingleRowMode(c)) {
		check(0, "singlerow_send", "%s", PQerrorMessage(c));
		return;
	}
	while ((r = PQgetResult(c))) {
		if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
			single++;
			rows += PQntuples(r);
			sum += atol(PQgetvalue(r, 0, 0));
		} else if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			check(0, "singlerow_status", "%s", PQresultErrorMessage(r));
		}
		PQclear(r);
	}
	check(single == 5000 && rows == 5000 && sum == 5000L * 5001 / 2, "singlerow", "%d rows sum %ld", rows, sum);
}

/* ---- cancel ---------------------------------------------------------- */
static void
test_cancel(PGconn *c)
{
	PGresult *r;
	PGcancel *cn;
	char errbuf[256];
	const char *state = NULL;

	if (!PQsendQuery(c, "SELECT count(*) FROM generate_series(1, 2000000000)")) {
		check(0, "cancel_send", "%s", PQerrorMessage(c));
		return;
	}
	usleep(500 * 1000);
	cn = PQgetCancel(c);
	check(PQcancel(cn, errbuf, sizeof errbuf) == 1, "cancel_sent", "%s", errbuf);
	PQfreeCancel(cn);
	while ((r = PQgetResult(c))) {
		if (PQresultStatus(r) == PGRES_FATAL_ERROR)
			state = PQresultErrorField(r, PG_DIAG_SQLSTATE) ? strdup(PQresultErrorField(r, PG_DIAG_SQLSTATE)) : NULL;
		PQclear(r);
	}
	check(state && !strcmp(state, "57014"), "cancel_57014", "state %s", state ? state : "none");
	free((void *)state);
	r = must(c, PQexec(c, "SELECT 1"), PGRES_TUPLES_OK, "alive after cancel");
	check(PQntuples(r) == 1, "cancel_then_query", "");
	PQclear(r);
}

/* ---- every type as a parameter, in text and in binary ------------------
 * Each row: type OID, text input, PostgreSQL's text output, and the type's
 * binary (*send) form.  Three round trips per type: text parameter -> text
 * result, binary parameter -> text result, text parameter -> binary result. */
static const struct {
	const char *name;
	Oid oid;
	const char *in, *out;
	const char *bin;
	int binlen;
} types_tab[] = {
	{ "int2", 21, "-300", "-300", "\xfe\xd4", 2 },
	{ "int4", 23, "123456789", "123456789", "\x07\x5b\xcd\x15", 4 },
	{ "int8", 20, "-9000000000", "-9000000000", "\xff\xff\xff\xfd\xe7\x8e\xe6\x00", 8 },
	{ "float4", 700, "1.5", "1.5", "\x3f\xc0\x00\x00", 4 },
	{ "float8", 701, "-2.25", "-2.25", "\xc0\x02\x00\x00\x00\x00\x00\x00", 8 },
	{ "numeric", 1700, "42.50", "42.50", "\x00\x02\x00\x00\x00\x00\x00\x02\x00\x2a\x13\x88", 12 },
	{ "bool", 16, "true", "t", "\x01", 1 },
	{ "text", 25, "h\xc3\xa9llo", "h\xc3\xa9llo", "\x68\xc3\xa9\x6c\x6c\x6f", 6 },
	{ "bytea", 17, "\\x00ff10", "\\x00ff10", "\x00\xff\x10", 3 },
	{ "date", 1082, "2001-01-01", "2001-01-01", "\x00\x00\x01\x6e", 4 },
	{ "time", 1083, "01:02:03.5", "01:02:03.5", "\x00\x00\x00\x00\xdd\xf0\x19\xe0", 8 },
	{ "timestamp", 1114, "2000-01-02 00:00:00.25", "2000-01-02 00:00:00.25",
	  "\x00\x00\x00\x14\x1d\xdb\x30\x90", 8 },
	{ "timestamptz", 1184, "1999-12-31 23:59:59+00", "1999-12-31 23:59:59+00",
	  "\xff\xff\xff\xff\xff\xf0\xbd\xc0", 8 },
	{ "interval", 1186, "1 mon 2 days 00:00:03", "1 mon 2 days 00:00:03",
	  "\x00\x00\x00\x00\x00\x2d\xc6\xc0\x00\x00\x00\x02\x00\x00\x00\x01", 16 },
	{ "uuid", 2950, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
	  "\xa0\xee\xbc\x99\x9c\x0b\x4e\xf8\xbb\x6d\x6b\xb9\xbd\x38\x0a\x11", 16 },
};

static void
test_all_types(PGconn *c)
{
	size_t i;
	char name[64];

	/* timestamptz text output depends on TimeZone */
	PQclear(must(c, PQexec(c, "SET TimeZone = 'UTC'"), PGRES_COMMAND_OK, "set timezone"));
	for (i = 0; i < sizeof types_tab / sizeof types_tab[0]; i++) {
		const char *v = types_tab[i].in;
		Oid t = types_tab[i].oid;
		int len = types_tab[i].binlen, fmt = 1;
		PGresult *r;

		snprintf(name, sizeof name, "type_%s_text_param", types_tab[i].name);
		r = PQexecParams(c, "SELECT $1", 1, &t, &v, NULL, NULL, 0);
		check(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQftype(r, 0) == t &&
		      !strcmp(PQgetvalue(r, 0, 0), types_tab[i].out), name, "%s type %u: %s",
		      PQresStatus(PQresultStatus(r)), PQftype(r, 0),
		      PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : PQresultErrorMessage(r));
		PQclear(r);

		snprintf(name, sizeof name, "type_%s_binary_param", types_tab[i].name);
		v = types_tab[i].bin;
		r = PQexecParams(c, "SELECT $1", 1, &t, &v, &len, &fmt, 0);
		check(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQftype(r, 0) == t &&
		      !strcmp(PQgetvalue(r, 0, 0), types_tab[i].out), name, "%s type %u: %s",
		      PQresStatus(PQresultStatus(r)), PQftype(r, 0),
		      PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : PQresultErrorMessage(r));
		PQclear(r);

		snprintf(name, sizeof name, "type_%s_binary_result", types_tab[i].name);
		v = types_tab[i].in;
		r = PQexecParams(c, "SELECT $1", 1, &t, &v, NULL, NULL, 1);
		check(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && PQfformat(r, 0) == 1 &&
		      PQgetlength(r, 0, 0) == len && !memcmp(PQgetvalue(r, 0, 0), types_tab[i].bin, (size_t)len),
		      name, "%s len %d", PQresStatus(PQresultStatus(r)), PQntuples(r) == 1 ? PQgetlength(r, 0, 0) : -1);
		PQclear(r);
	}
	/* all of them at once through a table (interval has no Iceberg type:
	 * not a column): text in, binary in, both read back */
	{
		enum { N = sizeof types_tab / sizeof types_tab[0] - 1 };
		const char *vals[N];
		int lens[N], fmts[N], ix[N];
		Oid ts[N];
		PGresult *r;
		int k, ok = 1, n = 0;

		for (i = 0; i < N + 1; i++)
			if (strcmp(types_tab[i].name, "interval"))
				ix[n++] = (int)i;
		exec_ok(c, "CREATE TABLE pq_types (k int, c1 smallint, c2 int, c3 bigint, c4 real, c5 double precision, "
			   "c6 numeric(10,2), c7 boolean, c8 text, c9 bytea, c10 date, c11 time, c12 timestamp, "
			   "c13 timestamptz, c15 uuid)");
		for (k = 0; k < 2; k++) {
			char sql[256];
			const char *all[N + 1];
			int alllen[N + 1], allfmt[N + 1];
			Oid allt[N + 1];
			char key[2] = { (char)('1' + k), 0 };
			for (i = 0; i < N; i++) {
				vals[i] = k ? types_tab[ix[i]].bin : types_tab[ix[i]].in;
				lens[i] = types_tab[ix[i]].binlen;
				fmts[i] = k;
				/* text: typed by the target columns; binary: declared */
				ts[i] = k ? types_tab[ix[i]].oid : 0;
			}
			all[0] = key; alllen[0] = 1; allfmt[0] = 0; allt[0] = 0;
			memcpy(all + 1, vals, sizeof vals);
			memcpy(alllen + 1, lens, sizeof lens);
			memcpy(allfmt + 1, fmts, sizeof fmts);
			memcpy(allt + 1, ts, sizeof ts);
			snprintf(sql, sizeof sql, "INSERT INTO pq_types VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
				 "$10, $11, $12, $13, $14, $15)");
			r = PQexecParams(c, sql, N + 1, allt, all, alllen, allfmt, 0);
			check(PQresultStatus(r) == PGRES_COMMAND_OK, k ? "types_insert_binary" : "types_insert_text",
			      "%s", PQresultErrorMessage(r));
			PQclear(r);
		}
		r = must(c, PQexec(c, "SELECT * FROM pq_types ORDER BY k"), PGRES_TUPLES_OK, "types_read");
		if (PQntuples(r) == 2 && PQnfields(r) == N + 1) {
			for (k = 0; k < 2; k++)
				for (i = 0; i < N; i++)
					if (strcmp(PQgetvalue(r, k, (int)i + 1), types_tab[ix[i]].out)) {
						printf("# row %d %s: %s\n", k + 1, types_tab[ix[i]].name,
						       PQgetvalue(r, k, (int)i + 1));
						ok = 0;
					}
		} else {
			ok = 0;
		}
		check(ok, "types_table_text_and_binary_equal", "%d rows", PQntuples(r));
		PQclear(r);
		exec_ok(c, "DROP TABLE pq_types");
	}
}

/* ---- COPY FROM STDIN / TO STDOUT ---------------------------------------- */
static char copy_context[512];   /* the last COPY error's CONTEXT (Where field) */

static int
copy_in(PGconn *c, const char *sql, const char *const *chunks, const char *failmsg, const char **state,
	char *tag, size_t tagsz)
{
	PGresult *r = PQexec(c, sql);
	int ok = PQresultStatus(r) == PGRES_COPY_IN;
	*state = NULL;
	tag[0] = 0;
	if (!ok)
		printf("# %s: %s %s\n", sql, PQresStatus(PQresultStatus(r)), PQresultErrorMessage(r));
	PQclear(r);
	if (!ok)
		return 0;
	for (; *chunks; chunks++)
		if (PQputCopyData(c, *chunks, (int)strlen(*chunks)) != 1)
			break;
	if (PQputCopyEnd(c, failmsg) != 1)
		return 0;
	while ((r = PQgetResult(c))) {
		if (PQresultStatus(r) == PGRES_FATAL_ERROR && PQresultErrorField(r, PG_DIAG_SQLSTATE)) {
			*state = strdup(PQresultErrorField(r, PG_DIAG_SQLSTATE));
			snprintf(copy_context, sizeof copy_context, "%s",
				 PQresultErrorField(r, PG_DIAG_CONTEXT) ? PQresultErrorField(r, PG_DIAG_CONTEXT) : "");
		}
		else if (PQresultStatus(r) == PGRES_COMMAND_OK)
			snprintf(tag, tagsz, "%s", PQcmdStatus(r));
		PQclear(r);
	}
	return 1;
}

static char *
copy_out(PGconn *c, const char *sql, int *ok)
{
	PGresult *r = PQexec(c, sql);
	size_t n = 0, cap = 256;
	char *all = malloc(cap), *buf;
	int len;

	*ok = PQresultStatus(r) == PGRES_COPY_OUT && PQnfields(r) >= 1 && PQbinaryTuples(r) == 0;
	if (PQresultStatus(r) != PGRES_COPY_OUT) {
		printf("# %s: %s %s\n", sql, PQresStatus(PQresultStatus(r)), PQresultErrorMessage(r));
		PQclear(r);
		all[0] = 0;
		return all;
	}
	PQclear(r);
	while ((len = PQgetCopyData(c, &buf, 0)) > 0) {
		while (n + (size_t)len + 1 > cap)
			all = realloc(all, cap *= 2);
		memcpy(all + n, buf, (size_t)len);
		n += (size_t)len;
		PQfreemem(buf);
	}
	all[n] = 0;
	*ok = *ok && len == -1;
	while ((r = PQgetResult(c))) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
			*ok = 0;
		PQclear(r);
	}
	return all;
}

static const char *
count_rows(PGconn *c, const char *table)
{
	static char buf[32];
	char sql[128];
	PGresult *r;
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
	r = PQexec(c, sql);
	snprintf(buf, sizeof buf, "%s", PQresultStatus(r) == PGRES_TUPLES_OK ? PQgetvalue(r, 0, 0) : "error");
	PQclear(r);
	return buf;
}

static void
test_copy(PGconn *c)
{
	/* rows split across CopyData messages mid-row and mid-escape */
	static const char *const good[] = {
		"1\thello\t2024-01-02\t1.5\tt\n2\t\\N\t\\N\t\\N\t\\N\n3\ttab\\",
		"there\t1999-12-31\t-0.25\tf\n4\t\\\\back\\nslash\t2000-02-29\t1",
		"2345.678\tf\n", NULL
	};
	static const char *const bad[] = { "5\tok\t2001-01-01\t1\tt\n", "x\tbad\t2001-01-01\t1\tt\n", NULL };
	static const char *const fine[] = { "7\tok\t2001-01-01\t1\tt\n", NULL };
	static const char *const csv[] = { "5,\"a,b\",2001-01-01,2,true\n", "6,\"say \"\"hi\"\"\",,,\n", NULL };
	const char *want =
		"1\thello\t2024-01-02\t1.50\tt\n"
		"2\t\\N\t\\N\t\\N\t\\N\n"
		"3\ttab\\there\t1999-12-31\t-0.25\tf\n"
		"4\t\\\\back\\nslash\t2000-02-29\t12345.68\tf\n";
	const char *state;
	char tag[64], *out;
	int ok;

	exec_ok(c, "CREATE TABLE pq_copy (i int, s text, d date, n numeric(8,2), b boolean)");
	ok = copy_in(c, "COPY pq_copy FROM STDIN", good, NULL, &state, tag, sizeof tag);
	check(ok && !state && !strcmp(tag, "COPY 4"), "copy_in_text", "tag %s state %s", tag, state ? state : "-");
	free((void *)state);
	out = copy_out(c, "COPY (SELECT * FROM pq_copy ORDER BY i) TO STDOUT", &ok);
	check(ok && !strcmp(out, want), "copy_out_text_rows_equal", "got [%s]", out);
	free(out);
	out = copy_out(c, "COPY pq_copy (i, s) TO STDOUT WITH (FORMAT csv, HEADER)", &ok);
	{
		/* table order is not promised: check the header and the line set size */
		int lines = 0;
		const char *p;
		for (p = out; *p; p++)
			lines += *p == '\n';
		check(ok && !strncmp(out, "i,s\n", 4) && lines == 6 && strstr(out, "\n1,hello\n") &&
		      strstr(out, "\n2,\n") && strstr(out, "\n3,tab\there\n"), "copy_out_csv_header", "got [%s]", out);
	}
	free(out);

	ok = copy_in(c, "COPY pq_copy FROM STDIN", bad, NULL, &state, tag, sizeof tag);
	check(ok && state && !strcmp(state, "22P02"), "copy_in_bad_row_22P02", "state %s tag %s",
	      state ? state : "-", tag);
	free((void *)state);
	check(!strcmp(copy_context, "COPY pq_copy, line 2, column i: \"x\""), "copy_in_bad_row_context",
	      "context [%s]", copy_context);
	check(!strcmp(count_rows(c, "pq_copy"), "4"), "copy_in_bad_row_nothing_committed", "count %s",
	      count_rows(c, "pq_copy"));

	ok = copy_in(c, "COPY pq_copy FROM STDIN", fine, "client gave up", &state, tag, sizeof tag);
	check(ok && state && !strcmp(state, "57014"), "copy_fail_57014", "state %s", state ? state : "-");
	free((void *)state);
	check(!strcmp(count_rows(c, "pq_copy"), "4"), "copy_fail_nothing_committed", "count %s",
	      count_rows(c, "pq_copy"));

	ok = copy_in(c, "COPY pq_copy FROM STDIN WITH (FORMAT csv)", csv, NULL, &state, tag, sizeof tag);
	check(ok && !state && !strcmp(tag, "COPY 2"), "copy_in_csv", "tag %s state %s", tag, state ? state : "-");
	free((void *)state);
	out = copy_out(c, "COPY (SELECT i, s, d, n, b FROM pq_copy WHERE i >= 5 ORDER BY i) TO STDOUT", &ok);
	check(ok && !strcmp(out, "5\ta,b\t2001-01-01\t2.00\tt\n6\tsay \"hi\"\t\\N\t\\N\t\\N\n"), "copy_in_csv_rows",
	      "got [%s]", out);
	free(out);
	{
		PGresult *r = must(c, PQexec(c, "SELECT 'alive after copy'"), PGRES_TUPLES_OK, "alive after copy");
		PQclear(r);
	}
	exec_ok(c, "DROP TABLE pq_copy");
}

/* ---- SCRAM: a login with the right password, then a wrong one ------------ */
static PGconn *
connect_verbose(const char *ci)
{
	PGconn *b = PQconnectStart(ci);
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;

	if (!b || PQstatus(b) == CONNECTION_BAD)
		return b;
	/* verbose: the server's FATAL carries its SQLSTATE in the message */
	PQsetErrorVerbosity(b, PQERRORS_VERBOSE);
	while (st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED) {
		struct pollfd pf = { PQsocket(b), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, 0 };
		if (poll(&pf, 1, 15000) <= 0)
			break;
		st = PQconnectPoll(b);
	}
	return b;
}

static void
test_scram(const char *ok_ci, const char *bad_ci)
{
	PGconn *g = connect_verbose(ok_ci), *b;
	PGresult *r;
	const char *v = "41";

	check(g && PQstatus(g) == CONNECTION_OK && PQconnectionUsedPassword(g), "scram_right_password",
	      "%s", g ? PQerrorMessage(g) : "no conn");
	if (g && PQstatus(g) == CONNECTION_OK) {
		r = PQexecParams(g, "SELECT $1::int + 1, current_user", 1, NULL, &v, NULL, NULL, 0);
		check(PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "42") &&
		      !strcmp(PQgetvalue(r, 0, 1), PQuser(g)), "scram_session_works", "%s",
		      PQresultErrorMessage(r));
		PQclear(r);
	}
	PQfinish(g);
	b = connect_verbose(bad_ci);
	check(b && PQstatus(b) == CONNECTION_BAD &&
	      strstr(PQerrorMessage(b), "FATAL:  28P01: password authentication failed for user"),
	      "scram_wrong_password_28P01", "%s", b ? PQerrorMessage(b) : "no conn");
	PQfinish(b);
}

int
main(int argc, char **argv)
{
	PGconn *c;
	if (argc != 3 && !(argc == 4 && !strcmp(argv[2], "scram"))) {
		fprintf(stderr, "usage: pq_client CONNINFO TEST | pq_client CONNINFO scram BAD_CONNINFO\n");
		return 2;
	}
	if (!strcmp(argv[2], "scram")) {
		test_scram(argv[1], argv[3]);
		return failures ? 1 : 0;
	}
	c = PQconnectdb(argv[1]);
	if (PQstatus(c) != CONNECTION_OK) {
		printf("not ok connect: %s\n", PQerrorMessage(c));
		return 1;
	}
	if (!strcmp(argv[2], "password")) {
		char *bad = malloc(strlen(argv[1]) + 32);
		PGconn *b;
		check(PQconnectionUsedPassword(c) == 1, "login_used_password", "");
		sprintf(bad, "%s password=wrong", argv[1]);
		b = PQconnectdb(bad);
		check(PQstatus(b) == CONNECTION_BAD && strstr(PQerrorMessage(b), "password authentication failed"),
		      "wrong_password_refused", "%s", PQerrorMessage(b));
		PQfinish(b);
		free(bad);
	} else if (!strcmp(argv[2], "params")) {
		test_params(c);
		test_all_types(c);
	} else if (!strcmp(argv[2], "copy"))
		test_copy(c);
	else if (!strcmp(argv[2], "binary"))
		test_binary(c);
	else if (!strcmp(argv[2], "errors"))
		test_errors(c);
	else if (!strcmp(argv[2], "singlerow"))
		test_singlerow(c);
	else if (!strcmp(argv[2], "cancel"))
		test_cancel(c);
	else {
		fprintf(stderr, "unknown test %s\n", argv[2]);
		return 2;
	}
	PQfinish(c);
	return failures ? 1 : 0;
}
