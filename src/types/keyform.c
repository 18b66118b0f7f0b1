/*
 * keyform.c — key forms of bpchar and jsonb values (keyform.h).
 *
 * A jsonb text's key form is walked as ranges of its own bytes (segments):
 * every byte but the trailing zeros of a number's fraction and then a bare
 * point.  Strings are skipped whole (a digit or '.' inside one is not a
 * number).  The hash streams the segments through XXH3 (the same digest as
 * hashing their concatenation at once); equality walks both texts'
 * segments side by side.  A text with no '.' at all is its own key form.
 */
#include <string.h>
#define XXH_STATIC_LINKING_ONLY   /* XXH3_state_t on the stack */
#include <xxhash.h>
#include "types/keyform.h"

static size_t
bpchar_len(const char *p, size_t n)
{
	while (n && p[n - 1] == ' ')
		n--;
	return n;
}

/* The next segment [*b, *e) of the jsonb text s[0..n) from *pos; false at
 * the end. */
static bool
jsonb_next(const char *s, size_t n, size_t *pos, size_t *b, size_t *e)
{
	size_t i = *pos;

	if (i >= n)
		return false;
	*b = i;
	while (i < n) {
		char c = s[i];
		if (c == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			i = i < n ? i + 1 : n;
			continue;
		}
		if (c == '-' || (c >= '0' && c <= '9')) {
			size_t j = i + 1, t;
			bool point = false;
			while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.')) {
				point |= s[j] == '.';
				j++;
			}
			if (point) {
				t = j;
				while (t > i + 1 && s[t - 1] == '0')
					t--;
				if (s[t - 1] == '.')
					t--;
				if (t < j) {
					*e = t;
					*pos = j;
					return true;
				}
			}
			i = j;
			continue;
		}
		i++;
	}
	*e = n;
	*pos = n;
	return true;
}

uint64_t
keyform_hash(SqlType t, const char *p, size_t n)
{
	XXH3_state_t st;
	size_t pos = 0, b, e;

	if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR)
		return XXH3_64bits(p, bpchar_len(p, n));
	if (!keyform_special(t) || !memchr(p, '.', n))
		return XXH3_64bits(p, n);
	XXH3_64bits_reset(&st);
	while (jsonb_next(p, n, &pos, &b, &e))
		XXH3_64bits_update(&st, p + b, e - b);
	return XXH3_64bits_digest(&st);
}

bool
keyform_eq(SqlType t, const char *a, size_t an, const char *b, size_t bn)
{
	size_t pa = 0, pb = 0, ab = 0, ae = 0, bb = 0, be = 0;
	bool ha = false, hb = false;

	if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR) {
		an = bpchar_len(a, an);
		bn = bpchar_len(b, bn);
		return an == bn && (!an || !memcmp(a, b, an));
	}
	if (!keyform_special(t) || (!memchr(a, '.', an) && !memchr(b, '.', bn)))
		return an == bn && (!an || !memcmp(a, b, an));
	for (;;) {
		size_t k;
		if (ab == ae)
			ha = jsonb_next(a, an, &pa, &ab, &ae);
		if (bb == be)
			hb = jsonb_next(b, bn, &pb, &bb, &be);
		/* an empty segment (a number cut at its start) is skipped */
		if (ha && ab == ae)
			continue;
		if (hb && bb == be)
			continue;
		if (!ha || !hb)
			return ha == hb;
		k = ae - ab < be - bb ? ae - ab : be - bb;
		if (memcmp(a + ab, b + bb, k))
			return false;
		ab += k;
		bb += k;
	}
}
