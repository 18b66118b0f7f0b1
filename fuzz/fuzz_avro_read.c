/*
 * fuzz_avro_read.c — fuzz target for Avro container files
 * (format/avro: avro_read_container, avro_write_container) and the Iceberg
 * manifest readers built on them (table/manifest.c).
 *
 * Properties checked: any bytes either fail avro_read_container cleanly
 * (XX001, or 0A000 for a codec floe does not support) or decode into
 * records that re-encode with the file's own schema and decode again to
 * the same number of records (a round trip in the sense of zstd's
 * tests/fuzz/simple_round_trip.c).  On a file that decodes,
 * manifest_read and manifest_list_read either succeed or fail with XX001.
 * Nothing crashes, hangs or allocates without bound (blocks inflate to at
 * most AVRO_MAX_BLOCK; zero-size items are capped).
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
#include "format/avro/avro.h"
#include "table/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
expect_clean(const floe_error *err, const char *what)
{
	if (strcmp(err->sqlstate, "XX001") != 0 && strcmp(err->sqlstate, "0A000") != 0) {
		fprintf(stderr, "%s: unexpected SQLSTATE %s: %s\n", what, err->sqlstate, err->message);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Arena *a = arena_new(0);
	AvroFile *f, *f2;
	floe_error err;

	floe_error_clear(&err);
	if (avro_read_container(data, size, "fuzz.avro", a, &f, &err) != FLOE_OK) {
		expect_clean(&err, "avro_read_container");
		arena_free(a);
		return 0;
	}
	/* round trip: re-encode the records with the file's schema */
	const uint8_t *out;
	size_t outlen;
	if (avro_write_container(f->schema_json, NULL, NULL, 0, (const AvroDatum *const *)f->records,
				 (int)f->nrecords, AVRO_CODEC_DEFLATE, a, &out, &outlen, &err) != FLOE_OK) {
		fprintf(stderr, "decoded records do not re-encode: %s %s\n", err.sqlstate, err.message);
		abort();
	}
	if (avro_read_container(out, outlen, "round-trip", a, &f2, &err) != FLOE_OK) {
		fprintf(stderr, "re-encoded file does not decode: %s\n", err.message);
		abort();
	}
	if (f2->nrecords != f->nrecords) {
		fprintf(stderr, "round trip changed the record count: %lld -> %lld\n",
			(long long)f->nrecords, (long long)f2->nrecords);
		abort();
	}
	/* the Iceberg readers on top */
	ManifestEntry *es;
	ManifestFile *ms;
	int n;
	if (manifest_read(data, size, "fuzz.avro", a, &es, &n, &err) != FLOE_OK)
		expect_clean(&err, "manifest_read");
	if (manifest_list_read(data, size, "fuzz.avro", a, &ms, &n, &err) != FLOE_OK)
		expect_clean(&err, "manifest_list_read");
	arena_free(a);
	return 0;
}
