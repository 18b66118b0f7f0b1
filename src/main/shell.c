/*
 * shell.c — the floe shell: psql's input handling over the embedded engine.
 *
 * Input arrives as lines (from -c strings, a -f file, piped stdin or
 * libedit).  A small lexer, after psql's psqlscan.l, tracks across lines
 * whether we are inside a 'string', an E'string' (backslash escapes), a
 * "quoted identifier", a $tag$ dollar quote $tag$, a nested slash-star
 * comment, or parentheses.  Outside all of those:
 *
 *   ;          ends the statement: the buffer (with the ;, as psql sends it)
 *              goes to session_exec; a buffer of only whitespace/comments
 *              is skipped
 *   --         comment to end of line (dropped before a statement starts,
 *              as psql does, so LINE numbers of errors match psql's)
 *   \cmd args  a meta-command, running to end of line (\q \? \d \dt \dn
 *              \timing \x \a \t \f \pset \o \g \p \r \echo \i \copy)
 *
 * COPY ... FROM STDIN reads its data from the script after the statement
 * (from stdin with -c and interactively) up to a line "\." or EOF, like
 * psql; COPY ... TO STDOUT writes to the query output without a status
 * line.  \copy ... FROM/TO 'file' runs COPY FROM STDIN / TO STDOUT with the
 * client's file (output.c's sink does the reading and writing).
 *
 * Ctrl-C (interactive only) cancels the running statement through the
 * output sink, or drops the line being typed (siglongjmp out of readline,
 * as psql does).
 *
 * At the end of a script (-c / -f / piped stdin) a statement without a
 * trailing ; still runs, as in psql.  In script mode the first error stops
 * everything (psql with ON_ERROR_STOP=1) and the caller exits 1; the
 * interactive loop reports errors and continues.
 *
 * Errors go to stderr as libpq prints them (output.c); in -f mode prefixed
 * "floe:FILE:LINE: " like psql's "psql:FILE:LINE: ".
 *
 * INTERFACE ROUTINES
 *   shell_new(session, opts) / shell_free(sh)
 *   shell_run_string(sh, text)
 *   shell_run_stream(sh, f, name, with_prefix)
 *   shell_interactive(sh)
 *   shell_set_var(sh, name, value)      -v / \set; ON_ERROR_STOP is special
 *
 * Invariants: the lexer state and the query buffer persist across lines
 * until a statement ends; sh->failed is sticky for a script run.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <editline/readline.h>

#include "main/shell.h"

typedef enum LexMode {
	LX_NORMAL = 0,
	LX_SQUOTE,   /* '...' standard string */
	LX_ESTRING,  /* E'...' with backslash escapes */
	LX_DQUOTE,   /* "identifier" */
	LX_DOLLAR,   /* $tag$ ... $tag$ */
	LX_BLOCK,    /* slash-star comment, nests */
} LexMode;

struct Shell {
	Session *session;
	ShellOptions opts;
	OutputSink os;

	/* query buffer */
	char *buf;
	size_t len, cap;
	bool has_token;          /* buffer holds more than whitespace/comments */

	/* lexer state */
	LexMode mode;
	int comment_depth;
	int paren_depth;
	char dollar_tag[64];     /* "$tag$" */

	/* where input comes from, for error prefixes */
	const char *source;
	int lineno;
	bool prefix_errors;
	bool interactive;
	char notice_pfx[512];

	FILE *qout;              /* \o target; NULL: stdout */
	bool qout_pipe;          /* \o |command */
	struct Var { char *name, *value; } *vars;   /* \set / -v, owned */
	int nvars;
	char *field_sep;         /* \f / \pset fieldsep, owned */
	char *null_display;      /* \pset null, owned */

	bool quit;               /* \q seen */
	bool failed;             /* an error in script mode: stop */
	bool had_error;          /* an error in script mode (sticky) */
	int include_depth;
};

/*
 * Ctrl-C in the interactive shell (psql's handle_sigint): while a statement
 * runs it sets cancel_pressed, which the output sink turns into a cancel
 * request (the engine stops with 57014); at the prompt it jumps back to a
 * fresh prompt and drops the statement being typed.
 */
static volatile int cancel_pressed;
static volatile sig_atomic_t in_readline;
static sigjmp_buf prompt_jmp;

static void
on_sigint(int sig)
{
	(void)sig;
	cancel_pressed = 1;
	if (in_readline) {
		in_readline = 0;
		siglongjmp(prompt_jmp, 1);
	}
}

/* ---- query buffer ----------------------------------------------------------- */

static void
buf_add(Shell *sh, const char *p, size_t n)
{
	if (sh->len + n + 1 > sh->cap) {
		size_t ncap = sh->cap ? sh->cap : 256;
		while (ncap < sh->len + n + 1)
			ncap *= 2;
		sh->buf = xrealloc(sh->buf, ncap);
		sh->cap = ncap;
	}
	memcpy(sh->buf + sh->len, p, n);
	sh->len += n;
	sh->buf[sh->len] = '\0';
}

static void
buf_reset(Shell *sh)
{
	sh->len = 0;
	if (sh->buf)
		sh->buf[0] = '\0';
	sh->has_token = false;
	sh->paren_depth = 0;
}

/* ---- running SQL -------------------------------------------------------------- */

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* psql's PrintTiming. */
static void
print_timing(double ms)
{
	double secs;
	int days, hours, mins;

	if (ms < 1000.0) {
		printf("Time: %.3f ms\n", ms);
		return;
	}
	secs = ms / 1000.0;
	mins = (int)(secs / 60);
	secs -= mins * 60.0;
	if (mins < 60) {
		printf("Time: %.3f ms (%02d:%06.3f)\n", ms, mins, secs);
		return;
	}
	hours = mins / 60;
	mins %= 60;
	if (hours < 24) {
		printf("Time: %.3f ms (%02d:%02d:%06.3f)\n", ms, hours, mins, secs);
		return;
	}
	days = hours / 24;
	hours %= 24;
	printf("Time: %.3f ms (%d d %02d:%02d:%06.3f)\n", ms, days, hours, mins, secs);
}

static const char *
error_prefix(Shell *sh, char *buf, size_t n)
{
	if (!sh->prefix_errors)
		return "";
	snprintf(buf, n, "floe:%s:%d: ", sh->source, sh->lineno);
	return buf;
}

static void
report(Shell *sh, const floe_error *err, const char *query)
{
	char pfx[512];

	fflush(stdout);
	output_print_error(stderr, err, "ERROR", query, error_prefix(sh, pfx, sizeof pfx));
	if (sh->opts.echo_errors && query)
		fprintf(stderr, "STATEMENT:  %s\n", query);
	fflush(stderr);
	if (!sh->interactive) {
		sh->had_error = true;
		if (!sh->opts.continue_on_error)
			sh->failed = true;
	}
}

