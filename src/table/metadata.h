/*
 * metadata.h — Iceberg table metadata (the metadata.json document), format
 * versions 1, 2 and 3: parse, validate, model, serialize.
 *
 * Spec: apache/iceberg format/spec.md, "Table Metadata" and "Snapshots".
 *
 * Everything lives in the arena passed to metadata_parse.  Whatever the
 * model does not hold (unknown keys of the document, of a snapshot, a
 * schema's nested types, a ref's retention settings, encryption keys...)
 * is kept as jansson objects (`extra`, `raw`) whose reference is dropped
 * by an arena reset callback, and written back by metadata_serialize, so a
 * rewrite never loses what another engine wrote.
 *
 * To change metadata: copy it (metadata_copy), edit the model, serialize.
 * Arrays in the model may be replaced by new arena arrays; the `raw`/
 * `extra` pointers of copied elements stay valid (shared, read-only).
 *
 * INTERFACE ROUTINES
 *   metadata_parse(json, len, name, arena, &md, err)   gzip/zstd accepted
 *   metadata_serialize(md, arena)                      -> NUL-terminated JSON
 *   metadata_copy(md, arena)                           shallow-deep copy
 *   metadata_current_schema / metadata_schema_by_id
 *   metadata_current_snapshot / metadata_snapshot_by_id / metadata_snapshot_as_of
 *   metadata_default_spec / metadata_spec_by_id
 *   metadata_summary_get(snap, key)
 *   metadata_add_schema(md, schema, arena) / metadata_set_property(md, k, v, arena)
 *   metadata_name_mapping(md, arena) / name_mapping_id(nm, name)
 *                                                      schema.name-mapping.default
 *   metadata_type_from_iceberg(str, &type, &nested)    "decimal(9,2)" -> SqlType
 *   metadata_type_to_iceberg(type, arena, err)         SqlType -> "decimal(9,2)"
 *   metadata_column_type(f, &last_id, arena, err)      a new column's Iceberg type
 *   metadata_partition_type(md, spec, i, &type)        result type of a transform
 *   schema_to_json(schema, arena)
 *   partition_spec_fields_json(spec, arena)            the fields array, as in
 *                                                      manifest headers
 */
#ifndef FLOE_METADATA_H
#define FLOE_METADATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "table/iceberg.h"

typedef struct MdProp {
	char *key;
	char *value;
} MdProp;

typedef struct PartitionField {
	int32_t source_id;
	int32_t field_id;          /* v1 specs may omit it: assigned 1000, 1001, ... */
	char *name;
	char *transform;           /* "identity", "bucket[16]", "day", ... */
} PartitionField;

typedef struct PartitionSpec {
	int32_t spec_id;
	int nfields;
	PartitionField *fields;
} PartitionSpec;

typedef struct SortField {
	char *transform;
	int32_t source_id;
	char *direction;           /* "asc" / "desc" */
	char *null_order;          /* "nulls-first" / "nulls-last" */
} SortField;

typedef struct SortOrder {
	int32_t order_id;
	int nfields;
	SortField *fields;
} SortOrder;

typedef struct Snapshot {
	int64_t snapshot_id;
	bool has_parent;
	int64_t parent_snapshot_id;
	int64_t sequence_number;   /* 0 in v1 */
	int64_t timestamp_ms;
	char *manifest_list;       /* NULL when a v1 snapshot lists "manifests" */
	int nmanifests_v1;         /* v1 "manifests" list length (unsupported) */
	char **manifests_v1;
	char *operation;           /* summary "operation"; NULL if no summary */
	int nsummary;              /* other summary entries */
	MdProp *summary;
	bool has_schema_id;
	int32_t schema_id;
	bool has_first_row_id;     /* v3 */
	int64_t first_row_id;
	bool has_added_rows;       /* v3 */
	int64_t added_rows;
	void *extra;               /* json_t*: keys not modelled, or NULL */
} Snapshot;

typedef struct SnapshotLogEntry {
	int64_t timestamp_ms;
	int64_t snapshot_id;
} SnapshotLogEntry;

typedef struct MetadataLogEntry {
	int64_t timestamp_ms;
	char *metadata_file;
} MetadataLogEntry;

typedef struct SnapshotRef {
	char *name;
	int64_t snapshot_id;
	char *type;                /* "branch" / "tag" */
	/* retention (spec "Snapshot References"); has_* false: not set */
	bool has_min_snapshots_to_keep;        /* branches */
	int32_t min_snapshots_to_keep;
	bool has_max_snapshot_age_ms;          /* branches */
	int64_t max_snapshot_age_ms;
	bool has_max_ref_age_ms;
	int64_t max_ref_age_ms;
	void *extra;               /* json_t*: keys not modelled */
} SnapshotRef;

