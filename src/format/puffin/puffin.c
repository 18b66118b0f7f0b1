/*
 * puffin.c — Puffin file reader/writer and deletion-vector-v1 payloads
 * (see puffin.h).
 *
 * Spec: apache/iceberg format/puffin-spec.md ("File structure", "Footer
 * structure", "deletion-vector-v1"), RoaringFormatSpec (64-bit portable
 * extension: bucket count u64 LE, then (u32 LE key, 32-bit portable
 * bitmap) per bucket).
 *
 * Invariants:
 *   - every offset/length read from a file is checked against the bytes
 *     before use; blob payloads lie between the leading magic and the footer;
 *   - 64-bit bitmaps: bucket keys strictly ascending and <= 2^31-1 (so every
 *     position is a non-negative int64), the total cardinality is checked
 *     against the caller's max_card before positions are materialised;
 *   - decoded positions come out sorted and distinct.
 *
 * INTERFACE ROUTINES: see puffin.h.
 */
#include <jansson.h>
#include <roaring/roaring.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "format/puffin/puffin.h"

static const uint8_t MAGIC[4] = { 'P', 'F', 'A', '1' };
static const uint8_t DV_MAGIC[4] = { 0xD1, 0xD3, 0x39, 0x64 };

#define MAX_BLOB_BYTES ((size_t)1 << 30)

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[3] = (uint8_t)v;
	p[2] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)(v >> 16);
	p[0] = (uint8_t)(v >> 24);
}

/* ---- footer ------------------------------------------------------------ */

static bool
json_i64(json_t *o, const char *key, int64_t *v)
{
	json_t *x = json_object_get(o, key);
	if (!json_is_integer(x))
		return false;
	*v = (int64_t)json_integer_value(x);
	return true;
}

static int
read_props(json_t *o, const char *name, Arena *a, PuffinProp **props, int *n, floe_error *err)
{
	const char *k;
	json_t *v;
	int i = 0;

	*props = NULL;
	*n = 0;
	if (!o)
		return FLOE_OK;
	if (!json_is_object(o))
		return FLOE_CORRUPT(err, "Puffin file \"%s\": properties is not an object", name);
	*props = ARENA_ARRAY(a, PuffinProp, json_object_size(o) + 1);
	json_object_foreach(o, k, v) {
		if (!json_is_string(v))
			return FLOE_CORRUPT(err, "Puffin file \"%s\": property \"%s\" is not a string",
					    name, k);
		(*props)[i].key = arena_strdup(a, k);
		(*props)[i++].value = arena_strdup(a, json_string_value(v));
	}
	*n = i;
	return FLOE_OK;
}

static int
parse_footer(json_t *root, PuffinFile *pf, size_t blob_end, Arena *a, floe_error *err)
{
	const char *name = pf->name;
	json_t *blobs = json_object_get(root, "blobs");
	size_t i, j;

	if (!json_is_object(root) || !json_is_array(blobs))
		return FLOE_CORRUPT(err, "Puffin file \"%s\": footer has no \"blobs\" array", name);
	TRY(read_props(json_object_get(root, "properties"), name, a, &pf->props, &pf->nprops, err));
	pf->nblobs = (int)json_array_size(blobs);
	pf->blobs = ARENA_ARRAY(a, PuffinBlob, pf->nblobs + 1);
	for (i = 0; i < json_array_size(blobs); i++) {
		json_t *b = json_array_get(blobs, i), *t, *f, *c;
		PuffinBlob *pb = &pf->blobs[i];

		if (!json_is_object(b) || !json_is_string(t = json_object_get(b, "type")) ||
		    !json_i64(b, "offset", &pb->offset) || !json_i64(b, "length", &pb->length))
			return FLOE_CORRUPT(err, "Puffin file \"%s\": blob %zu lacks type/offset/length",
					    name, i);
		pb->type = arena_strdup(a, json_string_value(t));
		if (pb->offset < 4 || pb->length < 0 || (uint64_t)pb->offset > blob_end ||
		    (uint64_t)pb->length > blob_end - (uint64_t)pb->offset)
			return FLOE_CORRUPT(err, "Puffin file \"%s\": blob %zu (offset %lld, length %lld) "
					    "lies outside the blob area", name, i,
					    (long long)pb->offset, (long long)pb->length);
		if (!json_i64(b, "snapshot-id", &pb->snapshot_id))
			pb->snapshot_id = -1;
		if (!json_i64(b, "sequence-number", &pb->sequence_number))
			pb->sequence_number = -1;
		f = json_object_get(b, "fields");
		if (f && !json_is_array(f))
			return FLOE_CORRUPT(err, "Puffin file \"%s\": blob %zu fields is not an array",
					    name, i);
		pb->nfields = f ? (int)json_array_size(f) : 0;
		pb->fields = ARENA_ARRAY(a, int32_t, pb->nfields + 1);
		for (j = 0; f && j < json_array_size(f); j++) {
			json_t *x = json_array_get(f, j);
			if (!json_is_integer(x))
				return FLOE_CORRUPT(err, "Puffin file \"%s\": blob %zu has a non-integer field id",
						    name, i);
			pb->fields[j] = (int32_t)json_integer_value(x);
		}
		c = json_object_get(b, "compression-codec");
		if (c && !json_is_null(c)) {
			if (!json_is_string(c))
				return FLOE_CORRUPT(err, "Puffin file \"%s\": blob %zu compression-codec is not a string",
						    name, i);
			pb->compression = arena_strdup(a, json_string_value(c));
		}
		TRY(read_props(json_object_get(b, "properties"), name, a, &pb->props, &pb->nprops, err));
		pb->data = pf->bytes + pb->offset;
		pb->data_len = (size_t)pb->length;
	}
	return FLOE_OK;
}

