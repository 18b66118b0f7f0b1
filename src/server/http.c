/*
 * http.c — the HTTP listener of `floe serve` (http.h): a libmicrohttpd
 * daemon with a thread per connection (a statement blocks only its own
 * connection, as pgwire's threads do), bound to the pgwire --host
 * (127.0.0.1 by default), HTTPS when the server has a certificate.
 *
 * A request is gathered whole (headers, then the body up to
 * HTTP_MAX_BODY; a larger Content-Length is refused at once with 413),
 * authenticated (http_auth.c), then routed:
 *   /v1/query, /v1/sessions...     the query API (http_query.c)
 *   /iceberg/...                   the Iceberg REST catalog (http_iceberg.c)
 * Anything else is 404 in the query API's error form.  Every response is
 * built in memory and sent with its length (no partial responses); a
 * handler never sees bytes that are not a whole request.
 *
 * Invariants:
 *   1. The body buffer of a request lives in its connection's con_cls
 *      (ReqState) from the first call to request_done.
 *   2. Nothing here holds a lock across a handler: the handlers lock what
 *      they share (http_session.c, http_auth.c).
 *
 * INTERFACE ROUTINES: see http.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/arena.h"
#include "server/http_internal.h"

typedef struct ReqState {
	HttpBuf body;
	bool too_big;
} ReqState;

const char *
http_header(HttpReq *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

const char *
http_arg(HttpReq *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result
send_resp(struct MHD_Connection *conn, HttpResp *resp)
{
	struct MHD_Response *r;
	enum MHD_Result ok;
	size_t len = resp->body.len;
	char *p = resp->body.p;
	int i;
	if (!p)
		p = xstrdup("");
	r = MHD_create_response_from_buffer(len, p, MHD_RESPMEM_MUST_FREE);
	resp->body.p = NULL;
	if (!r)
		return MHD_NO;
	if (resp->content_type && resp->status != 204)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, resp->content_type);
	for (i = 0; i < resp->nheaders; i++) {
		MHD_add_response_header(r, resp->hname[i], resp->hvalue[i]);
		free(resp->hname[i]);
		free(resp->hvalue[i]);
	}
	resp->nheaders = 0;
	ok = MHD_queue_response(conn, (unsigned)resp->status, r);
	MHD_destroy_response(r);
	return ok;
}

static bool
is_iceberg(const char *path)
{
	return !strncmp(path, "/iceberg/", 9) || !strcmp(path, "/iceberg");
}

static void
route(HttpReq *req, HttpResp *resp)
{
	floe_error err;
	char user[256];
	memset(&err, 0, sizeof err);
	if (is_iceberg(req->path)) {
		http_iceberg(req, resp);      /* authenticates itself (its token endpoint) */
		return;
	}
	if (http_auth(req, user, sizeof user, &err) != FLOE_OK) {
		http_sql_error(resp, &err);
		resp->status = 401;
		http_resp_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Basic realm=\"floe\", charset=\"UTF-8\"");
		return;
	}
	if (!strcmp(req->path, "/v1/query")) {
		http_query(req, resp);
		return;
	}
	if (!strncmp(req->path, "/v1/sessions", 12) && (!req->path[12] || req->path[12] == '/')) {
		http_sessions(req, resp);
		return;
	}
	floe_errorf(&err, ERRCODE_FEATURE_NOT_SUPPORTED, "no such endpoint: %s %.200s", req->method,
		    req->path);
	floe_error_hint(&err, "The query API is POST /v1/query (docs/http.md).");
	http_sql_error(resp, &err);
	resp->status = 404;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	   const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
	HttpServer *srv = cls;
	ReqState *st = *con_cls;
	HttpReq req;
	HttpResp resp;
	enum MHD_Result ok;
	(void)version;

	if (!st) {
		const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							     MHD_HTTP_HEADER_CONTENT_LENGTH);
		st = xcalloc(1, sizeof *st);
		st->body.limit = HTTP_MAX_BODY;
		*con_cls = st;
		if (cl && strtoull(cl, NULL, 10) > HTTP_MAX_BODY)
			st->too_big = true;
		else
			return MHD_YES;    /* wait for the body */
	}
	if (*upload_size) {
		hbuf_put(&st->body, upload_data, *upload_size);
		if (st->body.overflow)
			st->too_big = true;
		*upload_size = 0;
		if (!st->too_big)
			return MHD_YES;
	}
	memset(&req, 0, sizeof req);
	memset(&resp, 0, sizeof resp);
	resp.content_type = "application/json";
	if (st->too_big) {
		floe_error err;
		memset(&err, 0, sizeof err);
		floe_errorf(&err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
			    "the request body is larger than %u MB", HTTP_MAX_BODY >> 20);
		if (is_iceberg(url)) {
			resp.status = 413;
			hbuf_printf(&resp.body, "{\"error\": {\"message\": \"request body too large\", "
				    "\"type\": \"BadRequestException\", \"code\": 413}}\n");
		} else {
			http_sql_error(&resp, &err);
		}
		http_resp_header(&resp, MHD_HTTP_HEADER_CONNECTION, "close");
		return send_resp(conn, &resp);
	}
	req.srv = srv;
	req.conn = conn;
	req.method = method;
	req.path = url;
	req.body = st->body.p ? st->body.p : "";
	req.body_len = st->body.len;
	route(&req, &resp);
	ok = send_resp(conn, &resp);
	hbuf_free(&resp.body);
	return ok;
}

