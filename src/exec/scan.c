/*
 * scan.c — reads Parquet data files into batches of a table schema's
 * columns.  Used for Iceberg table scans (files from table/ scan planning,
 * columns matched by Iceberg field id; a file written without field ids
 * through the table's name mapping, schema.name-mapping.default, when it
 * has one, else by name) and for read_parquet() (columns matched by name).
 *
 * A projected column missing from a file reads as its identity-partition
 * value when the file's partition spec has one for it (Hive-style layouts
 * and some engines leave partition columns out of the data files), else
 * as NULLs (a column added to the table after the file was written).  A file column whose type differs from
 * the table's (int -> long promotion, decimal widening, nanosecond
 * timestamps) is cast to the table type.
 *
 * Deletes (spec "Scan Planning", "Position Delete Files", "Deletion
 * Vectors", "Equality Delete Files"): each file's DataFile.deletes are
 * loaded through table/deletes.h when the file is opened (delete files are
 * parsed once per scan); rows at deleted positions or whose equality-key
 * values are in an equality delete set are left out of the batch's
 * selection.  Equality columns the query does not project are read as
 * hidden columns after the projected ones.  proj[i] == SCAN_PROJ_FILE_POS
 * yields the row's 0-based position in its data file (deleted rows count).
 *
 * Row lineage (spec "Row Lineage", format version 3): proj[i] ==
 * SCAN_PROJ_ROW_ID reads the file's _row_id column (field id
 * ICEBERG_FIELD_ROW_ID) where present and not null, else inherits
 * first_row_id + position (NULL when the file has no first_row_id);
 * SCAN_PROJ_LAST_UPDATED_SEQ reads _last_updated_sequence_number
 * (ICEBERG_FIELD_LAST_UPDATED_SEQ), else the file's data sequence number.
 * The reserved columns are matched by field id only (by name for a file
 * without field ids).
 *
 * Per-file metadata columns (SCAN_PROJ_FILE_PATH, _SPEC_ID, _PARTITION,
 * _FILE_SIZE, _DELETED) read as constants of the file being read
 * (file_meta_const; _partition's text from table/metacols.h).
 *
 * Integrity: an Iceberg data file whose footer row count differs from its
 * manifest entry's record_count is XX001 naming the file (a damaged footer
 * must not read as fewer rows); page CRCs are checked by the reader unless
 * ctx->ignore_checksums.
 *
 * States:  NEXT_FILE -> NEXT_ROW_GROUP -> READING -> (row group done)
 *          NEXT_ROW_GROUP ... -> (files done) END
 *
 * Parallel scans (parallel.c): once scan_morsels gave the scan a
 * MorselSource, it reads the (file, row group) units the source hands
 * out instead of walking its files itself, and scan_clone makes copies
 * for worker threads that share the source (each opens the files it is
 * handed with its own readers, arenas and DeleteLoader).  A unit's
 * positions (SCAN_PROJ_FILE_POS, deletes, lineage) are computed from the
 * row counts of the row groups before it, so they do not depend on which
 * scan reads it.  One scan alone over a source reads the units in file
 * and row-group order, as the serial walk does.
 *
 * Large objects (a data file of at least FLOE_S3_SPARSE_BYTES, 64 MiB, in
 * object storage: fileio_is_remote): the file is not read whole.  (Smaller
 * ones are: read whole they stay whole in the object cache, whose largest
 * object is 64 MiB, and a warm scan copies nothing.)  open_file
 * fetches its first 4 bytes and its tail (the footer; again when the
 * footer is longer) into a zeroed buffer of the file's size (anonymous
 * pages, unmapped when the file's arena resets) and opens the
 * ParquetFile over it; open_row_group then fetches the column chunks of
 * the row group's projected columns (parquet_chunk_range) with one
 * fileio_read_ranges call (S3: near ranges merged, parallel GETs, cached)
 * before their readers start.  The reader only reads the footer and those
 * chunks, so the other bytes are never looked at.
 *
 * INTERFACE ROUTINES
 *   scan_new(ctx, schema, nproj, proj, files, nfiles, match_by_name, md)
 *   scan_morsels(op) / scan_is_scan(op, &rows)   (parallel.c)
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "exec/exec.h"
#include "format/parquet/parquet.h"
#include "storage/fileio.h"
#include "table/deletes.h"
#include "table/iceberg.h"
#include "table/metacols.h"
#include "table/metadata.h"
#include "types/array.h"
#include "types/cast.h"

typedef struct ScanOp {
	Operator op;
	const IcebergSchema *schema;
	int nproj;
	int *proj;
	/* columns read: the projected ones, then hidden equality-delete columns
	 * of the current file (schema index, or SCAN_PROJ_FILE_POS) */
	int ncols;
	int *cols;
	SqlType *ctypes;
	DeleteLoader *loader;
	DeleteSet *dset;             /* current file's deletes; NULL: none */
	int **eqcol;                 /* per dset->eq[e]: internal column of each id */
	Value *eqvals;
	int64_t rg_first;            /* file position of the row group's first row */
	int64_t rg_rows;
	DataFile *files;
	int nfiles;
	bool by_name;
	const TableMetadata *md;     /* NULL for plain Parquet files */
	const NameMapping *nm;       /* md's schema.name-mapping.default, or NULL */
	/* state */
	int file_idx;
	int rg;
	Arena *file_arena;
	Arena *rg_arena;
	ParquetFile *pf;
	int *pq_col;                 /* per projected column: parquet column or -1 */
	Value **consts;              /* per projected column missing from the file:
					its identity-partition value, or NULL */
	ParquetColumnReader **readers;
	int64_t rg_left;
	/* the filter right above this scan (scan_set_prune), or NULL: files and
	 * row groups whose statistics prove it false are skipped (prune.c) */
	const Expr *prune;
	int *prune_pq;               /* per projected column: parquet column, -1 */
	MorselSource *ms;            /* parallel: the units to read, or NULL */
	uint8_t *sparse;             /* a large object's buffer, filled by chunk */
	const char *path;            /* ... and its path */
} ScanOp;

