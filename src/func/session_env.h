/*
 * session_env.h — the session state a statement's kernels and operators
 * may read, passed explicitly: ExecCtx.env (exec/exec.h) and FuncCtx.env
 * (func.h) point at the statement's SessionEnv.
 *
 * What it holds: the formatting state types/ reads (time zone, DateStyle /
 * IntervalStyle, extra_float_digits), the statement clock (now(),
 * current_timestamp), the statement's memory account, and the session's
 * privilege services (has_table_privilege, pg_get_userbyid): an opaque
 * session pointer with the functions of the layer that owns roles
 * (sql/acl.c fills SessionPrivileges), so func/ and exec/ never call up
 * into sql/.
 *
 * The formatting state is still read by types/ from the calling thread
 * (value_to_text has no context), so a thread that runs part of a
 * statement applies the statement's SessionEnv first: parallel.c's
 * workers call session_env_apply(ctx->env), and nothing else needs to be
 * copied by hand (a new session setting is a new field here, captured and
 * applied with the others).
 *
 * INTERFACE ROUTINES
 *   session_env_capture(&env)   the calling thread's state (privileges: none)
 *   session_env_apply(&env)     make it the calling thread's
 */
#ifndef FLOE_FUNC_SESSION_ENV_H
#define FLOE_FUNC_SESSION_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "types/datetime.h"

/* The privilege services of the layer that owns roles; `session` is
 * SessionEnv.session.  Conventions as PostgreSQL's has_*_privilege: user
 * NULL means user_oid (< 0: the current role), table NULL means table_oid;
 * priv is PostgreSQL's list ("SELECT, INSERT"); *out: any of them held. */
enum { SESSION_PRIV_TABLE, SESSION_PRIV_COLUMN, SESSION_PRIV_SEQUENCE };
typedef struct SessionPrivileges {
	/* has_table_privilege / has_column_privilege / has_sequence_privilege
	 * (kind SESSION_PRIV_*): column NULL means attnum; *null: an oid or
	 * attnum naming nothing (PostgreSQL's NULL result) */
	int (*relation_privilege)(void *session, int kind, const char *user, int64_t user_oid,
				  const char *table, int64_t table_oid, const char *column, int64_t attnum,
				  const char *priv, bool *out, bool *null, floe_error *err);
	/* schema NULL means schema_oid */
	int (*schema_privilege)(void *session, const char *user, int64_t user_oid, const char *schema,
				int64_t schema_oid, const char *priv, bool *out, bool *null, floe_error *err);
	/* has_database_privilege: database NULL means database_oid */
	int (*database_privilege)(void *session, const char *user, int64_t user_oid, const char *database,
				  int64_t database_oid, const char *priv, bool *out, floe_error *err);
	/* role oid's name into buf, or NULL when unknown */
	const char *(*role_name)(void *session, int64_t oid, char *buf, size_t n);
} SessionPrivileges;

typedef struct SessionEnv {
	const DatetimeZone *zone;        /* TimeZone */
	DatetimeStyle style;             /* DateStyle, IntervalStyle */
	int float_digits;                /* extra_float_digits */
	int64_t stmt_time;               /* now() (func_datetime.c) */
	int64_t stmt_now;                /* datetime's statement time */
	MemAccount *mem;                 /* the statement's memory account */
	void *session;                   /* for privileges (opaque here) */
	const SessionPrivileges *privileges;   /* NULL: no roles (the embedded
						  shell: every privilege) */
} SessionEnv;

void session_env_capture(SessionEnv *env);
void session_env_apply(const SessionEnv *env);

#endif
