/*
 * http_query.c — the HTTP query API (docs/http.md):
 *
 *   POST /v1/query      {"sql": "...", "params": [...], "watermark": "..."}
 *     -> 200 {"columns": [{"name", "type"}], "rows": [[...]], "command": "SELECT 2",
 *             "watermark": "..."}          (application/json, the default)
 *     -> 200 text/csv                      (Accept: text/csv: a header line, then rows)
 *     -> 4xx/5xx {"error": {"sqlstate", "message", ...}}   (http_buf.c maps the status)
 *   POST /v1/sessions                     -> 201 {"session_id": "..."}
 *   DELETE /v1/sessions/ID                -> 204 (an open block is rolled back)
 *   POST /v1/sessions/ID/cancel           -> 202 (the running statement fails 57014)
 *
 * Statements run through the engine's session layer (sql/engine.h) like
 * pgwire's: the session's user and its privileges, its settings (SET
 * persists in a named session), statement_timeout (armed per request on
 * the session's cancel flag, http_session.c), transaction blocks (BEGIN
 * in one request, COMMIT in a later one, with x-floe-session-id).
 *
 * Values: SQL NULL is null; boolean true/false; smallint/integer/bigint
 * and finite real/double precision JSON numbers (their PostgreSQL text is
 * a valid JSON number, so nothing is rounded); every other value, and
 * NaN/Infinity, a string in PostgreSQL's text output form.  params: null,
 * strings, numbers (integers as written, other numbers in shortest
 * round-trip form) and booleans, bound as $1..$n of unknown type (the
 * context types them, as pgwire's unspecified parameters); arrays and
 * objects are refused (22023) rather than guessed.
 *
 * Several statements in one "sql" (no params) run in order; the answer is
 * the last statement's, with "commands" listing every tag.  A request
 * without a session that leaves a transaction block open fails (25000):
 * its block is rolled back with the one-shot session.
 *
 * Watermark: a request whose statements committed answers "watermark"
 * (sql/watermark.h: "schema.table:sequence-number,..."); a request that
 * passes one waits (up to "watermark_wait_ms", default 10 s; 55000 after)
 * until every table it names is at that sequence number before running,
 * so it observes the write.
 *
 * Bad input: bodies over HTTP_MAX_BODY are 413 (54000); bodies that are
 * not a JSON object, unknown keys, wrong member types 400 (08P01 for a
 * malformed body, 22023 for a bad member); results over HTTP_MAX_RESULT
 * 413 (54000).  Accept naming only Arrow IPC
 * (application/vnd.apache.arrow.stream/.file) or other types is 406
 * (0A000 / 22023) naming what is served.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/arena.h"
#include "server/http_internal.h"
#include "types/text.h"
#include "types/types.h"

#define WATERMARK_WAIT_MS 10000
#define MAX_PARAMS 65535

enum { FMT_JSON, FMT_CSV };
enum { K_STRING, K_RAW, K_BOOL, K_FLOAT };

typedef struct QuerySink {
	int fmt;
	Arena *scratch;
	HttpBuf cols;          /* JSON: the "columns" array; CSV: the header line */
	HttpBuf rows;          /* JSON: the rows, comma-separated; CSV: lines */
	int ncols;
	int *kind;
	bool has_cols;         /* the current statement returned columns */
	uint64_t nrows;
	HttpBuf tags;          /* JSON strings, comma-separated */
	int ntags;
	char last_tag[128];
	bool too_big;
} QuerySink;

static void
csv_field(HttpBuf *b, const char *s, size_t n)
{
	size_t i;
	bool quote = n == 0;
	for (i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		hbuf_put(b, s, n);
		return;
	}
	hbuf_put(b, "\"", 1);
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			hbuf_put(b, "\"", 1);
		hbuf_put(b, s + i, 1);
	}
	hbuf_put(b, "\"", 1);
}

