/*
 * test_arena.c — arena allocation, alignment, reset callbacks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"

static int calls;
static void count_call(void *arg) { calls += *(int *)arg; }

static void
test_arena__alignment_and_big(void **state)
{
	Arena *a = arena_new(4096);
	int i;
	for (i = 0; i < 1000; i++) {
		char *p = arena_alloc(a, (size_t)(i % 37) + 1);
		assert_int_equal((uintptr_t)p % 16, 0);
		memset(p, 0xab, (size_t)(i % 37) + 1);
	}
	char *big = arena_alloc(a, 1 << 20);
	memset(big, 1, 1 << 20);
	char *s = arena_strdup(a, "hello");
	assert_string_equal(s, "hello");
	char *f = arena_sprintf(a, "%d-%s", 42, "x");
	assert_string_equal(f, "42-x");
	arena_free(a);
}

static void
test_arena__reset_callbacks(void **state)
{
	Arena *a = arena_new(0);
	int one = 1, ten = 10;
	calls = 0;
	arena_on_reset(a, count_call, &one);
	arena_on_reset(a, count_call, &ten);
	arena_reset(a);
	assert_int_equal(calls, 11);
	assert_int_equal(arena_bytes(a), 0);
	arena_alloc(a, 100);
	arena_reset(a);
	assert_int_equal(calls, 11);
	arena_free(a);
}

/* Memory accounts: arenas made under the current account charge their
 * chunks and give them back; passing the limit is recorded, never refused;
 * the account lives until its last arena is freed. */
static void
test_arena__memory_account(void **state)
{
	MemAccount *m = memacct_new(1 << 20);
	Arena *a, *b;
	floe_error err;
	int i;

	memacct_set_current(m);
	a = arena_new(64 * 1024);
	memacct_set_current(NULL);
	assert_ptr_equal(arena_account(a), m);
	assert_true(memacct_used(m) >= 64 * 1024);
	assert_false(memacct_exceeded(m));
	for (i = 0; i < 40; i++)
		arena_alloc(a, 64 * 1024);          /* 2.5 MB: past 1 MB */
	assert_true(memacct_used(m) > 1 << 20);
	assert_true(arena_over_limit(a));
	assert_true(memacct_peak(m) >= memacct_used(m));
	arena_reset(a);                             /* spare chunks stay charged */
	arena_free(a);                              /* ... until the arena goes */
	assert_int_equal(memacct_used(m), 0);
	floe_error_clear(&err);
	assert_int_equal(memacct_error(m, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "53200");
	assert_string_equal(err.message, "out of memory");
	assert_non_null(strstr(err.detail, "floe.query_memory_limit (1024 kB)"));
	assert_non_null(strstr(err.hint, "floe.query_memory_limit"));

	/* attaching later charges what the arena holds; detaching gives it back */
	b = arena_new(0);
	assert_null(arena_account(b));
	arena_alloc(b, 100000);
	arena_set_account(b, m);
	assert_true(memacct_used(m) >= 100000);
	memacct_charge(m, 5000);                    /* malloc'd state */
	memacct_charge(m, -5000);
	arena_set_account(b, NULL);
	assert_int_equal(memacct_used(m), 0);
	memacct_unref(m);                           /* b no longer holds it */
	arena_free(b);

	/* an arena keeps its account alive after its owner lets it go */
	m = memacct_new(0);
	memacct_set_current(m);
	a = arena_new(0);
	memacct_set_current(NULL);
	memacct_unref(m);
	arena_alloc(a, 1 << 20);
	assert_false(arena_over_limit(a));          /* limit 0: none */
	arena_free(a);                              /* frees m (ASan: no leak) */
}

/* arena_held is what is malloc'd, spare chunks included; arena_release
 * gives the spare ones back (the spilling operators count it) */
static void
test_arena__held_and_release(void **state)
{
	Arena *a = arena_new(4096);
	size_t first = arena_held(a), big;
	int i;

	(void)state;
#ifdef FLOE_DEBUG_ARENA
	arena_free(a);
	skip();               /* every allocation is its own chunk, no spares */
#endif
	assert_true(first >= 4096);
	for (i = 0; i < 64; i++)
		arena_alloc(a, 3000);      /* new chunks */
	arena_alloc(a, 1 << 20);           /* a chunk of its own */
	big = arena_held(a);
	assert_true(big >= first + 63 * 3000 + (1 << 20));   /* the first fits in the first chunk */
	arena_reset(a);
	assert_int_equal(arena_held(a), big);  /* kept as spare */
	arena_release(a);
	assert_int_equal(arena_held(a), first);
	assert_int_equal(arena_bytes(a), 0);
	assert_int_equal(arena_held(NULL), 0);
	arena_free(a);
}

static void
test_error__format(void **state)
{
	floe_error err;
	floe_error_clear(&err);
	assert_int_equal(floe_errorf(&err, ERRCODE_DIVISION_BY_ZERO, "division by %s", "zero"), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22012");
	assert_string_equal(err.message, "division by zero");
	floe_error_prefix(&err, "file %s: ", "a.parquet");
	assert_string_equal(err.message, "file a.parquet: division by zero");
	assert_true(floe_error_is(&err, ERRCODE_DIVISION_BY_ZERO));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena__alignment_and_big),
		cmocka_unit_test(test_arena__reset_callbacks),
		cmocka_unit_test(test_arena__memory_account),
		cmocka_unit_test(test_arena__held_and_release),
		cmocka_unit_test(test_error__format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
