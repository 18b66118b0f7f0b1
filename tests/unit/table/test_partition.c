/*
 * test_partition.c — partition transforms against the Iceberg spec's own
 * examples: the hash test values of "Appendix B: 32-bit Hash Requirements",
 * the truncate examples of "Truncate Transform Details", and the time
 * transforms' "years/months/days/hours from 1970" (negative before 1970);
 * the vector path over flat, constant and dictionary vectors agrees with
 * the value path; transform strings and Spark/Trino terms parse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/data_writer.h"
#include "table/metadata.h"
#include "table/partition.h"
#include "types/datetime.h"
#include "types/vector.h"

static int32_t
hash_of(const Value *v)
{
	floe_error err;
	int32_t h = 0;
	assert_int_equal(partition_hash_value(v, &h, &err), FLOE_OK);
	return h;
}

static Value
text_value(TypeId id, const char *s, size_t n)
{
	Value v;
	memset(&v, 0, sizeof v);
	v.type = type_make(id);
	v.u.s = strview_make(s, (uint32_t)n);
	return v;
}

static void
test_partition__spec_hash_values(void **state)
{
	floe_error err;
	Value v;
	int32_t d;
	int64_t t;
	static const uint8_t bin[] = {0, 1, 2, 3};
	static const uint8_t uuid[16] = {0xF7, 0x9C, 0x3E, 0x09, 0x67, 0x7C, 0x4B, 0xBD,
					 0xA4, 0x79, 0x3F, 0x34, 0x9C, 0xB7, 0x85, 0xE7};
	(void)state;

	v = value_int(TYPE_INT32, 34);
	assert_int_equal(hash_of(&v), 2017239379);
	v = value_int(TYPE_INT64, 34);
	assert_int_equal(hash_of(&v), 2017239379);
	v = value_int(TYPE_INT16, 34);
	assert_int_equal(hash_of(&v), 2017239379);
	memset(&v, 0, sizeof v);
	v.type = type_decimal(9, 2);
	v.u.d = 1420;
	assert_int_equal(hash_of(&v), -500754589);
	assert_int_equal(datetime_parse_date("2017-11-16", 10, &d, &err), FLOE_OK);
	v = value_int(TYPE_DATE, d);
	assert_int_equal(hash_of(&v), -653330422);
	assert_int_equal(datetime_parse_time("22:31:08", 8, &t, &err), FLOE_OK);
	v = value_int(TYPE_TIME, t);
	assert_int_equal(hash_of(&v), -662762989);
	assert_int_equal(datetime_parse_timestamp("2017-11-16 22:31:08", 19, &t, &err), FLOE_OK);
	v = value_int(TYPE_TIMESTAMP, t);
	assert_int_equal(hash_of(&v), -2047944441);
	v = value_int(TYPE_TIMESTAMPTZ, t);   /* 14:31:08-08:00 is the same UTC instant */
	assert_int_equal(hash_of(&v), -2047944441);
	v = text_value(TYPE_TEXT, "iceberg", 7);
	assert_int_equal(hash_of(&v), 1210000089);
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_UUID);
	memcpy(v.u.uuid.b, uuid, 16);
	assert_int_equal(hash_of(&v), 1488055340);
	v = text_value(TYPE_BYTEA, (const char *)bin, 4);
	assert_int_equal(hash_of(&v), -188683207);

	/* floats are not bucketed (spec: not valid for bucketing) */
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_FLOAT64);
	assert_int_equal(partition_hash_value(&v, &d, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "0A000");
}

static Value
apply(const char *tr, const Value *in, Arena *a)
{
	PartitionTransform t;
	floe_error err;
	Value out;

	assert_int_equal(partition_transform_parse(tr, &t, &err), FLOE_OK);
	assert_int_equal(partition_transform_value(&t, in, &out, a, &err), FLOE_OK);
	return out;
}

