/*
 * array.c — one-dimensional arrays: encoding, array_in/array_out text,
 * btarraycmp ordering and element-wise casts (array.h has the encoding).
 *
 * Spec: PostgreSQL 15 documentation 8.15 "Arrays" (8.15.6 Array
 * Input and Output Syntax) and the behaviour of arrayfuncs.c's array_in /
 * array_out / btarraycmp, checked against a real PostgreSQL 15 by
 * tests/sql/pgdiff/array_*.test.
 *
 * INTERFACE ROUTINES (array.h)
 *   array_of, array_elem_type, array_elem_supported, array_decode,
 *   array_encode, array_elem_value, array_compare, array_value_compare,
 *   array_to_text, array_from_text, array_cast, array_elem_out,
 *   array_lower_bound, array_trim_numeric
 *
 * Invariants: an encoding's NULL slots are zero bytes (zero length), and
 * the NULL bitmap is present exactly when some element is NULL, so equal
 * arrays are equal byte strings.  Decoding checks every length against
 * the bytes it has (a corrupt value is XX001, never an overread).
 */
#include <math.h>
#include <string.h>
#include "types/array.h"
#include "types/cast.h"
#include "types/decimal.h"
#include "types/text.h"

SqlType
array_of(SqlType elem)
{
	SqlType t = elem;
	/* numeric[]: elements keep their own scales, so an element taken out
	 * (a[i]) goes to a vector wide enough for any of them (as a stored
	 * unconstrained numeric column, vector.h) */
	if (t.id == TYPE_DECIMAL && t.precision == 0 && t.scale == 0)
		t.scale = NUMERIC_DEFAULT_SCALE;
	t.elem = (uint8_t)elem.id;
	t.id = TYPE_ARRAY;
	t.vector = 0;
	return t;
}

SqlType
array_elem_type(SqlType arr)
{
	SqlType t = arr;
	t.id = (TypeId)arr.elem;
	t.elem = 0;
	t.vector = 0;
	return t;
}

int
array_lower_bound(SqlType arr)
{
	return arr.id == TYPE_ARRAY && arr.vector == ARRAY_VECTOR ? 0 : 1;
}

bool
array_elem_supported(SqlType elem)
{
	return elem.id != TYPE_NULL && elem.id != TYPE_ARRAY && elem.id < TYPE__COUNT;
}

/* ---- encoding ---------------------------------------------------------- */

typedef struct Buf {
	Arena *a;
	char *p;
	size_t len, cap;
} Buf;

static void
put(Buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t nc = (b->len + n) * 2 + 32;
		b->p = arena_realloc(b->a, b->p, b->cap, nc);
		b->cap = nc;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

int
array_encode(Arena *a, SqlType arrtype, const Value *vals, uint32_t n, strview *out,
	     floe_error *err)
{
	SqlType et = array_elem_type(arrtype);
	Buf b = { a, NULL, 0, 0 };
	uint8_t flags = 0;
	uint32_t i;
	size_t w = type_width(et.id);
	static const char zeros[32];

	for (i = 0; i < n; i++)
		if (vals[i].is_null || vals[i].type.id == TYPE_NULL)
			flags = 1;
	put(&b, &flags, 1);
	put(&b, &n, 4);
	if (flags) {
		size_t nb = (n + 7) / 8, at = b.len;
		put(&b, zeros, 0);
		for (i = 0; i < nb; i++) {
			uint8_t z = 0;
			put(&b, &z, 1);
		}
		for (i = 0; i < n; i++)
			if (vals[i].is_null || vals[i].type.id == TYPE_NULL)
				b.p[at + i / 8] |= (char)(1 << (i & 7));
	}
	for (i = 0; i < n; i++) {
		const Value *v = &vals[i];
		bool isnull = v->is_null || v->type.id == TYPE_NULL;
		switch (et.id) {
		case TYPE_DECIMAL: {
			int128 d = 0;
			uint8_t sc = 0;
			if (!isnull) {
				Value s = *v;
				value_to_display_scale(&s);
				d = s.u.d;
				sc = s.type.scale;
			}
			put(&b, &d, 16);
			put(&b, &sc, 1);
			break;
		}
		case TYPE_TEXT: case TYPE_BYTEA: {
			uint32_t l = isnull ? 0 : v->u.s.len;
			put(&b, &l, 4);
			if (l)
				put(&b, strview_data(&v->u.s), l);
			break;
		}
		case TYPE_BOOL: {
			uint8_t x = isnull ? 0 : v->u.b;
			put(&b, &x, 1);
			break;
		}
		case TYPE_INT16: {
			int16_t x = isnull ? 0 : (int16_t)v->u.i;
			put(&b, &x, 2);
			break;
		}
		case TYPE_INT32: case TYPE_DATE: {
			int32_t x = isnull ? 0 : (int32_t)v->u.i;
			put(&b, &x, 4);
			break;
		}
		case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: {
			int64_t x = isnull ? 0 : v->u.i;
			put(&b, &x, 8);
			break;
		}
		case TYPE_FLOAT32: {
			float x = isnull ? 0 : (float)v->u.f;
			put(&b, &x, 4);
			break;
		}
		case TYPE_FLOAT64: {
			double x = isnull ? 0 : v->u.f;
			put(&b, &x, 8);
			break;
		}
		case TYPE_INTERVAL:
			put(&b, isnull ? (const void *)zeros : (const void *)&v->u.iv, sizeof(Interval));
			break;
		case TYPE_UUID:
			put(&b, isnull ? (const void *)zeros : (const void *)&v->u.uuid, sizeof(Uuid));
			break;
		default:
			(void)w;
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "arrays of this element type are not supported");
		}
	}
	if (b.len > UINT32_MAX)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed");
	*out = strview_make(b.p, (uint32_t)b.len);
	return FLOE_OK;
}

