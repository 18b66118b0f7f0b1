/*
 * restcat.h — the Iceberg REST catalog's operations on the engine's
 * catalog, for the HTTP server (server/http_iceberg.c): namespaces,
 * tables, views (the view metadata files of sql/views.c), and commits of the spec's requirements and updates (apache/iceberg
 * open-api/rest-catalog-open-api.yaml, CommitTableRequest).
 *
 * Every call acts as the session's user: namespace DDL runs as SQL
 * (CREATE / DROP SCHEMA, with their privilege checks); loading a table
 * needs SELECT on it, committing INSERT, UPDATE and DELETE, creating or
 * registering CREATE on the schema, dropping a superuser (floe's owner of
 * every table), all 42501 otherwise.
 *
 * Commits go through the catalog's compare-and-swap like SQL's: each table
 * is loaded, its requirements checked (40001-like failures are 55000
 * "requirement failed"), its updates applied to a copy of its metadata, the
 * new metadata file written, then every table swapped in one catalog
 * transaction (catalog_swap_tables).  When the swap loses to a concurrent
 * commit (SQL's or another REST client's: 40001) the written files are
 * removed and the whole commit is re-checked and re-applied on the new
 * heads, up to RESTCAT_TRIES times; a requirement that no longer holds then
 * fails the commit (55000), so a client's stale view never overwrites a
 * newer snapshot.  A failed swap whose outcome is unknown is 08006 and its
 * files are kept.
 *
 * Updates applied: assign-uuid (must match), upgrade-format-version (to the
 * same version), set-properties, remove-properties, add-snapshot,
 * set-snapshot-ref, remove-snapshot-ref (not main), set-location,
 * set-statistics / remove-statistics (restcat.c also: schema, spec and
 * sort-order changes, remove-snapshots).  Others (partition statistics,
 * ...) are 0A000 naming the action, never ignored.
 *
 * INTERFACE ROUTINES
 *   restcat_list_namespaces(s, a, &names, &n, err)
 *   restcat_namespace_exists(s, ns, &exists, err)
 *   restcat_create_namespace(s, ns, err) / restcat_drop_namespace(s, ns, err)
 *   restcat_list_tables(s, ns, a, &names, &n, err)
 *   restcat_load(s, ns, name, a, &location, &metadata_json, err)
 *   restcat_create(s, ns, name, metadata_json, a, &location, err)
 *   restcat_register(s, ns, name, metadata_location, err)
 *   restcat_drop(s, ns, name, purge, err)
 *   restcat_rename(s, ns, name, new_ns, new_name, err)   ALTER TABLE ... RENAME TO / SET SCHEMA
 *                                    (as SQL: its privileges; both at once 0A000)
 *   restcat_commit(s, n, changes, a, err)      changes[i].location/.metadata set on success
 *   restcat_warehouse(s)                       the warehouse root
 *   restcat_list_views(s, ns, a, &names, &n, err)
 *   restcat_load_view(s, ns, name, a, &location, &metadata_json, err)   SELECT on it
 *   restcat_create_view(s, ns, name, create_view_request, a, &location, &metadata_json, err)
 *                                    CREATE on the schema; the request's location is required
 *                                    (http_iceberg.c gives the default); a table of that
 *                                    name 42P07; a current version without a "postgresql"
 *                                    SQL representation 0A000 (floe could not read it)
 *   restcat_commit_view(s, ns, name, requirements, updates, a, &location, &metadata_json, err)
 *                                    assert-view-uuid; assign-uuid, upgrade-format-version
 *                                    (to 1), add-schema, set-location, set-properties,
 *                                    remove-properties, add-view-version,
 *                                    set-current-view-version (-1: the last added); others
 *                                    0A000; a superuser (the owner); lost swaps retried
 *   restcat_drop_view(s, ns, name, err)        DROP VIEW (RESTRICT) as the session
 *   restcat_rename_view(s, ns, name, new_ns, new_name, err)   ALTER VIEW RENAME TO; another
 *                                    namespace 0A000
 */
#ifndef FLOE_RESTCAT_H
#define FLOE_RESTCAT_H

#include <jansson.h>
#include <stdbool.h>
#include "common/arena.h"
#include "common/error.h"
#include "sql/engine.h"

#define RESTCAT_TRIES 8
#define RESTCAT_BACKOFF_MS 10
#define RESTCAT_MAX_TABLES 64

typedef struct RestChange {
	const char *ns, *name;
	json_t *requirements;      /* array (NULL: none) */
	json_t *updates;           /* array (NULL: none) */
	/* out */
	char *location;            /* the new metadata location */
	char *metadata;            /* its JSON text */
} RestChange;

int restcat_list_namespaces(Session *s, Arena *a, char ***names, int *n, floe_error *err);
int restcat_namespace_exists(Session *s, const char *ns, bool *exists, floe_error *err);
int restcat_create_namespace(Session *s, const char *ns, floe_error *err);
int restcat_drop_namespace(Session *s, const char *ns, floe_error *err);
int restcat_list_tables(Session *s, const char *ns, Arena *a, char ***names, int *n,
			floe_error *err);
int restcat_load(Session *s, const char *ns, const char *name, Arena *a, char **location,
		 char **metadata, floe_error *err);
int restcat_create(Session *s, const char *ns, const char *name, const char *metadata_json,
		   Arena *a, char **location, floe_error *err);
int restcat_register(Session *s, const char *ns, const char *name, const char *metadata_location,
		     floe_error *err);
int restcat_drop(Session *s, const char *ns, const char *name, bool purge, floe_error *err);
int restcat_rename(Session *s, const char *ns, const char *name, const char *new_ns,
		   const char *new_name, floe_error *err);
int restcat_commit(Session *s, int n, RestChange *changes, Arena *a, floe_error *err);
const char *restcat_warehouse(Session *s);

int restcat_list_views(Session *s, const char *ns, Arena *a, char ***names, int *n,
		       floe_error *err);
int restcat_load_view(Session *s, const char *ns, const char *name, Arena *a, char **location,
		      char **metadata, floe_error *err);
int restcat_create_view(Session *s, const char *ns, const char *name, json_t *req, Arena *a,
			char **location, char **metadata, floe_error *err);
int restcat_commit_view(Session *s, const char *ns, const char *name, json_t *requirements,
			json_t *updates, Arena *a, char **location, char **metadata,
			floe_error *err);
int restcat_drop_view(Session *s, const char *ns, const char *name, floe_error *err);
int restcat_rename_view(Session *s, const char *ns, const char *name, const char *new_ns,
			const char *new_name, floe_error *err);

#endif
