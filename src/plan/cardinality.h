/*
 * cardinality.h — row and distinct-value estimates over a logical plan
 * (plan/logical.h), for physical.c's operators (EXPLAIN's "(rows=N)",
 * hash aggregation's first table size).
 *
 * A Get's columns carry their distinct counts (LogicalOp.col_ndv: the
 * binder's, from ANALYZE's statistics when they cover the snapshot read,
 * else from the manifests' bounds: table/table_stats.h).  A column keeps
 * its count through the nodes that pass it on (Filter, Sort, Limit,
 * Distinct, Window, Join, a Project or Aggregate key that is the column
 * itself), capped by each node's row estimate.  The groups of an
 * Aggregate (or Distinct) are the product of its keys' counts, capped by
 * its input's rows; unknown (< 0) when a key is not such a column or has
 * no count, or the aggregation has grouping sets.
 *
 * INTERFACE ROUTINES
 *   lcard_rows(op)           op's row estimate (< 0 unknown): est_rows, else
 *                            that of the input, a Filter a third of it
 *   lcard_column_ndv(op, id) distinct values of op's column id (< 0 unknown)
 *   lcard_groups(op)         an AGGREGATE's or DISTINCT's groups (< 0 unknown)
 */
#ifndef FLOE_PLAN_CARDINALITY_H
#define FLOE_PLAN_CARDINALITY_H

#include "plan/logical.h"

double lcard_rows(const LogicalOp *op);
double lcard_column_ndv(const LogicalOp *op, ColumnId id);
double lcard_groups(const LogicalOp *op);

#endif
