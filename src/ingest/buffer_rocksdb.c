/*
 * buffer_rocksdb.c — the insert buffer's RocksDB backend (buffer.h's
 * contracts; its ops table, buffer_ops.h): a log in <warehouse>/ingest/ of
 * one floe process (the owner) at a time, others reading it as a RocksDB
 * secondary instance.
 *
 * Statistics are kept in memory per table (the flush loop reads them every
 * 2 s): an append adds its entry, a discard or dead-letter move rebuilds
 * that table's from its key range; rdb_open (and a reader's refresh)
 * rebuilds all of them by one pass over the database.
 *
 * Invariants:
 *   1. seq_next is above every sequence ever appended (rdb_open starts it
 *      at the highest key's + 1, or above the high-water key "S" when that
 *      is higher; appends take it atomically).  Every batch that removes
 *      entries (discard, dead letters) also writes "S" = seq_next - 1,
 *      under hw_mu so the values written only grow: a flush removes the
 *      entries it committed, and a later process must not hand out their
 *      sequences again (they are at or below the table's recorded one, and
 *      would be dropped as committed).
 *   2. A live entry is removed only by rdb_discard (after the flush that
 *      contains it committed) or moved by rdb_dead_letter; both are
 *      synced writes of one WriteBatch.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <rocksdb/c.h>
#include "common/arena.h"
#include "ingest/buffer_ops.h"
#include "ingest/rocksdb_load.h"

#define KEY_LEN (1 + IBUF_UUID_LEN + 8)

struct IbufImpl {
	rocksdb_t *db;
	rocksdb_options_t *opts;
	rocksdb_writeoptions_t *wsync;
	rocksdb_readoptions_t *ropts;
	bool owner;
	char *reader_dir;          /* reader: its secondary folder (removed at close) */
	_Atomic uint64_t seq_next;
	pthread_mutex_t mu;
	pthread_mutex_t hw_mu;     /* commit_batch's high-water write */
	pthread_cond_t cv;         /* signalled when pending bytes drop */
	pthread_cond_t stable_cv;  /* signalled when an append leaves inflight */
	IbufStat *st;
	int nst, capst;
	uint64_t *inflight;        /* sequences taken whose write has not returned */
	int ninflight, capinflight;
};
typedef struct IbufImpl RdbBuffer;

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
make_key(char *k, char kind, const char *uuid, uint64_t seq)
{
	int i;
	size_t n = strlen(uuid);

	k[0] = kind;
	memset(k + 1, ' ', IBUF_UUID_LEN);
	memcpy(k + 1, uuid, n > IBUF_UUID_LEN ? IBUF_UUID_LEN : n);
	for (i = 0; i < 8; i++)
		k[1 + IBUF_UUID_LEN + i] = (char)(seq >> (56 - 8 * i));
}

static uint64_t
key_seq(const char *k)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < 8; i++)
		s = (s << 8) | (uint8_t)k[1 + IBUF_UUID_LEN + i];
	return s;
}

static void
key_uuid(const char *k, char *uuid)
{
	int n = IBUF_UUID_LEN;

	memcpy(uuid, k + 1, IBUF_UUID_LEN);
	while (n > 0 && uuid[n - 1] == ' ')
		n--;
	uuid[n] = 0;
}

static int
rdb_error(floe_error *err, const char *what, char *msg)
{
	floe_errorf(err, ERRCODE_IO_ERROR, "insert buffer: %s: %s", what, msg ? msg : "unknown error");
	free(msg);
	return FLOE_ERR;
}

/* The statistics slot of uuid (created when add), or NULL; under mu. */
static IbufStat *
stat_of(RdbBuffer *b, const char *uuid, bool add)
{
	int i;

	for (i = 0; i < b->nst; i++)
		if (!strcmp(b->st[i].uuid, uuid))
			return &b->st[i];
	if (!add)
		return NULL;
	if (b->nst == b->capst) {
		b->capst = b->capst ? b->capst * 2 : 16;
		b->st = xrealloc(b->st, sizeof(IbufStat) * (size_t)b->capst);
	}
	memset(&b->st[b->nst], 0, sizeof(IbufStat));
	snprintf(b->st[b->nst].uuid, sizeof b->st[b->nst].uuid, "%s", uuid);
	return &b->st[b->nst++];
}

