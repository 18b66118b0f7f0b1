/*
 * keyindex.c — PRIMARY KEY uniqueness for buffered INSERTs (keyindex.h,
 * docs/ingest.md "Tables with a PRIMARY KEY").
 *
 * DESIGN.  A buffered row is acknowledged before it is committed to
 * Iceberg, so the direct path's key check (the rows of the table's
 * snapshot, then keycheck_rebase against what commits meanwhile) cannot
 * see it, and a buffered row's check cannot see a direct-path commit that
 * has not landed yet.  Three things close both gaps for a table T with a
 * PRIMARY KEY (RocksDB backend; the process that owns the buffer is the
 * only one that buffers):
 *
 *   1. The key index (KeyIdx, the owner's memory): every key of T's live
 *      buffered entries, with the entry's sequence, or PENDING while its
 *      INSERT is between its check and its durable append.  Built from
 *      the log at T's first keyed INSERT (an earlier process's entries),
 *      kept by the appends (keyidx_reserve / keyidx_settle) and the flush
 *      (keyidx_drop after the log's discard: a flushed key stays in the
 *      index until it is in the table).
 *   2. The key lock of T (keylock_take: an OFD lock on
 *      <warehouse>/ingest-keylocks/<uuid>, so it also orders other floe
 *      processes on the warehouse): SHARED by a buffered INSERT from
 *      before its reservation to after its durable append, EXCLUSIVE by
 *      a direct-path commit that adds data files to T (autocommit
 *      txn_commit, a block's COMMIT) from its check of the buffered keys
 *      to the end of its catalog swap.  Buffered INSERTs do not wait for
 *      each other; a direct commit waits for the ones in flight, and new
 *      ones wait for it (the gate byte: no starvation).
 *   3. Two checks:
 *      buffered INSERT (ingest.c keyed_append), under the shared lock:
 *        a. its keys are distinct (23505 as the direct path);
 *        b. keyidx_reserve: none of its keys is in T's index (23505), or
 *           pending in another reservation (it waits for that one to
 *           settle, then decides again: exactly one of two racing
 *           INSERTs of a key wins, the other gets 23505); then all its
 *           keys go in as PENDING, atomically under the index's mutex;
 *        c. T's head, loaded after b: no live row has one of its keys;
 *        d. the durable append; keyidx_settle(seq) (on any failure:
 *           settle(0), the keys leave the index).
 *      direct-path commit (ingest_key_guard), under the exclusive lock:
 *        the keys of the data files it adds against the keys of T's live
 *        log entries above the recorded sequence of the snapshot it was
 *        computed on (read from the log itself: a reader process sees
 *        the owner's entries after ibuf_refresh; every entry whose INSERT
 *        passed its check is durable, the shared lock covers the append):
 *        23505, or 40001 when the statement decides per row (ON CONFLICT)
 *        or rewrote rows (it removes files: the clash is with rows it
 *        read, its re-run decides).  The flush's own commit is exempt.
 *
 * Why nothing acknowledged is lost or duplicated:
 *   - buffered vs buffered: b is atomic in the owner, the only appender.
 *   - buffered B vs direct D of key K: B's window [b, d] and D's
 *     [check, swap] exclude each other.  D first: D landed before B's c,
 *     which loads the head after taking the lock, so c sees K.  B first:
 *     B's entry is durable before D's check, which reads the log.
 *   - buffered vs a flush: a flushed key leaves the index only after its
 *     commit landed; b checks the index before c loads the head, so one
 *     of the two sees K.  A direct commit that reads the log after the
 *     discard re-bases over the flush commit (keycheck_rebase: 23505) or
 *     was computed on it (its statement's own check saw K); keys at or
 *     below its snapshot's recorded sequence are in that snapshot and are
 *     the statement's business, not the buffer's.
 *   - the flush never commits a duplicate: its rows passed b and c, and
 *     write_rows checks them again against the table (a clash fails the
 *     flush; it never lands).
 *   - kill -9: the index is memory and is rebuilt from the log; the lock
 *     is released with the process's file descriptions.
 *
 * Not covered here: the postgres backend (every node appends; keyed tables
 * are not buffered there) and nodes with a buffer each (an S3 warehouse
 * with FLOE_INSERT_BUFFER_BACKEND=rocksdb): ingest.c keeps keyed tables on
 * the direct path in both.  Commits by other engines are not checked.
 *
 * The postgres backend's version (designed, not built): a table
 * floe_insert_buffer_keys (table_uuid, key bytea, seq, PRIMARY KEY
 * (table_uuid, key)) is the index, and a transaction-level advisory lock
 * per table is the key lock.  A keyed append is one PostgreSQL
 * transaction of its own (not the group-commit batch): advisory lock
 * shared; INSERT its keys (PostgreSQL's unique index makes a racing
 * INSERT of the key on any node wait for this transaction, then fail: one
 * wins); the table's head loaded and checked; the entry under the
 * table's sequence row lock; COMMIT = acknowledged.  A direct-path commit:
 * BEGIN, advisory lock exclusive (waits for every node's appends in
 * flight), SELECT its added keys among the table's key rows above its
 * snapshot's recorded sequence, the catalog swap, COMMIT.  The flush
 * deletes the key rows with the entries, in the discard's transaction.
 * A node that dies holding either lock loses its session and the lock.
 *
 * Threads: KeyIdx is under its mutex (waiters on its condition variable);
 * a KSet is its owner's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "common/arena.h"
#include "ingest/keyindex.h"

#define PENDING UINT64_MAX

/* ---- key bytes ---------------------------------------------------------- */

