/*
 * physical.h — lowering of a logical plan (plan/logical.h) to exec/
 * Operators.
 *
 * The lowered tree produces, for every node, the node's output columns in
 * the node's order (physical column i is LogicalOp.cols[i]); expressions are
 * copied with each column reference's ColumnId replaced by its position in
 * the input batch (the concatenation of the children's columns), as
 * PostgreSQL's set_plan_references does.  Choices the logical plan leaves
 * open are made here: hash join keys (the `a = b` conjuncts whose sides read
 * one input each, of types hash_join_key_ok accepts) against a residual,
 * nested loop when there are none, the build side (the input with the
 * smaller est_rows when both are known, else the right one) and the join
 * operator's row estimate (the larger input with keys, the product
 * without; none when an input's is unknown), sort keys that are expressions computed by a Project below the
 * Sort, DISTINCT as a hash aggregation.
 *
 * Lowered today: OPERATOR (the Operator it holds), GET (its table
 * source's scan callback: logical.h; pushed-down filters as a Filter over
 * it), VALUES, FILTER,
 * PROJECT, AGGREGATE (grouping sets: one aggregation per set over the input
 * materialised once, appended), WINDOW, SORT, LIMIT (WITH TIES over a SORT:
 * row_number()/rank() below the sort), DISTINCT (ON: row_number() = 1 per
 * key group), UNION [ALL], INTERSECT / EXCEPT [ALL] (tagged sides counted
 * by a hash aggregation, then exec's SetOp), and JOIN (INNER, LEFT, RIGHT,
 * FULL, SEMI, ANTI, CROSS; ANTI null_aware as exec's NOT IN join, on
 * exactly one hashable x = y; not dependent).  Any other node fails with 0A000
 * naming it, so a binder step that emits it before its lowering exists
 * cannot run silently wrong.
 *
 * INTERFACE ROUTINES
 *   physical_lower(ctx, plan, op) -> Operator, or NULL with ctx->err set
 */
#ifndef FLOE_PLAN_PHYSICAL_H
#define FLOE_PLAN_PHYSICAL_H

#include "exec/exec.h"
#include "plan/logical.h"

Operator *physical_lower(ExecCtx *ctx, const LogicalPlan *plan, const LogicalOp *op);

#endif
