/*
 * schema.c — Avro schema JSON -> AvroSchema tree (jansson), and lookups.
 *
 * Spec: apache/avro specification, "Schema Declaration" (primitive types,
 * record/enum/array/map/union/fixed, names and namespaces, logical types).
 * Iceberg's attributes are kept: "field-id" on record fields, "element-id"
 * on arrays, "adjust-to-utc" on timestamps, logicalType "map" on arrays of
 * key/value records.
 *
 * INTERFACE ROUTINES
 *   avro_schema_parse(json, a, &schema, err)
 *   avro_field_index / avro_field_by_id / avro_record_field_schema
 *   avro_schema_unwrap
 *   avro__schema_parse(json, a, code, what, &schema, err)   folder-private:
 *       same, failing with the given SQLSTATE and message prefix
 *
 * Invariants: named types are registered before their fields are parsed,
 * so recursive references resolve to the same node (the tree may have
 * cycles; decoders bound depth with AVRO_MAX_DEPTH).  Every schema has
 * zero_size set: true only for null, fixed(0), and records of such fields.
 */
#include <jansson.h>
#include <string.h>
#include "format/avro/avro.h"
#include "format/avro/avro_int.h"

typedef struct NamedType {
	const char *fullname;
	AvroSchema *schema;
} NamedType;

typedef struct ParseCtx {
	Arena *a;
	floe_error *err;
	const char *code;
	const char *what;
	NamedType *names;
	int nnames, cap;
} ParseCtx;

static int
fail(ParseCtx *c, const char *msg, const char *arg)
{
	return floe_errorf(c->err, c->code, "%s: invalid Avro schema: %s%s%s%s", c->what, msg,
			   arg ? " \"" : "", arg ? arg : "", arg ? "\"" : "");
}

static const struct { const char *name; AvroType t; } prims[] = {
	{"null", AVRO_NULL}, {"boolean", AVRO_BOOLEAN}, {"int", AVRO_INT}, {"long", AVRO_LONG},
	{"float", AVRO_FLOAT}, {"double", AVRO_DOUBLE}, {"bytes", AVRO_BYTES},
	{"string", AVRO_STRING},
};

static int
prim_type(const char *s)
{
	for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
		if (strcmp(prims[i].name, s) == 0)
			return (int)prims[i].t;
	return -1;
}

static AvroSchema *
lookup(ParseCtx *c, const char *name, const char *ns)
{
	const char *full = name;
	if (!strchr(name, '.') && ns && *ns)
		full = arena_sprintf(c->a, "%s.%s", ns, name);
	for (int i = 0; i < c->nnames; i++)
		if (strcmp(c->names[i].fullname, full) == 0)
			return c->names[i].schema;
	if (full != name)   /* also try the bare name (null namespace) */
		for (int i = 0; i < c->nnames; i++)
			if (strcmp(c->names[i].fullname, name) == 0)
				return c->names[i].schema;
	return NULL;
}

/* Full name of a named type, and its namespace (for the names inside it). */
static int
name_of(ParseCtx *c, json_t *o, const char *ns, const char **full, const char **newns)
{
	json_t *jn = json_object_get(o, "name");
	if (!json_is_string(jn) || json_string_length(jn) == 0)
		return fail(c, "named type without a name", NULL);
	const char *name = json_string_value(jn);
	json_t *jns = json_object_get(o, "namespace");
	if (json_is_string(jns))
		ns = json_string_value(jns);
	if (strchr(name, '.')) {
		*full = arena_strdup(c->a, name);
		*newns = arena_strndup(c->a, name, (size_t)(strrchr(name, '.') - name));
	} else if (ns && *ns) {
		*full = arena_sprintf(c->a, "%s.%s", ns, name);
		*newns = ns;
	} else {
		*full = arena_strdup(c->a, name);
		*newns = ns;
	}
	return FLOE_OK;
}

