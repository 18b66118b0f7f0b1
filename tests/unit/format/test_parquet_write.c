/*
 * test_parquet_write.c — the Parquet writer, checked by readers nobody here
 * wrote: ../shared/tools/interop/bin/parquet-check (DuckDB and hyparquet must
 * both read the file and agree) and parquet-dump (DuckDB's CSV of the rows).
 * Files go to a temporary folder under /tmp.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/parquet/codec.h"
#include "format/parquet/parquet.h"
#include "format/parquet/parquet_format.h"
#include "format/parquet/parquet_write.h"
#include "types/array.h"
#include "types/vector.h"

static char tmpdir[256];

static const char *
shared(void)
{
	const char *s = getenv("FLOE_SHARED");
	return s ? s : "../shared";
}

/* Run a shell command; return its stdout (malloc'd) and exit status. */
static char *
run(const char *cmd, int *status)
{
	FILE *f = popen(cmd, "r");
	size_t cap = 1 << 16, len = 0, n;
	char *buf = malloc(cap);

	assert_non_null(f);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = 0;
	*status = pclose(f);
	*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
	return buf;
}

static void
save(const char *path, const uint8_t *d, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	fclose(f);
}

/* parquet-check must pass; returns its JSON (malloc'd). */
static char *
check(const char *path, int64_t rows)
{
	char cmd[1024];
	int st;
	char *out;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-check %s --expect-rows %lld 2>&1",
		 shared(), path, (long long)rows);
	out = run(cmd, &st);
	if (st != 0)
		fprintf(stderr, "parquet-check failed:\n%s\n", out);
	assert_int_equal(st, 0);
	return out;
}

static char *
dump(const char *path, const char *extra)
{
	char cmd[1024];
	int st;
	char *out;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-dump %s %s 2>&1", shared(), path,
		 extra ? extra : "");
	out = run(cmd, &st);
	if (st != 0)
		fprintf(stderr, "parquet-dump failed:\n%s\n", out);
	assert_int_equal(st, 0);
	return out;
}

/* Run SQL in DuckDB (query passed through a file: no shell quoting). */
static char *
sql(const char *q)
{
	char cmd[1024], qf[300];
	int st;
	char *out;

	snprintf(qf, sizeof qf, "%s/query.sql", tmpdir);
	save(qf, (const uint8_t *)q, strlen(q));
	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/duckdb-sql -f %s --no-header 2>&1", shared(), qf);
	out = run(cmd, &st);
	if (st != 0)
		fprintf(stderr, "duckdb-sql failed:\n%s\n", out);
	assert_int_equal(st, 0);
	return out;
}

static void __attribute__((unused))
assert_text(const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		fprintf(stderr, "--- got:\n%s--- want:\n%s---\n", got, want);
	assert_string_equal(got, want);
}

static int
setup(void **state)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/floe_pqw_XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		return -1;
	return 0;
}

/* ------------------------------------------------------------------ tests */

enum { C_B, C_I16, C_I32, C_I64, C_F32, C_F64, C_D9, C_D18, C_D38, C_T, C_BY, C_DT, C_TM,
       C_TS, C_TZ, C_U, NC };

static ParquetWriteColumn all_cols[NC];

static void
init_all_cols(void)
{
	static const char *names[NC] = {"b", "i16", "i32", "i64", "f32", "f64", "d9", "d18", "d38",
					"t", "by", "dt", "tm", "ts", "tz", "u"};
	TypeId ids[NC] = {TYPE_BOOL, TYPE_INT16, TYPE_INT32, TYPE_INT64, TYPE_FLOAT32, TYPE_FLOAT64,
			  TYPE_DECIMAL, TYPE_DECIMAL, TYPE_DECIMAL, TYPE_TEXT, TYPE_BYTEA, TYPE_DATE,
			  TYPE_TIME, TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ, TYPE_UUID};
	int i;
	for (i = 0; i < NC; i++) {
		all_cols[i].name = names[i];
		all_cols[i].field_id = i + 1;
		all_cols[i].type = type_make(ids[i]);
		all_cols[i].required = false;
	}
	all_cols[C_D9].type = type_decimal(9, 2);
	all_cols[C_D18].type = type_decimal(18, 4);
	all_cols[C_D38].type = type_decimal(38, 10);
	all_cols[C_I32].required = true;
}

static int128
i128_pow10(int n)
{
	int128 r = 1;
	while (n-- > 0)
		r *= 10;
	return r;
}

/* Fill row r of batch b with the all-types edge-value table. */
static void
fill_all(Batch *b, uint32_t r, int which)
{
	Vector *c = b->cols;
	static const char *texts[] = {"", "hello", "h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac",
				      "a string longer than twelve bytes", NULL, "zz"};
	int128 big = i128_pow10(38) - 1;
	uint8_t u[16];
	int k;

	for (k = 0; k < 16; k++)
		u[k] = (uint8_t)(which * 17 + k);
	if (which == 4) {           /* all NULL except the required column */
		for (k = 0; k < NC; k++)
			if (k != C_I32)
				vector_set_null(&c[k], r);
		((int32_t *)c[C_I32].data)[r] = 0;
		return;
	}
	((uint8_t *)c[C_B].data)[r] = which % 2;
	((int16_t *)c[C_I16].data)[r] = which == 0 ? INT16_MIN : which == 1 ? INT16_MAX : (int16_t)which;
	((int32_t *)c[C_I32].data)[r] = which == 0 ? INT32_MIN : which == 1 ? INT32_MAX : which * 1000;
	((int64_t *)c[C_I64].data)[r] = which == 0 ? INT64_MIN : which == 1 ? INT64_MAX : -which;
	((float *)c[C_F32].data)[r] = which == 0 ? NAN : which == 1 ? INFINITY : which == 2 ? -0.0f : 1.5f;
	((double *)c[C_F64].data)[r] = which == 0 ? -INFINITY : which == 1 ? NAN : which == 2 ? -0.0 : 0.1;
	((int128 *)c[C_D9].data)[r] = which == 0 ? -999999999 : which == 1 ? 999999999 : 12345;
	((int128 *)c[C_D18].data)[r] = which == 0 ? -(int128)999999999999999999LL
		: which == 1 ? (int128)999999999999999999LL : -1;
	((int128 *)c[C_D38].data)[r] = which == 0 ? -big : which == 1 ? big : 1;
	vector_set_string(&c[C_T], r, texts[which], (uint32_t)strlen(texts[which]));
	vector_set_string(&c[C_BY], r, which == 2 ? "\x00\x01\xff" : "bin", which == 2 ? 3 : 3);
	((int32_t *)c[C_DT].data)[r] = which == 0 ? -719162 : which == 1 ? 2932896 : 19000;
	((int64_t *)c[C_TM].data)[r] = which == 0 ? 0 : which == 1 ? 86399999999LL : 3723000004LL;
	((int64_t *)c[C_TS].data)[r] = which == 0 ? 0 : which == 1 ? 1700000000123456LL : -1;
	((int64_t *)c[C_TZ].data)[r] = which == 0 ? 0 : which == 1 ? 1700000000123456LL : 86400000000LL;
	memcpy(((Uuid *)c[C_U].data)[r].b, u, 16);
}

static Batch *
all_batch(Arena *a, uint32_t n)
{
	SqlType types[NC];
	int i;
	for (i = 0; i < NC; i++)
		types[i] = all_cols[i].type;
	return batch_new(a, NC, types, n);
}

