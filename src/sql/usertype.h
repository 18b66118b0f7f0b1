/*
 * usertype.h — enums and domains (PostgreSQL 15 CREATE TYPE ... AS ENUM,
 * CREATE DOMAIN): stored in the catalog (floe_objects rows of kind "type",
 * usertype.c's top comment), known to the types layer through its
 * registry (types/udt.h).
 *
 * INTERFACE ROUTINES
 *   usertype_refresh(s, err)          every statement: the registry is the
 *                                     catalog's (reloaded when changed)
 *   usertype_catalog_closed(c)        engine_close: forget its types
 *   usertype_resolve(s, schema, name, &t)   a type name as written: false
 *                                     when no enum or domain has it
 *   usertype_owns(n) / usertype_exec(s, ctx, sql, n, sink)
 *                                     CREATE TYPE AS ENUM, ALTER TYPE (enum),
 *                                     CREATE / ALTER DOMAIN, DROP TYPE / DOMAIN
 *   usertype_create_domain / usertype_alter_domain   (domain.c)
 *   usertype_new / find / copy / store / users       domain.c's helpers
 *   domain_check_text(s, sql, base, n, a, &text, err)   a domain CHECK's
 *                                     expression checked and deparsed (check.c)
 */
#ifndef FLOE_SQL_USERTYPE_H
#define FLOE_SQL_USERTYPE_H

#include "sql/bind.h"
#include "table/table.h"
#include "types/udt.h"

int usertype_refresh(Session *s, floe_error *err);
/* engine_close: the registry held this catalog's types */
void usertype_catalog_closed(const Catalog *c);
bool usertype_resolve(Session *s, const char *schema, const char *name, SqlType *out);
bool usertype_owns(const Node *n);
int usertype_exec(Session *s, ExecCtx *ctx, const char *sql, Node *n, ResultSink *sink);

int usertype_create_domain(Session *s, ExecCtx *ctx, const char *sql,
			   PgQuery__CreateDomainStmt *cs, ResultSink *sink);
int usertype_alter_domain(Session *s, ExecCtx *ctx, const char *sql,
			  PgQuery__AlterDomainStmt *as, ResultSink *sink);

int usertype_new(Session *s, ExecCtx *ctx, Node **names, size_t nnames, Udt *u);
int usertype_find(Session *s, ExecCtx *ctx, Node **names, size_t nnames, const Udt **out);
Udt usertype_copy(const Udt *u, Arena *a, int extra);
int usertype_store(Session *s, const Udt *u, bool replace, floe_error *err);
int usertype_users(Session *s, Arena *a, uint32_t oid, const char ***cols, int *n,
		   floe_error *err);
typedef struct UtUse {
	Table *t;
	const char *table, *col;
} UtUse;
int usertype_uses(Session *s, Arena *a, uint32_t oid, UtUse **out, int *n, floe_error *err);
/* check.c: the domain CHECK text with VALUE as column col ("col"), for a
 * rowscan over a table using the domain */
int domain_check_on_column(const char *text, const char *col, Arena *a, char **out,
			   floe_error *err);

/* check.c: bind n as a domain CHECK over VALUE of type base (42P10... as
 * PostgreSQL refuses), *text its stored text */
int domain_check_text(Session *s, const char *sql, SqlType base, Node *n, Arena *a,
		      char **text, floe_error *err);

#endif
