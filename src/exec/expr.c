/*
 * expr.c — vectorized evaluation of bound expressions (see expr.h).
 *
 * Kernels (func/) and casts (types/cast.h) compute dense rows 0..n.  When
 * an expression is evaluated under a selection, its arguments are gathered
 * into dense vectors, the kernel runs, and the result is scattered back to
 * the selected positions.  Without a selection the kernel writes straight
 * into `out`.
 *
 * Invariants:
 *   1. under a selection, only out[sel[i]] are defined; other rows of `out`
 *      hold garbage and are never read.
 *   2. AND/OR/CASE/COALESCE evaluate an argument only on rows whose result
 *      is still open, so errors in branches not taken never surface.
 */
#include <string.h>
#include "common/stack.h"
#include "exec/exec.h"
#include "exec/expr.h"
#include "exec/subplan.h"
#include "func/func.h"
#include "types/cast.h"
#include "types/datetime.h"

Expr *
expr_new(Arena *a, ExprKind kind, SqlType type, int nargs)
{
	Expr *e = ARENA_NEW(a, Expr);
	e->kind = kind;
	e->type = type;
	e->nargs = nargs;
	if (nargs)
		e->args = ARENA_ARRAY(a, Expr *, nargs);
	return e;
}

Expr *
expr_const(Arena *a, const Value *v)
{
	Expr *e = expr_new(a, EXPR_CONST, v->type, 0);
	e->value = *v;
	if (!v->is_null && type_is_string(v->type.id)) {
		const char *p = arena_memdup(a, strview_data(&v->u.s), v->u.s.len);
		e->value.u.s = strview_make(p, v->u.s.len);
	}
	return e;
}

Expr *
expr_colref(Arena *a, int col, SqlType type)
{
	Expr *e = expr_new(a, EXPR_COLREF, type, 0);
	e->col = col;
	return e;
}

Expr *
expr_cast(Arena *a, Expr *arg, SqlType to, int flags)
{
	Expr *e;

	if (type_equal(arg->type, to))
		return arg;
	e = expr_new(a, EXPR_CAST, to, 1);
	e->args[0] = arg;
	e->cast_flags = flags;
	e->location = arg->location;
	return e;
}

static bool
value_equal(const Value *a, const Value *b)
{
	if (!type_equal(a->type, b->type) || a->is_null != b->is_null)
		return false;
	if (a->is_null)
		return true;
	switch (a->type.id) {
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY:
		return strview_eq(&a->u.s, &b->u.s);
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		return memcmp(&a->u.f, &b->u.f, sizeof a->u.f) == 0;
	case TYPE_DECIMAL:
		return a->u.d == b->u.d;
	case TYPE_BOOL:
		return a->u.b == b->u.b;
	case TYPE_INTERVAL:
		return memcmp(&a->u.iv, &b->u.iv, sizeof a->u.iv) == 0;
	case TYPE_UUID:
		return memcmp(&a->u.uuid, &b->u.uuid, sizeof a->u.uuid) == 0;
	default:
		return a->u.i == b->u.i;
	}
}

bool
expr_equal(const Expr *a, const Expr *b)
{
	int i;

	if (a->kind != b->kind || !type_equal(a->type, b->type) || a->nargs != b->nargs)
		return false;
	switch (a->kind) {
	case EXPR_CONST:
		return value_equal(&a->value, &b->value);
	case EXPR_COLREF:
	case EXPR_AGGREF:
		return a->col == b->col;
	case EXPR_FUNC:
		if (a->fn != b->fn)
			return false;
		break;
	case EXPR_CAST:
		if (a->cast_flags != b->cast_flags)
			return false;
		break;
	case EXPR_CASE:
		if (a->has_else != b->has_else)
			return false;
		break;
	default:
		break;
	}
	for (i = 0; i < a->nargs; i++)
		if (!expr_equal(a->args[i], b->args[i]))
			return false;
	return true;
}

bool
expr_has_colref(const Expr *e)
{
	int i;

	if (e->kind == EXPR_COLREF || e->kind == EXPR_AGGREF)
		return true;
	for (i = 0; i < e->nargs; i++)
		if (expr_has_colref(e->args[i]))
			return true;
	return false;
}

bool
expr_is_volatile(const Expr *e)
{
	int i;

	if (e->kind == EXPR_FUNC && e->fn && func_is_volatile(e->fn))
		return true;
	for (i = 0; i < e->nargs; i++)
		if (expr_is_volatile(e->args[i]))
			return true;
	return false;
}

