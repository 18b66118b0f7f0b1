/*
 * thrift_read.c — Thrift Compact Protocol decoding for Parquet metadata.
 *
 * Spec: apache/thrift doc/specs/thrift-compact-protocol.md.  Parquet's
 * footer (FileMetaData) and page headers (PageHeader) are compact-protocol
 * structs; reader.c walks them field by field with this cursor.
 *
 * INTERFACE ROUTINES (thrift.h)
 *   thrift_init, thrift_struct_begin, thrift_field_next, thrift_i64,
 *   thrift_i32, thrift_bool, thrift_byte, thrift_binary, thrift_list,
 *   thrift_skip
 *
 * Invariants: no read goes past t->end; varints longer than 10 bytes, list
 * sizes larger than the remaining bytes and nesting deeper than
 * THRIFT_MAX_DEPTH set the sticky t->bad flag.  Every loop consumes at least
 * one byte per iteration, so corrupt input cannot hang the decoder.
 */
#include "format/parquet/thrift.h"

void
thrift_init(ThriftIn *t, const uint8_t *p, size_t n)
{
	t->p = p;
	t->end = p + n;
	t->depth = 0;
	t->bad = false;
}

static uint64_t
uvarint(ThriftIn *t)
{
	uint64_t v = 0;
	int shift = 0;

	while (!t->bad) {
		if (t->p >= t->end || shift > 63) {
			t->bad = true;
			break;
		}
		uint8_t b = *t->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
	}
	return 0;
}

int64_t
thrift_i64(ThriftIn *t)
{
	uint64_t u = uvarint(t);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

int32_t
thrift_i32(ThriftIn *t)
{
	int64_t v = thrift_i64(t);
	if (v < INT32_MIN || v > INT32_MAX) {
		t->bad = true;
		return 0;
	}
	return (int32_t)v;
}

int8_t
thrift_byte(ThriftIn *t)
{
	if (t->bad || t->p >= t->end) {
		t->bad = true;
		return 0;
	}
	return (int8_t)*t->p++;
}

bool
thrift_bool(ThriftIn *t, const ThriftField *f)
{
	/* In a struct field the value is in the type nibble. */
	if (f->type == TC_TRUE)
		return true;
	if (f->type == TC_FALSE)
		return false;
	t->bad = true;
	return false;
}

const uint8_t *
thrift_binary(ThriftIn *t, uint32_t *len)
{
	uint64_t n = uvarint(t);
	if (t->bad || n > (uint64_t)(t->end - t->p)) {
		t->bad = true;
		*len = 0;
		return (const uint8_t *)"";
	}
	const uint8_t *p = t->p;
	t->p += n;
	*len = (uint32_t)n;
	return p;
}

uint32_t
thrift_list(ThriftIn *t, int *elem_type)
{
	*elem_type = 0;
	if (t->bad || t->p >= t->end) {
		t->bad = true;
		return 0;
	}
	uint8_t h = *t->p++;
	uint64_t n = h >> 4;
	if (n == 15)
		n = uvarint(t);
	*elem_type = h & 0x0f;
	/* Every element takes at least one byte (bools in lists are bytes). */
	if (t->bad || n > (uint64_t)(t->end - t->p)) {
		t->bad = true;
		return 0;
	}
	return (uint32_t)n;
}

void
thrift_struct_begin(ThriftIn *t, ThriftField *f)
{
	f->last = 0;
	f->id = 0;
	f->type = 0;
	if (++t->depth > THRIFT_MAX_DEPTH)
		t->bad = true;
}

bool
thrift_field_next(ThriftIn *t, ThriftField *f)
{
	if (t->bad || t->p >= t->end) {
		t->bad = true;
		t->depth--;
		return false;
	}
	uint8_t h = *t->p++;
	int type = h & 0x0f;
	if (type == TC_STOP) {
		t->depth--;
		return false;
	}
	int delta = h >> 4;
	int16_t id;
	if (delta)
		id = (int16_t)(f->last + delta);
	else {
		int64_t v = thrift_i64(t);
		if (v < INT16_MIN || v > INT16_MAX)
			t->bad = true;
		id = (int16_t)v;
	}
	if (type > TC_STRUCT || t->bad) {
		t->bad = true;
		t->depth--;
		return false;
	}
	f->id = id;
	f->type = type;
	f->last = id;
	return true;
}

void
thrift_skip(ThriftIn *t, int type)
{
	uint32_t len, n;
	int et, kt, vt;
	ThriftField f;

	if (t->bad)
		return;
	switch (type) {
	case TC_TRUE:
	case TC_FALSE:
		return;             /* value was in the field header */
	case TC_BYTE:
		(void)thrift_byte(t);
		return;
	case TC_I16:
	case TC_I32:
	case TC_I64:
		(void)uvarint(t);
		return;
	case TC_DOUBLE:
		if (t->end - t->p < 8)
			t->bad = true;
		else
			t->p += 8;
		return;
	case TC_BINARY:
		(void)thrift_binary(t, &len);
		return;
	case TC_LIST:
	case TC_SET:
		n = thrift_list(t, &et);
		if (++t->depth > THRIFT_MAX_DEPTH)
			t->bad = true;
		for (uint32_t i = 0; i < n && !t->bad; i++) {
			if (et == TC_TRUE || et == TC_FALSE)
				(void)thrift_byte(t);
			else
				thrift_skip(t, et);
		}
		t->depth--;
		return;
	case TC_MAP:
		n = (uint32_t)uvarint(t);
		if (n == 0)
			return;
		{
			uint8_t kv = (uint8_t)thrift_byte(t);
			kt = kv >> 4;
			vt = kv & 0x0f;
		}
		if (t->bad || n > (uint64_t)(t->end - t->p)) {
			t->bad = true;
			return;
		}
		if (++t->depth > THRIFT_MAX_DEPTH)
			t->bad = true;
		for (uint32_t i = 0; i < n && !t->bad; i++) {
			if (kt == TC_TRUE || kt == TC_FALSE)
				(void)thrift_byte(t);
			else
				thrift_skip(t, kt);
			if (vt == TC_TRUE || vt == TC_FALSE)
				(void)thrift_byte(t);
			else
				thrift_skip(t, vt);
		}
		t->depth--;
		return;
	case TC_STRUCT:
		thrift_struct_begin(t, &f);
		while (thrift_field_next(t, &f))
			thrift_skip(t, f.type);
		return;
	default:
		t->bad = true;
		return;
	}
}
