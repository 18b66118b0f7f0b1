/*
 * partition_stats.h — a snapshot's partition statistics file (apache/
 * iceberg format/spec.md "Partition Statistics" and "Partition Statistics
 * File"), written by ANALYZE of a partitioned table.
 *
 * The file is Parquet, one row per partition tuple of the snapshot's live
 * data files, sorted by the tuple (ascending, NULLs first), with the
 * spec's columns and field ids:
 *   1 partition (required struct: the unified partition type, every field
 *     of every spec of the table by field id ascending, each optional, a
 *     file's tuple NULL in the fields its spec lacks), 2 spec_id (the
 *     newest spec of the partition's files), 3 data_record_count,
 *   4 data_file_count, 5 total_data_file_size_in_bytes,
 *   6 position_delete_record_count (position delete files and deletion
 *     vectors), 7 position_delete_file_count (files, not vectors),
 *   13 dv_count (v3 tables only), 8 equality_delete_record_count,
 *   9 equality_delete_file_count, 10 total_record_count (data records minus
 *     deletion vectors' when the partition has no equality or v2 position
 *     delete files, else NULL as the spec allows), 11 last_updated_at and
 *   12 last_updated_snapshot_id (NULL: not computed).
 * Counts 6-9 are required in v3, optional (but always written) before.
 * A delete file counts in the partition of its own tuple, once however
 * many data files it applies to.
 *
 * partition_stats_set is the spec's set-partition-statistics update on
 * the metadata's "partition-statistics" list (kept as JSON in md->extra):
 * it replaces the entry of the same snapshot (returning the replaced
 * file's path) or adds one.
 *
 * INTERFACE ROUTINES
 *   partition_stats_write(io, md, snapshot_id, files, nfiles, a, &out, err)
 *        FLOE_OK with out->path NULL when the table has no partition field
 *   partition_stats_set(md, ps, a) -> replaced path or NULL
 */
#ifndef FLOE_TABLE_PARTITION_STATS_H
#define FLOE_TABLE_PARTITION_STATS_H

#include "storage/fileio.h"
#include "table/iceberg.h"
#include "table/metadata.h"

typedef struct PartitionStatsFile {
	int64_t snapshot_id;
	const char *path;          /* NULL: none written */
	int64_t file_size_in_bytes;
	int nrows;                 /* partitions */
} PartitionStatsFile;

int partition_stats_write(FileIO *io, const TableMetadata *md, int64_t snapshot_id,
			  const DataFile *files, int nfiles, Arena *a, PartitionStatsFile *out,
			  floe_error *err);
const char *partition_stats_set(TableMetadata *md, const PartitionStatsFile *ps, Arena *a);

#endif
