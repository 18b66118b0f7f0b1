/*
 * optimizer.h — the optimizer: an ordered list of named rewrite passes over
 * a logical plan (plan/logical.h), between the binder and physical.c
 * (DESIGN.md "Data flow": bind -> optimize -> plan).
 *
 * Each pass lives in a file of its own under src/optimize/, takes the plan
 * and its root, rewrites it in place (new nodes from the plan's arena;
 * ColumnIds keep their meaning, logical.h) and says whether it changed
 * anything.  A pass must leave a plan the verifier accepts (lplan_verify;
 * optimize_plan checks it after every pass in debug builds) and must not
 * change the query's result.
 *
 * Passes can be switched off for tests: the setting
 * floe.disabled_optimizers holds a comma-separated list of pass names
 * (DuckDB's disabled_optimizers); an unknown name is 22023 at SET.  The
 * passes that changed the plan are recorded in the LogicalPlan
 * (plan->passes) for EXPLAIN (VERBOSE).
 *
 * PASSES, in order:
 *   mark_join         (a binder rule, not run here: select.c's plan_marks
 *                     asks optimizer_disabled) EXISTS / x IN (SELECT ...)
 *                     inside an expression (under OR, NOT, CASE, the
 *                     select list) with an equality correlation, or an
 *                     uncorrelated IN, becomes a MARK join whose mark the
 *                     expression reads; off: per outer row (EXPR_SUBPLAN)
 *   decorrelate       a dependent SINGLE join (a correlated scalar
 *                     subquery) over equality correlation becomes a LEFT
 *                     join with the subquery grouped on its keys, marked
 *                     for the magic-set reduction (decorrelate.c)
 *   join_filter_pushdown   conjuncts of a Filter over a Join, and of a
 *                     Join's condition, move to the input(s) they read
 *                     where that keeps the result (outer joins: the
 *                     preserved side of a WHERE, the inner side of an ON;
 *                     join_filter_pushdown.c)
 *   join_order        each tree of INNER / CROSS joins (comma lists and
 *                     explicit JOIN chains; outer joins are barriers)
 *                     joined in the cheapest order (bushy trees too) by
 *                     dynamic programming over its connected subsets up
 *                     to 12 relations (join_dp.c), greedily beyond, from
 *                     the relations' estimates and distinct counts, the
 *                     build sides from them (join_order.c); off: FROM
 *                     order
 *   join_dp           (a rule of join_order) off: join_order orders every
 *                     tree greedily
 *   filter_pushdown   a Filter's conjuncts over a Get become the Get's
 *                     pushed-down filters (pushdown_filter.c)
 *
 * INTERFACE ROUTINES
 *   optimize_plan(plan, &root, disabled, err)   run the enabled passes
 *   optimizer_canon_disabled(value, out, cap, err)   check and normalise a
 *                                     floe.disabled_optimizers value
 *   optimizer_pass_count() / optimizer_pass_name(i)
 *   optimizer_disabled(disabled, name)   is pass `name` switched off?
 */
#ifndef FLOE_OPTIMIZE_OPTIMIZER_H
#define FLOE_OPTIMIZE_OPTIMIZER_H

#include <stdbool.h>
#include <stddef.h>

#include "plan/logical.h"

/* one pass: FLOE_OK with *changed set, or FLOE_ERR with err set */
typedef int (*OptPassFn)(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err);

/* disabled: floe.disabled_optimizers' value (NULL or "": none) */
int optimize_plan(LogicalPlan *plan, LogicalOp **root, const char *disabled, floe_error *err);
int optimizer_canon_disabled(const char *value, char *out, size_t cap, floe_error *err);
int optimizer_pass_count(void);
bool optimizer_disabled(const char *disabled, const char *name);
const char *optimizer_pass_name(int i);

/* the passes (one file each) */
int opt_decorrelate(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err);
int opt_join_order(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err);
int opt_join_filter_pushdown(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err);
int opt_pushdown_filter(LogicalPlan *plan, LogicalOp **root, bool *changed, floe_error *err);

#endif
