/*
 * automaint.c — floe serve's automatic maintenance pass (see automaint.h
 * for the rules and invariants; docs/maintenance.md "Automatic
 * maintenance" for the user's view).
 *
 *   automaint_start      the thread: sleep floe.maintenance_interval (read
 *                        every 50 ms, so a SET takes effect at once), then
 *                        pass_all: every table of every schema but pg_temp*
 *   maintain_table       one table: its floe.maintenance.* properties, then
 *                        compaction, manifests, expiry, orphans (each step's
 *                        failure is noted and the next step still runs)
 *   record               the table's SHOW MAINTENANCE STATUS row and the
 *                        server log line
 */
#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "ingest/compact.h"
#include "sql/automaint.h"
#include "sql/engine.h"
#include "sql/search_path.h"
#include "sql/txn.h"
#include "table/maintenance.h"
#include "table/manifest.h"
#include "table/rewrite_manifests.h"
#include "table/table.h"

/* ---- table properties ----------------------------------------------------- */

enum { P_ENABLED, P_COMPACT, P_COMPACT_MIN, P_REWRITE, P_REWRITE_MIN, P_EXPIRE, P_ORPHANS,
       P_ORPHAN_AGE, P_ORPHAN_EVERY, NPROPS };

static const struct {
	const char *key;
	bool boolean;
	int64_t min, max, dflt;
} props[NPROPS] = {
	[P_ENABLED] = { "floe.maintenance.enabled", true, 0, 1, 0 },
	[P_COMPACT] = { "floe.maintenance.compaction.enabled", true, 0, 1, 1 },
	[P_COMPACT_MIN] = { "floe.maintenance.compaction.min-files", false, 2, 1000000, 16 },
	[P_REWRITE] = { "floe.maintenance.rewrite-manifests.enabled", true, 0, 1, 1 },
	[P_REWRITE_MIN] = { "floe.maintenance.rewrite-manifests.min-count", false, 2, 1000000, 16 },
	[P_EXPIRE] = { "floe.maintenance.expire-snapshots.enabled", true, 0, 1, 1 },
	[P_ORPHANS] = { "floe.maintenance.remove-orphan-files.enabled", true, 0, 1, 1 },
	[P_ORPHAN_AGE] = { "floe.maintenance.remove-orphan-files.older-than-ms", false,
			   3600000, INT64_C(100) * 365 * 24 * 3600 * 1000, ORPHAN_DEFAULT_AGE_MS },
	[P_ORPHAN_EVERY] = { "floe.maintenance.remove-orphan-files.interval-ms", false,
			     0, INT64_C(100) * 365 * 24 * 3600 * 1000, 3600000 },
};

/* v's value for property i into *out; false when v is not one */
static bool
parse_prop(int i, const char *v, int64_t *out)
{
	int64_t x = 0;
	const char *p;

	if (props[i].boolean) {
		if (!strcasecmp(v, "true") || !strcasecmp(v, "false")) {
			*out = v[0] == 't' || v[0] == 'T';
			return true;
		}
		return false;
	}
	if (!*v)
		return false;
	for (p = v; *p; p++) {
		if (!isdigit((unsigned char)*p) || x > props[i].max)
			return false;
		x = x * 10 + (*p - '0');
	}
	if (x < props[i].min || x > props[i].max)
		return false;
	*out = x;
	return true;
}

static int
bad_prop(int i, const char *v, floe_error *err)
{
	floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
		    "invalid value for table property \"%s\": \"%s\"", props[i].key, v);
	if (props[i].boolean)
		return floe_error_hint(err, "Valid values are \"true\" and \"false\".");
	return floe_error_hint(err, "It must be a whole number from %" PRId64 " to %" PRId64 ".",
			       props[i].min, props[i].max);
}

int
automaint_check_property(const char *k, const char *v, floe_error *err)
{
	int64_t x;
	int i;

	for (i = 0; i < NPROPS; i++)
		if (!strcmp(k, props[i].key))
			return parse_prop(i, v, &x) ? FLOE_OK : bad_prop(i, v, err);
	floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "unrecognized table property \"%s\"", k);
	return floe_error_hint(err, "The floe.maintenance properties are floe.maintenance.enabled, "
			       "floe.maintenance.compaction.enabled, floe.maintenance.compaction.min-files, "
			       "floe.maintenance.rewrite-manifests.enabled, "
			       "floe.maintenance.rewrite-manifests.min-count, "
			       "floe.maintenance.expire-snapshots.enabled, "
			       "floe.maintenance.remove-orphan-files.enabled, "
			       "floe.maintenance.remove-orphan-files.older-than-ms and "
			       "floe.maintenance.remove-orphan-files.interval-ms.");
}

