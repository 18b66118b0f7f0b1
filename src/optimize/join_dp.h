/*
 * join_dp.h — the cheapest join tree of a small join graph by dynamic
 * programming over its connected subsets (the join_order pass's search
 * for up to JOIN_DP_MAX_RELS relations: optimize/join_order.c).
 *
 * THE MODEL.  Relation k has est[k] rows (after its own filters).  The
 * hashable equalities between relations i and j, each side over one of
 * them only, make the edge i-j with selectivity sel[i * n + j] (= sel[j *
 * n + i]; in (0, 1]; 0: no edge).  A set S of relations has
 *   rows(S) = prod est[k] x prod sel[i, j]   (k, i < j in S)
 * whatever the order it is joined in, at least 1 when used.  Joining the
 * sets L and R (disjoint, an edge between them) costs, in rows, as
 * join_order.c's greedy step: the build side (the smaller input, as
 * physical.c picks it) inserted twice over a probe's work, the other side
 * probed, the output made:
 *   cost(L u R) = cost(L) + cost(R) + 2 min(rows L, rows R)
 *                 + max(rows L, rows R) + rows(L u R),   cost({k}) = 0.
 *
 * THE SEARCH is DPsub (Vance & Maier; Moerkotte & Neumann's name): the
 * subsets in increasing order, each split into two connected halves
 * joined by an edge (no cross products), the cheapest kept; bushy trees
 * included.  3^n splits at most (n = 12: 531,441).  A graph whose edges
 * do not connect all its relations has no tree here (join_dp_best
 * returns false): the caller orders it greedily.
 *
 * INTERFACE ROUTINES
 *   join_dp_new(arena, n, est, sel)   the model (n <= JOIN_DP_MAX_RELS)
 *   join_dp_best(dp)                  search; false: the graph is not
 *                                     connected (or n < 2)
 *   join_dp_split(dp, S)              the left (larger, probe) half of the
 *                                     best tree of S (0: S is one relation)
 *   join_dp_rows(dp, S) / join_dp_cost(dp, S)
 *   join_dp_order_cost(dp, order)     the cost of the left-deep tree joining
 *                                     order[0..n) in that order (< 0: a
 *                                     step with no edge, a cross product)
 */
#ifndef FLOE_OPTIMIZE_JOIN_DP_H
#define FLOE_OPTIMIZE_JOIN_DP_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"

#define JOIN_DP_MAX_RELS 12

typedef struct JoinDp JoinDp;

JoinDp *join_dp_new(Arena *arena, int n, const double *est, const double *sel);
bool join_dp_best(JoinDp *dp);
uint32_t join_dp_split(const JoinDp *dp, uint32_t set);
double join_dp_rows(const JoinDp *dp, uint32_t set);
double join_dp_cost(const JoinDp *dp, uint32_t set);
double join_dp_order_cost(const JoinDp *dp, const int *order);

#endif
