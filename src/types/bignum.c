/*
 * bignum.c — exact decimal arithmetic on digit strings (see bignum.h).
 *
 * A value is sign, the digits of its magnitude scaled to an integer, and
 * the scale.  Magnitudes are schoolbook-added, -subtracted, -multiplied and
 * long-divided in base 10: the jsonpath numbers these serve are short.
 */
#include <string.h>
#include "types/bignum.h"

/* digits without leading zeros */
static void
trim(const char **d, size_t *n)
{
	while (*n && **d == '0') {
		(*d)++;
		(*n)--;
	}
}

void
bignum_parse(const char *s, size_t n, Arena *a, BigNum *x)
{
	char *d = arena_alloc(a, n + 1);
	size_t i = 0, o = 0;
	x->neg = false;
	x->scale = 0;
	if (i < n && s[i] == '-') {
		x->neg = true;
		i++;
	}
	bool frac = false;
	for (; i < n; i++) {
		if (s[i] == '.') {
			frac = true;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			break;
		d[o++] = s[i];
		if (frac)
			x->scale++;
	}
	d[o] = 0;
	x->d = d;
	x->n = o;
	trim(&x->d, &x->n);
	if (!x->n)
		x->neg = false;
}

const char *
bignum_text(const BigNum *x, Arena *a, size_t *len)
{
	size_t ip = x->n > (size_t)x->scale ? x->n - (size_t)x->scale : 0;
	char *o = arena_alloc(a, x->n + (size_t)x->scale + 4), *p = o;
	size_t k;
	if (x->neg && x->n)
		*p++ = '-';
	if (!ip)
		*p++ = '0';
	for (k = 0; k < ip; k++)
		*p++ = x->d[k];
	if (x->scale > 0) {
		*p++ = '.';
		/* fraction digits: leading zeros when n < scale */
		for (k = 0; k < (size_t)x->scale; k++) {
			long idx = (long)x->n - (long)x->scale + (long)k;
			*p++ = idx < 0 ? '0' : x->d[idx];
		}
	}
	*p = 0;
	*len = (size_t)(p - o);
	return o;
}

/* x's digits at scale s (>= x->scale) */
static const char *
at_scale(const BigNum *x, int s, Arena *a, size_t *n)
{
	size_t z = (size_t)(s - x->scale);
	char *d;
	if (!z || !x->n) {
		*n = x->n;
		return x->d;
	}
	d = arena_alloc(a, x->n + z + 1);
	memcpy(d, x->d, x->n);
	memset(d + x->n, '0', z);
	d[x->n + z] = 0;
	*n = x->n + z;
	return d;
}

static int
mag_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	trim(&a, &an);
	trim(&b, &bn);
	if (an != bn)
		return an < bn ? -1 : 1;
	int c = memcmp(a, b, an);
	return c < 0 ? -1 : c > 0;
}

static const char *
mag_add(const char *a, size_t an, const char *b, size_t bn, Arena *ar, size_t *n)
{
	size_t m = (an > bn ? an : bn) + 1, k;
	char *o = arena_alloc(ar, m + 1);
	int carry = 0;
	for (k = 0; k < m; k++) {
		int da = k < an ? a[an - 1 - k] - '0' : 0;
		int db = k < bn ? b[bn - 1 - k] - '0' : 0;
		int s = da + db + carry;
		o[m - 1 - k] = (char)('0' + s % 10);
		carry = s / 10;
	}
	o[m] = 0;
	const char *r = o;
	*n = m;
	trim(&r, n);
	return r;
}

/* a - b, a >= b */
static const char *
mag_sub(const char *a, size_t an, const char *b, size_t bn, Arena *ar, size_t *n)
{
	char *o = arena_alloc(ar, an + 1);
	int borrow = 0;
	size_t k;
	for (k = 0; k < an; k++) {
		int da = a[an - 1 - k] - '0' - borrow;
		int db = k < bn ? b[bn - 1 - k] - '0' : 0;
		borrow = da < db;
		o[an - 1 - k] = (char)('0' + da - db + (borrow ? 10 : 0));
	}
	o[an] = 0;
	const char *r = o;
	*n = an;
	trim(&r, n);
	return r;
}

