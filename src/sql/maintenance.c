/*
 * maintenance.c — VACUUM, ANALYZE and the procedures expire_snapshots and
 * remove_orphan_files (see maintenance.h; the table-level rules are
 * table/maintenance.h and docs/maintenance.md).
 *
 *   VACUUM t          expire t's snapshots by its properties
 *                     (history.expire.*), delete the files only they
 *                     reached, then remove t's orphan files older than 3
 *                     days.  No table: every table of every schema (a
 *                     role that is not a superuser owns none: each is
 *                     skipped with PostgreSQL's warning; ANALYZE also
 *                     skips, with a WARNING naming the error, a table
 *                     whose files it cannot read or write: skip_table).
 *                     Not inside a transaction block (25001).  Options: VERBOSE (a
 *                     NOTICE per table with what went), ANALYZE (see
 *                     below), SKIP_LOCKED and PROCESS_TOAST (floe never
 *                     waits for a lock and has no TOAST: nothing to
 *                     change); FULL, FREEZE, DISABLE_PAGE_SKIPPING,
 *                     INDEX_CLEANUP, TRUNCATE and PARALLEL set on are
 *                     0A000 naming them.
 *   ANALYZE [t [(c)]] NDV theta sketches of the columns in a Puffin
 *                     statistics file registered with the table
 *                     (analyze.h); no table: every table.
 *   CALL expire_snapshots(table, older_than, retain_last): one row of
 *                     Spark's deleted_*_count columns.
 *   CALL rewrite_manifests(table, spec_id): merges the current snapshot's
 *                     manifests (table/rewrite_manifests.h); one row of
 *                     Spark's rewritten_manifests_count, added_manifests_count.
 *   CALL cherrypick_snapshot / publish_changes: wap.c.
 *   CALL remove_orphan_files(table, older_than, dry_run): one row per
 *                     orphan file (orphan_file_location), deleted unless
 *                     dry_run.
 * Spark's other arguments (max_concurrent_deletes, stream_results,
 * snapshot_ids, location, equal_schemes, ...) are 0A000 naming them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "exec/expr.h"
#include "sql/acl.h"
#include "sql/analyze.h"
#include "sql/maintenance.h"
#include "sql/refs.h"
#include "sql/txn.h"
#include "sql/wap.h"
#include "table/maintenance.h"
#include "table/rewrite_manifests.h"
#include "types/datetime.h"

/* ---- CALL arguments -------------------------------------------------------- */

/* Bind f's arguments (positional or name => value) to spec's slots:
 * constants, cast to each slot's type; NULL values are refused. */
int
maintenance_bind_args(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f,
		      const char *proc, const ArgSpec *spec, int nspec, Value *vals, bool *have)
{
	floe_error *err = ctx->err;
	BindCtx b;
	size_t i;
	int k;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = err;
	b.sql = sql;
	b.where = "CALL";
	b.exec = ctx;             /* uncorrelated subqueries run once, here */
	for (k = 0; k < nspec; k++)
		have[k] = false;
	for (i = 0; i < f->n_args; i++) {
		Node *n = f->args[i];
		int slot = (int)i;
		Expr *x;
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			slot = -1;
			for (k = 0; k < nspec; k++)
				if (!strcmp(n->named_arg_expr->name, spec[k].name))
					slot = k;
			if (slot < 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
						   "%s has no argument named \"%s\"", proc,
						   n->named_arg_expr->name);
			n = n->named_arg_expr->arg;
		}
		if (slot >= nspec)
			return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
					   "%s takes at most %d arguments", proc, nspec);
		if (spec[slot].type == TYPE_NULL)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "%s argument %s is not supported", proc, spec[slot].name);
		if (have[slot])
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s argument %s given twice", proc,
					   spec[slot].name);
		if (!(x = bind_expr(&b, n)) ||
		    !(x = bind_coerce(&b, x, type_make(spec[slot].type), 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, ctx->env, ctx->arena, &vals[slot], err));
		if (vals[slot].is_null)
			return floe_errorf(err, ERRCODE_NULL_VALUE_NOT_ALLOWED,
					   "%s argument %s must not be NULL", proc, spec[slot].name);
		have[slot] = true;
	}
	if (!have[0])
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "%s needs a table name", proc);
	return FLOE_OK;
}

