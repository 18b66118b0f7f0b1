/*
 * test_modify.c — the write machinery of exec/modify.h that sql/dml.c and
 * sql/merge.c share, on its own layer (this test links exec/ and the
 * layers below only): PRIMARY KEY's 23505 text (PostgreSQL 15's message
 * and DETAIL "Key (a, b)=(7, x) already exists."), a key held twice among
 * written rows, the data files whose bounds may hold a key (Iceberg
 * single-value serialization: 4-byte little-endian int, text bytes), and
 * the split of a batch by a bitmap over row ordinals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>
#include "exec/modify.h"
#include "table/iceberg.h"

static Arena *T_arena;
static floe_error T_err;
static ExecCtx T_ctx;
static IcebergField T_fields[2];
static IcebergSchema T_schema;
static const int T_pk[2] = { 0, 1 };

static int
t_setup(void **state)
{
	(void)state;
	T_arena = arena_new(1 << 16);
	floe_error_clear(&T_err);
	memset(&T_ctx, 0, sizeof T_ctx);
	T_ctx.arena = T_arena;
	T_ctx.err = &T_err;
	memset(T_fields, 0, sizeof T_fields);
	T_fields[0].id = 1;
	T_fields[0].name = "a";
	T_fields[0].required = true;
	T_fields[0].type = type_make(TYPE_INT32);
	T_fields[1].id = 2;
	T_fields[1].name = "b";
	T_fields[1].required = true;
	T_fields[1].type = type_make(TYPE_TEXT);
	memset(&T_schema, 0, sizeof T_schema);
	T_schema.nfields = 2;
	T_schema.fields = T_fields;
	return 0;
}

static int
t_teardown(void **state)
{
	(void)state;
	arena_free(T_arena);
	return 0;
}

/* A batch of (a int, b text) rows. */
static Batch *
key_batch(const int *a, const char *const *b, uint32_t n)
{
	SqlType types[2] = { T_fields[0].type, T_fields[1].type };
	Batch *bt = batch_new(T_arena, 2, types, n);
	uint32_t i;

	for (i = 0; i < n; i++) {
		Value v;
		memset(&v, 0, sizeof v);
		v.type = types[0];
		v.u.i = a[i];
		vector_set_value(&bt->cols[0], i, &v);
		v.type = types[1];
		v.u.s = strview_make(b[i], (uint32_t)strlen(b[i]));
		vector_set_value(&bt->cols[1], i, &v);
	}
	bt->count = n;
	return bt;
}

static KeyCheck
key_check(int npk)
{
	KeyCheck kc;

	kc.ctx = &T_ctx;
	kc.schema = &T_schema;
	kc.table = "t";
	kc.npk = npk;
	kc.pk = T_pk;
	return kc;
}

static void
test_modify__key_text_and_error(void **state)
{
	static const int a[] = { 3, 7 };
	static const char *const b[] = { "w", "x" };
	Batch *bt = key_batch(a, b, 2);
	const int swapped[2] = { 1, 0 };
	const char *k;

	(void)state;
	k = key_text(T_arena, &T_schema, T_pk, 2, bt, NULL, 1);
	assert_string_equal(k, "Key (a, b)=(7, x)");
	/* key column k read from batch column cols[k] */
	k = key_text(T_arena, &T_schema, swapped, 2, bt, swapped, 0);
	assert_string_equal(k, "Key (b, a)=(w, 3)");
	assert_int_equal(key_error(&T_err, "t", "Key (a)=(7)"), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "23505");
	assert_string_equal(T_err.message, "duplicate key value violates unique constraint \"t_pkey\"");
	assert_string_equal(T_err.detail, "Key (a)=(7) already exists.");
}

static void
test_modify__key_check_twice(void **state)
{
	static const int a[] = { 1, 2, 3, 2 };
	static const char *const b[] = { "p", "q", "r", "q" };
	static const char *const b2[] = { "p", "q", "r", "s" };
	SqlType types[2] = { T_fields[0].type, T_fields[1].type };
	RowStore *rs = rowstore_new(&T_ctx, 2, types, NULL);
	KeyCheck kc = key_check(2);
	Batch *one;

	(void)state;
	/* four distinct (a, b) keys: no error */
	rowstore_append(rs, key_batch(a, b2, 4));
	assert_int_equal(key_check_twice(&kc, rs), FLOE_OK);
	/* (2, q) twice; on a alone, 2 twice */
	rs = rowstore_new(&T_ctx, 2, types, NULL);
	rowstore_append(rs, key_batch(a, b, 4));
	assert_int_equal(key_check_twice(&kc, rs), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "23505");
	assert_string_equal(T_err.detail, "Key (a, b)=(2, q) already exists.");
	floe_error_clear(&T_err);
	rs = rowstore_new(&T_ctx, 1, types, NULL);
	one = key_batch(a, b2, 4);
	one->ncols = 1;          /* the store holds the key's columns only */
	rowstore_append(rs, one);
	kc = key_check(1);
	assert_int_equal(key_check_twice(&kc, rs), FLOE_ERR);
	assert_string_equal(T_err.detail, "Key (a)=(2) already exists.");
}

