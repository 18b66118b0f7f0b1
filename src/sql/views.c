/*
 * views.c — CREATE [OR REPLACE] VIEW, ALTER VIEW RENAME [COLUMN], DROP VIEW
 * and the dependency checks of DROP TABLE / SCHEMA, and the expansion of a
 * view named in FROM (views.h).
 *
 * Spec: PostgreSQL 15 CREATE VIEW, ALTER VIEW, DROP VIEW; Iceberg
 * format/view-spec.md for what is stored.
 *
 * Stored per version (view_meta.h): the query deparsed by libpg_query (the
 * same statement PostgreSQL stores, in its own normal form), the creator's
 * first search_path schema as default-namespace and the whole path its
 * unqualified names resolved through (the query binds through it at every
 * use, so a later SET search_path changes nothing), the column names (the
 * column list, else the query's names) with their types, and the relations
 * the query read (found while it was planned at CREATE: every relation the
 * binder resolved, views and the tables under them).
 *
 * Invariants:
 *   V1. A view is planned afresh at every use; its columns are the stored
 *       ones: the first ncols of the query's (a "SELECT *" view keeps its
 *       columns when a base table gains one), renamed to the stored names;
 *       a query that yields fewer columns is an error naming the view.
 *   V2. OR REPLACE keeps PostgreSQL's rule: the old columns stay, with
 *       their names and types, new ones only at the end (42P16).
 *   V3. Dropping a relation drops (CASCADE) or refuses (2BP01) every view
 *       that depends on it, transitively.
 *   V4. A view under expansion cannot expand itself (42P17).
 *
 * Temporary views (CREATE TEMP VIEW, or a view reading a temporary
 * relation: NOTICE, as PostgreSQL) live in the session's temp namespace
 * (temp.h), their files in its scratch folder.
 *
 * Not yet (0A000 naming them): WITH CHECK OPTION, view options (security_
 * barrier, security_invoker, check_option), writes through a view,
 * renaming a view others depend on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sql/acl.h"
#include "sql/indexes.h"
#include "sql/temp.h"
#include "sql/views.h"
#include "server/users.h"
#include "table/table.h"

#define VIEW_MAX_DEPTH 32

/* the views being expanded on this thread (V4) */
static __thread const char *expanding[VIEW_MAX_DEPTH][2];
static __thread int nexpanding;

static Catalog *
cat_of(Session *s)
{
	return s->engine->catalog;
}

static char *
type_text(Arena *a, SqlType t)
{
	char buf[96];
	return arena_strdup(a, type_name(t, buf, sizeof buf));
}

/* the query as SQL text (libpg_query's deparser) */
static char *
deparse(Arena *a, Node *q, floe_error *err)
{
	const char *why;
	char *out = sql_deparse(q, a, &why);

	if (!out)
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "cannot store this view's query: %s", why);
	return out;
}

static int
load_def(Session *s, const char *ns, const char *name, Arena *a, char **loc, ViewDef **d,
	 floe_error *err)
{
	TRY(catalog_load_view(cat_of(s), ns, name, a, loc, err));
	return view_meta_read(s->engine->io, *loc, a, d, err);
}

bool
views_exists(Session *s, const char *ns, const char *name)
{
	Arena *a = arena_new(0);
	char *loc;
	floe_error e;
	bool yes = catalog_load_view(cat_of(s), ns, name, a, &loc, &e) == FLOE_OK;
	arena_free(a);
	return yes;
}

const char *
views_uuid(Session *s, const char *ns, const char *name, Arena *a)
{
	char *loc;
	ViewDef *d;
	floe_error e;
	if (load_def(s, ns, name, a, &loc, &d, &e) != FLOE_OK)
		return NULL;
	return d->uuid ? d->uuid : "";
}

static bool
table_exists(Session *s, const char *ns, const char *name, Arena *a)
{
	char *loc;
	floe_error e;
	return catalog_load_table(cat_of(s), ns, name, a, &loc, &e) == FLOE_OK;
}

/* d's column types from their stored PostgreSQL names (varchar(n),
 * smallint, interval, arrays: what the Iceberg types cannot tell) */
