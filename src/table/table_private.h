/*
 * table_private.h — table.c's helpers that other files of table/ share
 * (folder-private: the `table__` prefix; nothing outside table/ includes
 * this).  rewrite_manifests.c writes manifests and snapshots with them.
 *
 *   table__new_uuid(a)                        a random (v4) UUID string
 *   table__new_snapshot_id()                  a positive 63-bit id, as Iceberg Java's
 *   table__metadata_dir(md, a)                write.metadata.path or <location>/metadata
 *   table__read_manifest_list(io, snap, a, &mf, &n, err)   (v1 manifests too)
 *   table__read_entries(io, m, a, &e, &n, err)   with inherited snapshot ids,
 *                                             sequence numbers, first row ids
 *   table__write_info(md, spec, &info, a, err)   a data manifest's header of spec
 *   table__merge_live(io, md, spec, mf, idx, nidx, snapshot_id, seq, path, a, &out,
 *                     &nlive, &nread, err)   the live entries of mf[idx[..]] as one
 *                                             manifest of EXISTING entries (table.c)
 */
#ifndef FLOE_TABLE_PRIVATE_H
#define FLOE_TABLE_PRIVATE_H

#include "table/manifest.h"
#include "table/table.h"

char *table__new_uuid(Arena *a);
int64_t table__new_snapshot_id(void);
char *table__metadata_dir(const TableMetadata *md, Arena *a);
int table__read_manifest_list(FileIO *io, const Snapshot *snap, Arena *a, ManifestFile **mf,
			      int *n, floe_error *err);
int table__read_entries(FileIO *io, const ManifestFile *m, Arena *a, ManifestEntry **e, int *n,
			floe_error *err);
int table__write_info(const TableMetadata *md, const PartitionSpec *spec, ManifestWriteInfo *info,
		      Arena *a, floe_error *err);
int table__merge_live(FileIO *io, const TableMetadata *md, const PartitionSpec *spec,
		      const ManifestFile *mf, const int *idx, int nidx, int64_t snapshot_id, int64_t seq,
		      const char *path, Arena *a, ManifestFile *out, int *nlive, int64_t *nread,
		      floe_error *err);

#endif
