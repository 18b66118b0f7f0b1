/*
 * inflate.c — whole-buffer decompression of loaded files: gzip (RFC 1952,
 * several members one after another as `cat a.gz b.gz` makes them) through
 * zlib, Zstandard frames (RFC 8878) through libzstd.
 *
 * INTERFACE ROUTINES (stage.h)
 *   stage_inflate(kind, in, n, &out, &outlen, name, err)
 *
 * The output is xmalloc'd (the caller frees it); a damaged stream is
 * 22P04 naming the file.  Output is limited to STAGE_MAX_INFLATED bytes
 * (54000 past it: a small bomb must not eat the memory).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "common/error.h"
#include "ingest/stage.h"

#define STAGE_MAX_INFLATED ((size_t)8 << 30)

static int
grow(char **out, size_t *cap, size_t need, const char *name, floe_error *err)
{
	if (need <= *cap)
		return FLOE_OK;
	if (need > STAGE_MAX_INFLATED)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "\"%s\" decompresses to more than %zu bytes", name, STAGE_MAX_INFLATED);
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 1 << 20;
	if (*cap > STAGE_MAX_INFLATED)
		*cap = STAGE_MAX_INFLATED;
	*out = xrealloc(*out, *cap);
	return FLOE_OK;
}

static int
gunzip(const uint8_t *in, size_t n, char **out, size_t *outlen, const char *name, floe_error *err)
{
	z_stream z;
	size_t cap = 0, len = 0;
	int zr = Z_OK;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
	*out = NULL;
	for (;;) {
		if (grow(out, &cap, len + 65536, name, err) != FLOE_OK) {
			inflateEnd(&z);
			free(*out);
			return FLOE_ERR;
		}
		z.next_out = (Bytef *)*out + len;
		z.avail_out = (uInt)(cap - len > UINT32_MAX ? UINT32_MAX : cap - len);
		zr = inflate(&z, Z_NO_FLUSH);
		len = (size_t)((char *)z.next_out - *out);
		if (zr == Z_STREAM_END) {
			if (z.avail_in == 0)
				break;
			inflateReset(&z);    /* the next member */
			continue;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR)
			break;
		if (zr == Z_BUF_ERROR && z.avail_in == 0)
			break;
	}
	inflateEnd(&z);
	if (zr != Z_STREAM_END) {
		free(*out);
		*out = NULL;
		return floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT, "\"%s\" is not a complete gzip stream", name);
	}
	*outlen = len;
	return FLOE_OK;
}

static int
unzstd(const uint8_t *in, size_t n, char **out, size_t *outlen, const char *name, floe_error *err)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t cap = 0, len = 0, r = 1;

	if (!d)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	*out = NULL;
	while (ib.pos < ib.size || r != 0) {
		ZSTD_outBuffer ob;
		if (grow(out, &cap, len + 65536, name, err) != FLOE_OK) {
			ZSTD_freeDStream(d);
			free(*out);
			return FLOE_ERR;
		}
		ob.dst = *out + len;
		ob.size = cap - len;
		ob.pos = 0;
		r = ZSTD_decompressStream(d, &ob, &ib);
		len += ob.pos;
		if (ZSTD_isError(r) || (ib.pos == ib.size && r != 0 && ob.pos == 0))
			break;
	}
	ZSTD_freeDStream(d);
	if (ZSTD_isError(r) || r != 0) {
		free(*out);
		*out = NULL;
		return floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT, "\"%s\" is not a complete zstd stream", name);
	}
	*outlen = len;
	return FLOE_OK;
}

int
stage_inflate(int kind, const uint8_t *in, size_t n, char **out, size_t *outlen, const char *name,
	      floe_error *err)
{
	if (kind == STAGE_GZIP)
		return gunzip(in, n, out, outlen, name, err);
	if (kind == STAGE_ZSTD)
		return unzstd(in, n, out, outlen, name, err);
	*out = xmalloc(n + 1);
	memcpy(*out, in, n);
	*outlen = n;
	return FLOE_OK;
}
