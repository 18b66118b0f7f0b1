/*
 * txn.h — transactions: every table read and every commit the SQL layer
 * makes goes through here, so a transaction block can see its own writes
 * and publish them all at COMMIT.
 *
 * Outside a block (autocommit) txn_table_load is table_load and
 * txn_commit is table_commit: each statement is its own snapshot.  Inside
 * a block (BEGIN ... COMMIT) the commits are kept by the session and
 * become visible at COMMIT, one snapshot per table, every table's catalog
 * update at once (see txn.c for the protocol and isolation levels).
 *
 * engine.c calls, around each statement:
 *   txn_before_statement(s, stmt, sink, err)  25P02 in a failed block, and
 *                                            whatever a block does before DDL
 *   txn_after_statement(s, ok)                a failed statement fails the block
 *   txn_retry_statement(s, err, attempt)      true: run the failed statement
 *                                            again (backing off first)
 *   txn_exec(s, ctx, stmt, sink)              BEGIN/COMMIT/ROLLBACK/... statements
 *   txn_implicit_begin(s) / txn_implicit_end(s, ok, err)
 *                                            a multi-statement query's one
 *                                            implicit block (txn.c rule 11)
 *   session_txn_status(s)                     'I', 'T' or 'E' (engine.h)
 *
 * INTERFACE ROUTINES
 *   txn_table_load(s, ns, name, a, &t, err)           the table as this session sees it
 *   txn_commit(s, base, change, a, &t, err)           one statement's change to a table
 *   txn_commit_metadata(s, base, md, a, &t, err)      a schema/property change
 *   txn_session_free(s)                               rolls back an open block
 *   txn_retry_count(s)                                commit/statement retries so far
 *   txn_commit_failed(s, change, err)                 keep or delete files after a failure
 *   txn_table_pinned(s, ns, name)                     the block's view of the table is fixed
 *   txn_statement_locks(s)                            the running statement is a block's
 *                                                     SELECT ... FOR UPDATE/SHARE (it reads
 *                                                     committed rows only: no buffer overlay)
 *   txn_forget_table(s, ns, name)                     the block's state of a table it
 *                                                     dropped goes (a temporary one:
 *                                                     temp_drop), savepoints keep theirs
 */
#ifndef FLOE_TXN_H
#define FLOE_TXN_H

#include "sql/bind.h"
#include "table/table.h"

int txn_table_load(Session *s, const char *ns, const char *name, Arena *a, Table **out,
		   floe_error *err);
int txn_commit(Session *s, Table *base, const TableChange *ch, Arena *a, Table **out,
	       floe_error *err);
int txn_commit_metadata(Session *s, const Table *base, TableMetadata *md, Arena *a, Table **out,
			floe_error *err);

/* A SELECT ... FOR UPDATE/SHARE in a block: the plan's key columns are
 * recorded as the block's row locks and taken off its output (engine.c,
 * after select_plan). */
int txn_lock_plan(Session *s, ExecCtx *ctx, SelectPlan *p);
/* The FOR UPDATE / SHARE clauses txn_before_statement took off sel, the
 * SELECT about to run (acl.c checks what they lock); handed over once,
 * false when sel had none. */
bool txn_take_locking(Session *s, const PgQuery__SelectStmt *sel, Node ***clauses, size_t *n);
int txn_before_statement(Session *s, Node *stmt, ResultSink *sink, floe_error *err);
void txn_after_statement(Session *s, bool ok);
/* set_config(name, value, true): undo `name` at the block's end, or at the
 * running statement's end outside a block (0A000 for a second name there) */
int txn_set_config_local(Session *s, const char *name, floe_error *err);
bool txn_retry_statement(Session *s, const floe_error *err, int attempt);
int txn_exec(Session *s, ExecCtx *ctx, PgQuery__TransactionStmt *ts, ResultSink *sink);
void txn_session_free(Session *s);
/* Rule 11 (txn.c): before a statement of a multi-statement query, a block
 * if none is open; after its last statement (or the first failed one,
 * ok = false), commit or roll back that block if it is still the implicit
 * one.  txn_in_implicit_block: the open block is such a one. */
void txn_implicit_begin(Session *s);
int txn_implicit_end(Session *s, bool ok, floe_error *err);
bool txn_in_implicit_block(Session *s);
/* The savepoints open in the block (0 outside one), for temp.c. */
int txn_savepoint_depth(Session *s);
/* Conflict retries this session made (COMMIT re-stages and re-run
 * autocommit statements), for bench/ and tests. */
long txn_retry_count(Session *s);
/* The one rule for a statement's files after its txn_commit(ch) failed
 * with err.  true: the outcome is unknown (08006: the catalog connection
 * broke and the swap may have landed: table_commit_outcome); ch's added
 * files are listed in <warehouse>/orphan-candidates ("<job>\t<path>") and
 * the caller must delete none of the files it wrote.  false: the commit
 * did not land; the caller removes its files. */
bool txn_commit_failed(Session *s, const TableChange *ch, const floe_error *err);
/* In a block, the table's view is fixed (written by the block, or read
 * under REPEATABLE READ / SERIALIZABLE): the insert buffer adds no rows. */
bool txn_table_pinned(Session *s, const char *ns, const char *name);
bool txn_statement_locks(Session *s);
void txn_forget_table(Session *s, const char *ns, const char *name);
/* Sleep base_ms doubled per attempt (capped at 16 x), plus up to 50% jitter. */
void txn_backoff(long base_ms, int attempt);

#endif
