/*
 * datum.c — Avro binary encoding of one datum: decode (bounded, untrusted
 * bytes) and encode (against a schema), plus the datum constructors.
 *
 * Spec: apache/avro specification, "Data Serialization and
 * Deserialization" / "Binary Encoding": zig-zag varints for int and long,
 * little-endian IEEE floats, length-prefixed bytes/strings, records as
 * their fields in order, enums and unions as an int index, arrays and maps
 * as blocks (count; a negative count is followed by the block's byte size;
 * a zero count ends), fixed as its raw bytes.
 *
 * INTERFACE ROUTINES
 *   avro_decode_datum(schema, data, len, &pos, name, a, &datum, err)
 *   avro__encode(schema, datum, buf, depth, err)    (folder-private)
 *   avro__get_long(data, len, &pos, name, &v, err)  (folder-private)
 *   avro__decode(schema, data, len, &pos, name, a, &budget, &datum, err)
 *   avro__buf_put / avro__put_long / avro__put_bytes
 *   avro_datum_null/bool/int/long/float/double/string/bytes/fixed/enum/
 *     record/array/union
 *
 * Invariants (decode): never reads past data+len; a varint has at most 10
 * bytes (bits past 64 in the 10th are dropped, as Java does); an int fits
 * 32 bits; lengths and counts are at most the bytes left (items that can encode to zero bytes are capped at
 * ZERO_SIZE_ITEMS per array); nesting is at most AVRO_MAX_DEPTH; the
 * number of datums is at most AVRO_DATUM_BUDGET(input bytes), so memory
 * stays proportional to the input even under high-ratio compression.  Every
 * violation is XX001 naming the file.  Decoded strings/bytes are copied into
 * the arena and NUL-terminated.
 */
#include <string.h>
#include "format/avro/avro.h"
#include "format/avro/avro_int.h"

#define ZERO_SIZE_ITEMS (1 << 20)

typedef struct Dec {
	const uint8_t *p, *end;
	const char *name;
	Arena *a;
	floe_error *err;
	int64_t *budget;          /* datums still allowed (see AVRO_DATUM_BUDGET) */
} Dec;

static int
get_long(Dec *d, int64_t *out)
{
	uint64_t v = 0;
	int shift = 0;
	for (;;) {
		if (d->p >= d->end)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": truncated varint", d->name);
		uint8_t b = *d->p++;
		if (shift == 63) {
			/* 10th byte: bits past 64 are dropped, as Java's BinaryDecoder does
			 * (a hand-made Iceberg manifest in testdata needs it); an 11th
			 * byte is an error */
			if (b & 0x80)
				return FLOE_CORRUPT(d->err, "Avro file \"%s\": varint longer than 10 bytes",
						    d->name);
			v |= (uint64_t)(b & 1) << 63;
			break;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*out = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
	return FLOE_OK;
}

static int
get_int(Dec *d, int32_t *out)
{
	int64_t v;
	TRY(get_long(d, &v));
	if (v < INT32_MIN || v > INT32_MAX)
		return FLOE_CORRUPT(d->err, "Avro file \"%s\": int value %lld out of range", d->name,
				    (long long)v);
	*out = (int32_t)v;
	return FLOE_OK;
}

static int
get_raw(Dec *d, size_t n, const uint8_t **p)
{
	if ((size_t)(d->end - d->p) < n)
		return FLOE_CORRUPT(d->err, "Avro file \"%s\": value of %zu bytes overruns its block (%zu bytes left)",
				    d->name, n, (size_t)(d->end - d->p));
	*p = d->p;
	d->p += n;
	return FLOE_OK;
}

static int
get_bytes(Dec *d, const uint8_t **out, size_t *len)
{
	int64_t n;
	const uint8_t *p;
	TRY(get_long(d, &n));
	if (n < 0)
		return FLOE_CORRUPT(d->err, "Avro file \"%s\": negative length %lld", d->name,
				    (long long)n);
	TRY(get_raw(d, (size_t)n, &p));
	uint8_t *copy = arena_alloc(d->a, (size_t)n + 1);
	if (n)
		memcpy(copy, p, (size_t)n);
	copy[n] = 0;
	*out = copy;
	*len = (size_t)n;
	return FLOE_OK;
}

/* One block count of an array/map; 0 ends.  Checks it against the bytes left. */
static int
block_count(Dec *d, const AvroSchema *items, int64_t total, int64_t *count)
{
	int64_t c, size;
	TRY(get_long(d, &c));
	if (c < 0) {
		if (c == INT64_MIN)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": bad block count", d->name);
		c = -c;
		TRY(get_long(d, &size));
		if (size < 0 || size > d->end - d->p)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": bad block byte size %lld",
					    d->name, (long long)size);
	}
	if (items && items->zero_size) {
		if (c > ZERO_SIZE_ITEMS - total)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": absurd item count %lld",
					    d->name, (long long)c);
	} else if (c > d->end - d->p) {
		return FLOE_CORRUPT(d->err, "Avro file \"%s\": item count %lld exceeds the bytes left",
				    d->name, (long long)c);
	}
	*count = c;
	return FLOE_OK;
}

