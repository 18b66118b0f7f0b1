/*
 * cast.c — conversions between floe types with PostgreSQL 15 semantics.
 *
 * Implements cast.h.  The cast matrix and contexts are PostgreSQL's pg_cast
 * rows among floe's types (queried from PostgreSQL 15), plus its automatic
 * I/O conversion casts: anything -> text/varchar/char is an assignment
 * cast, text -> anything is explicit.  The conversions are those of the
 * functions pg_cast names (int84, dtoi4, numeric_int4, float8_numeric,
 * booltext, timestamp_date, ...), with their rounding rules and messages:
 *
 *   int -> narrower int       "smallint out of range" / "integer out of range"
 *   float -> int              rint (half to even), same messages; NaN too
 *   numeric -> int            half away from zero
 *   float -> numeric          via "%.15g" ("%.6g" for real), then typmod
 *   float8 -> float4          "value out of range: overflow" / "underflow"
 *   x -> numeric(p,s)         round to s, "numeric field overflow" + detail
 *   x -> varchar(n)/char(n)   explicit: truncate; otherwise 22001 unless
 *                             only spaces are cut; char(n) pads, char -> text
 *                             drops trailing spaces
 *   bool -> text              "true"/"false" (booltext), not boolout's t/f
 *   dates/times               through the session time zone (datetime.c)
 *
 * INTERFACE ROUTINES: cast_allowed, cast_value, cast_value_ex, cast_vector,
 * cast_unconstrained_numeric.
 *
 * Display scales (vector.h): a cast to unconstrained numeric gives each
 * row its own scale (at most the target's) as its display scale: an
 * integer 0, a numeric its row's, a float that of its "%.15g" text, text
 * that of its digits; numeric -> text prints at the display scale.
 *
 * Invariants: NULL converts to NULL of the target type; a failed row
 * leaves its error in err and stops the vector cast; strings produced for
 * a vector are copied into the output vector's arena.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "types/array.h"
#include "types/cast.h"
#include "types/datetime.h"
#include "types/decimal.h"
#include "types/json.h"
#include "types/text.h"
#include "types/udt.h"

/* ------------------------------------------------------------------ */
/* Contexts (pg_cast)                                                  */
/* ------------------------------------------------------------------ */

enum { NO = 0, I = 1, A = 2, E = 3 };   /* weakest context that allows it */

/* Rows: from, columns: to, in TypeId order (TEXT covers text/varchar/char). */
static const unsigned char ctx_tab[TYPE__COUNT][TYPE__COUNT] = {
	/*                NUL BOO I16 I32 I64 F32 F64 DEC TXT BYT DAT TIM TS  TSZ IV  UUI */
	[TYPE_NULL]     = { I,  I,  I,  I,  I,  I,  I,  I,  I,  I,  I,  I,  I,  I,  I,  I },
	[TYPE_BOOL]     = { NO, I,  NO, E,  NO, NO, NO, NO, A,  NO, NO, NO, NO, NO, NO, NO },
	[TYPE_INT16]    = { NO, NO, I,  I,  I,  I,  I,  I,  A,  NO, NO, NO, NO, NO, NO, NO },
	[TYPE_INT32]    = { NO, E,  A,  I,  I,  I,  I,  I,  A,  NO, NO, NO, NO, NO, NO, NO },
	[TYPE_INT64]    = { NO, NO, A,  A,  I,  I,  I,  I,  A,  NO, NO, NO, NO, NO, NO, NO },
	[TYPE_FLOAT32]  = { NO, NO, A,  A,  A,  I,  I,  A,  A,  NO, NO, NO, NO, NO, NO, NO },
	[TYPE_FLOAT64]  = { NO, NO, A,  A,  A,  A,  I,  A,  A,  NO, NO, NO, NO, NO, NO, NO },
	[TYPE_DECIMAL]  = { NO, NO, A,  A,  A,  I,  I,  I,  A,  NO, NO, NO, NO, NO, NO, NO },
	[TYPE_TEXT]     = { NO, E,  E,  E,  E,  E,  E,  E,  I,  E,  E,  E,  E,  E,  E,  E },
	[TYPE_BYTEA]    = { NO, NO, NO, NO, NO, NO, NO, NO, A,  I,  NO, NO, NO, NO, NO, NO },
	[TYPE_DATE]     = { NO, NO, NO, NO, NO, NO, NO, NO, A,  NO, I,  NO, I,  I,  NO, NO },
	[TYPE_TIME]     = { NO, NO, NO, NO, NO, NO, NO, NO, A,  NO, NO, I,  NO, NO, I,  NO },
	[TYPE_TIMESTAMP]   = { NO, NO, NO, NO, NO, NO, NO, NO, A,  NO, A,  A,  I,  I,  NO, NO },
	[TYPE_TIMESTAMPTZ] = { NO, NO, NO, NO, NO, NO, NO, NO, A,  NO, A,  A,  A,  I,  NO, NO },
	[TYPE_INTERVAL] = { NO, NO, NO, NO, NO, NO, NO, NO, A,  NO, NO, A,  NO, NO, I,  NO },
	[TYPE_UUID]     = { NO, NO, NO, NO, NO, NO, NO, NO, A,  NO, NO, NO, NO, NO, NO, I },
};

