/*
 * settings_noeffect.h — PostgreSQL settings floe accepts but does not act
 * on (planner switches such as enable_hashjoin, jit, geqo, cost constants,
 * logging, vacuum, WAL ...).  floe never accepts an option silently: a SET
 * of one to anything but the value floe behaves as (PostgreSQL's default)
 * gets a WARNING naming it; SHOW still prints the value set, as clients
 * read it back.  docs/settings.md lists the settings floe acts on.
 *
 * INTERFACE ROUTINES
 *   settings_acted_on(name)   true for the user-settable settings floe
 *                             honours (and every floe.* one)
 *   settings_warn_noeffect(sink, name)
 *                             the WARNING (01000) for a SET of one it does
 *                             not act on
 */
#ifndef FLOE_SETTINGS_NOEFFECT_H
#define FLOE_SETTINGS_NOEFFECT_H

#include <stdbool.h>
#include "sql/engine.h"

bool settings_acted_on(const char *name);
void settings_warn_noeffect(ResultSink *sink, const char *name);

#endif
