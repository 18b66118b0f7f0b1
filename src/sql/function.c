/*
 * function.c — SQL functions: CREATE [OR REPLACE] FUNCTION ... LANGUAGE
 * sql, DROP FUNCTION [IF EXISTS] ... [CASCADE], their calls; DO, CREATE
 * PROCEDURE, ALTER FUNCTION and every other language refused by name
 * (0A000).
 *
 * Spec: PostgreSQL 15 CREATE FUNCTION, DROP FUNCTION, "Query Language (SQL)
 * Functions" (xfunc-sql), "Function Overloading", "Inlining of SQL
 * functions" (the wiki page of the same name: what the planner inlines);
 * messages and SQLSTATEs as PostgreSQL 15's (commands/functioncmds.c,
 * catalog/pg_proc.c, executor/functions.c, parser/parse_func.c).
 *
 * Stored: one floe_objects row per function (catalog.h obj_put), kind
 * "function", key "name(type,...)" (the input types as format_type spells
 * them: the signature, unique per schema), definition the CREATE
 * statement's own text.  Every session keeps the parsed set (FuncState)
 * and reloads it when this process changed one (fn_generation) or after
 * FN_RELOAD_MS (another floe node on the same catalog).
 *
 * A function body is one SELECT (a string body, BEGIN ATOMIC ... END with
 * one statement, or RETURN expr).  It is checked at CREATE as PostgreSQL
 * does (check_function_bodies): planned with every parameter a NULL of its
 * type, its columns matched to the declared result (42P13).
 *
 * A call is expanded in the caller's parse tree (the body is parsed again
 * for each call, each parameter reference -- $n, the parameter's name,
 * function.name -- replaced by CAST(argument AS parameter type)):
 *   - scalar, body a lone expression (SELECT expr with no FROM, WHERE,
 *     grouping, sublink or aggregate; RETURN expr): inlined, as PostgreSQL
 *     inlines it, CAST(body AS result type); STRICT adds CASE WHEN an
 *     argument IS NULL THEN NULL.
 *   - scalar, any other body: a scalar subquery over the body, its first
 *     row (LIMIT 1) cast to the result type, no row = NULL;
 *   - set-returning (SETOF t, TABLE (...)) in FROM: a subquery in FROM,
 *     its columns the declared ones (function_source, select.c).
 *   STRICT with a NULL argument: no row (NULL for a scalar).
 * Invariants:
 *   F1. The argument expressions are the caller's: they bind in the
 *       caller's scope.  A body that reads tables is a subquery, and
 *       floe's subqueries are not correlated to a FROM's columns here, so
 *       such a body takes only arguments without column references
 *       (0A000 otherwise).
 *   F2. An expansion never expands itself past FN_MAX_DEPTH (54001).
 *
 * Not yet (0A000 naming them): OUT / INOUT / VARIADIC parameters,
 * polymorphic and void results, more than one statement in a body,
 * INSERT / UPDATE / DELETE bodies, set-returning calls outside FROM,
 * SECURITY DEFINER, SET clauses, ALTER FUNCTION, procedures.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "func/func.h"
#include "sql/acl.h"
#include "sql/function.h"
#include "types/cast.h"
#include "types/value.h"

#define FN_RELOAD_MS 1000
#define FN_MAX_DEPTH 64
#define FN_KIND "function"

typedef struct FnDef {
	const char *ns, *name, *key, *sql;
	PgQuery__CreateFunctionStmt *cs;
	int nparams;                  /* input parameters */
	const char **pnames;          /* "" when unnamed */
	SqlType *ptypes;
	PgQuery__TypeName **ptn;
	Node **pdefault;              /* NULL when none */
	int ndefaults;
	int nout;                     /* result columns: 1, or TABLE's */
	const char **onames;
	SqlType *otypes;
	PgQuery__TypeName **otn;
	bool retset, strict, table;
	char vol;                     /* 'i' 's' 'v' */
	const char *body_text;        /* AS '...', NULL for a SQL-standard body */
	bool simple;                  /* inlined as an expression */
} FnDef;

typedef struct FuncState {
	Arena *a;
	FnDef *defs;
	int n;
	uint64_t gen;
	int64_t loaded_ms;
} FuncState;

static _Atomic uint64_t fn_generation = 1;
static __thread int fn_depth;

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- parse-tree helpers ------------------------------------------------- */

static Node *
mk(Arena *a, PgQuery__Node__NodeCase c)
{
	Node *n = ARENA_NEW(a, Node);
	pg_query__node__init(n);
	n->node_case = c;
	return n;
}

static Node *
mk_null(Arena *a)
{
	Node *n = mk(a, PG_QUERY__NODE__NODE_A_CONST);
	n->a_const = ARENA_NEW(a, PgQuery__AConst);
	pg_query__a__const__init(n->a_const);
	n->a_const->isnull = true;
	n->a_const->location = -1;
	return n;
}

static Node *
mk_int(Arena *a, int v)
{
	Node *n = mk(a, PG_QUERY__NODE__NODE_A_CONST);
	n->a_const = ARENA_NEW(a, PgQuery__AConst);
	pg_query__a__const__init(n->a_const);
	n->a_const->location = -1;
	n->a_const->val_case = PG_QUERY__A__CONST__VAL_IVAL;
	n->a_const->ival = ARENA_NEW(a, PgQuery__Integer);
	pg_query__integer__init(n->a_const->ival);
	n->a_const->ival->ival = v;
	return n;
}

static Node *
mk_string(Arena *a, const char *s)
{
	Node *n = mk(a, PG_QUERY__NODE__NODE_STRING);
	n->string = ARENA_NEW(a, PgQuery__String);
	pg_query__string__init(n->string);
	n->string->sval = (char *)s;
	return n;
}

static Node *
mk_cast(Arena *a, Node *arg, PgQuery__TypeName *tn)
{
	Node *n = mk(a, PG_QUERY__NODE__NODE_TYPE_CAST);
	n->type_cast = ARENA_NEW(a, PgQuery__TypeCast);
	pg_query__type_cast__init(n->type_cast);
	n->type_cast->arg = arg;
	n->type_cast->type_name = tn;
	n->type_cast->location = -1;
	return n;
}

