/*
 * txn.c — transaction blocks over Iceberg's optimistic commits (txn.h).
 *
 * PostgreSQL's behaviour (src/backend/access/transam/xact.c, the
 * TBLOCK_* states, as a client sees them):
 *
 *     IDLE 'I' ──BEGIN/START──> IN BLOCK 'T' ──error──> FAILED 'E'
 *       ^                         │   │  ^                 │  │
 *       │   COMMIT/END (publish)  │   │  └─ROLLBACK TO sp──┘  │
 *       ├─────────────────────────┘   │                       │
 *       ├── ROLLBACK/ABORT ───────────┘                       │
 *       └── ROLLBACK, or COMMIT (tag ROLLBACK) ───────────────┘
 *
 *   txn_exec           BEGIN, START TRANSACTION, COMMIT/END, ROLLBACK/ABORT,
 *                      SAVEPOINT, RELEASE, ROLLBACK TO
 *   txn_after_statement  T -> E on any failed statement
 *   txn_before_statement E: everything but COMMIT/ROLLBACK/ROLLBACK TO is
 *                      25P02; SET TRANSACTION; READ ONLY (25006); DDL (below)
 *
 * Invariants:
 *   1. Outside a block txn_table_load is table_load and txn_commit is
 *      table_commit (autocommit: one snapshot per statement and table),
 *      with keycheck_rebase as its re-base check (PRIMARY KEY).
 *   2. Inside a block nothing reaches the catalog before COMMIT.  Per table
 *      touched the Txn keeps (TxnTable):
 *        base    the Table the block's change applies to: the first load in
 *                the block (REPEATABLE READ / SERIALIZABLE, pinned), or the
 *                latest load before the first write (READ COMMITTED);
 *        staged  base + every change of the block, written by table_stage
 *                (manifests, manifest list, metadata: never published);
 *                what later statements of the block read (their own writes).
 *      The net change of a table is the difference of the live data files
 *      of staged and base (table_scan_files): added = in staged only,
 *      removed = in base only.  So a file written and rewritten inside the
 *      block (INSERT then UPDATE) is never published.
 *   3. COMMIT re-stages each written table's net change on its base as ONE
 *      snapshot (two when merge-on-read deletes name data files the block
 *      added: table_stage validates a delete's data file against the head,
 *      so the data files go first; still one metadata file and one swap)
 *      (job id of the transaction in "floe.job-id") and swaps all
 *      tables' metadata locations in ONE catalog transaction
 *      (catalog_swap_tables: all or nothing).  On 40001 (a head moved): back
 *      off (100 ms doubling, jitter, TXN_COMMIT_TRIES attempts), reload every
 *      head; a head whose history holds our job id means the previous
 *      attempt landed (an ambiguous failure: no duplicate); else check what
 *      committed since the previous head (rebase_checks: on a PRIMARY KEY
 *      table a copy-on-write change whose rewritten files were rewritten
 *      or got deletes meanwhile is re-based key by key, cowrebase.h, 40001
 *      only for a key both changed; otherwise no new delete of
 *      a data file the change rewrites nor of a row it deletes,
 *      table_rebase_check, 40001; no key
 *      the change adds added meanwhile, keycheck_rebase, 23505 / 40001)
 *      and re-stage on the new head (rebase_dvs first: a deletion vector
 *      of the change whose data file got another vector meanwhile is
 *      written again as the union of both, 40001 on a position both
 *      deleted): table_stage re-validates that every
 *      file removed is still live (40001 for the whole transaction
 *      otherwise), an append is always re-based.  SERIALIZABLE first checks that no table the block
 *      read has a new head (40001, read/write dependencies).
 *   4. Every file the block wrote is deleted when it is not part of what was
 *      published: staged metadata files always, at the end of the block;
 *      data files on ROLLBACK / failed COMMIT, or when superseded inside the
 *      block (after COMMIT).  A COMMIT whose outcome is unknown (the catalog
 *      connection broke and cannot be re-made) keeps every file and lists
 *      them in <warehouse>/orphan-candidates.
 *   5. Isolation (table granularity):
 *        READ COMMITTED   each statement loads the latest committed head of a
 *                         table the block has not written; a written table is
 *                         read as base + own writes;
 *        REPEATABLE READ  a table's snapshot is pinned at its first load in
 *                         the block (tables are pinned one by one, not all at
 *                         BEGIN);
 *        SERIALIZABLE     REPEATABLE READ, and COMMIT of a block that wrote
 *                         fails with 40001 when any table it READ (loaded by
 *                         anything but INSERT ... VALUES / COPY FROM into
 *                         that table) has a new head since it was pinned.
 *   6. DDL in a block (CREATE/DROP/ALTER/RENAME, CALL, ...: stmt_kind)
 *      first commits the block's pending changes (NOTICE), then
 *      runs and commits at once, as in autocommit; the block goes on.  A
 *      failure of that implicit commit fails the block.
 *   7. txn_retry_statement: an autocommit statement under READ COMMITTED
 *      that failed with 40001 is re-run (TXN_STATEMENT_TRIES, backing off
 *      from 20 ms), so concurrent UPDATE ... SET v = v + 1 lose nothing.
 *      SHOW floe.txn_retries: this session's retries (COMMIT re-stages and
 *      statement re-runs), for bench/.
 *   8. Savepoints: SAVEPOINT copies the TxnTable array; ROLLBACK TO restores
 *      it (the files written since are superseded, rule 4), RELEASE drops it.
 *   9. SELECT ... FOR UPDATE/SHARE in a block locks, optimistically, what
 *      it reads, at every isolation level; it never waits.  A FROM table
 *      with a PRIMARY KEY (those named by OF, if any) is locked by key: its
 *      key columns are appended to the select list (lock_targets) and the
 *      plan's tap (txn_lock_plan) records the keys of the rows returned
 *      (TxnTable.lock_keys) and drops those columns; COMMIT fails with
 *      40001 when a commit since the lock (TxnTable.lock_base, the first
 *      locked load) changed the row of one of them (updated, deleted, or
 *      deleted and inserted with another value: keydiff_changed).  Every
 *      other table the statement loads (no key, subqueries, an ambiguous
 *      FROM name) is locked whole: 40001 when it has another head.
 *  11. A query string of several statements (a simple Query message, an
 *      HTTP request) runs as ONE implicit block, as PostgreSQL's
 *      exec_simple_query does (TBLOCK_IMPLICIT_INPROGRESS): engine.c calls
 *      txn_implicit_begin before each of its statements that finds no block
 *      open and txn_implicit_end after the last one (or the first that
 *      failed): a failure rolls back every statement of the string since
 *      the block began, else it commits.  Inside it BEGIN makes the block
 *      an explicit one (no warning), COMMIT / ROLLBACK end it with
 *      PostgreSQL's WARNING "there is no transaction in progress" (the next
 *      statement begins another), SAVEPOINT / RELEASE / ROLLBACK TO and
 *      COMMIT / ROLLBACK AND CHAIN are 25P01 as outside a block, and the
 *      statements PostgreSQL refuses in a block (VACUUM, OPTIMIZE, ...)
 *      are 25001.  DDL commits the block's earlier changes as rule 6, with
 *      no NOTICE (the client wrote no BEGIN).
 *  10. Settings are transactional as in PostgreSQL: BEGIN snapshots the
 *      session's settings (search_path among them); ROLLBACK (and a failed COMMIT)
 *      puts them all back, COMMIT only those SET LOCAL.  SET LOCAL outside
 *      a block warns and ends with its statement.  The time zone is
 *      the session's and is restored too; ROLLBACK TO a savepoint keeps
 *      later SETs.
 *
 * INTERFACE ROUTINES: see txn.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ingest/compact.h"
#include "ingest/groupcommit.h"
#include "ingest/ingest.h"
#include "sql/acl.h"
#include "sql/cowrebase.h"
#include "sql/keycheck.h"
#include "sql/keydiff.h"
#include "sql/cursor.h"
#include "sql/temp.h"
#include "sql/snapshot_pin.h"
#include "sql/txn.h"
#include "sql/watermark.h"
#include "table/branch.h"
#include "table/delete_writer.h"
#include "table/deletes.h"
#include "types/datetime.h"

#define TXN_COMMIT_TRIES 6
#define TXN_STATEMENT_TRIES 8
/* First back-off of a COMMIT retry and of an autocommit statement re-run.
 * A statement re-run backs off less: it has already lost once and re-reads
 * the table, and the server runs statements one at a time per process. */
#define TXN_COMMIT_BACKOFF_MS 100
#define TXN_STATEMENT_BACKOFF_MS 20

enum { ISO_READ_UNCOMMITTED, ISO_READ_COMMITTED, ISO_REPEATABLE_READ, ISO_SERIALIZABLE };
static const char *const iso_names[] = { "read uncommitted", "read committed",
					 "repeatable read", "serializable" };

/* What kind of statement is running (txn_before_statement). */
enum { K_OTHER, K_READ, K_DML, K_DDL, K_SET, K_TXN };

typedef struct TxnTable {
	char *ns, *name;
	Table *base;
	Table *staged;            /* NULL: not written */
	bool read;                /* SERIALIZABLE's read set */
	char *lock_loc;           /* SELECT ... FOR UPDATE/SHARE read this
				     metadata location: COMMIT needs it still
				     to be the head (NULL: not locked) */
	bool key_retry;           /* an ON CONFLICT wrote it: a key clash at
				     COMMIT is 40001 (keycheck.h) */
	Table *lock_base;         /* the table at lock_loc (key locks' base) */
	bool lock_table;          /* locked whole: no PRIMARY KEY, or read by a
				     locking SELECT other than as a FROM item */
	KeySet *lock_keys;        /* the keys of the rows locked (rule 9) */
} TxnTable;

/* A FROM item of the running SELECT ... FOR UPDATE/SHARE whose key columns
 * were appended to its select list (rule 9): the last `extra` output
 * columns of the statement, this one's npk of them from column `at` on. */
typedef struct LockTarget {
	char *ns, *name;
	int at, npk;
} LockTarget;

typedef struct Savepoint {
	char *name;
	TxnTable *tabs;
	int ntabs;
} Savepoint;

typedef struct Txn {
	char state;               /* 'I', 'T', 'E' */
	Arena *arena;             /* the block's; NULL when idle */
	int level;                /* ISO_*: this block's */
	bool read_only;
	bool ran_query;           /* SET TRANSACTION ISOLATION only before */
	TxnTable *tabs;
	int ntabs, cap;
	char **garbage;           /* staged metadata files: always deleted */
	int ngarbage, capg;
	char **data;              /* data files the block added */
	int ndata, capd;
	Savepoint *sps;
	int nsps, capsp;
	char job[64];
	/* the running statement */
	int kind;
	bool passthrough;         /* DDL: loads and commits go straight through */
	char *insert_ns, *insert_name;   /* INSERT/COPY target: not a read */
	bool locking;             /* SELECT ... FOR UPDATE/SHARE in a block */
	LockTarget *ltargets;     /* its key-locked FROM items */
	int nltargets;
	int lock_extra;           /* key columns appended to its select list */
	/* the FOR UPDATE / SHARE clauses taken off lock_sel, the SELECT about
	 * to run, for its privilege check (txn_take_locking, acl.h) */
	const PgQuery__SelectStmt *lock_sel;
	Node **lock_clauses;
	size_t nlock_clauses;
	bool retryable;           /* DML that may run again (not COPY: its
				     input is consumed) */
	const char *pending_key;  /* SET TRANSACTION: the setting to apply after */
	const char *pending_value;
	/* the block holds off the insert buffer's compaction (compact.h) from
	 * its first table load on */
	bool compact_hold;
	bool implicit;            /* rule 11: the block of a multi-statement query */
	/* counters for bench/ and tests */
	long retries;
	/* settings when the block began (malloc'd; rule 10) */
	bool snapped;
	int nsnap;
	char **snap_keys, **snap_values;
	const struct Zone *snap_tz;        /* Session.tz at BEGIN (zones live forever) */
	char **local;             /* names SET LOCAL in the block */
	int nlocal;
	char *revert_key;         /* SET LOCAL outside a block: undone after */
	char *revert_value;       /* (NULL: was not set) */
	bool revert;
} Txn;

/* ---- session settings ------------------------------------------------ */

