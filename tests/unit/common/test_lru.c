/*
 * test_lru.c — common/lru: hits and misses, eviction of the least recently
 * used unreferenced entries under the byte bound, entries in use never
 * freed, uncacheable and raced values handed out alone, references tied to
 * arenas, and many threads sharing a few keys under a small bound (run under
 * ASan by the suite; by hand with -fsanitize=thread, see the last test).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "common/arena.h"
#include "common/lru.h"

/* A value: its key and a payload of `size` bytes filled with one byte. */
typedef struct Val {
	char key[32];
	size_t size;
	uint8_t fill;
	uint8_t *payload;
} Val;

static Val *
make_val(const char *key, size_t size, Arena **own)
{
	Arena *a = arena_new(0);
	Val *v = ARENA_NEW(a, Val);

	snprintf(v->key, sizeof v->key, "%s", key);
	v->size = size;
	v->fill = (uint8_t)(strlen(key) * 31 + (uint8_t)key[0]);
	v->payload = arena_alloc(a, size);
	memset(v->payload, v->fill, size);
	*own = a;
	return v;
}

static int
val_ok(const Val *v, const char *key)
{
	size_t i;

	if (strcmp(v->key, key) != 0)
		return 0;
	for (i = 0; i < v->size; i++)
		if (v->payload[i] != v->fill)
			return 0;
	return 1;
}

/* arena_bytes of a value of `size` payload bytes */
static size_t
val_bytes(size_t size)
{
	Arena *own;
	size_t b;

	make_val("x", size, &own);
	b = arena_bytes(own);
	arena_free(own);
	return b;
}

static void
test_lru__hit_miss_and_hold(void **state)
{
	Lru *c = lru_new(1 << 20);
	Arena *h1 = arena_new(0), *h2 = arena_new(0), *own;
	Val *v, *g;
	LruStats s;

	assert_null(lru_get(c, "a", h1));
	v = make_val("a", 100, &own);
	assert_ptr_equal(lru_put(c, "a", own, v, h1), v);
	g = lru_get(c, "a", h2);
	assert_ptr_equal(g, v);
	assert_null(lru_get(c, "b", h2));
	lru_stats(c, &s);
	assert_int_equal(s.hits, 1);
	assert_int_equal(s.misses, 1);
	assert_int_equal(s.entries, 1);
	assert_int_equal(s.bytes, val_bytes(100));
	/* released by resetting the holders; the entry stays cached */
	arena_reset(h1);
	arena_reset(h2);
	g = lru_get(c, "a", h1);
	assert_ptr_equal(g, v);
	assert_true(val_ok(g, "a"));
	arena_free(h1);
	arena_free(h2);
	lru_free(c);
}

static void
test_lru__evicts_least_recently_used(void **state)
{
	size_t vb = val_bytes(1000);
	Lru *c = lru_new(3 * vb);        /* room for three */
	Arena *own;
	LruRef r;
	LruStats s;
	const char *keys[] = {"k1", "k2", "k3"};
	int i;

	for (i = 0; i < 3; i++) {
		Val *v = make_val(keys[i], 1000, &own);
		lru_insert(c, keys[i], own, v, &r);
		lru_release(r);
	}
	/* touch k1: k2 is now the least recently used */
	assert_non_null(lru_lookup(c, "k1", &r));
	lru_release(r);
	{
		Val *v = make_val("k4", 1000, &own);
		lru_insert(c, "k4", own, v, &r);
		lru_release(r);
	}
	lru_stats(c, &s);
	assert_int_equal(s.entries, 3);
	assert_int_equal(s.evictions, 1);
	assert_true(s.bytes <= s.max_bytes);
	assert_null(lru_lookup(c, "k2", &r));
	assert_null(r);
	assert_non_null(lru_lookup(c, "k1", &r));
	lru_release(r);
	assert_non_null(lru_lookup(c, "k3", &r));
	lru_release(r);
	assert_non_null(lru_lookup(c, "k4", &r));
	lru_release(r);
	/* one large value evicts as many old ones as it needs, oldest first */
	{
		Val *v = make_val("big", 2000, &own);
		lru_insert(c, "big", own, v, &r);
		lru_release(r);
	}
	lru_stats(c, &s);
	assert_true(s.bytes <= s.max_bytes);
	assert_null(lru_lookup(c, "k1", &r));
	assert_null(lru_lookup(c, "k3", &r));
	assert_non_null(lru_lookup(c, "k4", &r));
	lru_release(r);
	assert_non_null(lru_lookup(c, "big", &r));
	lru_release(r);
	lru_free(c);
}

