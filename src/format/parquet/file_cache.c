/*
 * file_cache.c — a process-wide cache of small Parquet data files: their
 * bytes and parsed footers (ParquetFile), so a statement that reads the
 * same small file again (a point SELECT, run thousands of times a second
 * through the wire protocol) skips open / mmap / munmap and the footer
 * parse.  Only fileio.h's inline fileio_read is used (format/ links
 * without storage/).
 *
 * Why it is safe: Iceberg data files are immutable ("Data files ... are
 * never modified", Iceberg table spec; fileio.h: data files are never
 * overwritten, and floe names them by a UUID).  A commit by another session
 * makes a new snapshot list new files; DROP and CREATE of a same-named
 * table gives new paths.  The key is the FileIO (an engine replaces its
 * FileIO when a path map is added), its root (relative paths), the path
 * and the file's size in the manifest, so two warehouses never share an
 * entry and a file that was replaced with another size anyway (by hand) is
 * read afresh.
 *
 * Bounds: files up to PF_CACHE_MAX_FILE bytes are cached (larger ones are
 * read and parsed by the caller's arena, as before); the entries together
 * hold at most PF_CACHE_BYTES (lru.h evicts the least recently used entry
 * nobody reads).  A cached ParquetFile is read-only after parquet_open (the
 * column readers keep their state in their own arenas), so any number of
 * scans share one.
 *
 * INTERFACE ROUTINES (parquet.h)
 *   parquet_open_cached(&pf, io, path, size, hold, err)
 *       the ParquetFile of the data file at path (size bytes per the
 *       manifest, < 0 if unknown: not cached); valid until hold is reset
 *   parquet_file_cache_stats(&stats)
 *
 * Invariants:
 *   1. A file is copied into its entry's arena (not mapped), so the entry's
 *      arena_bytes is what it holds and the bound is real.
 *   2. Errors (missing file, corrupt file) are never cached.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "common/lru.h"
#include "format/parquet/parquet.h"
#include "storage/fileio.h"

#define PF_CACHE_BYTES ((size_t)64 << 20)
#define PF_CACHE_MAX_FILE ((size_t)4 << 20)

static Lru *cache;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void
cache_init(void)
{
	cache = lru_new(PF_CACHE_BYTES);
}

int
parquet_open_cached(ParquetFile **out, FileIO *io, const char *path, int64_t size, Arena *hold,
		    floe_error *err)
{
	const uint8_t *data;
	size_t len;
	char *key;
	Arena *own, *tmp;
	ParquetFile *pf;
	int rc;

	if (size <= 0 || (uint64_t)size > PF_CACHE_MAX_FILE) {
		TRY(fileio_read(io, path, hold, &data, &len, err));
		return parquet_open(out, data, len, path, hold, err);
	}
	pthread_once(&cache_once, cache_init);
	key = arena_sprintf(hold, "%p:%s:%lld:%s", (void *)io, io->root ? io->root : "", (long long)size,
			    path);
	if ((*out = lru_get(cache, key, hold)) != NULL)
		return FLOE_OK;
	tmp = arena_new(0);
	own = arena_new((size_t)size + 4096);
	rc = fileio_read(io, path, tmp, &data, &len, err);
	if (rc == FLOE_OK && len != (size_t)size) {
		/* not the size the manifest gives: read it, uncached */
		arena_free(tmp);
		arena_free(own);
		TRY(fileio_read(io, path, hold, &data, &len, err));
		return parquet_open(out, data, len, path, hold, err);
	}
	if (rc == FLOE_OK) {
		const uint8_t *copy = arena_memdup(own, data, len);
		rc = parquet_open(&pf, copy, len, path, own, err);
	}
	arena_free(tmp);                 /* the mapping goes: own has the bytes */
	if (rc != FLOE_OK) {
		arena_free(own);
		return FLOE_ERR;
	}
	*out = lru_put(cache, key, own, pf, hold);
	return FLOE_OK;
}

void
parquet_file_cache_stats(LruStats *stats)
{
	pthread_once(&cache_once, cache_init);
	lru_stats(cache, stats);
}
