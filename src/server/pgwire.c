/*
 * pgwire.c — the PostgreSQL frontend/backend protocol v3, server side: one
 * connection's state machine, fed with bytes, replying through callbacks.
 *
 * Spec: PostgreSQL 15 "Frontend/Backend Protocol" (protocol.sgml): "Start
 * Up", "Simple Query", "Extended Query", "Canceling Requests in Progress",
 * "Termination", "SSL Session Encryption", "Message Formats", "Error and
 * Notice Message Fields".  Behaviour follows PostgreSQL's tcop/postgres.c
 * (SocketBackend, exec_simple_query, exec_parse/bind/execute_message).
 *
 * States and the functions that move between them:
 *
 *        bytes
 *          |
 *          v       SSLRequest: 'S' + backend.tls_start, or 'N'; GSSENCRequest 'N'
 *   +-------------+ <-----+
 *   | PG_STARTUP  | ------+
 *   +-------------+ --- CancelRequest (startup_packet -> backend.cancel) --+
 *          | StartupMessage 3.x (startup_packet)                          |
 *          | trust: finish_startup   SCRAM: AuthenticationSASL;          |
 *          |                 password / md5: AuthenticationCleartext/MD5  |
 *          |                                     v                        |
 *          |                              +-------------+  wrong password |
 *          |                              |   PG_AUTH   | --- or bad -----+
 *          |                              +-------------+  SASL message   |
 *          |    SASLInitialResponse, SASLResponse, PasswordMessage        |
 *          |    (auth_msg, password_msg)                      |           |
 *          | <------------------------------------------------+           |
 *          | finish_startup: session_open, AuthenticationOk,              |
 *          | ParameterStatus*, BackendKeyData, ReadyForQuery              |
 *          v                                                              |
 *   +-------------+  Q: simple_query (ReadyForQuery after it)             |
 *   |  PG_READY   | <--+  P/B/D/E/C/H: parse_msg, bind_msg, describe_msg, |
 *   +-------------+ ---+  execute_msg, close_msg, flush                   |
 *     |  ^     | error in P/B/D/E/C (ext_error)                           |
 *     |  |     v                                                          |
 *     |  |  +-------------+  every message but Sync/Terminate: skipped    |
 *     |  +--|  PG_FAILED  |                                               |
 *     | Sync +-------------+                                              |
 *     |        | Terminate                                                |
 *     v        v                                                          |
 *   +-------------+ <--- Terminate, FATAL (fatal: unknown message type,   |
 *   |  PG_CLOSED  |      bad length, bad startup)  <----------------------+
 *   +-------------+
 *
 * Invariants:
 *   1. Every message is framed (pgmsg_frame) against the limit of its type
 *      before it is buffered: startup packets PGWIRE_MAX_STARTUP, Q/P/B/F/d
 *      PGWIRE_MAX_LARGE, all others PGWIRE_MAX_SMALL.  A bad length or an
 *      unknown type byte is FATAL 08P01 and the connection closes.
 *   2. Every backend message is built whole in `out` (pgbuf_begin/end);
 *      `out` is written when it passes FLUSH_AT, at ReadyForQuery, on Flush
 *      and before closing.
 *   3. In PG_FAILED nothing but Sync and Terminate is processed; Sync always
 *      answers ReadyForQuery; outside a transaction block it drops every
 *      portal (it ends the implicit transaction), inside one they stay
 *      until the block ends (the status byte is the backend's txn_status).
 *   4. Decoding never trusts a count from the wire: every get is bounded by
 *      the message (PgReader) and arrays are sized from what remains.
 *   5. A portal is run once: with a row limit its DataRows are encoded into
 *      the portal and handed out limit by limit (PortalSuspended); without
 *      one they stream to the client as the engine produces them.
 *   6. Settings (PostgreSQL's process_startup_options): the startup
 *      packet's `options` -c/-- switches, then every other parameter of the
 *      packet but user, database, replication, _pq_.* and TimeZone (server.c
 *      sets that one), in packet order, run as SET name TO 'value'; a
 *      failure is FATAL.  ParameterStatus reports application_name,
 *      client_encoding, DateStyle and IntervalStyle as the session then
 *      holds them (backend.setting), and again before any ReadyForQuery
 *      after a statement changed one (report_settings), as for GUC_REPORT
 *      settings; TimeZone likewise (send_ready).
 *   7. send_error is the only encoder of ErrorResponse/NoticeResponse, and
 *      every one carries a valid SQLSTATE (five of [0-9A-Z]): the error of
 *      a backend call is cleared before the call, so one returned unfilled
 *      is seen as such; an invalid code goes out as XX000 (debug builds
 *      abort).  Text from the client (simple query, Parse, statement
 *      and portal names, text and binary text parameters, CopyFail's
 *      message) is checked as UTF-8 without NUL before it is used or
 *      echoed in an error: 22021, as PostgreSQL's pg_client_to_server; a
 *      Bind parameter's error carries PostgreSQL's CONTEXT "unnamed
 *      portal parameter $n".
 *
 * COPY: the engine's sink callbacks send CopyOutResponse / CopyData /
 * CopyDone for COPY TO STDOUT, and CopyInResponse for COPY FROM STDIN, then
 * pull the client's messages while the statement runs (copy_in_read): the
 * unprocessed rest of `in` first (from in_next), then bytes read with the
 * reader set by pgwire_set_reader into `cin`, which pgwire_feed processes
 * as ordinary input after the statement.  CopyData feeds the engine,
 * CopyDone ends the data, CopyFail is 57014, Flush/Sync are ignored, any
 * other message is 08P01; CopyData/CopyDone/CopyFail outside a COPY (after
 * a failed one) are ignored, as PostgreSQL does.
 *
 * Parameter types: ParameterDescription reports the declared OID of each
 * parameter, else the type its context gives it (session_describe's
 * inference), else 25 (text); unspecified text parameters are still typed
 * by their context in the engine (bind_expr.c), and an unspecified binary
 * one is decoded as the type ParameterDescription reported (text when its
 * context gives none, as PostgreSQL does).  Binary
 * parameters are decoded here to text for: bool, int2/4/8, float4/8,
 * numeric, text/varchar/bpchar/name, bytea, date, time, timestamp(tz),
 * interval, uuid; binary results are encoded for every floe type.
 */
#include <ctype.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/pgwire.h"
#include "server/pgwire_msg.h"
#include "types/array.h"
#include "types/datetime.h"
#include "types/text.h"

/* SQLSTATEs PostgreSQL uses here that sqlstate.txt does not list yet */
#define SQLSTATE_INVALID_SQL_STATEMENT_NAME "26000"
#define SQLSTATE_INVALID_CURSOR_NAME "34000"
#define SQLSTATE_DUPLICATE_PSTATEMENT "42P05"
#define SQLSTATE_DUPLICATE_CURSOR "42P03"

#define FLUSH_AT (64 * 1024)
#define PG_EPOCH_DAYS 10957                        /* 2000-01-01 - 1970-01-01 */
#define PG_EPOCH_USECS ((int64_t)PG_EPOCH_DAYS * 86400 * 1000000)

typedef struct PgStmt {
	struct PgStmt *next;
	Arena *arena;
	char *name;
	char *sql;
	int nparams;
	uint32_t *oids;           /* nparams, 0 = unspecified */
	uint32_t *pdesc;          /* nparams: ParameterDescription's types (declared,
				     else inferred from context, else 25 text) */
	SqlDescription desc;      /* ncols -1: no rows */
	int dealloc;              /* DEALLOCATE handled here: 1 named, 2 ALL */
	char *dealloc_name;
} PgStmt;

typedef struct PgPortal {
	struct PgPortal *next;
	Arena *arena;
	char *name;
	PgStmt *stmt;
	int nparams;
	char **values;            /* text, NULL = SQL NULL */
	int16_t *formats;         /* per result column (desc.ncols), 0 text 1 binary */
	int nformats;
	bool started, done;
	PgBuf rows;               /* encoded DataRow messages of a suspended run */
	size_t cursor;
	char tag[64];
} PgPortal;

/* Settings whose changes PostgreSQL 15 reports with ParameterStatus
 * (GUC_REPORT) and that a session can change: name as reported, name as
 * SHOW takes it, PostgreSQL's default.  (TimeZone has its own tracking:
 * send_ready.) */
static const struct { const char *name, *key, *dflt; } reported[] = {
	{ "application_name", "application_name", "" },
	{ "client_encoding", "client_encoding", "UTF8" },
	{ "DateStyle", "datestyle", "ISO, MDY" },
	{ "IntervalStyle", "intervalstyle", "postgres" },
};
#define NREPORTED 4
#define PGWIRE_MAX_STARTUP_SETTINGS 32

struct PgConn {
	const PgwireBackend *be;
	void *io;
	int32_t pid, key;
	PgState state;
	PgBuf in, out;
	Arena *arena;             /* connection lifetime: startup parameters */
	char *database, *app, *options;
	ScramState *scram;
	int auth_step;
	PgAuthMethod auth_method;  /* in PG_AUTH */
	PgAuthInfo *auth;          /* PASSWORD / MD5: the stored secrets */
	uint8_t md5_salt[4];
	bool tls;                  /* TLS established (tls_start) */
	uint8_t cbind[SCRAM_CBIND_MAX];   /* TLS channel binding data (tls_cbind) */
	size_t cbind_len;
	size_t in_rest;            /* bytes after the startup packet being processed */
	void *session;
	volatile int cancel;
	char user[256];
	char timezone[64];        /* last TimeZone reported */
	char reported[NREPORTED][128];   /* last value of each reported[] setting sent */
	/* startup-packet parameters that are settings (not user, database,
	 * options, application_name, TimeZone, replication, _pq_.*): applied
	 * as SET at session start, in packet order */
	const char *startup_keys[PGWIRE_MAX_STARTUP_SETTINGS];
	const char *startup_vals[PGWIRE_MAX_STARTUP_SETTINGS];
	int nstartup;
	PgStmt *stmts;
	PgPortal *portals;
	Arena *scratch;           /* reset per batch / message */
	bool write_failed;
	/* COPY FROM STDIN (copy_in_read): in[in_next..) are messages not yet
	 * processed; cin holds bytes read from the socket during the COPY
	 * (processed as normal input after it); cpay/cpay_len the unread part
	 * of the current CopyData */
	size_t in_next;
	PgBuf cin;
	const uint8_t *cpay;
	size_t cpay_len;
	bool cpay_cin;            /* cpay points into cin's first message */
	ssize_t (*read)(void *io, void *p, size_t cap);   /* NULL: no COPY FROM */
	bool copy_done;
};

/* ---- output helpers ---------------------------------------------------- */

int
pgwire_flush(PgConn *c)
{
	if (c->out.len && !c->write_failed) {
		if (c->be->write(c->io, c->out.data, c->out.len) != 0)
			c->write_failed = true;
	}
	pgbuf_reset(&c->out);
	return c->write_failed ? -1 : 0;
}

static void
maybe_flush(PgConn *c)
{
	if (c->out.len >= FLUSH_AT)
		pgwire_flush(c);
}

