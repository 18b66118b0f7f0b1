/*
 * delete_writer.h — merge-on-read deletes: rows of data files deleted by
 * position, written the way the table's format version asks.
 *
 * Spec: apache/iceberg format/spec.md — "Position Delete Files" (v2:
 * Parquet files of (file_path, pos) with field ids 2147483546 and
 * 2147483545, sorted by file_path then pos), "Deletion Vectors" (v3: one
 * Puffin 'deletion-vector-v1' blob per data file; a new delete on a file
 * that already has a vector writes the union as a new vector and the old
 * one is removed in the same snapshot) and format/puffin-spec.md.
 *
 * Nothing is registered: the caller commits the returned delete files
 * (TableChange.add, content POSITION_DELETES) and removes the replaced
 * ones (TableChange.remove), or aborts, which removes every file written.
 *
 * INTERFACE ROUTINES
 *   delete_writer_new(io, t, arena)
 *   delete_writer_add(w, data_file, pos, n, err)   positions ascending; the
 *        DataFile as table_scan_files gave it (with its current deletes)
 *   delete_writer_finish(w, &add, &nadd, &remove, &nremove, err)
 *   delete_writer_abort(w)
 */
#ifndef FLOE_DELETE_WRITER_H
#define FLOE_DELETE_WRITER_H

#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/iceberg.h"
#include "table/table.h"

typedef struct DeleteWriter DeleteWriter;

DeleteWriter *delete_writer_new(FileIO *io, const Table *t, Arena *a);
int delete_writer_add(DeleteWriter *w, const DataFile *f, const int64_t *pos, int64_t n,
		      floe_error *err);
int delete_writer_finish(DeleteWriter *w, DataFile **add, int *nadd, char ***remove,
			 int *nremove, floe_error *err);
void delete_writer_abort(DeleteWriter *w);

#endif
