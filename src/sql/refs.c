/*
 * refs.c — branches and tags: Spark's ALTER TABLE ... CREATE / REPLACE /
 * DROP BRANCH | TAG and CALL fast_forward (see refs.h for the grammar).
 *
 * Spec: apache/iceberg format/spec.md "Snapshot References": a ref is a
 * named snapshot, a branch (min-snapshots-to-keep, max-snapshot-age-ms,
 * max-ref-age-ms) or a tag (max-ref-age-ms); names are unique across both;
 * "main" is the branch of current-snapshot-id.  Semantics follow Iceberg
 * Java's ManageSnapshots as Spark's DDL calls it:
 *   - CREATE without OR REPLACE of an existing name: 42710 (IF NOT EXISTS:
 *     a NOTICE, no change); REPLACE of a missing one: 42704; REPLACE of a
 *     branch as a tag or the reverse: 42809.
 *   - AS OF VERSION n: snapshot n (22023 if the table has none such);
 *     default the current snapshot (a table without one: 0A000).
 *   - RETAIN n unit -> max-ref-age-ms; WITH SNAPSHOT RETENTION n SNAPSHOTS
 *     -> min-snapshots-to-keep, n unit -> max-snapshot-age-ms (branches
 *     only); REPLACE keeps the settings it is not given.
 *   - Moving main (REPLACE BRANCH main, fast_forward of main) moves
 *     current-snapshot-id with it and logs the change in snapshot-log;
 *     DROP BRANCH main is 22023.
 * One metadata commit each (txn_commit_metadata: a transaction block sees
 * it and commits it with the rest).  Expiry keeps what refs reach
 * (table/expire.c).
 *
 * Spark's ALTER TABLE t WRITE ... and writes to branches (INSERT INTO
 * t.branch_b) are not here yet.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "exec/expr.h"
#include "sql/refs.h"
#include "sql/txn.h"
#include "types/datetime.h"

bool
refs_is_cmd(PgQuery__AlterTableCmd *c)
{
	PgQuery__List *l = c->def && c->def->node_case == PG_QUERY__NODE__NODE_LIST ?
		c->def->list : NULL;

	return c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions && l &&
	       l->n_items == 1 && l->items[0]->node_case == PG_QUERY__NODE__NODE_DEF_ELEM &&
	       !strcmp(l->items[0]->def_elem->defname, "f$r");
}

/* ---- the clause's tokens --------------------------------------------------- */

typedef struct Lex {
	const char *p, *end;
	Arena *a;
	char tok[256];            /* the current token: a word lowercased, a
				     quoted name unquoted, a number */
	char kind;                /* 'w' word, 'q' quoted name, 'n' number,
				     'c' other, 0 end */
} Lex;

static void
lex_next(Lex *l)
{
	size_t n = 0;

	while (l->p < l->end && isspace((unsigned char)*l->p))
		l->p++;
	if (l->p >= l->end) {
		l->kind = 0;
		l->tok[0] = 0;
		return;
	}
	if (*l->p == '"' || *l->p == '`') {
		char q = *l->p++;
		while (l->p < l->end && n + 1 < sizeof l->tok) {
			if (*l->p == q) {
				if (l->p + 1 < l->end && l->p[1] == q) {
					l->tok[n++] = q;
					l->p += 2;
					continue;
				}
				l->p++;
				break;
			}
			l->tok[n++] = *l->p++;
		}
		l->kind = 'q';
	} else if (isdigit((unsigned char)*l->p) || (*l->p == '-' && l->p + 1 < l->end &&
						     isdigit((unsigned char)l->p[1]))) {
		l->tok[n++] = *l->p++;
		while (l->p < l->end && isdigit((unsigned char)*l->p) && n + 1 < sizeof l->tok)
			l->tok[n++] = *l->p++;
		l->kind = 'n';
	} else if (isalpha((unsigned char)*l->p) || *l->p == '_' || (unsigned char)*l->p >= 0x80) {
		while (l->p < l->end && (isalnum((unsigned char)*l->p) || *l->p == '_' ||
					 *l->p == '$' || (unsigned char)*l->p >= 0x80) &&
		       n + 1 < sizeof l->tok)
			l->tok[n++] = (char)tolower((unsigned char)*l->p++);
		l->kind = 'w';
	} else {
		l->tok[n++] = *l->p++;
		l->kind = 'c';
	}
	l->tok[n] = 0;
}

