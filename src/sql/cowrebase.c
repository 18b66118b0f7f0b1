/*
 * cowrebase.c — key-granular re-base of a copy-on-write change
 * (cowrebase.h).
 *
 *   1. Rx = the data files the change removes that the new head lacks or
 *      holds with other deletes attached.  None: nothing to do.
 *   2. prev = key -> row text of Rx's live rows in the old head.
 *   3. Each added data file is read: a row whose key is in prev with the
 *      same text is a copy (kept); a file with copies is rewritten
 *      without them.
 *   4. mine = prev's keys that are not kept (the change deleted or
 *      updated them).  The new head's data files that the old head did not
 *      have as they are (new files, Rx files with new deletes) are read:
 *      a row with a key of mine must have prev's text (else 40001); its
 *      file is rewritten without the keys of mine and removed.  A key of
 *      mine found in none of them was deleted meanwhile: 40001.
 *   5. The change: removes (its own minus Rx, plus the rewritten head
 *      files), adds (its own minus the rewritten ones, plus the rewrites).
 *
 * Rewrites keep v3 row lineage (_row_id, _last_updated_sequence_number as
 * scanned) and the table's default partition spec (rows are routed by
 * their values, as dml.c's copies of a file written under an older spec).
 *
 * Memory: the caller's arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"
#include "sql/cowrebase.h"
#include "sql/keydiff.h"
#include "table/data_writer.h"
#include "table/metadata.h"

typedef struct Cow {
	FileIO *io;
	Arena *a;
	floe_error *err;
	const IcebergSchema *sc;
	IcebergSchema *wsc;        /* what rewrites write (lineage columns) */
	int *pk, npk;
	bool lineage;
	char **written;
	int nwritten, capw;
} Cow;

