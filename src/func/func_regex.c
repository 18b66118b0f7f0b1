/*
 * func_regex.c — POSIX regular expression operators and functions:
 * ~ !~ ~* !~* (text, text) -> boolean, regexp_like(text, text[, flags]),
 * regexp_replace(text, pattern, replacement[, flags | start [, N [, flags]]]),
 * regexp_instr, regexp_substr (PostgreSQL 15's, with start / N / subexpr), and
 * substring(text, pattern) (SQL's SUBSTRING(x FROM pattern)).
 *
 * Spec: PostgreSQL 15 documentation 9.7.3 "POSIX Regular Expressions".
 * PostgreSQL uses Henry Spencer's ARE engine; floe uses the C library's
 * POSIX extended regular expressions (regcomp/regexec, REG_EXTENDED), after
 * rewriting the ARE class escapes \d \D outside brackets (\w \s \W \S are
 * GNU extensions glibc already has).  Matching runs under a C.UTF-8 LC_CTYPE, so
 * '.' matches one (multibyte) character as in PostgreSQL.  Flags: i (case-insensitive), g (all
 * matches, regexp_replace), c (case-sensitive, default); any other flag is
 * 22023 'invalid regular expression option: "x"'.  A bad pattern is 2201B
 * "invalid regular expression: <reason>".
 *
 * regexp_replace's replacement understands \1..\9 (groups), \& (the whole
 * match) and \\ (a backslash).  substring(x, pattern) returns the first
 * parenthesised group if the pattern has one, else the whole match, NULL
 * when nothing matches.
 *
 * A kernel compiles each distinct pattern once per call (a constant
 * pattern: once per batch) and frees it before returning.
 *
 * regexp_match / regexp_split_to_array return text[] (see their comment).
 *
 * INTERFACE ROUTINES
 *   func_regex_table[] / func_regex_count   (searched by func_registry.c)
 *   func_regexp_match, func_regexp_split    (kernels; func_array.c's table)
 *   func_regexp_split_table                 (regexp_split_to_table's array)
 *   func_regexp_matches_rows                (regexp_matches in FROM, exec/srf.c)
 */
#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include "func/func_internal.h"
#include "types/array.h"


/*
 * Patterns are compiled and run under a UTF-8 LC_CTYPE (C.UTF-8, switched per
 * thread around each call) so that '.' and bracket expressions match whole
 * characters as PostgreSQL's do in a UTF8 database; offsets stay in bytes.
 */
static locale_t utf8_loc;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void
utf8_init(void)
{
	utf8_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if (!utf8_loc)
		utf8_loc = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
}

static int
rx_regcomp(regex_t *re, const char *pat, int cflags)
{
	locale_t old = (locale_t)0;
	int rc;

	pthread_once(&utf8_once, utf8_init);
	if (utf8_loc)
		old = uselocale(utf8_loc);
	rc = regcomp(re, pat, cflags);
	if (utf8_loc)
		uselocale(old);
	return rc;
}

static int
rx_regexec(const regex_t *re, const char *s, size_t nm, regmatch_t *m, int eflags)
{
	locale_t old = (locale_t)0;
	int rc;

	if (utf8_loc)
		old = uselocale(utf8_loc);
	rc = regexec(re, s, nm, m, eflags);
	if (utf8_loc)
		uselocale(old);
	return rc;
}

/* bytes of the UTF-8 character at s (1 for a stray byte or at the end) */
static size_t
u8len(const char *s, size_t left)
{
	unsigned char c = (unsigned char)s[0];
	size_t n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	return n <= left ? n : 1;
}

/* flag 'q': the pattern is a literal string (not a regcomp flag bit) */
#define RX_LITERAL (1 << 28)

#define MAX_RESULT_BYTES (1024u * 1024u * 1024u - 1)

/* One compiled pattern, reused while the pattern text and flags repeat. */
typedef struct Rx {
	regex_t re;
	bool have;
	char *pat;          /* the ARE text it was compiled from */
	uint32_t plen;
	int cflags;
	char *buf;          /* NUL-terminated copy of the subject */
	size_t bufcap;
} Rx;

static void
rx_free(Rx *rx)
{
	if (rx->have)
		regfree(&rx->re);
	free(rx->pat);
	free(rx->buf);
	memset(rx, 0, sizeof *rx);
}

