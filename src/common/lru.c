/*
 * lru.c — the thread-safe, byte-bounded, reference-counted string-keyed LRU
 * cache described in lru.h (interface and invariants there).
 *
 * Layout: entries are heap objects on two structures, both under the cache's
 * one mutex: a chained hash table (FNV-1a of the key, power-of-two buckets,
 * doubled when entries outnumber buckets) for lookup, and a doubly linked
 * list in recency order (head = most recently used) for eviction, which
 * walks from the tail skipping referenced entries.  An entry not in the
 * cache ("detached": uncacheable, or lost an insert race) is reachable only
 * through its references; the last lru_release frees it.
 *
 * Eviction (insert of B bytes, cache at T of M): if B > M, or the
 * unreferenced entries from the tail cannot free T + B - M bytes, nothing is
 * evicted and the value is detached; otherwise exactly those tail entries
 * go, their arenas freed after the mutex is dropped.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "common/lru.h"

struct LruEntry {
	Lru *cache;
	char *key;               /* xstrdup'd */
	uint64_t hash;
	Arena *arena;            /* owns value */
	void *value;
	size_t bytes;            /* arena_bytes(arena) at insert */
	int refs;
	bool cached;             /* in the table and the list */
	struct LruEntry *chain;  /* hash bucket chain */
	struct LruEntry *prev, *next;   /* recency list; prev is more recent */
};

struct Lru {
	pthread_mutex_t mu;
	size_t max_bytes, bytes, n, nbuckets;
	struct LruEntry **buckets;
	struct LruEntry *head, *tail;
	uint64_t hits, misses, evictions;
};

