/*
 * cow_rewrite.c — the copy-on-write rewrite of one data file: its rows
 * read again, each marked as changed by the statement or not, and handed
 * batch by batch to the caller, who writes the kept ones (and, for an
 * UPDATE, the changed ones' new values) to its data writers (modify.h).
 *
 * Spec: apache/iceberg format/spec.md "Row-level deletes" (copy-on-write:
 * the snapshot drops the file and adds its rewrite).
 *
 * The scan reads the table's columns, then (by_pos) each row's position
 * in the file (SCAN_PROJ_FILE_POS, counting deleted rows: what a position
 * delete names), then (lineage) _row_id and _last_updated_sequence_number
 * as stored, so kept rows keep their row lineage (spec "Row Lineage").
 *
 * The changed rows are either
 *   by_pos   sorted file positions (UPDATE ... FROM / DELETE ... USING and
 *            MERGE / ON CONFLICT: the positions their joins recorded);
 *            the scan gives a file's positions in ascending order, so
 *            one walk over the list marks them
 *   bits     a bitmap over the scan's row ordinals (plain UPDATE / DELETE:
 *            the MATCH pass's, sql/dml.c), NULL: every row; the scan must
 *            give the rows the MATCH pass counted, else XX001 (invariant 2
 *            of dml.c: the file changed while it was being rewritten)
 *
 * INTERFACE ROUTINES (modify.h)
 *   cow_rewrite_init(&rw, ctx, schema, md, file, lineage, scratch)
 *   cow_rewrite(&rw)
 *   cow_split_bits(bits, first, count, hit, &nhit, keep, &nkeep)
 */
#include "exec/modify.h"
#include <string.h>
#include "table/iceberg.h"

void
cow_rewrite_init(CowRewrite *rw, ExecCtx *ctx, const IcebergSchema *schema,
		 const struct TableMetadata *md, DataFile *f, bool lineage, Arena *scratch)
{
	memset(rw, 0, sizeof *rw);
	rw->ctx = ctx;
	rw->schema = schema;
	rw->md = md;
	rw->file = f;
	rw->lineage = lineage;
	rw->scratch = scratch;
}

void
cow_split_bits(const uint64_t *bits, int64_t first, uint32_t count, uint32_t *hit, uint32_t *nhit,
	       uint32_t *keep, uint32_t *nkeep)
{
	uint32_t j;

	*nhit = *nkeep = 0;
	for (j = 0; j < count; j++) {
		int64_t i = first + j;
		if (!bits || ((bits[i >> 6] >> (i & 63)) & 1))
			hit[(*nhit)++] = j;
		else
			keep[(*nkeep)++] = j;
	}
}

/* Rows of b (compacted) at the sorted positions pos[*k..] (column pcol). */
static void
split_pos(const Batch *b, int pcol, const int64_t *pos, int64_t npos, int64_t *k, uint32_t *hit,
	  uint32_t *nhit, uint32_t *keep, uint32_t *nkeep)
{
	VectorView pv;
	uint32_t j;

	*nhit = *nkeep = 0;
	vector_view(&b->cols[pcol], &pv);
	for (j = 0; j < b->count; j++) {
		int64_t p = ((const int64_t *)pv.data)[pv.sel ? pv.sel[j] : j];
		while (*k < npos && pos[*k] < p)
			(*k)++;
		if (*k < npos && pos[*k] == p)
			hit[(*nhit)++] = j;
		else
			keep[(*nkeep)++] = j;
	}
}

int
cow_rewrite(const CowRewrite *rw)
{
	ExecCtx *ctx = rw->ctx;
	ExecCtx sctx = *ctx;      /* the scan's state goes with its own arena */
	Arena *own = rw->scan_arena ? NULL : arena_new(16 * 1024);
	int nf = rw->schema->nfields, n = 0, i, rc = FLOE_ERR;
	int *proj;
	Operator *scan;
	Batch *b;
	int64_t row = 0, k = 0;

	sctx.arena = own ? own : rw->scan_arena;
	proj = ARENA_ARRAY(sctx.arena, int, nf + 3);
	for (i = 0; i < nf; i++)
		proj[n++] = i;
	if (rw->by_pos)
		proj[n++] = SCAN_PROJ_FILE_POS;
	if (rw->lineage) {
		proj[n++] = SCAN_PROJ_ROW_ID;
		proj[n++] = SCAN_PROJ_LAST_UPDATED_SEQ;
	}
	scan = scan_new(&sctx, rw->schema, n, proj, rw->file, 1, false, rw->md);
	if (op_open(scan) != FLOE_OK)
		goto out;
	for (;;) {
		uint32_t *hit, *keep, nhit, nkeep, cnt;

		if (op_next_rows(ctx, scan, rw->scratch, &b) != FLOE_OK)
			goto out;
		if (!b)
			break;
		cnt = b->count;
		if (!rw->by_pos && rw->bits && row + cnt > rw->nrows) {
			FLOE_CORRUPT(ctx->err, "data file \"%s\" changed while it was being rewritten",
				     rw->file->file_path);
			goto out;
		}
		hit = ARENA_ARRAY(rw->scratch, uint32_t, cnt);
		keep = ARENA_ARRAY(rw->scratch, uint32_t, cnt);
		if (rw->by_pos)
			split_pos(b, nf, rw->pos, rw->npos, &k, hit, &nhit, keep, &nkeep);
		else
			cow_split_bits(rw->bits, row, cnt, hit, &nhit, keep, &nkeep);
		if (rw->rows(rw->arg, b, hit, nhit, keep, nkeep, rw->scratch) != FLOE_OK)
			goto out;
		row += cnt;
	}
	if (!rw->by_pos && rw->bits && row != rw->nrows) {
		FLOE_CORRUPT(ctx->err, "data file \"%s\" changed while it was being rewritten",
			     rw->file->file_path);
		goto out;
	}
	rc = FLOE_OK;
out:
	op_close(scan);
	if (own)
		arena_free(own);
	return rc;
}
