/*
 * types.c — type metadata: widths, PostgreSQL names and OIDs (types.h).
 * Arrays (TYPE_ARRAY) are named and numbered by their element type:
 * "integer[]", OID 1007 (pg_type.typarray of int4); the vector flag
 * makes int2[] PostgreSQL's int2vector (OID 22) and int4[] (floe's oid is
 * int4) its oidvector (OID 30).
 */
#include <stdio.h>
#include "types/types.h"
#include "types/strview.h"
#include "types/udt.h"

size_t
type_width(TypeId id)
{
	switch (id) {
	case TYPE_NULL: return 1;
	case TYPE_BOOL: return 1;
	case TYPE_INT16: return 2;
	case TYPE_INT32: case TYPE_DATE: case TYPE_FLOAT32: return 4;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
	case TYPE_FLOAT64: return 8;
	case TYPE_DECIMAL: return sizeof(int128);
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY: return sizeof(strview);
	case TYPE_INTERVAL: return sizeof(Interval);
	case TYPE_UUID: return sizeof(Uuid);
	case TYPE__COUNT: break;
	}
	return 8;
}

const char *
type_name(SqlType t, char *buf, size_t n)
{
	const char *s = "unknown";

	if (t.udt && t.id != TYPE_ARRAY) {      /* an enum's or a domain's name */
		const Udt *u = udt_get(t.udt);
		snprintf(buf, n, "%s", u ? u->name : "???");
		return buf;
	}
	switch (t.id) {
	case TYPE_NULL: s = "unknown"; break;
	case TYPE_BOOL: s = "boolean"; break;
	case TYPE_INT16: s = "smallint"; break;
	case TYPE_INT32: s = "integer"; break;
	case TYPE_INT64: s = "bigint"; break;
	case TYPE_FLOAT32: s = "real"; break;
	case TYPE_FLOAT64: s = "double precision"; break;
	case TYPE_DECIMAL:
		if (t.precision)
			snprintf(buf, n, "numeric(%d,%d)", t.precision, t.scale);
		else
			snprintf(buf, n, "numeric");
		return buf;
	case TYPE_TEXT:
		if (t.text_kind == TEXT_VARCHAR) {
			if (t.typmod >= 0)
				snprintf(buf, n, "character varying(%d)", t.typmod);
			else
				snprintf(buf, n, "character varying");
			return buf;
		}
		if (t.text_kind == TEXT_CHAR) {
			if (t.typmod >= 0)
				snprintf(buf, n, "character(%d)", t.typmod);
			else
				snprintf(buf, n, "bpchar");   /* no length: PostgreSQL's format_type */
			return buf;
		}
		s = t.text_kind == TEXT_JSON ? "json" : t.text_kind == TEXT_JSONB ? "jsonb" :
		    t.text_kind == TEXT_JSONPATH ? "jsonpath" : "text";
		break;
	case TYPE_BYTEA: s = "bytea"; break;
	case TYPE_DATE: s = "date"; break;
	case TYPE_TIME: s = "time without time zone"; break;
	case TYPE_TIMESTAMP: s = "timestamp without time zone"; break;
	case TYPE_TIMESTAMPTZ: s = "timestamp with time zone"; break;
	case TYPE_INTERVAL: s = "interval"; break;
	case TYPE_UUID: s = "uuid"; break;
	case TYPE_ARRAY: {
		/* the element's name, then [] (format_type: "integer[]") */
		char eb[64];
		SqlType e = t;
		if (t.vector) {
			snprintf(buf, n, "%s", t.vector == ARRAY_RECORD ? "record" :
				 t.elem == TYPE_INT16 ? "int2vector" : "oidvector");
			return buf;
		}
		e.id = (TypeId)t.elem;
		e.elem = 0;
		snprintf(buf, n, "%s[]", type_name(e, eb, sizeof eb));
		return buf;
	}
	case TYPE__COUNT: break;
	}
	snprintf(buf, n, "%s", s);
	return buf;
}

