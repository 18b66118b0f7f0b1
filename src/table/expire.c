/*
 * expire.c — snapshot expiry: which snapshots a table's retention keeps,
 * the metadata commit that drops the others, and the deletion of the files
 * only they reached (see maintenance.h for the rules).
 *
 * Spec: apache/iceberg format/spec.md "Snapshot Retention Policy",
 * "Snapshot References"; the algorithm is Iceberg Java's RemoveSnapshots
 * (retention per ref) and ReachableFileCleanup (what to delete).
 *
 * Steps, one attempt per head:
 *   1. load the head; decide the refs to drop and the snapshots to keep
 *      (retained) — nothing to drop or expire: done, no commit
 *   2. reachable files of the kept snapshots: their manifest lists,
 *      manifests, and the live (not DELETED) entries of those manifests;
 *      an unreadable kept manifest list or manifest fails the whole call
 *      before anything changes
 *   3. candidates: the manifest lists of the expired snapshots, their
 *      manifests that no kept snapshot lists, and every entry of those
 *      manifests whose file no kept manifest holds live; statistics
 *      and partition statistics files of expired snapshots that no kept
 *      entry names (both dropped from the metadata, as Java's
 *      RemoveSnapshots does)
 *   4. commit the new metadata (table_commit_metadata, a compare-and-swap
 *      on the head read in 1): a concurrent commit -> back to 1
 *   5. delete the candidates (a file already gone is not counted), and
 *      the metadata files cut from the metadata log when
 *      write.metadata.delete-after-commit.enabled is true
 * Invariant: every file deleted in 5 was unreachable from the metadata
 * committed in 4, and every later commit is staged on that metadata (the
 * swap's compare-and-swap), so none can bring the file back.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "table/maintenance.h"
#include "table/manifest.h"
#include "table/table.h"

/* ---- path sets ---------------------------------------------------------- */

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

void
pathset_add(PathSet *s, FileIO *io, const char *path, Arena *a)
{
	if (!path)
		return;
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 64;
		s->v = arena_realloc(a, s->v, sizeof(char *) * (size_t)s->cap,
				     sizeof(char *) * (size_t)cap);
		s->cap = cap;
	}
	s->v[s->n++] = fileio_resolve(io, path, a);
	s->sorted = false;
}

static void
pathset_sort(PathSet *s)
{
	int i, k = 0;

	if (s->sorted)
		return;
	if (s->n > 1)
		qsort(s->v, (size_t)s->n, sizeof(char *), cmp_str);
	for (i = 0; i < s->n; i++)
		if (k == 0 || strcmp(s->v[i], s->v[k - 1]) != 0)
			s->v[k++] = s->v[i];
	s->n = k;
	s->sorted = true;
}

bool
pathset_has(PathSet *s, FileIO *io, const char *path, Arena *a)
{
	char *r = fileio_resolve(io, path, a);

	pathset_sort(s);
	return s->n > 0 && bsearch(&r, s->v, (size_t)s->n, sizeof(char *), cmp_str) != NULL;
}

/* ---- reading a snapshot's files ---------------------------------------- */

/* The manifest paths of a snapshot (a v1 snapshot may list them itself). */
static int
snapshot_manifests(FileIO *io, const Snapshot *snap, Arena *a, ManifestFile **mf, int *n,
		   floe_error *err)
{
	const uint8_t *data;
	size_t len;
	int i;

	if (!snap->manifest_list) {
		*mf = ARENA_ARRAY(a, ManifestFile, snap->nmanifests_v1 + 1);
		for (i = 0; i < snap->nmanifests_v1; i++) {
			memset(&(*mf)[i], 0, sizeof (*mf)[i]);
			(*mf)[i].manifest_path = snap->manifests_v1[i];
		}
		*n = snap->nmanifests_v1;
		return FLOE_OK;
	}
	TRY(fileio_read(io, snap->manifest_list, a, &data, &len, err));
	TRY(manifest_list_read(data, len, snap->manifest_list, a, mf, n, err));
	return manifest_list_check_summary(snap, *mf, *n, err);
}

static int
manifest_entries(FileIO *io, const char *path, Arena *a, ManifestEntry **e, int *n,
		 floe_error *err)
{
	const uint8_t *data;
	size_t len;

	TRY(fileio_read(io, path, a, &data, &len, err));
	return manifest_read(data, len, path, a, e, n, err);
}

