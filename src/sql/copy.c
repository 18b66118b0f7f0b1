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
 * Options: FORMAT text|csv|json|parquet (json, parquet: ingest/copyfmt.h),
 * HEADER [bool | MATCH] (FROM: the first line is skipped; MATCH: it must
 * name the columns), DELIMITER, NULL, QUOTE, ESCAPE (csv), FORCE_QUOTE
 * (* | cols, TO csv), FORCE_NOT_NULL / FORCE_NULL (cols, FROM csv),
 * ENCODING (UTF8 / SQL_ASCII as is, LATIN1 converted: CopyReader in,
 * to_latin1 out), FREEZE; PostgreSQL's option errors (unknown, given
 * twice: 42601 at the option's position).  A line end other than the
 * file's first one is PostgreSQL's 22P04 (check_eol).
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
 *                                 FROM a glob (local): every match, in name
 *                                 order, one commit (text/csv: each file
 *                                 its own header and lines, CONTEXT names
 *                                 the file).
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
#include <glob.h>
#include "common/hex.h"
#include "ingest/copyfmt.h"
#include "ingest/copyinto.h"
#include "ingest/register.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/txn.h"
#include "sql/write_target.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/decimal.h"
#include "types/text.h"

/* not in common/sqlstate.txt yet */
#ifndef ERRCODE_BAD_COPY_FILE_FORMAT
#define ERRCODE_BAD_COPY_FILE_FORMAT "22P04"
#endif
#ifndef ERRCODE_UNTRANSLATABLE_CHARACTER
#define ERRCODE_UNTRANSLATABLE_CHARACTER "22P05"
#endif

enum { COPY_FMT_TEXT, COPY_FMT_CSV, COPY_FMT_JSON, COPY_FMT_PARQUET };

typedef struct CopyOpts {
	bool csv;
	int fmt;                  /* COPY_FMT_* */
	bool header;
	bool header_match;        /* HEADER MATCH (FROM) */
	bool latin1;              /* ENCODING 'LATIN1': the data's bytes */
	/* FROM a glob: the matched files; the input's next file (text/csv,
	 * their own headers and line numbers: nonzero when there is one,
	 * *name its path) */
	char **paths;
	int npaths;
	int (*next_file)(void *nctx, const char **name);
	void *nctx;
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

/* the option's place in the statement, as PostgreSQL's parser_errposition */
static int
at_option(floe_error *err, const char *sql, const PgQuery__DefElem *d)
{
	BindCtx b;
	memset(&b, 0, sizeof b);
	b.sql = sql;
	if (sql && d->location >= 0)
		floe_error_position(err, bind_location(&b, d->location));
	return FLOE_ERR;
}

static int
conflicting(floe_error *err)
{
	return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "conflicting or redundant options");
}

/* PostgreSQL's encoding names (pg_char_to_encoding: case and
 * non-alphanumerics ignored) */
static const char *const pg_encodings[] = {
	"utf8", "unicode", "sqlascii", "latin1", "iso88591", "latin2", "iso88592", "latin3",
	"iso88593", "latin4", "iso88594", "latin5", "iso88599", "latin6", "iso885910", "latin7",
	"iso885913", "latin8", "iso885914", "latin9", "iso885915", "latin10", "iso885916",
	"iso88595", "iso88596", "iso88597", "iso88598", "big5", "euccn", "eucjp", "eucjis2004",
	"euckr", "euctw", "gb18030", "gbk", "johab", "koi8", "koi8r", "koi8u", "muleinternal",
	"sjis", "shiftjis", "shiftjis2004", "uhc", "win", "win866", "win874", "win1250", "win1251",
	"win1252", "win1253", "win1254", "win1255", "win1256", "win1257", "win1258", "windows866",
	"windows874", "windows1250", "windows1251", "windows1252", "windows1253", "windows1254",
	"windows1255", "windows1256", "windows1257", "windows1258", "alt", "abc", "tcvn",
	"tcvn5712", "vscii", "mskanji", "cp932", "cp936", "cp949", "cp1250", "cp1251", "cp1252",
	"cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258", "cp866", "koi8r", NULL,
};

