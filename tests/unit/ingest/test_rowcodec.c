/*
 * test_rowcodec.c — insert-buffer entry bytes (src/ingest/rowcodec.h) and
 * the fast VALUES scanner (src/ingest/fastvalues.h).
 *
 * rowcodec: a batch of every fixed-width and string type, with NULLs and
 * more rows than one vector, encodes and decodes to the same values; a
 * column the entry lacks reads NULL, a column of another type is 42804;
 * every truncation and every single-byte corruption of the header either
 * decodes or fails with XX001, never reads out of bounds (ASan).
 * fastvalues: what it takes and what it leaves to libpg_query.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ingest/fastvalues.h"
#include "ingest/rowcodec.h"

static Arena *A;

static int setup(void **s) { (void)s; A = arena_new(0); return 0; }
static int teardown(void **s) { (void)s; arena_free(A); return 0; }

#define NROWS 3000

static void
encode_sample(uint8_t **bytes, size_t *len, int32_t *ids, SqlType *types)
{
	RowEncoder enc;
	Batch *b;
	uint32_t r;
	int base;

	types[0] = type_make(TYPE_INT64);
	types[1] = type_make(TYPE_TEXT);
	types[2] = type_decimal(10, 2);
	types[3] = type_make(TYPE_BOOL);
	ids[0] = 1; ids[1] = 2; ids[2] = 5; ids[3] = 7;
	rowcodec_init(&enc, "public", "t", 3, 4, ids, types);
	for (base = 0; base < NROWS; base += 1000) {
		b = batch_new(A, 4, types, 1000);
		b->count = 1000;
		for (r = 0; r < 1000; r++) {
			int x = base + (int)r;
			char s[64];
			((int64_t *)b->cols[0].data)[r] = x * 7;
			snprintf(s, sizeof s, x % 3 ? "short%d" : "a much longer string value %d", x);
			vector_set_string(&b->cols[1], r, s, (uint32_t)strlen(s));
			((int128 *)b->cols[2].data)[r] = (int128)x * 100 + 25;
			((uint8_t *)b->cols[3].data)[r] = x & 1;
			if (x % 11 == 0)
				vector_set_null(&b->cols[1], r);
			if (x % 13 == 0)
				vector_set_null(&b->cols[3], r);
		}
		rowcodec_add(&enc, b);
	}
	rowcodec_finish(&enc, bytes, len);
	rowcodec_dispose(&enc);
}

static void
test_rowcodec__round_trip(void **s)
{
	uint8_t *bytes;
	size_t len;
	int32_t ids[4], want[5] = { 7, 1, 2, 5, 99 };
	SqlType types[4], wt[5];
	RowEntry e;
	Batch **bs;
	int nb, x;
	floe_error err;

	(void)s;
	encode_sample(&bytes, &len, ids, types);
	assert_int_equal(rowcodec_decode(bytes, len, A, &e, &err), FLOE_OK);
	assert_string_equal(e.ns, "public");
	assert_string_equal(e.name, "t");
	assert_int_equal(e.schema_id, 3);
	assert_int_equal(e.nrows, NROWS);
	wt[0] = types[3]; wt[1] = types[0]; wt[2] = types[1]; wt[3] = types[2];
	wt[4] = type_make(TYPE_INT32);
	assert_int_equal(rowcodec_batches(&e, A, 5, want, wt, &bs, &nb, &err), FLOE_OK);
	assert_int_equal(nb, 2);
	assert_int_equal(bs[0]->count, VECTOR_SIZE);
	assert_int_equal(bs[1]->count, NROWS - VECTOR_SIZE);
	for (x = 0; x < NROWS; x++) {
		Batch *b = bs[x / VECTOR_SIZE];
		uint32_t r = (uint32_t)(x % VECTOR_SIZE);
		char sx[64];
		assert_int_equal(((int64_t *)b->cols[1].data)[r], x * 7);
		assert_true(((int128 *)b->cols[3].data)[r] == (int128)x * 100 + 25);
		assert_int_equal(vector_is_valid(&b->cols[0], r), x % 13 != 0);
		if (x % 13)
			assert_int_equal(((uint8_t *)b->cols[0].data)[r], x & 1);
		assert_int_equal(vector_is_valid(&b->cols[2], r), x % 11 != 0);
		if (x % 11) {
			const strview *sv = &((const strview *)b->cols[2].data)[r];
			snprintf(sx, sizeof sx, x % 3 ? "short%d" : "a much longer string value %d", x);
			assert_int_equal(sv->len, strlen(sx));
			assert_memory_equal(strview_data(sv), sx, sv->len);
		}
		assert_false(vector_is_valid(&b->cols[4], r));      /* field 99: not in the entry */
	}
	/* another type for field 1 */
	wt[1] = type_make(TYPE_INT32);
	assert_int_equal(rowcodec_batches(&e, A, 5, want, wt, &bs, &nb, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42804");
	free(bytes);
}

static void
test_rowcodec__corrupt(void **s)
{
	uint8_t *bytes, *copy;
	size_t len, cut, i;
	int32_t ids[4];
	SqlType types[4];
	RowEntry e;
	Batch **bs;
	int nb;
	floe_error err;

	(void)s;
	encode_sample(&bytes, &len, ids, types);
	copy = malloc(len);
	for (cut = 0; cut < len; cut += cut < 200 ? 1 : 997) {
		memcpy(copy, bytes, cut);
		arena_reset(A);
		if (rowcodec_decode(copy, cut, A, &e, &err) == FLOE_OK)
			assert_int_equal(rowcodec_batches(&e, A, e.ncols, e.field_ids, e.types, &bs, &nb, &err), FLOE_ERR);
		assert_string_equal(err.sqlstate, "XX001");
	}
	for (i = 0; i < 120 && i < len; i++) {
		int bit;
		for (bit = 0; bit < 8; bit++) {
			memcpy(copy, bytes, len);
			copy[i] ^= (uint8_t)(1u << bit);
			arena_reset(A);
			if (rowcodec_decode(copy, len, A, &e, &err) == FLOE_OK &&
			    rowcodec_batches(&e, A, e.ncols, e.field_ids, e.types, &bs, &nb, &err) != FLOE_OK)
				assert_true(!strcmp(err.sqlstate, "XX001") || !strcmp(err.sqlstate, "42804"));
		}
	}
	free(copy);
	free(bytes);
}

static void
test_fastvalues__shapes(void **s)
{
	FastValues fv;

	(void)s;
	assert_true(fastvalues_parse("INSERT INTO t VALUES (1, 'a''b', NULL, -2.5, DEFAULT, true)", A, 10, &fv));
	assert_null(fv.schema);
	assert_string_equal(fv.table, "t");
	assert_int_equal(fv.nrows, 1);
	assert_int_equal(fv.width, 6);
	assert_int_equal(fv.lits[0].kind, FV_INT);
	assert_int_equal(fv.lits[1].kind, FV_STRING);
	assert_string_equal(fv.lits[1].p, "a'b");
	assert_int_equal(fv.lits[2].kind, FV_NULL);
	assert_int_equal(fv.lits[3].kind, FV_NUM);
	assert_string_equal(fv.lits[3].p, "-2.5");
	assert_int_equal(fv.lits[4].kind, FV_DEFAULT);
	assert_int_equal(fv.lits[5].kind, FV_TRUE);
	assert_true(fastvalues_parse(" insert into S.\"My T\" (a, \"B\") values (1,2),(3,4); -- done", A, 10, &fv));
	assert_string_equal(fv.schema, "s");
	assert_string_equal(fv.table, "My T");
	assert_int_equal(fv.ncols, 2);
	assert_string_equal(fv.cols[1], "B");
	assert_int_equal(fv.nrows, 2);
	assert_string_equal(fv.lits[3].p, "4");
	/* bind parameters */
	assert_true(fastvalues_parse("INSERT INTO t (a, b) VALUES ($2, $10), (NULL, $1)", A, 10, &fv));
	assert_int_equal(fv.lits[0].kind, FV_PARAM);
	assert_int_equal(fv.lits[0].len, 2);
	assert_int_equal(fv.lits[1].len, 10);
	assert_int_equal(fv.lits[3].kind, FV_PARAM);
	assert_int_equal(fv.lits[3].len, 1);
	assert_int_equal(fv.maxparam, 10);
	assert_true(fastvalues_parse("INSERT INTO t VALUES ($65535)", A, 10, &fv));
	assert_int_equal(fv.lits[0].len, 65535);
	/* left to the full parser */
	assert_false(fastvalues_parse("INSERT INTO t VALUES (1 + 1)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ('1'::int)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES (1e5)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES (1), (1, 2)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES (1) RETURNING *", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES (1); SELECT 1", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES (E'x')", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ('a' 'b')", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ('unterminated)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO select VALUES (1)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ($1::int)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ($1 + 1)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ($0)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ($65536)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ($1a)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES ($)", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t SELECT 1", A, 10, &fv));
	assert_false(fastvalues_parse("INSERT INTO t VALUES (1), (2), (3)", A, 2, &fv));
	assert_false(fastvalues_parse("WITH x AS (SELECT 1) INSERT INTO t VALUES (1)", A, 10, &fv));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rowcodec__round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rowcodec__corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fastvalues__shapes, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
