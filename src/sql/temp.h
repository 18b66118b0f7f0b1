/*
 * temp.h — temporary tables (CREATE TEMP TABLE): private to one session,
 * in the session's pg_temp schema, gone at session end.
 *
 * Sequences: a temporary sequence's row lives in the same map (never the
 * catalog database: it needs no cross-node uniqueness); one a temporary
 * table's serial column owns goes with the table.  Views: a temporary
 * view (CREATE TEMP VIEW, or a view reading a temporary relation, which
 * PostgreSQL makes temporary) has its metadata file in the scratch folder
 * and its entry in the map.  Both follow the transaction block as tables
 * do: one made in a block goes at ROLLBACK (or ROLLBACK TO a savepoint
 * before it), one dropped in a block is hidden until the block commits
 * (TempBlockMark; temp_catalog.c marks them, temp_txn_end /
 * temp_savepoint_end settle them).
 *
 * Storage: a temporary table is an ordinary Iceberg table (so every scan,
 * DML and transaction path works on it unchanged) whose files live in a
 * per-session scratch folder on local disk ($TMPDIR, never the warehouse)
 * and whose catalog entry lives in a per-session in-memory map, never in
 * the shared catalog.  The map is reached through temp_catalog_wrap: the
 * engine's Catalog is wrapped once at engine_open, and the wrapper sends
 * every call about the namespace "pg_temp_<n>" of the session running on
 * the calling thread (temp_session_enter) to that session's map; any other
 * namespace goes to the real catalog.  Another session's pg_temp_<n> does
 * not exist for a session.  No other engine can see a temporary table.
 *
 * Names: temp_resolve is the hook name resolution calls first: an
 * unqualified name that is one of the session's temporary tables, or a
 * name qualified by "pg_temp", resolves to the session's temp namespace.
 * As in PostgreSQL, it is searched first (shadowing a permanent table)
 * unless search_path names pg_temp, which places it there
 * (search_path.h); a path led by pg_temp makes CREATE TABLE temporary.
 *
 * Transactions: a temporary table created inside a block is dropped when
 * the block rolls back; one dropped inside a block is hidden (renamed out
 * of reach) until the block commits, when it is dropped, or rolls back
 * (or back to a savepoint before the DROP), when it is back as it was;
 * ON COMMIT DELETE ROWS empties the table and ON COMMIT DROP drops it
 * when its transaction ends (temp_txn_end).
 *
 * INTERFACE ROUTINES
 *   temp_catalog_wrap(inner)            the engine's catalog (engine_open)
 *   temp_session_enter(s)               the calling thread runs s
 *   temp_session_free(s)                drop every temporary table of s
 *   temp_sweep_stale()                  remove the scratch folders of dead
 *                                       processes (engine_open)
 *   temp_is_temp_ns(ns)                 "pg_temp" or "pg_temp_<n>"
 *   temp_resolve(s, schema, name)       the hook: temp ns or NULL
 *   temp_has(s, name)                   is name a temporary table,
 *                                       sequence or view of s
 *   temp_view_location(s, a)            where a new temporary view's
 *                                       files go
 *   temp_has_table(s, name)             ... a temporary table of s
 *   temp_namespace(s, err)              s's temp namespace, made now if
 *                                       it was not (NULL: the error)
 *   temp_create_target(s, rv, &ns, &is_temp, &loc, a, err)
 *                                       where CREATE TABLE [AS] puts rv
 *   temp_created(s, name, on_commit, err)   a CREATE of it succeeded
 *   temp_drop(s, name, err)             DROP TABLE of it in a block
 *   temp_txn_end(s, committed)          a transaction ended
 *   temp_savepoint_end(s, k, rollback)  ROLLBACK TO / RELEASE of the block's
 *                                       k-th savepoint (0: the first)
 *   temp_discard(s, err)                drop every temporary table of s
 *   temp_discard_stmt(s, ds, sink, err) DISCARD TEMP | SEQUENCES | PLANS | ALL
 */
