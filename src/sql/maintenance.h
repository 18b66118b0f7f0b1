/*
 * maintenance.h — the SQL surface of table maintenance (maintenance.c):
 *   VACUUM [(options)] [VERBOSE] [ANALYZE] [t [, ...]]
 *   ANALYZE [VERBOSE] [t [(cols)] [, ...]]
 *   CALL [system.]expire_snapshots(table => 't', older_than => ts, retain_last => n)
 *   CALL [system.]remove_orphan_files(table => 't', older_than => ts, dry_run => b)
 *   CALL [system.]rewrite_manifests(table => 't', spec_id => n)
 *   CALL [system.]fast_forward(table, branch, to)          (refs.c)
 *   CALL [system.]cherrypick_snapshot(table, snapshot_id), publish_changes(table, wap_id)  (wap.c)
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
#include "table/table.h"

int maintenance_vacuum(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
		       PgQuery__VacuumStmt *vs, ResultSink *sink);
int maintenance_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs,
		     ResultSink *sink, bool *handled);
int restore_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs,
		 ResultSink *sink, bool *handled);
/* For the procedures of other files (wap.c, ...): bind f's arguments
 * (positional or name => value) to spec's slots, constants cast to each
 * slot's type (NULL refused, spec[0] the table and required); "[ns.]t"
 * split (search_path when unqualified); the table load with 42P01; 25001
 * inside a transaction block. */
typedef struct ArgSpec {
	const char *name;
	TypeId type;          /* TYPE_NULL: Spark's, not supported here (0A000) */
} ArgSpec;
int maintenance_bind_args(Session *s, ExecCtx *ctx, const char *sql, PgQuery__FuncCall *f,
			  const char *proc, const ArgSpec *spec, int nspec, Value *vals, bool *have);
void maintenance_split_name(Session *s, Arena *a, const Value *v, const char **ns,
			    const char **name);
int maintenance_load(Session *s, ExecCtx *ctx, const char *ns, const char *name, Table **t);
int maintenance_outside_block(Session *s, const char *what, floe_error *err);
bool maintenance_describe(const SqlStmt *st, Arena *a, int *ncols, char ***names,
			  SqlType **types);

#endif
