/*
 * bind_expr.c — expressions from parse trees to typed Expr trees.
 *
 * Follows PostgreSQL's parse_expr.c / parse_func.c / parse_coerce.c in
 * behaviour (not in code): untyped string literals stay "unknown" until
 * context types them; operators and functions resolve through func/
 * (func_resolve_scalar) which says what each argument must be cast to;
 * constant subtrees are folded at bind time, so errors in constants
 * (1/0) surface even when no row is read, as in PostgreSQL.
 *
 * INTERFACE ROUTINES (bind.h)
 *   bind_expr, bind_type_name, bind_coerce, bind_coerce_bool,
 *   bind_common_type, bind_colname, bind_fold, bind_env, bind_location
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common/stack.h"
#include "func/agg_ordered.h"
#include "func/func.h"
#include "exec/subplan.h"
#include "sql/usertype.h"
#include "types/udt.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/function.h"
#include "sql/pgcatalog.h"
#include "sql/sequence.h"
#include "sql/set_config.h"
#include "types/array.h"
#include "types/cast.h"
#include "types/decimal.h"
#include "types/text.h"

/* bind_expr recurses once per expression level, so whatever the compiler
 * inlines into it multiplies by the depth: the cases with large frames stay
 * out of line (a 10-term sum at max_stack_depth 100kB, pgdiff
 * max_stack_depth.test, ran out when bind_const's 4.6 kB frame was
 * inlined into it under the sanitizers) */
#define BIND_OUTLINE __attribute__((noinline))

bool
bind_is_aggregate_name(const char *name)
{
	return func_is_aggregate(name) || agg_ordered_is(name);
}

int
bind_check_cancel(BindCtx *b)
{
	if (b->session && b->session->cancel_flag && *b->session->cancel_flag)
		return floe_errorf(b->err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	return FLOE_OK;
}

/* Character positions of b->sql, so that bind_location costs O(1) (it is
 * called for every bound node: counting from the text's start each time
 * made binding quadratic in the statement's length).  An ASCII text maps
 * offsets to themselves; otherwise every POS_STEP-th offset's position is
 * kept and the rest counted from there. */
#define POS_STEP 64

typedef struct BindPos {
	const char *sql;
	size_t len;
	bool ascii;
	int *at;          /* at[k]: characters before byte k * POS_STEP */
} BindPos;

static BindPos *
bind_pos(BindCtx *b)
{
	BindCtx *c;
	BindPos *p;
	size_t i, chars = 0;

	for (c = b; c; c = c->parent)
		if (c->pos && c->pos->sql == b->sql)
			return b->pos = c->pos;
	p = ARENA_NEW(b->arena, BindPos);
	p->sql = b->sql;
	p->len = strlen(b->sql);
	p->ascii = true;
	for (i = 0; i < p->len && p->ascii; i++)
		p->ascii = (unsigned char)b->sql[i] < 0x80;
	if (!p->ascii) {
		p->at = ARENA_ARRAY(b->arena, int, p->len / POS_STEP + 1);
		for (i = 0; i < p->len; i++) {
			if (i % POS_STEP == 0)
				p->at[i / POS_STEP] = (int)chars;
			if (((unsigned char)b->sql[i] & 0xc0) != 0x80)
				chars++;
		}
		if (p->len % POS_STEP == 0)
			p->at[p->len / POS_STEP] = (int)chars;
	}
	return b->pos = p;
}

/* 1-based character position of byte offset byte_offset of b->sql (0:
 * none), as PostgreSQL reports error positions. */
int
bind_location(BindCtx *b, int byte_offset)
{
	BindPos *p;
	size_t off, i;
	int chars;

	if (byte_offset < 0 || !b->sql)
		return 0;
	if (!b->arena) {
		/* a context made only to place one error: count */
		for (i = 0, chars = 0; i < (size_t)byte_offset && b->sql[i]; i++)
			if (((unsigned char)b->sql[i] & 0xc0) != 0x80)
				chars++;
		return chars + 1;
	}
	p = bind_pos(b);
	off = (size_t)byte_offset < p->len ? (size_t)byte_offset : p->len;
	if (p->ascii)
		return (int)off + 1;
	chars = p->at[off / POS_STEP];
	for (i = off / POS_STEP * POS_STEP; i < off; i++)
		if (((unsigned char)b->sql[i] & 0xc0) != 0x80)
			chars++;
	return chars + 1;
}

static Expr *
fail_at(BindCtx *b, int location)
{
	if (location >= 0 && b->err->position == 0)
		floe_error_position(b->err, bind_location(b, location));
	return NULL;
}

static const char *
tname(SqlType t, char *buf, size_t n)
{
	return func_type_name(t, buf, n);
}

static const char *
str_of(Node *n)
{
	return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval : NULL;
}

/* ---- type names -------------------------------------------------------- */

static int
typmod_int(BindCtx *b, Node *n, int *out)
{
	if (n && n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
	    n->a_const->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
		*out = n->a_const->ival->ival;
		return FLOE_OK;
	}
	return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "type modifiers must be simple constants");
}

static int base_type_name(BindCtx *b, PgQuery__TypeName *tn, const char *name, SqlType *out);
typedef struct NamedSpec NamedSpec;
static const NamedSpec *named_spec(const char *name);
static int named_args(BindCtx *b, PgQuery__FuncCall *f, const char *name, const NamedSpec *sp,
		      Expr **args, int *nargs);
static Expr *bind_row_to_json(BindCtx *b, PgQuery__FuncCall *f, bool *handled);

/* int[], integer[3], int[][] (PostgreSQL ignores the sizes and the number
 * of dimensions of a declared array type) and the _int4 spellings of
 * pg_type are arrays of the base type (types/array.h) */
int
bind_type_name(BindCtx *b, PgQuery__TypeName *tn, SqlType *out)
{
	const char *name = str_of(tn->names[tn->n_names - 1]);
	bool arr = tn->n_array_bounds > 0;
	SqlType e;

	if (name && name[0] == '_' && name[1] && !arr) {
		static const char *const bases[] = { "bool", "int2", "int4", "int8", "float4", "float8",
						     "numeric", "text", "varchar", "bpchar", "bytea",
						     "date", "time", "timestamp", "timestamptz",
						     "interval", "uuid", "json", "jsonb", "jsonpath" };
		size_t k;
		for (k = 0; k < sizeof bases / sizeof bases[0]; k++)
			if (!strcmp(name + 1, bases[k])) {
				name++;
				arr = true;
				break;
			}
	}
	if (name && !arr && (!strcmp(name, "int2vector") || !strcmp(name, "oidvector"))) {
		*out = name[0] == 'i' ? type_int2vector() : type_oidvector();   /* array.h */
		return FLOE_OK;
	}
	TRY(base_type_name(b, tn, name, &e));
	if (!arr) {
		*out = e;
		return FLOE_OK;
	}
	if (!array_elem_supported(e) || type_is_domain(e)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, type_is_domain(e) ?
			    "arrays of a domain are not supported yet" : "arrays of this type are not supported");
		fail_at(b, tn->location);
		return FLOE_ERR;
	}
	*out = array_of(e);
	return FLOE_OK;
}

static int
base_type_name(BindCtx *b, PgQuery__TypeName *tn, const char *name, SqlType *out)
{
	int m1 = -1, m2 = -1;

	if (!name)
		return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "invalid type name");
	if (tn->n_typmods >= 1)
		TRY(typmod_int(b, tn->typmods[0], &m1));
	if (tn->n_typmods >= 2)
		TRY(typmod_int(b, tn->typmods[1], &m2));

	if (!strcmp(name, "oid") || !strcmp(name, "regclass") || !strcmp(name, "regtype") ||
	    !strcmp(name, "regnamespace") || !strcmp(name, "regrole") || !strcmp(name, "xid"))
		*out = type_make(TYPE_INT32);   /* oids are int4 in floe (docs/catalog.md) */
	else if (!strcmp(name, "name") || (!strcmp(name, "char") && tn->n_names == 1 && m1 < 0) ||
		 !strcmp(name, "regproc") || !strcmp(name, "regprocedure"))
		*out = type_make(TYPE_TEXT);    /* name, the quoted "char" type, and
						   regproc (pg_type.typinput ...: the
						   function's name) */
	else if (!strcmp(name, "bool") || !strcmp(name, "boolean"))
		*out = type_make(TYPE_BOOL);
	else if (!strcmp(name, "int2") || !strcmp(name, "smallint"))
		*out = type_make(TYPE_INT16);
	else if (!strcmp(name, "int4") || !strcmp(name, "int") || !strcmp(name, "integer"))
		*out = type_make(TYPE_INT32);
	else if (!strcmp(name, "int8") || !strcmp(name, "bigint"))
		*out = type_make(TYPE_INT64);
	else if (!strcmp(name, "float4") || !strcmp(name, "real"))
		*out = type_make(TYPE_FLOAT32);
	else if (!strcmp(name, "float8"))
		*out = type_make(TYPE_FLOAT64);
	else if (!strcmp(name, "numeric") || !strcmp(name, "decimal")) {
		if (m1 == -1) {
			*out = type_decimal(0, 0);   /* unconstrained */
		} else {
			if (m1 < 1 || m1 > DECIMAL_MAX_PRECISION) {
				floe_errorf(b->err, m1 < 1 ? ERRCODE_INVALID_PARAMETER_VALUE :
					    ERRCODE_FEATURE_NOT_SUPPORTED,
					    m1 < 1 ? "NUMERIC precision %d must be between 1 and 1000" :
					    "NUMERIC precision %d is above floe's maximum of 38", m1);
				fail_at(b, tn->location);
				return FLOE_ERR;
			}
			if (m2 == -1)
				m2 = 0;
			if (m2 < 0 || m2 > m1) {
				floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
					    "NUMERIC scale %d must be between 0 and precision %d", m2, m1);
				fail_at(b, tn->location);
				return FLOE_ERR;
			}
			*out = type_decimal(m1, m2);
		}
	} else if (!strcmp(name, "text"))
		*out = type_make(TYPE_TEXT);
	else if (!strcmp(name, "varchar")) {
		*out = type_varchar(m1);
	} else if (!strcmp(name, "bpchar") || !strcmp(name, "char") || !strcmp(name, "character")) {
		*out = type_make(TYPE_TEXT);
		out->text_kind = TEXT_CHAR;
		/* the parser gives char / character their (1); a bare bpchar
		 * is unbounded, blank-padded only by a length */
		out->typmod = m1 >= 0 ? m1 : strcmp(name, "bpchar") ? 1 : -1;
	} else if (!strcmp(name, "bytea"))
		*out = type_make(TYPE_BYTEA);
	else if (!strcmp(name, "date"))
		*out = type_make(TYPE_DATE);
	else if (!strcmp(name, "time"))
		*out = type_make(TYPE_TIME);
	else if (!strcmp(name, "timestamp"))
		*out = type_make(TYPE_TIMESTAMP);
	else if (!strcmp(name, "timestamptz"))
		*out = type_make(TYPE_TIMESTAMPTZ);
	else if (!strcmp(name, "interval")) {
		/* typmod: PostgreSQL's field mask of INTERVAL YEAR/MONTH/.../SECOND */
		*out = type_make(TYPE_INTERVAL);
		out->typmod = tn->n_typmods >= 1 ? m1 : -1;
	}
	else if (!strcmp(name, "uuid"))
		*out = type_make(TYPE_UUID);
	else if (!strcmp(name, "json") || !strcmp(name, "jsonb"))
		*out = type_json(name[4] == 'b');
	else if (!strcmp(name, "jsonpath"))
		*out = type_jsonpath();
	else if (!strcmp(name, "timetz") ||
		 !strcmp(name, "variant") || !strcmp(name, "geometry") ||
		 !strcmp(name, "geography") || !strcmp(name, "money") || !strcmp(name, "xml")) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "type %s is not supported yet", name);
		fail_at(b, tn->location);
		return FLOE_ERR;
	} else if (!usertype_resolve(b->session, tn->n_names == 2 ? str_of(tn->names[0]) : NULL, name,
				     out)) {   /* an enum, a domain (usertype.c) */
		floe_errorf(b->err, ERRCODE_UNDEFINED_OBJECT, "type \"%s\" does not exist", name);
		fail_at(b, tn->location);
		return FLOE_ERR;
	}
	if (out->id == TYPE_TEXT && out->text_kind != TEXT_PLAIN && out->typmod == 0) {
		floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "length for type %s must be at least 1",
			    out->text_kind == TEXT_CHAR ? "char" : "varchar");
		fail_at(b, tn->location);
		return FLOE_ERR;
	}
	return FLOE_OK;
}

/* ---- coercion ---------------------------------------------------------- */

/*
 * A cast to a domain checks its constraints (PostgreSQL's CoerceToDomain):
 * __floe_domain_check(e, ok, oid, k) returns e, and fails where ok is
 * false (k -1: NOT NULL, 23502; else CHECK k, 23514; func_enum.c).  Each
 * CHECK binds with VALUE standing for e.  A constant folds, so a bad
 * constant fails at once.
 */
static Expr *bind_call(BindCtx *b, const char *name, Expr **args, int nargs, int location);

Expr *
bind_domain_cast(BindCtx *b, Expr *e, SqlType t)
{
	const Udt *chain[16], *u;
	Expr *saved = b->domain_value;
	Scope *sc = b->scope;
	const char *sql = b->sql;
	int k, nc = udt_domain_chain(t.udt, chain, 16), j;

	if (b->session && b->session->params_describe)
		return e;   /* describing: $n are NULL stand-ins, checked at execution */
	for (j = 0; j < nc; j++)   /* a base domain's first */
	for (u = chain[j], k = u->notnull ? -1 : 0; k < u->nchecks; k++) {
		Expr *args[4], *ok;
		Value v;
		Node *n;
		if (k < 0) {
			ok = expr_new(b->arena, EXPR_IS_NOT_NULL, type_make(TYPE_BOOL), 1);
			ok->args[0] = e;
		} else {
			if (sql_parse_expr(u->check_exprs[k], b->arena, &n, b->err) != FLOE_OK)
				return NULL;
			b->domain_value = e;
			b->scope = NULL;
			b->sql = NULL;
			ok = bind_expr(b, n);
			b->domain_value = saved;
			b->scope = sc;
			b->sql = sql;
		}
		if (!ok)
			return NULL;
		args[0] = e;
		args[1] = ok;
		v = value_int(TYPE_INT32, (int64_t)u->oid);
		args[2] = expr_const(b->arena, &v);
		v = value_int(TYPE_INT32, k);
		args[3] = expr_const(b->arena, &v);
		if (!(e = bind_call(b, "__floe_domain_check", args, 4, -1)))
			return NULL;
		e->type = t;
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
	}
	return e;
}

const SessionEnv *
bind_env(BindCtx *b)
{
	if (b->exec && b->exec->env)
		return b->exec->env;
	if (!b->env && b->session)
		b->env = acl_statement_env(b->session, b->arena);
	return b->env;
}

/* Fold a constant subtree to an EXPR_CONST. */
int
bind_fold(BindCtx *b, Expr **e)
{
	Value v;
	Expr *c;

	if ((*e)->kind == EXPR_CONST || expr_has_colref(*e) || expr_is_volatile(*e))
		return FLOE_OK;
	if ((*e)->kind == EXPR_AGGREF)
		return FLOE_OK;
	/* run-time errors of constants (1/0) carry no position, as in PostgreSQL */
	if (expr_eval_const(*e, bind_env(b), b->arena, &v, b->err) != FLOE_OK)
		return FLOE_ERR;
	c = expr_const(b->arena, &v);
	c->location = (*e)->location;
	*e = c;
	return FLOE_OK;
}

/* a varchar(n) / char(n) target, or an array of them: an explicit cast
 * cuts the text to the length where an assignment refuses it (22001) */
static bool
explicit_length_cut(SqlType to)
{
	SqlType t = to.id == TYPE_ARRAY ? array_elem_type(to) : to;
	return t.id == TYPE_TEXT && t.text_kind != TEXT_PLAIN && t.text_kind != TEXT_JSON &&
	       t.text_kind != TEXT_JSONB && t.typmod >= 0;
}

/*
 * interval '3' month: a bare number takes the unit of the last field of the
 * INTERVAL qualifier (PostgreSQL's field mask: YEAR 1<<2, MONTH 1<<1,
 * DAY 1<<3, HOUR 1<<10, MINUTE 1<<11, SECOND 1<<12).
 */
static void
interval_units(BindCtx *b, int32_t mask, const char **txt, size_t *len)
{
	static const struct { int bit; const char *unit; } units[] = {
		{ 12, "seconds" }, { 11, "minutes" }, { 10, "hours" }, { 3, "days" },
		{ 1, "months" }, { 2, "years" },
	};
	size_t i;
	const char *p = *txt;
	bool numeric = *len > 0;

	for (i = 0; i < *len; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || p[i] == '.' || p[i] == '-' || p[i] == '+' ||
		      p[i] == ' '))
			numeric = false;
	if (!numeric)
		return;
	for (i = 0; i < sizeof units / sizeof units[0]; i++)
		if (mask & (1 << units[i].bit)) {
			char *t = arena_sprintf(b->arena, "%.*s %s", (int)*len, p, units[i].unit);
			*txt = t;
			*len = strlen(t);
			return;
		}
}

