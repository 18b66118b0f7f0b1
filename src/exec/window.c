/*
 * window.c — window functions (PostgreSQL's WindowAgg): a pipeline
 * breaker that appends one column per window call to its input rows.
 *
 * Spec: PostgreSQL 15 documentation 3.5 "Window Functions", 4.2.8 "Window
 * Function Calls" (frames) and 9.22 "Window Functions"; nodeWindowAgg.c
 * for the semantics of peers, frames, ntile buckets and lag/lead defaults.
 *
 * open() consumes the child: every input row is appended to one growing
 * flat Vector per "wide" column (the child's columns, then each evaluated
 * partition key, order key and call argument), with long strings copied
 * into the operator's store.  Then, once per distinct WindowSpec
 * (PARTITION BY + ORDER BY), a permutation of the rows is sorted by
 * (partition keys, order keys; ties by input position, so the sort is
 * stable), partition and peer-group boundaries are found, and every call
 * of that spec writes its result for each row (indexed by input row) into
 * a result Vector.  next() emits the rows in the order of the last spec's
 * permutation (as PostgreSQL emits the last window's sort order).
 *
 * Frames: ROWS, RANGE or GROUPS, bounds UNBOUNDED PRECEDING/FOLLOWING,
 * CURRENT ROW (RANGE, GROUPS: the row's first/last peer) and n
 * PRECEDING/FOLLOWING (ROWS: n rows; GROUPS: n peer groups, by the peer
 * group numbers compute_spec gives each partition; RANGE: the rows whose
 * one ORDER BY key is within n of the row's, found by binary search —
 * date/timestamp(tz) keys with an interval n: key -/+ n as PostgreSQL's
 * in_range adds it, months first; a NULL key's frame is its NULL peers).
 * EXCLUDE CURRENT ROW / GROUP / TIES removes the row, its peers, or its
 * peers but itself from the frame, which becomes up to three ascending
 * segments (frame_segs); aggregates then add the segments afresh per row,
 * first/last/nth_value index into them.  Aggregates whose frame
 * starts at UNBOUNDED PRECEDING run incrementally (the frame end never
 * moves back, so each row is added once: O(n) for the default frame);
 * so do count/min/max and exact sum/avg whose frame ends at UNBOUNDED
 * FOLLOWING, walking the partition backwards; other frames are
 * aggregated afresh per row (O(n * frame width)).
 * Rows are fed to AggFunc.update through a DICT vector over the stored
 * argument column whose selection is a slice of the permutation.
 *
 * Named states: the operator is COLLECTING (open: child rows appended),
 * then COMPUTED (results filled), then EMITTING (next(): emit_pos moves
 * from 0 to nrows).  Invariants: nrows <= cap; every stored vector has
 * capacity cap; results[c] has capacity nrows and is written exactly once
 * per row.
 *
 * Memory (work_mem, spill.h): the rows are not spilled to disk; above
 * SPILL_HARD_FACTOR times ctx->mem_limit the operator fails with 53200
 * ("out of memory: work_mem exceeded by window function") instead of
 * growing without bound.  What it holds (the store's malloc'd chunks) is
 * EXPLAIN ANALYZE's Peak Memory.
 *
 * INTERFACE ROUTINES (exec.h)
 *   window_new(ctx, child, nspecs, specs, ncalls, calls)
 */
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"
#include "exec/spill.h"
#include "func/func.h"
#include "types/datetime.h"

typedef struct WindowOp {
	Operator op;
	int nspecs, ncalls;
	WindowSpec *specs;
	WindowCall *calls;
	int nchild;
	int nwide;
	Expr **wide_expr;          /* [nwide]: NULL for child columns */
	SqlType *wide_type;
	int **spec_part, **spec_order;   /* wide column of each key */
	int *call_arg, *call_arg2, *call_arg3;   /* wide column or -1 */
	Arena *store;
	Vector *cols;              /* [nwide], capacity cap */
	uint32_t nrows, cap;
	Vector *results;           /* [ncalls], capacity nrows */
	void **states;             /* [VECTOR_SIZE] update() state pointers */
	void **call_state;         /* [ncalls] aggregate state blocks */
	uint32_t *perm;            /* emission order */
	uint32_t emit_pos;
	/* GROUPS frames, for the partition being computed: grp[pos] = the peer
	 * group number (0-based within the partition) of position pos;
	 * gpos[ps + g] = the first position of group g; ngrp groups */
	uint32_t *grp, *gpos, ngrp;
} WindowOp;

