/*
 * iceberg.h — the Iceberg model shared across table/ (and read by exec/
 * through table/'s interfaces): schema fields, data/delete files with their
 * column statistics, manifest entries and manifest-list entries.
 *
 * Spec: apache/iceberg format/spec.md ("Schemas and Data Types",
 * "Manifests", "Manifest Lists").  Field names follow the spec's.
 *
 * Everything here is plain data allocated in an arena; the functions that
 * read and write these structures live in metadata.h (table metadata
 * JSON), manifest.h (Avro manifests and manifest lists) and writer.h.
 *
 * Bounds (lower/upper) hold the spec's single-value binary serialization
 * ("Appendix D: Single-value serialization"): little-endian ints/longs/
 * floats/doubles/dates/times/timestamps, UTF-8 bytes for strings, big-endian
 * two's-complement minimal bytes for decimals, 16 big-endian bytes for uuid.
 */
#ifndef FLOE_ICEBERG_H
#define FLOE_ICEBERG_H

#include <stdbool.h>
#include <stdint.h>
#include "types/types.h"
#include "types/value.h"

/* One top-level column of a table schema. */
typedef struct IcebergField {
	int32_t id;
	char *name;
	bool required;
	SqlType type;          /* floe's type for a primitive field */
	char *iceberg_type;    /* the spec's type string: "long", "decimal(9,2)",
				  "timestamptz", or "struct"/"list"/"map" */
	bool nested;           /* struct/map/list (but a list of a primitive:
				  nested_type): not readable yet (0A000) */
	char *doc;             /* may be NULL */
	char *default_sql;     /* floe: column DEFAULT as SQL text, or NULL */
	char identity;         /* floe: 'a' GENERATED ALWAYS / 'd' BY DEFAULT AS
				  IDENTITY (default_sql is its nextval), 0 none */
	Value *initial_default;/* v3 "initial-default": the value of rows written
				  before the field existed; NULL = none (null) */
	Value *write_default;  /* v3 "write-default": the value writers give a
				  row that does not set the field; NULL = none */
	void *nested_type;     /* json_t*: a nested field's type as read (kept
				  when a new schema is built from this one); also
				  set for a list of a primitive, read as an array
				  (type TYPE_ARRAY, nested false) */
	int32_t element_id;    /* an array column (a list of a primitive): its
				  "element-id"; written from the model when
				  nested_type is NULL (a column floe added) */
	bool element_required; /* such a list: its "element-required" */
} IcebergField;

typedef struct IcebergSchema {
	int32_t schema_id;
	int nfields;
	IcebergField *fields;
	int nidentifier;
	int32_t *identifier_field_ids;
} IcebergSchema;

/* Reserved field ids (spec "Reserved Field IDs"): v3 row lineage columns,
 * written in data files when rows keep their lineage across a rewrite. */
#define ICEBERG_FIELD_ROW_ID 2147483540
#define ICEBERG_FIELD_LAST_UPDATED_SEQ 2147483539

typedef enum FileContent {
	CONTENT_DATA = 0,
	CONTENT_POSITION_DELETES = 1,
	CONTENT_EQUALITY_DELETES = 2
} FileContent;

/* Per-column metrics of a data file, keyed by field id; -1 = unknown. */
typedef struct ColumnStat {
	int32_t field_id;
	int64_t column_size;
	int64_t value_count;
	int64_t null_count;
	int64_t nan_count;
	uint8_t *lower;        /* NULL = no bound */
	uint32_t lower_len;
	uint8_t *upper;
	uint32_t upper_len;
} ColumnStat;

typedef struct DataFile {
	FileContent content;
	char *file_path;
	char *file_format;         /* "PARQUET", "AVRO", "ORC", "PUFFIN" */
	int32_t spec_id;
	int npartition;            /* partition tuple, one Value per spec field */
	Value *partition;
	int64_t record_count;
	int64_t file_size_in_bytes;
	int ncolumns;
	ColumnStat *columns;
	int nsplit_offsets;
	int64_t *split_offsets;
	int nequality_ids;
	int32_t *equality_ids;
	bool has_sort_order_id;
	int32_t sort_order_id;
	/* v3 */
	bool has_first_row_id;
	int64_t first_row_id;
	char *referenced_data_file;
	bool has_content_offset;
	int64_t content_offset;
	int64_t content_size_in_bytes;
	uint8_t *key_metadata;         /* encryption key metadata (131), NULL = none */
	uint32_t key_metadata_len;
	/* Scan planning only (table_scan_files fills them; not in manifests):
	 * the data sequence number of this file, and the live delete files
	 * (position deletes, equality deletes, deletion vectors) that apply
	 * to it by the spec's sequence-number rules.  0 / NULL: none. */
	int64_t data_sequence_number;
	int ndeletes;
	struct DataFile **deletes;
	/* A server-side file a statement names (read_parquet, COPY FROM ...
	 * (FORMAT parquet)): its bytes, read when the path was checked
	 * (sql/acl.h acl_read_file: opened confined), so the scan parses
	 * these instead of opening file_path again.  NULL: read file_path. */
	const uint8_t *bytes;
	size_t nbytes;
} DataFile;

typedef enum EntryStatus {
	ENTRY_EXISTING = 0,
	ENTRY_ADDED = 1,
	ENTRY_DELETED = 2
} EntryStatus;

typedef struct ManifestEntry {
	EntryStatus status;
	bool has_snapshot_id;
	int64_t snapshot_id;
	bool has_sequence_number;      /* data sequence number */
	int64_t sequence_number;
	bool has_file_sequence_number;
	int64_t file_sequence_number;
	DataFile file;
} ManifestEntry;

typedef struct FieldSummary {
	bool contains_null;
	bool has_contains_nan;
	bool contains_nan;
	uint8_t *lower;
	uint32_t lower_len;
	uint8_t *upper;
	uint32_t upper_len;
} FieldSummary;

/* One entry of a manifest list. */
typedef struct ManifestFile {
	char *manifest_path;
	int64_t manifest_length;
	int32_t partition_spec_id;
	int32_t content;               /* 0 data, 1 deletes */
	int64_t sequence_number;
	int64_t min_sequence_number;
	int64_t added_snapshot_id;
	int32_t added_files_count;
	int32_t existing_files_count;
	int32_t deleted_files_count;
	int64_t added_rows_count;
	int64_t existing_rows_count;
	int64_t deleted_rows_count;
	int npartitions;
	FieldSummary *partitions;
	bool has_first_row_id;         /* v3 */
	int64_t first_row_id;
	uint8_t *key_metadata;         /* encryption key metadata (519), NULL = none */
	uint32_t key_metadata_len;
} ManifestFile;

#endif
