/*
 * stage.h — stages: named folders of files to load (docs/loading.md).
 *
 * '@name[/path]' is <warehouse>/stages/name[/path]: a folder of the
 * warehouse's own storage (local, or the S3 bucket and prefix of an
 * s3:// warehouse).  No CREATE STAGE: a stage exists once a file is in it.
 * A name is letters, digits, '_', '-' and '.', not starting with '.'; a
 * path with a ".." part is refused (42602).  A plain path or s3:// URI is
 * taken as it is.  Reading either is a server-file read (acl_check_file:
 * superusers and pg_read_server_files members, inside the allowed
 * folders).
 *
 * A location names a folder (every file under it), one file, or a prefix
 * of file names ('@s/run1/part-'): stage_list gives the files it covers,
 * sorted by path, each with its path relative to the location's folder
 * (what PATTERN is matched against).  Files and folders whose names start
 * with '.' or '_' (hidden, and floe's own _rejected/) are left out.
 *
 * INTERFACE ROUTINES
 *   stage_resolve(s, loc, a, &path, err)
 *   stage_list(s, path, a, &files, &n, err)
 *   stage_compression(name, option)      STAGE_NONE / GZIP / ZSTD
 *   stage_inflate(kind, in, n, &out, &outlen, name, err)   (inflate.c)
 *   stage_utility(s, sql, sink, err, &rc)   LIST @stage[/path] [PATTERN = 're']
 *   stage_read_sparse(io, path, size, a, &data, &whole, err)
 *                                        an object's head and footer (Parquet)
 *                                        in a buffer of its size
 */
#ifndef FLOE_INGEST_STAGE_H
#define FLOE_INGEST_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"

struct Session;
struct ResultSink;
struct FileIO;

typedef struct StageFile {
	char *path;               /* as FileIO reads it */
	char *rel;                /* relative to the location's folder */
	uint64_t size;
	int64_t mtime_ms;
} StageFile;

enum { STAGE_NONE, STAGE_GZIP, STAGE_ZSTD };

int stage_resolve(struct Session *s, const char *loc, Arena *a, char **path, floe_error *err);
int stage_list(struct Session *s, const char *path, Arena *a, StageFile **files, int *n,
	       floe_error *err);
/* by the name's extension (.gz, .gzip, .zst, .zstd) unless option is
 * "GZIP" / "ZSTD" / "NONE" ("AUTO" or NULL: the extension) */
int stage_compression(const char *name, const char *option);
int stage_inflate(int kind, const uint8_t *in, size_t n, char **out, size_t *outlen, const char *name,
		  floe_error *err);
bool stage_utility(struct Session *s, const char *sql, struct ResultSink *sink, floe_error *err,
		   int *rc);
/* Parquet object path of size bytes (>= 12, else 22P04): a zeroed buffer
 * of that size with its first 4 bytes and its footer read in, valid until
 * a resets; *whole when the object was read whole (<= 64 KiB) */
int stage_read_sparse(struct FileIO *io, const char *path, uint64_t size, Arena *a, const uint8_t **data,
		      bool *whole, floe_error *err);

#endif
