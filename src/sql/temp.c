/*
 * temp.c — a session's temporary tables (see temp.h for the design):
 * the pg_temp namespace and its scratch folder, name resolution's hook,
 * CREATE TEMP TABLE's target, ON COMMIT actions, DISCARD TEMP and the
 * clean-up at session end.
 *
 * Why an Iceberg table in a scratch folder rather than a row store: every
 * path that reads or writes a table (scans with pruning and deletes,
 * INSERT / UPDATE / DELETE / MERGE / TRUNCATE / COPY, RETURNING, the
 * transaction block's staging) takes a Table loaded through the catalog
 * and FileIO; a temporary table that is one of those, registered only in
 * the session's own map (temp_catalog.c) and written only to local disk,
 * gets all of them at once, with no per-statement commit to the shared
 * catalog and nothing in the warehouse.
 *
 * INTERFACE ROUTINES: temp.h.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <ftw.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sql/sequence.h"
#include "sql/search_path.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "table/metadata.h"
#include "table/table.h"

static atomic_int next_ns = 1;    /* pg_temp_<n>: unique in this process */

void
temp_session_enter(Session *s)
{
	temp__set_session(s);
}

static TempTable *
find(TempState *t, const char *name)
{
	int i;
	for (i = 0; t && i < t->ntabs; i++)
		if (!strcmp(t->tabs[i].name, name))
			return &t->tabs[i];
	return NULL;
}

/* The session's temp namespace and scratch folder, made at first use. */
static int
ensure_state(Session *s, floe_error *err)
{
	TempState *t;
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (s->temp)
		return FLOE_OK;
	if (!tmp || !tmp[0])
		tmp = "/tmp";
	if (asprintf(&dir, "%s/floe-temp-%ld-XXXXXX", tmp, (long)getpid()) < 0)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	if (!mkdtemp(dir)) {
		floe_errorf(err, ERRCODE_IO_ERROR, "could not create the temporary tables' folder \"%s\": %s",
			    dir, strerror(errno));
		free(dir);
		return FLOE_ERR;
	}
	t = xcalloc(1, sizeof *t);
	snprintf(t->ns, sizeof t->ns, "pg_temp_%d", atomic_fetch_add(&next_ns, 1));
	t->dir = dir;
	s->temp = t;
	return FLOE_OK;
}

const char *
temp_namespace(Session *s, floe_error *err)
{
	return ensure_state(s, err) == FLOE_OK ? s->temp->ns : NULL;
}

bool
temp_has_table(Session *s, const char *name)
{
	return find(s->temp, name) != NULL;
}

bool
temp_has(Session *s, const char *name)
{
	return find(s->temp, name) || temp__find_seq(s->temp, name) || temp__find_view(s->temp, name);
}

TempView *
temp__find_view(TempState *t, const char *name)
{
	int i;
	for (i = 0; t && i < t->nviews; i++)
		if (!strcmp(t->views[i].name, name))
			return &t->views[i];
	return NULL;
}

void
temp__free_views(TempState *t)
{
	int i;
	for (i = 0; t && i < t->nviews; i++) {
		free(t->views[i].name);
		free(t->views[i].loc);
		free(t->views[i].mark.dropped);
	}
	if (t) {
		free(t->views);
		t->views = NULL;
		t->nviews = 0;
	}
}

const char *
temp_view_location(Session *s, Arena *a)
{
	static atomic_int vseq = 0;
	return s->temp ? arena_sprintf(a, "%s/v%d", s->temp->dir, atomic_fetch_add(&vseq, 1)) : NULL;
}

TempSeq *
temp__find_seq(TempState *t, const char *name)
{
	int i;
	for (i = 0; t && i < t->nseqs; i++)
		if (!strcmp(t->seqs[i].name, name))
			return &t->seqs[i];
	return NULL;
}

/* Drop the sequences owned by table owner ("owner.col"), every one when
 * owner is NULL. */
void
temp__free_seqs(TempState *t, const char *owner)
{
	int i;
	size_t n = owner ? strlen(owner) : 0;

	for (i = 0; t && i < t->nseqs; i++) {
		TempSeq *x = &t->seqs[i];
		if (owner && !(x->q.owned_by && !strncmp(x->q.owned_by, owner, n) && x->q.owned_by[n] == '.'))
			continue;
		free(x->name);
		free(x->q.owned_by);
		free(x->mark.dropped);
		memmove(x, x + 1, sizeof *x * (size_t)(t->seqs + t->nseqs - x - 1));
		t->nseqs--;
		i--;
	}
	if (t && !t->nseqs) {
		free(t->seqs);
		t->seqs = NULL;
	}
}

