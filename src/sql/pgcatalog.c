/*
 * pgcatalog.c — PostgreSQL's system catalogs (pg_catalog) and the SQL
 * standard's information_schema as relations built from floe's catalog.
 *
 * This slice has none: every name is "not a catalog relation".
 *
 * INTERFACE ROUTINES (bind.h)
 *   pgcatalog_relation(s, ctx, schema, name, a, &found, &ncols, &names, &types, &op, err)
 */
#include "sql/bind.h"

int
pgcatalog_relation(Session *s, ExecCtx *ctx, const char *schema, const char *name, Arena *a,
		   bool *found, int *ncols, char ***names, SqlType **types, Operator **op,
		   floe_error *err)
{
	(void)s;
	(void)ctx;
	(void)schema;
	(void)name;
	(void)a;
	(void)ncols;
	(void)names;
	(void)types;
	(void)op;
	(void)err;
	*found = false;
	return FLOE_OK;
}
