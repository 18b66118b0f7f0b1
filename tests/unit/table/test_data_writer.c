/*
 * test_data_writer.c — the Iceberg data-file writer: rolling files at a
 * target size, file naming, DataFile metrics (counts, sizes, split offsets,
 * Appendix D bounds with truncate(16)), abort.  The files are checked with
 * ../shared/tools/interop/bin/parquet-check and DuckDB (duckdb-sql) as the
 * source of truth for the data's min/max/null counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/parquet/parquet_format.h"
#include "storage/fileio.h"
#include "table/data_writer.h"
#include "types/vector.h"

static char tmpdir[256];

static const char *
shared(void)
{
	const char *s = getenv("FLOE_SHARED");
	return s ? s : "../shared";
}

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

static char *
sql(const char *q)
{
	char cmd[1024], qf[300];
	int st;
	char *out;
	FILE *f;

	snprintf(qf, sizeof qf, "%s/query.sql", tmpdir);
	f = fopen(qf, "w");
	assert_non_null(f);
	fputs(q, f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/duckdb-sql -f %s --no-header 2>&1", shared(), qf);
	out = run(cmd, &st);
	if (st != 0)
		fprintf(stderr, "duckdb-sql failed:\n%s\n", out);
	assert_int_equal(st, 0);
	return out;
}

static void
assert_text(const char *got, const char *want)
{
	if (strcmp(got, want) != 0)
		fprintf(stderr, "--- got:\n%s--- want:\n%s---\n", got, want);
	assert_string_equal(got, want);
}

static int
setup(void **state)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/floe_dw_XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static int64_t
le64(const uint8_t *p, uint32_t n)
{
	uint64_t v = 0;
	uint32_t i;
	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	if (n == 4)
		return (int32_t)(uint32_t)v;
	return (int64_t)v;
}

static char *
hex(const uint8_t *p, uint32_t n, char *buf)
{
	uint32_t i;
	for (i = 0; i < n; i++)
		sprintf(buf + 2 * i, "%02x", p[i]);
	buf[2 * n] = 0;
	return buf;
}

/* ------------------------------------------------------------------ bounds */

static void
check_bound(SqlType t, const char *val, uint32_t vlen, bool upper, const char *want_hex)
{
	Arena *a = arena_new(0);
	Value v;
	uint8_t *b;
	uint32_t n;
	char buf[256];
	bool ok;

	memset(&v, 0, sizeof v);
	v.type = t;
	v.u.s = strview_make(val, vlen);
	ok = data_writer_bound(t, &v, upper, a, &b, &n);
	if (!want_hex) {
		assert_false(ok);
	} else {
		assert_true(ok);
		assert_string_equal(hex(b, n, buf), want_hex);
	}
	arena_free(a);
}

static void
check_dec(int128 d, const char *want_hex)
{
	Arena *a = arena_new(0);
	Value v;
	uint8_t *b;
	uint32_t n;
	char buf[64];

	memset(&v, 0, sizeof v);
	v.type = type_decimal(38, 0);
	v.u.d = d;
	assert_true(data_writer_bound(v.type, &v, false, a, &b, &n));
	assert_string_equal(hex(b, n, buf), want_hex);
	arena_free(a);
}

