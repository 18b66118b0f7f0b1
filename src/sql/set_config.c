/*
 * set_config.c — set_config(name, value, is_local) (see set_config.h).
 */
#include <string.h>
#include <strings.h>
#include "func/func.h"
#include "func/session_env.h"
#include "sql/pgcatalog.h"
#include "sql/set_config.h"
#include "sql/txn.h"
#include "types/cast.h"

bool
set_config_is_func(const char *name)
{
	return !strcmp(name, "set_config");
}

/* the settings SET hands to txn.c or acl.c on its way, not set here */
static bool
refused(const char *name)
{
	static const char *const names[] = { "transaction_isolation", "transaction_read_only",
					     "transaction_deferrable", "default_transaction_isolation",
					     "default_transaction_read_only",
					     "default_transaction_deferrable", "role",
					     "session_authorization" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcasecmp(name, names[i]))
			return true;
	return false;
}

static int
set_one(Session *s, const char *name, const char *value, bool local, const char **shown,
	floe_error *err)
{
	bool found;

	if (refused(name))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "set_config of \"%s\" is not supported yet: use SET", name);
	if (local) {
		char low[128];
		size_t i;
		for (i = 0; name[i] && i + 1 < sizeof low; i++)
			low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
		low[i] = '\0';
		TRY(txn_set_config_local(s, low, err));
	}
	TRY(session_set_value(s, name, value, s->msg_sink, err));
	*shown = pgcatalog_setting(s, name, &found);
	return FLOE_OK;
}

static int
set_config_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Session *s = ctx->env ? ctx->env->session : NULL;   /* func/session_env.h */
	uint32_t i;

	(void)nargs;
	if (!s)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "set_config cannot run here (no session)");
	for (i = 0; i < count; i++) {
		Value n, v, l;
		const char *name, *value = NULL, *shown = NULL;
		vector_get_value(&args[0], i, &n);
		vector_get_value(&args[1], i, &v);
		vector_get_value(&args[2], i, &l);
		if (n.is_null)
			return floe_errorf(ctx->err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					   "SET requires parameter name");
		name = arena_strndup(ctx->arena, strview_data(&n.u.s), n.u.s.len);
		if (!v.is_null)
			value = arena_strndup(ctx->arena, strview_data(&v.u.s), v.u.s.len);
		TRY(set_one(s, name, value, !l.is_null && l.u.b, &shown, ctx->err));
		if (shown)
			vector_set_string(out, i, shown, (uint32_t)strlen(shown));
		else
			vector_set_null(out, i);
	}
	return FLOE_OK;
}

static const ScalarFunc fn_set_config = { "set_config", set_config_k, 3, 0,
					  { TYPE_TEXT, TYPE_TEXT, TYPE_BOOL }, TYPE_TEXT, FRET_FIXED,
					  false, false };

Expr *
set_config_bind_call(BindCtx *b, Expr **args, int nargs, int location)
{
	Expr *e;
	int i;

	if (nargs != 3) {
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function set_config with %d arguments does not exist",
			    nargs);
		floe_error_hint(b->err, "No function matches the given name and argument types. "
				"You might need to add explicit type casts.");
		floe_error_position(b->err, bind_location(b, location));
		return NULL;
	}
	e = expr_new(b->arena, EXPR_FUNC, type_make(TYPE_TEXT), 3);
	e->fn = &fn_set_config;
	e->location = bind_location(b, location);
	for (i = 0; i < 3; i++)
		if (!(e->args[i] = bind_coerce(b, args[i], type_make(i == 2 ? TYPE_BOOL : TYPE_TEXT),
					       COERCE_IMPLICIT, NULL)))
			return NULL;
	return e;
}
