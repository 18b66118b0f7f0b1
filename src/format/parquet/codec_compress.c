/*
 * codec_compress.c — Parquet page compression, writer side
 * (apache/parquet-format Compression.md).
 *
 *   UNCOMPRESSED  copy
 *   SNAPPY        raw snappy block (libsnappy's C API)
 *   GZIP          RFC 1952 gzip member (zlib, windowBits 15+16)
 *   BROTLI        raw brotli stream
 *   ZSTD          one zstd frame (a per-thread reused ZSTD_CCtx)
 *   LZ4_RAW       one raw LZ4 block
 * LZO and the deprecated Hadoop-framed LZ4 are refused with 0A000.
 *
 * INTERFACE ROUTINES
 *   parquet_compress(codec, src, n, &dst, &dst_len, arena, err)   codec.h
 *   codec_compress_append(codec, level, src, n, out, err)         parquet_write_int.h
 *
 * Invariant: the output buffer is reserved to the codec's worst-case bound
 * before compressing, so a library never writes past it.
 */
#include <brotli/encode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <pthread.h>
#include "format/parquet/codec.h"
#include "format/parquet/parquet_format.h"
#include "format/parquet/parquet_write_int.h"

/*
 * One zstd compression context per thread, reused from call to call and
 * freed when the thread exits (a pthread key destructor: connection
 * threads of the server come and go).
 */
static __thread ZSTD_CCtx *zctx;
static pthread_key_t zctx_key;
static pthread_once_t zctx_once = PTHREAD_ONCE_INIT;

static void
zctx_free(void *p)
{
	ZSTD_freeCCtx(p);
}

static void
zctx_key_init(void)
{
	pthread_key_create(&zctx_key, zctx_free);
}

static ZSTD_CCtx *
zctx_get(void)
{
	if (!zctx) {
		zctx = ZSTD_createCCtx();
		pthread_once(&zctx_once, zctx_key_init);
		pthread_setspecific(zctx_key, zctx);
	}
	return zctx;
}

static int
fail(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_SYSTEM_ERROR, "parquet: %s compression failed", what);
}

int
codec_compress_append(int codec, int level, const uint8_t *src, size_t n,
		      PqBuf *out, floe_error *err)
{
	uint8_t *dst;

	switch (codec) {
	case PQ_CODEC_UNCOMPRESSED:
		pqbuf_put(out, src, n);
		return FLOE_OK;
	case PQ_CODEC_ZSTD: {
		size_t bound = ZSTD_compressBound(n), r;
		pqbuf_reserve(out, bound);
		dst = out->p + out->len;
		r = ZSTD_compressCCtx(zctx_get(), dst, bound, src, n, level > 0 ? level : 3);
		if (ZSTD_isError(r))
			return fail(err, "zstd");
		out->len += r;
		return FLOE_OK;
	}
	case PQ_CODEC_SNAPPY: {
		size_t cap = snappy_max_compressed_length(n);
		pqbuf_reserve(out, cap);
		if (snappy_compress((const char *)src, n, (char *)out->p + out->len, &cap) != SNAPPY_OK)
			return fail(err, "snappy");
		out->len += cap;
		return FLOE_OK;
	}
	case PQ_CODEC_LZ4_RAW: {
		int cap, r;
		if (n > (size_t)LZ4_MAX_INPUT_SIZE)
			return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "parquet: page too large for LZ4");
		cap = LZ4_compressBound((int)n);
		pqbuf_reserve(out, (size_t)cap);
		r = LZ4_compress_default((const char *)src, (char *)out->p + out->len, (int)n, cap);
		if (r <= 0)
			return fail(err, "lz4");
		out->len += (size_t)r;
		return FLOE_OK;
	}
	case PQ_CODEC_GZIP: {
		z_stream zs;
		uLong bound;
		memset(&zs, 0, sizeof zs);
		if (deflateInit2(&zs, level > 0 && level <= 9 ? level : 6, Z_DEFLATED,
				 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			return fail(err, "gzip");
		bound = deflateBound(&zs, (uLong)n) + 32;
		pqbuf_reserve(out, bound);
		zs.next_in = (Bytef *)src;
		zs.avail_in = (uInt)n;
		zs.next_out = out->p + out->len;
		zs.avail_out = (uInt)bound;
		if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
			deflateEnd(&zs);
			return fail(err, "gzip");
		}
		out->len += zs.total_out;
		deflateEnd(&zs);
		return FLOE_OK;
	}
	case PQ_CODEC_BROTLI: {
		size_t cap = BrotliEncoderMaxCompressedSize(n);
		if (cap == 0)
			cap = n + (n >> 2) + 1024;
		pqbuf_reserve(out, cap);
		if (!BrotliEncoderCompress(level > 0 && level <= 11 ? level : 4, BROTLI_DEFAULT_WINDOW,
					   BROTLI_MODE_GENERIC, n, src, &cap, out->p + out->len))
			return fail(err, "brotli");
		out->len += cap;
		return FLOE_OK;
	}
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "parquet: writing compression codec %d is not supported", codec);
	}
}

int
parquet_compress(int codec, const uint8_t *src, size_t n, uint8_t **dst,
		 size_t *dst_len, Arena *arena, floe_error *err)
{
	PqBuf b = {0};

	if (codec_compress_append(codec, 0, src, n, &b, err) != FLOE_OK) {
		pqbuf_free(&b);
		return FLOE_ERR;
	}
	*dst = arena_memdup(arena, b.p ? b.p : (const uint8_t *)"", b.len);
	*dst_len = b.len;
	pqbuf_free(&b);
	return FLOE_OK;
}