uint32_t
keyidx_encode(const Batch *b, const int *cols, int n, uint32_t row, uint8_t **buf, size_t *cap)
{
	size_t len = 0;
	int k;

	for (k = 0; k < n; k++) {
		const Vector *v = &b->cols[cols[k]];
		VectorView vv;
		uint32_t x;
		size_t w = type_width(v->type.id), need;
		bool str = type_is_string(v->type.id);
		vector_view(v, &vv);
		x = vv.sel ? vv.sel[row] : row;
		need = 1 + (str ? 4 + ((const strview *)vv.data)[x].len : w);
		if (len + need > *cap) {
			*cap = *cap * 2 + need + 64;
			*buf = xrealloc(*buf, *cap);
		}
		if (!validity_get(vv.validity, x)) {
			(*buf)[len++] = 0;
			continue;
		}
		(*buf)[len++] = 1;
		if (str) {
			const strview *sv = &((const strview *)vv.data)[x];
			memcpy(*buf + len, &sv->len, 4);
			if (sv->len)
				memcpy(*buf + len + 4, strview_data(sv), sv->len);
			len += 4 + sv->len;
		} else {
			memcpy(*buf + len, (const char *)vv.data + (size_t)x * w, w);
			len += w;
		}
	}
	return (uint32_t)len;
}

/* ---- key sets ----------------------------------------------------------- */

typedef struct Ent {
	uint8_t *k;
	uint32_t len, hash;
	uint64_t seq;              /* PENDING: a reservation's */
	bool dead;                 /* settled as failed / dropped: skipped */
} Ent;

struct KSet {
	Ent **e;                   /* every entry, dead ones until a rebuild */
	int n, cap, ndead;
	int *slots;                /* open addressing into e, -1 empty */
	int nslots;
};

static uint32_t
hash_bytes(const uint8_t *p, uint32_t n)
{
	uint32_t h = 2166136261u, i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

KSet *
kset_new(void)
{
	return xcalloc(1, sizeof(KSet));
}

static void
ent_free(Ent *x)
{
	free(x->k);
	free(x);
}

void
kset_free(KSet *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		ent_free(s->e[i]);
	free(s->e);
	free(s->slots);
	free(s);
}

static void
rehash(KSet *s, int nslots)
{
	int i;

	free(s->slots);
	s->slots = xmalloc(sizeof(int) * (size_t)nslots);
	s->nslots = nslots;
	for (i = 0; i < nslots; i++)
		s->slots[i] = -1;
	for (i = 0; i < s->n; i++) {
		uint32_t j = s->e[i]->hash & (uint32_t)(nslots - 1);
		while (s->slots[j] >= 0)
			j = (j + 1) & (uint32_t)(nslots - 1);
		s->slots[j] = i;
	}
}

static Ent *
find_ent(const KSet *s, const uint8_t *k, uint32_t len)
{
	uint32_t h = hash_bytes(k, len), j;
	int i;

	if (s->nslots == 0)
		return NULL;
	for (j = h & (uint32_t)(s->nslots - 1); (i = s->slots[j]) >= 0; j = (j + 1) & (uint32_t)(s->nslots - 1)) {
		Ent *x = s->e[i];
		if (!x->dead && x->hash == h && x->len == len && !memcmp(x->k, k, len))
			return x;
	}
	return NULL;
}

bool
kset_find(const KSet *s, const uint8_t *k, uint32_t len, uint64_t *seq)
{
	Ent *x = find_ent(s, k, len);

	if (x && seq)
		*seq = x->seq;
	return x != NULL;
}

static Ent *
add_ent(KSet *s, Ent *x)
{
	uint32_t j;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->e = xrealloc(s->e, sizeof(Ent *) * (size_t)s->cap);
	}
	s->e[s->n++] = x;
	if (s->n * 2 > s->nslots) {
		rehash(s, s->nslots ? s->nslots * 2 : 128);
		return x;
	}
	for (j = x->hash & (uint32_t)(s->nslots - 1); s->slots[j] >= 0; j = (j + 1) & (uint32_t)(s->nslots - 1))
		;
	s->slots[j] = s->n - 1;
	return x;
}