const char *
temp_resolve(Session *s, const char *schema, const char *name)
{
	const char *w;
	if (schema && schema[0])
		return !strcmp(schema, "pg_temp") ? (s->temp ? s->temp->ns : "pg_temp") : NULL;
	if (!find(s->temp, name))
		return NULL;
	/* first unless search_path places pg_temp after a schema holding it */
	w = search_path_find(s, name);
	return w && !strcmp(w, s->temp->ns) ? s->temp->ns : NULL;
}

int
temp_create_target(Session *s, const PgQuery__RangeVar *rv, const char **ns, bool *is_temp,
		   const char **loc, Arena *a, floe_error *err)
{
	const char *sch = rv->schemaname && rv->schemaname[0] ? rv->schemaname : NULL;
	bool temp = rv->relpersistence && rv->relpersistence[0] == 't';
	static atomic_int seq = 0;

	*is_temp = false;
	*loc = NULL;
	if (sch && (!strcmp(sch, "pg_temp") || (s->temp && !strcmp(sch, s->temp->ns))))
		temp = true;
	else if (sch && temp)
		return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
				   "cannot create temporary relation in non-temporary schema");
	else if (sch && temp_is_temp_ns(sch))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot create relations in temporary schemas of other sessions");
	if (!temp) {
		*ns = sch ? sch : search_path_creation(s, err);
		if (!*ns)
			return FLOE_ERR;
		/* search_path led by pg_temp: the relation is temporary, as
		 * PostgreSQL's RangeVarAdjustRelationPersistence makes it */
		if (!s->temp || strcmp(*ns, s->temp->ns))
			return FLOE_OK;
	}
	TRY(ensure_state(s, err));
	*ns = s->temp->ns;
	*is_temp = true;
	*loc = arena_sprintf(a, "%s/t%d", s->temp->dir, atomic_fetch_add(&seq, 1));
	return FLOE_OK;
}

int
temp_on_commit(int pg_oncommit, int *out, floe_error *err)
{
	(void)err;
	switch (pg_oncommit) {
	case PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DELETE_ROWS:
		*out = TEMP_ON_COMMIT_DELETE;
		break;
	case PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DROP:
		*out = TEMP_ON_COMMIT_DROP;
		break;
	default:
		*out = TEMP_ON_COMMIT_PRESERVE;
	}
	return FLOE_OK;
}

int
temp_created(Session *s, const char *name, int on_commit, floe_error *err)
{
	TempTable *x = find(s->temp, name);

	if (!x)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "temporary table \"%s\" is not registered", name);
	x->on_commit = on_commit;
	x->in_block = session_txn_status(s) != 'I';
	x->sp_depth = txn_savepoint_depth(s);
	return FLOE_OK;
}

int
temp_drop(Session *s, const char *name, floe_error *err)
{
	static atomic_int hidden = 0;
	TempTable *x = find(s->temp, name);
	char buf[48];

	if (!x)
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "table \"%s\" does not exist", name);
	/* a name no SQL identifier has (a control character) */
	snprintf(buf, sizeof buf, "\x01dropped-%d", atomic_fetch_add(&hidden, 1));
	x->dropped = x->name;
	x->name = xstrdup(buf);
	x->drop_depth = txn_savepoint_depth(s);
	return FLOE_OK;
}

/* A table dropped in the block is back under its name. */
static void
undrop(TempTable *x)
{
	free(x->name);
	x->name = x->dropped;
	x->dropped = NULL;
}

/* Drop one temporary table and its files. */
static void
drop_one(Session *s, const char *name)
{
	Engine *e = s->engine;
	floe_error ignore;
	char *n = xstrdup(name);

	TempTable *x;

	if ((x = find(s->temp, n)))   /* its serials' sequences (temp.h) */
		temp__free_seqs(s->temp, x->dropped ? x->dropped : x->name);
	if (table_drop(e->catalog, e->io, s->temp->ns, n, true, &ignore) != FLOE_OK)
		(void)e->catalog->vt->drop_table(e->catalog, s->temp->ns, n, &ignore);
	if ((x = find(s->temp, n))) {   /* never left behind: the map entry goes */
		free(x->name);
		free(x->dropped);
		free(x->loc);
		memmove(x, x + 1, sizeof *x * (size_t)(s->temp->tabs + s->temp->ntabs - x - 1));
		s->temp->ntabs--;
	}
	free(n);
}