static void
setting_put(Session *s, const char *key, const char *value)
{
	int k;

	for (k = 0; k < s->nsettings; k++)
		if (!strcmp(s->settings_keys[k], key))
			break;
	if (k == s->nsettings) {
		if (k == 32)
			return;
		s->settings_keys[k] = xstrdup(key);
		s->settings_values[k] = NULL;
		s->nsettings++;
	}
	if (s->settings_values[k] && !strcmp(s->settings_values[k], value))
		return;
	free(s->settings_values[k]);
	s->settings_values[k] = xstrdup(value);
}

static int
iso_parse(const char *v)
{
	int i;
	for (i = 0; i < 4; i++)
		if (v && !strcasecmp(v, iso_names[i]))
			return i;
	return -1;
}

static bool
bool_text(const char *v)
{
	return v && (!strcasecmp(v, "on") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
		     !strcmp(v, "1") || !strcasecmp(v, "t") || !strcasecmp(v, "y"));
}

static bool
default_read_only(Session *s)
{
	return bool_text(session_setting(s, "default_transaction_read_only"));
}

static int
default_level(Session *s)
{
	int l = iso_parse(session_setting(s, "default_transaction_isolation"));
	return l < 0 ? ISO_READ_COMMITTED : l;
}

/* SHOW transaction_isolation: the block's level, else the default. */
static void
sync_settings(Session *s)
{
	Txn *t = s->txn;
	const char *d = session_setting(s, "default_transaction_isolation");

	if (!d || !*d)
		setting_put(s, "default_transaction_isolation", "read committed");
	d = session_setting(s, "default_transaction_read_only");
	if (!d || !*d)
		setting_put(s, "default_transaction_read_only", "off");
	setting_put(s, "transaction_isolation",
		    iso_names[t && t->state != 'I' ? t->level : default_level(s)]);
	setting_put(s, "transaction_read_only", t && t->state != 'I' && t->read_only ? "on" : "off");
	if (t) {
		char n[32];
		snprintf(n, sizeof n, "%ld", t->retries);
		setting_put(s, "floe.txn_retries", n);
	}
}

static Txn *
get_txn(Session *s)
{
	if (!s->txn) {
		s->txn = xcalloc(1, sizeof(Txn));
		s->txn->state = 'I';
		sync_settings(s);
	}
	return s->txn;
}

static bool
in_block(Session *s)
{
	return s->txn && s->txn->state != 'I';
}

/* Settings the block must not undo: txn.c's own, re-synced after. */
static bool
managed(const char *key)
{
	return !strcmp(key, "transaction_isolation") || !strcmp(key, "transaction_read_only") ||
	       !strcmp(key, "floe.txn_retries");
}

static void
setting_remove(Session *s, int k)
{
	free(s->settings_keys[k]);
	free(s->settings_values[k]);
	memmove(&s->settings_keys[k], &s->settings_keys[k + 1],
		sizeof(char *) * (size_t)(s->nsettings - k - 1));
	memmove(&s->settings_values[k], &s->settings_values[k + 1],
		sizeof(char *) * (size_t)(s->nsettings - k - 1));
	s->nsettings--;
}

static void
free_snapshot(Txn *t)
{
	int i;

	for (i = 0; i < t->nsnap; i++) {
		free(t->snap_keys[i]);
		free(t->snap_values[i]);
	}
	for (i = 0; i < t->nlocal; i++)
		free(t->local[i]);
	free(t->snap_keys);
	free(t->snap_values);
	free(t->local);
	t->snap_keys = t->snap_values = t->local = NULL;
	t->nsnap = t->nlocal = 0;
	t->snapped = false;
}

/* rule 10: the session's settings as BEGIN found them */
static void
snapshot_settings(Session *s)
{
	Txn *t = s->txn;
	int i;

	free_snapshot(t);
	t->snap_keys = xcalloc((size_t)s->nsettings + 1, sizeof(char *));
	t->snap_values = xcalloc((size_t)s->nsettings + 1, sizeof(char *));
	for (i = 0; i < s->nsettings; i++) {
		t->snap_keys[i] = xstrdup(s->settings_keys[i]);
		t->snap_values[i] = xstrdup(s->settings_values[i] ? s->settings_values[i] : "");
	}
	t->nsnap = s->nsettings;
	t->snap_tz = s->tz;
	t->snapped = true;
}

static bool
is_local(const Txn *t, const char *key)
{
	int i;
	for (i = 0; i < t->nlocal; i++)
		if (!strcmp(t->local[i], key))
			return true;
	return false;
}

/* Put back what the block changed: everything (ROLLBACK, failed COMMIT) or
 * only what it SET LOCAL (COMMIT), the time zone included. */
static void
restore_settings(Session *s, bool all)
{
	Txn *t = s->txn;
	int k, i;

	if (!t->snapped)
		return;
	for (k = s->nsettings - 1; k >= 0; k--) {
		const char *key = s->settings_keys[k];
		if (managed(key) || (!all && !is_local(t, key)))
			continue;
		for (i = 0; i < t->nsnap && strcmp(t->snap_keys[i], key) != 0; i++)
			;
		if (i < t->nsnap)
			setting_put(s, key, t->snap_values[i]);
		else
			setting_remove(s, k);
	}
	if ((all || is_local(t, "timezone")) && s->tz != t->snap_tz) {
		s->tz = t->snap_tz;
		datetime_use_zone(s->tz);
	}
	free_snapshot(t);
}

/* ---- the block's bookkeeping ----------------------------------------- */

static TxnTable *
find_table(Txn *t, const char *ns, const char *name)
{
	int i;
	for (i = 0; i < t->ntabs; i++)
		if (!strcmp(t->tabs[i].ns, ns) && !strcmp(t->tabs[i].name, name))
			return &t->tabs[i];
	return NULL;
}

static TxnTable *
add_table(Txn *t, const char *ns, const char *name)
{
	TxnTable *e;

	if (t->ntabs == t->cap) {
		int ncap = t->cap ? t->cap * 2 : 8;
		t->tabs = arena_realloc(t->arena, t->tabs, sizeof(TxnTable) * (size_t)t->cap,
					sizeof(TxnTable) * (size_t)ncap);
		t->cap = ncap;
	}
	e = &t->tabs[t->ntabs++];
	memset(e, 0, sizeof *e);
	e->ns = arena_strdup(t->arena, ns);
	e->name = arena_strdup(t->arena, name);
	return e;
}

static void
push_path(Txn *t, char ***v, int *n, int *cap, const char *path)
{
	if (*n == *cap) {
		int ncap = *cap ? *cap * 2 : 16;
		*v = arena_realloc(t->arena, *v, sizeof(char *) * (size_t)*cap,
				   sizeof(char *) * (size_t)ncap);
		*cap = ncap;
	}
	(*v)[(*n)++] = arena_strdup(t->arena, path);
}

static void
begin_block(Session *s, int level, bool read_only)
{
	Txn *t = get_txn(s);
	Txn keep = *t;

	memset(t, 0, sizeof *t);
	t->state = 'T';
	t->arena = arena_new(64 * 1024);
	t->level = level;
	t->read_only = read_only;
	t->retries = keep.retries;
	t->kind = keep.kind;
	t->passthrough = keep.passthrough;
	t->snapped = keep.snapped;
	t->nsnap = keep.nsnap;
	t->snap_keys = keep.snap_keys;
	t->snap_values = keep.snap_values;
	t->local = keep.local;
	t->nlocal = keep.nlocal;
	{
		uint8_t r[8];
		FILE *f = fopen("/dev/urandom", "rb");
		unsigned long long x = (unsigned long long)time(NULL) ^ (unsigned long long)getpid() << 32;
		if (f) {
			if (fread(r, 1, sizeof r, f) == sizeof r)
				memcpy(&x, r, sizeof x);
			fclose(f);
		}
		snprintf(t->job, sizeof t->job, "floe-txn-%lx-%llx", (long)time(NULL), x);
	}
}

/* Delete the block's files: metadata always; data files unless `keep`
 * lists them (the published ones). */
static void
remove_files(Session *s, char **keep, int nkeep)
{
	Txn *t = s->txn;
	FileIO *io = s->engine->io;
	floe_error ignore;
	int i, k;

	for (i = 0; i < t->ngarbage; i++)
		(void)fileio_remove(io, t->garbage[i], &ignore);
	for (i = 0; i < t->ndata; i++) {
		bool kept = false;
		for (k = 0; k < nkeep && !kept; k++)
			kept = !strcmp(keep[k], t->data[i]);
		if (!kept)
			(void)fileio_remove(io, t->data[i], &ignore);
	}
}

/* The block is over: back to idle, the arena freed. */
static void
end_block(Session *s)
{
	Txn *t = s->txn;

	if (!t)
		return;
	if (t->compact_hold)
		ingest_block_release(s->engine);
	t->compact_hold = false;
	if (t->arena)
		arena_free(t->arena);
	t->arena = NULL;
	t->tabs = NULL;
	t->ntabs = t->cap = 0;
	t->garbage = t->data = NULL;
	t->ngarbage = t->capg = t->ndata = t->capd = 0;
	t->sps = NULL;
	t->nsps = t->capsp = 0;
	t->state = 'I';
	t->read_only = false;
	t->ran_query = false;
}

static void
rollback_block(Session *s)
{
	if (!in_block(s))
		return;
	remove_files(s, NULL, 0);
	end_block(s);
}

/* ---- COMMIT ----------------------------------------------------------- */

typedef struct NetChange {
	TxnTable *e;
	TableChange ch;
	TableChange ch2;          /* delete files, when ch adds data files: a
				     second snapshot (see net_change) */
	Table *head;              /* what the next swap asserts */
	Table *staged;            /* this attempt's */
	char **written;
	int nwritten;
	bool landed;
	char **carried;           /* added files holding other commits' rows
				     (cowrebase.h): not checked as our keys */
	int ncarried;
} NetChange;

