/*
 * check.c — CHECK constraints (check.h).  Spec: PostgreSQL 15 CREATE
 * TABLE / ALTER TABLE (CHECK, ADD / DROP / VALIDATE CONSTRAINT), and its
 * behaviour as a PostgreSQL 15 server shows it (tests/sql/pgdiff/
 * check_constraints.test).
 *
 * Storage: table property "floe.check.<name>" = "v|<expr>" or "n|<expr>"
 * (NOT VALID), <expr> libpg_query's text of the expression.  Names follow
 * PostgreSQL's ChooseConstraintName: "<table>_<column>_check" when the
 * expression reads exactly one column, else "<table>_check", truncated to
 * 63 bytes as makeObjectName does, the label getting 1, 2, ... until the
 * name is free among the table's constraints and those of every other
 * table of its schema (their CHECKs and "<table>_pkey"s), as PostgreSQL
 * looks at all of the schema's pg_constraint rows.
 *
 * Enforcement: check_constraints_bind binds every constraint over the
 * table's current columns once per statement; check_constraints_rows
 * evaluates them on a batch (one column per field, in order) and reports
 * the first row that makes one FALSE (NULL passes), and for that row the
 * first constraint by name (PostgreSQL sorts a relation's checks by name):
 * 23514 `new row for relation "t" violates check constraint "c"` with
 * `Failing row contains (...)`.
 *
 * Refused as PostgreSQL refuses: subqueries (0A000), aggregates (42803),
 * window functions (42P20), parameters (42P02), a non-boolean expression
 * (42804), unknown columns (42703).  NO INHERIT is accepted and recorded
 * ("vi|" / "ni|"), shown as PostgreSQL shows it (pg_get_constraintdef's
 * " NO INHERIT", connoinherit): floe tables have no inheritance, so it
 * changes nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sql/check.h"
#include "sql/engine.h"
#include "sql/rowscan.h"
#include "sql/txn.h"
#include "types/text.h"
#include "types/udt.h"
#include "sql/usertype.h"

#define PREFIX "floe.check."
#define NAME_MAX_BYTES 63        /* NAMEDATALEN - 1 */

struct CheckBound {
	const char *table;
	int n;
	const char **names;
	const char **domain;      /* a domain's constraint: the domain, else NULL */
	bool *notnull;            /* ... its NOT NULL */
	Expr **exprs;
	int nfields;
	Arena *scratch;
};

/* ---- the stored list ------------------------------------------------- */

static int
def_cmp(const void *x, const void *y)
{
	return strcmp(((const CheckDef *)x)->name, ((const CheckDef *)y)->name);
}

int
check_list(const TableMetadata *md, Arena *a, CheckDef **out)
{
	int i, n = 0;

	*out = ARENA_ARRAY(a, CheckDef, md->nproperties + 1);
	for (i = 0; i < md->nproperties; i++) {
		const char *k = md->properties[i].key, *v = md->properties[i].value;
		bool ni;
		if (strncmp(k, PREFIX, sizeof PREFIX - 1) != 0 || !v || (v[0] != 'v' && v[0] != 'n'))
			continue;
		ni = v[1] == 'i';
		if (v[1 + ni] != '|')
			continue;
		(*out)[n].name = k + sizeof PREFIX - 1;
		(*out)[n].valid = v[0] == 'v';
		(*out)[n].noinherit = ni;
		(*out)[n].expr = v + 2 + ni;
		n++;
	}
	qsort(*out, (size_t)n, sizeof **out, def_cmp);
	return n;
}

static const char *
prop_key(Arena *a, const char *name)
{
	return arena_sprintf(a, PREFIX "%s", name);
}

static const char *
prop_value(Arena *a, const CheckDef *d)
{
	return arena_sprintf(a, "%c%s|%s", d->valid ? 'v' : 'n', d->noinherit ? "i" : "", d->expr);
}

void
check_add_props(const CheckList *list, Arena *a, const char ***keys, const char ***values, int *n)
{
	const char **k, **v;
	int i;

	if (!list->n)
		return;
	k = ARENA_ARRAY(a, const char *, *n + list->n + 1);
	v = ARENA_ARRAY(a, const char *, *n + list->n + 1);
	/* the reserved "format-version" stays last (ddl_create_options) */
	for (i = 0; i < *n; i++) {
		k[i + list->n] = (*keys)[i];
		v[i + list->n] = (*values)[i];
	}
	for (i = 0; i < list->n; i++) {
		k[i] = prop_key(a, list->d[i].name);
		v[i] = prop_value(a, &list->d[i]);
	}
	*keys = k;
	*values = v;
	*n += list->n;
}

/* ---- expression text --------------------------------------------------- */

/* libpg_query's text of expression n (as the only target of a SELECT) */
static char *
deparse_expr(Arena *a, Node *n, floe_error *err)
{
	PgQuery__ResTarget rt = PG_QUERY__RES_TARGET__INIT, *rtp = &rt;
	PgQuery__Node rtn = PG_QUERY__NODE__INIT, *rtnp = &rtn, sn = PG_QUERY__NODE__INIT;
	PgQuery__SelectStmt sel = PG_QUERY__SELECT_STMT__INIT;
	const char *why = "not a SELECT";
	char *q;

	rt.val = n;
	rtn.node_case = PG_QUERY__NODE__NODE_RES_TARGET;
	rtn.res_target = rtp;
	sel.n_target_list = 1;
	sel.target_list = &rtnp;
	sel.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
	sel.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
	sn.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
	sn.select_stmt = &sel;
	q = sql_deparse(&sn, a, &why);
	if (q && !strncmp(q, "SELECT ", 7))
		return q + 7;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "cannot store this check constraint: %s", why);
	return NULL;
}

