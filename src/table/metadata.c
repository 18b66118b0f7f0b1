/*
 * metadata.c — Iceberg table metadata JSON: parse + validate, model,
 * serialize (see table/metadata.h).
 *
 * Spec: apache/iceberg format/spec.md, "Table Metadata" (fields and which
 * are required per format version), "Schemas and Data Types" (JSON
 * serialization of schemas and types), "Partitioning", "Sorting",
 * "Snapshots", "Snapshot References", "Table Statistics".
 *
 * Parsing accepts plain JSON, gzip (".gz.metadata.json", Java) and zstd
 * (iceberg-go) compressed documents; decompression is bounded by
 * MAX_METADATA_BYTES.  Every problem is XX001 naming the file and the field.
 *
 * Version rules (as the spec and the Java reader apply them):
 *   all:  format-version 1..3, location, last-updated-ms, last-column-id
 *   v1:   "schemas" (+ current-schema-id, else inferred from the legacy
 *         "schema"), or the legacy "schema"; "partition-specs" (default id
 *         inferred as the highest when missing) or legacy "partition-spec";
 *         last-partition-id, sort-orders, table-uuid optional
 *   v2+:  table-uuid, last-sequence-number, schemas, current-schema-id,
 *         partition-specs, default-spec-id, last-partition-id, sort-orders,
 *         default-sort-order-id required
 *   v3:   next-row-id required
 *
 * Invariants of a parsed TableMetadata:
 *   1. current_schema_id names one of schemas[]; default_spec_id one of
 *      specs[]; default_sort_order_id one of sort_orders[].
 *   2. has_current_snapshot implies metadata_current_snapshot() != NULL;
 *      every ref names a snapshot, and the "main" ref equals the current
 *      snapshot; schema ids, spec ids, snapshot ids and the field ids of
 *      one schema (top level) are distinct.
 *   3. Every json_t reachable from the model (extra, raw) is kept alive by a
 *      reference that an arena reset callback of the model's arena drops.
 *   4. serialize(parse(x)) keeps every key of x that the model does not hold.
 *
 * INTERFACE ROUTINES: see metadata.h.
 */
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "table/metadata.h"
#include "types/array.h"
#include "types/text.h"

#define MAX_METADATA_BYTES ((size_t)256 << 20)

/* ---- parse context and errors ----------------------------------------- */

typedef struct P {
	const char *name;
	Arena *a;
	floe_error *err;
} P;

static int
bad(P *p, const char *fmt, ...)
{
	char buf[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return FLOE_CORRUPT(p->err, "invalid table metadata file \"%s\": %s",
			    p->name ? p->name : "(memory)", buf);
}

static void
decref_cb(void *arg)
{
	json_decref((json_t *)arg);
}

/* Keep j alive until the arena is reset. */
static void *
hold(Arena *a, json_t *j)
{
	if (!j)
		return NULL;
	json_incref(j);
	arena_on_reset(a, decref_cb, j);
	return j;
}

/* ---- field getters ---------------------------------------------------- */

/* Absent and JSON null are both "missing". */
static json_t *
field(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_null(v) ? NULL : v;
}

/* " in <ctx>" after a field name in messages, or nothing */
#define IN_CTX(ctx) (ctx) ? " in " : "", (ctx) ? (ctx) : ""

typedef enum { J_INT, J_STR, J_BOOL, J_LIST, J_OBJ } JKind;

static const char *const jkind_name[] = {
	"an integer", "a string", "a boolean", "a list", "an object"
};

static bool
jkind_is(const json_t *j, JKind k)
{
	switch (k) {
	case J_INT: return json_is_integer(j);
	case J_STR: return json_is_string(j);
	case J_BOOL: return json_is_boolean(j);
	case J_LIST: return json_is_array(j);
	default: return json_is_object(j);
	}
}

/* Field key of o, which must be of kind k: *v = it, or NULL when absent
 * (an error when required). */
static int
get_field(P *p, json_t *o, const char *ctx, const char *key, bool required, JKind k, json_t **v)
{
	json_t *j = field(o, key);

	*v = NULL;
	if (!j) {
		if (required)
			return bad(p, "missing required field \"%s\"%s%s", key, IN_CTX(ctx));
		return FLOE_OK;
	}
	if (!jkind_is(j, k))
		return bad(p, "field \"%s\"%s%s must be %s", key, IN_CTX(ctx), jkind_name[k]);
	*v = j;
	return FLOE_OK;
}

static int
get_i64(P *p, json_t *o, const char *ctx, const char *key, bool required,
	int64_t *v, bool *present)
{
	json_t *j;

	TRY(get_field(p, o, ctx, key, required, J_INT, &j));
	if (present)
		*present = j != NULL;
	if (j)
		*v = (int64_t)json_integer_value(j);
	return FLOE_OK;
}

static int
get_i32(P *p, json_t *o, const char *ctx, const char *key, bool required,
	int32_t *v, bool *present)
{
	int64_t x = 0;
	bool pr;

	TRY(get_i64(p, o, ctx, key, required, &x, &pr));
	if (present)
		*present = pr;
	if (!pr)
		return FLOE_OK;
	if (x < INT32_MIN || x > INT32_MAX)
		return bad(p, "field \"%s\"%s%s is out of range", key, IN_CTX(ctx));
	*v = (int32_t)x;
	return FLOE_OK;
}

static int
get_str(P *p, json_t *o, const char *ctx, const char *key, bool required, char **v)
{
	json_t *j;

	*v = NULL;
	TRY(get_field(p, o, ctx, key, required, J_STR, &j));
	if (j)
		*v = arena_strndup(p->a, json_string_value(j), json_string_length(j));
	return FLOE_OK;
}

static int
get_bool(P *p, json_t *o, const char *ctx, const char *key, bool required, bool *v)
{
	json_t *j;

	TRY(get_field(p, o, ctx, key, required, J_BOOL, &j));
	if (j)
		*v = json_is_true(j);
	return FLOE_OK;
}

static int
get_arr(P *p, json_t *o, const char *ctx, const char *key, bool required, json_t **v)
{
	return get_field(p, o, ctx, key, required, J_LIST, v);
}

static int
get_obj(P *p, json_t *o, const char *ctx, const char *key, bool required, json_t **v)
{
	return get_field(p, o, ctx, key, required, J_OBJ, v);
}

/* A string -> string object into MdProp[]; values that are not strings
 * (some writers put numbers) are rendered as JSON text. */
static int
get_props(P *p, json_t *o, const char *ctx, MdProp **out, int *n)
{
	const char *k;
	json_t *v;
	int i = 0;

	*out = ARENA_ARRAY(p->a, MdProp, json_object_size(o) + 1);
	json_object_foreach(o, k, v) {
		MdProp *m = &(*out)[i];
		m->key = arena_strdup(p->a, k);
		if (json_is_string(v)) {
			m->value = arena_strndup(p->a, json_string_value(v), json_string_length(v));
		} else if (json_is_null(v)) {
			return bad(p, "property \"%s\" in %s is null", k, ctx);
		} else {
			char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
			m->value = arena_strdup(p->a, s ? s : "");
			free(s);
		}
		i++;
	}
	*n = i;
	return FLOE_OK;
}

/* ---- types ------------------------------------------------------------ */

int
metadata_type_from_iceberg(const char *s, SqlType *t, bool *nested)
{
	static const struct { const char *name; TypeId id; } prim[] = {
		{ "boolean", TYPE_BOOL }, { "int", TYPE_INT32 }, { "long", TYPE_INT64 },
		{ "float", TYPE_FLOAT32 }, { "double", TYPE_FLOAT64 }, { "date", TYPE_DATE },
		{ "time", TYPE_TIME }, { "timestamp", TYPE_TIMESTAMP },
		{ "timestamptz", TYPE_TIMESTAMPTZ }, { "timestamp_ns", TYPE_TIMESTAMP },
		{ "timestamptz_ns", TYPE_TIMESTAMPTZ }, { "string", TYPE_TEXT },
		{ "uuid", TYPE_UUID }, { "binary", TYPE_BYTEA },
	};
	size_t i;
	int pr, sc, n, len;

	*nested = false;
	*t = type_make(TYPE_NULL);
	for (i = 0; i < sizeof prim / sizeof prim[0]; i++) {
		if (strcmp(s, prim[i].name) == 0) {
			*t = type_make(prim[i].id);
			return FLOE_OK;
		}
	}
	len = -1;
	if (sscanf(s, "decimal(%d,%d)%n", &pr, &sc, &len) == 2 && len == (int)strlen(s)) {
		if (pr < 1 || pr > DECIMAL_MAX_PRECISION || sc < 0 || sc > pr)
			return FLOE_ERR;
		*t = type_decimal(pr, sc);
		return FLOE_OK;
	}
	len = -1;
	if (sscanf(s, "decimal(%d, %d)%n", &pr, &sc, &len) == 2 && len == (int)strlen(s)) {
		if (pr < 1 || pr > DECIMAL_MAX_PRECISION || sc < 0 || sc > pr)
			return FLOE_ERR;
		*t = type_decimal(pr, sc);
		return FLOE_OK;
	}
	len = -1;
	if (sscanf(s, "fixed[%d]%n", &n, &len) == 1 && len == (int)strlen(s)) {
		if (n < 0)
			return FLOE_ERR;
		*t = type_make(TYPE_BYTEA);
		return FLOE_OK;
	}
	/* known but not readable as a flat column (yet) */
	if (strcmp(s, "struct") == 0 || strcmp(s, "list") == 0 || strcmp(s, "map") == 0 ||
	    strcmp(s, "variant") == 0 || strcmp(s, "unknown") == 0 ||
	    strncmp(s, "geometry", 8) == 0 || strncmp(s, "geography", 9) == 0) {
		*nested = true;
		return FLOE_OK;
	}
	return FLOE_ERR;
}

char *
metadata_type_to_iceberg(SqlType t, Arena *a, floe_error *err)
{
	switch (t.id) {
	case TYPE_BOOL: return arena_strdup(a, "boolean");
	case TYPE_INT16:
	case TYPE_INT32: return arena_strdup(a, "int");
	case TYPE_INT64: return arena_strdup(a, "long");
	case TYPE_FLOAT32: return arena_strdup(a, "float");
	case TYPE_FLOAT64: return arena_strdup(a, "double");
	case TYPE_DECIMAL:
		if (t.precision == 0)
			return arena_sprintf(a, "decimal(%d,%d)", DECIMAL_MAX_PRECISION,
					     NUMERIC_DEFAULT_SCALE);
		return arena_sprintf(a, "decimal(%d,%d)", t.precision, t.scale);
	case TYPE_TEXT: return arena_strdup(a, "string");
	case TYPE_BYTEA: return arena_strdup(a, "binary");
	case TYPE_DATE: return arena_strdup(a, "date");
	case TYPE_TIME: return arena_strdup(a, "time");
	case TYPE_TIMESTAMP: return arena_strdup(a, "timestamp");
	case TYPE_TIMESTAMPTZ: return arena_strdup(a, "timestamptz");
	case TYPE_UUID: return arena_strdup(a, "uuid");
	default: {
		char buf[64];
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "type %s cannot be stored in an Iceberg table",
			    type_name(t, buf, sizeof buf));
		return NULL;
	}
	}
}

