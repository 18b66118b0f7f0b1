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
 * Memory (work_mem, spill.h): the rows are collected in memory while they
 * fit (the path above).  Before the next growth would pass ctx->mem_limit
 * the operator spills (PostgreSQL's WindowAgg keeps only the current
 * partition): the collected rows, and then every further input row, are
 * written to a spill file as nsp = nwide + ncalls + 1 columns (the wide
 * columns, one result column per call, NULL until computed, and the input
 * position).  Then, per spec in order, a pass reads that file through the
 * external sort (sort.c, with half of work_mem) by (partition keys, order
 * keys, input position) — the order the in-memory permutation has — and
 * reads the sorted rows one partition at a time into the stored columns
 * (presorted: compute_spec does not sort again), computes that spec's
 * calls, and writes the rows with their results to the next pass's file;
 * the last spec's pass runs in next(), emitting each partition as it is
 * computed, so the output order is the same last-spec order.  The stored
 * partition is the one thing held whole: one partition above
 * SPILL_HARD_FACTOR times the limit (and above the default work_mem,
 * spill_guard) fails with 53200 ("work_mem exceeded by window partition")
 * instead of growing without bound; its frames are not read back from
 * disk.  What the operator holds (its arenas, spill buffers, and the most
 * its sort held) is EXPLAIN ANALYZE's Peak Memory.
 *
 * Spilled states: COLLECTING switches to SPILLED (rows to in_file); open
 * ends with passes 0..nspecs-2 written and the last pass's sort open;
 * EMITTING reads partitions from it.  Invariants: cols holds exactly one partition
 * (rows [0, nrows)) of spec `pass`, sorted; pend[pend_at..] are the
 * sorted rows after it.
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
	int ngrow;                 /* columns grow() keeps: nwide, or nsp spilled */
	const SqlType *grow_type;
	int row_width;             /* bytes per stored row (growth estimate) */
	/* spilled (see the header): rows as nsp columns (the wide columns,
	 * one per call result, the input position) in in_file; pass `pass`
	 * reads them through `sort` and holds one partition in cols */
	bool spilled;
	bool presorted;            /* cols hold one sorted partition */
	int nsp;
	SqlType *sp_type;
	SortKey **spec_keys;       /* [nspecs]: partition, order, position */
	int *spec_nkeys;
	int *emit_cols;            /* [op.ncols]: child columns, results */
	int *all_cols;             /* [nsp]: 0, 1, ... */
	SpillSet *ss;
	SpillFile *in_file, *out_file;
	int64_t next_pos;          /* input position of the next row */
	Operator *scan, *sort;     /* sort over a scan of in_file */
	OpInstr *sort_instr;       /* the sort's Peak Memory */
	bool sorting;              /* sort is open */
	int pass;
	Batch *pend;               /* sorted rows from pend_at on: not yet read */
	uint32_t pend_at;
	bool sort_end;
	Arena *outa;               /* rows gathered for out_file */
	Batch *obuf;
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
	/* a spilled partition starts small: many hold a few rows */
	uint32_t ncap = w->cap ? w->cap : w->presorted ? 64 : 2048;
	int c;

	if (need <= w->cap)
		return;
	while (ncap < need)
		ncap *= 2;
	for (c = 0; c < w->ngrow; c++) {
		Vector nv;
		vector_init(&nv, w->grow_type[c], w->store, ncap);
		if (w->nrows)
			vector_copy_rows(&nv, 0, &w->cols[c], NULL, w->nrows);
		w->cols[c] = nv;
	}
	w->cap = ncap;
}

/* long strings of dst's rows [from, to) copied into arena a */
static void
own_strings(Arena *a, Vector *dst, uint32_t from, uint32_t to)
{
	strview *sv = dst->data;
	uint32_t i;

	for (i = from; i < to; i++)
		if (vector_is_valid(dst, i) && sv[i].len > STRVIEW_INLINE)
			sv[i] = strview_make(arena_memdup(a, sv[i].u.ptr, sv[i].len), sv[i].len);
}