/* json/jsonb (pg_cast and I/O conversions): from text types explicit, to
 * them assignment, json <-> jsonb assignment, jsonb -> bool and numbers
 * explicit (jsonb_int4 ...); nothing else. */
static bool
json_cast_allowed(SqlType from, SqlType to, CoercionContext ctx)
{
	if (from.id == TYPE_NULL)
		return true;
	if (type_is_jsonpath(from) || type_is_jsonpath(to)) {
		/* jsonpath: from text explicit, to text assignment (I/O casts) */
		if (type_is_jsonpath(from) && type_is_jsonpath(to))
			return true;
		if (type_is_jsonpath(to))
			return from.id == TYPE_TEXT && !type_is_json(from) && ctx == COERCE_EXPLICIT;
		return to.id == TYPE_TEXT && !type_is_json(to) && ctx != COERCE_IMPLICIT;
	}
	if (type_is_json(from) && type_is_json(to))
		return from.text_kind == to.text_kind || ctx != COERCE_IMPLICIT;
	if (type_is_json(to))
		return from.id == TYPE_TEXT && ctx == COERCE_EXPLICIT;
	if (to.id == TYPE_TEXT)
		return ctx != COERCE_IMPLICIT;
	if (from.text_kind == TEXT_JSONB && (to.id == TYPE_BOOL || type_is_numeric(to.id)))
		return ctx == COERCE_EXPLICIT;
	return false;
}

/* enums (I/O conversions, as PostgreSQL's): from a text type explicit, to
 * one assignment; between two enums only to the same one. */
static bool
enum_cast_allowed(SqlType from, SqlType to, CoercionContext ctx)
{
	if (from.id == TYPE_NULL)
		return true;
	if (type_is_enum(from) && type_is_enum(to))
		return from.udt == to.udt;
	if (type_is_enum(to))
		return from.id == TYPE_TEXT && ctx == COERCE_EXPLICIT;
	if (to.id == TYPE_TEXT && !type_is_json(to) && !type_is_jsonpath(to))
		return ctx != COERCE_IMPLICIT;
	return false;
}

