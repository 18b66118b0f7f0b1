/*
 * test_func_agg.c — aggregates over several batches with per-row group
 * state arrays, combine of partial states, finalize; empty groups; overflow.
 * Expected values are PostgreSQL 15's (psql against a real postgresql-15
 * server; queries quoted per case).
 */
#include <math.h>
#include "func_testutil.h"
#include "types/datetime.h"

typedef struct Agg {
	const AggFunc *f;
	SqlType ret, cast_to;
	FuncCtx ctx;
	void *groups[4];
} Agg;

static void
agg_open(Agg *a, const char *name, SqlType argtype, bool star, int ngroups)
{
	int g;

	floe_error_clear(&T_err);
	if (func_resolve_agg(name, &argtype, star ? 0 : 1, star, &a->f, &a->ret, &a->cast_to,
			     &T_err) != FLOE_OK)
		fail_msg("%s: %s", name, T_err.message);
	a->ctx.arena = T_arena;
	a->ctx.err = &T_err;
	for (g = 0; g < ngroups; g++) {
		a->groups[g] = arena_alloc(T_arena, a->f->state_size);
		a->f->init(a->groups[g]);
	}
}

/* feed one batch: row i goes to group grp[i] */
static int
agg_feed(Agg *a, const Vector *arg, const int *grp, uint32_t n)
{
	void **states = arena_alloc(T_arena, sizeof(void *) * n);
	uint32_t i;

	for (i = 0; i < n; i++)
		states[i] = a->groups[grp[i]];
	return a->f->update(&a->ctx, arg, n, states);
}

static Vector
agg_result(Agg *a, int ngroups)
{
	Vector out;
	int g;

	vector_init(&out, a->ret, T_arena, (uint32_t)ngroups);
	for (g = 0; g < ngroups; g++)
		assert_int_equal(a->f->finalize(&a->ctx, a->groups[g], &out, (uint32_t)g), FLOE_OK);
	return out;
}

static void
test_func_agg__int_groups_batches(void **state)
{
	/* select g, sum(x), avg(x), min(x), max(x), count(x), count(*) from
	 *   (values (0,1),(0,2),(0,NULL),(1,5)) t(g,x) group by g  (+ empty group 2)
	 * -> 0 | 3 | 1.5000000000000000 | 1 | 2 | 2 | 3
	 *    1 | 5 | 5.0000000000000000 | 5 | 5 | 1 | 1 */
	int64_t b1[] = { 1, 2 }, b2[] = { 0, 5 };
	bool n2[] = { true, false };
	int g1[] = { 0, 0 }, g2[] = { 0, 1 };
	Vector v1, v2, out;
	Agg sum, avg, mn, mx, cnt, star;

	v1 = t_ints(TYPE_INT32, b1, NULL, 2);
	v2 = t_ints(TYPE_INT32, b2, n2, 2);
	agg_open(&sum, "sum", type_make(TYPE_INT32), false, 3);
	agg_open(&avg, "avg", type_make(TYPE_INT32), false, 3);
	agg_open(&mn, "min", type_make(TYPE_INT32), false, 3);
	agg_open(&mx, "max", type_make(TYPE_INT32), false, 3);
	agg_open(&cnt, "count", type_make(TYPE_INT32), false, 3);
	agg_open(&star, "count", type_make(TYPE_NULL), true, 3);
	{
		Agg *all[] = { &sum, &avg, &mn, &mx, &cnt };
		int k;
		for (k = 0; k < 5; k++) {
			assert_int_equal(agg_feed(all[k], &v1, g1, 2), FLOE_OK);
			assert_int_equal(agg_feed(all[k], &v2, g2, 2), FLOE_OK);
		}
		assert_int_equal(agg_feed(&star, NULL, g1, 2), FLOE_OK);
		assert_int_equal(agg_feed(&star, NULL, g2, 2), FLOE_OK);
	}
	out = agg_result(&sum, 3);
	assert_int_equal(out.type.id, TYPE_INT64);
	assert_int_equal(t_int_at(&out, 0), 3);
	assert_int_equal(t_int_at(&out, 1), 5);
	assert_true(t_null_at(&out, 2));
	out = agg_result(&avg, 3);
	assert_string_equal(t_dec_at(&out, 0), "1.5000000000000000");
	assert_string_equal(t_dec_at(&out, 1), "5.0000000000000000");
	assert_true(t_null_at(&out, 2));
	out = agg_result(&mn, 3);
	assert_int_equal(t_int_at(&out, 0), 1);
	assert_true(t_null_at(&out, 2));
	out = agg_result(&mx, 3);
	assert_int_equal(t_int_at(&out, 0), 2);
	assert_int_equal(t_int_at(&out, 1), 5);
	out = agg_result(&cnt, 3);
	assert_int_equal(t_int_at(&out, 0), 2);
	assert_int_equal(t_int_at(&out, 1), 1);
	assert_int_equal(t_int_at(&out, 2), 0);       /* empty group: count 0, not NULL */
	assert_false(t_null_at(&out, 2));
	out = agg_result(&star, 3);
	assert_int_equal(t_int_at(&out, 0), 3);
	assert_int_equal(t_int_at(&out, 1), 1);
}

