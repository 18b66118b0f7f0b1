/*
 * decode_plain.c — value conversions, dictionary gather and NULL scatter
 * for the Parquet reader: the tight loops between the physical layout a page
 * decodes to and the floe Vector layout (types.h).
 *
 * Spec: apache/parquet-format LogicalTypes.md (DECIMAL big-endian unscaled
 * bytes, TIME/TIMESTAMP units, FLOAT16 IEEE half, UUID 16 bytes big-endian,
 * INT96 legacy timestamps = 8 bytes LE nanoseconds of day + 4 bytes LE
 * Julian day).
 *
 * INTERFACE ROUTINES (decode.h)
 *   pq_convert, pq_phys_width, pq_gather, pq_scatter, pq_be_int128
 *
 * Invariants: one switch per call, never per value; no function pointers in
 * the loops.  Nothing here allocates.
 */
#include <math.h>
#include <string.h>
#include "format/parquet/decode.h"
#include "format/parquet/parquet_format.h"
#include "types/strview.h"
#include "types/types.h"

#define JULIAN_UNIX_EPOCH 2440588
#define US_PER_DAY INT64_C(86400000000)

size_t
pq_phys_width(int physical_type)
{
	switch (physical_type) {
	case PQ_BOOLEAN: return 1;
	case PQ_INT32: return 4;
	case PQ_INT64: return 8;
	case PQ_INT96: return 12;
	case PQ_FLOAT: return 4;
	case PQ_DOUBLE: return 8;
	default: return sizeof(strview);
	}
}

int
pq_be_int128(const uint8_t *p, uint32_t len, int128 *out)
{
	uint32_t skip = 0;
	/* More than 16 bytes: the extra leading bytes must be sign extension. */
	if (len > 16) {
		skip = len - 16;
		uint8_t sign = (p[skip] & 0x80) ? 0xff : 0x00;
		for (uint32_t i = 0; i < skip; i++)
			if (p[i] != sign)
				return -1;
	}
	if (len == 0) {
		*out = 0;
		return 0;
	}
	uint128 v = (p[skip] & 0x80) ? ~(uint128)0 : 0;
	for (uint32_t i = skip; i < len; i++)
		v = (v << 8) | p[i];
	*out = (int128)v;
	return 0;
}

static float
half_to_float(uint16_t h)
{
	int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
	float f;
	if (exp == 0)
		f = ldexpf((float)man, -24);
	else if (exp == 31)
		f = man ? NAN : INFINITY;
	else
		f = ldexpf((float)(man | 0x400), exp - 25);
	return sign ? -f : f;
}

int
pq_convert(PqConv conv, const void *src, void *dst, uint32_t n)
{
	uint32_t i;

	switch (conv) {
	case CV_NONE:
		return 0;       /* callers decode in place */
	case CV_I32_I16: {
		const int32_t *s = src;
		int16_t *d = dst;
		for (i = 0; i < n; i++)
			d[i] = (int16_t)s[i];
		return 0;
	}
	case CV_U32_I64: {
		const uint32_t *s = src;
		int64_t *d = dst;
		for (i = 0; i < n; i++)
			d[i] = (int64_t)s[i];
		return 0;
	}
	case CV_I32_MS_US: {
		const int32_t *s = src;
		int64_t *d = dst;
		for (i = 0; i < n; i++)
			d[i] = (int64_t)s[i] * 1000;
		return 0;
	}
	case CV_I32_DEC: {
		const int32_t *s = src;
		int128 *d = dst;
		for (i = 0; i < n; i++)
			d[i] = s[i];
		return 0;
	}
	case CV_I64_DEC: {
		const int64_t *s = src;
		int128 *d = dst;
		for (i = 0; i < n; i++)
			d[i] = s[i];
		return 0;
	}
	case CV_U64_DEC: {
		const uint64_t *s = src;
		int128 *d = dst;
		for (i = 0; i < n; i++)
			d[i] = (int128)s[i];
		return 0;
	}
	case CV_I64_MS_US: {
		const int64_t *s = src;
		int64_t *d = dst;
		int bad = 0;
		for (i = 0; i < n; i++)
			bad |= __builtin_mul_overflow(s[i], (int64_t)1000, &d[i]);
		return bad ? -1 : 0;
	}
	case CV_I64_NS_US: {
		const int64_t *s = src;
		int64_t *d = dst;
		for (i = 0; i < n; i++) {
			int64_t q = s[i] / 1000;
			d[i] = q - (s[i] % 1000 < 0);
		}
		return 0;
	}
	case CV_INT96_TS: {
		/* Wrapping arithmetic, as Spark computes it both ways: values
		 * beyond the int64-nanosecond range round-trip (int96_from_spark). */
		const uint8_t *s = src;
		int64_t *d = dst;
		for (i = 0; i < n; i++, s += 12) {
			int64_t ns;
			int32_t jd;
			memcpy(&ns, s, 8);
			memcpy(&jd, s + 8, 4);
			uint64_t v = (uint64_t)((int64_t)jd - JULIAN_UNIX_EPOCH) * (uint64_t)US_PER_DAY +
				     (uint64_t)(ns / 1000);
			d[i] = (int64_t)v;
		}
		return 0;
	}
	case CV_BYTES_DEC: {
		const strview *s = src;
		int128 *d = dst;
		/* dst may alias src (same 16-byte width): read before write. */
		for (i = 0; i < n; i++) {
			strview v = s[i];
			int128 x;
			if (pq_be_int128((const uint8_t *)strview_data(&v), v.len, &x) != 0)
				return -1;
			d[i] = x;
		}
		return 0;
	}
	case CV_BYTES_UUID: {
		const strview *s = src;
		Uuid *d = dst;
		for (i = 0; i < n; i++) {
			strview v = s[i];
			if (v.len != 16)
				return -1;
			memcpy(d[i].b, strview_data(&v), 16);
		}
		return 0;
	}
	case CV_F16: {
		const strview *s = src;
		float *d = dst;
		for (i = 0; i < n; i++) {
			const uint8_t *b = (const uint8_t *)strview_data(&s[i]);
			if (s[i].len != 2)
				return -1;
			d[i] = half_to_float((uint16_t)(b[0] | b[1] << 8));
		}
		return 0;
	}
	}
	return -1;
}

