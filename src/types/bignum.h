/*
 * bignum.h — exact decimal arithmetic of any length on numeric_out texts,
 * with PostgreSQL numeric's result scales (the jsonpath evaluator's numbers,
 * which are jsonb numbers and so not bounded by floe's 38-digit decimal).
 *
 *   a + b, a - b   scale max(sa, sb)
 *   a * b          scale sa + sb (exact)
 *   a / b          scale of select_div_scale: 16 significant digits at
 *                  least (from the base-10000 weights of the operands), no
 *                  less than sa or sb, at most 1000; rounded half away
 *                  from zero
 *   a % b          a - trunc(a / b) * b, scale max(sa, sb), sign of a
 *   floor, ceil    scale 0; abs, neg keep the scale (-0 is 0)
 *
 * INTERFACE ROUTINES
 *   bignum_parse(s, n, a, &x)      from "[-]digits[.digits]" (numeric_out)
 *   bignum_text(x, a, &len)        numeric_out of x
 *   bignum_add / _sub / _mul / _div / _mod / _floor / _ceil / _abs / _neg
 *   (div and mod return false on a zero divisor)
 */
#ifndef FLOE_BIGNUM_H
#define FLOE_BIGNUM_H

#include <stdbool.h>
#include <stddef.h>
#include "common/arena.h"

typedef struct BigNum {
	bool neg;
	const char *d;     /* digits '0'..'9' of |x| * 10^scale, no leading zeros ("" = 0) */
	size_t n;
	int scale;
} BigNum;

void bignum_parse(const char *s, size_t n, Arena *a, BigNum *x);
const char *bignum_text(const BigNum *x, Arena *a, size_t *len);
void bignum_add(const BigNum *x, const BigNum *y, Arena *a, BigNum *out);
void bignum_sub(const BigNum *x, const BigNum *y, Arena *a, BigNum *out);
void bignum_mul(const BigNum *x, const BigNum *y, Arena *a, BigNum *out);
bool bignum_div(const BigNum *x, const BigNum *y, Arena *a, BigNum *out);
bool bignum_mod(const BigNum *x, const BigNum *y, Arena *a, BigNum *out);
void bignum_floor(const BigNum *x, Arena *a, BigNum *out);
void bignum_ceil(const BigNum *x, Arena *a, BigNum *out);
void bignum_abs(const BigNum *x, BigNum *out);
void bignum_neg(const BigNum *x, BigNum *out);

#endif
