/*
 * sequence.h — sequences (sequence.c): CREATE / ALTER / DROP SEQUENCE,
 * nextval / currval / setval / lastval, and their rows in pg_catalog and
 * information_schema (seq_catalog.c).
 *
 * State: a sequence is one row of the catalog database's floe_sequences
 * (catalog.h CatalogSeq), so every floe node on one catalog shares it.
 * nextval reserves a range of CACHE values with a compare-and-swap of the
 * row (its version), hands them out from a per-node cache (the Engine's),
 * and never returns a value twice across nodes.  Values are not
 * transactional (PostgreSQL's rule): a ROLLBACK does not give them back.
 * currval/lastval are per session.
 *
 * INTERFACE ROUTINES
 *   seq_create_stmt / seq_alter_stmt / seq_drop_stmt   the statements
 *   seq_is_func(name)                 nextval, currval, setval, lastval?
 *   seq_bind_call(b, name, args, n, location)   their bound call (volatile)
 *   seq_lookup(s, ns, name, a, &seq, &found, err)   a sequence's row
 *   seq_resolve(s, text, a, &ns, &name, err)        'name' / 'ns.name' as
 *                                     regclass reads it (42P01, 42809)
 *   seq_create(s, ns, name, opts, owned_by, err)    for serial/identity
 *   seq_drop_owned(s, ns, table, err) DROP TABLE drops its owned sequences
 *                                     (table NULL: every sequence of ns)
 *   seq_drop_table_deps(s, ns, table, drop_ns, drop_names, ndrop, cascade,
 *                       sink, err)    before that: the other tables' DEFAULTs
 *                                     calling nextval of them (2BP01, or
 *                                     dropped by CASCADE)
 *   seq_drop_schema_deps(s, ns, cascade, sink, err)  DROP SCHEMA of the
 *                                     sequences' schema: the same
 *
 * Dependencies: DROP SEQUENCE refuses (2BP01) while a column DEFAULT of any
 * table calls nextval of it; CASCADE drops those DEFAULTs; an identity
 * column's sequence cannot be dropped at all (PostgreSQL's rules).
 *   seq_catalog_rows(s, r, pg, relname, a, err)     rows of pg_class,
 *                                     pg_sequence, pg_sequences,
 *                                     information_schema.sequences
 *   seq_visible_oids(s, ns, a, &names, &oids, &n, err)  schema ns's sequences
 *                                     (their names too; pg_table_is_visible)
 *   seq_relation(s, ctx, ns, name, ...)              SELECT * FROM seq
 *   seq_session_free(s) / seq_engine_free(e)
 */
#ifndef FLOE_SEQUENCE_H
#define FLOE_SEQUENCE_H

#include "sql/bind.h"
#include "sql/constrel.h"

int seq_create_stmt(Session *s, PgQuery__CreateSeqStmt *st, ResultSink *sink, floe_error *err);
int seq_alter_stmt(Session *s, PgQuery__AlterSeqStmt *st, ResultSink *sink, floe_error *err);
int seq_drop_stmt(Session *s, PgQuery__DropStmt *st, ResultSink *sink, floe_error *err);

bool seq_is_func(const char *name);
Expr *seq_bind_call(BindCtx *b, const char *name, Expr **args, int nargs, int location);

int seq_lookup(Session *s, const char *ns, const char *name, Arena *a, CatalogSeq *out,
	       bool *found, floe_error *err);
int seq_resolve(Session *s, const char *text, Arena *a, const char **ns, const char **name,
		floe_error *err);

/* Create sequence ns.name from option DefElems (n of them, may be 0) of
 * type def_type unless an AS option says otherwise (NULL: bigint);
 * owned_by "table.column" or NULL.  seq_drop drops one (42P01). */
int seq_create(Session *s, const char *ns, const char *name, const char *def_type, Node **opts,
	       int nopts, const char *owned_by, floe_error *err);
int seq_drop(Session *s, const char *ns, const char *name, floe_error *err);
int seq_drop_owned(Session *s, const char *ns, const char *table, floe_error *err);
/* The DEFAULTs of tables other than the ndrop this DROP TABLE drops that
 * call nextval of a sequence ns.table owns: 2BP01, or with cascade dropped
 * (NOTICE on sink). */
/* DROP SCHEMA ns: its sequences are 2BP01 without cascade (DETAIL the
 * first); with it, other schemas' DEFAULTs calling nextval of them are
 * dropped (NOTICE). */
int seq_drop_schema_deps(Session *s, const char *ns, bool cascade, ResultSink *sink,
			 floe_error *err);
int seq_drop_table_deps(Session *s, const char *ns, const char *table, const char *const *drop_ns,
			const char *const *drop_names, int ndrop, bool cascade, ResultSink *sink,
			floe_error *err);

int seq_catalog_rows(Session *s, ConstRel *r, bool pg, const char *relname, Arena *a,
		     floe_error *err);
/* SELECT FROM a sequence: one row (last_value, log_cnt, is_called);
 * *found false when ns.name is no sequence. */
int seq_relation(Session *s, ExecCtx *ctx, const char *ns, const char *name, Arena *a,
		 bool *found, int *ncols, char ***names, SqlType **types, Operator **op,
		 floe_error *err);
int seq_visible_oids(Session *s, const char *ns, Arena *a, char ***names, int64_t **oids, int *n,
		     floe_error *err);

void seq_session_free(Session *s);
void seq_engine_free(Engine *e);

#endif
