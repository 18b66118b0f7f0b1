/*
 * pgwire_msg.h — PostgreSQL frontend/backend protocol v3 message encoding
 * and decoding, with no sockets and no protocol state (that is pgwire.c).
 *
 * Spec: PostgreSQL 15 documentation, "Frontend/Backend Protocol", sections
 * "Message Formats" and "Message Data Types" (doc/src/sgml/protocol.sgml).
 *
 * Backend messages are built whole in a PgBuf before anything is sent:
 *   size_t m = pgbuf_begin(buf, 'D');  pgbuf_int16(buf, n); ...  pgbuf_end(buf, m);
 * pgbuf_end patches the length word, so a failure halfway through a message
 * (pgbuf_truncate(buf, m)) never leaves a partial message in the output
 * (PostgreSQL's pqformat.c / pq_endmessage).
 *
 * Frontend messages are read through a PgReader over one complete message
 * body; every get checks the remaining length and latches `bad` instead of
 * reading past the end, so a decoder checks `bad` once at the end.
 *
 * INTERFACE ROUTINES
 *   pgbuf_init(b) / pgbuf_dispose(b) / pgbuf_reset(b) / pgbuf_consume(b, n)
 *   pgbuf_append(b, p, n) / pgbuf_byte/int16/int32/int64/cstr(b, ...)
 *   pgbuf_begin(b, type) -> mark / pgbuf_end(b, mark) / pgbuf_truncate(b, mark)
 *   pgreader_init(r, p, n)
 *   pgreader_byte/int16/int32(r) / pgreader_cstr(r) / pgreader_bytes(r, n)
 *   pgmsg_frame(p, n, startup, &type, &len)   is a whole message in p[0..n)?
 */
#ifndef FLOE_PGWIRE_MSG_H
#define FLOE_PGWIRE_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer (heap: it lives as long as the connection). */
typedef struct PgBuf {
	uint8_t *data;
	size_t len, cap;
} PgBuf;

void pgbuf_init(PgBuf *b);
void pgbuf_dispose(PgBuf *b);
void pgbuf_reset(PgBuf *b);
/* drop the first n bytes */
void pgbuf_consume(PgBuf *b, size_t n);
void pgbuf_append(PgBuf *b, const void *p, size_t n);
void pgbuf_byte(PgBuf *b, uint8_t v);
void pgbuf_int16(PgBuf *b, int16_t v);
void pgbuf_int32(PgBuf *b, int32_t v);
void pgbuf_int64(PgBuf *b, int64_t v);
void pgbuf_cstr(PgBuf *b, const char *s);     /* with its NUL */
/* start a message of type `type` (every backend message has one; the
 * startup-phase single bytes 'S'/'N' are written with pgbuf_byte); returns
 * the mark for pgbuf_end / pgbuf_truncate */
size_t pgbuf_begin(PgBuf *b, char type);
void pgbuf_end(PgBuf *b, size_t mark);
void pgbuf_truncate(PgBuf *b, size_t mark);

/* A bounded reader over one message body. */
typedef struct PgReader {
	const uint8_t *p;
	size_t len, off;
	bool bad;                 /* a read ran past the end, or a cstr had no NUL */
} PgReader;

void pgreader_init(PgReader *r, const void *p, size_t n);
uint8_t pgreader_byte(PgReader *r);
int16_t pgreader_int16(PgReader *r);
int32_t pgreader_int32(PgReader *r);
const char *pgreader_cstr(PgReader *r);      /* "" when bad */
const uint8_t *pgreader_bytes(PgReader *r, size_t n);   /* NULL when bad */
static inline size_t pgreader_left(const PgReader *r) { return r->len - r->off; }

/* Framing.  A regular message is type byte + int32 length (counting
 * itself) + body; a startup-phase packet is int32 length + body.
 * Returns 1 with *type (0 for startup) and *len (the whole message in
 * bytes, header included) when p[0..n) holds a whole message, 0 when more
 * bytes are needed, -1 when the length word is invalid (< 4) or above
 * max_len. */
int pgmsg_frame(const uint8_t *p, size_t n, bool startup, size_t max_len,
		char *type, size_t *len);

/* Big-endian helpers for binary formats. */
static inline uint16_t pg_get_u16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t
pg_get_u32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t
pg_get_u64(const uint8_t *p)
{
	return ((uint64_t)pg_get_u32(p) << 32) | pg_get_u32(p + 4);
}

#endif
