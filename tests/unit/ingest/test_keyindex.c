/*
 * test_keyindex.c — the insert buffer's PRIMARY KEY index and key lock
 * (src/ingest/keyindex.h; design at the top of keyindex.c).
 *
 * kset: 20,000 keys through rehashes, found with their sequences, others
 * absent.  keyidx_reserve: the table's keys are loaded from the log once;
 * a buffered key is a clash (its index); of two reservations of one key
 * the second waits until the first settles: a settled entry makes it a
 * clash, a failed one (settle 0) lets it through; keyidx_drop forgets the
 * keys a flush discarded, keyidx_forget reloads the table.  keylock: two
 * shared holders at once; an exclusive taker waits for them, and a shared
 * taker arriving after it waits for it (the gate).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ingest/keyindex.h"

#define UUID "00000000-0000-0000-0000-000000000001"

static void
test_kset__many(void **st)
{
	KSet *s = kset_new();
	uint32_t i;
	uint64_t seq;

	(void)st;
	for (i = 0; i < 20000; i++)
		kset_add(s, (const uint8_t *)&i, sizeof i, i + 1);
	assert_int_equal(kset_count(s), 20000);
	for (i = 0; i < 20000; i++) {
		assert_true(kset_find(s, (const uint8_t *)&i, sizeof i, &seq));
		assert_int_equal(seq, i + 1);
	}
	for (i = 20000; i < 20100; i++)
		assert_false(kset_find(s, (const uint8_t *)&i, sizeof i, NULL));
	kset_free(s);
}

static int nloads;

/* the log holds key "k1" at sequence 7 */
static int
load(void *arg, KSet *set, floe_error *err)
{
	(void)arg;
	(void)err;
	nloads++;
	kset_add(set, (const uint8_t *)"k1", 2, 7);
	return FLOE_OK;
}

typedef struct Racer {
	KeyIdx *x;
	const char *key;
	int rc, clash;
	KeyRes *res;
	atomic_int done;
} Racer;

static void *
race(void *arg)
{
	Racer *r = arg;
	uint8_t *k = (uint8_t *)r->key;
	uint32_t len = (uint32_t)strlen(r->key);
	floe_error err;

	floe_error_clear(&err);
	r->rc = keyidx_reserve(r->x, UUID, load, NULL, &k, &len, 1, NULL, &r->res, &r->clash, &err);
	r->done = 1;
	return NULL;
}

static void
reserve_one(KeyIdx *x, const char *key, int *rc, int *clash, KeyRes **res)
{
	uint8_t *k = (uint8_t *)key;
	uint32_t len = (uint32_t)strlen(key);
	floe_error err;

	floe_error_clear(&err);
	*rc = keyidx_reserve(x, UUID, load, NULL, &k, &len, 1, NULL, res, clash, &err);
}

static void
test_keyidx__reserve_race_settle(void **st)
{
	KeyIdx *x = keyidx_new();
	KeyRes *res;
	int rc, clash;
	Racer r = { 0 };
	pthread_t th;

	(void)st;
	nloads = 0;
	reserve_one(x, "k1", &rc, &clash, &res);        /* buffered before: a clash */
	assert_int_equal(rc, FLOE_ERR);
	assert_int_equal(clash, 0);
	assert_int_equal(nloads, 1);
	reserve_one(x, "k2", &rc, &clash, &res);        /* fresh: reserved */
	assert_int_equal(rc, FLOE_OK);
	/* a second INSERT of k2 waits while the first is pending ... */
	r.x = x;
	r.key = "k2";
	pthread_create(&th, NULL, race, &r);
	usleep(150 * 1000);
	assert_int_equal(r.done, 0);
	/* ... and is a clash once the first is durable */
	keyidx_settle(x, res, 9);
	pthread_join(th, NULL);
	assert_int_equal(r.rc, FLOE_ERR);
	assert_int_equal(r.clash, 0);
	/* a failed append lets the waiter through */
	reserve_one(x, "k3", &rc, &clash, &res);
	assert_int_equal(rc, FLOE_OK);
	memset(&r, 0, sizeof r);
	r.x = x;
	r.key = "k3";
	pthread_create(&th, NULL, race, &r);
	usleep(150 * 1000);
	assert_int_equal(r.done, 0);
	keyidx_settle(x, res, 0);
	pthread_join(th, NULL);
	assert_int_equal(r.rc, FLOE_OK);
	keyidx_settle(x, r.res, 10);
	/* a flush discarded up to 9: k1 (7) and k2 (9) go, k3 (10) stays */
	keyidx_drop(x, UUID, 9);
	reserve_one(x, "k2", &rc, &clash, &res);
	assert_int_equal(rc, FLOE_OK);
	keyidx_settle(x, res, 0);
	reserve_one(x, "k3", &rc, &clash, &res);
	assert_int_equal(rc, FLOE_ERR);
	assert_int_equal(nloads, 1);
	/* forgotten: loaded from the log again (k1 is there) */
	keyidx_forget(x, UUID);
	reserve_one(x, "k1", &rc, &clash, &res);
	assert_int_equal(rc, FLOE_ERR);
	assert_int_equal(nloads, 2);
	keyidx_free(x);
}

typedef struct Locker {
	const char *dir;
	bool exclusive;
	int fd;
	atomic_int got;
} Locker;

static void *
take(void *arg)
{
	Locker *l = arg;
	floe_error err;

	floe_error_clear(&err);
	if (keylock_take(l->dir, UUID, l->exclusive, NULL, &l->fd, &err) == FLOE_OK)
		l->got = 1;
	return NULL;
}

static void
test_keylock__shared_exclusive_gate(void **st)
{
	char dir[] = "/tmp/floe-keylock.XXXXXX";
	Locker s1 = { 0 }, s2 = { 0 }, ex = { 0 }, s3 = { 0 };
	pthread_t t1, t2, t3, t4;
	char path[256];

	(void)st;
	assert_non_null(mkdtemp(dir));
	s1.dir = s2.dir = ex.dir = s3.dir = dir;
	ex.exclusive = true;
	pthread_create(&t1, NULL, take, &s1);
	pthread_join(t1, NULL);
	pthread_create(&t2, NULL, take, &s2);
	pthread_join(t2, NULL);
	assert_true(s1.got && s2.got);          /* shared with shared */
	pthread_create(&t3, NULL, take, &ex);
	usleep(100 * 1000);
	assert_false(ex.got);                   /* waits for the shared holders */
	pthread_create(&t4, NULL, take, &s3);
	usleep(100 * 1000);
	assert_false(s3.got);                   /* behind the exclusive waiter */
	keylock_release(s1.fd);
	keylock_release(s2.fd);
	pthread_join(t3, NULL);
	assert_true(ex.got);
	usleep(50 * 1000);
	assert_false(s3.got);
	keylock_release(ex.fd);
	pthread_join(t4, NULL);
	assert_true(s3.got);
	keylock_release(s3.fd);
	snprintf(path, sizeof path, "%s/%s", dir, UUID);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kset__many),
		cmocka_unit_test(test_keyidx__reserve_race_settle),
		cmocka_unit_test(test_keylock__shared_exclusive_gate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
