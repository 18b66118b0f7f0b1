/*
 * engine.c — the Engine (a warehouse: FileIO + Catalog) and Sessions;
 * statement dispatch; SET / SHOW / RESET (PostgreSQL 15's setting names,
 * units, 42704 / 55P02; output settings installed per statement by
 * apply_output); CALL register_table.  DDL is ddl.c,
 * INSERT and CREATE TABLE AS insert.c.
 *
 * An s3:// warehouse (sql/warehouse.h): the tables under the prefix, the
 * files below but catalog.db, path-maps, catalog-uri in the local state
 * folder, which is then Engine.warehouse (Engine.root is the prefix).
 *
 * Warehouse layout (embedded default):
 *   <warehouse>/catalog.db                 SQLite catalog (Iceberg JDBC schema)
 *   <warehouse>/path-maps                  prefix maps of registered tables
 *   <warehouse>/<schema>/<table>/metadata  metadata JSON, manifests
 *   <warehouse>/<schema>/<table>/data      Parquet data files
 *
 * Threads (engine.h): sessions of one Engine run statements concurrently,
 * each session on one thread at a time.  The Engine's mutable part is
 * EngineShared: `mu` serializes path-map changes, which build a new FileIO
 * and publish it with an atomic store (readers load Engine.io once per use
 * and never see a FileIO change under them; replaced ones are freed at
 * engine_close).  Per-session state the executor reads as thread globals
 * (time zone, statement time) is installed on the calling thread at every
 * entry point (session_enter).
 *
 * INTERFACE ROUTINES (engine.h)
 *   engine_open, engine_close, session_new, session_free, session_exec,
 *   session_set_timezone, engine_list_tables, engine_describe_table
 * (bind.h)
 *   engine_complete, engine_notice
 */
#include <errno.h>
#include <math.h>
#include <strings.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "func/func.h"
#include "ingest/infer.h"
#include "ingest/stage.h"
#include "ingest/ingest.h"
#include "optimize/optimizer.h"
#include "sql/usertype.h"
#include "sql/acl.h"
#include "sql/automaint.h"
#include "sql/bind.h"
#include "sql/client_messages.h"
#include "sql/cursor.h"
#include "sql/snapshot_pin.h"
#include "sql/maintenance.h"
#include "sql/stmt_timer.h"
#include "sql/stack_setting.h"
#include "sql/settings_noeffect.h"
#include "common/interrupt.h"
#include "sql/pgcatalog.h"
#include "sql/prepare.h"
#include "sql/sequence.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "sql/warehouse.h"
#include "sql/watermark.h"
#include "table/data_writer.h"
#include "table/metadata.h"
#include "sql/function.h"
#include "sql/views.h"
#include "table/table.h"
#include "types/cast.h"
#include "types/datetime.h"
#include "types/text.h"

/* ---- engine ------------------------------------------------------------ */

/* An autocommit write statement's turn on its target table (see
 * write_turn_take). */
typedef struct WriteTurn {
	struct WriteTurn *next;
	char *key;                 /* "schema.table" */
	int users;                 /* the holder + the waiters */
	bool held;
} WriteTurn;

struct EngineShared {
	pthread_mutex_t mu;        /* path-map changes */
	FileIO **retired;          /* FileIOs replaced by add_path_map */
	int nretired;
	pthread_mutex_t turn_mu;   /* the write turns */
	pthread_cond_t turn_cv;
	WriteTurn *turns;          /* held (or waited for) ones */
};

/* ---- write turns ---------------------------------------------------------
 *
 * Commits to one Iceberg table are serial by nature: the catalog's
 * compare-and-swap lets one of several concurrent committers win and the
 * others re-stage (new manifest list and metadata file) after a back-off.
 * With many sessions of this process writing one table, most of that work
 * is wasted and the back-offs add up.  So an autocommit INSERT, UPDATE,
 * DELETE or MERGE takes its target table's turn for the statement: writers
 * of one table queue in this process instead of colliding; readers, and
 * writers of other tables, never wait.  Writers in other processes (a
 * shared catalog), and COMMITs of transaction blocks, are still resolved by
 * the compare-and-swap and its retries.  A waiter polls its cancel flag
 * (CancelRequest, statement_timeout: 57014).  A statement holds at most one
 * turn, so turns cannot deadlock; the statement re-run after a lost
 * conflict (txn_retry_statement's back-off) happens without the turn.
 */
static int
write_turn_take(Session *s, const char *key, WriteTurn **out, floe_error *err)
{
	struct EngineShared *sh = s->engine->shared;
	WriteTurn *t;

	*out = NULL;
	pthread_mutex_lock(&sh->turn_mu);
	for (t = sh->turns; t && strcmp(t->key, key) != 0; t = t->next)
		;
	if (!t) {
		t = xcalloc(1, sizeof *t);
		t->key = xstrdup(key);
		t->next = sh->turns;
		sh->turns = t;
	}
	t->users++;
	while (t->held) {
		/* wait, waking up now and then to look at the cancel flag */
		struct timespec ts;
		if (*s->cancel_flag) {
			t->users--;
			pthread_mutex_unlock(&sh->turn_mu);
			return floe_errorf(err, ERRCODE_QUERY_CANCELED,
					   "canceling statement due to user request");
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		(void)pthread_cond_timedwait(&sh->turn_cv, &sh->turn_mu, &ts);
	}
	t->held = true;
	pthread_mutex_unlock(&sh->turn_mu);
	*out = t;
	return FLOE_OK;
}

static void
write_turn_give(Session *s, WriteTurn *t)
{
	struct EngineShared *sh = s->engine->shared;
	WriteTurn **pt;

	if (!t)
		return;
	pthread_mutex_lock(&sh->turn_mu);
	t->held = false;
	if (--t->users == 0) {
		for (pt = &sh->turns; *pt != t; pt = &(*pt)->next)
			;
		*pt = t->next;
		free(t->key);
		free(t);
	}
	pthread_cond_broadcast(&sh->turn_cv);
	pthread_mutex_unlock(&sh->turn_mu);
}

/* ... for the engine's own writers (the insert buffer's compaction) */
int
engine_write_turn_take(Session *s, const char *key, WriteTurn **out, floe_error *err)
{
	return write_turn_take(s, key, out, err);
}

void
engine_write_turn_give(Session *s, WriteTurn *t)
{
	write_turn_give(s, t);
}

/* The "schema.table" an autocommit write statement commits to, or NULL. */
static const char *
write_target(Session *s, const Node *n, char *buf, size_t cap)
{
	const PgQuery__RangeVar *rv = NULL;

	if (session_txn_status(s) != 'I')
		return NULL;           /* a block commits at COMMIT */
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_INSERT_STMT: rv = n->insert_stmt->relation; break;
	case PG_QUERY__NODE__NODE_UPDATE_STMT: rv = n->update_stmt->relation; break;
	case PG_QUERY__NODE__NODE_DELETE_STMT: rv = n->delete_stmt->relation; break;
	case PG_QUERY__NODE__NODE_MERGE_STMT: rv = n->merge_stmt->relation; break;
	default: return NULL;
	}
	if (!rv || !rv->relname)
		return NULL;
	snprintf(buf, cap, "%s.%s", rv->schemaname && rv->schemaname[0] ? rv->schemaname
		 : search_path_lookup(s, rv->relname), rv->relname);
	return buf;
}

static int
mkdir_p(const char *path, floe_error *err)
{
	char buf[4096];
	size_t i, n = strlen(path);

	if (n >= sizeof buf)
		return floe_errorf(err, ERRCODE_IO_ERROR, "path too long: %s", path);
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] == '/' || buf[i] == 0) {
			char c = buf[i];
			buf[i] = 0;
			if (mkdir(buf, 0755) != 0 && errno != EEXIST)
				return floe_errorf(err, ERRCODE_IO_ERROR,
						   "could not create directory \"%s\": %s", buf, strerror(errno));
			buf[i] = c;
		}
	}
	return FLOE_OK;
}

static void
load_path_maps(Engine *e, FileIO *io)
{
	char *p = NULL;
	FILE *f;
	char line[8192];

	if (asprintf(&p, "%s/path-maps", e->warehouse) < 0)
		return;
	f = fopen(p, "r");
	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (!tab)
			continue;
		*tab = 0;
		fileio_map_prefix(io, line, tab + 1);
	}
	fclose(f);
}

static int
add_path_map(Engine *e, const char *from, const char *to, floe_error *err)
{
	char *p = NULL;
	FILE *f;
	FileIO *io, *old;
	struct EngineShared *sh = e->shared;

	if (strchr(from, '\t') || strchr(from, '\n') || strchr(to, '\t') || strchr(to, '\n'))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "path maps cannot contain tabs or newlines");
	if (asprintf(&p, "%s/path-maps", e->warehouse) < 0)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	pthread_mutex_lock(&sh->mu);
	f = fopen(p, "a");
	free(p);
	if (!f) {
		pthread_mutex_unlock(&sh->mu);
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not write path maps: %s", strerror(errno));
	}
	fprintf(f, "%s\t%s\n", from, to);
	if (fclose(f) != 0) {
		pthread_mutex_unlock(&sh->mu);
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not write path maps: %s", strerror(errno));
	}
	/* a new FileIO with every map, published whole: statements running
	 * meanwhile keep the old one, which lives until engine_close */
	if (warehouse_fileio(&io, e->root, e->warehouse, e->io_props, e->nio_props, err) != FLOE_OK) {
		pthread_mutex_unlock(&sh->mu);
		return FLOE_ERR;
	}
	load_path_maps(e, io);
	fileio_map_prefix(io, from, to);     /* in case the file was not readable */
	old = e->io;
	e->io = io;
	sh->retired = xrealloc(sh->retired, sizeof(FileIO *) * (size_t)(sh->nretired + 1));
	sh->retired[sh->nretired++] = old;
	pthread_mutex_unlock(&sh->mu);
	return FLOE_OK;
}

int
engine_open(Engine **out, const EngineConfig *config, floe_error *err)
{
	Engine *e;
	char *db = NULL;
	char real[4096];
	char uri_line[2048] = "";      /* catalog choice (txn engineer) */
	const char *uri;
	bool exists;
	char local[4096];
	FileIO *io;
	int i;

	warehouse_local_dir(local, sizeof local, config->warehouse, config->state_dir);
	TRY(mkdir_p(local, err));
	if (!realpath(local, real))
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not resolve \"%s\": %s",
				   local, strerror(errno));
	TRY(warehouse_fileio(&io, warehouse_is_remote(config->warehouse) ? config->warehouse : real, real,
			     config->fileio_props, config->nfileio_props, err));
	e = xcalloc(1, sizeof *e);
	e->root = xstrdup(io->root);
	e->nio_props = config->nfileio_props;
	e->io_props = xcalloc((size_t)e->nio_props + 1, sizeof(char *));
	for (i = 0; i < e->nio_props; i++)
		e->io_props[i] = xstrdup(config->fileio_props[i]);
	e->shared = xcalloc(1, sizeof *e->shared);
	pthread_mutex_init(&e->shared->mu, NULL);
	pthread_mutex_init(&e->shared->turn_mu, NULL);
	pthread_cond_init(&e->shared->turn_cv, NULL);
	e->warehouse = xstrdup(real);
	e->io = io;
	/* ---- catalog choice (txn engineer): see EngineConfig.catalog_uri */
	uri = config->catalog_uri;
	if (!uri || !*uri)
		uri = getenv("FLOE_CATALOG");
	if ((!uri || !*uri) && asprintf(&db, "%s/catalog-uri", e->warehouse) >= 0) {
		FILE *f = fopen(db, "r");
		free(db);
		db = NULL;
		if (f) {
			if (fgets(uri_line, sizeof uri_line, f))
				uri_line[strcspn(uri_line, "\r\n")] = 0;
			fclose(f);
			uri = uri_line;
		}
	}
	if (asprintf(&db, "%s/catalog.db", e->warehouse) < 0)
		abort();
	/* --catalog-credential (main/floe.c sets FLOE_REST_CREDENTIAL) is never ignored */
	if ((getenv("FLOE_REST_CREDENTIAL") && *getenv("FLOE_REST_CREDENTIAL") &&
	     !(uri && !strncmp(uri, "rest+", 5))
	     ? floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "--catalog-credential is for a REST catalog (--catalog rest+http(s)://...); "
			   "this warehouse's catalog is %s", uri && *uri ? "PostgreSQL" : "SQLite")
	     : uri && !strncmp(uri, "rest+", 5) ? catalog_rest_open(&e->catalog, uri + 5, e->io, err)
	     : uri && *uri ? catalog_pg_open(&e->catalog, uri, config->catalog_name, err)
	     : catalog_sqlite_open(&e->catalog, db, config->catalog_name ? config->catalog_name : "floe",
				   err)) != FLOE_OK) {
		/* ---- end of catalog choice */
		free(db);
		fileio_free(e->io);
		pthread_mutex_destroy(&e->shared->mu);
		pthread_mutex_destroy(&e->shared->turn_mu);
		pthread_cond_destroy(&e->shared->turn_cv);
		free(e->shared);
		free(e->warehouse);
		free(e->root);
		for (i = 0; i < e->nio_props; i++)
			free(e->io_props[i]);
		free(e->io_props);
		free(e);
		return FLOE_ERR;
	}
	free(db);
	if (uri && *uri && strncmp(uri, "rest+", 5))
		e->catalog_conninfo = xstrdup(uri);   /* the insert buffer's postgres backend */
	e->catalog = temp_catalog_wrap(e->catalog);   /* sessions' pg_temp stay private (temp.h) */
	temp_sweep_stale();
	if (catalog_namespace_exists(e->catalog, "public", &exists, err) != FLOE_OK ||
	    (!exists && catalog_create_namespace(e->catalog, "public", err) != FLOE_OK)) {
		engine_close(e);
		return FLOE_ERR;
	}
	load_path_maps(e, e->io);
	if (ingest_engine_open(e, err) != FLOE_OK) {
		engine_close(e);
		return FLOE_ERR;
	}
	*out = e;
	return FLOE_OK;
}

int
engine_start_background(Engine *e, floe_error *err)
{
	TRY(ingest_start_flusher(e, err));
	return automaint_start(e, err);    /* floe.maintenance.* (automaint.h) */
}

void
engine_close(Engine *e)
{
	int i;

	if (!e)
		return;
	automaint_stop(e);              /* waits for the table in hand */
	ingest_engine_close(e);         /* flushes buffered rows first */
	usertype_catalog_closed(e->catalog);   /* the registry was its types */
	catalog_close(e->catalog);
	seq_engine_free(e);
	fileio_free(e->io);
	for (i = 0; i < e->shared->nretired; i++)
		fileio_free(e->shared->retired[i]);
	free(e->shared->retired);
	pthread_mutex_destroy(&e->shared->mu);
	pthread_mutex_destroy(&e->shared->turn_mu);
	pthread_cond_destroy(&e->shared->turn_cv);
	free(e->shared);
	free(e->warehouse);
	free(e->catalog_conninfo);
	free(e->root);
	for (i = 0; i < e->nio_props; i++)
		free(e->io_props[i]);
	free(e->io_props);
	free(e);
}

