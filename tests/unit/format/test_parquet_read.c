/*
 * test_parquet_read.c — the Parquet reader against files other engines wrote.
 *
 * Truth comes from outside this project: apache/parquet-testing files
 * (../shared/testdata/parquet, MANIFEST.md for row counts and expected
 * behaviour, the *_expect.csv companions for the delta files) and DuckDB
 * (../shared/tools/interop/bin/parquet-dump prints each file as CSV; every
 * flat column floe reads is compared cell by cell with it).
 *
 * Cases:
 *   test_parquet_read__all_files      every data/ and bad_data/ file: flat
 *                                     columns read and match DuckDB, nested
 *                                     give 0A000, bad files a clean error
 *   test_parquet_read__manifest_rows  footer row counts against MANIFEST.md
 *   test_parquet_read__delta_expect   delta files against *_expect.csv
 *   test_parquet_read__page_crc       page CRC mismatch is XX001 (and reads
 *                                     with verification off)
 *   test_parquet_read__stats          chunk statistics against DuckDB's
 *                                     parquet_metadata()
 *   test_parquet_read__skip           skip + read equals read
 *   test_parquet_read__mutations      truncated / bit-flipped files never crash
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/parquet/parquet.h"
#include "format/parquet/codec.h"
#include "types/array.h"
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <lz4.h>
#include <brotli/encode.h>

static const char *
shared_dir(void)
{
	const char *s = getenv("FLOE_SHARED");
	return s && *s ? s : "../shared";
}

static uint8_t *
load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
	if (n > 0 && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* ---------- formatting values as DuckDB's CSV (interop lib/duck.mjs) ---------- */

