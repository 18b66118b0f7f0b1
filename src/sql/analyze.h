/*
 * analyze.h — ANALYZE t [(cols)]: NDV statistics in a Puffin file
 * (analyze.c; docs/maintenance.md "ANALYZE").
 *
 * The current snapshot's live rows are scanned; each analyzed column feeds
 * a theta sketch (table/theta.h) with its non-NULL values' Iceberg
 * single-value bytes; one statistics file per snapshot
 * (table/table_stats.h) is written and registered by a metadata commit
 * (set-statistics: the snapshot is unchanged), retried on a lost race.
 * A previous statistics file of the same snapshot that the commit
 * replaced is deleted.
 *
 * Columns: the list (42703 unknown, 42701 twice, 0A000 a nested one), or
 * every top-level primitive column.  A table without a snapshot has no
 * rows to analyze: nothing is written.  Inside a transaction block the
 * commit lands at once (it changes no data), unless the block has changed
 * the table (0A000).
 *
 * INTERFACE ROUTINES
 *   analyze_table(s, ctx, ns, name, vr, verbose, sink)
 */
#ifndef FLOE_SQL_ANALYZE_H
#define FLOE_SQL_ANALYZE_H

#include "sql/bind.h"

int analyze_table(Session *s, ExecCtx *ctx, const char *ns, const char *name,
		  PgQuery__VacuumRelation *vr, bool verbose, ResultSink *sink);

#endif
