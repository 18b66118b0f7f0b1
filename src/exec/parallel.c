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
 * Why not exchange operators (Volcano-style Gather everywhere): a
 * partial aggregation per thread moves only the groups between threads,
 * never the rows, and needs no copying of batches (a batch is valid only
 * until the next next()).  Sharing the join build (instead of building it
 * per thread) keeps memory at one table.
 *
 * Not parallel (the serial plan runs): plans under LATERAL (parameters),
 * pipelines whose scans hold under PAR_MIN_ROWS rows (thread start-up
 * would cost more than it saves), DISTINCT / ORDER BY aggregates,
 * aggregates whose result depends on input order (string_agg, and float
 * sum/avg/variance: their last bits depend on the summation order, and
 * the pgdiff suites compare floats exactly — so those stay serial and
 * results never change with the thread count), RIGHT/FULL joins (their
 * build-row match marks), and an aggregation whose partial table passes
 * its share of work_mem (it reruns serially, with spilling, from scratch).
 *
 * Threads: pthreads, started and joined inside one par_run call; none
 * outlives the operator call that started it.  Workers inherit the
 * leader's session time zone and statement time (thread-locals in
 * types/datetime.c and func/func_datetime.c).  The first failing thread's
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
 *
 * Invariants:
 *   1. every (file, row group) is handed out exactly once per reset; a
 *      file's first unit goes to the scan that claims it, which publishes
 *      its row-group count (0 when pruned or on error) before anyone waits
 *      forever on it.
 *   2. clones are built single-threaded (leader, before par_run) and are
 *      only touched by their own thread while par_run runs.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "exec/exec.h"
#include "func/func.h"
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
	const DatetimeZone *zone;
	DatetimeStyle style;       /* DateStyle, IntervalStyle (datetime.c) */
	int float_digits;          /* extra_float_digits (text.c) */
	int64_t stmt_time, stmt_now;
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

	datetime_use_zone(pr->zone);
	datetime_use_style(pr->style);
	text_set_extra_float_digits(pr->float_digits);
	func_set_statement_time(pr->stmt_time);
	datetime_set_statement_now(pr->stmt_now);
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
	pr.zone = datetime_current_zone();
	pr.style = datetime_current_style();
	pr.float_digits = text_extra_float_digits();
	pr.stmt_time = func_statement_time();
	pr.stmt_now = datetime_statement_now();
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

static void
walk(ExecCtx *ctx, Operator *op, int depth)
{
	Operator **in;
	int n, i;
	int64_t rows = 0;

	if (!op || depth > 1000)
		return;
	if (op->child && !op->ctx->params && !op->ctx->nparams &&
	    clonable(op->child, &rows, 0) && rows >= PAR_MIN_ROWS)
		hash_agg_set_parallel(op, ctx->threads);
	n = inputs_of(op, &in);
	for (i = 0; i < n; i++)
		walk(ctx, in[i], depth + 1);
}

Operator *
exec_parallelize(ExecCtx *ctx, Operator *root)
{
	if (ctx->threads > 1)
		walk(ctx, root, 0);
	return root;
}
