/*
 * parquet.h — the Parquet reader (apache/parquet-format): footer, schema,
 * statistics and column-chunk decoding into floe Vectors.
 *
 * format/ knows nothing of SQL or Iceberg: a Parquet leaf column is mapped
 * to a floe SqlType by its physical, converted and logical types:
 *
 *   BOOLEAN                          BOOL
 *   INT32                            INT32; INT(8|16,signed)/INT_8/INT_16 -> INT16;
 *                                    UINT_8/UINT_16 -> INT32; UINT_32 -> INT64;
 *                                    DATE -> DATE; DECIMAL -> DECIMAL(p,s);
 *                                    TIME_MILLIS -> TIME (micros)
 *   INT64                            INT64; UINT_64 -> DECIMAL(20,0);
 *                                    DECIMAL -> DECIMAL; TIME(micros|nanos) -> TIME;
 *                                    TIMESTAMP(ms|us|ns) -> TIMESTAMP, or TIMESTAMPTZ
 *                                    when isAdjustedToUTC (micros; nanos floor-divided)
 *   INT96                            TIMESTAMP (legacy Julian day + nanos)
 *   FLOAT / DOUBLE                   FLOAT32 / FLOAT64
 *   BYTE_ARRAY                       TEXT with STRING/UTF8/ENUM/JSON, DECIMAL, else BYTEA
 *   FIXED_LEN_BYTE_ARRAY             UUID (16), DECIMAL (p <= 38), FLOAT16 -> FLOAT32,
 *                                    else BYTEA
 *
 * Columns are the leaf columns of the schema, in file order (one per column
 * chunk).  A top-level list of a primitive type (LogicalTypes.md "Lists",
 * the 3-level layout and the backward-compatibility rules: a LIST group
 * whose repeated field is the primitive (rule 1) or a group of one
 * non-repeated primitive field (rule 5), and an unannotated repeated
 * primitive at the top level) is one column with list = true: its name and
 * field_id are the top-level field's, elem_field_id the element's, and its
 * type is TYPE_ARRAY of the element's type; a value is one array (a NULL
 * list is NULL, an empty list '{}', NULL elements NULL), assembled from the
 * repetition and definition levels.  Every other leaf under a group or with
 * a repeated level is nested: its name is the dotted path, nested_type
 * names what holds it ("struct", "map", "list of struct", "list of list",
 * "list of map", "variant") and reading it fails with 0A000.  A column whose
 * type cannot be mapped has type TYPE_NULL and reading it fails with 0A000.
 *
 * The whole file is in memory (data, len) and must outlive the ParquetFile
 * (or a buffer of the file's length in which only the footer and the
 * chunks about to be read hold the file's bytes: exec/scan.c reading a
 * large object chunk by chunk, parquet_chunk_range);
 * everything the reader allocates comes from the arenas passed in.  Strings
 * (TEXT/BYTEA values and statistics) may point into the file buffer.
 *
 * Legacy converted types TIMESTAMP_MILLIS/MICROS and TIME_MILLIS/MICROS are
 * UTC-adjusted by the spec (LogicalTypes.md, backward compatibility), so
 * they map to TIMESTAMPTZ / TIME.  INT96 maps to TIMESTAMP, decoded with
 * Spark's wrapping arithmetic.
 *
 * Statistics: min_value/max_value are used; the legacy min/max only for
 * types whose order is signed (not strings, unsigned ints, FLBA, INT96).
 * NaN bounds give has_min_max = false; a 0.0 min is reported as -0.0.
 *
 * A ParquetFile is read-only after parquet_open: readers of different
 * columns or row groups may run on different threads, each with its own
 * arena.  Page CRCs (PageHeader.crc) are verified, when present, as each
 * page is loaded (XX001 on mismatch).  Limits: pages of at most 256 MiB
 * (uncompressed); BIT_PACKED (deprecated) definition levels are read.
 *
 * Corrupt input gives XX001 naming the file; unsupported features 0A000.
 */
#ifndef FLOE_PARQUET_H
#define FLOE_PARQUET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "common/lru.h"
#include "types/types.h"
#include "types/value.h"
#include "types/vector.h"
#include "format/parquet/parquet_format.h"

typedef struct ParquetFile ParquetFile;

/* Key-value metadata entry floe's writer adds to every footer: the CRC-32
 * (8 lower-case hex digits) of the serialized FileMetaData with this
 * value's bytes taken as "00000000".  parquet_open verifies it when
 * present (XX001 on mismatch); other readers ignore it. */
#define PARQUET_FOOTER_CRC_KEY "floe.footer-crc32"

