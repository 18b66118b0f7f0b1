/*
 * test_spill.c — spill.c's batch files (round trips of every type with
 * NULLs, long strings, numeric display scales, selections, CONST and DICT
 * vectors), work_mem parsing (PostgreSQL's units: SHOW work_mem after SET
 * on PostgreSQL 15 gives the kB value checked here), and the spill
 * folder's lifetime around a spilling sort: empty after the query, after
 * an error and after a cancel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exec/exec.h"
#include "exec/spill.h"
#include "func/func.h"

static char T_dir[256];
static Arena *T_arena;
static floe_error T_err;
static volatile int T_cancel;
static ExecCtx T_ctx;

static int
t_setup(void **state)
{
	(void)state;
	snprintf(T_dir, sizeof T_dir, "/tmp/floe-test-spill-XXXXXX");
	assert_non_null(mkdtemp(T_dir));
	setenv("FLOE_SPILL_DIR", T_dir, 1);
	setenv("FLOE_SPILL_HARD_MIN", "0", 1);   /* 53200 at 10x work_mem */
	T_arena = arena_new(1 << 16);
	floe_error_clear(&T_err);
	T_cancel = 0;
	memset(&T_ctx, 0, sizeof T_ctx);
	T_ctx.arena = T_arena;
	T_ctx.err = &T_err;
	T_ctx.cancel = &T_cancel;
	return 0;
}

