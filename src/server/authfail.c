/*
 * authfail.c — failed logins per client address (see authfail.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server/authfail.h"

#define AUTHFAIL_SLOTS 256

typedef struct Slot {
	char addr[64];
	int count;
	time_t first;
} Slot;

struct AuthFails {
	pthread_mutex_t mu;
	int max, window;
	Slot slots[AUTHFAIL_SLOTS];
};

AuthFails *
authfail_new(int max, int window)
{
	AuthFails *f = calloc(1, sizeof *f);

	if (!f)
		abort();
	pthread_mutex_init(&f->mu, NULL);
	f->max = max;
	f->window = window;
	return f;
}

void
authfail_free(AuthFails *f)
{
	if (!f)
		return;
	pthread_mutex_destroy(&f->mu);
	free(f);
}

/* The slot of addr (a free or the oldest one when `create`); under mu. */
static Slot *
slot(AuthFails *f, const char *addr, bool create)
{
	Slot *s, *victim = NULL;

	for (s = f->slots; s < f->slots + AUTHFAIL_SLOTS; s++) {
		if (s->count && !strcmp(s->addr, addr))
			return s;
		/* prefer a free slot, else the one whose window began first */
		if (!victim || (!s->count && victim->count) ||
		    (s->count && victim->count && s->first < victim->first))
			victim = s;
	}
	if (!create)
		return NULL;
	memset(victim, 0, sizeof *victim);
	snprintf(victim->addr, sizeof victim->addr, "%s", addr);
	return victim;
}

bool
authfail_limited(AuthFails *f, const char *addr)
{
	Slot *s;
	bool limited;

	pthread_mutex_lock(&f->mu);
	s = slot(f, addr, false);
	limited = s && time(NULL) - s->first < f->window && s->count >= f->max;
	pthread_mutex_unlock(&f->mu);
	return limited;
}

void
authfail_note(AuthFails *f, const char *addr)
{
	time_t now = time(NULL);
	Slot *s;

	pthread_mutex_lock(&f->mu);
	s = slot(f, addr, true);
	if (!s->count || now - s->first >= f->window) {
		s->count = 0;
		s->first = now;
	}
	s->count++;
	pthread_mutex_unlock(&f->mu);
}