static Node *
mk_colref2(Arena *a, const char *rel, const char *col)
{
	Node *n = mk(a, PG_QUERY__NODE__NODE_COLUMN_REF);
	n->column_ref = ARENA_NEW(a, PgQuery__ColumnRef);
	pg_query__column_ref__init(n->column_ref);
	n->column_ref->n_fields = 2;
	n->column_ref->fields = ARENA_ARRAY(a, Node *, 2);
	n->column_ref->fields[0] = mk_string(a, rel);
	n->column_ref->fields[1] = mk_string(a, col);
	n->column_ref->location = -1;
	return n;
}

/* arg_1 IS NULL OR ... OR arg_n IS NULL */
static Node *
mk_any_null(Arena *a, Node **args, int n)
{
	Node *or = mk(a, PG_QUERY__NODE__NODE_BOOL_EXPR);
	int i;

	or->bool_expr = ARENA_NEW(a, PgQuery__BoolExpr);
	pg_query__bool_expr__init(or->bool_expr);
	or->bool_expr->boolop = PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR;
	or->bool_expr->location = -1;
	or->bool_expr->args = ARENA_ARRAY(a, Node *, n + 1);
	for (i = 0; i < n; i++) {
		Node *t = mk(a, PG_QUERY__NODE__NODE_NULL_TEST);
		t->null_test = ARENA_NEW(a, PgQuery__NullTest);
		pg_query__null_test__init(t->null_test);
		t->null_test->arg = args[i];
		t->null_test->nulltesttype = PG_QUERY__NULL_TEST_TYPE__IS_NULL;
		t->null_test->location = -1;
		or->bool_expr->args[i] = t;
	}
	or->bool_expr->n_args = (size_t)n;
	return n == 1 ? or->bool_expr->args[0] : or;
}

static const char *
sval(const Node *n)
{
	return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval : NULL;
}

/* ---- parameter substitution -------------------------------------------- */

typedef struct Subst {
	const FnDef *d;
	Node **args;      /* CAST(argument AS type) per parameter */
	floe_error *err;
	bool failed;
} Subst;

static int subst_walk(const ProtobufCMessage *m, void *arg);

/* every location of the body's nodes is -1 (they are not the caller's
 * text); a parameter reference becomes its argument (not walked again) */
static int
subst_walk(const ProtobufCMessage *m, void *arg)
{
	Subst *st = arg;
	const ProtobufCMessageDescriptor *d = m->descriptor;
	unsigned i;

	if (d == &pg_query__node__descriptor) {
		Node *n = (Node *)m;
		int k = -1;
		if (n->node_case == PG_QUERY__NODE__NODE_PARAM_REF) {
			int num = n->param_ref->number;
			if (num < 1 || num > st->d->nparams) {
				floe_errorf(st->err, ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%d",
					    num);
				st->failed = true;
				return 1;
			}
			k = num - 1;
		} else if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
			PgQuery__ColumnRef *c = n->column_ref;
			const char *p = NULL;
			if (c->n_fields == 1)
				p = sval(c->fields[0]);
			else if (c->n_fields == 2 && sval(c->fields[0]) &&
				 !strcmp(sval(c->fields[0]), st->d->name))
				p = sval(c->fields[1]);
			if (p) {
				int j;
				for (j = 0; j < st->d->nparams; j++)
					if (st->d->pnames[j][0] && !strcmp(st->d->pnames[j], p))
						k = j;
			}
		}
		if (k >= 0) {
			*n = *st->args[k];
			return 0;
		}
	}
	for (i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		if (f->type == PROTOBUF_C_TYPE_INT32 && f->label != PROTOBUF_C_LABEL_REPEATED &&
		    !strcmp(f->name, "location"))
			*(int32_t *)((char *)m + f->offset) = -1;
	}
	return sql_children(m, subst_walk, arg) ? 1 : 0;
}

static int
has_colref_walk(const ProtobufCMessage *m, void *arg)
{
	(void)arg;
	if (m->descriptor == &pg_query__column_ref__descriptor)
		return 1;
	return sql_children(m, has_colref_walk, NULL);
}

static int
not_simple_walk(const ProtobufCMessage *m, void *arg)
{
	(void)arg;
	if (m->descriptor == &pg_query__sub_link__descriptor)
		return 1;
	if (m->descriptor == &pg_query__func_call__descriptor) {
		const PgQuery__FuncCall *f = (const PgQuery__FuncCall *)m;
		const char *name = sval(f->funcname[f->n_funcname - 1]);
		if (f->over || f->agg_star || f->agg_distinct || f->n_agg_order || f->agg_filter ||
		    (name && bind_is_aggregate_name(name)))
			return 1;
	}
	return sql_children(m, not_simple_walk, NULL);
}

/* ---- definitions -------------------------------------------------------- */

static const char *
type_text(Arena *a, SqlType t)
{
	char buf[96];
	return arena_strdup(a, func_type_name(t, buf, sizeof buf));
}

static int
refuse(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", what);
}

/* the body's one statement (a fresh parse in a), as a SELECT */
static int
body_stmt(const FnDef *d, Arena *a, floe_error *err, Node **out)
{
	SqlStmt *stmts;
	int n;
	Node *body;

	if (d->body_text) {
		TRY(sql_parse(d->body_text, a, &stmts, &n, err));
		if (n == 0)
			return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
					   "return type mismatch in function declared to return %s",
					   type_text(a, d->otypes[0]));
		if (n > 1)
			return refuse(err, "a SQL function body of more than one statement");
		body = stmts[0].node;
	} else {
		PgQuery__CreateFunctionStmt *cs;
		TRY(sql_parse(d->sql, a, &stmts, &n, err));
		if (n != 1 || stmts[0].node->node_case != PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT)
			return floe_errorf(err, ERRCODE_DATA_CORRUPTED, "catalog: bad function \"%s\"",
					   d->key);
		cs = stmts[0].node->create_function_stmt;
		body = cs->sql_body;
		if (body && body->node_case == PG_QUERY__NODE__NODE_LIST) {
			/* BEGIN ATOMIC: a list of one list of statements */
			PgQuery__List *l = body->list;
			if (l->n_items == 1 && l->items[0]->node_case == PG_QUERY__NODE__NODE_LIST)
				l = l->items[0]->list;
			if (l->n_items != 1)
				return refuse(err, "a SQL function body of other than one statement");
			body = l->items[0];
		}
	}
	if (body->node_case == PG_QUERY__NODE__NODE_RETURN_STMT) {
		Node *sel = mk(a, PG_QUERY__NODE__NODE_SELECT_STMT);
		Node *rt = mk(a, PG_QUERY__NODE__NODE_RES_TARGET);
		sel->select_stmt = ARENA_NEW(a, PgQuery__SelectStmt);
		pg_query__select_stmt__init(sel->select_stmt);
		sel->select_stmt->op = PG_QUERY__SET_OPERATION__SETOP_NONE;
		sel->select_stmt->limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
		rt->res_target = ARENA_NEW(a, PgQuery__ResTarget);
		pg_query__res_target__init(rt->res_target);
		rt->res_target->val = body->return_stmt->returnval;
		sel->select_stmt->n_target_list = 1;
		sel->select_stmt->target_list = ARENA_ARRAY(a, Node *, 1);
		sel->select_stmt->target_list[0] = rt;
		body = sel;
	}
	if (body->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
		if (body->node_case == PG_QUERY__NODE__NODE_INSERT_STMT ||
		    body->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ||
		    body->node_case == PG_QUERY__NODE__NODE_DELETE_STMT ||
		    body->node_case == PG_QUERY__NODE__NODE_MERGE_STMT)
			return refuse(err, "a SQL function body that writes");
		floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
			    "return type mismatch in function declared to return %s",
			    type_text(a, d->otypes[0]));
		floe_error_detail(err, "Function's final statement must be SELECT or "
				  "INSERT/UPDATE/DELETE RETURNING.");
		return FLOE_ERR;
	}
	*out = body;
	return FLOE_OK;
}