int
puffin_read(const uint8_t *data, size_t len, const char *name, Arena *a, PuffinFile **out,
	    floe_error *err)
{
	PuffinFile *pf;
	uint32_t psize;
	size_t fstart;
	json_error_t jerr;
	json_t *root;
	int rc;

	if (len < 4 + 4 + 12 || memcmp(data, MAGIC, 4) != 0 || memcmp(data + len - 4, MAGIC, 4) != 0)
		return FLOE_CORRUPT(err, "Puffin file \"%s\": missing PFA1 magic", name);
	psize = le32(data + len - 12);
	if (data[len - 8] & 1)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Puffin file \"%s\": compressed footers are not supported", name);
	if ((size_t)psize > len - 12 - 4 - 4)
		return FLOE_CORRUPT(err, "Puffin file \"%s\": footer size %u exceeds the file", name,
				    psize);
	fstart = len - 12 - psize - 4;
	if (memcmp(data + fstart, MAGIC, 4) != 0)
		return FLOE_CORRUPT(err, "Puffin file \"%s\": missing footer magic", name);
	root = json_loadb((const char *)data + fstart + 4, psize, 0, &jerr);
	if (!root)
		return FLOE_CORRUPT(err, "Puffin file \"%s\": footer is not JSON: %s", name, jerr.text);
	pf = ARENA_NEW(a, PuffinFile);
	pf->name = arena_strdup(a, name);
	pf->bytes = data;
	pf->len = len;
	rc = parse_footer(root, pf, fstart, a, err);
	json_decref(root);
	if (rc != FLOE_OK)
		return rc;
	*out = pf;
	return FLOE_OK;
}

const char *
puffin_blob_prop(const PuffinBlob *b, const char *key)
{
	int i;
	for (i = 0; i < b->nprops; i++)
		if (strcmp(b->props[i].key, key) == 0)
			return b->props[i].value;
	return NULL;
}

int
puffin_blob_data(const PuffinFile *pf, int i, Arena *a, const uint8_t **data, size_t *len,
		 floe_error *err)
{
	const PuffinBlob *b = &pf->blobs[i];
	unsigned long long n;
	uint8_t *buf;
	size_t got;

	if (!b->compression) {
		*data = b->data;
		*len = b->data_len;
		return FLOE_OK;
	}
	if (strcmp(b->compression, "zstd") != 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Puffin file \"%s\": blob compression \"%s\" is not supported",
				   pf->name, b->compression);
	n = ZSTD_getFrameContentSize(b->data, b->data_len);
	if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > MAX_BLOB_BYTES)
		return FLOE_CORRUPT(err, "Puffin file \"%s\": blob %d is not a sized zstd frame",
				    pf->name, i);
	buf = arena_alloc(a, n ? (size_t)n : 1);
	got = ZSTD_decompress(buf, (size_t)n, b->data, b->data_len);
	if (ZSTD_isError(got) || got != n)
		return FLOE_CORRUPT(err, "Puffin file \"%s\": blob %d does not decompress", pf->name, i);
	*data = buf;
	*len = (size_t)n;
	return FLOE_OK;
}

static json_t *
props_json(const PuffinProp *p, int n)
{
	json_t *o = json_object();
	int i;
	for (i = 0; i < n; i++)
		json_object_set_new(o, p[i].key, json_string(p[i].value));
	return o;
}

