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
#include "format/parquet/parquet_format.h"
#include "format/parquet/parquet_write.h"
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

static char *
sql(const char *q)
{
	char cmd[4096];
	int st;
	char *out;

	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/duckdb-sql \"%s\" --no-header 2>&1", shared(), q);
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
	/* field ids 1..16 are in the schema */
	assert_non_null(strstr(out, "field_id"));
	free(out);
	{
		char q[1024];
		snprintf(q, sizeof q,
			 "SELECT string_agg(name || ':' || field_id || ':' || type || ':' || "
			 "coalesce(logical_type, '-') , ' ' ORDER BY field_id) "
			 "FROM parquet_schema('%s') WHERE field_id IS NOT NULL", path);
		csv = sql(q);
		fprintf(stderr, "%s", csv);
		free(csv);
	}
	csv = dump(path, NULL);
	fprintf(stderr, "%s", csv);
	free(csv);
	{
		char q[1024];
		snprintf(q, sizeof q,
			 "SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count, encodings, compression "
			 "FROM parquet_metadata('%s')", path);
		csv = sql(q);
		fprintf(stderr, "%s", csv);
		free(csv);
	}

	parquet_writer_free(w);
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parquet_write__all_types),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