int
metadata_column_type(IcebergField *f, int32_t *last_id, Arena *a, floe_error *err)
{
	SqlType et;
	char *ice;

	f->nested = false;
	f->nested_type = NULL;
	if (f->type.id != TYPE_ARRAY) {
		f->element_id = 0;
		return (f->iceberg_type = metadata_type_to_iceberg(f->type, a, err)) ? FLOE_OK : FLOE_ERR;
	}
	et = array_elem_type(f->type);
	if (f->type.vector || !array_elem_supported(et) ||
	    !(ice = metadata_type_to_iceberg(et, a, err))) {
		char buf[64];
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "type %s cannot be stored in an Iceberg table",
				   type_name(f->type, buf, sizeof buf));
	}
	if (*last_id == INT32_MAX)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "no field id left for the list element");
	f->iceberg_type = arena_strdup(a, "list");
	f->element_id = ++*last_id;
	f->element_required = false;
	return FLOE_OK;
}

/* {"type": "list", "element-id": E, "element": T, "element-required": B}
 * of an array column built from the model (spec "Nested Types"). */
static json_t *
list_type_json(const IcebergField *f)
{
	json_t *o = json_object();
	floe_error ignore;
	Arena *a = arena_new(0);
	char *et = metadata_type_to_iceberg(array_elem_type(f->type), a, &ignore);

	json_object_set_new(o, "type", json_string("list"));
	json_object_set_new(o, "element-id", json_integer(f->element_id));
	json_object_set_new(o, "element", json_string(et ? et : "string"));
	json_object_set_new(o, "element-required", json_boolean(f->element_required));
	arena_free(a);
	return o;
}

/* ---- schemas, specs, sort orders -------------------------------------- */

/*
 * A primitive field's v3 "initial-default" or "write-default" in the spec's
 * JSON single-value serialization (Appendix D): JSON booleans and numbers, and strings for
 * decimals, dates, times, timestamps, uuids; hex strings for binary.
 */
static int
parse_default(P *p, json_t *d, IcebergField *fl, const char *ctx, const char *key, Value **out)
{
	Value *v;
	floe_error tmp;

	if (!d || json_is_null(d) || fl->nested)
		return FLOE_OK;
	v = ARENA_NEW(p->a, Value);
	v->type = fl->type;
	switch (fl->type.id) {
	case TYPE_BOOL:
		if (!json_is_boolean(d))
			return bad(p, "%s of %s must be a boolean", key, ctx);
		v->u.b = json_is_true(d);
		break;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
		if (!json_is_integer(d))
			return bad(p, "%s of %s must be an integer", key, ctx);
		v->u.i = (int64_t)json_integer_value(d);
		break;
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		if (!json_is_number(d))
			return bad(p, "%s of %s must be a number", key, ctx);
		v->u.f = json_number_value(d);
		break;
	case TYPE_BYTEA: {
		const char *hx = json_string_value(d);
		size_t n, i;
		uint8_t *b;
		if (!hx || (n = strlen(hx)) % 2)
			return bad(p, "%s of %s must be a hex string", key, ctx);
		b = arena_alloc(p->a, n / 2 + 1);
		for (i = 0; i < n / 2; i++) {
			unsigned x;
			if (sscanf(hx + 2 * i, "%2x", &x) != 1)
				return bad(p, "%s of %s must be a hex string", key, ctx);
			b[i] = (uint8_t)x;
		}
		v->u.s = strview_make((const char *)b, (uint32_t)(n / 2));
		break;
	}
	default: {
		const char *str = json_string_value(d);
		if (!str)
			return bad(p, "%s of %s must be a string", key, ctx);
		if (value_from_text(v, fl->type, str, strlen(str), p->a, &tmp) != FLOE_OK)
			return bad(p, "%s of %s: %s", key, ctx, tmp.message);
		break;
	}
	}
	*out = v;
	return FLOE_OK;
}

/* The field ids inside a nested type (struct fields' "id", a list's
 * "element-id", a map's "key-id" and "value-id"), appended to *v. */
typedef struct IdVec {
	int32_t *v;
	size_t n, cap;
} IdVec;

static void
ids_add(IdVec *iv, int32_t id)
{
	if (iv->n == iv->cap) {
		iv->cap = iv->cap ? iv->cap * 2 : 64;
		iv->v = xrealloc(iv->v, iv->cap * sizeof *iv->v);
	}
	iv->v[iv->n++] = id;
}

static void
ids_push(IdVec *iv, json_t *id)
{
	if (json_is_integer(id))  /* a missing id is reported where the type is read */
		ids_add(iv, (int32_t)json_integer_value(id));
}

static int
nested_ids(P *p, json_t *ty, IdVec *iv, int depth)
{
	const char *k;
	json_t *x;
	size_t i;

	if (!json_is_object(ty))
		return FLOE_OK;
	if (depth > 100)
		return bad(p, "a nested type is nested more than 100 levels deep");
	k = json_string_value(json_object_get(ty, "type"));
	if (!k)
		return FLOE_OK;
	if (!strcmp(k, "struct")) {
		json_array_foreach(json_object_get(ty, "fields"), i, x) {
			ids_push(iv, json_object_get(x, "id"));
			TRY(nested_ids(p, json_object_get(x, "type"), iv, depth + 1));
		}
	} else if (!strcmp(k, "list")) {
		ids_push(iv, json_object_get(ty, "element-id"));
		TRY(nested_ids(p, json_object_get(ty, "element"), iv, depth + 1));
	} else if (!strcmp(k, "map")) {
		ids_push(iv, json_object_get(ty, "key-id"));
		ids_push(iv, json_object_get(ty, "value-id"));
		TRY(nested_ids(p, json_object_get(ty, "key"), iv, depth + 1));
		TRY(nested_ids(p, json_object_get(ty, "value"), iv, depth + 1));
	}
	return FLOE_OK;
}

static int
cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* A list whose element is a primitive type floe has reads as an array of
 * it (spec "Nested Types": {"type": "list", "element-id", "element",
 * "element-required"}): fl becomes a flat field of that array type, its
 * nested_type kept (written back as read).  Other lists, structs and maps
 * stay nested. */
static int
list_of_primitive(P *p, json_t *ty, IcebergField *fl, const char *ctx)
{
	json_t *el = json_object_get(ty, "element"), *eid = json_object_get(ty, "element-id");
	SqlType et;
	bool nested;

	if (strcmp(fl->iceberg_type, "list") != 0 || !json_is_string(el))
		return FLOE_OK;
	if (!json_is_integer(eid) || json_integer_value(eid) < INT32_MIN ||
	    json_integer_value(eid) > INT32_MAX)
		return bad(p, "list %s has no integer \"element-id\"", ctx);
	if (metadata_type_from_iceberg(json_string_value(el), &et, &nested) != FLOE_OK)
		return bad(p, "cannot parse type from json: unknown element type \"%s\" of %s",
			   json_string_value(el), ctx);
	if (nested || !array_elem_supported(et))
		return FLOE_OK;         /* a list of variant, geometry...: nested */
	fl->type = array_of(et);
	fl->nested = false;
	fl->element_id = (int32_t)json_integer_value(eid);
	fl->element_required = json_is_true(json_object_get(ty, "element-required"));
	return FLOE_OK;
}

