/*
 * interrupt.c — the per-thread cancel flag (see interrupt.h).
 */
#include <stddef.h>
#include "common/interrupt.h"

static __thread volatile int *cur;

volatile int *
interrupt_set(volatile int *flag)
{
	volatile int *prev = cur;
	cur = flag;
	return prev;
}

bool
interrupt_pending(void)
{
	return cur && __atomic_load_n(cur, __ATOMIC_ACQUIRE);
}
