/*
 * view_meta.h — Iceberg view metadata files (apache/iceberg
 * format/view-spec.md, format-version 1): what sql/views.c stores for a
 * view so that any Iceberg engine reading the catalog sees it.
 *
 * A file holds the view's uuid, location, every schema and version it
 * had (each version: version-id, schema-id, timestamp-ms, summary,
 * representations, default-namespace) and the version log.  floe writes
 * one SQL representation with dialect "postgresql" per version and reads
 * the current version's.  floe-only facts ride in the version summary
 * (a string map the spec leaves open), alongside engine-name/-version:
 *   "floe.pg-types"     the columns' PostgreSQL types, ';'-separated
 *                       (format_type text: "character varying(10)")
 *   "floe.depends-on"   the relations the query read, "ns.name" with
 *                       '\x1f' between them (DROP ... RESTRICT / CASCADE)
 *   "floe.search-path"  the schemas the query's unqualified names were
 *                       resolved through at CREATE, a search_path text
 *                       (absent: the default-namespace alone)
 *
 * Files are <location>/metadata/<NNNNN>-<uuid>.metadata.json, never
 * overwritten; a change writes the next file and the catalog swaps to it.
 *
 * INTERFACE ROUTINES
 *   view_meta_write(io, prev_path, location, &def, a, &path, err)
 *        a new file: the first version (prev_path NULL) or prev's
 *        versions plus def as the new current one
 *   view_meta_read(io, path, a, &def, err)     the current version; XX001
 *                                              for a file that is not one
 */
#ifndef FLOE_VIEW_META_H
#define FLOE_VIEW_META_H

#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/iceberg.h"

typedef struct ViewDef {
	const char *ns, *name;    /* the view's own name: its first location,
				     <io root>/<ns>/<name> (names %XX-escaped) */
	char *sql;                /* the query, PostgreSQL dialect */
	char *default_ns;         /* default-namespace (one level) */
	char *search_path;        /* "floe.search-path", NULL when absent */
	int ncols;
	char **names;
	SqlType *types;
	char **pg_types;          /* per column; NULL entries: from the Iceberg type */
	int ndeps;
	char **dep_ns, **dep_names;
	/* read only */
	char *uuid, *location;
	int64_t version_id;
	int nversions;
	int64_t created_ms;       /* the oldest version's timestamp-ms (creation order) */
} ViewDef;

int view_meta_write(FileIO *io, const char *prev_path, const char *location, const ViewDef *def,
		    Arena *a, char **path, floe_error *err);
int view_meta_read(FileIO *io, const char *path, Arena *a, ViewDef **out, floe_error *err);

#endif