Expr *
bind_coerce(BindCtx *b, Expr *e, SqlType to, int ctx, const char *what)
{
	char b1[64], b2[64];
	Expr *c;

	if (type_equal(e->type, to) && !e->unknown_literal)
		return e;
	/* a NULL takes any type, except a parameter of a declared type
	 * assigned to a column: that is the type's cast or 42804, whatever its
	 * value, as PostgreSQL decides at Parse */
	if (e->kind == EXPR_CONST && (e->unknown_literal ||
	    (e->value.is_null && !(what && e->param > 0 && e->value.type.id != TYPE_NULL)))) {
		Value v;
		const char *txt = e->value.is_null ? NULL : strview_data(&e->value.u.s);
		size_t tlen = e->value.is_null ? 0 : e->value.u.s.len;
		if (txt && to.id == TYPE_INTERVAL && to.typmod > 0)
			interval_units(b, to.typmod, &txt, &tlen);
		if (e->value.is_null) {
			v = value_null(to);
		} else if (ctx == COERCE_EXPLICIT && explicit_length_cut(to)) {
			/* 'hello'::char(2), '{hello}'::varchar(2)[]: the length
			 * applies as an explicit cast's (cut, not 22001), as
			 * PostgreSQL's coerce_type reads the text without the typmod
			 * and then applies it */
			Value t;
			SqlType in = to.id == TYPE_ARRAY ? array_of(type_make(TYPE_TEXT)) : type_make(TYPE_TEXT);
			if (value_from_text(&t, in, txt, tlen, b->arena, b->err) != FLOE_OK ||
			    cast_value_ex(&v, &t, to, CAST_EXPLICIT, b->arena, b->err) != FLOE_OK) {
				if (e->location && !e->param)
					floe_error_position(b->err, e->location);
				return NULL;
			}
		} else if (value_from_text(&v, to, txt, tlen, b->arena, b->err) != FLOE_OK) {
			/* a parameter's value: PostgreSQL's Bind error, without a position */
			if (e->location && !e->param)
				floe_error_position(b->err, e->location);
			return NULL;
		}
		c = expr_const(b->arena, &v);
		c->location = e->location;
		c->param = e->param;
		/* describing: an unspecified $n takes the first type its context
		 * gives it (PostgreSQL's parameter type inference) */
		if (e->param > 0 && e->param <= b->session->nparam_inferred &&
		    e->value.type.id == TYPE_NULL &&
		    b->session->param_inferred[e->param - 1].id == TYPE_NULL)
			b->session->param_inferred[e->param - 1] = to;
		return c;
	}
	if (e->type.id == to.id && to.id != TYPE_DECIMAL && to.id != TYPE_TEXT &&
	    to.id != TYPE_ARRAY) {
		e->type = to;
		return e;
	}
	if (!cast_allowed(e->type, to, (CoercionContext)ctx)) {
		if (what)
			floe_errorf(b->err, ERRCODE_DATATYPE_MISMATCH,
				    "column \"%s\" is of type %s but expression is of type %s", what,
				    tname(to, b1, sizeof b1), tname(e->type, b2, sizeof b2));
		else
			floe_errorf(b->err, ctx == COERCE_EXPLICIT ? ERRCODE_CANNOT_COERCE :
				    ERRCODE_DATATYPE_MISMATCH, "cannot cast type %s to %s",
				    tname(e->type, b1, sizeof b1), tname(to, b2, sizeof b2));
		if (what)
			floe_error_hint(b->err, "You will need to rewrite or cast the expression.");
		if (e->location)
			floe_error_position(b->err, e->location);
		return NULL;
	}
	c = expr_cast(b->arena, e, to, ctx == COERCE_EXPLICIT ? CAST_EXPLICIT : 0);
	if (bind_fold(b, &c) != FLOE_OK)
		return NULL;
	return c;
}

Expr *
bind_coerce_bool(BindCtx *b, Expr *e, const char *clause)
{
	char buf[64];

	if (!e)
		return NULL;
	if (e->type.id == TYPE_BOOL && !e->unknown_literal)
		return e;
	if (e->unknown_literal || e->type.id == TYPE_NULL)
		return bind_coerce(b, e, type_make(TYPE_BOOL), COERCE_IMPLICIT, NULL);
	floe_errorf(b->err, ERRCODE_DATATYPE_MISMATCH, "argument of %s must be type boolean, not type %s",
		    clause, tname(e->type, buf, sizeof buf));
	if (e->location)
		floe_error_position(b->err, e->location);
	return NULL;
}

int
bind_common_type(BindCtx *b, Expr **es, int n, const char *construct, SqlType *out)
{
	SqlType cand;
	bool have = false;
	int i;
	char b1[64], b2[64];

	for (i = 0; i < n; i++) {
		Expr *e = es[i];
		if (e->unknown_literal || e->type.id == TYPE_NULL)
			continue;
		if (!have) {
			cand = e->type;
			have = true;
			continue;
		}
		if (type_equal(cand, e->type))
			continue;
		if (cand.id == e->type.id) {
			/* same base type, different modifiers: widen */
			if (cand.id == TYPE_DECIMAL) {
				if (cand.precision == 0 || e->type.precision == 0) {
					cand = type_decimal(0, cand.scale > e->type.scale ? cand.scale :
							    e->type.scale);
				} else {
					int s = cand.scale > e->type.scale ? cand.scale : e->type.scale;
					int ip = (cand.precision - cand.scale) > (e->type.precision - e->type.scale) ?
						(cand.precision - cand.scale) : (e->type.precision - e->type.scale);
					cand = ip + s > 38 ? type_decimal(0, s) : type_decimal(ip + s, s);
				}
			} else {
				cand = type_make(cand.id);
			}
			continue;
		}
		if (cast_allowed(cand, e->type, COERCE_IMPLICIT) &&
		    !cast_allowed(e->type, cand, COERCE_IMPLICIT)) {
			cand = e->type;
			continue;
		}
		if (!cast_allowed(e->type, cand, COERCE_IMPLICIT)) {
			floe_errorf(b->err, ERRCODE_DATATYPE_MISMATCH, "%s types %s and %s cannot be matched",
				    construct, tname(cand, b1, sizeof b1), tname(e->type, b2, sizeof b2));
			if (e->location)
				floe_error_position(b->err, e->location);
			return FLOE_ERR;
		}
	}
	*out = have ? cand : type_make(TYPE_TEXT);
	return FLOE_OK;
}

/* ---- names ------------------------------------------------------------- */

/*
 * PostgreSQL's FigureColnameInternal: a name and its strength, 0 (none:
 * "?column?"), 1 (a type cast's type name or "case": an outer cast or a
 * CASE's ELSE may replace it) or 2 (a column, function or construct name:
 * kept through casts).  So '1'::int::text is "text", 1::text::int "int4",
 * c::text "c", CASE ... ELSE c END "c", CASE ... ELSE 0 END "case".
 */
static int
colname(Node *n, const char **name)
{
	int strength;

	if (!n)
		return 0;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_COLUMN_REF: {
		PgQuery__ColumnRef *c = n->column_ref;
		const char *s = NULL;
		size_t i;
		for (i = 0; i < c->n_fields; i++)   /* the last field that is not "*" */
			if (str_of(c->fields[i]))
				s = str_of(c->fields[i]);
		if (!s)
			return 0;
		*name = s;
		return 2;
	}
	case PG_QUERY__NODE__NODE_A_INDIRECTION: {
		PgQuery__AIndirection *ind = n->a_indirection;
		const char *s = NULL;
		size_t i;
		for (i = 0; i < ind->n_indirection; i++)   /* .field, not subscripts or "*" */
			if (str_of(ind->indirection[i]))
				s = str_of(ind->indirection[i]);
		if (s) {
			*name = s;
			return 2;
		}
		return colname(ind->arg, name);
	}
	case PG_QUERY__NODE__NODE_FUNC_CALL: {
		PgQuery__FuncCall *f = n->func_call;
		const char *s = str_of(f->funcname[f->n_funcname - 1]);
		if (!s)
			return 0;
		*name = s;
		return 2;
	}
	case PG_QUERY__NODE__NODE_TYPE_CAST: {
		PgQuery__TypeName *tn = n->type_cast->type_name;
		const char *t;
		strength = colname(n->type_cast->arg, name);
		if (strength <= 1 && tn && tn->n_names > 0 && (t = str_of(tn->names[tn->n_names - 1]))) {
			*name = t;
			return 1;
		}
		return strength;
	}
	case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
		return colname(n->collate_clause->arg, name);
	case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: {
		static const char *const svf[] = {
			"?column?", "current_date", "current_time", "current_time", "current_timestamp",
			"current_timestamp", "localtime", "localtime", "localtimestamp", "localtimestamp",
			"current_role", "current_user", "user", "session_user", "current_catalog",
			"current_schema",
		};
		int op = (int)n->sqlvalue_function->op;
		if (op <= 0 || op >= (int)(sizeof svf / sizeof svf[0]))
			return 0;
		*name = svf[op];
		return 2;
	}
	case PG_QUERY__NODE__NODE_CASE_EXPR:
		strength = colname(n->case_expr->defresult, name);
		if (strength <= 1) {
			*name = "case";
			return 1;
		}
		return strength;
	case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
		*name = "array";
		return 2;
	case PG_QUERY__NODE__NODE_ROW_EXPR:
		*name = "row";
		return 2;
	case PG_QUERY__NODE__NODE_GROUPING_FUNC:
		*name = "grouping";
		return 2;
	case PG_QUERY__NODE__NODE_COALESCE_EXPR:
		*name = "coalesce";
		return 2;
	case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
		*name = n->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least";
		return 2;
	case PG_QUERY__NODE__NODE_A_EXPR:
		if (n->a_expr->kind != PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF)
			return 0;
		*name = "nullif";
		return 2;
	case PG_QUERY__NODE__NODE_SUB_LINK:
		if (n->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) {
			*name = "exists";
			return 2;
		}
		if (n->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK) {
			*name = "array";
			return 2;
		}
		if (n->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
		    n->sub_link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
		    n->sub_link->subselect->select_stmt->n_target_list > 0) {
			/* (SELECT x ...): the subquery's column name, whatever it is */
			PgQuery__ResTarget *rt = n->sub_link->subselect->select_stmt->target_list[0]->res_target;
			*name = rt->name && rt->name[0] ? rt->name : bind_colname(rt->val);
			return 2;
		}
		return 0;
	default:
		return 0;
	}
}

const char *
bind_colname(Node *n)
{
	const char *name = "?column?";

	colname(n, &name);
	return name;
}

/* ---- expressions ------------------------------------------------------- */

static Expr *bind_call(BindCtx *b, const char *name, Expr **args, int nargs, int location);

static BIND_OUTLINE Expr *
bind_const(BindCtx *b, PgQuery__AConst *c)
{
	Value v;
	Expr *e;

	memset(&v, 0, sizeof v);
	if (c->isnull) {
		v = value_null(type_make(TYPE_NULL));
		e = expr_const(b->arena, &v);
		e->location = bind_location(b, c->location);
		return e;
	}
	switch (c->val_case) {
	case PG_QUERY__A__CONST__VAL_IVAL:
		v = value_int(TYPE_INT32, c->ival->ival);
		break;
	case PG_QUERY__A__CONST__VAL_FVAL: {
		/* an integer too big for int4 comes as a Float: int8, else numeric */
		const char *s = c->fval->fval;
		int64_t iv;
		floe_error tmp;
		if (!strpbrk(s, ".eE") && text_parse_int64(s, strlen(s), TYPE_INT64, &iv, &tmp) == FLOE_OK) {
			v = value_int(TYPE_INT64, iv);
		} else if (value_from_text(&v, type_decimal(0, 0), s, strlen(s), b->arena, b->err) != FLOE_OK) {
			/* beyond decimal128 (1e300): PostgreSQL's numeric is
			 * unbounded; floe keeps such a literal as double precision */
			double d;
			floe_error_clear(b->err);
			if (text_parse_float8(s, strlen(s), TYPE_FLOAT64, &d, b->err) != FLOE_OK)
				return fail_at(b, c->location);
			memset(&v, 0, sizeof v);
			v.type = type_make(TYPE_FLOAT64);
			v.u.f = d;
		}
		break;
	}
	case PG_QUERY__A__CONST__VAL_BOOLVAL:
		v.type = type_make(TYPE_BOOL);
		v.u.b = c->boolval->boolval;
		break;
	case PG_QUERY__A__CONST__VAL_SVAL: {
		const char *s = c->sval->sval;
		v.type = type_make(TYPE_TEXT);
		v.u.s = strview_make(s, (uint32_t)strlen(s));
		e = expr_const(b->arena, &v);
		e->unknown_literal = true;
		e->location = bind_location(b, c->location);
		return e;
	}
	default:
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "bit-string constants are not supported yet");
		return fail_at(b, c->location);
	}
	e = expr_const(b->arena, &v);
	e->location = bind_location(b, c->location);
	return e;
}

/* Find col (of relation rel, or any visible one when rel is NULL) in s:
 * *found = its index (the first), returns how many matched; *relseen says
 * whether rel names a relation of s. */
static int
scope_lookup(const Scope *s, const char *rel, const char *col, int *found, bool *relseen)
{
	int i, n = 0;

	*found = -1;
	*relseen = false;
	for (i = 0; s && i < s->ncols; i++) {
		const char *r = scope_relname(s, i);
		if (rel) {
			if (!r || strcmp(r, rel) != 0)
				continue;
			*relseen = true;
		} else if (s->hidden && s->hidden[i]) {
			continue;
		}
		if (strcmp(s->names[i], col) == 0) {
			if (n++ == 0)
				*found = i;
		}
	}
	return n;
}

/* Does an enclosing query see this column?  (A correlated reference.) */
static bool
outer_sees(BindCtx *b, const char *rel, const char *col)
{
	BindCtx *p;
	int f;
	bool relseen;

	for (p = b->parent; p; p = p->parent)
		if (scope_lookup(p->scope, rel, col, &f, &relseen) > 0)
			return true;
	return false;
}

static BIND_OUTLINE Expr *
bind_column_ref(BindCtx *b, PgQuery__ColumnRef *c)
{
	const char *rel = NULL, *col;
	int found = -1, n;
	bool relseen;
	Scope *s = b->scope;

	if (c->n_fields == 0 || !str_of(c->fields[c->n_fields - 1])) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "\"*\" is not allowed here");
		return fail_at(b, c->location);
	}
	col = str_of(c->fields[c->n_fields - 1]);
	if (c->n_fields == 2)
		rel = str_of(c->fields[0]);
	else if (c->n_fields == 3 && str_of(c->fields[0]) && str_of(c->fields[1]))
		/* schema.table.column (SQLAlchemy qualifies every column of a
		 * schema-qualified table so).  The FROM item is matched by its
		 * name; the schema is not checked against it. */
		rel = str_of(c->fields[1]);
	else if (c->n_fields == 4 && str_of(c->fields[0]) && str_of(c->fields[1]) &&
		 str_of(c->fields[2]) && b->session &&
		 !strcmp(str_of(c->fields[0]), pgcatalog_database(b->session)))
		rel = str_of(c->fields[2]);   /* database.schema.table.column */
	else if (c->n_fields > 2) {
		char name[256];
		size_t k, len = 0;
		for (k = 0; k < c->n_fields && len < sizeof name - 1; k++)
			len += (size_t)snprintf(name + len, sizeof name - len, "%s%s", k ? "." : "",
						str_of(c->fields[k]) ? str_of(c->fields[k]) : "*");
		if (c->n_fields > 4)
			floe_errorf(b->err, ERRCODE_SYNTAX_ERROR,
				    "improper qualified name (too many dotted names): %s", name);
		else
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "cross-database references are not implemented: %s", name);
		return fail_at(b, c->location);
	}
	n = scope_lookup(s, rel, col, &found, &relseen);
	if (n == 0 && b->corr_scope) {
		int cf;
		bool crel;
		int cn = scope_lookup(b->corr_scope, rel, col, &cf, &crel);
		if (cn > 1) {
			floe_errorf(b->err, ERRCODE_AMBIGUOUS_COLUMN,
				    "column reference \"%s\" is ambiguous", col);
			return fail_at(b, c->location);
		}
		if (cn == 1) {
			Expr *e = expr_colref(b->arena, b->corr_base + cf, b->corr_scope->types[cf]);
			if (b->corr_scope->param_used)
				b->corr_scope->param_used[cf] = true;
			e->location = bind_location(b, c->location);
			return e;
		}
	}
	if (n == 0 && outer_sees(b, rel, col)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "correlated subqueries are not supported yet (reference to outer column \"%s%s%s\")",
			    rel ? rel : "", rel ? "." : "", col);
		return fail_at(b, c->location);
	}
	if (rel && !relseen) {
		floe_errorf(b->err, ERRCODE_UNDEFINED_TABLE,
			    "missing FROM-clause entry for table \"%s\"", rel);
		return fail_at(b, c->location);
	}
	if (n > 1) {
		floe_errorf(b->err, ERRCODE_AMBIGUOUS_COLUMN,
			    "column reference \"%s\" is ambiguous", col);
		return fail_at(b, c->location);
	}
	if (found < 0) {
		if (rel)
			floe_errorf(b->err, ERRCODE_UNDEFINED_COLUMN, "column %s.%s does not exist", rel, col);
		else
			floe_errorf(b->err, ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", col);
		return fail_at(b, c->location);
	}
	if (s->nested && s->nested[found]) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "column \"%s\" has the nested type %s, which floe cannot read yet", col,
			    s->nested[found]);
		return fail_at(b, c->location);
	}
	{
		Expr *e = expr_colref(b->arena, found, s->types[found]);
		e->location = bind_location(b, c->location);
		return e;
	}
}

/* Coerce call arguments as func/ says, folding unknown literals. */
static Expr *
bind_call(BindCtx *b, const char *name, Expr **args, int nargs, int location)
{
	const ScalarFunc *fn;
	SqlType *types = ARENA_ARRAY(b->arena, SqlType, nargs + 1);
	SqlType *cast_to = ARENA_ARRAY(b->arena, SqlType, nargs + 1);
	SqlType ret;
	Expr *e;
	int i;

	for (i = 0; i < nargs; i++)
		types[i] = args[i]->unknown_literal ? type_make(TYPE_NULL) : args[i]->type;
	if (func_resolve_scalar(name, types, nargs, &fn, &ret, cast_to, b->err) != FLOE_OK)
		return fail_at(b, location);
	e = expr_new(b->arena, EXPR_FUNC, ret, nargs);
	e->fn = fn;
	e->location = bind_location(b, location);
	for (i = 0; i < nargs; i++) {
		Expr *a = args[i];
		if (!type_equal(a->type, cast_to[i]) || a->unknown_literal) {
			/* func/ resolution already chose this coercion (it may be one
			 * PostgreSQL only allows in this position, like int || text) */
			a = bind_coerce(b, a, cast_to[i], COERCE_EXPLICIT, NULL);
			if (!a)
				return NULL;
		}
		e->args[i] = a;
	}
	{
		/* result types that depend on constant arguments (round(x, 2)) */
		const Value **consts = ARENA_ARRAY(b->arena, const Value *, nargs + 1);
		for (i = 0; i < nargs; i++)
			consts[i] = e->args[i]->kind == EXPR_CONST ? &e->args[i]->value : NULL;
		func_refine_return(fn, consts, nargs, &e->type);
	}
	if (bind_fold(b, &e) != FLOE_OK)
		return NULL;
	return e;
}