static Ent *
new_ent(const uint8_t *k, uint32_t len, uint64_t seq)
{
	Ent *x = xcalloc(1, sizeof *x);

	x->k = xmalloc(len ? len : 1);
	memcpy(x->k, k, len);
	x->len = len;
	x->hash = hash_bytes(k, len);
	x->seq = seq;
	return x;
}

int
kset_count(const KSet *s)
{
	return s->n - s->ndead;
}

void
kset_add(KSet *s, const uint8_t *k, uint32_t len, uint64_t seq)
{
	add_ent(s, new_ent(k, len, seq));
}

/* Keep the entries keep() says, free the others (never a pending one). */
static void
compact(KSet *s, bool (*keep)(const Ent *, uint64_t), uint64_t arg)
{
	int i, k = 0;

	for (i = 0; i < s->n; i++) {
		Ent *x = s->e[i];
		if (x->seq == PENDING || (!x->dead && keep(x, arg)))
			s->e[k++] = x;
		else
			ent_free(x);
	}
	s->n = k;
	s->ndead = 0;
	rehash(s, s->nslots ? s->nslots : 128);
	while (s->n * 2 > s->nslots)
		rehash(s, s->nslots * 2);
}

/* ---- the owner's index -------------------------------------------------- */

typedef struct TableKeys {
	char uuid[64];
	KSet *set;
	bool built;                /* loaded from the log (false: at next use) */
} TableKeys;

struct KeyIdx {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	TableKeys **t;
	int n, cap;
};

struct KeyRes {
	TableKeys *tk;
	Ent **ents;
	int n;
};

KeyIdx *
keyidx_new(void)
{
	KeyIdx *x = xcalloc(1, sizeof *x);

	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv, NULL);
	return x;
}

void
keyidx_free(KeyIdx *x)
{
	int i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++) {
		kset_free(x->t[i]->set);
		free(x->t[i]);
	}
	free(x->t);
	pthread_cond_destroy(&x->cv);
	pthread_mutex_destroy(&x->mu);
	free(x);
}

static TableKeys *
table_keys(KeyIdx *x, const char *uuid, bool create)
{
	int i;

	for (i = 0; i < x->n; i++)
		if (!strcmp(x->t[i]->uuid, uuid))
			return x->t[i];
	if (!create)
		return NULL;
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 16;
		x->t = xrealloc(x->t, sizeof(TableKeys *) * (size_t)x->cap);
	}
	x->t[x->n] = xcalloc(1, sizeof(TableKeys));
	snprintf(x->t[x->n]->uuid, sizeof x->t[x->n]->uuid, "%s", uuid);
	x->t[x->n]->set = kset_new();
	return x->t[x->n++];
}

static bool
keep_none(const Ent *e, uint64_t arg)
{
	(void)e;
	(void)arg;
	return false;
}

static bool
keep_above(const Ent *e, uint64_t upto)
{
	return e->seq > upto;
}

