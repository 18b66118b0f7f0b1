/*
 * register.c — REGISTER FILES INTO t FROM '<location>' (register.h has the
 * statement; docs/loading.md the behaviour).
 *
 * Order of work (nothing is committed before step 6):
 *   1. the options after the location's literal (FILE_FORMAT PARQUET only;
 *      another format 0A000, anything else 42601); a table with a
 *      PRIMARY KEY 0A000 (the files' keys are not checked); inside a
 *      transaction block 25001 (a block's ROLLBACK deletes the data files it added:
 *      these are the user's files);
 *   2. the files: stage_resolve of the location, then a glob (split at the
 *      last '/' before the first * ? [, fnmatch(3) with FNM_PATHNAME on the
 *      folder's listing) or stage_list (file, folder, prefix); each one
 *      allowed as a COPY server-file read (acl_check_file); none: 58P01;
 *   3. per file: the PAR1 magic at both ends (else 22P04), the footer
 *      (format/parquet), and its top-level columns matched BY NAME to the
 *      current schema's fields:
 *        - a required field the file lacks: 42703 naming the file;
 *        - a type that is not the field's or an Iceberg promotion of it
 *          (int -> long, float -> double, decimal(P,S) -> decimal(P',S)
 *          with P' >= P; smallint files into int / bigint): 42804 naming
 *          file and column; varchar(n) / char(n) fields 0A000 (the lengths
 *          would have to be read); a nested field the file has 0A000; so
 *          are values other readers would read differently (nanosecond
 *          timestamps, unsigned 32/64-bit integers, float16);
 *        - a field id in the file that is not the field's (or, without
 *          ids, a name mapping that maps the name elsewhere): 42804;
 *        - file columns the table lacks: one WARNING for the statement
 *          (42804 when such a column has a field id: a column added later
 *          with that id would read it);
 *        - a required field with NULLs: 23502;
 *   4. per matched field a ColumnStat: value_count = rows, null_count =
 *      the chunks' null counts (a chunk without one is read to count),
 *      nan_count of float / double columns (the chunks are read: footers
 *      carry no NaN counts), lower / upper bounds = min / max over the row
 *      groups as the table type (absent when a row group with values has
 *      none), column_size = the chunks' bytes; split_offsets = the row
 *      groups' first bytes.  A nullable field the file lacks: all NULL;
 *   5. a partitioned table (default spec): per spec field, the transform
 *      of the source column's min and of its max; equal (and no NULLs),
 *      or all NULL -> the tuple value, else the file spans partitions
 *      (bucket: unless min = max) and is refused (22023 naming file and
 *      field);
 *   6. a file already live in the table (by path): 42710; then ONE append
 *      commit of all the files; when the files carry no field ids and the
 *      table has no schema.name-mapping.default, the same commit sets that
 *      property (TableChange.init_props: the current schema's top-level
 *      names -> ids, so readers that match by id read the files; a failed
 *      REGISTER leaves none).  TableChange.rebase_check repeats the
 *      duplicate check on a concurrent head the commit is re-based on, and
 *      checks a mapping that head gained (kept: it must map the names to
 *      the same ids, else 40001); a failed commit deletes nothing (the
 *      files stay the user's);
 *   7. the output row files_registered | rows_registered | bytes_registered.
 *
 * Files are read by up to floe.register_parallel_reads readers at once
 * (default 16; read_footers, reader_main: object storage is round-trip
 * bound), each file in an arena of its own freed before its reader's next
 * file (only the entries stay, in the reader's arena); the files are
 * claimed in order and the error is the lowest-numbered failing file's,
 * so the result and the error are a serial loop's.  A local file is read
 * through acl_read_file (mapped, so only the pages read are touched), an
 * object sparsely (its head and footer, then only the chunks that must be
 * read: stage_read_sparse, fetch_chunk; an object of at most 64 KiB is read
 * whole by the first request).
 *
 * INTERFACE ROUTINES (register.h)
 *   register_is, register_exec
 */
#include <ctype.h>
#include <fnmatch.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "exec/exec.h"
#include "format/parquet/parquet.h"
#include "ingest/copyinto.h"
#include "ingest/register.h"
#include "ingest/stage.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/pgcatalog.h"
#include "sql/txn.h"
#include "sql/write_target.h"
#include "storage/fileio.h"
#include "table/data_writer.h"
#include "table/metadata.h"
#include "table/partition.h"
#include "table/table.h"
#include "types/array.h"

#define REGISTER_MAX_FILES 10000
#define REGISTER_PARALLEL_DEFAULT 16

/* ---- the statement text ----------------------------------------------------- */

/* the word of length n ending at sql[i] (case-insensitive), preceded by a
 * blank, ';' or the text's start */
static bool
word_before(const char *sql, int i, const char *w, int n)
{
	return i >= n - 1 && !strncasecmp(sql + i - n + 1, w, (size_t)n) &&
	       (i == n - 1 || isspace((unsigned char)sql[i - n]) || sql[i - n] == ';');
}

