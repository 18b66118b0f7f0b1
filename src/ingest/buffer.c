/*
 * buffer.c — buffer.h's routines, dispatched to the buffer's backend
 * (buffer_ops.h): RocksDB in <warehouse>/ingest/ (buffer_rocksdb.c) or
 * the PostgreSQL catalog's database (buffer_pg.c).
 */
#include <stdlib.h>
#include "common/arena.h"
#include "ingest/buffer_ops.h"

struct IngestBuffer {
	const IbufOps *ops;
	IbufImpl *impl;
};

int
ibuf_open(IngestBuffer **out, const char *dir, floe_error *err)
{
	IbufImpl *impl;

	*out = NULL;
	TRY(ibuf_rocksdb_open(&impl, dir, err));
	*out = xcalloc(1, sizeof **out);
	(*out)->ops = &ibuf_rocksdb_ops;
	(*out)->impl = impl;
	return FLOE_OK;
}

int
ibuf_open_pg(IngestBuffer **out, const char *conninfo, floe_error *err)
{
	IbufImpl *impl;

	*out = NULL;
	TRY(ibuf_pg_open(&impl, conninfo, err));
	*out = xcalloc(1, sizeof **out);
	(*out)->ops = &ibuf_pg_ops;
	(*out)->impl = impl;
	return FLOE_OK;
}

const char *
ibuf_backend(const IngestBuffer *b)
{
	return b->ops->name;
}

bool
ibuf_shared(const IngestBuffer *b)
{
	return b->ops->shared;
}

int
ibuf_flush_lock(IngestBuffer *b, const char *uuid, void **token, floe_error *err)
{
	*token = NULL;
	return b->ops->flush_lock ? b->ops->flush_lock(b->impl, uuid, token, err) : FLOE_OK;
}

void
ibuf_flush_unlock(IngestBuffer *b, const char *uuid, void *token)
{
	if (b->ops->flush_unlock)
		b->ops->flush_unlock(b->impl, uuid, token);
}

void
ibuf_close(IngestBuffer *b)
{
	if (!b)
		return;
	b->ops->close(b->impl);
	free(b);
}

bool
ibuf_is_owner(const IngestBuffer *b)
{
	return b->ops->is_owner(b->impl);
}

int
ibuf_refresh(IngestBuffer *b, floe_error *err)
{
	return b->ops->refresh(b->impl, err);
}

int
ibuf_append(IngestBuffer *b, const char *uuid, const char *label, uint64_t floor, const uint8_t *bytes,
	    size_t len, uint64_t *seq, floe_error *err)
{
	return b->ops->append(b->impl, uuid, label, floor, bytes, len, seq, err);
}

int
ibuf_scan(IngestBuffer *b, const char *uuid, uint64_t after, uint64_t upto, ibuf_visit_fn visit,
	  void *arg, floe_error *err)
{
	return b->ops->scan(b->impl, uuid, after, upto, visit, arg, err);
}

uint64_t
ibuf_stable_seq(IngestBuffer *b)
{
	return b->ops->stable_seq(b->impl);
}

int
ibuf_discard(IngestBuffer *b, const char *uuid, uint64_t upto, floe_error *err)
{
	return b->ops->discard(b->impl, uuid, upto, err);
}

int
ibuf_dead_letter(IngestBuffer *b, const char *uuid, floe_error *err)
{
	return b->ops->dead_letter(b->impl, uuid, err);
}

int
ibuf_dead_scan(IngestBuffer *b, const char *uuid, ibuf_visit_fn visit, void *arg, floe_error *err)
{
	return b->ops->dead_scan(b->impl, uuid, visit, arg, err);
}

int
ibuf_dead_discard(IngestBuffer *b, const char *uuid, floe_error *err)
{
	return b->ops->dead_discard(b->impl, uuid, err);
}

int
ibuf_dead_replay(IngestBuffer *b, const char *uuid, floe_error *err)
{
	return b->ops->dead_replay(b->impl, uuid, err);
}

void
ibuf_stats(IngestBuffer *b, IbufStat **stats, int *n)
{
	b->ops->stats(b->impl, stats, n);
}

bool
ibuf_table_stat(IngestBuffer *b, const char *uuid, IbufStat *out)
{
	return b->ops->table_stat(b->impl, uuid, out);
}

void
ibuf_note_flush(IngestBuffer *b, const char *uuid, bool started, bool ok)
{
	b->ops->note_flush(b->impl, uuid, started, ok);
}

int64_t
ibuf_pending_bytes(IngestBuffer *b)
{
	return b->ops->pending_bytes(b->impl);
}

bool
ibuf_wait_bytes_below(IngestBuffer *b, int64_t limit, int64_t timeout_ms, volatile int *cancel)
{
	return b->ops->wait_bytes_below(b->impl, limit, timeout_ms, cancel);
}