/* Account one entry (kind 'L' or 'D') in its table's statistics; under mu. */
static void
stat_add(RdbBuffer *b, char kind, const char *uuid, uint64_t seq, const char *val, size_t vlen)
{
	IbufStat *s = stat_of(b, uuid, true);
	int64_t staged = 0;
	uint16_t ll = 0;

	if (vlen >= 10) {
		memcpy(&ll, val + 8, 2);
		if (!s->label[0] && ll < sizeof s->label && 10 + (size_t)ll <= vlen) {
			memcpy(s->label, val + 10, ll);
			s->label[ll] = 0;
		}
	}
	if (kind == 'D') {
		s->dead_objects++;
		return;
	}
	if (vlen >= 8)
		memcpy(&staged, val, 8);
	s->pending_objects++;
	s->pending_bytes += (int64_t)vlen;
	if (!s->oldest_ms || (staged && staged < s->oldest_ms))
		s->oldest_ms = staged;
	if (seq > s->max_seq)
		s->max_seq = seq;
}

/* Rebuild the statistics of one table (uuid) or of all (NULL) from the
 * database; under mu.  Returns the highest sequence seen. */
static uint64_t
stats_rebuild(RdbBuffer *b, const char *uuid)
{
	rocksdb_iterator_t *it = rocksdb_create_iterator(b->db, b->ropts);
	uint64_t top = 0;
	int i;

	for (i = 0; i < b->nst; i++) {
		IbufStat *s = &b->st[i];
		if (uuid && strcmp(s->uuid, uuid))
			continue;
		s->pending_objects = s->pending_bytes = s->oldest_ms = s->dead_objects = 0;
		s->max_seq = 0;
	}
	if (uuid) {
		const char kinds[2] = { 'L', 'D' };
		int k;
		for (k = 0; k < 2; k++) {
			char lo[KEY_LEN];
			make_key(lo, kinds[k], uuid, 0);
			for (rocksdb_iter_seek(it, lo, KEY_LEN); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
				size_t kl, vl;
				const char *key = rocksdb_iter_key(it, &kl), *v;
				if (kl != KEY_LEN || memcmp(key, lo, 1 + IBUF_UUID_LEN))
					break;
				v = rocksdb_iter_value(it, &vl);
				stat_add(b, kinds[k], uuid, key_seq(key), v, vl);
			}
		}
	} else {
		for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
			size_t kl, vl;
			const char *key = rocksdb_iter_key(it, &kl), *v;
			char u[IBUF_UUID_LEN + 1];
			if (kl != KEY_LEN || (key[0] != 'L' && key[0] != 'D'))
				continue;
			key_uuid(key, u);
			v = rocksdb_iter_value(it, &vl);
			stat_add(b, key[0], u, key_seq(key), v, vl);
			if (key_seq(key) > top)
				top = key_seq(key);
		}
	}
	rocksdb_iter_destroy(it);
	/* drop the slots of tables with nothing left and no failures to show */
	for (i = 0; i < b->nst;) {
		IbufStat *s = &b->st[i];
		if (!s->pending_objects && !s->dead_objects && !s->flush_failures && !s->flushing)
			b->st[i] = b->st[--b->nst];
		else
			i++;
	}
	return top;
}

