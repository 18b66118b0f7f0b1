/*
 * readfiles.c — read_csv(path [, option => value ...]) and read_json(path
 * [, sample_size => n]) as table functions (docs/loading.md): CSV and JSON
 * files read where they are, their schema detected.
 *
 * read_json: one column per key of the first file's first sample_size
 * objects (newline-delimited or arrays), in first-seen order; its type:
 * boolean (only true/false), bigint (only integers), double precision
 * (numbers), date / timestamp (only strings, all of that form), else text
 * (a nested object or array reads as its JSON text).  The rows are read as
 * COPY ... (FORMAT json) reads them.
 *
 * path: a file, a folder (every file under it), a stage location
 * ('@raw/2024/'), an s3:// URI, or a local glob (/data/x*.csv); each file
 * checked as a server-file read (acl_check_file).  Options (named
 * arguments): header (bool; default: detected), delim / sep (default:
 * detected among , TAB ; |), quote (default '"'), escape (default: none),
 * nullstr (default ''), skip (rows before the header, default 0),
 * sample_size (rows read for the detection, default 20480), all_varchar
 * (bool).  Any other option is 0A000 by name.
 *
 * Detection, over the first sample_size rows of the first file:
 *   - the delimiter: the candidate whose rows split into the same number
 *     (more than one) of fields most often;
 *   - each column's type: the first of boolean, bigint, double precision,
 *     date, timestamp that every non-NULL sampled value (after the header
 *     row) is, else text; a column of NULLs only is text;
 *   - the header: the first row is one when a typed (non-text) column's
 *     first value is not of that type, or, with text columns only, when
 *     its values are all non-empty and distinct;
 *   - names: the header's fields (empty: columnN), else column0,
 *     column1, ... (DuckDB's names); repeated names get a _N suffix.
 * The rows are then read by COPY INTO's CSV reader (copyinto.h): the same
 * quoting, NULLs and errors (CONTEXT "read_csv, file f, line n, column c").
 *
 * INTERFACE ROUTINES (copyinto.h)
 *   readfiles_source(b, ctx, name, f, &op, &ncols, &names, &types)
 *   readfiles_list(s, path, a, &files, &n, err)
 *   readfiles_csv_detect(o, d, data, len, label, file, a, &cols, err)
 *   readfiles_json_detect(data, len, sample, narrow_ints, label, file, a, &cols, err)
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ingest/copyfmt.h"
#include "ingest/copyinto.h"
#include "ingest/stage.h"
#include "sql/acl.h"
#include "types/text.h"

enum { T_BOOL, T_INT, T_FLOAT, T_DATE, T_TS, T_TEXT };

static int
const_value(BindCtx *b, Node *n, const char *fname, const char *name, Value *out)
{
	Expr *e = bind_expr(b, n);
	if (!e || bind_fold(b, &e) != FLOE_OK)
		return FLOE_ERR;
	if (e->kind != EXPR_CONST)
		return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "%s option %s must be a constant", fname, name);
	*out = e->value;
	return FLOE_OK;
}

int
readfiles_arg_text(BindCtx *b, Node *n, const char *fname, const char *name, Arena *a, char **out)
{
	Value v;
	TRY(const_value(b, n, fname, name, &v));
	if (v.is_null || v.type.id != TYPE_TEXT)
		return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE, "%s option %s must be text", fname,
				   name);
	*out = arena_strndup(a, strview_data(&v.u.s), v.u.s.len);
	return FLOE_OK;
}

int
readfiles_arg_bool(BindCtx *b, Node *n, const char *fname, const char *name, bool *out)
{
	Value v;
	TRY(const_value(b, n, fname, name, &v));
	if (v.is_null || v.type.id != TYPE_BOOL)
		return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE, "%s option %s must be a boolean",
				   fname, name);
	*out = v.u.b;
	return FLOE_OK;
}

int
readfiles_arg_int(BindCtx *b, Node *n, const char *fname, const char *name, int64_t *out)
{
	Value v;
	TRY(const_value(b, n, fname, name, &v));
	if (v.is_null || (v.type.id != TYPE_INT32 && v.type.id != TYPE_INT64 && v.type.id != TYPE_INT16) ||
	    v.u.i < 0)
		return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "%s option %s must be a non-negative integer", fname, name);
	*out = v.u.i;
	return FLOE_OK;
}

int
readfiles_arg_char(BindCtx *b, Node *n, const char *fname, const char *name, Arena *a, char *out)
{
	char *s;
	TRY(readfiles_arg_text(b, n, fname, name, a, &s));
	if (strlen(s) != 1)
		return floe_errorf(b->err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "%s option %s must be a single one-byte character", fname, name);
	*out = s[0];
	return FLOE_OK;
}

/* the files of path: a glob (local, or the last folder's names of an
 * object store), else stage_list */
