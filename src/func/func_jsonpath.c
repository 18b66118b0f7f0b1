/*
 * func_jsonpath.c — PostgreSQL 15's SQL/JSON path functions and operators:
 *
 *   jsonb_path_exists(target, path [, vars [, silent]])   boolean
 *   jsonb_path_match(target, path [, vars [, silent]])    boolean (the path's
 *                                      single boolean result; 22038 otherwise)
 *   jsonb_path_query(...)              setof jsonb (__floe_jsonb_path_query:
 *                                      the rows as one jsonb[], select.c unnests)
 *   jsonb_path_query_array(...)        jsonb (the items as an array)
 *   jsonb_path_query_first(...)        jsonb (the first item, or NULL)
 *   jsonb @? jsonpath, jsonb @@ jsonpath   exists / match, silent, no vars
 *   the _tz variants: the same functions (they differ only in datetime
 *   comparisons, and .datetime() is refused)
 *
 * Evaluation follows PostgreSQL 15's documented semantics (9.16.2): lax
 * mode unwraps arrays for accessors, methods and operands and ignores
 * structural errors (a missing key, .a of a scalar); strict mode reports
 * them (2203A member not found, 2203C object not found, 22039 array not
 * found, 22033 invalid subscript).  Predicates are three-valued (unknown
 * for incomparable items and for errors inside them); a lax predicate is
 * true as soon as one pair of items satisfies it, a strict one is unknown
 * when any pair is unknown.  silent => true suppresses the errors the
 * evaluation may report (22033, 22036, 22038, 2203x, 22012), not
 * "could not find jsonpath variable" (42704) nor a non-object vars (22023).
 * The operators have no vars: a variable there is null.
 * Arithmetic is exact numeric arithmetic (types/bignum.h) with numeric's
 * scales.  .keyvalue() ids are PostgreSQL's: the byte offset of the object
 * inside its document's binary jsonb form (computed from the tree: jsonb's
 * container headers, 4-byte entries, int-aligned numerics and containers),
 * plus 10000000000 times the base object's number (0 the document, 1 vars,
 * then each generated key/value object).  .datetime() is refused by name
 * (0A000) once it reaches a string.
 *
 * INTERFACE ROUTINES
 *   func_jsonpath_resolve(name, argtypes, nargs, &fn, &ret, cast_to, &handled, err)
 *     (called by func_json_resolve; argument kinds: jsonb, jsonpath, bool)
 *
 * Invariants: each row's trees and items live in a scratch arena reset per
 * row; evaluation checks the stack at each level (54001, never silenced); a constant path is parsed once per call; results are copied into
 * the output vector.
 */
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/stack.h"
#include "func/func_internal.h"
#include "types/array.h"
#include "types/bignum.h"
#include "types/json.h"
#include "types/jsonpath.h"

/* ---- evaluation ---------------------------------------------------------- */

typedef enum { R_OK = 0, R_NOTFOUND, R_ERROR, R_THROW } Res;
typedef enum { B_FALSE = 0, B_TRUE, B_UNKNOWN, B_THROW } Bool3;

typedef struct List {
	const JsonNode **v;
	uint32_t n, cap;
} List;

typedef struct Cx {
	Arena *a;
	floe_error *err;
	const JsonNode *root;
	const JsonNode *vars;        /* an object, or NULL (@? @@) */
	const JsonNode *current;
	bool lax;
	bool ignore_structural;
	bool throw_errors;
	int innermost_size;          /* for last; -1 outside subscripts */
	const JsonNode *base;        /* .keyvalue()'s base object */
	int64_t base_id;
	int64_t last_gen_id;
} Cx;

#define ERR(cx, code, ...) do { \
	if ((cx)->throw_errors) { floe_errorf((cx)->err, code, __VA_ARGS__); return R_THROW; } \
	return R_ERROR; } while (0)

static bool
is_err(Res r)
{
	return r == R_ERROR || r == R_THROW;
}

static void
list_add(Cx *cx, List *l, const JsonNode *v)
{
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 8;
		const JsonNode **nv = arena_alloc(cx->a, sizeof *nv * cap);
		if (l->n)
			memcpy(nv, l->v, sizeof *nv * l->n);
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n++] = v;
}

static JsonNode *
mk(Cx *cx, int kind)
{
	JsonNode *v = ARENA_NEW(cx->a, JsonNode);
	memset(v, 0, sizeof *v);
	v->kind = (uint8_t)kind;
	return v;
}

static JsonNode *
mk_num(Cx *cx, const char *s, size_t n)
{
	JsonNode *v = mk(cx, JV_NUMBER);
	v->s = s;
	v->len = n;
	return v;
}

static JsonNode *
mk_str(Cx *cx, const char *s, size_t n)
{
	JsonNode *v = mk(cx, JV_STRING);
	v->s = s;
	v->len = n;
	return v;
}

static JsonNode *
mk_bignum(Cx *cx, const BigNum *x)
{
	size_t n;
	const char *s = bignum_text(x, cx->a, &n);
	return mk_num(cx, s, n);
}

static bool
is_bool(const JsonNode *v)
{
	return v->kind == JV_TRUE || v->kind == JV_FALSE;
}

static const char *
type_name_of(const JsonNode *v)
{
	switch (v->kind) {
	case JV_NULL: return "null";
	case JV_STRING: return "string";
	case JV_NUMBER: return "number";
	case JV_TRUE: case JV_FALSE: return "boolean";
	case JV_ARRAY: return "array";
	default: return "object";
	}
}

static Res exec_item(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found, bool unwrap);
static Bool3 exec_bool(Cx *cx, const JpItem *jsp, const JsonNode *jb, bool can_have_next);

static Res
exec(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found)
{
	return exec_item(cx, jsp, jb, found, cx->lax);
}

static Res
exec_next(Cx *cx, const JpItem *cur, const JsonNode *v, List *found)
{
	if (cur->next)
		return exec(cx, cur->next, v, found);
	if (found)
		list_add(cx, found, v);
	return R_OK;
}

/* jsp over jb, array items of the result unwrapped (lax) */
static Res
exec_unwrap_result(Cx *cx, const JpItem *jsp, const JsonNode *jb, bool unwrap, List *found)
{
	if (unwrap && cx->lax) {
		List seq = { 0 };
		Res r = exec(cx, jsp, jb, &seq);
		if (is_err(r))
			return r;
		for (uint32_t i = 0; i < seq.n; i++) {
			const JsonNode *v = seq.v[i];
			if (v->kind == JV_ARRAY)
				for (uint32_t k = 0; k < v->n; k++)
					list_add(cx, found, &v->kids[k]);
			else
				list_add(cx, found, v);
		}
		return R_OK;
	}
	return exec(cx, jsp, jb, found);
}