/* md's values (defaults where unset); a bad one (another engine wrote it)
 * is 22023 */
static int
read_props(const TableMetadata *md, int64_t *val, floe_error *err)
{
	int i;

	for (i = 0; i < NPROPS; i++) {
		const char *v = metadata_property(md, props[i].key);
		val[i] = props[i].dflt;
		if (v && !parse_prop(i, v, &val[i]))
			return bad_prop(i, v, err);
	}
	return FLOE_OK;
}

/* ---- floe.maintenance_interval -------------------------------------------- */

#define DEFAULT_INTERVAL_MS 300000
static _Atomic int64_t interval_ms = DEFAULT_INTERVAL_MS;

bool
automaint_is_setting(const char *name)
{
	return !strcmp(name, "floe.maintenance_interval");
}

const char *
automaint_setting_default(const char *name)
{
	return automaint_is_setting(name) ? "5min" : NULL;
}

/* "250ms", "2s", "5min", "1h" or a bare number of ms -> ms; -1 when bad */
static int64_t
parse_duration(const char *v)
{
	int64_t n = 0, mul;
	const char *p = v;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > INT64_C(1000000000000))
			return -1;
		n = n * 10 + (*p - '0');
	}
	while (isspace((unsigned char)*p))
		p++;
	mul = !*p || !strcmp(p, "ms") ? 1 : !strcmp(p, "s") ? 1000 : !strcmp(p, "min") ? 60000
		: !strcmp(p, "h") ? 3600000 : !strcmp(p, "d") ? 86400000 : -1;
	return mul < 0 ? -1 : n * mul;
}

int
automaint_canon_setting(const char *name, const char *value, char *out, size_t cap,
			floe_error *err)
{
	int64_t v = parse_duration(value);

	snprintf(out, cap, "%s", value);
	if (v < 0) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for parameter \"%s\": \"%s\"", name, value);
		return floe_error_hint(err, "A duration: a number with ms, s, min, h or d (a bare number "
				       "is milliseconds); 0 turns the maintenance pass off.");
	}
	interval_ms = v;
	return FLOE_OK;
}

/* ---- status ---------------------------------------------------------------- */

typedef struct Entry {
	char *key;                 /* "ns.name" */
	int64_t passes, last_us, duration_ms;
	const char *status;        /* "done", "idle", "retry", "failed" */
	char *message;             /* malloc'd, or NULL */
	int64_t expired, deleted, orphans, manifests, compacted;
	int64_t orphans_us;        /* the last orphan scan's start, 0: none */
	bool seen;                 /* looked at in the current pass */
} Entry;

typedef struct AutoMaint {
	Engine *e;
	pthread_t thread;
	atomic_int stop;
	Session fs;                /* the pass's own session (compaction's) */
	pthread_mutex_t mu;        /* entries */
	Entry *entries;
	int n, cap;
} AutoMaint;

/* the outcome of one table's pass */
typedef struct Run {
	int64_t expired, deleted, orphans, manifests, compacted;
	bool conflict, failed, scanned;
	char message[1280];
} Run;

static Entry *
find_entry(AutoMaint *m, const char *key, bool add)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->entries[i].key, key))
			return &m->entries[i];
	if (!add)
		return NULL;
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->entries = xrealloc(m->entries, sizeof *m->entries * (size_t)m->cap);
	}
	memset(&m->entries[m->n], 0, sizeof m->entries[m->n]);
	m->entries[m->n].key = xstrdup(key);
	return &m->entries[m->n++];
}

/* The first failure of a run names its step. */
static void
note_error(Run *r, const char *step, const floe_error *err)
{
	bool conflict = floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE) ||
		floe_error_is(err, ERRCODE_QUERY_CANCELED);

	if (conflict)
		r->conflict = true;
	else
		r->failed = true;
	if (!r->message[0])
		snprintf(r->message, sizeof r->message, "%s: %s%s", step, err->message,
			 conflict ? " (tried again next pass)" : "");
}

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Keep the run in the table's row and log what changed (a failure once
 * per distinct message). */
static void
record(AutoMaint *m, const char *ns, const char *name, const Run *r, int64_t start_us)
{
	char key[600];
	Entry *x;
	bool changed = r->expired || r->deleted || r->orphans || r->manifests || r->compacted;
	bool log_failure;
	int64_t took = (now_us() - start_us) / 1000;

