/*
 * json.c — the json/jsonb parser, jsonb's normal form and output, and the
 * jsonb ordering (json.h).
 *
 * The grammar, the tokens and the error each malformed input gets follow
 * PostgreSQL 15's recursive-descent parser (src/common/jsonapi.c): a token
 * is lexed when the one before it is consumed, so a bad token is reported
 * ('Token "x" is invalid.') before the grammar looks at it; an unexpected
 * token names the context (object start, label, next, array next, value);
 * running out of input anywhere is 'The input string ended unexpectedly.'.
 * Strings are checked for control characters and escapes always; their
 * \u escapes are only decoded (surrogate pairs combined, \u0000 refused)
 * under JSONP_DECODE, as PostgreSQL's json type accepts "\ud800" verbatim.
 *
 * Invariants: nesting is bounded by stack_check (54001); the tree and every
 * decoded string live in the caller's arena; jsonb objects' pairs are in
 * (key length, key bytes) order with unique keys after pgjson_parse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/hex.h"
#include "common/stack.h"
#include "types/json.h"

/* ---- buffer ------------------------------------------------------------- */

void
jbuf_init(JsonBuf *b, Arena *a)
{
	b->a = a;
	b->p = NULL;
	b->len = b->cap = 0;
}

static void
jbuf_grow(JsonBuf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	size_t nc = b->cap ? b->cap * 2 : 64;
	while (nc < b->len + n + 1)
		nc *= 2;
	b->p = arena_realloc(b->a, b->p, b->cap, nc);
	b->cap = nc;
}

void
jbuf_add(JsonBuf *b, const char *s, size_t n)
{
	jbuf_grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void
jbuf_addc(JsonBuf *b, char c)
{
	jbuf_grow(b, 1);
	b->p[b->len++] = c;
}

void
jbuf_adds(JsonBuf *b, const char *s)
{
	jbuf_add(b, s, strlen(s));
}

const char *
jbuf_finish(JsonBuf *b, size_t *len)
{
	jbuf_grow(b, 0);
	b->p[b->len] = '\0';
	*len = b->len;
	return b->p;
}

/* ---- lexer -------------------------------------------------------------- */

typedef enum Tok {
	T_END, T_OBJ_START, T_OBJ_END, T_ARR_START, T_ARR_END, T_COMMA, T_COLON,
	T_STRING, T_NUMBER, T_TRUE, T_FALSE, T_NULL
} Tok;

/* jsonapi.c's JsonParseErrorType, the ones its recursive parser reports */
typedef enum JErr {
	E_INVALID_TOKEN, E_ESCAPING_REQUIRED, E_ESCAPING_INVALID, E_UNICODE_FORMAT,
	E_HIGH_SURROGATE, E_LOW_SURROGATE, E_CODE_POINT_ZERO, E_EXPECTED_MORE,
	E_EXPECTED_END, E_EXPECTED_JSON, E_EXPECTED_STRING, E_EXPECTED_ARRAY_NEXT,
	E_EXPECTED_OBJECT_FIRST, E_EXPECTED_COLON, E_EXPECTED_OBJECT_NEXT
} JErr;

typedef enum Ctx { C_VALUE, C_STRING, C_ARRAY_NEXT, C_OBJECT_START, C_OBJECT_LABEL,
		   C_OBJECT_NEXT, C_END } Ctx;

typedef struct Lex {
	const char *in, *end, *p;
	const char *tok_start, *tok_end;
	Tok tok;
	int flags;
	Arena *a;
	floe_error *err;
	JsonBuf str;               /* the current string token, decoded */
} Lex;

#define ALNUM(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || \
		  ((c) >= '0' && (c) <= '9') || (c) == '_' || ((unsigned char)(c) & 0x80))
#define DIGIT(c) ((c) >= '0' && (c) <= '9')

static int
utf8_len(const char *s, const char *end)
{
	unsigned char c = (unsigned char)*s;
	int n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	return s + n <= end ? n : (int)(end - s);
}

