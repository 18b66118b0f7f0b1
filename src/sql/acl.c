/*
 * acl.c — roles and privileges (acl.h): CREATE / ALTER / DROP ROLE,
 * GRANT / REVOKE of table privileges and role membership, their
 * enforcement before every statement (42501), SET ROLE / SET SESSION
 * AUTHORIZATION checks, and the confinement of server-side files.
 *
 * Spec: PostgreSQL 15 "Database Roles", "Privileges" (ddl-priv), GRANT,
 * REVOKE, CREATE ROLE, ALTER ROLE, DROP ROLE, COPY (file access needs
 * pg_read_server_files / pg_write_server_files); messages and SQLSTATEs
 * are PostgreSQL 15's (commands/user.c, catalog/aclchk.c, commands/copy.c).
 *
 * Model (docs/security.md):
 *   - Roles, their attributes, table grants and memberships are the roles
 *     file <warehouse>/roles (server/users.h); password verifiers are the
 *     users file <warehouse>/users.  Both change under users_lock and are
 *     replaced atomically; every statement re-reads the roles file when it
 *     changed (inode / mtime / size, one stat()).
 *   - No roles file (no role was ever created): every session is a
 *     superuser (floe before roles).  The embedded shell (no login user)
 *     is always a superuser.  A login name missing from the file is an
 *     ordinary role with only PUBLIC's privileges.
 *   - Privileges are per table (schema, name), granted to a role or
 *     PUBLIC, inherited through memberships (GRANT role TO role).  Each
 *     grant records the table's Iceberg table-uuid: it applies only to
 *     that table, so a table dropped and created again (by floe, in a
 *     transaction, or by another engine) starts with its owner's
 *     privileges only, and a dropped table's grants are no dependency
 *     for DROP ROLE (PostgreSQL drops a table's privileges with it).
 *   - A role without LOGIN is refused when it connects (acl_check_login,
 *     28000), not per statement.  GRANT
 *     ... ON ALL TABLES IN SCHEMA s grants on the tables existing then
 *     (PostgreSQL's rule).  Schemas: USAGE and CREATE are grants with an
 *     empty table; a qualified name needs USAGE (42501), search_path skips
 *     a schema without it (search_path.c asks acl_schema_usage), CREATE
 *     TABLE / VIEW needs CREATE (and then a superuser: no owners).
 *     The database (the warehouse, by any name): CONNECT at login
 *     (acl_check_login), CREATE for CREATE SCHEMA, TEMPORARY for temporary
 *     relations; PUBLIC holds CONNECT and TEMPORARY until the database's
 *     ACL is first changed (db_privs).
 *   - DDL (CREATE / ALTER / DROP TABLE or SCHEMA, OPTIMIZE, CALL) and role
 *     management need a superuser: floe does not track owners.
 *   - What a statement reads is checked where the binder resolves each
 *     table (acl_note_rel from select.c source_table and metatables.c),
 *     into one list per statement (ExecCtx.acl): every clause, subquery,
 *     CTE and MERGE source is bound through there; so is each target
 *     (INSERT / UPDATE / DELETE / MERGE / TRUNCATE / COPY FROM: acl_note_target
 *     where the statement loads it; SELECT on it when what the binder
 *     bound reads its columns, acl_note_target_read).  FOR UPDATE / SHARE:
 *     the locked FROM items (acl_lock_prepare) add UPDATE to the
 *     acl_note_rel of what the binder resolves them to.  acl_check_stmt
 *     checks COPY's files, DDL and role statements.
 *   - Server-side files (COPY ... 'file', read_parquet): superusers and
 *     members of pg_read_server_files (read) / pg_write_server_files
 *     (write); for server sessions the real path (realpath of the longest
 *     existing prefix, then the missing components by name) must be inside
 *     the warehouse or an --allow-dir directory; so must the metadata
 *     file, location and write folders of CALL register_table and the
 *     write.*.path properties (acl_check_location).  The embedded shell
 *     reads and writes with its OS user's rights.
 *
 * INTERFACE ROUTINES: see acl.h.
 *
 * Invariants:
 *   1. A superuser is never refused by acl_check_stmt / acl_note_rel; a
 *      non-superuser is refused (42501) before the statement reads a row
 *      of a table it may not read, or writes one.
 *   2. A clear-text password lives only in the parse tree of its
 *      statement: CREATE/ALTER ROLE store its SCRAM verifier.
 *   3. The cache of the roles file is shared by all sessions of the
 *      process and guarded by one mutex.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/auth_scram.h"
#include "server/users.h"
#include "sql/acl.h"
#include "sql/views.h"
#include "sql/pgcatalog.h"
#include "sql/search_path.h"
#include "sql/sequence.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "storage/confined_open.h"
#include "storage/fileio.h"
#include "table/table.h"

/* ---- configuration: allowed directories -------------------------------- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static __thread bool mu_mine;   /* this thread holds mu (acl_schema_usage
				   is reached from name resolution, which
				   code holding mu calls: ddl_rv_ns) */

static void
mu_lock(void)
{
	pthread_mutex_lock(&mu);
	mu_mine = true;
}

static void
mu_unlock(void)
{
	mu_mine = false;
	pthread_mutex_unlock(&mu);
}
static char **allow_dirs;
static int nallow_dirs;

int
acl_allow_dir(const char *dir, floe_error *err)
{
	char real[PATH_MAX];
	if (fileio_is_remote(dir) && strlen(dir) < sizeof real) {
		snprintf(real, sizeof real, "%s", dir);    /* an s3:// prefix: as given */
	} else if (!realpath(dir, real))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "could not resolve allowed directory \"%s\": %s", dir, strerror(errno));
	mu_lock();
	allow_dirs = xrealloc(allow_dirs, sizeof *allow_dirs * (size_t)(nallow_dirs + 1));
	allow_dirs[nallow_dirs++] = xstrdup(real);
	mu_unlock();
	return FLOE_OK;
}

int
acl_confine_io(FileIO *io, const char *warehouse, const char *state, floe_error *err)
{
	const char *tmp = getenv("TMPDIR");
	char pre[64];
	int i, rc = FLOE_OK;

	if (!fileio_is_remote(warehouse))
		TRY(fileio_confine(io, warehouse, err));
	if (state && state[0] && fileio_confine(io, state, err) != FLOE_OK)
		floe_error_clear(err);     /* made later, if ever */
	/* the sessions' temporary tables (sql/temp.c's folders
	 * $TMPDIR/floe-temp-<pid>-XXXXXX), not the rest of $TMPDIR */
	snprintf(pre, sizeof pre, "floe-temp-%ld-", (long)getpid());
	if (fileio_confine_prefix(io, tmp && tmp[0] ? tmp : "/tmp", pre, err) != FLOE_OK)
		floe_error_clear(err);     /* no such folder: temp.c cannot make its folders either */
	mu_lock();
	for (i = 0; i < nallow_dirs && rc == FLOE_OK; i++)
		if (!fileio_is_remote(allow_dirs[i]))
			rc = fileio_confine(io, allow_dirs[i], err);
	mu_unlock();
	return rc;
}

/* ---- the roles file cache ---------------------------------------------- */

static struct {
	char *path;
	bool valid, had_file;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	off_t size;
	Roles r;
} cache;

/* Refresh the cache for s's warehouse; mu held. */
static int
refresh(Session *s, floe_error *err)
{
	char path[PATH_MAX];
	struct stat st;
	bool have;
	Roles r;

	roles_path(s->engine->warehouse, path, sizeof path);
	have = stat(path, &st) == 0;
	if (cache.valid && !strcmp(cache.path, path) && have == cache.had_file &&
	    (!have || (st.st_dev == cache.dev && st.st_ino == cache.ino && st.st_size == cache.size &&
		       st.st_mtim.tv_sec == cache.mtime.tv_sec && st.st_mtim.tv_nsec == cache.mtime.tv_nsec)))
		return FLOE_OK;
	if (roles_load(path, &r, err) != FLOE_OK)
		return FLOE_ERR;
	roles_free(&cache.r);
	cache.r = r;
	free(cache.path);
	cache.path = xstrdup(path);
	cache.valid = true;
	cache.had_file = have && r.exists;
	if (cache.had_file) {
		cache.dev = st.st_dev;
		cache.ino = st.st_ino;
		cache.size = st.st_size;
		cache.mtime = st.st_mtim;
	}
	return FLOE_OK;
}

/* ---- who is the session ------------------------------------------------ */

/* the session user: SET SESSION AUTHORIZATION, else the login role; NULL
 * = the embedded shell */
static const char *
session_user(Session *s)
{
	const char *a = session_setting(s, "session_authorization");
	return a && a[0] ? a : s->user;
}

/* the current role: SET ROLE, else the session user */
static const char *
current_role(Session *s)
{
	const char *r = session_setting(s, "role");
	if (r && r[0] && strcasecmp(r, "none"))
		return r;
	return session_user(s);
}

static bool
predefined(const char *name)
{
	return !strcmp(name, "pg_read_server_files") || !strcmp(name, "pg_write_server_files") ||
	       !strcmp(name, "pg_execute_server_program") || !strcmp(name, "pg_read_all_data") ||
	       !strcmp(name, "pg_write_all_data");
}

/* mu held, cache fresh */
static bool
is_super(const char *role)
{
	const RoleEntry *e;
	if (!role || !cache.r.exists)
		return true;
	e = roles_find(&cache.r, role);
	return e && e->super;
}

/* Is role a (transitive) member of group (or group itself)?  mu held. */
static bool
member_of(const char *role, const char *group, int depth)
{
	int i;
	if (!strcmp(role, group))
		return true;
	if (depth > 16)
		return false;
	for (i = 0; i < cache.r.nmembers; i++)
		if (!strcmp(cache.r.members[i].role, role) &&
		    member_of(cache.r.members[i].group, group, depth + 1))
			return true;
	return false;
}

/* privileges of role on (ns, table): its own, PUBLIC's and its groups'. */
/* uuid: the table's Iceberg table-uuid (grants of a dropped table of that
 * name do not count); NULL: any. */
static unsigned
privs_of(const char *role, const char *ns, const char *table, const char *uuid, int depth)
{
	unsigned p = roles_privs(&cache.r, role, ns, table, uuid);
	int i;
	if (depth == 0)
		p |= roles_privs(&cache.r, "public", ns, table, uuid);
	if (depth > 16)
		return p;
	for (i = 0; i < cache.r.nmembers; i++)
		if (!strcmp(cache.r.members[i].role, role))
			p |= privs_of(cache.r.members[i].group, ns, table, uuid, depth + 1);
	return p;
}

/* ---- schemas: USAGE and CREATE (PostgreSQL's namespace ACL) ------------ */

static bool no_roles_file(Session *s);

/* Schemas every role may use: the built-in catalogs and public (PUBLIC's
 * USAGE in public's default ACL; that grant cannot be revoked in floe). */
static bool
schema_usage_for_all(const char *ns)
{
	return !strcmp(ns, "pg_catalog") || !strcmp(ns, "information_schema") ||
	       !strcmp(ns, "public") || temp_is_temp_ns(ns);
}

/* role's USAGE / CREATE on schema ns: granted (a grant with an empty
 * table, users.h), PUBLIC's, its groups'; superusers have both, a
 * session its own temporary schema.  mu held, cache fresh. */
static unsigned
schema_privs(const char *role, const char *ns)
{
	unsigned p;

	if (is_super(role))
		return ROLE_PRIV_USAGE | ROLE_PRIV_CREATE;
	p = privs_of(role, ns, "", NULL, 0) & (ROLE_PRIV_USAGE | ROLE_PRIV_CREATE);
	if (schema_usage_for_all(ns))
		p |= ROLE_PRIV_USAGE;
	if (temp_is_temp_ns(ns))
		p |= ROLE_PRIV_CREATE;
	return p;
}

/* ---- the database: CONNECT, CREATE, TEMPORARY (PostgreSQL's datacl) ---- */

/* role's privileges on the database (floe serves one, the warehouse, by
 * whatever name a client connects with): its grants (empty schema and
 * table, users.h), PUBLIC's and its groups'; PUBLIC holds CONNECT and
 * TEMPORARY until the database's ACL was first changed (PostgreSQL's
 * default datacl); superusers hold all.  mu held, cache fresh. */
static unsigned
db_privs(const char *role)
{
	unsigned p;

	if (role && strcmp(role, "public") && is_super(role))
		return ROLE_PRIV_DATABASE;
	p = privs_of(role ? role : "public", "", "", NULL, 0) & ROLE_PRIV_DATABASE;
	if (!cache.r.db_acl)
		p |= ROLE_PRIV_TEMP | ROLE_PRIV_CONNECT;
	return p;
}

bool
acl_schema_usage(Session *s, const char *ns)
{
	const char *role = current_role(s);
	floe_error e;
	bool ok;

	if (!role || !ns || schema_usage_for_all(ns))
		return true;
	if (mu_mine)     /* called by code holding mu: the cache is fresh */
		return (schema_privs(role, ns) & ROLE_PRIV_USAGE) != 0;
	if (no_roles_file(s))
		return true;
	floe_error_clear(&e);
	mu_lock();
	/* a roles file that cannot be read: the statement's own check fails */
	ok = refresh(s, &e) != FLOE_OK || (schema_privs(role, ns) & ROLE_PRIV_USAGE);
	mu_unlock();
	return ok;
}

static bool
role_exists(Session *s, const char *name)
{
	if (predefined(name) || roles_find(&cache.r, name))
		return true;
	/* before any role was created: the login user */
	return !cache.r.exists && s->user && !strcmp(s->user, name);
}

/* The Iceberg table-uuid of (ns, name) as the session sees it (its open
 * transaction included); *exists false when there is no such table.
 * NULL with *exists: a v1 table without a uuid. */
static const char *
table_uuid(Session *s, const char *ns, const char *name, Arena *a, bool *exists)
{
	Table *t;
	floe_error e;
	floe_error_clear(&e);
	*exists = txn_table_load(s, ns, name, a, &t, &e) == FLOE_OK;
	if (!*exists) {
		/* a view: its Iceberg view-uuid (views.c) */
		const char *vu = views_uuid(s, ns, name, a);
		*exists = vu != NULL;
		if (!vu) {
			/* a sequence: no uuid (its grants are forgotten when it is
			 * dropped: acl_forget_relation) */
			CatalogSeq q;
			floe_error_clear(&e);
			*exists = seq_lookup(s, ns, name, a, &q, exists, &e) == FLOE_OK && *exists;
		}
		return vu;
	}
	return t->md ? t->md->table_uuid : NULL;
}

/* ---- enforcement -------------------------------------------------------- */

/* a sequence's privileges (PostgreSQL's ACL_ALL_RIGHTS_SEQUENCE) */
#define SEQ_PRIVS (ROLE_PRIV_USAGE | ROLE_PRIV_SELECT | ROLE_PRIV_UPDATE)

