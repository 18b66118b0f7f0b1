/*
 * test_error.c — floe_error's CONTEXT (PostgreSQL's Where field):
 * floe_error_context adds lines below each other, is cleared by
 * floe_error_clear and floe_errorf, and never overflows its buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "common/error.h"

static void
test_error__context_lines(void **state)
{
	floe_error err;
	(void)state;
	floe_error_clear(&err);
	assert_string_equal(err.context, "");
	assert_int_equal(floe_errorf(&err, ERRCODE_INVALID_TEXT_REPRESENTATION,
				     "invalid input syntax for type integer: \"%s\"", "x"), FLOE_ERR);
	assert_int_equal(floe_error_context(&err, "COPY %s, line %d, column %s: \"%s\"", "t", 3, "a", "x"),
			 FLOE_ERR);
	assert_string_equal(err.context, "COPY t, line 3, column a: \"x\"");
	floe_error_context(&err, "SQL statement \"%s\"", "COPY t FROM STDIN");
	assert_string_equal(err.context, "COPY t, line 3, column a: \"x\"\nSQL statement \"COPY t FROM STDIN\"");
	assert_string_equal(err.detail, "");
	/* a new error starts without the old one's context */
	floe_errorf(&err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
	assert_string_equal(err.context, "");
	floe_error_context(&err, "x");
	floe_error_clear(&err);
	assert_string_equal(err.context, "");
	assert_int_equal(floe_error_context(NULL, "x"), FLOE_ERR);
}

static void
test_error__context_never_overflows(void **state)
{
	floe_error err;
	char big[3000];
	int i;
	(void)state;
	memset(big, 'v', sizeof big - 1);
	big[sizeof big - 1] = 0;
	floe_errorf(&err, ERRCODE_INTERNAL_ERROR, "m");
	for (i = 0; i < 5; i++)
		floe_error_context(&err, "%s", big);
	assert_int_equal(strlen(err.context), sizeof err.context - 1);
	assert_int_equal(err.context[sizeof err.context - 1], 0);
	/* full: further lines are dropped, the text stays terminated */
	floe_error_context(&err, "more");
	assert_int_equal(strlen(err.context), sizeof err.context - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error__context_lines),
		cmocka_unit_test(test_error__context_never_overflows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