bool
cast_allowed(SqlType from, SqlType to, CoercionContext ctx)
{
	if ((unsigned)from.id >= TYPE__COUNT || (unsigned)to.id >= TYPE__COUNT)
		return false;
	/* a domain casts as its base type (its constraints are the SQL
	 * layer's: sql/usertype.c) */
	from = type_domain_base(from);
	to = type_domain_base(to);
	if (type_is_enum(from) || type_is_enum(to))
		return enum_cast_allowed(from, to, ctx);
	if (type_is_json(from) || type_is_json(to) || type_is_jsonpath(from) || type_is_jsonpath(to))
		return json_cast_allowed(from, to, ctx);
	/* arrays: element-wise when the elements cast in this context
	 * (array_coerce); to text by the output function (assignment), from
	 * text by the input function (explicit) */
	if (from.id == TYPE_ARRAY && to.id == TYPE_ARRAY)
		return cast_allowed(array_elem_type(from), array_elem_type(to), ctx);
	if (from.id == TYPE_ARRAY)
		return to.id == TYPE_TEXT && ctx != COERCE_IMPLICIT;
	if (to.id == TYPE_ARRAY)
		return from.id == TYPE_NULL || (from.id == TYPE_TEXT && ctx == COERCE_EXPLICIT);
	if (to.id == TYPE_NULL)
		return from.id == TYPE_NULL;
	int need = ctx_tab[from.id][to.id];
	if (need == NO)
		return false;
	int have = ctx == COERCE_IMPLICIT ? I : ctx == COERCE_ASSIGNMENT ? A : E;
	return need <= have;
}

/* ------------------------------------------------------------------ */
/* Value casts                                                         */
/* ------------------------------------------------------------------ */

/* The type's name without typmod, as format_type_be prints it. */
static const char *
base_name(SqlType t, char *buf, size_t n)
{
	if (t.id == TYPE_DECIMAL)
		return "numeric";
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_VARCHAR)
		return "character varying";
	if (t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR)
		return "character";
	return type_name(t, buf, n);
}

static int
no_cast(SqlType from, SqlType to, floe_error *err)
{
	char b1[64], b2[64];
	return floe_errorf(err, ERRCODE_CANNOT_COERCE, "cannot cast type %s to %s",
			   base_name(from, b1, sizeof b1), base_name(to, b2, sizeof b2));
}

static int
int_range(TypeId to, floe_error *err)
{
	return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s out of range",
			   to == TYPE_INT16 ? "smallint" : to == TYPE_INT32 ? "integer" : "bigint");
}

static int
check_int(int64_t v, TypeId to, floe_error *err)
{
	if ((to == TYPE_INT16 && (v < INT16_MIN || v > INT16_MAX)) ||
	    (to == TYPE_INT32 && (v < INT32_MIN || v > INT32_MAX)))
		return int_range(to, err);
	return FLOE_OK;
}

static int
float_to_int(double d, TypeId to, int64_t *out, floe_error *err)
{
	double r = rint(d);
	/* -2^63 <= r < 2^63 */
	if (isnan(r) || r < -9223372036854775808.0 || r >= 9223372036854775808.0)
		return int_range(to, err);
	*out = (int64_t)r;
	return check_int(*out, to, err);
}

static int
numeric_typmod(int128 v, int scale, SqlType to, Value *out, floe_error *err)
{
	if (to.precision == 0) {
		/* unconstrained: keep the value's own scale */
		out->u.d = v;
		out->type.scale = (uint8_t)scale;
		return FLOE_OK;
	}
	return decimal_coerce(v, scale, to.precision, to.scale, &out->u.d, err);
}

static const char *
int_type_name(TypeId t)
{
	return t == TYPE_INT16 ? "smallint" : t == TYPE_INT32 ? "integer" : "bigint";
}

/* The text of a value as the ::text cast gives it (booltext, bpchar rtrim). */
static const char *
cast_text_of(const Value *in, Arena *a, size_t *len)
{
	if (in->type.id == TYPE_BOOL) {
		*len = in->u.b ? 4 : 5;
		return in->u.b ? "true" : "false";
	}
	if (in->type.id == TYPE_TEXT) {
		const char *p = strview_data(&in->u.s);
		size_t n = in->u.s.len;
		if (in->type.text_kind == TEXT_CHAR)
			while (n && p[n - 1] == ' ')
				n--;
		*len = n;
		return p;
	}
	return value_to_text(in, a, len);
}

static void
set_str(Value *out, const char *p, size_t n, Arena *a)
{
	const char *q = p;
	if (n > STRVIEW_INLINE)
		q = arena_memdup(a, p, n);
	out->u.s = strview_make(q, (uint32_t)n);
}

