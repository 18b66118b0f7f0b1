/*
 * container.c — Avro Object Container Files: read and write.
 *
 * Spec: apache/avro specification, "Object Container Files":
 *
 *   file   := magic "Obj\x01" | meta: map<bytes> | sync: 16 bytes | block*
 *   block  := count: long | size: long | data: size bytes (codec) | sync
 *
 * Codecs: "null" (or no avro.codec key), "deflate" (raw RFC 1951, zlib with
 * windowBits -15), "snappy" (raw snappy data followed by the big-endian
 * CRC-32 of the uncompressed bytes), "zstandard".
 *
 * INTERFACE ROUTINES
 *   avro_read_container(data, len, name, a, &file, err)
 *   avro_file_meta(file, key)
 *   avro_write_container(schema_json, keys, values, nmeta, records, n, codec, a,
 *                        &data, &len, err)
 *
 * Invariants (read): sync markers are checked positionally after each block
 * (never searched for: a marker may also occur inside the metadata); a file
 * ending inside a block or its sync marker is corrupt, not a clean EOF;
 * every block decodes to exactly its record count with no bytes left over;
 * a block never inflates beyond AVRO_MAX_BLOCK, and the whole file decodes
 * to at most AVRO_DATUM_BUDGET(len) datums.  A file ending inside a
 * block *header* (count/size varints) ends cleanly there, as Java's
 * DataFileStream.hasNext treats that EOF (apache-avro's person-10.no-codec
 * file carries a trailing newline).  All failures on bad bytes
 * are XX001 naming the file; an unknown codec is 0A000.
 */
#include <snappy-c.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include "format/avro/avro.h"
#include "format/avro/avro_int.h"

#define ZERO_SIZE_RECORDS (1 << 20)
#define WRITE_BLOCK_BYTES (1 << 20)   /* start a new block past this */

static const uint8_t magic[4] = {'O', 'b', 'j', 1};

const char *
avro_file_meta(const AvroFile *f, const char *key)
{
	for (int i = 0; i < f->nmeta; i++)
		if (strcmp(f->meta_keys[i], key) == 0)
			return (const char *)f->meta_values[i];
	return NULL;
}

/*
 * Decompressors.  The output is a heap buffer the caller frees once the
 * block's records are decoded (decoded strings are copied into the arena),
 * so a file never holds more than one decompressed block at a time.
 */
static int
grow(uint8_t **buf, size_t *cap, const char *name, const char *codec, floe_error *err)
{
	if (*cap >= AVRO_MAX_BLOCK)
		return FLOE_CORRUPT(err, "Avro file \"%s\": %s block inflates beyond %zu bytes", name,
				    codec, AVRO_MAX_BLOCK);
	*cap = *cap * 2 > AVRO_MAX_BLOCK ? AVRO_MAX_BLOCK : *cap * 2;
	*buf = xrealloc(*buf, *cap);
	return FLOE_OK;
}

static int
inflate_block(const uint8_t *in, size_t n, const char *name, uint8_t **out, size_t *outlen,
	      floe_error *err)
{
	z_stream zs;
	memset(&zs, 0, sizeof zs);
	if (n > UINT32_MAX)
		return FLOE_CORRUPT(err, "Avro file \"%s\": deflate block too large", name);
	if (inflateInit2(&zs, -15) != Z_OK)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "zlib inflateInit2 failed");
	size_t cap = n * 4 + 64, used = 0;
	if (cap > AVRO_MAX_BLOCK)
		cap = AVRO_MAX_BLOCK;
	uint8_t *buf = xmalloc(cap);
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)n;
	int rc;
	for (;;) {
		zs.next_out = buf + used;
		zs.avail_out = (uInt)(cap - used);
		rc = inflate(&zs, Z_NO_FLUSH);
		used = cap - zs.avail_out;
		if (rc == Z_STREAM_END)
			break;
		if (rc != Z_OK && rc != Z_BUF_ERROR)
			break;
		if (zs.avail_out == 0) {
			if (grow(&buf, &cap, name, "deflate", err) != FLOE_OK) {
				inflateEnd(&zs);
				free(buf);
				return FLOE_ERR;
			}
		} else if (rc == Z_BUF_ERROR || zs.avail_in == 0) {
			break;   /* input exhausted before the end of the stream */
		}
	}
	inflateEnd(&zs);
	if (rc != Z_STREAM_END) {
		free(buf);
		return FLOE_CORRUPT(err, "Avro file \"%s\": bad deflate block (%s)", name,
				    zs.msg ? zs.msg : "truncated");
	}
	*out = buf;
	*outlen = used;
	return FLOE_OK;
}