/* the same with errors not thrown */
static Res
exec_unwrap_result_nothrow(Cx *cx, const JpItem *jsp, const JsonNode *jb, bool unwrap,
			   List *found)
{
	bool t = cx->throw_errors;
	Res r;
	cx->throw_errors = false;
	r = exec_unwrap_result(cx, jsp, jb, unwrap, found);
	cx->throw_errors = t;
	return r;
}

/* jsp applied to each element of array jb */
static Res
unwrap_target_array(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found, bool unwrap_elems)
{
	Res res = R_NOTFOUND;
	for (uint32_t i = 0; i < jb->n; i++) {
		Res r = exec_item(cx, jsp, &jb->kids[i], found, unwrap_elems);
		if (is_err(r))
			return r;
		if (r == R_OK) {
			if (!found)
				return R_OK;
			res = R_OK;
		}
	}
	return res;
}

/* the values (object) / elements (array) of container jbc from level on */
static Res
exec_any(Cx *cx, const JpItem *jsp, const JsonNode *jbc, List *found, uint32_t level,
	 uint32_t first, uint32_t last, bool ignore_structural, bool unwrap_next)
{
	Res res = R_NOTFOUND;
	if (level > last)
		return res;
	bool obj = jbc->kind == JV_OBJECT;
	for (uint32_t i = 0; i < jbc->n; i++) {
		const JsonNode *v = obj ? &jbc->kids[2 * i + 1] : &jbc->kids[i];
		bool container = v->kind == JV_ARRAY || v->kind == JV_OBJECT;
		if (level >= first || (first == JP_LAST_LEVEL && last == JP_LAST_LEVEL && !container)) {
			if (jsp) {
				bool saved = cx->ignore_structural;
				if (ignore_structural)
					cx->ignore_structural = true;
				res = exec_item(cx, jsp, v, found, unwrap_next);
				cx->ignore_structural = saved;
				if (is_err(res))
					return res;
				if (res == R_OK && !found)
					return res;
			} else if (found) {
				list_add(cx, found, v);
				res = R_OK;
			} else {
				return R_OK;
			}
		}
		if (level < last && container) {
			res = exec_any(cx, jsp, v, found, level + 1, first, last, ignore_structural,
				       unwrap_next);
			if (is_err(res))
				return res;
			if (res == R_OK && !found)
				return res;
		}
	}
	return res;
}

/* an array subscript expression's value as an int (truncated) */
static Res
array_index(Cx *cx, const JpItem *jsp, const JsonNode *jb, int32_t *idx)
{
	List found = { 0 };
	Res r = exec(cx, jsp, jb, &found);
	if (is_err(r))
		return r;
	if (found.n != 1 || found.v[0]->kind != JV_NUMBER)
		ERR(cx, ERRCODE_INVALID_SQL_JSON_SUBSCRIPT,
		    "jsonpath array subscript is not a single numeric value");
	{
		BigNum x, t;
		size_t n;
		const char *s;
		bignum_parse(found.v[0]->s, found.v[0]->len, cx->a, &x);
		/* trunc: drop the fraction */
		t = x;
		t.n = x.n > (size_t)x.scale ? x.n - (size_t)x.scale : 0;
		t.scale = 0;
		if (!t.n)
			t.neg = false;
		s = bignum_text(&t, cx->a, &n);
		long long v = n > 12 ? (t.neg ? -1LL : 1LL) << 40 : strtoll(s, NULL, 10);
		if (v > INT32_MAX || v < INT32_MIN)
			ERR(cx, ERRCODE_INVALID_SQL_JSON_SUBSCRIPT,
			    "jsonpath array subscript is out of integer range");
		*idx = (int32_t)v;
	}
	return R_OK;
}

/* ---- .keyvalue() ids: offsets in PostgreSQL's binary jsonb -------------- */

static long
pad4(long off)
{
	return (off + 3) & ~3L;
}

/* VARSIZE of numeric_in's datum for a numeric_out text */
static long
numeric_size(const char *s, size_t n)
{
	size_t i = 0, ip = 0, fp = 0, k;
	const char *ints, *frac = "";
	if (i < n && s[i] == '-')
		i++;
	ints = s + i;
	while (i < n && s[i] != '.') {
		i++;
		ip++;
	}
	if (i < n) {
		frac = s + i + 1;
		fp = n - i - 1;
	}
	while (ip && *ints == '0') {
		ints++;
		ip--;
	}
	/* base-10000 groups: integer digits from the point leftwards,
	 * fraction digits rightwards */
	long ig = (long)(ip + 3) / 4, fg = (long)(fp + 3) / 4, ng = ig + fg;
	int *g = calloc((size_t)(ng ? ng : 1), sizeof(int));
	if (!g)
		abort();
	for (k = 0; k < ip; k++) {
		size_t pos = ip - 1 - k;             /* digit's power of ten */
		long gi = ig - 1 - (long)(pos / 4);
		int mul = pos % 4 == 0 ? 1 : pos % 4 == 1 ? 10 : pos % 4 == 2 ? 100 : 1000;
		g[gi] += (ints[k] - '0') * mul;
	}
	for (k = 0; k < fp; k++) {
		long gi = ig + (long)(k / 4);
		int mul = k % 4 == 0 ? 1000 : k % 4 == 1 ? 100 : k % 4 == 2 ? 10 : 1;
		g[gi] += (frac[k] - '0') * mul;
	}
	long lo = 0, hi = ng;
	while (lo < hi && g[lo] == 0)
		lo++;
	while (hi > lo && g[hi - 1] == 0)
		hi--;
	free(g);
	long ndigits = hi - lo, weight = lo < hi ? ig - 1 - lo : 0;
	bool shrt = fp <= 63 && weight <= 63 && weight >= -64;
	return 4 + (shrt ? 2 : 4) + 2 * ndigits;
}