/* Field ids are unique across the whole schema, nested fields included
 * (spec: "Schemas and Data Types": every field, list element, map key and
 * value has a unique id): a duplicate reads the wrong column. */
static int
check_nested_ids(P *p, const IcebergSchema *s)
{
	IdVec iv = { NULL, 0, 0 };
	int rc = FLOE_OK, i;
	bool any = false;

	for (i = 0; i < s->nfields; i++)
		any |= s->fields[i].nested_type != NULL;       /* nested, or a list */
	if (!any)
		return FLOE_OK;   /* top-level ids are checked as they are read */
	for (i = 0; i < s->nfields && rc == FLOE_OK; i++) {
		ids_add(&iv, s->fields[i].id);
		if (s->fields[i].nested_type)
			rc = nested_ids(p, (json_t *)s->fields[i].nested_type, &iv, 0);
	}
	if (rc == FLOE_OK && iv.n > 1) {
		qsort(iv.v, iv.n, sizeof *iv.v, cmp_i32);
		for (size_t j = 1; j < iv.n; j++)
			if (iv.v[j] == iv.v[j - 1]) {
				rc = bad(p, "schema %d has two fields with id %d (nested)", (int)s->schema_id,
					 (int)iv.v[j]);
				break;
			}
	}
	free(iv.v);
	return rc;
}

static int
parse_schema(P *p, json_t *js, IcebergSchema *s, bool v1_legacy)
{
	json_t *fields, *ids, *f;
	const char *tp;
	size_t i;
	bool present;

	if (!json_is_object(js))
		return bad(p, "a schema must be an object");
	tp = json_string_value(json_object_get(js, "type"));
	if (!tp || strcmp(tp, "struct") != 0)
		return bad(p, "cannot parse type from json: schema \"type\" must be \"struct\"");
	s->schema_id = 0;
	TRY(get_i32(p, js, "schema", "schema-id", false, &s->schema_id, &present));
	(void)v1_legacy;
	TRY(get_arr(p, js, "schema", "fields", true, &fields));
	s->nfields = (int)json_array_size(fields);
	s->fields = ARENA_ARRAY(p->a, IcebergField, s->nfields + 1);
	json_array_foreach(fields, i, f) {
		IcebergField *fl = &s->fields[i];
		json_t *ty;
		char ctx[64];

		snprintf(ctx, sizeof ctx, "schema %d field %zu", (int)s->schema_id, i);
		if (!json_is_object(f))
			return bad(p, "%s must be an object", ctx);
		TRY(get_i32(p, f, ctx, "id", true, &fl->id, NULL));
		TRY(get_str(p, f, ctx, "name", true, &fl->name));
		TRY(get_bool(p, f, ctx, "required", true, &fl->required));
		TRY(get_str(p, f, ctx, "doc", false, &fl->doc));
		ty = field(f, "type");
		if (json_is_string(ty)) {
			fl->iceberg_type = arena_strdup(p->a, json_string_value(ty));
			if (metadata_type_from_iceberg(fl->iceberg_type, &fl->type, &fl->nested) != FLOE_OK)
				return bad(p, "cannot parse type from json: unknown type \"%s\" of %s",
					   fl->iceberg_type, ctx);
		} else if (json_is_object(ty)) {
			const char *nt = json_string_value(json_object_get(ty, "type"));
			if (!nt || (strcmp(nt, "struct") && strcmp(nt, "list") && strcmp(nt, "map")))
				return bad(p, "cannot parse type from json: bad nested type of %s", ctx);
			fl->iceberg_type = arena_strdup(p->a, nt);
			fl->nested = true;
			fl->nested_type = ty;     /* held by the schema's raw JSON */
			fl->type = type_make(TYPE_NULL);
			TRY(list_of_primitive(p, ty, fl, ctx));
		} else {
			return bad(p, "missing required field \"type\" in %s", ctx);
		}
		TRY(parse_default(p, field(f, "initial-default"), fl, ctx, "initial-default",
				  &fl->initial_default));
		TRY(parse_default(p, field(f, "write-default"), fl, ctx, "write-default",
				  &fl->write_default));
		for (size_t j = 0; j < i; j++)
			if (s->fields[j].id == fl->id)
				return bad(p, "schema %d has two fields with id %d (\"%s\" and \"%s\")",
					   (int)s->schema_id, (int)fl->id, s->fields[j].name, fl->name);
	}
	TRY(check_nested_ids(p, s));
	TRY(get_arr(p, js, "schema", "identifier-field-ids", false, &ids));
	if (ids) {
		s->nidentifier = (int)json_array_size(ids);
		s->identifier_field_ids = ARENA_ARRAY(p->a, int32_t, s->nidentifier + 1);
		json_array_foreach(ids, i, f) {
			if (!json_is_integer(f))
				return bad(p, "identifier-field-ids must hold integers");
			s->identifier_field_ids[i] = (int32_t)json_integer_value(f);
		}
	}
	return FLOE_OK;
}

static int
parse_spec_fields(P *p, json_t *arr, PartitionSpec *sp, int32_t *next_field_id)
{
	json_t *f;
	size_t i;
	bool present;

	if (!json_is_array(arr))
		return bad(p, "partition spec fields must be a list");
	sp->nfields = (int)json_array_size(arr);
	sp->fields = ARENA_ARRAY(p->a, PartitionField, sp->nfields + 1);
	json_array_foreach(arr, i, f) {
		PartitionField *pf = &sp->fields[i];
		char ctx[64];

		snprintf(ctx, sizeof ctx, "partition spec %d field %zu", (int)sp->spec_id, i);
		if (!json_is_object(f))
			return bad(p, "%s must be an object", ctx);
		TRY(get_str(p, f, ctx, "name", true, &pf->name));
		TRY(get_str(p, f, ctx, "transform", true, &pf->transform));
		TRY(get_i32(p, f, ctx, "source-id", false, &pf->source_id, &present));
		if (!present) {
			/* v3 multi-argument transforms: "source-ids" */
			json_t *ids = field(f, "source-ids");
			if (!json_is_array(ids) || json_array_size(ids) == 0 ||
			    !json_is_integer(json_array_get(ids, 0)))
				return bad(p, "missing required field \"source-id\" in %s", ctx);
			pf->source_id = (int32_t)json_integer_value(json_array_get(ids, 0));
		}
		TRY(get_i32(p, f, ctx, "field-id", false, &pf->field_id, &present));
		if (!present)
			pf->field_id = (*next_field_id)++;
		else if (pf->field_id >= *next_field_id)
			*next_field_id = pf->field_id + 1;
	}
	return FLOE_OK;
}

static int
parse_sort_order(P *p, json_t *o, SortOrder *so)
{
	json_t *fields, *f;
	size_t i;

	if (!json_is_object(o))
		return bad(p, "a sort order must be an object");
	TRY(get_i32(p, o, "sort order", "order-id", true, &so->order_id, NULL));
	TRY(get_arr(p, o, "sort order", "fields", true, &fields));
	so->nfields = (int)json_array_size(fields);
	so->fields = ARENA_ARRAY(p->a, SortField, so->nfields + 1);
	json_array_foreach(fields, i, f) {
		SortField *sf = &so->fields[i];
		bool present;

		if (!json_is_object(f))
			return bad(p, "sort order fields must be objects");
		TRY(get_str(p, f, "sort field", "transform", true, &sf->transform));
		TRY(get_i32(p, f, "sort field", "source-id", false, &sf->source_id, &present));
		if (!present) {
			json_t *ids = field(f, "source-ids");
			if (!json_is_array(ids) || !json_is_integer(json_array_get(ids, 0)))
				return bad(p, "missing required field \"source-id\" in sort field");
			sf->source_id = (int32_t)json_integer_value(json_array_get(ids, 0));
		}
		TRY(get_str(p, f, "sort field", "direction", true, &sf->direction));
		TRY(get_str(p, f, "sort field", "null-order", true, &sf->null_order));
	}
	return FLOE_OK;
}

/* ---- snapshots, refs, logs, statistics -------------------------------- */