/* Appendix D serialization and truncate(16), by hand from the spec. */
static void
test_data_writer__bounds(void **state)
{
	SqlType text = type_make(TYPE_TEXT), bin = type_make(TYPE_BYTEA);
	/* 17 x U+00E9 (2 bytes each) */
	const char *e17 = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
			  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";
	char ff[20];

	/* short strings are exact */
	check_bound(text, "abc", 3, false, "616263");
	check_bound(text, "abc", 3, true, "616263");
	check_bound(text, "", 0, true, "");
	/* 20 ASCII chars: lower = 16 chars, upper = 16 chars with the last +1 */
	check_bound(text, "abcdefghijklmnopqrst", 20, false, "6162636465666768696a6b6c6d6e6f70");
	check_bound(text, "abcdefghijklmnopqrst", 20, true, "6162636465666768696a6b6c6d6e6f71");
	/* truncation counts code points, not bytes: 16 x e-acute, then U+00EA */
	check_bound(text, e17, 34, false,
		    "c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9");
	check_bound(text, e17, 34, true,
		    "c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3a9c3aa");
	/* binary: 16 bytes; the upper bound drops trailing 0xff and increments */
	memset(ff, 0xff, sizeof ff);
	ff[0] = 0x41;
	check_bound(bin, ff, 20, false, "41ffffffffffffffffffffffffffffff");
	check_bound(bin, ff, 20, true, "42");
	memset(ff, 0xff, sizeof ff);
	check_bound(bin, ff, 20, true, NULL);
	check_bound(bin, ff, 16, true, "ffffffffffffffffffffffffffffffff");
	/* decimals: minimal big-endian two's complement */
	check_dec(0, "00");
	check_dec(-1, "ff");
	check_dec(127, "7f");
	check_dec(128, "0080");
	check_dec(-128, "80");
	check_dec(-129, "ff7f");
	check_dec(1234567, "12d687");
	/* zeros widen to cover both signs */
	{
		Arena *a = arena_new(0);
		Value v;
		uint8_t *b;
		uint32_t n;
		char buf[40];
		memset(&v, 0, sizeof v);
		v.type = type_make(TYPE_FLOAT64);
		v.u.f = 0.0;
		assert_true(data_writer_bound(v.type, &v, false, a, &b, &n));
		assert_string_equal(hex(b, n, buf), "0000000000000080");
		v.u.f = -0.0;
		assert_true(data_writer_bound(v.type, &v, true, a, &b, &n));
		assert_string_equal(hex(b, n, buf), "0000000000000000");
		v.type = type_make(TYPE_FLOAT32);
		v.u.f = 1.5;
		assert_true(data_writer_bound(v.type, &v, true, a, &b, &n));
		assert_string_equal(hex(b, n, buf), "0000c03f");
		v.type = type_make(TYPE_INT32);
		v.u.i = -2;
		assert_true(data_writer_bound(v.type, &v, true, a, &b, &n));
		assert_string_equal(hex(b, n, buf), "feffffff");
		arena_free(a);
	}
}

/* ------------------------------------------------------------------ files */

enum { NF = 8 };

static IcebergSchema
make_schema(IcebergField *f)
{
	IcebergSchema s;
	static const char *names[NF] = {"id", "name", "price", "ratio", "ts", "ok", "tag", "f32"};
	static const char *itypes[NF] = {"long", "string", "decimal(38,10)", "double", "timestamptz",
					 "boolean", "uuid", "float"};
	SqlType types[NF] = {type_make(TYPE_INT64), type_make(TYPE_TEXT), type_decimal(38, 10),
			     type_make(TYPE_FLOAT64), type_make(TYPE_TIMESTAMPTZ), type_make(TYPE_BOOL),
			     type_make(TYPE_UUID), type_make(TYPE_FLOAT32)};
	int i;

	memset(&s, 0, sizeof s);
	for (i = 0; i < NF; i++) {
		memset(&f[i], 0, sizeof f[i]);
		f[i].id = 100 + i;
		f[i].name = (char *)names[i];
		f[i].iceberg_type = (char *)itypes[i];
		f[i].type = types[i];
		f[i].required = i == 0;
	}
	s.schema_id = 3;
	s.nfields = NF;
	s.fields = f;
	return s;
}

static void
fill(Batch *b, int64_t start, uint32_t n)
{
	uint32_t r;
	char s[64];

	for (r = 0; r < n; r++) {
		int64_t i = start + r;
		((int64_t *)b->cols[0].data)[r] = i * 3 - 5000;
		snprintf(s, sizeof s, "name %05lld %s", (long long)(i % 500),
			 i % 2 ? "with a long tail" : "x");
		if (i % 10 == 0) vector_set_null(&b->cols[1], r);
		else vector_set_string(&b->cols[1], r, s, (uint32_t)strlen(s));
		((int128 *)b->cols[2].data)[r] = (int128)(i - 1000) * 1000000000000LL;
		if (i % 13 == 0) ((double *)b->cols[3].data)[r] = NAN;
		else ((double *)b->cols[3].data)[r] = (double)(i % 97) / 8 - 3;
		((int64_t *)b->cols[4].data)[r] = 1700000000000000LL + i * 1000;
		if (i % 4 == 1) vector_set_null(&b->cols[5], r);
		else ((uint8_t *)b->cols[5].data)[r] = i % 3 == 0;
		memset(((Uuid *)b->cols[6].data)[r].b, (int)(i % 251), 16);
		vector_set_null(&b->cols[7], r);   /* an all-NULL column */
	}
	b->count = n;
}