Session *
session_new(Engine *e)
{
	Session *s = xcalloc(1, sizeof *s);
	s->engine = e;
	s->cancel_flag = &s->cancel;
	s->tz = NULL;                  /* UTC */
	datetime_use_zone(NULL);
	return s;
}

static void apply_output(Session *s);

/* Install the session's thread-global state on the calling thread (every
 * entry point that runs SQL calls this first). */
static void
session_enter(Session *s)
{
	datetime_use_zone(s->tz);
	apply_output(s);
	temp_session_enter(s);     /* whose pg_temp the catalog serves (temp.h) */
}

void
session_set_identity(Session *s, const char *user, const char *database)
{
	free(s->user);
	free(s->database);
	s->user = user && user[0] ? xstrdup(user) : NULL;
	s->database = database && database[0] ? xstrdup(database) : NULL;
}

int
session_set_timezone(Session *s, const char *name, floe_error *err)
{
	TRY(datetime_set_timezone(name, err));
	s->tz = datetime_current_zone();
	return FLOE_OK;
}

void
session_set_cancel_flag(Session *s, volatile int *flag)
{
	s->cancel_flag = flag ? flag : &s->cancel;
}

void
session_free(Session *s)
{
	int i;
	if (!s)
		return;
	txn_session_free(s);
	temp_session_enter(s);
	temp_session_free(s);      /* its temporary tables and their folder */
	seq_session_free(s);
	prepare_session_free(s);
	cursor_session_free(s);
	function_free(s);
	watermark_free(s);
	snapshot_pin_session_free(s);
	free(s->user);
	free(s->database);
	for (i = 0; i < s->nsettings; i++) {
		free(s->settings_keys[i]);
		free(s->settings_values[i]);
	}
	search_path_free(s);
	arena_free(s->exec_parse_arena);
	arena_free(s->exec_stmt_arena);
	free(s);
}

/* ---- results ----------------------------------------------------------- */

static int
run_plan(Session *s, ExecCtx *ctx, SelectPlan *p, ResultSink *sink, int64_t *rows)
{
	Batch *b;
	int rc = FLOE_OK;

	*rows = 0;
	if (sink && sink->columns &&
	    sink->columns(sink->ctx, p->ncols, (const char *const *)p->names, p->types) != 0)
		return floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (op_open(p->root) != FLOE_OK) {
		op_close(p->root);
		return FLOE_ERR;
	}
	for (;;) {
		if (op_next(p->root, &b) != FLOE_OK) {
			rc = FLOE_ERR;
			break;
		}
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		*rows += b->count;
		if (sink && sink->batch && sink->batch(sink->ctx, b) != 0) {
			rc = floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED,
					 "canceling statement due to user request");
			break;
		}
	}
	op_close(p->root);
	(void)s;
	return rc;
}

int
engine_complete(ResultSink *sink, const char *tag)
{
	if (sink && sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

void
engine_notice(ResultSink *sink, const char *fmt, const char *arg)
{
	floe_error n;
	if (!sink || !sink->notice)
		return;
	floe_errorf(&n, "00000", fmt, arg);
	sink->notice(sink->ctx, &n);
}

/* ---- CALL, SET, SHOW --------------------------------------------------- */

/* CALL register_table in a server session adopts only a table whose
 * metadata file, location and write folders resolve inside the warehouse
 * or an --allow-dir (acl_check_location, 42501): its later INSERTs write
 * there. */
static int
register_confined(Session *s, ExecCtx *ctx, const char *metadata_file, floe_error *err)
{
	static const char *const keys[] = { "write.data.path", "write.metadata.path" };
	const uint8_t *data;
	size_t len, i;
	TableMetadata *md;

	TRY(acl_check_location(s, metadata_file, err));
	TRY(fileio_read(s->engine->io, metadata_file, ctx->arena, &data, &len, err));
	TRY(metadata_parse((const char *)data, len, metadata_file, ctx->arena, &md, err));
	TRY(acl_check_location(s, md->location, err));
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (metadata_property(md, keys[i]))
			TRY(acl_check_location(s, metadata_property(md, keys[i]), err));
	return FLOE_OK;
}

static int
exec_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink)
{
	PgQuery__FuncCall *f = cs->funccall;
	const char *name = f->funcname[f->n_funcname - 1]->string->sval;
	floe_error *err = ctx->err;
	char *args[4] = { NULL, NULL, NULL, NULL };
	static const char *const argnames[4] = { "table", "metadata_file", "map_from", "map_to" };
	BindCtx b;
	size_t i;
	Engine *e = s->engine;
	const char *ns;
	char *tbl, *dot;

	if (!strcmp(name, "rewrite_data_files") || !strcmp(name, "rewrite_position_delete_files"))
		return optimize_call(s, ctx, sql, cs, sink);
	{
		bool handled;   /* expire_snapshots, remove_orphan_files... (maintenance.c) */
		int rc = maintenance_call(s, ctx, sql, cs, sink, &handled);
		if (handled)
			return rc;
	}
	if (!strcmp(name, "rollback_to_snapshot") || !strcmp(name, "set_current_snapshot") ||
	    !strcmp(name, "rollback_to_timestamp"))
		return metatable_call(s, ctx, sql, cs, sink);
	if (strcmp(name, "register_table") != 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "procedure %s does not exist", name);
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = err;
	b.sql = sql;
	b.where = "CALL";
	for (i = 0; i < f->n_args; i++) {
		Node *n = f->args[i];
		int slot = (int)i;
		Expr *x;
		Value v;
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			int k;
			slot = -1;
			for (k = 0; k < 4; k++)
				if (!strcmp(n->named_arg_expr->name, argnames[k]))
					slot = k;
			if (slot < 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
						   "register_table has no argument named \"%s\"",
						   n->named_arg_expr->name);
			n = n->named_arg_expr->arg;
		}
		if (slot >= 4)
			return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
					   "register_table takes at most 4 arguments");
		if (!(x = bind_expr(&b, n)) || !(x = bind_coerce(&b, x, type_make(TYPE_TEXT), 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, ctx->env, ctx->arena, &v, err));
		if (v.is_null)
			return floe_errorf(err, ERRCODE_NULL_VALUE_NOT_ALLOWED, "register_table arguments must not be NULL");
		args[slot] = arena_strndup(ctx->arena, strview_data(&v.u.s), v.u.s.len);
	}
	if (!args[0] || !args[1])
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
				   "register_table(table, metadata_file [, map_from, map_to]) needs a table name and a metadata file");
	if (!args[2] != !args[3])
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "map_from and map_to go together");
	ns = NULL;
	tbl = args[0];
	if ((dot = strchr(args[0], '.'))) {
		*dot = 0;
		ns = args[0];
		tbl = dot + 1;
	}
	if (!ns && !(ns = search_path_creation(s, err)))
		return FLOE_ERR;
	TRY(ddl_check_namespace(s, ns, err));
	if (args[2]) {
		TRY(acl_check_location(s, args[3], err));
		TRY(add_path_map(e, args[2], args[3], err));
	}
	TRY(register_confined(s, ctx, args[1], err));
	TRY(table_register(e->catalog, e->io, ns, tbl, args[1], err));
	return engine_complete(sink, "CALL");
}

/* exec_threads(NULL) (the online CPUs, which sysconf reads from /sys on
 * every call), asked once per process. */
static int
default_threads(void)
{
	static _Atomic int n;
	int v = atomic_load_explicit(&n, memory_order_relaxed);

	if (!v) {
		v = exec_threads(NULL);
		atomic_store_explicit(&n, v, memory_order_relaxed);
	}
	return v;
}

static int bad_value(floe_error *err, const char *param, const char *value);
#ifndef ERRCODE_CANT_CHANGE_RUNTIME_PARAM
#define ERRCODE_CANT_CHANGE_RUNTIME_PARAM "55P02"   /* not in common/sqlstate.txt */
#endif

/* ---- PostgreSQL 15's configuration parameters ---------------------------
 * Every name PostgreSQL 15 knows (its pg_settings: name in lower case,
 * vartype b/i/r/s/e, context: u = SET-able by a session (user, superuser),
 * i internal, p postmaster, n any other; unit; boot value; integer range).
 * SET, RESET and SHOW of a name without a dot that is not here are 42704
 * as in PostgreSQL; a dotted name is a custom option (placeholder). */
typedef struct Guc {
	const char *name;
	char type, ctx;
	const char *unit, *boot;
	long long min, max;
} Guc;