/* ARE -> ERE: \d \D outside brackets; literal: quote every metacharacter */
static char *
translate(const char *p, uint32_t n, bool literal)
{
	char *out = xmalloc((size_t)n * 8 + 1);
	uint32_t i, o = 0;
	bool in_br = false;

	if (literal) {
		for (i = 0; i < n; i++) {
			if (strchr(".[]()*+?{}|^$\\", p[i]) && p[i])
				out[o++] = '\\';
			out[o++] = p[i];
		}
		out[o] = 0;
		return out;
	}
	for (i = 0; i < n; i++) {
		char c = p[i];
		if (!in_br && c == '\\' && i + 1 < n && (p[i + 1] == 'd' || p[i + 1] == 'D')) {
			const char *rep = p[i + 1] == 'd' ? "[0-9]" : "[^0-9]";
			memcpy(out + o, rep, strlen(rep));
			o += (uint32_t)strlen(rep);
			i++;
			continue;
		}
		if (!in_br && c == '\\' && i + 1 < n) {
			out[o++] = c;
			out[o++] = p[++i];
			continue;
		}
		if (!in_br && c == '(' && i + 2 < n && p[i + 1] == '?' && p[i + 2] == ':') {
			out[o++] = '(';          /* ARE non-capturing group: a plain group */
			i += 2;
			continue;
		}
		if (!in_br && c == '[') {
			in_br = true;
			out[o++] = c;
			/* a leading ^ and ] are literal members */
			if (i + 1 < n && p[i + 1] == '^')
				out[o++] = p[++i];
			if (i + 1 < n && p[i + 1] == ']')
				out[o++] = p[++i];
			continue;
		}
		if (in_br && c == ']')
			in_br = false;
		out[o++] = c;
	}
	out[o] = 0;
	return out;
}

static int
rx_compile(FuncCtx *ctx, Rx *rx, const strview *pat, int cflags)
{
	const char *p = strview_data(pat);
	char *ere;
	int rc;

	if (rx->have && rx->cflags == cflags && rx->plen == pat->len &&
	    memcmp(rx->pat, p, pat->len) == 0)
		return FLOE_OK;
	if (rx->have)
		regfree(&rx->re);
	rx->have = false;
	free(rx->pat);
	rx->pat = xmalloc(pat->len + 1);
	memcpy(rx->pat, p, pat->len);
	rx->plen = pat->len;
	rx->cflags = cflags;
	ere = translate(p, pat->len, (cflags & RX_LITERAL) != 0);
	rc = rx_regcomp(&rx->re, ere, REG_EXTENDED | (cflags & ~RX_LITERAL));
	free(ere);
	if (rc != 0) {
		char msg[256];
		regerror(rc, &rx->re, msg, sizeof msg);
		free(rx->pat);
		rx->pat = NULL;
		return floe_errorf(ctx->err, ERRCODE_INVALID_REGULAR_EXPRESSION,
				   "invalid regular expression: %s", msg);
	}
	rx->have = true;
	return FLOE_OK;
}

/* NUL-terminated copy of s in rx->buf */
static const char *
rx_subject(Rx *rx, const strview *s)
{
	if (rx->bufcap < (size_t)s->len + 1) {
		rx->bufcap = (size_t)s->len + 1 + 64;
		free(rx->buf);
		rx->buf = xmalloc(rx->bufcap);
	}
	memcpy(rx->buf, strview_data(s), s->len);
	rx->buf[s->len] = 0;
	return rx->buf;
}

/* parse a flags string: sets *cflags, *global (PostgreSQL's
 * parse_re_flags: every flag is checked before any use of g is refused) */
static int
parse_flags(FuncCtx *ctx, const strview *f, int *cflags, bool *global)
{
	const char *p = strview_data(f);
	uint32_t i;

	for (i = 0; i < f->len; i++) {
		switch (p[i]) {
		case 'i': *cflags |= REG_ICASE; break;
		case 'c': *cflags &= ~REG_ICASE; break;
		case 'n': case 'm': *cflags |= REG_NEWLINE; break;
		case 'q': *cflags |= RX_LITERAL; break;
		case 'g': *global = true; break;
		case 'b': case 'e': case 'p': case 's': case 't': case 'w': case 'x':
			break;  /* ARE variants: approximated by POSIX ERE */
		default:
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid regular expression option: \"%c\"", p[i]);
		}
	}
	return FLOE_OK;
}

static bool
any_null(const VectorView *v, int nargs, uint32_t i)
{
	int j;

	for (j = 0; j < nargs; j++)
		if (!ARGVALID(v[j], ARGK(v[j], i)))
			return true;
	return false;
}

#define ARG_STR(view, i) (&((const strview *)(view).data)[ARGK((view), (i))])
#define ARG_I32(view, i) (((const int32_t *)(view).data)[ARGK((view), (i))])

/* the offset just past the (UTF-8) character at off: after an empty match */
static size_t
next_char(const char *subj, size_t off, size_t slen)
{
	return off + (off < slen ? u8len(subj + off, slen - off) : 1);
}

/*
 * The row loop of every regex kernel (rx_rows): NULL in any argument ->
 * NULL; else the subject (argument 0) and pattern (1), an optional start
 * (> 0, else 22023) and flags argument (g refused for functions that name
 * themselves in no_global), the pattern compiled (once while it and the
 * flags repeat), then the kernel's per-row callback.
 */
typedef struct RxArgs {
	int base_cflags;       /* cflags before the flags argument */
	int start_arg;         /* index of an int4 start argument; -1 none */
	int flags_arg;         /* index of a text flags argument; -1 none */
	const char *no_global; /* "f()": flag g is 22023 for it; NULL allows g */
	const char *hint;      /* hint of that error, or NULL */
} RxArgs;

