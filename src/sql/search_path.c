/*
 * sql/search_path.c -- the session's schema search path (search_path.h):
 * the setting's text split as PostgreSQL splits an identifier list, each
 * schema kept when it exists, and unqualified names looked up through it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "catalog/catalog.h"
#include "common/arena.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/pgcatalog.h"
#include "sql/search_path.h"
#include "sql/temp.h"
#include "sql/txn.h"

struct SearchPath {
	char *text;               /* the text resolved */
	bool fixed;               /* ... was s->sp_fixed's */
	char *user;               /* the role "$user" stood for */
	char *tempns;             /* the session's temp namespace then, "" none */
	const char **names;       /* the resolved list, of pool's strings */
	int n;
	bool temp_listed;         /* the temp namespace is on the list */
	bool temp_pending;        /* "pg_temp" leads it, no temp namespace yet */
	bool valid;
	/* every schema name ever resolved, freed with the session: callers
	 * keep the names they were given across statements (txn.c) */
	char **pool;
	int npool;
};

static const char *
intern(struct SearchPath *p, const char *ns)
{
	int i;
	for (i = 0; i < p->npool; i++)
		if (!strcmp(p->pool[i], ns))
			return p->pool[i];
	p->pool = xrealloc(p->pool, sizeof(char *) * (size_t)(p->npool + 1));
	return p->pool[p->npool++] = xstrdup(ns);
}

const char *
search_path_text(Session *s)
{
	const char *v = session_setting(s, "search_path");
	return v ? v : SEARCH_PATH_DEFAULT;
}

/* Split text into names (malloc'd, *n of them) as PostgreSQL's
 * SplitIdentifierString does: comma-separated, blanks around names
 * ignored, unquoted names lower-cased, "" inside quotes a quote, a quoted
 * name may be empty.  false: the list's syntax is invalid. */
static bool
split(const char *text, char ***out, int *n)
{
	const char *p = text;
	char **names = NULL;
	int cnt = 0;
	bool ok = true;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p) {
		*out = NULL;
		*n = 0;
		return true;
	}
	for (;;) {
		char *name = xmalloc(strlen(p) + 1);
		size_t len = 0;
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p) {
					ok = false;
					break;
				}
				if (*p == '"') {
					if (p[1] != '"')
						break;
					p++;
				}
				name[len++] = *p++;
			}
			if (!ok) {
				free(name);
				break;
			}
			p++;
		} else {
			while (*p && *p != ',' && !isspace((unsigned char)*p)) {
				name[len++] = (char)tolower((unsigned char)*p);
				p++;
			}
			if (!len) {
				free(name);
				ok = false;
				break;
			}
		}
		name[len] = 0;
		if (len > 63)
			name[63] = 0;      /* NAMEDATALEN - 1 */
		names = xrealloc(names, sizeof(char *) * (size_t)(cnt + 1));
		names[cnt++] = name;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p != ',') {
			ok = false;
			break;
		}
		p++;
		while (isspace((unsigned char)*p))
			p++;
	}
	if (!ok) {
		while (cnt > 0)
			free(names[--cnt]);
		free(names);
		return false;
	}
	*out = names;
	*n = cnt;
	return true;
}

int
search_path_check(const char *text, floe_error *err)
{
	char **names;
	int n;
	if (!split(text, &names, &n)) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for parameter \"search_path\": \"%s\"", text);
		floe_error_detail(err, "List syntax is invalid.");
		return FLOE_ERR;
	}
	while (n > 0)
		free(names[--n]);
	free(names);
	return FLOE_OK;
}

static void
clear(struct SearchPath *p)
{
	free(p->names);
	p->n = 0;
	free(p->text);
	free(p->user);
	free(p->tempns);
	p->names = NULL;
	p->text = p->user = p->tempns = NULL;
	p->fixed = p->temp_listed = p->temp_pending = false;
	p->valid = false;
}

static bool
builtin(const char *ns)
{
	return !strcmp(ns, "pg_catalog") || !strcmp(ns, "information_schema");
}

static bool
exists(Session *s, const char *ns)
{
	bool x = false;
	floe_error e;
	floe_error_clear(&e);
	if (builtin(ns))
		return true;
	if (!ns[0])
		return false;
	/* Unsure (the catalog failed or was cancelled): yes, so that the
	 * caller's load or create reports that failure (57014, 08006), not
	 * 3F000 / 42P01 for a schema that may well exist. */
	if (catalog_namespace_exists(s->engine->catalog, ns, &x, &e) != FLOE_OK)
		return true;
	/* a schema the role has no USAGE on is left out, as PostgreSQL's
	 * recomputeNamespacePath does (acl.h) */
	return x && acl_schema_usage(s, ns);
}