/* Snapshot id -> index in md->snapshots; -1 if absent. */
static int
snap_index(const TableMetadata *md, int64_t id)
{
	int i;

	for (i = 0; i < md->nsnapshots; i++)
		if (md->snapshots[i].snapshot_id == id)
			return i;
	return -1;
}

/* ---- table properties -------------------------------------------------- */

static int
prop_i64(const TableMetadata *md, const char *key, int64_t dflt, int64_t min, int64_t *v,
	 floe_error *err)
{
	const char *s = metadata_property(md, key);
	char *end;
	long long x;

	*v = dflt;
	if (!s)
		return FLOE_OK;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (errno || end == s || *end || x < min)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid value for table property \"%s\": \"%s\"", key, s);
	*v = x;
	return FLOE_OK;
}

bool
table_maintenance_property_known(const char *k)
{
	return !strcmp(k, "history.expire.max-snapshot-age-ms") ||
	       !strcmp(k, "history.expire.min-snapshots-to-keep") ||
	       !strcmp(k, "history.expire.max-ref-age-ms") ||
	       !strcmp(k, "write.metadata.previous-versions-max") ||
	       !strcmp(k, "write.metadata.delete-after-commit.enabled");
}

static bool
prop_true(const TableMetadata *md, const char *key)
{
	const char *s = metadata_property(md, key);
	return s && !strcasecmp(s, "true");
}

/* ---- retention --------------------------------------------------------- */

typedef struct Plan {
	bool *keep;                /* per md->snapshots index */
	bool *drop_ref;            /* per md->refs index */
	int nexpired, ndropped;
} Plan;

static int
plan_retention(const TableMetadata *md, const ExpireOptions *o, int64_t now, Arena *a, Plan *p,
	       floe_error *err)
{
	int64_t max_age, min_keep, max_ref_age, cutoff;
	bool main_seen = false;
	int i;

	TRY(prop_i64(md, "history.expire.max-snapshot-age-ms", EXPIRE_DEFAULT_MAX_SNAPSHOT_AGE_MS, 0,
		     &max_age, err));
	TRY(prop_i64(md, "history.expire.min-snapshots-to-keep", EXPIRE_DEFAULT_MIN_SNAPSHOTS, 1,
		     &min_keep, err));
	TRY(prop_i64(md, "history.expire.max-ref-age-ms", INT64_MAX, 1, &max_ref_age, err));
	if (o->retain_last > 0)
		min_keep = o->retain_last;
	cutoff = o->has_older_than ? o->older_than_ms : now - max_age;
	p->keep = ARENA_ARRAY(a, bool, md->nsnapshots + 1);
	p->drop_ref = ARENA_ARRAY(a, bool, md->nrefs + 1);
	memset(p->keep, 0, sizeof(bool) * (size_t)(md->nsnapshots + 1));
	memset(p->drop_ref, 0, sizeof(bool) * (size_t)(md->nrefs + 1));
	p->nexpired = p->ndropped = 0;

	/* refs past their age go (main never) */
	for (i = 0; i < md->nrefs; i++) {
		const SnapshotRef *r = &md->refs[i];
		const Snapshot *s = metadata_snapshot_by_id(md, r->snapshot_id);
		int64_t age = r->has_max_ref_age_ms ? r->max_ref_age_ms : max_ref_age;
		if (!strcmp(r->name, "main")) {
			main_seen = true;
			continue;
		}
		if (s && age != INT64_MAX && now - s->timestamp_ms > age) {
			p->drop_ref[i] = true;
			p->ndropped++;
		}
	}
	/* each kept ref's snapshots; a current snapshot without a main ref
	 * (v1 metadata) counts as main */
	for (i = 0; i <= md->nrefs; i++) {
		int64_t head, bcut = cutoff, bkeep = min_keep, kept = 0;
		bool tag;
		int k, guard = 0;
		if (i == md->nrefs) {
			if (main_seen || !md->has_current_snapshot)
				break;
			head = md->current_snapshot_id;
			tag = false;
		} else {
			const SnapshotRef *r = &md->refs[i];
			if (p->drop_ref[i])
				continue;
			head = r->snapshot_id;
			tag = r->type && !strcmp(r->type, "tag");
			if (r->has_max_snapshot_age_ms)
				bcut = now - r->max_snapshot_age_ms;
			if (r->has_min_snapshots_to_keep)
				bkeep = r->min_snapshots_to_keep;
		}
		if (tag) {
			if ((k = snap_index(md, head)) >= 0)
				p->keep[k] = true;
			continue;
		}
		for (k = snap_index(md, head); k >= 0 && guard++ <= md->nsnapshots;) {
			const Snapshot *s = &md->snapshots[k];
			if (!(kept < bkeep || s->timestamp_ms >= bcut))
				break;
			p->keep[k] = true;
			kept++;
			k = s->has_parent ? snap_index(md, s->parent_snapshot_id) : -1;
		}
	}
	/* snapshots no ref reaches: kept while younger than the cutoff */
	{
		bool *reach = ARENA_ARRAY(a, bool, md->nsnapshots + 1);
		memset(reach, 0, sizeof(bool) * (size_t)(md->nsnapshots + 1));
		for (i = 0; i <= md->nrefs; i++) {
			int64_t head;
			int k, guard = 0;
			if (i == md->nrefs) {
				if (main_seen || !md->has_current_snapshot)
					break;
				head = md->current_snapshot_id;
			} else {
				if (p->drop_ref[i])
					continue;
				head = md->refs[i].snapshot_id;
			}
			for (k = snap_index(md, head); k >= 0 && guard++ <= md->nsnapshots;) {
				reach[k] = true;
				k = md->snapshots[k].has_parent ?
					snap_index(md, md->snapshots[k].parent_snapshot_id) : -1;
			}
		}
		for (i = 0; i < md->nsnapshots; i++)
			if (!reach[i] && md->snapshots[i].timestamp_ms >= cutoff)
				p->keep[i] = true;
	}
	for (i = 0; i < md->nsnapshots; i++)
		if (!p->keep[i])
			p->nexpired++;
	return FLOE_OK;
}

