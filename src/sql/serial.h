/*
 * serial.h — serial columns, identity columns and volatile column
 * DEFAULTs (serial.c), for CREATE TABLE (ddl.c) and the writes that fill
 * defaults (insert.c, dml.c).
 *
 * A serial / bigserial / smallserial column becomes integer / bigint /
 * smallint NOT NULL DEFAULT nextval('<table>_<col>_seq'::regclass) with
 * that sequence OWNED BY it; GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY
 * [(options)] the same with the column's identity kind recorded
 * (IcebergField.identity, table property floe.column.<id>.identity).
 * The sequences are created before the table and dropped again when its
 * creation fails.
 *
 * INTERFACE ROUTINES
 *   serial_column(b, ns, table, cd, f, list, &handled)   a serial type
 *   serial_identity(b, ns, table, c, f, list)           an IDENTITY constraint
 *   serial_default_text(b, raw, col)     a non-constant DEFAULT's source text
 *   serial_has_call(raw)                 a DEFAULT calls a function
 *   serial_get_sequence(b, args, n, loc) pg_get_serial_sequence
 *   serial_create_all(s, ns, table, list, err) / serial_drop_all(s, ns, list)
 *   identity_insert_check(b, schema, is, tcols, ntarget, &user_value)
 *                                        428C9 for a value into an ALWAYS column
 *   identity_ignores(f, user_value)     OVERRIDING USER VALUE drops the value
 *   identity_update_check(b, f, location)  UPDATE SET of an ALWAYS column
 */
#ifndef FLOE_SERIAL_H
#define FLOE_SERIAL_H

#include "sql/bind.h"

typedef struct SerialSeq {
	const char *name, *type, *column;
	Node **opts;
	int nopts;
} SerialSeq;

typedef struct SerialList {
	SerialSeq *v;
	int n, cap, created;
} SerialList;

int serial_column(BindCtx *b, const char *ns, const char *table, PgQuery__ColumnDef *cd,
		  IcebergField *f, SerialList *l, bool *handled);
int serial_identity(BindCtx *b, const char *ns, const char *table, PgQuery__Constraint *c,
		    IcebergField *f, SerialList *l);
char *serial_default_text(BindCtx *b, Node *raw, const char *col);
/* Does a DEFAULT's parse tree call a function (now(), CURRENT_TIMESTAMP)? */
bool serial_has_call(Node *raw);
/* pg_get_serial_sequence(table, column) of constants: its text or NULL */
Expr *serial_get_sequence(BindCtx *b, Expr **args, int nargs, int location);
int serial_create_all(Session *s, const char *ns, const char *table, SerialList *l,
		      floe_error *err);
void serial_drop_all(Session *s, const char *ns, SerialList *l);

int identity_insert_check(BindCtx *b, const IcebergSchema *sc, PgQuery__InsertStmt *is,
			  const int *tcols, int ntarget, bool *user_value);
bool identity_ignores(const IcebergField *f, bool user_value);
int identity_update_check(BindCtx *b, const IcebergField *f, int location);

#endif
