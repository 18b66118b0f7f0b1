/*
 * compact.h — background compaction of the small data files the insert
 * buffer's flushes leave (docs/ingest.md, "Compaction"): every flush is one
 * commit with one small file per partition, so an hour of ingest would
 * leave hundreds of files and a scan that opens them all.
 *
 * After a table's flush, floe serve's flush thread looks at its live data
 * files: in each partition, the files without deletes smaller than 3/4 of
 * write.target-file-size-bytes (default 512 MB) are bin-packed (largest
 * first, first fit) into bins of at most the target size; once a
 * partition has floe.insert_buffer_compact_files such files (default 16;
 * 0: never), each bin of two or more files is rewritten as one file
 * (optimize_rewrite_files: same rows, same partition, v3 row lineage
 * kept) and all of them are committed as ONE "replace" snapshot.
 *
 * What it never does: fail or hold up a user statement.
 *   1. It replaces only files nobody deleted from: candidates have no
 *      deletes, and the commit (table_commit's re-base) refuses with 40001
 *      when a concurrent commit added deletes to one or removed it.
 *   2. A concurrent commit that leaves its files alone (appends, flushes,
 *      DML of other files) is re-based over and the commit retried.
 *   3. It takes the table's write turn (engine.h), so this process's
 *      autocommit UPDATE/DELETE/MERGE never read a file it is replacing,
 *      and it commits only while no transaction block of this process has
 *      touched a table (ingest_block_hold: a block's first table load waits
 *      for a compaction commit in flight and then pins the new head), so no
 *      block re-bases over it.
 *   4. Any failure (a conflict, an open block, an I/O error) gives up
 *      quietly: the files it wrote are removed and the table is tried
 *      again after a later flush.
 *
 * INTERFACE ROUTINES
 *   compact_table(fs, ns, name, min_files, &st, err)   one table; fs is a
 *        session of the engine's own (the flush thread's); FLOE_OK also when
 *        nothing was due or it gave up (st->gave_up)
 */
#ifndef FLOE_INGEST_COMPACT_H
#define FLOE_INGEST_COMPACT_H

#include "sql/bind.h"

typedef struct CompactStats {
	int rewritten;           /* data files replaced */
	int added;               /* data files written */
	bool gave_up;            /* a conflict or an open block: try later */
} CompactStats;

int compact_table(Session *fs, const char *ns, const char *name, int min_files, CompactStats *st,
		  floe_error *err);

/* Transaction blocks (txn.c): hold before a block pins its first table,
 * release when the block ends.  While any block holds, no compaction of
 * this process commits. */
void ingest_block_hold(Engine *e);
void ingest_block_release(Engine *e);

#endif
