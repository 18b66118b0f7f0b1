/*
 * write_target.h — where a write lands (write_target.c): Spark's branch
 * targets `INSERT / UPDATE / DELETE / MERGE INTO t.branch_b` and the
 * write-audit-publish session settings, as write views (table/branch.h).
 *
 *   t.branch_b ([catalog.]t.branch_b) names branch b of table t when no
 *   table "t"."branch_b" exists (a table of that name wins, as for reads):
 *   42704 when t has no branch b, 42809 for t.tag_v (tags are read-only),
 *   0A000 inside a transaction block (not supported yet).
 *
 *   For a table with the property write.wap.enabled = true (Iceberg's):
 *     SET floe.wap_id = 'id'      its writes are staged: a snapshot with
 *                                 "wap.id" = id in its summary, not made
 *                                 current (publish_changes, cherrypick_snapshot)
 *     SET floe.wap_branch = 'b'   its writes go to branch b, created from
 *                                 main's head by the first write
 *   Both set: 22023; either set and a write to a table without the
 *   property: 55000 (the setting is never silently not acted on); a
 *   t.branch_c target under floe.wap_branch = 'b': 22023; inside a
 *   transaction block: 0A000.  Reads of t still read main.
 *
 * INTERFACE ROUTINES
 *   write_target_branch(s, ctx, rv, &t, &found)  after the plain load of rv failed with 42P01
 *   write_target_wap(s, &t, a, err)              after a plain load of a write's target
 *   write_target_redirected(s, t)                would write_target_wap change t? (the insert
 *                                                buffer's fast path, which must not take it)
 */
#ifndef FLOE_SQL_WRITE_TARGET_H
#define FLOE_SQL_WRITE_TARGET_H

#include "sql/bind.h"
#include "table/table.h"

int write_target_branch(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Table **t, bool *found);
int write_target_wap(Session *s, Table **t, Arena *a, floe_error *err);
bool write_target_redirected(Session *s, const Table *t);

#endif
