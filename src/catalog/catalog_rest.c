/*
 * catalog_rest.c — an Iceberg REST catalog as floe's catalog (catalog.h),
 * after apache/iceberg open-api/rest-catalog-open-api.yaml, over libcurl
 * and jansson.  Chosen with `--catalog rest+http://host:port/base` (or
 * rest+https://...); the base is the catalog's URI (floe serve's own is
 * http://host:PORT/iceberg).
 *
 * Start: GET {base}/v1/config; the prefix is overrides.prefix, else
 * defaults.prefix, else none; every other path is {base}/v1/{prefix/}....
 * Authentication: FLOE_REST_CREDENTIAL "id:secret" (floe's
 * --catalog-credential sets it) is exchanged at POST {base}/v1/oauth/tokens
 * (grant_type=client_credentials, scope=catalog) for a bearer token, once
 * at open; else FLOE_REST_TOKEN is sent as the bearer token; else none.
 *
 * The mapping of catalog.h:
 *   namespaces       GET/POST /namespaces, HEAD/DELETE /namespaces/{ns}
 *   list_tables      GET /namespaces/{ns}/tables (every page)
 *   load_table       GET /namespaces/{ns}/tables/{t}: metadata-location
 *   create_table     floe has written the first metadata file itself, so
 *                    this is POST /namespaces/{ns}/register {name,
 *                    metadata-location}: the table's head is that file
 *   drop_table       DELETE /namespaces/{ns}/tables/{t}?purgeRequested=false
 *                    (floe removes the files itself, as with every backend)
 *   rename_table     POST /tables/rename {source, destination}
 *   swap_table       the compare-and-swap expected -> new becomes a commit,
 *                    POST /namespaces/{ns}/tables/{t}: both metadata files
 *                    are read (FileIO) and compared (commit_diff):
 *       requirements assert-table-uuid, assert-ref-snapshot-id of every ref
 *                    of the expected file (and main = null when it has no
 *                    snapshot), assert-current-schema-id,
 *                    assert-last-assigned-field-id, assert-default-spec-id,
 *                    assert-last-assigned-partition-id,
 *                    assert-default-sort-order-id: all of the expected
 *                    file's values, so the server accepts the commit only
 *                    on the head floe staged it on;
 *       updates      upgrade-format-version, add-schema, set-current-schema,
 *                    add-spec, set-default-spec, add-sort-order,
 *                    set-default-sort-order, add-snapshot (each new one, in
 *                    order), remove-snapshots, set-snapshot-ref /
 *                    remove-snapshot-ref, set-properties /
 *                    remove-properties, set-location, set-statistics /
 *                    remove-statistics, set-partition-statistics /
 *                    remove-partition-statistics: the difference of the two
 *                    files.  Any other difference (a changed schema or spec
 *                    under an existing id, a changed snapshot, encryption
 *                    keys, an unknown member) is refused by name
 *                    with 0A000 before anything is sent.
 *     The answer's metadata-location is the table's head from then on (the
 *     server wrote its own file; floe's staged file stays unreferenced and
 *     is an orphan for remove_orphan_files).
 *     409 (CommitFailedException) -> 40001: floe's commit loop re-stages on
 *     the new head, as on a lost CAS.  5xx, a timeout or a broken connection
 *     during a commit -> 08006 (the outcome is unknown), as catalog_pg.c.
 *   swap_tables      POST /transactions/commit with one table-change (as
 *                    above) per table: the server applies all or none.
 *   views            when GET /v1/config lists no "endpoints", or lists
 *                    "GET /v1/{prefix}/namespaces/{namespace}/views/{view}":
 *     list_views     GET /namespaces/{ns}/views (every page)
 *     load_view      GET /namespaces/{ns}/views/{v}: metadata-location (404,
 *                    also NoSuchNamespace: 42P01)
 *     create_view    floe has written the first view metadata file: its
 *                    location, current version, that version's schema and
 *                    properties become a CreateViewRequest, POST
 *                    /namespaces/{ns}/views (409: 42P07, a table or view of
 *                    that name); the server writes its own file
 *     swap_view      POST /namespaces/{ns}/views/{v}, the difference of the
 *                    expected and new files (view_diff): requirement
 *                    assert-view-uuid; updates upgrade-format-version,
 *                    add-schema (each new schema-id), set-location,
 *                    set-properties / remove-properties, add-view-version
 *                    (each new version-id, in order), set-current-view-version
 *                    (-1 when it is the one just added).  A changed schema or
 *                    version under an existing id, a changed uuid, any other
 *                    changed member: 0A000 before anything is sent.  Versions
 *                    the new file no longer has are left to the server's
 *                    retention.  409 -> 40001, 5xx -> 08006.
 *     drop_view      DELETE /namespaces/{ns}/views/{v}
 *     rename_view    POST /views/rename {source, destination}
 *                    Otherwise list_views lists none, load_view is 42P01
 *                    and the others 0A000 naming the missing endpoints.
 *   sequences        none (NULL entries: 0A000, catalog.h); floe's
 *                    sequences live in the JDBC catalogs' floe_sequences.
 *
 * HTTP errors: 404 NoSuchNamespace 3F000, NoSuchTable / NoSuchView 42P01 (other 404s by
 * the call: 3F000 for namespace calls, 42P01 for tables); 409
 * AlreadyExists 42P06 (namespace) / 42P07 (table), NamespaceNotEmpty 2BP01,
 * CommitFailed 40001; 401/419 28000; 403 42501; 406 0A000; 400/422 22023;
 * others (and 5xx) 58030, 08006 on a commit; transport errors 08006.
 * The server's ErrorModel message is kept in the error's text.
 *
 * Thread-safe: every request has its own curl easy handle; the token and
 * prefix are fixed at open.
 *
 * INTERFACE ROUTINES
 *   catalog_rest_open(&cat, uri, io, err)   uri without "rest+"
 */
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "storage/fileio.h"