static int
noop_complete(void *ctx, const char *tag)
{
	(void)ctx;
	(void)tag;
	return 0;
}

/* ON COMMIT DELETE ROWS: a TRUNCATE when the table holds rows. */
static void
empty_one(Session *s, const char *name)
{
	Engine *e = s->engine;
	Arena *a = arena_new(0);
	floe_error err;
	Table *t;
	const Snapshot *sn;
	const char *total;
	ResultSink sink;

	if (table_load(e->catalog, e->io, s->temp->ns, name, a, &t, &err) == FLOE_OK &&
	    (sn = metadata_current_snapshot(t->md)) &&
	    (!(total = metadata_summary_get(sn, "total-records")) || strcmp(total, "0"))) {
		memset(&sink, 0, sizeof sink);
		sink.complete = noop_complete;
		(void)session_exec(s, arena_sprintf(a, "TRUNCATE %s.%s", s->temp->ns, search_path_quote(a, name)),
				   &sink, &err);
	}
	arena_free(a);
}

/* A block mark at the end of savepoint level k (-1: of the whole block,
 * committed or not): what becomes of its sequence or view. */
enum { MARK_KEEP, MARK_FORGET, MARK_UNDROP };

static int
mark_end(TempBlockMark *m, int k, bool rollback)
{
	if (m->in_block && m->sp_depth > k) {
		if (rollback)
			return MARK_FORGET;   /* made since: gone */
		if (k < 0)
			m->in_block = false;
		else
			m->sp_depth = k;
	}
	if (m->dropped && m->drop_depth > k) {
		if (rollback)
			return MARK_UNDROP;   /* dropped since: back */
		if (k < 0)
			return MARK_FORGET;   /* the DROP commits */
		m->drop_depth = k;
	}
	return MARK_KEEP;
}

static void
undrop_mark(TempBlockMark *m, char **name)
{
	free(*name);
	*name = m->dropped;
	m->dropped = NULL;
}

/* The temporary sequences and views at the end of savepoint level k (-1:
 * the block): those made since go at a rollback, those dropped since come
 * back; a commit makes the DROPs final (temp.h). */
static void
objs_end(TempState *t, int k, bool rollback)
{
	int i, pass;

	/* forget first, so a name made since is free for the undropped */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; t && i < t->nseqs; i++) {
			TempSeq *x = &t->seqs[i];
			TempBlockMark m = x->mark;
			int what = mark_end(&m, k, rollback);
			if (pass == 0 && what == MARK_FORGET) {
				free(x->name);
				free(x->q.owned_by);
				free(x->mark.dropped);
				memmove(x, x + 1, sizeof *x * (size_t)(t->seqs + t->nseqs - x - 1));
				t->nseqs--;
				i--;
			} else if (pass == 1) {
				x->mark = m;
				if (what == MARK_UNDROP)
					undrop_mark(&x->mark, &x->name);
			}
		}
		for (i = 0; t && i < t->nviews; i++) {
			TempView *x = &t->views[i];
			TempBlockMark m = x->mark;
			int what = mark_end(&m, k, rollback);
			if (pass == 0 && what == MARK_FORGET) {
				free(x->name);
				free(x->loc);
				free(x->mark.dropped);
				memmove(x, x + 1, sizeof *x * (size_t)(t->views + t->nviews - x - 1));
				t->nviews--;
				i--;
			} else if (pass == 1) {
				x->mark = m;
				if (what == MARK_UNDROP)
					undrop_mark(&x->mark, &x->name);
			}
		}
	}
}

/* ROLLBACK TO savepoint k drops the temporary tables created since it
 * and brings back those dropped since; RELEASE k makes both belong to the
 * enclosing level. */
void
temp_savepoint_end(Session *s, int k, bool rollback)
{
	TempState *t = s->temp;
	int i;

	for (i = 0; t && i < t->ntabs; i++) {
		TempTable *x = &t->tabs[i];
		if (!x->in_block || x->sp_depth <= k)
			continue;
		if (rollback) {
			drop_one(s, x->name);
			i--;
		} else {
			x->sp_depth = k;
		}
	}
	for (i = 0; t && i < t->ntabs; i++) {   /* after: a name made since is free */
		TempTable *x = &t->tabs[i];
		if (!x->dropped || x->drop_depth <= k)
			continue;
		if (rollback)
			undrop(x);
		else
			x->drop_depth = k;
	}
	objs_end(t, k, rollback);   /* sequences and views */
}

