/*
 * partition_stats.c — partition statistics files: write one for a
 * snapshot, set-partition-statistics (see partition_stats.h).  Spec:
 * apache/iceberg format/spec.md "Partition Statistics File".
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "format/parquet/parquet_write.h"
#include "table/partition_stats.h"
#include "table/table_private.h"
#include "types/array.h"

/* The unified partition type: every spec's fields, by field id. */
typedef struct Unified {
	int n;
	int32_t *ids;
	const char **names;
	SqlType *types;
} Unified;

typedef struct PRow {
	Value *tuple;              /* [unified n] */
	int32_t spec_id;
	int64_t data_records, data_files, data_bytes;
	int64_t pos_records, pos_files, dvs, dv_records, eq_records, eq_files;
} PRow;

static int
unified_type(const TableMetadata *md, Arena *a, Unified *u, floe_error *err)
{
	int cap = 0, s, i, j, k;

	for (s = 0; s < md->nspecs; s++)
		cap += md->specs[s].nfields;
	u->n = 0;
	u->ids = ARENA_ARRAY(a, int32_t, cap + 1);
	u->names = ARENA_ARRAY(a, const char *, cap + 1);
	u->types = ARENA_ARRAY(a, SqlType, cap + 1);
	for (s = 0; s < md->nspecs; s++)
		for (i = 0; i < md->specs[s].nfields; i++) {
			const PartitionField *pf = &md->specs[s].fields[i];
			SqlType t;
			for (j = 0; j < u->n && u->ids[j] != pf->field_id; j++)
				;
			if (j < u->n)
				continue;
			TRY(metadata_partition_type(md, &md->specs[s], i, &t, err));
			/* insert sorted by field id */
			for (j = u->n; j > 0 && u->ids[j - 1] > pf->field_id; j--)
				;
			for (k = u->n; k > j; k--) {
				u->ids[k] = u->ids[k - 1];
				u->names[k] = u->names[k - 1];
				u->types[k] = u->types[k - 1];
			}
			u->ids[j] = pf->field_id;
			u->names[j] = pf->name;
			u->types[j] = t;
			u->n++;
		}
	return FLOE_OK;
}

/* f's tuple in the unified type */
static Value *
tuple_of(const TableMetadata *md, const Unified *u, const DataFile *f, Arena *a)
{
	const PartitionSpec *sp = metadata_spec_by_id(md, f->spec_id);
	Value *t = ARENA_ARRAY(a, Value, u->n + 1);
	int i, j;

	for (i = 0; i < u->n; i++)
		t[i] = value_null(u->types[i]);
	for (j = 0; sp && j < sp->nfields && j < f->npartition; j++)
		for (i = 0; i < u->n; i++)
			if (u->ids[i] == sp->fields[j].field_id && !f->partition[j].is_null) {
				t[i] = f->partition[j];
				t[i].type = u->types[i].id == f->partition[j].type.id ? u->types[i] :
					    f->partition[j].type;
			}
	return t;
}

/* ascending, NULLs first */
static int
tuple_cmp(const Value *x, const Value *y, int n)
{
	int i, c;

	for (i = 0; i < n; i++) {
		if (x[i].is_null || y[i].is_null) {
			if (x[i].is_null != y[i].is_null)
				return x[i].is_null ? -1 : 1;
			continue;
		}
		if ((c = array_value_compare(&x[i], &y[i])) != 0)
			return c;
	}
	return 0;
}

static _Thread_local int sort_n;

static int
row_cmp(const void *a, const void *b)
{
	return tuple_cmp(((const PRow *)a)->tuple, ((const PRow *)b)->tuple, sort_n);
}

static PRow *
row_for(PRow *rows, int *nrows, Value *tuple, int n, int32_t spec_id)
{
	int i;

	for (i = 0; i < *nrows; i++)
		if (tuple_cmp(rows[i].tuple, tuple, n) == 0) {
			if (spec_id > rows[i].spec_id)
				rows[i].spec_id = spec_id;
			return &rows[i];
		}
	memset(&rows[*nrows], 0, sizeof rows[*nrows]);
	rows[*nrows].tuple = tuple;
	rows[*nrows].spec_id = spec_id;
	return &rows[(*nrows)++];
}

static bool
is_dv(const DataFile *d)
{
	return d->content == CONTENT_POSITION_DELETES && d->file_format &&
	       !strcasecmp(d->file_format, "PUFFIN");
}

