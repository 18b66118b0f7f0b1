/*
 * types.c — type metadata: widths, PostgreSQL names and OIDs (types.h).
 */
#include <stdio.h>
#include "types/types.h"
#include "types/strview.h"

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
	case TYPE_TEXT: case TYPE_BYTEA: return sizeof(strview);
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
			snprintf(buf, n, "character(%d)", t.typmod >= 0 ? t.typmod : 1);
			return buf;
		}
		s = "text";
		break;
	case TYPE_BYTEA: s = "bytea"; break;
	case TYPE_DATE: s = "date"; break;
	case TYPE_TIME: s = "time without time zone"; break;
	case TYPE_TIMESTAMP: s = "timestamp without time zone"; break;
	case TYPE_TIMESTAMPTZ: s = "timestamp with time zone"; break;
	case TYPE_INTERVAL: s = "interval"; break;
	case TYPE_UUID: s = "uuid"; break;
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
	case TYPE__COUNT: break;
	}
	return 705;
}

SqlType
type_make(TypeId id)
{
	SqlType t = { id, 0, 0, TEXT_PLAIN, -1 };
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
	       a.text_kind == b.text_kind && a.typmod == b.typmod;
}

bool
type_is_integer(TypeId id)
{
	return id == TYPE_INT16 || id == TYPE_INT32 || id == TYPE_INT64;
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
	return id == TYPE_TEXT || id == TYPE_BYTEA;
}

bool
type_is_temporal(TypeId id)
{
	return id == TYPE_DATE || id == TYPE_TIME || id == TYPE_TIMESTAMP ||
	       id == TYPE_TIMESTAMPTZ || id == TYPE_INTERVAL;
}
