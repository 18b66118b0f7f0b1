/*
 * catalog_jdbc.c — Iceberg's JDBC catalog over a SQL driver: the logic the
 * SQLite and PostgreSQL catalogs share (catalog_jdbc.h; catalog.h for the
 * interface and its errors).
 *
 * Spec: apache/iceberg core/.../jdbc/JdbcUtil.java and JdbcCatalog.java
 * (schema V1: iceberg_type).  A namespace exists when it has a property row
 * (we write "exists"="true", as JdbcCatalog does) or a table.  Tables carry
 * iceberg_type 'TABLE'; rows with NULL type (written by pre-V1 JDBC
 * catalogs) count as tables; views have iceberg_type 'VIEW' (JdbcCatalog's
 * view support, V1 schema) and their own calls (view_*).
 *
 *   swap:        UPDATE iceberg_tables SET metadata_location = $new,
 *                previous_metadata_location = $expected WHERE key AND
 *                metadata_location = $expected     (JdbcUtil's DO_COMMIT_SQL;
 *                0 rows -> 40001, or 42P01 when the table is gone)
 *   rename:      UPDATE iceberg_tables SET table_namespace, table_name
 *                (JdbcCatalog.renameTable; 42P07 when the new name is taken)
 *   sequences:   one row each in floe_sequences (CATALOG_JDBC_SEQ_SCHEMA);
 *                seq_swap is UPDATE ... version = version + 1 WHERE key
 *                AND version = $expected (0 rows: not swapped)
 *   swap_tables: driver->begin_sql; the same UPDATE per table; COMMIT when
 *                every one changed a row, else ROLLBACK and 40001 (42P01).
 *
 * Connection loss (a driver whose connections can break: PostgreSQL): a
 * swap whose connection broke has an unknown outcome, so the catalog
 * reconnects and reads the tables' locations (resolve): all at the new
 * ones -> it landed (success); all at the expected ones -> it did not, and
 * runs once more; else 40001.  Only when no connection can be made is it
 * 08006 ("outcome unknown"), never 40001, so the caller keeps its files.
 *
 * Threads: the Engine's sessions call the catalog concurrently (server.c).
 * Every call takes a connection of its own from a pool (opened on demand,
 * at most driver->pool_idle_max kept idle) and gives it back when done, so
 * no other call's statement runs inside a swap_tables transaction; a
 * connection the driver finds not reusable (broken, or left inside a
 * transaction) is closed, not pooled.
 *
 * INTERFACE ROUTINES
 *   catalog_jdbc_new(&cat, driver, info, catalog_name, first_conn)
 *   (the vtable of catalog.h)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "catalog/catalog_jdbc.h"

typedef struct Pool {
	pthread_mutex_t mu;
	char *info;
	void **idle;
	int nidle;
} Pool;

/* The shared catalog has conn = NULL; each call runs on a copy of it with
 * conn set to the connection it took (see WRAP below). */
typedef struct JdbcCatalog {
	Catalog base;
	const JdbcDriver *drv;
	void *conn;
	char *name;
	Pool *pool;
} JdbcCatalog;

#define J(c) ((JdbcCatalog *)(c))

/* ---- statements ------------------------------------------------------- */

static int
exec_changes(Catalog *c, floe_error *err, bool retry, int *changes, const char *sql, int n,
	     const char *const *args)
{
	return J(c)->drv->exec(J(c)->conn, err, retry, sql, n, args, NULL, NULL, NULL, changes);
}

static int
any_row(Catalog *c, floe_error *err, bool *found, const char *sql, int n,
	const char *const *args)
{
	Arena *a = arena_new(0);
	char **rows;
	int nrows = 0, rc;

	rc = J(c)->drv->exec(J(c)->conn, err, true, sql, n, args, a, &rows, &nrows, NULL);
	*found = nrows > 0;
	arena_free(a);
	return rc;
}

static int
list_rows(Catalog *c, floe_error *err, Arena *a, char ***out, int *nout, const char *sql,
	  int n, const char *const *args)
{
	return J(c)->drv->exec(J(c)->conn, err, true, sql, n, args, a, out, nout, NULL);
}

