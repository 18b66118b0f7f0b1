/*
 * pgwire_msg.c — byte-level encoding and decoding of PostgreSQL protocol v3
 * messages: growable output buffers that build each message whole, bounded
 * readers over received message bodies, and message framing.
 *
 * Spec: PostgreSQL 15 "Frontend/Backend Protocol" — "Message Data Types"
 * (Int16/Int32 big-endian, String = NUL-terminated) and "Message Formats".
 *
 * INTERFACE ROUTINES: see pgwire_msg.h.
 *
 * Invariants:
 *   1. A PgReader never reads outside [p, p+len): every get checks first and
 *      on failure sets `bad` and returns a zero value.
 *   2. pgbuf_end is the only place a message's length word is written, and it
 *      counts exactly the bytes appended since pgbuf_begin.
 *   3. pgmsg_frame rejects a length below 4 and above the caller's limit
 *      before anything is allocated for the message.
 */
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "server/pgwire_msg.h"

void
pgbuf_init(PgBuf *b)
{
	memset(b, 0, sizeof *b);
}

void
pgbuf_dispose(PgBuf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

void
pgbuf_reset(PgBuf *b)
{
	b->len = 0;
}

void
pgbuf_consume(PgBuf *b, size_t n)
{
	if (n >= b->len) {
		b->len = 0;
		return;
	}
	memmove(b->data, b->data + n, b->len - n);
	b->len -= n;
}

static void
reserve(PgBuf *b, size_t n)
{
	size_t cap;
	if (b->len + n <= b->cap)
		return;
	cap = b->cap ? b->cap : 1024;
	while (cap < b->len + n)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void
pgbuf_append(PgBuf *b, const void *p, size_t n)
{
	if (!n)
		return;
	reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void
pgbuf_byte(PgBuf *b, uint8_t v)
{
	pgbuf_append(b, &v, 1);
}

void
pgbuf_int16(PgBuf *b, int16_t v)
{
	uint8_t x[2] = { (uint8_t)((uint16_t)v >> 8), (uint8_t)v };
	pgbuf_append(b, x, 2);
}

void
pgbuf_int32(PgBuf *b, int32_t v)
{
	uint32_t u = (uint32_t)v;
	uint8_t x[4] = { (uint8_t)(u >> 24), (uint8_t)(u >> 16), (uint8_t)(u >> 8), (uint8_t)u };
	pgbuf_append(b, x, 4);
}

void
pgbuf_int64(PgBuf *b, int64_t v)
{
	uint64_t u = (uint64_t)v;
	pgbuf_int32(b, (int32_t)(uint32_t)(u >> 32));
	pgbuf_int32(b, (int32_t)(uint32_t)u);
}

void
pgbuf_cstr(PgBuf *b, const char *s)
{
	pgbuf_append(b, s, strlen(s) + 1);
}

size_t
pgbuf_begin(PgBuf *b, char type)
{
	size_t mark = b->len;
	pgbuf_byte(b, (uint8_t)type);
	pgbuf_int32(b, 0);
	return mark;
}

void
pgbuf_end(PgBuf *b, size_t mark)
{
	/* the length word follows the type byte and counts itself */
	uint32_t n = (uint32_t)(b->len - mark - 1);
	b->data[mark + 1] = (uint8_t)(n >> 24);
	b->data[mark + 2] = (uint8_t)(n >> 16);
	b->data[mark + 3] = (uint8_t)(n >> 8);
	b->data[mark + 4] = (uint8_t)n;
}

void
pgbuf_truncate(PgBuf *b, size_t mark)
{
	if (mark < b->len)
		b->len = mark;
}

void
pgreader_init(PgReader *r, const void *p, size_t n)
{
	r->p = p;
	r->len = n;
	r->off = 0;
	r->bad = false;
}

static bool
have(PgReader *r, size_t n)
{
	if (r->bad || r->len - r->off < n) {
		r->bad = true;
		return false;
	}
	return true;
}

uint8_t
pgreader_byte(PgReader *r)
{
	if (!have(r, 1))
		return 0;
	return r->p[r->off++];
}

int16_t
pgreader_int16(PgReader *r)
{
	uint16_t v;
	if (!have(r, 2))
		return 0;
	v = pg_get_u16(r->p + r->off);
	r->off += 2;
	return (int16_t)v;
}

int32_t
pgreader_int32(PgReader *r)
{
	uint32_t v;
	if (!have(r, 4))
		return 0;
	v = pg_get_u32(r->p + r->off);
	r->off += 4;
	return (int32_t)v;
}

const char *
pgreader_cstr(PgReader *r)
{
	const uint8_t *nul;
	const char *s;
	if (r->bad)
		return "";
	nul = memchr(r->p + r->off, 0, r->len - r->off);
	if (!nul) {
		r->bad = true;
		return "";
	}
	s = (const char *)(r->p + r->off);
	r->off = (size_t)(nul - r->p) + 1;
	return s;
}

const uint8_t *
pgreader_bytes(PgReader *r, size_t n)
{
	const uint8_t *p;
	if (!have(r, n))
		return NULL;
	p = r->p + r->off;
	r->off += n;
	return p;
}

int
pgmsg_frame(const uint8_t *p, size_t n, bool startup, size_t max_len, char *type, size_t *len)
{
	size_t hdr = startup ? 0 : 1;
	uint32_t l;

	if (n < hdr + 4)
		return 0;
	l = pg_get_u32(p + hdr);
	if (l < 4 || (size_t)l + hdr > max_len)
		return -1;
	*type = startup ? 0 : (char)p[0];
	*len = (size_t)l + hdr;
	return n >= *len ? 1 : 0;
}
