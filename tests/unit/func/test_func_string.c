/*
 * test_func_string.c — string functions on UTF-8 (characters, not bytes),
 * || and concat, LIKE/ILIKE with escapes.  Every expected value is
 * PostgreSQL 15's output for the query quoted above it (psql against a real
 * postgresql-15 server, UTF8 database).
 */
#include "func_testutil.h"

/* Call name on constant text/int arguments described by a format:
 * 's' = text, 'i' = int4, 'n' = NULL text; returns the text result (or
 * "<NULL>"), or the int result printed. */
static const char *
call(const char *name, const char *fmt, ...)
{
	Vector args[6], out;
	va_list ap;
	int n = 0;
	char buf[64];

	va_start(ap, fmt);
	for (; fmt[n]; n++) {
		if (fmt[n] == 's')
			args[n] = t_const_text(va_arg(ap, const char *));
		else if (fmt[n] == 'n')
			args[n] = t_const_null(type_make(TYPE_TEXT));
		else
			args[n] = t_const_int(TYPE_INT32, va_arg(ap, int));
	}
	va_end(ap);
	if (t_call(name, args, n, 1, &out) != FLOE_OK)
		return arena_sprintf(T_arena, "ERROR %s %s", T_err.sqlstate, T_err.message);
	if (t_null_at(&out, 0))
		return "<NULL>";
	switch (out.type.id) {
	case TYPE_TEXT:
		return t_text_at(&out, 0);
	case TYPE_BOOL:
		return ((uint8_t *)out.data)[0] ? "t" : "f";
	default:
		snprintf(buf, sizeof buf, "%lld", (long long)t_int_at(&out, 0));
		return arena_strdup(T_arena, buf);
	}
}

static void
test_func_string__basics(void **state)
{
	/* select length('héllo'), upper('héllo ßx'), lower('ÀÉÎ ΣΑ Привет'),
	 * substring('héllo', 2, 3), substr('héllo', 0, 3), substring('héllo', -1),
	 * position('llo' in 'héllo'), strpos('héllo', ''), replace('abcabc','bc','X') */
	assert_string_equal(call("length", "s", "héllo"), "5");
	assert_string_equal(call("octet_length", "s", "héllo"), "6");
	assert_string_equal(call("upper", "s", "héllo ßx"), "HÉLLO ßX");
	assert_string_equal(call("lower", "s", "ÀÉÎ ΣΑ Привет"), "àéî σα привет");
	assert_string_equal(call("substring", "sii", "héllo", 2, 3), "éll");
	assert_string_equal(call("substr", "sii", "héllo", 0, 3), "hé");
	assert_string_equal(call("substring", "si", "héllo", -1), "héllo");
	assert_string_equal(call("position", "ss", "héllo", "llo"), "3");
	assert_string_equal(call("strpos", "ss", "héllo", ""), "1");
	assert_string_equal(call("strpos", "ss", "héllo", "z"), "0");
	assert_string_equal(call("replace", "sss", "abcabc", "bc", "X"), "aXaX");
	/* long (non-inline) strings */
	assert_string_equal(call("replace", "sss", "the quick brown fox jumps", "o", "0"),
			    "the quick br0wn f0x jumps");
	assert_string_equal(call("upper", "s", "a long string beyond twelve bytes"),
			    "A LONG STRING BEYOND TWELVE BYTES");
	/* NULL in -> NULL out */
	assert_string_equal(call("length", "n"), "<NULL>");
	assert_string_equal(call("replace", "sns", "abc", "x"), "<NULL>");
}