/* jsonb -> bool/numeric/int/float (jsonb_bool, jsonb_numeric, jsonb_int4
 * ...): the document must be that scalar; numbers via numeric's rules */
static int
jsonb_cast_scalar(Value *out, const Value *in, SqlType to, Arena *a, floe_error *err)
{
	static const char *const kinds[] = { "null", "string", "numeric", "boolean", "boolean",
					     "array", "object" };
	JsonNode *v;
	char b1[64];
	Value num;
	bool want_bool = to.id == TYPE_BOOL;

	TRY(pgjson_parse(strview_data(&in->u.s), in->u.s.len, JSONP_JSONB, a, &v, err));
	if (!v->raw || (want_bool ? (v->kind != JV_TRUE && v->kind != JV_FALSE)
				  : v->kind != JV_NUMBER))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "cannot cast jsonb %s to type %s", kinds[v->kind],
				   base_name(to, b1, sizeof b1));
	memset(out, 0, sizeof *out);
	out->type = to;
	if (want_bool) {
		out->u.b = v->kind == JV_TRUE;
		return FLOE_OK;
	}
	if (to.id == TYPE_DECIMAL || to.id == TYPE_FLOAT32 || to.id == TYPE_FLOAT64)
		return value_from_text(out, to, v->s, v->len, a, err);
	/* integers: numeric_int2/4/8 of the number (half away from zero) */
	TRY(value_from_text(&num, type_decimal(0, 0), v->s, v->len, a, err));
	return cast_value_ex(out, &num, to, CAST_EXPLICIT, a, err);
}

