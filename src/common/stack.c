/*
 * stack.c — the stack-depth guard (see stack.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include "common/stack.h"

#define STACK_RESERVE_MIN ((size_t)256 << 10)
#define STACK_RESERVE_MAX ((size_t)4 << 20)
/* an unlimited (growable) main-thread stack: use at most this much */
#define STACK_USE_MAX ((size_t)1 << 30)

static __thread uintptr_t stack_floor;   /* lowest address allowed; 0: not measured */
static __thread size_t stack_kb;

static uintptr_t
frame_address(void)
{
	return (uintptr_t)__builtin_frame_address(0);
}

static void
measure(void)
{
	pthread_attr_t at;
	void *lo = NULL;
	size_t size = 0, reserve;
	uintptr_t here = frame_address(), bottom;

	if (pthread_getattr_np(pthread_self(), &at) == 0) {
		if (pthread_attr_getstack(&at, &lo, &size) != 0)
			size = 0;
		pthread_attr_destroy(&at);
	}
	if (!size || here < (uintptr_t)lo || here - (uintptr_t)lo > size) {
		/* unknown stack: assume 1 MB below this frame */
		lo = (void *)(here - ((size_t)1 << 20));
		size = (size_t)1 << 20;
	}
	bottom = (uintptr_t)lo;
	if (here - bottom > STACK_USE_MAX)
		bottom = here - STACK_USE_MAX;
	size = here - bottom;
	reserve = size / 4;
	if (reserve < STACK_RESERVE_MIN)
		reserve = STACK_RESERVE_MIN;
	if (reserve > STACK_RESERVE_MAX)
		reserve = STACK_RESERVE_MAX;
	if (reserve > size / 2)
		reserve = size / 2;
	stack_floor = bottom + reserve;
	stack_kb = (size - reserve) >> 10;
}

bool
stack_exceeded(void)
{
	if (__builtin_expect(!stack_floor, 0))
		measure();
	return frame_address() < stack_floor;
}

size_t
stack_remaining(void)
{
	uintptr_t here;

	if (!stack_floor)
		measure();
	here = frame_address();
	return here > stack_floor ? here - stack_floor : 0;
}

size_t
stack_limit_kb(void)
{
	if (!stack_floor)
		measure();
	return stack_kb;
}

int
stack_depth_error(floe_error *err)
{
	floe_errorf(err, ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
	return floe_error_hint(err, "The statement nests expressions, subqueries or set operations too deeply "
			       "for this session's stack (%zu kB); simplify it.", stack_limit_kb());
}

int
stack_check(floe_error *err)
{
	if (__builtin_expect(!stack_exceeded(), 1))
		return FLOE_OK;
	return stack_depth_error(err);
}

int
stack_attr_session(pthread_attr_t *at)
{
	if (pthread_attr_init(at) != 0)
		return -1;
	if (pthread_attr_setstacksize(at, STACK_SESSION_SIZE) != 0) {
		pthread_attr_destroy(at);
		return pthread_attr_init(at) == 0 ? 0 : -1;   /* the default stack */
	}
	return 0;
}

int
stack_run_session(void *(*fn)(void *), void *arg)
{
	pthread_attr_t at;
	pthread_t th;
	sigset_t all, old;
	int rc;

	if (stack_attr_session(&at) != 0)
		return -1;
	rc = pthread_create(&th, &at, fn, arg);
	pthread_attr_destroy(&at);
	if (rc != 0)
		return -1;
	/* The new thread took this one's signal mask; this one only waits, so
	 * every signal (SIGINT cancel, SIGTERM, SIGPIPE) goes to the threads
	 * that run the program, exactly as before. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_join(th, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}