/* ---- namespaces ------------------------------------------------------- */

static int
ns_exists(Catalog *c, const char *ns, bool *exists, floe_error *err)
{
	const char *args[] = { J(c)->name, ns };

	TRY(any_row(c, err, exists,
		    "SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = $1 "
		    "AND namespace = $2 LIMIT 1", 2, args));
	if (*exists)
		return FLOE_OK;
	return any_row(c, err, exists,
		       "SELECT 1 FROM iceberg_tables WHERE catalog_name = $1 "
		       "AND table_namespace = $2 LIMIT 1", 2, args);
}

static int
ns_create(Catalog *c, const char *ns, floe_error *err)
{
	const char *args[] = { J(c)->name, ns };
	bool exists;
	int changes = 0;

	TRY(ns_exists(c, ns, &exists, err));
	if (exists)
		return floe_errorf(err, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", ns);
	TRY(exec_changes(c, err, true, &changes,
			 "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, "
			 "property_key, property_value) VALUES ($1, $2, 'exists', 'true') "
			 "ON CONFLICT DO NOTHING", 2, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", ns);
	return FLOE_OK;
}

static int
ns_drop(Catalog *c, const char *ns, floe_error *err)
{
	const char *args[] = { J(c)->name, ns };
	bool exists, has_tables;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	TRY(any_row(c, err, &has_tables,
		    "SELECT 1 FROM iceberg_tables WHERE catalog_name = $1 "
		    "AND table_namespace = $2 LIMIT 1", 2, args));
	if (has_tables)
		return floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				   "cannot drop schema \"%s\" because other objects depend on it", ns);
	TRY(exec_changes(c, err, true, NULL,
			 "DELETE FROM floe_objects WHERE catalog_name = $1 AND obj_namespace = $2",
			 2, args));
	return exec_changes(c, err, true, NULL,
			    "DELETE FROM iceberg_namespace_properties WHERE catalog_name = $1 "
			    "AND namespace = $2", 2, args);
}

static int
ns_list(Catalog *c, Arena *a, char ***names, int *n, floe_error *err)
{
	const char *args[] = { J(c)->name };

	return list_rows(c, err, a, names, n,
			 "SELECT namespace FROM iceberg_namespace_properties WHERE catalog_name = $1 "
			 "UNION SELECT table_namespace FROM iceberg_tables WHERE catalog_name = $1 "
			 "ORDER BY 1", 1, args);
}

/* ---- tables ----------------------------------------------------------- */

/* A new iceberg_tables row of iceberg_type type ('TABLE' | 'VIEW'): 3F000
 * without the namespace, 42P07 when the name is taken (by either kind). */
static int
row_create(Catalog *c, const char *ns, const char *name, const char *loc, const char *type,
	   floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name, loc, type };
	bool exists;
	int changes = 0;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	TRY(exec_changes(c, err, true, &changes,
			 "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
			 "metadata_location, previous_metadata_location, iceberg_type) "
			 "VALUES ($1, $2, $3, $4, NULL, $5) ON CONFLICT DO NOTHING", 5, args));
	if (changes == 0 && !strcmp(type, "VIEW"))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	if (changes == 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s.%s\" already exists",
				   ns, name);
	return FLOE_OK;
}

static int
tbl_create(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	return row_create(c, ns, name, loc, "TABLE", err);
}

static int
tbl_load(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name };
	char **rows;
	int nrows = 0;

	TRY(list_rows(c, err, a, &rows, &nrows,
		      "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = $1 "
		      "AND table_namespace = $2 AND table_name = $3 "
		      "AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", 3, args));
	if (nrows == 0 || !rows[0])
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist",
				   ns, name);
	*loc = rows[0];
	return FLOE_OK;
}

static int
tbl_drop(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name };
	int changes = 0;

	TRY(exec_changes(c, err, true, &changes,
			 "DELETE FROM iceberg_tables WHERE catalog_name = $1 AND "
			 "table_namespace = $2 AND table_name = $3 "
			 "AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", 3, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist",
				   ns, name);
	return FLOE_OK;
}