void
temp_txn_end(Session *s, bool committed)
{
	TempState *t = s->temp;
	int i;
	static _Thread_local bool busy;

	if (!t || busy)
		return;
	busy = true;
	for (i = 0; i < t->ntabs; i++) {   /* made in a rolled-back block, or dropped */
		TempTable *x = &t->tabs[i];
		if ((!committed && x->in_block) || (committed && x->dropped)) {
			drop_one(s, x->name);
			i--;
		}
	}
	for (i = 0; i < t->ntabs; i++) {
		TempTable *x = &t->tabs[i];
		if (x->dropped)
			undrop(x);   /* rolled back: its name is free again */
		if (x->on_commit == TEMP_ON_COMMIT_DROP) {
			drop_one(s, x->name);
			i--;
			continue;
		}
		x->in_block = false;
		if (x->on_commit == TEMP_ON_COMMIT_DELETE)
			empty_one(s, x->name);
	}
	objs_end(t, -1, !committed);   /* sequences and views */
	busy = false;
}

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

int
temp_discard(Session *s, floe_error *err)
{
	TempState *t = s->temp;

	(void)err;
	if (!t)
		return FLOE_OK;
	temp__free_views(t);   /* the views first: they read the tables */
	while (t->ntabs > 0)
		drop_one(s, t->tabs[t->ntabs - 1].name);
	temp__free_seqs(t, NULL);
	return FLOE_OK;
}

/* DISCARD: TEMP drops the session's temporary tables; SEQUENCES forgets
 * currval / lastval; PLANS has nothing to do (floe keeps no plan beyond
 * its statement: EXECUTE plans again); ALL is PostgreSQL's list, CLOSE
 * ALL, DEALLOCATE ALL, RESET ALL and the three above, refused in a
 * transaction block (25001) as PostgreSQL does. */
int
temp_discard_stmt(Session *s, PgQuery__DiscardStmt *ds, ResultSink *sink, floe_error *err)
{
	ResultSink quiet;

	switch (ds->target) {
	case PG_QUERY__DISCARD_MODE__DISCARD_TEMP:
		TRY(temp_discard(s, err));
		return engine_complete(sink, "DISCARD TEMP");
	case PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES:
		seq_session_free(s);
		return engine_complete(sink, "DISCARD SEQUENCES");
	case PG_QUERY__DISCARD_MODE__DISCARD_PLANS:
		return engine_complete(sink, "DISCARD PLANS");
	case PG_QUERY__DISCARD_MODE__DISCARD_ALL:
		if (session_txn_status(s) != 'I')
			return floe_errorf(err, ERRCODE_ACTIVE_SQL_TRANSACTION,
					   "DISCARD ALL cannot run inside a transaction block");
		memset(&quiet, 0, sizeof quiet);
		quiet.complete = noop_complete;
		TRY(session_exec(s, "CLOSE ALL; DEALLOCATE ALL; RESET ALL", &quiet, err));
		seq_session_free(s);
		TRY(temp_discard(s, err));
		return engine_complete(sink, "DISCARD ALL");
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this DISCARD is not supported");
	}
}

/* The scratch folders of processes that died without their clean-up
 * (killed): floe-temp-<pid>-* under $TMPDIR whose pid no longer runs. */
void
temp_sweep_stale(void)
{
	const char *tmp = getenv("TMPDIR");
	DIR *d;
	struct dirent *de;

	if (!tmp || !tmp[0])
		tmp = "/tmp";
	if (!(d = opendir(tmp)))
		return;
	while ((de = readdir(d))) {
		long pid;
		char *path;
		if (sscanf(de->d_name, "floe-temp-%ld-", &pid) != 1 || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (asprintf(&path, "%s/%s", tmp, de->d_name) >= 0) {
			(void)nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
			free(path);
		}
	}
	closedir(d);
}

void
temp_session_free(Session *s)
{
	TempState *t = s->temp;
	int i;

	if (!t)
		return;
	for (i = 0; i < t->ntabs; i++) {
		free(t->tabs[i].name);
		free(t->tabs[i].dropped);
		free(t->tabs[i].loc);
	}
	free(t->tabs);
	temp__free_seqs(t, NULL);
	temp__free_views(t);
	(void)nftw(t->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(t->dir);
	free(t);
	s->temp = NULL;
	temp__set_session(NULL);   /* the next statement enters its session */
}