	snprintf(key, sizeof key, "%s.%s", ns, name);
	pthread_mutex_lock(&m->mu);
	x = find_entry(m, key, true);
	x->seen = true;
	x->passes++;
	x->last_us = start_us;
	x->duration_ms = took;
	x->status = r->failed ? "failed" : r->conflict ? "retry" : changed ? "done" : "idle";
	log_failure = r->message[0] && (!x->message || strcmp(x->message, r->message));
	free(x->message);
	x->message = r->message[0] ? xstrdup(r->message) : NULL;
	x->expired += r->expired;
	x->deleted += r->deleted;
	x->orphans += r->orphans;
	x->manifests += r->manifests;
	x->compacted += r->compacted;
	if (r->scanned)
		x->orphans_us = start_us;
	pthread_mutex_unlock(&m->mu);
	if (changed)
		fprintf(stderr, "floe serve: maintenance of %s: compacted %" PRId64 " data files, "
			"rewrote %" PRId64 " manifests, expired %" PRId64 " snapshots (deleted %" PRId64
			" files), removed %" PRId64 " orphan files (%" PRId64 " ms)\n",
			key, r->compacted, r->manifests, r->expired, r->deleted, r->orphans, took);
	if (log_failure)
		fprintf(stderr, "floe serve: maintenance of %s: %s\n", key, r->message);
}

/* ---- one table ------------------------------------------------------------- */

/* The current snapshot's manifests smaller than commit.manifest.target-size-bytes */
static int
small_manifests(FileIO *io, const TableMetadata *md, Arena *a, int *n, floe_error *err)
{
	const Snapshot *s = metadata_current_snapshot(md);
	const char *v = metadata_property(md, "commit.manifest.target-size-bytes");
	long long target = v ? atoll(v) : 0;
	ManifestFile *mf;
	const uint8_t *data;
	size_t len;
	int nm, i;

	*n = 0;
	if (target <= 0)
		target = 8LL << 20;    /* Iceberg's default */
	if (!s)
		return FLOE_OK;
	if (!s->manifest_list) {
		*n = s->nmanifests_v1;   /* (their sizes are not listed) */
		return FLOE_OK;
	}
	TRY(fileio_read(io, s->manifest_list, a, &data, &len, err));
	TRY(manifest_list_read(data, len, s->manifest_list, a, &mf, &nm, err));
	for (i = 0; i < nm; i++)
		*n += mf[i].manifest_length < target;
	return FLOE_OK;
}

static void
maintain_table(AutoMaint *m, const char *ns, const char *name)
{
	Engine *e = m->e;
	Session *fs = &m->fs;
	Arena *a = arena_new(1 << 20);
	int64_t p[NPROPS], start = now_us();
	floe_error err;
	Table *t;
	Run r;
	char key[600];

	memset(&r, 0, sizeof r);
	floe_error_clear(&err);
	snprintf(key, sizeof key, "%s.%s", ns, name);
	if (table_load(e->catalog, e->io, ns, name, a, &t, &err) != FLOE_OK)
		goto out;                /* dropped meanwhile, or not a table */
	if (read_props(t->md, p, &err) != FLOE_OK) {
		/* another engine's bad value: the table is not maintained */
		note_error(&r, "table properties", &err);
		record(m, ns, name, &r, start);
		goto out;
	}
	if (!p[P_ENABLED])
		goto out;                /* (its row, if any, goes at the pass's end) */
	if (p[P_COMPACT] && !m->stop) {
		CompactStats st;
		floe_error_clear(&err);
		if (compact_table(fs, ns, name, (int)p[P_COMPACT_MIN], &st, &err) != FLOE_OK)
			note_error(&r, "compaction", &err);
		else if (st.gave_up && !r.message[0]) {
			r.conflict = true;
			snprintf(r.message, sizeof r.message, "compaction: gave up (a transaction block "
				 "was open or a concurrent commit changed the files; tried again next pass)");
		}
		r.compacted = st.rewritten;
	}
	if (p[P_REWRITE] && !m->stop) {
		int nsmall = 0;
		floe_error_clear(&err);
		if (table_load(e->catalog, e->io, ns, name, a, &t, &err) != FLOE_OK ||
		    small_manifests(e->io, t->md, a, &nsmall, &err) != FLOE_OK) {
			note_error(&r, "rewrite_manifests", &err);
		} else if (nsmall >= p[P_REWRITE_MIN]) {
			/* this process's autocommit writers of the table wait meanwhile */
			WriteTurn *turn = NULL;
			RewriteManifestsResult rm;
			if (engine_write_turn_take(fs, key, &turn, &err) != FLOE_OK ||
			    table_rewrite_manifests(e->catalog, e->io, ns, name, -1, a, &rm, &err) != FLOE_OK)
				note_error(&r, "rewrite_manifests", &err);
			else
				r.manifests = rm.rewritten;
			engine_write_turn_give(fs, turn);
		}
	}
	if (p[P_EXPIRE] && !m->stop) {
		ExpireOptions o;
		ExpireResult x;
		memset(&o, 0, sizeof o);
		floe_error_clear(&err);
		if (table_expire_snapshots(e->catalog, e->io, ns, name, &o, now_us() / 1000, a, &x,
					   &err) != FLOE_OK) {
			note_error(&r, "expire_snapshots", &err);
		} else {
			r.expired = x.expired_snapshots;
			r.deleted = x.data_files + x.position_delete_files + x.equality_delete_files +
				x.manifests + x.manifest_lists + x.statistics_files + x.metadata_files;
		}
	}
	if (p[P_ORPHANS] && !m->stop) {
		/* (it reads every manifest and lists the folders: not every pass) */
		int64_t last = 0;
		Entry *x;
		pthread_mutex_lock(&m->mu);
		if ((x = find_entry(m, key, false)))
			last = x->orphans_us;
		pthread_mutex_unlock(&m->mu);
		if (!last || (start - last) / 1000 >= p[P_ORPHAN_EVERY]) {
			char **paths;
			int n = 0;
			floe_error_clear(&err);
			if (table_load(e->catalog, e->io, ns, name, a, &t, &err) != FLOE_OK ||
			    table_remove_orphans(e->io, t, now_us() / 1000 - p[P_ORPHAN_AGE], false, a,
						 &paths, &n, &err) != FLOE_OK) {
				note_error(&r, "remove_orphan_files", &err);
			} else {
				r.orphans = n;
				r.scanned = true;
			}
		}
	}
	record(m, ns, name, &r, start);
out:
	arena_free(a);
}