uint32_t
type_pg_oid(TypeId id)
{
	switch (id) {
	case TYPE_NULL: return 705;   /* unknown */
	case TYPE_BOOL: return 16;
	case TYPE_INT16: return 21;
	case TYPE_INT32: return 23;
	case TYPE_INT64: return 20;
	case TYPE_FLOAT32: return 700;
	case TYPE_FLOAT64: return 701;
	case TYPE_DECIMAL: return 1700;
	case TYPE_TEXT: return 25;
	case TYPE_BYTEA: return 17;
	case TYPE_DATE: return 1082;
	case TYPE_TIME: return 1083;
	case TYPE_TIMESTAMP: return 1114;
	case TYPE_TIMESTAMPTZ: return 1184;
	case TYPE_INTERVAL: return 1186;
	case TYPE_UUID: return 2950;
	case TYPE_ARRAY: return 2277;   /* anyarray; type_pg_oid_of knows the element */
	case TYPE__COUNT: break;
	}
	return 705;
}

/* pg_type.typarray of each element type (PostgreSQL 15's OIDs). */
static uint32_t
array_oid(SqlType e)
{
	switch ((TypeId)e.id) {
	case TYPE_BOOL: return 1000;
	case TYPE_INT16: return 1005;
	case TYPE_INT32: return 1007;
	case TYPE_INT64: return 1016;
	case TYPE_FLOAT32: return 1021;
	case TYPE_FLOAT64: return 1022;
	case TYPE_DECIMAL: return 1231;
	case TYPE_TEXT:
		return e.text_kind == TEXT_VARCHAR ? 1015 : e.text_kind == TEXT_CHAR ? 1014 :
		       e.text_kind == TEXT_JSON ? 199 : e.text_kind == TEXT_JSONB ? 3807 :
		       e.text_kind == TEXT_JSONPATH ? 4073 : 1009;
	case TYPE_BYTEA: return 1001;
	case TYPE_DATE: return 1182;
	case TYPE_TIME: return 1183;
	case TYPE_TIMESTAMP: return 1115;
	case TYPE_TIMESTAMPTZ: return 1185;
	case TYPE_INTERVAL: return 1187;
	case TYPE_UUID: return 2951;
	default: return 2277;
	}
}

uint32_t
type_array_elem_oid(uint32_t arr_oid)
{
	static const uint32_t elems[] = { 16, 21, 23, 20, 700, 701, 1700, 25, 1043, 1042, 17,
					  1082, 1083, 1114, 1184, 1186, 2950, 114, 3802, 4072 };
	size_t i;
	for (i = 0; i < sizeof elems / sizeof elems[0]; i++) {
		SqlType e = type_make(TYPE_NULL);
		switch (elems[i]) {
		case 16: e.id = TYPE_BOOL; break;
		case 21: e.id = TYPE_INT16; break;
		case 23: e.id = TYPE_INT32; break;
		case 20: e.id = TYPE_INT64; break;
		case 700: e.id = TYPE_FLOAT32; break;
		case 701: e.id = TYPE_FLOAT64; break;
		case 1700: e.id = TYPE_DECIMAL; break;
		case 25: e.id = TYPE_TEXT; break;
		case 1043: e.id = TYPE_TEXT; e.text_kind = TEXT_VARCHAR; break;
		case 1042: e.id = TYPE_TEXT; e.text_kind = TEXT_CHAR; break;
		case 114: e.id = TYPE_TEXT; e.text_kind = TEXT_JSON; break;
		case 3802: e.id = TYPE_TEXT; e.text_kind = TEXT_JSONB; break;
		case 4072: e.id = TYPE_TEXT; e.text_kind = TEXT_JSONPATH; break;
		case 17: e.id = TYPE_BYTEA; break;
		case 1082: e.id = TYPE_DATE; break;
		case 1083: e.id = TYPE_TIME; break;
		case 1114: e.id = TYPE_TIMESTAMP; break;
		case 1184: e.id = TYPE_TIMESTAMPTZ; break;
		case 1186: e.id = TYPE_INTERVAL; break;
		default: e.id = TYPE_UUID; break;
		}
		if (array_oid(e) == arr_oid)
			return elems[i];
	}
	return 0;
}

