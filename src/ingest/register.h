/*
 * register.h — REGISTER FILES INTO t FROM 'uri': existing Parquet files
 * committed into an Iceberg table as one append snapshot, no data copied
 * (docs/loading.md).
 *
 *   REGISTER FILES INTO [catalog.][schema.]t FROM '<location>'
 *     [FILE_FORMAT [=] PARQUET | FILE_FORMAT = (TYPE = PARQUET)]
 *
 * The location is a file, a folder (every file under it), a prefix of
 * file names, or a glob ('dir/part-*.parquet'), in a stage ('@s/path'),
 * a server path or an s3:// URI, read as COPY reads server files.
 *
 * parse.c rewrites the statement to COPY t FROM '<location>' (the words
 * REGISTER FILES INTO and the options blanked); copy.c hands it here when
 * register_is finds those words in the original text.
 *
 * INTERFACE ROUTINES
 *   register_is(sql, st)                  was this COPY written REGISTER FILES INTO?
 *   register_exec(s, ctx, sql, st, sink)  list, check, commit; one result row
 *                                         files_registered | rows_registered |
 *                                         bytes_registered
 */
#ifndef FLOE_INGEST_REGISTER_H
#define FLOE_INGEST_REGISTER_H

#include <stdbool.h>
#include "sql/bind.h"

bool register_is(const char *sql, const PgQuery__CopyStmt *st);
int register_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink);

#endif
