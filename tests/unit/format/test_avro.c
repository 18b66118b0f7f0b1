/*
 * test_avro.c — format/avro: container files from apache/avro and Iceberg
 * writers (../shared/testdata/avro, expectations from its MANIFEST.md),
 * write -> read round trips in every codec checked by the independent
 * avsc-based reader (avro-dump), and corrupt/truncated inputs -> XX001.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/avro/avro.h"

static const char *
shared_dir(void)
{
	const char *s = getenv("FLOE_SHARED");
	return s && *s ? s : "../shared";
}

static uint8_t *
slurp(Arena *a, const char *rel, size_t *len)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/testdata/avro/%s", shared_dir(), rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *p = arena_alloc(a, (size_t)n + 1);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

static AvroFile *
read_ok(Arena *a, const char *rel)
{
	size_t len;
	uint8_t *p = slurp(a, rel, &len);
	AvroFile *f = NULL;
	floe_error err;
	floe_error_clear(&err);
	if (avro_read_container(p, len, rel, a, &f, &err) != FLOE_OK)
		fail_msg("%s: %s %s", rel, err.sqlstate, err.message);
	return f;
}

static void
read_fails(Arena *a, const char *rel, const char *sqlstate, const char *needle)
{
	size_t len;
	uint8_t *p = slurp(a, rel, &len);
	AvroFile *f = NULL;
	floe_error err;
	floe_error_clear(&err);
	assert_int_equal(avro_read_container(p, len, rel, a, &f, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, sqlstate);
	if (!strstr(err.message, rel))
		fail_msg("message does not name the file: %s", err.message);
	if (needle && !strstr(err.message, needle))
		fail_msg("message lacks \"%s\": %s", needle, err.message);
}

static const char *
str_of(const AvroDatum *d)
{
	d = avro_unwrap(d);
	assert_non_null(d);
	assert_true(d->type == AVRO_STRING || d->type == AVRO_BYTES);
	return (const char *)d->u.bytes.ptr;
}

static const AvroDatum *
field(const AvroFile *f, int64_t rec, const char *name)
{
	const AvroDatum *d = avro_record_get(f->schema, f->records[rec], name);
	if (!d)
		fail_msg("no field %s", name);
	return d;
}

static void
check_weather(const char *rel, const char *json_rel)
{
	Arena *a = arena_new(0);
	AvroFile *f = read_ok(a, rel);
	assert_int_equal(f->nrecords, 5);
	assert_string_equal(f->schema->name, "test.Weather");
	char path[1024];
	snprintf(path, sizeof path, "%s/testdata/avro/%s", shared_dir(), json_rel);
	FILE *jf = fopen(path, "r");
	assert_non_null(jf);
	char line[512];
	int i = 0;
	while (fgets(line, sizeof line, jf)) {
		json_error_t je;
		json_t *j = json_loads(line, 0, &je);
		assert_non_null(j);
		assert_true(i < 5);
		assert_string_equal(str_of(field(f, i, "station")),
				    json_string_value(json_object_get(j, "station")));
		assert_int_equal(field(f, i, "time")->u.l,
				 json_integer_value(json_object_get(j, "time")));
		assert_int_equal(field(f, i, "temp")->u.i,
				 json_integer_value(json_object_get(j, "temp")));
		json_decref(j);
		i++;
	}
	fclose(jf);
	assert_int_equal(i, 5);
	arena_free(a);
}

static void
test_avro__weather_all_codecs(void **state)
{
	check_weather("apache-avro/share-test-data/weather.avro", "apache-avro/share-test-data/weather.json");
	check_weather("apache-avro/share-test-data/weather-deflate.avro", "apache-avro/share-test-data/weather.json");
	check_weather("apache-avro/share-test-data/weather-snappy.avro", "apache-avro/share-test-data/weather.json");
	check_weather("apache-avro/share-test-data/weather-zstd.avro", "apache-avro/share-test-data/weather.json");
	Arena *a = arena_new(0);
	AvroFile *f = read_ok(a, "apache-avro/share-test-data/weather-sorted.avro");
	assert_int_equal(f->nrecords, 5);
	assert_int_equal(f->codec, AVRO_CODEC_DEFLATE);
	assert_string_equal(str_of(field(f, 0, "station")), "012650-99999");
	assert_int_equal(field(f, 0, "time")->u.l, -655531200000LL);
	assert_int_equal(field(f, 0, "temp")->u.i, 111);
	arena_free(a);
}

static void
test_avro__sync_in_meta(void **state)
{
	Arena *a = arena_new(0);
	AvroFile *f = read_ok(a, "apache-avro/share-test-data/syncInMeta.avro");
	assert_int_equal(f->nrecords, 6001);
	assert_int_equal(field(f, 0, "ID")->u.l, 1);
	assert_string_equal(str_of(field(f, 0, "First")), "Dante");
	assert_string_equal(str_of(field(f, 0, "Last")), "Hicks");
	arena_free(a);
}

static void
test_avro__apache_misc(void **state)
{
	Arena *a = arena_new(0);
	read_fails(a, "apache-avro/share-test-data/test.avro12", "XX001", "invalid magic");

	AvroFile *f = read_ok(a, "apache-avro/share-test-data/schemas/simple/data.avro");
	assert_int_equal(f->nrecords, 3);
	assert_string_equal(str_of(field(f, 0, "text")), "hello");

	f = read_ok(a, "apache-avro/share-test-data/schemas/withUnion/data.avro");
	assert_int_equal(f->nrecords, 3);
	assert_string_equal(str_of(field(f, 0, "data1")), "textValue");
	assert_null(avro_unwrap(field(f, 0, "data2")));

	f = read_ok(a, "apache-avro/lang-c-tests/avro-1237-good.avro");
	assert_int_equal(f->nrecords, 2);
	assert_null(avro_unwrap(f->records[0]));
	assert_int_equal(avro_unwrap(f->records[1])->u.i, 100);
	read_fails(a, "apache-avro/lang-c-tests/avro-1237-bad-union-discriminant.avro", "XX001",
		   "union branch");

	f = read_ok(a, "apache-avro/lang-c-tests/avro-1238-good.avro");
	assert_int_equal(f->nrecords, 2);
	assert_int_equal(avro_unwrap(f->records[1])->u.i, 100);
	read_fails(a, "apache-avro/lang-c-tests/avro-1238-truncated.avro", "XX001", "truncated");

	const char *p1279[] = {"apache-avro/lang-c-tests/avro-1279-codec.avro",
			       "apache-avro/lang-c-tests/avro-1279-no-codec.avro"};
	for (int k = 0; k < 2; k++) {
		f = read_ok(a, p1279[k]);
		assert_int_equal(f->nrecords, 3);
		assert_int_equal(f->codec, AVRO_CODEC_NULL);
		assert_true(field(f, 0, "booleanField")->u.b);
		assert_string_equal(str_of(field(f, 0, "bytesField")), "DEFAULT VALUES");
		assert_int_equal(field(f, 1, "intField")->u.i, INT32_MIN);
		assert_true(field(f, 1, "longField")->u.l == INT64_MIN);
		assert_true(field(f, 1, "doubleField")->u.d == 5e-324);
		assert_int_equal(field(f, 2, "intField")->u.i, INT32_MAX);
		assert_true(field(f, 2, "longField")->u.l == INT64_MAX);
		assert_true(field(f, 2, "floatField")->u.f == 3.4028234663852886e+38f);
		assert_true(field(f, 2, "doubleField")->u.d == 1.7976931348623157e+308);
		assert_string_equal(str_of(field(f, 2, "stringField")), "MAX VALUES");
	}
	assert_null(avro_file_meta(f, "avro.codec"));

	const char *pp[] = {"apache-avro/lang-js-test-dat/person-10.avro",
			    "apache-avro/lang-js-test-dat/person-10.no-codec.avro"};
	for (int k = 0; k < 2; k++) {
		f = read_ok(a, pp[k]);
		assert_int_equal(f->nrecords, 10);
		assert_string_equal(str_of(field(f, 0, "name")), "r");
		assert_int_equal(avro_unwrap(field(f, 0, "age"))->u.i, 906);
		const AvroDatum *g = field(f, 0, "gender");
		assert_int_equal(g->type, AVRO_ENUM);
		const AvroSchema *gs = avro_record_field_schema(f->schema, -1, "gender");
		assert_string_equal(gs->symbols[g->u.i], "MALE");
		const AvroDatum *ad = field(f, 0, "address");
		const AvroSchema *as = avro_record_field_schema(f->schema, -1, "address");
		assert_int_equal(avro_record_get(as, ad, "zipcode")->u.i, 631);
	}
	arena_free(a);
}

static void
test_avro__iceberg_files(void **state)
{
	Arena *a = arena_new(0);
	AvroFile *f = read_ok(a, "iceberg-manifests/icebird/a85973e4-4009-4cba-875e-5278a2c6027d-m0.avro");
	assert_int_equal(f->nrecords, 1);
	assert_string_equal(avro_file_meta(f, "format-version"), "2");
	assert_string_equal(avro_file_meta(f, "content"), "data");
	const AvroDatum *st = avro_record_get_id(f->schema, f->records[0], 0, "status");
	assert_int_equal(st->u.i, 1);
	const AvroDatum *sid = avro_unwrap(avro_record_get_id(f->schema, f->records[0], 1, NULL));
	assert_true(sid->u.l == 8656952484400131532LL);
	const AvroSchema *dfs = avro_record_field_schema(f->schema, 2, "data_file");
	assert_int_equal(dfs->type, AVRO_RECORD);
	const AvroDatum *df = avro_record_get_id(f->schema, f->records[0], 2, NULL);
	assert_int_equal(avro_record_get_id(dfs, df, 103, NULL)->u.l, 21);
	const AvroSchema *cs = avro_schema_unwrap(avro_record_field_schema(dfs, 108, NULL));
	assert_string_equal(cs->logical_type, "map");
	assert_true(cs->items->fields[0].has_field_id);
	assert_int_equal(cs->items->fields[0].field_id, 117);

	f = read_ok(a, "iceberg-manifests/icebird/snap-8656952484400131532-1-a85973e4-4009-4cba-875e-5278a2c6027d.avro");
	assert_int_equal(f->nrecords, 1);
	assert_non_null(strstr(str_of(avro_record_get_id(f->schema, f->records[0], 500, NULL)),
			       "s3a://hyperparam-iceberg/warehouse/bunnies/"));
	f = read_ok(a, "iceberg-manifests/iceberg-rust/manifest-list-v2-1.avro");
	assert_int_equal(f->nrecords, 1);
	assert_string_equal(avro_file_meta(f, "parent-snapshot-id"), "null");
	assert_string_equal(avro_file_meta(f, "sequence-number"), "1");
	f = read_ok(a, "iceberg-manifests/iceberg-rust/manifest-list-v2-2.avro");
	assert_int_equal(f->nrecords, 1);
	read_fails(a, "iceberg-manifests/iceberg-rust/manifest-list-v3-encrypted.avro", "XX001",
		   "invalid magic");
	f = read_ok(a, "iceberg-manifests/iceberg-go/duckdb_v3_manifest_list.avro");
	assert_int_equal(f->nrecords, 2);
	assert_non_null(strstr(str_of(avro_record_get_id(f->schema, f->records[0], 500, NULL)),
			       "s3://warehouse/wh/db/logs/metadata/d0a470ec-"));
	assert_non_null(avro_unwrap(avro_record_get_id(f->schema, f->records[0], 520, NULL)));
	arena_free(a);
}

/* ---- writing ---- */