static int
tbl_list(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	const char *args[] = { J(c)->name, ns };
	bool exists;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	return list_rows(c, err, a, names, n,
			 arena_sprintf(a, "SELECT table_name FROM iceberg_tables WHERE "
				       "catalog_name = $1 AND table_namespace = $2 AND "
				       "(iceberg_type = 'TABLE' OR iceberg_type IS NULL) "
				       "ORDER BY table_name%s", J(c)->drv->name_order),
			 2, args);
}

static int
tbl_rename(Catalog *c, const char *ns, const char *name, const char *new_ns,
	   const char *new_name, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name, new_ns, new_name };
	const char *targs[] = { J(c)->name, new_ns, new_name };
	Arena *a = arena_new(0);
	char **rows;
	int nrows = 0, changes = 0, rc;

	rc = list_rows(c, err, a, &rows, &nrows,
		       "SELECT table_name FROM iceberg_tables WHERE catalog_name = $1 "
		       "AND table_namespace = $2 AND table_name = $3", 3, targs);
	arena_free(a);
	TRY(rc);
	if (nrows > 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists",
				   new_name);
	TRY(exec_changes(c, err, true, &changes,
			 "UPDATE iceberg_tables SET table_namespace = $4, table_name = $5 "
			 "WHERE catalog_name = $1 AND table_namespace = $2 AND table_name = $3 "
			 "AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)", 5, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist",
				   ns, name);
	return FLOE_OK;
}

/* ---- commits ---------------------------------------------------------- */

static const char SWAP_SQL[] =
	"UPDATE iceberg_tables SET metadata_location = $1, previous_metadata_location = $2 "
	"WHERE catalog_name = $3 AND table_namespace = $4 AND table_name = $5 "
	"AND metadata_location = $2";

/* 40001, or 42P01 when the table is gone. */
static int
swap_lost(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	Arena *a = arena_new(0);
	char *cur;
	int rc = tbl_load(c, ns, name, a, &cur, err);

	arena_free(a);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit table \"%s.%s\": concurrent update", ns, name);
}

static int
swap_once(Catalog *c, int n, const char *const *ns, const char *const *names,
	  const char *const *expected, const char *const *new_locs, floe_error *err)
{
	floe_error ignore;
	int i, changes = 0;

	if (n == 1) {
		const char *args[] = { new_locs[0], expected[0], J(c)->name, ns[0], names[0] };
		TRY(exec_changes(c, err, false, &changes, SWAP_SQL, 5, args));
		if (changes == 1)
			return FLOE_OK;
		return swap_lost(c, ns[0], names[0], err);
	}
	TRY(exec_changes(c, err, true, NULL, J(c)->drv->begin_sql, 0, NULL));
	for (i = 0; i < n; i++) {
		const char *args[] = { new_locs[i], expected[i], J(c)->name, ns[i], names[i] };
		changes = 0;
		if (exec_changes(c, err, false, &changes, SWAP_SQL, 5, args) != FLOE_OK)
			goto fail;
		if (changes != 1) {
			(void)exec_changes(c, &ignore, false, NULL, "ROLLBACK", 0, NULL);
			return swap_lost(c, ns[i], names[i], err);
		}
	}
	if (exec_changes(c, err, false, NULL, "COMMIT", 0, NULL) == FLOE_OK)
		return FLOE_OK;
fail:
	if (!J(c)->drv->broken(J(c)->conn))
		(void)exec_changes(c, &ignore, false, NULL, "ROLLBACK", 0, NULL);
	return FLOE_ERR;
}

/* After the connection broke during a swap: reconnect and read where the
 * tables are.  All at new: the swap landed (FLOE_OK, *landed).  All at
 * expected: it did not (FLOE_OK, !*landed: the caller may run it again).
 * Otherwise 40001; no connection: 08006, the outcome unknown. */