/* may role use server files at all?  mu held */
static int
file_role(const char *role, bool write, floe_error *err)
{
	if (is_super(role) || member_of(role, write ? "pg_write_server_files" : "pg_read_server_files", 0))
		return FLOE_OK;
	floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
		    "must be superuser or have privileges of the %s role to COPY %s a file",
		    write ? "pg_write_server_files" : "pg_read_server_files", write ? "to" : "from");
	floe_error_hint(err, "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.");
	return FLOE_ERR;
}

typedef struct Check {
	Session *s;
	ExecCtx *ctx;
	const char *role;
} Check;

static void record(ExecCtx *ctx, const char *ns, const char *name, unsigned want);

/* rv names one of the session's temporary tables */
static bool
own_temp(Session *s, const PgQuery__RangeVar *rv)
{
	return rv && temp_resolve(s, rv->schemaname, rv->relname);
}

/* CREATE TEMP TABLE, or CREATE TABLE pg_temp.x */
static bool
temp_target(const PgQuery__RangeVar *rv)
{
	return rv && ((rv->relpersistence && rv->relpersistence[0] == 't') ||
		      (rv->schemaname && temp_is_temp_ns(rv->schemaname)));
}

/* ---- the relations a statement reads ------------------------------------ */

typedef struct AclRel {
	const char *ns, *name;
	unsigned want;            /* ROLE_PRIV_* checked (granted) */
} AclRel;

/* ExecCtx.acl: set up by acl_check_stmt (or the first acl_note_rel of a
 * statement run without it, e.g. a Describe) */
struct AclStmt {
	enum { ACL_UNKNOWN, ACL_NONE, ACL_CHECK } mode;   /* NONE: a superuser */
	AclRel *rels;             /* every relation the binder resolved */
	int n, cap;
	/* SELECT ... FOR UPDATE / SHARE (acl_lock_prepare): the FROM items it
	 * locks, as parse nodes (named: by OF, not as part of "all"), and
	 * while the binder resolves one of them (acl_lock_enter) the
	 * privilege its next acl_note_rel adds */
	const PgQuery__RangeVar **locked;
	bool *named;
	int nlocked, caplocked;
	const char *strength;     /* "FOR UPDATE", ... for messages */
	unsigned lock_want;
	bool lock_named;
};

static struct AclStmt *
stmt_state(ExecCtx *ctx)
{
	if (!ctx->acl)
		ctx->acl = ARENA_NEW(ctx->arena, struct AclStmt);
	return ctx->acl;
}

/* no roles file: nobody is refused; seen without taking mu */
static bool
no_roles_file(Session *s)
{
	char path[PATH_MAX];
	struct stat sb;
	roles_path(s->engine->warehouse, path, sizeof path);
	return stat(path, &sb) != 0 && errno == ENOENT;
}

static void
record(ExecCtx *ctx, const char *ns, const char *name, unsigned want)
{
	struct AclStmt *st = stmt_state(ctx);
	if (st->n == st->cap) {
		int cap = st->cap ? st->cap * 2 : 8;
		AclRel *r = ARENA_ARRAY(ctx->arena, AclRel, cap);
		if (st->n)
			memcpy(r, st->rels, sizeof *r * (size_t)st->n);
		st->rels = r;
		st->cap = cap;
	}
	st->rels[st->n].ns = arena_strdup(ctx->arena, ns);
	st->rels[st->n].name = arena_strdup(ctx->arena, name);
	st->rels[st->n].want = want;
	st->n++;
}

int
acl_note_rel(Session *s, ExecCtx *ctx, const char *ns, const char *name, const char *uuid,
	     unsigned want, floe_error *err)
{
	struct AclStmt *st = stmt_state(ctx);
	const char *role = current_role(s);
	bool ok;
	int i, rc = FLOE_OK;

	/* the FROM item the binder is resolving is locked (acl_lock_enter):
	 * this is its relation (a table, a view, a metadata table's table) */
	want |= st->lock_want;
	st->lock_want = 0;
	st->lock_named = false;
	for (i = 0; i < st->n; i++)
		if (!strcmp(st->rels[i].ns, ns) && !strcmp(st->rels[i].name, name) &&
		    (st->rels[i].want & want) == want)
			return FLOE_OK;     /* checked already */
	if (st->mode == ACL_UNKNOWN && (!role || no_roles_file(s)))
		st->mode = ACL_NONE;
	if (st->mode == ACL_NONE) {
		record(ctx, ns, name, want);
		return FLOE_OK;
	}
	mu_lock();
	rc = refresh(s, err);
	if (rc == FLOE_OK) {
		if (st->mode == ACL_UNKNOWN)
			st->mode = is_super(role) ? ACL_NONE : ACL_CHECK;
		if (st->mode == ACL_CHECK && !(schema_privs(role, ns) & ROLE_PRIV_USAGE)) {
			/* a name in a schema the role may not use (PostgreSQL's
			 * LookupExplicitNamespace; search_path skips such schemas) */
			rc = floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s",
					 ns);
		} else {
			ok = st->mode == ACL_NONE || temp_is_temp_ns(ns) ||   /* its own temp table */
			     (privs_of(role, ns, name, uuid, 0) & want) == want;
			if (!ok)
				rc = floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
						 "permission denied for table %s", name);
		}
	}
	mu_unlock();
	if (rc == FLOE_OK)
		record(ctx, ns, name, want);
	return rc;
}

int
acl_check_schema_usage(Session *s, ExecCtx *ctx, const char *ns, floe_error *err)
{
	struct AclStmt *st = stmt_state(ctx);

	floe_error e;

	if (st->mode == ACL_NONE || acl_schema_usage(s, ns))
		return FLOE_OK;
	/* no such schema (Spark's t.branch_b names table t): the statement
	 * reports what it finds */
	floe_error_clear(&e);
	if (ddl_check_namespace(s, ns, &e) != FLOE_OK && floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME))
		return FLOE_OK;
	return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s", ns);
}

/* ---- the targets a statement writes -------------------------------------- */

/* t: a loaded table (a branch's write view names its table) */
int
acl_note_target(Session *s, ExecCtx *ctx, const Table *t, unsigned want, floe_error *err)
{
	return acl_note_rel(s, ctx, t->ns, t->name, t->md ? t->md->table_uuid : NULL, want, err);
}

/* ---- sequences ------------------------------------------------------------ */

int
acl_check_sequence(Session *s, const char *ns, const char *name, unsigned any, floe_error *err)
{
	const char *role = current_role(s);
	int rc;

	if (!role || temp_is_temp_ns(ns) || no_roles_file(s))
		return FLOE_OK;   /* the embedded shell; its own temporary sequence */
	mu_lock();
	rc = refresh(s, err);
	if (rc == FLOE_OK && !is_super(role) && !(privs_of(role, ns, name, NULL, 0) & any))
		rc = floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for sequence %s", name);
	mu_unlock();
	return rc;
}

/* Does e read one of the columns below ncols?  Column references are
 * what the binder resolved (a correlated subquery's outer columns are its
 * EXPR_SUBPLAN's args; parameters are at EXPR_PARAM_BASE and above). */
static bool
expr_reads_below(const Expr *e, int ncols)
{
	int i;

	if (!e)
		return false;
	if (e->kind == EXPR_COLREF)
		return e->col >= 0 && e->col < ncols;
	for (i = 0; i < e->nargs; i++)
		if (expr_reads_below(e->args[i], ncols))
			return true;
	return false;
}

bool
acl_exprs_read_target(Expr *const *es, int n, int ncols)
{
	int i;

	for (i = 0; es && i < n; i++)
		if (expr_reads_below(es[i], ncols))
			return true;
	return false;
}

int
acl_note_target_read(Session *s, ExecCtx *ctx, const Table *t, bool reads, floe_error *err)
{
	return reads ? acl_note_target(s, ctx, t, ROLE_PRIV_SELECT, err) : FLOE_OK;
}

unsigned
acl_insert_privs(const PgQuery__InsertStmt *is)
{
	const PgQuery__OnConflictClause *oc = is->on_conflict_clause;
	return ROLE_PRIV_INSERT |
	       (oc && oc->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE ? ROLE_PRIV_UPDATE : 0);
}

unsigned
acl_merge_privs(const PgQuery__MergeStmt *ms)
{
	unsigned want = 0;
	size_t i;

	for (i = 0; i < ms->n_merge_when_clauses; i++) {
		const Node *w = ms->merge_when_clauses[i];
		if (w->node_case != PG_QUERY__NODE__NODE_MERGE_WHEN_CLAUSE)
			continue;
		switch (w->merge_when_clause->command_type) {
		case PG_QUERY__CMD_TYPE__CMD_INSERT: want |= ROLE_PRIV_INSERT; break;
		case PG_QUERY__CMD_TYPE__CMD_UPDATE: want |= ROLE_PRIV_UPDATE; break;
		case PG_QUERY__CMD_TYPE__CMD_DELETE: want |= ROLE_PRIV_DELETE; break;
		default: break;
		}
	}
	return want;
}

unsigned
acl_write_privs(const Node *stmt)
{
	if (!stmt)
		return 0;
	switch (stmt->node_case) {
	case PG_QUERY__NODE__NODE_INSERT_STMT: return acl_insert_privs(stmt->insert_stmt);
	case PG_QUERY__NODE__NODE_UPDATE_STMT: return ROLE_PRIV_UPDATE;
	case PG_QUERY__NODE__NODE_DELETE_STMT: return ROLE_PRIV_DELETE;
	case PG_QUERY__NODE__NODE_MERGE_STMT: return acl_merge_privs(stmt->merge_stmt);
	default: return 0;
	}
}

/* ---- FOR UPDATE / SHARE: the FROM items a locking SELECT locks ----------- */

static const char *
lock_strength(PgQuery__LockClauseStrength st)
{
	switch (st) {
	case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE: return "FOR KEY SHARE";
	case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE: return "FOR SHARE";
	case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE: return "FOR NO KEY UPDATE";
	default: return "FOR UPDATE";
	}
}

static void
lock_add(ExecCtx *ctx, const PgQuery__RangeVar *rv, bool named)
{
	struct AclStmt *st = stmt_state(ctx);
	int i;

	for (i = 0; i < st->nlocked; i++)
		if (st->locked[i] == rv) {
			st->named[i] = st->named[i] || named;
			return;
		}
	if (st->nlocked == st->caplocked) {
		int cap = st->caplocked ? st->caplocked * 2 : 8;
		const PgQuery__RangeVar **l = ARENA_ARRAY(ctx->arena, const PgQuery__RangeVar *, cap);
		bool *nm = ARENA_ARRAY(ctx->arena, bool, cap);
		if (st->nlocked) {
			memcpy(l, st->locked, sizeof *l * (size_t)st->nlocked);
			memcpy(nm, st->named, sizeof *nm * (size_t)st->nlocked);
		}
		st->locked = l;
		st->named = nm;
		st->caplocked = cap;
	}
	st->locked[st->nlocked] = rv;
	st->named[st->nlocked++] = named;
}

static int lock_query(ExecCtx *ctx, const Node *q, const char *what, floe_error *err);

/* Every relation of FROM item n (PostgreSQL's "all" of a level: tables,
 * through joins and FROM subqueries; functions and VALUES lock nothing;
 * a name the binder resolves as a CTE is skipped then: acl_lock_cte). */
static int
lock_all(ExecCtx *ctx, const Node *n, const char *what, floe_error *err)
{
	if (!n)
		return FLOE_OK;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
		lock_add(ctx, n->range_var, false);
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE:   /* time travel: its table */
		return lock_all(ctx, n->range_table_sample->relation, what, err);
	case PG_QUERY__NODE__NODE_JOIN_EXPR:
		TRY(lock_all(ctx, n->join_expr->larg, what, err));
		return lock_all(ctx, n->join_expr->rarg, what, err);
	case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
		return lock_query(ctx, n->range_subselect->subquery, what, err);
	default:
		return FLOE_OK;
	}
}

/* A FROM subquery of a locked level: all of its FROM, as PostgreSQL
 * pushes the clause down (and refuses it over a set operation). */
static int
lock_query(ExecCtx *ctx, const Node *q, const char *what, floe_error *err)
{
	const PgQuery__SelectStmt *sel;
	size_t i;

	if (!q || q->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return FLOE_OK;
	sel = q->select_stmt;
	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "%s is not allowed with UNION/INTERSECT/EXCEPT", what);
	for (i = 0; i < sel->n_from_clause; i++)
		TRY(lock_all(ctx, sel->from_clause[i], what, err));
	return FLOE_OK;
}

/* The FROM item of this level whose reference name is `ref` (the items
 * inside a join first, then the join, as PostgreSQL's range table lists
 * them); NULL: none. */
static const Node *
lock_find(const Node *n, const char *ref)
{
	const Node *f;
	const char *name = NULL;

	if (!n)
		return NULL;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
		name = n->range_var->alias ? n->range_var->alias->aliasname : n->range_var->relname;
		break;
	case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE:
		return lock_find(n->range_table_sample->relation, ref) ? n->range_table_sample->relation
								       : NULL;
	case PG_QUERY__NODE__NODE_JOIN_EXPR:
		if ((f = lock_find(n->join_expr->larg, ref)) || (f = lock_find(n->join_expr->rarg, ref)))
			return f;
		name = n->join_expr->alias ? n->join_expr->alias->aliasname : NULL;
		break;
	case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
		name = n->range_subselect->alias ? n->range_subselect->alias->aliasname : NULL;
		break;
	case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
		if (n->range_function->alias)
			name = n->range_function->alias->aliasname;
		break;
	default:
		break;
	}
	return name && !strcmp(name, ref) ? n : NULL;
}

int
acl_lock_prepare(ExecCtx *ctx, const PgQuery__SelectStmt *sel, Node *const *clauses, size_t n,
		 floe_error *err)
{
	size_t i, k, f;

	stmt_state(ctx);
	for (i = 0; i < n; i++) {
		const PgQuery__LockingClause *lc;
		const char *what;
		if (clauses[i]->node_case != PG_QUERY__NODE__NODE_LOCKING_CLAUSE)
			continue;
		lc = clauses[i]->locking_clause;
		what = lock_strength(lc->strength);
		ctx->acl->strength = what;
		if (!lc->n_locked_rels) {
			for (f = 0; f < sel->n_from_clause; f++)
				TRY(lock_all(ctx, sel->from_clause[f], what, err));
			continue;
		}
		for (k = 0; k < lc->n_locked_rels; k++) {
			const PgQuery__RangeVar *of;
			const Node *it = NULL;
			if (lc->locked_rels[k]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
				continue;
			of = lc->locked_rels[k]->range_var;
			if ((of->schemaname && of->schemaname[0]) || (of->catalogname && of->catalogname[0]))
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "%s must specify unqualified relation names", what);
			for (f = 0; f < sel->n_from_clause && !it; f++)
				it = lock_find(sel->from_clause[f], of->relname);
			if (!it)
				return floe_errorf(err, ERRCODE_UNDEFINED_TABLE,
						   "relation \"%s\" in %s clause not found in FROM clause",
						   of->relname, what);
			switch (it->node_case) {
			case PG_QUERY__NODE__NODE_RANGE_VAR:
				lock_add(ctx, it->range_var, true);
				break;
			case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
				TRY(lock_query(ctx, it->range_subselect->subquery, what, err));
				break;
			case PG_QUERY__NODE__NODE_JOIN_EXPR:
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "%s cannot be applied to a join", what);
			default:
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "%s cannot be applied to a function", what);
			}
		}
	}
	return FLOE_OK;
}

