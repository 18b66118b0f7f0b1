/*
 * lru.h — a thread-safe, byte-bounded, reference-counted LRU cache of
 * immutable values keyed by a string.  One mechanism for the process-wide
 * caches of parsed files and plans (table metadata, scan plans, ...).
 *
 * An entry owns an Arena that holds its value; the cache never looks inside
 * the value.  Whoever gets a value back holds a reference on its entry; the
 * value stays valid (and must be treated as read-only) until that reference
 * is released.  Two ways to hold one:
 *   - tied to an arena: lru_get / lru_put with a non-NULL `hold` arena take a
 *     reference that is released when `hold` is next reset or freed;
 *   - by hand: lru_lookup / lru_insert give an LruRef to lru_release.
 *
 * INTERFACE ROUTINES
 *   lru_new(max_bytes)                 a cache holding at most max_bytes of
 *                                      entry arenas (arena_bytes at insert)
 *   lru_free(c)                        frees the cache and every entry; no
 *                                      reference may be outstanding
 *   lru_get(c, key, hold)              value or NULL (miss); reference tied to hold
 *   lru_put(c, key, own, value, hold)  hands `own` (an arena holding value) to
 *                                      the cache; returns value, valid until
 *                                      hold is reset; reference tied to hold
 *   lru_lookup(c, key, &ref)           as lru_get, reference in *ref
 *   lru_insert(c, key, own, value, &ref)
 *                                      as lru_put, reference in *ref
 *   lru_release(ref)                   drops a reference taken by hand
 *   lru_stats(c, &stats)               hits, misses, entries, bytes, evictions
 *
 * Invariants
 *   1. An entry with references is never freed: eviction frees only the least
 *      recently used entries that nobody references.
 *   2. After every lru_put/lru_insert, the bytes of the entries in the cache
 *      are <= max_bytes.  A value that cannot fit (larger than max_bytes, or
 *      the entries in use leave no room) is not cached: it is handed to the
 *      caller alone and its arena is freed when its last reference goes.
 *   3. One entry per key.  If another thread inserted the key meanwhile, the
 *      new value is handed to the caller uncached (as in 2): callers always
 *      get back the value they inserted.
 *   4. A hit makes the entry the most recently used.  Keys are copied;
 *      values must not be NULL (NULL means a miss); hold must not be NULL.
 *   5. Every call locks one mutex per cache, briefly (no callbacks under it);
 *      an evicted arena is freed after the mutex is dropped.
 *   6. Counters: a hit is an lru_get/lru_lookup that finds the key; a miss is
 *      an lru_put/lru_insert (the caller built the value because it missed).
 */
#ifndef FLOE_LRU_H
#define FLOE_LRU_H

#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"

typedef struct Lru Lru;
typedef struct LruEntry *LruRef;

typedef struct LruStats {
	uint64_t hits, misses, evictions;
	size_t entries, bytes, max_bytes;
} LruStats;

Lru *lru_new(size_t max_bytes);
void lru_free(Lru *c);
void *lru_get(Lru *c, const char *key, Arena *hold);
void *lru_put(Lru *c, const char *key, Arena *own, void *value, Arena *hold);
void *lru_lookup(Lru *c, const char *key, LruRef *ref);
void *lru_insert(Lru *c, const char *key, Arena *own, void *value, LruRef *ref);
void lru_release(LruRef ref);
void lru_stats(Lru *c, LruStats *stats);

#endif