typedef struct RxRow {
	uint32_t i;            /* the row */
	const strview *s, *p;  /* subject, pattern */
	const char *subj;      /* the subject NUL-terminated */
	size_t slen;
	const Rx *rx;          /* p compiled with cflags */
	int cflags;
	bool g;
	int32_t start;         /* 1 without a start argument */
} RxRow;

typedef int (*RxRowFn)(FuncCtx *ctx, const RxRow *r, Vector *out, void *st);

static int
rx_rows(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
	const RxArgs *ra, RxRowFn fn, void *st)
{
	VectorView v[8];
	Rx rx;
	RxRow r;
	uint32_t i;
	int j, rc = FLOE_OK;

	memset(&rx, 0, sizeof rx);
	for (j = 0; j < nargs; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count && rc == FLOE_OK; i++) {
		if (any_null(v, nargs, i)) {
			out_null(out, i);
			continue;
		}
		r.i = i;
		r.s = ARG_STR(v[0], i);
		r.p = ARG_STR(v[1], i);
		r.cflags = ra->base_cflags;
		r.g = false;
		r.start = 1;
		if (ra->start_arg >= 0 && ra->start_arg < nargs &&
		    (r.start = ARG_I32(v[ra->start_arg], i)) <= 0) {
			rc = floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					 "invalid value for parameter \"%s\": %d", "start", r.start);
			break;
		}
		if (ra->flags_arg >= 0 && ra->flags_arg < nargs) {
			if ((rc = parse_flags(ctx, ARG_STR(v[ra->flags_arg], i), &r.cflags, &r.g)) != FLOE_OK)
				break;
			if (r.g && ra->no_global) {
				rc = floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
						 "%s does not support the \"global\" option", ra->no_global);
				if (ra->hint)
					floe_error_hint(ctx->err, "%s", ra->hint);
				break;
			}
		}
		if ((rc = rx_compile(ctx, &rx, r.p, r.cflags)) != FLOE_OK)
			break;
		r.subj = rx_subject(&rx, r.s);
		r.slen = r.s->len;
		r.rx = &rx;
		rc = fn(ctx, &r, out, st);
	}
	rx_free(&rx);
	return rc;
}

static int
match_row(FuncCtx *ctx, const RxRow *r, Vector *out, void *st)
{
	bool negate = *(const bool *)st;

	((uint8_t *)out->data)[r->i] = (rx_regexec(&r->rx->re, r->subj, 0, NULL, 0) == 0) != negate;
	out_valid(out, r->i);
	return FLOE_OK;
}

static int
match_common(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
	     int base_flags, bool negate)
{
	RxArgs ra = { base_flags | REG_NOSUB, -1, 2, "regexp_like()", NULL };

	return rx_rows(ctx, args, nargs, count, out, &ra, match_row, &negate);
}

static int
rx_op_match(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return match_common(ctx, args, 2, count, out, 0, false);
}

static int
rx_op_nmatch(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return match_common(ctx, args, 2, count, out, 0, true);
}

static int
rx_op_imatch(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return match_common(ctx, args, 2, count, out, REG_ICASE, false);
}

static int
rx_op_inmatch(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return match_common(ctx, args, 2, count, out, REG_ICASE, true);
}

static int
regexp_like(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return match_common(ctx, args, nargs, count, out, 0, false);
}

/* Growable output buffer in malloc memory, copied to out->arena at the end. */
typedef struct Buf {
	char *p;
	size_t len, cap;
} Buf;

static int
buf_put(FuncCtx *ctx, Buf *b, const char *s, size_t n)
{
	if (n == 0)
		return FLOE_OK;
	if (b->len + n > MAX_RESULT_BYTES)
		return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "requested length too large");
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return FLOE_OK;
}

/* the replacement text r for the match m (at subj + off) into b */
static int
put_replacement(FuncCtx *ctx, Buf *b, const RxRow *r, const strview *rs, size_t off,
		const regmatch_t *m)
{
	const char *rep = strview_data(rs);
	size_t ms = off + (size_t)m[0].rm_so, me = off + (size_t)m[0].rm_eo;
	uint32_t k;
	int rc = FLOE_OK;

	for (k = 0; k < rs->len && rc == FLOE_OK; k++) {
		char c = rep[k];
		if (c == '\\' && k + 1 < rs->len) {
			char d = rep[k + 1];
			if (d >= '1' && d <= '9') {
				const regmatch_t *gm = &m[d - '0'];
				if (gm->rm_so >= 0 && (size_t)(d - '0') <= r->rx->re.re_nsub)
					rc = buf_put(ctx, b, r->subj + off + gm->rm_so,
						     (size_t)(gm->rm_eo - gm->rm_so));
				k++;
				continue;
			}
			if (d == '&') {
				rc = buf_put(ctx, b, r->subj + ms, me - ms);
				k++;
				continue;
			}
			if (d == '\\') {
				rc = buf_put(ctx, b, "\\", 1);
				k++;
				continue;
			}
		}
		rc = buf_put(ctx, b, &c, 1);
	}
	return rc;
}

typedef struct ReplaceState {
	VectorView rv;         /* the replacement argument */
	VectorView nv;         /* N, when given (has_n) */
	bool has_n;
	Buf b;
} ReplaceState;