#define LOCK_NAMED_BIT 0x80000000u

unsigned
acl_lock_enter(ExecCtx *ctx, const PgQuery__RangeVar *rv)
{
	struct AclStmt *st = ctx->acl;
	unsigned saved;
	int i;

	if (!st || !st->nlocked)
		return 0;
	saved = st->lock_want | (st->lock_named ? LOCK_NAMED_BIT : 0);
	st->lock_want = 0;
	st->lock_named = false;
	for (i = 0; i < st->nlocked; i++)
		if (st->locked[i] == rv) {
			st->lock_want = ROLE_PRIV_UPDATE;   /* PostgreSQL's ACL_SELECT_FOR_UPDATE */
			st->lock_named = st->named[i];
			break;
		}
	return saved;
}

void
acl_lock_leave(ExecCtx *ctx, unsigned saved)
{
	struct AclStmt *st = ctx->acl;

	if (!st || !st->nlocked)
		return;
	st->lock_want = saved & ~LOCK_NAMED_BIT;
	st->lock_named = (saved & LOCK_NAMED_BIT) != 0;
}

int
acl_lock_cte(ExecCtx *ctx, floe_error *err)
{
	struct AclStmt *st = ctx->acl;

	if (!st || !st->lock_want)
		return FLOE_OK;
	if (st->lock_named)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s cannot be applied to a WITH query",
				   st->strength ? st->strength : "FOR UPDATE");
	st->lock_want = 0;     /* "all" does not reach into a WITH query */
	return FLOE_OK;
}

int
acl_owner_begin(ExecCtx *ctx)
{
	struct AclStmt *st = stmt_state(ctx);
	int mode = (int)st->mode;
	st->mode = ACL_NONE;
	return mode;
}

void
acl_owner_end(ExecCtx *ctx, int mode)
{
	stmt_state(ctx)->mode = mode;
}

int
acl_stmt_rels(ExecCtx *ctx, const char ***ns, const char ***names)
{
	struct AclStmt *st = stmt_state(ctx);
	int i;
	*ns = ARENA_ARRAY(ctx->arena, const char *, st->n + 1);
	*names = ARENA_ARRAY(ctx->arena, const char *, st->n + 1);
	for (i = 0; i < st->n; i++) {
		(*ns)[i] = st->rels[i].ns;
		(*names)[i] = st->rels[i].name;
	}
	return st->n;
}

static const char *last_name(Node *n);

static int
owner_error(Check *c, const char *what, const char *name)
{
	return floe_errorf(c->ctx->err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must be owner of %s %s", what, name);
}

/* The kind of relation ns.name: 'r' a table, 'v' a view, 'S' a sequence,
 * 0 none (or its catalog cannot be read: the statement reports that). */
static char
rel_kind(Session *s, const char *ns, const char *name, Arena *a)
{
	char *loc = NULL;
	CatalogSeq q;
	bool found = false;
	floe_error e;

	floe_error_clear(&e);
	if (catalog_load_table(s->engine->catalog, ns, name, a, &loc, &e) == FLOE_OK)
		return 'r';
	floe_error_clear(&e);
	if (catalog_load_view(s->engine->catalog, ns, name, a, &loc, &e) == FLOE_OK)
		return 'v';
	floe_error_clear(&e);
	if (seq_lookup(s, ns, name, a, &q, &found, &e) == FLOE_OK && found)
		return 'S';
	return 0;
}

static const char *
kind_word(char k)
{
	return k == 'v' ? "view" : k == 'S' ? "sequence" : "table";
}

/* A name qualified by a schema the role may not use: 42501 before the
 * name is looked up (PostgreSQL's LookupExplicitNamespace); a schema that
 * does not exist is the statement's own 3F000.  mu held. */
static int
qualified_usage(Check *c, const char *schema)
{
	floe_error e;

	if (!schema || !schema[0] || (schema_privs(c->role, schema) & ROLE_PRIV_USAGE))
		return FLOE_OK;
	floe_error_clear(&e);
	if (ddl_check_namespace(c->s, schema, &e) != FLOE_OK && floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME))
		return FLOE_OK;
	return floe_errorf(c->ctx->err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s", schema);
}

/* ALTER / RENAME / COMMENT ON / CREATE INDEX ON relation rv by a role that
 * is not its owner (every relation but the session's temporary ones is
 * the superuser's): PostgreSQL looks the relation up first
 * (RangeVarGetRelidExtended), so a schema without USAGE is 42501
 * "permission denied for schema", a missing relation the statement's own
 * 42P01 (or its NOTICE under IF EXISTS), and only then 42501 "must be
 * owner of <its kind> <name>" (what: that word instead).  mu held. */
static int
not_owner_rel(Check *c, PgQuery__RangeVar *rv, const char *what)
{
	const char *ns, *name;
	char k;

	if (!rv)
		return owner_error(c, what ? what : "table", "?");
	if (own_temp(c->s, rv))   /* its owner is the session */
		return FLOE_OK;
	TRY(qualified_usage(c, rv->schemaname));
	session_resolve_name(c->s, rv, &ns, &name);
	if (temp_is_temp_ns(ns))
		return FLOE_OK;       /* its own temporary sequence or view */
	if (!(k = rel_kind(c->s, ns, name, c->ctx->arena)))
		return FLOE_OK;
	return owner_error(c, what ? what : kind_word(k), rv->relname);
}

/* DROP TABLE / VIEW / SEQUENCE / SCHEMA by a non-owner: each name in
 * order as PostgreSQL's RemoveRelations looks them up: a schema without
 * USAGE 42501, a missing one or one of another kind the statement's own
 * error (42P01, 42809 "is not a table", a NOTICE under IF EXISTS), then
 * "must be owner of".  Temporary tables are the session's own.  mu held. */
static int
not_owner_drop(Check *c, PgQuery__DropStmt *ds)
{
	PgQuery__ObjectType ty = ds->remove_type;
	char want = ty == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW ? 'v' :
		    ty == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE ? 'S' : 'r';
	size_t i;

	for (i = 0; i < ds->n_objects; i++) {
		Node *o = ds->objects[i];
		PgQuery__List *l = o->node_case == PG_QUERY__NODE__NODE_LIST ? o->list : NULL;
		const char *schema, *name, *ns;
		char k;

		if (ty == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA) {
			floe_error e;
			name = o->node_case == PG_QUERY__NODE__NODE_STRING ? o->string->sval : last_name(o);
			floe_error_clear(&e);
			if (ddl_check_namespace(c->s, name, &e) != FLOE_OK)
				return FLOE_OK;   /* 3F000, or its NOTICE */
			return owner_error(c, "schema", name);
		}
		if (!l || l->n_items < 1 || l->n_items > 2)
			return FLOE_OK;       /* the statement's own error */
		schema = l->n_items == 2 ? l->items[0]->string->sval : NULL;
		name = l->items[l->n_items - 1]->string->sval;
		ns = temp_resolve(c->s, schema, name);
		if (ns)
			continue;             /* its own temporary relation */
		TRY(qualified_usage(c, schema));
		if (!ns)
			ns = schema ? schema : search_path_lookup(c->s, name);
		if (temp_is_temp_ns(ns))
			continue;             /* its own temporary sequence or view */
		k = rel_kind(c->s, ns, name, c->ctx->arena);
		if (k != want)
			return FLOE_OK;       /* missing or another kind: the statement says so */
		return owner_error(c, kind_word(k), name);
	}
	return FLOE_OK;
}

static const char *
last_name(Node *n)
{
	if (!n)
		return "?";
	if (n->node_case == PG_QUERY__NODE__NODE_STRING)
		return n->string->sval;
	if (n->node_case == PG_QUERY__NODE__NODE_LIST && n->list->n_items)
		return last_name(n->list->items[n->list->n_items - 1]);
	return "?";
}

static const char *
const_text(Node *n)
{
	if (!n)
		return NULL;
	if (n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
	    n->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
		return n->a_const->sval->sval;
	if (n->node_case == PG_QUERY__NODE__NODE_STRING)
		return n->string->sval;
	return NULL;
}

/* SET ROLE / SET SESSION AUTHORIZATION; mu held */
static int
check_set(Check *c, PgQuery__VariableSetStmt *vs)
{
	floe_error *err = c->ctx->err;
	const char *v;
	if (vs->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE || vs->n_args != 1)
		return FLOE_OK;
	v = const_text(vs->args[0]);
	if (!v)
		return FLOE_OK;
	if (!strcmp(vs->name, "role")) {
		if (!strcasecmp(v, "none"))
			return FLOE_OK;
		if (!role_exists(c->s, v))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "role \"%s\" does not exist", v);
		if (!is_super(session_user(c->s)) && !member_of(session_user(c->s), v, 0))
			return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to set role \"%s\"", v);
	} else if (!strcmp(vs->name, "session_authorization")) {
		if (!role_exists(c->s, v))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "role \"%s\" does not exist", v);
		if (!is_super(c->s->user) && !(c->s->user && !strcmp(c->s->user, v)))
			return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
					   "permission denied to set session authorization");
	}
	return FLOE_OK;
}

/* A temporary relation (table, view, sequence) needs TEMPORARY on the
 * database, PostgreSQL's rule: the session's first one (its temporary
 * schema made then: InitTempTableNamespace's message), and each later
 * one (CREATE on the temporary schema follows TEMPORARY: pg_namespace_aclmask).
 * mu held. */
static int
check_temp(Check *c)
{
	if (db_privs(c->role) & ROLE_PRIV_TEMP)
		return FLOE_OK;
	if (c->s->temp)
		return floe_errorf(c->ctx->err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s",
				   c->s->temp->ns);
	return floe_errorf(c->ctx->err, ERRCODE_INSUFFICIENT_PRIVILEGE,
			   "permission denied to create temporary tables in database \"%s\"",
			   pgcatalog_database(c->s));
}

/* CREATE SCHEMA: CREATE on the database (42501 "permission denied for
 * database x"), then, for AUTHORIZATION r, membership in r (PostgreSQL's
 * CreateSchemaCommand; a missing r is 42704 first).  mu held. */
static int
check_create_schema(Check *c, const PgQuery__CreateSchemaStmt *cs)
{
	const PgQuery__RoleSpec *rs = cs->authrole;
	const char *r = rs && rs->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING ? rs->rolename : NULL;
	floe_error *err = c->ctx->err;

	if (r && (!role_exists(c->s, r) || predefined(r)))
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", r);
	if (!(db_privs(c->role) & ROLE_PRIV_CREATE))
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for database %s",
				   pgcatalog_database(c->s));
	if (r && !member_of(c->role, r, 0))
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must be member of role \"%s\"", r);
	return FLOE_OK;
}

/* CREATE TABLE / VIEW in schema ns by a role that is not a superuser:
 * without CREATE on ns PostgreSQL's 42501; with it, 0A000 (floe's objects
 * are owned by the superuser: a role's own table, which its creator
 * would own, is not implemented).  mu held. */
static int
create_in(Check *c, const char *ns, const char *what)
{
	floe_error e;

	floe_error_clear(&e);
	if (ns && ns[0] && ddl_check_namespace(c->s, ns, &e) != FLOE_OK &&
	    floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME))
		return FLOE_OK;   /* the statement's own 3F000 */
	if (ns && ns[0] && (schema_privs(c->role, ns) & ROLE_PRIV_CREATE))
		return floe_errorf(c->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "creating a %s as a role that is not a superuser is not supported "
				   "(floe's %ss are owned by the superuser)", what, what);
	return floe_errorf(c->ctx->err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s",
			   ns && ns[0] ? ns : "?");
}

