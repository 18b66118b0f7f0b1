/*
 * nested_loop.c — joins without equi-keys (ON a.x < b.y, CROSS JOIN,
 * comma lists with no join condition): a block nested loop.
 *
 * The loop is hash_join.c with no keys: the right input is materialised
 * once, every left row is paired with every right row VECTOR_SIZE pairs at
 * a time, the condition is evaluated on the paired batch, and the outer
 * sides' unmatched rows are NULL-extended as in the hash join.
 *
 * INTERFACE ROUTINES
 *   nested_loop_new(ctx, left, right, type, cond)
 */
#include "exec/exec.h"

Operator *
nested_loop_new(ExecCtx *ctx, Operator *left, Operator *right, JoinType type, Expr *cond)
{
	return hash_join_new(ctx, left, right, type, 0, NULL, NULL, cond, false);
}
