/*
 * refs.h — branches and tags (refs.c): Spark's DDL
 *   ALTER TABLE t CREATE [OR REPLACE] BRANCH [IF NOT EXISTS] b
 *       [AS OF VERSION n] [RETAIN n DAYS|HOURS|MINUTES]
 *       [WITH SNAPSHOT RETENTION [n SNAPSHOTS] [n DAYS|HOURS|MINUTES]]
 *   ALTER TABLE t REPLACE BRANCH b [AS OF VERSION n] [RETAIN ...] [WITH SNAPSHOT RETENTION ...]
 *   ALTER TABLE t CREATE [OR REPLACE] TAG [IF NOT EXISTS] v [AS OF VERSION n] [RETAIN ...]
 *   ALTER TABLE t REPLACE TAG v [AS OF VERSION n] [RETAIN ...]
 *   ALTER TABLE t DROP BRANCH|TAG [IF EXISTS] name
 * and the procedure CALL [system.]fast_forward(table, branch, to).
 *
 * INTERFACE ROUTINES
 *   refs_is_cmd(cmd)                          parse.c's stand-in RESET(f$r)?
 *   refs_alter(s, ctx, sql, alterstmt, sink)  the statement above
 *   refs_call(s, ctx, sql, callstmt, sink, &handled)   fast_forward
 *   refs_is_ancestor(md, of, id)              is snapshot id `of` or an ancestor of it?
 *   refs_move_main(md, id, a)                 current-snapshot-id := id, a snapshot-log entry
 *                                             (the caller sets refs.main)
 */
#ifndef FLOE_SQL_REFS_H
#define FLOE_SQL_REFS_H

#include "sql/bind.h"
#include "table/metadata.h"

bool refs_is_cmd(PgQuery__AlterTableCmd *c);
int refs_alter(Session *s, ExecCtx *ctx, const char *sql, PgQuery__AlterTableStmt *as,
	       ResultSink *sink);
int refs_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink,
	      bool *handled);

bool refs_is_ancestor(const TableMetadata *md, int64_t of, int64_t id);
void refs_move_main(TableMetadata *md, int64_t id, Arena *a);

#endif
