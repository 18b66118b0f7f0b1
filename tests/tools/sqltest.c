/*
 * sqltest.c — floe's SQL logic test runner (DuckDB's sqllogictest dialect).
 *
 * Usage:
 *   sqltest [-v] [--keep] FILE.test...
 *   sqltest [-v] [--keep] --pg CONNINFO FILE.test...    (differential mode)
 *
 * Each file runs against the embedded engine (src/sql/engine.h) in a fresh
 * temporary warehouse folder that is removed afterwards.  One line per file:
 *   PASS tests/sql/x.test (N statements, M queries)
 *   FAIL tests/sql/x.test:LINE: what differed      (+ indented detail lines)
 * A file stops at its first failure.  Exit status 1 if any file failed.
 *
 * FORMAT (DuckDB's test/sql/ files, STYLE.md §9; see tests/sql/README.md)
 *   # name: / # description: / # group:   header comments; any # line is a comment
 *   statement ok                          SQL lines up to a blank line: must succeed
 *   statement error [SQLSTATE]            must fail (with that SQLSTATE); an optional
 *   ----                                  "----" line then a substring of the message
 *   query <typechars> [nosort|rowsort|valuesort]
 *   SQL lines
 *   ----
 *   expected rows, columns separated by TAB, NULL as NULL, '' as (empty);
 *   or one value per line.  Ends at a blank line.  Without ---- : no rows.
 *   loop VAR FROM TO / foreach VAR V1 V2 ... / endloop    (${VAR} in SQL/results)
 *   halt                                  stop the file here (it passes)
 *   onlyif floe|postgres / skipif ...     before a statement/query: run it on
 *                                         that system only (differential mode;
 *                                         without --pg, onlyif postgres skips it)
 *   mode skip / mode unskip               ignore the records in between
 * Substitutions: ${VAR}, __TEST_DIR__ (a scratch folder outside the
 * warehouse), __WAREHOUSE__, __SHARED__ (absolute path of ../shared or
 * $FLOE_SHARED).
 *
 * DIFFERENTIAL MODE (--pg): every record also runs on PostgreSQL through
 * libpq, in a database created for the file and dropped afterwards.
 * statement ok must succeed on both; statement error must fail on both with
 * the same SQLSTATE (the one written, if any); a query's rows from floe must
 * equal PostgreSQL's (text output, same sort rule), and the ---- section,
 * optional here, is checked against floe too when present.
 *
 * Values from floe are rendered with vector_value_text() (types/text.h), which
 * gives PostgreSQL's text output; PostgreSQL's come from PQgetvalue in text
 * format, so both sides are compared as strings.
 *
 * INVARIANTS
 *   - One record's allocations live in the runner's arena, reset per record.
 *   - Nothing outside the per-file temporary folder is written.
 *
 * The engine symbols are weak references, so the runner links (and says
 * "engine not linked") while the engine is being written.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>   /* Debian: no -I$(pg_config --includedir) needed */
#endif

#include "common/arena.h"
#include "common/error.h"
#include "sql/engine.h"
#include "types/vector.h"

#if __has_include("types/text.h")
#include "types/text.h"
#else
const char *vector_value_text(const Vector *v, uint32_t row, Arena *a, size_t *len);
#endif

#pragma weak engine_open
#pragma weak engine_close
#pragma weak session_new
#pragma weak session_free
#pragma weak session_exec
#pragma weak vector_value_text

#define MAX_SHOW_ROWS 10
#define MAX_LOOP_DEPTH 8

/* ---------------------------------------------------------------- parsing */

typedef enum RecKind {
	R_STATEMENT, R_QUERY, R_LOOP, R_FOREACH, R_ENDLOOP, R_HALT, R_SKIP, R_UNSKIP
} RecKind;

typedef enum SortMode { SORT_NONE = 0, SORT_ROWS, SORT_VALUES } SortMode;

/* onlyif / skipif: which systems a record runs on in differential mode. */
typedef enum Target { TARGET_BOTH = 0, TARGET_FLOE, TARGET_PG } Target;

typedef struct Record {
	RecKind kind;
	int line;
	char *sql;              /* statement / query */
	Target target;          /* onlyif / skipif */
	bool expect_error;      /* statement error */
	char sqlstate[6];       /* "" = any */
	char *errmsg;           /* expected message substring, or NULL */
	char *types;            /* query */
	SortMode sort;
	bool has_expected;      /* a ---- section was written */
	char **expected;        /* its lines */
	int nexpected;
	char *var;              /* loop / foreach */
	long from, to;
	char **values;
	int nvalues;
	int end;                /* loop/foreach: index of its endloop */
} Record;

typedef struct Script {
	Record *recs;
	int n;
} Script;

static char *
trim_right(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

static bool
blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r')
			return false;
	return true;
}

