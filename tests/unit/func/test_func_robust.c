/*
 * test_func_robust.c — string and LIKE kernels on hostile input: random
 * bytes (invalid UTF-8, truncated sequences, stray continuation bytes),
 * random NULLs, odd integer arguments.  The property: every call returns
 * FLOE_OK or a clean SQLSTATE, never reads out of bounds (ASan), never
 * hangs, and results of character-counting functions stay within bounds.
 */
#include "func_testutil.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static const char alphabet[] = "aAbé%_\\\xc3\xa9\x80\xff\xe2\x82\xac\xf0 ,x$-1sIL";

static Vector
rand_texts(uint32_t n)
{
	Vector v;
	uint32_t i, k;
	char buf[40];

	vector_init(&v, type_make(TYPE_TEXT), T_arena, n);
	for (i = 0; i < n; i++) {
		uint32_t len = rnd(30);
		if (rnd(8) == 0) {
			vector_set_null(&v, i);
			continue;
		}
		for (k = 0; k < len; k++)
			buf[k] = alphabet[rnd(sizeof alphabet - 1)];
		vector_set_string(&v, i, buf, len);
	}
	return v;
}

static Vector
rand_ints(uint32_t n)
{
	Vector v;
	uint32_t i;

	vector_init(&v, type_make(TYPE_INT32), T_arena, n);
	for (i = 0; i < n; i++) {
		int32_t x = (int32_t)rnd(60) - 20;
		if (rnd(10) == 0)
			x = rnd(2) ? INT32_MAX : INT32_MIN;
		if (rnd(12) == 0)
			vector_set_null(&v, i);
		((int32_t *)v.data)[i] = x;
	}
	return v;
}

static void
test_func_robust__string_functions(void **state)
{
	static const struct {
		const char *name, *fmt;
	} calls[] = {
		{ "length", "s" }, { "lower", "s" }, { "upper", "s" }, { "reverse", "s" },
		{ "ascii", "s" }, { "md5", "s" }, { "btrim", "s" }, { "btrim", "ss" },
		{ "ltrim", "ss" }, { "rtrim", "ss" }, { "substring", "si" },
		{ "substring", "sii" }, { "left", "si" }, { "right", "si" },
		{ "position", "ss" }, { "replace", "sss" }, { "split_part", "ssi" },
		{ "lpad", "si" }, { "lpad", "sis" }, { "rpad", "sis" }, { "repeat", "si" },
		{ "starts_with", "ss" }, { "||", "ss" }, { "concat", "sss" },
		{ "concat_ws", "sss" }, { "~~", "ss" }, { "!~~", "ss" }, { "~~*", "ss" },
		{ "!~~*", "ss" }, { "like_escape", "ss" }, { "=", "ss" }, { "<", "ss" },
		{ "~", "ss" }, { "~*", "ss" }, { "regexp_replace", "sss" },
		{ "regexp_replace", "ssss" }, { "substring", "ss" }, { "regexp_like", "sss" },
		{ "encode", "bf" }, { "decode", "sf" }, { "overlay", "ssi" }, { "overlay", "ssii" },
		{ "quote_ident", "s" }, { "quote_literal", "s" }, { "quote_nullable", "s" },
		{ "initcap", "s" }, { "translate", "sss" }, { "similar_to_escape", "s" },
		{ "format", "s" }, { "format", "ss" }, { "format", "sss" }, { "regexp_count", "ss" },
		{ "regexp_count", "ssi" },
	};
	const uint32_t n = 64;
	int round, c, j;

	for (round = 0; round < 6; round++) {
		for (c = 0; c < (int)(sizeof calls / sizeof calls[0]); c++) {
			Vector args[4], out;
			int nargs = (int)strlen(calls[c].fmt), rc;
			uint32_t i;
			for (j = 0; j < nargs; j++) {
				char fc = calls[c].fmt[j];
				if (fc == 's') {
					args[j] = rand_texts(n);
				} else if (fc == 'b') {
					args[j] = rand_texts(n);
					args[j].type = type_make(TYPE_BYTEA);
				} else if (fc == 'f') {
					static const char *fmts[] = { "hex", "base64", "escape", "HEX", "x" };
					args[j] = t_const_text(fmts[rnd(5)]);
				} else {
					args[j] = rand_ints(n);
				}
			}
			rc = t_call(calls[c].name, args, nargs, n, &out);
			if (rc != FLOE_OK) {
				assert_int_equal(rc, FLOE_ERR);
				assert_int_equal(strlen(T_err.sqlstate), 5);
				continue;
			}
			/* text results must be readable end to end */
			if (out.type.id == TYPE_TEXT)
				for (i = 0; i < n; i++)
					if (!t_null_at(&out, i)) {
						const strview *s = &((strview *)out.data)[i];
						volatile char sink = 0;
						uint32_t b;
						for (b = 0; b < s->len; b++)
							sink ^= strview_data(s)[b];
						(void)sink;
					}
		}
	}
}