static int
cmp_path(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static bool
has_path(char **sorted, int n, const char *p)
{
	return n > 0 && bsearch(&p, sorted, (size_t)n, sizeof(char *), cmp_path) != NULL;
}

/* A delete file's identity: its path, and for a deletion vector (many in
 * one Puffin file) its data file and offset. */
static char *
delete_key(const DataFile *d, Arena *a)
{
	return arena_sprintf(a, "%s\x01%s\x01%lld", d->file_path,
			     d->referenced_data_file ? d->referenced_data_file : "",
			     d->has_content_offset ? (long long)d->content_offset : -1LL);
}

/* The distinct delete files attached to files[] (scan planning), sorted
 * keys in *keys, the files in *dels (same order). */
static void
attached_deletes(const DataFile *files, int n, Arena *a, char ***keys, DataFile ***dels, int *nd)
{
	int i, k, cnt = 0, total = 0;
	char **kv;
	DataFile **dv;

	for (i = 0; i < n; i++)
		total += files[i].ndeletes;
	kv = ARENA_ARRAY(a, char *, total + 1);
	dv = ARENA_ARRAY(a, DataFile *, total + 1);
	for (i = 0; i < n; i++)
		for (k = 0; k < files[i].ndeletes; k++) {
			char *key = delete_key(files[i].deletes[k], a);
			int j;
			for (j = 0; j < cnt && strcmp(kv[j], key) != 0; j++)
				;
			if (j == cnt) {
				kv[cnt] = key;
				dv[cnt++] = files[i].deletes[k];
			}
		}
	*keys = kv;
	*dels = dv;
	*nd = cnt;
}

static bool
has_key(char **keys, int n, const char *key)
{
	int i;
	for (i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

/* added = live in staged only, removed = live in base only; data files by
 * path, delete files (merge-on-read) by delete_key: a delete file attached
 * in staged only is added; one attached in base to a data file that staged
 * still has, but no longer attached there, was replaced (a deletion vector
 * unioned into a new one) and is removed.  Deletes of data files the block
 * removed are retired by the commit itself (table.c). */
static int
net_change(Session *s, TxnTable *e, Arena *a, NetChange *nc, floe_error *err)
{
	FileIO *io = s->engine->io;
	DataFile *bf, *sf;
	int nb, ns, i, nbd, nsd, nadd = 0, ndadd = 0, nrem = 0, ndrem = 0;
	char **bp, **sp, **bkeys, **skeys;
	DataFile **bdel, **sdel;
	DataFile *add, *dadd;
	const char **rem, **drem;

	memset(nc, 0, sizeof *nc);
	nc->e = e;
	nc->head = e->base;
	TRY(table_scan_files(io, e->base, -1, a, &bf, &nb, err));
	TRY(table_scan_files(io, e->staged, -1, a, &sf, &ns, err));
	bp = ARENA_ARRAY(a, char *, nb + 1);
	sp = ARENA_ARRAY(a, char *, ns + 1);
	for (i = 0; i < nb; i++)
		bp[i] = bf[i].file_path;
	for (i = 0; i < ns; i++)
		sp[i] = sf[i].file_path;
	qsort(bp, (size_t)nb, sizeof(char *), cmp_path);
	qsort(sp, (size_t)ns, sizeof(char *), cmp_path);
	attached_deletes(bf, nb, a, &bkeys, &bdel, &nbd);
	attached_deletes(sf, ns, a, &skeys, &sdel, &nsd);
	add = ARENA_ARRAY(a, DataFile, ns + 1);
	dadd = ARENA_ARRAY(a, DataFile, nsd + 1);
	{
		int attached = 0;
		for (i = 0; i < nb; i++)
			attached += bf[i].ndeletes;
		rem = ARENA_ARRAY(a, const char *, nb + attached + 1);
		drem = ARENA_ARRAY(a, const char *, attached + 1);
	}
	for (i = 0; i < ns; i++)
		if (!has_path(bp, nb, sf[i].file_path))
			add[nadd++] = sf[i];
	for (i = 0; i < nsd; i++)
		if (!has_key(bkeys, nbd, skeys[i])) {
			dadd[ndadd] = *sdel[i];
			dadd[ndadd].ndeletes = 0;
			dadd[ndadd++].deletes = NULL;
		}
	for (i = 0; i < nb; i++) {
		int k;
		if (!has_path(sp, ns, bf[i].file_path)) {
			rem[nrem++] = bf[i].file_path;
			continue;
		}
		for (k = 0; k < bf[i].ndeletes; k++) {
			char *key = delete_key(bf[i].deletes[k], a);
			if (!has_key(skeys, nsd, key))
				drem[ndrem++] = bf[i].deletes[k]->file_path;
		}
	}
	nc->ch.job_id = nc->ch2.job_id = s->txn->job;
	if (nadd > 0 && ndadd > 0) {
		/* a delete of a row the block inserted names a data file the
		 * commit adds, which table_stage validates against the head
		 * only: data files first, then the deletes, two snapshots in
		 * one metadata file and one swap (never visible apart) */
		nc->ch.add = add;
		nc->ch.nadd = nadd;
		nc->ch.remove = rem;
		nc->ch.nremove = nrem;
		nc->ch2.add = dadd;
		nc->ch2.nadd = ndadd;
		nc->ch2.remove = drem;
		nc->ch2.nremove = ndrem;
		return FLOE_OK;
	}
	nc->ch.add = nadd ? add : dadd;
	nc->ch.nadd = nadd ? nadd : ndadd;
	for (i = 0; i < ndrem; i++)
		rem[nrem++] = drem[i];
	nc->ch.remove = rem;
	nc->ch.nremove = nrem;
	return FLOE_OK;
}

/* Stage nc's change on nc->head (and ch2 on that): nc->staged, and every
 * file written in nc->written. */
static int
stage_net(FileIO *io, NetChange *nc, Arena *a, floe_error *err)
{
	char **w1, **w2;
	int n1, n2, i;
	Table *mid;
	floe_error ignore;

	TRY(table_stage(io, nc->head, &nc->ch, a, &mid, &w1, &n1, err));
	nc->written = w1;
	nc->nwritten = n1;
	nc->staged = mid;
	if (nc->ch2.nadd == 0 && nc->ch2.nremove == 0)
		return FLOE_OK;
	if (table_stage(io, mid, &nc->ch2, a, &nc->staged, &w2, &n2, err) != FLOE_OK) {
		for (i = 0; i < n1; i++)
			(void)fileio_remove(io, w1[i], &ignore);
		nc->nwritten = 0;
		return FLOE_ERR;
	}
	nc->written = ARENA_ARRAY(a, char *, n1 + n2 + 1);
	memcpy(nc->written, w1, sizeof(char *) * (size_t)n1);
	if (n2)
		memcpy(nc->written + n1, w2, sizeof(char *) * (size_t)n2);
	nc->nwritten = n1 + n2;
	return FLOE_OK;
}

static bool
job_landed(const Table *head, const char *job)
{
	return table_holds_commit(head, NULL, job);
}

void
txn_backoff(long base_ms, int attempt)
{
	/* base doubling, capped at 16 x base, plus up to 50% jitter */
	long ms = base_ms << (attempt < 4 ? attempt : 4);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ms += (long)(((unsigned long)ts.tv_nsec * 2654435761UL) % (unsigned long)(ms / 2 + 1));
	usleep((useconds_t)ms * 1000);
}

/* A COMMIT with an unknown outcome keeps the block's files; they are
 * listed ("<job id>\t<path>") in <warehouse>/orphan-candidates for a later
 * cleanup to delete those no snapshot references. */
static void
record_orphans(Session *s)
{
	Txn *t = s->txn;

	table_record_orphans(s->engine->io, t->job, (const char *const *)t->garbage, t->ngarbage);
	table_record_orphans(s->engine->io, t->job, (const char *const *)t->data, t->ndata);
}

bool
txn_commit_failed(Session *s, const TableChange *ch, const floe_error *err)
{
	const char **paths;
	Arena *a;
	int i;

	if (!floe_error_is(err, ERRCODE_CONNECTION_FAILURE))
		return false;
	a = arena_new(0);
	paths = ARENA_ARRAY(a, const char *, ch->nadd + 1);
	for (i = 0; i < ch->nadd; i++)
		paths[i] = ch->add[i].file_path;
	table_record_orphans(s->engine->io, ch->job_id, paths, ch->nadd);
	arena_free(a);
	return true;
}

/* A table locked by SELECT ... FOR UPDATE/SHARE whose head moved to loc
 * (rule 9): locked whole, 40001; locked by key, 40001 only when a commit
 * since the lock changed the row of a key the block locked. */
static int
check_lock(Session *s, TxnTable *e, const char *loc, Arena *a, floe_error *err)
{
	Table *head;
	KeySet *changed;
	const char *k;

	if (e->lock_table || !e->lock_keys || !e->lock_base || !loc)
		goto conflict;
	TRY(table_load(s->engine->catalog, s->engine->io, e->ns, e->name, a, &head, err));
	TRY(keydiff_changed(s->engine->io, e->lock_base, head, a, &changed, err));
	if (!changed)
		goto conflict;
	if (!(k = keyset_common(e->lock_keys, changed)))
		return FLOE_OK;
	floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
		    "could not serialize access due to concurrent update");
	floe_error_detail(err, "Row %s of table \"%s.%s\" locked by this transaction was changed "
			  "by a concurrent transaction.", keydiff_key_display(k, a), e->ns, e->name);
	return floe_error_hint(err, "The transaction might succeed if retried.");
conflict:
	floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
		    "could not serialize access due to concurrent update");
	floe_error_detail(err, "Table \"%s.%s\" changed after this transaction read it.", e->ns,
			  e->name);
	return floe_error_hint(err, "The transaction might succeed if retried.");
}

/* SERIALIZABLE: no table read by the block has a new head; any level: no
 * row (or table) locked by SELECT ... FOR UPDATE/SHARE changed. */
static int
check_reads(Session *s, Arena *a, floe_error *err)
{
	Txn *t = s->txn;
	int i;

	for (i = 0; i < t->ntabs; i++) {
		TxnTable *e = &t->tabs[i];
		bool ser = t->level == ISO_SERIALIZABLE && e->read && e->base;
		char *loc;
		if (!e->lock_loc && !ser)
			continue;
		if (catalog_load_table(s->engine->catalog, e->ns, e->name, a, &loc, err) != FLOE_OK) {
			if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
				return FLOE_ERR;
			loc = NULL;
		}
		/* only the insert buffer's appends since (ingest_only_flushes):
		 * no conflict, as in PostgreSQL */
		if (e->lock_loc && (!loc || strcmp(loc, e->lock_loc) != 0) &&
		    !(loc && e->base && !strcmp(e->lock_loc, e->base->metadata_location) &&
		      ingest_only_flushes(s, e->base, a)))
			TRY(check_lock(s, e, loc, a, err));
		if (ser && (!loc || strcmp(loc, e->base->metadata_location) != 0) &&
		    !(loc && ingest_only_flushes(s, e->base, a))) {
			floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				    "could not serialize access due to read/write dependencies among transactions");
			floe_error_detail(err, "Table \"%s.%s\" changed after this transaction read it.",
					  e->ns, e->name);
			return floe_error_hint(err, "The transaction might succeed if retried.");
		}
	}
	return FLOE_OK;
}

/* Before nc is re-staged on its reloaded head: what committed since prev
 * must not clash with it (rule 3): no delete reached a data file it
 * rewrites or a row it deletes (table_rebase_check), no key it adds was
 * added (keycheck_rebase). */
static int
rebase_checks(Session *s, NetChange *nc, const Table *prev, Arena *a, floe_error *err)
{
	FileIO *io = s->engine->io;
	DataFile *all = ARENA_ARRAY(a, DataFile, nc->ch.nadd + nc->ch2.nadd + 1);
	const char **rem = ARENA_ARRAY(a, const char *, nc->ch.nremove + nc->ch2.nremove + 1);
	int nall = 0, nrem = 0, i, k;
	bool rebased = false;

	if (nc->ch2.nadd == 0 && nc->ch2.nremove == 0) {
		char **w;
		int nw;
		TRY(cowrebase_apply(io, prev, nc->head, &nc->ch, a, &w, &nw, &nc->carried,
				    &nc->ncarried, &rebased, err));
		for (i = 0; i < nw; i++)
			push_path(s->txn, &s->txn->data, &s->txn->ndata, &s->txn->capd, w[i]);
	}
	if (!rebased) {
		TRY(table_rebase_check(io, prev, nc->head, &nc->ch, a, err));
		TRY(table_rebase_check(io, prev, nc->head, &nc->ch2, a, err));
	}
	for (i = 0; i < nc->ch.nadd + nc->ch2.nadd; i++) {
		const DataFile *d = i < nc->ch.nadd ? &nc->ch.add[i] : &nc->ch2.add[i - nc->ch.nadd];
		for (k = 0; k < nc->ncarried && strcmp(nc->carried[k], d->file_path) != 0; k++)
			;
		if (k == nc->ncarried)
			all[nall++] = *d;
	}
	for (i = 0; i < nc->ch.nremove; i++)
		rem[nrem++] = nc->ch.remove[i];
	for (i = 0; i < nc->ch2.nremove; i++)
		rem[nrem++] = nc->ch2.remove[i];
	return keycheck_rebase(io, prev, nc->head, all, nall, rem, nrem, nc->e->key_retry, a, err);
}

/* ---- deletion vectors re-based (rule 3) ------------------------------ */

static bool
is_dv(const DataFile *d)
{
	return d->content == CONTENT_POSITION_DELETES && d->referenced_data_file &&
	       d->has_content_offset && d->file_format && !strcasecmp(d->file_format, "PUFFIN");
}

/* Data file `path` among files[] (NULL: not live) and its deletion vector. */
static const DataFile *
find_dv(const DataFile *files, int n, const char *path, const DataFile **dv)
{
	int i, k;

	*dv = NULL;
	for (i = 0; i < n; i++)
		if (!strcmp(files[i].file_path, path)) {
			for (k = 0; k < files[i].ndeletes; k++)
				if (is_dv(files[i].deletes[k]))
					*dv = files[i].deletes[k];
			return &files[i];
		}
	return NULL;
}

/* Does one of add[]'s deletion vectors name data file path? */
static bool
gets_dv(const DataFile *add, int n, const char *path)
{
	int i;
	for (i = 0; i < n; i++)
		if (is_dv(&add[i]) && !strcmp(add[i].referenced_data_file, path))
			return true;
	return false;
}

/* The positions of data file f that delete d alone names (d NULL: none). */
static int
dv_positions(FileIO *io, const DataFile *f, const DataFile *d, Arena *a, int64_t **pos,
	     int64_t *n, floe_error *err)
{
	DataFile g = *f, *one = (DataFile *)d;

	*pos = NULL;
	*n = 0;
	if (!d)
		return FLOE_OK;
	g.deletes = &one;
	g.ndeletes = 1;
	return deletes_file_positions(io, &g, a, pos, n, err);
}