int
cast_value_ex(Value *out, const Value *in, SqlType to, int flags, Arena *a, floe_error *err)
{
	TypeId f = in->type.id, t = to.id;
	Value r, shown;

	if (f == TYPE_DECIMAL && in->dzeros && !in->is_null) {
		/* a row's display scale is the value's own scale */
		shown = *in;
		value_to_display_scale(&shown);
		in = &shown;
	}
	memset(&r, 0, sizeof r);
	r.type = to;
	if (in->is_null || f == TYPE_NULL) {
		r.is_null = true;
		*out = r;
		return FLOE_OK;
	}
	if (!cast_allowed(in->type, to, COERCE_EXPLICIT))
		return no_cast(in->type, to, err);

	/* to text types: through the output function, then the typmod */
	if (t == TYPE_TEXT) {
		size_t n;
		const char *s = cast_text_of(in, a, &n);
		const char *p;
		size_t m;
		TRY(text__fit_char(to, s, n, (flags & CAST_EXPLICIT) != 0, a, &p, &m, err));
		set_str(&r, p, m, a);
		*out = r;
		return FLOE_OK;
	}
	if (t == TYPE_ARRAY && f == TYPE_ARRAY) {
		TRY(array_cast(&in->u.s, in->type, to, flags, a, &r.u.s, err));
		*out = r;
		return FLOE_OK;
	}
	if (in->type.text_kind == TEXT_JSONB && f == TYPE_TEXT)
		return jsonb_cast_scalar(out, in, to, a, err);
	/* from text: through the input function */
	if (f == TYPE_TEXT) {
		const char *s = strview_data(&in->u.s);
		TRY(value_from_text(&r, to, s, in->u.s.len, a, err));
		*out = r;
		return FLOE_OK;
	}

	switch (t) {
	case TYPE_BOOL:
		if (f == TYPE_BOOL)
			r.u.b = in->u.b;
		else
			r.u.b = in->u.i != 0;
		break;
	case TYPE_INT16:
	case TYPE_INT32:
	case TYPE_INT64:
		switch (f) {
		case TYPE_BOOL:
			r.u.i = in->u.b;
			break;
		case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
			TRY(check_int(in->u.i, t, err));
			r.u.i = in->u.i;
			break;
		case TYPE_FLOAT32: case TYPE_FLOAT64:
			TRY(float_to_int(in->u.f, t, &r.u.i, err));
			break;
		case TYPE_DECIMAL:
			if (decimal_to_int64(in->u.d, in->type.scale, &r.u.i, err) != FLOE_OK)
				return int_range(t, err);
			TRY(check_int(r.u.i, t, err));
			break;
		default:
			goto nocast;
		}
		break;
	case TYPE_FLOAT32:
	case TYPE_FLOAT64:
		switch (f) {
		case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: {
			int64_t i = in->u.i;
			double d = t == TYPE_FLOAT32 ? (double)(float)i : (double)i;
			if (flags & CAST_EXACT_FLOAT) {
				bool exact = d >= -9223372036854775808.0 && d < 9223372036854775808.0 &&
					     (int64_t)d == i;
				if (!exact)
					return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							   "%s value %lld cannot be stored exactly in %s",
							   int_type_name(f), (long long)i,
							   t == TYPE_FLOAT32 ? "real" : "double precision");
			}
			r.u.f = d;
			break;
		}
		case TYPE_FLOAT32: case TYPE_FLOAT64:
			if (t == TYPE_FLOAT32 && f == TYPE_FLOAT64) {
				float x = (float)in->u.f;
				if (isinf(x) && !isinf(in->u.f))
					return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							   "value out of range: overflow");
				if (x == 0 && in->u.f != 0)
					return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
							   "value out of range: underflow");
				r.u.f = x;
			} else
				r.u.f = in->u.f;
			break;
		case TYPE_DECIMAL: {
			char buf[DECIMAL_FORMAT_BUF];
			decimal_format(in->u.d, in->type.scale, buf);
			if (t == TYPE_FLOAT32)
				r.u.f = strtof(buf, NULL);
			else
				r.u.f = strtod(buf, NULL);
			break;
		}
		default:
			goto nocast;
		}
		break;
	case TYPE_DECIMAL:
		switch (f) {
		case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
			TRY(numeric_typmod((int128)in->u.i, 0, to, &r, err));
			break;
		case TYPE_FLOAT32: case TYPE_FLOAT64: {
			char buf[64];
			int128 v;
			int sc;
			if (isnan(in->u.f) || isinf(in->u.f)) {
				if (isinf(in->u.f) && to.precision) {
					floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
						    "numeric field overflow");
					return floe_error_detail(err,
						"A field with precision %d, scale %d cannot hold an infinite value.",
						to.precision, to.scale);
				}
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "numeric %s is not supported",
						   isnan(in->u.f) ? "NaN" : "infinity");
			}
			snprintf(buf, sizeof buf, "%.*g", f == TYPE_FLOAT32 ? 6 : 15, in->u.f);
			if (to.precision) {
				/* round straight from the text to the target scale */
				if (decimal__from_text_scale(buf, strlen(buf), to.scale, &v, err) != FLOE_OK)
					v = decimal_pow10(38);   /* force the overflow report */
				if (v >= decimal_pow10(to.precision) || v <= -decimal_pow10(to.precision))
					return decimal_coerce(decimal_pow10(to.precision), 0, to.precision,
							      to.scale, &r.u.d, err);
				r.u.d = v;
			} else {
				TRY(decimal_from_text(buf, strlen(buf), &v, &sc, err));
				r.u.d = v;
				r.type.scale = (uint8_t)sc;
			}
			break;
		}
		case TYPE_DECIMAL:
			TRY(numeric_typmod(in->u.d, in->type.scale, to, &r, err));
			break;
		default:
			goto nocast;
		}
		break;
	case TYPE_BYTEA:
	case TYPE_UUID:
	case TYPE_INTERVAL:
		if (f == t) {
			r.u = in->u;
			break;
		}
		if (t == TYPE_INTERVAL && f == TYPE_TIME) {
			r.u.iv.months = 0;
			r.u.iv.days = 0;
			r.u.iv.micros = in->u.i;
			break;
		}
		goto nocast;
	case TYPE_DATE: {
		int32_t d;
		if (f == TYPE_DATE)
			r.u.i = in->u.i;
		else if (f == TYPE_TIMESTAMP || f == TYPE_TIMESTAMPTZ) {
			int64_t ts = f == TYPE_TIMESTAMPTZ ? datetime_timestamptz_to_local(in->u.i) : in->u.i;
			TRY(datetime_timestamp_to_date(ts, &d, err));
			r.u.i = d;
		} else
			goto nocast;
		break;
	}
	case TYPE_TIME:
		if (f == TYPE_TIME)
			r.u.i = in->u.i;
		else if (f == TYPE_TIMESTAMP || f == TYPE_TIMESTAMPTZ) {
			int64_t ts = f == TYPE_TIMESTAMPTZ ? datetime_timestamptz_to_local(in->u.i) : in->u.i;
			if (ts == TS_NOBEGIN || ts == TS_NOEND) {
				/* timestamp_time: infinite timestamps give NULL */
				r.is_null = true;
				*out = r;
				return FLOE_OK;
			}
			int64_t tod = ts % USECS_PER_DAY;
			r.u.i = tod < 0 ? tod + USECS_PER_DAY : tod;
		} else if (f == TYPE_INTERVAL) {
			int64_t tod = in->u.iv.micros % USECS_PER_DAY;
			r.u.i = tod < 0 ? tod + USECS_PER_DAY : tod;
		} else
			goto nocast;
		break;
	case TYPE_TIMESTAMP:
	case TYPE_TIMESTAMPTZ:
		if (f == TYPE_DATE) {
			int64_t ts;
			TRY(datetime_date_to_timestamp((int32_t)in->u.i, &ts, err));
			r.u.i = t == TYPE_TIMESTAMPTZ ? datetime_local_to_utc(ts) : ts;
		} else if (f == t)
			r.u.i = in->u.i;
		else if (f == TYPE_TIMESTAMP)
			r.u.i = datetime_local_to_utc(in->u.i);
		else if (f == TYPE_TIMESTAMPTZ)
			r.u.i = datetime_timestamptz_to_local(in->u.i);
		else
			goto nocast;
		if (r.u.i != TS_NOBEGIN && r.u.i != TS_NOEND &&
		    (r.u.i < TS_MIN_USECS || r.u.i > TS_MAX_USECS))
			return floe_errorf(err, ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
		break;
	default:
		goto nocast;
	}
	*out = r;
	return FLOE_OK;