/* the first SubLink in n, or NULL */
static int
find_sublink(const ProtobufCMessage *m, void *arg)
{
	const Node *n = (const Node *)m;

	if (m->descriptor == &pg_query__node__descriptor &&
	    n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
		*(const PgQuery__SubLink **)arg = n->sub_link;
		return 1;
	}
	return sql_children(m, find_sublink, arg);
}

/* ---- binding ------------------------------------------------------------ */

/* Bind n over schema's columns as a CHECK expression (sql: the text its
 * positions point into, or NULL). */
static Expr *
bind_check(Session *s, Arena *a, floe_error *err, const char *sql, const IcebergSchema *sc,
	   const char *relname, Node *n)
{
	BindCtx b;
	Scope scope;
	const PgQuery__SubLink *sl = NULL;
	Expr *e;
	int i;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	b.sql = sql;
	b.where = "check constraints";
	if (find_sublink(&n->base, &sl)) {
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "cannot use subquery in check constraint");
		if (sql && sl->location >= 0)
			floe_error_position(err, bind_location(&b, sl->location));
		return NULL;
	}
	memset(&scope, 0, sizeof scope);
	scope.ncols = sc->nfields;
	scope.names = ARENA_ARRAY(a, char *, sc->nfields + 1);
	scope.types = ARENA_ARRAY(a, SqlType, sc->nfields + 1);
	for (i = 0; i < sc->nfields; i++) {
		scope.names[i] = sc->fields[i].name;
		scope.types[i] = sc->fields[i].type;
	}
	scope.relname = (char *)relname;
	b.scope = &scope;
	if (!(e = bind_expr(&b, n)))
		return NULL;
	return bind_coerce_bool(&b, e, "CHECK");
}

/* the columns e reads: *ncols distinct ones, the first in *first */
static void
expr_columns(const Expr *e, bool *seen, int nf, int *ncols, int *first)
{
	int i;

	if (!e)
		return;
	if (e->kind == EXPR_COLREF && e->col >= 0 && e->col < nf && !seen[e->col]) {
		seen[e->col] = true;
		if (*ncols == 0)
			*first = e->col;
		(*ncols)++;
	}
	for (i = 0; i < e->nargs; i++)
		expr_columns(e->args[i], seen, nf, ncols, first);
}

static int strip_qualifiers(const ProtobufCMessage *m, void *arg);

/* ---- names ------------------------------------------------------------ */

/* PostgreSQL's makeObjectName: name1[_name2]_label within 63 bytes, the
 * longer of name1 / name2 cut first */
static char *
object_name(Arena *a, const char *name1, const char *name2, const char *label)
{
	int overhead = (int)strlen(label) + 1, avail, n1 = (int)strlen(name1);
	int n2 = name2 ? (int)strlen(name2) : 0;

	if (name2)
		overhead++;
	avail = NAME_MAX_BYTES - overhead;
	while (n1 + n2 > avail) {
		if (n1 > n2)
			n1--;
		else
			n2--;
	}
	/* never cut a UTF-8 character in two */
	while (n1 > 0 && ((unsigned char)name1[n1] & 0xC0) == 0x80)
		n1--;
	while (n2 > 0 && ((unsigned char)name2[n2] & 0xC0) == 0x80)
		n2--;
	if (name2)
		return arena_sprintf(a, "%.*s_%.*s_%s", n1, name1, n2, name2, label);
	return arena_sprintf(a, "%.*s_%s", n1, name1, label);
}

static bool
name_taken(const char *name, const CheckDef *d, int n, const char *table, bool has_pk, Arena *a)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return true;
	return has_pk && !strcmp(name, arena_sprintf(a, "%s_pkey", table));
}

/* The constraint names of the other tables of schema ns (their CHECKs and
 * primary keys), which ChooseConstraintName avoids too: PostgreSQL looks
 * for the name among all of the schema's pg_constraint rows.  A table
 * that does not load has no names to avoid. */
static int
schema_names(Session *s, const char *ns, const char *table, Arena *a, const char ***out, int *nout,
	     floe_error *err)
{
	char **names;
	int nt, i, k, cap = 16;

	*nout = 0;
	*out = ARENA_ARRAY(a, const char *, cap);
	TRY(catalog_list_tables(s->engine->catalog, ns, a, &names, &nt, err));
	for (i = 0; i < nt; i++) {
		const IcebergSchema *sc;
		CheckDef *d;
		Table *tb;
		floe_error e;
		int nd;
		if (!strcmp(names[i], table) ||
		    table_load(s->engine->catalog, s->engine->io, ns, names[i], a, &tb, &e) != FLOE_OK)
			continue;
		nd = check_list(tb->md, a, &d);
		sc = metadata_current_schema(tb->md);
		if (*nout + nd + 1 > cap) {
			int nc = (*nout + nd + 1) * 2;
			*out = arena_realloc(a, *out, sizeof(char *) * (size_t)cap, sizeof(char *) * (size_t)nc);
			cap = nc;
		}
		for (k = 0; k < nd; k++)
			(*out)[(*nout)++] = d[k].name;
		if (sc && sc->nidentifier > 0)
			(*out)[(*nout)++] = arena_sprintf(a, "%s_pkey", names[i]);
	}
	return FLOE_OK;
}

