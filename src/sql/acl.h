/*
 * acl.h — roles and privileges: CREATE / ALTER / DROP ROLE, GRANT /
 * REVOKE of table and schema privileges, and their enforcement on every
 * statement (42501), plus confinement of server-side file access.
 *
 * Spec: PostgreSQL 15 docs "Database Roles", "Privileges", GRANT, REVOKE,
 * CREATE ROLE; pg_read_server_files / pg_write_server_files.
 *
 * INTERFACE ROUTINES
 *   acl_check_stmt(s, ctx, st)        may the session's role run st?  42501
 *   acl_exec(s, ctx, node, sink)      CREATE/ALTER/DROP ROLE, GRANT, REVOKE
 *   acl_check_file(s, path, write, err)   server-side file path allowed?
 *   acl_is_superuser(s)               is the session's current role a superuser?
 *   acl_allow_dir(dir, err)           add a directory server-side files may be
 *                                     in (floe --allow-dir; process-wide)
 */
#ifndef FLOE_SQL_ACL_H
#define FLOE_SQL_ACL_H

#include <stdbool.h>
#include "sql/bind.h"

int acl_check_stmt(Session *s, ExecCtx *ctx, const SqlStmt *st);
int acl_exec(Session *s, ExecCtx *ctx, Node *n, ResultSink *sink);
int acl_check_file(Session *s, const char *path, bool write, floe_error *err);
bool acl_is_superuser(Session *s);
int acl_allow_dir(const char *dir, floe_error *err);

#endif
