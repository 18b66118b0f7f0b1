/*
 * rewrite_manifests.c — merge a snapshot's manifests (see
 * rewrite_manifests.h for the rules).
 *
 * One attempt per head:
 *   1. load; the current snapshot's manifest list; group the manifests by
 *      (content, partition spec)
 *   2. per group to rewrite: its entries (sequence numbers and first row
 *      ids inherited, table__read_entries), the live ones written as
 *      EXISTING to one new manifest
 *   3. the new manifest list (new manifests, then the kept ones; v3 row
 *      ranges: a new data manifest keeps its entries' lowest first_row_id)
 *      and a "replace" snapshot, committed with table_commit_metadata
 *   4. a concurrent commit (40001): remove what 2-3 wrote, back to 1
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "table/rewrite_manifests.h"
#include "table/table_private.h"

typedef struct Written {
	char **v;
	int n, cap;
} Written;

static void
note(Written *w, char *path, Arena *a)
{
	if (w->n == w->cap) {
		int cap = w->cap ? w->cap * 2 : 16;
		w->v = arena_realloc(a, w->v, sizeof(char *) * (size_t)w->cap,
				     sizeof(char *) * (size_t)cap);
		w->cap = cap;
	}
	w->v[w->n++] = path;
}

static int64_t
now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static bool
same_group(const ManifestFile *x, const ManifestFile *y)
{
	return x->content == y->content && x->partition_spec_id == y->partition_spec_id;
}

/* Merge group g (indices into mf) into *out (table__merge_live); *wrote
 * false when no entry is live (the group goes away). */
static int
merge_group(FileIO *io, const TableMetadata *md, const ManifestFile *mf, const int *g, int ng,
	    int64_t snapshot_id, int64_t seq, const char *path, Arena *a, Written *w,
	    ManifestFile *out, bool *wrote, int64_t *entries, floe_error *err)
{
	const PartitionSpec *spec = metadata_spec_by_id(md, mf[g[0]].partition_spec_id);
	int nlive;

	*wrote = false;
	if (!spec)
		return floe_errorf(err, ERRCODE_DATA_CORRUPTED,
				   "manifest \"%s\" names unknown partition spec %d",
				   mf[g[0]].manifest_path, (int)mf[g[0]].partition_spec_id);
	TRY(table__merge_live(io, md, spec, mf, g, ng, snapshot_id, seq, path, a, out, &nlive,
			      entries, err));
	if (nlive > 0)
		note(w, (char *)path, a);
	*wrote = nlive > 0;
	return FLOE_OK;
}

static void
set_summary(Snapshot *s, Arena *a, const char *key, int64_t v)
{
	s->summary[s->nsummary].key = (char *)key;
	s->summary[s->nsummary++].value = arena_sprintf(a, "%" PRId64, v);
}