int
puffin_write(PuffinBlob *blobs, int n, const PuffinProp *props, int nprops, Arena *a,
	     const uint8_t **data, size_t *len, floe_error *err)
{
	json_t *root = json_object(), *arr = json_array();
	size_t total = 4, off, flen;
	uint8_t *buf;
	char *footer;
	int i, j;

	for (i = 0; i < n; i++)
		total += blobs[i].data_len;
	off = 4;
	for (i = 0; i < n; i++) {
		json_t *b = json_object(), *f = json_array();
		blobs[i].offset = (int64_t)off;
		blobs[i].length = (int64_t)blobs[i].data_len;
		off += blobs[i].data_len;
		json_object_set_new(b, "type", json_string(blobs[i].type));
		for (j = 0; j < blobs[i].nfields; j++)
			json_array_append_new(f, json_integer(blobs[i].fields[j]));
		json_object_set_new(b, "fields", f);
		json_object_set_new(b, "snapshot-id", json_integer(blobs[i].snapshot_id));
		json_object_set_new(b, "sequence-number", json_integer(blobs[i].sequence_number));
		json_object_set_new(b, "offset", json_integer(blobs[i].offset));
		json_object_set_new(b, "length", json_integer(blobs[i].length));
		if (blobs[i].nprops > 0)
			json_object_set_new(b, "properties", props_json(blobs[i].props, blobs[i].nprops));
		json_array_append_new(arr, b);
	}
	json_object_set_new(root, "blobs", arr);
	if (nprops > 0)
		json_object_set_new(root, "properties", props_json(props, nprops));
	footer = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!footer)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory writing a Puffin footer");
	flen = strlen(footer);
	buf = arena_alloc(a, total + 4 + flen + 12);
	memcpy(buf, MAGIC, 4);
	for (i = 0; i < n; i++)
		if (blobs[i].data_len)
			memcpy(buf + blobs[i].offset, blobs[i].data, blobs[i].data_len);
	memcpy(buf + total, MAGIC, 4);
	memcpy(buf + total + 4, footer, flen);
	free(footer);
	put_le32(buf + total + 4 + flen, (uint32_t)flen);
	memset(buf + total + 8 + flen, 0, 4);
	memcpy(buf + total + 12 + flen, MAGIC, 4);
	*data = buf;
	*len = total + 4 + flen + 12;
	return FLOE_OK;
}

/* ---- 64-bit Roaring ------------------------------------------------------ */

int
puffin_r64_decode(const uint8_t *data, size_t len, const char *name, int64_t max_card, Arena *a,
		  int64_t **pos, int64_t *n, size_t *used, floe_error *err)
{
	uint64_t nb, b, card = 0;
	size_t p = 8, start;
	int64_t *out = NULL;
	int64_t prev_key = -1;
	int pass;

	*pos = NULL;
	*n = 0;
	if (len < 8)
		return FLOE_CORRUPT(err, "deletion vector in \"%s\": bitmap shorter than 8 bytes", name);
	nb = (uint64_t)le32(data) | (uint64_t)le32(data + 4) << 32;
	if (nb > (len - 8) / 12)
		return FLOE_CORRUPT(err, "deletion vector in \"%s\": %llu buckets cannot fit in %zu bytes",
				    name, (unsigned long long)nb, len);
	/* pass 0 checks keys and sizes and counts; pass 1 materialises */
	start = p;
	for (pass = 0; pass < 2; pass++) {
		int64_t k = 0;
		p = start;
		prev_key = -1;
		if (pass == 1)
			out = arena_alloc(a, sizeof(int64_t) * (size_t)(card ? card : 1));
		for (b = 0; b < nb; b++) {
			uint32_t key;
			size_t sz;
			roaring_bitmap_t *r;

			if (len - p < 4)
				return FLOE_CORRUPT(err, "deletion vector in \"%s\": truncated bucket", name);
			key = le32(data + p);
			p += 4;
			if (key > INT32_MAX || (int64_t)key <= prev_key)
				return FLOE_CORRUPT(err, "deletion vector in \"%s\": invalid bucket key %u",
						    name, key);
			prev_key = key;
			sz = roaring_bitmap_portable_deserialize_size((const char *)data + p, len - p);
			if (sz == 0)
				return FLOE_CORRUPT(err, "deletion vector in \"%s\": invalid Roaring bucket",
						    name);
			r = roaring_bitmap_portable_deserialize_safe((const char *)data + p, len - p);
			if (!r)
				return FLOE_CORRUPT(err, "deletion vector in \"%s\": invalid Roaring bucket",
						    name);
			p += sz;
			if (pass == 0) {
				card += roaring_bitmap_get_cardinality(r);
				roaring_bitmap_free(r);
				if (card > (uint64_t)max_card) {
					return FLOE_CORRUPT(err, "deletion vector in \"%s\" deletes more than "
							    "%lld positions", name, (long long)max_card);
				}
				continue;
			}
			{
				uint64_t c = roaring_bitmap_get_cardinality(r), i;
				uint32_t *tmp = xmalloc(sizeof(uint32_t) * (size_t)(c ? c : 1));
				roaring_bitmap_to_uint32_array(r, tmp);
				for (i = 0; i < c; i++)
					out[k++] = (int64_t)((uint64_t)key << 32 | tmp[i]);
				free(tmp);
				roaring_bitmap_free(r);
			}
		}
	}
	*pos = out;
	*n = (int64_t)card;
	*used = p;
	return FLOE_OK;
}

