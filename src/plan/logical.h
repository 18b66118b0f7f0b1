/*
 * logical.h — the logical plan: what a statement computes, before the
 * optimizer decides how (DESIGN.md "Data flow": bind -> optimize -> plan).
 *
 * The binder (bind/) turns a parse tree into a tree of LogicalOps; the
 * optimizer (optimize/) rewrites that tree, one pass per file; physical.c
 * lowers it to exec/ Operators.  A logical plan never runs anything and
 * holds no executor state, so a prepared statement can keep it (the plan
 * cache) and EXPLAIN (LOGICAL) can print it.
 *
 * COLUMNS.  Every column a node produces has a ColumnId, unique in its
 * LogicalPlan (lplan_column allocates them).  Expressions inside logical
 * nodes are ordinary Exprs (exec/expr.h), with one difference: an
 * EXPR_COLREF's `col` is a ColumnId, not an input position.  A node's
 * expressions may reference the columns its children produce (and, under a
 * dependent join's right side, the join's correlated columns); the verifier
 * checks that.  Ids make rewrites local: moving a Filter below a Join or
 * pruning a column never renumbers the expressions above it.  physical.c
 * maps ids to input positions when it builds Operators (PostgreSQL does the
 * same in set_plan_references; DuckDB calls ids ColumnBindings).
 *
 * NODES (children, output columns):
 *   GET        0   a table (or metadata/catalog relation) at a snapshot:
 *                  one column per projected field; pushed-down filters.
 *                  The table's source (the binder's catalog side) gives
 *                  the node its `scan`: physical.c calls it to make the
 *                  operators that read the table, as DataFusion's
 *                  TableProvider::scan (so plan/ needs to know neither
 *                  Iceberg's files nor the insert buffer)
 *   FILTER     1   the child's columns; `exprs` = conjuncts, all must be true
 *   PROJECT    1   one column per expression in `exprs`
 *   JOIN       2   left columns then right columns (SEMI/ANTI/MARK: left
 *                  only, MARK adds one boolean column: EXISTS / IN inside
 *                  an expression, every left row with its mark); `exprs` =
 *                  conjuncts of the condition (ANTI null_aware: NOT IN's
 *                  one x = y; MARK null_aware: IN's comparison last);
 *                  dependent: the right side reads the
 *                  left's columns listed in `corr` (a correlated subquery
 *                  or LATERAL, before decorrelation).  SINGLE: a scalar
 *                  subquery's value(s) per left row (today always
 *                  dependent, over an ungrouped Aggregate, so at most one
 *                  right row); a reader of a count() column of that
 *                  Aggregate reads it through coalesce(c, 0), so
 *                  decorrelate.c may turn the join into a LEFT join whose
 *                  missing groups are NULL
 *   AGGREGATE  1   group keys (exprs) then aggregates (aggs); grouping
 *                  sets as key masks
 *   WINDOW     1   the child's columns then one per window call
 *   SORT       1   the child's columns; sort keys are expressions
 *   LIMIT      1   the child's columns
 *   DISTINCT   1   the child's columns; `exprs` non-empty = DISTINCT ON
 *   SETOP      2+  UNION [ALL] over n children, INTERSECT/EXCEPT [ALL]
 *                  over two; columns positional across children
 *   VALUES     0   literal rows (`rows`, each ncols expressions)
 *   TABLE_FUNC 0   a set-returning function in FROM (`exprs` = arguments)
 *   CTE        2   children[0] defines CTE `cte_id`, children[1] uses it;
 *                  the optimizer decides inline or materialise
 *   CTE_REF    0   a reference to a CTE of an enclosing CTE node
 *   INSERT / UPDATE / DELETE / MERGE   1: a write into `table`; the child
 *                  yields the rows (INSERT) or the target rows with their
 *                  position and new values (UPDATE/DELETE/MERGE); output:
 *                  the RETURNING columns, if any
 *   OPERATOR   0   an exec/ Operator built before the logical plan
 *                  (`physical`): one column per operator column.  The
 *                  binder's FROM items other than base tables (Get),
 *                  joins (Join), FROM subqueries and inline CTE
 *                  references (their own nodes) enter the plan this way
 *                  until they are
 *                  logical nodes themselves (review §5.3 step 3); the
 *                  optimizer cannot look inside it.
 *
 * AGGREGATE with grouping sets also makes the values of the query's
 * grouping(...) calls, after the aggregates: one int4 column per entry of
 * `groupings`, each the key indices its arguments name (bit set = the key
 * is not grouped in the set, first argument the most significant bit).
 *
 * PARAMETERS.  An EXPR_COLREF at or above EXPR_PARAM_BASE is not a column
 * but a parameter of the statement (a LATERAL or correlated subquery's
 * outer value, ExecCtx.params); it is in every node's scope and passes
 * through lowering unchanged.  ColumnIds stay below EXPR_PARAM_BASE.
 *
 * INTERFACE ROUTINES
 *   lplan_new(arena) / lplan_column(plan, type, name)
 *   lop_new(plan, kind, nchildren, children...)   a node; set its payload
 *   lop_add_column(plan, op, type, name)          append an output column
 *   lop_pass_columns(op, child)                   output = the child's
 *   lop_find_column(op, id)                       index in op->cols or -1
 *   lop_operator(plan, operator, names)           an OPERATOR leaf (names:
 *                                                 [ncols] or NULL)
 *   lexpr_by_id(plan, e, in, err)                 a copy of e, which reads in's
 *                                                 columns by position, reading
 *                                                 them by ColumnId (binders)
 *   lplan_print(plan, op, arena) -> text          EXPLAIN (LOGICAL): a line per
 *                                                 node, "(rows=N)" when estimated
 *   lplan_explain(plan, op, costs, arena)         the same, estimates only if costs
 *   lexpr_print(e, arena) -> text                 one expression
 *   lplan_verify(plan, op, err)                   FLOE_OK or XX000 naming
 *                                                 the first broken rule
 *
 * All memory comes from the plan's arena; nothing is freed on its own.
 */
