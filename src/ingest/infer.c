/*
 * infer.c — INFER_SCHEMA(location => ..., file_format => ...) and CREATE
 * TABLE t USING TEMPLATE (query) (infer.h has the forms; docs/loading.md
 * the behaviour).
 *
 * INFER_SCHEMA, in order:
 *   1. the named arguments: location (or the first, positional), file_format
 *      (PARQUET, CSV, JSON; default: the first file's extension), max_files
 *      (10), sample_size (20480), int_to_bigint (CSV / JSON: true, Parquet:
 *      false), float_to_double (false); CSV: header / parse_header,
 *      delim / sep / delimiter / field_delimiter, quote, escape, nullstr,
 *      skip / skip_header, all_varchar.  Any other is 0A000 by name;
 *   2. the files: stage_resolve, readfiles_list (each a server-file read,
 *      acl_check_file), sorted by path; the first max_files are read;
 *   3. per file: Parquet: the footer (a local file mapped and confined,
 *      acl_read_file; an object sparsely, stage_read_sparse); its top-level
 *      columns with read_parquet's types, REQUIRED -> NOT NULL, field ids; a
 *      struct / map column or a type floe cannot read is 0A000 naming file
 *      and column; no PAR1 magic 22P04; a bad footer XX001 (parquet_open).
 *      CSV / JSON: the file (decompressed), then read_csv's / read_json's
 *      detection (readfiles_csv_detect / readfiles_json_detect); a column
 *      is NOT NULL only when the whole file was sampled and no value of it
 *      was NULL or missing;
 *   4. the files merged by column name in first-seen order: a column some
 *      file lacks is nullable; types widen (smallint < integer < bigint,
 *      real < double precision, numeric to hold both; CSV / JSON also an
 *      integer and a float to double precision, anything else to text);
 *      Parquet columns that do not widen are 42804 naming both files (COPY
 *      INTO of such files would refuse one of them); field ids that differ
 *      are NULL;
 *   5. int_to_bigint / float_to_double applied; the rows.
 *
 * CREATE TABLE ... USING TEMPLATE (query): recognised in the text (libpg_query
 * does not parse it); the query runs as a nested statement, its column_name,
 * inferred_type and (if present) nullable columns, in order_id order if it
 * has one, become "CREATE TABLE name (col type [NOT NULL], ...)", run as
 * another nested statement (the user's privileges and transaction).
 *
 * INTERFACE ROUTINES (infer.h)
 *   infer_schema_source, infer_template_utility
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "exec/expr.h"
#include "format/parquet/parquet.h"
#include "ingest/copyinto.h"
#include "ingest/infer.h"
#include "ingest/stage.h"
#include "sql/acl.h"
#include "sql/rowscan.h"
#include "storage/fileio.h"
#include "types/array.h"
#include "types/text.h"

#define FN "infer_schema"

enum { IF_PARQUET, IF_CSV, IF_JSON };

typedef struct InferCol {
	char *name;
	SqlType type;
	bool nullable;
	int32_t field_id;          /* -1: none, or the files differ */
	char *files;               /* the files that hold it, ", "-joined */
	const char *first_file;    /* the first of them (errors) */
	bool seen;                 /* in the file being merged */
} InferCol;

typedef struct Infer {
	Arena *a;
	floe_error *err;
	int format;
	InferCol *cols;
	int n, cap;
	int nread;                 /* files merged so far */
} Infer;

/* ---- merging -------------------------------------------------------------- */

static int
int_rank(TypeId id)
{
	return id == TYPE_INT16 ? 1 : id == TYPE_INT32 ? 2 : id == TYPE_INT64 ? 3 : 0;
}

/* the type holding a and b, *ok = false when there is none (Parquet: COPY
 * INTO's safe widening only; CSV / JSON: also int + float, else text) */