static int
rdb_open(RdbBuffer **out, const char *dir, floe_error *err)
{
	RdbBuffer *b;
	char *msg = NULL;

	*out = NULL;
	TRY(rdb_load(err));
	b = xcalloc(1, sizeof *b);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		free(b);
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not create directory \"%s\": %s", dir,
				   strerror(errno));
	}
	b->opts = rocksdb_options_create();
	rocksdb_options_set_create_if_missing(b->opts, 1);
	rocksdb_options_set_info_log_level(b->opts, 4 /* HEADER: no LOG chatter */);
	rocksdb_options_set_keep_log_file_num(b->opts, 2);
	rocksdb_options_set_write_buffer_size(b->opts, 64u << 20);
	b->db = rocksdb_open(b->opts, dir, &msg);
	b->owner = b->db != NULL;
	if (!b->db) {
		/* another process owns it (its LOCK): a secondary instance */
		char *rmsg = NULL;
		free(msg);
		msg = NULL;
		if (asprintf(&b->reader_dir, "%s-readers/%ld", dir, (long)getpid()) < 0)
			abort();
		{
			char *parent = NULL;
			if (asprintf(&parent, "%s-readers", dir) >= 0) {
				(void)mkdir(parent, 0755);
				free(parent);
			}
		}
		rocksdb_options_set_max_open_files(b->opts, -1);
		/* the owner may be creating the database this moment (no CURRENT
		 * file yet): try for up to 2 s before giving up */
		for (int tries = 0; tries < 40; tries++) {
			b->db = rocksdb_open_as_secondary(b->opts, dir, b->reader_dir, &rmsg);
			if (b->db)
				break;
			if (tries < 39) {
				free(rmsg);
				rmsg = NULL;
				usleep(50 * 1000);
			}
		}
		if (!b->db) {
			rocksdb_options_destroy(b->opts);
			free(b->reader_dir);
			free(b);
			return rdb_error(err, "open", rmsg);
		}
	}
	b->wsync = rocksdb_writeoptions_create();
	rocksdb_writeoptions_set_sync(b->wsync, 1);
	b->ropts = rocksdb_readoptions_create();
	pthread_mutex_init(&b->mu, NULL);
	pthread_mutex_init(&b->hw_mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	pthread_cond_init(&b->stable_cv, NULL);
	pthread_mutex_lock(&b->mu);
	b->seq_next = stats_rebuild(b, NULL) + 1;
	pthread_mutex_unlock(&b->mu);
	{
		size_t vl = 0;
		char *hmsg = NULL;
		char *v = rocksdb_get(b->db, b->ropts, "S", 1, &vl, &hmsg);
		if (v && vl == 8) {
			uint64_t hwv = 0;
			int i;
			for (i = 0; i < 8; i++)
				hwv = hwv << 8 | (uint8_t)v[i];
			if (hwv + 1 > b->seq_next)
				b->seq_next = hwv + 1;
		}
		rocksdb_free(v);
		free(hmsg);
	}
	*out = b;
	return FLOE_OK;
}

/* Remove a reader's own secondary folder (files RocksDB made there). */
static void
rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d))) {
			char *q = NULL;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (asprintf(&q, "%s/%s", dir, de->d_name) >= 0) {
				unlink(q);
				free(q);
			}
		}
		closedir(d);
	}
	rmdir(dir);
}

static void
rdb_close(RdbBuffer *b)
{
	if (!b)
		return;
	rocksdb_close(b->db);
	rocksdb_options_destroy(b->opts);
	rocksdb_writeoptions_destroy(b->wsync);
	rocksdb_readoptions_destroy(b->ropts);
	if (b->reader_dir) {
		rm_tree(b->reader_dir);
		free(b->reader_dir);
	}
	pthread_mutex_destroy(&b->mu);
	pthread_mutex_destroy(&b->hw_mu);
	pthread_cond_destroy(&b->cv);
	pthread_cond_destroy(&b->stable_cv);
	free(b->st);
	free(b->inflight);
	free(b);
}

static bool
rdb_is_owner(const RdbBuffer *b)
{
	return b->owner;
}

static int
rdb_refresh(RdbBuffer *b, floe_error *err)
{
	char *msg = NULL;

	if (b->owner)
		return FLOE_OK;
	rocksdb_try_catch_up_with_primary(b->db, &msg);
	if (msg)
		return rdb_error(err, "catch up", msg);
	pthread_mutex_lock(&b->mu);
	(void)stats_rebuild(b, NULL);
	pthread_mutex_unlock(&b->mu);
	return FLOE_OK;
}

static int
not_owner(floe_error *err)
{
	return floe_errorf(err, ERRCODE_OBJECT_IN_USE,
			   "the insert buffer is owned by another floe process of this warehouse");
}

