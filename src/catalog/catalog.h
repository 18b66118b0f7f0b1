/*
 * catalog.h — the catalog interface: where a table's current metadata
 * location lives, and the atomic compare-and-swap that commits a table.
 *
 * Backends: SQLite (embedded default, catalog_sqlite.c), PostgreSQL
 * (catalog_pg.c, libpq: several floe processes share it), an Iceberg REST
 * catalog (catalog_rest.c, libcurl: floe as a REST client; its top comment
 * maps each routine to REST calls).  The SQL backends use the tables of Iceberg's JDBC catalog so
 * other tools can open them:
 *
 *   iceberg_tables(catalog_name, table_namespace, table_name,
 *                  metadata_location, previous_metadata_location)
 *   iceberg_namespace_properties(catalog_name, namespace,
 *                  property_key, property_value)
 *
 * A namespace exists when it has at least one row in
 * iceberg_namespace_properties (the JDBC catalog writes an "exists"
 * property for that).  Namespaces here are single-level strings.
 *
 * Thread-safe: one Catalog serves concurrent sessions (server.c); each
 * call runs on a pooled connection of its own (see the backends).
 *
 * Errors: 3F000 unknown namespace, 42P06 namespace exists, 42P01 unknown
 * table, 42P07 table exists, 2BP01 dropping a non-empty namespace,
 * 40001 when swap finds a metadata location other than the expected one.
 *
 * INTERFACE ROUTINES
 *   catalog_sqlite_open(&cat, db_path, catalog_name, err)
 *   catalog_close(cat)
 *   catalog_create_namespace / drop_namespace / namespace_exists / list_namespaces
 *   catalog_create_table(cat, ns, name, metadata_location, err)
 *   catalog_load_table(cat, ns, name, arena, &metadata_location, err)
 *   catalog_swap_table(cat, ns, name, expected, new_location, err)   CAS
 *   catalog_swap_tables(cat, n, ns[], names[], expected[], new[], err)
 *                       n CASes in one catalog transaction: all or none;
 *                       40001 when any expected location differs
 *   catalog_drop_table(cat, ns, name, err)
 *   catalog_list_tables(cat, ns, arena, &names, &n, err)
 *   catalog_rename_table(cat, ns, name, new_ns, new_name, err)
 *                       moves the table's row (its metadata stays where it
 *                       is): 42P01 if missing, 42P07 if the new name is taken
 *   catalog_seq_create / seq_load / seq_swap / seq_drop / seq_list
 *                       sequences (sql/sequence.c): one row each in
 *                       floe_sequences beside the JDBC tables; seq_swap is
 *                       a compare-and-swap on the row's version, so nodes
 *                       sharing the catalog never reserve a value twice.
 *                       42P07 exists, 42P01 missing; seq_swap sets
 *                       *swapped false (no error) when the version moved.
 *                       NULL entries (a catalog without them): 0A000.
 *   obj_put / obj_delete / obj_list
 *                     floe's other schema objects (sql/function.c: SQL
 *                     functions): one row each in floe_objects (namespace,
 *                     kind, key, definition text); obj_put with replace
 *                     false is 42723 when the key exists (the caller
 *                     words its own message), obj_delete sets *found;
 *                     obj_list returns every row of a kind (all schemas).
 *                     NULL entries (the REST catalog): 0A000.
 *   catalog_create_view / load_view / swap_view / drop_view / rename_view /
 *   list_views        views (sql/views.c), each an Iceberg view metadata file
 *                     (table/view_meta.h): in the JDBC catalogs (SQLite,
 *                     PostgreSQL) rows with iceberg_type 'VIEW' whose
 *                     metadata_location names it, in the REST catalog the
 *                     view endpoints (catalog_rest.c); a view and a table
 *                     never share a name (42P07); 42P01 for a missing view
 */
#ifndef FLOE_CATALOG_H
#define FLOE_CATALOG_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"

typedef struct Catalog Catalog;

/* A sequence's row (floe_sequences): its options and its state. */
typedef struct CatalogSeq {
	char data_type[16];        /* "smallint", "integer", "bigint" */
	int64_t start, increment, min, max, cache;
	bool cycle;
	int64_t last_value;        /* the last value reserved by any node */
	bool is_called;            /* false: last_value is the next to hand out */
	char *owned_by;            /* "table.column" (same schema) or NULL */
	int64_t version;           /* bumped by every seq_swap */
} CatalogSeq;