/* A SQLSTATE is five characters of [0-9A-Z] (PostgreSQL's errcodes.txt). */
static bool
sqlstate_valid(const char *s)
{
	int i;
	for (i = 0; i < 5; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	return s[5] == 0;
}

/* The only encoder of ErrorResponse / NoticeResponse (invariant 7): an
 * error whose code is not a valid SQLSTATE (never filled, or stale) is a
 * bug upstream; it goes out as XX000, and debug builds abort so the tests
 * catch it. */
static void
send_error(PgConn *c, const floe_error *err, const char *severity)
{
	size_t m = pgbuf_begin(&c->out, strcmp(severity, "NOTICE") && strcmp(severity, "WARNING") ? 'E' : 'N');
	char pos[16];
	bool valid = sqlstate_valid(err->sqlstate);

#ifdef FLOE_DEBUG
	if (!valid) {
		fprintf(stderr, "pgwire: %s without a valid SQLSTATE (message \"%.80s\")\n", severity,
			memchr(err->message, 0, sizeof err->message) ? err->message : "?");
		abort();
	}
#endif
	pgbuf_byte(&c->out, 'S');
	pgbuf_cstr(&c->out, severity);
	pgbuf_byte(&c->out, 'V');
	pgbuf_cstr(&c->out, severity);
	pgbuf_byte(&c->out, 'C');
	pgbuf_cstr(&c->out, valid ? err->sqlstate : ERRCODE_INTERNAL_ERROR);
	if (!valid) {
		pgbuf_byte(&c->out, 'M');
		pgbuf_cstr(&c->out, "internal error: an error without a SQLSTATE");
		pgbuf_byte(&c->out, 0);
		pgbuf_end(&c->out, m);
		return;
	}
	pgbuf_byte(&c->out, 'M');
	pgbuf_cstr(&c->out, err->message);
	if (err->detail[0]) {
		pgbuf_byte(&c->out, 'D');
		pgbuf_cstr(&c->out, err->detail);
	}
	if (err->hint[0]) {
		pgbuf_byte(&c->out, 'H');
		pgbuf_cstr(&c->out, err->hint);
	}
	if (err->position > 0) {
		snprintf(pos, sizeof pos, "%d", err->position);
		pgbuf_byte(&c->out, 'P');
		pgbuf_cstr(&c->out, pos);
	}
	if (err->context[0]) {
		pgbuf_byte(&c->out, 'W');
		pgbuf_cstr(&c->out, err->context);
	}
	pgbuf_byte(&c->out, 0);
	pgbuf_end(&c->out, m);
}

static void
send_empty(PgConn *c, char type)
{
	size_t m = pgbuf_begin(&c->out, type);
	pgbuf_end(&c->out, m);
}

static void
send_parameter_status(PgConn *c, const char *name, const char *value)
{
	size_t m = pgbuf_begin(&c->out, 'S');
	pgbuf_cstr(&c->out, name);
	pgbuf_cstr(&c->out, value);
	pgbuf_end(&c->out, m);
}

/* ParameterStatus for each reported[] setting whose value changed since
 * it was last sent (all: every one, at startup), as PostgreSQL sends them
 * before ReadyForQuery. */
static void
report_settings(PgConn *c, bool all)
{
	int i;

	for (i = 0; i < NREPORTED; i++) {
		const char *v = c->be->setting && c->session
			? c->be->setting(c->be->ctx, c->session, reported[i].key) : NULL;
		if (!v)
			v = reported[i].dflt;
		if (!all && !strcmp(v, c->reported[i]))
			continue;
		snprintf(c->reported[i], sizeof c->reported[i], "%s", v);
		send_parameter_status(c, reported[i].name, v);
	}
}

static void
send_ready(PgConn *c)
{
	size_t m;
	const char *tz = datetime_timezone_name();
	/* SET TimeZone changes what the client must know (GUC_REPORT) */
	if (tz && strcmp(tz, c->timezone) != 0) {
		snprintf(c->timezone, sizeof c->timezone, "%s", tz);
		send_parameter_status(c, "TimeZone", c->timezone);
	}
	if (c->session)
		report_settings(c, false);
	m = pgbuf_begin(&c->out, 'Z');
	pgbuf_byte(&c->out, (uint8_t)(c->be->txn_status && c->session
					? c->be->txn_status(c->be->ctx, c->session) : 'I'));
	pgbuf_end(&c->out, m);
	pgwire_flush(c);
}

/* FATAL: report, then close the connection. */
static int
fatal(PgConn *c, const char *sqlstate, const char *msg)
{
	floe_error e;
	floe_errorf(&e, sqlstate, "%s", msg);
	send_error(c, &e, "FATAL");
	c->state = PG_CLOSED;
	return FLOE_ERR;
}

/* Text from the client is valid UTF-8 (22021), as pg_client_to_server. */
static int
check_utf8(const char *s, floe_error *err)
{
	return text_validate_utf8(s, strlen(s), err);
}

/* ---- type descriptions ------------------------------------------------- */

static uint32_t
col_oid(SqlType t)
{
	if (t.id == TYPE_ARRAY)
		return type_pg_oid_of(t);   /* int4[] 1007 ... (types.c) */
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_VARCHAR)
		return 1043;
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR)
		return 1042;
	if (t.id == TYPE_NULL)
		return 25;    /* an unknown-typed output column is resolved to text */
	return type_pg_oid_of(t);     /* json 114, jsonb 3802 */
}

static int16_t
col_len(SqlType t)
{
	switch (t.id) {
	case TYPE_BOOL: return 1;
	case TYPE_INT16: return 2;
	case TYPE_INT32: case TYPE_DATE: case TYPE_FLOAT32: return 4;
	case TYPE_INT64: case TYPE_FLOAT64: case TYPE_TIME:
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: return 8;
	case TYPE_INTERVAL: case TYPE_UUID: return 16;
	default: return -1;
	}
}

static int32_t
col_typmod(SqlType t)
{
	if (t.id == TYPE_TEXT && t.text_kind != TEXT_PLAIN && t.typmod >= 0)
		return t.typmod + 4;
	if (t.id == TYPE_DECIMAL && t.precision > 0)
		return (int32_t)(((uint32_t)t.precision << 16) | t.scale) + 4;
	return -1;
}

static void
send_row_description(PgConn *c, int ncols, char *const *names, const SqlType *types,
		     const int16_t *formats)
{
	size_t m = pgbuf_begin(&c->out, 'T');
	int i;
	pgbuf_int16(&c->out, (int16_t)ncols);
	for (i = 0; i < ncols; i++) {
		pgbuf_cstr(&c->out, names[i] ? names[i] : "?column?");
		pgbuf_int32(&c->out, 0);       /* table OID */
		pgbuf_int16(&c->out, 0);       /* column number */
		pgbuf_int32(&c->out, (int32_t)col_oid(types[i]));
		pgbuf_int16(&c->out, col_len(types[i]));
		pgbuf_int32(&c->out, col_typmod(types[i]));
		pgbuf_int16(&c->out, formats ? formats[i] : 0);
	}
	pgbuf_end(&c->out, m);
}

/* ---- binary formats ---------------------------------------------------- */

/* numeric's binary form from its text: int16 ndigits, weight, sign,
 * dscale, then base-10000 digits (numeric_send). */
static void
numeric_send(PgBuf *b, const char *s)
{
	int16_t digits[64];
	int nd = 0, weight, sign = 0, dscale = 0, ilen, flen, i, k;
	const char *dot, *ip, *fp;
	char grp[5];

	if (*s == '-') {
		sign = 0x4000;
		s++;
	}
	if (!strcmp(s, "NaN")) {
		pgbuf_int16(b, 0); pgbuf_int16(b, 0); pgbuf_int16(b, (int16_t)0xC000); pgbuf_int16(b, 0);
		return;
	}
	dot = strchr(s, '.');
	ip = s;
	ilen = dot ? (int)(dot - s) : (int)strlen(s);
	fp = dot ? dot + 1 : "";
	flen = (int)strlen(fp);
	dscale = flen;
	while (ilen > 0 && *ip == '0') {
		ip++;
		ilen--;
	}
	/* integer part, groups of 4 from the right */
	{
		int first = ilen % 4 ? ilen % 4 : 4;
		k = 0;
		for (i = 0; i < ilen && nd < 64;) {
			int take = i == 0 ? first : 4;
			memcpy(grp, ip + i, (size_t)take);
			grp[take] = 0;
			digits[nd++] = (int16_t)atoi(grp);
			i += take;
			k++;
		}
		weight = k - 1;
	}
	for (i = 0; i < flen && nd < 64; i += 4) {
		int j;
		for (j = 0; j < 4; j++)
			grp[j] = i + j < flen ? fp[i + j] : '0';
		grp[4] = 0;
		digits[nd++] = (int16_t)atoi(grp);
	}
	/* strip leading zero groups (moving the weight) and trailing ones */
	k = 0;
	while (k < nd && digits[k] == 0) {
		k++;
		weight--;
	}
	while (nd > k && digits[nd - 1] == 0)
		nd--;
	if (nd == k) {
		weight = 0;
		sign = 0;
	}
	pgbuf_int16(b, (int16_t)(nd - k));
	pgbuf_int16(b, (int16_t)weight);
	pgbuf_int16(b, (int16_t)sign);
	pgbuf_int16(b, (int16_t)dscale);
	for (i = k; i < nd; i++)
		pgbuf_int16(b, digits[i]);
}

static void binary_field(PgConn *c, const Vector *v, uint32_t row);

/* array_send: int32 ndim (0 for '{}'), has-null flag, element OID, then
 * per dimension int32 length and lower bound 1, then each element as a
 * binary field of its type (length -1 for NULL) */
static void
binary_array(PgConn *c, const Value *val, SqlType t)
{
	SqlType et = array_elem_type(t);
	floe_error err;
	Value *vals;
	uint32_t n = 0, k;
	bool nulls = false;

	if (array_decode(&val->u.s, t, c->scratch, &vals, &n, &err) != FLOE_OK)
		n = 0;
	for (k = 0; k < n; k++)
		nulls |= vals[k].is_null;
	pgbuf_int32(&c->out, n ? 1 : 0);
	pgbuf_int32(&c->out, nulls);
	pgbuf_int32(&c->out, (int32_t)type_pg_oid_of(et));
	if (n) {
		pgbuf_int32(&c->out, (int32_t)n);
		pgbuf_int32(&c->out, 1);
	}
	for (k = 0; k < n; k++) {
		Vector ev;
		/* numeric elements at their own scale (array.h) */
		vector_init_const(&ev, &vals[k], c->scratch);
		binary_field(c, &ev, 0);
	}
}

