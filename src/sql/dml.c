/*
 * dml.c — UPDATE, DELETE and TRUNCATE on Iceberg tables.
 *
 * Not implemented yet: each statement fails with 0A000.
 *
 * INTERFACE ROUTINES (bind.h)
 *   dml_update, dml_delete, dml_truncate
 */
#include "sql/bind.h"

int
dml_update(Session *s, ExecCtx *ctx, const char *sql, PgQuery__UpdateStmt *st, ResultSink *sink)
{
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "UPDATE is not supported yet");
}

int
dml_delete(Session *s, ExecCtx *ctx, const char *sql, PgQuery__DeleteStmt *st, ResultSink *sink)
{
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "DELETE is not supported yet");
}

int
dml_truncate(Session *s, ExecCtx *ctx, const char *sql, PgQuery__TruncateStmt *st, ResultSink *sink)
{
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "TRUNCATE is not supported yet");
}
