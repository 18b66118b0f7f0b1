/*
 * ingest.c — the insert buffer's SQL side (ingest.h, docs/ingest.md):
 * buffered INSERTs, flushes, the read overlay, the status view.
 *
 * Locks, outermost first:
 *   a statement's write turn (engine.c; a buffered INSERT takes none)
 *   stripe(uuid): a table's ingest lock, one of NSTRIPES mutexes chosen by
 *       the table uuid's hash, held by a flush of the table (collect,
 *       commit, discard)
 *   Ingest.mu: opening the buffer, the flush thread's start and stop
 *   the buffer's own mutex (buffer.c)
 *
 * Invariants:
 *   1. A buffered row is acknowledged only after ibuf_append returned (its
 *      entry synced to the RocksDB WAL, or committed in PostgreSQL: the
 *      postgres backend, buffer_pg.c).
 *   2. A flush takes only entries at or below ibuf_stable_seq (no append
 *      below it is in flight), commits those above the table's recorded
 *      sequence with floe.ingest-seq = the highest one taken, then
 *      discards the log up to that sequence.  A crash between the commit
 *      and the discard leaves entries the next flush drops (recorded).
 *      The table's stripe and ibuf_flush_lock (other nodes, postgres) are
 *      held from the scan to the discard; a new entry's sequence is above
 *      the table's recorded one (ibuf_append's floor).
 *   3. A read collects the table's entries BEFORE it reloads the table's
 *      metadata and keeps only entries above the reloaded metadata's
 *      recorded sequence: a flush that lands in between is in the
 *      metadata (its entries are skipped), one that lands after left them
 *      in what was collected.  No row is seen twice or missed.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "exec/exec.h"
#include "ingest/admission.h"
#include "ingest/buffer.h"
#include "ingest/compact.h"
#include "ingest/fastvalues.h"
#include "ingest/ingest.h"
#include "ingest/keyed.h"
#include "ingest/rowcodec.h"
#include "sql/acl.h"
#include "sql/check.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "sql/write_target.h"
#include "storage/s3.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/udt.h"
#include "types/array.h"
#include "types/text.h"

#define NSTRIPES 64
#define FLUSH_CHECK_MS 2000
#define FLUSH_BYTES ((int64_t)64 << 20)

typedef struct Ingest {
	Engine *e;
	pthread_mutex_t mu;
	IngestBuffer *_Atomic buf;
	bool open_failed;
	bool pg;                   /* the postgres backend: opened with the engine */
	pthread_mutex_t stripes[NSTRIPES];
	pthread_t thread;
	bool thread_started;
	atomic_int stop;
	struct TCache **tc;        /* decoded entries per table (the read overlay's) */
	int ntc, captc;
	/* tables flushed since their last compaction look (compact.h), the
	 * flush thread's: "ns\0name" strings, malloc'd */
	char **compact_due;
	int ncompact, capcompact;
	/* PRIMARY KEY tables (keyindex.c's design): the owner's index of the
	 * buffered keys, and the folder of the tables' key locks */
	KeyIdx *kidx;
	char *lockdir;
} Ingest;

static void cache_add(Ingest *ig, const char *uuid, uint64_t seq, const uint8_t *bytes, size_t len);
static void cache_drop(Ingest *ig, const char *uuid, uint64_t upto);
static void cache_free_all(Ingest *ig);
static void serve_requests(Ingest *ig);
static bool bufferable_table(Ingest *ig, Table *t);

/* ---- settings ----------------------------------------------------------
 * floe.insert_buffer_rows and read_consistency are the session's; the
 * flush policy (staleness, bytes, retries, wait) is the process's: a SET
 * of one changes it for every session of the process. */
#define DEFAULT_ROWS "5000"
static _Atomic int64_t max_staleness_ms = 5000;
static _Atomic int64_t max_bytes = (int64_t)4 << 30;
static _Atomic int64_t max_retries = 10;
static _Atomic int64_t wait_timeout_ms = 10000;
static _Atomic int64_t compact_files = 16;
/* flushes that discarded entries (snapshot_pin.h invariant 2) */
static _Atomic uint64_t flush_gen;

static const char *const setting_names[] = {
	"floe.insert_buffer_rows", "floe.insert_buffer_max_staleness", "floe.insert_buffer_max_bytes",
	"floe.insert_buffer_max_retries", "floe.insert_buffer_wait_timeout", "read_consistency",
	"floe.insert_buffer_compact_files", "floe.max_concurrent_dml", "floe.dml_queue_timeout",
};

bool
ingest_is_setting(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof setting_names / sizeof setting_names[0]; i++)
		if (!strcmp(name, setting_names[i]))
			return true;
	return false;
}

/* "123", "5s", "250ms", "2min", "1h" -> ms; "10", "4kB", "64MB", "4GB" -> bytes;
 * -1 when bad. */
static int64_t
parse_unit(const char *v, bool duration)
{
	char *end;
	long long n;
	int64_t mul = 1;

	while (isspace((unsigned char)*v))
		v++;
	if (!isdigit((unsigned char)*v))
		return -1;
	n = strtoll(v, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (!*end)
		mul = 1;
	else if (duration && !strcmp(end, "ms"))
		mul = 1;
	else if (duration && !strcmp(end, "s"))
		mul = 1000;
	else if (duration && !strcmp(end, "min"))
		mul = 60000;
	else if (duration && !strcmp(end, "h"))
		mul = 3600000;
	else if (!duration && !strcmp(end, "kB"))
		mul = 1024;
	else if (!duration && !strcmp(end, "MB"))
		mul = (int64_t)1 << 20;
	else if (!duration && !strcmp(end, "GB"))
		mul = (int64_t)1 << 30;
	else if (!duration && !strcmp(end, "B"))
		mul = 1;
	else
		return -1;
	if (n < 0 || n > INT64_MAX / mul)
		return -1;
	return (int64_t)n * mul;
}

int
ingest_canon_setting(const char *name, const char *value, char *out, size_t cap, floe_error *err)
{
	int64_t v;

	snprintf(out, cap, "%s", value);
	if (!strcmp(name, "read_consistency")) {
		if (!strcasecmp(value, "strong") || !strcasecmp(value, "committed")) {
			snprintf(out, cap, "%s", tolower((unsigned char)value[0]) == 's' ? "strong" : "committed");
			return FLOE_OK;
		}
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for parameter \"read_consistency\": \"%s\"", value);
		return floe_error_hint(err, "Available values: strong, committed.");
	}
	if (!strcmp(name, "floe.insert_buffer_compact_files")) {
		const char *q = value;
		while (isspace((unsigned char)*q))
			q++;
		v = *q ? 0 : -1;
		for (; *q && v >= 0; q++)
			v = isdigit((unsigned char)*q) && v <= 1000000 ? v * 10 + (*q - '0') : -1;
		if (v < 0 || v == 1 || v > 1000000)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for parameter \"%s\": \"%s\"", name, value);
		snprintf(out, cap, "%lld", (long long)v);
		compact_files = v;
		return FLOE_OK;
	}
	if (!strcmp(name, "floe.max_concurrent_dml")) {
		const char *q = value;
		while (isspace((unsigned char)*q))
			q++;
		v = *q ? 0 : -1;
		for (; *q && v >= 0; q++)
			v = isdigit((unsigned char)*q) && v <= 100000 ? v * 10 + (*q - '0') : -1;
		if (v < 0 || v > 100000)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for parameter \"%s\": \"%s\"", name, value);
		snprintf(out, cap, "%lld", (long long)v);
		admission_set_cap(v);
		return FLOE_OK;
	}
	if (!strcmp(name, "floe.insert_buffer_rows") || !strcmp(name, "floe.insert_buffer_max_retries")) {
		const char *q = value;
		while (isspace((unsigned char)*q))
			q++;
		v = *q ? 0 : -1;
		for (; *q && v >= 0; q++)
			v = isdigit((unsigned char)*q) && v <= 1000000 ? v * 10 + (*q - '0') : -1;
		if (v < 0 || (name[19] == 'm' && v < 1) || v > 1000000)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for parameter \"%s\": \"%s\"", name, value);
		snprintf(out, cap, "%lld", (long long)v);
		if (name[19] == 'm')
			max_retries = v;
		return FLOE_OK;
	}
	if (!strcmp(name, "floe.insert_buffer_max_bytes")) {
		if ((v = parse_unit(value, false)) < 1)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for parameter \"%s\": \"%s\"", name, value);
		max_bytes = v;
		return FLOE_OK;
	}
	/* staleness, wait timeout: durations (bare numbers are ms) */
	if ((v = parse_unit(value, true)) < 0)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid value for parameter \"%s\": \"%s\"", name, value);
	if (strstr(name, "staleness"))
		max_staleness_ms = v;
	else if (!strcmp(name, "floe.dml_queue_timeout"))
		admission_set_timeout(v);
	else
		wait_timeout_ms = v;
	return FLOE_OK;
}

/* The default of floe.insert_buffer_rows: DEFAULT_ROWS, or
 * $FLOE_INSERT_BUFFER_ROWS (digits) for running test suites with another */
static const char *
default_rows(void)
{
	const char *v = getenv("FLOE_INSERT_BUFFER_ROWS");

	if (v && *v && strspn(v, "0123456789") == strlen(v) && strlen(v) <= 7)
		return v;
	return DEFAULT_ROWS;
}

const char *
ingest_setting_default(const char *name)
{
	if (!strcmp(name, "floe.insert_buffer_rows"))
		return default_rows();
	if (!strcmp(name, "read_consistency"))
		return "strong";
	if (!strcmp(name, "floe.insert_buffer_max_staleness"))
		return "5s";
	if (!strcmp(name, "floe.insert_buffer_max_bytes"))
		return "4GB";
	if (!strcmp(name, "floe.insert_buffer_max_retries"))
		return "10";
	if (!strcmp(name, "floe.insert_buffer_wait_timeout"))
		return "10s";
	if (!strcmp(name, "floe.insert_buffer_compact_files"))
		return "16";
	if (!strcmp(name, "floe.max_concurrent_dml"))
		return "0";
	if (!strcmp(name, "floe.dml_queue_timeout"))
		return "10s";
	return NULL;
}

static long long
rows_limit(Session *s)
{
	const char *v = session_setting(s, "floe.insert_buffer_rows");
	return atoll(v && *v ? v : default_rows());
}

static bool
committed_only(Session *s)
{
	const char *v = session_setting(s, "read_consistency");
	return v && !strcmp(v, "committed");
}

/* ---- the buffer --------------------------------------------------------- */

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static pthread_mutex_t *
stripe(Ingest *ig, const char *uuid)
{
	uint32_t h = 2166136261u;

	for (; *uuid; uuid++)
		h = (h ^ (uint8_t)*uuid) * 16777619u;
	return &ig->stripes[h % NSTRIPES];
}

/* The buffer, opened on first need: create (a buffered INSERT) opens or
 * makes <warehouse>/ingest; otherwise only an existing one is opened.
 * NULL when there is none or it cannot be opened (logged once). */
