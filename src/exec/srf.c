/*
 * srf.c — set-returning functions as FROM items (a "Function Scan"):
 *
 *   unnest(array)                       one row per element, NULLs kept, in
 *                                       order; a NULL or empty array: no rows
 *   regexp_matches(s, pattern [, flags]) one text[] row per match (all
 *                                       matches with flag g, else the first);
 *                                       no match: no rows
 *
 * Spec: PostgreSQL 15 documentation 9.19 (unnest) and 9.7.3
 * (regexp_matches).  The arguments are expressions evaluated at each open,
 * so a LATERAL call whose arguments use the outer row's columns (ExecCtx
 * params) gives each outer row its own rows, as series.c does.
 *
 * INTERFACE ROUTINES
 *   srf_new(ctx, kind, type, args, nargs)   (declared in select.c, its caller)
 *
 * Invariants: the values of one open live in the operator's own arena,
 * reset at the next open and freed at close; next() emits at most
 * VECTOR_SIZE rows per batch.
 */
#include "exec/exec.h"
#include "func/func.h"
#include "types/array.h"

enum { SRF_UNNEST = 0, SRF_REGEXP_MATCHES = 1 };

/* func_regex.c: every match of pattern in s as a text[] value */
int func_regexp_matches_rows(const strview *s, const strview *pat, const strview *flags,
			     SqlType arrtype, Arena *a, strview **rows, uint32_t *n,
			     floe_error *err);

Operator *srf_new(ExecCtx *ctx, int kind, SqlType type, Expr **args, int nargs);

typedef struct SrfOp {
	Operator op;
	int kind;
	Expr *args[3];
	int nargs;
	Arena *mem;                /* this open's values */
	Value *vals;               /* unnest: the elements */
	strview *rows;             /* regexp_matches: the text[] rows */
	uint32_t n, at;
} SrfOp;

static int
srf_open(Operator *op)
{
	SrfOp *s = (SrfOp *)op;
	Value v[3];
	int k;

	if (!s->mem)
		s->mem = arena_new(0);
	else
		arena_reset(s->mem);
	s->n = s->at = 0;
	for (k = 0; k < s->nargs; k++) {
		Batch *one;
		Vector out;
		arena_reset(op->scratch);
		one = batch_new(op->scratch, 0, NULL, 1);
		one->count = 1;
		TRY(expr_eval(op->ctx, s->args[k], one, NULL, 1, op->scratch, &out));
		vector_get_value(&out, 0, &v[k]);
		v[k].type = s->args[k]->type;
		if (!v[k].is_null && type_is_string(v[k].type.id))
			v[k].u.s = strview_make(arena_memdup(s->mem, strview_data(&v[k].u.s), v[k].u.s.len),
						v[k].u.s.len);
	}
	if (s->kind == SRF_UNNEST) {
		if (v[0].is_null)
			return FLOE_OK;
		return array_decode(&v[0].u.s, v[0].type, s->mem, &s->vals, &s->n, op->ctx->err);
	}
	for (k = 0; k < s->nargs; k++)
		if (v[k].is_null)
			return FLOE_OK;
	return func_regexp_matches_rows(&v[0].u.s, &v[1].u.s, s->nargs == 3 ? &v[2].u.s : NULL,
					op->types[0], s->mem, &s->rows, &s->n, op->ctx->err);
}

static int
srf_next(Operator *op, Batch **out)
{
	SrfOp *s = (SrfOp *)op;
	Batch *b;
	uint32_t n = 0;

	arena_reset(op->scratch);
	TRY(exec_check_cancel(op->ctx));
	if (s->at >= s->n) {
		*out = NULL;
		return FLOE_OK;
	}
	b = batch_new(op->scratch, 1, op->types, VECTOR_SIZE);
	while (n < VECTOR_SIZE && s->at < s->n) {
		if (s->kind == SRF_UNNEST) {
			Value e;
			TRY(array_elem_value(&s->vals[s->at], op->types[0], &e, op->ctx->err));
			vector_set_value(&b->cols[0], n, &e);
		} else {
			vector_set_string(&b->cols[0], n, strview_data(&s->rows[s->at]), s->rows[s->at].len);
		}
		s->at++;
		n++;
	}
	b->count = n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
srf_close(Operator *op)
{
	SrfOp *s = (SrfOp *)op;

	if (s->mem)
		arena_free(s->mem);
	s->mem = NULL;
	s->n = s->at = 0;
}

static const OperatorVT srf_vt = { "FunctionScan", srf_open, srf_next, srf_close };

Operator *
srf_new(ExecCtx *ctx, int kind, SqlType type, Expr **args, int nargs)
{
	SrfOp *s = ARENA_NEW(ctx->arena, SrfOp);
	int k;

	op_init(&s->op, &srf_vt, ctx, 1, &type, NULL);
	s->kind = kind;
	s->nargs = nargs > 3 ? 3 : nargs;
	for (k = 0; k < s->nargs; k++)
		s->args[k] = args[k];
	return &s->op;
}