/* One attempt on head (see the steps above). *done false: nothing to do. */
static int
attempt(Catalog *cat, FileIO *io, const Table *head, int spec_id, Arena *a, Written *w,
	RewriteManifestsResult *res, bool *done, floe_error *err)
{
	const TableMetadata *hmd = head->md;
	const Snapshot *cur = metadata_current_snapshot(hmd);
	ManifestFile *mf, *list;
	TableMetadata *md;
	Snapshot *snap;
	Table *out;
	const uint8_t *data;
	size_t len;
	bool *placed;
	int *g, nmf, ng, nlist = 0, i, j, created = 0, kept = 0, replaced = 0;
	int64_t snapshot_id = table__new_snapshot_id(), entries = 0, ts;
	int64_t seq = hmd->format_version >= 2 ? hmd->last_sequence_number + 1 : 0;
	char *uuid = table__new_uuid(a), *mdir = table__metadata_dir(hmd, a), *lpath;

	*done = false;
	memset(res, 0, sizeof *res);
	if (!cur)
		return FLOE_OK;
	TRY(table__read_manifest_list(io, cur, a, &mf, &nmf, err));
	placed = ARENA_ARRAY(a, bool, nmf + 1);
	g = ARENA_ARRAY(a, int, nmf + 1);
	list = ARENA_ARRAY(a, ManifestFile, nmf + 1);
	for (i = 0; i < nmf; i++) {
		bool wrote;
		if (placed[i])
			continue;
		for (ng = 0, j = i; j < nmf; j++)
			if (!placed[j] && same_group(&mf[i], &mf[j])) {
				g[ng++] = j;
				placed[j] = true;
			}
		if ((spec_id >= 0 && mf[i].partition_spec_id != spec_id) ||
		    (ng == 1 && mf[i].deleted_files_count == 0))
			continue;         /* kept as it is */
		TRY(merge_group(io, hmd, mf, g, ng, snapshot_id, seq,
				arena_sprintf(a, "%s/%s-r%d.avro", mdir, uuid, created), a, w,
				&list[nlist], &wrote, &entries, err));
		replaced += ng;
		if (wrote) {
			nlist++;
			created++;
		}
		for (j = 0; j < ng; j++)
			mf[g[j]].manifest_path = NULL;    /* replaced */
	}
	if (replaced == 0)
		return FLOE_OK;
	for (i = 0; i < nmf; i++)
		if (mf[i].manifest_path) {
			list[nlist++] = mf[i];
			kept++;
		}
	md = metadata_copy(hmd, a);
	if (hmd->format_version >= 3) {
		md->has_next_row_id = true;
		md->next_row_id = table_assign_row_ids(hmd->next_row_id, list, nlist);
	}
	TRY(manifest_list_write(hmd->format_version, snapshot_id, true, cur->snapshot_id, seq, list,
				nlist, a, &data, &len, err));
	lpath = arena_sprintf(a, "%s/snap-%" PRId64 "-1-%s.avro", mdir, snapshot_id, uuid);
	TRY(fileio_write(io, lpath, data, len, err));
	note(w, lpath, a);

	ts = now_ms();
	if (ts < hmd->last_updated_ms)
		ts = hmd->last_updated_ms;
	md->snapshots = ARENA_ARRAY(a, Snapshot, hmd->nsnapshots + 1);
	memcpy(md->snapshots, hmd->snapshots, sizeof(Snapshot) * (size_t)hmd->nsnapshots);
	snap = &md->snapshots[md->nsnapshots++];
	memset(snap, 0, sizeof *snap);
	snap->snapshot_id = snapshot_id;
	snap->has_parent = true;
	snap->parent_snapshot_id = cur->snapshot_id;
	snap->sequence_number = seq;
	snap->timestamp_ms = ts;
	snap->manifest_list = lpath;
	snap->operation = "replace";
	snap->has_schema_id = true;
	snap->schema_id = hmd->current_schema_id;
	snap->summary = ARENA_ARRAY(a, MdProp, cur->nsummary + 8);
	set_summary(snap, a, "manifests-created", created);
	set_summary(snap, a, "manifests-kept", kept);
	set_summary(snap, a, "manifests-replaced", replaced);
	set_summary(snap, a, "entries-processed", entries);
	for (i = 0; i < cur->nsummary; i++)       /* no data changes: the parent's totals */
		if (!strncmp(cur->summary[i].key, "total-", 6))
			snap->summary[snap->nsummary++] = cur->summary[i];
	if (hmd->format_version >= 3) {
		snap->has_first_row_id = true;
		snap->first_row_id = hmd->next_row_id;
		snap->has_added_rows = true;
		snap->added_rows = md->next_row_id - hmd->next_row_id;
	}
	md->last_sequence_number = hmd->format_version >= 2 ? seq : hmd->last_sequence_number;
	md->has_current_snapshot = true;
	md->current_snapshot_id = snapshot_id;
	md->snapshot_log = ARENA_ARRAY(a, SnapshotLogEntry, hmd->nsnapshot_log + 1);
	if (hmd->nsnapshot_log)
		memcpy(md->snapshot_log, hmd->snapshot_log,
		       sizeof(SnapshotLogEntry) * (size_t)hmd->nsnapshot_log);
	md->snapshot_log[md->nsnapshot_log].timestamp_ms = ts;
	md->snapshot_log[md->nsnapshot_log++].snapshot_id = snapshot_id;
	md->refs = ARENA_ARRAY(a, SnapshotRef, hmd->nrefs + 1);
	if (hmd->nrefs)
		memcpy(md->refs, hmd->refs, sizeof(SnapshotRef) * (size_t)hmd->nrefs);
	for (i = 0; i < md->nrefs && strcmp(md->refs[i].name, "main"); i++)
		;
	if (i == md->nrefs) {
		memset(&md->refs[i], 0, sizeof md->refs[i]);
		md->refs[i].name = "main";
		md->refs[i].type = "branch";
		md->nrefs++;
	}
	md->refs[i].snapshot_id = snapshot_id;
	TRY(table_commit_metadata(cat, io, head, md, a, &out, err));
	res->rewritten = replaced;
	res->added = created;
	*done = true;
	return FLOE_OK;
}

int
table_rewrite_manifests(Catalog *cat, FileIO *io, const char *ns, const char *name, int spec_id,
			Arena *a, RewriteManifestsResult *res, floe_error *err)
{
	int try, i;

	for (try = 0; try < TABLE_COMMIT_MAX_TRIES; try++) {
		Arena *tmp = arena_new(0);
		Written w = { NULL, 0, 0 };
		Table *head;
		bool done;
		floe_error ignore;
		int rc;

		if (try > 0)
			usleep((useconds_t)(5000u << (try - 1)));
		rc = table_load(cat, io, ns, name, tmp, &head, err);
		if (rc == FLOE_OK)
			rc = attempt(cat, io, head, spec_id, tmp, &w, res, &done, err);
		if (rc != FLOE_OK && !floe_error_is(err, ERRCODE_CONNECTION_FAILURE))
			for (i = 0; i < w.n; i++)       /* it did not land */
				(void)fileio_remove(io, w.v[i], &ignore);
		else if (rc != FLOE_OK)
			table_record_orphans(io, NULL, (const char *const *)w.v, w.n);
		arena_free(tmp);
		if (rc == FLOE_OK || !floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE))
			return rc;
		floe_error_clear(err);
	}
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not serialize access due to concurrent update: rewrite_manifests "
			   "lost %d commit races", TABLE_COMMIT_MAX_TRIES);
}