static void
test_parquet_write__all_types(void **state)
{
	Arena *a = arena_new(0);
	Batch *b;
	ParquetWriter *w;
	floe_error err;
	const uint8_t *data;
	size_t len;
	char path[512], *out, *csv;
	uint32_t r;

	init_all_cols();
	b = all_batch(a, 5);
	for (r = 0; r < 5; r++)
		fill_all(b, r, (int)r);
	b->count = 5;
	w = parquet_writer_new(all_cols, NC, NULL);
	assert_non_null(w);
	assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	assert_int_equal(parquet_writer_num_rows(w), 5);
	snprintf(path, sizeof path, "%s/all.parquet", tmpdir);
	save(path, data, len);
	out = check(path, 5);
	assert_non_null(strstr(out, "\"created_by\": \"floe version 0.1.0\""));
	free(out);
	/* the schema: names, field ids, physical and logical types */
	{
		char q[2048];
		snprintf(q, sizeof q,
			 "SELECT string_agg(name || ':' || field_id || ':' || type || ':' || "
			 "coalesce(converted_type, '-') || ':' || repetition_type, ' ' ORDER BY field_id) "
			 "FROM parquet_schema('%s') WHERE field_id IS NOT NULL", path);
		csv = sql(q);
		assert_text(csv, "b:1:BOOLEAN:-:OPTIONAL i16:2:INT32:INT_16:OPTIONAL "
			    "i32:3:INT32:-:REQUIRED i64:4:INT64:-:OPTIONAL f32:5:FLOAT:-:OPTIONAL "
			    "f64:6:DOUBLE:-:OPTIONAL d9:7:INT32:DECIMAL:OPTIONAL d18:8:INT64:DECIMAL:OPTIONAL "
			    "d38:9:FIXED_LEN_BYTE_ARRAY:DECIMAL:OPTIONAL t:10:BYTE_ARRAY:UTF8:OPTIONAL "
			    "by:11:BYTE_ARRAY:-:OPTIONAL dt:12:INT32:DATE:OPTIONAL "
			    "tm:13:INT64:TIME_MICROS:OPTIONAL ts:14:INT64:TIMESTAMP_MICROS:OPTIONAL "
			    "tz:15:INT64:TIMESTAMP_MICROS:OPTIONAL u:16:FIXED_LEN_BYTE_ARRAY:-:OPTIONAL\n");
		free(csv);
		snprintf(q, sizeof q, "SELECT typeof(b), typeof(i16), typeof(d38), typeof(ts), typeof(tz), "
			 "typeof(tm), typeof(u), typeof(\"by\") FROM '%s' LIMIT 1", path);
		csv = sql(q);
		assert_text(csv, "BOOLEAN,SMALLINT,\"DECIMAL(38,10)\",TIMESTAMP,TIMESTAMP WITH TIME ZONE,"
			    "TIME,UUID,BLOB\n");
		free(csv);
	}
	csv = dump(path, NULL);
	assert_text(csv,
		"b,i16,i32,i64,f32,f64,d9,d18,d38,t,by,dt,tm,ts,tz,u\n"
		"false,-32768,-2147483648,-9223372036854775808,NaN,-Infinity,-9999999.99,"
		"-99999999999999.9999,-9999999999999999999999999999.9999999999,,bin,0001-01-01,00:00:00,"
		"1970-01-01 00:00:00,1970-01-01 00:00:00+00,00010203-0405-0607-0809-0a0b0c0d0e0f\n"
		"true,32767,2147483647,9223372036854775807,Infinity,NaN,9999999.99,99999999999999.9999,"
		"9999999999999999999999999999.9999999999,hello,bin,9999-12-31,23:59:59.999999,"
		"2023-11-14 22:13:20.123456,2023-11-14 22:13:20.123456+00,11121314-1516-1718-191a-1b1c1d1e1f20\n"
		"false,2,2000,-2,0,0,123.45,-0.0001,0.0000000001,h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac,"
		"\\x00\\x01\\xFF,2022-01-08,01:02:03.000004,1969-12-31 23:59:59.999999,1970-01-02 00:00:00+00,"
		"22232425-2627-2829-2a2b-2c2d2e2f3031\n"
		"true,3,3000,-3,1.5,0.1,123.45,-0.0001,0.0000000001,a string longer than twelve bytes,bin,"
		"2022-01-08,01:02:03.000004,1969-12-31 23:59:59.999999,1970-01-02 00:00:00+00,"
		"33343536-3738-393a-3b3c-3d3e3f404142\n"
		",,0,,,,,,,,,,,,,\n");
	free(csv);
	/* -0.0 survives (DuckDB prints it as 0) */
	{
		char q[2048];
		snprintf(q, sizeof q, "SELECT signbit(f32), signbit(f64) FROM '%s' WHERE i32 = 2000", path);
		csv = sql(q);
		assert_text(csv, "true,true\n");
		free(csv);
		/* footer statistics, as DuckDB decodes them */
		snprintf(q, sizeof q,
			 "SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count "
			 "FROM parquet_metadata('%s') WHERE path_in_schema IN "
			 "('i64','f32','f64','d38','t','dt','i32','b','u')", path);
		csv = sql(q);
		assert_text(csv,
			"b,false,true,1\n"
			"i32,-2147483648,2147483647,0\n"
			"i64,-9223372036854775808,9223372036854775807,1\n"
			/* DuckDB shows infinite bounds as empty (so does its own writer's) */
			"f32,-0.0,,1\n"
			"f64,,0.1,1\n"
			"d38,-9999999999999999999999999999.9999999999,9999999999999999999999999999.9999999999,1\n"
			"t,,h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac,1\n"
			"dt,0001-01-01,9999-12-31,1\n"
			"u,00010203-0405-0607-0809-0a0b0c0d0e0f,33343536-3738-393a-3b3c-3d3e3f404142,1\n");
		free(csv);
	}
	/* the writer's own per-column results */
	{
		const ParquetColumnResult *res = parquet_writer_column_result(w, C_F32);
		assert_non_null(res);
		assert_int_equal(res->value_count, 5);
		assert_int_equal(res->null_count, 1);
		assert_int_equal(res->nan_count, 1);
		assert_true(res->has_min_max);
		assert_true(res->min.u.f == 0 && signbit(res->min.u.f));
		assert_true(isinf(res->max.u.f) && res->max.u.f > 0);
		res = parquet_writer_column_result(w, C_D38);
		assert_true(res->min.u.d == -(i128_pow10(38) - 1));
		assert_true(res->max.u.d == i128_pow10(38) - 1);
		res = parquet_writer_column_result(w, C_T);
		assert_int_equal(res->min.u.s.len, 0);
		assert_int_equal(res->max.u.s.len, strlen("h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac"));
		assert_true(res->total_compressed_size > 0);
		res = parquet_writer_column_result(w, C_I32);
		assert_int_equal(res->null_count, 0);
		assert_int_equal(res->min.u.i, INT32_MIN);
		assert_int_equal(res->max.u.i, INT32_MAX);
		res = parquet_writer_column_result(w, C_U);
		assert_int_equal(res->min.u.uuid.b[15], 0x0f);
		assert_int_equal(res->max.u.uuid.b[0], 0x33);
	}
	parquet_writer_free(w);
	arena_free(a);
}

/* Append a formatted line to a growing string. */
static void
appendf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if ((size_t)n < *cap - *len)
			break;
		*cap *= 2;
		*buf = realloc(*buf, *cap);
	}
	*len += (size_t)n;
}

/*
 * 20000 rows in batches of 2048 (crossing vector boundaries), written with
 * small row groups and pages: a dictionary-friendly string column, a unique
 * int64 column (dictionary falls back to PLAIN), long unique strings (the
 * dictionary outgrows its byte cap), a boolean, NULLs every 7th row, and a
 * required int32.  The whole CSV from DuckDB must equal what we generated.
 */