/* ENCODING: UTF8 (and SQL_ASCII: the bytes are UTF-8-checked as the
 * database's) as is, LATIN1 converted; other encodings 0A000 */
static int
parse_encoding(const char *e, bool *latin1, floe_error *err)
{
	char k[64];
	size_t n = 0, i;
	for (i = 0; e[i] && n + 1 < sizeof k; i++)
		if ((e[i] >= 'a' && e[i] <= 'z') || (e[i] >= '0' && e[i] <= '9'))
			k[n++] = e[i];
		else if (e[i] >= 'A' && e[i] <= 'Z')
			k[n++] = (char)(e[i] - 'A' + 'a');
	k[n] = 0;
	*latin1 = !strcmp(k, "latin1") || !strcmp(k, "iso88591");
	if (*latin1 || !strcmp(k, "utf8") || !strcmp(k, "unicode") || !strcmp(k, "sqlascii"))
		return FLOE_OK;
	for (i = 0; pg_encodings[i]; i++)
		if (!strcmp(pg_encodings[i], k))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "COPY ENCODING \"%s\" is not supported (UTF8, SQL_ASCII and LATIN1 are)", e);
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "argument to option \"encoding\" must be a valid encoding name");
}

static int
parse_opts(const char *sql, PgQuery__CopyStmt *st, CopyOpts *o, floe_error *err)
{
	size_t i;
	bool have_delim = false, have_null = false, have_quote = false, have_escape = false;
	bool have_format = false, have_header = false, have_encoding = false;

	memset(o, 0, sizeof *o);
	for (i = 0; i < st->n_options; i++) {
		PgQuery__DefElem *d = st->options[i]->def_elem;
		const char *n = d->defname;
		if (strcmp(n, "format") && strcmp(n, "header") && strcmp(n, "encoding")) {
			size_t j;
			for (j = 0; j < i; j++)
				if (!strcmp(st->options[j]->def_elem->defname, n))
					return conflicting(err), at_option(err, sql, d);
		}
		if (!strcmp(n, "format")) {
			const char *f = opt_string(d->arg);
			if (have_format)
				return conflicting(err), at_option(err, sql, d);
			have_format = true;
			if (f && !strcasecmp(f, "csv"))
				o->csv = true, o->fmt = COPY_FMT_CSV;
			else if (f && !strcasecmp(f, "text"))
				o->csv = false, o->fmt = COPY_FMT_TEXT;
			else if (f && !strcasecmp(f, "json"))
				o->fmt = COPY_FMT_JSON;
			else if (f && !strcasecmp(f, "parquet"))
				o->fmt = COPY_FMT_PARQUET;
			else if (f && !strcasecmp(f, "binary"))
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "COPY format \"binary\" is not supported yet");
			else
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "COPY format \"%s\" not recognized", f ? f : ""),
				       at_option(err, sql, d);
		} else if (!strcmp(n, "header")) {
			const char *s = opt_string(d->arg);
			if (have_header)
				return conflicting(err), at_option(err, sql, d);
			have_header = true;
			if (s && !strcasecmp(s, "match")) {
				if (!st->is_from)
					return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
							   "cannot use \"%s\" with HEADER in COPY TO", s);
				o->header = o->header_match = true;
				continue;
			}
			if (d->arg && !(d->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN ||
					d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER || s))
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "header requires a Boolean value or \"match\"");
			if (opt_bool(d->arg, "header", &o->header, err) != FLOE_OK)
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "header requires a Boolean value or \"match\"");
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
		} else if (!strcmp(n, "encoding")) {
			const char *e = opt_string(d->arg);
			if (have_encoding)
				return conflicting(err), at_option(err, sql, d);
			have_encoding = true;
			if (!e)
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "encoding requires a parameter");
			if (parse_encoding(e, &o->latin1, err) != FLOE_OK)
				return floe_error_is(err, ERRCODE_INVALID_PARAMETER_VALUE) ?
					at_option(err, sql, d) : FLOE_ERR;
		} else if (!strcmp(n, "freeze")) {
			bool fr;
			TRY(opt_bool(d->arg, "freeze", &fr, err));
			if (fr && !st->is_from)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "COPY freeze only available using COPY FROM");
			/* FREEZE only lets PostgreSQL skip hint bits: floe's new
			 * files are committed frozen already */
		} else {
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "option \"%s\" not recognized", n),
			       at_option(err, sql, d);
		}
	}
	if (o->fmt == COPY_FMT_JSON || o->fmt == COPY_FMT_PARQUET) {
		/* the text/csv options mean nothing there: refused by name */
		const char *m = o->fmt == COPY_FMT_JSON ? "JSON" : "PARQUET";
		const char *bad = have_delim ? "DELIMITER" : have_null ? "NULL" : o->header ? "HEADER" :
			have_quote ? "QUOTE" : have_escape ? "ESCAPE" :
			o->force_quote_all || o->fq_list ? "FORCE_QUOTE" : o->fnn_list ? "FORCE_NOT_NULL" :
			o->fn_list ? "FORCE_NULL" : o->fmt == COPY_FMT_PARQUET && o->latin1 ? "ENCODING" : NULL;
		if (bad)
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "cannot specify %s in %s mode", bad, m);
		o->null_s = "";
		return FLOE_OK;
	}
	if (o->header_match && !st->is_from)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot use \"match\" with HEADER in COPY TO");
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

