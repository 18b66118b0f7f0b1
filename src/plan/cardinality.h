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
 *   lcard_unfiltered(op)     op below the Filters over it (the rows a
 *                            relation has before its own conditions)
 *   lcard_join_rows(l, r, r_raw, r_key, key_ndv, nkeys)
 *                            the rows of an inner join of l and r rows
 *                            (< 0 unknown) on nkeys hashable equalities:
 *                            r_key (an equality's r side is a key of r:
 *                            its distinct count at least 0.9 of r_raw,
 *                            the unfiltered rows) l x r / r_raw, each l
 *                            row meeting one r row that r's filters kept
 *                            or not; else l x r / key_ndv (the larger
 *                            distinct count of the two sides of any
 *                            key, System R's rule); else the larger
 *                            input; no key: l x r; at least 1
 */
#ifndef FLOE_PLAN_CARDINALITY_H
#define FLOE_PLAN_CARDINALITY_H

#include "plan/logical.h"

double lcard_rows(const LogicalOp *op);
double lcard_column_ndv(const LogicalOp *op, ColumnId id);
double lcard_groups(const LogicalOp *op);
const LogicalOp *lcard_unfiltered(const LogicalOp *op);
double lcard_join_rows(double l, double r, double r_raw, bool r_key, double key_ndv, int nkeys);

#endif