static void
test_func_agg__combine_and_exact_avg(void **state)
{
	/* select avg(x) from (values (1::int8),(2),(2)) t(x) -> 1.6666666666666667,
	 * computed as two partial states combined */
	int64_t a[] = { 1, 2 }, b[] = { 2 };
	int g0[] = { 0, 0 };
	Agg p1, p2;
	Vector out;

	agg_open(&p1, "avg", type_make(TYPE_INT64), false, 1);
	agg_open(&p2, "avg", type_make(TYPE_INT64), false, 1);
	{
		Vector va = t_ints(TYPE_INT64, a, NULL, 2), vb = t_ints(TYPE_INT64, b, NULL, 1);
		assert_int_equal(agg_feed(&p1, &va, g0, 2), FLOE_OK);
		assert_int_equal(agg_feed(&p2, &vb, g0, 1), FLOE_OK);
	}
	assert_int_equal(p1.f->combine(&p1.ctx, p1.groups[0], p2.groups[0]), FLOE_OK);
	out = agg_result(&p1, 1);
	assert_string_equal(t_dec_at(&out, 0), "1.6666666666666667");

	/* select sum(x) from (values (9223372036854775807::int8),(9223372036854775807))
	 * -> 18446744073709551614 (numeric, no overflow) */
	{
		int64_t big[] = { INT64_MAX, INT64_MAX };
		Agg s;
		Vector v = t_ints(TYPE_INT64, big, NULL, 2);
		agg_open(&s, "sum", type_make(TYPE_INT64), false, 1);
		assert_int_equal(agg_feed(&s, &v, g0, 2), FLOE_OK);
		out = agg_result(&s, 1);
		assert_string_equal(t_dec_at(&out, 0), "18446744073709551614");
	}
	/* select sum(x) from (values (2147483647),(1)) -> 2147483648 (bigint) */
	{
		int64_t v2[] = { INT32_MAX, 1 };
		Agg s;
		Vector v = t_ints(TYPE_INT32, v2, NULL, 2);
		agg_open(&s, "sum", type_make(TYPE_INT32), false, 1);
		assert_int_equal(agg_feed(&s, &v, g0, 2), FLOE_OK);
		out = agg_result(&s, 1);
		assert_int_equal(t_int_at(&out, 0), 2147483648LL);
	}
}