static bool
body_is_simple(Node *body)
{
	PgQuery__SelectStmt *s = body->select_stmt;

	return s->op == PG_QUERY__SET_OPERATION__SETOP_NONE && s->n_target_list == 1 &&
	       !s->n_from_clause && !s->where_clause && !s->n_group_clause && !s->having_clause &&
	       !s->n_sort_clause && !s->limit_count && !s->limit_offset && !s->n_distinct_clause &&
	       !s->with_clause && !s->n_window_clause && !s->n_locking_clause && !s->n_values_lists &&
	       s->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET &&
	       s->target_list[0]->res_target->val &&
	       !not_simple_walk(&s->target_list[0]->res_target->val->base, NULL);
}

/* cs (parsed from sql, in a) as a definition; the types bound in b */
static int
analyze(BindCtx *b, const char *ns, const char *sql, PgQuery__CreateFunctionStmt *cs, FnDef *d)
{
	Arena *a = b->arena;
	floe_error *err = b->err;
	const char *lang = NULL;
	size_t i;
	int np = 0, no = 0;
	Node *body;

	memset(d, 0, sizeof *d);
	d->ns = ns;
	d->sql = sql;
	d->cs = cs;
	d->vol = 'v';
	d->name = sval(cs->funcname[cs->n_funcname - 1]);
	if (cs->is_procedure)
		return refuse(err, "CREATE PROCEDURE");
	for (i = 0; i < cs->n_options; i++) {
		PgQuery__DefElem *de = cs->options[i]->def_elem;
		const char *nm = de->defname;
		if (!strcmp(nm, "as")) {
			PgQuery__List *l = de->arg && de->arg->node_case == PG_QUERY__NODE__NODE_LIST ?
				de->arg->list : NULL;
			if (!l || l->n_items != 1 || !sval(l->items[0]))
				return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
						   "only one AS item needed for language \"sql\"");
			d->body_text = sval(l->items[0]);
		} else if (!strcmp(nm, "language")) {
			lang = sval(de->arg);
		} else if (!strcmp(nm, "volatility")) {
			const char *v = sval(de->arg);
			d->vol = v && !strcmp(v, "immutable") ? 'i' : v && !strcmp(v, "stable") ? 's' : 'v';
		} else if (!strcmp(nm, "strict")) {
			d->strict = de->arg && de->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN ?
				de->arg->boolean->boolval : de->arg &&
				de->arg->node_case == PG_QUERY__NODE__NODE_INTEGER &&
				de->arg->integer->ival != 0;
		} else if (!strcmp(nm, "security")) {
			bool definer = de->arg && de->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN &&
				de->arg->boolean->boolval;
			if (definer)
				return refuse(err, "SECURITY DEFINER");
		} else if (!strcmp(nm, "parallel") || !strcmp(nm, "cost") || !strcmp(nm, "rows") ||
			   !strcmp(nm, "leakproof")) {
			/* planner hints: no effect on a result (docs/sql.md) */
		} else if (!strcmp(nm, "set")) {
			return refuse(err, "CREATE FUNCTION ... SET");
		} else {
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "CREATE FUNCTION option %s is not supported yet", nm);
		}
	}
	if (!lang) {
		if (!cs->sql_body)
			return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION, "no language specified");
		lang = "sql";
	}
	if (strcmp(lang, "sql") != 0) {
		if (!strcmp(lang, "plpgsql") || !strcmp(lang, "c") || !strcmp(lang, "internal"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "LANGUAGE %s is not supported: floe runs LANGUAGE sql functions only",
					   lang);
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "language \"%s\" does not exist", lang);
	}
	if (d->body_text && cs->sql_body)
		return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
				   "duplicate function body specified");
	if (!d->body_text && !cs->sql_body)
		return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION, "no function body specified");
	d->pnames = ARENA_ARRAY(a, const char *, cs->n_parameters + 1);
	d->ptypes = ARENA_ARRAY(a, SqlType, cs->n_parameters + 1);
	d->ptn = ARENA_ARRAY(a, PgQuery__TypeName *, cs->n_parameters + 1);
	d->pdefault = ARENA_ARRAY(a, Node *, cs->n_parameters + 1);
	d->onames = ARENA_ARRAY(a, const char *, cs->n_parameters + 2);
	d->otypes = ARENA_ARRAY(a, SqlType, cs->n_parameters + 2);
	d->otn = ARENA_ARRAY(a, PgQuery__TypeName *, cs->n_parameters + 2);
	for (i = 0; i < cs->n_parameters; i++) {
		PgQuery__FunctionParameter *p = cs->parameters[i]->function_parameter;
		SqlType t;
		const char *tname = sval(p->arg_type->names[p->arg_type->n_names - 1]);
		if (p->mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_OUT ||
		    p->mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_INOUT)
			return refuse(err, "OUT and INOUT parameters");
		if (p->mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_VARIADIC)
			return refuse(err, "VARIADIC parameters");
		if (p->arg_type->pct_type)
			return refuse(err, "%TYPE in a parameter type");
		if (tname && !strncmp(tname, "any", 3))
			return refuse(err, "polymorphic parameter types");
		TRY(bind_type_name(b, p->arg_type, &t));
		if (p->mode == PG_QUERY__FUNCTION_PARAMETER_MODE__FUNC_PARAM_TABLE) {
			d->onames[no] = p->name ? p->name : "";
			d->otypes[no] = t;
			d->otn[no++] = p->arg_type;
			continue;
		}
		if (p->name && p->name[0]) {
			int j;
			for (j = 0; j < np; j++)
				if (!strcmp(d->pnames[j], p->name))
					return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
							   "parameter name \"%s\" used more than once", p->name);
		}
		d->pnames[np] = p->name ? p->name : "";
		d->ptypes[np] = t;
		d->ptn[np] = p->arg_type;
		if (p->defexpr) {
			d->pdefault[np] = p->defexpr;
			d->ndefaults++;
		} else if (d->ndefaults) {
			return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
					   "input parameters after one with a default value must also have defaults");
		}
		np++;
	}
	d->nparams = np;
	if (no) {
		if (cs->return_type && !cs->return_type->setof)
			return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
					   "function result type must be record because of OUT parameters");
		d->retset = d->table = true;
		d->nout = no;
	} else {
		PgQuery__TypeName *rt = cs->return_type;
		const char *rname;
		if (!rt)
			return floe_errorf(err, ERRCODE_INVALID_FUNCTION_DEFINITION,
					   "function result type must be specified");
		rname = sval(rt->names[rt->n_names - 1]);
		if (rname && !strcmp(rname, "void"))
			return refuse(err, "a SQL function returning void");
		if (rname && (!strncmp(rname, "any", 3) || !strcmp(rname, "record") ||
			      !strcmp(rname, "trigger")))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "SQL functions returning %s are not supported yet", rname);
		if (rt->pct_type)
			return refuse(err, "%TYPE in a result type");
		TRY(bind_type_name(b, rt, &d->otypes[0]));
		d->otn[0] = rt;
		d->onames[0] = d->name;
		d->nout = 1;
		d->retset = rt->setof;
	}
	{
		char *k = arena_sprintf(a, "%s(", d->name);
		int j;
		for (j = 0; j < np; j++)
			k = arena_sprintf(a, "%s%s%s", k, j ? "," : "", type_text(a, d->ptypes[j]));
		d->key = arena_sprintf(a, "%s)", k);
	}
	TRY(body_stmt(d, a, err, &body));
	d->simple = !d->retset && body_is_simple(body);
	return FLOE_OK;
}