static int
fail(Lex *L, JErr e)
{
	const char *tok = L->tok_start;
	int tl = (int)(L->tok_end - L->tok_start);
	floe_error *err = L->err;

	if (e == E_CODE_POINT_ZERO) {
		floe_errorf(err, ERRCODE_UNTRANSLATABLE_CHARACTER,
			    "unsupported Unicode escape sequence");
		return floe_error_detail(err, "\\u0000 cannot be converted to text.");
	}
	floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json");
	switch (e) {
	case E_INVALID_TOKEN:
		return floe_error_detail(err, "Token \"%.*s\" is invalid.", tl, tok);
	case E_ESCAPING_REQUIRED:
		return floe_error_detail(err, "Character with value 0x%02x must be escaped.",
					 (unsigned char)*L->tok_end);
	case E_ESCAPING_INVALID:
		return floe_error_detail(err, "Escape sequence \"\\%.*s\" is invalid.", tl, tok);
	case E_UNICODE_FORMAT:
		return floe_error_detail(err, "\"\\u\" must be followed by four hexadecimal digits.");
	case E_HIGH_SURROGATE:
		return floe_error_detail(err, "Unicode high surrogate must not follow a high surrogate.");
	case E_LOW_SURROGATE:
		return floe_error_detail(err, "Unicode low surrogate must follow a high surrogate.");
	case E_EXPECTED_MORE:
		return floe_error_detail(err, "The input string ended unexpectedly.");
	case E_EXPECTED_END:
		return floe_error_detail(err, "Expected end of input, but found \"%.*s\".", tl, tok);
	case E_EXPECTED_JSON:
		return floe_error_detail(err, "Expected JSON value, but found \"%.*s\".", tl, tok);
	case E_EXPECTED_STRING:
		return floe_error_detail(err, "Expected string, but found \"%.*s\".", tl, tok);
	case E_EXPECTED_ARRAY_NEXT:
		return floe_error_detail(err, "Expected \",\" or \"]\", but found \"%.*s\".", tl, tok);
	case E_EXPECTED_OBJECT_FIRST:
		return floe_error_detail(err, "Expected string or \"}\", but found \"%.*s\".", tl, tok);
	case E_EXPECTED_COLON:
		return floe_error_detail(err, "Expected \":\", but found \"%.*s\".", tl, tok);
	case E_EXPECTED_OBJECT_NEXT:
		return floe_error_detail(err, "Expected \",\" or \"}\", but found \"%.*s\".", tl, tok);
	default:
		return FLOE_ERR;
	}
}

static void
put_utf8(JsonBuf *b, uint32_t c)
{
	char u[4];
	if (c < 0x80) {
		jbuf_addc(b, (char)c);
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		jbuf_add(b, u, 2);
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		jbuf_add(b, u, 3);
	} else {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		jbuf_add(b, u, 4);
	}
}