static int
sink_columns(void *ctx, int ncols, const char *const *names, const SqlType *types)
{
	QuerySink *q = ctx;
	int i;
	q->cols.len = 0;
	q->rows.len = 0;
	q->nrows = 0;
	q->has_cols = true;
	q->ncols = ncols;
	free(q->kind);
	q->kind = xcalloc((size_t)ncols + 1, sizeof *q->kind);
	for (i = 0; i < ncols; i++) {
		char tn[128];
		TypeId id = types[i].id;
		q->kind[i] = id == TYPE_BOOL ? K_BOOL
			: (id == TYPE_INT16 || id == TYPE_INT32 || id == TYPE_INT64) ? K_RAW
			: (id == TYPE_FLOAT32 || id == TYPE_FLOAT64) ? K_FLOAT : K_STRING;
		if (q->fmt == FMT_CSV) {
			if (i)
				hbuf_put(&q->cols, ",", 1);
			csv_field(&q->cols, names[i], strlen(names[i]));
			continue;
		}
		type_name(types[i], tn, sizeof tn);
		hbuf_puts(&q->cols, i ? ", {\"name\": " : "{\"name\": ");
		hbuf_json_str(&q->cols, names[i], strlen(names[i]));
		hbuf_puts(&q->cols, ", \"type\": ");
		hbuf_json_str(&q->cols, tn, strlen(tn));
		hbuf_puts(&q->cols, "}");
	}
	if (q->fmt == FMT_CSV)
		hbuf_put(&q->cols, "\n", 1);
	return 0;
}

static bool
json_number_text(const char *t)
{
	return strcmp(t, "NaN") != 0 && strcmp(t, "Infinity") != 0 && strcmp(t, "-Infinity") != 0;
}

static int
sink_batch(void *ctx, const Batch *b)
{
	QuerySink *q = ctx;
	uint32_t r;
	int i;
	for (r = 0; r < b->count; r++) {
		uint32_t row = b->sel ? b->sel[r] : r;
		if (q->fmt == FMT_JSON)
			hbuf_puts(&q->rows, q->nrows ? ",\n[" : "[");
		for (i = 0; i < b->ncols && i < q->ncols; i++) {
			size_t len;
			const char *t = vector_value_text(&b->cols[i], row, q->scratch, &len);
			if (q->fmt == FMT_CSV) {
				if (i)
					hbuf_put(&q->rows, ",", 1);
				if (t)
					csv_field(&q->rows, t, len);
				continue;
			}
			if (i)
				hbuf_put(&q->rows, ", ", 2);
			if (!t)
				hbuf_put(&q->rows, "null", 4);
			else if (q->kind[i] == K_BOOL)
				hbuf_puts(&q->rows, t[0] == 't' ? "true" : "false");
			else if (q->kind[i] == K_RAW || (q->kind[i] == K_FLOAT && json_number_text(t)))
				hbuf_put(&q->rows, t, len);
			else
				hbuf_json_str(&q->rows, t, len);
		}
		hbuf_put(&q->rows, q->fmt == FMT_JSON ? "]" : "\n", 1);
		q->nrows++;
		if (q->rows.overflow) {
			q->too_big = true;
			arena_reset(q->scratch);
			return 1;      /* cancels the statement */
		}
	}
	arena_reset(q->scratch);
	return 0;
}

static int
sink_complete(void *ctx, const char *tag)
{
	QuerySink *q = ctx;
	if (!q->has_cols) {      /* the last statement's result is what is answered */
		q->cols.len = 0;
		q->rows.len = 0;
		q->nrows = 0;
		q->ncols = 0;
	}
	q->has_cols = false;
	if (q->ntags++)
		hbuf_puts(&q->tags, ", ");
	hbuf_json_str(&q->tags, tag, strlen(tag));
	snprintf(q->last_tag, sizeof q->last_tag, "%s", tag);
	return 0;
}

static void
sink_notice(void *ctx, const floe_error *n)
{
	(void)ctx;
	(void)n;
}