uint32_t
type_pg_oid_of(SqlType t)
{
	if (t.udt)     /* its own OID; the array type's is the next (udt.h) */
		return t.udt + (t.id == TYPE_ARRAY);
	if (t.id == TYPE_ARRAY) {
		SqlType e = t;
		if (t.vector)
			return t.vector == ARRAY_RECORD ? 2249 : t.elem == TYPE_INT16 ? 22 : 30;
		e.id = (TypeId)t.elem;
		return array_oid(e);
	}
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_VARCHAR)
		return 1043;
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR)
		return 1042;
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_JSON)
		return 114;
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_JSONB)
		return 3802;
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_JSONPATH)
		return 4072;
	return type_pg_oid(t.id);
}

SqlType
type_make(TypeId id)
{
	SqlType t = { id, 0, 0, TEXT_PLAIN, 0, -1, 0, 0 };
	return t;
}

SqlType
type_json(bool jsonb)
{
	SqlType t = type_make(TYPE_TEXT);
	t.text_kind = jsonb ? TEXT_JSONB : TEXT_JSON;
	return t;
}

SqlType
type_jsonpath(void)
{
	SqlType t = type_make(TYPE_TEXT);
	t.text_kind = TEXT_JSONPATH;
	return t;
}

SqlType
type_int2vector(void)
{
	SqlType t = type_make(TYPE_ARRAY);
	t.elem = TYPE_INT16;
	t.vector = 1;
	return t;
}

SqlType
type_oidvector(void)
{
	SqlType t = type_make(TYPE_ARRAY);
	t.elem = TYPE_INT32;
	t.vector = 1;
	return t;
}

SqlType
type_decimal(int precision, int scale)
{
	SqlType t = type_make(TYPE_DECIMAL);
	t.precision = (uint8_t)precision;
	t.scale = (uint8_t)scale;
	return t;
}

SqlType
type_varchar(int32_t n)
{
	SqlType t = type_make(TYPE_TEXT);
	t.text_kind = TEXT_VARCHAR;
	t.typmod = n;
	return t;
}

bool
type_equal(SqlType a, SqlType b)
{
	return a.id == b.id && a.precision == b.precision && a.scale == b.scale &&
	       a.text_kind == b.text_kind && a.typmod == b.typmod && a.elem == b.elem &&
	       (a.id != TYPE_ARRAY || a.vector == b.vector) && a.udt == b.udt;
}

bool
type_equal_stored(SqlType a, SqlType b)
{
	a.udt = b.udt = 0;
	return type_equal(a, b);
}

bool
type_is_integer(TypeId id)
{
	return id == TYPE_INT16 || id == TYPE_INT32 || id == TYPE_INT64;
}

bool
type_is_int_word(TypeId id)
{
	return id == TYPE_INT32 || id == TYPE_DATE || id == TYPE_INT64 || id == TYPE_TIME ||
	       id == TYPE_TIMESTAMP || id == TYPE_TIMESTAMPTZ;
}

bool
type_is_numeric(TypeId id)
{
	return type_is_integer(id) || id == TYPE_FLOAT32 || id == TYPE_FLOAT64 ||
	       id == TYPE_DECIMAL;
}

bool
type_is_string(TypeId id)
{
	return id == TYPE_TEXT || id == TYPE_BYTEA || id == TYPE_ARRAY;
}

bool
type_is_temporal(TypeId id)
{
	return id == TYPE_DATE || id == TYPE_TIME || id == TYPE_TIMESTAMP ||
	       id == TYPE_TIMESTAMPTZ || id == TYPE_INTERVAL;
}
