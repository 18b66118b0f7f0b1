/*
 * users.c — the users file of `floe serve` (format in users.h): load,
 * look up, change and save user secrets; and the roles file (role
 * attributes, table privileges, memberships) that acl.c enforces.
 *
 * Spec: the secrets are PostgreSQL's stored password forms (pg_authid):
 * SCRAM-SHA-256 verifiers (auth_scram.c) and md5 secrets (auth_md5.c).
 *
 * INTERFACE ROUTINES: see users.h.
 *
 * Invariants:
 *   1. The file never holds a password, only verifiers/secrets; it is
 *      written with mode 0600 to a temporary file in the same directory,
 *      fsync'd and renamed over the old one, so a reader (the server
 *      re-reads it at every login) sees the old or the new file whole.
 *   2. Loading validates every line; a malformed line is an error naming
 *      the file and line (F0000), never a partial table.
 *   3. Read-modify-write (floe user add/remove) holds an exclusive flock
 *      on <path>.lock so two admin commands do not lose each other's change.
 *   4. The roles file (users.h) follows 1-3 too; it is changed under the
 *      users file's lock, so users and roles change together.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/arena.h"
#include "server/users.h"

#define CONFIG_FILE_ERROR "F0000"

void
users_path(const char *warehouse, char *buf, size_t n)
{
	snprintf(buf, n, "%s/users", warehouse);
}

bool
users_valid_name(const char *name)
{
	size_t n = strlen(name), i;
	if (n == 0 || n > 63)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)name[i];
		if (ch < 0x20 || ch == 0x7f || ch == ':')
			return false;
	}
	return true;
}

const UserEntry *
users_find(const Users *u, const char *name)
{
	int i;
	for (i = 0; i < u->n; i++)
		if (!strcmp(u->u[i].name, name))
			return &u->u[i];
	return NULL;
}

static UserEntry *
entry(Users *u, const char *name)
{
	UserEntry *e = (UserEntry *)users_find(u, name);
	if (e)
		return e;
	u->u = xrealloc(u->u, sizeof *u->u * (size_t)(u->n + 1));
	e = &u->u[u->n++];
	memset(e, 0, sizeof *e);
	e->name = xstrdup(name);
	return e;
}

/* One secret for `name`: a SCRAM verifier or an md5 secret. */
static int
add_secret(Users *u, const char *name, const char *secret)
{
	ScramVerifier v;
	UserEntry *e;
	if (!strncmp(secret, "SCRAM-SHA-256$", 14)) {
		if (scram_verifier_parse(secret, &v) != FLOE_OK)
			return FLOE_ERR;
		e = entry(u, name);
		free(e->scram_text);
		e->scram_text = xstrdup(secret);
		e->scram = v;
		return FLOE_OK;
	}
	if (auth_md5_is_secret(secret)) {
		e = entry(u, name);
		memcpy(e->md5, secret, AUTH_MD5_LEN + 1);
		return FLOE_OK;
	}
	return FLOE_ERR;
}

int
users_set(Users *u, const char *name, const char *scram, const char *md5, floe_error *err)
{
	UserEntry *e;
	if (!users_valid_name(name))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid user name \"%s\": 1 to 63 printable characters without ':'", name);
	if (!scram || add_secret(u, name, scram) != FLOE_OK)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid SCRAM-SHA-256 verifier");
	e = entry(u, name);
	e->md5[0] = 0;
	if (md5 && add_secret(u, name, md5) != FLOE_OK)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid md5 secret");
	return FLOE_OK;
}

bool
users_remove(Users *u, const char *name)
{
	int i;
	for (i = 0; i < u->n; i++)
		if (!strcmp(u->u[i].name, name)) {
			free(u->u[i].name);
			free(u->u[i].scram_text);
			memmove(&u->u[i], &u->u[i + 1], sizeof *u->u * (size_t)(u->n - i - 1));
			u->n--;
			return true;
		}
	return false;
}