static int
rdb_append(RdbBuffer *b, const char *uuid, const char *label, uint64_t floor, const uint8_t *bytes,
	   size_t len, uint64_t *seq, floe_error *err)
{
	char key[KEY_LEN], *msg = NULL;
	char *val;
	int64_t t = now_ms();
	uint64_t s;
	size_t hdr;

	if (!b->owner)
		return not_owner(err);
	pthread_mutex_lock(&b->mu);
	/* above the table's recorded sequence (rows committed by another
	 * backend's flushes, whose counter is not this one) */
	if (floor != UINT64_MAX && floor >= atomic_load(&b->seq_next))
		atomic_store(&b->seq_next, floor + 1);
	s = atomic_fetch_add(&b->seq_next, 1);
	if (b->ninflight == b->capinflight) {
		b->capinflight = b->capinflight ? b->capinflight * 2 : 64;
		b->inflight = xrealloc(b->inflight, sizeof(uint64_t) * (size_t)b->capinflight);
	}
	b->inflight[b->ninflight++] = s;
	pthread_mutex_unlock(&b->mu);
	make_key(key, 'L', uuid, s);
	{
		size_t ll = strlen(label) > 255 ? 255 : strlen(label);
		uint16_t l16 = (uint16_t)ll;
		hdr = 10 + ll;
		val = xmalloc(len + hdr);
		memcpy(val, &t, 8);
		memcpy(val + 8, &l16, 2);
		memcpy(val + 10, label, ll);
		memcpy(val + hdr, bytes, len);
	}
	rocksdb_put(b->db, b->wsync, key, KEY_LEN, val, len + hdr, &msg);
	pthread_mutex_lock(&b->mu);
	{
		int i;
		for (i = 0; i < b->ninflight; i++)
			if (b->inflight[i] == s) {
				b->inflight[i] = b->inflight[--b->ninflight];
				break;
			}
	}
	pthread_cond_broadcast(&b->stable_cv);
	if (msg) {
		pthread_mutex_unlock(&b->mu);
		free(val);
		return rdb_error(err, "write", msg);
	}
	stat_add(b, 'L', uuid, s, val, len + hdr);
	/* acknowledged means visible to every reader: a read takes entries up
	 * to rdb_stable_seq, so wait until no append below s is in flight
	 * (the lower ones are in their own sync; nothing waits upward) */
	for (;;) {
		int i;
		bool lower = false;
		for (i = 0; i < b->ninflight; i++)
			if (b->inflight[i] < s)
				lower = true;
		if (!lower)
			break;
		pthread_cond_wait(&b->stable_cv, &b->mu);
	}
	pthread_mutex_unlock(&b->mu);
	free(val);
	*seq = s;
	return FLOE_OK;
}

static uint64_t
rdb_stable_seq(RdbBuffer *b)
{
	uint64_t s;
	int i;

	pthread_mutex_lock(&b->mu);
	s = atomic_load(&b->seq_next) - 1;
	for (i = 0; i < b->ninflight; i++)
		if (b->inflight[i] - 1 < s)
			s = b->inflight[i] - 1;
	pthread_mutex_unlock(&b->mu);
	return s;
}

static int
scan_kind(RdbBuffer *b, char kind, const char *uuid, uint64_t after, uint64_t upto,
	  ibuf_visit_fn visit, void *arg, floe_error *err)
{
	rocksdb_iterator_t *it;
	char lo[KEY_LEN];
	int rc = FLOE_OK;

	make_key(lo, kind, uuid, after + 1);
	it = rocksdb_create_iterator(b->db, b->ropts);
	for (rocksdb_iter_seek(it, lo, KEY_LEN); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
		size_t kl, vl;
		const char *key = rocksdb_iter_key(it, &kl), *v;
		if (kl != KEY_LEN || memcmp(key, lo, 1 + IBUF_UUID_LEN) || key_seq(key) > upto)
			break;
		v = rocksdb_iter_value(it, &vl);
		{
			uint16_t ll = 0;
			if (vl >= 10)
				memcpy(&ll, v + 8, 2);
			if (vl < 10 || vl < 10 + (size_t)ll) {
				rc = floe_errorf(err, ERRCODE_DATA_CORRUPTED, "corrupt insert buffer entry");
				break;
			}
			if ((rc = visit(arg, key_seq(key), (const uint8_t *)v + 10 + ll, vl - 10 - ll)) != FLOE_OK)
				break;
		}
	}
	if (rc == FLOE_OK) {
		char *msg = NULL;
		rocksdb_iter_get_error(it, &msg);
		if (msg)
			rc = rdb_error(err, "read", msg);
	}
	rocksdb_iter_destroy(it);
	return rc;
}

