/*
 * decimal.c — exact 128-bit decimal arithmetic for numeric(p,s), p <= 38.
 *
 * Implements decimal.h.  Semantics follow PostgreSQL 15's numeric
 * (src/backend/utils/adt/numeric.c): rounding half away from zero, result
 * scales of add/sub/mul/div/mod (select_div_scale for division), typmod
 * coercion with "numeric field overflow" and its detail text, numeric_in's
 * accepted syntax.  PostgreSQL's numeric is arbitrary precision; floe caps it
 * at 38 significant digits, so where PostgreSQL would keep more digits floe
 * first drops fraction digits (rounding) and only then raises 22003
 * "value overflows numeric format".
 *
 * Exact intermediates: a value is sign + 256-bit magnitude (U256, four
 * 64-bit limbs, little-endian) + scale.  fit() brings such an intermediate
 * back to an int128 below 10^38.  Division is schoolbook binary long
 * division on U256 (fast path in native 128 bits when both operands fit).
 *
 * INTERFACE ROUTINES: see decimal.h.
 *
 * Invariants: every int128 produced here has |v| < 10^38 and a scale in
 * 0..38; no operation wraps; no allocation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include "types/decimal.h"

typedef struct U256 {
	uint64_t w[4];
} U256;

static const int128 pow10_tab[39] = {
	(int128)1ULL,
	(int128)10ULL,
	(int128)100ULL,
	(int128)1000ULL,
	(int128)10000ULL,
	(int128)100000ULL,
	(int128)1000000ULL,
	(int128)10000000ULL,
	(int128)100000000ULL,
	(int128)1000000000ULL,
	(int128)10000000000ULL,
	(int128)100000000000ULL,
	(int128)1000000000000ULL,
	(int128)10000000000000ULL,
	(int128)100000000000000ULL,
	(int128)1000000000000000ULL,
	(int128)10000000000000000ULL,
	(int128)100000000000000000ULL,
	(int128)1000000000000000000ULL,
	(int128)10000000000000000000ULL,
	(int128)10000000000000000000ULL * (int128)10ULL,
	(int128)10000000000000000000ULL * (int128)100ULL,
	(int128)10000000000000000000ULL * (int128)1000ULL,
	(int128)10000000000000000000ULL * (int128)10000ULL,
	(int128)10000000000000000000ULL * (int128)100000ULL,
	(int128)10000000000000000000ULL * (int128)1000000ULL,
	(int128)10000000000000000000ULL * (int128)10000000ULL,
	(int128)10000000000000000000ULL * (int128)100000000ULL,
	(int128)10000000000000000000ULL * (int128)1000000000ULL,
	(int128)10000000000000000000ULL * (int128)10000000000ULL,
	(int128)10000000000000000000ULL * (int128)100000000000ULL,
	(int128)10000000000000000000ULL * (int128)1000000000000ULL,
	(int128)10000000000000000000ULL * (int128)10000000000000ULL,
	(int128)10000000000000000000ULL * (int128)100000000000000ULL,
	(int128)10000000000000000000ULL * (int128)1000000000000000ULL,
	(int128)10000000000000000000ULL * (int128)10000000000000000ULL,
	(int128)10000000000000000000ULL * (int128)100000000000000000ULL,
	(int128)10000000000000000000ULL * (int128)1000000000000000000ULL,
	(int128)10000000000000000000ULL * (int128)10000000000000000000ULL,
};

int128
decimal_pow10(int n)
{
	if (n < 0)
		n = 0;
	if (n > 38)
		n = 38;
	return pow10_tab[n];
}

#define DEC_LIMIT decimal_pow10(38)

static uint128
uabs128(int128 v)
{
	return v < 0 ? (uint128)0 - (uint128)v : (uint128)v;
}

int
decimal_digits(int128 v)
{
	uint128 u = uabs128(v);
	int n = 1;
	while (n < 39 && u >= (uint128)decimal_pow10(n))
		n++;
	return n;
}

/* ---- U256 helpers ---- */

static U256
u_from128(uint128 v)
{
	U256 r = { { (uint64_t)v, (uint64_t)(v >> 64), 0, 0 } };
	return r;
}

static bool
u_fits128(const U256 *a)
{
	return a->w[2] == 0 && a->w[3] == 0;
}

static uint128
u_to128(const U256 *a)
{
	return ((uint128)a->w[1] << 64) | a->w[0];
}

static bool
u_is_zero(const U256 *a)
{
	return !(a->w[0] | a->w[1] | a->w[2] | a->w[3]);
}