void
puffin_r64_encode(const int64_t *pos, int64_t n, Arena *a, uint8_t **data, size_t *len)
{
	int64_t i = 0, j;
	uint64_t nb = 0;
	size_t total = 8, cap = 64, p;
	uint8_t *buf = xmalloc(cap);

	p = 8;
	while (i < n) {
		uint32_t key = (uint32_t)((uint64_t)pos[i] >> 32);
		roaring_bitmap_t *r = roaring_bitmap_create();
		size_t sz;
		for (j = i; j < n && (uint32_t)((uint64_t)pos[j] >> 32) == key; j++)
			roaring_bitmap_add(r, (uint32_t)pos[j]);
		roaring_bitmap_run_optimize(r);
		sz = roaring_bitmap_portable_size_in_bytes(r);
		if (p + 4 + sz > cap) {
			while (p + 4 + sz > cap)
				cap *= 2;
			buf = xrealloc(buf, cap);
		}
		put_le32(buf + p, key);
		roaring_bitmap_portable_serialize(r, (char *)buf + p + 4);
		p += 4 + sz;
		roaring_bitmap_free(r);
		nb++;
		i = j;
	}
	total = p;
	put_le32(buf, (uint32_t)nb);
	put_le32(buf + 4, (uint32_t)(nb >> 32));
	*data = arena_memdup(a, buf, total);
	*len = total;
	free(buf);
}

/* ---- deletion-vector-v1 ---------------------------------------------------- */

int
puffin_dv_decode(const uint8_t *data, size_t len, const char *name, int64_t max_card, Arena *a,
		 int64_t **pos, int64_t *n, floe_error *err)
{
	uint32_t blen, crc;
	size_t used;

	if (len < 12)
		return FLOE_CORRUPT(err, "deletion vector in \"%s\": blob of %zu bytes is too short",
				    name, len);
	blen = be32(data);
	if (blen < 4 || (size_t)blen != len - 8)
		return FLOE_CORRUPT(err, "deletion vector in \"%s\": length %u does not match the blob (%zu bytes)",
				    name, blen, len);
	if (memcmp(data + 4, DV_MAGIC, 4) != 0)
		return FLOE_CORRUPT(err, "deletion vector in \"%s\": bad magic", name);
	crc = (uint32_t)crc32(0L, data + 4, blen);
	if (crc != be32(data + 4 + blen))
		return FLOE_CORRUPT(err, "deletion vector in \"%s\": CRC mismatch", name);
	TRY(puffin_r64_decode(data + 8, blen - 4, name, max_card, a, pos, n, &used, err));
	if (used != blen - 4)
		return FLOE_CORRUPT(err, "deletion vector in \"%s\": %zu trailing bytes after the bitmap",
				    name, (size_t)(blen - 4 - used));
	return FLOE_OK;
}

void
puffin_dv_encode(const int64_t *pos, int64_t n, Arena *a, uint8_t **data, size_t *len)
{
	uint8_t *bm, *out;
	size_t bl;

	puffin_r64_encode(pos, n, a, &bm, &bl);
	out = arena_alloc(a, bl + 12);
	put_be32(out, (uint32_t)(bl + 4));
	memcpy(out + 4, DV_MAGIC, 4);
	memcpy(out + 8, bm, bl);
	put_be32(out + 8 + bl, (uint32_t)crc32(0L, out + 4, (uInt)(bl + 4)));
	*data = out;
	*len = bl + 12;
}