#ifndef FLOE_PLAN_LOGICAL_H
#define FLOE_PLAN_LOGICAL_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/error.h"
#include "exec/exec.h"
#include "exec/expr.h"

typedef uint32_t ColumnId;

typedef enum LogicalKind {
	LOP_GET,
	LOP_FILTER,
	LOP_PROJECT,
	LOP_JOIN,
	LOP_AGGREGATE,
	LOP_WINDOW,
	LOP_SORT,
	LOP_LIMIT,
	LOP_DISTINCT,
	LOP_SETOP,
	LOP_VALUES,
	LOP_TABLE_FUNC,
	LOP_CTE,
	LOP_CTE_REF,
	LOP_INSERT,
	LOP_UPDATE,
	LOP_DELETE,
	LOP_MERGE,
	LOP_OPERATOR
} LogicalKind;

/* Join kinds: exec's, plus the ones only the logical plan has. */
typedef enum LogicalJoinKind {
	LJ_INNER, LJ_LEFT, LJ_RIGHT, LJ_FULL, LJ_SEMI, LJ_ANTI,
	LJ_CROSS,     /* no condition */
	LJ_MARK,      /* left rows plus a boolean "has a match" (EXISTS/IN in
			 an expression: the mark is three-valued as IN is) */
	LJ_SINGLE     /* left join that fails 21000 on a second match (a
			 scalar subquery) */
} LogicalJoinKind;

typedef enum LogicalSetOpKind { LSET_UNION, LSET_INTERSECT, LSET_EXCEPT } LogicalSetOpKind;

typedef struct LogicalColumn {
	ColumnId id;
	SqlType type;
	const char *name;          /* output name, for EXPLAIN and result headers */
} LogicalColumn;

/* ORDER BY key (SORT, and DISTINCT ON's order). */
typedef struct LogicalSortKey {
	Expr *e;
	bool desc;
	bool nulls_first;
} LogicalSortKey;

/* Which snapshot a GET reads (time travel): the current one unless set. */
typedef struct LogicalSnapshot {
	int64_t snapshot_id;       /* 0: not given */
	const char *ref;           /* branch or tag name, or NULL */
	const char *timestamp;     /* FOR TIMESTAMP AS OF text, or NULL */
} LogicalSnapshot;

/* One grouping(args) call of an AGGREGATE with grouping sets. */
typedef struct LogicalGrouping {
	int nargs;
	int *keys;                 /* [nargs] key index each argument names */
} LogicalGrouping;

typedef struct LogicalOp LogicalOp;

struct LogicalOp {
	LogicalKind kind;
	int nchildren;
	LogicalOp **children;
	int ncols;                 /* output columns */
	LogicalColumn *cols;
	double est_rows;           /* cardinality estimate; < 0: none yet */

	/* FILTER conjuncts, PROJECT outputs, JOIN condition conjuncts,
	 * AGGREGATE group keys, DISTINCT ON keys, TABLE_FUNC arguments, GET
	 * pushed-down filters */
	int nexprs;
	Expr **exprs;