static Expr *bind_op(BindCtx *b, const char *op, Node *l, Node *r, int location);
static Expr *bind_bool2(BindCtx *b, ExprKind kind, Expr *x, Expr *y);

/* (a, b) op (c, d): PostgreSQL's row comparison.  = is the AND of the
 * pairs, <> their OR; < <= > >= compare lexicographically (the first
 * unequal pair decides: l1 < r1 OR (l1 = r1 AND (l2 < r2 OR ...)), which
 * gives NULL exactly where PostgreSQL's RowCompareExpr does). */
static Expr *
bind_row_op(BindCtx *b, const char *op, PgQuery__RowExpr *l, PgQuery__RowExpr *r, int location)
{
	bool eq = !strcmp(op, "="), ne = !strcmp(op, "<>") || !strcmp(op, "!=");
	bool lt = !strcmp(op, "<") || !strcmp(op, "<="), gt = !strcmp(op, ">") || !strcmp(op, ">=");
	Expr *acc = NULL;
	size_t i;

	if (l->n_args != r->n_args) {
		floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "unequal number of entries in row expressions");
		return fail_at(b, location);
	}
	if (l->n_args == 0 || !(eq || ne || lt || gt)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "row comparison with operator %s is not supported yet", op);
		return fail_at(b, location);
	}
	if (eq || ne) {
		acc = expr_new(b->arena, eq ? EXPR_AND : EXPR_OR, type_make(TYPE_BOOL), (int)l->n_args);
		for (i = 0; i < l->n_args; i++) {
			Expr *c = bind_op(b, eq ? "=" : "<>", l->args[i], r->args[i], location);
			if (!c)
				return NULL;
			acc->args[i] = c;
		}
		if (l->n_args == 1)
			acc = acc->args[0];
	} else {
		for (i = l->n_args; i-- > 0;) {
			Expr *c;
			if (!acc) {
				c = bind_op(b, op, l->args[i], r->args[i], location);
			} else {
				Expr *strict = bind_op(b, lt ? "<" : ">", l->args[i], r->args[i], location);
				Expr *same = bind_op(b, "=", l->args[i], r->args[i], location);
				if (!strict || !same)
					return NULL;
				c = bind_bool2(b, EXPR_OR, strict, bind_bool2(b, EXPR_AND, same, acc));
			}
			if (!c)
				return NULL;
			acc = c;
		}
	}
	if (bind_fold(b, &acc) != FLOE_OK)
		return NULL;
	return acc;
}

static Expr *
bind_op(BindCtx *b, const char *op, Node *l, Node *r, int location)
{
	Expr *args[2];
	int n = 0;

	if (l && r && l->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
	    r->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
		return bind_row_op(b, op, l->row_expr, r->row_expr, location);

	if (l && !(args[n++] = bind_expr(b, l)))
		return NULL;
	if (r && !(args[n++] = bind_expr(b, r)))
		return NULL;
	if (n == 1 && !strcmp(op, "-")) {
		/* fold negative numeric literals so -2147483648 is an int4 */
		Expr *a = args[0];
		if (a->kind == EXPR_CONST && !a->value.is_null && !a->unknown_literal) {
			if (a->type.id == TYPE_INT32 && a->value.u.i != INT32_MIN) {
				a->value.u.i = -a->value.u.i;
				return a;
			}
			if (a->type.id == TYPE_INT64 && a->value.u.i == (int64_t)INT32_MAX + 1) {
				Value v = value_int(TYPE_INT32, INT32_MIN);
				Expr *c = expr_const(b->arena, &v);
				c->location = bind_location(b, location);
				return c;
			}
		}
		return bind_call(b, "u-", args, 1, location);
	}
	if (n == 1 && !strcmp(op, "+"))
		return bind_call(b, "u+", args, 1, location);
	return bind_call(b, op, args, n, location);
}

static const char *
op_name(PgQuery__AExpr *a)
{
	return str_of(a->name[a->n_name - 1]);
}

static Expr *
bind_bool2(BindCtx *b, ExprKind kind, Expr *x, Expr *y)
{
	Expr *e = expr_new(b->arena, kind, type_make(TYPE_BOOL), 2);
	e->args[0] = x;
	e->args[1] = y;
	return e;
}

/* l IS [NOT] DISTINCT FROM r (distinct: IS DISTINCT): the = operator's
 * function under EXPR_[NOT_]DISTINCT, which treats NULLs as values. */
static Expr *
bind_distinct(BindCtx *b, bool distinct, Node *l, Node *r, int location)
{
	Expr *eq, *e;

	eq = bind_op(b, "=", l, r, location);
	if (!eq)
		return NULL;
	if (eq->kind == EXPR_CONST) {
		/* both constant: evaluate IS [NOT] DISTINCT on the folded args */
		Expr *x = bind_expr(b, l), *y = bind_expr(b, r);
		Value v;
		bool nx, ny, same;
		if (!x || !y)
			return NULL;
		nx = x->value.is_null;
		ny = y->value.is_null;
		same = (nx || ny) ? (nx && ny) : (!eq->value.is_null && eq->value.u.b);
		memset(&v, 0, sizeof v);
		v.type = type_make(TYPE_BOOL);
		v.u.b = distinct ? !same : same;
		return expr_const(b->arena, &v);
	}
	e = expr_new(b->arena, distinct ? EXPR_DISTINCT : EXPR_NOT_DISTINCT, type_make(TYPE_BOOL), 2);
	e->fn = eq->fn;
	e->args[0] = eq->args[0];
	e->args[1] = eq->args[1];
	e->location = eq->location;
	return e;
}

/* (a, b) IS [NOT] DISTINCT FROM (c, d): PostgreSQL compares the rows field
 * by field with NULLs as values, so the row form is the OR of the fields'
 * IS DISTINCT FROM (the AND of their IS NOT DISTINCT FROM); never NULL. */
static Expr *
bind_row_distinct(BindCtx *b, bool distinct, PgQuery__RowExpr *l, PgQuery__RowExpr *r, int location)
{
	Expr *acc = NULL;
	size_t i;

	if (l->n_args != r->n_args) {
		floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "unequal number of entries in row expressions");
		return fail_at(b, location);
	}
	if (l->n_args == 0) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "IS [NOT] DISTINCT FROM on empty rows is not supported yet");
		return fail_at(b, location);
	}
	for (i = 0; i < l->n_args; i++) {
		Expr *c = bind_distinct(b, distinct, l->args[i], r->args[i], location);
		if (!c)
			return NULL;
		acc = acc ? bind_bool2(b, distinct ? EXPR_OR : EXPR_AND, acc, c) : c;
	}
	if (bind_fold(b, &acc) != FLOE_OK)
		return NULL;
	return acc;
}

static Expr *
bind_a_expr(BindCtx *b, PgQuery__AExpr *a)
{
	const char *op = op_name(a);

	switch (a->kind) {
	case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
	case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
	case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
		return bind_op(b, op, a->lexpr, a->rexpr, a->location);
	case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
	case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: {
		bool distinct = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT;
		if (a->lexpr && a->rexpr && a->lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
		    a->rexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
			return bind_row_distinct(b, distinct, a->lexpr->row_expr, a->rexpr->row_expr, a->location);
		if (a->lexpr && a->lexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "IS [NOT] DISTINCT FROM between a row value and a non-row value is not supported yet");
			return fail_at(b, a->location);
		}
		return bind_distinct(b, distinct, a->lexpr, a->rexpr, a->location);
	}
	case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
		Expr *eq = bind_op(b, "=", a->lexpr, a->rexpr, a->location), *x, *e;
		Value nv;
		if (!eq || !(x = bind_expr(b, a->lexpr)))
			return NULL;
		if (x->unknown_literal && !(x = bind_coerce(b, x, type_make(TYPE_TEXT), COERCE_IMPLICIT, NULL)))
			return NULL;
		e = expr_new(b->arena, EXPR_CASE, x->type, 3);
		e->args[0] = eq;
		nv = value_null(x->type);
		e->args[1] = expr_const(b->arena, &nv);
		e->args[2] = x;
		e->has_else = true;
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
		return e;
	}
	case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
		PgQuery__List *list;
		bool neg = strcmp(op, "<>") == 0;
		Expr *acc = NULL;
		size_t i;

		if (!a->rexpr || a->rexpr->node_case != PG_QUERY__NODE__NODE_LIST) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "IN (subquery) is not supported yet");
			return fail_at(b, a->location);
		}
		list = a->rexpr->list;
		/* one n-ary OR (NOT IN: AND) of the comparisons, flat however
		 * long the list (a chain of pairs nests as deep as it is long) */
		acc = expr_new(b->arena, neg ? EXPR_AND : EXPR_OR, type_make(TYPE_BOOL), (int)list->n_items);
		for (i = 0; i < list->n_items; i++) {
			Expr *cmp = bind_op(b, neg ? "<>" : "=", a->lexpr, list->items[i], a->location);
			if (!cmp)
				return NULL;
			acc->args[i] = cmp;
		}
		if (list->n_items == 1)
			acc = acc->args[0];
		if (bind_fold(b, &acc) != FLOE_OK)
			return NULL;
		return acc;
	}
	case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
	case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: {
		/* x op ANY/ALL (ARRAY[e1, e2, ...]): an OR/AND of x op ei, as
		 * PostgreSQL's ScalarArrayOpExpr over a constructed array */
		bool any = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY;
		PgQuery__AArrayExpr *arr;
		Expr *acc = NULL;
		size_t i;

		if (a->rexpr && a->rexpr->node_case != PG_QUERY__NODE__NODE_A_ARRAY_EXPR &&
		    a->rexpr->node_case != PG_QUERY__NODE__NODE_SUB_LINK) {
			/* x op ANY/ALL (array value): func_array.c's floe_any_<op> /
			 * floe_all_<op>; an unknown literal is an array of x's type */
			Expr *args[2];
			if (!(args[0] = bind_expr(b, a->rexpr)) || !(args[1] = bind_expr(b, a->lexpr)))
				return NULL;
			if (args[0]->type.id == TYPE_ARRAY || args[0]->unknown_literal ||
			    args[0]->type.id == TYPE_NULL) {
				static const char *const ops[] = { "=", "<>", "<", "<=", ">", ">=" };
				Expr *pair[2];
				size_t k;
				for (k = 0; k < 6 && strcmp(op, ops[k]); k++)
					;
				if (k == 6) {
					floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						    "op ANY/ALL (array) is supported for comparison operators only, not %s", op);
					return fail_at(b, a->location);
				}
				if (args[0]->type.id != TYPE_ARRAY) {
					SqlType et = args[1]->unknown_literal || args[1]->type.id == TYPE_NULL ?
						type_make(TYPE_TEXT) : args[1]->type;
					if (!array_elem_supported(et) || et.id == TYPE_ARRAY) {
						floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE,
							    "op ANY/ALL (array) requires array on right side");
						return fail_at(b, a->location);
					}
					if (!(args[0] = bind_coerce(b, args[0], array_of(et), COERCE_IMPLICIT, NULL)))
						return NULL;
				}
				pair[0] = args[1];
				pair[1] = args[0];
				return bind_call(b, arena_sprintf(b->arena, "floe_%s_%s", any ? "any" : "all", op),
						 pair, 2, a->location);
			}
			if (!any || strcmp(op, "=")) {
				floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE, "op ANY/ALL (array) requires array on right side");
				return fail_at(b, a->location);
			}
			/* x = ANY (text): the array's text form (pg_catalog's array
			 * columns, docs/catalog.md) */
			if (args[0]->type.id != TYPE_TEXT && !args[0]->unknown_literal) {
				floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE, "op ANY/ALL (array) requires array on right side");
				return fail_at(b, a->location);
			}
			if (!(args[1] = bind_coerce(b, args[1], type_make(TYPE_TEXT), COERCE_EXPLICIT, NULL)))
				return NULL;
			return bind_call(b, "floe_array_has", args, 2, a->location);
		}
		if (!a->rexpr || a->rexpr->node_case != PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "op ANY/ALL over an array value is not supported yet (only ARRAY[...] and subqueries)");
			return fail_at(b, a->location);
		}
		arr = a->rexpr->a_array_expr;
		/* one n-ary OR (ALL: AND), flat however long the array, as IN's
		 * (a chain of pairs nests as deep as it is long); = ANY and
		 * <> ALL over constants are then hashed (exec/inset.c) */
		if (arr->n_elements)
			acc = expr_new(b->arena, any ? EXPR_OR : EXPR_AND, type_make(TYPE_BOOL),
				       (int)arr->n_elements);
		for (i = 0; i < arr->n_elements; i++) {
			Expr *cmp;
			if (bind_check_cancel(b) != FLOE_OK)
				return NULL;
			if (!(cmp = bind_op(b, op, a->lexpr, arr->elements[i], a->location)))
				return NULL;
			if (cmp->type.id != TYPE_BOOL) {
				floe_errorf(b->err, ERRCODE_DATATYPE_MISMATCH,
					    "op ANY/ALL (array) requires operator to yield boolean");
				return fail_at(b, a->location);
			}
			acc->args[i] = cmp;
		}
		if (acc && acc->nargs == 1)
			acc = acc->args[0];
		if (!acc) {
			Value v;
			memset(&v, 0, sizeof v);
			v.type = type_make(TYPE_BOOL);
			v.u.b = !any;
			return expr_const(b->arena, &v);
		}
		if (bind_fold(b, &acc) != FLOE_OK)
			return NULL;
		return acc;
	}
	case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
	case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: {
		PgQuery__List *list = a->rexpr->list;
		bool neg = a->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
		Expr *lo, *hi, *e;
		lo = bind_op(b, neg ? "<" : ">=", a->lexpr, list->items[0], a->location);
		if (!lo)
			return NULL;
		hi = bind_op(b, neg ? ">" : "<=", a->lexpr, list->items[1], a->location);
		if (!hi)
			return NULL;
		e = bind_bool2(b, neg ? EXPR_OR : EXPR_AND, lo, hi);
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
		return e;
	}
	case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: {
		/* x SIMILAR TO p [ESCAPE e]  ==  x ~ similar_to_escape(p [, e]) */
		Expr *x = bind_expr(b, a->lexpr), *args[2], *re, *pair[2];
		Node *pat = a->rexpr;
		int np = 0;
		if (!x)
			return NULL;
		if (pat->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
			/* the grammar wraps the pattern in similar_to_escape() already */
			PgQuery__FuncCall *fc = pat->func_call;
			size_t i;
			for (i = 0; i < fc->n_args && i < 2; i++)
				if (!(args[np++] = bind_expr(b, fc->args[i])))
					return NULL;
		} else if (!(args[np++] = bind_expr(b, pat))) {
			return NULL;
		}
		if (!(re = bind_call(b, "similar_to_escape", args, np, a->location)))
			return NULL;
		pair[0] = x;
		pair[1] = re;
		return bind_call(b, strcmp(op, "!~") == 0 ? "!~" : "~", pair, 2, a->location);
	}
	default:
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "this operator form (ANY/ALL/BETWEEN SYMMETRIC) is not supported yet");
		return fail_at(b, a->location);
	}
}

static BIND_OUTLINE Expr *
bind_bool_expr(BindCtx *b, PgQuery__BoolExpr *be)
{
	ExprKind kind = be->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR ? EXPR_AND :
		be->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? EXPR_OR : EXPR_NOT;
	const char *cl = kind == EXPR_AND ? "AND" : kind == EXPR_OR ? "OR" : "NOT";
	Expr *e = expr_new(b->arena, kind, type_make(TYPE_BOOL), (int)be->n_args);
	size_t i;

	e->location = bind_location(b, be->location);
	for (i = 0; i < be->n_args; i++) {
		Expr *a = bind_coerce_bool(b, bind_expr(b, be->args[i]), cl);
		if (!a)
			return NULL;
		e->args[i] = a;
	}
	if (bind_fold(b, &e) != FLOE_OK)
		return NULL;
	return e;
}

static BIND_OUTLINE Expr *
bind_case(BindCtx *b, PgQuery__CaseExpr *c)
{
	int nw = (int)c->n_args, i, nres = 0;
	Expr *arg = NULL, **results, *e;
	SqlType rt;

	if (c->arg && !(arg = bind_expr(b, c->arg)))
		return NULL;
	e = expr_new(b->arena, EXPR_CASE, type_make(TYPE_TEXT), nw * 2 + (c->defresult ? 1 : 0));
	e->has_else = c->defresult != NULL;
	e->location = bind_location(b, c->location);
	results = ARENA_ARRAY(b->arena, Expr *, nw + 1);
	for (i = 0; i < nw; i++) {
		PgQuery__CaseWhen *w = c->args[i]->case_when;
		Expr *cond;
		if (arg) {
			/* simple CASE: arg = when-value */
			Expr *wv = bind_expr(b, w->expr), *args2[2];
			if (!wv)
				return NULL;
			args2[0] = arg;
			args2[1] = wv;
			cond = bind_call(b, "=", args2, 2, w->location);
		} else {
			cond = bind_coerce_bool(b, bind_expr(b, w->expr), "CASE/WHEN");
		}
		if (!cond)
			return NULL;
		e->args[2 * i] = cond;
		if (!(results[nres++] = bind_expr(b, w->result)))
			return NULL;
	}
	if (c->defresult && !(results[nres++] = bind_expr(b, c->defresult)))
		return NULL;
	if (bind_common_type(b, results, nres, "CASE", &rt) != FLOE_OK)
		return NULL;
	e->type = rt;
	for (i = 0; i < nres; i++) {
		Expr *r = bind_coerce(b, results[i], rt, COERCE_IMPLICIT, NULL);
		if (!r)
			return NULL;
		if (i < nw)
			e->args[2 * i + 1] = r;
		else
			e->args[e->nargs - 1] = r;
	}
	if (bind_fold(b, &e) != FLOE_OK)
		return NULL;
	return e;
}

