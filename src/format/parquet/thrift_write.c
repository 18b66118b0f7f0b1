/*
 * thrift_write.c — Thrift compact-protocol encoder for the Parquet footer and
 * page headers (apache/thrift doc/specs/thrift-compact-protocol.md;
 * the structures are apache/parquet-format src/main/thrift/parquet.thrift).
 *
 * Output goes to a PqBuf.  Only what Parquet needs is here: structs, i8,
 * i32, i64, bool and binary fields, lists of i32/binary/struct.
 *
 * INTERFACE ROUTINES (parquet_write_int.h)
 *   thrift_write_init, thrift_write_struct_begin/end, thrift_write_field_*,
 *   thrift_write_i32, thrift_write_binary, thrift_write_varint
 *
 * Invariants: every struct_begin/field_struct is matched by one struct_end;
 * field ids within a struct are written in increasing order (so the header
 * delta is positive, else the long form is used).  Nesting deeper than
 * THRIFT_WRITE_MAX_DEPTH is a programming error (Parquet needs 5).
 */
#include "format/parquet/parquet_write_int.h"

void
thrift_write_varint(PqBuf *b, uint64_t v)
{
	pqbuf_reserve(b, 10);
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

static void
zigzag(PqBuf *b, int64_t v)
{
	thrift_write_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void
thrift_write_init(ThriftWriter *t, PqBuf *b)
{
	t->b = b;
	t->depth = 0;
	t->last[0] = 0;
}

static void
push(ThriftWriter *t)
{
	t->depth++;
	t->last[t->depth] = 0;
}

void
thrift_write_struct_begin(ThriftWriter *t)
{
	push(t);
}

void
thrift_write_struct_end(ThriftWriter *t)
{
	pqbuf_byte(t->b, 0);
	t->depth--;
}

static void
header(ThriftWriter *t, int16_t id, int type)
{
	int delta = id - t->last[t->depth];

	if (delta > 0 && delta <= 15) {
		pqbuf_byte(t->b, (uint8_t)((delta << 4) | type));
	} else {
		pqbuf_byte(t->b, (uint8_t)type);
		zigzag(t->b, id);
	}
	t->last[t->depth] = id;
}

void
thrift_write_field_struct(ThriftWriter *t, int16_t id)
{
	header(t, id, TW_STRUCT);
	push(t);
}

void
thrift_write_field_i32(ThriftWriter *t, int16_t id, int32_t v)
{
	header(t, id, TW_I32);
	zigzag(t->b, v);
}

void
thrift_write_field_i64(ThriftWriter *t, int16_t id, int64_t v)
{
	header(t, id, TW_I64);
	zigzag(t->b, v);
}

void
thrift_write_field_i8(ThriftWriter *t, int16_t id, int8_t v)
{
	header(t, id, TW_BYTE);
	pqbuf_byte(t->b, (uint8_t)v);
}

void
thrift_write_field_bool(ThriftWriter *t, int16_t id, bool v)
{
	header(t, id, v ? TW_BOOL_TRUE : TW_BOOL_FALSE);
}

void
thrift_write_binary(ThriftWriter *t, const void *p, size_t n)
{
	thrift_write_varint(t->b, n);
	pqbuf_put(t->b, p, n);
}

void
thrift_write_field_binary(ThriftWriter *t, int16_t id, const void *p, size_t n)
{
	header(t, id, TW_BINARY);
	thrift_write_binary(t, p, n);
}

void
thrift_write_field_list(ThriftWriter *t, int16_t id, int elem_type, int n)
{
	header(t, id, TW_LIST);
	if (n < 15) {
		pqbuf_byte(t->b, (uint8_t)((n << 4) | elem_type));
	} else {
		pqbuf_byte(t->b, (uint8_t)(0xf0 | elem_type));
		thrift_write_varint(t->b, (uint64_t)n);
	}
}

void
thrift_write_i32(ThriftWriter *t, int32_t v)
{
	zigzag(t->b, v);
}
