/*
 * keyindex.h — PRIMARY KEY uniqueness of buffered rows: the owner's index
 * of the keys in the insert buffer, key sets, and the per-table key lock
 * that orders buffered INSERTs against direct-path commits (the design is
 * at the top of keyindex.c; ingest.c uses it).
 *
 * A key is the bytes of a row's key columns (keyidx_encode: per column a
 * valid byte, then the value's fixed-width bytes or u32 length + bytes),
 * equal exactly when the direct path's check (insert.c) calls them equal.
 *
 * INTERFACE ROUTINES
 *   keyidx_encode(b, cols, n, row, &buf, &cap, &len)   key of row `row` of b
 *   keyset_*: a set of keys with a sequence each (not thread-safe)
 *     kset_new() / kset_free(s) / kset_find(s, k, len) (NULL: absent) /
 *     kset_add(s, k, len, seq) / kset_count(s)
 *   keyidx_new() / keyidx_free(x)         the owner's index, every table's
 *   keyidx_reserve(x, uuid, load, arg, keys, lens, n, cancel, &res, &clash, err)
 *        all of keys[0..n) as pending entries of uuid's index, atomically:
 *        FLOE_OK, or 23505-to-be (*clash = the index of a key already
 *        buffered, err untouched: the caller words it), or 57014; waits
 *        while one of them is pending in another reservation.  The table's
 *        index is built on first use by load(arg, set) (every live entry's
 *        keys, under the index's mutex).
 *   keyidx_settle(x, res, seq)            the reservation's entry is durable
 *                                         at seq (0: it failed; the keys go)
 *   keyidx_drop(x, uuid, upto)            a flush discarded entries <= upto
 *   keyidx_forget(x, uuid)                rebuild uuid's index at next use
 *                                         (dead letters moved, table dropped)
 *   keylock_take(dir, uuid, exclusive, cancel, &fd, err) / keylock_release(fd)
 *        the table's key lock, across threads and processes (an open file
 *        description lock on dir/uuid): shared by buffered INSERTs from
 *        their check to their durable append, exclusive by a direct-path
 *        commit from its check of the buffered keys to its catalog swap;
 *        a waiting exclusive taker stops new shared ones (a gate byte)
 */
#ifndef FLOE_INGEST_KEYINDEX_H
#define FLOE_INGEST_KEYINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/error.h"
#include "types/vector.h"

typedef struct KSet KSet;
typedef struct KeyIdx KeyIdx;
typedef struct KeyRes KeyRes;

uint32_t keyidx_encode(const Batch *b, const int *cols, int n, uint32_t row, uint8_t **buf,
		       size_t *cap);

KSet *kset_new(void);
void kset_free(KSet *s);
/* the sequence of key k (UINT64_MAX: pending), or false when absent */
bool kset_find(const KSet *s, const uint8_t *k, uint32_t len, uint64_t *seq);
void kset_add(KSet *s, const uint8_t *k, uint32_t len, uint64_t seq);
int kset_count(const KSet *s);

typedef int (*keyidx_load_fn)(void *arg, KSet *set, floe_error *err);

KeyIdx *keyidx_new(void);
void keyidx_free(KeyIdx *x);
int keyidx_reserve(KeyIdx *x, const char *uuid, keyidx_load_fn load, void *arg,
		   uint8_t *const *keys, const uint32_t *lens, int n, volatile int *cancel,
		   KeyRes **res, int *clash, floe_error *err);
void keyidx_settle(KeyIdx *x, KeyRes *res, uint64_t seq);
void keyidx_drop(KeyIdx *x, const char *uuid, uint64_t upto);
void keyidx_forget(KeyIdx *x, const char *uuid);

int keylock_take(const char *dir, const char *uuid, bool exclusive, volatile int *cancel, int *fd,
		 floe_error *err);
void keylock_release(int fd);

#endif
