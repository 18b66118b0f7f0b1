/*
 * copy_json.c — COPY ... (FORMAT json): rows as JSON objects out, JSON
 * objects in (copyfmt.h has the rules).
 *
 * Spec: RFC 8259 (JSON); the output is newline-delimited JSON (one object
 * and "\n" per row), what DuckDB's COPY ... (FORMAT json) writes and
 * reads back.
 *
 * The reader takes the whole input first (COPY's input is one file, a
 * glob's files one after the other, or the client's stream), then parses
 * one object per row in place: a key is compared with the column names
 * as it stands (no copy unless it has escapes), a value's text is handed
 * to value_from_text.  Line numbers count the input's '\n's up to the
 * start of the row's object.
 *
 * INTERFACE ROUTINES (copyfmt.h)
 *   copyjson_row, copyjson_reader_new, copybuf_reserve, copybuf_mem
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common/error.h"
#include "ingest/copyfmt.h"
#include "types/decimal.h"
#include "types/text.h"

#ifndef ERRCODE_BAD_COPY_FILE_FORMAT
#define ERRCODE_BAD_COPY_FILE_FORMAT "22P04"
#endif

void
copybuf_reserve(CopyBuf *o, size_t n)
{
	if (o->len + n <= o->cap)
		return;
	while (o->len + n > o->cap)
		o->cap = o->cap ? o->cap * 2 : 8192;
	o->p = xrealloc(o->p, o->cap);
}

void
copybuf_mem(CopyBuf *o, const char *s, size_t n)
{
	if (!n)
		return;
	copybuf_reserve(o, n);
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

/* ---- output -------------------------------------------------------------- */

static void
json_string(CopyBuf *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;
	copybuf_reserve(o, n + 2);
	o->p[o->len++] = '"';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			char e[2] = {'\\', (char)c};
			copybuf_mem(o, e, 2);
		} else if (c < 0x20) {
			char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			if (c == '\n')
				copybuf_mem(o, "\\n", 2);
			else if (c == '\t')
				copybuf_mem(o, "\\t", 2);
			else if (c == '\r')
				copybuf_mem(o, "\\r", 2);
			else
				copybuf_mem(o, e, 6);
		} else {
			copybuf_reserve(o, 1);
			o->p[o->len++] = (char)c;
		}
	}
	copybuf_reserve(o, 1);
	o->p[o->len++] = '"';
}

/* a float's text is a JSON number unless it is NaN or +-Infinity */
static bool
json_number_text(const char *s, size_t n)
{
	return n > 0 && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) &&
	       !(n >= 2 && s[0] == '-' && s[1] == 'I');
}

void
copyjson_row(CopyBuf *o, Batch *b, uint32_t r, char **names, int ncols, Arena *a)
{
	int c;
	copybuf_mem(o, "{", 1);
	for (c = 0; c < ncols; c++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[c], r, a, &len);
		if (c)
			copybuf_mem(o, ",", 1);
		json_string(o, names[c], strlen(names[c]));
		copybuf_mem(o, ":", 1);
		if (!t) {
			copybuf_mem(o, "null", 4);
			continue;
		}
		switch (b->cols[c].type.id) {
		case TYPE_BOOL:
			if (len == 1 && t[0] == 't')
				copybuf_mem(o, "true", 4);
			else
				copybuf_mem(o, "false", 5);
			break;
		case TYPE_INT16:
		case TYPE_INT32:
		case TYPE_INT64:
			copybuf_mem(o, t, len);
			break;
		case TYPE_FLOAT32:
		case TYPE_FLOAT64:
		case TYPE_DECIMAL:
			if (json_number_text(t, len))
				copybuf_mem(o, t, len);
			else
				json_string(o, t, len);
			break;
		default:
			json_string(o, t, len);
		}
	}
	copybuf_mem(o, "}\n", 2);
}

/* ---- input --------------------------------------------------------------- */

typedef struct JsonField {
	const char *s;            /* NULL: SQL NULL / absent */
	size_t n;
	int64_t line;
} JsonField;

typedef struct JsonReadOp {
	Operator op;
	CopyReadFn rd;
	void *rctx;
	char **names;
	size_t *name_len;
	const char *relname;
	char *buf;                /* the whole input, NUL-terminated */
	size_t len, pos;
	bool loaded;
	int array;                /* 1 inside a top-level array */
	bool first;               /* no element of that array read yet */
	int64_t line;             /* line of buf[pos] */
	int64_t row_line;
	JsonField *fields;
	char *sbuf;               /* de-escaped strings of the current row */
	size_t scap, slen;
	/* copyjson_sample: every key's value (kind: its first byte) */
	void (*on_value)(void *arg, const char *k, size_t kn, const char *v, size_t vn, char kind);
	void *hook_arg;
} JsonReadOp;

