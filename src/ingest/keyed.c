/*
 * keyed.c — the two key checks of keyindex.c's design, over tables: a
 * buffered INSERT's (keyed_begin / keyed_end around its durable append)
 * and a direct-path commit's against the buffered keys (keyed_guard /
 * keyed_guard_release around its catalog swap).  The design, and why it
 * is exact, is at the top of keyindex.c.
 *
 * INTERFACE ROUTINES (keyed.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"
#include "ingest/keyed.h"
#include "ingest/rowcodec.h"
#include "sql/engine.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/text.h"

/* The key columns of sc: field index (pk) and id / type of each. */
static bool
key_cols(const IcebergSchema *sc, Arena *a, int **pk, int32_t **ids, SqlType **types)
{
	int i, c, n = 0;

	if (sc->nidentifier == 0)
		return false;
	*pk = ARENA_ARRAY(a, int, sc->nidentifier);
	*ids = ARENA_ARRAY(a, int32_t, sc->nidentifier);
	*types = ARENA_ARRAY(a, SqlType, sc->nidentifier);
	for (i = 0; i < sc->nidentifier; i++)
		for (c = 0; c < sc->nfields; c++)
			if (sc->fields[c].id == sc->identifier_field_ids[i] && !sc->fields[c].nested) {
				(*pk)[n] = c;
				(*ids)[n] = sc->fields[c].id;
				(*types)[n] = sc->fields[c].type;
				n++;
			}
	return n == sc->nidentifier;
}

/* 23505 (or 40001: retry) naming row `row` of b's key columns cols. */
static int
violation(const IcebergSchema *sc, const int *pk, const char *table, const Batch *b, const int *cols,
	  uint32_t row, bool retry, Arena *a, floe_error *err)
{
	char names[600], vals[600];
	size_t un = 0, uv = 0;
	int k;

	names[0] = vals[0] = '\0';
	for (k = 0; k < sc->nidentifier && un < sizeof names - 8 && uv < sizeof vals - 8; k++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[cols[k]], row, a, &len);
		un += (size_t)snprintf(names + un, sizeof names - un, "%s%s", k ? ", " : "",
				       sc->fields[pk[k]].name);
		uv += (size_t)snprintf(vals + uv, sizeof vals - uv, "%s%.*s", k ? ", " : "",
				       t ? (int)(len > 200 ? 200 : len) : 4, t ? t : "null");
	}
	if (retry) {
		floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			    "could not serialize access due to concurrent update");
		floe_error_detail(err, "Key (%s)=(%s) of table \"%s\" was written by a concurrent "
				  "transaction.", names, vals, table);
		return floe_error_hint(err, "The transaction might succeed if retried.");
	}
	floe_errorf(err, ERRCODE_UNIQUE_VIOLATION, "duplicate key value violates unique constraint \"%s_pkey\"",
		    table);
	return floe_error_detail(err, "Key (%s)=(%s) already exists.", names, vals);
}

/* Probe set with the keys of the live rows of files (the key columns pk of
 * sc); the first one found is a violation (set's sequences above `above`
 * only, when set holds sequences). */
static int
probe_files(ExecCtx *ctx, const IcebergSchema *sc, const int *pk, const TableMetadata *md,
	    const char *table, DataFile *files, int n, const KSet *set, uint64_t above, bool retry)
{
	int npk = sc->nidentifier, i, *cols = ARENA_ARRAY(ctx->arena, int, npk);
	DataFile *df = ARENA_ARRAY(ctx->arena, DataFile, n + 1);
	int nd = 0, rc = FLOE_OK;
	uint8_t *buf = NULL;
	size_t cap = 0;
	Operator *op;
	Batch *b;

	for (i = 0; i < n; i++)
		if (files[i].content == CONTENT_DATA)
			df[nd++] = files[i];
	if (nd == 0)
		return FLOE_OK;
	for (i = 0; i < npk; i++)
		cols[i] = i;
	op = scan_new(ctx, sc, npk, pk, df, nd, false, md);
	if (op_open(op) != FLOE_OK) {
		op_close(op);
		return FLOE_ERR;
	}
	while (rc == FLOE_OK) {
		uint32_t r;
		if ((rc = exec_check_cancel(ctx)) != FLOE_OK || (rc = op_next(op, &b)) != FLOE_OK || !b)
			break;
		batch_compact(b);
		for (r = 0; r < b->count && rc == FLOE_OK; r++) {
			uint32_t len = keyidx_encode(b, cols, npk, r, &buf, &cap);
			uint64_t seq;
			if (kset_find(set, buf, len, &seq) && seq > above)
				rc = violation(sc, pk, table, b, cols, r, retry, ctx->arena, ctx->err);
		}
	}
	op_close(op);
	free(buf);
	return rc;
}

