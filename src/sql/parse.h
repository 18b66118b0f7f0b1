/*
 * parse.h — the SQL parser front: libpg_query (PostgreSQL 15's grammar) for
 * everything it knows, returned as protobuf parse trees (typed C structs).
 * This is the only folder that includes pg_query headers.
 *
 * INTERFACE ROUTINES
 *   sql_parse(sql, arena, &stmts, &n, err)    split + parse all statements;
 *                                             42601 with position on error
 *   sql_split(sql, &loc, &len)                the statements' byte ranges, as
 *                                             PostgreSQL's scanner splits them
 *   sql_parse_expr(text, arena, &node, err)   parse one expression (column
 *                                             DEFAULT text)
 *   sql_is_insert_overwrite(sql, stmt)        floe's INSERT OVERWRITE (parsed
 *                                             as INSERT INTO)
 *   sql_is_optimize(sql, stmt, &deletes_only) floe's OPTIMIZE (parsed as VACUUM)
 *   sql_ref_clause(sql, from, &clause, &len)  Spark's CREATE/REPLACE/DROP BRANCH|TAG
 *   sql_partition_clause(sql, from, &clause, &len)  Spark's PARTITIONED BY /
 *                                             ADD|DROP|REPLACE PARTITION FIELD
 *   sql_deparse(stmt, arena, &why)            libpg_query's SQL text of one statement node
 *                                             (NULL on failure, *why its reason)
 *   sql_children(m, fn, arg)                  visit a parse-tree node's children
 *   sql_location(m)                           leftmost byte offset in a subtree
 *   sql_parse_cache_stats(&hits, &misses)     the parsed-statement cache
 *                                             (parse.c), for tests
 */
#ifndef FLOE_SQL_PARSE_H
#define FLOE_SQL_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
#include "common/arena.h"
#include "common/error.h"

typedef PgQuery__Node Node;

typedef struct SqlStmt {
	Node *node;
	int location;      /* byte offset of the statement in the query text */
	int len;           /* 0 = to the end */
} SqlStmt;

int sql_parse(const char *sql, Arena *arena, SqlStmt **stmts, int *n, floe_error *err);
/* Counters of sql_parse's parsed-statement cache (parse.c). */
void sql_parse_cache_stats(uint64_t *hits, uint64_t *misses);
int sql_parse_expr(const char *text, Arena *arena, Node **out, floe_error *err);
/* Split sql into statements with PostgreSQL's scanner (quotes, dollar
 * quotes and comments respected; a statement that does not parse still
 * splits): the count of non-empty pieces, their byte offsets and lengths
 * in *loc / *len (malloc'd, the caller frees both); -1 when the scanner
 * fails (nothing allocated). */
int sql_split(const char *sql, int **loc, int **len);
/* Was statement st of sql written INSERT OVERWRITE (floe's extension,
 * parsed as INSERT INTO)? */
bool sql_is_insert_overwrite(const char *sql, const SqlStmt *st);
/* Was statement st written OPTIMIZE t [REWRITE DELETES] (floe's
 * compaction, parsed as VACUUM t)?  *deletes_only: REWRITE DELETES. */
bool sql_is_optimize(const char *sql, const SqlStmt *st, bool *deletes_only);

/* Spark's partition clauses, blanked before parsing: the first CREATE
 * TABLE ... PARTITIONED BY (...) clause ("PARTITIONED BY (...)") or ALTER
 * TABLE ... ADD|DROP|REPLACE PARTITION FIELD clause (to the statement's
 * end; parsed as RESET(floe$pf)) at or after byte offset `from` of the
 * statement there, in the original text. */
bool sql_partition_clause(const char *sql, int from, const char **clause, int *len);
/* Spark's ALTER TABLE t ALTER COLUMN c COMMENT/FIRST/AFTER and WRITE ...
 * forms (rewritten to RESET(floe$x)): the clause's original text */
bool sql_alter_ext_clause(const char *sql, int from, const char **clause, int *len);
/* CREATE TABLE's WRITE [LOCALLY] ORDERED BY ... clause (blanked for the
 * parser) at or after from: its original text */
bool sql_create_write_clause(const char *sql, int from, const char **clause, int *len);

/* Spark's ALTER TABLE ... CREATE [OR REPLACE] | REPLACE | DROP BRANCH | TAG
 * clause (to the statement's end; parsed as RESET(f$r)) at or after byte
 * offset `from`, in the original text (refs.c). */
bool sql_ref_clause(const char *sql, int from, const char **clause, int *len);

/* Calls fn(child, arg) for every message-typed child of parse-tree node m
 * (set oneof members, every element of repeated fields), in field order,
 * and stops at the first non-zero result, which it returns; 0 when every
 * call returned 0.  The one child-iteration of every tree walker. */
int sql_children(const ProtobufCMessage *m, int (*fn)(const ProtobufCMessage *child, void *arg),
		 void *arg);

/* The smallest `location` (byte offset in the statement text) of parse-tree
 * node m and its descendants, or -1 when none has one: where an expression
 * starts, as PostgreSQL's exprLocation reports it for error positions. */
int sql_location(const ProtobufCMessage *m);

/* libpg_query's SQL text of the statement node stmt (its deparser), in
 * arena; NULL when it cannot, with *why its message (static or arena). */
char *sql_deparse(PgQuery__Node *stmt, Arena *arena, const char **why);

#endif
