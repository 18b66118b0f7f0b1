/*
 * types.h — floe's SQL types and their physical representation in vectors.
 *
 * One TypeId per SQL type of DESIGN.md's table.  Each has exactly one
 * in-memory physical layout (type_width gives its size in a Vector):
 *
 *   TYPE_BOOL         uint8_t (0/1)
 *   TYPE_INT16        int16_t              TYPE_INT32   int32_t
 *   TYPE_INT64        int64_t
 *   TYPE_FLOAT32      float                TYPE_FLOAT64 double
 *   TYPE_DECIMAL      int128 unscaled value, precision/scale in SqlType
 *   TYPE_TEXT         strview (varchar(n)/char(n): typmod = n)
 *   TYPE_BYTEA        strview
 *   TYPE_DATE         int32_t days since 1970-01-01
 *   TYPE_TIME         int64_t microseconds since midnight
 *   TYPE_TIMESTAMP    int64_t microseconds since 1970-01-01 00:00 (no zone)
 *   TYPE_TIMESTAMPTZ  int64_t microseconds since 1970-01-01 00:00 UTC
 *   TYPE_INTERVAL     Interval {months, days, micros}
 *   TYPE_UUID         Uuid (16 bytes, big-endian as written)
 *   TYPE_ARRAY        strview over array.h's encoding; element type in
 *                     SqlType.elem with the element's precision/scale/
 *                     text_kind/typmod in the other fields (array.h);
 *                     SqlType.vector set: int2vector / oidvector
 *                     (type_int2vector / type_oidvector)
 *   TYPE_NULL         no storage: the type of a bare NULL literal
 *
 * INTERFACE ROUTINES
 *   type_width(id)            bytes per value in a flat vector
 *   type_name(t, buf, n)      PostgreSQL's spelling ("numeric(10,2)")
 *   type_pg_oid(id)           the PostgreSQL type OID (for pgwire, pg_catalog)
 *   type_pg_oid_of(t)         the same for a full SqlType (arrays: int4[] 1007 ...)
 *   type_array_elem_oid(oid)  1007 -> 23; 0 when oid is not an array type
 *   type_make(id) / type_decimal(p, s) / type_varchar(n)
 *   type_int2vector() / type_oidvector()   pg_index.indkey's and indclass's types
 *   type_equal(a, b)
 */
#ifndef FLOE_TYPES_H
#define FLOE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef __int128 int128;
typedef unsigned __int128 uint128;

typedef enum TypeId {
	TYPE_NULL = 0,
	TYPE_BOOL,
	TYPE_INT16,
	TYPE_INT32,
	TYPE_INT64,
	TYPE_FLOAT32,
	TYPE_FLOAT64,
	TYPE_DECIMAL,
	TYPE_TEXT,
	TYPE_BYTEA,
	TYPE_DATE,
	TYPE_TIME,
	TYPE_TIMESTAMP,
	TYPE_TIMESTAMPTZ,
	TYPE_INTERVAL,
	TYPE_UUID,
	TYPE_ARRAY,         /* one-dimensional array of SqlType.elem (array.h) */
	TYPE__COUNT
} TypeId;

/* Text subtypes kept for PostgreSQL's names and padding rules; json and
 * jsonb are text validated (json) or normalised (jsonb) on input (json.h). */
typedef enum TextKind { TEXT_PLAIN = 0, TEXT_VARCHAR, TEXT_CHAR, TEXT_JSON, TEXT_JSONB,
		       TEXT_JSONPATH, /* jsonpath.h: stored as jsonpath_out's text */
		       TEXT_ENUM /* the label of the enum SqlType.udt (udt.h) */ } TextKind;
#define type_is_json(t) ((t).id == TYPE_TEXT && ((t).text_kind == TEXT_JSON || \
					       (t).text_kind == TEXT_JSONB))

#define type_is_jsonpath(t) ((t).id == TYPE_TEXT && (t).text_kind == TEXT_JSONPATH)

typedef struct SqlType {
	TypeId id;
	uint8_t precision;  /* TYPE_DECIMAL: 1..38; 0 = unconstrained numeric */
	uint8_t scale;      /* TYPE_DECIMAL */
	uint8_t text_kind;  /* TYPE_TEXT: TextKind */
	uint8_t elem;       /* TYPE_ARRAY: the element's TypeId (the fields above
			       and typmod then describe the element) */
	int32_t typmod;     /* TYPE_TEXT: varchar(n)/char(n) length, -1 none */
	uint8_t vector;     /* TYPE_ARRAY: ARRAY_VECTOR: of int2 / of oid (int4),
			       PostgreSQL's int2vector (OID 22) / oidvector
			       (30): lower bound 0, text "1 2"; ARRAY_RECORD:
			       the record (x, n) of _pg_expandarray over an
			       integer array, stored as the array {x, n}, text
			       "(x,n)", OID 2249 (array.h).  0 for every other
			       type (ignored by type_equal unless TYPE_ARRAY) */
	uint32_t udt;       /* a user-defined type's OID (types/udt.h): the
			       enum of a TEXT_ENUM, or the domain this base
			       type is; 0 for every built-in type */
} SqlType;

typedef struct Interval {
	int32_t months;
	int32_t days;
	int64_t micros;
} Interval;

typedef struct Uuid {
	uint8_t b[16];
} Uuid;

#define DECIMAL_MAX_PRECISION 38
/* numeric without (p,s) is stored as decimal(38, NUMERIC_DEFAULT_SCALE) */
#define NUMERIC_DEFAULT_SCALE 10

size_t type_width(TypeId id);
const char *type_name(SqlType t, char *buf, size_t n);
uint32_t type_pg_oid(TypeId id);
uint32_t type_pg_oid_of(SqlType t);
/* the element type OID of an array type OID (1007 -> 23), 0 if not one */
uint32_t type_array_elem_oid(uint32_t array_oid);
SqlType type_make(TypeId id);
SqlType type_decimal(int precision, int scale);
SqlType type_varchar(int32_t n);
SqlType type_json(bool jsonb);   /* text kind TEXT_JSON / TEXT_JSONB */
SqlType type_jsonpath(void);     /* text kind TEXT_JSONPATH */
#define ARRAY_VECTOR 1
#define ARRAY_RECORD 2
SqlType type_int2vector(void);
SqlType type_oidvector(void);
bool type_equal(SqlType a, SqlType b);
/* the same but for SqlType.udt: values of a and b have one representation
 * (a domain and its base type, an enum and another read as text) */
bool type_equal_stored(SqlType a, SqlType b);
bool type_is_integer(TypeId id);
/* stored as one 4- or 8-byte integer whose values are equal exactly when
 * their bits are (int4, int8, date, time, timestamp[tz]): hash and compare
 * them as one load */
bool type_is_int_word(TypeId id);
bool type_is_numeric(TypeId id);   /* integer, float, decimal */
bool type_is_string(TypeId id);    /* text, bytea: strview storage */
bool type_is_temporal(TypeId id);

#endif
