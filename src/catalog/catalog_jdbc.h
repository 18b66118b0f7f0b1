/*
 * catalog_jdbc.h — the SQL catalog backends' shared part (catalog_jdbc.c):
 * Iceberg's JDBC catalog (apache/iceberg JdbcUtil.java, schema V1 with
 * iceberg_type) over any SQL driver.  A backend (catalog_sqlite.c,
 * catalog_pg.c) supplies a JdbcDriver: how to run one statement with text
 * parameters on a connection, and how to open, pool and close connections;
 * this layer holds the catalog's logic: namespaces, the table rows, the
 * compare-and-swap commits, the connection pool and the vtable.
 *
 * SQL given to a driver numbers its parameters $1..$n (PostgreSQL's form;
 * SQLite reads $1 as a named parameter, numbered by first appearance, and
 * every text here first names them in order).
 *
 * Folder-private to src/catalog/.
 *
 * INTERFACE ROUTINES
 *   catalog_jdbc_new(&cat, driver, info, catalog_name, first_conn)
 */
#ifndef FLOE_CATALOG_JDBC_H
#define FLOE_CATALOG_JDBC_H

#include "catalog/catalog.h"

typedef struct JdbcDriver {
	const char *begin_sql;   /* starts a multi-table swap: "BEGIN IMMEDIATE" / "BEGIN" */
	const char *name_order;  /* after ORDER BY table_name: "" or " COLLATE \"C\"" */
	int pool_idle_max;       /* idle connections kept */
	/* Run sql with args (NULL = SQL NULL).  rows != NULL: the first column
	 * of every result row into an arena array (NULL for SQL NULL), *nrows;
	 * changes != NULL: the rows the statement changed.  retry: a statement
	 * that failed because the connection broke may run again on a reset
	 * one (never for a swap, whose outcome must be resolved instead). */
	int (*exec)(void *conn, floe_error *err, bool retry, const char *sql, int n,
		    const char *const *args, Arena *a, char ***rows, int *nrows, int *changes);
	int (*connect)(const char *info, void **conn, floe_error *err);
	bool (*reusable)(void *conn);     /* may go back to the pool (idle, healthy) */
	void (*disconnect)(void *conn);
	bool (*broken)(void *conn);       /* the connection is lost */
	bool (*reset)(void *conn);        /* reconnect a lost one; false: cannot */
} JdbcDriver;

/* floe's own table beside Iceberg's (sequences, catalog.h CatalogSeq),
 * in SQL both SQLite and PostgreSQL run; every backend's schema step
 * appends it. */
#define CATALOG_JDBC_SEQ_SCHEMA                                              \
	"CREATE TABLE IF NOT EXISTS floe_sequences("                          \
	"catalog_name VARCHAR(255) NOT NULL,"                                 \
	"seq_namespace VARCHAR(255) NOT NULL,"                                \
	"seq_name VARCHAR(255) NOT NULL,"                                     \
	"data_type VARCHAR(16) NOT NULL,"                                     \
	"start_value BIGINT NOT NULL, increment_by BIGINT NOT NULL,"          \
	"min_value BIGINT NOT NULL, max_value BIGINT NOT NULL,"               \
	"cache_size BIGINT NOT NULL, cycle INTEGER NOT NULL,"                 \
	"last_value BIGINT NOT NULL, is_called INTEGER NOT NULL,"             \
	"owned_by VARCHAR(600), version BIGINT NOT NULL,"                     \
	"PRIMARY KEY (catalog_name, seq_namespace, seq_name));"             \
	"CREATE TABLE IF NOT EXISTS floe_objects("                            \
	"catalog_name VARCHAR(255) NOT NULL,"                                 \
	"obj_namespace VARCHAR(255) NOT NULL,"                                \
	"obj_kind VARCHAR(16) NOT NULL,"                                      \
	"obj_key VARCHAR(1000) NOT NULL,"                                     \
	"definition TEXT NOT NULL,"                                           \
	"PRIMARY KEY (catalog_name, obj_namespace, obj_kind, obj_key));"

/* The catalog over drv: info is what drv->connect opens more connections
 * with; first_conn (open, schema in place) becomes the first pooled one. */
int catalog_jdbc_new(Catalog **out, const JdbcDriver *drv, const char *info,
		     const char *catalog_name, void *first_conn);

#endif
