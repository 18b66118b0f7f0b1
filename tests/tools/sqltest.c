/*
 * sqltest.c — floe's SQL logic test runner (DuckDB's sqllogictest dialect).
 *
 * Usage:
 *   sqltest [-v] [--keep] [--validate] FILE.test...
 *   sqltest [-v] [--keep] [--validate] --pg CONNINFO FILE.test...  (differential mode)
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
 *   statement ok notices                  must succeed; the lines after "----" are
 *                                         its NOTICEs / WARNINGs exactly as psql
 *                                         prints them ("NOTICE:  msg", "DETAIL:  ...",
 *                                         "HINT:  ..."), from floe and PostgreSQL
 *   query <typechars> [nosort|rowsort|valuesort]   (typechars "-": zero columns)
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
 * optional here, is checked against floe too when present.  Command tags
 * must be equal (floe's sink tag vs PQcmdStatus).  After every successful
 * DML record the target tables (parsed with sql_parse) are compared whole;
 * see "DML checks" below for one-sided (onlyif) pairs.
 *
 * --validate: every committed state a DML record leaves is recorded and, at
 * the end of the file, checked by one node process (validate_js) with the
 * interop toolkit: iceberg-validate, and icebird / DuckDB-minus-deletes
 * reading the same rows as floe (tests/sql/README.md).
 *
 * Values from floe are rendered with vector_value_text() (types/text.h), which
 * gives PostgreSQL's text output; PostgreSQL's come from PQgetvalue in text
 * format, so both sides are compared as strings.
 *
 * INVARIANTS
 *   - One record's allocations live in the runner's arena, reset per record.
 *   - Nothing outside the per-file temporary folder is written (the
 *     validator's files, states and symlinks live in <tmp>/validate).
 *   - A NULL renders as the null_text pointer, '' as empty_text, so the
 *     recorded rows keep NULL apart from the string 'NULL'.
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
#include "sql/parse.h"
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
#pragma weak session_txn_status

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
	bool notices;           /* statement ok notices: errmsg = the notices */
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
				/* "-": a result of zero columns (SELECT FROM t) */
				r->types = strcmp(w[1], "-") == 0 ? "" : w[1];
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
				r->notices = nw >= 3 && strcmp(w[2], "notices") == 0;
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
	char *notices;          /* floe's NOTICEs as psql prints them, NULL: none */
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
/* The spellings of SQL NULL and of the empty string: these very pointers, so
 * that --validate can tell them from the strings 'NULL' and '(empty)'. */
static char null_text[] = "NULL";
static char empty_text[] = "(empty)";

static const char *
render(Arena *a, const char *s, size_t len, bool is_null)
{
	if (is_null)
		return null_text;
	if (len == 0)
		return empty_text;
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
	Result *res = ctx;
	const char *lvl = !strncmp(notice->sqlstate, "01", 2) ? "WARNING" : "NOTICE";
	char *s = arena_sprintf(res->a, "%s%s%s:  %s", res->notices ? res->notices : "",
				res->notices ? "\n" : "", lvl, notice->message);
	if (notice->detail[0])
		s = arena_sprintf(res->a, "%s\nDETAIL:  %s", s, notice->detail);
	if (notice->hint[0])
		s = arena_sprintf(res->a, "%s\nHINT:  %s", s, notice->hint);
	res->notices = s;
}

/* ---------------------------------------------------------------- runner */

/* The tables a DML statement writes, as parsed (names already folded). */
#define MAX_TARGETS 8

typedef struct Target1 {
	char schema[128];
	char rel[128];
} Target1;

typedef struct Targets {
	Target1 t[MAX_TARGETS];
	int n;
} Targets;

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
	Targets pending;         /* one-sided DML targets not compared yet */
	Targets in_block;        /* --validate: tables written in the open transaction block */
	int in_block_line;
	char last_meta[4096];    /* the metadata file recorded last */
	int pending_line;
	bool validate;           /* --validate */
	char vdir[320];          /* its folder: jobs.jsonl, states/N/ */
	FILE *jobs;
	int njobs;
	int ncontents;           /* table contents compared */
	char vsummary[4096];     /* the checker's OK line */
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

/* PostgreSQL's notices of the last pg_run (pg_notice) */
static char pg_notices[16384];

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
	pg_notices[0] = '\0';
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

/* Differential mode: floe's command tag must be PostgreSQL's (PQcmdStatus). */
static int
compare_tags(Runner *r, const Record *rec, const char *sql, const Result *floe, const Result *pg)
{
	if (strcmp(floe->tag, pg->tag) == 0)
		return FLOE_OK;
	failf(r, rec->line, "command tag \"%s\" from floe, \"%s\" from PostgreSQL", floe->tag, pg->tag);
	printf("    SQL: %s\n", sql);
	return FLOE_ERR;
}

static void
show_error(const char *who, const floe_error *e)
{
	printf("    %s: ERROR %s: %s\n", who, e->sqlstate, e->message);
	if (e->detail[0])
		printf("    DETAIL: %s\n", e->detail);
}