static int
register_name(ParseCtx *c, const char *full, AvroSchema *s)
{
	for (int i = 0; i < c->nnames; i++)
		if (strcmp(c->names[i].fullname, full) == 0)
			return fail(c, "type name defined twice:", full);
	if (c->nnames == c->cap) {
		int ncap = c->cap ? c->cap * 2 : 16;
		c->names = arena_realloc(c->a, c->names, sizeof(NamedType) * (size_t)c->cap,
					 sizeof(NamedType) * (size_t)ncap);
		c->cap = ncap;
	}
	c->names[c->nnames].fullname = full;
	c->names[c->nnames].schema = s;
	c->nnames++;
	return FLOE_OK;
}

/* An integer attribute given as a JSON integer or a numeric string. */
static bool
int_attr(json_t *o, const char *key, int32_t *out)
{
	json_t *v = json_object_get(o, key);
	if (json_is_integer(v)) {
		json_int_t x = json_integer_value(v);
		if (x < INT32_MIN || x > INT32_MAX)
			return false;
		*out = (int32_t)x;
		return true;
	}
	if (json_is_string(v)) {
		char *end;
		long long x = strtoll(json_string_value(v), &end, 10);
		if (*json_string_value(v) && !*end && x >= INT32_MIN && x <= INT32_MAX) {
			*out = (int32_t)x;
			return true;
		}
	}
	return false;
}

static int parse(ParseCtx *c, json_t *j, const char *ns, int depth, AvroSchema **out);

static int
parse_record(ParseCtx *c, json_t *o, AvroSchema *s, const char *ns, int depth)
{
	json_t *fields = json_object_get(o, "fields");
	if (!json_is_array(fields))
		return fail(c, "record without a fields array:", s->name);
	size_t n = json_array_size(fields);
	s->nfields = (int)n;
	s->fields = ARENA_ARRAY(c->a, AvroField, n ? n : 1);
	s->zero_size = true;
	for (size_t i = 0; i < n; i++) {
		json_t *f = json_array_get(fields, i);
		AvroField *af = &s->fields[i];
		json_t *jn = json_object_get(f, "name");
		if (!json_is_object(f) || !json_is_string(jn))
			return fail(c, "record field without a name in", s->name);
		af->name = arena_strdup(c->a, json_string_value(jn));
		for (size_t k = 0; k < i; k++)
			if (strcmp(s->fields[k].name, af->name) == 0)
				return fail(c, "duplicate field name", af->name);
		json_t *ft = json_object_get(f, "type");
		if (!ft)
			return fail(c, "record field without a type:", af->name);
		TRY(parse(c, ft, ns, depth + 1, &af->type));
		af->has_field_id = int_attr(f, "field-id", &af->field_id);
		json_t *def = json_object_get(f, "default");
		af->has_default = def != NULL;
		af->default_is_null = json_is_null(def);
		if (!af->type->zero_size)
			s->zero_size = false;
	}
	return FLOE_OK;
}

