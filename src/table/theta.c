/*
 * theta.c — Theta sketches (KMV) in DataSketches' compact serialization;
 * see theta.h for the format and the estimator.
 *
 * MurmurHash3_x64_128 (Austin Appleby's public-domain algorithm): 16-byte
 * blocks mixed into two 64-bit lanes, the tail, the length, fmix64 on
 * each lane.  DataSketches seeds both lanes with the seed.
 *
 * The builder keeps a buffer of up to 2k candidate hashes below theta;
 * when it fills, it is sorted and deduplicated, and if more than k remain
 * theta becomes the (k+1)-th smallest and the buffer keeps the k below it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/hash.h"
#include "table/theta.h"
#include "types/strview.h"

/* ---- MurmurHash3_x64_128 -------------------------------------------------- */

static inline uint64_t
rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t
le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;
	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t
murmur3_h1(const uint8_t *p, size_t len, uint64_t seed)
{
	const uint64_t c1 = 0x87c37b91114253d5ULL, c2 = 0x4cf5ad432745937fULL;
	uint64_t h1 = seed, h2 = seed, k1, k2;
	size_t nblocks = len / 16, i, rem;
	const uint8_t *tail;

	for (i = 0; i < nblocks; i++) {
		k1 = le64(p + 16 * i);
		k2 = le64(p + 16 * i + 8);
		k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1;
		h1 = rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
		k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2;
		h2 = rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
	}
	tail = p + 16 * nblocks;
	rem = len & 15;
	k1 = k2 = 0;
	for (i = rem; i > 8; i--)
		k2 = k2 << 8 | tail[i - 1];
	for (i = rem < 8 ? rem : 8; i > 0; i--)
		k1 = k1 << 8 | tail[i - 1];
	if (rem > 8) {
		k2 *= c2; k2 = rotl(k2, 33); k2 *= c1; h2 ^= k2;
	}
	if (rem > 0) {
		k1 *= c1; k1 = rotl(k1, 31); k1 *= c2; h1 ^= k1;
	}
	h1 ^= (uint64_t)len;
	h2 ^= (uint64_t)len;
	h1 += h2;
	h2 += h1;
	h1 = hash_mix64(h1);   /* MurmurHash3's fmix64 */
	h2 = hash_mix64(h2);
	h1 += h2;
	return h1;
}

uint64_t
theta_hash(const void *data, size_t len)
{
	return murmur3_h1(data, len, THETA_SEED) >> 1;
}

/* ---- the builder ---------------------------------------------------------- */

void
theta_init(ThetaSketch *s, int lg_k, Arena *a)
{
	memset(s, 0, sizeof *s);
	s->a = a;
	s->k = 1 << lg_k;
	s->theta = THETA_MAX;
	s->empty = true;
	s->cap = 2 * s->k;
	s->buf = ARENA_ARRAY(a, uint64_t, (size_t)s->cap);
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

void
theta_finish(ThetaSketch *s)
{
	int i, m = 0;

	qsort(s->buf, (size_t)s->n, sizeof(uint64_t), cmp_u64);
	for (i = 0; i < s->n; i++)
		if (m == 0 || s->buf[m - 1] != s->buf[i])
			s->buf[m++] = s->buf[i];
	if (m > s->k) {
		s->theta = s->buf[s->k];
		m = s->k;
	}
	s->n = m;
}

void
theta_update_hash(ThetaSketch *s, uint64_t h)
{
	s->empty = false;
	if (h == 0 || h >= s->theta)
		return;
	if (s->n == s->cap)
		theta_finish(s);
	if (h >= s->theta)
		return;
	s->buf[s->n++] = h;
}

void
theta_update(ThetaSketch *s, const void *data, size_t len)
{
	theta_update_hash(s, theta_hash(data, len));
}

double
theta_estimate(const ThetaSketch *s)
{
	if (s->theta == THETA_MAX)
		return (double)s->n;
	return (double)s->n / ((double)s->theta / 9223372036854775808.0);
}

double
theta_rse(const ThetaSketch *s)
{
	return s->theta == THETA_MAX ? 0 : 1.0 / sqrt((double)(s->k > 1 ? s->k - 1 : 1));
}

/* ---- serialization -------------------------------------------------------- */

static void
put_le(uint8_t *p, uint64_t v, int n)
{
	int i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void
theta_serialize(ThetaSketch *s, Arena *a, uint8_t **data, size_t *len)
{
	bool estimating = s->theta < THETA_MAX;
	int pre, i;
	uint8_t flags = 2 | 8 | 16, *p;         /* read-only, compact, ordered */
	float one = 1.0f;
	uint32_t onebits;

	theta_finish(s);
	if (s->n == 0 && !estimating) {
		pre = 1;
		flags |= 4;                     /* empty */
	} else if (s->n == 1 && !estimating) {
		pre = 1;
		flags |= 32;                    /* single item */
	} else {
		pre = estimating ? 3 : 2;
	}
	*len = (size_t)pre * 8 + (size_t)s->n * 8;
	p = arena_calloc(a, *len);
	p[0] = (uint8_t)pre;
	p[1] = 3;
	p[2] = 3;
	p[5] = flags;
	put_le(p + 6, THETA_SEED_HASH, 2);
	if (pre >= 2) {
		put_le(p + 8, (uint64_t)s->n, 4);
		memcpy(&onebits, &one, 4);
		put_le(p + 12, onebits, 4);
	}
	if (pre == 3)
		put_le(p + 16, s->theta, 8);
	for (i = 0; i < s->n; i++)
		put_le(p + (size_t)pre * 8 + (size_t)i * 8, s->buf[i], 8);
	*data = p;
}

int
theta_deserialize(const uint8_t *d, size_t len, const char *name, Arena *a, ThetaSketch *out,
		  floe_error *err)
{
	int pre, ver, fam, flags, i;
	uint64_t n = 0, theta = THETA_MAX;

	memset(out, 0, sizeof *out);
	out->a = a;
	out->k = 1 << THETA_DEFAULT_LG_K;
	if (len < 8)
		return FLOE_CORRUPT(err, "theta sketch in \"%s\": %zu bytes, shorter than its preamble",
				    name, len);
	pre = d[0] & 0x3f;
	ver = d[1];
	fam = d[2];
	flags = d[5];
	if (ver != 3)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "theta sketch in \"%s\": serial version %d is not supported (only 3)",
				   name, ver);
	if (fam != 3)
		return FLOE_CORRUPT(err, "theta sketch in \"%s\": family %d is not a compact sketch",
				    name, fam);
	if (flags & 1)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "theta sketch in \"%s\": big-endian sketches are not supported", name);
	if ((d[6] | d[7] << 8) != THETA_SEED_HASH && !(flags & 4))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "theta sketch in \"%s\": seed hash 0x%04x is not the default seed's 0x%04x",
				   name, d[6] | d[7] << 8, THETA_SEED_HASH);
	if (pre < 1 || pre > 3)
		return FLOE_CORRUPT(err, "theta sketch in \"%s\": %d preamble longs", name, pre);
	if ((size_t)pre * 8 > len)
		return FLOE_CORRUPT(err, "theta sketch in \"%s\": truncated preamble", name);
	if (pre == 1) {
		if (flags & 32)
			n = 1;
		else if (!(flags & 4) || len > 8)
			return FLOE_CORRUPT(err, "theta sketch in \"%s\": one preamble long but neither empty nor single-item",
					    name);
	} else {
		n = (uint64_t)d[8] | (uint64_t)d[9] << 8 | (uint64_t)d[10] << 16 |
		    (uint64_t)d[11] << 24;
		if (pre == 3)
			theta = le64(d + 16);
	}
	if (theta == 0 || theta > THETA_MAX)
		return FLOE_CORRUPT(err, "theta sketch in \"%s\": theta %llu out of range", name,
				    (unsigned long long)theta);
	if (n > (len - (size_t)pre * 8) / 8 || (len - (size_t)pre * 8) != n * 8)
		return FLOE_CORRUPT(err, "theta sketch in \"%s\": %llu entries do not fit its %zu bytes",
				    name, (unsigned long long)n, len);
	out->theta = theta;
	out->empty = (flags & 4) != 0;
	out->n = out->cap = (int)n;
	out->buf = ARENA_ARRAY(a, uint64_t, n + 1);
	for (i = 0; i < (int)n; i++) {
		out->buf[i] = le64(d + (size_t)pre * 8 + (size_t)i * 8);
		if (out->buf[i] == 0 || out->buf[i] >= theta)
			return FLOE_CORRUPT(err, "theta sketch in \"%s\": entry %d not below theta", name,
					    i);
	}
	return FLOE_OK;
}