/* the checks of one statement; mu held, cache fresh */
static int
check(Check *c, Node *n)
{
	Session *s = c->s;
	floe_error *err = c->ctx->err;

	if (n->node_case == PG_QUERY__NODE__NODE_VARIABLE_SET_STMT)
		return check_set(c, n->variable_set_stmt);
	if (is_super(c->role))
		return FLOE_OK;
	/* the relations a statement reads (FROM, subqueries in any clause,
	 * CTEs, MERGE sources, COPY (query)) and writes (its targets) are
	 * checked by the binder as it loads them (acl_note_rel,
	 * acl_note_target); here: files, DDL and roles */
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
		/* EXPLAIN [ANALYZE] q needs what q needs */
		return n->explain_stmt->query ? check(c, n->explain_stmt->query) : FLOE_OK;
	case PG_QUERY__NODE__NODE_COPY_STMT: {
		PgQuery__CopyStmt *cs = n->copy_stmt;
		/* PostgreSQL checks the file privilege first; the table is the
		 * binder's (acl_note_target, or COPY ... TO's SELECT) */
		if (cs->filename && cs->filename[0] && !cs->is_program)
			TRY(file_role(c->role, !cs->is_from, err));
		return FLOE_OK;
	}
	case PG_QUERY__NODE__NODE_CREATE_STMT:
		if (temp_target(n->create_stmt->relation))   /* TEMPORARY: PUBLIC's by default */
			return check_temp(c);
		return create_in(c, ddl_rv_ns(s, n->create_stmt->relation), "relation");
	case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
		if (n->create_table_as_stmt->into && temp_target(n->create_table_as_stmt->into->rel) &&
		    n->create_table_as_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
			return check_temp(c);
		return create_in(c, n->create_table_as_stmt->into && n->create_table_as_stmt->into->rel ?
				 ddl_rv_ns(s, n->create_table_as_stmt->into->rel) : session_schema(s), "relation");
	case PG_QUERY__NODE__NODE_VIEW_STMT:   /* a view reads as its owner, the superuser */
		if (temp_target(n->view_stmt->view))
			TRY(check_temp(c));
		return create_in(c, ddl_rv_ns(s, n->view_stmt->view), "relation");
	case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
		/* a sequence is a relation: CREATE on its schema, as a table */
		if (temp_target(n->create_seq_stmt->sequence))
			return check_temp(c);
		return create_in(c, ddl_rv_ns(s, n->create_seq_stmt->sequence), "relation");
	case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
		return check_create_schema(c, n->create_schema_stmt);
	case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT: {
		/* CREATE [OR REPLACE] FUNCTION: CREATE on its schema (PostgreSQL's
		 * QualifiedNameGetCreationNamespace), then 0A000 as for a
		 * relation: a function its creator would own is not implemented */
		PgQuery__CreateFunctionStmt *cf = n->create_function_stmt;
		const char *ns = cf->n_funcname == 2 && cf->funcname[0]->node_case == PG_QUERY__NODE__NODE_STRING ?
			cf->funcname[0]->string->sval : session_schema(s);
		if (cf->n_funcname > 2 || !ns || !ns[0])
			return FLOE_OK;   /* the statement's own error */
		return create_in(c, ns, "function");
	}
	case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
		return not_owner_rel(c, n->alter_table_stmt->relation, NULL);
	case PG_QUERY__NODE__NODE_RENAME_STMT: {
		PgQuery__RenameStmt *rs = n->rename_stmt;
		if (rs->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA) {
			floe_error e;
			floe_error_clear(&e);
			if (!rs->subname || ddl_check_namespace(s, rs->subname, &e) != FLOE_OK)
				return FLOE_OK;
			return owner_error(c, "schema", rs->subname);
		}
		/* a column's or constraint's rename: "must be owner of table" */
		return not_owner_rel(c, rs->relation,
				     rs->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN ||
				     rs->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT ? "table" : NULL);
	}
	case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
		return not_owner_rel(c, n->alter_object_schema_stmt->relation, NULL);
	case PG_QUERY__NODE__NODE_COMMENT_STMT: {
		PgQuery__CommentStmt *cm = n->comment_stmt;
		PgQuery__List *l = cm->object && cm->object->node_case == PG_QUERY__NODE__NODE_LIST ?
			cm->object->list : NULL;
		PgQuery__RangeVar rv = PG_QUERY__RANGE_VAR__INIT;
		if (cm->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA) {
			floe_error e;
			const char *name = last_name(cm->object);
			floe_error_clear(&e);
			if (ddl_check_namespace(s, name, &e) != FLOE_OK)
				return FLOE_OK;
			return owner_error(c, "schema", name);
		}
		if (!l || l->n_items < 1)
			return owner_error(c, "table", last_name(cm->object));
		/* COMMENT ON COLUMN t.c: the relation is the list but its last */
		if (cm->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN) {
			if (l->n_items < 2 || l->n_items > 3)
				return FLOE_OK;
			rv.relname = l->items[l->n_items - 2]->string->sval;
			rv.schemaname = l->n_items == 3 ? l->items[0]->string->sval : NULL;
		} else {
			if (l->n_items > 2)
				return FLOE_OK;
			rv.relname = l->items[l->n_items - 1]->string->sval;
			rv.schemaname = l->n_items == 2 ? l->items[0]->string->sval : NULL;
		}
		rv.schemaname = rv.schemaname ? rv.schemaname : (char *)"";
		if (cm->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN) {
			/* a column the table does not have: the statement's 42703
			 * comes first (PostgreSQL looks it up before the owner) */
			const char *ns, *name, *col = l->items[l->n_items - 1]->string->sval;
			Table *t;
			floe_error e;
			int i;
			TRY(qualified_usage(c, rv.schemaname));
			session_resolve_name(s, &rv, &ns, &name);
			floe_error_clear(&e);
			if (txn_table_load(s, ns, name, c->ctx->arena, &t, &e) == FLOE_OK && t->md) {
				const IcebergSchema *sc = metadata_current_schema(t->md);
				for (i = 0; sc && i < sc->nfields && strcmp(sc->fields[i].name, col); i++)
					;
				if (sc && i == sc->nfields)
					return FLOE_OK;
			}
		}
		return not_owner_rel(c, &rv, cm->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN ? "relation" : NULL);
	}
	case PG_QUERY__NODE__NODE_INDEX_STMT:   /* PostgreSQL: the table's owner */
		return not_owner_rel(c, n->index_stmt->relation, "table");
	case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
		return not_owner_rel(c, n->alter_seq_stmt->sequence, NULL);
	case PG_QUERY__NODE__NODE_DROP_STMT: {
		PgQuery__DropStmt *ds = n->drop_stmt;
		switch (ds->remove_type) {
		case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
		case PG_QUERY__OBJECT_TYPE__OBJECT_VIEW:
		case PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE:
		case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA:
			return not_owner_drop(c, ds);
		case PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION:
		case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
			/* looked up by the statement first, which then refuses a
			 * non-owner (function.c, indexes.c: acl_check_owner) */
			return FLOE_OK;
		default:
			return owner_error(c, "table", ds->n_objects ? last_name(ds->objects[0]) : "?");
		}
	}
	case PG_QUERY__NODE__NODE_VACUUM_STMT:
		/* VACUUM / ANALYZE: each table the role does not own is skipped
		 * with PostgreSQL's WARNING (maintenance.c) */
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_CALL_STMT: {
		PgQuery__CallStmt *cs = n->call_stmt;
		const char *f = "?";
		if (cs->funccall && cs->funccall->n_funcname)
			f = last_name(cs->funccall->funcname[cs->funccall->n_funcname - 1]);
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for procedure %s", f);
	}
	default:
		return FLOE_OK;
	}
}

struct RoleTxn {
	char upath[PATH_MAX], rpath[PATH_MAX];
	int lock;
	Users u;
	Roles r;
};
typedef struct RoleTxn RoleTxn;

static int rt_begin(Session *s, struct RoleTxn *t, floe_error *err);
static int rt_end(struct RoleTxn *t, bool save_users, bool save, floe_error *err);

int
acl_forget_relation(Session *s, const char *ns, const char *name, floe_error *err)
{
	bool any = false;
	RoleTxn t;
	int i;

	if (no_roles_file(s))
		return FLOE_OK;
	mu_lock();
	if (refresh(s, err) != FLOE_OK) {
		mu_unlock();
		return FLOE_ERR;
	}
	for (i = 0; i < cache.r.ngrants && !any; i++)
		any = !strcmp(cache.r.grants[i].schema, ns) && !strcmp(cache.r.grants[i].table, name);
	mu_unlock();
	if (!any)
		return FLOE_OK;
	TRY(rt_begin(s, &t, err));
	roles_drop_table(&t.r, ns, name);
	return rt_end(&t, false, true, err);
}


/* CREATE TABLE [AS] of a name that has grants but no table: the grants
 * belonged to a dropped table of that name (floe keys grants by name);
 * PostgreSQL's new table starts without them, so forget them. */
static int
forget_dropped(Session *s, ExecCtx *ctx, Node *n)
{
	PgQuery__RangeVar *rv = NULL;
	const char *ns, *name;
	bool stale = false;
	int i;

	if (n->node_case == PG_QUERY__NODE__NODE_CREATE_STMT)
		rv = n->create_stmt->relation;
	else if (n->node_case == PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT && n->create_table_as_stmt->into)
		rv = n->create_table_as_stmt->into->rel;
	else if (n->node_case == PG_QUERY__NODE__NODE_CREATE_SEQ_STMT)
		rv = n->create_seq_stmt->sequence;
	if (n->node_case == PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT && n->create_schema_stmt->schemaname) {
		/* a schema created again starts without the dropped one's
		 * USAGE / CREATE grants */
		ns = n->create_schema_stmt->schemaname;
		name = "";
	} else if (!rv) {
		return FLOE_OK;
	} else {
		session_resolve_name(s, rv, &ns, &name);
	}
	mu_lock();
	if (refresh(s, ctx->err) != FLOE_OK) {
		mu_unlock();
		return FLOE_ERR;
	}
	for (i = 0; i < cache.r.ngrants && !stale; i++)
		stale = !strcmp(cache.r.grants[i].schema, ns) && !strcmp(cache.r.grants[i].table, name);
	mu_unlock();
	if (stale && !name[0]) {
		floe_error e;
		floe_error_clear(&e);
		stale = ddl_check_namespace(s, ns, &e) != FLOE_OK && floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME);
	} else if (stale) {
		stale = !rel_kind(s, ns, name, ctx->arena);   /* no table, view or sequence */
	}
	if (stale) {
		struct RoleTxn t;
		TRY(rt_begin(s, &t, ctx->err));
		roles_drop_table(&t.r, ns, name);
		return rt_end(&t, false, true, ctx->err);
	}
	return FLOE_OK;
}

int
acl_schema_authorization(Session *s, const PgQuery__CreateSchemaStmt *cs, bool done, floe_error *err)
{
	const PgQuery__RoleSpec *rs = cs->authrole;
	const char *role;
	bool known, super;
	RoleTxn t;

	if (!cs->schemaname)
		return FLOE_OK;
	/* no AUTHORIZATION: the creating role owns it in PostgreSQL (a
	 * non-superuser holding CREATE on the database: acl_check_stmt) */
	role = rs && rs->roletype == PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING ? rs->rolename : current_role(s);
	if (!role || no_roles_file(s))   /* no roles: nothing to record */
		return FLOE_OK;
	mu_lock();
	if (refresh(s, err) != FLOE_OK) {
		mu_unlock();
		return FLOE_ERR;
	}
	known = role_exists(s, role) && !predefined(role);
	super = is_super(role);
	mu_unlock();
	if (!known)
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", role);
	if (!done || super)
		return FLOE_OK;
	TRY(rt_begin(s, &t, err));
	roles_grant(&t.r, role, cs->schemaname, "", NULL, ROLE_PRIV_USAGE | ROLE_PRIV_CREATE, true);
	return rt_end(&t, false, true, err);
}

int
acl_check_stmt(Session *s, ExecCtx *ctx, const SqlStmt *st)
{
	Check c;
	int rc;
	Node **lock;
	size_t nlock;

	stmt_state(ctx);
	/* SELECT ... FOR UPDATE / SHARE: what it locks (PostgreSQL's errors
	 * for a bad OF list come first, for every role); the binder checks
	 * UPDATE on each as it resolves it (acl_lock_enter) */
	if (st->node->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
	    txn_take_locking(s, st->node->select_stmt, &lock, &nlock))
		TRY(acl_lock_prepare(ctx, st->node->select_stmt, lock, nlock, ctx->err));
	/* the embedded shell without SET ROLE: a superuser, nothing to read */
	if (!current_role(s)) {
		ctx->acl->mode = ACL_NONE;
		return forget_dropped(s, ctx, st->node);
	}
	/* no roles file: every role is a superuser (is_super), whom check()
	 * lets through at once but for SET ROLE / SESSION AUTHORIZATION; seen
	 * without taking mu, which every statement of every session would
	 * otherwise queue on */
	if (st->node->node_case != PG_QUERY__NODE__NODE_VARIABLE_SET_STMT && no_roles_file(s)) {
		ctx->acl->mode = ACL_NONE;
		return forget_dropped(s, ctx, st->node);
	}
	memset(&c, 0, sizeof c);
	c.s = s;
	c.ctx = ctx;
	c.role = current_role(s);
	mu_lock();
	rc = refresh(s, ctx->err);
	if (rc == FLOE_OK) {
		ctx->acl->mode = is_super(c.role) ? ACL_NONE : ACL_CHECK;
		rc = check(&c, st->node);
	}
	mu_unlock();
	if (rc == FLOE_OK)
		rc = forget_dropped(s, ctx, st->node);
	return rc;
}

/* PostgreSQL's InitializeSessionUserId: after authentication, a role
 * without LOGIN is refused (28000) before the session starts; then one
 * without CONNECT on the database (42501, CheckMyDatabase).  A session
 * already running when its role loses LOGIN or CONNECT goes on. */
int
acl_check_login(Session *s, floe_error *err)
{
	int rc;

	if (!s->user)
		return FLOE_OK;
	mu_lock();
	rc = refresh(s, err);
	if (rc == FLOE_OK && cache.r.exists) {
		const RoleEntry *e = roles_find(&cache.r, s->user);
		if (e && !e->login)
			rc = floe_errorf(err, ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
					 "role \"%s\" is not permitted to log in", s->user);
		else if (!(db_privs(s->user) & ROLE_PRIV_CONNECT)) {
			/* PostgreSQL's CheckMyDatabase, after the role's LOGIN */
			rc = floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for database \"%s\"",
					 pgcatalog_database(s));
			floe_error_detail(err, "User does not have CONNECT privilege.");
		}
	}
	mu_unlock();
	return rc;
}

bool
acl_is_superuser(Session *s)
{
	bool r;
	const char *role = current_role(s);
	floe_error e;
	if (!role)
		return true;
	mu_lock();
	r = refresh(s, &e) == FLOE_OK && is_super(role);
	mu_unlock();
	return r;
}

/* ---- server-side files ------------------------------------------------- */

static bool
under(const char *real, const char *root)
{
	size_t n = strlen(root);
	if (n == 1 && root[0] == '/')
		return true;
	return !strncmp(real, root, n) && (real[n] == '/' || real[n] == 0);
}

/* The real path of path: storage/confined_open.h's confined_resolve */
static bool
resolve(const char *path, char *out)
{
	return confined_resolve(path, out);
}

/* Is the object URI p (s3:// or s3a://) under the prefix root (either
 * scheme)?  A "." or ".." segment never is: keys are literal. */
static bool
s3_under(const char *p, const char *root)
{
	const char *a = p + (strncmp(p, "s3a://", 6) == 0 ? 6 : 5);
	const char *b = root + (strncmp(root, "s3a://", 6) == 0 ? 6 : 5);
	size_t n = strlen(b);

	if (!fileio_is_remote(root) || strstr(a, "/../") || strstr(a, "/./") ||
	    (strlen(a) >= 3 && !strcmp(a + strlen(a) - 3, "/..")))
		return false;
	while (n > 0 && b[n - 1] == '/')
		n--;
	return strncmp(a, b, n) == 0 && (a[n] == '/' || a[n] == 0);
}

/* Is the real path of `path` inside the warehouse or an allowed
 * directory?  via_io: path is a URI or path the FileIO resolves (prefix
 * maps, file: scheme, relative to the warehouse); else the local path the
 * caller opens as it is (relative to the working folder).  mu held. */
static bool
confined(Session *s, const char *path, bool via_io)
{
	char real[PATH_MAX], wh[PATH_MAX];
	Arena *a = arena_new(0);
	const char *p = via_io ? fileio_resolve(s->engine->io, path, a) : path;
	bool ok = false;
	int i;

	if (fileio_is_remote(p)) {
		/* an object: under the warehouse's s3:// root or an allowed prefix */
		ok = s3_under(p, s->engine->io->root);
		for (i = 0; i < nallow_dirs && !ok; i++)
			ok = s3_under(p, allow_dirs[i]);
	}
	/* a URI (s3://, file:...) left: not a local file of the warehouse */
	else if (!strstr(p, "://") && strncmp(p, "file:", 5) && resolve(p, real)) {
		if (realpath(s->engine->warehouse, wh) && under(real, wh))
			ok = true;
		for (i = 0; i < nallow_dirs && !ok; i++)
			ok = under(real, allow_dirs[i]);
	}
	arena_free(a);
	return ok;
}

static void test_swap(bool at_check);

static int
outside_error(const char *path, floe_error *err)
{
	floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
		    "could not access file \"%s\": outside the warehouse and the allowed directories", path);
	floe_error_hint(err, "Server-side files must resolve (after symbolic links) inside the warehouse "
			"or a directory given with floe serve --allow-dir.");
	return FLOE_ERR;
}