int
readfiles_list(Session *s, const char *path, Arena *a, StageFile **files, int *n, floe_error *err)
{
	int i;
	if (strpbrk(path, "*?[")) {
		if (!fileio_is_remote(path)) {
			glob_t g;
			size_t k;
			int m = 0;
			if (glob(path, 0, NULL, &g) != 0) {
				*n = 0;
				return floe_errorf(err, ERRCODE_UNDEFINED_FILE, "no files match \"%s\"", path);
			}
			*files = ARENA_ARRAY(a, StageFile, g.gl_pathc + 1);
			for (k = 0; k < g.gl_pathc; k++) {
				struct stat sb;
				const char *base = strrchr(g.gl_pathv[k], '/');
				if (stat(g.gl_pathv[k], &sb) != 0 || !S_ISREG(sb.st_mode))
					continue;
				(*files)[m].path = arena_strdup(a, g.gl_pathv[k]);
				(*files)[m].rel = arena_strdup(a, base ? base + 1 : g.gl_pathv[k]);
				(*files)[m].size = (uint64_t)sb.st_size;
				(*files)[m].mtime_ms = (int64_t)sb.st_mtim.tv_sec * 1000;
				m++;
			}
			globfree(&g);
			*n = m;
		} else {
			/* s3://b/dir/x*.csv: the folder's files whose path matches */
			const char *w = strpbrk(path, "*?["), *slash = w;
			StageFile *all;
			int na, m = 0;
			while (slash > path && *slash != '/')
				slash--;
			TRY(stage_list(s, arena_strndup(a, path, (size_t)(slash - path) + 1), a, &all, &na, err));
			*files = ARENA_ARRAY(a, StageFile, na + 1);
			for (i = 0; i < na; i++)
				if (fnmatch(path, all[i].path, 0) == 0)
					(*files)[m++] = all[i];
			*n = m;
		}
	} else {
		TRY(stage_list(s, path, a, files, n, err));
	}
	if (!*n)
		return floe_errorf(err, ERRCODE_UNDEFINED_FILE, "no files match \"%s\"", path);
	for (i = 0; i < *n; i++)
		TRY(acl_check_file(s, (*files)[i].path, false, err));
	return FLOE_OK;
}

static bool
looks_date(const char *v)
{
	return strlen(v) == 10 && isdigit((unsigned char)v[0]) && v[4] == '-' && v[7] == '-';
}

static bool
looks_ts(const char *v)
{
	return strlen(v) >= 16 && isdigit((unsigned char)v[0]) && v[4] == '-' && v[7] == '-' &&
	       (v[10] == ' ' || v[10] == 'T') && v[13] == ':';
}

/* the types value v may be, as bits of 1 << T_* */
static unsigned
value_kinds(const char *v, Arena *a)
{
	unsigned k = 1u << T_TEXT;
	char *e;
	floe_error err;
	Value x;
	size_t n = strlen(v);
	if (!strcasecmp(v, "true") || !strcasecmp(v, "false"))
		k |= 1u << T_BOOL;
	if (n && (isdigit((unsigned char)v[0]) || ((v[0] == '-' || v[0] == '+') && n > 1))) {
		errno = 0;
		(void)strtoll(v, &e, 10);
		if (!*e && errno == 0)
			k |= (1u << T_INT) | (1u << T_FLOAT);
		else {
			double d = strtod(v, &e);
			if (!*e && isfinite(d))
				k |= 1u << T_FLOAT;
		}
	}
	if (looks_date(v) && value_from_text(&x, type_make(TYPE_DATE), v, n, a, &err) == FLOE_OK)
		k |= 1u << T_DATE;
	if (looks_ts(v) && value_from_text(&x, type_make(TYPE_TIMESTAMP), v, n, a, &err) == FLOE_OK)
		k |= 1u << T_TS;
	return k;
}