/* mine = ours - old (both sorted); 40001 when one of mine is in theirs. */
static int
own_positions(const int64_t *ours, int64_t nours, const int64_t *old, int64_t nold,
	      const int64_t *theirs, int64_t ntheirs, const char *data_file, Arena *a,
	      int64_t **mine, int64_t *nmine, floe_error *err)
{
	int64_t i, j = 0, k = 0, m = 0;
	int64_t *out = ARENA_ARRAY(a, int64_t, nours + 1);

	for (i = 0; i < nours; i++) {
		while (j < nold && old[j] < ours[i])
			j++;
		if (j < nold && old[j] == ours[i])
			continue;
		while (k < ntheirs && theirs[k] < ours[i])
			k++;
		if (k < ntheirs && theirs[k] == ours[i]) {
			floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				    "could not serialize access due to concurrent delete");
			floe_error_detail(err, "Row %lld of data file \"%s\" was deleted by a "
					  "concurrent transaction.", (long long)ours[i], data_file);
			return floe_error_hint(err, "The transaction might succeed if retried.");
		}
		out[m++] = ours[i];
	}
	*mine = out;
	*nmine = m;
	return FLOE_OK;
}

/*
 * A deletion vector the change adds for data file F replaces F's vector of
 * the head it was computed on (prev).  When another commit gave F a new
 * vector meanwhile, the change's vector is written again as the union of
 * the new head's and the positions the change deletes (as a concurrent
 * merge-on-read UPDATE / DELETE of other rows of F needs), and replaces the
 * new head's vector; a position both deleted is 40001.  The rewritten
 * vectors' files are the block's (t->data).
 */
static int
rebase_dvs(Session *s, NetChange *nc, const Table *prev, Arena *a, floe_error *err)
{
	FileIO *io = s->engine->io;
	TableChange *chs[2] = { &nc->ch, &nc->ch2 };
	DataFile *pf = NULL, *tf = NULL;
	int np = 0, nt = 0, c, i, k;
	bool scanned = false;

	for (c = 0; c < 2; c++) {
		TableChange *ch = chs[c];
		DataFile *add = NULL;
		const char **rem = NULL;
		int nrem = 0, cap = 0;
		for (i = 0; i < ch->nadd; i++) {
			const DataFile *d = &ch->add[i], *pdv, *tdv, *tfile;
			int64_t *ours, *old, *theirs, *mine, no, nold, nth, nmine;
			DeleteWriter *w;
			DataFile *nadd_f;
			char **nrem_p;
			int nadd, nremw;
			if (!is_dv(d))
				continue;
			if (!scanned) {
				TRY(table_scan_files(io, prev, -1, a, &pf, &np, err));
				TRY(table_scan_files(io, nc->head, -1, a, &tf, &nt, err));
				scanned = true;
			}
			if (!(tfile = find_dv(tf, nt, d->referenced_data_file, &tdv)) || !tdv)
				continue;     /* gone (table_stage's 40001), or no vector */
			(void)find_dv(pf, np, d->referenced_data_file, &pdv);
			if (pdv && !strcmp(pdv->file_path, tdv->file_path) &&
			    pdv->content_offset == tdv->content_offset)
				continue;     /* unchanged */
			TRY(dv_positions(io, tfile, d, a, &ours, &no, err));
			TRY(dv_positions(io, tfile, pdv, a, &old, &nold, err));
			TRY(dv_positions(io, tfile, tdv, a, &theirs, &nth, err));
			TRY(own_positions(ours, no, old, nold, theirs, nth, tfile->file_path, a, &mine,
					  &nmine, err));
			w = delete_writer_new(io, nc->head, a);
			if (delete_writer_add(w, tfile, mine, nmine, err) != FLOE_OK ||
			    delete_writer_finish(w, &nadd_f, &nadd, &nrem_p, &nremw, err) != FLOE_OK) {
				delete_writer_abort(w);
				return FLOE_ERR;
			}
			if (nadd != 1)
				return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
						   "re-based deletion vector of \"%s\": %d files",
						   tfile->file_path, nadd);
			push_path(s->txn, &s->txn->data, &s->txn->ndata, &s->txn->capd,
				  nadd_f[0].file_path);
			if (!add) {
				add = ARENA_ARRAY(a, DataFile, ch->nadd + 1);
				memcpy(add, ch->add, sizeof(DataFile) * (size_t)ch->nadd);
				cap = ch->nremove + 4 * ch->nadd + 4;
				rem = ARENA_ARRAY(a, const char *, cap);
				for (k = 0; k < ch->nremove; k++)
					rem[nrem++] = ch->remove[k];
			}
			add[i] = nadd_f[0];
			/* retire the new head's vector instead of prev's */
			for (k = 0; pdv && k < nrem; k++)
				if (rem[k] && !strcmp(rem[k], pdv->file_path))
					rem[k] = NULL;
			if (nrem + nremw > cap)
				return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
						   "re-based deletion vector of \"%s\" replaces %d files",
						   tfile->file_path, nremw);
			for (k = 0; k < nremw; k++)
				rem[nrem++] = nrem_p[k];
		}
		if (add) {
			/* a file of prev's vectors stays named while it holds a
			 * vector of the new head that the change replaces */
			int j, m = 0;
			for (k = 0; k < ch->nremove; k++)
				if (!rem[k])
					for (j = 0; j < nt; j++) {
						int q;
						for (q = 0; q < tf[j].ndeletes; q++) {
							const DataFile *dv = tf[j].deletes[q];
							if (is_dv(dv) && !strcmp(dv->file_path, ch->remove[k]) &&
							    gets_dv(add, ch->nadd, tf[j].file_path))
								rem[k] = ch->remove[k];
						}
					}
			for (k = 0; k < nrem; k++)
				if (rem[k])
					rem[m++] = rem[k];
			ch->add = add;
			ch->remove = rem;
			ch->nremove = m;
		}
	}
	return FLOE_OK;
}

/* Publish the block (rule 3).  On return the block is over either way. */
static int
cmp_uuid_of(const void *x, const void *y)
{
	const NetChange *p = *(NetChange *const *)x, *q = *(NetChange *const *)y;
	const char *u = p->head->md->table_uuid ? p->head->md->table_uuid : "";
	const char *v = q->head->md->table_uuid ? q->head->md->table_uuid : "";
	return strcmp(u, v);
}

/* Each written keyed table's insert-buffer key guard (ingest.h), taken in
 * table uuid order (two blocks never wait for each other's). */
static int
guard_block(Session *s, NetChange *nc, int n, Arena *a, IngestKeyGuard **g, floe_error *err)
{
	NetChange **by = ARENA_ARRAY(a, NetChange *, n + 1);
	int i;

	for (i = 0; i < n; i++)
		by[i] = &nc[i];
	qsort(by, (size_t)n, sizeof *by, cmp_uuid_of);
	for (i = 0; i < n; i++)
		TRY(ingest_key_guard(s, by[i]->head, by[i]->ch.add, by[i]->ch.nadd,
				     by[i]->ch.nremove > 0 || by[i]->ch.remove_all, by[i]->e->key_retry, g,
				     err));
	return FLOE_OK;
}

static int
commit_block(Session *s, floe_error *err)
{
	Txn *t = s->txn;
	Engine *eng = s->engine;
	Arena *a = arena_new(0);
	NetChange *nc = ARENA_ARRAY(a, NetChange, t->ntabs + 1);
	const char **nss, **names, **expected, **locs;
	char **keep = NULL;
	int n = 0, i, k, nkeep = 0, attempt, rc = FLOE_ERR;
	bool unknown = false;
	IngestKeyGuard *guard = NULL;

	for (i = 0; i < t->ntabs; i++) {
		if (!t->tabs[i].staged)
			continue;
		if (net_change(s, &t->tabs[i], a, &nc[n], err) != FLOE_OK)
			goto out;
		if (nc[n].ch.nadd || nc[n].ch.nremove || nc[n].ch2.nadd || nc[n].ch2.nremove)
			n++;
	}
	if (n == 0) {
		rc = FLOE_OK;
		goto out;
	}
	if (check_reads(s, a, err) != FLOE_OK)
		goto out;
	/* keyed tables: their key locks, in uuid order, and no added key in
	 * the insert buffer (ingest.h), until the swap is done */
	if (guard_block(s, nc, n, a, &guard, err) != FLOE_OK)
		goto out;
	nss = ARENA_ARRAY(a, const char *, n);
	names = ARENA_ARRAY(a, const char *, n);
	expected = ARENA_ARRAY(a, const char *, n);
	locs = ARENA_ARRAY(a, const char *, n);
	for (attempt = 0; attempt < TXN_COMMIT_TRIES; attempt++) {
		int m = 0;
		if (attempt > 0) {
			bool all_landed = true;
			t->retries++;
			txn_backoff(TXN_COMMIT_BACKOFF_MS, attempt - 1);
			if (check_reads(s, a, err) != FLOE_OK)
				goto out;
			for (i = 0; i < n; i++) {
				Table *prev = nc[i].head;
				if (table_load(eng->catalog, eng->io, nc[i].e->ns, nc[i].e->name, a,
					       &nc[i].head, err) != FLOE_OK)
					goto out;
				nc[i].landed = job_landed(nc[i].head, t->job);
				all_landed = all_landed && nc[i].landed;
				if (!nc[i].landed &&
				    (rebase_checks(s, &nc[i], prev, a, err) != FLOE_OK ||
				     rebase_dvs(s, &nc[i], prev, a, err) != FLOE_OK))
					goto out;
			}
			if (all_landed) {
				rc = FLOE_OK;
				break;
			}
		}
		for (i = 0; i < n; i++) {
			if (nc[i].landed)
				continue;
			if (stage_net(eng->io, &nc[i], a, err) != FLOE_OK)
				break;
			nss[m] = nc[i].e->ns;
			names[m] = nc[i].e->name;
			expected[m] = nc[i].head->metadata_location;
			locs[m] = nc[i].staged->metadata_location;
			m++;
		}
		if (i == n)
			rc = catalog_swap_tables(eng->catalog, m, nss, names, expected, locs, err);
		if (rc == FLOE_OK)
			break;
		if (i == n && !floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE)) {
			/* the catalog failed mid-commit: the outcome is unknown
			 * unless the heads tell (our job id) */
			floe_error e2;
			bool all = true;
			for (k = 0; k < n; k++) {
				Table *h;
				if (table_load(eng->catalog, eng->io, nc[k].e->ns, nc[k].e->name, a, &h,
					       &e2) != FLOE_OK) {
					unknown = true;
					break;
				}
				all = all && (nc[k].landed || job_landed(h, t->job));
			}
			if (!unknown && all)
				rc = FLOE_OK;
			else if (!unknown && floe_error_is(err, ERRCODE_CONNECTION_FAILURE))
				unknown = true;       /* a swap in flight may still land */
			else if (!unknown)
				goto cleanup_attempt;
			break;
		}
cleanup_attempt:
		for (k = 0; k < n; k++) {
			int w;
			floe_error ignore;
			for (w = 0; w < nc[k].nwritten; w++)
				(void)fileio_remove(eng->io, nc[k].written[w], &ignore);
			nc[k].nwritten = 0;
		}
		if (i < n || !floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE))
			break;           /* a removed file is gone, or a hard error */
	}
	if (rc == FLOE_OK) {
		int total = 0;
		floe_error_clear(err);
		for (i = 0; i < n; i++) {
			const Table *h = nc[i].landed ? nc[i].head : nc[i].staged;
			if (h)
				watermark_note(s, nc[i].e->ns, nc[i].e->name, h->md->last_sequence_number);
			snapshot_pin_forget(s, nc[i].e->ns, nc[i].e->name);
		}
		for (i = 0; i < n; i++)
			total += nc[i].ch.nadd + nc[i].ch2.nadd;
		keep = ARENA_ARRAY(a, char *, total + 1);
		for (i = 0; i < n; i++)
			for (k = 0; k < nc[i].ch.nadd + nc[i].ch2.nadd; k++)
				keep[nkeep++] = k < nc[i].ch.nadd ? nc[i].ch.add[k].file_path
					: nc[i].ch2.add[k - nc[i].ch.nadd].file_path;
	}
out:
	ingest_key_guard_release(guard);
	if (unknown) {
		record_orphans(s);
		floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
			    "the outcome of COMMIT is unknown: the catalog connection failed");
		floe_error_detail(err, "Files of transaction %s are kept (listed in "
				  "<warehouse>/orphan-candidates); it may have committed.", t->job);
	} else if (rc == FLOE_OK) {
		remove_files(s, keep, nkeep);
	} else {
		remove_files(s, NULL, 0);
	}
	end_block(s);
	arena_free(a);
	return rc;
}

