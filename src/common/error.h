/*
 * error.h — floe_error: the error every layer reports, carrying a SQLSTATE.
 *
 * A function that can fail returns an int status (FLOE_OK or FLOE_ERR) and
 * fills the floe_error its caller passed.  The struct holds its text in fixed
 * buffers, so reporting an error never allocates and never fails (libgit2's
 * preallocated oom_error, taken one step further).  Codes come from
 * sqlstate.txt via the generated sqlstate.h (ERRCODE_* macros).
 *
 * INTERFACE ROUTINES
 *   floe_error_clear(err)                       reset to "no error"
 *   floe_errorf(err, code, fmt, ...)            set code + message, return FLOE_ERR
 *   floe_error_detail/hint(err, fmt, ...)       add detail / hint, return FLOE_ERR
 *   floe_error_position(err, pos)               1-based character position in the query
 *   floe_error_context(err, fmt, ...)           add a CONTEXT line (PostgreSQL's "Where"
 *                                               field, e.g. "COPY t, line 3, column a:
 *                                               \"x\""); a second call appends a line
 *                                               below the first (innermost first, as
 *                                               PostgreSQL's error context stack)
 *   floe_error_prefix(err, fmt, ...)            prepend context ("file x: ") to the message
 *   FLOE_CORRUPT(err, fmt, ...)                 XX001, with __FILE__:__LINE__ in the detail
 *                                               of debug builds (SQLITE_CORRUPT_BKPT)
 */
#ifndef FLOE_ERROR_H
#define FLOE_ERROR_H

#include <stdarg.h>
#include "common/sqlstate.h"

#define FLOE_OK 0
#define FLOE_ERR (-1)

typedef struct floe_error {
	char sqlstate[6];      /* "" when no error */
	int position;          /* 1-based position in the query text, 0 if none */
	char message[1024];
	char detail[1024];
	char hint[512];
	char context[1024];    /* "Where": lines separated by '\n', "" if none */
} floe_error;

void floe_error_clear(floe_error *err);
int floe_errorf(floe_error *err, const char *sqlstate, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int floe_error_detail(floe_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int floe_error_hint(floe_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int floe_error_context(floe_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int floe_error_prefix(floe_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int floe_error_position(floe_error *err, int position);
int floe_error_is(const floe_error *err, const char *sqlstate);
/* The severity a notice (a non-error floe_error sent to the client) is
 * reported with: "WARNING" for SQLSTATE classes 01 (warning) and 25 (invalid
 * transaction state, which PostgreSQL reports as WARNING: COMMIT outside a
 * block, BEGIN inside one) and 0LP01 (a GRANT ON TABLE of a sequence
 * naming other privileges), "NOTICE" otherwise. */
const char *floe_notice_severity(const floe_error *notice);

#ifdef FLOE_DEBUG
#define FLOE_CORRUPT(err, ...) \
	(floe_errorf((err), ERRCODE_DATA_CORRUPTED, __VA_ARGS__), \
	 floe_error_detail((err), "detected at %s:%d", __FILE__, __LINE__))
#else
#define FLOE_CORRUPT(err, ...) floe_errorf((err), ERRCODE_DATA_CORRUPTED, __VA_ARGS__)
#endif

/* Propagate a failing status: TRY(parse_x(...)); */
#define TRY(expr) do { if ((expr) != FLOE_OK) return FLOE_ERR; } while (0)

#endif
