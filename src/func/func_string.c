/*
 * func_string.c — string operators and functions on UTF-8 text, counting
 * characters (not bytes) as PostgreSQL does for a UTF8 database.
 *
 * Spec: PostgreSQL 15 documentation 9.4 "String Functions and Operators"
 * (utils/adt/varlena.c, oracle_compat.c): || (text || text, and
 * anynonarray || text / text || anynonarray: the resolver casts the non-text
 * side to text), length/char_length/character_length, octet_length, lower,
 * upper, substring/substr (start, count), position/strpos, replace,
 * btrim/ltrim/rtrim (characters set, default ' '), split_part (negative n
 * counts from the end), left, right (negative n drops), lpad/rpad
 * (truncating, default fill ' '), concat (NULLs skipped), concat_ws
 * (NULL separator -> NULL, NULL values skipped; non-text values printed by
 * their output function), starts_with, repeat, reverse, md5 and
 * sha224 / sha256 / sha384 / sha512 (OpenSSL's digests), bytea btrim / ltrim / rtrim,
 * ascii, chr, initcap, translate, to_hex, quote_ident/quote_literal/
 * quote_nullable, overlay, encode/decode (hex, base64, escape), pg_typeof.
 *
 * Result strings are built in out->arena.  Input is assumed to be valid
 * UTF-8 (the codecs and the text input function validate); a truncated
 * sequence at the end counts as one character and never reads past it.
 *
 * INTERFACE ROUTINES
 *   func_string_table[] / func_string_count   (searched by func_registry.c)
 *   func_utf8_len(), func_utf8_offset(), func_utf8_lower(), func_utf8_upper()
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include "common/hex.h"
#include "func/func_internal.h"
#include "types/text.h"


/* PostgreSQL's limit on one text value (1 GB) */
#define MAX_TEXT_BYTES (1024u * 1024u * 1024u - 1)

static inline uint32_t
u8len(unsigned char c)
{
	return c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

uint32_t
func_utf8_len(const char *s, uint32_t len)
{
	uint32_t i, n = 0;

	/* count bytes that are not continuation bytes */
	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

uint32_t
func_utf8_offset(const char *s, uint32_t len, uint32_t nchars)
{
	uint32_t off = 0;

	while (nchars > 0 && off < len) {
		uint32_t n = u8len((unsigned char)s[off]);
		off += n;
		nchars--;
	}
	return off > len ? len : off;
}

/* decode one 2-byte sequence's code point, or -1 */
static int
cp2(const unsigned char *p)
{
	return ((p[0] & 0x1f) << 6) | (p[1] & 0x3f);
}

static void
put2(unsigned char *d, int cp)
{
	d[0] = (unsigned char)(0xc0 | (cp >> 6));
	d[1] = (unsigned char)(0x80 | (cp & 0x3f));
}

static int
lower_cp(int c)
{
	if ((c >= 0xc0 && c <= 0xde && c != 0xd7) || (c >= 0x391 && c <= 0x3ab && c != 0x3a2) ||
	    (c >= 0x410 && c <= 0x42f))
		return c + 0x20;
	if (c >= 0x400 && c <= 0x40f)
		return c + 0x50;
	if (c >= 0x100 && c <= 0x17f && c != 0x130 && c != 0x138 && c != 0x149 && c != 0x17f) {
		/* Latin Extended-A pairs: even/odd, except 0x139..0x148 and 0x179..0x17e odd/even */
		bool oddpair = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e);
		if (oddpair ? (c & 1) : !(c & 1))
			return c + 1;
	}
	return c;
}

static int
upper_cp(int c)
{
	if ((c >= 0xe0 && c <= 0xfe && c != 0xf7) || (c >= 0x3b1 && c <= 0x3cb && c != 0x3c2) ||
	    (c >= 0x430 && c <= 0x44f))
		return c - 0x20;
	if (c >= 0x450 && c <= 0x45f)
		return c - 0x50;
	if (c >= 0x100 && c <= 0x17f && c != 0x131 && c != 0x138 && c != 0x149 && c != 0x17f) {
		bool oddpair = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e);
		if (oddpair ? !(c & 1) : (c & 1))
			return c - 1;
	}
	return c;
}

static void
map_case(const char *s, uint32_t len, char *dst, bool upper)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char *d = (unsigned char *)dst;
	uint32_t i = 0;

	while (i < len) {
		unsigned char c = p[i];
		if (c < 0x80) {
			if (upper)
				d[i] = (c >= 'a' && c <= 'z') ? c - 32 : c;
			else
				d[i] = (c >= 'A' && c <= 'Z') ? c + 32 : c;
			i++;
		} else if (c >= 0xc0 && c < 0xe0 && i + 1 < len) {
			int cp = cp2(p + i), m = upper ? upper_cp(cp) : lower_cp(cp);
			if (m != cp && m < 0x800)
				put2(d + i, m);
			else
				d[i] = p[i], d[i + 1] = p[i + 1];
			i += 2;
		} else {
			d[i] = c;
			i++;
		}
	}
}

void
func_utf8_lower(const char *s, uint32_t len, char *dst)
{
	map_case(s, len, dst, false);
}

void
func_utf8_upper(const char *s, uint32_t len, char *dst)
{
	map_case(s, len, dst, true);
}

/* ---- kernel scaffolding ------------------------------------------------- */

/* Views of all arguments and row i's strict NULL test. */
typedef struct Args {
	VectorView v[4];
	int n;
} Args;

static void
args_view(Args *a, const Vector *args, int nargs)
{
	int j;
	a->n = nargs > 4 ? 4 : nargs;
	for (j = 0; j < a->n; j++)
		vector_view(&args[j], &a->v[j]);
}

static inline bool
args_null(const Args *a, uint32_t i)
{
	int j;
	for (j = 0; j < a->n; j++)
		if (!ARGVALID(a->v[j], ARGK(a->v[j], i)))
			return true;
	return false;
}

static inline const strview *
arg_s(const Args *a, int j, uint32_t i)
{
	return &((const strview *)a->v[j].data)[ARGK(a->v[j], i)];
}

static inline int32_t
arg_i32(const Args *a, int j, uint32_t i)
{
	return ((const int32_t *)a->v[j].data)[ARGK(a->v[j], i)];
}

static int
too_long(FuncCtx *ctx)
{
	return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
			   "requested length too large");
}

/* ---- || and concat ------------------------------------------------------ */