/* ---- the hooks of txn.h ---------------------------------------------- */

static Table *
copy_table(const Table *x, Arena *a)
{
	Table *t = ARENA_NEW(a, Table);
	*t = *x;
	return t;
}

/* A locking SELECT loads e's table as x (rule 9): the lock's base is the
 * first such load; a table that is not one of the statement's key-locked
 * FROM items is locked whole. */
static void
note_lock(Txn *t, TxnTable *e, Table *x)
{
	int i;
	bool keyed = false;

	if (!t->locking)
		return;
	if (!e->lock_loc) {
		e->lock_loc = x->metadata_location;
		e->lock_base = x;
	}
	for (i = 0; i < t->nltargets && !keyed; i++)
		keyed = !strcmp(t->ltargets[i].ns, e->ns) && !strcmp(t->ltargets[i].name, e->name);
	if (!keyed)
		e->lock_table = true;
	else if (!e->lock_keys)
		e->lock_keys = keyset_new(t->arena);
}

/* Before a block pins a table: no compaction of the insert buffer commits
 * from now until the block ends (compact.h), so it never re-bases over one. */
static void
hold_compaction(Session *s)
{
	if (!s->txn->compact_hold) {
		ingest_block_hold(s->engine);
		s->txn->compact_hold = true;
	}
}

int
txn_table_load(Session *s, const char *ns, const char *name, Arena *a, Table **out,
	       floe_error *err)
{
	Txn *t = s->txn;
	TxnTable *e;
	Table *x;
	bool is_target;

	if (!in_block(s) || t->passthrough)
		return table_load(s->engine->catalog, s->engine->io, ns, name, a, out, err);
	is_target = t->insert_ns && !strcmp(t->insert_ns, ns) && !strcmp(t->insert_name, name);
	e = find_table(t, ns, name);
	if (e && e->staged) {
		note_lock(t, e, e->base);
		*out = copy_table(e->staged, a);
		return FLOE_OK;
	}
	if (e && e->base && t->level >= ISO_REPEATABLE_READ) {
		e->read = e->read || !is_target;
		note_lock(t, e, e->base);
		*out = copy_table(e->base, a);
		return FLOE_OK;
	}
	hold_compaction(s);
	/* a locking SELECT locks committed rows: the table's buffered ones
	 * are committed first (a keyed table's too, keyindex.c) */
	if (t->level >= ISO_REPEATABLE_READ || t->locking)
		TRY(ingest_before_pin(s, ns, name, err));
	TRY(table_load(s->engine->catalog, s->engine->io, ns, name, t->arena, &x, err));
	if (!e)
		e = add_table(t, ns, name);
	e->base = x;
	e->read = e->read || !is_target;
	note_lock(t, e, x);
	*out = copy_table(x, a);
	return FLOE_OK;
}

/* An autocommit change's PRIMARY KEY re-check at each re-base. */
typedef struct KeyHook {
	FileIO *io;
	const TableChange *ch;
} KeyHook;

static int
key_hook(void *arg, const Table *from, const Table *to, Arena *a, floe_error *err)
{
	KeyHook *h = arg;
	if (h->ch->rebase_check)      /* the statement's own (REGISTER FILES: duplicates) */
		TRY(h->ch->rebase_check(h->ch->rebase_arg, from, to, a, err));
	return keycheck_rebase(h->io, from, to, h->ch->add, h->ch->nadd, NULL, 0,
			       h->ch->key_clash_retry, a, err);
}

/*
 * Rule 7 for COPY FROM: an autocommit statement that lost its commit with
 * 40001 is re-run, but COPY's input is consumed.  Its change is an append
 * of the rows it wrote, so it is re-based instead, as often as a
 * statement would be re-run: on the latest head, after the PRIMARY KEY
 * check against everything committed since the statement's snapshot
 * (keycheck_rebase: 23505 on a real duplicate).  A changed schema keeps
 * the 40001.  Returns FLOE_ERR (err as it is) when ch is not such a change.
 */
static int
copy_rebase(Session *s, Table *base, const TableChange *ch, Arena *a, Table **out,
	    floe_error *err)
{
	Txn *t = s->txn;
	int attempt, i;

	if (!t || t->kind != K_DML || t->retryable || in_block(s) ||
	    !floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE) || ch->remove_all ||
	    ch->nremove || default_level(s) > ISO_READ_COMMITTED)
		return FLOE_ERR;
	for (i = 0; i < ch->nadd; i++)
		if (ch->add[i].content != CONTENT_DATA)
			return FLOE_ERR;
	for (attempt = 0; attempt + 1 < TXN_STATEMENT_TRIES; attempt++) {
		Table *head;
		floe_error e2;
		t->retries++;
		txn_backoff(TXN_STATEMENT_BACKOFF_MS, attempt);
		if (table_load(s->engine->catalog, s->engine->io, base->ns, base->name, a, &head,
			       &e2) != FLOE_OK ||
		    table_view_like(head, base, a, &head, &e2) != FLOE_OK)
			return FLOE_ERR;          /* the 40001 stands */
		if (head->md->current_schema_id != base->md->current_schema_id)
			return FLOE_ERR;
		floe_error_clear(err);
		TRY(ch->rebase_check ? ch->rebase_check(ch->rebase_arg, base, head, a, err) :
		    keycheck_rebase(s->engine->io, base, head, ch->add, ch->nadd, NULL, 0,
				    ch->key_clash_retry, a, err));
		if (table_commit(s->engine->catalog, s->engine->io, head, ch, a, out, err) == FLOE_OK)
			return FLOE_OK;
		if (!floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE))
			return FLOE_ERR;
		base = head;   /* keys checked up to here */
	}
	return FLOE_ERR;
}

int
txn_commit(Session *s, Table *base, const TableChange *ch, Arena *a, Table **out, floe_error *err)
{
	Txn *t = s->txn;
	TxnTable *e;
	Table *cur, *staged;
	char **written;
	int nw, i;

	if (!in_block(s) || t->passthrough) {
		KeyHook h = { s->engine->io, ch };
		TableChange c = *ch;
		IngestKeyGuard *g = NULL;
		if (groupcommit_eligible(base, ch))
			return groupcommit_commit(s, base, ch, a, out, err);
		c.rebase_check = key_hook;
		c.rebase_arg = &h;
		/* a keyed table: no added key may be in the insert buffer, and
		 * none may be buffered until the swap is done (ingest.h) */
		if (ingest_key_guard(s, base, ch->add, ch->nadd, ch->nremove > 0 || ch->remove_all,
				     ch->key_clash_retry, &g, err) != FLOE_OK ||
		    (table_commit(s->engine->catalog, s->engine->io, base, &c, a, out, err) != FLOE_OK &&
		     copy_rebase(s, base, &c, a, out, err) != FLOE_OK)) {
			ingest_key_guard_release(g);
			return FLOE_ERR;
		}
		ingest_key_guard_release(g);
		watermark_note(s, (*out)->ns, (*out)->name, (*out)->md->last_sequence_number);
		snapshot_pin_forget(s, (*out)->ns, (*out)->name);   /* read your writes */
		return FLOE_OK;
	}
	if (t->read_only && !temp_is_temp_ns(base->ns))   /* temp tables: writable (temp_write) */
		return floe_errorf(err, ERRCODE_READ_ONLY_SQL_TRANSACTION,
				   "cannot write to a table in a read-only transaction");
	e = find_table(t, base->ns, base->name);
	if (!e || !e->base) {
		/* not loaded through txn_table_load: pin the head now */
		Table *x;
		hold_compaction(s);
		TRY(table_load(s->engine->catalog, s->engine->io, base->ns, base->name, t->arena,
			       &x, err));
		if (strcmp(x->metadata_location, base->metadata_location) != 0)
			return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					   "could not serialize access due to concurrent update");
		if (!e)
			e = add_table(t, base->ns, base->name);
		e->base = x;
	}
	e->key_retry = e->key_retry || ch->key_clash_retry;
	cur = e->staged ? e->staged : e->base;
	TRY(table_stage(s->engine->io, cur, ch, t->arena, &staged, &written, &nw, err));
	for (i = 0; i < nw; i++)
		push_path(t, &t->garbage, &t->ngarbage, &t->capg, written[i]);
	for (i = 0; i < ch->nadd; i++)
		push_path(t, &t->data, &t->ndata, &t->capd, ch->add[i].file_path);
	e->staged = staged;
	*out = copy_table(staged, a);
	return FLOE_OK;
}

int
txn_commit_metadata(Session *s, const Table *base, TableMetadata *md, Arena *a, Table **out,
		    floe_error *err)
{
	Txn *t = s->txn;
	TxnTable *e;

	if (in_block(s) && !t->passthrough && (e = find_table(t, base->ns, base->name)) &&
	    e->staged)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot change the definition of table \"%s\": this transaction has uncommitted changes to it",
				   base->name);
	return table_commit_metadata(s->engine->catalog, s->engine->io, base, md, a, out, err);
}

static int
stmt_kind(Node *n)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_SELECT_STMT:
	case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
	case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
	case PG_QUERY__NODE__NODE_FETCH_STMT:
		return K_READ;
	case PG_QUERY__NODE__NODE_INSERT_STMT:
	case PG_QUERY__NODE__NODE_UPDATE_STMT:
	case PG_QUERY__NODE__NODE_DELETE_STMT:
	case PG_QUERY__NODE__NODE_MERGE_STMT:
	case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
		return K_DML;
	case PG_QUERY__NODE__NODE_COPY_STMT:
		return n->copy_stmt->is_from ? K_DML : K_READ;
	case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
	case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
		return K_SET;
	case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
		return K_TXN;
	case PG_QUERY__NODE__NODE_CREATE_STMT:
	case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
	case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
	case PG_QUERY__NODE__NODE_DROP_STMT:
	case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
	case PG_QUERY__NODE__NODE_RENAME_STMT:
	case PG_QUERY__NODE__NODE_CALL_STMT:
	case PG_QUERY__NODE__NODE_INDEX_STMT:
	case PG_QUERY__NODE__NODE_VIEW_STMT:
	case PG_QUERY__NODE__NODE_COMMENT_STMT:
	case PG_QUERY__NODE__NODE_GRANT_STMT:
		return K_DDL;
	case PG_QUERY__NODE__NODE_VACUUM_STMT:
		/* ANALYZE reads the committed table and commits its statistics:
		 * in an implicit block (rule 11) it is rule 6, so 'INSERT ...;
		 * ANALYZE' sees the rows; in an explicit block it commits nothing
		 * early and refuses a table the block changed (0A000, analyze.c):
		 * txn_before_statement.  VACUUM / OPTIMIZE (also VacuumStmt) are
		 * refused in a block (25001), committing nothing. */
		return n->vacuum_stmt->is_vacuumcmd ? K_OTHER : K_DDL;
	default:
		return K_OTHER;          /* unsupported, or no table effect */
	}
}

/* CREATE TEMP TABLE [AS] / CREATE TABLE pg_temp.x; CREATE TEMP SEQUENCE /
 * VIEW the same (their CREATE and DROP follow the block too, temp.h) */
