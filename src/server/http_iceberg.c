/*
 * http_iceberg.c — the Iceberg REST catalog, served under /iceberg (a
 * client's catalog URI is http://host:PORT/iceberg), after apache/iceberg
 * open-api/rest-catalog-open-api.yaml.  The operations themselves are in
 * sql/restcat.c; this file parses requests, routes, and answers the spec's
 * shapes: LoadTableResult, CommitTableResponse, ListNamespacesResponse,
 * ..., errors as ErrorModel {"error": {"message", "type", "code"}}.
 *
 *   GET    /v1/config                                  CatalogConfig
 *   POST   /v1/oauth/tokens                            OAuth2 client_credentials
 *   GET    /v1/{p}namespaces                           list (no nesting: parent -> [])
 *   POST   /v1/{p}namespaces                           create (no properties)
 *   GET|HEAD|DELETE /v1/{p}namespaces/{ns}             load / exists / drop
 *   POST   /v1/{p}namespaces/{ns}/properties           only an empty change (406 else)
 *   GET    /v1/{p}namespaces/{ns}/tables               list
 *   POST   /v1/{p}namespaces/{ns}/tables               create (not staged)
 *   POST   /v1/{p}namespaces/{ns}/register             register a metadata file
 *   GET|HEAD|POST|DELETE /v1/{p}namespaces/{ns}/tables/{t}   load / exists / commit / drop
 *   POST   /v1/{p}namespaces/{ns}/tables/{t}/metrics   204 (reports are not kept)
 *   POST   /v1/{p}transactions/commit                  several tables, all or none
 *   POST   /v1/{p}tables/rename                        ALTER TABLE RENAME TO / SET SCHEMA
 *   GET    /v1/{p}namespaces/{ns}/views                list
 *   POST   /v1/{p}namespaces/{ns}/views                create (CreateViewRequest)
 *   GET|HEAD|POST|DELETE /v1/{p}namespaces/{ns}/views/{v}    load / exists / commit / drop
 *   POST   /v1/{p}views/rename                         ALTER VIEW RENAME TO
 * {p} is empty or "floe/" (the catalog's name); config names no prefix.
 *
 * Authentication: the token endpoint checks client_id / client_secret as a
 * floe user's name and password (http_auth.c) and issues a bearer token;
 * every other endpoint takes that token, HTTP Basic, or nothing under
 * trust, and acts as that user (restcat.h: privileges).
 *
 * Error types by SQLSTATE: 3F000 NoSuchNamespaceException 404; 42P01
 * NoSuchTableException 404 (NoSuchViewException on the view endpoints); 42P06/42P07 AlreadyExistsException 409; 2BP01
 * NamespaceNotEmptyException 409; 55000 (a requirement) and 40001
 * CommitFailedException 409; 08006 CommitStateUnknownException 500; 42501
 * ForbiddenException 403; class 28 NotAuthorizedException 401; 0A000
 * UnsupportedOperationException 406; 22023 / 08P01 / 22P02
 * BadRequestException 400; others ServiceFailureException 500.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "common/arena.h"
#include "server/http_internal.h"
#include "sql/restcat.h"

static void
model_error(HttpResp *resp, int code, const char *type, const char *msg)
{
	json_t *o = json_pack("{s:{s:s,s:s,s:i}}", "error", "message", msg, "type", type, "code", code);
	char *text = json_dumps(o, JSON_COMPACT);
	resp->status = code;
	resp->content_type = "application/json";
	resp->body.len = 0;
	hbuf_puts(&resp->body, text ? text : "{}");
	hbuf_puts(&resp->body, "\n");
	free(text);
	json_decref(o);
}

static void
sql_error(HttpResp *resp, const floe_error *err)
{
	const char *st = err->sqlstate;
	int code = 500;
	const char *type = "ServiceFailureException";
	if (!strcmp(st, "3F000"))
		code = 404, type = "NoSuchNamespaceException";
	else if (!strcmp(st, "42P01"))
		code = 404, type = "NoSuchTableException";
	else if (!strcmp(st, "42P06") || !strcmp(st, "42P07"))
		code = 409, type = "AlreadyExistsException";
	else if (!strcmp(st, "2BP01"))
		code = 409, type = "NamespaceNotEmptyException";
	else if (!strcmp(st, "55000") || !strcmp(st, "40001"))
		code = 409, type = "CommitFailedException";
	else if (!strcmp(st, "08006"))
		code = 500, type = "CommitStateUnknownException";
	else if (!strcmp(st, "42501"))
		code = 403, type = "ForbiddenException";
	else if (!strncmp(st, "28", 2))
		code = 401, type = "NotAuthorizedException";
	else if (!strcmp(st, "0A000"))
		code = 406, type = "UnsupportedOperationException";
	else if (!strncmp(st, "22", 2) || !strcmp(st, "08P01") || !strncmp(st, "42", 2))
		code = 400, type = "BadRequestException";
	model_error(resp, code, type, err->message[0] ? err->message : "internal error");
}

/* sql_error for the view endpoints: a missing view is NoSuchViewException */
static void
view_error(HttpResp *resp, const floe_error *err)
{
	if (!strcmp(err->sqlstate, "42P01"))
		return model_error(resp, 404, "NoSuchViewException",
				   err->message[0] ? err->message : "no such view");
	sql_error(resp, err);
}

