/*
 * merge.c — MERGE INTO, and INSERT ... ON CONFLICT, which matches the
 * inserted rows against the table's current rows the way a MERGE does.
 *
 * This slice has neither: both are 0A000.
 *
 * INTERFACE ROUTINES (bind.h)
 *   merge_exec(s, ctx, sql, stmt, sink)
 *   merge_insert(s, ctx, sql, insert_stmt, sink)
 */
#include "sql/bind.h"

int
merge_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__MergeStmt *st, ResultSink *sink)
{
	(void)s;
	(void)sql;
	(void)st;
	(void)sink;
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "MERGE is not supported yet");
}

int
merge_insert(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, ResultSink *sink)
{
	(void)s;
	(void)sql;
	(void)is;
	(void)sink;
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "ON CONFLICT is not supported yet");
}