/* "[ns.]t" -> ns, name (search_path when unqualified) */
void
maintenance_split_name(Session *s, Arena *a, const Value *v, const char **ns, const char **name)
{
	char *t = arena_strndup(a, strview_data(&v->u.s), v->u.s.len), *dot = strchr(t, '.');

	*ns = NULL;
	*name = t;
	if (dot) {
		*dot = 0;
		*ns = t;
		*name = dot + 1;
	} else {
		*ns = search_path_lookup(s, t);
	}
}

int
maintenance_load(Session *s, ExecCtx *ctx, const char *ns, const char *name, Table **t)
{
	Engine *e = s->engine;

	if (table_load(e->catalog, e->io, ns, name, ctx->arena, t, ctx->err) != FLOE_OK) {
		if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(ctx->err, ERRCODE_UNDEFINED_TABLE,
				    "relation \"%s.%s\" does not exist", ns, name);
		return FLOE_ERR;
	}
	return FLOE_OK;
}

int
maintenance_outside_block(Session *s, const char *what, floe_error *err)
{
	if (session_txn_status(s) != 'I')
		return floe_errorf(err, ERRCODE_ACTIVE_SQL_TRANSACTION,
				   "%s cannot run inside a transaction block", what);
	return FLOE_OK;
}

static int64_t
now_ms(void)
{
	return datetime_now() / 1000;
}

/* TIMESTAMPTZ micros -> ms, rounding down */
static int64_t
ts_ms(int64_t us)
{
	return us >= 0 ? us / 1000 : -((-us + 999) / 1000);
}

/* ---- result rows -------------------------------------------------------------- */

static const char *const expire_cols[6] = {
	"deleted_data_files_count", "deleted_position_delete_files_count",
	"deleted_equality_delete_files_count", "deleted_manifest_files_count",
	"deleted_manifest_lists_count", "deleted_statistics_files_count",
};

static int
send_expire(ExecCtx *ctx, const ExpireResult *r, ResultSink *sink)
{
	const int64_t v[6] = { r->data_files, r->position_delete_files, r->equality_delete_files,
		r->manifests, r->manifest_lists, r->statistics_files };
	SqlType types[6];
	Batch *b;
	int i;

	for (i = 0; i < 6; i++)
		types[i] = type_make(TYPE_INT64);
	b = batch_new(ctx->arena, 6, types, 1);
	for (i = 0; i < 6; i++) {
		Value x = value_int(TYPE_INT64, v[i]);
		vector_set_value(&b->cols[i], 0, &x);
	}
	b->count = 1;
	if (sink && sink->columns)
		sink->columns(sink->ctx, 6, expire_cols, types);
	if (sink && sink->batch)
		sink->batch(sink->ctx, b);
	return engine_complete(sink, "CALL");
}

static int
send_orphans(ExecCtx *ctx, char **paths, int n, ResultSink *sink)
{
	static const char *const names[1] = { "orphan_file_location" };
	SqlType ty = type_make(TYPE_TEXT);
	int i, k;

	if (sink && sink->columns)
		sink->columns(sink->ctx, 1, names, &ty);
	for (i = 0; i < n; i += 1024) {
		int m = n - i < 1024 ? n - i : 1024;
		Batch *b = batch_new(ctx->arena, 1, &ty, m);
		for (k = 0; k < m; k++) {
			Value v;
			memset(&v, 0, sizeof v);
			v.type = ty;
			v.u.s = strview_make(paths[i + k], (uint32_t)strlen(paths[i + k]));
			vector_set_value(&b->cols[0], k, &v);
		}
		b->count = m;
		if (sink && sink->batch)
			sink->batch(sink->ctx, b);
	}
	return engine_complete(sink, "CALL");
}

/* ---- procedures ----------------------------------------------------------------- */