static void
exact_types(Session *s, Arena *a, ViewDef *d)
{
	BindCtx b;
	floe_error e;
	int i;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = &e;
	for (i = 0; i < d->ncols; i++) {
		Node *n;
		SqlType t;
		if (!d->pg_types[i] ||
		    sql_parse_expr(arena_sprintf(a, "NULL::%s", d->pg_types[i]), a, &n, &e) != FLOE_OK ||
		    n->node_case != PG_QUERY__NODE__NODE_TYPE_CAST ||
		    bind_type_name(&b, n->type_cast->type_name, &t) != FLOE_OK)
			continue;
		d->types[i] = t;
	}
}

int
views_list(Session *s, const char *ns, Arena *a, char ***names, ViewDef ***defs, int *n,
	   floe_error *err)
{
	int i, k;
	TRY(catalog_list_views(cat_of(s), ns, a, names, n, err));
	*defs = ARENA_ARRAY(a, ViewDef *, *n + 1);
	for (i = k = 0; i < *n; i++) {
		char *loc;
		/* another engine's view (no postgresql representation: 0A000)
		 * is left out, as a relation floe cannot read; the rest stand */
		if (load_def(s, ns, (*names)[i], a, &loc, &(*defs)[k], err) != FLOE_OK) {
			if (!floe_error_is(err, ERRCODE_FEATURE_NOT_SUPPORTED))
				return FLOE_ERR;
			floe_error_clear(err);
			continue;
		}
		exact_types(s, a, (*defs)[k]);
		(*names)[k++] = (*names)[i];
	}
	*n = k;
	return FLOE_OK;
}

/* ---- expansion in FROM --------------------------------------------------- */

int
views_source(BindCtx *b, ExecCtx *ctx, const char *ns, const char *name, bool *found,
	     SelectPlan *out)
{
	Session *s = b->session;
	char *loc;
	const char *saved_path;
	ViewDef *d;
	SqlStmt *stmts;
	floe_error e;
	int nst, i, rc, mode;

	*found = false;
	if (catalog_load_view(cat_of(s), ns, name, b->arena, &loc, &e) != FLOE_OK) {
		if (floe_error_is(&e, ERRCODE_UNDEFINED_TABLE))
			return FLOE_OK;
		*b->err = e;
		return FLOE_ERR;
	}
	*found = true;
	TRY(view_meta_read(s->engine->io, loc, b->arena, &d, b->err));
	for (i = 0; i < nexpanding; i++)
		if (!strcmp(expanding[i][0], ns) && !strcmp(expanding[i][1], name))
			return floe_errorf(b->err, ERRCODE_INVALID_OBJECT_DEFINITION,
					   "infinite recursion detected in rules for relation \"%s\"", name);
	if (nexpanding == VIEW_MAX_DEPTH)
		return floe_errorf(b->err, ERRCODE_STATEMENT_TOO_COMPLEX,
				   "views nested more than %d deep", VIEW_MAX_DEPTH);
	/* the current role needs SELECT on the view; the view's owner (the
	 * superuser) reads its relations */
	if (acl_note_rel(s, ctx, ns, name, d->uuid, ROLE_PRIV_SELECT, b->err) != FLOE_OK) {
		if (floe_error_is(b->err, ERRCODE_INSUFFICIENT_PRIVILEGE))
			floe_errorf(b->err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for view %s", name);
		return FLOE_ERR;
	}
	TRY(sql_parse(d->sql, b->arena, &stmts, &nst, b->err));
	if (nst != 1 || stmts[0].node->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return FLOE_CORRUPT(b->err, "view \"%s\" holds no SELECT statement", name);
	expanding[nexpanding][0] = ns;
	expanding[nexpanding][1] = name;
	nexpanding++;
	saved_path = s->sp_fixed;
	/* the names resolve as they did at CREATE (search_path.h) */
	s->sp_fixed = d->search_path ? d->search_path : search_path_of_schema(b->arena, d->default_ns);
	mode = acl_owner_begin(ctx);
	rc = select_plan_subquery(b, ctx, d->sql, stmts[0].node, out);
	acl_owner_end(ctx, mode);
	s->sp_fixed = saved_path;
	nexpanding--;
	if (rc != FLOE_OK) {
		/* a position in the view's text means nothing in the caller's */
		b->err->position = 0;
		if (!b->err->detail[0])
			floe_error_detail(b->err, "while planning the query of view \"%s\"", name);
		return FLOE_ERR;
	}
	if (out->ncols < d->ncols)
		return floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE,
				   "view \"%s\" no longer matches its definition: its query yields %d columns, "
				   "the view has %d", name, out->ncols, d->ncols);
	if (out->ncols > d->ncols) {
		/* V1: a "SELECT *" view over a table that gained columns */
		Expr **ex = ARENA_ARRAY(b->arena, Expr *, d->ncols + 1);
		for (i = 0; i < d->ncols; i++)
			ex[i] = expr_colref(b->arena, i, out->types[i]);
		out->root = project_new(ctx, out->root, d->ncols, ex);
		out->ncols = d->ncols;
	}
	for (i = 0; i < d->ncols; i++)
		out->names[i] = d->names[i];
	return FLOE_OK;
}

/* ---- CREATE [OR REPLACE] VIEW -------------------------------------------- */

/* V2 */
static int
check_replace(const ViewDef *old, const ViewDef *nw, floe_error *err)
{
	int i;
	if (nw->ncols < old->ncols)
		return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION, "cannot drop columns from view");
	for (i = 0; i < old->ncols; i++) {
		if (strcmp(old->names[i], nw->names[i]) != 0) {
			floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
				    "cannot change name of view column \"%s\" to \"%s\"", old->names[i],
				    nw->names[i]);
			return floe_error_hint(err, "Use ALTER VIEW ... RENAME COLUMN ... to change name of "
					       "view column instead.");
		}
		if (old->pg_types[i] && strcmp(old->pg_types[i], nw->pg_types[i]) != 0)
			return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
					   "cannot change data type of view column \"%s\" from %s to %s",
					   old->names[i], old->pg_types[i], nw->pg_types[i]);
	}
	return FLOE_OK;
}