/* lay out container v at *off; *found = target's offset when met */
static void
layout(const JsonNode *v, long *off, const JsonNode *target, long *found)
{
	uint32_t i, nv = v->kind == JV_OBJECT ? v->n : v->n;
	if (v == target)
		*found = *off;
	*off += 4 + 4 * (long)(v->kind == JV_OBJECT ? 2 * v->n : v->n);
	if (v->kind == JV_OBJECT)
		for (i = 0; i < v->n; i++)
			*off += (long)v->kids[2 * i].len;
	for (i = 0; i < nv; i++) {
		const JsonNode *e = v->kind == JV_OBJECT ? &v->kids[2 * i + 1] : &v->kids[i];
		switch (e->kind) {
		case JV_STRING: *off += (long)e->len; break;
		case JV_NUMBER:
			*off = pad4(*off);
			*off += numeric_size(e->s, e->len);
			break;
		case JV_ARRAY: case JV_OBJECT:
			*off = pad4(*off);
			layout(e, off, target, found);
			break;
		default: break;
		}
	}
}

static int64_t
object_offset(const JsonNode *base, const JsonNode *obj)
{
	long off = 0, found = 0;
	if (!base || (base->kind != JV_ARRAY && base->kind != JV_OBJECT))
		return 0;
	layout(base, &off, obj, &found);
	return found;
}

static Res
exec_keyvalue(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found)
{
	Res res = R_NOTFOUND;
	int64_t id;
	char idbuf[32];
	if (jb->kind != JV_OBJECT)
		ERR(cx, ERRCODE_SQL_JSON_OBJECT_NOT_FOUND,
		    "jsonpath item method .keyvalue() can only be applied to an object");
	if (!jb->n)
		return R_NOTFOUND;
	id = object_offset(cx->base, jb) + cx->base_id * INT64_C(10000000000);
	snprintf(idbuf, sizeof idbuf, "%lld", (long long)id);
	for (uint32_t i = 0; i < jb->n; i++) {
		JsonNode *o = mk(cx, JV_OBJECT);
		const JsonNode *saved_base = cx->base;
		int64_t saved_id = cx->base_id;
		Res r;
		o->n = 3;
		o->kids = arena_alloc(cx->a, sizeof(JsonNode) * 6);
		memset(o->kids, 0, sizeof(JsonNode) * 6);
		/* keys in jsonb order: "id", "key", "value" */
		o->kids[0] = *mk_str(cx, "id", 2);
		o->kids[1] = *mk_num(cx, arena_strdup(cx->a, idbuf), strlen(idbuf));
		o->kids[2] = *mk_str(cx, "key", 3);
		o->kids[3] = jb->kids[2 * i];
		o->kids[4] = *mk_str(cx, "value", 5);
		o->kids[5] = jb->kids[2 * i + 1];
		cx->base = o;
		cx->base_id = cx->last_gen_id++;
		r = exec_next(cx, jsp, o, found);
		cx->base = saved_base;
		cx->base_id = saved_id;
		if (is_err(r))
			return r;
		if (r == R_OK) {
			if (!found)
				return R_OK;
			res = R_OK;
		}
	}
	return res;
}

/* ---- arithmetic ---------------------------------------------------------- */

static const char *
arith_name(int t)
{
	switch (t) {
	case JPI_ADD: return "+";
	case JPI_SUB: return "-";
	case JPI_MUL: return "*";
	case JPI_DIV: return "/";
	case JPI_MOD: return "%";
	case JPI_PLUS: return "+";
	default: return "-";
	}
}

static Res
exec_binary_arith(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found)
{
	List l = { 0 }, r = { 0 };
	Res res;
	BigNum x, y, z;
	res = exec_unwrap_result(cx, jsp->left, jb, true, &l);
	if (is_err(res))
		return res;
	res = exec_unwrap_result(cx, jsp->right, jb, true, &r);
	if (is_err(res))
		return res;
	if (l.n != 1 || l.v[0]->kind != JV_NUMBER)
		ERR(cx, ERRCODE_SINGLETON_SQL_JSON_ITEM_REQUIRED,
		    "left operand of jsonpath operator %s is not a single numeric value",
		    arith_name(jsp->type));
	if (r.n != 1 || r.v[0]->kind != JV_NUMBER)
		ERR(cx, ERRCODE_SINGLETON_SQL_JSON_ITEM_REQUIRED,
		    "right operand of jsonpath operator %s is not a single numeric value",
		    arith_name(jsp->type));
	bignum_parse(l.v[0]->s, l.v[0]->len, cx->a, &x);
	bignum_parse(r.v[0]->s, r.v[0]->len, cx->a, &y);
	switch (jsp->type) {
	case JPI_ADD: bignum_add(&x, &y, cx->a, &z); break;
	case JPI_SUB: bignum_sub(&x, &y, cx->a, &z); break;
	case JPI_MUL: bignum_mul(&x, &y, cx->a, &z); break;
	case JPI_DIV:
		if (!bignum_div(&x, &y, cx->a, &z))
			ERR(cx, ERRCODE_DIVISION_BY_ZERO, "division by zero");
		break;
	default:
		if (!bignum_mod(&x, &y, cx->a, &z))
			ERR(cx, ERRCODE_DIVISION_BY_ZERO, "division by zero");
		break;
	}
	if (!jsp->next && !found)
		return R_OK;
	return exec_next(cx, jsp, mk_bignum(cx, &z), found);
}

static Res
exec_unary_arith(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found)
{
	List seq = { 0 };
	Res res = exec_unwrap_result(cx, jsp->left, jb, true, &seq);
	bool has_next = jsp->next != NULL;
	if (is_err(res))
		return res;
	res = R_NOTFOUND;
	for (uint32_t i = 0; i < seq.n; i++) {
		const JsonNode *v = seq.v[i];
		Res r;
		if (v->kind == JV_NUMBER) {
			if (!found && !has_next)
				return R_OK;
		} else {
			if (!found && !has_next)
				continue;
			ERR(cx, ERRCODE_SQL_JSON_NUMBER_NOT_FOUND,
			    "operand of unary jsonpath operator %s is not a numeric value",
			    arith_name(jsp->type));
		}
		if (jsp->type == JPI_MINUS) {
			BigNum x, y;
			bignum_parse(v->s, v->len, cx->a, &x);
			bignum_neg(&x, &y);
			v = mk_bignum(cx, &y);
		}
		r = exec_next(cx, jsp, v, found);
		if (is_err(r))
			return r;
		if (r == R_OK) {
			if (!found)
				return R_OK;
			res = R_OK;
		}
	}
	return res;
}

/* ---- item methods -------------------------------------------------------- */

static const char *
method_name(int t)
{
	switch (t) {
	case JPI_ABS: return "abs";
	case JPI_FLOOR: return "floor";
	case JPI_CEILING: return "ceiling";
	case JPI_DOUBLE: return "double";
	case JPI_SIZE: return "size";
	case JPI_KEYVALUE: return "keyvalue";
	case JPI_DATETIME: return "datetime";
	default: return "type";
	}
}

