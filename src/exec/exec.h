/*
 * exec.h — the operator contract: pull-based, vectorized, batch at a time.
 *
 * An Operator produces Batches of its `types` through next().  open()
 * prepares state (and, for pipeline breakers such as hash aggregation and
 * sort, consumes the child entirely), next() returns the next batch or sets
 * *out = NULL at the end, close() releases what open() took.  A batch
 * returned by next() is valid until the following next() or close() call;
 * each operator allocates per-batch memory from its `scratch` arena and
 * resets it at the top of next() (PostgreSQL's per-tuple context).
 *
 * Plans and state: the binder (sql/) builds Expr trees and the planner
 * builds Operators from them; Exprs are read-only during execution.
 *
 * Errors: every routine returns FLOE_OK / FLOE_ERR and fills ctx->err.
 * Cancellation: operators check exec_check_cancel() once per batch; it
 * also fails the statement with 53200 once its memory account (ctx->mem,
 * floe.query_memory_limit; common/arena.h) has passed its limit.
 *
 * INTERFACE ROUTINES
 *   op_open(op) / op_next(op, &batch) / op_close(op)
 *   op_next_rows(ctx, op, scratch, &batch)   a driver loop's next batch with
 *       rows, compacted (operator.c)
 *   exec_check_cancel(ctx)
 *   Operator constructors: one per file (values.c, series.c, scan.c,
 *   filter.c, project.c, hash_agg.c, sort.c, limit.c, hash_join.c,
 *   nested_loop.c, append.c, setop.c, window.c), declared below.
 */
#ifndef FLOE_EXEC_H
#define FLOE_EXEC_H

#include "common/arena.h"
#include "common/error.h"
#include "types/vector.h"
#include "exec/expr.h"

struct FileIO;
struct DataFile;
struct IcebergSchema;
struct TableMetadata;

typedef struct ExecCtx {
	Arena *arena;              /* the statement's arena */
	struct FileIO *io;
	floe_error *err;
	volatile int *cancel;      /* set non-zero to cancel (57014) */
	/* parameters of a LATERAL subquery's plan: a column reference
	 * EXPR_PARAM_BASE + k reads params[k] (set per outer row by the
	 * lateral operator); NULL elsewhere */
	Value *params;
	int nparams;
	/* bytes a memory-hungry operator (sort, hash aggregation, hash join
	 * build) may hold before it spills to disk; 0 = no limit.  Set per
	 * statement from the work_mem setting (exec_mem_limit, spill.c), at
	 * most a quarter of the statement's floe.query_memory_limit. */
	int64_t mem_limit;
	/* threads a parallel plan may run at once (the leader plus
	 * max_parallel_workers_per_gather workers; parallel.c); 1 = serial */
	int threads;
	/* sql/acl.c: the statement's privilege state and the list of the
	 * relations its binder resolved (acl_note_rel); NULL until the first */
	struct AclStmt *acl;
	/* the statement's memory account (floe.query_memory_limit): every
	 * arena made while it runs, in any of its threads, is charged to it,
	 * and operators charge the state they malloc to their arena's
	 * account (memacct_charge(arena_account(a), n): an arena reset may
	 * run after the ExecCtx is gone); NULL: the calling thread's current
	 * account (memacct_current) */
	MemAccount *mem;
	/* SET ignore_checksum_failure = on: Parquet page CRCs are not checked
	 * (they are by default) */
	bool ignore_checksums;
	/* the statement's session state (func/session_env.h): what kernels
	 * read through FuncCtx.env and parallel workers apply; NULL: none
	 * (no privilege services: every privilege) */
	const struct SessionEnv *env;
	/* inset.c: the hash sets of the statement's IN lists of constants,
	 * built on first use in `arena`; NULL until then */
	struct InSetCache *insets;
} ExecCtx;

/* spill.c: the byte limit of a floe.query_memory_limit value (NULL: the
 * default, a quarter of physical memory); 0 = unlimited */
int64_t exec_query_mem_limit(const char *setting);
/* operator.c: 53200 when ctx's memory account has passed its limit (the
 * check points: each batch through exec_check_cancel, a state's growth) */
int exec_check_mem(ExecCtx *ctx);

