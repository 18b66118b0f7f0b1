/*
 * prepare.c — SQL-level prepared statements: PREPARE name [(types)] AS
 * statement, EXECUTE name [(args)], DEALLOCATE [PREPARE] name | ALL, and
 * the rows of pg_prepared_statements (prepare.h).
 *
 * Spec: PostgreSQL 15 docs "PREPARE", "EXECUTE", "DEALLOCATE", 54.16
 * pg_prepared_statements.  A prepared statement is kept per session as the
 * statement's text with its parameter types: the declared ones, and for
 * the others the type their context gives them, found at PREPARE by
 * describing the statement (session_describe: PostgreSQL's parameter type
 * inference; a parameter no context types is text).  PREPARE checks the
 * statement (names, types) as PostgreSQL does; EXECUTE evaluates each
 * argument, coerces it to its parameter's type (assignment rules) and runs
 * the text with those values bound (session_exec_params), so the statement
 * sees the catalog as it is at EXECUTE (PostgreSQL re-plans too when
 * objects change).  Not cached as plans yet (the planner issue's step 7).
 *
 * Errors: 42P05 a name taken, 26000 an unknown name, 42601 a wrong number
 * of arguments, 42P02 a $n beyond the declared types... as PostgreSQL.
 *
 * INTERFACE ROUTINES (prepare.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "func/func.h"
#include "sql/pgcatalog.h"
#include "sql/prepare.h"
#include "types/cast.h"
#include "types/text.h"

typedef struct Prepared {
	char *name;
	char *statement;        /* the PREPARE statement as written */
	char *query;            /* the statement after AS */
	int nparams;
	uint32_t *oids;         /* per parameter: PostgreSQL type oid, 0 = text */
	SqlType *types;
	int64_t prepare_time;   /* microseconds since 1970 */
	int64_t execs;          /* EXECUTEs (pg_prepared_statements.custom_plans) */
	struct Prepared *nx;
} Prepared;

struct PrepState {
	Prepared *head;
};

static Prepared **
find(Session *s, const char *name)
{
	Prepared **p;

	if (!s->prep)
		s->prep = xcalloc(1, sizeof(struct PrepState));
	for (p = &s->prep->head; *p; p = &(*p)->nx)
		if (!strcmp((*p)->name, name))
			return p;
	return p;
}

static void
prep_free(Prepared *p)
{
	free(p->name);
	free(p->statement);
	free(p->query);
	free(p->oids);
	free(p->types);
	free(p);
}

void
prepare_session_free(Session *s)
{
	Prepared *p, *nx;

	if (!s->prep)
		return;
	for (p = s->prep->head; p; p = nx) {
		nx = p->nx;
		prep_free(p);
	}
	free(s->prep);
	s->prep = NULL;
}

/* ---- the statement after AS ------------------------------------------------ */

/* Skip blanks and comments. */
static const char *
blank(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f')
			p++;
		if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			int depth = 0;
			do {
				if (p[0] == '/' && p[1] == '*') {
					depth++;
					p += 2;
				} else if (p[0] == '*' && p[1] == '/') {
					depth--;
					p += 2;
				} else if (*p) {
					p++;
				} else {
					break;
				}
			} while (depth > 0);
		} else {
			return p;
		}
	}
}

/* Past one token (identifier, quoted identifier or string, parenthesized
 * group, or one character). */
static const char *
token(const char *p)
{
	if (*p == '"' || *p == '\'') {
		char q = *p++;
		while (*p) {
			if (*p == q && p[1] == q)
				p += 2;
			else if (*p == q)
				return p + 1;
			else
				p++;
		}
		return p;
	}
	if (*p == '(') {
		int depth = 0;
		do {
			if (*p == '(')
				depth++;
			else if (*p == ')')
				depth--;
			else if (*p == '\'' || *p == '"') {
				p = token(p);
				continue;
			}
			if (*p)
				p++;
		} while (*p && depth > 0);
		return p;
	}
	if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
	    (unsigned char)*p >= 0x80) {
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == '$' ||
		       (*p >= '0' && *p <= '9') || (unsigned char)*p >= 0x80)
			p++;
		return p;
	}
	return *p ? p + 1 : p;
}