static int
textcat(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 2);
	for (i = 0; i < count; i++) {
		const strview *x, *y;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		x = arg_s(&a, 0, i);
		y = arg_s(&a, 1, i);
		if ((uint64_t)x->len + y->len > MAX_TEXT_BYTES)
			return too_long(ctx);
		d = arena_alloc(out->arena, (size_t)x->len + y->len + 1);
		memcpy(d, strview_data(x), x->len);
		memcpy(d + x->len, strview_data(y), y->len);
		out_string_owned(out, i, d, x->len + y->len);
	}
	return FLOE_OK;
}

/*
 * concat(variadic "any") and concat_ws(sep, variadic "any"): not strict;
 * NULL values are skipped; non-text arguments are printed with their
 * type's output function (PostgreSQL's concat uses it, so concat(true) is
 * "t" where true::text is "true").
 */
static int
concat_common(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
	      bool ws)
{
	VectorView views[64];
	VectorView *v = nargs <= 64 ? views : arena_alloc(ctx->arena, sizeof *v * (size_t)nargs);
	const char **ps = arena_alloc(ctx->arena, sizeof(char *) * (size_t)(nargs ? nargs : 1));
	size_t *ls = arena_alloc(ctx->arena, sizeof(size_t) * (size_t)(nargs ? nargs : 1));
	uint32_t i;
	int j;

	for (j = 0; j < nargs; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		uint64_t total = 0;
		const strview *sep = NULL;
		bool any = false;
		char *d;
		uint32_t n = 0;
		int first = 0;
		if (ws) {
			uint32_t k = ARGK(v[0], i);
			if (!ARGVALID(v[0], k)) {
				out_null(out, i);
				continue;
			}
			sep = &((const strview *)v[0].data)[k];
			first = 1;
		}
		for (j = first; j < nargs; j++) {
			uint32_t k = ARGK(v[j], i);
			ps[j] = NULL;
			if (!ARGVALID(v[j], k) || args[j].type.id == TYPE_NULL)
				continue;
			if (type_is_string(args[j].type.id)) {
				const strview *s = &((const strview *)v[j].data)[k];
				if (args[j].type.id == TYPE_TEXT) {
					ps[j] = strview_data(s);
					ls[j] = s->len;
				} else {
					ps[j] = vector_value_text(&args[j], i, ctx->arena, &ls[j]);
				}
			} else {
				ps[j] = vector_value_text(&args[j], i, ctx->arena, &ls[j]);
			}
			if (!ps[j])
				continue;
			total += ls[j] + (sep && any ? sep->len : 0);
			any = true;
		}
		if (total > MAX_TEXT_BYTES)
			return too_long(ctx);
		d = arena_alloc(out->arena, total + 1);
		any = false;
		for (j = first; j < nargs; j++) {
			if (!ps[j])
				continue;
			if (sep && any) {
				memcpy(d + n, strview_data(sep), sep->len);
				n += sep->len;
			}
			memcpy(d + n, ps[j], ls[j]);
			n += (uint32_t)ls[j];
			any = true;
		}
		out_string_owned(out, i, d, n);
	}
	return FLOE_OK;
}

static int
concat(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return concat_common(ctx, args, nargs, count, out, false);
}

static int
concat_ws(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return concat_common(ctx, args, nargs, count, out, true);
}

/* ---- length, case --------------------------------------------------------- */

static int
length(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	int32_t *o = out->data;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		const strview *s;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		o[i] = (int32_t)func_utf8_len(strview_data(s), s->len);
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
octet_length(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	int32_t *o = out->data;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		o[i] = (int32_t)arg_s(&a, 0, i)->len;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
bit_length(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	int32_t *o = out->data;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		o[i] = (int32_t)arg_s(&a, 0, i)->len * 8;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
case_common(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool upper)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		const strview *s;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		d = arena_alloc(out->arena, (size_t)s->len + 1);
		map_case(strview_data(s), s->len, d, upper);
		out_string_owned(out, i, d, s->len);
	}
	return FLOE_OK;
}

static int
lower(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return case_common(ctx, args, count, out, false);
}

static int
upper(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return case_common(ctx, args, count, out, true);
}

/* ---- substring, left, right --------------------------------------------- */

/* characters [from, to) (1-based, clamped) of s, as a new value of out */
static void
put_chars(Vector *out, uint32_t i, const strview *s, int64_t from, int64_t to)
{
	const char *p = strview_data(s);
	uint32_t b0, b1;

	if (from < 1)
		from = 1;
	if (to <= from) {
		out_string_owned(out, i, "", 0);
		return;
	}
	b0 = func_utf8_offset(p, s->len, (uint32_t)(from - 1 > UINT32_MAX ? UINT32_MAX : from - 1));
	b1 = to - from > UINT32_MAX ? s->len :
		b0 + func_utf8_offset(p + b0, s->len - b0, (uint32_t)(to - from));
	vector_set_string(out, i, p + b0, b1 - b0);
}

static int
substring(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, nargs);
	for (i = 0; i < count; i++) {
		int64_t start, n;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		start = arg_i32(&a, 1, i);
		if (nargs == 3) {
			n = arg_i32(&a, 2, i);
			if (n < 0)
				return floe_errorf(ctx->err, ERRCODE_SUBSTRING_ERROR,
						   "negative substring length not allowed");
			put_chars(out, i, arg_s(&a, 0, i), start, start + n);
		} else {
			put_chars(out, i, arg_s(&a, 0, i), start, INT64_MAX);
		}
	}
	return FLOE_OK;
}

static int
left_right(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool right)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 2);
	for (i = 0; i < count; i++) {
		const strview *s;
		int64_t n, len;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		n = arg_i32(&a, 1, i);
		len = func_utf8_len(strview_data(s), s->len);
		if (!right)
			put_chars(out, i, s, 1, n >= 0 ? n + 1 : len + n + 1);
		else
			put_chars(out, i, s, n >= 0 ? len - n + 1 : -n + 1, len + 1);
	}
	return FLOE_OK;
}

static int
left(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return left_right(ctx, args, count, out, false);
}

static int
right(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return left_right(ctx, args, count, out, true);
}

/* ---- position, replace, starts_with ------------------------------------- */

static const char *
find(const char *h, uint32_t hlen, const char *n, uint32_t nlen)
{
	if (nlen == 0)
		return h;
	if (nlen > hlen)
		return NULL;
	return memmem(h, hlen, n, nlen);
}

