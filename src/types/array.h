/*
 * array.h — one-dimensional SQL arrays (PostgreSQL's anyarray with lower
 * bound 1): the value encoding, text input/output, comparison and casts.
 *
 * Representation.  An array is TYPE_ARRAY; SqlType.elem is the element's
 * TypeId and SqlType's precision/scale/text_kind/typmod describe the
 * element (array_elem_type / array_of convert).  A value is a strview (in
 * vectors exactly like TYPE_TEXT/BYTEA, so every copy, hash, spill and
 * gather path that handles strviews moves arrays unchanged) over this
 * self-describing byte string (unaligned, little-endian, read by memcpy):
 *
 *   byte 0       flags: bit 0 = some element is NULL
 *   bytes 1..4   uint32 n, the number of elements (0: the empty array '{}')
 *   [flags & 1]  ceil(n/8) bytes, bit i set = element i is NULL
 *   n elements in order; a NULL element still has its slot, zeroed:
 *     fixed width types   type_width(elem) bytes (as in a flat vector)
 *     numeric             16 bytes unscaled int128 + 1 byte its own scale
 *                         (each element keeps its display scale: {1.50,2})
 *     text, bytea         uint32 length + the bytes
 *
 * Why not PostgreSQL's ArrayType layout: floe has no varlena/alignment
 * rules and every element type already has a fixed vector width; this
 * keeps decoding one linear pass and equal arrays (same values, same
 * display scales) byte-identical, so hash joins, GROUP BY and DISTINCT on
 * arrays compare bytes.  Ordering (sort, <) is element-wise
 * (array_compare): PostgreSQL's btarraycmp — elements pairwise, a NULL
 * element sorts after every non-NULL one, then the shorter array first.
 *
 * Multi-dimensional arrays and lower bounds other than 1 are 0A000.
 * Elements: bool, int2/4/8, float4/8, numeric, text/varchar/char, bytea,
 * date, time, timestamp(tz), interval, uuid.
 *
 * INTERFACE ROUTINES
 *   array_of(elem) / array_elem_type(arr)    type conversions (numeric[]
 *                                           without typmod: elements at
 *                                           NUMERIC_DEFAULT_SCALE in vectors)
 *   array_elem_supported(elem)
 *   array_decode(s, arrtype, a, &vals, &n, err)   elements as Values
 *   array_encode(a, arrtype, vals, n, &out, err)  Values (of the element
 *                                                 type) to an array
 *   array_compare(x, y, arrtype)            btarraycmp: <0, 0, >0
 *   array_value_compare(x, y)               two element Values
 *   array_to_text(s, arrtype, a, &len)      array_out text
 *   array_from_text(s, n, arrtype, a, &out, err)   array_in
 *   array_cast(in, from, to, flags, a, &out, err)  element-wise cast
 *   array_elem_out(v, a, &len)              one element as array_out shows it
 *   array_lower_bound(arr)                  1; 0 for int2vector / oidvector
 *   array_trim_numeric(s, arrtype, a, &out, err)  numeric elements without
 *                                           trailing zeros (stored numeric[])
 *
 * int2vector / oidvector (SqlType.vector ARRAY_VECTOR, types.h) are
 * int2[] / int4[] with PostgreSQL's lower bound 0 (indkey[0] is the first
 * key column) and its int2vectorout text: the elements separated by one
 * space, no braces.  ARRAY_RECORD: the record (x, n) that
 * information_schema._pg_expandarray returns for an integer array, kept
 * as the two-element array {x, n} (lower bound 1: (r).x is r[1], (r).n
 * r[2]) and printed as record_out does: "(5,1)".
 */
#ifndef FLOE_ARRAY_H
#define FLOE_ARRAY_H

#include "common/arena.h"
#include "common/error.h"
#include "types/value.h"

SqlType array_of(SqlType elem);
SqlType array_elem_type(SqlType arr);
bool array_elem_supported(SqlType elem);

/* vals[i] has the element type (numeric: type.scale = the element's own
 * scale); strings point into s's bytes.  XX001 on a malformed encoding. */
int array_decode(const strview *s, SqlType arrtype, Arena *a, Value **vals, uint32_t *n,
		 floe_error *err);
/* vals[i] must be of the element type (NULL elements: is_null). */
int array_encode(Arena *a, SqlType arrtype, const Value *vals, uint32_t n, strview *out,
		 floe_error *err);
/* A decoded element (numeric at its own scale) as a Value of exactly type
 * want (the element type of a vector: numeric rescaled, dzeros set). */
int array_elem_value(const Value *in, SqlType want, Value *out, floe_error *err);

int array_compare(const strview *x, const strview *y, SqlType arrtype);
int array_value_compare(const Value *x, const Value *y);

const char *array_to_text(const strview *s, SqlType arrtype, Arena *a, size_t *len);
int array_from_text(const char *s, size_t n, SqlType arrtype, Arena *a, strview *out,
		    floe_error *err);
int array_cast(const strview *in, SqlType from, SqlType to, int flags, Arena *a, strview *out,
	       floe_error *err);
/* An element's text as it appears inside array_out: quoted when PostgreSQL
 * quotes it, NULL as NULL. */
const char *array_elem_out(const Value *v, Arena *a, size_t *len);
int array_lower_bound(SqlType arr);
/* A numeric[] value without typmod as a table column stores it (Iceberg
 * list<decimal(38, NUMERIC_DEFAULT_SCALE)>): every element at the
 * smallest scale that holds it, no trailing zeros ({1.50,2.0} -> {1.5,2}),
 * as a numeric column's values read back. */
int array_trim_numeric(const strview *in, SqlType arrtype, Arena *a, strview *out,
		       floe_error *err);

#endif
