/*
 * check.h — CHECK constraints (PostgreSQL 15 semantics): defined by CREATE
 * TABLE and ALTER TABLE ... ADD [CONSTRAINT n] CHECK (expr) [NOT VALID],
 * dropped by ALTER TABLE ... DROP CONSTRAINT, enforced on every write path
 * (23514), shown by pg_constraint, pg_get_constraintdef and
 * information_schema.
 *
 * A constraint is the table property "floe.check.<name>" = "v|<expr>" (or
 * "n|<expr>" while NOT VALID; "vi|" / "ni|" when declared NO INHERIT), <expr> the expression as libpg_query deparses
 * it, over the columns by name (RENAME COLUMN rewrites it, DROP COLUMN drops
 * every constraint that reads the column, as PostgreSQL's dependencies do).
 * Only floe enforces them: other engines writing the Iceberg table do not.
 *
 * INTERFACE ROUTINES
 *   check_list(md, a, &defs)                     the constraints, by name
 *   check_create(s, sql, schema, ns, table, has_pk, c, list, a, err)
 *                                                CREATE TABLE's CHECK c appended to list
 *   check_add_props(list, a, &keys, &values, &n)  ... as table properties
 *   check_constraints_bind(s, ctx, t, &cb)       once per statement (cb NULL: none)
 *   check_constraints_rows(cb, ctx, b, sel, n)   per batch: 23514 for the first bad row
 *   check_domain_rows(cb, ctx, b, sel, n)        ... the columns' domains' only (23514, 23502)
 *   check_alter(s, ctx, sql, t, md, cmd, sink, &changed)   ADD / DROP / VALIDATE CONSTRAINT
 *   check_rename_column(md, old, new, a, err) / check_drop_column(md, name, a, err)
 *   check_alter_type(s, t, md, col, type, a, err)   ALTER COLUMN TYPE re-checks the rows
 *   check_def_text(schema, def, pretty, a)       pg_get_constraintdef's text
 *   check_def_columns(schema, def, a, &cols)     pg_constraint.conkey
 */
#ifndef FLOE_SQL_CHECK_H
#define FLOE_SQL_CHECK_H

#include "sql/bind.h"
#include "table/metadata.h"
#include "table/table.h"

typedef struct CheckDef {
	const char *name;
	const char *expr;         /* SQL text over the columns' names */
	bool valid;               /* false: NOT VALID (existing rows unchecked) */
	bool noinherit;           /* NO INHERIT (recorded and shown only: no inheritance) */
} CheckDef;

typedef struct CheckList {
	CheckDef *d;
	int n, cap;
} CheckList;

typedef struct CheckBound CheckBound;

int check_list(const TableMetadata *md, Arena *a, CheckDef **out);
int check_create(Session *s, const char *sql, const IcebergSchema *schema, const char *ns,
		 const char *table, bool has_pk, PgQuery__Constraint *c, CheckList *list, Arena *a, floe_error *err);
void check_add_props(const CheckList *list, Arena *a, const char ***keys, const char ***values,
		     int *n);
int check_constraints_bind(Session *s, ExecCtx *ctx, const Table *t, CheckBound **out);
int check_constraints_rows(const CheckBound *cb, ExecCtx *ctx, const Batch *b, const uint32_t *sel,
			   uint32_t n);
/* only the constraints of the columns' domains (usertype.h), which
 * PostgreSQL checks before the columns' NOT NULL: the write paths call it
 * before their NOT NULL checks (check_constraints_rows checks them too) */
int check_domain_rows(const CheckBound *cb, ExecCtx *ctx, const Batch *b, const uint32_t *sel,
		      uint32_t n);
bool check_is_alter_cmd(const PgQuery__AlterTableCmd *c);
int check_alter(Session *s, ExecCtx *ctx, const char *sql, const Table *t, TableMetadata *md,
		const PgQuery__AlterTableCmd *c, ResultSink *sink, bool *changed);
int check_rename_column(TableMetadata *md, const char *from, const char *to, Arena *a,
			floe_error *err);
int check_drop_column(TableMetadata *md, const char *col, Arena *a, floe_error *err);
/* ALTER COLUMN col TYPE type: 23514 when a row of t, its column converted,
 * fails a (valid) constraint of md that reads col, as PostgreSQL re-checks */
int check_alter_type(Session *s, const Table *t, const TableMetadata *md, const char *col,
		     PgQuery__TypeName *type, Arena *a, floe_error *err);
/* pg_get_constraintdef(oid [, pretty]): "CHECK ((a > 0))" [" NO INHERIT"] [" NOT VALID"] as
 * PostgreSQL 15 prints the common shapes; conkey's attribute numbers */
const char *check_def_text(const IcebergSchema *schema, const CheckDef *def, bool pretty, Arena *a);
int check_def_columns(const IcebergSchema *schema, const CheckDef *def, Arena *a, int64_t **cols);

#endif