static int
u_cmp(const U256 *a, const U256 *b)
{
	for (int i = 3; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

static U256
u_add(U256 a, const U256 *b)
{
	unsigned carry = 0;
	for (int i = 0; i < 4; i++) {
		uint128 s = (uint128)a.w[i] + b->w[i] + carry;
		a.w[i] = (uint64_t)s;
		carry = (unsigned)(s >> 64);
	}
	return a;
}

static U256
u_sub(U256 a, const U256 *b)   /* a >= b */
{
	unsigned borrow = 0;
	for (int i = 0; i < 4; i++) {
		uint64_t bi = b->w[i];
		uint64_t d = a.w[i] - bi - borrow;
		borrow = (a.w[i] < bi || (a.w[i] == bi && borrow)) ? 1 : 0;
		a.w[i] = d;
	}
	return a;
}

/* a * m; *ovf set if the product needs more than 256 bits. */
static U256
u_mul128(const U256 *a, uint128 m, bool *ovf)
{
	uint64_t ml[2] = { (uint64_t)m, (uint64_t)(m >> 64) };
	uint64_t r[6] = { 0 };
	for (int i = 0; i < 4; i++) {
		uint64_t carry = 0;
		for (int j = 0; j < 2; j++) {
			uint128 t = (uint128)a->w[i] * ml[j] + r[i + j] + carry;
			r[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		r[i + 2] += carry;
	}
	if (r[4] || r[5])
		*ovf = true;
	U256 out = { { r[0], r[1], r[2], r[3] } };
	return out;
}

static int
u_bits(const U256 *a)
{
	for (int i = 3; i >= 0; i--)
		if (a->w[i])
			return i * 64 + 64 - __builtin_clzll(a->w[i]);
	return 0;
}

/* q = n / d, r = n % d; d != 0. */
static void
u_divmod(const U256 *n, const U256 *d, U256 *q, U256 *r)
{
	if (u_fits128(n) && u_fits128(d)) {
		uint128 nn = u_to128(n), dd = u_to128(d);
		*q = u_from128(nn / dd);
		*r = u_from128(nn % dd);
		return;
	}
	U256 qq = { { 0 } }, rr = { { 0 } };
	for (int i = u_bits(n) - 1; i >= 0; i--) {
		/* rr = rr << 1 | bit i */
		for (int k = 3; k > 0; k--)
			rr.w[k] = (rr.w[k] << 1) | (rr.w[k - 1] >> 63);
		rr.w[0] = (rr.w[0] << 1) | ((n->w[i / 64] >> (i % 64)) & 1);
		if (u_cmp(&rr, d) >= 0) {
			rr = u_sub(rr, d);
			qq.w[i / 64] |= (uint64_t)1 << (i % 64);
		}
	}
	*q = qq;
	*r = rr;
}

/* Round-half-away division of magnitudes: n / d. */
static U256
u_div_round(const U256 *n, const U256 *d)
{
	U256 q, r;
	u_divmod(n, d, &q, &r);
	U256 r2 = u_add(r, &r);   /* r < d < 2^255 in all our uses */
	if (u_cmp(&r2, d) >= 0) {
		U256 one = u_from128(1);
		q = u_add(q, &one);
	}
	return q;
}

static U256
u_pow10(int n)   /* n in 0..76 */
{
	bool ovf = false;
	U256 r = u_from128((uint128)decimal_pow10(n > 38 ? 38 : n));
	if (n > 38)
		r = u_mul128(&r, (uint128)decimal_pow10(n - 38), &ovf);
	return r;
}

int
decimal_overflow_error(floe_error *err)
{
	floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
	return floe_error_detail(err, "floe's numeric holds at most %d significant digits "
				 "at the scale of the expression.", DECIMAL_MAX_PRECISION);
}

static int
overflow(floe_error *err)
{
	return decimal_overflow_error(err);
}

/*
 * Bring the exact value (neg, mag) at `scale` back to an int128 below 10^38
 * with scale <= 38, dropping fraction digits (rounding) as needed but never
 * below min_scale.
 */
static int
fit(bool neg, U256 mag, int scale, int min_scale, int128 *out, int *sout,
    floe_error *err)
{
	U256 lim = u_from128((uint128)DEC_LIMIT);
	int drop = scale > 38 ? scale - 38 : 0;

	if (min_scale > scale)
		min_scale = scale;
	for (;;) {
		U256 m = mag;
		if (drop > 0) {
			U256 p = u_pow10(drop);
			m = u_div_round(&mag, &p);
		}
		if (u_cmp(&m, &lim) < 0) {
			int128 v = (int128)u_to128(&m);
			*out = neg ? -v : v;
			*sout = scale - drop;
			return FLOE_OK;
		}
		if (scale - drop <= min_scale)
			return overflow(err);
		drop++;
	}
}

/* ---- parsing and formatting ---- */

/* Bytes of s[0..n) quoted in an error message: at most 800, cut at a UTF-8
 * character boundary so the message stays valid UTF-8. */
static int
quote_len(const char *s, size_t n)
{
	if (n <= 800)
		return (int)n;
	n = 800;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return (int)n;
}


/*
 * numeric_in syntax: [spaces] [+-] digits [. digits] [e [+-] digits] [spaces],
 * at least one digit.  Produces the value rounded to target_scale (or the
 * literal's own scale when target_scale < 0).
 */
static int
parse_num(const char *s, size_t n, int target_scale, int128 *out, int *sout,
	  floe_error *err)
{
	const char *p = s, *end = s + n;
	bool neg = false;
	char digs[76];
	int nd = 0;
	long frac_total = 0, frac_kept = 0, int_dropped = 0;
	bool any = false, seen_point = false;
	long exp = 0;

	while (p < end && (*p == ' ' || (*p >= '\t' && *p <= '\r')))
		p++;
	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	if (end - p >= 3 && (strncasecmp(p, "nan", 3) == 0 || strncasecmp(p, "inf", 3) == 0)) {
		const char *q = p + 3;
		if (strncasecmp(p, "inf", 3) == 0 && end - p >= 8 && strncasecmp(p, "infinity", 8) == 0)
			q = p + 8;
		while (q < end && (*q == ' ' || (*q >= '\t' && *q <= '\r')))
			q++;
		if (q == end)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "numeric NaN and infinity are not supported");
	}
	for (; p < end; p++) {
		if (*p >= '0' && *p <= '9') {
			any = true;
			if (seen_point)
				frac_total++;
			if (nd == 0 && *p == '0') {
				if (seen_point)
					frac_kept++;
			} else if (nd < 76) {
				digs[nd++] = *p;
				if (seen_point)
					frac_kept++;
			} else if (!seen_point)
				int_dropped++;
		} else if (*p == '.' && !seen_point) {
			seen_point = true;
		} else
			break;
	}
	if (!any)
		goto bad;
	if (p < end && (*p == 'e' || *p == 'E')) {
		const char *q = p + 1;
		bool eneg = false, edig = false;
		if (q < end && (*q == '+' || *q == '-'))
			eneg = *q++ == '-';
		for (; q < end && *q >= '0' && *q <= '9'; q++) {
			edig = true;
			if (exp < 100000)
				exp = exp * 10 + (*q - '0');
		}
		if (!edig)
			goto bad;
		if (exp >= 100000)
			return overflow(err);
		if (eneg)
			exp = -exp;
		p = q;
	}
	while (p < end && (*p == ' ' || (*p >= '\t' && *p <= '\r')))
		p++;
	if (p != end)
		goto bad;

	/*
	 * Value = digs[0..nd) * 10^e_last.  Digits beyond the 76th are dropped:
	 * they cannot change a 38-digit result's rounding except in a tie.
	 */
	{
		long e_last = exp - frac_kept + int_dropped;  /* value = D * 10^e_last */
		long own_scale = frac_total - exp > 0 ? frac_total - exp : 0;
		long ts = target_scale >= 0 ? target_scale : own_scale;
		if (nd == 0) {
			*out = 0;
			*sout = (int)(ts > 38 ? 38 : ts);
			return FLOE_OK;
		}
		/* integer digits of the value: nd + e_last */
		if (nd + e_last > 38)
			return overflow(err);
		/* D as U256 (nd <= 76 digits: 10^76 < 2^256) */
		U256 mag = { { 0 } };
		for (int i = 0; i < nd; i++) {
			bool o = false;
			mag = u_mul128(&mag, 10, &o);
			U256 dg = u_from128((uint128)(digs[i] - '0'));
			mag = u_add(mag, &dg);
		}
		/* want mag * 10^(e_last + ts), rounded */
		long shift = e_last + ts;
		if (shift >= 0) {
			if (shift > 38)
				return overflow(err);
			bool o = false;
			mag = u_mul128(&mag, (uint128)decimal_pow10((int)shift), &o);
			if (o)
				return overflow(err);
		} else {
			if (-shift > 76)
				mag = u_from128(0);
			else {
				U256 pp = u_pow10((int)-shift);
				U256 q, r;
				u_divmod(&mag, &pp, &q, &r);
				U256 r2 = u_add(r, &r);
				int c = u_cmp(&r2, &pp);
				if (c >= 0) {
					U256 one = u_from128(1);
					q = u_add(q, &one);
				}
				mag = q;
			}
		}
		return fit(neg, mag, (int)ts, target_scale >= 0 ? (int)ts : 0,
			   out, sout, err);
	}
bad:
	return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
			   "invalid input syntax for type numeric: \"%.*s\"",
			   quote_len(s, n), s);
}

int
decimal_from_text(const char *s, size_t n, int128 *out, int *scale, floe_error *err)
{
	return parse_num(s, n, -1, out, scale, err);
}

/* Parse text directly at a target scale (one rounding). */
int
decimal__from_text_scale(const char *s, size_t n, int scale, int128 *out,
			 floe_error *err)
{
	int sout;
	TRY(parse_num(s, n, scale, out, &sout, err));
	if (sout != scale)
		return overflow(err);
	return FLOE_OK;
}

int
decimal_format(int128 v, int scale, char *buf)
{
	char tmp[48];
	int n = 0, len = 0;
	uint128 u = uabs128(v);

	if (scale < 0 || scale > DECIMAL_MAX_SCALE)   /* never valid: stay in bounds */
		scale = scale < 0 ? 0 : DECIMAL_MAX_SCALE;

	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	while (n <= scale)
		tmp[n++] = '0';
	if (v < 0)
		buf[len++] = '-';
	for (int i = n - 1; i >= 0; i--) {
		if (i == scale - 1)
			buf[len++] = '.';
		buf[len++] = tmp[i];
	}
	buf[len] = '\0';
	return len;
}

/* ---- scale and precision ---- */

int
decimal_rescale(int128 v, int from_scale, int to_scale, int128 *out, floe_error *err)
{
	if (to_scale == from_scale) {
		*out = v;
		return FLOE_OK;
	}
	if (to_scale > from_scale) {
		int128 r;
		if (to_scale - from_scale > 38 ||
		    __builtin_mul_overflow(v, decimal_pow10(to_scale - from_scale), &r) ||
		    uabs128(r) >= (uint128)DEC_LIMIT)
			return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
					   "numeric field overflow");
		*out = r;
		return FLOE_OK;
	}
	int k = from_scale - to_scale;
	if (k > 38) {
		*out = 0;
		return FLOE_OK;
	}
	uint128 u = uabs128(v), p = (uint128)decimal_pow10(k);
	uint128 q = u / p, r = u % p;
	if (r >= p - r)
		q++;
	*out = v < 0 ? -(int128)q : (int128)q;
	return FLOE_OK;
}

int
decimal_check_precision(int128 v, int precision, floe_error *err)
{
	if (precision <= 0 || precision > 38)
		precision = 38;
	if (uabs128(v) >= (uint128)decimal_pow10(precision))
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "numeric field overflow");
	return FLOE_OK;
}