static int
resolve(Catalog *c, int n, const char *const *ns, const char *const *names,
	const char *const *expected, const char *const *new_locs, bool *landed, floe_error *err)
{
	Arena *a;
	int i, at_new = 0, at_old = 0;

	if (!J(c)->drv->reset(J(c)->conn))
		return floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
				   "catalog: connection lost during a commit; its outcome is unknown");
	a = arena_new(0);
	for (i = 0; i < n; i++) {
		char *cur;
		if (tbl_load(c, ns[i], names[i], a, &cur, err) != FLOE_OK) {
			/* not read (also a cancel, which stops the read before
			 * it is sent): the outcome stays unknown, never "lost" */
			char why[sizeof err->message];
			snprintf(why, sizeof why, "%s", err->message);
			arena_free(a);
			return floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
					   "catalog: connection lost during a commit; its outcome is "
					   "unknown (%s)", why);
		}
		at_new += !strcmp(cur, new_locs[i]);
		at_old += !strcmp(cur, expected[i]);
	}
	arena_free(a);
	*landed = at_new == n;
	if (at_new == n || at_old == n)
		return FLOE_OK;
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit: concurrent update");
}

/* A swap, resolved and run once more when the connection broke under it. */
static int
tbl_swap_many(Catalog *c, int n, const char *const *ns, const char *const *names,
	      const char *const *expected, const char *const *new_locs, floe_error *err)
{
	int attempt;
	bool landed;

	for (attempt = 0; attempt < 2; attempt++) {
		if (swap_once(c, n, ns, names, expected, new_locs, err) == FLOE_OK)
			return FLOE_OK;
		if (!J(c)->drv->broken(J(c)->conn))
			return FLOE_ERR;
		TRY(resolve(c, n, ns, names, expected, new_locs, &landed, err));
		if (landed)
			return FLOE_OK;
	}
	return FLOE_ERR;
}

static int
tbl_swap(Catalog *c, const char *ns, const char *name, const char *expected,
	 const char *new_loc, floe_error *err)
{
	return tbl_swap_many(c, 1, &ns, &name, &expected, &new_loc, err);
}

/* ---- sequences (floe_sequences) --------------------------------------- */

/* One row as one text (drivers return a row's first column only). */
static const char SEQ_ROW_SQL[] =
	"SELECT data_type || '|' || start_value || '|' || increment_by || '|' || min_value "
	"|| '|' || max_value || '|' || cache_size || '|' || cycle || '|' || last_value || '|' "
	"|| is_called || '|' || version || '|' || COALESCE(owned_by, '') FROM floe_sequences "
	"WHERE catalog_name = $1 AND seq_namespace = $2 AND seq_name = $3";

static void
seq_args(Arena *a, const CatalogSeq *q, const char **v)
{
	v[0] = q->data_type;
	v[1] = arena_sprintf(a, "%lld", (long long)q->start);
	v[2] = arena_sprintf(a, "%lld", (long long)q->increment);
	v[3] = arena_sprintf(a, "%lld", (long long)q->min);
	v[4] = arena_sprintf(a, "%lld", (long long)q->max);
	v[5] = arena_sprintf(a, "%lld", (long long)q->cache);
	v[6] = q->cycle ? "1" : "0";
	v[7] = arena_sprintf(a, "%lld", (long long)q->last_value);
	v[8] = q->is_called ? "1" : "0";
	v[9] = q->owned_by;
}