/* ---- the keys of the log's entries ---------------------------------------- */

typedef struct LogKeys {
	Arena *a;
	KSet *set;
	int npk;
	int32_t *ids;
	SqlType *types;
	uint64_t above;            /* entries above this sequence only */
	floe_error *err;
} LogKeys;

static int
log_visit(void *arg, uint64_t seq, const uint8_t *bytes, size_t len)
{
	LogKeys *lk = arg;
	RowEntry e;
	Batch **bs;
	int nb, i, *cols;
	uint8_t *buf = NULL;
	size_t cap = 0;

	if (seq <= lk->above)
		return FLOE_OK;
	TRY(rowcodec_decode(bytes, len, lk->a, &e, lk->err));
	TRY(rowcodec_batches(&e, lk->a, lk->npk, lk->ids, lk->types, &bs, &nb, lk->err));
	cols = ARENA_ARRAY(lk->a, int, lk->npk);
	for (i = 0; i < lk->npk; i++)
		cols[i] = i;
	for (i = 0; i < nb; i++) {
		uint32_t r;
		batch_compact(bs[i]);
		for (r = 0; r < bs[i]->count; r++) {
			uint32_t kl = keyidx_encode(bs[i], cols, lk->npk, r, &buf, &cap);
			kset_add(lk->set, buf, kl, seq);
		}
	}
	free(buf);
	return FLOE_OK;
}

typedef struct LoadArg {
	IngestBuffer *b;
	const char *uuid;
	LogKeys lk;
} LoadArg;

/* keyidx_load_fn: every live entry's keys */
static int
load_index(void *arg, KSet *set, floe_error *err)
{
	LoadArg *la = arg;

	la->lk.set = set;
	la->lk.err = err;
	return ibuf_scan(la->b, la->uuid, 0, UINT64_MAX, log_visit, &la->lk, err);
}

/* ---- a buffered INSERT ------------------------------------------------------ */

int
keyed_begin(KeyedTurn *kt, KeyIdx *x, IngestBuffer *b, const char *lockdir, Session *s,
	    ExecCtx *ctx, Table *t, Batch **bs, int nb)
{
	Arena *a = ctx->arena;
	const IcebergSchema *sc = metadata_current_schema(t->md);
	int *pk, i, n = 0, total = 0, clash = -1, rc;
	int32_t *ids;
	SqlType *types;
	uint8_t **keys, *buf = NULL;
	uint32_t *lens, r;
	size_t cap = 0;
	int *kb, *krow;
	KSet *mine;
	LoadArg la;
	Table *head;
	DataFile *files;
	int nfiles;

	kt->fd = -1;
	kt->res = NULL;
	kt->x = x;
	if (!key_cols(sc, a, &pk, &ids, &types))
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "a nested PRIMARY KEY column is not supported by the insert buffer");
	for (i = 0; i < nb; i++)
		total += (int)bs[i]->count;
	keys = ARENA_ARRAY(a, uint8_t *, total + 1);
	lens = ARENA_ARRAY(a, uint32_t, total + 1);
	kb = ARENA_ARRAY(a, int, total + 1);
	krow = ARENA_ARRAY(a, int, total + 1);
	/* a: its keys are distinct */
	mine = kset_new();
	for (i = 0; i < nb; i++) {
		batch_compact(bs[i]);
		for (r = 0; r < bs[i]->count; r++) {
			uint32_t len = keyidx_encode(bs[i], pk, sc->nidentifier, r, &buf, &cap);
			if (kset_find(mine, buf, len, NULL)) {
				free(buf);
				kset_free(mine);
				return violation(sc, pk, t->name, bs[i], pk, r, false, a, ctx->err);
			}
			kset_add(mine, buf, len, 1);
			keys[n] = arena_memdup(a, buf, len ? len : 1);
			lens[n] = len;
			kb[n] = i;
			krow[n] = (int)r;
			n++;
		}
	}
	free(buf);
	rc = keylock_take(lockdir, t->md->table_uuid, false, s->cancel_flag, &kt->fd, ctx->err);
	/* b: none is buffered; all of them reserved */
	memset(&la, 0, sizeof la);
	la.b = b;
	la.uuid = t->md->table_uuid;
	la.lk.a = a;
	la.lk.npk = sc->nidentifier;
	la.lk.ids = ids;
	la.lk.types = types;
	if (rc == FLOE_OK) {
		rc = keyidx_reserve(x, t->md->table_uuid, load_index, &la, keys, lens, n, s->cancel_flag,
				    &kt->res, &clash, ctx->err);
		if (rc != FLOE_OK && clash >= 0)
			rc = violation(sc, pk, t->name, bs[kb[clash]], pk, (uint32_t)krow[clash], false, a,
				       ctx->err);
	}
	/* c: the head, loaded now, has none of them */
	if (rc == FLOE_OK)
		rc = table_load(s->engine->catalog, s->engine->io, t->ns, t->name, a, &head, ctx->err);
	if (rc == FLOE_OK && (!head->md->table_uuid || strcmp(head->md->table_uuid, t->md->table_uuid)))
		rc = floe_errorf(ctx->err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				 "relation \"%s\" was replaced while the INSERT ran", t->name);
	if (rc == FLOE_OK && (rc = table_scan_files(s->engine->io, head, -1, a, &files, &nfiles, ctx->err)) == FLOE_OK) {
		const IcebergSchema *hs = metadata_current_schema(head->md);
		int *hpk;
		int32_t *hids;
		SqlType *htypes;
		if (!key_cols(hs, a, &hpk, &hids, &htypes) || hs->nidentifier != sc->nidentifier ||
		    memcmp(hids, ids, sizeof(int32_t) * (size_t)sc->nidentifier) != 0)
			rc = floe_errorf(ctx->err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					 "the PRIMARY KEY of \"%s\" changed while the INSERT ran", t->name);
		else
			rc = probe_files(ctx, hs, hpk, head->md, t->name, files, nfiles, mine, 0, false);
	}
	kset_free(mine);
	if (rc != FLOE_OK)
		keyed_end(kt, 0);
	return rc;
}