static const char *all_schema =
	"{\"type\":\"record\",\"name\":\"All\",\"namespace\":\"floe.t\",\"fields\":["
	"{\"name\":\"n\",\"type\":\"null\"},"
	"{\"name\":\"b\",\"type\":\"boolean\"},"
	"{\"name\":\"i\",\"type\":\"int\",\"field-id\":3},"
	"{\"name\":\"l\",\"type\":\"long\"},"
	"{\"name\":\"f\",\"type\":\"float\"},"
	"{\"name\":\"d\",\"type\":\"double\"},"
	"{\"name\":\"by\",\"type\":\"bytes\"},"
	"{\"name\":\"s\",\"type\":\"string\"},"
	"{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"Color\",\"symbols\":[\"RED\",\"GREEN\"]}},"
	"{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"long\",\"element-id\":9}},"
	"{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"int\"}},"
	"{\"name\":\"u\",\"type\":[\"null\",\"string\"],\"default\":null},"
	"{\"name\":\"x\",\"type\":{\"type\":\"fixed\",\"name\":\"F4\",\"size\":4}},"
	"{\"name\":\"dt\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
	"{\"name\":\"c2\",\"type\":\"Color\"},"
	"{\"name\":\"r\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"Inner\",\"fields\":[{\"name\":\"z\",\"type\":\"F4\"}]}],\"default\":null}"
	"]}";