#define REST_TIMEOUT_S 60L
#define REST_CONNECT_TIMEOUT_S 10L

typedef struct RestCatalog {
	Catalog base;
	char *root;      /* {base}/v1/ */
	char *prefix;    /* "" or "p/" */
	char *auth;      /* "Authorization: Bearer ..." or NULL */
	FileIO *io;
	bool views;      /* the server serves views (config's endpoints) */
} RestCatalog;

typedef enum { K_NS, K_TABLE, K_COMMIT, K_VIEW, K_VIEW_COMMIT } CallKind;

typedef struct Body {
	char *data;
	size_t len, cap;
} Body;

static size_t
on_data(char *p, size_t size, size_t n, void *arg)
{
	Body *b = arg;
	size_t k = size * n;
	if (b->len + k + 1 > b->cap) {
		size_t cap = (b->len + k + 1) * 2;
		char *d = realloc(b->data, cap);
		if (!d)
			return 0;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, k);
	b->len += k;
	b->data[b->len] = 0;
	return k;
}

/* An error answer: its SQLSTATE by status and ErrorModel type. */
static int
http_error(long status, const Body *b, CallKind kind, const char *what, floe_error *err)
{
	json_t *j = b->data ? json_loads(b->data, 0, NULL) : NULL;
	json_t *e = json_object_get(j, "error");
	const char *type = json_string_value(json_object_get(e, "type"));
	const char *msg = json_string_value(json_object_get(e, "message"));
	if (json_is_string(e)) {   /* an OAuth2 error answer (RFC 6749 5.2) */
		type = json_string_value(e);
		msg = json_string_value(json_object_get(j, "error_description"));
	}
	bool commit = kind == K_COMMIT || kind == K_VIEW_COMMIT;
	const char *code = commit && status >= 500 ? ERRCODE_CONNECTION_FAILURE : ERRCODE_IO_ERROR;
	if (!type)
		type = "";
	if (status == 404)
		code = !strcmp(type, "NoSuchTableException") || !strcmp(type, "NoSuchViewException")
			       ? ERRCODE_UNDEFINED_TABLE
		     : !strcmp(type, "NoSuchNamespaceException") ? ERRCODE_INVALID_SCHEMA_NAME
		     : kind == K_NS ? ERRCODE_INVALID_SCHEMA_NAME : ERRCODE_UNDEFINED_TABLE;
	else if (status == 409)
		code = !strcmp(type, "NamespaceNotEmptyException") ? ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST
		     : !strcmp(type, "CommitFailedException") ? ERRCODE_T_R_SERIALIZATION_FAILURE
		     : kind == K_NS ? ERRCODE_DUPLICATE_SCHEMA
		     : commit ? ERRCODE_T_R_SERIALIZATION_FAILURE : ERRCODE_DUPLICATE_TABLE;
	else if (status == 401 || status == 419)
		code = ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION;
	else if (status == 403)
		code = ERRCODE_INSUFFICIENT_PRIVILEGE;
	else if (status == 406)
		code = ERRCODE_FEATURE_NOT_SUPPORTED;
	else if (status == 400 || status == 422)
		code = ERRCODE_INVALID_PARAMETER_VALUE;
	floe_errorf(err, code, "REST catalog: %s: HTTP %ld%s%s%s%s", what, status,
		    *type ? " " : "", type, msg ? ": " : "", msg ? msg : "");
	json_decref(j);
	return FLOE_ERR;
}

/* One request.  body (JSON text or a form) may be NULL; *out gets the
 * parsed JSON answer (NULL for an empty one) when out != NULL. */
static int
request(RestCatalog *rc, const char *method, const char *url, const char *body, bool form,
	CallKind kind, const char *what, json_t **out, floe_error *err)
{
	CURL *h = curl_easy_init();
	struct curl_slist *hd = NULL;
	Body b = {0};
	long status = 0;
	CURLcode cc;
	int rc_ = FLOE_OK;

	if (out)
		*out = NULL;
	if (!h)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "REST catalog: curl_easy_init failed");
	hd = curl_slist_append(hd, form ? "Content-Type: application/x-www-form-urlencoded"
					: "Content-Type: application/json");
	hd = curl_slist_append(hd, "Accept: application/json");
	if (rc->auth && !form)
		hd = curl_slist_append(hd, rc->auth);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, REST_TIMEOUT_S);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, REST_CONNECT_TIMEOUT_S);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	if (!strcmp(method, "HEAD"))
		curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
	else if (strcmp(method, "GET") != 0)
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	if (body) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	}
	cc = curl_easy_perform(h);
	if (cc != CURLE_OK) {
		rc_ = floe_errorf(err, ERRCODE_CONNECTION_FAILURE, "REST catalog: %s: %s (%s)", what,
				  curl_easy_strerror(cc), url);
		goto done;
	}
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status < 200 || status > 299) {
		rc_ = http_error(status, &b, kind, what, err);
		goto done;
	}
	if (out && b.len) {
		json_error_t je;
		*out = json_loads(b.data, 0, &je);
		if (!*out)
			rc_ = floe_errorf(err, kind == K_COMMIT || kind == K_VIEW_COMMIT ? ERRCODE_CONNECTION_FAILURE
											  : ERRCODE_IO_ERROR,
					  "REST catalog: %s: the answer is not JSON: %s", what, je.text);
	}
done:
	free(b.data);
	curl_slist_free_all(hd);
	curl_easy_cleanup(h);
	return rc_;
}

static char *
esc(const char *s)
{
	char *e = curl_easy_escape(NULL, s, 0);
	char *r = strdup(e ? e : "");
	curl_free(e);
	if (!r)
		abort();
	return r;
}