static const char *
temp_ns(Session *s)
{
	return s->temp ? s->temp->ns : "";
}

static struct SearchPath *
resolve(Session *s)
{
	struct SearchPath *p = s->sp;
	const char *text, *tns = temp_ns(s);
	char **names;
	int n, i, k;

	if (!p)
		p = s->sp = xcalloc(1, sizeof *p);
	text = s->sp_fixed ? s->sp_fixed : search_path_text(s);
	if (p->valid && p->text && !strcmp(p->text, text) && p->fixed == (s->sp_fixed != NULL) &&
	    !strcmp(p->user, pgcatalog_user(s)) && !strcmp(p->tempns, tns))
		return p;
	clear(p);
	p->text = xstrdup(text);
	p->fixed = s->sp_fixed != NULL;
	p->user = xstrdup(pgcatalog_user(s));
	p->tempns = xstrdup(tns);
	p->valid = true;
	if (!split(text, &names, &n))
		return p;            /* SET refuses such text: nothing is found */
	for (i = 0; i < n; i++) {
		char *ns = names[i];
		bool temp = false;
		if (!strcmp(ns, "$user")) {
			free(ns);
			ns = xstrdup(pgcatalog_user(s));
		} else if (!strcmp(ns, "pg_temp") || (tns[0] && !strcmp(ns, tns))) {
			/* the session's temp namespace, where the list places it;
			 * leading the list before it exists, it is made when
			 * current_schema() or CREATE asks for it (PostgreSQL's
			 * fetch_search_path) */
			free(ns);
			if (!tns[0]) {
				if (!p->n)
					p->temp_pending = true;
				continue;
			}
			ns = xstrdup(tns);
			temp = true;
		}
		for (k = 0; k < p->n && strcmp(p->names[k], ns); k++)
			;
		if (k < p->n || (!temp && !exists(s, ns))) {
			free(ns);
			continue;
		}
		p->temp_listed |= temp;
		p->names = xrealloc(p->names, sizeof(char *) * (size_t)(p->n + 1));
		p->names[p->n++] = intern(p, ns);
		free(ns);
	}
	free(names);
	return p;
}

/* The path with "pg_temp" leading it: its temp namespace made now. */
static struct SearchPath *
resolve_created(Session *s, floe_error *err)
{
	struct SearchPath *p = resolve(s);
	if (p->temp_pending) {
		if (!temp_namespace(s, err))
			return NULL;
		p = resolve(s);
	}
	return p;
}

const char *const *
search_path_list(Session *s, int *n)
{
	struct SearchPath *p = resolve(s);
	*n = p->n;
	return p->names;
}

const char *
search_path_implicit_temp(Session *s)
{
	struct SearchPath *p = resolve(s);
	return s->temp && !p->temp_listed && !p->fixed ? s->temp->ns : NULL;
}

const char *
session_schema(Session *s)
{
	floe_error e;
	struct SearchPath *p;
	floe_error_clear(&e);
	p = resolve_created(s, &e);
	if (!p)
		p = resolve(s);      /* the folder could not be made: as before it */
	return p->n ? p->names[0] : "";
}

const char *
search_path_creation(Session *s, floe_error *err)
{
	struct SearchPath *p = resolve_created(s, err);
	if (!p)
		return NULL;
	if (!p->n) {
		floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "no schema has been selected to create in");
		return NULL;
	}
	return p->names[0];
}

/* Does ns hold a relation called name?  Unsure (the catalog failed):
 * yes, so that the caller's load reports the failure. */
static bool
holds(Session *s, const char *ns, const char *name)
{
	Catalog *c = s->engine->catalog;
	Arena *a;
	char *loc;
	CatalogSeq seq;
	floe_error e;
	int rc;
	bool found = false;

	if (txn_table_pinned(s, ns, name))
		return true;
	a = arena_new(1024);
	floe_error_clear(&e);
	rc = catalog_load_table(c, ns, name, a, &loc, &e);
	if (rc == FLOE_OK || !floe_error_is(&e, ERRCODE_UNDEFINED_TABLE))
		found = true;
	if (!found) {
		floe_error_clear(&e);
		rc = c->vt->load_view(c, ns, name, a, &loc, &e);
		found = rc == FLOE_OK || !floe_error_is(&e, ERRCODE_UNDEFINED_TABLE);
	}
	if (!found) {
		floe_error_clear(&e);
		memset(&seq, 0, sizeof seq);
		rc = c->vt->seq_load(c, ns, name, a, &seq, &e);
		found = rc == FLOE_OK || !floe_error_is(&e, ERRCODE_UNDEFINED_TABLE);
	}
	arena_free(a);
	return found;
}

