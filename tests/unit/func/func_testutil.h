/*
 * func_testutil.h — helpers for the func/ unit tests: build argument
 * vectors (flat, const, dict), resolve + run a scalar function, read results.
 *
 * Expected values in the tests come from a real PostgreSQL 15 server
 * (psql against postgresql-15, queries quoted next to the assertions).
 */
#ifndef FUNC_TESTUTIL_H
#define FUNC_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <stdio.h>
#include "func/func.h"

static Arena *T_arena;
static floe_error T_err;

static int
t_setup(void **state)
{
	T_arena = arena_new(1 << 16);
	floe_error_clear(&T_err);
	return 0;
}

static int
t_teardown(void **state)
{
	arena_free(T_arena);
	T_arena = NULL;
	return 0;
}

/* Flat int vector; nulls[] (may be NULL) marks NULL rows. */
static inline Vector
t_ints(TypeId id, const int64_t *vals, const bool *nulls, uint32_t n)
{
	Vector v;
	uint32_t i;

	vector_init(&v, type_make(id), T_arena, n);
	for (i = 0; i < n; i++) {
		if (nulls && nulls[i]) {
			vector_set_null(&v, i);
			continue;
		}
		switch (id) {
		case TYPE_INT16: ((int16_t *)v.data)[i] = (int16_t)vals[i]; break;
		case TYPE_INT32: case TYPE_DATE: ((int32_t *)v.data)[i] = (int32_t)vals[i]; break;
		case TYPE_BOOL: ((uint8_t *)v.data)[i] = (uint8_t)vals[i]; break;
		default: ((int64_t *)v.data)[i] = vals[i]; break;
		}
	}
	return v;
}

static inline Vector
t_floats(TypeId id, const double *vals, uint32_t n)
{
	Vector v;
	uint32_t i;

	vector_init(&v, type_make(id), T_arena, n);
	for (i = 0; i < n; i++) {
		if (id == TYPE_FLOAT32)
			((float *)v.data)[i] = (float)vals[i];
		else
			((double *)v.data)[i] = vals[i];
	}
	return v;
}

static inline Vector
t_decs(int scale, const int64_t *unscaled, uint32_t n)
{
	Vector v;
	uint32_t i;

	vector_init(&v, type_decimal(0, scale), T_arena, n);
	for (i = 0; i < n; i++)
		((int128 *)v.data)[i] = unscaled[i];
	return v;
}

/* Flat text vector; a NULL pointer in vals is a NULL row. */
static inline Vector
t_texts(const char *const *vals, uint32_t n)
{
	Vector v;
	uint32_t i;

	vector_init(&v, type_make(TYPE_TEXT), T_arena, n);
	for (i = 0; i < n; i++) {
		if (!vals[i])
			vector_set_null(&v, i);
		else
			vector_set_string(&v, i, vals[i], (uint32_t)strlen(vals[i]));
	}
	return v;
}

static inline Vector
t_const_int(TypeId id, int64_t x)
{
	Value val = value_int(id, x);
	Vector v;
	vector_init_const(&v, &val, T_arena);
	return v;
}

static inline Vector
t_const_text(const char *s)
{
	Value val;
	Vector v;
	memset(&val, 0, sizeof val);
	val.type = type_make(TYPE_TEXT);
	if (!s)
		val.is_null = true;
	else
		val.u.s = strview_make(arena_strdup(T_arena, s), (uint32_t)strlen(s));
	vector_init_const(&v, &val, T_arena);
	return v;
}

static inline Vector
t_const_null(SqlType t)
{
	Value val = value_null(t);
	Vector v;
	vector_init_const(&v, &val, T_arena);
	return v;
}

/* A dict vector over child (which must stay alive) with selection sel. */
static inline Vector
t_dict(Vector *child, const uint32_t *sel, uint32_t n)
{
	Vector v;
	memset(&v, 0, sizeof v);
	v.type = child->type;
	v.kind = VECTOR_DICT;
	v.capacity = n;
	v.child = child;
	v.dict_sel = arena_memdup(T_arena, sel, sizeof(uint32_t) * n);
	v.arena = T_arena;
	return v;
}

/*
 * Resolve name over the argument vectors' types and run it; the argument
 * types must already equal cast_to (the tests build them so).  Returns the
 * kernel status; *out gets the result vector.
 */
static inline int
t_call(const char *name, Vector *args, int nargs, uint32_t count, Vector *out)
{
	SqlType types[8], cast_to[8], ret;
	const ScalarFunc *f;
	FuncCtx ctx = { T_arena, &T_err, NULL };
	int i;

	for (i = 0; i < nargs; i++)
		types[i] = args[i].type;
	floe_error_clear(&T_err);
	if (func_resolve_scalar(name, types, nargs, &f, &ret, cast_to, &T_err) != FLOE_OK) {
		print_message("resolve %s failed: %s\n", name, T_err.message);
		return -2;
	}
	for (i = 0; i < nargs; i++) {
		if (!type_equal(cast_to[i], args[i].type) &&
		    !(cast_to[i].id == args[i].type.id && cast_to[i].id != TYPE_DECIMAL)) {
			char a[64], b[64];
			print_message("%s: arg %d wants %s, test gave %s\n", name, i,
				      type_name(cast_to[i], a, sizeof a),
				      type_name(args[i].type, b, sizeof b));
			return -3;
		}
	}
	vector_init(out, ret, T_arena, count);
	return f->kernel(&ctx, args, nargs, count, out);
}

static inline int64_t
t_int_at(const Vector *v, uint32_t i)
{
	Value val;
	vector_get_value(v, i, &val);
	return val.u.i;
}

static inline bool
t_null_at(const Vector *v, uint32_t i)
{
	return !vector_is_valid(v, i);
}

static inline const char *
t_text_at(const Vector *v, uint32_t i)
{
	const strview *s = &((const strview *)v->data)[i];
	return arena_strndup(T_arena, strview_data(s), s->len);
}

/* Render an int128 decimal at the row's display scale ("1.5000"): the
 * vector's scale, or the row's dscale (vector.h) when it has one. */
static inline const char *
t_dec_at(const Vector *v, uint32_t i)
{
	int128 x = ((const int128 *)v->data)[i];
	int scale = v->type.scale, n = 0, k;

	if (v->kind == VECTOR_FLAT && v->dscale)
		while (scale > v->dscale[i]) {
			x /= 10;
			scale--;
		}
	char digits[64], out[80];
	uint128 u;
	bool neg = x < 0;
	size_t o = 0;

	u = neg ? -(uint128)x : (uint128)x;
	do {
		digits[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	while (n <= scale)
		digits[n++] = '0';
	if (neg)
		out[o++] = '-';
	for (k = n - 1; k >= 0; k--) {
		out[o++] = digits[k];
		if (k == scale && scale > 0)
			out[o++] = '.';
	}
	out[o] = 0;
	return arena_strdup(T_arena, out);
}

#endif