/* The rows of the file: one per partition, sorted. */
static int
collect(const TableMetadata *md, const Unified *u, const DataFile *files, int nfiles, Arena *a,
	PRow **out, int *nout)
{
	int i, k, ndel, nrows = 0;
	const DataFile **dels;
	PRow *rows;

	ndel = table_scan_delete_files(files, nfiles, a, &dels);
	rows = ARENA_ARRAY(a, PRow, nfiles + ndel + 1);
	for (i = 0; i < nfiles; i++) {
		PRow *r = row_for(rows, &nrows, tuple_of(md, u, &files[i], a), u->n, files[i].spec_id);
		r->data_records += files[i].record_count;
		r->data_files++;
		r->data_bytes += files[i].file_size_in_bytes;
	}
	for (k = 0; k < ndel; k++) {
		const DataFile *d = dels[k];
		PRow *r = row_for(rows, &nrows, tuple_of(md, u, d, a), u->n, d->spec_id);
		if (d->content == CONTENT_EQUALITY_DELETES) {
			r->eq_records += d->record_count;
			r->eq_files++;
		} else if (is_dv(d)) {
			r->pos_records += d->record_count;
			r->dv_records += d->record_count;
			r->dvs++;
		} else {
			r->pos_records += d->record_count;
			r->pos_files++;
		}
	}
	sort_n = u->n;
	qsort(rows, (size_t)nrows, sizeof *rows, row_cmp);
	*out = rows;
	*nout = nrows;
	return FLOE_OK;
}

enum { C_SPEC, C_DREC, C_DFILES, C_DBYTES, C_PREC, C_PFILES, C_DVS, C_EREC, C_EFILES, C_TOTAL,
       C_UPDATED_AT, C_UPDATED_SNAP, C_N };

static const struct {
	const char *name;
	int32_t id;
	TypeId type;
	bool required;             /* in every version (6-9, 13: in v3) */
} stat_cols[C_N] = {
	[C_SPEC] = { "spec_id", 2, TYPE_INT32, true },
	[C_DREC] = { "data_record_count", 3, TYPE_INT64, true },
	[C_DFILES] = { "data_file_count", 4, TYPE_INT32, true },
	[C_DBYTES] = { "total_data_file_size_in_bytes", 5, TYPE_INT64, true },
	[C_PREC] = { "position_delete_record_count", 6, TYPE_INT64, false },
	[C_PFILES] = { "position_delete_file_count", 7, TYPE_INT32, false },
	[C_DVS] = { "dv_count", 13, TYPE_INT32, false },
	[C_EREC] = { "equality_delete_record_count", 8, TYPE_INT64, false },
	[C_EFILES] = { "equality_delete_file_count", 9, TYPE_INT32, false },
	[C_TOTAL] = { "total_record_count", 10, TYPE_INT64, false },
	[C_UPDATED_AT] = { "last_updated_at", 11, TYPE_INT64, false },
	[C_UPDATED_SNAP] = { "last_updated_snapshot_id", 12, TYPE_INT64, false },
};

static int64_t
stat_value(const PRow *r, int c, bool *null)
{
	*null = false;
	switch (c) {
	case C_SPEC: return r->spec_id;
	case C_DREC: return r->data_records;
	case C_DFILES: return r->data_files;
	case C_DBYTES: return r->data_bytes;
	case C_PREC: return r->pos_records;
	case C_PFILES: return r->pos_files;
	case C_DVS: return r->dvs;
	case C_EREC: return r->eq_records;
	case C_EFILES: return r->eq_files;
	case C_TOTAL:
		if (r->eq_files || r->pos_files)
			break;
		return r->data_records - r->dv_records;
	default:
		break;
	}
	*null = true;
	return 0;
}