static bool
lex_is(Lex *l, const char *kw)
{
	return l->kind == 'w' && !strcmp(l->tok, kw);
}

static bool
lex_accept(Lex *l, const char *kw)
{
	if (!lex_is(l, kw))
		return false;
	lex_next(l);
	return true;
}

static int
syntax(Lex *l, floe_error *err)
{
	return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "syntax error at or near \"%s\"",
			   l->kind ? l->tok : "end of input");
}

static int
lex_expect(Lex *l, const char *kw, floe_error *err)
{
	if (!lex_accept(l, kw))
		return syntax(l, err);
	return FLOE_OK;
}

static int
lex_number(Lex *l, int64_t *v, floe_error *err)
{
	char *e;

	if (l->kind != 'n')
		return syntax(l, err);
	errno = 0;
	*v = strtoll(l->tok, &e, 10);
	if (errno || *e)
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value \"%s\" is out of range",
				   l->tok);
	lex_next(l);
	return FLOE_OK;
}

/* n DAYS | HOURS | MINUTES -> ms */
static int
lex_duration(Lex *l, int64_t *ms, floe_error *err)
{
	int64_t n, unit;

	TRY(lex_number(l, &n, err));
	if (lex_accept(l, "days"))
		unit = 86400000;
	else if (lex_accept(l, "hours"))
		unit = 3600000;
	else if (lex_accept(l, "minutes"))
		unit = 60000;
	else
		return syntax(l, err);
	if (n < 0 || n > INT64_MAX / unit)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "retention must be between 0 and %" PRId64 " of that unit", INT64_MAX / unit);
	*ms = n * unit;
	return FLOE_OK;
}

/* ---- the statement ---------------------------------------------------------- */

typedef struct RefCmd {
	char verb;                 /* 'c' create, 'r' replace, 'd' drop */
	bool or_replace, if_not_exists, if_exists, tag;
	const char *name;
	bool has_version;
	int64_t version;
	bool has_retain, has_min_snaps, has_max_age;
	int64_t retain_ms, min_snaps, max_age_ms;
} RefCmd;

static int
parse_cmd(const char *clause, int len, Arena *a, RefCmd *c, floe_error *err)
{
	Lex l = { clause, clause + len, a, { 0 }, 0 };

	memset(c, 0, sizeof *c);
	lex_next(&l);
	if (lex_accept(&l, "create")) {
		c->verb = 'c';
		if (lex_accept(&l, "or")) {
			TRY(lex_expect(&l, "replace", err));
			c->or_replace = true;
		}
	} else if (lex_accept(&l, "replace")) {
		c->verb = 'r';
	} else {
		TRY(lex_expect(&l, "drop", err));
		c->verb = 'd';
	}
	if (lex_accept(&l, "tag"))
		c->tag = true;
	else
		TRY(lex_expect(&l, "branch", err));
	if (c->verb == 'c' && lex_accept(&l, "if")) {
		TRY(lex_expect(&l, "not", err));
		TRY(lex_expect(&l, "exists", err));
		c->if_not_exists = true;
	} else if (c->verb == 'd' && lex_accept(&l, "if")) {
		TRY(lex_expect(&l, "exists", err));
		c->if_exists = true;
	}
	if (l.kind != 'w' && l.kind != 'q')
		return syntax(&l, err);
	if (!l.tok[0])
		return floe_errorf(err, ERRCODE_INVALID_NAME, "a branch or tag name must not be empty");
	c->name = arena_strdup(a, l.tok);
	lex_next(&l);
	if (c->or_replace && c->if_not_exists)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "OR REPLACE and IF NOT EXISTS cannot be used together");
	if (c->verb != 'd') {
		if (lex_accept(&l, "as")) {
			TRY(lex_expect(&l, "of", err));
			TRY(lex_expect(&l, "version", err));
			TRY(lex_number(&l, &c->version, err));
			c->has_version = true;
		}
		if (lex_accept(&l, "retain")) {
			TRY(lex_duration(&l, &c->retain_ms, err));
			c->has_retain = true;
		}
		if (lex_is(&l, "with")) {
			if (c->tag)
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "a tag has no snapshot retention (WITH SNAPSHOT RETENTION is for branches)");
			lex_next(&l);
			TRY(lex_expect(&l, "snapshot", err));
			TRY(lex_expect(&l, "retention", err));
			if (l.kind == 'n') {
				Lex peek = l;
				int64_t n;
				TRY(lex_number(&peek, &n, err));
				if (lex_is(&peek, "snapshots")) {
					lex_next(&peek);
					if (n < 1 || n > INT32_MAX)
						return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
								   "the number of snapshots to keep must be at least 1");
					c->has_min_snaps = true;
					c->min_snaps = n;
					l = peek;
				}
			}
			if (l.kind == 'n') {
				TRY(lex_duration(&l, &c->max_age_ms, err));
				c->has_max_age = true;
			}
			if (!c->has_min_snaps && !c->has_max_age)
				return syntax(&l, err);
		}
	}
	if (l.kind == 'c' && l.tok[0] == ';')
		lex_next(&l);
	if (l.kind)
		return syntax(&l, err);
	return FLOE_OK;
}