static IngestBuffer *
get_buf(Ingest *ig, bool create)
{
	IngestBuffer *b = ig->buf;
	char *dir = NULL;
	struct stat st;

	if (b || !ig || ig->pg)
		return b;
	pthread_mutex_lock(&ig->mu);
	if (!ig->buf && !ig->open_failed && asprintf(&dir, "%s/ingest", ig->e->warehouse) >= 0) {
		if (create || stat(dir, &st) == 0) {
			floe_error err;
			IngestBuffer *nb;
			floe_error_clear(&err);
			if (ibuf_open(&nb, dir, &err) == FLOE_OK) {
				ig->buf = nb;
			} else {
				fprintf(stderr, "floe: insert buffer %s unavailable: %s\n", dir, err.message);
				ig->open_failed = true;
			}
		}
		free(dir);
	}
	b = ig->buf;
	pthread_mutex_unlock(&ig->mu);
	return b;
}

static bool
any_pending(IngestBuffer *b)
{
	IbufStat *st;
	int n, i;
	bool any = false;

	ibuf_stats(b, &st, &n);
	for (i = 0; i < n; i++)
		if (st[i].pending_objects > 0)
			any = true;
	free(st);
	return any;
}

/* Entries collected from the log, copied into an arena. */
typedef struct Entry {
	uint64_t seq;
	const uint8_t *bytes;
	size_t len;
} Entry;

typedef struct Collect {
	Arena *a;
	Entry *e;
	int n, cap;
} Collect;

static int
collect_visit(void *arg, uint64_t seq, const uint8_t *bytes, size_t len)
{
	Collect *c = arg;

	if (c->n == c->cap) {
		int nc = c->cap ? c->cap * 2 : 64;
		c->e = arena_realloc(c->a, c->e, sizeof(Entry) * (size_t)c->cap, sizeof(Entry) * (size_t)nc);
		c->cap = nc;
	}
	c->e[c->n].seq = seq;
	c->e[c->n].bytes = arena_memdup(c->a, bytes, len ? len : 1);
	c->e[c->n].len = len;
	c->n++;
	return FLOE_OK;
}

/* The current schema's field ids and types. */
static void
schema_cols(const IcebergSchema *sc, Arena *a, int32_t **ids, SqlType **types)
{
	int i;

	*ids = ARENA_ARRAY(a, int32_t, sc->nfields + 1);
	*types = ARENA_ARRAY(a, SqlType, sc->nfields + 1);
	for (i = 0; i < sc->nfields; i++) {
		(*ids)[i] = sc->fields[i].id;
		(*types)[i] = sc->fields[i].type;
	}
}

/* A session of the engine's own for flush commits: autocommit, never in
 * a block, touching no thread state (unlike session_new). */
static void
flush_session_init(Session *fs, Engine *e)
{
	memset(fs, 0, sizeof *fs);
	fs->engine = e;
	fs->sp_fixed = "public";
	fs->cancel_flag = &fs->cancel;
}

static void
flush_session_dispose(Session *fs)
{
	txn_session_free(fs);
	search_path_free(fs);
	arena_free(fs->exec_parse_arena);
	arena_free(fs->exec_stmt_arena);
}

static void
flush_ctx_init(ExecCtx *ctx, Session *fs, Arena *a, floe_error *err)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->arena = a;
	ctx->io = fs->engine->io;
	ctx->err = err;
	ctx->cancel = fs->cancel_flag;
	ctx->mem_limit = exec_mem_limit(NULL);
	ctx->threads = 1;
	/* the flush session's: a DEFAULT nextval() of a buffered row runs here */
	ctx->env = acl_statement_env(fs, a);
}

/* Table ns.name got a flush commit: the flush thread looks at its small
 * files next (compact.h). */
static void
note_compact(Ingest *ig, const char *ns, const char *name)
{
	size_t ln = strlen(ns), lm = strlen(name);
	char *k;
	int i;

	pthread_mutex_lock(&ig->mu);
	for (i = 0; i < ig->ncompact; i++)
		if (!strcmp(ig->compact_due[i], ns) && !strcmp(ig->compact_due[i] + ln + 1, name))
			break;
	if (i == ig->ncompact && ig->ncompact < 1024) {
		if (ig->ncompact == ig->capcompact) {
			ig->capcompact = ig->capcompact ? ig->capcompact * 2 : 16;
			ig->compact_due = xrealloc(ig->compact_due, sizeof(char *) * (size_t)ig->capcompact);
		}
		k = xmalloc(ln + lm + 2);
		memcpy(k, ns, ln + 1);
		memcpy(k + ln + 1, name, lm + 1);
		ig->compact_due[ig->ncompact++] = k;
	}
	pthread_mutex_unlock(&ig->mu);
}

/* The flush thread: compact the tables flushed since the last look; one
 * that gave up (an open block, a conflict) stays due for the next cycle. */
static void
compact_due_tables(Ingest *ig)
{
	int i, n, keep = 0;
	char **due;
	Session fs;

	pthread_mutex_lock(&ig->mu);
	due = ig->compact_due;
	n = ig->ncompact;
	ig->compact_due = NULL;
	ig->ncompact = ig->capcompact = 0;
	pthread_mutex_unlock(&ig->mu);
	if (n == 0)
		return;
	flush_session_init(&fs, ig->e);
	for (i = 0; i < n; i++) {
		CompactStats st;
		floe_error e1;
		floe_error_clear(&e1);
		if (!ig->stop && compact_table(&fs, due[i], due[i] + strlen(due[i]) + 1, (int)compact_files, &st,
					       &e1) == FLOE_OK && st.gave_up)
			due[keep++] = due[i];
		else
			free(due[i]);
	}
	flush_session_dispose(&fs);
	for (i = 0; i < keep; i++)
		note_compact(ig, due[i], due[i] + strlen(due[i]) + 1), free(due[i]);
	free(due);
}

/* This thread is committing a flush: its commit is the buffer's own, not
 * checked against the buffered keys (ingest_key_guard). */
static _Thread_local bool flushing;

/* Flush one table's buffered rows (invariant 2); the caller holds no
 * stripe.  *rows: rows committed. */
static int
flush_uuid(Ingest *ig, const char *uuid, int64_t *rows, floe_error *err)
{
	IngestBuffer *b = ig->buf;
	pthread_mutex_t *lk = stripe(ig, uuid);
	Arena *a = arena_new(1 << 20);
	Collect c;
	Session fs;
	ExecCtx ctx;
	RowEntry head;
	Table *t = NULL;
	int rc = FLOE_OK, i;
	uint64_t top;
	IbufStat st;
	void *node_lock = NULL;

	*rows = 0;
	memset(&c, 0, sizeof c);
	c.a = a;
	flush_session_init(&fs, ig->e);
	flush_ctx_init(&ctx, &fs, a, err);
	pthread_mutex_lock(lk);
	/* no other node flushes the table meanwhile (the postgres backend) */
	if ((rc = ibuf_flush_lock(b, uuid, &node_lock, err)) != FLOE_OK) {
		pthread_mutex_unlock(lk);
		flush_session_dispose(&fs);
		arena_free(a);
		return rc;
	}
	ibuf_note_flush(b, uuid, true, false);
	top = ibuf_stable_seq(b);
	rc = ibuf_scan(b, uuid, 0, top, collect_visit, &c, err);
	if (rc == FLOE_OK && c.n == 0) {
		ibuf_note_flush(b, uuid, false, true);
		goto out;
	}
	if (rc == FLOE_OK)
		rc = rowcodec_decode(c.e[0].bytes, c.e[0].len, a, &head, err);
	if (rc == FLOE_OK)
		rc = txn_table_load(&fs, head.ns, head.name, a, &t, err);
	if (rc == FLOE_OK && (!t->md->table_uuid || strcmp(t->md->table_uuid, uuid)))
		rc = floe_errorf(err, ERRCODE_UNDEFINED_TABLE,
				 "relation \"%s.%s\" of the buffered rows does not exist any more",
				 head.ns, head.name);
	if (rc == FLOE_OK) {
		const IcebergSchema *sc = metadata_current_schema(t->md);
		uint64_t rec = table_ingest_seq(t->md), last = c.e[c.n - 1].seq;
		int32_t *ids;
		SqlType *types;
		RowStore *rs;
		schema_cols(sc, a, &ids, &types);
		rs = rowstore_new(&ctx, sc->nfields, types, NULL);
		for (i = 0; i < c.n && rc == FLOE_OK; i++) {
			RowEntry e;
			Batch **bs;
			int nb, k;
			if (c.e[i].seq <= rec)
				continue;           /* committed before a crash */
			rc = rowcodec_decode(c.e[i].bytes, c.e[i].len, a, &e, err);
			if (rc == FLOE_OK)
				rc = rowcodec_batches(&e, a, sc->nfields, ids, types, &bs, &nb, err);
			for (k = 0; rc == FLOE_OK && k < nb; k++) {
				rc = insert_check_not_null(sc, t->name, bs[k], a, err);
				rowstore_append(rs, bs[k]);
			}
		}
		if (rc == FLOE_OK && rowstore_rows(rs) > 0) {
			bool was = flushing;
			flushing = true;
			rc = insert_write_rows_seq(&fs, &ctx, t, rowstore_scan_new(&ctx, rs), last, NULL, rows);
			flushing = was;
		}
		if (rc == FLOE_OK)
			rc = ibuf_discard(b, uuid, last, err);
		if (rc == FLOE_OK)
			cache_drop(ig, uuid, last);
		if (rc == FLOE_OK && *rows > 0)
			note_compact(ig, head.ns, head.name);
	}
	ibuf_note_flush(b, uuid, false, rc == FLOE_OK);
	if (rc == FLOE_OK)
		flush_gen++;            /* ends the sessions' snapshot pins */
	if (rc != FLOE_OK && ibuf_table_stat(b, uuid, &st) && st.flush_failures >= max_retries) {
		floe_error ignore;
		floe_error_clear(&ignore);
		(void)ibuf_dead_letter(b, uuid, &ignore);
		cache_drop(ig, uuid, UINT64_MAX);
	}
out:
	ibuf_flush_unlock(b, uuid, node_lock);
	pthread_mutex_unlock(lk);
	flush_session_dispose(&fs);
	arena_free(a);
	return rc;
}

/* Flush every table that is due (force: every table with rows); failures
 * are counted per table (and reported through err when report). */
static int
flush_due(Ingest *ig, bool force, floe_error *err)
{
	IngestBuffer *b = ig->buf;
	IbufStat *st;
	int n, i, rc = FLOE_OK;
	int64_t now = now_ms();

	if (!b || !ibuf_is_owner(b))
		return FLOE_OK;
	ibuf_stats(b, &st, &n);
	for (i = 0; i < n; i++) {
		int64_t rows;
		floe_error e1;
		if (st[i].pending_objects == 0)
			continue;
		if (!force && now - st[i].oldest_ms < max_staleness_ms && st[i].pending_bytes < FLUSH_BYTES)
			continue;
		floe_error_clear(&e1);
		if (flush_uuid(ig, st[i].uuid, &rows, &e1) != FLOE_OK && rc == FLOE_OK) {
			rc = FLOE_ERR;
			if (err)
				*err = e1;
		}
	}
	free(st);
	return rc;
}

static void *
flusher_main(void *arg)
{
	Ingest *ig = arg;

	while (!ig->stop) {
		/* every 2 s, or every max_staleness when that is shorter */
		int64_t slept;
		for (slept = 0; slept < FLUSH_CHECK_MS && slept < max_staleness_ms && !ig->stop; slept += 50) {
			usleep(50 * 1000);
			if (ig->buf && ibuf_is_owner(ig->buf))
				serve_requests(ig);
		}
		if (!ig->stop && get_buf(ig, false))
			(void)flush_due(ig, false, NULL);
		if (!ig->stop)
			compact_due_tables(ig);
	}
	return NULL;
}