static int
option_error(Node *opt, floe_error *err)
{
	const char *name = opt->node_case == PG_QUERY__NODE__NODE_DEF_ELEM ? opt->def_elem->defname : "?";
	if (!strcmp(name, "check_option"))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "WITH CHECK OPTION is not supported");
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "view option \"%s\" is not supported", name);
}

static int
view_create(Session *s, ExecCtx *ctx, const char *sql, PgQuery__ViewStmt *vs, ResultSink *sink)
{
	floe_error *err = ctx->err, e;
	Arena *a = ctx->arena;
	PgQuery__RangeVar *rv = vs->view;
	const char *ns, *name = rv->relname, *sch;
	const char **rns, **rnames;
	bool temp = rv->relpersistence && rv->relpersistence[0] == 't';
	SelectPlan p;
	ViewDef def, *old;
	SqlStmt *chk;
	char *loc, *path;
	int i, k, nrels, nchk;

	if (vs->with_check_option == PG_QUERY__VIEW_CHECK_OPTION__LOCAL_CHECK_OPTION ||
	    vs->with_check_option == PG_QUERY__VIEW_CHECK_OPTION__CASCADED_CHECK_OPTION)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "WITH %s CHECK OPTION is not supported: floe does not write through views",
				   vs->with_check_option == PG_QUERY__VIEW_CHECK_OPTION__LOCAL_CHECK_OPTION ?
				   "LOCAL" : "CASCADED");
	if (vs->n_options)
		return option_error(vs->options[0], err);
	if (rv->catalogname && rv->catalogname[0])
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cross-database references are not implemented");
	/* temporary (temp.h): TEMP, pg_temp.name, or a path led by pg_temp */
	sch = rv->schemaname && rv->schemaname[0] ? rv->schemaname : NULL;
	if (sch && (!strcmp(sch, "pg_temp") || (s->temp && !strcmp(sch, s->temp->ns))))
		temp = true;
	else if (sch && temp)
		return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
				   "cannot create temporary relation in non-temporary schema");
	if (!(ns = temp ? temp_namespace(s, err) : ddl_create_ns(s, rv, err)))
		return FLOE_ERR;
	temp = temp_is_temp_ns(ns);
	if (!temp)
		TRY(ddl_check_namespace(s, ns, err));
	if (vs->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "views must be defined by a SELECT");
	TRY(select_plan(s, ctx, sql, vs->query, &p));
	if (vs->n_aliases > (size_t)p.ncols)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "CREATE VIEW specifies more column names than columns");
	memset(&def, 0, sizeof def);
	def.ns = ns;
	def.name = name;
	def.default_ns = arena_strdup(a, session_schema(s));
	/* what the query read (V3); a temporary relation among them makes the
	 * view temporary, as PostgreSQL does */
	nrels = acl_stmt_rels(ctx, &rns, &rnames);
	for (i = 0; i < nrels && !temp; i++) {
		if (!temp_is_temp_ns(rns[i]))
			continue;
		engine_notice(sink, "view \"%s\" will be a temporary view", name);
		if (sch)
			return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
					   "cannot create temporary relation in non-temporary schema");
		temp = true;
		if (!(ns = temp_namespace(s, err)))
			return FLOE_ERR;
	}
	def.ns = ns;
	def.search_path = search_path_frozen(s, a, temp);
	def.ncols = p.ncols;
	def.names = ARENA_ARRAY(a, char *, p.ncols + 1);
	def.types = p.types;
	def.pg_types = ARENA_ARRAY(a, char *, p.ncols + 1);
	for (i = 0; i < p.ncols; i++) {
		def.names[i] = (size_t)i < vs->n_aliases ? vs->aliases[i]->string->sval : p.names[i];
		def.pg_types[i] = type_text(a, p.types[i]);
		for (k = 0; k < i; k++)
			if (!strcmp(def.names[k], def.names[i]))
				return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
						   "column \"%s\" specified more than once", def.names[i]);
	}
	if (p.ncols > BIND_MAX_TABLE_COLUMNS)
		return floe_errorf(err, ERRCODE_TOO_MANY_COLUMNS, "tables can have at most %d columns",
				   BIND_MAX_TABLE_COLUMNS);
	def.dep_ns = ARENA_ARRAY(a, char *, nrels + 1);
	def.dep_names = ARENA_ARRAY(a, char *, nrels + 1);
	for (i = 0; i < nrels; i++) {
		bool dup = false;
		for (k = 0; k < def.ndeps; k++)
			dup = dup || (!strcmp(def.dep_ns[k], rns[i]) && !strcmp(def.dep_names[k], rnames[i]));
		if (dup || (!strcmp(rns[i], ns) && !strcmp(rnames[i], name)))
			continue;
		def.dep_ns[def.ndeps] = (char *)rns[i];
		def.dep_names[def.ndeps++] = (char *)rnames[i];
	}
	if (!(def.sql = deparse(a, vs->query, err)))
		return FLOE_ERR;
	/* the stored text must parse back to one SELECT */
	if (sql_parse(def.sql, a, &chk, &nchk, err) != FLOE_OK || nchk != 1)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot store this view's query: its text does not parse back");
	if (catalog_load_view(cat_of(s), ns, name, a, &loc, &e) == FLOE_OK) {
		if (!vs->replace)
			return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
		TRY(view_meta_read(s->engine->io, loc, a, &old, err));
		TRY(check_replace(old, &def, err));
		TRY(view_meta_write(s->engine->io, loc, NULL, &def, a, &path, err));
		TRY(catalog_swap_view(cat_of(s), ns, name, loc, path, err));
		return engine_complete(sink, "CREATE VIEW");
	}
	if (!floe_error_is(&e, ERRCODE_UNDEFINED_TABLE)) {
		*err = e;
		return FLOE_ERR;
	}
	if (table_exists(s, ns, name, a)) {
		if (vs->replace)
			return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a view", name);
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	}
	/* a temporary view's files: the session's scratch folder (temp.h) */
	TRY(view_meta_write(s->engine->io, NULL, temp ? temp_view_location(s, a) : NULL, &def, a, &path,
			    err));
	TRY(catalog_create_view(cat_of(s), ns, name, path, err));
	return engine_complete(sink, "CREATE VIEW");
}

