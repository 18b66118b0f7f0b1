/*
 * http_session.c — the HTTP query API's sessions: each is an engine
 * Session (sql/engine.h: settings, transaction block, privileges of its
 * user) with a cancel flag, kept between requests when named.
 *
 * Named sessions are made by POST /v1/sessions (hsess_open named), get a
 * random 128-bit id (32 hex digits), and are found by the
 * x-floe-session-id header; only the user who opened one may use it (42501
 * otherwise).  At most `max` exist (53300 beyond, after closing the
 * expired ones); one unused for `idle` seconds is closed by the watchdog
 * (its open transaction block rolled back, as a dropped pgwire
 * connection's), and a request naming it then gets 08003 (404).  An
 * unknown id is 08003 too: a session is never made implicitly, so a client
 * whose BEGIN's session expired learns it instead of running its next
 * statement in autocommit.
 *
 * One-shot sessions (a request without the header) are in the list too,
 * so cancels and timeouts treat both alike, and are freed at release.
 *
 * The watchdog thread (every 5 ms) turns a passed statement_timeout
 * deadline into the session's cancel flag (the running statement then
 * fails with 57014) and, once a second, closes idle named sessions.
 *
 * Invariants:
 *   1. `mu` (the table's) guards the list, refs, deadlines, closed; a
 *      session's own mutex is held by the one request using it; no engine
 *      call runs under the table's lock.
 *   2. A session is freed only with refs == 0, after leaving the list.
 *
 * INTERFACE ROUTINES: hsess_* (http_internal.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "common/arena.h"
#include "server/http_internal.h"
#include "sql/acl.h"

struct HttpSessions {
	Engine *engine;
	pthread_mutex_t mu;
	HttpSession *list;
	int max, idle_s, nnamed;
	pthread_t watchdog;
	_Atomic int stop;
};

static int64_t
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
session_destroy(HttpSession *hs)
{
	session_free(hs->s);
	pthread_mutex_destroy(&hs->mu);
	free(hs->user);
	free(hs);
}

/* Unlink the named sessions idle too long into *out (under mu). */
static void
collect_expired(HttpSessions *t, int64_t now, HttpSession **out)
{
	HttpSession **p = &t->list;
	while (*p) {
		HttpSession *hs = *p;
		if (hs->id[0] && !hs->refs && now - hs->last_ms > (int64_t)t->idle_s * 1000) {
			*p = hs->next;
			hs->closed = true;
			t->nnamed--;
			hs->next = *out;
			*out = hs;
		} else {
			p = &hs->next;
		}
	}
}

static void
destroy_all(HttpSession *l)
{
	while (l) {
		HttpSession *n = l->next;
		session_destroy(l);
		l = n;
	}
}

static void *
watchdog_main(void *arg)
{
	HttpSessions *t = arg;
	int64_t last_sweep = mono_ms();
	while (!t->stop) {
		HttpSession *hs, *dead = NULL;
		int64_t now;
		usleep(5000);
		now = mono_ms();
		pthread_mutex_lock(&t->mu);
		for (hs = t->list; hs; hs = hs->next)
			if (hs->deadline_ms && now >= hs->deadline_ms) {
				__atomic_store_n(&hs->cancel, 1, __ATOMIC_RELEASE);
				hs->timed_out = true;
				hs->deadline_ms = 0;
			}
		if (now - last_sweep >= 1000) {
			collect_expired(t, now, &dead);
			last_sweep = now;
		}
		pthread_mutex_unlock(&t->mu);
		destroy_all(dead);   /* rolls back their blocks, outside the lock */
	}
	return NULL;
}

HttpSessions *
hsess_new(Engine *e, int max, int idle_s)
{
	HttpSessions *t = xcalloc(1, sizeof *t);
	t->engine = e;
	t->max = max > 0 ? max : HTTP_MAX_SESSIONS;
	t->idle_s = idle_s > 0 ? idle_s : HTTP_SESSION_IDLE;
	pthread_mutex_init(&t->mu, NULL);
	if (pthread_create(&t->watchdog, NULL, watchdog_main, t) != 0) {
		pthread_mutex_destroy(&t->mu);
		free(t);
		return NULL;
	}
	return t;
}

void
hsess_free(HttpSessions *t)
{
	if (!t)
		return;
	t->stop = 1;
	pthread_join(t->watchdog, NULL);
	destroy_all(t->list);   /* http.c stopped every connection first */
	pthread_mutex_destroy(&t->mu);
	free(t);
}

int
hsess_open(HttpSessions *t, const char *user, bool named, HttpSession **out, floe_error *err)
{
	HttpSession *hs, *dead = NULL;
	*out = NULL;
	if (named) {
		pthread_mutex_lock(&t->mu);
		collect_expired(t, mono_ms(), &dead);
		if (t->nnamed >= t->max) {
			pthread_mutex_unlock(&t->mu);
			destroy_all(dead);
			return floe_errorf(err, ERRCODE_TOO_MANY_CONNECTIONS,
					   "too many HTTP sessions (%d are open)", t->max);
		}
		t->nnamed++;     /* reserved */
		pthread_mutex_unlock(&t->mu);
		destroy_all(dead);
	}
	hs = xcalloc(1, sizeof *hs);
	pthread_mutex_init(&hs->mu, NULL);
	hs->user = user ? xstrdup(user) : NULL;
	hs->s = session_new(t->engine);
	session_set_identity(hs->s, user, NULL);
	if (acl_check_login(hs->s, err) != FLOE_OK) {   /* NOLOGIN: 28000 */
		session_destroy(hs);
		if (named) {
			pthread_mutex_lock(&t->mu);
			t->nnamed--;
			pthread_mutex_unlock(&t->mu);
		}
		return FLOE_ERR;
	}
	session_set_cancel_flag(hs->s, &hs->cancel);
	session_track_watermark(hs->s);
	if (named) {
		unsigned char rnd[16];
		int i;
		if (getrandom(rnd, sizeof rnd, 0) != sizeof rnd)
			for (i = 0; i < 16; i++)
				rnd[i] = (unsigned char)rand();
		for (i = 0; i < 16; i++)
			snprintf(hs->id + 2 * i, 3, "%02x", rnd[i]);
	}
	pthread_mutex_lock(&t->mu);
	hs->refs = 1;
	hs->last_ms = mono_ms();
	hs->next = t->list;
	t->list = hs;
	pthread_mutex_unlock(&t->mu);
	pthread_mutex_lock(&hs->mu);
	*out = hs;
	return FLOE_OK;
}