/* float8 -> numeric as PostgreSQL's float8_numeric: %.15g then numeric_in */
static JsonNode *
double_node(Cx *cx, double d)
{
	char buf[64];
	const char *out;
	size_t n;
	floe_error e;
	snprintf(buf, sizeof buf, "%.15g", d);
	if (pgjson_numeric_text(buf, strlen(buf), cx->a, &out, &n, &e) != FLOE_OK)
		return mk_num(cx, "0", 1);
	return mk_num(cx, out, n);
}

/* float8in: optional spaces, what strtod takes (inf, nan, hex too), optional
 * spaces; out of range is an error */
static bool
parse_double(const char *s, size_t n, double *out)
{
	char sbuf[512], *buf = sbuf, *end;
	size_t b = 0, e = n;
	bool ok;
	if (n >= sizeof sbuf && !(buf = malloc(n + 1)))
		abort();
	while (b < e && strchr(" \t\n\r\f\v", s[b]))
		b++;
	while (e > b && strchr(" \t\n\r\f\v", s[e - 1]))
		e--;
	memcpy(buf, s + b, e - b);
	buf[e - b] = 0;
	errno = 0;
	*out = strtod(buf, &end);
	ok = b < e && !*end && !(errno == ERANGE && (*out == 0.0 || isinf(*out)));
	if (buf != sbuf)
		free(buf);
	return ok;
}

static Res
exec_numeric_method(Cx *cx, const JpItem *jsp, const JsonNode *jb, bool unwrap, List *found)
{
	BigNum x, z;
	if (unwrap && jb->kind == JV_ARRAY)
		return unwrap_target_array(cx, jsp, jb, found, false);
	if (jb->kind != JV_NUMBER)
		ERR(cx, ERRCODE_NON_NUMERIC_SQL_JSON_ITEM,
		    "jsonpath item method .%s() can only be applied to a numeric value",
		    method_name(jsp->type));
	bignum_parse(jb->s, jb->len, cx->a, &x);
	if (jsp->type == JPI_ABS)
		bignum_abs(&x, &z);
	else if (jsp->type == JPI_FLOOR)
		bignum_floor(&x, cx->a, &z);
	else
		bignum_ceil(&x, cx->a, &z);
	return exec_next(cx, jsp, mk_bignum(cx, &z), found);
}

/* ---- predicates ---------------------------------------------------------- */

static int
str_cmp(const JsonNode *a, const JsonNode *b)
{
	size_t m = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->s, b->s, m);
	if (c)
		return c < 0 ? -1 : 1;
	return a->len < b->len ? -1 : a->len > b->len;
}

static Bool3
compare_items(int op, const JsonNode *a, const JsonNode *b)
{
	int cmp;
	int ka = is_bool(a) ? JV_TRUE : a->kind, kb = is_bool(b) ? JV_TRUE : b->kind;
	if (ka != kb) {
		if (a->kind == JV_NULL || b->kind == JV_NULL)
			return op == JPI_NE ? B_TRUE : B_FALSE;
		return B_UNKNOWN;
	}
	switch (a->kind) {
	case JV_NULL: cmp = 0; break;
	case JV_TRUE: case JV_FALSE:
		cmp = a->kind == b->kind ? 0 : a->kind == JV_TRUE ? 1 : -1;
		break;
	case JV_NUMBER: cmp = pgjson_number_cmp(a->s, a->len, b->s, b->len); break;
	case JV_STRING:
		if (op == JPI_EQ)
			return a->len == b->len && !memcmp(a->s, b->s, a->len) ? B_TRUE : B_FALSE;
		cmp = str_cmp(a, b);
		break;
	default:
		return B_UNKNOWN;    /* arrays and objects are not comparable */
	}
	switch (op) {
	case JPI_EQ: return cmp == 0 ? B_TRUE : B_FALSE;
	case JPI_NE: return cmp != 0 ? B_TRUE : B_FALSE;
	case JPI_LT: return cmp < 0 ? B_TRUE : B_FALSE;
	case JPI_GT: return cmp > 0 ? B_TRUE : B_FALSE;
	case JPI_LE: return cmp <= 0 ? B_TRUE : B_FALSE;
	default: return cmp >= 0 ? B_TRUE : B_FALSE;
	}
}

typedef struct PredCtx {
	const JpItem *jsp;
	regex_t re;
	bool have_re;
	floe_error *err;
} PredCtx;

static Bool3
pred_one(Cx *cx, PredCtx *pc, const JsonNode *l, const JsonNode *r)
{
	const JpItem *jsp = pc->jsp;
	switch (jsp->type) {
	case JPI_STARTSWITH:
		if (l->kind != JV_STRING || r->kind != JV_STRING)
			return B_UNKNOWN;
		return l->len >= r->len && !memcmp(l->s, r->s, r->len) ? B_TRUE : B_FALSE;
	case JPI_LIKEREGEX:
		if (l->kind != JV_STRING)
			return B_UNKNOWN;
		if (!pc->have_re) {
			if (jsonpath_regex_compile(&pc->re, jsp->s, jsp->len, jsp->flags, cx->err) != FLOE_OK)
				return B_THROW;
			pc->have_re = true;
		}
		return jsonpath_regex_match(&pc->re, l->s, l->len) ? B_TRUE : B_FALSE;
	default:
		return compare_items(jsp->type, l, r);
	}
}

static Bool3
exec_predicate(Cx *cx, const JpItem *jsp, const JpItem *larg, const JpItem *rarg,
	       const JsonNode *jb)
{
	List lseq = { 0 }, rseq = { 0 };
	PredCtx pc;
	bool error = false, found_ = false;
	Bool3 out = B_FALSE;
	Res r = exec_unwrap_result_nothrow(cx, larg, jb, true, &lseq);
	if (r == R_THROW)
		return B_THROW;
	if (is_err(r))
		return B_UNKNOWN;
	if (rarg) {
		r = exec_unwrap_result_nothrow(cx, rarg, jb, true, &rseq);
		if (r == R_THROW)
			return B_THROW;
		if (is_err(r))
			return B_UNKNOWN;
	}
	memset(&pc, 0, sizeof pc);
	pc.jsp = jsp;
	for (uint32_t i = 0; i < lseq.n; i++) {
		uint32_t nr = rarg ? rseq.n : 1;
		for (uint32_t k = 0; k < nr; k++) {
			Bool3 res = pred_one(cx, &pc, lseq.v[i], rarg ? rseq.v[k] : NULL);
			if (res == B_THROW) {
				out = B_THROW;
				goto done;
			}
			if (res == B_UNKNOWN) {
				if (!cx->lax) {
					out = B_UNKNOWN;
					goto done;
				}
				error = true;
			} else if (res == B_TRUE) {
				if (cx->lax) {
					out = B_TRUE;
					goto done;
				}
				found_ = true;
			}
		}
	}
	out = found_ ? B_TRUE : error ? B_UNKNOWN : B_FALSE;
done:
	if (pc.have_re)
		regfree(&pc.re);
	return out;
}