/* ---- helpers ---------------------------------------------------------- */

/* 1 + the largest row of sel (n when sel is NULL): the physical length a
 * result under sel needs.  Four running maxima, so the loop vectorizes. */
static uint32_t
phys_rows(const uint32_t *sel, uint32_t n)
{
	uint32_t i, m0 = 0, m1 = 0, m2 = 0, m3 = 0;

	if (!sel)
		return n;
	if (n == 0)
		return 0;
	for (i = 0; i + 4 <= n; i += 4) {
		m0 = sel[i] > m0 ? sel[i] : m0;
		m1 = sel[i + 1] > m1 ? sel[i + 1] : m1;
		m2 = sel[i + 2] > m2 ? sel[i + 2] : m2;
		m3 = sel[i + 3] > m3 ? sel[i + 3] : m3;
	}
	for (; i < n; i++)
		m0 = sel[i] > m0 ? sel[i] : m0;
	m0 = m1 > m0 ? m1 : m0;
	m2 = m3 > m2 ? m3 : m2;
	return (m2 > m0 ? m2 : m0) + 1;
}

/*
 * out[sel[j]] = src[j] for j < n (src dense and flat, n rows): out becomes
 * a DICT over src whose map sends row sel[j] to j (rows outside sel go to
 * row 0, so a stray read of one stays in bounds).  No row is copied, and
 * a consumer that gathers rows sel[0..n) again gets src back as is
 * (vector_dense_under).
 */
static void
scatter(Vector *out, Vector *src, const uint32_t *sel, uint32_t n, uint32_t phys,
	Arena *scratch)
{
	Vector *child = ARENA_NEW(scratch, Vector);
	uint32_t *map = arena_calloc(scratch, sizeof(uint32_t) * (phys ? phys : 1));
	uint32_t j;

	if (src->kind != VECTOR_FLAT)
		vector_flatten(src, n);
	*child = *src;
	for (j = 0; j < n; j++)
		map[sel[j]] = j;
	*out = *src;
	out->kind = VECTOR_DICT;
	out->capacity = phys;
	out->validity = NULL;
	out->data = NULL;
	out->dscale = NULL;
	out->child = child;
	out->dict_sel = map;
}

/* out[k] = src[k] for k in sel (both physical-indexed). */
static void
copy_at(Vector *out, const Vector *src, const uint32_t *sel, uint32_t n)
{
	VectorView v;
	size_t w = type_width(out->type.id);
	const char *sd;
	char *od = out->data;
	uint32_t j;
	bool dec = out->type.id == TYPE_DECIMAL;   /* carries display scales */

	vector_view(src, &v);
	sd = v.data;
	for (j = 0; j < n; j++) {
		uint32_t r = sel ? sel[j] : j;
		uint32_t k = v.sel ? v.sel[r] : r;
		memcpy(od + (size_t)r * w, sd + (size_t)k * w, w);
		if (validity_get(v.validity, k))
			vector_set_valid(out, r);
		else
			vector_set_null(out, r);
		if (dec)
			vector_copy_dscale(out, r, src, k);
	}
}

static void
set_null_at(Vector *out, const uint32_t *sel, uint32_t n)
{
	uint32_t j;
	for (j = 0; j < n; j++)
		vector_set_null(out, sel ? sel[j] : j);
}

/* Dense copy of rows sel[0..n) of v (or v itself when sel is NULL). */
static void
gather(Vector *dst, const Vector *v, const uint32_t *sel, uint32_t n, Arena *scratch)
{
	if (!sel || v->kind == VECTOR_CONST) {
		*dst = *v;
		return;
	}
	if (vector_dense_under(v, sel, n)) {
		*dst = *v->child;
		return;
	}
	vector_init_raw(dst, v->type, scratch, n);
	vector_copy_rows(dst, 0, v, sel, n);
}

static const uint32_t *
identity_or(const uint32_t *sel, uint32_t *buf, uint32_t n)
{
	uint32_t i;
	if (sel)
		return sel;
	for (i = 0; i < n; i++)
		buf[i] = i;
	return buf;
}