int
decimal_coerce(int128 v, int scale, int p, int s, int128 *out, floe_error *err)
{
	int128 r;
	if (p == 0) {
		*out = v;
		return FLOE_OK;
	}
	if (s > scale) {
		int128 t;
		if (s - scale > 38 ||
		    __builtin_mul_overflow(v, decimal_pow10(s - scale), &t) ||
		    uabs128(t) >= (uint128)decimal_pow10(p))
			goto ovf;
		*out = t;
		return FLOE_OK;
	}
	TRY(decimal_rescale(v, scale, s, &r, err));
	if (uabs128(r) >= (uint128)decimal_pow10(p))
		goto ovf;
	*out = r;
	return FLOE_OK;
ovf:
	floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
	if (p - s != 0)
		return floe_error_detail(err,
			"A field with precision %d, scale %d must round to an absolute value less than 10^%d.",
			p, s, p - s);
	return floe_error_detail(err,
		"A field with precision %d, scale %d must round to an absolute value less than 1.",
		p, s);
}

/* ---- arithmetic ---- */

/* |v| * 10^k as U256 (k <= 38). */
static U256
scaled_mag(int128 v, int k)
{
	bool o = false;
	U256 m = u_from128(uabs128(v));
	if (k > 0)
		m = u_mul128(&m, (uint128)decimal_pow10(k), &o);
	return m;
}

static int
addsub(int128 a, int sa, int128 b, int sb, bool sub, int128 *out, int *sout,
       floe_error *err)
{
	int s = sa > sb ? sa : sb;
	if (sa == sb) {
		int128 r;
		bool o = sub ? __builtin_sub_overflow(a, b, &r) : __builtin_add_overflow(a, b, &r);
		if (!o && uabs128(r) < (uint128)DEC_LIMIT) {
			*out = r;
			*sout = s;
			return FLOE_OK;
		}
	}
	bool na = a < 0, nb = (b < 0) != sub;
	U256 ma = scaled_mag(a, s - sa), mb = scaled_mag(b, s - sb);
	U256 m;
	bool neg;
	if (na == nb) {
		m = u_add(ma, &mb);
		neg = na;
	} else if (u_cmp(&ma, &mb) >= 0) {
		m = u_sub(ma, &mb);
		neg = na;
	} else {
		m = u_sub(mb, &ma);
		neg = nb;
	}
	if (u_is_zero(&m))
		neg = false;
	return fit(neg, m, s, 0, out, sout, err);
}