/* {root}{prefix}namespaces[/{ns}[/tables[/{t}]]] + tail */
static char *
url_of(RestCatalog *rc, const char *ns, const char *sub, const char *name, const char *tail)
{
	char *ens = ns ? esc(ns) : NULL, *ename = name ? esc(name) : NULL, *u;
	if (asprintf(&u, "%s%snamespaces%s%s%s%s%s%s%s", rc->root, rc->prefix, ens ? "/" : "",
		     ens ? ens : "", sub ? "/" : "", sub ? sub : "", ename ? "/" : "",
		     ename ? ename : "", tail ? tail : "") < 0)
		abort();
	free(ens);
	free(ename);
	return u;
}

static int
req_json(RestCatalog *rc, const char *method, char *url, json_t *body, CallKind kind,
	 const char *what, json_t **out, floe_error *err)
{
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	int r = request(rc, method, url, text, false, kind, what, out, err);
	free(text);
	free(url);
	json_decref(body);
	return r;
}

/* ---- namespaces ------------------------------------------------------- */

static int
rest_create_namespace(Catalog *c, const char *ns, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	return req_json(rc, "POST", url_of(rc, NULL, NULL, NULL, NULL),
			json_pack("{s:[s],s:{}}", "namespace", ns, "properties"), K_NS,
			"create namespace", NULL, err);
}

static int
rest_drop_namespace(Catalog *c, const char *ns, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	return req_json(rc, "DELETE", url_of(rc, ns, NULL, NULL, NULL), NULL, K_NS,
			"drop namespace", NULL, err);
}

static int
rest_namespace_exists(Catalog *c, const char *ns, bool *exists, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	floe_error e;
	*exists = false;
	if (req_json(rc, "HEAD", url_of(rc, ns, NULL, NULL, NULL), NULL, K_NS, "namespace exists",
		     NULL, &e) == FLOE_OK) {
		*exists = true;
		return FLOE_OK;
	}
	if (floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME))
		return FLOE_OK;
	*err = e;
	return FLOE_ERR;
}

/* Every page of a list: the "key" array's entries (each a string, or an
 * identifier / namespace array whose last element is taken). */
static int
list_pages(RestCatalog *rc, const char *ns, const char *sub, const char *key, CallKind kind,
	   Arena *a, char ***names, int *n, floe_error *err)
{
	char *token = NULL;
	int cap = 16, k = 0;
	char **out = malloc(sizeof *out * cap);

	if (!out)
		abort();
	for (;;) {
		char *tail = NULL, *et = token ? esc(token) : NULL;
		json_t *j, *arr, *x;
		size_t i;
		if (et && asprintf(&tail, "?pageToken=%s", et) < 0)
			abort();
		free(et);
		if (req_json(rc, "GET", url_of(rc, ns, sub, NULL, tail), NULL, kind, "list", &j, err) !=
		    FLOE_OK) {
			free(tail);
			free(out);
			free(token);
			return FLOE_ERR;
		}
		free(tail);
		arr = json_object_get(j, key);
		json_array_foreach(arr, i, x) {
			const char *s = NULL;
			if (json_is_array(x)) /* a namespace: ["a"] */
				s = json_string_value(json_array_get(x, json_array_size(x) - 1));
			else if (json_is_object(x))  /* an identifier */
				s = json_string_value(json_object_get(x, "name"));
			if (!s)
				continue;
			if (k == cap) {
				cap *= 2;
				out = realloc(out, sizeof *out * cap);
				if (!out)
					abort();
			}
			out[k++] = arena_strdup(a, s);
		}
		free(token);
		token = NULL;
		x = json_object_get(j, "next-page-token");
		if (json_is_string(x) && *json_string_value(x))
			token = strdup(json_string_value(x));
		json_decref(j);
		if (!token)
			break;
	}
	*names = arena_alloc(a, sizeof **names * (k + 1));
	memcpy(*names, out, sizeof *out * k);
	*n = k;
	free(out);
	return FLOE_OK;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static int
rest_list_namespaces(Catalog *c, Arena *a, char ***names, int *n, floe_error *err)
{
	int r = list_pages((RestCatalog *)c, NULL, NULL, "namespaces", K_NS, a, names, n, err);
	if (r == FLOE_OK)
		qsort(*names, *n, sizeof **names, cmp_str);
	return r;
}

/* ---- tables ----------------------------------------------------------- */

static int
rest_list_tables(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	int r = list_pages((RestCatalog *)c, ns, "tables", "identifiers", K_NS, a, names, n, err);
	if (r == FLOE_OK)
		qsort(*names, *n, sizeof **names, cmp_str);
	return r;
}

static int
rest_load_table(Catalog *c, const char *ns, const char *name, Arena *a, char **loc,
		floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	json_t *j;
	const char *l;
	if (req_json(rc, "GET", url_of(rc, ns, "tables", name, NULL), NULL, K_TABLE, "load table",
		     &j, err) != FLOE_OK)
		return FLOE_ERR;
	l = json_string_value(json_object_get(j, "metadata-location"));
	if (!l) {
		json_decref(j);
		return floe_errorf(err, ERRCODE_IO_ERROR,
				   "REST catalog: load table %s.%s: no metadata-location in the answer", ns, name);
	}
	*loc = arena_strdup(a, l);
	json_decref(j);
	return FLOE_OK;
}

static int
rest_create_table(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	return req_json(rc, "POST", url_of(rc, ns, "register", NULL, NULL),
			json_pack("{s:s,s:s}", "name", name, "metadata-location", loc), K_TABLE,
			"register table", NULL, err);
}

static int
rest_drop_table(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	return req_json(rc, "DELETE", url_of(rc, ns, "tables", name, "?purgeRequested=false"), NULL,
			K_TABLE, "drop table", NULL, err);
}

static int
rest_rename_table(Catalog *c, const char *ns, const char *name, const char *new_ns,
		  const char *new_name, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	char *u;
	if (asprintf(&u, "%s%stables/rename", rc->root, rc->prefix) < 0)
		abort();
	return req_json(rc, "POST", u,
			json_pack("{s:{s:[s],s:s},s:{s:[s],s:s}}", "source", "namespace", ns, "name",
				  name, "destination", "namespace", new_ns, "name", new_name),
			K_TABLE, "rename table", NULL, err);
}

/* ---- commits: the difference of two metadata files ---------------------- */

static json_t *
read_metadata(RestCatalog *rc, const char *loc, floe_error *err)
{
	Arena *a = arena_new(0);
	const uint8_t *data;
	size_t len;
	json_error_t je;
	json_t *j = NULL;
	if (fileio_read(rc->io, loc, a, &data, &len, err) == FLOE_OK) {
		j = json_loadb((const char *)data, len, 0, &je);
		if (!j)
			floe_errorf(err, ERRCODE_DATA_CORRUPTED, "REST catalog: %s: %s", loc, je.text);
	}
	arena_free(a);
	return j;
}

static int
refuse(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "REST catalog: a commit that %s cannot be sent as a REST update", what);
}

