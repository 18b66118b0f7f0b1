/*
 * hash.h — the 64-bit finaliser the hash tables share.
 *
 *   hash_mix64(x)   MurmurHash3's fmix64: every input bit affects every
 *                   output bit; used to spread integer keys and to combine
 *                   column hashes (hash_agg, hash_join, inset, recursive).
 */
#ifndef FLOE_COMMON_HASH_H
#define FLOE_COMMON_HASH_H

#include <stdint.h>

static inline uint64_t
hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

#endif
