/*
 * copy.c — COPY: table or query rows to the client (TO STDOUT), and rows
 * from the client into a table (FROM STDIN), in text or CSV format.
 *
 * Spec: PostgreSQL 15 "COPY" (ref/copy.sgml), behaviour of
 * commands/copyto.c (CopyAttributeOutText/CSV) and copyfromparse.c
 * (CopyReadLine, CopyReadAttributesText/CSV).
 *
 *   COPY t [(cols)] TO STDOUT     rows of SELECT cols FROM t
 *   COPY (query) TO STDOUT        rows of the query
 *   COPY t [(cols)] FROM STDIN    each record parsed with value_from_text
 *                                 into the listed columns; the others get
 *                                 their DEFAULT; one atomic append commit
 *                                 through engine_write_rows (INSERT's path)
 * Options: FORMAT text|csv, HEADER [bool] (FROM: the first line is
 * skipped), DELIMITER, NULL, QUOTE, ESCAPE (csv), FORCE_QUOTE (* | cols,
 * TO csv), FORCE_NOT_NULL / FORCE_NULL (cols, FROM csv).
 *
 * A bad record stops the COPY with PostgreSQL's error and its CONTEXT
 * ("COPY t, line 3, column a: "x"", floe_error.context, sent as the
 * ErrorResponse's Where field).  Nothing is committed then.
 *
 *   COPY ... TO 'file' / FROM 'file'   the same over a server file:
 *                                 acl_check_file first (superusers and
 *                                 pg_read/write_server_files members,
 *                                 inside the allowed folders: sql/acl.h);
 *                                 TO writes a temporary file renamed over
 *                                 the target (one file write), FROM is one
 *                                 atomic commit like FROM STDIN.  TO needs
 *                                 an absolute path (PostgreSQL's rule).
 * COPY to/from a program is 0A000.
 *
 * INTERFACE ROUTINES (bind.h)
 *   copy_exec
 *
 * Invariants: input is read through sink->copy_in_read into a buffer that
 * always holds at least the current record (it grows for long records);
 * each output call to copy_out_data carries whole rows.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/txn.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/decimal.h"
#include "types/text.h"

/* not in common/sqlstate.txt yet */
#ifndef ERRCODE_BAD_COPY_FILE_FORMAT
#define ERRCODE_BAD_COPY_FILE_FORMAT "22P04"
#endif

typedef struct CopyOpts {
	bool csv;
	bool header;
	char delim;
	char quote;
	char escape;
	const char *null_s;
	size_t null_len;
	bool force_quote_all;
	bool *force_quote;        /* per output column */
	bool *force_not_null;     /* per input column */
	bool *force_null;
	Node *fq_list, *fnn_list, *fn_list;
} CopyOpts;

/* ---- options ----------------------------------------------------------- */

static const char *
opt_string(Node *arg)
{
	if (!arg)
		return NULL;
	if (arg->node_case == PG_QUERY__NODE__NODE_STRING)
		return arg->string->sval;
	return NULL;
}

static int
opt_bool(Node *arg, const char *name, bool *out, floe_error *err)
{
	const char *s;
	if (!arg) {
		*out = true;
		return FLOE_OK;
	}
	if (arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN) {
		*out = arg->boolean->boolval;
		return FLOE_OK;
	}
	if (arg->node_case == PG_QUERY__NODE__NODE_INTEGER &&
	    (arg->integer->ival == 0 || arg->integer->ival == 1)) {
		*out = arg->integer->ival == 1;
		return FLOE_OK;
	}
	s = opt_string(arg);
	if (s && (!strcasecmp(s, "true") || !strcasecmp(s, "on"))) {
		*out = true;
		return FLOE_OK;
	}
	if (s && (!strcasecmp(s, "false") || !strcasecmp(s, "off"))) {
		*out = false;
		return FLOE_OK;
	}
	return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s requires a Boolean value", name);
}

