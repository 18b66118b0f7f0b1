/*
 * optimizer.c — the ordered pass list and floe.disabled_optimizers
 * (optimize/optimizer.h).
 */
#include "optimize/optimizer.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* run == NULL: a rewrite the binder makes or a rule of another pass (it
 * asks optimizer_disabled), named here so the setting can switch it off */
static const struct {
	const char *name;
	OptPassFn run;
} passes[] = {
	{ "mark_join", NULL },
	{ "decorrelate", opt_decorrelate },
	{ "join_filter_pushdown", opt_join_filter_pushdown },
	{ "join_order", opt_join_order },
	{ "join_dp", NULL },
	{ "filter_pushdown", opt_pushdown_filter },
};

#define NPASSES ((int)(sizeof passes / sizeof passes[0]))

int
optimizer_pass_count(void)
{
	return NPASSES;
}

const char *
optimizer_pass_name(int i)
{
	return i >= 0 && i < NPASSES ? passes[i].name : NULL;
}

/* Is `name` (len bytes) an item of the comma list `list`?  Items are
 * compared without surrounding blanks, case-insensitively. */
static bool
listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		const char *e = strchr(p, ',');
		const char *q = e ? e : p + strlen(p);
		while (p < q && isspace((unsigned char)*p))
			p++;
		while (q > p && isspace((unsigned char)q[-1]))
			q--;
		if ((size_t)(q - p) == n && strncasecmp(p, name, n) == 0)
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

int
optimizer_canon_disabled(const char *value, char *out, size_t cap, floe_error *err)
{
	const char *p = value;
	size_t used = 0;

	out[0] = 0;
	while (p && *p) {
		const char *e = strchr(p, ',');
		const char *q = e ? e : p + strlen(p);
		int i;
		while (p < q && isspace((unsigned char)*p))
			p++;
		while (q > p && isspace((unsigned char)q[-1]))
			q--;
		if (q > p) {
			for (i = 0; i < NPASSES; i++)
				if (strlen(passes[i].name) == (size_t)(q - p) &&
				    strncasecmp(passes[i].name, p, (size_t)(q - p)) == 0)
					break;
			if (i == NPASSES) {
				char names[256] = "";
				for (int k = 0; k < NPASSES; k++)
					snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
						 k ? ", " : "", passes[k].name);
				floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					    "invalid value for parameter \"floe.disabled_optimizers\": \"%.*s\" is not an optimizer pass",
					    (int)(q - p), p);
				return floe_error_hint(err, "Available passes: %s.", names);
			}
			if (!listed(out, passes[i].name)) {
				int w = snprintf(out + used, cap - used, "%s%s", used ? "," : "", passes[i].name);
				if (w < 0 || (size_t)w >= cap - used)
					return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "floe.disabled_optimizers is too long");
				used += (size_t)w;
			}
		}
		p = e ? e + 1 : NULL;
	}
	return FLOE_OK;
}

bool
optimizer_disabled(const char *disabled, const char *name)
{
	return disabled && listed(disabled, name);
}

int
optimize_plan(LogicalPlan *plan, LogicalOp **root, const char *disabled, floe_error *err)
{
	plan->disabled = disabled;
	for (int i = 0; i < NPASSES; i++) {
		bool changed = false;
		if (!passes[i].run || (disabled && listed(disabled, passes[i].name)))
			continue;
		if (passes[i].run(plan, root, &changed, err) != FLOE_OK) {
			plan->disabled = NULL;
			return FLOE_ERR;
		}
#ifdef FLOE_DEBUG
		if (lplan_verify(plan, *root, err) != FLOE_OK) {
			char why[sizeof err->message];
			snprintf(why, sizeof why, "%s", err->message);   /* err is the output too */
			plan->disabled = NULL;
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "optimizer pass %s broke the plan: %s",
					   passes[i].name, why);
		}
#endif
		if (changed && plan->npasses < LPLAN_MAX_PASSES)
			plan->passes[plan->npasses++] = passes[i].name;
	}
	plan->disabled = NULL;
	return FLOE_OK;
}
