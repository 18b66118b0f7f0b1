/*
 * func_like.c — LIKE / NOT LIKE / ILIKE / NOT ILIKE (~~ !~~ ~~* !~~*) and
 * like_escape(), with PostgreSQL 15's pattern rules.
 *
 * Spec: PostgreSQL 15 documentation 9.7.1 (LIKE) and the matching algorithm
 * of utils/adt/like_match.c: % matches any sequence, _ exactly one
 * character (UTF-8 aware), the escape character (backslash unless
 * `ESCAPE` says otherwise; the parser rewrites `ESCAPE e` into
 * like_escape(pattern, e)) quotes the next pattern character, and a pattern
 * ending in the escape is 22025 "LIKE pattern must not end with escape
 * character".  The matcher returns TRUE/FALSE/ABORT; ABORT (the text ran
 * out while a % was still looking) ends the whole match early, which keeps
 * patterns like %a%a%a%b linear-ish instead of exponential.
 *
 * ILIKE lower-cases text and pattern (ASCII plus the Latin-1, Latin
 * Extended-A, Greek and Cyrillic letters; see func_utf8_lower) and matches
 * case-sensitively, as PostgreSQL does for multibyte encodings.
 *
 * INTERFACE ROUTINES
 *   func_like_match(s, slen, p, plen, esc, icase, &match, err)
 *   func_like_table[] / func_like_count   (searched by func_registry.c)
 */
#include <stddef.h>
#include <stdlib.h>
#include "func/func_internal.h"

enum { LIKE_FALSE = 0, LIKE_TRUE = 1, LIKE_ABORT = -1, LIKE_ERROR = -2 };

static inline uint32_t
charlen(const char *t, uint32_t tlen)
{
	unsigned char c = (unsigned char)*t;
	uint32_t n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	return n > tlen ? tlen : n;
}

static int
esc_error(floe_error *err)
{
	floe_errorf(err, ERRCODE_INVALID_ESCAPE_SEQUENCE,
		    "LIKE pattern must not end with escape character");
	return LIKE_ERROR;
}

/* depth bounds recursion: each level consumes at least one pattern byte */
static int
match_text(const char *t, uint32_t tlen, const char *p, uint32_t plen, int esc,
	   floe_error *err, int depth)
{
	if (depth > 10000) {
		floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
			    "LIKE pattern has too many %% wildcards");
		return LIKE_ERROR;
	}
	while (tlen > 0 && plen > 0) {
		if (esc >= 0 && (unsigned char)*p == (unsigned)esc) {
			uint32_t n;
			p++, plen--;
			if (plen == 0)
				return esc_error(err);
			n = charlen(p, plen);
			if (n > tlen || memcmp(p, t, n) != 0)
				return LIKE_FALSE;
			p += n, plen -= n, t += n, tlen -= n;
			continue;
		}
		if (*p == '%') {
			char first;
			uint32_t n;
			p++, plen--;
			/* runs of % and _: each _ eats one character */
			while (plen > 0) {
				if (*p == '%') {
					p++, plen--;
				} else if (*p == '_') {
					if (tlen == 0)
						return LIKE_ABORT;
					n = charlen(t, tlen);
					t += n, tlen -= n;
					p++, plen--;
				} else {
					break;
				}
			}
			if (plen == 0)
				return LIKE_TRUE;
			if (esc >= 0 && (unsigned char)*p == (unsigned)esc) {
				if (plen < 2)
					return esc_error(err);
				first = p[1];
			} else {
				first = *p;
			}
			while (tlen > 0) {
				if (*t == first) {
					int m = match_text(t, tlen, p, plen, esc, err, depth + 1);
					if (m != LIKE_FALSE)
						return m;
				}
				n = charlen(t, tlen);
				t += n, tlen -= n;
			}
			return LIKE_ABORT;
		}
		if (*p == '_') {
			uint32_t n = charlen(t, tlen);
			t += n, tlen -= n;
			p++, plen--;
			continue;
		}
		if (*p != *t)
			return LIKE_FALSE;
		p++, plen--, t++, tlen--;
	}
	if (tlen > 0)
		return LIKE_FALSE;
	while (plen > 0 && *p == '%')
		p++, plen--;
	if (plen == 0)
		return LIKE_TRUE;
	return LIKE_ABORT;
}

int
func_like_match(const char *s, size_t slen, const char *p, size_t plen, int esc,
		bool icase, bool *match, floe_error *err)
{
	int m;
	char sbuf[256], pbuf[256];
	char *ls = NULL, *lp = NULL;

	if (slen > UINT32_MAX || plen > UINT32_MAX)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "string too long for LIKE");
	if (icase) {
		ls = slen <= sizeof sbuf ? sbuf : xmalloc(slen);
		lp = plen <= sizeof pbuf ? pbuf : xmalloc(plen);
		func_utf8_lower(s, (uint32_t)slen, ls);
		func_utf8_lower(p, (uint32_t)plen, lp);
		s = ls;
		p = lp;
	}
	m = match_text(s, (uint32_t)slen, p, (uint32_t)plen, esc, err, 0);
	if (ls && ls != sbuf)
		free(ls);
	if (lp && lp != pbuf)
		free(lp);
	if (m == LIKE_ERROR)
		return FLOE_ERR;
	*match = m == LIKE_TRUE;
	return FLOE_OK;
}

