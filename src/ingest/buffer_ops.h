/*
 * buffer_ops.h — the insert buffer's backends behind buffer.h: each is one
 * file defining its own struct IbufImpl and an ops table with buffer.h's
 * routines (same contracts, same arguments).  buffer.c dispatches.
 *
 * INTERFACE ROUTINES
 *   ibuf_rocksdb_open(&impl, dir, err)     buffer_rocksdb.c (ibuf_rocksdb_ops)
 *   ibuf_pg_open(&impl, conninfo, err)     buffer_pg.c (ibuf_pg_ops)
 */
#ifndef FLOE_INGEST_BUFFER_OPS_H
#define FLOE_INGEST_BUFFER_OPS_H

#include "ingest/buffer.h"

typedef struct IbufImpl IbufImpl;

typedef struct IbufOps {
	const char *name;          /* SHOW INSERT BUFFER STATUS's backend column */
	bool shared;               /* every node reads and writes the same entries */
	void (*close)(IbufImpl *b);
	bool (*is_owner)(const IbufImpl *b);
	int (*refresh)(IbufImpl *b, floe_error *err);
	int (*append)(IbufImpl *b, const char *uuid, const char *label, uint64_t floor,
		      const uint8_t *bytes, size_t len, uint64_t *seq, floe_error *err);
	int (*scan)(IbufImpl *b, const char *uuid, uint64_t after, uint64_t upto, ibuf_visit_fn visit,
		    void *arg, floe_error *err);
	uint64_t (*stable_seq)(IbufImpl *b);
	int (*discard)(IbufImpl *b, const char *uuid, uint64_t upto, floe_error *err);
	int (*dead_letter)(IbufImpl *b, const char *uuid, floe_error *err);
	int (*dead_scan)(IbufImpl *b, const char *uuid, ibuf_visit_fn visit, void *arg, floe_error *err);
	int (*dead_discard)(IbufImpl *b, const char *uuid, floe_error *err);
	int (*dead_replay)(IbufImpl *b, const char *uuid, floe_error *err);
	void (*stats)(IbufImpl *b, IbufStat **stats, int *n);
	bool (*table_stat)(IbufImpl *b, const char *uuid, IbufStat *out);
	void (*note_flush)(IbufImpl *b, const char *uuid, bool started, bool ok);
	int64_t (*pending_bytes)(IbufImpl *b);
	bool (*wait_bytes_below)(IbufImpl *b, int64_t limit, int64_t timeout_ms, volatile int *cancel);
	/* NULL: a flush is serialized by the caller's own lock alone */
	int (*flush_lock)(IbufImpl *b, const char *uuid, void **token, floe_error *err);
	void (*flush_unlock)(IbufImpl *b, const char *uuid, void *token);
} IbufOps;

extern const IbufOps ibuf_rocksdb_ops;
int ibuf_rocksdb_open(IbufImpl **out, const char *dir, floe_error *err);
extern const IbufOps ibuf_pg_ops;
int ibuf_pg_open(IbufImpl **out, const char *conninfo, floe_error *err);

#endif
