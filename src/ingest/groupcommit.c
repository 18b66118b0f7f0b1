/*
 * groupcommit.c — one Iceberg commit for the concurrent appends of a
 * table (groupcommit.h).
 *
 * A Group per (engine, table uuid), kept for the process's life (a few
 * bytes per table written): its queue of waiting statements and whether a
 * leader is committing.  One mutex and one condition variable for all
 * groups: a wake-up is a commit landing, rare next to the commit itself.
 *
 * Invariants:
 *   1. A request leaves the queue only in a leader's batch, and is marked
 *      done (rc, err) only after that batch's table_commit returned.
 *   2. At most one leader per group at a time (busy); the next leader is
 *      the head of the queue once busy drops.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ingest/groupcommit.h"
#include "sql/temp.h"
#include "sql/watermark.h"

#define GC_MAX_BATCH 64

typedef struct GcReq {
	struct GcReq *next;
	const TableChange *ch;
	bool done;
	int rc;
	floe_error err;
} GcReq;

typedef struct Group {
	struct Group *next;
	const void *engine;
	char uuid[64];
	bool busy;
	GcReq *head, *tail;
} Group;

static pthread_mutex_t gc_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gc_cv = PTHREAD_COND_INITIALIZER;
static Group *groups;

bool
groupcommit_eligible(const Table *base, const TableChange *ch)
{
	int i;

	if (temp_is_temp_ns(base->ns) ||   /* a session's temporary table (sql/temp.h) commits alone */
	    !base->md->table_uuid || strlen(base->md->table_uuid) >= sizeof ((Group *)0)->uuid ||
	    base->branch || base->wap_id)      /* a write view (table/branch.h) commits alone */
		return false;
	if (ch->nadd <= 0 || ch->nremove || ch->remove_all || ch->operation || ch->ingest_seq ||
	    ch->rebase_check || ch->ninit_props || metadata_current_schema(base->md)->nidentifier > 0)
		return false;
	for (i = 0; i < ch->nadd; i++)
		if (ch->add[i].content != CONTENT_DATA)
			return false;
	return true;
}

static Group *
group_of(const void *engine, const char *uuid)
{
	Group *g;

	for (g = groups; g; g = g->next)
		if (g->engine == engine && !strcmp(g->uuid, uuid))
			return g;
	g = xcalloc(1, sizeof *g);
	g->engine = engine;
	snprintf(g->uuid, sizeof g->uuid, "%s", uuid);
	g->next = groups;
	groups = g;
	return g;
}

/* The leader: commit the changes of batch (n requests) as one. */
static int
commit_batch(Session *s, Table *base, GcReq **batch, int n, Arena *a, Table **out, floe_error *err)
{
	TableChange c;
	DataFile *add;
	size_t joblen = 1;
	char *jobs;
	int i, k = 0, nadd = 0;

	if (n == 1)
		return table_commit(s->engine->catalog, s->engine->io, base, batch[0]->ch, a, out, err);
	for (i = 0; i < n; i++) {
		nadd += batch[i]->ch->nadd;
		joblen += (batch[i]->ch->job_id ? strlen(batch[i]->ch->job_id) : 0) + 1;
	}
	add = ARENA_ARRAY(a, DataFile, nadd);
	jobs = arena_alloc(a, joblen);
	jobs[0] = 0;
	for (i = 0; i < n; i++) {
		memcpy(add + k, batch[i]->ch->add, sizeof(DataFile) * (size_t)batch[i]->ch->nadd);
		k += batch[i]->ch->nadd;
		if (batch[i]->ch->job_id) {
			if (jobs[0])
				strcat(jobs, ",");
			strcat(jobs, batch[i]->ch->job_id);
		}
	}
	memset(&c, 0, sizeof c);
	c.add = add;
	c.nadd = nadd;
	c.job_id = jobs[0] ? jobs : NULL;
	return table_commit(s->engine->catalog, s->engine->io, base, &c, a, out, err);
}

int
groupcommit_commit(Session *s, Table *base, const TableChange *ch, Arena *a, Table **out,
		   floe_error *err)
{
	GcReq me, *batch[GC_MAX_BATCH];
	Group *g;
	int n, i, rc;
	bool led = false;
	floe_error e1;

	memset(&me, 0, sizeof me);
	me.ch = ch;
	pthread_mutex_lock(&gc_mu);
	g = group_of(s->engine, base->md->table_uuid);
	if (g->tail)
		g->tail->next = &me;
	else
		g->head = &me;
	g->tail = &me;
	while (!me.done) {
		if (g->busy || g->head != &me) {
			pthread_cond_wait(&gc_cv, &gc_mu);
			continue;
		}
		/* lead: take the queue (invariant 2) */
		g->busy = true;
		led = true;
		for (n = 0; g->head && n < GC_MAX_BATCH; n++) {
			batch[n] = g->head;
			g->head = g->head->next;
		}
		if (!g->head)
			g->tail = NULL;
		pthread_mutex_unlock(&gc_mu);
		floe_error_clear(&e1);
		rc = commit_batch(s, base, batch, n, a, out, &e1);
		pthread_mutex_lock(&gc_mu);
		for (i = 0; i < n; i++) {
			batch[i]->rc = rc;
			batch[i]->err = e1;
			batch[i]->done = true;
		}
		g->busy = false;
		pthread_cond_broadcast(&gc_cv);
	}
	pthread_mutex_unlock(&gc_mu);
	if (me.rc != FLOE_OK) {
		*err = me.err;
		return FLOE_ERR;
	}
	if (!led) {
		/* a follower: the head its commit made (or a later one) */
		floe_error_clear(&e1);
		if (table_load(s->engine->catalog, s->engine->io, base->ns, base->name, a, out, &e1) != FLOE_OK)
			*out = base;
	}
	watermark_note(s, (*out)->ns, (*out)->name, (*out)->md->last_sequence_number);
	return FLOE_OK;
}
