/*
 * test_parquet_kern.c — the Parquet decoders' fast paths against their
 * plain forms: pq_flba_decimal (8-byte loads while 8 bytes are readable)
 * against pq_be_int128 one value at a time, for every width 1..16 and
 * every count 1..40, on random bytes placed at the very end of a
 * page-sized allocation (ASan then catches a load past the values).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "format/parquet/decode.h"

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint8_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)rng;
}

static void
test_flba_decimal_widths(void **state)
{
	for (uint32_t L = 1; L <= 16; L++) {
		for (uint32_t n = 1; n <= 40; n++) {
			size_t bytes = (size_t)L * n;
			uint8_t *buf = malloc(bytes);
			int128 *got = malloc(sizeof(int128) * n);

			assert_non_null(buf);
			assert_non_null(got);
			for (size_t i = 0; i < bytes; i++)
				buf[i] = rnd();
			/* some values with the sign bit set, some all 0xff / 0x00 */
			if (n > 2) {
				memset(buf, 0xff, L);
				memset(buf + L, 0, L);
			}
			assert_int_equal(pq_flba_decimal(buf, L, got, n), 0);
			for (uint32_t i = 0; i < n; i++) {
				int128 want;
				assert_int_equal(pq_be_int128(buf + (size_t)i * L, L, &want), 0);
				if (got[i] != want)
					fail_msg("L=%u n=%u value %u differs", L, n, i);
			}
			free(buf);
			free(got);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flba_decimal_widths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
