/*
 * avro.h — Apache Avro: schemas, a generic datum tree, and Object Container
 * Files (read and write).  A pure codec: no SQL, no Iceberg.
 *
 * Spec: apache/avro specification ("Schema Declaration", "Data
 * Serialization and Deserialization", "Object Container Files").
 *
 * Everything lives in the caller's Arena: schemas, datums, decoded strings
 * (always copied and NUL-terminated, so the input buffer may be released
 * after avro_read_container returns).
 *
 * Reading untrusted bytes: every length, count, varint, union index, enum
 * index and sync marker is checked against explicit bounds; any violation
 * is XX001 (FLOE_CORRUPT) naming the file.  Decompressed blocks are capped
 * at AVRO_MAX_BLOCK bytes; nesting at AVRO_MAX_DEPTH.
 *
 * INTERFACE ROUTINES
 *   avro_schema_parse(json, a, &schema, err)    JSON text -> AvroSchema
 *   avro_read_container(data, len, name, a, &file, err)
 *   avro_file_meta(file, key)                   header metadata (NUL-terminated) or NULL
 *   avro_write_container(schema_json, keys, values, nmeta, records, n, codec, a, &data, &len, err)
 *   avro_encode_datum / avro_decode_datum       one datum, no container
 *   avro_datum_* constructors                   build datums for writing
 *   avro_field_index / avro_field_by_id         look up record fields
 *   avro_record_get / avro_record_get_id        a record datum's field value
 *   avro_unwrap(d)                              union -> its value (NULL for null)
 */
#ifndef FLOE_AVRO_H
#define FLOE_AVRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"

#define AVRO_MAX_BLOCK  ((size_t)64 << 20)   /* decompressed bytes per block */
#define AVRO_MAX_DEPTH  64                   /* schema / datum nesting */

typedef enum AvroType {
	AVRO_NULL = 0,
	AVRO_BOOLEAN,
	AVRO_INT,
	AVRO_LONG,
	AVRO_FLOAT,
	AVRO_DOUBLE,
	AVRO_BYTES,
	AVRO_STRING,
	AVRO_RECORD,
	AVRO_ENUM,
	AVRO_ARRAY,
	AVRO_MAP,
	AVRO_UNION,
	AVRO_FIXED
} AvroType;

typedef enum AvroCodec {
	AVRO_CODEC_NULL = 0,
	AVRO_CODEC_DEFLATE,
	AVRO_CODEC_SNAPPY,
	AVRO_CODEC_ZSTD
} AvroCodec;

typedef struct AvroSchema AvroSchema;

typedef struct AvroField {
	const char *name;
	AvroSchema *type;
	bool has_field_id;        /* Iceberg "field-id" attribute */
	int32_t field_id;
	bool has_default;         /* a "default" was given (any JSON) */
	bool default_is_null;
} AvroField;

struct AvroSchema {
	AvroType type;
	const char *name;          /* full name of record/enum/fixed, else NULL */
	const char *logical_type;  /* "date", "decimal", "map", ... or NULL */
	int32_t precision;         /* decimal */
	int32_t scale;             /* decimal */
	bool adjust_to_utc;        /* Iceberg timestamp attribute "adjust-to-utc" */
	int nfields;               /* RECORD */
	AvroField *fields;
	int nsymbols;              /* ENUM */
	const char **symbols;
	AvroSchema *items;         /* ARRAY items; MAP values */
	bool has_element_id;       /* ARRAY: Iceberg "element-id" */
	int32_t element_id;
	int nbranches;             /* UNION */
	AvroSchema **branches;
	int32_t size;              /* FIXED */
	bool zero_size;            /* may encode to 0 bytes (null, empty record...) */
};

typedef struct AvroDatum AvroDatum;

