/*
 * text.c — PostgreSQL 15 input and output functions for every floe type.
 *
 * Implements text.h: the equivalents of boolin/boolout, int2in..int8out,
 * float4in/float8in and float4out/float8out (float.c float8out_internal:
 * extra_float_digits > 0, the default 1, is the shortest text that reads
 * back to the same binary value, spelled as PostgreSQL's Ryu-based float
 * output does: "1e+20", "1e-05", "-0", "NaN", "Infinity"; <= 0 is %.*g with
 * DBL_DIG (FLT_DIG) + extra_float_digits digits; the setting is a
 * thread-local the engine installs per statement), numeric_in/numeric_out (through decimal.c, padded to the
 * type's scale), textin/varcharin/bpcharin with typmod checks and UTF-8
 * validation (pg_verify_mbstr's messages), byteain
 * (hex and escape) / byteaout (hex), uuid_in/uuid_out, and the date/time
 * types (through datetime.c).
 *
 * Shortest float digits (shortest_digits): exact fast paths for integers
 * and short decimals (r / 10^k == d); otherwise the correctly rounded
 * 15-digit (float4: 6-digit) text, stripped of trailing zeros, if it reads
 * back; else 16, else 17 digits (float4: 7, 8, 9).  Candidates exactly
 * halfway to a neighbouring value are refused as PostgreSQL's Ryu does.
 * Differentially tested against PostgreSQL 15 on 4700 values.
 *
 * INTERFACE ROUTINES: see text.h.
 *
 * Invariants: outputs are NUL-terminated and allocated in the caller's
 * arena; inputs never read beyond n bytes; every rejection carries
 * PostgreSQL's SQLSTATE and message text.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/hex.h"
#include "types/array.h"
#include "types/datetime.h"
#include "types/decimal.h"
#include "types/json.h"
#include "types/jsonpath.h"
#include "types/text.h"
#include "types/udt.h"


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

static bool
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void
trim(const char **s, size_t *n)
{
	const char *p = *s;
	size_t len = *n;
	while (len && is_space(*p))
		p++, len--;
	while (len && is_space(p[len - 1]))
		len--;
	*s = p;
	*n = len;
}

/* ------------------------------------------------------------------ */
/* Floats                                                              */
/* ------------------------------------------------------------------ */

/*
 * Digits and exponent of the shortest round-trip representation: digits
 * "d1d2...dk" (no dot), value = 0.d1d2..dk * 10^(exp+1), i.e. exp is the
 * scientific exponent of d1.
 */
/*
 * Does the decimal text read back as d, strictly inside d's rounding
 * interval?  PostgreSQL's Ryu copy treats the interval's bounds as
 * exclusive, so a candidate exactly halfway to a neighbour (which strtod
 * would still round to d by ties-to-even) does not count.  A decimal of at
 * most 17 (float4: 9) digits can only equal such a midpoint when |d| is at
 * least 2^52 (2^21): below that the midpoint has too many digits, and the
 * exact (long double) check is skipped.
 */
static bool
reads_back(const char *txt, double d, bool is_float4)
{
	if (is_float4) {
		float f = (float)d;
		if (strtof(txt, NULL) != f)
			return false;
		if (fabsf(f) < 2097152.0f)
			return true;
		double x = strtod(txt, NULL);
		double lo = ((double)f + (double)nextafterf(f, -INFINITY)) / 2;
		double hi = ((double)f + (double)nextafterf(f, INFINITY)) / 2;
		return x != lo && x != hi;
	}
	if (strtod(txt, NULL) != d)
		return false;
	if (fabs(d) < 4503599627370496.0)
		return true;
	long double x = strtold(txt, NULL);
	long double lo = ((long double)d + (long double)nextafter(d, -INFINITY)) / 2;
	long double hi = ((long double)d + (long double)nextafter(d, INFINITY)) / 2;
	return x != lo && x != hi;
}

/* Significant digits of "%.*e" text into digs (trailing zeros dropped),
 * decimal exponent into *exp; returns the digit count. */
