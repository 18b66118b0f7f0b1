/*
 * deletes.h — the delete files that apply to one data file (as scan
 * planning attached them to DataFile.deletes), loaded into a DeleteSet:
 * the deleted row positions (position delete files and deletion vectors)
 * and the equality-delete key sets.
 *
 * Spec: apache/iceberg format/spec.md — "Position Delete Files",
 * "Deletion Vectors", "Equality Delete Files", "Scan Planning";
 * format/puffin-spec.md (deletion-vector-v1).
 *
 * Position delete rows are matched to the data file by path AFTER the
 * FileIO prefix mapping (fileio_resolve), so two spellings of one root
 * (Impala's "/w/..." and "hdfs://host/w/...") match.  Rows whose file_path
 * is NULL (a malformed file) are skipped, as Impala does.  Equality delete
 * values are read by field id and cast to the schema's column types;
 * NULL equals NULL.  Corrupt delete files are XX001 naming the file.
 *
 * A DeleteLoader caches parsed delete files by path (one delete file
 * usually applies to many data files of a scan); it lives in the arena
 * given to deletes_loader_new.
 *
 * INTERFACE ROUTINES
 *   deletes_loader_new(io, schema, arena)
 *   deletes_load(loader, data_file, arena, &set, err)  set NULL: nothing deleted
 *   deletes_pos_deleted(set, pos)                 is position pos deleted
 *   deletes_eq_match(eq, vals)                    is this key deleted
 *   deletes_file_positions(io, data_file, arena, &pos, &n, err)
 *        the sorted distinct positions every delete of data_file names
 *        (what a new deletion vector must include)
 */
#ifndef FLOE_DELETES_H
#define FLOE_DELETES_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/iceberg.h"

typedef struct EqKeySet EqKeySet;

/* The keys of one equality delete file. */
typedef struct EqDelete {
	int nids;
	int32_t *ids;            /* equality field ids */
	int *cols;               /* their index in the loader's schema */
	SqlType *types;          /* the schema's types of those columns */
	EqKeySet *keys;
} EqDelete;

typedef struct DeleteSet {
	int64_t npos;
	const int64_t *pos;      /* sorted, distinct */
	int neq;
	EqDelete **eq;
} DeleteSet;

typedef struct DeleteLoader DeleteLoader;

DeleteLoader *deletes_loader_new(FileIO *io, const IcebergSchema *schema, Arena *a);
/* The set lives in arena a (the cached delete files in the loader's). */
int deletes_load(DeleteLoader *l, const DataFile *f, Arena *a, DeleteSet **out, floe_error *err);
bool deletes_pos_deleted(const DeleteSet *s, int64_t pos);
/* vals[i]: the row's value of eq->ids[i], of type eq->types[i]. */
bool deletes_eq_match(const EqDelete *eq, const Value *vals);
int deletes_file_positions(FileIO *io, const DataFile *f, Arena *a, int64_t **pos, int64_t *n,
			   floe_error *err);

#endif