/* md's ref named name, or -1 */
static int
ref_index(const TableMetadata *md, const char *name)
{
	int i;

	for (i = 0; i < md->nrefs; i++)
		if (!strcmp(md->refs[i].name, name))
			return i;
	return -1;
}

/* main moves to snapshot id: current-snapshot-id and a snapshot-log entry
 * (now, never before the last entry or last-updated-ms) */
void
refs_move_main(TableMetadata *md, int64_t id, Arena *a)
{
	int64_t now = datetime_now() / 1000;
	SnapshotLogEntry *log;
	int k;

	if (md->has_current_snapshot && md->current_snapshot_id == id)
		return;
	md->has_current_snapshot = true;
	md->current_snapshot_id = id;
	if (now < md->last_updated_ms)
		now = md->last_updated_ms;
	for (k = 0; k < md->nsnapshot_log; k++)
		if (now < md->snapshot_log[k].timestamp_ms)
			now = md->snapshot_log[k].timestamp_ms;
	log = ARENA_ARRAY(a, SnapshotLogEntry, md->nsnapshot_log + 1);
	if (md->nsnapshot_log)
		memcpy(log, md->snapshot_log, sizeof *log * (size_t)md->nsnapshot_log);
	log[md->nsnapshot_log].timestamp_ms = now;
	log[md->nsnapshot_log].snapshot_id = id;
	md->snapshot_log = log;
	md->nsnapshot_log++;
}

/* A writable copy of md's refs with room for one more. */
static void
own_refs(TableMetadata *md, Arena *a)
{
	SnapshotRef *r = ARENA_ARRAY(a, SnapshotRef, md->nrefs + 1);

	if (md->nrefs)
		memcpy(r, md->refs, sizeof *r * (size_t)md->nrefs);
	md->refs = r;
}