static void
exec_ctx(Cow *c, ExecCtx *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->arena = c->a;
	ctx->io = c->io;
	ctx->err = c->err;
	ctx->threads = 1;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static const DataFile *
find_file(const DataFile *fs, int n, const char *path)
{
	int i;
	for (i = 0; i < n; i++)
		if (fs[i].content == CONTENT_DATA && !strcmp(fs[i].file_path, path))
			return &fs[i];
	return NULL;
}

/* Same attached deletes (by file and offset)? */
static bool
same_deletes(const DataFile *x, const DataFile *y)
{
	int i, k;

	if (x->ndeletes != y->ndeletes)
		return false;
	for (i = 0; i < x->ndeletes; i++) {
		for (k = 0; k < y->ndeletes; k++)
			if (!strcmp(x->deletes[i]->file_path, y->deletes[k]->file_path) &&
			    x->deletes[i]->has_content_offset == y->deletes[k]->has_content_offset &&
			    x->deletes[i]->content_offset == y->deletes[k]->content_offset)
				break;
		if (k == y->ndeletes)
			return false;
	}
	return true;
}

/* Visit each live row of data file f: fn(arg, key, row text). */
typedef int (*RowFn)(Cow *c, void *arg, const char *key, const char *row);

static int
each_row(Cow *c, const DataFile *f, const TableMetadata *md, RowFn fn, void *arg)
{
	ExecCtx ctx;
	DataFile one = *f;
	int *all = ARENA_ARRAY(c->a, int, c->sc->nfields + 1), i, rc;
	Operator *op;
	Batch *b;

	exec_ctx(c, &ctx);
	for (i = 0; i < c->sc->nfields; i++)
		all[i] = i;
	op = scan_new(&ctx, c->sc, c->sc->nfields, all, &one, 1, false, md);
	if ((rc = op_open(op)) == FLOE_OK)
		while (rc == FLOE_OK && (rc = op_next(op, &b)) == FLOE_OK && b) {
			uint32_t r;
			if (!b->count)
				continue;
			batch_compact(b);
			for (r = 0; r < b->count && rc == FLOE_OK; r++)
				rc = fn(c, arg, keydiff_cols_text(b->cols, c->pk, c->npk, r, c->a),
					keydiff_cols_text(b->cols, NULL, c->sc->nfields, r, c->a));
		}
	op_close(op);
	return rc;
}

static int
put_row(Cow *c, void *arg, const char *key, const char *row)
{
	(void)keyset_put(arg, key, row);
	return FLOE_OK;
}

/* step 3: a row of an added file */
typedef struct KeptArg {
	KeySet *prev, *kept;
	bool any;
} KeptArg;

static int
kept_row(Cow *c, void *arg, const char *key, const char *row)
{
	KeptArg *k = arg;
	bool found;
	const char *was = keyset_get(k->prev, key, &found);

	if (found && !strcmp(was, row)) {
		(void)keyset_add(k->kept, key);
		k->any = true;
	}
	return FLOE_OK;
}

/* step 4: a row of a new head file */
typedef struct MineArg {
	KeySet *prev, *kept, *seen;
	const char *table;
	bool any;
} MineArg;

static int
conflict(Cow *c, const char *table, const char *key)
{
	floe_errorf(c->err, ERRCODE_T_R_SERIALIZATION_FAILURE,
		    "could not serialize access due to concurrent update");
	floe_error_detail(c->err, "Row %s of table \"%s\" was changed by this transaction and by a "
			  "concurrent one.", keydiff_key_display(key, c->a), table);
	return floe_error_hint(c->err, "The transaction might succeed if retried.");
}

static int
mine_row(Cow *c, void *arg, const char *key, const char *row)
{
	MineArg *m = arg;
	bool found;
	const char *was = keyset_get(m->prev, key, &found);

	if (!found || keyset_has(m->kept, key))
		return FLOE_OK;
	if (strcmp(was, row) != 0)
		return conflict(c, m->table, key);
	(void)keyset_add(m->seen, key);
	m->any = true;
	return FLOE_OK;
}

typedef struct Missing {
	KeySet *kept, *seen;
	const char *key;
} Missing;

static void
find_missing(void *arg, const char *key, const char *val)
{
	Missing *m = arg;
	(void)val;
	if (!m->key && !keyset_has(m->kept, key) && !keyset_has(m->seen, key))
		m->key = key;
}

/* Write f's live rows whose key is not in drop to new files (+= out). */
static int
rewrite(Cow *c, const Table *head, const DataFile *f, const TableMetadata *md, KeySet *drop,
	DataFile **out, int *nout, int *cap)
{
	ExecCtx ctx;
	DataFile one = *f, *files;
	int nproj = c->sc->nfields, i, rc, nfiles;
	int *proj = ARENA_ARRAY(c->a, int, c->sc->nfields + 3);
	const PartitionSpec *spec = metadata_default_spec(head->md);
	DataWriter *w;
	Operator *op;
	Batch *b;

	exec_ctx(c, &ctx);
	for (i = 0; i < nproj; i++)
		proj[i] = i;
	if (c->lineage) {
		proj[nproj++] = SCAN_PROJ_ROW_ID;
		proj[nproj++] = SCAN_PROJ_LAST_UPDATED_SEQ;
	}
	w = data_writer_new(c->io, table_data_dir(head, c->a), c->wsc, 0, c->a);
	if (data_writer_set_table_properties(w, head->md, c->err) != FLOE_OK ||
	    (spec && spec->nfields > 0 && data_writer_set_spec(w, spec, c->err) != FLOE_OK)) {
		data_writer_abort(w);
		return FLOE_ERR;
	}
	op = scan_new(&ctx, c->sc, nproj, proj, &one, 1, false, md);
	if ((rc = op_open(op)) == FLOE_OK)
		while (rc == FLOE_OK && (rc = op_next(op, &b)) == FLOE_OK && b) {
			uint32_t r, n = 0;
			uint32_t *sel;
			Batch wb;
			if (!b->count)
				continue;
			batch_compact(b);
			sel = ARENA_ARRAY(c->a, uint32_t, b->count);
			for (r = 0; r < b->count; r++)
				if (!keyset_has(drop, keydiff_cols_text(b->cols, c->pk, c->npk, r, c->a)))
					sel[n++] = r;
			if (n == 0)
				continue;
			wb = *b;
			wb.cols = ARENA_ARRAY(c->a, Vector, b->ncols + 1);
			memcpy(wb.cols, b->cols, sizeof(Vector) * (size_t)b->ncols);
			if (n < b->count) {
				wb.sel = sel;
				wb.count = n;
				batch_compact(&wb);
			}
			rc = data_writer_write(w, &wb, c->err);
		}
	op_close(op);
	if (rc != FLOE_OK || data_writer_finish(w, &files, &nfiles, c->err) != FLOE_OK) {
		data_writer_abort(w);
		return FLOE_ERR;
	}
	for (i = 0; i < nfiles; i++) {
		if (c->nwritten == c->capw) {
			int ncap = c->capw ? c->capw * 2 : 8;
			c->written = arena_realloc(c->a, c->written, sizeof(char *) * (size_t)c->capw,
						   sizeof(char *) * (size_t)ncap);
			c->capw = ncap;
		}
		c->written[c->nwritten++] = files[i].file_path;
		if (*nout == *cap) {
			*out = arena_realloc(c->a, *out, sizeof(DataFile) * (size_t)*cap,
					     sizeof(DataFile) * (size_t)(*cap * 2));
			*cap *= 2;
		}
		(*out)[(*nout)++] = files[i];
	}
	return FLOE_OK;
}

static void
remove_written(Cow *c)
{
	floe_error ignore;
	int i;
	for (i = 0; i < c->nwritten; i++)
		(void)fileio_remove(c->io, c->written[i], &ignore);
	c->nwritten = 0;
}

static bool
in_list(char **v, int n, const char *p)
{
	int i;
	for (i = 0; i < n; i++)
		if (!strcmp(v[i], p))
			return true;
	return false;
}

int
cowrebase_apply(FileIO *io, const Table *prev, const Table *head, TableChange *ch, Arena *a,
		char ***written, int *nwritten, char ***carried, int *ncarried, bool *done,
		floe_error *err)
{
	Cow c;
	DataFile *pf, *hf, *add;
	int np, nh, i, nadd = 0, nrem = 0, nrx = 0, ncar = 0;
	const char **rem, **rx;
	char **car, **sorted_prev;
	KeySet *prevrows, *kept, *seen;
	Missing miss;
	int maxadd, first_carried = 0;

	*done = false;
	*written = NULL;
	*nwritten = 0;
	memset(&c, 0, sizeof c);
	c.io = io;
	c.a = a;
	c.err = err;
	c.sc = metadata_current_schema(head->md);
	if (ch->remove_all || ch->nremove == 0 || !c.sc ||
	    prev->md->current_schema_id != head->md->current_schema_id ||
	    !strcmp(prev->metadata_location, head->metadata_location) ||
	    !keydiff_key_columns(c.sc, a, &c.pk, &c.npk))
		return FLOE_OK;
	for (i = 0; i < ch->nadd; i++)
		if (ch->add[i].content != CONTENT_DATA)
			return FLOE_OK;
	c.lineage = head->md->format_version >= 3;
	c.wsc = c.lineage ? table_lineage_schema(c.sc, a) : (IcebergSchema *)c.sc;
	TRY(table_scan_files(io, prev, -1, a, &pf, &np, err));
	TRY(table_scan_files(io, head, -1, a, &hf, &nh, err));
	/* 1. Rx */
	rx = ARENA_ARRAY(a, const char *, ch->nremove + 1);
	for (i = 0; i < ch->nremove; i++) {
		const DataFile *p = find_file(pf, np, ch->remove[i]), *h;
		if (!p)
			continue;
		h = find_file(hf, nh, ch->remove[i]);
		if (!h || !same_deletes(p, h))
			rx[nrx++] = ch->remove[i];
	}
	if (nrx == 0)
		return FLOE_OK;
	/* 2. prev rows */
	prevrows = keyset_new(a);
	for (i = 0; i < nrx; i++)
		TRY(each_row(&c, find_file(pf, np, rx[i]), prev->md, put_row, prevrows));
	/* 3. copies in the added files */
	kept = keyset_new(a);
	maxadd = ch->nadd + nh + 16;
	add = ARENA_ARRAY(a, DataFile, maxadd);
	{
		bool *copies = ARENA_ARRAY(a, bool, ch->nadd + 1);
		for (i = 0; i < ch->nadd; i++) {
			KeptArg k = { prevrows, kept, false };
			TRY(each_row(&c, &ch->add[i], head->md, kept_row, &k));
			copies[i] = k.any;
		}
		/* 4. the keys of mine in the new head */
		seen = keyset_new(a);
		sorted_prev = ARENA_ARRAY(a, char *, np + 1);
		for (i = 0; i < np; i++)
			sorted_prev[i] = pf[i].file_path;
		qsort(sorted_prev, (size_t)np, sizeof(char *), cmp_str);
		rem = ARENA_ARRAY(a, const char *, ch->nremove + nh + 1);
		for (i = 0; i < ch->nremove; i++)
			if (!in_list((char **)rx, nrx, ch->remove[i]))
				rem[nrem++] = ch->remove[i];
		{
			bool *hit = ARENA_ARRAY(a, bool, nh + 1);
			for (i = 0; i < nh; i++) {
				const char *p = hf[i].file_path;
				bool old = np > 0 && bsearch(&p, sorted_prev, (size_t)np, sizeof(char *), cmp_str);
				MineArg m = { prevrows, kept, seen, head->name, false };
				if (hf[i].content != CONTENT_DATA ||
				    (old && !in_list((char **)rx, nrx, p)))
					continue;
				if (each_row(&c, &hf[i], head->md, mine_row, &m) != FLOE_OK)
					return FLOE_ERR;
				hit[i] = m.any;
			}
			memset(&miss, 0, sizeof miss);
			miss.kept = kept;
			miss.seen = seen;
			keyset_each(prevrows, find_missing, &miss);
			if (miss.key) {
				floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					    "could not serialize access due to concurrent delete");
				floe_error_detail(err, "Row %s of table \"%s\" was changed by this "
						  "transaction and deleted by a concurrent one.",
						  keydiff_key_display(miss.key, a), head->name);
				return floe_error_hint(err, "The transaction might succeed if retried.");
			}
			/* 5. the rewrites */
			for (i = 0; i < ch->nadd; i++) {
				if (!copies[i]) {
					add[nadd++] = ch->add[i];
					continue;
				}
				if (rewrite(&c, head, &ch->add[i], head->md, kept, &add, &nadd, &maxadd) != FLOE_OK)
					goto fail;
			}
			first_carried = nadd;
			for (i = 0; i < nh; i++) {
				if (!hit[i])
					continue;
				rem[nrem++] = hf[i].file_path;
				if (rewrite(&c, head, &hf[i], head->md, seen, &add, &nadd, &maxadd) != FLOE_OK)
					goto fail;
			}
		}
	}
	/* carried: the earlier ones still added, and the head rewrites */
	car = ARENA_ARRAY(a, char *, *ncarried + c.nwritten + 1);
	for (i = 0; i < *ncarried; i++) {
		int k;
		for (k = 0; k < nadd; k++)
			if (!strcmp(add[k].file_path, (*carried)[i])) {
				car[ncar++] = (*carried)[i];
				break;
			}
	}
	for (i = first_carried; i < nadd; i++)
		car[ncar++] = add[i].file_path;
	ch->add = add;
	ch->nadd = nadd;
	ch->remove = rem;
	ch->nremove = nrem;
	*written = c.written;
	*nwritten = c.nwritten;
	*carried = car;
	*ncarried = ncar;
	*done = true;
	return FLOE_OK;
fail:
	remove_written(&c);
	return FLOE_ERR;
}