static int
lex_string(Lex *L)
{
	const char *q = L->p;
	bool dec = (L->flags & JSONP_DECODE) != 0;
	long hi = -1;

	L->str.len = 0;
	for (;;) {
		q++;
		if (q >= L->end) {
			L->tok_end = q;
			return fail(L, E_INVALID_TOKEN);
		}
		if (*q == '"')
			break;
		if ((unsigned char)*q < 32) {
			L->tok_end = q;
			return fail(L, E_ESCAPING_REQUIRED);
		}
		if (*q == '\\') {
			q++;
			if (q >= L->end) {
				L->tok_end = q;
				return fail(L, E_INVALID_TOKEN);
			}
			if (*q == 'u') {
				uint32_t ch = 0;
				for (int i = 0; i < 4; i++) {
					q++;
					if (q >= L->end) {
						L->tok_end = q;
						return fail(L, E_INVALID_TOKEN);
					}
					int h = hex_value(*q);
					if (h < 0) {
						L->tok_end = q + utf8_len(q, L->end);
						return fail(L, E_UNICODE_FORMAT);
					}
					ch = ch * 16 + (uint32_t)h;
				}
				if (!dec)
					continue;
				if (ch >= 0xd800 && ch <= 0xdbff) {
					if (hi != -1)
						return fail(L, E_HIGH_SURROGATE);
					hi = (long)ch;
					continue;
				}
				if (ch >= 0xdc00 && ch <= 0xdfff) {
					if (hi == -1)
						return fail(L, E_LOW_SURROGATE);
					ch = (uint32_t)(((hi & 0x3ff) << 10) + 0x10000 + (ch & 0x3ff));
					hi = -1;
				}
				if (hi != -1)
					return fail(L, E_LOW_SURROGATE);
				if (ch == 0)
					return fail(L, E_CODE_POINT_ZERO);
				put_utf8(&L->str, ch);
				continue;
			}
			if (dec && hi != -1)
				return fail(L, E_LOW_SURROGATE);
			char c = 0;
			switch (*q) {
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			case '/': c = '/'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			default:
				L->tok_start = q;
				L->tok_end = q + utf8_len(q, L->end);
				return fail(L, E_ESCAPING_INVALID);
			}
			if (dec)
				jbuf_addc(&L->str, c);
			continue;
		}
		if (dec) {
			if (hi != -1)
				return fail(L, E_LOW_SURROGATE);
			jbuf_addc(&L->str, *q);
		}
	}
	if (dec && hi != -1) {
		L->tok_end = q;
		return fail(L, E_LOW_SURROGATE);
	}
	L->tok_end = q + 1;
	L->p = q + 1;
	L->tok = T_STRING;
	return FLOE_OK;
}

/* s: after an optional '-' */
static int
lex_number(Lex *L, const char *s)
{
	bool bad = false;
	const char *e = L->end;

	if (s < e && *s == '0')
		s++;
	else if (s < e && *s >= '1' && *s <= '9')
		while (s < e && DIGIT(*s))
			s++;
	else
		bad = true;
	if (s < e && *s == '.') {
		s++;
		if (s == e || !DIGIT(*s))
			bad = true;
		else
			while (s < e && DIGIT(*s))
				s++;
	}
	if (s < e && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < e && (*s == '+' || *s == '-'))
			s++;
		if (s == e || !DIGIT(*s))
			bad = true;
		else
			while (s < e && DIGIT(*s))
				s++;
	}
	while (s < e && ALNUM(*s)) {
		s++;
		bad = true;
	}
	L->tok_end = s;
	L->p = s;
	if (bad)
		return fail(L, E_INVALID_TOKEN);
	L->tok = T_NUMBER;
	return FLOE_OK;
}

static int
lex(Lex *L)
{
	const char *p = L->p;
	while (p < L->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	L->p = p;
	L->tok_start = p;
	if (p >= L->end) {
		L->tok_end = p;
		L->tok = T_END;
		return FLOE_OK;
	}
	L->tok_end = p + 1;
	switch (*p) {
	case '{': L->tok = T_OBJ_START; L->p++; return FLOE_OK;
	case '}': L->tok = T_OBJ_END; L->p++; return FLOE_OK;
	case '[': L->tok = T_ARR_START; L->p++; return FLOE_OK;
	case ']': L->tok = T_ARR_END; L->p++; return FLOE_OK;
	case ',': L->tok = T_COMMA; L->p++; return FLOE_OK;
	case ':': L->tok = T_COLON; L->p++; return FLOE_OK;
	case '"': return lex_string(L);
	case '-': return lex_number(L, p + 1);
	default:
		if (DIGIT(*p))
			return lex_number(L, p);
		{
			const char *q = p;
			while (q < L->end && ALNUM(*q))
				q++;
			if (q == p)
				return fail(L, E_INVALID_TOKEN);
			L->tok_end = q;
			L->p = q;
			size_t n = (size_t)(q - p);
			if (n == 4 && !memcmp(p, "true", 4))
				L->tok = T_TRUE;
			else if (n == 5 && !memcmp(p, "false", 5))
				L->tok = T_FALSE;
			else if (n == 4 && !memcmp(p, "null", 4))
				L->tok = T_NULL;
			else
				return fail(L, E_INVALID_TOKEN);
			return FLOE_OK;
		}
	}
}

static int
report(Lex *L, Ctx c)
{
	static const JErr by_ctx[] = {
		[C_VALUE] = E_EXPECTED_JSON, [C_STRING] = E_EXPECTED_STRING,
		[C_ARRAY_NEXT] = E_EXPECTED_ARRAY_NEXT, [C_OBJECT_START] = E_EXPECTED_OBJECT_FIRST,
		[C_OBJECT_LABEL] = E_EXPECTED_COLON, [C_OBJECT_NEXT] = E_EXPECTED_OBJECT_NEXT,
		[C_END] = E_EXPECTED_END,
	};
	if (L->tok == T_END)
		return fail(L, E_EXPECTED_MORE);
	return fail(L, by_ctx[c]);
}

/* ---- parser ------------------------------------------------------------- */

typedef struct Kids {
	JsonNode *v;
	uint32_t n, cap;
} Kids;

static JsonNode *
kid_push(Lex *L, Kids *k)
{
	if (k->n == k->cap) {
		uint32_t nc = k->cap ? k->cap * 2 : 8;
		k->v = arena_realloc(L->a, k->v, sizeof *k->v * k->cap, sizeof *k->v * nc);
		k->cap = nc;
	}
	JsonNode *r = &k->v[k->n++];
	memset(r, 0, sizeof *r);
	return r;
}

static int parse_value(Lex *L, JsonNode *out);

static int
key_cmp(const JsonNode *a, const JsonNode *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->s, b->s, a->len);
}