/* ---- the session's set -------------------------------------------------- */

static void
state_drop(Session *s)
{
	if (s->funcs) {
		arena_free(s->funcs->a);
		free(s->funcs);
		s->funcs = NULL;
	}
}

void
function_free(Session *s)
{
	state_drop(s);
}

static int
state_get(Session *s, FuncState **out, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	FuncState *fs = s->funcs;
	uint64_t gen = atomic_load(&fn_generation);
	char **nss, **keys, **defs;
	int n, i;
	BindCtx b;

	*out = NULL;
	if (fs && fs->gen == gen && now_ms() - fs->loaded_ms < FN_RELOAD_MS) {
		*out = fs;
		return FLOE_OK;
	}
	state_drop(s);
	if (!c->vt->obj_list)
		return FLOE_OK;
	fs = calloc(1, sizeof *fs);
	if (!fs)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	fs->a = arena_new(0);
	fs->gen = gen;
	fs->loaded_ms = now_ms();
	s->funcs = fs;
	TRY(c->vt->obj_list(c, FN_KIND, fs->a, &nss, &keys, &defs, &n, err));
	fs->defs = ARENA_ARRAY(fs->a, FnDef, n + 1);
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = fs->a;
	for (i = 0; i < n; i++) {
		SqlStmt *stmts;
		int ns;
		floe_error e;
		b.err = &e;
		/* a definition that no longer parses or binds (a type gone) is skipped */
		if (sql_parse(defs[i], fs->a, &stmts, &ns, &e) != FLOE_OK || ns != 1 ||
		    stmts[0].node->node_case != PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT)
			continue;
		if (analyze(&b, nss[i], defs[i], stmts[0].node->create_function_stmt,
			    &fs->defs[fs->n]) != FLOE_OK)
			continue;
		fs->n++;
	}
	*out = fs;
	return FLOE_OK;
}

static bool
on_path(Session *s, const char *ns)
{
	int n, i;
	const char *const *l = search_path_list(s, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(l[i], ns))
			return true;
	return false;
}

/* ---- expansion ---------------------------------------------------------- */

/* the body with every parameter replaced by args[k] (already CASTs) */
static int
expand_body(const FnDef *d, Arena *a, Node **args, floe_error *err, Node **out)
{
	Subst st = { d, args, err, false };

	TRY(body_stmt(d, a, err, out));
	(void)subst_walk(&(*out)->base, &st);
	return st.failed ? FLOE_ERR : FLOE_OK;
}

/* SELECT CAST(floe$b.c1 AS t1) AS n1, ... FROM (body) AS floe$b(c1, ...)
 * [WHERE NOT (an argument IS NULL)] [LIMIT 1] */