/* The identity-partition value of field fld in file f, if its spec has one. */
static int
partition_const(ScanOp *s, const DataFile *f, const IcebergField *fld, SqlType type, Value **out)
{
	const PartitionSpec *spec = metadata_spec_by_id(s->md, f->spec_id);
	int k;

	if (!spec)
		return FLOE_OK;
	for (k = 0; k < spec->nfields && k < f->npartition; k++) {
		const PartitionField *pf = &spec->fields[k];
		Value *v;
		if (pf->source_id != fld->id || strcmp(pf->transform, "identity") != 0)
			continue;
		v = ARENA_NEW(s->file_arena, Value);
		if (f->partition[k].is_null || f->partition[k].type.id == TYPE_NULL) {
			*v = value_null(type);
		} else if (type_equal(f->partition[k].type, type)) {
			*v = f->partition[k];
		} else {
			TRY(cast_value(v, &f->partition[k], type, s->file_arena, s->op.ctx->err));
		}
		*out = v;
		return FLOE_OK;
	}
	return FLOE_OK;
}

/* The Parquet column holding a lineage field (SCAN_PROJ_ROW_ID or
 * SCAN_PROJ_LAST_UPDATED_SEQ), or -1. */
static int
find_lineage_col(ScanOp *s, const DataFile *f, int which, int *out)
{
	int32_t id = which == SCAN_PROJ_ROW_ID ? ICEBERG_FIELD_ROW_ID : ICEBERG_FIELD_LAST_UPDATED_SEQ;
	const char *name = which == SCAN_PROJ_ROW_ID ? "_row_id" : "_last_updated_sequence_number";
	int c;

	*out = -1;
	for (c = 0; c < parquet_num_columns(s->pf); c++) {
		const ParquetColumn *pc = parquet_column(s->pf, c);
		if (pc->field_id >= 0 ? pc->field_id != id : strcmp(pc->name, name) != 0)
			continue;
		if (pc->nested || (pc->type.id != TYPE_INT64 && pc->type.id != TYPE_INT32))
			return FLOE_CORRUPT(s->op.ctx->err, "row lineage column %s of %s is not a long",
					    pc->name, f->file_path);
		*out = c;
		return FLOE_OK;
	}
	return FLOE_OK;
}

/* Fill the nulls of a lineage column (or all of it, raw == NULL) by
 * inheritance: first_row_id + position, or the data sequence number. */
