/*
 * copyinto.c — COPY INTO t FROM '<location>' [options] (copyinto.h has
 * the statement; docs/loading.md the behaviour).
 *
 * Order of work:
 *   1. the options, read from the original statement text after the
 *      location's literal (unknown ones 0A000 by name, bad values 22023);
 *   2. the files: stage_list of the location, PATTERN (a POSIX extended
 *      regex that must match the whole path relative to the location),
 *      minus those the table's load history has (unless FORCE = TRUE);
 *   3. one operator (IntoOp) reads the files one at a time: a file is
 *      read whole (decompressed: .gz / .zst, or COMPRESSION), parsed into
 *      batches kept in the file's arena, and only then handed on, so a
 *      file skipped by SKIP_FILE contributes no row;
 *   4. its rows (the other columns' DEFAULTs added) are ONE append commit
 *      (insert_write_rows_seq) whose snapshot summary records the load's
 *      job id ("floe.job-id");
 *   5. the output row files_loaded | rows_loaded | bytes_loaded |
 *      errors_seen | rejected (the CSV file of the rejected rows, or NULL).
 *
 * ON_ERROR (per row for CSV; for JSON and Parquet a file's first error
 * stands for the file):
 *   ABORT_STATEMENT (ABORT, the default): the first bad row fails the
 *     statement with its error and CONTEXT "COPY INTO t, file F, line N,
 *     column c: "value"", nothing committed;
 *   CONTINUE: bad rows are left out and recorded, up to MAX_ERRORS
 *     (default 1000; one more fails the statement, nothing committed);
 *   SKIP_FILE: a file with any bad row is left out whole (recorded once).
 * The rejected rows go to <warehouse>/stages/_rejected/<job>.csv (file,
 * line, column, sqlstate, error), after the commit.
 *
 * Load history: <warehouse>/load_history/<table-uuid>.tsv, lines "job
 * size mtime_ms path", written BEFORE the commit; a line counts only when
 * a snapshot of the table carries its job id, so a failed or lost commit
 * leaves nothing counted, and a re-run after a crash loads the files
 * again exactly when their rows were not committed.  (Expired snapshots
 * take their history with them.)
 *
 * INTERFACE ROUTINES (copyinto.h)
 *   copyinto_is, copyinto_exec
 */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "ingest/copyfmt.h"
#include "ingest/copyinto.h"
#include "ingest/stage.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/txn.h"
#include "sql/write_target.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/decimal.h"
#include "types/text.h"

#define INTO_MAX_FILES 10000


/* ---- the statement text ----------------------------------------------------- */

bool
copyinto_is(const char *sql, const PgQuery__CopyStmt *st)
{
	int i;
	if (!sql || !st->relation || st->relation->location < 8 || !st->is_from)
		return false;
	i = st->relation->location - 1;
	while (i > 0 && isspace((unsigned char)sql[i]))
		i--;
	if (i < 7 || strncasecmp(sql + i - 3, "into", 4) || !isspace((unsigned char)sql[i - 4]))
		return false;
	i -= 4;
	while (i > 0 && isspace((unsigned char)sql[i]))
		i--;
	return i >= 3 && !strncasecmp(sql + i - 3, "copy", 4) &&
	       (i == 3 || isspace((unsigned char)sql[i - 4]) || sql[i - 4] == ';');
}

typedef enum { TK_END, TK_WORD, TK_STR, TK_EQ, TK_LP, TK_RP, TK_COMMA, TK_BAD } TokKind;

typedef struct Lex {
	const char *p;
	Arena *a;
	TokKind k;
	char *text;
} Lex;

static void
lex_next(Lex *l)
{
	const char *p = l->p;
	while (*p && isspace((unsigned char)*p))
		p++;
	if (p[0] == '-' && p[1] == '-') {
		while (*p && *p != '\n')
			p++;
		l->p = p;
		lex_next(l);
		return;
	}
	l->text = NULL;
	if (!*p || *p == ';') {
		l->k = TK_END;
	} else if (*p == '=' || *p == '(' || *p == ')' || *p == ',') {
		l->k = *p == '=' ? TK_EQ : *p == '(' ? TK_LP : *p == ')' ? TK_RP : TK_COMMA;
		p++;
	} else if (*p == '\'') {
		char *o = arena_alloc(l->a, strlen(p) + 1), *w = o;
		for (p++; *p; p++) {
			if (*p == '\'') {
				if (p[1] != '\'')
					break;
				p++;
			}
			*w++ = *p;
		}
		*w = 0;
		if (!*p) {
			l->k = TK_BAD;
		} else {
			p++;
			l->k = TK_STR;
			l->text = o;
		}
	} else if (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '+') {
		const char *s = p;
		while (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '+' || *p == '.')
			p++;
		l->k = TK_WORD;
		l->text = arena_strndup(l->a, s, (size_t)(p - s));
	} else {
		l->k = TK_BAD;
	}
	l->p = p;
}

const char *
copyinto_options_text(const char *sql, const PgQuery__CopyStmt *st)
{
	const char *p = sql + st->relation->location;
	for (; *p && *p != ';'; p++) {
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p += *p == '"' ? 2 : 1)
				;
			if (!*p)
				return NULL;
			continue;
		}
		if (!strncasecmp(p, "from", 4) && !isalnum((unsigned char)p[4]) && p[4] != '_' &&
		    (p == sql || !isalnum((unsigned char)p[-1]))) {
			const char *q = p + 4;
			while (isspace((unsigned char)*q))
				q++;
			if (*q != '\'')
				continue;
			for (q++; *q && !(*q == '\'' && q[1] != '\''); q += *q == '\'' ? 2 : 1)
				;
			return *q ? q + 1 : NULL;
		}
	}
	return NULL;
}