static int
load_all(JsonReadOp *j)
{
	size_t cap = 1 << 20;
	j->buf = xmalloc(cap);
	for (;;) {
		size_t got = 0;
		if (cap - j->len < 65536) {
			cap *= 2;
			j->buf = xrealloc(j->buf, cap);
		}
		TRY(j->rd(j->rctx, j->buf + j->len, cap - j->len - 1, &got, j->op.ctx->err));
		if (!got)
			break;
		j->len += got;
	}
	j->buf[j->len] = 0;
	j->loaded = true;
	/* de-escaped strings are never longer than the input */
	j->scap = j->len + 1;
	j->sbuf = xmalloc(j->scap);
	return FLOE_OK;
}

static void
skip_ws(JsonReadOp *j)
{
	while (j->pos < j->len) {
		char c = j->buf[j->pos];
		if (c == '\n')
			j->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			break;
		j->pos++;
	}
}

static int
syntax(JsonReadOp *j, const char *what)
{
	floe_error *err = j->op.ctx->err;
	if (j->pos >= j->len)
		floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
			    "invalid input syntax for type json: the input ends inside a value");
	else
		floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
			    "invalid input syntax for type json: %s, found \"%c\"", what, j->buf[j->pos]);
	return floe_error_context(err, "COPY %s, line %lld", j->relname, (long long)j->line);
}

static int
hex4(const char *p, unsigned *out)
{
	int i;
	unsigned v = 0;
	for (i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t
put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* A string at buf[pos] ('"'): its text, in place when it has no escapes,
 * else de-escaped into sbuf. */
static int
parse_string(JsonReadOp *j, const char **s, size_t *n)
{
	size_t i = j->pos + 1, start = i;
	char *o;
	while (i < j->len && j->buf[i] != '"' && j->buf[i] != '\\' && (unsigned char)j->buf[i] >= 0x20)
		i++;
	if (i < j->len && j->buf[i] == '"') {
		*s = j->buf + start;
		*n = i - start;
		j->pos = i + 1;
		return FLOE_OK;
	}
	o = j->sbuf + j->slen;
	*s = o;
	memcpy(o, j->buf + start, i - start);
	o += i - start;
	while (i < j->len && j->buf[i] != '"') {
		unsigned char c = (unsigned char)j->buf[i];
		if (c < 0x20) {
			j->pos = i;
			return syntax(j, "a control character must be escaped in a string");
		}
		if (c != '\\') {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (i + 1 >= j->len)
			break;
		switch (j->buf[i + 1]) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (i + 6 > j->len || hex4(j->buf + i + 2, &cp) < 0) {
				j->pos = i;
				return syntax(j, "\\u must be followed by four hexadecimal digits");
			}
			i += 6;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				if (i + 6 > j->len || j->buf[i] != '\\' || j->buf[i + 1] != 'u' ||
				    hex4(j->buf + i + 2, &lo) < 0 || lo < 0xDC00 || lo > 0xDFFF) {
					j->pos = i;
					return syntax(j, "a high surrogate must be followed by a low one");
				}
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				i += 6;
			} else if ((cp >= 0xDC00 && cp <= 0xDFFF) || cp == 0) {
				j->pos = i - 6;
				return syntax(j, cp ? "a lone low surrogate" : "\\u0000 cannot be converted to text");
			}
			o += put_utf8(o, cp);
			continue;
		}
		default:
			j->pos = i;
			return syntax(j, "unknown escape in a string");
		}
		i += 2;
	}
	if (i >= j->len) {
		j->pos = i;
		return syntax(j, "unterminated string");
	}
	*n = (size_t)(o - *s);
	j->slen += *n;
	j->pos = i + 1;
	return FLOE_OK;
}

/* skip a value of any kind; its raw text is buf[start..pos) */
static int skip_value(JsonReadOp *j, int depth);