/* entries in the spill base folder */
static int
dir_entries(void)
{
	DIR *d = opendir(T_dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static int
t_teardown(void **state)
{
	(void)state;
	arena_free(T_arena);
	assert_int_equal(dir_entries(), 0);
	rmdir(T_dir);
	return 0;
}

static void
test_spill__mem_limit(void **state)
{
	int64_t d = exec_mem_limit(NULL);
	(void)state;
	assert_true(d >= 64LL << 20 && d <= 1LL << 30);
	assert_int_equal(exec_mem_limit("64kB"), 64 * 1024);
	assert_int_equal(exec_mem_limit("4MB"), 4 << 20);
	assert_int_equal(exec_mem_limit("1GB"), 1 << 30);
	assert_int_equal(exec_mem_limit("100"), 100 * 1024);          /* bare = kB */
	assert_int_equal(exec_mem_limit(" 2 MB "), 2 << 20);
	assert_int_equal(exec_mem_limit("1.5MB"), 1536 * 1024);       /* PG: 1536kB */
	assert_int_equal(exec_mem_limit("131072B"), 128 * 1024);
	assert_int_equal(exec_mem_limit("10"), 64 * 1024);            /* PG's minimum */
	assert_int_equal(exec_mem_limit("mb"), d);                    /* not a value */
	assert_int_equal(exec_mem_limit("4mb"), d);                   /* units are case-sensitive */
	assert_int_equal(exec_mem_limit("3 parsecs"), d);
}

/* a batch of every type, rows with NULLs and long strings */
#define NT 15
static const TypeId ids[NT] = {
	TYPE_BOOL, TYPE_INT16, TYPE_INT32, TYPE_INT64, TYPE_FLOAT32, TYPE_FLOAT64, TYPE_DECIMAL,
	TYPE_TEXT, TYPE_BYTEA, TYPE_DATE, TYPE_TIME, TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ,
	TYPE_INTERVAL, TYPE_UUID
};

static SqlType *
all_types(void)
{
	SqlType *t = arena_alloc(T_arena, sizeof(SqlType) * (NT + 1));
	int c;

	for (c = 0; c < NT; c++)
		t[c] = type_make(ids[c]);
	t[6] = type_decimal(0, NUMERIC_DEFAULT_SCALE);   /* unconstrained: per-row dscale */
	t[NT] = type_decimal(12, 3);
	return t;
}

static Batch *
make_batch(SqlType *types, uint32_t n)
{
	Batch *b = batch_new(T_arena, NT + 1, types, n);
	uint32_t i;
	int c;

	for (i = 0; i < n; i++) {
		for (c = 0; c < NT + 1; c++) {
			Vector *v = &b->cols[c];
			char buf[64];
			if ((i + (uint32_t)c) % 7 == 3) {
				vector_set_null(v, i);
				continue;
			}
			switch (v->type.id) {
			case TYPE_BOOL: ((uint8_t *)v->data)[i] = i & 1; break;
			case TYPE_INT16: ((int16_t *)v->data)[i] = (int16_t)(i * 3 - 100); break;
			case TYPE_INT32: case TYPE_DATE: ((int32_t *)v->data)[i] = (int32_t)(i * 1000003u); break;
			case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
				((int64_t *)v->data)[i] = (int64_t)i * -123456789LL;
				break;
			case TYPE_FLOAT32: ((float *)v->data)[i] = (float)i / 3; break;
			case TYPE_FLOAT64: ((double *)v->data)[i] = i == 5 ? -0.0 : (double)i / 7; break;
			case TYPE_DECIMAL:
				((int128 *)v->data)[i] = (int128)i * 10000000000LL * 1000000000LL;
				if (v->type.precision == 0) {
					vector_ensure_dscale(v);
					v->dscale[i] = (uint8_t)(i % 11);
				}
				break;
			case TYPE_TEXT: case TYPE_BYTEA:
				snprintf(buf, sizeof buf, "%s%u", i % 2 ? "a long string past inline " : "s", i);
				vector_set_string(v, i, buf, (uint32_t)strlen(buf));
				break;
			case TYPE_INTERVAL: {
				Interval iv = { (int32_t)i, -(int32_t)i, (int64_t)i * 7 };
				((Interval *)v->data)[i] = iv;
				break;
			}
			case TYPE_UUID: memset((char *)v->data + 16 * i, (int)i, 16); break;
			default: break;
			}
		}
	}
	b->count = n;
	return b;
}

/* row r of a equals row s of b in every column (value, NULL, display scale) */
static void
assert_row_eq(const Batch *a, uint32_t r, const Batch *b, uint32_t s)
{
	int c;

	for (c = 0; c < a->ncols; c++) {
		const Vector *x = &a->cols[c], *y = &b->cols[c];
		size_t w = type_width(x->type.id);
		VectorView vx, vy;
		uint32_t kx, ky;
		vector_view(x, &vx);
		vector_view(y, &vy);
		kx = vx.sel ? vx.sel[r] : r;
		ky = vy.sel ? vy.sel[s] : s;
		assert_int_equal(validity_get(vx.validity, kx), validity_get(vy.validity, ky));
		if (!validity_get(vx.validity, kx))
			continue;
		if (type_is_string(x->type.id)) {
			const strview *p = (const strview *)vx.data + kx, *q = (const strview *)vy.data + ky;
			assert_int_equal(p->len, q->len);
			assert_memory_equal(strview_data(p), strview_data(q), p->len);
		} else {
			assert_memory_equal((const char *)vx.data + w * kx, (const char *)vy.data + w * ky, w);
		}
		assert_int_equal(vector_row_dscale(x, r), vector_row_dscale(y, s));
	}
}

static void
test_spill__roundtrip_every_type(void **state)
{
	SqlType *types = all_types();
	SpillSet *ss = spill_set_new(&T_ctx);
	SpillFile *f;
	Batch *b = make_batch(types, 3000), *r;
	uint32_t rows[5] = { 2999, 0, 3, 1000, 17 }, sel[4] = { 5, 4, 1, 2 }, i, total = 0;
	Arena *ra = arena_new(1 << 16);
	int64_t nf0, nb0, nf1, nb1;

	(void)state;
	spill_stats(&nf0, &nb0);
	assert_int_equal(spill_file_new(ss, NT + 1, types, &f), FLOE_OK);
	assert_int_equal(dir_entries(), 1);            /* the folder; files are unlinked */
	assert_int_equal(spill_write(f, b, NULL, b->count), FLOE_OK);
	assert_int_equal(spill_write(f, b, rows, 5), FLOE_OK);
	/* a selection: logical rows of the selected batch */
	b->sel = sel;
	b->count = 4;
	assert_int_equal(spill_write(f, b, NULL, 4), FLOE_OK);
	b->sel = NULL;
	b->count = 3000;
	assert_int_equal(spill_file_rows(f), 3009);
	assert_int_equal(spill_rewind(f), FLOE_OK);

	assert_int_equal(spill_read(f, ra, &r), FLOE_OK);
	assert_non_null(r);
	assert_int_equal(r->count, 3000);
	for (i = 0; i < 3000; i++)
		assert_row_eq(b, i, r, i);
	total += r->count;
	assert_int_equal(spill_read(f, ra, &r), FLOE_OK);
	assert_int_equal(r->count, 5);
	for (i = 0; i < 5; i++)
		assert_row_eq(b, rows[i], r, i);
	assert_int_equal(spill_read(f, ra, &r), FLOE_OK);
	assert_int_equal(r->count, 4);
	for (i = 0; i < 4; i++)
		assert_row_eq(b, sel[i], r, i);
	assert_int_equal(spill_read(f, ra, &r), FLOE_OK);
	assert_null(r);
	/* read again from the start */
	assert_int_equal(spill_rewind(f), FLOE_OK);
	assert_int_equal(spill_read(f, ra, &r), FLOE_OK);
	assert_int_equal(r->count, 3000);
	assert_row_eq(b, 2999, r, 2999);
	(void)total;
	spill_stats(&nf1, &nb1);
	assert_int_equal(nf1 - nf0, 1);
	assert_true(nb1 - nb0 > 3009 * 16);
	spill_set_close(ss);
	assert_int_equal(dir_entries(), 0);
	arena_free(ra);
}

/* CONST and DICT vectors are written as their rows */
static void
test_spill__const_dict(void **state)
{
	SqlType t[2] = { type_make(TYPE_TEXT), type_make(TYPE_INT64) };
	SpillSet *ss = spill_set_new(&T_ctx);
	SpillFile *f;
	Batch *b = batch_new(T_arena, 2, t, 4), *r;
	Vector child;
	Value cv = value_int(TYPE_INT64, 42);
	uint32_t i;
	const char *words[3] = { "x", "yyyyyyyyyyyyyyyyyyyyyyyy", "z" };

	(void)state;
	vector_init(&child, t[0], T_arena, 3);
	for (i = 0; i < 3; i++)
		vector_set_string(&child, i, words[i], (uint32_t)strlen(words[i]));
	b->cols[0].kind = VECTOR_DICT;
	b->cols[0].child = &child;
	b->cols[0].dict_sel = arena_alloc(T_arena, sizeof(uint32_t) * 4);
	b->cols[0].dict_sel[0] = 1;
	b->cols[0].dict_sel[1] = 1;
	b->cols[0].dict_sel[2] = 0;
	b->cols[0].dict_sel[3] = 2;
	vector_init_const(&b->cols[1], &cv, T_arena);
	b->count = 4;
	assert_int_equal(spill_file_new(ss, 2, t, &f), FLOE_OK);
	assert_int_equal(spill_write(f, b, NULL, 4), FLOE_OK);
	assert_int_equal(spill_read(f, T_arena, &r), FLOE_OK);
	assert_int_equal(r->count, 4);
	assert_int_equal(r->cols[0].kind, VECTOR_FLAT);
	for (i = 0; i < 4; i++) {
		const strview *s = (const strview *)r->cols[0].data + i;
		const char *w = words[b->cols[0].dict_sel[i]];
		assert_int_equal(s->len, strlen(w));
		assert_memory_equal(strview_data(s), w, s->len);
		assert_int_equal(((int64_t *)r->cols[1].data)[i], 42);
	}
	assert_int_equal(spill_read(f, T_arena, &r), FLOE_OK);
	assert_null(r);
}

/* ---- a spilling sort ------------------------------------------------------ */

/* A child producing n int64 rows (i * 7919 mod n, i) in batches; sets the
 * cancel flag after cancel_after batches (0: never). */
typedef struct GenOp {
	Operator op;
	int64_t n, pos;
	int batches, cancel_after;
} GenOp;

static int
gen_open(Operator *op)
{
	((GenOp *)op)->pos = 0;
	((GenOp *)op)->batches = 0;
	return FLOE_OK;
}

static int
gen_next(Operator *op, Batch **out)
{
	GenOp *g = (GenOp *)op;
	uint32_t m, i;
	Batch *b;

	arena_reset(op->scratch);
	if (g->pos >= g->n) {
		*out = NULL;
		return FLOE_OK;
	}
	if (g->cancel_after && ++g->batches > g->cancel_after)
		*op->ctx->cancel = 1;
	m = (uint32_t)(g->n - g->pos < VECTOR_SIZE ? g->n - g->pos : VECTOR_SIZE);
	b = batch_new(op->scratch, 2, op->types, m);
	for (i = 0; i < m; i++) {
		int64_t x = g->pos + i;
		((int64_t *)b->cols[0].data)[i] = (x * 7919) % g->n / 3;
		((int64_t *)b->cols[1].data)[i] = x;
	}
	b->count = m;
	g->pos += m;
	*out = b;
	return FLOE_OK;
}

static void
gen_close(Operator *op)
{
	(void)op;
}

static const OperatorVT gen_vt = { "Gen", gen_open, gen_next, gen_close };

static Operator *
gen_new(int64_t n, int cancel_after)
{
	GenOp *g = ARENA_NEW(T_arena, GenOp);
	SqlType t[2] = { type_make(TYPE_INT64), type_make(TYPE_INT64) };

	op_init(&g->op, &gen_vt, &T_ctx, 2, t, NULL);
	g->n = n;
	g->cancel_after = cancel_after;
	return &g->op;
}

static void
test_spill__sort_spills_stable(void **state)
{
	SortKey k = { 0, true, false };
	Operator *s;
	Batch *b;
	int64_t n = 100000, seen = 0, prev_k = INT64_MAX, prev_i = -1, nb0, nb1;

	(void)state;
	T_ctx.mem_limit = 64 * 1024;
	s = sort_new(&T_ctx, gen_new(n, 0), 1, &k);
	spill_stats(NULL, &nb0);
	assert_int_equal(op_open(s), FLOE_OK);
	for (;;) {
		uint32_t i;
		assert_int_equal(op_next(s, &b), FLOE_OK);
		if (!b)
			break;
		for (i = 0; i < b->count; i++) {
			int64_t kk = ((int64_t *)b->cols[0].data)[i], ii = ((int64_t *)b->cols[1].data)[i];
			assert_true(kk <= prev_k);
			if (kk == prev_k)
				assert_true(ii > prev_i);   /* ties keep input order */
			prev_k = kk;
			prev_i = ii;
			seen++;
		}
	}
	assert_int_equal(seen, n);
	spill_stats(NULL, &nb1);
	assert_true(nb1 - nb0 > n * 16);           /* it did spill (runs and merges) */
	op_close(s);
	assert_int_equal(dir_entries(), 0);
}

static void
test_spill__sort_cancel_cleans(void **state)
{
	SortKey k = { 0, false, false };
	Operator *s;

	(void)state;
	T_ctx.mem_limit = 64 * 1024;
	s = sort_new(&T_ctx, gen_new(100000, 30), 1, &k);
	assert_int_equal(op_open(s), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "57014");
	assert_int_equal(dir_entries(), 1);         /* until the statement ends */
	/* the statement's end (t_teardown frees the arena) removes it;
	 * an error path that closes the plan removes it at once */
	op_close(s);
	assert_int_equal(dir_entries(), 0);
}

static void
test_spill__unwritable_dir_is_an_error(void **state)
{
	SortKey k = { 0, false, false };
	Operator *s;

	(void)state;
	setenv("FLOE_SPILL_DIR", "/nonexistent/floe", 1);
	T_ctx.mem_limit = 64 * 1024;
	s = sort_new(&T_ctx, gen_new(50000, 0), 1, &k);
	assert_int_equal(op_open(s), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "58030");
	op_close(s);
	setenv("FLOE_SPILL_DIR", T_dir, 1);
}

/* GROUP BY col0 with count(*) and sum(col1): 33334 groups at 64kB */
static void
test_spill__hash_agg_spills(void **state)
{
	int64_t n = 100000, groups = 0, rows = 0, total = 0, nb0, nb1;
	Expr *key = expr_colref(T_arena, 0, type_make(TYPE_INT64));
	AggCall *aggs = ARENA_ARRAY(T_arena, AggCall, 2);
	SqlType it = type_make(TYPE_INT64), cast;
	Operator *h;
	Batch *b;

	(void)state;
	assert_int_equal(func_resolve_agg("count", NULL, 0, true, &aggs[0].fn, &aggs[0].type, &cast,
					  &T_err), FLOE_OK);
	assert_int_equal(func_resolve_agg("sum", &it, 1, false, &aggs[1].fn, &aggs[1].type, &cast,
					  &T_err), FLOE_OK);
	aggs[1].arg = expr_colref(T_arena, 1, it);
	T_ctx.mem_limit = 64 * 1024;
	h = hash_agg_new(&T_ctx, gen_new(n, 0), 1, &key, 2, aggs, false);
	spill_stats(NULL, &nb0);
	assert_int_equal(op_open(h), FLOE_OK);
	for (;;) {
		uint32_t i;
		assert_int_equal(op_next(h, &b), FLOE_OK);
		if (!b)
			break;
		for (i = 0; i < b->count; i++) {
			Value c, sm;
			vector_get_value(&b->cols[1], i, &c);
			vector_get_value(&b->cols[2], i, &sm);
			rows += c.u.i;
			total += (int64_t)sm.u.d;
			groups++;
		}
	}
	assert_int_equal(groups, (n + 2) / 3);
	assert_int_equal(rows, n);
	assert_int_equal(total, n * (n - 1) / 2);
	spill_stats(NULL, &nb1);
	assert_true(nb1 - nb0 > n * 8);
	op_close(h);
	assert_int_equal(dir_entries(), 0);
}

/* FULL JOIN on col0 = col0: each key has 3 rows a side (the last 1) */
static void
test_spill__hash_join_spills_and_cancels(void **state)
{
	int64_t n = 100000, pairs = 0, expect = (n / 3) * 9 + (n % 3) * (n % 3), nb0, nb1;
	Expr *lk = expr_colref(T_arena, 0, type_make(TYPE_INT64));
	Expr *rk = expr_colref(T_arena, 0, type_make(TYPE_INT64));
	Operator *j;
	Batch *b;

	(void)state;
	T_ctx.mem_limit = 64 * 1024;
	j = hash_join_new(&T_ctx, gen_new(n, 0), gen_new(n, 0), JOIN_FULL, 1, &lk, &rk, NULL, false);
	spill_stats(NULL, &nb0);
	assert_int_equal(op_open(j), FLOE_OK);
	for (;;) {
		assert_int_equal(op_next(j, &b), FLOE_OK);
		if (!b)
			break;
		pairs += b->count;
	}
	assert_int_equal(pairs, expect);
	spill_stats(NULL, &nb1);
	assert_true(nb1 - nb0 > n * 16);
	op_close(j);
	assert_int_equal(dir_entries(), 0);

	/* cancelled while partitioning the probe side */
	j = hash_join_new(&T_ctx, gen_new(n, 30), gen_new(n, 0), JOIN_INNER, 1, &lk, &rk, NULL, false);
	assert_int_equal(op_open(j), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "57014");
	op_close(j);
	assert_int_equal(dir_entries(), 0);
}

/* a join without keys cannot spill: 53200 past 10x work_mem */
static void
test_spill__nested_loop_limit(void **state)
{
	Operator *j;

	(void)state;
	T_ctx.mem_limit = 64 * 1024;
	j = hash_join_new(&T_ctx, gen_new(10, 0), gen_new(100000, 0), JOIN_INNER, 0, NULL, NULL, NULL,
			  false);
	assert_int_equal(op_open(j), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "53200");
	assert_non_null(strstr(T_err.message, "work_mem exceeded by nested loop join"));
	op_close(j);
}

/* window functions spill: above work_mem the rows go through the external
 * sort and are computed one partition at a time (here ~33k partitions of
 * about 3 rows), in the spec's order, with the right row numbers */
static void
test_spill__window_spills(void **state)
{
	SqlType it = type_make(TYPE_INT64);
	Expr *part = expr_colref(T_arena, 0, it), *ord = expr_colref(T_arena, 1, it);
	SortKey dir = { 0, false, false };
	WindowSpec spec;
	WindowCall call;
	Operator *w;
	Batch *b;
	int64_t n = 100000, seen = 0, prev_k = -1, prev_i = -1, rn = 0, nb0, nb1;

	(void)state;
	memset(&spec, 0, sizeof spec);
	memset(&call, 0, sizeof call);
	spec.npart = 1;
	spec.part = &part;
	spec.norder = 1;
	spec.order = &ord;
	spec.dirs = &dir;
	call.kind = WIN_ROW_NUMBER;
	call.type = it;
	call.frame.start = WB_UNBOUNDED_PRECEDING;
	call.frame.end = WB_CURRENT;
	T_ctx.mem_limit = 64 * 1024;
	spill_stats(NULL, &nb0);
	w = window_new(&T_ctx, gen_new(n, 0), 1, &spec, 1, &call);
	assert_int_equal(op_open(w), FLOE_OK);
	for (;;) {
		uint32_t i;
		assert_int_equal(op_next(w, &b), FLOE_OK);
		if (!b)
			break;
		assert_int_equal(b->ncols, 3);
		for (i = 0; i < b->count; i++) {
			int64_t k = ((int64_t *)b->cols[0].data)[i], x = ((int64_t *)b->cols[1].data)[i];
			int64_t r = ((int64_t *)b->cols[2].data)[i];
			assert_true(k > prev_k || (k == prev_k && x > prev_i));
			rn = k == prev_k ? rn + 1 : 1;
			assert_int_equal(r, rn);
			prev_k = k;
			prev_i = x;
			seen++;
		}
	}
	assert_int_equal(seen, n);
	spill_stats(NULL, &nb1);
	assert_true(nb1 - nb0 > n * 16);
	op_close(w);
	assert_int_equal(dir_entries(), 0);
}

/* one partition above 10x work_mem (and past the default work_mem, which
 * FLOE_SPILL_HARD_MIN lowers here) is held in memory: 53200 naming it */
static void
test_spill__window_limit(void **state)
{
	WindowSpec spec;
	WindowCall call;
	Operator *w;

	(void)state;
	memset(&spec, 0, sizeof spec);
	memset(&call, 0, sizeof call);
	call.kind = WIN_ROW_NUMBER;
	call.type = type_make(TYPE_INT64);
	call.frame.start = WB_UNBOUNDED_PRECEDING;
	call.frame.end = WB_CURRENT;
	T_ctx.mem_limit = 64 * 1024;
	w = window_new(&T_ctx, gen_new(100000, 0), 1, &spec, 1, &call);
	assert_int_equal(op_open(w), FLOE_OK);
	assert_int_equal(op_next(w, &(Batch *){ NULL }), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "53200");
	assert_non_null(strstr(T_err.message, "work_mem exceeded by window partition"));
	op_close(w);
	assert_int_equal(dir_entries(), 0);
	/* the floor: below the default work_mem nothing fails */
	unsetenv("FLOE_SPILL_HARD_MIN");
	floe_error_clear(&T_err);
	w = window_new(&T_ctx, gen_new(100000, 0), 1, &spec, 1, &call);
	assert_int_equal(op_open(w), FLOE_OK);
	op_close(w);
}

/* count(DISTINCT) without GROUP BY: one group, cannot be partitioned */
static void
test_spill__plain_distinct_limit(void **state)
{
	AggCall *agg = ARENA_NEW(T_arena, AggCall);
	SqlType it = type_make(TYPE_INT64), cast;
	Operator *h;

	(void)state;
	assert_int_equal(func_resolve_agg("count", &it, 1, false, &agg->fn, &agg->type, &cast, &T_err),
			 FLOE_OK);
	agg->arg = expr_colref(T_arena, 1, it);
	agg->distinct = true;
	T_ctx.mem_limit = 64 * 1024;
	h = hash_agg_new(&T_ctx, gen_new(100000, 0), 0, NULL, 1, agg, true);
	assert_int_equal(op_open(h), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "53200");
	op_close(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spill__mem_limit),
		cmocka_unit_test_setup_teardown(test_spill__roundtrip_every_type, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__const_dict, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__sort_spills_stable, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__sort_cancel_cleans, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__unwritable_dir_is_an_error, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__hash_agg_spills, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__hash_join_spills_and_cancels, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__nested_loop_limit, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__window_spills, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__window_limit, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_spill__plain_distinct_limit, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