typedef CopyBuf OutBuf;

static void
out_reserve(OutBuf *o, size_t n)
{
	copybuf_reserve(o, n);
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
	if (n == 0)
		return;     /* s may be NULL then (an empty value) */
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

/* ENCODING 'LATIN1' out: o's UTF-8 as LATIN1 into t; 22P05 for a
 * character LATIN1 lacks (PostgreSQL's report_untranslatable_char) */
static int
to_latin1(const OutBuf *o, OutBuf *t, floe_error *err)
{
	size_t i = 0;
	t->len = 0;
	copybuf_reserve(t, o->len);
	while (i < o->len) {
		unsigned char c = (unsigned char)o->p[i];
		if (c < 0x80) {
			t->p[t->len++] = (char)c;
			i++;
		} else if ((c == 0xC2 || c == 0xC3) && i + 1 < o->len) {
			t->p[t->len++] = (char)(((c & 0x1F) << 6) | ((unsigned char)o->p[i + 1] & 0x3F));
			i += 2;
		} else {
			int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2, k;
			char bytes[32];
			size_t bl = 0;
			for (k = 0; k < n && i + (size_t)k < o->len; k++)
				bl += (size_t)snprintf(bytes + bl, sizeof bytes - bl, "%s0x%02x", k ? " " : "",
						      (unsigned char)o->p[i + (size_t)k]);
			return floe_errorf(err, ERRCODE_UNTRANSLATABLE_CHARACTER,
					   "character with byte sequence %s in encoding \"UTF8\" has no "
					   "equivalent in encoding \"LATIN1\"", bytes);
		}
	}
	return FLOE_OK;
}

/* hand o's bytes to the sink (converted for ENCODING), then empty it */
static int
out_flush(OutBuf *o, OutBuf *conv, const CopyOpts *opt, ResultSink *sink, floe_error *err)
{
	const OutBuf *send = o;
	if (!o->len)
		return FLOE_OK;
	if (opt->latin1) {
		TRY(to_latin1(o, conv, err));
		send = conv;
	}
	if (send->len && sink->copy_out_data(sink->ctx, send->p, send->len) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	o->len = 0;
	return FLOE_OK;
}

static int
sink_write(void *c, const char *data, size_t len)
{
	ResultSink *sink = c;
	return sink->copy_out_data(sink->ctx, data, len);
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
	OutBuf o = {0}, conv = {0};
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
	if (opt->fmt == COPY_FMT_PARQUET) {
		TRY(copypq_write(ctx, p.root, p.names, p.types, p.ncols, sink_write, sink, &rows));
		if (sink->copy_out_end && sink->copy_out_end(sink->ctx) != 0)
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		snprintf(tag, sizeof tag, "COPY %lld", (long long)rows);
		if (sink->complete)
			sink->complete(sink->ctx, tag);
		return FLOE_OK;
	}
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
			if (opt->fmt == COPY_FMT_JSON) {
				copyjson_row(&o, b, r, p.names, p.ncols, b->arena ? b->arena : ctx->arena);
				continue;
			}
			for (c = 0; c < p.ncols; c++) {
				size_t len;
				const char *t = vector_value_text(&b->cols[c], r, b->arena ? b->arena : ctx->arena, &len);
				out_field(&o, opt, c, p.ncols, t, len);
			}
			out_ch(&o, '\n');
		}
		rows += b->count;
		if (out_flush(&o, &conv, opt, sink, err) != FLOE_OK)
			goto done;
	}
	if (out_flush(&o, &conv, opt, sink, err) != FLOE_OK)
		goto done;
	if (sink->copy_out_end && sink->copy_out_end(sink->ctx) != 0) {
		floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		goto done;
	}
	rc = FLOE_OK;
done:
	op_close(p.root);
	free(o.p);
	free(conv.p);
	if (rc != FLOE_OK)
		return rc;
	snprintf(tag, sizeof tag, "COPY %lld", (long long)rows);
	if (sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

/* ---- input ------------------------------------------------------------- */

/* The input's bytes: the sink's, LATIN1 ones converted to UTF-8 */
typedef struct CopyReader {
	ResultSink *sink;
	bool latin1;
	char *raw;
	size_t rawcap;
} CopyReader;

static int
reader_read(void *c, char *buf, size_t cap, size_t *len, floe_error *err)
{
	CopyReader *r = c;
	size_t got = 0, i, k = 0;
	if (!r->latin1)
		return r->sink->copy_in_read(r->sink->ctx, buf, cap, len, err);
	/* every LATIN1 byte is at most two UTF-8 bytes */
	if (r->rawcap < cap / 2 + 1) {
		r->rawcap = cap / 2 + 1;
		r->raw = xrealloc(r->raw, r->rawcap);
	}
	TRY(r->sink->copy_in_read(r->sink->ctx, r->raw, cap / 2 > 0 ? cap / 2 : 1, &got, err));
	for (i = 0; i < got; i++) {
		unsigned char ch = (unsigned char)r->raw[i];
		if (ch < 0x80) {
			buf[k++] = (char)ch;
		} else {
			buf[k++] = (char)(0xC0 | (ch >> 6));
			buf[k++] = (char)(0x80 | (ch & 0x3F));
		}
	}
	*len = k;
	return FLOE_OK;
}

typedef struct CopyInOp {
	Operator op;
	ResultSink *sink;
	CopyReader *rd;
	const CopyOpts *opt;
	const char *relname;      /* for CONTEXT: the table (and file) */
	const char *tablename;
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
	TRY(reader_read(ci->rd, ci->buf + ci->len, ci->cap - ci->len - 1, &got, err));
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
					if (i < n && hex_value(s[i]) >= 0) {
						int v = hex_value(s[i++]);
						if (i < n && hex_value(s[i]) >= 0)
							v = v * 16 + hex_value(s[i++]);
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

/* HEADER MATCH: the header line's fields must be the COPY's column names
 * (PostgreSQL 15's CopyReadLine check, its messages) */
static int
header_match(CopyInOp *ci)
{
	floe_error *err = ci->op.ctx->err;
	int k;
	if (ci->nfields != ci->op.ncols) {
		floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
			    "wrong number of fields in header line: got %d, expected %d", ci->nfields,
			    ci->op.ncols);
		return context(ci, -1, ci->rec, ci->reclen);
	}
	for (k = 0; k < ci->nfields; k++) {
		if (!ci->fields[k]) {
			floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
				    "column name mismatch in header line field %d: got null value (\"%s\"), "
				    "expected \"%s\"", k + 1, ci->opt->null_s, ci->colnames[k]);
			return context(ci, -1, ci->rec, ci->reclen);
		}
		if (strlen(ci->colnames[k]) != ci->flens[k] ||
		    memcmp(ci->colnames[k], ci->fields[k], ci->flens[k])) {
			floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
				    "column name mismatch in header line field %d: got \"%.*s\", expected \"%s\"",
				    k + 1, (int)ci->flens[k], ci->fields[k], ci->colnames[k]);
			return context(ci, -1, ci->rec, ci->reclen);
		}
	}
	return FLOE_OK;
}

/* A line end other than the input's (known from its first line) in the
 * record s[0..n) (its '\n' not included; term: it had one):
 * PostgreSQL's CopyReadLineText errors.  (A first line ending in a bare
 * '\r', old Mac files, is not taken as a line end.) */
static int
check_eol(CopyInOp *ci, const char *s, size_t n, bool term)
{
	const CopyOpts *o = ci->opt;
	floe_error *err = ci->op.ctx->err;
	size_t body = n, i;
	bool inq = false, cr = false;
	if (ci->eol == '\r') {
		if (term && !(n > 0 && s[n - 1] == '\r')) {
			floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT, o->csv ?
				    "unquoted newline found in data" : "literal newline found in data");
			floe_error_hint(err, o->csv ? "Use quoted CSV field to represent newline." :
					"Use \"\\n\" to represent newline.");
			return floe_error_context(err, "COPY %s, line %lld", ci->relname, (long long)ci->line);
		}
		if (n > 0 && s[n - 1] == '\r')
			body--;
	}
	if (!memchr(s, '\r', body))
		return FLOE_OK;
	for (i = 0; i < body && !cr; i++) {
		char c = s[i];
		if (o->csv) {
			if (inq) {
				if (c == o->escape && o->escape != o->quote && i + 1 < body &&
				    (s[i + 1] == o->quote || s[i + 1] == o->escape))
					i++;
				else if (c == o->quote)
					inq = false;
				continue;
			}
			if (c == o->quote) {
				inq = true;
				continue;
			}
		} else if (c == '\\') {
			i++;
			continue;
		}
		cr = c == '\r';
	}
	if (!cr)
		return FLOE_OK;
	floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT, o->csv ? "unquoted carriage return found in data" :
		    "literal carriage return found in data");
	floe_error_hint(err, o->csv ? "Use quoted CSV field to represent carriage return." :
			"Use \"\\r\" to represent carriage return.");
	return floe_error_context(err, "COPY %s, line %lld", ci->relname, (long long)ci->line);
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
		const char *next;
		if (ci->opt->next_file && ci->opt->next_file(ci->opt->nctx, &next)) {
			/* the glob's next file: its own lines and header */
			ci->eof = false;
			ci->pos = ci->len = 0;
			ci->line = 0;
			ci->eol = 0;
			ci->scan_off = 0;
			ci->scan_inq = false;
			ci->header_pending = ci->opt->header;
			ci->relname = arena_sprintf(ci->op.ctx->arena, "%s, file %s", ci->tablename, next);
			return next_record(ci, got);
		}
		ci->done = true;
		return FLOE_OK;
	}
	ci->line++;
	s = ci->buf + ci->pos;
	n = (size_t)end - ci->pos;
	ci->pos = (size_t)end < ci->len ? (size_t)end + 1 : (size_t)end;
	if (ci->eol)
		TRY(check_eol(ci, s, n, (size_t)end < ci->len));
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
	/* PostgreSQL checks the line with its line end: a character cut by
	 * it shows the end's bytes too */
	if (text_validate_utf8(s, s + n < ci->buf + ci->len ? (size_t)(ci->buf + ci->pos - s) : n,
			       ci->op.ctx->err) != FLOE_OK)
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
		if (ci->opt->header_match)
			TRY(header_match(ci));
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

