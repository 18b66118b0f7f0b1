/*
 * test_puffin.c — format/puffin: the real Puffin files and deletion-vector
 * payloads of ../shared/testdata/puffin (expectations from its MANIFEST.md),
 * write -> read round trips, and corrupt inputs -> XX001 (never a crash).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/puffin/puffin.h"

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
	snprintf(path, sizeof path, "%s/testdata/%s", shared_dir(), rel);
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

static PuffinFile *
read_ok(Arena *a, const char *rel)
{
	size_t len;
	uint8_t *p = slurp(a, rel, &len);
	PuffinFile *f = NULL;
	floe_error err;
	floe_error_clear(&err);
	if (puffin_read(p, len, rel, a, &f, &err) != FLOE_OK)
		fail_msg("%s: %s %s", rel, err.sqlstate, err.message);
	return f;
}

static void
expect_positions(const int64_t *got, int64_t n, const int64_t *want, int64_t nw)
{
	int64_t i;
	assert_int_equal(n, nw);
	for (i = 0; i < n; i++)
		assert_int_equal(got[i], want[i]);
}

static void
test_empty_and_sample(void **state)
{
	(void)state;
	Arena *a = arena_new(0);
	PuffinFile *f = read_ok(a, "puffin/apache-iceberg/puffin-v1/empty-puffin-uncompressed.bin");
	const uint8_t *d;
	size_t len;
	floe_error err;
	const char *paths[2] = { "puffin/apache-iceberg/puffin-v1/sample-metric-data-uncompressed.bin",
				 "puffin/apache-iceberg/puffin-v1/sample-metric-data-compressed-zstd.bin" };
	static const char second[] = "some blob \0 binary data \xf0\x9f\xa4\xaf that is not very very "
				     "very very very very long, is it?";
	int i;

	assert_int_equal(f->nblobs, 0);
	for (i = 0; i < 2; i++) {
		f = read_ok(a, paths[i]);
		assert_int_equal(f->nblobs, 2);
		assert_string_equal(f->blobs[0].type, "some-blob");
		assert_int_equal(f->blobs[0].nfields, 1);
		assert_int_equal(f->blobs[0].fields[0], 1);
		assert_int_equal(f->blobs[0].snapshot_id, 2);
		assert_int_equal(f->blobs[0].sequence_number, 1);
		assert_string_equal(f->blobs[1].type, "some-other-blob");
		assert_int_equal(f->blobs[1].fields[0], 2);
		assert_int_equal(f->nprops, 1);
		assert_string_equal(f->props[0].key, "created-by");
		assert_string_equal(f->props[0].value, "Test 1234");
		floe_error_clear(&err);
		assert_int_equal(puffin_blob_data(f, 0, a, &d, &len, &err), FLOE_OK);
		assert_int_equal(len, 9);
		assert_memory_equal(d, "abcdefghi", 9);
		assert_int_equal(puffin_blob_data(f, 1, a, &d, &len, &err), FLOE_OK);
		assert_int_equal(len, sizeof second - 1);
		assert_memory_equal(d, second, len);
	}
	assert_int_equal(read_ok(a, paths[0])->blobs[1].offset, 13);
	assert_int_equal(read_ok(a, paths[0])->blobs[1].length, 83);
	assert_int_equal(read_ok(a, paths[1])->blobs[1].offset, 26);
	assert_string_equal(read_ok(a, paths[1])->blobs[0].compression, "zstd");
	arena_free(a);
}

static void
dv_of_puffin(Arena *a, const char *rel, int blob, const char *ref, const int64_t *want, int nw)
{
	PuffinFile *f = read_ok(a, rel);
	const uint8_t *d;
	size_t len;
	int64_t *pos, n;
	floe_error err;

	floe_error_clear(&err);
	assert_true(blob < f->nblobs);
	assert_string_equal(f->blobs[blob].type, PUFFIN_DV_TYPE);
	assert_string_equal(puffin_blob_prop(&f->blobs[blob], "referenced-data-file"), ref);
	assert_int_equal(puffin_blob_data(f, blob, a, &d, &len, &err), FLOE_OK);
	if (puffin_dv_decode(d, len, rel, 1000000, a, &pos, &n, &err) != FLOE_OK)
		fail_msg("%s: %s", rel, err.message);
	expect_positions(pos, n, want, nw);
	assert_int_equal(atoll(puffin_blob_prop(&f->blobs[blob], "cardinality")), nw);
}

static void
test_dv_puffins(void **state)
{
	(void)state;
	Arena *a = arena_new(0);
	static const int64_t odd[] = { 1, 3, 5, 7, 9 }, b1[] = { 0, 100, 200 }, b2[] = { 50, 150 };
	PuffinFile *f;

	dv_of_puffin(a, "puffin/iceberg-go/puffin/deletion-vector-v1.puffin", 0, "data/test.parquet",
		     odd, 5);
	dv_of_puffin(a, "puffin/iceberg-go/dv/single-blob-dv.puffin", 0,
		     "s3://warehouse/db/table/data/00000-0-abc.parquet", odd, 5);
	dv_of_puffin(a, "puffin/iceberg-go/dv/multi-blob-dv.puffin", 0,
		     "s3://warehouse/db/table/data/file-001.parquet", b1, 3);
	dv_of_puffin(a, "puffin/iceberg-go/dv/multi-blob-dv.puffin", 1,
		     "s3://warehouse/db/table/data/file-002.parquet", b2, 2);
	f = read_ok(a, "puffin/iceberg-go/dv/multi-blob-dv.puffin");
	assert_int_equal(f->blobs[0].offset, 4);
	assert_int_equal(f->blobs[0].length, 46);
	assert_int_equal(f->blobs[1].offset, 50);
	assert_int_equal(f->blobs[1].length, 44);
	arena_free(a);
}

/* Decode a raw DV payload and re-encode it: the same positions come back,
 * and for the small payloads floe's bytes equal the reference bytes. */