/* spill.c: the byte limit of a work_mem setting value (NULL: the default) */
int64_t exec_mem_limit(const char *work_mem);
/* parallel.c: threads per parallel operator for a
 * max_parallel_workers_per_gather value (NULL/invalid: the default, one
 * per core); the leader counts, so the result is workers + 1 >= 1 */
int exec_threads(const char *workers);

typedef struct Operator Operator;

typedef struct OperatorVT {
	const char *name;
	int (*open)(Operator *op);
	int (*next)(Operator *op, Batch **out);
	void (*close)(Operator *op);
} OperatorVT;

/* EXPLAIN ANALYZE counters of one operator (operator.c): every open is a
 * loop; time is inclusive of the inputs (as PostgreSQL's "actual time"). */
typedef struct OpInstr {
	int64_t loops;
	int64_t rows;
	int64_t total_ns;          /* in open + next, all loops */
	int64_t first_ns;          /* until the first batch (or the end), all loops */
	bool got_first;            /* this loop */
	/* scans: data files and row groups skipped by statistics (prune.c) */
	int64_t files_pruned;
	int64_t row_groups_pruned;
	/* spilling operators (sort, hash aggregation, hash join, window): the
	 * most bytes held at once, as malloc'd (arena chunks, tables, spill
	 * buffers; op_note_mem), all loops; EXPLAIN ANALYZE's "Peak Memory" */
	int64_t peak_mem;
	bool mem_noted;
} OpInstr;

struct Operator {
	const OperatorVT *vt;
	ExecCtx *ctx;
	int ncols;
	SqlType *types;
	Operator *child;
	Arena *scratch;            /* reset at the top of next() */
	int64_t rows_out;
	/* EXPLAIN (explain.c): inputs other than `child` (joins, Append,
	 * Recursive Union, a Materialize's source), a label replacing vt->name
	 * ("Seq Scan on t", "Hash Left Join"), the planner's row estimate
	 * (est_rows < 0: none), and ANALYZE counters when instr != NULL */
	Operator **inputs;
	int ninputs;
	const char *label;
	double est_rows;
	OpInstr *instr;
	/* optional (parallel.c), set by the constructor: a copy of op for a
	 * worker thread, built in the leader before the workers start: its own
	 * state, scratch and ctx (wctx), sharing the read-only parts (Exprs, a
	 * hash join's built table, a scan's MorselSource); its inputs cloned
	 * with exec_clone.  NULL: op cannot run in parallel. */
	Operator *(*clone)(Operator *op, ExecCtx *wctx);
};

int op_open_instr(Operator *op);
int op_next_instr(Operator *op, Batch **out);
static inline int op_open(Operator *op) { return op->instr ? op_open_instr(op) : op->vt->open(op); }
static inline int op_next(Operator *op, Batch **out)
{
	return op->instr ? op_next_instr(op, out) : op->vt->next(op, out);
}
static inline void op_close(Operator *op) { if (op) op->vt->close(op); }
/* a spilling operator holds `bytes` now (EXPLAIN ANALYZE's peak) */
static inline void op_note_mem(Operator *op, int64_t bytes)
{
	if (op->instr) {
		op->instr->mem_noted = true;
		if (bytes > op->instr->peak_mem)
			op->instr->peak_mem = bytes;
	}
}

int exec_check_cancel(ExecCtx *ctx);
/* The next batch of op that has rows, compacted (batch_compact), for a
 * loop that drives op to its end (a DML statement's scans and joins):
 * before each op_next, scratch is reset (NULL: none) and
 * exec_check_cancel(ctx) runs; empty batches are skipped; *out = NULL at
 * the end. */
int op_next_rows(ExecCtx *ctx, Operator *op, Arena *scratch, Batch **out);
/* Common constructor part: fills vt, ctx, types, scratch. */
void op_init(Operator *op, const OperatorVT *vt, ExecCtx *ctx, int ncols,
	     const SqlType *types, Operator *child);
void op_free_scratch(Operator *op);

/* values.c: literal rows (each row an array of Exprs over no input). */
Operator *values_new(ExecCtx *ctx, int ncols, const SqlType *types, int nrows,
		     Expr ***rows);