static int
corrupt(floe_error *err)
{
	return FLOE_CORRUPT(err, "corrupt array value");
}

int
array_decode(const strview *s, SqlType arrtype, Arena *a, Value **vals, uint32_t *n,
	     floe_error *err)
{
	SqlType et = array_elem_type(arrtype);
	const char *p = strview_data(s), *end = p + s->len;
	const uint8_t *nulls = NULL;
	uint8_t flags;
	uint32_t cnt, i;
	size_t w = type_width(et.id);
	Value *v;

	if (s->len < 5)
		return corrupt(err);
	flags = (uint8_t)p[0];
	memcpy(&cnt, p + 1, 4);
	p += 5;
	if (flags & 1) {
		if ((size_t)(end - p) < (cnt + 7) / 8)
			return corrupt(err);
		nulls = (const uint8_t *)p;
		p += (cnt + 7) / 8;
	}
	if (cnt > (size_t)(end - p))      /* every element takes at least one byte */
		return corrupt(err);
	v = ARENA_ARRAY(a, Value, cnt + 1);
	for (i = 0; i < cnt; i++) {
		Value *x = &v[i];
		memset(x, 0, sizeof *x);
		x->type = et;
		x->is_null = nulls && (nulls[i / 8] >> (i & 7)) & 1;
		switch (et.id) {
		case TYPE_DECIMAL:
			if (end - p < 17)
				return corrupt(err);
			memcpy(&x->u.d, p, 16);
			x->type.scale = (uint8_t)p[16];
			p += 17;
			break;
		case TYPE_TEXT: case TYPE_BYTEA: {
			uint32_t l;
			if (end - p < 4)
				return corrupt(err);
			memcpy(&l, p, 4);
			p += 4;
			if ((size_t)(end - p) < l)
				return corrupt(err);
			x->u.s = strview_make(p, l);
			p += l;
			break;
		}
		default:
			if ((size_t)(end - p) < w)
				return corrupt(err);
			switch (et.id) {
			case TYPE_BOOL: x->u.b = *p != 0; break;
			case TYPE_INT16: { int16_t y; memcpy(&y, p, 2); x->u.i = y; break; }
			case TYPE_INT32: case TYPE_DATE: { int32_t y; memcpy(&y, p, 4); x->u.i = y; break; }
			case TYPE_FLOAT32: { float y; memcpy(&y, p, 4); x->u.f = y; break; }
			case TYPE_FLOAT64: memcpy(&x->u.f, p, 8); break;
			case TYPE_INTERVAL: memcpy(&x->u.iv, p, sizeof(Interval)); break;
			case TYPE_UUID: memcpy(&x->u.uuid, p, sizeof(Uuid)); break;
			default: memcpy(&x->u.i, p, 8); break;
			}
			p += w;
			break;
		}
	}
	*vals = v;
	*n = cnt;
	return FLOE_OK;
}