/* ---- dependencies -------------------------------------------------------- */

typedef struct AllViews {
	int n;
	const char **ns, **names;
	ViewDef **defs;
	bool *drop;
} AllViews;

static int
all_views(Session *s, Arena *a, AllViews *av, floe_error *err)
{
	char **nss;
	int nns, i, k, cap = 0;

	memset(av, 0, sizeof *av);
	TRY(catalog_list_namespaces(cat_of(s), a, &nss, &nns, err));
	for (i = 0; i < nns; i++) {
		char **names;
		ViewDef **defs;
		int n;
		TRY(views_list(s, nss[i], a, &names, &defs, &n, err));
		if (av->n + n > cap) {
			int nc = (av->n + n) * 2 + 4;
			av->ns = arena_realloc(a, av->ns, sizeof(char *) * (size_t)cap, sizeof(char *) * (size_t)nc);
			av->names = arena_realloc(a, av->names, sizeof(char *) * (size_t)cap,
						  sizeof(char *) * (size_t)nc);
			av->defs = arena_realloc(a, av->defs, sizeof(ViewDef *) * (size_t)cap,
						 sizeof(ViewDef *) * (size_t)nc);
			av->drop = arena_realloc(a, av->drop, sizeof(bool) * (size_t)cap, sizeof(bool) * (size_t)nc);
			cap = nc;
		}
		for (k = 0; k < n; k++) {
			av->ns[av->n] = nss[i];
			av->names[av->n] = names[k];
			av->defs[av->n] = defs[k];
			av->drop[av->n++] = false;
		}
	}
	return FLOE_OK;
}

