/*
 * parallel.c — morsel-driven parallel execution (STUB: the plan runs
 * serially until the parallel rewrite lands).
 *
 * INTERFACE ROUTINES
 *   exec_threads(workers)          threads per parallel operator
 *   exec_parallelize(ctx, root)    the plan, rewritten to use them
 */
#include <stdlib.h>
#include <unistd.h>
#include "exec/exec.h"

int
exec_threads(const char *workers)
{
	long n;
	char *end;

	if (workers && *workers) {
		n = strtol(workers, &end, 10);
		if (*end == '\0' && n >= 0 && n < 1024)
			return (int)n + 1;
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

Operator *
exec_parallelize(ExecCtx *ctx, Operator *root)
{
	(void)ctx;
	return root;
}
