/*
 * jsonpath.c — the jsonpath type: scanner, recursive-descent parser and
 * printer with PostgreSQL 15's accepted texts, errors and output (see
 * jsonpath.h for the grammar and the error list).
 *
 * The parser keeps PostgreSQL's folding: unary + of a numeric literal is the
 * literal, unary - of one is the negated literal.  Numbers are kept as
 * numeric_out prints them (".001e1" -> 0.01, "1.e3" -> 1000).  Printing
 * follows jsonpath_out: "strict " when strict, binary operators with
 * parentheses where an operand's priority is not above the operator's (and
 * around the whole top-level expression), keys and variables quoted, a
 * numeric with an accessor after it in parentheses ("(1).a").
 *
 * A number followed directly by an identifier character is "trailing junk"
 * (42601), as PostgreSQL 15's scanner (so "1.type()" is an error, "1.2.a"
 * is (1.2)."a").  The parser checks the stack at each nesting (54001).
 */
#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/stack.h"
#include "types/json.h"
#include "types/jsonpath.h"

/* ---- scanner ------------------------------------------------------------- */

enum {
	T_END = 256, T_STRING, T_IDENT, T_VAR, T_NUM, T_EQ, T_NE, T_LE, T_GE, T_AND, T_OR, T_ANY
};

/* keywords (case-insensitive), as T_IDENT with kw set */
enum {
	K_NONE = 0, K_ABS, K_CEILING, K_DATETIME, K_DOUBLE, K_EXISTS, K_FALSE, K_FLAG, K_FLOOR, K_IS,
	K_KEYVALUE, K_LAST, K_LAX, K_LIKE_REGEX, K_NULL, K_SIZE, K_STARTS, K_STRICT, K_TO, K_TRUE,
	K_TYPE, K_UNKNOWN, K_WITH
};
static const char *const kwnames[] = {
	"", "abs", "ceiling", "datetime", "double", "exists", "false", "flag", "floor", "is",
	"keyvalue", "last", "lax", "like_regex", "null", "size", "starts", "strict", "to", "true",
	"type", "unknown", "with"
};

typedef struct Tok {
	int t;
	int kw;
	bool quoted;
	const char *s;      /* STRING / IDENT / VAR: decoded; NUM: numeric text */
	size_t len;
	const char *raw;    /* the token in the input */
	size_t rawlen;
	bool is_int;        /* NUM: an integer literal */
} Tok;

typedef struct P {
	const char *in, *p, *end;
	Arena *a;
	floe_error *err;
	Tok tok;
	int ntokens;
	int nesting;        /* filters around the current point */
	int subscript;      /* array subscripts around it */
	int depth;          /* nested parentheses and unary operators */
} P;

/* PostgreSQL's bison parser runs out of its stack ("memory exhausted",
 * 42601) a few thousand levels down; floe stops at this depth */
#define MAX_DEPTH 4000

static int
deeper(P *P_)
{
	if (++P_->depth > MAX_DEPTH)
		return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
				   "memory exhausted at or near \"%.*s\" of jsonpath input",
				   (int)P_->tok.rawlen, P_->tok.raw);
	return stack_check(P_->err);
}

static bool
is_special(unsigned char c)
{
	return strchr("?%$.[]{}()|&!=<><@#,*:-+/\\\" \t\n\r\f", c) != NULL && c != 0;
}

static int
syntax_error(P *P_)
{
	if (P_->tok.t == T_END)
		return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR, "syntax error at end of jsonpath input");
	return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
			   "syntax error at or near \"%.*s\" of jsonpath input",
			   (int)P_->tok.rawlen, P_->tok.raw);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void
put_utf8(JsonBuf *b, uint32_t cp)
{
	char u[4];
	int n;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	jbuf_add(b, u, (size_t)n);
}

/* one \u escape after the "\u": NNNN or {N..NNNNNN}; -1: malformed */
static long
read_u(P *P_)
{
	long cp = 0;
	int k, h;
	if (P_->p < P_->end && *P_->p == '{') {
		P_->p++;
		for (k = 0; k < 6 && P_->p < P_->end && (h = hexval((unsigned char)*P_->p)) >= 0; k++) {
			cp = cp * 16 + h;
			P_->p++;
		}
		if (k == 0 || P_->p >= P_->end || *P_->p != '}')
			return -1;
		P_->p++;
		return cp;
	}
	for (k = 0; k < 4; k++) {
		if (P_->p >= P_->end || (h = hexval((unsigned char)*P_->p)) < 0)
			return -1;
		cp = cp * 16 + h;
		P_->p++;
	}
	return cp;
}