static SqlType
widen(SqlType a, SqlType b, bool text_ok, bool *ok)
{
	*ok = true;
	if (type_equal(a, b))
		return a;
	if (int_rank(a.id) && int_rank(b.id))
		return int_rank(a.id) >= int_rank(b.id) ? a : b;
	if ((a.id == TYPE_FLOAT32 || a.id == TYPE_FLOAT64) && (b.id == TYPE_FLOAT32 || b.id == TYPE_FLOAT64))
		return type_make(TYPE_FLOAT64);
	if (a.id == TYPE_DECIMAL && b.id == TYPE_DECIMAL && a.precision && b.precision) {
		int s = a.scale > b.scale ? a.scale : b.scale;
		int ia = a.precision - a.scale, ib = b.precision - b.scale;
		int p = (ia > ib ? ia : ib) + s;
		if (p <= DECIMAL_MAX_PRECISION)
			return type_decimal(p, s);
	}
	if (text_ok) {
		if ((int_rank(a.id) || a.id == TYPE_FLOAT64) && (int_rank(b.id) || b.id == TYPE_FLOAT64))
			return type_make(TYPE_FLOAT64);
		return type_make(TYPE_TEXT);
	}
	*ok = false;
	return a;
}

/* column name of file rel: merged into inf's columns */
static int
merge_col(Infer *inf, const char *name, SqlType type, bool nullable, int32_t field_id, const char *rel)
{
	InferCol *c = NULL;
	int i;
	bool ok;

	for (i = 0; i < inf->n; i++)
		if (!strcmp(inf->cols[i].name, name)) {
			c = &inf->cols[i];
			break;
		}
	if (!c) {
		if (inf->n == inf->cap) {
			int nc = inf->cap ? inf->cap * 2 : 32;
			InferCol *x = ARENA_ARRAY(inf->a, InferCol, nc);
			if (inf->n)
				memcpy(x, inf->cols, sizeof(InferCol) * (size_t)inf->n);
			inf->cols = x;
			inf->cap = nc;
		}
		c = &inf->cols[inf->n++];
		memset(c, 0, sizeof *c);
		c->name = arena_strdup(inf->a, name);
		c->type = type;
		c->nullable = nullable || inf->nread > 0;    /* earlier files lack it */
		c->field_id = field_id;
		c->files = arena_strdup(inf->a, rel);
		c->first_file = c->files;
		c->seen = true;
		return FLOE_OK;
	}
	if (c->seen)
		return floe_errorf(inf->err, ERRCODE_DUPLICATE_COLUMN,
				   "INFER_SCHEMA: file \"%s\" has two columns named \"%s\"", rel, name);
	c->seen = true;
	c->type = widen(c->type, type, inf->format != IF_PARQUET, &ok);
	if (!ok) {
		char t1[64], t2[64];
		return floe_errorf(inf->err, ERRCODE_DATATYPE_MISMATCH,
				   "INFER_SCHEMA: column \"%s\" is %s in Parquet file \"%s\" but %s in \"%s\"", name,
				   type_name(c->type, t1, sizeof t1), c->first_file, type_name(type, t2, sizeof t2),
				   rel);
	}
	c->nullable = c->nullable || nullable;
	if (c->field_id != field_id)
		c->field_id = -1;
	c->files = arena_sprintf(inf->a, "%s, %s", c->files, rel);
	return FLOE_OK;
}

/* after a file: the columns it lacked are nullable */
static void
end_file(Infer *inf)
{
	int i;
	for (i = 0; i < inf->n; i++) {
		if (!inf->cols[i].seen)
			inf->cols[i].nullable = true;
		inf->cols[i].seen = false;
	}
	inf->nread++;
}

/* ---- one file ------------------------------------------------------------- */