static bool
in_names(const char *name, const char *const *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

static int
choose_name(Session *s, const char *ns, Arena *a, const char *table, const char *col,
	    const CheckDef *d, int n, bool has_pk, const char **out, floe_error *err)
{
	int pass, nother;
	const char **other;
	const char *name = object_name(a, table, col, "check");

	TRY(schema_names(s, ns, table, a, &other, &nother, err));
	for (pass = 1; name_taken(name, d, n, table, has_pk, a) || in_names(name, other, nother); pass++)
		name = object_name(a, table, col, arena_sprintf(a, "check%d", pass));
	*out = name;
	return FLOE_OK;
}

static void
list_push(CheckList *l, Arena *a, const CheckDef *d)
{
	if (l->n == l->cap) {
		int nc = l->cap ? l->cap * 2 : 8;
		l->d = arena_realloc(a, l->d, sizeof(CheckDef) * (size_t)l->cap, sizeof(CheckDef) * (size_t)nc);
		l->cap = nc;
	}
	l->d[l->n++] = *d;
}

/* Validate c (a CONSTR_CHECK) over sc, name it against the names in
 * taken[0..ntaken), and fill *out. */
static int
define(Session *s, const char *sql, const IcebergSchema *sc, const char *ns, const char *table,
       bool has_pk,
       PgQuery__Constraint *c, const CheckDef *taken, int ntaken, bool in_create, Arena *a,
       CheckDef *out, floe_error *err)
{
	Expr *e;
	bool *seen;
	int ncols = 0, first = -1;

	if (!c->raw_expr)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this check constraint is not supported");
	if (!(e = bind_check(s, a, err, sql, sc, table, c->raw_expr)))
		return FLOE_ERR;
	strip_qualifiers(&c->raw_expr->base, NULL);
	if (!(out->expr = deparse_expr(a, c->raw_expr, err)))
		return FLOE_ERR;
	out->valid = !c->skip_validation;
	out->noinherit = c->is_no_inherit;
	if (c->conname && c->conname[0]) {
		if (name_taken(c->conname, taken, ntaken, table, has_pk && !in_create, a)) {
			if (in_create)
				return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT,
						   "check constraint \"%s\" already exists", c->conname);
			return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT,
					   "constraint \"%s\" for relation \"%s\" already exists", c->conname,
					   table);
		}
		out->name = arena_strdup(a, c->conname);
		return FLOE_OK;
	}
	seen = ARENA_ARRAY(a, bool, sc->nfields + 1);
	memset(seen, 0, sizeof(bool) * (size_t)(sc->nfields + 1));
	expr_columns(e, seen, sc->nfields, &ncols, &first);
	return choose_name(s, ns, a, table, ncols == 1 ? sc->fields[first].name : NULL, taken, ntaken,
			   has_pk, &out->name, err);
}

int
check_create(Session *s, const char *sql, const IcebergSchema *schema, const char *ns,
	     const char *table, bool has_pk, PgQuery__Constraint *c, CheckList *list, Arena *a, floe_error *err)
{
	CheckDef d;

	if (c->skip_validation)     /* CREATE TABLE's grammar has no NOT VALID here */
		c->skip_validation = false;
	TRY(define(s, sql, schema, ns, table, has_pk, c, list->d, list->n, true, a, &d, err));
	list_push(list, a, &d);
	return FLOE_OK;
}

/* ---- enforcement -------------------------------------------------------- */

/* A domain constraint of field f: expr over VALUE, VALUE being column f. */
static Expr *
bind_domain_expr(Session *s, Arena *a, floe_error *err, const IcebergSchema *sc, int f,
		 const char *text)
{
	IcebergSchema one = *sc;
	Node *node;
	int i;

	one.fields = ARENA_ARRAY(a, IcebergField, sc->nfields + 1);
	for (i = 0; i < sc->nfields; i++) {
		one.fields[i] = sc->fields[i];
		one.fields[i].name = i == f ? "value" : "\001";   /* only VALUE binds */
		one.fields[i].type = type_domain_base(sc->fields[i].type);
	}
	if (sql_parse_expr(text, a, &node, err) != FLOE_OK)
		return NULL;
	return bind_check(s, a, err, NULL, &one, NULL, node);
}

/* the domain constraints of the table's columns, appended to cb */
static int
bind_domains(Session *s, ExecCtx *ctx, const IcebergSchema *sc, CheckBound *cb, int cap)
{
	int f, k;

	for (f = 0; f < sc->nfields; f++) {
		const Udt *chain[16];
		int nc = type_is_domain(sc->fields[f].type) ?
			 udt_domain_chain(sc->fields[f].type.udt, chain, 16) : 0, j;
		for (j = 0; j < nc; j++) {   /* a base domain's first */
			const Udt *u = chain[j];
			for (k = -1; k < u->nchecks; k++) {
				const char *text = k < 0 ? (u->notnull ? "value IS NOT NULL" : NULL) :
						   u->check_exprs[k];
				if (!text || cb->n == cap)
					continue;
				cb->domain[cb->n] = u->name;
				cb->notnull[cb->n] = k < 0;
				cb->names[cb->n] = k < 0 ? "" : u->check_names[k];
				if (!(cb->exprs[cb->n] = bind_domain_expr(s, ctx->arena, ctx->err, sc, f, text)))
					return FLOE_ERR;
				cb->n++;
			}
		}
	}
	return FLOE_OK;
}

static int
domain_count(const IcebergSchema *sc)
{
	int f, n = 0;
	for (f = 0; f < sc->nfields; f++) {
		const Udt *chain[16];
		int nc = type_is_domain(sc->fields[f].type) ?
			 udt_domain_chain(sc->fields[f].type.udt, chain, 16) : 0, j;
		for (j = 0; j < nc; j++)
			n += chain[j]->nchecks + 1;
	}
	return n;
}

