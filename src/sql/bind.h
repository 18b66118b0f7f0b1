/*
 * bind.h — folder-private interface of sql/: name resolution, typing and
 * planning of statements into Operator trees.
 *
 *   bind_expr.c   parse-tree expressions -> Expr (types, casts, functions)
 *   select.c      SELECT / VALUES -> Operator tree with output names
 *   engine.c      the Engine and Session, statement dispatch, SET/SHOW, CALL
 *   ddl.c         CREATE/ALTER/DROP of schemas and tables, table properties
 *   insert.c      INSERT [OVERWRITE] [RETURNING], CREATE TABLE AS
 *
 * A Scope is the set of columns an expression may reference: the FROM
 * item's columns, each with the relation name it belongs to.
 */
#ifndef FLOE_SQL_BIND_H
#define FLOE_SQL_BIND_H

#include "catalog/catalog.h"
#include "exec/exec.h"
#include "sql/engine.h"
#include "sql/parse.h"
#include "sql/search_path.h"
#include "storage/fileio.h"
#include "table/iceberg.h"

/* Shared by every session (server threads run statements concurrently):
 * warehouse and catalog never change after engine_open (the catalog is
 * thread-safe: catalog.h); io is replaced, never modified, when CALL
 * register_table adds a path map (an atomic pointer; old ones are kept
 * until engine_close, so a statement's FileIO stays valid). */
struct Engine {
	char *warehouse;
	FileIO *_Atomic io;
	Catalog *catalog;
	struct EngineShared *shared;   /* engine.c's lock and retired FileIOs */
	struct Ingest *ingest;         /* the insert buffer (ingest/ingest.h) */
	struct AutoMaint *automaint;   /* floe serve's maintenance pass (automaint.h) */
	char *catalog_conninfo;        /* a PostgreSQL catalog's conninfo, else NULL */
	struct SeqCache *seq_cache;    /* sequence.c's per-node cached values */
	/* storage (sql/warehouse.h): the FileIO root (the warehouse folder,
	 * or an s3:// prefix while `warehouse` is then the local state
	 * folder) and the "key=value" file-io properties */
	char *root;
	char **io_props;
	int nio_props;
};

struct Session {
	Engine *engine;
	/* search_path (search_path.h): its text is a setting; sp caches the
	 * list it resolves to; sp_fixed (NULL normally) replaces the list */
	struct SearchPath *sp;
	const char *sp_fixed;
	volatile int cancel;
	volatile int *cancel_flag;   /* &cancel unless the embedder gave one */
	char *settings_keys[32];
	char *settings_values[32];
	int nsettings;
	/* $n parameters of the running statement (session_exec_params);
	 * describing: values unknown, every $n binds as a typed NULL */
	int nparams;
	const char *const *param_values;
	const uint32_t *param_oids;
	bool params_describe;
	/* describing: the type each $n's context gave it (bind_coerce), TYPE_NULL
	 * while unknown; nparam_inferred entries (0: not collecting) */
	SqlType *param_inferred;
	int nparam_inferred;
	struct Txn *txn;          /* txn.c's state; NULL when none */
	char *user;               /* the login role and database (NULL: floe's defaults) */
	char *database;
	const struct Zone *tz;    /* TimeZone (datetime.h DatetimeZone; NULL: UTC),
				     installed on the thread at statement start */
	/* session_exec's parse and statement arenas, reset (not freed) after
	 * each use so a statement does not map and unmap them (engine.c);
	 * NULL until first used; exec_busy: in use (a nested call makes its own) */
	Arena *exec_parse_arena, *exec_stmt_arena;
	bool exec_busy;
	struct SeqSession *seq;   /* sequence.c: currval / lastval */
	struct PrepState *prep;   /* prepare.c: PREPAREd statements */
	struct CursorState *cursors;   /* cursor.c: open cursors */
	struct WatermarkNotes *wm;   /* commits not yet taken (watermark.c) */
	struct PinCache *pins;    /* floe.snapshot_mode = 'pinned' (snapshot_pin.h) */
	/* the running top-level session_exec's sink, notices filtered by
	 * client_min_messages (sql/client_messages.h); NULL outside one */
	ResultSink *msg_sink;
	struct TempState *temp;   /* temp.c: temporary tables (NULL: none yet) */
	struct FuncState *funcs;  /* function.c: the SQL functions (NULL: not loaded) */
};

