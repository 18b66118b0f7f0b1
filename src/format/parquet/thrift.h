/*
 * thrift.h — a bounded reader for the Thrift Compact Protocol
 * (apache/thrift doc/specs/thrift-compact-protocol.md), enough to decode the
 * Parquet footer and page headers (parquet.thrift).  Private to format/parquet.
 *
 * Errors are sticky: after any out-of-bounds read, bad type or excessive
 * nesting, t->bad is set and every later read returns zeros/empty, so a
 * decoder can read a whole struct and check t->bad once.  Nothing here
 * allocates.
 */
#ifndef FLOE_PARQUET_THRIFT_H
#define FLOE_PARQUET_THRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compact protocol type ids. */
enum {
	TC_STOP = 0, TC_TRUE = 1, TC_FALSE = 2, TC_BYTE = 3, TC_I16 = 4,
	TC_I32 = 5, TC_I64 = 6, TC_DOUBLE = 7, TC_BINARY = 8, TC_LIST = 9,
	TC_SET = 10, TC_MAP = 11, TC_STRUCT = 12
};

#define THRIFT_MAX_DEPTH 64

typedef struct ThriftIn {
	const uint8_t *p, *end;
	int depth;
	bool bad;
} ThriftIn;

/* A field header: id and type; returns false at STOP (or on error). */
typedef struct ThriftField {
	int16_t id;
	int type;
	int16_t last;        /* previous field id in this struct */
} ThriftField;

void thrift_init(ThriftIn *t, const uint8_t *p, size_t n);
/* Begin a struct: resets f->last; counts nesting depth. */
void thrift_struct_begin(ThriftIn *t, ThriftField *f);
/* Next field; false at STOP (the struct is then finished) or error. */
bool thrift_field_next(ThriftIn *t, ThriftField *f);
int64_t thrift_i64(ThriftIn *t);          /* zigzag varint (i16/i32/i64) */
int32_t thrift_i32(ThriftIn *t);          /* checks the range */
bool thrift_bool(ThriftIn *t, const ThriftField *f);
int8_t thrift_byte(ThriftIn *t);
/* Binary/string: pointer into the buffer and its length. */
const uint8_t *thrift_binary(ThriftIn *t, uint32_t *len);
/* List/set header: element type and count (count <= remaining bytes). */
uint32_t thrift_list(ThriftIn *t, int *elem_type);
/* Skip a value of the given type (bounded depth). */
void thrift_skip(ThriftIn *t, int type);

#endif