typedef struct Pair {
	JsonNode k, v;
	uint32_t seq;
} Pair;

static int
pair_cmp(const void *x, const void *y)
{
	const Pair *a = x, *b = y;
	int c = key_cmp(&a->k, &b->k);
	if (c)
		return c;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* jsonb: pairs in key order, the last of equal keys kept */
static void
sort_pairs(Lex *L, JsonNode *obj)
{
	uint32_t n = obj->n, i, m = 0;
	if (n < 2)
		return;
	Pair *p = arena_alloc(L->a, sizeof *p * n);
	for (i = 0; i < n; i++) {
		p[i].k = obj->kids[2 * i];
		p[i].v = obj->kids[2 * i + 1];
		p[i].seq = i;
	}
	qsort(p, n, sizeof *p, pair_cmp);
	for (i = 0; i < n; i++) {
		if (i + 1 < n && key_cmp(&p[i].k, &p[i + 1].k) == 0)
			continue;   /* a later duplicate follows */
		obj->kids[2 * m] = p[i].k;
		obj->kids[2 * m + 1] = p[i].v;
		m++;
	}
	obj->n = m;
}

static void
string_node(Lex *L, JsonNode *out)
{
	out->kind = JV_STRING;
	out->src = L->tok_start;
	out->srclen = (size_t)(L->tok_end - L->tok_start);
	if (L->flags & JSONP_DECODE) {
		out->s = arena_memdup(L->a, L->str.p ? L->str.p : "", L->str.len + 1);
		((char *)out->s)[L->str.len] = '\0';
		out->len = L->str.len;
	} else {
		out->s = out->src + 1;
		out->len = out->srclen - 2;
	}
}

static int
parse_object(Lex *L, JsonNode *out)
{
	Kids k = { 0 };
	bool tree = (L->flags & JSONP_TREE) != 0;
	const char *start = L->tok_start;

	TRY(stack_check(L->err));
	TRY(lex(L));
	if (L->tok == T_STRING) {
		for (;;) {
			if (L->tok != T_STRING)
				return report(L, C_STRING);
			JsonNode *key = tree ? kid_push(L, &k) : NULL;
			if (key)
				string_node(L, key);
			TRY(lex(L));
			if (L->tok != T_COLON)
				return report(L, C_OBJECT_LABEL);
			TRY(lex(L));
			JsonNode tmp, *val = tree ? kid_push(L, &k) : &tmp;
			memset(&tmp, 0, sizeof tmp);
			TRY(parse_value(L, val));
			if (L->tok != T_COMMA)
				break;
			TRY(lex(L));
		}
	} else if (L->tok != T_OBJ_END) {
		return report(L, C_OBJECT_START);
	}
	if (L->tok != T_OBJ_END)
		return report(L, C_OBJECT_NEXT);
	if (out) {
		out->kind = JV_OBJECT;
		out->src = start;
		out->srclen = (size_t)(L->tok_end - start);
		out->kids = k.v;
		out->n = k.n / 2;
		if (tree && (L->flags & JSONP_JSONB))
			sort_pairs(L, out);
	}
	return lex(L);
}

static int
parse_array(Lex *L, JsonNode *out)
{
	Kids k = { 0 };
	bool tree = (L->flags & JSONP_TREE) != 0;
	const char *start = L->tok_start;

	TRY(stack_check(L->err));
	TRY(lex(L));
	if (L->tok != T_ARR_END) {
		for (;;) {
			JsonNode tmp, *el = tree ? kid_push(L, &k) : &tmp;
			memset(&tmp, 0, sizeof tmp);
			TRY(parse_value(L, el));
			if (L->tok != T_COMMA)
				break;
			TRY(lex(L));
		}
	}
	if (L->tok != T_ARR_END)
		return report(L, C_ARRAY_NEXT);
	if (out) {
		out->kind = JV_ARRAY;
		out->src = start;
		out->srclen = (size_t)(L->tok_end - start);
		out->kids = k.v;
		out->n = k.n;
	}
	return lex(L);
}

static int
parse_value(Lex *L, JsonNode *out)
{
	switch (L->tok) {
	case T_OBJ_START:
		return parse_object(L, out);
	case T_ARR_START:
		return parse_array(L, out);
	case T_STRING:
		string_node(L, out);
		return lex(L);
	case T_NUMBER:
		out->kind = JV_NUMBER;
		out->src = L->tok_start;
		out->srclen = (size_t)(L->tok_end - L->tok_start);
		out->s = out->src;
		out->len = out->srclen;
		if (L->flags & JSONP_JSONB)
			TRY(pgjson_numeric_text(out->src, out->srclen, L->a, &out->s, &out->len, L->err));
		return lex(L);
	case T_TRUE: case T_FALSE: case T_NULL:
		out->kind = L->tok == T_TRUE ? JV_TRUE : L->tok == T_FALSE ? JV_FALSE : JV_NULL;
		out->src = L->tok_start;
		out->srclen = (size_t)(L->tok_end - L->tok_start);
		return lex(L);
	default:
		return report(L, C_VALUE);
	}
}

int
pgjson_parse(const char *s, size_t n, int flags, Arena *a, JsonNode **root, floe_error *err)
{
	Lex L;
	JsonNode tmp, *top;

	memset(&L, 0, sizeof L);
	L.in = L.p = s;
	L.end = s + n;
	L.flags = flags;
	L.a = a;
	L.err = err;
	jbuf_init(&L.str, a);
	if (flags & JSONP_JSONB)
		L.flags |= JSONP_DECODE | JSONP_TREE;
	top = (L.flags & JSONP_TREE) ? ARENA_NEW(a, JsonNode) : &tmp;
	memset(&tmp, 0, sizeof tmp);
	TRY(lex(&L));
	TRY(parse_value(&L, top));
	if (L.tok != T_END)
		return report(&L, C_END);
	top->raw = top->kind != JV_ARRAY && top->kind != JV_OBJECT;
	if (root)
		*root = (L.flags & JSONP_TREE) ? top : NULL;
	return FLOE_OK;
}

int
pgjson_validate(const char *s, size_t n, floe_error *err)
{
	Arena *a = arena_new(0);
	int rc = pgjson_parse(s, n, 0, a, NULL, err);
	arena_free(a);
	return rc;
}

int
pgjsonb_normalize(const char *s, size_t n, Arena *a, const char **out, size_t *len,
		floe_error *err)
{
	JsonNode *root;
	Arena *tmp = arena_new(0);
	int rc = pgjson_parse(s, n, JSONP_JSONB, tmp, &root, err);
	if (rc == FLOE_OK) {
		size_t m;
		const char *t = pgjsonb_text(root, tmp, &m);
		char *r = arena_alloc(a, m + 1);
		memcpy(r, t, m + 1);
		*out = r;
		*len = m;
	}
	arena_free(tmp);
	return rc;
}

/* ---- numbers ------------------------------------------------------------ */

/* A JSON number's sign, significant digits and decimal point position:
 * value = 0.D * 10^point (D without leading zeros); its scale (digits
 * after the point, less the exponent). */
typedef struct Num {
	bool neg;
	const char *d;      /* digits, possibly with one '.' inside */
	size_t dn;
	long exp;
	long scale;
} Num;

static int
num_split(const char *s, size_t n, Num *x)
{
	size_t i = 0;
	memset(x, 0, sizeof *x);
	if (i < n && s[i] == '-') {
		x->neg = true;
		i++;
	}
	x->d = s + i;
	while (i < n && (DIGIT(s[i]) || s[i] == '.'))
		i++;
	x->dn = (size_t)(s + i - x->d);
	const char *dot = memchr(x->d, '.', x->dn);
	x->scale = dot ? (long)(x->d + x->dn - dot - 1) : 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		bool en = false;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			en = s[i++] == '-';
		long e = 0;
		while (i < n && DIGIT(s[i])) {
			if (e < 100000000)
				e = e * 10 + (s[i] - '0');
			i++;
		}
		x->exp = en ? -e : e;
	}
	return FLOE_OK;
}

