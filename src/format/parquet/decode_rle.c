/*
 * decode_rle.c — the RLE / bit-packed hybrid decoder.
 *
 * Spec: apache/parquet-format Encodings.md, "Run Length Encoding / Bit-Packing
 * Hybrid (RLE = 3)":  runs of  varint(n << 1) value[ceil(bw/8) bytes LE]  or
 * varint(groups << 1 | 1) then groups * bw bytes, 8 values per group packed
 * LSB first.  Used for definition/repetition levels, dictionary indexes and
 * RLE booleans.
 *
 * INTERFACE ROUTINES (decode.h)
 *   rle_init, rle_get, rle_take_run, rle_skip
 *
 * Invariants: never reads past d->end.  A bit-packed run longer than the
 * remaining bytes is truncated to the bytes present (some writers do not pad
 * the last group); asking for values beyond the data fails.  Every header
 * read consumes at least one byte, so decoding always progresses.
 */
#include <string.h>
#include "format/parquet/decode.h"

int
uleb(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (p >= end)
			return -1;
		uint8_t b = *p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*pp = p;
			*out = v;
			return 0;
		}
	}
	return -1;
}

void
rle_init(RleDec *d, const uint8_t *p, size_t n, int bw)
{
	memset(d, 0, sizeof *d);
	d->p = p;
	d->end = p + n;
	d->bw = bw;
}

/* 8 values of a constant bit width from at least bw + 8 readable bytes:
 * inlined per width below, so shifts and masks are constants. */
static inline __attribute__((always_inline)) void
unpack8_const(const uint8_t *s, int bw, uint32_t *out)
{
	uint64_t mask = bw == 32 ? 0xffffffffu : ((uint64_t)1 << bw) - 1;
	for (int i = 0; i < 8; i++) {
		unsigned bit = (unsigned)(i * bw);
		uint64_t w;
		memcpy(&w, s + (bit >> 3), 8);
		out[i] = (uint32_t)((w >> (bit & 7)) & mask);
	}
}

/* Unpack 8 values of bw bits (<= 32) from src (at least bw bytes readable;
 * fewer when avail < bw: missing bytes read as zero). */
static inline void
unpack8(const uint8_t *src, size_t avail, int bw, uint32_t *out)
{
	uint8_t tmp[48];
	const uint8_t *s = src;

	if (bw == 0) {
		memset(out, 0, 8 * sizeof *out);
		return;
	}
	if (avail < (size_t)bw + 8) {
		memset(tmp, 0, sizeof tmp);
		memcpy(tmp, src, avail < (size_t)bw ? avail : (size_t)bw);
		s = tmp;
	}
	switch (bw) {
#define W(k) case k: unpack8_const(s, k, out); return;
	W(1) W(2) W(3) W(4) W(5) W(6) W(7) W(8) W(9) W(10) W(11) W(12) W(13) W(14) W(15) W(16)
	W(17) W(18) W(19) W(20) W(21) W(22) W(23) W(24) W(25) W(26) W(27) W(28) W(29) W(30)
	W(31) W(32)
#undef W
	default:
		memset(out, 0, 8 * sizeof *out);
	}
}

/* Read the next run header; FLOE_ERR at the end of the data. */
static int
next_run(RleDec *d)
{
	uint64_t h;
	if (uleb(&d->p, d->end, &h) != 0)
		return -1;
	if (h & 1) {
		uint64_t groups = h >> 1;
		uint64_t bytes = groups * (uint64_t)d->bw;
		uint64_t avail = (uint64_t)(d->end - d->p);
		if (groups > (UINT32_MAX / 8))
			return -1;
		if (bytes > avail) {
			/* Truncated last run: keep the values whose bits exist. */
			groups = d->bw ? (avail * 8 / (uint64_t)d->bw + 7) / 8 : groups;
		}
		d->bp_left = (uint32_t)(groups * 8);
		d->buf_pos = d->buf_n = 0;
		if (bytes > avail && d->bw)
			d->bp_left = (uint32_t)(avail * 8 / (uint64_t)d->bw);
	} else {
		uint64_t n = h >> 1;
		if (n > UINT32_MAX)
			return -1;
		int nb = (d->bw + 7) / 8;
		if (d->end - d->p < nb)
			return -1;
		uint32_t v = 0;
		for (int i = 0; i < nb; i++)
			v |= (uint32_t)d->p[i] << (8 * i);
		d->p += nb;
		d->rle_left = (uint32_t)n;
		d->rle_val = v;
	}
	return 0;
}

int
rle_get(RleDec *d, uint32_t *out, uint32_t n)
{
	while (n > 0) {
		if (d->rle_left) {
			uint32_t k = n < d->rle_left ? n : d->rle_left;
			uint32_t v = d->rle_val;
			for (uint32_t i = 0; i < k; i++)
				out[i] = v;
			out += k;
			n -= k;
			d->rle_left -= k;
			continue;
		}
		if (d->bp_left) {
			if (d->buf_pos < d->buf_n) {
				uint32_t k = d->buf_n - d->buf_pos;
				if (k > n)
					k = n;
				if (k > d->bp_left)
					k = d->bp_left;
				memcpy(out, d->buf + d->buf_pos, k * sizeof *out);
				d->buf_pos += k;
				d->bp_left -= k;
				out += k;
				n -= k;
				continue;
			}
			/* Whole groups straight into out. */
			while (n >= 8 && d->bp_left >= 8) {
				size_t avail = (size_t)(d->end - d->p);
				unpack8(d->p, avail, d->bw, out);
				d->p += (size_t)d->bw < avail ? (size_t)d->bw : avail;
				out += 8;
				n -= 8;
				d->bp_left -= 8;
			}
			if (n > 0 && d->bp_left > 0) {
				size_t avail = (size_t)(d->end - d->p);
				unpack8(d->p, avail, d->bw, d->buf);
				d->p += (size_t)d->bw < avail ? (size_t)d->bw : avail;
				d->buf_pos = 0;
				d->buf_n = 8;
			}
			continue;
		}
		if (next_run(d) != 0)
			return -1;
	}
	return 0;
}

bool
rle_take_run(RleDec *d, uint32_t n, uint32_t *val)
{
	if (!d->rle_left && !d->bp_left && d->p < d->end) {
		if (next_run(d) != 0)
			return false;
	}
	if (d->rle_left >= n) {
		d->rle_left -= n;
		*val = d->rle_val;
		return true;
	}
	return false;
}

int
rle_skip(RleDec *d, uint32_t n)
{
	uint32_t tmp[256];
	while (n > 0) {
		if (d->rle_left) {
			uint32_t k = n < d->rle_left ? n : d->rle_left;
			d->rle_left -= k;
			n -= k;
			continue;
		}
		uint32_t k = n < 256 ? n : 256;
		if (rle_get(d, tmp, k) != 0)
			return -1;
		n -= k;
	}
	return 0;
}