int
acl_check_file(Session *s, const char *path, bool write, floe_error *err)
{
	const char *role = current_role(s);
	bool ok;

	if (!role)
		return FLOE_OK;    /* the embedded shell: the OS user's own rights */
	mu_lock();
	if (refresh(s, err) != FLOE_OK) {
		mu_unlock();
		return FLOE_ERR;
	}
	/* COPY checked file_role in acl_check_stmt; this is read_parquet */
	if (!is_super(role) && !member_of(role, write ? "pg_write_server_files" : "pg_read_server_files", 0)) {
		mu_unlock();
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
				   "must be superuser or have privileges of the %s role to %s server files",
				   write ? "pg_write_server_files" : "pg_read_server_files", write ? "write" : "read");
	}
	ok = confined(s, path, false);
	mu_unlock();
	if (ok)
		test_swap(true);
	return ok ? FLOE_OK : outside_error(path, err);
}

int
acl_check_location(Session *s, const char *path, floe_error *err)
{
	bool ok;
	if (!current_role(s))
		return FLOE_OK;
	mu_lock();
	ok = confined(s, path, true);
	mu_unlock();
	return ok ? FLOE_OK : outside_error(path, err);
}

/* ---- opening what was checked ----------------------------------------- */

#ifdef FLOE_DEBUG
/* tests (acl.sh): FLOE_TEST_CONFINE_SWAP="DIR=TARGET" moves DIR aside and
 * puts a symbolic link to TARGET in its place after the path is resolved
 * and checked, before the open (the race confined_open closes);
 * FLOE_TEST_CONFINE_NO_OPENAT2=1 takes the openat walk.  With
 * FLOE_TEST_CONFINE_SWAP_AT=check the swap is made as acl_check_file
 * returns instead (a reader that opens by path after the check follows
 * the link; acl_open_file's own resolution then refuses it).  Debug
 * builds only. */
static void
test_swap(bool at_check)
{
	const char *v = getenv("FLOE_TEST_CONFINE_SWAP"), *when = getenv("FLOE_TEST_CONFINE_SWAP_AT");
	char dir[PATH_MAX], aside[PATH_MAX + 16];
	const char *eq = v ? strchr(v, '=') : NULL;

	confined_force_fallback(getenv("FLOE_TEST_CONFINE_NO_OPENAT2") != NULL);
	if (at_check != (when && !strcmp(when, "check")))
		return;
	if (!eq || (size_t)(eq - v) >= sizeof dir)
		return;
	memcpy(dir, v, (size_t)(eq - v));
	dir[eq - v] = '\0';
	snprintf(aside, sizeof aside, "%s.swapped", dir);
	if (rename(dir, aside) == 0 && symlink(eq + 1, dir) != 0)
		(void)rename(aside, dir);
}
#else
static void
test_swap(bool at_check)
{
	(void)at_check;
}
#endif

/* the allowed folder `path` resolves into and the rest of its real path
 * (42501 when none: outside, as acl_check_file) */
static int
confine_split(Session *s, const char *path, char *real, const char **root, const char **rel,
	      char *wh, floe_error *err)
{
	size_t best = 0;
	int i;

	*root = NULL;
	if (fileio_is_remote(path) || strstr(path, "://") || !strncmp(path, "file:", 5) || !resolve(path, real))
		return outside_error(path, err);
	mu_lock();
	if (realpath(s->engine->warehouse, wh) && under(real, wh)) {
		*root = wh;
		best = strlen(wh);
	}
	for (i = 0; i < nallow_dirs; i++)
		if (!fileio_is_remote(allow_dirs[i]) && under(real, allow_dirs[i]) &&
		    strlen(allow_dirs[i]) > best) {
			*root = allow_dirs[i];     /* kept until exit: never freed */
			best = strlen(allow_dirs[i]);
		}
	mu_unlock();
	if (!*root || !real[best])
		return outside_error(path, err);
	*rel = real + best + (best > 1 ? 1 : 0);
	while (**rel == '/')
		(*rel)++;
	return FLOE_OK;
}

int
acl_open_file(Session *s, const char *path, int flags, floe_error *err)
{
	char real[PATH_MAX], wh[PATH_MAX];
	const char *root, *rel;
	int fd;

	if (!current_role(s))
		return open(path, flags | O_CLOEXEC, 0644);   /* the embedded shell */
	if (confine_split(s, path, real, &root, &rel, wh, err) != FLOE_OK) {
		errno = EXDEV;
		return -1;
	}
	test_swap(false);
	fd = confined_open(root, rel, flags, 0644);
	if (fd < 0 && (errno == ELOOP || errno == EXDEV)) {
		outside_error(path, err);
		errno = EXDEV;
	}
	return fd;
}

int
acl_read_file(Session *s, FileIO *io, const char *path, Arena *a, const uint8_t **data, size_t *len,
	      floe_error *err)
{
	const char *p = fileio_resolve(io, path, a);
	int fd, e;

	if (!current_role(s) || fileio_is_remote(p))
		return fileio_read(io, path, a, data, len, err);
	if ((fd = acl_open_file(s, p, O_RDONLY | O_NONBLOCK, err)) >= 0)
		return fileio_map_fd(fd, path, a, data, len, err);
	if ((e = errno) == EXDEV)
		return FLOE_ERR;                     /* 42501, set by acl_open_file */
	return floe_errorf(err, e == ENOENT ? ERRCODE_UNDEFINED_FILE : ERRCODE_IO_ERROR,
			   "could not open file \"%s\": %s", path, strerror(e));
}

int
acl_open_parent(Session *s, const char *path, char *name, size_t cap, floe_error *err)
{
	char real[PATH_MAX], wh[PATH_MAX];
	const char *root, *rel, *base;
	int fd;

	if (!current_role(s)) {
		const char *slash = strrchr(path, '/');
		char dir[PATH_MAX];
		size_t n = slash ? (size_t)(slash - path) : 0;
		if (!slash || n >= sizeof dir) {
			errno = ENAMETOOLONG;
			return slash ? -1 : open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		}
		snprintf(name, cap, "%s", slash + 1);
		memcpy(dir, path, n);
		dir[n] = '\0';
		return open(n ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (confine_split(s, path, real, &root, &rel, wh, err) != FLOE_OK) {
		errno = EXDEV;
		return -1;
	}
	test_swap(false);
	fd = confined_open_parent(root, rel, &base);
	if (fd < 0 && (errno == ELOOP || errno == EXDEV)) {
		outside_error(path, err);
		errno = EXDEV;
	}
	if (fd >= 0)
		snprintf(name, cap, "%s", base);
	return fd;
}

/* ---- role statements --------------------------------------------------- */


/* lock and read both files; a first roles file keeps every existing user
 * and the session user superusers (they were, before roles existed) */
static int
rt_begin(Session *s, struct RoleTxn *t, floe_error *err)
{
	int i;
	memset(t, 0, sizeof *t);
	users_path(s->engine->warehouse, t->upath, sizeof t->upath);
	roles_path(s->engine->warehouse, t->rpath, sizeof t->rpath);
	if ((t->lock = users_lock(t->upath, err)) < 0)
		return FLOE_ERR;
	if (users_load(t->upath, true, &t->u, err) != FLOE_OK) {
		users_unlock(t->lock);
		return FLOE_ERR;
	}
	if (roles_load(t->rpath, &t->r, err) != FLOE_OK) {
		users_free(&t->u);
		users_unlock(t->lock);
		return FLOE_ERR;
	}
	if (!t->r.exists) {
		for (i = 0; i < t->u.n; i++)
			roles_set(&t->r, t->u.u[i].name, true, true);
		if (s->user)
			roles_set(&t->r, s->user, true, true);
	}
	return FLOE_OK;
}

static int
rt_end(struct RoleTxn *t, bool save_users, bool save, floe_error *err)
{
	int rc = FLOE_OK;
	if (save && save_users)
		rc = users_save(t->upath, &t->u, err);
	if (save && rc == FLOE_OK)
		rc = roles_save(t->rpath, &t->r, err);
	users_free(&t->u);
	roles_free(&t->r);
	users_unlock(t->lock);
	return rc;
}

static bool
defel_bool(PgQuery__DefElem *d)
{
	Node *a = d->arg;
	if (!a)
		return true;
	if (a->node_case == PG_QUERY__NODE__NODE_BOOLEAN)
		return a->boolean->boolval;
	if (a->node_case == PG_QUERY__NODE__NODE_INTEGER)
		return a->integer->ival != 0;
	return true;
}

typedef struct RoleOpts {
	int super, login;          /* -1: not given */
	bool has_password;
	const char *password;      /* NULL with has_password: PASSWORD NULL */
	const char **in_roles, **members;
	int nin, nmembers;
} RoleOpts;

static const char *
spec_name(Session *s, Node *n)
{
	PgQuery__RoleSpec *rs;
	if (!n || n->node_case != PG_QUERY__NODE__NODE_ROLE_SPEC)
		return NULL;
	rs = n->role_spec;
	switch (rs->roletype) {
	case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_CSTRING: return rs->rolename;
	case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_PUBLIC: return "public";
	case PG_QUERY__ROLE_SPEC_TYPE__ROLESPEC_SESSION_USER:
		return session_user(s) ? session_user(s) : "floe";
	default: return current_role(s) ? current_role(s) : "floe";
	}
}

static int
role_opts(Session *s, Arena *a, Node **opts, size_t n, RoleOpts *o, floe_error *err)
{
	size_t i, k;
	memset(o, 0, sizeof *o);
	o->super = o->login = -1;
	for (i = 0; i < n; i++) {
		PgQuery__DefElem *d;
		if (opts[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
			continue;
		d = opts[i]->def_elem;
		if (!strcmp(d->defname, "password")) {
			o->has_password = true;
			o->password = const_text(d->arg);
		} else if (!strcmp(d->defname, "superuser")) {
			o->super = defel_bool(d);
		} else if (!strcmp(d->defname, "canlogin")) {
			o->login = defel_bool(d);
		} else if (!strcmp(d->defname, "addroleto") || !strcmp(d->defname, "rolemembers")) {
			bool in = !strcmp(d->defname, "addroleto");
			Node *l = d->arg;
			if (!l || l->node_case != PG_QUERY__NODE__NODE_LIST)
				continue;
			for (k = 0; k < l->list->n_items; k++) {
				const char *nm = spec_name(s, l->list->items[k]);
				if (!nm)
					continue;
				if (in) {
					o->in_roles = arena_realloc(a, o->in_roles, sizeof(char *) * (size_t)o->nin,
								    sizeof(char *) * (size_t)(o->nin + 1));
					o->in_roles[o->nin++] = nm;
				} else {
					o->members = arena_realloc(a, o->members, sizeof(char *) * (size_t)o->nmembers,
								   sizeof(char *) * (size_t)(o->nmembers + 1));
					o->members[o->nmembers++] = nm;
				}
			}
		} else if (!strcmp(d->defname, "inherit") || !strcmp(d->defname, "createdb") ||
			   !strcmp(d->defname, "createrole") || !strcmp(d->defname, "replication") ||
			   !strcmp(d->defname, "bypassrls") || !strcmp(d->defname, "connectionlimit") ||
			   !strcmp(d->defname, "validUntil")) {
			/* accepted, not enforced (docs/security.md) */
		} else {
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "role option \"%s\" is not supported",
					   d->defname);
		}
	}
	return FLOE_OK;
}

/* set or clear the password of name in t->u */
static int
set_password(ExecCtx *ctx, RoleTxn *t, const char *name, const RoleOpts *o, ResultSink *sink)
{
	char verifier[512];
	ScramVerifier v;
	if (!o->password || !o->password[0]) {
		if (o->password)
			engine_notice(sink, "empty string is not a valid password, clearing password%s", "");
		users_remove(&t->u, name);
		return FLOE_OK;
	}
	if (!strncmp(o->password, "SCRAM-SHA-256$", 14) && scram_verifier_parse(o->password, &v) == FLOE_OK)
		return users_set(&t->u, name, o->password, NULL, ctx->err);
	if (scram_verifier_make(o->password, 4096, verifier, sizeof verifier) != FLOE_OK)
		return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR, "could not make a SCRAM verifier");
	return users_set(&t->u, name, verifier, NULL, ctx->err);
}

static int
reserved_name(floe_error *err, const char *name)
{
	if (!strncmp(name, "pg_", 3)) {
		floe_errorf(err, "42939", "role name \"%s\" is reserved", name);
		floe_error_detail(err, "Role names starting with \"pg_\" are reserved.");
		return FLOE_ERR;
	}
	if (!strcmp(name, "public") || !strcmp(name, "none"))
		return floe_errorf(err, "42939", "role name \"%s\" is reserved", name);
	if (!users_valid_name(name))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid role name \"%s\": 1 to 63 printable characters without ':'", name);
	return FLOE_OK;
}

static int
create_role(Session *s, ExecCtx *ctx, PgQuery__CreateRoleStmt *cr, ResultSink *sink)
{
	floe_error *err = ctx->err;
	RoleOpts o;
	RoleTxn t;
	bool super_me = acl_is_superuser(s);
	int i, rc;

	TRY(role_opts(s, ctx->arena, cr->options, cr->n_options, &o, err));
	if (o.super == 1 && !super_me)
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must be superuser to create superusers");
	if (!super_me)
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to create role");
	TRY(reserved_name(err, cr->role));
	TRY(rt_begin(s, &t, err));
	rc = FLOE_ERR;
	if (roles_find(&t.r, cr->role) || users_find(&t.u, cr->role)) {
		floe_errorf(err, ERRCODE_DUPLICATE_OBJECT, "role \"%s\" already exists", cr->role);
		goto out;
	}
	for (i = 0; i < o.nin; i++)
		if (!predefined(o.in_roles[i]) && !roles_find(&t.r, o.in_roles[i])) {
			floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", o.in_roles[i]);
			goto out;
		}
	for (i = 0; i < o.nmembers; i++)
		if (!roles_find(&t.r, o.members[i])) {
			floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", o.members[i]);
			goto out;
		}
	roles_set(&t.r, cr->role, o.super == 1,
		  o.login >= 0 ? o.login == 1 : cr->stmt_type == PG_QUERY__ROLE_STMT_TYPE__ROLESTMT_USER);
	for (i = 0; i < o.nin; i++)
		roles_member(&t.r, cr->role, o.in_roles[i], true);
	for (i = 0; i < o.nmembers; i++)
		roles_member(&t.r, o.members[i], cr->role, true);
	if (o.has_password && set_password(ctx, &t, cr->role, &o, sink) != FLOE_OK)
		goto out;
	rc = FLOE_OK;
out:
	if (rt_end(&t, o.has_password, rc == FLOE_OK, err) != FLOE_OK)
		rc = FLOE_ERR;
	return rc == FLOE_OK ? engine_complete(sink, "CREATE ROLE") : FLOE_ERR;
}

static int
alter_role(Session *s, ExecCtx *ctx, PgQuery__AlterRoleStmt *ar, ResultSink *sink)
{
	floe_error *err = ctx->err;
	const char *name = spec_name(s, ar->role ? &(Node){ .node_case = PG_QUERY__NODE__NODE_ROLE_SPEC,
							    .role_spec = ar->role } : NULL);
	RoleOpts o;
	RoleTxn t;
	RoleEntry *e;
	bool super_me = acl_is_superuser(s);
	int i, rc = FLOE_ERR;

	if (!name)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this form of ALTER ROLE is not supported");
	TRY(role_opts(s, ctx->arena, ar->options, ar->n_options, &o, err));
	TRY(rt_begin(s, &t, err));
	e = roles_find(&t.r, name);
	if (!e && !users_find(&t.u, name)) {
		floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
		goto out;
	}
	if (!super_me) {
		const char *me = current_role(s);
		if ((e && e->super) || o.super >= 0) {
			floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
				    "must be superuser to alter superuser roles or change superuser attribute");
			goto out;
		}
		if (o.login >= 0 || o.nin || o.nmembers || !o.has_password || !me || strcmp(me, name)) {
			floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied");
			goto out;
		}
	}
	if (!e) {
		roles_set(&t.r, name, false, true);
		e = roles_find(&t.r, name);
	}
	roles_set(&t.r, name, o.super >= 0 ? o.super == 1 : e->super, o.login >= 0 ? o.login == 1 : e->login);
	for (i = 0; i < o.nin; i++)
		roles_member(&t.r, name, o.in_roles[i], true);
	if (o.has_password && set_password(ctx, &t, name, &o, sink) != FLOE_OK)
		goto out;
	rc = FLOE_OK;
out:
	if (rt_end(&t, o.has_password, rc == FLOE_OK, err) != FLOE_OK)
		rc = FLOE_ERR;
	return rc == FLOE_OK ? engine_complete(sink, "ALTER ROLE") : FLOE_ERR;
}

