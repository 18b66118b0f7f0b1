/*
 * fileio.h — the file-io interface: how everything above storage/ reads and
 * writes files (local disk now; S3 later behind the same vtable).
 *
 * Paths are URIs or plain paths as Iceberg metadata holds them
 * ("file:///x/y", "/x/y", "s3://b/k", "s3a://b/k").  One FileIO serves
 * every scheme: after the prefix maps, an s3:// or s3a:// path goes to the
 * S3 client (storage/fileio_s3.c, configured from the AWS environment and
 * fileio_set_property), anything else to local disk.  The root may be a
 * folder or an s3:// prefix (an S3 warehouse).  A FileIO may carry prefix
 * mappings (fileio_map_prefix) so a table written elsewhere
 * ("s3://bucket/wh/t" or "/home/spark/wh/t") is read from a local folder.
 *
 * Contract:
 *   - read_file maps or reads the whole object; the bytes stay valid until
 *     the arena passed in is reset (the mapping is released by an arena
 *     reset callback).
 *   - write_file creates a NEW object with the given bytes, atomically
 *     (temp file + fsync + rename on local disk, or a single PUT on S3);
 *     it fails with 58P02 if the object already exists.  Data files and
 *     metadata files are never overwritten.
 *   - errors: 58P01 missing file, 58030 other I/O failures, message names
 *     the path.
 *
 * INTERFACE ROUTINES
 *   fileio_local_new(root)            local backend; relative paths resolve
 *                                     against root
 *   fileio_free(io)
 *   fileio_map_prefix(io, from, to)   rewrite paths starting with `from`
 *   fileio_read(io, path, arena, &data, &len, err)
 *   fileio_confine(io, dir, err)       floe serve: local files only beneath
 *                                     dir (and the other dirs given), opened
 *                                     without following symbolic links
 *   fileio_map_fd(fd, path, arena, &data, &len, err)
 *                                     read a local file already opened (a
 *                                     descriptor from storage/confined_open.h)
 *                                     as read_file reads one; closes fd
 *   fileio_write(io, path, data, len, err)
 *   fileio_size(io, path, &size, err)
 *   fileio_exists(io, path)
 *   fileio_remove(io, path, err)
 *   fileio_resolve(io, path, arena)   the local path a URI maps to
 *   fileio_list(io, folder, arena, &files, &n, err)   every file under a
 *                                     folder (recursive; 0A000 where the
 *                                     backend cannot list)
 *   fileio_sweep_tmp(root, now)       remove stale temporary files of
 *                                     interrupted local writes
 *   fileio_replace(io, path, data, len, err)
 *                                     write, replacing an existing object
 *                                     (COPY TO; never for Iceberg files)
 *   fileio_read_ranges(io, path, ranges, n, arena, err)
 *                                     several byte ranges of one file (S3:
 *                                     coalesced, parallel range GETs)
 *   fileio_set_property(io, key, value, err)
 *                                     an Iceberg S3FileIO property
 *                                     (s3.endpoint, s3.access-key-id, ...)
 *   fileio_is_remote(path)            an s3:// / s3a:// URI
 *   fileio_stats(&st)                 process-wide object-store counters
 *                                     (requests, GET/PUT/..., cache hits)
 */
#ifndef FLOE_FILEIO_H
#define FLOE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "common/arena.h"
#include "common/error.h"

typedef struct FileIO FileIO;

/* One file of a listing: its path (as the backend spells it: the local
 * path for local disk), size and modification time. */
typedef struct FileInfo {
	char *path;
	uint64_t size;
	int64_t mtime_ms;
} FileInfo;

typedef struct FileIOVT {
	int (*read)(FileIO *io, const char *path, Arena *arena,
		    const uint8_t **data, size_t *len, floe_error *err);
	int (*write)(FileIO *io, const char *path, const void *data, size_t len,
		     floe_error *err);
	int (*size)(FileIO *io, const char *path, uint64_t *size, floe_error *err);
	bool (*exists)(FileIO *io, const char *path);
	int (*remove)(FileIO *io, const char *path, floe_error *err);
	void (*free)(FileIO *io);
	/* every file under folder, recursively; a missing folder lists none */
	int (*list)(FileIO *io, const char *folder, Arena *arena, FileInfo **files, int *n,
		    floe_error *err);
} FileIOVT;