static int
skip_back(const char *sql, int i)
{
	while (i > 0 && isspace((unsigned char)sql[i]))
		i--;
	return i;
}

bool
register_is(const char *sql, const PgQuery__CopyStmt *st)
{
	int i;

	if (!sql || !st->relation || st->relation->location < 20 || !st->is_from)
		return false;
	i = skip_back(sql, st->relation->location - 1);
	if (!word_before(sql, i, "into", 4))
		return false;
	i = skip_back(sql, i - 4);
	if (!word_before(sql, i, "files", 5))
		return false;
	i = skip_back(sql, i - 5);
	return word_before(sql, i, "register", 8);
}

/* one word (letters, digits, '_') or one punctuation character at *p */
static const char *
token(const char **pp, char *buf, size_t cap)
{
	const char *p = *pp;
	size_t n = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (p[0] == '-' && p[1] == '-') {
		while (*p && *p != '\n')
			p++;
		*pp = p;
		return token(pp, buf, cap);
	}
	if (!*p || *p == ';') {
		*pp = p;
		return NULL;
	}
	if (isalnum((unsigned char)*p) || *p == '_') {
		while ((isalnum((unsigned char)*p) || *p == '_') && n + 1 < cap)
			buf[n++] = *p++;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
	} else {
		buf[n++] = *p++;
	}
	buf[n] = 0;
	*pp = p;
	return buf;
}

static int
syntax(floe_error *err)
{
	return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
			   "REGISTER FILES INTO t FROM '<location>' takes only FILE_FORMAT PARQUET");
}

static int
check_format(const char *fmt, floe_error *err)
{
	if (!strcasecmp(fmt, "parquet"))
		return FLOE_OK;
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "REGISTER FILES registers Parquet files only, not FILE_FORMAT %s", fmt);
}

/* [FILE_FORMAT [=] PARQUET | FILE_FORMAT = (TYPE = PARQUET)] */
static int
parse_options(const char *p, floe_error *err)
{
	char t[64];

	if (!token(&p, t, sizeof t))
		return FLOE_OK;
	if (strcasecmp(t, "file_format"))
		return syntax(err);
	if (!token(&p, t, sizeof t))
		return syntax(err);
	if (!strcmp(t, "=") && !token(&p, t, sizeof t))
		return syntax(err);
	if (!strcmp(t, "(")) {
		if (!token(&p, t, sizeof t) || strcasecmp(t, "type") || !token(&p, t, sizeof t) ||
		    strcmp(t, "=") || !token(&p, t, sizeof t))
			return syntax(err);
		if (!isalnum((unsigned char)t[0]))
			return syntax(err);
		TRY(check_format(t, err));
		if (!token(&p, t, sizeof t) || strcmp(t, ")"))
			return syntax(err);
	} else {
		if (!isalnum((unsigned char)t[0]))
			return syntax(err);
		TRY(check_format(t, err));
	}
	return token(&p, t, sizeof t) ? syntax(err) : FLOE_OK;
}

/* ---- the files ------------------------------------------------------------ */

/* the files of a glob: the folder's listing (stage_list, recursive) matched
 * against the whole pattern, a '*' never crossing a '/' */
static int
list_glob(Session *s, const char *pattern, Arena *a, StageFile **files, int *n, floe_error *err)
{
	const char *meta = strpbrk(pattern, "*?["), *slash;
	char *folder;
	StageFile *all;
	int nall, i, k = 0;

	for (slash = meta; slash > pattern && *slash != '/'; slash--)
		;
	if (*slash != '/')
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "REGISTER FILES needs a folder before the pattern in \"%s\"", pattern);
	folder = arena_strndup(a, pattern, (size_t)(slash - pattern) + 1);
	TRY(acl_check_file(s, folder, false, err));
	TRY(stage_list(s, folder, a, &all, &nall, err));
	*files = ARENA_ARRAY(a, StageFile, nall + 1);
	for (i = 0; i < nall; i++)
		if (fnmatch(pattern, all[i].path, FNM_PATHNAME) == 0)
			(*files)[k++] = all[i];
	*n = k;
	return FLOE_OK;
}

/* a path as a manifest compares it: without "file:" / "file://" */
static const char *
plain_path(const char *p)
{
	if (!strncmp(p, "file://", 7))
		return p + 7;
	if (!strncmp(p, "file:", 5))
		return p + 5;
	return p;
}

/* ---- one file's footer ----------------------------------------------------- */

typedef struct RegFile {
	DataFile df;
	const char *path;
	bool has_ids;        /* its matched columns carry field ids */
	int nextra;          /* its columns the table lacks */
	const char *extra_col;    /* the first of them */
} RegFile;