/* statement ok notices: floe's (and PostgreSQL's) NOTICEs are the ---- lines */
static int
compare_notices(Runner *r, const Record *rec, const char *sql, const Result *res)
{
	const char *want = rec->errmsg ? rec->errmsg : "";
	const char *got = res->notices ? res->notices : "";

	if (r->pg) {
		size_t n = strlen(pg_notices);
		while (n > 0 && pg_notices[n - 1] == '\n')
			pg_notices[--n] = '\0';
		if (strcmp(pg_notices, want) != 0) {
			failf(r, rec->line, "PostgreSQL's notices differ from the test's (fix the test)");
			printf("    SQL: %s\n    PostgreSQL:\n%s\n    test:\n%s\n", sql, pg_notices, want);
			return FLOE_ERR;
		}
	}
	if (strcmp(got, want) != 0) {
		failf(r, rec->line, "floe's notices differ");
		printf("    SQL: %s\n    floe:\n%s\n    expected:\n%s\n", sql, got, want);
		return FLOE_ERR;
	}
	return FLOE_OK;
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
		if (r->pg)
			TRY(compare_tags(r, rec, sql, &res, &pres));
		if (rec->notices)
			TRY(compare_notices(r, rec, sql, &res));
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
		TRY(compare_tags(r, rec, sql, &res, &pres));
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

/* ---------------------------------------------------------------- DML checks
 *
 * After every successful INSERT/UPDATE/DELETE/MERGE/TRUNCATE/COPY FROM
 * record (a statement, or a query: ... RETURNING), differential mode
 * compares the whole target table (SELECT *, rows sorted as text) between
 * floe and PostgreSQL.  A one-sided DML (onlyif floe / onlyif postgres: the
 * two halves of an equivalent pair) marks its targets pending; they are
 * compared before the next record that runs on both systems and at the end
 * of the file.  A table gone on both systems (dropped by the same
 * statement) is skipped.
 *
 * --validate: after every successful DML on floe outside a transaction
 * block, the target's current metadata file (the last row of
 * t$metadata_log_entries) and floe's rows are recorded, with a hard-link
 * copy of the table folder (Iceberg files are immutable, so the copy is
 * that state even after later statements delete files).  At the end of the
 * file one node process (validate_js below) checks every recorded state.
 */

static void
add_target(Targets *ts, const PgQuery__RangeVar *rv)
{
	if (!rv || !rv->relname || !rv->relname[0])
		return;
	const char *schema = rv->schemaname ? rv->schemaname : "";
	for (int i = 0; i < ts->n; i++)
		if (strcmp(ts->t[i].schema, schema) == 0 && strcmp(ts->t[i].rel, rv->relname) == 0)
			return;
	if (ts->n == MAX_TARGETS || strlen(schema) >= sizeof ts->t[0].schema ||
	    strlen(rv->relname) >= sizeof ts->t[0].rel)
		return;
	snprintf(ts->t[ts->n].schema, sizeof ts->t[0].schema, "%s", schema);
	snprintf(ts->t[ts->n].rel, sizeof ts->t[0].rel, "%s", rv->relname);
	ts->n++;
}

static void stmt_targets(const Node *n, Targets *ts);

static void
with_targets(const PgQuery__WithClause *w, Targets *ts)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n_ctes; i++) {
		const Node *c = w->ctes[i];
		if (c && c->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR)
			stmt_targets(c->common_table_expr->ctequery, ts);
	}
}

static void
stmt_targets(const Node *n, Targets *ts)
{
	if (!n)
		return;
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_INSERT_STMT:
		add_target(ts, n->insert_stmt->relation);
		with_targets(n->insert_stmt->with_clause, ts);
		break;
	case PG_QUERY__NODE__NODE_UPDATE_STMT:
		add_target(ts, n->update_stmt->relation);
		with_targets(n->update_stmt->with_clause, ts);
		break;
	case PG_QUERY__NODE__NODE_DELETE_STMT:
		add_target(ts, n->delete_stmt->relation);
		with_targets(n->delete_stmt->with_clause, ts);
		break;
	case PG_QUERY__NODE__NODE_MERGE_STMT:
		add_target(ts, n->merge_stmt->relation);
		with_targets(n->merge_stmt->with_clause, ts);
		break;
	case PG_QUERY__NODE__NODE_SELECT_STMT:
		with_targets(n->select_stmt->with_clause, ts);
		break;
	case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
		for (size_t i = 0; i < n->truncate_stmt->n_relations; i++) {
			const Node *rel = n->truncate_stmt->relations[i];
			if (rel && rel->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
				add_target(ts, rel->range_var);
		}
		break;
	case PG_QUERY__NODE__NODE_COPY_STMT:
		if (n->copy_stmt->is_from)
			add_target(ts, n->copy_stmt->relation);
		break;
	default:
		break;
	}
}

/* The tables sql writes; none when it does not parse. */
static void
dml_targets(Runner *r, const char *sql, Targets *ts)
{
	SqlStmt *stmts;
	int n;
	floe_error err;
	ts->n = 0;
	if (sql_parse(sql, r->arena, &stmts, &n, &err) != FLOE_OK)
		return;
	for (int i = 0; i < n; i++)
		stmt_targets(stmts[i].node, ts);
}

static void
add_pending(Runner *r, const Targets *ts, int line)
{
	for (int i = 0; i < ts->n; i++) {
		PgQuery__RangeVar rv = { .schemaname = (char *)ts->t[i].schema,
					 .relname = (char *)ts->t[i].rel };
		add_target(&r->pending, &rv);
	}
	if (ts->n)
		r->pending_line = line;
}

/* "schema"."rel<suffix>" (identifiers quoted: the parser folded them). */
static char *
table_ref(Arena *a, const Target1 *t, const char *suffix)
{
	char *out = arena_alloc(a, 2 * (strlen(t->schema) + strlen(t->rel) + strlen(suffix)) + 8);
	char *p = out;
	for (int part = 0; part < 2; part++) {
		const char *s = part ? t->rel : t->schema;
		if (!part && !s[0])
			continue;
		if (part && t->schema[0])
			*p++ = '.';
		*p++ = '"';
		for (; *s; s++) {
			if (*s == '"')
				*p++ = '"';
			*p++ = *s;
		}
		if (part)
			for (const char *x = suffix; *x; x++)
				*p++ = *x;
		*p++ = '"';
	}
	*p = '\0';
	return out;
}

/* SELECT * FROM t on floe (and, with_pg, on PostgreSQL: rows compared).
 * fres gets floe's rows; *exists is false when the table is gone (on both). */