static Node *
wrap_body(const FnDef *d, Arena *a, Node *body, Node **args, const char *const *names, bool one)
{
	Node *sel = mk(a, PG_QUERY__NODE__NODE_SELECT_STMT), *rs;
	PgQuery__SelectStmt *s;
	PgQuery__Alias *al;
	int i;

	sel->select_stmt = s = ARENA_NEW(a, PgQuery__SelectStmt);
	pg_query__select_stmt__init(s);
	s->op = PG_QUERY__SET_OPERATION__SETOP_NONE;
	al = ARENA_NEW(a, PgQuery__Alias);
	pg_query__alias__init(al);
	al->aliasname = "floe$b";
	al->colnames = ARENA_ARRAY(a, Node *, d->nout);
	s->target_list = ARENA_ARRAY(a, Node *, d->nout);
	for (i = 0; i < d->nout; i++) {
		const char *c = arena_sprintf(a, "c%d", i + 1);
		Node *rt = mk(a, PG_QUERY__NODE__NODE_RES_TARGET);
		al->colnames[i] = mk_string(a, c);
		rt->res_target = ARENA_NEW(a, PgQuery__ResTarget);
		pg_query__res_target__init(rt->res_target);
		rt->res_target->name = (char *)names[i];
		rt->res_target->val = mk_cast(a, mk_colref2(a, "floe$b", c), d->otn[i]);
		rt->res_target->location = -1;
		s->target_list[i] = rt;
	}
	al->n_colnames = (size_t)d->nout;
	s->n_target_list = (size_t)d->nout;
	rs = mk(a, PG_QUERY__NODE__NODE_RANGE_SUBSELECT);
	rs->range_subselect = ARENA_NEW(a, PgQuery__RangeSubselect);
	pg_query__range_subselect__init(rs->range_subselect);
	rs->range_subselect->subquery = body;
	rs->range_subselect->alias = al;
	s->n_from_clause = 1;
	s->from_clause = ARENA_ARRAY(a, Node *, 1);
	s->from_clause[0] = rs;
	if (d->strict && d->nparams > 0) {
		Node *not = mk(a, PG_QUERY__NODE__NODE_BOOL_EXPR);
		not->bool_expr = ARENA_NEW(a, PgQuery__BoolExpr);
		pg_query__bool_expr__init(not->bool_expr);
		not->bool_expr->boolop = PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR;
		not->bool_expr->location = -1;
		not->bool_expr->n_args = 1;
		not->bool_expr->args = ARENA_ARRAY(a, Node *, 1);
		not->bool_expr->args[0] = mk_any_null(a, args, d->nparams);
		s->where_clause = not;
	}
	s->limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
	if (one) {
		s->limit_count = mk_int(a, 1);
		s->limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_COUNT;
	}
	return sel;
}

/* CAST(arg AS parameter type) per parameter: the caller's args (npos
 * given, the rest their DEFAULTs); NULLs when args is NULL (CREATE's
 * check) */
static Node **
cast_args(const FnDef *d, Arena *a, Node **given, int ngiven)
{
	Node **out = ARENA_ARRAY(a, Node *, d->nparams + 1);
	int i;

	for (i = 0; i < d->nparams; i++) {
		Node *v = given && i < ngiven && given[i] ? given[i] : given ? d->pdefault[i] : NULL;
		out[i] = mk_cast(a, v ? v : mk_null(a), d->ptn[i]);
	}
	return out;
}

/* the scalar call's expression: the inlined body or a scalar subquery */
static Node *
scalar_expansion(const FnDef *d, Arena *a, Node **args, floe_error *err)
{
	Node *body, *e;

	if (expand_body(d, a, args, err, &body) != FLOE_OK)
		return NULL;
	if (d->simple) {
		e = body->select_stmt->target_list[0]->res_target->val;
		if (d->strict && d->nparams > 0) {
			Node *c = mk(a, PG_QUERY__NODE__NODE_CASE_EXPR), *w = mk(a, PG_QUERY__NODE__NODE_CASE_WHEN);
			w->case_when = ARENA_NEW(a, PgQuery__CaseWhen);
			pg_query__case_when__init(w->case_when);
			w->case_when->expr = mk_any_null(a, args, d->nparams);
			w->case_when->result = mk_null(a);
			w->case_when->location = -1;
			c->case_expr = ARENA_NEW(a, PgQuery__CaseExpr);
			pg_query__case_expr__init(c->case_expr);
			c->case_expr->n_args = 1;
			c->case_expr->args = ARENA_ARRAY(a, Node *, 1);
			c->case_expr->args[0] = w;
			c->case_expr->defresult = e;
			c->case_expr->location = -1;
			e = c;
		}
		return mk_cast(a, e, d->otn[0]);
	}
	e = mk(a, PG_QUERY__NODE__NODE_SUB_LINK);
	e->sub_link = ARENA_NEW(a, PgQuery__SubLink);
	pg_query__sub_link__init(e->sub_link);
	e->sub_link->sub_link_type = PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK;
	e->sub_link->subselect = wrap_body(d, a, body, args, d->onames, true);
	e->sub_link->location = -1;
	return e;
}

/* ---- call resolution ---------------------------------------------------- */

typedef struct Call {
	Node **args;      /* per parameter of the chosen function (NULL: default) */
	int nargs;
} Call;

/* f's arguments for d in parameter order (named ones placed); false when
 * they do not fit d's parameters */
static bool
place_args(const FnDef *d, PgQuery__FuncCall *f, Arena *a, Node **out)
{
	size_t i;
	int k;

	for (k = 0; k < d->nparams; k++)
		out[k] = NULL;
	if ((int)f->n_args > d->nparams)
		return false;
	for (i = 0; i < f->n_args; i++) {
		Node *n = f->args[i];
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			const char *nm = n->named_arg_expr->name;
			for (k = 0; k < d->nparams; k++)
				if (d->pnames[k][0] && !strcmp(d->pnames[k], nm))
					break;
			if (k == d->nparams || out[k])
				return false;
			out[k] = n->named_arg_expr->arg;
		} else {
			out[i] = n;
		}
	}
	for (k = 0; k < d->nparams; k++)
		if (!out[k] && !d->pdefault[k])
			return false;
	(void)a;
	return true;
}

static const char *
call_signature(BindCtx *b, const char *name, Expr **types, int n)
{
	char *k = arena_sprintf(b->arena, "%s(", name);
	int i;
	char buf[96];

	for (i = 0; i < n; i++)
		k = arena_sprintf(b->arena, "%s%s%s", k, i ? ", " : "",
				  types[i]->unknown_literal ? "unknown" :
				  func_type_name(types[i]->type, buf, sizeof buf));
	return arena_sprintf(b->arena, "%s)", k);
}

/* The SQL function f names, with its arguments placed; *d NULL: none
 * (*handled false: no SQL function of the name at all). */