static int
call_expire(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f, ResultSink *sink)
{
	static const ArgSpec spec[] = {
		{ "table", TYPE_TEXT }, { "older_than", TYPE_TIMESTAMPTZ },
		{ "retain_last", TYPE_INT32 }, { "max_concurrent_deletes", TYPE_NULL },
		{ "stream_results", TYPE_NULL }, { "snapshot_ids", TYPE_NULL },
		{ "clean_expired_metadata", TYPE_NULL },
	};
	Value v[7];
	bool have[7];
	ExpireOptions o;
	ExpireResult r;
	const char *ns, *name;
	Engine *e = s->engine;
	Table *t;

	TRY(maintenance_bind_args(s, ctx, sql, f, "expire_snapshots", spec, 7, v, have));
	TRY(maintenance_outside_block(s, "expire_snapshots", ctx->err));
	memset(&o, 0, sizeof o);
	if (have[1]) {
		o.has_older_than = true;
		o.older_than_ms = ts_ms(v[1].u.i);
	}
	if (have[2]) {
		if (v[2].u.i < 1)
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "retain_last must be at least 1");
		o.retain_last = (int)v[2].u.i;
	}
	maintenance_split_name(s, ctx->arena, &v[0], &ns, &name);
	TRY(maintenance_load(s, ctx, ns, name, &t));
	TRY(table_expire_snapshots(e->catalog, e->io, ns, name, &o, now_ms(), ctx->arena, &r,
				   ctx->err));
	return send_expire(ctx, &r, sink);
}

static int
call_orphans(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f, ResultSink *sink)
{
	static const ArgSpec spec[] = {
		{ "table", TYPE_TEXT }, { "older_than", TYPE_TIMESTAMPTZ },
		{ "location", TYPE_NULL }, { "dry_run", TYPE_BOOL },
		{ "max_concurrent_deletes", TYPE_NULL }, { "file_list_view", TYPE_NULL },
		{ "equal_schemes", TYPE_NULL }, { "equal_authorities", TYPE_NULL },
		{ "prefix_mismatch_mode", TYPE_NULL },
	};
	Value v[9];
	bool have[9];
	const char *ns, *name;
	int64_t older = now_ms() - ORPHAN_DEFAULT_AGE_MS;
	char **paths;
	int n;
	Table *t;

	TRY(maintenance_bind_args(s, ctx, sql, f, "remove_orphan_files", spec, 9, v, have));
	TRY(maintenance_outside_block(s, "remove_orphan_files", ctx->err));
	if (have[1])
		older = ts_ms(v[1].u.i);
	maintenance_split_name(s, ctx->arena, &v[0], &ns, &name);
	TRY(maintenance_load(s, ctx, ns, name, &t));
	TRY(table_remove_orphans(s->engine->io, t, older, have[3] && v[3].u.b, ctx->arena, &paths,
				 &n, ctx->err));
	return send_orphans(ctx, paths, n, sink);
}

/* CALL rewrite_manifests(table, spec_id): Spark's two counts */
static const char *const rewrite_cols[2] = { "rewritten_manifests_count", "added_manifests_count" };