static int
lineage_vector(ScanOp *s, int which, const Vector *raw, int64_t first, uint32_t want, Vector *v)
{
	const DataFile *f = &s->files[s->file_idx];
	uint32_t r;

	vector_init(v, type_make(TYPE_INT64), s->op.scratch, want);
	for (r = 0; r < want; r++) {
		int64_t x;
		if (raw && vector_is_valid(raw, r)) {
			Value val;
			vector_get_value(raw, r, &val);
			x = val.u.i;
		} else if (which == SCAN_PROJ_LAST_UPDATED_SEQ) {
			x = f->data_sequence_number;
		} else if (f->has_first_row_id) {
			x = f->first_row_id + first + (int64_t)r;
		} else {
			vector_set_null(v, r);
			continue;
		}
		((int64_t *)v->data)[r] = x;
	}
	return FLOE_OK;
}

/* Is f a large object, read by column chunk (see the top comment)? */
static bool
sparse_object(ScanOp *s, const DataFile *f)
{
	const char *v = getenv("FLOE_S3_SPARSE_BYTES");
	int64_t min = v && *v ? strtoll(v, NULL, 10) : (int64_t)64 << 20;

	return f->file_size_in_bytes >= min && f->file_size_in_bytes >= 64 &&
	       fileio_is_remote(fileio_resolve(s->op.ctx->io, f->file_path, s->file_arena));
}

typedef struct Unmap {
	void *p;
	size_t n;
} Unmap;

static void
unmap_buf(void *arg)
{
	Unmap *u = arg;
	munmap(u->p, u->n);
}

static int
open_sparse(ScanOp *s, const DataFile *f)
{
	FileIO *io = s->op.ctx->io;
	floe_error *err = s->op.ctx->err;
	uint64_t size = (uint64_t)f->file_size_in_bytes, tail = size - 4 < 65536 ? size - 4 : 65536;
	FileIORange r[2] = {{0, 4, NULL}, {size - tail, tail, NULL}};
	uint8_t *buf;
	uint32_t flen;
	Unmap *um;

	/* zero pages cost nothing until a chunk is copied in (a calloc would
	 * touch the whole file's size at every open) */
	buf = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory reading \"%s\"", f->file_path);
	um = ARENA_NEW(s->file_arena, Unmap);
	um->p = buf;
	um->n = (size_t)size;
	arena_on_reset(s->file_arena, unmap_buf, um);

	TRY(fileio_read_ranges(io, f->file_path, r, 2, s->rg_arena, err));
	memcpy(buf, r[0].data, 4);
	memcpy(buf + size - tail, r[1].data, (size_t)tail);
	flen = (uint32_t)buf[size - 8] | (uint32_t)buf[size - 7] << 8 | (uint32_t)buf[size - 6] << 16 |
	       (uint32_t)buf[size - 5] << 24;
	if ((uint64_t)flen + 8 > tail && (uint64_t)flen + 12 <= size) {
		FileIORange fr = {size - 8 - flen, flen, NULL};
		TRY(fileio_read_ranges(io, f->file_path, &fr, 1, s->rg_arena, err));
		memcpy(buf + fr.off, fr.data, flen);
	}
	arena_reset(s->rg_arena);
	TRY(parquet_open(&s->pf, buf, (size_t)size, f->file_path, s->file_arena, err));
	s->sparse = buf;
	s->path = f->file_path;
	return FLOE_OK;
}

/* A large object: the chunks of row group rg the readers will read. */
static int
fetch_chunks(ScanOp *s)
{
	FileIORange *r = ARENA_ARRAY(s->rg_arena, FileIORange, s->ncols + 1);
	int i, k, n = 0;

	for (i = 0; i < s->ncols; i++) {
		uint64_t off, len;
		if (s->pq_col[i] < 0 || !parquet_chunk_range(s->pf, s->rg, s->pq_col[i], &off, &len))
			continue;
		for (k = 0; k < n && r[k].off != off; k++)
			;
		if (k == n) {
			r[n].off = off;
			r[n].len = len;
			n++;
		}
	}
	if (n == 0)
		return FLOE_OK;
	TRY(fileio_read_ranges(s->op.ctx->io, s->path, r, n, s->rg_arena, s->op.ctx->err));
	for (k = 0; k < n; k++)
		memcpy(s->sparse + r[k].off, r[k].data, (size_t)r[k].len);
	return FLOE_OK;
}

SqlType
scan_proj_type(int proj)
{
	switch (proj) {
	case SCAN_PROJ_FILE_PATH: case SCAN_PROJ_PARTITION: return type_make(TYPE_TEXT);
	case SCAN_PROJ_SPEC_ID: return type_make(TYPE_INT32);
	case SCAN_PROJ_DELETED: return type_make(TYPE_BOOL);
	default: return type_make(TYPE_INT64);
	}
}