int
decimal_add(int128 a, int sa, int128 b, int sb, int128 *out, int *sout, floe_error *err)
{
	return addsub(a, sa, b, sb, false, out, sout, err);
}

int
decimal_sub(int128 a, int sa, int128 b, int sb, int128 *out, int *sout, floe_error *err)
{
	return addsub(a, sa, b, sb, true, out, sout, err);
}

int
decimal_mul(int128 a, int sa, int128 b, int sb, int128 *out, int *sout, floe_error *err)
{
	int s = sa + sb;
	int128 r;
	if (s <= 38 && !__builtin_mul_overflow(a, b, &r) && uabs128(r) < (uint128)DEC_LIMIT) {
		*out = r;
		*sout = s;
		return FLOE_OK;
	}
	bool o = false;
	U256 ma = u_from128(uabs128(a));
	U256 m = u_mul128(&ma, uabs128(b), &o);
	bool neg = (a < 0) != (b < 0) && !u_is_zero(&m);
	return fit(neg, m, s, 0, out, sout, err);
}

/* PostgreSQL's base-10000 weight and first digit of |v| / 10^s. */
static void
nbase_weight(int128 v, int s, int *weight, int *first)
{
	if (v == 0) {
		*weight = 0;
		*first = 0;
		return;
	}
	int e = decimal_digits(v) - 1 - s;          /* exponent of leading digit */
	int w = e >= 0 ? e / 4 : -((-e + 3) / 4);   /* floor(e / 4) */
	int k = s + 4 * w;                          /* first = |v| / 10^k */
	uint128 u = uabs128(v);
	if (k >= 0)
		u /= (uint128)decimal_pow10(k);
	else
		u *= (uint128)decimal_pow10(-k);
	*weight = w;
	*first = (int)u;
}

int
decimal_div_scale(int128 a, int sa, int128 b, int sb)
{
	int w1, f1, w2, f2;
	nbase_weight(a, sa, &w1, &f1);
	nbase_weight(b, sb, &w2, &f2);
	int qweight = w1 - w2;
	if (f1 <= f2)
		qweight--;
	int rscale = 16 - qweight * 4;
	if (rscale < sa)
		rscale = sa;
	if (rscale < sb)
		rscale = sb;
	if (rscale < 0)
		rscale = 0;
	if (rscale > 1000)
		rscale = 1000;
	return rscale;
}

int
decimal_log10_floor(int128 v, int s)
{
	return decimal_digits(v) - 1 - s;
}

int
decimal_type_int_digits(SqlType t)
{
	if (t.id == TYPE_INT16)
		return 5;
	if (t.id == TYPE_INT32)
		return 10;
	if (t.id == TYPE_INT64)
		return 19;
	if (t.id != TYPE_DECIMAL || t.precision == 0)
		return -1;
	return t.precision > t.scale ? t.precision - t.scale : 0;
}

int
decimal_product_scale(int s1, int s2)
{
	int s = s1 + s2;

	if (s > DECIMAL_MUL_TYPE_SCALE) {
		s = s1 > s2 ? s1 : s2;
		if (s < DECIMAL_MUL_TYPE_SCALE)
			s = DECIMAL_MUL_TYPE_SCALE;
	}
	return s > DECIMAL_MAX_SCALE ? DECIMAL_MAX_SCALE : s;
}

int
decimal_quotient_scale(int sa, int sb, int int_digits, int div_log10)
{
	int lo = sa > sb ? sa : sb, s;

	if (lo < 16)
		lo = 16;
	if (int_digits < 0) {
		s = DECIMAL_DIV_TYPE_SCALE;
	} else {
		/* |q| < 10^(int_digits - div_log10), + 1 for rounding up to it */
		int iq = int_digits - div_log10 + 1;
		s = iq < 0 ? DECIMAL_MAX_SCALE : DECIMAL_MAX_SCALE - iq;
		if (s > DECIMAL_DIV_TYPE_SCALE)
			s = DECIMAL_DIV_TYPE_SCALE;
	}
	if (s < lo)
		s = lo;
	if (s < sa)
		s = sa;
	if (s < sb)
		s = sb;
	return s > DECIMAL_MAX_SCALE ? DECIMAL_MAX_SCALE : s;
}