/* series.c: generate_series(start, stop[, step]) for ints, numerics,
 * timestamps; one column of `type`. */
Operator *series_new(ExecCtx *ctx, SqlType type, const Value *start, const Value *stop,
		     const Value *step);
/* Set-returning functions in FROM (srf.c): unnest(array) (kind 0),
 * regexp_matches (1), generate_subscripts (2), WITH ORDINALITY (3),
 * expanding a row (4); srf_zip_new zips n of them for ROWS FROM. */
Operator *srf_new(ExecCtx *ctx, int kind, SqlType type, Expr **args, int nargs);
Operator *srf_zip_new(ExecCtx *ctx, int n, Operator **inputs);
/* Arguments evaluated at each open instead (NULL: keep that Value); for
 * LATERAL calls whose arguments are parameters. */
void series_set_args(Operator *op, Expr *start, Expr *stop, Expr *step);
/* scan.c: Parquet data files read into the columns of `schema` (matched by
 * field id, else by name); `proj` lists which schema columns to produce;
 * md (may be NULL) gives the partition specs of the files.  A file's
 * deletes (DataFile.deletes) are applied: deleted rows are never produced.
 * proj[i] == SCAN_PROJ_FILE_POS produces the row's position in its data
 * file (int64, 0-based, counting deleted rows too): what a position delete
 * or deletion vector names. */
#define SCAN_PROJ_FILE_POS (-1)
/* Format version 3 row lineage (spec "Row Lineage"): proj[i] ==
 * SCAN_PROJ_ROW_ID produces the row's _row_id (int64: the file's
 * _row_id column where written and not null, else the data file's
 * first_row_id + its position; NULL when the file has no first_row_id),
 * SCAN_PROJ_LAST_UPDATED_SEQ its _last_updated_sequence_number (the
 * file's column where not null, else the file's data sequence number). */
#define SCAN_PROJ_ROW_ID (-2)
#define SCAN_PROJ_LAST_UPDATED_SEQ (-3)
/* Per-file metadata columns (spec "Reserved Field IDs", table/metacols.h),
 * constant within a data file: _file (text: file_path), _spec_id (int),
 * _partition (text: JSON of the partition tuple), _file_size (bigint:
 * file_size_in_bytes), _deleted (boolean: false, as a scan never produces
 * a deleted row).  scan_proj_type gives each code's type. */
#define SCAN_PROJ_FILE_PATH (-4)
#define SCAN_PROJ_SPEC_ID (-5)
#define SCAN_PROJ_PARTITION (-6)
#define SCAN_PROJ_FILE_SIZE (-7)
#define SCAN_PROJ_DELETED (-8)
SqlType scan_proj_type(int proj);
Operator *scan_new(ExecCtx *ctx, const struct IcebergSchema *schema, int nproj,
		   const int *proj, struct DataFile *files, int nfiles, bool match_by_name,
		   const struct TableMetadata *md);
/* prune.c: may a data file / a Parquet row group be skipped because its
 * statistics prove pred (over the scan's projected columns: COLREF col i
 * is proj[i] / Parquet column pq_col[i], -1 = none; proj NULL: schema
 * field i) FALSE or NULL on every row?  false is always safe. */
struct ParquetFile;
bool prune_file(const Expr *pred, int nproj, const int *proj, const struct IcebergSchema *schema,
		const struct DataFile *file);
bool prune_row_group(const Expr *pred, int nproj, const int *pq_col, struct ParquetFile *pf,
		     int rg);
/* scan.c: give a scan the predicate of the filter right above it, for
 * skipping files and row groups (prune.c); false if op is not a scan. */
bool scan_set_prune(Operator *op, const Expr *pred);
/* filter.c: keeps rows where pred is true (sets the batch selection);
 * over a scan it also hands pred to the scan (scan_set_prune). */
Operator *filter_new(ExecCtx *ctx, Operator *child, Expr *pred);
/* project.c: one output column per expression over the child's columns. */
Operator *project_new(ExecCtx *ctx, Operator *child, int nexprs, Expr **exprs);
/* hash_agg.c: GROUP BY keys and aggregates; output = keys then aggs.
 * nkeys = 0 gives one row (plain aggregation). */
