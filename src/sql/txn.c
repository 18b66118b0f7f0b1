/*
 * txn.c — transactions (see txn.h).
 *
 * This slice is autocommit only: every statement commits on its own, and
 * BEGIN / COMMIT / ROLLBACK are 0A000.
 *
 * INTERFACE ROUTINES: see txn.h.
 */
#include "sql/txn.h"

int
txn_table_load(Session *s, const char *ns, const char *name, Arena *a, Table **out,
	       floe_error *err)
{
	return table_load(s->engine->catalog, s->engine->io, ns, name, a, out, err);
}

int
txn_commit(Session *s, Table *base, const TableChange *ch, Arena *a, Table **out, floe_error *err)
{
	return table_commit(s->engine->catalog, s->engine->io, base, ch, a, out, err);
}

int
txn_commit_metadata(Session *s, const Table *base, TableMetadata *md, Arena *a, Table **out,
		    floe_error *err)
{
	return table_commit_metadata(s->engine->catalog, s->engine->io, base, md, a, out, err);
}

int
txn_before_statement(Session *s, Node *stmt, ResultSink *sink, floe_error *err)
{
	(void)s;
	(void)stmt;
	(void)sink;
	(void)err;
	return FLOE_OK;
}

bool
txn_retry_statement(Session *s, const floe_error *err, int attempt)
{
	(void)s;
	(void)err;
	(void)attempt;
	return false;
}

void
txn_after_statement(Session *s, bool ok)
{
	(void)s;
	(void)ok;
}

int
txn_exec(Session *s, ExecCtx *ctx, PgQuery__TransactionStmt *ts, ResultSink *sink)
{
	(void)s;
	(void)ts;
	(void)sink;
	return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "transaction blocks are not supported yet: every statement commits on its own");
}

void
txn_session_free(Session *s)
{
	(void)s;
}

char
session_txn_status(Session *s)
{
	(void)s;
	return 'I';
}
