/*
 * srf.c — set-returning functions as FROM items (a "Function Scan"):
 *
 *   unnest(array)                       one row per element, NULLs kept, in
 *                                       order; a NULL or empty array: no rows
 *   regexp_matches(s, pattern [, flags]) one text[] row per match (all
 *                                       matches with flag g, else the first);
 *                                       no match: no rows
 *   generate_subscripts(arr, dim [, reverse])   the subscripts of dimension
 *                                       dim (only 1 exists): lower bound ..
 *                                       upper bound (int2vector: from 0),
 *                                       descending when reverse; a NULL
 *                                       or empty array or another dim: none
 *   information_schema._pg_expandarray(arr)   rows (x, n): each element and
 *                                       its position from 1 — a ROWS FROM of
 *                                       unnest and kind 3 (1 .. n); in a
 *                                       SELECT list (...).x / (...).n, or the
 *                                       whole record over an integer array
 *                                       (kind 4, array.h's ARRAY_RECORD)
 *
 * and ROWS FROM (f1(...), f2(...), ...) — also what a SELECT list with
 * several set-returning functions becomes (select.c): the functions run in
 * lockstep, row i of the result is row i of each, a function that has
 * run out gives NULLs, until every one has (srf_zip_new).
 *
 * Spec: PostgreSQL 15 documentation 9.19 (unnest, generate_subscripts),
 * 9.7.3 (regexp_matches), 7.2.1.4 (ROWS FROM) and 9.25 / xfunc-sql's
 * "set-returning functions in the select list" (lockstep since
 * PostgreSQL 10).  The arguments are expressions evaluated at each open,
 * so a LATERAL call whose arguments use the outer row's columns (ExecCtx
 * params) gives each outer row its own rows, as series.c does.
 *
 * INTERFACE ROUTINES
 *   srf_new(ctx, kind, type, args, nargs)   kind 0 unnest, 1 regexp_matches,
 *                                          2 generate_subscripts, 3 the
 *                                          positions 1..n of an array (declared
 *                                          in select.c, its caller)
 *   srf_zip_new(ctx, n, inputs)             ROWS FROM: the inputs' columns
 *                                          side by side, in lockstep
 *
 * Invariants: the values of one open live in the operator's own arena,
 * reset at the next open and freed at close; next() emits at most
 * VECTOR_SIZE rows per batch.
 */
#include "exec/exec.h"
#include "func/func.h"
#include "types/array.h"

enum { SRF_UNNEST = 0, SRF_REGEXP_MATCHES = 1, SRF_SUBSCRIPTS = 2, SRF_ORDINAL = 3,
       SRF_EXPAND_ROW = 4 };

