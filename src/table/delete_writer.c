/*
 * delete_writer.c — merge-on-read deletes (see delete_writer.h): the
 * positions DML deletes, per data file, written as the table's format
 * version asks.
 *
 * Spec: apache/iceberg format/spec.md — "Position Delete Files", "Deletion
 * Vectors", "Manifests" (referenced_data_file, content_offset,
 * content_size_in_bytes); format/puffin-spec.md.
 *
 *   v1  delete_writer_add is 0A000 (position deletes need format version 2).
 *   v2  one Parquet position-delete file per partition touched: rows
 *       (file_path string 2147483546, pos long 2147483545), sorted by path
 *       then position, full (untruncated) file_path bounds; a file naming a
 *       single data file also records it in referenced_data_file.  Earlier
 *       position deletes of a file stay in place (several may apply).
 *   v3  one Puffin file per commit with one 'deletion-vector-v1' blob per
 *       data file (properties referenced-data-file, cardinality; fields
 *       [2147483645]; snapshot-id and sequence-number -1).  Each vector is
 *       the union of the new positions and every delete the file already
 *       has (its DV and any v2 position deletes); the file's old DV is
 *       returned in *remove (table_commit retires only that data file's entry
 *       of a Puffin file shared with others).
 *
 * Invariants: positions are >= 0 and below the data file's record_count;
 * nothing is registered here; delete_writer_abort (or a failing finish)
 * removes every file written.
 *
 * INTERFACE ROUTINES: see delete_writer.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/puffin/puffin.h"
#include "table/data_writer.h"
#include "table/delete_writer.h"
#include "table/deletes.h"

#define POS_FIELD_PATH 2147483546
#define POS_FIELD_POS 2147483545

typedef struct Target {
	const DataFile *f;
	int64_t *pos;
	int64_t n, cap;
} Target;

struct DeleteWriter {
	FileIO *io;
	const Table *t;
	Arena *a;
	int ntg, cap;
	Target *tg;
	int last;                  /* index of the last target added to */
	char **written;
	int nwritten, wcap;
	bool finished;
};

DeleteWriter *
delete_writer_new(FileIO *io, const Table *t, Arena *a)
{
	DeleteWriter *w = ARENA_NEW(a, DeleteWriter);
	w->io = io;
	w->t = t;
	w->a = a;
	w->last = -1;
	return w;
}

static void
written_add(DeleteWriter *w, const char *path)
{
	if (w->nwritten == w->wcap) {
		int ncap = w->wcap ? w->wcap * 2 : 8;
		w->written = arena_realloc(w->a, w->written, sizeof(char *) * (size_t)w->wcap,
					   sizeof(char *) * (size_t)ncap);
		w->wcap = ncap;
	}
	w->written[w->nwritten++] = arena_strdup(w->a, path);
}

int
delete_writer_add(DeleteWriter *w, const DataFile *f, const int64_t *pos, int64_t n,
		  floe_error *err)
{
	Target *t = NULL;
	int64_t i;
	int k;

	if (w->t->md->format_version < 2)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "merge-on-read deletes need Iceberg format version 2 or later; table "
				   "\"%s\" is version %d: upgrade it with ALTER TABLE %s SET TBLPROPERTIES "
				   "('format-version' = '2')", w->t->name ? w->t->name : "",
				   w->t->md->format_version, w->t->name ? w->t->name : "t");
	if (f->content != CONTENT_DATA)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "\"%s\" is not a data file",
				   f->file_path);
	if (n <= 0)
		return FLOE_OK;
	if (w->last >= 0 && strcmp(w->tg[w->last].f->file_path, f->file_path) == 0)
		t = &w->tg[w->last];
	for (k = 0; !t && k < w->ntg; k++)
		if (strcmp(w->tg[k].f->file_path, f->file_path) == 0) {
			t = &w->tg[k];
			w->last = k;
		}
	if (!t) {
		if (w->ntg == w->cap) {
			int ncap = w->cap ? w->cap * 2 : 8;
			w->tg = arena_realloc(w->a, w->tg, sizeof(Target) * (size_t)w->cap,
					      sizeof(Target) * (size_t)ncap);
			w->cap = ncap;
		}
		t = &w->tg[w->ntg];
		memset(t, 0, sizeof *t);
		t->f = f;
		w->last = w->ntg++;
	}
	for (i = 0; i < n; i++)
		if (pos[i] < 0 || (f->record_count >= 0 && pos[i] >= f->record_count))
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
					   "position %lld is outside data file \"%s\" (%lld rows)",
					   (long long)pos[i], f->file_path, (long long)f->record_count);
	if (t->n + n > t->cap) {
		int64_t ncap = t->cap ? t->cap : 64;
		while (ncap < t->n + n)
			ncap *= 2;
		t->pos = arena_realloc(w->a, t->pos, sizeof(int64_t) * (size_t)t->cap,
				       sizeof(int64_t) * (size_t)ncap);
		t->cap = ncap;
	}
	memcpy(t->pos + t->n, pos, sizeof(int64_t) * (size_t)n);
	t->n += n;
	return FLOE_OK;
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