static bool
depends_on(const ViewDef *d, const char *ns, const char *name)
{
	int i;
	for (i = 0; i < d->ndeps; i++)
		if (!strcmp(d->dep_ns[i], ns) && !strcmp(d->dep_names[i], name))
			return true;
	return false;
}

/* Mark (drop[]) every view that depends, transitively, on one of the n
 * relations (ns[i], names[i]) or on a view already marked; the first
 * dependent found outside the marked set into *who / *on (for 2BP01).
 * Returns how many were marked. */
static int
mark_dependents(AllViews *av, int n, const char *const *ns, const char *const *names, bool schema,
		int *who, int *on)
{
	int marked = 0, i, k;
	bool more = true;
	*who = -1;
	while (more) {
		more = false;
		for (i = 0; i < av->n; i++) {
			if (av->drop[i])
				continue;
			for (k = 0; k < n && !av->drop[i]; k++)
				if (schema ? !strcmp(av->ns[i], ns[k]) : depends_on(av->defs[i], ns[k], names[k])) {
					av->drop[i] = true;
					if (*who < 0) {
						*who = i;
						*on = -1 - k;
					}
				}
			for (k = 0; k < av->n && !av->drop[i]; k++)
				if (av->drop[k] && depends_on(av->defs[i], av->ns[k], av->names[k])) {
					av->drop[i] = true;
					if (*who < 0) {
						*who = i;
						*on = k;
					}
				}
			if (av->drop[i]) {
				marked++;
				more = true;
			}
		}
	}
	return marked;
}

/* A view as PostgreSQL's getObjectDescription names it: qualified when
 * the search path does not find it by its bare name. */
static const char *
view_text(Session *s, const char *ns, const char *name, Arena *a)
{
	const char *vis = temp_resolve(s, NULL, name);

	if (!vis)
		vis = search_path_lookup(s, name);
	return vis && !strcmp(vis, ns) ? name : arena_sprintf(a, "%s.%s", ns, name);
}

/* PostgreSQL's order of the cascaded objects (dependency.c): from each
 * target in turn, depth first, the dependents taken newest first (OID
 * descending; here the views' creation times, then names), each appended
 * after its own dependents; the report reads that list backwards. */
typedef struct Cascade {
	AllViews *av;
	bool *seen;
	int *order, n;
} Cascade;