static int
parse_object(ParseCtx *c, json_t *o, const char *ns, int depth, AvroSchema **out)
{
	json_t *jt = json_object_get(o, "type");
	if (json_is_object(jt) || json_is_array(jt))   /* {"type": {...}}: a wrapper */
		return parse(c, jt, ns, depth + 1, out);
	if (!json_is_string(jt))
		return fail(c, "object without a type", NULL);
	const char *t = json_string_value(jt);
	AvroSchema *s;
	int p = prim_type(t);
	if (p >= 0) {
		s = ARENA_NEW(c->a, AvroSchema);
		s->type = (AvroType)p;
		s->zero_size = s->type == AVRO_NULL;
	} else if (strcmp(t, "record") == 0 || strcmp(t, "error") == 0) {
		const char *full, *newns;
		s = ARENA_NEW(c->a, AvroSchema);
		s->type = AVRO_RECORD;
		TRY(name_of(c, o, ns, &full, &newns));
		s->name = full;
		TRY(register_name(c, full, s));
		TRY(parse_record(c, o, s, newns, depth));
	} else if (strcmp(t, "enum") == 0) {
		const char *full, *newns;
		s = ARENA_NEW(c->a, AvroSchema);
		s->type = AVRO_ENUM;
		TRY(name_of(c, o, ns, &full, &newns));
		s->name = full;
		TRY(register_name(c, full, s));
		json_t *sym = json_object_get(o, "symbols");
		if (!json_is_array(sym) || json_array_size(sym) == 0)
			return fail(c, "enum without symbols:", full);
		s->nsymbols = (int)json_array_size(sym);
		s->symbols = ARENA_ARRAY(c->a, const char *, s->nsymbols);
		for (int i = 0; i < s->nsymbols; i++) {
			json_t *x = json_array_get(sym, (size_t)i);
			if (!json_is_string(x))
				return fail(c, "enum symbol is not a string in", full);
			s->symbols[i] = arena_strdup(c->a, json_string_value(x));
		}
	} else if (strcmp(t, "fixed") == 0) {
		const char *full, *newns;
		s = ARENA_NEW(c->a, AvroSchema);
		s->type = AVRO_FIXED;
		TRY(name_of(c, o, ns, &full, &newns));
		s->name = full;
		json_t *sz = json_object_get(o, "size");
		if (!json_is_integer(sz) || json_integer_value(sz) < 0 ||
		    json_integer_value(sz) > INT32_MAX)
			return fail(c, "fixed without a valid size:", full);
		s->size = (int32_t)json_integer_value(sz);
		s->zero_size = s->size == 0;
		TRY(register_name(c, full, s));
	} else if (strcmp(t, "array") == 0) {
		json_t *it = json_object_get(o, "items");
		if (!it)
			return fail(c, "array without items", NULL);
		s = ARENA_NEW(c->a, AvroSchema);
		s->type = AVRO_ARRAY;
		TRY(parse(c, it, ns, depth + 1, &s->items));
		s->has_element_id = int_attr(o, "element-id", &s->element_id);
	} else if (strcmp(t, "map") == 0) {
		json_t *it = json_object_get(o, "values");
		if (!it)
			return fail(c, "map without values", NULL);
		s = ARENA_NEW(c->a, AvroSchema);
		s->type = AVRO_MAP;
		TRY(parse(c, it, ns, depth + 1, &s->items));
	} else {
		/* {"type": "SomeName"}: a reference with attributes */
		AvroSchema *ref = lookup(c, t, ns);
		if (!ref)
			return fail(c, "unknown type", t);
		*out = ref;
		return FLOE_OK;
	}
	json_t *lt = json_object_get(o, "logicalType");
	if (json_is_string(lt)) {
		s->logical_type = arena_strdup(c->a, json_string_value(lt));
		int32_t v;
		if (int_attr(o, "precision", &v))
			s->precision = v;
		if (int_attr(o, "scale", &v))
			s->scale = v;
	}
	json_t *adj = json_object_get(o, "adjust-to-utc");
	s->adjust_to_utc = json_is_true(adj) ||
		(json_is_string(adj) && strcmp(json_string_value(adj), "true") == 0);
	*out = s;
	return FLOE_OK;
}

static int
parse(ParseCtx *c, json_t *j, const char *ns, int depth, AvroSchema **out)
{
	if (depth > AVRO_MAX_DEPTH)
		return fail(c, "nested too deeply", NULL);
	if (json_is_string(j)) {
		const char *t = json_string_value(j);
		int p = prim_type(t);
		if (p >= 0) {
			AvroSchema *s = ARENA_NEW(c->a, AvroSchema);
			s->type = (AvroType)p;
			s->zero_size = s->type == AVRO_NULL;
			*out = s;
			return FLOE_OK;
		}
		AvroSchema *ref = lookup(c, t, ns);
		if (!ref)
			return fail(c, "unknown type", t);
		*out = ref;
		return FLOE_OK;
	}
	if (json_is_array(j)) {
		size_t n = json_array_size(j);
		if (n == 0)
			return fail(c, "empty union", NULL);
		AvroSchema *s = ARENA_NEW(c->a, AvroSchema);
		s->type = AVRO_UNION;
		s->nbranches = (int)n;
		s->branches = ARENA_ARRAY(c->a, AvroSchema *, n);
		for (size_t i = 0; i < n; i++) {
			TRY(parse(c, json_array_get(j, i), ns, depth + 1, &s->branches[i]));
			if (s->branches[i]->type == AVRO_UNION)
				return fail(c, "union directly inside a union", NULL);
		}
		*out = s;
		return FLOE_OK;
	}
	if (json_is_object(j))
		return parse_object(c, j, ns, depth, out);
	return fail(c, "a schema must be a string, object or array", NULL);
}

