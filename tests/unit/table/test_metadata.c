/*
 * test_metadata.c — Iceberg table metadata JSON: every document of
 * ../shared/testdata/iceberg-metadata (verdicts from its MANIFEST.md, which
 * quotes the upstream test suites) and every metadata file of the real
 * tables in ../shared/testdata/iceberg-tables must parse or be rejected as
 * the MANIFEST says; valid ones round-trip (serialize -> parse gives the
 * same model, and a second serialize gives the same bytes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "common/arena.h"
#include "common/error.h"
#include "table/metadata.h"

static const char *
shared(void)
{
	const char *s = getenv("FLOE_SHARED");
	return s && *s ? s : "../shared";
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int
parse_file(const char *path, Arena *a, TableMetadata **md, floe_error *err)
{
	size_t len = 0;
	char *buf = slurp(path, &len);
	int rc;

	if (!buf)
		fail_msg("cannot read %s", path);
	rc = metadata_parse(buf, len, path, a, md, err);
	free(buf);
	return rc;
}

static bool
str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* The model of two parses must agree field by field. */
static void
assert_same_model(const TableMetadata *x, const TableMetadata *y)
{
	int i, j;

	assert_int_equal(x->format_version, y->format_version);
	assert_true(str_eq(x->table_uuid, y->table_uuid));
	assert_true(str_eq(x->location, y->location));
	assert_true(x->last_sequence_number == y->last_sequence_number);
	assert_true(x->last_updated_ms == y->last_updated_ms);
	assert_int_equal(x->last_column_id, y->last_column_id);
	assert_int_equal(x->nschemas, y->nschemas);
	assert_int_equal(x->current_schema_id, y->current_schema_id);
	for (i = 0; i < x->nschemas; i++) {
		const IcebergSchema *a = &x->schemas[i], *b = &y->schemas[i];
		assert_int_equal(a->schema_id, b->schema_id);
		assert_int_equal(a->nfields, b->nfields);
		assert_int_equal(a->nidentifier, b->nidentifier);
		for (j = 0; j < a->nidentifier; j++)
			assert_int_equal(a->identifier_field_ids[j], b->identifier_field_ids[j]);
		for (j = 0; j < a->nfields; j++) {
			assert_int_equal(a->fields[j].id, b->fields[j].id);
			assert_true(str_eq(a->fields[j].name, b->fields[j].name));
			assert_true(str_eq(a->fields[j].iceberg_type, b->fields[j].iceberg_type));
			assert_true(str_eq(a->fields[j].doc, b->fields[j].doc));
			assert_int_equal(a->fields[j].required, b->fields[j].required);
			assert_int_equal(a->fields[j].nested, b->fields[j].nested);
			assert_true(type_equal(a->fields[j].type, b->fields[j].type));
		}
	}
	assert_int_equal(x->nspecs, y->nspecs);
	assert_int_equal(x->default_spec_id, y->default_spec_id);
	assert_int_equal(x->last_partition_id, y->last_partition_id);
	for (i = 0; i < x->nspecs; i++) {
		assert_int_equal(x->specs[i].spec_id, y->specs[i].spec_id);
		assert_int_equal(x->specs[i].nfields, y->specs[i].nfields);
		for (j = 0; j < x->specs[i].nfields; j++) {
			const PartitionField *a = &x->specs[i].fields[j], *b = &y->specs[i].fields[j];
			assert_int_equal(a->source_id, b->source_id);
			assert_int_equal(a->field_id, b->field_id);
			assert_true(str_eq(a->name, b->name));
			assert_true(str_eq(a->transform, b->transform));
		}
	}
	assert_int_equal(x->nsort_orders, y->nsort_orders);
	assert_int_equal(x->default_sort_order_id, y->default_sort_order_id);
	for (i = 0; i < x->nsort_orders; i++) {
		assert_int_equal(x->sort_orders[i].order_id, y->sort_orders[i].order_id);
		assert_int_equal(x->sort_orders[i].nfields, y->sort_orders[i].nfields);
		for (j = 0; j < x->sort_orders[i].nfields; j++) {
			assert_true(str_eq(x->sort_orders[i].fields[j].transform,
					   y->sort_orders[i].fields[j].transform));
			assert_int_equal(x->sort_orders[i].fields[j].source_id,
					 y->sort_orders[i].fields[j].source_id);
			assert_true(str_eq(x->sort_orders[i].fields[j].direction,
					   y->sort_orders[i].fields[j].direction));
			assert_true(str_eq(x->sort_orders[i].fields[j].null_order,
					   y->sort_orders[i].fields[j].null_order));
		}
	}
	assert_int_equal(x->nproperties, y->nproperties);
	for (i = 0; i < x->nproperties; i++) {
		assert_true(str_eq(x->properties[i].key, y->properties[i].key));
		assert_true(str_eq(x->properties[i].value, y->properties[i].value));
	}
	assert_int_equal(x->has_current_snapshot, y->has_current_snapshot);
	if (x->has_current_snapshot)
		assert_true(x->current_snapshot_id == y->current_snapshot_id);
	assert_int_equal(x->nsnapshots, y->nsnapshots);
	for (i = 0; i < x->nsnapshots; i++) {
		const Snapshot *a = &x->snapshots[i], *b = &y->snapshots[i];
		assert_true(a->snapshot_id == b->snapshot_id);
		assert_int_equal(a->has_parent, b->has_parent);
		if (a->has_parent)
			assert_true(a->parent_snapshot_id == b->parent_snapshot_id);
		assert_true(a->sequence_number == b->sequence_number);
		assert_true(a->timestamp_ms == b->timestamp_ms);
		assert_true(str_eq(a->manifest_list, b->manifest_list));
		assert_int_equal(a->nmanifests_v1, b->nmanifests_v1);
		assert_true(str_eq(a->operation, b->operation));
		assert_int_equal(a->nsummary, b->nsummary);
		for (j = 0; j < a->nsummary; j++) {
			assert_true(str_eq(a->summary[j].key, b->summary[j].key));
			assert_true(str_eq(a->summary[j].value, b->summary[j].value));
		}
		assert_int_equal(a->has_schema_id, b->has_schema_id);
		assert_int_equal(a->schema_id, b->schema_id);
		assert_int_equal(a->has_first_row_id, b->has_first_row_id);
		assert_true(a->first_row_id == b->first_row_id);
		assert_int_equal(a->has_added_rows, b->has_added_rows);
		assert_true(a->added_rows == b->added_rows);
	}
	assert_int_equal(x->nsnapshot_log, y->nsnapshot_log);
	for (i = 0; i < x->nsnapshot_log; i++) {
		assert_true(x->snapshot_log[i].snapshot_id == y->snapshot_log[i].snapshot_id);
		assert_true(x->snapshot_log[i].timestamp_ms == y->snapshot_log[i].timestamp_ms);
	}
	assert_int_equal(x->nmetadata_log, y->nmetadata_log);
	for (i = 0; i < x->nmetadata_log; i++) {
		assert_true(str_eq(x->metadata_log[i].metadata_file, y->metadata_log[i].metadata_file));
		assert_true(x->metadata_log[i].timestamp_ms == y->metadata_log[i].timestamp_ms);
	}
	assert_int_equal(x->nrefs, y->nrefs);
	for (i = 0; i < x->nrefs; i++) {
		assert_true(str_eq(x->refs[i].name, y->refs[i].name));
		assert_true(str_eq(x->refs[i].type, y->refs[i].type));
		assert_true(x->refs[i].snapshot_id == y->refs[i].snapshot_id);
	}
	assert_int_equal(x->nstatistics, y->nstatistics);
	for (i = 0; i < x->nstatistics; i++) {
		assert_true(x->statistics[i].snapshot_id == y->statistics[i].snapshot_id);
		assert_true(str_eq(x->statistics[i].statistics_path, y->statistics[i].statistics_path));
	}
	assert_int_equal(x->has_next_row_id, y->has_next_row_id);
	assert_true(x->next_row_id == y->next_row_id);
}