int
pq_flba_decimal(const uint8_t *p, uint32_t L, int128 *out, uint32_t n)
{
	uint32_t i;
	if (L == 0 || L > 16) {
		for (i = 0; i < n; i++, p += L)
			if (pq_be_int128(p, L, &out[i]) != 0)
				return -1;
		return 0;
	}
	if (L >= 8) {
		uint32_t h = L - 8;
		unsigned sh = 64 - 8 * h;
		for (i = 0; i < n; i++, p += L) {
			uint64_t lo, hi = 0;
			memcpy(&lo, p + h, 8);
			lo = __builtin_bswap64(lo);
			if (h == 0)
				hi = (lo >> 63) ? ~(uint64_t)0 : 0;
			else {
				for (uint32_t j = 0; j < h; j++)
					hi = hi << 8 | p[j];
				hi = (uint64_t)((int64_t)(hi << sh) >> sh);
			}
			out[i] = (int128)(((uint128)hi << 64) | lo);
		}
		return 0;
	}
	unsigned sh = 64 - 8 * L;
	/* while 8 bytes are readable from p (all but the last few values):
	 * one unaligned load, byte swap, arithmetic shift right */
	uint32_t fast = n > 8 / L + 1 ? n - (8 / L + 1) : 0;
	for (i = 0; i < fast; i++, p += L) {
		uint64_t v;
		memcpy(&v, p, 8);
		out[i] = (int64_t)__builtin_bswap64(v) >> sh;
	}
	for (; i < n; i++, p += L) {
		uint64_t v = 0;
		for (uint32_t j = 0; j < L; j++)
			v = v << 8 | p[j];
		out[i] = (int64_t)(v << sh) >> sh;
	}
	return 0;
}

#define GATHER(T)                                               \
	do {                                                    \
		T *d_ = dst;                                    \
		const T *s_ = dict;                             \
		for (uint32_t i = 0; i < n; i++)                \
			d_[i] = s_[idx[i]];                     \
	} while (0)

void
pq_gather(void *dst, const void *dict, const uint32_t *idx, uint32_t n, size_t w)
{
	switch (w) {
	case 1: GATHER(uint8_t); break;
	case 2: GATHER(uint16_t); break;
	case 4: GATHER(uint32_t); break;
	case 8: GATHER(uint64_t); break;
	case 16: GATHER(uint128); break;
	default:
		for (uint32_t i = 0; i < n; i++)
			memcpy((char *)dst + i * w, (const char *)dict + idx[i] * w, w);
	}
}

/* Back to front, branch-free: row i takes dense value j when valid. */
#define SCATTER(T)                                                      \
	do {                                                            \
		T *d_ = dst;                                            \
		int64_t j = (int64_t)nn - 1;                            \
		for (int64_t i = (int64_t)k - 1; i >= 0; i--) {         \
			bool ok = levels[i] == maxdef;                  \
			T x = d_[j >= 0 ? j : 0];                       \
			T z;                                            \
			memset(&z, 0, sizeof z);                        \
			d_[i] = ok ? x : z;                             \
			j -= ok;                                        \
		}                                                       \
	} while (0)

void
pq_scatter(void *dst, size_t w, const uint32_t *levels, uint32_t k, uint32_t maxdef)
{
	uint32_t nn = 0;
	for (uint32_t i = 0; i < k; i++)
		nn += levels[i] == maxdef;
	switch (w) {
	case 1: SCATTER(uint8_t); break;
	case 2: SCATTER(uint16_t); break;
	case 4: SCATTER(uint32_t); break;
	case 8: SCATTER(uint64_t); break;
	case 16: SCATTER(uint128); break;
	default: break;
	}
}
