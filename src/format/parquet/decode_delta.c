/*
 * decode_delta.c — DELTA_BINARY_PACKED decoding.
 *
 * Spec: apache/parquet-format Encodings.md, "Delta Encoding
 * (DELTA_BINARY_PACKED = 5)":
 *   header:  <block size> <miniblocks per block> <total count> <first value (zigzag)>
 *   block:   <min delta (zigzag)> <bit width of each miniblock: 1 byte each> <miniblocks>
 * Values are first + running sums of (min delta + packed delta), in wrapping
 * 64-bit arithmetic (the low 32 bits for INT32 columns).  The same decoder
 * gives the lengths of DELTA_LENGTH_BYTE_ARRAY and the prefix/suffix lengths
 * of DELTA_BYTE_ARRAY (reader.c).
 *
 * INTERFACE ROUTINES (decode.h)
 *   dbp_init, dbp_count, dbp_get64, dbp_get32, dbp_section_end
 *
 * Invariants: block size a positive multiple of 128, miniblock size a
 * multiple of 32, bit widths <= 64; no read past d->end; every loop step
 * consumes input or output, so corrupt data cannot hang.
 */
#include <string.h>
#include "format/parquet/decode.h"

static int
zigzag(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
	uint64_t u;
	if (uleb(p, end, &u) != 0)
		return -1;
	*out = (u >> 1) ^ (0 - (u & 1));
	return 0;
}

static int
header(const uint8_t **pp, const uint8_t *end, uint64_t *bs, uint64_t *nm, uint64_t *total,
       uint64_t *first)
{
	if (uleb(pp, end, bs) != 0 || uleb(pp, end, nm) != 0 || uleb(pp, end, total) != 0 ||
	    zigzag(pp, end, first) != 0)
		return -1;
	if (*bs == 0 || *bs % 128 != 0 || *bs > (1u << 24) || *nm == 0 || *bs % *nm != 0 ||
	    (*bs / *nm) % 32 != 0)
		return -1;
	return 0;
}

int
dbp_init(DbpDec *d, const uint8_t *p, size_t n)
{
	uint64_t bs, nm, total, first;
	memset(d, 0, sizeof *d);
	d->end = p + n;
	if (header(&p, d->end, &bs, &nm, &total, &first) != 0)
		return -1;
	d->p = p;
	d->block_size = (uint32_t)bs;
	d->nmini = (uint32_t)nm;
	d->per_mini = (uint32_t)(bs / nm);
	d->left = total;
	d->first = total > 0;
	d->last = first;
	d->mini = d->nmini;     /* no block loaded */
	d->grp_pos = 8;
	return 0;
}

uint64_t
dbp_count(const DbpDec *d)
{
	return d->left;
}

static void
unpack8_64(const uint8_t *src, int bw, uint64_t *out)
{
	uint8_t tmp[64 + 16];
	uint64_t mask = bw == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bw) - 1;

	if (bw == 0) {
		memset(out, 0, 8 * sizeof *out);
		return;
	}
	memset(tmp + bw, 0, 16);
	memcpy(tmp, src, (size_t)bw);
	for (int i = 0; i < 8; i++) {
		unsigned bit = (unsigned)(i * bw), sh = bit & 7;
		uint64_t lo, hi;
		memcpy(&lo, tmp + (bit >> 3), 8);
		lo >>= sh;
		if (sh && sh + (unsigned)bw > 64) {
			memcpy(&hi, tmp + (bit >> 3) + 8, 8);
			lo |= hi << (64 - sh);
		}
		out[i] = lo & mask;
	}
}

/* Load the next group of 8 deltas. */
static int
next_group(DbpDec *d)
{
	if (d->mini_left == 0) {
		if (++d->mini >= d->nmini) {
			/* A new block. */
			if (zigzag(&d->p, d->end, &d->min_delta) != 0)
				return -1;
			if ((size_t)(d->end - d->p) < d->nmini)
				return -1;
			d->bws = d->p;
			d->p += d->nmini;
			d->mini = 0;
		}
		d->bw = d->bws[d->mini];
		if (d->bw > 64)
			return -1;
		d->mini_left = d->per_mini;
		d->mp = d->p;
		uint64_t bytes = (uint64_t)d->per_mini * (uint64_t)d->bw / 8;
		uint64_t avail = (uint64_t)(d->end - d->p);
		d->p += bytes < avail ? bytes : avail;
	}
	if ((size_t)(d->end - d->mp) < (size_t)d->bw)
		return -1;
	unpack8_64(d->mp, d->bw, d->grp);
	d->mp += d->bw;
	d->mini_left -= 8;
	d->grp_pos = 0;
	return 0;
}

#define DBP_GET(T)                                                      \
	if ((uint64_t)n > d->left)                                      \
		return -1;                                              \
	while (n > 0) {                                                 \
		if (d->first) {                                         \
			*out++ = (T)d->last;                            \
			d->first = false;                               \
			d->left--;                                      \
			n--;                                            \
			continue;                                       \
		}                                                       \
		if (d->grp_pos == 8 && next_group(d) != 0)              \
			return -1;                                      \
		uint32_t k = 8 - d->grp_pos;                            \
		if (k > n)                                              \
			k = n;                                          \
		uint64_t last = d->last, md = d->min_delta;             \
		const uint64_t *g = d->grp + d->grp_pos;                \
		for (uint32_t i = 0; i < k; i++) {                      \
			last += md + g[i];                              \
			out[i] = (T)last;                               \
		}                                                       \
		d->last = last;                                         \
		d->grp_pos += k;                                        \
		d->left -= k;                                           \
		out += k;                                               \
		n -= k;                                                 \
	}                                                               \
	return 0;

int
dbp_get64(DbpDec *d, int64_t *out, uint32_t n)
{
	DBP_GET(int64_t)
}

int
dbp_get32(DbpDec *d, int32_t *out, uint32_t n)
{
	DBP_GET(int32_t)
}

const uint8_t *
dbp_section_end(const uint8_t *p, size_t n)
{
	const uint8_t *end = p + n;
	uint64_t bs, nm, total, first, md;

	if (header(&p, end, &bs, &nm, &total, &first) != 0)
		return NULL;
	uint64_t per_mini = bs / nm;
	uint64_t remaining = total ? total - 1 : 0;
	while (remaining > 0) {
		if (zigzag(&p, end, &md) != 0 || (uint64_t)(end - p) < nm)
			return NULL;
		const uint8_t *bws = p;
		p += nm;
		for (uint64_t m = 0; m < nm && remaining > 0; m++) {
			if (bws[m] > 64)
				return NULL;
			uint64_t bytes = per_mini * bws[m] / 8;
			if (bytes > (uint64_t)(end - p))
				return NULL;
			p += bytes;
			remaining -= remaining < per_mini ? remaining : per_mini;
		}
	}
	return p;
}