static AvroDatum *
make_rec(Arena *a, int k)
{
	AvroDatum *r = avro_datum_record(a, 16);
	AvroDatum **it = r->u.list.items;
	static const uint8_t four[4] = {1, 2, 3, 4};
	it[0] = avro_datum_null(a);
	it[1] = avro_datum_bool(a, k & 1);
	it[2] = avro_datum_int(a, k % 2 ? INT32_MIN : INT32_MAX - k);
	it[3] = avro_datum_long(a, k % 3 ? INT64_MIN + k : INT64_MAX - k);
	it[4] = avro_datum_float(a, 1.5f * (float)k);
	it[5] = avro_datum_double(a, -0.25 * k);
	it[6] = avro_datum_bytes(a, (const uint8_t *)"\0\1\2", (size_t)(k % 4));
	it[7] = avro_datum_string(a, arena_sprintf(a, "str-%d-\xc3\xa9", k));
	it[8] = avro_datum_enum(a, k % 2);
	it[9] = avro_datum_array(a, k % 5);
	for (int i = 0; i < k % 5; i++)
		it[9]->u.list.items[i] = avro_datum_long(a, (int64_t)i * 1000000007LL);
	AvroDatum *m = ARENA_NEW(a, AvroDatum);
	m->type = AVRO_MAP;
	m->u.map.n = k % 3;
	m->u.map.keys = ARENA_ARRAY(a, const char *, 3);
	m->u.map.values = ARENA_ARRAY(a, AvroDatum *, 3);
	for (int i = 0; i < k % 3; i++) {
		m->u.map.keys[i] = arena_sprintf(a, "k%d", i);
		m->u.map.values[i] = avro_datum_int(a, -i);
	}
	it[10] = m;
	it[11] = k % 2 ? avro_datum_null(a) : avro_datum_string(a, "some");
	it[12] = avro_datum_fixed(a, four, 4);
	it[13] = avro_datum_int(a, 19000 + k);
	it[14] = avro_datum_enum(a, 1);
	if (k % 2) {
		it[15] = avro_datum_null(a);
	} else {
		AvroDatum *in = avro_datum_record(a, 1);
		in->u.list.items[0] = avro_datum_fixed(a, four, 4);
		it[15] = avro_datum_union(a, 1, in);
	}
	return r;
}