static int
split_e(const char *tmp, char *digs, int *exp)
{
	int k = 0;
	const char *q = tmp;
	for (; *q && *q != 'e'; q++)
		if (isdigit((unsigned char)*q))
			digs[k++] = *q;
	digs[k] = '\0';
	*exp = atoi(q + 1);
	while (k > 1 && digs[k - 1] == '0')
		digs[--k] = '\0';
	return k;
}

/* Round the max-digit significand D (exponent e) to p digits into cand as
 * "%.{p-1}e" text; false when D's tail is an exact tie (D itself may have
 * been rounded there, so the caller asks snprintf instead). */
static bool
round_digits(const char *D, int nd, int e, int p, char *cand, size_t cap)
{
	char r[24];
	memcpy(r, D, (size_t)p);
	bool up;
	if (D[p] > '5')
		up = true;
	else if (D[p] < '5')
		up = false;
	else {
		bool rest = false;
		for (int i = p + 1; i < nd; i++)
			if (D[i] != '0')
				rest = true;
		if (!rest)
			return false;
		up = true;
	}
	if (up) {
		int i = p - 1;
		while (i >= 0 && r[i] == '9')
			r[i--] = '0';
		if (i >= 0)
			r[i]++;
		else {
			r[0] = '1';
			e++;
		}
	}
	int n = 0;
	cand[n++] = r[0];
	if (p > 1) {
		cand[n++] = '.';
		memcpy(cand + n, r + 1, (size_t)p - 1);
		n += p - 1;
	}
	snprintf(cand + n, cap - (size_t)n, "e%d", e);
	return true;
}

/*
 * Shortest digits that read back (d > 0, finite).  If the correctly
 * rounded DIG-digit text (DBL_DIG 15, FLT_DIG 6) reads back, its digits
 * without trailing zeros are the shortest: any shorter decimal that read
 * back would, by the DIG-digit round-trip guarantee, be that same text.
 * Otherwise DIG+1 digits, and so on up to the maximum (17 or 9), which
 * always lies strictly inside the interval.  Candidates are rounded from
 * one max-digit rendering.  Subnormals (fewer bits, no DIG guarantee) are
 * searched digit by digit.
 */
static int
shortest_digits(double d, bool is_float4, char *digs, int *exp)
{
	char tmp[48], cand[48];
	int dig = is_float4 ? 6 : 15, max = is_float4 ? 9 : 17;

	/* integers below 10^15 (float4: 10^6): their own digits */
	if (d < (is_float4 ? 1e6 : 1e15) && d == (double)(int64_t)d) {
		int64_t v = (int64_t)d;
		int n = snprintf(tmp, sizeof tmp, "%lld", (long long)v);
		memcpy(digs, tmp, (size_t)n + 1);
		*exp = n - 1;
		while (n > 1 && digs[n - 1] == '0')
			digs[--n] = '\0';
		return n;
	}
	/*
	 * "Nice" values (0.1, 123.45): if r / 10^k == d for an integer r below
	 * 10^DIG, the decimal r * 10^-k reads back (IEEE division is correctly
	 * rounded, like strtod), and having at most DIG digits it is the
	 * DIG-digit rendering, hence the shortest once trailing zeros go.
	 */
	{
		static const double p10[] = { 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
					      1e11, 1e12, 1e13, 1e14, 1e15 };
		double lim = is_float4 ? 1e6 : 1e15;
		for (int k = 0; k < (is_float4 ? 10 : 15); k++) {
			double r = rint(d * p10[k]);
			if (r >= lim)
				break;
			bool same = is_float4 ? (float)r / (float)p10[k] == (float)d : r / p10[k] == d;
			if (r >= 1 && same) {
				int n = snprintf(tmp, sizeof tmp, "%lld", (long long)r);
				memcpy(digs, tmp, (size_t)n + 1);
				*exp = n - 1 - (k + 1);
				while (n > 1 && digs[n - 1] == '0')
					digs[--n] = '\0';
				return n;
			}
		}
	}
	if (d < (is_float4 ? (double)FLT_MIN : DBL_MIN)) {
		for (int p = 1; p < max; p++) {
			snprintf(tmp, sizeof tmp, "%.*e", p - 1, d);
			if (reads_back(tmp, d, is_float4))
				return split_e(tmp, digs, exp);
		}
		snprintf(tmp, sizeof tmp, "%.*e", max - 1, d);
		return split_e(tmp, digs, exp);
	}
	snprintf(tmp, sizeof tmp, "%.*e", max - 1, d);
	char D[24];
	int e, nd = 0;
	for (const char *q = tmp; *q && *q != 'e'; q++)
		if (isdigit((unsigned char)*q))
			D[nd++] = *q;
	e = atoi(strchr(tmp, 'e') + 1);
	for (int p = dig; p < max; p++) {
		if (!round_digits(D, nd, e, p, cand, sizeof cand))
			snprintf(cand, sizeof cand, "%.*e", p - 1, d);
		if (reads_back(cand, d, is_float4))
			return split_e(cand, digs, exp);
	}
	return split_e(tmp, digs, exp);
}