int
array_elem_value(const Value *in, SqlType want, Value *out, floe_error *err)
{
	*out = *in;
	if (in->is_null) {
		out->type = want;
		return FLOE_OK;
	}
	if (want.id == TYPE_DECIMAL && in->type.id == TYPE_DECIMAL) {
		int own = in->type.scale;
		if (own > want.scale) {
			/* numeric(p,s) elements are stored at s; an unconstrained
			 * target narrower than the element rounds (never happens
			 * for the element type itself) */
			TRY(decimal_rescale(in->u.d, own, want.scale, &out->u.d, err));
			out->dzeros = 0;
		} else {
			TRY(decimal_rescale(in->u.d, own, want.scale, &out->u.d, err));
			out->dzeros = (uint8_t)(want.scale - own);
		}
	}
	out->type = want;
	return FLOE_OK;
}

/* ---- comparison -------------------------------------------------------- */

static int
cmp3(double x, double y)
{
	bool nx = isnan(x), ny = isnan(y);
	if (nx || ny)
		return nx && ny ? 0 : nx ? 1 : -1;
	return x < y ? -1 : x > y;
}

int
array_value_compare(const Value *x, const Value *y)
{
	if (x->is_null || y->is_null)
		return x->is_null && y->is_null ? 0 : x->is_null ? 1 : -1;
	switch (x->type.id) {
	case TYPE_BOOL:
		return (int)x->u.b - (int)y->u.b;
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		return cmp3(x->u.f, y->u.f);
	case TYPE_DECIMAL:
		return decimal_cmp(x->u.d, x->type.scale, y->u.d, y->type.scale);
	case TYPE_TEXT: case TYPE_BYTEA:
		if (x->type.text_kind == TEXT_CHAR) {
			/* bpchar: trailing spaces do not count */
			const char *a = strview_data(&x->u.s), *b = strview_data(&y->u.s);
			uint32_t la = x->u.s.len, lb = y->u.s.len, m;
			int c;
			while (la && a[la - 1] == ' ')
				la--;
			while (lb && b[lb - 1] == ' ')
				lb--;
			m = la < lb ? la : lb;
			c = m ? memcmp(a, b, m) : 0;
			return c ? (c < 0 ? -1 : 1) : la < lb ? -1 : la > lb;
		}
		return strview_cmp(&x->u.s, &y->u.s);
	case TYPE_INTERVAL: {
		const Interval *a = &x->u.iv, *b = &y->u.iv;
		int128 sa = ((int128)a->months * 30 + a->days) * (int128)86400000000LL + a->micros;
		int128 sb = ((int128)b->months * 30 + b->days) * (int128)86400000000LL + b->micros;
		return sa < sb ? -1 : sa > sb;
	}
	case TYPE_UUID: {
		int c = memcmp(&x->u.uuid, &y->u.uuid, sizeof(Uuid));
		return c < 0 ? -1 : c > 0;
	}
	default:
		return x->u.i < y->u.i ? -1 : x->u.i > y->u.i;
	}
}

int
array_compare(const strview *x, const strview *y, SqlType arrtype)
{
	Arena *a = arena_new(0);
	floe_error err;
	Value *vx, *vy;
	uint32_t nx, ny, i;
	int c = 0;

	if (array_decode(x, arrtype, a, &vx, &nx, &err) != FLOE_OK ||
	    array_decode(y, arrtype, a, &vy, &ny, &err) != FLOE_OK) {
		arena_free(a);
		return strview_cmp(x, y);
	}
	for (i = 0; i < nx && i < ny && !c; i++)
		c = array_value_compare(&vx[i], &vy[i]);
	if (!c)
		c = nx < ny ? -1 : nx > ny;
	arena_free(a);
	return c;
}

/* ---- text output ------------------------------------------------------- */

static bool
is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