/* A failure of a meta-command: message only. */
static void
meta_error(Shell *sh, const char *fmt, const char *arg)
{
	char pfx[512];

	fflush(stdout);
	fputs(error_prefix(sh, pfx, sizeof pfx), stderr);
	if (sh->prefix_errors)
		fputs("error: ", stderr);   /* psql:FILE:LINE: error: ... */
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fflush(stderr);
	if (!sh->interactive) {
		sh->had_error = true;
		if (!sh->opts.continue_on_error)
			sh->failed = true;
	}
}

/*
 * statement_timeout in the shell: a thread that waits for the statement's
 * deadline and then raises the cancel flag (the server's watchdog does the
 * same for its connections); the statement fails with 57014.
 */
typedef struct Timeout {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct timespec deadline;  /* CLOCK_MONOTONIC */
	bool done, fired;
} Timeout;

static void *
timeout_main(void *arg)
{
	Timeout *t = arg;
	pthread_mutex_lock(&t->mu);
	while (!t->done)
		if (pthread_cond_timedwait(&t->cv, &t->mu, &t->deadline) == ETIMEDOUT && !t->done) {
			t->fired = true;
			cancel_pressed = 1;
			break;
		}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

static bool
timeout_start(Timeout *t, pthread_t *th, int64_t us)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&t->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->cv, &ca);
	pthread_condattr_destroy(&ca);
	clock_gettime(CLOCK_MONOTONIC, &t->deadline);
	t->deadline.tv_sec += (time_t)(us / 1000000);
	t->deadline.tv_nsec += (long)(us % 1000000) * 1000;
	if (t->deadline.tv_nsec >= 1000000000) {
		t->deadline.tv_sec++;
		t->deadline.tv_nsec -= 1000000000;
	}
	t->done = t->fired = false;
	if (pthread_create(th, NULL, timeout_main, t) != 0) {
		pthread_cond_destroy(&t->cv);
		pthread_mutex_destroy(&t->mu);
		return false;
	}
	return true;
}

/* Stop the timer; true if it fired. */
static bool
timeout_stop(Timeout *t, pthread_t th)
{
	pthread_mutex_lock(&t->mu);
	t->done = true;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(th, NULL);
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
	return t->fired;
}

static void
run_sql(Shell *sh, const char *sql)
{
	floe_error err;
	double t0 = now_ms();
	int rc;
	int64_t tmo = engine_duration_us(session_setting(sh->session, "statement_timeout"));
	Timeout tm;
	pthread_t tth;
	bool timed = false;

	floe_error_clear(&err);
	cancel_pressed = 0;
	if (sh->prefix_errors) {
		snprintf(sh->notice_pfx, sizeof sh->notice_pfx, "floe:%s:%d: ", sh->source, sh->lineno);
		sh->os.notice_prefix = sh->notice_pfx;
	} else
		sh->os.notice_prefix = NULL;
	sh->os.copy_lineno = &sh->lineno;
	sh->os.copy_prompt = sh->interactive && isatty(fileno(sh->os.copy_in ? sh->os.copy_in : stdin));
	session_set_cancel_flag(sh->session, &cancel_pressed);
	if (tmo > 0)
		timed = timeout_start(&tm, &tth, tmo);
	rc = session_exec(sh->session, sql, &sh->os.sink, &err);
	if (timed && timeout_stop(&tm, tth) && rc != FLOE_OK &&
	    floe_error_is(&err, ERRCODE_QUERY_CANCELED))
		floe_errorf(&err, ERRCODE_QUERY_CANCELED, "canceling statement due to statement timeout");
	output_copy_finish(&sh->os);
	if (rc != FLOE_OK) {
		output_sink_reset(&sh->os);
		if (!err.message[0])
			floe_errorf(&err, ERRCODE_INTERNAL_ERROR, "statement failed");
		report(sh, &err, sql);
	}
	if (sh->opts.timing)
		print_timing(now_ms() - t0);
	fflush(stdout);
}

/* Send the buffer (if it holds a statement) and clear it. */
static void
flush_statement(Shell *sh)
{
	if (sh->has_token && sh->len > 0)
		run_sql(sh, sh->buf);
	buf_reset(sh);
}

/* ---- variables (\set, -v, :name interpolation) ------------------------------------ */

static const char *
var_get(Shell *sh, const char *name, size_t n)
{
	for (int i = 0; i < sh->nvars; i++)
		if (strlen(sh->vars[i].name) == n && strncmp(sh->vars[i].name, name, n) == 0)
			return sh->vars[i].value;
	return NULL;
}

int
shell_set_var(Shell *sh, const char *name, const char *value)
{
	int i;

	if (strcmp(name, "ON_ERROR_STOP") == 0) {
		if (strcasecmp(value, "on") == 0 || strcasecmp(value, "true") == 0 ||
		    strcmp(value, "1") == 0)
			sh->opts.continue_on_error = false;
		else if (strcasecmp(value, "off") == 0 || strcasecmp(value, "false") == 0 ||
			 strcmp(value, "0") == 0)
			sh->opts.continue_on_error = true;
		else {
			fflush(stdout);
			fprintf(stderr, "unrecognized value \"%s\" for \"ON_ERROR_STOP\": Boolean expected\n",
				value);
			return FLOE_ERR;
		}
	}
	for (i = 0; i < sh->nvars; i++)
		if (strcmp(sh->vars[i].name, name) == 0)
			break;
	if (i == sh->nvars) {
		sh->vars = xrealloc(sh->vars, sizeof *sh->vars * (size_t)(sh->nvars + 1));
		sh->vars[i].name = xstrdup(name);
		sh->vars[i].value = NULL;
		sh->nvars++;
	}
	free(sh->vars[i].value);
	sh->vars[i].value = xstrdup(value);
	return FLOE_OK;
}

bool
shell_stops_on_error(const Shell *sh)
{
	return !sh->opts.continue_on_error;
}

static void
var_unset(Shell *sh, const char *name)
{
	for (int i = 0; i < sh->nvars; i++)
		if (strcmp(sh->vars[i].name, name) == 0) {
			if (strcmp(name, "ON_ERROR_STOP") == 0)
				sh->opts.continue_on_error = false;
			free(sh->vars[i].name);
			free(sh->vars[i].value);
			sh->vars[i] = sh->vars[--sh->nvars];
			return;
		}
}

/* Append value as a literal (q == '\'') or identifier (q == '"'), quoted as
 * libpq's PQescapeLiteral / PQescapeIdentifier do, or as is (q == 0). */
static void
add_quoted(Shell *sh, const char *v, char q)
{
	if (!q) {
		buf_add(sh, v, strlen(v));
		return;
	}
	if (q == '\'' && strchr(v, '\\'))
		buf_add(sh, " E", 2);
	buf_add(sh, &q, 1);
	for (; *v; v++) {
		if (*v == q || (q == '\'' && *v == '\\'))
			buf_add(sh, v, 1);
		buf_add(sh, v, 1);
	}
	buf_add(sh, &q, 1);
}