/* a predicate over jb with @ = jb */
static Bool3
exec_nested_bool(Cx *cx, const JpItem *jsp, const JsonNode *jb)
{
	const JsonNode *prev = cx->current;
	Bool3 r;
	cx->current = jb;
	r = exec_bool(cx, jsp, jb, false);
	cx->current = prev;
	return r;
}

static Bool3
exec_bool(Cx *cx, const JpItem *jsp, const JsonNode *jb, bool can_have_next)
{
	Bool3 l, r;
	if (stack_check(cx->err) != FLOE_OK)
		return B_THROW;
	if (!can_have_next && jsp->next)
		return B_UNKNOWN;   /* the parser never makes one */
	switch (jsp->type) {
	case JPI_AND:
		l = exec_bool(cx, jsp->left, jb, false);
		if (l == B_FALSE || l == B_THROW)
			return l;
		r = exec_bool(cx, jsp->right, jb, false);
		return r == B_TRUE ? l : r;
	case JPI_OR:
		l = exec_bool(cx, jsp->left, jb, false);
		if (l == B_TRUE || l == B_THROW)
			return l;
		r = exec_bool(cx, jsp->right, jb, false);
		return r == B_FALSE ? l : r;
	case JPI_NOT:
		l = exec_bool(cx, jsp->left, jb, false);
		return l == B_TRUE ? B_FALSE : l == B_FALSE ? B_TRUE : l;
	case JPI_ISUNKNOWN:
		l = exec_bool(cx, jsp->left, jb, false);
		return l == B_THROW ? l : l == B_UNKNOWN ? B_TRUE : B_FALSE;
	case JPI_EQ: case JPI_NE: case JPI_LT: case JPI_GT: case JPI_LE: case JPI_GE:
	case JPI_STARTSWITH:
		return exec_predicate(cx, jsp, jsp->left, jsp->right, jb);
	case JPI_LIKEREGEX:
		return exec_predicate(cx, jsp, jsp->left, NULL, jb);
	case JPI_EXISTS:
		if (!cx->lax) {
			List vals = { 0 };
			Res res = exec_unwrap_result_nothrow(cx, jsp->left, jb, false, &vals);
			if (res == R_THROW)
				return B_THROW;
			if (is_err(res))
				return B_UNKNOWN;
			return vals.n ? B_TRUE : B_FALSE;
		} else {
			Res res = exec_unwrap_result_nothrow(cx, jsp->left, jb, false, NULL);
			if (res == R_THROW)
				return B_THROW;
			if (is_err(res))
				return B_UNKNOWN;
			return res == R_OK ? B_TRUE : B_FALSE;
		}
	default:
		return B_UNKNOWN;
	}
}

/* ---- items --------------------------------------------------------------- */

static const JsonNode *
scalar_of(Cx *cx, const JpItem *jsp)
{
	switch (jsp->type) {
	case JPI_NULL: return mk(cx, JV_NULL);
	case JPI_BOOL: return mk(cx, jsp->b ? JV_TRUE : JV_FALSE);
	case JPI_NUMERIC: return mk_num(cx, jsp->s, jsp->len);
	default: return mk_str(cx, jsp->s, jsp->len);
	}
}

static Res
get_var(Cx *cx, const JpItem *jsp, const JsonNode **out)
{
	const JsonNode *v;
	if (!cx->vars) {            /* @? @@: no vars, every variable is null */
		*out = mk(cx, JV_NULL);
		return R_OK;
	}
	v = pgjson_object_get(cx->vars, jsp->s, jsp->len, true);
	if (!v) {
		floe_errorf(cx->err, ERRCODE_UNDEFINED_OBJECT, "could not find jsonpath variable \"%.*s\"",
			    (int)jsp->len, jsp->s);
		return R_THROW;
	}
	cx->base = cx->vars;
	cx->base_id = 1;
	*out = v;
	return R_OK;
}

static Res
exec_index(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found)
{
	int saved_size = cx->innermost_size;
	bool singleton = jb->kind != JV_ARRAY;
	int size = singleton ? 1 : (int)jb->n;
	Res res = R_NOTFOUND;
	cx->innermost_size = size;
	for (int i = 0; i < jsp->nsubs; i++) {
		int32_t from, to;
		res = array_index(cx, jsp->from[i], jb, &from);
		if (is_err(res))
			break;
		if (jsp->to[i]) {
			res = array_index(cx, jsp->to[i], jb, &to);
			if (is_err(res))
				break;
		} else {
			to = from;
		}
		if (!cx->ignore_structural && (from < 0 || from > to || to >= size)) {
			cx->innermost_size = saved_size;
			ERR(cx, ERRCODE_INVALID_SQL_JSON_SUBSCRIPT, "jsonpath array subscript is out of bounds");
		}
		if (from < 0)
			from = 0;
		if (to >= size)
			to = size - 1;
		res = R_NOTFOUND;
		for (int32_t k = from; k <= to; k++) {
			const JsonNode *v = singleton ? jb : &jb->kids[k];
			if (!jsp->next && !found) {
				cx->innermost_size = saved_size;
				return R_OK;
			}
			res = exec_next(cx, jsp, v, found);
			if (is_err(res))
				break;
			if (res == R_OK && !found)
				break;
		}
		if (is_err(res))
			break;
		if (res == R_OK && !found)
			break;
	}
	cx->innermost_size = saved_size;
	return res;
}