static int
parquet_columns(Infer *inf, Session *s, FileIO *io, const StageFile *f)
{
	floe_error *err = inf->err;
	Arena *fa = arena_new(1 << 16);
	const uint8_t *data;
	size_t len;
	ParquetFile *pf;
	int c, n, rc = FLOE_ERR;

	if (fileio_is_remote(f->path)) {
		bool whole;
		if (stage_read_sparse(io, f->path, f->size, fa, &data, &whole, err) != FLOE_OK)
			goto out;
		len = (size_t)f->size;
	} else if (acl_read_file(s, io, f->path, fa, &data, &len, err) != FLOE_OK) {
		goto out;
	}
	if (len < 12 || memcmp(data, "PAR1", 4) || memcmp(data + len - 4, "PAR1", 4)) {
		floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
			    "INFER_SCHEMA: file \"%s\" is not a Parquet file (no PAR1 magic at its start and end)",
			    f->path);
		goto out;
	}
	if (parquet_open(&pf, data, len, f->path, fa, err) != FLOE_OK)
		goto out;
	n = parquet_num_columns(pf);
	for (c = 0; c < n; c++) {
		const ParquetColumn *pc = parquet_column(pf, c);
		if (pc->nested) {
			floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "INFER_SCHEMA: column \"%s\" of Parquet file \"%s\" is a %s, which floe tables cannot hold",
				    pc->top_name, f->path, pc->nested_type ? pc->nested_type : "struct");
			goto out;
		}
		if (pc->type.id == TYPE_NULL) {
			floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "INFER_SCHEMA: column \"%s\" of Parquet file \"%s\" has a type floe cannot read",
				    pc->name, f->path);
			goto out;
		}
		if (merge_col(inf, pc->name, pc->type, pc->optional, pc->field_id, f->rel) != FLOE_OK)
			goto out;
	}
	rc = FLOE_OK;
out:
	arena_free(fa);
	return rc;
}

static int
text_columns(Infer *inf, Session *s, FileIO *io, const StageFile *f, IntoOpts *o, const CsvDetect *d)
{
	floe_error *err = inf->err;
	Arena *fa = arena_new(1 << 16);
	const uint8_t *raw;
	size_t rawlen, len;
	char *data = NULL;
	FileColumns fc;
	int c, rc = FLOE_ERR;

	if (acl_read_file(s, io, f->path, fa, &raw, &rawlen, err) != FLOE_OK ||
	    stage_inflate(stage_compression(f->path, NULL), raw, rawlen, &data, &len, f->rel, err) != FLOE_OK)
		goto out;
	if (inf->format == IF_JSON)
		rc = readfiles_json_detect(data, len, d->sample, d->narrow_ints, "INFER_SCHEMA", f->rel, inf->a, &fc,
					   err);
	else
		rc = readfiles_csv_detect(o, d, data, len, "INFER_SCHEMA", f->rel, inf->a, &fc, err);
	for (c = 0; rc == FLOE_OK && c < fc.ncols; c++)
		rc = merge_col(inf, fc.names[c], fc.types[c], fc.nulls[c] || !fc.complete, -1, f->rel);
out:
	free(data);
	arena_free(fa);
	return rc;
}

/* ---- the table function ----------------------------------------------------- */

static const char *
ext_format(const char *path, int *fmt)
{
	const char *b = strrchr(path, '/');
	char name[256];
	char *dot;

	snprintf(name, sizeof name, "%s", b ? b + 1 : path);
	dot = strrchr(name, '.');
	if (dot && (!strcasecmp(dot, ".gz") || !strcasecmp(dot, ".gzip") || !strcasecmp(dot, ".zst") ||
		    !strcasecmp(dot, ".zstd"))) {
		*dot = 0;
		dot = strrchr(name, '.');
	}
	if (!dot)
		return NULL;
	if (!strcasecmp(dot, ".parquet") || !strcasecmp(dot, ".parq"))
		*fmt = IF_PARQUET;
	else if (!strcasecmp(dot, ".csv") || !strcasecmp(dot, ".tsv") || !strcasecmp(dot, ".txt"))
		*fmt = IF_CSV;
	else if (!strcasecmp(dot, ".json") || !strcasecmp(dot, ".jsonl") || !strcasecmp(dot, ".ndjson"))
		*fmt = IF_JSON;
	else
		return NULL;
	return dot;
}

static Expr *
text_const(Arena *a, const char *s)
{
	Value v;
	if (!s) {
		v = value_null(type_make(TYPE_TEXT));
		return expr_const(a, &v);
	}
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_TEXT);
	v.u.s = strview_make(arena_strdup(a, s), (uint32_t)strlen(s));
	return expr_const(a, &v);
}