static int
replace_row(FuncCtx *ctx, const RxRow *r, Vector *out, void *st)
{
	ReplaceState *rs = st;
	Buf *b = &rs->b;
	const strview *rep = ARG_STR(rs->rv, r->i);
	const char *subj = r->subj;
	size_t off = 0, slen = r->slen;
	regmatch_t m[10];
	int eflags = 0;
	int32_t n = r->g ? 0 : 1, k = 0;   /* N: replace the N-th match, 0: all */

	if (rs->has_n) {               /* an explicit N rules over the g flag */
		n = ARG_I32(rs->nv, r->i);
		if (n < 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for parameter \"%s\": %d", "n", n);
	}
	b->len = 0;
	if (r->start > 1) {   /* regexp_replace(s, p, r, start): search from there */
		off = func_utf8_offset(subj, (uint32_t)slen, (uint32_t)(r->start - 1));
		if (off > 0) {
			eflags = REG_NOTBOL;
			TRY(buf_put(ctx, b, subj, off));
		}
	}
	while (off <= slen && rx_regexec(&r->rx->re, subj + off, 10, m, eflags) == 0) {
		size_t ms = off + (size_t)m[0].rm_so, me = off + (size_t)m[0].rm_eo;
		bool hit = n == 0 || ++k == n;
		TRY(buf_put(ctx, b, subj + off, ms - off));
		if (hit)
			TRY(put_replacement(ctx, b, r, rep, off, m));
		else
			TRY(buf_put(ctx, b, subj + ms, me - ms));
		if (me == ms) {
			/* empty match: copy one character and move on */
			if (ms < slen)
				TRY(buf_put(ctx, b, subj + ms, next_char(subj, ms, slen) - ms));
			off = next_char(subj, ms, slen);
		} else {
			off = me;
		}
		eflags = REG_NOTBOL;
		if (hit && n != 0)
			break;
	}
	if (off < slen)
		TRY(buf_put(ctx, b, subj + off, slen - off));
	vector_set_string(out, r->i, b->p ? b->p : "", (uint32_t)b->len);
	return FLOE_OK;
}

static int
regexp_replace(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	/* (s, p, r [, flags]) or (s, p, r, start [, N [, flags]]) */
	bool start4 = nargs >= 4 && args[3].type.id == TYPE_INT32;
	RxArgs ra = { 0, start4 ? 3 : -1, start4 ? (nargs == 6 ? 5 : -1) : 3, NULL, NULL };
	ReplaceState rs;
	int rc;

	memset(&rs, 0, sizeof rs);
	vector_view(&args[2], &rs.rv);
	if (start4 && nargs >= 5) {
		vector_view(&args[4], &rs.nv);
		rs.has_n = true;
	}
	rc = rx_rows(ctx, args, nargs, count, out, &ra, replace_row, &rs);
	free(rs.b.p);
	return rc;
}

static int
substring_row(FuncCtx *ctx, const RxRow *r, Vector *out, void *st)
{
	regmatch_t m[2];
	int g;

	if (rx_regexec(&r->rx->re, r->subj, 2, m, 0) != 0) {
		out_null(out, r->i);
		return FLOE_OK;
	}
	g = r->rx->re.re_nsub > 0 ? 1 : 0;
	if (m[g].rm_so < 0) {
		out_null(out, r->i);
		return FLOE_OK;
	}
	vector_set_string(out, r->i, strview_data(r->s) + m[g].rm_so,
			  (uint32_t)(m[g].rm_eo - m[g].rm_so));
	return FLOE_OK;
}

static int
regex_substring(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	RxArgs ra = { 0, -1, -1, NULL, NULL };

	return rx_rows(ctx, args, 2, count, out, &ra, substring_row, NULL);
}

/*
 * regexp_match(s, pattern [, flags]) -> text[] and regexp_split_to_array
 * (s, pattern [, flags]) -> text[] (called through func_array.c's
 * signatures, which give them their array result types).
 *
 * regexp_match: NULL when nothing matches; else the capture groups (a group
 * that did not take part is NULL), or the whole match when the pattern has
 * none.  ARE non-capturing groups (?:...) are plain groups to the ERE
 * engine, so group_map numbers the pattern's '(' and keeps the capturing
 * ones.  The g flag is 22023 as in PostgreSQL.
 *
 * regexp_split_to_array: the pieces between matches, PostgreSQL's
 * regexp_split rule for empty matches: a match that is empty at the end of
 * the string or ends where the previous match ended is ignored, so
 * regexp_split_to_array('abc', '') is {a,b,c}.
 */
#define RX_MAX_GROUPS 32

