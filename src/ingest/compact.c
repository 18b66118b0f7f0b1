/*
 * compact.c — bin-packing compaction of a table's small data files after
 * insert-buffer flushes (compact.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ingest/compact.h"
#include "sql/engine.h"
#include "sql/txn.h"
#include "table/data_writer.h"
#include "table/table.h"

/* Open transaction blocks holding a table (process-wide: several engines
 * of one process only make compaction wait more). */
static pthread_mutex_t block_mu = PTHREAD_MUTEX_INITIALIZER;
static int blocks_holding;

void
ingest_block_hold(Engine *e)
{
	(void)e;
	pthread_mutex_lock(&block_mu);   /* waits for a compaction commit in flight */
	blocks_holding++;
	pthread_mutex_unlock(&block_mu);
}

void
ingest_block_release(Engine *e)
{
	(void)e;
	pthread_mutex_lock(&block_mu);
	blocks_holding--;
	pthread_mutex_unlock(&block_mu);
}

static int
blocks_now(void)
{
	int n;

	pthread_mutex_lock(&block_mu);
	n = blocks_holding;
	pthread_mutex_unlock(&block_mu);
	return n;
}

static int
cmp_size_desc(const void *x, const void *y)
{
	const DataFile *a = *(const DataFile *const *)x, *b = *(const DataFile *const *)y;

	return (a->file_size_in_bytes < b->file_size_in_bytes) - (a->file_size_in_bytes > b->file_size_in_bytes);
}

static int64_t
target_size(const TableMetadata *md)
{
	const char *v = metadata_property(md, "write.target-file-size-bytes");
	char *end;
	long long x;

	if (!v)
		return DATA_WRITER_DEFAULT_TARGET;
	x = strtoll(v, &end, 10);
	return end == v || *end || x <= 0 ? DATA_WRITER_DEFAULT_TARGET : x;
}

int
compact_table(Session *fs, const char *ns, const char *name, int min_files, CompactStats *st,
	      floe_error *err)
{
	Engine *e = fs->engine;
	Arena *a = arena_new(1 << 20);
	ExecCtx ctx;
	WriteTurn *turn = NULL;
	Table *t, *out;
	DataFile *files, **cand, **bin;
	RewriteSet rs;
	const IcebergSchema *sc;
	int nfiles, i, j, k, ncand, rc = FLOE_OK;
	int64_t target, small;
	bool *done;
	char key[512], job[64];
	TableChange ch;

	memset(st, 0, sizeof *st);
	memset(&rs, 0, sizeof rs);
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = a;
	ctx.io = e->io;
	ctx.err = err;
	ctx.cancel = fs->cancel_flag;
	ctx.mem_limit = exec_mem_limit(NULL);
	ctx.threads = 1;
	if (min_files <= 0 || blocks_now() > 0) {
		st->gave_up = min_files > 0;
		goto out;
	}
	snprintf(key, sizeof key, "%s.%s", ns, name);
	if ((rc = engine_write_turn_take(fs, key, &turn, err)) != FLOE_OK)
		goto out;
	if ((rc = table_load(e->catalog, e->io, ns, name, a, &t, err)) != FLOE_OK)
		goto out;
	sc = metadata_current_schema(t->md);
	for (i = 0; i < sc->nfields; i++)
		if (sc->fields[i].nested)
			goto out;
	if (sc->nidentifier > 0)
		goto out;                /* never buffered */
	target = target_size(t->md);
	small = target / 4 * 3;
	if ((rc = table_scan_files(e->io, t, -1, a, &files, &nfiles, err)) != FLOE_OK)
		goto out;
	cand = ARENA_ARRAY(a, DataFile *, nfiles + 1);
	bin = ARENA_ARRAY(a, DataFile *, nfiles + 1);
	done = ARENA_ARRAY(a, bool, nfiles + 1);
	rs.remove = ARENA_ARRAY(a, const char *, nfiles + 1);
	ncand = 0;
	for (i = 0; i < nfiles; i++)
		if (files[i].content == CONTENT_DATA && files[i].ndeletes == 0 &&
		    files[i].file_size_in_bytes < small)
			cand[ncand++] = &files[i];
	qsort(cand, (size_t)ncand, sizeof *cand, cmp_size_desc);
	/* one partition at a time (the first undone candidate's) */
	for (i = 0; i < ncand; i++) {
		int npart = 0;
		if (done[i])
			continue;
		for (j = i; j < ncand; j++)
			npart += !done[j] && optimize_same_partition(cand[i], cand[j]);
		if (npart < min_files) {
			for (j = i; j < ncand; j++)
				if (optimize_same_partition(cand[i], cand[j]))
					done[j] = true;
			continue;
		}
		/* first fit, largest first: a bin is the files that fit in target */
		for (;;) {
			int64_t used = 0;
			int nb = 0;
			DataFile *g;
			for (j = i; j < ncand; j++)
				if (!done[j] && optimize_same_partition(cand[i], cand[j]) &&
				    (nb == 0 || used + cand[j]->file_size_in_bytes <= target)) {
					bin[nb++] = cand[j];
					used += cand[j]->file_size_in_bytes;
					done[j] = true;
				}
			if (nb == 0)
				break;
			if (nb < 2)
				continue;        /* alone in its bin: nothing to gain */
			g = ARENA_ARRAY(a, DataFile, nb);
			for (k = 0; k < nb; k++)
				g[k] = *bin[k];
			if (optimize_rewrite_group(fs, &ctx, t, g, nb, &rs) != FLOE_OK)
				goto give_up;
		}
	}
	if (rs.nremove == 0)
		goto out;
	memset(&ch, 0, sizeof ch);
	table_job_id(job, sizeof job);
	ch.add = rs.add;
	ch.nadd = rs.nadd;
	ch.remove = rs.remove;
	ch.nremove = rs.nremove;
	ch.job_id = job;
	ch.operation = "replace";
	/* no block may pin the table between this check and the commit */
	pthread_mutex_lock(&block_mu);
	if (blocks_holding > 0) {
		pthread_mutex_unlock(&block_mu);
		st->gave_up = true;
		optimize_remove_added(fs, &rs);
		goto out;
	}
	rc = table_commit(e->catalog, e->io, t, &ch, a, &out, err);
	pthread_mutex_unlock(&block_mu);
	if (rc != FLOE_OK) {
		if (!txn_commit_failed(fs, &ch, err))     /* else it may have landed */
			optimize_remove_added(fs, &rs);
		goto give_up;
	}
	st->rewritten = rs.nremove;
	st->added = rs.nadd;
	goto out;
give_up:
	/* quietly: a conflict (40001) or a failure; tried again after a later flush */
	st->gave_up = true;
	floe_error_clear(err);
	rc = FLOE_OK;
out:
	engine_write_turn_give(fs, turn);
	arena_free(a);
	return rc;
}