/* a backslash escape (P_->p after the backslash) appended to b */
static int
escape(P *P_, JsonBuf *b)
{
	char c;
	if (P_->p >= P_->end)
		return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR, "unexpected end after backslash");
	c = *P_->p++;
	switch (c) {
	case 'b': jbuf_addc(b, '\b'); return FLOE_OK;
	case 'f': jbuf_addc(b, '\f'); return FLOE_OK;
	case 'n': jbuf_addc(b, '\n'); return FLOE_OK;
	case 'r': jbuf_addc(b, '\r'); return FLOE_OK;
	case 't': jbuf_addc(b, '\t'); return FLOE_OK;
	case 'v': jbuf_addc(b, '\v'); return FLOE_OK;
	case 'x': {
		int h1 = P_->p < P_->end ? hexval((unsigned char)P_->p[0]) : -1;
		int h2 = P_->p + 1 < P_->end ? hexval((unsigned char)P_->p[1]) : -1;
		if (h1 < 0 || h2 < 0)
			return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
					   "invalid hexadecimal character sequence at or near \"%.*s\" of jsonpath input",
					   (int)(P_->end - P_->p + 2 > 4 ? 4 : P_->end - P_->p + 2), P_->p - 2);
		P_->p += 2;
		if (h1 * 16 + h2 == 0)
			goto nul;
		put_utf8(b, (uint32_t)(h1 * 16 + h2));
		return FLOE_OK;
	}
	case 'u': {
		long cp = read_u(P_);
		if (cp < 0)
			return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
					   "invalid Unicode escape sequence at or near \"\\u\" of jsonpath input");
		if (cp == 0)
			goto nul;
		if (cp >= 0xd800 && cp <= 0xdbff) {
			long lo = -1;
			if (P_->p + 1 < P_->end && P_->p[0] == '\\' && P_->p[1] == 'u') {
				P_->p += 2;
				lo = read_u(P_);
			}
			if (lo < 0xdc00 || lo > 0xdfff) {
				floe_errorf(P_->err, ERRCODE_INVALID_TEXT_REPRESENTATION,
					    "invalid input syntax for type jsonpath");
				floe_error_detail(P_->err, "Unicode low surrogate must follow a high surrogate.");
				return FLOE_ERR;
			}
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		} else if (cp >= 0xdc00 && cp <= 0xdfff) {
			floe_errorf(P_->err, ERRCODE_INVALID_TEXT_REPRESENTATION,
				    "invalid input syntax for type jsonpath");
			floe_error_detail(P_->err, "Unicode low surrogate must follow a high surrogate.");
			return FLOE_ERR;
		} else if (cp > 0x10ffff) {
			return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
					   "invalid Unicode escape sequence at or near \"\\u\" of jsonpath input");
		}
		put_utf8(b, (uint32_t)cp);
		return FLOE_OK;
	}
	default:
		jbuf_addc(b, c);     /* \" \' \\ \/ and any other: the character */
		return FLOE_OK;
	}
nul:
	floe_errorf(P_->err, ERRCODE_UNTRANSLATABLE_CHARACTER, "unsupported Unicode escape sequence");
	floe_error_detail(P_->err, "\\u0000 cannot be converted to text.");
	return FLOE_ERR;
}

/* an identifier (unquoted: up to a special character; backslash escapes) */
static int
scan_ident(P *P_, const char **s, size_t *len)
{
	JsonBuf b;
	jbuf_init(&b, P_->a);
	while (P_->p < P_->end) {
		unsigned char c = (unsigned char)*P_->p;
		if (c == '\\') {
			P_->p++;
			TRY(escape(P_, &b));
			continue;
		}
		if (is_special(c))
			break;
		jbuf_addc(&b, (char)c);
		P_->p++;
	}
	*s = jbuf_finish(&b, len);
	return FLOE_OK;
}

static int
scan_string(P *P_, const char **s, size_t *len)
{
	JsonBuf b;
	jbuf_init(&b, P_->a);
	P_->p++;    /* the opening quote */
	for (;;) {
		if (P_->p >= P_->end)
			return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
					   "unexpected end of quoted string at end of jsonpath input");
		if (*P_->p == '"') {
			P_->p++;
			break;
		}
		if (*P_->p == '\\') {
			P_->p++;
			TRY(escape(P_, &b));
			continue;
		}
		jbuf_addc(&b, *P_->p++);
	}
	*s = jbuf_finish(&b, len);
	return FLOE_OK;
}

static bool
digit(const char *q, const char *end)
{
	return q < end && *q >= '0' && *q <= '9';
}

/* the length of the number at q, with the junk character after it if any */
static size_t
number_len(const char *st, const char *end)
{
	const char *q = st;
	if (digit(q, end)) {
		if (*q == '0')
			q++;
		else
			while (digit(q, end))
				q++;
		if (q < end && *q == '.') {
			q++;
			while (digit(q, end))
				q++;
		}
	} else {
		q++;
		while (digit(q, end))
			q++;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *r = q + 1;
		if (r < end && (*r == '+' || *r == '-'))
			r++;
		if (digit(r, end)) {
			while (digit(r, end))
				r++;
			q = r;
		}
	}
	if (q < end && !is_special((unsigned char)*q))
		q++;
	return (size_t)(q - st);
}

/* integer (0|[1-9][0-9]*), decimal (integer.digits* | .digits+), real
 * (either with e[+-]digits+), then junk if an identifier character follows */
static int
scan_number(P *P_)
{
	const char *st = P_->p, *q = P_->p, *end = P_->end;
	bool is_int = true;
	if (digit(q, end)) {
		if (*q == '0')
			q++;
		else
			while (digit(q, end))
				q++;
		if (q < end && *q == '.') {
			q++;
			is_int = false;
			while (digit(q, end))
				q++;
		}
	} else {                  /* .digits */
		q++;
		is_int = false;
		while (digit(q, end))
			q++;
	}
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *r = q + 1;
		if (r < end && (*r == '+' || *r == '-'))
			r++;
		if (digit(r, end)) {
			while (digit(r, end))
				r++;
			q = r;
			is_int = false;
		}
	}
	if (q < end && !is_special((unsigned char)*q))
		return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
				   "trailing junk after numeric literal at or near \"%.*s\" of jsonpath input",
				   (int)(q - st + 1), st);
	/* as a JSON number: a leading 0 before '.', no '.' before 'e' or the end */
	{
		JsonBuf b;
		const char *t, *out;
		size_t tl, ol;
		jbuf_init(&b, P_->a);
		if (*st == '.')
			jbuf_addc(&b, '0');
		for (t = st; t < q; t++) {
			if (*t == '.' && (t + 1 == q || !(t[1] >= '0' && t[1] <= '9')))
				continue;
			jbuf_addc(&b, *t);
		}
		t = jbuf_finish(&b, &tl);
		TRY(pgjson_numeric_text(t, tl, P_->a, &out, &ol, P_->err));
		P_->tok.s = out;
		P_->tok.len = ol;
	}
	P_->tok.t = T_NUM;
	P_->tok.is_int = is_int;
	P_->p = q;
	return FLOE_OK;
}

