/*
 * test_theta.c — table/theta: the apache-datasketches-theta-v1 sketches
 * Trino wrote into ../shared/testdata (iceberg-tables/impala
 * iceberg_with_puffin_stats and iceberg_v3/trino_variant, see their
 * MANIFEST.md) read back with their "ndv" estimates, and floe's hashes of
 * the same column values (the rows of the expected/ JSON) equal to Trino's
 * entries, bit for bit; a serialize -> deserialize round trip; the
 * estimate of 1e5 and 1e6 distinct values within 3 standard errors; corrupt
 * sketches are XX001, never a crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/puffin/puffin.h"
#include "table/theta.h"
#include "types/strview.h"

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
	p[n] = 0;
	*len = (size_t)n;
	return p;
}

/* Blob i of a Puffin statistics file, as a sketch; its ndv property. */
static void
read_blob(Arena *a, const char *rel, int i, ThetaSketch *sk, long *ndv)
{
	size_t len, blen;
	const uint8_t *bd;
	uint8_t *p = slurp(a, rel, &len);
	PuffinFile *f = NULL;
	floe_error err;

	floe_error_clear(&err);
	if (puffin_read(p, len, rel, a, &f, &err) != FLOE_OK)
		fail_msg("%s: %s %s", rel, err.sqlstate, err.message);
	assert_true(i < f->nblobs);
	assert_string_equal(f->blobs[i].type, "apache-datasketches-theta-v1");
	if (puffin_blob_data(f, i, a, &bd, &blen, &err) != FLOE_OK)
		fail_msg("%s: %s %s", rel, err.sqlstate, err.message);
	if (theta_deserialize(bd, blen, rel, a, sk, &err) != FLOE_OK)
		fail_msg("%s: %s %s", rel, err.sqlstate, err.message);
	*ndv = atol(puffin_blob_prop(&f->blobs[i], "ndv"));
}

static int
cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* The sketch's entries are exactly the hashes h[0..n) (any order). */
static void
expect_entries(const ThetaSketch *sk, uint64_t *h, int n)
{
	int i;
	qsort(h, (size_t)n, sizeof *h, cmp_u64);
	assert_int_equal(sk->n, n);
	for (i = 0; i < n; i++)
		assert_true(sk->buf[i] == h[i]);
}

static uint64_t
hash_int(int32_t v)
{
	uint8_t b[16];
	const uint8_t *o;
	size_t len;
	assert_true(theta_value_bytes(type_make(TYPE_INT32), &v, 0, b, &o, &len));
	return theta_hash(o, len);
}

/* impala/iceberg_with_puffin_stats: i int and d decimal(9,0), rows (1,1), (2,2) */
static void
test_trino_small(void **state)
{
	const char *rel = "iceberg-tables/impala/iceberg_with_puffin_stats/metadata/"
			  "20241028_142058_00006_dn7is-8d3be062-6b30-45ea-b26e-6b706c50f8e3.stats";
	Arena *a = arena_new(0);
	ThetaSketch sk;
	uint64_t h[2];
	long ndv;
	int128 d[2] = { 1, 2 };
	int j;
	(void)state;

	read_blob(a, rel, 0, &sk, &ndv);
	assert_int_equal(ndv, 2);
	assert_true(theta_estimate(&sk) == 2.0);
	h[0] = hash_int(1);
	h[1] = hash_int(2);
	expect_entries(&sk, h, 2);

	read_blob(a, rel, 1, &sk, &ndv);
	assert_int_equal(ndv, 2);
	assert_true(theta_estimate(&sk) == 2.0);
	for (j = 0; j < 2; j++) {
		uint8_t b[16];
		const uint8_t *o;
		size_t len;
		assert_true(theta_value_bytes(type_decimal(9, 0), d, (uint32_t)j, b, &o, &len));
		assert_int_equal(len, 1);
		h[j] = theta_hash(o, len);
	}
	expect_entries(&sk, h, 2);
	arena_free(a);
}

/* impala/iceberg_v3/trino_variant: id int, descr string, 55 rows (values
 * from expected/...json) */