static void
cascade_visit(Cascade *c, const char *ns, const char *name, bool schema)
{
	AllViews *av = c->av;
	for (;;) {
		int i, best = -1;
		for (i = 0; i < av->n; i++) {
			if (!av->drop[i] || c->seen[i])
				continue;
			if (!(schema ? !strcmp(av->ns[i], ns) : depends_on(av->defs[i], ns, name)))
				continue;
			if (best < 0 || av->defs[i]->created_ms > av->defs[best]->created_ms ||
			    (av->defs[i]->created_ms == av->defs[best]->created_ms &&
			     strcmp(av->names[i], av->names[best]) > 0))
				best = i;
		}
		if (best < 0)
			return;
		c->seen[best] = true;
		cascade_visit(c, av->ns[best], av->names[best], false);
		c->order[c->n++] = best;
	}
}

#define MAX_REPORTED_DEPS 100   /* PostgreSQL's, in the client's DETAIL */

/* Drop the marked views (av->drop) with PostgreSQL's NOTICE: "drop
 * cascades to view v" for one, else "drop cascades to N other objects"
 * with one DETAIL line each.  The n targets (ns[i], names[i]; schemas when
 * schema) are where the walk starts; named[] marks views dropped by name. */
static int
drop_marked(Session *s, AllViews *av, const bool *named, int n, const char *const *ns,
	    const char *const *names, bool schema, Arena *a, ResultSink *sink, floe_error *err)
{
	Cascade c = { av, ARENA_ARRAY(a, bool, av->n + 1), ARENA_ARRAY(a, int, av->n + 1), 0 };
	int i, k, total = 0, shown = 0;
	char *detail = NULL;

	for (i = 0; i < av->n; i++)
		c.seen[i] = named[i];
	/* a named view is a target too: its dependents are found under it */
	for (k = 0; k < n; k++)
		cascade_visit(&c, ns[k], names[k], schema);
	for (i = 0; i < av->n; i++)   /* none left out (not reached above) */
		if (av->drop[i] && !c.seen[i]) {
			c.seen[i] = true;
			c.order[c.n++] = i;
		}
	for (i = c.n - 1; i >= 0; i--) {
		const char *line = arena_sprintf(a, "drop cascades to view %s",
						 view_text(s, av->ns[c.order[i]], av->names[c.order[i]], a));
		total++;
		if (shown < MAX_REPORTED_DEPS) {
			detail = detail ? arena_sprintf(a, "%s\n%s", detail, line) : (char *)line;
			shown++;
		}
	}
	if (total > shown)
		detail = arena_sprintf(a, "%s\nand %d other objects (see server log for list)", detail,
				       total - shown);
	if (total == 1)
		engine_notice(sink, "%s", detail);
	else if (total > 1 && sink && sink->notice) {
		floe_error nt;
		floe_errorf(&nt, "00000", "drop cascades to %d other objects", total);
		floe_error_detail(&nt, "%s", detail);
		sink->notice(sink->ctx, &nt);
	}
	for (i = 0; i < c.n; i++)
		TRY(catalog_drop_view(cat_of(s), av->ns[c.order[i]], av->names[c.order[i]], err));
	return FLOE_OK;
}

static void
obj_name(Session *s, Node *obj, const char **ns, const char **name)
{
	PgQuery__List *l = obj->list;
	*name = l->items[l->n_items - 1]->string->sval;
	*ns = l->n_items >= 2 ? l->items[l->n_items - 2]->string->sval : search_path_lookup(s, *name);
}

