/*
 * modify.h — the file-level machinery of the row-level writes (UPDATE,
 * DELETE, MERGE, INSERT ... ON CONFLICT) that sql/dml.c and sql/merge.c
 * share: the pieces of the one ModifyTable path that issue 14's target
 * puts in exec/ (docs/ARCHITECTURE.md, "Folder rules").  Each routine has
 * its own file; they use exec/ operators and table/ writers, never sql/.
 *
 * INTERFACE ROUTINES
 *   write_sorted(ctx, rs, nkeys, keys, w)   write_sorted.c: rs's rows
 *       sorted by keys into the data writer w, rs emptied (the table's
 *       sort order on a rewrite or an update's new rows)
 *   cow_rewrite_init(&rw, ctx, schema, md, file, lineage, scratch)
 *   cow_rewrite(&rw)                        cow_rewrite.c: a data file's
 *       rows read again for its copy-on-write rewrite, batch by batch, each
 *       batch split into the rows the statement changed and the others
 *   cow_split_bits(bits, first, count, hit, &nhit, keep, &nkeep)
 *       cow_rewrite.c: that split by a bitmap over row ordinals
 */
#ifndef FLOE_EXEC_MODIFY_H
#define FLOE_EXEC_MODIFY_H

#include "exec/exec.h"
#include "table/data_writer.h"

/* Every row of rs, sorted by keys (a sort operator over rs: it spills past
 * work_mem), written into w in that order; rs is cleared whether or not
 * the write succeeded.  No rows: nothing happens.  Errors in ctx->err. */
int write_sorted(ExecCtx *ctx, RowStore *rs, int nkeys, const SortKey *keys, DataWriter *w);

/*
 * The copy-on-write rewrite of one data file (cow_rewrite.c).  The scan
 * reads the table's columns 0..nfields-1, then, by_pos, each row's file
 * position (column nfields), then, lineage, _row_id and
 * _last_updated_sequence_number; the caller's rows() gets each batch with
 * rows (compacted; scratch reset before it), the indexes of the changed
 * rows (hit) and of the others (keep), both ascending, and writes what it
 * keeps.  The changed rows are, by_pos, those at the sorted file
 * positions pos[0..npos); else those set in bits, a bitmap over the
 * scan's row ordinals (NULL: every row), the scan then having to give
 * exactly nrows rows (XX001 otherwise: the file changed).  The scan's
 * state lives in scan_arena (NULL: an arena of cow_rewrite's own).
 */
typedef struct CowRewrite {
	ExecCtx *ctx;
	const struct IcebergSchema *schema;
	const struct TableMetadata *md;
	struct DataFile *file;
	bool by_pos;
	bool lineage;
	const int64_t *pos;
	int64_t npos;
	const uint64_t *bits;
	int64_t nrows;
	Arena *scan_arena;
	Arena *scratch;
	int (*rows)(void *arg, Batch *b, uint32_t *hit, uint32_t nhit, uint32_t *keep,
		    uint32_t nkeep, Arena *scratch);
	void *arg;
} CowRewrite;

/* rw for a rewrite of file f of the table (schema, md), batches in scratch;
 * every other field cleared (the caller sets the marks, rows and arg). */
void cow_rewrite_init(CowRewrite *rw, ExecCtx *ctx, const struct IcebergSchema *schema,
		      const struct TableMetadata *md, struct DataFile *f, bool lineage,
		      Arena *scratch);
int cow_rewrite(const CowRewrite *rw);
/* Rows 0..count-1 of a batch whose first row is ordinal `first`: those set
 * in bits (NULL: all) into hit, the others into keep. */
void cow_split_bits(const uint64_t *bits, int64_t first, uint32_t count, uint32_t *hit,
		    uint32_t *nhit, uint32_t *keep, uint32_t *nkeep);

#endif