bool
ingest_pin_generation(Engine *e, uint64_t *gen)
{
	Ingest *ig = e->ingest;
	IngestBuffer *b = ig ? ig->buf : NULL;

	*gen = flush_gen;
	return !b || (ibuf_is_owner(b) && !ibuf_shared(b));
}

int
ingest_engine_open(Engine *e, floe_error *err)
{
	const char *backend = getenv("FLOE_INSERT_BUFFER_BACKEND");
	Ingest *ig;
	int i;

	/* An S3 warehouse with a PostgreSQL catalog is the many-node setup:
	 * nodes keep no state of their own, so the buffer is the catalog's
	 * (a node's local log would hide its rows from the other nodes and die
	 * with its disk).  FLOE_INSERT_BUFFER_BACKEND=rocksdb still picks the
	 * local one. */
	if ((!backend || !*backend) && e->catalog_conninfo && e->root && s3_is_uri(e->root))
		backend = "postgres";

	if (backend && *backend && strcmp(backend, "rocksdb") && strcmp(backend, "postgres")) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid insert buffer backend \"%s\" (FLOE_INSERT_BUFFER_BACKEND)", backend);
		return floe_error_hint(err, "Available values: rocksdb, postgres.");
	}
	if (backend && !strcmp(backend, "postgres") && !e->catalog_conninfo)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "insert buffer backend \"postgres\" needs a PostgreSQL catalog "
				   "(--catalog or <warehouse>/catalog-uri); this warehouse's catalog is not one");
	ig = xcalloc(1, sizeof *ig);
	ig->e = e;
	ig->kidx = keyidx_new();
	if (asprintf(&ig->lockdir, "%s/ingest-keylocks", e->warehouse) < 0)
		ig->lockdir = NULL;
	pthread_mutex_init(&ig->mu, NULL);
	for (i = 0; i < NSTRIPES; i++)
		pthread_mutex_init(&ig->stripes[i], NULL);
	e->ingest = ig;
	if (backend && !strcmp(backend, "postgres")) {
		IngestBuffer *nb;
		ig->pg = true;
		/* every node's rows are read from the start (the overlay) */
		TRY(ibuf_open_pg(&nb, e->catalog_conninfo, err));
		ig->buf = nb;
		return FLOE_OK;
	}
	(void)get_buf(ig, false);       /* rows left by an earlier process */
	return FLOE_OK;
}

int
ingest_start_flusher(Engine *e, floe_error *err)
{
	Ingest *ig = e->ingest;
	int rc = FLOE_OK;

	pthread_mutex_lock(&ig->mu);
	if (!ig->thread_started) {
		if (pthread_create(&ig->thread, NULL, flusher_main, ig) != 0)
			rc = floe_errorf(err, ERRCODE_INSUFFICIENT_RESOURCES,
					 "could not start the insert buffer's flush thread");
		else
			ig->thread_started = true;
	}
	pthread_mutex_unlock(&ig->mu);
	return rc;
}

void
ingest_engine_close(Engine *e)
{
	Ingest *ig = e->ingest;
	int i;

	if (!ig)
		return;
	if (ig->thread_started) {
		ig->stop = 1;
		pthread_join(ig->thread, NULL);
	}
	if (ig->buf && ibuf_is_owner(ig->buf)) {
		floe_error err;
		floe_error_clear(&err);
		if (flush_due(ig, true, &err) != FLOE_OK)
			fprintf(stderr, "floe: insert buffer flush failed (the rows stay buffered in %s%s): %s\n",
				ig->pg ? "the PostgreSQL catalog's database" : e->warehouse,
				ig->pg ? "" : "/ingest", err.message);
	}
	ibuf_close(ig->buf);
	cache_free_all(ig);
	keyidx_free(ig->kidx);
	free(ig->lockdir);
	for (i = 0; i < ig->ncompact; i++)
		free(ig->compact_due[i]);
	free(ig->compact_due);
	pthread_mutex_destroy(&ig->mu);
	for (i = 0; i < NSTRIPES; i++)
		pthread_mutex_destroy(&ig->stripes[i]);
	free(ig);
	e->ingest = NULL;
}

/* ---- buffered INSERT ----------------------------------------------------- */

