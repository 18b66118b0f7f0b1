/*
 * test_parquet_cache.c — parquet_open_cached (file_cache.c): the shared
 * cache of small data files' bytes and parsed footers.
 *
 * Truth: apache/parquet-testing's alltypes_plain.parquet (../shared/
 * testdata/parquet, MANIFEST.md: 8 rows, 11 columns, id 0..7 in file
 * order 4 5 6 7 2 3 0 1), read through a FileIO stub that counts reads.
 *
 * Cases:
 *   test_parquet_cache__hit             a second open (after the first's hold
 *                                       arena was reset) reads nothing; the
 *                                       cached file reads the same values
 *   test_parquet_cache__keys            another FileIO, root or manifest size
 *                                       is another entry
 *   test_parquet_cache__size_mismatch   a file whose length is not the
 *                                       manifest's is read afresh every time
 *   test_parquet_cache__errors          a corrupt file fails (XX001) and is
 *                                       not cached: fixed, it reads fine
 *   test_parquet_cache__threads         8 threads open and read one file
 *                                       1000 times each (ASan/TSan)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/parquet/parquet.h"
#include "storage/fileio.h"
#include "types/vector.h"

/* a FileIO serving one in-memory file, counting reads */
typedef struct StubIO {
	FileIO io;
	const uint8_t *data;
	size_t len;
	int reads;
} StubIO;

static int
stub_read(FileIO *io, const char *path, Arena *arena, const uint8_t **data, size_t *len,
	  floe_error *err)
{
	StubIO *s = (StubIO *)io;
	(void)path;
	__atomic_add_fetch(&s->reads, 1, __ATOMIC_RELAXED);
	*data = arena_memdup(arena, s->data, s->len);
	*len = s->len;
	(void)err;
	return FLOE_OK;
}

static const FileIOVT stub_vt = { .read = stub_read };

static uint8_t *file;
static size_t file_len;

