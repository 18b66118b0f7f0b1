/*
 * indexes.h — CREATE INDEX and DROP INDEX, recorded (PostgreSQL 15 syntax;
 * ORM migrations issue them).  floe reads Iceberg tables by scan planning
 * (partition and column-bound pruning), so a plain index is a record: a
 * table property "floe.index.<name>" = "<field ids>|<USING method (keys)
 * [WHERE ...]>", shown by pg_indexes, pg_index, pg_class (relkind 'i'),
 * pg_get_indexdef and psql's \d / \di.  UNIQUE indexes are refused with
 * 0A000 naming them (PRIMARY KEY is the enforced uniqueness).
 *
 * INTERFACE ROUTINES
 *   indexes_create(s, ctx, sql, st, sink)    CREATE [UNIQUE] INDEX ...
 *   indexes_drop(s, ds, a, sink, err)        DROP INDEX [IF EXISTS] ...
 *   indexes_of(md, a, &list)                 a table's recorded indexes
 */
#ifndef FLOE_SQL_INDEXES_H
#define FLOE_SQL_INDEXES_H

#include "sql/bind.h"
#include "table/metadata.h"

typedef struct IndexInfo {
	const char *name;
	int ncols;
	int32_t *field_ids;       /* per key column; 0: an expression */
	const char *tail;         /* "USING btree (a, lower(b))" */
} IndexInfo;

int indexes_create(Session *s, ExecCtx *ctx, const char *sql, PgQuery__IndexStmt *st,
		   ResultSink *sink);
int indexes_drop(Session *s, PgQuery__DropStmt *ds, Arena *a, ResultSink *sink, floe_error *err);
int indexes_of(const TableMetadata *md, Arena *a, IndexInfo **out);

#endif