static int
append_batch(WindowOp *w, Batch *in)
{
	Operator *op = &w->op;
	uint32_t n = in->count;
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
		if (type_is_string(dst->type.id))
			own_strings(w->store, dst, w->nrows, w->nrows + n);
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
	if (n > 1 && (w->specs[s].npart || w->specs[s].norder) && !w->presorted)
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

/* Bytes the operator holds now, as malloc'd (the store, scratch arenas,
 * spill buffers, and the most its sort has held); noted as its peak. */
static int64_t
held_now(WindowOp *w)
{
	int64_t m = (int64_t)arena_held(w->store) + (int64_t)arena_held(w->op.scratch) +
		    (int64_t)arena_held(w->outa) + spill_set_held(w->ss);

	if (w->scan)
		m += (int64_t)arena_held(w->scan->scratch);
	if (w->sort_instr)
		m += w->sort_instr->peak_mem;
	op_note_mem(&w->op, m);
	return m;
}

/* the stored rows are gone: the store keeps at most a quarter of
 * work_mem of spare chunks */
static void
release_store(WindowOp *w)
{
	w->nrows = w->cap = 0;
	arena_reset(w->store);
	if ((int64_t)arena_held(w->store) > w->op.ctx->mem_limit / 4)
		arena_release(w->store);
}

static int
spill_start(WindowOp *w)
{
	ExecCtx *ctx = w->op.ctx;
	int c, s, k;

	if (!w->sp_type) {
		w->nsp = w->nwide + w->ncalls + 1;
		w->sp_type = ARENA_ARRAY(ctx->arena, SqlType, w->nsp);
		memcpy(w->sp_type, w->wide_type, sizeof(SqlType) * (size_t)w->nwide);
		for (c = 0; c < w->ncalls; c++)
			w->sp_type[w->nwide + c] = w->calls[c].type;
		w->sp_type[w->nsp - 1] = type_make(TYPE_INT64);
		w->spec_keys = ARENA_ARRAY(ctx->arena, SortKey *, w->nspecs);
		w->spec_nkeys = ARENA_ARRAY(ctx->arena, int, w->nspecs);
		for (s = 0; s < w->nspecs; s++) {
			const WindowSpec *sp = &w->specs[s];
			SortKey *keys = ARENA_ARRAY(ctx->arena, SortKey, sp->npart + sp->norder + 1);
			int nk = 0;
			/* partitions: ascending, NULLs last (part_cmp) */
			for (k = 0; k < sp->npart; k++)
				keys[nk++] = (SortKey){ w->spec_part[s][k], false, false };
			for (k = 0; k < sp->norder; k++)
				keys[nk++] = (SortKey){ w->spec_order[s][k], sp->dirs[k].desc,
							sp->dirs[k].nulls_first };
			keys[nk++] = (SortKey){ w->nsp - 1, false, false };
			w->spec_keys[s] = keys;
			w->spec_nkeys[s] = nk;
		}
		w->emit_cols = ARENA_ARRAY(ctx->arena, int, w->op.ncols);
		for (c = 0; c < w->nchild; c++)
			w->emit_cols[c] = c;
		for (c = 0; c < w->ncalls; c++)
			w->emit_cols[w->nchild + c] = w->nwide + c;
		w->all_cols = ARENA_ARRAY(ctx->arena, int, w->nsp);
		for (c = 0; c < w->nsp; c++)
			w->all_cols[c] = c;
		w->ss = spill_set_new(ctx);
		w->outa = arena_new(64 * 1024);
		arena_on_reset(ctx->arena, (void (*)(void *))arena_free, w->outa);
	}
	TRY(spill_file_new(w->ss, w->nsp, w->sp_type, &w->in_file));
	w->spilled = true;
	w->next_pos = 0;
	return FLOE_OK;
}

/* Write the collected rows to in_file (positions next_pos on, no results
 * yet) and drop them. */
static int
flush_input(WindowOp *w)
{
	Arena *a = w->op.scratch;
	uint32_t off, i;
	int c;

	if (!w->spilled)
		TRY(spill_start(w));
	for (off = 0; off < w->nrows; off += VECTOR_SIZE) {
		uint32_t n = w->nrows - off < VECTOR_SIZE ? w->nrows - off : VECTOR_SIZE;
		uint32_t *sel;
		int64_t *pos;
		Batch *b;

		TRY(exec_check_cancel(w->op.ctx));
		arena_reset(a);
		sel = arena_alloc(a, sizeof(uint32_t) * n);
		for (i = 0; i < n; i++)
			sel[i] = off + i;
		b = batch_new(a, w->nsp, w->sp_type, n);
		for (c = 0; c < w->nwide; c++)
			vector_copy_rows(&b->cols[c], 0, &w->cols[c], sel, n);
		for (c = w->nwide; c < w->nsp - 1; c++)
			for (i = 0; i < n; i++)
				vector_set_null(&b->cols[c], i);
		pos = b->cols[w->nsp - 1].data;
		for (i = 0; i < n; i++)
			pos[i] = w->next_pos++;
		b->count = n;
		TRY(spill_write(w->in_file, b, NULL, n));
		held_now(w);
	}
	arena_reset(a);
	release_store(w);
	held_now(w);
	return FLOE_OK;
}

/* rows a and b of one partition's key columns compare equal? */
static inline uint32_t
b_row(const Batch *b, uint32_t i)
{
	return b->sel ? b->sel[i] : i;
}

static int
key_cmp2(const Vector *va, uint32_t a, const Vector *vb, uint32_t b)
{
	bool na = !validity_get(va->validity, a), nb = !validity_get(vb->validity, b);

	if (na || nb)
		return na && nb ? 0 : 1;
	return sort_compare_values((const char *)va->data + type_width(va->type.id) * a,
				   (const char *)vb->data + type_width(vb->type.id) * b, va->type);
}

/* Are batch rows r1 (of b1: a batch, or NULL for the stored row 0) and r2
 * of b2 in one partition of spec s? */
static bool
same_part(WindowOp *w, int s, const Batch *b1, uint32_t r1, const Batch *b2, uint32_t r2)
{
	int k;

	for (k = 0; k < w->specs[s].npart; k++) {
		int c = w->spec_part[s][k];
		const Vector *v1 = b1 ? &b1->cols[c] : &w->cols[c];
		if (key_cmp2(v1, r1, &b2->cols[c], r2))
			return false;
	}
	return true;
}

/* append rows [at, at + n) of a sorted batch (all nsp columns) */
static void
append_sorted(WindowOp *w, const Batch *b, uint32_t at, uint32_t n)
{
	uint32_t *sel = arena_alloc(w->op.scratch, sizeof(uint32_t) * n), i;
	int c;

	for (i = 0; i < n; i++)
		sel[i] = b->sel ? b->sel[at + i] : at + i;
	grow(w, w->nrows + n);
	for (c = 0; c < w->nsp; c++) {
		vector_copy_rows(&w->cols[c], w->nrows, &b->cols[c], sel, n);
		if (type_is_string(w->cols[c].type.id))
			own_strings(w->store, &w->cols[c], w->nrows, w->nrows + n);
	}
	w->nrows += n;
}

/* Read the next partition of the pass's sorted rows into cols and
 * compute its calls of spec `pass`; *got false at the end. */
static int
next_partition(WindowOp *w, bool *got)
{
	int s = w->pass;

	release_store(w);
	for (;;) {
		uint32_t at, e, cnt;

		if (!w->pend || w->pend_at >= w->pend->count) {
			if (w->sort_end)
				break;
			TRY(op_next(w->sort, &w->pend));
			w->pend_at = 0;
			if (!w->pend)
				w->sort_end = true;
			continue;
		}
		at = w->pend_at;
		cnt = w->pend->count;
		if (w->nrows && !same_part(w, s, NULL, 0, w->pend, b_row(w->pend, at)))
			break;
		for (e = at + 1; e < cnt && same_part(w, s, w->pend, b_row(w->pend, at), w->pend,
						      b_row(w->pend, e)); e++)
			;
		append_sorted(w, w->pend, at, e - at);
		w->pend_at = e;
		held_now(w);
		TRY(spill_guard(w->op.ctx, (int64_t)arena_held(w->store), "window partition"));
		if (e < cnt)
			break;
	}
	*got = w->nrows > 0;
	if (*got) {
		w->perm = arena_alloc(w->store, sizeof(uint32_t) * w->nrows);
		TRY(compute_spec(w, s, w->perm));
	}
	held_now(w);
	return FLOE_OK;
}

/* rows perm[from .. from + n) of columns cols[0..ncols) appended to b,
 * long strings copied into a */
static void
copy_out(WindowOp *w, Batch *b, const int *cols, int ncols, Arena *a, uint32_t from, uint32_t n)
{
	int c;

	for (c = 0; c < ncols; c++) {
		Vector *dst = &b->cols[c];
		vector_copy_rows(dst, b->count, &w->cols[cols[c]], w->perm + from, n);
		if (type_is_string(dst->type.id))
			own_strings(a, dst, b->count, b->count + n);
	}
	b->count += n;
}

static int
pass_open(WindowOp *w, int s)
{
	sort_set_keys(w->sort, w->spec_nkeys[s], w->spec_keys[s]);
	spill_scan_set(w->scan, w->in_file);
	w->pass = s;
	w->pend = NULL;
	w->pend_at = 0;
	w->sort_end = false;
	w->sorting = true;
	TRY(op_open(w->sort));
	held_now(w);
	return FLOE_OK;
}

static void
pass_close(WindowOp *w)
{
	if (w->sorting)
		op_close(w->sort);
	w->sorting = false;
	w->pend = NULL;
	if (w->in_file)
		spill_file_close(w->in_file);
	w->in_file = NULL;
}

/* The spilled input: every spec but the last sorts the rows by its keys,
 * computes its calls a partition at a time and writes the rows to the
 * next file; the last spec's pass is left open for next(). */
static int
spill_passes(WindowOp *w)
{
	ExecCtx *ctx = w->op.ctx;
	int s;

	if (!w->sort) {
		/* the sort gets half of work_mem, the partition the rest */
		ExecCtx *sctx = ARENA_NEW(ctx->arena, ExecCtx);
		*sctx = *ctx;
		sctx->mem_limit = ctx->mem_limit / 2;
		w->scan = spill_scan_new(sctx, w->nsp, w->sp_type, NULL);
		w->sort = sort_new(sctx, w->scan, w->spec_nkeys[0], w->spec_keys[0]);
		w->sort_instr = ARENA_NEW(ctx->arena, OpInstr);
		w->sort->instr = w->sort_instr;
	}
	w->ngrow = w->nsp;
	w->grow_type = w->sp_type;
	w->results = w->cols + w->nwide;
	w->presorted = true;
	for (s = 0; s < w->nspecs; s++) {
		TRY(pass_open(w, s));
		if (s == w->nspecs - 1)
			break;
		TRY(spill_file_new(w->ss, w->nsp, w->sp_type, &w->out_file));
		arena_reset(w->outa);
		w->obuf = batch_new(w->outa, w->nsp, w->sp_type, VECTOR_SIZE);
		w->obuf->count = 0;
		for (;;) {
			uint32_t off = 0, n;
			bool got;

			arena_reset(w->op.scratch);
			TRY(next_partition(w, &got));
			if (!got)
				break;
			while (off < w->nrows) {
				n = VECTOR_SIZE - w->obuf->count;
				if (n > w->nrows - off)
					n = w->nrows - off;
				copy_out(w, w->obuf, w->all_cols, w->nsp, w->outa, off, n);
				off += n;
				if (w->obuf->count == VECTOR_SIZE) {
					TRY(spill_write(w->out_file, w->obuf, NULL, w->obuf->count));
					arena_reset(w->outa);
					w->obuf = batch_new(w->outa, w->nsp, w->sp_type, VECTOR_SIZE);
					w->obuf->count = 0;
				}
			}
		}
		if (w->obuf->count)
			TRY(spill_write(w->out_file, w->obuf, NULL, w->obuf->count));
		arena_reset(w->outa);
		w->obuf = NULL;
		pass_close(w);
		w->in_file = w->out_file;
		w->out_file = NULL;
	}
	release_store(w);
	w->emit_pos = 0;
	arena_reset(w->op.scratch);
	held_now(w);
	return FLOE_OK;
}

/* back to the in-memory state (a new loop, close) */
static void
spill_reset(WindowOp *w)
{
	pass_close(w);
	if (w->ss)
		spill_set_close(w->ss);
	w->out_file = NULL;
	w->spilled = w->presorted = false;
	w->ngrow = w->nwide;
	w->grow_type = w->wide_type;
}

static int
window_open(Operator *op)
{
	WindowOp *w = (WindowOp *)op;
	Batch *in;
	int c, s;

	spill_reset(w);
	w->nrows = w->cap = 0;
	w->emit_pos = 0;
	if (!w->row_width) {
		w->row_width = 1;
		for (c = 0; c < w->nwide; c++)
			w->row_width += (int)type_width(w->wide_type[c].id) + 1;
	}
	TRY(op_open(op->child));
	for (;;) {
		TRY(exec_check_cancel(op->ctx));
		arena_reset(op->scratch);
		TRY(op_next(op->child, &in));
		if (!in)
			break;
		if (!in->count)
			continue;
		/* spill before the next growth (all columns doubled) would pass
		 * work_mem */
		if (w->nspecs && w->nrows && w->nrows + in->count > w->cap &&
		    spill_over(op->ctx, held_now(w) + (int64_t)w->row_width * 2 * w->cap))
			TRY(flush_input(w));
		TRY(append_batch(w, in));
		if (w->nspecs && (spill_over(op->ctx, held_now(w))))
			TRY(flush_input(w));
		else
			TRY(spill_guard(op->ctx, held_now(w), "window function"));
	}
	if (w->spilled) {
		TRY(flush_input(w));
		return spill_passes(w);
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
	held_now(w);
	return FLOE_OK;
}

/* next() of the spilled operator: the last pass's partitions, in order */
static int
spill_next(WindowOp *w, Batch **out)
{
	Operator *op = &w->op;
	Batch *b = batch_new(op->scratch, op->ncols, op->types, VECTOR_SIZE);

	b->count = 0;
	while (b->count < VECTOR_SIZE) {
		uint32_t n;
		if (w->emit_pos >= w->nrows) {
			bool got;
			TRY(exec_check_cancel(op->ctx));
			TRY(next_partition(w, &got));
			w->emit_pos = 0;
			if (!got)
				break;
			continue;
		}
		n = VECTOR_SIZE - b->count;
		if (n > w->nrows - w->emit_pos)
			n = w->nrows - w->emit_pos;
		copy_out(w, b, w->emit_cols, op->ncols, op->scratch, w->emit_pos, n);
		w->emit_pos += n;
	}
	op->rows_out += b->count;
	*out = b->count ? b : NULL;
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
	if (w->spilled)
		return spill_next(w, out);
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

	spill_reset(w);
	op_close(op->child);
	w->nrows = w->cap = 0;
	w->cols = ARENA_ARRAY(op->ctx->arena, Vector, w->nwide + w->ncalls + 2);
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
	w->cols = ARENA_ARRAY(ctx->arena, Vector, w->nwide + ncalls + 2);
	w->ngrow = w->nwide;
	w->grow_type = w->wide_type;
	/* chunks of at most 1/16 of a small work_mem */
	w->store = arena_new(ctx->mem_limit > 0 && ctx->mem_limit / 16 < (1 << 20) ?
			     (size_t)(ctx->mem_limit / 16) : (size_t)1 << 20);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, w->store);
	return &w->op;
}
