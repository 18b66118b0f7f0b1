/*
 * value.h — Value: one SQL datum outside a vector (literals, constants,
 * statistics, parameters).  Slow path only; kernels work on vectors.
 *
 * Representation by type id:
 *   BOOL                                  u.b
 *   INT16/INT32/INT64/DATE/TIME/TIMESTAMP(TZ)  u.i  (widened to int64)
 *   FLOAT32/FLOAT64                       u.f  (float32 widened, exactly)
 *   DECIMAL                               u.d  (unscaled; scale in type)
 *
 * dzeros (DECIMAL only): how many of the type.scale fraction digits are
 * not displayed — the value prints at scale type.scale - dzeros, its
 * display scale (PostgreSQL's dscale; vector.h).  They are zeros by
 * invariant.  0, the default of every constructor, prints at type.scale.
 * Unconstrained numeric Values built outside vectors (literals, casts)
 * instead carry their own scale in type.scale; dzeros is what a Value
 * read from a vector row keeps of that row's display scale.
 *   TEXT/BYTEA                            u.s  (bytes owned by an arena)
 *   INTERVAL                              u.iv
 *   UUID                                  u.uuid
 */
#ifndef FLOE_VALUE_H
#define FLOE_VALUE_H

#include "types/strview.h"
#include "types/types.h"

typedef struct Value {
	SqlType type;
	bool is_null;
	uint8_t dzeros;     /* DECIMAL: fraction digits not displayed (see above) */
	union {
		bool b;
		int64_t i;
		double f;
		int128 d;
		strview s;
		Interval iv;
		Uuid uuid;
	} u;
} Value;

static inline Value
value_null(SqlType t)
{
	Value v;
	memset(&v, 0, sizeof v);
	v.type = t;
	v.is_null = true;
	return v;
}

static inline Value
value_int(TypeId id, int64_t i)
{
	Value v;
	memset(&v, 0, sizeof v);
	v.type = type_make(id);
	v.u.i = i;
	return v;
}

#endif