/* The element of array arr whose member key equals v's (an integer id). */
static json_t *
by_id(json_t *arr, const char *key, json_t *v)
{
	size_t i;
	json_t *x;
	json_array_foreach(arr, i, x)
		if (json_equal(json_object_get(x, key), v))
			return x;
	return NULL;
}

static void
req_int(json_t *reqs, const char *type, const char *member, json_t *md, const char *key)
{
	json_t *v = json_object_get(md, key);
	if (json_is_integer(v))
		json_array_append_new(reqs, json_pack("{s:s,s:O}", "type", type, member, v));
}

/* New array elements (by id key) as "action" updates wrapping them as
 * member; a changed element under an old id is refused, unless *replaced
 * is given (then it is sent as a new element without its id, the server
 * choosing one, and its id is stored in *replaced). */
static int
add_new(json_t *ups, json_t *old, json_t *new_, const char *arr, const char *key,
	const char *action, const char *member, json_t **replaced, floe_error *err)
{
	json_t *oa = json_object_get(old, arr), *na = json_object_get(new_, arr), *x, *o;
	size_t i;
	json_array_foreach(na, i, x) {
		o = by_id(oa, key, json_object_get(x, key));
		if (o && !json_equal(o, x) && replaced && !*replaced) {
			json_t *e = json_deep_copy(x);
			*replaced = json_object_get(x, key);
			json_object_del(e, key);
			json_array_append_new(ups, json_pack("{s:s,s:o}", "action", action, member, e));
		} else if (!o) {
			json_t *u = json_pack("{s:s,s:O}", "action", action, member, x);
			if (!strcmp(action, "add-schema") && json_object_get(new_, "last-column-id"))
				json_object_set(u, "last-column-id", json_object_get(new_, "last-column-id"));
			json_array_append_new(ups, u);
		} else if (!json_equal(o, x)) {
			char what[128];
			snprintf(what, sizeof what, "changes an existing entry of %s", arr);
			return refuse(err, what);
		}
	}
	return FLOE_OK;
}

static void
set_current(json_t *ups, json_t *old, json_t *new_, const char *key, const char *action,
	    const char *member)
{
	json_t *v = json_object_get(new_, key);
	if (v && !json_equal(json_object_get(old, key), v))
		json_array_append_new(ups, json_pack("{s:s,s:O}", "action", action, member, v));
}

/* Members the server derives itself or that the updates above carry. */
static const char *const DERIVED[] = {
	"last-updated-ms", "metadata-log", "snapshot-log", "last-sequence-number", "last-column-id",
	"last-partition-id", "next-row-id", "schemas", "current-schema-id", "partition-specs",
	"default-spec-id", "sort-orders", "default-sort-order-id", "snapshots",
	"current-snapshot-id", "refs", "properties", "location", "format-version", "statistics",
	"partition-statistics", "table-uuid", "schema", "partition-spec", NULL,
};

/* Requirements and updates taking the table from old to new_. */

/* set-properties / remove-properties: the difference of two "properties"
 * objects (tables' and views' alike) */
static void
property_updates(json_t *ups, json_t *op, json_t *np)
{
	json_t *set = json_object(), *rm = json_array(), *v;
	const char *key;

	json_object_foreach(np, key, v)
		if (!json_equal(json_object_get(op, key), v))
			json_object_set(set, key, v);
	json_object_foreach(op, key, v)
		if (!json_object_get(np, key))
			json_array_append_new(rm, json_string(key));
	if (json_object_size(set))
		json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "set-properties", "updates", set));
	if (json_array_size(rm))
		json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "remove-properties", "removals", rm));
	json_decref(set);
	json_decref(rm);
}

/* set-location when the new file's location differs */
static void
location_update(json_t *ups, json_t *old, json_t *new_)
{
	json_t *x = json_object_get(new_, "location");

	if (x && !json_equal(x, json_object_get(old, "location")))
		json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "set-location", "location", x));
}

