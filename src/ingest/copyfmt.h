/*
 * copyfmt.h — COPY's formats beyond PostgreSQL's text and csv
 * (docs/loading.md), for sql/copy.c:
 *
 *   FORMAT json     out: one object per row and line, {"col":value,...}
 *                   (numbers and booleans bare, NULL null, every other
 *                   type the JSON string of its text output); in: a
 *                   sequence of objects (newline-delimited JSON) or one
 *                   array of objects, keys matched to the COPY's columns
 *                   by name (exact, else ignoring case: "userId" fills
 *                   userid; a missing key is NULL, a key naming no column
 *                   is skipped); each value parsed with the column type's
 *                   input function (a nested object or array: its JSON
 *                   text).  Bad JSON is 22P02, a row that is not an object
 *                   22P04, both with CONTEXT "COPY t, line N[, column c]".
 *   FORMAT parquet  out: one Parquet file (parquet_write.h's defaults:
 *                   zstd, dictionary pages) of the query's columns; in:
 *                   the COPY's columns read by name from each file (a
 *                   missing column is 42703, a column whose type does not
 *                   widen to the target's 42804, both naming the file).
 *
 * INTERFACE ROUTINES
 *   copyjson_row(buf, b, r, names, ncols, arena)   append row r as a line
 *   copyjson_reader_new(ctx, ncols, types, names, relname, rd, rctx)
 *   copyjson_sample(buf, len, max, a, &keys, &nkeys, &nrows, err)   (read_json, INFER_SCHEMA)
 *   copypq_write(ctx, root, names, types, ncols, out, octx, &rows)
 *   copypq_reader_new(ctx, s, io, paths, npaths, ncols, types, names, &op)
 */
#ifndef FLOE_INGEST_COPYFMT_H
#define FLOE_INGEST_COPYFMT_H

#include <stddef.h>
#include <stdint.h>
#include "common/error.h"
#include "exec/exec.h"
#include "storage/fileio.h"

/* a growing output buffer (xrealloc'd; the caller frees p) */
typedef struct CopyBuf {
	char *p;
	size_t len, cap;
} CopyBuf;

void copybuf_reserve(CopyBuf *o, size_t n);
void copybuf_mem(CopyBuf *o, const char *s, size_t n);

/* reads up to cap bytes of input; *len 0 at its end */
typedef int (*CopyReadFn)(void *rctx, char *buf, size_t cap, size_t *len, floe_error *err);
/* takes len bytes of output; nonzero: stop (the caller's error) */
typedef int (*CopyWriteFn)(void *octx, const char *data, size_t len);

void copyjson_row(CopyBuf *o, Batch *b, uint32_t r, char **names, int ncols, Arena *a);
Operator *copyjson_reader_new(ExecCtx *ctx, int ncols, const SqlType *types, char **names,
			      const char *relname, CopyReadFn rd, void *rctx);

/* Runs root to its end into one Parquet file handed to out in pieces;
 * 0A000 for a column type Parquet files cannot hold (interval); 57014
 * when out stops. */
int copypq_write(ExecCtx *ctx, Operator *root, char **names, const SqlType *types, int ncols,
		 CopyWriteFn out, void *octx, int64_t *rows);
/* read_json's detection: the keys of up to max objects in first-seen
 * order, the kinds of their values, the first strings */
enum { COPYJSON_BOOL = 1, COPYJSON_INT = 2, COPYJSON_FLOAT = 4, COPYJSON_STRING = 8, COPYJSON_NESTED = 16 };
#define COPYJSON_SAMPLE_STRINGS 64
typedef struct CopyJsonKey {
	char *name;
	unsigned kinds;           /* COPYJSON_* of its non-null values */
	char **strings;           /* the first COPYJSON_SAMPLE_STRINGS strings */
	int nstrings;
	int nvalues;              /* the objects with a non-null value of it */
	bool wide;                /* an integer value outside int32's range */
} CopyJsonKey;
/* *nrows: the objects sampled (< max: the whole text) */
int copyjson_sample(const char *buf, size_t len, int max, Arena *a, CopyJsonKey **keys, int *nkeys,
		    int *nrows, floe_error *err);
/* paths: server-side files the statement checked (acl_check_file), each
 * read once through acl_read_file (confined) and scanned from those bytes */
struct Session;
int copypq_reader_new(ExecCtx *ctx, struct Session *s, FileIO *io, char **paths, int npaths, int ncols,
		      const SqlType *types, char **names, Operator **out);

#endif
