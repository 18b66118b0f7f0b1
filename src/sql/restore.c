/*
 * restore.c — ROLLBACK TABLE (Gnok) and RESTORE TABLE (Databricks), which
 * parse.c rewrites into CALLs of floe-internal procedures:
 *   ROLLBACK TABLE t TO SNAPSHOT n           ->  CALL floe$rb(t, n)
 *   RESTORE [TABLE] t [TO] VERSION AS OF n   ->  CALL floe$rv(t, n)
 *   RESTORE [TABLE] t [TO] TIMESTAMP AS OF x ->  CALL floe$rt(t, x)
 * Each is one metadata commit of metatables.c's procedures:
 * rollback_to_snapshot (n must be an ancestor of the current snapshot),
 * set_current_snapshot (any snapshot of t), rollback_to_timestamp (the
 * newest ancestor at or before x); command tags ROLLBACK TABLE / RESTORE.
 * The table name arrives as a column reference (t, s.t, "T").
 *
 * INTERFACE ROUTINES (maintenance.h)
 *   restore_call(s, ctx, sql, cs, sink, &handled)
 */
#include <string.h>
#include "sql/maintenance.h"

typedef struct TagSink {
	ResultSink inner;
	ResultSink *outer;
	const char *tag;
} TagSink;

static int
tag_complete(void *ctx, const char *tag)
{
	TagSink *t = ctx;

	(void)tag;
	return t->outer && t->outer->complete ? t->outer->complete(t->outer->ctx, t->tag) : FLOE_OK;
}

static void
tag_notice(void *ctx, const floe_error *n)
{
	TagSink *t = ctx;

	if (t->outer && t->outer->notice)
		t->outer->notice(t->outer->ctx, n);
}

int
restore_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink,
	     bool *handled)
{
	PgQuery__FuncCall *f = cs->funccall;
	PgQuery__String *fn = f->funcname[f->n_funcname - 1]->string;
	const char *name = fn->sval, *proc, *tag;
	PgQuery__ColumnRef *cr;
	PgQuery__AConst *k;
	PgQuery__String *str;
	Node *arg;
	char *qual = NULL;
	TagSink ts;
	size_t i;

	*handled = true;
	if (!strcmp(name, "floe$rb"))
		proc = "rollback_to_snapshot", tag = "ROLLBACK TABLE";
	else if (!strcmp(name, "floe$rv"))
		proc = "set_current_snapshot", tag = "RESTORE";
	else if (!strcmp(name, "floe$rt"))
		proc = "rollback_to_timestamp", tag = "RESTORE";
	else {
		*handled = false;
		return FLOE_OK;
	}
	if (f->n_args != 2 || f->args[0]->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
		return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR, "syntax error in %s", tag);
	cr = f->args[0]->column_ref;
	for (i = 0; i < cr->n_fields; i++) {
		if (cr->fields[i]->node_case != PG_QUERY__NODE__NODE_STRING || i > 1)
			return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR, "syntax error in %s", tag);
		qual = qual ? arena_sprintf(ctx->arena, "%s.%s", qual, cr->fields[i]->string->sval)
			    : arena_strdup(ctx->arena, cr->fields[i]->string->sval);
	}
	/* the table as a text argument */
	str = arena_alloc(ctx->arena, sizeof *str);
	pg_query__string__init(str);
	str->sval = qual;
	k = arena_alloc(ctx->arena, sizeof *k);
	pg_query__a__const__init(k);
	k->val_case = PG_QUERY__A__CONST__VAL_SVAL;
	k->sval = str;
	k->location = cr->location;
	arg = arena_alloc(ctx->arena, sizeof *arg);
	pg_query__node__init(arg);
	arg->node_case = PG_QUERY__NODE__NODE_A_CONST;
	arg->a_const = k;
	f->args[0] = arg;
	fn->sval = (char *)proc;
	memset(&ts, 0, sizeof ts);
	ts.inner.ctx = &ts;
	ts.inner.complete = tag_complete;
	ts.inner.notice = tag_notice;
	ts.outer = sink;
	ts.tag = tag;
	return metatable_call(s, ctx, sql, cs, &ts.inner);
}
