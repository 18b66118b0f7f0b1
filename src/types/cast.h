/*
 * cast.h — conversions between floe types with PostgreSQL 15 semantics
 * (pg_cast contexts, rounding rules, range errors and their messages).
 *
 * INTERFACE ROUTINES
 *   cast_allowed(from, to, ctx)      may `from` be coerced to `to` in context ctx
 *   cast_value(out, in, to, a, err)  one value (explicit cast semantics)
 *   cast_value_ex(out, in, to, flags, a, err)
 *   cast_vector(in, count, out, to, flags, err)  rows 0..count of any vector kind
 *
 * Rules: int->int range errors ("smallint out of range", 22003); float->int
 * rounds half to even (rint); numeric->int rounds half away from zero;
 * numeric(p,s) typmod coercion rounds and raises "numeric field overflow";
 * anything <-> text goes through text.h; varchar(n) silently truncates on an
 * explicit cast (CAST_EXPLICIT) but raises 22001 on assignment unless only
 * spaces are cut; char(n) pads; date/timestamp/timestamptz through the
 * session zone.  CAST_EXACT_FLOAT: an integer -> float4/float8 that is not
 * exact raises 22003 (floe's INSERT rule).  Pairs PostgreSQL lacks: 42846
 * 'cannot cast type X to Y'.  Infinite timestamp -> time gives NULL (as
 * PostgreSQL).  Numeric NaN/Infinity do not exist in floe: float NaN/inf ->
 * numeric is 0A000 (22003 with PostgreSQL's detail for numeric(p,s) and inf).
 */
#ifndef FLOE_CAST_H
#define FLOE_CAST_H

#include <stdbool.h>
#include "common/arena.h"
#include "common/error.h"
#include "types/value.h"
#include "types/vector.h"

typedef enum { COERCE_IMPLICIT, COERCE_ASSIGNMENT, COERCE_EXPLICIT } CoercionContext;

#define CAST_EXPLICIT     0x1   /* explicit CAST: varchar(n)/char(n) truncate */
#define CAST_EXACT_FLOAT  0x2   /* int -> float must be exact */

bool cast_allowed(SqlType from, SqlType to, CoercionContext ctx);

/*
 * The type to give CAST(x AS numeric) (no typmod) when x has type `from`:
 * PostgreSQL keeps x's digits, so numeric(p,s) and numeric at scale s give
 * numeric at scale s, integers scale 0, floats and text
 * NUMERIC_DEFAULT_SCALE with each row's own scale as its display scale
 * (vector.h, dscale).  Binders should use it in place of a bare
 * type_decimal(0, 0), which rounds 1.50::numeric to 2.
 */
SqlType cast_unconstrained_numeric(SqlType from);

/* Explicit-cast semantics (CAST_EXPLICIT). Text results are in a. */
int cast_value(Value *out, const Value *in, SqlType to, Arena *a, floe_error *err);
int cast_value_ex(Value *out, const Value *in, SqlType to, int flags, Arena *a,
		  floe_error *err);
/* out is initialised flat by the caller (vector_init(out, to, arena, cap));
 * rows 0..count of in (flat, const or dict); strings are copied into
 * out->arena; NULL stays NULL.  For an unconstrained numeric target
 * (precision 0) every row is brought to to.scale.  The first failing row's
 * error is returned (the rows before it are written). */
int cast_vector(const Vector *in, uint32_t count, Vector *out, SqlType to,
		int flags, floe_error *err);

#endif
