/*
 * domain.c — CREATE DOMAIN and ALTER DOMAIN (usertype.h).  Spec: PostgreSQL
 * 15 CREATE DOMAIN, ALTER DOMAIN; messages as commands/typecmds.c's.
 *
 * A domain is its base type plus NOT NULL, a DEFAULT (used by a column of
 * the domain that has none of its own: insert.c bind_default_expr) and
 * CHECK constraints over VALUE, enforced where a table's CHECKs are (every
 * write path: check.c check_constraints_bind) and by a cast to the domain
 * (bind_expr.c).  Constraint names: "<domain>_check", then _check1, ... as
 * ChooseConstraintName; a NOT NULL constraint is no named constraint in
 * PostgreSQL 15 (typnotnull), so its name is kept only for ALTER DOMAIN's
 * sake.
 *
 * ADD CONSTRAINT CHECK (unless NOT VALID) and SET NOT NULL read the rows
 * of every column using the domain first (rowscan.h): 23514 / 23502 as
 * PostgreSQL's validateDomainConstraint.
 *
 * Not yet (0A000 naming them): a base type that is an enum, a domain or an
 * array; COLLATE; VALIDATE CONSTRAINT, RENAME, OWNER, SET SCHEMA.
 */
#include <stdio.h>
#include <string.h>
#include "ingest/ingest.h"
#include "sql/rowscan.h"
#include "sql/txn.h"
#include "sql/usertype.h"

static int
refuse(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", what);
}

static const char *
free_check_name(const Udt *u, Arena *a)
{
	const char *base = arena_sprintf(a, "%s_check", u->name);
	const char *nm = base;
	int k, i;

	for (k = 1;; k++) {
		bool taken = false;
		for (i = 0; i < u->nchecks; i++)
			if (!strcmp(u->check_names[i], nm))
				taken = true;
		if (!taken)
			return nm;
		nm = arena_sprintf(a, "%s%d", base, k);
	}
}

/* One constraint of CREATE DOMAIN or ALTER DOMAIN ADD. */
static int
add_constraint(Session *s, ExecCtx *ctx, const char *sql, Udt *u, PgQuery__Constraint *c,
	       bool *saw_null, bool *saw_notnull, bool alter)
{
	Arena *a = ctx->arena;
	char *text;
	int i;

	switch (c->contype) {
	case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
	case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL: {
		bool nn = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL;
		if ((nn && *saw_null) || (!nn && *saw_notnull))
			return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
					   "conflicting NULL/NOT NULL constraints");
		*(nn ? saw_notnull : saw_null) = true;
		u->notnull = nn;
		if (nn && c->conname && c->conname[0])
			u->notnull_name = c->conname;
		return FLOE_OK;
	}
	case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
		if (c->is_no_inherit)
			return floe_errorf(ctx->err, ERRCODE_INVALID_OBJECT_DEFINITION,
					   "check constraints for domains cannot be marked NO INHERIT");
		TRY(domain_check_text(s, sql, u->base, c->raw_expr, a, &text, ctx->err));
		if (c->conname && c->conname[0]) {
			for (i = 0; i < u->nchecks; i++)
				if (!strcmp(u->check_names[i], c->conname))
					return floe_errorf(ctx->err, ERRCODE_DUPLICATE_OBJECT,
							   "constraint \"%s\" for domain \"%s\" already exists",
							   c->conname, u->name);
		}
		u->check_names[u->nchecks] = c->conname && c->conname[0] ? c->conname :
					     free_check_name(u, a);
		u->check_exprs[u->nchecks] = text;
		u->check_valid[u->nchecks] = !(alter && c->skip_validation);
		u->nchecks++;
		return FLOE_OK;
	case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE:
		return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR, "unique constraints not possible for domains");
	case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
		return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
				   "primary key constraints not possible for domains");
	case PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION:
		return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
				   "exclusion constraints not possible for domains");
	case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN:
		return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
				   "foreign key constraints not possible for domains");
	case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
	case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
	case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
	case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE:
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "specifying constraint deferrability not supported for domains");
	default:
		return refuse(ctx->err, "this domain constraint");
	}
}

static int
default_text(Session *s, ExecCtx *ctx, const char *sql, Udt *u, Node *raw)
{
	BindCtx b;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = ctx->err;
	b.exec = ctx;
	b.sql = sql;
	b.where = "DEFAULT expressions";
	u->default_sql = ddl_default_text(&b, raw, u->base, u->name, NULL);
	return u->default_sql ? FLOE_OK : FLOE_ERR;
}

int
usertype_create_domain(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CreateDomainStmt *cs,
		       ResultSink *sink)
{
	Udt u;
	BindCtx b;
	bool saw_null = false, saw_nn = false, saw_default = false;
	size_t i;

	TRY(usertype_new(s, ctx, cs->domainname, cs->n_domainname, &u));
	if (cs->coll_clause)
		return refuse(ctx->err, "CREATE DOMAIN ... COLLATE");
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = ctx->err;
	b.exec = ctx;
	b.sql = sql;
	TRY(bind_type_name(&b, cs->type_name, &u.base));
	if (u.base.id == TYPE_ARRAY)
		return refuse(ctx->err, "a domain over an array");
	u.kind = 'd';
	u.check_names = ARENA_ARRAY(ctx->arena, const char *, cs->n_constraints + 1);
	u.check_exprs = ARENA_ARRAY(ctx->arena, const char *, cs->n_constraints + 1);
	u.check_valid = ARENA_ARRAY(ctx->arena, bool, cs->n_constraints + 1);
	for (i = 0; i < cs->n_constraints; i++) {
		PgQuery__Constraint *c = cs->constraints[i]->constraint;
		if (cs->constraints[i]->node_case != PG_QUERY__NODE__NODE_CONSTRAINT)
			return refuse(ctx->err, "this domain constraint");
		if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT) {
			if (saw_default)
				return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR, "multiple default expressions");
			saw_default = true;
			TRY(default_text(s, ctx, sql, &u, c->raw_expr));
			continue;
		}
		TRY(add_constraint(s, ctx, sql, &u, c, &saw_null, &saw_nn, false));
	}
	TRY(usertype_store(s, &u, false, ctx->err));
	return engine_complete(sink, "CREATE DOMAIN");
}