typedef struct Reg {
	Session *s;
	ExecCtx *ctx;
	Arena *a;
	Table *t;
	const char *tname;
	const IcebergSchema *schema;
	const PartitionSpec *spec;
	PartitionTransform *tr;     /* per spec field */
	int *spec_src;              /* per spec field: the schema field index, -1 none */
	const NameMapping *nm;
	Arena *fa;                  /* the file being checked: its bytes, footer */
	uint8_t *sparse;            /* its buffer when read sparsely (an object) */
	const char *sparse_path;
} Reg;

static int fetch_chunk(Reg *g, ParquetFile *pf, int rg, int col, floe_error *err);

/* may a file column of type f be registered as a field of type t (the
 * field's Iceberg type, iceberg)?  Iceberg's promotions only. */
static bool
promotes(SqlType f, SqlType t)
{
	if (f.id == t.id) {
		if (f.id == TYPE_DECIMAL)
			return f.scale == t.scale && (t.precision == 0 || f.precision <= t.precision);
		return f.id != TYPE_ARRAY;
	}
	if (f.id == TYPE_INT16 && (t.id == TYPE_INT32 || t.id == TYPE_INT64))
		return true;
	if (f.id == TYPE_INT32 && t.id == TYPE_INT64)
		return true;
	return f.id == TYPE_FLOAT32 && t.id == TYPE_FLOAT64;
}

/* the nulls and NaNs of column col in row group rg, by reading it */
static int
count_chunk(ParquetFile *pf, int rg, int col, SqlType type, Arena *a, int64_t *nulls, int64_t *nans,
	    floe_error *err)
{
	ParquetColumnReader *r;
	Vector v;
	uint32_t got, i;
	const uint32_t cap = 4096;
	Arena *ra = arena_new(1 << 20);
	int rc = FLOE_ERR;

	(void)a;
	*nulls = *nans = 0;
	if (parquet_column_reader_open(&r, pf, rg, col, ra, err) != FLOE_OK)
		goto done;
	vector_init(&v, type, ra, cap);
	for (;;) {
		if (v.validity)
			memset(v.validity, 0xff, (cap + 63) / 64 * sizeof(uint64_t));
		if (parquet_column_read(r, &v, cap, &got, err) != FLOE_OK)
			goto done;
		if (!got)
			break;
		for (i = 0; i < got; i++) {
			if (!vector_is_valid(&v, i))
				(*nulls)++;
			else if (type.id == TYPE_FLOAT32 && isnan(((const float *)v.data)[i]))
				(*nans)++;
			else if (type.id == TYPE_FLOAT64 && isnan(((const double *)v.data)[i]))
				(*nans)++;
		}
	}
	rc = FLOE_OK;
done:
	arena_free(ra);
	return rc;
}

/* The ColumnStat of table field fld from file column col; *lo / *hi the
 * bounds as Values of the field's type (is_null: none). */
static int
column_stat(Reg *g, ParquetFile *pf, const char *path, int col, const IcebergField *fld, ColumnStat *cs,
	    Value *lo, Value *hi)
{
	floe_error *err = g->ctx->err;
	const ParquetColumn *pc = parquet_column(pf, col);
	int nrg = parquet_num_row_groups(pf), rg;
	bool bounds = true, isfloat = pc->type.id == TYPE_FLOAT32 || pc->type.id == TYPE_FLOAT64;

	memset(cs, 0, sizeof *cs);
	cs->field_id = fld->id;
	cs->value_count = parquet_num_rows(pf);
	cs->nan_count = isfloat ? 0 : -1;
	*lo = value_null(fld->type);
	*hi = value_null(fld->type);
	for (rg = 0; rg < nrg; rg++) {
		ParquetStats ps;
		uint64_t off, len;
		int64_t rows = parquet_row_group_num_rows(pf, rg);
		if (parquet_chunk_range(pf, rg, col, &off, &len))
			cs->column_size += (int64_t)len;
		TRY(parquet_column_stats(pf, rg, col, &ps, err));
		if (!ps.has_null_count || isfloat) {
			int64_t nulls, nans;
			TRY(fetch_chunk(g, pf, rg, col, err));
			TRY(count_chunk(pf, rg, col, pc->type, g->a, &nulls, &nans, err));
			ps.has_null_count = true;
			ps.null_count = nulls;
			cs->nan_count += isfloat ? nans : 0;
		}
		cs->null_count += ps.null_count;
		if (ps.null_count >= rows)
			continue;                 /* all NULL: no values to bound */
		if (!ps.has_min_max) {
			bounds = false;
			continue;
		}
		ps.min.type = fld->type;          /* the promotions keep the value */
		ps.max.type = fld->type;
		ps.min.is_null = ps.max.is_null = false;
		if (lo->is_null || array_value_compare(&ps.min, lo) < 0)
			*lo = ps.min;
		if (hi->is_null || array_value_compare(&ps.max, hi) > 0)
			*hi = ps.max;
	}
	if (fld->required && cs->null_count > 0)
		return floe_errorf(err, ERRCODE_NOT_NULL_VIOLATION,
				   "column \"%s\" of table \"%s\" is NOT NULL but Parquet file \"%s\" has %lld NULLs in it",
				   fld->name, g->tname, path, (long long)cs->null_count);
	if (!bounds) {
		*lo = value_null(fld->type);
		*hi = value_null(fld->type);
	}
	if (!lo->is_null && !data_writer_bound(fld->type, lo, false, g->a, &cs->lower, &cs->lower_len))
		cs->lower = NULL;
	if (!hi->is_null && !data_writer_bound(fld->type, hi, true, g->a, &cs->upper, &cs->upper_len))
		cs->upper = NULL;
	return FLOE_OK;
}