static int decode(Dec *d, const AvroSchema *s, int depth, AvroDatum **out);

static int
decode_array(Dec *d, const AvroSchema *s, int depth, AvroDatum *r)
{
	int64_t total = 0, cap = 0, c;
	AvroDatum **items = NULL;
	for (;;) {
		TRY(block_count(d, s->items, total, &c));
		if (c == 0)
			break;
		if (total + c > cap) {
			int64_t ncap = (total + c) * 2;
			items = arena_realloc(d->a, items, sizeof(*items) * (size_t)cap,
					      sizeof(*items) * (size_t)ncap);
			cap = ncap;
		}
		for (int64_t i = 0; i < c; i++)
			TRY(decode(d, s->items, depth + 1, &items[total + i]));
		total += c;
		if (total > INT32_MAX / 2)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": too many items", d->name);
	}
	r->u.list.n = (int)total;
	r->u.list.items = items;
	return FLOE_OK;
}

static int
decode_map(Dec *d, const AvroSchema *s, int depth, AvroDatum *r)
{
	int64_t total = 0, cap = 0, c;
	const char **keys = NULL;
	AvroDatum **vals = NULL;
	for (;;) {
		TRY(block_count(d, NULL, total, &c));   /* a key takes >= 1 byte */
		if (c == 0)
			break;
		if (total + c > cap) {
			int64_t ncap = (total + c) * 2;
			keys = arena_realloc(d->a, keys, sizeof(*keys) * (size_t)cap,
					     sizeof(*keys) * (size_t)ncap);
			vals = arena_realloc(d->a, vals, sizeof(*vals) * (size_t)cap,
					     sizeof(*vals) * (size_t)ncap);
			cap = ncap;
		}
		for (int64_t i = 0; i < c; i++) {
			const uint8_t *k;
			size_t kl;
			TRY(get_bytes(d, &k, &kl));
			keys[total + i] = (const char *)k;
			TRY(decode(d, s->items, depth + 1, &vals[total + i]));
		}
		total += c;
		if (total > INT32_MAX / 2)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": too many map entries", d->name);
	}
	r->u.map.n = (int)total;
	r->u.map.keys = keys;
	r->u.map.values = vals;
	return FLOE_OK;
}

