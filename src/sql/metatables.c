/*
 * metatables.c — Iceberg metadata tables (t$snapshots, t$history,
 * t$files, ...) and time travel, as relations of a FROM clause.
 *
 * This slice has none: no FROM item is a metadata table.
 *
 * INTERFACE ROUTINES (bind.h)
 *   metatable_relation(s, ctx, rv, a, &found, &ncols, &names, &types, &op, err)
 */
#include "sql/bind.h"

int
metatable_relation(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Arena *a, bool *found,
		   int *ncols, char ***names, SqlType **types, Operator **op, floe_error *err)
{
	(void)s;
	(void)ctx;
	(void)rv;
	(void)a;
	(void)ncols;
	(void)names;
	(void)types;
	(void)op;
	(void)err;
	*found = false;
	return FLOE_OK;
}