Operator *hash_agg_new(ExecCtx *ctx, Operator *child, int nkeys, Expr **keys,
		       int naggs, AggCall *aggs, bool plain);
/* sort.c: ORDER BY on output columns. */
typedef struct SortKey {
	int col;
	bool desc;
	bool nulls_first;
} SortKey;
Operator *sort_new(ExecCtx *ctx, Operator *child, int nkeys, const SortKey *keys);
/* a sort's keys for its next open (the sort is closed) */
void sort_set_keys(Operator *op, int nkeys, const SortKey *keys);
/* Compare two values of type t stored as in a Vector (a and b point at
 * the element): <0, 0, >0 in ascending order (sort.c; hash_agg.c and
 * window.c order by it too). */
int sort_compare_values(const void *a, const void *b, SqlType t);
/* limit.c */
Operator *limit_new(ExecCtx *ctx, Operator *child, int64_t limit /* -1 none */, int64_t offset);

/* hash_join.c: equi-join (INNER/LEFT/RIGHT/FULL) with a residual condition
 * over the output (left columns then right columns); lkeys/rkeys are
 * evaluated over the left/right input and have equal types; build_left
 * builds the hash table on the left input.  nkeys = 0: every pair is a
 * candidate (block nested loop). */
/* SEMI/ANTI: left rows with / without a match, once each; output = left
 * columns (the residual still sees left then right columns). */
/* NOT_IN: ANTI that keeps a row only when x NOT IN (build keys) is true
 * (no NULL key on either side, or an empty build side); one key, no residual. */
/* MARK: every left row once, plus a boolean column: true when some right
 * row matches (keys equal, residual true); see hash_join_set_mark for the
 * NULL answers of IN.  Output = left columns then the mark. */
typedef enum JoinType {
	JOIN_INNER, JOIN_LEFT, JOIN_RIGHT, JOIN_FULL, JOIN_SEMI, JOIN_ANTI, JOIN_NOT_IN, JOIN_MARK
} JoinType;
Operator *hash_join_new(ExecCtx *ctx, Operator *left, Operator *right, JoinType type,
			int nkeys, Expr **lkeys, Expr **rkeys, Expr *residual, bool build_left);
/* A MARK join's IN semantics (x IN (subquery), three-valued; call before
 * open).  cmp: the IN comparison over the left then right columns, tested
 * on the pairs whose keys match and whose residual is true: a true pair
 * marks true, else a NULL pair marks NULL.  null_key: the join's one key
 * is itself IN's x = y (no cmp): an unmatched row is NULL when the right
 * side has a NULL key, or its own key is NULL and the right side has
 * rows.  Without either the mark is never NULL (EXISTS). */
void hash_join_set_mark(Operator *op, Expr *cmp, bool null_key);
/* Can values of types a and b be hash-join keys (equal exactly when their
 * bytes are: same type, same decimal scale, no interval, no char(n))? */
bool hash_join_key_ok(SqlType a, SqlType b);
/* nested_loop.c: join without equi-keys: each pair tested by cond (NULL:
 * cross product). */
Operator *nested_loop_new(ExecCtx *ctx, Operator *left, Operator *right, JoinType type,
			  Expr *cond);
/* lateral.c: LATERAL join: right (planned with rctx, whose params are the
 * left columns) run once per left row; INNER or LEFT; cond over the left
 * then right columns, or NULL. */
Operator *lateral_new(ExecCtx *ctx, Operator *left, Operator *right, ExecCtx *rctx, JoinType type,
		      Expr *cond);
/* append.c: the rows of each child in turn (UNION ALL); children have the
 * operator's types. */
Operator *append_new(ExecCtx *ctx, int nchildren, Operator **children);
/* setop.c: INTERSECT/EXCEPT [ALL] output from a child whose last two
 * columns are the int64 counts of each row in the left and right inputs
 * (one row per distinct row); emits the other columns as many times as
 * the set operation says. */
typedef enum SetOpKind { SETOP_INTERSECT, SETOP_EXCEPT } SetOpKind;
Operator *setop_new(ExecCtx *ctx, Operator *child, SetOpKind kind, bool all);