typedef struct FileIOMap {
	char *from;
	char *to;
} FileIOMap;

struct S3Config;
struct S3Client;

struct FileIO {
	const FileIOVT *vt;
	char *root;
	FileIOMap *maps;
	int nmaps;
	/* object storage (fileio_s3.c), made on first use */
	struct S3Config *s3cfg;     /* NULL: the environment's */
	struct S3Client *_Atomic s3;
	/* a local folder for the engine's own notes (orphan-candidates) when
	 * the root is not local; NULL: the root */
	char *local_dir;
	/* floe serve (fileio_confine): the real folders local files may be
	 * in; every local open, create, rename and removal then goes beneath
	 * one of them without following a symbolic link.  0: unconfined */
	char **confine;
	char **confine_prefix;     /* per folder: NULL, or what the name of
				      the first component below it begins with */
	int nconfine;
};

typedef struct FileIORange {
	uint64_t off, len;          /* in */
	const uint8_t *data;        /* out: len bytes, valid until the arena resets */
} FileIORange;

typedef struct FileIOStats {
	uint64_t requests;          /* HTTP requests, retries included */
	uint64_t gets, puts, heads, deletes, lists, retries;
	uint64_t bytes_in, bytes_out, cache_hits;
} FileIOStats;

FileIO *fileio_local_new(const char *root);
/* Confine io's local files to folder dir (its real path) and the others
 * given (see struct FileIO).  FLOE_ERR: dir cannot be resolved. */
int fileio_confine(FileIO *io, const char *dir, floe_error *err);
/* ... only the entries of dir whose names begin with prefix (and what is
 * below them): the temporary tables' $TMPDIR/floe-temp-<pid>-* */
int fileio_confine_prefix(FileIO *io, const char *dir, const char *prefix, floe_error *err);
void fileio_free(FileIO *io);
void fileio_map_prefix(FileIO *io, const char *from, const char *to);
char *fileio_resolve(FileIO *io, const char *path, Arena *arena);

/* Temporary files of local writes that never finished (a process killed
 * mid-write), under the folder root: removed when older than
 * FILEIO_TMP_STALE_SECONDS, or than FILEIO_TMP_DEAD_SECONDS when the
 * process named in them is gone.  Returns how many were removed. */
#define FILEIO_TMP_STALE_SECONDS 3600
#define FILEIO_TMP_DEAD_SECONDS 60
int fileio_sweep_tmp(const char *root, time_t now);

/* The bytes of the local file open on fd (O_RDONLY; O_NONBLOCK so a FIFO
 * does not wait), as a local read_file gives them: mapped until arena
 * resets; not a regular file (a FIFO, a device, a folder) 58030; path only
 * names the file in errors.  fd is closed in every case. */
int fileio_map_fd(int fd, const char *path, Arena *arena, const uint8_t **data, size_t *len,
		  floe_error *err);
int fileio_replace(FileIO *io, const char *path, const void *data, size_t len, floe_error *err);
int fileio_read_ranges(FileIO *io, const char *path, FileIORange *ranges, int n, Arena *arena,
		       floe_error *err);
int fileio_set_property(FileIO *io, const char *key, const char *value, floe_error *err);
bool fileio_is_remote(const char *path);
void fileio_stats(FileIOStats *st);

static inline int
fileio_read(FileIO *io, const char *path, Arena *arena, const uint8_t **data,
	    size_t *len, floe_error *err)
{
	return io->vt->read(io, path, arena, data, len, err);
}

static inline int
fileio_write(FileIO *io, const char *path, const void *data, size_t len,
	     floe_error *err)
{
	return io->vt->write(io, path, data, len, err);
}

static inline int
fileio_size(FileIO *io, const char *path, uint64_t *size, floe_error *err)
{
	return io->vt->size(io, path, size, err);
}

static inline bool
fileio_exists(FileIO *io, const char *path)
{
	return io->vt->exists(io, path);
}

static inline int
fileio_remove(FileIO *io, const char *path, floe_error *err)
{
	return io->vt->remove(io, path, err);
}

int fileio_list(FileIO *io, const char *folder, Arena *arena, FileInfo **files, int *n,
		floe_error *err);

#endif
