/*
 * parallel.c — morsel-driven parallel execution (issue 4: "both cores
 * used"), after Leis et al., "Morsel-Driven Parallelism" (SIGMOD 2014),
 * fitted to floe's pull-based operators.
 *
 * Design.  A plan stays one tree of pull operators.  A pipeline that
 * starts at a Parquet scan and goes through operators that can be copied
 * (scan, filter, project, the probe side of a hash join) is run by
 * ctx->threads copies at once: the leader's own operators plus clones
 * (Operator.clone) built by the leader before the workers start, each
 * with its own state, scratch arenas and ExecCtx, sharing what is read
 * only (Exprs, a hash join's built table).  The scans of all copies share
 * a MorselSource handing out (data file, row group) units, so two threads
 * balance even over one file of a few large row groups (SF1 lineitem
 * written by floe: one file, six row groups).  The pipeline breaker that
 * owns the copies (hash_agg.c today) gives each thread its own partial
 * table and merges them with AggFunc.combine; par_run runs the threads.
 *
 * Where no aggregation sits on top, a Gather (exchange) operator runs the
 * pipeline instead: its child in the leader and clones in workers that
 * start at open() and run until their pipeline ends, an error, or
 * close().  A worker copies each batch it produces (deep: strings too)
 * into one of GQ slots of its own and blocks while all are full; the
 * leader hands a slot's batch on and releases it at its next next()
 * (valid until the next next(), as every batch).  While no worker batch
 * waits, the leader runs a batch of its own pipeline (handed on without a
 * copy).  A Gather is planned only where the order of the rows does not
 * matter above it: at the plan root, under Sort, Limit, Project, Filter,
 * a hash join's inputs and Append in such a place, and under an
 * order-free (parallel) aggregation's join build sides.  Under anything
 * else (window functions, order-dependent aggregates such as a float sum,
 * a Materialize) the plan stays serial, so results never depend on the
 * thread count except for the row order SQL leaves open.
 *
 * Not parallel (the serial plan runs): plans under LATERAL (parameters),
 * pipelines whose scans hold under PAR_MIN_ROWS rows (thread start-up
 * would cost more than it saves), DISTINCT / ORDER BY aggregates,
 * aggregates whose result depends on input order (string_agg, and float
 * sum/avg/variance: their last bits depend on the summation order, and
 * the pgdiff suites compare floats exactly — so those stay serial and
 * results never change with the thread count), and an aggregation whose
 * partial table passes its share of work_mem (it reruns serially, with
 * spilling, from scratch).  Joins that emit unmatched build rows
 * (RIGHT/FULL, or LEFT building on its left input) do run in parallel:
 * the last copy to finish probing emits them (hash_join.c).
 *
 * Threads: pthreads, started and joined inside one par_run call (a
 * Gather's: see invariant 3).  Workers inherit the leader's session
 * state (func/session_env.h: session_env_capture on the leader,
 * session_env_apply on each worker: time zone, DateStyle,
 * extra_float_digits, statement time, memory account); privileges reach
 * them in their ExecCtx copies (ctx->env).  The first failing thread's
 * error is the statement's; the others stop at their next batch
 * (par_aborted); cancel and statement_timeout reach every thread through
 * ctx->cancel (exec_check_cancel in every scan and filter batch).
 *
 * INTERFACE ROUTINES
 *   exec_threads(workers)          threads per parallel operator
 *   exec_parallelize(ctx, root)    the plan, marked to use them
 *   morsel_source_new / morsel_next / morsel_publish / morsel_reset
 *   exec_worker_ctx(ctx, mem_limit) / exec_clone(op, wctx) / exec_instr_add
 *   par_run(ctx, n, wctx, fn, arg) / par_aborted(pr) / par_abort(pr)
 *   gather_new(ctx, child, threads)
 *
 * Invariants:
 *   1. every (file, row group) is handed out exactly once per reset; a
 *      file's first unit goes to the scan that claims it, which publishes
 *      its row-group count (0 when pruned or on error) before anyone waits
 *      forever on it.
 *   2. clones are built single-threaded (leader, before par_run or a
 *      Gather's workers start) and are only touched by their own thread
 *      while it runs.
 *   3. a Gather's workers are joined before its open() returns an error,
 *      at the end of its rows, on any error, at close(), and at the
 *      latest when the statement's arena is reset (before the worker
 *      arenas are freed): no thread outlives the statement.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/interrupt.h"
#include "exec/exec.h"
#include "func/func.h"
#include "func/session_env.h"
#include "types/datetime.h"
#include "types/text.h"

/* a pipeline whose scan holds fewer rows runs serially */
#define PAR_MIN_ROWS 50000