/* ---- the target columns ------------------------------------------------ */

int
copy_target_columns(const IcebergSchema *schema, Node **attlist, size_t n_attlist, const char *relname,
		    Arena *a, int **tcols_out, int *ncols_out, SqlType **types_out, char ***names_out,
		    floe_error *err)
{
	int *tcols = ARENA_ARRAY(a, int, schema->nfields + (int)n_attlist + 1);
	int ncols, i, k;
	SqlType *types;
	char **names;

	if (n_attlist) {
		ncols = (int)n_attlist;
		for (k = 0; k < ncols; k++) {
			const char *cn = opt_string(attlist[k]);
			int found = -1;
			for (i = 0; i < schema->nfields && cn; i++)
				if (!strcmp(schema->fields[i].name, cn))
					found = i;
			if (found < 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
						   "column \"%s\" of relation \"%s\" does not exist", cn ? cn : "?",
						   relname);
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
	types = ARENA_ARRAY(a, SqlType, ncols + 1);
	names = ARENA_ARRAY(a, char *, ncols + 1);
	for (k = 0; k < ncols; k++) {
		types[k] = schema->fields[tcols[k]].type;
		names[k] = schema->fields[tcols[k]].name;
	}
	*tcols_out = tcols;
	*ncols_out = ncols;
	*types_out = types;
	*names_out = names;
	return FLOE_OK;
}

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
	CopyReader *rd;
	Expr **proj;
	BindCtx b;
	int64_t rows;
	int rc;
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
	TRY(acl_note_target(s, ctx, t, ROLE_PRIV_INSERT, err));
	TRY(write_target_wap(s, &t, ctx->arena, err));   /* floe.wap_id / wap_branch */
	schema = metadata_current_schema(t->md);
	TRY(copy_target_columns(schema, st->attlist, st->n_attlist, name, ctx->arena, &tcols, &ncols, &types,
				&names, err));
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

	rd = ARENA_NEW(ctx->arena, CopyReader);
	rd->sink = sink;
	rd->latin1 = opt->latin1;
	if (opt->fmt == COPY_FMT_JSON || opt->fmt == COPY_FMT_PARQUET) {
		Operator *src;
		if (opt->fmt == COPY_FMT_JSON)
			src = copyjson_reader_new(ctx, ncols, types, names, name, reader_read, rd);
		else if (!opt->npaths)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "COPY FROM STDIN (FORMAT parquet) is not supported: copy from a file");
		else
			TRY(copypq_reader_new(ctx, s, s->engine->io, opt->paths, opt->npaths, ncols, types, names,
					      &src));
		if (sink->copy_in_begin(sink->ctx, ncols) != 0)
			return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
		rc = engine_write_rows(s, ctx, t, project_new(ctx, src, schema->nfields, proj), &rows);
		free(rd->raw);
		if (rc != FLOE_OK)
			return FLOE_ERR;
		snprintf(tag, sizeof tag, "COPY %lld", (long long)rows);
		if (sink->complete)
			sink->complete(sink->ctx, tag);
		return FLOE_OK;
	}
	ci = ARENA_NEW(ctx->arena, CopyInOp);
	op_init(&ci->op, &copyin_vt, ctx, ncols, types, NULL);
	ci->sink = sink;
	ci->rd = rd;
	ci->opt = opt;
	ci->relname = ci->tablename = name;
	if (opt->npaths > 1)
		ci->relname = arena_sprintf(ctx->arena, "%s, file %s", name, opt->paths[0]);
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
		free(rd->raw);
		return FLOE_ERR;
	}
	free(rd->raw);
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
	Session *s;               /* the files are opened confined (acl_open_file) */
	char *tmp;                /* COPY TO: the temporary file (its name in dirfd) */
	int dirfd;                /* COPY TO: the target's folder, or -1 */
	char name[256];           /* COPY TO: the target's name in dirfd */
	int failed_errno;         /* a write failed: errno */
	/* an object (s3://): COPY TO writes to memory, stored at the end */
	FileIO *io;
	char *mem;
	size_t memlen;
	floe_error perr;          /* why the object write failed */
	bool put_failed;
	/* COPY FROM a glob: the files (opts.paths), the one open */
	char **paths;
	int npaths, cur;
	bool concat;              /* json: the files are one input */
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
	if (renameat(cf->dirfd, cf->tmp, cf->dirfd, cf->name) != 0) {
		cf->failed_errno = errno;
		return -1;
	}
	free(cf->tmp);
	cf->tmp = NULL;
	return 0;
}

