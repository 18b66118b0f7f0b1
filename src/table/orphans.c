/*
 * orphans.c — orphan file removal: files in a table's folders that no
 * metadata of the table reaches (written by a commit that failed, a
 * process killed mid-write, or left by an expiry that could not delete
 * them), as Spark's remove_orphan_files.
 *
 * Spec: apache/iceberg format/spec.md ("Table Metadata", "Snapshots",
 * "Manifests"); docs/spark-procedures.md remove_orphan_files.
 *
 * What is reachable (table_reachable_files) is read from the metadata the
 * caller loaded: every snapshot's manifest list, every manifest, every
 * entry of any status (a file a manifest names as DELETED may still be
 * live in an older snapshot), statistics and partition statistics files,
 * the current metadata file, those of its metadata log and
 * version-hint.text.  An unreadable manifest list or manifest fails the
 * call before anything is deleted.
 *
 * The age rule protects writes in flight: a data file written by a commit
 * that has not landed yet is unreachable until it lands, so only files
 * last modified before older_than go (the SQL default: 3 days ago).  A
 * commit that lands after the listing, staged on the metadata read here,
 * adds only files newer than the listing's cutoff; one staged on an older
 * head loses its compare-and-swap.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "table/maintenance.h"
#include "table/manifest.h"

static int
add_manifests(FileIO *io, const Snapshot *snap, Arena *a, PathSet *set, PathSet *seen,
	      floe_error *err)
{
	ManifestFile *mf = NULL;
	int nmf = 0, i, j;

	if (snap->manifest_list) {
		const uint8_t *data;
		size_t len;
		pathset_add(set, io, snap->manifest_list, a);
		TRY(fileio_read(io, snap->manifest_list, a, &data, &len, err));
		TRY(manifest_list_read(data, len, snap->manifest_list, a, &mf, &nmf, err));
		TRY(manifest_list_check_summary(snap, mf, nmf, err));   /* a cut list */
	}
	for (i = 0; i < nmf + snap->nmanifests_v1; i++) {
		const char *path = i < nmf ? mf[i].manifest_path : snap->manifests_v1[i - nmf];
		const uint8_t *data;
		ManifestEntry *e;
		size_t len;
		int ne;
		if (pathset_has(seen, io, path, a))
			continue;
		pathset_add(seen, io, path, a);
		pathset_add(set, io, path, a);
		TRY(fileio_read(io, path, a, &data, &len, err));
		TRY(manifest_read(data, len, path, a, &e, &ne, err));
		for (j = 0; j < ne; j++)
			pathset_add(set, io, e[j].file.file_path, a);
	}
	return FLOE_OK;
}

int
table_reachable_files(FileIO *io, const Table *t, Arena *a, PathSet *set, floe_error *err)
{
	const TableMetadata *md = t->md;
	PathSet seen = { 0 };
	json_t *ps;
	size_t k;
	int i;

	pathset_add(set, io, t->metadata_location, a);
	for (i = 0; i < md->nmetadata_log; i++)
		pathset_add(set, io, md->metadata_log[i].metadata_file, a);
	if (md->location)
		pathset_add(set, io, arena_sprintf(a, "%s/metadata/version-hint.text", md->location), a);
	for (i = 0; i < md->nsnapshots; i++)
		TRY(add_manifests(io, &md->snapshots[i], a, set, &seen, err));
	for (i = 0; i < md->nstatistics; i++)
		pathset_add(set, io, md->statistics[i].statistics_path, a);
	ps = md->extra ? json_object_get(md->extra, "partition-statistics") : NULL;
	if (json_is_array(ps))
		for (k = 0; k < json_array_size(ps); k++) {
			json_t *p = json_object_get(json_array_get(ps, k), "statistics-path");
			if (json_is_string(p))
				pathset_add(set, io, json_string_value(p), a);
		}
	return FLOE_OK;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

int
table_remove_orphans(FileIO *io, const Table *t, int64_t older_than_ms, bool dry_run, Arena *a,
		     char ***paths, int *n, floe_error *err)
{
	const char *roots[3];
	PathSet reach = { 0 }, listed = { 0 };
	char **out = NULL;
	int nroots = 0, nout = 0, cap = 0, r, i;

	TRY(table_reachable_files(io, t, a, &reach, err));
	roots[nroots++] = t->md->location;
	if (metadata_property(t->md, "write.data.path"))
		roots[nroots++] = metadata_property(t->md, "write.data.path");
	if (metadata_property(t->md, "write.metadata.path"))
		roots[nroots++] = metadata_property(t->md, "write.metadata.path");
	for (r = 0; r < nroots; r++) {
		FileInfo *f;
		int nf;
		TRY(fileio_list(io, roots[r], a, &f, &nf, err));
		for (i = 0; i < nf; i++) {
			if (f[i].mtime_ms >= older_than_ms || pathset_has(&reach, io, f[i].path, a) ||
			    pathset_has(&listed, io, f[i].path, a))
				continue;
			pathset_add(&listed, io, f[i].path, a);   /* roots may nest */
			if (nout == cap) {
				int nc = cap ? cap * 2 : 16;
				out = arena_realloc(a, out, sizeof(char *) * (size_t)cap,
						    sizeof(char *) * (size_t)nc);
				cap = nc;
			}
			out[nout++] = f[i].path;
		}
	}
	if (nout > 1)
		qsort(out, (size_t)nout, sizeof(char *), cmp_str);
	if (!dry_run)
		for (i = 0; i < nout; i++)
			if (fileio_remove(io, out[i], err) != FLOE_OK)
				return FLOE_ERR;
	*paths = out;
	*n = nout;
	return FLOE_OK;
}