/* map[k] = the ERE group number of the pattern's k-th capturing group */
static int
group_map(const char *p, uint32_t n, int *map, int max)
{
	uint32_t i;
	int ere = 0, ncap = 0;
	bool in_br = false;

	for (i = 0; i < n; i++) {
		char c = p[i];
		if (!in_br && c == '\\' && i + 1 < n) {
			i++;
			continue;
		}
		if (!in_br && c == '[') {
			in_br = true;
			if (i + 1 < n && p[i + 1] == '^')
				i++;
			if (i + 1 < n && p[i + 1] == ']')
				i++;
			continue;
		}
		if (in_br) {
			if (c == ']')
				in_br = false;
			continue;
		}
		if (c == '(') {
			ere++;
			if (!(i + 2 < n && p[i + 1] == '?' && p[i + 2] == ':') && ncap < max)
				map[ncap++] = ere;
		}
	}
	return ncap;
}

/* Encode the text pieces vals[0..n) as a text[] into out row i. */
static int
emit_text_array(FuncCtx *ctx, Vector *out, uint32_t i, const Value *vals, uint32_t n)
{
	strview a;
	Arena *tmp = arena_new(0);
	int rc = array_encode(tmp, out->type, vals, n, &a, ctx->err);
	if (rc == FLOE_OK)
		vector_set_string(out, i, strview_data(&a), a.len);
	arena_free(tmp);
	return rc;
}

static Value
piece(const char *p, size_t n)
{
	Value v;
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_TEXT);
	v.u.s = strview_make(p, (uint32_t)n);
	return v;
}

/* how many capturing groups of pattern p (compiled as rx with cflags) a
 * match reports, their ERE numbers in map */
static int
rx_groups(const Rx *rx, const strview *p, int cflags, int *map)
{
	int ng = (cflags & RX_LITERAL) ? 0 : group_map(strview_data(p), p->len, map, RX_MAX_GROUPS);

	if ((size_t)ng > rx->re.re_nsub)
		ng = (int)rx->re.re_nsub;
	return ng;
}

/* A match's values (searched from subj + off): the ng groups of map (NULL
 * where a group took no part), or the whole match when ng is 0; returns
 * how many. */
static int
match_values(const char *subj, size_t off, const regmatch_t *m, const int *map, int ng,
	     Value *vals)
{
	int k;

	if (ng == 0) {
		vals[0] = piece(subj + off + m[0].rm_so, (size_t)(m[0].rm_eo - m[0].rm_so));
		return 1;
	}
	for (k = 0; k < ng; k++) {
		const regmatch_t *gm = &m[map[k]];
		if (map[k] > RX_MAX_GROUPS || gm->rm_so < 0)
			vals[k] = value_null(type_make(TYPE_TEXT));
		else
			vals[k] = piece(subj + off + gm->rm_so, (size_t)(gm->rm_eo - gm->rm_so));
	}
	return ng;
}

static int
regexp_match_row(FuncCtx *ctx, const RxRow *r, Vector *out, void *st)
{
	regmatch_t m[RX_MAX_GROUPS + 1];
	Value vals[RX_MAX_GROUPS];
	int map[RX_MAX_GROUPS], ng = rx_groups(r->rx, r->p, r->cflags, map);

	if (rx_regexec(&r->rx->re, r->subj, RX_MAX_GROUPS + 1, m, 0) != 0) {
		out_null(out, r->i);
		return FLOE_OK;
	}
	ng = match_values(r->subj, 0, m, map, ng, vals);
	return emit_text_array(ctx, out, r->i, vals, (uint32_t)ng);
}

int
func_regexp_match(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	RxArgs ra = { 0, -1, 2, "regexp_match()", "Use the regexp_matches function instead." };

	return rx_rows(ctx, args, nargs, count, out, &ra, regexp_match_row, NULL);
}

/* regexp_matches(s, pattern [, flags]) for srf.c: each match (every one
 * with flag g, else the first) as a text[] of its capture groups (or of
 * the whole match), encoded in a; an empty match advances one character */
int
func_regexp_matches_rows(const strview *s, const strview *pat, const strview *flags,
			 SqlType arrtype, Arena *a, strview **rows, uint32_t *n, floe_error *err)
{
	FuncCtx fc = { a, err, NULL };
	Rx rx;
	int cflags = 0, eflags = 0, map[RX_MAX_GROUPS], ng, k, rc = FLOE_OK;
	bool g = false;
	const char *subj;
	size_t slen, off = 0;
	uint32_t cnt = 0, cap = 8;
	strview *out = ARENA_ARRAY(a, strview, cap);

	memset(&rx, 0, sizeof rx);
	if (flags && parse_flags(&fc, flags, &cflags, &g) != FLOE_OK)
		return FLOE_ERR;
	if (rx_compile(&fc, &rx, pat, cflags) != FLOE_OK) {
		rx_free(&rx);
		return FLOE_ERR;
	}
	ng = rx_groups(&rx, pat, cflags, map);
	subj = rx_subject(&rx, s);
	slen = s->len;
	while (off <= slen) {
		regmatch_t m[RX_MAX_GROUPS + 1];
		Value vals[RX_MAX_GROUPS];
		size_t ms, me;
		int nv;
		if (rx_regexec(&rx.re, subj + off, RX_MAX_GROUPS + 1, m, eflags) != 0)
			break;
		ms = off + (size_t)m[0].rm_so;
		me = off + (size_t)m[0].rm_eo;
		nv = match_values(subj, off, m, map, ng, vals);
		for (k = 0; k < nv; k++)      /* the subject buffer is reused: own the bytes */
			if (!vals[k].is_null && vals[k].u.s.len > STRVIEW_INLINE)
				vals[k].u.s = strview_make(arena_memdup(a, vals[k].u.s.u.ptr, vals[k].u.s.len),
							   vals[k].u.s.len);
		if (cnt == cap) {
			out = arena_realloc(a, out, cap * sizeof(strview), cap * 2 * sizeof(strview));
			cap *= 2;
		}
		if ((rc = array_encode(a, arrtype, vals, (uint32_t)nv, &out[cnt], err)) != FLOE_OK)
			break;
		cnt++;
		if (!g)
			break;
		off = me == ms ? next_char(subj, ms, slen) : me;
		eflags = REG_NOTBOL;
	}
	rx_free(&rx);
	*rows = out;
	*n = cnt;
	return rc;
}

