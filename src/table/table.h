/*
 * table.h — the table operations SQL calls: create, load, register, drop,
 * append commit, and scan planning (the live data files of a snapshot).
 *
 * A Table is a snapshot of the catalog's view: the metadata location the
 * catalog held when it was loaded and the parsed metadata.  It lives in the
 * arena passed to the call that produced it.  Commits go through the
 * catalog's compare-and-swap (catalog_swap_table) from the Table's
 * metadata_location to the new one; see table.c for the commit protocol.
 * Table.md is read-only: it may be shared through the metadata cache.
 *
 * floe-only column facts that Iceberg cannot hold are table properties,
 * applied to every schema's IcebergField by table_load (and by the other
 * calls that return a Table):
 *   "floe.column.<field-id>.pg-type"  PostgreSQL type name when it differs
 *        from the Iceberg type's default: smallint, character varying(n),
 *        character(n), numeric (unconstrained: decimal(38,10) in Iceberg)
 *   "floe.column.<field-id>.default"  the column DEFAULT as SQL text
 *
 * Paths: a table whose metadata holds "s3://b/x" or "/home/u/x" is read
 * from a local folder through the FileIO's prefix maps (fileio_map_prefix),
 * set by the caller before table_register / table_load.
 *
 * INTERFACE ROUTINES
 *   table_create(cat, io, location, ns, name, schema, keys, values, nprops, a, &t, err)
 *   table_load(cat, io, ns, name, a, &t, err)                 42P01 if missing
 *   table_register(cat, io, ns, name, metadata_location, err)
 *   table_drop(cat, io, ns, name, purge, err)
 *   table_commit(cat, io, base, change, a, &t, err)           one snapshot, retried
 *   table_stage(io, head, change, a, &staged, &written, &n, err)  all but the swap
 *   table_rebase_check(io, from, to, change, a, err)          before re-staging on a new head
 *   table_ingest_seq(md)        the highest "floe.ingest-seq" of md's snapshots (0: none):
 *                               the insert buffer's rows up to it are committed
 *   table_publish_staged(cat, io, head, staged, written, n, job, a, err)  its swap
 *   table_commit_append(cat, io, base, files, n, job_id, a, &t, err)
 *   table_commit_replace(cat, io, base, paths, n, all, add, nadd, job, a, &t, err)
 *                                                             DELETE/UPDATE/TRUNCATE (copy-on-write)
 *   table_commit_metadata(cat, io, base, md, a, &t, err)     schema/property change
 *   table_commit_outcome(cat, io, ns, name, loc, job, swap_err, a, &head)
 *                                                             did a failed swap land?
 *   table_holds_commit(t, loc, job), table_record_orphans(io, job, paths, n),
 *   table_unknown_outcome(io, job, paths, n, err), table_new_job_id(a)
 *   table_scan_files(io, t, snapshot_id, a, &files, &n, err)  -1 = current
 *   table_scan_delete_files(files, n, a, &deletes)           their delete files, each once
 *   table_apply_floe_properties(md)                           (table_load does it)
 *   table_pg_type_prop(type, a)                               "floe.column.<id>.pg-type" value or NULL
 *   table_data_dir(t, a)                                      where new data files go
 *   table_metadata_cache_stats(&hits, &misses)
 *   table_scan_cache_stats(&hits, &misses)                    table_scan_files' plan cache
 *   table_lineage_schema(schema, a)                           + _row_id, _last_updated_seq
 *   table_assign_row_ids(next_row_id, list, n)                v3 first_row_id assignment
 */
#ifndef FLOE_TABLE_H
#define FLOE_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include "catalog/catalog.h"
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/iceberg.h"
#include "table/metadata.h"

