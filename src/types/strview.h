/*
 * strview.h — 16-byte string views (Umbra / Arrow StringView layout).
 *
 *   len <= 12:  [ len:4 ][ 12 bytes inline ]
 *   len >  12:  [ len:4 ][ prefix:4 ][ pointer:8 ]
 *
 * The bytes a long view points to are owned by someone else: a vector's
 * heap arena, a mapped file, a dictionary page.  Equality starts with one
 * 8-byte compare of len+prefix.
 */
#ifndef FLOE_STRVIEW_H
#define FLOE_STRVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define STRVIEW_INLINE 12

typedef struct strview {
	uint32_t len;
	char prefix[4];          /* first bytes; inline strings continue in u */
	union {
		char rest[8];
		const char *ptr;
	} u;
} strview;

_Static_assert(sizeof(strview) == 16, "strview must be 16 bytes");

/* The inline bytes: 12 bytes from offset 4 (prefix then u.rest). */
#define STRVIEW_INL(s) ((char *)(s) + 4)

static inline strview
strview_make(const char *p, uint32_t len)
{
	strview s;
	memset(&s, 0, sizeof s);
	s.len = len;
	if (len <= STRVIEW_INLINE) {
		if (len)
			memcpy(STRVIEW_INL(&s), p, len);
	} else {
		memcpy(s.prefix, p, 4);
		s.u.ptr = p;
	}
	return s;
}

static inline const char *
strview_data(const strview *s)
{
	return s->len <= STRVIEW_INLINE ? (const char *)s + 4 : s->u.ptr;
}

static inline bool
strview_eq(const strview *a, const strview *b)
{
	uint64_t ha, hb;
	memcpy(&ha, a, 8);
	memcpy(&hb, b, 8);
	if (ha != hb)
		return false;
	if (a->len <= STRVIEW_INLINE)
		return memcmp(a->u.rest, b->u.rest, 8) == 0;
	return memcmp(a->u.ptr + 4, b->u.ptr + 4, a->len - 4) == 0;
}

/* Byte-wise comparison (C collation): <0, 0, >0. */
static inline int
strview_cmp(const strview *a, const strview *b)
{
	uint32_t n = a->len < b->len ? a->len : b->len;
	int c = n ? memcmp(strview_data(a), strview_data(b), n) : 0;
	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

#endif
