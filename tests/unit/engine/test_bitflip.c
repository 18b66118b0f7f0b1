/*
 * test_bitflip.c — corruption is an error, never an answer (issue 13, item
 * 12).  A table is written by floe (one Parquet data file: required and
 * nullable integers, dictionary-encoded text, doubles), its rows read
 * back; then single bits of the data file are flipped, at positions spread
 * over the whole file and at every few bits of the footer, and each time
 * the whole table is read again through SQL.  Every read must either give
 * the original rows exactly or fail with XX001 (data corrupted) — never
 * other rows, never another error, never a crash.
 *
 * Each trial opens its own Engine: the process-wide Parquet file cache is
 * keyed by the engine's FileIO, so a fresh engine reads the damaged bytes
 * (the engines stay open until the end so no FileIO address is reused).
 * The number of trials is fixed (no timing): a few hundred reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sql/engine.h"
#include "types/text.h"

#define SPREAD_TRIALS 240      /* flips spread over the whole file */
#define FOOTER_TRIALS 160      /* flips inside the footer */
#define MAX_ENGINES (SPREAD_TRIALS + FOOTER_TRIALS + 2)

typedef struct Out {
	char *buf;
	size_t len, cap;
	Arena *a;
} Out;

static void
out_put(Out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		o->buf = realloc(o->buf, o->cap);
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = 0;
}

static int
sink_batch(void *ctx, const Batch *b)
{
	Out *o = ctx;
	for (uint32_t i = 0; i < b->count; i++) {
		uint32_t k = b->sel ? b->sel[i] : i;
		for (int c = 0; c < b->ncols; c++) {
			size_t len = 0;
			const char *t = vector_value_text(&b->cols[c], k, o->a, &len);
			if (t)
				out_put(o, t, len);
			else
				out_put(o, "<null>", 6);
			out_put(o, c + 1 < b->ncols ? "|" : "\n", 1);
		}
	}
	return 0;
}

static int
sink_columns(void *ctx, int ncols, const char *const *names, const SqlType *types)
{
	return 0;
}

static int
sink_complete(void *ctx, const char *tag)
{
	return 0;
}

/* Run sql in a new session of e; rows into o (reset first). */
static int
run(Engine *e, const char *sql, Out *o, floe_error *err)
{
	ResultSink sink;
	Session *s = session_new(e);
	int rc;

	memset(&sink, 0, sizeof sink);
	sink.ctx = o;
	sink.columns = sink_columns;
	sink.batch = sink_batch;
	sink.complete = sink_complete;
	o->len = 0;
	if (o->buf)
		o->buf[0] = 0;
	floe_error_clear(err);
	rc = session_exec(s, sql, &sink, err);
	session_free(s);
	arena_reset(o->a);
	return rc;
}

static Engine *
open_engine(const char *wh)
{
	EngineConfig cfg;
	Engine *e;
	floe_error err;

	memset(&cfg, 0, sizeof cfg);
	cfg.warehouse = wh;
	if (engine_open(&e, &cfg, &err) != FLOE_OK)
		fail_msg("engine_open: %s", err.message);
	return e;
}

/* The one data file of the warehouse's table t. */
static void
find_data_file(const char *wh, char *path, size_t cap)
{
	char dir[512];
	DIR *d;
	struct dirent *de;

	snprintf(dir, sizeof dir, "%s/public/t/data", wh);
	d = opendir(dir);
	assert_non_null(d);
	path[0] = 0;
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".parquet")) {
			assert_true(path[0] == 0);      /* exactly one */
			snprintf(path, cap, "%s/%s", dir, de->d_name);
		}
	closedir(d);
	assert_true(path[0] != 0);
}

static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(*len);
	assert_int_equal(fread(b, 1, *len, f), *len);
	fclose(f);
	return b;
}

static void
spit(const char *path, const uint8_t *b, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	fclose(f);
}

static const char *query = "SELECT id, a, s, d, b FROM t ORDER BY id";

static void
test_bitflip__parquet(void **state)
{
	char wh[] = "/tmp/floe-test-bitflip-XXXXXX", path[1024], cmd[1100];
	Engine *engines[MAX_ENGINES];
	int nengines = 0, trials = 0, same = 0, detected = 0, bad = 0;
	Out o = { 0 };
	char *want;
	uint8_t *orig, *copy;
	size_t len, flen;
	floe_error err;

	(void)state;
	assert_non_null(mkdtemp(wh));
	o.a = arena_new(0);
	engines[nengines++] = open_engine(wh);
	if (run(engines[0], "CREATE TABLE t (id bigint NOT NULL, a int, s text, d double precision, "
		"b boolean)", &o, &err) != FLOE_OK ||
	    run(engines[0], "INSERT INTO t SELECT g, CASE WHEN g % 7 = 0 THEN NULL ELSE g * 3 END, "
		"'v' || (g % 50), g / 3.0, g % 3 = 0 FROM generate_series(1, 3000) g", &o, &err) != FLOE_OK)
		fail_msg("setup: %s", err.message);
	assert_int_equal(run(engines[0], query, &o, &err), FLOE_OK);
	want = strdup(o.buf);
	find_data_file(wh, path, sizeof path);
	orig = slurp(path, &len);
	copy = malloc(len);
	assert_true(len > 1000);
	/* footer: FileMetaData ends 8 bytes before the end */
	flen = (size_t)orig[len - 8] | (size_t)orig[len - 7] << 8 | (size_t)orig[len - 6] << 16 |
	       (size_t)orig[len - 5] << 24;
	assert_true(flen > 0 && flen < len - 12);

	for (int t = 0; t < SPREAD_TRIALS + FOOTER_TRIALS; t++) {
		uint64_t bit;
		if (t < SPREAD_TRIALS) {
			/* spread over the whole file, never twice the same byte */
			bit = (uint64_t)t * (len * 8) / SPREAD_TRIALS + (uint64_t)(t * 5 % 8);
		} else {
			uint64_t k = (uint64_t)(t - SPREAD_TRIALS);
			bit = (uint64_t)(len - 8 - flen) * 8 + k * (flen * 8) / FOOTER_TRIALS +
			      (uint64_t)(k * 3 % 8);
		}
		memcpy(copy, orig, len);
		copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		spit(path, copy, len);
		assert_true(nengines < MAX_ENGINES);
		engines[nengines] = open_engine(wh);
		int rc = run(engines[nengines++], query, &o, &err);
		trials++;
		if (rc == FLOE_OK && strcmp(o.buf, want) == 0) {
			same++;
		} else if (rc != FLOE_OK && strcmp(err.sqlstate, "XX001") == 0) {
			detected++;
		} else {
			bad++;
			fprintf(stderr, "bit %llu (byte %llu of %zu, footer from %zu): %s\n",
				(unsigned long long)bit, (unsigned long long)(bit / 8), len, len - 8 - flen,
				rc == FLOE_OK ? "different rows" : err.message);
			if (rc != FLOE_OK)
				fprintf(stderr, "    sqlstate %s\n", err.sqlstate);
		}
	}
	spit(path, orig, len);
	fprintf(stderr, "%d trials: %d same rows, %d XX001, %d wrong\n", trials, same, detected, bad);
	for (int i = 0; i < nengines; i++)
		engine_close(engines[i]);
	arena_free(o.a);
	free(o.buf);
	free(want);
	free(orig);
	free(copy);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", wh);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(bad, 0);
	assert_true(detected > trials / 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bitflip__parquet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
