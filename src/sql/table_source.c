/*
 * table_source.c — a base table as a logical Get's source
 * (sql/table_source.h).
 */
#include "sql/table_source.h"

#include "ingest/ingest.h"
#include "table/metadata.h"

Operator *
table_source_op(ExecCtx *ctx, const TableSource *ts)
{
	Operator *op;

	/* nested columns are skipped in the scan: they read as NULL for now */
	op = scan_new(ctx, ts->schema, ts->ncols, ts->proj, ts->files, ts->nfiles, false, ts->md);
	op->label = ts->label;
	op->est_rows = ts->est;
	return ingest_overlay_op(ctx, ts->overlay, op, ts->ncols, ts->proj, ts->types);
}

static Operator *
get_scan(ExecCtx *ctx, const LogicalOp *get, const void *arg)
{
	(void)get;
	return table_source_op(ctx, arg);
}

LogicalOp *
table_source_get(LogicalPlan *lp, const TableSource *ts, char *const *names)
{
	LogicalOp *g = lop_new(lp, LOP_GET, 0);

	g->schema = ts->ns;
	g->name = ts->name;
	g->table = ts->md;
	if (ts->snapshot >= 0)
		g->snapshot.snapshot_id = ts->snapshot;
	g->field_ids = arena_alloc(lp->arena, sizeof *g->field_ids * (size_t)(ts->ncols + 1));
	for (int i = 0; i < ts->ncols; i++) {
		g->field_ids[i] = ts->proj[i] < 0 ? ts->proj[i] : ts->schema->fields[ts->proj[i]].id;
		lop_add_column(lp, g, ts->types[i], names[i]);
	}
	g->est_rows = ts->est;
	g->col_ndv = ts->ndv;
	g->scan = get_scan;
	g->scan_arg = ts;
	return g;
}