void
keyed_end(KeyedTurn *kt, uint64_t seq)
{
	keyidx_settle(kt->x, kt->res, seq);
	kt->res = NULL;
	keylock_release(kt->fd);
	kt->fd = -1;
}

/* ---- a direct-path commit ------------------------------------------------------ */

struct KeyGuard {
	int *fds;
	int n, cap;
};

int
keyed_guard(KeyGuard **g, IngestBuffer *b, const char *lockdir, Session *s, const Table *base,
	    const DataFile *add, int nadd, bool rewrites, bool retry, floe_error *err)
{
	const IcebergSchema *sc = metadata_current_schema(base->md);
	Arena *a;
	int *pk, i, nd = 0, fd, rc = FLOE_OK;
	int32_t *ids;
	SqlType *types;
	ExecCtx ctx;
	LogKeys lk;

	for (i = 0; i < nadd; i++)
		nd += add[i].content == CONTENT_DATA;
	if (!sc || sc->nidentifier == 0 || nd == 0 || !base->md->table_uuid ||
	    strlen(base->md->table_uuid) != IBUF_UUID_LEN)
		return FLOE_OK;
	a = arena_new(64 * 1024);
	if (!key_cols(sc, a, &pk, &ids, &types)) {
		arena_free(a);
		return FLOE_OK;          /* never buffered */
	}
	if (keylock_take(lockdir, base->md->table_uuid, true, s->cancel_flag, &fd, err) != FLOE_OK) {
		arena_free(a);
		return FLOE_ERR;
	}
	if (!*g)
		*g = xcalloc(1, sizeof **g);
	if ((*g)->n == (*g)->cap) {
		(*g)->cap = (*g)->cap ? (*g)->cap * 2 : 4;
		(*g)->fds = xrealloc((*g)->fds, sizeof(int) * (size_t)(*g)->cap);
	}
	(*g)->fds[(*g)->n++] = fd;
	if (!b) {
		arena_free(a);
		return FLOE_OK;          /* no buffer: nothing buffered */
	}
	memset(&lk, 0, sizeof lk);
	lk.a = a;
	lk.set = kset_new();
	lk.npk = sc->nidentifier;
	lk.ids = ids;
	lk.types = types;
	lk.above = table_ingest_seq(base->md);
	lk.err = err;
	if (!ibuf_is_owner(b))
		rc = ibuf_refresh(b, err);
	if (rc == FLOE_OK)
		rc = ibuf_scan(b, base->md->table_uuid, lk.above, UINT64_MAX, log_visit, &lk, err);
	if (rc == FLOE_OK && kset_count(lk.set) > 0) {
		memset(&ctx, 0, sizeof ctx);
		ctx.arena = a;
		ctx.io = s->engine->io;
		ctx.err = err;
		ctx.cancel = s->cancel_flag;
		ctx.threads = 1;
		ctx.mem_limit = exec_mem_limit(NULL);
		rc = probe_files(&ctx, sc, pk, base->md, base->name, (DataFile *)add, nadd, lk.set, 0,
				 retry || rewrites);
	}
	kset_free(lk.set);
	arena_free(a);
	return rc;
}

void
keyed_guard_release(KeyGuard *g)
{
	int i;

	if (!g)
		return;
	for (i = 0; i < g->n; i++)
		keylock_release(g->fds[i]);
	free(g->fds);
	free(g);
}