/* a sparse file's chunk (rg, col) copied in before it is read */
static int
fetch_chunk(Reg *g, ParquetFile *pf, int rg, int col, floe_error *err)
{
	uint64_t off, len;
	FileIORange r;
	Arena *ra;
	int rc;

	if (!g->sparse || !parquet_chunk_range(pf, rg, col, &off, &len) || !len)
		return FLOE_OK;
	r.off = off;
	r.len = len;
	r.data = NULL;
	ra = arena_new(1 << 16);
	rc = fileio_read_ranges(g->ctx->io, g->sparse_path, &r, 1, ra, err);
	if (rc == FLOE_OK)
		memcpy(g->sparse + off, r.data, (size_t)len);
	arena_free(ra);
	return rc;
}

static int
check_file(Reg *g, RegFile *rf, const StageFile *sf)
{
	floe_error *err = g->ctx->err;
	const IcebergSchema *sc = g->schema;
	const uint8_t *data;
	size_t len;
	ParquetFile *pf;
	int ncol, c, i, k, nrg, nid = 0, nmatched = 0;
	int *match = ARENA_ARRAY(g->fa, int, sc->nfields + 1);     /* field -> file column */
	Value *lo = ARENA_ARRAY(g->fa, Value, sc->nfields + 1), *hi = ARENA_ARRAY(g->fa, Value, sc->nfields + 1);
	int64_t *nulls = ARENA_ARRAY(g->fa, int64_t, sc->nfields + 1);
	DataFile *df = &rf->df;
	const char *path = sf->path;

	rf->nextra = 0;
	rf->extra_col = NULL;
	TRY(acl_check_file(g->s, path, false, err));
	g->sparse = NULL;
	if (fileio_is_remote(path) && sf->size >= 12) {
		bool whole;
		TRY(stage_read_sparse(g->ctx->io, path, sf->size, g->fa, &data, &whole, err));
		len = (size_t)sf->size;
		g->sparse = whole ? NULL : (uint8_t *)data;
		g->sparse_path = path;
	} else {
		TRY(acl_read_file(g->s, g->ctx->io, path, g->fa, &data, &len, err));
	}
	if (len < 12 || memcmp(data, "PAR1", 4) || memcmp(data + len - 4, "PAR1", 4))
		return floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
				   "file \"%s\" is not a Parquet file (no PAR1 magic at its start and end)", path);
	TRY(parquet_open(&pf, data, len, path, g->fa, err));
	ncol = parquet_num_columns(pf);

	/* match the table's fields to the file's columns by name */
	for (i = 0; i < sc->nfields; i++) {
		const IcebergField *fld = &sc->fields[i];
		match[i] = -1;
		for (c = 0; c < ncol; c++) {
			const ParquetColumn *pc = parquet_column(pf, c);
			if (!strcmp(pc->nested ? pc->top_name : pc->name, fld->name))
				break;
		}
		if (c == ncol) {
			if (fld->required)
				return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
						   "Parquet file \"%s\" has no column \"%s\", a NOT NULL column of table \"%s\"",
						   path, fld->name, g->tname);
			continue;
		}
		{
			const ParquetColumn *pc = parquet_column(pf, c);
			char t1[64], t2[64];
			if (fld->nested || pc->nested || fld->type.id == TYPE_ARRAY)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "REGISTER FILES cannot register nested column \"%s\" (Parquet file \"%s\")",
						   fld->name, path);
			if (fld->type.id == TYPE_TEXT && fld->type.typmod >= 0)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "REGISTER FILES cannot check the length limit of column \"%s\" of type %s (Parquet file \"%s\")",
						   fld->name, type_name(fld->type, t1, sizeof t1), path);
			if (pc->type.id == TYPE_NULL || !promotes(pc->type, fld->type))
				return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
						   "column \"%s\" is of type %s but Parquet file \"%s\" has %s",
						   fld->name, type_name(fld->type, t1, sizeof t1), path,
						   pc->type.id == TYPE_NULL ? "an unsupported type" :
						   type_name(pc->type, t2, sizeof t2));
			if ((pc->time_unit == PQ_UNIT_NANOS && pc->physical_type == PQ_INT64) ||
			    (pc->is_unsigned && pc->type.id != TYPE_INT32) || pc->logical_type == PQ_LT_FLOAT16)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "REGISTER FILES cannot register column \"%s\" of Parquet file \"%s\": its %s values are not what Iceberg readers read as %s",
						   fld->name, path, pc->time_unit == PQ_UNIT_NANOS ? "nanosecond" :
						   pc->is_unsigned ? "unsigned" : "half-precision",
						   type_name(fld->type, t1, sizeof t1));
			if (pc->field_id >= 0 && pc->field_id != fld->id)
				return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
						   "column \"%s\" of Parquet file \"%s\" has field id %d, but the table's column has %d",
						   fld->name, path, (int)pc->field_id, (int)fld->id);
			if (pc->field_id < 0 && g->nm && name_mapping_id(g->nm, fld->name) != fld->id)
				return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
						   "the name mapping of table \"%s\" maps column \"%s\" to field id %d, not %d",
						   g->tname, fld->name, (int)name_mapping_id(g->nm, fld->name),
						   (int)fld->id);
			nid += pc->field_id >= 0;
			nmatched++;
			match[i] = c;
		}
	}
	if (nid && nid != nmatched)
		return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
				   "Parquet file \"%s\" has field ids on some of its columns only", path);
	rf->has_ids = nid > 0;
	for (c = 0; c < ncol; c++) {
		const ParquetColumn *pc = parquet_column(pf, c);
		const char *nm = pc->nested ? pc->top_name : pc->name;
		for (i = 0; i < sc->nfields && strcmp(sc->fields[i].name, nm); i++)
			;
		if (i == sc->nfields) {
			/* a later column given that id would read it */
			if (pc->field_id >= 0 || pc->top_field_id >= 0)
				return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
						   "Parquet file \"%s\" has column \"%s\" with field id %d, which table \"%s\" does not have",
						   path, nm, (int)(pc->nested ? pc->top_field_id : pc->field_id), g->tname);
			if (!rf->nextra++)
				rf->extra_col = arena_strdup(g->a, nm);
		}
	}

	/* the entry */
	memset(df, 0, sizeof *df);
	df->content = CONTENT_DATA;
	df->file_path = (char *)path;
	df->file_format = "PARQUET";
	df->spec_id = g->spec ? g->spec->spec_id : 0;
	df->record_count = parquet_num_rows(pf);
	df->file_size_in_bytes = (int64_t)len;
	df->columns = ARENA_ARRAY(g->a, ColumnStat, sc->nfields + 1);
	for (i = 0; i < sc->nfields; i++) {
		const IcebergField *fld = &sc->fields[i];
		if (match[i] < 0) {
			if (fld->nested) {
				lo[i] = value_null(fld->type);
				hi[i] = lo[i];
				nulls[i] = df->record_count;
				continue;
			}
			ColumnStat *cs = &df->columns[df->ncolumns++];
			memset(cs, 0, sizeof *cs);
			cs->field_id = fld->id;
			cs->value_count = cs->null_count = df->record_count;
			cs->nan_count = -1;
			cs->column_size = -1;
			lo[i] = value_null(fld->type);
			hi[i] = lo[i];
			nulls[i] = df->record_count;
			continue;
		}
		TRY(column_stat(g, pf, path, match[i], fld, &df->columns[df->ncolumns], &lo[i], &hi[i]));
		nulls[i] = df->columns[df->ncolumns].null_count;
		df->ncolumns++;
	}
	nrg = parquet_num_row_groups(pf);
	df->split_offsets = ARENA_ARRAY(g->a, int64_t, nrg + 1);
	for (k = 0; k < nrg; k++) {
		uint64_t off = UINT64_MAX, o, l;
		for (c = 0; c < ncol; c++)
			if (parquet_chunk_range(pf, k, c, &o, &l) && o < off)
				off = o;
		if (off != UINT64_MAX && (!df->nsplit_offsets || (int64_t)off > df->split_offsets[df->nsplit_offsets - 1]))
			df->split_offsets[df->nsplit_offsets++] = (int64_t)off;
	}

	/* the partition tuple from the source columns' bounds */
	if (g->spec && g->spec->nfields) {
		df->npartition = g->spec->nfields;
		df->partition = ARENA_ARRAY(g->a, Value, g->spec->nfields);
		for (k = 0; k < g->spec->nfields; k++) {
			const PartitionField *pfd = &g->spec->fields[k];
			int src = g->spec_src[k];
			Value a, b;
			SqlType rt;
			TRY(partition_transform_type(&g->tr[k], sc->fields[src].type, &rt, err));
			if (g->tr[k].kind == PT_VOID || nulls[src] == df->record_count) {
				df->partition[k] = value_null(rt);
				continue;
			}
			if (nulls[src] > 0)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "Parquet file \"%s\" spans partitions of field \"%s\" of table \"%s\" (NULL and other values of column \"%s\")",
						   path, pfd->name, g->tname, sc->fields[src].name);
			if (lo[src].is_null || hi[src].is_null)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "Parquet file \"%s\" has no min/max statistics for column \"%s\": its value of partition field \"%s\" cannot be derived",
						   path, sc->fields[src].name, pfd->name);
			TRY(partition_transform_value(&g->tr[k], &lo[src], &a, g->a, err));
			TRY(partition_transform_value(&g->tr[k], &hi[src], &b, g->a, err));
			if (array_value_compare(&a, &b) != 0 ||
			    (g->tr[k].kind == PT_BUCKET && array_value_compare(&lo[src], &hi[src]) != 0))
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "Parquet file \"%s\" spans partitions of field \"%s\" of table \"%s\" (column \"%s\" from its min to its max)",
						   path, pfd->name, g->tname, sc->fields[src].name);
			df->partition[k] = a;
		}
	}
	return FLOE_OK;
}