static void
check_rec(const AvroFile *f, int k)
{
	const AvroDatum *r = f->records[k];
	assert_int_equal(r->type, AVRO_RECORD);
	assert_int_equal(r->u.list.n, 16);
	AvroDatum **it = r->u.list.items;
	assert_int_equal(it[1]->u.b, k & 1);
	assert_int_equal(it[2]->u.i, k % 2 ? INT32_MIN : INT32_MAX - k);
	assert_true(it[3]->u.l == (k % 3 ? INT64_MIN + k : INT64_MAX - k));
	assert_true(it[4]->u.f == 1.5f * (float)k);
	assert_true(it[5]->u.d == -0.25 * k);
	assert_int_equal(it[6]->u.bytes.len, (size_t)(k % 4));
	assert_memory_equal(it[6]->u.bytes.ptr, "\0\1\2", (size_t)(k % 4));
	char buf[64];
	snprintf(buf, sizeof buf, "str-%d-\xc3\xa9", k);
	assert_string_equal((const char *)it[7]->u.bytes.ptr, buf);
	assert_int_equal(it[8]->u.i, k % 2);
	assert_int_equal(it[9]->u.list.n, k % 5);
	for (int i = 0; i < k % 5; i++)
		assert_true(it[9]->u.list.items[i]->u.l == (int64_t)i * 1000000007LL);
	assert_int_equal(it[10]->u.map.n, k % 3);
	for (int i = 0; i < k % 3; i++) {
		snprintf(buf, sizeof buf, "k%d", i);
		assert_string_equal(it[10]->u.map.keys[i], buf);
		assert_int_equal(it[10]->u.map.values[i]->u.i, -i);
	}
	if (k % 2)
		assert_null(avro_unwrap(it[11]));
	else
		assert_string_equal((const char *)avro_unwrap(it[11])->u.bytes.ptr, "some");
	assert_memory_equal(it[12]->u.bytes.ptr, "\1\2\3\4", 4);
	assert_int_equal(it[13]->u.i, 19000 + k);
	assert_int_equal(it[14]->u.i, 1);
	if (k % 2)
		assert_null(avro_unwrap(it[15]));
	else
		assert_memory_equal(avro_unwrap(it[15])->u.list.items[0]->u.bytes.ptr, "\1\2\3\4", 4);
}