static SqlType
kind_type(int k)
{
	switch (k) {
	case T_BOOL: return type_make(TYPE_BOOL);
	case T_INT: return type_make(TYPE_INT64);
	case T_FLOAT: return type_make(TYPE_FLOAT64);
	case T_DATE: return type_make(TYPE_DATE);
	case T_TS: return type_make(TYPE_TIMESTAMP);
	default: return type_make(TYPE_TEXT);
	}
}

static int
best_kind(unsigned mask)
{
	int k;
	for (k = 0; k < T_TEXT; k++)
		if (mask & (1u << k))
			return k;
	return T_TEXT;
}

static char
sniff_delim(IntoOpts *o, const char *data, size_t len, Arena *a)
{
	static const char cand[] = { ',', '\t', ';', '|' };
	char best = ',';
	int best_score = -1, i, r;
	for (i = 0; i < 4; i++) {
		char ***rows;
		int *nf, n, score = 0;
		o->delim = cand[i];
		copyinto_csv_sample(o, data, len < 65536 ? len : 65536, 20, a, &rows, &nf, &n);
		for (r = 0; r < n; r++)
			if (nf[r] > 1 && nf[r] == nf[0])
				score += nf[r];
		if (score > best_score) {
			best_score = score;
			best = cand[i];
		}
	}
	return best;
}

/* read_json / INFER_SCHEMA: one column per key of the sampled objects */
int
readfiles_json_detect(const char *data, size_t len, int64_t sample, bool narrow_ints, const char *label,
		      const char *file, Arena *a, FileColumns *out, floe_error *err)
{
	CopyJsonKey *keys;
	int nk, c, i, nrows;
	TRY(copyjson_sample(data, len, (int)sample, a, &keys, &nk, &nrows, err));
	if (!nk)
		return floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
				   "%s: \"%s\" has no objects to detect columns from", label, file);
	memset(out, 0, sizeof *out);
	out->ncols = nk;
	out->names = ARENA_ARRAY(a, char *, nk + 1);
	out->types = ARENA_ARRAY(a, SqlType, nk + 1);
	out->nulls = ARENA_ARRAY(a, bool, nk + 1);
	out->complete = nrows < sample;
	for (c = 0; c < nk; c++) {
		unsigned k = keys[c].kinds;
		int kind = T_TEXT;
		if (k == COPYJSON_BOOL)
			kind = T_BOOL;
		else if (k == COPYJSON_INT)
			kind = T_INT;
		else if (k == (COPYJSON_INT | COPYJSON_FLOAT) || k == COPYJSON_FLOAT)
			kind = T_FLOAT;
		else if (k == COPYJSON_STRING) {
			unsigned m = (1u << T_DATE) | (1u << T_TS);
			for (i = 0; i < keys[c].nstrings; i++)
				m &= value_kinds(keys[c].strings[i], a);
			kind = m & (1u << T_DATE) ? T_DATE : m & (1u << T_TS) ? T_TS : T_TEXT;
		}
		out->names[c] = keys[c].name;
		out->types[c] = kind == T_INT && narrow_ints && !keys[c].wide ? type_make(TYPE_INT32) :
			kind_type(kind);
		out->nulls[c] = keys[c].nvalues < nrows;
	}
	return FLOE_OK;
}

/* read_csv / INFER_SCHEMA: the columns of CSV text as d says (o: the
 * reader's options; its delimiter is set when detected) */