int
views_drop(Session *s, PgQuery__DropStmt *ds, Arena *a, ResultSink *sink, floe_error *err, bool *done)
{
	bool cascade = ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
	bool is_view = ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW;
	bool is_schema = ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA;
	const char **ns, **names;
	AllViews av;
	bool *named;
	size_t i;
	int n = 0, k, who, on, marked;

	*done = false;
	if (ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX) {   /* indexes.c */
		*done = true;
		return indexes_drop(s, ds, a, sink, err);
	}
	if (!is_view && !is_schema && ds->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		return FLOE_OK;
	ns = ARENA_ARRAY(a, const char *, ds->n_objects + 1);
	names = ARENA_ARRAY(a, const char *, ds->n_objects + 1);
	for (i = 0; i < ds->n_objects; i++) {
		const char *o_ns, *o_name;
		if (is_schema) {
			ns[n] = ds->objects[i]->string->sval;
			names[n++] = "";
			continue;
		}
		if (ds->objects[i]->node_case != PG_QUERY__NODE__NODE_LIST ||
		    ds->objects[i]->list->n_items > 2)
			return FLOE_OK;   /* ddl.c words the error */
		obj_name(s, ds->objects[i], &o_ns, &o_name);
		if (is_view && !views_exists(s, o_ns, o_name)) {
			if (table_exists(s, o_ns, o_name, a)) {
				floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a view", o_name);
				return floe_error_hint(err, "Use DROP TABLE to remove a table.");
			}
			if (ds->missing_ok) {
				engine_notice(sink, "view \"%s\" does not exist, skipping", o_name);
				continue;
			}
			return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "view \"%s\" does not exist", o_name);
		}
		if (!is_view && views_exists(s, o_ns, o_name)) {
			floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a table", o_name);
			return floe_error_hint(err, "Use DROP VIEW to remove a view.");
		}
		ns[n] = o_ns;
		names[n++] = o_name;
	}
	TRY(all_views(s, a, &av, err));
	/* the views dropped by name are not dependents */
	for (k = 0; is_view && k < av.n; k++)
		for (i = 0; i < (size_t)n; i++)
			if (!strcmp(av.ns[k], ns[i]) && !strcmp(av.names[k], names[i]))
				av.drop[k] = true;
	named = ARENA_ARRAY(a, bool, av.n + 1);
	{
		if (av.n)
			memcpy(named, av.drop, sizeof(bool) * (size_t)av.n);
		marked = mark_dependents(&av, n, ns, names, is_schema, &who, &on);
		if (marked > 0 && !cascade && !is_schema) {
			const char *what = is_view ? "view" : "table";
			const char *on_name = on < 0 ? names[-1 - on] : av.names[on];
			const char *on_what = on < 0 ? what : "view";
			floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				    "cannot drop %s %s because other objects depend on it", what,
				    on < 0 ? on_name : names[0]);
			floe_error_detail(err, "view %s depends on %s %s", av.names[who], on_what, on_name);
			return floe_error_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
		}
		if (is_schema && marked > 0 && !cascade) {
			floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				    "cannot drop schema %s because other objects depend on it", ns[0]);
			floe_error_detail(err, "view %s.%s depends on schema %s", av.ns[who], av.names[who], ns[0]);
			return floe_error_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
		}
		/* the named views are dropped below, not as cascades */
		for (k = 0; k < av.n; k++)
			if (named[k])
				av.drop[k] = false;
	}
	TRY(drop_marked(s, &av, named, n, ns, names, is_schema, a, sink, err));
	if (!is_view)
		return FLOE_OK;   /* ddl.c drops the tables / schemas */
	for (k = 0; k < n; k++)
		TRY(catalog_drop_view(cat_of(s), ns[k], names[k], err));
	*done = true;
	return engine_complete(sink, "DROP VIEW");
}

/* ---- ALTER VIEW ---------------------------------------------------------- */