static const Guc gucs[] = {
	{ "allow_in_place_tablespaces", 'b', 'u', "", "off", 0, 0 },
	{ "allow_system_table_mods", 'b', 'u', "", "off", 0, 0 },
	{ "application_name", 's', 'u', "", "", 0, 0 },
	{ "archive_cleanup_command", 's', 'n', "", "", 0, 0 },
	{ "archive_command", 's', 'n', "", "", 0, 0 },
	{ "archive_library", 's', 'n', "", "", 0, 0 },
	{ "archive_mode", 'e', 'p', "", "off", 0, 0 },
	{ "archive_timeout", 'i', 'n', "s", "0", 0LL, 1073741823LL },
	{ "array_nulls", 'b', 'u', "", "on", 0, 0 },
	{ "authentication_timeout", 'i', 'n', "s", "60", 1LL, 600LL },
	{ "autovacuum", 'b', 'n', "", "on", 0, 0 },
	{ "autovacuum_analyze_scale_factor", 'r', 'n', "", "0.1", 0, 0 },
	{ "autovacuum_analyze_threshold", 'i', 'n', "", "50", 0LL, 2147483647LL },
	{ "autovacuum_freeze_max_age", 'i', 'p', "", "200000000", 100000LL, 2000000000LL },
	{ "autovacuum_max_workers", 'i', 'p', "", "3", 1LL, 262143LL },
	{ "autovacuum_multixact_freeze_max_age", 'i', 'p', "", "400000000", 10000LL, 2000000000LL },
	{ "autovacuum_naptime", 'i', 'n', "s", "60", 1LL, 2147483LL },
	{ "autovacuum_vacuum_cost_delay", 'r', 'n', "ms", "2", 0, 0 },
	{ "autovacuum_vacuum_cost_limit", 'i', 'n', "", "-1", -1LL, 10000LL },
	{ "autovacuum_vacuum_insert_scale_factor", 'r', 'n', "", "0.2", 0, 0 },
	{ "autovacuum_vacuum_insert_threshold", 'i', 'n', "", "1000", -1LL, 2147483647LL },
	{ "autovacuum_vacuum_scale_factor", 'r', 'n', "", "0.2", 0, 0 },
	{ "autovacuum_vacuum_threshold", 'i', 'n', "", "50", 0LL, 2147483647LL },
	{ "autovacuum_work_mem", 'i', 'n', "kB", "-1", -1LL, 2147483647LL },
	{ "backend_flush_after", 'i', 'u', "8kB", "0", 0LL, 256LL },
	{ "backslash_quote", 'e', 'u', "", "safe_encoding", 0, 0 },
	{ "backtrace_functions", 's', 'u', "", "", 0, 0 },
	{ "bgwriter_delay", 'i', 'n', "ms", "200", 10LL, 10000LL },
	{ "bgwriter_flush_after", 'i', 'n', "8kB", "64", 0LL, 256LL },
	{ "bgwriter_lru_maxpages", 'i', 'n', "", "100", 0LL, 1073741823LL },
	{ "bgwriter_lru_multiplier", 'r', 'n', "", "2", 0, 0 },
	{ "block_size", 'i', 'i', "", "8192", 8192LL, 8192LL },
	{ "bonjour", 'b', 'p', "", "off", 0, 0 },
	{ "bonjour_name", 's', 'p', "", "", 0, 0 },
	{ "bytea_output", 'e', 'u', "", "hex", 0, 0 },
	{ "check_function_bodies", 'b', 'u', "", "on", 0, 0 },
	{ "checkpoint_completion_target", 'r', 'n', "", "0.9", 0, 0 },
	{ "checkpoint_flush_after", 'i', 'n', "8kB", "32", 0LL, 256LL },
	{ "checkpoint_timeout", 'i', 'n', "s", "300", 30LL, 86400LL },
	{ "checkpoint_warning", 'i', 'n', "s", "30", 0LL, 2147483647LL },
	{ "client_connection_check_interval", 'i', 'u', "ms", "0", 0LL, 2147483647LL },
	{ "client_encoding", 's', 'u', "", "SQL_ASCII", 0, 0 },
	{ "client_min_messages", 'e', 'u', "", "notice", 0, 0 },
	{ "cluster_name", 's', 'p', "", "", 0, 0 },
	{ "commit_delay", 'i', 'u', "", "0", 0LL, 100000LL },
	{ "commit_siblings", 'i', 'u', "", "5", 0LL, 1000LL },
	{ "compute_query_id", 'e', 'u', "", "auto", 0, 0 },
	{ "config_file", 's', 'p', "", "", 0, 0 },
	{ "constraint_exclusion", 'e', 'u', "", "partition", 0, 0 },
	{ "cpu_index_tuple_cost", 'r', 'u', "", "0.005", 0, 0 },
	{ "cpu_operator_cost", 'r', 'u', "", "0.0025", 0, 0 },
	{ "cpu_tuple_cost", 'r', 'u', "", "0.01", 0, 0 },
	{ "cursor_tuple_fraction", 'r', 'u', "", "0.1", 0, 0 },
	{ "data_checksums", 'b', 'i', "", "off", 0, 0 },
	{ "data_directory", 's', 'p', "", "", 0, 0 },
	{ "data_directory_mode", 'i', 'i', "", "448", 0LL, 511LL },
	{ "data_sync_retry", 'b', 'p', "", "off", 0, 0 },
	{ "datestyle", 's', 'u', "", "ISO, MDY", 0, 0 },
	{ "db_user_namespace", 'b', 'n', "", "off", 0, 0 },
	{ "deadlock_timeout", 'i', 'u', "ms", "1000", 1LL, 2147483647LL },
	{ "debug_assertions", 'b', 'i', "", "off", 0, 0 },
	{ "debug_discard_caches", 'i', 'u', "", "0", 0LL, 0LL },
	{ "debug_pretty_print", 'b', 'u', "", "on", 0, 0 },
	{ "debug_print_parse", 'b', 'u', "", "off", 0, 0 },
	{ "debug_print_plan", 'b', 'u', "", "off", 0, 0 },
	{ "debug_print_rewritten", 'b', 'u', "", "off", 0, 0 },
	{ "default_statistics_target", 'i', 'u', "", "100", 1LL, 10000LL },
	{ "default_table_access_method", 's', 'u', "", "heap", 0, 0 },
	{ "default_tablespace", 's', 'u', "", "", 0, 0 },
	{ "default_text_search_config", 's', 'u', "", "pg_catalog.simple", 0, 0 },
	{ "default_toast_compression", 'e', 'u', "", "pglz", 0, 0 },
	{ "default_transaction_deferrable", 'b', 'u', "", "off", 0, 0 },
	{ "default_transaction_isolation", 'e', 'u', "", "read committed", 0, 0 },
	{ "default_transaction_read_only", 'b', 'u', "", "off", 0, 0 },
	{ "dynamic_library_path", 's', 'u', "", "$libdir", 0, 0 },
	{ "dynamic_shared_memory_type", 'e', 'p', "", "posix", 0, 0 },
	{ "effective_cache_size", 'i', 'u', "8kB", "524288", 1LL, 2147483647LL },
	{ "effective_io_concurrency", 'i', 'u', "", "1", 0LL, 1000LL },
	{ "enable_async_append", 'b', 'u', "", "on", 0, 0 },
	{ "enable_bitmapscan", 'b', 'u', "", "on", 0, 0 },
	{ "enable_gathermerge", 'b', 'u', "", "on", 0, 0 },
	{ "enable_hashagg", 'b', 'u', "", "on", 0, 0 },
	{ "enable_hashjoin", 'b', 'u', "", "on", 0, 0 },
	{ "enable_incremental_sort", 'b', 'u', "", "on", 0, 0 },
	{ "enable_indexonlyscan", 'b', 'u', "", "on", 0, 0 },
	{ "enable_indexscan", 'b', 'u', "", "on", 0, 0 },
	{ "enable_material", 'b', 'u', "", "on", 0, 0 },
	{ "enable_memoize", 'b', 'u', "", "on", 0, 0 },
	{ "enable_mergejoin", 'b', 'u', "", "on", 0, 0 },
	{ "enable_nestloop", 'b', 'u', "", "on", 0, 0 },
	{ "enable_parallel_append", 'b', 'u', "", "on", 0, 0 },
	{ "enable_parallel_hash", 'b', 'u', "", "on", 0, 0 },
	{ "enable_partition_pruning", 'b', 'u', "", "on", 0, 0 },
	{ "enable_partitionwise_aggregate", 'b', 'u', "", "off", 0, 0 },
	{ "enable_partitionwise_join", 'b', 'u', "", "off", 0, 0 },
	{ "enable_seqscan", 'b', 'u', "", "on", 0, 0 },
	{ "enable_sort", 'b', 'u', "", "on", 0, 0 },
	{ "enable_tidscan", 'b', 'u', "", "on", 0, 0 },
	{ "escape_string_warning", 'b', 'u', "", "on", 0, 0 },
	{ "event_source", 's', 'p', "", "PostgreSQL", 0, 0 },
	{ "exit_on_error", 'b', 'u', "", "off", 0, 0 },
	{ "extension_destdir", 's', 'u', "", "", 0, 0 },
	{ "external_pid_file", 's', 'p', "", "", 0, 0 },
	{ "extra_float_digits", 'i', 'u', "", "1", -15LL, 3LL },
	{ "force_parallel_mode", 'e', 'u', "", "off", 0, 0 },
	{ "from_collapse_limit", 'i', 'u', "", "8", 1LL, 2147483647LL },
	{ "fsync", 'b', 'n', "", "on", 0, 0 },
	{ "full_page_writes", 'b', 'n', "", "on", 0, 0 },
	{ "geqo", 'b', 'u', "", "on", 0, 0 },
	{ "geqo_effort", 'i', 'u', "", "5", 1LL, 10LL },
	{ "geqo_generations", 'i', 'u', "", "0", 0LL, 2147483647LL },
	{ "geqo_pool_size", 'i', 'u', "", "0", 0LL, 2147483647LL },
	{ "geqo_seed", 'r', 'u', "", "0", 0, 0 },
	{ "geqo_selection_bias", 'r', 'u', "", "2", 0, 0 },
	{ "geqo_threshold", 'i', 'u', "", "12", 2LL, 2147483647LL },
	{ "gin_fuzzy_search_limit", 'i', 'u', "", "0", 0LL, 2147483647LL },
	{ "gin_pending_list_limit", 'i', 'u', "kB", "4096", 64LL, 2147483647LL },
	{ "hash_mem_multiplier", 'r', 'u', "", "2", 0, 0 },
	{ "hba_file", 's', 'p', "", "", 0, 0 },
	{ "hot_standby", 'b', 'p', "", "on", 0, 0 },
	{ "hot_standby_feedback", 'b', 'n', "", "off", 0, 0 },
	{ "huge_page_size", 'i', 'p', "kB", "0", 0LL, 2147483647LL },
	{ "huge_pages", 'e', 'p', "", "try", 0, 0 },
	{ "ident_file", 's', 'p', "", "", 0, 0 },
	{ "idle_in_transaction_session_timeout", 'i', 'u', "ms", "0", 0LL, 2147483647LL },
	{ "idle_session_timeout", 'i', 'u', "ms", "0", 0LL, 2147483647LL },
	{ "ignore_checksum_failure", 'b', 'u', "", "off", 0, 0 },
	{ "ignore_invalid_pages", 'b', 'p', "", "off", 0, 0 },
	{ "ignore_system_indexes", 'b', 'n', "", "off", 0, 0 },
	{ "in_hot_standby", 'b', 'i', "", "off", 0, 0 },
	{ "integer_datetimes", 'b', 'i', "", "on", 0, 0 },
	{ "intervalstyle", 'e', 'u', "", "postgres", 0, 0 },
	{ "is_superuser", 'b', 'i', "", "on", 0, 0 },
	{ "jit", 'b', 'u', "", "on", 0, 0 },
	{ "jit_above_cost", 'r', 'u', "", "100000", 0, 0 },
	{ "jit_debugging_support", 'b', 'n', "", "off", 0, 0 },
	{ "jit_dump_bitcode", 'b', 'u', "", "off", 0, 0 },
	{ "jit_expressions", 'b', 'u', "", "on", 0, 0 },
	{ "jit_inline_above_cost", 'r', 'u', "", "500000", 0, 0 },
	{ "jit_optimize_above_cost", 'r', 'u', "", "500000", 0, 0 },
	{ "jit_profiling_support", 'b', 'n', "", "off", 0, 0 },
	{ "jit_provider", 's', 'p', "", "llvmjit", 0, 0 },
	{ "jit_tuple_deforming", 'b', 'u', "", "on", 0, 0 },
	{ "join_collapse_limit", 'i', 'u', "", "8", 1LL, 2147483647LL },
	{ "krb_caseins_users", 'b', 'n', "", "off", 0, 0 },
	{ "krb_server_keyfile", 's', 'n', "", "FILE:/etc/postgresql-common/krb5.keytab", 0, 0 },
	{ "lc_collate", 's', 'i', "", "C", 0, 0 },
	{ "lc_ctype", 's', 'i', "", "C", 0, 0 },
	{ "lc_messages", 's', 'u', "", "", 0, 0 },
	{ "lc_monetary", 's', 'u', "", "C", 0, 0 },
	{ "lc_numeric", 's', 'u', "", "C", 0, 0 },
	{ "lc_time", 's', 'u', "", "C", 0, 0 },
	{ "listen_addresses", 's', 'p', "", "localhost", 0, 0 },
	{ "lo_compat_privileges", 'b', 'u', "", "off", 0, 0 },
	{ "local_preload_libraries", 's', 'u', "", "", 0, 0 },
	{ "lock_timeout", 'i', 'u', "ms", "0", 0LL, 2147483647LL },
	{ "log_autovacuum_min_duration", 'i', 'n', "ms", "600000", -1LL, 2147483647LL },
	{ "log_checkpoints", 'b', 'n', "", "on", 0, 0 },
	{ "log_connections", 'b', 'n', "", "off", 0, 0 },
	{ "log_destination", 's', 'n', "", "stderr", 0, 0 },
	{ "log_directory", 's', 'n', "", "log", 0, 0 },
	{ "log_disconnections", 'b', 'n', "", "off", 0, 0 },
	{ "log_duration", 'b', 'u', "", "off", 0, 0 },
	{ "log_error_verbosity", 'e', 'u', "", "default", 0, 0 },
	{ "log_executor_stats", 'b', 'u', "", "off", 0, 0 },
	{ "log_file_mode", 'i', 'n', "", "384", 0LL, 511LL },
	{ "log_filename", 's', 'n', "", "postgresql-%Y-%m-%d_%H%M%S.log", 0, 0 },
	{ "log_hostname", 'b', 'n', "", "off", 0, 0 },
	{ "log_line_prefix", 's', 'n', "", "%m [%p] ", 0, 0 },
	{ "log_lock_waits", 'b', 'u', "", "off", 0, 0 },
	{ "log_min_duration_sample", 'i', 'u', "ms", "-1", -1LL, 2147483647LL },
	{ "log_min_duration_statement", 'i', 'u', "ms", "-1", -1LL, 2147483647LL },
	{ "log_min_error_statement", 'e', 'u', "", "error", 0, 0 },
	{ "log_min_messages", 'e', 'u', "", "warning", 0, 0 },
	{ "log_parameter_max_length", 'i', 'u', "B", "-1", -1LL, 1073741823LL },
	{ "log_parameter_max_length_on_error", 'i', 'u', "B", "0", -1LL, 1073741823LL },
	{ "log_parser_stats", 'b', 'u', "", "off", 0, 0 },
	{ "log_planner_stats", 'b', 'u', "", "off", 0, 0 },
	{ "log_recovery_conflict_waits", 'b', 'n', "", "off", 0, 0 },
	{ "log_replication_commands", 'b', 'u', "", "off", 0, 0 },
	{ "log_rotation_age", 'i', 'n', "min", "1440", 0LL, 35791394LL },
	{ "log_rotation_size", 'i', 'n', "kB", "10240", 0LL, 2097151LL },
	{ "log_startup_progress_interval", 'i', 'n', "ms", "10000", 0LL, 2147483647LL },
	{ "log_statement", 'e', 'u', "", "none", 0, 0 },
	{ "log_statement_sample_rate", 'r', 'u', "", "1", 0, 0 },
	{ "log_statement_stats", 'b', 'u', "", "off", 0, 0 },
	{ "log_temp_files", 'i', 'u', "kB", "-1", -1LL, 2147483647LL },
	{ "log_timezone", 's', 'n', "", "GMT", 0, 0 },
	{ "log_transaction_sample_rate", 'r', 'u', "", "0", 0, 0 },
	{ "log_truncate_on_rotation", 'b', 'n', "", "off", 0, 0 },
	{ "logging_collector", 'b', 'p', "", "off", 0, 0 },
	{ "logical_decoding_work_mem", 'i', 'u', "kB", "65536", 64LL, 2147483647LL },
	{ "maintenance_io_concurrency", 'i', 'u', "", "10", 0LL, 1000LL },
	{ "maintenance_work_mem", 'i', 'u', "kB", "65536", 1024LL, 2147483647LL },
	{ "max_connections", 'i', 'p', "", "100", 1LL, 262143LL },
	{ "max_files_per_process", 'i', 'p', "", "1000", 64LL, 2147483647LL },
	{ "max_function_args", 'i', 'i', "", "100", 100LL, 100LL },
	{ "max_identifier_length", 'i', 'i', "", "63", 63LL, 63LL },
	{ "max_index_keys", 'i', 'i', "", "32", 32LL, 32LL },
	{ "max_locks_per_transaction", 'i', 'p', "", "64", 10LL, 2147483647LL },
	{ "max_logical_replication_workers", 'i', 'p', "", "4", 0LL, 262143LL },
	{ "max_parallel_maintenance_workers", 'i', 'u', "", "2", 0LL, 1024LL },
	{ "max_parallel_workers", 'i', 'u', "", "8", 0LL, 1024LL },
	{ "max_parallel_workers_per_gather", 'i', 'u', "", "2", 0LL, 1024LL },
	{ "max_pred_locks_per_page", 'i', 'n', "", "2", 0LL, 2147483647LL },
	{ "max_pred_locks_per_relation", 'i', 'n', "", "-2", -2147483648LL, 2147483647LL },
	{ "max_pred_locks_per_transaction", 'i', 'p', "", "64", 10LL, 2147483647LL },
	{ "max_prepared_transactions", 'i', 'p', "", "0", 0LL, 262143LL },
	{ "max_replication_slots", 'i', 'p', "", "10", 0LL, 262143LL },
	{ "max_slot_wal_keep_size", 'i', 'n', "MB", "-1", -1LL, 2147483647LL },
	{ "max_stack_depth", 'i', 'u', "kB", "61440", 100LL, 2147483647LL },   /* sql/stack_setting.h */
	{ "max_standby_archive_delay", 'i', 'n', "ms", "30000", -1LL, 2147483647LL },
	{ "max_standby_streaming_delay", 'i', 'n', "ms", "30000", -1LL, 2147483647LL },
	{ "max_sync_workers_per_subscription", 'i', 'n', "", "2", 0LL, 262143LL },
	{ "max_wal_senders", 'i', 'p', "", "10", 0LL, 262143LL },
	{ "max_wal_size", 'i', 'n', "MB", "1024", 2LL, 2147483647LL },
	{ "max_worker_processes", 'i', 'p', "", "8", 0LL, 262143LL },
	{ "min_dynamic_shared_memory", 'i', 'p', "MB", "0", 0LL, 2147483647LL },
	{ "min_parallel_index_scan_size", 'i', 'u', "8kB", "64", 0LL, 715827882LL },
	{ "min_parallel_table_scan_size", 'i', 'u', "8kB", "1024", 0LL, 715827882LL },
	{ "min_wal_size", 'i', 'n', "MB", "80", 2LL, 2147483647LL },
	{ "old_snapshot_threshold", 'i', 'p', "min", "-1", -1LL, 86400LL },
	{ "parallel_leader_participation", 'b', 'u', "", "on", 0, 0 },
	{ "parallel_setup_cost", 'r', 'u', "", "1000", 0, 0 },
	{ "parallel_tuple_cost", 'r', 'u', "", "0.1", 0, 0 },
	{ "password_encryption", 'e', 'u', "", "scram-sha-256", 0, 0 },
	{ "plan_cache_mode", 'e', 'u', "", "auto", 0, 0 },
	{ "port", 'i', 'p', "", "5432", 1LL, 65535LL },
	{ "post_auth_delay", 'i', 'n', "s", "0", 0LL, 2147LL },
	{ "pre_auth_delay", 'i', 'n', "s", "0", 0LL, 60LL },
	{ "primary_conninfo", 's', 'n', "", "", 0, 0 },
	{ "primary_slot_name", 's', 'n', "", "", 0, 0 },
	{ "promote_trigger_file", 's', 'n', "", "", 0, 0 },
	{ "quote_all_identifiers", 'b', 'u', "", "off", 0, 0 },
	{ "random_page_cost", 'r', 'u', "", "4", 0, 0 },
	{ "recovery_end_command", 's', 'n', "", "", 0, 0 },
	{ "recovery_init_sync_method", 'e', 'n', "", "fsync", 0, 0 },
	{ "recovery_min_apply_delay", 'i', 'n', "ms", "0", 0LL, 2147483647LL },
	{ "recovery_prefetch", 'e', 'n', "", "try", 0, 0 },
	{ "recovery_target", 's', 'p', "", "", 0, 0 },
	{ "recovery_target_action", 'e', 'p', "", "pause", 0, 0 },
	{ "recovery_target_inclusive", 'b', 'p', "", "on", 0, 0 },
	{ "recovery_target_lsn", 's', 'p', "", "", 0, 0 },
	{ "recovery_target_name", 's', 'p', "", "", 0, 0 },
	{ "recovery_target_time", 's', 'p', "", "", 0, 0 },
	{ "recovery_target_timeline", 's', 'p', "", "latest", 0, 0 },
	{ "recovery_target_xid", 's', 'p', "", "", 0, 0 },
	{ "recursive_worktable_factor", 'r', 'u', "", "10", 0, 0 },
	{ "remove_temp_files_after_crash", 'b', 'n', "", "on", 0, 0 },
	{ "restart_after_crash", 'b', 'n', "", "on", 0, 0 },
	{ "restore_command", 's', 'n', "", "", 0, 0 },
	{ "restrict_nonsystem_relation_kind", 's', 'u', "", "", 0, 0 },
	{ "role", 's', 'u', "", "none", 0, 0 },
	{ "row_security", 'b', 'u', "", "on", 0, 0 },
	{ "search_path", 's', 'u', "", "\"$user\", public", 0, 0 },
	{ "seed", 'r', 'u', "", "", 0, 0 },
	{ "segment_size", 'i', 'i', "8kB", "131072", 131072LL, 131072LL },
	{ "seq_page_cost", 'r', 'u', "", "1", 0, 0 },
	{ "server_encoding", 's', 'i', "", "SQL_ASCII", 0, 0 },
	{ "server_version", 's', 'i', "", "15.18 (Debian 15.18-0+deb12u1)", 0, 0 },
	{ "server_version_num", 'i', 'i', "", "150018", 150018LL, 150018LL },
	{ "session_authorization", 's', 'u', "", "", 0, 0 },
	{ "session_preload_libraries", 's', 'u', "", "", 0, 0 },
	{ "session_replication_role", 'e', 'u', "", "origin", 0, 0 },
	{ "shared_buffers", 'i', 'p', "8kB", "16384", 16LL, 1073741823LL },
	{ "shared_memory_size", 'i', 'i', "MB", "0", 0LL, 2147483647LL },
	{ "shared_memory_size_in_huge_pages", 'i', 'i', "", "-1", -1LL, 2147483647LL },
	{ "shared_memory_type", 'e', 'p', "", "mmap", 0, 0 },
	{ "shared_preload_libraries", 's', 'p', "", "", 0, 0 },
	{ "ssl", 'b', 'n', "", "off", 0, 0 },
	{ "ssl_ca_file", 's', 'n', "", "", 0, 0 },
	{ "ssl_cert_file", 's', 'n', "", "server.crt", 0, 0 },
	{ "ssl_ciphers", 's', 'n', "", "HIGH:MEDIUM:+3DES:!aNULL", 0, 0 },
	{ "ssl_crl_dir", 's', 'n', "", "", 0, 0 },
	{ "ssl_crl_file", 's', 'n', "", "", 0, 0 },
	{ "ssl_dh_params_file", 's', 'n', "", "", 0, 0 },
	{ "ssl_ecdh_curve", 's', 'n', "", "prime256v1", 0, 0 },
	{ "ssl_key_file", 's', 'n', "", "server.key", 0, 0 },
	{ "ssl_library", 's', 'i', "", "OpenSSL", 0, 0 },
	{ "ssl_max_protocol_version", 'e', 'n', "", "", 0, 0 },
	{ "ssl_min_protocol_version", 'e', 'n', "", "TLSv1.2", 0, 0 },
	{ "ssl_passphrase_command", 's', 'n', "", "", 0, 0 },
	{ "ssl_passphrase_command_supports_reload", 'b', 'n', "", "off", 0, 0 },
	{ "ssl_prefer_server_ciphers", 'b', 'n', "", "on", 0, 0 },
	{ "standard_conforming_strings", 'b', 'u', "", "on", 0, 0 },
	{ "statement_timeout", 'i', 'u', "ms", "0", 0LL, 2147483647LL },
	{ "stats_fetch_consistency", 'e', 'u', "", "cache", 0, 0 },
	{ "superuser_reserved_connections", 'i', 'p', "", "3", 0LL, 262143LL },
	{ "synchronize_seqscans", 'b', 'u', "", "on", 0, 0 },
	{ "synchronous_commit", 'e', 'u', "", "on", 0, 0 },
	{ "synchronous_standby_names", 's', 'n', "", "", 0, 0 },
	{ "syslog_facility", 'e', 'n', "", "local0", 0, 0 },
	{ "syslog_ident", 's', 'n', "", "postgres", 0, 0 },
	{ "syslog_sequence_numbers", 'b', 'n', "", "on", 0, 0 },
	{ "syslog_split_messages", 'b', 'n', "", "on", 0, 0 },
	{ "tcp_keepalives_count", 'i', 'u', "", "0", 0LL, 2147483647LL },
	{ "tcp_keepalives_idle", 'i', 'u', "s", "0", 0LL, 2147483647LL },
	{ "tcp_keepalives_interval", 'i', 'u', "s", "0", 0LL, 2147483647LL },
	{ "tcp_user_timeout", 'i', 'u', "ms", "0", 0LL, 2147483647LL },
	{ "temp_buffers", 'i', 'u', "8kB", "1024", 100LL, 1073741823LL },
	{ "temp_file_limit", 'i', 'u', "kB", "-1", -1LL, 2147483647LL },
	{ "temp_tablespaces", 's', 'u', "", "", 0, 0 },
	{ "timezone", 's', 'u', "", "GMT", 0, 0 },
	{ "timezone_abbreviations", 's', 'u', "", "", 0, 0 },
	{ "trace_notify", 'b', 'u', "", "off", 0, 0 },
	{ "trace_recovery_messages", 'e', 'n', "", "log", 0, 0 },
	{ "trace_sort", 'b', 'u', "", "off", 0, 0 },
	{ "track_activities", 'b', 'u', "", "on", 0, 0 },
	{ "track_activity_query_size", 'i', 'p', "B", "1024", 100LL, 1048576LL },
	{ "track_commit_timestamp", 'b', 'p', "", "off", 0, 0 },
	{ "track_counts", 'b', 'u', "", "on", 0, 0 },
	{ "track_functions", 'e', 'u', "", "none", 0, 0 },
	{ "track_io_timing", 'b', 'u', "", "off", 0, 0 },
	{ "track_wal_io_timing", 'b', 'u', "", "off", 0, 0 },
	{ "transaction_deferrable", 'b', 'u', "", "off", 0, 0 },
	{ "transaction_isolation", 'e', 'u', "", "read committed", 0, 0 },
	{ "transaction_read_only", 'b', 'u', "", "off", 0, 0 },
	{ "transform_null_equals", 'b', 'u', "", "off", 0, 0 },
	{ "unix_socket_directories", 's', 'p', "", "/var/run/postgresql", 0, 0 },
	{ "unix_socket_group", 's', 'p', "", "", 0, 0 },
	{ "unix_socket_permissions", 'i', 'p', "", "511", 0LL, 511LL },
	{ "update_process_title", 'b', 'u', "", "on", 0, 0 },
	{ "vacuum_cost_delay", 'r', 'u', "ms", "0", 0, 0 },
	{ "vacuum_cost_limit", 'i', 'u', "", "200", 1LL, 10000LL },
	{ "vacuum_cost_page_dirty", 'i', 'u', "", "20", 0LL, 10000LL },
	{ "vacuum_cost_page_hit", 'i', 'u', "", "1", 0LL, 10000LL },
	{ "vacuum_cost_page_miss", 'i', 'u', "", "2", 0LL, 10000LL },
	{ "vacuum_defer_cleanup_age", 'i', 'n', "", "0", 0LL, 1000000LL },
	{ "vacuum_failsafe_age", 'i', 'u', "", "1600000000", 0LL, 2100000000LL },
	{ "vacuum_freeze_min_age", 'i', 'u', "", "50000000", 0LL, 1000000000LL },
	{ "vacuum_freeze_table_age", 'i', 'u', "", "150000000", 0LL, 2000000000LL },
	{ "vacuum_multixact_failsafe_age", 'i', 'u', "", "1600000000", 0LL, 2100000000LL },
	{ "vacuum_multixact_freeze_min_age", 'i', 'u', "", "5000000", 0LL, 1000000000LL },
	{ "vacuum_multixact_freeze_table_age", 'i', 'u', "", "150000000", 0LL, 2000000000LL },
	{ "wal_block_size", 'i', 'i', "", "8192", 8192LL, 8192LL },
	{ "wal_buffers", 'i', 'p', "8kB", "-1", -1LL, 262143LL },
	{ "wal_compression", 'e', 'u', "", "off", 0, 0 },
	{ "wal_consistency_checking", 's', 'u', "", "", 0, 0 },
	{ "wal_decode_buffer_size", 'i', 'p', "B", "524288", 65536LL, 1073741823LL },
	{ "wal_init_zero", 'b', 'u', "", "on", 0, 0 },
	{ "wal_keep_size", 'i', 'n', "MB", "0", 0LL, 2147483647LL },
	{ "wal_level", 'e', 'p', "", "replica", 0, 0 },
	{ "wal_log_hints", 'b', 'p', "", "off", 0, 0 },
	{ "wal_receiver_create_temp_slot", 'b', 'n', "", "off", 0, 0 },
	{ "wal_receiver_status_interval", 'i', 'n', "s", "10", 0LL, 2147483LL },
	{ "wal_receiver_timeout", 'i', 'n', "ms", "60000", 0LL, 2147483647LL },
	{ "wal_recycle", 'b', 'u', "", "on", 0, 0 },
	{ "wal_retrieve_retry_interval", 'i', 'n', "ms", "5000", 1LL, 2147483647LL },
	{ "wal_segment_size", 'i', 'i', "B", "16777216", 1048576LL, 1073741824LL },
	{ "wal_sender_timeout", 'i', 'u', "ms", "60000", 0LL, 2147483647LL },
	{ "wal_skip_threshold", 'i', 'u', "kB", "2048", 0LL, 2147483647LL },
	{ "wal_sync_method", 'e', 'n', "", "fdatasync", 0, 0 },
	{ "wal_writer_delay", 'i', 'n', "ms", "200", 1LL, 10000LL },
	{ "wal_writer_flush_after", 'i', 'n', "8kB", "128", 0LL, 2147483647LL },
	{ "work_mem", 'i', 'u', "kB", "4096", 64LL, 2147483647LL },
	{ "xmlbinary", 'e', 'u', "", "base64", 0, 0 },
	{ "xmloption", 'e', 'u', "", "content", 0, 0 },
	{ "zero_damaged_pages", 'b', 'u', "", "off", 0, 0 },
};