static int
setup(void **state)
{
	const char *sh = getenv("FLOE_SHARED");
	char path[4096];
	FILE *f;
	long n;

	(void)state;
	snprintf(path, sizeof path, "%s/testdata/parquet/data/alltypes_plain.parquet",
		 sh && *sh ? sh : "../shared");
	f = fopen(path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	file = malloc((size_t)n);
	file_len = (size_t)n;
	if (fread(file, 1, file_len, f) != file_len) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	free(file);
	return 0;
}

static void
stub_init(StubIO *s, const char *root, const uint8_t *data, size_t len)
{
	memset(s, 0, sizeof *s);
	s->io.vt = &stub_vt;
	s->io.root = (char *)root;
	s->data = data;
	s->len = len;
}

/* the ids of the file (column 0), comma-separated */
static void
ids(ParquetFile *pf, char *out, size_t n)
{
	Arena *a = arena_new(0);
	ParquetColumnReader *r;
	floe_error err;
	Vector v;
	uint32_t got, i;
	size_t off = 0;

	assert_int_equal(parquet_column_reader_open(&r, pf, 0, 0, a, &err), FLOE_OK);
	vector_init(&v, parquet_column(pf, 0)->type, a, 16);
	assert_int_equal(parquet_column_read(r, &v, 16, &got, &err), FLOE_OK);
	out[0] = 0;
	for (i = 0; i < got && off < n; i++)
		off += (size_t)snprintf(out + off, n - off, "%s%d", i ? "," : "", ((int32_t *)v.data)[i]);
	arena_free(a);
}

static void
test_parquet_cache__hit(void **state)
{
	StubIO s;
	Arena *hold = arena_new(0);
	ParquetFile *pf, *pf2;
	floe_error err;
	char got[128];

	(void)state;
	stub_init(&s, "/wh-hit", file, file_len);
	assert_int_equal(parquet_open_cached(&pf, &s.io, "t/data/a.parquet", (int64_t)file_len, hold,
					     &err), FLOE_OK);
	assert_int_equal(s.reads, 1);
	assert_int_equal(parquet_num_rows(pf), 8);
	assert_int_equal(parquet_num_columns(pf), 11);
	ids(pf, got, sizeof got);
	assert_string_equal(got, "4,5,6,7,2,3,0,1");
	arena_reset(hold);           /* the reference goes; the entry stays */
	assert_int_equal(parquet_open_cached(&pf2, &s.io, "t/data/a.parquet", (int64_t)file_len, hold,
					     &err), FLOE_OK);
	assert_int_equal(s.reads, 1);
	assert_ptr_equal(pf, pf2);
	ids(pf2, got, sizeof got);
	assert_string_equal(got, "4,5,6,7,2,3,0,1");
	/* unknown size (<= 0): read every time, not cached */
	assert_int_equal(parquet_open_cached(&pf, &s.io, "t/data/a.parquet", 0, hold, &err), FLOE_OK);
	assert_int_equal(parquet_open_cached(&pf, &s.io, "t/data/a.parquet", -1, hold, &err), FLOE_OK);
	assert_int_equal(s.reads, 3);
	assert_int_equal(parquet_num_rows(pf), 8);
	arena_free(hold);
}

static void
test_parquet_cache__keys(void **state)
{
	StubIO s1, s2, s3;
	Arena *hold = arena_new(0);
	ParquetFile *pf;
	floe_error err;
	const char *p = "t/data/k.parquet";

	(void)state;
	stub_init(&s1, "/wh-k1", file, file_len);
	stub_init(&s2, "/wh-k1", file, file_len);     /* another FileIO, same root */
	stub_init(&s3, "/wh-k1", file, file_len);
	assert_int_equal(parquet_open_cached(&pf, &s1.io, p, (int64_t)file_len, hold, &err), FLOE_OK);
	assert_int_equal(parquet_open_cached(&pf, &s2.io, p, (int64_t)file_len, hold, &err), FLOE_OK);
	assert_int_equal(s1.reads, 1);
	assert_int_equal(s2.reads, 1);
	assert_int_equal(parquet_open_cached(&pf, &s1.io, p, (int64_t)file_len, hold, &err), FLOE_OK);
	assert_int_equal(s1.reads, 1);
	/* the same FileIO with another root (a relative path means another file) */
	s3.io.root = (char *)"/wh-k2";
	assert_int_equal(parquet_open_cached(&pf, &s3.io, p, (int64_t)file_len, hold, &err), FLOE_OK);
	assert_int_equal(s3.reads, 1);
	/* another path */
	assert_int_equal(parquet_open_cached(&pf, &s1.io, "t/data/k2.parquet", (int64_t)file_len, hold,
					     &err), FLOE_OK);
	assert_int_equal(s1.reads, 2);
	arena_free(hold);
}

static void
test_parquet_cache__size_mismatch(void **state)
{
	StubIO s;
	Arena *hold = arena_new(0);
	ParquetFile *pf;
	floe_error err;

	(void)state;
	stub_init(&s, "/wh-size", file, file_len);
	/* the manifest says 100 bytes more: never cached, always right */
	assert_int_equal(parquet_open_cached(&pf, &s.io, "m.parquet", (int64_t)file_len + 100, hold,
					     &err), FLOE_OK);
	assert_int_equal(parquet_num_rows(pf), 8);
	assert_int_equal(parquet_open_cached(&pf, &s.io, "m.parquet", (int64_t)file_len + 100, hold,
					     &err), FLOE_OK);
	assert_int_equal(parquet_num_rows(pf), 8);
	assert_int_equal(s.reads, 4);     /* two reads per open: the check, then uncached */
	arena_free(hold);
}

static void
test_parquet_cache__errors(void **state)
{
	StubIO s;
	Arena *hold = arena_new(0);
	ParquetFile *pf;
	floe_error err;
	uint8_t *bad = malloc(file_len);

	(void)state;
	memcpy(bad, file, file_len);
	memcpy(bad + file_len - 4, "XXXX", 4);       /* no PAR1 at the end */
	stub_init(&s, "/wh-err", bad, file_len);
	assert_int_equal(parquet_open_cached(&pf, &s.io, "e.parquet", (int64_t)file_len, hold, &err),
			 FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	assert_int_equal(parquet_open_cached(&pf, &s.io, "e.parquet", (int64_t)file_len, hold, &err),
			 FLOE_ERR);
	assert_int_equal(s.reads, 2);                /* the error was not cached */
	s.data = file;                               /* same path, now a good file */
	assert_int_equal(parquet_open_cached(&pf, &s.io, "e.parquet", (int64_t)file_len, hold, &err),
			 FLOE_OK);
	assert_int_equal(parquet_num_rows(pf), 8);
	assert_int_equal(s.reads, 3);
	free(bad);
	arena_free(hold);
}

static StubIO thr_io;

static void *
thr_main(void *arg)
{
	Arena *hold = arena_new(0);
	char got[128];
	int i, *bad = arg;

	for (i = 0; i < 1000; i++) {
		ParquetFile *pf;
		floe_error err;
		if (parquet_open_cached(&pf, &thr_io.io, "thr.parquet", (int64_t)file_len, hold, &err) !=
			    FLOE_OK ||
		    parquet_num_rows(pf) != 8)
			(*bad)++;
		if (i % 100 == 0) {
			ids(pf, got, sizeof got);
			if (strcmp(got, "4,5,6,7,2,3,0,1") != 0)
				(*bad)++;
		}
		arena_reset(hold);
	}
	arena_free(hold);
	return NULL;
}

static void
test_parquet_cache__threads(void **state)
{
	pthread_t t[8];
	int bad[8] = { 0 }, i;
	LruStats st;

	(void)state;
	stub_init(&thr_io, "/wh-thr", file, file_len);
	for (i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&t[i], NULL, thr_main, &bad[i]), 0);
	for (i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(bad[i], 0);
	}
	/* threads racing on the first miss may each read it once */
	assert_in_range(thr_io.reads, 1, 8);
	parquet_file_cache_stats(&st);
	assert_true(st.hits >= 8000 - 8);
	assert_true(st.bytes <= st.max_bytes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parquet_cache__hit),
		cmocka_unit_test(test_parquet_cache__keys),
		cmocka_unit_test(test_parquet_cache__size_mismatch),
		cmocka_unit_test(test_parquet_cache__errors),
		cmocka_unit_test(test_parquet_cache__threads),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