/* Split on runs of spaces/tabs; returns the count (at most max). */
static int
split_words(Arena *a, const char *line, char **out, int max)
{
	int n = 0;
	const char *p = line;
	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *s = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		out[n++] = arena_strndup(a, s, (size_t)(p - s));
	}
	return n;
}

/* Join lines[from..to) with '\n'. */
static char *
join_lines(Arena *a, char **lines, int from, int to)
{
	size_t len = 0;
	for (int i = from; i < to; i++)
		len += strlen(lines[i]) + 1;
	char *s = arena_alloc(a, len + 1), *p = s;
	for (int i = from; i < to; i++) {
		size_t l = strlen(lines[i]);
		memcpy(p, lines[i], l);
		p += l;
		if (i + 1 < to)
			*p++ = '\n';
	}
	*p = '\0';
	return s;
}

static int
parse_error(const char *path, int line, const char *msg, const char *arg)
{
	printf("FAIL %s:%d: %s%s%s\n", path, line, msg, arg ? ": " : "", arg ? arg : "");
	return FLOE_ERR;
}

static int
parse_script(Arena *a, const char *path, Script *out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return parse_error(path, 0, "cannot open", strerror(errno));
	int nlines = 0, cap = 256;
	char **lines = arena_alloc(a, sizeof(char *) * (size_t)cap);
	char *buf = NULL;
	size_t bufcap = 0;
	ssize_t got;
	while ((got = getline(&buf, &bufcap, f)) >= 0) {
		if (nlines == cap) {
			lines = arena_realloc(a, lines, sizeof(char *) * (size_t)cap,
					      sizeof(char *) * (size_t)cap * 2);
			cap *= 2;
		}
		if (got > 0 && buf[got - 1] == '\n')
			buf[got - 1] = '\0';
		lines[nlines++] = arena_strdup(a, buf);
	}
	free(buf);
	fclose(f);

	int rcap = 64, nrec = 0;
	Record *recs = arena_alloc(a, sizeof(Record) * (size_t)rcap);
	int stack[MAX_LOOP_DEPTH], depth = 0;
	int i = 0;
	Target pending = TARGET_BOTH;
	int pending_line = 0;
	while (i < nlines) {
		char *line = lines[i];
		if (blank(line) || line[0] == '#') {
			i++;
			continue;
		}
		char *w[64];
		int nw = split_words(a, trim_right(line), w, 64);
		if ((strcmp(w[0], "onlyif") == 0 || strcmp(w[0], "skipif") == 0) && nw == 2) {
			bool pg = strcmp(w[1], "postgres") == 0 || strcmp(w[1], "postgresql") == 0 ||
				  strcmp(w[1], "pg") == 0;
			if (!pg && strcmp(w[1], "floe") != 0)
				return parse_error(path, i + 1, "onlyif/skipif take floe or postgres", w[1]);
			pending = (w[0][0] == 'o') == pg ? TARGET_PG : TARGET_FLOE;
			pending_line = i + 1;
			i++;
			continue;
		}
		if (nrec == rcap) {
			recs = arena_realloc(a, recs, sizeof(Record) * (size_t)rcap,
					     sizeof(Record) * (size_t)rcap * 2);
			rcap *= 2;
		}
		Record *r = &recs[nrec];
		memset(r, 0, sizeof *r);
		r->line = i + 1;
		i++;
		if (strcmp(w[0], "statement") == 0 || strcmp(w[0], "query") == 0) {
			bool is_query = w[0][0] == 'q';
			r->target = pending;
			pending = TARGET_BOTH;
			r->kind = is_query ? R_QUERY : R_STATEMENT;
			if (nw < 2)
				return parse_error(path, r->line, "missing argument", w[0]);
			if (is_query) {
				r->types = w[1];
				if (nw >= 3) {
					if (strcmp(w[2], "nosort") == 0)
						r->sort = SORT_NONE;
					else if (strcmp(w[2], "rowsort") == 0)
						r->sort = SORT_ROWS;
					else if (strcmp(w[2], "valuesort") == 0)
						r->sort = SORT_VALUES;
					/* anything else is a label: ignored */
				}
			} else if (strcmp(w[1], "ok") == 0) {
				r->expect_error = false;
			} else if (strcmp(w[1], "error") == 0) {
				r->expect_error = true;
				if (nw >= 3) {
					if (strlen(w[2]) != 5)
						return parse_error(path, r->line, "bad SQLSTATE", w[2]);
					memcpy(r->sqlstate, w[2], 6);
				}
			} else {
				return parse_error(path, r->line, "expected statement ok|error", w[1]);
			}
			int s = i;
			while (i < nlines && !blank(lines[i]) && strcmp(trim_right(lines[i]), "----") != 0)
				i++;
			if (i == s)
				return parse_error(path, r->line, "no SQL after", w[0]);
			r->sql = join_lines(a, lines, s, i);
			if (i < nlines && strcmp(lines[i], "----") == 0) {
				i++;
				int e = i;
				while (i < nlines && !blank(lines[i]))
					i++;
				if (is_query) {
					r->has_expected = true;
					r->expected = &lines[e];
					r->nexpected = i - e;
				} else {
					r->errmsg = join_lines(a, lines, e, i);
				}
			}
		} else if (pending != TARGET_BOTH) {
			return parse_error(path, pending_line, "onlyif/skipif must precede a statement or query",
					   NULL);
		} else if (strcmp(w[0], "loop") == 0) {
			char *end1, *end2;
			if (nw != 4)
				return parse_error(path, r->line, "usage", "loop VAR FROM TO");
			r->kind = R_LOOP;
			r->var = w[1];
			r->from = strtol(w[2], &end1, 10);
			r->to = strtol(w[3], &end2, 10);
			if (*end1 || *end2)
				return parse_error(path, r->line, "bad loop bounds", NULL);
			if (depth == MAX_LOOP_DEPTH)
				return parse_error(path, r->line, "loops nested too deep", NULL);
			stack[depth++] = nrec;
		} else if (strcmp(w[0], "foreach") == 0) {
			if (nw < 3)
				return parse_error(path, r->line, "usage", "foreach VAR V1 V2 ...");
			r->kind = R_FOREACH;
			r->var = w[1];
			r->values = arena_memdup(a, &w[2], sizeof(char *) * (size_t)(nw - 2));
			r->nvalues = nw - 2;
			if (depth == MAX_LOOP_DEPTH)
				return parse_error(path, r->line, "loops nested too deep", NULL);
			stack[depth++] = nrec;
		} else if (strcmp(w[0], "endloop") == 0) {
			if (depth == 0)
				return parse_error(path, r->line, "endloop without loop", NULL);
			r->kind = R_ENDLOOP;
			recs[stack[--depth]].end = nrec;
		} else if (strcmp(w[0], "halt") == 0) {
			r->kind = R_HALT;
		} else if (strcmp(w[0], "mode") == 0 && nw == 2 && strcmp(w[1], "skip") == 0) {
			r->kind = R_SKIP;
		} else if (strcmp(w[0], "mode") == 0 && nw == 2 && strcmp(w[1], "unskip") == 0) {
			r->kind = R_UNSKIP;
		} else {
			return parse_error(path, r->line, "unknown command", w[0]);
		}
		nrec++;
	}
	if (depth)
		return parse_error(path, recs[stack[depth - 1]].line, "loop without endloop", NULL);
	out->recs = recs;
	out->n = nrec;
	return FLOE_OK;
}