static int
position(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	int32_t *o = out->data;
	uint32_t i;

	args_view(&a, args, 2);
	for (i = 0; i < count; i++) {
		const strview *s, *sub;
		const char *p, *hit;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		sub = arg_s(&a, 1, i);
		p = strview_data(s);
		hit = find(p, s->len, strview_data(sub), sub->len);
		o[i] = hit ? (int32_t)func_utf8_len(p, (uint32_t)(hit - p)) + 1 : 0;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
starts_with(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint8_t *o = out->data;
	uint32_t i;

	args_view(&a, args, 2);
	for (i = 0; i < count; i++) {
		const strview *s, *pre;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		pre = arg_s(&a, 1, i);
		o[i] = pre->len <= s->len &&
		       memcmp(strview_data(s), strview_data(pre), pre->len) == 0;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
replace(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 3);
	for (i = 0; i < count; i++) {
		const strview *s, *from, *to;
		const char *p, *f, *hit;
		uint32_t len, flen, nhits = 0, off, n = 0;
		uint64_t total;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		from = arg_s(&a, 1, i);
		to = arg_s(&a, 2, i);
		p = strview_data(s);
		len = s->len;
		f = strview_data(from);
		flen = from->len;
		if (flen == 0 || flen > len) {
			vector_set_string(out, i, p, len);
			continue;
		}
		for (off = 0; (hit = find(p + off, len - off, f, flen)); off = (uint32_t)(hit - p) + flen)
			nhits++;
		total = (uint64_t)len + (uint64_t)nhits * to->len - (uint64_t)nhits * flen;
		if (total > MAX_TEXT_BYTES)
			return too_long(ctx);
		d = arena_alloc(out->arena, total + 1);
		for (off = 0; (hit = find(p + off, len - off, f, flen));) {
			uint32_t pre = (uint32_t)(hit - (p + off));
			memcpy(d + n, p + off, pre);
			n += pre;
			memcpy(d + n, strview_data(to), to->len);
			n += to->len;
			off += pre + flen;
		}
		memcpy(d + n, p + off, len - off);
		n += len - off;
		out_string_owned(out, i, d, n);
	}
	return FLOE_OK;
}

/* ---- trim ---------------------------------------------------------------- */

static bool
in_set(const char *c, uint32_t clen, const char *set, uint32_t slen)
{
	uint32_t j = 0;

	while (j < slen) {
		uint32_t n = u8len((unsigned char)set[j]);
		if (n == clen && j + n <= slen && memcmp(set + j, c, n) == 0)
			return true;
		j += n;
	}
	return false;
}

static int
trim_common(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
	    bool l, bool r)
{
	Args a;
	uint32_t i;

	args_view(&a, args, nargs);
	for (i = 0; i < count; i++) {
		const strview *s;
		const char *p, *set = " ";
		uint32_t b0, b1, slen = 1;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		if (nargs == 2) {
			set = strview_data(arg_s(&a, 1, i));
			slen = arg_s(&a, 1, i)->len;
		}
		p = strview_data(s);
		b0 = 0;
		b1 = s->len;
		if (l) {
			while (b0 < b1) {
				uint32_t n = u8len((unsigned char)p[b0]);
				if (b0 + n > b1 || !in_set(p + b0, n, set, slen))
					break;
				b0 += n;
			}
		}
		if (r) {
			while (b1 > b0) {
				uint32_t st = b1 - 1, n;
				while (st > b0 && ((unsigned char)p[st] & 0xc0) == 0x80)
					st--;
				n = b1 - st;
				if (!in_set(p + st, n, set, slen))
					break;
				b1 = st;
			}
		}
		vector_set_string(out, i, p + b0, b1 - b0);
	}
	return FLOE_OK;
}

static int
btrim(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return trim_common(ctx, args, nargs, count, out, true, true);
}

static int
ltrim(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return trim_common(ctx, args, nargs, count, out, true, false);
}

static int
rtrim(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return trim_common(ctx, args, nargs, count, out, false, true);
}

/* btrim / ltrim / rtrim(bytea, bytea): bytes of the set off the ends (byteatrim) */
static int
trim_bytes(const Vector *args, int nargs, uint32_t count, Vector *out, bool l, bool r)
{
	Args a;
	uint32_t i;

	args_view(&a, args, nargs);
	for (i = 0; i < count; i++) {
		const strview *s, *set;
		const char *p, *sp;
		uint32_t b0, b1;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		set = arg_s(&a, 1, i);
		p = strview_data(s);
		sp = strview_data(set);
		b0 = 0;
		b1 = s->len;
		if (set->len) {
			while (l && b0 < b1 && memchr(sp, p[b0], set->len))
				b0++;
			while (r && b1 > b0 && memchr(sp, p[b1 - 1], set->len))
				b1--;
		}
		vector_set_string(out, i, p + b0, b1 - b0);
	}
	return FLOE_OK;
}

static int
btrim_bytea(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)ctx;
	return trim_bytes(args, nargs, count, out, true, true);
}

static int
ltrim_bytea(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)ctx;
	return trim_bytes(args, nargs, count, out, true, false);
}

static int
rtrim_bytea(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)ctx;
	return trim_bytes(args, nargs, count, out, false, true);
}

/* ---- split_part ------------------------------------------------------------ */

static int
split_part(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 3);
	for (i = 0; i < count; i++) {
		const strview *s, *dl;
		const char *p, *d, *hit;
		uint32_t len, dlen, off, nfields, f;
		int32_t n;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		dl = arg_s(&a, 1, i);
		n = arg_i32(&a, 2, i);
		if (n == 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "field position must not be zero");
		p = strview_data(s);
		len = s->len;
		d = strview_data(dl);
		dlen = dl->len;
		if (len == 0) {
			out_string_owned(out, i, "", 0);
			continue;
		}
		if (dlen == 0) {
			/* the whole string is the only field */
			if (n == 1 || n == -1)
				vector_set_string(out, i, p, len);
			else
				out_string_owned(out, i, "", 0);
			continue;
		}
		nfields = 1;
		for (off = 0; (hit = find(p + off, len - off, d, dlen)); off = (uint32_t)(hit - p) + dlen)
			nfields++;
		if (n < 0) {
			if ((uint32_t)-(int64_t)n > nfields) {
				out_string_owned(out, i, "", 0);
				continue;
			}
			f = nfields + (uint32_t)n + 1;
		} else {
			f = (uint32_t)n;
		}
		if (f > nfields) {
			out_string_owned(out, i, "", 0);
			continue;
		}
		off = 0;
		while (--f > 0) {
			hit = find(p + off, len - off, d, dlen);
			off = (uint32_t)(hit - p) + dlen;
		}
		hit = find(p + off, len - off, d, dlen);
		vector_set_string(out, i, p + off, hit ? (uint32_t)(hit - (p + off)) : len - off);
	}
	return FLOE_OK;
}

/* ---- lpad, rpad, repeat, reverse ----------------------------------------- */