/* At line[i] == ':' outside quotes: :name, :'name' or :"name" of a set
 * variable?  Returns the bytes consumed (0: not a variable reference). */
static size_t
interpolate(Shell *sh, const char *line, size_t i)
{
	size_t j = i + 1, k;
	char q = 0;
	const char *v;

	if (line[j] == ':' || (i > 0 && line[i - 1] == ':'))
		return 0;   /* the :: cast */
	if (line[j] == '\'' || line[j] == '"')
		q = line[j++];
	for (k = j; isalnum((unsigned char)line[k]) || line[k] == '_' ||
		    (unsigned char)line[k] >= 0x80; k++)
		;
	if (k == j || (q && line[k] != q))
		return 0;
	v = var_get(sh, line + j, k - j);
	if (!v)
		return 0;
	add_quoted(sh, v, q);
	sh->has_token = true;
	return k - i + (q ? 1 : 0);
}

/* ---- meta-commands ---------------------------------------------------------------- */

#define MAX_ARGS 16

/* Split a meta-command's argument text: whitespace separated; "quoted"
 * keeps case, 'quoted' keeps text; unquoted words are lowercased when
 * lower (psql downcases \d patterns). */
static int
split_args(Arena *a, const char *s, char **argv, bool lower)
{
	int n = 0;

	while (*s && n < MAX_ARGS) {
		char *out, *o;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		out = o = arena_alloc(a, strlen(s) + 1);
		while (*s && !isspace((unsigned char)*s)) {
			if (*s == '"' || *s == '\'') {
				char q = *s++;
				while (*s && *s != q)
					*o++ = *s++;
				if (*s)
					s++;
			} else {
				*o++ = lower ? (char)tolower((unsigned char)*s) : *s;
				s++;
			}
		}
		*o = '\0';
		argv[n++] = out;
	}
	return n;
}