typedef struct ParquetColumn {
	const char *name;       /* top-level name (dotted path if nested) */
	int32_t field_id;       /* -1 if none */
	bool nested;
	bool optional;
	SqlType type;           /* TYPE_NULL if unsupported */
	int physical_type;      /* enum ParquetType */
	int type_length;        /* FIXED_LEN_BYTE_ARRAY width, else 0 */
	int converted_type;     /* enum ParquetConvertedType, PQ_CT_NONE if absent */
	int logical_type;       /* enum ParquetLogicalType, PQ_LT_NONE if absent */
	/* Additions beyond the agreed API (for matching a nested leaf to the
	 * top-level Iceberg field it belongs to): */
	const char *top_name;   /* name of the top-level field holding this leaf */
	int32_t top_field_id;   /* its field id, -1 if none */
	/* what the SqlType hides (Iceberg readers read the physical values):
	 * an unsigned integer annotation; the PQ_UNIT_* of a TIME / TIMESTAMP
	 * (logical or legacy converted type), 0 for other columns */
	bool is_unsigned;
	int time_unit;
	bool list;              /* a list of a primitive type: type is TYPE_ARRAY */
	int32_t elem_field_id;  /* list: the element's field id, -1 if none */
	const char *nested_type;/* nested: the kind of the top-level field */
} ParquetColumn;

typedef struct ParquetStats {
	bool has_null_count;
	int64_t null_count;
	bool has_min_max;
	Value min, max;         /* decoded to the column's SqlType; strings point into file memory */
} ParquetStats;

int parquet_open(ParquetFile **out, const uint8_t *data, size_t len, const char *name,
		 Arena *arena, floe_error *err);
/* The ParquetFile of the (immutable) data file at path, of size bytes per
 * its manifest (<= 0: unknown), read through io; small files come from a
 * process-wide cache of bytes and parsed footers (file_cache.c).  Valid,
 * read-only, until hold is reset. */
typedef struct FileIO FileIO;
int parquet_open_cached(ParquetFile **out, FileIO *io, const char *path, int64_t size,
			Arena *hold, floe_error *err);
void parquet_file_cache_stats(LruStats *stats);
int parquet_num_columns(const ParquetFile *pf);
const ParquetColumn *parquet_column(const ParquetFile *pf, int i);
int64_t parquet_num_rows(const ParquetFile *pf);
int parquet_num_row_groups(const ParquetFile *pf);
int64_t parquet_row_group_num_rows(const ParquetFile *pf, int rg);
/* Chunk statistics; has_min_max is false when absent, legacy-and-unreliable
 * (unsigned/decimal/string legacy min/max) or NaN.  A list column has none
 * (its leaf's min/max and null count describe elements, not rows). */
int parquet_column_stats(const ParquetFile *pf, int rg, int col, ParquetStats *out,
			 floe_error *err);
const char *parquet_kv_metadata(const ParquetFile *pf, const char *key); /* NULL if absent */

typedef struct ParquetColumnReader ParquetColumnReader;

/* The byte range [off, off+len) of the file that column col of row group
 * rg occupies (what its reader reads); false when it reads none. */
bool parquet_chunk_range(const ParquetFile *pf, int rg, int col, uint64_t *off, uint64_t *len);
int parquet_column_reader_open(ParquetColumnReader **out, ParquetFile *pf, int rg, int col,
			       Arena *arena, floe_error *err);
/* Page CRCs are verified unless verify is false (SET ignore_checksum_failure
 * = on); a reader starts verifying. */
void parquet_column_reader_set_verify(ParquetColumnReader *r, bool verify);
/*
 * Fill out[0..*nread) with the next values (out is a flat vector of the
 * column's SqlType, capacity >= max, initialised by the caller with
 * vector_init).  NULLs clear validity bits (vector_ensure_validity).
 * *nread == 0 at the end of the row group.  String views may point into the
 * file buffer or into page buffers in the reader's arena: a string column's
 * decompressed PLAIN/delta pages and dictionaries stay in that arena until
 * it is reset, other pages reuse one buffer.  out->type must be the
 * column's type (its width is what is written).  A list column's values
 * are rows (one array each, encoded in the reader's arena), however many
 * level entries and pages a row spans.
 */
int parquet_column_read(ParquetColumnReader *r, Vector *out, uint32_t max, uint32_t *nread,
			floe_error *err);
/* Skip the next n values (rows; fewer at the end of the row group). */
int parquet_column_skip(ParquetColumnReader *r, uint64_t n, floe_error *err);

#endif
