/*
 * stack_setting.h — max_stack_depth (PostgreSQL's setting) acted on: the
 * depth a statement's recursion may reach is the smaller of the setting
 * and the running thread's own stack (common/stack.h).
 *
 * INTERFACE ROUTINES
 *   stack_setting_check(value, err)  a SET's canonical value ("2MB",
 *                                    "100kB"): 22023 when it exceeds this
 *                                    thread's stack, with PostgreSQL's text
 *   stack_setting_apply(value)       the limit for statements this thread
 *                                    runs next (session_exec, per call)
 */
#ifndef FLOE_STACK_SETTING_H
#define FLOE_STACK_SETTING_H

#include "common/error.h"

int stack_setting_check(const char *value, floe_error *err);
void stack_setting_apply(const char *value);

#endif
