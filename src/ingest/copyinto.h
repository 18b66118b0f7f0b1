/*
 * copyinto.h — COPY INTO t FROM '<location>' [options]: loading a stage's
 * files in one Iceberg commit (docs/loading.md).
 *
 *   COPY INTO [schema.]t [(cols)] FROM '@stage/path' | 'path' | 's3://...'
 *     [FILE_FORMAT = (TYPE = CSV | JSON | PARQUET [, option = value ...])]
 *     [PATTERN = 'regex'] [ON_ERROR = ABORT_STATEMENT | CONTINUE | SKIP_FILE]
 *     [MAX_ERRORS = n] [FORCE = TRUE | FALSE]
 *
 * parse.c blanks INTO and the options before libpg_query sees the text
 * (it parses as COPY t FROM 'location'); copy.c hands such a statement
 * here (copyinto_is), which reads the options from the original text.
 *
 * INTERFACE ROUTINES
 *   copyinto_is(sql, st)                 was this COPY written COPY INTO?
 *   copyinto_exec(s, ctx, sql, st, sink)
 *   copyinto_options_text(sql, st)       the text after FROM '<location>' (NULL: none)
 *   copyinto_default_opts(o, a), copyinto_reader_new(...), copyinto_csv_sample(...)
 *   readfiles_source(b, ctx, name, f, &op, &ncols, &names, &types)   (readfiles.c)
 */
#ifndef FLOE_INGEST_COPYINTO_H
#define FLOE_INGEST_COPYINTO_H

#include <stdbool.h>
#include "ingest/stage.h"
#include "sql/bind.h"

/* The statement text after FROM '<location>' (its options; also
 * REGISTER FILES', register.c), NULL when not found. */
const char *copyinto_options_text(const char *sql, const PgQuery__CopyStmt *st);

enum { FT_CSV, FT_JSON, FT_PARQUET };
enum { OE_ABORT, OE_CONTINUE, OE_SKIP_FILE };

/* FILE_FORMAT and the statement's options */
typedef struct IntoOpts {
	int type;
	char delim, quote, escape;   /* quote, escape: 0 = none */
	int64_t skip_header;
	bool parse_header;
	char **null_if;
	int nnull_if;
	bool empty_as_null, trim_space, count_mismatch_error, bom;
	const char *compression;
	const char *pattern;
	int on_error;
	int64_t max_errors;
	bool force;
} IntoOpts;

bool copyinto_is(const char *sql, const PgQuery__CopyStmt *st);
int copyinto_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CopyStmt *st, ResultSink *sink);
/* up to max CSV records of data (after a BOM), fields as strings, NULL
 * for a NULL field (o's rules), for read_csv's detection */
int copyinto_csv_sample(const IntoOpts *o, const char *data, size_t len, int max, Arena *a, char ****rows,
			int **nf, int *n);
/* COPY INTO's defaults (CSV, ',', '"', NULL_IF ('\\N'), ...) */
void copyinto_default_opts(IntoOpts *o, Arena *a);
/* the reader of COPY INTO over files (ON_ERROR as o says; label names
 * the source in errors' CONTEXT: "<label>, file f, line n"), for
 * read_csv / read_json */
Operator *copyinto_reader_new(ExecCtx *ctx, Session *s, const IntoOpts *o, StageFile *files, int nfiles,
			      int ncols, const SqlType *types, char **names, const char *label);

/* readfiles.c: read_csv(path, option => value ...) in FROM: the rows'
 * operator and the detected columns */
int readfiles_source(BindCtx *b, ExecCtx *ctx, const char *fname, PgQuery__FuncCall *f, Operator **op,
		     int *ncols, char ***names, SqlType **types);
/* a table function's constant argument n (fname, name: for errors) */
int readfiles_arg_text(BindCtx *b, Node *n, const char *fname, const char *name, Arena *a, char **out);
int readfiles_arg_bool(BindCtx *b, Node *n, const char *fname, const char *name, bool *out);
int readfiles_arg_int(BindCtx *b, Node *n, const char *fname, const char *name, int64_t *out);
int readfiles_arg_char(BindCtx *b, Node *n, const char *fname, const char *name, Arena *a, char *out);
/* the files of path (a file, folder, prefix, stage location, s3:// URI, or
 * a local glob), each checked as a server-file read; none: 58P01 */
int readfiles_list(Session *s, const char *path, Arena *a, StageFile **files, int *n, floe_error *err);

/* Detected columns of one file's text (read_csv, read_json, INFER_SCHEMA) */
typedef struct FileColumns {
	int ncols;
	char **names;
	SqlType *types;
	bool *nulls;           /* per column: a NULL or a missing value in the sample */
	bool complete;         /* the sample was the whole text */
	bool header;           /* CSV: the first row (after skip) named the columns */
} FileColumns;
typedef struct CsvDetect {
	bool have_header, header;    /* header given (else detected), and its value */
	bool have_delim;             /* o->delim given (else detected among , TAB ; |) */
	bool all_varchar;            /* every column text */
	bool narrow_ints;            /* integer (not bigint) where every value fits */
	int64_t skip, sample;        /* rows before the header; rows sampled */
} CsvDetect;
/* label names the caller in errors ("read_csv: \"f\" has no rows ..."), file the file */
int readfiles_csv_detect(IntoOpts *o, const CsvDetect *d, const char *data, size_t len, const char *label,
			 const char *file, Arena *a, FileColumns *out, floe_error *err);
int readfiles_json_detect(const char *data, size_t len, int64_t sample, bool narrow_ints, const char *label,
			  const char *file, Arena *a, FileColumns *out, floe_error *err);

#endif