int
decimal_div(int128 a, int sa, int128 b, int sb, int128 *out, int *sout, floe_error *err)
{
	if (b == 0)
		return floe_errorf(err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
	int rs = decimal_div_scale(a, sa, b, sb);
	if (rs > 38)
		rs = 38;
	for (;;) {
		/* q = a * 10^(rs + sb - sa) / b */
		int k = rs + sb - sa;
		U256 n, d;
		bool o = false;
		if (k >= 0) {
			n = u_from128(uabs128(a));
			if (k > 38) {
				n = u_mul128(&n, (uint128)decimal_pow10(38), &o);
				n = u_mul128(&n, (uint128)decimal_pow10(k - 38), &o);
			} else
				n = u_mul128(&n, (uint128)decimal_pow10(k), &o);
			d = u_from128(uabs128(b));
		} else {
			n = u_from128(uabs128(a));
			d = u_from128(uabs128(b));
			if (-k > 38) {
				d = u_mul128(&d, (uint128)decimal_pow10(38), &o);
				d = u_mul128(&d, (uint128)decimal_pow10(-k - 38), &o);
			} else
				d = u_mul128(&d, (uint128)decimal_pow10(-k), &o);
		}
		if (o)
			return overflow(err);
		U256 q = u_div_round(&n, &d);
		U256 lim = u_from128((uint128)DEC_LIMIT);
		if (u_cmp(&q, &lim) < 0) {
			int128 v = (int128)u_to128(&q);
			*out = ((a < 0) != (b < 0)) ? -v : v;
			*sout = rs;
			return FLOE_OK;
		}
		if (rs == 0)
			return overflow(err);
		/* drop as many fraction digits as the quotient is too long */
		int excess = u_bits(&q) > 128 ? 39 : decimal_digits((int128)(u_to128(&q) >> 1)) - 37;
		if (excess < 1)
			excess = 1;
		rs = rs > excess ? rs - excess : 0;
	}
}

int
decimal_mod(int128 a, int sa, int128 b, int sb, int128 *out, int *sout, floe_error *err)
{
	if (b == 0)
		return floe_errorf(err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
	int s = sa > sb ? sa : sb;
	U256 ma = scaled_mag(a, s - sa), mb = scaled_mag(b, s - sb);
	U256 q, r;
	u_divmod(&ma, &mb, &q, &r);
	return fit(a < 0 && !u_is_zero(&r), r, s, s, out, sout, err);
}

int
decimal_cmp(int128 a, int sa, int128 b, int sb)
{
	if (sa == sb)
		return a < b ? -1 : a > b;
	if ((a < 0) != (b < 0) || a == 0 || b == 0)
		return a < b ? -1 : a > b;
	int s = sa > sb ? sa : sb;
	U256 ma = scaled_mag(a, s - sa), mb = scaled_mag(b, s - sb);
	int c = u_cmp(&ma, &mb);
	return a < 0 ? -c : c;
}

void
decimal_normalize(int128 v, int scale, int128 *out, int *out_scale)
{
	if (v == 0)
		scale = 0;
	while (scale > 0 && v % 10 == 0) {
		v /= 10;
		scale--;
	}
	*out = v;
	*out_scale = scale;
}

/* ---- conversions ---- */

double
decimal_to_double(int128 v, int scale)
{
	/* exact operands, one correctly rounded IEEE operation */
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
				      1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
				      1e20, 1e21, 1e22 };
	if (scale >= 0 && scale <= 22 && uabs128(v) <= ((uint128)1 << 53))
		return (double)(int64_t)v / p10[scale];
	char buf[DECIMAL_FORMAT_BUF];
	decimal_format(v, scale, buf);
	return strtod(buf, NULL);
}

int
decimal_from_double(double d, int scale, int128 *out, floe_error *err)
{
	char buf[64];
	if (isnan(d))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "numeric NaN is not supported");
	if (isinf(d))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "numeric infinity is not supported");
	/* PostgreSQL's float8_numeric: DBL_DIG significant digits, then numeric_in */
	snprintf(buf, sizeof buf, "%.15g", d);
	return decimal__from_text_scale(buf, strlen(buf), scale, out, err);
}

int
decimal_to_int64(int128 v, int scale, int64_t *out, floe_error *err)
{
	int128 r;
	if (decimal_rescale(v, scale, 0, &r, err) != FLOE_OK || r > INT64_MAX || r < INT64_MIN)
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
	*out = (int64_t)r;
	return FLOE_OK;
}

int128
decimal_from_int64(int64_t i, int scale)
{
	return (int128)i * decimal_pow10(scale);
}

/* ---- exp, ln, log, power, sqrt (PostgreSQL 15's numeric_exp ... ) ----------
 *
 * Working precision: BF, a signed fixed-point number with BF_FRAC base-10^18
 * limbs after the point (72 decimal digits) and BF_N - BF_FRAC before it
 * (54 digits), little-endian magnitude.  Results are rounded (half away from
 * zero) from it to at most 38 significant digits, so an error of a few units
 * of 10^-70 never shows except on an exact rounding tie of an irrational
 * value.  Constants ln 2 and ln 10 come from atanh series (division by
 * small integers only).  exp: x = n ln2 + r, r / 2^10 through its Taylor
 * series, squared 10 times, times 2^n.  ln: Newton's iteration
 * y += x e^-y - 1 on the mantissa in [1, 10) from a double start (two
 * steps: 16 -> 32 -> 64 digits), plus k ln 10.  Division: Newton's
 * reciprocal.  Result scales are PostgreSQL's (see each routine).
 */
#define BF_N 7
#define BF_FRAC 4
#define BF_BASE 1000000000000000000ULL
#define BF_DIGITS (18 * BF_FRAC)

typedef struct BF {
	bool neg;
	bool ovf;                /* magnitude passed 10^54: result overflows */
	uint64_t l[BF_N];
} BF;

static const uint64_t p10u[19] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL
};

static bool
bf_zero(const BF *a)
{
	int i;
	for (i = 0; i < BF_N; i++)
		if (a->l[i])
			return false;
	return true;
}

