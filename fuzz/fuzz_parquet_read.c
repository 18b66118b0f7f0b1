/*
 * fuzz_parquet_read.c — fuzz target for the Parquet reader
 * (format/parquet: parquet_open, parquet_column_stats,
 * parquet_column_reader_open, parquet_column_read, parquet_column_skip).
 *
 * Property checked: any bytes either fail with a clean error (XX001 for a
 * corrupt file, 0A000 for an unsupported feature) or open, and then every
 * column of every row group reads to its end (or to a clean error); the
 * reader never crashes, reads out of bounds, hangs or allocates without
 * bound (decode-only target, like zstd's tests/fuzz/simple_decompress.c).
 * Every value read is touched, so ASan sees any view into freed or
 * out-of-bounds memory.  The first input byte picks the batch size, and odd
 * inputs also exercise parquet_column_skip.
 *
 * INTERFACE ROUTINES
 *   LLVMFuzzerTestOneInput(data, size)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"
#include "format/parquet/parquet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_clean(const floe_error *err)
{
	if (!floe_error_is(err, ERRCODE_DATA_CORRUPTED) &&
	    !floe_error_is(err, ERRCODE_FEATURE_NOT_SUPPORTED)) {
		fprintf(stderr, "unclean error %s: %s\n", err->sqlstate, err->message);
		abort();
	}
}

/* Touch every value so sanitizers see bad pointers. */
static uint64_t
touch(const Vector *v, uint32_t n)
{
	uint64_t h = 0;
	size_t w = type_width(v->type.id);
	const uint8_t *d = v->data;
	for (uint32_t i = 0; i < n; i++) {
		if (!vector_is_valid(v, i))
			continue;
		if (v->type.id == TYPE_TEXT || v->type.id == TYPE_BYTEA) {
			const strview *s = (const strview *)d + i;
			const char *p = strview_data(s);
			for (uint32_t k = 0; k < s->len; k++)
				h = h * 31 + (uint8_t)p[k];
		} else {
			for (size_t k = 0; k < w; k++)
				h = h * 31 + d[i * w + k];
		}
	}
	return h;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static volatile uint64_t sink;
	Arena *a = arena_new(0);
	ParquetFile *pf;
	floe_error err;
	uint32_t batch = size ? 1 + data[0] % 64 * 37 : 1024;
	bool skip = size > 1 && (data[1] & 1);

	floe_error_clear(&err);
	if (parquet_open(&pf, data, size, "fuzz.parquet", a, &err) != FLOE_OK) {
		check_clean(&err);
		arena_free(a);
		return 0;
	}
	(void)parquet_kv_metadata(pf, "ARROW:schema");
	for (int rg = 0; rg < parquet_num_row_groups(pf); rg++) {
		for (int c = 0; c < parquet_num_columns(pf); c++) {
			const ParquetColumn *col = parquet_column(pf, c);
			ParquetStats st;
			ParquetColumnReader *r;
			Vector v;
			uint32_t got;
			if (parquet_column_stats(pf, rg, c, &st, &err) != FLOE_OK)
				check_clean(&err);
			if (st.has_min_max && (col->type.id == TYPE_TEXT || col->type.id == TYPE_BYTEA))
				sink += (uint64_t)strview_cmp(&st.min.u.s, &st.max.u.s);
			Arena *ra = arena_new(0);
			if (parquet_column_reader_open(&r, pf, rg, c, ra, &err) != FLOE_OK) {
				check_clean(&err);
				arena_free(ra);
				continue;
			}
			/* odd inputs skip page CRCs, so mutated pages reach the decoders */
			parquet_column_reader_set_verify(r, !skip);
			if (skip && parquet_column_skip(r, batch / 2 + 1, &err) != FLOE_OK) {
				check_clean(&err);
				arena_free(ra);
				continue;
			}
			vector_init(&v, col->type, ra, batch);
			for (;;) {
				if (parquet_column_read(r, &v, batch, &got, &err) != FLOE_OK) {
					check_clean(&err);
					break;
				}
				if (got == 0)
					break;
				sink += touch(&v, got);
			}
			arena_free(ra);
		}
	}
	arena_free(a);
	return 0;
}