	/* GET, CTE_REF, TABLE_FUNC, writes: the relation or function */
	const char *schema;
	const char *name;
	LogicalSnapshot snapshot;  /* GET */
	int *field_ids;            /* GET: [ncols] Iceberg field id per column
				      (or a SCAN_PROJ_* pseudo column) */
	const void *table;         /* GET/writes: the bound table (opaque here:
				      table/'s TableMetadata), or NULL */
	const double *col_ndv;     /* GET: [ncols] estimated distinct values
				      per column (< 0 unknown), or NULL
				      (plan/cardinality.h) */
	/* GET: the operators reading the table, producing the node's columns
	 * in order (physical.c invariant P1); scan_arg is the source's own */
	Operator *(*scan)(ExecCtx *ctx, const LogicalOp *get, const void *scan_arg);
	const void *scan_arg;

	LogicalJoinKind join;      /* JOIN */
	bool null_aware;           /* JOIN ANTI: x NOT IN (subquery), the
				      condition one x = y: a left row goes when
				      some right y equals x or is NULL, or when
				      x is NULL and the right side has rows
				      (exec's JOIN_NOT_IN).  JOIN MARK: x IN
				      (subquery), the condition's last conjunct
				      is IN's comparison: the mark is true when
				      a right row passes the other conjuncts
				      and it, else NULL when it was NULL for
				      such a row, else false (not null_aware:
				      EXISTS, never NULL) */
	bool reduce;               /* JOIN LEFT (optimize/decorrelate.c): the left
				      rows are materialised once and, below the
				      right side's grouping, the right rows whose
				      condition keys no left row has are dropped
				      (a magic-set reduction; physical.c) */
	int ncorr;                 /* JOIN dependent: left columns the right reads */
	ColumnId *corr;

	int naggs;                 /* AGGREGATE: aggregate calls (args over the
				      child's ids); outputs after the keys */
	AggCall *aggs;
	int nsets;                 /* grouping sets: nsets masks over the keys
				      (bit k: key k is grouped); 0 = one set */
	uint64_t *sets;
	int ngroupings;            /* grouping() values, columns after the aggs */
	LogicalGrouping *groupings;

	int nspecs;                /* WINDOW: specs and calls as exec's window.c */
	WindowSpec *specs;
	int ncalls;
	WindowCall *calls;

	int nkeys;                 /* SORT keys; DISTINCT ON's order */
	LogicalSortKey *keys;

	Expr *limit, *offset;      /* LIMIT (NULL: none); constant expressions */
	bool with_ties;

	LogicalSetOpKind setop;    /* SETOP */
	bool all;

	int nrows;                 /* VALUES: nrows rows of ncols expressions */
	Expr ***rows;

	int cte_id;                /* CTE, CTE_REF */
	bool materialize;          /* CTE: materialise (else inline); the
				      optimizer's choice */

	int nreturning;            /* writes: RETURNING, over the written row */
	Expr **returning;

	Operator *physical;        /* OPERATOR: the operator it stands for */
};

#define LPLAN_MAX_PASSES 32

typedef struct LogicalPlan {
	Arena *arena;
	ColumnId next_id;          /* ids are 1.. (0 is never a column) */
	int next_cte;
	LogicalOp *root;
	/* the optimizer passes that changed this plan, in order
	 * (optimize/optimizer.h; EXPLAIN (VERBOSE) lists them) */
	int npasses;
	const char *passes[LPLAN_MAX_PASSES];
	/* floe.disabled_optimizers while optimize_plan runs (NULL: none), for
	 * the rules a pass consults (optimizer_disabled) */
	const char *disabled;
} LogicalPlan;

LogicalPlan *lplan_new(Arena *arena);
ColumnId lplan_column(LogicalPlan *plan);
LogicalOp *lop_new(LogicalPlan *plan, LogicalKind kind, int nchildren, ...);
ColumnId lop_add_column(LogicalPlan *plan, LogicalOp *op, SqlType type, const char *name);
void lop_pass_columns(LogicalPlan *plan, LogicalOp *op, const LogicalOp *child);
int lop_find_column(const LogicalOp *op, ColumnId id);
LogicalOp *lop_operator(LogicalPlan *plan, Operator *physical, char *const *names);
void lop_set_exprs(LogicalPlan *plan, LogicalOp *op, int n, Expr **exprs);
const char *lop_kind_name(LogicalKind kind);
Expr *lexpr_by_id(LogicalPlan *plan, const Expr *e, const LogicalOp *in, floe_error *err);

const char *lplan_print(const LogicalPlan *plan, const LogicalOp *op, Arena *arena);
const char *lplan_explain(const LogicalPlan *plan, const LogicalOp *op, bool costs, Arena *arena);
const char *lexpr_print(const Expr *e, Arena *arena);
int lplan_verify(const LogicalPlan *plan, const LogicalOp *op, floe_error *err);

#endif