static int
next(P *P_)
{
	Tok *t = &P_->tok;
	const char *end = P_->end;
	for (;;) {
		while (P_->p < end && strchr(" \t\n\r\f", *P_->p) && *P_->p)
			P_->p++;
		if (P_->p + 1 < end && P_->p[0] == '/' && P_->p[1] == '*') {
			const char *c = P_->p + 2;
			while (c + 1 < end && !(c[0] == '*' && c[1] == '/'))
				c++;
			if (c + 1 >= end)
				return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
						   "unexpected end of comment at end of jsonpath input");
			P_->p = c + 2;
			continue;
		}
		break;
	}
	memset(t, 0, sizeof *t);
	t->raw = P_->p;
	if (P_->p >= end) {
		t->t = T_END;
		return FLOE_OK;
	}
	P_->ntokens++;
	unsigned char c = (unsigned char)*P_->p;
	const char *two = P_->p + 1 < end ? P_->p : NULL;
#define TWO(a, b, tk) if (two && two[0] == (a) && two[1] == (b)) { P_->p += 2; t->t = (tk); goto done; }
	TWO('=', '=', T_EQ);
	TWO('!', '=', T_NE);
	TWO('<', '>', T_NE);
	TWO('<', '=', T_LE);
	TWO('>', '=', T_GE);
	TWO('&', '&', T_AND);
	TWO('|', '|', T_OR);
	TWO('*', '*', T_ANY);
#undef TWO
	if ((c >= '0' && c <= '9') || (c == '.' && digit(P_->p + 1, end))) {
		/* flex's longest match: an identifier-like run longer than the
		 * number (with its one junk character) is an identifier ("0x42",
		 * "1_000", "12abc"), which the grammar then refuses */
		size_t num = number_len(P_->p, end), id = 0;
		while (P_->p + id < end && !is_special((unsigned char)P_->p[id]))
			id++;
		if (id <= num) {
			TRY(scan_number(P_));
			goto done;
		}
		t->t = T_IDENT;
		TRY(scan_ident(P_, &t->s, &t->len));
		goto done;
	}
	if (c == '"') {
		t->t = T_STRING;
		t->quoted = true;
		TRY(scan_string(P_, &t->s, &t->len));
		goto done;
	}
	if (c == '$') {
		P_->p++;
		if (P_->p < end && *P_->p == '"') {
			t->t = T_VAR;
			TRY(scan_string(P_, &t->s, &t->len));
			goto done;
		}
		if (P_->p < end && (!is_special((unsigned char)*P_->p) || *P_->p == '\\')) {
			t->t = T_VAR;
			TRY(scan_ident(P_, &t->s, &t->len));
			goto done;
		}
		t->t = '$';
		goto done;
	}
	if (!is_special(c) || c == '\\') {
		t->t = T_IDENT;
		TRY(scan_ident(P_, &t->s, &t->len));
		for (int k = 1; k < (int)(sizeof kwnames / sizeof kwnames[0]); k++)
			if (strlen(kwnames[k]) == t->len && !strncasecmp(kwnames[k], t->s, t->len))
				t->kw = k;
		goto done;
	}
	P_->p++;
	t->t = c;
done:
	t->rawlen = (size_t)(P_->p - t->raw);
	return FLOE_OK;
}

/* ---- parser -------------------------------------------------------------- */

/* a node and whether it is a predicate (boolean) rather than an expression */
typedef struct Node_ {
	JpItem *it;
	bool pred;
} PNode;

static JpItem *
item(P *P_, int type)
{
	JpItem *it = ARENA_NEW(P_->a, JpItem);
	memset(it, 0, sizeof *it);
	it->type = (uint8_t)type;
	return it;
}

static bool
is_kw(const P *P_, int kw)
{
	return P_->tok.t == T_IDENT && !P_->tok.quoted && P_->tok.kw == kw;
}

static int expect(P *P_, int t)
{
	if (P_->tok.t != t)
		return syntax_error(P_);
	return next(P_);
}

static int parse_or(P *P_, PNode *out);
static int parse_additive(P *P_, PNode *out);

/* the last item of a's accessor chain gets b after it */
static void
chain(JpItem *a, JpItem *b)
{
	while (a->next)
		a = a->next;
	a->next = b;
}

static int
parse_levels(P *P_, uint32_t *lv)
{
	if (is_kw(P_, K_LAST)) {
		*lv = JP_LAST_LEVEL;
		return next(P_);
	}
	if (P_->tok.t != T_NUM || !P_->tok.is_int)
		return syntax_error(P_);
	{
		unsigned long long v = strtoull(P_->tok.s, NULL, 10);
		if (P_->tok.len > 10 || v >= JP_LAST_LEVEL)
			v = JP_LAST_LEVEL - 1;
		*lv = (uint32_t)v;
	}
	return next(P_);
}

static int
method_of(int kw)
{
	switch (kw) {
	case K_TYPE: return JPI_TYPE;
	case K_SIZE: return JPI_SIZE;
	case K_ABS: return JPI_ABS;
	case K_FLOOR: return JPI_FLOOR;
	case K_CEILING: return JPI_CEILING;
	case K_DOUBLE: return JPI_DOUBLE;
	case K_DATETIME: return JPI_DATETIME;
	case K_KEYVALUE: return JPI_KEYVALUE;
	default: return -1;
	}
}

