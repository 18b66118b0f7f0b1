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
		cmocka_unit_test(test_error__format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
