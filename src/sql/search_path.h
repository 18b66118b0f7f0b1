/*
 * sql/search_path.h -- the session's schema search path, as PostgreSQL's.
 *
 * The setting's text is kept in the session's settings as SET or
 * set_config gave it, and SHOW prints it ('"$user", public' by default,
 * '""' after SET search_path = '').  The list it names is resolved when a
 * name is: its schemas that exist, in order, "$user" standing for the
 * current role's name, a repeated schema once; pg_catalog and
 * information_schema (floe's built-in relations) always exist.  The
 * resolution is cached until the text (or the role "$user" stands for)
 * changes, or the next statement.  Every schema name these functions
 * return lives as long as the session (callers keep them across
 * statements).
 *
 *   search_path_text(s)        the setting's text (the default when unset)
 *   search_path_check(text, err)
 *                              22023 unless text is a list of identifiers
 *                              (PostgreSQL's "List syntax is invalid.")
 *   search_path_list(s, &n)    the resolved list (current_schemas(false));
 *                              "pg_temp" stands for the session's temp
 *                              namespace, skipped while there is none
 *   search_path_implicit_temp(s)
 *                              the temp namespace when it exists and the
 *                              list does not place it: searched first
 *                              for relations (never for functions)
 *   session_schema(s)          current_schema(): the list's first, "" when
 *                              the list is empty; a list led by pg_temp
 *                              makes the temp namespace first (as
 *                              PostgreSQL's fetch_search_path does)
 *   search_path_creation(s, err)
 *                              where CREATE puts an unqualified name: the
 *                              list's first; NULL and 3F000 "no schema has
 *                              been selected to create in" when it is empty
 *   search_path_find(s, name)  the schema an unqualified relation name
 *                              resolves to, PostgreSQL's order: the
 *                              implicit temp namespace, pg_catalog unless
 *                              the list names it, then the list, counting
 *                              pg_catalog's and information_schema's own
 *                              relations; NULL: none holds it
 *   search_path_lookup(s, name)
 *                              the same among the user's schemas (and the
 *                              temp namespace): the first holding a table,
 *                              view or sequence of that name, else the
 *                              list's first user schema (whose load then
 *                              reports 42P01)
 *   search_path_frozen(s, a, with_temp)
 *                              the effective path (pg_catalog where it is
 *                              searched, the temp namespace only with_temp)
 *                              as a text for sp_fixed: what a view's body
 *                              binds through
 *   search_path_of_schema(a, ns)
 *                              the text of a path of ns alone
 *   search_path_has(s, ns)     is ns on the resolved list
 *   search_path_quote(a, name) name as a quoted identifier ("a""b")
 *   search_path_reset(s)       forget the cache (each statement's start)
 *   search_path_free(s)        session_free
 *
 * s->sp_fixed (a search_path text, NULL normally) replaces the setting,
 * with no implicit temp namespace: a view's body binds through the path
 * stored at its CREATE (views.c), the insert buffer's flush session in
 * public.
 */
#ifndef FLOE_SQL_SEARCH_PATH_H
#define FLOE_SQL_SEARCH_PATH_H

#include "common/arena.h"
#include "common/error.h"

typedef struct Session Session;

#define SEARCH_PATH_DEFAULT "\"$user\", public"

const char *search_path_text(Session *s);
int search_path_check(const char *text, floe_error *err);
const char *const *search_path_list(Session *s, int *n);
const char *session_schema(Session *s);
const char *search_path_creation(Session *s, floe_error *err);
const char *search_path_implicit_temp(Session *s);
const char *search_path_find(Session *s, const char *name);
const char *search_path_lookup(Session *s, const char *name);
char *search_path_frozen(Session *s, Arena *a, bool with_temp);
char *search_path_of_schema(Arena *a, const char *ns);
bool search_path_has(Session *s, const char *ns);
char *search_path_quote(Arena *a, const char *name);
void search_path_reset(Session *s);
void search_path_free(Session *s);

#endif