static int
decode(Dec *d, const AvroSchema *s, int depth, AvroDatum **out)
{
	const uint8_t *p = NULL;
	if (depth > AVRO_MAX_DEPTH)
		return FLOE_CORRUPT(d->err, "Avro file \"%s\": data nested too deeply", d->name);
	if (--*d->budget < 0)
		return FLOE_CORRUPT(d->err, "Avro file \"%s\": more values than a file of its size can hold",
				    d->name);
	AvroDatum *r = ARENA_NEW(d->a, AvroDatum);
	r->type = s->type;
	*out = r;
	switch (s->type) {
	case AVRO_NULL:
		return FLOE_OK;
	case AVRO_BOOLEAN:
		TRY(get_raw(d, 1, &p));
		if (*p > 1)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": bad boolean byte %u", d->name, *p);
		r->u.b = *p;
		return FLOE_OK;
	case AVRO_INT:
		return get_int(d, &r->u.i);
	case AVRO_LONG:
		return get_long(d, &r->u.l);
	case AVRO_FLOAT:
		TRY(get_raw(d, 4, &p));
		memcpy(&r->u.f, p, 4);
		return FLOE_OK;
	case AVRO_DOUBLE:
		TRY(get_raw(d, 8, &p));
		memcpy(&r->u.d, p, 8);
		return FLOE_OK;
	case AVRO_BYTES:
	case AVRO_STRING:
		return get_bytes(d, &r->u.bytes.ptr, &r->u.bytes.len);
	case AVRO_FIXED: {
		TRY(get_raw(d, (size_t)s->size, &p));
		uint8_t *copy = arena_alloc(d->a, (size_t)s->size + 1);
		memcpy(copy, p, (size_t)s->size);
		copy[s->size] = 0;
		r->u.bytes.ptr = copy;
		r->u.bytes.len = (size_t)s->size;
		return FLOE_OK;
	}
	case AVRO_ENUM:
		TRY(get_int(d, &r->u.i));
		if (r->u.i < 0 || r->u.i >= s->nsymbols)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": enum index %d out of range (%d symbols)",
					    d->name, r->u.i, s->nsymbols);
		return FLOE_OK;
	case AVRO_RECORD:
		r->u.list.n = s->nfields;
		r->u.list.items = ARENA_ARRAY(d->a, AvroDatum *, s->nfields ? s->nfields : 1);
		for (int i = 0; i < s->nfields; i++)
			TRY(decode(d, s->fields[i].type, depth + 1, &r->u.list.items[i]));
		return FLOE_OK;
	case AVRO_ARRAY:
		return decode_array(d, s, depth, r);
	case AVRO_MAP:
		return decode_map(d, s, depth, r);
	case AVRO_UNION: {
		int64_t b;
		TRY(get_long(d, &b));
		if (b < 0 || b >= s->nbranches)
			return FLOE_CORRUPT(d->err, "Avro file \"%s\": union branch %lld out of range (%d branches)",
					    d->name, (long long)b, s->nbranches);
		r->u.un.branch = (int)b;
		return decode(d, s->branches[b], depth + 1, &r->u.un.value);
	}
	}
	return FLOE_CORRUPT(d->err, "Avro file \"%s\": unknown schema type", d->name);
}

int
avro__decode(const AvroSchema *s, const uint8_t *data, size_t len, size_t *pos, const char *name,
	     Arena *a, int64_t *budget, AvroDatum **out, floe_error *err)
{
	if (*pos > len)
		return FLOE_CORRUPT(err, "Avro file \"%s\": position past the end", name);
	Dec d = {.p = data + *pos, .end = data + len, .name = name, .a = a, .err = err,
		 .budget = budget};
	TRY(decode(&d, s, 0, out));
	*pos = (size_t)(d.p - data);
	return FLOE_OK;
}

int
avro_decode_datum(const AvroSchema *s, const uint8_t *data, size_t len, size_t *pos,
		  const char *name, Arena *a, AvroDatum **out, floe_error *err)
{
	int64_t budget = AVRO_DATUM_BUDGET(len);
	return avro__decode(s, data, len, pos, name, a, &budget, out, err);
}

int
avro__get_long(const uint8_t *data, size_t len, size_t *pos, const char *name, int64_t *out,
	       floe_error *err)
{
	if (*pos > len)
		return FLOE_CORRUPT(err, "Avro file \"%s\": position past the end", name);
	Dec d = {.p = data + *pos, .end = data + len, .name = name, .err = err};
	TRY(get_long(&d, out));
	*pos = (size_t)(d.p - data);
	return FLOE_OK;
}

/* ---- encoding ---- */