int
infer_schema_source(BindCtx *b, ExecCtx *ctx, PgQuery__FuncCall *f, Operator **op, int *ncols, char ***names,
		    SqlType **types)
{
	static const char *const out_names[6] = { "column_name", "inferred_type", "nullable", "order_id",
						  "field_id", "filenames" };
	Session *s = b->session;
	Arena *a = ctx->arena;
	IntoOpts *o = ARENA_NEW(a, IntoOpts);
	CsvDetect d;
	Infer inf;
	char *loc = NULL, *path, *fmt = NULL, *nullstr = "";
	bool have_itb = false, itb = false, ftd = false, csv_opt = false;
	const char *csv_name = NULL;
	int64_t max_files = 10;
	StageFile *files;
	int nfiles, i, r;
	SqlType *ot;
	Expr ***rows;

	memset(&d, 0, sizeof d);
	d.sample = 20480;
	copyinto_default_opts(o, a);
	o->type = FT_CSV;
	o->escape = 0;
	for (i = 0; i < (int)f->n_args; i++) {
		Node *arg = f->args[i];
		const char *on;
		if (arg->node_case != PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			if (i > 0)
				return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR,
						   "infer_schema takes named arguments (location => '...', file_format => 'parquet')");
			TRY(readfiles_arg_text(b, arg, FN, "location", a, &loc));
			continue;
		}
		on = arg->named_arg_expr->name;
		arg = arg->named_arg_expr->arg;
		if (!strcmp(on, "location")) {
			TRY(readfiles_arg_text(b, arg, FN, on, a, &loc));
		} else if (!strcmp(on, "file_format")) {
			TRY(readfiles_arg_text(b, arg, FN, on, a, &fmt));
		} else if (!strcmp(on, "max_files") || !strcmp(on, "max_file_count")) {
			TRY(readfiles_arg_int(b, arg, FN, on, &max_files));
			if (max_files < 1)
				return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "infer_schema option %s must be at least 1", on);
		} else if (!strcmp(on, "sample_size")) {
			TRY(readfiles_arg_int(b, arg, FN, on, &d.sample));
			if (d.sample < 1)
				d.sample = 1;
			if (d.sample > 1000000)
				d.sample = 1000000;
		} else if (!strcmp(on, "int_to_bigint")) {
			TRY(readfiles_arg_bool(b, arg, FN, on, &itb));
			have_itb = true;
		} else if (!strcmp(on, "float_to_double")) {
			TRY(readfiles_arg_bool(b, arg, FN, on, &ftd));
		} else {
			csv_opt = true;
			csv_name = on;
			if (!strcmp(on, "header") || !strcmp(on, "parse_header")) {
				TRY(readfiles_arg_bool(b, arg, FN, on, &d.header));
				d.have_header = true;
			} else if (!strcmp(on, "delim") || !strcmp(on, "sep") || !strcmp(on, "delimiter") ||
				   !strcmp(on, "field_delimiter")) {
				TRY(readfiles_arg_char(b, arg, FN, on, a, &o->delim));
				d.have_delim = true;
			} else if (!strcmp(on, "quote")) {
				TRY(readfiles_arg_char(b, arg, FN, on, a, &o->quote));
			} else if (!strcmp(on, "escape")) {
				TRY(readfiles_arg_char(b, arg, FN, on, a, &o->escape));
			} else if (!strcmp(on, "nullstr")) {
				TRY(readfiles_arg_text(b, arg, FN, on, a, &nullstr));
			} else if (!strcmp(on, "skip") || !strcmp(on, "skip_header")) {
				TRY(readfiles_arg_int(b, arg, FN, on, &d.skip));
			} else if (!strcmp(on, "all_varchar")) {
				TRY(readfiles_arg_bool(b, arg, FN, on, &d.all_varchar));
			} else {
				return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "infer_schema option %s is not supported", on);
			}
		}
	}
	if (!loc)
		return floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION,
				   "infer_schema needs location => '<files>'");
	memset(&inf, 0, sizeof inf);
	inf.a = a;
	inf.err = b->err;
	inf.format = -1;
	if (fmt) {
		if (!strcasecmp(fmt, "parquet"))
			inf.format = IF_PARQUET;
		else if (!strcasecmp(fmt, "csv"))
			inf.format = IF_CSV;
		else if (!strcasecmp(fmt, "json"))
			inf.format = IF_JSON;
		else
			return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "infer_schema reads FILE_FORMAT PARQUET, CSV or JSON, not %s", fmt);
	}

	/* the files */
	TRY(stage_resolve(s, loc, a, &path, b->err));
	if (path[0] != '/' && path[0] != '@' && !fileio_is_remote(path) && strncmp(path, "file:", 5)) {
		char cwd[4096];
		if (getcwd(cwd, sizeof cwd))
			path = arena_sprintf(a, "%s/%s", cwd, path);
	}
	TRY(readfiles_list(s, path, a, &files, &nfiles, b->err));
	if (inf.format < 0 && !ext_format(files[0].path, &inf.format))
		return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "infer_schema cannot tell the format of \"%s\" from its name: give file_format => 'PARQUET' | 'CSV' | 'JSON'",
				   files[0].rel);
	if (csv_opt && inf.format != IF_CSV)
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "infer_schema option %s is for CSV files, not %s", csv_name,
				   inf.format == IF_PARQUET ? "PARQUET" : "JSON");
	d.narrow_ints = have_itb ? !itb : false;
	o->null_if = ARENA_ARRAY(a, char *, 1);
	o->null_if[0] = nullstr;
	o->nnull_if = 1;
	o->empty_as_null = !nullstr[0];
	if (nfiles > max_files)
		nfiles = (int)max_files;
	for (i = 0; i < nfiles; i++) {
		if (ctx->cancel && *ctx->cancel)
			return floe_errorf(b->err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		if (inf.format == IF_PARQUET)
			TRY(parquet_columns(&inf, s, s->engine->io, &files[i]));
		else
			TRY(text_columns(&inf, s, s->engine->io, &files[i], o, &d));
		end_file(&inf);
	}

	/* the rows */
	ot = ARENA_ARRAY(a, SqlType, 6);
	ot[0] = ot[1] = ot[5] = type_make(TYPE_TEXT);
	ot[2] = type_make(TYPE_BOOL);
	ot[3] = ot[4] = type_make(TYPE_INT32);
	rows = ARENA_ARRAY(a, Expr **, inf.n + 1);
	for (r = 0; r < inf.n; r++) {
		InferCol *c = &inf.cols[r];
		SqlType t = c->type;
		char tn[96];
		Value v;
		if (inf.format == IF_PARQUET && have_itb && itb && (t.id == TYPE_INT16 || t.id == TYPE_INT32))
			t = type_make(TYPE_INT64);
		if (ftd && t.id == TYPE_FLOAT32)
			t = type_make(TYPE_FLOAT64);
		rows[r] = ARENA_ARRAY(a, Expr *, 6);
		rows[r][0] = text_const(a, c->name);
		rows[r][1] = text_const(a, type_name(t, tn, sizeof tn));
		memset(&v, 0, sizeof v);
		v.type = ot[2];
		v.u.b = c->nullable;
		rows[r][2] = expr_const(a, &v);
		v = value_int(TYPE_INT32, r);
		rows[r][3] = expr_const(a, &v);
		v = c->field_id >= 0 ? value_int(TYPE_INT32, c->field_id) : value_null(ot[4]);
		rows[r][4] = expr_const(a, &v);
		rows[r][5] = text_const(a, c->files);
	}
	*op = values_new(ctx, 6, ot, inf.n, rows);
	*ncols = 6;
	*names = ARENA_ARRAY(a, char *, 6);
	for (i = 0; i < 6; i++)
		(*names)[i] = (char *)out_names[i];
	*types = ot;
	return FLOE_OK;
}

