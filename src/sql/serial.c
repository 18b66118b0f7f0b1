/*
 * serial.c — serial and identity columns, volatile column DEFAULTs
 * (serial.h for the model).
 *
 * Spec: PostgreSQL 15 docs "Numeric Types" 8.1.4 (serial), "CREATE TABLE"
 * (GENERATED ... AS IDENTITY, DEFAULT), "INSERT" (OVERRIDING); the sequence
 * name is PostgreSQL's ChooseRelationName(table, column, "seq"): the
 * first of t_col_seq, t_col_seq1, ... that no relation of the schema has.
 *
 * INTERFACE ROUTINES (serial.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "func/func.h"
#include "sql/acl.h"
#include "sql/pgcatalog.h"
#include "sql/serial.h"
#include "sql/sequence.h"
#include "table/metadata.h"
#include "table/table.h"
#include "sql/txn.h"
#include "types/cast.h"

static const char *
serial_base(PgQuery__TypeName *tn)
{
	const char *t;

	if (!tn || tn->n_names == 0 || tn->n_array_bounds > 0 ||
	    tn->names[tn->n_names - 1]->node_case != PG_QUERY__NODE__NODE_STRING)
		return NULL;
	if (tn->n_names == 2 && (tn->names[0]->node_case != PG_QUERY__NODE__NODE_STRING ||
				 strcmp(tn->names[0]->string->sval, "pg_catalog") != 0))
		return NULL;
	if (tn->n_names > 2)
		return NULL;
	t = tn->names[tn->n_names - 1]->string->sval;
	if (!strcmp(t, "serial") || !strcmp(t, "serial4"))
		return "integer";
	if (!strcmp(t, "bigserial") || !strcmp(t, "serial8"))
		return "bigint";
	if (!strcmp(t, "smallserial") || !strcmp(t, "serial2"))
		return "smallint";
	return NULL;
}

static TypeId
type_id(const char *t)
{
	return !strcmp(t, "smallint") ? TYPE_INT16 : !strcmp(t, "integer") ? TYPE_INT32 : TYPE_INT64;
}

/* Is name taken in ns (a table, a sequence, or one this list will make)? */
static int
taken(Session *s, const char *ns, const char *name, const SerialList *l, Arena *a, bool *yes,
      floe_error *err)
{
	CatalogSeq q;
	char *loc;
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name)) {
			*yes = true;
			return FLOE_OK;
		}
	TRY(seq_lookup(s, ns, name, a, &q, yes, err));
	if (*yes)
		return FLOE_OK;
	if (catalog_load_table(s->engine->catalog, ns, name, a, &loc, err) == FLOE_OK) {
		*yes = true;
		return FLOE_OK;
	}
	if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE) &&
	    !floe_error_is(err, ERRCODE_INVALID_SCHEMA_NAME))
		return FLOE_ERR;
	floe_error_clear(err);
	return FLOE_OK;
}

/* ChooseRelationName(table, col, "seq"): names truncated to fit 63 bytes */
static int
choose_name(BindCtx *b, const char *ns, const char *table, const char *col, const SerialList *l,
	    const char **out)
{
	int n;

	for (n = 0; n < 10000; n++) {
		char suffix[24];
		size_t tl = strlen(table), cl = strlen(col), sl, room;
		char *name;
		bool yes = false;
		snprintf(suffix, sizeof suffix, n ? "seq%d" : "seq", n);
		sl = strlen(suffix);
		room = 63 - sl - 2;
		while (tl + cl > room) {   /* shorten the longer part first */
			if (tl > cl)
				tl--;
			else
				cl--;
		}
		name = arena_sprintf(b->arena, "%.*s_%.*s_%s", (int)tl, table, (int)cl, col, suffix);
		TRY(taken(b->session, ns, name, l, b->arena, &yes, b->err));
		if (!yes) {
			*out = name;
			return FLOE_OK;
		}
	}
	return floe_errorf(b->err, ERRCODE_DUPLICATE_TABLE, "could not choose a sequence name");
}

/* 'name'::regclass text of a sequence, qualified when ns is not the
 * session's schema, quoted as an identifier where needed. */
static char *
regclass_text(BindCtx *b, const char *ns, const char *name)
{
	const char *parts[2] = { ns, name };
	char buf[600];
	size_t o = 0;
	int k;

	for (k = strcmp(ns, session_schema(b->session)) ? 0 : 1; k < 2; k++) {
		const char *p = parts[k];
		bool plain = p[0] && !(p[0] >= '0' && p[0] <= '9');
		const char *q;
		for (q = p; *q; q++)
			if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'))
				plain = false;
		if (o && o < sizeof buf - 1)
			buf[o++] = '.';
		if (!plain && o < sizeof buf - 1)
			buf[o++] = '"';
		for (q = p; *q && o < sizeof buf - 4; q++) {
			if (*q == '"')
				buf[o++] = '"';
			if (*q == '\'')
				buf[o++] = '\'';
			buf[o++] = *q;
		}
		if (!plain && o < sizeof buf - 1)
			buf[o++] = '"';
	}
	buf[o] = 0;
	return arena_sprintf(b->arena, "nextval('%s'::regclass)", buf);
}

