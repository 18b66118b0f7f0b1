/*
 * func_pgcatalog.c — PostgreSQL's system information and catalog functions
 * that clients (psql, JDBC, psycopg, SQLAlchemy) call at connect and for
 * introspection, over floe's pg_catalog relations (sql/pgcatalog.c).
 *
 * Spec: PostgreSQL 15 documentation 9.26 "System Information Functions and
 * Operators" (format_type, pg_get_userbyid, pg_table_is_visible,
 * obj_description, has_*_privilege, pg_get_expr, ...).  floe has one
 * superuser role (oid 10), one database and no indexes, comments,
 * statistics objects or publications, so:
 *
 *   format_type(oid, typmod)        PostgreSQL's spelling for the types floe
 *                                   has ("character varying(10)",
 *                                   "numeric(10,2)", "timestamp with time
 *                                   zone"); NULL oid -> NULL; unknown "???"
 *   pg_get_userbyid(oid)            the role name (sql/acl.c's roles; without
 *                                   a session FUNC_PGCATALOG_USER for 10),
 *                                   else "unknown (OID=n)"
 *   has_table_privilege, has_schema_privilege (text forms),
 *   has_database_privilege          the roles and
 *                                   grants of the session's privilege
 *                                   services (FuncCtx.env, session_env.h)
 *   pg_get_expr(text, oid[, bool])  the expression text itself: floe's
 *                                   pg_attrdef.adbin holds the DEFAULT's SQL
 *   has_column_privilege, has_sequence_privilege, has_schema_privilege
 *   by schema oid                   the same (a column's privileges are
 *                                   its table's: floe has no column grants)
 *   pg_type_is_visible (and function, operator, opclass, collation,
 *   conversion)                     true
 *   obj_description, col_description, shobj_description,
 *   pg_get_indexdef, pg_get_constraintdef,
 *   pg_get_statisticsobjdef_columns, pg_get_function_result / _arguments /
 *   _identity_arguments, pg_get_viewdef, pg_get_triggerdef, pg_get_ruledef,
 *   pg_get_partkeydef, pg_tablespace_location, inet_server_addr   NULL
 *   pg_is_in_recovery               false
 *   pg_relation_is_publishable      false
 *   pg_table_size, pg_relation_size, pg_total_relation_size   NULL (unknown)
 *   pg_size_pretty(bigint)          PostgreSQL's rounding and units
 *   pg_encoding_to_char(6)          "UTF8" (others "")
 *   pg_backend_pid()                this process id
 *   pg_postmaster_start_time()      when this process first asked
 *   version()                       "PostgreSQL 15.0 (floe) on ..." (SQLAlchemy
 *                                   and others parse the number after
 *                                   "PostgreSQL ")
 *   array_to_string(text, text)     over the text form of an array ('{a,b}'):
 *                                   floe has no array type, catalog array
 *                                   columns (datacl, ...) are text or NULL
 *   array_upper(text, 1)            its element count (NULL when empty)
 *   floe_array_has(text, x)         x = ANY (arr) over the text form
 *   floe_correlated_subquery / _exists(col)   0A000 when evaluated on a row
 *   floe_array_element(text, i)     its element i (1-based): what arr[i]
 *                                   binds to (sql/bind_expr.c)
 *
 * Oids are int4 in floe (see docs/catalog.md).  pg_table_is_visible,
 * current_database(), current_user ... depend on the session and are bound
 * by sql/bind_expr.c instead.
 *
 * INTERFACE ROUTINES
 *   func_pgcatalog_table[] / func_pgcatalog_count   (func_registry.c)
 *   func_pgcatalog_format_type(oid, typmod, buf, n) (sql/pgcatalog.c)
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "func/func_internal.h"
#include "types/udt.h"
#include "func/session_env.h"
#include "types/text.h"

#define FUNC_PGCATALOG_USER "floe"

static bool
argv_at(const Vector *args, int k, uint32_t i, Value *v)
{
	vector_get_value(&args[k], i, v);
	return !v->is_null;
}

static void
out_text(Vector *out, uint32_t i, const char *s)
{
	vector_set_string(out, i, s, (uint32_t)strlen(s));
	out_valid(out, i);
}

/* the PostgreSQL name of a type without its modifier, or NULL */
static const char *
base_name(int64_t oid)
{
	switch (oid) {
	case 16: return "boolean";
	case 17: return "bytea";
	case 18: return "\"char\"";
	case 19: return "name";
	case 20: return "bigint";
	case 21: return "smallint";
	case 23: return "integer";
	case 24: return "regproc";
	case 25: return "text";
	case 26: return "oid";
	case 700: return "real";
	case 701: return "double precision";
	case 705: return "unknown";
	case 1042: return "character";
	case 1043: return "character varying";
	case 1082: return "date";
	case 1083: return "time without time zone";
	case 1114: return "timestamp without time zone";
	case 1184: return "timestamp with time zone";
	case 1186: return "interval";
	case 1700: return "numeric";
	case 2205: return "regclass";
	case 2206: return "regtype";
	case 2249: return "record";
	case 2278: return "void";
	case 2950: return "uuid";
	case 114: return "json";
	case 3802: return "jsonb";
	case 4072: return "jsonpath";
	default: return NULL;
	}
}

