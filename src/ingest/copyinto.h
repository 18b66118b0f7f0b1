/*
 * copyinto.h — COPY INTO t FROM '<location>' [options]: loading a stage's
 * files in one Iceberg commit (docs/loading.md).
 *
 *   COPY INTO [schema.]t [(cols)] FROM '@stage/path' | 'path' | 's3://...'
 *     [FILE_FORMAT = (TYPE = CSV | JSON | PARQUET [, option = value ...])]
 *     [PATTERN = 'regex'] [ON_ERROR = ABORT_STATEMENT | CONTINUE | SKIP_FILE]
 *     [MAX_ERRORS = n] [FORCE = TRUE | FALSE]
 *
 * parse.c blanks INTO and the options before libpg_query sees the text
 * (it parses as COPY t FROM 'location'); copy.c hands such a statement
 * here (copyinto_is), which reads the options from the original text.
 *
 * INTERFACE ROUTINES
 *   copyinto_is(sql, st)                 was this COPY written COPY INTO?
 *   copyinto_exec(s, ctx, sql, st, sink)
 */
#ifndef FLOE_INGEST_COPYINTO_H
#define FLOE_INGEST_COPYINTO_H

#include <stdbool.h>
#include "sql/bind.h"

bool copyinto_is(const char *sql, const PgQuery__CopyStmt *st);
int copyinto_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink);

#endif
