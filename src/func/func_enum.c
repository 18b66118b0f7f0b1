/*
 * func_enum.c — operators and functions of enum types (CREATE TYPE ... AS
 * ENUM; types/udt.h).  Spec: PostgreSQL 15 "Enumerated Types" and "Enum
 * Support Functions" (utils/adt/enum.c's behaviour).
 *
 * An enum value is its label (TYPE_TEXT, TEXT_ENUM, udt the enum's OID).
 *   - = <> < <= > >= between two values of one enum (or one and an
 *     unknown literal / NULL, which becomes the enum: its input checks the
 *     label, 22P02): by the labels' declaration order (sort order);
 *   - enum_first(e), enum_last(e): the first / last label of e's type (the
 *     argument's value is ignored, NULL included);
 *   - enum_range(e): every label in order, as an array of the enum;
 *     enum_range(a, b): from a to b (NULL: that end open), empty when a > b.
 * Any other function taking text refuses an enum argument (PostgreSQL has
 * no implicit cast from an enum to text): func_registry.c's json_args_ok.
 *
 * INTERFACE ROUTINES
 *   func_enum_resolve(name, argtypes, nargs, &fn, &ret, cast_to, &handled, err)
 *   func_agg_enum_minmax(name)       min / max over an enum (agg_basic.c)
 */
#include "func/func_internal.h"
#include "types/array.h"
#include "types/udt.h"
#include "types/value.h"

static int
enum_cmp_kernel(const Vector *args, uint32_t count, Vector *out, int op)
{
	VectorView va, vb;
	const strview *a, *b;
	uint8_t *o = out->data;
	uint32_t oid = args[0].type.udt ? args[0].type.udt : args[1].type.udt;
	uint32_t i;

	vector_view(&args[0], &va);
	vector_view(&args[1], &vb);
	a = va.data;
	b = vb.data;
	for (i = 0; i < count; i++) {
		uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
		int c;
		if (!ARGVALID(va, ka) || !ARGVALID(vb, kb)) {
			out_null(out, i);
			continue;
		}
		c = udt_enum_cmp(oid, &a[ka], &b[kb]);
		switch (op) {
		case 0: o[i] = c == 0; break;
		case 1: o[i] = c != 0; break;
		case 2: o[i] = c < 0; break;
		case 3: o[i] = c <= 0; break;
		case 4: o[i] = c > 0; break;
		default: o[i] = c >= 0; break;
		}
		out_valid(out, i);
	}
	return FLOE_OK;
}

#define K(nm, op)                                                                        \
	static int nm(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out) \
	{                                                                                \
		(void)ctx;                                                               \
		(void)nargs;                                                             \
		return enum_cmp_kernel(args, count, out, op);                            \
	}
K(k_eq, 0) K(k_ne, 1) K(k_lt, 2) K(k_le, 3) K(k_gt, 4) K(k_ge, 5)
#undef K

/* enum_first / enum_last: the argument says only the type */
static int
k_end(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool last)
{
	const Udt *u = udt_enum(args[0].type.udt);
	uint32_t i;

	(void)ctx;
	if (!u || u->nlabels == 0)
		return floe_errorf(ctx->err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
				   "enum %s contains no values", u ? u->name : "?");
	for (i = 0; i < count; i++) {
		const char *l = u->labels[last ? u->nlabels - 1 : 0];
		vector_set_string(out, i, l, (uint32_t)strlen(l));
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
k_first(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return k_end(ctx, args, count, out, false);
}

static int
k_last(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return k_end(ctx, args, count, out, true);
}

/* enum_range(e) / enum_range(a, b) */
static int
k_range(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t oid = args[0].type.udt ? args[0].type.udt : nargs > 1 ? args[1].type.udt : 0;
	const Udt *u = udt_enum(oid);
	VectorView va, vb;
	uint32_t i;

	if (!u)
		return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "could not determine actual enum type");
	oid = u->oid;
	vector_view(&args[0], &va);
	if (nargs > 1)
		vector_view(&args[1], &vb);
	for (i = 0; i < count; i++) {
		int lo = 0, hi = u->nlabels - 1, j, n = 0;
		Value *vals = ARENA_ARRAY(ctx->arena, Value, u->nlabels + 1);
		strview s;
		if (nargs > 1) {
			uint32_t ka = ARGK(va, i), kb = ARGK(vb, i);
			if (ARGVALID(va, ka)) {
				const strview *x = &((const strview *)va.data)[ka];
				lo = udt_enum_pos(u, strview_data(x), x->len);
			}
			if (ARGVALID(vb, kb)) {
				const strview *y = &((const strview *)vb.data)[kb];
				hi = udt_enum_pos(u, strview_data(y), y->len);
			}
			if (lo < 0 || hi < 0)
				return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid internal value for enum");
		}
		for (j = lo; j <= hi; j++) {
			vals[n] = value_null(type_enum(oid));
			vals[n].is_null = false;
			vals[n].u.s = strview_make(u->labels[j], (uint32_t)strlen(u->labels[j]));
			n++;
		}
		TRY(array_encode(ctx->arena, out->type, vals, (uint32_t)n, &s, ctx->err));
		out_string_owned(out, i, strview_data(&s), s.len);
		if (s.len <= STRVIEW_INLINE)
			((strview *)out->data)[i] = s;
	}
	return FLOE_OK;
}

/* __floe_domain_check(v, ok, oid, k): v, or the domain's error where ok
 * is false (sql/bind_expr.c bind_domain_cast) */
static int
k_domain_check(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	VectorView vo, vd, vk;
	uint32_t i;

	(void)nargs;
	vector_view(&args[1], &vo);
	vector_view(&args[2], &vd);
	vector_view(&args[3], &vk);
	for (i = 0; i < count; i++) {
		uint32_t ko = ARGK(vo, i);
		Value v;
		if (ARGVALID(vo, ko) && !((const uint8_t *)vo.data)[ko]) {
			const Udt *u = udt_get((uint32_t)((const int32_t *)vd.data)[ARGK(vd, i)]);
			int k = ((const int32_t *)vk.data)[ARGK(vk, i)];
			if (!u)
				return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR, "domain dropped");
			if (k < 0 || k >= u->nchecks)
				return floe_errorf(ctx->err, ERRCODE_NOT_NULL_VIOLATION,
						   "domain %s does not allow null values", u->name);
			return floe_errorf(ctx->err, ERRCODE_CHECK_VIOLATION,
					   "value for domain %s violates check constraint \"%s\"", u->name,
					   u->check_names[k]);
		}
		vector_get_value(&args[0], i, &v);
		v.type = out->type;
		vector_set_value(out, i, &v);
	}
	return FLOE_OK;
}