/* parse -> serialize -> parse -> serialize: same model, same bytes. */
static const TableMetadata *
check_valid(const char *path, Arena *a)
{
	floe_error err;
	TableMetadata *md, *md2, *md3;
	char *s1, *s2;

	floe_error_clear(&err);
	if (parse_file(path, a, &md, &err) != FLOE_OK)
		fail_msg("%s should parse: %s", path, err.message);
	s1 = metadata_serialize(md, a);
	if (metadata_parse(s1, strlen(s1), "round-trip", a, &md2, &err) != FLOE_OK)
		fail_msg("%s: serialized form does not parse: %s\n%s", path, err.message, s1);
	assert_same_model(md, md2);
	s2 = metadata_serialize(md2, a);
	assert_string_equal(s1, s2);
	/* a copy serializes the same */
	md3 = metadata_copy(md2, a);
	assert_string_equal(metadata_serialize(md3, a), s1);
	return md;
}

static void
check_invalid(const char *path)
{
	Arena *a = arena_new(0);
	floe_error err;
	TableMetadata *md = NULL;

	floe_error_clear(&err);
	if (parse_file(path, a, &md, &err) == FLOE_OK)
		fail_msg("%s should be rejected", path);
	assert_string_equal(err.sqlstate, "XX001");
	assert_non_null(strstr(err.message, path));
	arena_free(a);
}