/* window.c: window functions.  Output = the child's columns, then one
 * column per call.  A spec is a PARTITION BY + ORDER BY (expressions over
 * the child's columns; dirs[k].col unused); each call names its spec, its
 * frame and up to three argument expressions:
 *   ROW_NUMBER/RANK/DENSE_RANK (bigint), PERCENT_RANK/CUME_DIST (double):
 *     no arguments; NTILE(arg int); LAG/LEAD(arg, arg2 offset int or NULL,
 *     arg3 default of arg's type or NULL); FIRST_VALUE/LAST_VALUE(arg);
 *     NTH_VALUE(arg, arg2 int); AGG: agg over arg (NULL: count(*)).
 * ROWS offsets are row counts; RANGE offsets values of the ORDER BY key's type. */
typedef enum WinKind {
	WIN_ROW_NUMBER, WIN_RANK, WIN_DENSE_RANK, WIN_PERCENT_RANK, WIN_CUME_DIST, WIN_NTILE,
	WIN_LAG, WIN_LEAD, WIN_FIRST_VALUE, WIN_LAST_VALUE, WIN_NTH_VALUE, WIN_AGG
} WinKind;
typedef enum WinBound {
	WB_UNBOUNDED_PRECEDING, WB_PRECEDING, WB_CURRENT, WB_FOLLOWING, WB_UNBOUNDED_FOLLOWING
} WinBound;
typedef struct WindowFrame {
	bool rows;                 /* ROWS; else RANGE */
	WinBound start, end;
	int64_t start_off, end_off;     /* ROWS offsets */
	bool range_off;            /* RANGE with an offset bound: the spec has one
				      ORDER BY key, of an integer, float or numeric
				      type, and start_val/end_val (that type) are
				      the offsets; date/timestamp(tz) keys: interval
				      offsets */
	Value start_val, end_val;
	bool groups;               /* GROUPS: start_off/end_off count peer groups */
	uint8_t exclude;           /* EXCLUDE: 0 NO OTHERS, 1 CURRENT ROW, 2 GROUP, 3 TIES */
} WindowFrame;
typedef struct WindowSpec {
	int npart;
	Expr **part;
	int norder;
	Expr **order;
	SortKey *dirs;             /* [norder]: desc, nulls_first */
} WindowSpec;
typedef struct WindowCall {
	WinKind kind;
	int spec;
	const struct AggFunc *agg; /* WIN_AGG */
	Expr *arg, *arg2, *arg3;
	SqlType type;              /* result type */
	WindowFrame frame;
} WindowCall;
Operator *window_new(ExecCtx *ctx, Operator *child, int nspecs, WindowSpec *specs, int ncalls,
		     WindowCall *calls);

/* parallel.c: morsel-driven parallelism.
 *
 * A MorselSource hands out the (data file, row group) units of one scan's
 * file list to the scans of every thread (scan_clone shares it); a file's
 * row-group count is learnt by the first scan that opens its footer
 * (morsel_next returns *claim = true: that scan must call
 * morsel_publish).  morsel_reset starts over (a rescan, a serial rerun).
 *
 * exec_worker_ctx: a worker's ExecCtx (own arena, freed with ctx's; own
 * error; ctx's io, cancel and params-free).  exec_clone: op_clone with
 * EXPLAIN ANALYZE counters of its own (NULL if some node cannot clone);
 * exec_instr_add folds a clone tree's counters into the prototype's.
 * par_run runs fn(arg, i) for i = 0..n-1, i = 0 in the calling thread and
 * the others on threads that inherit its time zone and statement time,
 * joins them all, and returns the first error (copied into ctx->err);
 * a failing thread sets the shared abort flag the others poll
 * (par_aborted) per batch. */