static void
test_lru__in_use_never_evicted(void **state)
{
	size_t vb = val_bytes(1000);
	Lru *c = lru_new(2 * vb);
	Arena *own;
	LruRef ra, rb, rc, rd;
	Val *a, *b, *x, *d;
	LruStats s;

	a = make_val("a", 1000, &own);
	lru_insert(c, "a", own, a, &ra);
	b = make_val("b", 1000, &own);
	lru_insert(c, "b", own, b, &rb);
	/* both in use and the cache full: "c" is handed out uncached */
	x = make_val("c", 1000, &own);
	assert_ptr_equal(lru_insert(c, "c", own, x, &rc), x);
	assert_true(val_ok(a, "a"));
	assert_true(val_ok(b, "b"));
	assert_true(val_ok(x, "c"));
	lru_stats(c, &s);
	assert_int_equal(s.entries, 2);
	assert_int_equal(s.evictions, 0);
	assert_null(lru_lookup(c, "c", &rd));
	lru_release(rc);                 /* frees c's arena (ASan: no leak) */
	/* release b only: the next insert evicts b although a is older */
	lru_release(rb);
	d = make_val("d", 1000, &own);
	lru_insert(c, "d", own, d, &rd);
	assert_true(val_ok(a, "a"));
	assert_null(lru_lookup(c, "b", &rb));
	assert_non_null(lru_lookup(c, "a", &rb));
	lru_release(rb);
	/* a value larger than the bound is never cached */
	x = make_val("huge", 3000, &own);
	assert_ptr_equal(lru_insert(c, "huge", own, x, &rc), x);
	assert_true(val_ok(x, "huge"));
	lru_release(rc);
	assert_null(lru_lookup(c, "huge", &rc));
	lru_stats(c, &s);
	assert_int_equal(s.entries, 2);
	assert_int_equal(s.evictions, 1);
	lru_release(ra);
	lru_release(rd);
	lru_free(c);
}

static void
test_lru__raced_insert_keeps_first(void **state)
{
	Lru *c = lru_new(1 << 20);
	Arena *own, *h = arena_new(0);
	Val *v1, *v2;
	LruStats s;

	v1 = make_val("k", 10, &own);
	lru_put(c, "k", own, v1, h);
	v2 = make_val("k", 20, &own);
	/* a second loader of the same key gets its own value back, uncached */
	assert_ptr_equal(lru_put(c, "k", own, v2, h), v2);
	assert_ptr_equal(lru_get(c, "k", h), v1);
	lru_stats(c, &s);
	assert_int_equal(s.entries, 1);
	assert_int_equal(s.misses, 2);
	assert_int_equal(s.hits, 1);
	arena_free(h);                   /* frees v2's arena, releases v1 */
	lru_free(c);
}

/* ---- threads ---------------------------------------------------------- */

#define NTHREADS 8
#define NKEYS 12
#define ITERS 4000

typedef struct Worker {
	Lru *c;
	int seed;
	int bad;
} Worker;

static void *
worker(void *arg)
{
	Worker *w = arg;
	unsigned r = (unsigned)w->seed * 2654435761u;
	Arena *hold = arena_new(0);
	int i;

	for (i = 0; i < ITERS; i++) {
		char key[16];
		Val *v;
		LruRef ref = NULL;

		r = r * 1103515245u + 12345u;
		snprintf(key, sizeof key, "key%u", (r >> 16) % NKEYS);
		if ((r >> 8) & 1) {
			/* by hand */
			v = lru_lookup(w->c, key, &ref);
			if (!v) {
				Arena *own;
				v = make_val(key, 64 + (r >> 20) % 700, &own);
				lru_insert(w->c, key, own, v, &ref);
			}
			if (!val_ok(v, key))
				w->bad++;
			lru_release(ref);
		} else {
			/* tied to an arena, reset every few rounds */
			v = lru_get(w->c, key, hold);
			if (!v) {
				Arena *own;
				v = make_val(key, 64 + (r >> 20) % 700, &own);
				lru_put(w->c, key, own, v, hold);
			}
			if (!val_ok(v, key))
				w->bad++;
			if (i % 5 == 0)
				arena_reset(hold);
		}
	}
	arena_free(hold);
	return NULL;
}

static void
test_lru__threads(void **state)
{
	/* room for about four values: constant eviction, often all in use */
	Lru *c = lru_new(4 * val_bytes(400));
	pthread_t th[NTHREADS];
	Worker w[NTHREADS];
	LruStats s;
	int i;

	for (i = 0; i < NTHREADS; i++) {
		w[i].c = c;
		w[i].seed = i + 1;
		w[i].bad = 0;
		assert_int_equal(pthread_create(&th[i], NULL, worker, &w[i]), 0);
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(w[i].bad, 0);
	}
	lru_stats(c, &s);
	assert_int_equal(s.hits + s.misses, (uint64_t)NTHREADS * ITERS);
	assert_true(s.bytes <= s.max_bytes);
	assert_true(s.entries <= NKEYS);
	assert_true(s.evictions > 0);
	assert_true(s.hits > 0);
	lru_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru__hit_miss_and_hold),
		cmocka_unit_test(test_lru__evicts_least_recently_used),
		cmocka_unit_test(test_lru__in_use_never_evicted),
		cmocka_unit_test(test_lru__raced_insert_keeps_first),
		cmocka_unit_test(test_lru__threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
