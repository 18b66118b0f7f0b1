/*
 * pq_client.c — a libpq client that exercises `floe serve` the way real
 * applications do: prepared statements with text and binary parameters,
 * binary results decoded by the client, single-row mode, errors with
 * SQLSTATEs and positions, and a CancelRequest during a long query.
 *
 * Usage: pq_client "host=127.0.0.1 port=N user=u dbname=floe" TEST
 * TEST is one of: params, binary, errors, singlerow, cancel, password (CONNINFO
 * has the right password: the login used it, and the same CONNINFO with a
 * wrong one fails with "password authentication failed").
 * Prints "ok NAME" per check and "not ok NAME: why" on failure; exits 1 if
 * any check failed.  The expected values are PostgreSQL 15's documented
 * binary formats (the *send functions of src/backend/utils/adt) and libpq's behaviour, not
 * floe's own output.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <libpq-fe.h>
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

int
main(int argc, char **argv)
{
	PGconn *c;
	if (argc != 3) {
		fprintf(stderr, "usage: pq_client CONNINFO TEST\n");
		return 2;
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
	} else if (!strcmp(argv[2], "params"))
		test_params(c);
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
