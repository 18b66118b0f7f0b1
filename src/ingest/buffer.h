/*
 * buffer.h — the insert buffer's durable log, holding the buffered
 * INSERTs of every table until a flush commits them to Iceberg.  Knows
 * bytes, tables (by uuid) and sequences; nothing of SQL (the entry bytes
 * are rowcodec.h's).  The routines below dispatch to a backend
 * (buffer_ops.h); what follows describes the RocksDB one
 * (buffer_rocksdb.c): a RocksDB database in <warehouse>/ingest/.
 *
 * Keys: 'L' + table uuid (36 bytes) + u64 sequence (big-endian), the live
 * log; 'D' + uuid + sequence, the dead letters of that table (entries whose
 * flush failed too often).  Sequences come from one counter for the whole
 * buffer, increasing across restarts (the highest key found at open + 1),
 * so "entries of table T at or below S" is a key range.  A value is the
 * staging time (u64 ms since the epoch) followed by the entry bytes.
 *
 * Durability: ibuf_append writes with sync = true; RocksDB groups the
 * concurrent synced writes of many threads into one WAL fsync.  An entry
 * whose append returned FLOE_OK survives kill -9 and power loss.
 *
 * One process at a time writes a RocksDB database (its LOCK file).  The
 * first floe process to open a warehouse's buffer is its OWNER; another
 * (a shell while `floe serve` runs) opens it as a READER: a RocksDB
 * secondary instance (in <warehouse>/ingest-readers/<pid>) that sees the
 * owner's entries after ibuf_refresh, and may not append, discard or
 * dead-letter (0A000 / the caller's rule: ingest.c).
 *
 * Threads: every call may come from any thread; the statistics are under
 * the buffer's mutex.
 *
 * The PostgreSQL backend (buffer_pg.c, its design at its top) keeps the
 * entries in the PostgreSQL catalog's database: every process is an owner
 * (ibuf_shared), sequences are per table and commit in order, and a flush
 * of a table takes ibuf_flush_lock so two nodes never flush it at once.
 *
 * INTERFACE ROUTINES
 *   ibuf_open(&buf, dir, err) / ibuf_close(buf)    owner, else reader
 *   ibuf_open_pg(&buf, conninfo, err)              the PostgreSQL backend
 *   ibuf_backend(buf)                              "rocksdb" | "postgres"
 *   ibuf_shared(buf)                               every node's entries, read from
 *                                                  the database at each call
 *   ibuf_flush_lock(buf, uuid, &token, err) / ibuf_flush_unlock(buf, uuid, token)
 *                                                  a table's flush, across nodes
 *                                                  (RocksDB: nothing to take)
 *   ibuf_is_owner(buf), ibuf_refresh(buf)          reader: catch up with the owner
 *   ibuf_append(buf, uuid, label, floor, bytes, len, &seq, err)   durable at
 *                                                  return, and at or below ibuf_stable_seq
 *                                                  (visible to every read); seq > floor
 *                                                  (the table's recorded sequence)
 *   ibuf_scan(buf, uuid, after, upto, visit, arg, err)   live entries with
 *                                                  after < seq <= upto, in order;
 *                                                  visit(arg, seq, bytes, len)
 *   ibuf_stable_seq(buf)                           every entry at or below it is in
 *                                                  the database (no append below it is
 *                                                  still in flight): what a flush may take
 *                                                  (postgres: UINT64_MAX, a scan is a
 *                                                  stable cut of each table)
 *   ibuf_discard(buf, uuid, upto, err)             drop live entries with seq <= upto
 *   ibuf_dead_letter(buf, uuid, err)               move every live entry to the dead letters
 *   ibuf_dead_scan(buf, uuid, visit, arg, err) / ibuf_dead_discard(buf, uuid, err)
 *   ibuf_dead_replay(buf, uuid, err)               dead letters back into the live log
 *   ibuf_stats(buf, &stats, &n)                    per table (malloc'd: ibuf_stats_free)
 *   ibuf_table_stat(buf, uuid, &stat)              one table's (false: nothing buffered)
 *   ibuf_note_flush(buf, uuid, ok)                 a flush attempt's result (failures)
 *   ibuf_pending_bytes(buf)                        every table's live bytes
 *   ibuf_wait_bytes_below(buf, limit, timeout_ms)  backpressure: false on timeout
 */
#ifndef FLOE_INGEST_BUFFER_H
#define FLOE_INGEST_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/error.h"

#define IBUF_UUID_LEN 36

typedef struct IngestBuffer IngestBuffer;

typedef struct IbufStat {
	char uuid[IBUF_UUID_LEN + 1];
	char label[256];           /* "schema.table" of the last append */
	int64_t pending_objects, pending_bytes;
	int64_t oldest_ms;         /* staging time of the oldest live entry, 0: none */
	uint64_t max_seq;          /* highest live sequence, 0: none */
	int flush_failures;        /* in a row */
	bool flushing;
	int64_t dead_objects;
} IbufStat;

typedef int (*ibuf_visit_fn)(void *arg, uint64_t seq, const uint8_t *bytes, size_t len);

int ibuf_open(IngestBuffer **out, const char *dir, floe_error *err);
int ibuf_open_pg(IngestBuffer **out, const char *conninfo, floe_error *err);
const char *ibuf_backend(const IngestBuffer *b);
bool ibuf_shared(const IngestBuffer *b);
int ibuf_flush_lock(IngestBuffer *b, const char *uuid, void **token, floe_error *err);
void ibuf_flush_unlock(IngestBuffer *b, const char *uuid, void *token);
void ibuf_close(IngestBuffer *b);
bool ibuf_is_owner(const IngestBuffer *b);
int ibuf_refresh(IngestBuffer *b, floe_error *err);
int ibuf_append(IngestBuffer *b, const char *uuid, const char *label, uint64_t floor,
		const uint8_t *bytes, size_t len, uint64_t *seq, floe_error *err);
int ibuf_scan(IngestBuffer *b, const char *uuid, uint64_t after, uint64_t upto,
	      ibuf_visit_fn visit, void *arg, floe_error *err);
uint64_t ibuf_stable_seq(IngestBuffer *b);
int ibuf_discard(IngestBuffer *b, const char *uuid, uint64_t upto, floe_error *err);
int ibuf_dead_letter(IngestBuffer *b, const char *uuid, floe_error *err);
int ibuf_dead_scan(IngestBuffer *b, const char *uuid, ibuf_visit_fn visit, void *arg,
		   floe_error *err);
int ibuf_dead_discard(IngestBuffer *b, const char *uuid, floe_error *err);
int ibuf_dead_replay(IngestBuffer *b, const char *uuid, floe_error *err);
void ibuf_stats(IngestBuffer *b, IbufStat **stats, int *n);
bool ibuf_table_stat(IngestBuffer *b, const char *uuid, IbufStat *out);
void ibuf_note_flush(IngestBuffer *b, const char *uuid, bool started, bool ok);
int64_t ibuf_pending_bytes(IngestBuffer *b);
bool ibuf_wait_bytes_below(IngestBuffer *b, int64_t limit, int64_t timeout_ms,
			   volatile int *cancel);

#endif