static int
call_rewrite_manifests(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f,
		       ResultSink *sink)
{
	static const ArgSpec spec[] = {
		{ "table", TYPE_TEXT }, { "use_caching", TYPE_NULL }, { "spec_id", TYPE_INT32 },
	};
	Value v[3];
	bool have[3];
	RewriteManifestsResult r;
	const char *ns, *name;
	Engine *e = s->engine;
	SqlType types[2] = { type_make(TYPE_INT32), type_make(TYPE_INT32) };
	Batch *b;
	Value x;
	Table *t;

	TRY(maintenance_bind_args(s, ctx, sql, f, "rewrite_manifests", spec, 3, v, have));
	TRY(maintenance_outside_block(s, "rewrite_manifests", ctx->err));
	maintenance_split_name(s, ctx->arena, &v[0], &ns, &name);
	TRY(maintenance_load(s, ctx, ns, name, &t));
	if (have[2] && !metadata_spec_by_id(t->md, (int32_t)v[2].u.i))
		return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "table \"%s\" has no partition spec %d", name, (int)v[2].u.i);
	TRY(table_rewrite_manifests(e->catalog, e->io, ns, name, have[2] ? (int)v[2].u.i : -1,
				    ctx->arena, &r, ctx->err));
	b = batch_new(ctx->arena, 2, types, 1);
	x = value_int(TYPE_INT32, r.rewritten);
	vector_set_value(&b->cols[0], 0, &x);
	x = value_int(TYPE_INT32, r.added);
	vector_set_value(&b->cols[1], 0, &x);
	b->count = 1;
	if (sink && sink->columns)
		sink->columns(sink->ctx, 2, rewrite_cols, types);
	if (sink && sink->batch)
		sink->batch(sink->ctx, b);
	return engine_complete(sink, "CALL");
}

int
maintenance_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs,
		 ResultSink *sink, bool *handled)
{
	PgQuery__FuncCall *f = cs->funccall;
	const char *name = f->funcname[f->n_funcname - 1]->string->sval;

	if (!strncmp(name, "floe$r", 6))   /* ROLLBACK / RESTORE TABLE (restore.c) */
		return restore_call(s, ctx, sql, cs, sink, handled);
	*handled = true;
	if (!strcmp(name, "fast_forward"))
		return refs_call(s, ctx, sql, cs, sink, handled);
	if (!strcmp(name, "expire_snapshots"))
		return call_expire(s, ctx, sql, f, sink);
	if (!strcmp(name, "remove_orphan_files"))
		return call_orphans(s, ctx, sql, f, sink);
	if (!strcmp(name, "rewrite_manifests"))
		return call_rewrite_manifests(s, ctx, sql, f, sink);
	return wap_call(s, ctx, sql, f, sink, handled);   /* cherrypick_snapshot, publish_changes */
}

bool
maintenance_describe(const SqlStmt *st, Arena *a, int *ncols, char ***names, SqlType **types)
{
	Node *n = st->node;
	PgQuery__FuncCall *f;
	const char *name;
	int i, nc;

	if (n->node_case != PG_QUERY__NODE__NODE_CALL_STMT || !(f = n->call_stmt->funccall) ||
	    f->n_funcname == 0)
		return false;
	name = f->funcname[f->n_funcname - 1]->string->sval;
	if (!strcmp(name, "fast_forward")) {
		static const char *const ff[3] = { "branch_updated", "previous_ref", "updated_ref" };
		*ncols = 3;
		*names = ARENA_ARRAY(a, char *, 3);
		*types = ARENA_ARRAY(a, SqlType, 3);
		for (i = 0; i < 3; i++) {
			(*names)[i] = arena_strdup(a, ff[i]);
			(*types)[i] = type_make(i ? TYPE_INT64 : TYPE_TEXT);
		}
		return true;
	}
	if (wap_describe(name, a, ncols, names, types))
		return true;
	if (!strcmp(name, "rewrite_manifests")) {
		*ncols = 2;
		*names = ARENA_ARRAY(a, char *, 2);
		*types = ARENA_ARRAY(a, SqlType, 2);
		for (i = 0; i < 2; i++) {
			(*names)[i] = arena_strdup(a, rewrite_cols[i]);
			(*types)[i] = type_make(TYPE_INT32);
		}
		return true;
	}
	if (!strcmp(name, "expire_snapshots"))
		nc = 6;
	else if (!strcmp(name, "remove_orphan_files"))
		nc = 1;
	else
		return false;
	*ncols = nc;
	*names = ARENA_ARRAY(a, char *, nc);
	*types = ARENA_ARRAY(a, SqlType, nc);
	for (i = 0; i < nc; i++) {
		(*names)[i] = arena_strdup(a, nc == 6 ? expire_cols[i] : "orphan_file_location");
		(*types)[i] = type_make(nc == 6 ? TYPE_INT64 : TYPE_TEXT);
	}
	return true;
}

