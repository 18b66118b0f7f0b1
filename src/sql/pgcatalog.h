/*
 * pgcatalog.h — what sql/pgcatalog.c offers the rest of sql/ besides the
 * pg_catalog and information_schema relations themselves
 * (pgcatalog_relation, bind.h): the oids, names and settings that
 * regclass/regtype casts, pg_table_is_visible, the session functions
 * (current_user, current_database(), current_setting ...) and acl.c need.
 *
 * Invariants: oids are int4 in floe (docs/catalog.md); a table's oid is a
 * function of its (schema, name) alone.  Errors are floe_error with
 * PostgreSQL's SQLSTATE.
 */
#ifndef FLOE_SQL_PGCATALOG_H
#define FLOE_SQL_PGCATALOG_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "sql/engine.h"
#include "types/types.h"

/* The oids of every relation a session sees (pg_catalog's and the
 * catalog's), for pg_table_is_visible. */
int pgcatalog_visible_oids(Session *s, Arena *a, int64_t **oids, int *n, floe_error *err);
/* 'name'::regclass and 'schema.name'::regclass: the table's oid */
int pgcatalog_regclass(Session *s, Arena *a, const char *text, int64_t *oid, floe_error *err);
/* 'name'::regtype for the types of pg_type (and their SQL spellings) */
int pgcatalog_regtype(const char *text, int64_t *oid, floe_error *err);
int64_t pgcatalog_table_oid(const char *ns, const char *name);
int64_t pgcatalog_ns_oid(const char *ns);
/* pg_type's oid for t, and the atttypmod PostgreSQL shows for it */
uint32_t pgcatalog_type_oid(SqlType t);
int32_t pgcatalog_typmod(SqlType t);
/* Is (schema, name) one of pgcatalog.c's relations? */
bool pgcatalog_is_relation(Session *s, const char *schema, const char *name);

/* current_user (SET ROLE, else the session's role); session_user (the
 * login role: session_authorization when the embedder set it, DEFAULT_USER
 * in the shell); current_database() */
const char *pgcatalog_user(Session *s);
const char *pgcatalog_session_user(Session *s);
const char *pgcatalog_database(Session *s);
/* current_setting(name): the value of setting `name` (case-insensitive),
 * *found false when floe has no such setting; pgcatalog_settings: every
 * setting's name and value, for current_setting over a column. */
const char *pgcatalog_setting(Session *s, const char *name, bool *found);
int pgcatalog_settings(Session *s, Arena *a, const char ***names, const char ***values);
/* pg_get_indexdef / pg_get_constraintdef of every primary key, for
 * bind_expr.c (which binds those functions over the oids it is given) */
int pgcatalog_pkey_defs(Session *s, Arena *a, bool pretty, int64_t **oids, int **cols,
			const char ***defs, int *n, floe_error *err);
/* ... and pg_get_viewdef of every view (cols[i] 0) */
int pgcatalog_view_defs(Session *s, Arena *a, int64_t **oids, int **cols, const char ***defs, int *n,
			floe_error *err);

#endif