static void
send_json(HttpResp *resp, int status, json_t *o)
{
	char *text = json_dumps(o, JSON_COMPACT);
	resp->status = status;
	resp->content_type = "application/json";
	hbuf_puts(&resp->body, text ? text : "{}");
	hbuf_puts(&resp->body, "\n");
	free(text);
	json_decref(o);
}

/* ---- OAuth2 token endpoint (application/x-www-form-urlencoded) ---------- */

static char *
form_value(const char *body, size_t len, const char *key, Arena *a)
{
	size_t klen = strlen(key), i = 0;
	while (i < len) {
		size_t j = i, eq;
		while (j < len && body[j] != '&')
			j++;
		for (eq = i; eq < j && body[eq] != '='; eq++)
			;
		if (eq - i == klen && !memcmp(body + i, key, klen)) {
			char *v = arena_strndup(a, eq < j ? body + eq + 1 : "", eq < j ? j - eq - 1 : 0);
			char *p;
			for (p = v; *p; p++)
				if (*p == '+')
					*p = ' ';
			MHD_http_unescape(v);
			return v;
		}
		i = j + 1;
	}
	return NULL;
}

static void
oauth_error(HttpResp *resp, int code, const char *error, const char *desc)
{
	send_json(resp, code, json_pack("{s:s,s:s}", "error", error, "error_description", desc));
}

static void
token_endpoint(HttpReq *req, HttpResp *resp, Arena *a)
{
	const char *grant, *id, *secret;
	char tok[80];
	floe_error err;
	memset(&err, 0, sizeof err);
	if (strcmp(req->method, "POST") != 0) {
		oauth_error(resp, 405, "invalid_request", "use POST");
		return;
	}
	grant = form_value(req->body, req->body_len, "grant_type", a);
	id = form_value(req->body, req->body_len, "client_id", a);
	secret = form_value(req->body, req->body_len, "client_secret", a);
	if (!grant || strcmp(grant, "client_credentials") != 0) {
		oauth_error(resp, 400, "unsupported_grant_type", "only grant_type=client_credentials is supported");
		return;
	}
	if (!id || !*id || !secret) {
		oauth_error(resp, 400, "invalid_request", "client_id and client_secret are required");
		return;
	}
	if (http_check_password(req, id, secret, &err) != FLOE_OK) {
		oauth_error(resp, 401, "invalid_client", err.message);
		return;
	}
	if (http_token_issue(req->srv, id, tok, sizeof tok) != FLOE_OK) {
		oauth_error(resp, 500, "server_error", "could not issue a token");
		return;
	}
	send_json(resp, 200, json_pack("{s:s,s:s,s:i,s:s}", "access_token", tok, "token_type", "bearer",
				       "expires_in", HTTP_TOKEN_TTL, "issued_token_type",
				       "urn:ietf:params:oauth:token-type:access_token"));
}

/* ---- helpers ---------------------------------------------------------------- */

static json_t *
ns_array(const char *ns)
{
	return json_pack("[s]", ns);
}

/* The single-level namespace of a JSON array ["x"]; NULL with err. */
static const char *
ns_of(json_t *arr, floe_error *err)
{
	if (!json_is_array(arr) || json_array_size(arr) == 0 ||
	    !json_is_string(json_array_get(arr, 0))) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "a namespace is an array of strings");
		return NULL;
	}
	if (json_array_size(arr) > 1) {
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "nested namespaces are not supported (floe's namespaces are schemas)");
		return NULL;
	}
	return json_string_value(json_array_get(arr, 0));
}