static int
pad_common(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
	   bool leftpad)
{
	Args a;
	uint32_t i;

	args_view(&a, args, nargs);
	for (i = 0; i < count; i++) {
		const strview *s;
		const char *p, *fill = " ";
		uint32_t flen = 1, slen, keep, need, n = 0, k;
		int32_t len;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		len = arg_i32(&a, 1, i);
		if (nargs == 3) {
			fill = strview_data(arg_s(&a, 2, i));
			flen = arg_s(&a, 2, i)->len;
		}
		if (len <= 0) {
			out_string_owned(out, i, "", 0);
			continue;
		}
		p = strview_data(s);
		slen = func_utf8_len(p, s->len);
		keep = slen < (uint32_t)len ? slen : (uint32_t)len;
		need = (uint32_t)len - keep;
		if (flen == 0)
			need = 0;
		if ((uint64_t)need * 4 + s->len > MAX_TEXT_BYTES)
			return too_long(ctx);
		d = arena_alloc(out->arena, (size_t)need * 4 + s->len + 1);
		{
			uint32_t kb = func_utf8_offset(p, s->len, keep);
			if (!leftpad) {
				memcpy(d, p, kb);
				n = kb;
			}
			/* need characters of fill, cycling (never past flen, even on bad UTF-8) */
			{
				uint32_t off = 0;
				for (k = 0; k < need; k++) {
					uint32_t cl;
					if (off >= flen)
						off = 0;
					cl = u8len((unsigned char)fill[off]);
					if (off + cl > flen)
						cl = flen - off;
					memcpy(d + n, fill + off, cl);
					n += cl;
					off += cl;
				}
			}
			if (leftpad) {
				memcpy(d + n, p, kb);
				n += kb;
			}
		}
		out_string_owned(out, i, d, n);
	}
	return FLOE_OK;
}

static int
lpad(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return pad_common(ctx, args, nargs, count, out, true);
}

static int
rpad(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return pad_common(ctx, args, nargs, count, out, false);
}

static int
repeat(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 2);
	for (i = 0; i < count; i++) {
		const strview *s;
		int32_t n, k;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		n = arg_i32(&a, 1, i);
		if (n <= 0 || s->len == 0) {
			out_string_owned(out, i, "", 0);
			continue;
		}
		if ((uint64_t)s->len * (uint64_t)n > MAX_TEXT_BYTES)
			return too_long(ctx);
		d = arena_alloc(out->arena, (size_t)s->len * (size_t)n + 1);
		for (k = 0; k < n; k++)
			memcpy(d + (size_t)k * s->len, strview_data(s), s->len);
		out_string_owned(out, i, d, s->len * (uint32_t)n);
	}
	return FLOE_OK;
}

static int
reverse(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		const strview *s;
		const char *p;
		uint32_t off = 0;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		p = strview_data(s);
		d = arena_alloc(out->arena, (size_t)s->len + 1);
		while (off < s->len) {
			uint32_t n = u8len((unsigned char)p[off]);
			if (off + n > s->len)
				n = s->len - off;
			memcpy(d + s->len - off - n, p + off, n);
			off += n;
		}
		out_string_owned(out, i, d, s->len);
	}
	return FLOE_OK;
}

/* ---- initcap, translate ----------------------------------------------------- */

static inline bool
is_alnum_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c >= 0x80;
}

/* initcap: first letter of each alphanumeric run upper, the rest lower */
static int
initcap(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		const strview *s;
		const char *p;
		char *d;
		uint32_t off = 0;
		bool word = false;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		p = strview_data(s);
		d = arena_alloc(out->arena, (size_t)s->len + 1);
		while (off < s->len) {
			uint32_t n = u8len((unsigned char)p[off]);
			if (off + n > s->len)
				n = s->len - off;
			map_case(p + off, n, d + off, !word);
			word = is_alnum_byte((unsigned char)p[off]);
			off += n;
		}
		out_string_owned(out, i, d, s->len);
	}
	return FLOE_OK;
}

/* translate(s, from, to): each character of from becomes the character at
 * the same position of to, or is deleted when to is shorter */
static int
translate(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 3);
	for (i = 0; i < count; i++) {
		const strview *s, *from, *to;
		const char *p, *f, *t;
		char *d;
		uint32_t off = 0, n = 0;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		from = arg_s(&a, 1, i);
		to = arg_s(&a, 2, i);
		p = strview_data(s);
		f = strview_data(from);
		t = strview_data(to);
		d = arena_alloc(out->arena, (size_t)s->len * 4 + 1);
		while (off < s->len) {
			uint32_t cl = u8len((unsigned char)p[off]), fo = 0, idx = 0;
			bool found = false;
			if (off + cl > s->len)
				cl = s->len - off;
			while (fo < from->len) {
				uint32_t fl = u8len((unsigned char)f[fo]);
				if (fo + fl > from->len)
					fl = from->len - fo;
				if (fl == cl && memcmp(f + fo, p + off, cl) == 0) {
					found = true;
					break;
				}
				fo += fl;
				idx++;
			}
			if (!found) {
				memcpy(d + n, p + off, cl);
				n += cl;
			} else {
				uint32_t tb = func_utf8_offset(t, to->len, idx);
				if (tb < to->len) {
					uint32_t tl = u8len((unsigned char)t[tb]);
					if (tb + tl > to->len)
						tl = to->len - tb;
					memcpy(d + n, t + tb, tl);
					n += tl;
				}
			}
			off += cl;
		}
		out_string_owned(out, i, d, n);
	}
	return FLOE_OK;
}

/* pg_typeof(any): the argument's type name, for every row (not strict) */
static int
pg_typeof(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	char buf[64];
	uint32_t i, n;

	func_type_name(args[0].type, buf, sizeof buf);
	n = (uint32_t)strlen(buf);
	for (i = 0; i < count; i++)
		vector_set_string(out, i, buf, n);
	return FLOE_OK;
}

/* ---- to_hex, quote_ident/literal/nullable, overlay ----------------------------- */

#define TO_HEX(fname, T, UT)                                                           \
	static int fname(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count,  \
			 Vector *out)                                                  \
	{                                                                              \
		Args a;                                                                \
		uint32_t i;                                                            \
		args_view(&a, args, 1);                                                \
		for (i = 0; i < count; i++) {                                          \
			char buf[24];                                                  \
			UT u;                                                          \
			int n = 0, k;                                                  \
			char tmp[24];                                                  \
			if (args_null(&a, i)) {                                        \
				out_null(out, i);                                      \
				continue;                                              \
			}                                                              \
			u = (UT)((const T *)a.v[0].data)[ARGK(a.v[0], i)];             \
			do {                                                           \
				tmp[n++] = "0123456789abcdef"[u & 15];                 \
				u >>= 4;                                               \
			} while (u);                                                   \
			for (k = 0; k < n; k++)                                        \
				buf[k] = tmp[n - 1 - k];                               \
			vector_set_string(out, i, buf, (uint32_t)n);                   \
		}                                                                      \
		return FLOE_OK;                                                        \
	}