typedef struct StatisticsFile {
	int64_t snapshot_id;
	char *statistics_path;
	int64_t file_size_in_bytes;
	void *raw;                 /* json_t*: the whole entry (blob-metadata ...) */
} StatisticsFile;

typedef struct TableMetadata {
	int format_version;        /* 1, 2, 3 */
	char *table_uuid;          /* may be NULL in v1 */
	char *location;
	int64_t last_sequence_number;
	int64_t last_updated_ms;
	int32_t last_column_id;

	int nschemas;
	IcebergSchema *schemas;
	void **schema_raw;         /* json_t* per schema (NULL for new schemas) */
	int32_t current_schema_id;

	int nspecs;
	PartitionSpec *specs;
	int32_t default_spec_id;
	int32_t last_partition_id;

	int nsort_orders;
	SortOrder *sort_orders;
	int32_t default_sort_order_id;

	int nproperties;
	MdProp *properties;

	bool has_current_snapshot;
	int64_t current_snapshot_id;
	int nsnapshots;
	Snapshot *snapshots;
	int nsnapshot_log;
	SnapshotLogEntry *snapshot_log;
	int nmetadata_log;
	MetadataLogEntry *metadata_log;
	int nrefs;
	SnapshotRef *refs;
	int nstatistics;
	StatisticsFile *statistics;

	bool has_next_row_id;      /* v3 */
	int64_t next_row_id;

	void *extra;               /* json_t*: top-level keys not modelled
				      (partition-statistics, encryption-keys, ...) */
} TableMetadata;

int metadata_parse(const char *json, size_t len, const char *name, Arena *a,
		   TableMetadata **out, floe_error *err);
char *metadata_serialize(const TableMetadata *md, Arena *a);
TableMetadata *metadata_copy(const TableMetadata *md, Arena *a);

const IcebergSchema *metadata_current_schema(const TableMetadata *md);
const IcebergSchema *metadata_schema_by_id(const TableMetadata *md, int32_t id);
const Snapshot *metadata_current_snapshot(const TableMetadata *md);
const Snapshot *metadata_snapshot_by_id(const TableMetadata *md, int64_t id);
/* Time travel: the snapshot that was current at timestamp_ms (last
 * snapshot-log entry at or before it; without a log, the newest snapshot
 * by timestamp-ms); NULL if none was. */
const Snapshot *metadata_snapshot_as_of(const TableMetadata *md, int64_t timestamp_ms);
const PartitionSpec *metadata_default_spec(const TableMetadata *md);
const PartitionSpec *metadata_spec_by_id(const TableMetadata *md, int32_t id);
const char *metadata_property(const TableMetadata *md, const char *key);
const char *metadata_summary_get(const Snapshot *s, const char *key);

/* Editing helpers for a metadata_copy: add a schema (given a new unique
 * schema_id; becomes current; last-column-id raised to its max field id),
 * set (value != NULL) or remove (value == NULL) a table property. */
void metadata_add_schema(TableMetadata *md, const IcebergSchema *schema, Arena *a);
void metadata_set_property(TableMetadata *md, const char *key, const char *value, Arena *a);

/* The table's name mapping (property schema.name-mapping.default; spec
 * "Column Projection"): how columns of data files written without field
 * ids map to fields.  Top-level entries only.  NULL when there is none, or
 * when it is not a JSON list (a malformed mapping counts as none). */
typedef struct NameMapping {
	int n;
	int32_t *field_ids;        /* -1: an entry without "field-id" */
	int *nnames;
	char ***names;
} NameMapping;
NameMapping *metadata_name_mapping(const TableMetadata *md, Arena *a);
/* The field id the mapping gives a column name, or -1 (not mapped). */
int32_t name_mapping_id(const NameMapping *nm, const char *name);

int metadata_type_from_iceberg(const char *s, SqlType *type, bool *nested);
char *metadata_type_to_iceberg(SqlType t, Arena *a, floe_error *err);
/* A new column f of type f->type (its id set): f->iceberg_type, and for a
 * one-dimensional array of a type Iceberg stores the list type, its
 * element-id *last_id + 1 (*last_id advanced; element-required false).
 * 0A000 for a type Iceberg cannot hold. */
int metadata_column_type(IcebergField *f, int32_t *last_id, Arena *a, floe_error *err);
int metadata_partition_type(const TableMetadata *md, const PartitionSpec *spec, int i,
			    SqlType *type, floe_error *err);

char *schema_to_json(const IcebergSchema *schema, Arena *a);
char *partition_spec_fields_json(const PartitionSpec *spec, Arena *a);

#endif