static int
format_float(double d, bool is_float4, char *buf)
{
	if (isnan(d))
		return sprintf(buf, "NaN");
	if (isinf(d))
		return sprintf(buf, d > 0 ? "Infinity" : "-Infinity");
	if (d == 0)
		return sprintf(buf, signbit(d) ? "-0" : "0");
	char digs[24];
	int exp, n = 0;
	int k = shortest_digits(fabs(d), is_float4, digs, &exp);
	if (d < 0)
		buf[n++] = '-';
	int limit = is_float4 ? 6 : 15;
	if (exp >= -4 && exp < limit) {
		if (exp < 0) {
			n += sprintf(buf + n, "0.");
			for (int i = 0; i < -exp - 1; i++)
				buf[n++] = '0';
			memcpy(buf + n, digs, (size_t)k);
			n += k;
		} else if (k <= exp + 1) {
			memcpy(buf + n, digs, (size_t)k);
			n += k;
			for (int i = k; i <= exp; i++)
				buf[n++] = '0';
		} else {
			memcpy(buf + n, digs, (size_t)exp + 1);
			n += exp + 1;
			buf[n++] = '.';
			memcpy(buf + n, digs + exp + 1, (size_t)(k - exp - 1));
			n += k - exp - 1;
		}
		buf[n] = '\0';
		return n;
	}
	buf[n++] = digs[0];
	if (k > 1) {
		buf[n++] = '.';
		memcpy(buf + n, digs + 1, (size_t)k - 1);
		n += k - 1;
	}
	n += sprintf(buf + n, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
	return n;
}

int
text_format_float8(double d, char *buf)
{
	return format_float(d, false, buf);
}

int
text_format_float4(float f, char *buf)
{
	return format_float(f, true, buf);
}

/* The calling thread's extra_float_digits (the session's, installed by the
 * engine at each statement start; parallel.c copies it into workers). */
static _Thread_local int extra_digits = 1;

void
text_set_extra_float_digits(int efd)
{
	extra_digits = efd < -15 ? -15 : efd > 3 ? 3 : efd;
}

int
text_extra_float_digits(void)
{
	return extra_digits;
}

/* float8out_internal / float4out: extra_float_digits > 0 is the shortest
 * round-trip text; otherwise printf's %.*g with DBL_DIG (FLT_DIG) +
 * extra_float_digits significant digits (at least 1), NaN, Infinity,
 * -Infinity and -0 spelled as PostgreSQL's pg_strfromd spells them. */
static int
output_float(double d, bool is_float4, char *buf)
{
	int ndig;

	if (extra_digits > 0 || isnan(d) || isinf(d) || d == 0)
		return format_float(d, is_float4, buf);
	ndig = (is_float4 ? FLT_DIG : DBL_DIG) + extra_digits;
	if (ndig < 1)
		ndig = 1;
	return snprintf(buf, TEXT_FLOAT_BUF, "%.*g", ndig, d);
}

int
text_output_float8(double d, char *buf)
{
	return output_float(d, false, buf);
}

int
text_output_float4(float f, char *buf)
{
	return output_float(f, true, buf);
}

static int
parse_float_z(const char *buf, TypeId t, double *out)
{
	/* PostgreSQL accepts NaN, [+-]Infinity, [+-]inf, case-insensitively */
	const char *p = buf;
	bool neg = false;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (strcasecmp(p, "nan") == 0 && p == buf) {
		*out = NAN;
		return 0;
	}
	if (strcasecmp(p, "infinity") == 0 || strcasecmp(p, "inf") == 0) {
		*out = neg ? -INFINITY : INFINITY;
		return 0;
	}
	/* the rest is strtod's syntax, as float8in (hex floats included) */
	errno = 0;
	char *end;
	if (t == TYPE_FLOAT32) {
		float f = strtof(buf, &end);
		if (end == buf || *end)
			return -1;
		if (errno == ERANGE && (f == 0 || isinf(f)))
			return -2;
		*out = f;
	} else {
		double d = strtod(buf, &end);
		if (end == buf || *end)
			return -1;
		if (errno == ERANGE && (d == 0 || isinf(d)))
			return -2;
		*out = d;
	}
	return 0;
}

int
text_parse_float8(const char *s0, size_t n0, TypeId t, double *out, floe_error *err)
{
	const char *tname = t == TYPE_FLOAT32 ? "real" : "double precision";
	const char *s = s0;
	size_t n = n0;
	char small[128];
	int rc = -1;
	trim(&s, &n);
	if (n > 0 && !memchr(s, '\0', n)) {
		char *buf = n < sizeof small ? small : xmalloc(n + 1);
		memcpy(buf, s, n);
		buf[n] = '\0';
		rc = parse_float_z(buf, t, out);
		if (buf != small)
			free(buf);
	}
	if (rc == -2)
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "\"%.*s\" is out of range for type %s", quote_len(s, n), s, tname);
	if (rc != 0)
		return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
				   "invalid input syntax for type %s: \"%.*s\"", tname,
				   quote_len(s0, n0), s0);
	return FLOE_OK;
}

