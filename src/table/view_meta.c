/*
 * view_meta.c — Iceberg view metadata files (view_meta.h; spec:
 * apache/iceberg format/view-spec.md, "View Metadata", "Versions",
 * "Representations", "Version log").
 *
 * Writing: the first file has version 1 and schema 0; a later one copies
 * the previous file's schemas, versions and log, adds the new schema (the
 * next schema-id) and version (the next version-id) and makes it current.
 * Only the last VIEW_KEEP_VERSIONS versions are kept (the spec's
 * version.history.num-entries; floe does not read that property yet).
 * Reading: the current version's "postgresql" SQL representation (a view
 * another engine wrote without one is XX001 naming the dialects it has),
 * its default-namespace, its schema's field names and Iceberg types, and
 * the floe summary keys.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "table/metadata.h"
#include "table/view_meta.h"

#define VIEW_KEEP_VERSIONS 10
#define DEP_SEP '\x1f'

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *
uuid4(Arena *a)
{
	uint8_t b[16];
	size_t got = 0;
	while (got < sizeof b) {
		ssize_t r = getrandom(b + got, sizeof b - got, 0);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	for (; got < sizeof b; got++)
		b[got] = (uint8_t)(rand() >> 7);
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
	return arena_sprintf(a, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			     b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
			     b[12], b[13], b[14], b[15]);
}

/* the view's schema as Iceberg JSON, schema-id id: types Iceberg cannot
 * hold (interval, arrays, json) are strings there */
static json_t *
schema_of(const ViewDef *d, int id, Arena *a)
{
	json_t *s = json_object(), *fields = json_array();
	int i;
	json_object_set_new(s, "type", json_string("struct"));
	json_object_set_new(s, "schema-id", json_integer(id));
	for (i = 0; i < d->ncols; i++) {
		floe_error ignore;
		char *t = metadata_type_to_iceberg(d->types[i], a, &ignore);
		json_t *f = json_object();
		json_object_set_new(f, "id", json_integer(i + 1));
		json_object_set_new(f, "name", json_string(d->names[i]));
		json_object_set_new(f, "required", json_false());
		json_object_set_new(f, "type", json_string(t ? t : "string"));
		json_array_append_new(fields, f);
	}
	json_object_set_new(s, "fields", fields);
	return s;
}

static json_t *
version_of(const ViewDef *d, int64_t vid, int sid, int64_t ts, Arena *a)
{
	json_t *v = json_object(), *sum = json_object(), *reps = json_array(), *r = json_object();
	json_t *ns = json_array();
	size_t len = 1;
	char *buf, *p;
	int i;

	json_object_set_new(v, "version-id", json_integer(vid));
	json_object_set_new(v, "schema-id", json_integer(sid));
	json_object_set_new(v, "timestamp-ms", json_integer(ts));
	json_object_set_new(sum, "engine-name", json_string("floe"));
	json_object_set_new(sum, "engine-version", json_string("0.1"));
	for (i = 0; i < d->ncols; i++)
		len += strlen(d->pg_types[i] ? d->pg_types[i] : "") + 1;
	buf = arena_alloc(a, len);
	p = buf;
	for (i = 0; i < d->ncols; i++)
		p += sprintf(p, "%s%s", i ? ";" : "", d->pg_types[i] ? d->pg_types[i] : "");
	*p = 0;
	json_object_set_new(sum, "floe.pg-types", json_string(buf));
	len = 1;
	for (i = 0; i < d->ndeps; i++)
		len += strlen(d->dep_ns[i]) + strlen(d->dep_names[i]) + 2;
	buf = arena_alloc(a, len);
	p = buf;
	for (i = 0; i < d->ndeps; i++)
		p += sprintf(p, "%s%s.%s", i ? "\x1f" : "", d->dep_ns[i], d->dep_names[i]);
	*p = 0;
	json_object_set_new(sum, "floe.depends-on", json_string(buf));
	if (d->search_path)
		json_object_set_new(sum, "floe.search-path", json_string(d->search_path));
	json_object_set_new(v, "summary", sum);
	json_object_set_new(r, "type", json_string("sql"));
	json_object_set_new(r, "sql", json_string(d->sql));
	json_object_set_new(r, "dialect", json_string("postgresql"));
	json_array_append_new(reps, r);
	json_object_set_new(v, "representations", reps);
	json_array_append_new(ns, json_string(d->default_ns));
	json_object_set_new(v, "default-namespace", ns);
	return v;
}