static int
rdb_scan(RdbBuffer *b, const char *uuid, uint64_t after, uint64_t upto, ibuf_visit_fn visit,
	  void *arg, floe_error *err)
{
	return scan_kind(b, 'L', uuid, after, upto, visit, arg, err);
}

static int
rdb_dead_scan(RdbBuffer *b, const char *uuid, ibuf_visit_fn visit, void *arg, floe_error *err)
{
	return scan_kind(b, 'D', uuid, 0, UINT64_MAX, visit, arg, err);
}

/* Write a batch synced, then rebuild uuid's statistics and wake waiters. */
static int
commit_batch(RdbBuffer *b, rocksdb_writebatch_t *wb, const char *uuid, floe_error *err)
{
	char *msg = NULL, hw[8];
	uint64_t top;
	int i;

	pthread_mutex_lock(&b->hw_mu);
	top = atomic_load(&b->seq_next) - 1;
	for (i = 0; i < 8; i++)
		hw[i] = (char)(top >> (56 - 8 * i));
	rocksdb_writebatch_put(wb, "S", 1, hw, 8);
	rocksdb_write(b->db, b->wsync, wb, &msg);
	pthread_mutex_unlock(&b->hw_mu);
	rocksdb_writebatch_destroy(wb);
	if (msg)
		return rdb_error(err, "write", msg);
	pthread_mutex_lock(&b->mu);
	(void)stats_rebuild(b, uuid);
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
	return FLOE_OK;
}

static int
rdb_discard(RdbBuffer *b, const char *uuid, uint64_t upto, floe_error *err)
{
	rocksdb_writebatch_t *wb;
	char lo[KEY_LEN], hi[KEY_LEN];

	if (!b->owner)
		return not_owner(err);
	make_key(lo, 'L', uuid, 0);
	make_key(hi, 'L', uuid, upto == UINT64_MAX ? upto : upto + 1);
	wb = rocksdb_writebatch_create();
	rocksdb_writebatch_delete_range(wb, lo, KEY_LEN, hi, KEY_LEN);
	if (upto == UINT64_MAX) {
		make_key(lo, 'L', uuid, UINT64_MAX);
		rocksdb_writebatch_delete(wb, lo, KEY_LEN);
	}
	return commit_batch(b, wb, uuid, err);
}

/* Move every entry of kind `from` of uuid to kind `to` in one batch. */
static int
move_all(RdbBuffer *b, const char *uuid, char from, char to, floe_error *err)
{
	rocksdb_writebatch_t *wb;
	rocksdb_iterator_t *it;
	char lo[KEY_LEN];

	if (!b->owner)
		return not_owner(err);
	wb = rocksdb_writebatch_create();
	make_key(lo, from, uuid, 0);
	it = rocksdb_create_iterator(b->db, b->ropts);
	for (rocksdb_iter_seek(it, lo, KEY_LEN); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
		size_t kl, vl;
		const char *key = rocksdb_iter_key(it, &kl), *v;
		char nk[KEY_LEN];
		if (kl != KEY_LEN || memcmp(key, lo, 1 + IBUF_UUID_LEN))
			break;
		v = rocksdb_iter_value(it, &vl);
		memcpy(nk, key, KEY_LEN);
		nk[0] = to;
		if (to != 0)
			rocksdb_writebatch_put(wb, nk, KEY_LEN, v, vl);
		rocksdb_writebatch_delete(wb, key, KEY_LEN);
	}
	rocksdb_iter_destroy(it);
	return commit_batch(b, wb, uuid, err);
}