/* is the next token a '(' */
static bool
paren_follows(const P *P_)
{
	const char *q = P_->p;
	while (q < P_->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r' || *q == '\f'))
		q++;
	return q < P_->end && *q == '(';
}

/* accessors after a primary: . [ ? */
static int
parse_accessors(P *P_, JpItem *head)
{
	for (;;) {
		JpItem *acc;
		if (P_->tok.t == '.') {
			TRY(next(P_));
			if (P_->tok.t == '*') {
				acc = item(P_, JPI_ANYKEY);
				TRY(next(P_));
			} else if (P_->tok.t == T_ANY) {
				acc = item(P_, JPI_ANY);
				acc->first = 0;
				acc->last = JP_LAST_LEVEL;
				TRY(next(P_));
				if (P_->tok.t == '{') {
					TRY(next(P_));
					TRY(parse_levels(P_, &acc->first));
					acc->last = acc->first;
					if (is_kw(P_, K_TO)) {
						TRY(next(P_));
						TRY(parse_levels(P_, &acc->last));
					}
					TRY(expect(P_, '}'));
				}
			} else if (P_->tok.t == T_IDENT && !P_->tok.quoted && method_of(P_->tok.kw) >= 0 &&
				   paren_follows(P_)) {
				acc = item(P_, method_of(P_->tok.kw));
				TRY(next(P_));
				TRY(expect(P_, '('));
				if (acc->type == JPI_DATETIME && P_->tok.t == T_STRING) {
					acc->left = item(P_, JPI_STRING);
					acc->left->s = P_->tok.s;
					acc->left->len = P_->tok.len;
					TRY(next(P_));
				}
				TRY(expect(P_, ')'));
			} else if (P_->tok.t == T_IDENT || P_->tok.t == T_STRING) {
				acc = item(P_, JPI_KEY);
				acc->s = P_->tok.s;
				acc->len = P_->tok.len;
				TRY(next(P_));
			} else {
				return syntax_error(P_);
			}
		} else if (P_->tok.t == '[') {
			TRY(next(P_));
			if (P_->tok.t == '*') {
				TRY(next(P_));
				TRY(expect(P_, ']'));
				acc = item(P_, JPI_ANYARRAY);
			} else {
				int cap = 4;
				acc = item(P_, JPI_INDEX);
				acc->from = ARENA_ARRAY(P_->a, JpItem *, cap);
				acc->to = ARENA_ARRAY(P_->a, JpItem *, cap);
				P_->subscript++;
				for (;;) {
					PNode f, t = { NULL, false };
					TRY(parse_additive(P_, &f));
					if (f.pred)
						return syntax_error(P_);
					if (is_kw(P_, K_TO)) {
						TRY(next(P_));
						TRY(parse_additive(P_, &t));
						if (t.pred)
							return syntax_error(P_);
					}
					if (acc->nsubs == cap) {
						JpItem **nf = ARENA_ARRAY(P_->a, JpItem *, cap * 2);
						JpItem **nt = ARENA_ARRAY(P_->a, JpItem *, cap * 2);
						memcpy(nf, acc->from, sizeof *nf * (size_t)cap);
						memcpy(nt, acc->to, sizeof *nt * (size_t)cap);
						acc->from = nf;
						acc->to = nt;
						cap *= 2;
					}
					acc->from[acc->nsubs] = f.it;
					acc->to[acc->nsubs] = t.it;
					acc->nsubs++;
					if (P_->tok.t != ',')
						break;
					TRY(next(P_));
				}
				P_->subscript--;
				TRY(expect(P_, ']'));
			}
		} else if (P_->tok.t == '?') {
			PNode f;
			TRY(next(P_));
			if (P_->tok.t != '(')
				return syntax_error(P_);
			TRY(deeper(P_));
			TRY(next(P_));
			P_->nesting++;
			TRY(parse_or(P_, &f));
			P_->nesting--;
			P_->depth--;
			if (!f.pred)
				return syntax_error(P_);
			TRY(expect(P_, ')'));
			acc = item(P_, JPI_FILTER);
			acc->left = f.it;
		} else {
			return FLOE_OK;
		}
		chain(head, acc);
	}
}

static bool
accessor_follows(const P *P_)
{
	return P_->tok.t == '.' || P_->tok.t == '[' || P_->tok.t == '?';
}

static int
parse_primary(P *P_, PNode *out)
{
	Tok *t = &P_->tok;
	JpItem *it;
	out->pred = false;
	if (t->t == '(') {
		PNode in;
		TRY(deeper(P_));
		TRY(next(P_));
		TRY(parse_or(P_, &in));
		TRY(expect(P_, ')'));
		P_->depth--;
		if (in.pred && is_kw(P_, K_IS)) {
			TRY(next(P_));
			if (!is_kw(P_, K_UNKNOWN))
				return syntax_error(P_);
			TRY(next(P_));
			out->it = item(P_, JPI_ISUNKNOWN);
			out->it->left = in.it;
			out->pred = true;
			return FLOE_OK;
		}
		if (accessor_follows(P_)) {
			TRY(parse_accessors(P_, in.it));
			in.pred = false;
		}
		*out = in;
		return FLOE_OK;
	}
	if (is_kw(P_, K_EXISTS)) {
		PNode in;
		TRY(next(P_));
		TRY(expect(P_, '('));
		TRY(parse_or(P_, &in));
		if (in.pred)
			return syntax_error(P_);
		TRY(expect(P_, ')'));
		out->it = item(P_, JPI_EXISTS);
		out->it->left = in.it;
		out->pred = true;
		return FLOE_OK;
	}
	switch (t->t) {
	case '$': it = item(P_, JPI_ROOT); break;
	case '@':
		if (P_->nesting <= 0)
			return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR, "@ is not allowed in root expressions");
		it = item(P_, JPI_CURRENT);
		break;
	case T_VAR: it = item(P_, JPI_VAR); it->s = t->s; it->len = t->len; break;
	case T_STRING: it = item(P_, JPI_STRING); it->s = t->s; it->len = t->len; break;
	case T_NUM: it = item(P_, JPI_NUMERIC); it->s = t->s; it->len = t->len; break;
	case T_IDENT:
		if (t->kw == K_NULL) {
			it = item(P_, JPI_NULL);
		} else if (t->kw == K_TRUE || t->kw == K_FALSE) {
			it = item(P_, JPI_BOOL);
			it->b = t->kw == K_TRUE;
		} else if (t->kw == K_LAST) {
			if (P_->subscript <= 0)
				return floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR,
						   "LAST is allowed only in array subscripts");
			it = item(P_, JPI_LAST);
		} else {
			return syntax_error(P_);
		}
		break;
	default:
		return syntax_error(P_);
	}
	TRY(next(P_));
	TRY(parse_accessors(P_, it));
	out->it = it;
	return FLOE_OK;
}