void
users_free(Users *u)
{
	int i;
	for (i = 0; i < u->n; i++) {
		free(u->u[i].name);
		free(u->u[i].scram_text);
	}
	free(u->u);
	u->u = NULL;
	u->n = 0;
}

int
users_load(const char *path, bool missing_ok, Users *out, floe_error *err)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int lineno = 0;

	memset(out, 0, sizeof *out);
	if (!f) {
		if (missing_ok && errno == ENOENT)
			return FLOE_OK;
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not open auth file \"%s\": %s", path,
				   strerror(errno));
	}
	while (fgets(line, sizeof line, f)) {
		char *colon, *nl = strchr(line, '\n');
		lineno++;
		if (!nl && !feof(f))
			goto bad;              /* longer than any valid line */
		if (nl)
			*nl = 0;
		if (nl && nl > line && nl[-1] == '\r')
			nl[-1] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		colon = strchr(line, ':');
		if (!colon)
			goto bad;
		*colon = 0;
		if (!users_valid_name(line) || add_secret(out, line, colon + 1) != FLOE_OK)
			goto bad;
	}
	fclose(f);
	return FLOE_OK;
bad:
	fclose(f);
	users_free(out);
	return floe_errorf(err, CONFIG_FILE_ERROR,
			   "auth file \"%s\" line %d: expected user:SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey> "
			   "or user:md5<32 hex digits>", path, lineno);
}

int
users_save(const char *path, const Users *u, floe_error *err)
{
	size_t n = strlen(path) + 16;
	char *tmp = xmalloc(n);
	FILE *f;
	int fd, i, e;

	snprintf(tmp, n, "%s.tmp%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		e = errno;
		if (fd >= 0)
			close(fd);
		floe_errorf(err, ERRCODE_IO_ERROR, "could not write \"%s\": %s", tmp, strerror(e));
		free(tmp);
		return FLOE_ERR;
	}
	fprintf(f, "# floe users: SCRAM-SHA-256 verifiers and md5 secrets, never passwords (floe user add|remove|list)\n");
	for (i = 0; i < u->n; i++) {
		if (u->u[i].scram_text)
			fprintf(f, "%s:%s\n", u->u[i].name, u->u[i].scram_text);
		if (u->u[i].md5[0])
			fprintf(f, "%s:%s\n", u->u[i].name, u->u[i].md5);
	}
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		e = errno;
		fclose(f);
		unlink(tmp);
		floe_errorf(err, ERRCODE_IO_ERROR, "could not write \"%s\": %s", tmp, strerror(e));
		free(tmp);
		return FLOE_ERR;
	}
	fclose(f);
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		floe_errorf(err, ERRCODE_IO_ERROR, "could not rename \"%s\" to \"%s\": %s", tmp, path, strerror(e));
		free(tmp);
		return FLOE_ERR;
	}
	free(tmp);
	return FLOE_OK;
}

int
users_lock(const char *path, floe_error *err)
{
	size_t n = strlen(path) + 8;
	char *lp = xmalloc(n);
	int fd;

	snprintf(lp, n, "%s.lock", path);
	fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) != 0) {
		floe_errorf(err, ERRCODE_IO_ERROR, "could not lock \"%s\": %s", lp, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(lp);
		return -1;
	}
	free(lp);
	return fd;
}

void
users_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* ==== the roles file (users.h) ========================================== */

void
roles_path(const char *warehouse, char *buf, size_t n)
{
	snprintf(buf, n, "%s/roles", warehouse);
}

RoleEntry *
roles_find(const Roles *r, const char *name)
{
	int i;
	for (i = 0; i < r->nroles; i++)
		if (!strcmp(r->roles[i].name, name))
			return &r->roles[i];
	return NULL;
}