static int
commit_diff(json_t *old, json_t *new_, json_t **reqs_out, json_t **ups_out, floe_error *err)
{
	json_t *reqs = json_array(), *ups = json_array();
	json_t *orefs = json_object_get(old, "refs"), *nrefs = json_object_get(new_, "refs");
	json_t *op = json_object_get(old, "properties"), *np = json_object_get(new_, "properties");
	json_t *os = json_object_get(old, "snapshots"), *ns = json_object_get(new_, "snapshots");
	json_t *x, *v, *rm, *replaced = NULL;
	const char *key;
	size_t i;
	int k;

	*reqs_out = reqs;
	*ups_out = ups;
	/* members floe would change that have no update */
	json_object_foreach(new_, key, v) {
		for (k = 0; DERIVED[k] && strcmp(DERIVED[k], key) != 0; k++)
			;
		if (!DERIVED[k] && !json_equal(json_object_get(old, key), v)) {
			char what[160];
			snprintf(what, sizeof what, "changes \"%.100s\"", key);
			return refuse(err, what);
		}
	}
	json_object_foreach(old, key, v) {
		for (k = 0; DERIVED[k] && strcmp(DERIVED[k], key) != 0; k++)
			;
		if (!DERIVED[k] && !json_object_get(new_, key)) {
			char what[160];
			snprintf(what, sizeof what, "removes \"%.100s\"", key);
			return refuse(err, what);
		}
	}
	if (!json_equal(json_object_get(old, "table-uuid"), json_object_get(new_, "table-uuid")))
		return refuse(err, "changes the table uuid");

	/* requirements: the head this commit was staged on */
	x = json_object_get(old, "table-uuid");
	if (json_is_string(x))
		json_array_append_new(reqs, json_pack("{s:s,s:O}", "type", "assert-table-uuid", "uuid", x));
	if (!json_object_get(orefs, "main"))
		json_array_append_new(reqs, json_pack("{s:s,s:s,s:n}", "type", "assert-ref-snapshot-id",
						      "ref", "main", "snapshot-id"));
	json_object_foreach(orefs, key, v)
		json_array_append_new(reqs, json_pack("{s:s,s:s,s:O}", "type", "assert-ref-snapshot-id",
						      "ref", key, "snapshot-id",
						      json_object_get(v, "snapshot-id")));
	req_int(reqs, "assert-current-schema-id", "current-schema-id", old, "current-schema-id");
	req_int(reqs, "assert-last-assigned-field-id", "last-assigned-field-id", old, "last-column-id");
	req_int(reqs, "assert-default-spec-id", "default-spec-id", old, "default-spec-id");
	req_int(reqs, "assert-last-assigned-partition-id", "last-assigned-partition-id", old,
		"last-partition-id");
	req_int(reqs, "assert-default-sort-order-id", "default-sort-order-id", old,
		"default-sort-order-id");

	/* updates */
	set_current(ups, old, new_, "format-version", "upgrade-format-version", "format-version");
	if (add_new(ups, old, new_, "schemas", "schema-id", "add-schema", "schema", NULL, err) != FLOE_OK)
		return FLOE_ERR;
	set_current(ups, old, new_, "current-schema-id", "set-current-schema", "schema-id");
	/* CREATE TABLE ... PARTITIONED BY replaces spec 0 of a table without
	 * snapshots (no file can use it): sent as a new spec, made the default */
	if (add_new(ups, old, new_, "partition-specs", "spec-id", "add-spec", "spec",
		    json_array_size(os) ? NULL : &replaced, err) != FLOE_OK)
		return FLOE_ERR;
	if (replaced && json_equal(replaced, json_object_get(new_, "default-spec-id")))
		json_array_append_new(ups, json_pack("{s:s,s:i}", "action", "set-default-spec", "spec-id", -1));
	else
		set_current(ups, old, new_, "default-spec-id", "set-default-spec", "spec-id");
	if (add_new(ups, old, new_, "sort-orders", "order-id", "add-sort-order", "sort-order", NULL, err) !=
	    FLOE_OK)
		return FLOE_ERR;
	set_current(ups, old, new_, "default-sort-order-id", "set-default-sort-order", "sort-order-id");
	json_array_foreach(json_object_get(old, "schemas"), i, x)
		if (!by_id(json_object_get(new_, "schemas"), "schema-id", json_object_get(x, "schema-id")))
			return refuse(err, "removes a schema");
	json_array_foreach(json_object_get(old, "partition-specs"), i, x)
		if (!by_id(json_object_get(new_, "partition-specs"), "spec-id", json_object_get(x, "spec-id")))
			return refuse(err, "removes a partition spec");
	json_array_foreach(json_object_get(old, "sort-orders"), i, x)
		if (!by_id(json_object_get(new_, "sort-orders"), "order-id", json_object_get(x, "order-id")))
			return refuse(err, "removes a sort order");
	if (add_new(ups, old, new_, "snapshots", "snapshot-id", "add-snapshot", "snapshot", NULL, err) !=
	    FLOE_OK)
		return FLOE_ERR;
	rm = json_array();
	json_array_foreach(os, i, x)
		if (!by_id(ns, "snapshot-id", json_object_get(x, "snapshot-id")))
			json_array_append(rm, json_object_get(x, "snapshot-id"));
	if (json_array_size(rm))
		json_array_append_new(ups, json_pack("{s:s,s:o}", "action", "remove-snapshots",
						     "snapshot-ids", rm));
	else
		json_decref(rm);
	/* refs: a table with snapshots but no refs object has main at current-snapshot-id */
	json_object_foreach(nrefs, key, v)
		if (!json_equal(json_object_get(orefs, key), v)) {
			json_t *u = json_deep_copy(v);
			json_object_set_new(u, "action", json_string("set-snapshot-ref"));
			json_object_set_new(u, "ref-name", json_string(key));
			json_array_append_new(ups, u);
		}
	json_object_foreach(orefs, key, v)
		if (!json_object_get(nrefs, key))
			json_array_append_new(ups, json_pack("{s:s,s:s}", "action", "remove-snapshot-ref",
							     "ref-name", key));
	if (!nrefs && json_is_integer(json_object_get(new_, "current-snapshot-id")) &&
	    json_integer_value(json_object_get(new_, "current-snapshot-id")) >= 0 &&
	    !json_equal(json_object_get(new_, "current-snapshot-id"), json_object_get(old, "current-snapshot-id")))
		return refuse(err, "moves current-snapshot-id without a refs member");
	/* properties */
	property_updates(ups, op, np);
	location_update(ups, old, new_);
	/* statistics files, by snapshot id */
	json_array_foreach(json_object_get(new_, "statistics"), i, x) {
		json_t *o = by_id(json_object_get(old, "statistics"), "snapshot-id",
				  json_object_get(x, "snapshot-id"));
		if (!o || !json_equal(o, x))
			json_array_append_new(ups, json_pack("{s:s,s:O,s:O}", "action", "set-statistics",
							     "snapshot-id", json_object_get(x, "snapshot-id"),
							     "statistics", x));
	}
	json_array_foreach(json_object_get(old, "statistics"), i, x)
		if (!by_id(json_object_get(new_, "statistics"), "snapshot-id", json_object_get(x, "snapshot-id")))
			json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "remove-statistics",
							     "snapshot-id", json_object_get(x, "snapshot-id")));
	/* partition statistics files, the same way */
	json_array_foreach(json_object_get(new_, "partition-statistics"), i, x) {
		json_t *o = by_id(json_object_get(old, "partition-statistics"), "snapshot-id",
				  json_object_get(x, "snapshot-id"));
		if (!o || !json_equal(o, x))
			json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "set-partition-statistics",
							     "partition-statistics", x));
	}
	json_array_foreach(json_object_get(old, "partition-statistics"), i, x)
		if (!by_id(json_object_get(new_, "partition-statistics"), "snapshot-id",
			   json_object_get(x, "snapshot-id")))
			json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "remove-partition-statistics",
							     "snapshot-id", json_object_get(x, "snapshot-id")));
	return FLOE_OK;
}

