/*
 * maintenance.h — the SQL surface of table maintenance (maintenance.c):
 *   VACUUM [(options)] [VERBOSE] [ANALYZE] [t [, ...]]
 *   ANALYZE [VERBOSE] [t [(cols)] [, ...]]
 *   CALL [system.]expire_snapshots(table => 't', older_than => ts, retain_last => n)
 *   CALL [system.]remove_orphan_files(table => 't', older_than => ts, dry_run => b)
 *   CALL [system.]fast_forward(table, branch, to)          (refs.c)
 * The table-level work is table/maintenance.h.
 *
 * INTERFACE ROUTINES
 *   maintenance_vacuum(s, ctx, sql, st, vs, sink)   VACUUM / ANALYZE (not OPTIMIZE)
 *   maintenance_call(s, ctx, sql, cs, sink, &handled)  the procedures above
 *   maintenance_describe(st, a, &ncols, &names, &types)  their result columns
 *   restore_call(s, ctx, sql, cs, sink, &handled)   ROLLBACK / RESTORE TABLE
 *                                   (restore.c; parse.c makes them CALLs)
 */
#ifndef FLOE_SQL_MAINTENANCE_H
#define FLOE_SQL_MAINTENANCE_H

#include "sql/bind.h"

int maintenance_vacuum(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
		       PgQuery__VacuumStmt *vs, ResultSink *sink);
int maintenance_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs,
		     ResultSink *sink, bool *handled);
int restore_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs,
		 ResultSink *sink, bool *handled);
bool maintenance_describe(const SqlStmt *st, Arena *a, int *ncols, char ***names,
			  SqlType **types);

#endif
