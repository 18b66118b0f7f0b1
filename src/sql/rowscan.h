/*
 * rowscan.h — read a table's current rows through a nested statement, for
 * the DDL that validates them: ALTER TABLE ... ADD CHECK (check.c), SET NOT
 * NULL and ADD COLUMN ... NOT NULL / DEFAULT (alter.c).  The statement runs
 * in the session, so it sees what the session's next SELECT would: the
 * committed snapshot, the transaction's own writes and the insert buffer's
 * acknowledged rows.
 *
 * INTERFACE ROUTINES
 *   rowscan_first(s, t, select, tail, a, &vals, &found, err)
 *        SELECT <select> FROM "ns"."t" <tail> LIMIT 1; *found says whether
 *        it gave a row, vals (may be NULL) its values as text (NULL for a
 *        NULL), one per select-list item.  A table without a snapshot has
 *        no rows (no statement runs).
 *   rowscan_qident(a, name)   name as a double-quoted identifier
 */
#ifndef FLOE_SQL_ROWSCAN_H
#define FLOE_SQL_ROWSCAN_H

#include <stdbool.h>
#include "sql/engine.h"
#include "table/table.h"

int rowscan_first(Session *s, const Table *t, const char *select, const char *tail, Arena *a,
		  const char ***vals, bool *found, floe_error *err);
char *rowscan_qident(Arena *a, const char *name);

#endif