static bool
same_user(const HttpSession *hs, const char *user)
{
	if (!hs->user || !user)
		return !hs->user && !user;
	return !strcmp(hs->user, user);
}

/* The named session id (under mu), or NULL. */
static HttpSession *
find(HttpSessions *t, const char *id)
{
	HttpSession *hs;
	if (!*id)
		return NULL;
	for (hs = t->list; hs; hs = hs->next)
		if (hs->id[0] && !strcmp(hs->id, id))
			return hs;
	return NULL;
}

static int
not_found(const char *id, floe_error *err)
{
	floe_errorf(err, "08003" /* connection_does_not_exist */,
		    "HTTP session \"%.64s\" does not exist (closed, expired, or never opened)", id);
	return floe_error_hint(err, "Open one with POST /v1/sessions.");
}

int
hsess_acquire(HttpSessions *t, const char *id, const char *user, HttpSession **out,
	      floe_error *err)
{
	HttpSession *hs;
	*out = NULL;
	pthread_mutex_lock(&t->mu);
	hs = find(t, id);
	if (hs && !same_user(hs, user)) {
		pthread_mutex_unlock(&t->mu);
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
				   "HTTP session \"%.64s\" belongs to another user", id);
	}
	if (hs)
		hs->refs++;
	pthread_mutex_unlock(&t->mu);
	if (!hs)
		return not_found(id, err);
	pthread_mutex_lock(&hs->mu);
	if (hs->closed) {      /* closed while this request waited for it */
		pthread_mutex_unlock(&hs->mu);
		hsess_release(t, hs);
		return not_found(id, err);
	}
	*out = hs;
	return FLOE_OK;
}

void
hsess_release(HttpSessions *t, HttpSession *hs)
{
	bool destroy = false;
	pthread_mutex_unlock(&hs->mu);     /* the caller's (hsess_open/acquire) */
	pthread_mutex_lock(&t->mu);
	hs->refs--;
	hs->last_ms = mono_ms();
	hs->deadline_ms = 0;
	if (!hs->refs && (!hs->id[0] || hs->closed)) {
		HttpSession **p;
		for (p = &t->list; *p && *p != hs; p = &(*p)->next)
			;
		if (*p)
			*p = hs->next;
		destroy = true;
	}
	pthread_mutex_unlock(&t->mu);
	if (destroy)
		session_destroy(hs);
}

int
hsess_close(HttpSessions *t, const char *id, const char *user, floe_error *err)
{
	HttpSession *hs;
	bool destroy = false;
	pthread_mutex_lock(&t->mu);
	hs = find(t, id);
	if (hs && !same_user(hs, user)) {
		pthread_mutex_unlock(&t->mu);
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
				   "HTTP session \"%.64s\" belongs to another user", id);
	}
	if (hs) {
		HttpSession **p;
		for (p = &t->list; *p != hs; p = &(*p)->next)
			;
		*p = hs->next;
		hs->closed = true;
		t->nnamed--;
		/* a running statement is canceled; its request frees the session */
		__atomic_store_n(&hs->cancel, 1, __ATOMIC_RELEASE);
		destroy = hs->refs == 0;
		if (!destroy)
			hs->id[0] = 0;   /* release() frees it */
	}
	pthread_mutex_unlock(&t->mu);
	if (!hs)
		return not_found(id, err);
	if (destroy)
		session_destroy(hs);
	return FLOE_OK;
}

int
hsess_cancel(HttpSessions *t, const char *id, const char *user, floe_error *err)
{
	HttpSession *hs;
	pthread_mutex_lock(&t->mu);
	hs = find(t, id);
	if (hs && same_user(hs, user) && hs->refs)
		__atomic_store_n(&hs->cancel, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&t->mu);
	if (!hs)
		return not_found(id, err);
	if (!same_user(hs, user))
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
				   "HTTP session \"%.64s\" belongs to another user", id);
	return FLOE_OK;
}

void
hsess_arm(HttpSessions *t, HttpSession *hs, int64_t us)
{
	pthread_mutex_lock(&t->mu);
	__atomic_store_n(&hs->cancel, 0, __ATOMIC_RELEASE);
	hs->timed_out = false;
	hs->deadline_ms = us > 0 ? mono_ms() + (us + 999) / 1000 : 0;
	pthread_mutex_unlock(&t->mu);
}

bool
hsess_disarm(HttpSessions *t, HttpSession *hs)
{
	bool fired;
	pthread_mutex_lock(&t->mu);
	hs->deadline_ms = 0;
	fired = hs->timed_out;
	hs->timed_out = false;
	pthread_mutex_unlock(&t->mu);
	return fired;
}