static int
write_rows(const TableMetadata *md, const Unified *u, const PRow *rows, int nrows, Arena *a,
	   const uint8_t **data, size_t *len, floe_error *err)
{
	bool v3 = md->format_version >= 3;
	int ncols = 0, c, i, r0;
	int *stat_of;
	ParquetWriteColumn *cols = ARENA_ARRAY(a, ParquetWriteColumn, u->n + C_N + 1);
	SqlType *types = ARENA_ARRAY(a, SqlType, u->n + C_N + 1);
	ParquetWriteOptions o;
	ParquetWriter *w;
	const uint8_t *d;
	int rc = FLOE_ERR;

	stat_of = ARENA_ARRAY(a, int, u->n + C_N + 1);
	for (i = 0; i < u->n; i++, ncols++) {
		cols[ncols].name = u->names[i];
		cols[ncols].field_id = u->ids[i];
		cols[ncols].type = types[ncols] = u->types[i];
		stat_of[ncols] = -1;
	}
	for (c = 0; c < C_N; c++) {
		if (c == C_DVS && !v3)
			continue;
		cols[ncols].name = stat_cols[c].name;
		cols[ncols].field_id = stat_cols[c].id;
		cols[ncols].type = types[ncols] = type_make(stat_cols[c].type);
		cols[ncols].required = stat_cols[c].required ||
			(v3 && c >= C_PREC && c <= C_EFILES);
		stat_of[ncols++] = c;
	}
	parquet_write_options_init(&o);
	o.group = "partition";          /* field 1, the unified partition tuple */
	o.group_field_id = 1;
	o.group_first = 0;
	o.group_count = u->n;
	if (!(w = parquet_writer_new(cols, ncols, &o)))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "partition statistics: a partition field of a type Parquet cannot hold");
	for (r0 = 0; r0 < nrows; r0 += VECTOR_SIZE) {
		int n = nrows - r0 < VECTOR_SIZE ? nrows - r0 : VECTOR_SIZE;
		Batch *b = batch_new(a, ncols, types, (uint32_t)n);
		for (i = 0; i < n; i++)
			for (c = 0; c < ncols; c++) {
				Value v;
				if (stat_of[c] < 0) {
					v = rows[r0 + i].tuple[c];
				} else {
					bool null;
					int64_t x = stat_value(&rows[r0 + i], stat_of[c], &null);
					v = null ? value_null(types[c]) : value_int(types[c].id, x);
				}
				vector_set_value(&b->cols[c], (uint32_t)i, &v);
			}
		b->count = (uint32_t)n;
		if (parquet_writer_write(w, b, err) != FLOE_OK)
			goto done;
	}
	if (parquet_writer_finish(w, &d, len, err) != FLOE_OK)
		goto done;
	*data = arena_memdup(a, d, *len);
	rc = FLOE_OK;
done:
	parquet_writer_free(w);
	return rc;
}

int
partition_stats_write(FileIO *io, const TableMetadata *md, int64_t snapshot_id,
		      const DataFile *files, int nfiles, Arena *a, PartitionStatsFile *out,
		      floe_error *err)
{
	Unified u;
	PRow *rows;
	int nrows;
	const uint8_t *data;
	size_t len;
	char *path;

	memset(out, 0, sizeof *out);
	out->snapshot_id = snapshot_id;
	TRY(unified_type(md, a, &u, err));
	if (u.n == 0)
		return FLOE_OK;
	TRY(collect(md, &u, files, nfiles, a, &rows, &nrows));
	TRY(write_rows(md, &u, rows, nrows, a, &data, &len, err));
	path = arena_sprintf(a, "%s/partition-stats-%" PRId64 "-%s.parquet", table__metadata_dir(md, a),
			     snapshot_id, table__new_uuid(a));
	TRY(fileio_write(io, path, data, len, err));
	out->path = path;
	out->file_size_in_bytes = (int64_t)len;
	out->nrows = nrows;
	return FLOE_OK;
}

static void
decref_cb(void *j)
{
	json_decref(j);
}

const char *
partition_stats_set(TableMetadata *md, const PartitionStatsFile *ps, Arena *a)
{
	json_t *extra = md->extra ? json_deep_copy(md->extra) : json_object();
	json_t *old = json_object_get(extra, "partition-statistics"), *list = json_array(), *e;
	const char *replaced = NULL;
	size_t i;

	json_array_foreach(old, i, e) {
		json_t *sid = json_object_get(e, "snapshot-id");
		if (json_is_integer(sid) && json_integer_value(sid) == ps->snapshot_id) {
			const char *p = json_string_value(json_object_get(e, "statistics-path"));
			if (p && strcmp(p, ps->path))
				replaced = arena_strdup(a, p);
			continue;
		}
		json_array_append(list, e);
	}
	e = json_object();
	json_object_set_new(e, "snapshot-id", json_integer(ps->snapshot_id));
	json_object_set_new(e, "statistics-path", json_string(ps->path));
	json_object_set_new(e, "file-size-in-bytes", json_integer((json_int_t)ps->file_size_in_bytes));
	json_array_append_new(list, e);
	json_object_set_new(extra, "partition-statistics", list);
	arena_on_reset(a, decref_cb, extra);
	md->extra = extra;
	return replaced;
}