static int
guc_cmp(const void *k, const void *e)
{
	return strcmp((const char *)k, ((const Guc *)e)->name);
}

static const Guc *
guc_find(const char *name)
{
	return bsearch(name, gucs, sizeof gucs / sizeof gucs[0], sizeof gucs[0], guc_cmp);
}

/* Units of integer settings (guc.c memory_unit_conversion_table and
 * time_unit_conversion_table), in bytes or microseconds, largest first. */
static const struct { const char *unit; double size; bool memory; } guc_units[] = {
	{ "TB", 1099511627776.0, true }, { "GB", 1073741824.0, true }, { "MB", 1048576.0, true },
	{ "kB", 1024.0, true }, { "B", 1.0, true },
	{ "d", 86400e6, false }, { "h", 3600e6, false }, { "min", 60e6, false },
	{ "s", 1e6, false }, { "ms", 1e3, false }, { "us", 1.0, false },
};
#define NGUC_UNITS ((int)(sizeof guc_units / sizeof guc_units[0]))

/* The size of a setting's base unit ("8kB" blocks, "ms", ...); 0: none. */
static double
guc_base(const char *unit, bool *memory)
{
	int i;
	if (!strcmp(unit, "8kB")) {
		*memory = true;
		return 8192.0;
	}
	for (i = 0; i < NGUC_UNITS; i++)
		if (!strcmp(unit, guc_units[i].unit)) {
			*memory = guc_units[i].memory;
			return guc_units[i].size;
		}
	return 0;
}

/* An integer setting's value as SHOW prints it (convert_int_from_base_unit):
 * a positive value in the largest unit that divides it exactly. */
static void
guc_int_text(const Guc *g, long long v, char *out, size_t cap)
{
	bool memory = false;
	double base = guc_base(g->unit, &memory);
	int i;

	if (v > 0 && base > 0)
		for (i = 0; i < NGUC_UNITS; i++) {
			double x = (double)v * base / guc_units[i].size;
			if (guc_units[i].memory != memory || guc_units[i].size < base ||
			    x != (double)(long long)x)
				continue;
			snprintf(out, cap, "%lld%s", (long long)x, guc_units[i].unit);
			return;
		}
	snprintf(out, cap, "%lld", v);
}

/* parse_int with units: a number, optional spaces, an optional unit (in
 * base units when none), rounded; 22023 as PostgreSQL words it. */
static int
guc_parse_int(const Guc *g, const char *value, char *out, size_t cap, floe_error *err)
{
	bool memory = false;
	double base = guc_base(g->unit, &memory), v;
	char *end;
	int i;

	errno = 0;
	if (!strncasecmp(value + strspn(value, " \t+-"), "0x", 2))
		v = (double)strtoll(value, &end, 16);
	else
		v = strtod(value, &end);
	if (end == value || errno == ERANGE || isnan(v) || isinf(v))
		return bad_value(err, g->name, value);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end) {
		const char *u = end;
		size_t n = strcspn(u, " \t\n");
		for (i = 0; i < NGUC_UNITS; i++)
			if (base > 0 && guc_units[i].memory == memory &&
			    strlen(guc_units[i].unit) == n && !strncmp(u, guc_units[i].unit, n))
				break;
		if (i == NGUC_UNITS || u[n + strspn(u + n, " \t\n")]) {
			bad_value(err, g->name, value);
			if (base > 0)
				floe_error_hint(err, memory ?
						"Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\"." :
						"Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".");
			return FLOE_ERR;
		}
		v = v * guc_units[i].size / base;
	}
	v = rint(v);
	if (v > 2147483647.0 || v < -2147483648.0) {
		bad_value(err, g->name, value);
		floe_error_hint(err, "Value exceeds integer range.");
		return FLOE_ERR;
	}
	if ((long long)v < g->min || (long long)v > g->max)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "%lld%s%s is outside the valid range for parameter \"%s\" (%lld .. %lld)",
				   (long long)v, g->unit[0] ? " " : "", g->unit, g->name, g->min, g->max);
	guc_int_text(g, (long long)v, out, cap);
	return FLOE_OK;
}

