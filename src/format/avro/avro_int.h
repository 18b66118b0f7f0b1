/*
 * avro_int.h — private to format/avro/: the growable output buffer, varint
 * helpers and the schema parser with a caller-chosen SQLSTATE.
 */
#ifndef FLOE_AVRO_INT_H
#define FLOE_AVRO_INT_H

#include "format/avro/avro.h"

typedef struct AvroBuf {
	Arena *a;
	uint8_t *p;
	size_t len, cap;
} AvroBuf;

void avro__buf_put(AvroBuf *b, const void *p, size_t n);
void avro__put_long(AvroBuf *b, int64_t v);
void avro__put_bytes(AvroBuf *b, const void *p, size_t n);   /* long length + bytes */
int avro__get_long(const uint8_t *data, size_t len, size_t *pos, const char *name,
		     int64_t *out, floe_error *err);
/* Datums a container of n input bytes may decode to (~32 bytes each):
 * real manifests hold ~3 per compressed byte. */
#define AVRO_DATUM_BUDGET(n) ((int64_t)(n) * 16 + ((int64_t)1 << 20))
int avro__decode(const AvroSchema *s, const uint8_t *data, size_t len, size_t *pos,
		 const char *name, Arena *a, int64_t *budget, AvroDatum **out, floe_error *err);
int avro__encode(const AvroSchema *s, const AvroDatum *d, AvroBuf *b, int depth, floe_error *err);
int avro__schema_parse(const char *json, Arena *a, const char *code, const char *what,
		       AvroSchema **out, floe_error *err);

#endif
