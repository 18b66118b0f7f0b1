/*
 * admission.c — admission control for direct-path DML (admission.h).
 *
 * One process-wide count of running statements and a FIFO of waiters (on
 * their own stacks), under one mutex.  A waiter may go when it is the
 * queue's head and fewer than the cap run; every change (a leave, a
 * waiter giving up, a new cap) wakes all waiters, and each also re-checks
 * every WAIT_SLICE_MS for its cancel flag and deadline.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <time.h>
#include "ingest/admission.h"

#define WAIT_SLICE_MS 50

typedef struct Waiter {
	struct Waiter *next;
} Waiter;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static _Atomic int64_t cap;                /* 0: no cap */
static _Atomic int64_t timeout_ms = 10000;
static int running;
static Waiter *head, *tail;

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
admission_set_cap(int64_t n)
{
	pthread_mutex_lock(&mu);
	cap = n;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&mu);
}

int64_t
admission_cap(void)
{
	return cap;
}

void
admission_set_timeout(int64_t ms)
{
	timeout_ms = ms;
}

int
admission_running(void)
{
	int n;

	pthread_mutex_lock(&mu);
	n = running;
	pthread_mutex_unlock(&mu);
	return n;
}

static void
unlink_waiter(Waiter *w)
{
	Waiter **pp, *prev = NULL;

	for (pp = &head; *pp; prev = *pp, pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			if (tail == w)
				tail = prev;
			return;
		}
}

static bool
room(void)
{
	return cap <= 0 || running < cap;
}

int
admission_enter(volatile int *cancel, floe_error *err)
{
	Waiter me = { NULL };
	int64_t start, waited;
	int nrun;

	pthread_mutex_lock(&mu);
	if (!head && room()) {
		running++;
		pthread_mutex_unlock(&mu);
		return FLOE_OK;
	}
	if (tail)
		tail->next = &me;
	else
		head = &me;
	tail = &me;
	start = now_ms();
	for (;;) {
		struct timespec ts;
		if (head == &me && room()) {
			unlink_waiter(&me);
			running++;
			pthread_cond_broadcast(&changed);    /* the next head may go too */
			pthread_mutex_unlock(&mu);
			return FLOE_OK;
		}
		waited = now_ms() - start;
		if ((cancel && *cancel) || waited >= timeout_ms)
			break;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += WAIT_SLICE_MS * 1000000L;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		(void)pthread_cond_timedwait(&changed, &mu, &ts);
	}
	unlink_waiter(&me);
	nrun = running;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&mu);
	if (cancel && *cancel)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	floe_errorf(err, ERRCODE_CONFIGURATION_LIMIT_EXCEEDED,
		    "too many concurrent data-modifying statements (floe.max_concurrent_dml = %lld)",
		    (long long)cap);
	floe_error_detail(err, "%d running; this one waited %lld ms for its turn (floe.dml_queue_timeout).",
			  nrun, (long long)waited);
	return floe_error_hint(err, "Retry later, or raise floe.max_concurrent_dml.");
}

void
admission_leave(void)
{
	pthread_mutex_lock(&mu);
	if (running > 0)
		running--;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&mu);
}