typedef struct Table {
	char *ns;
	char *name;
	char *metadata_location;
	TableMetadata *md;
	/* A write view (table/branch.h), NULL / false on a loaded table:
	 * branch: md's current snapshot is that branch's head (scans read it)
	 * and a commit moves that ref, not main (main_* is the table's own
	 * current snapshot, restored in the new metadata); wap_id: a commit
	 * is staged (its snapshot carries "wap.id" and no ref moves). */
	const char *branch;
	bool main_has_snapshot;
	int64_t main_snapshot_id;
	const char *wap_id;
} Table;

/* Retries of an append whose CAS lost to a concurrent commit. */
#define TABLE_COMMIT_MAX_TRIES 8

/* format-version 2 (or the reserved property "format-version" = 1, 2 or
 * 3 among the keys: the first metadata file's version, not stored),
 * unpartitioned spec 0, unsorted order 0, field ids
 * 1..n assigned here (schema->fields[i].id is ignored), metadata written to
 * <location>/metadata/00000-<uuid>.metadata.json, then registered.
 * location NULL: "<io root>/<ns>/<name>". */
int table_create(Catalog *cat, FileIO *io, const char *location, const char *ns,
		 const char *name, const IcebergSchema *schema, const char *const *prop_keys,
		 const char *const *prop_values, int nprops, Arena *a, Table **out,
		 floe_error *err);

int table_load(Catalog *cat, FileIO *io, const char *ns, const char *name, Arena *a,
	       Table **out, floe_error *err);

/* Register an existing table by its metadata file (validated first). */
int table_register(Catalog *cat, FileIO *io, const char *ns, const char *name,
		   const char *metadata_location, floe_error *err);

/* Remove from the catalog; purge also deletes the table's files that lie
 * under its location (best effort). */
int table_drop(Catalog *cat, FileIO *io, const char *ns, const char *name, bool purge,
	       floe_error *err);

/* What one snapshot changes.  remove: paths of live files (as
 * table_scan_files gives them), any order, duplicates allowed.  Both may
 * hold delete files (content 1/2; written to delete manifests): naming a
 * Puffin file in remove retires only the deletion vectors whose data file
 * gets a new vector in the same change or is itself removed; position
 * deletes and vectors that name only a removed data file go with it. */
typedef struct TableChange {
	const DataFile *add;          /* new data and delete files */
	int nadd;
	const char *const *remove;
	int nremove;
	bool remove_all;              /* every live data file (TRUNCATE, INSERT OVERWRITE) */
	const char *job_id;           /* "floe.job-id" in the snapshot summary; may be NULL */
	const char *operation;        /* snapshot operation ("replace": compaction);
					 NULL: derived from what is added/removed */
	/* Called before a re-based attempt (table_commit's retry) stages on a
	 * new head: from = the head the change was last checked on, to = the
	 * new one.  Non-OK ends the commit with its error (the SQL layer's
	 * PRIMARY KEY re-check, keycheck.h).  NULL: none. */
	int (*rebase_check)(void *arg, const Table *from, const Table *to, Arena *a,
			    floe_error *err);
	void *rebase_arg;
	/* a key clash found at re-base is 40001, not 23505 (ON CONFLICT: the
	 * statement must decide again); read by the SQL layer */
	bool key_clash_retry;
	/* an insert-buffer flush (ingest/): the highest buffer sequence it
	 * holds, "floe.ingest-seq" in the snapshot summary; 0: none */
	uint64_t ingest_seq;
	/* more snapshot summary entries (at most 8: a cherry-pick's
	 * source-snapshot-id, published-wap-id) */
	const MdProp *summary;
	int nsummary;
	/* table properties the same commit sets where the head it is staged
	 * on has no such key (REGISTER FILES' schema.name-mapping.default):
	 * one metadata file holds them and the snapshot */
	const MdProp *init_props;
	int ninit_props;
} TableChange;