/* ---- CREATE TABLE ... USING TEMPLATE (query) ------------------------------------ */

typedef struct Tmpl {
	Arena *a;
	int cname, ctype, cnull, corder;      /* the query's columns, -1 absent */
	char **name, **type;
	int *order;
	bool *notnull;
	int n, cap;
	bool columns_ok;
} Tmpl;

static int
tmpl_columns(void *ctx, int n, const char *const *names, const SqlType *types)
{
	Tmpl *t = ctx;
	int i;
	(void)types;
	t->cname = t->ctype = t->cnull = t->corder = -1;
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], "column_name"))
			t->cname = i;
		else if (!strcmp(names[i], "inferred_type"))
			t->ctype = i;
		else if (!strcmp(names[i], "nullable"))
			t->cnull = i;
		else if (!strcmp(names[i], "order_id"))
			t->corder = i;
	}
	t->columns_ok = t->cname >= 0 && t->ctype >= 0;
	return 0;
}

static int
tmpl_batch(void *ctx, const Batch *b)
{
	Tmpl *t = ctx;
	uint32_t k;
	if (!t->columns_ok)
		return 0;
	for (k = 0; k < b->count; k++) {
		uint32_t r = b->sel ? b->sel[k] : k;
		size_t len;
		const char *v;
		if (t->n == t->cap) {
			int nc = t->cap ? t->cap * 2 : 32;
			char **nn = ARENA_ARRAY(t->a, char *, nc), **nt = ARENA_ARRAY(t->a, char *, nc);
			int *no = ARENA_ARRAY(t->a, int, nc);
			bool *nb = ARENA_ARRAY(t->a, bool, nc);
			if (t->n) {
				memcpy(nn, t->name, sizeof(char *) * (size_t)t->n);
				memcpy(nt, t->type, sizeof(char *) * (size_t)t->n);
				memcpy(no, t->order, sizeof(int) * (size_t)t->n);
				memcpy(nb, t->notnull, sizeof(bool) * (size_t)t->n);
			}
			t->name = nn;
			t->type = nt;
			t->order = no;
			t->notnull = nb;
			t->cap = nc;
		}
		v = vector_value_text(&b->cols[t->cname], r, t->a, &len);
		t->name[t->n] = v ? arena_strndup(t->a, v, len) : NULL;
		v = vector_value_text(&b->cols[t->ctype], r, t->a, &len);
		t->type[t->n] = v ? arena_strndup(t->a, v, len) : NULL;
		t->notnull[t->n] = false;
		if (t->cnull >= 0 && (v = vector_value_text(&b->cols[t->cnull], r, t->a, &len)))
			t->notnull[t->n] = len && (v[0] == 'f' || v[0] == 'F' || v[0] == '0');
		t->order[t->n] = t->n;
		if (t->corder >= 0 && (v = vector_value_text(&b->cols[t->corder], r, t->a, &len)))
			t->order[t->n] = atoi(arena_strndup(t->a, v, len));
		t->n++;
	}
	return 0;
}