static int
rdb_dead_letter(RdbBuffer *b, const char *uuid, floe_error *err)
{
	return move_all(b, uuid, 'L', 'D', err);
}

static int
rdb_dead_discard(RdbBuffer *b, const char *uuid, floe_error *err)
{
	return move_all(b, uuid, 'D', 0, err);
}

static int
rdb_dead_replay(RdbBuffer *b, const char *uuid, floe_error *err)
{
	IbufStat *s;

	pthread_mutex_lock(&b->mu);
	if ((s = stat_of(b, uuid, false)))
		s->flush_failures = 0;
	pthread_mutex_unlock(&b->mu);
	return move_all(b, uuid, 'D', 'L', err);
}

static void
rdb_stats(RdbBuffer *b, IbufStat **stats, int *n)
{
	pthread_mutex_lock(&b->mu);
	*n = b->nst;
	*stats = xmalloc(sizeof(IbufStat) * (size_t)(b->nst + 1));
	if (b->nst)
		memcpy(*stats, b->st, sizeof(IbufStat) * (size_t)b->nst);
	pthread_mutex_unlock(&b->mu);
}

static bool
rdb_table_stat(RdbBuffer *b, const char *uuid, IbufStat *out)
{
	IbufStat *s;
	bool found;

	pthread_mutex_lock(&b->mu);
	s = stat_of(b, uuid, false);
	found = s != NULL;
	if (s)
		*out = *s;
	else
		memset(out, 0, sizeof *out);
	pthread_mutex_unlock(&b->mu);
	return found;
}

static void
rdb_note_flush(RdbBuffer *b, const char *uuid, bool started, bool ok)
{
	IbufStat *s;

	pthread_mutex_lock(&b->mu);
	s = stat_of(b, uuid, true);
	if (started) {
		s->flushing = true;
	} else {
		s->flushing = false;
		s->flush_failures = ok ? 0 : s->flush_failures + 1;
	}
	pthread_mutex_unlock(&b->mu);
}

static int64_t
rdb_pending_bytes(RdbBuffer *b)
{
	int64_t n = 0;
	int i;

	pthread_mutex_lock(&b->mu);
	for (i = 0; i < b->nst; i++)
		n += b->st[i].pending_bytes;
	pthread_mutex_unlock(&b->mu);
	return n;
}

static bool
rdb_wait_bytes_below(RdbBuffer *b, int64_t limit, int64_t timeout_ms, volatile int *cancel)
{
	int64_t end = now_ms() + timeout_ms;
	bool ok = true;

	pthread_mutex_lock(&b->mu);
	for (;;) {
		int64_t n = 0, left;
		int i;
		struct timespec ts;
		for (i = 0; i < b->nst; i++)
			n += b->st[i].pending_bytes;
		if (n < limit)
			break;
		left = end - now_ms();
		if (left <= 0 || (cancel && *cancel)) {
			ok = false;
			break;
		}
		if (left > 100)
			left = 100;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += left * 1000000L;
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		(void)pthread_cond_timedwait(&b->cv, &b->mu, &ts);
	}
	pthread_mutex_unlock(&b->mu);
	return ok;
}

const IbufOps ibuf_rocksdb_ops = {
	.name = "rocksdb",
	.close = rdb_close,
	.is_owner = rdb_is_owner,
	.refresh = rdb_refresh,
	.append = rdb_append,
	.scan = rdb_scan,
	.stable_seq = rdb_stable_seq,
	.discard = rdb_discard,
	.dead_letter = rdb_dead_letter,
	.dead_scan = rdb_dead_scan,
	.dead_discard = rdb_dead_discard,
	.dead_replay = rdb_dead_replay,
	.stats = rdb_stats,
	.table_stat = rdb_table_stat,
	.note_flush = rdb_note_flush,
	.pending_bytes = rdb_pending_bytes,
	.wait_bytes_below = rdb_wait_bytes_below,
};

int
ibuf_rocksdb_open(IbufImpl **out, const char *dir, floe_error *err)
{
	return rdb_open(out, dir, err);
}