static int
cmp_table(const void *x, const void *y)
{
	const TableInfo *a = x, *b = y;
	int c = strcmp(a->schema ? a->schema : "", b->schema ? b->schema : "");
	return c ? c : strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* psql patterns: * and ? wildcards; "schema.name" or just "name". */
static bool
has_wild(const char *p)
{
	return strpbrk(p, "*?") != NULL;
}

static bool
table_matches(const TableInfo *t, const char *pattern)
{
	const char *dot = strrchr(pattern, '.');
	char sch[256];

	if (!pattern)
		return true;
	if (!dot)
		return fnmatch(pattern, t->name ? t->name : "", 0) == 0;
	snprintf(sch, sizeof sch, "%.*s", (int)(dot - pattern), pattern);
	return fnmatch(sch, t->schema ? t->schema : "", 0) == 0 &&
	       fnmatch(dot + 1, t->name ? t->name : "", 0) == 0;
}

/* \d, \dt [PATTERN]: list tables. */
static void
list_relations(Shell *sh, Arena *a, const char *pattern)
{
	TableInfo *tables = NULL;
	int n = 0;
	floe_error err;
	static const char *hdr[] = {"Schema", "Name", "Type"};
	const char **cells;

	floe_error_clear(&err);
	if (engine_list_tables(sh->session, a, &tables, &n, &err) != FLOE_OK) {
		report(sh, &err, NULL);
		return;
	}
	if (pattern) {
		int k = 0;
		for (int i = 0; i < n; i++)
			if (table_matches(&tables[i], pattern))
				tables[k++] = tables[i];
		n = k;
	}
	if (n == 0) {
		/* like psql: a message, not an error */
		fflush(stdout);
		if (!sh->opts.print.quiet) {
			if (pattern)
				fprintf(stderr, "Did not find any relation named \"%s\".\n", pattern);
			else
				fprintf(stderr, "Did not find any relations.\n");
		}
		return;
	}
	qsort(tables, (size_t)n, sizeof *tables, cmp_table);
	cells = ARENA_ARRAY(a, const char *, n * 3);
	for (int i = 0; i < n; i++) {
		cells[i * 3] = tables[i].schema ? tables[i].schema : "";
		cells[i * 3 + 1] = tables[i].name ? tables[i].name : "";
		cells[i * 3 + 2] = "table";
	}
	PrintTable t = {
		.title = "List of relations",
		.ncols = 3,
		.headers = hdr,
		.nrows = (uint64_t)n,
		.cells = cells,
		.footer = true,
	};
	output_print_table(sh->os.out, &t, &sh->opts.print);
}

/* \dn: schemas that hold tables. */
static void
list_schemas(Shell *sh, Arena *a)
{
	TableInfo *tables = NULL;
	int n = 0, k = 0;
	floe_error err;
	static const char *hdr[] = {"Name"};
	const char **names;

	floe_error_clear(&err);
	if (engine_list_tables(sh->session, a, &tables, &n, &err) != FLOE_OK) {
		report(sh, &err, NULL);
		return;
	}
	names = ARENA_ARRAY(a, const char *, n + 1);
	for (int i = 0; i < n; i++)
		names[i] = tables[i].schema ? tables[i].schema : "public";
	names[n] = "public";
	qsort(names, (size_t)n + 1, sizeof *names, cmp_str);
	for (int i = 0; i <= n; i++)
		if (k == 0 || strcmp(names[k - 1], names[i]) != 0)
			names[k++] = names[i];
	PrintTable t = {
		.title = "List of schemas",
		.ncols = 1,
		.headers = hdr,
		.nrows = (uint64_t)k,
		.cells = names,
		.footer = true,
	};
	output_print_table(sh->os.out, &t, &sh->opts.print);
}

/* \d NAME: columns of one table. */
static void
describe(Shell *sh, Arena *a, const char *name)
{
	ColumnInfo *cols = NULL;
	int n = 0;
	floe_error err;
	static const char *hdr[] = {"Column", "Type", "Nullable", "Default"};
	const char **cells;
	const char *schema = NULL, *rel = name, *dot = strchr(name, '.');

	floe_error_clear(&err);
	if (engine_describe_table(sh->session, name, a, &cols, &n, &err) != FLOE_OK) {
		if (floe_error_is(&err, ERRCODE_UNDEFINED_TABLE) ||
		    floe_error_is(&err, ERRCODE_INVALID_SCHEMA_NAME))
			meta_error(sh, "Did not find any relation named \"%s\".", name);
		else
			report(sh, &err, NULL);
		return;
	}
	if (dot) {
		schema = arena_strndup(a, name, (size_t)(dot - name));
		rel = dot + 1;
	} else {
		TableInfo *tables = NULL;
		int nt = 0;
		floe_error e2;
		floe_error_clear(&e2);
		if (engine_list_tables(sh->session, a, &tables, &nt, &e2) == FLOE_OK)
			for (int i = 0; i < nt; i++)
				if (tables[i].name && strcmp(tables[i].name, name) == 0) {
					schema = tables[i].schema;
					break;
				}
		if (!schema)
			schema = "public";
	}
	cells = ARENA_ARRAY(a, const char *, n * 4 + 1);
	for (int i = 0; i < n; i++) {
		char tb[128];
		cells[i * 4] = cols[i].name ? cols[i].name : "";
		cells[i * 4 + 1] = arena_strdup(a, type_name(cols[i].type, tb, sizeof tb));
		cells[i * 4 + 2] = cols[i].not_null ? "not null" : "";
		cells[i * 4 + 3] = cols[i].default_sql ? cols[i].default_sql : "";
	}
	PrintTable t = {
		.title = arena_sprintf(a, "Table \"%s.%s\"", schema, rel),
		.ncols = 4,
		.headers = hdr,
		.nrows = (uint64_t)n,
		.cells = cells,
		.footer = false,
	};
	output_print_table(sh->os.out, &t, &sh->opts.print);
}

/* \d PATTERN: describe every matching table. */
static void
describe_pattern(Shell *sh, Arena *a, const char *pattern)
{
	TableInfo *tables = NULL;
	int n = 0, found = 0;
	floe_error err;

	if (!has_wild(pattern)) {
		describe(sh, a, pattern);
		return;
	}
	floe_error_clear(&err);
	if (engine_list_tables(sh->session, a, &tables, &n, &err) != FLOE_OK) {
		report(sh, &err, NULL);
		return;
	}
	qsort(tables, (size_t)n, sizeof *tables, cmp_table);
	for (int i = 0; i < n && !sh->failed; i++)
		if (table_matches(&tables[i], pattern)) {
			describe(sh, a, arena_sprintf(a, "%s.%s", tables[i].schema, tables[i].name));
			found++;
		}
	if (!found)
		meta_error(sh, "Did not find any relation named \"%s\".", pattern);
}

static const char help_text[] =
	"General\n"
	"  \\q                     quit floe\n"
	"  \\?                     show this help\n"
	"\n"
	"Query Buffer\n"
	"  \\g                     execute the query buffer\n"
	"  \\p                     show the contents of the query buffer\n"
	"  \\r                     reset (clear) the query buffer\n"
	"\n"
	"Variables\n"
	"  \\set [NAME [VALUE]]    set a variable, or list them; use as :NAME, :'NAME', :\"NAME\"\n"
	"  \\unset NAME            unset a variable\n"
	"\n"
	"Input/Output\n"
	"  \\echo [STRING]         write string to standard output\n"
	"  \\i FILE                execute commands from file\n"
	"  \\o [FILE | |COMMAND]   send query results to a file or pipe; \\o alone: back to stdout\n"
	"\n"
	"Informational\n"
	"  \\d                     list tables\n"
	"  \\d NAME                describe table (NAME may use * and ? wildcards)\n"
	"  \\dt [PATTERN]          list tables\n"
	"  \\dn                    list schemas\n"
	"\n"
	"Formatting\n"
	"  \\a                     toggle between unaligned and aligned output\n"
	"  \\f [STRING]            show or set the field separator for unaligned output\n"
	"  \\pset [NAME [VALUE]]   set an output option: format (aligned|unaligned|csv),\n"
	"                         tuples_only, fieldsep, null, footer, expanded\n"
	"  \\t [on|off]            rows only\n"
	"  \\x [on|off|auto]       toggle expanded output (auto: when wider than the terminal)\n"
	"  \\timing [on|off]       toggle timing of commands\n"
	"\n"
	"Statements end with a semicolon.  See docs/shell.md and docs/sql.md.\n";

/* Parse an on/off argument; toggles when absent. */
static bool
onoff(Shell *sh, const char *cmd, const char *arg, bool cur, bool *out)
{
	if (!arg) {
		*out = !cur;
		return true;
	}
	if (strcasecmp(arg, "on") == 0 || strcasecmp(arg, "true") == 0 || strcmp(arg, "1") == 0) {
		*out = true;
		return true;
	}
	if (strcasecmp(arg, "off") == 0 || strcasecmp(arg, "false") == 0 || strcmp(arg, "0") == 0) {
		*out = false;
		return true;
	}
	{
		char msg[256];
		snprintf(msg, sizeof msg, "unrecognized value \"%s\" for \"\\%s\": Boolean expected",
			 arg, cmd);
		meta_error(sh, "%s", msg);
	}
	return false;
}

static void
set_field_sep(Shell *sh, const char *v)
{
	free(sh->field_sep);
	sh->field_sep = xstrdup(v);
	sh->opts.print.field_sep = sh->field_sep;
	if (!sh->opts.print.quiet)
		printf("Field separator is \"%s\".\n", v);
}

static const char *
format_name(const PrintOptions *po)
{
	return po->csv ? "csv" : po->unaligned ? "unaligned" : "aligned";
}

static void
say_format(Shell *sh)
{
	if (!sh->opts.print.quiet)
		printf("Output format is %s.\n", format_name(&sh->opts.print));
}

/* \pset NAME [VALUE]: the printing options floe has (psql's names). */
static void
pset(Shell *sh, int argc, char **argv)
{
	PrintOptions *po = &sh->opts.print;
	const char *name = argc > 0 ? argv[0] : NULL, *val = argc > 1 ? argv[1] : NULL;
	bool v;

	if (!name) {
		printf("Output format is %s.\n", format_name(po));
		printf("Tuples only is %s.\n", po->tuples_only ? "on" : "off");
		printf("Field separator is \"%s\".\n", po->field_sep ? po->field_sep : "|");
		printf("Null display is \"%s\".\n", po->null_display ? po->null_display : "");
		printf("Default footer is %s.\n", po->no_footer ? "off" : "on");
		printf("Expanded display is %s.\n", po->expanded ? "on" : "off");
		return;
	}
	if (strcmp(name, "format") == 0) {
		if (val && strcmp(val, "aligned") == 0)
			po->unaligned = po->csv = false;
		else if (val && strcmp(val, "unaligned") == 0) {
			po->unaligned = true;
			po->csv = false;
		} else if (val && strcmp(val, "csv") == 0)
			po->csv = true;
		else if (val) {
			meta_error(sh, "\\pset: allowed formats are %s", "aligned, csv, unaligned");
			return;
		}
		say_format(sh);
	} else if (strcmp(name, "tuples_only") == 0) {
		if (onoff(sh, "pset", val, po->tuples_only, &v)) {
			po->tuples_only = v;
			if (!po->quiet)
				printf("Tuples only is %s.\n", v ? "on" : "off");
		}
	} else if (strcmp(name, "expanded") == 0 || strcmp(name, "x") == 0) {
		if (onoff(sh, "pset", val, po->expanded, &v)) {
			po->expanded = v;
			if (!po->quiet)
				printf("Expanded display is %s.\n", v ? "on" : "off");
		}
	} else if (strcmp(name, "footer") == 0) {
		if (onoff(sh, "pset", val, !po->no_footer, &v)) {
			po->no_footer = !v;
			if (!po->quiet)
				printf("Default footer is %s.\n", v ? "on" : "off");
		}
	} else if (strcmp(name, "fieldsep") == 0) {
		if (val)
			set_field_sep(sh, val);
		else if (!po->quiet)
			printf("Field separator is \"%s\".\n", po->field_sep ? po->field_sep : "|");
	} else if (strcmp(name, "null") == 0) {
		if (val) {
			free(sh->null_display);
			sh->null_display = xstrdup(val);
			po->null_display = sh->null_display;
		}
		if (!po->quiet)
			printf("Null display is \"%s\".\n", po->null_display ? po->null_display : "");
	} else
		meta_error(sh, "\\pset: unknown option: %s", name);
}

/* \o [FILE | |COMMAND]: send query results to a file or a pipe. */
static void
close_qout(Shell *sh)
{
	if (sh->qout) {
		if (sh->qout_pipe) {
			pclose(sh->qout);
			signal(SIGPIPE, SIG_DFL);
		} else
			fclose(sh->qout);
	}
	sh->qout = NULL;
	sh->qout_pipe = false;
	sh->os.out = stdout;
}

static void
set_qout(Shell *sh, const char *rest)
{
	FILE *f;

	while (isspace((unsigned char)*rest))
		rest++;
	fflush(stdout);
	if (!*rest) {
		close_qout(sh);
		return;
	}
	if (*rest == '|') {
		fflush(NULL);
		signal(SIGPIPE, SIG_IGN);   /* a reader that quits early is not fatal */
		f = popen(rest + 1, "w");
	} else {
		char path[4096];
		size_t n = strcspn(rest, " \t");
		snprintf(path, sizeof path, "%.*s", (int)n, rest);
		f = fopen(path, "w");
	}
	if (!f) {
		if (*rest == '|' && !sh->qout_pipe)
			signal(SIGPIPE, SIG_DFL);
		meta_error(sh, "%s: could not open", rest);
		return;
	}
	close_qout(sh);
	sh->qout = f;
	sh->qout_pipe = *rest == '|';
	sh->os.out = f;
}

static int run_lines(Shell *sh, FILE *f);

/*
 * \copy ... FROM|TO file|stdin|stdout|pstdin|pstdout [options]: psql's
 * client-side COPY.  The statement goes to the engine as COPY ... FROM STDIN
 * / TO STDOUT with the data read from / written to the client's file.
 */
static void
copy_meta(Shell *sh, Arena *a, const char *args)
{
	const char *p = args, *kw = NULL, *fstart, *fend;
	int depth = 0;
	bool from = false;
	char *fname, *sql;
	FILE *f = NULL, *saved_in = sh->os.copy_in;
	size_t k;

	while (*p && isspace((unsigned char)*p))
		p++;
	if (!*p) {
		meta_error(sh, "\\copy: arguments required%s", "");
		return;
	}
	/* the FROM / TO keyword at top level, outside quotes */
	for (const char *q = p; *q; q++) {
		if (*q == '\'' || *q == '"') {
			char c = *q++;
			while (*q && *q != c)
				q++;
			if (!*q)
				break;
			continue;
		}
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
		else if (depth == 0 && (q == p || isspace((unsigned char)q[-1]) || q[-1] == ')')) {
			if (!strncasecmp(q, "from", 4) && (isspace((unsigned char)q[4]) || !q[4])) {
				kw = q;
				from = true;
				break;
			}
			if (!strncasecmp(q, "to", 2) && (isspace((unsigned char)q[2]) || !q[2])) {
				kw = q;
				break;
			}
		}
	}
	if (!kw) {
		meta_error(sh, "\\copy: parse error at \"%s\"", p);
		return;
	}
	fstart = kw + (from ? 4 : 2);
	while (*fstart && isspace((unsigned char)*fstart))
		fstart++;
	if (*fstart == '\'') {
		char *o = fname = arena_alloc(a, strlen(fstart) + 1);
		fend = fstart + 1;
		while (*fend) {
			if (*fend == '\'' && fend[1] == '\'') {
				*o++ = '\'';
				fend += 2;
			} else if (*fend == '\'') {
				fend++;
				break;
			} else {
				*o++ = *fend++;
			}
		}
		*o = 0;
	} else {
		fend = fstart;
		while (*fend && !isspace((unsigned char)*fend))
			fend++;
		fname = arena_strndup(a, fstart, (size_t)(fend - fstart));
	}
	if (!fname[0]) {
		meta_error(sh, "\\copy: parse error at \"%s\"", "end of line");
		return;
	}
	sql = arena_sprintf(a, "COPY %.*s%s %s", (int)(kw - p), p, from ? "FROM STDIN" : "TO STDOUT", fend);
	k = strlen(sql);
	while (k > 0 && (isspace((unsigned char)sql[k - 1]) || sql[k - 1] == ';'))
		sql[--k] = 0;
	if (!strcasecmp(fname, "stdin") || !strcasecmp(fname, "pstdin")) {
		sh->os.copy_in = stdin;
	} else if (!strcasecmp(fname, "stdout") || !strcasecmp(fname, "pstdout")) {
		/* data to the query output, as COPY TO STDOUT */
	} else if (!(f = fopen(fname, from ? "r" : "w"))) {
		meta_error(sh, "%s: No such file or directory", fname);
		return;
	} else if (from) {
		sh->os.copy_in = f;
	} else {
		sh->os.copy_out_file = f;
	}
	run_sql(sh, sql);
	sh->os.copy_in = saved_in;
	sh->os.copy_out_file = NULL;
	if (f)
		fclose(f);
}

/* Run one meta-command; text is what follows the backslash. */
static void
meta_command(Shell *sh, const char *text)
{
	Arena *a = arena_new(0);
	char cmd[64];
	size_t n = 0;
	char *argv[MAX_ARGS];
	int argc;
	bool v;

	while (text[n] && !isspace((unsigned char)text[n]) && n < sizeof cmd - 1) {
		cmd[n] = text[n];
		n++;
	}
	cmd[n] = '\0';
	argc = split_args(a, text + n, argv,
			  cmd[0] == 'd');  /* only \d patterns fold to lower case */

	if (strcmp(cmd, "q") == 0 || strcmp(cmd, "quit") == 0) {
		sh->quit = true;
	} else if (strcmp(cmd, "?") == 0) {
		fputs(help_text, stdout);
	} else if (strcmp(cmd, "d") == 0 || strcmp(cmd, "dt") == 0 ||
		   strcmp(cmd, "d+") == 0 || strcmp(cmd, "dt+") == 0) {
		if (argc == 0)
			list_relations(sh, a, NULL);
		else if (cmd[1] == 't')
			list_relations(sh, a, argv[0]);
		else
			for (int i = 0; i < argc; i++)
				describe_pattern(sh, a, argv[i]);
	} else if (strcmp(cmd, "dn") == 0 || strcmp(cmd, "dn+") == 0) {
		list_schemas(sh, a);
	} else if (strcmp(cmd, "timing") == 0) {
		if (onoff(sh, cmd, argc ? argv[0] : NULL, sh->opts.timing, &v)) {
			sh->opts.timing = v;
			if (!sh->opts.print.quiet)
				printf("Timing is %s.\n", v ? "on" : "off");
		}
	} else if (strcmp(cmd, "x") == 0) {
		if (argc && strcasecmp(argv[0], "auto") == 0) {
			sh->opts.print.expanded = false;
			sh->opts.print.expanded_auto = true;
			if (!sh->opts.print.quiet)
				printf("Expanded display is used automatically.\n");
		} else if (onoff(sh, cmd, argc ? argv[0] : NULL,
				 sh->opts.print.expanded || sh->opts.print.expanded_auto, &v)) {
			sh->opts.print.expanded = v;
			sh->opts.print.expanded_auto = false;
			if (!sh->opts.print.quiet)
				printf("Expanded display is %s.\n", v ? "on" : "off");
		}
	} else if (strcmp(cmd, "set") == 0) {
		if (argc == 0) {
			const char **names = ARENA_ARRAY(a, const char *, sh->nvars + 1);
			for (int i = 0; i < sh->nvars; i++)
				names[i] = sh->vars[i].name;
			qsort(names, (size_t)sh->nvars, sizeof *names, cmp_str);
			for (int i = 0; i < sh->nvars; i++)
				printf("%s = '%s'\n", names[i], var_get(sh, names[i], strlen(names[i])));
		} else {
			size_t len = 1;
			char *val;
			for (int i = 1; i < argc; i++)
				len += strlen(argv[i]);
			val = arena_alloc(a, len);
			val[0] = '\0';
			for (int i = 1; i < argc; i++)
				strcat(val, argv[i]);   /* psql joins the words without spaces */
			if (shell_set_var(sh, argv[0], val) != FLOE_OK && !sh->interactive) {
				sh->had_error = true;
				if (!sh->opts.continue_on_error)
					sh->failed = true;
			}
		}
	} else if (strcmp(cmd, "unset") == 0) {
		if (argc == 0)
			meta_error(sh, "\\%s: missing required argument", cmd);
		else
			var_unset(sh, argv[0]);
	} else if (strcmp(cmd, "pset") == 0) {
		pset(sh, argc, argv);
	} else if (strcmp(cmd, "a") == 0) {
		sh->opts.print.unaligned = sh->opts.print.csv ? false : !sh->opts.print.unaligned;
		sh->opts.print.csv = false;
		say_format(sh);
	} else if (strcmp(cmd, "t") == 0) {
		if (onoff(sh, cmd, argc ? argv[0] : NULL, sh->opts.print.tuples_only, &v)) {
			sh->opts.print.tuples_only = v;
			if (!sh->opts.print.quiet)
				printf("Tuples only is %s.\n", v ? "on" : "off");
		}
	} else if (strcmp(cmd, "f") == 0) {
		if (argc)
			set_field_sep(sh, argv[0]);
		else if (!sh->opts.print.quiet)
			printf("Field separator is \"%s\".\n", sh->opts.print.field_sep);
	} else if (strcmp(cmd, "o") == 0 || strcmp(cmd, "out") == 0) {
		set_qout(sh, text + n);
	} else if (strcmp(cmd, "g") == 0) {
		flush_statement(sh);
	} else if (strcmp(cmd, "p") == 0) {
		if (sh->len)
			printf("%s\n", sh->buf);
		else
			printf("Query buffer is empty.\n");
	} else if (strcmp(cmd, "r") == 0) {
		buf_reset(sh);
		sh->mode = LX_NORMAL;
		if (sh->interactive)
			printf("Query buffer reset (cleared).\n");
	} else if (strcmp(cmd, "copy") == 0) {
		copy_meta(sh, a, text + n);
	} else if (strcmp(cmd, "echo") == 0) {
		for (int i = 0; i < argc; i++)
			printf("%s%s", i ? " " : "", argv[i]);
		putchar('\n');
	} else if (strcmp(cmd, "i") == 0 || strcmp(cmd, "include") == 0) {
		if (argc == 0)
			meta_error(sh, "\\%s: missing required argument", cmd);
		else if (sh->include_depth >= 16)
			meta_error(sh, "%s: too many nested \\i", argv[0]);
		else {
			FILE *f = fopen(argv[0], "r");
			if (!f)
				meta_error(sh, "%s: No such file or directory", argv[0]);
			else {
				/* the file runs with its own query buffer and lexer state */
				const char *osrc = sh->source;
				int oline = sh->lineno;
				bool opfx = sh->prefix_errors;
				char *obuf = sh->buf;
				size_t olen = sh->len, ocap = sh->cap;
				bool otok = sh->has_token;
				LexMode omode = sh->mode;
				int odepth = sh->paren_depth, ocomment = sh->comment_depth;
				char otag[sizeof sh->dollar_tag];

				memcpy(otag, sh->dollar_tag, sizeof otag);
				sh->buf = NULL;
				sh->len = sh->cap = 0;
				buf_reset(sh);
				sh->mode = LX_NORMAL;
				sh->source = argv[0];
				sh->lineno = 0;
				sh->prefix_errors = true;
				sh->include_depth++;
				run_lines(sh, f);
				sh->include_depth--;
				free(sh->buf);
				sh->buf = obuf;
				sh->len = olen;
				sh->cap = ocap;
				sh->has_token = otok;
				sh->mode = omode;
				sh->paren_depth = odepth;
				sh->comment_depth = ocomment;
				memcpy(sh->dollar_tag, otag, sizeof otag);
				sh->source = osrc;
				sh->lineno = oline;
				sh->prefix_errors = opfx;
				fclose(f);
			}
		}
	} else {
		char msg[128];
		snprintf(msg, sizeof msg, "invalid command \\%s", cmd);
		meta_error(sh, sh->interactive ? "%s\nTry \\? for help." : "%s", msg);
	}
	fflush(stdout);
	arena_free(a);
}

/* ---- the lexer --------------------------------------------------------------------- */

static bool
ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* If line[i] == '$' opens a dollar quote, return the delimiter length. */
static size_t
dollar_open(const char *line, size_t i)
{
	size_t j = i + 1;

	if (i > 0 && ident_char(line[i - 1]))
		return 0;
	if (line[j] == '$')
		return 2;
	if (!(isalpha((unsigned char)line[j]) || line[j] == '_' || (unsigned char)line[j] >= 0x80))
		return 0;
	while (line[j] && line[j] != '$') {
		if (!(isalnum((unsigned char)line[j]) || line[j] == '_' ||
		      (unsigned char)line[j] >= 0x80))
			return 0;
		j++;
	}
	if (line[j] != '$')
		return 0;
	return j - i + 1;
}

/* Feed one input line (without its newline). */
static void
feed_line(Shell *sh, const char *line)
{
	size_t i = 0, n = strlen(line);

	while (i < n && !sh->quit && !sh->failed) {
		char c = line[i];

		switch (sh->mode) {
		case LX_NORMAL:
			if (c == ':' && sh->nvars > 0) {
				size_t used = interpolate(sh, line, i);
				if (used) {
					i += used;
					continue;
				}
			}
			if (c == '-' && line[i + 1] == '-') {
				if (sh->len > 0)
					buf_add(sh, line + i, n - i);
				i = n;
				continue;
			}
			if (c == '/' && line[i + 1] == '*') {
				sh->mode = LX_BLOCK;
				sh->comment_depth = 1;
				buf_add(sh, line + i, 2);
				i += 2;
				continue;
			}
			if (c == '\\') {
				meta_command(sh, line + i + 1);
				i = n;
				continue;
			}
			if (c == ';' && sh->paren_depth == 0) {
				buf_add(sh, ";", 1);   /* psql sends the ; too */
				flush_statement(sh);
				i++;
				continue;
			}
			if (isspace((unsigned char)c) && sh->len == 0) {
				i++;
				continue;
			}
			if (c == '\'') {
				bool e = i > 0 && (line[i - 1] == 'E' || line[i - 1] == 'e') &&
					 (i == 1 || !ident_char(line[i - 2]));
				sh->mode = e ? LX_ESTRING : LX_SQUOTE;
			} else if (c == '"') {
				sh->mode = LX_DQUOTE;
			} else if (c == '$') {
				size_t d = dollar_open(line, i);
				if (d > 0 && d < sizeof sh->dollar_tag) {
					memcpy(sh->dollar_tag, line + i, d);
					sh->dollar_tag[d] = '\0';
					sh->mode = LX_DOLLAR;
					buf_add(sh, line + i, d);
					sh->has_token = true;
					i += d;
					continue;
				}
			} else if (c == '(') {
				sh->paren_depth++;
			} else if (c == ')') {
				if (sh->paren_depth > 0)
					sh->paren_depth--;
			}
			if (!isspace((unsigned char)c))
				sh->has_token = true;
			buf_add(sh, &c, 1);
			i++;
			break;
		case LX_SQUOTE:
		case LX_DQUOTE:
			buf_add(sh, &c, 1);
			i++;
			if (c == (sh->mode == LX_SQUOTE ? '\'' : '"'))
				sh->mode = LX_NORMAL;
			break;
		case LX_ESTRING:
			buf_add(sh, &c, 1);
			i++;
			if (c == '\\' && i < n) {
				buf_add(sh, line + i, 1);
				i++;
			} else if (c == '\'')
				sh->mode = LX_NORMAL;
			break;
		case LX_DOLLAR: {
			size_t tl = strlen(sh->dollar_tag);
			if (c == '$' && strncmp(line + i, sh->dollar_tag, tl) == 0) {
				buf_add(sh, line + i, tl);
				i += tl;
				sh->mode = LX_NORMAL;
			} else {
				buf_add(sh, &c, 1);
				i++;
			}
			break;
		}
		case LX_BLOCK:
			if (c == '/' && line[i + 1] == '*') {
				sh->comment_depth++;
				buf_add(sh, line + i, 2);
				i += 2;
			} else if (c == '*' && line[i + 1] == '/') {
				buf_add(sh, line + i, 2);
				i += 2;
				if (--sh->comment_depth == 0)
					sh->mode = LX_NORMAL;
			} else {
				buf_add(sh, &c, 1);
				i++;
			}
			break;
		}
	}
	if (sh->len > 0 && !sh->quit && !sh->failed)
		buf_add(sh, "\n", 1);
}

/* End of a script: run what is left in the buffer. */
static void
finish_input(Shell *sh)
{
	if (!sh->quit && !sh->failed && sh->has_token) {
		/* drop the trailing newline feed_line added */
		while (sh->len > 0 && sh->buf[sh->len - 1] == '\n')
			sh->buf[--sh->len] = '\0';
		run_sql(sh, sh->buf);
	}
	buf_reset(sh);
	sh->mode = LX_NORMAL;
}

static int
run_lines(Shell *sh, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;

	FILE *saved = sh->os.copy_in;

	sh->os.copy_in = f;   /* COPY FROM STDIN data follows in the script */
	while (!sh->quit && !sh->failed && (got = getline(&line, &cap, f)) >= 0) {
		if (got > 0 && line[got - 1] == '\n')
			line[--got] = '\0';
		if (got > 0 && line[got - 1] == '\r')
			line[--got] = '\0';
		sh->lineno++;
		feed_line(sh, line);
	}
	free(line);
	finish_input(sh);
	sh->os.copy_in = saved;
	return sh->failed || sh->had_error ? FLOE_ERR : FLOE_OK;
}

/* ---- entry points ---------------------------------------------------------------------- */

Shell *
shell_new(Session *session, const ShellOptions *opts)
{
	Shell *sh = xcalloc(1, sizeof *sh);

	sh->session = session;
	sh->opts = *opts;
	if (!sh->opts.print.field_sep)
		sh->opts.print.field_sep = "|";
	output_sink_init(&sh->os, stdout, &sh->opts.print);
	sh->os.copy_in = stdin;   /* -c and interactive: COPY data from stdin */
	sh->source = "<stdin>";
	return sh;
}

void
shell_free(Shell *sh)
{
	if (!sh)
		return;
	close_qout(sh);
	for (int i = 0; i < sh->nvars; i++) {
		free(sh->vars[i].name);
		free(sh->vars[i].value);
	}
	free(sh->vars);
	output_sink_dispose(&sh->os);
	free(sh->field_sep);
	free(sh->null_display);
	free(sh->buf);
	free(sh);
}

int
shell_run_string(Shell *sh, const char *text)
{
	const char *p = text;

	sh->interactive = false;
	sh->prefix_errors = false;
	sh->source = "-c";
	sh->lineno = 0;
	while (!sh->quit && !sh->failed) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xmalloc(n + 1);
		memcpy(line, p, n);
		line[n] = '\0';
		sh->lineno++;
		feed_line(sh, line);
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}
	finish_input(sh);
	return sh->failed || sh->had_error ? FLOE_ERR : FLOE_OK;
}