const char *
array_elem_out(const Value *v, Arena *a, size_t *len)
{
	const char *s;
	size_t n, i, k;
	bool quote;
	char *r;

	if (v->is_null || v->type.id == TYPE_NULL) {
		*len = 4;
		return "NULL";
	}
	s = value_to_text(v, a, &n);
	quote = n == 0 || (n == 4 && strncasecmp(s, "null", 4) == 0);
	for (i = 0; i < n && !quote; i++)
		if (s[i] == '"' || s[i] == '\\' || s[i] == '{' || s[i] == '}' || s[i] == ',' ||
		    is_ws(s[i]))
			quote = true;
	if (!quote) {
		*len = n;
		return s;
	}
	r = arena_alloc(a, 2 * n + 3);
	k = 0;
	r[k++] = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			r[k++] = '\\';
		r[k++] = s[i];
	}
	r[k++] = '"';
	r[k] = 0;
	*len = k;
	return r;
}

const char *
array_to_text(const strview *s, SqlType arrtype, Arena *a, size_t *len)
{
	floe_error err;
	Value *v;
	uint32_t n, i;
	Buf b = { a, NULL, 0, 0 };

	if (array_decode(s, arrtype, a, &v, &n, &err) != FLOE_OK) {
		*len = 0;
		return "";
	}
	if (arrtype.vector) {
		/* int2vectorout / oidvectorout: "1 2", no braces, no NULLs;
		 * record_out of (x, n): "(5,1)", a NULL field empty */
		put(&b, "(", arrtype.vector == ARRAY_RECORD);
		for (i = 0; i < n; i++) {
			size_t l = 0;
			const char *t = v[i].is_null ? "" : array_elem_out(&v[i], a, &l);
			if (i)
				put(&b, arrtype.vector == ARRAY_RECORD ? "," : " ", 1);
			put(&b, t, l);
		}
		put(&b, ")", arrtype.vector == ARRAY_RECORD);
		put(&b, "", 1);
		*len = b.len - 1;
		return b.p;
	}
	put(&b, "{", 1);
	for (i = 0; i < n; i++) {
		size_t l;
		const char *t = array_elem_out(&v[i], a, &l);
		if (i)
			put(&b, ",", 1);
		put(&b, t, l);
	}
	put(&b, "}", 2);
	*len = b.len - 1;
	return b.p;
}

/* ---- text input -------------------------------------------------------- */

static int
malformed(floe_error *err, const char *s, size_t n, const char *detail, char c)
{
	floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION, "malformed array literal: \"%.*s\"",
		    (int)n, s);
	if (c)
		return floe_error_detail(err, detail, c);
	return floe_error_detail(err, "%s", detail);
}