static void
big_file(int64_t rg_rows, int codec, const char *name)
{
	enum { N = 20000 };
	SqlType types[6];
	ParquetWriteColumn cols[6] = {
		{"id", 1, {0}, true, -1, false}, {"grp", 2, {0}, false, -1, false}, {"big", 3, {0}, false, -1, false},
		{"long_s", 4, {0}, false, -1, false}, {"flag", 5, {0}, false, -1, false}, {"f", 6, {0}, false, -1, false},
	};
	ParquetWriteOptions o;
	ParquetWriter *w;
	floe_error err;
	Arena *a = arena_new(0);
	const uint8_t *data;
	size_t len, elen = 0, ecap = 1 << 20;
	char path[512], *expect = malloc(ecap), *csv, *out;
	int64_t row = 0;
	char s[600];

	types[0] = type_make(TYPE_INT32);
	types[1] = type_make(TYPE_TEXT);
	types[2] = type_make(TYPE_INT64);
	types[3] = type_make(TYPE_TEXT);
	types[4] = type_make(TYPE_BOOL);
	types[5] = type_make(TYPE_FLOAT64);
	for (int c = 0; c < 6; c++)
		cols[c].type = types[c];
	parquet_write_options_init(&o);
	o.row_group_rows = rg_rows;
	o.page_size = 64 << 10;
	o.codec = codec;
	w = parquet_writer_new(cols, 6, &o);
	assert_non_null(w);
	expect[0] = 0;
	appendf(&expect, &elen, &ecap, "id,grp,big,long_s,flag,f\n");
	while (row < N) {
		uint32_t n = N - row > 2048 ? 2048 : (uint32_t)(N - row), r;
		Batch *b = batch_new(a, 6, types, 2048);
		for (r = 0; r < n; r++) {
			int64_t i = row + r;
			bool null = i % 7 == 3;
			int64_t big = (i * 2654435761LL) % 1000003 - 500000;
			((int32_t *)b->cols[0].data)[r] = (int32_t)i;
			snprintf(s, sizeof s, "group-%lld", (long long)(i % 37));
			if (null) vector_set_null(&b->cols[1], r);
			else vector_set_string(&b->cols[1], r, s, (uint32_t)strlen(s));
			if (null) vector_set_null(&b->cols[2], r);
			else ((int64_t *)b->cols[2].data)[r] = big;
			memset(s, 'a' + (int)(i % 26), 300);
			snprintf(s + 300, sizeof s - 300, "%lld", (long long)i);
			if (i % 5 == 0) vector_set_null(&b->cols[3], r);
			else vector_set_string(&b->cols[3], r, s, (uint32_t)strlen(s));
			((uint8_t *)b->cols[4].data)[r] = (i % 3) == 0;
			if (i % 11 == 0) vector_set_null(&b->cols[5], r);
			else ((double *)b->cols[5].data)[r] = (double)(i % 1000) / 4;
			appendf(&expect, &elen, &ecap, "%lld,", (long long)i);
			if (!null) appendf(&expect, &elen, &ecap, "group-%lld", (long long)(i % 37));
			appendf(&expect, &elen, &ecap, ",");
			if (!null) appendf(&expect, &elen, &ecap, "%lld", (long long)big);
			appendf(&expect, &elen, &ecap, ",");
			if (i % 5) appendf(&expect, &elen, &ecap, "%s", s);
			appendf(&expect, &elen, &ecap, ",%s,", (i % 3) == 0 ? "true" : "false");
			if (i % 11) appendf(&expect, &elen, &ecap, "%g", (double)(i % 1000) / 4);
			appendf(&expect, &elen, &ecap, "\n");
		}
		b->count = n;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
		row += n;
	}
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	assert_int_equal(parquet_writer_num_rows(w), N);
	assert_int_equal(parquet_writer_num_row_groups(w), (N + rg_rows - 1) / rg_rows);
	assert_int_equal(parquet_writer_row_group_offset(w, 0), 4);
	snprintf(path, sizeof path, "%s/%s.parquet", tmpdir, name);
	save(path, data, len);
	out = check(path, N);
	free(out);
	csv = dump(path, NULL);
	assert_text(csv, expect);
	free(csv);
	/* results vs. the data */
	{
		const ParquetColumnResult *res = parquet_writer_column_result(w, 2);
		assert_int_equal(res->value_count, N);
		assert_int_equal(res->null_count, (N + 3) / 7);
		res = parquet_writer_column_result(w, 1);
		assert_int_equal(res->min.u.s.len, 7);
		assert_memory_equal(strview_data(&res->min.u.s), "group-0", 7);
		assert_int_equal(res->max.u.s.len, 7);
		assert_memory_equal(strview_data(&res->max.u.s), "group-9", 7);
	}
	/* DuckDB's view of row groups and encodings */
	{
		char q[2048];
		snprintf(q, sizeof q,
			 "SELECT count(DISTINCT row_group_id), "
			 "bool_or(path_in_schema = 'grp' AND encodings LIKE '%%RLE_DICTIONARY%%'), "
			 "bool_and(path_in_schema <> 'big' OR encodings NOT LIKE '%%DICTIONARY%%'), "
			 "sum(CASE WHEN path_in_schema = 'big' THEN stats_null_count END) "
			 "FROM parquet_metadata('%s')", path);
		csv = sql(q);
		snprintf(q, sizeof q, "%lld,true,true,%d\n", (long long)((N + rg_rows - 1) / rg_rows),
			 (N + 3) / 7);
		assert_text(csv, q);
		free(csv);
	}
	parquet_writer_free(w);
	free(expect);
	arena_free(a);
}

static void
test_parquet_write__many_rows_one_group(void **state)
{
	big_file(1 << 20, PQ_CODEC_ZSTD, "big1");
}

static void
test_parquet_write__many_row_groups(void **state)
{
	big_file(3000, PQ_CODEC_SNAPPY, "big7");
}

/* Every codec floe writes is read back by both readers. */
static void
test_parquet_write__codecs(void **state)
{
	int codecs[] = {PQ_CODEC_UNCOMPRESSED, PQ_CODEC_SNAPPY, PQ_CODEC_GZIP, PQ_CODEC_BROTLI,
			PQ_CODEC_ZSTD, PQ_CODEC_LZ4_RAW};
	const char *names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4_RAW"};
	ParquetWriteColumn col = {"x", 7, {0}, false, -1, false};
	SqlType t = type_make(TYPE_TEXT);
	Arena *a = arena_new(0);
	size_t k;

	col.type = t;
	for (k = 0; k < sizeof codecs / sizeof codecs[0]; k++) {
		ParquetWriteOptions o;
		ParquetWriter *w;
		Batch *b = batch_new(a, 1, &t, 3000);
		floe_error err;
		const uint8_t *data;
		size_t len;
		char path[512], q[2048], want[256], *out;
		uint32_t r;

		parquet_write_options_init(&o);
		o.codec = codecs[k];
		w = parquet_writer_new(&col, 1, &o);
		for (r = 0; r < 3000; r++) {
			char s[32];
			snprintf(s, sizeof s, "v%u", r % 100);
			if (r % 10 == 9) vector_set_null(&b->cols[0], r);
			else vector_set_string(&b->cols[0], r, s, (uint32_t)strlen(s));
		}
		b->count = 3000;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
		assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
		snprintf(path, sizeof path, "%s/codec%zu.parquet", tmpdir, k);
		save(path, data, len);
		free(check(path, 3000));
		snprintf(q, sizeof q, "SELECT (SELECT any_value(compression) FROM parquet_metadata('%s')), "
			 "count(*) FILTER (WHERE x IS NULL), count(DISTINCT x), min(x), max(x) FROM '%s'",
			 path, path);
		out = sql(q);
		snprintf(want, sizeof want, "%s,300,90,v0,v98\n", names[k]);
		assert_text(out, want);
		free(out);
		parquet_writer_free(w);
	}
	/* LZO is refused cleanly */
	{
		ParquetWriteOptions o;
		ParquetWriter *w;
		Batch *b = batch_new(a, 1, &t, 1);
		floe_error err;
		const uint8_t *data;
		size_t len;
		parquet_write_options_init(&o);
		o.codec = PQ_CODEC_LZO;
		w = parquet_writer_new(&col, 1, &o);
		vector_set_string(&b->cols[0], 0, "x", 1);
		b->count = 1;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
		assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "0A000");
		parquet_writer_free(w);
	}
	/* parquet_compress + the reader's parquet_decompress round trip */
	{
		uint8_t src[5000], *dst, back[5000];
		size_t dlen;
		floe_error err;
		for (k = 0; k < sizeof src; k++)
			src[k] = (uint8_t)(k % 17 == 0 ? k : 'a');
		for (k = 0; k < sizeof codecs / sizeof codecs[0]; k++) {
			assert_int_equal(parquet_compress(codecs[k], src, sizeof src, &dst, &dlen, a, &err), FLOE_OK);
			assert_int_equal(parquet_decompress(codecs[k], dst, dlen, back, sizeof back, &err), FLOE_OK);
			assert_memory_equal(src, back, sizeof src);
		}
	}
	arena_free(a);
}