static int
parse_unary(P *P_, PNode *out)
{
	if (P_->tok.t == '+' || P_->tok.t == '-') {
		bool minus = P_->tok.t == '-';
		PNode a;
		TRY(deeper(P_));
		TRY(next(P_));
		TRY(parse_unary(P_, &a));
		P_->depth--;
		if (a.pred)
			return syntax_error(P_);
		out->pred = false;
		if (a.it->type == JPI_NUMERIC && !a.it->next) {
			/* folded, as PostgreSQL's makeItemUnary */
			if (minus) {
				if (a.it->s[0] == '-') {
					a.it->s++;
					a.it->len--;
				} else if (strspn(a.it->s, "0.") != a.it->len) {
					char *s = arena_alloc(P_->a, a.it->len + 2);
					s[0] = '-';
					memcpy(s + 1, a.it->s, a.it->len + 1);
					a.it->s = s;
					a.it->len++;
				}
			}
			out->it = a.it;
			return FLOE_OK;
		}
		out->it = item(P_, minus ? JPI_MINUS : JPI_PLUS);
		out->it->left = a.it;
		return FLOE_OK;
	}
	return parse_primary(P_, out);
}

static int
binary(P *P_, int type, PNode *l, const PNode *r)
{
	JpItem *it;
	if (l->pred || r->pred)
		return syntax_error(P_);
	it = item(P_, type);
	it->left = l->it;
	it->right = r->it;
	l->it = it;
	return FLOE_OK;
}

static int
parse_mul(P *P_, PNode *out)
{
	TRY(parse_unary(P_, out));
	while (P_->tok.t == '*' || P_->tok.t == '/' || P_->tok.t == '%') {
		int op = P_->tok.t == '*' ? JPI_MUL : P_->tok.t == '/' ? JPI_DIV : JPI_MOD;
		PNode r;
		if (out->pred)
			return syntax_error(P_);
		TRY(next(P_));
		TRY(parse_unary(P_, &r));
		TRY(binary(P_, op, out, &r));
	}
	return FLOE_OK;
}

static int
parse_additive(P *P_, PNode *out)
{
	TRY(parse_mul(P_, out));
	while (P_->tok.t == '+' || P_->tok.t == '-') {
		int op = P_->tok.t == '+' ? JPI_ADD : JPI_SUB;
		PNode r;
		if (out->pred)
			return syntax_error(P_);
		TRY(next(P_));
		TRY(parse_mul(P_, &r));
		TRY(binary(P_, op, out, &r));
	}
	return FLOE_OK;
}

static int
cmp_op(int t)
{
	switch (t) {
	case T_EQ: return JPI_EQ;
	case T_NE: return JPI_NE;
	case '<': return JPI_LT;
	case '>': return JPI_GT;
	case T_LE: return JPI_LE;
	case T_GE: return JPI_GE;
	default: return -1;
	}
}

static int
regex_flags(P *P_, const char *s, size_t n, uint32_t *flags)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case 'i': *flags |= JP_RE_ICASE; break;
		case 's': *flags |= JP_RE_DOTALL; break;
		case 'm': *flags |= JP_RE_MLINE; break;
		case 'x': *flags |= JP_RE_WSPACE; break;
		case 'q': *flags |= JP_RE_QUOTE; break;
		default: {
			int len = ((unsigned char)s[i] & 0xc0) == 0xc0 ?
				  ((unsigned char)s[i] >= 0xf0 ? 4 : (unsigned char)s[i] >= 0xe0 ? 3 : 2) : 1;
			floe_errorf(P_->err, ERRCODE_SYNTAX_ERROR, "invalid input syntax for type jsonpath");
			floe_error_detail(P_->err, "Unrecognized flag character \"%.*s\" in LIKE_REGEX predicate.",
					  len, s + i);
			return FLOE_ERR;
		}
		}
	}
	return FLOE_OK;
}