/* Append one binary field (length word included) for row `row` of v. */
static void
binary_field(PgConn *c, const Vector *v, uint32_t row)
{
	PgBuf *b = &c->out;
	Value val;
	size_t at, len;

	vector_get_value(v, row, &val);
	if (val.is_null) {
		pgbuf_int32(b, -1);
		return;
	}
	at = b->len;
	pgbuf_int32(b, 0);
	switch (v->type.id) {
	case TYPE_BOOL: pgbuf_byte(b, val.u.b ? 1 : 0); break;
	case TYPE_INT16: pgbuf_int16(b, (int16_t)val.u.i); break;
	case TYPE_INT32: pgbuf_int32(b, (int32_t)val.u.i); break;
	case TYPE_INT64: case TYPE_TIME: pgbuf_int64(b, val.u.i); break;
	case TYPE_FLOAT32: {
		float f = (float)val.u.f;
		uint32_t u;
		memcpy(&u, &f, 4);
		pgbuf_int32(b, (int32_t)u);
		break;
	}
	case TYPE_FLOAT64: {
		uint64_t u;
		memcpy(&u, &val.u.f, 8);
		pgbuf_int64(b, (int64_t)u);
		break;
	}
	case TYPE_DATE: {
		int64_t d = val.u.i;
		if (d != DATE_NOBEGIN && d != DATE_NOEND)
			d -= PG_EPOCH_DAYS;
		pgbuf_int32(b, (int32_t)d);
		break;
	}
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: {
		int64_t t = val.u.i;
		if (t != TS_NOBEGIN && t != TS_NOEND)
			t -= PG_EPOCH_USECS;
		pgbuf_int64(b, t);
		break;
	}
	case TYPE_INTERVAL:
		pgbuf_int64(b, val.u.iv.micros);
		pgbuf_int32(b, val.u.iv.days);
		pgbuf_int32(b, val.u.iv.months);
		break;
	case TYPE_UUID: pgbuf_append(b, val.u.uuid.b, 16); break;
	case TYPE_DECIMAL: {
		const char *s = value_to_text(&val, c->scratch, &len);
		numeric_send(b, s ? s : "0");
		break;
	}
	case TYPE_TEXT: case TYPE_BYTEA:
		if (v->type.id == TYPE_TEXT && (v->type.text_kind == TEXT_JSONB ||
						 v->type.text_kind == TEXT_JSONPATH))
			pgbuf_byte(b, 1);   /* jsonb_send / jsonpath_send: version 1, then the text */
		pgbuf_append(b, strview_data(&val.u.s), val.u.s.len);
		break;
	case TYPE_ARRAY:
		binary_array(c, &val, v->type);
		break;
	default: {
		const char *s = value_to_text(&val, c->scratch, &len);
		pgbuf_append(b, s, len);
		break;
	}
	}
	len = b->len - at - 4;
	b->data[at] = (uint8_t)(len >> 24);
	b->data[at + 1] = (uint8_t)(len >> 16);
	b->data[at + 2] = (uint8_t)(len >> 8);
	b->data[at + 3] = (uint8_t)len;
}

static const char hexd[] = "0123456789abcdef";

/* numeric_recv's input to text; NULL on a malformed value */
static char *
numeric_text(Arena *a, const uint8_t *p, size_t n)
{
	int nd, weight, sign, dscale, i, g;
	char *out, *o;

	if (n < 8)
		return NULL;
	nd = (int16_t)pg_get_u16(p);
	weight = (int16_t)pg_get_u16(p + 2);
	sign = pg_get_u16(p + 4);
	dscale = (int16_t)pg_get_u16(p + 6);
	if (nd < 0 || (size_t)nd * 2 + 8 != n || dscale < 0 || dscale > 1000 || weight > 1000 || weight < -1000)
		return NULL;
	if (sign == 0xC000)
		return arena_strdup(a, "NaN");
	if (sign != 0 && sign != 0x4000)
		return NULL;
	for (i = 0; i < nd; i++)
		if (pg_get_u16(p + 8 + 2 * i) > 9999)
			return NULL;
	out = o = arena_alloc(a, (size_t)(4 * (abs(weight) + nd + 2) + dscale + 8));
	if (sign == 0x4000)
		*o++ = '-';
	/* integer part: groups 0..weight */
	if (weight < 0) {
		*o++ = '0';
	} else {
		for (g = 0; g <= weight; g++) {
			int d = g < nd ? pg_get_u16(p + 8 + 2 * g) : 0;
			o += sprintf(o, g == 0 ? "%d" : "%04d", d);
		}
	}
	if (dscale > 0) {
		int written = 0;
		*o++ = '.';
		for (g = weight + 1; written < dscale; g++) {
			int d = (g >= 0 && g < nd) ? pg_get_u16(p + 8 + 2 * g) : 0;
			static const int pow10[4] = { 1000, 100, 10, 1 };
			int j;
			for (j = 0; j < 4 && written < dscale; j++, written++)
				*o++ = (char)('0' + (d / pow10[j]) % 10);
		}
	}
	*o = 0;
	return out;
}

static char *binary_param_text(PgConn *c, Arena *a, uint32_t oid, const uint8_t *p, size_t n,
			       int idx, floe_error *err);

/* array_recv's input (one dimension; see binary_array) to array text */
static char *
binary_array_param(PgConn *c, Arena *a, uint32_t oid, const uint8_t *p, size_t n, int idx,
		   floe_error *err)
{
	uint32_t elem = type_array_elem_oid(oid), ndim, cnt, k;
	size_t at = 12, len = 1, cap = 64;
	char *out;

	if (n < 12)
		goto bad;
	ndim = pg_get_u32(p);
	if (ndim == 0)
		return arena_strdup(a, "{}");
	if (ndim != 1) {
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "multidimensional arrays are not supported");
		return NULL;
	}
	if (pg_get_u32(p + 8) != elem || n < 20 || pg_get_u32(p + 16) != 1)
		goto bad;
	cnt = pg_get_u32(p + 12);
	at = 20;
	out = arena_alloc(a, cap);
	out[0] = '{';
	for (k = 0; k < cnt; k++) {
		const char *t = "NULL";
		size_t tl = 4;
		int32_t el;
		if (n - at < 4)
			goto bad;
		el = (int32_t)pg_get_u32(p + at);
		at += 4;
		if (el >= 0) {
			Value tv;
			char *txt;
			if ((size_t)el > n - at)
				goto bad;
			if (!(txt = binary_param_text(c, a, elem, p + at, (size_t)el, idx, err)))
				return NULL;
			at += (size_t)el;
			memset(&tv, 0, sizeof tv);
			tv.type = type_make(TYPE_TEXT);
			tv.u.s = strview_make(txt, (uint32_t)strlen(txt));
			t = array_elem_out(&tv, a, &tl);
		} else if (el != -1) {
			goto bad;
		}
		if (len + tl + 3 > cap) {
			size_t nc = (len + tl + 3) * 2;
			out = arena_realloc(a, out, cap, nc);
			cap = nc;
		}
		if (k)
			out[len++] = ',';
		memcpy(out + len, t, tl);
		len += tl;
	}
	if (at != n)
		goto bad;
	out[len++] = '}';
	out[len] = 0;
	return out;
bad:
	floe_errorf(err, ERRCODE_INVALID_BINARY_REPRESENTATION,
		    "incorrect binary data format in bind parameter %d", idx + 1);
	return NULL;
}

/* A binary parameter (type oid) to the text the engine parses; NULL and
 * err filled when the bytes are not a valid value of the type. */
static char *
binary_param_text(PgConn *c, Arena *a, uint32_t oid, const uint8_t *p, size_t n, int idx,
		  floe_error *err)
{
	Value v;
	size_t len;
	char *s;
	size_t need = 0;

	memset(&v, 0, sizeof v);
	switch (oid) {
	case 16: need = 1; break;
	case 21: need = 2; break;
	case 23: case 700: case 1082: need = 4; break;
	case 20: case 701: case 1083: case 1114: case 1184: need = 8; break;
	case 1186: case 2950: need = 16; break;
	default: break;
	}
	if (need && n < need) {
		/* PostgreSQL's *recv functions run out of message */
		floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
		return NULL;
	}
	if (need && n != need)
		goto bad;
	switch (oid) {
	case 16: return arena_strdup(a, p[0] ? "t" : "f");
	case 21: return arena_sprintf(a, "%d", (int16_t)pg_get_u16(p));
	case 23: return arena_sprintf(a, "%d", (int32_t)pg_get_u32(p));
	case 20: return arena_sprintf(a, "%" PRId64, (int64_t)pg_get_u64(p));
	case 700: {
		uint32_t u = pg_get_u32(p);
		float f;
		memcpy(&f, &u, 4);
		s = arena_alloc(a, TEXT_FLOAT_BUF);
		text_format_float4(f, s);
		return s;
	}
	case 701: {
		uint64_t u = pg_get_u64(p);
		double d;
		memcpy(&d, &u, 8);
		s = arena_alloc(a, TEXT_FLOAT_BUF);
		text_format_float8(d, s);
		return s;
	}
	case 1700:
		if (!(s = numeric_text(a, p, n)))
			goto bad;
		return s;
	case 3802: case 4072:
		/* jsonb_recv / jsonpath_recv: version 1, then the text */
		if (n < 1 || p[0] != 1) {
			floe_errorf(err, ERRCODE_INVALID_BINARY_REPRESENTATION,
				    "unsupported %s version number %d", oid == 4072 ? "jsonpath" : "jsonb",
				    n ? p[0] : 0);
			return NULL;
		}
		p++;
		n--;
		/* fall through */
	case 114:
	case 25: case 1043: case 1042: case 19:
		/* textrecv: the bytes must be valid UTF-8 without NUL (22021,
		 * as pg_verify_mbstr); text_validate_utf8 refuses 0x00 too */
		if (text_validate_utf8((const char *)p, n, err) != FLOE_OK)
			return NULL;
		return arena_strndup(a, (const char *)p, n);
	case 0: case 705:
		/* unspecified and not described (no PgStmt.pdesc): taken as
		 * bytea, a '\x...' literal its context may type */
	case 17: {
		size_t i;
		s = arena_alloc(a, 2 * n + 3);
		s[0] = '\\';
		s[1] = 'x';
		for (i = 0; i < n; i++) {
			s[2 + 2 * i] = hexd[p[i] >> 4];
			s[3 + 2 * i] = hexd[p[i] & 15];
		}
		s[2 + 2 * n] = 0;
		return s;
	}
	case 1082: {
		int32_t d = (int32_t)pg_get_u32(p);
		v.type = type_make(TYPE_DATE);
		v.u.i = (d == DATE_NOBEGIN || d == DATE_NOEND) ? d : (int64_t)d + PG_EPOCH_DAYS;
		goto as_text;
	}
	case 1083:
		v.type = type_make(TYPE_TIME);
		v.u.i = (int64_t)pg_get_u64(p);
		if (v.u.i < 0 || v.u.i > (int64_t)86400 * 1000000)
			goto bad;
		goto as_text;
	case 1114: case 1184: {
		int64_t t = (int64_t)pg_get_u64(p);
		v.type = type_make(oid == 1114 ? TYPE_TIMESTAMP : TYPE_TIMESTAMPTZ);
		if (t != TS_NOBEGIN && t != TS_NOEND) {
			if (t > TS_MAX_USECS - PG_EPOCH_USECS)
				goto bad;
			t += PG_EPOCH_USECS;
		}
		v.u.i = t;
		goto as_text;
	}
	case 1186:
		v.type = type_make(TYPE_INTERVAL);
		v.u.iv.micros = (int64_t)pg_get_u64(p);
		v.u.iv.days = (int32_t)pg_get_u32(p + 8);
		v.u.iv.months = (int32_t)pg_get_u32(p + 12);
		goto as_text;
	case 2950:
		v.type = type_make(TYPE_UUID);
		memcpy(v.u.uuid.b, p, 16);
		goto as_text;
	default:
		if (type_array_elem_oid(oid))
			return binary_array_param(c, a, oid, p, n, idx, err);
		break;
	}
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
		    oid ? "binary format is not supported for parameter $%d of type OID %u"
			: "binary format needs a declared type: parameter $%d has none%.0u",
		    idx + 1, oid);
	return NULL;