int
check_constraints_bind(Session *s, ExecCtx *ctx, const Table *t, CheckBound **out)
{
	const IcebergSchema *sc = metadata_current_schema(t->md);
	CheckDef *defs;
	CheckBound *cb;
	int n = check_list(t->md, ctx->arena, &defs), i, nd = domain_count(sc);

	*out = NULL;
	if (n + nd == 0)
		return FLOE_OK;
	cb = ARENA_NEW(ctx->arena, CheckBound);
	cb->table = t->name;
	cb->nfields = sc->nfields;
	cb->names = ARENA_ARRAY(ctx->arena, const char *, n + nd);
	cb->domain = ARENA_ARRAY(ctx->arena, const char *, n + nd);
	cb->notnull = ARENA_ARRAY(ctx->arena, bool, n + nd);
	cb->exprs = ARENA_ARRAY(ctx->arena, Expr *, n + nd);
	/* a domain's constraints first: PostgreSQL checks them as the values
	 * are coerced, before the row's */
	TRY(bind_domains(s, ctx, sc, cb, nd));
	for (i = 0; i < n; i++) {
		Node *node;
		int at = cb->n++;
		cb->names[at] = defs[i].name;
		if (sql_parse_expr(defs[i].expr, ctx->arena, &node, ctx->err) != FLOE_OK ||
		    !(cb->exprs[at] = bind_check(s, ctx->arena, ctx->err, NULL, sc, t->name, node))) {
			floe_error_prefix(ctx->err, arena_sprintf(ctx->arena, "check constraint \"%s\": ",
								  defs[i].name));
			return FLOE_ERR;
		}
	}
	cb->scratch = arena_new(64 * 1024);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, cb->scratch);
	*out = cb;
	return FLOE_OK;
}

static int
rows_check(const CheckBound *cb, ExecCtx *ctx, const Batch *b, const uint32_t *sel, uint32_t n,
	   bool domains_only)
{
	uint32_t best = n, i;
	int bad = -1, k;

	if (!cb || n == 0)
		return FLOE_OK;
	arena_reset(cb->scratch);
	for (k = 0; k < cb->n; k++) {
		Vector v;
		VectorView vv;
		if (domains_only && !cb->domain[k])
			break;      /* the domains' come first */
		TRY(expr_eval(ctx, cb->exprs[k], b, sel, n, cb->scratch, &v));
		vector_view(&v, &vv);
		for (i = 0; i < best; i++) {
			uint32_t r = sel ? sel[i] : i, x = vv.sel ? vv.sel[r] : r;
			if (validity_get(vv.validity, x) && !((const uint8_t *)vv.data)[x]) {
				best = i;
				bad = k;
				break;
			}
		}
	}
	if (bad < 0)
		return FLOE_OK;
	if (cb->domain[bad] && cb->notnull[bad])
		return floe_errorf(ctx->err, ERRCODE_NOT_NULL_VIOLATION,
				   "domain %s does not allow null values", cb->domain[bad]);
	if (cb->domain[bad])
		return floe_errorf(ctx->err, ERRCODE_CHECK_VIOLATION,
				   "value for domain %s violates check constraint \"%s\"", cb->domain[bad],
				   cb->names[bad]);
	floe_errorf(ctx->err, ERRCODE_CHECK_VIOLATION,
		    "new row for relation \"%s\" violates check constraint \"%s\"", cb->table,
		    cb->names[bad]);
	insert_row_detail(ctx->err, b, cb->nfields, sel ? sel[best] : best, cb->scratch);
	return FLOE_ERR;
}

int
check_constraints_rows(const CheckBound *cb, ExecCtx *ctx, const Batch *b, const uint32_t *sel,
		       uint32_t n)
{
	return rows_check(cb, ctx, b, sel, n, false);
}

int
check_domain_rows(const CheckBound *cb, ExecCtx *ctx, const Batch *b, const uint32_t *sel,
		  uint32_t n)
{
	if (!cb || cb->n == 0 || !cb->domain[0])
		return FLOE_OK;
	return rows_check(cb, ctx, b, sel, n, true);
}

/* ---- ALTER TABLE ------------------------------------------------------ */

/* ColumnRefs of n lose their table qualifier (t.a -> a): the stored text
 * survives ALTER TABLE ... RENAME TO */
static int
strip_qualifiers(const ProtobufCMessage *m, void *arg)
{
	Node *n = (Node *)m;

	if (m->descriptor == &pg_query__node__descriptor &&
	    n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && n->column_ref->n_fields > 1 &&
	    n->column_ref->fields[n->column_ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_STRING) {
		n->column_ref->fields += n->column_ref->n_fields - 1;
		n->column_ref->n_fields = 1;
		return 0;
	}
	return sql_children(m, strip_qualifiers, arg);
}

/* 23514 when a current row of t makes expr FALSE */
static int
validate_rows(Session *s, const Table *t, const CheckDef *d, Arena *a, floe_error *err)
{
	bool found;

	TRY(rowscan_first(s, t, "1", arena_sprintf(a, "WHERE NOT (%s)", d->expr), a, NULL, &found,
			  err));
	if (found)
		return floe_errorf(err, ERRCODE_CHECK_VIOLATION,
				   "check constraint \"%s\" of relation \"%s\" is violated by some row", d->name,
				   t->name);
	return FLOE_OK;
}

bool
check_is_alter_cmd(const PgQuery__AlterTableCmd *c)
{
	return c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint ||
	       c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint ||
	       c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ValidateConstraint;
}

static int
no_constraint(const char *name, const char *table, floe_error *err)
{
	return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "constraint \"%s\" of relation \"%s\" does not exist",
			   name, table);
}

