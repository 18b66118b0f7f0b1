/*
 * codec.h — Parquet page compression codecs (apache/parquet-format
 * Compression.md), shared by the reader and the writer.
 *
 *   parquet_decompress  lives in codec_decompress.c (reader side)
 *   parquet_compress    lives in codec_compress.c (writer side; declared by
 *                       the writer engineer below)
 *
 * codec is an enum ParquetCodec value (parquet_format.h).  The caller gives
 * the output buffer and its capacity (the page header's uncompressed size);
 * the decompressor never writes past dst_cap.
 */
#ifndef FLOE_PARQUET_CODEC_H
#define FLOE_PARQUET_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "common/error.h"

/*
 * Decompress n bytes at src into dst (capacity dst_cap).  Returns FLOE_OK only
 * when exactly dst_cap bytes were produced; otherwise XX001 (corrupt data) or
 * 0A000 (unsupported codec, e.g. LZO).  LZ4 accepts the Hadoop framing and
 * falls back to a raw LZ4 block; GZIP accepts gzip and zlib headers.
 */
int parquet_decompress(int codec, const uint8_t *src, size_t n, uint8_t *dst,
		       size_t dst_cap, floe_error *err);

/*
 * parquet_compress (codec_compress.c, writer side): compress n bytes at src
 * with codec (UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD at level 3, LZ4_RAW)
 * into a new buffer from arena (*dst, *dst_len).  0A000 for LZO and the
 * Hadoop-framed LZ4, 58000 if the library fails.
 */
struct Arena;
int parquet_compress(int codec, const uint8_t *src, size_t n, uint8_t **dst,
		     size_t *dst_len, struct Arena *arena, floe_error *err);

#endif
