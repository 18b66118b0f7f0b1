/*
 * stack.h — the stack-depth guard (PostgreSQL's check_stack_depth): every
 * recursive walk over a statement's trees (parse-tree unpack, binder,
 * planner, expression evaluation, EXPLAIN, plan copies) calls stack_check
 * at each level, so a statement nested too deeply fails with 54001 "stack
 * depth limit exceeded" instead of overflowing its thread's stack.
 *
 * INTERFACE ROUTINES
 *   stack_check(err)        FLOE_OK, or 54001 (with a HINT) when this
 *                           thread's stack is used beyond its limit
 *   stack_exceeded()        the same test, without an error
 *   stack_remaining()       bytes the stack may still grow before the
 *                           stack's own limit (max_stack_depth aside: for
 *                           library code, e.g. libpg_query's unpack)
 *   stack_limit_kb()        this thread's limit, for messages
 *   stack_set_max_kb(kb)    the session's max_stack_depth for this thread
 *                           (0: none): the limit becomes the smaller of
 *                           it, measured from the caller's frame, and the
 *                           stack's own
 *   stack_thread_limit_kb() the stack's own limit (what max_stack_depth
 *                           may not exceed)
 *   stack_attr_session(at)  initialises a pthread attribute for a thread
 *                           that runs statements: STACK_SESSION_SIZE
 *   stack_run_session(fn, arg)  runs fn(arg) on such a thread and waits
 *                           (the shell's main: the process's own stack is
 *                           the 8 MB of ulimit -s)
 *
 * Invariants
 *   1. The limit is measured per thread, at its first check, from the
 *      thread's real stack (pthread_getattr_np: the session threads of
 *      floe serve, the shell's main thread, parallel workers alike), so no
 *      thread needs registering: the limit is the stack's size less a
 *      reserve (a quarter, at least 256 kB, at most 4 MB) kept for the
 *      non-recursive work done below the last check (library calls,
 *      formatting an error).
 *   3. Threads that run statements (floe serve's sessions, the shell) get
 *      STACK_SESSION_SIZE of stack, so the depth a statement may reach is
 *      at least PostgreSQL's with its default max_stack_depth (2 MB of its
 *      smaller frames: a 4,000-term sum), also under ASan, whose frames
 *      are several times larger.  Only touched pages cost memory.
 *   2. The test compares the current frame's address with the lowest
 *      address allowed (stacks grow down on every platform floe builds
 *      on): a thread-local load and a compare, cheap enough for every
 *      evaluated expression node.
 */
#ifndef FLOE_STACK_H
#define FLOE_STACK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include "common/error.h"

bool stack_exceeded(void);
int stack_check(floe_error *err);
size_t stack_remaining(void);
size_t stack_limit_kb(void);
void stack_set_max_kb(size_t kb);
size_t stack_thread_limit_kb(void);

/* The error stack_check reports (for callers that find the depth by
 * other means, e.g. parse.c measuring a tree before unpacking it). */
int stack_depth_error(floe_error *err);

#define STACK_SESSION_SIZE ((size_t)64 << 20)
int stack_attr_session(pthread_attr_t *at);
int stack_run_session(void *(*fn)(void *), void *arg);

#endif