static bool
temp_create_stmt(Node *n)
{
	const PgQuery__RangeVar *rv = NULL;

	if (n->node_case == PG_QUERY__NODE__NODE_CREATE_STMT)
		rv = n->create_stmt->relation;
	else if (n->node_case == PG_QUERY__NODE__NODE_CREATE_SEQ_STMT)
		rv = n->create_seq_stmt->sequence;
	else if (n->node_case == PG_QUERY__NODE__NODE_VIEW_STMT)
		rv = n->view_stmt->view;
	else if (n->node_case == PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT && n->create_table_as_stmt->into &&
		 n->create_table_as_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		rv = n->create_table_as_stmt->into->rel;
	return rv && ((rv->relpersistence && rv->relpersistence[0] == 't') ||
		      (rv->schemaname && temp_is_temp_ns(rv->schemaname)));
}

/* DROP TABLE / SEQUENCE / VIEW of temporary ones only: undone by ROLLBACK
 * (temp_drop, temp.h), so nothing of the block is committed first */
static bool
temp_drop_stmt(Session *s, Node *n)
{
	PgQuery__DropStmt *ds = n->node_case == PG_QUERY__NODE__NODE_DROP_STMT ? n->drop_stmt : NULL;
	bool table = ds && ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE;
	size_t i;

	if (!ds || !ds->n_objects || (!table && ds->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE &&
				      ds->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_VIEW))
		return false;
	for (i = 0; i < ds->n_objects; i++) {
		PgQuery__List *l = ds->objects[i]->node_case == PG_QUERY__NODE__NODE_LIST ? ds->objects[i]->list : NULL;
		const char *ns, *name;
		if (!l || l->n_items < 1 || l->n_items > 2)
			return false;
		name = l->items[l->n_items - 1]->string->sval;
		ns = temp_resolve(s, l->n_items == 2 ? l->items[0]->string->sval : NULL, name);
		if (!table && !ns)
			ns = l->n_items == 2 ? NULL : search_path_lookup(s, name);
		if (!ns || !temp_is_temp_ns(ns) || !(table ? temp_has_table(s, name) : temp_has(s, name)))
			return false;
	}
	return true;
}

/* PostgreSQL lets a read-only transaction INSERT / UPDATE / DELETE / MERGE
 * / COPY FROM into a temporary table (not TRUNCATE it) */
static bool
temp_write(Session *s, Node *n)
{
	const PgQuery__RangeVar *rv = NULL;

	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_INSERT_STMT: rv = n->insert_stmt->relation; break;
	case PG_QUERY__NODE__NODE_UPDATE_STMT: rv = n->update_stmt->relation; break;
	case PG_QUERY__NODE__NODE_DELETE_STMT: rv = n->delete_stmt->relation; break;
	case PG_QUERY__NODE__NODE_MERGE_STMT: rv = n->merge_stmt->relation; break;
	case PG_QUERY__NODE__NODE_COPY_STMT:
		rv = n->copy_stmt->is_from ? n->copy_stmt->relation : NULL;
		break;
	default: break;
	}
	return rv && rv->relname && temp_resolve(s, rv->schemaname, rv->relname) &&
	       temp_is_temp_ns(temp_resolve(s, rv->schemaname, rv->relname));
}

static const char *
dml_name(Node *n)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_INSERT_STMT: return "INSERT";
	case PG_QUERY__NODE__NODE_UPDATE_STMT: return "UPDATE";
	case PG_QUERY__NODE__NODE_DELETE_STMT: return "DELETE";
	case PG_QUERY__NODE__NODE_MERGE_STMT: return "MERGE";
	case PG_QUERY__NODE__NODE_TRUNCATE_STMT: return "TRUNCATE TABLE";
	case PG_QUERY__NODE__NODE_COPY_STMT: return "COPY FROM";
	case PG_QUERY__NODE__NODE_CREATE_STMT: return "CREATE TABLE";
	case PG_QUERY__NODE__NODE_DROP_STMT: return "DROP TABLE";
	default: return "this statement";
	}
}

static void
warn(ResultSink *sink, const char *code, const char *msg)
{
	floe_error n;
	if (!sink || !sink->notice)
		return;
	floe_errorf(&n, code, "%s", msg);
	sink->notice(sink->ctx, &n);
}

static const char *
const_text(Node *n, char *buf, size_t cap)
{
	if (!n)
		return NULL;
	if (n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
		PgQuery__AConst *c = n->a_const;
		if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL)
			return c->sval->sval;
		if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
			snprintf(buf, cap, "%d", c->ival->ival);
			return buf;
		}
		if (c->val_case == PG_QUERY__A__CONST__VAL_BOOLVAL)
			return c->boolval->boolval ? "1" : "0";
	}
	if (n->node_case == PG_QUERY__NODE__NODE_STRING)
		return n->string->sval;
	return NULL;
}

/* Transaction modes (BEGIN / START TRANSACTION / SET TRANSACTION options):
 * DefElem transaction_isolation / transaction_read_only /
 * transaction_deferrable. */
static int
parse_modes(PgQuery__Node **opts, size_t n, int *level, bool *read_only, floe_error *err)
{
	size_t i;
	char buf[32];

	for (i = 0; i < n; i++) {
		PgQuery__DefElem *d;
		const char *v;
		if (opts[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
			continue;
		d = opts[i]->def_elem;
		v = const_text(d->arg, buf, sizeof buf);
		if (!strcmp(d->defname, "transaction_isolation")) {
			int l = iso_parse(v);
			if (l < 0)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid value for parameter \"transaction_isolation\": \"%s\"",
						   v ? v : "");
			*level = l;
		} else if (!strcmp(d->defname, "transaction_read_only")) {
			*read_only = v && strcmp(v, "0") != 0;
		}
	}
	return FLOE_OK;
}

/* set_config(name, value, true) (sql/set_config.c): SET LOCAL without
 * its WARNING (PostgreSQL warns for the statement only): inside a block
 * the setting goes back at the block's end, outside one at the end of the
 * running statement (its own transaction). */
int
txn_set_config_local(Session *s, const char *name, floe_error *err)
{
	Txn *t = get_txn(s);
	const char *cur;

	if (in_block(s)) {
		if (!is_local(t, name)) {
			t->local = xrealloc(t->local, sizeof(char *) * (size_t)(t->nlocal + 1));
			t->local[t->nlocal++] = xstrdup(name);
		}
		return FLOE_OK;
	}
	if (t->revert && !strcmp(t->revert_key, name))
		return FLOE_OK;          /* the value before the statement stays */
	if (t->revert)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "set_config(..., true) of a second setting (\"%s\" after \"%s\") in one "
				   "statement outside a transaction block is not supported yet",
				   name, t->revert_key);
	cur = session_setting(s, name);
	t->revert_key = xstrdup(name);
	t->revert_value = cur ? xstrdup(cur) : NULL;
	t->revert = true;
	return FLOE_OK;
}

/* SET TRANSACTION ... / SET SESSION CHARACTERISTICS AS TRANSACTION ... /
 * SET [default_]transaction_isolation.  The engine's SET stores settings;
 * the multi forms are turned into "SET <setting> TO DEFAULT" here (same
 * command tag) and the value is applied after the statement. */
static int
before_set(Session *s, PgQuery__VariableSetStmt *vs, ResultSink *sink, floe_error *err)
{
	Txn *t = s->txn;
	bool multi = vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI;
	bool session_chars = multi && !strcasecmp(vs->name, "SESSION CHARACTERISTICS");
	bool set_txn = multi && !strcasecmp(vs->name, "TRANSACTION");
	int level = -1;
	bool ro = false;
	char buf[32];

	if (!vs->name)
		return FLOE_OK;
	if (vs->is_local && !multi) {
		if (in_block(s)) {
			if (!is_local(t, vs->name)) {
				t->local = xrealloc(t->local, sizeof(char *) * (size_t)(t->nlocal + 1));
				t->local[t->nlocal++] = xstrdup(vs->name);
			}
		} else {
			/* PostgreSQL: a warning, and the SET ends with its statement */
			const char *cur = session_setting(s, vs->name);
			warn(sink, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
			     "SET LOCAL can only be used in transaction blocks");
			free(t->revert_key);
			free(t->revert_value);
			t->revert_key = xstrdup(vs->name);
			t->revert_value = cur ? xstrdup(cur) : NULL;
			t->revert = true;
		}
	}
	if (set_txn || session_chars) {
		TRY(parse_modes(vs->args, vs->n_args, &level, &ro, err));
		if (set_txn && !in_block(s)) {
			warn(sink, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
			     "SET TRANSACTION can only be used in transaction blocks");
			level = -1;
		}
		if (set_txn && in_block(s) && level >= 0 && t->ran_query && level != t->level)
			return floe_errorf(err, ERRCODE_ACTIVE_SQL_TRANSACTION,
					   "SET TRANSACTION ISOLATION LEVEL must be called before any query");
		/* the tree is in the statement's arena (parse.c): replaced, not freed */
		vs->name = (char *)(session_chars ? "default_transaction_isolation" : "transaction_isolation");
		vs->kind = PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT;
		t->pending_key = session_chars ? "default_transaction_isolation" : "transaction_isolation";
		t->pending_value = level >= 0 ? iso_names[level] : NULL;
		if (set_txn && in_block(s)) {
			if (level >= 0)
				t->level = level;
			t->read_only = t->read_only || ro;
		}
		if (session_chars && level < 0) {
			/* only READ ONLY / DEFERRABLE: keep the default as it is */
			const char *cur = session_setting(s, "default_transaction_isolation");
			t->pending_value = iso_names[iso_parse(cur) < 0 ? 1 : iso_parse(cur)];
		}
		if (session_chars) {
			size_t i;
			for (i = 0; i < vs->n_args; i++)
				if (vs->args[i]->node_case == PG_QUERY__NODE__NODE_DEF_ELEM &&
				    !strcmp(vs->args[i]->def_elem->defname, "transaction_read_only"))
					setting_put(s, "default_transaction_read_only", ro ? "on" : "off");
		}
		return FLOE_OK;
	}
	if (!strcasecmp(vs->name, "transaction_read_only") && in_block(s) &&
	    vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE && vs->n_args)
		t->read_only = bool_text(const_text(vs->args[0], buf, sizeof buf));
	if (!strcasecmp(vs->name, "transaction_isolation") ||
	    !strcasecmp(vs->name, "default_transaction_isolation")) {
		const char *v = vs->n_args ? const_text(vs->args[0], buf, sizeof buf) : NULL;
		bool dflt = !strcasecmp(vs->name, "default_transaction_isolation");
		if (vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE) {
			level = iso_parse(v);
			if (level < 0)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "invalid value for parameter \"%s\": \"%s\"", vs->name,
						   v ? v : "");
		} else {
			level = dflt ? ISO_READ_COMMITTED : default_level(s);
		}
		if (!dflt && in_block(s)) {
			if (t->ran_query && level != t->level)
				return floe_errorf(err, ERRCODE_ACTIVE_SQL_TRANSACTION,
						   "SET TRANSACTION ISOLATION LEVEL must be called before any query");
			t->level = level;
		}
		t->pending_key = dflt ? "default_transaction_isolation" : "transaction_isolation";
		t->pending_value = iso_names[level];
	}
	return FLOE_OK;
}

/* SELECT ... FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [NOWAIT]:
 * optimistic row locks at table granularity (rule 9).  The clause is taken
 * off the statement (the SELECT runs as a plain read); in a block every
 * table the statement loads is locked.  Outside a block a lock would end
 * with the statement: nothing to do.  SKIP LOCKED cannot be had: 0A000. */
static const char *
strength_name(PgQuery__LockClauseStrength st)
{
	switch (st) {
	case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE: return "KEY SHARE";
	case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE: return "SHARE";
	case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE: return "NO KEY UPDATE";
	default: return "UPDATE";
	}
}

/* PostgreSQL's CheckSelectLocking (0A000), on the statement's top level:
 * aggregates only when a target is an aggregate call itself. */
static int
check_lockable(PgQuery__SelectStmt *sel, const char *what, floe_error *err)
{
	const char *why = NULL;
	size_t i;

	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
		why = "UNION/INTERSECT/EXCEPT";
	else if (sel->n_distinct_clause)
		why = "DISTINCT clause";
	else if (sel->n_group_clause)
		why = "GROUP BY clause";
	else if (sel->having_clause)
		why = "HAVING clause";
	for (i = 0; !why && i < sel->n_target_list; i++) {
		Node *v = sel->target_list[i]->node_case == PG_QUERY__NODE__NODE_RES_TARGET
			? sel->target_list[i]->res_target->val : NULL;
		if (v && v->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
			PgQuery__FuncCall *f = v->func_call;
			if (f->over)
				why = "window functions";
			else if (f->agg_star || f->agg_distinct ||
				 bind_is_aggregate_name(f->funcname[f->n_funcname - 1]->string->sval))
				why = "aggregate functions";
		}
	}
	if (why)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "FOR %s is not allowed with %s",
				   what, why);
	return FLOE_OK;
}

/* The RangeVars of a FROM list, through JOINs. */
static void
from_rangevars(Node *n, PgQuery__RangeVar **out, int *nout, int cap)
{
	if (!n || *nout >= cap)
		return;
	if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
		out[(*nout)++] = n->range_var;
	else if (n->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR && !n->join_expr->alias) {
		/* (a JOIN b) AS j hides a and b: not named, locked whole */
		from_rangevars(n->join_expr->larg, out, nout, cap);
		from_rangevars(n->join_expr->rarg, out, nout, cap);
	}
}