static int
opt_char(Node *arg, const char *name, char *out, floe_error *err)
{
	const char *s = opt_string(arg);
	if (!s)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s requires a parameter", name);
	if (strlen(s) != 1) {
		if (!strcmp(name, "delimiter"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "COPY delimiter must be a single one-byte character");
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY %s must be a single one-byte character", name);
	}
	*out = s[0];
	return FLOE_OK;
}

static int
parse_opts(PgQuery__CopyStmt *st, CopyOpts *o, floe_error *err)
{
	size_t i;
	bool have_delim = false, have_null = false, have_quote = false, have_escape = false;

	memset(o, 0, sizeof *o);
	for (i = 0; i < st->n_options; i++) {
		PgQuery__DefElem *d = st->options[i]->def_elem;
		const char *n = d->defname;
		if (!strcmp(n, "format")) {
			const char *f = opt_string(d->arg);
			if (f && !strcasecmp(f, "csv"))
				o->csv = true;
			else if (f && !strcasecmp(f, "text"))
				o->csv = false;
			else if (f && !strcasecmp(f, "binary"))
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "COPY format \"binary\" is not supported yet");
			else
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "COPY format \"%s\" not recognized", f ? f : "");
		} else if (!strcmp(n, "header")) {
			const char *s = opt_string(d->arg);
			if (s && !strcasecmp(s, "match"))
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "COPY HEADER MATCH is not supported yet");
			TRY(opt_bool(d->arg, "header", &o->header, err));
		} else if (!strcmp(n, "delimiter")) {
			TRY(opt_char(d->arg, "delimiter", &o->delim, err));
			have_delim = true;
		} else if (!strcmp(n, "null")) {
			if (!(o->null_s = opt_string(d->arg)))
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "null requires a parameter");
			have_null = true;
		} else if (!strcmp(n, "quote")) {
			TRY(opt_char(d->arg, "quote", &o->quote, err));
			have_quote = true;
		} else if (!strcmp(n, "escape")) {
			TRY(opt_char(d->arg, "escape", &o->escape, err));
			have_escape = true;
		} else if (!strcmp(n, "force_quote")) {
			if (d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_A_STAR)
				o->force_quote_all = true;
			else
				o->fq_list = d->arg;
		} else if (!strcmp(n, "force_not_null")) {
			o->fnn_list = d->arg;
		} else if (!strcmp(n, "force_null")) {
			o->fn_list = d->arg;
		} else if (!strcmp(n, "freeze") || !strcmp(n, "encoding")) {
			continue;   /* accepted; nothing to do */
		} else {
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "option \"%s\" not recognized", n);
		}
	}
	if (!have_delim)
		o->delim = o->csv ? ',' : '\t';
	if (!have_null)
		o->null_s = o->csv ? "" : "\\N";
	o->null_len = strlen(o->null_s);
	if (!o->csv && (have_quote || have_escape))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "COPY %s available only in CSV mode",
				   have_quote ? "quote" : "escape");
	if (!have_quote)
		o->quote = '"';
	if (!have_escape)
		o->escape = o->quote;
	if (!o->csv && (o->force_quote_all || o->fq_list))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY force quote available only in CSV mode");
	if (!o->csv && o->fnn_list)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY force not null available only in CSV mode");
	if (!o->csv && o->fn_list)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY force null available only in CSV mode");
	if (o->delim == '\n' || o->delim == '\r')
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "COPY delimiter cannot be newline or carriage return");
	if (strchr(o->null_s, '\n') || strchr(o->null_s, '\r'))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "COPY null representation cannot use newline or carriage return");
	if (!o->csv && strchr("\\.abcdefghijklmnopqrstuvwxyz0123456789", o->delim))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "COPY delimiter cannot be \"%c\"", o->delim);
	if (o->csv && o->delim == o->quote)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "COPY delimiter and quote must be different");
	if (o->csv && strchr(o->null_s, o->delim))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "COPY delimiter must not appear in the NULL specification");
	return FLOE_OK;
}

/* Mark the columns of an option's list in flags (names[ncols]). */
static int
opt_columns(Node *list, const char *opt, char **names, int ncols, bool **flags, Arena *a,
	    floe_error *err)
{
	size_t i;
	int c;
	*flags = ARENA_ARRAY(a, bool, ncols + 1);
	if (!list)
		return FLOE_OK;
	if (list->node_case != PG_QUERY__NODE__NODE_LIST)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s requires a column list", opt);
	for (i = 0; i < list->list->n_items; i++) {
		const char *n = opt_string(list->list->items[i]);
		bool found = false;
		for (c = 0; c < ncols && n; c++)
			if (!strcmp(names[c], n)) {
				(*flags)[c] = true;
				found = true;
			}
		if (!found)
			return floe_errorf(err, ERRCODE_INVALID_COLUMN_REFERENCE,
					   "%s column \"%s\" not referenced by COPY", opt, n ? n : "?");
	}
	return FLOE_OK;
}

/* ---- output ------------------------------------------------------------ */

typedef struct OutBuf {
	char *p;
	size_t len, cap;
} OutBuf;

static void
out_reserve(OutBuf *o, size_t n)
{
	if (o->len + n <= o->cap)
		return;
	while (o->len + n > o->cap)
		o->cap = o->cap ? o->cap * 2 : 8192;
	o->p = xrealloc(o->p, o->cap);
}

static void
out_ch(OutBuf *o, char c)
{
	out_reserve(o, 1);
	o->p[o->len++] = c;
}

static void
out_mem(OutBuf *o, const char *s, size_t n)
{
	out_reserve(o, n);
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

/* CopyAttributeOutText */
static void
out_text(OutBuf *o, const CopyOpts *opt, const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		char c = s[i];
		const char *e = NULL;
		switch (c) {
		case '\b': e = "\\b"; break;
		case '\f': e = "\\f"; break;
		case '\n': e = "\\n"; break;
		case '\r': e = "\\r"; break;
		case '\t': e = "\\t"; break;
		case '\v': e = "\\v"; break;
		case '\\': e = "\\\\"; break;
		default: break;
		}
		if (e) {
			out_mem(o, e, 2);
		} else if (c == opt->delim) {
			out_ch(o, '\\');
			out_ch(o, c);
		} else {
			out_ch(o, c);
		}
	}
}

/* CopyAttributeOutCSV */
static void
out_csv(OutBuf *o, const CopyOpts *opt, const char *s, size_t n, bool use_quote, bool single)
{
	size_t i;
	if (!use_quote && n == opt->null_len && !memcmp(s, opt->null_s, n))
		use_quote = true;
	if (!use_quote) {
		if (single && n == 2 && s[0] == '\\' && s[1] == '.')
			use_quote = true;
		for (i = 0; i < n && !use_quote; i++)
			if (s[i] == opt->delim || s[i] == opt->quote || s[i] == '\n' || s[i] == '\r')
				use_quote = true;
	}
	if (!use_quote) {
		out_mem(o, s, n);
		return;
	}
	out_ch(o, opt->quote);
	for (i = 0; i < n; i++) {
		if (s[i] == opt->quote || s[i] == opt->escape)
			out_ch(o, opt->escape);
		out_ch(o, s[i]);
	}
	out_ch(o, opt->quote);
}

