/*
 * agg_array.c — array_agg(x): the input values, NULLs included, as one
 * array of x's type (PostgreSQL 15's array_agg(anynonarray)); no input
 * rows give NULL.  ORDER BY, DISTINCT and FILTER are the aggregate
 * machinery's (hash_agg.c feeds the rows in order).  array_agg of arrays
 * (multidimensional) is 0A000 at resolution (func_registry.c).
 *
 * The state is the list of values so far; long strings are copied into
 * the aggregate's arena (FuncCtx.arena), so states outlive the batches.
 * The state cannot spill: its growth checks the statement's memory
 * account (53200 past floe.query_memory_limit; common/arena.h).
 * combine appends the source's list (parallel partial states; the order
 * of a parallel merge is the order PostgreSQL also leaves unspecified
 * without ORDER BY).
 *
 * INTERFACE ROUTINES
 *   func_agg_array_sigs[], func_agg_array_impls[], func_agg_array_count
 *   (func_registry.c resolves over these)
 */
#include "func/func_internal.h"
#include "types/array.h"

typedef struct ArrAggState {
	Value *vals;
	uint32_t n, cap;
} ArrAggState;

static void
arragg_init(void *s)
{
	memset(s, 0, sizeof(ArrAggState));
}

static int
push(FuncCtx *ctx, ArrAggState *s, const Value *v)
{
	if (s->n == s->cap) {
		uint32_t nc = s->cap ? s->cap * 2 : 8;
		if (nc > (1u << 27))
			return floe_errorf(ctx->err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "array size exceeds the maximum allowed");
		s->vals = arena_realloc(ctx->arena, s->vals, sizeof(Value) * s->cap,
					sizeof(Value) * nc);
		s->cap = nc;
		/* the state cannot spill: floe.query_memory_limit bounds it */
		if (arena_over_limit(ctx->arena))
			return memacct_error(arena_account(ctx->arena), ctx->err);
	}
	s->vals[s->n] = *v;
	if (!v->is_null && type_is_string(v->type.id) && v->u.s.len > STRVIEW_INLINE)
		s->vals[s->n].u.s = strview_make(arena_memdup(ctx->arena, v->u.s.u.ptr, v->u.s.len),
						 v->u.s.len);
	s->n++;
	return FLOE_OK;
}

static int
arragg_update(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		Value v;
		vector_get_value(arg, i, &v);
		if (!v.is_null && v.type.id == TYPE_DECIMAL)
			value_to_display_scale(&v);
		TRY(push(ctx, states[i], &v));
	}
	return FLOE_OK;
}

static int
arragg_combine(FuncCtx *ctx, void *dst, const void *src)
{
	const ArrAggState *s = src;
	uint32_t i;

	for (i = 0; i < s->n; i++)
		TRY(push(ctx, dst, &s->vals[i]));
	return FLOE_OK;
}

static int
arragg_final(FuncCtx *ctx, void *st, Vector *out, uint32_t row)
{
	ArrAggState *s = st;
	strview r;

	if (s->n == 0) {
		vector_set_null(out, row);
		return FLOE_OK;
	}
	TRY(array_encode(ctx->arena, out->type, s->vals, s->n, &r, ctx->err));
	vector_set_string(out, row, strview_data(&r), r.len);
	return FLOE_OK;
}

static const AggFunc agg_array = { "array_agg", sizeof(ArrAggState), arragg_init, arragg_update,
				   arragg_combine, arragg_final, NULL };

const ScalarFunc func_agg_array_sigs[] = {
	{ "array_agg", NULL, 1, 0, { FARG_ANY }, TYPE_TEXT, FRET_FIXED, false, false },
};

const AggFunc *const func_agg_array_impls[] = { &agg_array };

const int func_agg_array_count = 1;