/* The INSERT's shape allows buffering (the table is not looked at). */
static bool
bufferable_shape(Session *s, PgQuery__InsertStmt *is, bool overwrite)
{
	long long limit = rows_limit(s);
	PgQuery__SelectStmt *sel;

	if (limit <= 0 || overwrite || session_txn_status(s) != 'I')
		return false;
	if (is->on_conflict_clause || is->n_returning_list || is->with_clause)
		return false;
	if (!is->select_stmt)
		return true;            /* DEFAULT VALUES */
	if (is->select_stmt->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return false;
	sel = is->select_stmt->select_stmt;
	return sel->n_values_lists > 0 && (long long)sel->n_values_lists <= limit && !sel->n_sort_clause &&
	       !sel->limit_count && !sel->limit_offset && !sel->with_clause;
}

/* An autocommit INSERT without ON CONFLICT or OVERWRITE into a table
 * without a PRIMARY KEY takes no write turn: buffered, or a plain append
 * whose concurrent peers share a commit (groupcommit.h) instead of
 * queueing for the table one statement at a time.  A keyed table's INSERT
 * takes none when it is buffered (its key lock orders it, keyindex.c);
 * on the direct path it keeps its turn. */
bool
ingest_skip_turn(Session *s, const char *sql, const SqlStmt *st)
{
	PgQuery__InsertStmt *is;
	const char *ns, *name;
	Arena *a;
	Table *t;
	floe_error e1;
	bool skip = false;

	if (st->node->node_case != PG_QUERY__NODE__NODE_INSERT_STMT)
		return false;
	is = st->node->insert_stmt;
	if (is->on_conflict_clause || sql_is_insert_overwrite(sql, st) || session_txn_status(s) != 'I' ||
	    !is->relation)
		return false;
	session_resolve_name(s, is->relation, &ns, &name);
	a = arena_new(16 * 1024);
	floe_error_clear(&e1);
	if (table_load(s->engine->catalog, s->engine->io, ns, name, a, &t, &e1) == FLOE_OK)
		skip = metadata_current_schema(t->md)->nidentifier == 0 ||
		       (s->engine->ingest && bufferable_shape(s, is, false) &&
			bufferable_table(s->engine->ingest, t));
	arena_free(a);
	return skip;
}

/* Backpressure: wait while the buffer holds max_bytes (the flush thread
 * drains it; without one, this session flushes), then 53400. */
static int
admit(Ingest *ig, Session *s, floe_error *err)
{
	if (ibuf_pending_bytes(ig->buf) < max_bytes)
		return FLOE_OK;
	if (!ig->thread_started) {
		floe_error e1;
		floe_error_clear(&e1);
		(void)flush_due(ig, true, &e1);
	}
	if (ibuf_wait_bytes_below(ig->buf, max_bytes, ig->thread_started ? wait_timeout_ms : 0,
				  s->cancel_flag))
		return FLOE_OK;
	if (*s->cancel_flag)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	floe_errorf(err, ERRCODE_CONFIGURATION_LIMIT_EXCEEDED,
		    "the insert buffer is full: %lld bytes wait for their flush (floe.insert_buffer_max_bytes)",
		    (long long)ibuf_pending_bytes(ig->buf));
	return floe_error_hint(err, "Retry later, raise floe.insert_buffer_max_bytes, or FLUSH INSERT BUFFER.");
}

/* Check and append the rows of batches bs (one column per field of t's
 * current schema, compacted) as one buffer entry: NOT NULL and CHECK
 * constraints (sql/check.h), then the synced write.  *rows: rows appended. */
/* A numeric[] column without typmod: its elements as the table reads them
 * back after the flush, without trailing zeros (array_trim_numeric), so a
 * buffered row reads as its committed self.  The column's vector is
 * replaced by a flat one indexed as the batch's rows. */
static int
trim_numeric_arrays(const IcebergSchema *sc, Batch *b, Arena *a, floe_error *err)
{
	int c;

	for (c = 0; c < sc->nfields && c < b->ncols; c++) {
		SqlType ty = sc->fields[c].type;
		VectorView vv;
		Vector nv;
		uint32_t r, cap = 0;

		if (ty.id != TYPE_ARRAY || ty.elem != TYPE_DECIMAL || ty.precision != 0 ||
		    b->cols[c].type.id != TYPE_ARRAY)
			continue;
		for (r = 0; r < b->count; r++) {
			uint32_t p = b->sel ? b->sel[r] : r;
			cap = p + 1 > cap ? p + 1 : cap;
		}
		vector_view(&b->cols[c], &vv);
		vector_init(&nv, b->cols[c].type, a, cap ? cap : 1);
		for (r = 0; r < cap; r++)
			vector_set_null(&nv, r);
		for (r = 0; r < b->count; r++) {
			uint32_t p = b->sel ? b->sel[r] : r, k = vv.sel ? vv.sel[p] : p;
			strview out;
			if (!validity_get(vv.validity, k))
				continue;
			TRY(array_trim_numeric(&((const strview *)vv.data)[k], nv.type, a, &out, err));
			vector_set_valid(&nv, p);
			vector_set_string(&nv, p, strview_data(&out), out.len);
		}
		b->cols[c] = nv;
	}
	return FLOE_OK;
}

static int
append_rows(Ingest *ig, Session *s, ExecCtx *ctx, Table *t, Batch **bs, int nb, int64_t *rows)
{
	CheckBound *checks;
	const IcebergSchema *sc = metadata_current_schema(t->md);
	int32_t *ids;
	SqlType *types;
	RowEncoder enc;
	uint8_t *bytes = NULL;
	size_t len = 0;
	uint64_t seq;
	char label[256];
	int i, rc;

	*rows = 0;
	TRY(check_constraints_bind(s, ctx, t, &checks));
	for (i = 0; i < nb; i++) {
		TRY(check_domain_rows(checks, ctx, bs[i], NULL, bs[i]->count));
		TRY(insert_check_not_null(sc, t->name, bs[i], ctx->arena, ctx->err));
		TRY(check_constraints_rows(checks, ctx, bs[i], NULL, bs[i]->count));
	}
	schema_cols(sc, ctx->arena, &ids, &types);
	for (i = 0; i < nb; i++)
		TRY(trim_numeric_arrays(sc, bs[i], ctx->arena, ctx->err));
	snprintf(label, sizeof label, "%s.%s", t->ns, t->name);
	rowcodec_init(&enc, t->ns, t->name, sc->schema_id, sc->nfields, ids, types);
	for (i = 0; i < nb; i++) {
		rowcodec_add(&enc, bs[i]);
		*rows += bs[i]->count;
	}
	rowcodec_finish(&enc, &bytes, &len);
	rowcodec_dispose(&enc);
	if (sc->nidentifier > 0) {
		/* PRIMARY KEY: checked and reserved under the key lock, which
		 * is held until the entry is durable (keyindex.c) */
		KeyedTurn kt;
		if (keyed_begin(&kt, ig->kidx, ig->buf, ig->lockdir, s, ctx, t, bs, nb) != FLOE_OK) {
			free(bytes);
			*rows = 0;
			return FLOE_ERR;
		}
		rc = ibuf_append(ig->buf, t->md->table_uuid, label, table_ingest_seq(t->md), bytes, len, &seq,
				 ctx->err);
		if (rc == FLOE_OK)
			cache_add(ig, t->md->table_uuid, seq, bytes, len);
		keyed_end(&kt, rc == FLOE_OK ? seq : 0);
		free(bytes);
		return rc;
	}
	rc = ibuf_append(ig->buf, t->md->table_uuid, label, table_ingest_seq(t->md), bytes, len, &seq, ctx->err);
	if (rc == FLOE_OK)
		cache_add(ig, t->md->table_uuid, seq, bytes, len);
	free(bytes);
	return rc;
}

/* Keyed tables may be buffered (keyindex.c): the RocksDB backend in the
 * warehouse's own folder, where every process that writes the warehouse
 * sees the one log and the key locks.  Not with the postgres backend
 * (every node appends) nor an S3 warehouse (its nodes' folders are
 * their own). */
static bool
keyed_ok(Ingest *ig)
{
	return !ig->pg && ig->lockdir && !(ig->e->root && s3_is_uri(ig->e->root));
}

/* t may take buffered rows (a uuid, no nested columns; a PRIMARY KEY
 * where keyed_ok) and this process owns the buffer (opened here on first
 * use). */
static bool
bufferable_table(Ingest *ig, Table *t)
{
	const IcebergSchema *sc = metadata_current_schema(t->md);
	IngestBuffer *b;
	int i;

	if (temp_is_temp_ns(t->ns) ||       /* a temporary table (sql/temp.h): never buffered */
	    !t->md->table_uuid || strlen(t->md->table_uuid) != IBUF_UUID_LEN ||
	    (sc->nidentifier > 0 && !keyed_ok(ig)) ||
	    t->branch || t->wap_id)        /* a write view (table/branch.h) */
		return false;
	for (i = 0; i < sc->nfields; i++)
		if (sc->fields[i].nested)
			return false;   /* not writable (a struct, map, list of lists) */
	return (b = get_buf(ig, true)) && ibuf_is_owner(b);
}

int
ingest_try_insert(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, Table *t,
		  ResultSink *sink, bool *done)
{
	Ingest *ig = s->engine->ingest;
	const IcebergSchema *sc = metadata_current_schema(t->md);
	Operator *root;
	Batch *bt, **nbs = NULL;
	int nnb = 0, capnb = 0, rc;
	SqlType *types;
	int32_t *ids;
	int64_t rows = 0;
	char tag[64];

	*done = false;
	if (!ig || !bufferable_shape(s, is, false) || !bufferable_table(ig, t))
		return FLOE_OK;
	TRY(admit(ig, s, ctx->err));
	TRY(insert_source(s, ctx, sql, is, t, &root));
	schema_cols(sc, ctx->arena, &ids, &types);
	rc = op_open(root);
	while (rc == FLOE_OK && (rc = op_next(root, &bt)) == FLOE_OK && bt) {
		/* kept until the append (the next batch may reuse bt) */
		Batch *cp;
		int c;
		if (!bt->count)
			continue;
		batch_compact(bt);
		cp = batch_new(ctx->arena, sc->nfields, types, bt->count);
		for (c = 0; c < sc->nfields; c++)
			vector_copy_rows(&cp->cols[c], 0, &bt->cols[c], NULL, bt->count);
		cp->count = bt->count;
		if (nnb == capnb) {
			int nc = capnb ? capnb * 2 : 4;
			nbs = arena_realloc(ctx->arena, nbs, sizeof(Batch *) * (size_t)capnb,
					    sizeof(Batch *) * (size_t)nc);
			capnb = nc;
		}
		nbs[nnb++] = cp;
	}
	op_close(root);
	TRY(rc);
	TRY(append_rows(ig, s, ctx, t, nbs, nnb, &rows));
	*done = true;
	snprintf(tag, sizeof tag, "INSERT 0 %lld", (long long)rows);
	return engine_complete(sink, tag);
}

/* ---- the fast path: INSERT ... VALUES of literals without libpg_query ---- */

/* An unquoted number is an integer or numeric constant, cast to the float
 * column: -0 and -0.0 are 0 there (numeric has no negative zero), as in
 * PostgreSQL; the float input function alone would keep the sign. */
static bool
unsigned_zero(Value *v, bool ok)
{
	if (ok && !v->is_null && (v->type.id == TYPE_FLOAT64 || v->type.id == TYPE_FLOAT32) &&
	    v->u.f == 0)
		v->u.f = 0.0;
	return ok;
}

/* Literal l as a value of field f in v; false: the full path must decide
 * (anything whose PostgreSQL semantics are not plainly the type's input
 * function or an exact integer). */
static bool
fast_value(const FvLit *l, const IcebergField *f, Value *v, Arena *a)
{
	SqlType t = f->type;
	floe_error e;

	floe_error_clear(&e);
	switch (l->kind) {
	case FV_NULL:
		*v = value_null(t);
		return true;
	case FV_DEFAULT:
		if (f->default_sql)
			return false;
		*v = value_null(t);
		return true;
	case FV_TRUE:
	case FV_FALSE:
		if (t.id != TYPE_BOOL)
			return false;
		*v = value_null(t);
		v->is_null = false;
		v->u.b = l->kind == FV_TRUE;
		return true;
	case FV_STRING:
		if (t.id == TYPE_ARRAY || (t.id == TYPE_DECIMAL && t.precision == 0))
			return false;
		return value_from_text(v, t, l->p, l->len, a, &e) == FLOE_OK;
	case FV_INT:
		if (t.id == TYPE_INT16 || t.id == TYPE_INT32 || t.id == TYPE_INT64) {
			long long x;
			char *end;
			errno = 0;
			x = strtoll(l->p, &end, 10);
			if (errno || *end || (t.id == TYPE_INT16 && (x < INT16_MIN || x > INT16_MAX)) ||
			    (t.id == TYPE_INT32 && (x < INT32_MIN || x > INT32_MAX)))
				return false;
			*v = value_null(t);
			v->is_null = false;
			v->u.i = x;
			return true;
		}
		if (t.id == TYPE_FLOAT64 && l->len < 16)
			return unsigned_zero(v, value_from_text(v, t, l->p, l->len, a, &e) == FLOE_OK);
		/* numeric columns take the number's text, as FV_NUM */
		__attribute__((fallthrough));
	case FV_NUM:
		if ((t.id == TYPE_DECIMAL && t.precision > 0) || t.id == TYPE_FLOAT64 ||
		    (t.id == TYPE_FLOAT32 && l->kind == FV_NUM))
			return unsigned_zero(v, value_from_text(v, t, l->p, l->len, a, &e) == FLOE_OK);
		return false;
	case FV_PARAM:
		return false;      /* fast_param's */
	}
	return false;
}

/* Bind parameter $n (Session.param_values / param_oids: the extended
 * protocol's Bind) as a value of field f, typed as PostgreSQL types it:
 * an unspecified $n takes the column's type (its text goes through the
 * column's input function, as a quoted literal's); a declared one is read
 * as its own type and then assigned to the column: int2/int4/int8 into an
 * integer column (range-checked), text/varchar/bpchar into a text column
 * (bpchar into text or varchar loses its trailing spaces, as its cast
 * does; into char(n) it is cut or padded to n).  Any other pair of types
 * (an assignment cast or 42804, which Parse reported already), a value
 * its type refuses, an integer out of the column's range: false, the full
 * path decides with PostgreSQL's error. */
static bool
fast_param(Session *s, uint32_t n, const IcebergField *f, Value *v, Arena *a)
{
	SqlType t = f->type, pt;
	uint32_t oid;
	const char *text;
	size_t len;
	floe_error e;

	if (s->params_describe || n < 1 || (int)n > s->nparams)
		return false;
	oid = s->param_oids ? s->param_oids[n - 1] : 0;
	text = s->param_values ? s->param_values[n - 1] : NULL;
	floe_error_clear(&e);
	if (oid == 0 || oid == 705) {
		FvLit l = { FV_NULL, NULL, 0 };
		if (text) {
			l.kind = FV_STRING;
			l.p = text;
			l.len = (uint32_t)strlen(text);
		}
		return fast_value(&l, f, v, a);
	}
	switch (oid) {
	case 21:
	case 23:
	case 20:
		if (t.id != TYPE_INT16 && t.id != TYPE_INT32 && t.id != TYPE_INT64)
			return false;
		if (!text) {
			*v = value_null(t);
			return true;
		}
		pt = type_make(oid == 21 ? TYPE_INT16 : oid == 23 ? TYPE_INT32 : TYPE_INT64);
		if (value_from_text(v, pt, text, strlen(text), a, &e) != FLOE_OK || v->is_null ||
		    (t.id == TYPE_INT16 && (v->u.i < INT16_MIN || v->u.i > INT16_MAX)) ||
		    (t.id == TYPE_INT32 && (v->u.i < INT32_MIN || v->u.i > INT32_MAX)))
			return false;
		v->type = t;
		return true;
	case 25:
	case 1043:
	case 1042:
		if (t.id != TYPE_TEXT)
			return false;
		if (!text) {
			*v = value_null(t);
			return true;
		}
		len = strlen(text);
		if (oid == 1042 && t.text_kind != TEXT_CHAR)
			while (len && text[len - 1] == ' ')
				len--;
		return value_from_text(v, t, text, len, a, &e) == FLOE_OK;
	default:
		return false;
	}
}

bool
ingest_fast_insert(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc)
{
	Ingest *ig = s->engine->ingest;
	long long limit = rows_limit(s);
	Arena *a;
	FastValues fv;
	ExecCtx ctx;
	Table *t;
	const IcebergSchema *sc;
	int *tcol, i, k, r, nb;
	Batch **bs;
	SqlType *types;
	int32_t *ids;
	int64_t rows;
	bool handled = false;
	char tag[64];

	const char *ro = session_setting(s, "default_transaction_read_only");

	if (!ig || limit <= 0 || session_txn_status(s) != 'I' || (sql[0] != 'I' && sql[0] != 'i' &&
	    !isspace((unsigned char)sql[0])))
		return false;
	const char *sm = session_setting(s, "floe.snapshot_mode");

	/* a read-only session's INSERT is 25006: the full path says so (and
	 * floe.snapshot_mode = 'explicit:<id>''s, snapshot_pin.h) */
	if ((ro && (!strcasecmp(ro, "on") || !strcasecmp(ro, "true"))) ||
	    (sm && !strncasecmp(sm, "explicit:", 9)))
		return false;
	a = arena_new(256 * 1024);
	if (!fastvalues_parse(sql, a, (int)(limit > 100000 ? 100000 : limit), &fv))
		goto out;
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = a;
	ctx.io = s->engine->io;
	ctx.err = err;
	ctx.cancel = s->cancel_flag;
	ctx.env = acl_statement_env(s, a);   /* DEFAULT nextval() and now() read it */
	ctx.mem_limit = exec_mem_limit(NULL);
	ctx.threads = 1;
	if (!acl_is_superuser(s) || temp_resolve(s, fv.schema, fv.table) ||   /* temp.h: never buffered */
	    txn_table_load(s, fv.schema ? fv.schema : search_path_lookup(s, fv.table), fv.table, a, &t, err) != FLOE_OK ||
	    write_target_redirected(s, t) || !bufferable_table(ig, t)) {
		floe_error_clear(err);
		goto out;
	}
	sc = metadata_current_schema(t->md);
	/* identity columns (428C9, OVERRIDING): the full path's serial.c */
	for (i = 0; i < sc->nfields; i++)
		if (sc->fields[i].identity)
			goto out;
	/* target columns: the list (each once), or all in order */
	tcol = ARENA_ARRAY(a, int, fv.width + 1);
	if (fv.ncols ? fv.ncols != fv.width : fv.width > sc->nfields)
		goto out;
	for (k = 0; k < fv.width; k++) {
		tcol[k] = fv.ncols ? -1 : k;
		for (i = 0; fv.ncols && i < sc->nfields; i++)
			if (!strcmp(sc->fields[i].name, fv.cols[k]))
				tcol[k] = i;
		if (tcol[k] < 0)
			goto out;
		for (i = 0; i < k; i++)
			if (tcol[i] == tcol[k])
				goto out;
	}
	/* columns not given take their DEFAULT: only plain NULL ones here */
	for (i = 0; i < sc->nfields; i++) {
		bool given = false;
		for (k = 0; k < fv.width; k++)
			given |= tcol[k] == i;
		if (!given && (sc->fields[i].default_sql || type_is_domain(sc->fields[i].type)))
			goto out;     /* a domain may have a DEFAULT (types/udt.h) */
	}
	schema_cols(sc, a, &ids, &types);
	nb = (fv.nrows + VECTOR_SIZE - 1) / VECTOR_SIZE;
	bs = ARENA_ARRAY(a, Batch *, nb + 1);
	for (i = 0; i < nb; i++) {
		/* as wide as its rows: a one-row INSERT zeroes one row, not 2048 */
		uint32_t cnt = i + 1 < nb ? VECTOR_SIZE : (uint32_t)(fv.nrows - i * VECTOR_SIZE);
		bs[i] = batch_new(a, sc->nfields, types, cnt);
		bs[i]->count = cnt;
		for (k = 0; k < sc->nfields; k++)
			for (r = 0; r < (int)bs[i]->count; r++)
				vector_set_null(&bs[i]->cols[k], (uint32_t)r);
	}
	for (r = 0; r < fv.nrows; r++)
		for (k = 0; k < fv.width; k++) {
			const FvLit *l = &fv.lits[r * fv.width + k];
			Value v;
			if (l->kind == FV_PARAM ? !fast_param(s, l->len, &sc->fields[tcol[k]], &v, a)
						: !fast_value(l, &sc->fields[tcol[k]], &v, a))
				goto out;
			vector_set_value(&bs[r / VECTOR_SIZE]->cols[tcol[k]], (uint32_t)(r % VECTOR_SIZE), &v);
		}
	/* from here on the statement is this path's: its errors are final */
	handled = true;
	if ((*rc = admit(ig, s, err)) != FLOE_OK || (*rc = append_rows(ig, s, &ctx, t, bs, nb, &rows)) != FLOE_OK)
		goto out;
	snprintf(tag, sizeof tag, "INSERT 0 %lld", (long long)rows);
	*rc = engine_complete(sink, tag);
out:
	arena_free(a);
	return handled;
}

/* ---- flushes a statement needs ------------------------------------------- */

/* ---- flush requests of reader processes ----------------------------------
 * A reader process (another floe serve node or a shell on the warehouse)
 * that needs a table's rows committed asks the owner: it creates
 * <warehouse>/ingest-requests/<table uuid>; the owner's flush thread looks
 * there every 50 ms, removes the request and flushes the table.  The
 * reader waits (cancellable, floe.insert_buffer_wait_timeout) until the
 * table's recorded sequence reaches the highest one it saw buffered, else
 * 55006 (an owner without a flush thread, the shell, never answers). */
static int
request_flush(Session *s, const char *ns, const char *name, const char *uuid, uint64_t upto,
	      Arena *a, floe_error *err)
{
	char *dir = arena_sprintf(a, "%s/ingest-requests", s->engine->warehouse);
	char *path = arena_sprintf(a, "%s/%s", dir, uuid);
	int64_t waited = 0;
	FILE *f;

	(void)mkdir(dir, 0755);
	if ((f = fopen(path, "w")))
		fclose(f);
	for (;;) {
		Table *t;
		floe_error e1;
		floe_error_clear(&e1);
		if (table_load(s->engine->catalog, s->engine->io, ns, name, a, &t, &e1) != FLOE_OK)
			return FLOE_OK;         /* the statement reports it */
		if (!t->md->table_uuid || strcmp(t->md->table_uuid, uuid) || table_ingest_seq(t->md) >= upto)
			return FLOE_OK;
		if (*s->cancel_flag)
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		if (waited >= wait_timeout_ms)
			break;
		usleep(50 * 1000);
		waited += 50;
	}
	floe_errorf(err, ERRCODE_OBJECT_IN_USE,
		    "table \"%s\" has rows in the insert buffer of another floe process", name);
	return floe_error_hint(err, "Run the statement through that process, or run FLUSH INSERT BUFFER "
			       "there first (a floe serve flushes on request; a shell does not).");
}

/* The owner's flush thread: flush the tables readers asked for. */
static void
serve_requests(Ingest *ig)
{
	char dir[4096];
	DIR *d;
	struct dirent *de;

	snprintf(dir, sizeof dir, "%s/ingest-requests", ig->e->warehouse);
	if (!(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		char path[4200 + IBUF_UUID_LEN];
		char uuid[IBUF_UUID_LEN + 1];
		floe_error e1;
		int64_t rows;
		if (strlen(de->d_name) != IBUF_UUID_LEN)
			continue;
		memcpy(uuid, de->d_name, IBUF_UUID_LEN + 1);
		snprintf(path, sizeof path, "%s/%s", dir, uuid);
		if (unlink(path) != 0)
			continue;
		floe_error_clear(&e1);
		(void)flush_uuid(ig, uuid, &rows, &e1);
	}
	closedir(d);
}

/* Flush (ns, name)'s buffered rows before a statement that needs them
 * committed. */
static int
flush_named(Session *s, const char *ns, const char *name, floe_error *err)
{
	Ingest *ig = s->engine->ingest;
	IngestBuffer *b = ig ? ig->buf : NULL;
	Arena *a;
	Table *t;
	IbufStat st;
	int rc = FLOE_OK;
	int64_t rows;

	if (!b)
		return FLOE_OK;
	a = arena_new(64 * 1024);
	if (table_load(s->engine->catalog, s->engine->io, ns, name, a, &t, err) != FLOE_OK) {
		floe_error_clear(err);       /* the statement reports a missing table */
		arena_free(a);
		return FLOE_OK;
	}
	if (t->md->table_uuid && ibuf_table_stat(b, t->md->table_uuid, &st) && st.pending_objects > 0) {
		if (!ibuf_is_owner(b)) {
			rc = request_flush(s, ns, name, t->md->table_uuid, st.max_seq, a, err);
		} else {
			rc = flush_uuid(ig, t->md->table_uuid, &rows, err);
		}
	}
	arena_free(a);
	return rc;
}

static void
rv_name(Session *s, PgQuery__RangeVar *rv, const char **ns, const char **name)
{
	session_resolve_name(s, rv, ns, name);
}

/* The table a CALL names: its first argument (or the one named table),
 * a string 'schema.name' or an identifier t / schema.t. */
static bool
call_table(Session *s, PgQuery__CallStmt *cs, const char **ns, const char **name)
{
	PgQuery__FuncCall *f = cs->funccall;
	Node *arg = NULL;
	size_t i;
	static _Thread_local char buf[512];
	char *dot;

	if (!f || f->n_args == 0)
		return false;
	for (i = 0; i < f->n_args; i++) {
		Node *x = f->args[i];
		if (x->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			if (x->named_arg_expr->name && !strcmp(x->named_arg_expr->name, "table"))
				arg = x->named_arg_expr->arg;
		} else if (i == 0) {
			arg = x;
		}
	}
	if (!arg)
		return false;
	if (arg->node_case == PG_QUERY__NODE__NODE_A_CONST && arg->a_const->val_case ==
	    PG_QUERY__A__CONST__VAL_SVAL && arg->a_const->sval->sval) {
		snprintf(buf, sizeof buf, "%s", arg->a_const->sval->sval);
	} else if (arg->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && arg->column_ref->n_fields >= 1 &&
		   arg->column_ref->n_fields <= 2) {
		PgQuery__ColumnRef *c = arg->column_ref;
		for (i = 0; i < c->n_fields; i++)
			if (c->fields[i]->node_case != PG_QUERY__NODE__NODE_STRING)
				return false;
		if (c->n_fields == 2)
			snprintf(buf, sizeof buf, "%s.%s", c->fields[0]->string->sval, c->fields[1]->string->sval);
		else
			snprintf(buf, sizeof buf, "%s", c->fields[0]->string->sval);
	} else {
		return false;
	}
	*name = buf;
	if ((dot = strchr(buf, '.'))) {
		*dot = 0;
		*ns = buf;
		*name = dot + 1;
	} else {
		*ns = search_path_lookup(s, buf);
	}
	return true;
}

/* DROP TABLE's tables, discarded after the statement succeeded. */
static _Thread_local char (*drop_uuids)[IBUF_UUID_LEN + 1];
static _Thread_local int ndrop;

/* ---- admission control (admission.h) -------------------------------------
 * A statement that writes a table directly takes a place before it runs
 * (after its write turn: a place holder never waits for a turn a waiter
 * holds) and gives it back after; a statement run inside it (a function's
 * DML) runs on the outer one's place.  hook_depth counts this thread's
 * before/after pairs, place_depth is the pair holding the place (0: none). */
static _Thread_local int hook_depth, place_depth;

/* st writes a table by the direct path: UPDATE, DELETE, MERGE, COPY ...
 * FROM, an INSERT the insert buffer does not take. */
static bool
direct_dml(Session *s, const char *sql, const SqlStmt *st)
{
	Ingest *ig = s->engine->ingest;
	Node *n = st->node;
	PgQuery__InsertStmt *is;
	const char *ns, *name;
	bool direct = true;
	floe_error e1;
	Arena *a;
	Table *t;

	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_UPDATE_STMT:
	case PG_QUERY__NODE__NODE_DELETE_STMT:
	case PG_QUERY__NODE__NODE_MERGE_STMT:
		return true;
	case PG_QUERY__NODE__NODE_COPY_STMT:
		return n->copy_stmt->is_from && n->copy_stmt->relation;
	case PG_QUERY__NODE__NODE_INSERT_STMT:
		break;
	default:
		return false;
	}
	is = n->insert_stmt;
	if (!ig || !is->relation || !bufferable_shape(s, is, sql_is_insert_overwrite(sql, st)))
		return true;
	session_resolve_name(s, is->relation, &ns, &name);
	a = arena_new(16 * 1024);
	floe_error_clear(&e1);
	if (table_load(s->engine->catalog, s->engine->io, ns, name, a, &t, &e1) == FLOE_OK)
		direct = !bufferable_table(ig, t);
	arena_free(a);
	return direct;
}

int
ingest_before_stmt(Session *s, const char *sql, const SqlStmt *st, floe_error *err)
{
	Ingest *ig = s->engine->ingest;
	IngestBuffer *b;
	Node *n = st->node;
	const char *ns, *name;
	size_t i;

	ndrop = 0;
	hook_depth++;
	if (!place_depth && admission_cap() > 0 && direct_dml(s, sql, st)) {
		TRY(admission_enter(s->cancel_flag, err));
		place_depth = hook_depth;
	}
	b = ig ? ig->buf : NULL;
	if (!b)
		return FLOE_OK;
	if (!ibuf_is_owner(b))
		TRY(ibuf_refresh(b, err));
	if (!any_pending(b))
		return FLOE_OK;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_INSERT_STMT: {
		PgQuery__InsertStmt *is = n->insert_stmt;
		bool ow = sql_is_insert_overwrite(sql, st);
		if (bufferable_shape(s, is, ow) && ibuf_is_owner(b))
			return FLOE_OK;         /* buffered */
		/* an autocommit append needs nothing flushed: a keyed table's
		 * commit checks its keys against the buffered ones
		 * (ingest_key_guard); a block's INSERT pins the table (txn.c),
		 * ON CONFLICT decides per row and OVERWRITE replaces: their
		 * rows first */
		if (!(ow || is->on_conflict_clause || session_txn_status(s) != 'I'))
			return FLOE_OK;
		rv_name(s, is->relation, &ns, &name);
		return flush_named(s, ns, name, err);
	}
	case PG_QUERY__NODE__NODE_UPDATE_STMT:
		rv_name(s, n->update_stmt->relation, &ns, &name);
		return flush_named(s, ns, name, err);
	case PG_QUERY__NODE__NODE_DELETE_STMT:
		rv_name(s, n->delete_stmt->relation, &ns, &name);
		return flush_named(s, ns, name, err);
	case PG_QUERY__NODE__NODE_MERGE_STMT:
		rv_name(s, n->merge_stmt->relation, &ns, &name);
		return flush_named(s, ns, name, err);
	case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
		if (!n->alter_table_stmt->relation)
			return FLOE_OK;
		rv_name(s, n->alter_table_stmt->relation, &ns, &name);
		return flush_named(s, ns, name, err);
	case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
		for (i = 0; i < n->truncate_stmt->n_relations; i++) {
			Node *r = n->truncate_stmt->relations[i];
			if (r->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
				continue;
			rv_name(s, r->range_var, &ns, &name);
			TRY(flush_named(s, ns, name, err));
		}
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_COPY_STMT:
		/* COPY ... FROM is an append (ingest_key_guard checks a keyed
		 * table's keys at its commit); COPY t TO reads t committed */
		if (n->copy_stmt->relation && !n->copy_stmt->is_from) {
			rv_name(s, n->copy_stmt->relation, &ns, &name);
			return flush_named(s, ns, name, err);
		}
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_VACUUM_STMT:     /* OPTIMIZE */
		for (i = 0; i < n->vacuum_stmt->n_rels; i++) {
			Node *r = n->vacuum_stmt->rels[i];
			if (r->node_case != PG_QUERY__NODE__NODE_VACUUM_RELATION || !r->vacuum_relation->relation)
				continue;
			rv_name(s, r->vacuum_relation->relation, &ns, &name);
			TRY(flush_named(s, ns, name, err));
		}
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_CALL_STMT:
		/* rollback_to_snapshot('t', ...), ROLLBACK / RESTORE TABLE t
		 * (CALL floe$r*(t, ...)), expire_snapshots, ...: the acknowledged
		 * rows are committed before the table's history is changed */
		if (call_table(s, n->call_stmt, &ns, &name))
			return flush_named(s, ns, name, err);
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_DROP_STMT: {
		PgQuery__DropStmt *ds = n->drop_stmt;
		if (ds->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
			return FLOE_OK;
		drop_uuids = xrealloc(drop_uuids, sizeof *drop_uuids * (ds->n_objects + 1));
		for (i = 0; i < ds->n_objects; i++) {
			Node *o = ds->objects[i];
			Arena *a;
			Table *t;
			floe_error e1;
			if (o->node_case != PG_QUERY__NODE__NODE_LIST || o->list->n_items < 1)
				continue;
			if (o->list->n_items == 1) {
				name = o->list->items[0]->string->sval;
				if (!(ns = temp_resolve(s, NULL, name)))   /* a temporary table first */
					ns = search_path_lookup(s, name);
			} else {
				ns = o->list->items[o->list->n_items - 2]->string->sval;
				name = o->list->items[o->list->n_items - 1]->string->sval;
			}
			a = arena_new(64 * 1024);
			floe_error_clear(&e1);
			if (table_load(s->engine->catalog, s->engine->io, ns, name, a, &t, &e1) == FLOE_OK &&
			    t->md->table_uuid && strlen(t->md->table_uuid) == IBUF_UUID_LEN) {
				if (!ibuf_is_owner(b)) {
					IbufStat stt;
					/* the owner commits them first (as for UPDATE), so the
					 * DROP drops them with the table; 55006 when it does not
					 * answer (a shell owner) */
					if (ibuf_table_stat(b, t->md->table_uuid, &stt) && stt.pending_objects > 0 &&
					    request_flush(s, ns, name, t->md->table_uuid, stt.max_seq, a, err) != FLOE_OK) {
						arena_free(a);
						return FLOE_ERR;
					}
				} else {
					snprintf(drop_uuids[ndrop++], IBUF_UUID_LEN + 1, "%s", t->md->table_uuid);
				}
			}
			arena_free(a);
		}
		return FLOE_OK;
	}
	default:
		return FLOE_OK;
	}
}

/* ---- transaction blocks (txn.c) ----------------------------------------
 * A block's snapshot of a table is one Iceberg snapshot: before a
 * REPEATABLE READ / SERIALIZABLE block first reads a table (pins it), its
 * buffered rows are flushed, and a pinned table gets no overlay.  A flush
 * after the pin appends only rows INSERTed (VALUES, no read) after it: as
 * in PostgreSQL, that makes no block fail (ingest_only_flushes). */
int
ingest_before_pin(Session *s, const char *ns, const char *name, floe_error *err)
{
	Ingest *ig = s->engine->ingest;
	IngestBuffer *b = ig ? ig->buf : NULL;

	if (!b || !ibuf_is_owner(b) || !any_pending(b))
		return FLOE_OK;         /* a reader process overlays the owner's rows */
	return flush_named(s, ns, name, err);
}

bool
ingest_only_flushes(Session *s, const Table *pinned, Arena *a)
{
	Table *head;
	const Snapshot *sn;
	int64_t stop = pinned->md->current_snapshot_id;
	floe_error e1;
	int k, hops = 0;

	floe_error_clear(&e1);
	if (table_load(s->engine->catalog, s->engine->io, pinned->ns, pinned->name, a, &head, &e1) != FLOE_OK)
		return false;
	if (!head->md->table_uuid || !pinned->md->table_uuid ||
	    strcmp(head->md->table_uuid, pinned->md->table_uuid))
		return false;
	sn = metadata_current_snapshot(head->md);
	while (sn && sn->snapshot_id != stop) {
		bool flush = false;
		if (!sn->operation || strcmp(sn->operation, "append") || ++hops > 10000)
			return false;
		for (k = 0; k < sn->nsummary; k++)
			if (!strcmp(sn->summary[k].key, "floe.ingest-seq"))
				flush = true;
		if (!flush)
			return false;
		sn = sn->has_parent ? metadata_snapshot_by_id(head->md, sn->parent_snapshot_id) : NULL;
	}
	/* reached the pinned snapshot (or both have none); anything else that
	 * changed (schema, properties) is another head */
	return (sn != NULL || stop < 0) &&
	       head->md->current_schema_id == pinned->md->current_schema_id;
}

void
ingest_after_stmt(Session *s, const SqlStmt *st, bool ok)
{
	Ingest *ig = s->engine->ingest;
	int i;

	(void)st;
	if (place_depth && place_depth == hook_depth) {
		admission_leave();
		place_depth = 0;
	}
	if (hook_depth > 0)
		hook_depth--;
	if (ok && ig && ig->buf)
		for (i = 0; i < ndrop; i++) {
			floe_error ignore;
			pthread_mutex_t *lk = stripe(ig, drop_uuids[i]);
			floe_error_clear(&ignore);
			pthread_mutex_lock(lk);
			(void)ibuf_discard(ig->buf, drop_uuids[i], UINT64_MAX, &ignore);
			(void)ibuf_dead_discard(ig->buf, drop_uuids[i], &ignore);
			cache_drop(ig, drop_uuids[i], UINT64_MAX);
			pthread_mutex_unlock(lk);
		}
	ndrop = 0;
	free(drop_uuids);       /* per statement: a session thread's exit leaks nothing */
	drop_uuids = NULL;
}

int
ingest_before_metatable(Session *s, PgQuery__RangeVar *rv, floe_error *err)
{
	Ingest *ig = s->engine->ingest;
	const char *dollar = rv->relname ? strchr(rv->relname, '$') : NULL;
	char base[256];
	const char *ns;

	if (!dollar || !ig || !ig->buf || (size_t)(dollar - rv->relname) >= sizeof base)
		return FLOE_OK;
	if (!ibuf_is_owner(ig->buf))
		TRY(ibuf_refresh(ig->buf, err));
	if (!any_pending(ig->buf))
		return FLOE_OK;
	memcpy(base, rv->relname, (size_t)(dollar - rv->relname));
	base[dollar - rv->relname] = 0;
	ns = rv->schemaname && rv->schemaname[0] ? rv->schemaname : search_path_lookup(s, base);
	return flush_named(s, ns, base, err);
}

/* ---- the read overlay ----------------------------------------------------
 *
 * The owner keeps every buffered entry of a table decoded in memory (its
 * cache, built from the log at the table's first read, then kept by the
 * appends and flushes), so a read takes references to entries instead of
 * decoding the log again; a reader process decodes the log at each read.
 * An entry is immutable once made and freed by its last reference (the
 * cache's or a statement's: released when the statement's arena resets). */

typedef struct CEntry {
	uint64_t seq;
	int nb;
	Batch **b;                 /* over the entry's own columns */
	int ncols;
	int32_t *ids;
	SqlType *types;
	Arena *a;                  /* NULL: in a statement's arena */
	atomic_int refs;
} CEntry;

typedef struct TCache {
	char uuid[IBUF_UUID_LEN + 1];
	CEntry **e;                /* by seq */
	int n, cap;
	bool complete;             /* holds every live entry of the log */
} TCache;

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;

static void
centry_unref(CEntry *c)
{
	if (c->a && atomic_fetch_sub(&c->refs, 1) == 1) {
		arena_free(c->a);
		free(c);
	}
}

static void
centry_unref_cb(void *arg)
{
	centry_unref(arg);
}

/* An entry's bytes decoded over its own columns (own arena when a is NULL). */
static int
centry_decode(uint64_t seq, const uint8_t *bytes, size_t len, Arena *a, CEntry **out, floe_error *err)
{
	Arena *own = a ? NULL : arena_new(64 * 1024);
	Arena *x = a ? a : own;
	CEntry *c = a ? ARENA_NEW(a, CEntry) : xcalloc(1, sizeof *c);
	RowEntry e;

	memset(c, 0, sizeof *c);
	c->seq = seq;
	c->a = own;
	atomic_init(&c->refs, 1);
	if (rowcodec_decode(bytes, len, x, &e, err) != FLOE_OK ||
	    rowcodec_batches(&e, x, e.ncols, e.field_ids, e.types, &c->b, &c->nb, err) != FLOE_OK) {
		if (own) {
			arena_free(own);
			free(c);
		}
		return FLOE_ERR;
	}
	c->ncols = e.ncols;
	c->ids = e.field_ids;
	c->types = e.types;
	*out = c;
	return FLOE_OK;
}

/* The cache of uuid (created when add); under cache_mu. */
static TCache *
tcache_of(Ingest *ig, const char *uuid, bool add)
{
	int i;

	for (i = 0; i < ig->ntc; i++)
		if (!strcmp(ig->tc[i]->uuid, uuid))
			return ig->tc[i];
	if (!add)
		return NULL;
	if (ig->ntc == ig->captc) {
		ig->captc = ig->captc ? ig->captc * 2 : 8;
		ig->tc = xrealloc(ig->tc, sizeof(TCache *) * (size_t)ig->captc);
	}
	ig->tc[ig->ntc] = xcalloc(1, sizeof(TCache));
	snprintf(ig->tc[ig->ntc]->uuid, sizeof ig->tc[ig->ntc]->uuid, "%s", uuid);
	return ig->tc[ig->ntc++];
}

/* Put c into tc by seq (a repeat is dropped); under cache_mu. */
static void
tcache_put(TCache *tc, CEntry *c)
{
	int i;

	for (i = tc->n; i > 0 && tc->e[i - 1]->seq > c->seq; i--)
		;
	if (i > 0 && tc->e[i - 1]->seq == c->seq) {
		centry_unref(c);
		return;
	}
	if (tc->n == tc->cap) {
		tc->cap = tc->cap ? tc->cap * 2 : 64;
		tc->e = xrealloc(tc->e, sizeof(CEntry *) * (size_t)tc->cap);
	}
	memmove(tc->e + i + 1, tc->e + i, sizeof(CEntry *) * (size_t)(tc->n - i));
	tc->e[i] = c;
	tc->n++;
}

/* An appended entry into the cache (owner). */
static void
cache_add(Ingest *ig, const char *uuid, uint64_t seq, const uint8_t *bytes, size_t len)
{
	CEntry *c;
	floe_error e;
	bool have;

	pthread_mutex_lock(&cache_mu);
	have = tcache_of(ig, uuid, false) != NULL;
	pthread_mutex_unlock(&cache_mu);
	if (!have)
		return;
	floe_error_clear(&e);
	if (centry_decode(seq, bytes, len, NULL, &c, &e) != FLOE_OK)
		return;                 /* the next build reads it from the log */
	pthread_mutex_lock(&cache_mu);
	{
		/* only a table read before has a cache; the first read of
		 * another builds its cache from the log, this entry included */
		TCache *tc = tcache_of(ig, uuid, false);
		if (tc)
			tcache_put(tc, c);
		else
			centry_unref(c);
	}
	pthread_mutex_unlock(&cache_mu);
}

/* Drop uuid's cached entries at or below upto; UINT64_MAX: the whole
 * cache (rebuilt from the log at the next read). */
static void
cache_drop(Ingest *ig, const char *uuid, uint64_t upto)
{
	TCache *tc;
	int i, k = 0;

	/* the key index follows the log (keyindex.c): a flush's keys leave
	 * it after their commit landed; anything else rebuilds it */
	if (upto == UINT64_MAX)
		keyidx_forget(ig->kidx, uuid);
	else
		keyidx_drop(ig->kidx, uuid, upto);
	pthread_mutex_lock(&cache_mu);
	if ((tc = tcache_of(ig, uuid, false))) {
		for (i = 0; i < tc->n; i++) {
			if (tc->e[i]->seq <= upto)
				centry_unref(tc->e[i]);
			else
				tc->e[k++] = tc->e[i];
		}
		tc->n = k;
		if (upto == UINT64_MAX) {
			for (i = 0; i < ig->ntc; i++)
				if (ig->tc[i] == tc)
					ig->tc[i] = ig->tc[--ig->ntc];
			free(tc->e);
			free(tc);
		}
	}
	pthread_mutex_unlock(&cache_mu);
}

static void
cache_free_all(Ingest *ig)
{
	while (ig->ntc > 0)
		cache_drop(ig, ig->tc[0]->uuid, UINT64_MAX);
	free(ig->tc);
	ig->tc = NULL;
	ig->captc = 0;
}

typedef struct Build {
	TCache *tc;
	floe_error *err;
} Build;

static int
build_visit(void *arg, uint64_t seq, const uint8_t *bytes, size_t len)
{
	Build *bd = arg;
	CEntry *c;

	TRY(centry_decode(seq, bytes, len, NULL, &c, bd->err));
	tcache_put(bd->tc, c);
	return FLOE_OK;
}

/* References (released with statement arena a) to uuid's entries with
 * seq <= upto: from the cache (owner; built on first use) or decoded from
 * the log (reader). */
static int
entries_for_read(Ingest *ig, IngestBuffer *b, const char *uuid, uint64_t upto, Arena *a,
		 CEntry ***out, int *n, floe_error *err)
{
	int i, k = 0;

	*out = NULL;
	*n = 0;
	if (!ibuf_is_owner(b) || ibuf_shared(b)) {
		/* a reader, or a buffer other nodes append to: the log itself */
		Collect c;
		memset(&c, 0, sizeof c);
		c.a = a;
		TRY(ibuf_scan(b, uuid, 0, upto, collect_visit, &c, err));
		*out = ARENA_ARRAY(a, CEntry *, c.n + 1);
		for (i = 0; i < c.n; i++)
			TRY(centry_decode(c.e[i].seq, c.e[i].bytes, c.e[i].len, a, &(*out)[i], err));
		*n = c.n;
		return FLOE_OK;
	}
	pthread_mutex_lock(&cache_mu);
	{
		TCache *tc = tcache_of(ig, uuid, true);
		if (!tc->complete) {
			Build bd = { tc, err };
			if (ibuf_scan(b, uuid, 0, UINT64_MAX, build_visit, &bd, err) != FLOE_OK) {
				pthread_mutex_unlock(&cache_mu);
				return FLOE_ERR;
			}
			tc->complete = true;
		}
		*out = ARENA_ARRAY(a, CEntry *, tc->n + 1);
		for (i = 0; i < tc->n && tc->e[i]->seq <= upto; i++) {
			atomic_fetch_add(&tc->e[i]->refs, 1);
			arena_on_reset(a, centry_unref_cb, tc->e[i]);
			(*out)[k++] = tc->e[i];
		}
	}
	pthread_mutex_unlock(&cache_mu);
	*n = k;
	return FLOE_OK;
}

struct IngestOverlay {
	int n;
	CEntry **e;
	const IcebergSchema *schema;   /* the table's current schema */
	int64_t rows;
};

int
ingest_overlay_load(Session *s, const char *ns, const char *name, Table **t, Arena *a,
		    IngestOverlay **ov, floe_error *err)
{
	Ingest *ig = s->engine->ingest;
	IngestBuffer *b = ig ? get_buf(ig, false) : NULL;
	const char *uuid = (*t)->md->table_uuid;
	IbufStat st;
	CEntry **e;
	int n, i, k = 0;
	uint64_t upto, rec;
	const IcebergSchema *sc;

	*ov = NULL;
	if (!b || !uuid || committed_only(s))
		return FLOE_OK;
	if (!ibuf_is_owner(b))
		TRY(ibuf_refresh(b, err));
	if (!ibuf_table_stat(b, uuid, &st) || st.pending_objects == 0)
		return FLOE_OK;
	if (ibuf_is_owner(b) && (txn_table_pinned(s, ns, name) || txn_statement_locks(s)))
		return FLOE_OK;         /* flushed when pinned or locked (ingest_before_pin) */
	/* invariant 3: the log first, then the metadata */
	upto = ibuf_is_owner(b) ? ibuf_stable_seq(b) : UINT64_MAX;
	TRY(entries_for_read(ig, b, uuid, upto, a, &e, &n, err));
	if (n == 0)
		return FLOE_OK;
	TRY(txn_table_load(s, ns, name, a, t, err));
	if (!(*t)->md->table_uuid || strcmp((*t)->md->table_uuid, uuid))
		return FLOE_OK;
	rec = table_ingest_seq((*t)->md);
	sc = metadata_current_schema((*t)->md);
	*ov = ARENA_NEW(a, IngestOverlay);
	(*ov)->e = ARENA_ARRAY(a, CEntry *, n + 1);
	(*ov)->schema = sc;
	for (i = 0; i < n; i++) {
		int c, j;
		if (e[i]->seq <= rec)
			continue;
		/* a column of the table the entry has must have its type */
		for (c = 0; c < sc->nfields; c++)
			for (j = 0; j < e[i]->ncols; j++)
				if (e[i]->ids[j] == sc->fields[c].id && !type_equal_stored(e[i]->types[j], sc->fields[c].type))
					return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
							   "buffered rows of \"%s\" have another type in column \"%s\" than the table",
							   name, sc->fields[c].name);
		(*ov)->e[k++] = e[i];
		for (j = 0; j < e[i]->nb; j++)
			(*ov)->rows += e[i]->b[j]->count;
	}
	(*ov)->n = k;
	if (k == 0)
		*ov = NULL;
	return FLOE_OK;
}

/* The overlay's rows, projected: fresh vectors per batch (downstream
 * operators may compact a batch in place), string bytes shared with the
 * referenced entries. */
typedef struct OverlayOp {
	Operator op;
	IngestOverlay *ov;
	int nproj;
	int *src;                  /* per output column, the schema field id or INT32_MIN: NULL */
	int ei, bi;
	Arena *scratch;
} OverlayOp;

static int
overlay_open(Operator *op)
{
	OverlayOp *o = (OverlayOp *)op;

	o->ei = o->bi = 0;
	if (!o->scratch)
		o->scratch = arena_new(256 * 1024);
	return FLOE_OK;
}

static int
overlay_next(Operator *op, Batch **out)
{
	OverlayOp *o = (OverlayOp *)op;
	CEntry *e;
	Batch *in, *b;
	int c, j;

	TRY(exec_check_cancel(op->ctx));
	while (o->ei < o->ov->n && o->bi >= o->ov->e[o->ei]->nb) {
		o->ei++;
		o->bi = 0;
	}
	if (o->ei >= o->ov->n) {
		*out = NULL;
		return FLOE_OK;
	}
	e = o->ov->e[o->ei];
	in = e->b[o->bi++];
	arena_reset(o->scratch);
	b = ARENA_NEW(o->scratch, Batch);
	memset(b, 0, sizeof *b);
	b->ncols = o->nproj;
	b->count = in->count;
	b->arena = o->scratch;
	b->cols = ARENA_ARRAY(o->scratch, Vector, o->nproj + 1);
	for (c = 0; c < o->nproj; c++) {
		Vector *v = &b->cols[c];
		const Vector *sv = NULL;
		for (j = 0; o->src[c] != INT32_MIN && j < e->ncols; j++)
			if (e->ids[j] == o->src[c])
				sv = &in->cols[j];
		vector_init_raw(v, op->types[c], o->scratch, in->count ? in->count : 1);
		if (!sv) {
			uint32_t r;
			for (r = 0; r < in->count; r++)
				vector_set_null(v, r);
			continue;
		}
		if (type_width(sv->type.id) > 0)
			memcpy(v->data, sv->data, type_width(sv->type.id) * in->count);
		if (sv->validity) {
			vector_ensure_validity(v);
			memcpy(v->validity, sv->validity, sizeof(uint64_t) * ((in->count + 63) / 64));
		}
	}
	op->rows_out += b->count;
	*out = b;
	return FLOE_OK;
}

static void
overlay_close(Operator *op)
{
	OverlayOp *o = (OverlayOp *)op;

	if (o->scratch) {
		arena_free(o->scratch);
		o->scratch = NULL;
	}
}

static const OperatorVT overlay_vt = { "Insert Buffer Scan", overlay_open, overlay_next, overlay_close };

Operator *
ingest_overlay_op(ExecCtx *ctx, IngestOverlay *ov, Operator *scan, int nproj, const int *proj,
		  const SqlType *types)
{
	OverlayOp *o;
	Operator **kids, *op;
	int c;

	if (!ov)
		return scan;
	o = ARENA_NEW(ctx->arena, OverlayOp);
	memset(o, 0, sizeof *o);
	op_init(&o->op, &overlay_vt, ctx, nproj, types, NULL);
	o->ov = ov;
	o->nproj = nproj;
	o->src = ARENA_ARRAY(ctx->arena, int, nproj + 1);
	for (c = 0; c < nproj; c++)
		o->src[c] = proj[c] >= 0 && types[c].id != TYPE_NULL ? ov->schema->fields[proj[c]].id : INT32_MIN;
	o->op.est_rows = (double)ov->rows;
	kids = ARENA_ARRAY(ctx->arena, Operator *, 2);
	kids[0] = scan;
	kids[1] = &o->op;
	op = append_new(ctx, 2, kids);
	op->est_rows = scan->est_rows + (double)ov->rows;
	return op;
}

/* ---- SHOW INSERT BUFFER STATUS, FLUSH INSERT BUFFER ------------------------ */

/* The next word of *p (letters, digits, _, $, .; or a "quoted" name),
 * lower-cased unless quoted, into w; false at the end. */
static bool
word(const char **p, char *w, size_t cap)
{
	const char *q = *p;
	size_t n = 0;

	while (isspace((unsigned char)*q))
		q++;
	if (!*q || *q == ';')
		return false;
	if (*q == '"') {
		for (q++; *q && *q != '"' && n + 1 < cap; q++)
			w[n++] = *q;
		if (*q == '"')
			q++;
	} else {
		for (; *q && (isalnum((unsigned char)*q) || *q == '_' || *q == '$' || *q == '.' || *q == '"') &&
		       n + 1 < cap; q++)
			w[n++] = *q == '"' ? *q : (char)tolower((unsigned char)*q);
		if (n == 0)
			w[n++] = *q++;
	}
	w[n] = 0;
	*p = q;
	return true;
}

static bool
at_end(const char *p)
{
	while (isspace((unsigned char)*p) || *p == ';')
		p++;
	return !*p;
}

static int
show_status(Session *s, ResultSink *sink, floe_error *err)
{
	Ingest *ig = s->engine->ingest;
	IngestBuffer *b = ig ? get_buf(ig, false) : NULL;
	static const char *const names[7] = { "table_name", "pending_objects", "pending_bytes",
					      "oldest_staged_ms", "flush_failures", "status", "backend" };
	SqlType types[7];
	IbufStat *st = NULL;
	int n = 0, i, k;
	Arena *a = arena_new(64 * 1024);
	Batch *bt;
	int64_t now = now_ms();
	int rc = FLOE_OK;

	types[0] = type_make(TYPE_TEXT);
	types[1] = types[2] = types[3] = type_make(TYPE_INT64);
	types[4] = type_make(TYPE_INT32);
	types[5] = types[6] = type_make(TYPE_TEXT);
	if (b) {
		if (!ibuf_is_owner(b) && ibuf_refresh(b, err) != FLOE_OK) {
			arena_free(a);
			return FLOE_ERR;
		}
		ibuf_stats(b, &st, &n);
	}
	/* by table name */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && strcmp(st[k - 1].label, st[k].label) > 0; k--) {
			IbufStat x = st[k];
			st[k] = st[k - 1];
			st[k - 1] = x;
		}
	bt = batch_new(a, 7, types, (uint32_t)(n > 0 ? n : 1));
	for (i = 0; i < n; i++) {
		const IbufStat *x = &st[i];
		const char *status = x->flushing ? "active" :
			(x->dead_objects > 0 && x->pending_objects == 0) ? "dead_lettered" :
			x->flush_failures > 0 ? "backoff" : "idle";
		const char *label = x->label[0] ? x->label : x->uuid;
		vector_set_string(&bt->cols[0], (uint32_t)i, label, (uint32_t)strlen(label));
		((int64_t *)bt->cols[1].data)[i] = x->pending_objects + x->dead_objects;
		((int64_t *)bt->cols[2].data)[i] = x->pending_bytes;
		if (x->oldest_ms)
			((int64_t *)bt->cols[3].data)[i] = now - x->oldest_ms > 0 ? now - x->oldest_ms : 0;
		else
			vector_set_null(&bt->cols[3], (uint32_t)i);
		((int32_t *)bt->cols[4].data)[i] = x->flush_failures;
		vector_set_string(&bt->cols[5], (uint32_t)i, status, (uint32_t)strlen(status));
		vector_set_string(&bt->cols[6], (uint32_t)i, ibuf_backend(b), (uint32_t)strlen(ibuf_backend(b)));
	}
	bt->count = (uint32_t)n;
	if (sink && sink->columns && sink->columns(sink->ctx, 7, names, types) != 0)
		rc = floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (rc == FLOE_OK && n > 0 && sink && sink->batch && sink->batch(sink->ctx, bt) != 0)
		rc = floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	free(st);
	arena_free(a);
	TRY(rc);
	return engine_complete(sink, "SHOW");
}

