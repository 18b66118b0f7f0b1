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
 */
#ifndef FLOE_EXEC_MODIFY_H
#define FLOE_EXEC_MODIFY_H

#include "exec/exec.h"
#include "table/data_writer.h"

/* Every row of rs, sorted by keys (a sort operator over rs: it spills past
 * work_mem), written into w in that order; rs is cleared whether or not
 * the write succeeded.  No rows: nothing happens.  Errors in ctx->err. */
int write_sorted(ExecCtx *ctx, RowStore *rs, int nkeys, const SortKey *keys, DataWriter *w);

#endif