static void
push(BindCtx *b, SerialList *l, const char *name, const char *type, const char *col, Node **opts,
     int nopts)
{
	if (l->n == l->cap) {
		int nc = l->cap ? l->cap * 2 : 4;
		l->v = arena_realloc(b->arena, l->v, sizeof(SerialSeq) * (size_t)l->cap,
				     sizeof(SerialSeq) * (size_t)nc);
		l->cap = nc;
	}
	l->v[l->n].name = name;
	l->v[l->n].type = type;
	l->v[l->n].column = col;
	l->v[l->n].opts = opts;
	l->v[l->n].nopts = nopts;
	l->n++;
}

int
serial_column(BindCtx *b, const char *ns, const char *table, PgQuery__ColumnDef *cd,
	      IcebergField *f, SerialList *l, bool *handled)
{
	const char *base = serial_base(cd->type_name), *name;

	*handled = base != NULL;
	if (!base)
		return FLOE_OK;
	TRY(choose_name(b, ns, table, cd->colname, l, &name));
	f->type = type_make(type_id(base));
	f->required = true;
	f->default_sql = regclass_text(b, ns, name);
	push(b, l, name, base, f->name, NULL, 0);
	return FLOE_OK;
}

int
serial_identity(BindCtx *b, const char *ns, const char *table, PgQuery__Constraint *c,
		IcebergField *f, SerialList *l)
{
	const char *name = NULL, *type;
	size_t i;

	if (f->identity)
		return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR,
				   "multiple identity specifications for column \"%s\" of table \"%s\"",
				   f->name, table);
	if (f->default_sql)
		return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR,
				   "both default and identity specified for column \"%s\" of table \"%s\"",
				   f->name, table);
	switch (f->type.id) {
	case TYPE_INT16: type = "smallint"; break;
	case TYPE_INT32: type = "integer"; break;
	case TYPE_INT64: type = "bigint"; break;
	default:
		return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "identity column type must be smallint, integer, or bigint");
	}
	for (i = 0; i < c->n_options; i++) {
		PgQuery__DefElem *d = c->options[i]->node_case == PG_QUERY__NODE__NODE_DEF_ELEM ?
				      c->options[i]->def_elem : NULL;
		if (d && !strcmp(d->defname, "sequence_name") && d->arg &&
		    d->arg->node_case == PG_QUERY__NODE__NODE_LIST) {
			PgQuery__List *nl = d->arg->list;
			if (nl->n_items == 1 && nl->items[0]->node_case == PG_QUERY__NODE__NODE_STRING)
				name = nl->items[0]->string->sval;
			else
				return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "a qualified SEQUENCE NAME is not supported");
		}
	}
	if (!name)
		TRY(choose_name(b, ns, table, f->name, l, &name));
	f->identity = c->generated_when && c->generated_when[0] == 'a' ? 'a' : 'd';
	f->required = true;
	f->default_sql = regclass_text(b, ns, name);
	push(b, l, name, type, f->name, c->options, (int)c->n_options);
	return FLOE_OK;
}

/* Is word w (length n) at p, followed by no identifier character? */
static bool
word_at(const char *p, const char *w)
{
	size_t n = strlen(w), i;
	char c;

	for (i = 0; i < n; i++) {
		c = p[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		if (c != w[i])
			return false;
	}
	c = p[n];
	return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		 c == '_' || c == '$');
}

char *
serial_default_text(BindCtx *b, Node *raw, const char *col)
{
	static const char *const stops[] = { "not", "null", "primary", "check", "unique",
					     "references", "constraint", "default", "generated",
					     "collate", "deferrable", "initially" };
	int start = sql_location(&raw->base);
	const char *p, *q;
	int depth = 0;
	size_t k;

	if (!b->sql || start < 0 || (size_t)start >= strlen(b->sql)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "this DEFAULT expression is not supported yet (column \"%s\")", col);
		return NULL;
	}
	p = b->sql + start;
	for (q = p; *q; q++) {
		if (*q == '\'' || *q == '"') {
			char quote = *q;
			for (q++; *q && !(*q == quote && q[1] != quote); q++)
				if (*q == quote)
					q++;
			if (!*q)
				break;
			continue;
		}
		if (*q == '(' || *q == '[')
			depth++;
		else if (*q == ')' || *q == ']') {
			if (depth == 0)
				break;
			depth--;
		} else if (depth == 0 && *q == ',')
			break;
		else if (depth == 0 && (q == p || !((q[-1] >= 'a' && q[-1] <= 'z') ||
						   (q[-1] >= 'A' && q[-1] <= 'Z') || q[-1] == '_' ||
						   (q[-1] >= '0' && q[-1] <= '9')))) {
			for (k = 0; k < sizeof stops / sizeof stops[0]; k++)
				if (q > p && word_at(q, stops[k]))
					goto done;
		}
	}