int
check_alter(Session *s, ExecCtx *ctx, const char *sql, const Table *t, TableMetadata *md,
	    const PgQuery__AlterTableCmd *c, ResultSink *sink, bool *changed)
{
	Arena *a = ctx->arena;
	floe_error *err = ctx->err;
	const IcebergSchema *sc = metadata_current_schema(md);
	bool has_pk = sc->nidentifier > 0;
	CheckDef *defs, d;
	int n = check_list(md, a, &defs), i;

	(void)changed;
	if (c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint) {
		PgQuery__Constraint *k = c->def && c->def->node_case == PG_QUERY__NODE__NODE_CONSTRAINT ?
			c->def->constraint : NULL;
		if (!k || k->contype != PG_QUERY__CONSTR_TYPE__CONSTR_CHECK)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "ALTER TABLE ... ADD CONSTRAINT is supported for CHECK constraints only (PRIMARY KEY, UNIQUE, FOREIGN KEY: not yet)");
		TRY(define(s, sql, sc, t->ns, t->name, has_pk, k, defs, n, false, a, &d, err));
		if (d.valid)
			TRY(validate_rows(s, t, &d, a, err));
		metadata_set_property(md, prop_key(a, d.name), prop_value(a, &d), a);
		return FLOE_OK;
	}
	for (i = 0; i < n && strcmp(defs[i].name, c->name); i++)
		;
	if (c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint) {
		if (i == n) {
			if (has_pk && !strcmp(c->name, arena_sprintf(a, "%s_pkey", t->name)))
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "dropping the primary key constraint \"%s\" is not supported yet",
						   c->name);
			if (c->missing_ok) {
				engine_notice(sink, "%s", arena_sprintf(a, "constraint \"%s\" of relation \"%s\" does not exist, skipping",
									c->name, t->name));
				return FLOE_OK;
			}
			return no_constraint(c->name, t->name, err);
		}
		metadata_set_property(md, prop_key(a, c->name), NULL, a);
		return FLOE_OK;
	}
	/* VALIDATE CONSTRAINT */
	if (i == n) {
		if (has_pk && !strcmp(c->name, arena_sprintf(a, "%s_pkey", t->name)))
			return FLOE_OK;
		return no_constraint(c->name, t->name, err);
	}
	if (defs[i].valid)
		return FLOE_OK;
	d = defs[i];
	TRY(validate_rows(s, t, &d, a, err));
	d.valid = true;
	metadata_set_property(md, prop_key(a, d.name), prop_value(a, &d), a);
	return FLOE_OK;
}

/* ---- RENAME COLUMN / DROP COLUMN ------------------------------------------ */

typedef struct ColWalk {
	const char *from, *to;   /* rename from -> to (to NULL: only look) */
	bool found;
	Arena *a;
	PgQuery__TypeName *cast; /* non-NULL: from becomes (from)::cast */
} ColWalk;

static int
walk_columns(const ProtobufCMessage *m, void *arg)
{
	ColWalk *w = arg;
	Node *n = (Node *)m;

	if (m->descriptor == &pg_query__node__descriptor && n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
		PgQuery__ColumnRef *cr = n->column_ref;
		Node *last = cr->n_fields ? cr->fields[cr->n_fields - 1] : NULL;
		if (last && last->node_case == PG_QUERY__NODE__NODE_STRING && !strcmp(last->string->sval, w->from)) {
			w->found = true;
			if (w->to)
				last->string->sval = arena_strdup(w->a, w->to);
			if (w->cast) {   /* n becomes a TypeCast of a copy of itself */
				Node *ref = ARENA_NEW(w->a, Node);
				*ref = *n;
				pg_query__node__init(n);
				n->node_case = PG_QUERY__NODE__NODE_TYPE_CAST;
				n->type_cast = ARENA_NEW(w->a, PgQuery__TypeCast);
				pg_query__type_cast__init(n->type_cast);
				n->type_cast->arg = ref;
				n->type_cast->type_name = w->cast;
				n->type_cast->location = -1;
			}
		}
		return 0;
	}
	return sql_children(m, walk_columns, arg);
}

static int
rewrite_all(TableMetadata *md, const char *from, const char *to, Arena *a, floe_error *err)
{
	CheckDef *defs;
	int n = check_list(md, a, &defs), i;

	for (i = 0; i < n; i++) {
		ColWalk w = { from, to, false, a, NULL };
		Node *node;
		CheckDef d = defs[i];
		TRY(sql_parse_expr(d.expr, a, &node, err));
		walk_columns(&node->base, &w);
		if (!w.found)
			continue;
		if (!to) {   /* DROP COLUMN: the constraint goes with it */
			metadata_set_property(md, prop_key(a, d.name), NULL, a);
			continue;
		}
		if (!(d.expr = deparse_expr(a, node, err)))
			return FLOE_ERR;
		metadata_set_property(md, prop_key(a, d.name), prop_value(a, &d), a);
	}
	return FLOE_OK;
}

int
check_rename_column(TableMetadata *md, const char *from, const char *to, Arena *a, floe_error *err)
{
	return rewrite_all(md, from, to, a, err);
}

int
check_drop_column(TableMetadata *md, const char *col, Arena *a, floe_error *err)
{
	return rewrite_all(md, col, NULL, a, err);
}

int
check_alter_type(Session *s, const Table *t, const TableMetadata *md, const char *col,
		 PgQuery__TypeName *type, Arena *a, floe_error *err)
{
	CheckDef *defs;
	int n = check_list(md, a, &defs), i;

	for (i = 0; i < n; i++) {
		ColWalk w = { col, NULL, false, a, type };
		Node *node;
		CheckDef d = defs[i];
		if (!d.valid)   /* PostgreSQL re-adds a NOT VALID one unchecked */
			continue;
		TRY(sql_parse_expr(d.expr, a, &node, err));
		walk_columns(&node->base, &w);
		if (!w.found)
			continue;
		if (!(d.expr = deparse_expr(a, node, err)))
			return FLOE_ERR;
		TRY(validate_rows(s, t, &d, a, err));
	}
	return FLOE_OK;
}