static int
parse_comparison(P *P_, PNode *out)
{
	int op;
	TRY(parse_additive(P_, out));
	if ((op = cmp_op(P_->tok.t)) >= 0) {
		PNode r;
		if (out->pred)
			return syntax_error(P_);
		TRY(next(P_));
		TRY(parse_additive(P_, &r));
		TRY(binary(P_, op, out, &r));
		out->pred = true;
		return FLOE_OK;
	}
	if (is_kw(P_, K_STARTS)) {
		JpItem *it;
		if (out->pred)
			return syntax_error(P_);
		TRY(next(P_));
		if (!is_kw(P_, K_WITH))
			return syntax_error(P_);
		TRY(next(P_));
		if (P_->tok.t != T_STRING && P_->tok.t != T_VAR)
			return syntax_error(P_);
		it = item(P_, JPI_STARTSWITH);
		it->left = out->it;
		it->right = item(P_, P_->tok.t == T_STRING ? JPI_STRING : JPI_VAR);
		it->right->s = P_->tok.s;
		it->right->len = P_->tok.len;
		TRY(next(P_));
		out->it = it;
		out->pred = true;
		return FLOE_OK;
	}
	if (is_kw(P_, K_LIKE_REGEX)) {
		JpItem *it;
		if (out->pred)
			return syntax_error(P_);
		TRY(next(P_));
		if (P_->tok.t != T_STRING)
			return syntax_error(P_);
		it = item(P_, JPI_LIKEREGEX);
		it->left = out->it;
		it->s = P_->tok.s;
		it->len = P_->tok.len;
		TRY(next(P_));
		if (is_kw(P_, K_FLAG)) {
			TRY(next(P_));
			if (P_->tok.t != T_STRING)
				return syntax_error(P_);
			TRY(regex_flags(P_, P_->tok.s, P_->tok.len, &it->flags));
			TRY(next(P_));
		}
		if ((it->flags & JP_RE_WSPACE) && !(it->flags & JP_RE_QUOTE))
			return floe_errorf(P_->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "XQuery \"x\" flag (expanded regular expressions) is not implemented");
		{
			regex_t re;
			TRY(jsonpath_regex_compile(&re, it->s, it->len, it->flags, P_->err));
			regfree(&re);
		}
		out->it = it;
		out->pred = true;
		return FLOE_OK;
	}
	return FLOE_OK;
}

static int
parse_not(P *P_, PNode *out)
{
	if (P_->tok.t == '!') {
		PNode a;
		TRY(next(P_));
		if (P_->tok.t == '(') {
			TRY(deeper(P_));
			TRY(next(P_));
			TRY(parse_or(P_, &a));
			if (!a.pred)
				return syntax_error(P_);
			TRY(expect(P_, ')'));
			P_->depth--;
		} else if (is_kw(P_, K_EXISTS)) {
			TRY(parse_primary(P_, &a));
		} else {
			return syntax_error(P_);
		}
		out->it = item(P_, JPI_NOT);
		out->it->left = a.it;
		out->pred = true;
		return FLOE_OK;
	}
	return parse_comparison(P_, out);
}

static int
parse_and(P *P_, PNode *out)
{
	TRY(parse_not(P_, out));
	while (P_->tok.t == T_AND) {
		PNode r;
		JpItem *it;
		if (!out->pred)
			return syntax_error(P_);
		TRY(next(P_));
		TRY(parse_not(P_, &r));
		if (!r.pred)
			return syntax_error(P_);
		it = item(P_, JPI_AND);
		it->left = out->it;
		it->right = r.it;
		out->it = it;
	}
	return FLOE_OK;
}

static int
parse_or(P *P_, PNode *out)
{
	TRY(parse_and(P_, out));
	while (P_->tok.t == T_OR) {
		PNode r;
		JpItem *it;
		if (!out->pred)
			return syntax_error(P_);
		TRY(next(P_));
		TRY(parse_and(P_, &r));
		if (!r.pred)
			return syntax_error(P_);
		it = item(P_, JPI_OR);
		it->left = out->it;
		it->right = r.it;
		out->it = it;
	}
	return FLOE_OK;
}

int
jsonpath_parse(const char *s, size_t n, Arena *a, JsonPath **out, floe_error *err)
{
	P P_;
	PNode top;
	JsonPath *jp = ARENA_NEW(a, JsonPath);
	memset(&P_, 0, sizeof P_);
	P_.in = P_.p = s;
	P_.end = s + n;
	P_.a = a;
	P_.err = err;
	jp->lax = true;
	TRY(next(&P_));
	if (P_.tok.t == T_END)
		return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
				   "invalid input syntax for type jsonpath: \"%.*s\"", (int)n, s);
	if (is_kw(&P_, K_STRICT) || is_kw(&P_, K_LAX)) {
		jp->lax = P_.tok.kw == K_LAX;
		TRY(next(&P_));
	}
	TRY(parse_or(&P_, &top));
	if (P_.tok.t != T_END)
		return syntax_error(&P_);
	jp->root = top.it;
	*out = jp;
	return FLOE_OK;
}

/* ---- printer ------------------------------------------------------------- */

static int
priority(int t)
{
	switch (t) {
	case JPI_OR: return 0;
	case JPI_AND: return 1;
	case JPI_EQ: case JPI_NE: case JPI_LT: case JPI_GT: case JPI_LE: case JPI_GE:
	case JPI_STARTSWITH: return 2;
	case JPI_ADD: case JPI_SUB: return 3;
	case JPI_MUL: case JPI_DIV: case JPI_MOD: return 4;
	case JPI_PLUS: case JPI_MINUS: return 5;
	default: return 6;
	}
}

static const char *
op_name(int t)
{
	switch (t) {
	case JPI_AND: return "&&";
	case JPI_OR: return "||";
	case JPI_EQ: return "==";
	case JPI_NE: return "!=";
	case JPI_LT: return "<";
	case JPI_GT: return ">";
	case JPI_LE: return "<=";
	case JPI_GE: return ">=";
	case JPI_ADD: return "+";
	case JPI_SUB: return "-";
	case JPI_MUL: return "*";
	case JPI_DIV: return "/";
	case JPI_MOD: return "%";
	case JPI_STARTSWITH: return "starts with";
	default: return "?";
	}
}