static int
apply(const RefCmd *c, TableMetadata *md, const char *table, Arena *a, bool *changed,
      ResultSink *sink, floe_error *err)
{
	const char *what = c->tag ? "tag" : "branch";
	int k = ref_index(md, c->name);
	bool main_ref = !strcmp(c->name, "main");
	int64_t id;
	SnapshotRef *r;

	*changed = false;
	if (c->verb == 'd') {
		if (k < 0) {
			if (c->if_exists) {
				engine_notice(sink, "ref \"%s\" does not exist, skipping", c->name);
				return FLOE_OK;
			}
			return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "%s \"%s\" of table \"%s\" does not exist",
					   what, c->name, table);
		}
		if (strcmp(md->refs[k].type ? md->refs[k].type : "branch", what))
			return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a %s, not a %s",
					   c->name, md->refs[k].type, what);
		if (main_ref)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "the main branch cannot be dropped");
		own_refs(md, a);
		memmove(&md->refs[k], &md->refs[k + 1], sizeof *md->refs * (size_t)(md->nrefs - k - 1));
		md->nrefs--;
		*changed = true;
		return FLOE_OK;
	}
	if (k >= 0 && c->verb == 'c' && !c->or_replace) {
		if (c->if_not_exists) {
			engine_notice(sink, "ref \"%s\" already exists, skipping", c->name);
			return FLOE_OK;
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT, "ref \"%s\" of table \"%s\" already exists",
				   c->name, table);
	}
	if (k < 0 && c->verb == 'r')
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "%s \"%s\" of table \"%s\" does not exist",
				   what, c->name, table);
	if (k >= 0 && strcmp(md->refs[k].type ? md->refs[k].type : "branch", what))
		return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a %s, not a %s", c->name,
				   md->refs[k].type, what);
	if (main_ref && c->tag)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "\"main\" is the main branch");
	if (c->has_version) {
		if (!metadata_snapshot_by_id(md, c->version))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "snapshot %" PRId64 " of table \"%s\" does not exist", c->version,
					   table);
		id = c->version;
	} else if (md->has_current_snapshot) {
		id = md->current_snapshot_id;
	} else {
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "table \"%s\" has no snapshot yet: a %s needs one", table, what);
	}
	own_refs(md, a);
	if (k < 0) {
		k = md->nrefs++;
		r = &md->refs[k];
		memset(r, 0, sizeof *r);
		r->name = arena_strdup(a, c->name);
		r->type = c->tag ? "tag" : "branch";
	}
	r = &md->refs[k];
	r->snapshot_id = id;
	if (c->has_retain) {
		r->has_max_ref_age_ms = true;
		r->max_ref_age_ms = c->retain_ms;
	}
	if (c->has_min_snaps) {
		r->has_min_snapshots_to_keep = true;
		r->min_snapshots_to_keep = (int32_t)c->min_snaps;
	}
	if (c->has_max_age) {
		r->has_max_snapshot_age_ms = true;
		r->max_snapshot_age_ms = c->max_age_ms;
	}
	if (main_ref)
		refs_move_main(md, id, a);
	*changed = true;
	return FLOE_OK;
}

int
refs_alter(Session *s, ExecCtx *ctx, const char *sql, PgQuery__AlterTableStmt *as,
	   ResultSink *sink)
{
	const char *ns = ddl_rv_ns(s, as->relation), *name = as->relation->relname, *clause;
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	TableMetadata *md;
	Table *t, *out;
	bool changed;
	RefCmd c;
	int len;

	if (as->n_cmds != 1 || !sql_ref_clause(sql, as->relation->location, &clause, &len))
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "syntax error in ALTER TABLE ... BRANCH | TAG");
	TRY(parse_cmd(clause, len, a, &c, err));
	if (txn_table_load(s, ns, name, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE)) {
			if (as->missing_ok) {
				floe_error_clear(err);
				engine_notice(sink, "relation \"%s\" does not exist, skipping", name);
				return engine_complete(sink, "ALTER TABLE");
			}
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
		}
		return FLOE_ERR;
	}
	md = metadata_copy(t->md, a);
	TRY(apply(&c, md, name, a, &changed, sink, err));
	if (changed)
		TRY(txn_commit_metadata(s, t, md, a, &out, err));
	return engine_complete(sink, "ALTER TABLE");
}

/* ---- CALL fast_forward(table, branch, to) ------------------------------------ */

bool
refs_is_ancestor(const TableMetadata *md, int64_t of, int64_t id)
{
	const Snapshot *sn = metadata_snapshot_by_id(md, of);
	int guard = 0;

	for (; sn && guard++ <= md->nsnapshots;
	     sn = sn->has_parent ? metadata_snapshot_by_id(md, sn->parent_snapshot_id) : NULL)
		if (sn->snapshot_id == id)
			return true;
	return false;
}