static json_t *
parse_body(HttpReq *req, HttpResp *resp)
{
	json_error_t je;
	json_t *o = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &je);
	char msg[300];
	if (!o || !json_is_object(o)) {
		snprintf(msg, sizeof msg, "the request body is not a JSON object%s%s", o ? "" : ": ",
			 o ? "" : je.text);
		json_decref(o);
		model_error(resp, 400, "BadRequestException", msg);
		return NULL;
	}
	return o;
}

static void
load_result(HttpResp *resp, int status, const char *loc, const char *metadata, bool with_config)
{
	json_error_t je;
	json_t *md = json_loads(metadata, 0, &je), *o;
	if (!md) {
		model_error(resp, 500, "ServiceFailureException", "the table's metadata file is not JSON");
		return;
	}
	o = json_pack("{s:s,s:o}", "metadata-location", loc, "metadata", md);
	if (with_config)
		json_object_set_new(o, "config", json_object());
	send_json(resp, status, o);
}

static int32_t
max_field_id(json_t *type)
{
	int32_t m = 0, x;
	json_t *f, *v;
	size_t i;
	if (!json_is_object(type))
		return 0;
	if ((v = json_object_get(type, "fields")) && json_is_array(v))
		json_array_foreach(v, i, f) {
			json_t *id = json_object_get(f, "id");
			if (json_is_integer(id) && json_integer_value(id) > m)
				m = (int32_t)json_integer_value(id);
			if ((x = max_field_id(json_object_get(f, "type"))) > m)
				m = x;
		}
	{
		static const char *const ids[] = { "element-id", "key-id", "value-id" };
		for (i = 0; i < 3; i++) {
			json_t *id = json_object_get(type, ids[i]);
			if (json_is_integer(id) && json_integer_value(id) > m)
				m = (int32_t)json_integer_value(id);
		}
	}
	if ((x = max_field_id(json_object_get(type, "element"))) > m)
		m = x;
	if ((x = max_field_id(json_object_get(type, "key"))) > m)
		m = x;
	if ((x = max_field_id(json_object_get(type, "value"))) > m)
		m = x;
	return m;
}

/* A name as a folder name (table.c's default-location rule). */
static char *
folder(Arena *a, const char *name)
{
	static const char hex[] = "0123456789ABCDEF";
	bool dots = !strcmp(name, ".") || !strcmp(name, "..");
	size_t n = strlen(name), i, o = 0;
	char *out = arena_alloc(a, 3 * n + 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c == '/' || c == '\\' || c == '%' || c < 0x20 || c == 0x7f || (dots && c == '.')) {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = 0;
	return out;
}

static char *
uuid4(Arena *a)
{
	unsigned char b[16];
	int i;
	if (getrandom(b, sizeof b, 0) != sizeof b)
		for (i = 0; i < 16; i++)
			b[i] = (unsigned char)rand();
	b[6] = (unsigned char)((b[6] & 0x0F) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3F) | 0x80);
	return arena_sprintf(a, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			     b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			     b[12], b[13], b[14], b[15]);
}

/* CreateTableRequest -> the table's first metadata (JSON text), or NULL
 * with err. */
