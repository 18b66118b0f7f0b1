/*
 * ingest.h — the insert buffer in front of Iceberg (docs/ingest.md): what
 * the SQL layer calls.  buffer.h is the durable log, rowcodec.h the entry
 * bytes; this file's ingest.c decides what is buffered, checks it, flushes
 * it and overlays it on reads.
 *
 * What is buffered: an autocommit INSERT ... VALUES (or DEFAULT VALUES) of
 * at most floe.insert_buffer_rows rows (default 5000; 0: off) without ON
 * CONFLICT, RETURNING, WITH or OVERWRITE, into a table without nested
 * columns (with a PRIMARY KEY: the rocksdb backend on a local warehouse,
 * keyindex.c's design).  Its rows are coerced and NOT NULL (23502) and
 * key (23505) checked, then appended to the log with an fsync; the INSERT
 * is acknowledged after that.
 *
 * The flush: every table's buffered rows become ONE Iceberg append commit
 * (insert_write_rows_seq: files sized and partitioned like any INSERT's)
 * whose snapshot summary records "floe.ingest-seq" (the highest sequence
 * in it) and "floe.job-id".  A table's recorded sequence is the highest
 * floe.ingest-seq of its snapshots; entries at or below it are committed
 * already (a crash between the commit and the log's discard) and are
 * dropped, never committed twice.  Flushes of one table are serial (its
 * ingest lock).
 *
 * Who flushes: floe serve's flush thread (ingest_start_flusher: every 2 s,
 * a table whose oldest row is floe.insert_buffer_max_staleness old or that
 * holds 64 MB), engine close (the shell at exit), FLUSH INSERT BUFFER, and
 * any statement that must see a table's rows committed (ingest_before_stmt:
 * UPDATE, DELETE, MERGE, TRUNCATE, ALTER TABLE, INSERT ON CONFLICT /
 * OVERWRITE, t$snapshots and time travel).  DROP TABLE discards the table's entries.  A table whose flush
 * failed floe.insert_buffer_max_retries times in a row is dead-lettered.
 *
 * Reads: ingest_overlay_load + ingest_overlay_op add a table's buffered
 * rows as a second scan source (unless read_consistency = 'committed').
 *
 * Processes: the buffer's owner is the first process to open it; another
 * process (a shell beside floe serve) is a reader (buffer.h): it sees the
 * owner's buffered rows in its reads, writes by the direct path, and gets
 * 55006 for a statement that would need the owner's rows flushed.
 *
 * INTERFACE ROUTINES
 *   ingest_engine_open(e, err) / ingest_engine_close(e)   (engine.c); the
 *       buffer's backend is $FLOE_INSERT_BUFFER_BACKEND: rocksdb (default;
 *       postgres for an S3 warehouse with a PostgreSQL catalog) or postgres (the PostgreSQL catalog's database; 0A000 with another
 *       catalog, 22023 for another name)
 *   ingest_start_flusher(e)                          (floe serve)
 *   ingest_is_setting(name), ingest_canon_setting(name, value, out, cap, err),
 *   ingest_setting_default(name)                     (engine.c's SET / SHOW)
 *   ingest_skip_turn(s, sql, st)                     a buffered INSERT takes no write turn
 *   ingest_try_insert(s, ctx, sql, is, t, sink, &done)   (insert.c)
 *   ingest_before_stmt(s, sql, st, err) / ingest_after_stmt(s, st, ok)   (engine.c)
 *   ingest_utility(s, sql, sink, err, &rc)           SHOW INSERT BUFFER STATUS,
 *                                                    FLUSH INSERT BUFFER [t], ...
 *   ingest_fast_insert(s, sql, sink, err, &rc)       a buffered INSERT ... VALUES of
 *        literals and bind parameters (fastvalues.h; the values of $n are the
 *        session's, session_exec_params) without libpg_query or the binder;
 *        false: not handled, nothing done (the full path decides, with
 *        PostgreSQL's errors)
 *   ingest_overlay_load(s, ns, name, &t, a, &ov, err) / ingest_overlay_op(...)   (select.c)
 *   ingest_before_metatable(s, rv, err)              t$snapshots / time travel
 *   ingest_before_pin(s, ns, name, err)              (txn.c) a REPEATABLE READ block's
 *        first read of a table: its buffered rows are flushed first
 *   ingest_key_guard(s, base, add, nadd, rewrites, retry, &g, err) /
 *   ingest_key_guard_release(g)                    (txn.c) around a direct-path
 *        commit of a keyed table: its key lock, and 23505 (40001: retry, or
 *        rewrites) for an added key that is buffered (keyindex.c's design)
 *   ingest_pin_generation(e, &gen)                 (snapshot_pin.c) false: no snapshot
 *        pins (a buffer another process owns, or shared by nodes); *gen counts the
 *        flushes of this process (a pin from before one is stale)
 *   ingest_only_flushes(s, pinned, a)                (txn.c) true: every snapshot since
 *        pinned's is a flush of the buffer (rows appended by INSERT ... VALUES)
 */
#ifndef FLOE_INGEST_H
#define FLOE_INGEST_H

#include "sql/bind.h"

struct Table;
struct DataFile;
typedef struct IngestOverlay IngestOverlay;

int ingest_engine_open(Engine *e, floe_error *err);
void ingest_engine_close(Engine *e);
int ingest_start_flusher(Engine *e, floe_error *err);

bool ingest_is_setting(const char *name);
int ingest_canon_setting(const char *name, const char *value, char *out, size_t cap,
			 floe_error *err);
const char *ingest_setting_default(const char *name);

bool ingest_skip_turn(Session *s, const char *sql, const SqlStmt *st);
int ingest_try_insert(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is,
		      struct Table *t, ResultSink *sink, bool *done);
int ingest_before_stmt(Session *s, const char *sql, const SqlStmt *st, floe_error *err);
void ingest_after_stmt(Session *s, const SqlStmt *st, bool ok);
bool ingest_utility(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc);
bool ingest_fast_insert(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc);

int ingest_overlay_load(Session *s, const char *ns, const char *name, struct Table **t, Arena *a,
			IngestOverlay **ov, floe_error *err);
Operator *ingest_overlay_op(ExecCtx *ctx, IngestOverlay *ov, Operator *scan, int nproj,
			    const int *proj, const SqlType *types);
int ingest_before_metatable(Session *s, PgQuery__RangeVar *rv, floe_error *err);
int ingest_before_pin(Session *s, const char *ns, const char *name, floe_error *err);
typedef struct IngestKeyGuard IngestKeyGuard;
int ingest_key_guard(Session *s, const struct Table *base, const struct DataFile *add, int nadd,
		     bool rewrites, bool retry, IngestKeyGuard **g, floe_error *err);
void ingest_key_guard_release(IngestKeyGuard *g);
bool ingest_only_flushes(Session *s, const struct Table *pinned, Arena *a);
bool ingest_pin_generation(Engine *e, uint64_t *gen);

#endif