/* engine.c: SET name = 'value' (value NULL: RESET) as exec_set does it,
 * notices to sink (NULL: none), no command tag (sql/set_config.c) */
int session_set_value(Session *s, const char *name, const char *value, ResultSink *sink,
		      floe_error *err);

typedef struct Scope {
	int ncols;
	char **names;
	SqlType *types;
	char **nested;            /* NULL, or per column the Iceberg type of a
				     nested column floe cannot read yet */
	char *relname;            /* the FROM item's name or alias, or NULL */
	/* joins (select.c): per column, the relation it belongs to (NULL: a
	 * USING/NATURAL merged column) and whether it is hidden from
	 * unqualified references and from "*" (a USING column of one side);
	 * relnames NULL: every column belongs to relname */
	char **relnames;
	bool *hidden;
	/* NULL, or per column: set when a correlated subquery planned with
	 * this scope as its parameters (select_plan_correlated) reads it */
	bool *param_used;
} Scope;

static inline const char *
scope_relname(const Scope *s, int i)
{
	return s->relnames ? s->relnames[i] : s->relname;
}

typedef struct BindCtx {
	Session *session;
	Arena *arena;
	floe_error *err;
	bool identity_default;    /* binding an identity column's DEFAULT: its
				     nextval checks no sequence privilege
				     (bind_default_expr) */
	const char *sql;          /* for positions */
	Scope *scope;             /* NULL: no columns visible */
	struct Expr *domain_value; /* binding a domain's CHECK for a cast: VALUE (usertype.h) */
	const char *where;        /* "WHERE", "VALUES", ... for aggregate errors */
	/* aggregates collected while binding targets / HAVING / ORDER BY */
	bool allow_aggs;
	bool in_agg;
	AggCall *aggs;
	int naggs, cap_aggs;
	/* select.c: the enclosing query (subqueries: CTE lookup, correlation
	 * errors), the executor context for running uncorrelated subqueries
	 * (NULL: subqueries unsupported here) and this query's WITH */
	struct BindCtx *parent;
	ExecCtx *exec;
	PgQuery__WithClause *with;
	/* decorrelation (select.c): a column not in scope but in corr_scope
	 * binds as column corr_base + its index there (NULL: off) */
	Scope *corr_scope;
	int corr_base;
	/* select.c: every column name the statement mentions, for scan
	 * projection (NULL: read every column) */
	struct UsedNames *used;
	/* bind_location's map of sql's byte offsets to character positions
	 * (built at its first use, shared by the contexts below this one) */
	struct BindPos *pos;
	/* bind_env's SessionEnv when exec carries none (made at first use) */
	const struct SessionEnv *env;
	/* select.c: the logical plan of the query level being bound (plan/
	 * logical.h), which FROM items and joins are made in; NULL outside one */
	struct LogicalPlan *lp;
	/* select.c plan_marks: the SubLinks of the expression being bound
	 * that a MARK join answers, each read as the boolean scope column
	 * mark_col[i] (bind_sublink); 0 outside such an expression */
	int nmarks;
	const PgQuery__SubLink **mark_sl;
	int *mark_col;
} BindCtx;

/* bind_expr.c */
Expr *bind_expr(BindCtx *b, Node *n);
/* e (already of t's base type) checked against domain t's constraints */
Expr *bind_domain_cast(BindCtx *b, Expr *e, SqlType t);
int bind_type_name(BindCtx *b, PgQuery__TypeName *tn, SqlType *out);
/* coerce e to type `to` in context ctx (COERCE_*), literal folding
 * included; `what` names the target for messages (column name or NULL) */
Expr *bind_coerce(BindCtx *b, Expr *e, SqlType to, int ctx, const char *what);
Expr *bind_coerce_bool(BindCtx *b, Expr *e, const char *clause);
/* PostgreSQL's common-type resolution (UNION/CASE/VALUES/COALESCE) */
int bind_common_type(BindCtx *b, Expr **es, int n, const char *construct, SqlType *out);
const char *bind_colname(Node *n);   /* FigureColname */
int bind_fold(BindCtx *b, Expr **e); /* constant folding of a subtree */
/* the statement's session state for evaluating constants while binding:
 * exec's env, else one made from b->session (NULL without a session) */