static const char *
mag_mul(const char *a, size_t an, const char *b, size_t bn, Arena *ar, size_t *n)
{
	size_t m = an + bn, i, j;
	int *acc;
	char *o;
	if (!an || !bn) {
		*n = 0;
		return "";
	}
	acc = arena_alloc(ar, sizeof(int) * m);
	memset(acc, 0, sizeof(int) * m);
	for (i = 0; i < an; i++) {
		int da = a[an - 1 - i] - '0';
		for (j = 0; j < bn; j++) {
			acc[i + j] += da * (b[bn - 1 - j] - '0');
			if (acc[i + j] >= 1000000) {
				acc[i + j + 1] += acc[i + j] / 10;
				acc[i + j] %= 10;
			}
		}
	}
	o = arena_alloc(ar, m + 1);
	for (i = 0; i < m; i++) {
		if (i + 1 < m)
			acc[i + 1] += acc[i] / 10;
		o[m - 1 - i] = (char)('0' + acc[i] % 10);
	}
	o[m] = 0;
	const char *r = o;
	*n = m;
	trim(&r, n);
	return r;
}

/* trunc(a / b), b != 0 */
static const char *
mag_div(const char *a, size_t an, const char *b, size_t bn, Arena *ar, size_t *n)
{
	char *q = arena_alloc(ar, an + 1);
	char *rem = arena_alloc(ar, bn + 2);
	size_t rn = 0, k;
	trim(&b, &bn);
	for (k = 0; k < an; k++) {
		int cnt = 0;
		/* rem = rem * 10 + digit */
		if (rn || a[k] != '0')
			rem[rn++] = a[k];
		while (mag_cmp(rem, rn, b, bn) >= 0) {
			size_t nn;
			const char *t = mag_sub(rem, rn, b, bn, ar, &nn);
			memmove(rem, t, nn);
			rn = nn;
			cnt++;
		}
		q[k] = (char)('0' + cnt);
	}
	q[an] = 0;
	const char *r = q;
	*n = an;
	trim(&r, n);
	return r;
}

static void
set(BigNum *o, bool neg, const char *d, size_t n, int scale)
{
	o->d = d;
	o->n = n;
	o->scale = scale;
	o->neg = n ? neg : false;
}

static void
addsub(const BigNum *x, const BigNum *y, bool sub, Arena *a, BigNum *out)
{
	int s = x->scale > y->scale ? x->scale : y->scale;
	size_t xn, yn, n;
	const char *xd = at_scale(x, s, a, &xn), *yd = at_scale(y, s, a, &yn), *d;
	bool yneg = sub ? !y->neg : y->neg;
	if (x->neg == yneg) {
		d = mag_add(xd, xn, yd, yn, a, &n);
		set(out, x->neg, d, n, s);
	} else if (mag_cmp(xd, xn, yd, yn) >= 0) {
		d = mag_sub(xd, xn, yd, yn, a, &n);
		set(out, x->neg, d, n, s);
	} else {
		d = mag_sub(yd, yn, xd, xn, a, &n);
		set(out, yneg, d, n, s);
	}
}

void
bignum_add(const BigNum *x, const BigNum *y, Arena *a, BigNum *out)
{
	addsub(x, y, false, a, out);
}

void
bignum_sub(const BigNum *x, const BigNum *y, Arena *a, BigNum *out)
{
	addsub(x, y, true, a, out);
}

void
bignum_mul(const BigNum *x, const BigNum *y, Arena *a, BigNum *out)
{
	size_t n;
	const char *d = mag_mul(x->d, x->n, y->d, y->n, a, &n);
	set(out, x->neg != y->neg, d, n, x->scale + y->scale);
}

/* base-10000 weight and first digit of x (select_div_scale's) */
static void
nbase_first(const BigNum *x, long *weight, long *first)
{
	long e10, w, cnt, k, v = 0;
	if (!x->n) {
		*weight = 0;
		*first = 0;
		return;
	}
	e10 = (long)x->n - x->scale - 1;          /* power of ten of the first digit */
	w = e10 >= 0 ? e10 / 4 : -((-e10 + 3) / 4);
	cnt = e10 - 4 * w + 1;                    /* its group's digits from it on */
	for (k = 0; k < cnt; k++)
		v = v * 10 + (k < (long)x->n ? x->d[k] - '0' : 0);
	*weight = w;
	*first = v;
}