/*
 * Constant patterns of the forms 'abc', 'abc%', '%abc', '%abc%' and '%'
 * (no _, no escape, % only at the ends) match with memcmp/memchr; other
 * patterns of literals and % only with pattern_segs/segs_match below.
 */
enum { SHAPE_NONE, SHAPE_EXACT, SHAPE_PREFIX, SHAPE_SUFFIX, SHAPE_CONTAINS, SHAPE_ALL };

static int
pattern_shape(const char *p, uint32_t n, const char **lit, uint32_t *litlen)
{
	uint32_t lo = 0, hi = n, i;
	bool lead, trail;

	while (lo < n && p[lo] == '%')
		lo++;
	if (lo == n)
		return n ? SHAPE_ALL : SHAPE_EXACT;
	while (hi > lo && p[hi - 1] == '%')
		hi--;
	for (i = lo; i < hi; i++)
		if (p[i] == '%' || p[i] == '_' || p[i] == '\\')
			return SHAPE_NONE;
	lead = lo > 0;
	trail = hi < n;
	*lit = p + lo;
	*litlen = hi - lo;
	return lead && trail ? SHAPE_CONTAINS : lead ? SHAPE_SUFFIX : trail ? SHAPE_PREFIX : SHAPE_EXACT;
}

/* Leftmost occurrence of lit (ln >= 1) in s[0..n), or NULL. */
static inline const char *
find_lit(const char *s, uint32_t n, const char *lit, uint32_t ln)
{
	const char *q = s, *end = s + n;
	uint32_t head = 0;

	if (ln >= 4)
		memcpy(&head, lit, 4);
	while (end - q >= (ptrdiff_t)ln) {
		q = memchr(q, lit[0], (size_t)(end - q) - ln + 1);
		if (!q)
			return NULL;
		/* the first 4 bytes and the last one before a memcmp call: most
		 * candidates fail there (q + ln <= end, so the load is in range) */
		if (ln >= 4) {
			uint32_t h;
			memcpy(&h, q, 4);
			if (h == head && q[ln - 1] == lit[ln - 1] &&
			    memcmp(q + 4, lit + 4, ln - 4) == 0)
				return q;
		} else if (memcmp(q + 1, lit + 1, ln - 1) == 0) {
			return q;
		}
		q++;
	}
	return NULL;
}

static inline bool
shape_match(int shape, const char *s, uint32_t n, const char *lit, uint32_t ln)
{
	switch (shape) {
	case SHAPE_EXACT: return n == ln && memcmp(s, lit, ln) == 0;
	case SHAPE_PREFIX: return n >= ln && memcmp(s, lit, ln) == 0;
	case SHAPE_SUFFIX: return n >= ln && memcmp(s + n - ln, lit, ln) == 0;
	case SHAPE_CONTAINS:
		/* memchr for the first byte, then compare (cheaper than memmem's
		 * setup on short strings) */
		return ln == 0 || find_lit(s, n, lit, ln) != NULL;
	default: return true;
	}
}

/*
 * Constant patterns made of literal segments and % only ('%special%requests%',
 * 'a%b'): the first segment is a prefix unless the pattern opens with %,
 * the last a suffix unless it ends with %, and the ones between are found
 * left to right, each after the previous (leftmost is always right when
 * only % separates them).  Bytewise search is exact on valid UTF-8: a
 * literal cannot start inside another character.
 */
#define MAX_SEGS 16

typedef struct Segs {
	int n;
	bool lead, trail;          /* pattern opens / ends with % */
	const char *p[MAX_SEGS];
	uint32_t len[MAX_SEGS];
} Segs;

static bool
pattern_segs(const char *p, uint32_t n, Segs *sg)
{
	uint32_t i = 0;

	sg->n = 0;
	sg->lead = n > 0 && p[0] == '%';
	sg->trail = n > 0 && p[n - 1] == '%';
	while (i < n) {
		uint32_t j;
		while (i < n && p[i] == '%')
			i++;
		if (i == n)
			break;
		for (j = i; j < n && p[j] != '%'; j++)
			if (p[j] == '_' || p[j] == '\\')
				return false;
		if (sg->n == MAX_SEGS)
			return false;
		sg->p[sg->n] = p + i;
		sg->len[sg->n++] = j - i;
		i = j;
	}
	return sg->n > 0;
}