static int
drop_role(Session *s, ExecCtx *ctx, PgQuery__DropRoleStmt *dr, ResultSink *sink)
{
	floe_error *err = ctx->err;
	RoleTxn t;
	size_t i;
	int k, rc = FLOE_ERR;
	bool changed_users = false;

	if (!acl_is_superuser(s))
		return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied to drop role");
	TRY(rt_begin(s, &t, err));
	for (i = 0; i < dr->n_roles; i++) {
		const char *name = spec_name(s, dr->roles[i]);
		if (!name)
			continue;
		if (predefined(name) || !strcmp(name, "public")) {
			floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "cannot drop role %s: it is reserved", name);
			goto out;
		}
		if (!roles_find(&t.r, name) && !users_find(&t.u, name)) {
			if (!dr->missing_ok) {
				floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
				goto out;
			}
			engine_notice(sink, "role \"%s\" does not exist, skipping", name);
			continue;
		}
		if (current_role(s) && !strcmp(current_role(s), name)) {
			floe_errorf(err, "55006", "current user cannot be dropped");
			goto out;
		}
		if (session_user(s) && !strcmp(session_user(s), name)) {
			floe_errorf(err, "55006", "session user cannot be dropped");
			goto out;
		}
		for (k = 0; k < t.r.ngrants; k++) {
			const RoleGrant *gr = &t.r.grants[k];
			bool exists;
			const char *uuid;
			if (strcmp(gr->grantee, name))
				continue;
			if (!gr->schema[0]) {      /* the database's */
				floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
					    "role \"%s\" cannot be dropped because some objects depend on it", name);
				floe_error_detail(err, "privileges for database %s", pgcatalog_database(s));
				goto out;
			}
			if (!gr->table[0]) {
				/* a schema's USAGE / CREATE: of a dropped schema, forget it */
				floe_error e;
				floe_error_clear(&e);
				if (ddl_check_namespace(s, gr->schema, &e) != FLOE_OK &&
				    floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME)) {
					roles_grant(&t.r, gr->grantee, gr->schema, "", NULL,
						    ROLE_PRIV_USAGE | ROLE_PRIV_CREATE, false);
					k--;
					continue;
				}
				floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
					    "role \"%s\" cannot be dropped because some objects depend on it", name);
				floe_error_detail(err, "privileges for schema %s", gr->schema);
				goto out;
			}
			/* a dropped table's grant is no dependency (PostgreSQL drops
			 * a table's privileges with it): forget it */
			uuid = table_uuid(s, gr->schema, gr->table, ctx->arena, &exists);
			if (!exists || !roles_grant_applies(gr, uuid)) {
				/* (revoking all of it deletes entry k) */
				roles_grant(&t.r, gr->grantee, gr->schema, gr->table, gr->uuid,
					    ROLE_PRIV_ALL | ROLE_PRIV_USAGE, false);
				k--;
				continue;
			}
			floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				    "role \"%s\" cannot be dropped because some objects depend on it", name);
			floe_error_detail(err, "privileges for %s %s",
					  rel_kind(s, gr->schema, gr->table, ctx->arena) == 'S' ? "sequence" : "table",
					  gr->table);
			goto out;
		}
		roles_remove(&t.r, name);
		if (users_remove(&t.u, name))
			changed_users = true;
	}
	rc = FLOE_OK;
out:
	if (rt_end(&t, changed_users, rc == FLOE_OK, err) != FLOE_OK)
		rc = FLOE_ERR;
	return rc == FLOE_OK ? engine_complete(sink, "DROP ROLE") : FLOE_ERR;
}

static int
parse_privs(PgQuery__GrantStmt *gs, bool table, unsigned *out, floe_error *err)
{
	bool seq = gs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE;
	size_t i;
	*out = 0;
	if (seq) {   /* USAGE, SELECT, UPDATE (ACL_ALL_RIGHTS_SEQUENCE) */
		if (!gs->n_privileges)
			*out = SEQ_PRIVS;
		for (i = 0; i < gs->n_privileges; i++) {
			PgQuery__AccessPriv *ap;
			char up[64];
			size_t k;
			if (gs->privileges[i]->node_case != PG_QUERY__NODE__NODE_ACCESS_PRIV)
				continue;
			ap = gs->privileges[i]->access_priv;
			if (ap->n_cols)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "column privileges are not supported");
			if (!strcmp(ap->priv_name, "usage"))
				*out |= ROLE_PRIV_USAGE;
			else if (!strcmp(ap->priv_name, "select"))
				*out |= ROLE_PRIV_SELECT;
			else if (!strcmp(ap->priv_name, "update"))
				*out |= ROLE_PRIV_UPDATE;
			else {
				for (k = 0; ap->priv_name[k] && k < sizeof up - 1; k++)
					up[k] = (char)(ap->priv_name[k] >= 'a' && ap->priv_name[k] <= 'z' ?
						       ap->priv_name[k] - 32 : ap->priv_name[k]);
				up[k] = 0;
				return floe_errorf(err, "0LP01", "invalid privilege type %s for sequence", up);
			}
		}
		return FLOE_OK;
	}
	if (!gs->n_privileges) {
		*out = table ? ROLE_PRIV_ALL :
		       gs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE ? ROLE_PRIV_DATABASE :
		       ROLE_PRIV_USAGE | ROLE_PRIV_CREATE;
		return FLOE_OK;
	}
	for (i = 0; i < gs->n_privileges; i++) {
		PgQuery__AccessPriv *ap;
		const char *p;
		if (gs->privileges[i]->node_case != PG_QUERY__NODE__NODE_ACCESS_PRIV)
			continue;
		ap = gs->privileges[i]->access_priv;
		p = ap->priv_name;
		if (ap->n_cols)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "column privileges are not supported");
		if (!table) {
			bool schema = gs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA;
			if (!strcmp(p, "usage") && schema)
				*out |= ROLE_PRIV_USAGE;
			else if (!strcmp(p, "create"))
				*out |= ROLE_PRIV_CREATE;
			else if (!schema && !strcmp(p, "connect"))
				*out |= ROLE_PRIV_CONNECT;
			else if (!schema && (!strcmp(p, "temporary") || !strcmp(p, "temp")))
				*out |= ROLE_PRIV_TEMP;
			else {
				char up[64];
				size_t k;
				for (k = 0; p[k] && k < sizeof up - 1; k++)
					up[k] = (char)(p[k] >= 'a' && p[k] <= 'z' ? p[k] - 32 : p[k]);
				up[k] = 0;
				if (!strcmp(up, "TEMPORARY"))
					strcpy(up, "TEMP");   /* PostgreSQL's privilege_to_string */
				return floe_errorf(err, "0LP01", "invalid privilege type %s for %s", up,
						   schema ? "schema" : "database");
			}
			continue;
		}
		if (!strcmp(p, "select"))
			*out |= ROLE_PRIV_SELECT;
		else if (!strcmp(p, "insert"))
			*out |= ROLE_PRIV_INSERT;
		else if (!strcmp(p, "update"))
			*out |= ROLE_PRIV_UPDATE;
		else if (!strcmp(p, "delete"))
			*out |= ROLE_PRIV_DELETE;
		else if (!strcmp(p, "truncate"))
			*out |= ROLE_PRIV_TRUNCATE;
		else if (!strcmp(p, "references"))
			*out |= ROLE_PRIV_REFERENCES;   /* recorded; floe has no foreign keys */
		else if (!strcmp(p, "trigger"))
			*out |= ROLE_PRIV_TRIGGER;      /* ... nor triggers */
		else {
			char up[64];
			size_t k;
			for (k = 0; p[k] && k < sizeof up - 1; k++)
				up[k] = (char)(p[k] >= 'a' && p[k] <= 'z' ? p[k] - 32 : p[k]);
			up[k] = 0;
			return floe_errorf(err, "0LP01", "invalid privilege type %s for table", up);
		}
	}
	return FLOE_OK;
}

/* PostgreSQL's WARNING (01007 / 01006) for a GRANT / REVOKE by a role
 * without grant options that holds some privilege on the object */
static void
warn_no_privileges(ResultSink *sink, bool is_grant, const char *name)
{
	floe_error w;

	if (!sink || !sink->notice)
		return;
	if (is_grant)
		floe_errorf(&w, "01007", "no privileges were granted for \"%s\"", name);
	else
		floe_errorf(&w, "01006", "no privileges could be revoked for \"%s\"", name);
	sink->notice(sink->ctx, &w);
}

static int
grant(Session *s, ExecCtx *ctx, PgQuery__GrantStmt *gs, ResultSink *sink)
{
	floe_error *err = ctx->err;
	bool table = gs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE;
	bool seq = gs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE;
	bool super_me = acl_is_superuser(s);
	const char **nss = NULL, **names = NULL, **uuids = NULL;
	unsigned *oprivs = NULL;      /* per object: a sequence named ON TABLE gets its own */
	int ntab = 0, rc = FLOE_ERR;
	unsigned privs;
	size_t i, g;
	RoleTxn t;

	if (gs->grant_option)   /* grant options are not recorded (docs/security.md) */
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   gs->is_grant ? "GRANT ... WITH GRANT OPTION is not supported"
						: "REVOKE GRANT OPTION FOR is not supported");
	if (gs->targtype == PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_DEFAULTS ||
	    (!table && !seq && gs->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA &&
	     gs->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "GRANT / REVOKE on this kind of object is not supported");
	TRY(parse_privs(gs, table, &privs, err));
	/* the objects: tables (named, or all of a schema), or schemas */
	for (i = 0; i < gs->n_objects; i++) {
		Node *o = gs->objects[i];
		if ((table || seq) && gs->targtype == PG_QUERY__GRANT_TARGET_TYPE__ACL_TARGET_OBJECT) {
			const char *ns, *name, *uuid;
			unsigned op = privs;
			bool exists;
			char kind;
			if (o->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
				continue;
			session_resolve_name(s, o->range_var, &ns, &name);
			uuid = table_uuid(s, ns, name, ctx->arena, &exists);
			if (!exists)
				return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
			kind = temp_is_temp_ns(ns) ? 'r' : rel_kind(s, ns, name, ctx->arena);
			if (seq && kind != 'S')
				return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
			if (table && kind == 'S') {
				/* ON TABLE naming a sequence: ALL is the sequence's
				 * three, others are dropped with PostgreSQL's WARNING */
				if (!gs->n_privileges) {
					op = SEQ_PRIVS;
				} else if (privs & ~SEQ_PRIVS) {
					floe_error w;
					floe_errorf(&w, "0LP01", "sequence \"%s\" only supports USAGE, SELECT, and UPDATE privileges",
						    name);
					if (sink && sink->notice)
						sink->notice(sink->ctx, &w);
					op = privs & SEQ_PRIVS;
				}
			}
			if (!super_me) {
				/* PostgreSQL: a role with some privilege but no grant
				 * option gets a warning, one with none an error */
				unsigned have;
				mu_lock();
				have = refresh(s, err) == FLOE_OK ? privs_of(current_role(s), ns, name, uuid, 0) : 0;
				mu_unlock();
				if (!have)
					return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
							   "permission denied for %s %s", kind == 'S' ? "sequence" : "table",
							   name);
				warn_no_privileges(sink, gs->is_grant, name);
				continue;
			}
			oprivs = arena_realloc(ctx->arena, oprivs, sizeof *oprivs * (size_t)ntab,
					       sizeof *oprivs * (size_t)(ntab + 1));
			oprivs[ntab] = op;
			nss = arena_realloc(ctx->arena, nss, sizeof *nss * (size_t)ntab, sizeof *nss * (size_t)(ntab + 1));
			names = arena_realloc(ctx->arena, names, sizeof *names * (size_t)ntab,
					      sizeof *names * (size_t)(ntab + 1));
			uuids = arena_realloc(ctx->arena, uuids, sizeof *uuids * (size_t)ntab,
					      sizeof *uuids * (size_t)(ntab + 1));
			nss[ntab] = ns;
			uuids[ntab] = uuid;
			names[ntab++] = name;
		} else {
			const char *sch = last_name(o);
			if (gs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE) {
				/* the one database: the warehouse, by the name this
				 * session connected with (pg_database's one row) */
				if (strcmp(sch, pgcatalog_database(s)))
					return floe_errorf(err, ERRCODE_INVALID_CATALOG_NAME,
							   "database \"%s\" does not exist", sch);
				if (!super_me) {
					/* as for tables: some privilege but no grant
					 * option is a warning, none an error */
					unsigned have;
					mu_lock();
					have = refresh(s, err) == FLOE_OK ? db_privs(current_role(s)) : 0;
					mu_unlock();
					if (!have)
						return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
								   "permission denied for database %s", sch);
					warn_no_privileges(sink, gs->is_grant, sch);
					continue;
				}
				nss = arena_realloc(ctx->arena, nss, sizeof *nss * (size_t)ntab,
						    sizeof *nss * (size_t)(ntab + 1));
				names = arena_realloc(ctx->arena, names, sizeof *names * (size_t)ntab,
						      sizeof *names * (size_t)(ntab + 1));
				uuids = arena_realloc(ctx->arena, uuids, sizeof *uuids * (size_t)ntab,
						      sizeof *uuids * (size_t)(ntab + 1));
				oprivs = arena_realloc(ctx->arena, oprivs, sizeof *oprivs * (size_t)ntab,
						       sizeof *oprivs * (size_t)(ntab + 1));
				oprivs[ntab] = privs;
				nss[ntab] = "";        /* the database: empty schema and table */
				uuids[ntab] = NULL;
				names[ntab++] = "";
				continue;
			}
			TRY(ddl_check_namespace(s, sch, err));
			if (!super_me)
				return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s", sch);
			if (!table && !seq) {
				/* the schema's own USAGE / CREATE: a grant with an empty
				 * table (users.h) */
				oprivs = arena_realloc(ctx->arena, oprivs, sizeof *oprivs * (size_t)ntab,
						       sizeof *oprivs * (size_t)(ntab + 1));
				oprivs[ntab] = privs;
				nss = arena_realloc(ctx->arena, nss, sizeof *nss * (size_t)ntab,
						    sizeof *nss * (size_t)(ntab + 1));
				names = arena_realloc(ctx->arena, names, sizeof *names * (size_t)ntab,
						      sizeof *names * (size_t)(ntab + 1));
				uuids = arena_realloc(ctx->arena, uuids, sizeof *uuids * (size_t)ntab,
						      sizeof *uuids * (size_t)(ntab + 1));
				nss[ntab] = sch;
				uuids[ntab] = NULL;
				names[ntab++] = "";
			} else {
				char **tn;
				int n, k;
				Catalog *cat = s->engine->catalog;
				/* ALL TABLES / ALL SEQUENCES IN SCHEMA: those existing now */
				if (seq && cat->vt->seq_list)
					TRY(cat->vt->seq_list(cat, sch, ctx->arena, &tn, &n, err));
				else if (seq)
					n = 0;
				else
					TRY(catalog_list_tables(cat, sch, ctx->arena, &tn, &n, err));
				oprivs = arena_realloc(ctx->arena, oprivs, sizeof *oprivs * (size_t)ntab,
						       sizeof *oprivs * (size_t)(ntab + n));
				nss = arena_realloc(ctx->arena, nss, sizeof *nss * (size_t)ntab,
						    sizeof *nss * (size_t)(ntab + n));
				names = arena_realloc(ctx->arena, names, sizeof *names * (size_t)ntab,
						      sizeof *names * (size_t)(ntab + n));
				uuids = arena_realloc(ctx->arena, uuids, sizeof *uuids * (size_t)ntab,
						      sizeof *uuids * (size_t)(ntab + n));
				for (k = 0; k < n; k++) {
					bool exists;
					oprivs[ntab] = privs;
					nss[ntab] = sch;
					uuids[ntab] = table_uuid(s, sch, tn[k], ctx->arena, &exists);
					names[ntab++] = tn[k];
				}
			}
		}
	}
	TRY(rt_begin(s, &t, err));
	if (ntab && gs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_DATABASE && !t.r.db_acl) {
		/* the database's ACL is set from now on: PUBLIC's default
		 * CONNECT and TEMPORARY become a grant (PostgreSQL's acldefault) */
		t.r.db_acl = true;
		roles_grant(&t.r, "public", "", "", NULL, ROLE_PRIV_TEMP | ROLE_PRIV_CONNECT, true);
	}
	for (g = 0; g < gs->n_grantees; g++) {
		const char *who = spec_name(s, gs->grantees[g]);
		int k;
		if (!who)
			continue;
		if (strcmp(who, "public") && !roles_find(&t.r, who) && !predefined(who)) {
			floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", who);
			goto out;
		}
		for (k = 0; k < ntab; k++) {
			if (!names[k][0] && !gs->is_grant && !strcmp(who, "public") && !strcmp(nss[k], "public") &&
			    (privs & ROLE_PRIV_USAGE)) {
				floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					    "REVOKE USAGE ON SCHEMA public FROM PUBLIC is not supported (every role may use schema public)");
				goto out;
			}
			if (oprivs[k])
				roles_grant(&t.r, who, nss[k], names[k], uuids[k], oprivs[k], gs->is_grant);
		}
	}
	rc = FLOE_OK;
