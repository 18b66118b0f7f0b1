/*
 * decimal.h — exact 128-bit decimal arithmetic (numeric(p,s), p <= 38).
 *
 * A decimal is an unscaled int128 plus a scale (digits after the point):
 * value = v / 10^scale.  At most 38 significant digits (|v| < 10^38); every
 * operation checks that bound and fails with 22003 "numeric field overflow"
 * (or PostgreSQL's own message) instead of wrapping.  Rounding is half away
 * from zero, as PostgreSQL's numeric.  Multiplication and division use
 * 256-bit intermediates, so they are exact before the final rounding.
 *
 * INTERFACE ROUTINES
 *   decimal_from_text(s, n, &v, &scale, err)     literal, keeps its own scale
 *   decimal_rescale(v, from, to, &out, err)      round half away from zero
 *   decimal_check_precision(v, precision, err)   22003 if too many digits
 *   decimal_coerce(v, scale, p, s, &out, err)    typmod coercion numeric(p,s)
 *   decimal_add/sub/mul/div/mod(a, sa, b, sb, &out, &sout, err)
 *   decimal_cmp(a, sa, b, sb)                    exact three-way compare
 *   decimal_normalize(v, scale, &v, &scale)      canonical form for hashing
 *   decimal_to_double / decimal_from_double / decimal_to_int64 / decimal_from_int64
 *   decimal_format(v, scale, buf)                plain decimal text, buf >= 42
 *   decimal_pow10(n)                             10^n, n in 0..38
 *   decimal_exp/ln/log/power(..., max_scale, &out, &rscale, err)
 *                                                PostgreSQL's numeric exp, ln,
 *                                                log(b, x), power at its scale
 *   decimal_sqrt_scale(v, s)                     sqrt's result scale
 */
#ifndef FLOE_DECIMAL_H
#define FLOE_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/error.h"
#include "types/types.h"

#define DECIMAL_MAX_SCALE 38
#define DECIMAL_FORMAT_BUF 44

/* 10^n for n in 0..38. */
int128 decimal_pow10(int n);

/* Number of decimal digits of |v| (0 has 1 digit). */
int decimal_digits(int128 v);

/* Parse a numeric literal ("  -12.3400 ", "1e5", ".5"); the scale is the
 * literal's own (max(0, fraction digits - exponent)).  22P02 on bad text
 * 'invalid input syntax for type numeric: "..."', 22003 if it does not fit
 * 38 digits. */
int decimal_from_text(const char *s, size_t n, int128 *out, int *scale,
		      floe_error *err);
/* Parse text directly at a target scale (one rounding); for text.c and
 * cast.c, not a public entry point. */
int decimal__from_text_scale(const char *s, size_t n, int scale, int128 *out,
			     floe_error *err);

/* Change the scale; lowering it rounds half away from zero. 22003 on overflow. */
int decimal_rescale(int128 v, int from_scale, int to_scale, int128 *out,
		    floe_error *err);

/* 22003 "numeric field overflow" (+ PG's detail) if v (at scale) does not
 * fit numeric(precision, scale).  precision 0 = unconstrained (38). */
int decimal_check_precision(int128 v, int precision, floe_error *err);

/* Coerce v at scale `scale` to numeric(p, s): rescale then check precision,
 * with PostgreSQL's detail text.  p == 0: unconstrained, keeps the scale. */
int decimal_coerce(int128 v, int scale, int p, int s, int128 *out,
		   floe_error *err);

/* 22003 "value overflows numeric format" with a DETAIL naming floe's limit
 * of 38 digits (PostgreSQL's numeric has no such limit); returns FLOE_ERR. */
int decimal_overflow_error(floe_error *err);

/* Result scale max(sa, sb). */
int decimal_add(int128 a, int sa, int128 b, int sb, int128 *out, int *sout,
		floe_error *err);
int decimal_sub(int128 a, int sa, int128 b, int sb, int128 *out, int *sout,
		floe_error *err);
/* Result scale sa + sb; if the exact product needs more than 38 digits the
 * scale is reduced (rounding) as far as needed, else 22003. */
int decimal_mul(int128 a, int sa, int128 b, int sb, int128 *out, int *sout,
		floe_error *err);
/* Result scale from PostgreSQL's select_div_scale (capped so the result fits
 * 38 digits); 22012 "division by zero". */
int decimal_div(int128 a, int sa, int128 b, int sb, int128 *out, int *sout,
		floe_error *err);
/* Truncated remainder (sign of a), scale max(sa, sb); 22012 on b == 0. */
int decimal_mod(int128 a, int sa, int128 b, int sb, int128 *out, int *sout,
		floe_error *err);
/*
 * Whether a quotient (/ and avg of unconstrained numeric) whose
 * select_div_scale is below the expression's type scale is rounded to it
 * and displayed so (PostgreSQL: 1000000::numeric / 3 = 333333.333333333333).
 * On.  (GROUP BY / DISTINCT / UNION keys keep each group's first row's
 * display scale: hash_agg.c.)
 */
#define DECIMAL_DIV_SHRINK 1