static int64_t
sort_distinct(int64_t *p, int64_t n)
{
	int64_t i, k = 0;

	qsort(p, (size_t)n, sizeof(int64_t), cmp_i64);
	for (i = 0; i < n; i++)
		if (k == 0 || p[k - 1] != p[i])
			p[k++] = p[i];
	return k;
}

static int
cmp_target(const void *x, const void *y)
{
	return strcmp(((const Target *)x)->f->file_path, ((const Target *)y)->f->file_path);
}

/* ---- v2: Parquet position-delete files --------------------------------- */

/* Write the targets tg[0..n) (one partition) as position delete files. */
static int
write_pos_files(DeleteWriter *w, Target *tg, int n, DataFile **add, int *nadd, int *cap,
		floe_error *err)
{
	IcebergSchema schema;
	IcebergField fields[2];
	DataWriter *dw;
	Arena *ba = arena_new(256 * 1024);
	SqlType types[2];
	DataFile *files;
	Batch *b;
	int nfiles, i, k, rc = FLOE_ERR;
	int64_t j;

	memset(&schema, 0, sizeof schema);
	memset(fields, 0, sizeof fields);
	fields[0].id = POS_FIELD_PATH;
	fields[0].name = "file_path";
	fields[0].required = true;
	fields[0].type = types[0] = type_make(TYPE_TEXT);
	fields[0].iceberg_type = "string";
	fields[1].id = POS_FIELD_POS;
	fields[1].name = "pos";
	fields[1].required = true;
	fields[1].type = types[1] = type_make(TYPE_INT64);
	fields[1].iceberg_type = "long";
	schema.nfields = 2;
	schema.fields = fields;
	dw = data_writer_new(w->io, table_data_dir(w->t, w->a), &schema, 0, w->a);
	for (i = 0; i < w->t->md->nproperties; i++) {
		const MdProp *p = &w->t->md->properties[i];
		if (strncmp(p->key, "write.parquet.", 14) == 0 &&
		    data_writer_set_property(dw, p->key, p->value, err) != FLOE_OK)
			goto out;
	}
	/* full bounds: a reader sees which data file(s) the file names */
	if (data_writer_set_property(dw, "write.metadata.metrics.column.file_path", "full", err) != FLOE_OK ||
	    data_writer_set_property(dw, "write.metadata.metrics.column.pos", "full", err) != FLOE_OK)
		goto out;
	b = batch_new(ba, 2, types, VECTOR_SIZE);
	for (i = 0; i < n; i++) {
		const char *path = tg[i].f->file_path;
		uint32_t plen = (uint32_t)strlen(path);
		for (j = 0; j < tg[i].n; j++) {
			vector_set_string(&b->cols[0], b->count, path, plen);
			((int64_t *)b->cols[1].data)[b->count] = tg[i].pos[j];
			if (++b->count == VECTOR_SIZE) {
				if (data_writer_write(dw, b, err) != FLOE_OK)
					goto fail;
				arena_reset(ba);
				b = batch_new(ba, 2, types, VECTOR_SIZE);
			}
		}
	}
	if (b->count > 0 && data_writer_write(dw, b, err) != FLOE_OK)
		goto fail;
	if (data_writer_finish(dw, &files, &nfiles, err) != FLOE_OK)
		goto fail;
	for (k = 0; k < nfiles; k++) {
		DataFile *d;
		written_add(w, files[k].file_path);
		if (*nadd == *cap) {
			int ncap = *cap ? *cap * 2 : 8;
			*add = arena_realloc(w->a, *add, sizeof(DataFile) * (size_t)*cap,
					     sizeof(DataFile) * (size_t)ncap);
			*cap = ncap;
		}
		d = &(*add)[(*nadd)++];
		*d = files[k];
		d->content = CONTENT_POSITION_DELETES;
		d->spec_id = tg[0].f->spec_id;
		d->npartition = tg[0].f->npartition;
		d->partition = tg[0].f->partition;
		d->has_sort_order_id = false;
		if (n == 1)
			d->referenced_data_file = arena_strdup(w->a, tg[0].f->file_path);
	}
	rc = FLOE_OK;
	goto out;
fail:
	data_writer_abort(dw);
out:
	data_writer_free(dw);
	arena_free(ba);
	return rc;
}