/* The value of per-file metadata column `which` for file f. */
static int
file_meta_const(ScanOp *s, const DataFile *f, int which, Value **out)
{
	Value *v = ARENA_NEW(s->file_arena, Value);
	char *txt;

	*v = value_null(scan_proj_type(which));
	v->is_null = false;
	switch (which) {
	case SCAN_PROJ_FILE_PATH:
		v->u.s = strview_make(f->file_path, strlen(f->file_path));
		break;
	case SCAN_PROJ_PARTITION:
		TRY(metacol_partition_text(s->md, f, s->file_arena, &txt, s->op.ctx->err));
		v->u.s = strview_make(txt, strlen(txt));
		break;
	case SCAN_PROJ_SPEC_ID: v->u.i = f->spec_id; break;
	case SCAN_PROJ_FILE_SIZE: v->u.i = f->file_size_in_bytes; break;
	default: v->u.b = false; break;
	}
	*out = v;
	return FLOE_OK;
}

static int
open_file(ScanOp *s)
{
	Operator *op = &s->op;
	const DataFile *f = &s->files[s->file_idx];
	int i, c;

	arena_reset(s->rg_arena);
	arena_reset(s->file_arena);
	if (f->file_format && strcasecmp(f->file_format, "PARQUET") != 0)
		return floe_errorf(op->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "data files in format %s are not supported yet: %s",
				   f->file_format, f->file_path);
	s->sparse = NULL;
	if (f->bytes) {
		/* read (confined) when the statement checked the path */
		TRY(parquet_open(&s->pf, f->bytes, f->nbytes, f->file_path, s->file_arena, op->ctx->err));
	} else if (sparse_object(s, f)) {
		TRY(open_sparse(s, f));
	} else {
		/* small immutable data files: bytes and footer from a shared cache */
		TRY(parquet_open_cached(&s->pf, op->ctx->io, f->file_path, f->file_size_in_bytes,
					s->file_arena, op->ctx->err));
	}
	/* a damaged footer can describe fewer (or more) rows than were written */
	if (s->md && f->record_count >= 0 && parquet_num_rows(s->pf) != f->record_count)
		return FLOE_CORRUPT(op->ctx->err, "data file \"%s\" holds %lld rows, but its manifest "
				    "entry says %lld", f->file_path, (long long)parquet_num_rows(s->pf),
				    (long long)f->record_count);
	s->dset = NULL;
	s->ncols = s->nproj;
	if (f->ndeletes > 0) {
		if (!s->loader)
			s->loader = deletes_loader_new(op->ctx->io, s->schema, op->ctx->arena);
		TRY(deletes_load(s->loader, f, s->file_arena, &s->dset, op->ctx->err));
	}
	if (s->dset && s->dset->neq > 0) {
		int e, k, maxn = 1;
		s->eqcol = ARENA_ARRAY(s->file_arena, int *, s->dset->neq);
		for (e = 0; e < s->dset->neq; e++) {
			const EqDelete *eq = s->dset->eq[e];
			if (eq->nids > maxn)
				maxn = eq->nids;
			s->eqcol[e] = ARENA_ARRAY(s->file_arena, int, eq->nids);
			for (k = 0; k < eq->nids; k++) {
				int x;
				for (x = 0; x < s->ncols; x++)
					if (s->cols[x] == eq->cols[k])
						break;
				if (x == s->ncols) {
					s->cols[x] = eq->cols[k];
					s->ctypes[x] = s->schema->fields[eq->cols[k]].type;
					s->ncols++;
				}
				s->eqcol[e][k] = x;
			}
		}
		s->eqvals = ARENA_ARRAY(s->file_arena, Value, maxn);
	}
	for (i = 0; i < s->ncols; i++) {
		const IcebergField *fld;
		s->pq_col[i] = -1;
		s->consts[i] = NULL;
		if (s->cols[i] == SCAN_PROJ_FILE_POS)
			continue;
		if (s->cols[i] <= SCAN_PROJ_FILE_PATH) {
			TRY(file_meta_const(s, f, s->cols[i], &s->consts[i]));
			continue;
		}
		if (s->cols[i] == SCAN_PROJ_ROW_ID || s->cols[i] == SCAN_PROJ_LAST_UPDATED_SEQ) {
			TRY(find_lineage_col(s, f, s->cols[i], &s->pq_col[i]));
			continue;
		}
		fld = &s->schema->fields[s->cols[i]];
		for (c = 0; c < parquet_num_columns(s->pf); c++) {
			const ParquetColumn *pc = parquet_column(s->pf, c);
			bool match;
			if (!s->by_name && pc->list && pc->field_id < 0 && pc->elem_field_id >= 0 &&
			    fld->type.id == TYPE_ARRAY && fld->nested_type)
				match = pc->elem_field_id == fld->element_id;  /* only the element has an id */
			else if (!s->by_name && pc->field_id >= 0)
				match = pc->field_id == fld->id;
			else if (!s->by_name && s->nm)
				match = name_mapping_id(s->nm, pc->name) == fld->id;
			else
				match = strcmp(pc->name, fld->name) == 0;
			if (match) {
				if (pc->nested)
					return floe_errorf(op->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
							   "column \"%s\" has the nested type %s, which floe cannot read yet (in %s)",
							   fld->name, pc->nested_type ? pc->nested_type : "struct",
							   f->file_path);
				if (pc->type.id == TYPE_NULL)
					return floe_errorf(op->ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
							   "Parquet column %s of %s has a type floe cannot read",
							   pc->name, f->file_path);
				if (pc->list != (fld->type.id == TYPE_ARRAY))
					return FLOE_CORRUPT(op->ctx->err,
							    "column %s of %s is %sa list, unlike the table's column \"%s\"",
							    pc->name, f->file_path, pc->list ? "" : "not ",
							    fld->name);
				s->pq_col[i] = c;
				break;
			}
		}
		if (s->pq_col[i] < 0 && s->md)
			TRY(partition_const(s, f, fld, s->ctypes[i], &s->consts[i]));
		if (s->pq_col[i] < 0 && !s->consts[i] && fld->initial_default) {
			Value *v = ARENA_NEW(s->file_arena, Value);
			if (type_equal(fld->initial_default->type, s->ctypes[i]))
				*v = *fld->initial_default;
			else
				TRY(cast_value(v, fld->initial_default, s->ctypes[i], s->file_arena,
					       op->ctx->err));
			s->consts[i] = v;
		}
	}
	s->rg_first = 0;
	s->rg_rows = 0;
	s->rg = -1;
	s->rg_left = 0;
	return FLOE_OK;
}