static const char *valid_files[] = {
	"apache-iceberg/TableMetadataV1Valid.json",
	"apache-iceberg/TableMetadataV2Valid.json",
	"apache-iceberg/TableMetadataV2ValidMinimal.json",
	"apache-iceberg/TableMetadataV3ValidMinimal.json",
	"apache-iceberg/TableMetadataStatisticsFiles.json",
	"apache-iceberg/TableMetadataPartitionStatisticsFiles.json",
	"iceberg-rust/TableMetadataV1Compat.json",
	"iceberg-rust/TableMetadataV1PartitionSpecsWithoutDefaultId.json",
	"iceberg-rust/TableMetadataV1SchemasWithoutCurrentId.json",
	"iceberg-rust/TableMetadataV3ValidEncryption.json",
	"iceberg-go/TableMetadataV2Valid.zstd.metadata.json",
	"duckdb-iceberg/custom_write_paths.00000-acdf842e-3a9d-4b9b-ad87-daf785831925.metadata.json",
	"duckdb-iceberg/timestamptz_ns.v1.metadata.json",
};

static const char *invalid_files[] = {
	"apache-iceberg/TableMetadataUnsupportedVersion.json",
	"apache-iceberg/TableMetadataV1MissingSchemaType.json",
	"apache-iceberg/TableMetadataV2CurrentSchemaNotFound.json",
	"apache-iceberg/TableMetadataV2MissingLastPartitionId.json",
	"apache-iceberg/TableMetadataV2MissingPartitionSpecs.json",
	"apache-iceberg/TableMetadataV2MissingSchemas.json",
	"apache-iceberg/TableMetadataV2MissingSortOrder.json",
	"iceberg-rust/TableMetadataV1NoValidSchema.json",
	"duckdb-iceberg/bad_iceberg_metadata.json",
};

static void
test_metadata__valid_documents(void **state)
{
	size_t i;
	char path[1024];

	for (i = 0; i < sizeof valid_files / sizeof valid_files[0]; i++) {
		Arena *a = arena_new(0);
		snprintf(path, sizeof path, "%s/testdata/iceberg-metadata/%s", shared(), valid_files[i]);
		check_valid(path, a);
		arena_free(a);
	}
}

