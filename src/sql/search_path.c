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
#include "sql/txn.h"

struct SearchPath {
	char *text;               /* the text resolved */
	char *fixed;              /* or the sp_fixed schema resolved */
	char *user;               /* the role "$user" stood for */
	const char **names;       /* the resolved list, of pool's strings */
	int n;
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
	free(p->fixed);
	free(p->user);
	p->names = NULL;
	p->text = p->fixed = p->user = NULL;
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

static struct SearchPath *
resolve(Session *s)
{
	struct SearchPath *p = s->sp;
	const char *text;
	char **names;
	int n, i, k;

	if (!p)
		p = s->sp = xcalloc(1, sizeof *p);
	if (s->sp_fixed) {
		if (p->valid && p->fixed && !strcmp(p->fixed, s->sp_fixed))
			return p;
		clear(p);
		p->fixed = xstrdup(s->sp_fixed);
		p->names = xmalloc(sizeof(char *));
		p->names[p->n++] = intern(p, s->sp_fixed);
		p->valid = true;
		return p;
	}
	text = search_path_text(s);
	if (p->valid && p->text && !strcmp(p->text, text) && !strcmp(p->user, pgcatalog_user(s)))
		return p;
	clear(p);
	p->text = xstrdup(text);
	p->user = xstrdup(pgcatalog_user(s));
	p->valid = true;
	if (!split(text, &names, &n))
		return p;            /* SET refuses such text: nothing is found */
	for (i = 0; i < n; i++) {
		char *ns = names[i];
		if (!strcmp(ns, "$user")) {
			free(ns);
			ns = xstrdup(pgcatalog_user(s));
		}
		for (k = 0; k < p->n && strcmp(p->names[k], ns); k++)
			;
		if (k < p->n || !exists(s, ns)) {
			free(ns);
			continue;
		}
		p->names = xrealloc(p->names, sizeof(char *) * (size_t)(p->n + 1));
		p->names[p->n++] = intern(p, ns);
		free(ns);
	}
	free(names);
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
session_schema(Session *s)
{
	struct SearchPath *p = resolve(s);
	return p->n ? p->names[0] : "";
}

const char *
search_path_creation(Session *s, floe_error *err)
{
	struct SearchPath *p = resolve(s);
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

const char *
search_path_lookup(Session *s, const char *name)
{
	struct SearchPath *p = resolve(s);
	int i, real = 0;

	for (i = 0; i < p->n; i++)
		real += !builtin(p->names[i]);
	if (real > 1)
		for (i = 0; i < p->n; i++)
			if (!builtin(p->names[i]) && holds(s, p->names[i], name))
				return p->names[i];
	for (i = 0; i < p->n; i++)
		if (!builtin(p->names[i]))
			return p->names[i];
	return p->n ? p->names[0] : "";
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