static bool
segs_match(const Segs *sg, const char *s, uint32_t n)
{
	uint32_t pos = 0, end = n;
	int first = 0, last = sg->n;

	if (!sg->lead) {
		if (n < sg->len[0] || memcmp(s, sg->p[0], sg->len[0]) != 0)
			return false;
		pos = sg->len[0];
		first = 1;
	}
	if (!sg->trail && last > first) {
		uint32_t l = sg->len[last - 1];
		if (end - pos < l || memcmp(s + end - l, sg->p[last - 1], l) != 0)
			return false;
		end -= l;
		last--;
	} else if (!sg->trail && pos != n) {
		return false;   /* one segment, no %: an exact match */
	}
	for (int k = first; k < last; k++) {
		const char *q = find_lit(s + pos, end - pos, sg->p[k], sg->len[k]);
		if (!q)
			return false;
		pos = (uint32_t)(q - s) + sg->len[k];
	}
	return true;
}

static int
like_common(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool icase,
	    bool negate)
{
	VectorView va, vb;
	const strview *a, *b;
	uint8_t *o = out->data;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	if (!icase && vb.sel == vector_zero_sel && ARGVALID(vb, 0)) {
		const char *lit = "";
		uint32_t ln = 0;
		int shape = pattern_shape(strview_data(&b[0]), b[0].len, &lit, &ln);
		if (shape == SHAPE_EXACT && b[0].len == 0)
			lit = "";
		if (shape != SHAPE_NONE) {
			for (i = 0; i < count; i++) {
				uint32_t ka = ARGK(va, i);
				if (!ARGVALID(va, ka)) {
					out_null(out, i);
					continue;
				}
				o[i] = shape_match(shape, strview_data(&a[ka]), a[ka].len, lit, ln) != negate;
				out_valid(out, i);
			}
			return FLOE_OK;
		}
		Segs sg;
		if (pattern_segs(strview_data(&b[0]), b[0].len, &sg)) {
			for (i = 0; i < count; i++) {
				uint32_t ka = ARGK(va, i);
				if (!ARGVALID(va, ka)) {
					out_null(out, i);
					continue;
				}
				o[i] = segs_match(&sg, strview_data(&a[ka]), a[ka].len) != negate;
				out_valid(out, i);
			}
			return FLOE_OK;
		}
	}
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		bool m;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		if (func_like_match(strview_data(&a[ka]), a[ka].len, strview_data(&b[kb]),
				    b[kb].len, '\\', icase, &m, ctx->err) != FLOE_OK)
			return FLOE_ERR;
		o[i] = m != negate;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
like(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return like_common(ctx, args, count, out, false, false);
}

static int
not_like(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return like_common(ctx, args, count, out, false, true);
}

static int
ilike(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return like_common(ctx, args, count, out, true, false);
}

static int
not_ilike(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return like_common(ctx, args, count, out, true, true);
}

/*
 * like_escape(pattern, esc): rewrite a pattern written with escape esc into
 * the default backslash form (utils/adt/like_support.c's like_escape):
 * esc '' means no escape, so backslashes become literal (doubled).
 */
static int
like_escape(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView va, vb;
	const strview *a, *b;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i), j, n = 0, elen;
		const char *p, *e;
		char *dst;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		p = strview_data(&a[ka]);
		e = strview_data(&b[kb]);
		elen = b[kb].len;
		if (elen > 0 && charlen(e, elen) != elen) {
			floe_errorf(ctx->err, ERRCODE_INVALID_ESCAPE_SEQUENCE, "invalid escape string");
			return floe_error_hint(ctx->err, "Escape string must be empty or one character.");
		}
		dst = arena_alloc(out->arena, (size_t)a[ka].len * 2 + 1);
		if (elen == 0) {
			for (j = 0; j < a[ka].len; j++) {
				if (p[j] == '\\')
					dst[n++] = '\\';
				dst[n++] = p[j];
			}
		} else if (elen == 1 && e[0] == '\\') {
			memcpy(dst, p, a[ka].len);
			n = a[ka].len;
		} else {
			for (j = 0; j < a[ka].len;) {
				uint32_t cl = charlen(p + j, a[ka].len - j);
				if (cl == elen && memcmp(p + j, e, elen) == 0) {
					/* escape: keep the next character quoted */
					j += cl;
					if (j >= a[ka].len)
						return esc_error(ctx->err), FLOE_ERR;
					cl = charlen(p + j, a[ka].len - j);
					dst[n++] = '\\';
					memcpy(dst + n, p + j, cl);
					n += cl;
					j += cl;
					continue;
				}
				if (p[j] == '\\')
					dst[n++] = '\\';
				memcpy(dst + n, p + j, cl);
				n += cl;
				j += cl;
			}
		}
		out_string_owned(out, i, dst, n);
	}
	return FLOE_OK;
}

#define TX TYPE_TEXT
#define BO TYPE_BOOL
const ScalarFunc func_like_table[] = {
	{ "~~", like, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "!~~", not_like, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "~~*", ilike, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "!~~*", not_ilike, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "like_escape", like_escape, 2, 0, { TX, TX }, TX, FRET_FIXED, true, false },
};
const int func_like_count = sizeof func_like_table / sizeof func_like_table[0];