static int
seq_create(Catalog *c, const char *ns, const char *name, const CatalogSeq *q, floe_error *err)
{
	Arena *a = arena_new(0);
	const char *args[13];
	bool exists;
	int changes = 0, rc;

	if (ns_exists(c, ns, &exists, err) != FLOE_OK)
		goto fail;
	if (!exists) {
		floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
		goto fail;
	}
	args[0] = J(c)->name;
	args[1] = ns;
	args[2] = name;
	seq_args(a, q, args + 3);
	rc = exec_changes(c, err, true, &changes,
			  "INSERT INTO floe_sequences (catalog_name, seq_namespace, seq_name, data_type, "
			  "start_value, increment_by, min_value, max_value, cache_size, cycle, "
			  "last_value, is_called, owned_by, version) VALUES ($1, $2, $3, $4, $5, $6, "
			  "$7, $8, $9, $10, $11, $12, $13, 1) ON CONFLICT DO NOTHING", 13, args);
	arena_free(a);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	if (changes == 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	return FLOE_OK;
fail:
	arena_free(a);
	return FLOE_ERR;
}

static int
seq_field(char **p, int64_t *v)
{
	char *end;

	*v = strtoll(*p, &end, 10);
	if (end == *p || *end != '|')
		return -1;
	*p = end + 1;
	return 0;
}

static int
seq_load(Catalog *c, const char *ns, const char *name, Arena *a, CatalogSeq *q, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name };
	char **rows, *p, *bar;
	int nrows = 0;
	int64_t cyc, called;

	TRY(list_rows(c, err, a, &rows, &nrows, SEQ_ROW_SQL, 3, args));
	if (nrows == 0 || !rows[0])
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
	memset(q, 0, sizeof *q);
	p = rows[0];
	if (!(bar = strchr(p, '|')) || bar - p >= (long)sizeof q->data_type)
		goto bad;
	memcpy(q->data_type, p, (size_t)(bar - p));
	p = bar + 1;
	if (seq_field(&p, &q->start) || seq_field(&p, &q->increment) || seq_field(&p, &q->min) ||
	    seq_field(&p, &q->max) || seq_field(&p, &q->cache) || seq_field(&p, &cyc) ||
	    seq_field(&p, &q->last_value) || seq_field(&p, &called) || seq_field(&p, &q->version))
		goto bad;
	q->cycle = cyc != 0;
	q->is_called = called != 0;
	q->owned_by = *p ? p : NULL;
	return FLOE_OK;
bad:
	return floe_errorf(err, ERRCODE_DATA_CORRUPTED, "catalog: bad floe_sequences row for \"%s.%s\"",
			   ns, name);
}

static int
seq_swap(Catalog *c, const char *ns, const char *name, int64_t expected, const CatalogSeq *q,
	 bool *swapped, floe_error *err)
{
	Arena *a = arena_new(0);
	const char *args[14];
	int changes = 0, rc;

	seq_args(a, q, args);
	args[10] = J(c)->name;
	args[11] = ns;
	args[12] = name;
	args[13] = arena_sprintf(a, "%lld", (long long)expected);
	rc = exec_changes(c, err, true, &changes,
			  "UPDATE floe_sequences SET data_type = $1, start_value = $2, increment_by = $3, "
			  "min_value = $4, max_value = $5, cache_size = $6, cycle = $7, last_value = $8, "
			  "is_called = $9, owned_by = $10, version = version + 1 WHERE catalog_name = $11 "
			  "AND seq_namespace = $12 AND seq_name = $13 AND version = $14", 14, args);
	arena_free(a);
	*swapped = changes == 1;
	return rc;
}

static int
seq_drop(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name };
	int changes = 0;

	TRY(exec_changes(c, err, true, &changes,
			 "DELETE FROM floe_sequences WHERE catalog_name = $1 AND seq_namespace = $2 "
			 "AND seq_name = $3", 3, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "sequence \"%s\" does not exist", name);
	return FLOE_OK;
}

static int
seq_list(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	const char *args[] = { J(c)->name, ns };

	return list_rows(c, err, a, names, n,
			 arena_sprintf(a, "SELECT seq_name FROM floe_sequences WHERE catalog_name = $1 "
				       "AND seq_namespace = $2 ORDER BY seq_name%s", J(c)->drv->name_order),
			 2, args);
}

/* ---- other objects (floe_objects) ------------------------------------ */