static int
skip_container(JsonReadOp *j, int depth)
{
	char close = j->buf[j->pos] == '{' ? '}' : ']';
	bool obj = close == '}';
	if (depth > 1000)
		return syntax(j, "nesting too deep");
	j->pos++;
	skip_ws(j);
	if (j->pos < j->len && j->buf[j->pos] == close) {
		j->pos++;
		return FLOE_OK;
	}
	for (;;) {
		if (obj) {
			const char *s;
			size_t n;
			if (j->pos >= j->len || j->buf[j->pos] != '"')
				return syntax(j, "expected a key string");
			TRY(parse_string(j, &s, &n));
			skip_ws(j);
			if (j->pos >= j->len || j->buf[j->pos] != ':')
				return syntax(j, "expected \":\"");
			j->pos++;
			skip_ws(j);
		}
		TRY(skip_value(j, depth + 1));
		skip_ws(j);
		if (j->pos < j->len && j->buf[j->pos] == ',') {
			j->pos++;
			skip_ws(j);
			continue;
		}
		if (j->pos < j->len && j->buf[j->pos] == close) {
			j->pos++;
			return FLOE_OK;
		}
		return syntax(j, obj ? "expected \",\" or \"}\"" : "expected \",\" or \"]\"");
	}
}

static int
scan_number(JsonReadOp *j)
{
	size_t i = j->pos;
	if (i < j->len && j->buf[i] == '-')
		i++;
	if (i >= j->len || j->buf[i] < '0' || j->buf[i] > '9')
		return syntax(j, "expected a value");
	if (j->buf[i] == '0')
		i++;
	else
		while (i < j->len && j->buf[i] >= '0' && j->buf[i] <= '9')
			i++;
	if (i < j->len && j->buf[i] == '.') {
		i++;
		if (i >= j->len || j->buf[i] < '0' || j->buf[i] > '9') {
			j->pos = i;
			return syntax(j, "expected digits after \".\"");
		}
		while (i < j->len && j->buf[i] >= '0' && j->buf[i] <= '9')
			i++;
	}
	if (i < j->len && (j->buf[i] == 'e' || j->buf[i] == 'E')) {
		i++;
		if (i < j->len && (j->buf[i] == '+' || j->buf[i] == '-'))
			i++;
		if (i >= j->len || j->buf[i] < '0' || j->buf[i] > '9') {
			j->pos = i;
			return syntax(j, "expected exponent digits");
		}
		while (i < j->len && j->buf[i] >= '0' && j->buf[i] <= '9')
			i++;
	}
	j->pos = i;
	return FLOE_OK;
}

static bool
literal(JsonReadOp *j, const char *w, size_t n)
{
	if (j->len - j->pos >= n && !memcmp(j->buf + j->pos, w, n)) {
		j->pos += n;
		return true;
	}
	return false;
}

static int
skip_value(JsonReadOp *j, int depth)
{
	const char *s;
	size_t n;
	if (j->pos >= j->len)
		return syntax(j, "expected a value");
	switch (j->buf[j->pos]) {
	case '{':
	case '[':
		return skip_container(j, depth);
	case '"':
		return parse_string(j, &s, &n);
	case 't':
		if (literal(j, "true", 4))
			return FLOE_OK;
		break;
	case 'f':
		if (literal(j, "false", 5))
			return FLOE_OK;
		break;
	case 'n':
		if (literal(j, "null", 4))
			return FLOE_OK;
		break;
	default:
		return scan_number(j);
	}
	return syntax(j, "expected a value");
}

static int
find_column(JsonReadOp *j, const char *k, size_t n)
{
	int c;
	for (c = 0; c < j->op.ncols; c++)
		if (j->name_len[c] == n && !memcmp(j->names[c], k, n))
			return c;
	/* "userId" into the column userid (SQL folds unquoted names) */
	for (c = 0; c < j->op.ncols; c++)
		if (j->name_len[c] == n && !strncasecmp(j->names[c], k, n))
			return c;
	return -1;
}