static char *
first_metadata(Session *s, const char *ns, json_t *req, Arena *a, const char **name, floe_error *err)
{
	json_t *schema = json_object_get(req, "schema"), *spec = json_object_get(req, "partition-spec");
	json_t *order = json_object_get(req, "write-order"), *props = json_object_get(req, "properties");
	json_t *md, *sc, *sp, *so, *pr, *v, *fields;
	const char *loc = NULL, *key;
	int32_t last_pid = 999;
	int fv = 2;
	struct timespec ts;
	char *text, *out;
	size_t i;

	*name = json_string_value(json_object_get(req, "name"));
	if (!*name || !**name) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "CreateTableRequest needs a \"name\"");
		return NULL;
	}
	if (!json_is_object(schema) || !json_is_array(json_object_get(schema, "fields"))) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "CreateTableRequest needs a \"schema\" struct");
		return NULL;
	}
	if (json_is_true(json_object_get(req, "stage-create"))) {
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "staged table creation (stage-create) is not supported");
		return NULL;
	}
	if (json_object_get(req, "location") && !json_is_null(json_object_get(req, "location"))) {
		loc = json_string_value(json_object_get(req, "location"));
		if (!loc || !*loc) {
			floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "\"location\" must be a string");
			return NULL;
		}
	}
	if (!loc)
		loc = arena_sprintf(a, "%s/%s/%s", restcat_warehouse(s), folder(a, ns), folder(a, *name));
	while (strlen(loc) > 1 && loc[strlen(loc) - 1] == '/')
		loc = arena_strndup(a, loc, strlen(loc) - 1);
	if (props && !json_is_object(props)) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "\"properties\" must be an object");
		return NULL;
	}
	pr = json_object();
	json_object_foreach(props, key, v) {
		if (!json_is_string(v)) {
			json_decref(pr);
			floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "property values are strings");
			return NULL;
		}
		if (!strcmp(key, "format-version")) {
			fv = atoi(json_string_value(v));
			if (fv < 1 || fv > 3) {
				json_decref(pr);
				floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "format-version must be 1, 2 or 3");
				return NULL;
			}
			continue;
		}
		json_object_set(pr, key, v);
	}
	sc = json_deep_copy(schema);
	json_object_set_new(sc, "schema-id", json_integer(0));
	sp = json_pack("{s:i,s:[]}", "spec-id", 0, "fields");
	if (spec && !json_is_null(spec)) {
		json_t *f;
		if (!json_is_object(spec) || !json_is_array(fields = json_object_get(spec, "fields"))) {
			json_decref(pr), json_decref(sc), json_decref(sp);
			floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "\"partition-spec\" needs \"fields\"");
			return NULL;
		}
		json_array_foreach(fields, i, f) {
			json_t *c = json_deep_copy(f), *id = json_object_get(f, "field-id");
			int32_t fid = json_is_integer(id) ? (int32_t)json_integer_value(id) : last_pid + 1;
			json_object_set_new(c, "field-id", json_integer(fid));
			if (fid > last_pid)
				last_pid = fid;
			json_array_append_new(json_object_get(sp, "fields"), c);
		}
	}
	if (order && !json_is_null(order)) {
		so = json_deep_copy(order);
		if (!json_is_object(so) || !json_is_integer(json_object_get(so, "order-id")))
			json_object_set_new(so, "order-id",
					    json_integer(json_array_size(json_object_get(so, "fields")) ? 1 : 0));
	} else {
		so = json_pack("{s:i,s:[]}", "order-id", 0, "fields");
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	md = json_pack("{s:i,s:s,s:s,s:i,s:I,s:i,s:i,s:[o],s:i,s:[o],s:i,s:I,s:[o],s:o,s:[],s:[],s:[],s:{}}",
		       "format-version", fv, "table-uuid", uuid4(a), "location", loc,
		       "last-sequence-number", 0, "last-updated-ms",
		       (json_int_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000, "last-column-id",
		       max_field_id(schema), "current-schema-id", 0, "schemas", sc, "default-spec-id", 0,
		       "partition-specs", sp, "last-partition-id", last_pid, "default-sort-order-id",
		       json_integer_value(json_object_get(so, "order-id")), "sort-orders", so,
		       "properties", pr, "snapshots", "snapshot-log", "metadata-log", "refs");
	if (!md) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "could not build the table's metadata");
		return NULL;
	}
	if (fv == 1) {
		json_object_set(md, "schema", sc);
		json_object_set(md, "partition-spec", json_object_get(sp, "fields"));
		json_object_del(md, "last-sequence-number");
		json_object_del(md, "refs");
	}
	if (fv >= 3)
		json_object_set_new(md, "next-row-id", json_integer(0));
	text = json_dumps(md, JSON_INDENT(2));
	json_decref(md);
	out = arena_strdup(a, text ? text : "");
	free(text);
	return out;
}

static int
change_of(json_t *o, RestChange *c, const char *ns, const char *name, floe_error *err)
{
	json_t *ident = json_object_get(o, "identifier");
	memset(c, 0, sizeof *c);
	if (ident) {
		const char *n2 = json_string_value(json_object_get(ident, "name"));
		const char *ns2 = ns_of(json_object_get(ident, "namespace"), err);
		if (!ns2)
			return FLOE_ERR;
		if (!n2)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "an identifier needs a name");
		if (ns && (strcmp(ns, ns2) || strcmp(name, n2)))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "the identifier %s.%s is not the table of the path", ns2, n2);
		ns = ns2;
		name = n2;
	}
	if (!ns)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "each table change needs an identifier");
	c->ns = ns;
	c->name = name;
	c->requirements = json_object_get(o, "requirements");
	c->updates = json_object_get(o, "updates");
	return FLOE_OK;
}

/* ---- routes ------------------------------------------------------------------ */

static bool
is(HttpReq *req, const char *m)
{
	return !strcmp(req->method, m);
}