static int
obj_put(Catalog *c, const char *ns, const char *kind, const char *key, const char *def,
	bool replace, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, kind, key, def };
	bool exists;
	int changes = 0;

	TRY(ns_exists(c, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	if (replace) {
		TRY(exec_changes(c, err, true, &changes,
				 "UPDATE floe_objects SET definition = $5 WHERE catalog_name = $1 AND "
				 "obj_namespace = $2 AND obj_kind = $3 AND obj_key = $4", 5, args));
		if (changes > 0)
			return FLOE_OK;
	}
	TRY(exec_changes(c, err, true, &changes,
			 "INSERT INTO floe_objects (catalog_name, obj_namespace, obj_kind, obj_key, "
			 "definition) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING", 5, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_FUNCTION, "\"%s\" already exists", key);
	return FLOE_OK;
}

static int
obj_delete(Catalog *c, const char *ns, const char *kind, const char *key, bool *found,
	   floe_error *err)
{
	const char *args[] = { J(c)->name, ns, kind, key };
	int changes = 0;

	TRY(exec_changes(c, err, true, &changes,
			 "DELETE FROM floe_objects WHERE catalog_name = $1 AND obj_namespace = $2 "
			 "AND obj_kind = $3 AND obj_key = $4", 4, args));
	*found = changes > 0;
	return FLOE_OK;
}

/* One row as one text (drivers return a row's first column only): the
 * three fields joined by a unit separator (0x1f), which names and SQL
 * text never hold. */
static int
obj_list(Catalog *c, const char *kind, Arena *a, char ***nss, char ***keys, char ***defs,
	 int *n, floe_error *err)
{
	const char *args[] = { J(c)->name, kind, "\x1f" };
	char **rows;
	int nrows = 0, i, k = 0;

	TRY(list_rows(c, err, a, &rows, &nrows,
		      "SELECT obj_namespace || $3 || obj_key || $3 || definition FROM floe_objects "
		      "WHERE catalog_name = $1 AND obj_kind = $2 ORDER BY obj_namespace, obj_key",
		      3, args));
	*nss = ARENA_ARRAY(a, char *, nrows + 1);
	*keys = ARENA_ARRAY(a, char *, nrows + 1);
	*defs = ARENA_ARRAY(a, char *, nrows + 1);
	for (i = 0; i < nrows; i++) {
		char *p = rows[i], *q, *r;
		if (!p || !(q = strchr(p, '\x1f')) || !(r = strchr(q + 1, '\x1f')))
			return floe_errorf(err, ERRCODE_DATA_CORRUPTED, "catalog: bad floe_objects row");
		*q = *r = 0;
		(*nss)[k] = p;
		(*keys)[k] = q + 1;
		(*defs)[k] = r + 1;
		k++;
	}
	*n = k;
	return FLOE_OK;
}

/* ---- views (iceberg_type 'VIEW') -------------------------------------- */

static int
view_create(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	return row_create(c, ns, name, loc, "VIEW", err);
}

static int
view_load(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name };
	char **rows;
	int nrows = 0;

	TRY(list_rows(c, err, a, &rows, &nrows,
		      "SELECT metadata_location FROM iceberg_tables WHERE catalog_name = $1 "
		      "AND table_namespace = $2 AND table_name = $3 AND iceberg_type = 'VIEW'", 3, args));
	if (nrows == 0 || !rows[0])
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "view \"%s.%s\" does not exist", ns, name);
	*loc = rows[0];
	return FLOE_OK;
}

static int
view_swap(Catalog *c, const char *ns, const char *name, const char *expected, const char *new_loc,
	  floe_error *err)
{
	const char *args[] = { new_loc, expected, J(c)->name, ns, name };
	int changes = 0;

	TRY(exec_changes(c, err, false, &changes,
			 "UPDATE iceberg_tables SET metadata_location = $1, previous_metadata_location = $2 "
			 "WHERE catalog_name = $3 AND table_namespace = $4 AND table_name = $5 "
			 "AND metadata_location = $2 AND iceberg_type = 'VIEW'", 5, args));
	if (changes == 1)
		return FLOE_OK;
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not commit view \"%s.%s\": concurrent update", ns, name);
}