static int
parse_snapshot(P *p, json_t *o, int version, Snapshot *s)
{
	json_t *summary, *manifests;
	bool present;
	char ctx[64] = "snapshot";

	if (!json_is_object(o))
		return bad(p, "a snapshot must be an object");
	TRY(get_i64(p, o, ctx, "snapshot-id", true, &s->snapshot_id, NULL));
	snprintf(ctx, sizeof ctx, "snapshot %lld", (long long)s->snapshot_id);
	TRY(get_i64(p, o, ctx, "parent-snapshot-id", false, &s->parent_snapshot_id, &s->has_parent));
	TRY(get_i64(p, o, ctx, "sequence-number", version >= 2, &s->sequence_number, NULL));
	TRY(get_i64(p, o, ctx, "timestamp-ms", true, &s->timestamp_ms, NULL));
	TRY(get_str(p, o, ctx, "manifest-list", false, &s->manifest_list));
	TRY(get_arr(p, o, ctx, "manifests", false, &manifests));
	if (!s->manifest_list) {
		size_t i;
		json_t *m;
		if (version >= 2 || !manifests)
			return bad(p, "missing required field \"manifest-list\" in %s", ctx);
		s->nmanifests_v1 = (int)json_array_size(manifests);
		s->manifests_v1 = ARENA_ARRAY(p->a, char *, s->nmanifests_v1 + 1);
		json_array_foreach(manifests, i, m) {
			if (!json_is_string(m))
				return bad(p, "\"manifests\" of %s must hold strings", ctx);
			s->manifests_v1[i] = arena_strdup(p->a, json_string_value(m));
		}
	}
	TRY(get_obj(p, o, ctx, "summary", version >= 2, &summary));
	if (summary) {
		MdProp *all;
		int n, i, k = 0;
		TRY(get_props(p, summary, ctx, &all, &n));
		s->summary = ARENA_ARRAY(p->a, MdProp, n + 1);
		for (i = 0; i < n; i++) {
			if (strcmp(all[i].key, "operation") == 0)
				s->operation = all[i].value;
			else
				s->summary[k++] = all[i];
		}
		s->nsummary = k;
		if (!s->operation)
			return bad(p, "missing required field \"operation\" in summary of %s", ctx);
	}
	TRY(get_i32(p, o, ctx, "schema-id", false, &s->schema_id, &s->has_schema_id));
	TRY(get_i64(p, o, ctx, "first-row-id", false, &s->first_row_id, &s->has_first_row_id));
	TRY(get_i64(p, o, ctx, "added-rows", false, &s->added_rows, &present));
	s->has_added_rows = present;
	s->extra = o;
	return FLOE_OK;
}

static int
parse_statistics(P *p, json_t *arr, TableMetadata *md)
{
	json_t *o;
	size_t i;

	md->nstatistics = (int)json_array_size(arr);
	md->statistics = ARENA_ARRAY(p->a, StatisticsFile, md->nstatistics + 1);
	json_array_foreach(arr, i, o) {
		StatisticsFile *st = &md->statistics[i];
		if (!json_is_object(o))
			return bad(p, "statistics entries must be objects");
		TRY(get_i64(p, o, "statistics", "snapshot-id", true, &st->snapshot_id, NULL));
		TRY(get_str(p, o, "statistics", "statistics-path", true, &st->statistics_path));
		TRY(get_i64(p, o, "statistics", "file-size-in-bytes", true,
			    &st->file_size_in_bytes, NULL));
		st->raw = o;
	}
	return FLOE_OK;
}

/* ---- the document ----------------------------------------------------- */

/* Cross-field rules (spec "Snapshot References"; Java's TableMetadata):
 * schema ids are distinct, so are spec ids; every ref names a snapshot; the
 * "main" branch and current-snapshot-id agree (a damaged current snapshot
 * id must not read as an empty table). */
static int
check_refs(P *p, const TableMetadata *md)
{
	int i, j;

	for (i = 0; i < md->nschemas; i++)
		for (j = 0; j < i; j++)
			if (md->schemas[i].schema_id == md->schemas[j].schema_id)
				return bad(p, "two schemas have schema-id %d", (int)md->schemas[i].schema_id);
	for (i = 0; i < md->nspecs; i++)
		for (j = 0; j < i; j++)
			if (md->specs[i].spec_id == md->specs[j].spec_id)
				return bad(p, "two partition specs have spec-id %d", (int)md->specs[i].spec_id);
	for (i = 0; i < md->nsnapshots; i++)
		for (j = 0; j < i; j++)
			if (md->snapshots[i].snapshot_id == md->snapshots[j].snapshot_id)
				return bad(p, "two snapshots have snapshot-id %lld",
					   (long long)md->snapshots[i].snapshot_id);
	for (i = 0; i < md->nrefs; i++) {
		const SnapshotRef *r = &md->refs[i];
		if (!metadata_snapshot_by_id(md, r->snapshot_id))
			return bad(p, "ref \"%s\" names snapshot %lld, which is not in \"snapshots\"",
				   r->name, (long long)r->snapshot_id);
		if (strcmp(r->name, "main") == 0 &&
		    (!md->has_current_snapshot || md->current_snapshot_id != r->snapshot_id))
			return bad(p, "current-snapshot-id %lld does not match the main branch (%lld)",
				   md->has_current_snapshot ? (long long)md->current_snapshot_id : -1LL,
				   (long long)r->snapshot_id);
	}
	return FLOE_OK;
}