typedef struct SplitState {
	Value *vals;
	size_t cap;
} SplitState;

static int
split_row(FuncCtx *ctx, const RxRow *r, Vector *out, void *st)
{
	SplitState *ss = st;
	const char *subj = r->subj;
	size_t slen = r->slen, off = 0, start = 0, prev_end = 0, n = 0;
	regmatch_t m[1];
	int eflags = 0;

	for (;;) {
		size_t ms, me;
		if (n + 2 > ss->cap) {
			ss->cap = (n + 2) * 2;
			ss->vals = xrealloc(ss->vals, ss->cap * sizeof(Value));
		}
		if (off > slen || rx_regexec(&r->rx->re, subj + off, 1, m, eflags) != 0)
			break;
		ms = off + (size_t)m[0].rm_so;
		me = off + (size_t)m[0].rm_eo;
		if (ms < slen && me > prev_end) {
			ss->vals[n++] = piece(subj + start, ms - start);
			start = me;
		}
		prev_end = me;
		off = me == ms ? next_char(subj, ms, slen) : me;
		eflags = REG_NOTBOL;
	}
	ss->vals[n++] = piece(subj + start, slen - start);
	return emit_text_array(ctx, out, r->i, ss->vals, (uint32_t)n);
}

static int
split_common(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
	     const char *fname)
{
	RxArgs ra = { 0, -1, 2, fname, NULL };
	SplitState ss = { NULL, 0 };
	int rc = rx_rows(ctx, args, nargs, count, out, &ra, split_row, &ss);

	free(ss.vals);
	return rc;
}

int
func_regexp_split(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return split_common(ctx, args, nargs, count, out, "regexp_split_to_array()");
}

/* regexp_split_to_table(s, pattern [, flags]) is unnest of this array
 * (select.c): the same pieces, its own name in the g flag's 22023 */
int
func_regexp_split_table(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return split_common(ctx, args, nargs, count, out, "regexp_split_to_table()");
}

/*
 * similar_to_escape(pattern[, escape]): SQL's SIMILAR TO pattern as a
 * regular expression (PostgreSQL's similar_escape_internal): % -> .*,
 * _ -> ., . ^ $ quoted, ( -> non-capturing group, bracket expressions kept,
 * the escape character (default backslash, '' = none) quotes the next
 * character; the whole is anchored: ^(?: ... )$.  The parser turns
 * `a SIMILAR TO b` into `a ~ similar_to_escape(b)`.  floe's ~ reads (?: as
 * a plain group (POSIX ERE has no non-capturing groups).
 */
static int
similar_common(FuncCtx *ctx, const strview *pat, const char *esc, uint32_t elen,
	       Vector *out, uint32_t row)
{
	const char *p = strview_data(pat);
	uint32_t n = pat->len, i, o = 0;
	bool in_br = false;
	char *d;

	if (elen > 1) {
		floe_errorf(ctx->err, ERRCODE_INVALID_ESCAPE_SEQUENCE, "invalid escape string");
		return floe_error_hint(ctx->err, "Escape string must be empty or one character.");
	}
	d = arena_alloc(out->arena, (size_t)n * 3 + 16);
	memcpy(d, "^(?:", 4);
	o = 4;
	for (i = 0; i < n; i++) {
		char c = p[i];
		if (elen == 1 && c == esc[0]) {
			if (i + 1 >= n)
				return floe_errorf(ctx->err, ERRCODE_INVALID_ESCAPE_SEQUENCE,
						   "invalid escape string");
			d[o++] = '\\';
			d[o++] = p[++i];
			continue;
		}
		if (in_br) {
			if (c == ']')
				in_br = false;
			d[o++] = c;
			continue;
		}
		switch (c) {
		case '[': in_br = true; d[o++] = c; break;
		case '%': d[o++] = '.'; d[o++] = '*'; break;
		case '_': d[o++] = '.'; break;
		case '(': d[o++] = '('; d[o++] = '?'; d[o++] = ':'; break;
		case '.': case '^': case '$': case '\\':
			d[o++] = '\\';
			d[o++] = c;
			break;
		default: d[o++] = c; break;
		}
	}
	memcpy(d + o, ")$", 2);
	o += 2;
	out_string_owned(out, row, d, o);
	return FLOE_OK;
}