static void
test_metadata__invalid_documents(void **state)
{
	size_t i;
	char path[1024];

	for (i = 0; i < sizeof invalid_files / sizeof invalid_files[0]; i++) {
		snprintf(path, sizeof path, "%s/testdata/iceberg-metadata/%s", shared(),
			 invalid_files[i]);
		check_invalid(path);
	}
}

static const TableMetadata *
load_one(const char *rel, Arena *a)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/testdata/iceberg-metadata/%s", shared(), rel);
	return check_valid(path, a);
}

/* What the upstream suites assert about the content. */
static void
test_metadata__upstream_assertions(void **state)
{
	Arena *a = arena_new(0);
	const TableMetadata *md;
	const IcebergSchema *s;
	const Snapshot *snap;

	md = load_one("apache-iceberg/TableMetadataV2Valid.json", a);
	assert_int_equal(md->format_version, 2);
	assert_string_equal(md->table_uuid, "9c12d441-03fe-4693-9a96-a0705ddf69c1");
	assert_int_equal(md->last_sequence_number, 34);
	assert_int_equal(md->nschemas, 2);
	assert_int_equal(metadata_schema_by_id(md, 0)->nidentifier, 0);
	s = metadata_current_schema(md);
	assert_int_equal(s->schema_id, 1);
	assert_int_equal(s->nidentifier, 2);
	assert_int_equal(s->identifier_field_ids[0], 1);
	assert_int_equal(s->identifier_field_ids[1], 2);
	assert_int_equal(s->fields[0].type.id, TYPE_INT64);
	assert_string_equal(s->fields[1].doc, "comment");
	snap = metadata_current_snapshot(md);
	assert_non_null(snap);
	assert_true(snap->snapshot_id == 3055729675574597004LL);
	assert_true(snap->parent_snapshot_id == 3051729675574597004LL);
	assert_string_equal(snap->manifest_list, "s3://a/b/2.avro");
	assert_string_equal(snap->operation, "append");
	assert_int_equal(md->default_sort_order_id, 3);
	assert_string_equal(md->sort_orders[0].fields[1].transform, "bucket[4]");
	assert_int_equal(md->nsnapshot_log, 2);
	assert_null(metadata_snapshot_as_of(md, 1515100955769LL));
	assert_true(metadata_snapshot_as_of(md, 1515100955770LL)->snapshot_id == 3051729675574597004LL);
	assert_true(metadata_snapshot_as_of(md, 1555100955769LL)->snapshot_id == 3051729675574597004LL);
	assert_true(metadata_snapshot_as_of(md, 1555100955770LL)->snapshot_id == 3055729675574597004LL);

	md = load_one("apache-iceberg/TableMetadataV2ValidMinimal.json", a);
	assert_int_equal(md->nsnapshots, 0);
	assert_int_equal(md->nproperties, 0);
	assert_int_equal(md->nmetadata_log, 0);
	assert_null(metadata_current_snapshot(md));

	md = load_one("apache-iceberg/TableMetadataV1Valid.json", a);
	assert_int_equal(md->format_version, 1);
	assert_int_equal(md->nschemas, 1);
	assert_int_equal(metadata_current_schema(md)->nfields, 3);
	assert_int_equal(metadata_default_spec(md)->nfields, 1);
	assert_int_equal(metadata_default_spec(md)->fields[0].field_id, 1000);
	assert_null(metadata_current_snapshot(md));

	md = load_one("apache-iceberg/TableMetadataV3ValidMinimal.json", a);
	assert_int_equal(md->format_version, 3);
	assert_true(md->has_next_row_id);

	md = load_one("apache-iceberg/TableMetadataStatisticsFiles.json", a);
	assert_int_equal(md->nstatistics, 1);
	assert_true(md->statistics[0].snapshot_id == md->current_snapshot_id);

	md = load_one("iceberg-rust/TableMetadataV1Compat.json", a);
	assert_int_equal(md->format_version, 1);
	assert_string_equal(md->table_uuid, "3276010d-7b1d-488c-98d8-9025fc4fde6b");
	assert_int_equal(md->nrefs, 1);
	assert_string_equal(md->refs[0].name, "main");

	md = load_one("iceberg-rust/TableMetadataV1PartitionSpecsWithoutDefaultId.json", a);
	assert_string_equal(metadata_default_spec(md)->fields[0].name, "y");

	md = load_one("iceberg-rust/TableMetadataV1SchemasWithoutCurrentId.json", a);
	assert_non_null(metadata_current_schema(md));

	md = load_one("iceberg-go/TableMetadataV2Valid.zstd.metadata.json", a);
	assert_int_equal(md->format_version, 2);

	md = load_one("duckdb-iceberg/custom_write_paths.00000-acdf842e-3a9d-4b9b-ad87-daf785831925.metadata.json", a);
	assert_non_null(metadata_property(md, "write.data.path"));
	assert_non_null(metadata_property(md, "write.metadata.path"));
	assert_string_equal(md->location, "data/persistent/custom_write_paths");

	md = load_one("duckdb-iceberg/timestamptz_ns.v1.metadata.json", a);
	assert_int_equal(md->format_version, 3);
	assert_int_equal(metadata_default_spec(md)->nfields, 4);
	arena_free(a);
}