static int
unsnappy_block(const uint8_t *in, size_t n, const char *name, uint8_t **out, size_t *outlen,
	       floe_error *err)
{
	size_t ulen;
	if (n < 4)
		return FLOE_CORRUPT(err, "Avro file \"%s\": snappy block shorter than its CRC", name);
	n -= 4;
	if (snappy_uncompressed_length((const char *)in, n, &ulen) != SNAPPY_OK ||
	    ulen > AVRO_MAX_BLOCK)
		return FLOE_CORRUPT(err, "Avro file \"%s\": bad snappy block header", name);
	uint8_t *buf = xmalloc(ulen + 1);
	size_t got = ulen;
	if (snappy_uncompress((const char *)in, n, (char *)buf, &got) != SNAPPY_OK || got != ulen) {
		free(buf);
		return FLOE_CORRUPT(err, "Avro file \"%s\": bad snappy block", name);
	}
	uint32_t want = (uint32_t)in[n] << 24 | (uint32_t)in[n + 1] << 16 |
		(uint32_t)in[n + 2] << 8 | in[n + 3];
	uint32_t crc = (uint32_t)crc32(0L, buf, (uInt)ulen);
	if (crc != want) {
		free(buf);
		return FLOE_CORRUPT(err, "Avro file \"%s\": snappy block CRC mismatch", name);
	}
	*out = buf;
	*outlen = ulen;
	return FLOE_OK;
}

static int
unzstd_block(const uint8_t *in, size_t n, const char *name, uint8_t **out, size_t *outlen,
	     floe_error *err)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	if (!ds)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "ZSTD_createDStream failed");
	ZSTD_initDStream(ds);
	size_t cap = n * 4 + 64, rc = 1;
	if (cap > AVRO_MAX_BLOCK)
		cap = AVRO_MAX_BLOCK;
	uint8_t *buf = xmalloc(cap);
	ZSTD_inBuffer ib = {in, n, 0};
	ZSTD_outBuffer ob = {buf, cap, 0};
	for (;;) {
		if (ob.pos == ob.size) {
			if (grow(&buf, &cap, name, "zstandard", err) != FLOE_OK) {
				ZSTD_freeDStream(ds);
				free(buf);
				return FLOE_ERR;
			}
			ob.dst = buf;
			ob.size = cap;
		}
		rc = ZSTD_decompressStream(ds, &ob, &ib);
		if (ZSTD_isError(rc)) {
			ZSTD_freeDStream(ds);
			free(buf);
			return FLOE_CORRUPT(err, "Avro file \"%s\": bad zstandard block (%s)", name,
					    ZSTD_getErrorName(rc));
		}
		if (ib.pos == ib.size && (rc == 0 || ob.pos < ob.size))
			break;   /* done, or the decoder needs input that is not there */
	}
	ZSTD_freeDStream(ds);
	if (rc != 0) {
		free(buf);
		return FLOE_CORRUPT(err, "Avro file \"%s\": truncated zstandard block", name);
	}
	*out = buf;
	*outlen = ob.pos;
	return FLOE_OK;
}

/* Do two varints (block count and size) end before len? */
static bool
block_header_complete(const uint8_t *data, size_t len, size_t pos)
{
	for (int k = 0; k < 2; k++) {
		while (pos < len && (data[pos] & 0x80))
			pos++;
		if (pos >= len)
			return false;
		pos++;
	}
	return true;
}