static int
view_drop(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	const char *args[] = { J(c)->name, ns, name };
	int changes = 0;

	TRY(exec_changes(c, err, true, &changes,
			 "DELETE FROM iceberg_tables WHERE catalog_name = $1 AND table_namespace = $2 "
			 "AND table_name = $3 AND iceberg_type = 'VIEW'", 3, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "view \"%s.%s\" does not exist", ns, name);
	return FLOE_OK;
}

static int
view_rename(Catalog *c, const char *ns, const char *name, const char *to, floe_error *err)
{
	const char *args[] = { to, J(c)->name, ns, name };
	const char *targs[] = { J(c)->name, ns, to };
	bool taken;
	int changes = 0;

	TRY(any_row(c, err, &taken,
		    "SELECT 1 FROM iceberg_tables WHERE catalog_name = $1 AND table_namespace = $2 "
		    "AND table_name = $3", 3, targs));
	if (taken)
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", to);
	TRY(exec_changes(c, err, true, &changes,
			 "UPDATE iceberg_tables SET table_name = $1 WHERE catalog_name = $2 "
			 "AND table_namespace = $3 AND table_name = $4 AND iceberg_type = 'VIEW'", 4, args));
	if (changes == 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "view \"%s.%s\" does not exist", ns, name);
	return FLOE_OK;
}

static int
view_list(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	const char *args[] = { J(c)->name, ns };

	return list_rows(c, err, a, names, n,
			 arena_sprintf(a, "SELECT table_name FROM iceberg_tables WHERE "
				       "catalog_name = $1 AND table_namespace = $2 AND "
				       "iceberg_type = 'VIEW' ORDER BY table_name%s", J(c)->drv->name_order),
			 2, args);
}

/* ---- the connection pool ---------------------------------------------- */

/* h = a copy of the shared catalog c with a connection of its own. */
static int
take(Catalog *c, JdbcCatalog *h, floe_error *err)
{
	Pool *p = J(c)->pool;

	*h = *J(c);
	h->conn = NULL;
	pthread_mutex_lock(&p->mu);
	if (p->nidle)
		h->conn = p->idle[--p->nidle];
	pthread_mutex_unlock(&p->mu);
	if (h->conn)
		return FLOE_OK;
	return h->drv->connect(p->info, &h->conn, err);
}

static void
give(JdbcCatalog *h)
{
	Pool *p = h->pool;
	void *conn = h->conn;

	if (h->drv->reusable(conn)) {
		pthread_mutex_lock(&p->mu);
		if (p->nidle < h->drv->pool_idle_max) {
			p->idle[p->nidle++] = conn;
			conn = NULL;
		}
		pthread_mutex_unlock(&p->mu);
	}
	if (conn)
		h->drv->disconnect(conn);
}

#define WRAP(fn, params, args)                                   \
	static int w_##fn params                                 \
	{                                                        \
		JdbcCatalog h;                                   \
		int rc;                                          \
		if (take(c, &h, err) != FLOE_OK)                 \
			return FLOE_ERR;                         \
		rc = fn args;                                    \
		give(&h);                                        \
		return rc;                                       \
	}

WRAP(ns_create, (Catalog *c, const char *ns, floe_error *err), (&h.base, ns, err))
WRAP(ns_drop, (Catalog *c, const char *ns, floe_error *err), (&h.base, ns, err))
WRAP(ns_exists, (Catalog *c, const char *ns, bool *exists, floe_error *err),
     (&h.base, ns, exists, err))
WRAP(ns_list, (Catalog *c, Arena *a, char ***names, int *n, floe_error *err),
     (&h.base, a, names, n, err))
WRAP(tbl_create, (Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err),
     (&h.base, ns, name, loc, err))
WRAP(tbl_load, (Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err),
     (&h.base, ns, name, a, loc, err))
WRAP(tbl_swap, (Catalog *c, const char *ns, const char *name, const char *expected,
		const char *new_loc, floe_error *err),
     (&h.base, ns, name, expected, new_loc, err))
WRAP(tbl_drop, (Catalog *c, const char *ns, const char *name, floe_error *err),
     (&h.base, ns, name, err))
WRAP(tbl_swap_many, (Catalog *c, int n, const char *const *ns, const char *const *names,
		     const char *const *expected, const char *const *new_locs, floe_error *err),
     (&h.base, n, ns, names, expected, new_locs, err))
WRAP(tbl_rename, (Catalog *c, const char *ns, const char *name, const char *new_ns,
		  const char *new_name, floe_error *err),
     (&h.base, ns, name, new_ns, new_name, err))
WRAP(tbl_list, (Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err),
     (&h.base, ns, a, names, n, err))
WRAP(seq_create, (Catalog *c, const char *ns, const char *name, const CatalogSeq *q,
		  floe_error *err), (&h.base, ns, name, q, err))
WRAP(seq_load, (Catalog *c, const char *ns, const char *name, Arena *a, CatalogSeq *q,
		floe_error *err), (&h.base, ns, name, a, q, err))
WRAP(seq_swap, (Catalog *c, const char *ns, const char *name, int64_t expected,
		const CatalogSeq *q, bool *swapped, floe_error *err),
     (&h.base, ns, name, expected, q, swapped, err))
WRAP(seq_drop, (Catalog *c, const char *ns, const char *name, floe_error *err),
     (&h.base, ns, name, err))
WRAP(seq_list, (Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err),
     (&h.base, ns, a, names, n, err))

WRAP(view_create, (Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err),
     (&h.base, ns, name, loc, err))
WRAP(view_load, (Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err),
     (&h.base, ns, name, a, loc, err))
WRAP(view_swap, (Catalog *c, const char *ns, const char *name, const char *expected,
		 const char *new_loc, floe_error *err),
     (&h.base, ns, name, expected, new_loc, err))
WRAP(view_drop, (Catalog *c, const char *ns, const char *name, floe_error *err),
     (&h.base, ns, name, err))
WRAP(view_rename, (Catalog *c, const char *ns, const char *name, const char *to, floe_error *err),
     (&h.base, ns, name, to, err))
WRAP(view_list, (Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err),
     (&h.base, ns, a, names, n, err))
WRAP(obj_put, (Catalog *c, const char *ns, const char *kind, const char *key, const char *def,
	       bool replace, floe_error *err), (&h.base, ns, kind, key, def, replace, err))
WRAP(obj_delete, (Catalog *c, const char *ns, const char *kind, const char *key, bool *found,
		  floe_error *err), (&h.base, ns, kind, key, found, err))
WRAP(obj_list, (Catalog *c, const char *kind, Arena *a, char ***nss, char ***keys, char ***defs,
		int *n, floe_error *err), (&h.base, kind, a, nss, keys, defs, n, err))

static void
cat_close(Catalog *c)
{
	JdbcCatalog *jc = J(c);
	int i;

	if (!c)
		return;
	for (i = 0; i < jc->pool->nidle; i++)
		jc->drv->disconnect(jc->pool->idle[i]);
	pthread_mutex_destroy(&jc->pool->mu);
	free(jc->pool->idle);
	free(jc->pool->info);
	free(jc->pool);
	free(jc->name);
	free(jc);
}

static const CatalogVT jdbc_vt = {
	.create_namespace = w_ns_create,
	.drop_namespace = w_ns_drop,
	.namespace_exists = w_ns_exists,
	.list_namespaces = w_ns_list,
	.create_table = w_tbl_create,
	.load_table = w_tbl_load,
	.swap_table = w_tbl_swap,
	.drop_table = w_tbl_drop,
	.swap_tables = w_tbl_swap_many,
	.list_tables = w_tbl_list,
	.close = cat_close,
	.rename_table = w_tbl_rename,
	.seq_create = w_seq_create,
	.seq_load = w_seq_load,
	.seq_swap = w_seq_swap,
	.seq_drop = w_seq_drop,
	.seq_list = w_seq_list,
	.create_view = w_view_create,
	.load_view = w_view_load,
	.swap_view = w_view_swap,
	.drop_view = w_view_drop,
	.rename_view = w_view_rename,
	.list_views = w_view_list,
	.obj_put = w_obj_put,
	.obj_delete = w_obj_delete,
	.obj_list = w_obj_list,
};

int
catalog_jdbc_new(Catalog **out, const JdbcDriver *drv, const char *info,
		 const char *catalog_name, void *first_conn)
{
	JdbcCatalog *c = xcalloc(1, sizeof *c);

	c->base.vt = &jdbc_vt;
	c->drv = drv;
	c->conn = NULL;
	c->name = xstrdup(catalog_name && *catalog_name ? catalog_name : "floe");
	c->pool = xcalloc(1, sizeof *c->pool);
	pthread_mutex_init(&c->pool->mu, NULL);
	c->pool->info = xstrdup(info);
	c->pool->idle = xcalloc((size_t)(drv->pool_idle_max > 0 ? drv->pool_idle_max : 1),
				sizeof(void *));
	c->pool->idle[c->pool->nidle++] = first_conn;   /* the first pooled connection */
	*out = &c->base;
	return FLOE_OK;
}