const struct SessionEnv *bind_env(BindCtx *b);
int bind_location(BindCtx *b, int byte_offset);
/* 57014 when the statement was cancelled (CancelRequest, statement_timeout,
 * shutdown: the session's cancel flag); the binder and the planner poll it
 * at every node, as operators do per batch */
int bind_check_cancel(BindCtx *b);
bool bind_is_aggregate_name(const char *name);

/* engine.c: assignment of an expression to a table column (assignment
 * cast; integers into floats must be exact), and a column's DEFAULT (or
 * NULL) as an expression */
Expr *bind_coerce_column(BindCtx *b, Expr *e, const IcebergField *f);
Expr *bind_default_expr(BindCtx *b, const IcebergField *f);
/* PostgreSQL's limit on the columns of a query level or RETURNING list
 * (MaxTupleAttributeNumber): 54011 past it.  It also keeps a result's
 * column count within the wire protocol's int16. */
#define BIND_MAX_COLUMNS 1664
/* ... and on the columns CREATE TABLE [AS] defines (MaxHeapAttributeNumber) */
#define BIND_MAX_TABLE_COLUMNS 1600
/* PostgreSQL's width check of one INSERT row (insert.c): nexpr values for
 * ntarget target columns; cols/ncols the statement's column list (none:
 * missing trailing values take their defaults); exprs the row's parse
 * nodes, for the error position (or NULL).  42601 when they do not fit. */
int insert_check_width(BindCtx *b, int nexpr, int ntarget, Node **cols, size_t ncols, Node **exprs);

/* dml.c: UPDATE, DELETE, TRUNCATE */
/* merge.c: MERGE, and INSERT ... ON CONFLICT (matched against the
 * table's rows like a MERGE) */
int merge_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__MergeStmt *st, ResultSink *sink);
/* EXPLAIN MERGE: bind it as merge_exec would (every privilege it needs
 * checked, 42501), run nothing */
int merge_explain_privileges(Session *s, ExecCtx *ctx, const char *sql, PgQuery__MergeStmt *st);
int merge_insert_explain_privileges(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is);
int merge_insert(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is,
		 ResultSink *sink);
/* optimize.c: compaction, OPTIMIZE t [REWRITE DELETES] (deletes_only;
 * parsed as VACUUM t, see parse.c) and CALL rewrite_data_files /
 * rewrite_position_delete_files('[schema.]name'); one "replace" snapshot;
 * ns NULL: search_path */
struct Table;
bool optimize_same_partition(const DataFile *x, const DataFile *y);
int optimize_rewrite_files(Session *s, ExecCtx *ctx, struct Table *t, DataFile *files, int n,
			   DataFile **out, int *nout);
/* A rewrite's change so far: the files it added and the paths it removes
 * (remove: room for every candidate, the caller's).  optimize_rewrite_group
 * rewrites g[0..ng) (optimize_rewrite_files) into rs; on a failure it
 * removes every file rs added and returns FLOE_ERR (ctx->err set).
 * optimize_remove_added removes rs's added files (a commit that failed). */
typedef struct RewriteSet {
	DataFile *add;
	int nadd, capadd;
	const char **remove;
	int nremove;
} RewriteSet;
int optimize_rewrite_group(Session *s, ExecCtx *ctx, struct Table *t, DataFile *g, int ng,
			   RewriteSet *rs);
void optimize_remove_added(Session *s, const RewriteSet *rs);
int optimize_exec(Session *s, ExecCtx *ctx, const char *ns, const char *name, bool deletes_only,
		  const char *tag, ResultSink *sink);
int optimize_stmt(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
		  PgQuery__VacuumStmt *vs, ResultSink *sink);
int optimize_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink);
/* metatables.c: CALL rollback_to_snapshot / set_current_snapshot / rollback_to_timestamp */
int metatable_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs,
		   ResultSink *sink);
bool optimize_describe(const char *sql, const SqlStmt *st, Arena *a, int *ncols, char ***names,
		       SqlType **types);

/* RETURNING (dml.c): bound over a table's columns, rows evaluated as they
 * are written and kept in ctx->arena, sent only after the commit. */
typedef struct Returning {
	int n;                    /* 0: no RETURNING */
	Expr **exprs;             /* over the schema's fields (column i = field i) */
	char **names;
	SqlType *types;
	Batch **batches;
	int nbatches, cap_batches;
} Returning;