static BIND_OUTLINE Expr *
bind_coalesce(BindCtx *b, PgQuery__CoalesceExpr *c)
{
	Expr **args = ARENA_ARRAY(b->arena, Expr *, c->n_args + 1), *e;
	SqlType t;
	size_t i;

	for (i = 0; i < c->n_args; i++)
		if (!(args[i] = bind_expr(b, c->args[i])))
			return NULL;
	if (bind_common_type(b, args, (int)c->n_args, "COALESCE", &t) != FLOE_OK)
		return NULL;
	e = expr_new(b->arena, EXPR_COALESCE, t, (int)c->n_args);
	e->location = bind_location(b, c->location);
	for (i = 0; i < c->n_args; i++)
		if (!(e->args[i] = bind_coerce(b, args[i], t, COERCE_IMPLICIT, NULL)))
			return NULL;
	if (bind_fold(b, &e) != FLOE_OK)
		return NULL;
	return e;
}

/* ---- pg_catalog: session functions, regclass, visibility ---------------- */

static Expr *
text_const(BindCtx *b, const char *str, int location)
{
	Value v;
	Expr *e;
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_TEXT);
	if (!str)
		v.is_null = true;
	else
		v.u.s = strview_make(arena_strdup(b->arena, str), (uint32_t)strlen(str));
	e = expr_const(b->arena, &v);
	e->location = bind_location(b, location);
	return e;
}

static Expr *
oid_const(BindCtx *b, int64_t oid, int location)
{
	Value v = value_int(TYPE_INT32, oid);
	Expr *e = expr_const(b->arena, &v);
	e->location = bind_location(b, location);
	return e;
}

/* the text of a constant (NULL: not a constant string) */
static const char *
const_text(BindCtx *b, Expr *e)
{
	if (e->kind != EXPR_CONST || e->value.is_null || e->value.type.id != TYPE_TEXT)
		return NULL;
	return arena_strndup(b->arena, strview_data(&e->value.u.s), e->value.u.s.len);
}

/*
 * x::regclass / regtype / regnamespace / regrole / regproc: a constant
 * name resolves to its oid (42P01 / 42704 when missing); an oid stays the
 * oid (int4).  NULL when the cast is not to one of them (*handled false).
 */
static BIND_OUTLINE Expr *
bind_reg_cast(BindCtx *b, PgQuery__TypeCast *tc, bool *handled)
{
	PgQuery__TypeName *tn = tc->type_name;
	const char *ty = str_of(tn->names[tn->n_names - 1]);
	const char *txt;
	int64_t oid = 0;
	Expr *a;

	*handled = false;
	if (!ty || tn->n_array_bounds > 0)
		return NULL;
	if (!strcmp(ty, "regproc") && tc->arg->node_case == PG_QUERY__NODE__NODE_A_CONST) {
		/* 'pg_catalog.array_in'::regproc: the name as pg_type shows it */
		*handled = true;
		if (!(a = bind_expr(b, tc->arg)))
			return NULL;
		if ((txt = const_text(b, a)) && !strncmp(txt, "pg_catalog.", 11))
			return text_const(b, txt + 11, tc->location);
		return bind_coerce(b, a, type_make(TYPE_TEXT), COERCE_EXPLICIT, NULL);
	}
	if (strcmp(ty, "regclass") && strcmp(ty, "regtype") && strcmp(ty, "regnamespace") &&
	    strcmp(ty, "regrole"))
		return NULL;
	*handled = true;
	if (!(a = bind_expr(b, tc->arg)))
		return NULL;
	if (!(txt = const_text(b, a)))
		return bind_coerce(b, a, type_make(TYPE_INT32), COERCE_EXPLICIT, NULL);
	if (!strcmp(ty, "regclass")) {
		if (pgcatalog_regclass(b->session, b->arena, txt, &oid, b->err) != FLOE_OK)
			return fail_at(b, tc->location);
	} else if (!strcmp(ty, "regtype")) {
		if (pgcatalog_regtype(txt, &oid, b->err) != FLOE_OK)
			return fail_at(b, tc->location);
	} else if (!strcmp(ty, "regrole")) {
		if (strcmp(txt, pgcatalog_user(b->session)) != 0) {
			floe_errorf(b->err, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", txt);
			return fail_at(b, tc->location);
		}
		oid = 10;
	} else {
		bool found = !strcmp(txt, "pg_catalog") || !strcmp(txt, "information_schema");
		if (!found && catalog_namespace_exists(b->session->engine->catalog, txt, &found,
						       b->err) != FLOE_OK)
			return NULL;
		if (!found) {
			floe_errorf(b->err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", txt);
			return fail_at(b, tc->location);
		}
		oid = pgcatalog_ns_oid(txt);
	}
	return oid_const(b, oid, tc->location);
}

/* pg_table_is_visible(x): x is a table of the search_path's schema */
static Expr *
bind_table_visible(BindCtx *b, Expr *x, int location)
{
	int64_t *oids;
	int n, i;
	Expr *acc = NULL;

	if (pgcatalog_visible_oids(b->session, b->arena, &oids, &n, b->err) != FLOE_OK)
		return NULL;
	if (!(x = bind_coerce(b, x, type_make(TYPE_INT32), COERCE_IMPLICIT, NULL)))
		return NULL;
	for (i = 0; i < n; i++) {
		Expr *args[2], *eq;
		args[0] = x;
		args[1] = oid_const(b, oids[i], location);
		if (!(eq = bind_call(b, "=", args, 2, location)))
			return NULL;
		acc = acc ? bind_bool2(b, EXPR_OR, acc, eq) : eq;
	}
	if (!acc) {
		Value v;
		memset(&v, 0, sizeof v);
		v.type = type_make(TYPE_BOOL);
		/* NULL in, NULL out; else false */
		v.u.b = false;
		acc = expr_new(b->arena, EXPR_AND, type_make(TYPE_BOOL), 2);
		acc->args[0] = expr_const(b->arena, &v);
		acc->args[1] = expr_new(b->arena, EXPR_IS_NOT_NULL, type_make(TYPE_BOOL), 1);
		acc->args[1]->args[0] = x;
	}
	if (bind_fold(b, &acc) != FLOE_OK)
		return NULL;
	return acc;
}

/* current_schemas(implicit)'s text: the resolved search_path as an
 * array; implicit: the temp namespace first when it exists and is not on
 * it, then pg_catalog when not on it */
static const char *
schemas_text(BindCtx *b, bool implicit)
{
	int n, i;
	const char *const *l = search_path_list(b->session, &n);
	const char *tmp = implicit ? search_path_implicit_temp(b->session) : NULL;
	char *out = arena_strdup(b->arena, "{");
	if (tmp)
		out = arena_sprintf(b->arena, "{%s%s", tmp, n || !search_path_has(b->session, "pg_catalog") ? "," : "");
	if (implicit && !search_path_has(b->session, "pg_catalog"))
		out = arena_sprintf(b->arena, "%spg_catalog%s", out, n ? "," : "");
	for (i = 0; i < n; i++) {
		bool q = !l[i][0] || !strcasecmp(l[i], "null") || strpbrk(l[i], "{},\"\\ \t\n") != NULL;
		const char *e = l[i];
		if (q) {
			size_t k = 0;
			char *d = arena_alloc(b->arena, 2 * strlen(l[i]) + 3);
			d[k++] = '"';
			for (e = l[i]; *e; e++) {
				if (*e == '"' || *e == '\\')
					d[k++] = '\\';
				d[k++] = *e;
			}
			d[k++] = '"';
			d[k] = 0;
			e = d;
		}
		out = arena_sprintf(b->arena, "%s%s%s", out, i ? "," : "", e);
	}
	return arena_sprintf(b->arena, "%s}", out);
}

/* Session-dependent functions bound as constants (NULL, *handled false:
 * not one of them). */
static BIND_OUTLINE Expr *
bind_session_func(BindCtx *b, const char *name, Expr **args, int nargs, int location, bool *handled)
{
	*handled = true;
	if ((!strcmp(name, "current_database") || !strcmp(name, "current_catalog")) && nargs == 0)
		return text_const(b, pgcatalog_database(b->session), location);
	if (!strcmp(name, "current_schema") && nargs == 0)
		return text_const(b, session_schema(b->session)[0] ? session_schema(b->session) : NULL,
				  location);
	if ((!strcmp(name, "current_user") || !strcmp(name, "session_user") ||
	     !strcmp(name, "current_role") || !strcmp(name, "user")) && nargs == 0)
		return text_const(b, pgcatalog_user(b->session), location);
	if (!strcmp(name, "current_schemas") && nargs == 1) {
		/* no array type: the array's text form */
		Expr *a = bind_coerce(b, args[0], type_make(TYPE_BOOL), COERCE_IMPLICIT, NULL);
		if (!a)
			return NULL;
		if (a->kind == EXPR_CONST) {
			if (a->value.is_null)
				return text_const(b, NULL, location);
			return text_const(b, schemas_text(b, a->value.u.b), location);
		}
	}
	if (!strcmp(name, "pg_table_is_visible") && nargs == 1)
		return bind_table_visible(b, args[0], location);
	if (!strcmp(name, "to_regclass") && nargs == 1) {
		const char *txt = const_text(b, args[0]);
		int64_t oid;
		if (args[0]->kind == EXPR_CONST && args[0]->value.is_null) {
			Value v = value_null(type_make(TYPE_INT32));
			return expr_const(b->arena, &v);
		}
		if (!txt) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "to_regclass of a non-constant name is not supported yet");
			return fail_at(b, location);
		}
		{
			if (pgcatalog_regclass(b->session, b->arena, txt, &oid, b->err) == FLOE_OK)
				return oid_const(b, oid, location);
			if (!floe_error_is(b->err, ERRCODE_UNDEFINED_TABLE))
				return NULL;
			floe_error_clear(b->err);
			{
				Value v = value_null(type_make(TYPE_INT32));
				return expr_const(b->arena, &v);
			}
		}
	}
	if (!strcmp(name, "current_setting") && (nargs == 1 || nargs == 2)) {
		/* current_setting(name [, missing_ok]) */
		const char *txt = const_text(b, args[0]);
		bool missing_ok = false, found;
		if (nargs == 2) {
			Expr *m = bind_coerce(b, args[1], type_make(TYPE_BOOL), COERCE_IMPLICIT, NULL);
			if (!m)
				return NULL;
			missing_ok = m->kind == EXPR_CONST && !m->value.is_null && m->value.u.b;
		}
		if (txt) {
			const char *v = pgcatalog_setting(b->session, txt, &found);
			if (!found && !missing_ok) {
				floe_errorf(b->err, ERRCODE_UNDEFINED_OBJECT,
					    "unrecognized configuration parameter \"%s\"", txt);
				return fail_at(b, location);
			}
			return text_const(b, v, location);
		}
		{
			/* over a column (psql's \dconfig): CASE lower(x) WHEN ... */
			const char **names, **values;
			int n = pgcatalog_settings(b->session, b->arena, &names, &values), k;
			Expr *x = bind_coerce(b, args[0], type_make(TYPE_TEXT), COERCE_IMPLICIT, NULL), *e;
			Expr *lx;
			if (!x || !(lx = bind_call(b, "lower", &x, 1, location)))
				return NULL;
			e = expr_new(b->arena, EXPR_CASE, type_make(TYPE_TEXT), 2 * n);
			for (k = 0; k < n; k++) {
				Expr *eq[2];
				char *low = arena_strdup(b->arena, names[k]), *c;
				for (c = low; *c; c++)
					if (*c >= 'A' && *c <= 'Z')
						*c = (char)(*c - 'A' + 'a');
				eq[0] = lx;
				eq[1] = text_const(b, low, location);
				if (!(e->args[2 * k] = bind_call(b, "=", eq, 2, location)))
					return NULL;
				e->args[2 * k + 1] = text_const(b, values[k], location);
			}
			return e;
		}
	}
	if ((!strcmp(name, "pg_get_indexdef") && (nargs == 1 || nargs == 3)) ||
	    (!strcmp(name, "pg_get_constraintdef") && (nargs == 1 || nargs == 2)) ||
	    (!strcmp(name, "pg_get_viewdef") && (nargs == 1 || nargs == 2))) {
		/* the primary keys' definitions, by oid (pgcatalog.c) */
		int64_t *oids;
		const char **defs;
		int n, k, m = 0, *cols;
		bool pretty = false;
		Expr *x, *e, *col = NULL;
		Value nv = value_null(type_make(TYPE_TEXT));
		if (nargs > 1) {
			Expr *pr = bind_coerce(b, args[nargs - 1], type_make(TYPE_BOOL), COERCE_IMPLICIT, NULL);
			if (!pr)
				return NULL;
			pretty = pr->kind == EXPR_CONST && !pr->value.is_null && pr->value.u.b;
		}
		if (nargs == 3) {
			/* pg_get_indexdef(oid, column, pretty): column 0 = the whole index */
			if (!(col = bind_coerce(b, args[1], type_make(TYPE_INT32), COERCE_IMPLICIT, NULL)))
				return NULL;
		}
		if (!(x = bind_coerce(b, args[0], type_make(TYPE_INT32), COERCE_IMPLICIT, NULL)))
			return NULL;
		if (!strcmp(name, "pg_get_viewdef") ?   /* the views' queries */
		    pgcatalog_view_defs(b->session, b->arena, &oids, &cols, &defs, &n, b->err) != FLOE_OK :
		    pgcatalog_pkey_defs(b->session, b->arena, pretty, &oids, &cols, &defs, &n, b->err) != FLOE_OK)
			return NULL;
		e = expr_new(b->arena, EXPR_CASE, type_make(TYPE_TEXT), 2 * n + 1);
		for (k = 0; k < n; k++) {
			Expr *eq[2], *c;
			if (cols[k] != 0 && !col)
				continue;
			eq[0] = x;
			eq[1] = oid_const(b, oids[k], location);
			if (!(c = bind_call(b, "=", eq, 2, location)))
				return NULL;
			if (col) {
				eq[0] = col;
				eq[1] = oid_const(b, cols[k], location);
				if (!(eq[1] = bind_call(b, "=", eq, 2, location)))
					return NULL;
				c = bind_bool2(b, EXPR_AND, c, eq[1]);
			}
			e->args[2 * m] = c;
			e->args[2 * m + 1] = text_const(b, defs[k], location);
			m++;
		}
		if (m == 0)
			return expr_const(b->arena, &nv);
		e->nargs = 2 * m;
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
		return e;
	}
	if (!strcmp(name, "pg_get_userbyid") && nargs == 1) {
		/* role 10 is the session's role (pgcatalog_user) */
		Expr *x = bind_coerce(b, args[0], type_make(TYPE_INT32), COERCE_IMPLICIT, NULL), *eq[2], *e;
		if (!x)
			return NULL;
		eq[0] = x;
		eq[1] = oid_const(b, 10, location);
		e = expr_new(b->arena, EXPR_CASE, type_make(TYPE_TEXT), 3);
		if (!(e->args[0] = bind_call(b, "=", eq, 2, location)) ||
		    !(e->args[2] = bind_call(b, "pg_get_userbyid", &x, 1, location)))
			return NULL;
		e->args[1] = text_const(b, pgcatalog_user(b->session), location);
		e->has_else = true;
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
		return e;
	}
	if (!strcmp(name, "pg_my_temp_schema") && nargs == 0)
		return oid_const(b, 0, location);
	*handled = false;
	return NULL;
}

/* agg(... ORDER BY keys): keys over the input rows, no aggregates inside;
 * with DISTINCT every key must be an argument (PostgreSQL's 42P10). */
static int
bind_agg_order(BindCtx *b, PgQuery__FuncCall *f, Expr *arg, Expr *arg2, AggOrderKey **out)
{
	AggOrderKey *o = ARENA_ARRAY(b->arena, AggOrderKey, f->n_agg_order);
	size_t i;

	for (i = 0; i < f->n_agg_order; i++) {
		PgQuery__SortBy *sb = f->agg_order[i]->sort_by;
		Expr *e;
		if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "ORDER BY ... USING is not supported yet");
			fail_at(b, sb->location);
			return FLOE_ERR;
		}
		b->in_agg = true;
		e = bind_expr(b, sb->node);
		b->in_agg = false;
		if (!e)
			return FLOE_ERR;
		if (e->unknown_literal && !(e = bind_coerce(b, e, type_make(TYPE_TEXT), 0, NULL)))
			return FLOE_ERR;
		TRY(select_check_sortable(b, e->type, true, sql_location(&sb->node->base)));   /* json */
		if (f->agg_distinct && !expr_equal(e, arg) && !(arg2 && expr_equal(e, arg2)) &&
		    !(arg->kind == EXPR_CAST && expr_equal(e, arg->args[0]))) {
			floe_errorf(b->err, ERRCODE_INVALID_COLUMN_REFERENCE,
				    "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
			fail_at(b, sb->location);
			return FLOE_ERR;
		}
		o[i].e = e;
		o[i].desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
		if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST)
			o[i].nulls_first = true;
		else if (sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST)
			o[i].nulls_first = false;
		else
			o[i].nulls_first = o[i].desc;
	}
	*out = o;
	return FLOE_OK;
}