static void print_item(JsonBuf *b, const JpItem *v, bool in_key, bool brackets);

static void
print_arg(JsonBuf *b, const JpItem *arg, const JpItem *v)
{
	print_item(b, arg, false, priority(arg->type) <= priority(v->type));
}

static void
print_level(JsonBuf *b, uint32_t l)
{
	char num[16];
	if (l == JP_LAST_LEVEL) {
		jbuf_adds(b, "last");
		return;
	}
	snprintf(num, sizeof num, "%u", l);
	jbuf_adds(b, num);
}

static void
print_item(JsonBuf *b, const JpItem *v, bool in_key, bool brackets)
{
	int i;
	switch (v->type) {
	case JPI_AND: case JPI_OR: case JPI_EQ: case JPI_NE: case JPI_LT: case JPI_GT:
	case JPI_LE: case JPI_GE: case JPI_ADD: case JPI_SUB: case JPI_MUL: case JPI_DIV:
	case JPI_MOD: case JPI_STARTSWITH:
		if (brackets)
			jbuf_addc(b, '(');
		print_arg(b, v->left, v);
		jbuf_addc(b, ' ');
		jbuf_adds(b, op_name(v->type));
		jbuf_addc(b, ' ');
		print_arg(b, v->right, v);
		if (brackets)
			jbuf_addc(b, ')');
		break;
	case JPI_LIKEREGEX:
		if (brackets)
			jbuf_addc(b, '(');
		print_arg(b, v->left, v);
		jbuf_adds(b, " like_regex ");
		pgjson_escape(b, v->s, v->len);
		if (v->flags) {
			jbuf_adds(b, " flag \"");
			if (v->flags & JP_RE_ICASE)
				jbuf_addc(b, 'i');
			if (v->flags & JP_RE_DOTALL)
				jbuf_addc(b, 's');
			if (v->flags & JP_RE_MLINE)
				jbuf_addc(b, 'm');
			if (v->flags & JP_RE_WSPACE)
				jbuf_addc(b, 'x');
			if (v->flags & JP_RE_QUOTE)
				jbuf_addc(b, 'q');
			jbuf_addc(b, '"');
		}
		if (brackets)
			jbuf_addc(b, ')');
		break;
	case JPI_PLUS: case JPI_MINUS:
		if (brackets)
			jbuf_addc(b, '(');
		jbuf_addc(b, v->type == JPI_PLUS ? '+' : '-');
		print_arg(b, v->left, v);
		if (brackets)
			jbuf_addc(b, ')');
		break;
	case JPI_FILTER:
		jbuf_adds(b, "?(");
		print_item(b, v->left, false, false);
		jbuf_addc(b, ')');
		break;
	case JPI_NOT:
		jbuf_adds(b, "!(");
		print_item(b, v->left, false, false);
		jbuf_addc(b, ')');
		break;
	case JPI_ISUNKNOWN:
		jbuf_addc(b, '(');
		print_item(b, v->left, false, false);
		jbuf_adds(b, ") is unknown");
		break;
	case JPI_EXISTS:
		jbuf_adds(b, "exists (");
		print_item(b, v->left, false, false);
		jbuf_addc(b, ')');
		break;
	case JPI_CURRENT: jbuf_addc(b, '@'); break;
	case JPI_ROOT: jbuf_addc(b, '$'); break;
	case JPI_VAR:
		jbuf_addc(b, '$');
		pgjson_escape(b, v->s, v->len);
		break;
	case JPI_LAST: jbuf_adds(b, "last"); break;
	case JPI_ANYARRAY: jbuf_adds(b, "[*]"); break;
	case JPI_ANYKEY:
		if (in_key)
			jbuf_addc(b, '.');
		jbuf_addc(b, '*');
		break;
	case JPI_INDEX:
		jbuf_addc(b, '[');
		for (i = 0; i < v->nsubs; i++) {
			if (i)
				jbuf_addc(b, ',');
			print_item(b, v->from[i], false, false);
			if (v->to[i]) {
				jbuf_adds(b, " to ");
				print_item(b, v->to[i], false, false);
			}
		}
		jbuf_addc(b, ']');
		break;
	case JPI_ANY:
		if (in_key)
			jbuf_addc(b, '.');
		if (v->first == 0 && v->last == JP_LAST_LEVEL) {
			jbuf_adds(b, "**");
		} else if (v->first == v->last) {
			jbuf_adds(b, "**{");
			print_level(b, v->first);
			jbuf_addc(b, '}');
		} else {
			jbuf_adds(b, "**{");
			print_level(b, v->first);
			jbuf_adds(b, " to ");
			print_level(b, v->last);
			jbuf_addc(b, '}');
		}
		break;
	case JPI_KEY:
		if (in_key)
			jbuf_addc(b, '.');
		pgjson_escape(b, v->s, v->len);
		break;
	case JPI_STRING: pgjson_escape(b, v->s, v->len); break;
	case JPI_NUMERIC:
		if (v->next)
			jbuf_addc(b, '(');
		jbuf_add(b, v->s, v->len);
		if (v->next)
			jbuf_addc(b, ')');
		break;
	case JPI_BOOL: jbuf_adds(b, v->b ? "true" : "false"); break;
	case JPI_NULL: jbuf_adds(b, "null"); break;
	case JPI_TYPE: jbuf_adds(b, ".type()"); break;
	case JPI_SIZE: jbuf_adds(b, ".size()"); break;
	case JPI_ABS: jbuf_adds(b, ".abs()"); break;
	case JPI_FLOOR: jbuf_adds(b, ".floor()"); break;
	case JPI_CEILING: jbuf_adds(b, ".ceiling()"); break;
	case JPI_DOUBLE: jbuf_adds(b, ".double()"); break;
	case JPI_KEYVALUE: jbuf_adds(b, ".keyvalue()"); break;
	case JPI_DATETIME:
		jbuf_adds(b, ".datetime(");
		if (v->left)
			print_item(b, v->left, false, false);
		jbuf_addc(b, ')');
		break;
	default:
		break;
	}
	if (v->next)
		print_item(b, v->next, true, true);
}