static int
open_row_group(ScanOp *s)
{
	Operator *op = &s->op;
	int i;

	arena_reset(s->rg_arena);
	s->rg_first += s->rg_rows;
	s->rg_rows = s->rg_left = parquet_row_group_num_rows(s->pf, s->rg);
	if (s->sparse)
		TRY(fetch_chunks(s));
	for (i = 0; i < s->ncols; i++) {
		s->readers[i] = NULL;
		if (s->pq_col[i] < 0)
			continue;
		TRY(parquet_column_reader_open(&s->readers[i], s->pf, s->rg, s->pq_col[i],
					       s->rg_arena, op->ctx->err));
		parquet_column_reader_set_verify(s->readers[i], !op->ctx->ignore_checksums);
	}
	return FLOE_OK;
}

/* A numeric[] column without typmod is stored as a list of
 * decimal(38, NUMERIC_DEFAULT_SCALE): its elements read back without
 * trailing zeros, as a numeric column's values do (docs/sql.md). */
static int
trim_numeric_elems(Vector *v, uint32_t n, Arena *a, floe_error *err)
{
	strview *d = v->data, out;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!validity_get(v->validity, i))
			continue;
		TRY(array_trim_numeric(&d[i], v->type, a, &out, err));
		vector_set_string(v, i, strview_data(&out), out.len);
	}
	return FLOE_OK;
}

static int
bytes_to_uuid(ScanOp *s, const Vector *raw, uint32_t n, Vector *out)
{
	uint32_t i;

	vector_init(out, type_make(TYPE_UUID), s->op.scratch, n);
	for (i = 0; i < n; i++) {
		Value v;
		vector_get_value(raw, i, &v);
		if (v.is_null) {
			vector_set_null(out, i);
			continue;
		}
		if (v.u.s.len != 16)
			return FLOE_CORRUPT(s->op.ctx->err, "uuid column of %s holds a value of %u bytes",
					    s->files[s->file_idx].file_path, v.u.s.len);
		memcpy(((Uuid *)out->data)[i].b, strview_data(&v.u.s), 16);
	}
	return FLOE_OK;
}

