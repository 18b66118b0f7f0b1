/*
 * puffin.h — Puffin files (apache/iceberg format/puffin-spec.md) and the
 * 'deletion-vector-v1' blob payload carried in them.
 *
 * File layout:  Magic Blob_1 ... Blob_n Footer,
 *   Footer = Magic FooterPayload FooterPayloadSize(int32 LE) Flags(4 bytes) Magic,
 *   Magic = 50 46 41 31 ("PFA1"), FooterPayload = UTF-8 JSON FileMetadata
 *   {"blobs": [BlobMetadata...], "properties": {...}}.
 * Footer compression (flag bit 0, LZ4) is refused with 0A000.  Blobs may be
 * uncompressed or zstd ("compression-codec": "zstd"); lz4 blobs are 0A000.
 *
 * A deletion vector blob: length (4 bytes, big-endian: of magic + bitmap),
 * magic D1 D3 39 64, a 64-bit Roaring bitmap in the portable serialization
 * (bucket count u64 LE, then per bucket a u32 LE high key and a portable
 * 32-bit RoaringBitmap; keys ascending, at most 2^31-1 so positions fit in
 * a signed long), then the CRC-32 (IEEE, big-endian) of magic + bitmap.
 * Positions are handled as sorted, distinct int64 arrays; the 32-bit
 * buckets go through libroaring.
 *
 * Corrupt input is XX001 naming the file (the `name` argument); nothing is
 * allocated beyond what the bytes and the caller's limits justify.
 *
 * INTERFACE ROUTINES
 *   puffin_read(data, len, name, arena, &file, err)       footer + blob list
 *   puffin_blob_data(file, i, arena, &data, &len, err)    payload (decompressed)
 *   puffin_write(blobs, n, props, nprops, arena, &data, &len, err)
 *                                     blob offsets/lengths filled in blobs[]
 *   puffin_dv_decode(data, len, name, max_card, arena, &pos, &n, err)
 *   puffin_dv_encode(pos, n, arena, &data, &len)
 *   puffin_r64_decode(data, len, name, max_card, arena, &pos, &n, &used, err)
 *   puffin_r64_encode(pos, n, arena, &data, &len)
 */
#ifndef FLOE_PUFFIN_H
#define FLOE_PUFFIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"

#define PUFFIN_DV_TYPE "deletion-vector-v1"
/* The row-position metadata column id, the "fields" of a DV blob. */
#define PUFFIN_ROW_POS_FIELD_ID 2147483645

typedef struct PuffinProp {
	const char *key;
	const char *value;
} PuffinProp;

typedef struct PuffinBlob {
	const char *type;
	int nfields;
	int32_t *fields;
	int64_t snapshot_id;         /* -1 for deletion vectors */
	int64_t sequence_number;     /* -1 for deletion vectors */
	int64_t offset;              /* filled by puffin_write */
	int64_t length;
	const char *compression;     /* NULL = uncompressed; "zstd" */
	int nprops;
	PuffinProp *props;
	const uint8_t *data;         /* puffin_write: the payload to store */
	size_t data_len;
} PuffinBlob;

typedef struct PuffinFile {
	const char *name;
	const uint8_t *bytes;
	size_t len;
	int nblobs;
	PuffinBlob *blobs;
	int nprops;
	PuffinProp *props;
} PuffinFile;

int puffin_read(const uint8_t *data, size_t len, const char *name, Arena *a, PuffinFile **out,
		floe_error *err);
int puffin_blob_data(const PuffinFile *pf, int i, Arena *a, const uint8_t **data, size_t *len,
		     floe_error *err);
/* A blob property (NULL if absent). */
const char *puffin_blob_prop(const PuffinBlob *b, const char *key);
/* Writes blobs[i].data in order; sets blobs[i].offset/length (uncompressed). */
int puffin_write(PuffinBlob *blobs, int n, const PuffinProp *props, int nprops, Arena *a,
		 const uint8_t **data, size_t *len, floe_error *err);

/* A deletion-vector-v1 blob -> sorted distinct positions; more than
 * max_card positions is XX001 (the data file cannot have them). */
int puffin_dv_decode(const uint8_t *data, size_t len, const char *name, int64_t max_card,
		     Arena *a, int64_t **pos, int64_t *n, floe_error *err);
/* Sorted distinct non-negative positions -> a deletion-vector-v1 blob. */
void puffin_dv_encode(const int64_t *pos, int64_t n, Arena *a, uint8_t **data, size_t *len);

/* The bare 64-bit Roaring portable serialization (inside a DV blob);
 * *used = bytes consumed. */
int puffin_r64_decode(const uint8_t *data, size_t len, const char *name, int64_t max_card,
		      Arena *a, int64_t **pos, int64_t *n, size_t *used, floe_error *err);
void puffin_r64_encode(const int64_t *pos, int64_t n, Arena *a, uint8_t **data, size_t *len);

#endif