out:
	if (rt_end(&t, false, rc == FLOE_OK, err) != FLOE_OK)
		rc = FLOE_ERR;
	return rc == FLOE_OK ? engine_complete(sink, gs->is_grant ? "GRANT" : "REVOKE") : FLOE_ERR;
}

static int
grant_role(Session *s, ExecCtx *ctx, PgQuery__GrantRoleStmt *gr, ResultSink *sink)
{
	floe_error *err = ctx->err;
	bool super_me = acl_is_superuser(s);
	size_t i, k;
	int rc = FLOE_ERR;
	RoleTxn t;

	TRY(rt_begin(s, &t, err));
	for (i = 0; i < gr->n_granted_roles; i++) {
		const char *grp;
		if (gr->granted_roles[i]->node_case != PG_QUERY__NODE__NODE_ACCESS_PRIV)
			continue;
		grp = gr->granted_roles[i]->access_priv->priv_name;
		if (!predefined(grp) && !roles_find(&t.r, grp)) {
			floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", grp);
			goto out;
		}
		if (!super_me) {
			floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must have admin option on role \"%s\"", grp);
			goto out;
		}
		for (k = 0; k < gr->n_grantee_roles; k++) {
			const char *who = spec_name(s, gr->grantee_roles[k]);
			if (!who)
				continue;
			if (!roles_find(&t.r, who)) {
				floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", who);
				goto out;
			}
			if (gr->is_grant && !strcmp(who, grp)) {
				floe_errorf(err, "0LP01", "role \"%s\" is a member of role \"%s\"", who, grp);
				goto out;
			}
			roles_member(&t.r, who, grp, gr->is_grant);
		}
	}
	rc = FLOE_OK;
out:
	if (rt_end(&t, false, rc == FLOE_OK, err) != FLOE_OK)
		rc = FLOE_ERR;
	return rc == FLOE_OK ? engine_complete(sink, gr->is_grant ? "GRANT ROLE" : "REVOKE ROLE") : FLOE_ERR;
}

int
acl_exec(Session *s, ExecCtx *ctx, Node *n, ResultSink *sink)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
		return create_role(s, ctx, n->create_role_stmt, sink);
	case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
		return alter_role(s, ctx, n->alter_role_stmt, sink);
	case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
		return drop_role(s, ctx, n->drop_role_stmt, sink);
	case PG_QUERY__NODE__NODE_GRANT_STMT:
		return grant(s, ctx, n->grant_stmt, sink);
	case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
		return grant_role(s, ctx, n->grant_role_stmt, sink);
	default:
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "this statement is not supported yet");
	}
}

/* ---- catalog views and privilege functions ------------------------------ */


static const struct {
	const char *name;
	int64_t oid;
} predefined_oids[] = {
	{ "pg_read_server_files", 4569 },
	{ "pg_write_server_files", 4570 },
	{ "pg_execute_server_program", 4571 },
};

/* the first superuser of the roles file (oid 10); mu held */
static const char *
bootstrap_name(Session *s)
{
	int i;
	for (i = 0; i < cache.r.nroles; i++)
		if (cache.r.roles[i].super)
			return cache.r.roles[i].name;
	return s->user ? s->user : "floe";
}

static int64_t
role_oid(Session *s, const char *name)
{
	uint32_t h = 2166136261u;
	size_t i;
	for (i = 0; i < sizeof predefined_oids / sizeof predefined_oids[0]; i++)
		if (!strcmp(predefined_oids[i].name, name))
			return predefined_oids[i].oid;
	if (!strcmp(name, bootstrap_name(s)))
		return 10;
	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return 16384 + (int64_t)(h % (0x7fffffffu - 16384u));
}

int
acl_list_roles(Session *s, Arena *a, AclRoleRow **roles, int *n, AclMemberRow **members,
	       int *nmembers, floe_error *err)
{
	const char *me = session_user(s) ? session_user(s) : "floe";
	int i, k = 0, cap;

	mu_lock();
	if (refresh(s, err) != FLOE_OK) {
		mu_unlock();
		return FLOE_ERR;
	}
	cap = cache.r.nroles + 4;
	*roles = ARENA_ARRAY(a, AclRoleRow, cap);
	for (i = 0; i < cache.r.nroles; i++) {
		(*roles)[k].name = arena_strdup(a, cache.r.roles[i].name);
		(*roles)[k].oid = role_oid(s, cache.r.roles[i].name);
		(*roles)[k].super = cache.r.roles[i].super;
		(*roles)[k++].login = cache.r.roles[i].login;
	}
	if (!roles_find(&cache.r, me)) {
		/* no roles file: the session's user is the superuser; the
		 * embedded shell's "floe" always is */
		(*roles)[k].name = arena_strdup(a, me);
		(*roles)[k].oid = role_oid(s, me);
		(*roles)[k].super = !cache.r.exists || !session_user(s);
		(*roles)[k++].login = true;
	}
	for (i = 0; i < (int)(sizeof predefined_oids / sizeof predefined_oids[0]); i++) {
		(*roles)[k].name = predefined_oids[i].name;
		(*roles)[k].oid = predefined_oids[i].oid;
		(*roles)[k].super = false;
		(*roles)[k++].login = false;
	}
	*n = k;
	*members = ARENA_ARRAY(a, AclMemberRow, cache.r.nmembers + 1);
	for (i = 0; i < cache.r.nmembers; i++) {
		(*members)[i].roleid = role_oid(s, cache.r.members[i].group);
		(*members)[i].member = role_oid(s, cache.r.members[i].role);
	}
	*nmembers = cache.r.nmembers;
	mu_unlock();
	return FLOE_OK;
}

/* the words a has_*_privilege call of kind FP_* takes */
enum { FP_TABLE, FP_SCHEMA, FP_COLUMN, FP_SEQUENCE };

/* Privilege names of a has_*_privilege argument ("SELECT, INSERT",
 * PostgreSQL's convert_any_priv_string: case-insensitive, blanks trimmed)
 * -> bits: *out the plain ones, *gopt those asked WITH GRANT OPTION (floe
 * records no grant options: only superusers hold them).  22023 naming
 * the word as written. */
static int
fn_privs(const char *priv, int kind, unsigned *out, unsigned *gopt, floe_error *err)
{
	static const struct { const char *w; unsigned bit; unsigned kinds; } words[] = {
		{ "select", ROLE_PRIV_SELECT, 1u << FP_TABLE | 1u << FP_COLUMN | 1u << FP_SEQUENCE },
		{ "insert", ROLE_PRIV_INSERT, 1u << FP_TABLE | 1u << FP_COLUMN },
		{ "update", ROLE_PRIV_UPDATE, 1u << FP_TABLE | 1u << FP_COLUMN | 1u << FP_SEQUENCE },
		{ "delete", ROLE_PRIV_DELETE, 1u << FP_TABLE },
		{ "truncate", ROLE_PRIV_TRUNCATE, 1u << FP_TABLE },
		{ "references", ROLE_PRIV_REFERENCES, 1u << FP_TABLE | 1u << FP_COLUMN },
		{ "trigger", ROLE_PRIV_TRIGGER, 1u << FP_TABLE },
		{ "usage", ROLE_PRIV_USAGE, 1u << FP_SCHEMA | 1u << FP_SEQUENCE },
		{ "create", ROLE_PRIV_CREATE, 1u << FP_SCHEMA },
	};
	const char *p = priv;

	*out = *gopt = 0;
	for (;;) {
		const char *start, *end = strchr(p, ',');
		char word[64];
		size_t n, k;
		bool with_gopt = false, hit = false;

		if (!end)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
			p++;
		start = p;
		n = (size_t)(end - start);
		while (n && (start[n - 1] == ' ' || start[n - 1] == '\t' || start[n - 1] == '\n'))
			n--;
		snprintf(word, sizeof word, "%.*s", (int)n, start);
		if (n > 18 && !strcasecmp(word + n - 18, " with grant option")) {
			with_gopt = true;
			word[n - 18] = 0;
			for (k = n - 18; k && word[k - 1] == ' '; k--)
				word[k - 1] = 0;
		}
		for (k = 0; k < sizeof words / sizeof words[0] && !hit; k++)
			if ((words[k].kinds & (1u << kind)) && !strcasecmp(word, words[k].w)) {
				*(with_gopt ? gopt : out) |= words[k].bit;
				hit = true;
			}
		if (!hit)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "unrecognized privilege type: \"%.*s\"",
					   (int)n, start);
		if (!*end)
			return FLOE_OK;
		p = end + 1;
	}
}

/* The relation of pg_class oid `oid` among the session's tables, views
 * and sequences: *kind 'r' / 'v' / 'S', 0 when none (a catalog relation,
 * or no relation at all). */
static int
rel_by_oid(Session *s, Arena *a, int64_t oid, const char **ns, const char **name, char *kind, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	char **nss;
	int nns, i, k;

	*kind = 0;
	TRY(catalog_list_namespaces(c, a, &nss, &nns, err));
	for (i = 0; i < nns; i++) {
		char **tn;
		ViewDef **defs;
		int nt;
		TRY(catalog_list_tables(c, nss[i], a, &tn, &nt, err));
		for (k = 0; k < nt; k++)
			if (pgcatalog_table_oid(nss[i], tn[k]) == oid) {
				*ns = nss[i], *name = tn[k], *kind = 'r';
				return FLOE_OK;
			}
		TRY(views_list(s, nss[i], a, &tn, &defs, &nt, err));
		for (k = 0; k < nt; k++)
			if (pgcatalog_table_oid(nss[i], tn[k]) == oid) {
				*ns = nss[i], *name = tn[k], *kind = 'v';
				return FLOE_OK;
			}
		if (c->vt->seq_list) {
			TRY(c->vt->seq_list(c, nss[i], a, &tn, &nt, err));
			for (k = 0; k < nt; k++)
				if (pgcatalog_table_oid(nss[i], tn[k]) == oid) {
					*ns = nss[i], *name = tn[k], *kind = 'S';
					return FLOE_OK;
				}
		}
	}
	return FLOE_OK;
}

/* the role a has_*_privilege call asks about; mu held */
static int
fn_role(Session *s, const char *user, int64_t user_oid, const char **out, floe_error *err)
{
	int i;
	if (user) {
		if (!strcmp(user, "public")) {
			*out = "public";
			return FLOE_OK;
		}
		if (!role_exists(s, user) && !(session_user(s) && !strcmp(session_user(s), user)))
			return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", user);
		*out = user;
		return FLOE_OK;
	}
	if (user_oid < 0) {
		*out = current_role(s);
		return FLOE_OK;
	}
	for (i = 0; i < cache.r.nroles; i++)
		if (role_oid(s, cache.r.roles[i].name) == user_oid) {
			*out = cache.r.roles[i].name;
			return FLOE_OK;
		}
	if (role_oid(s, session_user(s) ? session_user(s) : "floe") == user_oid) {
		*out = session_user(s);
		return FLOE_OK;
	}
	return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "role with OID %lld does not exist", (long long)user_oid);
}

int
acl_table_visible(Session *s, const char *ns, const char *name, Arena *a, bool *out, floe_error *err)
{
	const char *role = current_role(s), *uuid;
	bool exists;
	int rc = FLOE_OK;

	*out = true;
	if (!role || no_roles_file(s))
		return FLOE_OK;
	uuid = table_uuid(s, ns, name, a, &exists);
	mu_lock();
	rc = refresh(s, err);
	if (rc == FLOE_OK && !is_super(role))
		*out = privs_of(role, ns, name, uuid, 0) != 0;
	mu_unlock();
	return rc;
}