static Res
exec_item(Cx *cx, const JpItem *jsp, const JsonNode *jb, List *found, bool unwrap)
{
	Res res = R_NOTFOUND;
	if (stack_check(cx->err) != FLOE_OK)
		return R_THROW;
	switch (jsp->type) {
	case JPI_AND: case JPI_OR: case JPI_NOT: case JPI_ISUNKNOWN:
	case JPI_EQ: case JPI_NE: case JPI_LT: case JPI_GT: case JPI_LE: case JPI_GE:
	case JPI_EXISTS: case JPI_STARTSWITH: case JPI_LIKEREGEX: {
		Bool3 st = exec_bool(cx, jsp, jb, true);
		if (st == B_THROW)
			return R_THROW;
		return exec_next(cx, jsp, mk(cx, st == B_UNKNOWN ? JV_NULL : st == B_TRUE ? JV_TRUE : JV_FALSE),
				 found);
	}
	case JPI_ADD: case JPI_SUB: case JPI_MUL: case JPI_DIV: case JPI_MOD:
		return exec_binary_arith(cx, jsp, jb, found);
	case JPI_PLUS: case JPI_MINUS:
		return exec_unary_arith(cx, jsp, jb, found);
	case JPI_FILTER: {
		Bool3 st;
		if (unwrap && jb->kind == JV_ARRAY)
			return unwrap_target_array(cx, jsp, jb, found, false);
		st = exec_nested_bool(cx, jsp->left, jb);
		if (st == B_THROW)
			return R_THROW;
		if (st != B_TRUE)
			return R_NOTFOUND;
		return exec_next(cx, jsp, jb, found);
	}
	case JPI_ANYARRAY:
		if (jb->kind == JV_ARRAY) {
			for (uint32_t i = 0; i < jb->n; i++) {
				Res r = exec_next(cx, jsp, &jb->kids[i], found);
				if (is_err(r))
					return r;
				if (r == R_OK) {
					if (!found)
						return R_OK;
					res = R_OK;
				}
			}
			return res;
		}
		if (cx->lax)
			return exec_next(cx, jsp, jb, found);
		if (!cx->ignore_structural)
			ERR(cx, ERRCODE_SQL_JSON_ARRAY_NOT_FOUND,
			    "jsonpath wildcard array accessor can only be applied to an array");
		return R_NOTFOUND;
	case JPI_INDEX:
		if (jb->kind == JV_ARRAY || cx->lax)
			return exec_index(cx, jsp, jb, found);
		if (!cx->ignore_structural)
			ERR(cx, ERRCODE_SQL_JSON_ARRAY_NOT_FOUND,
			    "jsonpath array accessor can only be applied to an array");
		return R_NOTFOUND;
	case JPI_LAST: {
		if (cx->innermost_size < 0) {
			floe_errorf(cx->err, ERRCODE_INTERNAL_ERROR,
				    "evaluating jsonpath LAST outside of array subscript");
			return R_THROW;
		}
		char buf[16];
		snprintf(buf, sizeof buf, "%d", cx->innermost_size - 1);
		if (!jsp->next && !found)
			return R_OK;
		return exec_next(cx, jsp, mk_num(cx, arena_strdup(cx->a, buf), strlen(buf)), found);
	}
	case JPI_ANYKEY:
		if (jb->kind == JV_OBJECT)
			return exec_any(cx, jsp->next, jb, found, 1, 1, 1, false, cx->lax);
		if (unwrap && jb->kind == JV_ARRAY)
			return unwrap_target_array(cx, jsp, jb, found, false);
		if (!cx->ignore_structural)
			ERR(cx, ERRCODE_SQL_JSON_OBJECT_NOT_FOUND,
			    "jsonpath wildcard member accessor can only be applied to an object");
		return R_NOTFOUND;
	case JPI_ANY: {
		if (jsp->first == 0) {
			bool saved = cx->ignore_structural;
			cx->ignore_structural = true;
			res = exec_next(cx, jsp, jb, found);
			cx->ignore_structural = saved;
			if (res == R_OK && !found)
				return res;
		}
		if (jb->kind == JV_ARRAY || jb->kind == JV_OBJECT)
			res = exec_any(cx, jsp->next, jb, found, 1, jsp->first, jsp->last, true, cx->lax);
		return res;
	}
	case JPI_KEY:
		if (jb->kind == JV_OBJECT) {
			const JsonNode *v = pgjson_object_get(jb, jsp->s, jsp->len, true);
			if (v)
				return exec_next(cx, jsp, v, found);
			if (!cx->ignore_structural)
				ERR(cx, ERRCODE_SQL_JSON_MEMBER_NOT_FOUND,
				    "JSON object does not contain key \"%.*s\"", (int)jsp->len, jsp->s);
			return R_NOTFOUND;
		}
		if (unwrap && jb->kind == JV_ARRAY)
			return unwrap_target_array(cx, jsp, jb, found, false);
		if (!cx->ignore_structural)
			ERR(cx, ERRCODE_SQL_JSON_MEMBER_NOT_FOUND,
			    "jsonpath member accessor can only be applied to an object");
		return R_NOTFOUND;
	case JPI_CURRENT:
		return exec_next(cx, jsp, cx->current, found);
	case JPI_ROOT:
		cx->base = cx->root;
		cx->base_id = 0;
		return exec_next(cx, jsp, cx->root, found);
	case JPI_VAR: {
		const JsonNode *v;
		const JsonNode *saved_base = cx->base;
		int64_t saved_id = cx->base_id;
		res = get_var(cx, jsp, &v);
		if (res != R_OK)
			return res;
		if (jsp->next || found)
			res = exec_next(cx, jsp, v, found);
		cx->base = saved_base;
		cx->base_id = saved_id;
		return res;
	}
	case JPI_NULL: case JPI_BOOL: case JPI_NUMERIC: case JPI_STRING:
		if (!jsp->next && !found)
			return R_OK;
		return exec_next(cx, jsp, scalar_of(cx, jsp), found);
	case JPI_TYPE: {
		const char *t = type_name_of(jb);
		return exec_next(cx, jsp, mk_str(cx, t, strlen(t)), found);
	}
	case JPI_SIZE: {
		char buf[16];
		int size;
		if (jb->kind == JV_ARRAY) {
			size = (int)jb->n;
		} else {
			if (!cx->lax) {
				if (!cx->ignore_structural)
					ERR(cx, ERRCODE_SQL_JSON_ARRAY_NOT_FOUND,
					    "jsonpath item method .%s() can only be applied to an array",
					    method_name(jsp->type));
				return R_NOTFOUND;
			}
			size = 1;
		}
		snprintf(buf, sizeof buf, "%d", size);
		return exec_next(cx, jsp, mk_num(cx, arena_strdup(cx->a, buf), strlen(buf)), found);
	}
	case JPI_ABS: case JPI_FLOOR: case JPI_CEILING:
		return exec_numeric_method(cx, jsp, jb, unwrap, found);
	case JPI_DOUBLE: {
		double d;
		if (unwrap && jb->kind == JV_ARRAY)
			return unwrap_target_array(cx, jsp, jb, found, false);
		if (jb->kind == JV_NUMBER) {
			/* PostgreSQL 15 checks that float8in takes the number
			 * and keeps the numeric itself */
			if (!parse_double(jb->s, jb->len, &d))
				ERR(cx, ERRCODE_NON_NUMERIC_SQL_JSON_ITEM,
				    "numeric argument of jsonpath item method .%s() is out of range for type double precision",
				    method_name(jsp->type));
			return exec_next(cx, jsp, jb, found);
		} else if (jb->kind == JV_STRING) {
			if (!parse_double(jb->s, jb->len, &d) || isinf(d) || isnan(d))
				ERR(cx, ERRCODE_NON_NUMERIC_SQL_JSON_ITEM,
				    "string argument of jsonpath item method .%s() is not a valid representation of a double precision number",
				    method_name(jsp->type));
		} else {
			ERR(cx, ERRCODE_NON_NUMERIC_SQL_JSON_ITEM,
			    "jsonpath item method .%s() can only be applied to a string or numeric value",
			    method_name(jsp->type));
		}
		return exec_next(cx, jsp, double_node(cx, d), found);
	}
	case JPI_DATETIME:
		if (unwrap && jb->kind == JV_ARRAY)
			return unwrap_target_array(cx, jsp, jb, found, false);
		if (jb->kind != JV_STRING)
			ERR(cx, ERRCODE_INVALID_ARGUMENT_FOR_SQL_JSON_DATETIME_FUNCTION,
			    "jsonpath item method .%s() can only be applied to a string",
			    method_name(jsp->type));
		floe_errorf(cx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "jsonpath item method .datetime() is not supported yet");
		return R_THROW;
	case JPI_KEYVALUE:
		if (unwrap && jb->kind == JV_ARRAY)
			return unwrap_target_array(cx, jsp, jb, found, false);
		return exec_keyvalue(cx, jsp, jb, found);
	default:
		floe_errorf(cx->err, ERRCODE_INTERNAL_ERROR, "unrecognized jsonpath item type: %d", jsp->type);
		return R_THROW;
	}
}