/* Boolean result of row k of v: 1 true, 0 false, -1 NULL. */
static inline int
bool_at(const VectorView *v, uint32_t r)
{
	uint32_t k = v->sel ? v->sel[r] : r;
	if (!validity_get(v->validity, k))
		return -1;
	return ((const uint8_t *)v->data)[k] != 0;
}

/* ---- evaluation ------------------------------------------------------- */

/*
 * x IN (c1, c2, ...) as the binder writes it: an OR of x = ci (NOT IN: an
 * AND of x <> ci) over one left operand x that is not constant nor
 * volatile, with constant right operands.  Is e that shape?
 */
static bool
in_list_shape(const Expr *e)
{
	const char *op = e->kind == EXPR_OR ? "=" : "<>";
	const Expr *x;
	int j;

	if (e->nargs < 2)
		return false;
	for (j = 0; j < e->nargs; j++) {
		const Expr *c = e->args[j];
		if (c->kind != EXPR_FUNC || c->nargs != 2 || !c->fn || strcmp(c->fn->name, op) != 0 ||
		    c->fn != e->args[0]->fn || c->args[1]->kind != EXPR_CONST)
			return false;
	}
	x = e->args[0]->args[0];
	if (x->kind == EXPR_CONST || expr_is_volatile(x))
		return false;
	for (j = 1; j < e->nargs; j++)
		if (!expr_equal(e->args[j]->args[0], x))
			return false;
	return true;
}

/*
 * An IN list (in_list_shape): x evaluated once for the rows, each
 * comparison's kernel run on it (an equality never fails, so comparing a
 * row an earlier item already decided surfaces no error), combined as the
 * n-ary OR / AND would: the deciding value if any item gives it, else NULL
 * if any item was NULL, else the other value.
 */
static int
eval_in_list(ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel, uint32_t n,
	     uint32_t phys, Arena *scratch, Vector *out)
{
	uint8_t decided = e->kind == EXPR_OR;
	uint8_t *hit = arena_calloc(scratch, n ? n : 1);
	uint8_t *nul = arena_calloc(scratch, n ? n : 1);
	FuncCtx fc = { scratch, ctx->err, ctx->env };
	Vector raw, args[2], res;
	uint8_t *od;
	uint32_t i;
	int j;

	TRY(expr_eval(ctx, e->args[0]->args[0], in, sel, n, scratch, &raw));
	gather(&args[0], &raw, sel, n, scratch);
	for (j = 0; j < e->nargs; j++) {
		VectorView v;
		const uint8_t *vd;
		vector_init_const(&args[1], &e->args[j]->args[1]->value, scratch);
		vector_init(&res, type_make(TYPE_BOOL), scratch, n ? n : 1);
		TRY(e->args[j]->fn->kernel(&fc, args, 2, n, &res));
		vector_view(&res, &v);
		vd = v.data;
		if (!v.validity && !v.sel) {
			for (i = 0; i < n; i++)
				hit[i] |= (uint8_t)((vd[i] != 0) == decided);
		} else {
			for (i = 0; i < n; i++) {
				int b = bool_at(&v, i);
				hit[i] |= (uint8_t)(b == decided);
				nul[i] |= (uint8_t)(b < 0);
			}
		}
	}
	vector_init(out, type_make(TYPE_BOOL), scratch, phys);
	od = out->data;
	for (i = 0; i < n; i++) {
		uint32_t r = sel ? sel[i] : i;
		if (!hit[i] && nul[i])
			vector_set_null(out, r);
		else
			od[r] = hit[i] ? decided : (uint8_t)!decided;
	}
	return FLOE_OK;
}

static int eval_dense_call(ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel,
			   uint32_t n, Arena *scratch, Vector *out);