/* Decode the `count` records of one decompressed block, appending to *recs. */
static int
decode_block(const AvroSchema *schema, const uint8_t *ub, size_t ulen, int64_t count,
	     const char *name, Arena *a, int64_t *budget, AvroDatum ***recs, int64_t *cap,
	     int64_t nrec, floe_error *err)
{
	if (schema->zero_size ? count > ZERO_SIZE_RECORDS - nrec : (uint64_t)count > ulen)
		return FLOE_CORRUPT(err, "Avro file \"%s\": block claims %lld records in %zu bytes",
				    name, (long long)count, ulen);
	if (nrec + count > *cap) {
		int64_t ncap = (nrec + count) * 2;
		*recs = arena_realloc(a, *recs, sizeof(**recs) * (size_t)*cap,
				      sizeof(**recs) * (size_t)ncap);
		*cap = ncap;
	}
	size_t bp = 0;
	for (int64_t i = 0; i < count; i++)
		TRY(avro__decode(schema, ub, ulen, &bp, name, a, budget, &(*recs)[nrec + i], err));
	if (bp != ulen)
		return FLOE_CORRUPT(err, "Avro file \"%s\": %zu stray bytes after the records of a block",
				    name, ulen - bp);
	return FLOE_OK;
}

int
avro_read_container(const uint8_t *data, size_t len, const char *name, Arena *a,
		    AvroFile **out, floe_error *err)
{
	size_t pos = 4;
	if (!name)
		name = "(memory)";
	if (len < 4 || memcmp(data, magic, 4) != 0) {
		if (len >= 4 && memcmp(data, "Obj", 3) == 0)
			return FLOE_CORRUPT(err, "Avro file \"%s\": invalid magic (container version %u, expected 1)",
					    name, data[3]);
		if (len >= 4 && memcmp(data, "AGS1", 4) == 0)
			return FLOE_CORRUPT(err, "Avro file \"%s\": invalid magic: the file is encrypted (AES-GCM stream)",
					    name);
		return FLOE_CORRUPT(err, "Avro file \"%s\": invalid magic, not an Avro container file", name);
	}
	/* header metadata: map<bytes> */
	AvroSchema bytes_s = {.type = AVRO_BYTES};
	AvroSchema meta_s = {.type = AVRO_MAP, .items = &bytes_s};
	AvroDatum *meta;
	int64_t budget = AVRO_DATUM_BUDGET(len);
	TRY(avro__decode(&meta_s, data, len, &pos, name, a, &budget, &meta, err));
	AvroFile *f = ARENA_NEW(a, AvroFile);
	f->nmeta = meta->u.map.n;
	f->meta_keys = meta->u.map.keys;
	f->meta_values = ARENA_ARRAY(a, const uint8_t *, f->nmeta ? f->nmeta : 1);
	f->meta_lens = ARENA_ARRAY(a, size_t, f->nmeta ? f->nmeta : 1);
	for (int i = 0; i < f->nmeta; i++) {
		f->meta_values[i] = meta->u.map.values[i]->u.bytes.ptr;
		f->meta_lens[i] = meta->u.map.values[i]->u.bytes.len;
	}
	if (len - pos < 16)
		return FLOE_CORRUPT(err, "Avro file \"%s\": truncated header (no sync marker)", name);
	const uint8_t *sync = data + pos;
	pos += 16;

	const char *sj = avro_file_meta(f, "avro.schema");
	if (!sj)
		return FLOE_CORRUPT(err, "Avro file \"%s\": header has no avro.schema", name);
	f->schema_json = sj;
	AvroSchema *schema;
	TRY(avro__schema_parse(sj, a, ERRCODE_DATA_CORRUPTED,
			       arena_sprintf(a, "Avro file \"%s\"", name), &schema, err));
	f->schema = schema;
	const char *codec = avro_file_meta(f, "avro.codec");
	if (!codec || strcmp(codec, "null") == 0)
		f->codec = AVRO_CODEC_NULL;
	else if (strcmp(codec, "deflate") == 0)
		f->codec = AVRO_CODEC_DEFLATE;
	else if (strcmp(codec, "snappy") == 0)
		f->codec = AVRO_CODEC_SNAPPY;
	else if (strcmp(codec, "zstandard") == 0)
		f->codec = AVRO_CODEC_ZSTD;
	else
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Avro file \"%s\": codec \"%s\" is not supported", name, codec);

	int64_t nrec = 0, cap = 0;
	AvroDatum **recs = NULL;
	while (pos < len) {
		int64_t count, size;
		if (!block_header_complete(data, len, pos))
			break;   /* trailing partial block header: EOF (as Java's DataFileStream) */
		TRY(avro__get_long(data, len, &pos, name, &count, err));
		TRY(avro__get_long(data, len, &pos, name, &size, err));
		if (count < 0 || size < 0 || (uint64_t)size > len - pos)
			return FLOE_CORRUPT(err, "Avro file \"%s\": bad block header (count %lld, size %lld, %zu bytes left)",
					    name, (long long)count, (long long)size, len - pos);
		const uint8_t *blk = data + pos;
		pos += (size_t)size;
		if (len - pos < 16)
			return FLOE_CORRUPT(err, "Avro file \"%s\": truncated: file ends inside a block's sync marker",
					    name);
		if (memcmp(data + pos, sync, 16) != 0)
			return FLOE_CORRUPT(err, "Avro file \"%s\": bad sync marker after block at offset %zu",
					    name, (size_t)(blk - data));
		pos += 16;
		uint8_t *ub = (uint8_t *)blk, *heap = NULL;
		size_t ulen = (size_t)size;
		switch (f->codec) {
		case AVRO_CODEC_NULL:
			break;
		case AVRO_CODEC_DEFLATE:
			TRY(inflate_block(blk, (size_t)size, name, &heap, &ulen, err));
			break;
		case AVRO_CODEC_SNAPPY:
			TRY(unsnappy_block(blk, (size_t)size, name, &heap, &ulen, err));
			break;
		case AVRO_CODEC_ZSTD:
			TRY(unzstd_block(blk, (size_t)size, name, &heap, &ulen, err));
			break;
		}
		if (heap)
			ub = heap;
		int rc = decode_block(schema, ub, ulen, count, name, a, &budget, &recs, &cap, nrec, err);
		free(heap);
		if (rc != FLOE_OK)
			return FLOE_ERR;
		nrec += count;
		if (nrec > INT32_MAX / 2)
			return FLOE_CORRUPT(err, "Avro file \"%s\": too many records", name);
	}
	f->nrecords = nrec;
	f->records = recs ? recs : ARENA_ARRAY(a, AvroDatum *, 1);
	*out = f;
	return FLOE_OK;
}

