/*
 * maintenance.h — table maintenance that deletes files: snapshot expiry
 * (expire.c) and orphan file removal (orphans.c).
 *
 * Spec: apache/iceberg format/spec.md — "Snapshot Retention Policy",
 * "Snapshot References" (min-snapshots-to-keep, max-snapshot-age-ms,
 * max-ref-age-ms), "Table Metadata" (snapshot-log, metadata-log), and
 * docs/configuration.md (history.expire.*, write.metadata.*).
 *
 * The one rule both keep: no file that a snapshot left in the table
 * metadata can reach (its manifest list, manifests, live data and delete
 * files, statistics files), nor any metadata file of the metadata log, is
 * ever deleted.
 *
 * INTERFACE ROUTINES
 *   table_expire_snapshots(cat, io, ns, name, opts, now_ms, a, &res, err)
 *   table_remove_orphans(io, t, older_than_ms, dry_run, a, &paths, &n, err)
 *   table_reachable_files(io, md, a, &set, err)   every file md reaches
 *   pathset_has(set, io, path, a)
 *   table_maintenance_property_known(key)         a property expiry acts on
 */
#ifndef FLOE_MAINTENANCE_H
#define FLOE_MAINTENANCE_H

#include <stdbool.h>
#include <stdint.h>
#include "table/table.h"

/* Defaults of the table properties (Iceberg's names; floe keeps at least
 * 5 snapshots, Gnok's default, where Iceberg Java keeps 1). */
#define EXPIRE_DEFAULT_MAX_SNAPSHOT_AGE_MS 432000000LL   /* 5 days */
#define EXPIRE_DEFAULT_MIN_SNAPSHOTS 5
#define EXPIRE_DEFAULT_PREVIOUS_VERSIONS_MAX 100
#define ORPHAN_DEFAULT_AGE_MS (3LL * 24 * 3600 * 1000)  /* 3 days */

typedef struct ExpireOptions {
	bool has_older_than;        /* else now - history.expire.max-snapshot-age-ms */
	int64_t older_than_ms;
	int retain_last;            /* > 0: branches without their own
				       min-snapshots-to-keep keep this many
				       ancestors instead of the table's setting */
} ExpireOptions;

typedef struct ExpireResult {
	int64_t expired_snapshots;
	int64_t removed_refs;
	int64_t data_files;
	int64_t position_delete_files;  /* position delete files and deletion vector files */
	int64_t equality_delete_files;
	int64_t manifests;
	int64_t manifest_lists;
	int64_t statistics_files;
	int64_t metadata_files;
} ExpireResult;

/*
 * Expire the snapshots of table ns.name that its retention no longer
 * keeps, in one metadata commit (retried on a concurrent commit), then
 * delete the files only they reached.  Retention, as Iceberg Java's
 * ExpireSnapshots:
 *   - a ref other than main whose snapshot is older than its
 *     max-ref-age-ms (else history.expire.max-ref-age-ms; default never)
 *     is removed;
 *   - each branch keeps its head and the ancestors that are among its
 *     first min-snapshots-to-keep (ref, else retain_last, else
 *     history.expire.min-snapshots-to-keep, default 5) or younger than its
 *     cutoff (now - ref max-snapshot-age-ms, else older_than, else now -
 *     history.expire.max-snapshot-age-ms, default 5 days); a tag keeps its
 *     snapshot; a snapshot no ref reaches is kept when younger than the
 *     table's cutoff.
 * The new metadata drops the expired snapshots, their statistics entries,
 * and the snapshot-log entries up to the last one naming an expired
 * snapshot (a gap would make time travel read the wrong snapshot); the
 * metadata log is cut to write.metadata.previous-versions-max (default 100)
 * entries, and when write.metadata.delete-after-commit.enabled is true the
 * metadata files cut from it are deleted.  Nothing to expire: no commit.
 */
int table_expire_snapshots(Catalog *cat, FileIO *io, const char *ns, const char *name,
			   const ExpireOptions *o, int64_t now_ms, Arena *a, ExpireResult *res,
			   floe_error *err);

/* history.expire.max-snapshot-age-ms, history.expire.min-snapshots-to-keep,
 * history.expire.max-ref-age-ms, write.metadata.previous-versions-max,
 * write.metadata.delete-after-commit.enabled */
bool table_maintenance_property_known(const char *key);

/* A set of files by resolved path (fileio_resolve). */
typedef struct PathSet {
	char **v;
	int n, cap;
	bool sorted;
} PathSet;

void pathset_add(PathSet *s, FileIO *io, const char *path, Arena *a);
bool pathset_has(PathSet *s, FileIO *io, const char *path, Arena *a);

/* Every file t's metadata reaches: the current metadata file and those of
 * its metadata log, version-hint.text, every snapshot's manifest list,
 * manifests and content files (any entry status), statistics and
 * partition statistics files.  An unreadable manifest list or manifest
 * is an error (nothing may be deleted on a guess). */
int table_reachable_files(FileIO *io, const Table *t, Arena *a, PathSet *set, floe_error *err);

/* Files under t's location (and write.data.path / write.metadata.path when
 * set elsewhere) that t does not reach and that were last modified before
 * older_than_ms: deleted unless dry_run; *paths lists them (sorted). */
int table_remove_orphans(FileIO *io, const Table *t, int64_t older_than_ms, bool dry_run,
			 Arena *a, char ***paths, int *n, floe_error *err);

#endif
