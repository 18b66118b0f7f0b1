/*
 * engine.h — floe as a library: open a warehouse, run SQL in a session,
 * receive results through a sink.  The shell (main/), the SQL test runner
 * (tests/tools/sqltest.c) and later the pgwire server all use only this.
 *
 * An Engine owns the warehouse: its FileIO, its Catalog, the metadata
 * cache.  A Session holds per-connection settings (search_path, TimeZone,
 * ...).
 *
 * Threads: one Engine serves sessions on many threads at once (floe serve
 * runs a thread per connection with no lock around statements); a Session
 * must be used by one thread at a time.  Each entry point installs the
 * session's thread-global state (time zone, statement time) on the calling
 * thread, so several sessions may also share one thread in turn.
 *
 * session_exec runs every statement of `sql` in order, reporting each
 * result to the sink; it stops at the first error, which it returns
 * (FLOE_ERR with err filled, err->position relative to `sql`).
 *
 * Sink protocol for one statement:
 *   [ columns(ncols, names, types)  batch(b)*  ]  complete(tag)
 * `columns` and `batch` come only for statements that return rows
 * (SELECT, VALUES, ... RETURNING).  A Batch passed to `batch` is valid only
 * during the call; values are rendered with value_to_text() (types/text.h)
 * or read from the vectors.  `tag` is PostgreSQL's command tag
 * ("SELECT 3", "INSERT 0 5", "CREATE TABLE").  Any sink callback returning
 * non-zero cancels the statement.
 *
 * INTERFACE ROUTINES
 *   engine_open(&engine, config, err) / engine_close(engine)
 *   session_new(engine) / session_free(session)
 *   session_exec(session, sql, sink, err)
 *   session_set_cancel_flag(session, flag)   a flag (e.g. set by a SIGINT
 *                                            handler) that cancels the running
 *                                            statement with 57014 when non-zero
 *   engine_list_tables / engine_describe_table   (for the shell's \d)
 */
#ifndef FLOE_ENGINE_H
#define FLOE_ENGINE_H

#include "common/error.h"
#include "types/vector.h"

typedef struct Engine Engine;
typedef struct Session Session;

typedef struct EngineConfig {
	const char *warehouse;     /* folder (created if missing) or s3:// prefix */
	const char *catalog_name;  /* default "floe" */
	/* catalog choice (txn.c's owner): a PostgreSQL catalog's libpq
	 * conninfo or postgresql:// URI; NULL: $FLOE_CATALOG, else the first
	 * line of <warehouse>/catalog-uri, else SQLite <warehouse>/catalog.db */
	const char *catalog_uri;
	/* an s3:// warehouse (sql/warehouse.h): the local state folder (NULL:
	 * the default) and the Iceberg file-io properties, "key=value" */
	const char *state_dir;
	char *const *fileio_props;
	int nfileio_props;
} EngineConfig;

typedef struct ResultSink {
	void *ctx;
	int (*columns)(void *ctx, int ncols, const char *const *names, const SqlType *types);
	int (*batch)(void *ctx, const Batch *b);
	int (*complete)(void *ctx, const char *tag);
	void (*notice)(void *ctx, const floe_error *notice);
	/* COPY (sql/copy.c).  NULL callbacks: the embedder cannot do COPY TO
	 * STDOUT / FROM STDIN and such a COPY fails with 0A000.
	 * COPY TO STDOUT:  copy_out_begin(ncols)  copy_out_data(bytes)*
	 *                  copy_out_end  complete("COPY n")
	 *   data is text or CSV, whole rows per call, each ending in '\n'.
	 * COPY FROM STDIN: copy_in_begin(ncols)  copy_in_read(...)* until *len
	 *   is 0 (end of data) or it fails (FLOE_ERR, err filled: e.g. 57014
	 *   "COPY from stdin failed: ..." for a client's CopyFail); the engine
	 *   may stop reading early on a bad row (the embedder then discards
	 *   the rest of the client's data).  complete("COPY n") on success. */
	int (*copy_out_begin)(void *ctx, int ncols);
	int (*copy_out_data)(void *ctx, const char *data, size_t len);
	int (*copy_out_end)(void *ctx);
	int (*copy_in_begin)(void *ctx, int ncols);
	int (*copy_in_read)(void *ctx, char *buf, size_t cap, size_t *len, floe_error *err);
} ResultSink;

/* One row of engine_list_tables / one column of engine_describe_table. */
typedef struct TableInfo {
	char *schema;
	char *name;
} TableInfo;

typedef struct ColumnInfo {
	char *name;
	SqlType type;
	bool not_null;
	char *default_sql;
} ColumnInfo;

int engine_open(Engine **out, const EngineConfig *config, floe_error *err);
void engine_close(Engine *engine);
/* Start the engine's background work (the insert buffer's flush thread,
 * ingest/ingest.h); floe serve calls it, the shell does not (it flushes
 * at engine_close).  engine_close stops it. */