/* executeJsonPath: R_OK / R_NOTFOUND / R_ERROR (silent) / R_THROW */
static Res
run_path(Arena *a, const JsonPath *jp, const JsonNode *vars, bool have_vars, const JsonNode *doc,
	 bool throw_errors, List *result, floe_error *err)
{
	Cx cx;
	memset(&cx, 0, sizeof cx);
	if (have_vars && vars->kind != JV_OBJECT) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "\"vars\" argument is not an object");
		floe_error_detail(err, "Jsonpath parameters should be encoded as key-value pairs of \"vars\" object.");
		return R_THROW;
	}
	cx.a = a;
	cx.err = err;
	cx.root = cx.current = doc;
	cx.vars = have_vars ? vars : NULL;
	cx.lax = jp->lax;
	cx.ignore_structural = jp->lax;
	cx.throw_errors = throw_errors;
	cx.innermost_size = -1;
	cx.base = NULL;
	cx.base_id = 0;
	cx.last_gen_id = have_vars ? 2 : 1;
	if (!cx.lax && !result) {
		List vals = { 0 };
		Res r = exec(&cx, jp->root, doc, &vals);
		if (is_err(r))
			return r;
		return vals.n ? R_OK : R_NOTFOUND;
	}
	return exec(&cx, jp->root, doc, result);
}

/* ---- kernels ------------------------------------------------------------- */

enum { F_EXISTS, F_MATCH, F_QUERY, F_ARRAY, F_FIRST };

typedef struct PathCache {
	char *text;
	size_t len;
	JsonPath *jp;
	Arena *a;
} PathCache;

static int
path_of(PathCache *pc, const strview *s, floe_error *err, JsonPath **out)
{
	if (pc->jp && pc->len == s->len && !memcmp(pc->text, strview_data(s), s->len)) {
		*out = pc->jp;
		return FLOE_OK;
	}
	arena_reset(pc->a);
	pc->jp = NULL;
	pc->text = arena_memdup(pc->a, strview_data(s), s->len);
	pc->len = s->len;
	TRY(jsonpath_parse(pc->text, pc->len, pc->a, &pc->jp, err));
	*out = pc->jp;
	return FLOE_OK;
}