/* ---- pg_get_constraintdef --------------------------------------------- */

/*
 * PostgreSQL's ruleutils prints the analysed expression: every operator
 * and boolean in parentheses (pretty: only where precedence needs them),
 * constants labelled with the type the operator coerced them to.  This
 * printer does the same from the parse tree for the common shapes
 * (comparisons, arithmetic, AND / OR / NOT, IS [NOT] NULL, IN, BETWEEN,
 * LIKE, function calls, casts); other nodes print as libpg_query's text.
 */
typedef struct Pr {
	const IcebergSchema *sc;
	bool pretty;
	Arena *a;
} Pr;

enum { K_OTHER, K_OP, K_ARITH_LO, K_ARITH_HI, K_AND, K_OR, K_NOT, K_SIMPLE };

static char *pr_node(Pr *p, Node *n, int parent);

static const IcebergField *
pr_column(Pr *p, Node *n)
{
	PgQuery__ColumnRef *cr;
	Node *last;
	int i;

	if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
		return NULL;
	cr = n->column_ref;
	last = cr->n_fields ? cr->fields[cr->n_fields - 1] : NULL;
	if (!last || last->node_case != PG_QUERY__NODE__NODE_STRING)
		return NULL;
	for (i = 0; i < p->sc->nfields; i++)
		if (!strcmp(p->sc->fields[i].name, last->string->sval))
			return &p->sc->fields[i];
	return NULL;
}

static const char *
pr_ident(Arena *a, const char *s)
{
	const char *c;
	bool plain = (*s >= 'a' && *s <= 'z') || *s == '_';

	for (c = s; *c && plain; c++)
		plain = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_';
	return plain ? s : rowscan_qident(a, s);
}

/* the operator type a constant compared with a column of type t takes */
static const char *
label_of(SqlType t, Arena *a)
{
	char buf[96];

	if (t.id == TYPE_TEXT)
		return t.text_kind == TEXT_CHAR ? "bpchar" : "text";
	if (t.id == TYPE_DECIMAL)
		return "numeric";
	return arena_strdup(a, type_name(t, buf, sizeof buf));
}