/* PostgreSQL's format_type(oid, typmod) for the types floe knows. */
const char *
func_pgcatalog_format_type(int64_t oid, int32_t typmod, char *buf, size_t n)
{
	const char *b = base_name(oid);
	uint32_t elem = !b && oid > 0 && oid < 0x7fffffff ? type_array_elem_oid((uint32_t)oid) : 0;

	if (!b && elem && base_name(elem) && n > 2) {
		/* an array: its element's name (and typmod), then "[]" */
		func_pgcatalog_format_type(elem, typmod, buf, n - 2);
		strcat(buf, "[]");
		return buf;
	}
	if (!b && oid > 0 && oid < 0x7fffffff) {   /* an enum, a domain, or its array */
		const Udt *u = udt_get((uint32_t)oid), *ua = u ? NULL : udt_get((uint32_t)oid - 1);
		if (u || ua) {
			snprintf(buf, n, "%s%s", u ? u->name : ua->name, u ? "" : "[]");
			return buf;
		}
	}
	if (!b) {
		snprintf(buf, n, "???");
		return buf;
	}
	if (oid == 1042 && typmod < 0) {
		snprintf(buf, n, "bpchar");
		return buf;
	}
	if ((oid == 1042 || oid == 1043) && typmod >= 4) {
		snprintf(buf, n, "%s(%d)", b, typmod - 4);
		return buf;
	}
	if (oid == 1700 && typmod >= 4) {
		snprintf(buf, n, "numeric(%d,%d)", ((typmod - 4) >> 16) & 0xffff, (typmod - 4) & 0xffff);
		return buf;
	}
	if ((oid == 1083 || oid == 1114 || oid == 1184) && typmod >= 0) {
		/* time(p) without time zone: the precision goes after the word */
		const char *zone = oid == 1184 ? "with" : "without";
		snprintf(buf, n, "%s(%d) %s time zone", oid == 1083 ? "time" : "timestamp", typmod,
			 zone);
		return buf;
	}
	snprintf(buf, n, "%s", b);
	return buf;
}

static int
format_type(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	for (i = 0; i < count; i++) {
		Value o, m;
		char buf[96];
		int32_t typmod = -1;
		if (!argv_at(args, 0, i, &o)) {
			out_null(out, i);
			continue;
		}
		if (nargs > 1 && argv_at(args, 1, i, &m))
			typmod = (int32_t)m.u.i;
		out_text(out, i, func_pgcatalog_format_type(o.u.i, typmod, buf, sizeof buf));
	}
	return FLOE_OK;
}

static int
get_userbyid(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	const SessionPrivileges *privs = ctx->env ? ctx->env->privileges : NULL;
	uint32_t i;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value o;
		char buf[64];
		if (!argv_at(args, 0, i, &o)) {
			out_null(out, i);
			continue;
		}
		if (privs && privs->role_name(ctx->env->session, o.u.i, buf, sizeof buf))
			out_text(out, i, buf);
		else if (o.u.i == 10)
			out_text(out, i, FUNC_PGCATALOG_USER);
		else {
			snprintf(buf, sizeof buf, "unknown (OID=%lld)", (long long)o.u.i);
			out_text(out, i, buf);
		}
	}
	return FLOE_OK;
}

