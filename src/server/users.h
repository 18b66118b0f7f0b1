/*
 * users.h — the users file: who may log in to `floe serve`, with their
 * password secrets (never the password itself).
 *
 * The warehouse's file is <warehouse>/users (mode 0600), maintained by
 * `floe user add|remove|list`; `floe serve --auth-file FILE` reads another
 * file of the same format.  One secret per line, '#' comments:
 *     name:SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>
 *     name:md5<32 hex digits>
 * (PostgreSQL's pg_authid.rolpassword forms).  A user has a SCRAM verifier,
 * an md5 secret, or both (two lines).  Names are 1..63 bytes of printable
 * UTF-8 without ':'.
 *
 * INTERFACE ROUTINES
 *   users_path(warehouse, buf, n)          <warehouse>/users
 *   users_load(path, missing_ok, &u, err)  parse (a missing file: no users when missing_ok)
 *   users_find(u, name)                    the entry, or NULL
 *   users_set(u, name, scram, md5)         add or replace (md5 NULL: none)
 *   users_remove(u, name)                  true if it existed
 *   users_save(path, u, err)               write atomically (temp + rename), mode 0600
 *   users_valid_name(name)                 a name the file can hold
 *   users_lock(path, err) / users_unlock(fd)  exclusive lock for read-modify-write
 *   users_free(u)
 *
 * The roles file <warehouse>/roles (mode 0600, written like the users
 * file, changed under the same users_lock) holds what a role may do:
 *     role:NAME:FLAGS                 S superuser, L may log in
 *     grant:GRANTEE:SCHEMA:TABLE:PRIVS[:UUID]   PRIVS letters of PostgreSQL's
 *                                     aclitem: r SELECT, a INSERT, w UPDATE,
 *                                     d DELETE, D TRUNCATE, x REFERENCES,
 *                                     t TRIGGER; U USAGE, C CREATE of
 *                                     schema SCHEMA when TABLE is empty;
 *                                     C CREATE, T TEMPORARY, c CONNECT of
 *                                     the database (the warehouse) when
 *                                     SCHEMA and TABLE are both empty;
 *                                     GRANTEE "public"; UUID the
 *                                     table's Iceberg table-uuid: the grant
 *                                     belongs to that table only, so a table
 *                                     dropped and created again (by floe or
 *                                     any other engine) starts without it,
 *                                     as PostgreSQL's new table does
 *     member:ROLE:GROUP               ROLE is a member of GROUP (e.g.
 *                                     pg_read_server_files)
 *     database-acl                    the database's privileges are its
 *                                     grant lines only (PostgreSQL's datacl
 *                                     once set); without it PUBLIC holds
 *                                     CONNECT and TEMPORARY besides (the
 *                                     default datacl)
 * Fields are %-escaped (':' '%' and control bytes as %XX).  No roles file:
 * no roles were ever defined, every login acts as superuser (acl.c).
 *
 *   roles_path(warehouse, buf, n)        <warehouse>/roles
 *   roles_load(path, &r, err)            parse (missing: r.exists = false)
 *   roles_save(path, r, err)             write atomically, mode 0600
 *   roles_find(r, name)                  the role, or NULL
 *   roles_set(r, name, super, login)     add or change a role
 *   roles_remove(r, name)                drop it with its grants and memberships
 *   roles_grant(r, grantee, schema, table, uuid, privs, add)   add/remove privilege
 *                                     bits (a grant of another uuid is replaced)
 *   roles_privs(r, grantee, schema, table, uuid)   bits granted directly on the
 *                                     table of that uuid (NULL: any uuid)
 *   roles_grant_applies(g, uuid)      does grant g belong to the table of uuid?
 *   roles_member(r, role, group, add) / roles_is_member(r, role, group)
 *   roles_drop_table(r, schema, table)   forget a table's grants
 *   roles_free(r)
 */
#ifndef FLOE_USERS_H
#define FLOE_USERS_H

#include <stdbool.h>
#include <stddef.h>
#include "common/error.h"
#include "server/auth_md5.h"
#include "server/auth_scram.h"

typedef struct UserEntry {
	char *name;
	char *scram_text;          /* NULL: no SCRAM verifier */
	ScramVerifier scram;
	char md5[AUTH_MD5_LEN + 1];   /* "": no md5 secret */
} UserEntry;

typedef struct Users {
	int n;
	UserEntry *u;
} Users;

void users_path(const char *warehouse, char *buf, size_t n);
int users_load(const char *path, bool missing_ok, Users *out, floe_error *err);
const UserEntry *users_find(const Users *u, const char *name);
int users_set(Users *u, const char *name, const char *scram, const char *md5, floe_error *err);
bool users_remove(Users *u, const char *name);
int users_save(const char *path, const Users *u, floe_error *err);
bool users_valid_name(const char *name);
int users_lock(const char *path, floe_error *err);
void users_unlock(int fd);
void users_free(Users *u);

/* ---- roles (privileges) ---- */
enum {
	ROLE_PRIV_SELECT = 1,
	ROLE_PRIV_INSERT = 2,
	ROLE_PRIV_UPDATE = 4,
	ROLE_PRIV_DELETE = 8,
	ROLE_PRIV_TRUNCATE = 16,
	ROLE_PRIV_REFERENCES = 32,  /* recorded, nothing to enforce */
	ROLE_PRIV_TRIGGER = 64,
	ROLE_PRIV_ALL = 127,        /* a table's */
	ROLE_PRIV_USAGE = 128,      /* a schema's (grant with an empty table) */
	ROLE_PRIV_CREATE = 256,     /* a schema's, or the database's */
	ROLE_PRIV_TEMP = 512,       /* the database's (empty schema and table) */
	ROLE_PRIV_CONNECT = 1024,
	ROLE_PRIV_DATABASE = ROLE_PRIV_CREATE | ROLE_PRIV_TEMP | ROLE_PRIV_CONNECT
};

typedef struct RoleEntry {
	char *name;
	bool super;
	bool login;
} RoleEntry;

typedef struct RoleGrant {
	char *grantee;             /* "public": PUBLIC */
	char *schema, *table;
	char *uuid;                /* the table's Iceberg table-uuid when granted;
				      NULL: any table of that name (older files) */
	unsigned privs;
} RoleGrant;

typedef struct RoleMember {
	char *role, *group;
} RoleMember;

typedef struct Roles {
	bool exists;               /* the file exists */
	bool db_acl;               /* the database's privileges are its grants
				      only (a database-acl line); false: PUBLIC
				      also holds CONNECT and TEMPORARY */
	int nroles, ngrants, nmembers;
	RoleEntry *roles;
	RoleGrant *grants;
	RoleMember *members;
} Roles;

void roles_path(const char *warehouse, char *buf, size_t n);
int roles_load(const char *path, Roles *out, floe_error *err);
int roles_save(const char *path, const Roles *r, floe_error *err);
RoleEntry *roles_find(const Roles *r, const char *name);
void roles_set(Roles *r, const char *name, bool super, bool login);
bool roles_remove(Roles *r, const char *name);
void roles_grant(Roles *r, const char *grantee, const char *schema, const char *table,
		 const char *uuid, unsigned privs, bool add);
unsigned roles_privs(const Roles *r, const char *grantee, const char *schema, const char *table,
		     const char *uuid);
bool roles_grant_applies(const RoleGrant *g, const char *uuid);
void roles_member(Roles *r, const char *role, const char *group, bool add);
bool roles_is_member(const Roles *r, const char *role, const char *group);
void roles_drop_table(Roles *r, const char *schema, const char *table);
void roles_free(Roles *r);

#endif