static void
test_data_writer__rolls_files_with_metrics(void **state)
{
	enum { N = 9000 };
	IcebergField f[NF];
	IcebergSchema schema = make_schema(f);
	Arena *a = arena_new(0);
	FileIO *io = fileio_local_new(tmpdir);
	char dir[600];
	DataWriter *w;
	ParquetWriteOptions o;
	DataFile *files;
	int nfiles, i, j;
	floe_error err;
	int64_t row = 0, total = 0;
	SqlType types[NF];
	regex_t re;

	for (i = 0; i < NF; i++)
		types[i] = f[i].type;
	snprintf(dir, sizeof dir, "%s/data/", tmpdir);
	w = data_writer_new(io, dir, &schema, 32 * 1024, a);
	parquet_write_options_init(&o);
	o.row_group_rows = 1000;
	data_writer_set_options(w, &o);
	while (row < N) {
		Batch *b = batch_new(a, NF, types, 2048);
		uint32_t n = N - row > 2048 ? 2048 : (uint32_t)(N - row);
		fill(b, row, n);
		assert_int_equal(data_writer_write(w, b, &err), FLOE_OK);
		row += n;
	}
	assert_int_equal(data_writer_finish(w, &files, &nfiles, &err), FLOE_OK);
	assert_true(nfiles >= 2);
	snprintf(dir, sizeof dir, "^%s/data/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
		 "[0-9a-f]{12}-[0-9]+\\.parquet$", tmpdir);
	assert_int_equal(regcomp(&re, dir, REG_EXTENDED | REG_NOSUB), 0);
	for (i = 0; i < nfiles; i++) {
		DataFile *df = &files[i];
		struct stat st;
		char q[4096], want[1024], *out, cmd[1024], hb[2][80];
		int status;
		int64_t nrg;

		assert_int_equal(regexec(&re, df->file_path, 0, NULL, 0), 0);
		assert_string_equal(df->file_format, "PARQUET");
		assert_int_equal(df->content, CONTENT_DATA);
		assert_int_equal(stat(df->file_path, &st), 0);
		assert_int_equal(df->file_size_in_bytes, st.st_size);
		total += df->record_count;
		/* both readers agree, with the row count we report */
		snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-check %s --expect-rows %lld 2>&1",
			 shared(), df->file_path, (long long)df->record_count);
		out = run(cmd, &status);
		if (status)
			fprintf(stderr, "%s\n", out);
		assert_int_equal(status, 0);
		free(out);
		/* split offsets = row-group starts; field ids in the footer */
		snprintf(q, sizeof q,
			 "SELECT count(DISTINCT row_group_id), min(coalesce(dictionary_page_offset, data_page_offset)) "
			 "FROM parquet_metadata('%s');"
			 , df->file_path);
		out = sql(q);
		nrg = (df->record_count + 999) / 1000;
		snprintf(want, sizeof want, "%lld,4\n", (long long)nrg);
		assert_text(out, want);
		free(out);
		assert_int_equal(df->nsplit_offsets, nrg);
		assert_int_equal(df->split_offsets[0], 4);
		for (j = 1; j < df->nsplit_offsets; j++)
			assert_true(df->split_offsets[j] > df->split_offsets[j - 1]);
		snprintf(q, sizeof q,
			 "SELECT string_agg(field_id::VARCHAR, ',' ORDER BY field_id) FROM parquet_schema('%s') "
			 "WHERE field_id IS NOT NULL", df->file_path);
		out = sql(q);
		assert_text(out, "\"100,101,102,103,104,105,106,107\"\n");
		free(out);
		snprintf(q, sizeof q, "SELECT json_extract(decode(value), '$.fields[2].type') "
			 "FROM parquet_kv_metadata('%s') WHERE decode(key) = 'iceberg.schema'", df->file_path);
		out = sql(q);
		assert_text(out, "\"\"\"decimal(38,10)\"\"\"\n");
		free(out);
		/* metrics vs. what DuckDB computes from the data */
		assert_int_equal(df->ncolumns, NF);
		snprintf(q, sizeof q,
			 "SELECT count(*), count(*) - count(name), min(id), max(id), "
			 "count(*) FILTER (WHERE isnan(ratio)), min(ratio) FILTER (WHERE NOT isnan(ratio)), "
			 "max(ratio) FILTER (WHERE NOT isnan(ratio)), count(*) - count(ok), "
			 "epoch_us(min(ts)), epoch_us(max(ts)), "
			 "hex(min(name)::BLOB), hex(max(name)::BLOB), min(price)::VARCHAR, max(price)::VARCHAR "
			 "FROM '%s'", df->file_path);
		out = sql(q);
		{
			ColumnStat *c = df->columns;
			double rmin, rmax;
			int128 pmin, pmax;
			uint8_t be[16];
			int k;
			memcpy(&rmin, c[3].lower, 8);
			memcpy(&rmax, c[3].upper, 8);
			/* price bounds: minimal big-endian bytes -> int128 */
			pmin = (c[2].lower[0] & 0x80) ? -1 : 0;
			for (k = 0; k < (int)c[2].lower_len; k++)
				pmin = (int128)(((uint128)pmin << 8) | c[2].lower[k]);
			pmax = (c[2].upper[0] & 0x80) ? -1 : 0;
			for (k = 0; k < (int)c[2].upper_len; k++)
				pmax = (int128)(((uint128)pmax << 8) | c[2].upper[k]);
			(void)be;
			/* name bounds: lower truncated to 16 code points (ASCII here) */
			snprintf(want, sizeof want,
				 "%lld,%lld,%lld,%lld,%lld,%g,%g,%lld,%lld,%lld,%s,%s,%lld.0000000000,%lld.0000000000\n",
				 (long long)df->record_count, (long long)c[1].null_count,
				 (long long)le64(c[0].lower, 8), (long long)le64(c[0].upper, 8),
				 (long long)c[3].nan_count, rmin, rmax, (long long)c[5].null_count,
				 (long long)le64(c[4].lower, 8), (long long)le64(c[4].upper, 8),
				 "X", "X", (long long)(pmin / 10000000000LL), (long long)(pmax / 10000000000LL));
			/* compare all but the name bounds, which DuckDB gives untruncated */
			{
				char *gp = strdup(out), *wp = strdup(want);
				char *gf[16], *wf[16], *save1, *save2, *t;
				int ng = 0, nw = 0;
				for (t = strtok_r(gp, ",\n", &save1); t && ng < 16; t = strtok_r(NULL, ",\n", &save1))
					gf[ng++] = t;
				for (t = strtok_r(wp, ",\n", &save2); t && nw < 16; t = strtok_r(NULL, ",\n", &save2))
					wf[nw++] = t;
				assert_int_equal(ng, 14);
				assert_int_equal(nw, 14);
				for (k = 0; k < 14; k++) {
					if (k == 10 || k == 11)
						continue;
					if (strcmp(gf[k], wf[k]) != 0)
						fprintf(stderr, "field %d: duckdb %s, metrics %s\n", k, gf[k], wf[k]);
					assert_string_equal(gf[k], wf[k]);
				}
				/* lower bound of name = first 16 bytes of DuckDB's min */
				assert_int_equal(c[1].lower_len, 16);
				assert_int_equal(strncasecmp(hex(c[1].lower, 16, hb[0]), gf[10], 32), 0);
				/* upper = first 16 bytes of max with the last one incremented */
				assert_int_equal(c[1].upper_len, 16);
				assert_int_equal(strncasecmp(hex(c[1].upper, 15, hb[1]), gf[11], 30), 0);
				{
					unsigned last;
					char two[3] = {gf[11][30], gf[11][31], 0};
					sscanf(two, "%x", &last);
					assert_int_equal(c[1].upper[15], last + 1);
				}
				free(gp);
				free(wp);
			}
			assert_int_equal(c[0].value_count, df->record_count);
			assert_int_equal(c[0].null_count, 0);
			assert_int_equal(c[0].nan_count, -1);
			assert_int_equal(c[3].null_count, 0);
			assert_true(c[0].column_size > 0);
			/* the all-NULL float column: counts, no bounds, nan_count 0 */
			assert_int_equal(c[7].null_count, df->record_count);
			assert_int_equal(c[7].nan_count, 0);
			assert_null(c[7].lower);
			assert_null(c[7].upper);
			/* boolean and uuid bounds */
			assert_int_equal(c[5].lower_len, 1);
			assert_int_equal(c[5].lower[0], 0);
			assert_int_equal(c[5].upper[0], 1);
			assert_int_equal(c[6].lower_len, 16);
			for (k = 0; k < NF; k++)
				assert_int_equal(c[k].field_id, 100 + k);
		}
		free(out);
	}
	regfree(&re);
	assert_int_equal(total, N);
	/* abort removes what was written */
	data_writer_abort(w);
	for (i = 0; i < nfiles; i++)
		assert_int_equal(access(files[i].file_path, F_OK), -1);
	data_writer_free(w);
	fileio_free(io);
	arena_free(a);
}