static int
syntax_error(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "syntax error in COPY INTO options: %s", what);
}

static int
opt_bool(const char *key, const char *v, bool *out, floe_error *err)
{
	if (v && (!strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1")))
		*out = true;
	else if (v && (!strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcmp(v, "0")))
		*out = false;
	else
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "%s requires TRUE or FALSE", key);
	return FLOE_OK;
}

static int
opt_int(const char *key, const char *v, int64_t *out, floe_error *err)
{
	char *e;
	long long x = v ? strtoll(v, &e, 10) : 0;
	if (!v || !*v || *e || x < 0)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "%s requires a non-negative integer",
				   key);
	*out = x;
	return FLOE_OK;
}

/* a one-byte character, or NONE (0) where none is allowed */
static int
opt_char(const char *key, const char *v, bool none_ok, char *out, floe_error *err)
{
	if (v && none_ok && !strcasecmp(v, "none")) {
		*out = 0;
		return FLOE_OK;
	}
	if (!v || strlen(v) != 1 || v[0] == '\n' || v[0] == '\r')
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "%s must be a single one-byte character%s", key, none_ok ? " or NONE" : "");
	*out = v[0];
	return FLOE_OK;
}

static int
format_option(IntoOpts *o, Lex *l, const char *key, floe_error *err)
{
	const char *v;
	if (l->k == TK_LP && !strcasecmp(key, "null_if")) {
		int cap = 4;
		o->nnull_if = 0;
		o->null_if = ARENA_ARRAY(l->a, char *, cap);
		lex_next(l);
		while (l->k == TK_STR) {
			if (o->nnull_if == cap) {
				char **n = ARENA_ARRAY(l->a, char *, cap * 2);
				memcpy(n, o->null_if, sizeof(char *) * (size_t)cap);
				o->null_if = n;
				cap *= 2;
			}
			o->null_if[o->nnull_if++] = l->text;
			lex_next(l);
			if (l->k == TK_COMMA)
				lex_next(l);
		}
		if (l->k != TK_RP)
			return syntax_error(err, "NULL_IF takes a list of strings");
		lex_next(l);
		return FLOE_OK;
	}
	if (l->k != TK_WORD && l->k != TK_STR)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "syntax error in COPY INTO options: %s needs a value",
				   key);
	v = l->text;
	lex_next(l);
	if (!strcasecmp(key, "type")) {
		if (!strcasecmp(v, "csv"))
			o->type = FT_CSV;
		else if (!strcasecmp(v, "json"))
			o->type = FT_JSON;
		else if (!strcasecmp(v, "parquet"))
			o->type = FT_PARQUET;
		else
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "FILE_FORMAT TYPE = %s is not supported (CSV, JSON, PARQUET are)", v);
		return FLOE_OK;
	}
	if (!strcasecmp(key, "field_delimiter") || !strcasecmp(key, "delimiter"))
		return opt_char(key, v, false, &o->delim, err);
	if (!strcasecmp(key, "field_optionally_enclosed_by") || !strcasecmp(key, "quote"))
		return opt_char(key, v, true, &o->quote, err);
	if (!strcasecmp(key, "escape"))
		return opt_char(key, v, true, &o->escape, err);
	if (!strcasecmp(key, "skip_header") || !strcasecmp(key, "skip_rows"))
		return opt_int(key, v, &o->skip_header, err);
	if (!strcasecmp(key, "parse_header") || !strcasecmp(key, "header"))
		return opt_bool(key, v, &o->parse_header, err);
	if (!strcasecmp(key, "null_if") || !strcasecmp(key, "null_string")) {
		o->null_if = ARENA_ARRAY(l->a, char *, 1);
		o->null_if[0] = (char *)v;
		o->nnull_if = 1;
		return FLOE_OK;
	}
	if (!strcasecmp(key, "empty_field_as_null"))
		return opt_bool(key, v, &o->empty_as_null, err);
	if (!strcasecmp(key, "trim_space"))
		return opt_bool(key, v, &o->trim_space, err);
	if (!strcasecmp(key, "error_on_column_count_mismatch"))
		return opt_bool(key, v, &o->count_mismatch_error, err);
	if (!strcasecmp(key, "skip_byte_order_mark"))
		return opt_bool(key, v, &o->bom, err);
	if (!strcasecmp(key, "strip_outer_array")) {
		bool b;
		return opt_bool(key, v, &b, err);   /* arrays of rows are read either way */
	}
	if (!strcasecmp(key, "compression")) {
		if (strcasecmp(v, "auto") && strcasecmp(v, "gzip") && strcasecmp(v, "zstd") && strcasecmp(v, "none"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "COMPRESSION = %s is not supported (AUTO, GZIP, ZSTD, NONE are)", v);
		o->compression = v;
		return FLOE_OK;
	}
	if (!strcasecmp(key, "encoding")) {
		if (strcasecmp(v, "utf8") && strcasecmp(v, "utf-8"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "FILE_FORMAT ENCODING = '%s' is not supported (UTF8 is)", v);
		return FLOE_OK;
	}
	if (!strcasecmp(key, "date_format") || !strcasecmp(key, "timestamp_format") ||
	    !strcasecmp(key, "time_format")) {
		if (strcasecmp(v, "auto"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "%s = '%s' is not supported yet (AUTO: the column type's input "
					   "formats)", key, v);
		return FLOE_OK;
	}
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "FILE_FORMAT option %s is not supported", key);
}

void
copyinto_default_opts(IntoOpts *o, Arena *a)
{
	memset(o, 0, sizeof *o);
	o->type = FT_CSV;
	o->delim = ',';
	o->quote = '"';
	o->empty_as_null = true;
	o->count_mismatch_error = true;
	o->bom = true;
	o->max_errors = 1000;
	o->on_error = OE_ABORT;
	o->null_if = ARENA_ARRAY(a, char *, 1);
	o->null_if[0] = "\\N";
	o->nnull_if = 1;
}

/* Runs visit over a list of KEY = value options up to close (TK_END or
 * TK_RP, consumed), commas between them optional; visit is called with the
 * lexer on the value and consumes it. */
typedef int (*OptionVisit)(IntoOpts *o, Lex *l, const char *key, floe_error *err);

static int
option_list(Lex *l, TokKind close, const char *what, IntoOpts *o, OptionVisit visit, floe_error *err)
{
	while (l->k != close) {
		const char *key;
		if (l->k == TK_COMMA) {
			lex_next(l);
			continue;
		}
		if (l->k != TK_WORD)
			return close == TK_RP ? syntax_error(err, "expected a FILE_FORMAT option or \")\"")
					      : syntax_error(err, "expected an option name");
		key = l->text;
		lex_next(l);
		if (l->k != TK_EQ)
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
					   "syntax error in %s options: expected \"=\" after %s", what, key);
		lex_next(l);
		TRY(visit(o, l, key, err));
	}
	if (close != TK_END)
		lex_next(l);
	return FLOE_OK;
}