/* The output format the Accept header asks for; -1 with err (406). */
static int
negotiate(HttpReq *req, floe_error *err)
{
	const char *acc = http_header(req, MHD_HTTP_HEADER_ACCEPT);
	if (!acc || !*acc || strstr(acc, "application/json") || strstr(acc, "*/*") ||
	    strstr(acc, "application/*"))
		return FMT_JSON;
	if (strstr(acc, "text/csv"))
		return FMT_CSV;
	if (strstr(acc, "application/vnd.apache.arrow"))
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "Arrow IPC results (%s) are not supported yet", acc);
	else
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "cannot answer in \"%.100s\"", acc);
	floe_error_hint(err, "Accept application/json or text/csv.");
	return -1;
}

static void
respond_error(HttpResp *resp, const floe_error *err, int status)
{
	http_sql_error(resp, err);
	if (status)
		resp->status = status;
}

/* The parameters of the request as text (NULL = SQL NULL) in a. */
static int
read_params(json_t *params, Arena *a, const char ***values, int *n, floe_error *err)
{
	size_t i, np;
	const char **v;
	if (!json_is_array(params))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "\"params\" must be an array");
	np = json_array_size(params);
	if (np > MAX_PARAMS)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "too many parameters (%zu; at most %d)", np, MAX_PARAMS);
	v = arena_calloc(a, (np + 1) * sizeof *v);
	for (i = 0; i < np; i++) {
		json_t *x = json_array_get(params, i);
		char buf[64];
		if (json_is_null(x)) {
			v[i] = NULL;
		} else if (json_is_string(x)) {
			v[i] = arena_strndup(a, json_string_value(x), json_string_length(x));
		} else if (json_is_integer(x)) {
			snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(x));
			v[i] = arena_strdup(a, buf);
		} else if (json_is_real(x)) {
			text_format_float8(json_real_value(x), buf);
			v[i] = arena_strdup(a, buf);
		} else if (json_is_boolean(x)) {
			v[i] = json_is_true(x) ? "true" : "false";
		} else {
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "params[%zu]: arrays and objects are not supported; pass the value as a string",
					   i);
		}
	}
	*values = v;
	*n = (int)np;
	return FLOE_OK;
}

static void
answer(HttpResp *resp, QuerySink *q, const char *watermark)
{
	resp->status = 200;
	if (q->fmt == FMT_CSV) {
		resp->content_type = "text/csv; charset=utf-8";
		hbuf_put(&resp->body, q->cols.p ? q->cols.p : "", q->cols.len);
		hbuf_put(&resp->body, q->rows.p ? q->rows.p : "", q->rows.len);
		http_resp_header(resp, "x-floe-command", q->last_tag);
		if (watermark[0])
			http_resp_header(resp, "x-floe-watermark", watermark);
		return;
	}
	resp->content_type = "application/json";
	hbuf_puts(&resp->body, "{\"columns\": [");
	hbuf_put(&resp->body, q->cols.p ? q->cols.p : "", q->cols.len);
	hbuf_puts(&resp->body, "],\n\"rows\": [");
	hbuf_put(&resp->body, q->rows.p ? q->rows.p : "", q->rows.len);
	hbuf_puts(&resp->body, "],\n\"command\": ");
	if (q->ntags)
		hbuf_json_str(&resp->body, q->last_tag, strlen(q->last_tag));
	else
		hbuf_puts(&resp->body, "null");
	if (q->ntags > 1) {
		hbuf_puts(&resp->body, ", \"commands\": [");
		hbuf_put(&resp->body, q->tags.p, q->tags.len);
		hbuf_puts(&resp->body, "]");
	}
	if (watermark[0]) {
		hbuf_puts(&resp->body, ", \"watermark\": ");
		hbuf_json_str(&resp->body, watermark, strlen(watermark));
	}
	hbuf_puts(&resp->body, "}\n");
}

/* The session the request runs in, acquired; FLOE_ERR with err. */
static int
get_session(HttpReq *req, HttpSession **hs, floe_error *err)
{
	const char *id = http_header(req, "x-floe-session-id");
	if (id)
		return hsess_acquire(req->srv->sessions, id, req->user, hs, err);
	return hsess_open(req->srv->sessions, req->user, false, hs, err);
}