/* ---- Appendix D bytes ------------------------------------------------------ */

bool
theta_value_bytes(SqlType t, const void *data, uint32_t k, uint8_t *buf, const uint8_t **out,
		  size_t *len)
{
	*out = buf;
	switch (t.id) {
	case TYPE_BOOL:
		buf[0] = ((const uint8_t *)data)[k] ? 1 : 0;
		*len = 1;
		return true;
	case TYPE_INT16:
		put_le(buf, (uint64_t)(int64_t)((const int16_t *)data)[k], 4);
		*len = 4;
		return true;
	case TYPE_INT32: case TYPE_DATE:
		put_le(buf, (uint64_t)(uint32_t)((const int32_t *)data)[k], 4);
		*len = 4;
		return true;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		put_le(buf, (uint64_t)((const int64_t *)data)[k], 8);
		*len = 8;
		return true;
	case TYPE_FLOAT32: {
		uint32_t u;
		memcpy(&u, (const float *)data + k, 4);
		put_le(buf, u, 4);
		*len = 4;
		return true;
	}
	case TYPE_FLOAT64: {
		uint64_t u;
		memcpy(&u, (const double *)data + k, 8);
		put_le(buf, u, 8);
		*len = 8;
		return true;
	}
	case TYPE_DECIMAL: {
		/* the unscaled value, minimal big-endian two's complement */
		int128 x;
		uint8_t be[16];
		int i, start = 0;
		memcpy(&x, (const int128 *)data + k, sizeof x);
		for (i = 0; i < 16; i++)
			be[15 - i] = (uint8_t)((uint128)x >> (8 * i));
		while (start < 15 && ((be[start] == 0x00 && !(be[start + 1] & 0x80)) ||
				      (be[start] == 0xff && (be[start + 1] & 0x80))))
			start++;
		memcpy(buf, be + start, (size_t)(16 - start));
		*len = (size_t)(16 - start);
		return true;
	}
	case TYPE_TEXT: case TYPE_BYTEA: {
		const strview *s = (const strview *)data + k;
		*out = (const uint8_t *)strview_data(s);
		*len = s->len;
		return true;
	}
	case TYPE_UUID:
		memcpy(buf, (const Uuid *)data + k, 16);
		*len = 16;
		return true;
	default:
		return false;
	}
}

bool
theta_type_ok(SqlType t)
{
	switch (t.id) {
	case TYPE_BOOL: case TYPE_INT16: case TYPE_INT32: case TYPE_DATE: case TYPE_INT64:
	case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: case TYPE_FLOAT32:
	case TYPE_FLOAT64: case TYPE_DECIMAL: case TYPE_TEXT: case TYPE_BYTEA: case TYPE_UUID:
		return true;
	default:
		return false;
	}
}