/* Nothing written: no files.  A NULL in a required field: 23502. */
static void
test_data_writer__empty_and_errors(void **state)
{
	IcebergField f[NF];
	IcebergSchema schema = make_schema(f);
	Arena *a = arena_new(0);
	FileIO *io = fileio_local_new(tmpdir);
	DataWriter *w;
	DataFile *files;
	int nfiles;
	floe_error err;
	SqlType types[NF];
	Batch *b;
	int i;

	for (i = 0; i < NF; i++)
		types[i] = f[i].type;
	w = data_writer_new(io, tmpdir, &schema, 0, a);
	assert_int_equal(data_writer_finish(w, &files, &nfiles, &err), FLOE_OK);
	assert_int_equal(nfiles, 0);
	data_writer_free(w);

	w = data_writer_new(io, tmpdir, &schema, 0, a);
	b = batch_new(a, NF, types, 4);
	fill(b, 0, 4);
	vector_set_null(&b->cols[0], 2);
	assert_int_equal(data_writer_write(w, b, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "23502");
	data_writer_abort(w);
	data_writer_free(w);

	/* nested fields are refused with 0A000 */
	f[3].nested = true;
	w = data_writer_new(io, tmpdir, &schema, 0, a);
	b = batch_new(a, NF, types, 4);
	fill(b, 0, 4);
	assert_int_equal(data_writer_write(w, b, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "0A000");
	data_writer_free(w);
	fileio_free(io);
	arena_free(a);
}

/* Iceberg write.* table properties: codec, metrics modes. */
static void
test_data_writer__table_properties(void **state)
{
	IcebergField f[NF];
	IcebergSchema schema = make_schema(f);
	Arena *a = arena_new(0);
	FileIO *io = fileio_local_new(tmpdir);
	DataWriter *w;
	DataFile *files;
	int nfiles, i;
	floe_error err;
	SqlType types[NF];
	Batch *b;
	char dir[300], q[1024], *out;

	for (i = 0; i < NF; i++)
		types[i] = f[i].type;
	snprintf(dir, sizeof dir, "%s/props", tmpdir);
	w = data_writer_new(io, dir, &schema, 0, a);
	assert_int_equal(data_writer_set_property(w, "write.parquet.compression-codec", "gzip", &err), FLOE_OK);
	assert_int_equal(data_writer_set_property(w, "write.metadata.metrics.column.name", "truncate(4)", &err), FLOE_OK);
	assert_int_equal(data_writer_set_property(w, "write.metadata.metrics.column.id", "none", &err), FLOE_OK);
	assert_int_equal(data_writer_set_property(w, "write.metadata.metrics.column.ratio", "full", &err), FLOE_OK);
	assert_int_equal(data_writer_set_property(w, "write.metadata.metrics.default", "counts", &err), FLOE_OK);
	assert_int_equal(data_writer_set_property(w, "some.other.property", "x", &err), FLOE_OK);
	assert_int_equal(data_writer_set_property(w, "write.metadata.metrics.default", "truncate(0)", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22023");
	assert_int_equal(data_writer_set_property(w, "write.parquet.compression-codec", "lzo", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22023");
	assert_int_equal(data_writer_set_property(w, "write.target-file-size-bytes", "-5", &err), FLOE_ERR);
	b = batch_new(a, NF, types, 100);
	fill(b, 1, 100);
	assert_int_equal(data_writer_write(w, b, &err), FLOE_OK);
	assert_int_equal(data_writer_finish(w, &files, &nfiles, &err), FLOE_OK);
	assert_int_equal(nfiles, 1);
	snprintf(q, sizeof q, "SELECT DISTINCT compression FROM parquet_metadata('%s')", files[0].file_path);
	out = sql(q);
	assert_text(out, "GZIP\n");
	free(out);
	{
		ColumnStat *c = files[0].columns;
		/* id: none */
		assert_int_equal(c[0].value_count, -1);
		assert_int_equal(c[0].null_count, -1);
		assert_null(c[0].lower);
		assert_true(c[0].column_size > 0);
		/* name: truncate(4): "name 00001 with a long tail" .. "name 00100 x" */
		assert_int_equal(c[1].value_count, 100);
		assert_int_equal(c[1].lower_len, 4);
		assert_memory_equal(c[1].lower, "name", 4);
		assert_int_equal(c[1].upper_len, 4);
		assert_memory_equal(c[1].upper, "namf", 4);
		/* price: counts only (the default) */
		assert_int_equal(c[2].value_count, 100);
		assert_int_equal(c[2].null_count, 0);
		assert_null(c[2].lower);
		assert_null(c[2].upper);
		/* ratio: full */
		assert_non_null(c[3].lower);
		assert_int_equal(c[3].lower_len, 8);
		assert_true(c[3].nan_count > 0);
	}
	data_writer_free(w);
	fileio_free(io);
	arena_free(a);
}

/* A FileIO over the local one whose Nth write fails (58030). */
typedef struct FailIO {
	FileIO io;
	FileIO *inner;
	int writes, fail_at;
} FailIO;

static int
fail_read(FileIO *io, const char *path, Arena *arena, const uint8_t **data, size_t *len,
	  floe_error *err)
{
	return fileio_read(((FailIO *)io)->inner, path, arena, data, len, err);
}

static int
fail_write(FileIO *io, const char *path, const void *data, size_t len, floe_error *err)
{
	FailIO *f = (FailIO *)io;
	if (++f->writes == f->fail_at)
		return floe_errorf(err, ERRCODE_IO_ERROR, "injected write failure: %s", path);
	return fileio_write(f->inner, path, data, len, err);
}

static int
fail_size(FileIO *io, const char *path, uint64_t *size, floe_error *err)
{
	return fileio_size(((FailIO *)io)->inner, path, size, err);
}

static bool
fail_exists(FileIO *io, const char *path)
{
	return fileio_exists(((FailIO *)io)->inner, path);
}

static int
fail_remove(FileIO *io, const char *path, floe_error *err)
{
	return fileio_remove(((FailIO *)io)->inner, path, err);
}

static void
fail_free(FileIO *io)
{
}

static const FileIOVT fail_vt = {fail_read, fail_write, fail_size, fail_exists, fail_remove, fail_free, NULL};

/* The third file's write fails: the error surfaces, nothing more is
 * written, and abort removes the two files already written. */
static void
test_data_writer__write_failure_then_abort(void **state)
{
	IcebergField f[NF];
	IcebergSchema schema = make_schema(f);
	Arena *a = arena_new(0);
	FailIO fio;
	DataWriter *w;
	ParquetWriteOptions o;
	floe_error err;
	SqlType types[NF];
	char dir[300], cmd[400], *out;
	int i, st, rc = FLOE_OK;
	int64_t row = 0;

	memset(&fio, 0, sizeof fio);
	fio.io.vt = &fail_vt;
	fio.inner = fileio_local_new(tmpdir);
	fio.fail_at = 3;
	for (i = 0; i < NF; i++)
		types[i] = f[i].type;
	snprintf(dir, sizeof dir, "%s/faildata", tmpdir);
	w = data_writer_new(&fio.io, dir, &schema, 1, a);   /* one file per batch */
	parquet_write_options_init(&o);
	data_writer_set_options(w, &o);
	for (i = 0; i < 5 && rc == FLOE_OK; i++) {
		Batch *b = batch_new(a, NF, types, 100);
		fill(b, row, 100);
		rc = data_writer_write(w, b, &err);
		row += 100;
	}
	assert_int_equal(rc, FLOE_ERR);
	assert_int_equal(i, 3);
	assert_string_equal(err.sqlstate, "58030");
	assert_int_equal(fio.writes, 3);
	snprintf(cmd, sizeof cmd, "ls %s | wc -l", dir);
	out = run(cmd, &st);
	assert_string_equal(out, "2\n");
	free(out);
	{
		DataFile *files;
		int nfiles;
		assert_int_equal(data_writer_finish(w, &files, &nfiles, &err), FLOE_ERR);
	}
	data_writer_abort(w);
	out = run(cmd, &st);
	assert_string_equal(out, "0\n");
	free(out);
	data_writer_free(w);
	fileio_free(fio.inner);
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_writer__bounds),
		cmocka_unit_test(test_data_writer__rolls_files_with_metrics),
		cmocka_unit_test(test_data_writer__empty_and_errors),
		cmocka_unit_test(test_data_writer__write_failure_then_abort),
		cmocka_unit_test(test_data_writer__table_properties),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