int
readfiles_csv_detect(IntoOpts *o, const CsvDetect *d, const char *data, size_t len, const char *label,
		     const char *file, Arena *a, FileColumns *out, floe_error *err)
{
	int64_t skip = d->skip, sample = d->sample;
	bool header = d->header;
	int i, c, r, n, *nf, nc = 0;
	char ***rows;
	unsigned *mask;
	int *kind;
	bool *wide;

	if (!d->have_delim)
		o->delim = sniff_delim(o, data, len, a);
	copyinto_csv_sample(o, data, len, (int)(sample + skip + 1), a, &rows, &nf, &n);
	for (r = (int)skip; r < n; r++)
		if (nf[r] > nc)
			nc = nf[r];
	if (nc == 0)
		return floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT, "%s: \"%s\" has no rows to detect "
				   "columns from", label, file);
	mask = ARENA_ARRAY(a, unsigned, nc + 1);
	kind = ARENA_ARRAY(a, int, nc + 1);
	wide = ARENA_ARRAY(a, bool, nc + 1);
	memset(out, 0, sizeof *out);
	out->nulls = ARENA_ARRAY(a, bool, nc + 1);
	for (c = 0; c < nc; c++) {
		bool any = false;
		mask[c] = ~0u;
		for (r = (int)skip + 1; r < n; r++)
			if (c < nf[r] && rows[r][c]) {
				mask[c] &= value_kinds(rows[r][c], a);
				any = true;
			}
		kind[c] = d->all_varchar || !any ? T_TEXT : best_kind(mask[c]);
	}
	if (!d->have_header && n > (int)skip) {
		bool typed_miss = false, all_text = true, distinct = true;
		char **h = rows[skip];
		for (c = 0; c < nc; c++) {
			const char *v = c < nf[skip] ? h[c] : NULL;
			if (kind[c] != T_TEXT) {
				all_text = false;
				if (v && !(value_kinds(v, a) & (1u << kind[c])))
					typed_miss = true;
			}
			if (!v || !*v)
				distinct = false;
			for (i = 0; i < c && distinct; i++)
				if (h[i] && v && !strcmp(h[i], v))
					distinct = false;
		}
		header = typed_miss || (all_text && distinct && n > (int)skip + 1);
	}
	if (!header && !d->all_varchar) {
		/* the first row is data: it must fit the types too */
		for (c = 0; c < nc && n > (int)skip; c++)
			if (c < nf[skip] && rows[skip][c] && !(value_kinds(rows[skip][c], a) & (1u << kind[c])))
				kind[c] = best_kind(mask[c] & value_kinds(rows[skip][c], a));
	}
	/* NULLs and integers past int32 among the data rows */
	for (r = (int)skip + (header ? 1 : 0); r < n; r++)
		for (c = 0; c < nc; c++) {
			const char *v = c < nf[r] ? rows[r][c] : NULL;
			if (!v)
				out->nulls[c] = true;
			else if (kind[c] == T_INT) {
				long long x = strtoll(v, NULL, 10);
				if (x < INT32_MIN || x > INT32_MAX)
					wide[c] = true;
			}
		}
	out->ncols = nc;
	out->names = ARENA_ARRAY(a, char *, nc + 1);
	out->types = ARENA_ARRAY(a, SqlType, nc + 1);
	out->header = header;
	out->complete = n < (int)(sample + skip + 1);
	for (c = 0; c < nc; c++) {
		char *nm = header && c < nf[skip] && rows[skip][c] && rows[skip][c][0] ?
			rows[skip][c] : arena_sprintf(a, "column%d", c);
		int dup = 0;
		for (i = 0; i < c; i++)
			if (!strcmp(out->names[i], nm))
				dup++;
		out->names[c] = dup ? arena_sprintf(a, "%s_%d", nm, dup) : nm;
		out->types[c] = kind[c] == T_INT && d->narrow_ints && !wide[c] ? type_make(TYPE_INT32) :
			kind_type(kind[c]);
	}
	return FLOE_OK;
}