static void
not_allowed(HttpResp *resp)
{
	model_error(resp, 405, "BadRequestException", "method not allowed on this path");
}

static void
table_routes(HttpReq *req, HttpResp *resp, Session *s, const char *ns, const char *name,
	     const char *rest, Arena *a)
{
	floe_error err;
	char *loc, *md;
	memset(&err, 0, sizeof err);
	if (!strcmp(rest, "/metrics")) {
		if (!is(req, "POST"))
			return not_allowed(resp);
		resp->status = 204;
		return;
	}
	if (*rest) {
		model_error(resp, 404, "NoSuchTableException", "no such endpoint");
		return;
	}
	if (is(req, "GET") || is(req, "HEAD")) {
		const char *snaps = http_arg(req, "snapshots");
		if (snaps && strcmp(snaps, "all") && strcmp(snaps, "refs")) {
			model_error(resp, 400, "BadRequestException", "snapshots must be all or refs");
			return;
		}
		if (restcat_load(s, ns, name, a, &loc, &md, &err) != FLOE_OK)
			return sql_error(resp, &err);
		if (is(req, "HEAD")) {
			resp->status = 204;
			return;
		}
		load_result(resp, 200, loc, md, true);
		return;
	}
	if (is(req, "DELETE")) {
		const char *p = http_arg(req, "purgeRequested");
		if (restcat_drop(s, ns, name, p && !strcmp(p, "true"), &err) != FLOE_OK)
			return sql_error(resp, &err);
		resp->status = 204;
		return;
	}
	if (is(req, "POST")) {
		json_t *o = parse_body(req, resp);
		RestChange c;
		if (!o)
			return;
		if (change_of(o, &c, ns, name, &err) != FLOE_OK || restcat_commit(s, 1, &c, a, &err) != FLOE_OK) {
			json_decref(o);
			return sql_error(resp, &err);
		}
		json_decref(o);
		load_result(resp, 200, c.location, c.metadata, false);
		return;
	}
	not_allowed(resp);
}

/* LoadViewResult */
static void
view_result(HttpResp *resp, const char *loc, const char *metadata)
{
	json_t *md = json_loads(metadata, 0, NULL);
	if (!md)
		return model_error(resp, 500, "ServiceFailureException", "the view's metadata file is not JSON");
	send_json(resp, 200, json_pack("{s:s,s:o,s:{}}", "metadata-location", loc, "metadata", md, "config"));
}

static void
view_routes(HttpReq *req, HttpResp *resp, Session *s, const char *ns, const char *name, Arena *a)
{
	floe_error err;
	char *loc, *md;
	memset(&err, 0, sizeof err);
	if (is(req, "GET") || is(req, "HEAD")) {
		if (restcat_load_view(s, ns, name, a, &loc, &md, &err) != FLOE_OK)
			return view_error(resp, &err);
		if (is(req, "HEAD")) {
			resp->status = 204;
			return;
		}
		return view_result(resp, loc, md);
	}
	if (is(req, "DELETE")) {
		if (restcat_drop_view(s, ns, name, &err) != FLOE_OK)
			return view_error(resp, &err);
		resp->status = 204;
		return;
	}
	if (is(req, "POST")) {
		json_t *o = parse_body(req, resp);
		int rc;
		if (!o)
			return;
		rc = restcat_commit_view(s, ns, name, json_object_get(o, "requirements"),
					 json_object_get(o, "updates"), a, &loc, &md, &err);
		json_decref(o);
		if (rc != FLOE_OK)
			return view_error(resp, &err);
		return view_result(resp, loc, md);
	}
	not_allowed(resp);
}

/* GET / POST /namespaces/{ns}/views */
static void
views_routes(HttpReq *req, HttpResp *resp, Session *s, const char *ns, Arena *a)
{
	floe_error err;
	char **names, *loc, *md;
	int n, i;
	memset(&err, 0, sizeof err);
	if (is(req, "GET")) {
		json_t *arr = json_array();
		if (restcat_list_views(s, ns, a, &names, &n, &err) != FLOE_OK) {
			json_decref(arr);
			return sql_error(resp, &err);
		}
		for (i = 0; i < n; i++)
			json_array_append_new(arr, json_pack("{s:o,s:s}", "namespace", ns_array(ns), "name", names[i]));
		send_json(resp, 200, json_pack("{s:o}", "identifiers", arr));
		return;
	}
	if (is(req, "POST")) {
		json_t *o = parse_body(req, resp), *l;
		const char *name;
		int rc;
		if (!o)
			return;
		name = json_string_value(json_object_get(o, "name"));
		l = json_object_get(o, "location");
		if (!name || !*name || (l && !json_is_null(l) && (!json_is_string(l) || !*json_string_value(l)))) {
			json_decref(o);
			return model_error(resp, 400, "BadRequestException",
					   "a CreateViewRequest needs a name (and a location, if any, is a string)");
		}
		if (!l || json_is_null(l))
			json_object_set_new(o, "location", json_string(arena_sprintf(a, "%s/%s/%s", restcat_warehouse(s),
										       folder(a, ns), folder(a, name))));
		rc = restcat_create_view(s, ns, name, o, a, &loc, &md, &err);
		json_decref(o);
		if (rc != FLOE_OK)
			return sql_error(resp, &err);
		return view_result(resp, loc, md);
	}
	not_allowed(resp);
}

