/*
 * func_json.c — PostgreSQL 15's json and jsonb operators and functions.
 *
 *   j -> text / j -> int        object field / array element (negative:
 *                               from the end), json or jsonb as j; ->> as text
 *   j #> text[] / j #>> text[]  the value at a path (array steps are integers)
 *   jsonb @> jsonb, <@          containment (JsonbDeepContains's rules)
 *   jsonb ? text, ?| text[], ?& text[]   top-level key / string element exists
 *   jsonb = <> < <= > >=        PostgreSQL's jsonb order (json.h)
 *   jsonb || jsonb              objects merge (right wins), else arrays concatenate
 *   jsonb - text / int / text[] delete keys, string elements, an element
 *   json(b)_typeof, json(b)_array_length, json(b)_build_object/_array,
 *   to_json(b), json(b)_strip_nulls, jsonb_set, jsonb_pretty, jsonb_insert,
 *   jsonb_set_lax, json(b)_object, array_to_json, row_to_json (the binder's
 *   __floe_row_to_json(pretty, name, value, ...))
 *   jsonb #- text[], json(b)_extract_path(_text)(j, VARIADIC text)
 *   aggregates json_agg / jsonb_agg, json_object_agg / jsonb_object_agg
 *   (agg sigs below, func_registry.c)
 *   __floe_json(b)_object_keys / _array_elements(_text) / _each(_text)(_keys):
 *   the rows of the set-returning functions as one array, which select.c
 *   unnests (json_srf)
 *
 * Resolution (func_json_resolve, called by func_resolve_scalar before the
 * generic tables): a call is ours when its name is one of ours, or it is an
 * operator with a json/jsonb argument.  Argument kinds: json, jsonb, either
 * (the result follows it), text (varchar, char; an unknown literal), int
 * (int2, int4), text[], any.  An unknown literal takes the kind of its
 * position (for -> and - the text signature comes first, as PostgreSQL's
 * unknown prefers the string category).  No match: not handled, so the
 * generic resolution reports 42883 with PostgreSQL's message.  The jsonpath
 * functions and operators are func_jsonpath.c's (func_jsonpath_resolve).
 *
 * Output text is PostgreSQL's: json results keep their source text (->) or
 * are built with json's separators (json_build_object: "k" : v, arrays
 * [1,2] inside to_json); jsonb results are printed in jsonb's normal form.
 *
 * INTERFACE ROUTINES
 *   func_json_resolve(name, argtypes, nargs, &fn, &ret, cast_to, &handled, err)
 *   func_json_value_text(buf, v, type)  to_json of one Value (json.c's buffer)
 *   func_agg_json_sigs[], func_agg_json_impls[], func_agg_json_count
 *
 * Invariants: each row's trees live in a scratch arena reset per row and
 * freed before the kernel returns; results are copied into out->arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "func/func_internal.h"
#include "types/array.h"
#include "types/json.h"
#include "types/text.h"

/* ---- signatures ---------------------------------------------------------- */

enum { A_J = 1, A_B, A_JB, A_TEXT, A_INT, A_TEXTARR, A_ANY, A_BOOL, A_ARR };
enum { R_SAME = 1, R_JSON, R_JSONB, R_TEXT, R_BOOL, R_INT, R_TEXTARR, R_SAMEARR };

typedef struct JSig {
	ScalarFunc f;
	uint8_t a[5];
	uint8_t ret;
} JSig;