static void
request_done(void *cls, struct MHD_Connection *conn, void **con_cls,
	     enum MHD_RequestTerminationCode toe)
{
	ReqState *st = *con_cls;
	(void)cls;
	(void)conn;
	(void)toe;
	if (st) {
		hbuf_free(&st->body);
		free(st);
		*con_cls = NULL;
	}
}

static void
log_mhd(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	(void)fmt;
	(void)ap;       /* libmicrohttpd's chatter (client resets ...) is not ours */
}

static char *
read_file(const char *path, floe_error *err)
{
	FILE *f = fopen(path, "rb");
	HttpBuf b;
	char chunk[4096];
	size_t n;
	memset(&b, 0, sizeof b);
	if (!f) {
		floe_errorf(err, "F0000", "could not read \"%s\": %s", path, strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		hbuf_put(&b, chunk, n);
	fclose(f);
	if (!b.p)
		b.p = xstrdup("");
	return b.p;
}

static struct MHD_Daemon *
start_daemon(HttpServer *h, const HttpConfig *cfg, const struct sockaddr *sa)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
			 MHD_USE_ERROR_LOG;
	unsigned limit = cfg->max_connections > 0 ? (unsigned)cfg->max_connections : 500;
	if (sa->sa_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (h->tls_cert_pem)
		return MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, on_request, h,
					MHD_OPTION_SOCK_ADDR, sa,
					MHD_OPTION_CONNECTION_LIMIT, limit,
					MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
					MHD_OPTION_NOTIFY_COMPLETED, request_done, h,
					MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
					MHD_OPTION_HTTPS_MEM_CERT, h->tls_cert_pem,
					MHD_OPTION_HTTPS_MEM_KEY, h->tls_key_pem,
					MHD_OPTION_HTTPS_PRIORITIES, "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2",
					MHD_OPTION_END);
	return MHD_start_daemon(flags, 0, NULL, NULL, on_request, h,
				MHD_OPTION_SOCK_ADDR, sa,
				MHD_OPTION_CONNECTION_LIMIT, limit,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
				MHD_OPTION_NOTIFY_COMPLETED, request_done, h,
				MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
				MHD_OPTION_END);
}

int
http_start(HttpServer **out, Engine *engine, const HttpConfig *cfg, floe_error *err)
{
	HttpServer *h;
	struct sockaddr_storage ss;
	const char *host = cfg->host ? cfg->host : "127.0.0.1";
	const union MHD_DaemonInfo *di;

	*out = NULL;
	memset(&ss, 0, sizeof ss);
	if (!strcmp(host, "localhost"))
		host = "127.0.0.1";
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)&ss)->sin_addr) == 1) {
		ss.ss_family = AF_INET;
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)cfg->port);
	} else if (inet_pton(AF_INET6, host, &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1) {
		ss.ss_family = AF_INET6;
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)cfg->port);
	} else {
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "the HTTP server needs a numeric --host address, not \"%s\"", host);
	}
	if (cfg->port < 0 || cfg->port > 65535)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid --http-port %d", cfg->port);
	h = xcalloc(1, sizeof *h);
	h->engine = engine;
	h->trust = !cfg->auth_method || !strcmp(cfg->auth_method, "trust");
	h->users_file = cfg->users_file ? xstrdup(cfg->users_file) : NULL;
	h->users_required = cfg->users_required;
	h->warehouse = xstrdup(cfg->warehouse ? cfg->warehouse : "");
	if (cfg->tls_cert) {
		if (!(h->tls_cert_pem = read_file(cfg->tls_cert, err)) ||
		    !(h->tls_key_pem = read_file(cfg->tls_key, err)))
			goto fail;
	}
	h->tokens = http_tokens_new();
	h->sessions = hsess_new(engine, cfg->max_sessions, cfg->session_idle);
	if (!h->sessions) {
		floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "could not start the HTTP session watchdog");
		goto fail;
	}
	h->d = start_daemon(h, cfg, (struct sockaddr *)&ss);
	if (!h->d && cfg->port_fallback && cfg->port) {
		if (ss.ss_family == AF_INET)
			((struct sockaddr_in *)&ss)->sin_port = 0;
		else
			((struct sockaddr_in6 *)&ss)->sin6_port = 0;
		h->d = start_daemon(h, cfg, (struct sockaddr *)&ss);
		h->fell_back = h->d != NULL;
	}
	if (!h->d) {
		floe_errorf(err, "08006" /* connection_failure */,
			    "could not start the HTTP server on %s port %d%s", host, cfg->port,
			    h->tls_cert_pem ? " (TLS: is the certificate/key valid?)" : " (is the port in use?)");
		floe_error_hint(err, "Pass another --http-port, 0 for any free port, or --http-port off.");
		goto fail;
	}
	di = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	h->port = di ? di->port : cfg->port;
	*out = h;
	return FLOE_OK;
fail:
	http_stop(h);
	return FLOE_ERR;
}

int
http_port(const HttpServer *h)
{
	return h->port;
}

bool
http_fell_back(const HttpServer *h)
{
	return h->fell_back;
}

void
http_stop(HttpServer *h)
{
	if (!h)
		return;
	if (h->d)
		MHD_stop_daemon(h->d);    /* joins every connection thread */
	hsess_free(h->sessions);
	http_tokens_free(h->tokens);
	free(h->users_file);
	free(h->warehouse);
	free(h->tls_cert_pem);
	if (h->tls_key_pem) {
		memset(h->tls_key_pem, 0, strlen(h->tls_key_pem));
		free(h->tls_key_pem);
	}
	free(h);
}