int
shell_run_stream(Shell *sh, FILE *f, const char *name, bool with_prefix)
{
	sh->interactive = false;
	sh->prefix_errors = with_prefix;
	sh->source = name;
	sh->lineno = 0;
	return run_lines(sh, f);
}

static const char *
prompt(Shell *sh)
{
	if (sh->len == 0 && sh->mode == LX_NORMAL)
		return "floe=> ";
	switch (sh->mode) {
	case LX_SQUOTE:
	case LX_ESTRING: return "floe'> ";
	case LX_DQUOTE: return "floe\"> ";
	case LX_DOLLAR: return "floe$> ";
	case LX_BLOCK: return "floe*> ";
	case LX_NORMAL: break;
	}
	return sh->paren_depth > 0 ? "floe(> " : "floe-> ";
}

/* ---- tab completion (interactive) ---------------------------------------------- */

static Shell *completing;        /* the shell whose tables complete */

static const char *const keywords[] = {
	"ALTER", "AND", "AS", "ASC", "BETWEEN", "BIGINT", "BOOLEAN", "BY", "BYTEA",
	"CASE", "CAST", "CHAR", "COALESCE", "COUNT", "CREATE", "DATE", "DEFAULT",
	"DELETE", "DESC", "DISTINCT", "DOUBLE PRECISION", "DROP", "ELSE", "END",
	"EXISTS", "FALSE", "FROM", "GROUP BY", "HAVING", "IF EXISTS", "IF NOT EXISTS",
	"IN", "INSERT INTO", "INTEGER", "INTERVAL", "INTO", "IS", "LIKE", "LIMIT",
	"NOT", "NULL", "NULLS FIRST", "NULLS LAST", "NUMERIC", "OFFSET", "ON", "OR",
	"ORDER BY", "REAL", "SCHEMA", "SELECT", "SET", "SHOW", "SMALLINT", "TABLE",
	"TEXT", "THEN", "TIME", "TIMESTAMP", "TIMESTAMPTZ", "TRUE", "UPDATE",
	"UUID", "VALUES", "VARCHAR", "WHEN", "WHERE", "WITH",
};

