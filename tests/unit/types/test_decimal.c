/*
 * test_decimal.c — 128-bit decimal arithmetic against PostgreSQL 15.
 *
 * Expected strings were produced by PostgreSQL 15.18 (psql -Atc "select ...")
 * running the same operations on numeric.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "types/decimal.h"

static floe_error err;

static void
parse(const char *s, int128 *v, int *sc)
{
	int rc = decimal_from_text(s, strlen(s), v, sc, &err);
	if (rc != FLOE_OK)
		fail_msg("parse %s: %s", s, err.message);
}

static const char *
fmt(int128 v, int s)
{
	static char buf[8][DECIMAL_FORMAT_BUF];
	static int k;
	char *b = buf[k++ & 7];
	decimal_format(v, s, b);
	return b;
}

typedef int (*binop)(int128, int, int128, int, int128 *, int *, floe_error *);

static const char *
op(binop f, const char *a, const char *b)
{
	int128 x, y, r;
	int sx, sy, sr;
	parse(a, &x, &sx);
	parse(b, &y, &sy);
	if (f(x, sx, y, sy, &r, &sr, &err) != FLOE_OK)
		return err.sqlstate;
	return fmt(r, sr);
}

/* select a+b, a-b, a*b, a/b, a%b from random numeric pairs (PostgreSQL 15.18) */
static const struct { const char *a, *b, *r[5]; } pg_ops[] = {
	{ "1.66", "0.18500", { "1.84500", "1.47500", "0.3071000", "8.9729729729729730", "0.18000" } },
	{ "-135644673742.94069", "-921416.68", { "-135645595159.62069", "-135643752326.26069", "124985264939903584.0167092", "147213.173678319661", "-160030.10069" } },
	{ "-0.725818590182861", "700898.63", { "700897.904181409817139", "-700899.355818590182861", "-508725.25548769872438043", "-0.000001035554300031747815", "-0.725818590182861" } },
	{ "973650879600858520.923", "-658266.4", { "973650879600200254.523", "973650879601516787.323", "-640921659371690575477307.8872", "-1479113744224.0080", "5247.323" } },
	{ "6.68065", "0.65", { "7.33065", "6.03065", "4.3424225", "10.2779230769230769", "0.18065" } },
	{ "156623248690755756.40449", "-0.89151", { "156623248690755755.51298", "156623248690755757.29600", "-139631192440295664.3921668799", "-175683109208820715.86913", "0.77484" } },
	{ "0.204", "176612523856.47", { "176612523856.674", "-176612523856.266", "36028954866.71988", "0.0000000000011550709742746632", "0.204" } },
	{ "-443268272617937953.05243699", "0.66", { "-443268272617937952.39243699", "-443268272617937953.71243699", "-292557059927839049.0146084134", "-671618594875663565.23096514", "-0.15243699" } },
	{ "451071741613.7", "-476749.3", { "451071264864.4", "451072218363.0", "-215048137064112345.41", "-946140.333323404985", "158911.7" } },
	{ "-5.88", "303677128319", { "303677128313.12", "-303677128324.88", "-1785621514515.72", "-0.0000000000193626699269340702", "-5.88" } },
	{ "-834740135887.4732387019", "0.07209531", { "-834740135887.4011433919", "-834740135887.5453340119", "-60180848866.249508260917478089", "-11578286242024.2487160663", "-0.0179312619" } },
	{ "716868.6", "0.547", { "716869.147", "716868.053", "392127.1242", "1310545.886654478976", "0.485" } },
	{ "8.10140353", "449080233416391029.7", { "449080233416391037.80140353", "-449080233416391021.59859647", "3638180188252774247.871914841", "0.000000000000000018039991358266506962", "8.10140353" } },
	{ "-6", "0.26", { "-5.74", "-6.26", "-1.56", "-23.0769230769230769", "-0.02" } },
	{ "0.05", "-376720.857", { "-376720.807", "376720.907", "-18836.04285", "-0.000000132724268038071489", "0.050" } },
	{ "0.9", "-369563576043.29656", { "-369563576042.39656", "369563576044.19656", "-332607218438.966904", "-0.0000000000024353049335537322", "0.90000" } },
	{ "517326186697843267.05125", "0.89", { "517326186697843267.94125", "517326186697843266.16125", "460420306161080507.6756125", "581265378312183446.12500", "0.11125" } },
	{ "-191596295762247434.680", "147893360423.67884", { "-191596147868887011.00116", "-191596443655607858.35884", "-28335820025007830603051633718.19817120", "-1295503.024702192282", "-3653290226.42348" } },
	{ "-792193.5", "0.71", { "-792192.79", "-792194.21", "-562457.385", "-1115765.492957746479", "-0.35" } },
	{ "895334344076", "0.19875793", { "895334344076.19875793", "895334344075.80124207", "177954800886.45352268", "4504647155844.29763381", "0.05915708" } },
	{ "4.099748417343860", "-0.98142838", { "3.118320037343860", "5.081176797343860", "-4.02360944764134842274680", "-4.1773281687084085", "0.174034897343860" } },
	{ "0.7356013719", "779334560502398731.363", { "779334560502398732.0986013719", "-779334560502398730.6273986281", "573279571874648060.0314423568997", "0.000000000000000000943883935322711607", "0.7356013719" } },
	{ "0.42522929", "598919815277.2", { "598919815277.62522929", "-598919815276.77477071", "254678247817.254909188", "0.00000000000070999369056305099703", "0.42522929" } },
	{ "0.40", "-0.77", { "-0.37", "1.17", "-0.3080", "-0.51948051948051948052", "0.40" } },
	{ "843780861318.53957", "212929.70014", { "843781074248.23971", "843780648388.83943", "179666005784427555.6628245398", "3962720.375615795812", "79979.75877" } },
	{ "725591.357661668339816", "0.538", { "725591.895661668339816", "725590.819661668339816", "390368.150421977566821008", "1348682.820932469033115", "0.441661668339816" } },
	{ "0.327", "769791.8", { "769792.127", "-769791.473", "251721.9186", "0.000000424790183527546020", "0.327" } },
	{ "0.05273", "0.00942466", { "0.06215466", "0.04330534", "0.0004969623218", "5.5948967920328160", "0.00560670" } },
	{ "0.88", "-0.42", { "0.46", "1.30", "-0.3696", "-2.0952380952380952", "0.04" } },
	{ "943382555873696472.5", "0.53908", { "943382555873696473.03908", "943382555873696471.96092", "508558668220392294.395300", "1749986191054567916.63575", "0.34272" } },
	{ "-0.24666", "0.41611198", { "0.16945198", "-0.66277198", "-0.1026381809868", "-0.59277312804115853622", "-0.24666000" } },
	{ "0.0", "-554826.705", { "-554826.705", "554826.705", "0.0000", "0.000000000000000000000000", "0.000" } },
	{ "-832434086897361842.13322", "-431410.84124875", { "-832434086897793252.97446875", "-832434086896930431.29197125", "359121089712525932111720.4324686584750", "1929562281021.54536429", "-235276.06824625" } },
	{ "0", "-1.60883997", { "-1.60883997", "1.60883997", "0.00000000", "0.00000000000000000000", "0.00000000" } },
	{ "-0.73785720", "3.8", { "3.06214280", "-4.53785720", "-2.803857360", "-0.19417294736842105263", "-0.73785720" } },
	{ "4.0481339348", "7.25", { "11.2981339348", "-3.2018660652", "29.348971027300", "0.55836330135172413793", "4.0481339348" } },
	{ "663349135912889235.8", "-1.193", { "663349135912889234.607", "663349135912889236.993", "-791375519144076858.3094", "-556034481066964992.288", "0.344" } },
	{ "-755453.58", "6.3", { "-755447.28", "-755459.88", "-4759357.554", "-119913.266666666667", "-1.68" } },
	{ "0.75", "0.56", { "1.31", "0.19", "0.4200", "1.3392857142857143", "0.19" } },
	{ "1960.56680", "-0.015639001264277", { "1960.551160998735723", "1960.582439001264277", "-30.66130666389951220360", "-125363.938967021889801", "0.014684506442449" } },
	{ "-0.570576944462749", "625135.93845225", { "625135.367875305537251", "-625136.509029194462749", "-356688.15363593792530684023525", "-0.000000912724592150978374", "-0.570576944462749" } },
	{ "0.285092172775830", "527817.83", { "527818.115092172775830", "-527817.544907827224170", "150476.73198452366704890", "0.000000540133653264100608", "0.285092172775830" } },
	{ "88035411653.8", "38989.1", { "88035450642.9", "88035372664.7", "3432421468511173.58", "2257949.315418924776", "12297.9" } },
	{ "6.313", "378419035268629093.3", { "378419035268629099.613", "-378419035268629086.987", "2388959369650855466.0029", "0.000000000000000016682564595405666628", "6.313" } },
	{ "-0.10", "2.03274", { "1.93274", "-2.13274", "-0.2032740", "-0.04919468303865718193", "-0.10000" } },
	{ "5.92366", "0.3305113274", { "6.2541713274", "5.5931486726", "1.957836729666284", "17.9227140158827730", "0.3049674342" } },
	{ "-0", "7.25", { "7.25", "-7.25", "0.00", "0.00000000000000000000", "0.00" } },
	{ "-895265957641518698.4", "715439.882", { "-895265957640803258.518", "-895265957642234138.282", "-640508971093665135884089.5888", "-1251350365230.9932", "-710595.540" } },
	{ "4.578", "959479862468.882212132194209", { "959479862473.460212132194209", "-959479862464.304212132194209", "4392498810382.542767141185088802", "0.0000000000047713351567589293", "4.578000000000000" } },
	{ "-0.981129450356454", "-0.9", { "-1.881129450356454", "-0.081129450356454", "0.8830165053208086", "1.0901438337293933", "-0.081129450356454" } },
};