/* One table's change {identifier?, requirements, updates}. */
static int
table_change(RestCatalog *rc, const char *ns, const char *name, const char *expected,
	     const char *new_location, bool with_id, json_t **out, floe_error *err)
{
	json_t *old = read_metadata(rc, expected, err), *new_ = NULL, *reqs = NULL, *ups = NULL;
	int r = FLOE_ERR;
	if (!old)
		return FLOE_ERR;
	new_ = read_metadata(rc, new_location, err);
	if (new_ && commit_diff(old, new_, &reqs, &ups, err) == FLOE_OK) {
		*out = json_pack("{s:O,s:O}", "requirements", reqs, "updates", ups);
		if (with_id)
			json_object_set_new(*out, "identifier",
					    json_pack("{s:[s],s:s}", "namespace", ns, "name", name));
		r = FLOE_OK;
	}
	json_decref(reqs);
	json_decref(ups);
	json_decref(old);
	json_decref(new_);
	return r;
}

static int
rest_swap_table(Catalog *c, const char *ns, const char *name, const char *expected,
		const char *new_location, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	json_t *change, *ans;
	if (!expected)
		return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				   "REST catalog: swap of %s.%s without an expected location", ns, name);
	if (table_change(rc, ns, name, expected, new_location, false, &change, err) != FLOE_OK)
		return FLOE_ERR;
	if (req_json(rc, "POST", url_of(rc, ns, "tables", name, NULL), change, K_COMMIT, "commit",
		     &ans, err) != FLOE_OK)
		return FLOE_ERR;
	if (!json_is_string(json_object_get(ans, "metadata-location"))) {
		json_decref(ans);
		return floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
				   "REST catalog: commit of %s.%s: no metadata-location in the answer", ns, name);
	}
	json_decref(ans);
	return FLOE_OK;
}

static int
rest_swap_tables(Catalog *c, int n, const char *const *ns, const char *const *names,
		 const char *const *expected, const char *const *new_locations, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	json_t *changes = json_array(), *ch;
	char *u;
	int i;
	for (i = 0; i < n; i++) {
		if (!expected[i]) {
			json_decref(changes);
			return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					   "REST catalog: swap of %s.%s without an expected location", ns[i], names[i]);
		}
		if (table_change(rc, ns[i], names[i], expected[i], new_locations[i], true, &ch, err) != FLOE_OK) {
			json_decref(changes);
			return FLOE_ERR;
		}
		json_array_append_new(changes, ch);
	}
	if (asprintf(&u, "%s%stransactions/commit", rc->root, rc->prefix) < 0)
		abort();
	return req_json(rc, "POST", u, json_pack("{s:o}", "table-changes", changes), K_COMMIT,
			"transaction commit", NULL, err);
}

/* ---- views ------------------------------------------------------------ */

static int
no_views(floe_error *err)
{
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "views are not supported by this REST catalog (its config lists no view endpoints)");
}

static int
rest_create_view(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	json_t *md, *cur = NULL, *schema = NULL, *x, *req;
	size_t i;
	if (!rc->views)
		return no_views(err);
	if (!(md = read_metadata(rc, loc, err)))
		return FLOE_ERR;
	json_array_foreach(json_object_get(md, "versions"), i, x)
		if (json_equal(json_object_get(x, "version-id"), json_object_get(md, "current-version-id")))
			cur = x;
	json_array_foreach(json_object_get(md, "schemas"), i, x)
		if (cur && json_equal(json_object_get(x, "schema-id"), json_object_get(cur, "schema-id")))
			schema = x;
	if (!cur || !schema || !json_is_string(json_object_get(md, "location"))) {
		json_decref(md);
		return floe_errorf(err, ERRCODE_DATA_CORRUPTED,
				   "REST catalog: %s is not view metadata with a current version", loc);
	}
	x = json_object_get(md, "properties");
	req = json_pack("{s:s,s:O,s:O,s:O,s:o}", "name", name, "location", json_object_get(md, "location"),
			"schema", schema, "view-version", cur, "properties",
			json_is_object(x) ? json_incref(x) : json_object());
	json_decref(md);
	return req_json(rc, "POST", url_of(rc, ns, "views", NULL, NULL), req, K_VIEW, "create view",
			NULL, err);
}