/* The digits of x without its point (in buf, which holds x->dn) and the
 * number of them before the point, exponent applied. */
static size_t
num_digits(const Num *x, char *buf, long *ip)
{
	size_t nd = 0;
	bool dot = false;
	*ip = 0;
	for (size_t i = 0; i < x->dn; i++) {
		if (x->d[i] == '.') {
			*ip = (long)nd;
			dot = true;
		} else {
			buf[nd++] = x->d[i];
		}
	}
	if (!dot)
		*ip = (long)nd;
	*ip += x->exp;
	return nd;
}

int
pgjson_numeric_text(const char *s, size_t n, Arena *a, const char **out, size_t *len,
		  floe_error *err)
{
	Num x;
	JsonBuf b;
	long ip, k;
	num_split(s, n, &x);
	char *d = arena_alloc(a, x.dn + 1);
	size_t nd = num_digits(&x, d, &ip);
	long scale = x.scale - x.exp;
	if (scale < 0)
		scale = 0;
	long fz = 0;           /* leading zeros */
	while (fz < (long)nd && d[fz] == '0')
		fz++;
	bool zero = fz == (long)nd;
	/* numeric's limits: 131072 integer digits (weight 32767 of base
	 * 10000), display scale 16383 */
	if (scale > 16383 || (!zero && ip - fz > 131072))
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "value overflows numeric format");
	jbuf_init(&b, a);
	if (x.neg && !zero)
		jbuf_addc(&b, '-');
	if (zero || ip <= fz) {
		jbuf_addc(&b, '0');
	} else {
		for (k = fz; k < ip; k++)
			jbuf_addc(&b, k < (long)nd ? d[k] : '0');
	}
	if (scale > 0) {
		jbuf_addc(&b, '.');
		for (k = ip; k < ip + scale; k++)
			jbuf_addc(&b, k >= 0 && k < (long)nd ? d[k] : '0');
	}
	*out = jbuf_finish(&b, len);
	return FLOE_OK;
}

