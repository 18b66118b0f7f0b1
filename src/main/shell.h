/*
 * shell.h — the floe shell (a psql look-alike over engine.h) and its
 * psql-style result printing (output.c).
 *
 * shell.c splits input into statements the way psql does (a `;` outside
 * quotes, comments, dollar quotes and parentheses ends a statement; a
 * backslash at top level starts a meta-command that runs to end of line),
 * runs each through session_exec, and prints results with output.c.
 *
 * output.c prints a table of text cells exactly as psql 15 does in its
 * aligned (default), unaligned (-A), tuples-only (-t), expanded (\x) and
 * csv (--csv) formats, and errors as libpq formats them (ERROR/LINE/caret/DETAIL/HINT).
 *
 * INTERFACE ROUTINES
 *   shell_new(session, opts) / shell_free(sh)
 *   shell_run_string(sh, text)          -c: run every statement, stop at error
 *   shell_run_stream(sh, f, name)       -f / stdin: same, reading f
 *   shell_interactive(sh)               libedit loop; continues after errors
 *   shell_set_var(sh, name, value)      -v NAME=VALUE, \set
 *   shell_stops_on_error(sh)            ON_ERROR_STOP (default on)
 *   output_print_table(out, t, opts)    psql's printTable for our formats
 *   output_print_error(out, e, severity, query, prefix)
 *   output_text_width(s, n)             display width (UTF-8, East Asian wide)
 *   output_sink_init(os, out, opts) / output_sink_reset(os)
 *                                       a ResultSink that prints each result
 */
#ifndef FLOE_SHELL_H
#define FLOE_SHELL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/arena.h"
#include "common/error.h"
#include "sql/engine.h"

#define FLOE_VERSION "0.1.0"

/* How results are printed (psql's \pset subset). */
typedef struct PrintOptions {
	bool unaligned;          /* -A */
	bool csv;                /* --csv (wins over unaligned) */
	bool tuples_only;        /* -t */
	bool expanded;           /* \x */
	bool expanded_auto;      /* \x auto: expanded when wider than the terminal */
	bool quiet;              /* -q: no command tags */
	const char *field_sep;   /* -F; "|" when NULL */
	const char *null_display;/* \pset null; "" when NULL */
	bool no_footer;          /* \pset footer off */
} PrintOptions;

/* One table to print: ncols headers and nrows * ncols cells, row-major. */
typedef struct PrintTable {
	const char *title;       /* NULL: none (\d's "Table ..." title) */
	int ncols;
	const char *const *headers;
	const bool *right_align; /* per column; NULL: all left */
	uint64_t nrows;
	const char *const *cells;/* never NULL entries: SQL NULL is "" */
	bool footer;             /* print "(N rows)" */
} PrintTable;

typedef struct ShellOptions {
	PrintOptions print;
	bool echo_errors;        /* --echo-errors: "STATEMENT:  sql" after errors */
	bool timing;             /* \timing */
	bool continue_on_error;  /* -v ON_ERROR_STOP=0: scripts go on after errors */
} ShellOptions;

typedef struct Shell Shell;

Shell *shell_new(Session *session, const ShellOptions *opts);
void shell_free(Shell *sh);
/* Run every statement and meta-command of text; FLOE_ERR at the first error
 * (already printed to stderr). */
int shell_run_string(Shell *sh, const char *text);
/* Same, reading lines from f; name is used in error prefixes ("floe:NAME:LINE: ")
 * when with_prefix. */
int shell_run_stream(Shell *sh, FILE *f, const char *name, bool with_prefix);
/* -v NAME=VALUE / \set: a variable interpolated as :NAME, :'NAME', :"NAME".
 * ON_ERROR_STOP (on/off) decides whether scripts stop at the first error.
 * FLOE_ERR (message printed) for a bad ON_ERROR_STOP value. */
int shell_set_var(Shell *sh, const char *name, const char *value);
/* Whether the first error stops a script (ON_ERROR_STOP, default on). */
bool shell_stops_on_error(const Shell *sh);
/* Interactive loop on the terminal; returns at \q or end of input. */
int shell_interactive(Shell *sh);

void output_print_table(FILE *out, const PrintTable *t, const PrintOptions *opts);
void output_print_error(FILE *out, const floe_error *e, const char *severity,
			const char *query, const char *prefix);
int output_text_width(const char *s, size_t n);

/* A ResultSink printing each statement's result when it completes. */
typedef struct OutputSink {
	ResultSink sink;         /* pass &os->sink to session_exec */
	FILE *out;
	const PrintOptions *opts;
	Arena *arena;            /* cells of the current result; reset per statement */
	int ncols;
	const char **headers;
	bool *right_align;
	const char **cells;
	uint64_t nrows, cap;
	bool has_columns;
	const char *notice_prefix;
	uint64_t results;        /* statements completed */
	volatile int *cancel;    /* non-zero: ask the engine to cancel (Ctrl-C) */
	/* COPY FROM STDIN: data lines come from copy_in until a line "\." or
	 * EOF (psql's handleCopyIn); *copy_lineno counts them (error prefixes);
	 * copy_prompt: print psql's "Enter data to be copied..." first */
	FILE *copy_in;
	int *copy_lineno;
	bool copy_prompt;
	char *copy_pending;      /* rest of a line longer than a read (owned) */
	size_t copy_pending_len, copy_pending_off;
	bool copy_end;           /* "\." or EOF seen */
	bool copy_active;        /* a COPY FROM STDIN began */
	bool copy_out;           /* the statement is a COPY TO STDOUT */
	FILE *copy_out_file;     /* \copy ... TO 'file': data goes there */
} OutputSink;

void output_sink_init(OutputSink *os, FILE *out, const PrintOptions *opts);
void output_sink_reset(OutputSink *os);
void output_sink_dispose(OutputSink *os);
/* after each statement: skip unread COPY FROM STDIN data up to "\\." */
void output_copy_finish(OutputSink *os);

#endif
