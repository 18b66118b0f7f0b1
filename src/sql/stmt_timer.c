/*
 * stmt_timer.c — the statement_timeout watchdog (see stmt_timer.h): one
 * thread per process, a list of armed timers, a condition variable the
 * thread sleeps on until the earliest deadline (an arm wakes it).
 */
#include <pthread.h>
#include <time.h>
#include "sql/stmt_timer.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv;
static StmtTimer *timers;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool started;

static int64_t
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void *
watchdog(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	for (;;) {
		int64_t now = now_us(), next = now + 1000000;
		struct timespec ts;
		StmtTimer *t;
		for (t = timers; t; t = t->next) {
			if (t->fired)
				continue;
			if (t->deadline_us <= now) {
				t->fired = true;
				__atomic_store_n(t->flag, 1, __ATOMIC_RELEASE);
			} else if (t->deadline_us < next)
				next = t->deadline_us;
		}
		ts.tv_sec = (time_t)(next / 1000000);
		ts.tv_nsec = (long)(next % 1000000) * 1000;
		(void)pthread_cond_timedwait(&cv, &mu, &ts);
	}
	return NULL;
}

static void
start(void)
{
	pthread_condattr_t ca;
	pthread_attr_t at;
	pthread_t th;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	started = pthread_create(&th, &at, watchdog, NULL) == 0;
	pthread_attr_destroy(&at);
}

void
stmt_timer_arm(StmtTimer *t, volatile int *flag, int64_t us)
{
	pthread_once(&once, start);
	t->deadline_us = now_us() + us;
	t->flag = flag;
	t->fired = false;
	pthread_mutex_lock(&mu);
	t->next = timers;
	timers = t;
	if (started)
		pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
}

bool
stmt_timer_disarm(StmtTimer *t)
{
	StmtTimer **p;
	bool fired;

	pthread_mutex_lock(&mu);
	for (p = &timers; *p && *p != t; p = &(*p)->next)
		;
	if (*p)
		*p = t->next;
	fired = t->fired;
	pthread_mutex_unlock(&mu);
	return fired;
}