static void
test_func_string__trim_split_pad(void **state)
{
	/* btrim('  xx  '), ltrim('xxhixx','x'), rtrim('héé','é'), split_part('a,b,,c',',',3),
	 * split_part('a,b,c',',',-1), split_part('a,b',',',5), left('héllo',2),
	 * left('héllo',-2), right('héllo',2), right('héllo',-2), lpad('hi',5,'ab'),
	 * rpad('héllo',3), lpad('hi',5,'') -> xx|hixx|h||c||hé|hél|lo|llo|abahi|hél|hi */
	assert_string_equal(call("btrim", "s", "  xx  "), "xx");
	assert_string_equal(call("ltrim", "ss", "xxhixx", "x"), "hixx");
	assert_string_equal(call("rtrim", "ss", "héé", "é"), "h");
	assert_string_equal(call("split_part", "ssi", "a,b,,c", ",", 3), "");
	assert_string_equal(call("split_part", "ssi", "a,b,c", ",", -1), "c");
	assert_string_equal(call("split_part", "ssi", "a,b", ",", 5), "");
	assert_string_equal(call("split_part", "ssi", "a,b", ",", 0),
			    "ERROR 22023 field position must not be zero");
	assert_string_equal(call("left", "si", "héllo", 2), "hé");
	assert_string_equal(call("left", "si", "héllo", -2), "hél");
	assert_string_equal(call("right", "si", "héllo", 2), "lo");
	assert_string_equal(call("right", "si", "héllo", -2), "llo");
	assert_string_equal(call("lpad", "sis", "hi", 5, "ab"), "abahi");
	assert_string_equal(call("rpad", "si", "héllo", 3), "hél");
	assert_string_equal(call("lpad", "sis", "hi", 5, ""), "hi");
	/* select substring('abc', 1, -1) -> 22011 negative substring length not allowed */
	assert_string_equal(call("substring", "sii", "abc", 1, -1),
			    "ERROR 22011 negative substring length not allowed");
}