static int
similar_to_escape(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView v[2];
	uint32_t i;
	int j;

	for (j = 0; j < nargs; j++)
		vector_view(&args[j], &v[j]);
	for (i = 0; i < count; i++) {
		const char *esc = "\\";
		uint32_t elen = 1;
		if (any_null(v, nargs, i)) {
			out_null(out, i);
			continue;
		}
		if (nargs == 2) {
			esc = strview_data(ARG_STR(v[1], i));
			elen = ARG_STR(v[1], i)->len;
		}
		TRY(similar_common(ctx, ARG_STR(v[0], i), esc, elen, out, i));
	}
	return FLOE_OK;
}

/* regexp_count(s, pattern[, start[, flags]]): non-overlapping matches */
static int
count_row(FuncCtx *ctx, const RxRow *r, Vector *out, void *st)
{
	size_t off = func_utf8_offset(r->subj, (uint32_t)r->slen, (uint32_t)(r->start - 1));
	int eflags = off > 0 ? REG_NOTBOL : 0;
	int32_t n = 0;
	regmatch_t m[1];

	while (off <= r->slen && rx_regexec(&r->rx->re, r->subj + off, 1, m, eflags) == 0) {
		n++;
		off = m[0].rm_eo > m[0].rm_so ? off + (size_t)m[0].rm_eo
			: next_char(r->subj, off + (size_t)m[0].rm_so, r->slen);
		eflags = REG_NOTBOL;
	}
	((int32_t *)out->data)[r->i] = n;
	out_valid(out, r->i);
	return FLOE_OK;
}

static int
regexp_count(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	RxArgs ra = { 0, 2, 3, "regexp_count()", NULL };

	return rx_rows(ctx, args, nargs, count, out, &ra, count_row, NULL);
}

/*
 * regexp_instr(s, pattern [, start [, N [, endoption [, flags [, subexpr]]]]])
 * and regexp_substr(s, pattern [, start [, N [, flags [, subexpr]]]]), as
 * PostgreSQL 15's: the N-th match at or after start (matches found one
 * after another, one character on after an empty one), or its subexpr-th
 * group; instr gives its 1-based character position (endoption 1: the one
 * after it), 0 when there is none; substr its text, NULL when none.
 */
typedef struct NthState {
	VectorView v[7];
	int n_arg, end_arg, sub_arg;   /* argument indexes, -1: not given */
	bool substr;
} NthState;

static int
nth_param(FuncCtx *ctx, const NthState *ns, int arg, uint32_t i, int32_t dflt, int32_t min,
	  int32_t max, const char *name, int32_t *out)
{
	*out = arg >= 0 ? ARG_I32(ns->v[arg], i) : dflt;
	if (*out < min || *out > max)
		return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid value for parameter \"%s\": %d", name, *out);
	return FLOE_OK;
}

/* characters in s[0..byte) */
static int32_t
char_pos(const char *s, size_t byte)
{
	int32_t n = 0;
	size_t j;

	for (j = 0; j < byte; j++)
		if (((unsigned char)s[j] & 0xc0) != 0x80)
			n++;
	return n;
}

static int
nth_row(FuncCtx *ctx, const RxRow *r, Vector *out, void *st)
{
	const NthState *ns = st;
	int32_t n, endopt, sub, k = 0;
	size_t off;
	int eflags;
	regmatch_t m[10];
	bool found = false;

	TRY(nth_param(ctx, ns, ns->n_arg, r->i, 1, 1, INT32_MAX, "n", &n));
	TRY(nth_param(ctx, ns, ns->end_arg, r->i, 0, 0, 1, "endoption", &endopt));
	TRY(nth_param(ctx, ns, ns->sub_arg, r->i, 0, 0, INT32_MAX, "subexpr", &sub));
	off = func_utf8_offset(r->subj, (uint32_t)r->slen, (uint32_t)(r->start - 1));
	eflags = off > 0 ? REG_NOTBOL : 0;
	while (off <= r->slen && rx_regexec(&r->rx->re, r->subj + off, 10, m, eflags) == 0) {
		int g;
		for (g = 0; g < 10; g++)
			if (m[g].rm_so >= 0) {
				m[g].rm_so += (regoff_t)off;
				m[g].rm_eo += (regoff_t)off;
			}
		if (++k == n) {
			found = true;
			break;
		}
		off = m[0].rm_eo > m[0].rm_so ? (size_t)m[0].rm_eo
			: next_char(r->subj, (size_t)m[0].rm_so, r->slen);
		eflags = REG_NOTBOL;
	}
	if (found && (sub > 9 || (size_t)sub > r->rx->re.re_nsub || m[sub].rm_so < 0))
		found = false;
	if (ns->substr) {
		if (!found)
			out_null(out, r->i);
		else
			vector_set_string(out, r->i, strview_data(r->s) + m[sub].rm_so,
					  (uint32_t)(m[sub].rm_eo - m[sub].rm_so));
		return FLOE_OK;
	}
	((int32_t *)out->data)[r->i] =
		found ? char_pos(r->subj, (size_t)(endopt ? m[sub].rm_eo : m[sub].rm_so)) + 1 : 0;
	out_valid(out, r->i);
	return FLOE_OK;
}