/* ---- files to delete ---------------------------------------------------- */

typedef struct Cand {
	const char *path;
	int kind;                  /* 0 data, 1 pos deletes, 2 eq deletes, 3 manifest,
				      4 manifest list, 5 statistics, 6 metadata */
} Cand;

typedef struct Cands {
	Cand *v;
	int n, cap;
} Cands;

static void
cand_add(Cands *c, Arena *a, const char *path, int kind)
{
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 64;
		c->v = arena_realloc(a, c->v, sizeof(Cand) * (size_t)c->cap, sizeof(Cand) * (size_t)cap);
		c->cap = cap;
	}
	c->v[c->n].path = path;
	c->v[c->n++].kind = kind;
}

/* The metadata's partition-statistics entries (kept as JSON in md->extra). */
static json_t *
partition_stats(const TableMetadata *md)
{
	json_t *ps = md->extra ? json_object_get(md->extra, "partition-statistics") : NULL;
	return json_is_array(ps) ? ps : NULL;
}

/* Entry i of partition-statistics: its snapshot index (-1 unknown) and path. */
static int
pstat_entry(const TableMetadata *md, json_t *ps, size_t i, const char **path)
{
	json_t *e = json_array_get(ps, i), *sid = json_object_get(e, "snapshot-id");
	*path = json_string_value(json_object_get(e, "statistics-path"));
	return json_is_integer(sid) ? snap_index(md, json_integer_value(sid)) : -1;
}