nocast:
	return no_cast(in->type, to, err);
}

int
cast_value(Value *out, const Value *in, SqlType to, Arena *a, floe_error *err)
{
	return cast_value_ex(out, in, to, CAST_EXPLICIT, a, err);
}

/* ------------------------------------------------------------------ */
/* Vector casts                                                        */
/* ------------------------------------------------------------------ */

/* Fast loops for the common numeric widenings (no errors possible). */
static bool
fast_path(const Vector *in, uint32_t count, Vector *out, SqlType to, int flags)
{
	VectorView v;
	TypeId f = in->type.id, t = to.id;
	vector_view(in, &v);
#define LOOP(ST, DT, EXPR)                                                        \
	do {                                                                      \
		const ST *src = v.data;                                           \
		DT *dst = out->data;                                              \
		for (uint32_t i = 0; i < count; i++) {                            \
			uint32_t k = v.sel ? v.sel[i] : i;                        \
			if (!validity_get(v.validity, k)) {                       \
				vector_set_null(out, i);                          \
				continue;                                         \
			}                                                         \
			ST x = src[k];                                            \
			dst[i] = (EXPR);                                          \
		}                                                                 \
	} while (0)
	if (f == TYPE_INT16 && t == TYPE_INT32)
		LOOP(int16_t, int32_t, x);
	else if (f == TYPE_INT16 && t == TYPE_INT64)
		LOOP(int16_t, int64_t, x);
	else if (f == TYPE_INT32 && t == TYPE_INT64)
		LOOP(int32_t, int64_t, x);
	else if (f == TYPE_INT32 && t == TYPE_FLOAT64)
		LOOP(int32_t, double, (double)x);
	else if (f == TYPE_INT16 && t == TYPE_FLOAT64)
		LOOP(int16_t, double, (double)x);
	else if (f == TYPE_FLOAT32 && t == TYPE_FLOAT64)
		LOOP(float, double, (double)x);
	else if (f == TYPE_INT64 && t == TYPE_FLOAT64 && !(flags & CAST_EXACT_FLOAT))
		LOOP(int64_t, double, (double)x);
	else
		return false;
#undef LOOP
	return true;
}

