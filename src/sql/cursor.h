/*
 * cursor.h — SQL cursors (cursor.c): DECLARE, FETCH, MOVE, CLOSE and the
 * rows of pg_cursors, with PostgreSQL 15's semantics.
 *
 * INTERFACE ROUTINES
 *   cursor_declare(s, ctx, sql, st, ds, sink)   DECLARE name ... CURSOR ... FOR query
 *   cursor_fetch(s, ctx, fs, sink)              FETCH / MOVE [direction] [FROM|IN] name
 *   cursor_close(s, cs, sink, err)              CLOSE name | ALL
 *   cursor_describe(s, st, a, &ncols, &names, &types)
 *                                               a FETCH's result columns (pgwire Describe)
 *   cursor_txn_commit(s, err)                   before a block's COMMIT: a WITH HOLD
 *                                               cursor of the block reads its rows
 *   cursor_txn_end(s, committed)                after COMMIT / ROLLBACK: the block's
 *                                               cursors close (held ones survive a commit)
 *   cursor_catalog_rows(s, r, a)                the session's rows of pg_cursors
 *   cursor_session_free(s)
 */
#ifndef FLOE_CURSOR_H
#define FLOE_CURSOR_H

#include "sql/bind.h"
#include "sql/constrel.h"

int cursor_declare(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
		   PgQuery__DeclareCursorStmt *ds, ResultSink *sink);
int cursor_fetch(Session *s, ExecCtx *ctx, PgQuery__FetchStmt *fs, ResultSink *sink);
int cursor_close(Session *s, PgQuery__ClosePortalStmt *cs, ResultSink *sink, floe_error *err);
bool cursor_describe(Session *s, const SqlStmt *st, Arena *a, int *ncols, char ***names,
		     SqlType **types);
int cursor_txn_commit(Session *s, floe_error *err);
void cursor_txn_end(Session *s, bool committed);
int cursor_catalog_rows(Session *s, ConstRel *r, Arena *a);
void cursor_session_free(Session *s);

#endif