TO_HEX(to_hex32, int32_t, uint32_t)
TO_HEX(to_hex64, int64_t, uint64_t)

/* SQL key words that quote_ident must quote (PostgreSQL's reserved words) */
static const char *const reserved[] = {
	"all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric",
	"authorization", "between", "bigint", "binary", "bit", "boolean", "both", "case", "cast",
	"char", "character", "check", "coalesce", "collate", "collation", "column",
	"concurrently", "constraint", "create", "cross", "current_catalog", "current_date",
	"current_role", "current_schema", "current_time", "current_timestamp", "current_user",
	"dec", "decimal", "default", "deferrable", "desc", "distinct", "do", "else", "end",
	"except", "exists", "extract", "false", "fetch", "float", "for", "foreign", "freeze",
	"from", "full", "grant", "greatest", "group", "grouping", "having", "ilike", "in",
	"initially", "inner", "inout", "int", "integer", "intersect", "interval", "into", "is",
	"isnull", "join", "lateral", "leading", "least", "left", "like", "limit", "localtime",
	"localtimestamp", "national", "natural", "nchar", "none", "normalize", "not", "notnull",
	"null", "nullif", "numeric", "offset", "on", "only", "or", "order", "out", "outer",
	"overlaps", "overlay", "placing", "position", "precision", "primary", "real",
	"references", "returning", "right", "row", "select", "session_user", "setof", "similar",
	"smallint", "some", "substring", "symmetric", "table", "tablesample", "then", "time",
	"timestamp", "to", "trailing", "treat", "trim", "true", "union", "unique", "user",
	"using", "values", "varchar", "variadic", "verbose", "when", "where", "window", "with",
	"xmlattributes", "xmlconcat", "xmlelement", "xmlexists", "xmlforest", "xmlnamespaces",
	"xmlparse", "xmlpi", "xmlroot", "xmlserialize", "xmltable", NULL,
};

static int
quote_ident(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		const strview *sv;
		const char *p;
		bool safe;
		uint32_t k, n = 0;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		sv = arg_s(&a, 0, i);
		p = strview_data(sv);
		safe = sv->len > 0 && ((p[0] >= 'a' && p[0] <= 'z') || p[0] == '_');
		for (k = 0; safe && k < sv->len; k++)
			safe = (p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9') ||
			       p[k] == '_' || p[k] == '$';
		for (k = 0; safe && reserved[k]; k++)
			if (strlen(reserved[k]) == sv->len && !memcmp(reserved[k], p, sv->len))
				safe = false;
		if (safe) {
			vector_set_string(out, i, p, sv->len);
			continue;
		}
		d = arena_alloc(out->arena, (size_t)sv->len * 2 + 3);
		d[n++] = '"';
		for (k = 0; k < sv->len; k++) {
			if (p[k] == '"')
				d[n++] = '"';
			d[n++] = p[k];
		}
		d[n++] = '"';
		out_string_owned(out, i, d, n);
	}
	return FLOE_OK;
}

/* 'text' with '' doubled; E'...' with \\ doubled when there is a backslash */
static void
put_literal(Vector *out, uint32_t i, const char *p, uint32_t len)
{
	char *d = arena_alloc(out->arena, (size_t)len * 2 + 4);
	uint32_t k, n = 0;

	if (memchr(p, '\\', len))
		d[n++] = 'E';
	d[n++] = '\'';
	for (k = 0; k < len; k++) {
		if (p[k] == '\'' || p[k] == '\\')
			d[n++] = p[k];
		d[n++] = p[k];
	}
	d[n++] = '\'';
	out_string_owned(out, i, d, n);
}

static int
quote_literal_common(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out,
		     bool nullable)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		const strview *sv;
		if (args_null(&a, i)) {
			if (nullable)
				vector_set_string(out, i, "NULL", 4);
			else
				out_null(out, i);
			continue;
		}
		sv = arg_s(&a, 0, i);
		put_literal(out, i, strview_data(sv), sv->len);
	}
	return FLOE_OK;
}

static int
quote_literal(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return quote_literal_common(ctx, args, count, out, false);
}

static int
quote_nullable(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return quote_literal_common(ctx, args, count, out, true);
}

/* overlay(s placing r from start [for n]) = left part || r || rest */
static int
overlay(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, nargs);
	for (i = 0; i < count; i++) {
		const strview *sv, *rv;
		const char *p;
		int64_t start, n;
		uint32_t b0, b1, slen;
		char *d;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		sv = arg_s(&a, 0, i);
		rv = arg_s(&a, 1, i);
		p = strview_data(sv);
		start = arg_i32(&a, 2, i);
		n = nargs == 4 ? (int64_t)arg_i32(&a, 3, i) : (int64_t)func_utf8_len(strview_data(rv), rv->len);
		if (start <= 0)
			return floe_errorf(ctx->err, ERRCODE_SUBSTRING_ERROR,
					   "negative substring length not allowed");
		slen = func_utf8_len(p, sv->len);
		b0 = func_utf8_offset(p, sv->len, (uint32_t)(start - 1 > slen ? slen : start - 1));
		if (start + n - 1 < 0)
			b1 = 0;
		else
			b1 = func_utf8_offset(p, sv->len, (uint32_t)(start + n - 1 > slen ? slen :
								     start + n - 1));
		d = arena_alloc(out->arena, (size_t)b0 + rv->len + (sv->len - b1) + 1);
		memcpy(d, p, b0);
		memcpy(d + b0, strview_data(rv), rv->len);
		memcpy(d + b0 + rv->len, p + b1, sv->len - b1);
		out_string_owned(out, i, d, b0 + rv->len + (sv->len - b1));
	}
	return FLOE_OK;
}