static int
tmpl_complete(void *ctx, const char *tag)
{
	(void)ctx;
	(void)tag;
	return 0;
}

/* a word at p (case-insensitive) followed by a non-identifier character */
static const char *
word(const char *p, const char *w)
{
	size_t n = strlen(w);
	while (isspace((unsigned char)*p))
		p++;
	if (strncasecmp(p, w, n) || isalnum((unsigned char)p[n]) || p[n] == '_')
		return NULL;
	return p + n;
}

/* the end of a (possibly qualified, possibly quoted) name at p, NULL if none */
static const char *
name_end(const char *p)
{
	for (;;) {
		if (*p == '"') {
			for (p++; *p; p++)
				if (*p == '"') {
					if (p[1] != '"')
						break;
					p++;
				}
			if (*p != '"')
				return NULL;
			p++;
		} else if (isalpha((unsigned char)*p) || *p == '_' || (unsigned char)*p >= 0x80) {
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '$' || (unsigned char)*p >= 0x80)
				p++;
		} else {
			return NULL;
		}
		if (*p != '.')
			return p;
		p++;
	}
}

static bool
type_text_ok(const char *t)
{
	if (!t || !*t)
		return false;
	for (; *t; t++)
		if (!isalnum((unsigned char)*t) && !strchr(" _(),[]", *t))
			return false;
	return true;
}