static void
test_trino_variant(void **state)
{
	const char *rel = "iceberg-tables/impala/iceberg_v3/trino_variant/metadata/"
			  "20260629_095655_00023_wa2kj-bcc1a100-d380-42cf-bccf-2e32badf7ac5.stats";
	Arena *a = arena_new(0);
	ThetaSketch sk;
	uint64_t hid[64], hds[64];
	size_t len, i;
	long ndv;
	char *js = (char *)slurp(a, "iceberg-tables/expected/impala/iceberg_v3/trino_variant.expected.json",
				 &len);
	json_error_t je;
	json_t *root = json_loads(js, 0, &je), *mf, *snaps, *rows, *r;
	int n = 0;
	(void)state;

	assert_non_null(root);
	mf = json_array_get(json_object_get(root, "metadata_files"), 1);
	snaps = json_object_get(mf, "snapshots");
	rows = json_object_get(json_array_get(snaps, json_array_size(snaps) - 1), "rows");
	assert_int_equal(json_array_size(rows), 55);
	json_array_foreach(rows, i, r) {
		const char *s = json_string_value(json_object_get(r, "descr"));
		hid[n] = hash_int((int32_t)json_integer_value(json_object_get(r, "id")));
		hds[n] = theta_hash(s, strlen(s));
		n++;
	}
	read_blob(a, rel, 0, &sk, &ndv);
	assert_int_equal(ndv, 55);
	assert_true(theta_estimate(&sk) == 55.0);
	expect_entries(&sk, hid, n);
	read_blob(a, rel, 1, &sk, &ndv);
	assert_int_equal(ndv, 55);
	expect_entries(&sk, hds, n);
	json_decref(root);
	arena_free(a);
}

static void
round_trip(int64_t nd, int repeat, double *est, double *rse)
{
	Arena *a = arena_new(0);
	ThetaSketch s, r;
	uint8_t *d;
	size_t len;
	int64_t i;
	int k;
	floe_error err;

	theta_init(&s, THETA_DEFAULT_LG_K, a);
	for (k = 0; k < repeat; k++)
		for (i = 0; i < nd; i++)
			theta_update(&s, &i, 8);
	theta_serialize(&s, a, &d, &len);
	floe_error_clear(&err);
	if (theta_deserialize(d, len, "rt", a, &r, &err) != FLOE_OK)
		fail_msg("%s %s", err.sqlstate, err.message);
	assert_true(theta_estimate(&r) == theta_estimate(&s));
	assert_int_equal(r.n, s.n);
	assert_true(r.theta == s.theta);
	if (nd == 0) {
		assert_int_equal(len, 8);
		assert_true(r.empty);
	} else if (nd == 1) {
		assert_int_equal(len, 16);
	}
	*est = theta_estimate(&r);
	*rse = theta_rse(&r);
	arena_free(a);
}

static void
test_round_trip(void **state)
{
	double est, rse;
	(void)state;

	round_trip(0, 1, &est, &rse);
	assert_true(est == 0);
	round_trip(1, 3, &est, &rse);
	assert_true(est == 1);
	round_trip(4096, 2, &est, &rse);       /* k entries: still exact */
	assert_true(est == 4096 && rse == 0);
	round_trip(100000, 2, &est, &rse);
	assert_true(rse > 0 && fabs(est - 100000) <= 3 * rse * 100000);
	round_trip(1000000, 1, &est, &rse);
	assert_true(fabs(est - 1000000) <= 3 * rse * 1000000);
}

static void
test_corrupt(void **state)
{
	Arena *a = arena_new(0);
	uint8_t good[32] = { 2, 3, 3, 0, 0, 0x1a, 0xcc, 0x93, 2, 0, 0, 0, 0, 0, 0x80, 0x3f,
			     5, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0 };
	uint8_t bad[32];
	ThetaSketch sk;
	floe_error err;
	size_t cut;
	(void)state;

	floe_error_clear(&err);
	assert_int_equal(theta_deserialize(good, 32, "g", a, &sk, &err), FLOE_OK);
	assert_true(theta_estimate(&sk) == 2);
	for (cut = 0; cut < 32; cut++) {
		floe_error_clear(&err);
		assert_int_not_equal(theta_deserialize(good, cut, "g", a, &sk, &err), FLOE_OK);
		assert_string_equal(err.sqlstate, "XX001");
	}
	memcpy(bad, good, 32);
	bad[8] = 200;                          /* count past the end */
	floe_error_clear(&err);
	assert_int_not_equal(theta_deserialize(bad, 32, "b", a, &sk, &err), FLOE_OK);
	memcpy(bad, good, 32);
	bad[6] = 0;                            /* another seed */
	floe_error_clear(&err);
	assert_int_not_equal(theta_deserialize(bad, 32, "b", a, &sk, &err), FLOE_OK);
	assert_string_equal(err.sqlstate, "0A000");
	memcpy(bad, good, 32);
	bad[1] = 4;                            /* compressed serial version */
	floe_error_clear(&err);
	assert_int_not_equal(theta_deserialize(bad, 32, "b", a, &sk, &err), FLOE_OK);
	assert_string_equal(err.sqlstate, "0A000");
	arena_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trino_small),
		cmocka_unit_test(test_trino_variant),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