const char *
jsonpath_print(const JsonPath *p, Arena *a, size_t *len)
{
	JsonBuf b;
	jbuf_init(&b, a);
	if (!p->lax)
		jbuf_adds(&b, "strict ");
	print_item(&b, p->root, false, true);
	return jbuf_finish(&b, len);
}

int
jsonpath_normalize(const char *s, size_t n, Arena *a, const char **out, size_t *len,
		   floe_error *err)
{
	JsonPath *p;
	TRY(jsonpath_parse(s, n, a, &p, err));
	*out = jsonpath_print(p, a, len);
	return FLOE_OK;
}

/* ---- like_regex ---------------------------------------------------------- */

static locale_t utf8_loc;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void
utf8_init(void)
{
	utf8_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if (!utf8_loc)
		utf8_loc = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
}

/* XQuery/ARE pattern -> POSIX ERE under the flags (see jsonpath.h) */
static char *
translate(const char *p, size_t n, uint32_t flags)
{
	char *out = malloc(n * 12 + 1);
	size_t i, o = 0;
	bool in_br = false;
	bool dotall = (flags & JP_RE_DOTALL) != 0, mline = (flags & JP_RE_MLINE) != 0;
	if (!out)
		abort();
	if (flags & JP_RE_QUOTE) {
		for (i = 0; i < n; i++) {
			if (p[i] && strchr(".[]()*+?{}|^$\\", p[i]))
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
			o += strlen(rep);
			i++;
			continue;
		}
		if (!in_br && c == '\\' && i + 1 < n) {
			/* ARE escapes glibc's ERE spells otherwise */
			const char *rep = NULL;
			char lit = 0;
			switch (p[i + 1]) {
			case 'b': lit = '\b'; break;
			case 'B': rep = "\\\\"; break;
			case 'a': lit = '\a'; break;
			case 'e': lit = 27; break;
			case 'f': lit = '\f'; break;
			case 'n': lit = '\n'; break;
			case 'r': lit = '\r'; break;
			case 't': lit = '\t'; break;
			case 'v': lit = '\v'; break;
			case 'y': rep = "\\b"; break;
			case 'Y': rep = "\\B"; break;
			case 'm': rep = "\\<"; break;
			case 'M': rep = "\\>"; break;
			case 'A': rep = "\\`"; break;
			case 'Z': rep = "\\'"; break;
			default: break;
			}
			i++;
			if (lit) {
				out[o++] = lit;
			} else if (rep) {
				memcpy(out + o, rep, strlen(rep));
				o += strlen(rep);
			} else {
				out[o++] = c;
				out[o++] = p[i];
			}
			continue;
		}
		if (!in_br && c == '(' && i + 2 < n && p[i + 1] == '?' && p[i + 2] == ':') {
			out[o++] = '(';
			i += 2;
			continue;
		}
		if (!in_br && c == '.') {
			/* default: '.' stops at a newline (REG_NEWLINE is only set
			 * for m, which also anchors ^ $ at newlines); s with m: a
			 * newline matches too */
			const char *rep = dotall ? (mline ? "(.|\n)" : ".") : (mline ? "." : "[^\n]");
			memcpy(out + o, rep, strlen(rep));
			o += strlen(rep);
			continue;
		}
		if (!in_br && c == '[') {
			in_br = true;
			out[o++] = c;
			if (i + 1 < n && p[i + 1] == '^') {
				out[o++] = p[++i];
				if (!dotall && !mline)
					out[o++] = '\n';
			}
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

int
jsonpath_regex_compile(regex_t *re, const char *pat, size_t n, uint32_t flags, floe_error *err)
{
	locale_t old = (locale_t)0;
	char *ere = translate(pat, n, flags);
	int cflags = REG_EXTENDED | REG_NOSUB;
	int rc;
	if (flags & JP_RE_ICASE)
		cflags |= REG_ICASE;
	if ((flags & JP_RE_MLINE) && !(flags & JP_RE_QUOTE))
		cflags |= REG_NEWLINE;
	pthread_once(&utf8_once, utf8_init);
	if (utf8_loc)
		old = uselocale(utf8_loc);
	rc = regcomp(re, ere, cflags);
	if (utf8_loc)
		uselocale(old);
	free(ere);
	if (rc != 0) {
		char msg[256];
		regerror(rc, re, msg, sizeof msg);
		regfree(re);
		return floe_errorf(err, ERRCODE_INVALID_REGULAR_EXPRESSION,
				   "invalid regular expression: %s", msg);
	}
	return FLOE_OK;
}

bool
jsonpath_regex_match(const regex_t *re, const char *s, size_t n)
{
	locale_t old = (locale_t)0;
	char stackbuf[256], *buf = n < sizeof stackbuf ? stackbuf : malloc(n + 1);
	int rc;
	if (!buf)
		abort();
	memcpy(buf, s, n);
	buf[n] = 0;
	if (utf8_loc)
		old = uselocale(utf8_loc);
	rc = regexec(re, buf, 0, NULL, 0);
	if (utf8_loc)
		uselocale(old);
	if (buf != stackbuf)
		free(buf);
	return rc == 0;
}