static int
parse_root(P *p, json_t *root, TableMetadata *md)
{
	json_t *schemas, *legacy_schema, *specs, *legacy_spec, *orders, *props, *snaps;
	json_t *slog, *mlog, *refs, *stats, *o;
	bool has_cur_schema, has_spec_id, has_lpi, has_order_id, present;
	int64_t fv, cur_snap = -1;
	int32_t next_pf = 1000, max_pf = 999;
	size_t i;
	int k;

	if (!json_is_object(root))
		return bad(p, "the document is not a JSON object");
	TRY(get_i64(p, root, NULL, "format-version", true, &fv, NULL));
	if (fv < 1 || fv > 3)
		return bad(p, "cannot read unsupported version %lld (\"format-version\")", (long long)fv);
	md->format_version = (int)fv;
	TRY(get_str(p, root, NULL, "table-uuid", fv >= 2, &md->table_uuid));
	TRY(get_str(p, root, NULL, "location", true, &md->location));
	TRY(get_i64(p, root, NULL, "last-sequence-number", fv >= 2, &md->last_sequence_number, NULL));
	TRY(get_i64(p, root, NULL, "last-updated-ms", true, &md->last_updated_ms, NULL));
	TRY(get_i32(p, root, NULL, "last-column-id", true, &md->last_column_id, NULL));

	/* schemas */
	TRY(get_arr(p, root, NULL, "schemas", fv >= 2, &schemas));
	TRY(get_obj(p, root, NULL, "schema", false, &legacy_schema));
	TRY(get_i32(p, root, NULL, "current-schema-id", fv >= 2 && schemas, &md->current_schema_id,
		    &has_cur_schema));
	if (schemas) {
		md->nschemas = (int)json_array_size(schemas);
		md->schemas = ARENA_ARRAY(p->a, IcebergSchema, md->nschemas + 1);
		md->schema_raw = ARENA_ARRAY(p->a, void *, md->nschemas + 1);
		json_array_foreach(schemas, i, o) {
			TRY(parse_schema(p, o, &md->schemas[i], false));
			md->schema_raw[i] = o;
		}
		if (!has_cur_schema) {
			/* v1: infer from the legacy schema */
			IcebergSchema ls;
			memset(&ls, 0, sizeof ls);
			if (!legacy_schema)
				return bad(p, "no valid schema configuration found: \"schemas\" without "
					   "\"current-schema-id\" or \"schema\"");
			TRY(parse_schema(p, legacy_schema, &ls, true));
			md->current_schema_id = ls.schema_id;
		}
	} else if (legacy_schema) {
		md->nschemas = 1;
		md->schemas = ARENA_ARRAY(p->a, IcebergSchema, 1);
		md->schema_raw = ARENA_ARRAY(p->a, void *, 1);
		TRY(parse_schema(p, legacy_schema, &md->schemas[0], true));
		md->schema_raw[0] = legacy_schema;
		md->current_schema_id = md->schemas[0].schema_id;
	} else {
		return bad(p, "missing required field \"schemas\" (or v1 \"schema\")");
	}
	if (!metadata_schema_by_id(md, md->current_schema_id))
		return bad(p, "cannot find schema with current-schema-id=%d from schemas",
			   (int)md->current_schema_id);

	/* partition specs */
	TRY(get_arr(p, root, NULL, "partition-specs", fv >= 2, &specs));
	TRY(get_arr(p, root, NULL, "partition-spec", false, &legacy_spec));
	TRY(get_i32(p, root, NULL, "default-spec-id", fv >= 2, &md->default_spec_id, &has_spec_id));
	if (specs) {
		md->nspecs = (int)json_array_size(specs);
		md->specs = ARENA_ARRAY(p->a, PartitionSpec, md->nspecs + 1);
		json_array_foreach(specs, i, o) {
			if (!json_is_object(o))
				return bad(p, "partition specs must be objects");
			TRY(get_i32(p, o, "partition spec", "spec-id", true, &md->specs[i].spec_id, NULL));
			TRY(get_arr(p, o, "partition spec", "fields", true, &legacy_spec));
			TRY(parse_spec_fields(p, legacy_spec, &md->specs[i], &next_pf));
			if (!has_spec_id && (i == 0 || md->specs[i].spec_id > md->default_spec_id))
				md->default_spec_id = md->specs[i].spec_id;
		}
	} else if (legacy_spec) {
		md->nspecs = 1;
		md->specs = ARENA_ARRAY(p->a, PartitionSpec, 1);
		TRY(parse_spec_fields(p, legacy_spec, &md->specs[0], &next_pf));
		md->default_spec_id = 0;
	} else {
		/* v1 without any spec: unpartitioned */
		md->nspecs = 1;
		md->specs = ARENA_ARRAY(p->a, PartitionSpec, 1);
		md->default_spec_id = 0;
	}
	if (md->nspecs == 0)
		return bad(p, "\"partition-specs\" is empty");
	if (!metadata_spec_by_id(md, md->default_spec_id))
		return bad(p, "cannot find partition spec with default-spec-id=%d",
			   (int)md->default_spec_id);
	for (k = 0; k < md->nspecs; k++) {
		int j;
		for (j = 0; j < md->specs[k].nfields; j++)
			if (md->specs[k].fields[j].field_id > max_pf)
				max_pf = md->specs[k].fields[j].field_id;
	}
	TRY(get_i32(p, root, NULL, "last-partition-id", fv >= 2, &md->last_partition_id, &has_lpi));
	if (!has_lpi)
		md->last_partition_id = max_pf;

	/* sort orders */
	TRY(get_arr(p, root, NULL, "sort-orders", fv >= 2, &orders));
	TRY(get_i32(p, root, NULL, "default-sort-order-id", fv >= 2, &md->default_sort_order_id,
		    &has_order_id));
	if (orders && json_array_size(orders) > 0) {
		md->nsort_orders = (int)json_array_size(orders);
		md->sort_orders = ARENA_ARRAY(p->a, SortOrder, md->nsort_orders + 1);
		json_array_foreach(orders, i, o)
			TRY(parse_sort_order(p, o, &md->sort_orders[i]));
		if (!has_order_id)
			md->default_sort_order_id = md->sort_orders[0].order_id;
	} else {
		if (fv >= 2 && has_order_id && md->default_sort_order_id != 0)
			return bad(p, "cannot find sort order with default-sort-order-id=%d",
				   (int)md->default_sort_order_id);
		md->nsort_orders = 1;
		md->sort_orders = ARENA_ARRAY(p->a, SortOrder, 1);
		md->default_sort_order_id = 0;
	}
	for (k = 0; k < md->nsort_orders; k++)
		if (md->sort_orders[k].order_id == md->default_sort_order_id)
			break;
	if (k == md->nsort_orders)
		return bad(p, "cannot find sort order with default-sort-order-id=%d",
			   (int)md->default_sort_order_id);

	/* properties */
	TRY(get_obj(p, root, NULL, "properties", false, &props));
	if (props)
		TRY(get_props(p, props, "properties", &md->properties, &md->nproperties));

	/* snapshots */
	TRY(get_arr(p, root, NULL, "snapshots", false, &snaps));
	if (snaps) {
		md->nsnapshots = (int)json_array_size(snaps);
		md->snapshots = ARENA_ARRAY(p->a, Snapshot, md->nsnapshots + 1);
		json_array_foreach(snaps, i, o)
			TRY(parse_snapshot(p, o, md->format_version, &md->snapshots[i]));
	}
	TRY(get_i64(p, root, NULL, "current-snapshot-id", false, &cur_snap, &present));
	if (present && cur_snap != -1) {
		md->has_current_snapshot = true;
		md->current_snapshot_id = cur_snap;
		if (!metadata_snapshot_by_id(md, cur_snap))
			return bad(p, "current-snapshot-id %lld is not in \"snapshots\"",
				   (long long)cur_snap);
	}

	TRY(get_arr(p, root, NULL, "snapshot-log", false, &slog));
	if (slog) {
		md->nsnapshot_log = (int)json_array_size(slog);
		md->snapshot_log = ARENA_ARRAY(p->a, SnapshotLogEntry, md->nsnapshot_log + 1);
		json_array_foreach(slog, i, o) {
			if (!json_is_object(o))
				return bad(p, "snapshot-log entries must be objects");
			TRY(get_i64(p, o, "snapshot-log", "timestamp-ms", true,
				    &md->snapshot_log[i].timestamp_ms, NULL));
			TRY(get_i64(p, o, "snapshot-log", "snapshot-id", true,
				    &md->snapshot_log[i].snapshot_id, NULL));
		}
	}
	TRY(get_arr(p, root, NULL, "metadata-log", false, &mlog));
	if (mlog) {
		md->nmetadata_log = (int)json_array_size(mlog);
		md->metadata_log = ARENA_ARRAY(p->a, MetadataLogEntry, md->nmetadata_log + 1);
		json_array_foreach(mlog, i, o) {
			if (!json_is_object(o))
				return bad(p, "metadata-log entries must be objects");
			TRY(get_i64(p, o, "metadata-log", "timestamp-ms", true,
				    &md->metadata_log[i].timestamp_ms, NULL));
			TRY(get_str(p, o, "metadata-log", "metadata-file", true,
				    &md->metadata_log[i].metadata_file));
		}
	}
	TRY(get_obj(p, root, NULL, "refs", false, &refs));
	if (refs) {
		const char *key;
		md->refs = ARENA_ARRAY(p->a, SnapshotRef, json_object_size(refs) + 1);
		k = 0;
		json_object_foreach(refs, key, o) {
			SnapshotRef *r = &md->refs[k++];
			char ctx[300];
			snprintf(ctx, sizeof ctx, "ref \"%.200s\"", key);
			if (!json_is_object(o))
				return bad(p, "%s must be an object", ctx);
			r->name = arena_strdup(p->a, key);
			TRY(get_i64(p, o, ctx, "snapshot-id", true, &r->snapshot_id, NULL));
			TRY(get_str(p, o, ctx, "type", true, &r->type));
			TRY(get_i32(p, o, ctx, "min-snapshots-to-keep", false,
				    &r->min_snapshots_to_keep, &r->has_min_snapshots_to_keep));
			TRY(get_i64(p, o, ctx, "max-snapshot-age-ms", false,
				    &r->max_snapshot_age_ms, &r->has_max_snapshot_age_ms));
			TRY(get_i64(p, o, ctx, "max-ref-age-ms", false, &r->max_ref_age_ms,
				    &r->has_max_ref_age_ms));
			r->extra = o;
		}
		md->nrefs = k;
	}
	TRY(check_refs(p, md));
	TRY(get_arr(p, root, NULL, "statistics", false, &stats));
	if (stats)
		TRY(parse_statistics(p, stats, md));
	/* required by the spec for v3, but DuckDB writes v3 without it: 0 */
	TRY(get_i64(p, root, NULL, "next-row-id", false, &md->next_row_id, &md->has_next_row_id));
	if (fv >= 3)
		md->has_next_row_id = true;
	md->extra = root;
	return FLOE_OK;
}

/* Inflate gzip or zstd into a bounded malloc buffer. */
static int
decompress(P *p, const uint8_t *in, size_t len, char **out, size_t *outlen)
{
	size_t cap = len * 4 + 4096, n = 0;
	char *buf;

	if (len >= 2 && in[0] == 0x1f && in[1] == 0x8b) {
		z_stream zs;
		int zr;
		memset(&zs, 0, sizeof zs);
		if (inflateInit2(&zs, 15 + 32) != Z_OK)
			return bad(p, "cannot initialise gzip decoder");
		buf = xmalloc(cap);
		zs.next_in = (Bytef *)in;
		zs.avail_in = (uInt)(len > UINT_MAX ? UINT_MAX : len);
		for (;;) {
			if (n == cap) {
				if (cap >= MAX_METADATA_BYTES) {
					inflateEnd(&zs);
					free(buf);
					return bad(p, "decompressed metadata exceeds %zu bytes",
						   MAX_METADATA_BYTES);
				}
				cap *= 2;
				buf = xrealloc(buf, cap);
			}
			zs.next_out = (Bytef *)buf + n;
			zs.avail_out = (uInt)(cap - n);
			zr = inflate(&zs, Z_NO_FLUSH);
			n = cap - zs.avail_out;
			if (zr == Z_STREAM_END)
				break;
			if (zr != Z_OK && !(zr == Z_BUF_ERROR && n == cap)) {
				inflateEnd(&zs);
				free(buf);
				return bad(p, "corrupt gzip stream");
			}
		}
		inflateEnd(&zs);
	} else {
		ZSTD_DCtx *dc = ZSTD_createDCtx();
		ZSTD_inBuffer ib = { in, len, 0 };
		size_t zr = 1;
		buf = xmalloc(cap);
		while (zr != 0) {
			ZSTD_outBuffer ob;
			if (n == cap) {
				if (cap >= MAX_METADATA_BYTES) {
					ZSTD_freeDCtx(dc);
					free(buf);
					return bad(p, "decompressed metadata exceeds %zu bytes",
						   MAX_METADATA_BYTES);
				}
				cap *= 2;
				buf = xrealloc(buf, cap);
			}
			ob.dst = buf;
			ob.size = cap;
			ob.pos = n;
			zr = ZSTD_decompressStream(dc, &ob, &ib);
			n = ob.pos;
			if (ZSTD_isError(zr)) {
				ZSTD_freeDCtx(dc);
				free(buf);
				return bad(p, "corrupt zstd stream: %s", ZSTD_getErrorName(zr));
			}
			if (zr != 0 && ib.pos == ib.size && ob.pos < ob.size) {
				ZSTD_freeDCtx(dc);
				free(buf);
				return bad(p, "truncated zstd stream");
			}
		}
		ZSTD_freeDCtx(dc);
	}
	*out = buf;
	*outlen = n;
	return FLOE_OK;
}

