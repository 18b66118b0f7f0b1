/*
 * constrel.h — a relation of constant rows built in memory (pg_catalog,
 * information_schema, Iceberg metadata tables): columns declared by a
 * compact spec, rows appended as Values, read by one operator.
 *
 * INTERFACE ROUTINES
 *   constrel_init(r, arena, spec)   spec "name:T name:T ...", T one of
 *        o / i int4, s int2, l int8, b bool, f float4, d float8,
 *        z timestamptz, v int2vector, w oidvector, a int2[],
 *        t (or anything else) text
 *   constrel_row(r)                 a new row, every column NULL
 *   constrel_op(ctx, r, label)      an operator producing the rows (label:
 *                                   its EXPLAIN name)
 */
#ifndef FLOE_CONSTREL_H
#define FLOE_CONSTREL_H

#include "exec/exec.h"

typedef struct ConstRel {
	Arena *a;
	int ncols;
	char **names;
	SqlType *types;
	int nrows, cap;
	Value *vals;             /* nrows * ncols, row-major */
} ConstRel;

void constrel_init(ConstRel *r, Arena *a, const char *spec);
Value *constrel_row(ConstRel *r);
Operator *constrel_op(ExecCtx *ctx, const ConstRel *r, const char *label);

#endif