/* ------------------------------------------------------------------ */
/* Integers, booleans                                                  */
/* ------------------------------------------------------------------ */

static const char *
int_name(TypeId t)
{
	return t == TYPE_INT16 ? "smallint" : t == TYPE_INT32 ? "integer" : "bigint";
}

int
text_parse_int64(const char *s0, size_t n0, TypeId t, int64_t *out, floe_error *err)
{
	const char *s = s0;
	size_t n = n0;
	trim(&s, &n);
	size_t i = 0;
	bool neg = false, ovf = false;
	uint64_t v = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (i == n)
		goto bad;
	for (; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			goto bad;
		if (v > (UINT64_MAX - 9) / 10)
			ovf = true;
		else
			v = v * 10 + (uint64_t)(s[i] - '0');
	}
	int64_t hi = t == TYPE_INT16 ? INT16_MAX : t == TYPE_INT32 ? INT32_MAX : INT64_MAX;
	if (ovf || (neg ? v > (uint64_t)hi + 1 : v > (uint64_t)hi))
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "value \"%.*s\" is out of range for type %s", quote_len(s0, n0), s0,
				   int_name(t));
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return FLOE_OK;
bad:
	return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
			   "invalid input syntax for type %s: \"%.*s\"", int_name(t), quote_len(s0, n0), s0);
}