static char *
pr_quote(Arena *a, const char *s)
{
	size_t n = strlen(s), i;
	char *q = arena_alloc(a, n * 2 + 3), *o = q;

	*o++ = '\'';
	for (i = 0; i < n; i++) {
		if (s[i] == '\'')
			*o++ = '\'';
		*o++ = s[i];
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

/* a constant; ctx: the column type it meets (NULL: none) */
static char *
pr_const(Pr *p, PgQuery__AConst *c, const IcebergField *ctx, bool neg)
{
	const char *cast = p->pretty ? "%s::%s" : "(%s)::%s";

	if (c->isnull)
		return "NULL";
	switch (c->val_case) {
	case PG_QUERY__A__CONST__VAL_IVAL: {
		char *v = arena_sprintf(p->a, "%s%d", neg ? "-" : "", (int)c->ival->ival);
		TypeId t = ctx ? ctx->type.id : TYPE_INT32;
		neg |= c->ival->ival < 0;
		if (t == TYPE_FLOAT64 || t == TYPE_FLOAT32 || t == TYPE_DECIMAL)
			return arena_sprintf(p->a, neg ? "'%s'::%s" : cast, v,
					     t == TYPE_DECIMAL ? "numeric" : t == TYPE_FLOAT32 ? "real" : "double precision");
		return neg ? arena_sprintf(p->a, "'%s'::integer", v) : v;
	}
	case PG_QUERY__A__CONST__VAL_FVAL: {
		char *v = arena_sprintf(p->a, "%s%s", neg ? "-" : "", c->fval->fval);
		TypeId t = ctx ? ctx->type.id : TYPE_DECIMAL;
		neg |= c->fval->fval[0] == '-';
		if (t == TYPE_FLOAT64 || t == TYPE_FLOAT32)
			return arena_sprintf(p->a, neg ? "'%s'::%s" : cast, v,
					     t == TYPE_FLOAT32 ? "real" : "double precision");
		return neg ? arena_sprintf(p->a, "'%s'::numeric", v) : v;
	}
	case PG_QUERY__A__CONST__VAL_SVAL:
		if (ctx && type_is_integer(ctx->type.id)) {
			char *end;
			long v = strtol(c->sval->sval, &end, 10);
			if (*c->sval->sval && !*end)
				return v < 0 ? arena_sprintf(p->a, "'%ld'::integer", v) : arena_sprintf(p->a, "%ld", v);
		}
		return arena_sprintf(p->a, "%s::%s", pr_quote(p->a, c->sval->sval),
				     ctx ? label_of(ctx->type, p->a) : "text");
	case PG_QUERY__A__CONST__VAL_BOOLVAL:
		return c->boolval->boolval ? "true" : "false";
	default:
		return NULL;
	}
}

/* an operand of an operator whose other operand is other */
static char *
pr_operand(Pr *p, Node *n, Node *other, int parent)
{
	const IcebergField *oc = pr_column(p, other), *mc = pr_column(p, n);

	if (n && n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
		char *s = pr_const(p, n->a_const, oc, false);
		if (s)
			return s;
	}
	if (n && n->node_case == PG_QUERY__NODE__NODE_A_EXPR && n->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP &&
	    !n->a_expr->lexpr && n->a_expr->n_name == 1 && !strcmp(n->a_expr->name[0]->string->sval, "-") &&
	    n->a_expr->rexpr && n->a_expr->rexpr->node_case == PG_QUERY__NODE__NODE_A_CONST && oc) {
		char *s = pr_const(p, n->a_expr->rexpr->a_const, oc, true);
		if (s)
			return s;
	}
	if (mc && other && other->node_case == PG_QUERY__NODE__NODE_A_CONST) {
		/* the column's implicit cast: varchar to text, integer to numeric */
		const char *to = NULL;
		if (mc->type.id == TYPE_TEXT && mc->type.text_kind == TEXT_VARCHAR)
			to = "text";
		if (type_is_integer(mc->type.id) && other->a_const->val_case == PG_QUERY__A__CONST__VAL_FVAL)
			to = "numeric";
		if (to)
			return arena_sprintf(p->a, p->pretty ? "%s::%s" : "(%s)::%s", pr_ident(p->a, mc->name), to);
	}
	return pr_node(p, n, parent);
}

static int
op_kind(const char *op)
{
	if (!strcmp(op, "+") || !strcmp(op, "-"))
		return K_ARITH_LO;
	if (!strcmp(op, "*") || !strcmp(op, "/") || !strcmp(op, "%"))
		return K_ARITH_HI;
	return K_OP;
}

/* wrap s in parentheses unless pretty printing allows it bare */
static char *
paren(Pr *p, char *s, int kind, int parent)
{
	bool bare;

	if (!p->pretty)
		return arena_sprintf(p->a, "(%s)", s);
	switch (kind) {
	case K_OP:
	case K_ARITH_LO:
	case K_ARITH_HI:
		bare = parent == K_OTHER || parent == K_AND || parent == K_OR || parent == K_NOT ||
		       (kind == K_ARITH_HI && parent == K_ARITH_LO);
		break;
	case K_AND:
		bare = parent == K_OTHER || parent == K_OR;
		break;
	case K_OR:
		bare = parent == K_OTHER;
		break;
	case K_NOT:
		bare = parent == K_OTHER || parent == K_AND || parent == K_OR;
		break;
	default:
		bare = parent == K_OTHER || parent == K_AND || parent == K_OR;
		break;
	}
	return bare ? s : arena_sprintf(p->a, "(%s)", s);
}

static char *
pr_list(Pr *p, Node **items, size_t n, Node *other)
{
	char *s = "";
	size_t i;

	for (i = 0; i < n; i++) {
		char *x = pr_operand(p, items[i], other, K_OTHER);
		if (!x)
			return NULL;
		s = arena_sprintf(p->a, "%s%s%s", s, i ? ", " : "", x);
	}
	return s;
}

static char *
pr_aexpr(Pr *p, PgQuery__AExpr *e, int parent)
{
	const char *op = e->n_name ? e->name[e->n_name - 1]->string->sval : "";
	char *l, *r;

	switch (e->kind) {
	case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
	case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
	case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: {
		int k = op_kind(op);
		if (!e->lexpr) {   /* prefix */
			if (!(r = pr_node(p, e->rexpr, K_OP)))
				return NULL;
			return paren(p, arena_sprintf(p->a, "%s %s", op, r), K_OP, parent);
		}
		if (!(l = pr_operand(p, e->lexpr, e->rexpr, k)) || !(r = pr_operand(p, e->rexpr, e->lexpr, k)))
			return NULL;
		return paren(p, arena_sprintf(p->a, "%s %s %s", l, op, r), k, parent);
	}
	case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
		PgQuery__List *li = e->rexpr && e->rexpr->node_case == PG_QUERY__NODE__NODE_LIST ? e->rexpr->list : NULL;
		bool ne = !strcmp(op, "<>");
		if (!li || !(l = pr_operand(p, e->lexpr, li->n_items ? li->items[0] : NULL, K_OP)))
			return NULL;
		if (li->n_items == 1) {
			if (!(r = pr_operand(p, li->items[0], e->lexpr, K_OP)))
				return NULL;
			return paren(p, arena_sprintf(p->a, "%s %s %s", l, op, r), K_OP, parent);
		}
		if (!(r = pr_list(p, li->items, li->n_items, e->lexpr)))
			return NULL;
		return paren(p, arena_sprintf(p->a, "%s %s %s (ARRAY[%s])", l, op, ne ? "ALL" : "ANY", r), K_OP, parent);
	}
	case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN: {
		PgQuery__List *li = e->rexpr && e->rexpr->node_case == PG_QUERY__NODE__NODE_LIST ? e->rexpr->list : NULL;
		char *lo, *hi, *x1, *x2;
		if (!li || li->n_items != 2 || !(l = pr_operand(p, e->lexpr, li->items[0], K_OP)) ||
		    !(lo = pr_operand(p, li->items[0], e->lexpr, K_OP)) ||
		    !(hi = pr_operand(p, li->items[1], e->lexpr, K_OP)))
			return NULL;
		x1 = paren(p, arena_sprintf(p->a, "%s >= %s", l, lo), K_OP, K_AND);
		x2 = paren(p, arena_sprintf(p->a, "%s <= %s", l, hi), K_OP, K_AND);
		return paren(p, arena_sprintf(p->a, "%s AND %s", x1, x2), K_AND, parent);
	}
	default:
		return NULL;
	}
}

static char *
pr_node(Pr *p, Node *n, int parent)
{
	const IcebergField *f;
	char *s, *x;
	size_t i;

	if (!n)
		return NULL;
	if ((f = pr_column(p, n)))
		return (char *)pr_ident(p->a, f->name);
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_A_CONST:
		return pr_const(p, n->a_const, NULL, false);
	case PG_QUERY__NODE__NODE_A_EXPR:
		return pr_aexpr(p, n->a_expr, parent);
	case PG_QUERY__NODE__NODE_BOOL_EXPR: {
		PgQuery__BoolExpr *be = n->bool_expr;
		int k = be->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR ? K_AND :
			be->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? K_OR : K_NOT;
		if (k == K_NOT) {
			if (be->n_args != 1 || !(x = pr_node(p, be->args[0], K_NOT)))
				return NULL;
			return paren(p, arena_sprintf(p->a, "NOT %s", x), K_NOT, parent);
		}
		s = "";
		for (i = 0; i < be->n_args; i++) {
			if (!(x = pr_node(p, be->args[i], k)))
				return NULL;
			s = arena_sprintf(p->a, "%s%s%s", s, i ? (k == K_AND ? " AND " : " OR ") : "", x);
		}
		return paren(p, s, k, parent);
	}
	case PG_QUERY__NODE__NODE_NULL_TEST:
		if (!(x = pr_node(p, n->null_test->arg, K_OP)))
			return NULL;
		return paren(p, arena_sprintf(p->a, "%s %s", x,
					      n->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL ?
					      "IS NULL" : "IS NOT NULL"), K_OP, parent);
	case PG_QUERY__NODE__NODE_FUNC_CALL: {
		PgQuery__FuncCall *fc = n->func_call;
		if (fc->n_funcname != 1 || fc->agg_star || fc->agg_distinct || fc->over || fc->n_agg_order ||
		    fc->agg_filter || fc->func_variadic)
			return NULL;
		s = "";
		for (i = 0; i < fc->n_args; i++) {
			if (!(x = pr_node(p, fc->args[i], K_SIMPLE)))
				return NULL;
			s = arena_sprintf(p->a, "%s%s%s", s, i ? ", " : "", x);
		}
		return arena_sprintf(p->a, "%s(%s)", pr_ident(p->a, fc->funcname[0]->string->sval), s);
	}
	case PG_QUERY__NODE__NODE_COALESCE_EXPR:
		if (!(s = pr_list(p, n->coalesce_expr->args, n->coalesce_expr->n_args, NULL)))
			return NULL;
		return arena_sprintf(p->a, "COALESCE(%s)", s);
	default:
		return NULL;
	}
}