/* ---- VACUUM / ANALYZE ------------------------------------------------------------ */

/* Is option d on?  (no argument, or true/on/1) */
static bool
option_on(PgQuery__DefElem *d)
{
	Node *a = d->arg;

	if (!a)
		return true;
	if (a->node_case == PG_QUERY__NODE__NODE_STRING)
		return !(strcasecmp(a->string->sval, "false") == 0 ||
			 strcasecmp(a->string->sval, "off") == 0 || strcmp(a->string->sval, "0") == 0);
	if (a->node_case == PG_QUERY__NODE__NODE_INTEGER)
		return a->integer->ival != 0;
	if (a->node_case == PG_QUERY__NODE__NODE_BOOLEAN)
		return a->boolean->boolval;
	return true;
}

static int
vacuum_one(Session *s, ExecCtx *ctx, const char *ns, const char *name, bool verbose,
	   ResultSink *sink)
{
	Engine *e = s->engine;
	ExpireOptions o;
	ExpireResult r;
	int64_t now = now_ms();
	char **paths;
	int n;
	Table *t;

	memset(&o, 0, sizeof o);
	TRY(table_expire_snapshots(e->catalog, e->io, ns, name, &o, now, ctx->arena, &r, ctx->err));
	TRY(maintenance_load(s, ctx, ns, name, &t));
	TRY(table_remove_orphans(e->io, t, now - ORPHAN_DEFAULT_AGE_MS, false, ctx->arena, &paths,
				 &n, ctx->err));
	if (verbose && sink && sink->notice) {
		floe_error note;
		floe_errorf(&note, "00000",
			    "vacuuming \"%s.%s\": %" PRId64 " snapshots expired, %" PRId64
			    " refs removed, deleted %" PRId64 " data files, %" PRId64
			    " delete files, %" PRId64 " manifests, %" PRId64 " manifest lists, %" PRId64
			    " statistics files, %" PRId64 " metadata files, %d orphan files",
			    ns, name, r.expired_snapshots, r.removed_refs, r.data_files,
			    r.position_delete_files + r.equality_delete_files, r.manifests,
			    r.manifest_lists, r.statistics_files, r.metadata_files, n);
		sink->notice(sink->ctx, &note);
	}
	return FLOE_OK;
}

/* A table that ANALYZE of every table cannot read or write its statistics
 * for (a file missing or unwritable, a format it cannot read, no privilege)
 * is skipped with a WARNING, as PostgreSQL skips the tables it may not
 * analyze; any other failure (cancel, lost connection, memory, a commit
 * conflict) ends the statement. */
static int
skip_table(ExecCtx *ctx, const char *name, ResultSink *sink)
{
	const char *c = ctx->err->sqlstate;
	floe_error w;

	if (strncmp(c, "58", 2) && strncmp(c, "XX001", 5) && strncmp(c, "42501", 5) &&
	    strncmp(c, "0A000", 5) && strncmp(c, "42P01", 5))
		return FLOE_ERR;
	floe_errorf(&w, ERRCODE_WARNING, "skipping \"%s\" --- %s", name, ctx->err->message);
	floe_error_clear(ctx->err);
	if (sink && sink->notice)
		sink->notice(sink->ctx, &w);
	return FLOE_OK;
}