/* Run avro-dump on bytes; returns its exit status, counts output lines. */
static int
avro_dump(const uint8_t *p, size_t n, const char *args, int *lines)
{
	char tmpl[] = "/tmp/floe_test_avro_XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/avro-dump %s %s 2>&1", shared_dir(), tmpl, args);
	FILE *pf = popen(cmd, "r");
	assert_non_null(pf);
	char line[65536];
	int nl = 0;
	while (fgets(line, sizeof line, pf)) {
		if (strncmp(line, "FAIL", 4) == 0 || strncmp(line, "ERROR", 5) == 0)
			fprintf(stderr, "avro-dump: %s", line);
		nl++;
	}
	int st = pclose(pf);
	unlink(tmpl);
	if (lines)
		*lines = nl;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void
test_avro__write_roundtrip(void **state)
{
	for (int codec = AVRO_CODEC_NULL; codec <= AVRO_CODEC_ZSTD; codec++) {
		Arena *a = arena_new(0);
		enum { N = 50 };
		const AvroDatum *recs[N];
		for (int k = 0; k < N; k++)
			recs[k] = make_rec(a, k);
		const char *keys[] = {"floe.k", "avro.codec"};
		const char *vals[] = {"v\"1", "ignored"};
		const uint8_t *data;
		size_t len;
		floe_error err;
		floe_error_clear(&err);
		if (avro_write_container(all_schema, keys, vals, 2, recs, N, codec, a, &data, &len, &err))
			fail_msg("write: %s", err.message);
		AvroFile *f;
		if (avro_read_container(data, len, "rt", a, &f, &err))
			fail_msg("read back: %s", err.message);
		assert_int_equal(f->nrecords, N);
		assert_int_equal(f->codec, codec);
		assert_string_equal(avro_file_meta(f, "floe.k"), "v\"1");
		assert_string_equal(f->schema_json, all_schema);
		assert_int_equal(avro_field_by_id(f->schema, 3), 2);
		for (int k = 0; k < N; k++)
			check_rec(f, k);
		int lines;
		assert_int_equal(avro_dump(data, len, "", &lines), 0);
		assert_int_equal(lines, N + 1);   /* schema line + one per record */
		arena_free(a);
	}
}