/* name(direct) WITHIN GROUP (ORDER BY key) — the ordered-set aggregates of
 * func/agg_ordered.c — as an AggCall: arg = the key (cast as resolved),
 * arg2 = the direct argument (a constant: floe does not evaluate direct
 * arguments per group), ORDER BY = the key, so hash_agg.c feeds the rows
 * in the WITHIN GROUP order.  Without WITHIN GROUP, or WITHIN GROUP on a
 * plain aggregate, no function matches (42883), as in PostgreSQL. */
static int
bind_ordered_set(BindCtx *b, PgQuery__FuncCall *f, const char *name, const AggFunc **af,
		 SqlType *ret, Expr **arg, Expr **arg2, AggOrderKey **order)
{
	Expr *direct = NULL, *key = NULL;
	SqlType dt = type_make(TYPE_NULL), kt = type_make(TYPE_NULL), key_cast, direct_cast;
	int ndirect = (int)f->n_args, nkeys = (int)f->n_agg_order;

	if (f->agg_star || f->agg_distinct || ndirect > 1) {
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
			    "function %s with these arguments does not exist", name);
		fail_at(b, f->location);
		return FLOE_ERR;
	}
	if (ndirect == 1) {
		b->in_agg = true;
		direct = bind_expr(b, f->args[0]);
		b->in_agg = false;
		if (!direct)
			return FLOE_ERR;
		dt = direct->unknown_literal ? type_make(TYPE_NULL) : direct->type;
	}
	if (nkeys) {
		if (!f->agg_within_group) {   /* name(x ORDER BY y): a plain aggregate call */
			floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE,
				    "WITHIN GROUP is required for ordered-set aggregate %s", name);
			fail_at(b, f->location);
			return FLOE_ERR;
		}
		if (bind_agg_order(b, f, NULL, NULL, order) != FLOE_OK)
			return FLOE_ERR;
		key = (*order)[0].e;
		kt = key->type;
	}
	if (!agg_ordered_is(name) || !f->agg_within_group) {
		/* sum(x) WITHIN GROUP (ORDER BY y), percentile_cont(0.5): no such function */
		char b1[64], b2[64];
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s(%s%s%s) does not exist", name,
			    direct ? tname(dt, b1, sizeof b1) : "", direct && key ? ", " : "",
			    key ? tname(kt, b2, sizeof b2) : "");
		fail_at(b, f->location);
		return FLOE_ERR;
	}
	if (agg_ordered_resolve(name, ndirect, dt, nkeys, kt, af, ret, &key_cast, &direct_cast,
				b->err) != FLOE_OK) {
		fail_at(b, f->location);
		return FLOE_ERR;
	}
	if (!(*arg = bind_coerce(b, key, key_cast, COERCE_EXPLICIT, NULL)))
		return FLOE_ERR;
	*arg2 = NULL;
	if (direct) {
		if (!(direct = bind_coerce(b, direct, direct_cast, COERCE_EXPLICIT, NULL)) ||
		    bind_fold(b, &direct) != FLOE_OK)
			return FLOE_ERR;
		if (direct->kind != EXPR_CONST) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "direct arguments of %s other than constants are not supported yet", name);
			fail_at(b, f->location);
			return FLOE_ERR;
		}
		*arg2 = direct;
	}
	return FLOE_OK;
}

static Expr *
bind_func_call(BindCtx *b, PgQuery__FuncCall *f)
{
	const char *name = str_of(f->funcname[f->n_funcname - 1]);
	Expr **args = ARENA_ARRAY(b->arena, Expr *, f->n_args + 1);
	size_t i;

	if (!f->agg_within_group) {
		/* a SQL function (function.c) */
		bool handled;
		Expr *e = function_bind_call(b, f, &handled);
		if (handled)
			return e;   /* NULL: its error */
	}
	if (f->n_funcname == 2 && strcmp(str_of(f->funcname[0]), "pg_catalog") != 0) {
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s.%s does not exist",
			    str_of(f->funcname[0]), name);
		return fail_at(b, f->location);
	}
	if (f->over && f->agg_within_group && agg_ordered_is(name)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "OVER is not supported for ordered-set aggregate %s", name);
		return fail_at(b, f->location);
	}
	if (f->over)
		return select_window_call(b, f);
	if (seq_is_func(name) && !f->n_agg_order && !f->agg_star && !f->agg_distinct &&
	    !f->agg_filter) {
		for (i = 0; i < f->n_args; i++)
			if (!(args[i] = bind_expr(b, f->args[i])))
				return NULL;
		return seq_bind_call(b, name, args, (int)f->n_args, f->location);   /* sequence.c */
	}
	if (set_config_is_func(name) && !f->n_agg_order && !f->agg_star && !f->agg_distinct &&
	    !f->agg_filter && !f->over) {
		for (i = 0; i < f->n_args; i++)
			if (!(args[i] = bind_expr(b, f->args[i])))
				return NULL;
		return set_config_bind_call(b, args, (int)f->n_args, f->location);   /* set_config.c */
	}
	if (!f->n_agg_order && !f->agg_star && !f->agg_distinct && !f->agg_filter &&
	    (!strncmp(name, "current_", 8) || !strncmp(name, "pg_", 3) || !strcmp(name, "to_regclass") ||
	     !strcmp(name, "session_user") || !strcmp(name, "user"))) {
		bool handled = false, named = false;
		Expr *e;
		for (i = 0; i < f->n_args; i++)
			if (f->args[i]->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
				named = true;
		if (!named) {
			for (i = 0; i < f->n_args; i++)
				if (!(args[i] = bind_expr(b, f->args[i])))
					return NULL;
			e = bind_session_func(b, name, args, (int)f->n_args, f->location, &handled);
			if (handled)
				return e;
			return bind_call(b, name, args, (int)f->n_args, f->location);
		}
	}
	if (bind_is_aggregate_name(name)) {
		const AggFunc *af;
		SqlType types[4], cast_to[4], ret;
		AggCall *call;
		Expr *arg = NULL, *arg2 = NULL, *ref, *filter = NULL;
		AggOrderKey *order = NULL;

		if (!b->allow_aggs) {
			floe_errorf(b->err, ERRCODE_GROUPING_ERROR, "aggregate functions are not allowed in %s",
				    b->where ? b->where : "this context");
			return fail_at(b, f->location);
		}
		if (b->in_agg) {
			floe_errorf(b->err, ERRCODE_GROUPING_ERROR,
				    "aggregate function calls cannot be nested");
			return fail_at(b, f->location);
		}
		if (f->agg_within_group || agg_ordered_is(name)) {
			if (bind_ordered_set(b, f, name, &af, &ret, &arg, &arg2, &order) != FLOE_OK)
				return NULL;
			goto have_call;
		}
		if (f->agg_distinct && f->n_args != 1 &&
		    !(f->n_args == 2 && f->args[1]->node_case == PG_QUERY__NODE__NODE_A_CONST)) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "DISTINCT is supported in one-argument aggregates only");
			return fail_at(b, f->location);
		}
		if (f->n_args > 2) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "aggregates with more than two arguments are not supported yet");
			return fail_at(b, f->location);
		}
		if (f->n_args >= 1) {
			b->in_agg = true;
			arg = bind_expr(b, f->args[0]);
			if (arg && f->n_args == 2)
				arg2 = bind_expr(b, f->args[1]);
			b->in_agg = false;
			if (!arg || (f->n_args == 2 && !arg2))
				return NULL;
			types[0] = arg->unknown_literal ? type_make(TYPE_NULL) : arg->type;
			if (arg2)
				types[1] = arg2->unknown_literal ? type_make(TYPE_NULL) : arg2->type;
		}
		if (func_resolve_agg(name, types, (int)f->n_args, f->agg_star, &af, &ret, cast_to,
				     b->err) != FLOE_OK)
			return fail_at(b, f->location);
		if (arg && !(arg = bind_coerce(b, arg, cast_to[0], COERCE_EXPLICIT, NULL)))
			return NULL;
		if (arg2 && !(arg2 = bind_coerce(b, arg2, cast_to[1], COERCE_EXPLICIT, NULL)))
			return NULL;
		if (b->naggs == b->cap_aggs) {
			int nc = b->cap_aggs ? b->cap_aggs * 2 : 8;
			b->aggs = arena_realloc(b->arena, b->aggs, sizeof(AggCall) * (size_t)b->cap_aggs,
						sizeof(AggCall) * (size_t)nc);
			b->cap_aggs = nc;
		}
		if (f->agg_filter) {
			/* FILTER (WHERE ...): over the input rows, no aggregates inside */
			b->in_agg = true;
			filter = bind_coerce_bool(b, bind_expr(b, f->agg_filter), "FILTER");
			b->in_agg = false;
			if (!filter)
				return NULL;
		}
		if (f->n_agg_order && bind_agg_order(b, f, arg, arg2, &order) != FLOE_OK)
			return NULL;
		if (f->agg_distinct && arg &&
		    select_check_sortable(b, arg->type, false, sql_location(&f->args[0]->base)) != FLOE_OK)
			return NULL;   /* json */
have_call:
		if (b->naggs == b->cap_aggs) {
			int nc = b->cap_aggs ? b->cap_aggs * 2 : 8;
			b->aggs = arena_realloc(b->arena, b->aggs, sizeof(AggCall) * (size_t)b->cap_aggs,
						sizeof(AggCall) * (size_t)nc);
			b->cap_aggs = nc;
		}
		if (f->agg_filter && !filter) {
			b->in_agg = true;
			filter = bind_coerce_bool(b, bind_expr(b, f->agg_filter), "FILTER");
			b->in_agg = false;
			if (!filter)
				return NULL;
		}
		call = &b->aggs[b->naggs];
		memset(call, 0, sizeof *call);
		call->norder = (int)f->n_agg_order;
		call->order = order;
		if (f->agg_distinct && !f->n_agg_order && arg &&
		    (!strcmp(af->name, "array_agg") || !strcmp(af->name, "string_agg"))) {
			/* PostgreSQL's DISTINCT sorts its input: array_agg(DISTINCT x)
			 * and string_agg(DISTINCT x, d) come out in x's order */
			call->order = ARENA_NEW(b->arena, AggOrderKey);
			call->order->e = arg;
			call->norder = 1;
		}
		call->fn = af;
		call->arg = arg;
		call->arg2 = arg2;
		call->distinct = f->agg_distinct;
		call->filter = filter;
		call->type = ret;
		ref = expr_new(b->arena, EXPR_AGGREF, ret, 0);
		ref->col = b->naggs++;
		ref->location = bind_location(b, f->location);
		return ref;
	}
	if (f->agg_star || f->agg_distinct) {
		floe_errorf(b->err, ERRCODE_WRONG_OBJECT_TYPE,
			    "%s specified, but %s is not an aggregate function",
			    f->agg_star ? "*" : "DISTINCT", name);
		return fail_at(b, f->location);
	}
	if (!strcmp(name, "row_to_json") && (f->n_args == 1 || f->n_args == 2) &&
	    !f->agg_order && !f->over) {
		Expr *e;
		bool handled = false;
		e = bind_row_to_json(b, f, &handled);
		if (handled)
			return e;
	}
	if (named_spec(name)) {
		int n;
		Expr **nargs = ARENA_ARRAY(b->arena, Expr *, 5);    /* every parameter */
		if (named_args(b, f, name, named_spec(name), nargs, &n) != FLOE_OK)
			return NULL;
		return bind_call(b, name, nargs, n, f->location);
	}
	for (i = 0; i < f->n_args; i++) {
		if (f->args[i]->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "named arguments are not supported here");
			return fail_at(b, f->location);
		}
		if (!(args[i] = bind_expr(b, f->args[i])))
			return NULL;
	}
	return bind_call(b, name, args, (int)f->n_args, f->location);
}

static Node *
column_node(BindCtx *b, const char *rel, const char *col, int location)
{
	Node *n = ARENA_NEW(b->arena, Node);
	PgQuery__ColumnRef *c = ARENA_NEW(b->arena, PgQuery__ColumnRef);
	int k;
	pg_query__node__init(n);
	pg_query__column_ref__init(c);
	n->node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
	n->column_ref = c;
	c->n_fields = 2;
	c->fields = ARENA_ARRAY(b->arena, Node *, 2);
	for (k = 0; k < 2; k++) {
		Node *s = ARENA_NEW(b->arena, Node);
		pg_query__node__init(s);
		s->node_case = PG_QUERY__NODE__NODE_STRING;
		s->string = ARENA_NEW(b->arena, PgQuery__String);
		pg_query__string__init(s->string);
		s->string->sval = (char *)(k ? col : rel);
		c->fields[k] = s;
	}
	c->location = location;
	return n;
}

/* func_json.c's variadic calls take at most 64 arguments */
#define ROW_JSON_MAX 31

/*
 * row_to_json(record [, pretty]) of a FROM item's whole row (t, t.*) or of
 * ROW(...) (fields f1, f2, ...): __floe_row_to_json(pretty, 'name', value,
 * ...), which func_json.c writes as PostgreSQL's composite_to_json.  Not
 * handled (the generic 42883) for any other argument, or when the name is
 * a column's.
 */
static Expr *
bind_row_to_json(BindCtx *b, PgQuery__FuncCall *f, bool *handled)
{
	Node *a = f->args[0];
	Scope *s = b->scope;
	const char *rel = NULL;
	Expr *args[1 + 2 * ROW_JSON_MAX];
	int n = 1, i;
	*handled = false;
	if (a->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && s) {
		PgQuery__ColumnRef *c = a->column_ref;
		int found;
		bool relseen;
		if (c->n_fields == 1 && str_of(c->fields[0]) &&
		    scope_lookup(s, NULL, str_of(c->fields[0]), &found, &relseen) == 0)
			rel = str_of(c->fields[0]);
		else if (c->n_fields == 2 && str_of(c->fields[0]) && !str_of(c->fields[1]))
			rel = str_of(c->fields[0]);      /* t.* */
		if (!rel)
			return NULL;
		/* every column of the FROM item, a USING column's side too */
		for (i = 0; i < s->ncols; i++)
			if (scope_relname(s, i) && !strcmp(scope_relname(s, i), rel))
				break;
		if (i == s->ncols)
			return NULL;
		*handled = true;
		for (i = 0; i < s->ncols; i++) {
			if (!scope_relname(s, i) || strcmp(scope_relname(s, i), rel))
				continue;
			if (n + 2 > (int)(sizeof args / sizeof args[0])) {
				floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					    "row_to_json of more than %d columns is not supported yet",
					    ROW_JSON_MAX);
				return fail_at(b, f->location);
			}
			args[n++] = text_const(b, s->names[i], f->location);
			if (!(args[n++] = bind_expr(b, column_node(b, rel, s->names[i], c->location))))
				return NULL;
		}
	} else if (a->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
		PgQuery__RowExpr *r = a->row_expr;
		*handled = true;
		if (1 + 2 * (int)r->n_args > (int)(sizeof args / sizeof args[0])) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "row_to_json of more than %d columns is not supported yet",
				    ROW_JSON_MAX);
			return fail_at(b, f->location);
		}
		for (i = 0; i < (int)r->n_args; i++) {
			char fname[16];
			snprintf(fname, sizeof fname, "f%d", i + 1);
			args[n++] = text_const(b, fname, f->location);
			if (!(args[n++] = bind_expr(b, r->args[i])))
				return NULL;
		}
	} else {
		return NULL;
	}
	if (f->n_args == 2) {
		if (!(args[0] = bind_expr(b, f->args[1])))
			return NULL;
	} else {
		Value v;
		memset(&v, 0, sizeof v);
		v.type = type_make(TYPE_BOOL);
		v.u.b = false;
		args[0] = expr_const(b->arena, &v);
	}
	return bind_call(b, "__floe_row_to_json", args, n, f->location);
}

/* json functions with named parameters and defaults (PostgreSQL's
 * pg_proc.proargnames / proargdefaults) */
enum { D_REQUIRED = 0, D_JSONB_EMPTY, D_FALSE, D_TRUE, D_TEXT };
typedef struct NamedSpec {
	const char *fn;           /* the name, or a prefix ending in '_' */
	const char *names[5];
	uint8_t defaults[5];
	const char *text_default;
} NamedSpec;

static const NamedSpec named_specs[] = {
	{ "jsonb_path_", { "target", "path", "vars", "silent" },
	  { D_REQUIRED, D_REQUIRED, D_JSONB_EMPTY, D_FALSE }, NULL },
	{ "__floe_jsonb_path_", { "target", "path", "vars", "silent" },
	  { D_REQUIRED, D_REQUIRED, D_JSONB_EMPTY, D_FALSE }, NULL },
	{ "jsonb_set_lax", { "jsonb_in", "path", "replacement", "create_if_missing",
			     "null_value_treatment" },
	  { D_REQUIRED, D_REQUIRED, D_REQUIRED, D_TRUE, D_TEXT }, "use_json_null" },
	{ "jsonb_set", { "jsonb_in", "path", "replacement", "create_if_missing" },
	  { D_REQUIRED, D_REQUIRED, D_REQUIRED, D_TRUE }, NULL },
	{ "jsonb_insert", { "jsonb_in", "path", "replacement", "insert_after" },
	  { D_REQUIRED, D_REQUIRED, D_REQUIRED, D_FALSE }, NULL },
};

static const NamedSpec *
named_spec(const char *name)
{
	for (size_t k = 0; k < sizeof named_specs / sizeof named_specs[0]; k++) {
		const char *fn = named_specs[k].fn;
		size_t n = strlen(fn);
		if (fn[n - 1] == '_' ? !strncmp(name, fn, n) : !strcmp(name, fn))
			return &named_specs[k];
	}
	return NULL;
}

/* the arguments of a call to a named_specs function (args: room for 5):
 * named ones put in place, the omitted ones before the last given defaulted */
