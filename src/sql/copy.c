/*
 * copy.c — COPY: table or query rows to a client or file, and rows from a
 * client or file into a table.
 *
 * Not implemented yet: every COPY fails with 0A000.
 *
 * INTERFACE ROUTINES (bind.h)
 *   copy_exec
 */
#include "sql/bind.h"

int
copy_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink)
{
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "COPY is not supported yet");
}