int
readfiles_source(BindCtx *b, ExecCtx *ctx, const char *fname, PgQuery__FuncCall *f, Operator **op, int *ncols,
		 char ***names, SqlType **types)
{
	bool json = !strcmp(fname, "read_json");
	Session *s = b->session;
	Arena *a = ctx->arena;
	IntoOpts *o = ARENA_NEW(a, IntoOpts);
	char *path = NULL, *loc, *nullstr = "";
	bool have_header = false, header = false, have_delim = false, all_varchar = false;
	int64_t skip = 0, sample = 20480;
	StageFile *files;
	int nfiles, i, rc;
	const uint8_t *raw;
	size_t rawlen, len;
	char *data;
	FileColumns fc;
	CsvDetect d;

	copyinto_default_opts(o, a);
	o->type = FT_CSV;
	o->escape = 0;
	for (i = 0; i < (int)f->n_args; i++) {
		Node *arg = f->args[i];
		const char *on;
		if (arg->node_case != PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			if (i > 0)
				return floe_errorf(b->err, ERRCODE_SYNTAX_ERROR,
						   "read_csv takes the path and then named options (header => true)");
			TRY(readfiles_arg_text(b, arg, fname, "path", a, &path));
			continue;
		}
		on = arg->named_arg_expr->name;
		arg = arg->named_arg_expr->arg;
		if (json && strcmp(on, "sample_size")) {
			return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "read_json option %s is not supported",
					   on);
		} else if (!strcmp(on, "header")) {
			TRY(readfiles_arg_bool(b, arg, fname, on, &header));
			have_header = true;
		} else if (!strcmp(on, "delim") || !strcmp(on, "sep") || !strcmp(on, "delimiter")) {
			TRY(readfiles_arg_char(b, arg, fname, on, a, &o->delim));
			have_delim = true;
		} else if (!strcmp(on, "quote")) {
			TRY(readfiles_arg_char(b, arg, fname, on, a, &o->quote));
		} else if (!strcmp(on, "escape")) {
			TRY(readfiles_arg_char(b, arg, fname, on, a, &o->escape));
		} else if (!strcmp(on, "nullstr")) {
			TRY(readfiles_arg_text(b, arg, fname, on, a, &nullstr));
		} else if (!strcmp(on, "skip")) {
			TRY(readfiles_arg_int(b, arg, fname, on, &skip));
		} else if (!strcmp(on, "sample_size")) {
			TRY(readfiles_arg_int(b, arg, fname, on, &sample));
			if (sample < 1)
				sample = 1;
			if (sample > 1000000)
				sample = 1000000;
		} else if (!strcmp(on, "all_varchar")) {
			TRY(readfiles_arg_bool(b, arg, fname, on, &all_varchar));
		} else {
			return floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED, "read_csv option %s is not supported",
					   on);
		}
	}
	if (!path)
		return floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "%s takes the file path first", fname);
	o->null_if = ARENA_ARRAY(a, char *, 1);
	o->null_if[0] = nullstr;
	o->nnull_if = 1;
	o->empty_as_null = !nullstr[0];
	TRY(stage_resolve(s, path, a, &loc, b->err));
	if (loc[0] != '/' && loc[0] != '@' && !fileio_is_remote(loc)) {
		char cwd[4096];
		if (getcwd(cwd, sizeof cwd))
			loc = arena_sprintf(a, "%s/%s", cwd, loc);
	}
	TRY(readfiles_list(s, loc, a, &files, &nfiles, b->err));

	/* the sample: the first file's first rows */
	TRY(acl_read_file(s, s->engine->io, files[0].path, a, &raw, &rawlen, b->err));
	TRY(stage_inflate(stage_compression(files[0].path, NULL), raw, rawlen, &data, &len, files[0].rel, b->err));
	if (json) {
		rc = readfiles_json_detect(data, len, sample, false, fname, files[0].rel, a, &fc, b->err);
		free(data);
		TRY(rc);
		o->type = FT_JSON;
	} else {
		d.have_header = have_header;
		d.header = header;
		d.have_delim = have_delim;
		d.all_varchar = all_varchar;
		d.narrow_ints = false;
		d.skip = skip;
		d.sample = sample;
		rc = readfiles_csv_detect(o, &d, data, len, fname, files[0].rel, a, &fc, b->err);
		free(data);
		TRY(rc);
		o->skip_header = skip + (fc.header ? 1 : 0);
		o->count_mismatch_error = true;
		o->on_error = OE_ABORT;
	}
	*ncols = fc.ncols;
	*names = fc.names;
	*types = fc.types;
	*op = copyinto_reader_new(ctx, s, o, files, nfiles, fc.ncols, fc.types, fc.names, fname);
	return FLOE_OK;
}