/* Every table of every schema; the rows of tables no longer maintained
 * (dropped, property off) go. */
static void
pass_all(AutoMaint *m)
{
	Engine *e = m->e;
	Arena *a = arena_new(256 * 1024);
	floe_error err;
	char **nss;
	int nns, i, j, k;

	floe_error_clear(&err);
	pthread_mutex_lock(&m->mu);
	for (i = 0; i < m->n; i++)
		m->entries[i].seen = false;
	pthread_mutex_unlock(&m->mu);
	if (catalog_list_namespaces(e->catalog, a, &nss, &nns, &err) != FLOE_OK) {
		fprintf(stderr, "floe serve: maintenance pass: %s\n", err.message);
		arena_free(a);
		return;
	}
	for (i = 0; i < nns && !m->stop; i++) {
		char **tabs;
		int nt;
		if (!strncmp(nss[i], "pg_temp", 7) || !strncmp(nss[i], "pg_toast_temp", 13))
			continue;          /* sessions' own */
		floe_error_clear(&err);
		if (catalog_list_tables(e->catalog, nss[i], a, &tabs, &nt, &err) != FLOE_OK)
			continue;          /* dropped meanwhile */
		for (j = 0; j < nt && !m->stop; j++)
			maintain_table(m, nss[i], tabs[j]);
	}
	if (!m->stop) {
		pthread_mutex_lock(&m->mu);
		for (i = k = 0; i < m->n; i++) {
			if (m->entries[i].seen) {
				m->entries[k++] = m->entries[i];
			} else {
				free(m->entries[i].key);
				free(m->entries[i].message);
			}
		}
		m->n = k;
		pthread_mutex_unlock(&m->mu);
	}
	arena_free(a);
}

static void *
automaint_main(void *arg)
{
	AutoMaint *m = arg;
	int64_t slept = 0;

	while (!m->stop) {
		int64_t iv;
		usleep(50 * 1000);
		slept += 50;
		iv = interval_ms;
		if (iv <= 0 || slept < iv)
			continue;
		slept = 0;
		pass_all(m);
	}
	return NULL;
}

int
automaint_start(Engine *e, floe_error *err)
{
	AutoMaint *m;

	if (e->automaint)
		return FLOE_OK;
	m = xcalloc(1, sizeof *m);
	m->e = e;
	pthread_mutex_init(&m->mu, NULL);
	m->fs.engine = e;
	m->fs.sp_fixed = "public";
	m->fs.cancel_flag = &m->fs.cancel;
	if (pthread_create(&m->thread, NULL, automaint_main, m) != 0) {
		pthread_mutex_destroy(&m->mu);
		free(m);
		return floe_errorf(err, ERRCODE_INSUFFICIENT_RESOURCES,
				   "could not start the maintenance thread");
	}
	e->automaint = m;
	return FLOE_OK;
}