/*
 * Batches with a selection vector, CONST and DICT vectors; NULL in a
 * required column is 23502; INTERVAL is refused; an empty file is valid.
 */
static void
test_parquet_write__vector_kinds_and_errors(void **state)
{
	SqlType types[2] = {type_make(TYPE_INT64), type_make(TYPE_TEXT)};
	ParquetWriteColumn cols[2] = {{"k", 1, {0}, true, -1, false}, {"s", 2, {0}, false, -1, false}};
	Arena *a = arena_new(0);
	ParquetWriter *w;
	Batch *b;
	floe_error err;
	const uint8_t *data;
	size_t len;
	char path[512], *csv;
	Vector child;
	Value cv;
	uint32_t r, sel[3] = {1, 3, 4};

	cols[0].type = types[0];
	cols[1].type = types[1];
	/* batch 1: flat k, DICT s (child of 2 values), sel picks rows 1,3,4 */
	w = parquet_writer_new(cols, 2, NULL);
	b = batch_new(a, 2, types, 5);
	for (r = 0; r < 5; r++)
		((int64_t *)b->cols[0].data)[r] = 10 + r;
	vector_init(&child, types[1], a, 2);
	vector_set_string(&child, 0, "zero", 4);
	vector_set_null(&child, 1);
	b->cols[1].kind = VECTOR_DICT;
	b->cols[1].child = &child;
	b->cols[1].dict_sel = ARENA_ARRAY(a, uint32_t, 5);
	for (r = 0; r < 5; r++)
		b->cols[1].dict_sel[r] = r % 2;
	b->count = 3;
	b->sel = sel;
	assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	/* batch 2: CONST k and CONST s */
	b = batch_new(a, 2, types, 4);
	cv = value_int(TYPE_INT64, -5);
	vector_init_const(&b->cols[0], &cv, a);
	memset(&cv, 0, sizeof cv);
	cv.type = types[1];
	cv.u.s = strview_make("constant string value", 21);
	vector_init_const(&b->cols[1], &cv, a);
	b->count = 2;
	assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	assert_true(parquet_writer_estimated_size(w) > 4);
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	snprintf(path, sizeof path, "%s/kinds.parquet", tmpdir);
	save(path, data, len);
	free(check(path, 5));
	csv = dump(path, NULL);
	assert_text(csv, "k,s\n11,\n13,\n14,zero\n-5,constant string value\n-5,constant string value\n");
	free(csv);
	parquet_writer_free(w);

	/* NULL in a required column */
	w = parquet_writer_new(cols, 2, NULL);
	b = batch_new(a, 2, types, 2);
	vector_set_null(&b->cols[0], 1);
	b->count = 2;
	assert_int_equal(parquet_writer_write(w, b, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "23502");
	assert_non_null(strstr(err.message, "\"k\""));
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_ERR);
	parquet_writer_free(w);

	/* decimal(9,2) value out of range: 22003, never a wrapped value */
	{
		ParquetWriteColumn dc = {"d", 1, {0}, false, -1, false};
		SqlType dt = type_decimal(9, 2);
		dc.type = dt;
		w = parquet_writer_new(&dc, 1, NULL);
		b = batch_new(a, 1, &dt, 1);
		((int128 *)b->cols[0].data)[0] = (int128)1 << 40;
		b->count = 1;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "22003");
		parquet_writer_free(w);
	}

	/* a vector of the wrong type is refused; a TYPE_NULL vector is all NULLs */
	{
		SqlType wrong[2] = {type_make(TYPE_INT32), type_make(TYPE_NULL)};
		w = parquet_writer_new(cols, 2, NULL);
		b = batch_new(a, 2, wrong, 2);
		b->count = 2;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "42804");
		parquet_writer_free(w);
		wrong[0] = types[0];
		w = parquet_writer_new(cols, 2, NULL);
		b = batch_new(a, 2, wrong, 2);
		b->count = 2;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
		assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
		assert_int_equal(parquet_writer_column_result(w, 1)->null_count, 2);
		parquet_writer_free(w);
	}

	/* unsupported type */
	{
		ParquetWriteColumn ic = {"iv", 1, {0}, false, -1, false};
		ic.type = type_make(TYPE_INTERVAL);
		assert_null(parquet_writer_new(&ic, 1, NULL));
	}

	/* no rows at all */
	w = parquet_writer_new(cols, 2, NULL);
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	snprintf(path, sizeof path, "%s/empty.parquet", tmpdir);
	save(path, data, len);
	free(check(path, 0));
	assert_int_equal(parquet_writer_column_result(w, 0)->value_count, 0);
	assert_false(parquet_writer_column_result(w, 0)->has_min_max);
	parquet_writer_free(w);
	arena_free(a);
}

/* Large strings: pages end inside a batch; dictionary gives up on size. */
static void
test_parquet_write__large_values(void **state)
{
	SqlType t = type_make(TYPE_BYTEA);
	ParquetWriteColumn col = {"blob", 9, {0}, false, -1, false};
	ParquetWriteOptions o;
	ParquetWriter *w;
	Arena *a = arena_new(0);
	Batch *b;
	floe_error err;
	const uint8_t *data;
	size_t len;
	char path[512], q[2048], want[128], *out, *big = malloc(200000);
	uint32_t r;
	int64_t total = 0;

	col.type = t;
	parquet_write_options_init(&o);
	o.page_size = 16 << 10;
	o.codec = PQ_CODEC_LZ4_RAW;
	w = parquet_writer_new(&col, 1, &o);
	b = batch_new(a, 1, &t, 300);
	for (r = 0; r < 300; r++) {
		uint32_t l = (r * 7919) % 200000;
		memset(big, (int)(r & 0xff), l);
		if (r % 17 == 5)
			vector_set_null(&b->cols[0], r);
		else {
			vector_set_string(&b->cols[0], r, big, l);
			total += l;
		}
	}
	b->count = 300;
	assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	snprintf(path, sizeof path, "%s/large.parquet", tmpdir);
	save(path, data, len);
	free(check(path, 300));
	snprintf(q, sizeof q, "SELECT sum(octet_length(blob)), count(blob), "
		 "(SELECT any_value(encodings) FROM parquet_metadata('%s')) FROM '%s'", path, path);
	out = sql(q);
	snprintf(want, sizeof want, "%lld,282,\"PLAIN, RLE\"\n", (long long)total);
	assert_text(out, want);
	free(out);
	parquet_writer_free(w);
	free(big);
	arena_free(a);
}

/* Lists (TYPE_ARRAY columns, the 3-level LIST): NULL list, empty list,
 * NULL elements, rows over several batches with pages and row groups cut
 * between lists, dictionary and PLAIN; read back by DuckDB (and hyparquet
 * via check).  A NULL in a required list or a required element is 23502. */