/*
 * Some writers put snapshot ids in (2^63, 2^64) (unsigned ids; duckdb-iceberg's
 * equality_delete_extra_column).  Avro manifests hold them as signed longs,
 * i.e. wrapped, so wrap them the same way here: rewrite every integer
 * literal above INT64_MAX and at most UINT64_MAX as its two's-complement
 * int64.  Returns a malloc'd copy, or NULL when nothing could be rewritten.
 */
static char *
wrap_big_ints(const char *in, size_t len, size_t *outlen)
{
	char *out = xmalloc(len * 2 + 32);
	size_t i = 0, o = 0;
	bool instr = false, changed = false;

	while (i < len) {
		char c = in[i];
		if (instr) {
			out[o++] = c;
			if (c == '\\' && i + 1 < len)
				out[o++] = in[++i];
			else if (c == '"')
				instr = false;
			i++;
			continue;
		}
		if (c == '"') {
			instr = true;
			out[o++] = c;
			i++;
			continue;
		}
		if (c >= '0' && c <= '9' && (i == 0 || in[i - 1] != '-')) {
			size_t j = i;
			uint64_t v = 0;
			bool over = false;
			while (j < len && in[j] >= '0' && in[j] <= '9') {
				unsigned d = (unsigned)(in[j] - '0');
				if (v > (UINT64_MAX - d) / 10)
					over = true;
				v = v * 10 + d;
				j++;
			}
			if (!over && v > (uint64_t)INT64_MAX && j - i <= 20 &&
			    (j >= len || (in[j] != '.' && in[j] != 'e' && in[j] != 'E'))) {
				o += (size_t)sprintf(out + o, "%lld", (long long)(int64_t)v);
				changed = true;
			} else {
				memcpy(out + o, in + i, j - i);
				o += j - i;
			}
			i = j;
			continue;
		}
		out[o++] = c;
		i++;
	}
	if (!changed) {
		free(out);
		return NULL;
	}
	*outlen = o;
	return out;
}

int
metadata_parse(const char *json, size_t len, const char *name, Arena *a,
	       TableMetadata **out, floe_error *err)
{
	P p = { name, a, err };
	const uint8_t *b = (const uint8_t *)json;
	char *plain = NULL;
	size_t plainlen = 0;
	json_error_t je;
	json_t *root;
	TableMetadata *md;

	if ((len >= 2 && b[0] == 0x1f && b[1] == 0x8b) ||
	    (len >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)) {
		TRY(decompress(&p, b, len, &plain, &plainlen));
		json = plain;
		len = plainlen;
	}
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (!root && strstr(je.text, "too big integer")) {
		char *w = wrap_big_ints(json, len, &len);
		if (w) {
			root = json_loadb(w, len, JSON_REJECT_DUPLICATES, &je);
			free(w);
		}
	}
	free(plain);
	if (!root)
		return bad(&p, "not valid JSON: %s (line %d, column %d)", je.text, je.line, je.column);
	hold(a, root);
	json_decref(root);  /* the arena's reference is now the only one */
	md = ARENA_NEW(a, TableMetadata);
	TRY(parse_root(&p, root, md));
	*out = md;
	return FLOE_OK;
}

/* ---- lookups ---------------------------------------------------------- */

const IcebergSchema *
metadata_schema_by_id(const TableMetadata *md, int32_t id)
{
	int i;
	for (i = 0; i < md->nschemas; i++)
		if (md->schemas[i].schema_id == id)
			return &md->schemas[i];
	return NULL;
}

const IcebergSchema *
metadata_current_schema(const TableMetadata *md)
{
	return metadata_schema_by_id(md, md->current_schema_id);
}

const Snapshot *
metadata_snapshot_by_id(const TableMetadata *md, int64_t id)
{
	int i;
	for (i = 0; i < md->nsnapshots; i++)
		if (md->snapshots[i].snapshot_id == id)
			return &md->snapshots[i];
	return NULL;
}

const Snapshot *
metadata_current_snapshot(const TableMetadata *md)
{
	return md->has_current_snapshot ? metadata_snapshot_by_id(md, md->current_snapshot_id) : NULL;
}

const Snapshot *
metadata_snapshot_as_of(const TableMetadata *md, int64_t timestamp_ms)
{
	const Snapshot *best = NULL;
	int i;

	if (md->nsnapshot_log > 0) {
		for (i = 0; i < md->nsnapshot_log; i++)
			if (md->snapshot_log[i].timestamp_ms <= timestamp_ms)
				best = metadata_snapshot_by_id(md, md->snapshot_log[i].snapshot_id);
		return best;
	}
	for (i = 0; i < md->nsnapshots; i++)
		if (md->snapshots[i].timestamp_ms <= timestamp_ms &&
		    (!best || md->snapshots[i].timestamp_ms >= best->timestamp_ms))
			best = &md->snapshots[i];
	return best;
}

const PartitionSpec *
metadata_spec_by_id(const TableMetadata *md, int32_t id)
{
	int i;
	for (i = 0; i < md->nspecs; i++)
		if (md->specs[i].spec_id == id)
			return &md->specs[i];
	return NULL;
}

const PartitionSpec *
metadata_default_spec(const TableMetadata *md)
{
	return metadata_spec_by_id(md, md->default_spec_id);
}

const char *
metadata_property(const TableMetadata *md, const char *key)
{
	int i;
	for (i = 0; i < md->nproperties; i++)
		if (strcmp(md->properties[i].key, key) == 0)
			return md->properties[i].value;
	return NULL;
}

const char *
metadata_summary_get(const Snapshot *s, const char *key)
{
	int i;
	if (strcmp(key, "operation") == 0)
		return s->operation;
	for (i = 0; i < s->nsummary; i++)
		if (strcmp(s->summary[i].key, key) == 0)
			return s->summary[i].value;
	return NULL;
}

int
metadata_partition_type(const TableMetadata *md, const PartitionSpec *spec, int i,
			SqlType *type, floe_error *err)
{
	const IcebergSchema *cur = metadata_current_schema(md);
	const PartitionField *pf = &spec->fields[i];
	const IcebergField *src = NULL;
	const char *t = pf->transform;
	int s, j;

	for (s = -1; s < md->nschemas && !src; s++) {
		const IcebergSchema *sc = s < 0 ? cur : &md->schemas[s];
		for (j = 0; sc && j < sc->nfields; j++)
			if (sc->fields[j].id == pf->source_id) {
				src = &sc->fields[j];
				break;
			}
	}
	if (strncmp(t, "bucket", 6) == 0 || strcmp(t, "year") == 0 || strcmp(t, "month") == 0 ||
	    strcmp(t, "hour") == 0) {
		*type = type_make(TYPE_INT32);
		return FLOE_OK;
	}
	if (strcmp(t, "day") == 0) {
		*type = type_make(TYPE_DATE);
		return FLOE_OK;
	}
	if (!src)
		return floe_errorf(err, ERRCODE_DATA_CORRUPTED,
				   "partition field \"%s\" has unknown source-id %d", pf->name,
				   (int)pf->source_id);
	if (src->nested || src->type.id == TYPE_ARRAY)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "partition field \"%s\" on type %s is not supported", pf->name,
				   src->iceberg_type);
	*type = src->type;   /* identity, truncate[W], void */
	return FLOE_OK;
}

/* ---- serialization ---------------------------------------------------- */

static json_t *
jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Copy the keys of `from` that are not in `skip` (NULL-terminated) into o. */
static void
add_extra(json_t *o, json_t *from, const char *const *skip)
{
	const char *k;
	json_t *v;

	if (!json_is_object(from))
		return;
	json_object_foreach(from, k, v) {
		const char *const *s;
		for (s = skip; *s; s++)
			if (strcmp(*s, k) == 0)
				break;
		if (!*s && !json_object_get(o, k))
			json_object_set(o, k, v);
	}
}

/* A default value in the spec's JSON single-value serialization (Appendix
 * D): booleans and numbers as JSON, binary as hex, every other type as its
 * text ("2017-11-16T22:31:08.123456", "+00:00" for timestamptz). */
static json_t *
default_json(const Value *v)
{
	Arena *a;
	const char *txt;
	size_t len, i;
	char *t;
	json_t *j;

	if (v->is_null)
		return json_null();
	switch (v->type.id) {
	case TYPE_BOOL:
		return json_boolean(v->u.b);
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
		return json_integer((json_int_t)v->u.i);
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		return json_real(v->u.f);
	case TYPE_BYTEA: {
		static const char hx[] = "0123456789abcdef";
		const uint8_t *b = (const uint8_t *)strview_data(&v->u.s);
		char *h = malloc((size_t)v->u.s.len * 2 + 1);
		for (i = 0; i < v->u.s.len; i++) {
			h[2 * i] = hx[b[i] >> 4];
			h[2 * i + 1] = hx[b[i] & 15];
		}
		h[2 * i] = 0;
		j = json_string(h);
		free(h);
		return j;
	}
	default:
		break;
	}
	a = arena_new(0);
	txt = value_to_text_canonical(v, a, &len);
	t = arena_alloc(a, len + 4);
	memcpy(t, txt, len);
	t[len] = 0;
	if (v->type.id == TYPE_TIMESTAMP || v->type.id == TYPE_TIMESTAMPTZ) {
		char *sp = strchr(t, ' ');
		if (sp)
			*sp = 'T';
		if (len >= 3 && (t[len - 3] == '+' || t[len - 3] == '-'))
			memcpy(t + len, ":00", 4);
	}
	j = json_stringn(t, strlen(t));
	arena_free(a);
	return j;
}