typedef struct CatalogVT {
	int (*create_namespace)(Catalog *c, const char *ns, floe_error *err);
	int (*drop_namespace)(Catalog *c, const char *ns, floe_error *err);
	int (*namespace_exists)(Catalog *c, const char *ns, bool *exists, floe_error *err);
	int (*list_namespaces)(Catalog *c, Arena *a, char ***names, int *n, floe_error *err);
	int (*create_table)(Catalog *c, const char *ns, const char *name,
			    const char *metadata_location, floe_error *err);
	int (*load_table)(Catalog *c, const char *ns, const char *name, Arena *a,
			  char **metadata_location, floe_error *err);
	int (*swap_table)(Catalog *c, const char *ns, const char *name,
			  const char *expected, const char *new_location, floe_error *err);
	int (*drop_table)(Catalog *c, const char *ns, const char *name, floe_error *err);
	/* transactions (sql/txn.c): every swap or none, in one transaction */
	int (*swap_tables)(Catalog *c, int n, const char *const *ns, const char *const *names,
			   const char *const *expected, const char *const *new_locations,
			   floe_error *err);
	int (*list_tables)(Catalog *c, const char *ns, Arena *a, char ***names, int *n,
			   floe_error *err);
	void (*close)(Catalog *c);
	int (*rename_table)(Catalog *c, const char *ns, const char *name, const char *new_ns,
			    const char *new_name, floe_error *err);
	/* sequences (sql/sequence.c) */
	int (*seq_create)(Catalog *c, const char *ns, const char *name, const CatalogSeq *seq,
			  floe_error *err);
	int (*seq_load)(Catalog *c, const char *ns, const char *name, Arena *a, CatalogSeq *out,
			floe_error *err);
	int (*seq_swap)(Catalog *c, const char *ns, const char *name, int64_t expected_version,
			const CatalogSeq *seq, bool *swapped, floe_error *err);
	int (*seq_drop)(Catalog *c, const char *ns, const char *name, floe_error *err);
	int (*seq_list)(Catalog *c, const char *ns, Arena *a, char ***names, int *n,
			floe_error *err);
	/* views (sql/views.c): iceberg_type 'VIEW' rows */
	int (*create_view)(Catalog *c, const char *ns, const char *name,
			   const char *metadata_location, floe_error *err);
	int (*load_view)(Catalog *c, const char *ns, const char *name, Arena *a,
			 char **metadata_location, floe_error *err);
	int (*swap_view)(Catalog *c, const char *ns, const char *name, const char *expected,
			 const char *new_location, floe_error *err);
	int (*drop_view)(Catalog *c, const char *ns, const char *name, floe_error *err);
	int (*rename_view)(Catalog *c, const char *ns, const char *name, const char *new_name,
			   floe_error *err);
	int (*list_views)(Catalog *c, const char *ns, Arena *a, char ***names, int *n,
			  floe_error *err);
	/* floe_objects rows (sql/function.c) */
	int (*obj_put)(Catalog *c, const char *ns, const char *kind, const char *key,
		       const char *definition, bool replace, floe_error *err);
	int (*obj_delete)(Catalog *c, const char *ns, const char *kind, const char *key,
			  bool *found, floe_error *err);
	int (*obj_list)(Catalog *c, const char *kind, Arena *a, char ***ns, char ***keys,
			char ***definitions, int *n, floe_error *err);
} CatalogVT;

struct Catalog {
	const CatalogVT *vt;
};

int catalog_sqlite_open(Catalog **out, const char *db_path, const char *catalog_name,
			floe_error *err);

/* conninfo: a libpq connection string or postgresql:// URI. */
int catalog_pg_open(Catalog **out, const char *conninfo, const char *catalog_name,
		    floe_error *err);

/* uri: http://host:port/path or https://... (the "rest+" removed); io reads
 * the metadata files a swap compares.  FLOE_REST_CREDENTIAL (id:secret,
 * OAuth2 client_credentials) or FLOE_REST_TOKEN (bearer) authenticate. */
struct FileIO;
int catalog_rest_open(Catalog **out, const char *uri, struct FileIO *io, floe_error *err);

#define catalog_close(c) ((c)->vt->close(c))
#define catalog_create_namespace(c, ns, e) ((c)->vt->create_namespace((c), (ns), (e)))
#define catalog_drop_namespace(c, ns, e) ((c)->vt->drop_namespace((c), (ns), (e)))
#define catalog_namespace_exists(c, ns, x, e) ((c)->vt->namespace_exists((c), (ns), (x), (e)))
#define catalog_list_namespaces(c, a, nm, n, e) ((c)->vt->list_namespaces((c), (a), (nm), (n), (e)))
#define catalog_create_table(c, ns, t, loc, e) ((c)->vt->create_table((c), (ns), (t), (loc), (e)))
#define catalog_load_table(c, ns, t, a, loc, e) ((c)->vt->load_table((c), (ns), (t), (a), (loc), (e)))
#define catalog_swap_table(c, ns, t, x, loc, e) ((c)->vt->swap_table((c), (ns), (t), (x), (loc), (e)))
#define catalog_swap_tables(c, n, ns, t, x, loc, e) \
	((c)->vt->swap_tables((c), (n), (ns), (t), (x), (loc), (e)))
#define catalog_drop_table(c, ns, t, e) ((c)->vt->drop_table((c), (ns), (t), (e)))
#define catalog_list_tables(c, ns, a, nm, n, e) ((c)->vt->list_tables((c), (ns), (a), (nm), (n), (e)))
#define catalog_rename_table(c, ns, t, nns, nt, e) \
	((c)->vt->rename_table((c), (ns), (t), (nns), (nt), (e)))

#define catalog_create_view(c, ns, v, loc, e) ((c)->vt->create_view((c), (ns), (v), (loc), (e)))
#define catalog_load_view(c, ns, v, a, loc, e) ((c)->vt->load_view((c), (ns), (v), (a), (loc), (e)))
#define catalog_swap_view(c, ns, v, x, loc, e) ((c)->vt->swap_view((c), (ns), (v), (x), (loc), (e)))
#define catalog_drop_view(c, ns, v, e) ((c)->vt->drop_view((c), (ns), (v), (e)))
#define catalog_rename_view(c, ns, v, to, e) ((c)->vt->rename_view((c), (ns), (v), (to), (e)))
#define catalog_list_views(c, ns, a, nm, n, e) ((c)->vt->list_views((c), (ns), (a), (nm), (n), (e)))

#endif