/* regexp_instr / regexp_substr: the flags argument's index, then those of
 * N, endoption and subexpr (-1: the function has none), by nargs. */
static int
nth_kernel(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out,
	   const char *fname, int flags_arg, int end_arg, int sub_arg, bool substr)
{
	RxArgs ra = { 0, 2, flags_arg, fname, NULL };
	NthState ns;
	int j;

	memset(&ns, 0, sizeof ns);
	for (j = 0; j < nargs && j < 7; j++)
		vector_view(&args[j], &ns.v[j]);
	ns.n_arg = nargs > 3 ? 3 : -1;
	ns.end_arg = end_arg >= 0 && nargs > end_arg ? end_arg : -1;
	ns.sub_arg = nargs > sub_arg ? sub_arg : -1;
	ns.substr = substr;
	return rx_rows(ctx, args, nargs, count, out, &ra, nth_row, &ns);
}

static int
regexp_instr(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return nth_kernel(ctx, args, nargs, count, out, "regexp_instr()", 5, 4, 6, false);
}

static int
regexp_substr(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return nth_kernel(ctx, args, nargs, count, out, "regexp_substr()", 4, -1, 5, true);
}

#define TX TYPE_TEXT
#define BO TYPE_BOOL
#define I4 TYPE_INT32
const ScalarFunc func_regex_table[] = {
	{ "regexp_count", regexp_count, 2, 0, { TX, TX }, TYPE_INT32, FRET_FIXED, true, false },
	{ "regexp_count", regexp_count, 3, 0, { TX, TX, TYPE_INT32 }, TYPE_INT32, FRET_FIXED, true, false },
	{ "regexp_count", regexp_count, 4, 0, { TX, TX, TYPE_INT32, TX }, TYPE_INT32, FRET_FIXED, true, false },
	{ "similar_to_escape", similar_to_escape, 1, 0, { TX }, TX, FRET_FIXED, true, false },
	{ "similar_to_escape", similar_to_escape, 2, 0, { TX, TX }, TX, FRET_FIXED, true, false },
	{ "~", rx_op_match, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "!~", rx_op_nmatch, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "~*", rx_op_imatch, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "!~*", rx_op_inmatch, 2, 0, { TX, TX }, BO, FRET_FIXED, true, true },
	{ "regexp_like", regexp_like, 2, 0, { TX, TX }, BO, FRET_FIXED, true, false },
	{ "regexp_like", regexp_like, 3, 0, { TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "regexp_replace", regexp_replace, 3, 0, { TX, TX, TX }, TX, FRET_FIXED, true, false },
	{ "regexp_replace", regexp_replace, 4, 0, { TX, TX, TX, TX }, TX, FRET_FIXED, true, false },
	{ "regexp_replace", regexp_replace, 4, 0, { TX, TX, TX, TYPE_INT32 }, TX, FRET_FIXED, true, false },
	{ "regexp_replace", regexp_replace, 5, 0, { TX, TX, TX, I4, I4 }, TX, FRET_FIXED, true, false },
	{ "regexp_replace", regexp_replace, 6, 0, { TX, TX, TX, I4, I4, TX }, TX, FRET_FIXED, true, false },
	{ "regexp_instr", regexp_instr, 2, 0, { TX, TX }, I4, FRET_FIXED, true, false },
	{ "regexp_instr", regexp_instr, 3, 0, { TX, TX, I4 }, I4, FRET_FIXED, true, false },
	{ "regexp_instr", regexp_instr, 4, 0, { TX, TX, I4, I4 }, I4, FRET_FIXED, true, false },
	{ "regexp_instr", regexp_instr, 5, 0, { TX, TX, I4, I4, I4 }, I4, FRET_FIXED, true, false },
	{ "regexp_instr", regexp_instr, 6, 0, { TX, TX, I4, I4, I4, TX }, I4, FRET_FIXED, true, false },
	{ "regexp_instr", regexp_instr, 7, 0, { TX, TX, I4, I4, I4, TX, I4 }, I4, FRET_FIXED, true, false },
	{ "regexp_substr", regexp_substr, 2, 0, { TX, TX }, TX, FRET_FIXED, true, false },
	{ "regexp_substr", regexp_substr, 3, 0, { TX, TX, I4 }, TX, FRET_FIXED, true, false },
	{ "regexp_substr", regexp_substr, 4, 0, { TX, TX, I4, I4 }, TX, FRET_FIXED, true, false },
	{ "regexp_substr", regexp_substr, 5, 0, { TX, TX, I4, I4, TX }, TX, FRET_FIXED, true, false },
	{ "regexp_substr", regexp_substr, 6, 0, { TX, TX, I4, I4, TX, I4 }, TX, FRET_FIXED, true, false },
	{ "substring", regex_substring, 2, 0, { TX, TX }, TX, FRET_FIXED, true, false },
};
const int func_regex_count = sizeof func_regex_table / sizeof func_regex_table[0];