/* parse_bool: on/off/true/false/yes/no/1/0 and unique prefixes; "on"/"off" */
static int
guc_parse_bool(const Guc *g, const char *value, char *out, size_t cap, floe_error *err)
{
	static const char *const yes[] = { "true", "yes" }, *const no[] = { "false", "no" };
	size_t n = strlen(value);
	int r = -1, i;

	for (i = 0; i < 2 && n; i++) {
		if (!strncasecmp(value, yes[i], n))
			r = 1;
		if (!strncasecmp(value, no[i], n))
			r = 0;
	}
	if (!strcasecmp(value, "on") || !strcmp(value, "1"))
		r = 1;
	else if (!strcasecmp(value, "of") || !strcasecmp(value, "off") || !strcmp(value, "0"))
		r = 0;
	if (r < 0)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "parameter \"%s\" requires a Boolean value", g->name);
	snprintf(out, cap, "%s", r ? "on" : "off");
	return FLOE_OK;
}

/* SET / RESET of name: 42704 for a name PostgreSQL does not know (custom
 * "a.b" names are accepted), 55P02 for one a session cannot change. */
static int
guc_check_settable(const char *name, floe_error *err)
{
	const Guc *g;
	if (strchr(name, '.') || ingest_is_setting(name))
		return FLOE_OK;
	if (!(g = guc_find(name)))
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT,
				   "unrecognized configuration parameter \"%s\"", name);
	if (g->ctx == 'i')
		return floe_errorf(err, ERRCODE_CANT_CHANGE_RUNTIME_PARAM,
				   "parameter \"%s\" cannot be changed", name);
	if (g->ctx == 'p')
		return floe_errorf(err, ERRCODE_CANT_CHANGE_RUNTIME_PARAM,
				   "parameter \"%s\" cannot be changed without restarting the server", name);
	if (g->ctx == 'n')
		return floe_errorf(err, ERRCODE_CANT_CHANGE_RUNTIME_PARAM,
				   "parameter \"%s\" cannot be changed now", name);
	return FLOE_OK;
}

static const char *
setting_get(Session *s, const char *name)
{
	int i;
	if (!strcmp(name, "search_path")) {
		/* its "" is an empty path, not the default (search_path.h) */
		for (i = 0; i < s->nsettings; i++)
			if (!strcmp(s->settings_keys[i], name))
				return s->settings_values[i];
		return SEARCH_PATH_DEFAULT;
	}
	if (!strcmp(name, "timezone"))
		return datetime_zone_name(s->tz);
	bool reset = false;

	for (i = 0; i < s->nsettings; i++)
		if (!strcmp(s->settings_keys[i], name)) {
			if (s->settings_values[i][0])
				return s->settings_values[i];
			reset = true;   /* RESET stores "": the default below, if any */
			break;
		}
	/* (idle_session_timeout has none here: unset, floe serve's
	 * --idle-timeout applies) */
	if (!strcmp(name, "statement_timeout") || !strcmp(name, "lock_timeout") ||
	    !strcmp(name, "idle_in_transaction_session_timeout"))
		return "0";
	if (!strcmp(name, "datestyle"))
		return "ISO, MDY";
	if (!strcmp(name, "server_version"))
		return "15.0";
	if (!strcmp(name, "client_encoding") || !strcmp(name, "server_encoding"))
		return "UTF8";
	if (!strcmp(name, "standard_conforming_strings"))
		return "on";
	if (!strcmp(name, "transaction_isolation"))
		return "read committed";
	if (!strcmp(name, "extra_float_digits"))
		return "1";
	if (!strcmp(name, "max_parallel_workers_per_gather")) {
		static _Thread_local char buf[16];
		snprintf(buf, sizeof buf, "%d", default_threads() - 1);
		return buf;
	}
	if (!strcmp(name, "work_mem") || !strcmp(name, "floe.query_memory_limit")) {
		/* floe's defaults (spill.c), in PostgreSQL's unit style */
		static _Thread_local char buf[32];
		long long kb = (long long)((name[0] == 'w' ? exec_mem_limit(NULL)
					    : exec_query_mem_limit(NULL)) / 1024);
		if (kb % (1024 * 1024) == 0)
			snprintf(buf, sizeof buf, "%lldGB", kb / (1024 * 1024));
		else if (kb % 1024 == 0)
			snprintf(buf, sizeof buf, "%lldMB", kb / 1024);
		else
			snprintf(buf, sizeof buf, "%lldkB", kb);
		return buf;
	}
	if (ingest_setting_default(name))
		return ingest_setting_default(name);
	if (automaint_setting_default(name))
		return automaint_setting_default(name);
	if (snapshot_pin_setting_default(name))
		return snapshot_pin_setting_default(name);
	if (!strcmp(name, "floe.disabled_optimizers"))
		return "";   /* every optimizer pass runs (optimize/optimizer.h) */
	return reset ? "" : NULL;
}

/* The settings that change text output, installed as the calling thread's
 * (text.c extra_float_digits, datetime.c DateStyle / IntervalStyle) at
 * session entry and at each statement start, so SET, RESET and the end of
 * a block's SET LOCAL take effect from the next statement. */
static void
apply_output(Session *s)
{
	const char *v = setting_get(s, "extra_float_digits");
	DatetimeStyle st = { 0, 0, 0 };

	text_set_extra_float_digits(v && *v ? atoi(v) : 1);
	if ((v = setting_get(s, "datestyle")) && *v) {
		st.style = !strncmp(v, "SQL", 3) ? DATESTYLE_SQL : !strncmp(v, "Postgres", 8) ?
			DATESTYLE_POSTGRES : !strncmp(v, "German", 6) ? DATESTYLE_GERMAN : DATESTYLE_ISO;
		st.order = strstr(v, "DMY") ? DATEORDER_DMY : strstr(v, "YMD") ? DATEORDER_YMD :
			DATEORDER_MDY;
	}
	if ((v = setting_get(s, "intervalstyle")) && *v)
		st.interval = !strcmp(v, "postgres_verbose") ? INTSTYLE_POSTGRES_VERBOSE :
			!strcmp(v, "sql_standard") ? INTSTYLE_SQL_STANDARD :
			!strcmp(v, "iso_8601") ? INTSTYLE_ISO_8601 : INTSTYLE_POSTGRES;
	datetime_use_style(st);
}

/* Setting names are case-insensitive (SET "TimeZone" = SET timezone). */
static void
lower_name(char *name)
{
	for (; name && *name; name++)
		if (*name >= 'A' && *name <= 'Z')
			*name = (char)(*name + 32);
}

/* ---- setting values in PostgreSQL's canonical form ----------------------
 * SET (and the startup packet's settings, which pgwire applies as SET)
 * of the settings clients send at connect: their values are checked and
 * stored as PostgreSQL 15 shows (and reports with ParameterStatus) them
 * (guc.c's parse_int; variable.c's check_datestyle, check_client_encoding).
 * The output ones take effect through apply_output (text.c, datetime.c). */

static int
bad_value(floe_error *err, const char *param, const char *value)
{
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "invalid value for parameter \"%s\": \"%s\"", param, value);
}

/* DateStyle: comma-separated keywords; the output style and the field
 * order, each kept from cur when not given (GERMAN alone implies DMY). */
static int
canon_datestyle(const char *cur, const char *value, char *out, size_t cap, floe_error *err)
{
	const char *style = strncmp(cur, "SQL", 3) == 0 ? "SQL" : strncmp(cur, "Postgres", 8) == 0
		? "Postgres" : strncmp(cur, "German", 6) == 0 ? "German" : "ISO";
	const char *order = strstr(cur, "DMY") ? "DMY" : strstr(cur, "YMD") ? "YMD" : "MDY";
	const char *p = value, *new_style = NULL, *new_order = NULL;

	while (*p) {
		char w[32];
		size_t n = 0;
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		while (*p && *p != ',' && *p != ' ' && *p != '\t' && *p != '\n')
			if (n < sizeof w - 1)
				w[n++] = *p++;
			else
				return bad_value(err, "DateStyle", value);
		w[n] = 0;
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			return bad_value(err, "DateStyle", value);     /* list syntax */
		if (!n)
			return bad_value(err, "DateStyle", value);
		if (!strcasecmp(w, "iso") || !strcasecmp(w, "sql") || !strcasecmp(w, "postgres") ||
		    !strcasecmp(w, "german")) {
			const char *st = !strcasecmp(w, "iso") ? "ISO" : !strcasecmp(w, "sql") ? "SQL" :
				!strcasecmp(w, "postgres") ? "Postgres" : "German";
			if (new_style && strcmp(new_style, st))
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid value for parameter \"DateStyle\": \"%s\"", value);
			new_style = st;
		} else if (!strcasecmp(w, "ymd") || !strcasecmp(w, "dmy") || !strcasecmp(w, "euro") ||
			   !strcasecmp(w, "european") || !strcasecmp(w, "mdy") || !strcasecmp(w, "us") ||
			   !strcasecmp(w, "noneuro") || !strcasecmp(w, "noneuropean")) {
			const char *o = !strcasecmp(w, "ymd") ? "YMD" : (!strcasecmp(w, "dmy") ||
				!strcasecmp(w, "euro") || !strcasecmp(w, "european")) ? "DMY" : "MDY";
			if (new_order && strcmp(new_order, o))
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid value for parameter \"DateStyle\": \"%s\"", value);
			new_order = o;
		} else if (!strcasecmp(w, "default")) {
			new_style = new_style ? new_style : "ISO";
			new_order = new_order ? new_order : "MDY";
		} else {
			return bad_value(err, "DateStyle", value);
		}
	}
	if (new_style && !strcmp(new_style, "German") && !new_order)
		new_order = "DMY";
	snprintf(out, cap, "%s, %s", new_style ? new_style : style, new_order ? new_order : order);
	return FLOE_OK;
}

/* Letters and digits of a name, lower case ("UTF-8" -> "utf8"). */
static void
alnum_lower(const char *v, char *out, size_t cap)
{
	size_t n = 0;

	for (; *v && n < cap - 1; v++)
		if ((*v >= 'a' && *v <= 'z') || (*v >= '0' && *v <= '9'))
			out[n++] = *v;
		else if (*v >= 'A' && *v <= 'Z')
			out[n++] = (char)(*v + 32);
	out[n] = 0;
}

/* The canonical form of value for setting name into out (unchanged for
 * settings without one); FLOE_ERR (22023, 0A000) for a bad value. */
static int
canon_setting(Session *s, const char *name, const char *value, char *out, size_t cap,
	      floe_error *err)
{
	snprintf(out, cap, "%s", value);
	if (ingest_is_setting(name))
		return ingest_canon_setting(name, value, out, cap, err);
	if (automaint_is_setting(name))
		return automaint_canon_setting(name, value, out, cap, err);
	if (snapshot_pin_is_setting(name))
		return snapshot_pin_canon_setting(name, value, out, cap, err);
	if (!strcmp(name, "floe.disabled_optimizers"))
		return optimizer_canon_disabled(value, out, cap, err);
	if (!strcmp(name, "client_min_messages"))
		return client_messages_canon(value, out, cap, err);
	if (!strcmp(name, "datestyle")) {
		const char *cur = setting_get(s, "datestyle");
		return canon_datestyle(cur ? cur : "ISO, MDY", value, out, cap, err);
	}
	if (!strcmp(name, "client_encoding")) {
		char n[64];
		alnum_lower(value, n, sizeof n);
		if (!strcmp(n, "utf8") || !strcmp(n, "unicode"))
			snprintf(out, cap, "UTF8");
		else if (!strcmp(n, "sqlascii"))
			snprintf(out, cap, "SQL_ASCII");
		else
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "client_encoding \"%s\" is not supported: floe speaks UTF8", value);
		return FLOE_OK;
	}
	if (!strcmp(name, "intervalstyle")) {
		static const char *const styles[] = { "postgres", "postgres_verbose", "sql_standard",
						      "iso_8601" };
		for (int i = 0; i < 4; i++)
			if (!strcasecmp(value, styles[i])) {
				snprintf(out, cap, "%s", styles[i]);
				return FLOE_OK;
			}
		bad_value(err, "IntervalStyle", value);
		return floe_error_hint(err, "Available values: postgres, postgres_verbose, sql_standard, iso_8601.");
	}
	{
		/* integers (with units: "50" -> "50ms", "60s" -> "1min", "4096" ->
		 * "4MB") and booleans ("true" -> "on"), as SHOW prints them */
		static const Guc qml = { "floe.query_memory_limit", 'i', 'u', "kB", "", -1LL,
					 2147483647LL };
		const Guc *g = !strcmp(name, qml.name) ? &qml : strchr(name, '.') ? NULL : guc_find(name);
		if (g && g->type == 'i' && !strcmp(g->name, "max_stack_depth"))
			return guc_parse_int(g, value, out, cap, err) == FLOE_OK ? stack_setting_check(out, err)
										  : FLOE_ERR;
		if (g && g->type == 'i')
			return guc_parse_int(g, value, out, cap, err);
		if (g && g->type == 'b')
			return guc_parse_bool(g, value, out, cap, err);
	}
	return FLOE_OK;
}

/* sep and name into buf as PostgreSQL's quote_identifier prints a name
 * (quoted unless lower-case letters, digits, _ and $, not leading with a
 * digit or $); returns the length it needed */