static int
table_contents(Runner *r, int line, const char *after, const Target1 *t, bool with_pg,
	       Result *fres, bool *exists)
{
	char *q = arena_sprintf(r->arena, "SELECT * FROM %s", table_ref(r->arena, t, ""));
	Result pres;
	floe_error err, perr;
	int rc = floe_run(r, q, fres, &err);
	int prc = with_pg ? pg_run(r, q, &pres, &perr) : rc;
	*exists = rc == FLOE_OK;
	if (rc != FLOE_OK && prc != FLOE_OK)
		return FLOE_OK;
	if (rc != FLOE_OK || prc != FLOE_OK || fres->ncols < 0 || (with_pg && pres.ncols < 0)) {
		failf(r, line, "table %s after the statement: %s", table_ref(r->arena, t, ""),
		      rc != FLOE_OK ? "SELECT * fails on floe" : "SELECT * fails on PostgreSQL");
		printf("    after: %s\n", after);
		if (rc != FLOE_OK)
			show_error("floe", &err);
		if (prc != FLOE_OK)
			show_error("PostgreSQL", &perr);
		return FLOE_ERR;
	}
	sort_result(r->arena, fres, SORT_ROWS);
	if (!with_pg)
		return FLOE_OK;
	r->ncontents++;
	sort_result(r->arena, &pres, SORT_ROWS);
	Record fake = { .line = line, .sql = q };
	if (compare_results(r, &fake, "PostgreSQL", &pres, "floe", fres) != FLOE_OK) {
		printf("    (the contents of %s after: %s)\n", table_ref(r->arena, t, ""), after);
		return FLOE_ERR;
	}
	return FLOE_OK;
}

static void
json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* Hard-link copy of a folder tree (for record_state). */
static const char *link_src, *link_dst;

static int
link_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	char dst[4096];
	snprintf(dst, sizeof dst, "%s%s", link_dst, path + strlen(link_src));
	if (flag == FTW_D)
		mkdir(dst, 0755);
	else if (flag == FTW_F && link(path, dst) != 0)
		return -1;
	return 0;
}

static bool
in_txn_block(Runner *r)
{
	return session_txn_status && session_txn_status(r->session) != 'I';
}

/* --validate: record table t's committed state (metadata file + floe's rows).
 * Inside a transaction block the table is remembered instead and recorded
 * once the block ends (validate_block_end). */
static int
record_state(Runner *r, int line, const Target1 *t, const Result *rows)
{
	if (in_txn_block(r)) {
		PgQuery__RangeVar rv = { .schemaname = (char *)t->schema, .relname = (char *)t->rel };
		add_target(&r->in_block, &rv);
		r->in_block_line = line;
		return FLOE_OK;
	}
	char *q = arena_sprintf(r->arena, "SELECT file FROM %s",
				table_ref(r->arena, t, "$metadata_log_entries"));
	Result m;
	floe_error err;
	if (floe_run(r, q, &m, &err) != FLOE_OK || m.ncols != 1 || m.nrows == 0) {
		failf(r, line, "validate: cannot read the current metadata file of %s",
		      table_ref(r->arena, t, ""));
		printf("    SQL: %s\n", q);
		if (err.sqlstate[0])
			show_error("floe", &err);
		return FLOE_ERR;
	}
	const char *meta = m.vals[m.nrows - 1];
	if (strncmp(meta, "file://", 7) == 0)
		meta += 7;
	if (strcmp(meta, r->last_meta) == 0)
		return FLOE_OK;   /* no new commit (e.g. a DML that changed nothing): checked already */
	snprintf(r->last_meta, sizeof r->last_meta, "%s", meta);
	char tdir[4096], state[400];
	snprintf(tdir, sizeof tdir, "%s", meta);
	for (int k = 0; k < 2; k++) {
		char *slash = strrchr(tdir, '/');
		if (slash && slash != tdir)
			*slash = '\0';
	}
	snprintf(state, sizeof state, "%s/states/%d", r->vdir, r->njobs);
	link_src = tdir;
	link_dst = state;
	if (nftw(tdir, link_entry, 16, FTW_PHYS) != 0)
		return failf(r, line, "validate: cannot copy %s: %s", tdir, strerror(errno));
	fprintf(r->jobs, "{\"line\":%d,\"table\":", line);
	json_string(r->jobs, table_ref(r->arena, t, ""));
	fprintf(r->jobs, ",\"dir\":");
	json_string(r->jobs, tdir);
	fprintf(r->jobs, ",\"state\":");
	json_string(r->jobs, state);
	fprintf(r->jobs, ",\"metadata\":\"%s%s\",\"rows\":[", state, meta + strlen(tdir));
	for (int i = 0; i < rows->nrows; i++) {
		fputs(i ? ",[" : "[", r->jobs);
		for (int c = 0; c < rows->ncols; c++) {
			const char *v = rows->vals[i * rows->ncols + c];
			if (c)
				fputc(',', r->jobs);
			if (v == null_text)
				fputs("null", r->jobs);
			else
				json_string(r->jobs, v == empty_text ? "" : v);
		}
		fputc(']', r->jobs);
	}
	fputs("]}\n", r->jobs);
	r->njobs++;
	return FLOE_OK;
}

/* --validate: once a transaction block has ended (COMMIT, ROLLBACK, or an
 * error in autocommit), record the states of the tables written in it. */
static int
validate_block_end(Runner *r)
{
	if (!r->in_block.n || in_txn_block(r))
		return FLOE_OK;
	Targets ts = r->in_block;
	r->in_block.n = 0;
	for (int i = 0; i < ts.n; i++) {
		Result rows;
		bool exists;
		TRY(table_contents(r, r->in_block_line, "the transaction block", &ts.t[i], false, &rows,
				   &exists));
		if (exists)
			TRY(record_state(r, r->in_block_line, &ts.t[i], &rows));
	}
	return FLOE_OK;
}