static const char *const meta_names[] = {
	"\\?", "\\a", "\\d", "\\dn", "\\dt", "\\echo", "\\f", "\\g", "\\i", "\\o", "\\p",
	"\\pset", "\\q", "\\r", "\\t", "\\timing", "\\x",
};

typedef struct Candidates {
	char **items;
	int n, next;
} Candidates;

static Candidates cands;

static void
cands_free(void)
{
	for (int i = 0; i < cands.n; i++)
		free(cands.items[i]);
	free(cands.items);
	memset(&cands, 0, sizeof cands);
}

static void
cands_add(const char *word, const char *text, bool upper)
{
	size_t n = strlen(text);
	char *w;

	if (strncasecmp(word, text, n) != 0)
		return;
	w = xstrdup(word);
	for (char *p = w; *p; p++)
		*p = upper ? (char)toupper((unsigned char)*p) : (char)tolower((unsigned char)*p);
	cands.items = xrealloc(cands.items, sizeof(char *) * (size_t)(cands.n + 1));
	cands.items[cands.n++] = w;
}

/* readline's generator: state 0 builds the list, then hands out one a call. */
static char *
complete_word(const char *text, int state)
{
	if (state == 0) {
		bool upper = text[0] && isupper((unsigned char)text[0]);
		cands_free();
		if (text[0] == '\\') {
			for (size_t i = 0; i < sizeof meta_names / sizeof meta_names[0]; i++)
				cands_add(meta_names[i], text, false);
		} else {
			for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
				cands_add(keywords[i], text, upper);
			if (completing) {
				Arena *a = arena_new(0);
				TableInfo *t = NULL;
				int n = 0;
				floe_error err;
				floe_error_clear(&err);
				if (engine_list_tables(completing->session, a, &t, &n, &err) == FLOE_OK)
					for (int i = 0; i < n; i++)
						if (t[i].name)
							cands_add(t[i].name, text, false);
				arena_free(a);
			}
		}
	}
	if (cands.next < cands.n) {
		char *w = cands.items[cands.next];
		cands.items[cands.next++] = NULL;
		return w;   /* readline frees it */
	}
	return NULL;
}