static size_t
quote_name(char *buf, size_t cap, const char *sep, const char *name)
{
	char q[1100];
	const char *p;
	size_t n = 0;
	bool plain = (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';

	for (p = name; *p && plain; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '$';
	if (!plain) {
		q[n++] = '"';
		for (p = name; *p && n + 3 < sizeof q; p++) {
			if (*p == '"')
				q[n++] = '"';
			q[n++] = *p;
		}
		q[n++] = '"';
	}
	q[n] = 0;
	return (size_t)snprintf(buf, cap, "%s%s", sep, plain ? name : q);
}

/* name = value in the session's settings */
static int
setting_store(Session *s, const char *name, const char *value, floe_error *err)
{
	int k;
	for (k = 0; k < s->nsettings; k++)
		if (!strcmp(s->settings_keys[k], name))
			break;
	if (k == s->nsettings) {
		if (k == 32)
			return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many settings");
		s->settings_keys[k] = xstrdup(name);
		s->settings_values[k] = NULL;
		s->nsettings++;
	}
	free(s->settings_values[k]);
	s->settings_values[k] = xstrdup(value);
	return FLOE_OK;
}

/* SET; raw: set_config's one text value, taken as it is */
static int
set_stmt(Session *s, PgQuery__VariableSetStmt *vs, bool raw, ResultSink *sink, floe_error *err)
{
	char value[512] = "";
	size_t i, used = 0;
	int k;

	if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL) {
		/* every setting back to its default but the transaction's own
		 * and the role (GUC_NO_RESET_ALL) */
		for (k = 0; k < s->nsettings; k++) {
			const char *key = s->settings_keys[k];
			if (!strncmp(key, "transaction_", 12) || !strcmp(key, "role") ||
			    !strcmp(key, "session_authorization") || !strcmp(key, "floe.txn_retries"))
				continue;
			free(s->settings_values[k]);
			/* (search_path's "" is an empty path) */
			s->settings_values[k] = xstrdup(strcmp(key, "search_path") ? "" : SEARCH_PATH_DEFAULT);
		}
		TRY(datetime_set_timezone("UTC", err));
		s->tz = datetime_current_zone();
		return engine_complete(sink, "RESET");
	}
	if (vs->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE &&
	    vs->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT &&
	    vs->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_RESET)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this form of SET is not supported yet");
	lower_name(vs->name);
	TRY(guc_check_settable(vs->name, err));
	for (i = 0; i < vs->n_args; i++) {
		Node *n = vs->args[i];
		const char *part = "";
		char num[64];
		if (n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
			PgQuery__AConst *c = n->a_const;
			if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL)
				part = c->sval->sval;
			else if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
				snprintf(num, sizeof num, "%d", c->ival->ival);
				part = num;
			} else if (c->val_case == PG_QUERY__A__CONST__VAL_FVAL)
				part = c->fval->fval;
		} else if (n->node_case == PG_QUERY__NODE__NODE_STRING) {
			part = n->string->sval;
		} else if (n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && vs->n_args == 1 &&
			   !strcmp(vs->name, "timezone") && n->type_cast->arg &&
			   n->type_cast->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
			   n->type_cast->arg->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
			/* SET TIME ZONE INTERVAL '-08:00' [HOUR TO MINUTE]: hours east */
			const char *txt = n->type_cast->arg->a_const->sval->sval;
			Interval iv;
			char shown[DATETIME_BUF];
			TRY(datetime_parse_interval(txt, strlen(txt), &iv, err));
			if (iv.months || iv.days || iv.micros <= -16 * USECS_PER_HOUR ||
			    iv.micros >= 16 * USECS_PER_HOUR) {
				datetime_format_interval(iv, shown);
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid value for parameter \"TimeZone\": \"INTERVAL '%s'\"",
						   shown);
			}
			TRY(datetime_set_timezone_offset((int32_t)(iv.micros / USECS_PER_SEC), err));
			s->tz = datetime_current_zone();
			return engine_complete(sink, "SET");
		}
		used += (size_t)snprintf(value + used, sizeof value - used, "%s%s", i ? ", " : "", part);
		if (used >= sizeof value)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "setting value too long");
	}
	if (!strcmp(vs->name, "timezone")) {
		TRY(datetime_set_timezone(vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ? value : "UTC", err));
		s->tz = datetime_current_zone();
		return engine_complete(sink, vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET" : "SET");
	}
	if (!strcmp(vs->name, "search_path")) {
		/* the text as PostgreSQL keeps it: each name quoted as needed */
		if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE && !raw) {
			used = 0;
			for (i = 0; i < vs->n_args; i++) {
				Node *n = vs->args[i];
				const char *part = n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
					n->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL
					? n->a_const->sval->sval : NULL;
				if (!part)
					return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "invalid value for parameter \"search_path\": a name is needed");
				used += quote_name(value + used, sizeof value - used, i ? ", " : "", part);
				if (used >= sizeof value)
					return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "setting value too long");
			}
		}
		if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE)
			TRY(search_path_check(value, err));
		else
			snprintf(value, sizeof value, "%s", SEARCH_PATH_DEFAULT);
		TRY(setting_store(s, "search_path", value, err));
		return engine_complete(sink, vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET" : "SET");
	}
	if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE) {
		char canon[sizeof value];
		TRY(canon_setting(s, vs->name, value, canon, sizeof canon, err));
		memcpy(value, canon, sizeof value);
	}
	for (k = 0; k < s->nsettings; k++)
		if (!strcmp(s->settings_keys[k], vs->name))
			break;
	if (k == s->nsettings) {
		if (k == 32)
			return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many settings");
		s->settings_keys[k] = xstrdup(vs->name);
		s->settings_values[k] = NULL;
		s->nsettings++;
	}
	free(s->settings_values[k]);
	s->settings_values[k] = xstrdup(vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ? value : "");
	if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE && !settings_acted_on(vs->name) &&
	    !ingest_is_setting(vs->name)) {    /* read_consistency: the insert buffer's */
		/* sql/settings_noeffect.h: quiet only at the value floe runs as */
		const Guc *g = guc_find(vs->name);
		char dflt[sizeof value];
		floe_error ignore;
		if (!g || canon_setting(s, vs->name, g->boot, dflt, sizeof dflt, &ignore) != FLOE_OK ||
		    strcmp(dflt, value))
			settings_warn_noeffect(sink, vs->name);
	}
	return engine_complete(sink, vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET" : "SET");
}

static int
exec_set(Session *s, PgQuery__VariableSetStmt *vs, ResultSink *sink, floe_error *err)
{
	return set_stmt(s, vs, false, sink, err);
}

/* set_config() (sql/set_config.c): SET name = 'value' (value NULL: RESET)
 * through exec_set, its notices to sink (may be NULL), no command tag */
int
session_set_value(Session *s, const char *name, const char *value, ResultSink *sink,
		  floe_error *err)
{
	PgQuery__VariableSetStmt vs = PG_QUERY__VARIABLE_SET_STMT__INIT;
	PgQuery__Node arg = PG_QUERY__NODE__INIT, *args[1] = { &arg };
	PgQuery__AConst c = PG_QUERY__A__CONST__INIT;
	PgQuery__String str = PG_QUERY__STRING__INIT;
	ResultSink notices = { 0 };
	char low[128];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof low; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	if (sink) {
		notices.ctx = sink->ctx;
		notices.notice = sink->notice;
	}
	vs.name = low;
	vs.kind = value ? PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE : PG_QUERY__VARIABLE_SET_KIND__VAR_RESET;
	if (value) {
		str.sval = (char *)value;
		c.val_case = PG_QUERY__A__CONST__VAL_SVAL;
		c.sval = &str;
		arg.node_case = PG_QUERY__NODE__NODE_A_CONST;
		arg.a_const = &c;
		vs.n_args = 1;
		vs.args = args;
	}
	return set_stmt(s, &vs, true, &notices, err);
}

/* What SHOW name prints: the session's value, else PostgreSQL's default
 * of a setting floe does not change (integers with their unit); NULL: 42704. */
static const char *
show_value(Session *s, const char *name, char *buf, size_t cap)
{
	const char *v = setting_get(s, name);
	const Guc *g;

	if (!strcmp(name, "search_path"))
		return v;            /* "" is an empty path (search_path.h) */
	if ((!v || !*v) && !strcmp(name, "session_authorization"))
		v = pgcatalog_session_user(s);
	if ((!v || !*v) && !strchr(name, '.') && (g = guc_find(name))) {
		if (g->type == 'i' && g->unit[0]) {
			guc_int_text(g, atoll(g->boot), buf, cap);
			v = buf;
		} else {
			v = g->boot;
		}
	}
	return v;
}

/* SHOW's column: the setting's name as PostgreSQL spells it */
static const char *
show_column(const char *name)
{
	return !strcmp(name, "timezone") ? "TimeZone" : !strcmp(name, "datestyle") ? "DateStyle" :
		!strcmp(name, "intervalstyle") ? "IntervalStyle" : name;
}

const char *
session_show(Session *s, const char *name, char *buf, size_t cap)
{
	char low[128];
	size_t i;
	for (i = 0; name[i] && i + 1 < sizeof low; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	return show_value(s, low, buf, cap);
}



static int
exec_show(Session *s, ExecCtx *ctx, PgQuery__VariableShowStmt *vs, ResultSink *sink)
{
	const char *v;
	const char *names[1];
	SqlType t = type_make(TYPE_TEXT);
	Batch *b;
	char shown[64];

	lower_name(vs->name);
	if (!(v = show_value(s, vs->name, shown, sizeof shown)))
		return floe_errorf(ctx->err, ERRCODE_UNDEFINED_OBJECT,
				   "unrecognized configuration parameter \"%s\"", vs->name);
	names[0] = show_column(vs->name);
	b = batch_new(ctx->arena, 1, &t, 1);
	vector_set_string(&b->cols[0], 0, v, (uint32_t)strlen(v));
	b->count = 1;
	if (sink && sink->columns)
		sink->columns(sink->ctx, 1, names, &t);
	if (sink && sink->batch)
		sink->batch(sink->ctx, b);
	return engine_complete(sink, "SHOW");
}

/* ---- dispatch ---------------------------------------------------------- */

static int
exec_stmt(Session *s, const char *sql, SqlStmt *st, Arena *a, ResultSink *sink, floe_error *err)
{
	ExecCtx ctx;
	Node *n = st->node;

	{
		/* now() / current_timestamp are the statement's start time */
		struct timespec ts;
		int64_t us;
		clock_gettime(CLOCK_REALTIME, &ts);
		us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
		func_set_statement_time(us);
		search_path_reset(s);   /* schemas made or dropped since count */
		TRY(usertype_refresh(s, err));   /* enums, domains: the catalog's */
		datetime_set_statement_now(us);
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = a;
	ctx.io = s->engine->io;
	ctx.err = err;
	ctx.cancel = s->cancel_flag;
	ctx.mem_limit = exec_mem_limit(setting_get(s, "work_mem"));
	ctx.threads = exec_threads(setting_get(s, "max_parallel_workers_per_gather"));
	ctx.mem = memacct_current();
	ctx.env = acl_statement_env(s, a);
	/* what can spill spills before the statement's limit is reached */
	if (memacct_limit(ctx.mem) > 0 && ctx.mem_limit > memacct_limit(ctx.mem) / 4)
		ctx.mem_limit = memacct_limit(ctx.mem) / 4;
	{
		const char *ic = setting_get(s, "ignore_checksum_failure");
		ctx.ignore_checksums = ic && !strcmp(ic, "on");
	}
	apply_output(s);
	TRY(acl_check_stmt(s, &ctx, st));
	if (views_owns(n))   /* CREATE VIEW, ALTER VIEW (views.c) */
		return views_exec(s, &ctx, sql, n, sink);
	if (function_owns(n))   /* CREATE / DROP FUNCTION, DO (function.c) */
		return function_exec(s, &ctx, sql, st, n, sink);
	if (usertype_owns(n))   /* enums and domains (usertype.c, domain.c) */
		return usertype_exec(s, &ctx, sql, n, sink);

	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_SELECT_STMT: {
		SelectPlan p;
		int64_t rows;
		char tag[64];
		TRY(select_plan(s, &ctx, sql, n, &p));
		TRY(txn_lock_plan(s, &ctx, &p));
		TRY(run_plan(s, &ctx, &p, sink, &rows));
		snprintf(tag, sizeof tag, "SELECT %lld", (long long)rows);
		return engine_complete(sink, tag);
	}
	case PG_QUERY__NODE__NODE_INSERT_STMT:
		return insert_exec(s, &ctx, sql, n->insert_stmt, sql_is_insert_overwrite(sql, st),
				   sink);
	case PG_QUERY__NODE__NODE_CREATE_STMT:
		return ddl_create_table(s, sql, n->create_stmt, a, sink, err);
	case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
		return insert_ctas(s, &ctx, sql, n->create_table_as_stmt, sink);
	case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
		return ddl_alter_table(s, &ctx, sql, n->alter_table_stmt, sink);
	case PG_QUERY__NODE__NODE_RENAME_STMT:
		return alter_rename(s, &ctx, sql, n->rename_stmt, sink);
	case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT:
		return alter_set_schema(s, &ctx, n->alter_object_schema_stmt, sink);
	case PG_QUERY__NODE__NODE_COMMENT_STMT:
		return alter_comment(s, &ctx, n->comment_stmt, sink);
	case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
		return ddl_create_schema(s, n->create_schema_stmt, sink, err);
	case PG_QUERY__NODE__NODE_DROP_STMT:
		if (n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE)
			return seq_drop_stmt(s, n->drop_stmt, sink, err);
		return ddl_drop(s, n->drop_stmt, a, sink, err);
	case PG_QUERY__NODE__NODE_PREPARE_STMT:
		return prepare_stmt(s, sql, st, n->prepare_stmt, sink, err);
	case PG_QUERY__NODE__NODE_EXECUTE_STMT:
		return prepare_execute(s, sql, n->execute_stmt, sink, err);
	case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
		return prepare_deallocate(s, n->deallocate_stmt, sink, err);
	case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
		return cursor_declare(s, &ctx, sql, st, n->declare_cursor_stmt, sink);
	case PG_QUERY__NODE__NODE_FETCH_STMT:
		return cursor_fetch(s, &ctx, n->fetch_stmt, sink);
	case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT:
		return cursor_close(s, n->close_portal_stmt, sink, err);
	case PG_QUERY__NODE__NODE_DISCARD_STMT:   /* DISCARD TEMP / ALL / ... (temp.c) */
		return temp_discard_stmt(s, n->discard_stmt, sink, err);
	case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
		return seq_create_stmt(s, n->create_seq_stmt, sink, err);
	case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
		return seq_alter_stmt(s, n->alter_seq_stmt, sink, err);
	case PG_QUERY__NODE__NODE_CALL_STMT:
		return exec_call(s, &ctx, sql, n->call_stmt, sink);
	case PG_QUERY__NODE__NODE_VACUUM_STMT:   /* OPTIMIZE (optimize.c), VACUUM, ANALYZE */
		{
			bool deletes_only;
			if (!sql_is_optimize(sql, st, &deletes_only))
				return maintenance_vacuum(s, &ctx, sql, st, n->vacuum_stmt, sink);
		}
		return optimize_stmt(s, &ctx, sql, st, n->vacuum_stmt, sink);
	case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
		return exec_set(s, n->variable_set_stmt, sink, ctx.err);
	case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
		return exec_show(s, &ctx, n->variable_show_stmt, sink);
	case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
		return txn_exec(s, &ctx, n->transaction_stmt, sink);
	case PG_QUERY__NODE__NODE_UPDATE_STMT:
		return dml_update(s, &ctx, sql, n->update_stmt, sink);
	case PG_QUERY__NODE__NODE_DELETE_STMT:
		return dml_delete(s, &ctx, sql, n->delete_stmt, sink);
	case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
		return dml_truncate(s, &ctx, sql, n->truncate_stmt, sink);
	case PG_QUERY__NODE__NODE_MERGE_STMT:
		return merge_exec(s, &ctx, sql, n->merge_stmt, sink);
	case PG_QUERY__NODE__NODE_COPY_STMT:
		return copy_exec(s, &ctx, sql, n->copy_stmt, sink);
	case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
	case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
	case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
	case PG_QUERY__NODE__NODE_GRANT_STMT:
	case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
		return acl_exec(s, &ctx, n, sink);
	case PG_QUERY__NODE__NODE_EXPLAIN_STMT: {
		/* select_plan plans EXPLAIN [ANALYZE] into one text column */
		SelectPlan p;
		int64_t rows;
		TRY(select_plan(s, &ctx, sql, n, &p));
		TRY(run_plan(s, &ctx, &p, sink, &rows));
		return engine_complete(sink, "EXPLAIN");
	}
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "this statement is not supported yet");
	}
}