static int k_get(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_get_text(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_path(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_path_text(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_contains(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_contained(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_exists(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_exists_any(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_exists_all(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_eq(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_ne(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_lt(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_le(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_gt(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_ge(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_concat(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_delete(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_typeof(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_array_length(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_build_object(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_build_array(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_to_json(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_strip_nulls(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_set(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_pretty(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_extract(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_extract_text(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_delete_path(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_keys(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_elems(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_elems_text(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_each_keys(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_each(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_each_text(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_each_text_keys(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_insert(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_set_lax(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_array_to_json(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_row_to_json(FuncCtx *, const Vector *, int, uint32_t, Vector *);
static int k_object(FuncCtx *, const Vector *, int, uint32_t, Vector *);

#define TX TYPE_TEXT
#define AN FARG_ANY_ASIS
#define SIG(nm, k, n, var, a0, a1, a2, a3, t0, t1, t2, t3, r, strict, op) \
	{ { nm, k, n, var, { t0, t1, t2, t3 }, TX, FRET_FIXED, strict, op }, { a0, a1, a2, a3 }, r }
#define OP2(nm, k, a0, a1, r) SIG(nm, k, 2, 0, a0, a1, 0, 0, TX, TX, 0, 0, r, true, true)
#define FN1(nm, k, a0, r) SIG(nm, k, 1, 0, a0, 0, 0, 0, TX, 0, 0, 0, r, true, false)

static const JSig sigs[] = {
	OP2("->", k_get, A_JB, A_TEXT, R_SAME),
	OP2("->", k_get, A_JB, A_INT, R_SAME),
	OP2("->>", k_get_text, A_JB, A_TEXT, R_TEXT),
	OP2("->>", k_get_text, A_JB, A_INT, R_TEXT),
	OP2("#>", k_path, A_JB, A_TEXTARR, R_SAME),
	OP2("#>>", k_path_text, A_JB, A_TEXTARR, R_TEXT),
	OP2("@>", k_contains, A_B, A_B, R_BOOL),
	OP2("<@", k_contained, A_B, A_B, R_BOOL),
	OP2("?", k_exists, A_B, A_TEXT, R_BOOL),
	OP2("?|", k_exists_any, A_B, A_TEXTARR, R_BOOL),
	OP2("?&", k_exists_all, A_B, A_TEXTARR, R_BOOL),
	OP2("=", k_eq, A_B, A_B, R_BOOL),
	OP2("<>", k_ne, A_B, A_B, R_BOOL),
	OP2("<", k_lt, A_B, A_B, R_BOOL),
	OP2("<=", k_le, A_B, A_B, R_BOOL),
	OP2(">", k_gt, A_B, A_B, R_BOOL),
	OP2(">=", k_ge, A_B, A_B, R_BOOL),
	OP2("||", k_concat, A_B, A_B, R_JSONB),
	OP2("-", k_delete, A_B, A_TEXT, R_JSONB),
	OP2("-", k_delete, A_B, A_INT, R_JSONB),
	OP2("-", k_delete, A_B, A_TEXTARR, R_JSONB),
	OP2("#-", k_delete_path, A_B, A_TEXTARR, R_JSONB),
	SIG("json_extract_path", k_extract, 2, 1, A_J, A_TEXT, 0, 0, TX, TX, 0, 0, R_JSON, true, false),
	SIG("jsonb_extract_path", k_extract, 2, 1, A_B, A_TEXT, 0, 0, TX, TX, 0, 0, R_JSONB, true, false),
	SIG("json_extract_path_text", k_extract_text, 2, 1, A_J, A_TEXT, 0, 0, TX, TX, 0, 0, R_TEXT,
	    true, false),
	SIG("jsonb_extract_path_text", k_extract_text, 2, 1, A_B, A_TEXT, 0, 0, TX, TX, 0, 0, R_TEXT,
	    true, false),
	FN1("json_typeof", k_typeof, A_J, R_TEXT),
	FN1("jsonb_typeof", k_typeof, A_B, R_TEXT),
	FN1("json_array_length", k_array_length, A_J, R_INT),
	FN1("jsonb_array_length", k_array_length, A_B, R_INT),
	FN1("json_strip_nulls", k_strip_nulls, A_J, R_JSON),
	FN1("jsonb_strip_nulls", k_strip_nulls, A_B, R_JSONB),
	FN1("jsonb_pretty", k_pretty, A_B, R_TEXT),
	FN1("to_json", k_to_json, A_ANY, R_JSON),
	FN1("to_jsonb", k_to_json, A_ANY, R_JSONB),
	SIG("json_build_object", k_build_object, 0, 1, A_ANY, 0, 0, 0, AN, 0, 0, 0, R_JSON, false, false),
	SIG("jsonb_build_object", k_build_object, 0, 1, A_ANY, 0, 0, 0, AN, 0, 0, 0, R_JSONB, false, false),
	SIG("json_build_array", k_build_array, 0, 1, A_ANY, 0, 0, 0, AN, 0, 0, 0, R_JSON, false, false),
	SIG("jsonb_build_array", k_build_array, 0, 1, A_ANY, 0, 0, 0, AN, 0, 0, 0, R_JSONB, false, false),
	/* the set-returning functions' rows as arrays (select.c unnests them) */
	FN1("__floe_json_object_keys", k_keys, A_J, R_TEXTARR),
	FN1("__floe_jsonb_object_keys", k_keys, A_B, R_TEXTARR),
	FN1("__floe_json_array_elements", k_elems, A_J, R_SAMEARR),
	FN1("__floe_jsonb_array_elements", k_elems, A_B, R_SAMEARR),
	FN1("__floe_json_array_elements_text", k_elems_text, A_J, R_TEXTARR),
	FN1("__floe_jsonb_array_elements_text", k_elems_text, A_B, R_TEXTARR),
	FN1("__floe_json_each_keys", k_each_keys, A_J, R_TEXTARR),
	FN1("__floe_jsonb_each_keys", k_each_keys, A_B, R_TEXTARR),
	FN1("__floe_json_each", k_each, A_J, R_SAMEARR),
	FN1("__floe_jsonb_each", k_each, A_B, R_SAMEARR),
	FN1("__floe_json_each_text_keys", k_each_text_keys, A_J, R_TEXTARR),
	FN1("__floe_jsonb_each_text_keys", k_each_text_keys, A_B, R_TEXTARR),
	FN1("__floe_json_each_text", k_each_text, A_J, R_TEXTARR),
	FN1("__floe_jsonb_each_text", k_each_text, A_B, R_TEXTARR),
	SIG("jsonb_set", k_set, 3, 0, A_B, A_TEXTARR, A_B, 0, TX, TX, TX, 0, R_JSONB, true, false),
	SIG("jsonb_set", k_set, 4, 0, A_B, A_TEXTARR, A_B, A_BOOL, TX, TX, TX, TYPE_BOOL, R_JSONB,
	    true, false),
	SIG("jsonb_insert", k_insert, 3, 0, A_B, A_TEXTARR, A_B, 0, TX, TX, TX, 0, R_JSONB, true, false),
	SIG("jsonb_insert", k_insert, 4, 0, A_B, A_TEXTARR, A_B, A_BOOL, TX, TX, TX, TYPE_BOOL, R_JSONB,
	    true, false),
	/* jsonb_set_lax(target, path, value [, create [, null_value_treatment]]): not strict */
	SIG("jsonb_set_lax", k_set_lax, 3, 0, A_B, A_TEXTARR, A_B, 0, TX, TX, TX, 0, R_JSONB, false,
	    false),
	SIG("jsonb_set_lax", k_set_lax, 4, 0, A_B, A_TEXTARR, A_B, A_BOOL, TX, TX, TX, TYPE_BOOL,
	    R_JSONB, false, false),
	{ { "jsonb_set_lax", k_set_lax, 5, 0, { TX, TX, TX, TYPE_BOOL, TX }, TX, FRET_FIXED, false,
	    false }, { A_B, A_TEXTARR, A_B, A_BOOL, A_TEXT }, R_JSONB },
	SIG("array_to_json", k_array_to_json, 1, 0, A_ARR, 0, 0, 0, AN, 0, 0, 0, R_JSON, true, false),
	SIG("array_to_json", k_array_to_json, 2, 0, A_ARR, A_BOOL, 0, 0, AN, TYPE_BOOL, 0, 0, R_JSON,
	    true, false),
	FN1("json_object", k_object, A_TEXTARR, R_JSON),
	FN1("jsonb_object", k_object, A_TEXTARR, R_JSONB),
	SIG("json_object", k_object, 2, 0, A_TEXTARR, A_TEXTARR, 0, 0, TX, TX, 0, 0, R_JSON, true,
	    false),
	SIG("jsonb_object", k_object, 2, 0, A_TEXTARR, A_TEXTARR, 0, 0, TX, TX, 0, 0, R_JSONB, true,
	    false),
	/* row_to_json(record [, pretty]) as the binder spells it (bind_expr.c):
	 * pretty, then field name / value pairs */
	SIG("__floe_row_to_json", k_row_to_json, 2, 1, A_BOOL, A_ANY, 0, 0, TYPE_BOOL, AN, 0, 0,
	    R_JSON, false, false),
};
#define NSIGS ((int)(sizeof sigs / sizeof sigs[0]))

/* PostgreSQL 15's json functions floe does not have: refused by name */
static const char *const not_yet[] = {
	"json_populate_record",
	"jsonb_populate_record", "json_populate_recordset", "jsonb_populate_recordset",
	"json_to_record", "jsonb_to_record", "json_to_recordset", "jsonb_to_recordset",
	"jsonb_concat", "jsonb_contains", "jsonb_exists",
};

static bool
is_op_name(const char *n)
{
	return !((n[0] >= 'a' && n[0] <= 'z') || (n[0] >= 'A' && n[0] <= 'Z') || n[0] == '_');
}

static bool
unknown(SqlType t)
{
	return t.id == TYPE_NULL;
}

/* Does argument type t fit kind k; the type the kernel reads it as. */
static bool
fits(int k, SqlType t, SqlType *as)
{
	switch (k) {
	case A_J:
		*as = type_json(false);
		return unknown(t) || (type_is_json(t) && t.text_kind == TEXT_JSON);
	case A_B:
		*as = type_json(true);
		return unknown(t) || (type_is_json(t) && t.text_kind == TEXT_JSONB);
	case A_JB:
		*as = t;
		return type_is_json(t);
	case A_TEXT:
		*as = type_make(TYPE_TEXT);
		return unknown(t) || (t.id == TYPE_TEXT && !type_is_json(t));
	case A_INT:
		*as = type_make(TYPE_INT32);
		return t.id == TYPE_INT16 || t.id == TYPE_INT32;
	case A_TEXTARR:
		*as = array_of(type_make(TYPE_TEXT));
		return unknown(t) || (t.id == TYPE_ARRAY && t.elem == TYPE_TEXT && !t.vector &&
				      t.text_kind != TEXT_JSON && t.text_kind != TEXT_JSONB);
	case A_BOOL:
		*as = type_make(TYPE_BOOL);
		return unknown(t) || t.id == TYPE_BOOL;
	case A_ANY:
		*as = unknown(t) ? type_make(TYPE_TEXT) : t;
		return true;
	case A_ARR:
		*as = t;
		return t.id == TYPE_ARRAY && !t.vector;
	default:
		return false;
	}
}

int
func_json_resolve(const char *name, const SqlType *argtypes, int nargs, const ScalarFunc **out,
		  SqlType *ret, SqlType *cast_to, bool *handled, floe_error *err)
{
	bool ours = false, any_json = false;
	int i, k;

	*handled = false;
	if (!strncmp(name, "jsonb_path_", 11) || !strncmp(name, "__floe_jsonb_path_", 18) ||
	    !strcmp(name, "@?") || !strcmp(name, "@@")) {
		TRY(func_jsonpath_resolve(name, argtypes, nargs, out, ret, cast_to, handled, err));
		if (*handled)
			return FLOE_OK;
	}
	for (i = 0; i < nargs; i++)
		if (type_is_json(argtypes[i]))
			any_json = true;
	if (!any_json && strncmp(name, "json", 4) && strncmp(name, "to_json", 7) &&
	    strncmp(name, "__floe_json", 11) && strcmp(name, "__floe_row_to_json") &&
	    strcmp(name, "row_to_json") && strcmp(name, "array_to_json"))
		return FLOE_OK;     /* the common case, cheaply (IN lists resolve "=" often) */
	if (!strncmp(name, "json_each", 9) || !strncmp(name, "jsonb_each", 10))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "%s in a select list (a record) is not supported yet; use it in FROM",
				   name);
	for (k = 0; k < (int)(sizeof not_yet / sizeof not_yet[0]); k++)
		if (!strcmp(name, not_yet[k]) && (!is_op_name(name) || any_json))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   is_op_name(name) ? "operator %s is not supported yet"
							    : "function %s is not supported yet", name);
	if (!strcmp(name, "array_to_json") && nargs >= 1 && unknown(argtypes[0]))
		return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
				   "could not determine polymorphic type because input has type unknown");
	for (k = 0; k < NSIGS; k++)
		if (!strcmp(sigs[k].f.name, name))
			ours = true;
	if (!ours || (is_op_name(name) && !any_json))
		return FLOE_OK;
	for (k = 0; k < NSIGS; k++) {
		const JSig *s = &sigs[k];
		SqlType as[64];
		bool ok = true;
		if (strcmp(s->f.name, name))
			continue;
		if (s->f.variadic ? nargs < s->f.nargs : nargs != s->f.nargs)
			continue;
		if (nargs > 64)
			return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "cannot pass more than 100 arguments to a function");
		for (i = 0; i < nargs && ok; i++) {
			/* past the fixed arguments: the last one's kind repeats */
			int last = s->f.nargs ? s->f.nargs - 1 : 0;
			int kd = s->a[i < s->f.nargs ? i : last];
			ok = fits(kd, argtypes[i], &as[i]);
		}
		if (!ok)
			continue;
		*handled = true;
		*out = &s->f;
		for (i = 0; i < nargs; i++)
			cast_to[i] = as[i];
		switch (s->ret) {
		case R_SAME: *ret = cast_to[0]; break;
		case R_JSON: *ret = type_json(false); break;
		case R_JSONB: *ret = type_json(true); break;
		case R_BOOL: *ret = type_make(TYPE_BOOL); break;
		case R_INT: *ret = type_make(TYPE_INT32); break;
		case R_TEXTARR: *ret = array_of(type_make(TYPE_TEXT)); break;
		case R_SAMEARR: *ret = array_of(cast_to[0]); break;
		default: *ret = type_make(TYPE_TEXT); break;
		}
		return FLOE_OK;
	}
	return FLOE_OK;
}

/* ---- row helpers ----------------------------------------------------------- */

typedef struct Rows {
	VectorView v[4];
	const Vector *args;
	int n;
	Arena *tmp;
} Rows;

static void
rows_init(Rows *r, const Vector *args, int nargs)
{
	r->args = args;
	r->n = nargs < 4 ? nargs : 4;
	for (int j = 0; j < r->n; j++)
		vector_view(&args[j], &r->v[j]);
	r->tmp = arena_new(0);
}

static int
rows_done(Rows *r, int rc)
{
	arena_free(r->tmp);
	return rc;
}

static bool
is_null(const Rows *r, int j, uint32_t i)
{
	return r->args[j].type.id == TYPE_NULL || !ARGVALID(r->v[j], ARGK(r->v[j], i));
}

static const strview *
str_at(const Rows *r, int j, uint32_t i)
{
	return &((const strview *)r->v[j].data)[ARGK(r->v[j], i)];
}

static int64_t
int_at(const Rows *r, int j, uint32_t i)
{
	return ((const int32_t *)r->v[j].data)[ARGK(r->v[j], i)];
}

static bool
is_jsonb(const Vector *v)
{
	return v->type.text_kind == TEXT_JSONB;
}

/* argument j of row i as a tree (json: strings decoded, source kept) */
static int
tree_at(FuncCtx *ctx, Rows *r, int j, uint32_t i, JsonNode **out)
{
	const strview *s = str_at(r, j, i);
	return pgjson_parse(strview_data(s), s->len,
			    is_jsonb(&r->args[j]) ? JSONP_JSONB : JSONP_TREE | JSONP_DECODE, r->tmp,
			    out, ctx->err);
}

/* text[] argument j: its elements (NULL ones: s NULL) */
typedef struct Path {
	const char **s;
	size_t *len;
	uint32_t n;
} Path;

static int
path_at(FuncCtx *ctx, Rows *r, int j, uint32_t i, Path *p)
{
	Value *vals;
	TRY(array_decode(str_at(r, j, i), r->args[j].type, r->tmp, &vals, &p->n, ctx->err));
	p->s = arena_alloc(r->tmp, sizeof *p->s * (p->n + 1));
	p->len = arena_alloc(r->tmp, sizeof *p->len * (p->n + 1));
	for (uint32_t k = 0; k < p->n; k++) {
		p->s[k] = vals[k].is_null ? NULL : strview_data(&vals[k].u.s);
		p->len[k] = vals[k].is_null ? 0 : vals[k].u.s.len;
	}
	return FLOE_OK;
}

static void
put_text(Vector *out, uint32_t i, const char *p, size_t n)
{
	vector_set_string(out, i, p, (uint32_t)n);
	out_valid(out, i);
}

static void
put_bool(Vector *out, uint32_t i, bool b)
{
	((uint8_t *)out->data)[i] = b;
	out_valid(out, i);
}

/* a node as the result type: json / jsonb text, or (as_text) ->>'s text */
static void
put_node(Vector *out, uint32_t i, const JsonNode *v, bool jsonb, bool as_text, Arena *a)
{
	size_t n;
	const char *t;
	if (!v || (as_text && v->kind == JV_NULL)) {
		out_null(out, i);
		return;
	}
	if (as_text && v->kind == JV_STRING) {
		put_text(out, i, v->s, v->len);
		return;
	}
	t = pgjson_node_text(v, jsonb, a, &n);
	put_text(out, i, t, n);
}

/* ---- -> ->> #> #>> ----------------------------------------------------- */

static const JsonNode *
array_elem(const JsonNode *v, int64_t idx)
{
	if (v->kind != JV_ARRAY)
		return NULL;
	if (idx < 0)
		idx += v->n;
	if (idx < 0 || idx >= (int64_t)v->n)
		return NULL;
	return &v->kids[idx];
}

static int
get(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool as_text)
{
	Rows r;
	bool jb = is_jsonb(&args[0]), by_int = args[1].type.id == TYPE_INT32;
	rows_init(&r, args, 2);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		const JsonNode *x;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		if (by_int && jb && v->raw) {
			/* jsonb_array_element: a raw scalar is a one-element array */
			int64_t k = int_at(&r, 1, i);
			x = k == 0 || k == -1 ? v : NULL;
		} else if (by_int) {
			x = array_elem(v, int_at(&r, 1, i));
		} else {
			const strview *k = str_at(&r, 1, i);
			x = pgjson_object_get(v, strview_data(k), k->len, jb);
		}
		put_node(out, i, x, jb, as_text, r.tmp);
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_get(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return get(ctx, args, count, out, false);
}

static int
k_get_text(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return get(ctx, args, count, out, true);
}

/* an array step of a path: a whole integer (PostgreSQL's strtoint), else -1 */
static bool
step_index(const char *s, size_t n, int64_t *idx)
{
	size_t i = 0;
	bool neg = false;
	int64_t v = 0;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i == n)
		return false;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > 100000000000LL)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v > 2147483647LL + neg)
		return false;
	*idx = neg ? -v : v;
	return true;
}

static const JsonNode *
walk(const JsonNode *v, const Path *p, bool jsonb)
{
	for (uint32_t k = 0; k < p->n && v; k++) {
		if (!p->s[k])
			return NULL;
		if (v->kind == JV_OBJECT) {
			v = pgjson_object_get(v, p->s[k], p->len[k], jsonb);
		} else if (v->kind == JV_ARRAY) {
			int64_t idx;
			if (!step_index(p->s[k], p->len[k], &idx))
				return NULL;
			v = array_elem(v, idx);
		} else {
			return NULL;
		}
	}
	return v;
}

static int
path(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool as_text)
{
	Rows r;
	bool jb = is_jsonb(&args[0]);
	rows_init(&r, args, 2);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		Path p;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK || path_at(ctx, &r, 1, i, &p) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		put_node(out, i, walk(v, &p, jb), jb, as_text, r.tmp);
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_path(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return path(ctx, args, count, out, false);
}

static int
k_path_text(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return path(ctx, args, count, out, true);
}

/* json(b)_extract_path(j, VARIADIC text): #> with the path as arguments
 * (strict: any NULL argument gives NULL, as PostgreSQL's) */
static int
extract(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, bool as_text)
{
	Rows r;
	bool jb = is_jsonb(&args[0]);
	VectorView *vw = malloc(sizeof *vw * (size_t)nargs);
	if (!vw)
		abort();
	rows_init(&r, args, 1);
	for (int j = 0; j < nargs; j++)
		vector_view(&args[j], &vw[j]);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		Path p;
		bool any_null = false;
		arena_reset(r.tmp);
		for (int j = 0; j < nargs; j++)
			any_null |= args[j].type.id == TYPE_NULL || !ARGVALID(vw[j], ARGK(vw[j], i));
		if (any_null) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK) {
			free(vw);
			return rows_done(&r, FLOE_ERR);
		}
		p.n = (uint32_t)(nargs - 1);
		p.s = arena_alloc(r.tmp, sizeof *p.s * (size_t)nargs);
		p.len = arena_alloc(r.tmp, sizeof *p.len * (size_t)nargs);
		for (int j = 1; j < nargs; j++) {
			const strview *sv = &((const strview *)vw[j].data)[ARGK(vw[j], i)];
			p.s[j - 1] = strview_data(sv);
			p.len[j - 1] = sv->len;
		}
		put_node(out, i, walk(v, &p, jb), jb, as_text, r.tmp);
	}
	free(vw);
	return rows_done(&r, FLOE_OK);
}

static int
k_extract(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return extract(ctx, args, nargs, count, out, false);
}

static int
k_extract_text(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return extract(ctx, args, nargs, count, out, true);
}

/* ---- containment, existence, comparison -------------------------------- */

static bool
scalar_equal(const JsonNode *a, const JsonNode *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == JV_STRING)
		return a->len == b->len && !memcmp(a->s, b->s, a->len);
	if (a->kind == JV_NUMBER)
		return pgjson_number_cmp(a->s, a->len, b->s, b->len) == 0;
	return true;
}

static bool
is_container(const JsonNode *v)
{
	return v->kind == JV_ARRAY || v->kind == JV_OBJECT;
}

/* JsonbDeepContains: a raw scalar is a one-element array */
static bool
contains(const JsonNode *a, const JsonNode *b)
{
	bool aarr = a->kind == JV_ARRAY || a->raw, barr = b->kind == JV_ARRAY || b->raw;
	uint32_t i, j;

	if (aarr != barr)
		return false;
	if (!aarr) {
		if (a->n < b->n)
			return false;
		for (i = 0; i < b->n; i++) {
			const JsonNode *bk = &b->kids[2 * i], *bv = &b->kids[2 * i + 1];
			const JsonNode *av = pgjson_object_get(a, bk->s, bk->len, true);
			if (!av)
				return false;
			if (is_container(av) != is_container(bv))
				return false;
			if (is_container(av) ? !contains(av, bv) : !scalar_equal(av, bv))
				return false;
		}
		return true;
	}
	if (a->raw && !b->raw)
		return false;
	const JsonNode *ae = a->raw ? a : a->kids, *be = b->raw ? b : b->kids;
	uint32_t an = a->raw ? 1 : a->n, bn = b->raw ? 1 : b->n;
	for (j = 0; j < bn; j++) {
		const JsonNode *x = &be[j];
		bool found = false;
		JsonNode xs = *x;
		xs.raw = false;
		for (i = 0; i < an && !found; i++) {
			JsonNode y = ae[i];
			y.raw = false;
			if (is_container(x))
				found = is_container(&y) && contains(&y, &xs);
			else
				found = !is_container(&y) && scalar_equal(&y, &xs);
		}
		if (!found)
			return false;
	}
	return true;
}

enum { C_CONTAINS, C_CONTAINED, C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };

static int
binary_bool(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, int op)
{
	Rows r;
	rows_init(&r, args, 2);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *a, *b;
		bool res = false;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &a) != FLOE_OK || tree_at(ctx, &r, 1, i, &b) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		if (op == C_CONTAINS) {
			res = contains(a, b);
		} else if (op == C_CONTAINED) {
			res = contains(b, a);
		} else {
			int c = pgjsonb_compare(a, b);
			res = op == C_EQ ? c == 0 : op == C_NE ? c != 0 : op == C_LT ? c < 0 :
			      op == C_LE ? c <= 0 : op == C_GT ? c > 0 : c >= 0;
		}
		put_bool(out, i, res);
	}
	return rows_done(&r, FLOE_OK);
}

#define BOOL_KERNEL(fn, op) \
	static int fn(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out) \
	{ (void)nargs; return binary_bool(ctx, args, count, out, op); }
BOOL_KERNEL(k_contains, C_CONTAINS)
BOOL_KERNEL(k_contained, C_CONTAINED)
BOOL_KERNEL(k_eq, C_EQ)
BOOL_KERNEL(k_ne, C_NE)
BOOL_KERNEL(k_lt, C_LT)
BOOL_KERNEL(k_le, C_LE)
BOOL_KERNEL(k_gt, C_GT)
BOOL_KERNEL(k_ge, C_GE)

/* a top-level key of an object, or a string element of an array / the
 * raw scalar (findJsonbValueFromContainer with JB_FOBJECT | JB_FARRAY) */
static bool
exists(const JsonNode *v, const char *k, size_t n)
{
	if (v->kind == JV_OBJECT)
		return pgjson_object_get(v, k, n, true) != NULL;
	if (v->raw)
		return v->kind == JV_STRING && v->len == n && !memcmp(v->s, k, n);
	if (v->kind == JV_ARRAY)
		for (uint32_t i = 0; i < v->n; i++)
			if (v->kids[i].kind == JV_STRING && v->kids[i].len == n &&
			    !memcmp(v->kids[i].s, k, n))
				return true;
	return false;
}

static int
exists_k(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, int mode)
{
	Rows r;
	rows_init(&r, args, 2);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		bool res;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		if (mode == 0) {
			const strview *k = str_at(&r, 1, i);
			res = exists(v, strview_data(k), k->len);
		} else {
			Path p;
			if (path_at(ctx, &r, 1, i, &p) != FLOE_OK)
				return rows_done(&r, FLOE_ERR);
			res = mode == 2;      /* ?& of no keys: true; ?| false */
			for (uint32_t k = 0; k < p.n; k++) {
				if (!p.s[k])
					continue;
				bool e = exists(v, p.s[k], p.len[k]);
				if (mode == 1 && e) {
					res = true;
					break;
				}
				if (mode == 2 && !e) {
					res = false;
					break;
				}
			}
		}
		put_bool(out, i, res);
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_exists(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return exists_k(ctx, args, count, out, 0);
}

static int
k_exists_any(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return exists_k(ctx, args, count, out, 1);
}

static int
k_exists_all(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return exists_k(ctx, args, count, out, 2);
}

/* ---- || and - ------------------------------------------------------------ */

static int
k_concat(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	(void)nargs;
	rows_init(&r, args, 2);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *a, *b, res;
		JsonBuf buf;
		size_t n;
		const char *t;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &a) != FLOE_OK || tree_at(ctx, &r, 1, i, &b) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		memset(&res, 0, sizeof res);
		jbuf_init(&buf, r.tmp);
		if (a->kind == JV_OBJECT && b->kind == JV_OBJECT) {
			/* merged: write both, the right's pairs last, and normalise
			 * (the last duplicate wins) */
			jbuf_addc(&buf, '{');
			for (uint32_t k = 0; k < a->n + b->n; k++) {
				const JsonNode *o = k < a->n ? a : b;
				uint32_t m = k < a->n ? k : k - a->n;
				if (k)
					jbuf_add(&buf, ", ", 2);
				pgjsonb_write(&buf, &o->kids[2 * m]);
				jbuf_add(&buf, ": ", 2);
				pgjsonb_write(&buf, &o->kids[2 * m + 1]);
			}
			jbuf_addc(&buf, '}');
		} else {
			/* arrays concatenated; an object or a scalar is one element */
			const JsonNode *side[2] = { a, b };
			bool first = true;
			jbuf_addc(&buf, '[');
			for (int s = 0; s < 2; s++) {
				const JsonNode *x = side[s];
				uint32_t n2 = x->kind == JV_ARRAY ? x->n : 1;
				for (uint32_t k = 0; k < n2; k++) {
					if (!first)
						jbuf_add(&buf, ", ", 2);
					first = false;
					pgjsonb_write(&buf, x->kind == JV_ARRAY ? &x->kids[k] : x);
				}
			}
			jbuf_addc(&buf, ']');
		}
		t = jbuf_finish(&buf, &n);
		if (pgjsonb_normalize(t, n, r.tmp, &t, &n, ctx->err) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		put_text(out, i, t, n);
	}
	return rows_done(&r, FLOE_OK);
}

static bool
in_path(const Path *p, const char *s, size_t n)
{
	for (uint32_t k = 0; k < p->n; k++)
		if (p->s[k] && p->len[k] == n && !memcmp(p->s[k], s, n))
			return true;
	return false;
}

static int
k_delete(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	bool by_int = args[1].type.id == TYPE_INT32, by_arr = args[1].type.id == TYPE_ARRAY;
	(void)nargs;
	rows_init(&r, args, 2);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		Path keys = { 0 };
		JsonBuf buf;
		size_t n;
		const char *t;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		if (v->raw) {
			floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE, "cannot delete from scalar");
			return rows_done(&r, FLOE_ERR);
		}
		if (by_int && v->kind == JV_OBJECT) {
			floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				    "cannot delete from object using integer index");
			return rows_done(&r, FLOE_ERR);
		}
		if (by_arr) {
			if (path_at(ctx, &r, 1, i, &keys) != FLOE_OK)
				return rows_done(&r, FLOE_ERR);
		} else if (!by_int) {
			const strview *k = str_at(&r, 1, i);
			keys.n = 1;
			keys.s = arena_alloc(r.tmp, sizeof *keys.s);
			keys.len = arena_alloc(r.tmp, sizeof *keys.len);
			keys.s[0] = strview_data(k);
			keys.len[0] = k->len;
		}
		int64_t drop = -1;
		if (by_int) {
			drop = int_at(&r, 1, i);
			if (drop < 0)
				drop += v->n;
		}
		jbuf_init(&buf, r.tmp);
		jbuf_addc(&buf, v->kind == JV_OBJECT ? '{' : '[');
		bool first = true;
		for (uint32_t k = 0; k < v->n; k++) {
			const JsonNode *e = v->kind == JV_OBJECT ? &v->kids[2 * k] : &v->kids[k];
			if (by_int ? (int64_t)k == drop
				   : (e->kind == JV_STRING && in_path(&keys, e->s, e->len)))
				continue;
			if (!first)
				jbuf_add(&buf, ", ", 2);
			first = false;
			pgjsonb_write(&buf, e);
			if (v->kind == JV_OBJECT) {
				jbuf_add(&buf, ": ", 2);
				pgjsonb_write(&buf, &v->kids[2 * k + 1]);
			}
		}
		jbuf_addc(&buf, v->kind == JV_OBJECT ? '}' : ']');
		t = jbuf_finish(&buf, &n);
		put_text(out, i, t, n);
	}
	return rows_done(&r, FLOE_OK);
}

/* ---- typeof, array_length, strip_nulls, pretty ------------------------- */

static const char *
kind_name(const JsonNode *v)
{
	static const char *const names[] = { "null", "string", "number", "boolean", "boolean",
					     "array", "object" };
	return names[v->kind];
}

static int
k_typeof(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	(void)nargs;
	rows_init(&r, args, 1);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		const char *s = kind_name(v);
		put_text(out, i, s, strlen(s));
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_array_length(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	(void)nargs;
	rows_init(&r, args, 1);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		if (v->kind != JV_ARRAY) {
			floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				    v->raw ? "cannot get array length of a scalar"
					   : "cannot get array length of a non-array");
			return rows_done(&r, FLOE_ERR);
		}
		((int32_t *)out->data)[i] = (int32_t)v->n;
		out_valid(out, i);
	}
	return rows_done(&r, FLOE_OK);
}

/* json_strip_nulls writes json without spaces; jsonb_strip_nulls jsonb */
static void
strip_write(JsonBuf *b, const JsonNode *v, bool jsonb)
{
	uint32_t k;
	bool first = true;
	if (v->kind == JV_OBJECT) {
		jbuf_addc(b, '{');
		for (k = 0; k < v->n; k++) {
			if (v->kids[2 * k + 1].kind == JV_NULL)
				continue;
			if (!first)
				jbuf_add(b, jsonb ? ", " : ",", jsonb ? 2 : 1);
			first = false;
			pgjson_escape(b, v->kids[2 * k].s, v->kids[2 * k].len);
			jbuf_add(b, jsonb ? ": " : ":", jsonb ? 2 : 1);
			strip_write(b, &v->kids[2 * k + 1], jsonb);
		}
		jbuf_addc(b, '}');
	} else if (v->kind == JV_ARRAY) {
		jbuf_addc(b, '[');
		for (k = 0; k < v->n; k++) {
			if (k)
				jbuf_add(b, jsonb ? ", " : ",", jsonb ? 2 : 1);
			strip_write(b, &v->kids[k], jsonb);
		}
		jbuf_addc(b, ']');
	} else if (v->kind == JV_STRING) {
		pgjson_escape(b, v->s, v->len);
	} else if (jsonb) {
		pgjsonb_write(b, v);
	} else {
		jbuf_add(b, v->src, v->srclen);
	}
}

static void
pretty_write(JsonBuf *b, const JsonNode *v, int level)
{
	uint32_t k;
	if (!is_container(v)) {
		pgjsonb_write(b, v);
		return;
	}
	bool obj = v->kind == JV_OBJECT;
	jbuf_addc(b, obj ? '{' : '[');
	for (k = 0; k < v->n; k++) {
		if (k)
			jbuf_addc(b, ',');
		jbuf_addc(b, '\n');
		for (int s = 0; s < level + 1; s++)
			jbuf_add(b, "    ", 4);
		if (obj) {
			pgjsonb_write(b, &v->kids[2 * k]);
			jbuf_add(b, ": ", 2);
			pretty_write(b, &v->kids[2 * k + 1], level + 1);
		} else {
			pretty_write(b, &v->kids[k], level + 1);
		}
	}
	jbuf_addc(b, '\n');
	for (int s = 0; s < level; s++)
		jbuf_add(b, "    ", 4);
	jbuf_addc(b, obj ? '}' : ']');
}

static int
unary_text(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool pretty)
{
	Rows r;
	bool jb = is_jsonb(&args[0]);
	rows_init(&r, args, 1);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		JsonBuf b;
		size_t n;
		const char *t;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		jbuf_init(&b, r.tmp);
		if (pretty)
			pretty_write(&b, v, 0);
		else
			strip_write(&b, v, jb);
		t = jbuf_finish(&b, &n);
		put_text(out, i, t, n);
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_strip_nulls(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return unary_text(ctx, args, count, out, false);
}

static int
k_pretty(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return unary_text(ctx, args, count, out, true);
}

/* ---- to_json and the builders -------------------------------------------- */

/* A date/time's text as JSON shows it (ISO 8601: 'T' between date and time,
 * a zone offset with minutes: +00:00). */
static void
datetime_json(JsonBuf *b, const char *t, size_t n, TypeId id)
{
	char buf[96];
	size_t m = n < sizeof buf - 4 ? n : sizeof buf - 4;
	memcpy(buf, t, m);
	buf[m] = '\0';
	if (id == TYPE_TIMESTAMP || id == TYPE_TIMESTAMPTZ) {
		char *sp = strchr(buf, ' ');
		if (sp && strcmp(buf, "infinity") && strcmp(buf, "-infinity"))
			*sp = 'T';
		if (id == TYPE_TIMESTAMPTZ && m >= 3 && (buf[m - 3] == '+' || buf[m - 3] == '-') &&
		    strchr(buf, 'T')) {
			memcpy(buf + m, ":00", 4);
			m += 3;
		}
	}
	pgjson_escape(b, buf, strlen(buf));
}

static void value_json(JsonBuf *b, const Value *v, const char *txt, size_t n, Arena *a);

/* one Value as JSON (datum_to_json): txt is its text output when known */
static void
value_json(JsonBuf *b, const Value *v, const char *txt, size_t n, Arena *a)
{
	if (v->is_null || v->type.id == TYPE_NULL) {
		jbuf_add(b, "null", 4);
		return;
	}
	if (v->type.id == TYPE_ARRAY && !v->type.vector) {
		Value *vals;
		uint32_t k, cnt;
		floe_error e;
		memset(&e, 0, sizeof e);
		if (array_decode(&v->u.s, v->type, a, &vals, &cnt, &e) != FLOE_OK) {
			jbuf_add(b, "null", 4);
			return;
		}
		jbuf_addc(b, '[');
		for (k = 0; k < cnt; k++) {
			size_t en = 0;
			const char *et = vals[k].is_null ? NULL : value_to_text(&vals[k], a, &en);
			if (k)
				jbuf_addc(b, ',');
			value_json(b, &vals[k], et, en, a);
		}
		jbuf_addc(b, ']');
		return;
	}
	if (!txt)
		txt = value_to_text(v, a, &n);
	switch (v->type.id) {
	case TYPE_BOOL:
		jbuf_adds(b, v->u.b ? "true" : "false");
		return;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: case TYPE_DECIMAL:
		jbuf_add(b, txt, n);
		return;
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		if (strcmp(txt, "NaN") && strcmp(txt, "Infinity") && strcmp(txt, "-Infinity"))
			jbuf_add(b, txt, n);
		else
			pgjson_escape(b, txt, n);
		return;
	case TYPE_DATE: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		datetime_json(b, txt, n, v->type.id);
		return;
	case TYPE_TEXT:
		if (type_is_json(v->type)) {
			jbuf_add(b, txt, n);
			return;
		}
		pgjson_escape(b, txt, n);
		return;
	default:
		pgjson_escape(b, txt, n);
		return;
	}
}

/* row i of arg as JSON */
static void
arg_json(JsonBuf *b, const Vector *arg, uint32_t i, Arena *a)
{
	Value v;
	size_t n = 0;
	const char *t;
	if (arg->type.id == TYPE_NULL) {
		jbuf_add(b, "null", 4);
		return;
	}
	vector_get_value(arg, i, &v);
	t = v.is_null ? NULL : vector_value_text(arg, i, a, &n);
	value_json(b, &v, t, n, a);
}

static int
finish_json(FuncCtx *ctx, Vector *out, uint32_t i, JsonBuf *b, Arena *a)
{
	size_t n;
	const char *t = jbuf_finish(b, &n);
	if (out->type.text_kind == TEXT_JSONB)
		TRY(pgjsonb_normalize(t, n, a, &t, &n, ctx->err));
	put_text(out, i, t, n);
	return FLOE_OK;
}

static int
k_to_json(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	(void)nargs;
	rows_init(&r, args, 1);
	for (uint32_t i = 0; i < count; i++) {
		JsonBuf b;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i)) {
			out_null(out, i);
			continue;
		}
		jbuf_init(&b, r.tmp);
		arg_json(&b, &args[0], i, r.tmp);
		if (finish_json(ctx, out, i, &b, r.tmp) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_build_object(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	bool jb = out->type.text_kind == TEXT_JSONB;
	if (nargs % 2) {
		floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "argument list must have even number of elements");
		return floe_error_hint(ctx->err, jb ?
			"The arguments of jsonb_build_object() must consist of alternating keys and values." :
			"The arguments of json_build_object() must consist of alternating keys and values.");
	}
	for (int j = 0; j < nargs; j += 2)
		if (args[j].type.id == TYPE_ARRAY || type_is_json(args[j].type))
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "key value must be scalar, not array, composite, or json");
	rows_init(&r, args, 0);
	for (uint32_t i = 0; i < count; i++) {
		JsonBuf b;
		arena_reset(r.tmp);
		jbuf_init(&b, r.tmp);
		jbuf_addc(&b, '{');
		for (int j = 0; j < nargs; j++) {
			if (j % 2 == 0) {
				size_t n = 0;
				const char *t = args[j].type.id == TYPE_NULL || !vector_is_valid(&args[j], i)
						? NULL : vector_value_text(&args[j], i, r.tmp, &n);
				if (!t) {
					if (jb) {
						floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
							    "argument %d: key must not be null", j + 1);
					} else {
						floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
							    "argument %d cannot be null", j + 1);
						floe_error_hint(ctx->err, "Object keys should be text.");
					}
					return rows_done(&r, FLOE_ERR);
				}
				if (args[j].type.id == TYPE_BOOL)
					t = t[0] == 't' ? "true" : "false", n = strlen(t);
				if (j)
					jbuf_add(&b, ", ", 2);
				pgjson_escape(&b, t, n);
				jbuf_add(&b, " : ", 3);
			} else {
				arg_json(&b, &args[j], i, r.tmp);
			}
		}
		jbuf_addc(&b, '}');
		if (finish_json(ctx, out, i, &b, r.tmp) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_build_array(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	rows_init(&r, args, 0);
	for (uint32_t i = 0; i < count; i++) {
		JsonBuf b;
		arena_reset(r.tmp);
		jbuf_init(&b, r.tmp);
		jbuf_addc(&b, '[');
		for (int j = 0; j < nargs; j++) {
			if (j)
				jbuf_add(&b, ", ", 2);
			arg_json(&b, &args[j], i, r.tmp);
		}
		jbuf_addc(&b, ']');
		if (finish_json(ctx, out, i, &b, r.tmp) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

/* ---- jsonb_set ----------------------------------------------------------- */

typedef struct SetCtx {
	const Path *p;
	const JsonNode *nv;
	bool create;
	floe_error *err;
	int mode;         /* SET_REPLACE (jsonb_set), SET_BEFORE / SET_AFTER (jsonb_insert) */
} SetCtx;

enum { SET_REPLACE = 0, SET_BEFORE, SET_AFTER };

static int
path_int(SetCtx *s, uint32_t k, int64_t *idx)
{
	if (!step_index(s->p->s[k], s->p->len[k], idx))
		return floe_errorf(s->err, ERRCODE_INVALID_TEXT_REPRESENTATION,
				   "path element at position %u is not an integer: \"%.*s\"", k + 1,
				   (int)s->p->len[k], s->p->s[k]);
	return FLOE_OK;
}

/* write v with the value at path step k.. replaced (setPath) */
static int
set_write(JsonBuf *b, const JsonNode *v, SetCtx *s, uint32_t k)
{
	uint32_t i;
	if (k == s->p->n) {
		pgjsonb_write(b, s->nv);
		return FLOE_OK;
	}
	if (!s->p->s[k])
		return floe_errorf(s->err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
				   "path element at position %u is null", k + 1);
	if (v->kind == JV_OBJECT) {
		bool found = false;
		jbuf_addc(b, '{');
		for (i = 0; i < v->n; i++) {
			const JsonNode *key = &v->kids[2 * i];
			if (i)
				jbuf_add(b, ", ", 2);
			pgjsonb_write(b, key);
			jbuf_add(b, ": ", 2);
			if (key->len == s->p->len[k] && !memcmp(key->s, s->p->s[k], key->len)) {
				found = true;
				if (s->mode != SET_REPLACE && k + 1 == s->p->n) {
					floe_errorf(s->err, ERRCODE_INVALID_PARAMETER_VALUE,
						    "cannot replace existing key");
					return floe_error_hint(s->err,
						"Try using the function jsonb_set to replace key value.");
				}
				TRY(set_write(b, &v->kids[2 * i + 1], s, k + 1));
			} else {
				pgjsonb_write(b, &v->kids[2 * i + 1]);
			}
		}
		if (!found && (s->create || s->mode != SET_REPLACE) && k + 1 == s->p->n) {
			if (v->n)
				jbuf_add(b, ", ", 2);
			pgjson_escape(b, s->p->s[k], s->p->len[k]);
			jbuf_add(b, ": ", 2);
			pgjsonb_write(b, s->nv);
		}
		jbuf_addc(b, '}');
		return FLOE_OK;
	}
	if (v->kind == JV_ARRAY && s->mode != SET_REPLACE && k + 1 == s->p->n) {
		/* jsonb_insert: before (after) element idx; a negative idx
		 * counts from the end, one beyond either end prepends / appends */
		int64_t idx;
		bool done = false, first = true;
		TRY(path_int(s, k, &idx));
		if (idx < 0)
			idx = -idx > (int64_t)v->n ? INT64_MIN : idx + v->n;
		if (idx > (int64_t)v->n)
			idx = v->n;
		jbuf_addc(b, '[');
		if (idx == INT64_MIN || v->n == 0) {
			pgjsonb_write(b, s->nv);
			first = false;
			done = true;
		}
		for (i = 0; i < v->n; i++) {
			bool hit = !done && (int64_t)i == idx;
			if (!first)
				jbuf_add(b, ", ", 2);
			first = false;
			if (hit && s->mode == SET_BEFORE) {
				pgjsonb_write(b, s->nv);
				jbuf_add(b, ", ", 2);
			}
			pgjsonb_write(b, &v->kids[i]);
			if (hit && s->mode == SET_AFTER) {
				jbuf_add(b, ", ", 2);
				pgjsonb_write(b, s->nv);
			}
			done |= hit;
		}
		if (!done) {
			if (!first)
				jbuf_add(b, ", ", 2);
			pgjsonb_write(b, s->nv);
		}
		jbuf_addc(b, ']');
		return FLOE_OK;
	}
	if (v->kind == JV_ARRAY) {
		int64_t idx;
		TRY(path_int(s, k, &idx));
		if (idx < 0)
			idx += v->n;
		bool last = k + 1 == s->p->n;
		jbuf_addc(b, '[');
		bool first = true;
		if (idx < 0 && s->create && last) {
			pgjsonb_write(b, s->nv);
			first = false;
		}
		for (i = 0; i < v->n; i++) {
			if (!first)
				jbuf_add(b, ", ", 2);
			first = false;
			if ((int64_t)i == idx)
				TRY(set_write(b, &v->kids[i], s, k + 1));
			else
				pgjsonb_write(b, &v->kids[i]);
		}
		if (idx >= (int64_t)v->n && s->create && last) {
			if (!first)
				jbuf_add(b, ", ", 2);
			pgjsonb_write(b, s->nv);
		}
		jbuf_addc(b, ']');
		return FLOE_OK;
	}
	pgjsonb_write(b, v);   /* a scalar on the way: unchanged */
	return FLOE_OK;
}

/* v without the value at path step k.. (jsonb #-: deletePath); a missing
 * step, a non-integer array step or a scalar on the way: unchanged */
static int
del_write(JsonBuf *b, const JsonNode *v, const Path *p, uint32_t k, floe_error *err)
{
	uint32_t i;
	bool last = k + 1 == p->n, first = true;
	if (k < p->n && !p->s[k])
		return floe_errorf(err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
				   "path element at position %u is null", k + 1);
	if (v->kind == JV_OBJECT) {
		jbuf_addc(b, '{');
		for (i = 0; i < v->n; i++) {
			const JsonNode *key = &v->kids[2 * i];
			bool hit = key->len == p->len[k] && !memcmp(key->s, p->s[k], key->len);
			if (hit && last)
				continue;
			if (!first)
				jbuf_add(b, ", ", 2);
			first = false;
			pgjsonb_write(b, key);
			jbuf_add(b, ": ", 2);
			if (hit)
				TRY(del_write(b, &v->kids[2 * i + 1], p, k + 1, err));
			else
				pgjsonb_write(b, &v->kids[2 * i + 1]);
		}
		jbuf_addc(b, '}');
		return FLOE_OK;
	}
	if (v->kind == JV_ARRAY) {
		int64_t idx;
		if (!step_index(p->s[k], p->len[k], &idx))
			return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
					   "path element at position %u is not an integer: \"%.*s\"",
					   k + 1, (int)p->len[k], p->s[k]);
		if (idx < 0)
			idx += v->n;
		jbuf_addc(b, '[');
		for (i = 0; i < v->n; i++) {
			bool hit = (int64_t)i == idx;
			if (hit && last)
				continue;
			if (!first)
				jbuf_add(b, ", ", 2);
			first = false;
			if (hit)
				TRY(del_write(b, &v->kids[i], p, k + 1, err));
			else
				pgjsonb_write(b, &v->kids[i]);
		}
		jbuf_addc(b, ']');
		return FLOE_OK;
	}
	pgjsonb_write(b, v);
	return FLOE_OK;
}

static int
k_delete_path(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	(void)nargs;
	rows_init(&r, args, 2);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		Path p;
		JsonBuf b;
		size_t n;
		const char *t;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK || path_at(ctx, &r, 1, i, &p) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		if (v->raw) {
			floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				    "cannot delete path in scalar");
			return rows_done(&r, FLOE_ERR);
		}
		jbuf_init(&b, r.tmp);
		if (p.n == 0)
			pgjsonb_write(&b, v);
		else if (del_write(&b, v, &p, 0, ctx->err) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		t = jbuf_finish(&b, &n);
		put_text(out, i, t, n);
	}
	return rows_done(&r, FLOE_OK);
}

/* target v with nv set (mode) at path p, into row i of out */
static int
set_row(FuncCtx *ctx, Rows *r, uint32_t i, const JsonNode *v, const Path *p, const JsonNode *nv,
	bool create, int mode, Vector *out)
{
	JsonBuf b;
	size_t n;
	const char *t;
	SetCtx s = { p, nv, create, ctx->err, mode };
	if (v->raw)
		return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE, "cannot set path in scalar");
	if (p->n == 0) {
		t = pgjsonb_text(v, r->tmp, &n);
		put_text(out, i, t, n);
		return FLOE_OK;
	}
	jbuf_init(&b, r->tmp);
	TRY(set_write(&b, v, &s, 0));
	t = jbuf_finish(&b, &n);
	TRY(pgjsonb_normalize(t, n, r->tmp, &t, &n, ctx->err));
	put_text(out, i, t, n);
	return FLOE_OK;
}

/* jsonb_set (mode SET_REPLACE) and jsonb_insert (SET_BEFORE, or SET_AFTER
 * when the fourth argument is true) */
static int
set_common(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, bool insert)
{
	Rows r;
	rows_init(&r, args, nargs);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v, *nv;
		Path p;
		bool any_null = false, flag;
		arena_reset(r.tmp);
		for (int j = 0; j < nargs; j++)
			any_null |= is_null(&r, j, i);
		if (any_null) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK || path_at(ctx, &r, 1, i, &p) != FLOE_OK ||
		    tree_at(ctx, &r, 2, i, &nv) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		flag = nargs >= 4 && ((const uint8_t *)r.v[3].data)[ARGK(r.v[3], i)];
		if (set_row(ctx, &r, i, v, &p, nv, insert ? false : nargs < 4 || flag,
			    insert ? (flag ? SET_AFTER : SET_BEFORE) : SET_REPLACE, out) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

static int
k_set(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return set_common(ctx, args, nargs, count, out, false);
}

static int
k_insert(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return set_common(ctx, args, nargs, count, out, true);
}

static int del_write(JsonBuf *b, const JsonNode *v, const Path *p, uint32_t k, floe_error *err);

/* v without the value at path p (#-), into row i of out */
static int
delete_row(FuncCtx *ctx, Rows *r, uint32_t i, const JsonNode *v, const Path *p, Vector *out)
{
	JsonBuf b;
	size_t n;
	const char *t;
	if (v->raw)
		return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "cannot delete path in scalar");
	jbuf_init(&b, r->tmp);
	if (p->n == 0)
		pgjsonb_write(&b, v);
	else
		TRY(del_write(&b, v, p, 0, ctx->err));
	t = jbuf_finish(&b, &n);
	put_text(out, i, t, n);
	return FLOE_OK;
}

/* jsonb_set_lax: NULL target, path or create give NULL; a NULL treatment
 * is 22023; a non-NULL value is jsonb_set's; a NULL one is handled by
 * null_value_treatment: use_json_null (default), raise_exception (22004),
 * delete_key (#-), return_target (PostgreSQL 15's order) */
static int
k_set_lax(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	static const char bad[] = "null_value_treatment must be \"delete_key\", \"return_target\", "
				  "\"use_json_null\", or \"raise_exception\"";
	Rows r;
	VectorView tv;
	JsonNode jnull;
	memset(&jnull, 0, sizeof jnull);
	jnull.kind = JV_NULL;
	rows_init(&r, args, nargs);
	if (nargs == 5)
		vector_view(&args[4], &tv);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v, *nv;
		Path p;
		bool create = true;
		const char *how = "use_json_null";
		size_t hl = strlen(how);
		int rc;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || is_null(&r, 1, i) || (nargs >= 4 && is_null(&r, 3, i))) {
			out_null(out, i);
			continue;
		}
		if (nargs == 5) {
			const strview *h;
			if (args[4].type.id == TYPE_NULL || !ARGVALID(tv, ARGK(tv, i))) {
				floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE, "%s", bad);
				return rows_done(&r, FLOE_ERR);
			}
			h = &((const strview *)tv.data)[ARGK(tv, i)];
			how = strview_data(h);
			hl = h->len;
		}
		if (nargs >= 4)
			create = ((const uint8_t *)r.v[3].data)[ARGK(r.v[3], i)] != 0;
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK || path_at(ctx, &r, 1, i, &p) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
#define IS(w) (hl == strlen(w) && !memcmp(how, w, hl))
		if (!is_null(&r, 2, i)) {
			if (tree_at(ctx, &r, 2, i, &nv) != FLOE_OK)
				return rows_done(&r, FLOE_ERR);
			rc = set_row(ctx, &r, i, v, &p, nv, create, SET_REPLACE, out);
		} else if (IS("raise_exception")) {
			floe_errorf(ctx->err, ERRCODE_NULL_VALUE_NOT_ALLOWED, "JSON value must not be null");
			floe_error_detail(ctx->err,
				"Exception was raised because null_value_treatment is \"raise_exception\".");
			floe_error_hint(ctx->err,
				"To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.");
			rc = FLOE_ERR;
		} else if (IS("use_json_null")) {
			rc = set_row(ctx, &r, i, v, &p, &jnull, create, SET_REPLACE, out);
		} else if (IS("delete_key")) {
			rc = delete_row(ctx, &r, i, v, &p, out);
		} else if (IS("return_target")) {
			size_t n;
			const char *t = pgjsonb_text(v, r.tmp, &n);
			put_text(out, i, t, n);
			rc = FLOE_OK;
		} else {
			rc = floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE, "%s", bad);
		}
#undef IS
		if (rc != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

/* array_to_json(anyarray [, pretty]): to_json of an array, ",\n " between
 * the elements when pretty */
static int
k_array_to_json(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	rows_init(&r, args, nargs);
	for (uint32_t i = 0; i < count; i++) {
		JsonBuf b;
		Value v, *vals;
		uint32_t k, cnt;
		bool pretty;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || (nargs == 2 && is_null(&r, 1, i))) {
			out_null(out, i);
			continue;
		}
		pretty = nargs == 2 && ((const uint8_t *)r.v[1].data)[ARGK(r.v[1], i)];
		vector_get_value(&args[0], i, &v);
		if (array_decode(&v.u.s, v.type, r.tmp, &vals, &cnt, ctx->err) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		jbuf_init(&b, r.tmp);
		jbuf_addc(&b, '[');
		for (k = 0; k < cnt; k++) {
			size_t en = 0;
			const char *et = vals[k].is_null ? NULL : value_to_text(&vals[k], r.tmp, &en);
			if (k)
				jbuf_adds(&b, pretty ? ",\n " : ",");
			value_json(&b, &vals[k], et, en, r.tmp);
		}
		jbuf_addc(&b, ']');
		if (finish_json(ctx, out, i, &b, r.tmp) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

/* json_object(text[]) of alternating keys and values, json_object(keys,
 * values): {"k" : "v", ...} (jsonb_object: normalised), NULL values null;
 * 2202E for an odd count or arrays of different lengths, 22004 for a NULL
 * key (PostgreSQL 15's json_object / json_object_two_arg) */
static int
k_object(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	rows_init(&r, args, nargs);
	for (uint32_t i = 0; i < count; i++) {
		Path k, v;
		JsonBuf b;
		uint32_t n, j;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i) || (nargs == 2 && is_null(&r, 1, i))) {
			out_null(out, i);
			continue;
		}
		if (path_at(ctx, &r, 0, i, &k) != FLOE_OK ||
		    (nargs == 2 && path_at(ctx, &r, 1, i, &v) != FLOE_OK))
			return rows_done(&r, FLOE_ERR);
		if (nargs == 1 && k.n % 2) {
			floe_errorf(ctx->err, ERRCODE_ARRAY_SUBSCRIPT_ERROR,
				    "array must have even number of elements");
			return rows_done(&r, FLOE_ERR);
		}
		if (nargs == 2 && k.n != v.n) {
			floe_errorf(ctx->err, ERRCODE_ARRAY_SUBSCRIPT_ERROR, "mismatched array dimensions");
			return rows_done(&r, FLOE_ERR);
		}
		n = nargs == 1 ? k.n / 2 : k.n;
		jbuf_init(&b, r.tmp);
		jbuf_addc(&b, '{');
		for (j = 0; j < n; j++) {
			uint32_t ki = nargs == 1 ? 2 * j : j, vi = nargs == 1 ? 2 * j + 1 : j;
			const Path *vp = nargs == 1 ? &k : &v;
			if (!k.s[ki]) {
				floe_errorf(ctx->err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					    "null value not allowed for object key");
				return rows_done(&r, FLOE_ERR);
			}
			if (j)
				jbuf_add(&b, ", ", 2);
			pgjson_escape(&b, k.s[ki], k.len[ki]);
			jbuf_add(&b, " : ", 3);
			if (vp->s[vi])
				pgjson_escape(&b, vp->s[vi], vp->len[vi]);
			else
				jbuf_add(&b, "null", 4);
		}
		jbuf_addc(&b, '}');
		if (finish_json(ctx, out, i, &b, r.tmp) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

/* __floe_row_to_json(pretty, name, value, ...): composite_to_json's
 * {"name":value,...}, ",\n " between the fields when pretty */
static int
k_row_to_json(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Rows r;
	VectorView views[64];
	if (nargs > 64)
		return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "cannot pass more than 100 arguments to a function");
	rows_init(&r, args, 1);
	for (int j = 0; j < nargs; j++)
		vector_view(&args[j], &views[j]);
	for (uint32_t i = 0; i < count; i++) {
		JsonBuf b;
		bool pretty;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i)) {
			out_null(out, i);
			continue;
		}
		pretty = ((const uint8_t *)r.v[0].data)[ARGK(r.v[0], i)];
		jbuf_init(&b, r.tmp);
		jbuf_addc(&b, '{');
		for (int j = 1; j + 1 < nargs; j += 2) {
			const strview *nm = &((const strview *)views[j].data)[ARGK(views[j], i)];
			if (j > 1)
				jbuf_adds(&b, pretty ? ",\n " : ",");
			pgjson_escape(&b, strview_data(nm), nm->len);
			jbuf_addc(&b, ':');
			arg_json(&b, &args[j + 1], i, r.tmp);
		}
		jbuf_addc(&b, '}');
		if (finish_json(ctx, out, i, &b, r.tmp) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
	}
	return rows_done(&r, FLOE_OK);
}

/* ---- the set-returning functions, as arrays ------------------------------ */

enum { S_KEYS, S_ELEMS, S_ELEMS_TEXT, S_EACH_KEYS, S_EACH, S_EACH_TEXT };

static int
srf_array(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, int mode,
	  const char *fn)
{
	Rows r;
	bool jb = is_jsonb(&args[0]);
	rows_init(&r, args, 1);
	for (uint32_t i = 0; i < count; i++) {
		JsonNode *v;
		strview res;
		arena_reset(r.tmp);
		if (is_null(&r, 0, i)) {
			out_null(out, i);
			continue;
		}
		if (tree_at(ctx, &r, 0, i, &v) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		bool want_obj = mode != S_ELEMS && mode != S_ELEMS_TEXT;
		if (want_obj && v->kind != JV_OBJECT) {
			if (mode == S_KEYS)
				floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					    "cannot call %s on %s", fn, v->raw ? "a scalar" : "an array");
			else
				floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					    "cannot call %s on a non-object", fn);
			return rows_done(&r, FLOE_ERR);
		}
		if (!want_obj && v->kind != JV_ARRAY) {
			floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				    "cannot extract elements from %s", v->raw ? "a scalar" : "an object");
			return rows_done(&r, FLOE_ERR);
		}
		Value *vals = arena_alloc(r.tmp, sizeof *vals * (v->n ? v->n : 1));
		bool as_text = mode == S_ELEMS_TEXT || mode == S_EACH_TEXT || mode == S_KEYS ||
			       mode == S_EACH_KEYS;
		SqlType et = as_text ? type_make(TYPE_TEXT) : type_json(jb);
		for (uint32_t k = 0; k < v->n; k++) {
			const JsonNode *e = want_obj ? &v->kids[2 * k + (mode == S_KEYS ||
								       mode == S_EACH_KEYS ? 0 : 1)]
						     : &v->kids[k];
			size_t n;
			const char *t;
			memset(&vals[k], 0, sizeof vals[k]);
			vals[k].type = et;
			if (mode == S_KEYS || mode == S_EACH_KEYS || (as_text && e->kind == JV_STRING)) {
				t = e->s;
				n = e->len;
			} else if (as_text && e->kind == JV_NULL) {
				vals[k].is_null = true;
				continue;
			} else {
				t = pgjson_node_text(e, jb, r.tmp, &n);
			}
			vals[k].u.s = strview_make(arena_memdup(r.tmp, t, n), (uint32_t)n);
		}
		if (array_encode(r.tmp, out->type, vals, v->n, &res, ctx->err) != FLOE_OK)
			return rows_done(&r, FLOE_ERR);
		vector_set_string(out, i, strview_data(&res), res.len);
		out_valid(out, i);
	}
	return rows_done(&r, FLOE_OK);
}

#define SRF_KERNEL(fn, mode, nm) \
	static int fn(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out) \
	{ (void)nargs; return srf_array(ctx, args, count, out, mode, \
					is_jsonb(&args[0]) ? "jsonb_" nm : "json_" nm); }
SRF_KERNEL(k_keys, S_KEYS, "object_keys")
SRF_KERNEL(k_elems, S_ELEMS, "array_elements")
SRF_KERNEL(k_elems_text, S_ELEMS_TEXT, "array_elements_text")
SRF_KERNEL(k_each_keys, S_EACH_KEYS, "each")
SRF_KERNEL(k_each, S_EACH, "each")
SRF_KERNEL(k_each_text, S_EACH_TEXT, "each_text")
SRF_KERNEL(k_each_text_keys, S_EACH_KEYS, "each_text")

/* ---- json_agg / jsonb_agg ------------------------------------------------ */

typedef struct JAggState {
	char *p;
	size_t len, cap;
	bool any;
} JAggState;

static void
jagg_init(void *s)
{
	memset(s, 0, sizeof(JAggState));
}

static int
jagg_add(FuncCtx *ctx, JAggState *s, const char *t, size_t n)
{
	if (s->len + n + 4 > s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		while (nc < s->len + n + 4)
			nc *= 2;
		s->p = arena_realloc(ctx->arena, s->p, s->cap, nc);
		s->cap = nc;
		if (arena_over_limit(ctx->arena))
			return memacct_error(arena_account(ctx->arena), ctx->err);
	}
	if (s->any) {
		memcpy(s->p + s->len, ", ", 2);
		s->len += 2;
	}
	memcpy(s->p + s->len, t, n);
	s->len += n;
	s->any = true;
	return FLOE_OK;
}

static int
jagg_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	Arena *a = arena_new(0);
	for (uint32_t i = 0; i < count; i++) {
		JsonBuf b;
		size_t n;
		const char *t;
		arena_reset(a);
		jbuf_init(&b, a);
		arg_json(&b, arg, i, a);
		t = jbuf_finish(&b, &n);
		if (jagg_add(ctx, states[i], t, n) != FLOE_OK) {
			arena_free(a);
			return FLOE_ERR;
		}
	}
	arena_free(a);
	return FLOE_OK;
}

static int
jagg_combine(FuncCtx *ctx, void *dst, const void *src)
{
	const JAggState *s = src;
	if (!s->any)
		return FLOE_OK;
	return jagg_add(ctx, dst, s->p, s->len);
}

static int
jagg_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	JAggState *s = st;
	JsonBuf b;
	size_t n;
	const char *t;
	if (!s->any) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	jbuf_init(&b, ctx->arena);
	jbuf_addc(&b, '[');
	jbuf_add(&b, s->p, s->len);
	jbuf_addc(&b, ']');
	t = jbuf_finish(&b, &n);
	if (out->type.text_kind == TEXT_JSONB)
		TRY(pgjsonb_normalize(t, n, ctx->arena, &t, &n, ctx->err));
	vector_set_string(out, row, t, (uint32_t)n);
	out_valid(out, row);
	return FLOE_OK;
}

/* json_object_agg(k, v): { "k" : v, ... } (json keeps every pair, with
 * PostgreSQL's spaces inside the braces); jsonb_object_agg normalised */
static int
jobj_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	(void)arg;
	(void)count;
	(void)states;
	return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR,
			   "json_object_agg is a two-argument aggregate: call update2");
}

static int
jobj_update2(FuncCtx *ctx, const Vector *arg, const Vector *arg2, uint32_t count,
	     void **states)
{
	Arena *a = arena_new(0);
	int rc = FLOE_OK;
	for (uint32_t i = 0; i < count && rc == FLOE_OK; i++) {
		JsonBuf b;
		size_t n, kn = 0;
		const char *t, *k;
		arena_reset(a);
		if (arg->type.id == TYPE_ARRAY || type_is_json(arg->type)) {
			rc = floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					 "key value must be scalar, not array, composite, or json");
			break;
		}
		k = arg->type.id == TYPE_NULL || !vector_is_valid(arg, i) ? NULL
		    : vector_value_text(arg, i, a, &kn);
		if (!k) {
			rc = floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					 "field name must not be null");
			break;
		}
		if (arg->type.id == TYPE_BOOL)
			k = k[0] == 't' ? "true" : "false", kn = strlen(k);
		jbuf_init(&b, a);
		pgjson_escape(&b, k, kn);
		jbuf_add(&b, " : ", 3);
		arg_json(&b, arg2, i, a);
		t = jbuf_finish(&b, &n);
		rc = jagg_add(ctx, states[i], t, n);
	}
	arena_free(a);
	return rc;
}

static int
jobj_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	JAggState *s = st;
	JsonBuf b;
	size_t n;
	const char *t;
	if (!s->any) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	jbuf_init(&b, ctx->arena);
	jbuf_add(&b, "{ ", 2);
	jbuf_add(&b, s->p, s->len);
	jbuf_add(&b, " }", 2);
	t = jbuf_finish(&b, &n);
	if (out->type.text_kind == TEXT_JSONB)
		TRY(pgjsonb_normalize(t, n, ctx->arena, &t, &n, ctx->err));
	vector_set_string(out, row, t, (uint32_t)n);
	out_valid(out, row);
	return FLOE_OK;
}

static const AggFunc agg_json_object = { "json_object_agg", sizeof(JAggState), jagg_init,
					 jobj_update, jagg_combine, jobj_final, jobj_update2 };
static const AggFunc agg_jsonb_object = { "jsonb_object_agg", sizeof(JAggState), jagg_init,
					  jobj_update, jagg_combine, jobj_final, jobj_update2 };

static const AggFunc agg_json = { "json_agg", sizeof(JAggState), jagg_init, jagg_update,
				  jagg_combine, jagg_final, NULL };
static const AggFunc agg_jsonb = { "jsonb_agg", sizeof(JAggState), jagg_init, jagg_update,
				   jagg_combine, jagg_final, NULL };

const ScalarFunc func_agg_json_sigs[] = {
	{ "json_agg", NULL, 1, 0, { FARG_ANY_ASIS }, TYPE_TEXT, FRET_FIXED, false, false },
	{ "jsonb_agg", NULL, 1, 0, { FARG_ANY_ASIS }, TYPE_TEXT, FRET_FIXED, false, false },
	{ "json_object_agg", NULL, 2, 0, { FARG_ANY_ASIS, FARG_ANY_ASIS }, TYPE_TEXT, FRET_FIXED,
	  false, false },
	{ "jsonb_object_agg", NULL, 2, 0, { FARG_ANY_ASIS, FARG_ANY_ASIS }, TYPE_TEXT, FRET_FIXED,
	  false, false },
};

const AggFunc *const func_agg_json_impls[] = { &agg_json, &agg_jsonb, &agg_json_object,
					       &agg_jsonb_object };

const int func_agg_json_count = 4;