/* ---- writing ---- */

static int
compress_block(int codec, const uint8_t *in, size_t n, Arena *a, const uint8_t **out,
	       size_t *outlen, floe_error *err)
{
	switch (codec) {
	case AVRO_CODEC_NULL:
		*out = in;
		*outlen = n;
		return FLOE_OK;
	case AVRO_CODEC_DEFLATE: {
		z_stream zs;
		memset(&zs, 0, sizeof zs);
		if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK)
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "zlib deflateInit2 failed");
		size_t cap = deflateBound(&zs, (uLong)n) + 16;
		uint8_t *buf = arena_alloc(a, cap);
		zs.next_in = (Bytef *)in;
		zs.avail_in = (uInt)n;
		zs.next_out = buf;
		zs.avail_out = (uInt)cap;
		int rc = deflate(&zs, Z_FINISH);
		size_t got = cap - zs.avail_out;
		deflateEnd(&zs);
		if (rc != Z_STREAM_END)
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "zlib deflate failed (%d)", rc);
		*out = buf;
		*outlen = got;
		return FLOE_OK;
	}
	case AVRO_CODEC_SNAPPY: {
		size_t cap = snappy_max_compressed_length(n);
		uint8_t *buf = arena_alloc(a, cap + 4);
		size_t got = cap;
		if (snappy_compress((const char *)in, n, (char *)buf, &got) != SNAPPY_OK)
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "snappy_compress failed");
		uint32_t crc = (uint32_t)crc32(0L, in, (uInt)n);
		buf[got] = (uint8_t)(crc >> 24);
		buf[got + 1] = (uint8_t)(crc >> 16);
		buf[got + 2] = (uint8_t)(crc >> 8);
		buf[got + 3] = (uint8_t)crc;
		*out = buf;
		*outlen = got + 4;
		return FLOE_OK;
	}
	case AVRO_CODEC_ZSTD: {
		size_t cap = ZSTD_compressBound(n);
		uint8_t *buf = arena_alloc(a, cap);
		size_t got = ZSTD_compress(buf, cap, in, n, 3);
		if (ZSTD_isError(got))
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "ZSTD_compress failed: %s",
					   ZSTD_getErrorName(got));
		*out = buf;
		*outlen = got;
		return FLOE_OK;
	}
	}
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "unknown Avro codec %d", codec);
}