/* a path component from a name: bytes outside [A-Za-z0-9_-] as %XX */
static char *
component(Arena *a, const char *name)
{
	size_t i, n = 0;
	char *o = arena_alloc(a, 3 * strlen(name) + 1);
	for (i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '_' || c == '-')
			o[n++] = (char)c;
		else
			n += (size_t)sprintf(o + n, "%%%02X", c);
	}
	o[n] = 0;
	return o;
}

static int
file_number(const char *path)
{
	const char *b = strrchr(path, '/');
	return atoi(b ? b + 1 : path);
}

int
view_meta_write(FileIO *io, const char *prev_path, const char *location, const ViewDef *def,
		Arena *a, char **path, floe_error *err)
{
	json_t *root = NULL, *schemas, *versions, *log, *e;
	int64_t ts = now_ms(), vid = 1;
	int sid = 0, num = 0, rc;
	size_t i;
	char *json;

	if (prev_path) {
		const uint8_t *data;
		size_t len;
		json_error_t je;
		TRY(fileio_read(io, prev_path, a, &data, &len, err));
		root = json_loadb((const char *)data, len, 0, &je);
		if (!root || !json_is_object(root) || !json_is_array(json_object_get(root, "versions")) ||
		    !json_is_array(json_object_get(root, "schemas")))
			goto bad;
		json_array_foreach(json_object_get(root, "versions"), i, e)
			if (json_integer_value(json_object_get(e, "version-id")) >= vid)
				vid = json_integer_value(json_object_get(e, "version-id")) + 1;
		json_array_foreach(json_object_get(root, "schemas"), i, e)
			if ((int)json_integer_value(json_object_get(e, "schema-id")) >= sid)
				sid = (int)json_integer_value(json_object_get(e, "schema-id")) + 1;
		if (!json_is_string(json_object_get(root, "location")))
			goto bad;
		location = arena_strdup(a, json_string_value(json_object_get(root, "location")));
		num = file_number(prev_path) + 1;
	} else {
		char cwd[4096];
		const char *base = io->root && io->root[0] ? io->root : ".";
		root = json_object();
		if (base[0] != '/' && getcwd(cwd, sizeof cwd))
			base = arena_sprintf(a, "%s/%s", cwd, base);
		if (!location)
			location = arena_sprintf(a, "%s/%s/%s", base, component(a, def->ns),
						 component(a, def->name));
		json_object_set_new(root, "view-uuid", json_string(uuid4(a)));
		json_object_set_new(root, "format-version", json_integer(1));
		json_object_set_new(root, "location", json_string(location));
		json_object_set_new(root, "schemas", json_array());
		json_object_set_new(root, "versions", json_array());
		json_object_set_new(root, "version-log", json_array());
		json_object_set_new(root, "properties", json_object());
	}
	schemas = json_object_get(root, "schemas");
	versions = json_object_get(root, "versions");
	log = json_object_get(root, "version-log");
	if (!json_is_array(log)) {
		log = json_array();
		json_object_set_new(root, "version-log", log);
	}
	json_array_append_new(schemas, schema_of(def, sid, a));
	json_array_append_new(versions, version_of(def, vid, sid, ts, a));
	while (json_array_size(versions) > VIEW_KEEP_VERSIONS)
		json_array_remove(versions, 0);
	e = json_object();
	json_object_set_new(e, "timestamp-ms", json_integer(ts));
	json_object_set_new(e, "version-id", json_integer(vid));
	json_array_append_new(log, e);
	json_object_set_new(root, "current-version-id", json_integer(vid));
	{
		char *s = json_dumps(root, JSON_INDENT(2));
		json = arena_strdup(a, s ? s : "");
		free(s);
	}
	json_decref(root);
	*path = arena_sprintf(a, "%s/metadata/%05d-%s.metadata.json", location, num, uuid4(a));
	rc = fileio_write(io, *path, json, strlen(json), err);
	return rc;
bad:
	if (root)
		json_decref(root);
	return FLOE_CORRUPT(err, "view metadata file %s is not Iceberg view metadata", prev_path);
}

static char *
jstr(Arena *a, json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_string(v) ? arena_strdup(a, json_string_value(v)) : NULL;
}

/* "a;b;c" split at sep into n pieces (missing ones NULL) */
static char **
split(Arena *a, const char *s, char sep, int *n_out, int want)
{
	int n = 1, k = 0;
	const char *p;
	char **out;
	for (p = s; *p; p++)
		n += *p == sep;
	if (!*s)
		n = 0;
	out = ARENA_ARRAY(a, char *, (n > want ? n : want) + 1);
	p = s;
	while (k < n) {
		const char *q = strchr(p, sep);
		size_t len = q ? (size_t)(q - p) : strlen(p);
		out[k++] = len ? arena_strndup(a, p, len) : NULL;
		p = q ? q + 1 : p + len;
	}
	*n_out = n;
	return out;
}