static void
test_parquet_write__lists(void **state)
{
	SqlType types[2] = {array_of(type_make(TYPE_INT32)), array_of(type_make(TYPE_TEXT))};
	ParquetWriteColumn cols[2] = {{"a", 1, {0}, false, 3, false}, {"t", 2, {0}, false, 4, false}};
	ParquetWriteOptions o;
	ParquetWriter *w;
	Arena *a = arena_new(0);
	floe_error err;
	const uint8_t *data;
	size_t len;
	char path[512], q[2048], *out, txt[512];
	int bi, r;
	int64_t nelem = 0, nnull = 0, sum = 0, nlists = 0;

	(void)state;
	cols[0].type = types[0];
	cols[1].type = types[1];
	parquet_write_options_init(&o);
	o.page_size = 300;
	o.row_group_rows = 1500;
	w = parquet_writer_new(cols, 2, &o);
	assert_non_null(w);
	for (bi = 0; bi < 3; bi++) {
		Batch *b = batch_new(a, 2, types, 1000);
		for (r = 0; r < 1000; r++) {
			int g = bi * 1000 + r, k, n = g % 9, at = 0;
			strview sv;
			if (g % 11 == 0) {
				vector_set_null(&b->cols[0], (uint32_t)r);
			} else {
				at = snprintf(txt, sizeof txt, "{");
				for (k = 0; k < n; k++) {
					if (k == 2) {
						at += snprintf(txt + at, sizeof txt - (size_t)at, "%sNULL", k ? "," : "");
						nnull++;
					} else {
						at += snprintf(txt + at, sizeof txt - (size_t)at, "%s%d", k ? "," : "", g + k);
						sum += g + k;
					}
				}
				snprintf(txt + at, sizeof txt - (size_t)at, "}");
				assert_int_equal(array_from_text(txt, strlen(txt), types[0], a, &sv, &err), FLOE_OK);
				vector_set_string(&b->cols[0], (uint32_t)r, strview_data(&sv), sv.len);
				nelem += n;
				nlists++;
			}
			snprintf(txt, sizeof txt, g % 5 ? "{w%d,NULL,\"\"}" : "{}", g % 4);
			assert_int_equal(array_from_text(txt, strlen(txt), types[1], a, &sv, &err), FLOE_OK);
			vector_set_string(&b->cols[1], (uint32_t)r, strview_data(&sv), sv.len);
		}
		b->count = 1000;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	}
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	assert_int_equal(parquet_writer_num_row_groups(w), 2);
	snprintf(path, sizeof path, "%s/lists.parquet", tmpdir);
	save(path, data, len);
	free(check(path, 3000));
	snprintf(q, sizeof q, "SELECT count(a), sum(len(a)), sum(list_sum(a)), "
		 "sum(len(list_filter(a, x -> x IS NULL))), count(*) FILTER (WHERE len(a) = 0), "
		 "sum(len(t)), count(*) FILTER (WHERE t = []), min(t[3]) FROM '%s'", path);
	out = sql(q);
	snprintf(txt, sizeof txt, "%lld,%lld,%lld,%lld,%d,%d,%d,\n", (long long)nlists,
		 (long long)nelem, (long long)sum, (long long)nnull, 3000 / 9 - 3000 / 99, 2400 * 3, 600);
	assert_text(out, txt);
	free(out);
	snprintf(q, sizeof q, "SELECT field_id, repetition_type FROM parquet_schema('%s') WHERE name IN ('a', 'element') "
		 "ORDER BY field_id", path);
	out = sql(q);
	assert_text(out, "1,OPTIONAL\n3,OPTIONAL\n4,OPTIONAL\n");
	free(out);
	parquet_writer_free(w);

	/* a NULL list in a REQUIRED list column; a NULL element of REQUIRED elements */
	cols[0].required = true;
	w = parquet_writer_new(cols, 1, NULL);
	{
		Batch *b = batch_new(a, 1, types, 1);
		vector_set_null(&b->cols[0], 0);
		b->count = 1;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "23502");
	}
	parquet_writer_free(w);
	cols[0].required = false;
	cols[0].elem_required = true;
	w = parquet_writer_new(cols, 1, NULL);
	{
		Batch *b = batch_new(a, 1, types, 1);
		strview sv;
		assert_int_equal(array_from_text("{1,NULL}", 8, types[0], a, &sv, &err), FLOE_OK);
		vector_set_string(&b->cols[0], 0, strview_data(&sv), sv.len);
		b->count = 1;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "23502");
	}
	parquet_writer_free(w);
	arena_free(a);
}

/* FIXED_LEN_BYTE_ARRAY widths for decimals (Iceberg's decimalRequiredBytes:
 * smallest n with 2^(8n-1) >= 10^p), and decimal(20,2)/(25,0) written at
 * those widths. */
static void
test_parquet_write__decimal_widths(void **state)
{
	static const int want[39] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8, 9, 9,
				     9, 10, 10, 11, 11, 11, 12, 12, 13, 13, 13, 14, 14, 15, 15, 16, 16, 16};
	SqlType types[2] = {type_decimal(20, 2), type_decimal(25, 0)};
	ParquetWriteColumn cols[2] = {{"a", 1, {0}, false, -1, false}, {"b", 2, {0}, false, -1, false}};
	Arena *a = arena_new(0);
	ParquetWriter *w;
	Batch *b;
	floe_error err;
	const uint8_t *data;
	size_t len;
	char path[512], q[2048], *out;
	int p;

	for (p = 1; p <= 38; p++)
		assert_int_equal(parquet_decimal_bytes(p), want[p]);
	cols[0].type = types[0];
	cols[1].type = types[1];
	w = parquet_writer_new(cols, 2, NULL);
	b = batch_new(a, 2, types, 3);
	((int128 *)b->cols[0].data)[0] = -(i128_pow10(20) - 1);
	((int128 *)b->cols[0].data)[1] = i128_pow10(20) - 1;
	((int128 *)b->cols[0].data)[2] = -1;
	((int128 *)b->cols[1].data)[0] = i128_pow10(25) - 1;
	((int128 *)b->cols[1].data)[1] = -(i128_pow10(25) - 1);
	vector_set_null(&b->cols[1], 2);
	b->count = 3;
	assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	snprintf(path, sizeof path, "%s/decw.parquet", tmpdir);
	save(path, data, len);
	free(check(path, 3));
	snprintf(q, sizeof q, "SELECT string_agg(type_length::VARCHAR, ',' ORDER BY field_id) FROM "
		 "parquet_schema('%s') WHERE field_id IS NOT NULL", path);
	out = sql(q);
	assert_text(out, "\"9,11\"\n");
	free(out);
	out = dump(path, NULL);
	assert_text(out, "a,b\n-999999999999999999.99,9999999999999999999999999\n"
		    "999999999999999999.99,-9999999999999999999999999\n-0.01,\n");
	free(out);
	parquet_writer_free(w);
	arena_free(a);
}

/* ------------------------------------------------------------ round trip */

/* Deterministic value of column c at row i (all-types table), into v. */
static void
gen(int c, int64_t i, Value *v, char *sbuf)
{
	uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull;
	int128 p30 = i128_pow10(30);

	memset(v, 0, sizeof *v);
	v->type = all_cols[c].type;
	if (c != C_I32 && i % 9 == 4) {
		v->is_null = true;
		return;
	}
	switch (c) {
	case C_B: v->u.b = (i * 7) % 3 == 0; break;
	case C_I16: v->u.i = (int16_t)(uint16_t)(i * 37); break;
	case C_I32: v->u.i = (int32_t)(uint32_t)h; break;
	case C_I64: v->u.i = (int64_t)h; break;
	case C_F32:
		v->u.f = i % 50 == 0 ? NAN : i % 51 == 0 ? -0.0 : i % 52 == 0 ? INFINITY : (double)(float)((double)i / 3);
		break;
	case C_F64:
		v->u.f = i % 50 == 1 ? NAN : i % 51 == 1 ? -0.0 : i % 52 == 1 ? -INFINITY : (double)i / 7;
		break;
	case C_D9: v->u.d = (int128)((i * 12345) % 999999999) - 500000000; break;
	case C_D18: v->u.d = (int128)(i % 2 ? -1 : 1) * ((int128)i * 1000000000000LL + i); break;
	case C_D38: v->u.d = (int128)(i % 2 ? -1 : 1) * ((int128)i * p30 + (int128)h); break;
	case C_T:
		if (i < 2500)
			snprintf(sbuf, 64, "k%d \xe2\x82\xac", (int)(i % 17));
		else
			snprintf(sbuf, 64, "unique value number %lld", (long long)i);
		v->u.s = strview_make(sbuf, (uint32_t)strlen(sbuf));
		break;
	case C_BY:
		memset(sbuf, 0, 20);
		memcpy(sbuf + 3, &h, 8);
		v->u.s = strview_make(sbuf, (uint32_t)(i % 20));
		break;
	case C_DT: v->u.i = (int32_t)(i * 3 - 5000); break;
	case C_TM: v->u.i = (i * 1000003) % 86400000000LL; break;
	case C_TS: v->u.i = (int64_t)(h >> 8) - ((int64_t)1 << 54); break;
	case C_TZ: v->u.i = 1700000000000000LL + i; break;
	case C_U:
		memcpy(v->u.uuid.b, &h, 8);
		memcpy(v->u.uuid.b + 8, &i, 8);
		break;
	}
}