int dml_returning_bind(Returning *r, BindCtx *b, const IcebergSchema *schema, const char *relname,
		       Node **list, int n);
int dml_returning_rows(Returning *r, ExecCtx *ctx, const Batch *b, const uint32_t *sel, uint32_t n,
		       Arena *scratch);
int dml_returning_send(Returning *r, ExecCtx *ctx, ResultSink *sink);
/* The columns of a RETURNING statement (INSERT/UPDATE/DELETE) without
 * running it; *ncols = -1 when it returns no rows. */
int dml_describe(Session *s, ExecCtx *ctx, const char *sql, Node *stmt, int *ncols, char ***names,
		 SqlType **types);
/* EXPLAIN of an INSERT / UPDATE / DELETE / MERGE: the privileges it needs
 * on its target (42501), checked as the statement checks them (dml.c) */
int dml_explain_privileges(Session *s, ExecCtx *ctx, const char *sql, Node *q);

/* engine.c: statement completion (command tag) and NOTICE to the sink */
int engine_complete(ResultSink *sink, const char *tag);
void engine_notice(ResultSink *sink, const char *fmt, const char *arg);

/* ddl.c */
const char *ddl_rv_ns(Session *s, PgQuery__RangeVar *rv);   /* schema of a name */
/* the schema a CREATE puts rv in; NULL: 3F000 (an empty search_path) */
const char *ddl_create_ns(Session *s, PgQuery__RangeVar *rv, floe_error *err);
int ddl_check_namespace(Session *s, const char *ns, floe_error *err);   /* 3F000 */
int ddl_create_schema(Session *s, PgQuery__CreateSchemaStmt *cs, ResultSink *sink, floe_error *err);
/* USING am of CREATE TABLE [AS]: none or iceberg, else 0A000 naming it */
int ddl_check_access_method(const char *am, floe_error *err);
int ddl_check_persistence(const PgQuery__RangeVar *rv, int oncommit, floe_error *err);
/* a constant DEFAULT as SQL text ('v'::type), its value into *val if given */
char *ddl_default_text(BindCtx *b, Node *raw, SqlType type, const char *col, Value *val);
int ddl_check_column_collation(const PgQuery__ColumnDef *cd, floe_error *err);   /* 0A000 */
int ddl_create_table(Session *s, const char *sql, PgQuery__CreateStmt *cs, Arena *a,
		     ResultSink *sink, floe_error *err);
int ddl_drop(Session *s, PgQuery__DropStmt *ds, Arena *a, ResultSink *sink, floe_error *err);
int ddl_alter_table(Session *s, ExecCtx *ctx, const char *sql, PgQuery__AlterTableStmt *as,
		    ResultSink *sink);
/* CREATE TABLE's WITH (...) options -> checked table properties, the last
 * one "format-version" (default 2: table_create's reserved key) */
int ddl_create_options(Session *s, ResultSink *sink, const IcebergSchema *schema, Node **opts,
		       size_t n, Arena *a, const char ***keys, const char ***values, int *nprops,
		       floe_error *err);
struct Table;
/* partitioning: the spec of a PARTITIONED BY / partition field text (ids
 * by position for a new table), a new table's spec from its clause or
 * WITH (partitioning = ...), and a metadata commit of a new default spec */
struct PartitionSpec;
int ddl_partition_spec(const IcebergSchema *schema, bool ids_by_index, const char *text, int len,
		       Arena *a, struct PartitionSpec **out, floe_error *err);
int ddl_set_partitioning(Session *s, struct Table **t, const struct PartitionSpec *spec,
			 const char *sort, Arena *a, floe_error *err);
/* a new table's sort order text (*sort, NULL: none): CREATE TABLE's
 * WRITE ORDERED BY clause or WITH (sort_order | sorted_by = '...') */
int ddl_create_sort_order(const char *sql, int from, Node **opts, size_t nopts, Arena *a,
			  const char **sort, floe_error *err);
int ddl_create_partitioning(const IcebergSchema *schema, const char *sql, int from, Node **opts,
			    size_t nopts, Arena *a, struct PartitionSpec **spec, floe_error *err);

/* alter.c: ALTER TABLE's column forms, RENAME, SET SCHEMA, COMMENT ON */
struct TableMetadata;
bool alter_is_column_cmd(const PgQuery__AlterTableCmd *c);
int alter_columns(Session *s, ExecCtx *ctx, const char *sql, const struct Table *t,
		  struct TableMetadata *md, const PgQuery__AlterTableCmd *c, ResultSink *sink,
		  bool *changed);