static void
test_func_agg__numeric_float_bool_text(void **state)
{
	int g0[] = { 0, 0, 0, 0 };
	Vector out;

	/* select avg(x), sum(x) from (values (1.25),(2.50),(NULL)) t(x) -> 1.8750000000000000 | 3.75 */
	{
		int64_t d[] = { 125, 250, 0 };
		Vector v = t_decs(2, d, 3);
		Agg avg, sum;
		vector_set_null(&v, 2);
		agg_open(&avg, "avg", v.type, false, 1);
		agg_open(&sum, "sum", v.type, false, 1);
		assert_int_equal(agg_feed(&avg, &v, g0, 3), FLOE_OK);
		assert_int_equal(agg_feed(&sum, &v, g0, 3), FLOE_OK);
		out = agg_result(&avg, 1);
		assert_string_equal(t_dec_at(&out, 0), "1.8750000000000000");
		out = agg_result(&sum, 1);
		assert_string_equal(t_dec_at(&out, 0), "3.75");
	}
	/* select sum(x), avg(x), min(x), max(x) from (values (1.5::float8),('NaN'),(2))
	 * -> NaN | NaN | 1.5 | NaN */
	{
		double f[] = { 1.5, NAN, 2 };
		Vector v = t_floats(TYPE_FLOAT64, f, 3);
		Agg sum, mn, mx;
		agg_open(&sum, "sum", v.type, false, 1);
		agg_open(&mn, "min", v.type, false, 1);
		agg_open(&mx, "max", v.type, false, 1);
		assert_int_equal(agg_feed(&sum, &v, g0, 3), FLOE_OK);
		assert_int_equal(agg_feed(&mn, &v, g0, 3), FLOE_OK);
		assert_int_equal(agg_feed(&mx, &v, g0, 3), FLOE_OK);
		assert_true(isnan(((double *)agg_result(&sum, 1).data)[0]));
		assert_true(((double *)agg_result(&mn, 1).data)[0] == 1.5);
		assert_true(isnan(((double *)agg_result(&mx, 1).data)[0]));
	}
	/* select bool_and(x), bool_or(x), every(x) from (values (true),(false),(NULL)) -> f|t|f */
	{
		int64_t b[] = { 1, 0, 0 };
		bool nb[] = { false, false, true };
		Vector v = t_ints(TYPE_BOOL, b, nb, 3);
		Agg band, bor;
		v.type = type_make(TYPE_BOOL);
		agg_open(&band, "bool_and", v.type, false, 1);
		agg_open(&bor, "bool_or", v.type, false, 1);
		assert_int_equal(agg_feed(&band, &v, g0, 3), FLOE_OK);
		assert_int_equal(agg_feed(&bor, &v, g0, 3), FLOE_OK);
		assert_int_equal(((uint8_t *)agg_result(&band, 1).data)[0], 0);
		assert_int_equal(((uint8_t *)agg_result(&bor, 1).data)[0], 1);
	}
	/* select min(x), max(x) from (values ('b'),('a'),('B'),('ab')) -> B | b (C collation);
	 * long strings survive the batch's arena */
	{
		const char *s1[] = { "b", "a a long string of many bytes" };
		const char *s2[] = { "B", "ab" };
		Agg mn, mx;
		Arena *batch = arena_new(4096);
		Vector v;
		agg_open(&mn, "min", type_make(TYPE_TEXT), false, 1);
		agg_open(&mx, "max", type_make(TYPE_TEXT), false, 1);
		vector_init(&v, type_make(TYPE_TEXT), batch, 2);
		vector_set_string(&v, 0, s1[0], 1);
		vector_set_string(&v, 1, s1[1], (uint32_t)strlen(s1[1]));
		assert_int_equal(agg_feed(&mn, &v, g0, 2), FLOE_OK);
		assert_int_equal(agg_feed(&mx, &v, g0, 2), FLOE_OK);
		arena_free(batch);         /* the batch is gone; states must not point into it */
		v = t_texts(s2, 2);
		assert_int_equal(agg_feed(&mn, &v, g0, 2), FLOE_OK);
		assert_int_equal(agg_feed(&mx, &v, g0, 2), FLOE_OK);
		out = agg_result(&mn, 1);
		assert_string_equal(t_text_at(&out, 0), "B");
		out = agg_result(&mx, 1);
		assert_string_equal(t_text_at(&out, 0), "b");
		/* a long minimum copied out of a dead batch */
		{
			Agg m2;
			const char *s3[] = { "zzzzzzzzzzzzzzzzzzzz long" };
			batch = arena_new(4096);
			agg_open(&m2, "min", type_make(TYPE_TEXT), false, 1);
			vector_init(&v, type_make(TYPE_TEXT), batch, 1);
			vector_set_string(&v, 0, s3[0], (uint32_t)strlen(s3[0]));
			assert_int_equal(agg_feed(&m2, &v, g0, 1), FLOE_OK);
			arena_free(batch);
			out = agg_result(&m2, 1);
			assert_string_equal(t_text_at(&out, 0), s3[0]);
		}
	}
}