void
roles_set(Roles *r, const char *name, bool super, bool login)
{
	RoleEntry *e = roles_find(r, name);
	if (!e) {
		r->roles = xrealloc(r->roles, sizeof *r->roles * (size_t)(r->nroles + 1));
		e = &r->roles[r->nroles++];
		e->name = xstrdup(name);
	}
	e->super = super;
	e->login = login;
}

static void
grant_del(Roles *r, int i)
{
	free(r->grants[i].grantee);
	free(r->grants[i].schema);
	free(r->grants[i].table);
	free(r->grants[i].uuid);
	memmove(&r->grants[i], &r->grants[i + 1], sizeof *r->grants * (size_t)(r->ngrants - i - 1));
	r->ngrants--;
}

static void
member_del(Roles *r, int i)
{
	free(r->members[i].role);
	free(r->members[i].group);
	memmove(&r->members[i], &r->members[i + 1], sizeof *r->members * (size_t)(r->nmembers - i - 1));
	r->nmembers--;
}

bool
roles_remove(Roles *r, const char *name)
{
	RoleEntry *e = roles_find(r, name);
	int i;
	int k;
	if (!e)
		return false;
	k = (int)(e - r->roles);
	for (i = r->ngrants - 1; i >= 0; i--)
		if (!strcmp(r->grants[i].grantee, name))
			grant_del(r, i);
	for (i = r->nmembers - 1; i >= 0; i--)
		if (!strcmp(r->members[i].role, name) || !strcmp(r->members[i].group, name))
			member_del(r, i);
	free(r->roles[k].name);   /* may be `name` itself: freed last */
	memmove(&r->roles[k], &r->roles[k + 1], sizeof *r->roles * (size_t)(r->nroles - k - 1));
	r->nroles--;
	return true;
}

static RoleGrant *
grant_find(const Roles *r, const char *grantee, const char *schema, const char *table)
{
	int i;
	for (i = 0; i < r->ngrants; i++)
		if (!strcmp(r->grants[i].grantee, grantee) && !strcmp(r->grants[i].schema, schema) &&
		    !strcmp(r->grants[i].table, table))
			return &r->grants[i];
	return NULL;
}

bool
roles_grant_applies(const RoleGrant *g, const char *uuid)
{
	return !uuid || !g->uuid || !strcmp(g->uuid, uuid);
}

void
roles_grant(Roles *r, const char *grantee, const char *schema, const char *table, const char *uuid,
	    unsigned privs, bool add)
{
	RoleGrant *g = grant_find(r, grantee, schema, table);
	if (g && !roles_grant_applies(g, uuid))
		g->privs = 0;   /* a dropped table's grant: not this table's */
	if (!g) {
		if (!add)
			return;
		r->grants = xrealloc(r->grants, sizeof *r->grants * (size_t)(r->ngrants + 1));
		g = &r->grants[r->ngrants++];
		g->grantee = xstrdup(grantee);
		g->schema = xstrdup(schema);
		g->table = xstrdup(table);
		g->uuid = NULL;
		g->privs = 0;
	}
	if (uuid && (!g->uuid || strcmp(g->uuid, uuid))) {
		free(g->uuid);
		g->uuid = xstrdup(uuid);
	}
	if (add)
		g->privs |= privs & (ROLE_PRIV_ALL | ROLE_PRIV_USAGE | ROLE_PRIV_DATABASE);
	else
		g->privs &= ~privs;
	if (!g->privs)
		grant_del(r, (int)(g - r->grants));
}

unsigned
roles_privs(const Roles *r, const char *grantee, const char *schema, const char *table, const char *uuid)
{
	const RoleGrant *g = grant_find(r, grantee, schema, table);
	return g && roles_grant_applies(g, uuid) ? g->privs : 0;
}

void
roles_drop_table(Roles *r, const char *schema, const char *table)
{
	int i;
	for (i = r->ngrants - 1; i >= 0; i--)
		if (!strcmp(r->grants[i].schema, schema) && !strcmp(r->grants[i].table, table))
			grant_del(r, i);
}