static int
resolve(BindCtx *b, PgQuery__FuncCall *f, const FnDef **out, Node ***placed, bool *handled)
{
	Session *s = b->session;
	FuncState *fs;
	const char *name = sval(f->funcname[f->n_funcname - 1]);
	const char *qual = f->n_funcname == 2 ? sval(f->funcname[0]) : NULL;
	Expr **bound;
	int i, best = -1, best_exact = -1, best_text = -1, ties = 0, any = 0;
	Node ***cand_args;

	*out = NULL;
	*handled = false;
	if (!s || !name || f->n_funcname > 2 || (qual && !strcmp(qual, "pg_catalog")))
		return FLOE_OK;
	if (qual && !acl_schema_usage(s, qual)) {
		/* a schema the role may not use: 42501 before the lookup
		 * (PostgreSQL's LookupExplicitNamespace); a missing schema is
		 * the lookup's own error */
		floe_error e;
		floe_error_clear(&e);
		if (!(ddl_check_namespace(s, qual, &e) != FLOE_OK && floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME))) {
			*handled = true;
			floe_errorf(b->err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s", qual);
			if (f->location >= 0)
				floe_error_position(b->err, bind_location(b, f->location));
			return FLOE_ERR;
		}
	}
	if (state_get(s, &fs, b->err) != FLOE_OK) {
		*handled = true;
		return FLOE_ERR;
	}
	if (!fs)
		return FLOE_OK;
	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->defs[i].name, name) && (qual ? !strcmp(fs->defs[i].ns, qual)
						     : on_path(s, fs->defs[i].ns)))
			any++;
	if (!any)
		return FLOE_OK;
	*handled = true;
	bound = ARENA_ARRAY(b->arena, Expr *, f->n_args + 1);
	for (i = 0; i < (int)f->n_args; i++) {
		Node *n = f->args[i];
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
			n = n->named_arg_expr->arg;
		if (!(bound[i] = bind_expr(b, n)))
			return FLOE_ERR;
	}
	cand_args = ARENA_ARRAY(b->arena, Node **, fs->n + 1);
	for (i = 0; i < fs->n; i++) {
		const FnDef *d = &fs->defs[i];
		int k, exact = 0, text = 0;
		bool ok = true;
		size_t j;
		if (strcmp(d->name, name) || !(qual ? !strcmp(d->ns, qual) : on_path(s, d->ns)))
			continue;
		cand_args[i] = ARENA_ARRAY(b->arena, Node *, d->nparams + 1);
		if (!place_args(d, f, b->arena, cand_args[i]))
			continue;
		for (j = 0; j < f->n_args && ok; j++) {
			Expr *e = bound[j];
			Node *n = f->args[j];
			k = (int)j;
			if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
				for (k = 0; k < d->nparams; k++)
					if (cand_args[i][k] == n->named_arg_expr->arg)
						break;
			if (e->unknown_literal || e->type.id == TYPE_NULL) {
				if (d->ptypes[k].id == TYPE_TEXT)
					text++;
			} else if (e->type.id == d->ptypes[k].id) {
				exact++;
			} else if (!func_implicit_cast(e->type.id, d->ptypes[k].id)) {
				ok = false;
			}
		}
		if (!ok)
			continue;
		if (exact > best_exact || (exact == best_exact && text > best_text)) {
			best = i;
			best_exact = exact;
			best_text = text;
			ties = 1;
		} else if (exact == best_exact && text == best_text) {
			ties++;
		}
	}
	if (best < 0) {
		*handled = false;   /* the built-in resolution reports 42883 */
		return FLOE_OK;
	}
	if (ties > 1) {
		floe_errorf(b->err, ERRCODE_AMBIGUOUS_FUNCTION, "function %s is not unique",
			    call_signature(b, name, bound, (int)f->n_args));
		floe_error_hint(b->err, "Could not choose a best candidate function. You might need "
				"to add explicit type casts.");
		floe_error_position(b->err, bind_location(b, f->location));
		return FLOE_ERR;
	}
	*out = &fs->defs[best];
	*placed = cand_args[best];
	return FLOE_OK;
}

static bool
args_have_columns(Node **args, int n)
{
	int i;
	for (i = 0; i < n; i++)
		if (args[i] && has_colref_walk(&args[i]->base, NULL))
			return true;
	return false;
}

Expr *
function_bind_call(BindCtx *b, PgQuery__FuncCall *f, bool *handled)
{
	const FnDef *d;
	Node **placed, **args, *e;
	Arena *a = b->arena;
	Expr *out;

	if (resolve(b, f, &d, &placed, handled) != FLOE_OK || !d)
		return NULL;
	if (f->over || f->agg_star || f->agg_distinct || f->n_agg_order || f->agg_filter) {
		floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE,
			    f->over ? "OVER specified, but %s is not a window function nor an aggregate function"
			    : "%s is not an aggregate function", d->name);
		floe_error_position(b->err, bind_location(b, f->location));
		return NULL;
	}
	if (d->retset) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "set-returning SQL functions are supported only in FROM (function %s)", d->name);
		floe_error_position(b->err, bind_location(b, f->location));
		return NULL;
	}
	if (!d->simple && args_have_columns(placed, d->nparams)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "SQL function %s reads a query: its arguments cannot reference columns yet",
			    d->name);
		floe_error_position(b->err, bind_location(b, f->location));
		return NULL;
	}
	if (fn_depth >= FN_MAX_DEPTH) {
		floe_errorf(b->err, ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
		floe_error_detail(b->err, "SQL function \"%s\" expands itself.", d->name);
		return NULL;
	}
	args = cast_args(d, a, placed, d->nparams);
	if (!(e = scalar_expansion(d, a, args, b->err)))
		return NULL;
	if (!d->simple)
		select_note_used(b, e);
	fn_depth++;
	out = bind_expr(b, e);
	fn_depth--;
	return out;
}

int
function_source(BindCtx *b, ExecCtx *ctx, PgQuery__FuncCall *f, PgQuery__Alias *alias,
		Node **query, bool *handled)
{
	const FnDef *d;
	Node **placed, **args, *body;
	Arena *a = b->arena;
	const char **names;
	int i;

	(void)ctx;
	*query = NULL;
	TRY(resolve(b, f, &d, &placed, handled));
	if (!d)
		return FLOE_OK;
	if (args_have_columns(placed, d->nparams))
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "SQL function %s in FROM: its arguments cannot reference columns yet",
				   d->name);
	if (fn_depth >= FN_MAX_DEPTH)
		return floe_errorf(b->err, ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
	args = cast_args(d, a, placed, d->nparams);
	names = ARENA_ARRAY(a, const char *, d->nout + 1);
	for (i = 0; i < d->nout; i++)
		names[i] = d->table ? d->onames[i] : alias && !alias->n_colnames ? alias->aliasname
										    : d->name;
	if (!d->retset) {
		/* a scalar function in FROM: one row */
		Node *sel = mk(a, PG_QUERY__NODE__NODE_SELECT_STMT), *rt = mk(a, PG_QUERY__NODE__NODE_RES_TARGET);
		Node *e = scalar_expansion(d, a, args, b->err);
		if (!e)
			return FLOE_ERR;
		sel->select_stmt = ARENA_NEW(a, PgQuery__SelectStmt);
		pg_query__select_stmt__init(sel->select_stmt);
		sel->select_stmt->op = PG_QUERY__SET_OPERATION__SETOP_NONE;
		sel->select_stmt->limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
		rt->res_target = ARENA_NEW(a, PgQuery__ResTarget);
		pg_query__res_target__init(rt->res_target);
		rt->res_target->name = (char *)names[0];
		rt->res_target->val = e;
		sel->select_stmt->n_target_list = 1;
		sel->select_stmt->target_list = ARENA_ARRAY(a, Node *, 1);
		sel->select_stmt->target_list[0] = rt;
		*query = sel;
	} else {
		TRY(expand_body(d, a, args, b->err, &body));
		*query = wrap_body(d, a, body, args, names, false);
	}
	select_note_used(b, *query);
	return FLOE_OK;
}