static void
test_func_agg__stats(void **state)
{
	/* select stddev(x), variance(x), stddev_pop(x), var_pop(x), var_samp(x), stddev_samp(x)
	 *   from (values (1),(2),(3),(4)) t(x)
	 * -> 1.2909944487358056|1.6666666666666667|1.1180339887498948|1.2500000000000000|
	 *    1.6666666666666667|1.2909944487358056
	 * fed as two partial states (1,2) and (3,4), combined */
	static const struct { const char *name, *want; } ints[] = {
		{ "stddev", "1.2909944487358056" }, { "variance", "1.6666666666666667" },
		{ "stddev_pop", "1.1180339887498948" }, { "var_pop", "1.2500000000000000" },
		{ "var_samp", "1.6666666666666667" }, { "stddev_samp", "1.2909944487358056" },
	};
	int64_t a[] = { 1, 2 }, b[] = { 3, 4 };
	int g0[] = { 0, 0, 0 };
	size_t k;
	Vector out;

	for (k = 0; k < sizeof ints / sizeof ints[0]; k++) {
		Agg p1, p2;
		Vector va = t_ints(TYPE_INT32, a, NULL, 2), vb = t_ints(TYPE_INT32, b, NULL, 2);
		agg_open(&p1, ints[k].name, type_make(TYPE_INT32), false, 1);
		agg_open(&p2, ints[k].name, type_make(TYPE_INT32), false, 1);
		assert_int_equal(agg_feed(&p1, &va, g0, 2), FLOE_OK);
		assert_int_equal(agg_feed(&p2, &vb, g0, 2), FLOE_OK);
		assert_int_equal(p1.f->combine(&p1.ctx, p1.groups[0], p2.groups[0]), FLOE_OK);
		out = agg_result(&p1, 1);
		assert_string_equal(t_dec_at(&out, 0), ints[k].want);
	}
	/* select stddev(x), variance(x), var_pop(x) from (values (1.5::float8),(2),(4)) t(x)
	 * -> 1.3228756555322954|1.75|1.1666666666666667 (Youngs-Cramer, as float8_accum) */
	{
		static const struct { const char *name; double want; } fl[] = {
			{ "stddev", 1.3228756555322954 }, { "variance", 1.75 },
			{ "var_pop", 1.1666666666666667 },
		};
		double f[] = { 1.5, 2, 4 };
		for (k = 0; k < sizeof fl / sizeof fl[0]; k++) {
			Agg s;
			Vector v = t_floats(TYPE_FLOAT64, f, 3);
			agg_open(&s, fl[k].name, v.type, false, 1);
			assert_int_equal(s.ret.id, TYPE_FLOAT64);
			assert_int_equal(agg_feed(&s, &v, g0, 3), FLOE_OK);
			out = agg_result(&s, 1);
			assert_true(((double *)out.data)[0] == fl[k].want);
		}
	}
	/* select stddev(x), variance(x) from (values (1)) t(x) -> NULL | NULL;
	 * select var_pop(x) from (values (5)) t(x) -> 0 */
	{
		int64_t one = 5;
		Agg s, p;
		Vector v = t_ints(TYPE_INT64, &one, NULL, 1);
		agg_open(&s, "stddev", v.type, false, 1);
		agg_open(&p, "var_pop", v.type, false, 1);
		assert_int_equal(agg_feed(&s, &v, g0, 1), FLOE_OK);
		assert_int_equal(agg_feed(&p, &v, g0, 1), FLOE_OK);
		out = agg_result(&s, 1);
		assert_true(t_null_at(&out, 0));
		out = agg_result(&p, 1);
		assert_false(t_null_at(&out, 0));
		assert_true(((int128 *)out.data)[0] == 0);
	}
	/* select variance(x), stddev(x) from (values (1.25),(2.5),(NULL)) t(x)
	 * -> 0.78125000000000000000 | 0.88388347648318440550 in PostgreSQL (20 digits
	 * below 1), as floe */
	{
		int64_t d[] = { 125, 250, 0 };
		Agg var, sd;
		Vector v = t_decs(2, d, 3);
		vector_set_null(&v, 2);
		agg_open(&var, "variance", v.type, false, 1);
		agg_open(&sd, "stddev", v.type, false, 1);
		assert_int_equal(agg_feed(&var, &v, g0, 3), FLOE_OK);
		assert_int_equal(agg_feed(&sd, &v, g0, 3), FLOE_OK);
		out = agg_result(&var, 1);
		assert_string_equal(t_dec_at(&out, 0), "0.78125000000000000000");
		out = agg_result(&sd, 1);
		assert_string_equal(t_dec_at(&out, 0), "0.88388347648318440550");
	}
}

