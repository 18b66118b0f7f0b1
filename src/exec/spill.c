/*
 * spill.c — bounded memory for sort, hash aggregation and hash join:
 * the work_mem limit of a statement (exec_mem_limit).  STUB: no limit.
 *
 * INTERFACE ROUTINES (exec.h)
 *   exec_mem_limit(work_mem)    bytes, 0 = unlimited
 */
#include "exec/exec.h"

int64_t
exec_mem_limit(const char *work_mem)
{
	(void)work_mem;
	return 0;
}