/* ---- CREATE / DROP ------------------------------------------------------ */

static int
check_body(Session *s, ExecCtx *ctx, FnDef *d)
{
	Node *body, **args = cast_args(d, ctx->arena, NULL, 0);
	SelectPlan p;
	BindCtx b;
	int i;
	char b1[96];

	TRY(expand_body(d, ctx->arena, args, ctx->err, &body));
	TRY(select_plan(s, ctx, "", body, &p));
	if (!d->table && p.ncols != 1) {
		floe_errorf(ctx->err, ERRCODE_INVALID_FUNCTION_DEFINITION,
			    "return type mismatch in function declared to return %s",
			    type_text(ctx->arena, d->otypes[0]));
		floe_error_detail(ctx->err, "Final statement must return exactly one column.");
		return FLOE_ERR;
	}
	if (d->table && p.ncols != d->nout) {
		floe_errorf(ctx->err, ERRCODE_INVALID_FUNCTION_DEFINITION,
			    "return type mismatch in function declared to return record");
		floe_error_detail(ctx->err, "%s", p.ncols > d->nout ? "Final statement returns too many columns."
				  : "Final statement returns too few columns.");
		return FLOE_ERR;
	}
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	for (i = 0; i < p.ncols; i++) {
		floe_error e;
		Value v = value_null(p.types[i]);
		Expr *x = expr_const(ctx->arena, &v);
		b.err = &e;
		if (p.types[i].id == TYPE_NULL || p.types[i].id == d->otypes[i].id)
			continue;
		/* from a string type only to string types (PostgreSQL's I/O
		 * conversion casts from text are explicit-only) */
		if ((p.types[i].id == TYPE_TEXT && d->otypes[i].id != TYPE_TEXT) ||
		    !bind_coerce(&b, x, d->otypes[i], COERCE_ASSIGNMENT, NULL)) {
			if (d->table) {
				char b2[96];
				floe_errorf(ctx->err, ERRCODE_INVALID_FUNCTION_DEFINITION,
					    "return type mismatch in function declared to return record");
				floe_error_detail(ctx->err, "Final statement returns %s instead of %s at column %d.",
						  func_type_name(p.types[i], b1, sizeof b1),
						  func_type_name(d->otypes[i], b2, sizeof b2), i + 1);
				return FLOE_ERR;
			}
			floe_errorf(ctx->err, ERRCODE_INVALID_FUNCTION_DEFINITION,
				    "return type mismatch in function declared to return %s",
				    type_text(ctx->arena, d->otypes[0]));
			floe_error_detail(ctx->err, "Actual return type is %s.",
					  func_type_name(p.types[i], b1, sizeof b1));
			return FLOE_ERR;
		}
	}
	return FLOE_OK;
}

static const FnDef *
find_key(FuncState *fs, const char *ns, const char *key)
{
	int i;
	for (i = 0; fs && i < fs->n; i++)
		if (!strcmp(fs->defs[i].ns, ns) && !strcmp(fs->defs[i].key, key))
			return &fs->defs[i];
	return NULL;
}

static bool
same_result(const FnDef *x, const FnDef *y)
{
	int i;
	if (x->retset != y->retset || x->table != y->table || x->nout != y->nout)
		return false;
	for (i = 0; i < x->nout; i++)
		if (!type_equal(x->otypes[i], y->otypes[i]) ||
		    (x->table && strcmp(x->onames[i], y->onames[i])))
			return false;
	return true;
}

static const char *
drop_signature(Arena *a, const FnDef *d)
{
	char *k = arena_sprintf(a, "%s(", d->name);
	int i;
	for (i = 0; i < d->nparams; i++)
		k = arena_sprintf(a, "%s%s%s", k, i ? ", " : "", type_text(a, d->ptypes[i]));
	return arena_sprintf(a, "%s)", k);
}

static int
create_function(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
		PgQuery__CreateFunctionStmt *cs, ResultSink *sink)
{
	Arena *a = ctx->arena;
	Catalog *c = s->engine->catalog;
	const char *ns, *text;
	FnDef d;
	const FnDef *old;
	FuncState *fs;
	BindCtx b;
	int len;

	if (cs->n_funcname > 2)
		return refuse(ctx->err, "a function name with a database");
	ns = cs->n_funcname == 2 ? sval(cs->funcname[0]) : search_path_creation(s, ctx->err);
	if (!ns)
		return FLOE_ERR;
	if (!c->vt->obj_put)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "CREATE FUNCTION needs a SQL catalog (SQLite or PostgreSQL), not this one");
	len = st->len ? st->len : (int)strlen(sql + st->location);
	text = arena_strndup(a, sql + st->location, (size_t)len);
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = ctx->err;
	b.exec = ctx;
	TRY(analyze(&b, ns, text, cs, &d));
	TRY(check_body(s, ctx, &d));
	TRY(state_get(s, &fs, ctx->err));
	old = find_key(fs, ns, d.key);
	if (old && !cs->replace)
		return floe_errorf(ctx->err, ERRCODE_DUPLICATE_FUNCTION,
				   "function \"%s\" already exists with same argument types", d.name);
	if (old) {
		int i;
		if (!same_result(old, &d)) {
			floe_errorf(ctx->err, ERRCODE_INVALID_FUNCTION_DEFINITION,
				    "cannot change return type of existing function");
			floe_error_hint(ctx->err, "Use DROP FUNCTION %s first.", drop_signature(a, old));
			return FLOE_ERR;
		}
		for (i = 0; i < old->nparams; i++)
			if (old->pnames[i][0] && strcmp(old->pnames[i], d.pnames[i])) {
				floe_errorf(ctx->err, ERRCODE_INVALID_FUNCTION_DEFINITION,
					    "cannot change name of input parameter \"%s\"", old->pnames[i]);
				floe_error_hint(ctx->err, "Use DROP FUNCTION %s first.", drop_signature(a, old));
				return FLOE_ERR;
			}
		if (d.ndefaults < old->ndefaults) {
			floe_errorf(ctx->err, ERRCODE_INVALID_FUNCTION_DEFINITION,
				    "cannot remove parameter defaults from existing function");
			floe_error_hint(ctx->err, "Use DROP FUNCTION %s first.", drop_signature(a, old));
			return FLOE_ERR;
		}
	}
	TRY(c->vt->obj_put(c, ns, FN_KIND, d.key, text, cs->replace, ctx->err));
	atomic_fetch_add(&fn_generation, 1);
	return engine_complete(sink, "CREATE FUNCTION");
}