static int
call_fast_forward(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f, ResultSink *sink)
{
	static const char *const argn[3] = { "table", "branch", "to" };
	static const char *const cols[3] = { "branch_updated", "previous_ref", "updated_ref" };
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	char *args[3] = { NULL, NULL, NULL };
	const char *ns = NULL, *tbl;
	SqlType types[3];
	TableMetadata *md;
	Table *t, *out;
	int64_t from, to;
	int kb, kt, k;
	BindCtx b;
	Batch *bt;
	Value v[3];
	size_t i;
	char *dot;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	b.sql = sql;
	b.where = "CALL";
	b.exec = ctx;             /* uncorrelated subqueries run once, here */
	for (i = 0; i < f->n_args; i++) {
		Node *n = f->args[i];
		int slot = (int)i;
		Expr *x;
		Value val;
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			for (slot = -1, k = 0; k < 3; k++)
				if (!strcmp(n->named_arg_expr->name, argn[k]))
					slot = k;
			if (slot < 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
						   "fast_forward has no argument named \"%s\"",
						   n->named_arg_expr->name);
			n = n->named_arg_expr->arg;
		}
		if (slot >= 3)
			return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "fast_forward takes 3 arguments");
		if (!(x = bind_expr(&b, n)) || !(x = bind_coerce(&b, x, type_make(TYPE_TEXT), 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, ctx->env, a, &val, err));
		if (val.is_null)
			return floe_errorf(err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					   "fast_forward arguments must not be NULL");
		args[slot] = arena_strndup(a, strview_data(&val.u.s), val.u.s.len);
	}
	if (!args[0] || !args[1] || !args[2])
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
				   "fast_forward(table, branch, to) needs 3 arguments");
	tbl = args[0];
	if ((dot = strchr(args[0], '.'))) {
		*dot = 0;
		ns = args[0];
		tbl = dot + 1;
	}
	if (!ns)
		ns = search_path_lookup(s, tbl);
	TRY(txn_table_load(s, ns, tbl, a, &t, err));
	md = metadata_copy(t->md, a);
	kb = ref_index(md, args[1]);
	kt = ref_index(md, args[2]);
	for (k = 1; k <= 2; k++) {
		int ki = k == 1 ? kb : kt;
		if (ki < 0 && !(!strcmp(args[k], "main") && md->has_current_snapshot))
			return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT,
					   "ref \"%s\" of table \"%s\" does not exist", args[k], tbl);
		if (k == 1 && ki >= 0 && md->refs[ki].type && strcmp(md->refs[ki].type, "branch"))
			return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a tag, not a branch",
					   args[k]);
	}
	from = kb >= 0 ? md->refs[kb].snapshot_id : md->current_snapshot_id;
	to = kt >= 0 ? md->refs[kt].snapshot_id : md->current_snapshot_id;
	if (!refs_is_ancestor(md, to, from))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "cannot fast-forward: \"%s\" is not an ancestor of \"%s\"", args[1],
				   args[2]);
	if (from != to) {
		own_refs(md, a);
		if (kb < 0) {
			kb = md->nrefs++;
			memset(&md->refs[kb], 0, sizeof md->refs[kb]);
			md->refs[kb].name = "main";
			md->refs[kb].type = "branch";
		}
		md->refs[kb].snapshot_id = to;
		if (!strcmp(args[1], "main"))
			refs_move_main(md, to, a);
		TRY(txn_commit_metadata(s, t, md, a, &out, err));
	}
	types[0] = type_make(TYPE_TEXT);
	types[1] = types[2] = type_make(TYPE_INT64);
	bt = batch_new(a, 3, types, 1);
	memset(&v[0], 0, sizeof v[0]);
	v[0].type = types[0];
	v[0].u.s = strview_make(args[1], (uint32_t)strlen(args[1]));
	v[1] = value_int(TYPE_INT64, from);
	v[2] = value_int(TYPE_INT64, to);
	for (k = 0; k < 3; k++)
		vector_set_value(&bt->cols[k], 0, &v[k]);
	bt->count = 1;
	if (sink && sink->columns)
		sink->columns(sink->ctx, 3, cols, types);
	if (sink && sink->batch)
		sink->batch(sink->ctx, bt);
	return engine_complete(sink, "CALL");
}

int
refs_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink,
	  bool *handled)
{
	PgQuery__FuncCall *f = cs->funccall;
	const char *name = f->funcname[f->n_funcname - 1]->string->sval;

	*handled = !strcmp(name, "fast_forward");
	if (!*handled)
		return FLOE_OK;
	return call_fast_forward(s, ctx, sql, f, sink);
}