/* ---- the footers, read in parallel ------------------------------------------ */

typedef struct RegPar {
	const Reg *g;               /* each reader checks on a copy of its own */
	ExecCtx **wctx;             /* per reader: its arena (the entries), its error */
	const StageFile *sf;
	RegFile *rf;
	int nfiles;
	atomic_int next;            /* the next file to claim */
	atomic_int failed;          /* the lowest failing file so far; nfiles: none */
	pthread_mutex_t mu;
	floe_error err;             /* file `failed`'s error */
} RegPar;

/* A reader: claims files in order and checks each; stops at the end or
 * past the lowest file that failed.  Every file before that one is
 * checked (claimed before it), so the error is the one a serial loop
 * would have stopped at. */
static int
reader_main(void *arg, int wi, ParRun *pr)
{
	RegPar *p = arg;
	ExecCtx *w = p->wctx[wi];
	Reg g = *p->g;
	int i, rc;

	(void)pr;
	g.ctx = w;
	g.a = w->arena;
	for (;;) {
		i = atomic_fetch_add(&p->next, 1);
		if (i >= p->nfiles || i > atomic_load(&p->failed))
			break;
		/* the file's bytes and footer live until the next file */
		rc = exec_check_cancel(w);
		if (rc == FLOE_OK) {
			g.fa = arena_new(1 << 16);
			rc = check_file(&g, &p->rf[i], &p->sf[i]);
			arena_free(g.fa);
		}
		if (rc != FLOE_OK) {
			pthread_mutex_lock(&p->mu);
			if (i < atomic_load(&p->failed)) {
				p->err = *w->err;
				atomic_store(&p->failed, i);
			}
			pthread_mutex_unlock(&p->mu);
			floe_error_clear(w->err);
		}
	}
	return FLOE_OK;
}