int
keyidx_reserve(KeyIdx *x, const char *uuid, keyidx_load_fn load, void *arg, uint8_t *const *keys,
	       const uint32_t *lens, int n, volatile int *cancel, KeyRes **res, int *clash,
	       floe_error *err)
{
	TableKeys *tk;
	int i;

	*res = NULL;
	*clash = -1;
	pthread_mutex_lock(&x->mu);
	tk = table_keys(x, uuid, true);
	if (!tk->built) {
		int rc;
		compact(tk->set, keep_none, 0);     /* pending reservations stay */
		if ((rc = load(arg, tk->set, err)) != FLOE_OK) {
			compact(tk->set, keep_none, 0);
			pthread_mutex_unlock(&x->mu);
			return rc;
		}
		tk->built = true;
	}
	for (;;) {
		bool wait = false;
		for (i = 0; i < n; i++) {
			uint64_t seq;
			if (!kset_find(tk->set, keys[i], lens[i], &seq))
				continue;
			if (seq != PENDING) {
				*clash = i;
				pthread_mutex_unlock(&x->mu);
				return FLOE_ERR;
			}
			wait = true;
		}
		if (!wait)
			break;
		if (cancel && *cancel) {
			pthread_mutex_unlock(&x->mu);
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		}
		{
			/* another INSERT of one of the keys is deciding: its
			 * outcome decides ours */
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 50 * 1000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&x->cv, &x->mu, &ts);
		}
		if (!tk->built) {       /* forgotten meanwhile: decide on a rebuilt index */
			pthread_mutex_unlock(&x->mu);
			return keyidx_reserve(x, uuid, load, arg, keys, lens, n, cancel, res, clash, err);
		}
	}
	*res = xcalloc(1, sizeof **res);
	(*res)->tk = tk;
	(*res)->ents = xmalloc(sizeof(Ent *) * (size_t)(n ? n : 1));
	(*res)->n = n;
	for (i = 0; i < n; i++)
		(*res)->ents[i] = add_ent(tk->set, new_ent(keys[i], lens[i], PENDING));
	pthread_mutex_unlock(&x->mu);
	return FLOE_OK;
}

void
keyidx_settle(KeyIdx *x, KeyRes *res, uint64_t seq)
{
	int i;

	if (!res)
		return;
	pthread_mutex_lock(&x->mu);
	for (i = 0; i < res->n; i++) {
		res->ents[i]->seq = seq ? seq : 0;
		if (!seq) {
			res->ents[i]->dead = true;
			res->tk->set->ndead++;
		}
	}
	if (res->tk->set->ndead > 1024 && res->tk->set->ndead * 2 > res->tk->set->n)
		compact(res->tk->set, keep_above, 0);
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	free(res->ents);
	free(res);
}

void
keyidx_drop(KeyIdx *x, const char *uuid, uint64_t upto)
{
	TableKeys *tk;

	pthread_mutex_lock(&x->mu);
	if ((tk = table_keys(x, uuid, false)) && tk->built)
		compact(tk->set, keep_above, upto);
	pthread_mutex_unlock(&x->mu);
}

void
keyidx_forget(KeyIdx *x, const char *uuid)
{
	TableKeys *tk;

	pthread_mutex_lock(&x->mu);
	if ((tk = table_keys(x, uuid, false)))
		tk->built = false;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
}

/* ---- the key lock --------------------------------------------------------
 * Byte 0 of the lock file is the gate, byte 1 the lock.  Shared: gate
 * shared, lock shared, gate released.  Exclusive: gate exclusive (new
 * shared takers wait), then lock exclusive (the shared holders in flight
 * finish), both held.  Non-blocking tries every 200 us, so a cancel ends
 * the wait; closing the descriptor releases both. */
static int
try_lock(int fd, short type, off_t at)
{
	struct flock fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = at;
	fl.l_len = 1;
	return fcntl(fd, F_OFD_SETLK, &fl);
}

static int
wait_lock(int fd, short type, off_t at, volatile int *cancel, floe_error *err)
{
	while (try_lock(fd, type, at) != 0) {
		if (errno != EAGAIN && errno != EACCES && errno != EINTR)
			return floe_errorf(err, ERRCODE_IO_ERROR, "could not lock a key lock file: %s",
					   strerror(errno));
		if (cancel && *cancel)
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		usleep(200);
	}
	return FLOE_OK;
}

int
keylock_take(const char *dir, const char *uuid, bool exclusive, volatile int *cancel, int *fd,
	     floe_error *err)
{
	char path[4200];
	int f;

	*fd = -1;
	snprintf(path, sizeof path, "%s/%s", dir, uuid);
	if ((f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0 && errno == ENOENT) {
		(void)mkdir(dir, 0755);
		f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	}
	if (f < 0)
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not open key lock file \"%s\": %s", path,
				   strerror(errno));
	if (wait_lock(f, exclusive ? F_WRLCK : F_RDLCK, 0, cancel, err) != FLOE_OK ||
	    wait_lock(f, exclusive ? F_WRLCK : F_RDLCK, 1, cancel, err) != FLOE_OK) {
		close(f);
		return FLOE_ERR;
	}
	if (!exclusive)
		(void)try_lock(f, F_UNLCK, 0);
	*fd = f;
	return FLOE_OK;
}

void
keylock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