static const ScalarFunc f_domain_check = { "__floe_domain_check", k_domain_check, 4, 0,
					   { FARG_ANY_ASIS, TYPE_BOOL, TYPE_INT32, TYPE_INT32 },
					   TYPE_NULL, FRET_ARG0, false, false };

static const ScalarFunc ops[] = {
	{ "=", k_eq, 2, 0, { TYPE_TEXT, TYPE_TEXT }, TYPE_BOOL, FRET_FIXED, true, true },
	{ "<>", k_ne, 2, 0, { TYPE_TEXT, TYPE_TEXT }, TYPE_BOOL, FRET_FIXED, true, true },
	{ "<", k_lt, 2, 0, { TYPE_TEXT, TYPE_TEXT }, TYPE_BOOL, FRET_FIXED, true, true },
	{ "<=", k_le, 2, 0, { TYPE_TEXT, TYPE_TEXT }, TYPE_BOOL, FRET_FIXED, true, true },
	{ ">", k_gt, 2, 0, { TYPE_TEXT, TYPE_TEXT }, TYPE_BOOL, FRET_FIXED, true, true },
	{ ">=", k_ge, 2, 0, { TYPE_TEXT, TYPE_TEXT }, TYPE_BOOL, FRET_FIXED, true, true },
};
static const ScalarFunc f_first = { "enum_first", k_first, 1, 0, { TYPE_TEXT }, TYPE_TEXT,
				    FRET_FIXED, false, false };
static const ScalarFunc f_last = { "enum_last", k_last, 1, 0, { TYPE_TEXT }, TYPE_TEXT,
				   FRET_FIXED, false, false };
static const ScalarFunc f_range = { "enum_range", k_range, 1, 0, { TYPE_TEXT }, TYPE_ARRAY,
				    FRET_FIXED, false, false };
static const ScalarFunc f_range2 = { "enum_range", k_range, 2, 0, { TYPE_TEXT, TYPE_TEXT },
				     TYPE_ARRAY, FRET_FIXED, false, false };

int
func_enum_resolve(const char *name, const SqlType *argtypes, int nargs, const ScalarFunc **out,
		  SqlType *ret, SqlType *cast_to, bool *handled, floe_error *err)
{
	uint32_t oid = 0;
	bool other = false;
	int i;
	size_t k;

	*handled = false;
	if (!strcmp(name, "__floe_domain_check") && nargs == 4) {
		*handled = true;
		*out = &f_domain_check;
		cast_to[0] = *ret = argtypes[0];
		cast_to[1] = type_make(TYPE_BOOL);
		cast_to[2] = cast_to[3] = type_make(TYPE_INT32);
		return FLOE_OK;
	}
	for (i = 0; i < nargs; i++) {
		if (type_is_enum(argtypes[i])) {
			const Udt *e = udt_enum(argtypes[i].udt);   /* a domain's enum */
			uint32_t eo = e ? e->oid : argtypes[i].udt;
			if (oid && oid != eo)
				other = true;
			oid = eo;
		} else if (argtypes[i].id != TYPE_NULL) {
			other = true;
		}
	}
	if (!strncmp(name, "enum_", 5)) {
		bool r = !strcmp(name, "enum_range");
		if ((strcmp(name, "enum_first") && strcmp(name, "enum_last") && !r) ||
		    nargs < 1 || nargs > (r ? 2 : 1))
			return FLOE_OK;
		if (!oid || other)
			return floe_errorf(err, other ? ERRCODE_UNDEFINED_FUNCTION :
					   ERRCODE_INVALID_PARAMETER_VALUE, other ?
					   "function %s does not exist" : "could not determine actual enum type",
					   name);
		*handled = true;
		*out = r ? (nargs == 2 ? &f_range2 : &f_range) : name[5] == 'f' ? &f_first : &f_last;
		for (i = 0; i < nargs; i++)
			cast_to[i] = type_enum(oid);
		*ret = r ? array_of(type_enum(oid)) : type_enum(oid);
		return FLOE_OK;
	}
	if (!oid || nargs != 2)
		return FLOE_OK;
	for (k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (!strcmp(ops[k].name, name)) {
			if (other)
				return FLOE_OK;   /* no such operator: the generic resolution says so */
			*handled = true;
			*out = &ops[k];
			cast_to[0] = cast_to[1] = type_enum(oid);
			*ret = type_make(TYPE_BOOL);
			return FLOE_OK;
		}
	return FLOE_OK;
}
