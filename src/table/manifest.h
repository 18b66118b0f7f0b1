/*
 * manifest.h — Iceberg manifests and manifest lists (Avro), format
 * versions 1, 2 and 3, read into and written from the model of iceberg.h.
 *
 * Spec: apache/iceberg format/spec.md, "Manifests" (manifest_entry and
 * data_file field ids), "Manifest Lists" (manifest_file, field_summary),
 * Appendix A (Avro types of partition values).
 *
 * Reading accepts any of v1/v2/v3 whatever the writer (fields are matched
 * by field-id, then by name); missing optional fields read as has_* =
 * false, or -1 for counts.  Sequence numbers left null for inheritance
 * read as has_sequence_number = false: the caller inherits the manifest's.
 * DataFile.spec_id comes from the "partition-spec-id" header key (0 if
 * absent).  Writing produces what Iceberg Java writes (deflate codec,
 * maps as arrays of {key, value} records with logicalType "map").
 *
 * INTERFACE ROUTINES
 *   manifest_write(info, entries, n, a, &data, &len, err)
 *   manifest_read(data, len, name, a, &entries, &n, err)
 *   manifest_check_listed(m, len, entries, n, err)
 *                               a manifest read against its manifest-list
 *                               entry: no fewer entries and rows than
 *                               it records (XX001
 *                               naming the file: a manifest cut at an
 *                               Avro block boundary still decodes)
 *   manifest_read_info(data, len, name, a, &info, &entries, &n, err)   + header
 *   manifest_list_write(version, snapshot_id, has_parent, parent_id, seq,
 *                       manifests, n, a, &data, &len, err)
 *   manifest_list_read(data, len, name, a, &manifests, &n, err)
 *   manifest_partition_summaries(types, nfields, entries, n, a, &summaries, err)
 */
#ifndef FLOE_MANIFEST_H
#define FLOE_MANIFEST_H

#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "table/iceberg.h"

typedef struct ManifestWriteInfo {
	int format_version;                 /* 1, 2 or 3 */
	const char *schema_json;            /* table schema JSON -> header "schema" */
	int32_t schema_id;
	const char *partition_spec_json;    /* JSON array of partition fields (or the
					       spec object; its "fields" are used); NULL:
					       names + field ids of the fields below */
	int32_t spec_id;
	int npartition_fields;
	const char *const *partition_names;
	const int32_t *partition_field_ids;
	const SqlType *partition_types;     /* result types of the partition fields */
	int content;                        /* 0 data, 1 deletes */
} ManifestWriteInfo;

int manifest_write(const ManifestWriteInfo *info, const ManifestEntry *entries, int n, Arena *a,
		   const uint8_t **data, size_t *len, floe_error *err);

int manifest_read(const uint8_t *data, size_t len, const char *name, Arena *a,
		  ManifestEntry **entries, int *n, floe_error *err);
int manifest_check_listed(const ManifestFile *m, size_t len, const ManifestEntry *e, int n, floe_error *err);

/* Header of a manifest as read (strings NULL when the key is absent). */
typedef struct ManifestHeader {
	int format_version;           /* header key (1..3), else guessed from the fields */
	const char *schema_json;
	bool has_schema_id;
	int32_t schema_id;
	const char *partition_spec_json;
	int32_t spec_id;
	int content;                  /* 0 data, 1 deletes (no key: from the entries) */
	int npartition_fields;        /* the partition struct of the Avro schema */
	const char **partition_names;
	int32_t *partition_field_ids;
	SqlType *partition_types;
} ManifestHeader;

int manifest_read_info(const uint8_t *data, size_t len, const char *name, Arena *a,
		       ManifestHeader **header, ManifestEntry **entries, int *n, floe_error *err);

/* Header keys snapshot-id, parent-snapshot-id ("null" without a parent),
 * sequence-number (v2+), format-version; v3 also first-row-id = the
 * smallest first_row_id of the manifests added by this snapshot, if any. */
int manifest_list_write(int format_version, int64_t snapshot_id, bool has_parent,
			int64_t parent_snapshot_id, int64_t sequence_number,
			const ManifestFile *manifests, int n, Arena *a, const uint8_t **data,
			size_t *len, floe_error *err);

int manifest_list_read(const uint8_t *data, size_t len, const char *name, Arena *a,
		       ManifestFile **manifests, int *n, floe_error *err);

/* The manifests a snapshot's list names (snap's manifest_list, read into
 * m[0..n)) against the totals its summary records: a list cut at an Avro
 * block boundary decodes cleanly without its last manifests, and only the
 * totals show it.  XX001 naming the list when the live (added + existing)
 * files or rows the list counts are fewer than total-data-files,
 * total-records, total-delete-files or total-position-deletes +
 * total-equality-deletes; a total that is absent (they are optional) or a
 * count the list does not know (-1) is not checked, nor more than
 * recorded (as manifest_check_listed). */
struct Snapshot;
int manifest_list_check_summary(const struct Snapshot *snap, const ManifestFile *m, int n,
				floe_error *err);

/* The manifest list's field_summary (one per partition field) of a
 * manifest's entries: contains_null, contains_nan (always present; true
 * only for a float NaN), and lower/upper bounds in the single-value
 * serialization of Appendix D (NaN excluded; not truncated). */
int manifest_partition_summaries(const SqlType *types, int nfields, const ManifestEntry *entries,
				 int n, Arena *a, FieldSummary **summaries, floe_error *err);

#endif