/* The next row's object into fields; *got false at the end of input. */
static int
next_object(JsonReadOp *j, bool *got)
{
	int c;
	*got = false;
	j->slen = 0;
	skip_ws(j);
	for (;;) {
		if (j->array && j->pos < j->len && j->buf[j->pos] == ']') {
			j->pos++;
			j->array = 0;
			skip_ws(j);
			continue;
		}
		if (j->array && !j->first) {
			if (j->pos >= j->len || j->buf[j->pos] != ',')
				return syntax(j, "expected \",\" or \"]\"");
			j->pos++;
			skip_ws(j);
		}
		if (!j->array && j->pos < j->len && j->buf[j->pos] == '[') {
			/* an array of rows (one after another: a glob's files) */
			j->array = 1;
			j->first = true;
			j->pos++;
			skip_ws(j);
			continue;
		}
		break;
	}
	if (j->pos >= j->len) {
		if (j->array)
			return syntax(j, "expected \",\" or \"]\"");
		return FLOE_OK;
	}
	j->first = false;
	j->row_line = j->line;
	if (j->buf[j->pos] != '{') {
		floe_errorf(j->op.ctx->err, ERRCODE_BAD_COPY_FILE_FORMAT,
			    "COPY FORMAT json expects one object per row");
		return floe_error_context(j->op.ctx->err, "COPY %s, line %lld", j->relname,
					  (long long)j->line);
	}
	for (c = 0; c < j->op.ncols; c++)
		j->fields[c].s = NULL;
	j->pos++;
	skip_ws(j);
	if (j->pos < j->len && j->buf[j->pos] == '}') {
		j->pos++;
		*got = true;
		return FLOE_OK;
	}
	for (;;) {
		const char *k, *v = NULL;
		size_t kn, vn = 0, start;
		int col;
		if (j->pos >= j->len || j->buf[j->pos] != '"')
			return syntax(j, "expected a key string");
		TRY(parse_string(j, &k, &kn));
		skip_ws(j);
		if (j->pos >= j->len || j->buf[j->pos] != ':')
			return syntax(j, "expected \":\"");
		j->pos++;
		skip_ws(j);
		col = find_column(j, k, kn);
		start = j->pos;
		if (j->pos < j->len && j->buf[j->pos] == '"') {
			TRY(parse_string(j, &v, &vn));
		} else if (literal(j, "null", 4)) {
			v = NULL;
		} else {
			TRY(skip_value(j, 0));
			v = j->buf + start;
			vn = j->pos - start;
		}
		if (j->on_value)
			j->on_value(j->hook_arg, k, kn, v, vn, j->buf[start]);
		if (col >= 0) {
			j->fields[col].s = v;
			j->fields[col].n = vn;
			j->fields[col].line = j->line;
		}
		skip_ws(j);
		if (j->pos < j->len && j->buf[j->pos] == ',') {
			j->pos++;
			skip_ws(j);
			continue;
		}
		if (j->pos < j->len && j->buf[j->pos] == '}') {
			j->pos++;
			break;
		}
		return syntax(j, "expected \",\" or \"}\"");
	}
	*got = true;
	return FLOE_OK;
}

static int
field_context(JsonReadOp *j, int c)
{
	const JsonField *f = &j->fields[c];
	size_t n = f->n;
	const char *more = "";
	if (n > 100) {
		n = 100;
		while (n > 0 && ((unsigned char)f->s[n] & 0xC0) == 0x80)
			n--;
		more = "...";
	}
	return floe_error_context(j->op.ctx->err, "COPY %s, line %lld, column %s: \"%.*s%s\"",
				  j->relname, (long long)f->line, j->names[c], (int)n, f->s, more);
}

static int
jr_open(Operator *op)
{
	(void)op;
	return FLOE_OK;
}

static int
jr_next(Operator *op, Batch **out)
{
	JsonReadOp *j = (JsonReadOp *)op;
	Batch *b;
	uint32_t r = 0;
	int c;

	*out = NULL;
	if (!j->loaded) {
		TRY(load_all(j));
		if (j->len >= 3 && !memcmp(j->buf, "\xEF\xBB\xBF", 3))
			j->pos = 3;   /* a byte order mark */
		TRY(text_validate_utf8(j->buf + j->pos, j->len - j->pos, op->ctx->err));
	}
	arena_reset(op->scratch);
	TRY(exec_check_cancel(op->ctx));
	b = batch_new(op->scratch, op->ncols, op->types, VECTOR_SIZE);
	while (r < VECTOR_SIZE) {
		bool got;
		TRY(next_object(j, &got));
		if (!got)
			break;
		for (c = 0; c < op->ncols; c++) {
			Value v;
			JsonField *f = &j->fields[c];
			if (!f->s) {
				vector_set_null(&b->cols[c], r);
				continue;
			}
			if (value_from_text(&v, op->types[c], f->s, f->n, op->scratch, op->ctx->err) != FLOE_OK)
				return field_context(j, c);
			if (v.type.id == TYPE_DECIMAL && v.type.scale != op->types[c].scale) {
				if (decimal_rescale(v.u.d, v.type.scale, op->types[c].scale, &v.u.d,
						    op->ctx->err) != FLOE_OK)
					return field_context(j, c);
				v.type = op->types[c];
			}
			vector_set_value(&b->cols[c], r, &v);
		}
		r++;
	}
	b->count = r;
	*out = r ? b : NULL;
	return FLOE_OK;
}

static void
jr_close(Operator *op)
{
	JsonReadOp *j = (JsonReadOp *)op;
	free(j->buf);
	free(j->sbuf);
	j->buf = j->sbuf = NULL;
}