int
text_parse_bool(const char *s0, size_t n0, bool *out, floe_error *err)
{
	const char *s = s0;
	size_t n = n0;
	trim(&s, &n);
	if (n > 0) {
		switch (s[0]) {
		case 't': case 'T':
			if (n <= 4 && strncasecmp(s, "true", n) == 0) { *out = true; return FLOE_OK; }
			break;
		case 'f': case 'F':
			if (n <= 5 && strncasecmp(s, "false", n) == 0) { *out = false; return FLOE_OK; }
			break;
		case 'y': case 'Y':
			if (n <= 3 && strncasecmp(s, "yes", n) == 0) { *out = true; return FLOE_OK; }
			break;
		case 'n': case 'N':
			if (n <= 2 && strncasecmp(s, "no", n) == 0) { *out = false; return FLOE_OK; }
			break;
		case 'o': case 'O':
			if (n >= 2 && n <= 2 && strncasecmp(s, "on", 2) == 0) { *out = true; return FLOE_OK; }
			if (n >= 2 && n <= 3 && strncasecmp(s, "off", n) == 0) { *out = false; return FLOE_OK; }
			break;
		case '1':
			if (n == 1) { *out = true; return FLOE_OK; }
			break;
		case '0':
			if (n == 1) { *out = false; return FLOE_OK; }
			break;
		}
	}
	return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
			   "invalid input syntax for type boolean: \"%.*s\"", quote_len(s0, n0), s0);
}

/* ------------------------------------------------------------------ */
/* uuid, bytea                                                         */
/* ------------------------------------------------------------------ */

int
text_parse_uuid(const char *s, size_t n, Uuid *out, floe_error *err)
{
	size_t i = 0;
	bool braces = false;
	if (i < n && s[i] == '{')
		braces = true, i++;
	for (int k = 0; k < 16; k++) {
		if (i + 2 > n)
			goto bad;
		int h = hex_value(s[i]), l = hex_value(s[i + 1]);
		if (h < 0 || l < 0)
			goto bad;
		out->b[k] = (uint8_t)(h * 16 + l);
		i += 2;
		if (i < n && s[i] == '-' && (k % 2) == 1 && k < 15)
			i++;
	}
	if (braces) {
		if (i >= n || s[i] != '}')
			goto bad;
		i++;
	}
	if (i != n)
		goto bad;
	return FLOE_OK;
bad:
	return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
			   "invalid input syntax for type uuid: \"%.*s\"", quote_len(s, n), s);
}

/* Bytes of the UTF-8 character at s (at most n). */
static int
mb_len(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];
	int k = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
	return (size_t)k > n ? (int)n : k;
}

int
text_parse_bytea(const char *s, size_t n, Arena *a, const char **out, size_t *outlen,
		 floe_error *err)
{
	if (n >= 2 && s[0] == '\\' && s[1] == 'x') {
		char *r = arena_alloc(a, (n - 2) / 2 + 1);
		size_t k = 0;
		for (size_t i = 2; i < n;) {
			if (is_space(s[i])) {
				i++;
				continue;
			}
			int h = hex_value(s[i]);
			if (h < 0)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid hexadecimal digit: \"%.*s\"",
						   mb_len(s + i, n - i), s + i);
			if (i + 1 >= n)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid hexadecimal data: odd number of digits");
			int l = hex_value(s[i + 1]);
			if (l < 0)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid hexadecimal digit: \"%.*s\"",
						   mb_len(s + i + 1, n - i - 1), s + i + 1);
			r[k++] = (char)(h * 16 + l);
			i += 2;
		}
		*out = r;
		*outlen = k;
		return FLOE_OK;
	}
	char *r = arena_alloc(a, n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] != '\\') {
			r[k++] = s[i++];
			continue;
		}
		if (i + 1 < n && s[i + 1] == '\\') {
			r[k++] = '\\';
			i += 2;
		} else if (i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
			   s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			r[k++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 4;
		} else
			return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
					   "invalid input syntax for type bytea");
	}
	*out = r;
	*outlen = k;
	return FLOE_OK;
}

/* ------------------------------------------------------------------ */
/* Character types                                                     */
/* ------------------------------------------------------------------ */

/* Length of a legal UTF-8 character at s (n bytes left), 0 if illegal
 * (pg_utf8_islegal: no overlongs, surrogates, > U+10FFFF or NUL). */