static int
named_args(BindCtx *b, PgQuery__FuncCall *f, const char *name, const NamedSpec *sp, Expr **args,
	   int *nargs)
{
	int n = 0, i, k, np = 0;
	while (np < 5 && sp->names[np])
		np++;
	for (k = 0; k < np; k++)
		args[k] = NULL;
	if ((int)f->n_args > np) {
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist", name);
		fail_at(b, f->location);
		return FLOE_ERR;
	}
	for (i = 0; i < (int)f->n_args; i++) {
		Node *a = f->args[i];
		k = i;
		if (a->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			for (k = 0; k < np; k++)
				if (!strcmp(a->named_arg_expr->name, sp->names[k]))
					break;
			if (k == np || args[k]) {
				floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
					    "function %s(..., %s => ...) does not exist", name,
					    a->named_arg_expr->name);
				fail_at(b, f->location);
				return FLOE_ERR;
			}
			a = (Node *)a->named_arg_expr->arg;
		}
		if (!(args[k] = bind_expr(b, a)))
			return FLOE_ERR;
		if (k + 1 > n)
			n = k + 1;
	}
	for (k = 0; k < n; k++) {
		Value v;
		if (args[k])
			continue;
		memset(&v, 0, sizeof v);
		switch (sp->defaults[k]) {
		case D_JSONB_EMPTY:
			v.type = type_json(true);
			v.u.s = strview_make("{}", 2);
			break;
		case D_FALSE: case D_TRUE:
			v.type = type_make(TYPE_BOOL);
			v.u.b = sp->defaults[k] == D_TRUE;
			break;
		case D_TEXT:
			v.type = type_make(TYPE_TEXT);
			v.u.s = strview_make(sp->text_default, (uint32_t)strlen(sp->text_default));
			break;
		default:
			floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist", name);
			fail_at(b, f->location);
			return FLOE_ERR;
		}
		args[k] = expr_const(b->arena, &v);
	}
	*nargs = n;
	return FLOE_OK;
}

/* $n (pgwire Bind, session_exec_params): an unspecified parameter is an
 * unknown-typed literal like '...'; a declared one a constant of its type.
 * While describing (values unknown) every parameter is a NULL of its type. */
static Expr *
bind_param(BindCtx *b, PgQuery__ParamRef *p)
{
	Session *s = b->session;
	int k = p->number;
	uint32_t oid;
	SqlType t = type_make(TYPE_NULL);
	const char *text;
	Value v;
	Expr *e;

	if (k < 1 || (!s->params_describe && k > s->nparams)) {
		/* $n as written: the parser wraps a number past INT_MAX */
		const char *at = k < 1 && b->sql && p->location >= 0 ? b->sql + p->location : NULL;
		int len = 0;
		if (at && *at == '$')
			while (len < 40 && at[1 + len] >= '0' && at[1 + len] <= '9')
				len++;
		if (len)
			floe_errorf(b->err, ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%.*s", len, at + 1);
		else
			floe_errorf(b->err, ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%d", k);
		return fail_at(b, p->location);
	}
	oid = (s->param_oids && k <= s->nparams) ? s->param_oids[k - 1] : 0;
	if (oid != 0 && oid != 705 && engine_type_from_pg_oid(oid, &t, b->err) != FLOE_OK)
		return fail_at(b, p->location);
	text = (s->params_describe || !s->param_values) ? NULL : s->param_values[k - 1];
	memset(&v, 0, sizeof v);
	if (!text) {
		v = value_null(t);
		e = expr_const(b->arena, &v);
	} else if (t.id == TYPE_NULL) {
		size_t len = strlen(text);
		v.type = type_make(TYPE_TEXT);
		v.u.s = strview_make(arena_strndup(b->arena, text, len), (uint32_t)len);
		e = expr_const(b->arena, &v);
		e->unknown_literal = true;
	} else {
		/* a value its declared type refuses: PostgreSQL's Bind error,
		 * without a position */
		if (value_from_text(&v, t, text, strlen(text), b->arena, b->err) != FLOE_OK)
			return NULL;
		e = expr_const(b->arena, &v);
	}
	e->location = bind_location(b, p->location);
	e->param = k;
	return e;
}

/* Subqueries in expressions (uncorrelated; select.c runs them once):
 * scalar -> the constant, EXISTS -> true/false, x op ANY/ALL (subquery)
 * (IN is = ANY) -> an OR/AND of x op value over the values, so NULLs give
 * PostgreSQL's three-valued answers (NOT IN with a NULL is never true). */
/* ---- correlated subqueries over small inputs ------------------------------
 *
 * The planner (select.c) decorrelates EXISTS / IN / aggregate comparisons
 * in WHERE; other correlated scalar, EXISTS and ARRAY subqueries over
 * pg_catalog / information_schema relations (the lookups catalog queries
 * make: psql's \d and \du, column defaults) are bound here when their
 * inner side is small:
 *
 *   (SELECT v FROM inner WHERE p_inner AND p_corr)
 *     -> run SELECT v, k1..kn FROM inner WHERE p_inner once (k: the inner
 *        columns p_corr reads), at most CORR_MAX_ROWS rows, then
 *        CASE WHEN p_corr[row 1] THEN v1 WHEN p_corr[row 2] THEN v2 ... END
 *
 * where p_corr[row i] is p_corr with the inner columns replaced by row i's
 * values.  EXISTS is the OR of the p_corr[row i]; ARRAY(...) the text form
 * '{...}' of the values whose p_corr holds, in the inner query's order.
 * Only a plain SELECT (one target, no aggregates, GROUP BY, DISTINCT,
 * LIMIT, set operations, WITH, nested subqueries) whose outer references
 * are all in WHERE conjuncts qualifies; otherwise the original 0A000
 * stands.  Unlike PostgreSQL, a scalar subquery matching several rows
 * yields the first instead of failing with 21000.  A catalog subquery
 * that does not qualify becomes an expression failing with 0A000 when a
 * row reaches it (try_corr): psql's queries over empty catalogs run.
 */
#define CORR_MAX_ROWS 5000

typedef struct CorrRefs {
	const char **aliases;     /* the inner FROM's relation names / aliases */
	int naliases;
	bool outer;               /* a reference to another relation was seen */
	PgQuery__ColumnRef **inner;   /* inner columns read (deduplicated) */
	int ninner, cap;
	Arena *a;
} CorrRefs;

static void
from_aliases(CorrRefs *cr, Node *n)
{
	const char *name = NULL;
	if (!n)
		return;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
		name = n->range_var->alias ? n->range_var->alias->aliasname : n->range_var->relname;
		break;
	case PG_QUERY__NODE__NODE_JOIN_EXPR:
		from_aliases(cr, n->join_expr->larg);
		from_aliases(cr, n->join_expr->rarg);
		if (n->join_expr->alias)
			name = n->join_expr->alias->aliasname;
		break;
	case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
		if (n->range_subselect->alias)
			name = n->range_subselect->alias->aliasname;
		break;
	case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
		if (n->range_function->alias)
			name = n->range_function->alias->aliasname;
		break;
	default:
		break;
	}
	if (name) {
		cr->aliases = arena_realloc(cr->a, cr->aliases, sizeof(char *) * (size_t)cr->naliases,
					    sizeof(char *) * (size_t)(cr->naliases + 1));
		cr->aliases[cr->naliases++] = name;
	}
}

/* Are the relations a FROM item reads all pg_catalog / information_schema
 * relations (functions such as generate_series allowed)? */
static bool
from_is_catalog(Session *s, Node *n)
{
	if (!n)
		return true;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
		return pgcatalog_is_relation(s, n->range_var->schemaname, n->range_var->relname);
	case PG_QUERY__NODE__NODE_JOIN_EXPR:
		return from_is_catalog(s, n->join_expr->larg) && from_is_catalog(s, n->join_expr->rarg);
	case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
		return true;
	default:
		return false;
	}
}

static bool
subquery_reads_catalog(Session *s, PgQuery__SubLink *sl)
{
	PgQuery__SelectStmt *sub;
	size_t i;
	if (!sl->subselect || sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return false;
	sub = sl->subselect->select_stmt;
	if (sub->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sub->n_from_clause == 0)
		return false;
	for (i = 0; i < sub->n_from_clause; i++)
		if (!from_is_catalog(s, sub->from_clause[i]))
			return false;
	return true;
}

/* the relation a column reference names (NULL: unqualified) */
static const char *
ref_rel(PgQuery__ColumnRef *c)
{
	if (c->n_fields == 2)
		return str_of(c->fields[0]);
	if (c->n_fields == 3)
		return str_of(c->fields[1]);
	return NULL;
}

static void
note_ref(CorrRefs *cr, PgQuery__ColumnRef *c)
{
	const char *rel = ref_rel(c), *col = str_of(c->fields[c->n_fields - 1]);
	int i;
	if (rel) {
		for (i = 0; i < cr->naliases; i++)
			if (!strcmp(cr->aliases[i], rel))
				break;
		if (i == cr->naliases) {
			cr->outer = true;
			return;
		}
	}
	if (!col)
		return;
	for (i = 0; i < cr->ninner; i++) {
		const char *r2 = ref_rel(cr->inner[i]);
		if (!strcmp(str_of(cr->inner[i]->fields[cr->inner[i]->n_fields - 1]), col) &&
		    ((!r2 && !rel) || (r2 && rel && !strcmp(r2, rel))))
			return;
	}
	if (cr->ninner == cr->cap) {
		int nc = cr->cap ? cr->cap * 2 : 8;
		cr->inner = arena_realloc(cr->a, cr->inner, sizeof(void *) * (size_t)cr->cap,
					  sizeof(void *) * (size_t)nc);
		cr->cap = nc;
	}
	cr->inner[cr->ninner++] = c;
}

/* Note the column references of an expression; false for node kinds this
 * walk does not know (subqueries among them). */
static bool
walk_refs(CorrRefs *cr, Node *n)
{
	size_t i;
	if (!n)
		return true;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_COLUMN_REF:
		note_ref(cr, n->column_ref);
		return true;
	case PG_QUERY__NODE__NODE_A_CONST:
	case PG_QUERY__NODE__NODE_PARAM_REF:
	case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
		return true;
	case PG_QUERY__NODE__NODE_A_EXPR:
		return walk_refs(cr, n->a_expr->lexpr) && walk_refs(cr, n->a_expr->rexpr);
	case PG_QUERY__NODE__NODE_LIST:
		for (i = 0; i < n->list->n_items; i++)
			if (!walk_refs(cr, n->list->items[i]))
				return false;
		return true;
	case PG_QUERY__NODE__NODE_BOOL_EXPR:
		for (i = 0; i < n->bool_expr->n_args; i++)
			if (!walk_refs(cr, n->bool_expr->args[i]))
				return false;
		return true;
	case PG_QUERY__NODE__NODE_FUNC_CALL:
		if (n->func_call->over || n->func_call->agg_star || n->func_call->n_agg_order ||
		    n->func_call->agg_filter || bind_is_aggregate_name(str_of(
			    n->func_call->funcname[n->func_call->n_funcname - 1])))
			return false;
		for (i = 0; i < n->func_call->n_args; i++)
			if (!walk_refs(cr, n->func_call->args[i]))
				return false;
		return true;
	case PG_QUERY__NODE__NODE_TYPE_CAST:
		return walk_refs(cr, n->type_cast->arg);
	case PG_QUERY__NODE__NODE_NULL_TEST:
		return walk_refs(cr, n->null_test->arg);
	case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
		return walk_refs(cr, n->boolean_test->arg);
	case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
		return walk_refs(cr, n->collate_clause->arg);
	case PG_QUERY__NODE__NODE_COALESCE_EXPR:
		for (i = 0; i < n->coalesce_expr->n_args; i++)
			if (!walk_refs(cr, n->coalesce_expr->args[i]))
				return false;
		return true;
	case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
		for (i = 0; i < n->a_array_expr->n_elements; i++)
			if (!walk_refs(cr, n->a_array_expr->elements[i]))
				return false;
		return true;
	case PG_QUERY__NODE__NODE_CASE_EXPR:
		if (!walk_refs(cr, n->case_expr->arg) || !walk_refs(cr, n->case_expr->defresult))
			return false;
		for (i = 0; i < n->case_expr->n_args; i++) {
			PgQuery__CaseWhen *w = n->case_expr->args[i]->case_when;
			if (!walk_refs(cr, w->expr) || !walk_refs(cr, w->result))
				return false;
		}
		return true;
	default:
		return false;
	}
}

/* a copy of e with inner column k (< ninner) replaced by row[k] and outer
 * column ninner + j by column j */
static Expr *
corr_subst(Arena *a, const Expr *e, int ninner, const Value *row)
{
	Expr *c;
	int i;
	if (e->kind == EXPR_COLREF) {
		if (e->col < ninner) {
			Value v = row[e->col];
			c = expr_const(a, &v);
			c->location = e->location;
			return c;
		}
		c = expr_colref(a, e->col - ninner, e->type);
		c->location = e->location;
		return c;
	}
	c = ARENA_NEW(a, Expr);
	*c = *e;
	if (e->nargs) {
		c->args = ARENA_ARRAY(a, Expr *, e->nargs);
		for (i = 0; i < e->nargs; i++)
			c->args[i] = e->args[i] ? corr_subst(a, e->args[i], ninner, row) : NULL;
	}
	return c;
}

/* one element of an array's text form: quoted when PostgreSQL quotes it */
static const char *
array_elem_text(BindCtx *b, const Value *v)
{
	const char *t;
	size_t tl, k, len = 0;
	bool quote;
	char *o;
	if (v->is_null)
		return "NULL";
	t = value_to_text(v, b->arena, &tl);
	quote = tl == 0 || (tl == 4 && !strncasecmp(t, "null", 4));
	for (k = 0; k < tl; k++)
		if (strchr("{},\" \\", t[k]))
			quote = true;
	if (!quote)
		return t;
	o = arena_alloc(b->arena, 2 * tl + 3);
	o[len++] = '"';
	for (k = 0; k < tl; k++) {
		if (t[k] == '"' || t[k] == '\\')
			o[len++] = '\\';
		o[len++] = t[k];
	}
	o[len++] = '"';
	o[len] = 0;
	return o;
}

/* Bind a correlated subquery as described above; NULL with *handled false
 * when it does not qualify (the caller keeps its error). */
