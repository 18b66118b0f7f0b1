/*
 * text.h — PostgreSQL 15 input/output functions for every floe type.
 *
 * Output matches PostgreSQL's *out functions with the calling thread's
 * extra_float_digits (text_set_extra_float_digits; default 1, shortest
 * round-trip float text) and DateStyle (datetime_set_datestyle);
 * IntervalStyle postgres; bytea_output hex; timestamptz in the session time
 * zone (datetime_set_timezone).  Input matches the *in functions: the same
 * accepted spellings, the same SQLSTATEs and error messages.
 *
 * Numeric prints exactly at the type's scale (for unconstrained numeric,
 * precision 0, the Value's type.scale is the value's own display scale);
 * vector_value_text prints a row at its display scale (vector.h, dscale).
 * varchar(n)/char(n) input follows varcharin/bpcharin with a typmod: too
 * long is 22001 unless only spaces are cut; char(n) pads (typmod -1 counts
 * as char(1)).  Lengths count UTF-8 characters.
 *
 * INTERFACE ROUTINES
 *   value_to_text(v, a, &len)            NUL-terminated text in a; NULL for SQL NULL
 *   vector_value_text(v, row, a, &len)   the same for a row of any vector kind
 *   value_to_text_canonical(v, a, &len)  under the default settings (stored text)
 *   value_from_text(out, t, s, n, a, err)  parse text as type t
 *   text_format_float8/float4(d, buf)    shortest round-trip text (efd 1), buf >= 32
 *   text_output_float8/float4(d, buf)    float8out/float4out under the thread's
 *                                        extra_float_digits (value_to_text uses it)
 *   text_set_extra_float_digits(efd) / text_extra_float_digits()
 *   text_parse_int64(s, n, t, &out, err) int2/int4/int8 input with PG errors
 *   text_parse_float8(s, n, t, &out, err) float4/float8 input with PG errors
 *   text_parse_bool(s, n, &out, err)
 *   text_validate_utf8(s, n, err)
 */
#ifndef FLOE_TEXT_H
#define FLOE_TEXT_H

#include <stddef.h>
#include "common/arena.h"
#include "common/error.h"
#include "types/value.h"
#include "types/vector.h"

#define TEXT_FLOAT_BUF 32

const char *value_to_text(const Value *v, Arena *a, size_t *len);
const char *vector_value_text(const Vector *v, uint32_t row, Arena *a, size_t *len);
/* value_to_text with the default output settings (efd 1, ISO, postgres
 * intervals): for text that is stored or parsed again. */
const char *value_to_text_canonical(const Value *v, Arena *a, size_t *len);

/* s[0..n) need not be NUL-terminated.  out->type = t (for unconstrained
 * numeric, t.precision == 0, out->type.scale is the literal's scale). */
int value_from_text(Value *out, SqlType t, const char *s, size_t n, Arena *a,
		    floe_error *err);

/* Shortest round-trip text whatever extra_float_digits says (exact: for
 * values that are read back, e.g. binary parameters turned into text). */
int text_format_float8(double d, char *buf);
int text_format_float4(float f, char *buf);
/* float8out/float4out: the calling thread's extra_float_digits (-15 .. 3;
 * > 0 shortest round-trip, else %.*g with DBL_DIG/FLT_DIG + efd digits). */
int text_output_float8(double d, char *buf);
int text_output_float4(float f, char *buf);
void text_set_extra_float_digits(int efd);
int text_extra_float_digits(void);
/* t is TYPE_INT16/INT32/INT64: range and message follow that type. */
int text_parse_int64(const char *s, size_t n, TypeId t, int64_t *out, floe_error *err);
/* t is TYPE_FLOAT32/FLOAT64. */
int text_parse_float8(const char *s, size_t n, TypeId t, double *out, floe_error *err);
int text_parse_bool(const char *s, size_t n, bool *out, floe_error *err);
/* 22021 'invalid byte sequence for encoding "UTF8": 0xc3 0x28' on bad UTF-8
 * or NUL (value_from_text checks every text input with it). */
int text_validate_utf8(const char *s, size_t n, floe_error *err);
int text_parse_uuid(const char *s, size_t n, Uuid *out, floe_error *err);
/* bytea input (hex "\x..." or escape format); bytes in a. */
int text_parse_bytea(const char *s, size_t n, Arena *a, const char **out,
		     size_t *outlen, floe_error *err);

/* varchar(n)/char(n) typmod of t applied to s (text.c, cast.c): too-long
 * input is 22001 unless the excess is spaces (then cut); explicit casts
 * cut silently; char(n) pads.  The result may alias s or live in a. */
int text__fit_char(SqlType t, const char *s, size_t n, bool explicit_cast, Arena *a,
		   const char **out, size_t *outlen, floe_error *err);

#endif