typedef struct SortCtx {
	WindowOp *w;
	const WindowSpec *spec;
	int sidx;
} SortCtx;

/* three-way comparison of wide column c at rows a and b; NULLs compare
 * by nulls_first */
static int
cell_cmp(const Vector *v, uint32_t a, uint32_t b, bool desc, bool nulls_first)
{
	bool na = !validity_get(v->validity, a), nb = !validity_get(v->validity, b);
	size_t wdt;
	int c;

	if (na || nb) {
		if (na && nb)
			return 0;
		return na ? (nulls_first ? -1 : 1) : (nulls_first ? 1 : -1);
	}
	wdt = type_width(v->type.id);
	c = sort_compare_values((const char *)v->data + wdt * a, (const char *)v->data + wdt * b,
				v->type);
	return desc ? -c : c;
}

static int
part_cmp(WindowOp *w, int s, uint32_t a, uint32_t b)
{
	int k, c;

	for (k = 0; k < w->specs[s].npart; k++)
		if ((c = cell_cmp(&w->cols[w->spec_part[s][k]], a, b, false, false)))
			return c;
	return 0;
}

static int
order_cmp(WindowOp *w, int s, uint32_t a, uint32_t b)
{
	const WindowSpec *sp = &w->specs[s];
	int k, c;

	for (k = 0; k < sp->norder; k++)
		if ((c = cell_cmp(&w->cols[w->spec_order[s][k]], a, b, sp->dirs[k].desc,
				  sp->dirs[k].nulls_first)))
			return c;
	return 0;
}

static int
perm_cmp(const void *pa, const void *pb, void *arg)
{
	SortCtx *sc = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int c;

	if ((c = part_cmp(sc->w, sc->sidx, a, b)))
		return c;
	if ((c = order_cmp(sc->w, sc->sidx, a, b)))
		return c;
	return a < b ? -1 : a > b;
}

static void
grow(WindowOp *w, uint32_t need)
{
	uint32_t ncap = w->cap ? w->cap : 2048;
	int c;

	if (need <= w->cap)
		return;
	while (ncap < need)
		ncap *= 2;
	for (c = 0; c < w->nwide; c++) {
		Vector nv;
		vector_init(&nv, w->wide_type[c], w->store, ncap);
		if (w->nrows)
			vector_copy_rows(&nv, 0, &w->cols[c], NULL, w->nrows);
		w->cols[c] = nv;
	}
	w->cap = ncap;
}

static int
append_batch(WindowOp *w, Batch *in)
{
	Operator *op = &w->op;
	uint32_t n = in->count, i;
	int c;

	grow(w, w->nrows + n);
	for (c = 0; c < w->nwide; c++) {
		Vector *dst = &w->cols[c];
		if (!w->wide_expr[c]) {
			vector_copy_rows(dst, w->nrows, &in->cols[c], in->sel, n);
		} else {
			Vector raw;
			TRY(expr_eval(op->ctx, w->wide_expr[c], in, in->sel, n, op->scratch, &raw));
			vector_copy_rows(dst, w->nrows, &raw, in->sel, n);
		}
		if (type_is_string(dst->type.id)) {
			strview *sv = dst->data;
			for (i = w->nrows; i < w->nrows + n; i++)
				if (vector_is_valid(dst, i) && sv[i].len > STRVIEW_INLINE)
					sv[i] = strview_make(arena_memdup(w->store, sv[i].u.ptr, sv[i].len),
							     sv[i].len);
		}
	}
	w->nrows += n;
	return FLOE_OK;
}

static void
copy_cell(Vector *dst, uint32_t drow, const Vector *src, uint32_t srow)
{
	size_t wdt = type_width(dst->type.id);

	if (!validity_get(src->validity, srow)) {
		vector_set_null(dst, drow);
		return;
	}
	memcpy((char *)dst->data + wdt * drow, (const char *)src->data + wdt * srow, wdt);
	vector_set_valid(dst, drow);
	vector_copy_dscale(dst, drow, src, srow);
}