/* A value.  `type` is the schema type it was read with / is to be written as. */
struct AvroDatum {
	AvroType type;
	union {
		bool b;                          /* BOOLEAN */
		int32_t i;                       /* INT, ENUM (symbol index) */
		int64_t l;                       /* LONG */
		float f;                         /* FLOAT */
		double d;                        /* DOUBLE */
		struct {                         /* BYTES, STRING, FIXED; NUL after */
			const uint8_t *ptr;
			size_t len;
		} bytes;
		struct {                         /* RECORD fields in schema order; ARRAY items */
			int n;
			AvroDatum **items;
		} list;
		struct {                         /* MAP */
			int n;
			const char **keys;
			AvroDatum **values;
		} map;
		struct {                         /* UNION */
			int branch;
			AvroDatum *value;
		} un;
	} u;
};

typedef struct AvroFile {
	const AvroSchema *schema;
	const char *schema_json;
	AvroCodec codec;
	int nmeta;
	const char **meta_keys;
	const uint8_t **meta_values;   /* NUL-terminated copies */
	size_t *meta_lens;
	int64_t nrecords;
	AvroDatum **records;
} AvroFile;

int avro_schema_parse(const char *json, Arena *a, AvroSchema **out, floe_error *err);

int avro_read_container(const uint8_t *data, size_t len, const char *name, Arena *a,
			AvroFile **out, floe_error *err);
const char *avro_file_meta(const AvroFile *f, const char *key);

/* codec: AvroCodec (NULL or DEFLATE; SNAPPY and ZSTD also work). */
int avro_write_container(const char *schema_json, const char *const *meta_keys,
			 const char *const *meta_values, int nmeta,
			 const AvroDatum *const *records, int n, int codec, Arena *a,
			 const uint8_t **data, size_t *len, floe_error *err);

/* Single datum, Avro binary encoding.  decode: *pos advances. */
int avro_decode_datum(const AvroSchema *s, const uint8_t *data, size_t len, size_t *pos,
		      const char *name, Arena *a, AvroDatum **out, floe_error *err);

/* Datum constructors (arena-allocated). */
AvroDatum *avro_datum_null(Arena *a);
AvroDatum *avro_datum_bool(Arena *a, bool v);
AvroDatum *avro_datum_int(Arena *a, int32_t v);
AvroDatum *avro_datum_long(Arena *a, int64_t v);
AvroDatum *avro_datum_float(Arena *a, float v);
AvroDatum *avro_datum_double(Arena *a, double v);
AvroDatum *avro_datum_string(Arena *a, const char *s);           /* not copied */
AvroDatum *avro_datum_bytes(Arena *a, const uint8_t *p, size_t n); /* not copied */
AvroDatum *avro_datum_fixed(Arena *a, const uint8_t *p, size_t n);
AvroDatum *avro_datum_enum(Arena *a, int32_t index);
AvroDatum *avro_datum_record(Arena *a, int nfields);   /* fill u.list.items[i] */
AvroDatum *avro_datum_array(Arena *a, int n);          /* fill u.list.items[i] */
AvroDatum *avro_datum_union(Arena *a, int branch, AvroDatum *value);

/* Record field index by name / by Iceberg field-id; -1 if absent. */
int avro_field_index(const AvroSchema *record, const char *name);
int avro_field_by_id(const AvroSchema *record, int32_t field_id);
/* A record datum's field (read with `record`), or NULL if absent. */
const AvroDatum *avro_record_get(const AvroSchema *record, const AvroDatum *d, const char *name);
/* Field by id, falling back to name (Iceberg readers match ids first). */
const AvroDatum *avro_record_get_id(const AvroSchema *record, const AvroDatum *d,
				   int32_t field_id, const char *name);
/* The schema of that field (same lookup), or NULL. */
const AvroSchema *avro_record_field_schema(const AvroSchema *record, int32_t field_id,
					   const char *name);
/* A union's chosen value (NULL when it is null); other datums unchanged. */
const AvroDatum *avro_unwrap(const AvroDatum *d);
/* The non-null branch schema of a ["null", T] union; other schemas unchanged. */
const AvroSchema *avro_schema_unwrap(const AvroSchema *s);

#endif