int
pgjson_number_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	Num x, y;
	long pa, pb;
	num_split(a, an, &x);
	num_split(b, bn, &y);
	char *da = malloc(x.dn + y.dn + 2), *db = da + x.dn + 1;
	if (!da)
		abort();
	size_t na = num_digits(&x, da, &pa), nb = num_digits(&y, db, &pb);
	const char *sa = da, *sb = db;
	while (na && *sa == '0') {   /* leading zeros */
		sa++;
		na--;
		pa--;
	}
	while (nb && *sb == '0') {
		sb++;
		nb--;
		pb--;
	}
	while (na && sa[na - 1] == '0')
		na--;
	while (nb && sb[nb - 1] == '0')
		nb--;
	bool ga = x.neg && na, gb = y.neg && nb;
	int r;
	if (ga != gb) {
		r = ga ? -1 : 1;
	} else {
		int sign = ga ? -1 : 1;
		if (na == 0 || nb == 0) {
			r = na == nb ? 0 : (na == 0 ? -sign : sign);
		} else if (pa != pb) {
			r = pa < pb ? -sign : sign;
		} else {
			size_t m = na < nb ? na : nb;
			int c = memcmp(sa, sb, m);
			r = c ? (c < 0 ? -sign : sign) : na == nb ? 0 : (na < nb ? -sign : sign);
		}
	}
	free(da);
	return r;
}