static int
drop_function(Session *s, ExecCtx *ctx, PgQuery__DropStmt *ds, ResultSink *sink)
{
	Arena *a = ctx->arena;
	Catalog *c = s->engine->catalog;
	FuncState *fs;
	size_t i;

	if (ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE)
		return refuse(ctx->err, "DROP PROCEDURE");
	if (ds->concurrent)
		return refuse(ctx->err, "DROP FUNCTION CONCURRENTLY");
	for (i = 0; i < ds->n_objects; i++) {
		PgQuery__ObjectWithArgs *o = ds->objects[i]->object_with_args;
		const char *name = sval(o->objname[o->n_objname - 1]);
		const char *qual = o->n_objname == 2 ? sval(o->objname[0]) : NULL;
		const FnDef *hit = NULL;
		const char *sig = NULL;
		bool found;
		int k, nhits = 0;
		BindCtx b;

		if (o->n_objname > 2)
			return refuse(ctx->err, "a function name with a database");
		/* a schema the role may not use: 42501 before the lookup
		 * (PostgreSQL's LookupExplicitNamespace) */
		if (qual)
			TRY(acl_check_schema_usage(s, ctx, qual, ctx->err));
		TRY(state_get(s, &fs, ctx->err));
		memset(&b, 0, sizeof b);
		b.session = s;
		b.arena = a;
		b.err = ctx->err;
		if (!o->args_unspecified) {
			char *sk = arena_sprintf(a, "%s(", name);
			size_t j;
			for (j = 0; j < o->n_objargs; j++) {
				SqlType t;
				TRY(bind_type_name(&b, o->objargs[j]->type_name, &t));
				sk = arena_sprintf(a, "%s%s%s", sk, j ? "," : "", type_text(a, t));
			}
			sig = arena_sprintf(a, "%s)", sk);
		}
		for (k = 0; fs && k < fs->n; k++) {
			const FnDef *d = &fs->defs[k];
			if (strcmp(d->name, name) || !(qual ? !strcmp(d->ns, qual) : on_path(s, d->ns)))
				continue;
			if (sig && strcmp(d->key, sig))
				continue;
			if (hit && strcmp(hit->ns, d->ns) && sig)
				continue;   /* the first schema on the path */
			hit = hit ? hit : d;
			nhits++;
		}
		if (!hit) {
			const char *shown = sig ? arena_sprintf(a, "%s%s%s", qual ? qual : "", qual ? "." : "",
								  sig) : NULL;
			if (shown) {
				/* PostgreSQL spells the types with ", " */
				char *q = arena_alloc(a, 2 * strlen(shown) + 1), *w = q;
				const char *p;
				for (p = shown; *p; p++) {
					*w++ = *p;
					if (*p == ',')
						*w++ = ' ';
				}
				*w = 0;
				shown = q;
			}
			if (ds->missing_ok) {
				engine_notice(sink, "function %s does not exist, skipping",
					      shown ? shown : arena_sprintf(a, "%s()", name));
				continue;
			}
			if (!shown)
				return floe_errorf(ctx->err, ERRCODE_UNDEFINED_FUNCTION,
						   "could not find a function named \"%s\"", name);
			return floe_errorf(ctx->err, ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist",
					   shown);
		}
		if (!sig && nhits > 1) {
			floe_errorf(ctx->err, ERRCODE_AMBIGUOUS_FUNCTION, "function name \"%s\" is not unique",
				    name);
			floe_error_hint(ctx->err, "Specify the argument list to select the function unambiguously.");
			return FLOE_ERR;
		}
		/* found: only its owner drops it, and floe's functions are the
		 * superuser's (acl.c refuses CREATE FUNCTION to other roles) */
		if (!acl_is_superuser(s))
			return floe_errorf(ctx->err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must be owner of function %s",
					   hit->name);
		TRY(c->vt->obj_delete(c, hit->ns, FN_KIND, hit->key, &found, ctx->err));
		atomic_fetch_add(&fn_generation, 1);
		state_drop(s);
	}
	return engine_complete(sink, "DROP FUNCTION");
}

bool
function_owns(const Node *n)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
	case PG_QUERY__NODE__NODE_DO_STMT:
	case PG_QUERY__NODE__NODE_ALTER_FUNCTION_STMT:
		return true;
	case PG_QUERY__NODE__NODE_DROP_STMT:
		return n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION ||
		       n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE ||
		       n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE;
	default:
		return false;
	}
}

int
function_exec(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st, Node *n,
	      ResultSink *sink)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
		return create_function(s, ctx, sql, st, n->create_function_stmt, sink);
	case PG_QUERY__NODE__NODE_DO_STMT:
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "DO is not supported: floe runs no procedural language (PL/pgSQL)");
	case PG_QUERY__NODE__NODE_ALTER_FUNCTION_STMT:
		return refuse(ctx->err, "ALTER FUNCTION");
	case PG_QUERY__NODE__NODE_DROP_STMT:
		return drop_function(s, ctx, n->drop_stmt, sink);
	default:
		return refuse(ctx->err, "this statement");
	}
}

int
function_list(Session *s, Arena *a, FunctionInfo **out, int *n, floe_error *err)
{
	(void)s;
	(void)a;
	(void)err;
	*out = NULL;
	*n = 0;
	return FLOE_OK;
}