static int
utf8_legal(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	if (c == 0)
		return 0;
	if (c < 0x80)
		return 1;
	int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
	if (!len || (size_t)len > n || c > 0xF4 || c < 0xC2)
		return 0;
	for (int i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) ||
	    (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))
		return 0;
	return len;
}

int
text_validate_utf8(const char *p, size_t n, floe_error *err)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0;
	while (i < n) {
		if (s[i] && s[i] < 0x80) {
			i++;
			continue;
		}
		int l = utf8_legal(s + i, n - i);
		if (l) {
			i += (size_t)l;
			continue;
		}
		/* PostgreSQL reports the bytes of the character the lead byte announces */
		unsigned char c = s[i];
		size_t k = (c & 0xF8) == 0xF0 ? 4 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xE0) == 0xC0 ? 2 : 1;
		if (k > n - i)
			k = n - i;
		char hex[32];
		int h = 0;
		for (size_t j = 0; j < k; j++)
			h += sprintf(hex + h, "%s0x%02x", j ? " " : "", s[i + j]);
		return floe_errorf(err, ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
				   "invalid byte sequence for encoding \"UTF8\": %s", hex);
	}
	return FLOE_OK;
}

/* Number of UTF-8 characters in s[0..n). */
static size_t
utf8_chars(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			c++;
	return c;
}

/* Byte length of the first `chars` characters. */
static size_t
utf8_prefix(const char *s, size_t n, size_t chars)
{
	size_t c = 0, i = 0;
	for (; i < n; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (c == chars)
				break;
			c++;
		}
	}
	return i;
}

/*
 * varchar(n)/char(n) typmod: too-long input is an error unless the excess
 * is spaces (then cut); explicit casts cut silently.  char(n) pads.  No
 * length (typmod -1: varchar, and bpchar, a parameter's OID 1042) takes
 * any length as is; char without a length is char(1), as its binder says.
 */