/* One commit of `ch` on base: stage it (below) and compare-and-swap the
 * catalog from base's metadata location; on a concurrent commit re-based on
 * the new head and retried while every file to remove is still live
 * (else 40001).  An empty change -> no commit, *out = base.  A failed swap
 * is resolved (table_commit_outcome): landed -> success; unknown -> 08006,
 * its metadata files kept and listed (the caller keeps and lists ch->add:
 * txn_commit_failed). */
int table_commit(Catalog *cat, FileIO *io, Table *base, const TableChange *ch, Arena *a,
		 Table **out, floe_error *err);

/*
 * The outcome of a commit whose catalog call (swap or create) to metadata
 * file loc, job id job (either may be NULL) failed with swap_err: the
 * table is re-read (*head, NULL when it cannot be).  LANDED: it holds loc
 * (current or in its metadata log) or a snapshot with job; else UNKNOWN
 * when swap_err is 08006 (the swap may still land) or a 40001 that cannot
 * be checked (the re-read failed); else NOT_LANDED: the files it wrote may
 * go.  Every caller of a catalog swap decides what to delete with it.
 */
typedef enum { COMMIT_NOT_LANDED, COMMIT_LANDED, COMMIT_UNKNOWN } CommitOutcome;
CommitOutcome table_commit_outcome(Catalog *cat, FileIO *io, const char *ns, const char *name,
				   const char *loc, const char *job, const floe_error *swap_err,
				   Arena *a, Table **head);
/* Does t hold the commit of metadata file loc or job id job? */
bool table_holds_commit(const Table *t, const char *loc, const char *job);
/* Append "<job>\t<path>" lines to <io root>/orphan-candidates: files of a
 * commit with an unknown outcome, kept for a later cleanup to delete those
 * no snapshot references. */
void table_record_orphans(FileIO *io, const char *job, const char *const *paths, int n);
/* COMMIT_UNKNOWN's end: list paths (table_record_orphans), make err 08006
 * (outcome unknown, the files kept); returns FLOE_ERR. */
int table_unknown_outcome(FileIO *io, const char *job, const char *const *paths, int n,
			  floe_error *err);
/* A fresh job id (a commit's "floe.job-id", what table_commit_outcome
 * looks for): "floe-<time>-<64 random bits>", unique across processes and
 * nodes (never random(): unseeded, every process draws the same ids). */
void table_job_id(char *buf, size_t n);
const char *table_new_job_id(Arena *a);

/* Everything of a commit but the swap: write the manifests, manifest list
 * and metadata file of `ch` applied to head, and return the table as it
 * would be (staged->metadata_location is the new file, not yet in the
 * catalog) and the paths written (remove them if it never lands).
 * 40001 when a file to remove is no longer live in head.  Transactions
 * stage, then swap every table they changed at once. */
int table_stage(FileIO *io, const Table *head, const TableChange *ch, Arena *a, Table **staged,
		char ***written, int *nwritten, floe_error *err);

/* What a re-base of ch from head `from` onto head `to` needs besides
 * table_stage's checks (table_commit does it on each retry; a transaction
 * calls it before re-staging): 40001 when a data file ch removes got a
 * delete in between (its rewrite would bring the deleted rows back), or a
 * position ch deletes (v2 position delete files) was deleted in between
 * (the row was changed twice). */
uint64_t table_ingest_seq(const TableMetadata *md);
int table_rebase_check(FileIO *io, const Table *from, const Table *to, const TableChange *ch,
		       Arena *a, floe_error *err);

/* The swap of a table_stage'd change with no re-base (OPTIMIZE): head's
 * location -> staged's; a failure is resolved (table_commit_outcome):
 * landed -> FLOE_OK; not landed -> written removed, the catalog's error;
 * unknown -> written kept and listed, 08006. */
int table_publish_staged(Catalog *cat, FileIO *io, const Table *head, const Table *staged,
			 char **written, int nwritten, const char *job, Arena *a, floe_error *err);

/* One "append" commit of n data files (n == 0: no commit, *out = base).
 * Re-based on the new head and retried on a concurrent commit. */