static void
test_func_string__concat_misc(void **state)
{
	/* concat('a', NULL, 'b1') -> ab1 ; concat_ws(',', 'a', NULL, 'b') -> a,b ;
	 * starts_with('héllo','hé') -> t ; md5('abc') ; reverse('héllo') -> olléh ;
	 * repeat('ab', 3) -> ababab ; ascii('é') -> 233 ; chr(233) -> é */
	assert_string_equal(call("concat", "sns", "a", "b1"), "ab1");
	assert_string_equal(call("concat_ws", "ssns", ",", "a", "b"), "a,b");
	assert_string_equal(call("concat_ws", "nss", "a", "b"), "<NULL>");
	assert_string_equal(call("||", "ss", "héllo ", "wörld, a longer one"), "héllo wörld, a longer one");
	assert_string_equal(call("||", "sn", "x"), "<NULL>");
	assert_string_equal(call("starts_with", "ss", "héllo", "hé"), "t");
	assert_string_equal(call("md5", "s", "abc"), "900150983cd24fb0d6963f7d28e17f72");
	/* select md5('') ; md5 of 64 'a's (two padding blocks) */
	assert_string_equal(call("md5", "s", ""), "d41d8cd98f00b204e9800998ecf8427e");
	assert_string_equal(call("md5", "s",
				 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
			    "014842d480b571495a4a0363793f7367");
	assert_string_equal(call("reverse", "s", "héllo"), "olléh");
	assert_string_equal(call("repeat", "si", "ab", 3), "ababab");
	assert_string_equal(call("ascii", "s", "é"), "233");
	assert_string_equal(call("chr", "i", 233), "é");
	/* select initcap('hello wORLD foo-bar o''neil 3rd éclair'), translate('12345', '143', 'ax')
	 * -> Hello World Foo-Bar O'Neil 3rd Éclair | a2x5 */
	assert_string_equal(call("initcap", "s", "hello wORLD foo-bar o'neil 3rd éclair"),
			    "Hello World Foo-Bar O'Neil 3rd Éclair");
	assert_string_equal(call("translate", "sss", "12345", "143", "ax"), "a2x5");
	assert_string_equal(call("translate", "sss", "héllo", "é", "e"), "hello");
}

static void
test_func_string__like(void **state)
{
	/* select 'héllo' like 'h_llo', 'abc' like 'a%', 'abc' like '%b', 'a%c' like 'a\%c',
	 * 'abc' like 'a\%c', 'ABC' ilike 'a_c', 'ÉCOLE' ilike 'école', 'abc' not like 'a%',
	 * '' like '%', 'x' like '', 'a_b' like 'a\_b', 'ab' like 'a%%%b'
	 * -> t|t|f|t|f|t|t|f|t|f|t|t */
	assert_string_equal(call("~~", "ss", "héllo", "h_llo"), "t");
	assert_string_equal(call("~~", "ss", "abc", "a%"), "t");
	assert_string_equal(call("~~", "ss", "abc", "%b"), "f");
	assert_string_equal(call("~~", "ss", "a%c", "a\\%c"), "t");
	assert_string_equal(call("~~", "ss", "abc", "a\\%c"), "f");
	assert_string_equal(call("~~*", "ss", "ABC", "a_c"), "t");
	assert_string_equal(call("~~*", "ss", "ÉCOLE", "école"), "t");
	assert_string_equal(call("!~~", "ss", "abc", "a%"), "f");
	assert_string_equal(call("~~", "ss", "", "%"), "t");
	assert_string_equal(call("~~", "ss", "x", ""), "f");
	assert_string_equal(call("~~", "ss", "a_b", "a\\_b"), "t");
	assert_string_equal(call("~~", "ss", "ab", "a%%%b"), "t");
	assert_string_equal(call("!~~*", "ss", "ABC", "%b%"), "f");
	/* select 'abc' like 'ab\' -> 22025 LIKE pattern must not end with escape character */
	assert_string_equal(call("~~", "ss", "abc", "ab\\"),
			    "ERROR 22025 LIKE pattern must not end with escape character");
	/* 'a%c' like 'a#%c' escape '#', 'abc' like 'a#%c' escape '#', 'a\c' like 'a\c' escape ''
	 * -> t|f|t  (the parser calls like_escape(pattern, escape)) */
	assert_string_equal(call("like_escape", "ss", "a#%c", "#"), "a\\%c");
	assert_string_equal(call("~~", "ss", "a%c", call("like_escape", "ss", "a#%c", "#")), "t");
	assert_string_equal(call("~~", "ss", "abc", call("like_escape", "ss", "a#%c", "#")), "f");
	assert_string_equal(call("~~", "ss", "a\\c", call("like_escape", "ss", "a\\c", "")), "t");
	/* pathological pattern stays fast (ABORT rule) */
	assert_string_equal(call("~~", "ss", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				 "%a%a%a%a%a%a%a%a%a%a%a%a%b"), "f");
}

static void
test_func_string__like_vectors(void **state)
{
	/* flat text against a const pattern, with a NULL row */
	const char *vals[] = { "apple", NULL, "banana", "apricot pie, a long one" };
	Vector args[2], out;

	args[0] = t_texts(vals, 4);
	args[1] = t_const_text("ap%");
	assert_int_equal(t_call("~~", args, 2, 4, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 0), 1);
	assert_true(t_null_at(&out, 1));
	assert_int_equal(t_int_at(&out, 2), 0);
	assert_int_equal(t_int_at(&out, 3), 1);
	/* length over the same flat vector */
	assert_int_equal(t_call("length", args, 1, 4, &out), FLOE_OK);
	assert_int_equal(t_int_at(&out, 3), 23);
	assert_true(t_null_at(&out, 1));
}

static void
test_func_string__regex(void **state)
{
	/* select 'abc123' ~ '\d+', 'ABC' ~* 'b', 'abc' !~ 'z',
	 * regexp_replace('foo bar baz', 'ba(.)', 'X\1', 'g'),
	 * regexp_replace('foo bar baz', 'ba(.)', '<\&>'), substring('foobar' from 'o.b'),
	 * substring('foobar' from 'o(.)b'), substring('foobar' from 'z'),
	 * regexp_like('Abc', 'a', 'i'), regexp_replace('aaa', 'x*', '-', 'g')
	 * -> t|t|t|foo Xr Xz|foo <bar> baz|oob|o|<NULL>|t|-a-a-a- */
	assert_string_equal(call("~", "ss", "abc123", "\\d+"), "t");
	assert_string_equal(call("~", "ss", "abcdef", "\\d"), "f");
	assert_string_equal(call("~*", "ss", "ABC", "b"), "t");
	assert_string_equal(call("!~", "ss", "abc", "z"), "t");
	assert_string_equal(call("regexp_replace", "ssss", "foo bar baz", "ba(.)", "X\\1", "g"),
			    "foo Xr Xz");
	assert_string_equal(call("regexp_replace", "sss", "foo bar baz", "ba(.)", "<\\&>"),
			    "foo <bar> baz");
	assert_string_equal(call("substring", "ss", "foobar", "o.b"), "oob");
	assert_string_equal(call("substring", "ss", "foobar", "o(.)b"), "o");
	assert_string_equal(call("substring", "ss", "foobar", "z"), "<NULL>");
	assert_string_equal(call("regexp_like", "sss", "Abc", "a", "i"), "t");
	assert_string_equal(call("regexp_replace", "ssss", "aaa", "x*", "-", "g"), "-a-a-a-");
	/* select regexp_replace('a.b', '.', '-', 'gq') -> a-b ('q': literal pattern) */
	assert_string_equal(call("regexp_replace", "ssss", "a.b", ".", "-", "gq"), "a-b");
	/* select 'a' ~ '(' -> 2201B invalid regular expression: ... */
	assert_true(strncmp(call("~", "ss", "a", "("), "ERROR 2201B invalid regular expression: ",
			    40) == 0);
	/* select regexp_replace('aaa','a','b','z') -> 22023 invalid regular expression option: "z" */
	assert_string_equal(call("regexp_replace", "ssss", "aaa", "a", "b", "z"),
			    "ERROR 22023 invalid regular expression option: \"z\"");
	/* select similar_to_escape('a%b_c.d|e(f)'), similar_to_escape('a#%b', '#'),
	 * 'foo' similar to 'f%', 'foo' similar to 'f', 'a.c' similar to 'a.c',
	 * 'abc' similar to 'a.c', 'ab' similar to '(a|x)b', 'a%' similar to 'a\%',
	 * 'abc' similar to '[a-c]+'
	 * -> ^(?:a.*b.c\.d|e(?:f))$ | ^(?:a\%b)$ | t|f|t|f|t|t|t
	 * (the parser rewrites x SIMILAR TO p as x ~ similar_to_escape(p)) */
	assert_string_equal(call("similar_to_escape", "s", "a%b_c.d|e(f)"), "^(?:a.*b.c\\.d|e(?:f))$");
	assert_string_equal(call("similar_to_escape", "ss", "a#%b", "#"), "^(?:a\\%b)$");
	{
		static const struct { const char *s, *p, *want; } sim[] = {
			{ "foo", "f%", "t" }, { "foo", "f", "f" }, { "a.c", "a.c", "t" },
			{ "abc", "a.c", "f" }, { "ab", "(a|x)b", "t" }, { "a%", "a\\%", "t" },
			{ "abc", "[a-c]+", "t" },
		};
		size_t k;
		for (k = 0; k < sizeof sim / sizeof sim[0]; k++)
			assert_string_equal(call("~", "ss", sim[k].s,
						 call("similar_to_escape", "s", sim[k].p)), sim[k].want);
	}
	assert_string_equal(call("similar_to_escape", "ss", "a", "xy"), "ERROR 22025 invalid escape string");
	/* select regexp_like('a','a','g') */
	assert_string_equal(call("regexp_like", "sss", "a", "a", "g"),
			    "ERROR 22023 regexp_like() does not support the \"global\" option");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_func_string__basics, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_string__trim_split_pad, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_string__concat_misc, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_string__like, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_string__like_vectors, t_setup, t_teardown),
		cmocka_unit_test_setup_teardown(test_func_string__regex, t_setup, t_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