/* floe.register_parallel_reads: footers read at once (1..64, default 16) */
static int
parallel_reads(Session *s, int *n, floe_error *err)
{
	const char *v = session_setting(s, "floe.register_parallel_reads");
	char *end;
	long x;

	*n = REGISTER_PARALLEL_DEFAULT;
	if (!v || !*v)
		return FLOE_OK;
	x = strtol(v, &end, 10);
	if (end == v || *end || x < 1 || x > 64)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "floe.register_parallel_reads must be an integer from 1 to 64, not \"%s\"", v);
	*n = (int)x;
	return FLOE_OK;
}

/* rf[i] for each of the nfiles files sf[i], checked by up to
 * floe.register_parallel_reads readers at once (object storage is round-trip
 * bound); the first failing file's error, as if read one by one */
static int
read_footers(const Reg *g, const StageFile *sf, RegFile *rf, int nfiles)
{
	RegPar p;
	int n, i, rc;

	TRY(parallel_reads(g->s, &n, g->ctx->err));
	if (n > nfiles)
		n = nfiles;
	memset(&p, 0, sizeof p);
	p.g = g;
	p.sf = sf;
	p.rf = rf;
	p.nfiles = nfiles;
	p.wctx = ARENA_ARRAY(g->ctx->arena, ExecCtx *, n);
	for (i = 0; i < n; i++)
		p.wctx[i] = exec_worker_ctx(g->ctx, g->ctx->mem_limit);
	atomic_init(&p.next, 0);
	atomic_init(&p.failed, nfiles);
	pthread_mutex_init(&p.mu, NULL);
	rc = par_run(g->ctx, n, p.wctx, reader_main, &p);
	pthread_mutex_destroy(&p.mu);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	if (atomic_load(&p.failed) < nfiles) {
		*g->ctx->err = p.err;
		return FLOE_ERR;
	}
	return FLOE_OK;
}

/* ---- duplicates and the commit ---------------------------------------------- */

typedef struct DupCheck {
	FileIO *io;
	const DataFile *add;
	int nadd;
	const char *tname;
	const IcebergSchema *schema;
	bool without_ids;           /* some files carry no field ids */
} DupCheck;