/* An arena of session_exec: the session's own (reset after use), or a new
 * one in a nested call (freed after use). */
static Arena *
exec_arena(Session *s, bool own, Arena **slot, size_t hint)
{
	if (!own)
		return arena_new(hint);
	if (!*slot)
		*slot = arena_new(hint);
	return *slot;
}

/* ... and after use: one that grew past 1 MB is freed all the same (a
 * reset would keep up to 16 MB of its chunks for the session). */
static void
exec_arena_done(bool own, Arena **slot, Arena *a)
{
	if (own && arena_bytes(a) <= ((size_t)1 << 20)) {
		arena_reset(a);
		return;
	}
	arena_free(a);
	if (own)
		*slot = NULL;
}

/* A top-level statement's memory account (floe.query_memory_limit;
 * common/arena.h): its arena and every arena made while it runs, in any
 * thread, are charged to it.  NULL when one is current already (a nested
 * statement shares its caller's). */
static MemAccount *
stmt_account_begin(Session *s, Arena *a)
{
	MemAccount *m;

	if (memacct_current())
		return NULL;
	m = memacct_new(exec_query_mem_limit(setting_get(s, "floe.query_memory_limit")));
	memacct_set_current(m);
	arena_set_account(a, m);
	return m;
}

/* ... after the statement's arena was reset or freed (a: the arena if it
 * was kept, else NULL); the last arena made under m frees it. */
static void
stmt_account_end(MemAccount *m, Arena *a)
{
	if (!m)
		return;
	if (a)
		arena_set_account(a, NULL);
	memacct_set_current(NULL);
	memacct_unref(m);
}

static bool split_run(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc);

static int
session_exec_run(Session *s, const char *sql, ResultSink *sink, floe_error *err)
{
	bool own = !s->exec_busy;
	Arena *parse_arena = exec_arena(s, own, &s->exec_parse_arena, 64 * 1024);
	SqlStmt *stmts;
	int n, i, rc = FLOE_OK;

	s->exec_busy = true;
	floe_error_clear(err);
	s->cancel = 0;
	session_enter(s);
	if (ingest_utility(s, sql, sink, err, &rc) ||     /* SHOW/FLUSH INSERT BUFFER ... */
	    automaint_utility(s, sql, sink, err, &rc) ||  /* SHOW MAINTENANCE STATUS */
	    stage_utility(s, sql, sink, err, &rc) ||      /* LIST @stage */
	    infer_template_utility(s, sql, sink, err, &rc) ||   /* CREATE TABLE ... USING TEMPLATE */
	    ingest_fast_insert(s, sql, sink, err, &rc)) {  /* INSERT ... VALUES of literals */
		exec_arena_done(own, &s->exec_parse_arena, parse_arena);
		s->exec_busy = !own;
		return rc;
	}
	if (sql_parse(sql, parse_arena, &stmts, &n, err) != FLOE_OK) {
		exec_arena_done(own, &s->exec_parse_arena, parse_arena);
		if (own && split_run(s, sql, sink, err, &rc)) {
			s->exec_busy = false;
			return rc;
		}
		s->exec_busy = !own;
		txn_after_statement(s, false);     /* a syntax error fails a block too */
		return FLOE_ERR;
	}
	if (n == 0 && sink && sink->complete)
		sink->complete(sink->ctx, "");
	for (i = 0; i < n && rc == FLOE_OK; i++) {
		Arena *a = exec_arena(s, own, &s->exec_stmt_arena, 256 * 1024);
		MemAccount *acct = stmt_account_begin(s, a);
		int attempt;
		if (own && n > 1)
			txn_implicit_begin(s);      /* txn.c rule 11 */
		for (attempt = 0;; attempt++) {
			WriteTurn *turn = NULL;
			char key[1024];
			const char *target;
			rc = txn_before_statement(s, stmts[i].node, sink, err);
			if (rc == FLOE_OK && (target = write_target(s, stmts[i].node, key, sizeof key)) &&
			    !ingest_skip_turn(s, sql, &stmts[i]))
				rc = write_turn_take(s, target, &turn, err);
			if (rc == FLOE_OK)
				rc = ingest_before_stmt(s, sql, &stmts[i], err);
			if (rc == FLOE_OK)
				rc = exec_stmt(s, sql, &stmts[i], a, sink, err);
			if (rc != FLOE_OK)   /* a write to a view: say so (views.c) */
				views_write_error(s, stmts[i].node, a, err);
			ingest_after_stmt(s, &stmts[i], rc == FLOE_OK);
			snapshot_pin_after_stmt(s, stmts[i].node);   /* a write ends the pins */
			write_turn_give(s, turn);
			/* READ COMMITTED re-runs an autocommit statement that lost
			 * a write conflict (nothing of it was sent or committed) */
			if (rc == FLOE_OK || !txn_retry_statement(s, err, attempt))
				break;
			arena_reset(a);
			floe_error_clear(err);
		}
		txn_after_statement(s, rc == FLOE_OK);
		if (session_txn_status(s) == 'I')   /* a transaction ended: ON COMMIT (temp.h) */
			temp_txn_end(s, rc == FLOE_OK);
		exec_arena_done(own, &s->exec_stmt_arena, a);
		stmt_account_end(acct, own ? s->exec_stmt_arena : NULL);
	}
	if (own && n > 1) {
		floe_error e2;
		floe_error_clear(&e2);
		if (txn_implicit_end(s, rc == FLOE_OK, &e2) != FLOE_OK && rc == FLOE_OK) {
			*err = e2;
			rc = FLOE_ERR;
		}
		if (session_txn_status(s) == 'I')
			temp_txn_end(s, rc == FLOE_OK);
	}
	exec_arena_done(own, &s->exec_parse_arena, parse_arena);
	s->exec_busy = !own;
	return rc;
}

/* A query string libpg_query cannot parse whole may be several statements
 * of which some are floe's own (FLUSH INSERT BUFFER, LIST @stage, COPY
 * INTO ..., handled before the parser): split it as PostgreSQL's scanner
 * does and run the pieces one by one in one implicit block (txn.c rule
 * 11), an error's position counted in the whole string.  false: it is one
 * statement (or none), and its error stands. */
static bool
split_run(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc)
{
	int *loc, *len;
	int i, n = sql_split(sql, &loc, &len);

	if (n < 2) {
		free(loc);
		free(len);
		return false;
	}
	*rc = FLOE_OK;
	floe_error_clear(err);
	for (i = 0; i < n && *rc == FLOE_OK; i++) {
		char *piece = xmalloc((size_t)len[i] + 1);
		memcpy(piece, sql + loc[i], (size_t)len[i]);
		piece[len[i]] = '\0';
		txn_implicit_begin(s);
		*rc = session_exec_run(s, piece, sink, err);
		free(piece);
		if (*rc != FLOE_OK && err->position > 0) {
			int k, chars = 0;     /* characters, not bytes, before the piece */
			for (k = 0; k < loc[i]; k++)
				chars += ((unsigned char)sql[k] & 0xC0) != 0x80;
			err->position += chars;
		}
	}
	free(loc);
	free(len);
	{
		floe_error e2;
		floe_error_clear(&e2);
		if (txn_implicit_end(s, *rc == FLOE_OK, &e2) != FLOE_OK && *rc == FLOE_OK) {
			*err = e2;
			*rc = FLOE_ERR;
		}
		if (session_txn_status(s) == 'I')
			temp_txn_end(s, *rc == FLOE_OK);
	}
	return true;
}

/* statement_timeout (sql/stmt_timer.h): armed by the top-level call, so it
 * fires whoever embeds the engine */
int
session_exec(Session *s, const char *sql, ResultSink *sink, floe_error *err)
{
	int64_t us = s->exec_busy ? 0 : engine_duration_us(setting_get(s, "statement_timeout"));
	volatile int *prev = interrupt_set(s->cancel_flag);    /* S3 waits poll it */
	StmtTimer t;
	ClientMessages cm;     /* client_min_messages (sql/client_messages.h) */
	ResultSink *prev_sink = s->msg_sink;
	int rc;

	if (!s->exec_busy)
		stack_setting_apply(setting_get(s, "max_stack_depth"));
	if (sink && !s->exec_busy) {
		client_messages_wrap(&cm, s, sink);
		sink = &cm.sink;
		s->msg_sink = sink;
	}
	if (us <= 0) {
		rc = session_exec_run(s, sql, sink, err);
		interrupt_set(prev);
		s->msg_sink = prev_sink;
		if (!s->exec_busy)
			temp_session_enter(NULL);   /* no session's pg_temp between statements */
		return rc;
	}
	s->cancel = 0;
	stmt_timer_arm(&t, s->cancel_flag, us);
	rc = session_exec_run(s, sql, sink, err);
	if (stmt_timer_disarm(&t) && rc != FLOE_OK && floe_error_is(err, ERRCODE_QUERY_CANCELED))
		floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to statement timeout");
	interrupt_set(prev);
	s->msg_sink = prev_sink;
	if (!s->exec_busy)
		temp_session_enter(NULL);   /* no session's pg_temp between statements */
	return rc;
}

/* ---- introspection for the shell -------------------------------------- */

int
engine_list_tables(Session *s, Arena *a, TableInfo **tables, int *n, floe_error *err)
{
	Catalog *cat = s->engine->catalog;
	char **nss;
	int nns, i, k, cap = 16;

	*n = 0;
	*tables = ARENA_ARRAY(a, TableInfo, cap);
	TRY(catalog_list_namespaces(cat, a, &nss, &nns, err));
	for (i = 0; i < nns; i++) {
		char **names;
		int nt;
		TRY(catalog_list_tables(cat, nss[i], a, &names, &nt, err));
		for (k = 0; k < nt; k++) {
			if (*n == cap) {
				*tables = arena_realloc(a, *tables, sizeof(TableInfo) * (size_t)cap,
							sizeof(TableInfo) * (size_t)cap * 2);
				cap *= 2;
			}
			(*tables)[*n].schema = nss[i];
			(*tables)[*n].name = names[k];
			(*n)++;
		}
	}
	return FLOE_OK;
}

int
engine_describe_table(Session *s, const char *qname, Arena *a, ColumnInfo **cols, int *n,
		      floe_error *err)
{
	Engine *e = s->engine;
	const char *ns, *name = qname, *dot = strchr(qname, '.');
	Table *t;
	const IcebergSchema *schema;
	int i;

	if (dot) {
		ns = arena_strndup(a, qname, (size_t)(dot - qname));
		name = dot + 1;
	} else {
		ns = search_path_lookup(s, qname);
	}
	if (table_load(e->catalog, e->io, ns, name, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "Did not find any relation named \"%s\".", qname);
		return FLOE_ERR;
	}
	schema = metadata_current_schema(t->md);
	*n = schema->nfields;
	*cols = ARENA_ARRAY(a, ColumnInfo, schema->nfields + 1);
	for (i = 0; i < schema->nfields; i++) {
		(*cols)[i].name = schema->fields[i].name;
		(*cols)[i].type = schema->fields[i].type;
		(*cols)[i].not_null = schema->fields[i].required;
		(*cols)[i].default_sql = schema->fields[i].default_sql;
	}
	return FLOE_OK;
}

/* ==== pgwire support (server/): parameters and Describe ===================
 * session_exec_params, session_describe, engine_type_from_pg_oid,
 * session_setting.  The
 * parameters live in the Session only for the duration of the call;
 * bind_expr.c's ParamRef case reads them (Session.nparams ...). */

int
engine_type_from_pg_oid(uint32_t oid, SqlType *out, floe_error *err)
{
	switch (oid) {
	case 16: *out = type_make(TYPE_BOOL); return FLOE_OK;
	case 21: *out = type_make(TYPE_INT16); return FLOE_OK;
	case 23: *out = type_make(TYPE_INT32); return FLOE_OK;
	case 20: *out = type_make(TYPE_INT64); return FLOE_OK;
	case 700: *out = type_make(TYPE_FLOAT32); return FLOE_OK;
	case 701: *out = type_make(TYPE_FLOAT64); return FLOE_OK;
	case 1700: *out = type_decimal(0, 0); return FLOE_OK;
	case 19:   /* name */
	case 25: *out = type_make(TYPE_TEXT); return FLOE_OK;
	case 1043:
		*out = type_make(TYPE_TEXT);
		out->text_kind = TEXT_VARCHAR;
		return FLOE_OK;
	case 1042:       /* bpchar: no length (typmod -1), not char(1) */
		*out = type_make(TYPE_TEXT);
		out->text_kind = TEXT_CHAR;
		out->typmod = -1;
		return FLOE_OK;
	case 17: *out = type_make(TYPE_BYTEA); return FLOE_OK;
	case 1082: *out = type_make(TYPE_DATE); return FLOE_OK;
	case 1083: *out = type_make(TYPE_TIME); return FLOE_OK;
	case 1114: *out = type_make(TYPE_TIMESTAMP); return FLOE_OK;
	case 1184: *out = type_make(TYPE_TIMESTAMPTZ); return FLOE_OK;
	case 1186: *out = type_make(TYPE_INTERVAL); return FLOE_OK;
	case 2950: *out = type_make(TYPE_UUID); return FLOE_OK;
	case 114: *out = type_json(false); return FLOE_OK;
	case 3802: *out = type_json(true); return FLOE_OK;
	case 4072: *out = type_jsonpath(); return FLOE_OK;
	default:
		if (type_array_elem_oid(oid)) {
			/* int4[] ...: an array of the element type (types/array.h) */
			TRY(engine_type_from_pg_oid(type_array_elem_oid(oid), out, err));
			if (out->id == TYPE_DECIMAL)
				out->scale = NUMERIC_DEFAULT_SCALE;   /* as array_of */
			out->elem = (uint8_t)out->id;
			out->id = TYPE_ARRAY;
			return FLOE_OK;
		}
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "parameters of type OID %u are not supported yet", oid);
	}
}