int
view_meta_read(FileIO *io, const char *path, Arena *a, ViewDef **out, floe_error *err)
{
	const uint8_t *data;
	size_t len, i;
	json_error_t je;
	json_t *root, *v = NULL, *e, *schema = NULL, *fields, *sum, *ns;
	ViewDef *d = ARENA_NEW(a, ViewDef);
	int64_t cur;
	int sid, n;
	const char *dialects = "";

	TRY(fileio_read(io, path, a, &data, &len, err));
	root = json_loadb((const char *)data, len, 0, &je);
	if (!root || !json_is_object(root))
		goto bad;
	cur = json_integer_value(json_object_get(root, "current-version-id"));
	json_array_foreach(json_object_get(root, "versions"), i, e)
		if (json_integer_value(json_object_get(e, "version-id")) == cur)
			v = e;
	if (!v)
		goto bad;
	d->uuid = jstr(a, root, "view-uuid");
	d->location = jstr(a, root, "location");
	d->version_id = cur;
	d->nversions = (int)json_array_size(json_object_get(root, "versions"));
	d->created_ms = INT64_MAX;
	json_array_foreach(json_object_get(root, "versions"), i, e) {
		int64_t ts = json_integer_value(json_object_get(e, "timestamp-ms"));
		if (ts < d->created_ms)
			d->created_ms = ts;
	}
	sid = (int)json_integer_value(json_object_get(v, "schema-id"));
	json_array_foreach(json_object_get(root, "schemas"), i, e)
		if (json_integer_value(json_object_get(e, "schema-id")) == sid)
			schema = e;
	json_array_foreach(json_object_get(v, "representations"), i, e) {
		const char *dl = json_string_value(json_object_get(e, "dialect"));
		if (dl && !strcmp(dl, "postgresql"))
			d->sql = jstr(a, e, "sql");
		else if (dl)
			dialects = arena_sprintf(a, "%s%s%s", dialects, *dialects ? ", " : "", dl);
	}
	ns = json_object_get(v, "default-namespace");
	if (json_is_array(ns) && json_array_size(ns) >= 1 && json_is_string(json_array_get(ns, 0)))
		d->default_ns = arena_strdup(a, json_string_value(json_array_get(ns, 0)));
	if (!schema || !d->default_ns)
		goto bad;
	if (!d->sql) {
		json_decref(root);
		/* another engine's view: not corrupt, only not for floe */
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "view metadata %s has no postgresql SQL representation (it has: %s)", path,
			    *dialects ? dialects : "none");
		return floe_error_hint(err, "floe reads views whose current version has a \"postgresql\" "
				       "SQL representation; another engine's view is left out of listings");
	}
	fields = json_object_get(schema, "fields");
	d->ncols = (int)json_array_size(fields);
	d->names = ARENA_ARRAY(a, char *, d->ncols + 1);
	d->types = ARENA_ARRAY(a, SqlType, d->ncols + 1);
	json_array_foreach(fields, i, e) {
		const char *t = json_string_value(json_object_get(e, "type"));
		bool nested = false;
		d->names[i] = jstr(a, e, "name");
		if (!d->names[i])
			goto bad;
		if (!t || metadata_type_from_iceberg(t, &d->types[i], &nested) != FLOE_OK || nested)
			d->types[i] = type_make(TYPE_TEXT);
	}
	sum = json_object_get(v, "summary");
	{
		const char *pt = json_string_value(json_object_get(sum, "floe.pg-types"));
		const char *dep = json_string_value(json_object_get(sum, "floe.depends-on"));
		const char *sp = json_string_value(json_object_get(sum, "floe.search-path"));
		d->search_path = sp ? arena_strdup(a, sp) : NULL;
		d->pg_types = split(a, pt ? pt : "", ';', &n, d->ncols);
		if (n != d->ncols)
			memset(d->pg_types, 0, sizeof(char *) * (size_t)d->ncols);
		d->dep_names = split(a, dep ? dep : "", DEP_SEP, &d->ndeps, 0);
		d->dep_ns = ARENA_ARRAY(a, char *, d->ndeps + 1);
		for (n = 0; n < d->ndeps; n++) {
			char *dot = d->dep_names[n] ? strchr(d->dep_names[n], '.') : NULL;
			if (!dot)
				goto bad;
			*dot = 0;
			d->dep_ns[n] = d->dep_names[n];
			d->dep_names[n] = dot + 1;
		}
	}
	json_decref(root);
	*out = d;
	return FLOE_OK;
bad:
	if (root)
		json_decref(root);
	return FLOE_CORRUPT(err, "view metadata file %s is not Iceberg view metadata", path);
}
