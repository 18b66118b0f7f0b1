/*
 * rewrite_manifests.h — CALL rewrite_manifests' table work
 * (rewrite_manifests.c): the current snapshot's manifests merged, per
 * content (data / deletes) and partition spec, into one manifest each, in
 * one "replace" snapshot that changes no data.
 *
 * Spec: apache/iceberg format/spec.md "Manifests", "Manifest Lists",
 * "Sequence Numbers" (EXISTING entries keep their data and file sequence
 * numbers explicitly, so deletes apply as before); the operation, its
 * summary keys (manifests-created, manifests-kept, manifests-replaced,
 * entries-processed) and Spark's result columns (rewritten_manifests_count,
 * added_manifests_count) are Iceberg Java's RewriteManifests.
 *
 * INTERFACE ROUTINES
 *   table_rewrite_manifests(cat, io, ns, name, spec_id, a, &res, err)
 */
#ifndef FLOE_TABLE_REWRITE_MANIFESTS_H
#define FLOE_TABLE_REWRITE_MANIFESTS_H

#include "table/table.h"

typedef struct RewriteManifestsResult {
	int64_t rewritten;         /* manifests replaced */
	int64_t added;             /* manifests written */
} RewriteManifestsResult;

/*
 * Rewrite table ns.name's current manifests (spec_id >= 0: only that
 * spec's): each group (content, spec) of two or more manifests, or of one
 * with DELETED entries, becomes one manifest of its live entries as
 * EXISTING (none live: no manifest); other manifests are kept.  One
 * snapshot (parent the current one, the next sequence number, totals as
 * the parent's) through a metadata commit, re-done from the new head on a
 * concurrent commit (up to TABLE_COMMIT_MAX_TRIES, then 40001).  Nothing to
 * rewrite (no snapshot, every group one clean manifest): no commit, 0 / 0.
 * A commit that did not land removes the manifests it wrote.
 */
int table_rewrite_manifests(Catalog *cat, FileIO *io, const char *ns, const char *name,
			    int spec_id, Arena *a, RewriteManifestsResult *res, floe_error *err);

#endif