static char **
complete(const char *text, int start, int end)
{
	(void)start;
	(void)end;
	rl_attempted_completion_over = 1;   /* no file-name fallback */
	return rl_completion_matches(text, complete_word);
}

/* psql 11+: "help", "quit" and "exit" alone on a line at the start of a
 * statement (with an optional ;) act as commands in the interactive shell. */
static bool
bare_word(const char *line, Shell *sh)
{
	char w[8];
	size_t n = 0;

	while (isspace((unsigned char)*line))
		line++;
	while (*line && !isspace((unsigned char)*line) && *line != ';' && n < sizeof w - 1)
		w[n++] = (char)tolower((unsigned char)*line++);
	w[n] = '\0';
	if (*line == ';')
		line++;
	while (isspace((unsigned char)*line))
		line++;
	if (*line)
		return false;
	if (strcmp(w, "quit") == 0 || strcmp(w, "exit") == 0) {
		sh->quit = true;
		return true;
	}
	if (strcmp(w, "help") == 0) {
		printf("You are using floe, a PostgreSQL-compatible database over Iceberg tables.\n"
		       "Type:  \\? for help with floe commands\n"
		       "       \\q to quit\n"
		       "SQL reference: docs/sql.md\n");
		return true;
	}
	return false;
}

/* The read-eval-print loop; sigsetjmp lives here, away from other locals. */
static void
prompt_loop(Shell *sh)
{
	sh->os.cancel = &cancel_pressed;
	session_set_cancel_flag(sh->session, &cancel_pressed);
	while (!sh->quit) {
		char *line;

		if (sigsetjmp(prompt_jmp, 1) != 0) {
			/* Ctrl-C at the prompt: forget the statement being typed */
			putchar('\n');
			fflush(stdout);
			buf_reset(sh);
			sh->mode = LX_NORMAL;
		}
		in_readline = 1;
		line = readline(prompt(sh));
		in_readline = 0;
		if (!line) {
			putchar('\n');
			break;
		}
		if (line[0])
			add_history(line);
		sh->lineno++;
		sh->failed = false;
		if (sh->len == 0 && sh->mode == LX_NORMAL && bare_word(line, sh)) {
			free(line);
			continue;
		}
		feed_line(sh, line);
		sh->failed = false;
		free(line);
	}
}

int
shell_interactive(Shell *sh)
{
	char *hist = NULL;
	const char *home = getenv("HOME");

	sh->interactive = true;
	sh->prefix_errors = false;
	sh->source = "<stdin>";
	rl_readline_name = "floe";
	rl_attempted_completion_function = complete;
	rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(,.";
	completing = sh;
	using_history();
	if (home && *home) {
		hist = xmalloc(strlen(home) + 32);
		sprintf(hist, "%s/.floe_history", home);
		read_history(hist);
	}
	if (!sh->opts.print.quiet) {
		printf("floe " FLOE_VERSION " (PostgreSQL 15 compatible)\n"
		       "Type \"\\?\" for help, \"\\q\" to quit.\n\n");
		fflush(stdout);
	}
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_sigint;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
	}
	prompt_loop(sh);
	completing = NULL;
	cands_free();
	sh->os.cancel = NULL;
	signal(SIGINT, SIG_DFL);
	if (hist) {
		stifle_history(1000);
		write_history(hist);
		free(hist);
	}
	return FLOE_OK;
}
