/*
 * infer.h — INFER_SCHEMA: the columns of files, inferred (docs/loading.md).
 *
 *   SELECT * FROM infer_schema(location => '@stage/path' | '/path' | 's3://...',
 *                              file_format => 'PARQUET' | 'CSV' | 'JSON' [, option => value ...])
 *
 * One row per column, in order: column_name, inferred_type (as CREATE
 * TABLE spells it), nullable, order_id (0, 1, ...), field_id (a Parquet
 * field id, else NULL), filenames (the files read that hold the column,
 * ", "-joined).  Parquet columns come from the footers (the types
 * read_parquet reads), CSV and JSON columns from a sample of rows (the
 * detection of read_csv / read_json).
 *
 *   CREATE TABLE [IF NOT EXISTS] name USING TEMPLATE (query)
 *
 * creates the table whose columns are the query's rows (column_name,
 * inferred_type, [nullable], [order_id]: SELECT * FROM infer_schema(...)).
 *
 * INTERFACE ROUTINES
 *   infer_schema_source(b, ctx, f, &op, &ncols, &names, &types)   in FROM (select.c)
 *   infer_template_utility(s, sql, sink, err, &rc)   CREATE TABLE ... USING TEMPLATE
 *                                                    (engine.c, before parsing)
 */
#ifndef FLOE_INGEST_INFER_H
#define FLOE_INGEST_INFER_H

#include <stdbool.h>
#include "sql/bind.h"

int infer_schema_source(BindCtx *b, ExecCtx *ctx, PgQuery__FuncCall *f, Operator **op, int *ncols,
			char ***names, SqlType **types);
bool infer_template_utility(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc);

#endif