static void
out_field(OutBuf *o, const CopyOpts *opt, int col, int ncols, const char *s, size_t n)
{
	if (col > 0)
		out_ch(o, opt->delim);
	if (!s) {
		out_mem(o, opt->null_s, opt->null_len);
		return;
	}
	if (opt->csv)
		out_csv(o, opt, s, n, opt->force_quote_all || (opt->force_quote && opt->force_quote[col]),
			ncols == 1);
	else
		out_text(o, opt, s, n);
}

static char *
quote_ident(Arena *a, const char *s)
{
	size_t n = strlen(s), i, k = 0;
	char *r = arena_alloc(a, 2 * n + 3);
	r[k++] = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			r[k++] = '"';
		r[k++] = s[i];
	}
	r[k++] = '"';
	r[k] = 0;
	return r;
}

static int
copy_to(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, CopyOpts *opt,
	ResultSink *sink)
{
	floe_error *err = ctx->err;
	SelectPlan p;
	OutBuf o = {0};
	Batch *b;
	int64_t rows = 0;
	int rc = FLOE_ERR, c;
	char tag[64];

	if (st->query) {
		TRY(select_plan(s, ctx, sql, st->query, &p));
	} else {
		/* COPY t [(cols)] TO: SELECT cols FROM t */
		const char *ns, *name;
		char *q;
		size_t i;
		SqlStmt *stmts;
		int n;
		session_resolve_name(s, st->relation, &ns, &name);
		q = "SELECT ";
		if (!st->n_attlist)
			q = arena_sprintf(ctx->arena, "%s*", q);
		for (i = 0; i < st->n_attlist; i++) {
			const char *cn = opt_string(st->attlist[i]);
			q = arena_sprintf(ctx->arena, "%s%s%s", q, i ? ", " : "", quote_ident(ctx->arena, cn ? cn : "?"));
		}
		(void)ns;
		if (st->relation->schemaname && st->relation->schemaname[0])
			q = arena_sprintf(ctx->arena, "%s FROM %s.%s", q,
					  quote_ident(ctx->arena, st->relation->schemaname),
					  quote_ident(ctx->arena, name));
		else
			q = arena_sprintf(ctx->arena, "%s FROM %s", q, quote_ident(ctx->arena, name));
		TRY(sql_parse(q, ctx->arena, &stmts, &n, err));
		if (select_plan(s, ctx, q, stmts[0].node, &p) != FLOE_OK) {
			err->position = 0;
			return FLOE_ERR;
		}
	}
	TRY(opt_columns(opt->fq_list, "FORCE_QUOTE", p.names, p.ncols, &opt->force_quote, ctx->arena, err));
	if (opt->fnn_list || opt->fn_list)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY force %s only available using COPY FROM",
				   opt->fnn_list ? "not null" : "null");
	if (sink->copy_out_begin(sink->ctx, p.ncols) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (opt->header) {
		for (c = 0; c < p.ncols; c++)
			out_field(&o, opt, c, p.ncols, p.names[c], strlen(p.names[c]));
		out_ch(&o, '\n');
	}
	if (op_open(p.root) != FLOE_OK)
		goto done;
	for (;;) {
		uint32_t r;
		if (op_next(p.root, &b) != FLOE_OK)
			goto done;
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		for (r = 0; r < b->count; r++) {
			for (c = 0; c < p.ncols; c++) {
				size_t len;
				const char *t = vector_value_text(&b->cols[c], r, b->arena ? b->arena : ctx->arena, &len);
				out_field(&o, opt, c, p.ncols, t, len);
			}
			out_ch(&o, '\n');
		}
		rows += b->count;
		if (o.len && sink->copy_out_data(sink->ctx, o.p, o.len) != 0) {
			floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
			goto done;
		}
		o.len = 0;
	}
	if (o.len && sink->copy_out_data(sink->ctx, o.p, o.len) != 0) {
		floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		goto done;
	}
	if (sink->copy_out_end && sink->copy_out_end(sink->ctx) != 0) {
		floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		goto done;
	}
	rc = FLOE_OK;
done:
	op_close(p.root);
	free(o.p);
	if (rc != FLOE_OK)
		return rc;
	snprintf(tag, sizeof tag, "COPY %lld", (long long)rows);
	if (sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

/* ---- input ------------------------------------------------------------- */

typedef struct CopyInOp {
	Operator op;
	ResultSink *sink;
	const CopyOpts *opt;
	const char *relname;
	char **colnames;
	char *buf;                /* xmalloc'd; buf[pos..len) unread */
	size_t pos, len, cap;
	bool eof;                 /* no more input from the client */
	bool done;                /* end of data seen */
	int64_t line;             /* line number of the current record */
	int eol;                  /* 0 until a record ended in a newline, then
				     '\n' or '\r' (it ended in "\r\n") */
	const char *rec;          /* the current record's text (in buf) */
	size_t reclen;
	/* NOT NULL: the required table columns in table order, each the input
	 * column it comes from, or -1 (its DEFAULT is NULL: every row), and
	 * the row of the last batch INSERT's check reports first (table
	 * column order, then rows: sql/insert.c), for the error's CONTEXT */
	int *req;
	int nreq;
	int nn_rank;              /* INT_MAX: no NULL there */
	int64_t nn_line;
	char *nn_text;
	size_t nn_len;
	size_t scan_off;          /* record_end: bytes after pos already scanned */
	bool scan_inq;            /* ... and whether that ended inside quotes */
	bool header_pending;
	/* fields of the current record */
	char **fields;            /* NULL = SQL NULL */
	size_t *flens;
	int nfields, capfields;
	char *fbuf;               /* de-escaped text of the record */
	size_t fcap;
} CopyInOp;

static int
fill(CopyInOp *ci)
{
	size_t got = 0;
	floe_error *err = ci->op.ctx->err;
	if (ci->eof)
		return FLOE_OK;
	if (ci->pos > 0) {
		memmove(ci->buf, ci->buf + ci->pos, ci->len - ci->pos);
		ci->len -= ci->pos;
		ci->pos = 0;
	}
	if (ci->cap - ci->len < 65536) {
		ci->cap = ci->cap ? ci->cap * 2 : 131072;
		ci->buf = xrealloc(ci->buf, ci->cap);
	}
	TRY(ci->sink->copy_in_read(ci->sink->ctx, ci->buf + ci->len, ci->cap - ci->len - 1, &got, err));
	if (got == 0)
		ci->eof = true;
	ci->len += got;
	return FLOE_OK;
}

/* End of the record starting at buf[pos]: index of its '\n' (or len at
 * EOF), or -1 when more input is needed.  CSV: newlines inside quotes
 * belong to the field. */
static long
record_end(CopyInOp *ci)
{
	size_t i;
	bool inq = ci->scan_inq;
	const CopyOpts *o = ci->opt;
	/* resume where the last call stopped (before a byte that may pair
	 * with the next one), so a long record is scanned once */
	for (i = ci->pos + ci->scan_off; i < ci->len; i++) {
		char c = ci->buf[i];
		if (i + 1 == ci->len && !ci->eof && c != '\n') {
			ci->scan_off = i - ci->pos;
			ci->scan_inq = inq;
			return -1;
		}
		if (o->csv) {
			if (inq) {
				if (c == o->escape && o->escape != o->quote && i + 1 < ci->len &&
				    (ci->buf[i + 1] == o->quote || ci->buf[i + 1] == o->escape)) {
					i++;
					continue;
				}
				if (c == o->quote)
					inq = false;
				continue;
			}
			if (c == o->quote) {
				inq = true;
				continue;
			}
		} else if (c == '\\' && i + 1 < ci->len) {
			if (ci->buf[i + 1] == '\n') {
				ci->scan_off = 0;
				ci->scan_inq = false;
				return -2;   /* escaped newline: handled by the caller's parse */
			}
			i++;
			continue;
		}
		if (c == '\n') {
			ci->scan_off = 0;
			ci->scan_inq = false;
			return (long)i;
		}
	}
	if (!ci->eof) {
		ci->scan_off = i - ci->pos;
		ci->scan_inq = inq;
		return -1;
	}
	ci->scan_off = 0;
	ci->scan_inq = false;
	return (long)ci->len;
}

static int
add_field(CopyInOp *ci, char *p, size_t n, bool null)
{
	if (ci->nfields == ci->capfields) {
		int nc = ci->capfields ? ci->capfields * 2 : 16;
		char **f = arena_alloc(ci->op.ctx->arena, sizeof(char *) * (size_t)nc);
		size_t *l = arena_alloc(ci->op.ctx->arena, sizeof(size_t) * (size_t)nc);
		if (ci->nfields) {
			memcpy(f, ci->fields, sizeof(char *) * (size_t)ci->nfields);
			memcpy(l, ci->flens, sizeof(size_t) * (size_t)ci->nfields);
		}
		ci->fields = f;
		ci->flens = l;
		ci->capfields = nc;
	}
	ci->fields[ci->nfields] = null ? NULL : p;
	ci->flens[ci->nfields] = n;
	ci->nfields++;
	return FLOE_OK;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* CopyReadAttributesText over s[0..n) */
static void
split_text(CopyInOp *ci, const char *s, size_t n)
{
	const CopyOpts *o = ci->opt;
	size_t i = 0;
	char *out = ci->fbuf;
	ci->nfields = 0;
	for (;;) {
		char *start = out;
		size_t raw0 = i;
		bool saw_esc = false;
		while (i < n && s[i] != o->delim) {
			char c = s[i++];
			if (c == '\\' && i < n) {
				char e = s[i++];
				saw_esc = true;
				switch (e) {
				case 'b': c = '\b'; break;
				case 'f': c = '\f'; break;
				case 'n': c = '\n'; break;
				case 'r': c = '\r'; break;
				case 't': c = '\t'; break;
				case 'v': c = '\v'; break;
				case 'x':
					if (i < n && hexval(s[i]) >= 0) {
						int v = hexval(s[i++]);
						if (i < n && hexval(s[i]) >= 0)
							v = v * 16 + hexval(s[i++]);
						c = (char)v;
					} else {
						c = 'x';
					}
					break;
				default:
					if (e >= '0' && e <= '7') {
						int v = e - '0';
						if (i < n && s[i] >= '0' && s[i] <= '7') {
							v = v * 8 + (s[i++] - '0');
							if (i < n && s[i] >= '0' && s[i] <= '7')
								v = v * 8 + (s[i++] - '0');
						}
						c = (char)v;
					} else {
						c = e;
					}
				}
			}
			*out++ = c;
		}
		/* NULL is matched against the raw text, before de-escaping */
		add_field(ci, start, (size_t)(out - start),
			  i - raw0 == o->null_len && !memcmp(s + raw0, o->null_s, o->null_len));
		(void)saw_esc;
		if (i >= n)
			break;
		i++;   /* delimiter */
	}
}

/* CopyReadAttributesCSV over s[0..n); 22P04 on an unterminated quote */
static int
split_csv(CopyInOp *ci, const char *s, size_t n)
{
	const CopyOpts *o = ci->opt;
	size_t i = 0;
	char *out = ci->fbuf;
	ci->nfields = 0;
	for (;;) {
		char *start = out;
		size_t raw0 = i;
		bool quoted = false;
		while (i < n && s[i] != o->delim) {
			char c = s[i++];
			if (c == o->quote) {
				quoted = true;
				for (;;) {
					if (i >= n)
						return floe_errorf(ci->op.ctx->err, ERRCODE_BAD_COPY_FILE_FORMAT,
								   "unterminated CSV quoted field");
					c = s[i++];
					if (c == o->escape && i < n &&
					    (s[i] == o->quote || s[i] == o->escape) &&
					    !(o->escape == o->quote && s[i] != o->quote)) {
						*out++ = s[i++];
						continue;
					}
					if (c == o->quote)
						break;
					*out++ = c;
				}
				continue;
			}
			*out++ = c;
		}
		add_field(ci, start, (size_t)(out - start),
			  !quoted && i - raw0 == o->null_len && !memcmp(s + raw0, o->null_s, o->null_len));
		if (ci->opt->force_not_null || ci->opt->force_null) {
			int k = ci->nfields - 1;
			if (k < ci->op.ncols) {
				if (ci->opt->force_not_null[k] && !ci->fields[k]) {
					ci->fields[k] = start;   /* flens[k] kept */
				} else if (ci->opt->force_null[k] && ci->fields[k] &&
					   ci->flens[k] == o->null_len && !memcmp(start, o->null_s, o->null_len)) {
					ci->fields[k] = NULL;
				}
			}
		}
		if (i >= n)
			break;
		i++;
	}
	return FLOE_OK;
}

/* The error's CONTEXT (PostgreSQL's CopyFromErrorCallback): the line and
 * the column's value, or the whole line; a value longer than 100 bytes is
 * cut at a character boundary and ends in "..." (limit_printout_length). */
static int
context_at(CopyInOp *ci, int64_t line, int col, const char *s, size_t n)
{
	floe_error *err = ci->op.ctx->err;
	const char *more = "";

	if (err->context[0])
		return FLOE_ERR;
	if (!s)
		n = 0;
	if (n > 100) {
		n = 100;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
		more = "...";
	}
	if (col >= 0)
		return floe_error_context(err, "COPY %s, line %lld, column %s: \"%.*s%s\"", ci->relname,
					  (long long)line, ci->colnames[col], (int)n,
					  s ? s : "", more);
	return floe_error_context(err, "COPY %s, line %lld: \"%.*s%s\"", ci->relname,
				  (long long)line, (int)n, s ? s : "", more);
}

static int
context(CopyInOp *ci, int col, const char *s, size_t n)
{
	return context_at(ci, ci->line, col, s, n);
}

/* Remember row r of the batch (the current record) when INSERT's NOT NULL
 * check would report it before the one remembered so far. */
static void
note_null(CopyInOp *ci, uint32_t r)
{
	int j;
	for (j = 0; j < ci->nreq && j < ci->nn_rank; j++) {
		int k = ci->req[j];
		if ((k < 0 && r == 0) || (k >= 0 && !ci->fields[k])) {
			ci->nn_rank = j;
			ci->nn_line = ci->line;
			ci->nn_len = ci->reclen;
			ci->nn_text = arena_alloc(ci->op.scratch, ci->reclen + 1);
			memcpy(ci->nn_text, ci->rec, ci->reclen);
			return;
		}
	}
}

/* Next record into fields; *got false at end of data. */
static int
next_record(CopyInOp *ci, bool *got)
{
	long end;
	size_t n;
	const char *s;

	*got = false;
	if (ci->done)
		return FLOE_OK;
	for (;;) {
		end = record_end(ci);
		if (end == -2) {
			/* backslash-newline in text format: PostgreSQL ends the line
			 * there too and then rejects the field; take the line */
			size_t i;
			for (i = ci->pos; i < ci->len && ci->buf[i] != '\n'; i++)
				;
			end = (long)i;
			break;
		}
		if (end >= 0)
			break;
		TRY(fill(ci));
	}
	if ((size_t)end == ci->len && ci->pos == ci->len) {
		ci->done = true;
		return FLOE_OK;
	}
	ci->line++;
	s = ci->buf + ci->pos;
	n = (size_t)end - ci->pos;
	ci->pos = (size_t)end < ci->len ? (size_t)end + 1 : (size_t)end;
	if (ci->opt->csv && ci->eol) {
		/* PostgreSQL counts the line ends inside quoted fields as lines
		 * (a record's number is that of its last physical line) once it
		 * knows the input's line end: from the second record on */
		const char *p = s, *e = s + n;
		while ((p = memchr(p, ci->eol, (size_t)(e - p))) != NULL) {
			if (ci->eol == '\n' || p + 1 < e)
				ci->line++;
			p++;
		}
	}
	if (!ci->eol && (size_t)end < ci->len)
		ci->eol = n > 0 && s[n - 1] == '\r' ? '\r' : '\n';
	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (n == 2 && s[0] == '\\' && s[1] == '.') {
		ci->done = true;
		return FLOE_OK;
	}
	ci->rec = s;
	ci->reclen = n;
	if (text_validate_utf8(s, n, ci->op.ctx->err) != FLOE_OK)
		return floe_error_context(ci->op.ctx->err, "COPY %s, line %lld", ci->relname,
					  (long long)ci->line);
	if (ci->fcap < n + 1) {
		ci->fcap = n + 1 > 4096 ? n + 1 : 4096;
		ci->fbuf = arena_alloc(ci->op.ctx->arena, ci->fcap);
	}
	if (ci->opt->csv) {
		if (split_csv(ci, s, n) != FLOE_OK)
			return context(ci, -1, s, n);
	} else {
		split_text(ci, s, n);
	}
	if (ci->header_pending) {
		ci->header_pending = false;
		return next_record(ci, got);
	}
	if (ci->nfields > ci->op.ncols) {
		floe_errorf(ci->op.ctx->err, ERRCODE_BAD_COPY_FILE_FORMAT, "extra data after last expected column");
		return context(ci, -1, s, n);
	}
	if (ci->nfields < ci->op.ncols) {
		/* an empty line into one column is one empty/NULL field, handled
		 * above; a short record is PostgreSQL's "missing data" */
		floe_errorf(ci->op.ctx->err, ERRCODE_BAD_COPY_FILE_FORMAT, "missing data for column \"%s\"",
			    ci->colnames[ci->nfields]);
		return context(ci, -1, s, n);
	}
	*got = true;
	return FLOE_OK;
}

static int
copyin_open(Operator *op)
{
	(void)op;
	return FLOE_OK;
}

static int
copyin_next(Operator *op, Batch **out)
{
	CopyInOp *ci = (CopyInOp *)op;
	Batch *b;
	uint32_t r = 0;
	int c;

	arena_reset(op->scratch);
	ci->nn_rank = INT_MAX;
	ci->nn_text = NULL;
	TRY(exec_check_cancel(op->ctx));
	b = batch_new(op->scratch, op->ncols, op->types, VECTOR_SIZE);
	while (r < VECTOR_SIZE) {
		bool got;
		TRY(next_record(ci, &got));
		if (!got)
			break;
		if (ci->nn_rank > 0)
			note_null(ci, r);
		for (c = 0; c < op->ncols; c++) {
			Value v;
			if (!ci->fields[c]) {
				vector_set_null(&b->cols[c], r);
				continue;
			}
			if (value_from_text(&v, op->types[c], ci->fields[c], ci->flens[c], op->scratch,
					    op->ctx->err) != FLOE_OK)
				return context(ci, c, ci->fields[c], ci->flens[c]);
			if (v.type.id == TYPE_DECIMAL && v.type.scale != op->types[c].scale) {
				/* unconstrained numeric input keeps the literal's scale;
				 * the column stores it at the column's (decimal(38,10)) */
				if (decimal_rescale(v.u.d, v.type.scale, op->types[c].scale, &v.u.d,
						    op->ctx->err) != FLOE_OK)
					return context(ci, c, ci->fields[c], ci->flens[c]);
				v.type = op->types[c];
			}
			vector_set_value(&b->cols[c], r, &v);
		}
		r++;
	}
	b->count = r;
	*out = r ? b : NULL;
	return FLOE_OK;
}

static void
copyin_close(Operator *op)
{
	CopyInOp *ci = (CopyInOp *)op;
	free(ci->buf);
	ci->buf = NULL;
}

static const OperatorVT copyin_vt = {
	.name = "CopyIn", .open = copyin_open, .next = copyin_next, .close = copyin_close,
};

static int
copy_from(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, CopyOpts *opt,
	  ResultSink *sink)
{
	floe_error *err = ctx->err;
	const char *ns, *name;
	Table *t;
	const IcebergSchema *schema;
	int *tcols, ncols, i, k;
	SqlType *types;
	char **names;
	CopyInOp *ci;
	Expr **proj;
	BindCtx b;
	int64_t rows;
	char tag[64];

	(void)sql;
	if (st->query)
		return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "COPY FROM a query is not possible");
	if (st->where_clause)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "COPY FROM ... WHERE is not supported yet");
	if (opt->force_quote_all || opt->fq_list)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY force quote only available using COPY TO");
	session_resolve_name(s, st->relation, &ns, &name);
	if (txn_table_load(s, ns, name, ctx->arena, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
		return FLOE_ERR;
	}
	schema = metadata_current_schema(t->md);
	tcols = ARENA_ARRAY(ctx->arena, int, schema->nfields + st->n_attlist + 1);
	if (st->n_attlist) {
		ncols = (int)st->n_attlist;
		for (k = 0; k < ncols; k++) {
			const char *cn = opt_string(st->attlist[k]);
			int found = -1;
			for (i = 0; i < schema->nfields && cn; i++)
				if (!strcmp(schema->fields[i].name, cn))
					found = i;
			if (found < 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
						   "column \"%s\" of relation \"%s\" does not exist", cn ? cn : "?", name);
			for (i = 0; i < k; i++)
				if (tcols[i] == found)
					return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
							   "column \"%s\" specified more than once", cn);
			tcols[k] = found;
		}
	} else {
		ncols = schema->nfields;
		for (i = 0; i < ncols; i++)
			tcols[i] = i;
	}
	types = ARENA_ARRAY(ctx->arena, SqlType, ncols + 1);
	names = ARENA_ARRAY(ctx->arena, char *, ncols + 1);
	for (k = 0; k < ncols; k++) {
		types[k] = schema->fields[tcols[k]].type;
		names[k] = schema->fields[tcols[k]].name;
	}
	TRY(opt_columns(opt->fnn_list, "FORCE_NOT_NULL", names, ncols, &opt->force_not_null, ctx->arena, err));
	TRY(opt_columns(opt->fn_list, "FORCE_NULL", names, ncols, &opt->force_null, ctx->arena, err));

	/* projection: listed columns from the input, the others their DEFAULT */
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

	ci = ARENA_NEW(ctx->arena, CopyInOp);
	op_init(&ci->op, &copyin_vt, ctx, ncols, types, NULL);
	ci->sink = sink;
	ci->opt = opt;
	ci->relname = name;
	ci->colnames = names;
	ci->header_pending = opt->header;
	ci->nn_rank = INT_MAX;
	ci->req = ARENA_ARRAY(ctx->arena, int, schema->nfields + 1);
	for (i = 0; i < schema->nfields; i++) {
		if (!schema->fields[i].required)
			continue;
		for (k = 0; k < ncols && tcols[k] != i; k++)
			;
		if (k < ncols)
			ci->req[ci->nreq++] = k;
		else if (proj[i]->kind == EXPR_CONST && proj[i]->value.is_null)
			ci->req[ci->nreq++] = -1;
	}

	if (sink->copy_in_begin(sink->ctx, ncols) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (engine_write_rows(s, ctx, t, project_new(ctx, &ci->op, schema->nfields, proj), &rows) != FLOE_OK) {
		/* a NOT NULL violation: the record's line as CONTEXT (PostgreSQL's) */
		if (floe_error_is(err, ERRCODE_NOT_NULL_VIOLATION) && ci->nn_text)
			context_at(ci, ci->nn_line, -1, ci->nn_text, ci->nn_len);
		free(ci->buf);
		ci->buf = NULL;
		return FLOE_ERR;
	}
	snprintf(tag, sizeof tag, "COPY %lld", (long long)rows);
	if (sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

/* ---- server-side files ------------------------------------------------ */

/* A sink over a server file: COPY TO writes a temporary file in the
 * target's folder, renamed over the target at the end (one file write);
 * COPY FROM reads the file.  complete / notice go to the client's sink. */
typedef struct CopyFile {
	ResultSink sink;
	ResultSink *outer;
	FILE *f;
	const char *path;
	char *tmp;                /* COPY TO: the temporary file */
	int failed_errno;         /* a write failed: errno */
	/* an object (s3://): COPY TO writes to memory, stored at the end */
	FileIO *io;
	char *mem;
	size_t memlen;
	floe_error perr;          /* why the object write failed */
	bool put_failed;
} CopyFile;

static int
cf_begin(void *c, int ncols)
{
	(void)c; (void)ncols;
	return 0;
}

static int
cf_data(void *c, const char *data, size_t len)
{
	CopyFile *cf = c;
	if (fwrite(data, 1, len, cf->f) != len) {
		cf->failed_errno = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

static int
cf_end(void *c)
{
	CopyFile *cf = c;
	FILE *f = cf->f;
	cf->f = NULL;
	if (cf->io) {
		int rc;
		if (fclose(f) != 0) {
			cf->failed_errno = errno ? errno : EIO;
			return -1;
		}
		rc = fileio_replace(cf->io, cf->path, cf->mem ? cf->mem : "", cf->memlen, &cf->perr);
		free(cf->mem);
		cf->mem = NULL;
		cf->put_failed = rc != FLOE_OK;
		return rc == FLOE_OK ? 0 : -1;
	}
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		cf->failed_errno = errno ? errno : EIO;
		fclose(f);
		return -1;
	}
	fclose(f);
	if (rename(cf->tmp, cf->path) != 0) {
		cf->failed_errno = errno;
		return -1;
	}
	free(cf->tmp);
	cf->tmp = NULL;
	return 0;
}

static int
cf_read(void *c, char *buf, size_t cap, size_t *len, floe_error *err)
{
	CopyFile *cf = c;
	*len = fread(buf, 1, cap, cf->f);
	if (*len == 0 && ferror(cf->f))
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not read from COPY file: %s", strerror(errno));
	return FLOE_OK;
}

static int
cf_complete(void *c, const char *tag)
{
	CopyFile *cf = c;
	return cf->outer && cf->outer->complete ? cf->outer->complete(cf->outer->ctx, tag) : 0;
}

static void
cf_notice(void *c, const floe_error *n)
{
	CopyFile *cf = c;
	if (cf->outer && cf->outer->notice)
		cf->outer->notice(cf->outer->ctx, n);
}

static int
open_error(floe_error *err, const char *path, bool reading, int e)
{
	floe_errorf(err, e == ENOENT ? ERRCODE_UNDEFINED_FILE :
		    e == EACCES || e == EPERM ? ERRCODE_INSUFFICIENT_PRIVILEGE : ERRCODE_IO_ERROR,
		    "could not open file \"%s\" for %s: %s", path, reading ? "reading" : "writing", strerror(e));
	if (e == ENOENT || e == EACCES)
		floe_error_hint(err, "COPY %s instructs the PostgreSQL server process to %s a file. You may want a "
				"client-side facility such as psql's \\copy.", reading ? "FROM" : "TO",
				reading ? "read" : "write");
	return FLOE_ERR;
}

/* COPY ... FROM / TO 's3://bucket/key' (acl_check_file passed): FROM reads
 * the object whole and copies from memory; TO collects the output in
 * memory and writes the object at the end, replacing one that exists (as
 * COPY TO replaces a file) */
static int
copy_object(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, CopyOpts *opt,
	    CopyFile *cf)
{
	FileIO *io = s->engine->io;
	int rc;

	cf->io = io;
	if (st->is_from) {
		const uint8_t *data;
		size_t len;
		TRY(fileio_read(io, cf->path, ctx->arena, &data, &len, ctx->err));
		if (!(cf->f = len ? fmemopen((void *)data, len, "r") : fopen("/dev/null", "r")))
			return floe_errorf(ctx->err, ERRCODE_IO_ERROR, "could not read \"%s\": %s", cf->path,
					   strerror(errno));
		cf->sink.copy_in_begin = cf_begin;
		cf->sink.copy_in_read = cf_read;
		rc = copy_from(s, ctx, sql, st, opt, &cf->sink);
		fclose(cf->f);
		return rc;
	}
	if (!(cf->f = open_memstream(&cf->mem, &cf->memlen)))
		return floe_errorf(ctx->err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	cf->sink.copy_out_begin = cf_begin;
	cf->sink.copy_out_data = cf_data;
	cf->sink.copy_out_end = cf_end;
	rc = copy_to(s, ctx, sql, st, opt, &cf->sink);
	if (cf->f)
		fclose(cf->f);
	free(cf->mem);
	if (rc != FLOE_OK && cf->put_failed)
		*ctx->err = cf->perr;
	else if (rc != FLOE_OK && cf->failed_errno)
		floe_errorf(ctx->err, ERRCODE_IO_ERROR, "could not write to \"%s\": %s", cf->path,
			    strerror(cf->failed_errno));
	return rc;
}

/* COPY ... FROM / TO 'file': acl_check_file, then the same COPY over a
 * file sink */
static int
copy_file(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, CopyOpts *opt,
	  ResultSink *sink)
{
	floe_error *err = ctx->err;
	const char *path = st->filename;
	CopyFile cf;
	struct stat sb;
	int rc;

	memset(&cf, 0, sizeof cf);
	cf.outer = sink;
	cf.path = path;
	cf.sink.ctx = &cf;
	cf.sink.complete = cf_complete;
	cf.sink.notice = cf_notice;
	if (!st->is_from && path[0] != '/' && !fileio_is_remote(path))
		return floe_errorf(err, ERRCODE_INVALID_NAME, "relative path not allowed for COPY to file");
	TRY(acl_check_file(s, path, !st->is_from, err));
	if (fileio_is_remote(path))
		return copy_object(s, ctx, sql, st, opt, &cf);
	if (st->is_from) {
		if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a directory", path);
		if (!(cf.f = fopen(path, "r")))
			return open_error(err, path, true, errno);
		cf.sink.copy_in_begin = cf_begin;
		cf.sink.copy_in_read = cf_read;
		rc = copy_from(s, ctx, sql, st, opt, &cf.sink);
		fclose(cf.f);
		return rc;
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a directory", path);
	{
		size_t n = strlen(path) + 32;
		int fd;
		cf.tmp = xmalloc(n);
		snprintf(cf.tmp, n, "%s.floe-tmp%d", path, (int)getpid());
		fd = open(cf.tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0 || !(cf.f = fdopen(fd, "w"))) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			free(cf.tmp);
			return open_error(err, path, false, e);
		}
	}
	cf.sink.copy_out_begin = cf_begin;
	cf.sink.copy_out_data = cf_data;
	cf.sink.copy_out_end = cf_end;
	rc = copy_to(s, ctx, sql, st, opt, &cf.sink);
	if (cf.f)
		fclose(cf.f);
	if (cf.tmp) {
		unlink(cf.tmp);
		free(cf.tmp);
	}
	if (rc != FLOE_OK && cf.failed_errno)
		floe_errorf(err, ERRCODE_IO_ERROR, "could not write to file \"%s\": %s", path,
			    strerror(cf.failed_errno));
	return rc;
}

int
copy_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink)
{
	CopyOpts opt;

	if (st->is_program)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY to or from a program is not supported; use COPY ... %s (psql: \\copy)",
				   st->is_from ? "FROM STDIN" : "TO STDOUT");
	TRY(parse_opts(st, &opt, ctx->err));
	if (st->filename && st->filename[0])
		return copy_file(s, ctx, sql, st, &opt, sink);
	if (st->is_from) {
		if (!sink || !sink->copy_in_begin || !sink->copy_in_read)
			return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "COPY FROM STDIN needs a client that sends data");
		return copy_from(s, ctx, sql, st, &opt, sink);
	}
	if (!sink || !sink->copy_out_begin || !sink->copy_out_data)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "COPY TO STDOUT needs a client that receives data");
	return copy_to(s, ctx, sql, st, &opt, sink);
}