static void
test_partition__truncate_examples(void **state)
{
	Arena *a = arena_new(4096);
	Value v, r;
	(void)state;

	/* spec: truncate[10] 1 -> 0, -1 -> -10 (int and long) */
	v = value_int(TYPE_INT32, 1);
	assert_int_equal(apply("truncate[10]", &v, a).u.i, 0);
	v = value_int(TYPE_INT32, -1);
	assert_int_equal(apply("truncate[10]", &v, a).u.i, -10);
	v = value_int(TYPE_INT64, -1);
	assert_int_equal(apply("truncate[10]", &v, a).u.i, -10);
	v = value_int(TYPE_INT64, 25);
	assert_int_equal(apply("truncate[10]", &v, a).u.i, 20);
	/* spec: decimal truncate[50] 10.65 -> 10.50 (on the unscaled value) */
	memset(&v, 0, sizeof v);
	v.type = type_decimal(9, 2);
	v.u.d = 1065;
	r = apply("truncate[50]", &v, a);
	assert_true(r.u.d == 1050);
	assert_int_equal(r.type.scale, 2);
	v.u.d = -1065;   /* floor: -10.65 -> -11.00 */
	assert_true(apply("truncate[50]", &v, a).u.d == -1100);
	/* spec: string truncate[3] iceberg -> ice; code points, not bytes */
	v = text_value(TYPE_TEXT, "iceberg", 7);
	r = apply("truncate[3]", &v, a);
	assert_int_equal(r.u.s.len, 3);
	assert_memory_equal(strview_data(&r.u.s), "ice", 3);
	v = text_value(TYPE_TEXT, "\xc3\xa9t\xc3\xa9 long", 11);   /* "été long" */
	r = apply("truncate[2]", &v, a);
	assert_int_equal(r.u.s.len, 3);
	v = text_value(TYPE_TEXT, "ab", 2);
	assert_int_equal(apply("truncate[5]", &v, a).u.s.len, 2);
	v = text_value(TYPE_BYTEA, "\x01\x02\x03", 3);
	assert_int_equal(apply("truncate[2]", &v, a).u.s.len, 2);
	/* NULL stays NULL */
	v = value_null(type_make(TYPE_INT32));
	assert_true(apply("truncate[10]", &v, a).is_null);
	assert_true(apply("bucket[4]", &v, a).is_null);
	arena_free(a);
}

