/*
 * users.c — the users file of `floe serve` (format in users.h): load,
 * look up, change and save user secrets.
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