/* Unknown keys survive a rewrite (encryption-keys, partition-statistics,
 * initial-default of a field, statistics blob metadata). */
static void
test_metadata__pass_through(void **state)
{
	Arena *a = arena_new(0);
	const TableMetadata *md;
	char *s;

	md = load_one("iceberg-rust/TableMetadataV3ValidEncryption.json", a);
	s = metadata_serialize(md, a);
	assert_non_null(strstr(s, "\"encryption-keys\""));
	assert_non_null(strstr(s, "\"key-id\""));
	md = load_one("apache-iceberg/TableMetadataPartitionStatisticsFiles.json", a);
	assert_non_null(strstr(metadata_serialize(md, a), "\"partition-statistics\""));
	md = load_one("apache-iceberg/TableMetadataV3ValidMinimal.json", a);
	assert_non_null(strstr(metadata_serialize(md, a), "\"initial-default\""));
	md = load_one("apache-iceberg/TableMetadataStatisticsFiles.json", a);
	assert_non_null(strstr(metadata_serialize(md, a), "\"blob-metadata\""));
	arena_free(a);
}

/* The JSON value of key in file rel (iceberg-metadata/) and in the text
 * metadata_serialize gave after a metadata_copy and an edit, as every
 * floe commit does: equal (statistics, partition-statistics). */
static void
expect_kept(const char *rel, const char *key, Arena *a)
{
	char path[1024];
	json_error_t je;
	json_t *orig, *after;
	TableMetadata *md;
	char *text;

	snprintf(path, sizeof path, "%s/testdata/iceberg-metadata/%s", shared(), rel);
	orig = json_load_file(path, 0, &je);
	assert_non_null(orig);
	assert_non_null(json_object_get(orig, key));
	md = metadata_copy(load_one(rel, a), a);
	metadata_set_property(md, "floe.test", "1", a);
	md->last_updated_ms += 1;
	text = metadata_serialize(md, a);
	after = json_loads(text, 0, &je);
	assert_non_null(after);
	/* and once more through parse: a second commit */
	{
		TableMetadata *md2;
		floe_error err;
		char *t2;
		json_t *again;
		floe_error_clear(&err);
		assert_int_equal(metadata_parse(text, strlen(text), rel, a, &md2, &err), FLOE_OK);
		t2 = metadata_serialize(metadata_copy(md2, a), a);
		again = json_loads(t2, 0, &je);
		assert_true(json_equal(json_object_get(orig, key), json_object_get(again, key)));
		json_decref(again);
	}
	assert_true(json_equal(json_object_get(orig, key), json_object_get(after, key)));
	json_decref(orig);
	json_decref(after);
}