/* fn over rows; op: @? / @@ (silent, no vars) */
static int
path_kernel(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, int fn,
	    bool op)
{
	VectorView v[4];
	Arena *tmp = arena_new(0);
	PathCache pc = { NULL, 0, NULL, arena_new(0) };
	int rc = FLOE_OK;
	for (int j = 0; j < nargs; j++)
		vector_view(&args[j], &v[j]);
	for (uint32_t i = 0; i < count; i++) {
		const strview *sv[3];
		JsonNode *doc, *vars = NULL;
		JsonPath *jp;
		bool silent = false, any_null = false;
		List found = { 0 };
		Res r;
		arena_reset(tmp);
		for (int j = 0; j < nargs; j++)
			if (args[j].type.id == TYPE_NULL || !ARGVALID(v[j], ARGK(v[j], i)))
				any_null = true;
		if (any_null) {
			out_null(out, i);
			continue;
		}
		for (int j = 0; j < nargs && j < 3; j++)
			sv[j] = &((const strview *)v[j].data)[ARGK(v[j], i)];
		if (nargs == 4)
			silent = ((const uint8_t *)v[3].data)[ARGK(v[3], i)] != 0;
		if (op)
			silent = true;
		if (path_of(&pc, sv[1], ctx->err, &jp) != FLOE_OK ||
		    pgjson_parse(strview_data(sv[0]), sv[0]->len, JSONP_JSONB, tmp, &doc, ctx->err) != FLOE_OK ||
		    (nargs >= 3 &&
		     pgjson_parse(strview_data(sv[2]), sv[2]->len, JSONP_JSONB, tmp, &vars, ctx->err) != FLOE_OK)) {
			rc = FLOE_ERR;
			break;
		}
		if (!vars && !op) {          /* the functions' vars default: '{}' */
			vars = ARENA_NEW(tmp, JsonNode);
			memset(vars, 0, sizeof *vars);
			vars->kind = JV_OBJECT;
		}
		r = run_path(tmp, jp, vars, !op, doc, !silent,
			     fn == F_EXISTS ? NULL : &found, ctx->err);
		if (r == R_THROW) {
			rc = FLOE_ERR;
			break;
		}
		switch (fn) {
		case F_EXISTS:
			if (r == R_ERROR) {
				out_null(out, i);
			} else {
				((uint8_t *)out->data)[i] = r == R_OK;
				out_valid(out, i);
			}
			break;
		case F_MATCH:
			if (found.n == 1 && (is_bool(found.v[0]) || found.v[0]->kind == JV_NULL)) {
				if (found.v[0]->kind == JV_NULL) {
					out_null(out, i);
				} else {
					((uint8_t *)out->data)[i] = found.v[0]->kind == JV_TRUE;
					out_valid(out, i);
				}
			} else if (!silent) {
				floe_errorf(ctx->err, ERRCODE_SINGLETON_SQL_JSON_ITEM_REQUIRED,
					    "single boolean result is expected");
				rc = FLOE_ERR;
			} else {
				out_null(out, i);
			}
			break;
		case F_FIRST:
			if (found.n) {
				size_t n;
				const char *t = pgjsonb_text(found.v[0], tmp, &n);
				vector_set_string(out, i, t, (uint32_t)n);
				out_valid(out, i);
			} else {
				out_null(out, i);
			}
			break;
		case F_ARRAY: {
			JsonNode arr;
			size_t n;
			const char *t;
			memset(&arr, 0, sizeof arr);
			arr.kind = JV_ARRAY;
			arr.n = found.n;
			arr.kids = arena_alloc(tmp, sizeof(JsonNode) * (found.n ? found.n : 1));
			for (uint32_t k = 0; k < found.n; k++)
				arr.kids[k] = *found.v[k];
			t = pgjsonb_text(&arr, tmp, &n);
			vector_set_string(out, i, t, (uint32_t)n);
			out_valid(out, i);
			break;
		}
		default: {
			Value *vals = arena_alloc(tmp, sizeof *vals * (found.n ? found.n : 1));
			strview res;
			for (uint32_t k = 0; k < found.n; k++) {
				size_t n;
				const char *t = pgjsonb_text(found.v[k], tmp, &n);
				memset(&vals[k], 0, sizeof vals[k]);
				vals[k].type = type_json(true);
				vals[k].u.s = strview_make(t, (uint32_t)n);
			}
			if (array_encode(tmp, out->type, vals, found.n, &res, ctx->err) != FLOE_OK) {
				rc = FLOE_ERR;
				break;
			}
			vector_set_string(out, i, strview_data(&res), res.len);
			out_valid(out, i);
			break;
		}
		}
		if (rc != FLOE_OK)
			break;
	}
	arena_free(pc.a);
	arena_free(tmp);
	return rc;
}

#define KERNEL(name, fn, op) \
	static int name(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out) \
	{ return path_kernel(ctx, args, nargs, count, out, fn, op); }
KERNEL(k_exists, F_EXISTS, false)
KERNEL(k_match, F_MATCH, false)
KERNEL(k_query, F_QUERY, false)
KERNEL(k_array, F_ARRAY, false)
KERNEL(k_first, F_FIRST, false)
KERNEL(k_exists_op, F_EXISTS, true)
KERNEL(k_match_op, F_MATCH, true)

/* ---- resolution ---------------------------------------------------------- */

enum { P_JSONB = 1, P_PATH, P_BOOL };
enum { PR_BOOL = 1, PR_JSONB, PR_JSONBARR };

typedef struct PSig {
	ScalarFunc f;
	uint8_t ret;
} PSig;

#define TX TYPE_TEXT
#define PS(nm, k, n, r, op) \
	{ { nm, k, n, 0, { TX, TX, TX, TYPE_BOOL }, TX, FRET_FIXED, true, op }, r }
#define PS4(nm, k, r) PS(nm, k, 2, r, false), PS(nm, k, 3, r, false), PS(nm, k, 4, r, false)

static const PSig psigs[] = {
	PS("@?", k_exists_op, 2, PR_BOOL, true),
	PS("@@", k_match_op, 2, PR_BOOL, true),
	PS4("jsonb_path_exists", k_exists, PR_BOOL),
	PS4("jsonb_path_exists_tz", k_exists, PR_BOOL),
	PS4("jsonb_path_match", k_match, PR_BOOL),
	PS4("jsonb_path_match_tz", k_match, PR_BOOL),
	PS4("jsonb_path_query_array", k_array, PR_JSONB),
	PS4("jsonb_path_query_array_tz", k_array, PR_JSONB),
	PS4("jsonb_path_query_first", k_first, PR_JSONB),
	PS4("jsonb_path_query_first_tz", k_first, PR_JSONB),
	PS4("__floe_jsonb_path_query", k_query, PR_JSONBARR),
	PS4("__floe_jsonb_path_query_tz", k_query, PR_JSONBARR),
};
#define NPSIGS ((int)(sizeof psigs / sizeof psigs[0]))

static bool
pfits(int pos, SqlType t, SqlType *as)
{
	bool unk = t.id == TYPE_NULL;
	switch (pos) {
	case 0: case 2:
		*as = type_json(true);
		return unk || (t.id == TYPE_TEXT && t.text_kind == TEXT_JSONB);
	case 1:
		*as = type_jsonpath();
		return unk || (t.id == TYPE_TEXT && t.text_kind == TEXT_JSONPATH);
	default:
		*as = type_make(TYPE_BOOL);
		return unk || t.id == TYPE_BOOL;
	}
}

int
func_jsonpath_resolve(const char *name, const SqlType *argtypes, int nargs,
		      const ScalarFunc **out, SqlType *ret, SqlType *cast_to, bool *handled,
		      floe_error *err)
{
	(void)err;
	*handled = false;
	for (int k = 0; k < NPSIGS; k++) {
		const PSig *s = &psigs[k];
		SqlType as[4];
		bool ok = true;
		if (strcmp(s->f.name, name) || s->f.nargs != nargs)
			continue;
		for (int i = 0; i < nargs && ok; i++)
			ok = pfits(i, argtypes[i], &as[i]);
		if (!ok)
			continue;
		*handled = true;
		*out = &s->f;
		for (int i = 0; i < nargs; i++)
			cast_to[i] = as[i];
		*ret = s->ret == PR_BOOL ? type_make(TYPE_BOOL) : s->ret == PR_JSONB ? type_json(true)
									: array_of(type_json(true));
		return FLOE_OK;
	}
	return FLOE_OK;
}
