/*
 * join_dp.c — dynamic programming over the connected subsets of a join
 * graph (optimize/join_dp.h: the model, the search and the interface).
 *
 * Tables indexed by subset (bit k: relation k), 2^n entries each: the
 * subset's rows (unclamped product; join_dp_rows clamps), its edges'
 * neighbours, and for a connected subset its best cost and left half.
 */
#include "optimize/join_dp.h"

#include <math.h>

struct JoinDp {
	int n;
	uint32_t full;
	double *rows;           /* [2^n] prod est x prod sel */
	double *cost;           /* [2^n] best cost; < 0: no tree (not connected) */
	uint32_t *left;         /* [2^n] the left half of the best tree */
	uint32_t *nbr;          /* [2^n] relations tied by an edge to one of S */
};

static double
clamp_rows(double r)
{
	return r < 1 ? 1 : r;
}

static double
step(double l, double r, double out)
{
	l = clamp_rows(l);
	r = clamp_rows(r);
	return 2 * (l < r ? l : r) + (l < r ? r : l) + clamp_rows(out);
}

JoinDp *
join_dp_new(Arena *arena, int n, const double *est, const double *sel)
{
	JoinDp *dp = arena_calloc(arena, sizeof *dp);
	size_t m;

	if (n < 1 || n > JOIN_DP_MAX_RELS)
		return NULL;
	m = (size_t)1 << n;
	dp->n = n;
	dp->full = (uint32_t)(m - 1);
	dp->rows = arena_alloc(arena, sizeof *dp->rows * m);
	dp->cost = arena_alloc(arena, sizeof *dp->cost * m);
	dp->left = arena_calloc(arena, sizeof *dp->left * m);
	dp->nbr = arena_alloc(arena, sizeof *dp->nbr * m);
	dp->rows[0] = 1;
	dp->nbr[0] = 0;
	dp->cost[0] = -1;
	for (uint32_t s = 1; s < m; s++) {
		int k = __builtin_ctz(s);
		uint32_t rest = s & (s - 1), adj = 0;
		double r = dp->rows[rest] * est[k];
		for (int j = 0; j < n; j++) {
			double e = sel[k * n + j];
			if (j == k || !(e > 0))
				continue;
			adj |= (uint32_t)1 << j;
			if (rest & ((uint32_t)1 << j))
				r *= e;
		}
		dp->rows[s] = r;
		dp->nbr[s] = dp->nbr[rest] | adj;
		dp->cost[s] = rest ? -1 : 0;
	}
	return dp;
}

bool
join_dp_best(JoinDp *dp)
{
	if (!dp || dp->n < 2)
		return false;
	for (uint32_t s = 1; s <= dp->full; s++) {
		uint32_t low = s & -s, best_l = 0;
		double best = INFINITY, out = dp->rows[s];
		if (s == low)
			continue;
		/* the halves: l holds s's lowest relation, so each split once */
		for (uint32_t l = (s - 1) & s; l; l = (l - 1) & s) {
			uint32_t r = s ^ l;
			double c;
			if (!(l & low) || dp->cost[l] < 0 || dp->cost[r] < 0 || !(dp->nbr[l] & r))
				continue;
			c = dp->cost[l] + dp->cost[r] + step(dp->rows[l], dp->rows[r], out);
			if (c < best) {
				best = c;
				best_l = l;
			}
		}
		if (best_l) {
			uint32_t r = s ^ best_l;
			/* the larger half on the left: the probe input, as the
			 * greedy order starts from the largest relation */
			if (clamp_rows(dp->rows[r]) > clamp_rows(dp->rows[best_l]))
				best_l = r;
			dp->cost[s] = best;
			dp->left[s] = best_l;
		}
	}
	return dp->cost[dp->full] >= 0;
}

uint32_t
join_dp_split(const JoinDp *dp, uint32_t set)
{
	return dp->left[set];
}

double
join_dp_rows(const JoinDp *dp, uint32_t set)
{
	return clamp_rows(dp->rows[set]);
}

double
join_dp_cost(const JoinDp *dp, uint32_t set)
{
	return dp->cost[set];
}

double
join_dp_order_cost(const JoinDp *dp, const int *order)
{
	uint32_t joined = (uint32_t)1 << order[0];
	double c = 0;

	for (int i = 1; i < dp->n; i++) {
		uint32_t bit = (uint32_t)1 << order[i];
		if (!(dp->nbr[joined] & bit))
			return -1;
		c += step(dp->rows[joined], dp->rows[bit], dp->rows[joined | bit]);
		joined |= bit;
	}
	return c;
}