static int
scan_open(Operator *op)
{
	ScanOp *s = (ScanOp *)op;
	s->file_idx = -1;
	s->pf = NULL;
	s->rg_left = 0;
	return FLOE_OK;
}

/* Read rows [pos, pos + want) of the row group into b->cols[0..ncols). */
static int
read_columns(ScanOp *s, Batch *b, uint32_t want)
{
	Operator *op = &s->op;
	int64_t first = s->rg_first + (s->rg_rows - s->rg_left);
	int i;

	for (i = 0; i < s->ncols; i++) {
		SqlType want_type = s->ctypes[i];
		Vector *v = &b->cols[i];
		if (s->cols[i] == SCAN_PROJ_FILE_POS) {
			uint32_t r;
			vector_init(v, type_make(TYPE_INT64), op->scratch, want);
			for (r = 0; r < want; r++)
				((int64_t *)v->data)[r] = first + r;
			continue;
		}
		if (s->cols[i] == SCAN_PROJ_ROW_ID || s->cols[i] == SCAN_PROJ_LAST_UPDATED_SEQ) {
			Vector raw;
			bool have = s->readers[i] != NULL;
			if (have) {
				const ParquetColumn *pc = parquet_column(s->pf, s->pq_col[i]);
				uint32_t got = 0;
				vector_init_raw(&raw, pc->type, op->scratch, want);
				TRY(parquet_column_read(s->readers[i], &raw, want, &got, op->ctx->err));
				if (got != want)
					return FLOE_CORRUPT(op->ctx->err,
							    "column %s of %s has %u values where the row group promises %u",
							    pc->name, s->files[s->file_idx].file_path, got, want);
			}
			TRY(lineage_vector(s, s->cols[i], have ? &raw : NULL, first, want, v));
			continue;
		}
		if (!s->readers[i]) {
			Value nv = value_null(want_type);
			vector_init_const(v, s->consts[i] ? s->consts[i] : &nv, op->scratch);
			continue;
		}
		{
			const ParquetColumn *pc = parquet_column(s->pf, s->pq_col[i]);
			uint32_t got = 0;
			Vector raw;

			/* not zeroed: the reader writes every row (NULL rows as
			 * zeros) or fails */
			vector_init_raw(&raw, pc->type, op->scratch, want);
			TRY(parquet_column_read(s->readers[i], &raw, want, &got, op->ctx->err));
			if (got != want)
				return FLOE_CORRUPT(op->ctx->err,
						    "column %s of %s has %u values where the row group promises %u",
						    pc->name, s->files[s->file_idx].file_path, got, want);
			if (type_equal(pc->type, want_type) ||
			    (pc->type.id == want_type.id && pc->type.id != TYPE_DECIMAL &&
			     (pc->type.id != TYPE_ARRAY || pc->type.elem == want_type.elem))) {
				/* arrays of one element type share their encoding
				 * (numeric elements carry their own scales) */
				*v = raw;
				v->type = want_type;
				if (want_type.id == TYPE_ARRAY && want_type.elem == TYPE_DECIMAL &&
				    want_type.precision == 0)
					TRY(trim_numeric_elems(v, want, op->scratch, op->ctx->err));
			} else if (pc->type.id == TYPE_BYTEA && want_type.id == TYPE_UUID) {
				/* fixed[16] written without the UUID annotation */
				TRY(bytes_to_uuid(s, &raw, want, v));
			} else {
				vector_init(v, want_type, op->scratch, want);
				TRY(cast_vector(&raw, want, v, want_type, 0, op->ctx->err));
			}
		}
	}
	return FLOE_OK;
}