/* ECMAScript Number::toString (what the dump tool prints for floats). */
static void
js_double(double d, char *out, size_t n)
{
	char tmp[64], digits[32];
	int p, k = 0, e;
	if (isnan(d)) { snprintf(out, n, "NaN"); return; }
	if (isinf(d)) { snprintf(out, n, d < 0 ? "-Infinity" : "Infinity"); return; }
	if (d == 0) { snprintf(out, n, "0"); return; }
	for (p = 1; p <= 17; p++) {
		snprintf(tmp, sizeof tmp, "%.*e", p - 1, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	const char *s = tmp;
	bool neg = *s == '-';
	if (neg)
		s++;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			digits[k++] = *s;
	digits[k] = 0;
	e = atoi(s + 1);
	int npt = e + 1;
	char *o = out;
	size_t left = n;
#define PUT(...) do { int w_ = snprintf(o, left, __VA_ARGS__); o += w_; left -= (size_t)w_; } while (0)
	if (neg)
		PUT("-");
	if (k <= npt && npt <= 21) {
		PUT("%s", digits);
		for (int i = 0; i < npt - k; i++)
			PUT("0");
	} else if (0 < npt && npt <= 21) {
		PUT("%.*s.%s", npt, digits, digits + npt);
	} else if (-6 < npt && npt <= 0) {
		PUT("0.");
		for (int i = 0; i < -npt; i++)
			PUT("0");
		PUT("%s", digits);
	} else {
		PUT("%c", digits[0]);
		if (k > 1)
			PUT(".%s", digits + 1);
		PUT("e%c%d", npt - 1 < 0 ? '-' : '+', abs(npt - 1));
	}
#undef PUT
}

static void
civil(int64_t days, int64_t *y, int *m, int *d)
{
	days += 719468;
	int64_t era = (days >= 0 ? days : days - 146096) / 146097;
	int64_t doe = days - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static int
fmt_date(int64_t days, char *o, size_t n, bool *bc)
{
	int64_t y;
	int m, d;
	civil(days, &y, &m, &d);
	*bc = y <= 0;
	return snprintf(o, n, "%04lld-%02d-%02d", (long long)(y <= 0 ? 1 - y : y), m, d);
}

static int
fmt_time(int64_t us, char *o, size_t n)
{
	int64_t s = us / 1000000, f = us % 1000000;
	int w = snprintf(o, n, "%02lld:%02lld:%02lld", (long long)(s / 3600),
			 (long long)(s / 60 % 60), (long long)(s % 60));
	if (f) {
		char fr[8];
		snprintf(fr, sizeof fr, "%06lld", (long long)f);
		int l = 6;
		while (fr[l - 1] == '0')
			l--;
		w += snprintf(o + w, n - (size_t)w, ".%.*s", l, fr);
	}
	return w;
}

static void
fmt_i128(int128 v, int scale, char *o, size_t n)
{
	char d[64];
	int k = 0;
	bool neg = v < 0;
	uint128 u = neg ? (uint128)0 - (uint128)v : (uint128)v;
	do {
		d[k++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	while (k <= scale)
		d[k++] = '0';
	char *p = o;
	if (neg)
		*p++ = '-';
	for (int i = k - 1; i >= 0; i--) {
		*p++ = d[i];
		if (i == scale && scale > 0)
			*p++ = '.';
	}
	*p = 0;
	(void)n;
}

/* Cell text as parquet-dump prints it; NULL prints as "". */
static void
fmt_cell(const Vector *v, uint32_t i, char *o, size_t n, bool *is_null)
{
	Value x;
	bool bc;
	vector_get_value(v, i, &x);
	*is_null = x.is_null;
	o[0] = 0;
	if (x.is_null)
		return;
	switch (v->type.id) {
	case TYPE_BOOL: snprintf(o, n, "%s", x.u.b ? "true" : "false"); break;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
		snprintf(o, n, "%lld", (long long)x.u.i); break;
	case TYPE_FLOAT32: case TYPE_FLOAT64: js_double(x.u.f, o, n); break;
	case TYPE_DECIMAL: fmt_i128(x.u.d, v->type.scale, o, n); break;
	case TYPE_TEXT: {
		size_t l = x.u.s.len < n - 1 ? x.u.s.len : n - 1;
		memcpy(o, strview_data(&x.u.s), l);
		o[l] = 0;
		break;
	}
	case TYPE_BYTEA: {
		const uint8_t *b = (const uint8_t *)strview_data(&x.u.s);
		size_t w = (size_t)snprintf(o, n, "\\x");
		for (uint32_t k = 0; k < x.u.s.len && w + 3 < n; k++)
			w += (size_t)snprintf(o + w, n - w, "%02x", b[k]);
		break;
	}
	case TYPE_DATE: {
		int w = fmt_date(x.u.i, o, n, &bc);
		if (bc)
			snprintf(o + w, n - (size_t)w, " (BC)");
		break;
	}
	case TYPE_TIME: fmt_time(x.u.i, o, n); break;
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: {
		int64_t days = x.u.i / 86400000000LL, us = x.u.i % 86400000000LL;
		if (us < 0) {
			us += 86400000000LL;
			days--;
		}
		int w = fmt_date(days, o, n, &bc);
		if (bc)
			w += snprintf(o + w, n - (size_t)w, " (BC)");
		w += snprintf(o + w, n - (size_t)w, " ");
		w += fmt_time(us, o + w, n - (size_t)w);
		if (v->type.id == TYPE_TIMESTAMPTZ)
			snprintf(o + w, n - (size_t)w, "+00");
		break;
	}
	case TYPE_UUID: {
		size_t w = 0;
		for (int k = 0; k < 16; k++) {
			if (k == 4 || k == 6 || k == 8 || k == 10)
				o[w++] = '-';
			w += (size_t)snprintf(o + w, n - w, "%02x", x.u.uuid.b[k]);
		}
		break;
	}
	default: snprintf(o, n, "?"); break;
	}
}

static int64_t fmt_limit;       /* format (and compare) only the first rows; 0 = all */

/* ---------- CSV records ---------- */

typedef struct Csv {
	int nrec;
	int *nf;
	char ***f;
	bool **quoted;
} Csv;

static void
csv_parse(const char *s, size_t len, Csv *c, Arena *a)
{
	int cap = 1024;
	c->nrec = 0;
	c->nf = malloc(sizeof(int) * (size_t)cap);
	c->f = malloc(sizeof(char **) * (size_t)cap);
	c->quoted = malloc(sizeof(bool *) * (size_t)cap);
	size_t i = 0;
	/* Unquoted fields are never longer than their text: one buffer. */
	char *store = arena_alloc(a, len + 1);
	size_t used = 0;
	while (i < len) {
		int fcap = 16, nf = 0;
		char **fields = malloc(sizeof(char *) * (size_t)fcap);
		bool *q = malloc(sizeof(bool) * (size_t)fcap);
		for (;;) {
			char *buf = store + used;
			size_t bl = 0;
			bool quoted = false;
			if (i < len && s[i] == '"') {
				quoted = true;
				i++;
				while (i < len) {
					if (s[i] == '"') {
						if (i + 1 < len && s[i + 1] == '"') {
							buf[bl++] = '"';
							i += 2;
							continue;
						}
						i++;
						break;
					}
					buf[bl++] = s[i++];
				}
			}
			while (i < len && s[i] != ',' && s[i] != '\n' && s[i] != '\r')
				buf[bl++] = s[i++];
			buf[bl] = 0;
			used += bl + 1;
			if (nf == fcap) {
				fcap *= 2;
				fields = realloc(fields, sizeof(char *) * (size_t)fcap);
				q = realloc(q, sizeof(bool) * (size_t)fcap);
			}
			fields[nf] = buf;
			q[nf++] = quoted;
			if (i < len && s[i] == ',') {
				i++;
				continue;
			}
			if (i < len && s[i] == '\r')
				i++;
			if (i < len && s[i] == '\n')
				i++;
			break;
		}
		if (c->nrec == cap) {
			cap *= 2;
			c->nf = realloc(c->nf, sizeof(int) * (size_t)cap);
			c->f = realloc(c->f, sizeof(char **) * (size_t)cap);
			c->quoted = realloc(c->quoted, sizeof(bool *) * (size_t)cap);
		}
		c->nf[c->nrec] = nf;
		c->f[c->nrec] = fields;
		c->quoted[c->nrec++] = q;
	}
}

static void
csv_free(Csv *c)
{
	for (int r = 0; r < c->nrec; r++) {
		free(c->f[r]);
		free(c->quoted[r]);
	}
	free(c->nf);
	free(c->f);
	free(c->quoted);
}

/* Run a command, capture stdout; returns its exit status (-1 if not run). */
static int
run_capture(const char *cmd, char **out, size_t *len)
{
	FILE *p = popen(cmd, "r");
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	if (!p) {
		free(b);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			cap *= 2;
			b = realloc(b, cap);
		}
		size_t k = fread(b + n, 1, cap - n, p);
		if (k == 0)
			break;
		n += k;
	}
	int st = pclose(p);
	*out = b;
	*len = n;
	return st;
}

static bool
duckdb_csv(const char *path, Csv *c, Arena *a)
{
	char cmd[2048], *out;
	size_t len;
	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/parquet-dump '%s' --limit %lld 2>/dev/null",
		 shared_dir(), path, (long long)(fmt_limit ? fmt_limit : INT64_MAX / 2));
	int st = run_capture(cmd, &out, &len);
	if (st != 0) {
		free(out);
		return false;
	}
	csv_parse(out, len, c, a);
	free(out);
	return true;
}

/* DuckDB's BLOB text: printable ASCII as is, other bytes \xHH. */
static void
blob_escape(const uint8_t *b, uint32_t n, char *out)
{
	size_t bn = 0;
	for (uint32_t k = 0; k < n; k++) {
		if (b[k] >= 32 && b[k] < 127 && b[k] != '\'' && b[k] != '"')
			out[bn++] = (char)b[k];
		else
			bn += (size_t)sprintf(out + bn, "\\x%02X", b[k]);
	}
	out[bn] = 0;
}

/* ---------- reading a whole file ---------- */

typedef struct Table {
	int ncols;                 /* leaves */
	int64_t nrows;
	char ***cell;              /* [col][row] text, NULL for SQL NULL */
	char ***raw, ***blob;      /* BYTEA: raw bytes, DuckDB blob escapes */
	bool *readable;            /* column read fully */
	char (*why)[256];          /* error of a column that failed */
	char (*state)[6];
} Table;

/* Read every column of every row group in batches of `batch` values. */
static void
read_table(ParquetFile *pf, Table *t, uint32_t batch, Arena *a)
{
	int nc = parquet_num_columns(pf);
	int64_t nr = parquet_num_rows(pf);
	t->ncols = nc;
	t->nrows = nr;
	t->cell = arena_calloc(a, sizeof(char **) * (size_t)(nc + 1));
	t->readable = arena_calloc(a, sizeof(bool) * (size_t)(nc + 1));
	t->raw = arena_calloc(a, sizeof(char **) * (size_t)(nc + 1));
	t->blob = arena_calloc(a, sizeof(char **) * (size_t)(nc + 1));
	t->why = arena_calloc(a, 256 * (size_t)(nc + 1));
	size_t bufcap = 4096;
	char *buf = malloc(bufcap);
	t->state = arena_calloc(a, 6 * (size_t)(nc + 1));
	for (int c = 0; c < nc; c++) {
		const ParquetColumn *col = parquet_column(pf, c);
		floe_error err;
		floe_error_clear(&err);
		t->cell[c] = arena_calloc(a, sizeof(char *) * (size_t)(nr + 1));
		if (col->type.id == TYPE_BYTEA) {
			t->raw[c] = arena_calloc(a, sizeof(char *) * (size_t)(nr + 1));
			t->blob[c] = arena_calloc(a, sizeof(char *) * (size_t)(nr + 1));
		}
		t->readable[c] = true;
		int64_t row = 0;
		for (int rg = 0; rg < parquet_num_row_groups(pf) && t->readable[c]; rg++) {
			ParquetColumnReader *r;
			if (parquet_column_reader_open(&r, pf, rg, c, a, &err) != FLOE_OK) {
				t->readable[c] = false;
				break;
			}
			Vector v;
			vector_init(&v, col->type, a, batch);
			int64_t rg_rows = 0;
			for (;;) {
				uint32_t got;
				if (parquet_column_read(r, &v, batch, &got, &err) != FLOE_OK) {
					t->readable[c] = false;
					break;
				}
				if (got == 0)
					break;
				for (uint32_t i = 0; i < got; i++) {
					bool isnull;
					size_t need = 4096;
					if (row >= nr || (fmt_limit && row >= fmt_limit)) {
						row++;
						continue;
					}
					if (type_is_string(v.type.id) && vector_is_valid(&v, i))
						need += 4 * (size_t)((const strview *)v.data)[i].len;
					if (need > bufcap) {
						bufcap = need;
						buf = realloc(buf, bufcap);
					}
					fmt_cell(&v, i, buf, need, &isnull);
					if (row < nr)
						t->cell[c][row] = isnull ? NULL : arena_strdup(a, buf);
					if (row < nr && !isnull && col->type.id == TYPE_BYTEA) {
						const strview *sv = (const strview *)v.data + i;
						const uint8_t *b = (const uint8_t *)strview_data(sv);
						char *rw = arena_alloc(a, sv->len + 1), *bl = arena_alloc(a, 4 * (size_t)sv->len + 2);
						memcpy(rw, b, sv->len);
						rw[sv->len] = 0;
						blob_escape(b, sv->len, bl);
						t->raw[c][row] = rw;
						t->blob[c][row] = bl;
					}
					row++;
				}
				rg_rows += got;
			}
			if (t->readable[c] && rg_rows != parquet_row_group_num_rows(pf, rg)) {
				t->readable[c] = false;
				snprintf(err.message, sizeof err.message, "row group %d gave %lld rows",
					 rg, (long long)rg_rows);
				memcpy(err.sqlstate, "TEST0", 6);
			}
		}
		if (!t->readable[c]) {
			snprintf(t->why[c], 256, "%.250s", err.message);
			memcpy(t->state[c], err.sqlstate, 6);
		}
	}
	free(buf);
}

/* ---------- per-file expectations ---------- */

static int failures;
static bool no_duckdb;          /* check_file: skip the DuckDB comparison */

#define FAILF(...) do { fprintf(stderr, "FAIL: " __VA_ARGS__); fprintf(stderr, "\n"); failures++; } while (0)

/* Compare the flat columns with DuckDB's dump of the file. */
static void
compare_duckdb(const char *path, ParquetFile *pf, Table *t, Arena *a)
{
	Csv csv;
	if (!duckdb_csv(path, &csv, a)) {
		fprintf(stderr, "note: DuckDB cannot read %s; not compared\n", path);
		return;
	}
	int64_t nrows = fmt_limit && fmt_limit < t->nrows ? fmt_limit : t->nrows;
	if (csv.nrec != nrows + 1) {
		FAILF("%s: DuckDB has %d rows, footer says %lld", path, csv.nrec - 1,
		      (long long)t->nrows);
		csv_free(&csv);
		return;
	}
	/* DuckDB prints top-level fields; map each to its leaves. */
	int top = -1;
	const char *prev = NULL;
	int compared = 0;
	for (int c = 0; c < t->ncols; c++) {
		const ParquetColumn *col = parquet_column(pf, c);
		if (!prev || strcmp(prev, col->top_name) != 0 || col->nested == false)
			top++;
		prev = col->top_name;
		/* lists: DuckDB prints [1, 2]; tests/suites/nested.sh compares them */
		if (col->nested || col->list || !t->readable[c])
			continue;
		if (csv.nrec > 0 && (top >= csv.nf[0] || strcmp(csv.f[0][top], col->name) != 0)) {
			FAILF("%s: column %d (%s) does not line up with DuckDB's %s", path, c,
			      col->name, top < csv.nf[0] ? csv.f[0][top] : "(none)");
			break;
		}
		compared++;
		for (int64_t r = 0; r < nrows; r++) {
			const char *want = csv.f[r + 1][top];
			const char *got = t->cell[c][r] ? t->cell[c][r] : "";
			bool ok = strcmp(want, got) == 0;
			/* DuckDB reads unannotated BYTE_ARRAY as VARCHAR, FLBA as
			 * BLOB printed with \xHH escapes for non-printable bytes. */
			if (!ok && col->type.id == TYPE_BYTEA && t->cell[c][r])
				ok = strcmp(want, t->raw[c][r]) == 0 || strcmp(want, t->blob[c][r]) == 0;
			/* Legacy TIMESTAMP_* converted types: floe says timestamptz
			 * (parquet spec), DuckDB timestamp. */
			if (!ok && col->type.id == TYPE_TIMESTAMPTZ) {
				size_t gl = strlen(got);
				ok = gl > 3 && strncmp(want, got, gl - 3) == 0 && strlen(want) == gl - 3;
			}
			if (!ok) {
				FAILF("%s: column %s row %lld: floe \"%.300s\", DuckDB \"%.300s\"", path,
				      col->name, (long long)r, got, want);
				break;
			}
		}
	}
	if (compared == 0)
		fprintf(stderr, "note: %s: no flat column compared\n", path);
	csv_free(&csv);
}

static bool
ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

static void
check_file(const char *dir, const char *fname, bool bad)
{
	char path[1024];
	size_t len;
	snprintf(path, sizeof path, "%.800s/%.200s", dir, fname);
	uint8_t *data = load(path, &len);
	if (!data) {
		FAILF("%s: cannot load", path);
		return;
	}
	Arena *a = arena_new(0);
	ParquetFile *pf;
	floe_error err;
	floe_error_clear(&err);
	bool encrypted = ends_with(fname, ".encrypted");
	/* a page CRC mismatch is an error while CRCs are verified (the default) */
	bad = bad || strstr(fname, "corrupt-checksum");
	int rc = parquet_open(&pf, data, len, fname, a, &err);
	if (rc != FLOE_OK) {
		bool clean = floe_error_is(&err, ERRCODE_DATA_CORRUPTED) ||
			     floe_error_is(&err, ERRCODE_FEATURE_NOT_SUPPORTED);
		if (!clean || (!bad && !encrypted))
			FAILF("%s: open failed: %s %s", path, err.sqlstate, err.message);
		else if (!strstr(err.message, fname))
			FAILF("%s: error does not name the file: %s", path, err.message);
		goto done;
	}
	Table t;
	read_table(pf, &t, 1000, a);
	bool all_ok = true, any_flat = false;
	for (int c = 0; c < t.ncols; c++) {
		const ParquetColumn *col = parquet_column(pf, c);
		if (col->nested) {
			if (t.readable[c] || strcmp(t.state[c], "0A000") != 0 ||
			    !strstr(t.why[c], "which floe cannot read yet"))
				FAILF("%s: nested column %s: expected 0A000, got %s %s", path,
				      col->name, t.state[c], t.why[c]);
			continue;
		}
		if (t.readable[c]) {
			any_flat = true;
			continue;
		}
		all_ok = false;
		bool clean = strcmp(t.state[c], "XX001") == 0 || strcmp(t.state[c], "0A000") == 0;
		if (!clean)
			FAILF("%s: column %s: unclean error %s %s", path, col->name, t.state[c], t.why[c]);
		else if (!bad && !encrypted && !strstr(fname, "dict-malformed"))
			FAILF("%s: column %s failed: %s %s", path, col->name, t.state[c], t.why[c]);
	}
	if (bad && all_ok && any_flat && !strstr(fname, "43605"))
		FAILF("%s: malformed file read without error", path);
	/* int96_from_spark: DuckDB overflows on row 5; the upstream .md is the
	 * truth there (test_parquet_read__int96_spark). */
	if (!bad && !encrypted && any_flat && !no_duckdb && !strstr(fname, "int96_from_spark"))
		compare_duckdb(path, pf, &t, a);
	if (bad && strstr(fname, "43605") && all_ok)
		compare_duckdb(path, pf, &t, a);
done:
	arena_free(a);
	free(data);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
list_dir(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	int n = 0, cap = 64;
	char **names = malloc(sizeof(char *) * (size_t)cap);
	struct dirent *e;
	if (!d) {
		*out = names;
		return 0;
	}
	while ((e = readdir(d))) {
		if (!ends_with(e->d_name, ".parquet") && !ends_with(e->d_name, ".encrypted"))
			continue;
		if (n == cap) {
			cap *= 2;
			names = realloc(names, sizeof(char *) * (size_t)cap);
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(char *), cmpstr);
	*out = names;
	return n;
}

static void
check_dir(const char *sub, bool bad)
{
	char dir[1024];
	char **names;
	snprintf(dir, sizeof dir, "%.700s/testdata/parquet/%.100s", shared_dir(), sub);
	int n = list_dir(dir, &names);
	const char *only = getenv("PQ_ONLY");
	for (int i = 0; i < n; i++) {
		if (!only || strstr(names[i], only))
			check_file(dir, names[i], bad);
		free(names[i]);
	}
	free(names);
	if (!only)
		assert_true(n > 0);
}

static void
test_parquet_read__all_files(void **state)
{
	failures = 0;
	check_dir("data", false);
	check_dir("data/aes256", false);
	check_dir("bad_data", true);
	check_dir("data/geospatial", false);
	/* Variant columns are groups (0A000); their ids read.  103 files: no
	 * DuckDB comparison, reading fully is the check. */
	no_duckdb = true;
	check_dir("shredded_variant", false);
	no_duckdb = false;
	assert_int_equal(failures, 0);
}


/* Open a file of the shared test data; returns NULL (and fails) if it cannot. */
typedef struct Opened {
	uint8_t *data;
	size_t len;
	Arena *a;
	ParquetFile *pf;
} Opened;

static bool
open_rel(const char *rel, Opened *o)
{
	char path[1024];
	floe_error err;
	snprintf(path, sizeof path, "%.700s/testdata/parquet/%.200s", shared_dir(), rel);
	memset(o, 0, sizeof *o);
	o->data = load(path, &o->len);
	if (!o->data) {
		FAILF("%s: cannot load", path);
		return false;
	}
	o->a = arena_new(0);
	if (parquet_open(&o->pf, o->data, o->len, rel, o->a, &err) != FLOE_OK) {
		FAILF("%s: open: %s %s", rel, err.sqlstate, err.message);
		return false;
	}
	return true;
}

static void
close_rel(Opened *o)
{
	if (o->a)
		arena_free(o->a);
	free(o->data);
}

static int
col_index(ParquetFile *pf, const char *name)
{
	for (int c = 0; c < parquet_num_columns(pf); c++)
		if (strcmp(parquet_column(pf, c)->name, name) == 0)
			return c;
	return -1;
}

/* Footer row counts and DuckDB's row counts quoted by MANIFEST.md. */
static void
test_parquet_read__manifest_rows(void **state)
{
	char path[1024], *text;
	size_t len;
	int checked = 0, ids = 0;
	failures = 0;
	snprintf(path, sizeof path, "%.700s/testdata/parquet/MANIFEST.md", shared_dir());
	text = (char *)load(path, &len);
	assert_non_null(text);
	text = realloc(text, len + 1);
	text[len] = 0;
	char *sec = strstr(text, "#### `");
	while (sec) {
		char *next = strstr(sec + 6, "#### `");
		char *end = next ? next : text + len;
		char name[512];
		char *q = strchr(sec + 6, '`');
		size_t nl = q ? (size_t)(q - (sec + 6)) : 0;
		if (nl > 0 && nl < sizeof name) {
			memcpy(name, sec + 6, nl);
			name[nl] = 0;
		} else
			name[0] = 0;
		char save = *end;
		*end = 0;
		char *fr = strstr(sec, "num_rows=");
		char *dr = strstr(sec, "DuckDB 1.5.6: reads ");
		bool trust_rg = strstr(sec, "trust row-group") != NULL;
		if (ends_with(name, ".parquet") && (fr || dr)) {
			Opened o;
			if (open_rel(name, &o)) {
				long long got = (long long)parquet_num_rows(o.pf);
				if (fr && !trust_rg && atoll(fr + 9) != got)
					FAILF("%s: MANIFEST num_rows=%lld, floe %lld", name, atoll(fr + 9), got);
				if (dr && atoll(dr + 20) != got)
					FAILF("%s: MANIFEST DuckDB reads %lld rows, floe %lld", name,
					      atoll(dr + 20), got);
				/* Top-level schema lines "    - OPTIONAL T `name` id=N". */
				for (char *ln = strstr(sec, "\n    - "); ln; ln = strstr(ln + 1, "\n    - ")) {
					char *eol = strchr(ln + 1, '\n');
					char *b1 = strchr(ln + 7, '`'), *b2 = b1 ? strchr(b1 + 1, '`') : NULL;
					char *id = strstr(ln + 7, " id=");
					if (!b1 || !b2 || !id || (eol && id > eol) || b2 > id)
						continue;
					*b2 = 0;
					int c = col_index(o.pf, b1 + 1);
					if (c < 0 || parquet_column(o.pf, c)->field_id != atoi(id + 4))
						FAILF("%s: column %s: MANIFEST id=%d, floe %d", name, b1 + 1,
						      atoi(id + 4), c < 0 ? -99 : parquet_column(o.pf, c)->field_id);
					*b2 = '`';
					ids++;
				}
				checked++;
			}
			close_rel(&o);
		}
		*end = save;
		sec = next;
	}
	free(text);
	assert_true(checked > 40);
	assert_true(ids >= 3);
	assert_int_equal(failures, 0);
}

/* Read column c of every row group into formatted cells. */
static char **
read_cells(ParquetFile *pf, int c, uint32_t batch, Arena *a, int64_t *n)
{
	Table t;
	(void)c;
	read_table(pf, &t, batch, a);
	*n = t.nrows;
	if (!t.readable[c]) {
		FAILF("column %s: %s %s", parquet_column(pf, c)->name, t.state[c], t.why[c]);
		return NULL;
	}
	return t.cell[c];
}

/* The delta-encoding files against their upstream *_expect.csv. */
static void
check_expect(const char *pq, const char *csvname)
{
	char path[1024];
	size_t len;
	Opened o;
	failures = 0;
	if (!open_rel(pq, &o)) {
		close_rel(&o);
		return;
	}
	snprintf(path, sizeof path, "%.700s/testdata/parquet/%.200s", shared_dir(), csvname);
	char *text = (char *)load(path, &len);
	assert_non_null(text);
	Csv csv;
	csv_parse(text, len, &csv, o.a);
	free(text);
	Table t;
	read_table(o.pf, &t, 777, o.a);
	assert_int_equal(csv.nrec - 1, t.nrows);
	assert_int_equal(csv.nf[0], t.ncols);
	for (int c = 0; c < t.ncols; c++) {
		if (!t.readable[c]) {
			FAILF("%s: column %d: %s", pq, c, t.why[c]);
			continue;
		}
		for (int64_t r = 0; r < t.nrows; r++) {
			const char *want = csv.f[r + 1][c];
			bool want_null = !csv.quoted[r + 1][c] && want[0] == 0;
			const char *got = t.cell[c][r];
			if (want_null ? got != NULL : (!got || strcmp(got, want) != 0)) {
				FAILF("%s: column %d row %lld: floe %s, expected %s", pq, c,
				      (long long)r, got ? got : "NULL", want_null ? "NULL" : want);
				break;
			}
		}
	}
	csv_free(&csv);
	close_rel(&o);
	assert_int_equal(failures, 0);
}

static void
test_parquet_read__delta_expect(void **state)
{
	check_expect("data/delta_binary_packed.parquet", "data/delta_binary_packed_expect.csv");
	check_expect("data/delta_byte_array.parquet", "data/delta_byte_array_expect.csv");
	check_expect("data/delta_encoding_required_column.parquet",
		     "data/delta_encoding_required_column_expect.csv");
}

/* int96_from_spark.md: the microseconds Spark meant, including one beyond
 * the int64-nanosecond range. */
static void
test_parquet_read__int96_spark(void **state)
{
	static const long long want[6] = { 1704141296123456LL, 1704070800000000LL,
		253402225200000000LL, 1735599600000000LL, 0, 9089380393200000000LL };
	Opened o;
	floe_error err;
	failures = 0;
	assert_true(open_rel("data/int96_from_spark.parquet", &o));
	const ParquetColumn *col = parquet_column(o.pf, 0);
	assert_int_equal(col->type.id, TYPE_TIMESTAMP);
	ParquetColumnReader *r;
	assert_int_equal(parquet_column_reader_open(&r, o.pf, 0, 0, o.a, &err), FLOE_OK);
	Vector v;
	vector_init(&v, col->type, o.a, 16);
	uint32_t got;
	assert_int_equal(parquet_column_read(r, &v, 16, &got, &err), FLOE_OK);
	assert_int_equal(got, 6);
	for (int i = 0; i < 6; i++) {
		if (i == 4) {
			assert_false(vector_is_valid(&v, 4));
			continue;
		}
		assert_true(vector_is_valid(&v, (uint32_t)i));
		assert_int_equal(((int64_t *)v.data)[i], want[i]);
	}
	assert_int_equal(parquet_column_read(r, &v, 16, &got, &err), FLOE_OK);
	assert_int_equal(got, 0);
	close_rel(&o);
}

/* Rows of column c read with page CRC verification on or off; -1 after an
 * error (left in *err). */
static int64_t
count_rows(ParquetFile *pf, int c, bool verify, Arena *a, floe_error *err)
{
	int64_t rows = 0;
	for (int rg = 0; rg < parquet_num_row_groups(pf); rg++) {
		ParquetColumnReader *r;
		Vector v;
		uint32_t got;
		if (parquet_column_reader_open(&r, pf, rg, c, a, err) != FLOE_OK)
			return -1;
		parquet_column_reader_set_verify(r, verify);
		vector_init(&v, parquet_column(pf, c)->type, a, 1024);
		do {
			if (parquet_column_read(r, &v, 1024, &got, err) != FLOE_OK)
				return -1;
			rows += got;
		} while (got > 0);
	}
	return rows;
}

/* Page CRCs (MANIFEST.md): datapage_v1-corrupt-checksum has a CRC mismatch
 * on page 0 of column a and page 1 of column b: XX001 naming the file and
 * column while verifying, 5120 rows each without; the *-checksum files
 * with matching CRCs read fully while verifying. */
static void
test_parquet_read__page_crc(void **state)
{
	static const char *good[] = { "data/datapage_v1-uncompressed-checksum.parquet",
		"data/plain-dict-uncompressed-checksum.parquet", "data/rle-dict-snappy-checksum.parquet" };
	Opened o;
	floe_error err;
	failures = 0;
	assert_true(open_rel("data/datapage_v1-corrupt-checksum.parquet", &o));
	for (int c = 0; c < 2; c++) {
		floe_error_clear(&err);
		assert_int_equal(count_rows(o.pf, c, true, o.a, &err), -1);
		assert_string_equal(err.sqlstate, "XX001");
		assert_non_null(strstr(err.message, "datapage_v1-corrupt-checksum.parquet"));
		assert_non_null(strstr(err.message, c == 0 ? "column \"a\"" : "column \"b\""));
		assert_non_null(strstr(err.message, "checksum"));
		assert_int_equal(count_rows(o.pf, c, false, o.a, &err), 5120);
	}
	close_rel(&o);
	for (size_t f = 0; f < sizeof good / sizeof good[0]; f++) {
		assert_true(open_rel(good[f], &o));
		for (int c = 0; c < parquet_num_columns(o.pf); c++) {
			int64_t n = count_rows(o.pf, c, true, o.a, &err);
			if (n != parquet_num_rows(o.pf))
				FAILF("%s column %d: %lld rows: %s", good[f], c, (long long)n, err.message);
		}
		close_rel(&o);
	}
	assert_int_equal(failures, 0);
}

/* Hadoop-framed LZ4 (DuckDB cannot read it): MANIFEST's hyparquet rows. */
static void
test_parquet_read__hadoop_lz4(void **state)
{
	Opened o;
	int64_t n;
	failures = 0;
	assert_true(open_rel("data/hadoop_lz4_compressed.parquet", &o));
	char **c0 = read_cells(o.pf, col_index(o.pf, "c0"), 3, o.a, &n);
	char **c1 = read_cells(o.pf, col_index(o.pf, "c1"), 3, o.a, &n);
	char **v11 = read_cells(o.pf, col_index(o.pf, "v11"), 3, o.a, &n);
	assert_int_equal(n, 4);
	assert_non_null(c0);
	assert_string_equal(c0[0], "1593604800");
	assert_string_equal(c1[0], "\\x616263");      /* 'abc', unannotated: bytea */
	assert_string_equal(v11[0], "42");
	close_rel(&o);
	assert_true(open_rel("data/hadoop_lz4_compressed_larger.parquet", &o));
	char **a = read_cells(o.pf, 0, 2048, o.a, &n);
	assert_int_equal(n, 10000);
	assert_non_null(a);
	assert_string_equal(a[0], "c7ce6bef-d5b0-4863-b199-8ea8c7fb117b");
	for (int64_t i = 0; i < n; i++)
		assert_int_equal(strlen(a[i]), 36);
	close_rel(&o);
	assert_int_equal(failures, 0);
}

/* Statistics against DuckDB's parquet_metadata(). */
static void
check_stats(const char *rel)
{
	char cmd[2048], *out;
	size_t len;
	Opened o;
	floe_error err;
	if (!open_rel(rel, &o)) {
		close_rel(&o);
		return;
	}
	snprintf(cmd, sizeof cmd,
		 "%s/tools/interop/bin/duckdb-sql --no-header \"select row_group_id, column_id, "
		 "stats_null_count, coalesce(stats_min_value, stats_min), coalesce(stats_max_value, stats_max) "
		 "from parquet_metadata('%s/testdata/parquet/%s') order by 1, 2\" 2>/dev/null",
		 shared_dir(), shared_dir(), rel);
	assert_int_equal(run_capture(cmd, &out, &len), 0);
	Csv csv;
	csv_parse(out, len, &csv, o.a);
	free(out);
	int compared = 0;
	for (int i = 0; i < csv.nrec; i++) {
		if (csv.nf[i] < 5)
			continue;
		int rg = atoi(csv.f[i][0]), c = atoi(csv.f[i][1]);
		const ParquetColumn *col = parquet_column(o.pf, c);
		ParquetStats st;
		if (!col || parquet_column_stats(o.pf, rg, c, &st, &err) != FLOE_OK) {
			FAILF("%s: stats rg %d col %d: %s", rel, rg, c, err.message);
			continue;
		}
		if (csv.f[i][2][0] && (!st.has_null_count || st.null_count != atoll(csv.f[i][2])))
			FAILF("%s: rg %d col %s: null_count %lld, DuckDB %s", rel, rg, col->name,
			      (long long)st.null_count, csv.f[i][2]);
		if (!st.has_min_max)
			continue;
		Vector v;
		vector_init(&v, col->type, o.a, 2);
		vector_set_value(&v, 0, &st.min);
		vector_set_value(&v, 1, &st.max);
		for (int k = 0; k < 2; k++) {
			char buf[4096];
			bool isnull;
			const char *want = csv.f[i][3 + k];
			fmt_cell(&v, (uint32_t)k, buf, sizeof buf, &isnull);
			bool ok = strcmp(buf, want) == 0;
			if (!ok && (col->type.id == TYPE_FLOAT32 || col->type.id == TYPE_FLOAT64)) {
				double x = k ? st.max.u.f : st.min.u.f, y = strtod(want, NULL);
				ok = col->type.id == TYPE_FLOAT32 ? (float)x == (float)y : x == y;
			}
			if (!ok && col->type.id == TYPE_BYTEA) {
				const strview *sv = k ? &st.max.u.s : &st.min.u.s;
				char *bl = arena_alloc(o.a, 4 * (size_t)sv->len + 2);
				blob_escape((const uint8_t *)strview_data(sv), sv->len, bl);
				ok = strcmp(want, bl) == 0 ||
				     (strlen(want) == sv->len && memcmp(want, strview_data(sv), sv->len) == 0);
			}
			if (!ok && col->type.id == TYPE_TIMESTAMPTZ)
				ok = strncmp(want, buf, strlen(buf) - 3) == 0;
			if (!ok)
				FAILF("%s: rg %d col %s: %s %s, DuckDB %s", rel, rg, col->name,
				      k ? "max" : "min", buf, want);
			compared++;
		}
	}
	if (compared == 0)
		FAILF("%s: no statistics compared", rel);
	csv_free(&csv);
	close_rel(&o);
}

static void
test_parquet_read__stats(void **state)
{
	failures = 0;
	check_stats("data/alltypes_tiny_pages.parquet");
	check_stats("data/int32_decimal.parquet");
	check_stats("data/int64_decimal.parquet");
	check_stats("data/data_index_bloom_encoding_stats.parquet");
	check_stats("data/binary_truncated_min_max.parquet");
	assert_int_equal(failures, 0);
}

/* Skipping n values then reading gives what a full read gives from n. */
static void
test_parquet_read__skip(void **state)
{
	static const char *files[] = { "data/alltypes_tiny_pages.parquet",
		"data/delta_byte_array.parquet", "data/datapage_v2.snappy.parquet",
		"data/byte_stream_split.zstd.parquet", "data/delta_binary_packed.parquet" };
	failures = 0;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		Opened o;
		floe_error err;
		if (!open_rel(files[f], &o)) {
			close_rel(&o);
			continue;
		}
		Table t;
		read_table(o.pf, &t, 2048, o.a);
		int64_t rows = parquet_row_group_num_rows(o.pf, 0);
		for (int c = 0; c < t.ncols; c++) {
			const ParquetColumn *col = parquet_column(o.pf, c);
			if (!t.readable[c])
				continue;
			static const uint64_t skips[] = { 0, 1, 7, 100, 1000, 5000 };
			for (size_t s = 0; s < sizeof skips / sizeof skips[0]; s++) {
				uint64_t sk = skips[s];
				ParquetColumnReader *r;
				assert_int_equal(parquet_column_reader_open(&r, o.pf, 0, c, o.a, &err), FLOE_OK);
				if (parquet_column_skip(r, sk, &err) != FLOE_OK) {
					FAILF("%s: %s: skip %llu: %s", files[f], col->name,
					      (unsigned long long)sk, err.message);
					continue;
				}
				Vector v;
				vector_init(&v, col->type, o.a, 64);
				uint32_t got;
				if (parquet_column_read(r, &v, 64, &got, &err) != FLOE_OK) {
					FAILF("%s: %s: read after skip: %s", files[f], col->name, err.message);
					continue;
				}
				uint64_t expect = sk >= (uint64_t)rows ? 0 : (uint64_t)rows - sk;
				if (got != (expect < 64 ? expect : 64))
					FAILF("%s: %s: skip %llu then read gave %u", files[f], col->name,
					      (unsigned long long)sk, got);
				for (uint32_t i = 0; i < got; i++) {
					bool isnull;
					size_t need = 4096;
					if (type_is_string(v.type.id) && vector_is_valid(&v, i))
						need += 4 * (size_t)((const strview *)v.data)[i].len;
					char *buf = arena_alloc(o.a, need);
					fmt_cell(&v, i, buf, need, &isnull);
					const char *want = t.cell[c][sk + i];
					if (isnull ? want != NULL : (!want || strcmp(buf, want) != 0)) {
						FAILF("%s: %s: skip %llu row %u: %s vs %s", files[f], col->name,
						      (unsigned long long)sk, i, buf, want ? want : "NULL");
						break;
					}
				}
			}
		}
		close_rel(&o);
	}
	assert_int_equal(failures, 0);
}

/* Read everything readable; errors must be XX001/0A000. */
static void
read_everything(const uint8_t *data, size_t len, const char *what)
{
	Arena *a = arena_new(0);
	ParquetFile *pf;
	floe_error err;
	floe_error_clear(&err);
	if (parquet_open(&pf, data, len, "mutant.parquet", a, &err) != FLOE_OK) {
		if (!floe_error_is(&err, ERRCODE_DATA_CORRUPTED) &&
		    !floe_error_is(&err, ERRCODE_FEATURE_NOT_SUPPORTED))
			FAILF("%s: open: unclean %s %s", what, err.sqlstate, err.message);
		arena_free(a);
		return;
	}
	for (int rg = 0; rg < parquet_num_row_groups(pf); rg++) {
		for (int c = 0; c < parquet_num_columns(pf); c++) {
			ParquetColumnReader *r;
			ParquetStats st;
			(void)parquet_column_stats(pf, rg, c, &st, &err);
			if (parquet_column_reader_open(&r, pf, rg, c, a, &err) != FLOE_OK)
				goto check;
			Vector v;
			vector_init(&v, parquet_column(pf, c)->type, a, 1024);
			for (;;) {
				uint32_t got;
				if (parquet_column_read(r, &v, 1024, &got, &err) != FLOE_OK)
					goto check;
				if (got == 0)
					break;
			}
			continue;
check:
			if (!floe_error_is(&err, ERRCODE_DATA_CORRUPTED) &&
			    !floe_error_is(&err, ERRCODE_FEATURE_NOT_SUPPORTED))
				FAILF("%s: read: unclean %s %s", what, err.sqlstate, err.message);
		}
	}
	arena_free(a);
}

/* Truncations and byte flips of real files: clean errors, never a crash. */
static void
test_parquet_read__mutations(void **state)
{
	static const char *files[] = { "data/alltypes_plain.parquet",
		"data/alltypes_dictionary.parquet", "data/datapage_v2.snappy.parquet",
		"data/delta_byte_array.parquet", "data/delta_length_byte_array.parquet",
		"data/byte_stream_split.zstd.parquet", "data/int32_with_null_pages.parquet",
		"data/fixed_length_decimal.parquet", "data/nulls.snappy.parquet",
		"data/lz4_raw_compressed.parquet", "data/rle-dict-snappy-checksum.parquet",
		/* lists: levels assembled into arrays */
		"data/list_columns.parquet", "data/null_list.parquet",
		"data/nonnullable.impala.parquet" };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	failures = 0;
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		char path[1024];
		size_t len;
		snprintf(path, sizeof path, "%.700s/testdata/parquet/%.200s", shared_dir(), files[f]);
		uint8_t *orig = load(path, &len);
		if (!orig) {
			FAILF("%s: cannot load", path);
			continue;
		}
		uint8_t *m = malloc(len);
		for (int it = 0; it < 150; it++) {
			memcpy(m, orig, len);
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			size_t n = len;
			uint32_t flen = len >= 12 ? (uint32_t)m[len - 8] | (uint32_t)m[len - 7] << 8 |
					  (uint32_t)m[len - 6] << 16 | (uint32_t)m[len - 5] << 24 : 0;
			if (it % 5 == 0) {
				/* Zero a run of bytes. */
				size_t at = (size_t)(seed % len), k = 1 + (size_t)((seed >> 20) % 64);
				memset(m + at, 0, at + k <= len ? k : len - at);
			} else if (it % 5 == 1 && flen && flen < len - 8) {
				/* Flip a byte of the footer (FileMetaData). */
				m[len - 8 - flen + (seed >> 8) % flen] ^= (uint8_t)(1u << (seed % 8));
			} else if (it == 149) {
				n = (size_t)(seed % len);       /* plain truncation */
			} else {
				int flips = 1 + (int)(seed % 4);
				for (int k = 0; k < flips; k++) {
					seed ^= seed << 13;
					seed ^= seed >> 7;
					seed ^= seed << 17;
					m[seed % len] ^= (uint8_t)(1u << (seed >> 32) % 8);
				}
			}
			read_everything(m, n, files[f]);
		}
		free(m);
		free(orig);
	}
	assert_int_equal(failures, 0);
}

/* Files DuckDB writes now: every type floe maps, PLAIN/dictionary/delta/
 * BYTE_STREAM_SPLIT encodings, page v1 and v2, every codec DuckDB has;
 * each read by floe and compared with DuckDB's own reading. */
static void
test_parquet_read__duckdb_written(void **state)
{
	static const char *table_sql =
		"create table t as select i as id,\n"
		" (i % 100 - 50)::tinyint as i8, (i * 7 % 60000 - 30000)::smallint as i16, (i * 13)::int as i32, (i * 1000003)::bigint as i64,\n"
		" (i % 200)::utinyint as u8, (i % 60000)::usmallint as u16, (i * 100000)::uinteger as u32, (i::ubigint * 3000000000000000) as u64,\n"
		" ((i % 9000) / 100.0 - 45)::decimal(4,2) as d4, (i * 1.001)::decimal(18,3) as d18, (i * 123456789.0123456789)::decimal(38,10) as d38,\n"
		" (date '2000-01-01' + i::int) as dt, make_time(i % 24, i % 60, (i % 60) + 0.123456) as tm,\n"
		" (timestamp '2001-02-03 04:05:06.789012' + to_microseconds(i * 1000003)) as ts,\n"
		" (timestamp '2001-02-03 04:05:06.789' + to_milliseconds(i * 1000)) :: timestamp_ms as tsms,\n"
		" (timestamp '2001-02-03 04:05:06' + to_seconds(i))::timestamp_ns as tsns,\n"
		" (timestamptz '2001-02-03 04:05:06.5+00' + to_microseconds(i)) as tstz,\n"
		" uuid()::varchar as uuidtext, gen_random_uuid() as u,\n"
		" case when i % 3 = 0 then null else ('v' || (i % 50))::blob end as bl,\n"
		" case when i % 5 = 0 then null else repeat('x', i % 20) || i end as s,\n"
		" i % 2 = 0 as b, (i / 3.0)::float as f, (i / 7.0)::double as g,\n"
		" case when i % 4 = 1 then null else i end as nul,\n"
		" 'const' as cst\n"
		" from range(5000) r(i);\n";
	static const char *codecs[] = { "snappy", "zstd", "gzip", "lz4", "brotli", "uncompressed" };
	char dir[] = "/tmp/floe_pq_XXXXXX", path[512], cmd[1024];
	failures = 0;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/gen.sql", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(table_sql, f);
	for (int v = 1; v <= 2; v++)
		for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++)
			fprintf(f, "copy t to '%s/dk_v%d_%s.parquet' (format parquet, compression %s, "
				"parquet_version v%d, row_group_size 3000);\n", dir, v, codecs[c], codecs[c], v);
	fputs("select 1;\n", f);
	fclose(f);
	snprintf(cmd, sizeof cmd, "%s/tools/interop/bin/duckdb-sql -f %s >/dev/null 2>&1", shared_dir(), path);
	assert_int_equal(system(cmd), 0);
	for (int v = 1; v <= 2; v++)
		for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
			char name[128];
			snprintf(name, sizeof name, "dk_v%d_%s.parquet", v, codecs[c]);
			check_file(dir, name, false);
			snprintf(path, sizeof path, "%s/%s", dir, name);
			unlink(path);
		}
	snprintf(path, sizeof path, "%s/gen.sql", dir);
	unlink(path);
	rmdir(dir);
	assert_int_equal(failures, 0);
}

/* ---------- hand-built files (a minimal Thrift compact writer) ---------- */

typedef struct Buf {
	uint8_t b[4096];
	size_t n;
	int16_t last[16];
	int depth;
} Buf;

static void put(Buf *w, uint8_t x) { w->b[w->n++] = x; }
static void uvar(Buf *w, uint64_t v) { while (v >= 0x80) { put(w, (uint8_t)(v | 0x80)); v >>= 7; } put(w, (uint8_t)v); }
static void zz(Buf *w, int64_t v) { uvar(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }
static void fld(Buf *w, int16_t id, int type)
{
	int16_t d = id - w->last[w->depth];
	if (d > 0 && d <= 15)
		put(w, (uint8_t)(d << 4 | type));
	else {
		put(w, (uint8_t)type);
		zz(w, id);
	}
	w->last[w->depth] = id;
}
static void fi32(Buf *w, int16_t id, int64_t v) { fld(w, id, 5); zz(w, v); }
static void fi64(Buf *w, int16_t id, int64_t v) { fld(w, id, 6); zz(w, v); }
static void fstr(Buf *w, int16_t id, const char *s) { fld(w, id, 8); uvar(w, strlen(s)); memcpy(w->b + w->n, s, strlen(s)); w->n += strlen(s); }
static void sbeg(Buf *w) { w->last[++w->depth] = 0; }
static void fstruct(Buf *w, int16_t id) { fld(w, id, 12); sbeg(w); }
static void send_(Buf *w) { put(w, 0); w->depth--; }
static void flist(Buf *w, int16_t id, int et, int n) { fld(w, id, 9); put(w, (uint8_t)(n << 4 | et)); }

/* One OPTIONAL INT32 column "x", one row group of `rows` rows, one v1 data
 * page of `nvals` values whose body (levels + values) is `body`. */
typedef struct BuiltCol {
	int ptype, type_len, rep, enc;
	int lt;                 /* 0 or a LogicalType union id with an empty struct */
} BuiltCol;

static const BuiltCol OPT_INT32 = { 1, 0, 1, 0, 0 };

static size_t
build_file2(uint8_t *out, const BuiltCol *col, int64_t rows, int32_t nvals, int def_enc,
	    const uint8_t *body, size_t blen);

static size_t
build_file(uint8_t *out, int64_t rows, int32_t nvals, int def_enc, const uint8_t *body, size_t blen)
{
	return build_file2(out, &OPT_INT32, rows, nvals, def_enc, body, blen);
}

static size_t
build_file2(uint8_t *out, const BuiltCol *col, int64_t rows, int32_t nvals, int def_enc,
	    const uint8_t *body, size_t blen)
{
	Buf ph = {0}, fm = {0};
	size_t n = 0;
	memcpy(out, "PAR1", 4);
	n = 4;
	sbeg(&ph);
	fi32(&ph, 1, 0);                        /* DATA_PAGE */
	fi32(&ph, 2, (int64_t)blen);
	fi32(&ph, 3, (int64_t)blen);
	fstruct(&ph, 5);
	fi32(&ph, 1, nvals);
	fi32(&ph, 2, col->enc);
	fi32(&ph, 3, def_enc);
	fi32(&ph, 4, 3);
	send_(&ph);
	send_(&ph);
	memcpy(out + n, ph.b, ph.n);
	n += ph.n;
	memcpy(out + n, body, blen);
	n += blen;
	size_t chunk = ph.n + blen;
	sbeg(&fm);
	fi32(&fm, 1, 1);
	flist(&fm, 2, 12, 2);
	sbeg(&fm); fstr(&fm, 4, "schema"); fi32(&fm, 5, 1); send_(&fm);
	sbeg(&fm);
	fi32(&fm, 1, col->ptype);
	if (col->type_len)
		fi32(&fm, 2, col->type_len);
	fi32(&fm, 3, col->rep);
	fstr(&fm, 4, "x");
	if (col->lt) {
		fstruct(&fm, 10);
		fstruct(&fm, (int16_t)col->lt);
		send_(&fm);
		send_(&fm);
	}
	send_(&fm);
	fi64(&fm, 3, rows);
	flist(&fm, 4, 12, 1);
	sbeg(&fm);
	flist(&fm, 1, 12, 1);
	sbeg(&fm);
	fi64(&fm, 2, 4);
	fstruct(&fm, 3);
	fi32(&fm, 1, col->ptype);
	flist(&fm, 2, 5, 1);
	zz(&fm, 0);
	flist(&fm, 3, 8, 1);
	uvar(&fm, 1);
	put(&fm, 'x');
	fi32(&fm, 4, 0);
	fi64(&fm, 5, rows);
	fi64(&fm, 6, (int64_t)chunk);
	fi64(&fm, 7, (int64_t)chunk);
	fi64(&fm, 9, 4);
	send_(&fm);
	send_(&fm);
	fi64(&fm, 2, (int64_t)chunk);
	fi64(&fm, 3, rows);
	send_(&fm);
	send_(&fm);
	memcpy(out + n, fm.b, fm.n);
	n += fm.n;
	out[n++] = (uint8_t)fm.n;
	out[n++] = (uint8_t)(fm.n >> 8);
	out[n++] = 0;
	out[n++] = 0;
	memcpy(out + n, "PAR1", 4);
	return n + 4;
}

/* Read column 0 of a built file: status, and values/validity in v. */
static int
read_built(const uint8_t *file, size_t len, Arena *a, Vector *v, uint32_t *total, floe_error *err)
{
	ParquetFile *pf;
	ParquetColumnReader *r;
	*total = 0;
	TRY(parquet_open(&pf, file, len, "built.parquet", a, err));
	TRY(parquet_column_reader_open(&r, pf, 0, 0, a, err));
	vector_init(v, parquet_column(pf, 0)->type, a, 64);
	for (;;) {
		uint32_t got;
		Vector tmp;
		vector_init(&tmp, v->type, a, 4);
		TRY(parquet_column_read(r, &tmp, 4, &got, err));   /* small batches */
		if (got == 0)
			return FLOE_OK;
		vector_copy_rows(v, *total, &tmp, NULL, got);
		*total += got;
	}
}

/* A file of one top-level `repeated int32 x` (a required list of required
 * int32, LogicalTypes.md), its chunk made of the given v1 pages (RLE
 * repetition and definition levels, PLAIN values): nvals[i] entries, body
 * bodies[i] of blens[i] bytes. */
static size_t
build_list_file(uint8_t *out, int64_t rows, int npages, const int32_t *nvals,
		const uint8_t *const *bodies, const size_t *blens)
{
	Buf fm = {0};
	size_t n = 4, chunk = 0;
	int64_t total = 0;
	memcpy(out, "PAR1", 4);
	for (int i = 0; i < npages; i++) {
		Buf ph = {0};
		sbeg(&ph);
		fi32(&ph, 1, 0);                /* DATA_PAGE */
		fi32(&ph, 2, (int64_t)blens[i]);
		fi32(&ph, 3, (int64_t)blens[i]);
		fstruct(&ph, 5);
		fi32(&ph, 1, nvals[i]);
		fi32(&ph, 2, 0);                /* PLAIN */
		fi32(&ph, 3, 3);                /* RLE definition levels */
		fi32(&ph, 4, 3);                /* RLE repetition levels */
		send_(&ph);
		send_(&ph);
		memcpy(out + n, ph.b, ph.n);
		n += ph.n;
		memcpy(out + n, bodies[i], blens[i]);
		n += blens[i];
		chunk += ph.n + blens[i];
		total += nvals[i];
	}
	sbeg(&fm);
	fi32(&fm, 1, 1);
	flist(&fm, 2, 12, 2);
	sbeg(&fm); fstr(&fm, 4, "schema"); fi32(&fm, 5, 1); send_(&fm);
	sbeg(&fm);
	fi32(&fm, 1, 1);                        /* INT32 */
	fi32(&fm, 3, 2);                        /* REPEATED */
	fstr(&fm, 4, "x");
	send_(&fm);
	fi64(&fm, 3, rows);
	flist(&fm, 4, 12, 1);
	sbeg(&fm);
	flist(&fm, 1, 12, 1);
	sbeg(&fm);
	fi64(&fm, 2, 4);
	fstruct(&fm, 3);
	fi32(&fm, 1, 1);
	flist(&fm, 2, 5, 1);
	zz(&fm, 0);
	flist(&fm, 3, 8, 1);
	uvar(&fm, 1);
	put(&fm, 'x');
	fi32(&fm, 4, 0);
	fi64(&fm, 5, total);                    /* level entries, not rows */
	fi64(&fm, 6, (int64_t)chunk);
	fi64(&fm, 7, (int64_t)chunk);
	fi64(&fm, 9, 4);
	send_(&fm);
	send_(&fm);
	fi64(&fm, 2, (int64_t)chunk);
	fi64(&fm, 3, rows);
	send_(&fm);
	send_(&fm);
	memcpy(out + n, fm.b, fm.n);
	n += fm.n;
	out[n++] = (uint8_t)fm.n;
	out[n++] = (uint8_t)(fm.n >> 8);
	out[n++] = 0;
	out[n++] = 0;
	memcpy(out + n, "PAR1", 4);
	return n + 4;
}

/* Rows of a list column assembled across pages: [1,2,3] spans the two
 * pages, then {} (definition level 0), then [4]; read in batches of 4 and
 * of 1 (a row is closed only by the next row's first entry). */
static void
test_parquet_read__built_list(void **state)
{
	uint8_t file[4096];
	/* page 1: rep 0,1 (bit-packed run), def 1,1 (RLE run), values 1, 2 */
	static const uint8_t p1[] = { 2, 0, 0, 0, 0x03, 0x02, 2, 0, 0, 0, 0x04, 0x01,
				      1, 0, 0, 0, 2, 0, 0, 0 };
	/* page 2: rep 1,0,0, def 1,0,1, values 3, 4 */
	static const uint8_t p2[] = { 2, 0, 0, 0, 0x03, 0x01, 2, 0, 0, 0, 0x03, 0x05,
				      3, 0, 0, 0, 4, 0, 0, 0 };
	/* a first entry continuing a list (repetition level 1): corrupt */
	static const uint8_t p3[] = { 2, 0, 0, 0, 0x03, 0x03, 2, 0, 0, 0, 0x04, 0x01,
				      1, 0, 0, 0, 2, 0, 0, 0 };
	const uint8_t *bodies[2] = { p1, p2 };
	size_t blens[2] = { sizeof p1, sizeof p2 };
	int32_t nv[2] = { 2, 3 };
	Arena *a = arena_new(0);
	floe_error err;
	ParquetFile *pf;
	ParquetColumnReader *r;
	static const char *want[3] = { "{1,2,3}", "{}", "{4}" };
	(void)state;

	size_t len = build_list_file(file, 3, 2, nv, bodies, blens);
	for (uint32_t batch = 1; batch <= 4; batch += 3) {
		uint32_t total = 0, got;
		assert_int_equal(parquet_open(&pf, file, len, "built.parquet", a, &err), FLOE_OK);
		const ParquetColumn *c = parquet_column(pf, 0);
		assert_true(c->list);
		assert_false(c->nested);
		assert_string_equal(c->name, "x");
		assert_int_equal(c->type.id, TYPE_ARRAY);
		assert_int_equal(c->type.elem, TYPE_INT32);
		assert_int_equal(parquet_column_reader_open(&r, pf, 0, 0, a, &err), FLOE_OK);
		for (;;) {
			Vector v;
			vector_init(&v, c->type, a, batch);
			assert_int_equal(parquet_column_read(r, &v, batch, &got, &err), FLOE_OK);
			if (got == 0)
				break;
			for (uint32_t i = 0; i < got; i++) {
				size_t tl;
				assert_true(total + i < 3);
				assert_true(vector_is_valid(&v, i));
				const char *t = array_to_text((const strview *)v.data + i, c->type, a, &tl);
				assert_string_equal(t, want[total + i]);
			}
			total += got;
		}
		assert_int_equal(total, 3);
	}

	/* the row group says 4 rows, the levels hold 3 */
	len = build_list_file(file, 4, 2, nv, bodies, blens);
	Vector v;
	uint32_t got, n = 0;
	assert_int_equal(parquet_open(&pf, file, len, "built.parquet", a, &err), FLOE_OK);
	assert_int_equal(parquet_column_reader_open(&r, pf, 0, 0, a, &err), FLOE_OK);
	vector_init(&v, parquet_column(pf, 0)->type, a, 8);
	int rc;
	while ((rc = parquet_column_read(r, &v, 8, &got, &err)) == FLOE_OK && got > 0)
		n += got;
	assert_int_equal(rc, FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");

	bodies[0] = p3;
	len = build_list_file(file, 3, 2, nv, bodies, blens);
	assert_int_equal(parquet_open(&pf, file, len, "built.parquet", a, &err), FLOE_OK);
	assert_int_equal(parquet_column_reader_open(&r, pf, 0, 0, a, &err), FLOE_OK);
	assert_int_equal(parquet_column_read(r, &v, 8, &got, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	assert_non_null(strstr(err.message, "continues no list"));
	(void)n;
	arena_free(a);
}

static void
test_parquet_read__built_levels(void **state)
{
	uint8_t file[8192], body[256];
	Arena *a = arena_new(0);
	Vector v;
	uint32_t n;
	floe_error err;
	int32_t vals[8] = { 10, 11, 12, 13, 14, 15, 16, 17 };

	/* BIT_PACKED (deprecated, MSB first) levels 1101101111: NULL at 2 and 5. */
	body[0] = 0xDB;
	body[1] = 0xC0;
	memcpy(body + 2, vals, sizeof vals);
	size_t len = build_file(file, 10, 10, 4, body, 2 + sizeof vals);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_OK);
	assert_int_equal(n, 10);
	int32_t want[10] = { 10, 11, 0, 12, 13, 0, 14, 15, 16, 17 };
	for (uint32_t i = 0; i < 10; i++) {
		assert_int_equal(vector_is_valid(&v, i), i != 2 && i != 5);
		if (i != 2 && i != 5)
			assert_int_equal(((int32_t *)v.data)[i], want[i]);
	}

	/* RLE levels: 4-byte length, bit-packed run of 8 levels 1,1,0,1,1,0,1,1
	 * (LSB first = 0xDB), then an RLE run of two 1s: same NULLs. */
	uint8_t lv[] = { 4, 0, 0, 0, 0x03, 0xDB, 0x04, 0x01 };
	memcpy(body, lv, sizeof lv);
	memcpy(body + sizeof lv, vals, sizeof vals);
	len = build_file(file, 10, 10, 3, body, sizeof lv + sizeof vals);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_OK);
	assert_int_equal(n, 10);
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(vector_is_valid(&v, i), i != 2 && i != 5);

	/* A definition level of 2 (max is 1): corrupt. */
	uint8_t bad[] = { 2, 0, 0, 0, 0x14, 0x02 };  /* RLE run of 10 with value 2 */
	memcpy(body, bad, sizeof bad);
	memcpy(body + sizeof bad, vals, sizeof vals);
	len = build_file(file, 10, 10, 3, body, sizeof bad + sizeof vals);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	assert_non_null(strstr(err.message, "built.parquet"));

	/* The row group claims 12 rows, the chunk holds 10: corrupt. */
	memcpy(body, lv, sizeof lv);
	memcpy(body + sizeof lv, vals, sizeof vals);
	len = build_file(file, 12, 10, 3, body, sizeof lv + sizeof vals);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");

	/* A page claiming more values than the row group has rows: corrupt. */
	len = build_file(file, 8, 10, 3, body, sizeof lv + sizeof vals);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");

	/* Values missing (page body cut after 5 values): corrupt. */
	len = build_file(file, 10, 10, 3, body, sizeof lv + 5 * 4);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	arena_free(a);
}

/* BYTE_STREAM_SPLIT on INT32 and FIXED_LEN_BYTE_ARRAY (Encodings.md:
 * byte k of value i at offset k * n + i), and FLOAT16. */
static void
test_parquet_read__built_bss(void **state)
{
	uint8_t file[8192], body[256];
	Arena *a = arena_new(0);
	Vector v;
	uint32_t n;
	floe_error err;

	/* REQUIRED INT32, 5 values, BSS (encoding 9). */
	int32_t vals[5] = { 1, -2, 0x01020304, 70000, -70000 };
	for (int i = 0; i < 5; i++)
		for (int k = 0; k < 4; k++)
			body[k * 5 + i] = (uint8_t)((uint32_t)vals[i] >> (8 * k));
	BuiltCol ci = { 1, 0, 0, 9, 0 };
	size_t len = build_file2(file, &ci, 5, 5, 3, body, 20);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_OK);
	assert_int_equal(n, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(((int32_t *)v.data)[i], vals[i]);

	/* REQUIRED FIXED_LEN_BYTE_ARRAY(3), 4 values, BSS. */
	const char *fl[4] = { "abc", "def", "ghi", "jkl" };
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 3; k++)
			body[k * 4 + i] = (uint8_t)fl[i][k];
	BuiltCol cf = { 7, 3, 0, 9, 0 };
	len = build_file2(file, &cf, 4, 4, 3, body, 12);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_OK);
	assert_int_equal(n, 4);
	assert_int_equal(v.type.id, TYPE_BYTEA);
	for (int i = 0; i < 4; i++) {
		const strview *sv = (const strview *)v.data + i;
		assert_int_equal(sv->len, 3);
		assert_memory_equal(strview_data(sv), fl[i], 3);
	}

	/* FLOAT16 (FLBA(2) + logical type 15), PLAIN: 1.0, -2.0, 0.5, 65504. */
	uint16_t h[4] = { 0x3c00, 0xc000, 0x3800, 0x7bff };
	memcpy(body, h, sizeof h);
	BuiltCol ch = { 7, 2, 0, 0, 15 };
	len = build_file2(file, &ch, 4, 4, 3, body, sizeof h);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_OK);
	assert_int_equal(v.type.id, TYPE_FLOAT32);
	float want[4] = { 1.0f, -2.0f, 0.5f, 65504.0f };
	for (int i = 0; i < 4; i++)
		assert_true(((float *)v.data)[i] == want[i]);

	/* BSS data not a multiple of the width: corrupt. */
	len = build_file2(file, &ci, 5, 5, 3, body, 19);
	assert_int_equal(read_built(file, len, a, &v, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	arena_free(a);
}

static size_t
gzip_member(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)src;
	z.avail_in = (uInt)n;
	z.next_out = dst;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t out = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

/* Each codec decompresses what its reference library compressed; a wrong
 * size or garbage is XX001; LZO is 0A000. */
static void
test_parquet_read__codecs(void **state)
{
	enum { N = 100000 };
	uint8_t *src = malloc(N), *c = malloc(2 * N + 1024), *d = malloc(N + 16);
	floe_error err;
	size_t cn;
	for (int i = 0; i < N; i++)
		src[i] = (uint8_t)((i * 7) % 251 ^ (i >> 9));

	cn = 2 * N;
	assert_int_equal(snappy_compress((const char *)src, N, (char *)c, &cn), SNAPPY_OK);
	assert_int_equal(parquet_decompress(PQ_CODEC_SNAPPY, c, cn, d, N, &err), FLOE_OK);
	assert_memory_equal(src, d, N);
	assert_int_equal(parquet_decompress(PQ_CODEC_SNAPPY, c, cn, d, N - 1, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");

	cn = ZSTD_compress(c, 2 * N, src, N, 3);
	assert_false(ZSTD_isError(cn));
	assert_int_equal(parquet_decompress(PQ_CODEC_ZSTD, c, cn, d, N, &err), FLOE_OK);
	assert_memory_equal(src, d, N);
	assert_int_equal(parquet_decompress(PQ_CODEC_ZSTD, c, cn - 5, d, N, &err), FLOE_ERR);

	/* GZIP: two concatenated members (concatenated_gzip_members.parquet). */
	size_t c1 = gzip_member(src, N / 3, c, 2 * N);
	size_t c2 = gzip_member(src + N / 3, N - N / 3, c + c1, 2 * N - c1);
	assert_int_equal(parquet_decompress(PQ_CODEC_GZIP, c, c1 + c2, d, N, &err), FLOE_OK);
	assert_memory_equal(src, d, N);
	assert_int_equal(parquet_decompress(PQ_CODEC_GZIP, c, c1 + c2, d, N + 1, &err), FLOE_ERR);

	/* LZ4_RAW, and LZ4 both raw and Hadoop-framed (two blocks). */
	int l = LZ4_compress_default((const char *)src, (char *)c, N, 2 * N);
	assert_true(l > 0);
	assert_int_equal(parquet_decompress(PQ_CODEC_LZ4_RAW, c, (size_t)l, d, N, &err), FLOE_OK);
	assert_memory_equal(src, d, N);
	memset(d, 0, N);
	assert_int_equal(parquet_decompress(PQ_CODEC_LZ4, c, (size_t)l, d, N, &err), FLOE_OK);
	assert_memory_equal(src, d, N);
	size_t pos = 0;
	for (int part = 0; part < 2; part++) {
		int off = part ? N / 2 : 0, len = part ? N - N / 2 : N / 2;
		int k = LZ4_compress_default((const char *)src + off, (char *)c + pos + 8, len, N);
		assert_true(k > 0);
		uint8_t *h = c + pos;
		h[0] = (uint8_t)(len >> 24); h[1] = (uint8_t)(len >> 16); h[2] = (uint8_t)(len >> 8); h[3] = (uint8_t)len;
		h[4] = (uint8_t)(k >> 24); h[5] = (uint8_t)(k >> 16); h[6] = (uint8_t)(k >> 8); h[7] = (uint8_t)k;
		pos += 8 + (size_t)k;
	}
	memset(d, 0, N);
	assert_int_equal(parquet_decompress(PQ_CODEC_LZ4, c, pos, d, N, &err), FLOE_OK);
	assert_memory_equal(src, d, N);

	cn = 2 * N;
	assert_true(BrotliEncoderCompress(5, 22, BROTLI_MODE_GENERIC, N, src, &cn, c));
	assert_int_equal(parquet_decompress(PQ_CODEC_BROTLI, c, cn, d, N, &err), FLOE_OK);
	assert_memory_equal(src, d, N);
	assert_int_equal(parquet_decompress(PQ_CODEC_BROTLI, c, cn, d, N - 10, &err), FLOE_ERR);

	/* Garbage into every codec: clean errors. */
	for (int codec = 1; codec <= 7; codec++) {
		if (codec == PQ_CODEC_LZO) {
			assert_int_equal(parquet_decompress(codec, src, 100, d, 1000, &err), FLOE_ERR);
			assert_string_equal(err.sqlstate, "0A000");
			continue;
		}
		assert_int_equal(parquet_decompress(codec, src + 3, 1000, d, N, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "XX001");
	}
	free(src);
	free(c);
	free(d);
}

/* Data files of Iceberg tables written by Spark, PyIceberg, DuckDB...
 * (testdata/iceberg-tables) and TPC-H sf0.1: every file reads fully; the
 * TPC-H files and every 8th Iceberg file (first 3000 rows) match DuckDB. */
static void
test_parquet_read__other_engines(void **state)
{
	char cmd[1024], *out;
	size_t len;
	failures = 0;
	fmt_limit = 3000;
	snprintf(cmd, sizeof cmd, "find '%s/testdata/tpch-sf0.1/data' '%s/testdata/iceberg-tables' "
		 "-name '*.parquet' | sort", shared_dir(), shared_dir());
	assert_int_equal(run_capture(cmd, &out, &len), 0);
	out = realloc(out, len + 1);
	out[len] = 0;
	int n = 0;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"), n++) {
		char *slash = strrchr(line, '/');
		*slash = 0;
		no_duckdb = !strstr(line, "tpch") && n % 8 != 0;
		check_file(line, slash + 1, false);
	}
	no_duckdb = false;
	fmt_limit = 0;
	free(out);
	assert_true(n > 200);
	assert_int_equal(failures, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parquet_read__all_files),
		cmocka_unit_test(test_parquet_read__manifest_rows),
		cmocka_unit_test(test_parquet_read__delta_expect),
		cmocka_unit_test(test_parquet_read__int96_spark),
		cmocka_unit_test(test_parquet_read__hadoop_lz4),
		cmocka_unit_test(test_parquet_read__page_crc),
		cmocka_unit_test(test_parquet_read__stats),
		cmocka_unit_test(test_parquet_read__skip),
		cmocka_unit_test(test_parquet_read__mutations),
		cmocka_unit_test(test_parquet_read__duckdb_written),
		cmocka_unit_test(test_parquet_read__built_levels),
		cmocka_unit_test(test_parquet_read__built_list),
		cmocka_unit_test(test_parquet_read__built_bss),
		cmocka_unit_test(test_parquet_read__codecs),
		cmocka_unit_test(test_parquet_read__other_engines),
	};
	if (getenv("PQ_TEST"))
		cmocka_set_test_filter(getenv("PQ_TEST"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