done:
	while (q > p && (q[-1] == ' ' || q[-1] == '\n' || q[-1] == '\t' || q[-1] == '\r'))
		q--;
	return arena_strndup(b->arena, p, (size_t)(q - p));
}

int
serial_create_all(Session *s, const char *ns, const char *table, SerialList *l, floe_error *err)
{
	Arena *a = arena_new(0);
	int i;

	for (i = 0; i < l->n; i++) {
		const char *owned = arena_sprintf(a, "%s.%s", table, l->v[i].column);
		if (seq_create(s, ns, l->v[i].name, l->v[i].type, l->v[i].opts, l->v[i].nopts, owned,
			       err) != FLOE_OK) {
			arena_free(a);
			serial_drop_all(s, ns, l);
			return FLOE_ERR;
		}
		l->created = i + 1;
	}
	arena_free(a);
	return FLOE_OK;
}

void
serial_drop_all(Session *s, const char *ns, SerialList *l)
{
	floe_error ignore;
	int i;

	for (i = 0; i < l->created; i++) {
		memset(&ignore, 0, sizeof ignore);
		(void)seq_drop(s, ns, l->v[i].name, &ignore);
	}
	l->created = 0;
}

/* ---- writes ------------------------------------------------------------------ */

static int
always_error(BindCtx *b, const IcebergField *f)
{
	floe_errorf(b->err, ERRCODE_GENERATED_ALWAYS,
		    "cannot insert a non-DEFAULT value into column \"%s\"", f->name);
	floe_error_detail(b->err, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.",
			  f->name);
	floe_error_hint(b->err, "Use OVERRIDING SYSTEM VALUE to override.");
	return FLOE_ERR;
}

int
identity_insert_check(BindCtx *b, const IcebergSchema *sc, PgQuery__InsertStmt *is,
		      const int *tcols, int ntarget, bool *user_value)
{
	PgQuery__SelectStmt *sel;
	bool plain;
	size_t r;
	int k;

	*user_value = is->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_USER_VALUE;
	if (is->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE || *user_value ||
	    !is->select_stmt)
		return FLOE_OK;
	sel = is->select_stmt->select_stmt;
	plain = sel && sel->n_values_lists && !sel->n_sort_clause && !sel->limit_count &&
		!sel->limit_offset && !sel->with_clause && !is->with_clause;
	for (k = 0; k < ntarget; k++) {
		const IcebergField *f = &sc->fields[tcols[k]];
		if (f->identity != 'a')
			continue;
		if (!plain)
			return always_error(b, f);
		for (r = 0; r < sel->n_values_lists; r++) {
			PgQuery__List *l = sel->values_lists[r]->list;
			if ((size_t)k < l->n_items &&
			    l->items[k]->node_case != PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
				return always_error(b, f);
		}
	}
	return FLOE_OK;
}

bool
identity_ignores(const IcebergField *f, bool user_value)
{
	return user_value && f->identity;
}

int
identity_update_check(BindCtx *b, const IcebergField *f, int location)
{
	if (f->identity != 'a')
		return FLOE_OK;
	floe_errorf(b->err, ERRCODE_GENERATED_ALWAYS, "column \"%s\" can only be updated to DEFAULT",
		    f->name);
	floe_error_detail(b->err, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.",
			  f->name);
	if (location >= 0)
		floe_error_position(b->err, bind_location(b, location));
	return FLOE_ERR;
}

static int
call_in(const ProtobufCMessage *m, void *arg)
{
	(void)arg;
	if (m->descriptor == &pg_query__func_call__descriptor ||
	    m->descriptor == &pg_query__sqlvalue_function__descriptor)
		return 1;
	return sql_children(m, call_in, NULL);
}

bool
serial_has_call(Node *raw)
{
	return call_in(&raw->base, NULL) != 0;
}

static const char *
const_str(const Expr *e, Arena *a)
{
	if (e->kind != EXPR_CONST || e->value.is_null || !type_is_string(e->value.type.id))
		return NULL;
	return arena_strndup(a, strview_data(&e->value.u.s), e->value.u.s.len);
}

/* The sequence of column ct of table tt (text as regclass prints it,
 * [schema.]name), schema-qualified, or NULL (*out) when the column has
 * none; 42P01 / 42703 as PostgreSQL. */
static int
sequence_of(Session *s, const char *tt, const char *ct, Arena *a, char **out, floe_error *err)
{
	const char *ns, *tn, *dot, *q, *e;
	const IcebergSchema *sc;
	Table *t;
	int i;

	*out = NULL;
	if (*tt && strspn(tt, "0123456789") == strlen(tt)) {
		/* a computed regclass that reached text as its oid */
		Catalog *c = s->engine->catalog;
		long long oid = atoll(tt);
		char **nss, **names;
		int nns, n, k, j;
		bool found = false;

		TRY(catalog_list_namespaces(c, a, &nss, &nns, err));
		for (k = 0; k < nns && !found; k++) {
			TRY(catalog_list_tables(c, nss[k], a, &names, &n, err));
			for (j = 0; j < n; j++)
				if ((long long)pgcatalog_table_oid(nss[k], names[j]) == oid) {
					tt = arena_sprintf(a, "%s.%s", nss[k], names[j]);
					found = true;
					break;
				}
		}
		if (!found)
			return FLOE_OK;   /* not a table: no sequence */
	}
	dot = strchr(tt, '.');
	tn = dot ? dot + 1 : tt;
	ns = dot ? arena_strndup(a, tt, (size_t)(dot - tt)) : search_path_lookup(s, tn);
	if (txn_table_load(s, ns, tn, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", tt);
		return FLOE_ERR;
	}
	sc = metadata_current_schema(t->md);
	for (i = 0; i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].name, ct))
			break;
	if (i == sc->nfields)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" of relation \"%s\" does not exist", ct, tn);
	/* nextval('name'::regclass): the sequence it names, schema-qualified */
	if ((q = sc->fields[i].default_sql) && !strncmp(q, "nextval('", 9) &&
	    (e = strstr(q + 9, "'::regclass)"))) {
		const char *name = arena_strndup(a, q + 9, (size_t)(e - q - 9));
		*out = strchr(name, '.') ? (char *)name : arena_sprintf(a, "%s.%s", ns, name);
	}
	return FLOE_OK;
}