/* The role a has_*_privilege call names, copied into a (the cache may
 * be read again later); NULL: the embedded shell (every privilege). */
static int
fn_role_copy(Session *s, Arena *a, const char *user, int64_t user_oid, const char **role, floe_error *err)
{
	int rc;

	mu_lock();
	rc = refresh(s, err);
	if (rc == FLOE_OK)
		rc = fn_role(s, user, user_oid, role, err);
	mu_unlock();
	if (rc == FLOE_OK && *role)
		*role = arena_strdup(a, *role);
	return rc;
}

/* Does role hold any of `want` on relation (ns, name) of kind k ('c': a
 * catalog relation, SELECT for everyone)?  Superusers hold all, WITH
 * GRANT OPTION (gopt) only they (floe records no grant options). */
static int
rel_privilege_held(Session *s, Arena *a, const char *role, const char *ns, const char *name, char k,
		   unsigned want, unsigned gopt, bool *out, floe_error *err)
{
	const char *uuid = NULL;
	bool exists;
	int rc;

	if (!role) {
		*out = true;
		return FLOE_OK;
	}
	if (k != 'c')
		uuid = table_uuid(s, ns, name, a, &exists);
	mu_lock();
	rc = refresh(s, err);
	if (rc == FLOE_OK) {
		if (strcmp(role, "public") && is_super(role))
			*out = true;
		else if (k == 'c')
			*out = (want & ROLE_PRIV_SELECT) != 0;
		else if (temp_is_temp_ns(ns))
			*out = want != 0;      /* the session's own temporary relation */
		else
			*out = (privs_of(role, ns, name, uuid, 0) & want) != 0;
	}
	mu_unlock();
	(void)gopt;
	return rc;
}

/* has_table_privilege / has_column_privilege / has_sequence_privilege
 * (SESSION_PRIV_*), in PostgreSQL 15's order (utils/adt/acl.c): the role
 * (42704); the relation by name (42P01; regclass syntax) and, for a
 * column by name, the column (42703 "column c of relation t does not
 * exist"); the privilege words (22023; has_sequence_privilege reads them
 * before the name); has_sequence_privilege of another relation 42809;
 * then an oid or attnum naming nothing is NULL.  floe has no column
 * privileges: a column's are its table's.  A view's and a catalog
 * relation's columns are not checked by name. */
static int
fn_relation_privilege(void *session, int kind, const char *user, int64_t user_oid, const char *table,
		      int64_t table_oid, const char *column, int64_t attnum, const char *priv, bool *out,
		      bool *null, floe_error *err)
{
	Session *s = session;
	int fp = kind == SESSION_PRIV_COLUMN ? FP_COLUMN : kind == SESSION_PRIV_SEQUENCE ? FP_SEQUENCE : FP_TABLE;
	const char *role, *ns = NULL, *name = NULL;
	unsigned want = 0, gopt = 0;
	char k = 0;
	Arena *a;
	int rc;

	*out = true;
	*null = false;
	if (!s)
		return FLOE_OK;
	a = arena_new(16 * 1024);
	rc = fn_role_copy(s, a, user, user_oid, &role, err);
	if (rc == FLOE_OK && fp == FP_SEQUENCE)
		rc = fn_privs(priv, fp, &want, &gopt, err);
	if (rc == FLOE_OK && table)
		rc = pgcatalog_regclass(s, a, table, &table_oid, err);
	if (rc == FLOE_OK)
		rc = rel_by_oid(s, a, table_oid, &ns, &name, &k, err);
	if (rc == FLOE_OK && !k) {
		/* a catalog relation (any oid the session sees), or nothing */
		int64_t *oids;
		int n, i;
		rc = pgcatalog_visible_oids(s, a, &oids, &n, err);
		for (i = 0; rc == FLOE_OK && i < n && !k; i++)
			if (oids[i] == table_oid)
				k = 'c';
		if (k && temp_resolve(s, NULL, table ? table : "")) {
			/* the session's own temporary relation */
			ns = temp_resolve(s, NULL, table);
			name = table;
			k = 't';
		}
	}
	if (rc == FLOE_OK && fp == FP_COLUMN && k) {
		int ncols = -1, i;
		const char *const *cols = NULL;
		const IcebergSchema *sc = NULL;
		static const char *const seqcols[] = { "last_value", "log_cnt", "is_called" };
		if (k == 'r') {
			Table *t;
			floe_error e;
			floe_error_clear(&e);
			if (txn_table_load(s, ns, name, a, &t, &e) == FLOE_OK && t->md &&
			    (sc = metadata_current_schema(t->md)))
				ncols = sc->nfields;
		} else if (k == 'S') {
			cols = seqcols;
			ncols = 3;
		}
		if (column && ncols >= 0) {
			for (i = 0; i < ncols; i++)
				if (!strcmp(sc ? sc->fields[i].name : cols[i], column))
					break;
			if (i == ncols)
				rc = floe_errorf(err, ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
						 column, name);
		} else if (!column && ncols >= 0 && (attnum < 1 || attnum > ncols)) {
			*null = true;
		}
	}
	if (rc == FLOE_OK && fp != FP_SEQUENCE)
		rc = fn_privs(priv, fp, &want, &gopt, err);
	if (rc == FLOE_OK && fp == FP_SEQUENCE && k && k != 'S')
		rc = floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence",
				 name ? name : table ? table : "?");
	if (rc == FLOE_OK && !k)
		*null = true;
	if (rc == FLOE_OK && !*null)
		rc = rel_privilege_held(s, a, role, ns, name, k == 't' ? 'r' : k, want, gopt, out, err);
	arena_free(a);
	return rc;
}

/* has_schema_privilege([user,] schema | oid, 'USAGE, CREATE'): the role
 * (42704), the schema by name (3F000), the words (22023); an oid naming
 * no schema is NULL. */
static int
fn_schema_privilege(void *session, const char *user, int64_t user_oid, const char *schema, int64_t schema_oid,
		    const char *priv, bool *out, bool *null, floe_error *err)
{
	Session *s = session;
	const char *role;
	unsigned want, gopt;
	Arena *a;
	int rc;

	*out = true;
	*null = false;
	if (!s)
		return FLOE_OK;
	a = arena_new(4096);
	rc = fn_role_copy(s, a, user, user_oid, &role, err);
	if (rc == FLOE_OK && schema && strcmp(schema, "pg_catalog") && strcmp(schema, "information_schema"))
		rc = ddl_check_namespace(s, schema, err);
	if (rc == FLOE_OK && !schema) {
		static const char *const builtin[] = { "pg_catalog", "information_schema", "public" };
		char **nss;
		int n, i;
		for (i = 0; i < 3 && !schema; i++)
			if (pgcatalog_ns_oid(builtin[i]) == schema_oid)
				schema = builtin[i];
		if (!schema && s->temp && pgcatalog_ns_oid(s->temp->ns) == schema_oid)
			schema = s->temp->ns;
		rc = catalog_list_namespaces(s->engine->catalog, a, &nss, &n, err);
		for (i = 0; rc == FLOE_OK && i < n && !schema; i++)
			if (pgcatalog_ns_oid(nss[i]) == schema_oid)
				schema = nss[i];
	}
	if (rc == FLOE_OK)
		rc = fn_privs(priv, FP_SCHEMA, &want, &gopt, err);
	if (rc == FLOE_OK && !schema)
		*null = true;
	if (rc == FLOE_OK && schema && role) {
		mu_lock();
		rc = refresh(s, err);
		/* any of the privileges named (PostgreSQL's has_schema_privilege) */
		if (rc == FLOE_OK)
			*out = (schema_privs(role, schema) & want) != 0 ||
			       (gopt && strcmp(role, "public") && is_super(role));
		mu_unlock();
	}
	arena_free(a);
	return rc;
}

/* has_database_privilege([user,] database, priv): PostgreSQL's words
 * CREATE, CONNECT, TEMPORARY / TEMP (any of them held); WITH GRANT OPTION
 * only superusers hold (floe records no grant options).  The database is
 * the one the session connected to, by name or pg_database's oid. */
static int
fn_database_privilege(void *session, const char *user, int64_t user_oid, const char *database,
		      int64_t database_oid, const char *priv, bool *out, floe_error *err)
{
	Session *s = session;
	const char *role, *p = priv;
	unsigned want = 0, have;
	bool gopt = false;
	int rc = FLOE_OK;

	*out = true;
	if (!s)
		return FLOE_OK;
	while (*p) {
		char word[64];
		size_t n = 0;
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		while (*p && *p != ',' && n < sizeof word - 1)
			word[n++] = *p++;
		while (n && word[n - 1] == ' ')
			n--;
		word[n] = 0;
		if (n > 18 && !strcasecmp(word + n - 18, " with grant option")) {
			word[n - 18] = 0;
			gopt = true;
		}
		if (!strcasecmp(word, "create"))
			want |= ROLE_PRIV_CREATE;
		else if (!strcasecmp(word, "connect"))
			want |= ROLE_PRIV_CONNECT;
		else if (!strcasecmp(word, "temporary") || !strcasecmp(word, "temp"))
			want |= ROLE_PRIV_TEMP;
		else
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "unrecognized privilege type: \"%s\"", word);
	}
	if (database ? strcmp(database, pgcatalog_database(s)) != 0 : database_oid != 5 /* OID_DATABASE */)
		return database ? floe_errorf(err, ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist",
					      database)
				: floe_errorf(err, ERRCODE_INVALID_CATALOG_NAME,
					      "database with OID %lld does not exist", (long long)database_oid);
	mu_lock();
	if (refresh(s, err) != FLOE_OK || fn_role(s, user, user_oid, &role, err) != FLOE_OK) {
		rc = FLOE_ERR;
	} else if (role) {   /* NULL: the embedded shell */
		bool su = strcmp(role, "public") && is_super(role);
		have = db_privs(role);
		*out = su || (!gopt && (have & want) != 0);
	}
	mu_unlock();
	return rc;
}

static const char *
fn_role_name(void *session, int64_t oid, char *buf, size_t n)
{
	Session *s = session;
	const char *r = NULL;
	int i;
	floe_error e;
	if (!s)
		return oid == 10 ? "floe" : NULL;
	mu_lock();
	if (refresh(s, &e) == FLOE_OK) {
		for (i = 0; i < (int)(sizeof predefined_oids / sizeof predefined_oids[0]) && !r; i++)
			if (predefined_oids[i].oid == oid)
				r = predefined_oids[i].name;
		for (i = 0; i < cache.r.nroles && !r; i++)
			if (role_oid(s, cache.r.roles[i].name) == oid)
				r = cache.r.roles[i].name;
		if (!r && role_oid(s, session_user(s) ? session_user(s) : "floe") == oid)
			r = session_user(s) ? session_user(s) : "floe";
		if (r) {
			snprintf(buf, n, "%s", r);
			r = buf;
		}
	}
	mu_unlock();
	return r;
}

int
acl_table_grants(Session *s, Arena *a, const char *ns, const char *table, AclGrantRow **rows,
		 int *n, floe_error *err)
{
	const char *me = current_role(s);
	const char *owner, *uuid;
	bool su, exists;
	int i, k = 0;

	uuid = table_uuid(s, ns, table, a, &exists);
	mu_lock();
	if (refresh(s, err) != FLOE_OK) {
		mu_unlock();
		return FLOE_ERR;
	}
	su = is_super(me);
	owner = arena_strdup(a, bootstrap_name(s));
	*rows = ARENA_ARRAY(a, AclGrantRow, cache.r.ngrants + 2);
	/* the owner's own privileges, all grantable */
	if (su || (me && !strcmp(me, owner))) {
		(*rows)[k].grantor = owner;
		(*rows)[k].grantee = owner;
		(*rows)[k].privs = ROLE_PRIV_ALL;
		(*rows)[k++].owner = true;
	}
	for (i = 0; i < cache.r.ngrants; i++) {
		const RoleGrant *g = &cache.r.grants[i];
		bool pub = !strcmp(g->grantee, "public");
		if (strcmp(g->schema, ns) || strcmp(g->table, table) || !roles_grant_applies(g, uuid))
			continue;
		/* PostgreSQL shows a grant to roles of the grantor or grantee */
		if (!su && !pub && !(me && member_of(me, g->grantee, 0)) && !(me && !strcmp(me, owner)))
			continue;
		(*rows)[k].grantor = owner;
		(*rows)[k].grantee = pub ? "PUBLIC" : arena_strdup(a, g->grantee);
		(*rows)[k].privs = g->privs;
		(*rows)[k++].owner = false;
	}
	*n = k;
	mu_unlock();
	return FLOE_OK;
}

const char *
acl_relacl(Session *s, Arena *a, const char *ns, const char *name, bool sequence, floe_error *err)
{
	/* PostgreSQL's aclitem letters, in its ACL_ALL_RIGHTS_STR order */
	static const struct { unsigned bit; char c; } letters[] = {
		{ ROLE_PRIV_INSERT, 'a' }, { ROLE_PRIV_SELECT, 'r' }, { ROLE_PRIV_UPDATE, 'w' },
		{ ROLE_PRIV_DELETE, 'd' }, { ROLE_PRIV_TRUNCATE, 'D' }, { ROLE_PRIV_REFERENCES, 'x' },
		{ ROLE_PRIV_TRIGGER, 't' }, { ROLE_PRIV_USAGE, 'U' },
	};
	const char *owner, *out = NULL, *uuid = NULL;
	bool exists, any = false;
	int i, k;

	if (!current_role(s) || no_roles_file(s))
		return NULL;
	if (!sequence)
		uuid = table_uuid(s, ns, name, a, &exists);
	mu_lock();
	if (refresh(s, err) != FLOE_OK) {
		mu_unlock();
		return NULL;
	}
	owner = arena_strdup(a, bootstrap_name(s));
	out = arena_sprintf(a, "{%s=%s/%s", owner, sequence ? "rwU" : "arwdDxt", owner);
	for (i = 0; i < cache.r.ngrants; i++) {
		const RoleGrant *g = &cache.r.grants[i];
		char l[16];
		int n = 0;
		if (strcmp(g->schema, ns) || strcmp(g->table, name) || !roles_grant_applies(g, uuid))
			continue;
		for (k = 0; k < (int)(sizeof letters / sizeof letters[0]); k++)
			if (g->privs & letters[k].bit)
				l[n++] = letters[k].c;
		l[n] = 0;
		if (!n)
			continue;
		any = true;
		out = arena_sprintf(a, "%s,%s=%s/%s", out, strcmp(g->grantee, "public") ? g->grantee : "", l, owner);
	}
	mu_unlock();
	return any ? arena_sprintf(a, "%s}", out) : NULL;
}

const SessionPrivileges acl_privileges = {
	.relation_privilege = fn_relation_privilege,
	.schema_privilege = fn_schema_privilege,
	.database_privilege = fn_database_privilege,
	.role_name = fn_role_name,
};

const SessionEnv *
acl_statement_env(Session *s, Arena *a)
{
	SessionEnv *env = ARENA_NEW(a, SessionEnv);

	session_env_capture(env);
	env->session = s;
	env->privileges = &acl_privileges;
	return env;
}