typedef struct SrfOp {
	Operator op;
	int kind;
	Expr *args[3];
	int nargs;
	Arena *mem;                /* this open's values */
	Value *vals;               /* unnest: the elements */
	strview *rows;             /* regexp_matches: the text[] rows */
	uint32_t n, at;
	int32_t first, step;       /* generate_subscripts: first value, +1 / -1 */
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
	if (s->kind == SRF_UNNEST || s->kind == SRF_EXPAND_ROW) {
		if (v[0].is_null)
			return FLOE_OK;
		TRY(array_decode(&v[0].u.s, v[0].type, s->mem, &s->vals, &s->n, op->ctx->err));
		return exec_check_mem(op->ctx);   /* a huge array's elements */
	}
	if (s->kind == SRF_SUBSCRIPTS || s->kind == SRF_ORDINAL) {
		uint32_t n;
		Value *vals;
		int lb = s->kind == SRF_ORDINAL ? 1 : array_lower_bound(v[0].type);
		if (v[0].is_null || (s->kind == SRF_SUBSCRIPTS && (v[1].is_null || v[1].u.i != 1 ||
		    (s->nargs == 3 && v[2].is_null))))
			return FLOE_OK;
		TRY(array_decode(&v[0].u.s, v[0].type, s->mem, &vals, &n, op->ctx->err));
		s->n = n;
		if (s->nargs == 3 && v[2].u.b) {
			s->first = lb + (int32_t)n - 1;
			s->step = -1;
		} else {
			s->first = lb;
			s->step = 1;
		}
		return FLOE_OK;
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
		} else if (s->kind == SRF_EXPAND_ROW) {
			/* the record (x, n) as the array {x, n} (array.h) */
			SqlType et = array_elem_type(op->types[0]);
			Value r[2], rec;
			if (et.id == TYPE_INT16 && s->at + 1 > 32767)
				return floe_errorf(op->ctx->err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
						   "smallint out of range");
			TRY(array_elem_value(&s->vals[s->at], et, &r[0], op->ctx->err));
			r[1] = value_int(et.id, (int64_t)s->at + 1);
			rec = value_null(op->types[0]);
			rec.is_null = false;
			TRY(array_encode(op->scratch, op->types[0], r, 2, &rec.u.s, op->ctx->err));
			vector_set_value(&b->cols[0], n, &rec);
		} else if (s->kind == SRF_SUBSCRIPTS || s->kind == SRF_ORDINAL) {
			((int32_t *)b->cols[0].data)[n] = s->first + s->step * (int32_t)s->at;
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

/* ---- ROWS FROM: functions in lockstep ----------------------------------- */

typedef struct ZipOp {
	Operator op;
	int n;
	Operator **in;
	Batch **cur;               /* each input's current batch (NULL: need one) */
	uint32_t *pos;             /* the next row of cur[k] */
	bool *done;
} ZipOp;

static int
zip_open(Operator *op)
{
	ZipOp *z = (ZipOp *)op;
	int k;

	for (k = 0; k < z->n; k++) {
		z->cur[k] = NULL;
		z->pos[k] = 0;
		z->done[k] = false;
		TRY(op_open(z->in[k]));
	}
	return FLOE_OK;
}

/* input k's next row in cur[k] at pos[k]; done[k] once it has none */
static int
zip_fill(ZipOp *z, int k)
{
	while (!z->done[k] && (!z->cur[k] || z->pos[k] >= z->cur[k]->count)) {
		TRY(op_next(z->in[k], &z->cur[k]));
		z->pos[k] = 0;
		if (!z->cur[k])
			z->done[k] = true;
	}
	return FLOE_OK;
}

static int
zip_next(Operator *op, Batch **out)
{
	ZipOp *z = (ZipOp *)op;
	Batch *b = NULL;
	uint32_t n = 0;
	int k, c, col;

	arena_reset(op->scratch);
	TRY(exec_check_cancel(op->ctx));
	while (n < VECTOR_SIZE) {
		bool any = false;
		for (k = 0; k < z->n; k++) {
			TRY(zip_fill(z, k));
			any |= !z->done[k];
		}
		if (!any)
			break;
		if (!b)
			b = batch_new(op->scratch, op->ncols, op->types, VECTOR_SIZE);
		for (k = 0, col = 0; k < z->n; k++) {
			Batch *in = z->cur[k];
			for (c = 0; c < z->in[k]->ncols; c++, col++) {
				if (z->done[k]) {
					vector_set_null(&b->cols[col], n);
				} else {
					Value v;
					uint32_t row = in->sel ? in->sel[z->pos[k]] : z->pos[k];
					vector_get_value(&in->cols[c], row, &v);
					vector_set_value(&b->cols[col], n, &v);
				}
			}
			if (!z->done[k])
				z->pos[k]++;
		}
		n++;
	}
	if (b)
		b->count = n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
zip_close(Operator *op)
{
	ZipOp *z = (ZipOp *)op;
	int k;

	for (k = 0; k < z->n; k++)
		op_close(z->in[k]);
}

static const OperatorVT zip_vt = { "FunctionScan", zip_open, zip_next, zip_close };

Operator *
srf_zip_new(ExecCtx *ctx, int n, Operator **inputs)
{
	ZipOp *z = ARENA_NEW(ctx->arena, ZipOp);
	int k, c, ncols = 0;
	SqlType *types;

	for (k = 0; k < n; k++)
		ncols += inputs[k]->ncols;
	types = ARENA_ARRAY(ctx->arena, SqlType, ncols + 1);
	for (k = 0, ncols = 0; k < n; k++)
		for (c = 0; c < inputs[k]->ncols; c++)
			types[ncols++] = inputs[k]->types[c];
	op_init(&z->op, &zip_vt, ctx, ncols, types, NULL);
	z->n = n;
	z->in = ARENA_ARRAY(ctx->arena, Operator *, n);
	z->cur = ARENA_ARRAY(ctx->arena, Batch *, n);
	z->pos = ARENA_ARRAY(ctx->arena, uint32_t, n);
	z->done = ARENA_ARRAY(ctx->arena, bool, n);
	for (k = 0; k < n; k++)
		z->in[k] = inputs[k];
	z->op.inputs = z->in;
	z->op.ninputs = n;
	return &z->op;
}