bool
roles_is_member(const Roles *r, const char *role, const char *group)
{
	int i;
	for (i = 0; i < r->nmembers; i++)
		if (!strcmp(r->members[i].role, role) && !strcmp(r->members[i].group, group))
			return true;
	return false;
}

void
roles_member(Roles *r, const char *role, const char *group, bool add)
{
	int i;
	for (i = 0; i < r->nmembers; i++)
		if (!strcmp(r->members[i].role, role) && !strcmp(r->members[i].group, group)) {
			if (!add)
				member_del(r, i);
			return;
		}
	if (!add)
		return;
	r->members = xrealloc(r->members, sizeof *r->members * (size_t)(r->nmembers + 1));
	r->members[r->nmembers].role = xstrdup(role);
	r->members[r->nmembers].group = xstrdup(group);
	r->nmembers++;
}

void
roles_free(Roles *r)
{
	while (r->nroles)
		roles_remove(r, r->roles[r->nroles - 1].name);
	while (r->ngrants)
		grant_del(r, r->ngrants - 1);
	while (r->nmembers)
		member_del(r, r->nmembers - 1);
	free(r->roles);
	free(r->grants);
	free(r->members);
	memset(r, 0, sizeof *r);
}

static const char priv_letters[] = "rawdDxtUCTc";

/* %-escape one field: ':' '%' and bytes below 0x20 / 0x7f */
static void
put_field(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == ':' || ch == '%' || ch < 0x20 || ch == 0x7f)
			fprintf(f, "%%%02X", ch);
		else
			fputc(ch, f);
	}
}

/* split line into at most max ':'-separated fields, unescaping in place */
static int
split_fields(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		char *out, *end = strchr(p, ':');
		if (n == max)
			return -1;
		if (end)
			*end = 0;
		fields[n++] = p;
		for (out = p; *p; p++) {
			if (*p == '%') {
				int hi, lo;
				if (!p[1] || !p[2])
					return -1;
				hi = p[1] <= '9' ? p[1] - '0' : (p[1] | 0x20) - 'a' + 10;
				lo = p[2] <= '9' ? p[2] - '0' : (p[2] | 0x20) - 'a' + 10;
				if (hi < 0 || hi > 15 || lo < 0 || lo > 15 || (hi == 0 && lo == 0))
					return -1;
				*out++ = (char)(hi * 16 + lo);
				p += 2;
			} else {
				*out++ = *p;
			}
		}
		*out = 0;
		if (!end)
			return n;
		p = end + 1;
	}
}

int
roles_load(const char *path, Roles *out, floe_error *err)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	int lineno = 0;

	memset(out, 0, sizeof *out);
	if (!f) {
		if (errno == ENOENT)
			return FLOE_OK;
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not open roles file \"%s\": %s", path,
				   strerror(errno));
	}
	out->exists = true;
	while (fgets(line, sizeof line, f)) {
		char *fl[6], *nl = strchr(line, '\n');
		int n;
		lineno++;
		if (!nl && !feof(f))
			goto bad;
		if (nl)
			*nl = 0;
		if (!line[0] || line[0] == '#')
			continue;
		n = split_fields(line, fl, 6);
		if (n < 1)
			goto bad;
		if (!strcmp(fl[0], "role") && n == 3) {
			if (!users_valid_name(fl[1]) || strspn(fl[2], "SL") != strlen(fl[2]))
				goto bad;
			roles_set(out, fl[1], strchr(fl[2], 'S') != NULL, strchr(fl[2], 'L') != NULL);
		} else if (!strcmp(fl[0], "grant") && (n == 5 || n == 6)) {
			unsigned privs = 0;
			const char *p;
			for (p = fl[4]; *p; p++) {
				const char *k = strchr(priv_letters, *p);
				if (!k)
					goto bad;
				privs |= 1u << (k - priv_letters);
			}
			/* an empty TABLE: the schema's own USAGE / CREATE; an empty
			 * SCHEMA and TABLE: the database's CREATE / TEMP / CONNECT; a
			 * relation's: a table's letters, a sequence's USAGE too */
			if (!fl[1][0] || (!fl[2][0] && (fl[3][0] || (privs & ~(unsigned)ROLE_PRIV_DATABASE))) ||
			    (fl[2][0] && !fl[3][0] && (privs & ~(unsigned)(ROLE_PRIV_USAGE | ROLE_PRIV_CREATE))) ||
			    (fl[3][0] && (privs & ~(unsigned)(ROLE_PRIV_ALL | ROLE_PRIV_USAGE))))
				goto bad;
			if (n == 6 && !fl[5][0])
				goto bad;
			roles_grant(out, fl[1], fl[2], fl[3], n == 6 ? fl[5] : NULL, privs, true);
		} else if (!strcmp(fl[0], "database-acl") && n == 1) {
			out->db_acl = true;
		} else if (!strcmp(fl[0], "member") && n == 3) {
			if (!fl[1][0] || !fl[2][0])
				goto bad;
			roles_member(out, fl[1], fl[2], true);
		} else {
			goto bad;
		}
	}
	fclose(f);
	return FLOE_OK;
