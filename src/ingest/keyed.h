/*
 * keyed.h — PRIMARY KEY checks of the insert buffer over tables
 * (keyed.c; the design and its invariants at the top of keyindex.c).
 *
 * INTERFACE ROUTINES
 *   keyed_begin(&kt, idx, buf, lockdir, s, ctx, t, bs, nb)
 *        before a buffered INSERT's durable append of batches bs (one
 *        column per field of t's current schema): takes t's key lock
 *        shared, checks the rows' keys are distinct, reserves them in the
 *        owner's index (none buffered: waits for a racing reservation of
 *        the same key), checks t's head (loaded after the reservation) has
 *        none of them: FLOE_OK, or 23505 (everything released)
 *   keyed_end(&kt, seq)             after the append: durable at seq, or
 *                                   0 (it failed: the keys leave the index);
 *                                   releases the lock
 *   keyed_guard(&g, buf, lockdir, s, base, add, nadd, rewrites, retry, err)
 *        before a direct-path commit of a change computed on base that adds
 *        files add[0..nadd) (no-op without a PRIMARY KEY or data files):
 *        takes the table's key lock exclusively (into *g, NULL at first),
 *        then 23505 when an added row's key is buffered above base's
 *        recorded sequence (buf NULL: nothing is); 40001 instead when
 *        retry (ON CONFLICT) or rewrites (the change removes files)
 *   keyed_guard_release(g)          after the swap; NULL is fine
 */
#ifndef FLOE_INGEST_KEYED_H
#define FLOE_INGEST_KEYED_H

#include "ingest/buffer.h"
#include "ingest/keyindex.h"
#include "sql/bind.h"

struct Table;
struct DataFile;

typedef struct KeyedTurn {
	KeyIdx *x;
	KeyRes *res;
	int fd;
} KeyedTurn;

typedef struct KeyGuard KeyGuard;

int keyed_begin(KeyedTurn *kt, KeyIdx *x, IngestBuffer *b, const char *lockdir, Session *s,
		ExecCtx *ctx, struct Table *t, Batch **bs, int nb);
void keyed_end(KeyedTurn *kt, uint64_t seq);
int keyed_guard(KeyGuard **g, IngestBuffer *b, const char *lockdir, Session *s,
		const struct Table *base, const struct DataFile *add, int nadd, bool rewrites,
		bool retry, floe_error *err);
void keyed_guard_release(KeyGuard *g);

#endif
