/*
 * data_writer.h — the Iceberg data-file writer used by INSERT: a stream of
 * Batches (one vector per top-level schema field, in schema order) becomes
 * Parquet files under a data folder, rolled at a target size, each described
 * by a DataFile (iceberg.h) with Iceberg column metrics.
 *
 * Spec: apache/iceberg format/spec.md — "Manifests" (data_file fields,
 * column_sizes, value_counts, null_value_counts, nan_value_counts,
 * lower_bounds, upper_bounds, split_offsets), "Appendix D: Single-value
 * serialization", and Iceberg's default metrics mode truncate(16).
 *
 * Files are named "<data_dir>/<uuid-v4>-<n>.parquet" (one random uuid per
 * writer, n = 0, 1, ...) and written through FileIO (create-only).  Nothing
 * is registered anywhere: the caller commits the returned DataFiles, or
 * calls data_writer_abort to remove the files written so far.
 *
 * DataFile fields filled: content DATA, file_path, file_format "PARQUET",
 * record_count, file_size_in_bytes, columns (one ColumnStat per schema
 * field: column_size, value_count, null_count, nan_count (-1 except float
 * and double), lower/upper bounds), split_offsets (row-group starts).
 * spec_id 0 and no partition tuple unless data_writer_set_spec gave a
 * partitioned spec.
 *
 * INTERFACE ROUTINES
 *   data_writer_new(io, data_dir, schema, target_file_size, arena)
 *   data_writer_set_options(w, parquet_options)   codec, row groups (tests)
 *   data_writer_set_property(w, key, value, err)  Iceberg write.* table properties
 *   data_writer_set_table_properties(w, md, err)  all of a table's write.* ones
 *   data_writer_set_spec(w, spec, err)           partitioned writes (fan-out)
 *   data_writer_write(w, batch, err)
 *   data_writer_finish(w, &files, &nfiles, err)   DataFiles in w's arena
 *   data_writer_finish_append(w, arena, &all, &n, err)   the same, appended
 *                                                 to an array of earlier ones
 *   data_writer_abort(w)                          remove written files
 *   data_writer_free(w)
 *   data_writer_bound(type, value, upper, arena, &bytes, &len)
 */
#ifndef FLOE_DATA_WRITER_H
#define FLOE_DATA_WRITER_H

#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/parquet/parquet_write.h"
#include "storage/fileio.h"
#include "table/iceberg.h"
#include "types/vector.h"

#define DATA_WRITER_DEFAULT_TARGET ((int64_t)512 << 20)
#define DATA_WRITER_TRUNCATE 16

typedef struct DataWriter DataWriter;

/* target_file_size <= 0 means DATA_WRITER_DEFAULT_TARGET.  The schema and
 * data_dir are copied.  Everything returned lives in arena. */
DataWriter *data_writer_new(FileIO *io, const char *data_dir, const IcebergSchema *schema,
			    int64_t target_file_size, Arena *arena);
void data_writer_set_options(DataWriter *w, const ParquetWriteOptions *opts);
/*
 * Apply one Iceberg table property (call before the first write; unknown
 * keys are ignored; a bad value is 22023):
 *   write.target-file-size-bytes, write.parquet.row-group-size-bytes,
 *   write.parquet.page-size-bytes, write.parquet.dict-size-bytes,
 *   write.parquet.compression-codec (zstd, snappy, gzip, brotli, lz4 (written
 *   as LZ4_RAW), uncompressed), write.parquet.compression-level,
 *   write.metadata.metrics.default and write.metadata.metrics.column.<name>
 *   (none, counts, truncate(N), full).  As Iceberg Java, columns past the
 *   first 100 default to "none"; a column property wins over the default.
 */
int data_writer_set_property(DataWriter *w, const char *key, const char *value, floe_error *err);
/* Is key one of the properties data_writer_set_property acts on? */
bool data_writer_property_known(const char *key);
/* Every write.* property of a table's metadata (data_writer_set_property). */
struct TableMetadata;
int data_writer_set_table_properties(DataWriter *w, const struct TableMetadata *md, floe_error *err);
/*
 * Partitioned writes: each row's partition tuple is computed from spec's
 * transforms (identity, bucket[N], truncate[W], year, month, day, hour,
 * void — spec "Partition Transforms") over the batch's columns (matched
 * by source field id in the writer's schema), rows are routed to one
 * open file per partition tuple, and every returned DataFile carries
 * spec_id and its partition tuple (npartition / partition).  Call before
 * the first write; NULL or a spec without fields keeps one stream (whose
 * files carry that spec's id).  The
 * spec is copied.  0A000 for a transform floe cannot evaluate (or a
 * source type the transform is not defined for).  At most 128 files
 * (DATA_WRITER_MAX_OPEN in data_writer.c) are open at once: the smallest
 * is finished to open another, so a partition may get several files.
 */
struct PartitionSpec;
int data_writer_set_spec(DataWriter *w, const struct PartitionSpec *spec, floe_error *err);
int data_writer_write(DataWriter *w, const Batch *b, floe_error *err);
int data_writer_finish(DataWriter *w, DataFile **files, int *nfiles, floe_error *err);
/* data_writer_finish, its files then appended to (*all)[0..*n): *all becomes
 * a new array in arena (the earlier files first); unchanged on failure.
 * For a statement that finishes a writer and starts another (a sorted
 * run per file) but commits all their files. */
int data_writer_finish_append(DataWriter *w, Arena *arena, DataFile **all, int *n,
			      floe_error *err);
void data_writer_abort(DataWriter *w);
void data_writer_free(DataWriter *w);

/*
 * Iceberg single-value serialization of a lower (upper=false) or upper
 * bound, with truncate(16) for strings (code points) and binary (bytes).
 * Returns false when there is no bound (an upper bound that cannot be
 * incremented after truncation).  A float/double zero becomes -0.0 as a
 * lower and +0.0 as an upper bound (Parquet's statistics rule), so pruning
 * never drops a row equal to either zero.
 */
bool data_writer_bound(SqlType type, const Value *v, bool upper, Arena *arena,
		       uint8_t **bytes, uint32_t *len);

#endif
