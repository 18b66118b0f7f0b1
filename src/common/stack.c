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
static __thread uintptr_t real_floor;    /* the floor the thread's stack allows */
static __thread size_t real_kb;
static __thread uintptr_t stack_base;    /* where max_stack_depth counts from */
static __thread size_t setting_kb;       /* max_stack_depth; 0: none */

static uintptr_t
frame_address(void)
{
	return (uintptr_t)__builtin_frame_address(0);
}

static void apply_setting(void);

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
	real_floor = bottom + reserve;
	real_kb = (size - reserve) >> 10;
	apply_setting();
}

/* The floor is the higher of the stack's own and max_stack_depth below
 * the frame that set it (session_exec's: PostgreSQL measures from its
 * main loop's frame, stack_base_ptr). */
static void
apply_setting(void)
{
	uintptr_t f;

	stack_floor = real_floor;
	stack_kb = real_kb;
	if (!setting_kb || setting_kb >= real_kb)
		return;
	f = stack_base - ((uintptr_t)setting_kb << 10);
	if (f > stack_floor) {
		stack_floor = f;
		stack_kb = setting_kb;
	}
}

void
stack_set_max_kb(size_t kb)
{
	if (!stack_floor)
		measure();
	setting_kb = kb;
	stack_base = (uintptr_t)__builtin_frame_address(0);
	apply_setting();
}

size_t
stack_thread_limit_kb(void)
{
	if (!stack_floor)
		measure();
	return real_kb;
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
	return here > real_floor ? here - real_floor : 0;
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