static json_t *
schema_json(const IcebergSchema *s)
{
	json_t *o = json_object(), *fields = json_array();
	int i;

	json_object_set_new(o, "type", json_string("struct"));
	json_object_set_new(o, "schema-id", json_integer(s->schema_id));
	if (s->nidentifier > 0) {
		json_t *ids = json_array();
		for (i = 0; i < s->nidentifier; i++)
			json_array_append_new(ids, json_integer(s->identifier_field_ids[i]));
		json_object_set_new(o, "identifier-field-ids", ids);
	}
	for (i = 0; i < s->nfields; i++) {
		const IcebergField *f = &s->fields[i];
		json_t *fo = json_object();
		json_object_set_new(fo, "id", json_integer(f->id));
		json_object_set_new(fo, "name", jstr(f->name));
		json_object_set_new(fo, "required", json_boolean(f->required));
		if (f->nested_type)     /* nested, or a list read as an array */
			json_object_set(fo, "type", (json_t *)f->nested_type);
		else if (f->type.id == TYPE_ARRAY)
			json_object_set_new(fo, "type", list_type_json(f));
		else
			json_object_set_new(fo, "type", jstr(f->iceberg_type));
		if (f->doc)
			json_object_set_new(fo, "doc", json_string(f->doc));
		if (f->initial_default)
			json_object_set_new(fo, "initial-default", default_json(f->initial_default));
		if (f->write_default)
			json_object_set_new(fo, "write-default", default_json(f->write_default));
		json_array_append_new(fields, fo);
	}
	json_object_set_new(o, "fields", fields);
	return o;
}

static json_t *
spec_fields_json(const PartitionSpec *sp)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < sp->nfields; i++) {
		const PartitionField *f = &sp->fields[i];
		json_t *fo = json_object();
		json_object_set_new(fo, "name", jstr(f->name));
		json_object_set_new(fo, "transform", jstr(f->transform));
		json_object_set_new(fo, "source-id", json_integer(f->source_id));
		json_object_set_new(fo, "field-id", json_integer(f->field_id));
		json_array_append_new(arr, fo);
	}
	return arr;
}

static char *
dump(json_t *j, Arena *a, size_t flags)
{
	char *s = json_dumps(j, flags);
	char *r = arena_strdup(a, s ? s : "null");
	free(s);
	json_decref(j);
	return r;
}

char *
schema_to_json(const IcebergSchema *schema, Arena *a)
{
	return dump(schema_json(schema), a, JSON_COMPACT);
}

char *
partition_spec_fields_json(const PartitionSpec *spec, Arena *a)
{
	return dump(spec_fields_json(spec), a, JSON_COMPACT);
}

static json_t *
props_json(const MdProp *p, int n)
{
	json_t *o = json_object();
	int i;
	for (i = 0; i < n; i++)
		json_object_set_new(o, p[i].key, jstr(p[i].value));
	return o;
}

static json_t *
snapshot_json(const Snapshot *s)
{
	static const char *const skip[] = {
		"snapshot-id", "parent-snapshot-id", "sequence-number", "timestamp-ms",
		"manifest-list", "manifests", "summary", "schema-id", "first-row-id",
		"added-rows", NULL
	};
	json_t *o = json_object();
	int i;

	json_object_set_new(o, "snapshot-id", json_integer(s->snapshot_id));
	if (s->has_parent)
		json_object_set_new(o, "parent-snapshot-id", json_integer(s->parent_snapshot_id));
	json_object_set_new(o, "sequence-number", json_integer(s->sequence_number));
	json_object_set_new(o, "timestamp-ms", json_integer(s->timestamp_ms));
	if (s->manifest_list)
		json_object_set_new(o, "manifest-list", json_string(s->manifest_list));
	else {
		json_t *m = json_array();
		for (i = 0; i < s->nmanifests_v1; i++)
			json_array_append_new(m, json_string(s->manifests_v1[i]));
		json_object_set_new(o, "manifests", m);
	}
	if (s->operation) {
		json_t *sum = json_object();
		json_object_set_new(sum, "operation", json_string(s->operation));
		for (i = 0; i < s->nsummary; i++)
			json_object_set_new(sum, s->summary[i].key, jstr(s->summary[i].value));
		json_object_set_new(o, "summary", sum);
	}
	if (s->has_schema_id)
		json_object_set_new(o, "schema-id", json_integer(s->schema_id));
	if (s->has_first_row_id)
		json_object_set_new(o, "first-row-id", json_integer(s->first_row_id));
	if (s->has_added_rows)
		json_object_set_new(o, "added-rows", json_integer(s->added_rows));
	add_extra(o, s->extra, skip);
	return o;
}

/* Schema i as written: its original JSON (nested types, defaults kept),
 * with "schema-id" made explicit; or built from the model if new. */
static json_t *
schema_out(const TableMetadata *md, int i)
{
	json_t *raw = md->schema_raw ? md->schema_raw[i] : NULL;
	json_t *id;

	if (!raw)
		return schema_json(&md->schemas[i]);
	id = json_object_get(raw, "schema-id");
	if (json_is_integer(id) && json_integer_value(id) == md->schemas[i].schema_id)
		return json_incref(raw);
	raw = json_copy(raw);
	json_object_set_new(raw, "schema-id", json_integer(md->schemas[i].schema_id));
	return raw;
}

char *
metadata_serialize(const TableMetadata *md, Arena *a)
{
	static const char *const skip[] = {
		"format-version", "table-uuid", "location", "last-sequence-number",
		"last-updated-ms", "last-column-id", "schema", "schemas", "current-schema-id",
		"partition-spec", "partition-specs", "default-spec-id", "last-partition-id",
		"sort-orders", "default-sort-order-id", "properties", "current-snapshot-id",
		"snapshots", "snapshot-log", "metadata-log", "refs", "statistics",
		"next-row-id", NULL
	};
	static const char *const ref_skip[] = { "snapshot-id", "type", "min-snapshots-to-keep",
		"max-snapshot-age-ms", "max-ref-age-ms", NULL };
	json_t *o = json_object(), *arr;
	const IcebergSchema *cur = metadata_current_schema(md);
	const PartitionSpec *dspec = metadata_default_spec(md);
	int i, j;

	json_object_set_new(o, "format-version", json_integer(md->format_version));
	if (md->table_uuid)
		json_object_set_new(o, "table-uuid", json_string(md->table_uuid));
	json_object_set_new(o, "location", jstr(md->location));
	if (md->format_version >= 2)
		json_object_set_new(o, "last-sequence-number", json_integer(md->last_sequence_number));
	json_object_set_new(o, "last-updated-ms", json_integer(md->last_updated_ms));
	json_object_set_new(o, "last-column-id", json_integer(md->last_column_id));
	if (md->format_version >= 3 || md->has_next_row_id)
		json_object_set_new(o, "next-row-id", json_integer(md->next_row_id));

	/* schemas */
	if (md->format_version == 1 && cur) {
		for (i = 0; i < md->nschemas; i++)
			if (&md->schemas[i] == cur)
				break;
		json_object_set_new(o, "schema", schema_out(md, i));
	}
	json_object_set_new(o, "current-schema-id", json_integer(md->current_schema_id));
	arr = json_array();
	for (i = 0; i < md->nschemas; i++)
		json_array_append_new(arr, schema_out(md, i));
	json_object_set_new(o, "schemas", arr);

	/* partition specs */
	if (md->format_version == 1 && dspec)
		json_object_set_new(o, "partition-spec", spec_fields_json(dspec));
	json_object_set_new(o, "default-spec-id", json_integer(md->default_spec_id));
	arr = json_array();
	for (i = 0; i < md->nspecs; i++) {
		json_t *so = json_object();
		json_object_set_new(so, "spec-id", json_integer(md->specs[i].spec_id));
		json_object_set_new(so, "fields", spec_fields_json(&md->specs[i]));
		json_array_append_new(arr, so);
	}
	json_object_set_new(o, "partition-specs", arr);
	json_object_set_new(o, "last-partition-id", json_integer(md->last_partition_id));

	/* sort orders */
	json_object_set_new(o, "default-sort-order-id", json_integer(md->default_sort_order_id));
	arr = json_array();
	for (i = 0; i < md->nsort_orders; i++) {
		const SortOrder *so = &md->sort_orders[i];
		json_t *sj = json_object(), *fa = json_array();
		json_object_set_new(sj, "order-id", json_integer(so->order_id));
		for (j = 0; j < so->nfields; j++) {
			json_t *f = json_object();
			json_object_set_new(f, "transform", jstr(so->fields[j].transform));
			json_object_set_new(f, "source-id", json_integer(so->fields[j].source_id));
			json_object_set_new(f, "direction", jstr(so->fields[j].direction));
			json_object_set_new(f, "null-order", jstr(so->fields[j].null_order));
			json_array_append_new(fa, f);
		}
		json_object_set_new(sj, "fields", fa);
		json_array_append_new(arr, sj);
	}
	json_object_set_new(o, "sort-orders", arr);

	json_object_set_new(o, "properties", props_json(md->properties, md->nproperties));
	json_object_set_new(o, "current-snapshot-id",
			    json_integer(md->has_current_snapshot ? md->current_snapshot_id : -1));
	if (md->nrefs > 0) {
		json_t *refs = json_object();
		for (i = 0; i < md->nrefs; i++) {
			json_t *r = json_object();
			json_object_set_new(r, "snapshot-id", json_integer(md->refs[i].snapshot_id));
			json_object_set_new(r, "type", jstr(md->refs[i].type));
			if (md->refs[i].has_min_snapshots_to_keep)
				json_object_set_new(r, "min-snapshots-to-keep",
						    json_integer(md->refs[i].min_snapshots_to_keep));
			if (md->refs[i].has_max_snapshot_age_ms)
				json_object_set_new(r, "max-snapshot-age-ms",
						    json_integer(md->refs[i].max_snapshot_age_ms));
			if (md->refs[i].has_max_ref_age_ms)
				json_object_set_new(r, "max-ref-age-ms",
						    json_integer(md->refs[i].max_ref_age_ms));
			add_extra(r, md->refs[i].extra, ref_skip);
			json_object_set_new(refs, md->refs[i].name, r);
		}
		json_object_set_new(o, "refs", refs);
	}
	arr = json_array();
	for (i = 0; i < md->nsnapshots; i++)
		json_array_append_new(arr, snapshot_json(&md->snapshots[i]));
	json_object_set_new(o, "snapshots", arr);
	if (md->nstatistics > 0) {
		static const char *const st_skip[] = {
			"snapshot-id", "statistics-path", "file-size-in-bytes", NULL
		};
		arr = json_array();
		for (i = 0; i < md->nstatistics; i++) {
			const StatisticsFile *st = &md->statistics[i];
			json_t *so = json_object();
			json_object_set_new(so, "snapshot-id", json_integer(st->snapshot_id));
			json_object_set_new(so, "statistics-path", jstr(st->statistics_path));
			json_object_set_new(so, "file-size-in-bytes",
					    json_integer(st->file_size_in_bytes));
			add_extra(so, st->raw, st_skip);
			json_array_append_new(arr, so);
		}
		json_object_set_new(o, "statistics", arr);
	}
	arr = json_array();
	for (i = 0; i < md->nsnapshot_log; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "timestamp-ms", json_integer(md->snapshot_log[i].timestamp_ms));
		json_object_set_new(e, "snapshot-id", json_integer(md->snapshot_log[i].snapshot_id));
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "snapshot-log", arr);
	arr = json_array();
	for (i = 0; i < md->nmetadata_log; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "timestamp-ms", json_integer(md->metadata_log[i].timestamp_ms));
		json_object_set_new(e, "metadata-file", jstr(md->metadata_log[i].metadata_file));
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "metadata-log", arr);
	add_extra(o, md->extra, skip);
	return dump(o, a, JSON_INDENT(2));
}