/* The text after PREPARE name [(types)] AS in stmt (NULL if not found). */
static const char *
after_as(const char *stmt)
{
	const char *p = blank(stmt);
	int i;

	for (i = 0; i < 4 && *p; i++) {
		const char *e = token(p);
		if (i >= 2 && e - p == 2 && (p[0] == 'a' || p[0] == 'A') && (p[1] == 's' || p[1] == 'S'))
			return blank(e);
		p = blank(e);
	}
	return NULL;
}

/* ---- parameters ------------------------------------------------------------ */

static int
max_param(const ProtobufCMessage *m, void *arg)
{
	int *mx = arg;

	if (m->descriptor == &pg_query__param_ref__descriptor) {
		const PgQuery__ParamRef *pr = (const PgQuery__ParamRef *)m;
		if (pr->number > *mx)
			*mx = pr->number;
	}
	sql_children(m, max_param, arg);
	return 0;
}

/* ---- statements -------------------------------------------------------------- */

int
prepare_stmt(Session *s, const char *sql, const SqlStmt *st, PgQuery__PrepareStmt *ps,
	     ResultSink *sink, floe_error *err)
{
	const char *text = sql + st->location, *q;
	size_t len = st->len ? (size_t)st->len : strlen(text);
	Prepared **slot = find(s, ps->name), *p;
	Arena *a;
	SqlDescription d;
	BindCtx b;
	int n = 0, i;
	struct timespec ts;

	if (*slot)
		return floe_errorf(err, ERRCODE_DUPLICATE_PSTATEMENT,
				   "prepared statement \"%s\" already exists", ps->name);
	a = arena_new(0);
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	p = xcalloc(1, sizeof *p);
	p->name = xstrdup(ps->name);
	p->statement = strndup(text, len);
	q = after_as(p->statement);
	if (!q || !*q) {
		floe_errorf(err, ERRCODE_SYNTAX_ERROR, "could not find the statement of PREPARE");
		goto fail;
	}
	p->query = xstrdup(q);
	max_param(&ps->query->base, &n);
	if (n < (int)ps->n_argtypes)
		n = (int)ps->n_argtypes;
	p->nparams = n;
	p->oids = xcalloc((size_t)n + 1, sizeof(uint32_t));
	p->types = xcalloc((size_t)n + 1, sizeof(SqlType));
	for (i = 0; i < (int)ps->n_argtypes; i++) {
		SqlType t;
		if (bind_type_name(&b, ps->argtypes[i]->type_name, &t) != FLOE_OK)
			goto fail;
		p->types[i] = t;
		p->oids[i] = pgcatalog_type_oid(t);
	}
	/* checks the statement and infers the other parameters' types */
	if (session_describe(s, p->query, (int)ps->n_argtypes, p->oids, a, &d, err) != FLOE_OK)
		goto fail;
	/* a parameter no context typed stays unknown (oid 0): EXECUTE's value
	 * is then typed where it is used, and pg_prepared_statements says text */
	for (i = (int)ps->n_argtypes; i < n; i++) {
		SqlType t = i < d.nparams ? d.param_types[i] : type_make(TYPE_NULL);
		p->types[i] = t;
		p->oids[i] = t.id == TYPE_NULL ? 0 : pgcatalog_type_oid(t);
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	p->prepare_time = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	*slot = p;
	arena_free(a);
	return engine_complete(sink, "PREPARE");
fail:
	prep_free(p);
	arena_free(a);
	return FLOE_ERR;
}

int
prepare_execute(Session *s, const char *sql, PgQuery__ExecuteStmt *es, ResultSink *sink,
		floe_error *err)
{
	Prepared *p = *find(s, es->name);
	const char **values;
	Arena *a;
	BindCtx b;
	int i, rc;

	if (!p)
		return floe_errorf(err, ERRCODE_INVALID_SQL_STATEMENT_NAME,
				   "prepared statement \"%s\" does not exist", es->name);
	if ((int)es->n_params != p->nparams) {
		floe_errorf(err, ERRCODE_SYNTAX_ERROR,
			    "wrong number of parameters for prepared statement \"%s\"", es->name);
		return floe_error_detail(err, "Expected %d parameters but got %d.", p->nparams,
					 (int)es->n_params);
	}
	a = arena_new(0);
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	b.sql = sql;
	b.where = "EXECUTE parameter";
	values = ARENA_ARRAY(a, const char *, p->nparams + 1);
	for (i = 0; i < p->nparams; i++) {
		Expr *e = bind_expr(&b, es->params[i]);
		Value v;
		size_t len;
		if (e && p->types[i].id == TYPE_NULL)
			e = bind_coerce(&b, e, type_make(TYPE_TEXT), COERCE_EXPLICIT, NULL);
		else if (e)
			e = bind_coerce(&b, e, p->types[i], COERCE_ASSIGNMENT, NULL);
		if (!e || expr_eval_const(e, bind_env(&b), a, &v, err) != FLOE_OK) {
			arena_free(a);
			return FLOE_ERR;
		}
		values[i] = v.is_null ? NULL : value_to_text_canonical(&v, a, &len);
	}
	p->execs++;
	rc = session_exec_params(s, p->query, p->nparams, values, p->oids, sink, err);
	arena_free(a);
	return rc;
}

int
prepare_deallocate(Session *s, PgQuery__DeallocateStmt *ds, ResultSink *sink, floe_error *err)
{
	Prepared **slot, *p;

	if (!ds->name || !ds->name[0]) {
		prepare_session_free(s);
		return engine_complete(sink, "DEALLOCATE ALL");
	}
	slot = find(s, ds->name);
	if (!(p = *slot))
		return floe_errorf(err, ERRCODE_INVALID_SQL_STATEMENT_NAME,
				   "prepared statement \"%s\" does not exist", ds->name);
	*slot = p->nx;
	prep_free(p);
	return engine_complete(sink, "DEALLOCATE");
}

/* ---- pg_prepared_statements ------------------------------------------------- */

static Value *
cell(ConstRel *r, Value *row, const char *col)
{
	int c;

	for (c = 0; c < r->ncols; c++)
		if (!strcmp(r->names[c], col))
			return &row[c];
	return NULL;
}

int
prepare_catalog_rows(Session *s, ConstRel *r, Arena *a)
{
	Prepared *p;

	for (p = s->prep ? s->prep->head : NULL; p; p = p->nx) {
		Value *row = constrel_row(r), *x;
		char *types = arena_strdup(a, "{");
		int i;
		for (i = 0; i < p->nparams; i++) {
			char tb[64];
			SqlType t = p->types[i].id == TYPE_NULL ? type_make(TYPE_TEXT) : p->types[i];
			types = arena_sprintf(a, "%s%s%s", types, i ? "," : "",
					      func_type_name(t, tb, sizeof tb));
		}
		types = arena_sprintf(a, "%s}", types);
		if ((x = cell(r, row, "name"))) {
			x->is_null = false;
			x->u.s = strview_make(p->name, (uint32_t)strlen(p->name));
		}
		if ((x = cell(r, row, "statement"))) {
			x->is_null = false;
			x->u.s = strview_make(p->statement, (uint32_t)strlen(p->statement));
		}
		if ((x = cell(r, row, "prepare_time"))) {
			x->is_null = false;
			x->u.i = p->prepare_time;
		}
		if ((x = cell(r, row, "parameter_types"))) {
			x->is_null = false;
			x->u.s = strview_make(types, (uint32_t)strlen(types));
		}
		if ((x = cell(r, row, "from_sql"))) {
			x->is_null = false;
			x->u.b = true;
		}
		if ((x = cell(r, row, "generic_plans"))) {
			x->is_null = false;
			x->u.i = 0;
		}
		if ((x = cell(r, row, "custom_plans"))) {
			x->is_null = false;
			x->u.i = p->execs;
		}
	}
	return FLOE_OK;
}