static bool
value_same(const Value *a, const Value *b)
{
	if (a->is_null || b->is_null)
		return a->is_null == b->is_null;
	switch (a->type.id) {
	case TYPE_BOOL: return a->u.b == b->u.b;
	case TYPE_FLOAT32: case TYPE_FLOAT64:
		if (isnan(a->u.f)) return isnan(b->u.f);
		return a->u.f == b->u.f && signbit(a->u.f) == signbit(b->u.f);
	case TYPE_DECIMAL: return a->u.d == b->u.d;
	case TYPE_TEXT: case TYPE_BYTEA:
		return a->u.s.len == b->u.s.len &&
			memcmp(strview_data(&a->u.s), strview_data(&b->u.s), a->u.s.len) == 0;
	case TYPE_UUID: return memcmp(a->u.uuid.b, b->u.uuid.b, 16) == 0;
	default: return a->u.i == b->u.i;
	}
}

/*
 * Write 5000 rows of every type (row groups of 2000, 4 KiB pages, the
 * text column dictionary-encoded in the first row group and PLAIN later),
 * then read everything back through floe's own reader (parquet.h): types,
 * field ids, every value, row-group statistics.
 */
static void
test_parquet_write__round_trip_reader(void **state)
{
	enum { N = 5000 };
	Arena *a = arena_new(0), *ra = arena_new(0);
	ParquetWriteOptions o;
	ParquetWriter *w;
	ParquetFile *pf;
	floe_error err;
	const uint8_t *data;
	size_t len;
	SqlType types[NC];
	Batch *b;
	int c, rg;
	int64_t i, base = 0;
	char sbuf[64];
	Value v;

	init_all_cols();
	for (c = 0; c < NC; c++)
		types[c] = all_cols[c].type;
	parquet_write_options_init(&o);
	o.row_group_rows = 2000;
	o.page_size = 4096;
	w = parquet_writer_new(all_cols, NC, &o);
	for (i = 0; i < N; i += 1000) {
		uint32_t r;
		b = batch_new(a, NC, types, 1000);
		for (r = 0; r < 1000; r++)
			for (c = 0; c < NC; c++) {
				gen(c, i + r, &v, sbuf);
				vector_set_value(&b->cols[c], r, &v);
			}
		b->count = 1000;
		assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	}
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	{
		char path[512];
		snprintf(path, sizeof path, "%s/roundtrip.parquet", tmpdir);
		save(path, data, len);
		free(check(path, N));
	}
	if (parquet_open(&pf, data, len, "roundtrip.parquet", ra, &err) != FLOE_OK)
		fail_msg("parquet_open: %s", err.message);
	assert_int_equal(parquet_num_rows(pf), N);
	assert_int_equal(parquet_num_columns(pf), NC);
	assert_int_equal(parquet_num_row_groups(pf), 3);
	for (c = 0; c < NC; c++) {
		const ParquetColumn *pc = parquet_column(pf, c);
		assert_string_equal(pc->name, all_cols[c].name);
		assert_int_equal(pc->field_id, c + 1);
		assert_true(type_equal(pc->type, all_cols[c].type));
		assert_int_equal(pc->optional, !all_cols[c].required);
	}
	for (rg = 0; rg < 3; rg++) {
		int64_t rows = parquet_row_group_num_rows(pf, rg);
		for (c = 0; c < NC; c++) {
			ParquetColumnReader *cr;
			ParquetStats st;
			Vector out;
			uint32_t got, k;
			int64_t row = base, nulls = 0;
			Value mn = value_null(all_cols[c].type), mx = mn;
			bool have = false;

			if (parquet_column_reader_open(&cr, pf, rg, c, ra, &err) != FLOE_OK)
				fail_msg("reader open rg %d col %d: %s", rg, c, err.message);
			for (;;) {
				vector_init(&out, all_cols[c].type, ra, 700);
				if (parquet_column_read(cr, &out, 700, &got, &err) != FLOE_OK)
					fail_msg("read rg %d col %d: %s", rg, c, err.message);
				if (got == 0)
					break;
				for (k = 0; k < got; k++, row++) {
					Value rv;
					vector_get_value(&out, k, &rv);
					gen(c, row, &v, sbuf);
					if (!value_same(&v, &rv))
						fail_msg("rg %d col %s row %lld differs", rg, all_cols[c].name,
							 (long long)row);
					if (v.is_null) {
						nulls++;
					} else if (!(v.type.id == TYPE_FLOAT32 || v.type.id == TYPE_FLOAT64) ||
						   !isnan(v.u.f)) {
						/* track min/max by the reader's own view of stats */
						if (!have) {
							mn = v; mx = v; have = true;
							if (type_is_string(v.type.id)) {
								mn.u.s = strview_make(arena_memdup(ra, strview_data(&v.u.s), v.u.s.len), v.u.s.len);
								mx.u.s = mn.u.s;
							}
						} else if (v.type.id == TYPE_INT64 || v.type.id == TYPE_INT32) {
							if (v.u.i < mn.u.i) mn.u.i = v.u.i;
							if (v.u.i > mx.u.i) mx.u.i = v.u.i;
						} else if (v.type.id == TYPE_DECIMAL) {
							if (v.u.d < mn.u.d) mn.u.d = v.u.d;
							if (v.u.d > mx.u.d) mx.u.d = v.u.d;
						} else if (v.type.id == TYPE_TEXT) {
							if (strview_cmp(&v.u.s, &mn.u.s) < 0)
								mn.u.s = strview_make(arena_memdup(ra, strview_data(&v.u.s), v.u.s.len), v.u.s.len);
							if (strview_cmp(&v.u.s, &mx.u.s) > 0)
								mx.u.s = strview_make(arena_memdup(ra, strview_data(&v.u.s), v.u.s.len), v.u.s.len);
						}
					}
				}
			}
			assert_int_equal(row - base, rows);
			assert_int_equal(parquet_column_stats(pf, rg, c, &st, &err), FLOE_OK);
			assert_true(st.has_null_count);
			assert_int_equal(st.null_count, nulls);
			if (all_cols[c].type.id == TYPE_INT64 || all_cols[c].type.id == TYPE_INT32 ||
			    all_cols[c].type.id == TYPE_DECIMAL || all_cols[c].type.id == TYPE_TEXT) {
				assert_true(st.has_min_max);
				assert_true(value_same(&st.min, &mn));
				assert_true(value_same(&st.max, &mx));
			}
		}
		base += rows;
	}
	parquet_writer_free(w);
	arena_free(ra);
	arena_free(a);
}

/* ------------------------------------------------------------ randomized */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

typedef struct RandCol {
	SqlType type;
	uint64_t domain;     /* distinct values drawn from [0, domain) */
	int null_pct;
	int run;             /* values repeat in runs of this length (RLE paths) */
	uint64_t seed;
} RandCol;

