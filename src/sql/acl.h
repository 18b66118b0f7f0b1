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
 *                                     (COPY's files, DDL, roles; the relations
 *                                     it reads and writes are checked by
 *                                     acl_note_rel / acl_note_target)
 *   acl_note_rel(s, ctx, ns, name, uuid, want, err)
 *                                     the binder resolved relation (ns, name):
 *                                     record it in the statement's list
 *                                     (ctx->acl) and check `want` at once,
 *                                     before any of its rows is read.  42501
 *   acl_note_target(s, ctx, t, want, err)
 *                                     the write target t as its statement's
 *                                     binder loaded it (INSERT, UPDATE, DELETE,
 *                                     MERGE, TRUNCATE, COPY FROM): acl_note_rel
 *                                     of `want` on it.  42501
 *   acl_write_privs(stmt) / acl_insert_privs(is) / acl_merge_privs(ms)
 *                                     the write privileges an INSERT / UPDATE
 *                                     / DELETE / MERGE needs on its target
 *                                     (its actions; ON CONFLICT DO UPDATE:
 *                                     UPDATE too)
 *   acl_exprs_read_target(es, n, ncols) / acl_note_target_read(s, ctx, t, reads, err)
 *                                     after binding: does a bound expression
 *                                     read a target column (SET, WHERE,
 *                                     RETURNING, ON CONFLICT, MERGE's ON and
 *                                     WHEN)?  Then SELECT on the target too,
 *                                     as PostgreSQL's selectedCols.  42501
 *   acl_lock_prepare(ctx, sel, clauses, n, err)
 *                                     SELECT ... FOR UPDATE / SHARE: the FROM
 *                                     items it locks (OF by reference name,
 *                                     FROM subqueries pushed down), with
 *                                     PostgreSQL's 42601 / 42P01 / 0A000 for
 *                                     a bad OF list (acl_check_stmt)
 *   acl_lock_enter(ctx, rv) / acl_lock_leave(ctx, saved) / acl_lock_cte(ctx, err)
 *                                     the binder resolves FROM item rv: when
 *                                     it is locked, the relation it resolves
 *                                     to (table, view) needs UPDATE too, at
 *                                     its acl_note_rel; a CTE is not locked
 *                                     (0A000 when OF names it)
 *   acl_check_sequence(s, ns, name, any, err)
 *                                     nextval / setval / currval / lastval of
 *                                     sequence ns.name: any of `any` held?
 *                                     42501 "permission denied for sequence"
 *   acl_forget_relation(s, ns, name, err)   DROP SEQUENCE: its grants go
 *                                     with it (sequences have no uuid)
 *   acl_schema_usage(s, ns) / acl_check_schema_usage(s, ctx, ns, err)
 *                                     USAGE on a schema (search_path.c skips
 *                                     a schema without it; a name qualified
 *                                     by one is 42501); CREATE on it is
 *                                     checked by acl_check_stmt
 *   acl_check_login(s, err)           may the session's login role connect?
 *                                     28000 for a NOLOGIN role (at connect,
 *                                     after authentication, as PostgreSQL)
 *   acl_exec(s, ctx, node, sink)      CREATE/ALTER/DROP ROLE, GRANT, REVOKE
 *   acl_check_file(s, path, write, err)   server-side file path allowed?
 *   acl_read_file(s, io, path, arena, &data, &len, err)
 *                                     read such a file (read_parquet, read_csv,
 *                                     read_json, COPY FORMAT parquet / INTO),
 *                                     opened as acl_open_file opens it
 *   acl_open_file(s, path, flags, err) / acl_open_parent(s, path, name, cap, err)
 *                                     open what acl_check_file allowed, confined
 *                                     beneath its allowed folder (no symbolic
 *                                     link swapped in since the check)
 *   acl_check_location(s, path, err) a table location or metadata file a
 *                                     server session names (CALL
 *                                     register_table, write.*.path): inside
 *                                     the warehouse or an --allow-dir?  42501
 *   acl_owner_begin(ctx) / acl_owner_end(ctx, mode)   a view's query reads
 *                                     with its owner's rights (views.c)
 *   acl_stmt_rels(ctx, &ns, &names)   the relations resolved so far
 *   acl_is_superuser(s)               is the session's current role a superuser?
 *   acl_allow_dir(dir, err)           add a directory server-side files may be
 *                                     in (floe --allow-dir; process-wide)
 *   acl_confine_io(io, warehouse, state, err)   floe serve: the table files too
 *   acl_list_roles(s, a, &roles, &n, &members, &nm, err)
 *                                     the roles and memberships pg_roles,
 *                                     pg_authid, pg_user, pg_auth_members show
 *   acl_table_grants(s, a, ns, table, &rows, &n, err)   information_schema
 *                                     table_privileges / role_table_grants rows
 *   acl_table_visible(s, ns, name, a, &out, err)   information_schema's per-role filter
 *   acl_relacl(s, a, ns, name, sequence, err)       pg_class.relacl (psql's \dp)
 *   acl_statement_env(s, a)           the SessionEnv for ExecCtx.env
 *   acl_privileges                    has_table_privilege, has_schema_privilege,
 *                                     pg_get_userbyid (func_pgcatalog.c) for the
 *                                     session of the statement's SessionEnv
 */
#ifndef FLOE_SQL_ACL_H
#define FLOE_SQL_ACL_H

#include <stdbool.h>
#include "func/session_env.h"
#include "sql/bind.h"
#include "server/users.h"      /* ROLE_PRIV_* */
#include "table/table.h"

int acl_check_stmt(Session *s, ExecCtx *ctx, const SqlStmt *st);
int acl_note_target(Session *s, ExecCtx *ctx, const Table *t, unsigned want, floe_error *err);
unsigned acl_write_privs(const Node *stmt);
unsigned acl_insert_privs(const PgQuery__InsertStmt *is);
unsigned acl_merge_privs(const PgQuery__MergeStmt *ms);
/* es: bound expressions over a scope whose first ncols columns are the
 * write target's (column i = field i) */
bool acl_exprs_read_target(Expr *const *es, int n, int ncols);
int acl_note_target_read(Session *s, ExecCtx *ctx, const Table *t, bool reads, floe_error *err);
int acl_lock_prepare(ExecCtx *ctx, const PgQuery__SelectStmt *sel, Node *const *clauses, size_t n,
		     floe_error *err);
unsigned acl_lock_enter(ExecCtx *ctx, const PgQuery__RangeVar *rv);
void acl_lock_leave(ExecCtx *ctx, unsigned saved);
int acl_lock_cte(ExecCtx *ctx, floe_error *err);
int acl_check_login(Session *s, floe_error *err);
/* any: ROLE_PRIV_USAGE / SELECT / UPDATE bits, one of which must be held
 * (PostgreSQL: nextval USAGE or UPDATE, currval / lastval USAGE or SELECT,
 * setval UPDATE); superusers and the session's temporary sequences pass */
int acl_check_sequence(Session *s, const char *ns, const char *name, unsigned any, floe_error *err);
int acl_forget_relation(Session *s, const char *ns, const char *name, floe_error *err);
/* May the session's current role use schema ns (USAGE; superusers, the
 * catalogs, public and its own temporary schema: yes)?  search_path.c
 * leaves other schemas out of the path, as PostgreSQL's.  acl_check_schema_usage:
 * 42501 "permission denied for schema" for a name qualified by one. */
bool acl_schema_usage(Session *s, const char *ns);
/* CREATE SCHEMA s AUTHORIZATION r (ddl.c): before the create (done false)
 * 42704 unless r exists; after it, r gets USAGE and CREATE on s, what
 * PostgreSQL's owner holds (floe records no owners) */
int acl_schema_authorization(Session *s, const PgQuery__CreateSchemaStmt *cs, bool done,
			     floe_error *err);
int acl_check_schema_usage(Session *s, ExecCtx *ctx, const char *ns, floe_error *err);
/* want: ROLE_PRIV_* (server/users.h); uuid: the table's Iceberg table-uuid
 * (NULL: a v1 table without one) */
int acl_note_rel(Session *s, ExecCtx *ctx, const char *ns, const char *name, const char *uuid,
		 unsigned want, floe_error *err);
int acl_exec(Session *s, ExecCtx *ctx, Node *n, ResultSink *sink);
/* views.c: a view's query is planned with its owner's rights (floe's
 * owner of every object is the superuser): between begin and end the
 * statement's relations are recorded, not checked; end restores begin's
 * result.  acl_stmt_rels: the relations the statement resolved so far. */
int acl_owner_begin(ExecCtx *ctx);
void acl_owner_end(ExecCtx *ctx, int mode);
int acl_stmt_rels(ExecCtx *ctx, const char ***ns, const char ***names);
int acl_check_file(Session *s, const char *path, bool write, floe_error *err);
int acl_check_location(Session *s, const char *path, floe_error *err);
/* Open a server-side file acl_check_file allowed (flags as open(2), a new
 * file 0644): confined beneath the allowed folder its real path is in
 * (storage/confined_open.h), so a component swapped for a symbolic link
 * since the check is refused, not followed.  -1: errno EXDEV with err
 * 42501 (outside), else errno as open(2) (err untouched).  The embedded
 * shell (no roles): open(2) as it is.  acl_open_parent: a descriptor of
 * the file's folder, the same way, its last component copied to name (for
 * openat / renameat of a file to be created). */
int acl_open_file(Session *s, const char *path, int flags, floe_error *err);
/* The bytes of a server-side file acl_check_file allowed, as fileio_read
 * gives them (path as the FileIO takes it: a file: URI, a prefix map):
 * a local file opened with acl_open_file (confined, O_NONBLOCK: a FIFO is
 * refused, never waited on) and mapped (fileio_map_fd); an object in
 * object storage, and the embedded shell's files, through fileio_read.
 * Every table function and COPY format that reads a file a statement
 * names reads it through this. */
struct FileIO;
int acl_read_file(Session *s, struct FileIO *io, const char *path, Arena *a, const uint8_t **data,
		  size_t *len, floe_error *err);
int acl_open_parent(Session *s, const char *path, char *name, size_t cap, floe_error *err);
bool acl_is_superuser(Session *s);
int acl_allow_dir(const char *dir, floe_error *err);
/* floe serve: confine the engine's FileIO (storage/fileio.h
 * fileio_confine) to the warehouse, its local state folder, the
 * temporary tables' folder and the --allow-dir folders: every table file
 * is then opened, made, renamed and removed beneath one of them without
 * following a symbolic link (a table location checked once and swapped
 * for a link later cannot lead outside). */
struct FileIO;
int acl_confine_io(struct FileIO *io, const char *warehouse, const char *state, floe_error *err);

typedef struct AclRoleRow {
	const char *name;
	int64_t oid;              /* 10: the first superuser; PostgreSQL's for
				     pg_read_server_files ...; else a hash */
	bool super, login;
} AclRoleRow;

typedef struct AclMemberRow {
	int64_t roleid, member;   /* member is in role roleid */
} AclMemberRow;

int acl_list_roles(Session *s, Arena *a, AclRoleRow **roles, int *n, AclMemberRow **members,
		   int *nmembers, floe_error *err);
/* May the session's role see relation ns.name in information_schema (it
 * holds some privilege on it, as PostgreSQL's views require; superusers
 * and sessions without roles see all)?  *out; FLOE_ERR only when the roles
 * file cannot be read. */
int acl_table_visible(Session *s, const char *ns, const char *name, Arena *a, bool *out,
		      floe_error *err);

/* has_table_privilege, has_schema_privilege and pg_get_userbyid for
 * func/ (func_pgcatalog.c), which reaches them through the statement's
 * SessionEnv (engine.c sets env->session to the Session and
 * env->privileges to this table): func/session_env.h's conventions. */
extern const SessionPrivileges acl_privileges;
/* The SessionEnv of a statement of session s (in a): the calling thread's
 * session state (session_env_capture), s and acl_privileges.  Every
 * ExecCtx built for a session's work carries one (ctx.env), so kernels
 * that need the session (nextval, has_table_privilege) find it. */
const SessionEnv *acl_statement_env(Session *s, Arena *a);
/* information_schema.table_privileges / role_table_grants: the rows of
 * table (ns, table) the current role may see; owner rows carry every
 * privilege (floe's owner is the first superuser, oid 10) */
typedef struct AclGrantRow {
	const char *grantor, *grantee;   /* grantee "PUBLIC" for PUBLIC */
	unsigned privs;                  /* ROLE_PRIV_* (server/users.h) */
	bool owner;                      /* grantable: the owner's row */
} AclGrantRow;
int acl_table_grants(Session *s, Arena *a, const char *ns, const char *table, AclGrantRow **rows,
		     int *n, floe_error *err);
/* pg_class.relacl of relation ns.name (a sequence: its owner holds rwU,
 * else a table's arwdDxt), PostgreSQL's text form
 * "{owner=rwU/owner,role=r/owner,=r/owner}" (PUBLIC's grantee empty), or
 * NULL when nothing was granted on it (PostgreSQL's default ACL) */
const char *acl_relacl(Session *s, Arena *a, const char *ns, const char *name, bool sequence,
		       floe_error *err);


#endif
