/*
 * fastvalues.h — the fast path's parser of the simplest INSERT ... VALUES
 * texts, without libpg_query (issue 16: repeated INSERT shapes must not pay
 * a full parse and bind per statement).
 *
 * Accepted, and nothing else (anything more returns false and the caller
 * takes the full parser):
 *
 *   INSERT INTO [schema.]table [(col, ...)] VALUES (lit, ...) [, (lit, ...)]* [;]
 *
 * names unquoted (folded to lower case) or "quoted"; lit one of NULL,
 * DEFAULT, TRUE, FALSE, a quoted string ('' for a quote; no E'', U&'' or
 * $$), an optionally signed integer or decimal number (no exponent), a
 * bind parameter $n (the extended protocol's; its value is the caller's),
 * each row as wide as the first, at most max_rows rows.  Keywords in any case;
 * whitespace and -- comments anywhere between tokens.
 *
 * INTERFACE ROUTINES
 *   fastvalues_parse(sql, a, max_rows, &fv)   true: fv filled (in arena a)
 */
#ifndef FLOE_FASTVALUES_H
#define FLOE_FASTVALUES_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"

typedef enum FvKind { FV_NULL, FV_DEFAULT, FV_TRUE, FV_FALSE, FV_STRING, FV_INT, FV_NUM, FV_PARAM } FvKind;

typedef struct FvLit {
	FvKind kind;
	const char *p;             /* FV_STRING: the value (quotes undone); numbers: their text */
	uint32_t len;              /* FV_PARAM: the parameter's number n of $n (1..65535) */
} FvLit;

typedef struct FastValues {
	char *schema;              /* NULL: unqualified */
	char *table;
	int ncols;                 /* 0: no column list */
	char **cols;
	int nrows, width;
	int maxparam;              /* highest n of a $n; 0: none */
	FvLit *lits;               /* row r, column c: lits[r * width + c] */
} FastValues;

bool fastvalues_parse(const char *sql, Arena *a, int max_rows, FastValues *out);

#endif