static void
raw_dv(Arena *a, const char *rel, const int64_t *want, int64_t nw, int64_t expect_n,
       bool same_bytes)
{
	size_t len, elen;
	uint8_t *p = slurp(a, rel, &len), *enc;
	int64_t *pos, n, *pos2, n2;
	floe_error err;

	floe_error_clear(&err);
	if (puffin_dv_decode(p, len, rel, 1 << 30, a, &pos, &n, &err) != FLOE_OK)
		fail_msg("%s: %s", rel, err.message);
	assert_int_equal(n, expect_n);
	if (want)
		expect_positions(pos, n < nw ? n : nw, want, n < nw ? n : nw);
	puffin_dv_encode(pos, n, a, &enc, &elen);
	if (same_bytes) {
		assert_int_equal(elen, len);
		assert_memory_equal(enc, p, len);
	}
	assert_int_equal(puffin_dv_decode(enc, elen, "re-encoded", 1 << 30, a, &pos2, &n2, &err), FLOE_OK);
	expect_positions(pos2, n2, pos, n);
}

static void
test_dv_payloads(void **state)
{
	(void)state;
	Arena *a = arena_new(0);
	static const int64_t odd[] = { 1, 3, 5, 7, 9 };
	static const int64_t big[] = { 100, 101, 2147483747LL, 2147483748LL };
	static const int64_t first[] = { 5, 7, 65537 };
	int64_t *pos, n;
	size_t len;
	uint8_t *p;
	floe_error err;

	raw_dv(a, "puffin/apache-iceberg/deletes/empty-position-index.bin", NULL, 0, 0, true);
	raw_dv(a, "puffin/apache-iceberg/deletes/small-alternating-values-position-index.bin", odd, 5,
	       5, true);
	raw_dv(a, "puffin/apache-iceberg/deletes/small-and-large-values-position-index.bin", big, 4, 4,
	       true);
	raw_dv(a, "puffin/iceberg-go/puffin/deletion-vector-v1-payload.bin", odd, 5, 5, true);
	raw_dv(a, "puffin/apache-iceberg/deletes/all-container-types-position-index.bin", first, 3,
	       132561, false);
	p = slurp(a, "puffin/apache-iceberg/deletes/all-container-types-position-index.bin", &len);
	floe_error_clear(&err);
	assert_int_equal(puffin_dv_decode(p, len, "x", 1 << 30, a, &pos, &n, &err), FLOE_OK);
	assert_int_equal(pos[n - 1], 4295163902LL);
	/* a limit below the cardinality is refused before materialising */
	assert_int_equal(puffin_dv_decode(p, len, "limited", 1000, a, &pos, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	arena_free(a);
}

static void
test_r64_maps(void **state)
{
	(void)state;
	Arena *a = arena_new(0);
	size_t len, used;
	uint8_t *p;
	int64_t *pos, n, i;
	floe_error err;

	floe_error_clear(&err);
	p = slurp(a, "puffin/apache-iceberg/deletes/64mapempty.bin", &len);
	assert_int_equal(puffin_r64_decode(p, len, "e", 100, a, &pos, &n, &used, &err), FLOE_OK);
	assert_int_equal(n, 0);
	p = slurp(a, "puffin/apache-iceberg/deletes/64map32bitvals.bin", &len);
	assert_int_equal(puffin_r64_decode(p, len, "v", 100, a, &pos, &n, &used, &err), FLOE_OK);
	assert_int_equal(n, 10);
	for (i = 0; i < 10; i++)
		assert_int_equal(pos[i], i);
	p = slurp(a, "puffin/apache-iceberg/deletes/64mapspreadvals.bin", &len);
	assert_int_equal(puffin_r64_decode(p, len, "s", 1000, a, &pos, &n, &used, &err), FLOE_OK);
	assert_int_equal(n, 100);
	assert_int_equal(pos[99], 38654705673LL);
	assert_int_equal(pos[10], (int64_t)1 << 32);
	assert_int_equal(used, len);
	p = slurp(a, "puffin/apache-iceberg/deletes/64maphighvals.bin", &len);
	assert_int_equal(puffin_r64_decode(p, len, "h", INT64_MAX, a, &pos, &n, &used, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "XX001");
	arena_free(a);
}

static void
test_write_round_trip(void **state)
{
	(void)state;
	Arena *a = arena_new(0);
	static const int64_t pos[] = { 0, 2, 4, 70000, (int64_t)1 << 32, ((int64_t)3 << 32) + 7 };
	PuffinBlob b[2];
	PuffinProp bp[2] = { { "referenced-data-file", "/x/data/f.parquet" }, { "cardinality", "6" } };
	PuffinProp fp[1] = { { "created-by", "floe" } };
	int32_t fld = PUFFIN_ROW_POS_FIELD_ID;
	const uint8_t *data, *d;
	uint8_t *dv;
	size_t len, dlen, l2;
	PuffinFile *f;
	int64_t *got, n;
	floe_error err;

	floe_error_clear(&err);
	memset(b, 0, sizeof b);
	puffin_dv_encode(pos, 6, a, &dv, &dlen);
	b[0].type = PUFFIN_DV_TYPE;
	b[0].nfields = 1;
	b[0].fields = &fld;
	b[0].snapshot_id = b[0].sequence_number = -1;
	b[0].nprops = 2;
	b[0].props = bp;
	b[0].data = dv;
	b[0].data_len = dlen;
	b[1] = b[0];
	b[1].data = (const uint8_t *)"hello";
	b[1].data_len = 5;
	b[1].type = "other";
	assert_int_equal(puffin_write(b, 2, fp, 1, a, &data, &len, &err), FLOE_OK);
	assert_int_equal(b[0].offset, 4);
	assert_int_equal(b[1].offset, 4 + (int64_t)dlen);
	assert_int_equal(puffin_read(data, len, "rt", a, &f, &err), FLOE_OK);
	assert_int_equal(f->nblobs, 2);
	assert_int_equal(f->blobs[0].length, (int64_t)dlen);
	assert_string_equal(puffin_blob_prop(&f->blobs[0], "cardinality"), "6");
	assert_int_equal(puffin_blob_data(f, 0, a, &d, &l2, &err), FLOE_OK);
	assert_int_equal(puffin_dv_decode(d, l2, "rt", 100, a, &got, &n, &err), FLOE_OK);
	expect_positions(got, n, pos, 6);
	assert_int_equal(puffin_blob_data(f, 1, a, &d, &l2, &err), FLOE_OK);
	assert_memory_equal(d, "hello", 5);
	arena_free(a);
}

/* Every truncation and many single-byte flips of real files: clean errors. */
static void
test_corrupt(void **state)
{
	(void)state;
	Arena *a = arena_new(0);
	const char *files[] = { "puffin/iceberg-go/dv/multi-blob-dv.puffin",
				"puffin/apache-iceberg/deletes/all-container-types-position-index.bin" };
	size_t len, cut;
	int fi;
	floe_error err;

	for (fi = 0; fi < 2; fi++) {
		uint8_t *p = slurp(a, files[fi], &len), *q = arena_alloc(a, len);
		for (cut = 0; cut < len; cut += (cut < 200 ? 1 : 97)) {
			PuffinFile *f;
			int64_t *pos, n;
			floe_error_clear(&err);
			if (fi == 0)
				assert_int_equal(puffin_read(p, cut, "cut", a, &f, &err), FLOE_ERR);
			else
				assert_int_equal(puffin_dv_decode(p, cut, "cut", 1 << 30, a, &pos, &n, &err),
						 FLOE_ERR);
			assert_string_equal(err.sqlstate, "XX001");
		}
		for (cut = 0; cut < len && cut < 400; cut++) {
			PuffinFile *f;
			int64_t *pos, n;
			memcpy(q, p, len);
			q[cut] ^= 0x5a;
			floe_error_clear(&err);
			if (fi == 0) {
				if (puffin_read(q, len, "flip", a, &f, &err) == FLOE_OK) {
					const uint8_t *d;
					size_t l;
					int b;
					for (b = 0; b < f->nblobs; b++)
						if (puffin_blob_data(f, b, a, &d, &l, &err) == FLOE_OK)
							(void)puffin_dv_decode(d, l, "flip", 1 << 20, a, &pos, &n, &err);
				}
			} else {
				/* the CRC catches every flip of magic+bitmap */
				if (puffin_dv_decode(q, len, "flip", 1 << 30, a, &pos, &n, &err) == FLOE_OK)
					fail_msg("flip at %zu accepted", cut);
			}
		}
	}
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_sample),
		cmocka_unit_test(test_dv_puffins),
		cmocka_unit_test(test_dv_payloads),
		cmocka_unit_test(test_r64_maps),
		cmocka_unit_test(test_write_round_trip),
		cmocka_unit_test(test_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