static void
namespace_routes(HttpReq *req, HttpResp *resp, Session *s, const char *rest, Arena *a)
{
	floe_error err;
	char **names;
	int n, i;
	memset(&err, 0, sizeof err);
	if (!*rest) {
		if (is(req, "GET")) {
			const char *parent = http_arg(req, "parent");
			json_t *arr = json_array();
			if (parent) {
				bool exists = false;
				if (restcat_namespace_exists(s, parent, &exists, &err) != FLOE_OK)
					return json_decref(arr), sql_error(resp, &err);
				if (!exists) {
					json_decref(arr);
					return model_error(resp, 404, "NoSuchNamespaceException", "no such namespace");
				}
			} else {
				if (restcat_list_namespaces(s, a, &names, &n, &err) != FLOE_OK)
					return json_decref(arr), sql_error(resp, &err);
				for (i = 0; i < n; i++)
					json_array_append_new(arr, ns_array(names[i]));
			}
			send_json(resp, 200, json_pack("{s:o}", "namespaces", arr));
			return;
		}
		if (is(req, "POST")) {
			json_t *o = parse_body(req, resp), *props;
			const char *ns;
			if (!o)
				return;
			props = json_object_get(o, "properties");
			if (!(ns = ns_of(json_object_get(o, "namespace"), &err))) {
				json_decref(o);
				return sql_error(resp, &err);
			}
			if (props && json_object_size(props) > 0) {
				json_decref(o);
				return model_error(resp, 406, "UnsupportedOperationException",
						   "namespace properties are not supported yet");
			}
			if (restcat_create_namespace(s, ns, &err) != FLOE_OK) {
				json_decref(o);
				return sql_error(resp, &err);
			}
			send_json(resp, 200, json_pack("{s:o,s:{}}", "namespace", ns_array(ns), "properties"));
			json_decref(o);
			return;
		}
		return not_allowed(resp);
	}
	if (rest[0] != '/' || !rest[1]) {
		model_error(resp, 404, "NoSuchNamespaceException", "no such endpoint");
		return;
	}
	{
		const char *seg = rest + 1, *slash = strchr(seg, '/');
		char *ns = arena_strndup(a, seg, slash ? (size_t)(slash - seg) : strlen(seg));
		const char *tail = slash ? slash : "";
		bool exists = false;
		if (strchr(ns, '\x1f'))
			return model_error(resp, 406, "UnsupportedOperationException",
					   "nested namespaces are not supported (floe's namespaces are schemas)");
		if (!*tail) {
			if (is(req, "GET") || is(req, "HEAD")) {
				if (restcat_namespace_exists(s, ns, &exists, &err) != FLOE_OK)
					return sql_error(resp, &err);
				if (!exists)
					return model_error(resp, 404, "NoSuchNamespaceException",
							   "namespace does not exist");
				if (is(req, "HEAD")) {
					resp->status = 204;
					return;
				}
				send_json(resp, 200, json_pack("{s:o,s:{}}", "namespace", ns_array(ns), "properties"));
				return;
			}
			if (is(req, "DELETE")) {
				if (restcat_drop_namespace(s, ns, &err) != FLOE_OK)
					return sql_error(resp, &err);
				resp->status = 204;
				return;
			}
			return not_allowed(resp);
		}
		if (!strcmp(tail, "/properties")) {
			json_t *o;
			if (!is(req, "POST"))
				return not_allowed(resp);
			if (!(o = parse_body(req, resp)))
				return;
			if (json_array_size(json_object_get(o, "removals")) || json_object_size(json_object_get(o, "updates"))) {
				json_decref(o);
				return model_error(resp, 406, "UnsupportedOperationException",
						   "namespace properties are not supported yet");
			}
			json_decref(o);
			if (restcat_namespace_exists(s, ns, &exists, &err) != FLOE_OK)
				return sql_error(resp, &err);
			if (!exists)
				return model_error(resp, 404, "NoSuchNamespaceException", "namespace does not exist");
			send_json(resp, 200, json_pack("{s:[],s:[],s:[]}", "updated", "removed", "missing"));
			return;
		}
		if (!strcmp(tail, "/register")) {
			json_t *o;
			const char *name, *loc;
			char *mloc, *md;
			if (!is(req, "POST"))
				return not_allowed(resp);
			if (!(o = parse_body(req, resp)))
				return;
			name = json_string_value(json_object_get(o, "name"));
			loc = json_string_value(json_object_get(o, "metadata-location"));
			if (!name || !loc) {
				json_decref(o);
				return model_error(resp, 400, "BadRequestException", "name and metadata-location are required");
			}
			if (restcat_register(s, ns, name, loc, &err) != FLOE_OK ||
			    restcat_load(s, ns, name, a, &mloc, &md, &err) != FLOE_OK) {
				json_decref(o);
				return sql_error(resp, &err);
			}
			json_decref(o);
			load_result(resp, 200, mloc, md, true);
			return;
		}
		if (!strcmp(tail, "/tables")) {
			if (is(req, "GET")) {
				json_t *arr = json_array();
				if (restcat_list_tables(s, ns, a, &names, &n, &err) != FLOE_OK) {
					json_decref(arr);
					return sql_error(resp, &err);
				}
				for (i = 0; i < n; i++)
					json_array_append_new(arr, json_pack("{s:o,s:s}", "namespace", ns_array(ns),
									     "name", names[i]));
				send_json(resp, 200, json_pack("{s:o}", "identifiers", arr));
				return;
			}
			if (is(req, "POST")) {
				json_t *o = parse_body(req, resp);
				const char *name;
				char *json, *loc, *md;
				if (!o)
					return;
				if (!(json = first_metadata(s, ns, o, a, &name, &err)) ||
				    restcat_create(s, ns, name, json, a, &loc, &err) != FLOE_OK ||
				    restcat_load(s, ns, name, a, &loc, &md, &err) != FLOE_OK) {
					json_decref(o);
					return sql_error(resp, &err);
				}
				json_decref(o);
				load_result(resp, 200, loc, md, true);
				return;
			}
			return not_allowed(resp);
		}
		if (!strcmp(tail, "/views"))
			return views_routes(req, resp, s, ns, a);
		if (!strncmp(tail, "/views/", 7) && tail[7] && !strchr(tail + 7, '/'))
			return view_routes(req, resp, s, ns, arena_strdup(a, tail + 7), a);
		if (!strncmp(tail, "/tables/", 8) && tail[8]) {
			const char *tseg = tail + 8, *tslash = strchr(tseg, '/');
			char *name = arena_strndup(a, tseg, tslash ? (size_t)(tslash - tseg) : strlen(tseg));
			table_routes(req, resp, s, ns, name, tslash ? tslash : "", a);
			return;
		}
	}
	model_error(resp, 404, "NoSuchNamespaceException", "no such endpoint");
}

