/*
 * function.h — SQL functions (PostgreSQL 15 CREATE FUNCTION ... LANGUAGE
 * sql): stored in the catalog (floe_objects rows of kind "function",
 * catalog.h), expanded where they are called (function.c's top comment).
 *
 * INTERFACE ROUTINES
 *   function_owns(n)                      CREATE FUNCTION / PROCEDURE, DROP
 *                                         FUNCTION / PROCEDURE / ROUTINE, DO?
 *   function_exec(s, ctx, sql, st, n, sink)   run one of them
 *   function_bind_call(b, f, &handled)    a call f(...) of a SQL function in
 *                                         an expression (bind_expr.c); handled
 *                                         false: no SQL function has the name
 *   function_source(b, ctx, f, alias, &query, &handled)   a set-returning
 *                                         call in FROM: *query, a subquery
 *                                         (select.c plans it as one)
 *   function_list(s, a, &defs, &n, err)   every SQL function (pgcatalog.c)
 *   function_free(s)                      session_free: the session's cache
 */
#ifndef FLOE_SQL_FUNCTION_H
#define FLOE_SQL_FUNCTION_H

#include "sql/bind.h"

/* One stored function, as pg_proc shows it. */
typedef struct FunctionInfo {
	const char *ns, *name;
	const char *key;           /* name(type, ...) */
	const char *args;          /* pg_get_function_arguments: "a integer, b integer DEFAULT 1" */
	const char *identity_args; /* "a integer, b integer" */
	const char *result;        /* pg_get_function_result: "integer", "SETOF integer", "TABLE(a integer)" */
	const char *body;          /* prosrc */
	const char *definition;    /* pg_get_functiondef */
	char volatility;           /* 'i' 's' 'v' */
	bool strict, retset;
	int nargs, ndefaults;
	SqlType *argtypes;
	SqlType ret;
} FunctionInfo;

bool function_owns(const Node *n);
int function_exec(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st, Node *n,
		  ResultSink *sink);
Expr *function_bind_call(BindCtx *b, PgQuery__FuncCall *f, bool *handled);
int function_source(BindCtx *b, ExecCtx *ctx, PgQuery__FuncCall *f, PgQuery__Alias *alias,
		    Node **query, bool *handled);
int function_list(Session *s, Arena *a, FunctionInfo **out, int *n, floe_error *err);
void function_free(Session *s);

#endif