void
avro__buf_put(AvroBuf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 256;
		while (ncap < b->len + n)
			ncap *= 2;
		b->p = arena_realloc(b->a, b->p, b->cap, ncap);
		b->cap = ncap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
avro__put_long(AvroBuf *b, int64_t v)
{
	uint8_t tmp[10];
	int n = 0;
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	while (z >= 0x80) {
		tmp[n++] = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	tmp[n++] = (uint8_t)z;
	avro__buf_put(b, tmp, (size_t)n);
}

void
avro__put_bytes(AvroBuf *b, const void *p, size_t n)
{
	avro__put_long(b, (int64_t)n);
	avro__buf_put(b, p, n);
}

static const char *const type_names[] = {
	"null", "boolean", "int", "long", "float", "double", "bytes", "string",
	"record", "enum", "array", "map", "union", "fixed",
};

static int
mismatch(floe_error *err, const AvroSchema *s, const AvroDatum *d)
{
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "Avro datum of type %s does not match schema type %s%s%s",
			   d ? type_names[d->type] : "null", type_names[s->type],
			   s->name ? " " : "", s->name ? s->name : "");
}

/* Which union branch a non-union datum goes to: the first of its type. */
static int
pick_branch(const AvroSchema *s, const AvroDatum *d)
{
	AvroType t = d ? d->type : AVRO_NULL;
	for (int i = 0; i < s->nbranches; i++)
		if (s->branches[i]->type == t)
			return i;
	if (t == AVRO_INT)   /* int promotes to long */
		for (int i = 0; i < s->nbranches; i++)
			if (s->branches[i]->type == AVRO_LONG)
				return i;
	return -1;
}

int
avro__encode(const AvroSchema *s, const AvroDatum *d, AvroBuf *b, int depth, floe_error *err)
{
	if (depth > AVRO_MAX_DEPTH)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "Avro datum nested too deeply");
	if (s->type == AVRO_UNION) {
		int br;
		const AvroDatum *v = d;
		if (d && d->type == AVRO_UNION) {
			br = d->u.un.branch;
			v = d->u.un.value;
			if (br < 0 || br >= s->nbranches)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "Avro union branch %d out of range", br);
		} else if ((br = pick_branch(s, d)) < 0) {
			return mismatch(err, s, d);
		}
		avro__put_long(b, br);
		return avro__encode(s->branches[br], v, b, depth + 1, err);
	}
	if (!d)
		return s->type == AVRO_NULL ? FLOE_OK : mismatch(err, s, d);
	if (d->type != s->type && !(d->type == AVRO_INT && s->type == AVRO_LONG))
		return mismatch(err, s, d);
	uint8_t raw[8];
	switch (s->type) {
	case AVRO_NULL:
		return FLOE_OK;
	case AVRO_BOOLEAN:
		raw[0] = d->u.b ? 1 : 0;
		avro__buf_put(b, raw, 1);
		return FLOE_OK;
	case AVRO_INT:
		avro__put_long(b, d->u.i);
		return FLOE_OK;
	case AVRO_LONG:
		avro__put_long(b, d->type == AVRO_INT ? d->u.i : d->u.l);
		return FLOE_OK;
	case AVRO_FLOAT:
		memcpy(raw, &d->u.f, 4);
		avro__buf_put(b, raw, 4);
		return FLOE_OK;
	case AVRO_DOUBLE:
		memcpy(raw, &d->u.d, 8);
		avro__buf_put(b, raw, 8);
		return FLOE_OK;
	case AVRO_BYTES:
	case AVRO_STRING:
		avro__put_bytes(b, d->u.bytes.ptr, d->u.bytes.len);
		return FLOE_OK;
	case AVRO_FIXED:
		if (d->u.bytes.len != (size_t)s->size)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "Avro fixed %s needs %d bytes, got %zu", s->name, s->size,
					   d->u.bytes.len);
		avro__buf_put(b, d->u.bytes.ptr, d->u.bytes.len);
		return FLOE_OK;
	case AVRO_ENUM:
		if (d->u.i < 0 || d->u.i >= s->nsymbols)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "Avro enum index %d out of range", d->u.i);
		avro__put_long(b, d->u.i);
		return FLOE_OK;
	case AVRO_RECORD:
		if (d->u.list.n != s->nfields)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "Avro record %s has %d fields, datum has %d", s->name,
					   s->nfields, d->u.list.n);
		for (int i = 0; i < s->nfields; i++)
			if (avro__encode(s->fields[i].type, d->u.list.items[i], b, depth + 1, err)) {
				floe_error_prefix(err, "field %s: ", s->fields[i].name);
				return FLOE_ERR;
			}
		return FLOE_OK;
	case AVRO_ARRAY:
		if (d->u.list.n > 0) {
			avro__put_long(b, d->u.list.n);
			for (int i = 0; i < d->u.list.n; i++)
				TRY(avro__encode(s->items, d->u.list.items[i], b, depth + 1, err));
		}
		avro__put_long(b, 0);
		return FLOE_OK;
	case AVRO_MAP:
		if (d->u.map.n > 0) {
			avro__put_long(b, d->u.map.n);
			for (int i = 0; i < d->u.map.n; i++) {
				avro__put_bytes(b, d->u.map.keys[i], strlen(d->u.map.keys[i]));
				TRY(avro__encode(s->items, d->u.map.values[i], b, depth + 1, err));
			}
		}
		avro__put_long(b, 0);
		return FLOE_OK;
	case AVRO_UNION:
		break;
	}
	return mismatch(err, s, d);
}

