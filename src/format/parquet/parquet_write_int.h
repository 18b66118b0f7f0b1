/*
 * parquet_write_int.h — private to the Parquet writer (writer.c,
 * thrift_write.c, codec_compress.c): a growable byte buffer, the Thrift
 * compact-protocol encoder and compression into a buffer.
 *
 * Thrift compact protocol: apache/thrift doc/specs/thrift-compact-protocol.md.
 * Field headers are delta-encoded against the previous field id of the
 * enclosing struct, so the encoder keeps a stack of "last field id".
 */
#ifndef FLOE_PARQUET_WRITE_INT_H
#define FLOE_PARQUET_WRITE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"

/* A heap byte buffer (xrealloc: aborts on OOM). */
typedef struct PqBuf {
	uint8_t *p;
	size_t len;
	size_t cap;
} PqBuf;

static inline void
pqbuf_reserve(PqBuf *b, size_t extra)
{
	if (b->len + extra > b->cap) {
		size_t c = b->cap ? b->cap * 2 : 4096;
		while (c < b->len + extra)
			c *= 2;
		b->p = xrealloc(b->p, c);
		b->cap = c;
	}
}

static inline void
pqbuf_put(PqBuf *b, const void *p, size_t n)
{
	pqbuf_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline void
pqbuf_byte(PqBuf *b, uint8_t c)
{
	pqbuf_reserve(b, 1);
	b->p[b->len++] = c;
}

static inline void
pqbuf_free(PqBuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* Compact-protocol type ids. */
enum {
	TW_BOOL_TRUE = 1, TW_BOOL_FALSE = 2, TW_BYTE = 3, TW_I16 = 4, TW_I32 = 5,
	TW_I64 = 6, TW_DOUBLE = 7, TW_BINARY = 8, TW_LIST = 9, TW_SET = 10,
	TW_MAP = 11, TW_STRUCT = 12
};

#define THRIFT_WRITE_MAX_DEPTH 32

typedef struct ThriftWriter {
	PqBuf *b;
	int depth;
	int16_t last[THRIFT_WRITE_MAX_DEPTH];
} ThriftWriter;

void thrift_write_init(ThriftWriter *t, PqBuf *b);
void thrift_write_struct_begin(ThriftWriter *t);   /* top level or list element */
void thrift_write_struct_end(ThriftWriter *t);     /* writes the stop byte */
void thrift_write_field_struct(ThriftWriter *t, int16_t id); /* then fields, then struct_end */
void thrift_write_field_i32(ThriftWriter *t, int16_t id, int32_t v);
void thrift_write_field_i64(ThriftWriter *t, int16_t id, int64_t v);
void thrift_write_field_i8(ThriftWriter *t, int16_t id, int8_t v);
void thrift_write_field_bool(ThriftWriter *t, int16_t id, bool v);
void thrift_write_field_binary(ThriftWriter *t, int16_t id, const void *p, size_t n);
void thrift_write_field_list(ThriftWriter *t, int16_t id, int elem_type, int n);
void thrift_write_i32(ThriftWriter *t, int32_t v);          /* list element */
void thrift_write_binary(ThriftWriter *t, const void *p, size_t n);
void thrift_write_varint(PqBuf *b, uint64_t v);

/* Append the compression of src to out (level used by ZSTD/GZIP/BROTLI;
 * <= 0 means the codec's default). */
int codec_compress_append(int codec, int level, const uint8_t *src, size_t n,
			  PqBuf *out, floe_error *err);

#endif
