/*
 * table_stats.h — a table's statistics files (apache/iceberg format/spec.md
 * "Table Statistics", format/puffin-spec.md): Puffin files of
 * apache-datasketches-theta-v1 NDV blobs, one file per snapshot, listed in
 * the metadata's "statistics" (snapshot-id, statistics-path,
 * file-size-in-bytes, file-footer-size-in-bytes, blob-metadata).
 *
 * Reading: table_stats_list gives one row per blob of every statistics
 * file, from the metadata's blob-metadata (type, fields, properties.ndv),
 * and for a theta blob the estimate of the sketch itself, read from the
 * Puffin file (matched by type, snapshot-id and fields, as the metadata's
 * blob-metadata carries no offsets).  Files other engines wrote read the
 * same way (Trino's zstd-compressed blobs too).
 *
 * Writing (ANALYZE): table_stats_write writes <metadata dir>/<snapshot
 * id>-<uuid>.stats with one uncompressed theta blob per column (property
 * ndv = the rounded estimate) and fills the StatisticsFile entry;
 * table_stats_set is the spec's set-statistics update: it replaces the
 * entry of the same snapshot (returning the replaced file's path) or adds
 * one.  The snapshot is unchanged.
 *
 * INTERFACE ROUTINES
 *   table_stats_list(io, md, a, &rows, &n, err)
 *   table_stats_write(io, md, snapshot_id, seq, cols, ncols, a, &entry, err)
 *   table_stats_set(md, entry, a) -> replaced path or NULL
 *   table_stats_ndv(md, snapshot_id, field_id, &ndv)   the ndv property, if any
 *   table_stats_planner_ndv(md, snapshot_id, field_id, rows, &ndv)
 *                          the distinct count the planner uses (below)
 *
 * The planner's distinct count of a column read at snapshot S (-1: the
 * current one) with an estimated `rows` rows: the ndv property of the
 * statistics file of S, else of S's nearest ancestor that has one (the
 * table moved on since ANALYZE: appends, deletes).  An ancestor's count is
 * scaled by the rows then and now (the snapshots' total-records) when it
 * was more than a tenth of the rows then (a key-like column grows with the
 * table), else kept as it is (a category-like column does not), as
 * PostgreSQL's n_distinct is a fraction or a count by the same 10% rule.
 * Capped at `rows` when rows >= 0.  Statistics of a snapshot that is not S
 * or an ancestor of it (a later snapshot under time travel, another
 * branch) are not used: false, and the planner keeps its own guess.
 */
#ifndef FLOE_TABLE_STATS_H
#define FLOE_TABLE_STATS_H

#include "storage/fileio.h"
#include "table/metadata.h"
#include "table/theta.h"

typedef struct StatsRow {
	int64_t snapshot_id;
	const char *statistics_path;
	const char *blob_type;
	int32_t field_id;            /* the blob's first field */
	bool has_ndv;
	int64_t ndv;                 /* properties.ndv */
	bool has_estimate;
	double estimate;             /* the theta sketch's own estimate */
} StatsRow;

typedef struct StatsColumn {
	int32_t field_id;
	ThetaSketch *sketch;
} StatsColumn;

int table_stats_list(FileIO *io, const TableMetadata *md, Arena *a, StatsRow **rows, int *n,
		     floe_error *err);
int table_stats_write(FileIO *io, const TableMetadata *md, int64_t snapshot_id, int64_t seq,
		      const StatsColumn *cols, int ncols, Arena *a, StatisticsFile *out,
		      floe_error *err);
const char *table_stats_set(TableMetadata *md, const StatisticsFile *sf, Arena *a);
bool table_stats_ndv(const TableMetadata *md, int64_t snapshot_id, int32_t field_id, int64_t *ndv);
bool table_stats_planner_ndv(const TableMetadata *md, int64_t snapshot_id, int32_t field_id,
			     double rows, double *ndv);

#endif