/* 42710 when one of dc's files is live in t */
static int
check_dups(const DupCheck *dc, const Table *t, Arena *a, floe_error *err)
{
	DataFile *live;
	int n, i, k;

	TRY(table_scan_files(dc->io, t, -1, a, &live, &n, err));
	for (i = 0; i < n; i++)
		for (k = 0; k < dc->nadd; k++)
			if (!strcmp(plain_path(live[i].file_path), plain_path(dc->add[k].file_path)))
				return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT,
						   "file \"%s\" is already a data file of table \"%s\"",
						   dc->add[k].file_path, dc->tname);
	return FLOE_OK;
}

/* a re-based commit: the files are still no live files of the table,
 * and a name mapping the head gained meanwhile (another REGISTER's: the
 * commit then keeps it) maps the files' names to the ids they were
 * checked for (the schema is the same: table_commit asserts it) */
static int
dup_rebase(void *arg, const Table *from, const Table *to, Arena *a, floe_error *err)
{
	const DupCheck *dc = arg;
	const NameMapping *nm;
	int i;

	(void)from;
	TRY(check_dups(dc, to, a, err));
	if (!dc->without_ids || !(nm = metadata_name_mapping(to->md, a)))
		return FLOE_OK;
	for (i = 0; i < dc->schema->nfields; i++)
		if (name_mapping_id(nm, dc->schema->fields[i].name) != dc->schema->fields[i].id)
			return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					   "could not register the files: table \"%s\" changed its name mapping meanwhile",
					   dc->tname);
	return FLOE_OK;
}

/* schema.name-mapping.default for the current schema's top-level fields */
static char *
name_mapping_json(const IcebergSchema *sc, Arena *a)
{
	json_t *arr = json_array();
	char *txt, *out;
	int i;

	for (i = 0; i < sc->nfields; i++) {
		json_t *e = json_object(), *names = json_array();
		json_array_append_new(names, json_string(sc->fields[i].name));
		json_object_set_new(e, "field-id", json_integer(sc->fields[i].id));
		json_object_set_new(e, "names", names);
		json_array_append_new(arr, e);
	}
	txt = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	out = arena_strdup(a, txt ? txt : "[]");
	free(txt);
	return out;
}