static void
test_func_agg__string_agg(void **state)
{
	/* select string_agg(x, ','), string_agg(x, NULL) from (values ('a'),(NULL),('b')) t(x)
	 *   -> a,b | ab
	 * select string_agg(x, d) from (values ('a','-'),('b','+'),('c','*')) t(x,d) -> a+b*c
	 * (the last one fed as two partial states and combined) */
	const char *v1[] = { "a", NULL, "b" }, *x[] = { "a", "b", "c" }, *d[] = { "-", "+", "*" };
	int g0[] = { 0, 0, 0 };
	SqlType in[2] = { type_make(TYPE_TEXT), type_make(TYPE_NULL) }, ct[2], ret;
	const AggFunc *f;
	FuncCtx ctx = { T_arena, &T_err, NULL };
	void *st, *st2, *states[3];
	Vector out, vals, dl;
	int i;

	assert_int_equal(func_resolve_agg("string_agg", in, 2, false, &f, &ret, ct, &T_err), FLOE_OK);
	assert_int_equal(ret.id, TYPE_TEXT);
	assert_int_equal(ct[1].id, TYPE_TEXT);
	assert_non_null(f->update2);
	st = arena_alloc(T_arena, f->state_size);
	f->init(st);
	for (i = 0; i < 3; i++)
		states[i] = st;
	vals = t_texts(v1, 3);
	dl = t_const_text(",");
	assert_int_equal(f->update2(&ctx, &vals, &dl, 3, states), FLOE_OK);
	vector_init(&out, ret, T_arena, 2);
	assert_int_equal(f->finalize(&ctx, st, &out, 0), FLOE_OK);
	assert_string_equal(t_text_at(&out, 0), "a,b");
	f->init(st);
	dl = t_const_null(type_make(TYPE_TEXT));
	assert_int_equal(f->update2(&ctx, &vals, &dl, 3, states), FLOE_OK);
	assert_int_equal(f->finalize(&ctx, st, &out, 1), FLOE_OK);
	assert_string_equal(t_text_at(&out, 1), "ab");
	/* per-row delimiters, two partial states */
	st2 = arena_alloc(T_arena, f->state_size);
	f->init(st);
	f->init(st2);
	vals = t_texts(x, 3);
	dl = t_texts(d, 3);
	states[0] = st;
	states[1] = st2;
	states[2] = st2;
	assert_int_equal(f->update2(&ctx, &vals, &dl, 3, states), FLOE_OK);
	assert_int_equal(f->combine(&ctx, st, st2), FLOE_OK);
	assert_int_equal(f->finalize(&ctx, st, &out, 0), FLOE_OK);
	assert_string_equal(t_text_at(&out, 0), "a+b*c");
	/* all NULL -> NULL */
	f->init(st2);
	{
		const char *nn[] = { NULL };
		vals = t_texts(nn, 1);
		assert_int_equal(f->update2(&ctx, &vals, &dl, 1, states), FLOE_OK);
		assert_int_equal(f->finalize(&ctx, st2, &out, 1), FLOE_OK);
		assert_true(t_null_at(&out, 1));
	}
	(void)g0;
}