int
avro__schema_parse(const char *json, Arena *a, const char *code, const char *what,
		   AvroSchema **out, floe_error *err)
{
	json_error_t jerr;
	json_t *root = json_loads(json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	ParseCtx c = {.a = a, .err = err, .code = code, .what = what};
	if (!root)
		return floe_errorf(err, code, "%s: invalid Avro schema JSON: %s (line %d)", what,
				   jerr.text, jerr.line);
	int rc = parse(&c, root, NULL, 0, out);
	json_decref(root);
	return rc;
}

int
avro_schema_parse(const char *json, Arena *a, AvroSchema **out, floe_error *err)
{
	return avro__schema_parse(json, a, ERRCODE_INVALID_PARAMETER_VALUE, "schema", out, err);
}

int
avro_field_index(const AvroSchema *record, const char *name)
{
	if (!record || record->type != AVRO_RECORD || !name)
		return -1;
	for (int i = 0; i < record->nfields; i++)
		if (strcmp(record->fields[i].name, name) == 0)
			return i;
	return -1;
}

int
avro_field_by_id(const AvroSchema *record, int32_t field_id)
{
	if (!record || record->type != AVRO_RECORD)
		return -1;
	for (int i = 0; i < record->nfields; i++)
		if (record->fields[i].has_field_id && record->fields[i].field_id == field_id)
			return i;
	return -1;
}

static int
field_lookup(const AvroSchema *record, int32_t field_id, const char *name)
{
	int i = field_id >= 0 ? avro_field_by_id(record, field_id) : -1;
	if (i < 0)
		i = avro_field_index(record, name);
	return i;
}

const AvroSchema *
avro_record_field_schema(const AvroSchema *record, int32_t field_id, const char *name)
{
	int i = field_lookup(record, field_id, name);
	return i < 0 ? NULL : record->fields[i].type;
}

const AvroDatum *
avro_record_get(const AvroSchema *record, const AvroDatum *d, const char *name)
{
	int i = avro_field_index(record, name);
	if (i < 0 || !d || d->type != AVRO_RECORD || i >= d->u.list.n)
		return NULL;
	return d->u.list.items[i];
}

const AvroDatum *
avro_record_get_id(const AvroSchema *record, const AvroDatum *d, int32_t field_id,
		   const char *name)
{
	int i = field_lookup(record, field_id, name);
	if (i < 0 || !d || d->type != AVRO_RECORD || i >= d->u.list.n)
		return NULL;
	return d->u.list.items[i];
}

const AvroDatum *
avro_unwrap(const AvroDatum *d)
{
	while (d && d->type == AVRO_UNION)
		d = d->u.un.value;
	if (d && d->type == AVRO_NULL)
		return NULL;
	return d;
}

const AvroSchema *
avro_schema_unwrap(const AvroSchema *s)
{
	if (s && s->type == AVRO_UNION) {
		const AvroSchema *nn = NULL;
		int count = 0;
		for (int i = 0; i < s->nbranches; i++)
			if (s->branches[i]->type != AVRO_NULL) {
				nn = s->branches[i];
				count++;
			}
		if (count == 1)
			return nn;
	}
	return s;
}