bool
infer_template_utility(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc)
{
	const char *p, *ne, *q, *end;
	bool ifne = false;
	Arena *a;
	Tmpl t;
	ResultSink ts;
	char *ddl, *query, *name;
	size_t cap, len;
	int i, k;

	if (!(p = word(sql, "create")) || !(p = word(p, "table")))
		return false;
	if ((q = word(p, "if")) && (q = word(q, "not")) && (q = word(q, "exists"))) {
		ifne = true;
		p = q;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (!(ne = name_end(p)) || !(q = word(ne, "using")) || !(q = word(q, "template")))
		return false;
	while (isspace((unsigned char)*q))
		q++;
	end = q + strlen(q);
	while (end > q && (isspace((unsigned char)end[-1]) || end[-1] == ';'))
		end--;
	if (*q != '(' || end <= q + 1 || end[-1] != ')')
		return false;
	a = arena_new(1 << 14);
	name = arena_strndup(a, p, (size_t)(ne - p));
	query = arena_strndup(a, q + 1, (size_t)(end - q - 2));
	memset(&t, 0, sizeof t);
	t.a = a;
	memset(&ts, 0, sizeof ts);
	ts.ctx = &t;
	ts.columns = tmpl_columns;
	ts.batch = tmpl_batch;
	ts.complete = tmpl_complete;
	*rc = session_exec(s, query, &ts, err);
	if (*rc != FLOE_OK)
		goto out;
	if (!t.columns_ok) {
		*rc = floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				  "the query of USING TEMPLATE must return the columns column_name and inferred_type (SELECT * FROM infer_schema(...))");
		goto out;
	}
	if (t.n == 0) {
		*rc = floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				  "the query of USING TEMPLATE returned no columns for table %s", name);
		goto out;
	}
	/* in order_id order (stable: insertion sort) */
	for (i = 1; i < t.n; i++)
		for (k = i; k > 0 && t.order[k - 1] > t.order[k]; k--) {
			char *x = t.name[k], *y = t.type[k];
			int o = t.order[k];
			bool nn = t.notnull[k];
			t.name[k] = t.name[k - 1];
			t.type[k] = t.type[k - 1];
			t.order[k] = t.order[k - 1];
			t.notnull[k] = t.notnull[k - 1];
			t.name[k - 1] = x;
			t.type[k - 1] = y;
			t.order[k - 1] = o;
			t.notnull[k - 1] = nn;
		}
	cap = strlen(name) + 64;
	for (i = 0; i < t.n; i++) {
		if (!t.name[i] || !*t.name[i]) {
			*rc = floe_errorf(err, ERRCODE_INVALID_COLUMN_DEFINITION,
					  "the query of USING TEMPLATE returned an empty or NULL column_name (row %d)", i + 1);
			goto out;
		}
		if (!type_text_ok(t.type[i])) {
			*rc = floe_errorf(err, ERRCODE_INVALID_COLUMN_DEFINITION,
					  "the query of USING TEMPLATE returned \"%s\" as the type of column \"%s\", which is not a type name",
					  t.type[i] ? t.type[i] : "NULL", t.name[i]);
			goto out;
		}
		cap += strlen(t.name[i]) * 2 + strlen(t.type[i]) + 16;
	}
	ddl = arena_alloc(a, cap);
	len = (size_t)snprintf(ddl, cap, "CREATE TABLE %s%s (", ifne ? "IF NOT EXISTS " : "", name);
	for (i = 0; i < t.n; i++)
		len += (size_t)snprintf(ddl + len, cap - len, "%s%s %s%s", i ? ", " : "", rowscan_qident(a, t.name[i]),
					t.type[i], t.notnull[i] ? " NOT NULL" : "");
	snprintf(ddl + len, cap - len, ")");
	*rc = session_exec(s, ddl, sink, err);
out:
	arena_free(a);
	return true;
}