static void
test_func_agg__bit(void **state)
{
	/* select bit_and(x), bit_or(x) from (values (12),(10),(NULL)) t(x) -> 8 | 14 */
	int64_t v[] = { 12, 10, 0 };
	bool nl[] = { false, false, true };
	int g0[] = { 0, 0, 0 };
	Agg a, o;
	Vector x = t_ints(TYPE_INT32, v, nl, 3), out;

	agg_open(&a, "bit_and", x.type, false, 1);
	agg_open(&o, "bit_or", x.type, false, 1);
	assert_int_equal(agg_feed(&a, &x, g0, 3), FLOE_OK);
	assert_int_equal(agg_feed(&o, &x, g0, 3), FLOE_OK);
	out = agg_result(&a, 1);
	assert_int_equal(out.type.id, TYPE_INT32);
	assert_int_equal(t_int_at(&out, 0), 8);
	out = agg_result(&o, 1);
	assert_int_equal(t_int_at(&out, 0), 14);
}

static void
test_func_agg__avg_interval(void **state)
{
	/* select avg(x) from (values (interval '1 mon'), (interval '2 days 3 hours'),
	 *   (interval '1 hour')) t(x) -> 10 days 17:20:00 */
	static const char *const ivs[] = { "1 mon", "2 days 3 hours", "1 hour" };
	int g0[] = { 0, 0, 0 };
	Agg a;
	Vector v, out;
	int k;
	char buf[64];

	vector_init(&v, type_make(TYPE_INTERVAL), T_arena, 3);
	for (k = 0; k < 3; k++)
		assert_int_equal(datetime_parse_interval(ivs[k], strlen(ivs[k]),
							 &((Interval *)v.data)[k], &T_err), FLOE_OK);
	agg_open(&a, "avg", v.type, false, 1);
	assert_int_equal(a.ret.id, TYPE_INTERVAL);
	assert_int_equal(agg_feed(&a, &v, g0, 3), FLOE_OK);
	out = agg_result(&a, 1);
	datetime_format_interval(((Interval *)out.data)[0], buf);
	assert_string_equal(buf, "10 days 17:20:00");
}

static void
test_func_agg__overflow(void **state)
{
	/* sum(int8) beyond 38 digits: 22003 */
	int128 p = 1;
	int k, g0[] = { 0, 0 };
	Agg s;
	Vector v;

	for (k = 0; k < 37; k++)
		p *= 10;
	vector_init(&v, type_decimal(0, 0), T_arena, 2);
	((int128 *)v.data)[0] = p * 9;
	((int128 *)v.data)[1] = p * 9;
	agg_open(&s, "sum", v.type, false, 1);
	assert_int_equal(agg_feed(&s, &v, g0, 2), FLOE_ERR);
	assert_string_equal(T_err.sqlstate, "22003");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_func_agg__int_groups_batches, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_agg__combine_and_exact_avg, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_agg__numeric_float_bool_text, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_agg__overflow, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_agg__stats, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_agg__string_agg, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_agg__bit, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_agg__avg_interval, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