static int
rest_load_view(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	json_t *j;
	const char *l;
	if (!rc->views)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "view \"%s.%s\" does not exist", ns, name);
	if (req_json(rc, "GET", url_of(rc, ns, "views", name, NULL), NULL, K_VIEW, "load view", &j,
		     err) != FLOE_OK) {
		/* no such namespace: no such view (sql/views.c asks for every name in FROM) */
		if (floe_error_is(err, ERRCODE_INVALID_SCHEMA_NAME))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "view \"%s.%s\" does not exist", ns, name);
		return FLOE_ERR;
	}
	l = json_string_value(json_object_get(j, "metadata-location"));
	if (!l) {
		json_decref(j);
		return floe_errorf(err, ERRCODE_IO_ERROR,
				   "REST catalog: load view %s.%s: no metadata-location in the answer", ns, name);
	}
	*loc = arena_strdup(a, l);
	json_decref(j);
	return FLOE_OK;
}

/* Members of view metadata the updates below carry or the server keeps. */
static const char *const VIEW_DERIVED[] = {
	"view-uuid", "format-version", "location", "schemas", "current-version-id", "versions",
	"version-log", "properties", NULL,
};

/* Requirements and updates taking the view from old to new_ (view-spec.md;
 * the REST spec's ViewUpdate). */
static int
view_diff(json_t *old, json_t *new_, json_t **reqs_out, json_t **ups_out, floe_error *err)
{
	json_t *reqs = json_array(), *ups = json_array(), *x, *o, *v, *added = NULL;
	json_t *op = json_object_get(old, "properties"), *np = json_object_get(new_, "properties");
	const char *key;
	size_t i;
	int k;

	*reqs_out = reqs;
	*ups_out = ups;
	json_object_foreach(new_, key, v) {
		for (k = 0; VIEW_DERIVED[k] && strcmp(VIEW_DERIVED[k], key) != 0; k++)
			;
		if (!VIEW_DERIVED[k] && !json_equal(json_object_get(old, key), v)) {
			char what[160];
			snprintf(what, sizeof what, "changes the view's \"%.100s\"", key);
			return refuse(err, what);
		}
	}
	if (!json_equal(json_object_get(old, "view-uuid"), json_object_get(new_, "view-uuid")))
		return refuse(err, "changes the view uuid");
	x = json_object_get(old, "view-uuid");
	if (json_is_string(x))
		json_array_append_new(reqs, json_pack("{s:s,s:O}", "type", "assert-view-uuid", "uuid", x));
	set_current(ups, old, new_, "format-version", "upgrade-format-version", "format-version");
	json_array_foreach(json_object_get(new_, "schemas"), i, x) {
		o = by_id(json_object_get(old, "schemas"), "schema-id", json_object_get(x, "schema-id"));
		if (!o)
			json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "add-schema", "schema", x));
		else if (!json_equal(o, x))
			return refuse(err, "changes an existing schema of the view");
	}
	location_update(ups, old, new_);
	property_updates(ups, op, np);
	/* versions: the new ones, in order (old ones the new file dropped are
	 * history the server keeps by its own retention) */
	json_array_foreach(json_object_get(new_, "versions"), i, x) {
		o = by_id(json_object_get(old, "versions"), "version-id", json_object_get(x, "version-id"));
		if (!o) {
			json_array_append_new(ups, json_pack("{s:s,s:O}", "action", "add-view-version",
							     "view-version", x));
			added = json_object_get(x, "version-id");
		} else if (!json_equal(o, x))
			return refuse(err, "changes an existing version of the view");
	}
	v = json_object_get(new_, "current-version-id");
	if (!json_is_integer(v))
		return refuse(err, "has no current-version-id");
	if (!json_equal(v, json_object_get(old, "current-version-id")))
		json_array_append_new(ups, json_pack("{s:s,s:I}", "action", "set-current-view-version",
						     "view-version-id",
						     (json_int_t)(added && json_equal(added, v) ? -1 : json_integer_value(v))));
	return FLOE_OK;
}

static int
rest_swap_view(Catalog *c, const char *ns, const char *name, const char *expected,
	       const char *new_location, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	json_t *old, *new_ = NULL, *reqs = NULL, *ups = NULL, *ans = NULL;
	int r = FLOE_ERR;
	if (!rc->views)
		return no_views(err);
	if (!expected)
		return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				   "REST catalog: swap of view %s.%s without an expected location", ns, name);
	if (!(old = read_metadata(rc, expected, err)))
		return FLOE_ERR;
	new_ = read_metadata(rc, new_location, err);
	if (new_ && view_diff(old, new_, &reqs, &ups, err) == FLOE_OK) {
		r = req_json(rc, "POST", url_of(rc, ns, "views", name, NULL),
			     json_pack("{s:O,s:O}", "requirements", reqs, "updates", ups), K_VIEW_COMMIT,
			     "view commit", &ans, err);
		if (r == FLOE_OK && !json_is_string(json_object_get(ans, "metadata-location")))
			r = floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
					"REST catalog: commit of view %s.%s: no metadata-location in the answer",
					ns, name);
	}
	json_decref(ans);
	json_decref(reqs);
	json_decref(ups);
	json_decref(old);
	json_decref(new_);
	return r;
}

static int
rest_drop_view(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	if (!rc->views)
		return no_views(err);
	return req_json(rc, "DELETE", url_of(rc, ns, "views", name, NULL), NULL, K_VIEW, "drop view",
			NULL, err);
}

static int
rest_rename_view(Catalog *c, const char *ns, const char *name, const char *to, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	char *u;
	if (!rc->views)
		return no_views(err);
	if (asprintf(&u, "%s%sviews/rename", rc->root, rc->prefix) < 0)
		abort();
	return req_json(rc, "POST", u,
			json_pack("{s:{s:[s],s:s},s:{s:[s],s:s}}", "source", "namespace", ns, "name",
				  name, "destination", "namespace", ns, "name", to),
			K_VIEW, "rename view", NULL, err);
}