static void
test_metadata__statistics_kept(void **state)
{
	Arena *a = arena_new(0);
	expect_kept("apache-iceberg/TableMetadataStatisticsFiles.json", "statistics", a);
	expect_kept("apache-iceberg/TableMetadataPartitionStatisticsFiles.json",
		    "partition-statistics", a);
	arena_free(a);
}

static bool
has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int nvalid, ninvalid;

static void
walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[2048];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (strcmp(e->d_name, "expected") != 0)
				walk(path);
			continue;
		}
		if (!strstr(dir, "/metadata") || !has_suffix(e->d_name, ".metadata.json"))
			continue;
		if (strstr(path, "big_query_error") && strcmp(e->d_name, "v0.metadata.json") == 0) {
			/* MANIFEST: stub without format-version/schema, must not be used */
			check_invalid(path);
			ninvalid++;
			continue;
		}
		{
			Arena *a = arena_new(0);
			check_valid(path, a);
			arena_free(a);
			nvalid++;
		}
	}
	closedir(d);
}

static void
test_metadata__real_tables(void **state)
{
	char dir[1024];

	snprintf(dir, sizeof dir, "%s/testdata/iceberg-tables", shared());
	nvalid = ninvalid = 0;
	walk(dir);
	print_message("parsed %d real metadata files, rejected %d stub(s)\n", nvalid, ninvalid);
	assert_true(nvalid > 100);
	assert_int_equal(ninvalid, 1);
}

static void
test_metadata__types(void **state)
{
	static const char *ok[] = {
		"boolean", "int", "long", "float", "double", "decimal(9,2)", "decimal(38, 10)",
		"date", "time", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns",
		"string", "uuid", "fixed[16]", "binary",
	};
	static const TypeId ids[] = {
		TYPE_BOOL, TYPE_INT32, TYPE_INT64, TYPE_FLOAT32, TYPE_FLOAT64, TYPE_DECIMAL,
		TYPE_DECIMAL, TYPE_DATE, TYPE_TIME, TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ,
		TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ, TYPE_TEXT, TYPE_UUID, TYPE_BYTEA, TYPE_BYTEA,
	};
	Arena *a = arena_new(0);
	floe_error err;
	SqlType t;
	bool nested;
	size_t i;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		assert_int_equal(metadata_type_from_iceberg(ok[i], &t, &nested), FLOE_OK);
		assert_false(nested);
		assert_int_equal(t.id, ids[i]);
	}
	assert_int_equal(metadata_type_from_iceberg("decimal(9,2)", &t, &nested), FLOE_OK);
	assert_int_equal(t.precision, 9);
	assert_int_equal(t.scale, 2);
	assert_int_equal(metadata_type_from_iceberg("struct", &t, &nested), FLOE_OK);
	assert_true(nested);
	assert_int_equal(metadata_type_from_iceberg("decimal(39,2)", &t, &nested), FLOE_ERR);
	assert_int_equal(metadata_type_from_iceberg("decimal(9,2)x", &t, &nested), FLOE_ERR);
	assert_int_equal(metadata_type_from_iceberg("varchar", &t, &nested), FLOE_ERR);

	assert_string_equal(metadata_type_to_iceberg(type_make(TYPE_INT16), a, &err), "int");
	assert_string_equal(metadata_type_to_iceberg(type_decimal(10, 3), a, &err), "decimal(10,3)");
	assert_string_equal(metadata_type_to_iceberg(type_varchar(5), a, &err), "string");
	assert_string_equal(metadata_type_to_iceberg(type_make(TYPE_TIMESTAMPTZ), a, &err),
			    "timestamptz");
	assert_null(metadata_type_to_iceberg(type_make(TYPE_INTERVAL), a, &err));
	assert_string_equal(err.sqlstate, "0A000");
	arena_free(a);
}