/* ---- encode(bytea, format) / decode(text, format): hex, base64, escape -------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int
bad_encoding(FuncCtx *ctx, const strview *f)
{
	return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "unrecognized encoding: \"%.*s\"", (int)(f->len > 64 ? 64 : f->len),
			   strview_data(f));
}

static int
fmt_of(const strview *f)
{
	if (f->len == 3 && !strncasecmp(strview_data(f), "hex", 3))
		return 1;
	if (f->len == 6 && !strncasecmp(strview_data(f), "base64", 6))
		return 2;
	if (f->len == 6 && !strncasecmp(strview_data(f), "escape", 6))
		return 3;
	return 0;
}

static int
encode(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 2);
	for (i = 0; i < count; i++) {
		const strview *sv, *fv;
		const unsigned char *p;
		char *d;
		uint32_t k, n = 0, len;
		int fmt;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		sv = arg_s(&a, 0, i);
		fv = arg_s(&a, 1, i);
		p = (const unsigned char *)strview_data(sv);
		len = sv->len;
		fmt = fmt_of(fv);
		if (!fmt)
			return bad_encoding(ctx, fv);
		if ((uint64_t)len * 4 + 16 > MAX_TEXT_BYTES)
			return too_long(ctx);
		d = arena_alloc(out->arena, (size_t)len * 4 + len / 57 + 16);
		if (fmt == 1) {
			for (k = 0; k < len; k++) {
				d[n++] = "0123456789abcdef"[p[k] >> 4];
				d[n++] = "0123456789abcdef"[p[k] & 15];
			}
		} else if (fmt == 2) {
			/* 76 characters a line, as PostgreSQL's pg_base64_encode */
			uint32_t col = 0;
			for (k = 0; k < len; k += 3) {
				uint32_t v = (uint32_t)p[k] << 16 | (k + 1 < len ? (uint32_t)p[k + 1] << 8 : 0) |
					     (k + 2 < len ? p[k + 2] : 0);
				if (col >= 76) {
					d[n++] = '\n';
					col = 0;
				}
				d[n++] = b64[(v >> 18) & 63];
				d[n++] = b64[(v >> 12) & 63];
				d[n++] = k + 1 < len ? b64[(v >> 6) & 63] : '=';
				d[n++] = k + 2 < len ? b64[v & 63] : '=';
				col += 4;
			}
		} else {
			for (k = 0; k < len; k++) {
				if (p[k] == '\\') {
					d[n++] = '\\';
					d[n++] = '\\';
				} else if (p[k] == 0 || p[k] >= 0x80) {
					n += (uint32_t)sprintf(d + n, "\\%03o", p[k]);
				} else {
					d[n++] = (char)p[k];
				}
			}
		}
		out_string_owned(out, i, d, n);
	}
	return FLOE_OK;
}

static int
decode(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 2);
	for (i = 0; i < count; i++) {
		const strview *sv, *fv;
		const char *p;
		unsigned char *d;
		uint32_t k, n = 0, len;
		int fmt;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		sv = arg_s(&a, 0, i);
		fv = arg_s(&a, 1, i);
		p = strview_data(sv);
		len = sv->len;
		fmt = fmt_of(fv);
		if (!fmt)
			return bad_encoding(ctx, fv);
		d = arena_alloc(out->arena, (size_t)len + 1);
		if (fmt == 1) {
			for (k = 0; k < len;) {
				int hi, lo;
				if (p[k] == ' ' || p[k] == '\n' || p[k] == '\t' || p[k] == '\r') {
					k++;
					continue;
				}
				hi = hex_value(p[k]);
				if (hi < 0)
					return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "invalid hexadecimal digit: \"%c\"", p[k]);
				if (k + 1 >= len)
					return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "invalid hexadecimal data: odd number of digits");
				lo = hex_value(p[k + 1]);
				if (lo < 0)
					return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "invalid hexadecimal digit: \"%c\"", p[k + 1]);
				d[n++] = (unsigned char)(hi << 4 | lo);
				k += 2;
			}
		} else if (fmt == 2) {
			uint32_t acc = 0, bits = 0, pad = 0;
			for (k = 0; k < len; k++) {
				char c = p[k];
				const char *pos;
				if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
					continue;
				if (c == '=') {
					pad++;
					continue;
				}
				pos = c ? strchr(b64, c) : NULL;
				if (!pos || pad)
					return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "invalid symbol \"%c\" found while decoding base64 sequence", c);
				acc = acc << 6 | (uint32_t)(pos - b64);
				bits += 6;
				if (bits >= 8) {
					bits -= 8;
					d[n++] = (unsigned char)(acc >> bits);
				}
			}
			/* whole 4-character groups, at most "==" of padding */
			{
				uint32_t chars = 0, kk;
				for (kk = 0; kk < len; kk++)
					chars += !(p[kk] == ' ' || p[kk] == '\n' || p[kk] == '\t' ||
						   p[kk] == '\r');
				if (chars % 4 != 0 || pad > 2)
					return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "invalid base64 end sequence");
			}
		} else {
			for (k = 0; k < len;) {
				if (p[k] != '\\') {
					d[n++] = (unsigned char)p[k++];
				} else if (k + 1 < len && p[k + 1] == '\\') {
					d[n++] = '\\';
					k += 2;
				} else if (k + 3 < len && p[k + 1] >= '0' && p[k + 1] <= '3' &&
					   p[k + 2] >= '0' && p[k + 2] <= '7' && p[k + 3] >= '0' &&
					   p[k + 3] <= '7') {
					d[n++] = (unsigned char)((p[k + 1] - '0') << 6 | (p[k + 2] - '0') << 3 |
								 (p[k + 3] - '0'));
					k += 4;
				} else {
					return floe_errorf(ctx->err, ERRCODE_INVALID_TEXT_REPRESENTATION,
							   "invalid input syntax for type bytea");
				}
			}
		}
		out_string_owned(out, i, (char *)d, n);
	}
	return FLOE_OK;
}

/* ---- format(fmt, variadic "any") ------------------------------------------------------ */

/* the text of argument j at row i (output function for non-text), or NULL */
static const char *
arg_text(FuncCtx *ctx, const Vector *args, const VectorView *v, int j, uint32_t i, size_t *len)
{
	uint32_t k = ARGK(v[j], i);

	if (!ARGVALID(v[j], k) || args[j].type.id == TYPE_NULL)
		return NULL;
	if (args[j].type.id == TYPE_TEXT) {
		const strview *sv = &((const strview *)v[j].data)[k];
		*len = sv->len;
		return strview_data(sv);
	}
	return vector_value_text(&args[j], i, ctx->arena, len);
}

/* quote_ident's rule on raw bytes, appended to a growable buffer */
typedef struct SBuf {
	char *p;
	size_t len, cap;
	Arena *a;
} SBuf;