/* Checked loops for the hot numeric pairs; -1 when not handled here. */
static int
checked_path(const Vector *in, uint32_t count, Vector *out, SqlType to, floe_error *err)
{
	VectorView v;
	TypeId f = in->type.id, t = to.id;
	vector_view(in, &v);
	if (type_is_integer(f) && t == TYPE_DECIMAL && to.scale <= 18) {
		int128 *dst = out->data;
		int128 mul = decimal_pow10(to.scale);
		int128 lim = to.precision ? decimal_pow10(to.precision) : decimal_pow10(38);
		for (uint32_t i = 0; i < count; i++) {
			uint32_t k = v.sel ? v.sel[i] : i;
			if (!validity_get(v.validity, k)) {
				vector_set_null(out, i);
				continue;
			}
			int64_t x = f == TYPE_INT16 ? ((const int16_t *)v.data)[k]
				  : f == TYPE_INT32 ? ((const int32_t *)v.data)[k]
				  : ((const int64_t *)v.data)[k];
			int128 r = (int128)x * mul;
			if (r >= lim || r <= -lim)
				return decimal_coerce(x, 0, to.precision, to.scale, &r, err);
			dst[i] = r;
		}
		if (to.precision == 0 && to.scale > 0) {
			/* an integer displays without fraction digits */
			vector_ensure_dscale(out);
			memset(out->dscale, 0, count);
		}
		return FLOE_OK;
	}
	if (f == TYPE_DECIMAL && t == TYPE_DECIMAL && !to.precision) {
		/* to unconstrained numeric: rescale, each row keeping its display
		 * scale (at most to.scale) */
		int128 *dst = out->data;
		const int128 *src = v.data;
		const uint8_t *ds = vector_dscale_of(in);
		bool varies = vector_varies(in) || in->type.scale > to.scale;
		if (varies || in->type.scale < to.scale)
			vector_ensure_dscale(out);
		for (uint32_t i = 0; i < count; i++) {
			uint32_t k = v.sel ? v.sel[i] : i;
			if (!validity_get(v.validity, k)) {
				vector_set_null(out, i);
				continue;
			}
			TRY(decimal_rescale(src[k], in->type.scale, to.scale, &dst[i], err));
			if (out->dscale) {
				int d = varies ? vector_dscale_at(in, ds, k, src[k]) : in->type.scale;
				out->dscale[i] = (uint8_t)(d < to.scale ? d : to.scale);
			}
		}
		return FLOE_OK;
	}
	if (f == TYPE_DECIMAL && t == TYPE_DECIMAL && to.precision) {
		int128 *dst = out->data;
		const int128 *src = v.data;
		for (uint32_t i = 0; i < count; i++) {
			uint32_t k = v.sel ? v.sel[i] : i;
			if (!validity_get(v.validity, k)) {
				vector_set_null(out, i);
				continue;
			}
			TRY(decimal_coerce(src[k], in->type.scale, to.precision, to.scale, &dst[i], err));
		}
		return FLOE_OK;
	}
	if (f == TYPE_DECIMAL && t == TYPE_FLOAT64) {
		double *dst = out->data;
		const int128 *src = v.data;
		for (uint32_t i = 0; i < count; i++) {
			uint32_t k = v.sel ? v.sel[i] : i;
			if (!validity_get(v.validity, k)) {
				vector_set_null(out, i);
				continue;
			}
			dst[i] = decimal_to_double(src[k], in->type.scale);
		}
		return FLOE_OK;
	}
	if ((f == TYPE_FLOAT64 || f == TYPE_FLOAT32) && type_is_integer(t)) {
		for (uint32_t i = 0; i < count; i++) {
			uint32_t k = v.sel ? v.sel[i] : i;
			if (!validity_get(v.validity, k)) {
				vector_set_null(out, i);
				continue;
			}
			double x = f == TYPE_FLOAT64 ? ((const double *)v.data)[k]
						     : ((const float *)v.data)[k];
			int64_t r;
			TRY(float_to_int(x, t, &r, err));
			if (t == TYPE_INT16)
				((int16_t *)out->data)[i] = (int16_t)r;
			else if (t == TYPE_INT32)
				((int32_t *)out->data)[i] = (int32_t)r;
			else
				((int64_t *)out->data)[i] = r;
		}
		return FLOE_OK;
	}
	if (type_is_integer(f) && type_is_integer(t)) {
		for (uint32_t i = 0; i < count; i++) {
			uint32_t k = v.sel ? v.sel[i] : i;
			if (!validity_get(v.validity, k)) {
				vector_set_null(out, i);
				continue;
			}
			int64_t x = f == TYPE_INT16 ? ((const int16_t *)v.data)[k]
				  : f == TYPE_INT32 ? ((const int32_t *)v.data)[k]
				  : ((const int64_t *)v.data)[k];
			TRY(check_int(x, t, err));
			if (t == TYPE_INT16)
				((int16_t *)out->data)[i] = (int16_t)x;
			else if (t == TYPE_INT32)
				((int32_t *)out->data)[i] = (int32_t)x;
			else
				((int64_t *)out->data)[i] = x;
		}
		return FLOE_OK;
	}
	return -1;
}

