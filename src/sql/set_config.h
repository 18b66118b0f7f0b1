/*
 * set_config.h — PostgreSQL's set_config(name, value, is_local): the SET
 * of a setting from inside a query (pg_dump's preamble runs
 * `SELECT pg_catalog.set_config('search_path', '', false)`).
 *
 * It does what `SET name = 'value'` does (the same checks, errors and
 * no-effect WARNING, sql/settings_noeffect.h), is_local = true what
 * `SET LOCAL` does: the setting goes back at the block's end, or, outside a
 * block, at the end of the statement (PostgreSQL runs it as its own
 * transaction; no WARNING, as PostgreSQL's set_config).  A NULL value
 * resets the setting, a NULL is_local is false, a NULL name is 22004.
 * It returns the setting's new value as current_setting() shows it.  It
 * runs when the row is computed (volatile: never folded at bind time, so
 * describing a statement sets nothing).  The settings txn.c keeps in step
 * with the block (transaction_*, default_transaction_*) and the role
 * settings are 0A000 here: SET them.
 *
 * INTERFACE ROUTINES
 *   set_config_is_func(name)                    "set_config"?
 *   set_config_bind_call(b, args, n, location)  its bound call (42883 for
 *                                               another argument count)
 */
#ifndef FLOE_SET_CONFIG_H
#define FLOE_SET_CONFIG_H

#include "sql/bind.h"

bool set_config_is_func(const char *name);
Expr *set_config_bind_call(BindCtx *b, Expr **args, int nargs, int location);

#endif