/* The rows of every column using the domain satisfy the new NOT NULL
 * (check NULL) or CHECK check (PostgreSQL's validateDomainConstraint). */
static int
validate(Session *s, ExecCtx *ctx, const Udt *u, const char *check)
{
	UtUse *use;
	int n, i;

	TRY(usertype_uses(s, ctx->arena, u->oid, &use, &n, ctx->err));
	for (i = 0; i < n; i++) {
		bool found;
		const char *tail;
		Table *t;
		if (check) {
			char *e;
			TRY(domain_check_on_column(check, use[i].col, ctx->arena, &e, ctx->err));
			tail = arena_sprintf(ctx->arena, "WHERE NOT (%s)", e);
		} else {
			tail = arena_sprintf(ctx->arena, "WHERE %s IS NULL", rowscan_qident(ctx->arena, use[i].col));
		}
		/* the insert buffer's rows of the table first (as ALTER TABLE) */
		TRY(ingest_before_pin(s, use[i].t->ns, use[i].t->name, ctx->err));
		TRY(txn_table_load(s, use[i].t->ns, use[i].t->name, ctx->arena, &t, ctx->err));
		TRY(rowscan_first(s, t, "1", tail, ctx->arena, NULL, &found, ctx->err));
		if (found && check)
			return floe_errorf(ctx->err, ERRCODE_CHECK_VIOLATION,
					   "column \"%s\" of table \"%s\" contains values that violate the new constraint",
					   use[i].col, use[i].table);
		if (found)
			return floe_errorf(ctx->err, ERRCODE_NOT_NULL_VIOLATION,
					   "column \"%s\" of table \"%s\" contains null values", use[i].col,
					   use[i].table);
	}
	return FLOE_OK;
}

int
usertype_alter_domain(Session *s, ExecCtx *ctx, const char *sql, PgQuery__AlterDomainStmt *as,
		      ResultSink *sink)
{
	const Udt *old;
	Udt u;
	bool saw_null = false, saw_nn = false;
	int i;

	TRY(usertype_find(s, ctx, as->type_name, as->n_type_name, &old));
	if (old->kind != 'd')
		return floe_errorf(ctx->err, ERRCODE_WRONG_OBJECT_TYPE, "%s is not a domain", old->name);
	u = usertype_copy(old, ctx->arena, 1);
	switch (as->subtype[0]) {
	case 'T':   /* SET DEFAULT / DROP DEFAULT */
		u.default_sql = NULL;
		if (as->def)
			TRY(default_text(s, ctx, sql, &u, as->def));
		break;
	case 'N':   /* DROP NOT NULL */
		u.notnull = false;
		break;
	case 'O':   /* SET NOT NULL */
		if (!old->notnull)
			TRY(validate(s, ctx, old, NULL));
		u.notnull = true;
		break;
	case 'C': { /* ADD CONSTRAINT */
		PgQuery__Constraint *c = as->def && as->def->node_case == PG_QUERY__NODE__NODE_CONSTRAINT ?
					 as->def->constraint : NULL;
		if (!c)
			return refuse(ctx->err, "this ALTER DOMAIN");
		if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL ||
		    c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_NULL)
			return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR,
					   "use ALTER DOMAIN ... SET NOT NULL instead");
		TRY(add_constraint(s, ctx, sql, &u, c, &saw_null, &saw_nn, true));
		if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK && !c->skip_validation)
			TRY(validate(s, ctx, old, u.check_exprs[u.nchecks - 1]));
		break;
	}
	case 'X': { /* DROP CONSTRAINT [IF EXISTS] name */
		int at = -1;
		for (i = 0; i < u.nchecks; i++)
			if (!strcmp(u.check_names[i], as->name))
				at = i;
		if (at < 0) {
			if (as->missing_ok) {
				engine_notice(sink, "%s", arena_sprintf(ctx->arena,
					      "constraint \"%s\" of domain \"%s\" does not exist, skipping",
					      as->name, u.name));
				return engine_complete(sink, "ALTER DOMAIN");
			}
			return floe_errorf(ctx->err, ERRCODE_UNDEFINED_OBJECT,
					   "constraint \"%s\" of domain \"%s\" does not exist", as->name, u.name);
		}
		for (i = at; i + 1 < u.nchecks; i++) {
			u.check_names[i] = u.check_names[i + 1];
			u.check_exprs[i] = u.check_exprs[i + 1];
			u.check_valid[i] = u.check_valid[i + 1];
		}
		u.nchecks--;
		break;
	}
	case 'V':
		return refuse(ctx->err, "ALTER DOMAIN ... VALIDATE CONSTRAINT");
	default:
		return refuse(ctx->err, "this ALTER DOMAIN");
	}
	TRY(usertype_store(s, &u, true, ctx->err));
	return engine_complete(sink, "ALTER DOMAIN");
}
