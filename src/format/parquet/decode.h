/*
 * decode.h — streaming decoders for Parquet encodings (apache/parquet-format
 * Encodings.md), private to format/parquet.  Each decoder works on a byte
 * range it never reads beyond and returns FLOE_ERR (without touching any
 * error struct: the caller reports XX001 naming the file) when the data is
 * exhausted or malformed.
 *
 *   RleDec   RLE / bit-packed hybrid (levels, dictionary indexes, booleans)
 *   DbpDec   DELTA_BINARY_PACKED (ints; lengths of the delta byte arrays)
 */
#ifndef FLOE_PARQUET_DECODE_H
#define FLOE_PARQUET_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types/types.h"

typedef struct RleDec {
	const uint8_t *p, *end;
	int bw;                 /* bit width, 0..32 */
	uint32_t rle_left;      /* values left in the current RLE run */
	uint32_t rle_val;
	uint32_t bp_left;       /* values left in the current bit-packed run */
	uint32_t buf[8];        /* an unpacked group, partly consumed */
	uint32_t buf_pos, buf_n;
} RleDec;

void rle_init(RleDec *d, const uint8_t *p, size_t n, int bw);
/* Decode exactly n values into out; FLOE_ERR if the stream runs out. */
int rle_get(RleDec *d, uint32_t *out, uint32_t n);
/* If the next n values are one RLE run, consume them, set *val, return true. */
bool rle_take_run(RleDec *d, uint32_t n, uint32_t *val);
/* Skip n values. */
int rle_skip(RleDec *d, uint32_t n);

typedef struct DbpDec {
	const uint8_t *p, *end;
	uint32_t block_size, nmini, per_mini;
	uint64_t left;          /* values not yet returned */
	uint64_t last;          /* previous value (wrapping arithmetic) */
	bool first;             /* the first value (header) not yet returned */
	uint64_t min_delta;
	const uint8_t *bws;     /* bit widths of the current block */
	uint32_t mini;          /* current miniblock index in the block */
	uint32_t mini_left;     /* values left in the current miniblock */
	int bw;
	const uint8_t *mp;      /* next group of 8 packed values */
	uint64_t grp[8];        /* unpacked deltas of the current group */
	uint32_t grp_pos;       /* 8 = empty */
} DbpDec;

/* Parse the header; FLOE_ERR if malformed. */
int dbp_init(DbpDec *d, const uint8_t *p, size_t n);
uint64_t dbp_count(const DbpDec *d);
int dbp_get64(DbpDec *d, int64_t *out, uint32_t n);
int dbp_get32(DbpDec *d, int32_t *out, uint32_t n);
/* Find where an encoded section (header at p) ends without decoding it. */
const uint8_t *dbp_section_end(const uint8_t *p, size_t n);

/*
 * Physical-to-floe conversions (decode_plain.c).  Values are first decoded
 * into their physical layout (BOOLEAN uint8, INT32 int32, INT64 int64, INT96
 * 12 bytes, FLOAT float, DOUBLE double, BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY
 * strview), then converted in one tight loop per conversion kind.
 */
typedef enum PqConv {
	CV_NONE = 0,            /* physical layout is the floe layout */
	CV_I32_I16,             /* INT(8|16) -> int16 */
	CV_U32_I64,             /* UINT_32 -> int64 (zero-extended) */
	CV_I32_MS_US,           /* TIME_MILLIS int32 -> int64 micros */
	CV_I32_DEC,             /* DECIMAL on INT32 -> int128 */
	CV_I64_DEC,             /* DECIMAL on INT64 -> int128 */
	CV_U64_DEC,             /* UINT_64 -> int128 */
	CV_I64_MS_US,           /* millis -> micros */
	CV_I64_NS_US,           /* nanos -> micros, floor */
	CV_INT96_TS,            /* INT96 Julian day + nanos -> micros */
	CV_BYTES_DEC,           /* big-endian two's complement bytes -> int128 */
	CV_BYTES_UUID,          /* FIXED_LEN_BYTE_ARRAY(16) -> Uuid */
	CV_F16                  /* FIXED_LEN_BYTE_ARRAY(2) half -> float */
} PqConv;

/* Convert n values; FLOE_ERR (no message) on a value that cannot convert
 * (decimal wider than 16 significant bytes, wrong UUID/FLOAT16 length,
 * timestamp overflow). */
int pq_convert(PqConv conv, const void *src, void *dst, uint32_t n);
/* Bytes per value in the physical layout. */
size_t pq_phys_width(int physical_type);
/* Copy dictionary entries idx[0..n) (all < dict size) of width w. */
void pq_gather(void *dst, const void *dict, const uint32_t *idx, uint32_t n, size_t w);
/* Spread nn dense values at dst[0..nn) over the k rows whose level equals
 * maxdef, back to front; NULL rows are zeroed. */
void pq_scatter(void *dst, size_t w, const uint32_t *levels, uint32_t k, uint32_t maxdef);
/* n FIXED_LEN_BYTE_ARRAY(L) decimals, packed at p, into int128 (the PLAIN
 * fast path; no strviews). */
int pq_flba_decimal(const uint8_t *p, uint32_t L, int128 *out, uint32_t n);
/* Decode a big-endian two's complement integer of len bytes. */
int pq_be_int128(const uint8_t *p, uint32_t len, int128 *out);

/* ULEB128 varint; FLOE_ERR if truncated or longer than 64 bits. */
int uleb(const uint8_t **p, const uint8_t *end, uint64_t *out);

#endif