static Expr *
bind_corr_sublink(BindCtx *b, PgQuery__SubLink *sl, bool *handled)
{
	PgQuery__SelectStmt *sub, *ns;
	CorrRefs cr;
	Node **conj, **inner_conj, **corr_conj, stmt;
	size_t nconj = 0, i;
	int ninner_c = 0, ncorr = 0, k, ncols;
	SelectPlan p;
	Value *rows = NULL;
	int64_t nrows = 0, cap = 0;
	Scope is;
	BindCtx nb;
	Expr *cond = NULL, *e;
	int rc;

	*handled = false;
	if (!b->exec || !b->scope || b->corr_scope || !sl->subselect ||
	    sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return NULL;
	sub = sl->subselect->select_stmt;
	if (sub->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sub->n_values_lists ||
	    sub->n_group_clause || sub->having_clause || sub->limit_count || sub->limit_offset ||
	    sub->n_distinct_clause || sub->n_window_clause || sub->with_clause ||
	    sub->n_target_list != 1 || !sub->where_clause || sub->into_clause)
		return NULL;
	memset(&cr, 0, sizeof cr);
	cr.a = b->arena;
	for (i = 0; i < sub->n_from_clause; i++)
		from_aliases(&cr, sub->from_clause[i]);
	/* the target and ORDER BY may not look outside */
	if (!walk_refs(&cr, sub->target_list[0]->res_target->val) || cr.outer)
		return NULL;
	for (i = 0; i < sub->n_sort_clause; i++)
		if (!walk_refs(&cr, sub->sort_clause[i]->sort_by->node) || cr.outer)
			return NULL;
	/* split WHERE into inner-only and correlated conjuncts */
	if (sub->where_clause->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
	    sub->where_clause->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
		conj = sub->where_clause->bool_expr->args;
		nconj = sub->where_clause->bool_expr->n_args;
	} else {
		conj = &sub->where_clause;
		nconj = 1;
	}
	inner_conj = ARENA_ARRAY(b->arena, Node *, nconj + 1);
	corr_conj = ARENA_ARRAY(b->arena, Node *, nconj + 1);
	cr.ninner = 0;   /* from here on: the inner columns of correlated conjuncts */
	for (i = 0; i < nconj; i++) {
		CorrRefs one = cr;
		one.outer = false;
		one.ninner = 0;
		one.inner = NULL;
		one.cap = 0;
		if (!walk_refs(&one, conj[i]))
			return NULL;
		if (!one.outer) {
			inner_conj[ninner_c++] = conj[i];
			continue;
		}
		corr_conj[ncorr++] = conj[i];
		for (k = 0; k < one.ninner; k++)
			note_ref(&cr, one.inner[k]);
	}
	if (ncorr == 0)
		return NULL;
	/* SELECT target, inner columns FROM ... WHERE inner conjuncts */
	ns = ARENA_NEW(b->arena, PgQuery__SelectStmt);
	*ns = *sub;
	ns->n_target_list = 1 + (size_t)cr.ninner;
	ns->target_list = ARENA_ARRAY(b->arena, Node *, ns->n_target_list);
	ns->target_list[0] = sub->target_list[0];
	for (k = 0; k < cr.ninner; k++) {
		PgQuery__ResTarget *rt = ARENA_NEW(b->arena, PgQuery__ResTarget);
		Node *n = ARENA_NEW(b->arena, Node), *ref = ARENA_NEW(b->arena, Node);
		pg_query__res_target__init(rt);
		pg_query__node__init(ref);
		ref->node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
		ref->column_ref = cr.inner[k];
		rt->val = ref;
		rt->location = -1;
		pg_query__node__init(n);
		n->node_case = PG_QUERY__NODE__NODE_RES_TARGET;
		n->res_target = rt;
		ns->target_list[1 + k] = n;
	}
	if (ninner_c == 0) {
		ns->where_clause = NULL;
	} else if (ninner_c == 1) {
		ns->where_clause = inner_conj[0];
	} else {
		PgQuery__BoolExpr *be = ARENA_NEW(b->arena, PgQuery__BoolExpr);
		Node *n = ARENA_NEW(b->arena, Node);
		pg_query__bool_expr__init(be);
		be->boolop = PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
		be->n_args = (size_t)ninner_c;
		be->args = inner_conj;
		be->location = -1;
		pg_query__node__init(n);
		n->node_case = PG_QUERY__NODE__NODE_BOOL_EXPR;
		n->bool_expr = be;
		ns->where_clause = n;
	}
	pg_query__node__init(&stmt);
	stmt.node_case = PG_QUERY__NODE__NODE_SELECT_STMT;
	stmt.select_stmt = ns;
	if (select_plan(b->session, b->exec, b->sql, &stmt, &p) != FLOE_OK)
		return NULL;
	ncols = p.ncols;
	if ((rc = op_open(p.root)) == FLOE_OK) {
		Batch *batch;
		while ((rc = op_next(p.root, &batch)) == FLOE_OK && batch) {
			uint32_t r;
			for (r = 0; r < batch->count; r++) {
				uint32_t row = batch->sel ? batch->sel[r] : r;
				int c;
				if (nrows == CORR_MAX_ROWS) {
					rc = FLOE_ERR;
					break;
				}
				if (nrows == cap) {
					int64_t nc = cap ? cap * 2 : 16;
					rows = arena_realloc(b->arena, rows, sizeof(Value) * (size_t)(cap * ncols),
							     sizeof(Value) * (size_t)(nc * ncols));
					cap = nc;
				}
				for (c = 0; c < ncols; c++) {
					Value *v = &rows[nrows * ncols + c];
					vector_get_value(&batch->cols[c], row, v);
					v->type = p.types[c];
					if (!v->is_null && type_is_string(v->type.id) && v->u.s.len > STRVIEW_INLINE)
						v->u.s = strview_make(arena_memdup(b->arena, v->u.s.u.ptr, v->u.s.len),
								      v->u.s.len);
				}
				nrows++;
			}
			if (rc != FLOE_OK)
				break;
		}
	}
	op_close(p.root);
	if (rc != FLOE_OK)
		return NULL;
	/* the correlated conjuncts over (inner columns, outer scope) */
	memset(&is, 0, sizeof is);
	is.ncols = cr.ninner;
	is.names = ARENA_ARRAY(b->arena, char *, cr.ninner + 1);
	is.types = p.types + 1;
	is.relnames = ARENA_ARRAY(b->arena, char *, cr.ninner + 1);
	for (k = 0; k < cr.ninner; k++) {
		is.names[k] = (char *)str_of(cr.inner[k]->fields[cr.inner[k]->n_fields - 1]);
		is.relnames[k] = (char *)ref_rel(cr.inner[k]);
	}
	nb = *b;
	nb.scope = &is;
	nb.corr_scope = b->scope;
	nb.corr_base = cr.ninner;
	nb.allow_aggs = false;
	nb.where = "WHERE";
	for (k = 0; k < ncorr; k++) {
		Expr *c = bind_coerce_bool(&nb, bind_expr(&nb, corr_conj[k]), "WHERE");
		if (!c)
			return NULL;
		cond = cond ? bind_bool2(b, EXPR_AND, cond, c) : c;
	}
	*handled = true;
	switch (sl->sub_link_type) {
	case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK: {
		Value fv;
		memset(&fv, 0, sizeof fv);
		fv.type = type_make(TYPE_BOOL);
		e = expr_const(b->arena, &fv);
		for (i = 0; i < (size_t)nrows; i++) {
			Expr *ci = corr_subst(b->arena, cond, cr.ninner, &rows[i * (size_t)ncols + 1]);
			e = i == 0 ? ci : bind_bool2(b, EXPR_OR, e, ci);
		}
		return e;
	}
	case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK: {
		Value nv = value_null(p.types[0]);
		if (nrows == 0)
			return expr_const(b->arena, &nv);
		e = expr_new(b->arena, EXPR_CASE, p.types[0], (int)(2 * nrows));
		for (i = 0; i < (size_t)nrows; i++) {
			e->args[2 * i] = corr_subst(b->arena, cond, cr.ninner, &rows[i * (size_t)ncols + 1]);
			e->args[2 * i + 1] = expr_const(b->arena, &rows[i * (size_t)ncols]);
		}
		e->location = bind_location(b, sl->location);
		return e;
	}
	case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: {
		Expr **args, *pair[2];
		if (nrows == 0)
			return text_const(b, "{}", sl->location);
		/* concat_ws(',', CASE WHEN p1 THEN 'e1' END, ...), 99 elements per
		 * call (functions take at most 100 arguments), the calls joined by
		 * an outer concat_ws of their non-empty results */
		{
			int nchunks = (int)((nrows + 98) / 99), ch;
			Expr **outer = ARENA_ARRAY(b->arena, Expr *, nchunks + 1);
			outer[0] = text_const(b, ",", sl->location);
			for (ch = 0; ch < nchunks; ch++) {
				size_t lo = (size_t)ch * 99, hi = lo + 99 > (size_t)nrows ? (size_t)nrows : lo + 99;
				Expr *part, *eq[2], *nz;
				Value nv = value_null(type_make(TYPE_TEXT));
				args = ARENA_ARRAY(b->arena, Expr *, hi - lo + 1);
				args[0] = text_const(b, ",", sl->location);
				for (i = lo; i < hi; i++) {
					Expr *w = expr_new(b->arena, EXPR_CASE, type_make(TYPE_TEXT), 2);
					w->args[0] = corr_subst(b->arena, cond, cr.ninner, &rows[i * (size_t)ncols + 1]);
					w->args[1] = text_const(b, array_elem_text(b, &rows[i * (size_t)ncols]),
								sl->location);
					args[i - lo + 1] = w;
				}
				if (!(part = bind_call(b, "concat_ws", args, (int)(hi - lo) + 1, sl->location)))
					return NULL;
				eq[0] = part;
				eq[1] = text_const(b, "", sl->location);
				nz = expr_new(b->arena, EXPR_CASE, type_make(TYPE_TEXT), 3);
				if (!(nz->args[0] = bind_call(b, "=", eq, 2, sl->location)))
					return NULL;
				nz->args[1] = expr_const(b->arena, &nv);
				nz->args[2] = part;
				nz->has_else = true;
				outer[ch + 1] = nz;
			}
			if (!(e = bind_call(b, "concat_ws", outer, nchunks + 1, sl->location)))
				return NULL;
		}
		pair[0] = text_const(b, "{", sl->location);
		pair[1] = e;
		if (!(e = bind_call(b, "||", pair, 2, sl->location)))
			return NULL;
		pair[0] = e;
		pair[1] = text_const(b, "}", sl->location);
		return bind_call(b, "||", pair, 2, sl->location);
	}
	default:
		*handled = false;
		return NULL;
	}
}

/* The parameters of a subplan bound inside another subplan: b's own
 * columns, then the columns b itself reads as parameters (b->corr_scope,
 * whose values b's plan has in its params), so a subquery can read its
 * grand-parent's columns (and, recursively, any enclosing level's).  As in
 * PostgreSQL the nearest level wins: an appended column is hidden from
 * unqualified references when b has a column of that name, and loses its
 * relation name when b has a relation of that name.  Returns how many of
 * the columns are b's own. */
static int
subplan_scope(BindCtx *b, Scope *outer)
{
	const Scope *own = b->scope, *up = b->corr_scope;
	int n2 = own->ncols, nu, n, i, j;

	*outer = *own;
	if (!up || b->corr_base != EXPR_PARAM_BASE || !up->param_used || up->ncols == 0)
		return n2;
	nu = up->ncols;
	n = n2 + nu;
	outer->ncols = n;
	outer->names = ARENA_ARRAY(b->arena, char *, n);
	outer->types = ARENA_ARRAY(b->arena, SqlType, n);
	outer->relnames = ARENA_ARRAY(b->arena, char *, n);
	outer->hidden = ARENA_ARRAY(b->arena, bool, n);
	outer->nested = NULL;
	if (own->nested || up->nested) {
		outer->nested = ARENA_ARRAY(b->arena, char *, n);
		memset(outer->nested, 0, sizeof(char *) * (size_t)n);
	}
	for (i = 0; i < n; i++) {
		const Scope *s = i < n2 ? own : up;
		int k = i < n2 ? i : i - n2;
		outer->names[i] = s->names[k];
		outer->types[i] = s->types[k];
		outer->relnames[i] = (char *)scope_relname(s, k);
		outer->hidden[i] = s->hidden ? s->hidden[k] : false;
		if (outer->nested && s->nested)
			outer->nested[i] = s->nested[k];
		if (i < n2)
			continue;
		for (j = 0; j < n2; j++) {
			const char *r = scope_relname(own, j);
			if (!(own->hidden && own->hidden[j]) && !strcmp(own->names[j], outer->names[i]))
				outer->hidden[i] = true;
			if (r && outer->relnames[i] && !strcmp(r, outer->relnames[i]))
				outer->relnames[i] = NULL;
		}
	}
	return n2;
}

/* A correlated subquery the planner could not turn into a join, run per
 * outer row (exec/subplan.c): planned once with the columns of b->scope it
 * reads as parameters; the EXPR_SUBPLAN's args are those columns, then x
 * (the left operand of IN / op ANY / op ALL, else NULL).  Inside another
 * subplan, the enclosing levels' columns are parameters too
 * (subplan_scope): such an arg is b's own parameter, which b's subplan is
 * told to pass down (param_used). */
static Expr *
bind_subplan(BindCtx *b, PgQuery__SubLink *sl, Expr *x, const char *op)
{
	Scope outer;
	SelectPlan p;
	ExecCtx *rctx;
	SubPlan *sp = ARENA_NEW(b->arena, SubPlan);
	SqlType type = type_make(TYPE_BOOL);
	Expr *e;
	int i, np = 0, nown = subplan_scope(b, &outer);

	outer.param_used = ARENA_ARRAY(b->arena, bool, outer.ncols + 1);
	memset(outer.param_used, 0, sizeof(bool) * (size_t)(outer.ncols + 1));
	if (select_plan_correlated(b, sl->subselect, &outer, &rctx, &p) != FLOE_OK)
		return fail_at(b, sl->location);
	switch (sl->sub_link_type) {
	case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
		sp->kind = SUBPLAN_EXISTS;
		break;
	case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
		sp->kind = SUBPLAN_EXPR;
		break;
	case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
		sp->kind = SUBPLAN_ANY;
		break;
	case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK:
		sp->kind = SUBPLAN_ALL;
		break;
	default:
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "this kind of correlated subquery is not supported yet");
		return fail_at(b, sl->location);
	}
	if (sp->kind != SUBPLAN_EXISTS && p.ncols != 1) {
		floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, sp->kind == SUBPLAN_EXPR ?
			    "subquery must return only one column" :
			    p.ncols > 1 ? "subquery has too many columns" : "subquery has too few columns");
		return fail_at(b, sl->location);
	}
	if (sp->kind == SUBPLAN_EXPR)
		type = p.types[0];
	if (x) {
		Expr *args[2] = { expr_colref(b->arena, 0, x->type), expr_colref(b->arena, 1, p.types[0]) };
		if (!(sp->cmp = bind_call(b, op, args, 2, sl->location)))
			return NULL;
		if (sp->cmp->type.id != TYPE_BOOL && sp->cmp->type.id != TYPE_NULL) {
			floe_errorf(b->err, ERRCODE_DATATYPE_MISMATCH,
				    "op ANY/ALL (array) requires operator to yield boolean");
			return fail_at(b, sl->location);
		}
	}
	for (i = 0; i < outer.ncols; i++)
		np += outer.param_used[i];
	sp->root = p.root;
	sp->rctx = rctx;
	sp->nparams = np;
	sp->param_idx = ARENA_ARRAY(b->arena, int, np + 1);
	e = expr_new(b->arena, EXPR_SUBPLAN, type, np + (x ? 1 : 0));
	for (i = 0, np = 0; i < outer.ncols; i++)
		if (outer.param_used[i]) {
			sp->param_idx[np] = i;
			if (i < nown) {
				e->args[np++] = expr_colref(b->arena, i, outer.types[i]);
			} else {
				e->args[np++] = expr_colref(b->arena, EXPR_PARAM_BASE + (i - nown),
							    outer.types[i]);
				b->corr_scope->param_used[i - nown] = true;
			}
		}
	if (x)
		e->args[np] = x;
	e->subplan = sp;
	e->location = bind_location(b, sl->location);
	return e;
}

/* After a subquery failed with the planner's "correlated subqueries are
 * not supported": bind it with bind_corr_sublink (small catalog lookups),
 * else as a subplan run per outer row (bind_subplan), or keep that error. */
static Expr *
try_corr(BindCtx *b, PgQuery__SubLink *sl, Expr *x, const char *op, bool *handled)
{
	floe_error saved = *b->err;
	Expr *e;

	*handled = false;
	if (strcmp(saved.sqlstate, ERRCODE_FEATURE_NOT_SUPPORTED) != 0 ||
	    strncmp(saved.message, "correlated subqueries", 21) != 0)
		return NULL;
	if (!x && subquery_reads_catalog(b->session, sl)) {
		floe_error_clear(b->err);
		e = bind_corr_sublink(b, sl, handled);
		if (*handled)
			return e;
		*b->err = saved;
	}
	if (b->scope && b->scope->ncols > 0 && b->exec &&
	    (!b->corr_scope || b->corr_base == EXPR_PARAM_BASE) &&
	    sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK) {
		floe_error_clear(b->err);
		*handled = true;
		return bind_subplan(b, sl, x, op);
	}
	return NULL;
}

static Expr *
bind_sublink(BindCtx *b, PgQuery__SubLink *sl)
{
	Value *vals;
	int64_t nrows, i;
	SqlType type;
	int ncols;
	Value v;

	for (i = 0; i < b->nmarks; i++)
		if (b->mark_sl[i] == sl)     /* a MARK join's mark (select.c plan_marks) */
			return expr_colref(b->arena, b->mark_col[i], type_make(TYPE_BOOL));
	switch (sl->sub_link_type) {
	case PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK:
		if (select_run_subquery(b, sl->subselect, 1, &vals, &nrows, &type, &ncols) != FLOE_OK) {
			bool h;
			Expr *ce = try_corr(b, sl, NULL, NULL, &h);
			return h ? ce : fail_at(b, sl->location);
		}
		memset(&v, 0, sizeof v);
		v.type = type_make(TYPE_BOOL);
		v.u.b = nrows > 0;
		return expr_const(b->arena, &v);
	case PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK:
		if (select_run_subquery(b, sl->subselect, 2, &vals, &nrows, &type, &ncols) != FLOE_OK) {
			bool h;
			Expr *ce = try_corr(b, sl, NULL, NULL, &h);
			return h ? ce : fail_at(b, sl->location);
		}
		if (ncols != 1) {
			floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "subquery must return only one column");
			return fail_at(b, sl->location);
		}
		if (nrows > 1) {
			floe_errorf(b->err, ERRCODE_CARDINALITY_VIOLATION,
				    "more than one row returned by a subquery used as an expression");
			return NULL;
		}
		v = nrows ? vals[0] : value_null(type);
		return expr_const(b->arena, &v);
	case PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK:
	case PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK: {
		bool any = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK;
		const char *op = sl->n_oper_name ? str_of(sl->oper_name[sl->n_oper_name - 1]) : "=";
		Expr *x, *e;

		if (sl->testexpr && sl->testexpr->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "row comparisons with subqueries are not supported yet");
			return fail_at(b, sl->location);
		}
		if (!(x = bind_expr(b, sl->testexpr)))
			return NULL;
		if (select_run_subquery(b, sl->subselect, -1, &vals, &nrows, &type, &ncols) != FLOE_OK) {
			bool h;
			Expr *ce = try_corr(b, sl, x, op, &h);
			return h ? ce : fail_at(b, sl->location);
		}
		if (ncols != 1) {
			floe_errorf(b->err, ncols > 1 ? ERRCODE_SYNTAX_ERROR : ERRCODE_SYNTAX_ERROR,
				    ncols > 1 ? "subquery has too many columns" : "subquery has too few columns");
			return fail_at(b, sl->location);
		}
		{
			/* resolve the operator once, on the types, even for no rows */
			Value nv = value_null(type);
			Expr *args[2] = { x, expr_const(b->arena, &nv) };
			Expr *probe = bind_call(b, op, args, 2, sl->location);
			if (!probe)
				return NULL;
			if (probe->type.id != TYPE_BOOL && probe->type.id != TYPE_NULL) {
				floe_errorf(b->err, ERRCODE_DATATYPE_MISMATCH,
					    "op ANY/ALL (array) requires operator to yield boolean");
				return fail_at(b, sl->location);
			}
		}
		if (nrows == 0) {
			memset(&v, 0, sizeof v);
			v.type = type_make(TYPE_BOOL);
			v.u.b = !any;
			return expr_const(b->arena, &v);
		}
		e = expr_new(b->arena, any ? EXPR_OR : EXPR_AND, type_make(TYPE_BOOL), (int)nrows);
		for (i = 0; i < nrows; i++) {
			Expr *args[2] = { x, expr_const(b->arena, &vals[i]) };
			if (!(e->args[i] = bind_call(b, op, args, 2, sl->location)))
				return NULL;
		}
		if (nrows == 1)
			return e->args[0];
		return e;
	}
	case PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK: {
		/* ARRAY(SELECT ...), uncorrelated: run once; floe has no array
		 * type, so the value is the array's text form '{a,b}' (as the
		 * catalog's array columns, docs/catalog.md) */
		char *buf;
		size_t len = 0, cap = 64;
		if (select_run_subquery(b, sl->subselect, -1, &vals, &nrows, &type, &ncols) != FLOE_OK) {
			bool h;
			Expr *ce = try_corr(b, sl, NULL, NULL, &h);
			return h ? ce : fail_at(b, sl->location);
		}
		if (ncols != 1) {
			floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "subquery must return only one column");
			return fail_at(b, sl->location);
		}
		buf = arena_alloc(b->arena, cap);
		buf[len++] = '{';
		for (i = 0; i < nrows; i++) {
			const char *t = array_elem_text(b, &vals[i]);
			size_t tl = strlen(t);
			if (len + tl + 3 > cap) {
				size_t nc = (len + tl + 3) * 2;
				buf = arena_realloc(b->arena, buf, cap, nc);
				cap = nc;
			}
			if (i)
				buf[len++] = ',';
			memcpy(buf + len, t, tl);
			len += tl;
		}
		buf[len++] = '}';
		buf[len] = 0;
		return text_const(b, buf, sl->location);
	}
	default:
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "this kind of subquery is not supported yet");
		return fail_at(b, sl->location);
	}
}