static void
test_avro__write_errors(void **state)
{
	Arena *a = arena_new(0);
	floe_error err;
	const uint8_t *data;
	size_t len;
	const AvroDatum *rec[1] = {avro_datum_int(a, 1)};
	floe_error_clear(&err);
	assert_int_equal(avro_write_container("{\"type\":\"nope\"}", NULL, NULL, 0, rec, 1, 0, a,
					      &data, &len, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22023");
	assert_int_equal(avro_write_container("\"string\"", NULL, NULL, 0, rec, 1, 0, a, &data,
					      &len, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22023");
	/* empty file: header only */
	assert_int_equal(avro_write_container("\"long\"", NULL, NULL, 0, NULL, 0, 1, a, &data, &len,
					      &err), FLOE_OK);
	AvroFile *f;
	assert_int_equal(avro_read_container(data, len, "e", a, &f, &err), FLOE_OK);
	assert_int_equal(f->nrecords, 0);
	arena_free(a);
}

/* Every truncation and many byte flips: clean result or XX001, never a crash. */
static void
test_avro__corrupt(void **state)
{
	for (int codec = AVRO_CODEC_NULL; codec <= AVRO_CODEC_ZSTD; codec++) {
		Arena *a = arena_new(0);
		const AvroDatum *recs[8];
		for (int k = 0; k < 8; k++)
			recs[k] = make_rec(a, k);
		const uint8_t *data;
		size_t len;
		floe_error err;
		floe_error_clear(&err);
		assert_int_equal(avro_write_container(all_schema, NULL, NULL, 0, recs, 8, codec, a,
						      &data, &len, &err), FLOE_OK);
		Arena *s = arena_new(0);
		for (size_t cut = 0; cut < len; cut++) {
			uint8_t *copy = malloc(cut + 1);   /* exact size, so ASan sees overruns */
			memcpy(copy, data, cut);
			AvroFile *f;
			int rc = avro_read_container(copy, cut, "trunc", s, &f, &err);
			if (rc == FLOE_OK)
				assert_int_equal(f->nrecords, 0);   /* only header-only prefixes */
			else
				assert_string_equal(err.sqlstate, "XX001");
			free(copy);
			arena_reset(s);
		}
		uint32_t seed = 12345u + (uint32_t)codec;
		for (int t = 0; t < 3000; t++) {
			uint8_t *copy = malloc(len);
			memcpy(copy, data, len);
			for (int k = 0; k < 1 + t % 3; k++) {
				seed = seed * 1103515245u + 12345u;
				size_t at = (seed >> 8) % len;
				seed = seed * 1103515245u + 12345u;
				copy[at] ^= (uint8_t)(1u << ((seed >> 16) % 8));
			}
			AvroFile *f;
			int rc = avro_read_container(copy, len, "flip", s, &f, &err);
			if (rc != FLOE_OK)
				assert_true(strcmp(err.sqlstate, "XX001") == 0 ||
					    strcmp(err.sqlstate, "0A000") == 0);
			free(copy);
			arena_reset(s);
		}
		arena_free(s);
		arena_free(a);
	}
}

static void
test_avro__hostile(void **state)
{
	Arena *a = arena_new(0);
	floe_error err;
	AvroFile *f;
	/* header claiming a 2^62-entry metadata map */
	uint8_t h1[] = {'O', 'b', 'j', 1, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
	assert_int_equal(avro_read_container(h1, sizeof h1, "h1", a, &f, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	/* 11-byte varint */
	uint8_t h2[] = {'O', 'b', 'j', 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	assert_int_equal(avro_read_container(h2, sizeof h2, "h2", a, &f, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	/* null schema with a block of 2^40 records in 0 bytes */
	const uint8_t *data;
	size_t len;
	assert_int_equal(avro_write_container("\"null\"", NULL, NULL, 0, NULL, 0, 0, a, &data, &len, &err), 0);
	uint8_t *big = arena_alloc(a, len + 32);
	memcpy(big, data, len);
	size_t n = len;
	uint8_t cnt[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x40};   /* zigzag 2^40 */
	memcpy(big + n, cnt, sizeof cnt);
	n += sizeof cnt;
	big[n++] = 0;                                    /* size 0 */
	memcpy(big + n, data + len - 16, 16);           /* the sync marker */
	n += 16;
	assert_int_equal(avro_read_container(big, n, "bomb", a, &f, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	/* a recursive schema without a base case is rejected by depth, not a crash */
	assert_int_equal(avro_write_container("{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"n\",\"type\":\"L\"}]}",
					      NULL, NULL, 0, NULL, 0, 0, a, &data, &len, &err), 0);
	big = arena_alloc(a, len + 32);
	memcpy(big, data, len);
	n = len;
	big[n++] = 2;   /* 1 record */
	big[n++] = 0;   /* 0 bytes */
	memcpy(big + n, data + len - 16, 16);
	n += 16;
	assert_int_equal(avro_read_container(big, n, "rec", a, &f, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	/* arrays of 2^20-1 nulls, 1000 times: bounded by the datum budget */
	const char *nest = "{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":\"null\"}}";
	assert_int_equal(avro_write_container(nest, NULL, NULL, 0, NULL, 0, 0, a, &data, &len, &err), 0);
	size_t body = 3 + 1000 * 4 + 1;
	big = arena_alloc(a, len + body + 64);
	memcpy(big, data, len);
	n = len;
	big[n++] = 2;                               /* 1 record */
	big[n++] = 0xc6; big[n++] = 0x3e;           /* block size 4003 */
	big[n++] = 0xd0; big[n++] = 0x0f;           /* outer count 1000 */
	for (int i = 0; i < 1000; i++) {
		big[n++] = 0xfe; big[n++] = 0xff; big[n++] = 0x7f;   /* 2^20 - 1 */
		big[n++] = 0;
	}
	big[n++] = 0;
	memcpy(big + n, data + len - 16, 16);
	n += 16;
	assert_int_equal(avro_read_container(big, n, "nest", a, &f, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	assert_non_null(strstr(err.message, "more values than"));
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avro__weather_all_codecs),
		cmocka_unit_test(test_avro__sync_in_meta),
		cmocka_unit_test(test_avro__apache_misc),
		cmocka_unit_test(test_avro__iceberg_files),
		cmocka_unit_test(test_avro__write_roundtrip),
		cmocka_unit_test(test_avro__write_errors),
		cmocka_unit_test(test_avro__corrupt),
		cmocka_unit_test(test_avro__hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