/* pg_get_expr(expr_text, relid [, pretty]): the text (NULL when NULL) */
static int
get_expr(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value v;
		if (!argv_at(args, 0, i, &v)) {
			out_null(out, i);
			continue;
		}
		vector_set_string(out, i, strview_data(&v.u.s), v.u.s.len);
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
const_true(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	(void)args;
	(void)nargs;
	for (i = 0; i < count; i++) {
		((uint8_t *)out->data)[i] = 1;
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* has_table_privilege([user,] table, priv) / has_schema_privilege([user,]
 * schema, priv): the roles and grants of sql/acl.c.  Argument kinds by
 * signature: user text or oid (absent: the current role), table text
 * (regclass syntax) or oid. */

static const char *
text_arg(FuncCtx *ctx, const Value *v)
{
	return arena_strndup(ctx->arena, strview_data(&v->u.s), v->u.s.len);
}

enum { PRIV_TABLE, PRIV_SCHEMA, PRIV_DATABASE, PRIV_COLUMN, PRIV_SEQUENCE };

/* The arguments by signature: [user text | oid,] object text | oid,
 * [column text | smallint (has_column_privilege),] privilege text. */
static int
privilege(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out, int kind)
{
	const SessionPrivileges *privs = ctx->env ? ctx->env->privileges : NULL;
	int base = kind == PRIV_COLUMN ? 3 : 2;   /* arguments without the user */
	uint32_t i;
	for (i = 0; i < count; i++) {
		Value v[4];
		const char *user = NULL, *obj = NULL, *col = NULL, *priv;
		int64_t user_oid = -1, obj_oid = -1, attnum = -1;
		bool res, isnull = false, null = false;
		int k, o = nargs > base ? 1 : 0;
		for (k = 0; k < nargs; k++)
			if (!argv_at(args, k, i, &v[k]))
				null = true;
		if (null) {
			out_null(out, i);
			continue;
		}
		if (o) {
			if (args[0].type.id == TYPE_TEXT)
				user = text_arg(ctx, &v[0]);
			else
				user_oid = v[0].u.i;
		}
		if (args[o].type.id == TYPE_TEXT)
			obj = text_arg(ctx, &v[o]);
		else
			obj_oid = v[o].u.i;
		if (kind == PRIV_COLUMN) {
			if (args[o + 1].type.id == TYPE_TEXT)
				col = text_arg(ctx, &v[o + 1]);
			else
				attnum = v[o + 1].u.i;
		}
		priv = text_arg(ctx, &v[nargs - 1]);
		if (!privs) {
			res = true;   /* no roles (the embedded shell): every privilege */
		} else if (kind == PRIV_DATABASE) {
			if (privs->database_privilege(ctx->env->session, user, user_oid, obj, obj_oid, priv, &res,
						      ctx->err) != FLOE_OK)
				return FLOE_ERR;
		} else if (kind == PRIV_SCHEMA) {
			if (privs->schema_privilege(ctx->env->session, user, user_oid, obj, obj_oid, priv, &res,
						    &isnull, ctx->err) != FLOE_OK)
				return FLOE_ERR;
		} else if (privs->relation_privilege(ctx->env->session,
						     kind == PRIV_COLUMN ? SESSION_PRIV_COLUMN :
						     kind == PRIV_SEQUENCE ? SESSION_PRIV_SEQUENCE : SESSION_PRIV_TABLE,
						     user, user_oid, obj, obj_oid, col, attnum, priv, &res, &isnull,
						     ctx->err) != FLOE_OK) {
			return FLOE_ERR;
		}
		if (isnull) {
			out_null(out, i);
			continue;
		}
		((uint8_t *)out->data)[i] = res;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
table_privilege(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return privilege(ctx, args, nargs, count, out, PRIV_TABLE);
}

static int
schema_privilege(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return privilege(ctx, args, nargs, count, out, PRIV_SCHEMA);
}

static int
database_privilege(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return privilege(ctx, args, nargs, count, out, PRIV_DATABASE);
}

static int
column_privilege(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return privilege(ctx, args, nargs, count, out, PRIV_COLUMN);
}

static int
sequence_privilege(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	return privilege(ctx, args, nargs, count, out, PRIV_SEQUENCE);
}

static int
const_false(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	(void)args;
	(void)nargs;
	for (i = 0; i < count; i++) {
		((uint8_t *)out->data)[i] = 0;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
const_null(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	(void)args;
	(void)nargs;
	for (i = 0; i < count; i++)
		out_null(out, i);
	return FLOE_OK;
}

static int
encoding_to_char(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value v;
		if (!argv_at(args, 0, i, &v)) {
			out_null(out, i);
			continue;
		}
		out_text(out, i, v.u.i == 6 ? "UTF8" : v.u.i == 0 ? "SQL_ASCII" : "");
	}
	return FLOE_OK;
}

static int
backend_pid(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	(void)args;
	(void)nargs;
	for (i = 0; i < count; i++) {
		((int32_t *)out->data)[i] = (int32_t)getpid();
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
start_time(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	static int64_t started;   /* benign race: every writer stores a close value */
	uint32_t i;
	(void)ctx;
	(void)args;
	(void)nargs;
	if (!started) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		started = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	}
	for (i = 0; i < count; i++) {
		((int64_t *)out->data)[i] = started;
		out_valid(out, i);
	}
	return FLOE_OK;
}

static int
version(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)ctx;
	(void)args;
	(void)nargs;
	for (i = 0; i < count; i++)
		out_text(out, i, "PostgreSQL 15.0 (floe) on x86_64-pc-linux-gnu, compiled by cc, 64-bit");
	return FLOE_OK;
}

/*
 * array_to_string over an array's text form: '{a,"b c",NULL}' -> elements
 * joined by the delimiter, NULL elements skipped (PostgreSQL's rule without
 * a null string).  Input that is not '{...}' is returned as it is.
 */
static int
array_to_string(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value a, d;
		const char *p, *end;
		char *buf, *w;
		bool first = true;
		if (!argv_at(args, 0, i, &a) || !argv_at(args, 1, i, &d)) {
			out_null(out, i);
			continue;
		}
		p = strview_data(&a.u.s);
		end = p + a.u.s.len;
		if (a.u.s.len < 2 || p[0] != '{' || end[-1] != '}') {
			vector_set_string(out, i, p, a.u.s.len);
			out_valid(out, i);
			continue;
		}
		/* the output is at most the input plus one delimiter per element */
		buf = arena_alloc(ctx->arena, (size_t)a.u.s.len * (d.u.s.len + 1) + 1);
		w = buf;
		p++;
		end--;
		while (p < end) {
			char *start = w;
			bool quoted = false;
			size_t elen;
			if (!first) {
				memcpy(w, strview_data(&d.u.s), d.u.s.len);
				w += d.u.s.len;
			}
			start = w;
			if (*p == '"') {
				quoted = true;
				p++;
				while (p < end && *p != '"') {
					if (*p == '\\' && p + 1 < end)
						p++;
					*w++ = *p++;
				}
				if (p < end)
					p++;
			} else {
				while (p < end && *p != ',')
					*w++ = *p++;
			}
			elen = (size_t)(w - start);
			if (!quoted && elen == 4 && !memcmp(start, "NULL", 4)) {
				/* a NULL element: drop it and its delimiter */
				w = first ? start : start - d.u.s.len;
			} else {
				first = false;
			}
			if (p < end && *p == ',')
				p++;
		}
		out_string_owned(out, i, buf, (uint32_t)(w - buf));
	}
	return FLOE_OK;
}

/*
 * The elements of an array's text form '{a,"b c",NULL}': calls fn for each
 * (quoted elements unescaped into buf, which has the input's size); NULL
 * elements have p == NULL.  Returns the count (-1: not an array literal).
 */
static int
each_element(const char *p, uint32_t len, char *buf, int want, const char **ep, uint32_t *elen,
	     bool *isnull)
{
	const char *end = p + len;
	int n = 0;
	if (len < 2 || p[0] != '{' || end[-1] != '}')
		return -1;
	p++;
	end--;
	while (p < end) {
		char *w = buf;
		bool quoted = false;
		if (*p == '"') {
			quoted = true;
			p++;
			while (p < end && *p != '"') {
				if (*p == '\\' && p + 1 < end)
					p++;
				*w++ = *p++;
			}
			if (p < end)
				p++;
		} else {
			while (p < end && *p != ',')
				*w++ = *p++;
		}
		n++;
		if (n == want) {
			*ep = buf;
			*elen = (uint32_t)(w - buf);
			*isnull = !quoted && *elen == 4 && !memcmp(buf, "NULL", 4);
			return n;   /* buf is reused by the next element */
		}
		if (p < end && *p == ',')
			p++;
	}
	return n;
}

/* floe_array_element(arr_text, i): arr[i] of an array's text form (1-based) */
static int
array_element(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value a, k;
		const char *ep = NULL;
		uint32_t elen = 0;
		bool isnull = true;
		char *buf;
		int n;
		if (!argv_at(args, 0, i, &a) || !argv_at(args, 1, i, &k)) {
			out_null(out, i);
			continue;
		}
		buf = arena_alloc(ctx->arena, a.u.s.len + 1);
		n = each_element(strview_data(&a.u.s), a.u.s.len, buf, k.u.i >= 1 && k.u.i <= INT32_MAX ? (int)k.u.i : 0,
				 &ep, &elen, &isnull);
		if (n < 0 || !ep || isnull) {
			out_null(out, i);
			continue;
		}
		out_string_owned(out, i, ep, elen);
	}
	return FLOE_OK;
}

/*
 * floe_correlated_subquery(any) / floe_correlated_exists(any): stand for a
 * correlated subquery floe cannot run (sql/bind_expr.c): 0A000 when a row
 * reaches it, nothing when none does (a catalog query over an empty
 * relation, a CASE branch not taken).
 */
static int
correlated(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)args;
	(void)nargs;
	if (count > 0)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "correlated subqueries are not supported yet (this subquery reads the outer query's columns)");
	for (i = 0; i < count; i++)
		out_null(out, i);
	return FLOE_OK;
}

/* floe_array_has(arr_text, x): x = ANY (arr) (NULL when arr is NULL, or
 * x is NULL, or no element equals x and one is NULL) */
static int
array_has(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value a, x;
		char *buf;
		int n, k;
		bool found = false, sawnull = false;
		if (!argv_at(args, 0, i, &a) || !argv_at(args, 1, i, &x)) {
			out_null(out, i);
			continue;
		}
		buf = arena_alloc(ctx->arena, a.u.s.len + 1);
		n = each_element(strview_data(&a.u.s), a.u.s.len, buf, 0, NULL, NULL, NULL);
		for (k = 1; k <= n && !found; k++) {
			const char *ep = NULL;
			uint32_t elen = 0;
			bool isnull = false;
			each_element(strview_data(&a.u.s), a.u.s.len, buf, k, &ep, &elen, &isnull);
			if (isnull)
				sawnull = true;
			else if (elen == x.u.s.len && !memcmp(ep, strview_data(&x.u.s), elen))
				found = true;
		}
		if (!found && (sawnull || n < 0)) {
			out_null(out, i);
			continue;
		}
		((uint8_t *)out->data)[i] = found;
		out_valid(out, i);
	}
	return FLOE_OK;
}

/* array_upper(arr_text, 1): the number of elements (NULL when empty) */
static int
array_upper(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	uint32_t i;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value a, d;
		const char *ep;
		uint32_t elen;
		bool isnull;
		int n;
		if (!argv_at(args, 0, i, &a) || !argv_at(args, 1, i, &d) || d.u.i != 1) {
			out_null(out, i);
			continue;
		}
		n = each_element(strview_data(&a.u.s), a.u.s.len, arena_alloc(ctx->arena, a.u.s.len + 1), 0,
				 &ep, &elen, &isnull);
		if (n <= 0) {
			out_null(out, i);
			continue;
		}
		((int32_t *)out->data)[i] = n;
		out_valid(out, i);
	}
	return FLOE_OK;
}