static const char *
rv_refname(const PgQuery__RangeVar *rv)
{
	return rv->alias && rv->alias->aliasname ? rv->alias->aliasname : rv->relname;
}

static bool
named_in(const char *ref, PgQuery__Node **rels, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (rels[i]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR &&
		    !strcmp(rels[i]->range_var->relname, ref))
			return true;
	return false;
}

static Node *
string_node(Arena *a, const char *v)
{
	Node *n = ARENA_NEW(a, Node);
	PgQuery__String *str = ARENA_NEW(a, PgQuery__String);
	pg_query__node__init(n);
	pg_query__string__init(str);
	str->sval = (char *)v;
	n->node_case = PG_QUERY__NODE__NODE_STRING;
	n->string = str;
	return n;
}

/* Rule 9, key-granular: each FROM table with a PRIMARY KEY (those named by
 * OF when there is one) gets its key columns appended to the select list
 * (ref.col), which txn_lock_plan takes off the output again and records.
 * A FROM item it cannot name unambiguously (two with one reference name,
 * a CTE's name, a view, a missing table) is left out: whatever the
 * statement loads besides the targets is locked whole (note_lock). */
static bool
locked_by_of(PgQuery__SelectStmt *sel, const char *ref)
{
	size_t i;
	bool all = false, named = false;

	for (i = 0; i < sel->n_locking_clause; i++) {
		Node *n = sel->locking_clause[i];
		if (n->node_case != PG_QUERY__NODE__NODE_LOCKING_CLAUSE)
			continue;
		if (n->locking_clause->n_locked_rels == 0)
			all = true;
		else if (named_in(ref, n->locking_clause->locked_rels,
				  n->locking_clause->n_locked_rels))
			named = true;
	}
	return all || named;
}

static bool
is_cte_name(PgQuery__SelectStmt *sel, const PgQuery__RangeVar *rv)
{
	size_t i;

	if (!sel->with_clause || (rv->schemaname && *rv->schemaname))
		return false;
	for (i = 0; i < sel->with_clause->n_ctes; i++) {
		Node *c = sel->with_clause->ctes[i];
		if (c->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR &&
		    !strcmp(c->common_table_expr->ctename, rv->relname))
			return true;
	}
	return false;
}

static void
lock_targets(Session *s, PgQuery__SelectStmt *sel)
{
	Txn *t = s->txn;
	Arena *a = t->arena;
	PgQuery__RangeVar *rvs[64];
	size_t i;
	int nrv = 0, k, j, c, extra = 0, nt = 0;
	Node **tl;
	int ntl;

	t->ltargets = NULL;
	t->nltargets = 0;
	t->lock_extra = 0;
	for (i = 0; i < sel->n_from_clause; i++)
		from_rangevars(sel->from_clause[i], rvs, &nrv, 64);
	t->ltargets = ARENA_ARRAY(a, LockTarget, nrv + 1);
	tl = ARENA_ARRAY(a, Node *, sel->n_target_list + (size_t)nrv * 8 + 1);
	ntl = (int)sel->n_target_list;
	if (ntl)
		memcpy(tl, sel->target_list, sizeof(Node *) * (size_t)ntl);
	for (k = 0; k < nrv; k++) {
		const char *ref = rv_refname(rvs[k]), *ns, *name;
		const IcebergSchema *sc;
		Table *x;
		floe_error ignore;
		bool dup = false;
		for (j = 0; j < nrv; j++)
			dup = dup || (j != k && !strcmp(rv_refname(rvs[j]), ref));
		if (dup || is_cte_name(sel, rvs[k]) || !locked_by_of(sel, ref) ||
		    (rvs[k]->alias && rvs[k]->alias->n_colnames > 0))
			continue;       /* x(a, b) renames the key columns */
		session_resolve_name(s, rvs[k], &ns, &name);
		if (table_load(s->engine->catalog, s->engine->io, ns, name, a, &x, &ignore) != FLOE_OK)
			continue;       /* a view, a metadata table, missing: not keyed */
		sc = metadata_current_schema(x->md);
		if (!sc || sc->nidentifier == 0 || sc->nidentifier > 8)
			continue;
		for (j = 0; j < sc->nidentifier; j++) {
			for (c = 0; c < sc->nfields && sc->fields[c].id != sc->identifier_field_ids[j]; c++)
				;
			if (c == sc->nfields)
				break;
		}
		if (j < sc->nidentifier)
			continue;
		t->ltargets[nt].ns = arena_strdup(a, ns);
		t->ltargets[nt].name = arena_strdup(a, name);
		t->ltargets[nt].at = extra;
		t->ltargets[nt].npk = sc->nidentifier;
		nt++;
		for (j = 0; j < sc->nidentifier; j++) {
			PgQuery__ColumnRef *cr = ARENA_NEW(a, PgQuery__ColumnRef);
			PgQuery__ResTarget *rt = ARENA_NEW(a, PgQuery__ResTarget);
			Node *cn = ARENA_NEW(a, Node), *rn = ARENA_NEW(a, Node);
			Node **f = ARENA_ARRAY(a, Node *, 2);
			for (c = 0; sc->fields[c].id != sc->identifier_field_ids[j]; c++)
				;
			pg_query__column_ref__init(cr);
			pg_query__res_target__init(rt);
			pg_query__node__init(cn);
			pg_query__node__init(rn);
			f[0] = string_node(a, arena_strdup(a, ref));
			f[1] = string_node(a, arena_strdup(a, sc->fields[c].name));
			cr->fields = f;
			cr->n_fields = 2;
			cr->location = -1;
			cn->node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
			cn->column_ref = cr;
			rt->val = cn;
			rt->location = -1;
			rt->name = arena_sprintf(a, "?floe lock key %d?", extra);
			rn->node_case = PG_QUERY__NODE__NODE_RES_TARGET;
			rn->res_target = rt;
			tl[ntl++] = rn;
			extra++;
		}
	}
	if (extra == 0)
		return;
	sel->target_list = tl;
	sel->n_target_list = (size_t)ntl;
	t->nltargets = nt;
	t->lock_extra = extra;
}

static int
take_locking_clause(Session *s, PgQuery__SelectStmt *sel, floe_error *err)
{
	size_t i;

	for (i = 0; i < sel->n_locking_clause; i++) {
		Node *n = sel->locking_clause[i];
		if (n->node_case != PG_QUERY__NODE__NODE_LOCKING_CLAUSE)
			continue;
		TRY(check_lockable(sel, strength_name(n->locking_clause->strength), err));
		if (n->locking_clause->wait_policy == PG_QUERY__LOCK_WAIT_POLICY__LockWaitSkip)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "SKIP LOCKED is not supported: floe's row locks are optimistic");
	}
	if (in_block(s))
		lock_targets(s, sel);
	/* detached, not freed: the tree is in the statement's arena (parse.c);
	 * the binder checks UPDATE on what they lock (acl_lock_prepare) */
	s->txn->lock_sel = sel;
	s->txn->lock_clauses = sel->locking_clause;
	s->txn->nlock_clauses = sel->n_locking_clause;
	sel->locking_clause = NULL;
	sel->n_locking_clause = 0;
	s->txn->locking = in_block(s);
	return FLOE_OK;
}

/* The operator over a locking SELECT's plan (txn_lock_plan): records the
 * key columns of each target's rows and passes the other columns on. */
typedef struct LockTap {
	Operator op;
	Session *s;
	Batch out;
} LockTap;

static int
tap_open(Operator *op)
{
	return op_open(op->child);
}

static int
tap_next(Operator *op, Batch **out)
{
	LockTap *lt = (LockTap *)op;
	Txn *t = lt->s->txn;
	Batch *in;
	int i;
	uint32_t r;

	arena_reset(op->scratch);
	TRY(op_next(op->child, &in));
	if (!in) {
		*out = NULL;
		return FLOE_OK;
	}
	if (in->count) {
		int base = in->ncols - t->lock_extra;
		batch_compact(in);
		for (i = 0; i < t->nltargets; i++) {
			LockTarget *lk = &t->ltargets[i];
			TxnTable *e = find_table(t, lk->ns, lk->name);
			if (!e || !e->lock_keys)
				continue;
			for (r = 0; r < in->count; r++)
				(void)keyset_add(e->lock_keys, keydiff_key(&in->cols[base + lk->at],
									   lk->npk, r, op->scratch));
		}
	}
	lt->out = *in;
	lt->out.ncols = op->ncols;
	*out = &lt->out;
	return FLOE_OK;
}

static void
tap_close(Operator *op)
{
	op_close(op->child);
}

static const OperatorVT tap_vt = { "LockRows", tap_open, tap_next, tap_close };

bool
txn_take_locking(Session *s, const PgQuery__SelectStmt *sel, Node ***clauses, size_t *n)
{
	Txn *t = s->txn;

	if (!t || !t->lock_sel || t->lock_sel != sel)
		return false;
	*clauses = t->lock_clauses;
	*n = t->nlock_clauses;
	t->lock_sel = NULL;
	t->lock_clauses = NULL;
	t->nlock_clauses = 0;
	return true;
}

int
txn_lock_plan(Session *s, ExecCtx *ctx, SelectPlan *p)
{
	Txn *t = s->txn;
	LockTap *lt;

	if (!t || !t->locking || t->lock_extra == 0)
		return FLOE_OK;
	if (p->ncols < t->lock_extra)
		return floe_errorf(ctx->err, ERRCODE_INTERNAL_ERROR,
				   "SELECT ... FOR UPDATE: %d key columns expected, %d columns",
				   t->lock_extra, p->ncols);
	lt = ARENA_NEW(ctx->arena, LockTap);
	op_init(&lt->op, &tap_vt, ctx, p->ncols - t->lock_extra, p->types, p->root);
	lt->s = s;
	p->root = &lt->op;
	p->ncols -= t->lock_extra;
	return FLOE_OK;
}

int
txn_before_statement(Session *s, Node *stmt, ResultSink *sink, floe_error *err)
{
	Txn *t = get_txn(s);
	int kind = stmt_kind(stmt);

	/* CREATE TEMP TABLE [AS] is no DDL here: it commits nothing of the
	 * block first, and its rows are the block's (temp.h) */
	if (kind == K_DDL && (temp_create_stmt(stmt) || temp_drop_stmt(s, stmt)))
		kind = K_DML;
	if (kind == K_DDL && stmt->node_case == PG_QUERY__NODE__NODE_VACUUM_STMT &&
	    in_block(s) && !t->implicit)
		kind = K_OTHER;   /* ANALYZE in an explicit block: stmt_kind */

	t->kind = kind;
	t->retryable = kind == K_DML && stmt->node_case != PG_QUERY__NODE__NODE_COPY_STMT;
	t->passthrough = false;
	t->locking = false;
	t->nltargets = t->lock_extra = 0;
	t->lock_sel = NULL;
	t->lock_clauses = NULL;
	t->nlock_clauses = 0;
	t->insert_ns = t->insert_name = NULL;
	t->pending_key = t->pending_value = NULL;
	if (t->state == 'E') {
		PgQuery__TransactionStmtKind k = kind == K_TXN ? stmt->transaction_stmt->kind : 0;
		if (k != PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT &&
		    k != PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK &&
		    k != PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO)
			return floe_errorf(err, ERRCODE_IN_FAILED_SQL_TRANSACTION,
					   "current transaction is aborted, commands ignored until end of transaction block");
		return FLOE_OK;
	}
	if (kind == K_SET && stmt->node_case == PG_QUERY__NODE__NODE_VARIABLE_SET_STMT)
		return before_set(s, stmt->variable_set_stmt, sink, err);
	if (stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
	    stmt->select_stmt->n_locking_clause > 0)
		TRY(take_locking_clause(s, stmt->select_stmt, err));
	if ((kind == K_DML || kind == K_DDL) && !temp_write(s, stmt))
		TRY(snapshot_pin_check_write(s, err));   /* explicit:<id>: 25006 */
	if (t->state != 'T') {
		/* autocommit statements are transactions too */
		if ((kind == K_DML || kind == K_DDL) && default_read_only(s) && !temp_write(s, stmt))
			return floe_errorf(err, ERRCODE_READ_ONLY_SQL_TRANSACTION,
					   "cannot execute %s in a read-only transaction", dml_name(stmt));
		return FLOE_OK;
	}
	if (kind == K_READ || kind == K_DML)
		t->ran_query = true;
	if (t->read_only && (kind == K_DML || kind == K_DDL) && !temp_write(s, stmt)) {
		return floe_errorf(err, ERRCODE_READ_ONLY_SQL_TRANSACTION,
				   "cannot execute %s in a read-only transaction", dml_name(stmt));
	}
	/* INSERT ... VALUES / DEFAULT VALUES and COPY FROM load their target
	 * without reading it (an INSERT ... SELECT may read it: a read) */
	if ((stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT &&
	     !stmt->insert_stmt->on_conflict_clause &&
	     (!stmt->insert_stmt->select_stmt ||
	      (stmt->insert_stmt->select_stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
	       stmt->insert_stmt->select_stmt->select_stmt->n_values_lists > 0))) ||
	    (stmt->node_case == PG_QUERY__NODE__NODE_COPY_STMT && stmt->copy_stmt->is_from &&
	     stmt->copy_stmt->relation)) {
		PgQuery__RangeVar *rv = stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT
			? stmt->insert_stmt->relation : stmt->copy_stmt->relation;
		const char *ns, *name;
		session_resolve_name(s, rv, &ns, &name);
		t->insert_ns = (char *)ns;
		t->insert_name = (char *)name;
	}
	if (kind == K_DDL) {
		int i;
		bool pending = false;
		for (i = 0; i < t->ntabs; i++)
			pending = pending || t->tabs[i].staged;
		if (pending) {
			int level = t->level;
			bool ro = t->read_only, implicit = t->implicit;
			if (!implicit)
				warn(sink, "00000",
				     "DDL in a transaction block: committing the block's earlier changes first");
			if (commit_block(s, err) != FLOE_OK) {
				begin_block(s, level, ro);   /* then failed by after_statement */
				s->txn->implicit = implicit;
				return FLOE_ERR;
			}
			begin_block(s, level, ro);
			t = s->txn;
			t->implicit = implicit;
			t->ran_query = true;
			t->kind = kind;
		} else {
			t->ntabs = 0;   /* DDL may change what was loaded */
		}
		t->passthrough = true;
	}
	return FLOE_OK;
}