as_text:
	/* canonical text: read back the same under any DateStyle / IntervalStyle */
	s = (char *)value_to_text_canonical(&v, a, &len);
	if (!s)
		goto bad;
	return s;
bad:
	(void)c;
	floe_errorf(err, ERRCODE_INVALID_BINARY_REPRESENTATION,
		    "incorrect binary data format in bind parameter %d", idx + 1);
	return NULL;
}

/* ---- result sinks ------------------------------------------------------ */

typedef struct PgSink {
	PgConn *c;
	bool simple;              /* simple query: RowDescription before rows */
	PgPortal *portal;         /* extended: formats; materialise when `into` */
	PgBuf *into;              /* NULL: stream DataRows to c->out */
	int64_t rows;
	char tag[64];
	bool completed;
} PgSink;

static int
sink_columns(void *ctx, int ncols, const char *const *names, const SqlType *types)
{
	PgSink *s = ctx;
	if (s->simple)
		send_row_description(s->c, ncols, (char *const *)names, types, NULL);
	return 0;
}

static int
sink_batch(void *ctx, const Batch *b)
{
	PgSink *s = ctx;
	PgConn *c = s->c;
	PgBuf save;
	uint32_t r;
	int i;

	if (*pgwire_cancel_flag(c))
		return 1;
	if (s->into) {
		/* encode into the portal: swap it in as the output buffer */
		save = c->out;
		c->out = *s->into;
	}
	for (r = 0; r < b->count; r++) {
		uint32_t row = b->sel ? b->sel[r] : r;
		size_t m = pgbuf_begin(&c->out, 'D');
		pgbuf_int16(&c->out, (int16_t)b->ncols);
		for (i = 0; i < b->ncols; i++) {
			int16_t fmt = 0;
			if (s->portal && s->portal->nformats)
				fmt = s->portal->formats[s->portal->nformats == 1 ? 0 :
							 (i < s->portal->nformats ? i : 0)];
			if (fmt == 1) {
				binary_field(c, &b->cols[i], row);
			} else {
				size_t len;
				const char *t = vector_value_text(&b->cols[i], row, c->scratch, &len);
				if (!t) {
					pgbuf_int32(&c->out, -1);
				} else {
					pgbuf_int32(&c->out, (int32_t)len);
					pgbuf_append(&c->out, t, len);
				}
			}
		}
		pgbuf_end(&c->out, m);
		s->rows++;
		if (!s->into)
			maybe_flush(c);
	}
	arena_reset(c->scratch);
	if (s->into) {
		*s->into = c->out;
		c->out = save;
	}
	return c->write_failed ? 1 : 0;
}

static int
sink_complete(void *ctx, const char *tag)
{
	PgSink *s = ctx;
	snprintf(s->tag, sizeof s->tag, "%s", tag);
	s->completed = true;
	if (s->into)
		return 0;
	if (!tag[0]) {
		send_empty(s->c, 'I');
	} else {
		size_t m = pgbuf_begin(&s->c->out, 'C');
		pgbuf_cstr(&s->c->out, tag);
		pgbuf_end(&s->c->out, m);
	}
	maybe_flush(s->c);
	return 0;
}

static void
sink_notice(void *ctx, const floe_error *n)
{
	PgSink *s = ctx;
	send_error(s->c, n, floe_notice_severity(n));
}

/* ---- COPY sub-protocol -------------------------------------------------- */

/* CopyOutResponse ('H') / CopyInResponse ('G'): text format, ncols text columns */
static void
send_copy_response(PgConn *c, char type, int ncols)
{
	size_t m = pgbuf_begin(&c->out, type);
	int i;
	pgbuf_byte(&c->out, 0);
	pgbuf_int16(&c->out, (int16_t)ncols);
	for (i = 0; i < ncols; i++)
		pgbuf_int16(&c->out, 0);
	pgbuf_end(&c->out, m);
}

static int
sink_copy_out_begin(void *ctx, int ncols)
{
	PgSink *s = ctx;
	send_copy_response(s->c, 'H', ncols);
	return s->c->write_failed ? 1 : 0;
}

static int
sink_copy_out_data(void *ctx, const char *data, size_t len)
{
	PgSink *s = ctx;
	PgConn *c = s->c;
	size_t m;
	if (*pgwire_cancel_flag(c))
		return 1;
	m = pgbuf_begin(&c->out, 'd');
	pgbuf_append(&c->out, data, len);
	pgbuf_end(&c->out, m);
	maybe_flush(c);
	return c->write_failed ? 1 : 0;
}

static int
sink_copy_out_end(void *ctx)
{
	PgSink *s = ctx;
	send_empty(s->c, 'c');
	return s->c->write_failed ? 1 : 0;
}

static int
sink_copy_in_begin(void *ctx, int ncols)
{
	PgSink *s = ctx;
	PgConn *c = s->c;
	send_copy_response(c, 'G', ncols);
	c->cpay = NULL;
	c->cpay_len = 0;
	c->cpay_cin = false;
	c->copy_done = false;
	pgwire_flush(c);
	return c->write_failed ? 1 : 0;
}

/* The next whole message of the COPY: from the unprocessed input first,
 * then from the socket into cin.  *p points at the type byte. */
static int
copy_next_msg(PgConn *c, const uint8_t **p, char *type, size_t *len, floe_error *err)
{
	for (;;) {
		int fr;
		if (c->in_next < c->in.len) {
			fr = pgmsg_frame(c->in.data + c->in_next, c->in.len - c->in_next, false,
					 PGWIRE_MAX_LARGE, type, len);
			if (fr > 0) {
				*p = c->in.data + c->in_next;
				c->in_next += *len;
				return FLOE_OK;
			}
			if (fr < 0)
				goto bad;
			/* a partial message: continue it in cin */
			pgbuf_append(&c->cin, c->in.data + c->in_next, c->in.len - c->in_next);
			c->in_next = c->in.len;
		}
		if (c->cin.len) {
			fr = pgmsg_frame(c->cin.data, c->cin.len, false, PGWIRE_MAX_LARGE, type, len);
			if (fr > 0) {
				*p = c->cin.data;
				return FLOE_OK;   /* the caller consumes it (cin_used) */
			}
			if (fr < 0)
				goto bad;
		}
		{
			uint8_t buf[64 * 1024];
			ssize_t n = c->read(c->io, buf, sizeof buf);
			if (n == -2) {
				/* CancelRequest or statement_timeout while waiting for
				 * data; the rest of the client's COPY is ignored */
				return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
			}
			if (n <= 0) {
				c->state = PG_CLOSED;
				return floe_errorf(err, "08006",
						   "unexpected EOF on client connection with an open transaction");
			}
			pgbuf_append(&c->cin, buf, (size_t)n);
		}
	}
bad:
	c->state = PG_CLOSED;
	return floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION, "invalid message length");
}

static int
sink_copy_in_read(void *ctx, char *buf, size_t cap, size_t *len, floe_error *err)
{
	PgSink *s = ctx;
	PgConn *c = s->c;

	*len = 0;
	while (!c->cpay_len) {
		const uint8_t *p;
		char type;
		size_t mlen;
		bool from_cin;
		if (c->copy_done)
			return FLOE_OK;
		if (*pgwire_cancel_flag(c))
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		/* drop the CopyData of cin already handed out */
		if (c->cpay_cin)
			pgbuf_consume(&c->cin, 1 + pg_get_u32(c->cin.data + 1));
		c->cpay_cin = false;
		c->cpay = NULL;
		TRY(copy_next_msg(c, &p, &type, &mlen, err));
		from_cin = c->cin.len && p == c->cin.data;
		switch (type) {
		case 'd':
			c->cpay = p + 5;
			c->cpay_len = mlen - 5;
			c->cpay_cin = from_cin;
			if (!c->cpay_len && from_cin) {
				pgbuf_consume(&c->cin, mlen);
				c->cpay_cin = false;
			}
			if (!c->cpay_len)
				c->cpay = NULL;
			break;
		case 'c':
			if (from_cin)
				pgbuf_consume(&c->cin, mlen);
			c->copy_done = true;
			return FLOE_OK;
		case 'f': {
			PgReader r;
			const char *why;
			pgreader_init(&r, p + 5, mlen - 5);
			why = pgreader_cstr(&r);
			/* the client's text is echoed: UTF-8 first (invariant 7) */
			if (check_utf8(why, err) == FLOE_OK)
				floe_errorf(err, ERRCODE_QUERY_CANCELED, "COPY from stdin failed: %s", why);
			if (from_cin)
				pgbuf_consume(&c->cin, mlen);
			c->copy_done = true;
			return FLOE_ERR;
		}
		case 'H': case 'S':
			/* ignored during COPY IN, as PostgreSQL does */
			if (from_cin)
				pgbuf_consume(&c->cin, mlen);
			break;
		default:
			if (from_cin)
				pgbuf_consume(&c->cin, mlen);
			c->copy_done = true;
			return floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION,
					   "unexpected message type 0x%02X during COPY from stdin",
					   (unsigned)(uint8_t)type);
		}
	}
	*len = c->cpay_len < cap ? c->cpay_len : cap;
	memcpy(buf, c->cpay, *len);
	c->cpay += *len;
	c->cpay_len -= *len;
	return FLOE_OK;
}

/* After a COPY FROM STDIN: drop what is left of a CopyData handed out from cin */
static void
copy_in_finish(PgConn *c)
{
	if (c->cpay_cin)
		pgbuf_consume(&c->cin, 1 + pg_get_u32(c->cin.data + 1));
	c->cpay_cin = false;
	c->cpay = NULL;
	c->cpay_len = 0;
}

static void
sink_init(PgSink *s, ResultSink *rs, PgConn *c)
{
	memset(s, 0, sizeof *s);
	s->c = c;
	rs->ctx = s;
	rs->columns = sink_columns;
	rs->batch = sink_batch;
	rs->complete = sink_complete;
	rs->notice = sink_notice;
	rs->copy_out_begin = sink_copy_out_begin;
	rs->copy_out_data = sink_copy_out_data;
	rs->copy_out_end = sink_copy_out_end;
	if (c->read) {
		rs->copy_in_begin = sink_copy_in_begin;
		rs->copy_in_read = sink_copy_in_read;
	}
}

/* ---- statements and portals -------------------------------------------- */