int alter_rename(Session *s, ExecCtx *ctx, const char *sql, PgQuery__RenameStmt *rs,
		 ResultSink *sink);
int alter_set_schema(Session *s, ExecCtx *ctx, PgQuery__AlterObjectSchemaStmt *st,
		     ResultSink *sink);
int alter_comment(Session *s, ExecCtx *ctx, PgQuery__CommentStmt *cs, ResultSink *sink);
/* Spark's ALTER COLUMN c COMMENT / FIRST / AFTER and WRITE [UN]ORDERED ...
 * (clause: parse.c's sql_alter_ext_clause) applied to md */
int alter_ext(Session *s, ExecCtx *ctx, const struct Table *t, struct TableMetadata *md,
	      const char *clause, int len, bool *changed);
/* CREATE TABLE's WRITE [LOCALLY] ORDERED BY ... clause, or a sort_order
 * property's items ('c DESC, d'), as md's default sort order */
int alter_create_sort_order(struct TableMetadata *md, const char *text, int len, Arena *a,
			    floe_error *err);

/* dml.c: is name one of the metadata columns (_file, _pos, ...)? */
bool dml_is_meta_col(const char *name);

/* sort_order.c: root sorted by md's default sort order when every field
 * of it can be honoured (*order_id its id), else root (*order_id -1) */
Operator *sort_order_input(ExecCtx *ctx, const struct TableMetadata *md, Operator *root,
			   int32_t *order_id);
/* the keys of that sort (columns of the current schema); false: none */
bool sort_order_keys(Arena *a, const struct TableMetadata *md, SortKey **keys, int *nkeys,
		     int32_t *order_id);

/* insert.c */
int insert_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, bool overwrite,
		ResultSink *sink);
int insert_ctas(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CreateTableAsStmt *cs,
		ResultSink *sink);
/* rows of root into t as one commit (overwrite: removing every live data
 * file); hook (may be NULL) sees each batch after its NOT NULL checks */
int insert_write_rows(Session *s, ExecCtx *ctx, struct Table *t, Operator *root, bool overwrite,
		      int (*hook)(void *, const Batch *), void *hook_arg, int64_t *rows);
/* ... an append recording an insert-buffer flush's highest sequence
 * (TableChange.ingest_seq) and job id (NULL: a fresh one) */
int insert_write_rows_seq(Session *s, ExecCtx *ctx, struct Table *t, Operator *root,
			  uint64_t ingest_seq, const char *job_id, int64_t *rows);
/* 23502 (PostgreSQL's message and row detail) when a row of b has NULL in
 * a required column of schema (b: one column per field, compacted) */
/* PostgreSQL's DETAIL "Failing row contains (...)." of row `row` of b's
 * first ncols columns (< 0: all), into err (insert.c). */
void insert_row_detail(floe_error *err, const Batch *b, int ncols, uint32_t row, Arena *a);
int insert_check_not_null(const IcebergSchema *schema, const char *table, const Batch *b,
			  Arena *a, floe_error *err);

/* insert.c: the rows an INSERT adds (VALUES / SELECT / DEFAULT VALUES),
 * one column per field of t's current schema, coerced, DEFAULTs filled;
 * ON CONFLICT / RETURNING / WITH of `is` are the caller's. */
struct Table;
int insert_source(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is,
		  struct Table *t, Operator **root);
/* insert.c: INSERT's RETURNING columns, for dml_describe */
int insert_describe(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is,
		    Returning *r);

int dml_update(Session *s, ExecCtx *ctx, const char *sql, PgQuery__UpdateStmt *st, ResultSink *sink);
int dml_delete(Session *s, ExecCtx *ctx, const char *sql, PgQuery__DeleteStmt *st, ResultSink *sink);
int dml_truncate(Session *s, ExecCtx *ctx, const char *sql, PgQuery__TruncateStmt *st, ResultSink *sink);

/* copy.c: COPY table/(query) TO / FROM */
int copy_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink);
/* a COPY's target columns: attlist's names (all of schema's fields when
 * n_attlist is 0) as field indexes, with their types and names; 42703 for a
 * name relname lacks, 42701 for one named twice (also copyinto.c) */