/*
 * pg_size_pretty(bigint): PostgreSQL's rule: below 10240 in bytes, else
 * in the largest of kB, MB, GB, TB, PB that keeps the number below 20480,
 * halves rounded away from zero.
 */
static int
size_pretty(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	static const char *const units[] = { "kB", "MB", "GB", "TB", "PB" };
	uint32_t i;
	(void)ctx;
	(void)nargs;
	for (i = 0; i < count; i++) {
		Value v;
		char buf[64];
		int64_t size;
		int u = 0;
		if (!argv_at(args, 0, i, &v)) {
			out_null(out, i);
			continue;
		}
		size = v.u.i;
		if (size > -10240 && size < 10240) {
			snprintf(buf, sizeof buf, "%lld bytes", (long long)size);
		} else {
			size /= 512;   /* kB with one extra bit for rounding */
			while (u < 4 && (size <= -20480 + 1 || size >= 20480 - 1)) {
				size /= 1024;
				u++;
			}
			size = (size + (size < 0 ? -1 : 1)) / 2;
			snprintf(buf, sizeof buf, "%lld %s", (long long)size, units[u]);
		}
		out_text(out, i, buf);
	}
	return FLOE_OK;
}

#define I4 TYPE_INT32
#define TX TYPE_TEXT
#define BO TYPE_BOOL