/* The checks after a successful record. */
static int
after_record(Runner *r, const Record *rec)
{
	if (!r->pg && !r->validate)
		return FLOE_OK;
	char *sql = substitute(r, rec->sql);
	Targets ts;
	dml_targets(r, sql, &ts);
	if (rec->target == TARGET_PG) {
		add_pending(r, &ts, rec->line);
		return FLOE_OK;
	}
	if (rec->target == TARGET_FLOE && r->pg)
		add_pending(r, &ts, rec->line);
	for (int i = 0; i < ts.n; i++) {
		Result rows;
		bool exists;
		TRY(table_contents(r, rec->line, sql, &ts.t[i], r->pg && rec->target == TARGET_BOTH,
				   &rows, &exists));
		if (r->validate && exists)
			TRY(record_state(r, rec->line, &ts.t[i], &rows));
	}
	return FLOE_OK;
}

/* Compare the tables one-sided DML records wrote. */
static int
check_pending(Runner *r)
{
	int rc = FLOE_OK;
	for (int i = 0; i < r->pending.n && rc == FLOE_OK; i++) {
		Result rows;
		bool exists;
		rc = table_contents(r, r->pending_line, "the one-sided statements up to here",
				    &r->pending.t[i], true, &rows, &exists);
	}
	r->pending.n = 0;
	return rc;
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
	if (rec->target == TARGET_BOTH && r->pg && r->pending.n)
		TRY(check_pending(r));
	if (rec->target == TARGET_PG && !r->pg)
		return FLOE_OK;
	int rc;
	if (rec->target == TARGET_PG) {
		rc = run_pg_only(r, rec);
	} else {
		PGconn *saved = r->pg;
		if (rec->target == TARGET_FLOE)
			r->pg = NULL;
		rc = rec->kind == R_QUERY ? run_query(r, rec) : run_statement(r, rec);
		r->pg = saved;
	}
	if (rc == FLOE_OK && !rec->expect_error)
		rc = after_record(r, rec);
	if (rc == FLOE_OK && r->validate && rec->target != TARGET_PG)
		rc = validate_block_end(r);
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

/* ---------------------------------------------------------------- validate */

/* The checker node runs (generated from its .mjs text: edit it here). */
/* BEGIN validate_js */
static const char validate_js[] =
	"// sqltest --validate: every recorded table state (jobs.jsonl: one JSON line per\n"
	"// committed DML state) is checked with the interop toolkit\n"
	"// (../shared/tools/interop), and floe's rows must equal an independent reader's:\n"
	"//   - every state: DuckDB over the live data files of its current snapshot\n"
	"//     minus the position deletes and deletion vectors (decoded by the\n"
	"//     toolkit's puffin.mjs), with the spec's sequence-number rule;\n"
	"//   - the last state of each table (by table-uuid): iceberg-validate (its main()\n"
	"//     run in this process) over ALL snapshots, i.e. every DML's commit, and\n"
	"//     icebird reading the rows (unless the snapshot has deletion vectors,\n"
	"//     which icebird 0.3 cannot read).\n"
	"// SQLTEST_VALIDATE_EVERY=1: iceberg-validate (--snapshot) and icebird on every state.\n"
	"// argv: INTEROP_HOME JOBS.  The folder of this script holds symlinks lib/ and\n"
	"// node_modules/ to the toolkit's install.  Prints \"FAIL <line> <message>\"\n"
	"// (then \"  detail\" lines) for the first failing state, else \"OK <summary>\".\n"
	"import fs from 'node:fs'\n"
	"import path from 'node:path'\n"
	"import { fileURLToPath, pathToFileURL } from 'node:url'\n"
	"\n"
	"const [home, jobsFile] = process.argv.slice(2)\n"
	"const here = path.dirname(fileURLToPath(import.meta.url))\n"
	"const lib = m => import(pathToFileURL(path.join(here, 'lib', m)).href)\n"
	"const { loadMetadata, makeResolver, readAvro, schemaById, snapshotById } = await lib('iceberg.mjs')\n"
	"const { duckConnect, duckObjects } = await lib('duck.mjs')\n"
	"const { readPuffinFooter, decodeDeletionVector } = await lib('puffin.mjs')\n"
	"const { sqlString } = await lib('common.mjs')\n"
	"const { icebergRead } = await import('icebird')\n"
	"\n"
	"// A tool's main() as a function: its source with the final runMain(main) made an export.\n"
	"async function toolMain(name) {\n"
	"  const src = fs.readFileSync(path.join(home, 'bin', name), 'utf8')\n"
	"  if (!/^runMain\\(main\\)\\s*$/m.test(src)) throw new Error(`${name}: no runMain(main) line`)\n"
	"  fs.mkdirSync(path.join(here, 'bin'), { recursive: true })\n"
	"  const f = path.join(here, 'bin', `${name}.mjs`)\n"
	"  fs.writeFileSync(f, src.replace(/^#!.*\\n/, '').replace(/^runMain\\(main\\)\\s*$/m, 'export { main }\\n'))\n"
	"  return (await import(pathToFileURL(f).href)).main\n"
	"}\n"
	"\n"
	"class Exit extends Error { constructor(code) { super(`exit ${code}`); this.code = code } }\n"
	"\n"
	"// Run a tool's main with args; its output is captured, process.exit becomes a throw.\n"
	"async function runTool(main, args) {\n"
	"  const out = []\n"
	"  const saved = [process.argv, process.exit, process.stdout.write, process.stderr.write]\n"
	"  process.argv = [process.argv[0], 'tool', ...args]\n"
	"  process.exit = code => { throw new Exit(code ?? 0) }\n"
	"  process.stdout.write = s => { out.push(String(s)); return true }\n"
	"  process.stderr.write = s => { out.push(String(s)); return true }\n"
	"  let code\n"
	"  try {\n"
	"    code = (await main()) ?? 0\n"
	"  } catch (e) {\n"
	"    if (e instanceof Exit) code = e.code\n"
	"    else { out.push(`exception: ${e.message}\\n`); code = 1 }\n"
	"  } finally {\n"
	"    [process.argv, process.exit, process.stdout.write, process.stderr.write] = saved\n"
	"  }\n"
	"  return { code, text: out.join('') }\n"
	"}\n"
	"\n"
	"// ---- canonical text of one value, so floe's PostgreSQL text and each reader's values compare.\n"
	"// Lossy where icebird is (its limits, ../shared/tools/interop/README.md): timestamps at\n"
	"// millisecond precision (truncated towards zero, as icebird), decimals as doubles rounded to\n"
	"// the scale, binary as UTF-8 text (hyparquet decodes unannotated BYTE_ARRAY as UTF-8).\n"
	"const NULL = '\\u2400'\n"
	"function utcDays(y, m, d) {\n"
	"  const t = new Date(Date.UTC(2000, m - 1, d))\n"
	"  t.setUTCFullYear(y)\n"
	"  return Math.round(t.getTime() / 86400000)\n"
	"}\n"
	"// 'YYYY-MM-DD[ BC| (BC)]' -> days since 1970-01-01 (proleptic Gregorian)\n"
	"function dateDays(s) {\n"
	"  const m = /^(\\d{4,})-(\\d\\d)-(\\d\\d)/.exec(s)\n"
	"  if (!m) return null\n"
	"  const bc = /BC\\)?$/.test(s)\n"
	"  return utcDays(bc ? 1 - Number(m[1]) : Number(m[1]), Number(m[2]), Number(m[3]))\n"
	"}\n"
	"// 'YYYY-MM-DD HH:MM:SS[.f][+HH[:MM]]' -> milliseconds since the epoch, truncated towards zero\n"
	"function tsMillis(s) {\n"
	"  const m = /^(\\d{4,})-(\\d\\d)-(\\d\\d)[ T](\\d\\d):(\\d\\d):(\\d\\d)(?:\\.(\\d+))?(?:Z|([+-])(\\d\\d)(?::?(\\d\\d))?)?( BC)?$/.exec(s)\n"
	"  if (!m) return s\n"
	"  const days = utcDays(m[11] ? 1 - Number(m[1]) : Number(m[1]), Number(m[2]), Number(m[3]))\n"
	"  let us = ((BigInt(days) * 24n + BigInt(m[4])) * 60n + BigInt(m[5])) * 60n + BigInt(m[6])\n"
	"  us = us * 1000000n + BigInt(((m[7] ?? '') + '000000').slice(0, 6))\n"
	"  if (m[8]) us -= (m[8] === '-' ? -1n : 1n) * (BigInt(m[9]) * 60n + BigInt(m[10] ?? 0)) * 60000000n\n"
	"  return String(us / 1000n)\n"
	"}\n"
	"function timeCanon(s) {\n"
	"  const m = /^(\\d\\d):(\\d\\d):(\\d\\d)(?:\\.(\\d+))?$/.exec(s)\n"
	"  if (!m) return s\n"
	"  return String(((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n + BigInt(m[3])) * 1000000n + BigInt(((m[4] ?? '') + '000000').slice(0, 6)))\n"
	"}\n"
	"function numCanon(s, float) {\n"
	"  const t = s.toLowerCase().replace(/^\\+/, '')\n"
	"  let n = t === 'inf' || t === 'infinity' ? Infinity : t === '-inf' || t === '-infinity' ? -Infinity : Number(t)\n"
	"  if (float) n = Math.fround(n)\n"
	"  return String(n)\n"
	"}\n"
	"function binText(s) {\n"
	"  if (/^\\\\x[0-9a-fA-F]*$/.test(s)) return Buffer.from(s.slice(2), 'hex').toString('utf8')   // PostgreSQL bytea hex\n"
	"  const bytes = []                                                                         // DuckDB blob text\n"
	"  for (let i = 0; i < s.length;) {\n"
	"    if (s[i] === '\\\\' && s[i + 1] === 'x') { bytes.push(parseInt(s.slice(i + 2, i + 4), 16)); i += 4 } else { bytes.push(...Buffer.from(s[i])); i++ }\n"
	"  }\n"
	"  return Buffer.from(bytes).toString('utf8')\n"
	"}\n"
	"function canon(type, x, reader) {\n"
	"  if (x === null || x === undefined) return NULL\n"
	"  if (typeof type !== 'string') return '?'                           // nested: not compared\n"
	"  const scale = /^decimal\\(\\d+,\\s*(\\d+)\\)$/.exec(type)\n"
	"  const t = scale ? 'decimal' : type.startsWith('fixed') ? 'binary' : type.startsWith('timestamp') ? 'timestamp' : type\n"
	"  if (x instanceof Date) return t === 'date' ? String(Math.round(x.getTime() / 86400000)) : String(x.getTime())\n"
	"  if (x instanceof Uint8Array) return t === 'uuid' ? Buffer.from(x).toString('hex') : Buffer.from(x).toString('utf8')\n"
	"  if (typeof x === 'boolean') return String(x)\n"
	"  if (typeof x === 'number' || typeof x === 'bigint') {\n"
	"    if (t === 'float') return String(Math.fround(Number(x)))\n"
	"    if (t === 'decimal') return Number(x).toFixed(Number(scale[1]))\n"
	"    if (t === 'timestamp') return String(BigInt(x) / (type.endsWith('_ns') ? 1000000n : 1000n))\n"
	"    if (t === 'date') return String(x)\n"
	"    return String(x)\n"
	"  }\n"
	"  const s = String(x)\n"
	"  switch (t) {\n"
	"    case 'boolean': return s === 't' ? 'true' : s === 'f' ? 'false' : s\n"
	"    case 'float': case 'double': return numCanon(s, t === 'float')\n"
	"    case 'decimal': return Number(s).toFixed(Number(scale[1]))\n"
	"    case 'int': case 'long': return /^[+-]?\\d+$/.test(s) ? String(BigInt(s)) : s\n"
	"    case 'date': return String(dateDays(s) ?? s)\n"
	"    case 'timestamp': return tsMillis(s)\n"
	"    case 'time': return timeCanon(s)\n"
	"    case 'binary': return s.startsWith('\\\\x') || reader !== 'icebird' ? binText(s) : s\n"
	"    case 'uuid': return s.replace(/-/g, '').toLowerCase()\n"
	"    default: return s\n"
	"  }\n"
	"}\n"
	"\n"
	"// ---- the live files of the current snapshot, read from the manifests\n"
	"async function liveFiles(md, resolver, snap) {\n"
	"  const data = [], deletes = []\n"
	"  const list = await readAvro(resolver.local(snap['manifest-list']))\n"
	"  for (const m of list.records) {\n"
	"    const mf = await readAvro(resolver.local(m.manifest_path))\n"
	"    for (const e of mf.records) {\n"
	"      if (Number(e.status) === 2) continue\n"
	"      const df = e.data_file\n"
	"      const seq = BigInt(e.sequence_number ?? m.sequence_number ?? 0)\n"
	"      const f = { df, seq, local: resolver.local(df.file_path) }\n"
	"      if (Number(df.content) === 0) data.push(f)\n"
	"      else deletes.push(f)\n"
	"    }\n"
	"  }\n"
	"  return { data, deletes }\n"
	"}\n"
	"\n"
	"// DuckDB over the data files, minus position deletes and deletion vectors.\n"
	"async function duckRows(con, fields, files) {\n"
	"  const dels = new Map()   // data file path -> [{ seq, set of positions }]\n"
	"  const add = (p, seq, positions) => { if (!dels.has(p)) dels.set(p, []); dels.get(p).push({ seq, set: new Set(positions.map(String)) }) }\n"
	"  for (const d of files.deletes) {\n"
	"    if (Number(d.df.content) === 2) throw new Error('equality delete files: not supported by the DuckDB reader')\n"
	"    if (String(d.df.file_format).toLowerCase() === 'puffin') {\n"
	"      const off = Number(d.df.content_offset), len = Number(d.df.content_size_in_bytes)\n"
	"      const pf = readPuffinFooter(d.local)\n"
	"      add(d.df.referenced_data_file, d.seq, decodeDeletionVector(pf.buf.subarray(off, off + len)).positions)\n"
	"    } else {\n"
	"      const rows = await duckObjects(con, `SELECT file_path, pos::VARCHAR AS pos FROM read_parquet(${sqlString(d.local)})`)\n"
	"      const by = new Map()\n"
	"      for (const r of rows) { if (!by.has(r.file_path)) by.set(r.file_path, []); by.get(r.file_path).push(r.pos) }\n"
	"      for (const [p, ps] of by) add(p, d.seq, ps)\n"
	"    }\n"
	"  }\n"
	"  const out = []\n"
	"  for (const f of files.data) {\n"
	"    const rows = await duckObjects(con, `SELECT COLUMNS(*)::VARCHAR FROM read_parquet(${sqlString(f.local)}, file_row_number = true)`)\n"
	"    const ds = (dels.get(f.df.file_path) ?? []).filter(d => d.seq >= f.seq)\n"
	"    for (const r of rows) {\n"
	"      if (ds.some(d => d.set.has(r.file_row_number))) continue\n"
	"      out.push(fields.map(fl => r[fl.name] ?? null))\n"
	"    }\n"
	"  }\n"
	"  return out\n"
	"}\n"
	"\n"
	"// icebird fetches URLs: give it the recorded state's files through a fetch that\n"
	"// reads them from disk (GET/HEAD, Range) and refuses everything else.\n"
	"function headerOf(init, name) {\n"
	"  const h = init?.headers\n"
	"  if (!h) return undefined\n"
	"  if (typeof h.get === 'function') return h.get(name) ?? undefined\n"
	"  for (const k of Object.keys(h)) if (k.toLowerCase() === name) return h[k]\n"
	"  return undefined\n"
	"}\n"
	"function localFetch(resolver, roots) {\n"
	"  return async (input, init) => {\n"
	"    const url = typeof input === 'string' ? input : input.url\n"
	"    const local = url.startsWith('file:///0/') ? null : resolver.local(url.replace(/^http:\\/\\/local\\/0\\/?/, ''))\n"
	"    if (!local || !roots.some(r => local.startsWith(r + '/'))) throw new Error(`refusing to fetch ${url}`)\n"
	"    let st\n"
	"    try { st = fs.statSync(local) } catch { return new Response('not found', { status: 404 }) }\n"
	"    let start = 0, end = st.size - 1, status = 200\n"
	"    const range = headerOf(init, 'range')\n"
	"    const m = range && /^bytes=(\\d*)-(\\d*)$/.exec(range)\n"
	"    if (m) {\n"
	"      if (m[1] === '') start = Math.max(0, st.size - Number(m[2]))\n"
	"      else { start = Number(m[1]); if (m[2] !== '') end = Math.min(Number(m[2]), st.size - 1) }\n"
	"      status = 206\n"
	"    }\n"
	"    const headers = { 'content-length': String(Math.max(0, end - start + 1)), 'accept-ranges': 'bytes' }\n"
	"    if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${st.size}`\n"
	"    if ((init?.method ?? 'GET') === 'HEAD') return new Response(null, { status, headers })\n"
	"    const fd = fs.openSync(local, 'r')\n"
	"    const buf = Buffer.alloc(Math.max(0, end - start + 1))\n"
	"    try { fs.readSync(fd, buf, 0, buf.length, start) } finally { fs.closeSync(fd) }\n"
	"    return new Response(buf, { status, headers })\n"
	"  }\n"
	"}\n"
	"\n"
	"async function icebirdRows(metadataText, resolver, fields, root) {\n"
	"  const realFetch = globalThis.fetch\n"
	"  globalThis.fetch = localFetch(resolver, [root])\n"
	"  try {\n"
	"    const rows = await icebergRead({ tableUrl: 'http://local/0', metadata: JSON.parse(metadataText) })\n"
	"    return rows.map(r => fields.map(f => r[f.name]))\n"
	"  } finally {\n"
	"    globalThis.fetch = realFetch\n"
	"  }\n"
	"}\n"
	"\n"
	"function diffRows(want, got) {\n"
	"  const count = new Map()\n"
	"  for (const r of want) count.set(r, (count.get(r) ?? 0) + 1)\n"
	"  const extra = []\n"
	"  for (const r of got) { const c = count.get(r); if (c) count.set(r, c - 1); else extra.push(r) }\n"
	"  const missing = [...count].filter(([, c]) => c > 0).map(([r]) => r)\n"
	"  const show = r => r.split('\\u001f').map(v => (v === NULL ? 'NULL' : v)).join('\\t')\n"
	"  return [...missing.slice(0, 5).map(r => `  only floe:   ${show(r)}`), ...extra.slice(0, 5).map(r => `  only reader: ${show(r)}`)]\n"
	"}\n"
	"\n"
	"let current = null\n"
	"const failures = []\n"
	"function failJob(job, msg, details = []) {\n"
	"  failures.push([`FAIL ${job.line} ${job.table}: ${msg}`, ...details.map(d => `  ${d}`)])\n"
	"}\n"
	"process.on('unhandledRejection', e => { if (current) failJob(current, `unhandled rejection: ${e && e.message}`) })\n"
	"\n"
	"const validate = await toolMain('iceberg-validate')\n"
	"const jobs = fs.readFileSync(jobsFile, 'utf8').split('\\n').filter(Boolean).map(l => JSON.parse(l))\n"
	"const con = await duckConnect()\n"
	"const used = { validated: 0, duckdb: 0, icebird: 0 }\n"
	"const ms = { validate: 0, duckdb: 0, icebird: 0 }\n"
	"const every = process.env.SQLTEST_VALIDATE_EVERY === '1'\n"
	"const lastOf = new Map()   // table-uuid -> index of its last job\n"
	"const mds = jobs.map(job => loadMetadata(job.metadata))\n"
	"mds.forEach((md, i) => lastOf.set(String(md['table-uuid']), i))\n"
	"\n"
	"// rows of a reader against floe's; false (and a failure recorded) when they differ\n"
	"function sameRows(job, fields, reader, got) {\n"
	"  const key = r => fields.map((f, i) => canon(f.type, r[i], reader)).join('\\u001f')\n"
	"  const want = job.rows.map(key).sort(), have = got.map(key).sort()\n"
	"  if (want.length === have.length && want.every((r, i) => r === have[i])) return true\n"
	"  failJob(job, want.length === have.length ? `${reader} reads other rows than floe returned (${have.length})` : `${reader} reads ${have.length} rows, floe returned ${want.length}`, diffRows(want, have))\n"
	"  return false\n"
	"}\n"
	"\n"
	"for (const [i, job] of jobs.entries()) {\n"
	"  current = job\n"
	"  const md = mds[i]\n"
	"  const full = every || lastOf.get(String(md['table-uuid'])) === i\n"
	"  const maps = [[String(md.location), job.state], [job.dir, job.state]]\n"
	"  const resolver = makeResolver(md, job.state, maps)\n"
	"  const cur = md['current-snapshot-id']\n"
	"  const snap = cur === undefined || cur === null || String(cur) === '-1' ? null : snapshotById(md, cur)\n"
	"  let t0 = Date.now()\n"
	"  if (full) {\n"
	"    const args = [job.metadata, ...maps.flatMap(([p, d]) => ['--map', `${p}=${d}`])]\n"
	"    if (snap && every) args.push('--snapshot', String(cur))\n"
	"    const v = await runTool(validate, args)\n"
	"    used.validated++\n"
	"    // iceberg-validate flags the v3 row-lineage columns (_row_id 2147483540,\n"
	"    // _last_updated_sequence_number 2147483539) in data files as unknown field\n"
	"    // ids, but the v3 spec has writers materialize them when rows move.\n"
	"    const errs = v.text.split('\\n').filter(l => /^ERROR/.test(l) &&\n"
	"      !(Number(md['format-version']) >= 3 && /column (_row_id|_last_updated_sequence_number) has field_id (2147483540|2147483539), which is not in the table schema$/.test(l)))\n"
	"    if (v.code !== 0 && (errs.length || !/^FAIL: \\d+ error/m.test(v.text))) {\n"
	"      failJob(job, 'iceberg-validate failed', [...errs, ...v.text.split('\\n').filter(l => /^(FAIL|exception)/.test(l))].slice(0, 8))\n"
	"      break\n"
	"    }\n"
	"    ms.validate += Date.now() - t0\n"
	"  }\n"
	"  const fields = schemaById(md, md['current-schema-id']).fields\n"
	"  const ncols = job.rows.length ? job.rows[0].length : fields.length\n"
	"  if (ncols !== fields.length) { failJob(job, `floe returned ${ncols} columns, the schema has ${fields.length}`); break }\n"
	"  let reader = 'duckdb'\n"
	"  try {\n"
	"    const files = snap ? await liveFiles(md, resolver, snap) : { data: [], deletes: [] }\n"
	"    t0 = Date.now()\n"
	"    if (!sameRows(job, fields, 'duckdb', await duckRows(con, fields, files))) break\n"
	"    used.duckdb++\n"
	"    ms.duckdb += Date.now() - t0\n"
	"    // icebird 0.3 throws on a snapshot without data manifests, and cannot read deletion vectors\n"
	"    if (full && files.data.length && !files.deletes.some(d => String(d.df.file_format).toLowerCase() === 'puffin')) {\n"
	"      reader = 'icebird'\n"
	"      t0 = Date.now()\n"
	"      if (!sameRows(job, fields, 'icebird', await icebirdRows(fs.readFileSync(job.metadata, 'utf8'), resolver, fields, job.state))) break\n"
	"      used.icebird++\n"
	"      ms.icebird += Date.now() - t0\n"
	"    }\n"
	"  } catch (e) {\n"
	"    failJob(job, `${reader} failed: ${e.message}`)\n"
	"    break\n"
	"  }\n"
	"}\n"
	"current = null\n"
	"if (failures.length) for (const l of failures[0]) process.stdout.write(l + '\\n')\n"
	"else process.stdout.write(`OK ${jobs.length} states read by DuckDB; ${used.validated} passed iceberg-validate${every ? '' : ' (all snapshots)'}, ${used.icebird} read by icebird${process.env.SQLTEST_VALIDATE_TIMES ? ` (ms: ${JSON.stringify(ms)})` : ''}\\n`)\n"
	"process.exit(failures.length ? 1 : 0)\n";
/* END validate_js */

/* At the end of a --validate file: one node process checks every recorded
 * state (validate_js); its FAIL line names the record's line. */
static int
run_validator(Runner *r)
{
	fclose(r->jobs);
	r->jobs = NULL;
	if (r->njobs == 0)
		return FLOE_OK;
	char cmd[8192], line[4096], home[4096] = "", path[512], link_to[4200];
	snprintf(cmd, sizeof cmd, "'%s/tools/interop/setup' 2>/dev/null", r->shared);
	FILE *p = popen(cmd, "r");
	if (p) {
		if (!fgets(home, sizeof home, p))
			home[0] = '\0';
		pclose(p);
	}
	trim_right(home);
	home[strcspn(home, "\n")] = '\0';
	if (!home[0])
		return failf(r, 0, "validate: the interop tools are not installed (%s/tools/interop/setup)",
			     r->shared);
	snprintf(path, sizeof path, "%s/validate.mjs", r->vdir);
	FILE *f = fopen(path, "w");
	if (!f)
		return failf(r, 0, "validate: cannot write %s: %s", path, strerror(errno));
	fputs(validate_js, f);
	fclose(f);
	const char *links[] = { "lib", "node_modules" };
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", r->vdir, links[i]);
		snprintf(link_to, sizeof link_to, "%s/%s", home, links[i]);
		if (symlink(link_to, path) != 0)
			return failf(r, 0, "validate: symlink %s: %s", path, strerror(errno));
	}
	snprintf(cmd, sizeof cmd, "cd '%s' && node validate.mjs '%s' jobs.jsonl 2>&1", r->vdir, home);
	p = popen(cmd, "r");
	if (!p)
		return failf(r, 0, "validate: cannot run node: %s", strerror(errno));
	bool ok = false;
	int rc = FLOE_OK, nlast = 0;
	char last[6][4096];
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "OK ", 3) == 0) {
			ok = true;
			snprintf(r->vsummary, sizeof r->vsummary, "%s", line + 3);
		} else if (strncmp(line, "FAIL ", 5) == 0 && rc == FLOE_OK) {
			const char *msg = strchr(line + 5, ' ');
			failf(r, atoi(line + 5), "validate: %s", msg ? msg + 1 : line);
			rc = FLOE_ERR;
		} else if (rc != FLOE_OK) {
			printf("  %s\n", line);
		} else {
			snprintf(last[nlast % 6], sizeof last[0], "%s", line);
			nlast++;
		}
	}
	int st = pclose(p);
	if (rc == FLOE_OK && (!ok || st != 0)) {
		failf(r, 0, "validate: the checker failed (status %d)", st);
		for (int i = nlast > 6 ? nlast - 6 : 0; i < nlast; i++)
			printf("    %s\n", last[i % 6]);
		rc = FLOE_ERR;
	}
	return rc;
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