void
http_query(HttpReq *req, HttpResp *resp)
{
	floe_error err;
	json_error_t jerr;
	json_t *root = NULL, *jsql, *jparams, *jwm, *jwait;
	int wait_ms = WATERMARK_WAIT_MS;
	const char *key, **values = NULL;
	json_t *val;
	int fmt, nparams = -1, rc;
	HttpSession *hs = NULL;
	QuerySink q;
	ResultSink sink;
	Arena *a = NULL;
	char wm[8192];
	bool fired;

	memset(&err, 0, sizeof err);
	memset(&q, 0, sizeof q);
	if (strcmp(req->method, "POST") != 0) {
		floe_errorf(&err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s /v1/query: use POST", req->method);
		respond_error(resp, &err, 405);
		http_resp_header(resp, "Allow", "POST");
		return;
	}
	if ((fmt = negotiate(req, &err)) < 0) {
		respond_error(resp, &err, 406);
		return;
	}
	root = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		floe_errorf(&err, ERRCODE_PROTOCOL_VIOLATION,
			    "the request body is not valid JSON: %s (line %d, column %d)", jerr.text,
			    jerr.line, jerr.column);
		floe_error_hint(&err, "Send {\"sql\": \"...\", \"params\": [...]}.");
		respond_error(resp, &err, 400);
		return;
	}
	if (!json_is_object(root)) {
		floe_errorf(&err, ERRCODE_PROTOCOL_VIOLATION, "the request body must be a JSON object");
		floe_error_hint(&err, "Send {\"sql\": \"...\", \"params\": [...]}.");
		respond_error(resp, &err, 400);
		goto out;
	}
	json_object_foreach(root, key, val) {
		if (strcmp(key, "sql") && strcmp(key, "params") && strcmp(key, "watermark") &&
		    strcmp(key, "watermark_wait_ms")) {
			floe_errorf(&err, ERRCODE_INVALID_PARAMETER_VALUE,
				    "unknown member \"%.100s\" in the request (sql, params, watermark, watermark_wait_ms)",
				    key);
			respond_error(resp, &err, 400);
			goto out;
		}
		(void)val;
	}
	jsql = json_object_get(root, "sql");
	jparams = json_object_get(root, "params");
	jwm = json_object_get(root, "watermark");
	jwait = json_object_get(root, "watermark_wait_ms");
	if (jwait && (!json_is_integer(jwait) || json_integer_value(jwait) < 0 ||
		      json_integer_value(jwait) > 600000)) {
		floe_errorf(&err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "\"watermark_wait_ms\" must be an integer from 0 to 600000");
		respond_error(resp, &err, 400);
		goto out;
	}
	if (jwait)
		wait_ms = (int)json_integer_value(jwait);
	if (!json_is_string(jsql)) {
		floe_errorf(&err, ERRCODE_INVALID_PARAMETER_VALUE,
			    jsql ? "\"sql\" must be a string" : "the request has no \"sql\"");
		respond_error(resp, &err, 400);
		goto out;
	}
	if (jwm && !json_is_string(jwm) && !json_is_null(jwm)) {
		floe_errorf(&err, ERRCODE_INVALID_PARAMETER_VALUE, "\"watermark\" must be a string");
		respond_error(resp, &err, 400);
		goto out;
	}
	a = arena_new(0);
	if (jparams && !json_is_null(jparams) &&
	    read_params(jparams, a, &values, &nparams, &err) != FLOE_OK) {
		respond_error(resp, &err, 0);
		goto out;
	}
	if (get_session(req, &hs, &err) != FLOE_OK) {
		respond_error(resp, &err, 0);
		goto out;
	}
	if (hs->id[0])
		http_resp_header(resp, "x-floe-session-id", hs->id);
	q.fmt = fmt;
	q.scratch = arena_new(0);
	q.rows.limit = HTTP_MAX_RESULT;
	memset(&sink, 0, sizeof sink);
	sink.ctx = &q;
	sink.columns = sink_columns;
	sink.batch = sink_batch;
	sink.complete = sink_complete;
	sink.notice = sink_notice;

	hsess_arm(req->srv->sessions, hs,
		  engine_duration_us(session_setting(hs->s, "statement_timeout")));
	rc = FLOE_OK;
	if (jwm && json_is_string(jwm))
		rc = session_await_watermark(hs->s, json_string_value(jwm), wait_ms, &err);
	if (rc == FLOE_OK)
		rc = nparams < 0 ? session_exec(hs->s, json_string_value(jsql), &sink, &err)
			: session_exec_params(hs->s, json_string_value(jsql), nparams, values, NULL,
					      &sink, &err);
	fired = hsess_disarm(req->srv->sessions, hs);
	if (session_take_watermark(hs->s, wm, sizeof wm) < 0)
		wm[0] = 0;      /* too many tables to name: none rather than a cut one */
	if (rc != FLOE_OK) {
		if (q.too_big)
			floe_errorf(&err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				    "the result is larger than %u MB", HTTP_MAX_RESULT >> 20);
		else if (fired && floe_error_is(&err, ERRCODE_QUERY_CANCELED))
			floe_errorf(&err, ERRCODE_QUERY_CANCELED,
				    "canceling statement due to statement timeout");
		respond_error(resp, &err, 0);
		if (wm[0])   /* earlier statements of the request committed */
			http_resp_header(resp, "x-floe-watermark", wm);
	} else if (!hs->id[0] && session_txn_status(hs->s) != 'I') {
		floe_errorf(&err, "25000" /* invalid_transaction_state */,
			    "a transaction block was left open by a request without a session: it is rolled back");
		floe_error_hint(&err, "Open a session with POST /v1/sessions and send its id in x-floe-session-id.");
		respond_error(resp, &err, 0);
	} else {
		answer(resp, &q, wm);
	}
out:
	if (hs)
		hsess_release(req->srv->sessions, hs);
	hbuf_free(&q.cols);
	hbuf_free(&q.rows);
	hbuf_free(&q.tags);
	free(q.kind);
	arena_free(q.scratch);
	arena_free(a);
	json_decref(root);
}