const char *
check_def_text(const IcebergSchema *schema, const CheckDef *def, bool pretty, Arena *a)
{
	Pr p = { schema, pretty, a };
	Node *n;
	floe_error err;
	char *s = NULL;

	if (sql_parse_expr(def->expr, a, &n, &err) == FLOE_OK)
		s = pr_node(&p, n, K_OTHER);
	if (!s)
		s = pretty ? (char *)def->expr : arena_sprintf(a, "(%s)", def->expr);
	return arena_sprintf(a, "CHECK (%s)%s%s", s, def->noinherit ? " NO INHERIT" : "",
			     def->valid ? "" : " NOT VALID");
}

typedef struct ColList {
	const IcebergSchema *sc;
	int64_t *cols;
	int n;
} ColList;

static int
collect_columns(const ProtobufCMessage *m, void *arg)
{
	ColList *l = arg;
	Node *n = (Node *)m;

	if (m->descriptor == &pg_query__node__descriptor && n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
		PgQuery__ColumnRef *cr = n->column_ref;
		Node *last = cr->n_fields ? cr->fields[cr->n_fields - 1] : NULL;
		int i, k;
		if (!last || last->node_case != PG_QUERY__NODE__NODE_STRING)
			return 0;
		for (i = 0; i < l->sc->nfields; i++)
			if (!strcmp(l->sc->fields[i].name, last->string->sval)) {
				for (k = 0; k < l->n && l->cols[k] != i + 1; k++)
					;
				if (k == l->n)
					l->cols[l->n++] = i + 1;
			}
		return 0;
	}
	return sql_children(m, collect_columns, arg);
}

/* conkey: the attribute numbers (1-based) of the columns def reads, in
 * the order the expression first names them (as PostgreSQL) */
int
check_def_columns(const IcebergSchema *schema, const CheckDef *def, Arena *a, int64_t **cols)
{
	Node *n;
	floe_error err;
	ColList l = { schema, NULL, 0 };

	l.cols = *cols = ARENA_ARRAY(a, int64_t, schema->nfields + 1);
	if (sql_parse_expr(def->expr, a, &n, &err) != FLOE_OK)
		return 0;
	collect_columns(&n->base, &l);
	return l.n;
}

/* ---- domains ------------------------------------------------------------ */

int
domain_check_text(Session *s, const char *sql, SqlType base, Node *n, Arena *a, char **text,
		  floe_error *err)
{
	IcebergSchema one;
	IcebergField f;
	Expr *e;

	memset(&one, 0, sizeof one);
	memset(&f, 0, sizeof f);
	f.name = "value";
	f.type = base;
	one.nfields = 1;
	one.fields = &f;
	if (!(e = bind_check(s, a, err, sql, &one, NULL, n)))
		return FLOE_ERR;
	if (!(*text = deparse_expr(a, n, err)))
		return FLOE_ERR;
	return FLOE_OK;
}

/* ColumnRefs "value" become col */
static int
value_to_col(const ProtobufCMessage *m, void *arg)
{
	const Node *n = (const Node *)m;

	if (m->descriptor == &pg_query__node__descriptor &&
	    n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && n->column_ref->n_fields == 1 &&
	    n->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
	    !strcmp(n->column_ref->fields[0]->string->sval, "value"))
		n->column_ref->fields[0]->string->sval = (char *)arg;
	return sql_children(m, value_to_col, arg);
}

int
domain_check_on_column(const char *text, const char *col, Arena *a, char **out, floe_error *err)
{
	Node *n;

	TRY(sql_parse_expr(text, a, &n, err));
	value_to_col(&n->base, (void *)col);
	if (!(*out = deparse_expr(a, n, err)))
		return FLOE_ERR;
	return FLOE_OK;
}