static bool
int_at(const Vector *v, uint32_t row, int64_t *out)
{
	Value val;

	if (!validity_get(v->validity, row))
		return false;
	vector_get_value(v, row, &val);
	*out = val.u.i;
	return true;
}

/* the number in row `row` of a numeric key column (false: NULL) */
static bool
key_num(const Vector *kv, uint32_t row, double *f, int128 *d)
{
	Value v;

	if (!validity_get(kv->validity, row))
		return false;
	vector_get_value(kv, row, &v);
	if (v.type.id == TYPE_FLOAT32 || v.type.id == TYPE_FLOAT64)
		*f = v.u.f;
	else if (v.type.id == TYPE_DATE)      /* as a timestamp: in_range(date, interval) */
		*d = (int128)v.u.i * 86400000000LL;
	else if (v.type.id == TYPE_DECIMAL)
		*d = v.u.d;
	else
		*d = v.u.i;
	return true;
}

/* position of the key at `row` against the target in the sort order:
 * < 0 before it, 0 equal, > 0 after; NULLs lie beyond every value */
static int
range_cmp(const Vector *kv, const SortKey *dir, uint32_t row, bool isf, double tf, int128 td)
{
	double f = 0;
	int128 d = 0;
	int c;

	if (!key_num(kv, row, &f, &d))
		return dir->nulls_first ? -1 : 1;
	c = isf ? (f < tf ? -1 : f > tf) : (d < td ? -1 : d > td);
	return dir->desc ? -c : c;
}

/* a RANGE offset bound of position i: the first position at or after
 * (start) / the last at or before (end) key(i) -/+ offset */