bool
txn_retry_statement(Session *s, const floe_error *err, int attempt)
{
	Txn *t = s->txn;

	if (in_block(s) || !floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE))
		return false;
	if (t && !t->retryable)
		return false;
	if (default_level(s) > ISO_READ_COMMITTED || attempt + 1 >= TXN_STATEMENT_TRIES)
		return false;
	if (t)
		t->retries++;
	txn_backoff(TXN_STATEMENT_BACKOFF_MS, attempt);
	return true;
}

void
txn_after_statement(Session *s, bool ok)
{
	Txn *t = s->txn;

	if (!t)
		return;
	if (ok && t->pending_key && t->pending_value)
		setting_put(s, t->pending_key, t->pending_value);
	if (t->revert) {
		if (t->revert_value) {
			setting_put(s, t->revert_key, t->revert_value);
		} else {
			int k;
			for (k = 0; k < s->nsettings; k++)
				if (!strcmp(s->settings_keys[k], t->revert_key)) {
					setting_remove(s, k);
					break;
				}
		}
		free(t->revert_key);
		free(t->revert_value);
		t->revert_key = t->revert_value = NULL;
		t->revert = false;
	}
	t->pending_key = t->pending_value = NULL;
	if (!ok && t->state == 'T')
		t->state = 'E';
	if (t->kind == K_DDL && t->state == 'T')
		t->ntabs = 0;               /* reload what the DDL changed */
	t->passthrough = false;
	t->insert_ns = t->insert_name = NULL;
	sync_settings(s);
}

static int
complete(ResultSink *sink, const char *tag)
{
	if (sink && sink->complete)
		return sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

static Savepoint *
find_savepoint(Txn *t, const char *name)
{
	int i;
	for (i = t->nsps - 1; i >= 0; i--)
		if (!strcmp(t->sps[i].name, name))
			return &t->sps[i];
	return NULL;
}

int
txn_exec(Session *s, ExecCtx *ctx, PgQuery__TransactionStmt *ts, ResultSink *sink)
{
	Txn *t = get_txn(s);
	floe_error *err = ctx->err;
	int level, rc;
	bool ro = false;

	switch (ts->kind) {
	case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
	case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START: {
		const char *tag = ts->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN
			? "BEGIN" : "START TRANSACTION";
		level = in_block(s) ? t->level : default_level(s);
		ro = in_block(s) ? t->read_only : default_read_only(s);
		TRY(parse_modes(ts->options, ts->n_options, &level, &ro, err));
		if (in_block(s) && t->implicit) {
			/* rule 11: the implicit block becomes this one */
			t->implicit = false;
			if (!t->ran_query) {
				t->level = level;
				t->read_only = ro;
				sync_settings(s);
			}
			return complete(sink, tag);
		}
		if (in_block(s)) {
			warn(sink, ERRCODE_ACTIVE_SQL_TRANSACTION,
			     "there is already a transaction in progress");
			return complete(sink, tag);
		}
		begin_block(s, level, ro);
		snapshot_settings(s);
		return complete(sink, tag);
	}
	case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT:
		if (in_block(s) && t->implicit) {
			if (ts->chain)
				return floe_errorf(err, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
						   "COMMIT AND CHAIN can only be used in transaction blocks");
			warn(sink, ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
			TRY(txn_implicit_end(s, true, err));
			return complete(sink, "COMMIT");
		}
		if (!in_block(s)) {
			warn(sink, ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
			return complete(sink, "COMMIT");
		}
		if (t->state == 'E') {
			rollback_block(s);
			cursor_txn_end(s, false);
			temp_txn_end(s, false);
			restore_settings(s, true);
			return complete(sink, "ROLLBACK");
		}
		level = t->level;
		ro = t->read_only;
		/* WITH HOLD cursors read their rows first (cursor.c) */
		rc = cursor_txn_commit(s, err);
		if (rc != FLOE_OK)
			rollback_block(s);
		else
			rc = commit_block(s, err);
		cursor_txn_end(s, rc == FLOE_OK);
		temp_txn_end(s, rc == FLOE_OK);   /* ON COMMIT of temporary tables */
		restore_settings(s, rc != FLOE_OK);
		if (rc == FLOE_OK && ts->chain) {
			begin_block(s, level, ro);
			snapshot_settings(s);
		}
		TRY(rc);
		return complete(sink, "COMMIT");
	case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
		if (in_block(s) && t->implicit) {
			if (ts->chain)
				return floe_errorf(err, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
						   "ROLLBACK AND CHAIN can only be used in transaction blocks");
			warn(sink, ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
			(void)txn_implicit_end(s, false, err);
			return complete(sink, "ROLLBACK");
		}
		if (!in_block(s)) {
			warn(sink, ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
			return complete(sink, "ROLLBACK");
		}
		level = t->level;
		ro = t->read_only;
		rollback_block(s);
		cursor_txn_end(s, false);
		temp_txn_end(s, false);   /* drops the temporary tables the block made */
		restore_settings(s, true);
		if (ts->chain) {
			begin_block(s, level, ro);
			snapshot_settings(s);
		}
		return complete(sink, "ROLLBACK");
	case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT: {
		Savepoint *sp;
		if (!in_block(s) || t->implicit)
			return floe_errorf(err, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
					   "SAVEPOINT can only be used in transaction blocks");
		if (t->nsps == t->capsp) {
			int ncap = t->capsp ? t->capsp * 2 : 4;
			t->sps = arena_realloc(t->arena, t->sps, sizeof(Savepoint) * (size_t)t->capsp,
					       sizeof(Savepoint) * (size_t)ncap);
			t->capsp = ncap;
		}
		sp = &t->sps[t->nsps++];
		sp->name = arena_strdup(t->arena, ts->savepoint_name);
		sp->ntabs = t->ntabs;
		sp->tabs = ARENA_ARRAY(t->arena, TxnTable, t->ntabs + 1);
		if (t->ntabs)
			memcpy(sp->tabs, t->tabs, sizeof(TxnTable) * (size_t)t->ntabs);
		t->ran_query = true;
		return complete(sink, "SAVEPOINT");
	}
	case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE:
	case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO: {
		bool release = ts->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE;
		Savepoint *sp;
		if (!in_block(s) || t->implicit)
			return floe_errorf(err, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
					   "%s can only be used in transaction blocks",
					   release ? "RELEASE SAVEPOINT" : "ROLLBACK TO SAVEPOINT");
		if (!(sp = find_savepoint(t, ts->savepoint_name)))
			return floe_errorf(err, ERRCODE_S_E_INVALID_SPECIFICATION,
					   "savepoint \"%s\" does not exist", ts->savepoint_name);
		if (release) {
			t->nsps = (int)(sp - t->sps);
			temp_savepoint_end(s, t->nsps, false);   /* temp.h */
			return complete(sink, "RELEASE");
		}
		temp_savepoint_end(s, (int)(sp - t->sps), true);   /* drops temp tables made since */
		/* rule 8: the tables as they were; pins taken since stay */
		{
			int i;
			int nnow = t->ntabs;
			TxnTable *now = ARENA_ARRAY(t->arena, TxnTable, nnow + 1);
			if (nnow)
				memcpy(now, t->tabs, sizeof(TxnTable) * (size_t)nnow);
			t->ntabs = 0;
			for (i = 0; i < sp->ntabs; i++) {
				TxnTable *e = add_table(t, sp->tabs[i].ns, sp->tabs[i].name);
				*e = sp->tabs[i];
			}
			for (i = 0; i < nnow; i++)
				if (!find_table(t, now[i].ns, now[i].name) && !now[i].staged &&
				    t->level >= ISO_REPEATABLE_READ) {
					TxnTable *e = add_table(t, now[i].ns, now[i].name);
					*e = now[i];
				}
		}
		t->nsps = (int)(sp - t->sps) + 1;
		t->state = 'T';
		return complete(sink, "ROLLBACK");
	}
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "prepared transactions are not supported");
	}
}

void
txn_implicit_begin(Session *s)
{
	if (in_block(s))
		return;
	begin_block(s, default_level(s), default_read_only(s));
	snapshot_settings(s);
	s->txn->implicit = true;
}

int
txn_implicit_end(Session *s, bool ok, floe_error *err)
{
	Txn *t = s->txn;
	int rc;

	if (!t || !t->implicit)
		return FLOE_OK;
	t->implicit = false;
	if (!in_block(s))
		return FLOE_OK;
	if (!ok || t->state == 'E') {
		rollback_block(s);
		cursor_txn_end(s, false);
		temp_txn_end(s, false);
		restore_settings(s, true);
		return FLOE_OK;
	}
	rc = cursor_txn_commit(s, err);
	if (rc != FLOE_OK)
		rollback_block(s);
	else
		rc = commit_block(s, err);
	cursor_txn_end(s, rc == FLOE_OK);
	temp_txn_end(s, rc == FLOE_OK);
	restore_settings(s, rc != FLOE_OK);
	return rc;
}

bool
txn_in_implicit_block(Session *s)
{
	return in_block(s) && s->txn->implicit;
}

void
txn_session_free(Session *s)
{
	if (!s->txn)
		return;
	rollback_block(s);
	free_snapshot(s->txn);
	free(s->txn->revert_key);
	free(s->txn->revert_value);
	free(s->txn);
	s->txn = NULL;
}

int
txn_savepoint_depth(Session *s)
{
	return in_block(s) ? s->txn->nsps : 0;
}

char
session_txn_status(Session *s)
{
	return s->txn ? s->txn->state : 'I';
}

long
txn_retry_count(Session *s)
{
	return s->txn ? s->txn->retries : 0;
}

void
txn_forget_table(Session *s, const char *ns, const char *name)
{
	Txn *t = s->txn;
	TxnTable *e;

	if (!in_block(s) || !(e = find_table(t, ns, name)))
		return;
	memmove(e, e + 1, sizeof *e * (size_t)(t->tabs + t->ntabs - e - 1));
	t->ntabs--;
}

bool
txn_statement_locks(Session *s)
{
	return in_block(s) && !s->txn->passthrough && s->txn->locking;
}

bool
txn_table_pinned(Session *s, const char *ns, const char *name)
{
	Txn *t = s->txn;
	TxnTable *e;

	if (!in_block(s) || t->passthrough || !(e = find_table(t, ns, name)))
		return false;
	return e->staged || (e->base && t->level >= ISO_REPEATABLE_READ);
}
