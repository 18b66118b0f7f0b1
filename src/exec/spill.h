/*
 * spill.h — temp files for operators that outgrow work_mem (sort.c,
 * hash_agg.c, hash_join.c), the memory accounting they share, and the
 * work_mem setting's parsing (exec_mem_limit, declared in exec.h).
 *
 * A SpillSet is one operator's spill folder, <base>/floe-spill-<pid>-<n>,
 * base = $FLOE_SPILL_DIR, else $TMPDIR, else /tmp.  It is created on the
 * first spill_file_new and removed (with every file) by spill_set_close or,
 * at the latest, when the statement's arena is freed (end of statement,
 * error, cancel).  Files are unlinked as soon as they are created, so a
 * crashed process leaves no data behind, only an empty folder.
 *
 * A SpillFile holds Batches of fixed column types: written with
 * spill_write (rows of any batch: selections, CONST and DICT vectors,
 * long strings, numeric display scales are all carried), then
 * spill_rewind, then read back with spill_read as flat batches.
 * Reading checks the file's framing; damage is XX001.
 *
 * INTERFACE ROUTINES
 *   spill_set_new(ctx) / spill_set_close(ss)
 *   spill_file_new(ss, ncols, types, &f) / spill_file_close(f)
 *   spill_write(f, batch, rows, n) / spill_rewind(f) / spill_read(f, arena, &b)
 *   spill_file_rows(f)
 *   spill_file_park(f)                the stream (and its buffer) closed until
 *                                     the next write or rewind; the descriptor
 *                                     is kept (a finished run waiting to merge)
 *   spill_set_held(ss)                bytes the set holds in memory: the
 *                                     write scratch its files share and
 *                                     one stdio buffer per open file
 *   spill_scan_new(ctx, ncols, types, f) / spill_scan_set(op, f)
 *                                     an Operator reading f (NULL: no rows)
 *                                     from the start at each open
 *   spill_over(ctx, bytes)            true when bytes pass ctx->mem_limit
 *   spill_guard(ctx, bytes, what)     53200 when bytes pass SPILL_HARD_FACTOR x limit
 *                                     and the default limit
 *   spill_stats(&files, &bytes)       process-wide counters (tests, EXPLAIN)
 */
#ifndef FLOE_SPILL_H
#define FLOE_SPILL_H

#include "exec/exec.h"

/* Operators that cannot spill fail with 53200 above this many times the
 * limit (window partitions, nested loops, unsplittable hash partitions),
 * and above the default work_mem (physical memory / 32, 64MB .. 1GB;
 * $FLOE_SPILL_HARD_MIN bytes overrides it, for tests). */
#define SPILL_HARD_FACTOR 10

typedef struct SpillSet SpillSet;
typedef struct SpillFile SpillFile;

SpillSet *spill_set_new(ExecCtx *ctx);
void spill_set_close(SpillSet *ss);
int spill_file_new(SpillSet *ss, int ncols, const SqlType *types, SpillFile **out);
void spill_file_close(SpillFile *f);
/* rows: logical row numbers of b (indexes below b->count, before b->sel);
 * NULL: rows 0..n) */
int spill_write(SpillFile *f, const Batch *b, const uint32_t *rows, uint32_t n);
int spill_rewind(SpillFile *f);
/* *out = NULL at the end; the batch lives in `a` */
int spill_read(SpillFile *f, Arena *a, Batch **out);
int64_t spill_file_rows(const SpillFile *f);
void spill_file_park(SpillFile *f);
int64_t spill_set_held(const SpillSet *ss);
Operator *spill_scan_new(ExecCtx *ctx, int ncols, const SqlType *types, SpillFile *f);
void spill_scan_set(Operator *op, SpillFile *f);

bool spill_over(const ExecCtx *ctx, int64_t bytes);
int spill_guard(ExecCtx *ctx, int64_t bytes, const char *what);
void spill_stats(int64_t *files, int64_t *bytes);

#endif
