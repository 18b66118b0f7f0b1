/*
 * wap.h — the write-audit-publish procedures (wap.c), Spark's:
 *   CALL [system.]cherrypick_snapshot(table, snapshot_id)
 *   CALL [system.]publish_changes(table, wap_id)
 * each one row (source_snapshot_id, current_snapshot_id).  The writes they
 * publish are staged by SET floe.wap_id (write_target.h).
 *
 * INTERFACE ROUTINES
 *   wap_call(s, ctx, sql, f, sink, &handled)   one of the two (handled false: neither)
 *   wap_describe(name, a, &ncols, &names, &types)   their result columns
 */
#ifndef FLOE_SQL_WAP_H
#define FLOE_SQL_WAP_H

#include "sql/bind.h"

int wap_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f, ResultSink *sink,
	     bool *handled);
bool wap_describe(const char *name, Arena *a, int *ncols, char ***names, SqlType **types);

#endif