/* A data file whose column a has bounds [lo, hi] (int, 4 bytes LE) and
 * column b [blo, bhi]; nstats 0: no metrics. */
static void
file_bounds(DataFile *f, int32_t lo, int32_t hi, const char *blo, const char *bhi, int nstats)
{
	ColumnStat *st = ARENA_ARRAY(T_arena, ColumnStat, 2);
	int k;

	memset(f, 0, sizeof *f);
	f->file_path = "f.parquet";
	for (k = 0; k < 2; k++) {
		st[k].field_id = k + 1;
		st[k].lower = arena_alloc(T_arena, 8);
		st[k].upper = arena_alloc(T_arena, 8);
	}
	for (k = 0; k < 4; k++) {
		st[0].lower[k] = (uint8_t)((uint32_t)lo >> (8 * k));
		st[0].upper[k] = (uint8_t)((uint32_t)hi >> (8 * k));
	}
	st[0].lower_len = st[0].upper_len = 4;
	memcpy(st[1].lower, blo, strlen(blo));
	st[1].lower_len = (uint32_t)strlen(blo);
	memcpy(st[1].upper, bhi, strlen(bhi));
	st[1].upper_len = (uint32_t)strlen(bhi);
	f->columns = st;
	f->ncolumns = nstats;
}

static void
test_modify__key_check_files(void **state)
{
	static const int a[] = { 5, 7 };
	static const char *const b[] = { "m", "n" };
	SqlType types[2] = { T_fields[0].type, T_fields[1].type };
	RowStore *rs = rowstore_new(&T_ctx, 2, types, NULL);
	KeyCheck kc = key_check(2);
	DataFile files[5];
	int idx[5], n;

	(void)state;
	rowstore_append(rs, key_batch(a, b, 2));
	file_bounds(&files[0], 1, 10, "a", "z", 2);   /* holds both ranges */
	file_bounds(&files[1], 20, 30, "a", "z", 2);  /* a above the keys */
	file_bounds(&files[2], 1, 10, "a", "z", 0);   /* no metrics: kept */
	file_bounds(&files[3], 1, 10, "o", "z", 2);   /* b above the keys */
	file_bounds(&files[4], 7, 7, "n", "n", 2);    /* exactly the last key */
	n = key_check_files(&kc, rs, files, 5, idx);
	assert_int_equal(n, 3);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 2);
	assert_int_equal(idx[2], 4);
}

static void
test_modify__key_range(void **state)
{
	static const int a[] = { 9, -4, 12 };
	static const char *const b[] = { "k", "k", "k" };
	Batch *bt = key_batch(a, b, 3);
	KeyRange r;
	DataFile f;

	(void)state;
	assert_true(key_range_type(type_make(TYPE_INT64)));
	assert_true(key_range_type(type_make(TYPE_TEXT)));
	assert_false(key_range_type(type_make(TYPE_FLOAT64)));
	memset(&r, 0, sizeof r);
	r.field_id = 1;
	r.id = TYPE_INT32;
	file_bounds(&f, 0, 100, "a", "z", 2);
	assert_true(key_range_outside(&r, &f));     /* no value: no row can match */
	key_range_add(&r, &bt->cols[0], 3, NULL);
	assert_true(r.any);
	assert_int_equal(r.lo.u.i, -4);
	assert_int_equal(r.hi.u.i, 12);
	assert_false(key_range_outside(&r, &f));
	file_bounds(&f, 13, 100, "a", "z", 2);
	assert_true(key_range_outside(&r, &f));
	file_bounds(&f, -10, -5, "a", "z", 2);
	assert_true(key_range_outside(&r, &f));
	file_bounds(&f, -10, -4, "a", "z", 2);
	assert_false(key_range_outside(&r, &f));
}

static void
test_modify__cow_split_bits(void **state)
{
	uint64_t bits[2] = { 0, 0 };
	uint32_t hit[8], keep[8], nh, nk;

	(void)state;
	bits[0] = (uint64_t)1 << 63;     /* ordinal 63 */
	bits[1] = 1 | (uint64_t)1 << 2;  /* ordinals 64 and 66 */
	cow_split_bits(bits, 62, 6, hit, &nh, keep, &nk);   /* ordinals 62..67 */
	assert_int_equal(nh, 3);
	assert_int_equal(hit[0], 1);
	assert_int_equal(hit[1], 2);
	assert_int_equal(hit[2], 4);
	assert_int_equal(nk, 3);
	assert_int_equal(keep[0], 0);
	assert_int_equal(keep[1], 3);
	assert_int_equal(keep[2], 5);
	cow_split_bits(NULL, 0, 4, hit, &nh, keep, &nk);    /* NULL: every row */
	assert_int_equal(nh, 4);
	assert_int_equal(nk, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_modify__key_text_and_error, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_modify__key_check_twice, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_modify__key_check_files, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_modify__key_range, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_modify__cow_split_bits, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