/* Hand-made bad documents: clean XX001, never a crash. */
static void
test_metadata__bad_inputs(void **state)
{
	static const char *bad[] = {
		"",
		"[]",
		"{\"format-version\": 2}",
		"{\"format-version\": \"2\"}",
		"{\"format-version\": 1, \"location\": \"x\", \"last-updated-ms\": 1, "
		"\"last-column-id\": 1, \"schema\": {\"type\": \"struct\", \"fields\": "
		"[{\"id\": 1, \"name\": \"a\", \"required\": true, \"type\": \"varchar\"}]}}",
		"{\"format-version\": 1, \"location\": \"x\", \"last-updated-ms\": 1, "
		"\"last-column-id\": 1, \"schema\": {\"type\": \"struct\", \"fields\": []}, "
		"\"current-snapshot-id\": 5}",
		"\x1f\x8b\x08\x00garbage",
		"\x28\xb5\x2f\xfdgarbage",
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		Arena *a = arena_new(0);
		TableMetadata *md;
		floe_error err;
		floe_error_clear(&err);
		assert_int_equal(metadata_parse(bad[i], i >= 6 ? 11 : strlen(bad[i]), "t.json",
						a, &md, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "XX001");
		assert_non_null(strstr(err.message, "t.json"));
		arena_free(a);
	}
}

/* Cross-field rules: one valid document, then the same with one damage
 * each (a damaged current-snapshot-id, a ref to a missing snapshot,
 * duplicate field / schema / snapshot ids): XX001 naming the problem. */
#define CROSS_DOC(cur, fid2, sid2, snap2, mainref) \
	"{\"format-version\": 1, \"location\": \"x\", \"last-updated-ms\": 1, " \
	"\"last-column-id\": 2, \"current-schema-id\": 0, \"schemas\": [{\"type\": \"struct\", " \
	"\"schema-id\": 0, \"fields\": [{\"id\": 1, \"name\": \"a\", \"required\": false, " \
	"\"type\": \"int\"}, {\"id\": " fid2 ", \"name\": \"b\", \"required\": false, " \
	"\"type\": \"string\"}]}, {\"type\": \"struct\", \"schema-id\": " sid2 ", \"fields\": []}], " \
	"\"snapshots\": [{\"snapshot-id\": 7, \"timestamp-ms\": 1, \"manifest-list\": \"m\"}, " \
	"{\"snapshot-id\": " snap2 ", \"timestamp-ms\": 2, \"manifest-list\": \"n\"}], " \
	"\"current-snapshot-id\": " cur ", \"refs\": {\"main\": {\"snapshot-id\": " mainref ", " \
	"\"type\": \"branch\"}}}"

static void
test_metadata__cross_checks(void **state)
{
	static const struct { const char *doc, *why; } cases[] = {
		{ CROSS_DOC("8", "2", "1", "8", "8"), NULL },
		{ CROSS_DOC("-1", "2", "1", "8", "8"), "does not match the main branch" },
		{ CROSS_DOC("7", "2", "1", "8", "8"), "does not match the main branch" },
		{ CROSS_DOC("8", "2", "1", "8", "9"), "not in \"snapshots\"" },
		{ CROSS_DOC("8", "1", "1", "8", "8"), "two fields with id 1" },
		{ CROSS_DOC("8", "2", "0", "8", "8"), "two schemas have schema-id 0" },
		{ CROSS_DOC("7", "2", "1", "7", "7"), "two snapshots have snapshot-id 7" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Arena *a = arena_new(0);
		TableMetadata *md;
		floe_error err;
		int rc;
		floe_error_clear(&err);
		rc = metadata_parse(cases[i].doc, strlen(cases[i].doc), "t.json", a, &md, &err);
		if (!cases[i].why) {
			if (rc != FLOE_OK)
				fail_msg("case %zu: %s", i, err.message);
		} else {
			assert_int_equal(rc, FLOE_ERR);
			assert_string_equal(err.sqlstate, "XX001");
			if (!strstr(err.message, cases[i].why))
				fail_msg("case %zu: %s", i, err.message);
		}
		arena_free(a);
	}
}

/* Field ids are unique across nested types too (struct fields, list
 * elements, map keys and values): a duplicate is XX001; distinct ones
 * parse. */
#define NESTED_DOC(ty) \
	"{\"format-version\": 2, \"table-uuid\": \"9c12d441-03fe-4693-9a96-a0705ddf69c1\", " \
	"\"location\": \"x\", \"last-sequence-number\": 0, \"last-updated-ms\": 1, " \
	"\"last-column-id\": 9, \"current-schema-id\": 0, \"schemas\": [{\"type\": \"struct\", " \
	"\"schema-id\": 0, \"fields\": [{\"id\": 1, \"name\": \"a\", \"required\": false, " \
	"\"type\": \"int\"}, {\"id\": 2, \"name\": \"n\", \"required\": false, \"type\": " ty "}]}], " \
	"\"default-spec-id\": 0, \"partition-specs\": [{\"spec-id\": 0, \"fields\": []}], " \
	"\"last-partition-id\": 999, \"default-sort-order-id\": 0, " \
	"\"sort-orders\": [{\"order-id\": 0, \"fields\": []}]}"

static void
test_metadata__nested_ids(void **state)
{
	static const struct { const char *doc; bool ok; } cases[] = {
		{ NESTED_DOC("{\"type\": \"struct\", \"fields\": [{\"id\": 3, \"name\": \"x\", "
			     "\"required\": false, \"type\": {\"type\": \"list\", \"element-id\": 4, "
			     "\"element\": \"int\", \"element-required\": false}}]}"), true },
		{ NESTED_DOC("{\"type\": \"struct\", \"fields\": [{\"id\": 1, \"name\": \"x\", "
			     "\"required\": false, \"type\": \"int\"}]}"), false },
		{ NESTED_DOC("{\"type\": \"list\", \"element-id\": 2, \"element\": \"int\", "
			     "\"element-required\": false}"), false },
		{ NESTED_DOC("{\"type\": \"map\", \"key-id\": 5, \"key\": \"string\", \"value-id\": 5, "
			     "\"value\": \"int\", \"value-required\": false}"), false },
		{ NESTED_DOC("{\"type\": \"map\", \"key-id\": 5, \"key\": \"string\", \"value-id\": 6, "
			     "\"value\": {\"type\": \"struct\", \"fields\": [{\"id\": 5, \"name\": \"y\", "
			     "\"required\": false, \"type\": \"int\"}]}, \"value-required\": false}"), false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		Arena *a = arena_new(0);
		TableMetadata *md;
		floe_error err;
		int rc;
		floe_error_clear(&err);
		rc = metadata_parse(cases[i].doc, strlen(cases[i].doc), "t.json", a, &md, &err);
		if (cases[i].ok) {
			if (rc != FLOE_OK)
				fail_msg("case %zu: %s", i, err.message);
		} else {
			assert_int_equal(rc, FLOE_ERR);
			assert_string_equal(err.sqlstate, "XX001");
			if (!strstr(err.message, "two fields with id"))
				fail_msg("case %zu: %s", i, err.message);
		}
		arena_free(a);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metadata__valid_documents),
		cmocka_unit_test(test_metadata__invalid_documents),
		cmocka_unit_test(test_metadata__upstream_assertions),
		cmocka_unit_test(test_metadata__pass_through),
		cmocka_unit_test(test_metadata__statistics_kept),
		cmocka_unit_test(test_metadata__real_tables),
		cmocka_unit_test(test_metadata__types),
		cmocka_unit_test(test_metadata__bad_inputs),
		cmocka_unit_test(test_metadata__cross_checks),
		cmocka_unit_test(test_metadata__nested_ids),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