int
maintenance_vacuum(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
		   PgQuery__VacuumStmt *vs, ResultSink *sink)
{
	static const char *const refused[] = { "full", "freeze", "disable_page_skipping",
		"index_cleanup", "truncate", "parallel", NULL };
	bool vacuum = vs->is_vacuumcmd, verbose = false, analyze = !vacuum;
	floe_error *err = ctx->err;
	Engine *e = s->engine;
	size_t i;
	int k;

	(void)sql;
	(void)st;
	for (i = 0; i < vs->n_options; i++) {
		PgQuery__DefElem *d = vs->options[i]->def_elem;
		bool on = option_on(d);
		for (k = 0; refused[k] && strcmp(refused[k], d->defname); k++)
			;
		if (refused[k]) {
			if (on)        /* off asks for nothing floe would do */
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "%s option %s is not supported",
						   vacuum ? "VACUUM" : "ANALYZE", d->defname);
			continue;
		}
		if (!strcmp(d->defname, "verbose"))
			verbose = on;
		else if (!strcmp(d->defname, "analyze"))
			analyze = analyze || on;
		else if (strcmp(d->defname, "skip_locked") && strcmp(d->defname, "process_toast"))
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "unrecognized %s option \"%s\"",
					   vacuum ? "VACUUM" : "ANALYZE", d->defname);
	}
	if (vacuum)
		TRY(maintenance_outside_block(s, "VACUUM", err));
	for (i = 0; i < vs->n_rels; i++) {
		PgQuery__VacuumRelation *vr = vs->rels[i]->vacuum_relation;
		if (vacuum && !analyze && vr->n_va_cols > 0)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "ANALYZE option must be specified when a column list is provided");
	}
	if (vs->n_rels == 0) {
		/* every table of every schema */
		char **nss;
		int nns, j;
		TRY(catalog_list_namespaces(e->catalog, ctx->arena, &nss, &nns, err));
		for (j = 0; j < nns; j++) {
			char **tabs;
			int nt, m;
			TRY(catalog_list_tables(e->catalog, nss[j], ctx->arena, &tabs, &nt, err));
			for (m = 0; m < nt; m++) {
				if (!acl_is_superuser(s)) {
					/* PostgreSQL 15's vacuum_is_relation_owner */
					floe_error w;
					floe_errorf(&w, ERRCODE_WARNING,
						    "skipping \"%s\" --- only table or database owner can %s it",
						    tabs[m], vacuum ? "vacuum" : "analyze");
					if (sink && sink->notice)
						sink->notice(sink->ctx, &w);
					continue;
				}
				if (analyze) {
					PgQuery__VacuumRelation none = PG_QUERY__VACUUM_RELATION__INIT;
					if (analyze_table(s, ctx, nss[j], tabs[m], &none, verbose, sink) != FLOE_OK) {
						TRY(skip_table(ctx, tabs[m], sink));
						continue;
					}
				}
				if (vacuum)
					TRY(vacuum_one(s, ctx, nss[j], tabs[m], verbose, sink));
			}
		}
		return engine_complete(sink, vacuum ? "VACUUM" : "ANALYZE");
	}
	for (i = 0; i < vs->n_rels; i++) {
		PgQuery__VacuumRelation *vr = vs->rels[i]->vacuum_relation;
		const char *ns, *name;
		session_resolve_name(s, vr->relation, &ns, &name);
		if (!acl_is_superuser(s)) {
			/* PostgreSQL 15's expand_vacuum_rel: the name is looked up
			 * (USAGE on a schema named, 42501; a missing table, 42P01),
			 * then vacuum_is_relation_owner skips what the role does not
			 * own with a WARNING (floe's owner is the superuser) */
			Table *t;
			floe_error w;
			if (vr->relation->schemaname && vr->relation->schemaname[0])
				TRY(acl_check_schema_usage(s, ctx, ns, err));
			if (txn_table_load(s, ns, name, ctx->arena, &t, err) != FLOE_OK) {
				if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
					floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s%s%s\" does not exist",
						    vr->relation->schemaname ? vr->relation->schemaname : "",
						    vr->relation->schemaname && vr->relation->schemaname[0] ? "." : "",
						    name);
				return FLOE_ERR;
			}
			floe_errorf(&w, ERRCODE_WARNING, "skipping \"%s\" --- only table or database owner can %s it",
				    name, vacuum ? "vacuum" : "analyze");
			if (sink && sink->notice)
				sink->notice(sink->ctx, &w);
			continue;
		}
		if (analyze)
			TRY(analyze_table(s, ctx, ns, name, vr, verbose, sink));
		if (vacuum)
			TRY(vacuum_one(s, ctx, ns, name, verbose, sink));
	}
	return engine_complete(sink, vacuum ? "VACUUM" : "ANALYZE");
}
