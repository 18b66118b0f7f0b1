/*
 * acl.c — roles and privileges (acl.h).  STUB: every statement and file
 * is allowed; role statements are 0A000.  To be filled.
 *
 * INTERFACE ROUTINES: see acl.h.
 */
#include "sql/acl.h"

int
acl_check_stmt(Session *s, ExecCtx *ctx, const SqlStmt *st)
{
	(void)s; (void)ctx; (void)st;
	return FLOE_OK;
}

int
acl_exec(Session *s, ExecCtx *ctx, Node *n, ResultSink *sink)
{
	(void)s; (void)n; (void)sink;
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "roles and privileges are not supported yet");
}

int
acl_check_file(Session *s, const char *path, bool write, floe_error *err)
{
	(void)s; (void)path; (void)write; (void)err;
	return FLOE_OK;
}