static void
transactions_commit(HttpReq *req, HttpResp *resp, Session *s, Arena *a)
{
	json_t *o, *changes, *c;
	RestChange ch[RESTCAT_MAX_TABLES];
	floe_error err;
	size_t i;
	memset(&err, 0, sizeof err);
	if (!is(req, "POST"))
		return not_allowed(resp);
	if (!(o = parse_body(req, resp)))
		return;
	changes = json_object_get(o, "table-changes");
	if (!json_is_array(changes) || !json_array_size(changes) || json_array_size(changes) > RESTCAT_MAX_TABLES) {
		json_decref(o);
		return model_error(resp, 400, "BadRequestException", "table-changes must be an array of 1 to 64 changes");
	}
	json_array_foreach(changes, i, c)
		if (change_of(c, &ch[i], NULL, NULL, &err) != FLOE_OK) {
			json_decref(o);
			return sql_error(resp, &err);
		}
	if (restcat_commit(s, (int)json_array_size(changes), ch, a, &err) != FLOE_OK) {
		json_decref(o);
		return sql_error(resp, &err);
	}
	json_decref(o);
	resp->status = 204;
}

static void
rename_table(HttpReq *req, HttpResp *resp, Session *s, bool view)
{
	json_t *o, *src, *dst;
	const char *ns, *ns2, *n1, *n2;
	floe_error err;
	memset(&err, 0, sizeof err);
	if (!is(req, "POST"))
		return not_allowed(resp);
	if (!(o = parse_body(req, resp)))
		return;
	src = json_object_get(o, "source");
	dst = json_object_get(o, "destination");
	n1 = json_string_value(json_object_get(src, "name"));
	n2 = json_string_value(json_object_get(dst, "name"));
	if (!n1 || !n2) {
		json_decref(o);
		return model_error(resp, 400, "BadRequestException", "source and destination need a name");
	}
	if (!(ns = ns_of(json_object_get(src, "namespace"), &err)) ||
	    !(ns2 = ns_of(json_object_get(dst, "namespace"), &err)) ||
	    (view ? restcat_rename_view : restcat_rename)(s, ns, n1, ns2, n2, &err) != FLOE_OK) {
		json_decref(o);
		return view ? view_error(resp, &err) : sql_error(resp, &err);
	}
	json_decref(o);
	resp->status = 204;
}