static int
mag_cmp(const BF *a, const BF *b)
{
	int i;
	for (i = BF_N - 1; i >= 0; i--)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

/* |a| * m + add (m, add < 10^18); sets ovf on carry out */
static void
mag_mul_small(BF *a, uint64_t m, uint64_t add)
{
	uint128 carry = add;
	int i;
	for (i = 0; i < BF_N; i++) {
		uint128 t = (uint128)a->l[i] * m + carry;
		a->l[i] = (uint64_t)(t % BF_BASE);
		carry = t / BF_BASE;
	}
	if (carry)
		a->ovf = true;
}

/* |a| / d truncated (d <= 10^18); returns the remainder */
static uint64_t
mag_div_small(BF *a, uint64_t d)
{
	uint128 rem = 0;
	int i;
	for (i = BF_N - 1; i >= 0; i--) {
		uint128 t = rem * BF_BASE + a->l[i];
		a->l[i] = (uint64_t)(t / d);
		rem = t % d;
	}
	return (uint64_t)rem;
}

/* value m * 10^e (m < 10^38) */
static BF
bf_make(uint128 m, int e, bool neg)
{
	BF r;
	int sh = BF_DIGITS + e, q, i;

	memset(&r, 0, sizeof r);
	r.neg = neg;
	if (sh < 0) {
		/* drop -sh digits (truncating: only tiny values get here) */
		while (sh < 0 && m) {
			int k = -sh > 18 ? 18 : -sh;
			m /= p10u[k];
			sh += k;
		}
		if (!m)
			return r;
	}
	r.l[0] = (uint64_t)(m % BF_BASE);
	r.l[1] = (uint64_t)((m / BF_BASE) % BF_BASE);
	r.l[2] = (uint64_t)(m / BF_BASE / BF_BASE);
	q = sh / 18;
	if (q > 0) {
		for (i = BF_N - 1; i >= 0; i--)
			r.l[i] = i >= q ? r.l[i - q] : 0;
		if (q > BF_N - 3)
			r.ovf = true;
	}
	mag_mul_small(&r, p10u[sh % 18], 0);
	if (r.neg && bf_zero(&r))
		r.neg = false;
	return r;
}

static BF
bf_from_dec(int128 v, int s)
{
	return bf_make(uabs128(v), -s, v < 0);
}

static BF
bf_from_double(double d)
{
	int e;
	double m;

	if (d == 0 || !isfinite(d))
		return bf_make(0, 0, false);
	e = (int)floor(log10(fabs(d))) - 16;
	m = fabs(d) / pow(10.0, e);
	return bf_make((uint128)llround(m), e, d < 0);
}

static double
bf_to_double(const BF *a)
{
	double r = 0;
	int i;
	for (i = BF_N - 1; i >= 0; i--)
		r = r * 1e18 + (double)a->l[i];
	r /= 1e72;
	return a->neg ? -r : r;
}

static void
mag_add(BF *r, const BF *a, const BF *b)
{
	uint64_t carry = 0;
	int i;
	for (i = 0; i < BF_N; i++) {
		uint64_t t = a->l[i] + b->l[i] + carry;
		carry = t >= BF_BASE;
		r->l[i] = carry ? t - BF_BASE : t;
	}
	if (carry)
		r->ovf = true;
}

static void
mag_sub(BF *r, const BF *a, const BF *b)     /* |a| >= |b| */
{
	uint64_t borrow = 0;
	int i;
	for (i = 0; i < BF_N; i++) {
		uint64_t bi = b->l[i] + borrow;
		borrow = a->l[i] < bi;
		r->l[i] = borrow ? a->l[i] + BF_BASE - bi : a->l[i] - bi;
	}
}

static BF
bf_add(BF a, BF b)
{
	BF r;
	memset(&r, 0, sizeof r);
	r.ovf = a.ovf || b.ovf;
	if (a.neg == b.neg) {
		mag_add(&r, &a, &b);
		r.neg = a.neg;
	} else if (mag_cmp(&a, &b) >= 0) {
		mag_sub(&r, &a, &b);
		r.neg = a.neg;
	} else {
		mag_sub(&r, &b, &a);
		r.neg = b.neg;
	}
	if (bf_zero(&r))
		r.neg = false;
	return r;
}

static BF
bf_neg(BF a)
{
	if (!bf_zero(&a))
		a.neg = !a.neg;
	return a;
}

static BF
bf_sub(BF a, BF b)
{
	return bf_add(a, bf_neg(b));
}

static BF
bf_mul(const BF *a, const BF *b)
{
	uint128 col[2 * BF_N + 1];
	uint64_t lo[2 * BF_N + 1];
	BF r;
	int i, j;

	memset(col, 0, sizeof col);
	for (i = 0; i < BF_N; i++) {
		if (!a->l[i])
			continue;
		for (j = 0; j < BF_N; j++) {
			uint128 t = (uint128)a->l[i] * b->l[j];
			/* keep columns below 2^127: fold each product in base 10^18 */
			col[i + j] += (uint64_t)(t % BF_BASE);
			col[i + j + 1] += (uint64_t)(t / BF_BASE);
		}
	}
	{
		uint128 carry = 0;
		for (i = 0; i < 2 * BF_N + 1; i++) {
			uint128 t = col[i] + carry;
			lo[i] = (uint64_t)(t % BF_BASE);
			carry = t / BF_BASE;
		}
	}
	memset(&r, 0, sizeof r);
	r.ovf = a->ovf || b->ovf;
	for (i = 0; i < BF_N; i++)
		r.l[i] = lo[i + BF_FRAC];
	for (i = BF_N + BF_FRAC; i < 2 * BF_N + 1; i++)
		if (lo[i])
			r.ovf = true;
	r.neg = a->neg != b->neg && !bf_zero(&r);
	return r;
}

static BF
bf_mul_int(BF a, int64_t m)
{
	uint64_t u = m < 0 ? (uint64_t)0 - (uint64_t)m : (uint64_t)m;
	if (m < 0)
		a = bf_neg(a);
	while (u >= BF_BASE) {          /* never for the callers here */
		mag_mul_small(&a, 1000000000ULL, 0);
		u /= 1000000000ULL;
	}
	mag_mul_small(&a, u, 0);
	if (bf_zero(&a))
		a.neg = false;
	return a;
}

static BF
bf_div_int(BF a, uint64_t d)
{
	mag_div_small(&a, d);
	if (bf_zero(&a))
		a.neg = false;
	return a;
}

/* a / b (b != 0): Newton's reciprocal y <- y (2 - b y) from a double */
static BF
bf_div(const BF *a, const BF *b)
{
	BF y = bf_from_double(1.0 / bf_to_double(b)), two = bf_make(2, 0, false);
	int i;

	for (i = 0; i < 5; i++) {
		BF by = bf_mul(b, &y);
		BF t = bf_sub(two, by);
		y = bf_mul(&y, &t);
	}
	return bf_mul(a, &y);
}

/* 2 atanh(1/q) = 2 sum 1 / ((2j+1) q^(2j+1)) */
static BF
bf_atanh_inv(uint64_t q)
{
	BF p = bf_make(1, 0, false), sum = bf_make(0, 0, false);
	uint64_t j;

	p = bf_div_int(p, q);
	for (j = 0; !bf_zero(&p); j++) {
		BF t = bf_div_int(p, 2 * j + 1);
		sum = bf_add(sum, t);
		p = bf_div_int(p, q * q);
	}
	return bf_mul_int(sum, 2);
}

static BF bf_ln2, bf_ln10;
static pthread_once_t bf_once = PTHREAD_ONCE_INIT;

static void
bf_consts(void)
{
	BF ln125 = bf_atanh_inv(9);             /* ln(5/4) */
	bf_ln2 = bf_atanh_inv(3);               /* ln 2 */
	bf_ln10 = bf_add(bf_mul_int(bf_ln2, 3), ln125);
}

/* e^x for |x| <= 100 */
static BF
bf_exp(const BF *x)
{
	double xd = bf_to_double(x);
	int64_t n = llround(xd / 0.6931471805599453);
	BF r = bf_sub(*x, bf_mul_int(bf_ln2, n)), sum, term;
	int k;

	r = bf_div_int(r, 1024);
	sum = term = bf_make(1, 0, false);
	for (k = 1; k < 60; k++) {
		term = bf_mul(&term, &r);
		term = bf_div_int(term, (uint64_t)k);
		if (bf_zero(&term))
			break;
		sum = bf_add(sum, term);
	}
	for (k = 0; k < 10; k++)
		sum = bf_mul(&sum, &sum);
	while (n > 0) {
		int c = n > 59 ? 59 : (int)n;
		mag_mul_small(&sum, 1ULL << c, 0);
		n -= c;
	}
	while (n < 0) {
		int c = -n > 59 ? 59 : (int)-n;
		mag_div_small(&sum, 1ULL << c);
		n += c;
	}
	return sum;
}

/* ln x for x > 0 given as v / 10^s */
static BF
bf_ln(int128 v, int s)
{
	int k = decimal_log10_floor(v, s), i;
	/* mantissa m = v / 10^(s + k) in [1, 10), exact in BF */
	BF m = bf_make(uabs128(v), -(s + k), false), y, one = bf_make(1, 0, false);

	y = bf_from_double(log(bf_to_double(&m)));
	/* error 2e-16 -> 2e-32 -> 2e-64: enough for 38 digits plus guard */
	for (i = 0; i < 2; i++) {
		BF ny = bf_neg(y), e = bf_exp(&ny), t = bf_mul(&m, &e);
		y = bf_add(y, bf_sub(t, one));
	}
	return bf_add(y, bf_mul_int(bf_ln10, k));
}

/* Round a to `scale` digits (<= 38) into *out; 22003 if |result| >= 10^38. */
static int
bf_round(const BF *a, int scale, int128 *out, floe_error *err)
{
	BF t = *a;
	int drop = BF_DIGITS - scale, i;
	uint128 m;

	if (t.ovf)
		return decimal_overflow_error(err);
	/* add half a unit of the last kept digit, then truncate */
	{
		BF half = bf_make(5, -scale - 1, false);
		mag_add(&t, &t, &half);
	}
	while (drop >= 18) {
		for (i = 0; i < BF_N - 1; i++)
			t.l[i] = t.l[i + 1];
		t.l[BF_N - 1] = 0;
		drop -= 18;
	}
	mag_div_small(&t, p10u[drop]);
	for (i = 3; i < BF_N; i++)
		if (t.l[i])
			return decimal_overflow_error(err);
	if (t.l[2] >= 100)          /* >= 10^38 */
		return decimal_overflow_error(err);
	m = (uint128)t.l[2] * BF_BASE * BF_BASE + (uint128)t.l[1] * BF_BASE + t.l[0];
	*out = a->neg ? -(int128)m : (int128)m;
	return FLOE_OK;
}

/* PostgreSQL's estimate_ln_dweight: decimal weight of ln(v / 10^s), v > 0 */
static int
ln_dweight(int128 v, int s)
{
	int w, first, k;
	uint128 u = uabs128(v), d2;
	bool more;
	double digits, lnv;
	int dweight;

	if (v <= 0)
		return 0;
	if (decimal_cmp(v, s, 9, 1) >= 0 && decimal_cmp(v, s, 11, 1) <= 0) {
		/* ln(1 + x) ~ x: the weight of x = v - 1 */
		int128 x = v - decimal_pow10(s);
		return x == 0 ? 0 : decimal_log10_floor(x, s);
	}
	nbase_weight(v, s, &w, &first);
	k = s + 4 * (w - 1);                   /* first two base-10^4 digits: u / 10^k */
	if (k >= 0) {
		d2 = u / (uint128)decimal_pow10(k);
		more = k + 4 > 38 ? false : u % (uint128)decimal_pow10(k + 4) != 0;
	} else {
		d2 = u * (uint128)decimal_pow10(-k);
		more = false;
		if (k + 4 > 0)
			more = u % (uint128)decimal_pow10(k + 4) != 0;
	}
	if (more) {
		digits = (double)d2;
		dweight = 4 * (w - 1);
	} else {
		digits = first;
		dweight = 4 * w;
	}
	lnv = log(digits) + dweight * 2.302585092994046;
	return (int)log10(fabs(lnv));
}

/* clamp PostgreSQL's rscale to 0..1000, then to max_scale */
static int
cap_scale(int rscale, int max_scale)
{
	if (rscale < 0)
		rscale = 0;
	return rscale > max_scale ? max_scale : rscale;
}

int
decimal_exp(int128 a, int sa, int max_scale, int128 *out, int *rscale, floe_error *err)
{
	double val = decimal_to_double(a, sa) * 0.434294481903252;
	int rs;
	BF x, r;

	pthread_once(&bf_once, bf_consts);
	if (val > 1000)
		val = 1000;
	if (val < -1000)
		val = -1000;
	rs = 16 - (int)val;
	if (rs < sa)
		rs = sa;
	rs = cap_scale(rs, max_scale);
	*rscale = rs;
	if (val > 39)
		return decimal_overflow_error(err);
	if (val < -45) {        /* below half a unit of 10^-38 */
		*out = 0;
		return FLOE_OK;
	}
	x = bf_from_dec(a, sa);
	r = bf_exp(&x);
	return bf_round(&r, rs, out, err);
}

static int
log_error(floe_error *err, int128 v)
{
	return floe_errorf(err, ERRCODE_INVALID_ARGUMENT_FOR_LOG,
			   v == 0 ? "cannot take logarithm of zero" :
				    "cannot take logarithm of a negative number");
}

int
decimal_ln(int128 a, int sa, int max_scale, int128 *out, int *rscale, floe_error *err)
{
	int rs;
	BF r;

	if (a <= 0)
		return log_error(err, a);
	pthread_once(&bf_once, bf_consts);
	rs = 16 - ln_dweight(a, sa);
	if (rs < sa)
		rs = sa;
	rs = cap_scale(rs, max_scale);
	*rscale = rs;
	r = bf_ln(a, sa);
	return bf_round(&r, rs, out, err);
}

int
decimal_log(int128 b, int sb, int128 x, int sx, int max_scale, int128 *out, int *rscale,
	    floe_error *err)
{
	int rs;
	BF lb, lx, r;

	if (b <= 0)
		return log_error(err, b);
	if (x <= 0)
		return log_error(err, x);
	pthread_once(&bf_once, bf_consts);
	rs = 16 - (ln_dweight(x, sx) - ln_dweight(b, sb));
	if (rs < sb)
		rs = sb;
	if (rs < sx)
		rs = sx;
	rs = cap_scale(rs, max_scale);
	*rscale = rs;
	if (b == decimal_pow10(sb))
		return floe_errorf(err, ERRCODE_DIVISION_BY_ZERO, "division by zero");
	lb = bf_ln(b, sb);
	lx = bf_ln(x, sx);
	r = bf_div(&lx, &lb);
	return bf_round(&r, rs, out, err);
}

/* round a BF to `scale` decimals (may be more than 38 digits: stays a BF) */
static BF
bf_round_bf(const BF *a, int scale)
{
	BF t = *a, half;
	int drop = BF_DIGITS - scale;
	uint64_t unit;

	if (drop <= 0)
		return t;
	half = bf_make(5, -scale - 1, false);
	mag_add(&t, &t, &half);
	/* truncate the last `drop` digits in place */
	{
		int i, d = drop;
		for (i = 0; d > 0 && i < BF_N; i++) {
			if (d >= 18) {
				t.l[i] = 0;
				d -= 18;
			} else {
				unit = p10u[d];
				t.l[i] -= t.l[i] % unit;
				d = 0;
			}
		}
	}
	if (bf_zero(&t))
		t.neg = false;
	return t;
}

int
decimal_power(int128 b, int sb, int128 e, int se, int max_scale, int128 *out, int *rscale,
	      floe_error *err)
{
	bool int_exp = e % decimal_pow10(se) == 0;
	int128 ei = e / decimal_pow10(se);
	int rs;

	if (b == 0 && e < 0)
		return floe_errorf(err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
				   "zero raised to a negative power is undefined");
	if (b < 0 && !int_exp)
		return floe_errorf(err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
				   "a negative number raised to a non-integer power yields a complex result");
	pthread_once(&bf_once, bf_consts);
	if (int_exp && ei >= INT32_MIN && ei <= INT32_MAX) {
		/* power_var_int: rscale max(16, base's display scale); exact
		 * product by squaring, rounded once */
		int64_t n = (int64_t)ei;
		uint64_t m = n < 0 ? (uint64_t)(-n) : (uint64_t)n;
		double w;
		BF base, acc;

		rs = cap_scale(sb > 16 ? sb : 16, max_scale);
		*rscale = rs;
		if (n == 0) {
			*out = decimal_pow10(rs);
			return FLOE_OK;
		}
		if (b == 0) {
			*out = 0;
			return FLOE_OK;
		}
		w = (double)n * log10(fabs(decimal_to_double(b, sb)));
		if (w > 39)
			return decimal_overflow_error(err);
		if (w < -(rs + 2)) {
			*out = 0;
			return FLOE_OK;
		}
		base = bf_from_dec(b, sb);
		base.neg = false;
		acc = bf_make(1, 0, false);
		while (m) {
			if (m & 1)
				acc = bf_mul(&acc, &base);
			m >>= 1;
			if (m)
				base = bf_mul(&base, &base);
		}
		if (n < 0) {
			BF one = bf_make(1, 0, false);
			acc = bf_div(&one, &acc);
		}
		if (b < 0 && (n & 1))
			acc = bf_neg(acc);
		return bf_round(&acc, rs, out, err);
	}
	if (b == 0) {
		/* 0 ^ positive non-integer: zero at scale 16 */
		*rscale = cap_scale(16, max_scale);
		*out = 0;
		return FLOE_OK;
	}
	{
		/* power_var: scale from a low-precision exp * ln(base) (ln to
		 * 8 - dweight digits, the product rounded there too) */
		int ldw = ln_dweight(b, sb), lrs = 8 - ldw;
		BF lb, ex, ln_num, r;
		double val;
		bool neg = b < 0;

		if (lrs < 0)
			lrs = 0;
		if (lrs > BF_DIGITS)
			lrs = BF_DIGITS;
		lb = bf_ln(neg ? -b : b, sb);
		ex = bf_from_dec(e, se);
		{
			BF l8 = bf_round_bf(&lb, lrs), p = bf_mul(&l8, &ex);
			p = bf_round_bf(&p, lrs);
			val = bf_to_double(&p);
		}
		val *= 0.434294481903252;
		rs = 16 - (int)(val > 1000 ? 1000 : val < -1000 ? -1000 : val);
		if (rs < sb)
			rs = sb;
		if (rs < se)
			rs = se;
		rs = cap_scale(rs, max_scale);
		*rscale = rs;
		if (val > 39)
			return decimal_overflow_error(err);
		if (val < -(rs + 2)) {
			*out = 0;
			return FLOE_OK;
		}
		ln_num = bf_mul(&lb, &ex);
		r = bf_exp(&ln_num);
		if (neg && (ei & 1))
			r = bf_neg(r);
		return bf_round(&r, rs, out, err);
	}
}

int
decimal_sqrt(int128 a, int sa, int scale, int128 *out, floe_error *err)
{
	BF x, y, half = bf_make(5, -1, false);
	int i;

	if (a < 0)
		return floe_errorf(err, ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION,
				   "cannot take square root of a negative number");
	if (a == 0) {
		*out = 0;
		return FLOE_OK;
	}
	/* Newton: y <- (y + x / y) / 2 from a double start */
	x = bf_from_dec(a, sa);
	y = bf_from_double(sqrt(decimal_to_double(a, sa)));
	for (i = 0; i < 4; i++) {
		BF q = bf_div(&x, &y), t = bf_add(y, q);
		y = bf_mul(&t, &half);
	}
	return bf_round(&y, scale, out, err);
}

int
decimal_sqrt_scale(int128 a, int sa)
{
	int w, first, rs;

	nbase_weight(a, sa, &w, &first);
	rs = 16 - (2 * w + 1);
	if (rs < sa)
		rs = sa;
	return rs < 0 ? 0 : rs;
}