SqlType
cast_unconstrained_numeric(SqlType from)
{
	if (from.id == TYPE_DECIMAL)
		return type_decimal(0, from.scale);
	if (type_is_integer(from.id) || from.id == TYPE_NULL || from.id == TYPE_BOOL)
		return type_decimal(0, 0);
	return type_decimal(0, NUMERIC_DEFAULT_SCALE);
}

int
cast_vector(const Vector *in, uint32_t count, Vector *out, SqlType to, int flags,
	    floe_error *err)
{
	if (count == 0)
		return FLOE_OK;
	if (in->type.id != TYPE_NULL && !cast_allowed(in->type, to, COERCE_EXPLICIT))
		return no_cast(in->type, to, err);
	if (fast_path(in, count, out, to, flags))
		return FLOE_OK;
	int rc0 = checked_path(in, count, out, to, err);
	if (rc0 != -1)
		return rc0;
	bool strings = type_is_string(to.id) || type_is_string(in->type.id);
	Arena *scratch = strings ? arena_new(0) : out->arena;
	int rc = FLOE_OK;
	bool unconstrained = to.id == TYPE_DECIMAL && to.precision == 0;
	if (unconstrained)
		vector_ensure_dscale(out);
	for (uint32_t i = 0; i < count; i++) {
		Value x, y;
		int ds = to.scale;
		vector_get_value(in, i, &x);
		if (cast_value_ex(&y, &x, to, flags, scratch, err) != FLOE_OK) {
			rc = FLOE_ERR;
			break;
		}
		if (!y.is_null && unconstrained) {
			/* the value's own scale is its display scale (at most
			 * the vector's) */
			ds = y.type.scale < to.scale ? y.type.scale : to.scale;
			if (y.type.scale != to.scale &&
			    decimal_rescale(y.u.d, y.type.scale, to.scale, &y.u.d, err) != FLOE_OK) {
				rc = FLOE_ERR;
				break;
			}
			y.type.scale = to.scale;
		}
		vector_set_value(out, i, &y);
		if (unconstrained)
			out->dscale[i] = (uint8_t)ds;
		if (strings && (i & 255) == 255)
			arena_reset(scratch);
	}
	if (strings)
		arena_free(scratch);
	return rc;
}
