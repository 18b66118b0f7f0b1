/*
 * codec_decompress.c — page decompression for the Parquet reader.
 *
 * Spec: apache/parquet-format Compression.md.  Codecs: UNCOMPRESSED,
 * SNAPPY (libsnappy C API), GZIP (zlib; gzip or zlib header, auto-detected),
 * ZSTD, LZ4 (deprecated Hadoop framing: repeated [BE u32 decompressed size]
 * [BE u32 compressed size][raw LZ4 block], with fallback to one raw block,
 * as parquet-cpp does), LZ4_RAW (one raw LZ4 block), BROTLI.  LZO is not
 * supported (0A000).  ZSTD decompresses with a per-thread reused context.
 *
 * INTERFACE ROUTINES (codec.h)
 *   parquet_decompress(codec, src, n, dst, dst_cap, err)
 *
 * Invariants: the output is exactly dst_cap bytes (the page header's
 * uncompressed size) or the call fails with XX001; no library is ever asked
 * to write beyond dst_cap.
 */
#include <pthread.h>
#include <string.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <lz4.h>
#include <brotli/decode.h>
#include "format/parquet/codec.h"
#include "format/parquet/parquet_format.h"

/*
 * One zstd decompression context per thread, reused from page to page
 * (ZSTD_decompress would allocate and initialise one per call) and freed
 * when the thread exits.
 */
static __thread ZSTD_DCtx *dctx;
static pthread_key_t dctx_key;
static pthread_once_t dctx_once = PTHREAD_ONCE_INIT;

static void
dctx_free(void *p)
{
	ZSTD_freeDCtx(p);
}

static void
dctx_key_init(void)
{
	pthread_key_create(&dctx_key, dctx_free);
}

static ZSTD_DCtx *
dctx_get(void)
{
	if (!dctx) {
		dctx = ZSTD_createDCtx();
		pthread_once(&dctx_once, dctx_key_init);
		pthread_setspecific(dctx_key, dctx);
	}
	return dctx;
}

static int
bad(floe_error *err, const char *what)
{
	return FLOE_CORRUPT(err, "corrupt %s compressed page", what);
}

static int
gunzip(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, floe_error *err)
{
	z_stream z;
	int rc;
	size_t total = 0;

	memset(&z, 0, sizeof z);
	/* 15 + 32: zlib or gzip header, auto-detected. */
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return bad(err, "GZIP");
	z.next_in = (Bytef *)src;
	z.avail_in = (uInt)n;
	z.next_out = dst;
	z.avail_out = (uInt)cap;
	for (;;) {
		rc = inflate(&z, Z_FINISH);
		total = cap - z.avail_out;
		/* Concatenated gzip members: start the next one. */
		if (rc == Z_STREAM_END && z.avail_in > 0 && total < cap) {
			if (inflateReset(&z) != Z_OK)
				break;
			continue;
		}
		break;
	}
	inflateEnd(&z);
	if ((rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && z.avail_out == 0)) || total != cap)
		return bad(err, "GZIP");
	return FLOE_OK;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Hadoop-framed LZ4; returns FLOE_OK on success, FLOE_ERR (no error set) if
 * the input is not in that framing. */
static int
lz4_hadoop(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	size_t out = 0;

	while (n > 0) {
		if (n < 8)
			return FLOE_ERR;
		uint32_t dlen = be32(src), clen = be32(src + 4);
		src += 8;
		n -= 8;
		if (clen > n || dlen > cap - out)
			return FLOE_ERR;
		if (clen > INT32_MAX || dlen > INT32_MAX)
			return FLOE_ERR;
		int got = LZ4_decompress_safe((const char *)src, (char *)dst + out, (int)clen,
					      (int)dlen);
		if (got < 0 || (uint32_t)got != dlen)
			return FLOE_ERR;
		out += dlen;
		src += clen;
		n -= clen;
	}
	return out == cap ? FLOE_OK : FLOE_ERR;
}

static int
lz4_raw(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, floe_error *err)
{
	if (n > INT32_MAX || cap > INT32_MAX)
		return bad(err, "LZ4");
	int got = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)cap);
	if (got < 0 || (size_t)got != cap)
		return bad(err, "LZ4");
	return FLOE_OK;
}

int
parquet_decompress(int codec, const uint8_t *src, size_t n, uint8_t *dst, size_t dst_cap,
		   floe_error *err)
{
	switch (codec) {
	case PQ_CODEC_UNCOMPRESSED:
		if (n != dst_cap)
			return bad(err, "uncompressed");
		if (n)
			memcpy(dst, src, n);
		return FLOE_OK;
	case PQ_CODEC_SNAPPY: {
		size_t ulen;
		if (snappy_uncompressed_length((const char *)src, n, &ulen) != SNAPPY_OK ||
		    ulen != dst_cap)
			return bad(err, "SNAPPY");
		if (dst_cap == 0)
			return FLOE_OK;
		size_t outlen = dst_cap;
		if (snappy_uncompress((const char *)src, n, (char *)dst, &outlen) != SNAPPY_OK ||
		    outlen != dst_cap)
			return bad(err, "SNAPPY");
		return FLOE_OK;
	}
	case PQ_CODEC_GZIP:
		if (n == 0 && dst_cap == 0)
			return FLOE_OK;
		return gunzip(src, n, dst, dst_cap, err);
	case PQ_CODEC_ZSTD: {
		if (n == 0 && dst_cap == 0)
			return FLOE_OK;
		ZSTD_DCtx *z = dctx_get();
		size_t got = z ? ZSTD_decompressDCtx(z, dst, dst_cap, src, n)
			       : ZSTD_decompress(dst, dst_cap, src, n);
		if (ZSTD_isError(got) || got != dst_cap)
			return bad(err, "ZSTD");
		return FLOE_OK;
	}
	case PQ_CODEC_LZ4:
		if (n == 0 && dst_cap == 0)
			return FLOE_OK;
		if (lz4_hadoop(src, n, dst, dst_cap) == FLOE_OK)
			return FLOE_OK;
		return lz4_raw(src, n, dst, dst_cap, err);
	case PQ_CODEC_LZ4_RAW:
		if (n == 0 && dst_cap == 0)
			return FLOE_OK;
		return lz4_raw(src, n, dst, dst_cap, err);
	case PQ_CODEC_BROTLI: {
		if (n == 0 && dst_cap == 0)
			return FLOE_OK;
		size_t outlen = dst_cap;
		if (BrotliDecoderDecompress(n, src, &outlen, dst) != BROTLI_DECODER_RESULT_SUCCESS ||
		    outlen != dst_cap)
			return bad(err, "BROTLI");
		return FLOE_OK;
	}
	case PQ_CODEC_LZO:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet compression codec LZO is not supported");
	default:
		return FLOE_CORRUPT(err, "unknown Parquet compression codec %d", codec);
	}
}