static int
plan_deletes(FileIO *io, const TableMetadata *md, const Plan *p, Arena *a, Cands *out,
	     floe_error *err)
{
	PathSet kept_manifests = { 0 }, kept_files = { 0 }, kept_stats = { 0 };
	PathSet seen_manifests = { 0 }, seen_files = { 0 };
	ManifestFile *mf;
	ManifestEntry *e;
	json_t *ps = partition_stats(md);
	int i, j, k, nmf, ne;
	size_t x;

	for (i = 0; i < md->nsnapshots; i++) {
		if (!p->keep[i])
			continue;
		TRY(snapshot_manifests(io, &md->snapshots[i], a, &mf, &nmf, err));
		for (j = 0; j < nmf; j++) {
			if (pathset_has(&kept_manifests, io, mf[j].manifest_path, a))
				continue;
			pathset_add(&kept_manifests, io, mf[j].manifest_path, a);
			TRY(manifest_entries(io, mf[j].manifest_path, a, &e, &ne, err));
			for (k = 0; k < ne; k++)
				if (e[k].status != ENTRY_DELETED)
					pathset_add(&kept_files, io, e[k].file.file_path, a);
		}
	}
	for (i = 0; i < md->nstatistics; i++) {
		int s = snap_index(md, md->statistics[i].snapshot_id);
		if (s >= 0 && p->keep[s])
			pathset_add(&kept_stats, io, md->statistics[i].statistics_path, a);
	}
	if (ps) {
		for (x = 0; x < json_array_size(ps); x++) {
			const char *sp;
			int s = pstat_entry(md, ps, x, &sp);
			if (sp && (s < 0 || p->keep[s]))
				pathset_add(&kept_stats, io, sp, a);
		}
	}
	for (i = 0; i < md->nsnapshots; i++) {
		const Snapshot *snap = &md->snapshots[i];
		if (p->keep[i])
			continue;
		if (snap->manifest_list)
			cand_add(out, a, snap->manifest_list, 4);
		/* an expired snapshot whose files are already gone has
		 * nothing left to delete */
		if (snapshot_manifests(io, snap, a, &mf, &nmf, err) != FLOE_OK)
			continue;
		for (j = 0; j < nmf; j++) {
			const char *mp = mf[j].manifest_path;
			if (pathset_has(&kept_manifests, io, mp, a) || pathset_has(&seen_manifests, io, mp, a))
				continue;
			pathset_add(&seen_manifests, io, mp, a);
			if (manifest_entries(io, mp, a, &e, &ne, err) != FLOE_OK)
				continue;
			for (k = 0; k < ne; k++) {
				const char *fp = e[k].file.file_path;
				if (pathset_has(&kept_files, io, fp, a) || pathset_has(&seen_files, io, fp, a))
					continue;
				pathset_add(&seen_files, io, fp, a);
				cand_add(out, a, fp, (int)e[k].file.content);
			}
			cand_add(out, a, mp, 3);
		}
	}
	for (i = 0; i < md->nstatistics; i++) {
		int s = snap_index(md, md->statistics[i].snapshot_id);
		const char *sp = md->statistics[i].statistics_path;
		if (s >= 0 && !p->keep[s] && !pathset_has(&kept_stats, io, sp, a)) {
			pathset_add(&kept_stats, io, sp, a);   /* once */
			cand_add(out, a, sp, 5);
		}
	}
	if (ps) {
		for (x = 0; x < json_array_size(ps); x++) {
			const char *sp;
			int s = pstat_entry(md, ps, x, &sp);
			if (sp && s >= 0 && !p->keep[s] && !pathset_has(&kept_stats, io, sp, a)) {
				pathset_add(&kept_stats, io, sp, a);
				cand_add(out, a, sp, 5);
			}
		}
	}
	return FLOE_OK;
}

/* ---- the new metadata ----------------------------------------------------- */

static void
decref_cb(void *j)
{
	json_decref(j);
}