/* pg_get_serial_sequence over computed arguments (SQLAlchemy's column
 * reflection passes a.attrelid::regclass::text, a.attname): per row. */
static int
serial_sequence_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Session *s = ctx->env ? ctx->env->session : NULL;   /* func/session_env.h */
	uint32_t i;

	(void)nargs;
	if (!s)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "pg_get_serial_sequence cannot run here (no session)");
	for (i = 0; i < count; i++) {
		Value tv, cv, r;
		char *seq, *tt, *ct;
		vector_get_value(&args[0], i, &tv);
		vector_get_value(&args[1], i, &cv);
		if (tv.is_null || cv.is_null) {
			vector_set_null(out, i);
			continue;
		}
		tt = arena_strndup(ctx->arena, strview_data(&tv.u.s), tv.u.s.len);
		ct = arena_strndup(ctx->arena, strview_data(&cv.u.s), cv.u.s.len);
		TRY(sequence_of(s, tt, ct, ctx->arena, &seq, ctx->err));
		if (!seq) {
			vector_set_null(out, i);
			continue;
		}
		r.is_null = false;
		r.type = out->type;
		r.u.s = strview_make(seq, (uint32_t)strlen(seq));
		vector_set_value(out, i, &r);
	}
	return FLOE_OK;
}

static const ScalarFunc fn_serial_sequence = { "pg_get_serial_sequence", serial_sequence_k, 2, 0,
					       { TYPE_TEXT, TYPE_TEXT }, TYPE_TEXT, FRET_FIXED,
					       true, false };

Expr *
serial_get_sequence(BindCtx *b, Expr **args, int nargs, int location)
{
	const char *tt, *ct;
	char *seq;
	Value v = value_null(type_make(TYPE_TEXT));
	Expr *e;
	int i;

	if (nargs != 2) {
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
			    "function pg_get_serial_sequence with %d arguments does not exist", nargs);
		return NULL;
	}
	if (!(tt = const_str(args[0], b->arena)) || !(ct = const_str(args[1], b->arena))) {
		e = expr_new(b->arena, EXPR_FUNC, type_make(TYPE_TEXT), 2);
		e->fn = &fn_serial_sequence;
		e->location = bind_location(b, location);
		for (i = 0; i < 2; i++)
			if (!(e->args[i] = bind_coerce(b, args[i], type_make(TYPE_TEXT), COERCE_IMPLICIT,
						       NULL)))
				return NULL;
		return e;
	}
	if (sequence_of(b->session, tt, ct, b->arena, &seq, b->err) != FLOE_OK) {
		if (location >= 0 && floe_error_is(b->err, ERRCODE_UNDEFINED_TABLE))
			floe_error_position(b->err, bind_location(b, location));
		return NULL;
	}
	if (seq) {
		v.is_null = false;
		v.u.s = strview_make(seq, (uint32_t)strlen(seq));
	}
	return expr_const(b->arena, &v);
}