static void
sb_put(SBuf *b, const char *s, size_t n)
{
	if (b->len + n > b->cap) {
		size_t nc = (b->len + n) * 2 + 64;
		b->p = arena_realloc(b->a, b->p, b->cap, nc);
		b->cap = nc;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
sb_pad(SBuf *b, size_t n)
{
	while (n--)
		sb_put(b, " ", 1);
}

static bool
ident_safe(const char *p, size_t len)
{
	size_t k;

	if (len == 0 || !((p[0] >= 'a' && p[0] <= 'z') || p[0] == '_'))
		return false;
	for (k = 0; k < len; k++)
		if (!((p[k] >= 'a' && p[k] <= 'z') || (p[k] >= '0' && p[k] <= '9') || p[k] == '_' ||
		      p[k] == '$'))
			return false;
	for (k = 0; reserved[k]; k++)
		if (strlen(reserved[k]) == len && !memcmp(reserved[k], p, len))
			return false;
	return true;
}

static int
format_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView vs[16];
	VectorView *v = nargs <= 16 ? vs : arena_alloc(ctx->arena, sizeof *v * (size_t)nargs);
	uint32_t i;
	int j;

	for (j = 0; j < nargs; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		SBuf b = { NULL, 0, 0, out->arena };
		const char *f;
		size_t flen, k, fl;
		int next = 1;
		f = arg_text(ctx, args, v, 0, i, &flen);
		if (!f) {
			out_null(out, i);
			continue;
		}
		for (k = 0; k < flen; k++) {
			int argn = 0, width = 0;
			bool left = false;
			const char *val;
			size_t vlen = 0;
			char conv;
			if (f[k] != '%') {
				sb_put(&b, f + k, 1);
				continue;
			}
			if (++k >= flen)
				return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "unterminated format() type specifier");
			if (f[k] == '%') {
				sb_put(&b, "%", 1);
				continue;
			}
			/* [n$][-][width] */
			{
				size_t s0 = k;
				int num = 0;
				while (k < flen && f[k] >= '0' && f[k] <= '9' && num < 100000)
					num = num * 10 + (f[k++] - '0');
				if (k < flen && f[k] == '$' && k > s0) {
					argn = num;
					k++;
				} else {
					k = s0;
				}
			}
			if (k < flen && f[k] == '-') {
				left = true;
				k++;
			}
			while (k < flen && f[k] >= '0' && f[k] <= '9' && width < 100000)
				width = width * 10 + (f[k++] - '0');
			if (k >= flen)
				return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "unterminated format() type specifier");
			conv = f[k];
			if (conv != 's' && conv != 'I' && conv != 'L')
				return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "unrecognized format() type specifier \"%c\"", conv);
			if (argn == 0)
				argn = next;
			if (argn >= nargs)
				return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "too few arguments for format()");
			next = argn + 1;
			val = arg_text(ctx, args, v, argn, i, &vlen);
			{
				SBuf t = { NULL, 0, 0, out->arena };
				if (conv == 's') {
					if (val)
						sb_put(&t, val, vlen);
				} else if (conv == 'I') {
					size_t q;
					if (!val)
						return floe_errorf(ctx->err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
								   "null values cannot be formatted as an SQL identifier");
					if (ident_safe(val, vlen)) {
						sb_put(&t, val, vlen);
					} else {
						sb_put(&t, "\"", 1);
						for (q = 0; q < vlen; q++) {
							if (val[q] == '"')
								sb_put(&t, "\"", 1);
							sb_put(&t, val + q, 1);
						}
						sb_put(&t, "\"", 1);
					}
				} else {
					size_t q;
					if (!val) {
						sb_put(&t, "NULL", 4);
					} else {
						if (memchr(val, '\\', vlen))
							sb_put(&t, "E", 1);
						sb_put(&t, "'", 1);
						for (q = 0; q < vlen; q++) {
							if (val[q] == '\'' || val[q] == '\\')
								sb_put(&t, val + q, 1);
							sb_put(&t, val + q, 1);
						}
						sb_put(&t, "'", 1);
					}
				}
				fl = func_utf8_len(t.p ? t.p : "", (uint32_t)t.len);
				if (!left && (size_t)width > fl)
					sb_pad(&b, (size_t)width - fl);
				if (t.len)
					sb_put(&b, t.p, t.len);
				if (left && (size_t)width > fl)
					sb_pad(&b, (size_t)width - fl);
			}
			if (b.len > MAX_TEXT_BYTES)
				return too_long(ctx);
		}
		out_string_owned(out, i, b.p ? b.p : "", (uint32_t)b.len);
	}
	return FLOE_OK;
}

/* ---- ascii, chr ------------------------------------------------------------ */

static int
ascii(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	int32_t *o = out->data;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		const strview *s;
		const unsigned char *p;
		uint32_t n, cp, k;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		p = (const unsigned char *)strview_data(s);
		if (s->len == 0) {
			o[i] = 0;
			out_valid(out, i);
			continue;
		}
		n = u8len(p[0]);
		if (n > s->len)
			n = s->len;
		cp = n == 1 ? p[0] : p[0] & (0x7f >> n);
		for (k = 1; k < n; k++)
			cp = (cp << 6) | (p[k] & 0x3f);
		o[i] = (int32_t)cp;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
chr(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, 1);
	for (i = 0; i < count; i++) {
		int32_t c;
		char b[4];
		uint32_t n;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		c = arg_i32(&a, 0, i);
		if (c < 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "character number must be positive");
		if (c == 0)
			return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "null character not permitted");
		if (c > 0x10ffff)
			return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "requested character too large for encoding: %d", c);
		if (c >= 0xd800 && c <= 0xdfff)
			return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "requested character not valid for encoding: %d", c);
		if (c < 0x80) {
			b[0] = (char)c;
			n = 1;
		} else if (c < 0x800) {
			b[0] = (char)(0xc0 | (c >> 6));
			b[1] = (char)(0x80 | (c & 0x3f));
			n = 2;
		} else if (c < 0x10000) {
			b[0] = (char)(0xe0 | (c >> 12));
			b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
			b[2] = (char)(0x80 | (c & 0x3f));
			n = 3;
		} else {
			b[0] = (char)(0xf0 | (c >> 18));
			b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
			b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
			b[3] = (char)(0x80 | (c & 0x3f));
			n = 4;
		}
		vector_set_string(out, i, b, n);
	}
	return FLOE_OK;
}

/* ---- digests: md5, sha224 / sha256 / sha384 / sha512 (OpenSSL) ----------- */

/* The digest of p[0..len) by md into d (EVP_MAX_MD_SIZE bytes); its length. */
static unsigned int
digest(const EVP_MD *md, const char *p, size_t len, unsigned char *d)
{
	unsigned int n = 0;

	if (!EVP_Digest(p, len, d, &n, md, NULL))
		abort();                 /* a built-in digest does not fail */
	return n;
}