/* one COPY INTO option (FILE_FORMAT = (...) through format_option) */
static int
into_option(IntoOpts *o, Lex *l, const char *key, floe_error *err)
{
	if (!strcasecmp(key, "file_format")) {
		if (l->k != TK_LP)
			return syntax_error(err, "FILE_FORMAT = (TYPE = ...)");
		lex_next(l);
		return option_list(l, TK_RP, "COPY INTO", o, format_option, err);
	}
	if (l->k != TK_WORD && l->k != TK_STR)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "syntax error in COPY INTO options: %s needs a value", key);
	if (!strcasecmp(key, "pattern")) {
		o->pattern = l->text;
	} else if (!strcasecmp(key, "on_error")) {
		if (!strcasecmp(l->text, "abort_statement") || !strcasecmp(l->text, "abort"))
			o->on_error = OE_ABORT;
		else if (!strcasecmp(l->text, "continue"))
			o->on_error = OE_CONTINUE;
		else if (!strcasecmp(l->text, "skip_file"))
			o->on_error = OE_SKIP_FILE;
		else
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "ON_ERROR = %s is not supported (ABORT_STATEMENT, CONTINUE, "
					   "SKIP_FILE are)", l->text);
	} else if (!strcasecmp(key, "max_errors")) {
		TRY(opt_int(key, l->text, &o->max_errors, err));
	} else if (!strcasecmp(key, "force")) {
		TRY(opt_bool(key, l->text, &o->force, err));
	} else {
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "COPY INTO option %s is not supported", key);
	}
	lex_next(l);
	return FLOE_OK;
}

static int
parse_options(const char *text, Arena *a, IntoOpts *o, floe_error *err)
{
	Lex l;
	copyinto_default_opts(o, a);
	l.p = text;
	l.a = a;
	lex_next(&l);
	return option_list(&l, TK_END, "COPY INTO", o, into_option, err);
}

/* ---- load history ---------------------------------------------------------------- */

typedef struct History {
	char *text;               /* the file (NUL-terminated), or "" */
	size_t len;
	char **jobs;              /* committed job ids (floe.job-id of the snapshots) */
	int njobs;
} History;

static char *
history_path(Session *s, const Table *t, Arena *a)
{
	const char *wh = s->engine->warehouse;
	size_t wl = strlen(wh);
	while (wl > 1 && wh[wl - 1] == '/')
		wl--;
	return arena_sprintf(a, "%.*s/load_history/%s.tsv", (int)wl, wh,
			     t->md->table_uuid ? t->md->table_uuid : "none");
}

static int
history_load(Session *s, const Table *t, Arena *a, History *h, floe_error *err)
{
	const uint8_t *data;
	size_t len;
	int i, k;
	char *p = history_path(s, t, a);

	memset(h, 0, sizeof *h);
	h->text = "";
	if (fileio_exists(s->engine->io, p)) {
		TRY(fileio_read(s->engine->io, p, a, &data, &len, err));
		h->text = arena_strndup(a, (const char *)data, len);
		h->len = len;
	}
	h->jobs = ARENA_ARRAY(a, char *, t->md->nsnapshots + 1);
	for (i = 0; i < t->md->nsnapshots; i++)
		for (k = 0; k < t->md->snapshots[i].nsummary; k++)
			if (!strcmp(t->md->snapshots[i].summary[k].key, "floe.job-id"))
				h->jobs[h->njobs++] = t->md->snapshots[i].summary[k].value;
	return FLOE_OK;
}

