/*
 * views.h — views (PostgreSQL 15 CREATE VIEW semantics) stored as Iceberg
 * views: a catalog row with iceberg_type 'VIEW' (catalog.h) pointing at an
 * Iceberg view metadata file (table/view_meta.h) whose SQL representation
 * (dialect "postgresql") is the view's query.
 *
 * A view reference in FROM is planned as a subquery in FROM
 * (views_source, called by select.c when no table has the name): the
 * stored query, its unqualified names resolved in the view's
 * default-namespace, its relations read with the view owner's rights
 * (floe's owner of every object is the superuser; only superusers create
 * views, acl.c), the columns renamed to the view's.
 *
 * INTERFACE ROUTINES
 *   views_owns(n)                       is n a statement of this file (or of
 *                                       indexes.c: CREATE INDEX)?
 *   views_exec(s, ctx, sql, n, sink)    CREATE [OR REPLACE] VIEW, ALTER VIEW
 *                                       RENAME [COLUMN], other ALTER VIEW 0A000;
 *                                       CREATE INDEX (indexes.c)
 *   views_source(b, ctx, ns, name, &found, &plan)   a FROM item naming a view
 *   views_drop(s, ds, a, sink, err, &done)   DROP VIEW, DROP INDEX (indexes.c)
 *                                       (done); DROP TABLE /
 *                                       SCHEMA: the views that depend on what
 *                                       is dropped refused (2BP01) or dropped
 *                                       (CASCADE) before ddl.c drops it
 *   views_write_error(s, n, a, err)     a DML on a view failed with 42P01: the
 *                                       error becomes 0A000 naming the view
 *   views_list(s, ns, a, &names, &defs, &n, err)   the views of ns (pgcatalog.c)
 *   views_check_rename(s, ns, name, a, err)   may relation (ns, name) be renamed
 *                                       or moved?  0A000 while views read it
 *   views_exists(s, ns, name)           is (ns, name) a view?
 *   views_uuid(s, ns, name, a)          its view-uuid (acl.c's grants), NULL: none
 */
#ifndef FLOE_SQL_VIEWS_H
#define FLOE_SQL_VIEWS_H

#include "sql/bind.h"
#include "table/view_meta.h"

bool views_owns(const Node *n);
int views_exec(Session *s, ExecCtx *ctx, const char *sql, Node *n, ResultSink *sink);
int views_source(BindCtx *b, ExecCtx *ctx, const char *ns, const char *name, bool *found,
		 SelectPlan *out);
int views_drop(Session *s, PgQuery__DropStmt *ds, Arena *a, ResultSink *sink, floe_error *err,
	       bool *done);
void views_write_error(Session *s, const Node *n, Arena *a, floe_error *err);
int views_list(Session *s, const char *ns, Arena *a, char ***names, ViewDef ***defs, int *n,
	       floe_error *err);
bool views_exists(Session *s, const char *ns, const char *name);
int views_check_rename(Session *s, const char *ns, const char *name, Arena *a, floe_error *err);
const char *views_uuid(Session *s, const char *ns, const char *name, Arena *a);   /* NULL: no view */

#endif