/* ---- constructors ---- */

static AvroDatum *
mk(Arena *a, AvroType t)
{
	AvroDatum *d = ARENA_NEW(a, AvroDatum);
	d->type = t;
	return d;
}

AvroDatum *avro_datum_null(Arena *a) { return mk(a, AVRO_NULL); }
AvroDatum *avro_datum_bool(Arena *a, bool v) { AvroDatum *d = mk(a, AVRO_BOOLEAN); d->u.b = v; return d; }
AvroDatum *avro_datum_int(Arena *a, int32_t v) { AvroDatum *d = mk(a, AVRO_INT); d->u.i = v; return d; }
AvroDatum *avro_datum_long(Arena *a, int64_t v) { AvroDatum *d = mk(a, AVRO_LONG); d->u.l = v; return d; }
AvroDatum *avro_datum_float(Arena *a, float v) { AvroDatum *d = mk(a, AVRO_FLOAT); d->u.f = v; return d; }
AvroDatum *avro_datum_double(Arena *a, double v) { AvroDatum *d = mk(a, AVRO_DOUBLE); d->u.d = v; return d; }
AvroDatum *avro_datum_enum(Arena *a, int32_t index) { AvroDatum *d = mk(a, AVRO_ENUM); d->u.i = index; return d; }

AvroDatum *
avro_datum_string(Arena *a, const char *s)
{
	AvroDatum *d = mk(a, AVRO_STRING);
	d->u.bytes.ptr = (const uint8_t *)s;
	d->u.bytes.len = strlen(s);
	return d;
}

AvroDatum *
avro_datum_bytes(Arena *a, const uint8_t *p, size_t n)
{
	AvroDatum *d = mk(a, AVRO_BYTES);
	d->u.bytes.ptr = p;
	d->u.bytes.len = n;
	return d;
}

AvroDatum *
avro_datum_fixed(Arena *a, const uint8_t *p, size_t n)
{
	AvroDatum *d = mk(a, AVRO_FIXED);
	d->u.bytes.ptr = p;
	d->u.bytes.len = n;
	return d;
}

AvroDatum *
avro_datum_record(Arena *a, int nfields)
{
	AvroDatum *d = mk(a, AVRO_RECORD);
	d->u.list.n = nfields;
	d->u.list.items = ARENA_ARRAY(a, AvroDatum *, nfields ? nfields : 1);
	return d;
}

AvroDatum *
avro_datum_array(Arena *a, int n)
{
	AvroDatum *d = mk(a, AVRO_ARRAY);
	d->u.list.n = n;
	d->u.list.items = ARENA_ARRAY(a, AvroDatum *, n ? n : 1);
	return d;
}

AvroDatum *
avro_datum_union(Arena *a, int branch, AvroDatum *value)
{
	AvroDatum *d = mk(a, AVRO_UNION);
	d->u.un.branch = branch;
	d->u.un.value = value;
	return d;
}