/* md5(text | bytea): the digest as 32 hex digits (text) */
static int
md5(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	static const char hex[] = "0123456789abcdef";
	Args a;
	uint32_t i;

	(void)ctx;
	args_view(&a, args, nargs);
	for (i = 0; i < count; i++) {
		const strview *s;
		unsigned char d[EVP_MAX_MD_SIZE];
		unsigned int n, j;
		char *h;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		n = digest(EVP_md5(), strview_data(s), s->len, d);
		h = arena_alloc(out->arena, 2 * n + 1);
		for (j = 0; j < n; j++) {
			h[2 * j] = hex[d[j] >> 4];
			h[2 * j + 1] = hex[d[j] & 15];
		}
		out_string_owned(out, i, h, 2 * n);
	}
	return FLOE_OK;
}

/* sha224 / sha256 / sha384 / sha512(bytea) -> bytea */
static int
sha_common(const EVP_MD *md, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Args a;
	uint32_t i;

	args_view(&a, args, nargs);
	for (i = 0; i < count; i++) {
		const strview *s;
		unsigned char d[EVP_MAX_MD_SIZE];
		unsigned int n;
		if (args_null(&a, i)) {
			out_null(out, i);
			continue;
		}
		s = arg_s(&a, 0, i);
		n = digest(md, strview_data(s), s->len, d);
		vector_set_string(out, i, (const char *)d, n);
	}
	return FLOE_OK;
}

#define SHA_KERNEL(name, md)                                                               \
	static int name(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out) \
	{                                                                                  \
		(void)ctx;                                                                 \
		return sha_common(md, args, nargs, count, out);                            \
	}
SHA_KERNEL(sha224, EVP_sha224())
SHA_KERNEL(sha256, EVP_sha256())
SHA_KERNEL(sha384, EVP_sha384())
SHA_KERNEL(sha512, EVP_sha512())

#define TX TYPE_TEXT
#define I4 TYPE_INT32
#define BO TYPE_BOOL
#define ANY FARG_ANY
#define F1(nm, k, a, r) { nm, k, 1, 0, { a }, r, FRET_FIXED, true, false }
#define F2(nm, k, a, b, r) { nm, k, 2, 0, { a, b }, r, FRET_FIXED, true, false }
#define F3(nm, k, a, b, c, r) { nm, k, 3, 0, { a, b, c }, r, FRET_FIXED, true, false }

const ScalarFunc func_string_table[] = {
	{ "||", textcat, 2, 0, { TX, TX }, TX, FRET_FIXED, true, true },
	{ "||", textcat, 2, 0, { ANY, TX }, TX, FRET_FIXED, true, true },
	{ "||", textcat, 2, 0, { TX, ANY }, TX, FRET_FIXED, true, true },
	{ "||", textcat, 2, 0, { TYPE_BYTEA, TYPE_BYTEA }, TYPE_BYTEA, FRET_FIXED, true, true },
	{ "concat", concat, 1, 1, { FARG_ANY_ASIS }, TX, FRET_FIXED, false, false },
	{ "concat_ws", concat_ws, 2, 1, { TX, FARG_ANY_ASIS }, TX, FRET_FIXED, false, false },
	F1("length", length, TX, I4),
	F1("char_length", length, TX, I4),
	F1("character_length", length, TX, I4),
	F1("octet_length", octet_length, TX, I4),
	F1("bit_length", bit_length, TX, I4),
	F1("length", octet_length, TYPE_BYTEA, I4),
	F1("octet_length", octet_length, TYPE_BYTEA, I4),
	F1("lower", lower, TX, TX),
	F1("upper", upper, TX, TX),
	F2("substring", substring, TX, I4, TX),
	F3("substring", substring, TX, I4, I4, TX),
	F2("substr", substring, TX, I4, TX),
	F3("substr", substring, TX, I4, I4, TX),
	F2("left", left, TX, I4, TX),
	F2("right", right, TX, I4, TX),
	F2("position", position, TX, TX, I4),
	F2("strpos", position, TX, TX, I4),
	F2("starts_with", starts_with, TX, TX, BO),
	F3("replace", replace, TX, TX, TX, TX),
	F1("btrim", btrim, TX, TX), F2("btrim", btrim, TX, TX, TX),
	F1("ltrim", ltrim, TX, TX), F2("ltrim", ltrim, TX, TX, TX),
	F1("rtrim", rtrim, TX, TX), F2("rtrim", rtrim, TX, TX, TX),
	F2("btrim", btrim_bytea, TYPE_BYTEA, TYPE_BYTEA, TYPE_BYTEA),
	F2("ltrim", ltrim_bytea, TYPE_BYTEA, TYPE_BYTEA, TYPE_BYTEA),
	F2("rtrim", rtrim_bytea, TYPE_BYTEA, TYPE_BYTEA, TYPE_BYTEA),
	F3("split_part", split_part, TX, TX, I4, TX),
	F2("lpad", lpad, TX, I4, TX), F3("lpad", lpad, TX, I4, TX, TX),
	F2("rpad", rpad, TX, I4, TX), F3("rpad", rpad, TX, I4, TX, TX),
	F2("repeat", repeat, TX, I4, TX),
	F1("reverse", reverse, TX, TX),
	F1("ascii", ascii, TX, I4),
	F1("chr", chr, I4, TX),
	F1("md5", md5, TX, TX), F1("md5", md5, TYPE_BYTEA, TX),
	F1("sha224", sha224, TYPE_BYTEA, TYPE_BYTEA), F1("sha256", sha256, TYPE_BYTEA, TYPE_BYTEA),
	F1("sha384", sha384, TYPE_BYTEA, TYPE_BYTEA), F1("sha512", sha512, TYPE_BYTEA, TYPE_BYTEA),
	F1("initcap", initcap, TX, TX),
	{ "format", format_k, 1, 0, { TX }, TX, FRET_FIXED, false, false },
	{ "format", format_k, 2, 1, { TX, FARG_ANY_ASIS }, TX, FRET_FIXED, false, false },
	F1("to_hex", to_hex32, I4, TX),
	F1("to_hex", to_hex64, TYPE_INT64, TX),
	F1("quote_ident", quote_ident, TX, TX),
	F1("quote_literal", quote_literal, TX, TX),
	{ "quote_nullable", quote_nullable, 1, 0, { TX }, TX, FRET_FIXED, false, false },
	{ "overlay", overlay, 3, 0, { TX, TX, I4 }, TX, FRET_FIXED, true, false },
	{ "overlay", overlay, 4, 0, { TX, TX, I4, I4 }, TX, FRET_FIXED, true, false },
	F2("encode", encode, TYPE_BYTEA, TX, TX),
	F2("decode", decode, TX, TX, TYPE_BYTEA),
	{ "pg_typeof", pg_typeof, 1, 0, { FARG_ANY_ASIS }, TX, FRET_FIXED, false, false },
	F3("translate", translate, TX, TX, TX, TX),
};
const int func_string_count = sizeof func_string_table / sizeof func_string_table[0];