/* Same partition spec and tuple (values compared as partition values). */
static bool
same_partition(const DataFile *x, const DataFile *y)
{
	int i;

	if (x->spec_id != y->spec_id || x->npartition != y->npartition)
		return false;
	for (i = 0; i < x->npartition; i++) {
		const Value *a = &x->partition[i], *b = &y->partition[i];
		bool an = a->is_null || a->type.id == TYPE_NULL, bn = b->is_null || b->type.id == TYPE_NULL;
		if (an || bn) {
			if (an != bn)
				return false;
			continue;
		}
		if (a->type.id != b->type.id)
			return false;
		switch (a->type.id) {
		case TYPE_BOOL: if (a->u.b != b->u.b) return false; break;
		case TYPE_FLOAT32: case TYPE_FLOAT64: if (a->u.f != b->u.f) return false; break;
		case TYPE_DECIMAL: if (a->u.d != b->u.d) return false; break;
		case TYPE_TEXT: case TYPE_BYTEA: if (strview_cmp(&a->u.s, &b->u.s) != 0) return false; break;
		case TYPE_UUID: if (memcmp(a->u.uuid.b, b->u.uuid.b, 16) != 0) return false; break;
		default: if (a->u.i != b->u.i) return false; break;
		}
	}
	return true;
}

static int
finish_v2(DeleteWriter *w, DataFile **add, int *nadd, floe_error *err)
{
	bool *done = ARENA_ARRAY(w->a, bool, w->ntg + 1);
	Target *grp = ARENA_ARRAY(w->a, Target, w->ntg + 1);
	int cap = 0, i, j, ng;

	for (i = 0; i < w->ntg; i++) {
		if (done[i])
			continue;
		ng = 0;
		for (j = i; j < w->ntg; j++)
			if (!done[j] && same_partition(w->tg[i].f, w->tg[j].f)) {
				done[j] = true;
				grp[ng++] = w->tg[j];
			}
		TRY(write_pos_files(w, grp, ng, add, nadd, &cap, err));
	}
	return FLOE_OK;
}

/* ---- v3: deletion vectors ----------------------------------------------- */