static const OperatorVT jsonread_vt = {
	.name = "CopyJson", .open = jr_open, .next = jr_next, .close = jr_close,
};

Operator *
copyjson_reader_new(ExecCtx *ctx, int ncols, const SqlType *types, char **names, const char *relname,
		    CopyReadFn rd, void *rctx)
{
	JsonReadOp *j = ARENA_NEW(ctx->arena, JsonReadOp);
	int c;
	op_init(&j->op, &jsonread_vt, ctx, ncols, (SqlType *)types, NULL);
	j->rd = rd;
	j->rctx = rctx;
	j->names = names;
	j->relname = relname;
	j->line = 1;
	j->name_len = ARENA_ARRAY(ctx->arena, size_t, ncols + 1);
	j->fields = ARENA_ARRAY(ctx->arena, JsonField, ncols + 1);
	for (c = 0; c < ncols; c++)
		j->name_len[c] = strlen(names[c]);
	return &j->op;
}

/* ---- sampling (read_json's detection) --------------------------------------- */

typedef struct Sample {
	Arena *a;
	CopyJsonKey *keys;
	int n, cap;
} Sample;

static void
sample_value(void *arg, const char *k, size_t kn, const char *v, size_t vn, char kind)
{
	Sample *sm = arg;
	CopyJsonKey *key = NULL;
	int i;
	for (i = 0; i < sm->n; i++)
		if (strlen(sm->keys[i].name) == kn && !memcmp(sm->keys[i].name, k, kn)) {
			key = &sm->keys[i];
			break;
		}
	if (!key) {
		if (sm->n == sm->cap) {
			int nc = sm->cap ? sm->cap * 2 : 16;
			CopyJsonKey *nk = ARENA_ARRAY(sm->a, CopyJsonKey, nc);
			if (sm->n)
				memcpy(nk, sm->keys, sizeof(CopyJsonKey) * (size_t)sm->n);
			sm->keys = nk;
			sm->cap = nc;
		}
		key = &sm->keys[sm->n++];
		memset(key, 0, sizeof *key);
		key->name = arena_strndup(sm->a, k, kn);
	}
	if (!v)
		return;
	key->nvalues++;
	if (kind == '"') {
		key->kinds |= COPYJSON_STRING;
		if (key->nstrings < COPYJSON_SAMPLE_STRINGS) {
			if (!key->strings)
				key->strings = ARENA_ARRAY(sm->a, char *, COPYJSON_SAMPLE_STRINGS);
			key->strings[key->nstrings++] = arena_strndup(sm->a, v, vn);
		}
	} else if (kind == 't' || kind == 'f') {
		key->kinds |= COPYJSON_BOOL;
	} else if (kind == '{' || kind == '[') {
		key->kinds |= COPYJSON_NESTED;
	} else {
		bool isfloat = memchr(v, '.', vn) || memchr(v, 'e', vn) || memchr(v, 'E', vn);
		key->kinds |= isfloat ? COPYJSON_FLOAT : COPYJSON_INT;
		if (!isfloat) {
			char num[24], *end;
			long long x;
			size_t m = vn < sizeof num - 1 ? vn : sizeof num - 1;
			memcpy(num, v, m);
			num[m] = 0;
			errno = 0;
			x = strtoll(num, &end, 10);
			if (vn >= sizeof num - 1 || errno || x < INT32_MIN || x > INT32_MAX)
				key->wide = true;
		}
	}
}

int
copyjson_sample(const char *buf, size_t len, int max, Arena *a, CopyJsonKey **keys, int *nkeys,
		int *nrows, floe_error *err)
{
	JsonReadOp j;
	ExecCtx ctx;
	Sample sm;
	int rows = 0, rc = FLOE_OK;

	memset(&j, 0, sizeof j);
	memset(&ctx, 0, sizeof ctx);
	memset(&sm, 0, sizeof sm);
	ctx.err = err;
	ctx.arena = a;
	j.op.ctx = &ctx;
	j.buf = (char *)buf;
	j.len = len;
	j.line = 1;
	j.relname = "read_json";
	j.sbuf = xmalloc(len + 1);
	j.on_value = sample_value;
	j.hook_arg = &sm;
	sm.a = a;
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		j.pos = 3;
	while (rows < max) {
		bool got;
		if ((rc = next_object(&j, &got)) != FLOE_OK || !got)
			break;
		rows++;
	}
	free(j.sbuf);
	*keys = sm.keys;
	*nkeys = sm.n;
	*nrows = rows;
	return rc;
}