static void
test_partition__time_transforms(void **state)
{
	Arena *a = arena_new(4096);
	floe_error err;
	Value v, r;
	int32_t d;
	int64_t t;
	(void)state;

	assert_int_equal(datetime_parse_date("2017-11-16", 10, &d, &err), FLOE_OK);
	v = value_int(TYPE_DATE, d);
	assert_int_equal(apply("year", &v, a).u.i, 47);
	assert_int_equal(apply("month", &v, a).u.i, 47 * 12 + 10);
	r = apply("day", &v, a);
	assert_int_equal(r.type.id, TYPE_DATE);
	assert_int_equal(r.u.i, d);
	assert_int_equal(datetime_parse_timestamp("2017-11-16 22:31:08", 19, &t, &err), FLOE_OK);
	v = value_int(TYPE_TIMESTAMP, t);
	assert_int_equal(apply("year", &v, a).u.i, 47);
	assert_int_equal(apply("month", &v, a).u.i, 574);
	assert_int_equal(apply("day", &v, a).u.i, d);
	assert_int_equal(apply("hour", &v, a).u.i, (int64_t)d * 24 + 22);
	/* before 1970: floor, not truncation toward zero */
	assert_int_equal(datetime_parse_timestamp("1969-12-31 23:59:59", 19, &t, &err), FLOE_OK);
	v = value_int(TYPE_TIMESTAMPTZ, t);
	assert_int_equal(apply("year", &v, a).u.i, -1);
	assert_int_equal(apply("month", &v, a).u.i, -1);
	assert_int_equal(apply("day", &v, a).u.i, -1);
	assert_int_equal(apply("hour", &v, a).u.i, -1);
	v = value_int(TYPE_DATE, -1);
	assert_int_equal(apply("year", &v, a).u.i, -1);
	/* bucket results are in [0, N) */
	v = value_int(TYPE_INT32, 34);
	assert_int_equal(apply("bucket[100]", &v, a).u.i, 2017239379 % 100);
	/* void is always NULL, typed as its source */
	r = apply("void", &v, a);
	assert_true(r.is_null);
	assert_int_equal(r.type.id, TYPE_INT32);
	/* types the spec does not define */
	{
		PartitionTransform tr = {PT_HOUR, 0};
		SqlType rt;
		assert_int_equal(partition_transform_type(&tr, type_make(TYPE_DATE), &rt, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "0A000");
		tr.kind = PT_BUCKET;
		tr.param = 4;
		assert_int_equal(partition_transform_type(&tr, type_make(TYPE_BOOL), &rt, &err), FLOE_ERR);
		tr.kind = PT_TRUNCATE;
		assert_int_equal(partition_transform_type(&tr, type_make(TYPE_TIMESTAMP), &rt, &err),
				 FLOE_ERR);
	}
	arena_free(a);
}

/* Vector path over flat / const / dict vectors equals the value path. */
static void
test_partition__vector_kinds(void **state)
{
	Arena *a = arena_new(1 << 16);
	static const char *const trs[] = {"identity", "bucket[16]", "truncate[3]", "void"};
	Vector flat, cst, dict, out;
	Value cv;
	floe_error err;
	char buf[32];
	uint32_t i, sel[100];
	size_t k;
	(void)state;

	vector_init(&flat, type_make(TYPE_TEXT), a, 100);
	for (i = 0; i < 100; i++) {
		int n = snprintf(buf, sizeof buf, "value-number-%u", i * 7919);
		if (i % 9 == 0)
			vector_set_null(&flat, i);
		else
			vector_set_string(&flat, i, buf, (uint32_t)n);
		sel[i] = 99 - i;
	}
	dict.type = flat.type;
	memset(&dict, 0, sizeof dict);
	dict.type = flat.type;
	dict.kind = VECTOR_DICT;
	dict.child = &flat;
	dict.dict_sel = sel;
	dict.arena = a;
	cv = text_value(TYPE_TEXT, "constant text value", 19);
	vector_init_const(&cst, &cv, a);
	for (k = 0; k < sizeof trs / sizeof trs[0]; k++) {
		PartitionTransform tr;
		SqlType rt;
		const Vector *ins[3] = {&flat, &dict, &cst};
		int j;
		assert_int_equal(partition_transform_parse(trs[k], &tr, &err), FLOE_OK);
		assert_int_equal(partition_transform_type(&tr, flat.type, &rt, &err), FLOE_OK);
		for (j = 0; j < 3; j++) {
			vector_init(&out, rt, a, 100);
			assert_int_equal(partition_transform_vector(&tr, ins[j], 100, &out, &err), FLOE_OK);
			for (i = 0; i < 100; i++) {
				Value in, want, got;
				vector_get_value(ins[j], i, &in);
				assert_int_equal(partition_transform_value(&tr, &in, &want, a, &err), FLOE_OK);
				vector_get_value(&out, i, &got);
				assert_int_equal(got.is_null, want.is_null);
				if (want.is_null)
					continue;
				if (rt.id == TYPE_TEXT) {
					assert_int_equal(got.u.s.len, want.u.s.len);
					assert_memory_equal(strview_data(&got.u.s), strview_data(&want.u.s),
							    want.u.s.len);
				} else {
					assert_int_equal(got.u.i, want.u.i);
				}
			}
		}
	}
	arena_free(a);
}

static void
test_partition__parse(void **state)
{
	Arena *a = arena_new(4096);
	PartitionTransform tr;
	floe_error err;
	char *col;
	static const struct {
		const char *text;
		PartitionTransformKind kind;
		int32_t param;
		const char *col;
		const char *str;
	} ok[] = {
		{"id", PT_IDENTITY, 0, "id", "identity"},
		{" \"Mixed Case\" ", PT_IDENTITY, 0, "Mixed Case", "identity"},
		{"bucket(16, id)", PT_BUCKET, 16, "id", "bucket[16]"},
		{"BUCKET(id, 8)", PT_BUCKET, 8, "id", "bucket[8]"},
		{"truncate(4, s)", PT_TRUNCATE, 4, "s", "truncate[4]"},
		{"truncate( s , 10 )", PT_TRUNCATE, 10, "s", "truncate[10]"},
		{"years(ts)", PT_YEAR, 0, "ts", "year"},
		{"month(ts)", PT_MONTH, 0, "ts", "month"},
		{"days(ts)", PT_DAY, 0, "ts", "day"},
		{"hours(ts)", PT_HOUR, 0, "ts", "hour"},
		{"identity(Col)", PT_IDENTITY, 0, "col", "identity"},
		{"void(x)", PT_VOID, 0, "x", "void"},
	};
	static const char *const bad[] = {"", "bucket(id)", "bucket(0, id)", "days(ts", "1abc",
					  "truncate(4, s) x", "nosuch(x)"};
	size_t i;
	(void)state;

	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		PartitionTransform back;
		assert_int_equal(partition_parse_term(ok[i].text, strlen(ok[i].text), a, &tr, &col, &err),
				 FLOE_OK);
		assert_int_equal(tr.kind, ok[i].kind);
		assert_int_equal(tr.param, ok[i].param);
		assert_string_equal(col, ok[i].col);
		assert_string_equal(partition_transform_string(&tr, a), ok[i].str);
		assert_int_equal(partition_transform_parse(ok[i].str, &back, &err), FLOE_OK);
		assert_int_equal(back.kind, tr.kind);
		assert_int_equal(back.param, tr.param);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(partition_parse_term(bad[i], strlen(bad[i]), a, &tr, &col, &err),
				 FLOE_ERR);
	assert_int_equal(partition_transform_parse("bucket[ 4 ]", &tr, &err), FLOE_OK);
	assert_int_equal(tr.param, 4);
	assert_int_equal(partition_transform_parse("bucket[0]", &tr, &err), FLOE_ERR);
	assert_int_equal(partition_transform_parse("zorder", &tr, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "0A000");
	tr.kind = PT_BUCKET;
	assert_string_equal(partition_default_name(&tr, "id", a), "id_bucket");
	tr.kind = PT_TRUNCATE;
	assert_string_equal(partition_default_name(&tr, "s", a), "s_trunc");
	arena_free(a);
}

/*
 * The partitioned data writer: 6000 unsorted rows over ~200 partition
 * tuples of (identity(s), bucket[4](id)), NULLs included.  DuckDB reads
 * every file back (read_parquet with filename): each row's s must be its
 * file's tuple value, bucket[4] of its id the tuple's bucket, and every
 * row must be there once.
 */
static void
test_partition__writer_routes_rows(void **state)
{
	enum { N = 6000 };
	IcebergField f[2];
	IcebergSchema schema;
	PartitionField pf[2];
	PartitionSpec spec;
	SqlType types[2];
	Arena *a = arena_new(0);
	char tmpl[] = "/tmp/floe-test-partition.XXXXXX", *tmpdir, *q, line[512], cmd[1024];
	const char *sh = getenv("FLOE_SHARED") ? getenv("FLOE_SHARED") : "../shared";
	FileIO *io;
	DataWriter *w;
	DataFile *files;
	int nfiles, i, row = 0, seen = 0;
	size_t qlen = 0, qcap = 1 << 20;
	floe_error err;
	FILE *p;
	PartitionTransform bucket = {PT_BUCKET, 4};
	(void)state;

	tmpdir = mkdtemp(tmpl);
	assert_non_null(tmpdir);
	io = fileio_local_new(tmpdir);
	memset(f, 0, sizeof f);
	f[0].id = 1; f[0].name = "id"; f[0].type = type_make(TYPE_INT64); f[0].iceberg_type = "long";
	f[1].id = 2; f[1].name = "s"; f[1].type = type_make(TYPE_TEXT); f[1].iceberg_type = "string";
	memset(&schema, 0, sizeof schema);
	schema.nfields = 2;
	schema.fields = f;
	pf[0] = (PartitionField){2, 1000, "s", "identity"};
	pf[1] = (PartitionField){1, 1001, "id_bucket", "bucket[4]"};
	spec = (PartitionSpec){7, 2, pf};
	types[0] = f[0].type;
	types[1] = f[1].type;
	w = data_writer_new(io, tmpdir, &schema, 0, a);
	assert_int_equal(data_writer_set_spec(w, &spec, &err), FLOE_OK);
	while (row < N) {
		Batch *b = batch_new(a, 2, types, 2048);
		uint32_t n = N - row > 2048 ? 2048 : (uint32_t)(N - row), j;
		for (j = 0; j < n; j++, row++) {
			char sv[32];
			int len = snprintf(sv, sizeof sv, "key-with-long-text-%d", (row * 31) % 50);
			((int64_t *)b->cols[0].data)[j] = row;
			if (row % 97 == 0)
				vector_set_null(&b->cols[1], j);
			else
				vector_set_string(&b->cols[1], j, sv, (uint32_t)len);
		}
		b->count = n;
		assert_int_equal(data_writer_write(w, b, &err), FLOE_OK);
	}
	assert_int_equal(data_writer_finish(w, &files, &nfiles, &err), FLOE_OK);
	assert_true(nfiles > 150 && nfiles <= 204);   /* one file per tuple */
	q = malloc(qcap);
	qlen = (size_t)snprintf(q, qcap, "SELECT id, coalesce(s, '<null>'), filename FROM read_parquet([");
	for (i = 0; i < nfiles; i++) {
		assert_int_equal(files[i].spec_id, 7);
		assert_int_equal(files[i].npartition, 2);
		qlen += (size_t)snprintf(q + qlen, qcap - qlen, "%s'%s'", i ? "," : "", files[i].file_path);
		assert_true(qlen < qcap - 100);
	}
	snprintf(q + qlen, qcap - qlen, "], filename = true)");
	{
		FILE *qf;
		char qpath[300];
		snprintf(qpath, sizeof qpath, "%s/q.sql", tmpdir);
		qf = fopen(qpath, "w");
		assert_non_null(qf);
		fputs(q, qf);
		fclose(qf);
		snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/duckdb-sql -f %s --no-header", sh, qpath);
	}
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof line, p)) {
		char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL, *nl;
		long long id;
		Value v, out;
		const DataFile *df = NULL;
		assert_non_null(c2);
		*c1 = *c2 = 0;
		if ((nl = strchr(c2 + 1, '\n')))
			*nl = 0;
		id = atoll(line);
		for (i = 0; i < nfiles && !df; i++)
			if (!strcmp(files[i].file_path, c2 + 1))
				df = &files[i];
		assert_non_null(df);
		if (!strcmp(c1 + 1, "<null>")) {
			assert_true(df->partition[0].is_null);
		} else {
			assert_false(df->partition[0].is_null);
			assert_int_equal(df->partition[0].u.s.len, strlen(c1 + 1));
			assert_memory_equal(strview_data(&df->partition[0].u.s), c1 + 1, strlen(c1 + 1));
		}
		v = value_int(TYPE_INT64, id);
		assert_int_equal(partition_transform_value(&bucket, &v, &out, a, &err), FLOE_OK);
		assert_int_equal(df->partition[1].type.id, TYPE_INT32);
		assert_int_equal(df->partition[1].u.i, out.u.i);
		seen++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(seen, N);
	data_writer_free(w);
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	assert_int_equal(system(cmd), 0);
	free(q);
	fileio_free(io);
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_partition__spec_hash_values),
		cmocka_unit_test(test_partition__truncate_examples),
		cmocka_unit_test(test_partition__time_transforms),
		cmocka_unit_test(test_partition__vector_kinds),
		cmocka_unit_test(test_partition__parse),
		cmocka_unit_test(test_partition__writer_routes_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