const ScalarFunc func_pgcatalog_table[] = {
	{ "format_type", format_type, 2, 0, { I4, I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_userbyid", get_userbyid, 1, 0, { I4 }, TX, FRET_FIXED, true, false },
	{ "pg_get_expr", get_expr, 2, 0, { TX, I4 }, TX, FRET_FIXED, true, false },
	{ "pg_get_expr", get_expr, 3, 0, { TX, I4, BO }, TX, FRET_FIXED, true, false },
	{ "pg_type_is_visible", const_true, 1, 0, { I4 }, BO, FRET_FIXED, true, false },
	{ "pg_function_is_visible", const_true, 1, 0, { I4 }, BO, FRET_FIXED, true, false },
	{ "pg_operator_is_visible", const_true, 1, 0, { I4 }, BO, FRET_FIXED, true, false },
	{ "pg_opclass_is_visible", const_true, 1, 0, { I4 }, BO, FRET_FIXED, true, false },
	{ "pg_collation_is_visible", const_true, 1, 0, { I4 }, BO, FRET_FIXED, true, false },
	{ "pg_conversion_is_visible", const_true, 1, 0, { I4 }, BO, FRET_FIXED, true, false },
	{ "has_table_privilege", table_privilege, 2, 0, { TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_table_privilege", table_privilege, 2, 0, { I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_table_privilege", table_privilege, 3, 0, { TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_table_privilege", table_privilege, 3, 0, { TX, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_table_privilege", table_privilege, 3, 0, { I4, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_schema_privilege", schema_privilege, 2, 0, { TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_schema_privilege", schema_privilege, 2, 0, { I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_schema_privilege", schema_privilege, 3, 0, { TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_schema_privilege", schema_privilege, 3, 0, { TX, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_schema_privilege", schema_privilege, 3, 0, { I4, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_schema_privilege", schema_privilege, 3, 0, { I4, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_sequence_privilege", sequence_privilege, 2, 0, { TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_sequence_privilege", sequence_privilege, 2, 0, { I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_sequence_privilege", sequence_privilege, 3, 0, { TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_sequence_privilege", sequence_privilege, 3, 0, { TX, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_sequence_privilege", sequence_privilege, 3, 0, { I4, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_sequence_privilege", sequence_privilege, 3, 0, { I4, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_database_privilege", database_privilege, 2, 0, { TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_database_privilege", database_privilege, 2, 0, { I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_database_privilege", database_privilege, 3, 0, { TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_database_privilege", database_privilege, 3, 0, { TX, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_database_privilege", database_privilege, 3, 0, { I4, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_database_privilege", database_privilege, 3, 0, { I4, I4, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 3, 0, { TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 3, 0, { TX, TYPE_INT16, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 3, 0, { I4, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 3, 0, { I4, TYPE_INT16, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { TX, TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { TX, TX, TYPE_INT16, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { TX, I4, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { TX, I4, TYPE_INT16, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { I4, TX, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { I4, TX, TYPE_INT16, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { I4, I4, TX, TX }, BO, FRET_FIXED, true, false },
	{ "has_column_privilege", column_privilege, 4, 0, { I4, I4, TYPE_INT16, TX }, BO, FRET_FIXED, true, false },
	{ "pg_relation_is_publishable", const_false, 1, 0, { I4 }, BO, FRET_FIXED, true, false },
	{ "obj_description", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "obj_description", const_null, 2, 0, { I4, TX }, TX, FRET_FIXED, false, false },
	{ "col_description", const_null, 2, 0, { I4, I4 }, TX, FRET_FIXED, false, false },
	{ "shobj_description", const_null, 2, 0, { I4, TX }, TX, FRET_FIXED, false, false },
	{ "pg_get_indexdef", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_indexdef", const_null, 3, 0, { I4, I4, BO }, TX, FRET_FIXED, false, false },
	{ "pg_get_constraintdef", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_constraintdef", const_null, 2, 0, { I4, BO }, TX, FRET_FIXED, false, false },
	{ "pg_get_statisticsobjdef_columns", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_serial_sequence", const_null, 2, 0, { TX, TX }, TX, FRET_FIXED, false, false },
	{ "inet_server_addr", const_null, 0, 0, { 0 }, TX, FRET_FIXED, false, false },
	{ "inet_server_port", const_null, 0, 0, { 0 }, I4, FRET_FIXED, false, false },
	{ "pg_encoding_to_char", encoding_to_char, 1, 0, { I4 }, TX, FRET_FIXED, true, false },
	{ "pg_backend_pid", backend_pid, 0, 0, { 0 }, I4, FRET_FIXED, false, false },
	{ "pg_postmaster_start_time", start_time, 0, 0, { 0 }, TYPE_TIMESTAMPTZ, FRET_FIXED, false, false },
	{ "version", version, 0, 0, { 0 }, TX, FRET_FIXED, false, false },
	{ "array_to_string", array_to_string, 2, 0, { TX, TX }, TX, FRET_FIXED, true, false },
	{ "pg_get_function_result", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_function_arguments", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_function_identity_arguments", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_viewdef", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_viewdef", const_null, 2, 0, { I4, BO }, TX, FRET_FIXED, false, false },
	{ "pg_get_triggerdef", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_triggerdef", const_null, 2, 0, { I4, BO }, TX, FRET_FIXED, false, false },
	{ "pg_get_ruledef", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_get_partkeydef", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_tablespace_location", const_null, 1, 0, { I4 }, TX, FRET_FIXED, false, false },
	{ "pg_is_in_recovery", const_false, 0, 0, { 0 }, BO, FRET_FIXED, false, false },
	{ "pg_size_pretty", size_pretty, 1, 0, { TYPE_INT64 }, TX, FRET_FIXED, true, false },
	{ "pg_table_size", const_null, 1, 0, { I4 }, TYPE_INT64, FRET_FIXED, false, false },
	{ "pg_relation_size", const_null, 1, 0, { I4 }, TYPE_INT64, FRET_FIXED, false, false },
	{ "pg_total_relation_size", const_null, 1, 0, { I4 }, TYPE_INT64, FRET_FIXED, false, false },
	{ "array_upper", array_upper, 2, 0, { TX, I4 }, I4, FRET_FIXED, true, false },
	{ "floe_correlated_subquery", correlated, 1, 0, { FARG_ANY_ASIS }, TX, FRET_FIXED, false, false },
	{ "floe_correlated_exists", correlated, 1, 0, { FARG_ANY_ASIS }, BO, FRET_FIXED, false, false },
	{ "floe_array_has", array_has, 2, 0, { TX, TX }, BO, FRET_FIXED, true, false },
	{ "floe_array_element", array_element, 2, 0, { TX, I4 }, TX, FRET_FIXED, true, false },
};
const int func_pgcatalog_count = (int)(sizeof func_pgcatalog_table / sizeof func_pgcatalog_table[0]);