static PgStmt *
find_stmt(PgConn *c, const char *name)
{
	PgStmt *s;
	for (s = c->stmts; s; s = s->next)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

static PgPortal *
find_portal(PgConn *c, const char *name)
{
	PgPortal *p;
	for (p = c->portals; p; p = p->next)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static void
drop_portal(PgConn *c, PgPortal *p)
{
	PgPortal **pp;
	for (pp = &c->portals; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	pgbuf_dispose(&p->rows);
	arena_free(p->arena);
}

static void
drop_all_portals(PgConn *c)
{
	while (c->portals)
		drop_portal(c, c->portals);
}

static void
drop_stmt(PgConn *c, PgStmt *s)
{
	PgStmt **ps;
	PgPortal *p, *next;
	/* closing a statement closes the portals made from it */
	for (p = c->portals; p; p = next) {
		next = p->next;
		if (p->stmt == s)
			drop_portal(c, p);
	}
	for (ps = &c->stmts; *ps; ps = &(*ps)->next)
		if (*ps == s) {
			*ps = s->next;
			break;
		}
	arena_free(s->arena);
}

/* The highest $n in sql, skipping literals, quoted names and comments. */
static int
max_param_ref(const char *s)
{
	int max = 0;
	const char *start = s;
	while (*s) {
		if (*s == '\'' || *s == '"') {
			/* E'...' honours backslash escapes; '' and "" stay inside */
			bool esc = *s == '\'' && s > start && (s[-1] == 'E' || s[-1] == 'e') &&
				   (s - 1 == start || !(isalnum((unsigned char)s[-2]) || s[-2] == '_'));
			char q = *s++;
			while (*s && *s != q) {
				if (esc && *s == '\\' && s[1])
					s++;
				s++;
			}
			if (*s)
				s++;
		} else if ((isalnum((unsigned char)*s) || *s == '_' || (unsigned char)*s >= 0x80)) {
			/* an identifier or number: a '$' inside it is not a parameter */
			while (isalnum((unsigned char)*s) || *s == '_' || *s == '$' || (unsigned char)*s >= 0x80)
				s++;
		} else if (s[0] == '-' && s[1] == '-') {
			while (*s && *s != '\n')
				s++;
		} else if (s[0] == '/' && s[1] == '*') {
			s += 2;
			while (*s && !(s[0] == '*' && s[1] == '/'))
				s++;
			if (*s)
				s += 2;
		} else if (*s == '$' && s[1] >= '0' && s[1] <= '9') {
			long v = 0;
			s++;
			while (*s >= '0' && *s <= '9') {
				if (v < 100000)
					v = v * 10 + (*s - '0');
				s++;
			}
			if (v > max && v <= 65535)
				max = (int)v;
		} else if (*s == '$') {
			/* dollar quoting: $tag$ ... $tag$ */
			const char *t = s + 1;
			while ((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || *t == '_' ||
			       (*t >= '0' && *t <= '9'))
				t++;
			if (*t == '$') {
				size_t tl = (size_t)(t - s) + 1;
				const char *end = t + 1;
				while (*end && strncmp(end, s, tl) != 0)
					end++;
				s = *end ? end + tl : end;
			} else {
				s++;
			}
		} else {
			s++;
		}
	}
	return max;
}

/* DEALLOCATE [PREPARE] { name | ALL } [;] — prepared statements live in
 * this connection, so pgwire runs it (psycopg sends DEALLOCATE ALL after
 * DDL).  Returns 0 when sql is something else, 1 (name copied, lower-cased
 * unless quoted) or 2 for ALL. */
static int
dealloc_stmt(const char *sql, Arena *a, char **name)
{
	const char *s = sql, *w;
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (strncasecmp(s, "deallocate", 10) != 0 || !strchr(" \t\n\r", s[10]) || !s[10])
		return 0;
	s += 10;
	while (*s && strchr(" \t\n\r", *s))
		s++;
	if (!strncasecmp(s, "prepare", 7) && s[7] && strchr(" \t\n\r", s[7])) {
		s += 7;
		while (*s && strchr(" \t\n\r", *s))
			s++;
	}
	if (*s == '"') {
		w = ++s;
		while (*s && *s != '"')
			s++;
		if (!*s)
			return 0;
		*name = arena_strndup(a, w, (size_t)(s - w));
		s++;
	} else {
		w = s;
		while (*s && (isalnum((unsigned char)*s) || *s == '_' || (unsigned char)*s >= 0x80))
			s++;
		n = (size_t)(s - w);
		if (!n)
			return 0;
		*name = arena_strndup(a, w, n);
		for (n = 0; (*name)[n]; n++)
			(*name)[n] = (char)tolower((unsigned char)(*name)[n]);
	}
	while (*s && strchr(" \t\n\r;", *s))
		s++;
	if (*s)
		return 0;
	return strcmp(*name, "all") == 0 && w[-1] != '"' ? 2 : 1;
}

/* Run a DEALLOCATE; `keep` (the statement running it) survives ALL. */
static int
run_dealloc(PgConn *c, int kind, const char *name, PgStmt *keep, floe_error *err)
{
	PgStmt *s, *next;
	size_t m;
	if (kind == 2) {
		for (s = c->stmts; s; s = next) {
			next = s->next;
			if (s != keep && s->name[0])
				drop_stmt(c, s);
		}
	} else {
		if (!(s = find_stmt(c, name)) || !name[0])
			return floe_errorf(err, SQLSTATE_INVALID_SQL_STATEMENT_NAME,
					   "prepared statement \"%s\" does not exist", name);
		if (s == keep)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "a prepared statement cannot deallocate itself");
		drop_stmt(c, s);
	}
	m = pgbuf_begin(&c->out, 'C');
	pgbuf_cstr(&c->out, kind == 2 ? "DEALLOCATE ALL" : "DEALLOCATE");
	pgbuf_end(&c->out, m);
	return FLOE_OK;
}

/* ---- messages ---------------------------------------------------------- */

/* An error inside the extended protocol: report it, skip until Sync. */
static int
ext_error(PgConn *c, const floe_error *err)
{
	send_error(c, err, "ERROR");
	c->state = PG_FAILED;
	return FLOE_OK;
}

static int
bad_format(PgConn *c, bool extended)
{
	floe_error e;
	floe_errorf(&e, ERRCODE_PROTOCOL_VIOLATION, "invalid message format");
	if (extended)
		return ext_error(c, &e);
	send_error(c, &e, "ERROR");
	return FLOE_OK;
}

static int
simple_query(PgConn *c, PgReader *r)
{
	const char *sql = pgreader_cstr(r);
	floe_error err;
	PgSink s;
	ResultSink rs;
	PgStmt *u;
	char *dname = NULL;
	int kind;

	if (r->bad || pgreader_left(r)) {
		bad_format(c, false);
		send_ready(c);
		return FLOE_OK;
	}
	/* a simple query drops the unnamed statement and portal */
	if ((u = find_stmt(c, "")))
		drop_stmt(c, u);
	drop_all_portals(c);
	c->cancel = 0;
	if (check_utf8(sql, &err) != FLOE_OK) {
		send_error(c, &err, "ERROR");
	} else if ((kind = dealloc_stmt(sql, c->scratch, &dname)) != 0) {
		if (run_dealloc(c, kind, dname, NULL, &err) != FLOE_OK)
			send_error(c, &err, "ERROR");
	} else {
		sink_init(&s, &rs, c);
		s.simple = true;
		floe_error_clear(&err);
		if (c->be->exec(c->be->ctx, c->session, sql, -1, NULL, NULL, &rs, &err) != FLOE_OK)
			send_error(c, &err, "ERROR");
		copy_in_finish(c);
	}
	arena_reset(c->scratch);
	send_ready(c);
	return FLOE_OK;
}

static int
parse_msg(PgConn *c, PgReader *r)
{
	const char *name = pgreader_cstr(r), *sql = pgreader_cstr(r);
	int n = pgreader_int16(r), i, nmax;
	floe_error err;
	PgStmt *s;
	Arena *a;

	if (r->bad || n < 0 || pgreader_left(r) != (size_t)n * 4)
		return bad_format(c, true);
	if (check_utf8(sql, &err) != FLOE_OK || check_utf8(name, &err) != FLOE_OK)
		return ext_error(c, &err);
	if (name[0] && find_stmt(c, name)) {
		floe_errorf(&err, SQLSTATE_DUPLICATE_PSTATEMENT, "prepared statement \"%s\" already exists", name);
		return ext_error(c, &err);
	}
	a = arena_new(4096);
	s = ARENA_NEW(a, PgStmt);
	s->arena = a;
	s->name = arena_strdup(a, name);
	s->sql = arena_strdup(a, sql);
	nmax = max_param_ref(sql);
	s->nparams = n > nmax ? n : nmax;
	s->oids = ARENA_ARRAY(a, uint32_t, s->nparams + 1);
	for (i = 0; i < n; i++)
		s->oids[i] = (uint32_t)pgreader_int32(r);
	if ((s->dealloc = dealloc_stmt(sql, a, &s->dealloc_name)) != 0) {
		s->desc.nstmts = 1;
		s->desc.ncols = -1;
	} else if (floe_error_clear(&err), c->be->describe(c->be->ctx, c->session, s->sql, s->nparams, s->oids, a, &s->desc, &err) != FLOE_OK) {
		arena_free(a);
		return ext_error(c, &err);
	}
	s->pdesc = ARENA_ARRAY(a, uint32_t, s->nparams + 1);
	for (i = 0; i < s->nparams; i++) {
		if (s->oids[i] && s->oids[i] != 705)
			s->pdesc[i] = s->oids[i];
		else if (i < s->desc.nparams && s->desc.param_types[i].id != TYPE_NULL)
			s->pdesc[i] = col_oid(s->desc.param_types[i]);
		else
			s->pdesc[i] = 25;
	}
	if (!name[0] && (s->next = NULL, find_stmt(c, "")))
		drop_stmt(c, find_stmt(c, ""));
	s->next = c->stmts;
	c->stmts = s;
	send_empty(c, '1');
	return FLOE_OK;
}

static int
bind_msg(PgConn *c, PgReader *r)
{
	const char *pname = pgreader_cstr(r), *sname = pgreader_cstr(r);
	int nfmt, nparams, nres, i;
	int16_t *pfmt;
	floe_error err;
	PgStmt *s;
	PgPortal *p;
	Arena *a;

	nfmt = pgreader_int16(r);
	if (r->bad || nfmt < 0 || pgreader_left(r) < (size_t)nfmt * 2)
		return bad_format(c, true);
	if (check_utf8(pname, &err) != FLOE_OK || check_utf8(sname, &err) != FLOE_OK)
		return ext_error(c, &err);
	if (!(s = find_stmt(c, sname))) {
		if (sname[0])
			floe_errorf(&err, SQLSTATE_INVALID_SQL_STATEMENT_NAME,
				    "prepared statement \"%s\" does not exist", sname);
		else
			floe_errorf(&err, SQLSTATE_INVALID_SQL_STATEMENT_NAME,
				    "unnamed prepared statement does not exist");
		return ext_error(c, &err);
	}
	if (pname[0] && find_portal(c, pname)) {
		floe_errorf(&err, SQLSTATE_DUPLICATE_CURSOR, "cursor \"%s\" already exists", pname);
		return ext_error(c, &err);
	}
	a = arena_new(4096);
	pfmt = ARENA_ARRAY(a, int16_t, nfmt + 1);
	for (i = 0; i < nfmt; i++)
		pfmt[i] = pgreader_int16(r);
	nparams = pgreader_int16(r);
	if (r->bad || nparams < 0) {
		arena_free(a);
		return bad_format(c, true);
	}
	if (nfmt > 1 && nfmt != nparams) {
		arena_free(a);
		floe_errorf(&err, ERRCODE_PROTOCOL_VIOLATION,
			    "bind message has %d parameter formats but %d parameters", nfmt, nparams);
		return ext_error(c, &err);
	}
	if (nparams != s->nparams) {
		arena_free(a);
		floe_errorf(&err, ERRCODE_PROTOCOL_VIOLATION,
			    "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
			    nparams, s->name, s->nparams);
		return ext_error(c, &err);
	}
	p = ARENA_NEW(a, PgPortal);
	p->arena = a;
	p->name = arena_strdup(a, pname);
	p->stmt = s;
	p->nparams = nparams;
	p->values = ARENA_ARRAY(a, char *, nparams + 1);
	pgbuf_init(&p->rows);
	for (i = 0; i < nparams; i++) {
		int32_t len = pgreader_int32(r);
		const uint8_t *bytes;
		int fmt = nfmt == 0 ? 0 : pfmt[nfmt == 1 ? 0 : i];
		if (r->bad || len < -1)
			goto badfmt;
		if (len == -1)
			continue;
		if (!(bytes = pgreader_bytes(r, (size_t)len)))
			goto badfmt;
		if (fmt == 0) {
			/* pg_client_to_server: valid UTF-8, no NUL (22021) */
			if (text_validate_utf8((const char *)bytes, (size_t)len, &err) != FLOE_OK)
				goto param_fail;
			p->values[i] = arena_strndup(a, (const char *)bytes, (size_t)len);
		} else if (fmt == 1) {
			/* an unspecified parameter arrives in the binary form of
			 * the type ParameterDescription gave it (its context's,
			 * else text), as PostgreSQL resolves it at Parse */
			uint32_t oid = s->oids[i] && s->oids[i] != 705 ? s->oids[i] :
				       s->pdesc ? s->pdesc[i] : s->oids[i];
			if (!(p->values[i] = binary_param_text(c, a, oid, bytes, (size_t)len, i, &err)))
				goto param_fail;
		} else {
			floe_errorf(&err, ERRCODE_INVALID_PARAMETER_VALUE, "unsupported format code: %d", fmt);
			goto param_fail;
		}
	}
	nres = pgreader_int16(r);
	if (r->bad || nres < 0 || pgreader_left(r) != (size_t)nres * 2)
		goto badfmt;
	p->nformats = nres;
	p->formats = ARENA_ARRAY(a, int16_t, nres + 1);
	for (i = 0; i < nres; i++) {
		p->formats[i] = pgreader_int16(r);
		if (p->formats[i] != 0 && p->formats[i] != 1) {
			floe_errorf(&err, ERRCODE_INVALID_PARAMETER_VALUE, "unsupported format code: %d",
				    p->formats[i]);
			goto fail;
		}
	}
	if (nres > 1 && nres != (s->desc.ncols < 0 ? 0 : s->desc.ncols)) {
		floe_errorf(&err, ERRCODE_PROTOCOL_VIOLATION,
			    "bind message has %d result formats but query has %d columns", nres,
			    s->desc.ncols < 0 ? 0 : s->desc.ncols);
		goto fail;
	}
	if (!pname[0] && find_portal(c, ""))
		drop_portal(c, find_portal(c, ""));
	p->next = c->portals;
	c->portals = p;
	send_empty(c, '2');
	return FLOE_OK;
badfmt:
	pgbuf_dispose(&p->rows);
	arena_free(a);
	return bad_format(c, true);
param_fail:
	/* PostgreSQL's bind_param_error_callback */
	if (pname[0])
		floe_error_context(&err, "portal \"%s\" parameter $%d", pname, i + 1);
	else
		floe_error_context(&err, "unnamed portal parameter $%d", i + 1);
fail:
	pgbuf_dispose(&p->rows);
	arena_free(a);
	return ext_error(c, &err);
}

/* RowDescription (or NoData) of a statement, with a portal's formats */
static void
describe_rows(PgConn *c, PgStmt *s, PgPortal *p)
{
	int16_t *fmts = NULL;
	int i;
	if (s->desc.ncols < 0) {
		send_empty(c, 'n');
		return;
	}
	if (p && p->nformats) {
		fmts = arena_alloc(c->scratch, sizeof(int16_t) * (size_t)(s->desc.ncols + 1));
		for (i = 0; i < s->desc.ncols; i++)
			fmts[i] = p->formats[p->nformats == 1 ? 0 : i];
	}
	send_row_description(c, s->desc.ncols, s->desc.names, s->desc.types, fmts);
	arena_reset(c->scratch);
}

/* Describe of a portal that is an SQL cursor (DECLARE name CURSOR ...,
 * as PostgreSQL's portals are: psycopg 3's server-side cursors describe
 * it after the DECLARE): its RowDescription, from describing a FETCH of
 * it; false when the session has no such cursor. */
static bool
sql_cursor_rows(PgConn *c, const char *name)
{
	PgStmt st;
	floe_error err;
	Arena *a = arena_new(4096);
	char *q = arena_alloc(a, strlen(name) * 2 + 32), *o;
	const char *i;
	bool ok;

	o = q + sprintf(q, "FETCH 0 FROM \"");
	for (i = name; *i; i++) {
		if (*i == '"')
			*o++ = '"';
		*o++ = *i;
	}
	strcpy(o, "\"");
	memset(&st, 0, sizeof st);
	floe_error_clear(&err);
	ok = c->be->describe(c->be->ctx, c->session, q, 0, NULL, a, &st.desc, &err) == FLOE_OK &&
	     st.desc.ncols >= 0;
	if (ok)
		describe_rows(c, &st, NULL);
	arena_free(a);
	return ok;
}

static int
describe_msg(PgConn *c, PgReader *r)
{
	int kind = pgreader_byte(r);
	const char *name = pgreader_cstr(r);
	floe_error err;

	if (r->bad || pgreader_left(r))
		return bad_format(c, true);
	if (check_utf8(name, &err) != FLOE_OK)
		return ext_error(c, &err);
	if (kind == 'S') {
		PgStmt *s = find_stmt(c, name);
		size_t m;
		int i;
		if (!s) {
			floe_errorf(&err, SQLSTATE_INVALID_SQL_STATEMENT_NAME,
				    "prepared statement \"%s\" does not exist", name);
			return ext_error(c, &err);
		}
		m = pgbuf_begin(&c->out, 't');
		pgbuf_int16(&c->out, (int16_t)s->nparams);
		for (i = 0; i < s->nparams; i++)
			pgbuf_int32(&c->out, (int32_t)s->pdesc[i]);
		pgbuf_end(&c->out, m);
		describe_rows(c, s, NULL);
		return FLOE_OK;
	}
	if (kind == 'P') {
		PgPortal *p = find_portal(c, name);
		if (!p && name[0] && sql_cursor_rows(c, name))
			return FLOE_OK;
		if (!p) {
			floe_errorf(&err, SQLSTATE_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", name);
			return ext_error(c, &err);
		}
		describe_rows(c, p->stmt, p);
		return FLOE_OK;
	}
	floe_errorf(&err, ERRCODE_PROTOCOL_VIOLATION, "invalid DESCRIBE message subtype %d", kind);
	return ext_error(c, &err);
}

static void
send_tag(PgConn *c, const char *tag)
{
	size_t m = pgbuf_begin(&c->out, 'C');
	pgbuf_cstr(&c->out, tag);
	pgbuf_end(&c->out, m);
}

static int
execute_msg(PgConn *c, PgReader *r)
{
	const char *name = pgreader_cstr(r);
	int32_t maxrows = pgreader_int32(r);
	floe_error err;
	PgPortal *p;
	PgSink s;
	ResultSink rs;
	int64_t sent = 0;

	if (r->bad || pgreader_left(r))
		return bad_format(c, true);
	if (check_utf8(name, &err) != FLOE_OK)
		return ext_error(c, &err);
	if (!(p = find_portal(c, name))) {
		floe_errorf(&err, SQLSTATE_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", name);
		return ext_error(c, &err);
	}
	if (!p->started && p->stmt->dealloc) {
		p->started = p->done = true;
		snprintf(p->tag, sizeof p->tag, "%s", p->stmt->dealloc == 2 ? "DEALLOCATE ALL" : "DEALLOCATE");
		if (run_dealloc(c, p->stmt->dealloc, p->stmt->dealloc_name, p->stmt, &err) != FLOE_OK)
			return ext_error(c, &err);
		return FLOE_OK;
	}
	if (!p->started) {
		int rc;
		p->started = true;
		c->cancel = 0;
		sink_init(&s, &rs, c);
		s.portal = p;
		s.into = maxrows > 0 ? &p->rows : NULL;
		floe_error_clear(&err);
		rc = c->be->exec(c->be->ctx, c->session, p->stmt->sql, p->nparams,
				 (const char *const *)p->values, p->stmt->oids, &rs, &err);
		copy_in_finish(c);
		arena_reset(c->scratch);
		if (rc != FLOE_OK) {
			p->done = true;
			return ext_error(c, &err);
		}
		snprintf(p->tag, sizeof p->tag, "%s", s.tag);
		if (!s.into) {
			/* streamed: CommandComplete / EmptyQueryResponse already sent */
			p->done = true;
			return FLOE_OK;
		}
	} else if (p->done) {
		/* re-executing a finished portal fetches nothing more */
		if (!strncmp(p->tag, "SELECT", 6))
			send_tag(c, "SELECT 0");
		else
			send_tag(c, p->tag);
		return FLOE_OK;
	}
	while (p->cursor < p->rows.len && (maxrows <= 0 || sent < maxrows)) {
		size_t l = 1 + pg_get_u32(p->rows.data + p->cursor + 1);
		pgbuf_append(&c->out, p->rows.data + p->cursor, l);
		p->cursor += l;
		sent++;
		maybe_flush(c);
	}
	if (p->cursor < p->rows.len) {
		send_empty(c, 's');
		return FLOE_OK;
	}
	p->done = true;
	pgbuf_dispose(&p->rows);
	if (!p->tag[0]) {
		send_empty(c, 'I');
	} else if (!strncmp(p->tag, "SELECT", 6)) {
		char tag[64];
		snprintf(tag, sizeof tag, "SELECT %lld", (long long)sent);
		send_tag(c, tag);
	} else {
		send_tag(c, p->tag);
	}
	return FLOE_OK;
}

static int
close_msg(PgConn *c, PgReader *r)
{
	int kind = pgreader_byte(r);
	const char *name = pgreader_cstr(r);
	floe_error err;

	if (r->bad || pgreader_left(r))
		return bad_format(c, true);
	if (check_utf8(name, &err) != FLOE_OK)
		return ext_error(c, &err);
	if (kind == 'S') {
		PgStmt *s = find_stmt(c, name);
		if (s)
			drop_stmt(c, s);
	} else if (kind == 'P') {
		PgPortal *p = find_portal(c, name);
		if (p)
			drop_portal(c, p);
	} else {
		floe_errorf(&err, ERRCODE_PROTOCOL_VIOLATION, "invalid CLOSE message subtype %d", kind);
		return ext_error(c, &err);
	}
	send_empty(c, '3');
	return FLOE_OK;
}

/* ---- startup ----------------------------------------------------------- */

/* SET "name" TO 'value' in the session (name: len bytes). */
static int
set_setting(PgConn *c, const char *name, size_t len, const char *value, floe_error *err)
{
	char set[2400];
	size_t o = 0, i;
	const char *v;

	o += (size_t)snprintf(set, sizeof set, "SET \"");
	for (i = 0; i < len && o < 1100; i++) {
		if (name[i] == '"')
			set[o++] = '"';
		set[o++] = name[i];
	}
	o += (size_t)snprintf(set + o, sizeof set - o, "\" TO '");
	for (v = value; *v && o < sizeof set - 4; v++) {
		if (*v == '\'')
			set[o++] = '\'';
		set[o++] = *v;
	}
	set[o++] = '\'';
	set[o] = 0;
	floe_error_clear(err);
	return c->be->exec(c->be->ctx, c->session, set, -1, NULL, NULL, NULL, err);
}

/* The startup packet's other settings (PostgreSQL: after the options
 * parameter's -c switches, so they win). */
static int
apply_startup_settings(PgConn *c, floe_error *err)
{
	int i;

	for (i = 0; i < c->nstartup; i++)
		if (set_setting(c, c->startup_keys[i], strlen(c->startup_keys[i]), c->startup_vals[i],
				err) != FLOE_OK)
			return FLOE_ERR;
	return FLOE_OK;
}

/* Apply "-c name=value" / "--name=value" words of the options parameter. */
static int
apply_options(PgConn *c, const char *opts, floe_error *err)
{
	char word[1024];
	const char *s = opts;
	bool want_c = false;

	while (*s) {
		size_t n = 0;
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		while (*s && *s != ' ' && *s != '\t') {
			if (*s == '\\' && s[1])
				s++;
			if (n < sizeof word - 1)
				word[n++] = *s;
			s++;
		}
		word[n] = 0;
		if (!strcmp(word, "-c")) {
			want_c = true;
			continue;
		}
		{
			const char *kv = want_c ? word : !strncmp(word, "-c", 2) ? word + 2 :
					 !strncmp(word, "--", 2) ? word + 2 : NULL;
			const char *eq = kv ? strchr(kv, '=') : NULL;
			want_c = false;
			if (!kv || !eq || eq == kv)
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "invalid command-line argument for server process: %s", word);
			if (set_setting(c, kv, (size_t)(eq - kv), eq + 1, err) != FLOE_OK)
				return FLOE_ERR;
		}
	}
	return FLOE_OK;
}

static int finish_startup(PgConn *c);

/* A wrong password: FATAL 28P01 (never naming the password), counted. */
static int
auth_fail(PgConn *c)
{
	floe_error err;
	floe_errorf(&err, ERRCODE_INVALID_PASSWORD, "password authentication failed for user \"%s\"", c->user);
	if (c->be->auth_failed)
		c->be->auth_failed(c->be->ctx, c->io, c->user);
	send_error(c, &err, "FATAL");
	c->state = PG_CLOSED;
	return FLOE_ERR;
}

/* PasswordMessage for the cleartext and md5 methods. */
static int
password_msg(PgConn *c, PgReader *r)
{
	const char *pw = pgreader_cstr(r);
	bool ok;

	if (r->bad || pgreader_left(r))
		return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid password packet size");
	if (!pw[0])
		return fatal(c, ERRCODE_INVALID_PASSWORD, "empty password returned by client");
	if (c->auth_method == PGAUTH_MD5)
		ok = auth_md5_check(c->auth->md5, c->md5_salt, pw);
	else
		ok = auth_password_check(c->auth->has_scram ? &c->auth->scram : NULL, c->auth->md5, c->user, pw);
	/* the password's bytes stay in `in` until consumed: wipe them */
	memset((char *)pw, 0, strlen(pw));
	OPENSSL_cleanse(c->auth, sizeof *c->auth);
	free(c->auth);
	c->auth = NULL;
	if (!ok)
		return auth_fail(c);
	return finish_startup(c);
}

/* SASLInitialResponse (step 0) and SASLResponse (step 1) of SCRAM-SHA-256. */
static int
auth_msg(PgConn *c, char type, PgReader *r)
{
	char reply[SCRAM_MSG_MAX];
	floe_error err;
	const uint8_t *data;
	size_t n, m;
	int rc;

	if (type != 'p') {
		char msg[80];
		snprintf(msg, sizeof msg, "expected %s response, got message type %d",
			 c->auth_method == PGAUTH_SCRAM ? "SASL" : "password", (unsigned char)type);
		return fatal(c, ERRCODE_PROTOCOL_VIOLATION, msg);
	}
	if (c->auth_method == PGAUTH_PASSWORD || c->auth_method == PGAUTH_MD5)
		return password_msg(c, r);
	if (c->auth_step == 0) {
		const char *mech = pgreader_cstr(r);
		int32_t len = pgreader_int32(r);
		if (r->bad || len < 0 || (size_t)len != pgreader_left(r))
			return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid SASL initial response");
		bool plus = c->cbind_len && !strcmp(mech, "SCRAM-SHA-256-PLUS");
		if (!plus && strcmp(mech, "SCRAM-SHA-256") != 0)
			return fatal(c, ERRCODE_PROTOCOL_VIOLATION,
				     "client selected an invalid SASL authentication mechanism");
		data = pgreader_bytes(r, (size_t)len);
		n = (size_t)len;
		rc = scram_server_first_cb(c->scram, &c->scram->v, plus, c->cbind, c->cbind_len, data, n,
					   reply, sizeof reply, &err);
	} else {
		n = pgreader_left(r);
		data = pgreader_bytes(r, n);
		rc = scram_server_final(c->scram, data, n, reply, sizeof reply, &err);
	}
	if (rc != FLOE_OK) {
		if (floe_error_is(&err, ERRCODE_INVALID_PASSWORD))
			return auth_fail(c);
		send_error(c, &err, "FATAL");
		c->state = PG_CLOSED;
		return FLOE_ERR;
	}
	m = pgbuf_begin(&c->out, 'R');
	pgbuf_int32(&c->out, c->auth_step == 0 ? 11 : 12);   /* SASLContinue / SASLFinal */
	pgbuf_append(&c->out, reply, strlen(reply));
	pgbuf_end(&c->out, m);
	if (c->auth_step++ == 0)
		return FLOE_OK;
	free(c->scram);
	c->scram = NULL;
	return finish_startup(c);
}

static int
startup_packet(PgConn *c, PgReader *r)
{
	uint32_t code = (uint32_t)pgreader_int32(r);
	const char *user = NULL, *database = NULL, *app = "", *options = NULL;
	const char *unknown[16];
	int nunknown = 0;
	floe_error err;
	size_t m;

	if (r->bad)
		return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid length of startup packet");
	if (code == 80877103 || code == 80877104) {        /* SSLRequest, GSSENCRequest */
		if (pgreader_left(r))
			return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid length of startup packet");
		if (code == 80877103 && c->be->tls_start && !c->tls) {
			/* bytes sent after the request before the handshake would be
			 * taken as encrypted input (CVE-2021-23214) */
			if (c->in_rest)
				return fatal(c, ERRCODE_PROTOCOL_VIOLATION,
					     "received unencrypted data after SSL request");
			pgbuf_byte(&c->out, 'S');
			if (pgwire_flush(c) != 0 || c->be->tls_start(c->be->ctx, c->io) != 0) {
				c->state = PG_CLOSED;
				return FLOE_ERR;
			}
			c->tls = true;
			return FLOE_OK;
		}
		pgbuf_byte(&c->out, 'N');
		pgwire_flush(c);
		return FLOE_OK;
	}
	if (code == 80877102) {                          /* CancelRequest */
		int32_t pid = pgreader_int32(r), key = pgreader_int32(r);
		if (!r->bad && !pgreader_left(r))
			c->be->cancel(c->be->ctx, pid, key);
		c->state = PG_CLOSED;
		return FLOE_OK;
	}
	if (code >> 16 != 3) {
		snprintf(err.message, sizeof err.message,
			 "unsupported frontend protocol %u.%u: server supports 3.0 to 3.0",
			 code >> 16, code & 0xffff);
		return fatal(c, ERRCODE_FEATURE_NOT_SUPPORTED, err.message);
	}
	for (;;) {
		const char *k = pgreader_cstr(r), *v;
		if (r->bad)
			return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid startup packet layout: expected terminator as last byte");
		if (!k[0])
			break;
		v = pgreader_cstr(r);
		if (r->bad)
			return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid startup packet layout: expected terminator as last byte");
		if (check_utf8(k, &err) != FLOE_OK || check_utf8(v, &err) != FLOE_OK) {
			send_error(c, &err, "FATAL");
			c->state = PG_CLOSED;
			return FLOE_ERR;
		}
		if (!strcmp(k, "user"))
			user = v;
		else if (!strcmp(k, "database"))
			database = v;
		else if (!strcmp(k, "application_name"))
			app = v;
		else if (!strcmp(k, "options"))
			options = v;
		else if (!strncmp(k, "_pq_.", 5)) {
			if (nunknown < 16)
				unknown[nunknown++] = k;
		} else if (strcasecmp(k, "timezone") != 0 && strcmp(k, "replication") != 0) {
			/* TimeZone: server.c sets it when the session opens */
			if (c->nstartup == PGWIRE_MAX_STARTUP_SETTINGS)
				return fatal(c, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					     "too many settings in the startup packet");
			c->startup_keys[c->nstartup] = arena_strdup(c->arena, k);
			c->startup_vals[c->nstartup++] = arena_strdup(c->arena, v);
		}
	}
	if (pgreader_left(r))
		return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid startup packet layout: expected terminator as last byte");
	if (!user || !user[0])
		return fatal(c, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
			     "no PostgreSQL user name specified in startup packet");
	if ((code & 0xffff) > 0 || nunknown) {
		int i;
		/* NegotiateProtocolVersion: newest version supported (PostgreSQL
		 * 15 sends the whole version word, 3.0) and the options ignored */
		m = pgbuf_begin(&c->out, 'v');
		pgbuf_int32(&c->out, 196608);
		pgbuf_int32(&c->out, nunknown);
		for (i = 0; i < nunknown; i++)
			pgbuf_cstr(&c->out, unknown[i]);
		pgbuf_end(&c->out, m);
	}
	snprintf(c->user, sizeof c->user, "%s", user);
	c->database = arena_strdup(c->arena, database && database[0] ? database : user);
	c->app = arena_strdup(c->arena, app);
	c->options = options ? arena_strdup(c->arena, options) : NULL;
	if (c->be->auth) {
		PgAuthInfo *a = xcalloc(1, sizeof *a);
		int how;
		floe_error_clear(&err);
		how = c->be->auth(c->be->ctx, c->io, user, a, &err);
		if (how < 0) {
			free(a);
			send_error(c, &err, "FATAL");
			c->state = PG_CLOSED;
			return FLOE_ERR;
		}
		c->auth_method = (PgAuthMethod)how;
		if (how == PGAUTH_PASSWORD || how == PGAUTH_MD5) {
			/* AuthenticationCleartextPassword (3) / MD5Password (5) + salt */
			c->auth = a;
			m = pgbuf_begin(&c->out, 'R');
			pgbuf_int32(&c->out, how == PGAUTH_MD5 ? 5 : 3);
			if (how == PGAUTH_MD5) {
				if (RAND_bytes(c->md5_salt, 4) != 1)
					memset(c->md5_salt, 0x5a, 4);
				pgbuf_append(&c->out, c->md5_salt, 4);
			}
			pgbuf_end(&c->out, m);
			c->state = PG_AUTH;
			return FLOE_OK;
		}
		if (how == PGAUTH_SCRAM) {
			/* AuthenticationSASL: the mechanisms we offer */
			c->scram = xcalloc(1, sizeof *c->scram);
			c->scram->v = a->scram;
			OPENSSL_cleanse(a, sizeof *a);
			free(a);
			c->auth_step = 0;
			m = pgbuf_begin(&c->out, 'R');
			pgbuf_int32(&c->out, 10);
			if (c->tls && c->be->tls_cbind)
				c->cbind_len = c->be->tls_cbind(c->be->ctx, c->io, c->cbind, sizeof c->cbind);
			if (c->cbind_len > sizeof c->cbind)
				c->cbind_len = 0;
			if (c->cbind_len)
				pgbuf_cstr(&c->out, "SCRAM-SHA-256-PLUS");
			pgbuf_cstr(&c->out, "SCRAM-SHA-256");
			pgbuf_byte(&c->out, 0);
			pgbuf_end(&c->out, m);
			c->state = PG_AUTH;
			return FLOE_OK;
		}
		free(a);
	}
	return finish_startup(c);
}

/* After authentication: the session, AuthenticationOk, ParameterStatus,
 * BackendKeyData, ReadyForQuery. */
static int
finish_startup(PgConn *c)
{
	floe_error err;
	size_t m;
	const char *user = c->user, *app = c->app, *options = c->options;

	floe_error_clear(&err);
	c->session = c->be->session_open(c->be->ctx, user, c->database, &c->cancel, &err);
	if (!c->session) {
		send_error(c, &err, "FATAL");
		c->state = PG_CLOSED;
		return FLOE_ERR;
	}
	if (app && app[0]) {
		/* application_name from the startup packet, as SET would */
		char set[600];
		size_t o = (size_t)snprintf(set, sizeof set, "SET application_name TO '");
		const char *v;
		for (v = app; *v && o < sizeof set - 4; v++) {
			if (*v == '\'')
				set[o++] = '\'';
			set[o++] = *v;
		}
		set[o++] = '\'';
		set[o] = 0;
		floe_error_clear(&err);
		if (c->be->exec(c->be->ctx, c->session, set, -1, NULL, NULL, NULL, &err) != FLOE_OK)
			floe_error_clear(&err);
	}
	if ((options && apply_options(c, options, &err) != FLOE_OK) ||
	    apply_startup_settings(c, &err) != FLOE_OK) {
		send_error(c, &err, "FATAL");
		c->state = PG_CLOSED;
		return FLOE_ERR;
	}
	/* AuthenticationOk (trust is loopback only: server.c refuses other
	 * addresses unless SCRAM users are configured) */
	m = pgbuf_begin(&c->out, 'R');
	pgbuf_int32(&c->out, 0);
	pgbuf_end(&c->out, m);
	report_settings(c, true);     /* application_name, DateStyle, ... */
	send_parameter_status(c, "default_transaction_read_only", "off");
	send_parameter_status(c, "in_hot_standby", "off");
	send_parameter_status(c, "integer_datetimes", "on");
	send_parameter_status(c, "is_superuser", "on");
	send_parameter_status(c, "server_encoding", "UTF8");
	send_parameter_status(c, "server_version", "15.0");
	send_parameter_status(c, "session_authorization", user);
	send_parameter_status(c, "standard_conforming_strings", "on");
	snprintf(c->timezone, sizeof c->timezone, "%s",
		 datetime_timezone_name() ? datetime_timezone_name() : "UTC");
	send_parameter_status(c, "TimeZone", c->timezone);
	m = pgbuf_begin(&c->out, 'K');
	pgbuf_int32(&c->out, c->pid);
	pgbuf_int32(&c->out, c->key);
	pgbuf_end(&c->out, m);
	c->state = PG_READY;
	send_ready(c);
	return FLOE_OK;
}

/* ---- dispatch ---------------------------------------------------------- */

static size_t
limit_of(char type)
{
	switch (type) {
	case 'Q': case 'P': case 'B': case 'F': case 'd':
		return PGWIRE_MAX_LARGE;
	case 'E': case 'D': case 'C': case 'S': case 'H': case 'X': case 'c': case 'f':
		return PGWIRE_MAX_SMALL;
	default:
		return 0;       /* unknown */
	}
}

static int
message(PgConn *c, char type, PgReader *r)
{
	floe_error err;

	if (type == 'X') {
		c->state = PG_CLOSED;
		return FLOE_OK;
	}
	if (c->state == PG_FAILED && type != 'S')
		return FLOE_OK;
	/* A CancelRequest that arrived while the connection was between
	 * messages has nothing to cancel: drop it (PostgreSQL ignores a cancel
	 * while it reads a command), so it cannot fail the next Parse, Bind or
	 * Describe, whose binding polls the flag. */
	if (type != 'd' && type != 'c' && type != 'f')
		c->cancel = 0;
	switch (type) {
	case 'Q': return simple_query(c, r);
	case 'P': return parse_msg(c, r);
	case 'B': return bind_msg(c, r);
	case 'D': return describe_msg(c, r);
	case 'E': return execute_msg(c, r);
	case 'C': return close_msg(c, r);
	case 'H':
		pgwire_flush(c);
		return FLOE_OK;
	case 'S':
		/* portals live until the transaction ends (pgjdbc's fetch size
		 * runs Execute n again after a Sync inside a block) */
		if (!c->be->txn_status || !c->session || c->be->txn_status(c->be->ctx, c->session) == 'I')
			drop_all_portals(c);
		c->state = PG_READY;
		send_ready(c);
		return FLOE_OK;
	case 'd': case 'c': case 'f':
		return FLOE_OK;     /* COPY data outside COPY: ignored, as PostgreSQL does */
	case 'F':
		floe_errorf(&err, ERRCODE_FEATURE_NOT_SUPPORTED, "function call messages are not supported");
		return ext_error(c, &err);
	default:
		return fatal(c, ERRCODE_PROTOCOL_VIOLATION, "invalid frontend message type");
	}
}

int
pgwire_feed(PgConn *c, const void *bytes, size_t n)
{
	size_t off = 0;

	if (c->state == PG_CLOSED)
		return 1;
	pgbuf_append(&c->in, bytes, n);
	while (c->state != PG_CLOSED && !c->write_failed) {
		const uint8_t *p = c->in.data + off;
		size_t left = c->in.len - off, len, max;
		char type;
		int fr;
		PgReader r;

		if (!left && c->cin.len) {
			/* bytes read during a COPY FROM STDIN: process them now */
			pgbuf_append(&c->in, c->cin.data, c->cin.len);
			pgbuf_reset(&c->cin);
			continue;
		}
		if (!left)
			break;
		if (c->state == PG_STARTUP) {
			max = PGWIRE_MAX_STARTUP;
		} else if (c->state == PG_AUTH) {
			max = PGWIRE_MAX_SMALL;
		} else {
			max = limit_of((char)p[0]);
			if (!max) {
				char msg[64];
				snprintf(msg, sizeof msg, "invalid frontend message type %d", p[0]);
				fatal(c, ERRCODE_PROTOCOL_VIOLATION, msg);
				break;
			}
		}
		fr = pgmsg_frame(p, left, c->state == PG_STARTUP, max, &type, &len);
		if (fr < 0) {
			fatal(c, ERRCODE_PROTOCOL_VIOLATION,
			      c->state == PG_STARTUP ? "invalid length of startup packet" : "invalid message length");
			break;
		}
		if (fr == 0)
			break;
		if (c->state == PG_STARTUP) {
			pgreader_init(&r, p + 4, len - 4);
			c->in_rest = left - len;
			startup_packet(c, &r);
		} else if (c->state == PG_AUTH) {
			pgreader_init(&r, p + 5, len - 5);
			auth_msg(c, type, &r);
		} else {
			pgreader_init(&r, p + 5, len - 5);
			c->in_next = off + len;
			message(c, type, &r);
			off = c->in_next;   /* a COPY FROM STDIN reads on */
			continue;
		}
		off += len;
	}
	pgbuf_consume(&c->in, off);
	pgwire_flush(c);
	return c->state == PG_CLOSED || c->write_failed ? 1 : 0;
}

void
pgwire_set_reader(PgConn *c, ssize_t (*read)(void *io, void *p, size_t cap))
{
	c->read = read;
}

PgConn *
pgwire_conn_new(const PgwireBackend *backend, void *io, int32_t pid, int32_t key)
{
	PgConn *c = xcalloc(1, sizeof *c);
	c->be = backend;
	c->io = io;
	c->pid = pid;
	c->key = key;
	c->state = PG_STARTUP;
	pgbuf_init(&c->in);
	pgbuf_init(&c->out);
	c->scratch = arena_new(64 * 1024);
	c->arena = arena_new(4096);
	return c;
}

void
pgwire_conn_free(PgConn *c)
{
	if (!c)
		return;
	drop_all_portals(c);
	while (c->stmts)
		drop_stmt(c, c->stmts);
	if (c->session)
		c->be->session_close(c->be->ctx, c->session);
	pgbuf_dispose(&c->in);
	pgbuf_dispose(&c->out);
	pgbuf_dispose(&c->cin);
	arena_free(c->scratch);
	arena_free(c->arena);
	free(c->scram);
	free(c->auth);
	free(c);
}

volatile int *
pgwire_cancel_flag(PgConn *c)
{
	return &c->cancel;
}

PgState
pgwire_state(const PgConn *c)
{
	return c->state;
}

void *
pgwire_session(const PgConn *c)
{
	return c->session;
}

void
pgwire_terminate(PgConn *c, const char *sqlstate, const char *msg)
{
	if (c->state == PG_CLOSED)
		return;
	fatal(c, sqlstate, msg);
	pgwire_flush(c);
}