int engine_start_background(Engine *engine, floe_error *err);
Session *session_new(Engine *engine);
void session_free(Session *session);
int session_exec(Session *session, const char *sql, ResultSink *sink, floe_error *err);
void session_set_cancel_flag(Session *session, volatile int *flag);

int engine_list_tables(Session *session, Arena *arena, TableInfo **tables, int *n,
		       floe_error *err);
int engine_describe_table(Session *session, const char *name, Arena *arena,
			  ColumnInfo **cols, int *n, floe_error *err);

/* The write turn of table key "schema.table" (engine.c: this process's
 * autocommit writers of one table queue for it), for the engine's own
 * writers: the insert buffer's compaction takes it so that no autocommit
 * UPDATE/DELETE/MERGE of this process reads a file it replaces.  Cancelled
 * by *s->cancel_flag (57014).  give(NULL) does nothing. */
typedef struct WriteTurn WriteTurn;
int engine_write_turn_take(Session *s, const char *key, WriteTurn **out, floe_error *err);
void engine_write_turn_give(Session *s, WriteTurn *t);

/* ---- pgwire support: parameters and Describe (server/) --------------------
 *
 * session_exec_params runs `sql` like session_exec with $1..$nparams bound:
 * values[i] is the text of $i+1 (NULL = SQL NULL); param_oids[i] (or
 * param_oids == NULL) is its declared PostgreSQL type OID, 0 = unspecified.
 * An unspecified parameter is an unknown-typed literal (like '...': the
 * context types it); a declared one is parsed as that type (value_from_text
 * errors, e.g. 22P02).  $n beyond nparams is 42P02.
 *
 * session_describe parses `sql` (at most one statement: 42601 otherwise) and,
 * for a row-returning statement, plans it without running it to report the
 * result columns; parameters bind as NULL of their declared type (unknown
 * when unspecified), so `SELECT $1` reports text as PostgreSQL does.  For
 * INSERT ... VALUES it makes Parse's checks of the parameters assigned to
 * columns: 42804 (no assignment cast from the declared type), 42P08 (an
 * unspecified one deduced as two types).
 */
typedef struct SqlDescription {
	int nstmts;            /* 0: empty query */
	int ncols;             /* -1: the statement returns no rows */
	char **names;          /* in the caller's arena */
	SqlType *types;
	/* the type each parameter's context gives it (PostgreSQL's parameter
	 * type inference), TYPE_NULL where none does (reported as text);
	 * nparams entries, NULL when nparams is 0 */
	int nparams;
	SqlType *param_types;
} SqlDescription;

int session_exec_params(Session *session, const char *sql, int nparams,
			const char *const *values, const uint32_t *param_oids,
			ResultSink *sink, floe_error *err);
int session_describe(Session *session, const char *sql, int nparams,
		     const uint32_t *param_oids, Arena *arena, SqlDescription *out,
		     floe_error *err);
/* The current value of a setting (SET / SHOW name, lower case), or NULL
 * when it was never set and has no default. */
const char *session_setting(Session *session, const char *name);
/* A duration setting's text (statement_timeout: "50ms", "1min", "300")
 * in microseconds; 0 for none. */
int64_t engine_duration_us(const char *value);
/* What SHOW name prints (any case; PostgreSQL's default for a setting floe
 * leaves alone, integers with their unit), in buf or static text; NULL for
 * a name PostgreSQL does not know. */
const char *session_show(Session *session, const char *name, char *buf, size_t cap);

/* ReadyForQuery's transaction status: 'I' idle (autocommit), 'T' in a
 * transaction block, 'E' in a failed block (statements refused with 25P02
 * until ROLLBACK).  Implemented in txn.c. */
char session_txn_status(Session *session);

/* The role and database a client logged in as (current_user,
 * current_database(), pg_catalog); NULL keeps floe's defaults. */
void session_set_identity(Session *session, const char *user, const char *database);
/* SET TimeZone = name for the session (the startup packet's TimeZone);
 * 22023 for an unknown zone.  Also installs it on the calling thread. */
int session_set_timezone(Session *session, const char *name, floe_error *err);
/* The SqlType of a PostgreSQL type OID floe supports; FLOE_ERR (0A000) for
 * others.  OID 0 and 705 (unknown) are not types: FLOE_ERR. */
int engine_type_from_pg_oid(uint32_t oid, SqlType *out, floe_error *err);

/* Watermarks (sql/watermark.h has the text form): the commits this
 * session published since the last take, as text in buf (cap bytes);
 * returns its length (0: none; -1: it did not fit, buf cut); the notes are
 * cleared; nothing is recorded until session_track_watermark turned it on
 * for the session.  session_await_watermark waits up to timeout_ms until every
 * table the watermark names is at its sequence number or later; 55000 when
 * the time runs out, 22023 for a malformed watermark, 42P01 for a table
 * that is gone. */
void session_track_watermark(Session *session);
int session_take_watermark(Session *session, char *buf, size_t cap);
int session_await_watermark(Session *session, const char *watermark, int timeout_ms,
			    floe_error *err);

#endif
