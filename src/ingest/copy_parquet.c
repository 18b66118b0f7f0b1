/*
 * copy_parquet.c — COPY ... (FORMAT parquet): a query's rows into one
 * Parquet file, and Parquet files' columns into a COPY's columns
 * (copyfmt.h has the rules).
 *
 * Spec: apache/parquet-format (the writer and reader in format/parquet);
 * the files carry no Iceberg field ids (field_id absent), so any Parquet
 * reader reads them by name, and the reader matches columns by name.
 *
 * Reading checks every file's footer before a row is read: each COPY
 * column must be a top-level column of the file whose type is the
 * target's or widens to it without loss (smallint -> integer -> bigint,
 * real -> double precision, decimal to a wider decimal, text to
 * varchar/char, timestamp nanoseconds read as microseconds by the
 * reader); the rows are then read by exec/scan.c as read_parquet's are.
 *
 * INTERFACE ROUTINES (copyfmt.h)
 *   copypq_write, copypq_reader_new
 */
#include <string.h>
#include "common/error.h"
#include "format/parquet/parquet.h"
#include "format/parquet/parquet_write.h"
#include "ingest/copyfmt.h"
#include "sql/acl.h"
#include "table/iceberg.h"
#include "types/array.h"

int
copypq_write(ExecCtx *ctx, Operator *root, char **names, const SqlType *types, int ncols,
	     CopyWriteFn out, void *octx, int64_t *rows)
{
	floe_error *err = ctx->err;
	ParquetWriteColumn *cols = ARENA_ARRAY(ctx->arena, ParquetWriteColumn, ncols + 1);
	ParquetWriter *w;
	const uint8_t *data;
	size_t len, off;
	Batch *b;
	int c, rc = FLOE_ERR;

	*rows = 0;
	for (c = 0; c < ncols; c++) {
		char tn[64];
		if (types[c].id == TYPE_INTERVAL || types[c].id == TYPE_NULL ||
		    (types[c].id == TYPE_ARRAY &&     /* a list of a primitive is written */
		     (types[c].vector || array_elem_type(types[c]).id == TYPE_INTERVAL ||
		      !array_elem_supported(array_elem_type(types[c])))))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "COPY FORMAT parquet cannot write column \"%s\" of type %s", names[c],
					   type_name(types[c], tn, sizeof tn));
		cols[c].name = names[c];
		cols[c].field_id = -1;
		cols[c].type = types[c];
		cols[c].required = false;
		cols[c].elem_field_id = -1;
		cols[c].elem_required = false;
	}
	if (!(w = parquet_writer_new(cols, ncols, NULL)))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY FORMAT parquet cannot write these column types");
	if (op_open(root) != FLOE_OK)
		goto done;
	for (;;) {
		if (op_next(root, &b) != FLOE_OK)
			goto done;
		if (!b)
			break;
		if (!b->count)
			continue;
		if (parquet_writer_write(w, b, err) != FLOE_OK)
			goto done;
		*rows += b->count;
	}
	if (parquet_writer_finish(w, &data, &len, err) != FLOE_OK)
		goto done;
	for (off = 0; off < len; off += 1 << 20) {
		size_t n = len - off < (1 << 20) ? len - off : (1 << 20);
		if (out(octx, (const char *)data + off, n) != 0) {
			floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
			goto done;
		}
	}
	rc = FLOE_OK;
done:
	op_close(root);
	parquet_writer_free(w);
	return rc;
}

/* may a file column of type f be read into a column of type t? */
static bool
widens(SqlType f, SqlType t)
{
	if (f.id == t.id) {
		if (f.id == TYPE_DECIMAL)
			return t.precision == 0 ||
			       (f.scale <= t.scale && f.precision - f.scale <= t.precision - t.scale);
		return f.id != TYPE_ARRAY || f.elem == t.elem;
	}
	if (f.id == TYPE_INT16 && (t.id == TYPE_INT32 || t.id == TYPE_INT64))
		return true;
	if (f.id == TYPE_INT32 && t.id == TYPE_INT64)
		return true;
	return f.id == TYPE_FLOAT32 && t.id == TYPE_FLOAT64;
}

int
copypq_reader_new(ExecCtx *ctx, struct Session *s, FileIO *io, char **paths, int npaths, int ncols,
		  const SqlType *types, char **names, Operator **out)
{
	floe_error *err = ctx->err;
	IcebergSchema *schema = ARENA_NEW(ctx->arena, IcebergSchema);
	DataFile *files = ARENA_ARRAY(ctx->arena, DataFile, npaths + 1);
	int *proj = ARENA_ARRAY(ctx->arena, int, ncols + 1);
	int i, c, k;

	schema->nfields = ncols;
	schema->fields = ARENA_ARRAY(ctx->arena, IcebergField, ncols + 1);
	for (c = 0; c < ncols; c++) {
		schema->fields[c].id = -1;
		schema->fields[c].name = names[c];
		schema->fields[c].type = types[c];
		proj[c] = c;
	}
	for (i = 0; i < npaths; i++) {
		const uint8_t *data;
		size_t len;
		ParquetFile *pf;
		TRY(acl_read_file(s, io, paths[i], ctx->arena, &data, &len, err));
		TRY(parquet_open(&pf, data, len, paths[i], ctx->arena, err));
		for (c = 0; c < ncols; c++) {
			const ParquetColumn *pc = NULL;
			char t1[64], t2[64];
			for (k = 0; k < parquet_num_columns(pf); k++) {
				const ParquetColumn *x = parquet_column(pf, k);
				if (!x->nested && !strcmp(x->name, names[c])) {
					pc = x;
					break;
				}
			}
			if (!pc)
				return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
						   "column \"%s\" is not in Parquet file \"%s\"", names[c], paths[i]);
			if (pc->type.id == TYPE_NULL || !widens(pc->type, types[c]))
				return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
						   "column \"%s\" is of type %s but Parquet file \"%s\" has %s",
						   names[c], type_name(types[c], t1, sizeof t1), paths[i],
						   pc->type.id == TYPE_NULL ? "an unsupported type" :
						   type_name(pc->type, t2, sizeof t2));
		}
		files[i].content = 0;
		files[i].file_path = paths[i];
		files[i].file_format = "PARQUET";
		files[i].record_count = parquet_num_rows(pf);
		files[i].file_size_in_bytes = (int64_t)len;
		files[i].bytes = data;          /* the scan reads these, not the path */
		files[i].nbytes = len;
	}
	*out = scan_new(ctx, schema, ncols, proj, files, npaths, true, NULL);
	return *out ? FLOE_OK : FLOE_ERR;
}