static int
send_result(ResultSink *sink, int64_t files, int64_t rows, int64_t bytes, Arena *a, floe_error *err)
{
	static const char *const names[3] = { "files_registered", "rows_registered", "bytes_registered" };
	SqlType types[3];
	Batch *b;
	char tag[48];
	int i;

	for (i = 0; i < 3; i++)
		types[i] = type_make(TYPE_INT64);
	b = batch_new(a, 3, types, 1);
	((int64_t *)b->cols[0].data)[0] = files;
	((int64_t *)b->cols[1].data)[0] = rows;
	((int64_t *)b->cols[2].data)[0] = bytes;
	b->count = 1;
	if (sink && sink->columns && sink->columns(sink->ctx, 3, names, types) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (sink && sink->batch && sink->batch(sink->ctx, b) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	snprintf(tag, sizeof tag, "COPY %lld", (long long)rows);
	return engine_complete(sink, tag);
}

int
register_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink)
{
	floe_error *err = ctx->err;
	const char *text = copyinto_options_text(sql, st), *ns, *name;
	char *path;
	StageFile *sf;
	RegFile *rf;
	DataFile *add;
	int nfiles, i, k;
	Reg g;
	Table *t, *out;
	TableChange ch;
	DupCheck dc;
	int64_t rows = 0, bytes = 0;
	bool need_mapping = false;
	int nextra = 0;
	const char *extra_file = NULL, *extra_col = NULL;

	if (!text)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "REGISTER FILES INTO t needs FROM '<location>'");
	TRY(parse_options(text, err));
	if (st->n_options || st->n_attlist || st->where_clause)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "REGISTER FILES INTO t FROM '<location>' takes no column list and no COPY options");
	if (session_txn_status(s) != 'I')
		return floe_errorf(err, ERRCODE_ACTIVE_SQL_TRANSACTION,
				   "REGISTER FILES cannot run inside a transaction block");
	if (st->relation->catalogname && st->relation->catalogname[0] &&
	    strcmp(st->relation->catalogname, pgcatalog_database(s)))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cross-database references are not implemented: \"%s.%s.%s\"",
				   st->relation->catalogname, st->relation->schemaname, st->relation->relname);
	session_resolve_name(s, st->relation, &ns, &name);
	if (st->relation->schemaname && st->relation->schemaname[0])   /* USAGE, before the lookup */
		TRY(acl_check_schema_usage(s, ctx, ns, err));
	if (txn_table_load(s, ns, name, ctx->arena, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
		return FLOE_ERR;
	}
	/* INSERT on t, as COPY FROM's (the file role: acl.c, before this) */
	TRY(acl_note_target(s, ctx, t, ROLE_PRIV_INSERT, err));

	if (metadata_current_schema(t->md)->nidentifier > 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "REGISTER FILES cannot check the PRIMARY KEY of table \"%s\" against the files' rows",
				   name);

	/* the files */
	TRY(stage_resolve(s, st->filename, ctx->arena, &path, err));
	if (!fileio_is_remote(path) && path[0] != '/' && strncmp(path, "file:", 5)) {
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof cwd))
			path = arena_sprintf(ctx->arena, "%s/%s", cwd, path);
	}
	if (strpbrk(path, "*?[")) {
		TRY(list_glob(s, path, ctx->arena, &sf, &nfiles, err));
	} else {
		TRY(acl_check_file(s, path, false, err));
		TRY(stage_list(s, path, ctx->arena, &sf, &nfiles, err));
	}
	if (!nfiles)
		return floe_errorf(err, ERRCODE_UNDEFINED_FILE, "no files at \"%s\"", st->filename);
	if (nfiles > REGISTER_MAX_FILES)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "REGISTER FILES of %d files: at most %d in one statement", nfiles,
				   REGISTER_MAX_FILES);

	/* the schema, the spec and the mapping the files are checked against */
	memset(&g, 0, sizeof g);
	g.s = s;
	g.ctx = ctx;
	g.a = ctx->arena;
	g.t = t;
	g.tname = name;
	g.schema = metadata_current_schema(t->md);
	g.spec = metadata_default_spec(t->md);
	g.nm = metadata_name_mapping(t->md, ctx->arena);
	if (g.spec && g.spec->nfields) {
		g.tr = ARENA_ARRAY(ctx->arena, PartitionTransform, g.spec->nfields);
		g.spec_src = ARENA_ARRAY(ctx->arena, int, g.spec->nfields);
		for (k = 0; k < g.spec->nfields; k++) {
			TRY(partition_transform_parse(g.spec->fields[k].transform, &g.tr[k], err));
			for (i = 0; i < g.schema->nfields && g.schema->fields[i].id != g.spec->fields[k].source_id; i++)
				;
			if (i == g.schema->nfields)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "REGISTER FILES cannot derive partition field \"%s\": its source column is not a top-level column",
						   g.spec->fields[k].name);
			g.spec_src[k] = i;
		}
	}
	rf = ARENA_ARRAY(ctx->arena, RegFile, nfiles);
	add = ARENA_ARRAY(ctx->arena, DataFile, nfiles);
	TRY(read_footers(&g, sf, rf, nfiles));
	for (i = 0; i < nfiles; i++) {
		add[i] = rf[i].df;
		rows += add[i].record_count;
		bytes += add[i].file_size_in_bytes;
		if (!rf[i].has_ids)
			need_mapping = true;
		if (rf[i].nextra && !nextra++) {
			extra_file = rf[i].df.file_path;
			extra_col = rf[i].extra_col;
		}
		nextra += rf[i].nextra - (rf[i].nextra > 0);
	}

	/* duplicates, then one append (with the name mapping) */
	dc.io = ctx->io;
	dc.add = add;
	dc.nadd = nfiles;
	dc.tname = name;
	dc.schema = g.schema;
	dc.without_ids = need_mapping;
	for (i = 0; i < nfiles; i++)
		for (k = 0; k < i; k++)
			if (!strcmp(plain_path(add[i].file_path), plain_path(add[k].file_path)))
				return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT, "file \"%s\" is named twice",
						   add[i].file_path);
	TRY(check_dups(&dc, t, ctx->arena, err));
	if (nextra && sink && sink->notice) {
		floe_error n;
		floe_errorf(&n, ERRCODE_WARNING,
			    "Parquet file \"%s\" has column \"%s\" that table \"%s\" does not have; it is not read",
			    extra_file, extra_col, name);
		if (nextra > 1)
			floe_error_detail(&n, "%d columns of the files are not in the table.", nextra);
		sink->notice(sink->ctx, &n);
	}
	TRY(write_target_wap(s, &t, ctx->arena, err));   /* floe.wap_id / wap_branch */
	memset(&ch, 0, sizeof ch);
	ch.add = add;
	ch.nadd = nfiles;
	ch.job_id = table_new_job_id(ctx->arena);
	ch.rebase_check = dup_rebase;
	ch.rebase_arg = &dc;
	if (need_mapping && !g.nm) {
		/* in the same commit: a failed REGISTER leaves no mapping */
		MdProp *p = ARENA_NEW(ctx->arena, MdProp);
		p->key = "schema.name-mapping.default";
		p->value = name_mapping_json(g.schema, ctx->arena);
		ch.init_props = p;
		ch.ninit_props = 1;
	}
	TRY(txn_commit(s, t, &ch, ctx->arena, &out, err));
	return send_result(sink, nfiles, rows, bytes, ctx->arena, err);
}
