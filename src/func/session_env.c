/*
 * session_env.c — capture and apply a statement's SessionEnv
 * (func/session_env.h).
 */
#include "func/session_env.h"

#include <string.h>

#include "func/func.h"
#include "types/text.h"

void
session_env_capture(SessionEnv *env)
{
	memset(env, 0, sizeof *env);
	env->zone = datetime_current_zone();
	env->style = datetime_current_style();
	env->float_digits = text_extra_float_digits();
	env->stmt_time = func_statement_time();
	env->stmt_now = datetime_statement_now();
	env->mem = memacct_current();
}

void
session_env_apply(const SessionEnv *env)
{
	datetime_use_zone(env->zone);
	datetime_use_style(env->style);
	text_set_extra_float_digits(env->float_digits);
	func_set_statement_time(env->stmt_time);
	datetime_set_statement_now(env->stmt_now);
	memacct_set_current(env->mem);
}
