/*
 * parquet_write.h — the Parquet file writer: floe Batches in, one Parquet
 * file's bytes out (apache/parquet-format: parquet.thrift, Encodings.md,
 * Compression.md, LogicalTypes.md).
 *
 * The writer knows nothing of Iceberg: the caller passes field ids and
 * reads back per-column results (counts, sizes, min/max) to build its own
 * metrics.  Output is a schema of primitive columns (at the top level or
 * as fields of a REQUIRED group one level deep) and top-level lists of a
 * primitive (a TYPE_ARRAY column: the 3-level LIST of LogicalTypes.md,
 * group <name> (LIST) / repeated group list / element, as Iceberg Java
 * writes it), data page v1, RLE definition levels for optional columns
 * and lists, RLE repetition levels for lists, RLE_DICTIONARY values while
 * the dictionary pays (few distinct values, capped size), else PLAIN.
 * A list's pages end at row boundaries; its ParquetColumnResult counts
 * level entries (value_count) and the entries below the element's level
 * (null_count: NULL lists, empty lists, NULL elements), min/max over the
 * elements.
 *
 * Type mapping (DESIGN.md):
 *   BOOL->BOOLEAN  INT16->INT32+INT(16,true)  INT32->INT32  INT64->INT64
 *   FLOAT32->FLOAT  FLOAT64->DOUBLE
 *   DECIMAL(p,s)->INT32 (p<=9) | INT64 (p<=18) | FIXED_LEN_BYTE_ARRAY(minimal
 *                 bytes for p) + DECIMAL(p,s); unconstrained numeric is
 *                 decimal(38, NUMERIC_DEFAULT_SCALE)
 *   TEXT->BYTE_ARRAY+STRING  BYTEA->BYTE_ARRAY  DATE->INT32+DATE
 *   TIME->INT64+TIME(MICROS,false)  TIMESTAMP(TZ)->INT64+TIMESTAMP(MICROS,false/true)
 *   UUID->FIXED_LEN_BYTE_ARRAY(16)+UUID
 * INTERVAL and NULL columns are refused (parquet_writer_new returns NULL).
 *
 * Errors from write/finish (the writer is then unusable): 23502 NULL in a
 * required column, 22003 decimal value beyond the column's precision, 42804
 * a vector whose type is not the column's (a TYPE_NULL vector is accepted
 * as all NULLs), 0A000 unsupported codec, 54000 a page over 2 GiB.
 *
 * INTERFACE ROUTINES
 *   parquet_writer_new(cols, ncols, opts)      NULL opts = defaults
 *   parquet_writer_write(w, batch, err)        append rows (honours b->sel)
 *   parquet_writer_estimated_size(w)           bytes so far incl. buffered
 *   parquet_writer_finish(w, &data, &len, err) the whole file; bytes owned by w
 *   parquet_writer_column_result(w, col)       after finish
 *   parquet_writer_num_rows(w)
 *   parquet_writer_num_row_groups(w) / parquet_writer_row_group_offset(w, i)
 *   parquet_writer_free(w)
 */
#ifndef FLOE_PARQUET_WRITE_H
#define FLOE_PARQUET_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/error.h"
#include "types/types.h"
#include "types/value.h"
#include "types/vector.h"

typedef struct ParquetWriteColumn {
	const char *name;
	int32_t field_id;      /* written as SchemaElement.field_id; -1 none */
	SqlType type;          /* TYPE_ARRAY of a primitive: a 3-level LIST */
	bool required;         /* REQUIRED (no definition levels); NULLs refused 23502 */
	int32_t elem_field_id; /* a list: its element's field_id; -1 none */
	bool elem_required;    /* a list: REQUIRED elements (NULL elements 23502) */
} ParquetWriteColumn;

typedef struct ParquetWriteOptions {
	int codec;             /* enum ParquetCodec; default PQ_CODEC_ZSTD */
	int zstd_level;        /* default 3 (also used as gzip/brotli level if > 0) */
	int64_t row_group_rows;/* default 1048576 */
	int64_t row_group_bytes;/* flush a row group when buffered bytes pass this;
				  default 128 MiB */
	int64_t page_size;     /* target uncompressed page size; default 1 MiB */
	bool dictionary;       /* default true */
	int64_t dict_max_bytes;/* dictionary page cap before PLAIN fallback; default 1 MiB */
	const char *const *kv_keys;   /* key_value_metadata (copied) */
	const char *const *kv_values;
	int nkv;
	/* one REQUIRED group (struct), one level deep (Iceberg's partition
	 * tuple): columns [group_first, group_first + group_count) are its
	 * fields; group_count 0 (the default): every column at the top level */
	const char *group;
	int32_t group_field_id;    /* -1: none */
	int group_first, group_count;
} ParquetWriteOptions;

/* The defaults, for callers that change one field. */
void parquet_write_options_init(ParquetWriteOptions *o);

typedef struct ParquetColumnResult {
	int64_t value_count;   /* rows, NULLs included */
	int64_t null_count;
	int64_t total_compressed_size;  /* sum of the column chunks' sizes */
	bool has_min_max;      /* false when every value was NULL (or NaN) */
	Value min, max;        /* in the column's SqlType; strings owned by the writer */
	bool has_nan;          /* float columns only */
	int64_t nan_count;
} ParquetColumnResult;

typedef struct ParquetWriter ParquetWriter;

ParquetWriter *parquet_writer_new(const ParquetWriteColumn *cols, int ncols,
				  const ParquetWriteOptions *opts);
int parquet_writer_write(ParquetWriter *w, const Batch *b, floe_error *err);
int64_t parquet_writer_estimated_size(const ParquetWriter *w);
int parquet_writer_finish(ParquetWriter *w, const uint8_t **data, size_t *len,
			  floe_error *err);
const ParquetColumnResult *parquet_writer_column_result(const ParquetWriter *w, int col);
int64_t parquet_writer_num_rows(const ParquetWriter *w);
/* Row groups written (valid after finish) and the file offset of each
 * (its first page): Iceberg's split_offsets. */
int parquet_writer_num_row_groups(const ParquetWriter *w);
int64_t parquet_writer_row_group_offset(const ParquetWriter *w, int i);
void parquet_writer_free(ParquetWriter *w);

/* FIXED_LEN_BYTE_ARRAY length Iceberg and Parquet use for decimal(p,_), p > 18. */
int parquet_decimal_bytes(int precision);

#endif