static int64_t
range_bound(WindowOp *w, int s, const uint32_t *perm, int64_t i, int64_t ps, int64_t pe,
	    const Value *off, bool preceding, bool start)
{
	const SortKey *dir = &w->specs[s].dirs[0];
	const Vector *kv = &w->cols[w->spec_order[s][0]];
	bool isf = off->type.id == TYPE_FLOAT32 || off->type.id == TYPE_FLOAT64;
	bool minus = preceding != dir->desc;
	double tf = 0;
	int128 td = 0;
	int64_t lo = ps, hi = pe;

	key_num(kv, perm[i], &tf, &td);
	if (off->type.id == TYPE_INTERVAL) {
		/* key -/+ interval as a timestamp; out of range: beyond every key */
		Interval iv = off->u.iv;
		int64_t t;
		floe_error e;
		if ((minus && datetime_interval_neg(iv, &iv, &e) != FLOE_OK) ||
		    datetime_add_interval((int64_t)td, iv, kv->type.id == TYPE_TIMESTAMPTZ, &t, &e) != FLOE_OK)
			td = minus ? -((int128)1 << 100) : ((int128)1 << 100);
		else
			td = t;
	} else if (isf)
		tf = minus ? tf - off->u.f : tf + off->u.f;
	else {
		int128 o = off->type.id == TYPE_DECIMAL ? off->u.d : off->u.i, lim = 1;
		/* 38-digit decimals: saturate at +/-2^126 instead of overflowing */
		lim <<= 126;
		if (o > lim)
			o = lim;
		if (td > lim)
			td = lim;
		else if (td < -lim)
			td = -lim;
		td = minus ? td - o : td + o;
	}
	/* first position whose cmp is >= 0 (start) or > 0 (end) */
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		int c = range_cmp(kv, dir, perm[mid], isf, tf, td);
		if (start ? c < 0 : c <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return start ? lo : lo - 1;
}

/* frame [*fs, *fe] (positions in perm, inclusive; empty when fs > fe) of
 * position i in partition [ps, pe) */
static void
frame_of(WindowOp *w, const WindowCall *call, const uint32_t *perm, int64_t i, int64_t ps,
	 int64_t pe, const uint32_t *peer_start, const uint32_t *peer_end, int64_t *fs, int64_t *fe)
{
	const WindowFrame *f = &call->frame;
	bool key_null = false;

	if (f->range_off)
		key_null = !validity_get(w->cols[w->spec_order[call->spec][0]].validity, perm[i]);
	switch (f->start) {
	case WB_UNBOUNDED_PRECEDING: *fs = ps; break;
	case WB_CURRENT: *fs = f->rows ? i : peer_start[i]; break;
	case WB_PRECEDING: case WB_FOLLOWING:
		if (f->rows)
			*fs = f->start == WB_PRECEDING ? i - f->start_off : i + f->start_off;
		else if (f->groups) {
			int64_t g = (int64_t)w->grp[i] + (f->start == WB_PRECEDING ? -f->start_off : f->start_off);
			*fs = g < 0 ? ps : g >= (int64_t)w->ngrp ? pe : (int64_t)w->gpos[ps + g];
		} else if (key_null)
			*fs = peer_start[i];
		else
			*fs = range_bound(w, call->spec, perm, i, ps, pe, &f->start_val,
					  f->start == WB_PRECEDING, true);
		break;
	default: *fs = pe; break;
	}
	switch (f->end) {
	case WB_UNBOUNDED_PRECEDING: *fe = ps - 1; break;
	case WB_CURRENT: *fe = f->rows ? i : (int64_t)peer_end[i] - 1; break;
	case WB_PRECEDING: case WB_FOLLOWING:
		if (f->rows)
			*fe = f->end == WB_PRECEDING ? i - f->end_off : i + f->end_off;
		else if (f->groups) {
			int64_t g = (int64_t)w->grp[i] + (f->end == WB_PRECEDING ? -f->end_off : f->end_off);
			*fe = g < 0 ? ps - 1 : g >= (int64_t)w->ngrp - 1 ? pe - 1 :
			      (int64_t)w->gpos[ps + g + 1] - 1;
		} else if (key_null)
			*fe = (int64_t)peer_end[i] - 1;
		else
			*fe = range_bound(w, call->spec, perm, i, ps, pe, &f->end_val,
					  f->end == WB_PRECEDING, false);
		break;
	default: *fe = pe - 1; break;
	}
	if (*fs < ps)
		*fs = ps;
	if (*fe > pe - 1)
		*fe = pe - 1;
}

/* The frame [fs, fe] of position i minus its EXCLUDE rows, as up to three
 * ascending segments [seg[k][0], seg[k][1]] (inclusive); returns how many. */
static int
frame_segs(const WindowCall *call, int64_t i, int64_t fs, int64_t fe, const uint32_t *peer_start,
	   const uint32_t *peer_end, int64_t seg[3][2])
{
	int64_t xs, xe;     /* excluded positions [xs, xe) */
	int n = 0;

	if (fs > fe)
		return 0;
	if (call->frame.exclude == 0) {
		seg[0][0] = fs;
		seg[0][1] = fe;
		return 1;
	}
	if (call->frame.exclude == 1) {
		xs = i;
		xe = i + 1;
	} else {
		xs = peer_start[i];
		xe = peer_end[i];
	}
	if (fs <= (xs - 1 < fe ? xs - 1 : fe)) {
		seg[n][0] = fs;
		seg[n][1] = xs - 1 < fe ? xs - 1 : fe;
		n++;
	}
	if (call->frame.exclude == 3 && i >= fs && i <= fe) {
		seg[n][0] = seg[n][1] = i;
		n++;
	}
	if ((xe > fs ? xe : fs) <= fe) {
		seg[n][0] = xe > fs ? xe : fs;
		seg[n][1] = fe;
		n++;
	}
	return n;
}

/* Position k (0-based; negative: from the end, -1 the last) of the
 * segments, or -1 when there is none. */
static int64_t
seg_pick(int64_t seg[3][2], int nseg, int64_t k)
{
	int j;

	if (k < 0) {
		for (j = nseg - 1; j >= 0; j--) {
			int64_t len = seg[j][1] - seg[j][0] + 1;
			if (-k <= len)
				return seg[j][1] + k + 1;
			k += len;
		}
		return -1;
	}
	for (j = 0; j < nseg; j++) {
		int64_t len = seg[j][1] - seg[j][0] + 1;
		if (k < len)
			return seg[j][0] + k;
		k -= len;
	}
	return -1;
}

/* Does the aggregate's result not depend on the order rows are added in?
 * (float sums and averages round differently; PostgreSQL adds a frame's
 * rows from its head) */
static bool
order_free(const WindowCall *call)
{
	const char *n = call->agg->name;
	TypeId t = call->arg ? call->arg->type.id : TYPE_INT64;

	if (!strcmp(n, "count") || !strcmp(n, "min") || !strcmp(n, "max"))
		return true;
	if (!strcmp(n, "sum") || !strcmp(n, "avg"))
		return t != TYPE_FLOAT32 && t != TYPE_FLOAT64;
	return false;
}

/* a DICT vector over stored column c whose rows are perm[a .. a+n) */
static void
dict_over(WindowOp *w, int c, const uint32_t *perm, int64_t a, uint32_t n, Vector *d)
{
	memset(d, 0, sizeof *d);
	d->type = w->cols[c].type;
	d->kind = VECTOR_DICT;
	d->capacity = n;
	d->child = &w->cols[c];
	d->dict_sel = (uint32_t *)perm + a;
	d->arena = w->store;
}

/* add the rows at positions [a, b) of perm to one aggregate state
 * (argc, arg2c: the stored argument columns or -1; two-argument
 * aggregates such as string_agg(x, delimiter) go through update2) */
static int
agg_add(WindowOp *w, const WindowCall *call, int argc, int arg2c, const uint32_t *perm,
	int64_t a, int64_t b, void *state, void **states, FuncCtx *fctx)
{
	while (a < b) {
		uint32_t n = (uint32_t)(b - a > VECTOR_SIZE ? VECTOR_SIZE : b - a), j;
		Vector d, d2;

		for (j = 0; j < n; j++)
			states[j] = state;
		if (argc < 0) {
			TRY(call->agg->update(fctx, NULL, n, states));
		} else if (arg2c >= 0 && call->agg->update2) {
			dict_over(w, argc, perm, a, n, &d);
			dict_over(w, arg2c, perm, a, n, &d2);
			TRY(call->agg->update2(fctx, &d, &d2, n, states));
		} else {
			dict_over(w, argc, perm, a, n, &d);
			TRY(call->agg->update(fctx, &d, n, states));
		}
		a += n;
	}
	return FLOE_OK;
}

static int
compute_call(WindowOp *w, int ci, const uint32_t *perm, int64_t ps, int64_t pe,
	     const uint32_t *peer_start, const uint32_t *peer_end)
{
	const WindowCall *call = &w->calls[ci];
	Vector *res = &w->results[ci];
	floe_error *err = w->op.ctx->err;
	int64_t n = pe - ps, i, fs, fe, dense = 0;
	const Vector *arg = call->arg ? &w->cols[w->call_arg[ci]] : NULL;
	const Vector *arg2 = call->arg2 ? &w->cols[w->call_arg2[ci]] : NULL;
	const Vector *arg3 = call->arg3 ? &w->cols[w->call_arg3[ci]] : NULL;
	Value v;

	if (call->kind == WIN_AGG) {
		FuncCtx fctx = { w->store, err, w->op.ctx->env };
		void **states = w->states;
		void *state = w->call_state[ci];
		int argc = call->arg ? w->call_arg[ci] : -1;
		int arg2c = call->arg2 ? w->call_arg2[ci] : -1;

		if (call->frame.start == WB_UNBOUNDED_PRECEDING && !call->frame.exclude) {
			int64_t added = ps;
			call->agg->init(state);
			for (i = ps; i < pe; i++) {
				frame_of(w, call, perm, i, ps, pe, peer_start, peer_end, &fs, &fe);
				if (fe + 1 > added) {
					TRY(agg_add(w, call, argc, arg2c, perm, added, fe + 1, state, states, &fctx));
					added = fe + 1;
				}
				TRY(call->agg->finalize(&fctx, state, res, perm[i]));
			}
		} else if (call->frame.end == WB_UNBOUNDED_FOLLOWING && order_free(call) &&
			   !call->frame.exclude) {
			/* frame [fs, end]: backwards, fs never moves forward */
			int64_t added = pe;
			call->agg->init(state);
			for (i = pe - 1; i >= ps; i--) {
				frame_of(w, call, perm, i, ps, pe, peer_start, peer_end, &fs, &fe);
				if (fs < added) {
					TRY(agg_add(w, call, argc, arg2c, perm, fs, added, state, states, &fctx));
					added = fs;
				}
				TRY(call->agg->finalize(&fctx, state, res, perm[i]));
			}
		} else {
			for (i = ps; i < pe; i++) {
				int64_t seg[3][2];
				int nseg, k;
				frame_of(w, call, perm, i, ps, pe, peer_start, peer_end, &fs, &fe);
				nseg = frame_segs(call, i, fs, fe, peer_start, peer_end, seg);
				call->agg->init(state);
				for (k = 0; k < nseg; k++)
					TRY(agg_add(w, call, argc, arg2c, perm, seg[k][0], seg[k][1] + 1, state, states,
						    &fctx));
				TRY(call->agg->finalize(&fctx, state, res, perm[i]));
			}
		}
		return FLOE_OK;
	}
	for (i = ps; i < pe; i++) {
		uint32_t row = perm[i];
		int64_t r;

		if (i == ps || peer_start[i] == i)
			dense++;
		memset(&v, 0, sizeof v);
		v.type = call->type;
		switch (call->kind) {
		case WIN_ROW_NUMBER:
			v.u.i = i - ps + 1;
			break;
		case WIN_RANK:
			v.u.i = (int64_t)peer_start[i] - ps + 1;
			break;
		case WIN_DENSE_RANK:
			v.u.i = dense;
			break;
		case WIN_PERCENT_RANK:
			v.u.f = n > 1 ? (double)((int64_t)peer_start[i] - ps) / (double)(n - 1) : 0.0;
			break;
		case WIN_CUME_DIST:
			v.u.f = (double)((int64_t)peer_end[i] - ps) / (double)n;
			break;
		case WIN_NTILE: {
			int64_t k, q, rem, pos = i - ps;
			if (!int_at(arg, perm[ps], &k)) {
				v.is_null = true;
				break;
			}
			if (k <= 0) {
				floe_errorf(err, ERRCODE_INVALID_ARGUMENT_FOR_NTILE,
					    "argument of ntile must be greater than zero");
				return FLOE_ERR;
			}
			q = n / k;
			rem = n % k;
			if (pos < rem * (q + 1))
				v.u.i = pos / (q + 1) + 1;
			else
				v.u.i = rem + (pos - rem * (q + 1)) / q + 1;
			break;
		}
		case WIN_LAG:
		case WIN_LEAD: {
			int64_t off = 1, t;
			if (arg2 && !int_at(arg2, row, &off)) {
				vector_set_null(res, row);
				continue;
			}
			t = call->kind == WIN_LAG ? i - off : i + off;
			if (t >= ps && t < pe)
				copy_cell(res, row, arg, perm[t]);
			else if (arg3)
				copy_cell(res, row, arg3, row);
			else
				vector_set_null(res, row);
			continue;
		}
		case WIN_FIRST_VALUE:
		case WIN_LAST_VALUE:
		case WIN_NTH_VALUE: {
			int64_t seg[3][2];
			int nseg;
			frame_of(w, call, perm, i, ps, pe, peer_start, peer_end, &fs, &fe);
			nseg = frame_segs(call, i, fs, fe, peer_start, peer_end, seg);
			if (call->kind == WIN_FIRST_VALUE)
				r = seg_pick(seg, nseg, 0);
			else if (call->kind == WIN_LAST_VALUE)
				r = seg_pick(seg, nseg, -1);
			else {
				int64_t nth;
				if (!int_at(arg2, row, &nth)) {
					vector_set_null(res, row);
					continue;
				}
				if (nth <= 0) {
					floe_errorf(err, ERRCODE_INVALID_ARGUMENT_FOR_NTH_VALUE,
						    "argument of nth_value must be greater than zero");
					return FLOE_ERR;
				}
				r = seg_pick(seg, nseg, nth - 1);
			}
			if (r < 0)
				vector_set_null(res, row);
			else
				copy_cell(res, row, arg, perm[r]);
			continue;
		}
		default:
			break;
		}
		vector_set_value(res, row, &v);
	}
	return FLOE_OK;
}

static int
compute_spec(WindowOp *w, int s, uint32_t *perm)
{
	uint32_t n = w->nrows, i, ps = 0;
	uint32_t *peer_start = arena_alloc(w->store, sizeof(uint32_t) * (n ? n : 1));
	uint32_t *peer_end = arena_alloc(w->store, sizeof(uint32_t) * (n ? n : 1));
	SortCtx sc = { w, &w->specs[s], s };
	int c;

	w->grp = arena_alloc(w->store, sizeof(uint32_t) * (n ? n : 1));
	w->gpos = arena_alloc(w->store, sizeof(uint32_t) * (n ? n : 1));
	for (i = 0; i < n; i++)
		perm[i] = i;
	if (n > 1 && (w->specs[s].npart || w->specs[s].norder))
		qsort_r(perm, n, sizeof(uint32_t), perm_cmp, &sc);
	while (ps < n) {
		uint32_t pe = ps + 1, j, gs;

		TRY(exec_check_cancel(w->op.ctx));
		while (pe < n && part_cmp(w, s, perm[ps], perm[pe]) == 0)
			pe++;
		/* peer groups */
		gs = ps;
		for (j = ps; j < pe; j++) {
			if (j > ps && order_cmp(w, s, perm[j - 1], perm[j]) != 0) {
				uint32_t k;
				for (k = gs; k < j; k++)
					peer_end[k] = j;
				gs = j;
			}
			peer_start[j] = gs;
		}
		for (j = gs; j < pe; j++)
			peer_end[j] = pe;
		w->ngrp = 0;
		for (j = ps; j < pe; j++) {
			if (peer_start[j] == j)
				w->gpos[ps + w->ngrp++] = j;
			w->grp[j] = w->ngrp - 1;
		}
		for (c = 0; c < w->ncalls; c++)
			if (w->calls[c].spec == s)
				TRY(compute_call(w, c, perm, ps, pe, peer_start, peer_end));
		ps = pe;
	}
	return FLOE_OK;
}

static int
window_open(Operator *op)
{
	WindowOp *w = (WindowOp *)op;
	Batch *in;
	int c, s;

	w->nrows = w->cap = 0;
	w->emit_pos = 0;
	TRY(op_open(op->child));
	for (;;) {
		TRY(exec_check_cancel(op->ctx));
		arena_reset(op->scratch);
		TRY(op_next(op->child, &in));
		if (!in)
			break;
		if (in->count)
			TRY(append_batch(w, in));
		op_note_mem(op, (int64_t)arena_held(w->store) + (int64_t)arena_held(op->scratch));
		TRY(spill_guard(op->ctx, (int64_t)arena_held(w->store), "window function"));
	}
	grow(w, 1);
	arena_reset(op->scratch);
	w->results = ARENA_ARRAY(w->store, Vector, w->ncalls + 1);
	for (c = 0; c < w->ncalls; c++)
		vector_init(&w->results[c], w->calls[c].type, w->store, w->nrows ? w->nrows : 1);
	w->perm = arena_alloc(w->store, sizeof(uint32_t) * (w->nrows ? w->nrows : 1));
	for (s = 0; s < w->nspecs; s++)
		TRY(compute_spec(w, s, w->perm));
	if (!w->nspecs) {
		uint32_t i;
		for (i = 0; i < w->nrows; i++)
			w->perm[i] = i;
	}
	op_note_mem(op, (int64_t)arena_held(w->store) + (int64_t)arena_held(op->scratch));
	return FLOE_OK;
}

static int
window_next(Operator *op, Batch **out)
{
	WindowOp *w = (WindowOp *)op;
	uint32_t n;
	Batch *b;
	int c;

	arena_reset(op->scratch);
	if (w->emit_pos >= w->nrows) {
		*out = NULL;
		return FLOE_OK;
	}
	n = w->nrows - w->emit_pos < VECTOR_SIZE ? w->nrows - w->emit_pos : VECTOR_SIZE;
	b = batch_new(op->scratch, op->ncols, op->types, n);
	for (c = 0; c < w->nchild; c++)
		vector_copy_rows(&b->cols[c], 0, &w->cols[c], w->perm + w->emit_pos, n);
	for (c = 0; c < w->ncalls; c++)
		vector_copy_rows(&b->cols[w->nchild + c], 0, &w->results[c], w->perm + w->emit_pos, n);
	b->count = n;
	w->emit_pos += n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
window_close(Operator *op)
{
	WindowOp *w = (WindowOp *)op;

	op_close(op->child);
	w->nrows = w->cap = 0;
	w->cols = ARENA_ARRAY(op->ctx->arena, Vector, w->nwide + 1);
	if (w->store)
		arena_reset(w->store);
}

static const OperatorVT window_vt = { "WindowAgg", window_open, window_next, window_close };

static int
add_wide(WindowOp *w, Expr *e)
{
	if (!e)
		return -1;
	w->wide_expr[w->nwide] = e;
	w->wide_type[w->nwide] = e->type;
	return w->nwide++;
}

Operator *
window_new(ExecCtx *ctx, Operator *child, int nspecs, WindowSpec *specs, int ncalls,
	   WindowCall *calls)
{
	WindowOp *w = ARENA_NEW(ctx->arena, WindowOp);
	SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, child->ncols + ncalls + 1);
	int maxwide = child->ncols + 3 * ncalls + 1, c, s, k;

	for (s = 0; s < nspecs; s++)
		maxwide += specs[s].npart + specs[s].norder;
	memcpy(types, child->types, sizeof(SqlType) * (size_t)child->ncols);
	for (c = 0; c < ncalls; c++)
		types[child->ncols + c] = calls[c].type;
	op_init(&w->op, &window_vt, ctx, child->ncols + ncalls, types, child);
	w->nspecs = nspecs;
	w->specs = specs;
	w->ncalls = ncalls;
	w->calls = calls;
	w->nchild = child->ncols;
	w->wide_expr = ARENA_ARRAY(ctx->arena, Expr *, maxwide);
	w->wide_type = ARENA_ARRAY(ctx->arena, SqlType, maxwide);
	for (c = 0; c < child->ncols; c++)
		w->wide_type[c] = child->types[c];
	w->nwide = child->ncols;
	w->spec_part = ARENA_ARRAY(ctx->arena, int *, nspecs + 1);
	w->spec_order = ARENA_ARRAY(ctx->arena, int *, nspecs + 1);
	for (s = 0; s < nspecs; s++) {
		w->spec_part[s] = ARENA_ARRAY(ctx->arena, int, specs[s].npart + 1);
		w->spec_order[s] = ARENA_ARRAY(ctx->arena, int, specs[s].norder + 1);
		for (k = 0; k < specs[s].npart; k++)
			w->spec_part[s][k] = add_wide(w, specs[s].part[k]);
		for (k = 0; k < specs[s].norder; k++)
			w->spec_order[s][k] = add_wide(w, specs[s].order[k]);
	}
	w->call_arg = ARENA_ARRAY(ctx->arena, int, ncalls + 1);
	w->call_arg2 = ARENA_ARRAY(ctx->arena, int, ncalls + 1);
	w->call_arg3 = ARENA_ARRAY(ctx->arena, int, ncalls + 1);
	w->call_state = ARENA_ARRAY(ctx->arena, void *, ncalls + 1);
	w->states = ARENA_ARRAY(ctx->arena, void *, VECTOR_SIZE);
	for (c = 0; c < ncalls; c++) {
		w->call_arg[c] = add_wide(w, calls[c].arg);
		w->call_arg2[c] = add_wide(w, calls[c].arg2);
		w->call_arg3[c] = add_wide(w, calls[c].arg3);
		if (calls[c].agg)
			w->call_state[c] = arena_calloc(ctx->arena, calls[c].agg->state_size + 16);
	}
	w->cols = ARENA_ARRAY(ctx->arena, Vector, w->nwide + 1);
	w->store = arena_new(1 << 20);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, w->store);
	return &w->op;
}