static const char *const codec_names[] = {"null", "deflate", "snappy", "zstandard"};

static void
make_sync(uint8_t sync[16], const void *salt)
{
	if (getentropy(sync, 16) == 0)
		return;
	uint64_t x = (uint64_t)(uintptr_t)salt ^ (uint64_t)getpid() * 0x9E3779B97F4A7C15ull;
	for (int i = 0; i < 16; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdull;
		x ^= x >> 29;
		sync[i] = (uint8_t)x;
	}
}

static int
flush_block(AvroBuf *out, AvroBuf *blk, int64_t count, int codec, const uint8_t sync[16],
	    Arena *a, floe_error *err)
{
	const uint8_t *cp;
	size_t cl;
	TRY(compress_block(codec, blk->p, blk->len, a, &cp, &cl, err));
	avro__put_long(out, count);
	avro__put_long(out, (int64_t)cl);
	avro__buf_put(out, cp, cl);
	avro__buf_put(out, sync, 16);
	blk->len = 0;
	return FLOE_OK;
}

int
avro_write_container(const char *schema_json, const char *const *meta_keys,
		     const char *const *meta_values, int nmeta,
		     const AvroDatum *const *records, int n, int codec, Arena *a,
		     const uint8_t **data, size_t *len, floe_error *err)
{
	AvroSchema *schema;
	if (codec < AVRO_CODEC_NULL || codec > AVRO_CODEC_ZSTD)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "unknown Avro codec %d", codec);
	TRY(avro_schema_parse(schema_json, a, &schema, err));
	AvroBuf out = {.a = a}, blk = {.a = a};
	uint8_t sync[16];
	make_sync(sync, &out);

	avro__buf_put(&out, magic, 4);
	int extra = 0;
	for (int i = 0; i < nmeta; i++)
		if (strcmp(meta_keys[i], "avro.schema") != 0 && strcmp(meta_keys[i], "avro.codec") != 0)
			extra++;
	avro__put_long(&out, 2 + extra);
	avro__put_bytes(&out, "avro.schema", 11);
	avro__put_bytes(&out, schema_json, strlen(schema_json));
	avro__put_bytes(&out, "avro.codec", 10);
	avro__put_bytes(&out, codec_names[codec], strlen(codec_names[codec]));
	for (int i = 0; i < nmeta; i++) {
		if (strcmp(meta_keys[i], "avro.schema") == 0 || strcmp(meta_keys[i], "avro.codec") == 0)
			continue;
		avro__put_bytes(&out, meta_keys[i], strlen(meta_keys[i]));
		avro__put_bytes(&out, meta_values[i], strlen(meta_values[i]));
	}
	avro__put_long(&out, 0);
	avro__buf_put(&out, sync, 16);

	int64_t count = 0;
	for (int i = 0; i < n; i++) {
		if (avro__encode(schema, records[i], &blk, 0, err) != FLOE_OK) {
			floe_error_prefix(err, "Avro record %d: ", i);
			return FLOE_ERR;
		}
		count++;
		if (blk.len >= WRITE_BLOCK_BYTES) {
			TRY(flush_block(&out, &blk, count, codec, sync, a, err));
			count = 0;
		}
	}
	if (count > 0)
		TRY(flush_block(&out, &blk, count, codec, sync, a, err));
	*data = out.p;
	*len = out.len;
	return FLOE_OK;
}