/* was f loaded by a committed load? */
static bool
history_has(const History *h, const StageFile *f)
{
	const char *line = h->text;
	char want[64];
	size_t wl;
	snprintf(want, sizeof want, "\t%llu\t%lld\t", (unsigned long long)f->size, (long long)f->mtime_ms);
	wl = strlen(want);
	while (line && *line) {
		const char *eol = strchr(line, '\n'), *tab = strchr(line, '\t');
		size_t ll = eol ? (size_t)(eol - line) : strlen(line);
		if (tab && tab < line + ll && !strncmp(tab, want, wl)) {
			const char *path = tab + wl;
			size_t pl = ll - (size_t)(path - line);
			if (pl == strlen(f->path) && !memcmp(path, f->path, pl)) {
				int j;
				for (j = 0; j < h->njobs; j++)
					if (strlen(h->jobs[j]) == (size_t)(tab - line) &&
					    !memcmp(h->jobs[j], line, (size_t)(tab - line)))
						return true;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return false;
}

/* ---- reading the files ----------------------------------------------------------- */

typedef struct Reject {
	const char *file;
	int64_t line;
	const char *column;
	char sqlstate[6];
	char *message;
} Reject;

typedef struct IntoOp {
	Operator op;
	Session *s;
	const IntoOpts *o;
	const char *verb;         /* CONTEXT: "COPY INTO " t, or "" for read_csv */
	const char *table;
	StageFile *files;
	int nfiles, cur;
	bool *loaded;             /* per file: its rows are in */
	char **names;
	size_t *name_len;
	Arena *farena;            /* the current file's batches */
	Batch **fb;
	int nfb, fbcap, emit;
	int64_t files_loaded, rows_loaded, bytes_loaded, errors_seen;
	Reject *rej;
	int nrej, rejcap;
	/* CSV scratch */
	char *fbuf;
	size_t fbcap_bytes;
	const char **fld;
	size_t *flen;
	bool *fquoted;
	int fcap;
	int *hmap;                /* PARSE_HEADER: field -> column, -1 none */
	int nh;
	/* load history: the loaded files' lines, written once every file is
	 * read (before the commit) */
	const History *h;
	char *hpath;
	const char *job;
	bool hist_done;
} IntoOp;

static int
write_history(IntoOp *io)
{
	CopyBuf hb = {0};
	int i, rc;
	copybuf_mem(&hb, io->h->text, io->h->len);
	for (i = 0; i < io->nfiles; i++) {
		char *line;
		if (!io->loaded[i])
			continue;
		line = arena_sprintf(io->op.ctx->arena, "%s\t%llu\t%lld\t%s\n", io->job,
				     (unsigned long long)io->files[i].size, (long long)io->files[i].mtime_ms,
				     io->files[i].path);
		copybuf_mem(&hb, line, strlen(line));
	}
	rc = fileio_replace(io->s->engine->io, io->hpath, hb.p ? hb.p : "", hb.len, io->op.ctx->err);
	free(hb.p);
	return rc;
}

static void
keep(IntoOp *io, Batch *b)
{
	if (io->nfb == io->fbcap) {
		int nc = io->fbcap ? io->fbcap * 2 : 16;
		Batch **n = ARENA_ARRAY(io->farena, Batch *, nc);
		if (io->nfb)
			memcpy(n, io->fb, sizeof(Batch *) * (size_t)io->nfb);
		io->fb = n;
		io->fbcap = nc;
	}
	io->fb[io->nfb++] = b;
}

/* A bad row (the error in ctx->err): ABORT fails with it; CONTINUE and
 * SKIP_FILE record it (*skip: leave the file out), and fail past
 * MAX_ERRORS. */
static int
bad_row(IntoOp *io, const StageFile *f, int64_t line, int col, const char *val, size_t vlen, bool *skip)
{
	floe_error *err = io->op.ctx->err;
	Reject *r;
	if (io->o->on_error == OE_ABORT) {
		if (err->context[0])
			return FLOE_ERR;
		if (col >= 0 && val) {
			if (vlen > 100)
				vlen = 100;
			return floe_error_context(err, "%s%s, file %s, line %lld, column %s: \"%.*s\"",
						  io->verb, io->table, f->rel, (long long)line, io->names[col],
						  (int)vlen, val);
		}
		return floe_error_context(err, "%s%s, file %s, line %lld", io->verb, io->table, f->rel,
					  (long long)line);
	}
	if (io->nrej == io->rejcap) {
		int nc = io->rejcap ? io->rejcap * 2 : 64;
		io->rej = xrealloc(io->rej, sizeof(Reject) * (size_t)nc);
		io->rejcap = nc;
	}
	r = &io->rej[io->nrej++];
	r->file = f->rel;
	r->line = line;
	r->column = col >= 0 ? io->names[col] : NULL;
	memcpy(r->sqlstate, err->sqlstate, 6);
	r->message = arena_strdup(io->op.ctx->arena, err->message);
	io->errors_seen++;
	floe_error_clear(err);
	if (io->o->on_error == OE_SKIP_FILE) {
		*skip = true;
		return FLOE_OK;
	}
	if (io->errors_seen > io->o->max_errors) {
		floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
			    "COPY INTO stopped: more than MAX_ERRORS = %lld rejected rows",
			    (long long)io->o->max_errors);
		return floe_error_detail(err, "The last: file %s, line %lld%s%s: %s", f->rel, (long long)line,
					 col >= 0 ? ", column " : "", col >= 0 ? io->names[col] : "", r->message);
	}
	return FLOE_OK;
}

static void
ensure_fields(IntoOp *io, int n)
{
	if (n < io->fcap)
		return;
	int nc = io->fcap ? io->fcap * 2 : 64;
	while (nc <= n)
		nc *= 2;
	io->fld = xrealloc(io->fld, sizeof(char *) * (size_t)nc);
	io->flen = xrealloc(io->flen, sizeof(size_t) * (size_t)nc);
	io->fquoted = xrealloc(io->fquoted, sizeof(bool) * (size_t)nc);
	io->fcap = nc;
}

/* One CSV record from b[*pos..len) into the field arrays (de-quoted text
 * in io->fbuf); *lines: the newlines it spans; false at the end.  An
 * unterminated quoted field takes the rest of the file (*unterminated). */
static bool
csv_record(IntoOp *io, const char *b, size_t len, size_t *pos, int *nf, int64_t *lines, bool *unterminated,
	   const char **rec, size_t *reclen)
{
	const IntoOpts *o = io->o;
	size_t i = *pos;
	char *out = io->fbuf;
	int k = 0;
	*lines = 0;
	*unterminated = false;
	if (i >= len)
		return false;
	*rec = b + i;
	for (;;) {
		char *start;
		bool quoted = false;
		while (o->trim_space && i < len && (b[i] == ' ' || b[i] == '\t'))
			i++;
		start = out;
		if (o->quote && i < len && b[i] == o->quote) {
			quoted = true;
			for (i++;; i++) {
				if (i >= len) {
					*unterminated = true;
					break;
				}
				if (o->escape && o->escape != o->quote && b[i] == o->escape && i + 1 < len) {
					*out++ = b[++i];
					continue;
				}
				if (b[i] == o->quote) {
					if (i + 1 < len && b[i + 1] == o->quote) {
						*out++ = o->quote;
						i++;
						continue;
					}
					i++;
					break;
				}
				if (b[i] == '\n')
					(*lines)++;
				*out++ = b[i];
			}
		}
		while (i < len && b[i] != o->delim && b[i] != '\n') {
			*out++ = b[i];
			i++;
		}
		if (!quoted && out > start && out[-1] == '\r' && (i >= len || b[i] == '\n'))
			out--;
		if (o->trim_space)
			while (out > start && (out[-1] == ' ' || out[-1] == '\t'))
				out--;
		if (quoted && out > start && out[-1] == '\r' && (i >= len || b[i] == '\n'))
			out--;
		ensure_fields(io, k);
		io->fld[k] = start;
		io->flen[k] = (size_t)(out - start);
		io->fquoted[k] = quoted;
		k++;
		if (i < len && b[i] == o->delim) {
			i++;
			continue;
		}
		break;
	}
	*reclen = (size_t)(b + i - *rec);
	if (*reclen > 0 && (*rec)[*reclen - 1] == '\r')
		(*reclen)--;
	if (i < len)
		i++;   /* the newline */
	*pos = i;
	*nf = k;
	return true;
}

static bool
is_null_field(const IntoOp *io, int k)
{
	int j;
	if (io->fquoted[k])
		return false;
	if (io->flen[k] == 0 && io->o->empty_as_null)
		return true;
	for (j = 0; j < io->o->nnull_if; j++)
		if (strlen(io->o->null_if[j]) == io->flen[k] && !memcmp(io->o->null_if[j], io->fld[k], io->flen[k]))
			return true;
	return false;
}

int
copyinto_csv_sample(const IntoOpts *o, const char *data, size_t len, int max, Arena *a, char ****rows,
		    int **nf, int *n)
{
	IntoOp io;
	size_t pos = 0;
	int k;
	memset(&io, 0, sizeof io);
	io.o = o;
	io.fbuf = xmalloc(len + 1);
	if (o->bom && len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
		pos = 3;
	*rows = ARENA_ARRAY(a, char **, max + 1);
	*nf = ARENA_ARRAY(a, int, max + 1);
	*n = 0;
	while (*n < max) {
		int m;
		int64_t lines;
		bool unterminated;
		const char *rec;
		size_t reclen;
		if (!csv_record(&io, data, len, &pos, &m, &lines, &unterminated, &rec, &reclen))
			break;
		if (m == 1 && io.flen[0] == 0 && !io.fquoted[0] && reclen == 0)
			continue;
		(*rows)[*n] = ARENA_ARRAY(a, char *, m + 1);
		for (k = 0; k < m; k++)
			(*rows)[*n][k] = is_null_field(&io, k) ? NULL : arena_strndup(a, io.fld[k], io.flen[k]);
		(*nf)[(*n)++] = m;
		if (unterminated)
			break;
	}
	free(io.fbuf);
	free(io.fld);
	free(io.flen);
	free(io.fquoted);
	return FLOE_OK;
}

static int
set_field(IntoOp *io, Batch *b, uint32_t r, int c, int k, const StageFile *f, int64_t line, bool *bad,
	  bool *skip)
{
	Operator *op = &io->op;
	Value v;
	if (k < 0 || is_null_field(io, k)) {
		vector_set_null(&b->cols[c], r);
		return FLOE_OK;
	}
	if (value_from_text(&v, op->types[c], io->fld[k], io->flen[k], io->farena, op->ctx->err) != FLOE_OK ||
	    (v.type.id == TYPE_DECIMAL && v.type.scale != op->types[c].scale &&
	     decimal_rescale(v.u.d, v.type.scale, op->types[c].scale, &v.u.d, op->ctx->err) != FLOE_OK)) {
		*bad = true;
		return bad_row(io, f, line, c, io->fld[k], io->flen[k], skip);
	}
	if (v.type.id == TYPE_DECIMAL)
		v.type = op->types[c];
	vector_set_value(&b->cols[c], r, &v);
	return FLOE_OK;
}

static int
load_csv(IntoOp *io, const StageFile *f, const char *data, size_t len, bool *skip)
{
	Operator *op = &io->op;
	size_t pos = 0;
	int64_t line = 1, lines, skipped = 0;
	Batch *b = NULL;
	uint32_t r = 0;
	bool header = io->o->parse_header;
	int c;

	if (io->o->bom && len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
		pos = 3;
	if (io->fbcap_bytes < len + 1) {
		free(io->fbuf);
		io->fbcap_bytes = len + 1;
		io->fbuf = xmalloc(io->fbcap_bytes);
	}
	for (;;) {
		int nf;
		bool unterminated, bad = false;
		const char *rec;
		size_t reclen;
		int64_t at = line;
		if (!csv_record(io, data, len, &pos, &nf, &lines, &unterminated, &rec, &reclen))
			break;
		line += lines + 1;
		if (skipped < io->o->skip_header) {
			skipped++;
			continue;
		}
		if (nf == 1 && io->flen[0] == 0 && !io->fquoted[0] && reclen == 0)
			continue;    /* a blank line */
		if (text_validate_utf8(rec, reclen, op->ctx->err) != FLOE_OK) {
			TRY(bad_row(io, f, at, -1, NULL, 0, skip));
			if (*skip)
				return FLOE_OK;
			continue;
		}
		if (unterminated) {
			floe_errorf(op->ctx->err, ERRCODE_BAD_COPY_FILE_FORMAT, "unterminated quoted field");
			TRY(bad_row(io, f, at, -1, NULL, 0, skip));
			return FLOE_OK;
		}
		if (header) {
			int k;
			header = false;
			io->hmap = ARENA_ARRAY(io->farena, int, nf + 1);
			io->nh = nf;
			for (k = 0; k < nf; k++) {
				io->hmap[k] = -1;
				for (c = 0; c < op->ncols; c++)
					if (io->flen[k] == io->name_len[c] &&
					    !strncasecmp(io->fld[k], io->names[c], io->flen[k]))
						io->hmap[k] = c;
			}
			continue;
		}
		if (!io->o->parse_header && nf != op->ncols && io->o->count_mismatch_error) {
			floe_errorf(op->ctx->err, ERRCODE_BAD_COPY_FILE_FORMAT,
				    "number of columns in file (%d) does not match that of the table (%d)", nf,
				    op->ncols);
			TRY(bad_row(io, f, at, -1, NULL, 0, skip));
			if (*skip)
				return FLOE_OK;
			continue;
		}
		if (!b) {
			b = batch_new(io->farena, op->ncols, op->types, VECTOR_SIZE);
			r = 0;
		}
		if (io->o->parse_header) {
			int k;
			for (c = 0; c < op->ncols; c++)
				vector_set_null(&b->cols[c], r);
			for (k = 0; k < nf && k < io->nh && !bad; k++)
				if (io->hmap[k] >= 0)
					TRY(set_field(io, b, r, io->hmap[k], k, f, at, &bad, skip));
		} else {
			for (c = 0; c < op->ncols && !bad; c++)
				TRY(set_field(io, b, r, c, c < nf ? c : -1, f, at, &bad, skip));
		}
		if (*skip)
			return FLOE_OK;
		if (bad)
			continue;
		if (++r == VECTOR_SIZE) {
			b->count = r;
			keep(io, b);
			b = NULL;
		}
	}
	if (b && r) {
		b->count = r;
		keep(io, b);
	}
	return FLOE_OK;
}

typedef struct MemRead {
	const char *p;
	size_t len, pos;
} MemRead;

static int
mem_read(void *c, char *buf, size_t cap, size_t *len, floe_error *err)
{
	MemRead *m = c;
	size_t n = m->len - m->pos < cap ? m->len - m->pos : cap;
	(void)err;
	memcpy(buf, m->p + m->pos, n);
	m->pos += n;
	*len = n;
	return FLOE_OK;
}

/* JSON and Parquet: drain the format's reader into the file's batches */
static int
load_op(IntoOp *io, const StageFile *f, Operator *src, bool *skip)
{
	Batch *b;
	int rc = op_open(src), c;
	while (rc == FLOE_OK) {
		if ((rc = op_next(src, &b)) != FLOE_OK || !b)
			break;
		if (!b->count)
			continue;
		{
			Batch *d = batch_new(io->farena, io->op.ncols, io->op.types, b->count);
			for (c = 0; c < io->op.ncols; c++)
				vector_copy_rows(&d->cols[c], 0, &b->cols[c], b->sel, b->count);
			d->count = b->count;
			keep(io, d);
		}
	}
	op_close(src);
	if (rc == FLOE_OK)
		return FLOE_OK;
	if (io->o->on_error == OE_ABORT)
		return FLOE_ERR;
	io->nfb = 0;
	*skip = true;
	{
		/* the file stands for its rows: recorded once, as SKIP_FILE */
		floe_error *err = io->op.ctx->err;
		char ctx[1024];
		snprintf(ctx, sizeof ctx, "%s", err->context);
		if (ctx[0])
			snprintf(err->message + strlen(err->message), sizeof err->message - strlen(err->message),
				 " (%s)", ctx);
		err->context[0] = 0;
		TRY(bad_row(io, f, 0, -1, NULL, 0, skip));
	}
	return FLOE_OK;
}

static int
load_file(IntoOp *io, int i)
{
	const StageFile *f = &io->files[i];
	ExecCtx *ctx = io->op.ctx;
	FileIO *fio = io->s->engine->io;
	bool skip = false;
	int64_t rows = 0;
	int k, rc;

	arena_reset(io->farena);
	io->nfb = io->emit = io->fbcap = 0;
	io->fb = NULL;
	if (io->o->type == FT_PARQUET) {
		Operator *src;
		char *p = (char *)f->path;
		rc = copypq_reader_new(ctx, io->s, fio, &p, 1, io->op.ncols, io->op.types, io->names, &src);
		if (rc == FLOE_OK)
			rc = load_op(io, f, src, &skip);
		else if (io->o->on_error != OE_ABORT) {
			skip = true;
			rc = bad_row(io, f, 0, -1, NULL, 0, &skip);
		}
		TRY(rc);
	} else {
		const uint8_t *raw;
		size_t rawlen, len;
		char *data;
		TRY(acl_read_file(io->s, fio, f->path, io->farena, &raw, &rawlen, ctx->err));
		if (stage_inflate(stage_compression(f->path, io->o->compression), raw, rawlen, &data, &len, f->rel,
				  ctx->err) != FLOE_OK) {
			if (io->o->on_error == OE_ABORT)
				return FLOE_ERR;
			skip = true;
			return bad_row(io, f, 0, -1, NULL, 0, &skip);
		}
		if (io->o->type == FT_CSV) {
			rc = load_csv(io, f, data, len, &skip);
		} else {
			MemRead m = { data, len, 0 };
			char *rel = arena_sprintf(io->farena, "%s%s, file %s", io->verb[0] ? "INTO " : "", io->table,
						  f->rel);
			Operator *src = copyjson_reader_new(ctx, io->op.ncols, io->op.types, io->names, rel, mem_read, &m);
			rc = load_op(io, f, src, &skip);
		}
		free(data);
		TRY(rc);
	}
	if (skip) {
		io->nfb = 0;
		return FLOE_OK;
	}
	for (k = 0; k < io->nfb; k++)
		rows += io->fb[k]->count;
	io->loaded[i] = true;
	io->files_loaded++;
	io->rows_loaded += rows;
	io->bytes_loaded += (int64_t)f->size;
	return FLOE_OK;
}

static int
into_open(Operator *op)
{
	(void)op;
	return FLOE_OK;
}

static int
into_next(Operator *op, Batch **out)
{
	IntoOp *io = (IntoOp *)op;
	*out = NULL;
	for (;;) {
		if (io->emit < io->nfb) {
			*out = io->fb[io->emit++];
			return FLOE_OK;
		}
		if (io->cur >= io->nfiles) {
			if (io->h && !io->hist_done && io->files_loaded) {
				io->hist_done = true;
				TRY(write_history(io));
			}
			return FLOE_OK;
		}
		TRY(exec_check_cancel(op->ctx));
		TRY(load_file(io, io->cur++));
	}
}

static void
into_close(Operator *op)
{
	IntoOp *io = (IntoOp *)op;
	free(io->fbuf);
	free(io->fld);
	free(io->flen);
	free(io->fquoted);
	io->fbuf = NULL;
	io->fld = NULL;
	io->flen = NULL;
	io->fquoted = NULL;
	io->fcap = 0;
	io->fbcap_bytes = 0;
}

static void
into_close_all(Operator *op)
{
	IntoOp *io = (IntoOp *)op;
	into_close(op);
	if (io->farena)
		arena_free(io->farena);
	io->farena = NULL;
	free(io->rej);
	io->rej = NULL;
}

static const OperatorVT into_vt = {
	.name = "CopyInto", .open = into_open, .next = into_next, .close = into_close,
};

/* read_csv / read_json: the same reader, its own arenas freed at close */
static const OperatorVT read_vt = {
	.name = "ReadFiles", .open = into_open, .next = into_next, .close = into_close_all,
};

Operator *
copyinto_reader_new(ExecCtx *ctx, Session *s, const IntoOpts *o, StageFile *files, int nfiles, int ncols,
		    const SqlType *types, char **names, const char *label)
{
	IntoOp *io = ARENA_NEW(ctx->arena, IntoOp);
	int k;
	op_init(&io->op, &read_vt, ctx, ncols, types, NULL);
	io->s = s;
	io->o = o;
	io->verb = "";
	io->table = label;
	io->files = files;
	io->nfiles = nfiles;
	io->loaded = ARENA_ARRAY(ctx->arena, bool, nfiles + 1);
	io->names = names;
	io->name_len = ARENA_ARRAY(ctx->arena, size_t, ncols + 1);
	for (k = 0; k < ncols; k++)
		io->name_len[k] = strlen(names[k]);
	io->farena = arena_new(1 << 20);
	return &io->op;
}

/* ---- the statement ----------------------------------------------------------------- */

static int
write_rejects(IntoOp *io, const char *job, char **path, floe_error *err)
{
	CopyBuf b = {0};
	const char *wh = io->s->engine->warehouse;
	size_t wl = strlen(wh);
	int i, rc;
	while (wl > 1 && wh[wl - 1] == '/')
		wl--;
	*path = arena_sprintf(io->op.ctx->arena, "%.*s/stages/_rejected/%s.csv", (int)wl, wh, job);
	copybuf_mem(&b, "file,line,column,sqlstate,error\n", 32);
	for (i = 0; i < io->nrej; i++) {
		const Reject *r = &io->rej[i];
		const char *vals[5];
		char line[32];
		int k;
		snprintf(line, sizeof line, "%lld", (long long)r->line);
		vals[0] = r->file;
		vals[1] = r->line ? line : "";
		vals[2] = r->column ? r->column : "";
		vals[3] = r->sqlstate;
		vals[4] = r->message;
		for (k = 0; k < 5; k++) {
			const char *s = vals[k];
			if (k)
				copybuf_mem(&b, ",", 1);
			if (strpbrk(s, ",\"\n\r")) {
				copybuf_mem(&b, "\"", 1);
				for (; *s; s++) {
					if (*s == '"')
						copybuf_mem(&b, "\"", 1);
					copybuf_mem(&b, s, 1);
				}
				copybuf_mem(&b, "\"", 1);
			} else {
				copybuf_mem(&b, s, strlen(s));
			}
		}
		copybuf_mem(&b, "\n", 1);
	}
	rc = fileio_replace(io->s->engine->io, *path, b.p, b.len, err);
	free(b.p);
	return rc;
}

static int
send_result(IntoOp *io, const char *rejected, ResultSink *sink, floe_error *err)
{
	static const char *const names[5] = { "files_loaded", "rows_loaded", "bytes_loaded", "errors_seen",
					      "rejected" };
	SqlType types[5];
	Batch *b;
	char tag[64];
	int c;
	for (c = 0; c < 4; c++)
		types[c] = type_make(TYPE_INT64);
	types[4] = type_make(TYPE_TEXT);
	b = batch_new(io->op.ctx->arena, 5, types, 1);
	((int64_t *)b->cols[0].data)[0] = io->files_loaded;
	((int64_t *)b->cols[1].data)[0] = io->rows_loaded;
	((int64_t *)b->cols[2].data)[0] = io->bytes_loaded;
	((int64_t *)b->cols[3].data)[0] = io->errors_seen;
	if (rejected)
		vector_set_string(&b->cols[4], 0, rejected, (uint32_t)strlen(rejected));
	else
		vector_set_null(&b->cols[4], 0);
	b->count = 1;
	if (sink && sink->columns && sink->columns(sink->ctx, 5, names, types) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (sink && sink->batch && sink->batch(sink->ctx, b) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	snprintf(tag, sizeof tag, "COPY %lld", (long long)io->rows_loaded);
	return engine_complete(sink, tag);
}

int
copyinto_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink)
{
	floe_error *err = ctx->err;
	const char *text = copyinto_options_text(sql, st), *ns, *name;
	IntoOpts o;
	char *path, *job, *rejected = NULL;
	StageFile *files;
	int nfiles, i, k, ncols;
	Table *t;
	const IcebergSchema *schema;
	int *tcols;
	SqlType *types;
	char **names;
	Expr **proj;
	BindCtx b;
	History h;
	IntoOp *io;
	regex_t re;
	bool have_re = false;
	int64_t rows;
	int rc;

	if (!text)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "COPY INTO needs FROM '<location>'");
	TRY(parse_options(text, ctx->arena, &o, err));
	if (st->n_options)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "COPY INTO takes FILE_FORMAT = (...), not COPY's (option, ...) list");
	session_resolve_name(s, st->relation, &ns, &name);
	if (txn_table_load(s, ns, name, ctx->arena, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
		return FLOE_ERR;
	}
	/* INSERT on t, as COPY FROM's (the file role: acl.c, before this) */
	TRY(acl_note_target(s, ctx, t, ROLE_PRIV_INSERT, err));
	TRY(write_target_wap(s, &t, ctx->arena, err));   /* floe.wap_id / wap_branch */
	TRY(stage_resolve(s, st->filename, ctx->arena, &path, err));
	TRY(acl_check_file(s, path, false, err));
	TRY(stage_list(s, path, ctx->arena, &files, &nfiles, err));
	if (o.pattern) {
		if (regcomp(&re, arena_sprintf(ctx->arena, "^(%s)$", o.pattern), REG_EXTENDED | REG_NOSUB) != 0)
			return floe_errorf(err, ERRCODE_INVALID_REGULAR_EXPRESSION,
					   "invalid regular expression in PATTERN: %s", o.pattern);
		have_re = true;
	}
	TRY(history_load(s, t, ctx->arena, &h, err));
	for (i = 0, k = 0; i < nfiles; i++) {
		if (have_re && regexec(&re, files[i].rel, 0, NULL, 0) != 0)
			continue;
		if (!o.force && history_has(&h, &files[i]))
			continue;
		if (acl_check_file(s, files[i].path, false, err) != FLOE_OK) {
			if (have_re)
				regfree(&re);
			return FLOE_ERR;
		}
		files[k++] = files[i];
	}
	if (have_re)
		regfree(&re);
	nfiles = k;
	if (nfiles > INTO_MAX_FILES)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "COPY INTO of %d files: at most %d in one statement (narrow it with PATTERN)",
				   nfiles, INTO_MAX_FILES);

	/* the target columns: all, or the listed ones (the others' DEFAULT) */
	schema = metadata_current_schema(t->md);
	TRY(copy_target_columns(schema, st->attlist, st->n_attlist, name, ctx->arena, &tcols, &ncols, &types,
				&names, err));
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = err;
	b.where = "COPY";
	proj = ARENA_ARRAY(ctx->arena, Expr *, schema->nfields + 1);
	for (i = 0; i < schema->nfields; i++) {
		for (k = 0; k < ncols && tcols[k] != i; k++)
			;
		if (k < ncols)
			proj[i] = expr_colref(ctx->arena, k, types[k]);
		else if (!(proj[i] = bind_default_expr(&b, &schema->fields[i])))
			return FLOE_ERR;
	}

	io = ARENA_NEW(ctx->arena, IntoOp);
	op_init(&io->op, &into_vt, ctx, ncols, types, NULL);
	io->s = s;
	io->o = &o;
	io->verb = "COPY INTO ";
	io->table = name;
	io->files = files;
	io->nfiles = nfiles;
	io->loaded = ARENA_ARRAY(ctx->arena, bool, nfiles + 1);
	io->names = names;
	io->name_len = ARENA_ARRAY(ctx->arena, size_t, ncols + 1);
	for (k = 0; k < ncols; k++)
		io->name_len[k] = strlen(names[k]);
	io->farena = arena_new(1 << 20);
	job = (char *)table_new_job_id(ctx->arena);
	io->job = job;
	io->h = &h;
	io->hpath = history_path(s, t, ctx->arena);
	rc = nfiles ? insert_write_rows_seq(s, ctx, t, project_new(ctx, &io->op, schema->nfields, proj), 0, job,
					    &rows) : FLOE_OK;
	into_close(&io->op);
	arena_free(io->farena);
	if (rc == FLOE_OK && io->nrej)
		rc = write_rejects(io, job, &rejected, err);
	free(io->rej);
	TRY(rc);
	return send_result(io, rejected, sink, err);
}