int
expr_eval(ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel, uint32_t n,
	  Arena *scratch, Vector *out)
{
	uint32_t phys;
	uint32_t i;

	TRY(stack_check(ctx->err));
	phys = e->kind == EXPR_CONST || e->kind == EXPR_COLREF || e->kind == EXPR_FUNC ||
	       e->kind == EXPR_CAST ? 0 : phys_rows(sel, n);
	if ((e->kind == EXPR_OR || e->kind == EXPR_AND) && e->nargs < INSET_MIN && in_list_shape(e))
		return eval_in_list(ctx, e, in, sel, n, phys, scratch, out);
	switch (e->kind) {
	case EXPR_CONST:
		vector_init_const(out, &e->value, scratch);
		return FLOE_OK;
	case EXPR_COLREF:
		if (e->col >= EXPR_PARAM_BASE) {
			int k = e->col - EXPR_PARAM_BASE;
			Value v;
			if (!ctx->params || k >= ctx->nparams)
				return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR,
						   "parameter %d of a LATERAL subquery is not set", k);
			v = ctx->params[k];
			v.type = e->type;
			vector_init_const(out, &v, scratch);
			return FLOE_OK;
		}
		*out = in->cols[e->col];
		return FLOE_OK;
	case EXPR_FUNC:
	case EXPR_CAST:
		return eval_dense_call(ctx, e, in, sel, n, scratch, out);
	case EXPR_SUBPLAN:
		return subplan_eval(ctx, e, in, sel, n, scratch, out);
	case EXPR_NOT:
	case EXPR_IS_NULL:
	case EXPR_IS_NOT_NULL:
	case EXPR_IS_TRUE:
	case EXPR_IS_NOT_TRUE:
	case EXPR_IS_FALSE:
	case EXPR_IS_NOT_FALSE: {
		Vector a;
		VectorView v;
		uint8_t *od;

		TRY(expr_eval(ctx, e->args[0], in, sel, n, scratch, &a));
		vector_view(&a, &v);
		vector_init(out, type_make(TYPE_BOOL), scratch, phys);
		od = out->data;
		for (i = 0; i < n; i++) {
			uint32_t r = sel ? sel[i] : i;
			uint32_t k = v.sel ? v.sel[r] : r;
			bool valid = validity_get(v.validity, k);
			int b = valid && e->args[0]->type.id == TYPE_BOOL ?
				((const uint8_t *)v.data)[k] != 0 : 0;
			switch (e->kind) {
			case EXPR_NOT:
				if (!valid)
					vector_set_null(out, r);
				else
					od[r] = !b;
				break;
			case EXPR_IS_NULL: od[r] = !valid; break;
			case EXPR_IS_NOT_NULL: od[r] = valid; break;
			case EXPR_IS_TRUE: od[r] = valid && b; break;
			case EXPR_IS_NOT_TRUE: od[r] = !(valid && b); break;
			case EXPR_IS_FALSE: od[r] = valid && !b; break;
			case EXPR_IS_NOT_FALSE: od[r] = !(valid && !b); break;
			default: break;
			}
		}
		return FLOE_OK;
	}
	case EXPR_AND:
	case EXPR_OR: {
		/* decided = the value that settles the result (false for AND) */
		int decided = e->kind == EXPR_OR;
		if (e->nargs >= INSET_MIN) {
			/* x [NOT] IN (constants): one hash lookup per row */
			bool done;
			TRY(inset_eval(ctx, e, in, sel, n, scratch, out, &done));
			if (done)
				return FLOE_OK;
			/* a list the hash set does not take: x once, item by item */
			if (in_list_shape(e))
				return eval_in_list(ctx, e, in, sel, n, phys, scratch, out);
		}
		uint32_t *active = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint32_t *next = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint8_t *saw_null = arena_calloc(scratch, phys ? phys : 1);
		uint8_t *od;
		uint32_t nactive = n, a_i;
		int j;

		memcpy(active, identity_or(sel, active, n), sizeof(uint32_t) * n);
		vector_init(out, type_make(TYPE_BOOL), scratch, phys);
		od = out->data;
		for (j = 0; j < e->nargs && nactive > 0; j++) {
			Vector a;
			VectorView v;
			uint32_t nn = 0;

			uint32_t *t;
			const uint8_t *vd;

			TRY(expr_eval(ctx, e->args[j], in, active, nactive, scratch, &a));
			vector_view(&a, &v);
			vd = v.data;
			/* branch-free: every row gets the deciding value (rows left
			 * open are overwritten at the end; out has no NULLs before
			 * then) and is appended to next unless it was decided */
			if (!v.validity) {
				const uint32_t *vs = v.sel;
				for (a_i = 0; a_i < nactive; a_i++) {
					uint32_t r = active[a_i];
					int b = vd[vs ? vs[r] : r] != 0;
					od[r] = (uint8_t)decided;
					next[nn] = r;
					nn += b != decided;
				}
			} else {
				for (a_i = 0; a_i < nactive; a_i++) {
					uint32_t r = active[a_i];
					int b = bool_at(&v, r);
					od[r] = (uint8_t)decided;
					saw_null[r] |= (uint8_t)(b < 0);
					next[nn] = r;
					nn += b != decided;
				}
			}
			t = active;
			active = next;
			next = t;
			nactive = nn;
		}
		for (a_i = 0; a_i < nactive; a_i++) {
			uint32_t r = active[a_i];
			if (saw_null[r])
				vector_set_null(out, r);
			else
				od[r] = (uint8_t)!decided;
		}
		return FLOE_OK;
	}
	case EXPR_CASE: {
		uint32_t *active = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint32_t *hit = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint32_t *rest = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint32_t nactive = n;
		int nwhen = (e->nargs - (e->has_else ? 1 : 0)) / 2, j;

		memcpy(active, identity_or(sel, active, n), sizeof(uint32_t) * n);
		vector_init(out, e->type, scratch, phys);
		for (j = 0; j < nwhen && nactive > 0; j++) {
			Vector c, t;
			VectorView v;
			uint32_t nh = 0, nr = 0;

			TRY(expr_eval(ctx, e->args[2 * j], in, active, nactive, scratch, &c));
			vector_view(&c, &v);
			for (i = 0; i < nactive; i++) {
				if (bool_at(&v, active[i]) == 1)
					hit[nh++] = active[i];
				else
					rest[nr++] = active[i];
			}
			if (nh) {
				TRY(expr_eval(ctx, e->args[2 * j + 1], in, hit, nh, scratch, &t));
				copy_at(out, &t, hit, nh);
			}
			memcpy(active, rest, sizeof(uint32_t) * nr);
			nactive = nr;
		}
		if (nactive) {
			if (e->has_else) {
				Vector t;
				TRY(expr_eval(ctx, e->args[e->nargs - 1], in, active, nactive, scratch, &t));
				copy_at(out, &t, active, nactive);
			} else {
				set_null_at(out, active, nactive);
			}
		}
		return FLOE_OK;
	}
	case EXPR_COALESCE: {
		uint32_t *active = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint32_t *rest = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint32_t *hit = arena_alloc(scratch, sizeof(uint32_t) * (n ? n : 1));
		uint32_t nactive = n;
		int j;

		memcpy(active, identity_or(sel, active, n), sizeof(uint32_t) * n);
		vector_init(out, e->type, scratch, phys);
		for (j = 0; j < e->nargs && nactive > 0; j++) {
			Vector t;
			VectorView v;
			uint32_t nr = 0, nh = 0;

			TRY(expr_eval(ctx, e->args[j], in, active, nactive, scratch, &t));
			vector_view(&t, &v);
			for (i = 0; i < nactive; i++) {
				uint32_t r = active[i];
				uint32_t k = v.sel ? v.sel[r] : r;
				if (validity_get(v.validity, k))
					hit[nh++] = r;
				else
					rest[nr++] = r;
			}
			copy_at(out, &t, hit, nh);
			memcpy(active, rest, sizeof(uint32_t) * nr);
			nactive = nr;
		}
		set_null_at(out, active, nactive);
		return FLOE_OK;
	}
	case EXPR_DISTINCT:
	case EXPR_NOT_DISTINCT: {
		/* evaluate "=" on all rows (kernel is strict), then fix up NULLs */
		Vector a, b, eq;
		VectorView va, vb, ve;
		uint8_t *od;
		Expr call = *e;

		TRY(expr_eval(ctx, e->args[0], in, sel, n, scratch, &a));
		TRY(expr_eval(ctx, e->args[1], in, sel, n, scratch, &b));
		call.kind = EXPR_FUNC;
		call.type = type_make(TYPE_BOOL);
		TRY(eval_dense_call(ctx, &call, in, sel, n, scratch, &eq));
		vector_view(&a, &va);
		vector_view(&b, &vb);
		vector_view(&eq, &ve);
		vector_init(out, type_make(TYPE_BOOL), scratch, phys);
		od = out->data;
		for (i = 0; i < n; i++) {
			uint32_t r = sel ? sel[i] : i;
			bool na = !validity_get(va.validity, va.sel ? va.sel[r] : r);
			bool nb = !validity_get(vb.validity, vb.sel ? vb.sel[r] : r);
			int same;
			if (na || nb)
				same = na && nb;
			else
				same = bool_at(&ve, r) == 1;
			od[r] = (uint8_t)(e->kind == EXPR_NOT_DISTINCT ? same : !same);
		}
		return FLOE_OK;
	}
	case EXPR_AGGREF:
		return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR,
				   "aggregate reference outside an aggregation");
	}
	return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR, "unknown expression kind %d", e->kind);
}