static void
rand_value(const RandCol *rc, int64_t i, Value *v, char *sbuf)
{
	uint64_t x = ((uint64_t)(i / rc->run) * 0x9E3779B97F4A7C15ull) ^ rc->seed;
	uint64_t k;

	x ^= x >> 29;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 32;
	memset(v, 0, sizeof *v);
	v->type = rc->type;
	if ((int)(x % 100) < rc->null_pct) {
		v->is_null = true;
		return;
	}
	k = (x >> 8) % rc->domain;
	switch (rc->type.id) {
	case TYPE_BOOL: v->u.b = k & 1; break;
	case TYPE_INT32: v->u.i = (int32_t)(k * 2654435761u); break;
	case TYPE_INT64: v->u.i = (int64_t)(k * 0x9E3779B97F4A7C15ull); break;
	case TYPE_FLOAT64: v->u.f = k % 7 == 3 ? NAN : (double)k / 3 - 100; break;
	case TYPE_DECIMAL: v->u.d = ((int128)k * 1000003 - 500000) * (k % 2 ? -1 : 1); break;
	case TYPE_TEXT:
		snprintf(sbuf, 64, "%llu%s", (unsigned long long)k, k % 3 ? "-with-a-longer-tail" : "");
		v->u.s = strview_make(sbuf, (uint32_t)strlen(sbuf));
		break;
	case TYPE_UUID: memcpy(v->u.uuid.b, &k, 8); break;
	default: break;
	}
}

/*
 * Random schemas, value domains (dictionary bit widths 1..17), NULL rates,
 * run lengths, batch sizes with selection vectors, row-group and page sizes,
 * codecs and dictionary on/off; every file is read back through floe's
 * reader and compared value by value; every third also by parquet-check.
 */
static void
test_parquet_write__randomized_round_trip(void **state)
{
	static const TypeId ids[] = {TYPE_BOOL, TYPE_INT32, TYPE_INT64, TYPE_FLOAT64, TYPE_DECIMAL,
				     TYPE_TEXT, TYPE_UUID};
	static const int codecs[] = {PQ_CODEC_UNCOMPRESSED, PQ_CODEC_SNAPPY, PQ_CODEC_ZSTD,
				     PQ_CODEC_LZ4_RAW, PQ_CODEC_GZIP};
	int iter;

	rng_state = 0x1234567887654321ull;
	for (iter = 0; iter < 24; iter++) {
		Arena *a = arena_new(0), *ra = arena_new(0);
		int nc = 1 + (int)(rng() % 4), c, rg;
		int64_t nrows = (int64_t)(rng() % 9000), done = 0, base = 0;
		RandCol rcs[4];
		ParquetWriteColumn cols[4];
		SqlType types[4];
		ParquetWriteOptions o;
		ParquetWriter *w;
		ParquetFile *pf;
		floe_error err;
		const uint8_t *data;
		size_t len;
		char sbuf[64];
		Value v;

		if (iter % 5 == 0)
			nrows = (int64_t)(rng() % 4);
		for (c = 0; c < nc; c++) {
			static const uint64_t domains[] = {1, 2, 3, 200, 5000, 1u << 17, UINT32_MAX};
			rcs[c].type = type_make(ids[rng() % (sizeof ids / sizeof ids[0])]);
			if (rcs[c].type.id == TYPE_DECIMAL)
				rcs[c].type = rng() % 2 ? type_decimal(12, 3) : type_decimal(30, 5);
			rcs[c].domain = domains[rng() % (sizeof domains / sizeof domains[0])];
			rcs[c].null_pct = (int)(rng() % 3) * 50;
			rcs[c].run = rng() % 3 == 0 ? 1 + (int)(rng() % 40) : 1;
			rcs[c].seed = rng();
			types[c] = rcs[c].type;
			cols[c].name = arena_sprintf(a, "c%d", c);
			cols[c].field_id = 10 + c;
			cols[c].type = types[c];
			cols[c].required = rcs[c].null_pct == 0 && rng() % 2;
		}
		parquet_write_options_init(&o);
		o.row_group_rows = 1 + (int64_t)(rng() % 4000);
		o.page_size = 64 + (int64_t)(rng() % 20000);
		o.dictionary = rng() % 4 != 0;
		o.codec = codecs[rng() % (sizeof codecs / sizeof codecs[0])];
		w = parquet_writer_new(cols, nc, &o);
		assert_non_null(w);
		while (done < nrows) {
			uint32_t cap = 1 + (uint32_t)(rng() % 3000), n, r, *sel = NULL;
			Batch *b = batch_new(a, nc, types, cap);
			bool use_sel = rng() % 3 == 0;
			if (use_sel)
				sel = ARENA_ARRAY(a, uint32_t, cap);
			n = 0;
			for (r = 0; r < cap && done + n < nrows; r++) {
				if (use_sel && rng() % 2)
					continue;      /* a row the selection skips: garbage */
				for (c = 0; c < nc; c++) {
					rand_value(&rcs[c], done + n, &v, sbuf);
					vector_set_value(&b->cols[c], r, &v);
				}
				if (use_sel)
					sel[n] = r;
				n++;
			}
			b->count = use_sel ? n : r;
			b->sel = sel;
			if (!use_sel)
				n = r;
			assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
			done += n;
		}
		assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
		assert_int_equal(parquet_writer_num_rows(w), nrows);
		if (iter % 3 == 0) {
			char path[512];
			snprintf(path, sizeof path, "%s/rand%d.parquet", tmpdir, iter);
			save(path, data, len);
			free(check(path, nrows));
		}
		if (parquet_open(&pf, data, len, "rand.parquet", ra, &err) != FLOE_OK)
			fail_msg("iter %d: parquet_open: %s", iter, err.message);
		assert_int_equal(parquet_num_rows(pf), nrows);
		for (rg = 0; rg < parquet_num_row_groups(pf); rg++) {
			int64_t rows = parquet_row_group_num_rows(pf, rg);
			for (c = 0; c < nc; c++) {
				ParquetColumnReader *cr;
				Vector out;
				uint32_t got, k;
				int64_t row = base;
				if (parquet_column_reader_open(&cr, pf, rg, c, ra, &err) != FLOE_OK)
					fail_msg("iter %d rg %d col %d: %s", iter, rg, c, err.message);
				for (;;) {
					vector_init(&out, types[c], ra, 1000);
					if (parquet_column_read(cr, &out, 1000, &got, &err) != FLOE_OK)
						fail_msg("iter %d rg %d col %d: %s", iter, rg, c, err.message);
					if (!got)
						break;
					for (k = 0; k < got; k++, row++) {
						Value rv;
						vector_get_value(&out, k, &rv);
						rand_value(&rcs[c], row, &v, sbuf);
						if (!value_same(&v, &rv))
							fail_msg("iter %d rg %d col %d row %lld differs", iter, rg, c,
								 (long long)row);
					}
				}
				assert_int_equal(row - base, rows);
			}
			base += rows;
		}
		assert_int_equal(base, nrows);
		parquet_writer_free(w);
		arena_free(ra);
		arena_free(a);
	}
}

/*
 * Files written by DuckDB (testdata/tpch-sf0.1), read with floe's reader
 * and written again with the writer, must have the same content checksum
 * as the originals, as computed by parquet-check (DuckDB and hyparquet).
 */
