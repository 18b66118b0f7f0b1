/*
 * fuzz_metadata_json.c — fuzz target for Iceberg table metadata JSON
 * (table/metadata.c: metadata_parse, metadata_serialize).
 *
 * Property checked: any bytes either fail metadata_parse with a clean
 * XX001 error, or parse into a model that serializes, re-parses, and
 * serializes again to the same bytes (a round-trip target in the sense of
 * zstd's tests/fuzz/simple_round_trip.c).  It never crashes, leaks, hangs
 * or allocates without bound (gzip/zstd inflation is capped).
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
#include "table/metadata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Arena *a = arena_new(0);
	TableMetadata *md, *md2;
	floe_error err;
	char *s1, *s2;

	floe_error_clear(&err);
	if (metadata_parse((const char *)data, size, "fuzz.metadata.json", a, &md, &err) != FLOE_OK) {
		if (strcmp(err.sqlstate, "XX001") != 0) {
			fprintf(stderr, "unexpected SQLSTATE %s: %s\n", err.sqlstate, err.message);
			abort();
		}
		arena_free(a);
		return 0;
	}
	s1 = metadata_serialize(md, a);
	if (metadata_parse(s1, strlen(s1), "round-trip", a, &md2, &err) != FLOE_OK) {
		fprintf(stderr, "serialized metadata does not parse: %s\n%s\n", err.message, s1);
		abort();
	}
	s2 = metadata_serialize(md2, a);
	if (strcmp(s1, s2) != 0) {
		fprintf(stderr, "round trip changed the document:\n%s\n---\n%s\n", s1, s2);
		abort();
	}
	arena_free(a);
	return 0;
}