static const char *
zeros_after(const char *d, size_t n, size_t z, Arena *a, size_t *outn)
{
	char *o = arena_alloc(a, n + z + 1);
	memcpy(o, d, n);
	memset(o + n, '0', z);
	o[n + z] = 0;
	*outn = n + z;
	return o;
}

bool
bignum_div(const BigNum *x, const BigNum *y, Arena *a, BigNum *out)
{
	long w1, f1, w2, f2, qw, r;
	long k;
	size_t xn = x->n, yn = y->n, qn;
	const char *xd = x->d, *yd = y->d, *q;
	if (!y->n)
		return false;
	nbase_first(x, &w1, &f1);
	nbase_first(y, &w2, &f2);
	qw = w1 - w2;
	if (f1 <= f2)
		qw--;
	r = 16 - qw * 4;
	if (r < x->scale)
		r = x->scale;
	if (r < y->scale)
		r = y->scale;
	if (r < 0)
		r = 0;
	if (r > 1000)
		r = 1000;
	/* q = trunc(X * 10^k / Y), one digit beyond scale r, then rounded */
	k = r + 1 + y->scale - x->scale;
	if (k >= 0)
		xd = zeros_after(xd, xn, (size_t)k, a, &xn);
	else
		yd = zeros_after(yd, yn, (size_t)-k, a, &yn);
	q = mag_div(xd, xn, yd, yn, a, &qn);
	{
		/* drop the extra digit, rounding half away from zero */
		bool up = qn && q[qn - 1] >= '5';
		size_t n = qn ? qn - 1 : 0;
		const char *d = q;
		if (up)
			d = mag_add(q, n, "1", 1, a, &n);
		set(out, x->neg != y->neg, d, n, (int)r);
	}
	return true;
}

bool
bignum_mod(const BigNum *x, const BigNum *y, Arena *a, BigNum *out)
{
	int s = x->scale > y->scale ? x->scale : y->scale;
	size_t xn, yn, qn, pn, rn;
	const char *xd, *yd, *q, *p, *r;
	if (!y->n)
		return false;
	xd = at_scale(x, s, a, &xn);
	yd = at_scale(y, s, a, &yn);
	q = mag_div(xd, xn, yd, yn, a, &qn);
	p = mag_mul(q, qn, yd, yn, a, &pn);
	r = mag_sub(xd, xn, p, pn, a, &rn);
	set(out, x->neg, r, rn, s);
	return true;
}

/* the integer part of |x| (truncated) and whether a fraction was dropped */
static const char *
int_part(const BigNum *x, size_t *n, bool *frac)
{
	size_t ip = x->n > (size_t)x->scale ? x->n - (size_t)x->scale : 0, k;
	*frac = false;
	for (k = ip; k < x->n; k++)
		if (x->d[k] != '0')
			*frac = true;
	*n = ip;
	return x->d;
}

static void
round_int(const BigNum *x, bool toward_pos_inf, Arena *a, BigNum *out)
{
	bool frac;
	size_t n;
	const char *d = int_part(x, &n, &frac);
	/* floor of a negative or ceiling of a positive with a fraction: away from zero */
	if (frac && x->neg != toward_pos_inf)
		d = mag_add(d, n, "1", 1, a, &n);
	set(out, x->neg, d, n, 0);
}

void
bignum_floor(const BigNum *x, Arena *a, BigNum *out)
{
	round_int(x, false, a, out);
}

void
bignum_ceil(const BigNum *x, Arena *a, BigNum *out)
{
	round_int(x, true, a, out);
}

void
bignum_abs(const BigNum *x, BigNum *out)
{
	*out = *x;
	out->neg = false;
}

void
bignum_neg(const BigNum *x, BigNum *out)
{
	*out = *x;
	out->neg = x->n ? !x->neg : false;
}