static int
finish_v3(DeleteWriter *w, DataFile **add, int *nadd, char ***remove, int *nremove,
	  floe_error *err)
{
	PuffinBlob *blobs = ARENA_ARRAY(w->a, PuffinBlob, w->ntg + 1);
	PuffinProp fprop = { "created-by", "floe" };
	static int32_t rowpos = PUFFIN_ROW_POS_FIELD_ID;
	int64_t *cards = ARENA_ARRAY(w->a, int64_t, w->ntg + 1);
	const uint8_t *data;
	size_t len;
	char *path;
	int i, k, nrem = 0;

	*remove = ARENA_ARRAY(w->a, char *, w->ntg + 1);
	for (i = 0; i < w->ntg; i++) {
		Target *t = &w->tg[i];
		const DataFile *f = t->f;
		int64_t *old, nold, *all, n;
		uint8_t *dv;
		size_t dvlen;
		PuffinProp *pp = ARENA_ARRAY(w->a, PuffinProp, 2);

		TRY(deletes_file_positions(w->io, f, w->a, &old, &nold, err));
		all = arena_alloc(w->a, sizeof(int64_t) * (size_t)(t->n + nold + 1));
		memcpy(all, t->pos, sizeof(int64_t) * (size_t)t->n);
		if (nold)
			memcpy(all + t->n, old, sizeof(int64_t) * (size_t)nold);
		n = sort_distinct(all, t->n + nold);
		puffin_dv_encode(all, n, w->a, &dv, &dvlen);
		cards[i] = n;
		pp[0].key = "referenced-data-file";
		pp[0].value = f->file_path;
		pp[1].key = "cardinality";
		pp[1].value = arena_sprintf(w->a, "%lld", (long long)n);
		blobs[i].type = PUFFIN_DV_TYPE;
		blobs[i].nfields = 1;
		blobs[i].fields = &rowpos;
		blobs[i].snapshot_id = -1;
		blobs[i].sequence_number = -1;
		blobs[i].nprops = 2;
		blobs[i].props = pp;
		blobs[i].data = dv;
		blobs[i].data_len = dvlen;
		for (k = 0; k < f->ndeletes; k++) {
			const DataFile *d = f->deletes[k];
			if (d->content == CONTENT_POSITION_DELETES && d->file_format &&
			    strcasecmp(d->file_format, "PUFFIN") == 0)
				(*remove)[nrem++] = d->file_path;
		}
	}
	TRY(puffin_write(blobs, w->ntg, &fprop, 1, w->a, &data, &len, err));
	{
		uint8_t u[16];
		FILE *r = fopen("/dev/urandom", "rb");
		size_t got = r ? fread(u, 1, sizeof u, r) : 0;
		if (r)
			fclose(r);
		if (got < sizeof u) {
			uint64_t x = (uint64_t)(uintptr_t)w ^ (uint64_t)len;
			memcpy(u, &x, 8);
			memcpy(u + 8, &x, 8);
		}
		path = arena_sprintf(w->a, "%s/%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x-deletes.puffin",
				     table_data_dir(w->t, w->a), u[0], u[1], u[2], u[3], u[4], u[5],
				     (u[6] & 0x0f) | 0x40, u[7], (u[8] & 0x3f) | 0x80, u[9], u[10],
				     u[11], u[12], u[13], u[14], u[15]);
	}
	TRY(fileio_write(w->io, path, data, len, err));
	written_add(w, path);
	*add = ARENA_ARRAY(w->a, DataFile, w->ntg);
	for (i = 0; i < w->ntg; i++) {
		DataFile *d = &(*add)[i];
		const DataFile *f = w->tg[i].f;
		memset(d, 0, sizeof *d);
		d->content = CONTENT_POSITION_DELETES;
		d->file_path = path;
		d->file_format = "PUFFIN";
		d->spec_id = f->spec_id;
		d->npartition = f->npartition;
		d->partition = f->partition;
		d->record_count = cards[i];
		d->file_size_in_bytes = (int64_t)len;
		d->referenced_data_file = arena_strdup(w->a, f->file_path);
		d->has_content_offset = true;
		d->content_offset = blobs[i].offset;
		d->content_size_in_bytes = blobs[i].length;
	}
	*nadd = w->ntg;
	/* distinct old DV paths */
	for (i = 0, k = 0; i < nrem; i++) {
		int j;
		for (j = 0; j < k; j++)
			if (strcmp((*remove)[j], (*remove)[i]) == 0)
				break;
		if (j == k)
			(*remove)[k++] = (*remove)[i];
	}
	*nremove = k;
	return FLOE_OK;
}

int
delete_writer_finish(DeleteWriter *w, DataFile **add, int *nadd, char ***remove, int *nremove,
		     floe_error *err)
{
	int i, rc;

	*add = NULL;
	*nadd = 0;
	*remove = NULL;
	*nremove = 0;
	if (w->finished)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "delete writer finished twice");
	w->finished = true;
	if (w->ntg == 0)
		return FLOE_OK;
	for (i = 0; i < w->ntg; i++)
		w->tg[i].n = sort_distinct(w->tg[i].pos, w->tg[i].n);
	qsort(w->tg, (size_t)w->ntg, sizeof(Target), cmp_target);
	if (w->t->md->format_version >= 3)
		rc = finish_v3(w, add, nadd, remove, nremove, err);
	else
		rc = finish_v2(w, add, nadd, err);
	if (rc != FLOE_OK) {
		delete_writer_abort(w);
		*add = NULL;
		*nadd = 0;
		*remove = NULL;
		*nremove = 0;
	}
	return rc;
}

void
delete_writer_abort(DeleteWriter *w)
{
	floe_error ignore;
	int i;

	for (i = 0; i < w->nwritten; i++)
		(void)fileio_remove(w->io, w->written[i], &ignore);
	w->nwritten = 0;
}