/* ---- copy ------------------------------------------------------------- */

static void *
dup_array(Arena *a, const void *p, size_t elem, int n)
{
	void *c;
	if (!p)
		return NULL;
	c = arena_calloc(a, elem * (size_t)(n + 1));
	if (n > 0)
		memcpy(c, p, elem * (size_t)n);
	return c;
}

#define DUP_ARRAY(a, p, n) dup_array((a), (p), sizeof(*(p)), (n))

TableMetadata *
metadata_copy(const TableMetadata *md, Arena *a)
{
	TableMetadata *c = arena_memdup(a, md, sizeof *md);
	int i;

	c->schemas = DUP_ARRAY(a, md->schemas, md->nschemas);
	c->schema_raw = ARENA_ARRAY(a, void *, md->nschemas + 1);
	for (i = 0; i < md->nschemas; i++)
		c->schema_raw[i] = md->schema_raw ? hold(a, md->schema_raw[i]) : NULL;
	c->specs = DUP_ARRAY(a, md->specs, md->nspecs);
	c->sort_orders = DUP_ARRAY(a, md->sort_orders, md->nsort_orders);
	c->properties = DUP_ARRAY(a, md->properties, md->nproperties);
	c->snapshots = DUP_ARRAY(a, md->snapshots, md->nsnapshots);
	for (i = 0; i < md->nsnapshots; i++)
		c->snapshots[i].extra = hold(a, md->snapshots[i].extra);
	c->snapshot_log = DUP_ARRAY(a, md->snapshot_log, md->nsnapshot_log);
	c->metadata_log = DUP_ARRAY(a, md->metadata_log, md->nmetadata_log);
	c->refs = DUP_ARRAY(a, md->refs, md->nrefs);
	for (i = 0; i < md->nrefs; i++)
		c->refs[i].extra = hold(a, md->refs[i].extra);
	c->statistics = DUP_ARRAY(a, md->statistics, md->nstatistics);
	for (i = 0; i < md->nstatistics; i++)
		c->statistics[i].raw = hold(a, md->statistics[i].raw);
	c->extra = hold(a, md->extra);
	return c;
}

/* ---- editing ---------------------------------------------------------- */

void
metadata_add_schema(TableMetadata *md, const IcebergSchema *schema, Arena *a)
{
	IcebergSchema *s = ARENA_ARRAY(a, IcebergSchema, md->nschemas + 2);
	void **raw = ARENA_ARRAY(a, void *, md->nschemas + 2);
	int i;

	if (md->nschemas > 0)
		memcpy(s, md->schemas, sizeof(IcebergSchema) * (size_t)md->nschemas);
	if (md->schema_raw)
		memcpy(raw, md->schema_raw, sizeof(void *) * (size_t)md->nschemas);
	s[md->nschemas] = *schema;
	raw[md->nschemas] = NULL;    /* serialized from the model */
	md->schemas = s;
	md->schema_raw = raw;
	md->nschemas++;
	md->current_schema_id = schema->schema_id;
	for (i = 0; i < schema->nfields; i++) {
		if (schema->fields[i].id > md->last_column_id)
			md->last_column_id = schema->fields[i].id;
		if (schema->fields[i].type.id == TYPE_ARRAY &&
		    schema->fields[i].element_id > md->last_column_id)
			md->last_column_id = schema->fields[i].element_id;
	}
}

NameMapping *
metadata_name_mapping(const TableMetadata *md, Arena *a)
{
	const char *txt = metadata_property(md, "schema.name-mapping.default");
	json_t *j, *e;
	NameMapping *nm;
	size_t i, k;

	if (!txt || !(j = json_loads(txt, 0, NULL)))
		return NULL;
	if (!json_is_array(j)) {
		json_decref(j);
		return NULL;
	}
	nm = ARENA_NEW(a, NameMapping);
	nm->n = (int)json_array_size(j);
	nm->field_ids = ARENA_ARRAY(a, int32_t, nm->n + 1);
	nm->nnames = ARENA_ARRAY(a, int, nm->n + 1);
	nm->names = ARENA_ARRAY(a, char **, nm->n + 1);
	json_array_foreach(j, i, e) {
		json_t *id = json_object_get(e, "field-id"), *names = json_object_get(e, "names");
		nm->field_ids[i] = json_is_integer(id) ? (int32_t)json_integer_value(id) : -1;
		nm->nnames[i] = 0;
		nm->names[i] = ARENA_ARRAY(a, char *, json_array_size(names) + 1);
		for (k = 0; json_is_array(names) && k < json_array_size(names); k++) {
			const char *n = json_string_value(json_array_get(names, k));
			if (n)
				nm->names[i][nm->nnames[i]++] = arena_strdup(a, n);
		}
	}
	json_decref(j);
	return nm;
}

int32_t
name_mapping_id(const NameMapping *nm, const char *name)
{
	int i, k;

	for (i = 0; i < nm->n; i++)
		for (k = 0; k < nm->nnames[i]; k++)
			if (!strcmp(nm->names[i][k], name))
				return nm->field_ids[i];
	return -1;
}

void
metadata_set_property(TableMetadata *md, const char *key, const char *value, Arena *a)
{
	MdProp *p;
	int i;

	for (i = 0; i < md->nproperties; i++)
		if (strcmp(md->properties[i].key, key) == 0)
			break;
	if (i < md->nproperties) {
		p = dup_array(a, md->properties, sizeof(MdProp), md->nproperties);
		if (value) {
			p[i].value = arena_strdup(a, value);
		} else {
			memmove(&p[i], &p[i + 1], sizeof(MdProp) * (size_t)(md->nproperties - i - 1));
			md->nproperties--;
		}
		md->properties = p;
		return;
	}
	if (!value)
		return;
	p = ARENA_ARRAY(a, MdProp, md->nproperties + 2);
	if (md->nproperties > 0)
		memcpy(p, md->properties, sizeof(MdProp) * (size_t)md->nproperties);
	p[md->nproperties].key = arena_strdup(a, key);
	p[md->nproperties].value = arena_strdup(a, value);
	md->properties = p;
	md->nproperties++;
}