int
text__fit_char(SqlType t, const char *s, size_t n, bool explicit_cast, Arena *a,
	       const char **out, size_t *outlen, floe_error *err)
{
	*out = s;
	*outlen = n;
	if (t.id != TYPE_TEXT || t.text_kind == TEXT_PLAIN)
		return FLOE_OK;
	if (t.text_kind == TEXT_ENUM) {         /* enum_in: one of the labels */
		const Udt *u = udt_enum(t.udt);
		if (udt_enum_pos(u, s, n) < 0)
			return floe_errorf(err, ERRCODE_INVALID_TEXT_REPRESENTATION,
					   "invalid input value for enum %s: \"%.*s\"",
					   u ? u->name : "???", (int)n, s);
		return FLOE_OK;
	}
	if (t.text_kind == TEXT_JSON)           /* json_in: kept as written */
		return pgjson_validate(s, n, err);
	if (t.text_kind == TEXT_JSONB)          /* jsonb_in, printed by jsonb_out */
		return pgjsonb_normalize(s, n, a, out, outlen, err);
	if (t.text_kind == TEXT_JSONPATH)       /* jsonpath_in, printed by jsonpath_out */
		return jsonpath_normalize(s, n, a, out, outlen, err);
	int32_t maxlen = t.typmod;
	if (maxlen < 0)        /* varchar, bpchar: no length (char is char(1) by its binder) */
		return FLOE_OK;
	size_t chars = utf8_chars(s, n);
	if (chars > (size_t)maxlen) {
		size_t cut = utf8_prefix(s, n, (size_t)maxlen);
		if (!explicit_cast) {
			for (size_t i = cut; i < n; i++)
				if (s[i] != ' ')
					return floe_errorf(err, ERRCODE_STRING_DATA_RIGHT_TRUNCATION,
							   "value too long for type %s(%d)",
							   t.text_kind == TEXT_CHAR ? "character"
										  : "character varying",
							   maxlen);
		}
		*outlen = cut;
		chars = (size_t)maxlen;
	}
	if (t.text_kind == TEXT_CHAR && chars < (size_t)maxlen) {
		size_t pad = (size_t)maxlen - chars;
		char *r = arena_alloc(a, *outlen + pad + 1);
		memcpy(r, s, *outlen);
		memset(r + *outlen, ' ', pad);
		r[*outlen + pad] = '\0';
		*out = r;
		*outlen += pad;
	}
	return FLOE_OK;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static const char *
dup_out(Arena *a, const char *s, size_t n, size_t *len)
{
	char *r = arena_alloc(a, n + 1);
	memcpy(r, s, n);
	r[n] = '\0';
	if (len)
		*len = n;
	return r;
}

const char *
value_to_text(const Value *v, Arena *a, size_t *len)
{
	char buf[DATETIME_BUF > 64 ? DATETIME_BUF : 64];
	int n = 0;

	if (v->is_null || v->type.id == TYPE_NULL) {
		if (len)
			*len = 0;
		return NULL;
	}
	switch (v->type.id) {
	case TYPE_BOOL:
		return dup_out(a, v->u.b ? "t" : "f", 1, len);
	case TYPE_INT16:
	case TYPE_INT32:
	case TYPE_INT64:
		n = sprintf(buf, "%lld", (long long)v->u.i);
		break;
	case TYPE_FLOAT32:
		n = text_output_float4((float)v->u.f, buf);
		break;
	case TYPE_FLOAT64:
		n = text_output_float8(v->u.f, buf);
		break;
	case TYPE_DECIMAL: {
		Value d = *v;
		value_to_display_scale(&d);
		n = decimal_format(d.u.d, d.type.scale, buf);
		break;
	}
	case TYPE_TEXT:
		return dup_out(a, strview_data(&v->u.s), v->u.s.len, len);
	case TYPE_BYTEA: {
		static const char hx[] = "0123456789abcdef";
		const unsigned char *p = (const unsigned char *)strview_data(&v->u.s);
		size_t m = v->u.s.len;
		char *r = arena_alloc(a, 2 * m + 3);
		r[0] = '\\';
		r[1] = 'x';
		for (size_t i = 0; i < m; i++) {
			r[2 + 2 * i] = hx[p[i] >> 4];
			r[3 + 2 * i] = hx[p[i] & 15];
		}
		r[2 + 2 * m] = '\0';
		if (len)
			*len = 2 * m + 2;
		return r;
	}
	case TYPE_DATE:
		n = datetime_format_date((int32_t)v->u.i, buf);
		break;
	case TYPE_TIME:
		n = datetime_format_time(v->u.i, buf);
		break;
	case TYPE_TIMESTAMP:
		n = datetime_format_timestamp(v->u.i, buf);
		break;
	case TYPE_TIMESTAMPTZ:
		n = datetime_format_timestamptz(v->u.i, buf);
		break;
	case TYPE_INTERVAL:
		n = datetime_format_interval(v->u.iv, buf);
		break;
	case TYPE_UUID: {
		static const char hx[] = "0123456789abcdef";
		for (int i = 0; i < 16; i++) {
			if (i == 4 || i == 6 || i == 8 || i == 10)
				buf[n++] = '-';
			buf[n++] = hx[v->u.uuid.b[i] >> 4];
			buf[n++] = hx[v->u.uuid.b[i] & 15];
		}
		buf[n] = '\0';
		break;
	}
	case TYPE_ARRAY:
		return array_to_text(&v->u.s, v->type, a, len);
	case TYPE_NULL:
	case TYPE__COUNT:
		break;
	}
	return dup_out(a, buf, (size_t)n, len);
}

/* value_to_text under the default output settings (extra_float_digits 1,
 * DateStyle ISO, IntervalStyle postgres): text floe stores or reads back
 * (DEFAULT expressions, binary parameters), exact and unambiguous under
 * any session's settings. */
const char *
value_to_text_canonical(const Value *v, Arena *a, size_t *len)
{
	int efd = extra_digits;
	DatetimeStyle st = datetime_current_style(), iso = { 0, 0, 0 };
	const char *r;

	extra_digits = 1;
	datetime_use_style(iso);
	r = value_to_text(v, a, len);
	extra_digits = efd;
	datetime_use_style(st);
	return r;
}

const char *
vector_value_text(const Vector *v, uint32_t row, Arena *a, size_t *len)
{
	Value val;
	vector_get_value(v, row, &val);
	return value_to_text(&val, a, len);
}

/* ------------------------------------------------------------------ */
/* Input                                                               */
/* ------------------------------------------------------------------ */

static void
set_string(Value *out, const char *p, size_t n, Arena *a)
{
	const char *q = p;
	if (n > STRVIEW_INLINE)
		q = arena_memdup(a, p, n);
	out->u.s = strview_make(q, (uint32_t)n);
}

int
value_from_text(Value *out, SqlType t, const char *s, size_t n, Arena *a, floe_error *err)
{
	memset(out, 0, sizeof *out);
	out->type = t;
	switch (t.id) {
	case TYPE_NULL:
		out->is_null = true;
		return FLOE_OK;
	case TYPE_BOOL:
		return text_parse_bool(s, n, &out->u.b, err);
	case TYPE_INT16:
	case TYPE_INT32:
	case TYPE_INT64:
		return text_parse_int64(s, n, t.id, &out->u.i, err);
	case TYPE_FLOAT32:
	case TYPE_FLOAT64:
		return text_parse_float8(s, n, t.id, &out->u.f, err);
	case TYPE_DECIMAL: {
		int128 v;
		int sc;
		if (t.precision == 0) {
			TRY(decimal_from_text(s, n, &v, &sc, err));
			out->type.scale = (uint8_t)sc;
			out->u.d = v;
			return FLOE_OK;
		}
		if (decimal_from_text(s, n, &v, &sc, err) != FLOE_OK &&
		    !floe_error_is(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE))
			return FLOE_ERR;   /* syntax */
		if (decimal__from_text_scale(s, n, t.scale, &v, err) != FLOE_OK ||
		    decimal_check_precision(v, t.precision, err) != FLOE_OK) {
			floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow");
			if (t.precision - t.scale != 0)
				return floe_error_detail(err,
					"A field with precision %d, scale %d must round to an absolute value less than 10^%d.",
					t.precision, t.scale, t.precision - t.scale);
			return floe_error_detail(err,
				"A field with precision %d, scale %d must round to an absolute value less than 1.",
				t.precision, t.scale);
		}
		out->u.d = v;
		return FLOE_OK;
	}
	case TYPE_TEXT: {
		const char *p;
		size_t m;
		TRY(text_validate_utf8(s, n, err));
		TRY(text__fit_char(t, s, n, false, a, &p, &m, err));
		set_string(out, p, m, a);
		return FLOE_OK;
	}
	case TYPE_BYTEA: {
		const char *p;
		size_t m;
		TRY(text_parse_bytea(s, n, a, &p, &m, err));
		out->u.s = strview_make(p, (uint32_t)m);
		return FLOE_OK;
	}
	case TYPE_DATE: {
		int32_t d;
		TRY(datetime_parse_date(s, n, &d, err));
		out->u.i = d;
		return FLOE_OK;
	}
	case TYPE_TIME:
		return datetime_parse_time(s, n, &out->u.i, err);
	case TYPE_TIMESTAMP:
		return datetime_parse_timestamp(s, n, &out->u.i, err);
	case TYPE_TIMESTAMPTZ:
		return datetime_parse_timestamptz(s, n, &out->u.i, err);
	case TYPE_INTERVAL:
		return datetime_parse_interval(s, n, &out->u.iv, err);
	case TYPE_UUID:
		return text_parse_uuid(s, n, &out->u.uuid, err);
	case TYPE_ARRAY:
		TRY(text_validate_utf8(s, n, err));
		return array_from_text(s, n, t, a, &out->u.s, err);
	case TYPE__COUNT:
		break;
	}
	return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "unknown type %d", (int)t.id);
}
