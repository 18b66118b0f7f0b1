/*
 * rowcodec.h — the bytes of one insert-buffer entry: the rows of one
 * buffered INSERT, column by column, with the table they belong to.
 *
 * An entry is self-describing so a flush after a restart (or after the
 * table changed) can decide what to do with it:
 *
 *   u32 magic "FIB1"   i32 schema id
 *   u16 len + namespace bytes   u16 len + table name bytes
 *   u32 nrows   u16 ncols
 *   per column: i32 Iceberg field id, u8 type id, u8 precision, u8 scale,
 *               u8 text_kind, u8 elem, i32 typmod, u8 vector
 *   per column: u32 byte length of what follows, u8 has_nulls
 *               [+ ceil(nrows/8) validity bytes, bit set = valid], then for a string type (text, bytea, array) each
 *               valid row's u32 length + bytes, else nrows values of
 *               type_width bytes (NULL rows zero).
 * Integers little-endian.  A numeric's display scale is not kept: buffered
 * rows read back as the stored Iceberg column would (vector.h).
 *
 * INTERFACE ROUTINES
 *   rowcodec_init(enc, ns, name, schema_id, ncols, field_ids, types)
 *   rowcodec_add(enc, batch)       append a compacted batch's rows (columns
 *                                  in the order given to init)
 *   rowcodec_finish(enc, &bytes, &len)   malloc'd bytes (caller frees);
 *                                  rowcodec_dispose(enc) after
 *   rowcodec_decode(bytes, len, arena, &entry, err)   the header (XX001 on
 *                                  bad bytes); the data stays in `bytes`
 *   rowcodec_batches(entry, arena, ncols, field_ids, types, &batches, &n, err)
 *        the rows as batches of at most VECTOR_SIZE rows over the given
 *        columns (matched by field id: an entry without the field gives
 *        NULL); 42804 when a column's type differs from the entry's.
 */
#ifndef FLOE_ROWCODEC_H
#define FLOE_ROWCODEC_H

#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "types/vector.h"

typedef struct RowEncoder {
	uint8_t *buf;
	size_t len, cap;
	int ncols;
	SqlType *types;
	int32_t *field_ids;
	/* per column: the column's bytes so far (written after the header) */
	uint8_t **col;
	size_t *col_len, *col_cap;
	uint8_t **valid;           /* bitmaps, grown as rows come */
	bool *has_nulls;
	uint32_t nrows;
	char *ns, *name;
	int32_t schema_id;
} RowEncoder;

typedef struct RowEntry {
	int32_t schema_id;
	char *ns, *name;
	uint32_t nrows;
	int ncols;
	int32_t *field_ids;
	SqlType *types;
	const uint8_t **col;       /* each column's data (validity first) */
	size_t *col_len;
} RowEntry;

void rowcodec_init(RowEncoder *enc, const char *ns, const char *name, int32_t schema_id,
		   int ncols, const int32_t *field_ids, const SqlType *types);
void rowcodec_add(RowEncoder *enc, const Batch *b);
void rowcodec_finish(RowEncoder *enc, uint8_t **bytes, size_t *len);
void rowcodec_dispose(RowEncoder *enc);
int rowcodec_decode(const uint8_t *bytes, size_t len, Arena *a, RowEntry *out, floe_error *err);
int rowcodec_batches(const RowEntry *e, Arena *a, int ncols, const int32_t *field_ids,
		     const SqlType *types, Batch ***batches, int *nbatches, floe_error *err);

#endif