/* ---------------------------------------------------------------- results */

/* A result: nrows x ncols strings, row-major. */
typedef struct Result {
	int ncols;              /* -1: no result set */
	int nrows;
	char **vals;
	int nvals;              /* = nrows * ncols once a row is complete */
	int cap;
	char tag[64];
	Arena *a;
} Result;

static void
result_push(Result *res, const char *s)
{
	if (res->nvals == res->cap) {
		int ncap = res->cap ? res->cap * 2 : 256;
		res->vals = arena_realloc(res->a, res->vals, sizeof(char *) * (size_t)res->cap,
					  sizeof(char *) * (size_t)ncap);
		res->cap = ncap;
	}
	res->vals[res->nvals++] = (char *)s;
}

static void
result_reset(Result *res, int ncols)
{
	res->ncols = ncols;
	res->nrows = 0;
	res->vals = NULL;
	res->nvals = 0;
	res->cap = 0;
}

/* Render one value as the test files spell it. */
static const char *
render(Arena *a, const char *s, size_t len, bool is_null)
{
	if (is_null)
		return "NULL";
	if (len == 0)
		return "(empty)";
	return arena_strndup(a, s, len);
}

static int
sink_columns(void *ctx, int ncols, const char *const *names, const SqlType *types)
{
	Result *res = ctx;
	result_reset(res, ncols);
	return 0;
}

static int
sink_batch(void *ctx, const Batch *b)
{
	Result *res = ctx;
	for (uint32_t i = 0; i < b->count; i++) {
		uint32_t k = b->sel ? b->sel[i] : i;
		for (int c = 0; c < res->ncols && c < b->ncols; c++) {
			size_t len = 0;
			const char *t = vector_value_text(&b->cols[c], k, res->a, &len);
			result_push(res, render(res->a, t, len, t == NULL));
		}
		for (int c = b->ncols; c < res->ncols; c++)
			result_push(res, "?");
		res->nrows++;
	}
	return 0;
}

static int
sink_complete(void *ctx, const char *tag)
{
	Result *res = ctx;
	snprintf(res->tag, sizeof res->tag, "%s", tag ? tag : "");
	return 0;
}

static void
sink_notice(void *ctx, const floe_error *notice)
{
}

/* ---------------------------------------------------------------- runner */

typedef struct Var {
	const char *name;
	const char *value;
} Var;