/* PostgreSQL's NOTICEs ("table does not exist, skipping") are not results;
 * kept (as libpq formats them: psql's lines) for "statement ok notices" */
static void
pg_notice(void *arg, const char *message)
{
	size_t n = strlen(pg_notices);
	(void)arg;
	snprintf(pg_notices + n, sizeof pg_notices - n, "%s", message);
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
run_file(const char *path, const char *pg_conninfo, bool verbose, bool keep, bool validate)
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
	if (validate) {
		r.validate = true;
		snprintf(r.vdir, sizeof r.vdir, "%s/validate", r.tmpdir);
		char jobs[400], states[400];
		snprintf(jobs, sizeof jobs, "%s/jobs.jsonl", r.vdir);
		snprintf(states, sizeof states, "%s/states", r.vdir);
		if (mkdir(r.vdir, 0755) != 0 || mkdir(states, 0755) != 0 || !(r.jobs = fopen(jobs, "w"))) {
			failf(&r, 0, "cannot create %s: %s", jobs, strerror(errno));
			goto out;
		}
	}
	rc = run_range(&r, &script, 0, script.n);
	if (rc == FLOE_OK && r.pg && r.pending.n) {
		arena_reset(r.arena);
		rc = check_pending(&r);
	}
	if (rc == FLOE_OK && r.validate)
		rc = run_validator(&r);
	if (rc == FLOE_OK && r.validate)
		printf("PASS %s (%d statements, %d queries, %d tables compared, validated %s)\n",
		       path, r.nstatements, r.nqueries, r.ncontents, r.njobs ? r.vsummary : "0 states");
	else if (rc == FLOE_OK && r.pg)
		printf("PASS %s (%d statements, %d queries, %d tables compared)\n", path,
		       r.nstatements, r.nqueries, r.ncontents);
	else if (rc == FLOE_OK)
		printf("PASS %s (%d statements, %d queries)\n", path, r.nstatements, r.nqueries);
out:
	fflush(stdout);
	if (r.jobs)
		fclose(r.jobs);
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
	fprintf(stderr, "usage: sqltest [-v] [--keep] [--validate] [--pg CONNINFO] FILE.test...\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *pg = NULL;
	bool verbose = false, keep = false, validate = false;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--pg") == 0 && i + 1 < argc)
			pg = argv[++i];
		else if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else if (strcmp(argv[i], "--keep") == 0)
			keep = true;
		else if (strcmp(argv[i], "--validate") == 0)
			validate = true;
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
		if (run_file(argv[i], pg, verbose, keep, validate) != FLOE_OK)
			failed++;
	return failed ? 1 : 0;
}
