/*
 * write_sorted.c — rows collected in a RowStore go to a data writer
 * sorted by the table's sort order (modify.h).
 *
 * The sort is exec/sort.c over a scan of the store, so a run larger than
 * work_mem spills; each batch it returns is written as it comes.  Used by
 * UPDATE / DELETE's writer slots (sql/dml.c slot_flush) and MERGE / ON
 * CONFLICT's writers (sql/merge.c flush_w and a partitioned file's
 * rewrite).
 *
 * INTERFACE ROUTINES (modify.h)
 *   write_sorted(ctx, rs, nkeys, keys, w)
 */
#include "exec/modify.h"

int
write_sorted(ExecCtx *ctx, RowStore *rs, int nkeys, const SortKey *keys, DataWriter *w)
{
	Operator *op;
	Batch *b;
	int rc = FLOE_OK;

	if (rowstore_rows(rs) == 0)
		return FLOE_OK;
	op = sort_new(ctx, rowstore_scan_new(ctx, rs), nkeys, keys);
	if (op_open(op) != FLOE_OK)
		rc = FLOE_ERR;
	while (rc == FLOE_OK) {
		if (op_next(op, &b) != FLOE_OK) {
			rc = FLOE_ERR;
			break;
		}
		if (!b)
			break;
		if (b->count && data_writer_write(w, b, ctx->err) != FLOE_OK)
			rc = FLOE_ERR;
	}
	op_close(op);
	rowstore_clear(rs);
	return rc;
}