/* ARRAY[e1, ..., en]: the elements' common type (or the element type of
 * an enclosing cast, *target) -> floe_array_build; ARRAY[] needs a cast */
static Expr *
bind_array_expr(BindCtx *b, PgQuery__AArrayExpr *ae, const SqlType *target)
{
	Expr **es = ARENA_ARRAY(b->arena, Expr *, ae->n_elements + 1);
	SqlType et;
	size_t i;

	if (ae->n_elements == 0) {
		Value v;
		if (!target) {
			floe_errorf(b->err, ERRCODE_INDETERMINATE_DATATYPE, "cannot determine type of empty array");
			floe_error_hint(b->err, "Explicitly cast to the desired type, for example ARRAY[]::integer[].");
			return fail_at(b, ae->location);
		}
		memset(&v, 0, sizeof v);
		v.type = *target;
		if (array_encode(b->arena, *target, NULL, 0, &v.u.s, b->err) != FLOE_OK)
			return NULL;
		return expr_const(b->arena, &v);
	}
	for (i = 0; i < ae->n_elements; i++) {
		if (ae->elements[i]->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "multidimensional arrays are not supported");
			return fail_at(b, ae->location);
		}
		if (!(es[i] = bind_expr(b, ae->elements[i])))
			return NULL;
		if (es[i]->type.id == TYPE_ARRAY) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "multidimensional arrays are not supported");
			return fail_at(b, ae->location);
		}
	}
	if (target) {
		/* elements without the length; the cast to *target cuts them */
		et = array_elem_type(*target);
		if (et.id == TYPE_TEXT && et.text_kind == TEXT_CHAR)
			et = type_make(TYPE_TEXT);   /* (char without typmod is char(1)) */
		else if (et.id == TYPE_TEXT)
			et.typmod = -1;
	} else {
		if (bind_common_type(b, es, (int)ae->n_elements, "ARRAY", &et) != FLOE_OK)
			return NULL;
		if (et.id == TYPE_TEXT && et.text_kind == TEXT_CHAR)
			et = type_make(TYPE_TEXT);
		if (et.id == TYPE_TEXT && et.text_kind == TEXT_VARCHAR)
			et = type_varchar(-1);
	}
	if (!array_elem_supported(et)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "arrays of this type are not supported");
		return fail_at(b, ae->location);
	}
	for (i = 0; i < ae->n_elements; i++)
		if (!(es[i] = bind_coerce(b, es[i], et, target ? COERCE_EXPLICIT : COERCE_IMPLICIT, NULL)))
			return NULL;
	{
		const ScalarFunc *fn;
		SqlType ret, *types = ARENA_ARRAY(b->arena, SqlType, ae->n_elements + 1);
		SqlType *cast_to = ARENA_ARRAY(b->arena, SqlType, ae->n_elements + 1);
		Expr *e;
		for (i = 0; i < ae->n_elements; i++)
			types[i] = et;
		/* every element has type et: resolve on one (a constructor is
		 * not a function call, and PostgreSQL puts no limit of function
		 * arguments on its length) */
		if (func_resolve_scalar("floe_array_build", types, 1, &fn, &ret, cast_to, b->err) != FLOE_OK)
			return fail_at(b, ae->location);
		e = expr_new(b->arena, EXPR_FUNC, ret, (int)ae->n_elements);
		e->fn = fn;
		e->location = bind_location(b, ae->location);
		for (i = 0; i < ae->n_elements; i++)
			e->args[i] = es[i];
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
		return e;
	}
}

/* a[i] / a[lo:hi] / a[lo:] / a[:hi] / a[:] of an array value */
static Expr *
bind_subscript(BindCtx *b, Expr *base, PgQuery__AIndirection *ind)
{
	PgQuery__AIndices *ix;
	Expr *args[3];
	int n = 1;

	if (ind->n_indirection != 1) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "multidimensional arrays are not supported");
		return NULL;
	}
	ix = ind->indirection[0]->a_indices;
	args[0] = base;
	if (!ix->is_slice) {
		if (!(args[1] = bind_expr(b, ix->uidx)))
			return NULL;
		return bind_call(b, "floe_array_subscript", args, 2, -1);
	}
	if (ix->lidx && !(args[n++] = bind_expr(b, ix->lidx)))
		return NULL;
	if (ix->uidx && !(args[n++] = bind_expr(b, ix->uidx)))
		return NULL;
	return bind_call(b, ix->lidx && ix->uidx ? "floe_array_slice" : ix->lidx ? "floe_array_slice_lo" :
			 ix->uidx ? "floe_array_slice_hi" : "floe_array_slice_all", args, n, -1);
}

/* GREATEST / LEAST (not function calls: PostgreSQL puts no limit of
 * function arguments on them).  Beyond MINMAX_CHUNK arguments, all are
 * coerced to their common type and reduced in calls of at most
 * MINMAX_CHUNK (NULLs are ignored at every level, so the result is the
 * same), nesting only log(n) deep. */
#define MINMAX_CHUNK 64

static Expr *
bind_min_max(BindCtx *b, const char *name, Expr **args, int n, int location)
{
	SqlType t;
	int i, m;

	if (n <= MINMAX_CHUNK)
		return bind_call(b, name, args, n, location);
	if (bind_common_type(b, args, n, !strcmp(name, "greatest") ? "GREATEST" : "LEAST", &t) != FLOE_OK)
		return fail_at(b, location);
	for (i = 0; i < n; i++)
		if (!(args[i] = bind_coerce(b, args[i], t, COERCE_IMPLICIT, NULL)))
			return NULL;
	while (n > 1) {
		for (i = m = 0; i < n; i += MINMAX_CHUNK, m++) {
			int k = n - i < MINMAX_CHUNK ? n - i : MINMAX_CHUNK;
			if (k == 1)
				args[m] = args[i];
			else if (!(args[m] = bind_call(b, name, args + i, k, location)))
				return NULL;
		}
		n = m;
	}
	return args[0];
}

Expr *
bind_expr(BindCtx *b, Node *n)
{
	if (!n) {
		floe_errorf(b->err, ERRCODE_INTERNAL_ERROR, "missing expression");
		return NULL;
	}
	if (stack_check(b->err) != FLOE_OK || bind_check_cancel(b) != FLOE_OK)
		return NULL;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_A_CONST:
		return bind_const(b, n->a_const);
	case PG_QUERY__NODE__NODE_COLUMN_REF:
		if (b->domain_value && n->column_ref->n_fields == 1 &&
		    n->column_ref->fields[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
		    !strcmp(n->column_ref->fields[0]->string->sval, "value"))
			return b->domain_value;     /* a domain CHECK's VALUE (bind_domain_cast) */
		return bind_column_ref(b, n->column_ref);
	case PG_QUERY__NODE__NODE_A_EXPR:
		return bind_a_expr(b, n->a_expr);
	case PG_QUERY__NODE__NODE_BOOL_EXPR:
		return bind_bool_expr(b, n->bool_expr);
	case PG_QUERY__NODE__NODE_NULL_TEST: {
		Expr *a, *e;
		if (n->null_test->arg && n->null_test->arg->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
			/* ROW IS [NOT] NULL: every field is [not] null */
			PgQuery__RowExpr *row = n->null_test->arg->row_expr;
			Expr *acc = NULL;
			size_t i;
			for (i = 0; i < row->n_args; i++) {
				Expr *f = bind_expr(b, row->args[i]), *t;
				if (!f)
					return NULL;
				t = expr_new(b->arena, n->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL ?
					     EXPR_IS_NULL : EXPR_IS_NOT_NULL, type_make(TYPE_BOOL), 1);
				t->args[0] = f;
				acc = acc ? bind_bool2(b, EXPR_AND, acc, t) : t;
			}
			if (!acc) {
				Value v;
				memset(&v, 0, sizeof v);
				v.type = type_make(TYPE_BOOL);
				v.u.b = true;
				return expr_const(b->arena, &v);
			}
			if (bind_fold(b, &acc) != FLOE_OK)
				return NULL;
			return acc;
		}
		a = bind_expr(b, n->null_test->arg);
		if (!a)
			return NULL;
		e = expr_new(b->arena, n->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL ?
			     EXPR_IS_NULL : EXPR_IS_NOT_NULL, type_make(TYPE_BOOL), 1);
		e->args[0] = a;
		e->location = bind_location(b, n->null_test->location);
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
		return e;
	}
	case PG_QUERY__NODE__NODE_BOOLEAN_TEST: {
		PgQuery__BooleanTest *t = n->boolean_test;
		Expr *a = bind_coerce_bool(b, bind_expr(b, t->arg), "IS TRUE"), *e;
		ExprKind k;
		if (!a)
			return NULL;
		switch (t->booltesttype) {
		case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE: k = EXPR_IS_TRUE; break;
		case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE: k = EXPR_IS_NOT_TRUE; break;
		case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE: k = EXPR_IS_FALSE; break;
		case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE: k = EXPR_IS_NOT_FALSE; break;
		case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN: k = EXPR_IS_NULL; break;
		default: k = EXPR_IS_NOT_NULL; break;
		}
		e = expr_new(b->arena, k, type_make(TYPE_BOOL), 1);
		e->args[0] = a;
		if (bind_fold(b, &e) != FLOE_OK)
			return NULL;
		return e;
	}
	case PG_QUERY__NODE__NODE_TYPE_CAST: {
		SqlType t;
		Expr *a, *e;
		bool handled;
		PgQuery__TypeName *tn = n->type_cast->type_name;
		Node *inner = n->type_cast->arg;
		e = bind_reg_cast(b, n->type_cast, &handled);
		if (handled)
			return e;
		if (inner->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR) {
			/* ARRAY[...]::t[]: the elements are cast to t (ARRAY[]::int[]) */
			if (bind_type_name(b, tn, &t) != FLOE_OK)
				return NULL;
			if (t.id == TYPE_ARRAY) {
				if (!(a = bind_array_expr(b, inner->a_array_expr, &t)))
					return NULL;
				return bind_coerce(b, a, t, COERCE_EXPLICIT, NULL);
			}
		}
		if (inner->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && tn->n_names >= 1 &&
		    !strcmp(str_of(tn->names[tn->n_names - 1]) ? str_of(tn->names[tn->n_names - 1]) : "", "text")) {
			/* x::regtype::text is format_type(x, NULL) */
			PgQuery__TypeName *itn = inner->type_cast->type_name;
			const char *iname = str_of(itn->names[itn->n_names - 1]);
			if (iname && !strcmp(iname, "regtype")) {
				Expr *fa[2];
				Value nv = value_null(type_make(TYPE_INT32));
				if (!(fa[0] = bind_expr(b, inner)))
					return NULL;
				fa[1] = expr_const(b->arena, &nv);
				return bind_call(b, "format_type", fa, 2, n->type_cast->location);
			}
		}
		if (!(a = bind_expr(b, inner)))
			return NULL;
		if (bind_type_name(b, n->type_cast->type_name, &t) != FLOE_OK)
			return NULL;
		if (t.id == TYPE_DECIMAL && t.precision == 0 && !a->unknown_literal)
			t = cast_unconstrained_numeric(a->type);   /* keeps each value's scale */
		e = bind_coerce(b, a, t, COERCE_EXPLICIT, NULL);
		if (!e)
			return fail_at(b, n->type_cast->location);
		if (e->kind == EXPR_CONST)
			e->unknown_literal = false;
		if (type_is_domain(t))
			return bind_domain_cast(b, e, t);
		return e;
	}
	case PG_QUERY__NODE__NODE_A_INDIRECTION: {
		/* arr[i], arr[lo:hi] on arrays (func_array.c); the arrays of
		 * pg_catalog (current_schemas(), ...) are their text form '{a,b}' */
		PgQuery__AIndirection *ind = n->a_indirection;
		Expr *args[3], *base = NULL;
		if (ind->n_indirection >= 1 &&
		    ind->indirection[0]->node_case == PG_QUERY__NODE__NODE_A_INDICES) {
			if (!(base = bind_expr(b, ind->arg)))
				return NULL;
			if (base->type.id == TYPE_ARRAY)
				return bind_subscript(b, base, ind);
		}
		if (ind->n_indirection == 1 &&
		    ind->indirection[0]->node_case == PG_QUERY__NODE__NODE_STRING) {
			/* (r).x / (r).n of _pg_expandarray's records: r[1] / r[2]
			 * (array.h ARRAY_RECORD, select.c) */
			const char *fld = str_of(ind->indirection[0]);
			Value k;
			if (!(base = bind_expr(b, ind->arg)))
				return NULL;
			if (base->type.id == TYPE_ARRAY && base->type.vector == ARRAY_RECORD && fld &&
			    (!strcmp(fld, "x") || !strcmp(fld, "n"))) {
				Expr *r;
				k = value_int(TYPE_INT32, fld[0] == 'x' ? 1 : 2);
				args[0] = base;
				args[1] = expr_const(b->arena, &k);
				r = bind_call(b, "floe_array_subscript", args, 2, -1);
				return r && fld[0] == 'n' ? bind_coerce(b, r, type_make(TYPE_INT32), 0, NULL) : r;
			}
		}
		if (ind->n_indirection != 1 ||
		    ind->indirection[0]->node_case != PG_QUERY__NODE__NODE_A_INDICES ||
		    ind->indirection[0]->a_indices->is_slice) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "field selection and array slices are not supported yet");
			return NULL;
		}
		if (!(args[0] = base) ||
		    !(args[1] = bind_expr(b, ind->indirection[0]->a_indices->uidx)))
			return NULL;
		if (args[0]->type.id != TYPE_TEXT && !args[0]->unknown_literal) {
			floe_errorf(b->err, ERRCODE_DATATYPE_MISMATCH,
				    "cannot subscript type %s because it does not support subscripting",
				    tname(args[0]->type, (char[64]){ 0 }, 64));
			return NULL;
		}
		return bind_call(b, "floe_array_element", args, 2, -1);
	}
	case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: {
		/* COLLATE "default" / "C" / "POSIX" / pg_catalog.default: floe
		 * compares bytewise (locale C), so these change nothing */
		PgQuery__CollateClause *cc = n->collate_clause;
		const char *cn = cc->n_collname ? str_of(cc->collname[cc->n_collname - 1]) : NULL;
		if (!cn || (strcmp(cn, "default") && strcmp(cn, "C") && strcmp(cn, "POSIX") &&
			    strcmp(cn, "ucs_basic"))) {
			floe_errorf(b->err, ERRCODE_UNDEFINED_OBJECT,
				    "collation \"%s\" for encoding \"UTF8\" does not exist", cn ? cn : "");
			return fail_at(b, cc->location);
		}
		return bind_expr(b, cc->arg);
	}
	case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
		return bind_array_expr(b, n->a_array_expr, NULL);
	case PG_QUERY__NODE__NODE_CASE_EXPR:
		return bind_case(b, n->case_expr);
	case PG_QUERY__NODE__NODE_COALESCE_EXPR:
		return bind_coalesce(b, n->coalesce_expr);
	case PG_QUERY__NODE__NODE_FUNC_CALL:
		return bind_func_call(b, n->func_call);
	case PG_QUERY__NODE__NODE_SUB_LINK:
		return bind_sublink(b, n->sub_link);
	case PG_QUERY__NODE__NODE_PARAM_REF:
		return bind_param(b, n->param_ref);
	case PG_QUERY__NODE__NODE_GROUPING_FUNC:
		return select_grouping_func(b, n->grouping_func);
	case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: {
		PgQuery__MinMaxExpr *m = n->min_max_expr;
		Expr **args = ARENA_ARRAY(b->arena, Expr *, m->n_args + 1);
		size_t i;
		for (i = 0; i < m->n_args; i++)
			if (!(args[i] = bind_expr(b, m->args[i])))
				return NULL;
		return bind_min_max(b, m->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest" : "least",
				    args, (int)m->n_args, m->location);
	}
	case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: {
		PgQuery__SQLValueFunction *v = n->sqlvalue_function;
		const char *fname = NULL;
		switch (v->op) {
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE: fname = "current_date"; break;
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP: fname = "now"; break;
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP: fname = "localtimestamp"; break;
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME: fname = "localtime"; break;
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE:
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER:
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER:
			return text_const(b, pgcatalog_user(b->session), v->location);
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG:
			return text_const(b, pgcatalog_database(b->session), v->location);
		case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA: {
			Value sv;
			memset(&sv, 0, sizeof sv);
			sv.type = type_make(TYPE_TEXT);
			if (!session_schema(b->session)[0])
				return text_const(b, NULL, v->location);
			sv.u.s = strview_make(session_schema(b->session), (uint32_t)strlen(session_schema(b->session)));
			return expr_const(b->arena, &sv);
		}
		default: break;
		}
		if (!fname) {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "CURRENT_TIME with a time zone, precision arguments and user functions are not supported yet");
			return fail_at(b, v->location);
		}
		return bind_call(b, fname, NULL, 0, v->location);
	}
	case PG_QUERY__NODE__NODE_ROW_EXPR:
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "row values are supported only in comparisons, IN and IS [NOT] NULL");
		return fail_at(b, n->row_expr->location);
	default: {
		/* name the construct (protobuf-c's node name), not its number */
		const ProtobufCFieldDescriptor *fd =
			protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor,
								(unsigned)n->node_case);
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s expressions are not supported yet",
			    fd ? fd->name : "this kind of");
		return NULL;
	}
	}
}