static TableMetadata *
expired_metadata(const TableMetadata *md, const Plan *p, int64_t log_max, Arena *a,
		 const MetadataLogEntry **cut, int *ncut)
{
	TableMetadata *n = metadata_copy(md, a);
	int i, k;

	n->snapshots = ARENA_ARRAY(a, Snapshot, md->nsnapshots + 1);
	for (i = k = 0; i < md->nsnapshots; i++)
		if (p->keep[i])
			n->snapshots[k++] = md->snapshots[i];
	n->nsnapshots = k;
	if (table_ingest_seq(n) < table_ingest_seq(md))
		/* the insert buffer's recorded sequence outlives its snapshot */
		metadata_set_property(n, "floe.ingest-seq",
				      arena_sprintf(a, "%" PRIu64, table_ingest_seq(md)), a);
	n->refs = ARENA_ARRAY(a, SnapshotRef, md->nrefs + 1);
	for (i = k = 0; i < md->nrefs; i++)
		if (!p->drop_ref[i])
			n->refs[k++] = md->refs[i];
	n->nrefs = k;
	/* snapshot log: an entry of an expired snapshot drops the history
	 * before it too (Java's rule: no gaps) */
	n->snapshot_log = ARENA_ARRAY(a, SnapshotLogEntry, md->nsnapshot_log + 1);
	for (i = k = 0; i < md->nsnapshot_log; i++) {
		int s = snap_index(md, md->snapshot_log[i].snapshot_id);
		if (s >= 0 && p->keep[s])
			n->snapshot_log[k++] = md->snapshot_log[i];
		else
			k = 0;
	}
	n->nsnapshot_log = k;
	n->statistics = ARENA_ARRAY(a, StatisticsFile, md->nstatistics + 1);
	for (i = k = 0; i < md->nstatistics; i++) {
		int s = snap_index(md, md->statistics[i].snapshot_id);
		if (s >= 0 && p->keep[s])
			n->statistics[k++] = md->statistics[i];
	}
	n->nstatistics = k;
	if (partition_stats(md)) {
		json_t *ps = partition_stats(md), *kept = json_array(), *extra = json_copy(md->extra);
		size_t x;
		for (x = 0; x < json_array_size(ps); x++) {
			const char *sp;
			int s = pstat_entry(md, ps, x, &sp);
			if (s < 0 || p->keep[s])
				json_array_append(kept, json_array_get(ps, x));
		}
		json_object_set_new(extra, "partition-statistics", kept);
		arena_on_reset(a, decref_cb, extra);
		n->extra = extra;
	}
	/* metadata log: table_commit_metadata appends the head's file, so
	 * keep log_max - 1 of the old entries */
	*ncut = 0;
	*cut = md->metadata_log;
	if (md->nmetadata_log > log_max - 1) {
		*ncut = md->nmetadata_log - (int)(log_max - 1);
		n->metadata_log = md->metadata_log + *ncut;
		n->nmetadata_log = md->nmetadata_log - *ncut;
	}
	return n;
}

int
table_expire_snapshots(Catalog *cat, FileIO *io, const char *ns, const char *name,
		       const ExpireOptions *o, int64_t now, Arena *a, ExpireResult *res,
		       floe_error *err)
{
	const MetadataLogEntry *cut = NULL;
	int ncut = 0, attempt, i;
	int64_t log_max;
	Table *t = NULL, *out;
	Cands c;
	Plan p;

	memset(res, 0, sizeof *res);
	for (attempt = 0;; attempt++) {
		TableMetadata *n;
		TRY(table_load(cat, io, ns, name, a, &t, err));
		TRY(plan_retention(t->md, o, now, a, &p, err));
		if (p.nexpired == 0 && p.ndropped == 0)
			return FLOE_OK;
		TRY(prop_i64(t->md, "write.metadata.previous-versions-max",
			     EXPIRE_DEFAULT_PREVIOUS_VERSIONS_MAX, 1, &log_max, err));
		memset(&c, 0, sizeof c);
		TRY(plan_deletes(io, t->md, &p, a, &c, err));
		n = expired_metadata(t->md, &p, log_max, a, &cut, &ncut);
		if (table_commit_metadata(cat, io, t, n, a, &out, err) == FLOE_OK)
			break;
		if (!floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE) ||
		    attempt + 1 >= TABLE_COMMIT_MAX_TRIES)
			return FLOE_ERR;
	}
	res->expired_snapshots = p.nexpired;
	res->removed_refs = p.ndropped;
	if (prop_true(t->md, "write.metadata.delete-after-commit.enabled"))
		for (i = 0; i < ncut; i++)
			cand_add(&c, a, cut[i].metadata_file, 6);
	for (i = 0; i < c.n; i++) {
		floe_error ignore;
		if (fileio_remove(io, c.v[i].path, &ignore) != FLOE_OK)
			continue;             /* gone already, or not ours to delete */
		switch (c.v[i].kind) {
		case 0: res->data_files++; break;
		case 1: res->position_delete_files++; break;
		case 2: res->equality_delete_files++; break;
		case 3: res->manifests++; break;
		case 4: res->manifest_lists++; break;
		case 5: res->statistics_files++; break;
		default: res->metadata_files++; break;
		}
	}
	return FLOE_OK;
}
