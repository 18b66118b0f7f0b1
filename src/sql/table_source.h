/*
 * table_source.h — a base table as the source of a logical Get
 * (plan/logical.h GET): what the binder planned for it and the scan that
 * physical.c calls to make its operators.
 *
 * The binder (select.c source_table) resolves the table, notes the
 * privilege it needs, loads the insert buffer's rows for it (ingest.h),
 * lists the data files of its current snapshot (they give the row
 * estimate and the manifests' column bounds) and picks the fields the
 * statement reads; all of that is a TableSource, and the Get node made
 * from it holds it as its scan_arg.  Lowering the Get builds the operators
 * the binder used to build itself: a Seq Scan over the files (exec/
 * scan.c) under the insert buffer's overlay (ingest.c), labelled
 * "Seq Scan on t [alias]".  Nothing runs or opens until the plan does.
 *
 * INTERFACE ROUTINES
 *   table_source_get(lp, ts, names)   a GET node: one column per projected
 *                                     field (names: [ncols], the scope's), at
 *                                     ts's snapshot (AS OF VERSION n)
 *   table_source_op(ctx, ts)          the operators the GET lowers to
 */
#ifndef FLOE_SQL_TABLE_SOURCE_H
#define FLOE_SQL_TABLE_SOURCE_H

#include "exec/exec.h"
#include "plan/logical.h"

struct IcebergSchema;
struct TableMetadata;
struct DataFile;
struct IngestOverlay;

typedef struct TableSource {
	const char *ns, *name;
	int64_t snapshot;               /* time travel: the snapshot read, else -1 */
	const struct TableMetadata *md;
	const struct IcebergSchema *schema;
	int ncols;
	int *proj;                      /* [ncols] schema field index, or a
					   SCAN_PROJ_* metadata column */
	SqlType *types;                 /* [ncols] as the scope binds them */
	struct DataFile *files;         /* the current snapshot's data files */
	int nfiles;
	struct IngestOverlay *overlay;  /* buffered rows (ingest.h), or NULL */
	const char *label;              /* EXPLAIN's "Seq Scan on t [alias]" */
	double est;                     /* rows: the manifests' record counts */
	const double *ndv;              /* [ncols] estimated distinct values
					   (< 0 unknown), or NULL */
} TableSource;

LogicalOp *table_source_get(LogicalPlan *lp, const TableSource *ts, char *const *names);
Operator *table_source_op(ExecCtx *ctx, const TableSource *ts);

#endif
