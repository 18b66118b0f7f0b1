/*
 * agg_ordered.h — ordered-set aggregates: percentile_cont, percentile_disc
 * (a fraction or an array of fractions) and mode(), written
 * name(direct) WITHIN GROUP (ORDER BY key).  See agg_ordered.c.
 *
 * The binder (sql/bind_expr.c) turns such a call into an ordinary AggCall
 * whose arg is the key, arg2 the direct argument (NULL for mode) and whose
 * ORDER BY is the WITHIN GROUP key, so exec/hash_agg.c feeds every group's
 * rows in that order, as it does for string_agg(x, ',' ORDER BY y).
 *
 * INTERFACE ROUTINES
 *   agg_ordered_is(name)
 *   agg_ordered_resolve(name, ndirect, direct, nkeys, key, &agg, &ret,
 *                       &key_cast, &direct_cast, err)
 */
#ifndef FLOE_AGG_ORDERED_H
#define FLOE_AGG_ORDERED_H

#include <stdbool.h>
#include "common/error.h"
#include "func/func.h"
#include "types/types.h"

/* Is name an ordered-set aggregate floe knows (percentile_cont,
 * percentile_disc, mode)? */
bool agg_ordered_is(const char *name);

/* Resolve name(direct...) WITHIN GROUP (ORDER BY key...): ndirect direct
 * arguments (the first of type direct; TYPE_NULL for an unknown literal)
 * and nkeys sort keys (the first of type key).  Fills the aggregate, its
 * result type, and what the key and the direct argument must be cast to.
 * 42883 (as PostgreSQL names it: "function percentile_cont(numeric, text)
 * does not exist") when no form matches; 0A000 for forms floe lacks. */
int agg_ordered_resolve(const char *name, int ndirect, SqlType direct, int nkeys, SqlType key,
			const AggFunc **agg, SqlType *ret, SqlType *key_cast,
			SqlType *direct_cast, floe_error *err);

#endif