static int
check_param_oids(int nparams, const uint32_t *oids, floe_error *err)
{
	int i;
	SqlType t;
	for (i = 0; oids && i < nparams; i++)
		if (oids[i] != 0 && oids[i] != 705 && engine_type_from_pg_oid(oids[i], &t, err) != FLOE_OK)
			return FLOE_ERR;
	return FLOE_OK;
}

int
session_exec_params(Session *s, const char *sql, int nparams, const char *const *values,
		    const uint32_t *param_oids, ResultSink *sink, floe_error *err)
{
	int rc;

	floe_error_clear(err);
	if (nparams < 0 || check_param_oids(nparams, param_oids, err) != FLOE_OK)
		return nparams < 0 ? floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION, "negative parameter count")
				   : FLOE_ERR;
	s->nparams = nparams;
	s->param_values = values;
	s->param_oids = param_oids;
	s->params_describe = false;
	rc = session_exec(s, sql, sink, err);
	s->nparams = 0;
	s->param_values = NULL;
	s->param_oids = NULL;
	return rc;
}

/* ---- parameter type inference for DML (session_describe) ---------------
 *
 * SELECT's parameters are typed by the binder (bind_coerce records the
 * type each unspecified $n is coerced to).  DML without RETURNING is not
 * bound while describing, so its common shapes are read off the parse
 * tree against the target table's columns: INSERT ... VALUES ($n, ...)
 * (the column at that position), UPDATE ... SET c = $n, and c op $n /
 * $n op c / c IN ($n, ...) anywhere in WHERE (c a column of the target).
 * The first type found for a parameter wins, as in PostgreSQL.
 */
typedef struct InferCtx {
	const IcebergSchema *schema;
	SqlType *types;
	int n;
} InferCtx;

static const IcebergField *
infer_column(const InferCtx *ic, Node *n)
{
	PgQuery__ColumnRef *cr;
	Node *last;
	int i;

	if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
		return NULL;
	cr = n->column_ref;
	if (cr->n_fields == 0 || cr->n_fields > 3)
		return NULL;
	last = cr->fields[cr->n_fields - 1];
	if (last->node_case != PG_QUERY__NODE__NODE_STRING)
		return NULL;
	for (i = 0; i < ic->schema->nfields; i++)
		if (!strcmp(ic->schema->fields[i].name, last->string->sval))
			return &ic->schema->fields[i];
	return NULL;
}

/* compare: in a comparison varchar has no operators of its own, so the
 * parameter resolves to text (an assignment keeps varchar) */
static void
infer_set(InferCtx *ic, Node *n, const IcebergField *f, bool compare)
{
	int k;

	if (!f || !n || n->node_case != PG_QUERY__NODE__NODE_PARAM_REF)
		return;
	k = n->param_ref->number;
	if (k >= 1 && k <= ic->n && ic->types[k - 1].id == TYPE_NULL) {
		ic->types[k - 1] = f->type;
		if (compare && f->type.id == TYPE_TEXT && f->type.text_kind == TEXT_VARCHAR)
			ic->types[k - 1].text_kind = TEXT_PLAIN;
	}
}

static int
infer_walk(const ProtobufCMessage *m, void *arg)
{
	InferCtx *ic = arg;

	if (m->descriptor == &pg_query__node__descriptor) {
		Node *n = (Node *)m;
		if (n->node_case == PG_QUERY__NODE__NODE_A_EXPR) {
			PgQuery__AExpr *ae = n->a_expr;
			const IcebergField *l = infer_column(ic, ae->lexpr);
			const IcebergField *r = infer_column(ic, ae->rexpr);
			infer_set(ic, ae->rexpr, l, true);
			infer_set(ic, ae->lexpr, r, true);
			if (l && ae->rexpr && ae->rexpr->node_case == PG_QUERY__NODE__NODE_LIST) {
				size_t i;
				for (i = 0; i < ae->rexpr->list->n_items; i++)
					infer_set(ic, ae->rexpr->list->items[i], l, true);
			}
		}
	}
	return sql_children(m, infer_walk, arg);
}

/* Parse's checks of a $n assigned to column f by INSERT ... VALUES, as
 * PostgreSQL makes them whatever the values: a declared type the column
 * has no assignment cast from is 42804 (bound and coerced as at the run:
 * bind_coerce_column); an unspecified $n assigned to columns of two types
 * is 42P08. */
static int
infer_insert_check(Session *s, Arena *a, const char *sql, Node *item, const IcebergField *f,
		   const SqlType *types, floe_error *err)
{
	BindCtx b;
	int k = item->param_ref->number;
	uint32_t oid;

	if (k < 1 || k > s->nparams)
		return FLOE_OK;      /* 42P02: the run's */
	oid = s->param_oids ? s->param_oids[k - 1] : 0;
	if (oid == 0 || oid == 705) {
		char b1[64], b2[64];
		SqlType had = types[k - 1];
		if (had.id == TYPE_NULL || type_pg_oid_of(had) == type_pg_oid_of(f->type))
			return FLOE_OK;
		floe_errorf(err, ERRCODE_AMBIGUOUS_PARAMETER, "inconsistent types deduced for parameter $%d", k);
		floe_error_detail(err, "%s versus %s", func_type_name(had, b1, sizeof b1),
				  func_type_name(f->type, b2, sizeof b2));
		memset(&b, 0, sizeof b);
		b.sql = sql;
		floe_error_position(err, bind_location(&b, item->param_ref->location));
		return FLOE_ERR;
	}
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	b.sql = sql;
	b.where = "VALUES";
	{
		Expr *x = bind_expr(&b, item);
		if (!x || !bind_coerce_column(&b, x, f))
			return FLOE_ERR;
	}
	return FLOE_OK;
}

static int
infer_dml_params(Session *s, Arena *a, const char *sql, Node *stmt, int nparams, SqlType *types,
		 floe_error *err)
{
	PgQuery__RangeVar *rv = NULL;
	const char *ns, *name;
	Table *t;
	floe_error e1;
	InferCtx ic;
	size_t i, j;

	if (nparams <= 0)
		return FLOE_OK;
	if (stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT)
		rv = stmt->insert_stmt->relation;
	else if (stmt->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT)
		rv = stmt->update_stmt->relation;
	else if (stmt->node_case == PG_QUERY__NODE__NODE_DELETE_STMT)
		rv = stmt->delete_stmt->relation;
	if (!rv)
		return FLOE_OK;
	session_resolve_name(s, rv, &ns, &name);
	if (txn_table_load(s, ns, name, a, &t, &e1) != FLOE_OK)
		return FLOE_OK;          /* describing still works; the run reports it */
	ic.schema = metadata_current_schema(t->md);
	ic.types = types;
	ic.n = nparams;
	if (stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT) {
		PgQuery__InsertStmt *is = stmt->insert_stmt;
		PgQuery__SelectStmt *sel = is->select_stmt &&
			is->select_stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT
			? is->select_stmt->select_stmt : NULL;
		for (i = 0; sel && i < sel->n_values_lists; i++) {
			Node *row = sel->values_lists[i];
			if (row->node_case != PG_QUERY__NODE__NODE_LIST)
				continue;
			for (j = 0; j < row->list->n_items; j++) {
				const IcebergField *f = NULL;
				if (is->n_cols) {
					if (j < is->n_cols && is->cols[j]->node_case == PG_QUERY__NODE__NODE_RES_TARGET) {
						int c;
						for (c = 0; c < ic.schema->nfields; c++)
							if (!strcmp(ic.schema->fields[c].name, is->cols[j]->res_target->name))
								f = &ic.schema->fields[c];
					}
				} else if ((int)j < ic.schema->nfields) {
					f = &ic.schema->fields[j];
				}
				if (f && row->list->items[j]->node_case == PG_QUERY__NODE__NODE_PARAM_REF)
					TRY(infer_insert_check(s, a, sql, row->list->items[j], f, types, err));
				infer_set(&ic, row->list->items[j], f, false);
			}
		}
		return FLOE_OK;
	}
	if (stmt->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT) {
		PgQuery__UpdateStmt *us = stmt->update_stmt;
		for (i = 0; i < us->n_target_list; i++) {
			PgQuery__ResTarget *rt;
			int c;
			if (us->target_list[i]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
				continue;
			rt = us->target_list[i]->res_target;
			for (c = 0; c < ic.schema->nfields; c++)
				if (rt->name && !strcmp(ic.schema->fields[c].name, rt->name))
					infer_set(&ic, rt->val, &ic.schema->fields[c], false);
		}
		if (us->where_clause)
			infer_walk(&us->where_clause->base, &ic);
		return FLOE_OK;
	}
	if (stmt->delete_stmt->where_clause)
		infer_walk(&stmt->delete_stmt->where_clause->base, &ic);
	return FLOE_OK;
}

static int
describe_run(Session *s, const char *sql, int nparams, const uint32_t *param_oids,
		 Arena *out_arena, SqlDescription *out, floe_error *err)
{
	Arena *a;
	SqlStmt *stmts;
	int n, rc = FLOE_OK, i;

	memset(out, 0, sizeof *out);
	out->ncols = -1;
	floe_error_clear(err);
	session_enter(s);
	TRY(check_param_oids(nparams, param_oids, err));
	a = arena_new(64 * 1024);
	if (sql_parse(sql, a, &stmts, &n, err) != FLOE_OK) {
		arena_free(a);
		return FLOE_ERR;
	}
	out->nstmts = n;
	if (n > 1) {
		arena_free(a);
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "cannot insert multiple commands into a prepared statement");
	}
	if (n == 1 && stmts[0].node->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT) {
		/* one text column named as exec_show names it */
		const char *name = stmts[0].node->variable_show_stmt->name;
		char shown[64];
		lower_name(stmts[0].node->variable_show_stmt->name);
		if (!show_value(s, name, shown, sizeof shown)) {
			floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
			arena_free(a);
			return FLOE_ERR;
		}
		out->ncols = 1;
		out->names = ARENA_ARRAY(out_arena, char *, 1);
		out->types = ARENA_ARRAY(out_arena, SqlType, 1);
		out->names[0] = arena_strdup(out_arena, show_column(name));
		out->types[0] = type_make(TYPE_TEXT);
	}
	if (n == 1)   /* OPTIMIZE / CALL rewrite_*: one metrics row (optimize.c) */
		optimize_describe(sql, &stmts[0], out_arena, &out->ncols, &out->names, &out->types);
	if (n == 1)   /* FETCH: the cursor's columns (cursor.c) */
		cursor_describe(s, &stmts[0], out_arena, &out->ncols, &out->names, &out->types);
	if (n == 1)   /* CALL expire_snapshots / remove_orphan_files (maintenance.c) */
		maintenance_describe(&stmts[0], out_arena, &out->ncols, &out->names, &out->types);
	if (n == 1 && (stmts[0].node->node_case == PG_QUERY__NODE__NODE_SELECT_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_EXPLAIN_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_DELETE_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_INSERT_STMT)) {
		ExecCtx ctx;
		SelectPlan p;
		PgQuery__Node__NodeCase nc = stmts[0].node->node_case;
		bool dml = nc != PG_QUERY__NODE__NODE_SELECT_STMT && nc != PG_QUERY__NODE__NODE_EXPLAIN_STMT;
		/* FOR UPDATE/SHARE are optimistic table locks txn.c takes when the
		 * statement runs; they do not change the result's shape */
		PgQuery__SelectStmt *sel = nc == PG_QUERY__NODE__NODE_SELECT_STMT
					   ? stmts[0].node->select_stmt : NULL;
		size_t nlock = sel ? sel->n_locking_clause : 0;

		memset(&ctx, 0, sizeof ctx);
		ctx.arena = a;
		ctx.io = s->engine->io;
		ctx.err = err;
		ctx.cancel = s->cancel_flag;
		ctx.env = acl_statement_env(s, a);
		s->nparams = nparams;
		s->param_values = NULL;
		s->param_oids = param_oids;
		s->params_describe = true;
		s->param_inferred = ARENA_ARRAY(a, SqlType, nparams + 1);
		s->nparam_inferred = nparams;
		if (dml) {
			rc = infer_dml_params(s, a, sql, stmts[0].node, nparams, s->param_inferred, err);
			if (rc == FLOE_OK)
				rc = dml_describe(s, &ctx, sql, stmts[0].node, &p.ncols, &p.names, &p.types);
		} else {
			if (sel)
				sel->n_locking_clause = 0;
			rc = select_plan(s, &ctx, sql, stmts[0].node, &p);
			if (sel)
				sel->n_locking_clause = nlock;
		}
		s->nparams = 0;
		s->param_oids = NULL;
		s->params_describe = false;
		if (rc == FLOE_OK && nparams > 0) {
			out->nparams = nparams;
			out->param_types = ARENA_ARRAY(out_arena, SqlType, nparams);
			memcpy(out->param_types, s->param_inferred, sizeof(SqlType) * (size_t)nparams);
		}
		s->param_inferred = NULL;
		s->nparam_inferred = 0;
		if (rc == FLOE_OK && p.ncols >= 0) {
			out->ncols = p.ncols;
			out->names = ARENA_ARRAY(out_arena, char *, p.ncols + 1);
			out->types = ARENA_ARRAY(out_arena, SqlType, p.ncols + 1);
			for (i = 0; i < p.ncols; i++) {
				out->names[i] = arena_strdup(out_arena, p.names[i]);
				out->types[i] = p.types[i];
			}
		}
	}
	arena_free(a);
	return rc;
}

int
session_describe(Session *s, const char *sql, int nparams, const uint32_t *param_oids,
		 Arena *a, SqlDescription *out, floe_error *err)
{
	int rc = describe_run(s, sql, nparams, param_oids, a, out, err);
	if (!s->exec_busy)
		temp_session_enter(NULL);   /* no session's pg_temp between statements */
	return rc;
}

/* A duration setting's value in microseconds (PostgreSQL's units, no unit
 * = ms: statement_timeout, idle_*_timeout); 0 for none or unparsable. */
int64_t
engine_duration_us(const char *v)
{
	char *end;
	double d;
	if (!v || !*v)
		return 0;
	d = strtod(v, &end);
	while (*end == ' ')
		end++;
	if (d <= 0 || d > 1e12)
		return 0;
	if (!*end || !strcmp(end, "ms"))
		return (int64_t)(d * 1000);
	if (!strcmp(end, "us"))
		return (int64_t)d;
	if (!strcmp(end, "s"))
		return (int64_t)(d * 1e6);
	if (!strcmp(end, "min"))
		return (int64_t)(d * 60e6);
	if (!strcmp(end, "h"))
		return (int64_t)(d * 3600e6);
	if (!strcmp(end, "d"))
		return (int64_t)(d * 86400e6);
	return 0;
}

const char *
session_setting(Session *s, const char *name)
{
	return setting_get(s, name);
}