#ifndef FLOE_SQL_TEMP_H
#define FLOE_SQL_TEMP_H

#include <stdbool.h>
#include "catalog/catalog.h"
#include "sql/bind.h"

enum { TEMP_ON_COMMIT_PRESERVE, TEMP_ON_COMMIT_DELETE, TEMP_ON_COMMIT_DROP };

/* One temporary table: its catalog entry and what its commit does. */
typedef struct TempTable {
	char *name;
	char *loc;               /* current metadata location */
	int on_commit;           /* TEMP_ON_COMMIT_* */
	bool in_block;           /* created in the open transaction block */
	int sp_depth;            /* ... with that many savepoints open */
	char *dropped;           /* DROP TABLE in the open block: the name it
				    had (name is then a hidden one, listed
				    nowhere), NULL normally */
	int drop_depth;          /* ... with that many savepoints open */
} TempTable;

/* A temporary sequence's or view's part in the open transaction block, as
 * TempTable's fields: made in it (at that savepoint depth), or dropped in
 * it (then name is a hidden one and dropped the name it had). */
typedef struct TempBlockMark {
	bool in_block;
	int sp_depth;
	char *dropped;
	int drop_depth;
} TempBlockMark;

/* One temporary sequence (CREATE TEMP SEQUENCE, a temporary table's
 * serial / identity column): its row, as the catalog keeps a sequence's. */
typedef struct TempSeq {
	char *name;
	CatalogSeq q;            /* q.owned_by malloc'd (or NULL) */
	TempBlockMark mark;
} TempSeq;

/* One temporary view: its metadata file (in the scratch folder). */
typedef struct TempView {
	char *name, *loc;
	TempBlockMark mark;
} TempView;

/* A session's temporary schema (NULL until its first temporary object). */
typedef struct TempState {
	char ns[32];             /* "pg_temp_<n>" */
	char *dir;               /* scratch folder */
	TempTable *tabs;
	int ntabs, cap;
	TempSeq *seqs;
	int nseqs;
	TempView *views;
	int nviews;
} TempState;

Catalog *temp_catalog_wrap(Catalog *inner);
void temp_session_enter(Session *s);
void temp_session_free(Session *s);
void temp_sweep_stale(void);
bool temp_is_temp_ns(const char *ns);
const char *temp_resolve(Session *s, const char *schema, const char *name);
bool temp_has(Session *s, const char *name);
bool temp_has_table(Session *s, const char *name);
const char *temp_view_location(Session *s, Arena *a);
TempView *temp__find_view(TempState *t, const char *name);
void temp__free_views(TempState *t);
TempSeq *temp__find_seq(TempState *t, const char *name);
void temp__free_seqs(TempState *t, const char *owner);
/* temp_catalog.c: a new entry's mark / a DROP in a block (name: hidden) */
void temp__mark_made(TempBlockMark *m);
bool temp__mark_drop(TempBlockMark *m, char **name);
const char *temp_namespace(Session *s, floe_error *err);
int temp_create_target(Session *s, const PgQuery__RangeVar *rv, const char **ns, bool *is_temp,
		       const char **loc, Arena *a, floe_error *err);
int temp_created(Session *s, const char *name, int on_commit, floe_error *err);
int temp_drop(Session *s, const char *name, floe_error *err);
int temp_on_commit(int pg_oncommit, int *out, floe_error *err);
void temp_txn_end(Session *s, bool committed);
void temp_savepoint_end(Session *s, int k, bool rollback);
int temp_discard(Session *s, floe_error *err);
int temp_discard_stmt(Session *s, PgQuery__DiscardStmt *ds, ResultSink *sink, floe_error *err);

/* temp_catalog.c: the state of the session on this thread (NULL: none) */
TempState *temp__current(void);
void temp__set_session(Session *s);

#endif
