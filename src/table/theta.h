/*
 * theta.h — Theta sketches for column NDV: the 'apache-datasketches-theta-v1'
 * blob of a Puffin statistics file (apache/iceberg format/puffin-spec.md).
 *
 * The spec's blob is a serialized compact Theta sketch of Apache
 * DataSketches, built with the default seed (9001) and fed each distinct
 * value of the column as its Iceberg single-value serialization
 * (format/spec.md "Appendix D"); its blob metadata's "ndv" property holds
 * the estimate.  Trino's ANALYZE and Spark's compute_table_stats write it.
 *
 * The sketch (a KMV / Theta sample): every value is hashed with
 * MurmurHash3_x64_128 (seed 9001); the first 64-bit half shifted right by
 * one is its hash in [0, 2^63).  The sketch keeps the distinct hashes below
 * theta, at most k of them (k = 2^lg_k, nominal entries); when it holds
 * more, theta drops to the (k+1)-th smallest and the larger ones go.  The
 * estimate is count / (theta / 2^63): exact while theta = 2^63-1.
 *
 * Serialization (DataSketches "compact" sketch, serial version 3,
 * little-endian):
 *   byte 0  preamble longs (1: empty or one entry, 2: exact, 3: estimating)
 *   byte 1  serial version 3        byte 2  family 3 (compact)
 *   byte 3,4  lgNomLongs, lgArrLongs (0 in a compact sketch)
 *   byte 5  flags: 2 read-only, 4 empty, 8 compact, 16 ordered, 32 single item
 *   byte 6-7  seed hash (MurmurHash3 of the seed, low 16 bits: 0x93cc)
 *   long 1 (preLongs >= 2): entry count (int32), sampling p (float32, 1.0)
 *   long 2 (preLongs == 3): theta (int64)
 *   then the entries, ascending int64 hashes (a single-item sketch: one).
 * Serial version 4 (compressed entries) and versions 1-2 are 0A000 here.
 *
 * INTERFACE ROUTINES
 *   theta_hash(data, len)                       the value's hash (0 is never kept)
 *   theta_init(s, lg_k, a) / theta_update(s, data, len) / theta_update_hash(s, h)
 *   theta_estimate(s) / theta_count(s)          (theta_finish first compacts)
 *   theta_finish(s)                             sort, dedupe, cut to k
 *   theta_serialize(s, a, &data, &len)          the compact ordered form
 *   theta_deserialize(data, len, name, a, &sk, err)   a ThetaSketch read back
 *   theta_value_bytes(type, iceberg_type, data, k, buf, &len, &ptr)
 *                                               a vector value's Appendix D bytes
 *   theta_type_ok(type)                         theta_value_bytes handles the type
 */
#ifndef FLOE_THETA_H
#define FLOE_THETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "types/types.h"

#define THETA_SEED 9001
#define THETA_SEED_HASH 0x93cc
#define THETA_MAX ((uint64_t)INT64_MAX)
#define THETA_DEFAULT_LG_K 12      /* 4096 entries: DataSketches' default */

typedef struct ThetaSketch {
	Arena *a;
	int k;
	uint64_t theta;            /* hashes >= theta are not kept */
	bool empty;                /* no value was ever offered */
	uint64_t *buf;             /* entries (unsorted past nsorted) */
	int n, cap;
} ThetaSketch;

uint64_t theta_hash(const void *data, size_t len);
void theta_init(ThetaSketch *s, int lg_k, Arena *a);
void theta_update_hash(ThetaSketch *s, uint64_t h);
void theta_update(ThetaSketch *s, const void *data, size_t len);
void theta_finish(ThetaSketch *s);
double theta_estimate(const ThetaSketch *s);
/* Bound on the relative standard error of the estimate: 1/sqrt(k-1)
 * (KMV), 0 while exact. */
double theta_rse(const ThetaSketch *s);
void theta_serialize(ThetaSketch *s, Arena *a, uint8_t **data, size_t *len);
int theta_deserialize(const uint8_t *data, size_t len, const char *name, Arena *a,
		      ThetaSketch *out, floe_error *err);

/* Appendix D bytes of value k of a flat vector's data (of SqlType t whose
 * Iceberg type is iceberg_type): *out points at them (into buf, 16 bytes
 * or more, or into the value's string); false for a type with no
 * single-value serialization (nested). */
bool theta_value_bytes(SqlType t, const void *data, uint32_t k, uint8_t *buf,
		       const uint8_t **out, size_t *len);
/* Has t a single-value serialization (theta_value_bytes handles it)? */
bool theta_type_ok(SqlType t);

#endif
