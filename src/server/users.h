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

#endif