static uint64_t
hash_key(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

Lru *
lru_new(size_t max_bytes)
{
	Lru *c = xcalloc(1, sizeof *c);

	pthread_mutex_init(&c->mu, NULL);
	c->max_bytes = max_bytes;
	c->nbuckets = 16;
	c->buckets = xcalloc(c->nbuckets, sizeof *c->buckets);
	return c;
}

static void
entry_free(struct LruEntry *e)
{
	arena_free(e->arena);
	free(e->key);
	free(e);
}

void
lru_free(Lru *c)
{
	struct LruEntry *e, *next;

	if (!c)
		return;
	for (e = c->head; e; e = next) {
		next = e->next;
		entry_free(e);
	}
	free(c->buckets);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

/* ---- under the mutex -------------------------------------------------- */

static struct LruEntry *
find(Lru *c, const char *key, uint64_t h)
{
	struct LruEntry *e;

	for (e = c->buckets[h & (c->nbuckets - 1)]; e; e = e->chain)
		if (e->hash == h && strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

static void
list_unlink(Lru *c, struct LruEntry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		c->head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		c->tail = e->prev;
	e->prev = e->next = NULL;
}

static void
list_push_head(Lru *c, struct LruEntry *e)
{
	e->prev = NULL;
	e->next = c->head;
	if (c->head)
		c->head->prev = e;
	else
		c->tail = e;
	c->head = e;
}

static void
table_remove(Lru *c, struct LruEntry *e)
{
	struct LruEntry **p = &c->buckets[e->hash & (c->nbuckets - 1)];

	while (*p != e)
		p = &(*p)->chain;
	*p = e->chain;
	e->chain = NULL;
}

static void
table_add(Lru *c, struct LruEntry *e)
{
	size_t i;

	if (c->n + 1 > c->nbuckets) {
		size_t nb = c->nbuckets * 2;
		struct LruEntry **b = xcalloc(nb, sizeof *b);
		for (i = 0; i < c->nbuckets; i++) {
			struct LruEntry *x = c->buckets[i], *next;
			for (; x; x = next) {
				next = x->chain;
				x->chain = b[x->hash & (nb - 1)];
				b[x->hash & (nb - 1)] = x;
			}
		}
		free(c->buckets);
		c->buckets = b;
		c->nbuckets = nb;
	}
	i = e->hash & (c->nbuckets - 1);
	e->chain = c->buckets[i];
	c->buckets[i] = e;
}

/*
 * Make room for `need` bytes: unlink the least recently used unreferenced
 * entries and return them chained on *victims (to free unlocked).  Returns
 * false, unlinking nothing, when they cannot free enough.
 */
static bool
make_room(Lru *c, size_t need, struct LruEntry **victims)
{
	struct LruEntry *e, *prev;
	size_t freeable = 0;

	*victims = NULL;
	if (need > c->max_bytes)
		return false;
	if (c->bytes + need <= c->max_bytes)
		return true;
	for (e = c->tail; e && c->bytes - freeable + need > c->max_bytes; e = e->prev)
		if (e->refs == 0)
			freeable += e->bytes;
	if (c->bytes - freeable + need > c->max_bytes)
		return false;
	for (e = c->tail; e && c->bytes + need > c->max_bytes; e = prev) {
		prev = e->prev;
		if (e->refs > 0)
			continue;
		list_unlink(c, e);
		table_remove(c, e);
		e->cached = false;
		c->bytes -= e->bytes;
		c->n--;
		c->evictions++;
		e->chain = *victims;
		*victims = e;
	}
	return true;
}

/* ---- interface -------------------------------------------------------- */

void *
lru_lookup(Lru *c, const char *key, LruRef *ref)
{
	uint64_t h = hash_key(key);
	struct LruEntry *e;

	pthread_mutex_lock(&c->mu);
	e = find(c, key, h);
	if (e) {
		e->refs++;
		c->hits++;
		if (c->head != e) {
			list_unlink(c, e);
			list_push_head(c, e);
		}
	}
	pthread_mutex_unlock(&c->mu);
	*ref = e;
	return e ? e->value : NULL;
}

void *
lru_insert(Lru *c, const char *key, Arena *own, void *value, LruRef *ref)
{
	struct LruEntry *e = xcalloc(1, sizeof *e), *victims = NULL, *next;
	uint64_t h = hash_key(key);

	e->cache = c;
	e->key = xstrdup(key);
	e->hash = h;
	e->arena = own;
	e->value = value;
	e->bytes = arena_bytes(own);
	e->refs = 1;
	pthread_mutex_lock(&c->mu);
	c->misses++;
	if (!find(c, key, h) && make_room(c, e->bytes, &victims)) {
		e->cached = true;
		table_add(c, e);
		list_push_head(c, e);
		c->bytes += e->bytes;
		c->n++;
	}
	pthread_mutex_unlock(&c->mu);
	for (; victims; victims = next) {
		next = victims->chain;
		entry_free(victims);
	}
	*ref = e;
	return value;
}

void
lru_release(LruRef e)
{
	Lru *c;
	bool drop;

	if (!e)
		return;
	c = e->cache;
	pthread_mutex_lock(&c->mu);
	e->refs--;
	drop = e->refs == 0 && !e->cached;
	pthread_mutex_unlock(&c->mu);
	if (drop)
		entry_free(e);
}

static void
release_cb(void *arg)
{
	lru_release(arg);
}

void *
lru_get(Lru *c, const char *key, Arena *hold)
{
	LruRef ref;
	void *v = lru_lookup(c, key, &ref);

	if (ref)
		arena_on_reset(hold, release_cb, ref);
	return v;
}

void *
lru_put(Lru *c, const char *key, Arena *own, void *value, Arena *hold)
{
	LruRef ref;

	lru_insert(c, key, own, value, &ref);
	arena_on_reset(hold, release_cb, ref);
	return value;
}

void
lru_stats(Lru *c, LruStats *s)
{
	pthread_mutex_lock(&c->mu);
	s->hits = c->hits;
	s->misses = c->misses;
	s->evictions = c->evictions;
	s->entries = c->n;
	s->bytes = c->bytes;
	s->max_bytes = c->max_bytes;
	pthread_mutex_unlock(&c->mu);
}
