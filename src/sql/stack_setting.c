/*
 * stack_setting.c — max_stack_depth (see stack_setting.h).
 */
#include <stdlib.h>
#include <string.h>
#include "common/stack.h"
#include "sql/stack_setting.h"

/* kB of a canonical integer setting with a memory unit; 0: not one */
static size_t
value_kb(const char *v)
{
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return 0;
	n = strtoull(v, &end, 10);
	if (!strcmp(end, "") || !strcmp(end, "kB"))
		return (size_t)n;
	if (!strcmp(end, "MB"))
		return (size_t)n << 10;
	if (!strcmp(end, "GB"))
		return (size_t)n << 20;
	if (!strcmp(end, "TB"))
		return (size_t)n << 30;
	return 0;
}

int
stack_setting_check(const char *value, floe_error *err)
{
	size_t kb = value_kb(value), limit = stack_thread_limit_kb();

	if (kb <= limit)
		return FLOE_OK;
	floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"max_stack_depth\": %zu",
		    kb);
	floe_error_detail(err, "\"max_stack_depth\" must not exceed %zukB.", limit);
	return floe_error_hint(err, "floe runs statements on threads with a stack of their own "
			       "(%zu kB usable here); this setting can only lower the limit.", limit);
}

void
stack_setting_apply(const char *value)
{
	stack_set_max_kb(value_kb(value));
}