static int cf_open_next(CopyFile *cf, floe_error *err);
static int open_error(floe_error *err, const char *path, bool reading, int e);

static int
cf_read(void *c, char *buf, size_t cap, size_t *len, floe_error *err)
{
	CopyFile *cf = c;
	for (;;) {
		*len = fread(buf, 1, cap, cf->f);
		if (*len == 0 && ferror(cf->f))
			return floe_errorf(err, ERRCODE_IO_ERROR, "could not read from COPY file: %s",
					   strerror(errno));
		if (*len || !cf->concat || cf->cur + 1 >= cf->npaths)
			return FLOE_OK;
		TRY(cf_open_next(cf, err));
	}
}

/* the glob's next file in place of the current one */
static int
cf_open_next(CopyFile *cf, floe_error *err)
{
	const char *p = cf->paths[++cf->cur];
	int fd;
	fclose(cf->f);
	if ((fd = acl_open_file(cf->s, p, O_RDONLY, err)) < 0 || !(cf->f = fdopen(fd, "r"))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		cf->f = fopen("/dev/null", "r");
		return e == EXDEV && err->sqlstate[0] ? FLOE_ERR : open_error(err, p, true, e);
	}
	return FLOE_OK;
}

/* CopyOpts.next_file over a glob's files (text and csv) */
static int
cf_next_file(void *c, const char **name)
{
	CopyFile *cf = c;
	floe_error e;
	if (cf->cur + 1 >= cf->npaths)
		return 0;
	if (cf_open_next(cf, &e) != FLOE_OK)
		return 0;   /* gone since the glob: read as empty */
	*name = cf->paths[cf->cur];
	return 1;
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

/* COPY ... FROM a glob (dir/x*.csv): the matching files in name order, each
 * allowed (acl_check_file); none is 58P01 */
static int
expand_glob(Session *s, const char *pattern, Arena *a, CopyOpts *opt, floe_error *err)
{
	glob_t g;
	size_t i;
	int rc = glob(pattern, GLOB_ERR, NULL, &g), n = 0;
	if (rc == GLOB_NOMATCH || (rc == 0 && g.gl_pathc == 0)) {
		if (rc == 0)
			globfree(&g);
		return floe_errorf(err, ERRCODE_UNDEFINED_FILE, "no files match \"%s\"", pattern);
	}
	if (rc != 0)
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not list the files of \"%s\"", pattern);
	opt->paths = ARENA_ARRAY(a, char *, g.gl_pathc + 1);
	for (i = 0; i < g.gl_pathc; i++) {
		struct stat sb;
		if (stat(g.gl_pathv[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			continue;
		if (acl_check_file(s, g.gl_pathv[i], false, err) != FLOE_OK) {
			globfree(&g);
			return FLOE_ERR;
		}
		opt->paths[n++] = arena_strdup(a, g.gl_pathv[i]);
	}
	globfree(&g);
	if (!n)
		return floe_errorf(err, ERRCODE_UNDEFINED_FILE, "no files match \"%s\"", pattern);
	opt->npaths = n;
	return FLOE_OK;
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
	cf.s = s;
	cf.dirfd = -1;
	cf.outer = sink;
	cf.path = path;
	cf.sink.ctx = &cf;
	cf.sink.complete = cf_complete;
	cf.sink.notice = cf_notice;
	if (!st->is_from && path[0] != '/' && !fileio_is_remote(path))
		return floe_errorf(err, ERRCODE_INVALID_NAME, "relative path not allowed for COPY to file");
	if (st->is_from && !fileio_is_remote(path) && strpbrk(path, "*?[")) {
		TRY(expand_glob(s, path, ctx->arena, opt, err));
		cf.paths = opt->paths;
		cf.npaths = opt->npaths;
		cf.concat = opt->fmt == COPY_FMT_JSON;
		if (opt->fmt == COPY_FMT_TEXT || opt->fmt == COPY_FMT_CSV) {
			opt->next_file = cf_next_file;
			opt->nctx = &cf;
		}
		path = cf.path = opt->paths[0];
	} else {
		TRY(acl_check_file(s, path, !st->is_from, err));
		opt->paths = ARENA_ARRAY(ctx->arena, char *, 2);
		opt->paths[0] = (char *)path;
		opt->npaths = 1;
	}
	if (st->is_from && opt->fmt == COPY_FMT_PARQUET) {
		cf.sink.copy_in_begin = cf_begin;
		return copy_from(s, ctx, sql, st, opt, &cf.sink);
	}
	if (!st->is_from && opt->fmt == COPY_FMT_PARQUET && opt->latin1)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "cannot specify ENCODING in PARQUET mode");
	if (fileio_is_remote(path))
		return copy_object(s, ctx, sql, st, opt, &cf);
	if (st->is_from) {
		if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a directory", path);
		int fd = acl_open_file(s, path, O_RDONLY, err);
		if (fd < 0 || !(cf.f = fdopen(fd, "r"))) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			return e == EXDEV && err->sqlstate[0] ? FLOE_ERR : open_error(err, path, true, e);
		}
		cf.sink.copy_in_begin = cf_begin;
		cf.sink.copy_in_read = cf_read;
		rc = copy_from(s, ctx, sql, st, opt, &cf.sink);
		fclose(cf.f);
		return rc;
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a directory", path);
	{
		size_t n;
		int fd;
		/* the temporary file and the rename in the target's folder,
		 * opened confined (acl_open_parent) */
		if ((cf.dirfd = acl_open_parent(s, path, cf.name, sizeof cf.name, err)) < 0)
			return errno == EXDEV && err->sqlstate[0] ? FLOE_ERR : open_error(err, path, false, errno);
		n = strlen(cf.name) + 32;
		cf.tmp = xmalloc(n);
		snprintf(cf.tmp, n, "%s.floe-tmp%d", cf.name, (int)getpid());
		fd = openat(cf.dirfd, cf.tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0 || !(cf.f = fdopen(fd, "w"))) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			free(cf.tmp);
			close(cf.dirfd);
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
		unlinkat(cf.dirfd, cf.tmp, 0);
		free(cf.tmp);
	}
	close(cf.dirfd);
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
	if (st->filename && register_is(sql, st))   /* REGISTER FILES INTO t FROM '...' */
		return register_exec(s, ctx, sql, st, sink);
	if (st->filename && copyinto_is(sql, st))   /* COPY INTO t FROM '@stage' ... */
		return copyinto_exec(s, ctx, sql, st, sink);
	TRY(parse_opts(sql, st, &opt, ctx->err));
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