/* The uuid of table `qname` ("t" or "s.t"); 42P01 when missing. */
static int
table_uuid_of(Session *s, const char *qname, char *uuid, floe_error *err)
{
	const char *dot = strchr(qname, '.');
	char ns[256];
	const char *name;
	Arena *a = arena_new(64 * 1024);
	Table *t;
	int rc;

	if (dot && (size_t)(dot - qname) < sizeof ns) {
		memcpy(ns, qname, (size_t)(dot - qname));
		ns[dot - qname] = 0;
		name = dot + 1;
	} else {
		snprintf(ns, sizeof ns, "%s", search_path_lookup(s, qname));
		name = qname;
	}
	rc = table_load(s->engine->catalog, s->engine->io, ns, name, a, &t, err);
	if (rc != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", qname);
	} else {
		snprintf(uuid, IBUF_UUID_LEN + 1, "%s", t->md->table_uuid ? t->md->table_uuid : "");
	}
	arena_free(a);
	return rc;
}

bool
ingest_utility(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc)
{
	Ingest *ig = s->engine->ingest;
	const char *p = sql;
	char w[4][300], uuid[IBUF_UUID_LEN + 1];
	int verb;                   /* 0 show, 1 flush, 2 replay, 3 discard */
	IngestBuffer *b;

	if (!word(&p, w[0], sizeof w[0]))
		return false;
	if (!strcmp(w[0], "show"))
		verb = 0;
	else if (!strcmp(w[0], "flush"))
		verb = 1;
	else if (!strcmp(w[0], "replay"))
		verb = 2;
	else if (!strcmp(w[0], "discard"))
		verb = 3;
	else
		return false;
	if (!word(&p, w[1], sizeof w[1]) || strcmp(w[1], "insert") || !word(&p, w[2], sizeof w[2]) ||
	    strcmp(w[2], "buffer"))
		return false;
	if (verb == 0) {
		if (!word(&p, w[3], sizeof w[3]) || strcmp(w[3], "status"))
			return false;
		if (!at_end(p)) {
			*rc = floe_errorf(err, ERRCODE_SYNTAX_ERROR,
					  "SHOW INSERT BUFFER STATUS must be a query string of its own");
			return true;
		}
		*rc = show_status(s, sink, err);
		return true;
	}
	if (verb >= 2) {
		/* REPLAY / DISCARD INSERT BUFFER DEAD LETTERS [table] */
		char w2[300];
		if (!word(&p, w[3], sizeof w[3]) || strcmp(w[3], "dead") || !word(&p, w2, sizeof w2) ||
		    strcmp(w2, "letters"))
			return false;
	}
	floe_error_clear(err);
	b = ig ? get_buf(ig, false) : NULL;
	if (b && !ibuf_is_owner(b)) {
		*rc = floe_errorf(err, ERRCODE_OBJECT_IN_USE,
				  "the insert buffer is owned by another floe process of this warehouse");
		floe_error_hint(err, "Run it through that process (floe serve).");
		return true;
	}
	uuid[0] = 0;
	if (word(&p, w[3], sizeof w[3]) && at_end(p) && (*rc = table_uuid_of(s, w[3], uuid, err)) != FLOE_OK)
		return true;
	if (!at_end(p)) {
		*rc = floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				  "%s INSERT BUFFER must be a query string of its own", w[0]);
		return true;
	}
	*rc = FLOE_OK;
	if (!b) {
		/* nothing was ever buffered */
	} else if (verb == 1 && !uuid[0]) {
		*rc = flush_due(ig, true, err);
	} else if (verb == 1) {
		int64_t rows;
		*rc = flush_uuid(ig, uuid, &rows, err);
	} else {
		IbufStat *st;
		int n, i;
		ibuf_stats(b, &st, &n);
		for (i = 0; i < n && *rc == FLOE_OK; i++) {
			pthread_mutex_t *lk;
			if (uuid[0] && strcmp(uuid, st[i].uuid))
				continue;
			if (!st[i].dead_objects)
				continue;
			lk = stripe(ig, st[i].uuid);
			pthread_mutex_lock(lk);
			*rc = verb == 2 ? ibuf_dead_replay(b, st[i].uuid, err) :
				ibuf_dead_discard(b, st[i].uuid, err);
			cache_drop(ig, st[i].uuid, UINT64_MAX);
			pthread_mutex_unlock(lk);
		}
		free(st);
	}
	if (*rc == FLOE_OK)
		*rc = engine_complete(sink, verb == 1 ? "FLUSH INSERT BUFFER" : verb == 2 ?
				      "REPLAY INSERT BUFFER DEAD LETTERS" : "DISCARD INSERT BUFFER DEAD LETTERS");
	return true;
}

/* ---- direct-path commits of keyed tables (keyed.h, keyindex.c) ---------- */

int
ingest_key_guard(Session *s, const Table *base, const DataFile *add, int nadd, bool rewrites,
		 bool retry, IngestKeyGuard **g, floe_error *err)
{
	Ingest *ig = s->engine->ingest;

	/* a write view (a branch, a WAP staging write) is not main: the
	 * buffer's rows are main's */
	if (!ig || flushing || !keyed_ok(ig) || temp_is_temp_ns(base->ns) || base->branch ||
	    base->wap_id || metadata_current_schema(base->md)->nidentifier == 0)
		return FLOE_OK;
	return keyed_guard((KeyGuard **)g, get_buf(ig, false), ig->lockdir, s, base, add, nadd, rewrites,
			   retry, err);
}

void
ingest_key_guard_release(IngestKeyGuard *g)
{
	keyed_guard_release((KeyGuard *)g);
}