static void
test_func_robust__like_direct(void **state)
{
	int k;

	for (k = 0; k < 3000; k++) {
		char s[24], p[24];
		uint32_t sl = rnd(24), pl = rnd(24), i;
		bool m;
		int rc;
		for (i = 0; i < sl; i++)
			s[i] = alphabet[rnd(sizeof alphabet - 1)];
		for (i = 0; i < pl; i++)
			p[i] = alphabet[rnd(sizeof alphabet - 1)];
		rc = func_like_match(s, sl, p, pl, rnd(3) ? '\\' : -1, rnd(2), &m, &T_err);
		if (rc != FLOE_OK)
			assert_string_equal(T_err.sqlstate, "22025");
	}
	/* long ILIKE inputs take the heap path */
	{
		char *big = arena_alloc(T_arena, 5000);
		bool m;
		memset(big, 'A', 5000);
		assert_int_equal(func_like_match(big, 5000, "%a", 2, '\\', true, &m, &T_err), FLOE_OK);
		assert_true(m);
	}
}

/* constant-pattern fast paths agree with the general matcher (on valid
 * UTF-8: the only text a database holds) */
static Vector
rand_utf8(uint32_t n)
{
	static const char *const pieces[] = { "a", "b", "é", "%", "_", "日", " " };
	Vector v;
	uint32_t i, k;
	char buf[64];

	vector_init(&v, type_make(TYPE_TEXT), T_arena, n);
	for (i = 0; i < n; i++) {
		uint32_t len = 0, parts = rnd(8);
		if (rnd(8) == 0) {
			vector_set_null(&v, i);
			continue;
		}
		for (k = 0; k < parts; k++) {
			const char *p = pieces[rnd(7)];
			memcpy(buf + len, p, strlen(p));
			len += (uint32_t)strlen(p);
		}
		vector_set_string(&v, i, buf, len);
	}
	return v;
}

static void
test_func_robust__like_shapes(void **state)
{
	static const char *pats[] = { "", "%", "%%", "a", "ab%", "%ab", "%ab%", "%%b%%", "é%",
				      "%\xc3\xa9", "a%b", "_b%", "%a_", "a\\%" };
	size_t k;

	for (k = 0; k < sizeof pats / sizeof pats[0]; k++) {
		Vector args[2], out;
		uint32_t i, n = 64;
		int neg;
		args[0] = rand_utf8(n);
		args[1] = t_const_text(pats[k]);
		for (neg = 0; neg < 2; neg++) {
			assert_int_equal(t_call(neg ? "!~~" : "~~", args, 2, n, &out), FLOE_OK);
			for (i = 0; i < n; i++) {
				const strview *sv = &((strview *)args[0].data)[i];
				bool m;
				if (!vector_is_valid(&args[0], i)) {
					assert_true(t_null_at(&out, i));
					continue;
				}
				assert_int_equal(func_like_match(strview_data(sv), sv->len, pats[k],
								 strlen(pats[k]), '\\', false, &m,
								 &T_err), FLOE_OK);
				if (((uint8_t *)out.data)[i] != (m != (neg != 0)))
					fail_msg("pattern %s on %.*s", pats[k], (int)sv->len, strview_data(sv));
			}
		}
	}
}

/* to_char with random templates never overruns its buffer */
static void
test_func_robust__to_char(void **state)
{
	static const char tpl_chars[] = "YMDHISUQWJCTZFAPBymdhisuqwjctzfapb\"\\ -:1";
	int k;

	for (k = 0; k < 300; k++) {
		char tpl[48];
		uint32_t len = rnd(47), i;
		Vector args[2], out;
		Value ts = value_int(TYPE_TIMESTAMP, (int64_t)rnd(2000000000) * 1000000 -
						     (int64_t)rnd(2000000) * 86400000000LL);
		for (i = 0; i < len; i++)
			tpl[i] = tpl_chars[rnd(sizeof tpl_chars - 1)];
		tpl[len] = 0;
		vector_init_const(&args[0], &ts, T_arena);
		args[1] = t_const_text(tpl);
		assert_int_equal(t_call("to_char", args, 2, 1, &out), FLOE_OK);
		if (!t_null_at(&out, 0))
			assert_true(((strview *)out.data)[0].len <= len * 40);
	}
}

/* to_char(number, template) with random templates and values */
static void
test_func_robust__to_char_num(void **state)
{
	static const char tpl_chars[] = "90.,DGSMIPLTHFMthfm\"x 9999000";
	int k;

	for (k = 0; k < 500; k++) {
		char tpl[40];
		uint32_t len = rnd(39), i;
		Vector args[2], out;
		int128 big = (int128)rnd(2000000000) * rnd(2000000000) * rnd(2000000000) - (int128)rnd(1000);
		Value v;
		memset(&v, 0, sizeof v);
		for (i = 0; i < len; i++)
			tpl[i] = tpl_chars[rnd(sizeof tpl_chars - 1)];
		tpl[len] = 0;
		switch (rnd(3)) {
		case 0:
			v = value_int(TYPE_INT64, (int64_t)rnd(4000000000u) - 2000000000);
			break;
		case 1:
			v.type = type_decimal(0, (int)rnd(10));
			v.u.d = rnd(2) ? big : -big;
			break;
		default:
			v.type = type_make(TYPE_FLOAT64);
			v.u.f = ((double)rnd(2000000) - 1e6) * (rnd(2) ? 1e-3 : 1e30);
			break;
		}
		vector_init_const(&args[0], &v, T_arena);
		args[1] = t_const_text(tpl);
		assert_int_equal(t_call("to_char", args, 2, 1, &out), FLOE_OK);
		assert_true(((strview *)out.data)[0].len <= len * 2 + 4);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_func_robust__string_functions, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_robust__like_direct, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_robust__like_shapes, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_robust__to_char, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_robust__to_char_num, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
