/*
 * settings_noeffect.c — the settings floe acts on (see
 * settings_noeffect.h).  Keep in step with docs/settings.md.
 */
#include <string.h>
#include "common/error.h"
#include "sql/settings_noeffect.h"

static const char *const acted_on[] = {
	"application_name",
	"client_encoding",                  /* UTF8 / SQL_ASCII; others refused */
	"client_min_messages",              /* sql/client_messages.h */
	"datestyle",
	"default_transaction_isolation",
	"default_transaction_read_only",
	"extra_float_digits",
	"idle_in_transaction_session_timeout",
	"idle_session_timeout",
	"ignore_checksum_failure",          /* Parquet page CRCs */
	"intervalstyle",
	"max_parallel_workers_per_gather",
	"max_stack_depth",                  /* sql/stack_setting.h */
	"role",
	"search_path",
	"session_authorization",
	"standard_conforming_strings",      /* on only */
	"statement_timeout",
	"timezone",
	"transaction_isolation",
	"transaction_read_only",
	"work_mem",
	/* nothing in floe differs between their values: no row-level security
	 * policies exist (pg_dump sets it off) and no function bodies are
	 * checked */
	"row_security",
	"check_function_bodies",
};

bool
settings_acted_on(const char *name)
{
	size_t i;
	if (!strncmp(name, "floe.", 5))
		return true;
	for (i = 0; i < sizeof acted_on / sizeof acted_on[0]; i++)
		if (!strcmp(acted_on[i], name))
			return true;
	return false;
}

void
settings_warn_noeffect(ResultSink *sink, const char *name)
{
	floe_error n;

	if (!sink || !sink->notice)
		return;
	floe_errorf(&n, ERRCODE_WARNING, "floe does not act on setting \"%s\": it is stored and shown, "
		    "but statements run as with its default", name);
	floe_error_hint(&n, "docs/settings.md lists the settings floe acts on.");
	sink->notice(sink->ctx, &n);
}
