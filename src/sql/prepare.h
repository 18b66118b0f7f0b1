/*
 * prepare.h — SQL-level prepared statements (prepare.c): PREPARE,
 * EXECUTE, DEALLOCATE, pg_prepared_statements.
 *
 * INTERFACE ROUTINES
 *   prepare_stmt(s, sql, st, ps, sink, err)     PREPARE name [(types)] AS ...
 *   prepare_execute(s, sql, es, sink, err)      EXECUTE name [(args)]
 *   prepare_deallocate(s, ds, sink, err)        DEALLOCATE [PREPARE] name | ALL
 *   prepare_catalog_rows(s, r, a)               the session's rows of
 *                                               pg_prepared_statements
 *   prepare_session_free(s)
 */
#ifndef FLOE_PREPARE_H
#define FLOE_PREPARE_H

#include "sql/bind.h"
#include "sql/constrel.h"

int prepare_stmt(Session *s, const char *sql, const SqlStmt *st, PgQuery__PrepareStmt *ps,
		 ResultSink *sink, floe_error *err);
int prepare_execute(Session *s, const char *sql, PgQuery__ExecuteStmt *es, ResultSink *sink,
		    floe_error *err);
int prepare_deallocate(Session *s, PgQuery__DeallocateStmt *ds, ResultSink *sink,
		       floe_error *err);
int prepare_catalog_rows(Session *s, ConstRel *r, Arena *a);
void prepare_session_free(Session *s);

#endif