void
automaint_stop(Engine *e)
{
	AutoMaint *m = e->automaint;
	int i;

	if (!m)
		return;
	m->stop = 1;
	m->fs.cancel = 1;          /* a compaction in flight gives up */
	pthread_join(m->thread, NULL);
	txn_session_free(&m->fs);
	search_path_free(&m->fs);
	arena_free(m->fs.exec_parse_arena);
	arena_free(m->fs.exec_stmt_arena);
	for (i = 0; i < m->n; i++) {
		free(m->entries[i].key);
		free(m->entries[i].message);
	}
	free(m->entries);
	pthread_mutex_destroy(&m->mu);
	free(m);
	e->automaint = NULL;
}

/* ---- SHOW MAINTENANCE STATUS -------------------------------------------- */

static int
cmp_entry(const void *x, const void *y)
{
	return strcmp(((const Entry *)x)->key, ((const Entry *)y)->key);
}

static int
show_status(Session *s, ResultSink *sink, floe_error *err)
{
	static const char *const names[10] = {
		"table_name", "passes", "last_pass", "status", "message", "snapshots_expired",
		"files_deleted", "orphan_files_removed", "manifests_rewritten", "data_files_compacted",
	};
	AutoMaint *m = s->engine->automaint;
	SqlType types[10];
	Arena *a = arena_new(64 * 1024);
	Entry *v = NULL;
	Batch *b;
	int n = 0, i, k, rc = FLOE_OK;

	types[0] = types[3] = types[4] = type_make(TYPE_TEXT);
	types[2] = type_make(TYPE_TIMESTAMPTZ);
	types[1] = types[5] = types[6] = types[7] = types[8] = types[9] = type_make(TYPE_INT64);
	if (m) {
		pthread_mutex_lock(&m->mu);
		n = m->n;
		v = ARENA_ARRAY(a, Entry, n + 1);
		for (i = 0; i < n; i++) {
			v[i] = m->entries[i];
			v[i].key = arena_strdup(a, v[i].key);
			v[i].message = v[i].message ? arena_strdup(a, v[i].message) : NULL;
		}
		pthread_mutex_unlock(&m->mu);
		qsort(v, (size_t)n, sizeof *v, cmp_entry);
	}
	b = batch_new(a, 10, types, (uint32_t)(n > 0 ? n : 1));
	for (i = 0; i < n; i++) {
		const int64_t c[6] = { v[i].passes, v[i].expired, v[i].deleted, v[i].orphans,
				       v[i].manifests, v[i].compacted };
		vector_set_string(&b->cols[0], (uint32_t)i, v[i].key, (uint32_t)strlen(v[i].key));
		((int64_t *)b->cols[2].data)[i] = v[i].last_us;
		vector_set_string(&b->cols[3], (uint32_t)i, v[i].status, (uint32_t)strlen(v[i].status));
		if (v[i].message)
			vector_set_string(&b->cols[4], (uint32_t)i, v[i].message,
					  (uint32_t)strlen(v[i].message));
		else
			vector_set_null(&b->cols[4], (uint32_t)i);
		for (k = 0; k < 6; k++)
			((int64_t *)b->cols[k ? k + 4 : 1].data)[i] = c[k];
	}
	b->count = (uint32_t)n;
	if (sink && sink->columns && sink->columns(sink->ctx, 10, names, types) != 0)
		rc = floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (rc == FLOE_OK && n > 0 && sink && sink->batch && sink->batch(sink->ctx, b) != 0)
		rc = floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	arena_free(a);
	TRY(rc);
	return engine_complete(sink, "SHOW");
}

/* The next word of *p, lower-cased, into w; false at the end. */
static bool
word(const char **p, char *w, size_t cap)
{
	const char *q = *p;
	size_t n = 0;

	while (isspace((unsigned char)*q))
		q++;
	while ((isalnum((unsigned char)*q) || *q == '_') && n + 1 < cap)
		w[n++] = (char)tolower((unsigned char)*q++);
	w[n] = 0;
	*p = q;
	return n > 0;
}

bool
automaint_utility(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc)
{
	const char *p = sql;
	char w[32];

	if (!word(&p, w, sizeof w) || strcmp(w, "show") || !word(&p, w, sizeof w) ||
	    strcmp(w, "maintenance") || !word(&p, w, sizeof w) || strcmp(w, "status"))
		return false;
	while (isspace((unsigned char)*p) || *p == ';')
		p++;
	floe_error_clear(err);
	if (*p) {
		*rc = floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				  "SHOW MAINTENANCE STATUS must be a query string of its own");
		return true;
	}
	*rc = show_status(s, sink, err);
	return true;
}