void
http_iceberg(HttpReq *req, HttpResp *resp)
{
	const char *p = req->path + strlen("/iceberg");
	Arena *a = arena_new(0);
	floe_error err;
	char user[256];
	HttpSession *hs = NULL;

	memset(&err, 0, sizeof err);
	resp->content_type = "application/json";
	if (!strcmp(p, "/v1/oauth/tokens")) {
		token_endpoint(req, resp, a);
		goto out;
	}
	if (http_auth(req, user, sizeof user, &err) != FLOE_OK) {
		model_error(resp, 401, "NotAuthorizedException", err.message);
		http_resp_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
		goto out;
	}
	if (!strcmp(p, "/v1/config")) {
		const char *wh = http_arg(req, "warehouse");
		if (!is(req, "GET")) {
			not_allowed(resp);
			goto out;
		}
		if (wh && strcmp(wh, "floe") && strcmp(wh, req->srv->warehouse)) {
			model_error(resp, 400, "BadRequestException",
				    "unknown warehouse: this catalog serves \"floe\"");
			goto out;
		}
		send_json(resp, 200, json_pack("{s:{},s:{},s:[sssssssssssssssssssssss]}", "defaults", "overrides",
					       "endpoints", "GET /v1/{prefix}/namespaces",
					       "POST /v1/{prefix}/namespaces",
					       "GET /v1/{prefix}/namespaces/{namespace}",
					       "HEAD /v1/{prefix}/namespaces/{namespace}",
					       "DELETE /v1/{prefix}/namespaces/{namespace}",
					       "POST /v1/{prefix}/namespaces/{namespace}/properties",
					       "GET /v1/{prefix}/namespaces/{namespace}/tables",
					       "POST /v1/{prefix}/namespaces/{namespace}/tables",
					       "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
					       "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
					       "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
					       "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
					       "POST /v1/{prefix}/namespaces/{namespace}/register",
					       "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
					       "POST /v1/{prefix}/transactions/commit", "POST /v1/{prefix}/tables/rename",
					       "GET /v1/{prefix}/namespaces/{namespace}/views",
					       "POST /v1/{prefix}/namespaces/{namespace}/views",
					       "GET /v1/{prefix}/namespaces/{namespace}/views/{view}",
					       "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
					       "POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
					       "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}",
					       "POST /v1/{prefix}/views/rename"));
		goto out;
	}
	if (strncmp(p, "/v1/", 4) != 0) {
		model_error(resp, 404, "NoSuchNamespaceException", "no such endpoint");
		goto out;
	}
	p += 3;
	if (!strncmp(p, "/floe/", 6))
		p += 5;
	if (hsess_open(req->srv->sessions, req->user, false, &hs, &err) != FLOE_OK) {
		sql_error(resp, &err);
		goto out;
	}
	if (!strncmp(p, "/namespaces", 11) && (!p[11] || p[11] == '/'))
		namespace_routes(req, resp, hs->s, p + 11, a);
	else if (!strcmp(p, "/transactions/commit"))
		transactions_commit(req, resp, hs->s, a);
	else if (!strcmp(p, "/tables/rename"))
		rename_table(req, resp, hs->s, false);
	else if (!strcmp(p, "/views/rename"))
		rename_table(req, resp, hs->s, true);
	else
		model_error(resp, 404, "NoSuchNamespaceException", "no such endpoint");
out:
	if (hs)
		hsess_release(req->srv->sessions, hs);
	arena_free(a);
}