/* ---- output ------------------------------------------------------------- */

void
pgjson_escape(JsonBuf *b, const char *s, size_t n)
{
	jbuf_addc(b, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '\b': jbuf_add(b, "\\b", 2); break;
		case '\f': jbuf_add(b, "\\f", 2); break;
		case '\n': jbuf_add(b, "\\n", 2); break;
		case '\r': jbuf_add(b, "\\r", 2); break;
		case '\t': jbuf_add(b, "\\t", 2); break;
		case '"': jbuf_add(b, "\\\"", 2); break;
		case '\\': jbuf_add(b, "\\\\", 2); break;
		default:
			if (c < ' ') {
				char u[8];
				snprintf(u, sizeof u, "\\u%04x", c);
				jbuf_add(b, u, 6);
			} else {
				jbuf_addc(b, (char)c);
			}
		}
	}
	jbuf_addc(b, '"');
}

void
pgjsonb_write(JsonBuf *b, const JsonNode *v)
{
	uint32_t i;
	switch (v->kind) {
	case JV_NULL: jbuf_add(b, "null", 4); break;
	case JV_TRUE: jbuf_add(b, "true", 4); break;
	case JV_FALSE: jbuf_add(b, "false", 5); break;
	case JV_NUMBER: jbuf_add(b, v->s, v->len); break;
	case JV_STRING: pgjson_escape(b, v->s, v->len); break;
	case JV_ARRAY:
		jbuf_addc(b, '[');
		for (i = 0; i < v->n; i++) {
			if (i)
				jbuf_add(b, ", ", 2);
			pgjsonb_write(b, &v->kids[i]);
		}
		jbuf_addc(b, ']');
		break;
	case JV_OBJECT:
		jbuf_addc(b, '{');
		for (i = 0; i < v->n; i++) {
			if (i)
				jbuf_add(b, ", ", 2);
			pgjsonb_write(b, &v->kids[2 * i]);
			jbuf_add(b, ": ", 2);
			pgjsonb_write(b, &v->kids[2 * i + 1]);
		}
		jbuf_addc(b, '}');
		break;
	default:
		break;
	}
}

const char *
pgjsonb_text(const JsonNode *node, Arena *a, size_t *len)
{
	JsonBuf b;
	jbuf_init(&b, a);
	pgjsonb_write(&b, node);
	return jbuf_finish(&b, len);
}

const char *
pgjson_node_text(const JsonNode *node, bool jsonb, Arena *a, size_t *len)
{
	if (jsonb)
		return pgjsonb_text(node, a, len);
	*len = node->srclen;
	return node->src;
}

/* ---- lookups and order -------------------------------------------------- */

const JsonNode *
pgjson_object_get(const JsonNode *obj, const char *key, size_t klen, bool sorted)
{
	JsonNode k;
	if (obj->kind != JV_OBJECT)
		return NULL;
	k.s = key;
	k.len = klen;
	if (sorted) {
		uint32_t lo = 0, hi = obj->n;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int c = key_cmp(&obj->kids[2 * mid], &k);
			if (c == 0)
				return &obj->kids[2 * mid + 1];
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		return NULL;
	}
	/* json: the last of duplicate keys, as json_object_field's parse */
	const JsonNode *r = NULL;
	for (uint32_t i = 0; i < obj->n; i++)
		if (key_cmp(&obj->kids[2 * i], &k) == 0)
			r = &obj->kids[2 * i + 1];
	return r;
}