int
exec_threads(const char *workers)
{
	long n;
	char *end;

	if (workers && *workers) {
		n = strtol(workers, &end, 10);
		if (*end == '\0' && n >= 0 && n < 1024)
			return (int)n + 1;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* ---- morsels ------------------------------------------------------------------ */

#define NRG_UNKNOWN (-1)
#define NRG_OPENING (-2)

struct MorselSource {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int nfiles;
	int *nrg;                  /* row groups per file, or NRG_* */
	int *next;                 /* next row group to hand out */
	int lo;                    /* files below are done */
};

static void
morsel_free(void *p)
{
	MorselSource *ms = p;
	pthread_mutex_destroy(&ms->mu);
	pthread_cond_destroy(&ms->cv);
}

MorselSource *
morsel_source_new(ExecCtx *ctx, int nfiles)
{
	MorselSource *ms = ARENA_NEW(ctx->arena, MorselSource);

	pthread_mutex_init(&ms->mu, NULL);
	pthread_cond_init(&ms->cv, NULL);
	ms->nfiles = nfiles;
	ms->nrg = ARENA_ARRAY(ctx->arena, int, nfiles ? nfiles : 1);
	ms->next = ARENA_ARRAY(ctx->arena, int, nfiles ? nfiles : 1);
	morsel_reset(ms);
	arena_on_reset(ctx->arena, morsel_free, ms);
	return ms;
}

void
morsel_reset(MorselSource *ms)
{
	int f;

	pthread_mutex_lock(&ms->mu);
	for (f = 0; f < ms->nfiles; f++) {
		ms->nrg[f] = NRG_UNKNOWN;
		ms->next[f] = 0;
	}
	ms->lo = 0;
	pthread_mutex_unlock(&ms->mu);
}

int
morsel_next(MorselSource *ms, int *file, int *rg, bool *claim)
{
	pthread_mutex_lock(&ms->mu);
	for (;;) {
		bool wait = false;
		int f;

		for (f = ms->lo; f < ms->nfiles; f++) {
			int n = ms->nrg[f];
			if (n == NRG_UNKNOWN) {
				ms->nrg[f] = NRG_OPENING;
				ms->next[f] = 1;
				*file = f;
				*rg = 0;
				*claim = true;
				pthread_mutex_unlock(&ms->mu);
				return FLOE_OK;
			}
			if (n == NRG_OPENING) {
				wait = true;
				continue;
			}
			if (ms->next[f] < n) {
				*file = f;
				*rg = ms->next[f]++;
				*claim = false;
				pthread_mutex_unlock(&ms->mu);
				return FLOE_OK;
			}
			if (f == ms->lo)
				ms->lo++;
		}
		if (!wait)
			break;
		pthread_cond_wait(&ms->cv, &ms->mu);
	}
	pthread_mutex_unlock(&ms->mu);
	*file = -1;
	*rg = -1;
	*claim = false;
	return FLOE_OK;
}

void
morsel_publish(MorselSource *ms, int file, int nrg)
{
	pthread_mutex_lock(&ms->mu);
	if (file >= 0 && file < ms->nfiles && ms->nrg[file] == NRG_OPENING)
		ms->nrg[file] = nrg < 0 ? 0 : nrg;
	pthread_cond_broadcast(&ms->cv);
	pthread_mutex_unlock(&ms->mu);
}

/* ---- clones ------------------------------------------------------------------ */

ExecCtx *
exec_worker_ctx(ExecCtx *ctx, int64_t mem_limit)
{
	ExecCtx *w = ARENA_NEW(ctx->arena, ExecCtx);

	*w = *ctx;
	w->arena = arena_new(64 * 1024);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, w->arena);
	w->err = ARENA_NEW(ctx->arena, floe_error);
	w->params = NULL;
	w->nparams = 0;
	w->mem_limit = mem_limit;
	w->threads = 1;
	return w;
}

Operator *
exec_clone(Operator *op, ExecCtx *wctx)
{
	Operator *c;

	if (!op || !op->clone || op->ctx->params || op->ctx->nparams)
		return NULL;
	c = op->clone(op, wctx);
	if (!c)
		return NULL;
	c->label = op->label;
	c->est_rows = op->est_rows;
	if (op->instr)
		c->instr = ARENA_NEW(wctx->arena, OpInstr);
	return c;
}

static int
inputs_of(Operator *op, Operator ***out)
{
	if (op->ninputs) {
		*out = op->inputs;
		return op->ninputs;
	}
	*out = op->child ? &op->child : NULL;
	return op->child ? 1 : 0;
}

void
exec_instr_add(Operator *proto, Operator *clone)
{
	Operator **pi, **ci;
	int np, nc, i;

	if (!proto || !clone || proto == clone)
		return;
	if (proto->instr && clone->instr) {
		OpInstr *p = proto->instr, *c = clone->instr;
		p->rows += c->rows;
		p->files_pruned += c->files_pruned;
		p->row_groups_pruned += c->row_groups_pruned;
		if (c->total_ns > p->total_ns)
			p->total_ns = c->total_ns;
		/* copies run at once: their peaks add up */
		p->peak_mem += c->peak_mem;
		p->mem_noted |= c->mem_noted;
		memset(c, 0, sizeof *c);
	}
	np = inputs_of(proto, &pi);
	nc = inputs_of(clone, &ci);
	for (i = 0; i < np && i < nc; i++)
		exec_instr_add(pi[i], ci[i]);
}

/* ---- threads ------------------------------------------------------------------ */

struct ParRun {
	ExecCtx *ctx;
	ExecCtx **wctx;
	int (*fn)(void *arg, int i, ParRun *pr);
	void *arg;
	atomic_int abort;
	pthread_mutex_t mu;
	int first_err;             /* index of the first failing thread, -1 */
	SessionEnv env;            /* the leader's session state, applied by every worker */
};

typedef struct Slot {
	ParRun *pr;
	int i;
	pthread_t tid;
	bool started;
} Slot;

bool
par_aborted(const ParRun *pr)
{
	return atomic_load_explicit(&pr->abort, memory_order_relaxed) != 0;
}

void
par_abort(ParRun *pr)
{
	atomic_store(&pr->abort, 1);
}

static void
fail(ParRun *pr, int i)
{
	pthread_mutex_lock(&pr->mu);
	if (pr->first_err < 0)
		pr->first_err = i;
	pthread_mutex_unlock(&pr->mu);
	par_abort(pr);
}

static void
run_slot(ParRun *pr, int i)
{
	if (par_aborted(pr))
		return;
	if (pr->fn(pr->arg, i, pr) != FLOE_OK)
		fail(pr, i);
}

static void *
worker_main(void *p)
{
	Slot *s = p;
	ParRun *pr = s->pr;

	session_env_apply(&pr->env);
	interrupt_set(pr->ctx->cancel);
	run_slot(pr, s->i);
	return NULL;
}

int
par_run(ExecCtx *ctx, int n, ExecCtx **wctx, int (*fn)(void *arg, int i, ParRun *pr), void *arg)
{
	ParRun pr;
	Slot *slots = xcalloc((size_t)(n > 0 ? n : 1), sizeof(Slot));
	int i;

	memset(&pr, 0, sizeof pr);
	pr.ctx = ctx;
	pr.wctx = wctx;
	pr.fn = fn;
	pr.arg = arg;
	atomic_init(&pr.abort, 0);
	pthread_mutex_init(&pr.mu, NULL);
	pr.first_err = -1;
	session_env_capture(&pr.env);
	for (i = 1; i < n; i++) {
		slots[i].pr = &pr;
		slots[i].i = i;
		slots[i].started = pthread_create(&slots[i].tid, NULL, worker_main, &slots[i]) == 0;
	}
	run_slot(&pr, 0);
	for (i = 1; i < n; i++) {
		if (slots[i].started)
			pthread_join(slots[i].tid, NULL);
		else
			run_slot(&pr, i);   /* no thread: the leader does its share */
	}
	free(slots);
	pthread_mutex_destroy(&pr.mu);
	if (pr.first_err < 0)
		return FLOE_OK;
	if (pr.first_err > 0)
		*ctx->err = *wctx[pr.first_err]->err;
	return FLOE_ERR;
}

/* ---- planning ----------------------------------------------------------------- */

/* Can the pipeline ending at op be cloned, down to a scan of *rows rows? */
static bool
clonable(Operator *op, int64_t *rows, int depth)
{
	Operator *in;

	if (!op || depth > 64 || !op->clone || op->ctx->params || op->ctx->nparams)
		return false;
	if (scan_is_scan(op, rows))
		return true;
	in = hash_join_probe_input(op);
	if (!in) {
		if (op->ninputs)
			return false;
		in = op->child;
	}
	return clonable(in, rows, depth + 1);
}

Operator *
exec_pipeline_scan(Operator *op)
{
	int depth;
	int64_t rows;

	for (depth = 0; op && depth < 64; depth++) {
		Operator *in;
		if (scan_is_scan(op, &rows))
			return op;
		in = hash_join_probe_input(op);
		if (!in) {
			if (op->ninputs)
				return NULL;
			in = op->child;
		}
		op = in;
	}
	return NULL;
}

/* ---- Gather ------------------------------------------------------------------- */

/* Batches a worker may have copied and not yet handed over */
#define GQ 4

typedef struct GatherOp GatherOp;

typedef struct GWorker {
	GatherOp *g;
	Operator *op;              /* the clone of the pipeline */
	ExecCtx *wctx;
	pthread_t tid;
	bool started;
	/* ring of copied batches, under g->mu: slots head..head+count-1 are
	 * full; the leader holds slot head while held (released at its next
	 * next()), so the worker only writes slots outside the ring */
	Arena *arena[GQ];
	Batch *b[GQ];
	int head, count;
	bool held, done;
	bool orphan;               /* no thread: the leader runs it at the end */
} GWorker;

struct GatherOp {
	Operator op;
	int nw;                    /* workers (threads - 1); 0 = serial */
	GWorker *w;
	MorselSource *ms;
	bool prepared, running, leader_done;
	pthread_mutex_t mu;
	pthread_cond_t cv;         /* a batch, a free slot, a worker done, abort */
	atomic_int abort;
	int err_worker;            /* the first failing worker, -1 */
	int rr;                    /* next worker to look at first */
	int held;                  /* the worker whose slot the leader holds, -1 */
	SessionEnv env;            /* the leader's session state, applied by every worker */
};

static bool
g_aborted(GatherOp *g)
{
	return atomic_load_explicit(&g->abort, memory_order_relaxed) != 0;
}

/* Deep copy of b's selected rows into a (strings too). */
static Batch *
copy_batch(Arena *a, const Batch *in)
{
	Batch *b = ARENA_NEW(a, Batch);
	int c;
	uint32_t i;

	b->ncols = in->ncols;
	b->cols = ARENA_ARRAY(a, Vector, in->ncols ? in->ncols : 1);
	b->count = in->count;
	b->arena = a;
	for (c = 0; c < in->ncols; c++) {
		Vector *v = &b->cols[c];
		vector_init(v, in->cols[c].type, a, in->count ? in->count : 1);
		vector_copy_rows(v, 0, &in->cols[c], in->sel, in->count);
		if (type_is_string(v->type.id)) {
			strview *sv = v->data;
			for (i = 0; i < in->count; i++)
				if (vector_is_valid(v, i) && sv[i].len > STRVIEW_INLINE)
					sv[i] = strview_make(arena_memdup(a, sv[i].u.ptr, sv[i].len),
							     sv[i].len);
		}
	}
	return b;
}

static void
worker_fail(GatherOp *g, GWorker *w)
{
	pthread_mutex_lock(&g->mu);
	if (g->err_worker < 0)
		g->err_worker = (int)(w - g->w);
	atomic_store(&g->abort, 1);
	w->done = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

static void *
gather_worker(void *p)
{
	GWorker *w = p;
	GatherOp *g = w->g;

	session_env_apply(&g->env);
	interrupt_set(w->wctx->cancel);
	for (;;) {
		Batch *in;
		int slot;

		if (g_aborted(g))
			break;
		if (op_next(w->op, &in) != FLOE_OK) {
			worker_fail(g, w);
			return NULL;
		}
		if (!in)
			break;
		if (!in->count)
			continue;
		pthread_mutex_lock(&g->mu);
		while (w->count == GQ && !g_aborted(g))
			pthread_cond_wait(&g->cv, &g->mu);
		slot = (w->head + w->count) % GQ;
		pthread_mutex_unlock(&g->mu);
		if (g_aborted(g))
			break;
		arena_reset(w->arena[slot]);
		w->b[slot] = copy_batch(w->arena[slot], in);
		pthread_mutex_lock(&g->mu);
		w->count++;
		pthread_cond_broadcast(&g->cv);
		pthread_mutex_unlock(&g->mu);
	}
	pthread_mutex_lock(&g->mu);
	w->done = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

/* Stop the workers (abort) and join them; fold their EXPLAIN counters. */
static void
g_stop(GatherOp *g)
{
	int i;

	if (!g->running)
		return;
	pthread_mutex_lock(&g->mu);
	atomic_store(&g->abort, 1);
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	for (i = 0; i < g->nw; i++)
		if (g->w[i].started) {
			pthread_join(g->w[i].tid, NULL);
			g->w[i].started = false;
		}
	g->running = false;
	for (i = 0; i < g->nw; i++)
		exec_instr_add(g->op.child, g->w[i].op);
}

static void
g_free(void *p)
{
	GatherOp *g = p;

	g_stop(g);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}

/* Clones and worker contexts, once (NULL clone: run serially). */
static void
g_prepare(GatherOp *g)
{
	Operator *op = &g->op, *scan;
	int i, k;

	g->prepared = true;
	if (!(scan = exec_pipeline_scan(op->child))) {
		g->nw = 0;
		return;
	}
	g->ms = scan_morsels(scan);
	g->w = ARENA_ARRAY(op->ctx->arena, GWorker, g->nw);
	for (i = 0; i < g->nw; i++) {
		GWorker *w = &g->w[i];
		int64_t share = op->ctx->mem_limit > 0 ? op->ctx->mem_limit / (g->nw + 1) : 0;
		w->g = g;
		w->wctx = exec_worker_ctx(op->ctx, share);
		if (!(w->op = exec_clone(op->child, w->wctx))) {
			g->nw = 0;
			return;
		}
		for (k = 0; k < GQ; k++) {
			w->arena[k] = arena_new(64 * 1024);
			arena_on_reset(op->ctx->arena, (void (*)(void *))arena_free, w->arena[k]);
		}
	}
	/* registered last: runs before the worker arenas are freed */
	arena_on_reset(op->ctx->arena, g_free, g);
}

/* The leader's own pipeline failed or was cancelled: stop the workers. */
static int
g_fail(GatherOp *g)
{
	g_stop(g);
	return FLOE_ERR;
}

static int
gather_open(Operator *op)
{
	GatherOp *g = (GatherOp *)op;
	int i, rc = FLOE_OK;

	if (!g->prepared)
		g_prepare(g);
	g_stop(g);
	g->leader_done = false;
	g->held = -1;
	if (g->nw == 0)
		return op_open(op->child);
	morsel_reset(g->ms);
	atomic_store(&g->abort, 0);
	g->err_worker = -1;
	TRY(op_open(op->child));
	for (i = 0; i < g->nw; i++) {
		GWorker *w = &g->w[i];
		w->head = w->count = 0;
		w->held = w->done = false;
		if (rc == FLOE_OK)
			rc = op_open(w->op);
	}
	TRY(rc);
	session_env_capture(&g->env);
	g->running = true;
	for (i = 0; i < g->nw; i++) {
		GWorker *w = &g->w[i];
		w->started = pthread_create(&w->tid, NULL, gather_worker, w) == 0;
		w->orphan = !w->started;
	}
	return FLOE_OK;
}

/* A worker whose thread could not start: the leader reads its copy (its
 * part of a shared join, such as the unmatched build rows it may owe). */
static int
run_orphans(GatherOp *g, Batch **out)
{
	int i;

	*out = NULL;
	for (i = 0; i < g->nw; i++) {
		GWorker *w = &g->w[i];
		while (w->orphan) {
			if (op_next(w->op, out) != FLOE_OK) {
				*g->op.ctx->err = *w->wctx->err;
				return g_fail(g);
			}
			if (*out && (*out)->count)
				return FLOE_OK;
			if (!*out) {
				w->orphan = false;
				pthread_mutex_lock(&g->mu);
				w->done = true;
				pthread_mutex_unlock(&g->mu);
			}
		}
	}
	return FLOE_OK;
}

static int
gather_next(Operator *op, Batch **out)
{
	GatherOp *g = (GatherOp *)op;

	*out = NULL;
	if (g->nw == 0) {
		TRY(op_next(op->child, out));
		if (*out)
			op->rows_out += (*out)->count;
		return FLOE_OK;
	}
	pthread_mutex_lock(&g->mu);
	if (g->held >= 0) {
		GWorker *w = &g->w[g->held];
		w->head = (w->head + 1) % GQ;
		w->count--;
		w->held = false;
		g->held = -1;
		pthread_cond_broadcast(&g->cv);
	}
	pthread_mutex_unlock(&g->mu);
	for (;;) {
		bool all_done = true;
		int k;

		if (!g->running)
			return FLOE_OK;   /* ended (or stopped by close) */
		pthread_mutex_lock(&g->mu);
		if (g->err_worker >= 0) {
			int e = g->err_worker;
			pthread_mutex_unlock(&g->mu);
			g_stop(g);
			*op->ctx->err = *g->w[e].wctx->err;
			return FLOE_ERR;
		}
		for (k = 0; k < g->nw; k++) {
			int i = (g->rr + k) % g->nw;
			GWorker *w = &g->w[i];
			if (w->count > 0) {
				w->held = true;
				g->held = i;
				g->rr = (i + 1) % g->nw;
				*out = w->b[w->head];
				pthread_mutex_unlock(&g->mu);
				op->rows_out += (*out)->count;
				return FLOE_OK;
			}
			all_done &= w->done;
		}
		if (g->leader_done && !all_done)
			pthread_cond_wait(&g->cv, &g->mu);
		pthread_mutex_unlock(&g->mu);
		if (!g->leader_done) {
			Batch *b;
			if (op_next(op->child, &b) != FLOE_OK)
				return g_fail(g);
			if (!b) {
				g->leader_done = true;
				TRY(run_orphans(g, &b));
				if (!b)
					continue;
			}
			if (!b->count)
				continue;
			op->rows_out += b->count;
			*out = b;
			return FLOE_OK;
		}
		if (all_done) {
			g_stop(g);
			return FLOE_OK;
		}
		if (exec_check_cancel(op->ctx) != FLOE_OK)
			return g_fail(g);
	}
}

static void
gather_close(Operator *op)
{
	GatherOp *g = (GatherOp *)op;
	int i;

	g_stop(g);
	for (i = 0; i < g->nw; i++)
		op_close(g->w[i].op);
	op_close(op->child);
}

static const OperatorVT gather_vt = { "Gather", gather_open, gather_next, gather_close };

Operator *
gather_new(ExecCtx *ctx, Operator *child, int threads)
{
	GatherOp *g = ARENA_NEW(ctx->arena, GatherOp);

	op_init(&g->op, &gather_vt, ctx, child->ncols, child->types, child);
	g->op.label = arena_sprintf(ctx->arena, "Gather (threads=%d)", threads);
	g->op.est_rows = child->est_rows;
	g->nw = threads > 1 ? threads - 1 : 0;
	g->held = -1;
	g->err_worker = -1;
	atomic_init(&g->abort, 0);
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	return &g->op;
}

/* ---- planning ----------------------------------------------------------------- */

/* Rows in any order do not change the result above op (the final result
 * without ORDER BY, a sort's input, a LIMIT without ORDER BY, a join's
 * inputs there, an order-free aggregation's input): where a Gather may go. */
static bool
passes_order(const Operator *op)
{
	static const char *const free_ops[] = { "Project", "Filter", "Sort", "Limit", "HashJoin",
						"Append", "Gather" };
	size_t k;

	for (k = 0; k < sizeof free_ops / sizeof free_ops[0]; k++)
		if (!strcmp(op->vt->name, free_ops[k]))
			return true;
	return false;
}

/* Replace op's input i (as inputs_of numbers them) by g. */
static void
set_input(Operator *op, int i, Operator *g)
{
	if (!strcmp(op->vt->name, "HashJoin"))
		hash_join_set_input(op, i, g);
	else if (op->ninputs)
		op->inputs[i] = g;     /* Append reads its inputs array */
	else
		op->child = g;
}

static bool
replaceable(const Operator *op)
{
	return !op->ninputs || !strcmp(op->vt->name, "Append") || !strcmp(op->vt->name, "HashJoin");
}

static void walk(ExecCtx *ctx, Operator *op, bool free, int depth);
static void walk_chain(ExecCtx *ctx, Operator *op, int depth);

/* op's input i, c: under a Gather when it is a clonable pipeline big
 * enough and its row order is free (cfree), else walked as a plan. */
static void
visit_input(ExecCtx *ctx, Operator *op, int i, Operator *c, bool cfree, int depth)
{
	int64_t rows = 0;

	if (cfree && replaceable(op) && clonable(c, &rows, 0) && rows >= PAR_MIN_ROWS) {
		set_input(op, i, gather_new(ctx, c, ctx->threads));
		walk_chain(ctx, c, depth + 1);
	} else
		walk(ctx, c, cfree, depth + 1);
}

/* op tops a pipeline that runs on every thread (under a Gather or a
 * parallel aggregation): what hangs off the chain (hash join build sides)
 * runs in the leader before the workers start and may go parallel itself;
 * its row order is free (a Gather's or an order-free aggregation's input). */
static void
walk_chain(ExecCtx *ctx, Operator *op, int depth)
{
	int64_t rows;

	for (; op && depth < 1000; depth++) {
		Operator *in, **ins;
		int n, i;
		if (scan_is_scan(op, &rows))
			return;
		if (!(in = hash_join_probe_input(op))) {
			op = op->child;
			continue;
		}
		n = inputs_of(op, &ins);
		for (i = 0; i < n; i++)
			if (ins[i] != in)
				visit_input(ctx, op, i, ins[i], true, depth + 1);
		op = in;
	}
}

static void
walk(ExecCtx *ctx, Operator *op, bool free, int depth)
{
	Operator **in;
	int n, i;
	int64_t rows = 0;
	bool cfree;

	if (!op || depth > 1000)
		return;
	if (op->child && !op->ctx->params && !op->ctx->nparams &&
	    clonable(op->child, &rows, 0) && rows >= PAR_MIN_ROWS &&
	    hash_agg_set_parallel(op, ctx->threads)) {
		walk_chain(ctx, op->child, depth + 1);
		return;
	}
	cfree = free && passes_order(op) && !op->ctx->params && !op->ctx->nparams;
	n = inputs_of(op, &in);
	for (i = 0; i < n; i++)
		visit_input(ctx, op, i, in[i], cfree, depth);
}

Operator *
exec_parallelize(ExecCtx *ctx, Operator *root)
{
	int64_t rows = 0;

	if (ctx->threads <= 1 || !root)
		return root;
	if (clonable(root, &rows, 0) && rows >= PAR_MIN_ROWS) {
		Operator *g = gather_new(ctx, root, ctx->threads);
		walk_chain(ctx, root, 1);
		return g;
	}
	walk(ctx, root, true, 0);
	return root;
}