static int
rest_list_views(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	RestCatalog *rc = (RestCatalog *)c;
	int r;
	if (!rc->views) {
		*names = arena_alloc(a, sizeof **names);
		*n = 0;
		return FLOE_OK;
	}
	r = list_pages(rc, ns, "views", "identifiers", K_NS, a, names, n, err);
	if (r == FLOE_OK)
		qsort(*names, *n, sizeof **names, cmp_str);
	return r;
}

static void
rest_close(Catalog *c)
{
	RestCatalog *rc = (RestCatalog *)c;
	free(rc->root);
	free(rc->prefix);
	free(rc->auth);
	free(rc);
}

static const CatalogVT REST_VT = {
	.create_namespace = rest_create_namespace,
	.drop_namespace = rest_drop_namespace,
	.namespace_exists = rest_namespace_exists,
	.list_namespaces = rest_list_namespaces,
	.create_table = rest_create_table,
	.load_table = rest_load_table,
	.swap_table = rest_swap_table,
	.drop_table = rest_drop_table,
	.swap_tables = rest_swap_tables,
	.list_tables = rest_list_tables,
	.close = rest_close,
	.rename_table = rest_rename_table,
	.create_view = rest_create_view,
	.load_view = rest_load_view,
	.swap_view = rest_swap_view,
	.drop_view = rest_drop_view,
	.rename_view = rest_rename_view,
	.list_views = rest_list_views,
};

/* OAuth2 client_credentials: "id:secret" -> rc->auth. */
static int
oauth(RestCatalog *rc, const char *cred, floe_error *err)
{
	const char *colon = strchr(cred, ':');
	char *id, *sec, *body, *u;
	json_t *j;
	const char *tok;
	int r;
	if (!colon)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "--catalog-credential must be client_id:client_secret");
	id = curl_easy_escape(NULL, cred, (int)(colon - cred));
	sec = curl_easy_escape(NULL, colon + 1, 0);
	if (asprintf(&body, "grant_type=client_credentials&client_id=%s&client_secret=%s&scope=catalog",
		     id, sec) < 0 ||
	    asprintf(&u, "%soauth/tokens", rc->root) < 0)
		abort();
	curl_free(id);
	curl_free(sec);
	r = request(rc, "POST", u, body, true, K_NS, "OAuth2 token", &j, err);
	free(body);
	free(u);
	if (r != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION) ||
		    floe_error_is(err, ERRCODE_INVALID_PARAMETER_VALUE)) {
			char why[sizeof err->message];
			const char *w = why;
			snprintf(why, sizeof why, "%s", err->message);
			if (!strncmp(w, "REST catalog: ", 14))
				w += 14;
			floe_errorf(err, ERRCODE_INVALID_PASSWORD,
				    "REST catalog %.*s refused the --catalog-credential of client \"%.*s\" "
				    "(authentication failed; %s)",
				    (int)(strlen(rc->root) - 4), rc->root, (int)(colon - cred), cred, w);
		}
		return FLOE_ERR;
	}
	tok = json_string_value(json_object_get(j, "access_token"));
	if (!tok) {
		json_decref(j);
		return floe_errorf(err, ERRCODE_INVALID_PASSWORD,
				   "REST catalog: the OAuth2 token answer has no access_token");
	}
	if (asprintf(&rc->auth, "Authorization: Bearer %s", tok) < 0)
		abort();
	json_decref(j);
	return FLOE_OK;
}

int
catalog_rest_open(Catalog **out, const char *uri, FileIO *io, floe_error *err)
{
	RestCatalog *rc = calloc(1, sizeof *rc);
	const char *cred = getenv("FLOE_REST_CREDENTIAL"), *tok = getenv("FLOE_REST_TOKEN");
	size_t n = strlen(uri);
	json_t *cfg, *p;
	char *u;

	if (!rc)
		abort();
	rc->base.vt = &REST_VT;
	rc->io = io;
	if (strncmp(uri, "http://", 7) != 0 && strncmp(uri, "https://", 8) != 0) {
		free(rc);
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "a REST catalog URI is rest+http://host:port/path or rest+https://...: \"%s\"",
				   uri);
	}
	while (n && uri[n - 1] == '/')
		n--;
	if (asprintf(&rc->root, "%.*s/v1/", (int)n, uri) < 0)
		abort();
	rc->prefix = strdup("");
	if (cred && *cred) {
		if (oauth(rc, cred, err) != FLOE_OK) {
			rest_close(&rc->base);
			return FLOE_ERR;
		}
	} else if (tok && *tok && asprintf(&rc->auth, "Authorization: Bearer %s", tok) < 0)
		abort();
	if (asprintf(&u, "%sconfig", rc->root) < 0)
		abort();
	if (req_json(rc, "GET", u, NULL, K_NS, "config", &cfg, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_CONNECTION_FAILURE))
			memcpy(err->sqlstate, ERRCODE_CONNECTION_EXCEPTION, 6);
		rest_close(&rc->base);
		return FLOE_ERR;
	}
	/* views: when the config lists endpoints, only if it lists the view ones */
	rc->views = !json_is_array(json_object_get(cfg, "endpoints"));
	{
		size_t i;
		json_t *e;
		json_array_foreach(json_object_get(cfg, "endpoints"), i, e)
			if (json_is_string(e) &&
			    !strcmp(json_string_value(e), "GET /v1/{prefix}/namespaces/{namespace}/views/{view}"))
				rc->views = true;
	}
	p = json_object_get(json_object_get(cfg, "overrides"), "prefix");
	if (!json_is_string(p))
		p = json_object_get(json_object_get(cfg, "defaults"), "prefix");
	if (json_is_string(p) && *json_string_value(p)) {
		const char *s = json_string_value(p);
		free(rc->prefix);
		if (asprintf(&rc->prefix, "%s%s", s, s[strlen(s) - 1] == '/' ? "" : "/") < 0)
			abort();
	}
	json_decref(cfg);
	*out = &rc->base;
	return FLOE_OK;
}