/* The schemas an unqualified relation name is looked up in, in order, as
 * PostgreSQL's recomputeNamespacePath has them: the temp namespace when
 * it exists and the list does not place it, pg_catalog when the list does
 * not name it, then the list (*n of them, in out[], at most p->n + 2). */
static int
effective(Session *s, struct SearchPath *p, const char **out)
{
	int n = 0, i;
	bool cat = false;
	if (s->temp && !p->temp_listed && !p->fixed)
		out[n++] = s->temp->ns;
	for (i = 0; i < p->n; i++)
		cat |= !strcmp(p->names[i], "pg_catalog");
	if (!cat)
		out[n++] = "pg_catalog";
	for (i = 0; i < p->n; i++)
		out[n++] = p->names[i];
	return n;
}

/* The first schema of the effective path holding name (with_builtin:
 * pg_catalog's and information_schema's relations count), NULL none.
 * The only user schema is taken unchecked when no candidate follows it
 * (its load reports 42P01): the common path costs no catalog call. */
static const char *
find(Session *s, const char *name, bool with_builtin)
{
	struct SearchPath *p = resolve(s);
	const char **l = xmalloc(sizeof(char *) * (size_t)(p->n + 2));
	const char *r = NULL;
	int n = effective(s, p, l), i, last = -1, users = 0;

	for (i = 0; i < n; i++) {
		bool temp = s->temp && !strcmp(l[i], s->temp->ns);
		bool user = !builtin(l[i]) && !temp;
		users += user;
		if (user || temp || (with_builtin && builtin(l[i])))
			last = i;
	}
	if (users != 1)
		last = -1;           /* several: each is asked, none holding it falls back */
	for (i = 0; i < n && !r; i++) {
		if (s->temp && !strcmp(l[i], s->temp->ns)) {
			if (temp_has(s, name))
				r = l[i];
		} else if (builtin(l[i])) {
			if (with_builtin && pgcatalog_is_relation(s, l[i], name))
				r = l[i];
		} else if (i == last || holds(s, l[i], name)) {
			r = l[i];
		}
	}
	free(l);
	return r;
}

const char *
search_path_find(Session *s, const char *name)
{
	return find(s, name, true);
}

const char *
search_path_lookup(Session *s, const char *name)
{
	struct SearchPath *p;
	const char *r = find(s, name, false);
	int i;

	if (r)
		return r;
	p = resolve(s);
	for (i = 0; i < p->n; i++)
		if (!builtin(p->names[i]))
			return p->names[i];
	return p->n ? p->names[0] : "";
}

/* name as a quoted identifier (in a search_path text, a statement) */
char *
search_path_quote(Arena *a, const char *name)
{
	size_t n = strlen(name), i, k = 0;
	char *q = arena_alloc(a, 2 * n + 3);
	q[k++] = '"';
	for (i = 0; i < n; i++) {
		if (name[i] == '"')
			q[k++] = '"';
		q[k++] = name[i];
	}
	q[k++] = '"';
	q[k] = 0;
	return q;
}

char *
search_path_frozen(Session *s, Arena *a, bool with_temp)
{
	struct SearchPath *p = resolve(s);
	const char **l = xmalloc(sizeof(char *) * (size_t)(p->n + 2));
	int n = effective(s, p, l), i;
	char *out = arena_strdup(a, "");

	for (i = 0; i < n; i++)
		if (with_temp || !(s->temp && !strcmp(l[i], s->temp->ns)))
			out = arena_sprintf(a, "%s%s%s", out, out[0] ? ", " : "", search_path_quote(a, l[i]));
	free(l);
	return out[0] ? out : arena_strdup(a, "\"\"");
}

char *
search_path_of_schema(Arena *a, const char *ns)
{
	return search_path_quote(a, ns);
}

bool
search_path_has(Session *s, const char *ns)
{
	struct SearchPath *p = resolve(s);
	int i;
	for (i = 0; i < p->n; i++)
		if (!strcmp(p->names[i], ns))
			return true;
	return false;
}

void
search_path_reset(Session *s)
{
	if (s->sp)
		s->sp->valid = false;
}

void
search_path_free(Session *s)
{
	if (s->sp) {
		clear(s->sp);
		while (s->sp->npool > 0)
			free(s->sp->pool[--s->sp->npool]);
		free(s->sp->pool);
	}
	free(s->sp);
	s->sp = NULL;
}