/* The rows of the batch no delete removes -> b->sel / b->count. */
static void
apply_deletes(ScanOp *s, Batch *b, uint32_t want)
{
	const DeleteSet *d = s->dset;
	int64_t first = s->rg_first + (s->rg_rows - s->rg_left);
	uint32_t *sel = NULL, r, n = 0;
	int64_t lo = 0;
	int e, k;

	/* first deleted position >= first */
	if (d->npos > 0) {
		int64_t hi = d->npos;
		while (lo < hi) {
			int64_t mid = lo + (hi - lo) / 2;
			if (d->pos[mid] < first)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (d->neq == 0 && (lo == d->npos || d->pos[lo] >= first + want)) {
			b->count = want;    /* nothing deleted in this range */
			return;
		}
	}
	sel = arena_alloc(s->op.scratch, sizeof(uint32_t) * (want ? want : 1));
	for (r = 0; r < want; r++) {
		bool gone = false;
		while (lo < d->npos && d->pos[lo] < first + r)
			lo++;
		if (lo < d->npos && d->pos[lo] == first + r)
			gone = true;
		for (e = 0; !gone && e < d->neq; e++) {
			const EqDelete *eq = d->eq[e];
			for (k = 0; k < eq->nids; k++)
				vector_get_value(&b->cols[s->eqcol[e][k]], r, &s->eqvals[k]);
			gone = deletes_eq_match(eq, s->eqvals);
		}
		if (!gone)
			sel[n++] = r;
	}
	b->count = want;
	if (n < want) {
		b->sel = sel;
		b->count = n;
	}
}

/* May the current file's row group s->rg be skipped?  Only real columns
 * count: a lineage column's NULLs inherit values its statistics omit. */
static bool
prune_rg(ScanOp *s)
{
	int i;

	if (!s->prune_pq)
		s->prune_pq = ARENA_ARRAY(s->op.ctx->arena, int, s->nproj ? s->nproj : 1);
	for (i = 0; i < s->nproj; i++)
		s->prune_pq[i] = s->proj[i] >= 0 ? s->pq_col[i] : -1;
	if (!prune_row_group(s->prune, s->nproj, s->prune_pq, s->pf, s->rg))
		return false;
	if (s->op.instr)
		s->op.instr->row_groups_pruned++;
	return true;
}

/* Parallel: take the next unit of the MorselSource (*done at the end). */
static int
next_morsel(ScanOp *s, bool *done)
{
	int f, rg, r, nrg;
	bool claim;

	*done = false;
	TRY(morsel_next(s->ms, &f, &rg, &claim));
	if (f < 0) {
		*done = true;
		return FLOE_OK;
	}
	if (claim) {
		s->file_idx = f;
		s->pf = NULL;
		if (s->prune && prune_file(s->prune, s->nproj, s->proj, s->schema, &s->files[f])) {
			if (s->op.instr)
				s->op.instr->files_pruned++;
			morsel_publish(s->ms, f, 0);
			return FLOE_OK;
		}
		if (open_file(s) != FLOE_OK) {
			s->pf = NULL;
			morsel_publish(s->ms, f, 0);
			return FLOE_ERR;
		}
		nrg = parquet_num_row_groups(s->pf);
		morsel_publish(s->ms, f, nrg);
		if (nrg == 0)
			return FLOE_OK;
	} else if (f != s->file_idx || !s->pf) {
		s->file_idx = f;
		s->pf = NULL;
		TRY(open_file(s));
	}
	s->rg = rg;
	s->rg_first = 0;
	for (r = 0; r < rg; r++)
		s->rg_first += parquet_row_group_num_rows(s->pf, r);
	s->rg_rows = 0;
	s->rg_left = 0;
	if (s->prune && prune_rg(s))
		return FLOE_OK;
	return open_row_group(s);
}

static int
scan_next(Operator *op, Batch **out)
{
	ScanOp *s = (ScanOp *)op;
	Batch *b;
	uint32_t want;

	for (;;) {
		TRY(exec_check_cancel(op->ctx));
		arena_reset(op->scratch);
		while (s->rg_left == 0) {
			if (s->ms) {
				bool done;
				TRY(next_morsel(s, &done));
				if (done) {
					*out = NULL;
					return FLOE_OK;
				}
				continue;
			}
			if (s->pf && s->rg + 1 < parquet_num_row_groups(s->pf)) {
				s->rg++;
				if (s->prune && prune_rg(s)) {
					/* skipped: positions still count its rows */
					s->rg_first += s->rg_rows;
					s->rg_rows = parquet_row_group_num_rows(s->pf, s->rg);
					continue;
				}
				TRY(open_row_group(s));
				continue;
			}
			if (s->file_idx + 1 >= s->nfiles) {
				*out = NULL;
				return FLOE_OK;
			}
			s->file_idx++;
			s->pf = NULL;
			if (s->prune && prune_file(s->prune, s->nproj, s->proj, s->schema,
						   &s->files[s->file_idx])) {
				if (op->instr)
					op->instr->files_pruned++;
				continue;
			}
			TRY(open_file(s));
		}
		want = s->rg_left < VECTOR_SIZE ? (uint32_t)s->rg_left : VECTOR_SIZE;
		b = ARENA_NEW(op->scratch, Batch);
		b->ncols = s->nproj;
		b->cols = ARENA_ARRAY(op->scratch, Vector, s->ncols ? s->ncols : 1);
		b->arena = op->scratch;
		TRY(read_columns(s, b, want));
		if (s->dset)
			apply_deletes(s, b, want);
		else
			b->count = want;
		s->rg_left -= want;
		if (b->count == 0)
			continue;           /* every row of this stretch was deleted */
		op->rows_out += b->count;
		*out = b;
		return FLOE_OK;
	}
}

static void
scan_close(Operator *op)
{
	ScanOp *s = (ScanOp *)op;
	arena_reset(s->rg_arena);
	arena_reset(s->file_arena);
	s->pf = NULL;
}

static Operator *scan_clone(Operator *op, ExecCtx *wctx);

static const OperatorVT scan_vt = { "Scan", scan_open, scan_next, scan_close };

/* A copy for a worker thread, reading units of the same MorselSource. */
static Operator *
scan_clone(Operator *op, ExecCtx *wctx)
{
	ScanOp *s = (ScanOp *)op, *c;

	if (!s->ms)
		return NULL;
	c = (ScanOp *)scan_new(wctx, s->schema, s->nproj, s->proj, s->files, s->nfiles, s->by_name,
			       s->md);
	c->prune = s->prune;
	c->ms = s->ms;
	return &c->op;
}

MorselSource *
scan_morsels(Operator *op)
{
	ScanOp *s = (ScanOp *)op;

	if (!op || op->vt != &scan_vt)
		return NULL;
	if (!s->ms)
		s->ms = morsel_source_new(op->ctx, s->nfiles);
	return s->ms;
}

bool
scan_is_scan(const Operator *op, int64_t *rows)
{
	const ScanOp *s = (const ScanOp *)op;
	int64_t n = 0;
	int f;

	if (!op || op->vt != &scan_vt)
		return false;
	for (f = 0; f < s->nfiles; f++)
		if (s->files[f].record_count > 0)
			n += s->files[f].record_count;
	*rows = n;
	return true;
}

bool
scan_set_prune(Operator *op, const Expr *pred)
{
	if (!op || op->vt != &scan_vt)
		return false;
	((ScanOp *)op)->prune = pred;
	return true;
}

Operator *
scan_new(ExecCtx *ctx, const IcebergSchema *schema, int nproj, const int *proj, DataFile *files,
	 int nfiles, bool match_by_name, const TableMetadata *md)
{
	ScanOp *s = ARENA_NEW(ctx->arena, ScanOp);
	SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, nproj ? nproj : 1);
	int i;

	for (i = 0; i < nproj; i++)
		types[i] = proj[i] < 0 ? scan_proj_type(proj[i]) : schema->fields[proj[i]].type;
	op_init(&s->op, &scan_vt, ctx, nproj, types, NULL);
	s->op.clone = scan_clone;
	s->schema = schema;
	s->nproj = nproj;
	s->proj = arena_memdup(ctx->arena, proj, sizeof(int) * (size_t)(nproj ? nproj : 1));
	s->files = files;
	s->nfiles = nfiles;
	s->by_name = match_by_name;
	s->md = md;
	s->nm = md ? metadata_name_mapping(md, ctx->arena) : NULL;
	{
		int cap = nproj + schema->nfields + 1;
		s->cols = ARENA_ARRAY(ctx->arena, int, cap);
		s->ctypes = ARENA_ARRAY(ctx->arena, SqlType, cap);
		memcpy(s->cols, proj, sizeof(int) * (size_t)nproj);
		memcpy(s->ctypes, types, sizeof(SqlType) * (size_t)nproj);
		s->ncols = nproj;
		s->consts = ARENA_ARRAY(ctx->arena, Value *, cap);
		s->pq_col = ARENA_ARRAY(ctx->arena, int, cap);
		s->readers = ARENA_ARRAY(ctx->arena, ParquetColumnReader *, cap);
	}
	s->file_arena = arena_new(64 * 1024);
	s->rg_arena = arena_new(1 << 20);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, s->file_arena);
	arena_on_reset(ctx->arena, (void (*)(void *))arena_free, s->rg_arena);
	return &s->op;
}