void
http_sessions(HttpReq *req, HttpResp *resp)
{
	const char *rest = req->path + strlen("/v1/sessions");
	floe_error err;
	HttpSession *hs;
	memset(&err, 0, sizeof err);
	resp->content_type = "application/json";
	if (!*rest || !strcmp(rest, "/")) {
		if (strcmp(req->method, "POST") != 0) {
			floe_errorf(&err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s /v1/sessions: use POST", req->method);
			respond_error(resp, &err, 405);
			http_resp_header(resp, "Allow", "POST");
			return;
		}
		if (hsess_open(req->srv->sessions, req->user, true, &hs, &err) != FLOE_OK) {
			respond_error(resp, &err, 0);
			return;
		}
		resp->status = 201;
		hbuf_printf(&resp->body, "{\"session_id\": \"%s\"}\n", hs->id);
		http_resp_header(resp, "x-floe-session-id", hs->id);
		hsess_release(req->srv->sessions, hs);
		return;
	}
	if (rest[0] == '/') {
		char id[80];
		const char *slash = strchr(rest + 1, '/');
		size_t n = slash ? (size_t)(slash - rest - 1) : strlen(rest + 1);
		if (n >= sizeof id)
			n = sizeof id - 1;
		memcpy(id, rest + 1, n);
		id[n] = 0;
		if (!slash && !strcmp(req->method, "DELETE")) {
			if (hsess_close(req->srv->sessions, id, req->user, &err) != FLOE_OK)
				respond_error(resp, &err, 0);
			else
				resp->status = 204;
			return;
		}
		if (slash && !strcmp(slash, "/cancel") && !strcmp(req->method, "POST")) {
			if (hsess_cancel(req->srv->sessions, id, req->user, &err) != FLOE_OK)
				respond_error(resp, &err, 0);
			else
				resp->status = 202;
			return;
		}
	}
	floe_errorf(&err, ERRCODE_FEATURE_NOT_SUPPORTED, "no such endpoint: %s %.200s", req->method,
		    req->path);
	respond_error(resp, &err, 404);
}