/*
 * date -> timestamp without time zone, the cast a comparison of a date
 * column with a timestamp (date '...' - interval '...') puts on every row:
 * a typed loop instead of cast_vector's per-Value path.  false when the
 * cast is another one (or a row is out of range: cast_vector then reports
 * it).
 */
static bool
cast_date_timestamp(const Vector *in, uint32_t n, Vector *out, SqlType to)
{
	VectorView v;
	const int32_t *d;
	int64_t *o = out->data;
	uint32_t i;

	if (in->type.id != TYPE_DATE || to.id != TYPE_TIMESTAMP)
		return false;
	vector_view(in, &v);
	d = v.data;
	for (i = 0; i < n; i++) {
		uint32_t k = v.sel ? v.sel[i] : i;
		int32_t x = d[k];
		if (x == DATE_NOEND || x == DATE_NOBEGIN ||
		    (int128)x * USECS_PER_DAY < TS_MIN_USECS || (int128)x * USECS_PER_DAY > TS_MAX_USECS) {
			if (!validity_get(v.validity, k))
				continue;
			if (x == DATE_NOEND || x == DATE_NOBEGIN)
				o[i] = x == DATE_NOEND ? TS_NOEND : TS_NOBEGIN;
			else
				return false;
			continue;
		}
		o[i] = (int64_t)x * USECS_PER_DAY;
	}
	if (v.validity)
		for (i = 0; i < n; i++)
			if (!validity_get(v.validity, v.sel ? v.sel[i] : i))
				vector_set_null(out, i);
	return true;
}