bad:
	fclose(f);
	roles_free(out);
	return floe_errorf(err, CONFIG_FILE_ERROR, "roles file \"%s\" line %d: malformed", path, lineno);
}

int
roles_save(const char *path, const Roles *r, floe_error *err)
{
	size_t n = strlen(path) + 16;
	char *tmp = xmalloc(n);
	FILE *f;
	int fd, i, e, k;

	snprintf(tmp, n, "%s.tmp%d", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		e = errno;
		if (fd >= 0)
			close(fd);
		floe_errorf(err, ERRCODE_IO_ERROR, "could not write \"%s\": %s", tmp, strerror(e));
		free(tmp);
		return FLOE_ERR;
	}
	fprintf(f, "# floe roles: role:NAME:FLAGS (S superuser, L login), grant:GRANTEE:SCHEMA:TABLE:PRIVS[:UUID], member:ROLE:GROUP, database-acl\n");
	for (i = 0; i < r->nroles; i++) {
		fputs("role:", f);
		put_field(f, r->roles[i].name);
		fprintf(f, ":%s%s\n", r->roles[i].super ? "S" : "", r->roles[i].login ? "L" : "");
	}
	for (i = 0; i < r->ngrants; i++) {
		fputs("grant:", f);
		put_field(f, r->grants[i].grantee);
		fputc(':', f);
		put_field(f, r->grants[i].schema);
		fputc(':', f);
		put_field(f, r->grants[i].table);
		fputc(':', f);
		for (k = 0; k < (int)sizeof priv_letters - 1; k++)
			if (r->grants[i].privs & (1u << k))
				fputc(priv_letters[k], f);
		if (r->grants[i].uuid) {
			fputc(':', f);
			put_field(f, r->grants[i].uuid);
		}
		fputc('\n', f);
	}
	if (r->db_acl)
		fputs("database-acl\n", f);
	for (i = 0; i < r->nmembers; i++) {
		fputs("member:", f);
		put_field(f, r->members[i].role);
		fputc(':', f);
		put_field(f, r->members[i].group);
		fputc('\n', f);
	}
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		e = errno;
		fclose(f);
		unlink(tmp);
		floe_errorf(err, ERRCODE_IO_ERROR, "could not write \"%s\": %s", tmp, strerror(e));
		free(tmp);
		return FLOE_ERR;
	}
	fclose(f);
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		floe_errorf(err, ERRCODE_IO_ERROR, "could not rename \"%s\" to \"%s\": %s", tmp, path, strerror(e));
		free(tmp);
		return FLOE_ERR;
	}
	free(tmp);
	return FLOE_OK;
}