int
array_from_text(const char *s, size_t n, SqlType arrtype, Arena *a, strview *out,
		floe_error *err)
{
	SqlType et = array_elem_type(arrtype);
	size_t i = 0, nv = 0, cap = 8;
	Value *vals;
	char *tok = arena_alloc(a, n + 1);

	if (arrtype.vector == ARRAY_RECORD)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "input of anonymous composite types is not implemented");
	if (arrtype.vector) {
		/* int2vectorin / oidvectorin: integers separated by spaces */
		vals = ARENA_ARRAY(a, Value, n / 2 + 1);
		for (;;) {
			size_t st;
			while (i < n && is_ws(s[i]))
				i++;
			if (i >= n)
				break;
			st = i;
			while (i < n && !is_ws(s[i]))
				i++;
			TRY(value_from_text(&vals[nv], et, s + st, i - st, a, err));
			nv++;
		}
		return array_encode(a, arrtype, vals, (uint32_t)nv, out, err);
	}
	while (i < n && is_ws(s[i]))
		i++;
	if (i < n && s[i] == '[')
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "array lower bounds other than 1 are not supported");
	if (i >= n || s[i] != '{')
		return malformed(err, s, n, "Array value must start with \"{\" or dimension information.", 0);
	i++;
	vals = ARENA_ARRAY(a, Value, cap);
	while (i < n && is_ws(s[i]))
		i++;
	if (i < n && s[i] == '}') {
		i++;
		goto done;
	}
	for (;;) {
		size_t k = 0, keep = 0;
		bool quoted = false, escaped = false;

		while (i < n && is_ws(s[i]))
			i++;
		if (i >= n)
			return malformed(err, s, n, "Unexpected end of input.", 0);
		if (s[i] == '{') {
			if (nv == 0)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "multidimensional arrays are not supported");
			return malformed(err, s, n, "Unexpected \"%c\" character.", '{');
		}
		if (s[i] == ',' || s[i] == '}')
			return malformed(err, s, n, "Unexpected \"%c\" character.", s[i]);
		if (s[i] == '"') {
			quoted = true;
			i++;
			for (;;) {
				if (i >= n)
					return malformed(err, s, n, "Unexpected end of input.", 0);
				if (s[i] == '\\') {
					if (++i >= n)
						return malformed(err, s, n, "Unexpected end of input.", 0);
					tok[k++] = s[i++];
				} else if (s[i] == '"') {
					i++;
					break;
				} else {
					tok[k++] = s[i++];
				}
			}
			keep = k;
			while (i < n && is_ws(s[i]))
				i++;
		} else {
			for (;;) {
				if (i >= n)
					return malformed(err, s, n, "Unexpected end of input.", 0);
				if (s[i] == ',' || s[i] == '}')
					break;
				if (s[i] == '"' || s[i] == '{')
					return malformed(err, s, n, "Unexpected \"%c\" character.", s[i]);
				if (s[i] == '\\') {
					if (++i >= n)
						return malformed(err, s, n, "Unexpected end of input.", 0);
					escaped = true;
					tok[k++] = s[i++];
					keep = k;
				} else {
					tok[k++] = s[i];
					if (!is_ws(s[i]))
						keep = k;
					i++;
				}
			}
		}
		if (i >= n)
			return malformed(err, s, n, "Unexpected end of input.", 0);
		if (s[i] != ',' && s[i] != '}')
			return malformed(err, s, n, "Unexpected array element.", 0);
		if (nv == cap) {
			vals = arena_realloc(a, vals, cap * sizeof(Value), cap * 2 * sizeof(Value));
			cap *= 2;
		}
		if (!quoted && !escaped && keep == 4 && strncasecmp(tok, "null", 4) == 0) {
			vals[nv] = value_null(et);
		} else if (et.id == TYPE_TEXT && et.typmod >= 0) {
			/* varchar(n)/char(n) elements: the length rule of an
			 * assignment, as value_from_text of a scalar (22001 unless
			 * the excess is spaces); an explicit cast of the text cuts
			 * (array_cast) */
			Value tv;
			TRY(value_from_text(&tv, type_make(TYPE_TEXT), tok, keep, a, err));
			TRY(cast_value_ex(&vals[nv], &tv, et, 0, a, err));
		} else if (value_from_text(&vals[nv], et, tok, keep, a, err) != FLOE_OK) {
			return FLOE_ERR;
		}
		nv++;
		if (s[i++] == '}')
			break;
	}
done:
	while (i < n && is_ws(s[i]))
		i++;
	if (i < n)
		return malformed(err, s, n, "Junk after closing right brace.", 0);
	return array_encode(a, arrtype, vals, (uint32_t)nv, out, err);
}

/* ---- casts ------------------------------------------------------------- */

int
array_cast(const strview *in, SqlType from, SqlType to, int flags, Arena *a, strview *out,
	   floe_error *err)
{
	SqlType te = array_elem_type(to);
	Value *v, *r;
	uint32_t n, i;

	TRY(array_decode(in, from, a, &v, &n, err));
	r = ARENA_ARRAY(a, Value, n + 1);
	for (i = 0; i < n; i++) {
		if (v[i].is_null) {
			r[i] = value_null(te);
			continue;
		}
		TRY(cast_value_ex(&r[i], &v[i], te, flags, a, err));
	}
	return array_encode(a, to, r, n, out, err);
}

int
array_trim_numeric(const strview *in, SqlType arrtype, Arena *a, strview *out, floe_error *err)
{
	Value *vals;
	uint32_t n, e;

	TRY(array_decode(in, arrtype, a, &vals, &n, err));
	for (e = 0; e < n; e++) {
		int128 x = vals[e].u.d;
		uint8_t z = 0;
		if (vals[e].is_null || vals[e].type.id != TYPE_DECIMAL)
			continue;
		while (z < vals[e].type.scale && x % 10 == 0) {
			x /= 10;
			z++;
		}
		vals[e].dzeros = z;
	}
	return array_encode(a, arrtype, vals, n, out, err);
}