/*
 * A function call or cast: evaluate the arguments on the rows, run the
 * kernel densely, scatter under a selection.
 */
static int
eval_dense_call(ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel,
		uint32_t n, Arena *scratch, Vector *out)
{
	Vector *args = ARENA_ARRAY(scratch, Vector, e->nargs ? e->nargs : 1);
	Vector dense;
	bool all_const = true;
	int j;

	for (j = 0; j < e->nargs; j++) {
		Vector raw;
		TRY(expr_eval(ctx, e->args[j], in, sel, n, scratch, &raw));
		gather(&args[j], &raw, sel, n, scratch);
		if (args[j].kind != VECTOR_CONST)
			all_const = false;
	}
	/* constant folding at run time: compute one row, return a CONST */
	{
		bool fold = all_const && e->nargs > 0 &&
			    !(e->kind == EXPR_FUNC && func_is_volatile(e->fn));
		uint32_t rows = fold ? 1 : n;
		Vector *target = (sel || fold) ? &dense : out;

		vector_init(target, e->type, scratch, rows ? rows : 1);
		if (e->kind == EXPR_CAST && cast_date_timestamp(&args[0], rows, target, e->type)) {
			/* done */
		} else if (e->kind == EXPR_CAST) {
			TRY(cast_vector(&args[0], rows, target, e->type, e->cast_flags, ctx->err));
		} else {
			FuncCtx fc = { scratch, ctx->err, ctx->env };
			TRY(e->fn->kernel(&fc, args, e->nargs, rows, target));
		}
		if (fold) {
			/* a CONST reads the same at every (physical) row */
			dense.kind = VECTOR_CONST;
			*out = dense;
			return FLOE_OK;
		}
		if (sel)
			scatter(out, &dense, sel, n, phys_rows(sel, n), scratch);
	}
	return FLOE_OK;
}

int
expr_eval_const(const Expr *e, const struct SessionEnv *env, Arena *arena, Value *out, floe_error *err)
{
	ExecCtx ctx;
	Batch b;
	Vector v;

	memset(&ctx, 0, sizeof ctx);
	ctx.arena = arena;
	ctx.err = err;
	ctx.env = env;
	memset(&b, 0, sizeof b);
	b.count = 1;
	b.arena = arena;
	TRY(expr_eval(&ctx, e, &b, NULL, 1, arena, &v));
	vector_get_value(&v, 0, out);
	out->type = e->type;
	if (!out->is_null && type_is_string(out->type.id)) {
		const char *p = arena_memdup(arena, strview_data(&out->u.s), out->u.s.len);
		out->u.s = strview_make(p, out->u.s.len);
	}
	return FLOE_OK;
}