typedef struct Runner {
	const char *path;
	bool verbose;
	bool keep;
	Engine *engine;
	Session *session;
	PGconn *pg;              /* differential mode: this file's database */
	Arena *file_arena;       /* parsed script */
	Arena *arena;            /* per record */
	char tmpdir[256];
	char testdir[300];
	char warehouse[300];
	const char *shared;
	Var vars[MAX_LOOP_DEPTH];
	int nvars;
	bool skipping;
	bool halted;
	int nstatements;
	int nqueries;
} Runner;

static int
failf(Runner *r, int line, const char *fmt, ...)
{
	va_list ap;
	printf("FAIL %s:%d: ", r->path, line);
	char msg[2048];
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	printf("%s\n", msg);
	return FLOE_ERR;
}

/* Replace ${var}, __TEST_DIR__, __WAREHOUSE__, __SHARED__ in s. */
static char *
substitute(Runner *r, const char *s)
{
	if (!strchr(s, '$') && !strstr(s, "__"))
		return (char *)s;
	size_t cap = strlen(s) + 64, n = 0;
	char *out = arena_alloc(r->arena, cap);
	while (*s) {
		const char *rep = NULL;
		size_t skip = 0;
		if (s[0] == '$' && s[1] == '{') {
			const char *e = strchr(s, '}');
			if (e) {
				for (int i = r->nvars - 1; i >= 0; i--)
					if (strlen(r->vars[i].name) == (size_t)(e - s - 2) &&
					    memcmp(r->vars[i].name, s + 2, (size_t)(e - s - 2)) == 0) {
						rep = r->vars[i].value;
						skip = (size_t)(e - s + 1);
						break;
					}
			}
		} else if (strncmp(s, "__TEST_DIR__", 12) == 0) {
			rep = r->testdir, skip = 12;
		} else if (strncmp(s, "__WAREHOUSE__", 13) == 0) {
			rep = r->warehouse, skip = 13;
		} else if (strncmp(s, "__SHARED__", 10) == 0) {
			rep = r->shared, skip = 10;
		}
		size_t add = rep ? strlen(rep) : 1;
		if (n + add + 1 > cap) {
			size_t ncap = (n + add + 1) * 2;
			out = arena_realloc(r->arena, out, cap, ncap);
			cap = ncap;
		}
		if (rep) {
			memcpy(out + n, rep, add);
			n += add;
			s += skip;
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = '\0';
	return out;
}

/* Run sql on floe; fills res (rows of the last row-returning statement). */
static int
floe_run(Runner *r, const char *sql, Result *res, floe_error *err)
{
	memset(res, 0, sizeof *res);
	res->a = r->arena;
	res->ncols = -1;
	ResultSink sink = {
		.ctx = res,
		.columns = sink_columns,
		.batch = sink_batch,
		.complete = sink_complete,
		.notice = sink_notice,
	};
	floe_error_clear(err);
	return session_exec(r->session, sql, &sink, err);
}

/* Run sql on PostgreSQL.  Returns FLOE_OK or FLOE_ERR with sqlstate/message in err. */
static int
pg_run(Runner *r, const char *sql, Result *res, floe_error *err)
{
	memset(res, 0, sizeof *res);
	res->a = r->arena;
	res->ncols = -1;
	floe_error_clear(err);
	PGresult *pr = PQexec(r->pg, sql);
	ExecStatusType st = PQresultStatus(pr);
	int rc = FLOE_OK;
	if (st == PGRES_TUPLES_OK) {
		result_reset(res, PQnfields(pr));
		int nrows = PQntuples(pr);
		for (int i = 0; i < nrows; i++) {
			for (int c = 0; c < res->ncols; c++)
				result_push(res, render(r->arena, PQgetvalue(pr, i, c),
							(size_t)PQgetlength(pr, i, c),
							PQgetisnull(pr, i, c)));
			res->nrows++;
		}
	} else if (st == PGRES_COMMAND_OK || st == PGRES_EMPTY_QUERY) {
		/* no rows */
	} else {
		const char *code = PQresultErrorField(pr, PG_DIAG_SQLSTATE);
		const char *msg = PQresultErrorField(pr, PG_DIAG_MESSAGE_PRIMARY);
		floe_errorf(err, code ? code : "XX000", "%s",
			    msg ? msg : PQerrorMessage(r->pg));
		rc = FLOE_ERR;
	}
	snprintf(res->tag, sizeof res->tag, "%s", PQcmdStatus(pr));
	PQclear(pr);
	return rc;
}

static int sort_ncols;

static int
cmp_rows(const void *pa, const void *pb)
{
	char *const *a = *(char *const *const *)pa, *const *b = *(char *const *const *)pb;
	for (int i = 0; i < sort_ncols; i++) {
		int c = strcmp(a[i], b[i]);
		if (c)
			return c;
	}
	return 0;
}

static int
cmp_values(const void *pa, const void *pb)
{
	return strcmp(*(char *const *)pa, *(char *const *)pb);
}

/* Sort res's values in place per mode. */
static void
sort_result(Arena *a, Result *res, SortMode mode)
{
	int nv = res->nrows * res->ncols;
	if (mode == SORT_VALUES) {
		qsort(res->vals, (size_t)nv, sizeof(char *), cmp_values);
	} else if (mode == SORT_ROWS && res->ncols > 0 && res->nrows > 1) {
		char ***rows = arena_alloc(a, sizeof(char **) * (size_t)res->nrows);
		for (int i = 0; i < res->nrows; i++)
			rows[i] = &res->vals[i * res->ncols];
		sort_ncols = res->ncols;
		qsort(rows, (size_t)res->nrows, sizeof(char **), cmp_rows);
		char **vals = arena_alloc(a, sizeof(char *) * (size_t)nv);
		for (int i = 0; i < res->nrows; i++)
			memcpy(&vals[i * res->ncols], rows[i], sizeof(char *) * (size_t)res->ncols);
		res->vals = vals;
	}
}

/* Turn the ---- lines into a Result of ncols columns. */
static int
expected_result(Runner *r, const Record *rec, int ncols, Result *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	out->a = r->arena;
	result_reset(out, ncols > 0 ? ncols : 1);
	bool one_per_line = false;
	if (ncols > 1) {
		one_per_line = rec->nexpected > 0;
		for (int i = 0; i < rec->nexpected; i++)
			if (strchr(rec->expected[i], '\t'))
				one_per_line = false;
		if (one_per_line && rec->nexpected % ncols != 0) {
			snprintf(why, whylen, "%d expected values are not a multiple of %d columns",
				 rec->nexpected, ncols);
			return FLOE_ERR;
		}
	}
	for (int i = 0; i < rec->nexpected; i++) {
		char *line = substitute(r, rec->expected[i]);
		if (one_per_line) {
			result_push(out, arena_strdup(r->arena, line));
			if ((i + 1) % ncols == 0)
				out->nrows++;
			continue;
		}
		int n = 0;
		char *p = line;
		for (;;) {
			char *tab = strchr(p, '\t');
			size_t len = tab ? (size_t)(tab - p) : strlen(p);
			if (n < out->ncols)
				result_push(out, arena_strndup(r->arena, p, len));
			n++;
			if (!tab)
				break;
			p = tab + 1;
		}
		if (n != out->ncols) {
			snprintf(why, whylen, "expected row %d has %d columns, the query returned %d",
				 i + 1, n, out->ncols);
			return FLOE_ERR;
		}
		out->nrows++;
	}
	return FLOE_OK;
}

static void
show_result(const char *label, const Result *res, int mark_row)
{
	printf("    %s (%d row%s):\n", label, res->nrows, res->nrows == 1 ? "" : "s");
	int from = mark_row > MAX_SHOW_ROWS / 2 ? mark_row - MAX_SHOW_ROWS / 2 : 0;
	for (int i = from; i < res->nrows && i < from + MAX_SHOW_ROWS; i++) {
		printf("    %s ", i == mark_row ? ">" : " ");
		for (int c = 0; c < res->ncols; c++)
			printf("%s%s", c ? "\t" : "", res->vals[i * res->ncols + c]);
		printf("\n");
	}
	if (res->nrows > from + MAX_SHOW_ROWS)
		printf("      ...\n");
}

/* Compare two sorted results; print a FAIL on difference. */
static int
compare_results(Runner *r, const Record *rec, const char *want_label, const Result *want,
		const char *got_label, const Result *got)
{
	if (want->ncols != got->ncols) {
		failf(r, rec->line, "%s has %d columns, %s has %d", got_label, got->ncols,
		      want_label, want->ncols);
		return FLOE_ERR;
	}
	int n = want->nrows < got->nrows ? want->nrows : got->nrows;
	int bad = -1;
	for (int i = 0; i < n && bad < 0; i++)
		for (int c = 0; c < want->ncols; c++)
			if (strcmp(want->vals[i * want->ncols + c], got->vals[i * got->ncols + c]) != 0) {
				bad = i;
				break;
			}
	if (bad < 0 && want->nrows == got->nrows)
		return FLOE_OK;
	if (bad < 0)
		failf(r, rec->line, "%s returned %d rows, %s %d", got_label, got->nrows,
		      want_label, want->nrows);
	else
		failf(r, rec->line, "row %d differs between %s and %s", bad + 1, want_label, got_label);
	printf("    SQL: %s\n", rec->sql);
	show_result(want_label, want, bad < 0 ? n : bad);
	show_result(got_label, got, bad < 0 ? n : bad);
	return FLOE_ERR;
}

static void
show_error(const char *who, const floe_error *e)
{
	printf("    %s: ERROR %s: %s\n", who, e->sqlstate, e->message);
	if (e->detail[0])
		printf("    DETAIL: %s\n", e->detail);
}

static int
run_statement(Runner *r, const Record *rec)
{
	char *sql = substitute(r, rec->sql);
	Result res, pres;
	floe_error err, perr;
	int rc = floe_run(r, sql, &res, &err);
	int prc = r->pg ? pg_run(r, sql, &pres, &perr) : FLOE_OK;
	r->nstatements++;
	if (!rec->expect_error) {
		if (rc != FLOE_OK) {
			failf(r, rec->line, "statement failed on floe");
			printf("    SQL: %s\n", sql);
			show_error("floe", &err);
			return FLOE_ERR;
		}
		if (prc != FLOE_OK) {
			failf(r, rec->line, "statement ok fails on PostgreSQL (fix the test)");
			printf("    SQL: %s\n", sql);
			show_error("PostgreSQL", &perr);
			return FLOE_ERR;
		}
		return FLOE_OK;
	}
	if (rc == FLOE_OK) {
		failf(r, rec->line, "statement should have failed%s%s but succeeded on floe",
		      rec->sqlstate[0] ? " with " : "", rec->sqlstate);
		printf("    SQL: %s\n", sql);
		return FLOE_ERR;
	}
	if (r->pg) {
		if (prc == FLOE_OK) {
			failf(r, rec->line, "statement error succeeds on PostgreSQL (fix the test)");
			printf("    SQL: %s\n", sql);
			show_error("floe", &err);
			return FLOE_ERR;
		}
		if (rec->sqlstate[0] && strcmp(rec->sqlstate, perr.sqlstate) != 0) {
			failf(r, rec->line, "test expects SQLSTATE %s but PostgreSQL gives %s (fix the test)",
			      rec->sqlstate, perr.sqlstate);
			show_error("PostgreSQL", &perr);
			return FLOE_ERR;
		}
		if (strcmp(err.sqlstate, perr.sqlstate) != 0) {
			failf(r, rec->line, "SQLSTATE %s from floe, %s from PostgreSQL",
			      err.sqlstate, perr.sqlstate);
			printf("    SQL: %s\n", sql);
			show_error("floe", &err);
			show_error("PostgreSQL", &perr);
			return FLOE_ERR;
		}
	}
	if (rec->sqlstate[0] && strcmp(rec->sqlstate, err.sqlstate) != 0) {
		failf(r, rec->line, "expected SQLSTATE %s, floe gave %s", rec->sqlstate, err.sqlstate);
		printf("    SQL: %s\n", sql);
		show_error("floe", &err);
		return FLOE_ERR;
	}
	if (rec->errmsg && rec->errmsg[0]) {
		char *want = substitute(r, rec->errmsg);
		if (!strstr(err.message, want)) {
			failf(r, rec->line, "error message does not contain \"%s\"", want);
			show_error("floe", &err);
			return FLOE_ERR;
		}
	}
	return FLOE_OK;
}

static int
run_query(Runner *r, const Record *rec)
{
	char *sql = substitute(r, rec->sql);
	Result res, pres;
	floe_error err, perr;
	char why[256];
	r->nqueries++;
	if (floe_run(r, sql, &res, &err) != FLOE_OK) {
		failf(r, rec->line, "query failed on floe");
		printf("    SQL: %s\n", sql);
		show_error("floe", &err);
		return FLOE_ERR;
	}
	if (res.ncols < 0) {
		failf(r, rec->line, "query returned no result set (tag \"%s\")", res.tag);
		return FLOE_ERR;
	}
	if ((int)strlen(rec->types) != res.ncols) {
		failf(r, rec->line, "query returned %d columns, the test's types \"%s\" say %d",
		      res.ncols, rec->types, (int)strlen(rec->types));
		return FLOE_ERR;
	}
	sort_result(r->arena, &res, rec->sort);
	if (r->pg) {
		if (pg_run(r, sql, &pres, &perr) != FLOE_OK) {
			failf(r, rec->line, "query fails on PostgreSQL (fix the test)");
			show_error("PostgreSQL", &perr);
			return FLOE_ERR;
		}
		if (pres.ncols < 0) {
			failf(r, rec->line, "query returns no rows on PostgreSQL (fix the test)");
			return FLOE_ERR;
		}
		sort_result(r->arena, &pres, rec->sort);
		TRY(compare_results(r, rec, "PostgreSQL", &pres, "floe", &res));
	}
	if (rec->has_expected || !r->pg) {
		Result want;
		if (expected_result(r, rec, res.ncols, &want, why, sizeof why) != FLOE_OK) {
			failf(r, rec->line, "%s", why);
			show_result("floe", &res, -1);
			return FLOE_ERR;
		}
		sort_result(r->arena, &want, rec->sort);
		TRY(compare_results(r, rec, "expected", &want, "floe", &res));
	}
	return FLOE_OK;
}

/* An `onlyif postgres` record in differential mode: PostgreSQL alone. */
static int
run_pg_only(Runner *r, const Record *rec)
{
	char *sql = substitute(r, rec->sql);
	Result pres;
	floe_error perr;
	char why[256];
	int prc = pg_run(r, sql, &pres, &perr);
	if (rec->kind == R_STATEMENT) {
		r->nstatements++;
		if (prc == FLOE_OK && rec->expect_error)
			return failf(r, rec->line, "statement error succeeds on PostgreSQL");
		if (prc != FLOE_OK && !rec->expect_error) {
			failf(r, rec->line, "statement fails on PostgreSQL");
			show_error("PostgreSQL", &perr);
			return FLOE_ERR;
		}
		if (prc != FLOE_OK && rec->sqlstate[0] && strcmp(rec->sqlstate, perr.sqlstate) != 0) {
			failf(r, rec->line, "expected SQLSTATE %s, PostgreSQL gave %s", rec->sqlstate,
			      perr.sqlstate);
			return FLOE_ERR;
		}
		return FLOE_OK;
	}
	r->nqueries++;
	if (prc != FLOE_OK || pres.ncols < 0) {
		failf(r, rec->line, "query fails on PostgreSQL");
		show_error("PostgreSQL", &perr);
		return FLOE_ERR;
	}
	if (!rec->has_expected)
		return FLOE_OK;
	Result want;
	if (expected_result(r, rec, pres.ncols, &want, why, sizeof why) != FLOE_OK)
		return failf(r, rec->line, "%s", why);
	sort_result(r->arena, &pres, rec->sort);
	sort_result(r->arena, &want, rec->sort);
	return compare_results(r, rec, "expected", &want, "PostgreSQL", &pres);
}

/* A statement or query, on the systems its onlyif/skipif allows. */
static int
run_record(Runner *r, const Record *rec)
{
	if (rec->target == TARGET_PG)
		return r->pg ? run_pg_only(r, rec) : FLOE_OK;
	PGconn *saved = r->pg;
	if (rec->target == TARGET_FLOE)
		r->pg = NULL;
	int rc = rec->kind == R_QUERY ? run_query(r, rec) : run_statement(r, rec);
	r->pg = saved;
	return rc;
}

static int run_range(Runner *r, Script *s, int from, int to);

static int
run_loop(Runner *r, Script *s, int idx)
{
	const Record *rec = &s->recs[idx];
	if (r->nvars == MAX_LOOP_DEPTH)
		return failf(r, rec->line, "loops nested too deep");
	Var *v = &r->vars[r->nvars++];
	v->name = rec->var;
	long count = rec->kind == R_LOOP ? rec->to - rec->from : rec->nvalues;
	for (long k = 0; k < count && !r->halted; k++) {
		char num[32];
		if (rec->kind == R_LOOP) {
			snprintf(num, sizeof num, "%ld", rec->from + k);
			v->value = num;
		} else {
			v->value = rec->values[k];
		}
		if (run_range(r, s, idx + 1, rec->end) != FLOE_OK) {
			r->nvars--;
			return FLOE_ERR;
		}
	}
	r->nvars--;
	return FLOE_OK;
}

static int
run_range(Runner *r, Script *s, int from, int to)
{
	for (int i = from; i < to && !r->halted; i++) {
		Record *rec = &s->recs[i];
		if (r->skipping && rec->kind != R_UNSKIP)
			continue;
		arena_reset(r->arena);
		if (r->verbose && (rec->kind == R_STATEMENT || rec->kind == R_QUERY))
			fprintf(stderr, "%s:%d\n", r->path, rec->line);
		switch (rec->kind) {
		case R_STATEMENT:
		case R_QUERY:
			TRY(run_record(r, rec));
			break;
		case R_LOOP:
		case R_FOREACH:
			TRY(run_loop(r, s, i));
			i = rec->end;
			break;
		case R_ENDLOOP:
			break;
		case R_HALT:
			r->halted = true;
			break;
		case R_SKIP:
			r->skipping = true;
			break;
		case R_UNSKIP:
			r->skipping = false;
			break;
		}
	}
	return FLOE_OK;
}

/* ---------------------------------------------------------------- files */

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void
rm_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
pg_notice(void *arg, const char *message)
{
	/* PostgreSQL's NOTICEs ("table does not exist, skipping") are not results */
}

static PGconn *
pg_connect(const char *conninfo, const char *dbname)
{
	const char *keys[] = { "dbname", "dbname", NULL };
	const char *vals[] = { conninfo, dbname, NULL };
	if (!dbname)
		keys[1] = NULL;
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	PQsetNoticeProcessor(c, pg_notice, NULL);
	return c;
}

static bool
pg_command(PGconn *c, const char *sql, char *why, size_t whylen)
{
	PGresult *pr = PQexec(c, sql);
	bool ok = PQresultStatus(pr) == PGRES_COMMAND_OK;
	if (!ok)
		snprintf(why, whylen, "%s", PQresultErrorMessage(pr));
	PQclear(pr);
	return ok;
}

static int
run_file(const char *path, const char *pg_conninfo, bool verbose, bool keep)
{
	static int file_no;
	Runner r;
	memset(&r, 0, sizeof r);
	r.path = path;
	r.verbose = verbose;
	r.keep = keep;
	r.file_arena = arena_new(1 << 16);
	r.arena = arena_new(1 << 16);
	const char *shared = getenv("FLOE_SHARED");
	char shared_abs[4096];
	if (!realpath(shared && shared[0] ? shared : "../shared", shared_abs))
		snprintf(shared_abs, sizeof shared_abs, "%s", shared && shared[0] ? shared : "../shared");
	r.shared = shared_abs;

	Script script;
	PGconn *admin = NULL;
	char dbname[64] = "";
	int rc = FLOE_ERR;
	if (parse_script(r.file_arena, path, &script) != FLOE_OK)
		goto out;
	if (!engine_open || !session_exec || !vector_value_text) {
		failf(&r, 0, "the floe engine is not linked into sqltest yet");
		goto out;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(r.tmpdir, sizeof r.tmpdir, "%s/floe-sqltest-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(r.tmpdir)) {
		failf(&r, 0, "mkdtemp: %s", strerror(errno));
		r.tmpdir[0] = '\0';
		goto out;
	}
	snprintf(r.warehouse, sizeof r.warehouse, "%s/wh", r.tmpdir);
	snprintf(r.testdir, sizeof r.testdir, "%s/tmp", r.tmpdir);
	mkdir(r.testdir, 0755);

	if (pg_conninfo) {
		char why[512];
		admin = pg_connect(pg_conninfo, NULL);
		if (PQstatus(admin) != CONNECTION_OK) {
			failf(&r, 0, "cannot connect to PostgreSQL: %s", PQerrorMessage(admin));
			goto out;
		}
		snprintf(dbname, sizeof dbname, "sqltest_%d_%d", (int)getpid(), file_no++);
		char sql[128];
		snprintf(sql, sizeof sql, "CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C'",
			 dbname);
		if (!pg_command(admin, sql, why, sizeof why)) {
			failf(&r, 0, "PostgreSQL: %s", why);
			dbname[0] = '\0';
			goto out;
		}
		r.pg = pg_connect(pg_conninfo, dbname);
		if (PQstatus(r.pg) != CONNECTION_OK) {
			failf(&r, 0, "cannot connect to PostgreSQL: %s", PQerrorMessage(r.pg));
			goto out;
		}
		/* the settings floe's output assumes, whatever the server's defaults */
		if (!pg_command(r.pg, "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'; "
				"SET IntervalStyle = 'postgres'; SET extra_float_digits = 1",
				why, sizeof why)) {
			failf(&r, 0, "PostgreSQL: %s", why);
			goto out;
		}
	}

	floe_error err;
	floe_error_clear(&err);
	EngineConfig cfg = { .warehouse = r.warehouse, .catalog_name = NULL };
	if (engine_open(&r.engine, &cfg, &err) != FLOE_OK) {
		failf(&r, 0, "engine_open: %s %s", err.sqlstate, err.message);
		r.engine = NULL;
		goto out;
	}
	r.session = session_new(r.engine);
	rc = run_range(&r, &script, 0, script.n);
	if (rc == FLOE_OK)
		printf("PASS %s (%d statements, %d queries)\n", path, r.nstatements, r.nqueries);
out:
	fflush(stdout);
	if (r.session)
		session_free(r.session);
	if (r.engine)
		engine_close(r.engine);
	if (r.pg)
		PQfinish(r.pg);
	if (admin) {
		if (dbname[0]) {
			char sql[128], why[512];
			snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", dbname);
			pg_command(admin, sql, why, sizeof why);
		}
		PQfinish(admin);
	}
	if (r.tmpdir[0]) {
		if (keep && rc != FLOE_OK)
			fprintf(stderr, "sqltest: kept %s\n", r.tmpdir);
		else
			rm_tree(r.tmpdir);
	}
	arena_free(r.arena);
	arena_free(r.file_arena);
	return rc;
}

static void
usage(void)
{
	fprintf(stderr, "usage: sqltest [-v] [--keep] [--pg CONNINFO] FILE.test...\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *pg = NULL;
	bool verbose = false, keep = false;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--pg") == 0 && i + 1 < argc)
			pg = argv[++i];
		else if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else if (strcmp(argv[i], "--keep") == 0)
			keep = true;
		else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else
			usage();
	}
	if (i >= argc)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	int failed = 0;
	for (; i < argc; i++)
		if (run_file(argv[i], pg, verbose, keep) != FLOE_OK)
			failed++;
	return failed ? 1 : 0;
}