typedef struct MorselSource MorselSource;
MorselSource *morsel_source_new(ExecCtx *ctx, int nfiles);
/* *file = -1 at the end; *rg = the row group to read (0 with *claim) */
int morsel_next(MorselSource *ms, int *file, int *rg, bool *claim);
void morsel_publish(MorselSource *ms, int file, int nrg);
void morsel_reset(MorselSource *ms);
ExecCtx *exec_worker_ctx(ExecCtx *ctx, int64_t mem_limit);
Operator *exec_clone(Operator *op, ExecCtx *wctx);
void exec_instr_add(Operator *proto, Operator *clone);
typedef struct ParRun ParRun;
int par_run(ExecCtx *ctx, int n, ExecCtx **wctx, int (*fn)(void *arg, int i, ParRun *pr),
	    void *arg);
bool par_aborted(const ParRun *pr);
void par_abort(ParRun *pr);
/* scan.c: the scan's MorselSource, made on the first call (from then on
 * the scan and its clones read the units it hands out); NULL: not a scan */
MorselSource *scan_morsels(Operator *op);
/* is op a scan?  *rows: its files' record count */
bool scan_is_scan(const Operator *op, int64_t *rows);
/* parallel.c: the scan that drives the pipeline ending at op (through
 * filters, projections, hash join probe sides), or NULL */
Operator *exec_pipeline_scan(Operator *op);
/* hash_agg.c: run the child pipeline on `threads` threads (partial tables
 * merged with AggFunc.combine); false when the aggregates do not allow it */
bool hash_agg_set_parallel(Operator *op, int threads);
/* hash_join.c: the probe input a clone of this join would clone (NULL:
 * not a hash join, or itself a clone) */
Operator *hash_join_probe_input(Operator *op);
/* hash_join.c: input i (0 left, 1 right) replaced by in, which produces
 * the same columns (a Gather over it; parallel.c, before op_open) */
void hash_join_set_input(Operator *op, int i, Operator *in);
/* parallel.c: Gather: the pipeline child (clonable down to a scan) run
 * by `threads` threads at once, the leader's child plus clones of it in
 * worker threads sharing its scan's morsels; workers' batches are copied
 * (a few per worker at most) and handed to the consumer in any order.
 * Worker threads run from open() until the end, an error, or close(). */
Operator *gather_new(ExecCtx *ctx, Operator *child, int threads);

/* parallel.c: the plan rewritten to use ctx->threads threads where it
 * pays (morsel-driven scans feeding partial aggregation, a shared hash
 * join build probed by every thread); returns root itself when nothing
 * is parallel.  Called once on a finished plan, before op_open. */
Operator *exec_parallelize(ExecCtx *ctx, Operator *root);

/* explain.c: EXPLAIN's text, one line per element of *lines: the operator
 * tree indented as PostgreSQL does ("->  " per level), with estimated rows
 * (costs), actual rows / loops (analyze, after the tree has run with
 * explain_instrument), times (timing), output types (verbose) and the
 * spilling operators' peak memory (analyze and summary). */
typedef struct ExplainOpts {
	bool analyze, verbose, costs, timing, summary;
} ExplainOpts;
void explain_instrument(Operator *root, Arena *a);
int explain_text(Operator *root, const ExplainOpts *o, Arena *a, char ***lines, int *nlines);

/* buffer.c: rows materialised once and read by several operators.  With
 * a child, the first scan to open reads the child into the store (a
 * shared Materialize: GROUPING SETS); without, the caller fills it with
 * rowstore_append (the work table of WITH RECURSIVE). */
typedef struct RowStore RowStore;
RowStore *rowstore_new(ExecCtx *ctx, int ncols, const SqlType *types, Operator *child);
void rowstore_append(RowStore *rs, const Batch *b);   /* deep copy */
void rowstore_clear(RowStore *rs);
void rowstore_swap(RowStore *a, RowStore *b);
int64_t rowstore_rows(const RowStore *rs);
int rowstore_nbatches(const RowStore *rs);
Batch *rowstore_batch(const RowStore *rs, int i);
Operator *rowstore_scan_new(ExecCtx *ctx, RowStore *rs);
/* recursive.c: WITH RECURSIVE's Recursive Union: init's rows, then rec run
 * over the work table (whose scans rec contains) until it adds no rows;
 * distinct: UNION (rows equal to an earlier one dropped), else UNION ALL.
 * init and rec have the operator's types. */
Operator *recursive_new(ExecCtx *ctx, Operator *init, Operator *rec, RowStore *work,
			bool distinct);

#endif