static int
str_cmp(const JsonNode *a, const JsonNode *b)
{
	size_t m = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->s, b->s, m);
	if (c)
		return c < 0 ? -1 : 1;
	return (a->len > b->len) - (a->len < b->len);
}

static int
scalar_cmp(const JsonNode *a, const JsonNode *b)
{
	if (a->kind != b->kind) {
		int ka = a->kind == JV_TRUE ? JV_FALSE : a->kind;
		int kb = b->kind == JV_TRUE ? JV_FALSE : b->kind;
		if (ka != kb)
			return ka < kb ? -1 : 1;
		return a->kind < b->kind ? -1 : 1;   /* false < true */
	}
	switch (a->kind) {
	case JV_STRING: return str_cmp(a, b);
	case JV_NUMBER: return pgjson_number_cmp(a->s, a->len, b->s, b->len);
	default: return 0;
	}
}

static int
kind_rank(const JsonNode *v)
{
	/* compareJsonbContainers: null < string < number < boolean < array < object */
	switch (v->kind) {
	case JV_NULL: return 0;
	case JV_STRING: return 1;
	case JV_NUMBER: return 2;
	case JV_FALSE: case JV_TRUE: return 3;
	case JV_ARRAY: return 4;
	default: return 5;
	}
}

static int
cmp_value(const JsonNode *a, const JsonNode *b)
{
	uint32_t i;
	int ra = kind_rank(a), rb = kind_rank(b);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (a->kind == JV_ARRAY) {
		if (a->n != b->n)
			return a->n < b->n ? -1 : 1;
		for (i = 0; i < a->n; i++) {
			int c = cmp_value(&a->kids[i], &b->kids[i]);
			if (c)
				return c;
		}
		return 0;
	}
	if (a->kind == JV_OBJECT) {
		if (a->n != b->n)
			return a->n < b->n ? -1 : 1;
		for (i = 0; i < a->n; i++) {
			int c = str_cmp(&a->kids[2 * i], &b->kids[2 * i]);
			if (c)
				return c;
			c = cmp_value(&a->kids[2 * i + 1], &b->kids[2 * i + 1]);
			if (c)
				return c;
		}
		return 0;
	}
	return scalar_cmp(a, b);
}

int
pgjsonb_compare(const JsonNode *a, const JsonNode *b)
{
	/* a top-level scalar is a one-element "raw scalar" array: compared
	 * with an array by element count first (so [] is below it), then
	 * below an array of one element; with another scalar as its element */
	bool sa = a->raw, sb = b->raw;
	if (sa && sb)
		return cmp_value(a, b);
	if (sa && b->kind == JV_ARRAY)
		return b->n == 0 ? 1 : -1;
	if (sb && a->kind == JV_ARRAY)
		return a->n == 0 ? -1 : 1;
	if (sa)
		return b->kind == JV_OBJECT ? -1 : cmp_value(a, b);
	if (sb)
		return a->kind == JV_OBJECT ? 1 : cmp_value(a, b);
	return cmp_value(a, b);
}

int
pgjsonb_cmp_text(const char *a, size_t an, const char *b, size_t bn)
{
	JsonNode *x, *y;
	floe_error e;
	int c = 0;
	if (an == bn && !memcmp(a, b, an))
		return 0;
	Arena *ar = arena_new(0);
	memset(&e, 0, sizeof e);
	/* stored jsonb is valid: a parse failure (not expected) orders by bytes */
	if (pgjson_parse(a, an, JSONP_JSONB, ar, &x, &e) == FLOE_OK &&
	    pgjson_parse(b, bn, JSONP_JSONB, ar, &y, &e) == FLOE_OK)
		c = pgjsonb_compare(x, y);
	else
		c = memcmp(a, b, an < bn ? an : bn) ? memcmp(a, b, an < bn ? an : bn)
						  : (an > bn) - (an < bn);
	arena_free(ar);
	return c < 0 ? -1 : c > 0;
}