static void
test_decimal__pg_samples(void **state)
{
	binop f[5] = { decimal_add, decimal_sub, decimal_mul, decimal_div, decimal_mod };
	for (size_t i = 0; i < sizeof pg_ops / sizeof pg_ops[0]; i++)
		for (int k = 0; k < 5; k++) {
			const char *got = op(f[k], pg_ops[i].a, pg_ops[i].b);
			if (strcmp(got, pg_ops[i].r[k]) != 0)
				fail_msg("%s op%d %s: got %s, PostgreSQL says %s", pg_ops[i].a, k,
					 pg_ops[i].b, got, pg_ops[i].r[k]);
		}
}

static void
test_decimal__parse_format(void **state)
{
	/* select ' 12.3400 '::numeric, '1e5'::numeric, '.5'::numeric, '1.5e-3'::numeric,
	 *        '0.0'::numeric, '-0.00'::numeric  -> 12.3400|100000|0.5|0.0015|0.0|0.00 */
	const char *in[] = { " 12.3400 ", "1e5", ".5", "1.5e-3", "0.0", "-0.00", "-123", "+7.",
			     "99999999999999999999999999999999999999" };
	const char *out[] = { "12.3400", "100000", "0.5", "0.0015", "0.0", "0.00", "-123", "7",
			      "99999999999999999999999999999999999999" };
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		int128 v;
		int s;
		parse(in[i], &v, &s);
		assert_string_equal(fmt(v, s), out[i]);
	}
	int128 v;
	int s;
	/* ERROR:  invalid input syntax for type numeric: "abc" */
	assert_int_equal(decimal_from_text("abc", 3, &v, &s, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22P02");
	assert_string_equal(err.message, "invalid input syntax for type numeric: \"abc\"");
	assert_int_equal(decimal_from_text("1.2.3", 5, &v, &s, &err), FLOE_ERR);
	assert_string_equal(err.message, "invalid input syntax for type numeric: \"1.2.3\"");
	assert_int_equal(decimal_from_text("", 0, &v, &s, &err), FLOE_ERR);
	assert_int_equal(decimal_from_text("1e", 2, &v, &s, &err), FLOE_ERR);
	assert_int_equal(decimal_from_text("-", 1, &v, &s, &err), FLOE_ERR);
	/* 39 integer digits do not fit 128 bits' 38 */
	assert_int_equal(decimal_from_text("123456789012345678901234567890123456789", 39,
					   &v, &s, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22003");
	/* too many fraction digits: rounded to fit 38 digits */
	parse("1.23456789012345678901234567890123456789", &v, &s);
	assert_string_equal(fmt(v, s), "1.2345678901234567890123456789012345679");
}

static void
test_decimal__coerce(void **state)
{
	/* select 1.005::numeric(10,2), -1.005::numeric(10,2), 2.5::numeric(10,0),
	 *        -2.5::numeric(5,0), 0.5::numeric(2,2)  -> 1.01|-1.01|3|-3|0.50 */
	struct { const char *in; int p, s; const char *out; } c[] = {
		{ "1.005", 10, 2, "1.01" }, { "-1.005", 10, 2, "-1.01" }, { "2.5", 10, 0, "3" },
		{ "-2.5", 5, 0, "-3" }, { "0.5", 2, 2, "0.50" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int128 v, r;
		int s;
		parse(c[i].in, &v, &s);
		assert_int_equal(decimal_coerce(v, s, c[i].p, c[i].s, &r, &err), FLOE_OK);
		assert_string_equal(fmt(r, c[i].s), c[i].out);
	}
	/* select 123.45::numeric(4,2):
	 * ERROR:  numeric field overflow
	 * DETAIL:  A field with precision 4, scale 2 must round to an absolute value less than 10^2. */
	int128 v, r;
	int s;
	parse("123.45", &v, &s);
	assert_int_equal(decimal_coerce(v, s, 4, 2, &r, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "22003");
	assert_string_equal(err.message, "numeric field overflow");
	assert_string_equal(err.detail,
		"A field with precision 4, scale 2 must round to an absolute value less than 10^2.");
	/* select 0.5::numeric(2,4): scale above precision (PostgreSQL 15) */
	parse("0.5", &v, &s);
	assert_int_equal(decimal_coerce(v, s, 2, 4, &r, &err), FLOE_ERR);
	assert_string_equal(err.detail,
		"A field with precision 2, scale 4 must round to an absolute value less than 10^-2.");
	parse("0.0049", &v, &s);
	assert_int_equal(decimal_coerce(v, s, 2, 4, &r, &err), FLOE_OK);
	assert_string_equal(fmt(r, 4), "0.0049");
	parse("0.995", &v, &s);
	assert_int_equal(decimal_coerce(v, s, 2, 2, &r, &err), FLOE_ERR);
	assert_string_equal(err.detail,
		"A field with precision 2, scale 2 must round to an absolute value less than 1.");
}

static void
test_decimal__arith(void **state)
{
	/* select 1::numeric/3, 10::numeric/4, 1.5/0.3, 2::numeric/3.000,
	 *   123456789.123/0.001, -7.5/2, 0/3.0, 1/7::numeric(10,5),
	 *   12345678901234567890::numeric/7, 0.0001/3, 1e-10/3 */
	assert_string_equal(op(decimal_div, "1", "3"), "0.33333333333333333333");
	assert_string_equal(op(decimal_div, "10", "4"), "2.5000000000000000");
	assert_string_equal(op(decimal_div, "1.5", "0.3"), "5.0000000000000000");
	assert_string_equal(op(decimal_div, "2", "3.000"), "0.66666666666666666667");
	assert_string_equal(op(decimal_div, "123456789.123", "0.001"), "123456789123.00000000");
	assert_string_equal(op(decimal_div, "-7.5", "2"), "-3.7500000000000000");
	assert_string_equal(op(decimal_div, "0", "3.0"), "0.00000000000000000000");
	assert_string_equal(op(decimal_div, "1", "7.00000"), "0.14285714285714285714");
	assert_string_equal(op(decimal_div, "12345678901234567890", "7"), "1763668414462081127");
	assert_string_equal(op(decimal_div, "0.0001", "3"), "0.000033333333333333333333");
	assert_string_equal(op(decimal_div, "1e-10", "3"), "0.0000000000333333333333333333");
	assert_string_equal(op(decimal_div, "1", "0"), "22012");
	assert_string_equal(err.message, "division by zero");
	/* select 1.50 * 2.0, 7.5 % 2, -7.5 % 2, 10 % 3.3 -> 3.000|1.5|-1.5|0.1 */
	assert_string_equal(op(decimal_mul, "1.50", "2.0"), "3.000");
	assert_string_equal(op(decimal_mod, "7.5", "2"), "1.5");
	assert_string_equal(op(decimal_mod, "-7.5", "2"), "-1.5");
	assert_string_equal(op(decimal_mod, "10", "3.3"), "0.1");
	assert_string_equal(op(decimal_mod, "1", "0"), "22012");
	assert_string_equal(op(decimal_add, "0.1", "0.25"), "0.35");
	assert_string_equal(op(decimal_sub, "0.1", "0.25"), "-0.15");
	assert_string_equal(op(decimal_add, "-1.5", "1.5"), "0.0");
	/* overflow, never wrap */
	assert_string_equal(op(decimal_add, "99999999999999999999999999999999999999",
			       "1"), "22003");
	assert_string_equal(op(decimal_mul, "99999999999999999999", "10000000000000000000"),
			    "22003");
	/* exact product too long: fraction digits are dropped first */
	assert_string_equal(op(decimal_mul, "1234567890.1234567890", "1234567890.1234567890"),
			    "1524157875323883675.0190519987501905210");
	assert_string_equal(op(decimal_add, "10000000000000000000000000000000000000", "0.5"),
			    "10000000000000000000000000000000000001");
	assert_int_equal(decimal_cmp(15, 1, 150, 2), 0);
	int128 nv;
	int ns;
	decimal_normalize(1500, 3, &nv, &ns);
	assert_true(nv == 15 && ns == 1);
	decimal_normalize(0, 5, &nv, &ns);
	assert_true(nv == 0 && ns == 0);
	decimal_normalize(-120, 0, &nv, &ns);
	assert_true(nv == -120 && ns == 0);
	assert_int_equal(decimal_cmp(-15, 1, 149, 2), -1);
	assert_int_equal(decimal_cmp(decimal_pow10(37), 0, 1, 38), 1);
}

static void
test_decimal__convert(void **state)
{
	int64_t i;
	/* select 1.5::numeric::int, 2.5::numeric::int, -2.5::numeric::int -> 2|3|-3 */
	assert_int_equal(decimal_to_int64(15, 1, &i, &err), FLOE_OK);
	assert_int_equal(i, 2);
	assert_int_equal(decimal_to_int64(25, 1, &i, &err), FLOE_OK);
	assert_int_equal(i, 3);
	assert_int_equal(decimal_to_int64(-25, 1, &i, &err), FLOE_OK);
	assert_int_equal(i, -3);
	assert_int_equal(decimal_to_int64(decimal_pow10(19), 0, &i, &err), FLOE_ERR);
	assert_string_equal(err.message, "bigint out of range");
	assert_true(decimal_to_double(1, 1) == 0.1);
	int128 v;
	assert_int_equal(decimal_from_double(0.1, 3, &v, &err), FLOE_OK);
	assert_string_equal(fmt(v, 3), "0.100");
	assert_int_equal(decimal_from_double(-2.675, 2, &v, &err), FLOE_OK);
	assert_string_equal(fmt(v, 2), "-2.68");   /* %.15g gives -2.675: half away */
	assert_int_equal(decimal_digits(0), 1);
	assert_int_equal(decimal_digits(-999), 3);
	assert_int_equal(decimal_digits(decimal_pow10(38) - 1), 38);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal__parse_format),
		cmocka_unit_test(test_decimal__coerce),
		cmocka_unit_test(test_decimal__arith),
		cmocka_unit_test(test_decimal__convert),
		cmocka_unit_test(test_decimal__pg_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