/* Division result scale PostgreSQL would choose (select_div_scale). */
int decimal_div_scale(int128 a, int sa, int128 b, int sb);

/*
 * Physical (type) scale of an unconstrained quotient (x / y, avg): rows are
 * stored at it and display at their own select_div_scale (dscale), so it
 * must hold the common display scales (20 for quotients in [0.0001, 1),
 * 16 in [1, 10000)) while leaving room for the quotient's integer digits.
 *   sa, sb      the operands' scales
 *   int_digits  bound on the dividend's integer digits, -1 unknown
 *   div_log10   lower bound of floor(log10 |divisor|) (-sb for any nonzero
 *               divisor of scale sb; 0 for a count)
 * Result: max(sa, sb, min(DECIMAL_DIV_TYPE_SCALE, 38 - quotient's integer
 * digits)), at least 16 (the scale before display scales); an unknown bound
 * takes DECIMAL_DIV_TYPE_SCALE (quotients of 10^18 and more then overflow
 * with 22003 naming floe's 38-digit limit).
 */
#define DECIMAL_DIV_TYPE_SCALE 20
int decimal_quotient_scale(int sa, int sb, int int_digits, int div_log10);
/*
 * Physical scale of an unconstrained product: s1 + s2 (PostgreSQL's), but
 * above DECIMAL_MUL_TYPE_SCALE only as far as an operand's own scale, so
 * products of quotients (scale 20 each) keep 16 integer digits; rows then
 * display at most that scale.
 */
#define DECIMAL_MUL_TYPE_SCALE 22
int decimal_product_scale(int s1, int s2);
/* Integer digits of numeric(p, s) (p - s), -1 for unconstrained / non-decimal. */
int decimal_type_int_digits(SqlType t);
/* floor(log10 |v|) of v at scale s (v != 0): 123.4 -> 2, 0.05 -> -2. */
int decimal_log10_floor(int128 v, int s);

int decimal_cmp(int128 a, int sa, int128 b, int sb);
/* Drop trailing fractional zeros (1.500 -> 15, scale 1; 0.00 -> 0, scale 0):
 * equal values at any scale normalise to the same pair (for hashing). */
void decimal_normalize(int128 v, int scale, int128 *out, int *out_scale);

double decimal_to_double(int128 v, int scale);
/* Round a double to `scale` digits; 22003 on NaN/Infinity/overflow with
 * PostgreSQL's messages ("cannot convert NaN to numeric"). */
int decimal_from_double(double d, int scale, int128 *out, floe_error *err);
/* Round half away from zero to an integer; 22003 "bigint out of range". */
int decimal_to_int64(int128 v, int scale, int64_t *out, floe_error *err);
int128 decimal_from_int64(int64_t i, int scale);   /* scale <= 18 always fits */

/*
 * PostgreSQL 15's numeric exp(a), ln(a), log(b, x), power(b, e) (numeric_exp,
 * numeric_ln, numeric_log, numeric_power).  Arguments are at their display
 * scales (the digits PostgreSQL's dscale rules see).  *rscale is
 * PostgreSQL's result scale, but at most max_scale (a caller's fixed
 * physical scale: the result is then rounded there, printing fewer digits
 * than PostgreSQL); *out is the result at *rscale, correctly rounded half
 * away from zero from a 72-decimal working precision.  Errors as
 * PostgreSQL: 2201E "cannot take logarithm of zero" / "... of a negative
 * number", 2201F "zero raised to a negative power is undefined" / "a
 * negative number raised to a non-integer power yields a complex result",
 * 22012 for log base 1; results of 38 digits or more (where PostgreSQL
 * would print them) are 22003 naming floe's limit.
 *   exp    rscale 16 - trunc(a log10 e), at least the argument's scale
 *   ln     rscale 16 - the decimal weight of ln a (estimate_ln_dweight)
 *   log    rscale 16 - (weight of ln x - weight of ln b), >= both scales
 *   power  integer exponents: rscale max(16, base scale), exact; others:
 *          16 - trunc(e ln b log10 e), >= both scales, via exp(e ln b)
 */
int decimal_exp(int128 a, int sa, int max_scale, int128 *out, int *rscale, floe_error *err);
int decimal_ln(int128 a, int sa, int max_scale, int128 *out, int *rscale, floe_error *err);
int decimal_log(int128 b, int sb, int128 x, int sx, int max_scale, int128 *out, int *rscale,
		floe_error *err);
int decimal_power(int128 b, int sb, int128 e, int se, int max_scale, int128 *out, int *rscale,
		  floe_error *err);
/* sqrt of a (>= 0, else 2201F) rounded to `scale` digits, 72-digit working
 * precision; sqrt's result scale (sqrt_var): 15 - 2 * base-10000 weight, >= s */
int decimal_sqrt(int128 a, int sa, int scale, int128 *out, floe_error *err);
int decimal_sqrt_scale(int128 v, int s);

/* Plain text ("-12.340"); returns the length.  buf >= DECIMAL_FORMAT_BUF. */
int decimal_format(int128 v, int scale, char *buf);

#endif