int copy_target_columns(const IcebergSchema *schema, Node **attlist, size_t n_attlist, const char *relname,
			Arena *a, int **tcols, int *ncols, SqlType **types, char ***names, floe_error *err);
/* insert.c: write the rows of root (one column per field of t's current
 * schema, in order) into t as one atomic append commit; NOT NULL checked */
struct Table;
int engine_write_rows(Session *s, ExecCtx *ctx, struct Table *t, Operator *root, int64_t *rows);

/* select.c */
typedef struct SelectPlan {
	Operator *root;
	int ncols;
	char **names;
	SqlType *types;
	/* the logical plan root was lowered from (plan/logical.h; its clause
	 * chain over the FROM/WHERE result as an OPERATOR leaf) */
	struct LogicalPlan *lplan;
	struct LogicalOp *lop;
} SelectPlan;

int select_plan(Session *s, ExecCtx *ctx, const char *sql, Node *stmt, SelectPlan *out);
/* function.c: the column names parse tree n mentions count as used by b's
 * statement (scan projection), for a SQL function body expanded into it */
void select_note_used(BindCtx *b, const Node *n);
/* views.c: a view's stored query (text sql, parsed) as a FROM subquery of
 * b's statement: nothing of b's scope, CTEs or positions is visible in it */
int select_plan_subquery(BindCtx *b, ExecCtx *ctx, const char *sql, Node *query, SelectPlan *out);

/* Iceberg metadata tables and time travel (metatables.c).  When the FROM
 * item names one (e.g. t$snapshots, or a table read as of a snapshot),
 * *found = true with its columns and an operator producing its rows. */
int metatable_relation(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, bool *found,
		       int *ncols, char ***names, SqlType **types, Operator **op, floe_error *err);
/* A time-travel read (t FOR VERSION AS OF ...): *found = true with the
 * table, the snapshot to scan, its schema and the table's name. */
int metatable_snapshot(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, bool *found,
		       struct Table **t, int64_t *snapshot_id, const struct IcebergSchema **schema,
		       const char **tname, floe_error *err);
/* The same for parse.c's TABLESAMPLE "floe$tt"(mode, x) (metatables.c). */
int metatable_snapshot_at(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, int mode,
			  const char *text, int64_t us, struct Table **t, int64_t *snapshot_id,
			  const struct IcebergSchema **schema, const char **tname,
			  floe_error *err);

/* pg_catalog and information_schema relations (pgcatalog.c).  When
 * (schema, name) names one (schema NULL: unqualified; pg_catalog is
 * searched before search_path), *found = true with its columns and an
 * operator producing its rows, built from floe's catalog at the call. */
int pgcatalog_relation(Session *s, ExecCtx *ctx, const char *schema, const char *name, Arena *a,
		       bool *found, int *ncols, char ***names, SqlType **types, Operator **op,
		       floe_error *err);
/* Run an uncorrelated subquery of an expression once (b->exec): the
 * values of its first column, at most max_rows of them (-1: all), copied
 * into b->arena; *type and *ncols describe its output. */
int select_run_subquery(BindCtx *b, Node *query, int64_t max_rows, Value **vals,
			int64_t *nrows, SqlType *type, int *ncols);
/* Plan a correlated subquery once with the columns of `outer` as
 * parameters of a new ExecCtx (*rctx), for exec/subplan.c. */
int select_plan_correlated(BindCtx *b, Node *query, Scope *outer, ExecCtx **rctx,
			   SelectPlan *out);
/* Resolve "name" or "schema.name" to (ns, table) with search_path. */
void session_resolve_name(Session *s, PgQuery__RangeVar *rv, const char **ns, const char **name);
/* For bind_expr.c (select.c): a window function call (f->over) -> a
 * reference to its result column, or NULL with 42P20 where windows are not
 * allowed; grouping(args) -> a reference to its per-grouping-set value. */
Expr *select_window_call(BindCtx *b, PgQuery__FuncCall *f);
/* 42883 for a key of type json / json[] (no equality / ordering operator,
 * as PostgreSQL's get_sort_group_operators), at byte_loc (-1: none) */
int select_check_sortable(BindCtx *b, SqlType t, bool ordering, int byte_loc);
Expr *select_grouping_func(BindCtx *b, PgQuery__GroupingFunc *f);

#endif