int table_commit_append(Catalog *cat, FileIO *io, Table *base, const DataFile *files, int n,
			const char *job_id, Arena *a, Table **out, floe_error *err);

/* Copy-on-write commit: remove data files (by path, as scan_files gives
 * them) or all live data files (remove_all), and add new ones, in one
 * snapshot ("delete", "overwrite" or "append").  Retried on a concurrent
 * commit while the files to remove are still live; else 40001.
 * Nothing to do -> no commit, *out = base. */
int table_commit_replace(Catalog *cat, FileIO *io, Table *base, const char *const *remove_paths,
			 int nremove, bool remove_all, const DataFile *add, int nadd,
			 const char *job_id, Arena *a, Table **out, floe_error *err);

/* Commit an edited metadata_copy(base->md, ...) as is (schema, property
 * changes): new metadata file, metadata-log entry, CAS from base; a
 * concurrent commit makes it fail with 40001 (the caller re-applies). */
int table_commit_metadata(Catalog *cat, FileIO *io, const Table *base, TableMetadata *md,
			  Arena *a, Table **out, floe_error *err);

/* Live data files of a snapshot (-1 = current; none -> n = 0), each with
 * its data sequence number and the live delete files that apply to it
 * (DataFile.deletes, by the spec's sequence-number rules). */
int table_scan_files(FileIO *io, const Table *t, int64_t snapshot_id, Arena *a,
		     DataFile **files, int *n, floe_error *err);
/* The delete files that table_scan_files' files carry, each once (one may
 * apply to several data files; a deletion vector is its path plus content
 * offset), in first-seen order.  Returns how many. */
int table_scan_delete_files(const DataFile *files, int n, Arena *a, const DataFile ***out);
/* table_scan_files caches plans by manifest list (table.c): the DataFile
 * array is the caller's, what its entries point to is shared: read-only.
 * Counters for tests. */
void table_scan_cache_stats(uint64_t *hits, uint64_t *misses);

void table_apply_floe_properties(TableMetadata *md);

/* Parsed metadata is cached by resolved location (files are immutable);
 * Table.md may be shared: treat it as read-only.  Counters for tests. */
void table_metadata_cache_stats(uint64_t *hits, uint64_t *misses);

/* Folder for new data files: property write.data.path, else
 * <location>/data (Iceberg's default). */
char *table_data_dir(const Table *t, Arena *a);

/* v3 row lineage (spec "Row Lineage"): a copy of `s` with the two
 * reserved columns appended, in this order: _row_id (field id
 * ICEBERG_FIELD_ROW_ID) and _last_updated_sequence_number
 * (ICEBERG_FIELD_LAST_UPDATED_SEQ), both optional long.  For writers that
 * keep lineage across a rewrite (data_writer with this schema): kept rows
 * write both values as scanned (SCAN_PROJ_ROW_ID / SCAN_PROJ_LAST_UPDATED_SEQ),
 * updated rows keep _row_id and write NULL _last_updated_sequence_number,
 * inserted rows write NULL for both.  Never a table schema: commit the files
 * as usual (the reserved columns' metrics are accepted). */
#define TABLE_LINEAGE_ROW_ID_NAME "_row_id"
#define TABLE_LINEAGE_SEQ_NAME "_last_updated_sequence_number"
IcebergSchema *table_lineage_schema(const IcebergSchema *s, Arena *a);

/* The commit's First Row ID Assignment over a new manifest list (v3):
 * data manifests without first_row_id get one from `next` on, which grows
 * by their added + existing rows; returns the new next-row-id.  Exposed
 * for the unit test of the arithmetic. */
int64_t table_assign_row_ids(int64_t next, ManifestFile *list, int n);

/* The "floe.column.<id>.pg-type" value for a column of type t, or NULL
 * when the Iceberg type's default PostgreSQL type is t. */
const char *table_pg_type_prop(SqlType t, Arena *a);

#endif