static void
rewrite(const char *table)
{
	char src[512], dst[512], cmd[1200], *out, *sum;
	int st, nc, c, rg;
	FILE *f;
	uint8_t *data;
	long flen;
	Arena *a = arena_new(0);
	ParquetFile *pf;
	ParquetWriteColumn *cols;
	SqlType *types;
	ParquetWriter *w;
	floe_error err;
	const uint8_t *o;
	size_t olen;

	snprintf(src, sizeof src, "%s/testdata/tpch-sf0.1/data/%s.parquet", shared(), table);
	f = fopen(src, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	flen = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc((size_t)flen);
	assert_int_equal(fread(data, 1, (size_t)flen, f), (size_t)flen);
	fclose(f);
	if (parquet_open(&pf, data, (size_t)flen, src, a, &err) != FLOE_OK)
		fail_msg("parquet_open %s: %s", src, err.message);
	nc = parquet_num_columns(pf);
	cols = ARENA_ARRAY(a, ParquetWriteColumn, nc);
	types = ARENA_ARRAY(a, SqlType, nc);
	for (c = 0; c < nc; c++) {
		const ParquetColumn *pc = parquet_column(pf, c);
		cols[c].name = pc->name;
		cols[c].field_id = c + 1;
		cols[c].type = types[c] = pc->type;
		cols[c].required = !pc->optional;
	}
	w = parquet_writer_new(cols, nc, NULL);
	assert_non_null(w);
	for (rg = 0; rg < parquet_num_row_groups(pf); rg++) {
		ParquetColumnReader **rs = ARENA_ARRAY(a, ParquetColumnReader *, nc);
		Arena *ba = arena_new(0);
		for (c = 0; c < nc; c++)
			assert_int_equal(parquet_column_reader_open(&rs[c], pf, rg, c, a, &err), FLOE_OK);
		for (;;) {
			Batch *b;
			uint32_t got = 0;
			arena_reset(ba);
			b = batch_new(ba, nc, types, VECTOR_SIZE);
			for (c = 0; c < nc; c++)
				if (parquet_column_read(rs[c], &b->cols[c], VECTOR_SIZE, &got, &err) != FLOE_OK)
					fail_msg("read: %s", err.message);
			if (!got)
				break;
			b->count = got;
			assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
		}
		arena_free(ba);
	}
	assert_int_equal(parquet_writer_finish(w, &o, &olen, &err), FLOE_OK);
	snprintf(dst, sizeof dst, "%s/%s.parquet", tmpdir, table);
	save(dst, o, olen);
	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-check %s --quiet 2>&1", shared(), src);
	out = run(cmd, &st);
	assert_int_equal(st, 0);
	sum = strstr(out, "checksum=");
	assert_non_null(sum);
	sum[strcspn(sum, "\n")] = 0;
	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-check %s --quiet --expect-rows %lld "
		 "--expect-checksum %s 2>&1", shared(), dst, (long long)parquet_num_rows(pf),
		 sum + strlen("checksum="));
	free(out);
	out = run(cmd, &st);
	if (st)
		fprintf(stderr, "%s\n", out);
	assert_int_equal(st, 0);
	free(out);
	parquet_writer_free(w);
	free(data);
	arena_free(a);
}

static void
test_parquet_write__rewrite_duckdb_files(void **state)
{
	rewrite("nation");
	rewrite("supplier");
	rewrite("customer");
	rewrite("orders");
}

/* Invalid UTF-8 in a TEXT column (PLAIN and dictionary pages) is XX001 on
 * read naming the file: bytes from a file never reach a client as text. */
static void
test_parquet_write__invalid_utf8_refused(void **state)
{
	/* the last four put the bad byte past the reader's 8-bytes-at-a-time
	 * ASCII scan: after a whole word, in the second word, a NUL there */
	static const char *bad[] = { "ok\xc3\x28", "nul\0in", "\xed\xa0\x80", "12345678\xc3\x28",
				     "abcdefghij\0klmnop", "abcdefgh12345\xff" "78", "abcdefgh\x80" };
	static const size_t badlen[] = { 4, 6, 3, 10, 17, 16, 9 };
	for (int dict = 0; dict < 2; dict++)
		for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
			Arena *a = arena_new(0);
			ParquetWriteColumn col = { "x", 1, type_make(TYPE_TEXT), false, -1, false};
			ParquetWriteOptions o;
			ParquetWriter *w;
			ParquetFile *pf;
			ParquetColumnReader *r;
			Batch *b = batch_new(a, 1, &col.type, 3);
			floe_error err;
			const uint8_t *data;
			size_t len;
			uint32_t got;
			Vector v;

			parquet_write_options_init(&o);
			o.dictionary = dict;
			w = parquet_writer_new(&col, 1, &o);
			vector_set_string(&b->cols[0], 0, "fine", 4);
			vector_set_string(&b->cols[0], 1, bad[k], (uint32_t)badlen[k]);
			vector_set_string(&b->cols[0], 2, "fine", 4);
			b->count = 3;
			assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
			assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
			assert_int_equal(parquet_open(&pf, data, len, "bad-utf8.parquet", a, &err), FLOE_OK);
			assert_int_equal(parquet_column_reader_open(&r, pf, 0, 0, a, &err), FLOE_OK);
			vector_init(&v, col.type, a, 8);
			assert_int_equal(parquet_column_read(r, &v, 8, &got, &err), FLOE_ERR);
			assert_string_equal(err.sqlstate, "XX001");
			assert_non_null(strstr(err.message, "bad-utf8.parquet"));
			assert_non_null(strstr(err.message, "UTF8"));
			parquet_writer_free(w);
			arena_free(a);
		}
}

/* Valid UTF-8 past the 8-bytes-at-a-time ASCII scan reads back exactly. */
static void
test_parquet_write__long_utf8_read(void **state)
{
	static const char *good[] = { "abcdefgh\xc3\xa9" "abcdefgh", "abcdefghijklmnop", "\xe2\x82\xac" "1234567812345678",
				      "12345678" };
	const int n = (int)(sizeof good / sizeof good[0]);
	Arena *a = arena_new(0);
	ParquetWriteColumn col = { "x", 1, type_make(TYPE_TEXT), false, -1, false};
	ParquetWriteOptions o;
	ParquetWriter *w;
	ParquetFile *pf;
	ParquetColumnReader *r;
	Batch *b = batch_new(a, 1, &col.type, n);
	floe_error err;
	const uint8_t *data;
	size_t len;
	uint32_t got;
	Vector v;

	(void)state;
	parquet_write_options_init(&o);
	w = parquet_writer_new(&col, 1, &o);
	for (int i = 0; i < n; i++)
		vector_set_string(&b->cols[0], i, good[i], (uint32_t)strlen(good[i]));
	b->count = n;
	assert_int_equal(parquet_writer_write(w, b, &err), FLOE_OK);
	assert_int_equal(parquet_writer_finish(w, &data, &len, &err), FLOE_OK);
	assert_int_equal(parquet_open(&pf, data, len, "good-utf8.parquet", a, &err), FLOE_OK);
	assert_int_equal(parquet_column_reader_open(&r, pf, 0, 0, a, &err), FLOE_OK);
	vector_init(&v, col.type, a, 8);
	assert_int_equal(parquet_column_read(r, &v, 8, &got, &err), FLOE_OK);
	assert_int_equal(got, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		const strview *sv = &((const strview *)v.data)[i];
		assert_int_equal(sv->len, strlen(good[i]));
		assert_memory_equal(strview_data(sv), good[i], sv->len);
	}
	parquet_writer_free(w);
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parquet_write__all_types),
		cmocka_unit_test(test_parquet_write__many_rows_one_group),
		cmocka_unit_test(test_parquet_write__many_row_groups),
		cmocka_unit_test(test_parquet_write__codecs),
		cmocka_unit_test(test_parquet_write__vector_kinds_and_errors),
		cmocka_unit_test(test_parquet_write__round_trip_reader),
		cmocka_unit_test(test_parquet_write__large_values),
		cmocka_unit_test(test_parquet_write__lists),
		cmocka_unit_test(test_parquet_write__decimal_widths),
		cmocka_unit_test(test_parquet_write__rewrite_duckdb_files),
		cmocka_unit_test(test_parquet_write__randomized_round_trip),
		cmocka_unit_test(test_parquet_write__invalid_utf8_refused),
		cmocka_unit_test(test_parquet_write__long_utf8_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