static int
view_rename(Session *s, ExecCtx *ctx, PgQuery__RenameStmt *rs, ResultSink *sink)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	const char *ns = ddl_rv_ns(s, rs->relation), *name = rs->relation->relname;
	char *loc, *path;
	ViewDef *d;
	AllViews av;
	int i, who, on;

	if (!views_exists(s, ns, name)) {
		if (table_exists(s, ns, name, a))
			return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a view", name);
		if (rs->missing_ok) {
			engine_notice(sink, "relation \"%s\" does not exist, skipping", name);
			return engine_complete(sink, "ALTER VIEW");
		}
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
	}
	TRY(load_def(s, ns, name, a, &loc, &d, err));
	if (rs->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN) {
		int at = -1;
		ViewDef nd = *d;
		for (i = 0; i < d->ncols; i++) {
			if (!strcmp(d->names[i], rs->subname))
				at = i;
			if (!strcmp(d->names[i], rs->newname))
				return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
						   "column \"%s\" of relation \"%s\" already exists", rs->newname, name);
		}
		if (at < 0)
			return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist",
					   rs->subname);
		nd.names = ARENA_ARRAY(a, char *, d->ncols + 1);
		memcpy(nd.names, d->names, sizeof(char *) * (size_t)d->ncols);
		nd.names[at] = rs->newname;
		nd.ns = ns;
		nd.name = name;
		TRY(view_meta_write(s->engine->io, loc, NULL, &nd, a, &path, err));
		TRY(catalog_swap_view(cat_of(s), ns, name, loc, path, err));
		return engine_complete(sink, "ALTER VIEW");
	}
	/* renaming: views over this one name it in their text */
	TRY(all_views(s, a, &av, err));
	if (mark_dependents(&av, 1, &ns, &name, false, &who, &on) > 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot rename view \"%s\": view %s depends on it (floe stores views by name)",
				   name, av.names[who]);
	if (table_exists(s, ns, rs->newname, a))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", rs->newname);
	TRY(catalog_rename_view(cat_of(s), ns, name, rs->newname, err));
	return engine_complete(sink, "ALTER VIEW");
}

int
views_check_rename(Session *s, const char *ns, const char *name, Arena *a, floe_error *err)
{
	AllViews av;
	int who, on;
	TRY(all_views(s, a, &av, err));
	if (mark_dependents(&av, 1, &ns, &name, false, &who, &on) > 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot rename \"%s\": view %s depends on it (floe stores views by name)",
				   name, av.names[who]);
	return FLOE_OK;
}

bool
views_owns(const Node *n)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_VIEW_STMT:
	case PG_QUERY__NODE__NODE_INDEX_STMT:   /* indexes.c */
		return true;
	case PG_QUERY__NODE__NODE_RENAME_STMT:
		return n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW ||
		       (n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN &&
			n->rename_stmt->relation_type == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW);
	case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
		return n->alter_table_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW;
	default:
		return false;
	}
}

int
views_exec(Session *s, ExecCtx *ctx, const char *sql, Node *n, ResultSink *sink)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_VIEW_STMT:
		return view_create(s, ctx, sql, n->view_stmt, sink);
	case PG_QUERY__NODE__NODE_INDEX_STMT:
		return indexes_create(s, ctx, sql, n->index_stmt, sink);
	case PG_QUERY__NODE__NODE_RENAME_STMT:
		return view_rename(s, ctx, n->rename_stmt, sink);
	default:
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "this form of ALTER VIEW is not supported yet (RENAME TO and RENAME COLUMN are)");
	}
}

/* ---- writes -------------------------------------------------------------- */

void
views_write_error(Session *s, const Node *n, Arena *a, floe_error *err)
{
	PgQuery__RangeVar *rv = NULL;
	const char *verb = NULL, *ns, *name;

	(void)a;
	if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
		return;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_INSERT_STMT: rv = n->insert_stmt->relation; verb = "insert into"; break;
	case PG_QUERY__NODE__NODE_UPDATE_STMT: rv = n->update_stmt->relation; verb = "update"; break;
	case PG_QUERY__NODE__NODE_DELETE_STMT: rv = n->delete_stmt->relation; verb = "delete from"; break;
	case PG_QUERY__NODE__NODE_MERGE_STMT: rv = n->merge_stmt->relation; verb = "merge into"; break;
	case PG_QUERY__NODE__NODE_COPY_STMT:
		if (n->copy_stmt->is_from) {
			rv = n->copy_stmt->relation;
			verb = "copy to";
		}
		break;
	case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
		if (n->truncate_stmt->n_relations == 1 &&
		    n->truncate_stmt->relations[0]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) {
			rv = n->truncate_stmt->relations[0]->range_var;
			verb = "truncate";
		}
		break;
	default:
		break;
	}
	if (!rv)
		return;
	ns = ddl_rv_ns(s, rv);
	name = rv->relname;
	if (!views_exists(s, ns, name))
		return;
	floe_error_clear(err);
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "cannot %s view \"%s\"", verb, name);
	floe_error_detail(err, "floe does not write through views yet.");
	floe_error_hint(err, "Write to the view's base table instead.");
}
