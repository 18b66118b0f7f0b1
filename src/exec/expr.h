/*
 * expr.h — bound, executable scalar expressions and their vectorized
 * evaluation.
 *
 * The binder (sql/bind.c) turns parse trees into Expr trees whose types are
 * resolved and whose implicit casts are explicit EXPR_CAST nodes; column
 * references are indexes into the input batch.  expr_eval computes an
 * expression for a set of rows of a batch:
 *
 *   sel == NULL:  rows 0..n-1,    results in out[0..n-1]
 *   sel != NULL:  rows sel[0..n), results in out[sel[i]]
 *
 * so CASE and AND/OR evaluate their branches only on the rows that reach
 * them (CASE WHEN x = 0 THEN 0 ELSE 1 / x END never divides by zero).
 * `out` may come back as a shallow copy of an input column or a CONST
 * vector; consumers read it through vector_view / vector_get_value.
 *
 * INTERFACE ROUTINES
 *   expr_eval(ctx, e, in, sel, n, scratch, out)
 *   expr_eval_const(e, arena, out, err)        evaluate an expression with
 *                                              no column references
 *   inset_eval(ctx, e, ...)                    x [NOT] IN (constants) hashed
 *   expr_new / expr_const / expr_colref / expr_cast   (constructors)
 *   expr_equal(a, b)                           structural equality
 */
#ifndef FLOE_EXPR_H
#define FLOE_EXPR_H

#include "common/arena.h"
#include "common/error.h"
#include "types/vector.h"

struct ScalarFunc;
struct AggFunc;
struct ExecCtx;

typedef enum ExprKind {
	EXPR_CONST,
	EXPR_COLREF,
	EXPR_FUNC,        /* fn(args...) through a func/ kernel */
	EXPR_CAST,        /* args[0] cast to type (flags: cast_flags) */
	EXPR_AND,         /* n-ary, three-valued */
	EXPR_OR,
	EXPR_NOT,
	EXPR_IS_NULL,
	EXPR_IS_NOT_NULL,
	EXPR_IS_TRUE,     /* IS [NOT] TRUE/FALSE: never NULL */
	EXPR_IS_NOT_TRUE,
	EXPR_IS_FALSE,
	EXPR_IS_NOT_FALSE,
	EXPR_CASE,        /* args: when1, then1, when2, then2, ..., [else] */
	EXPR_COALESCE,
	EXPR_DISTINCT,    /* a IS DISTINCT FROM b: args[0], args[1]; fn is "=" */
	EXPR_NOT_DISTINCT,
	EXPR_AGGREF,      /* only during binding; replaced before execution */
	EXPR_SUBPLAN      /* correlated subquery run per row (exec/subplan.c):
			   * args = the outer columns it reads [, the IN/ANY
			   * left operand]; subplan = its plan */
} ExprKind;

typedef struct Expr {
	ExprKind kind;
	SqlType type;
	int location;              /* 1-based position in the query, 0 none */
	Value value;               /* EXPR_CONST */
	bool unknown_literal;      /* EXPR_CONST: untyped string literal */
	int param;                 /* EXPR_CONST made from parameter $n: n, else 0 */
	int col;                   /* EXPR_COLREF: input column; AGGREF: agg index */
	const struct ScalarFunc *fn;
	int cast_flags;            /* EXPR_CAST */
	bool has_else;             /* EXPR_CASE */
	int nargs;
	struct Expr **args;
	struct SubPlan *subplan;   /* EXPR_SUBPLAN */
} Expr;

/* ORDER BY inside an aggregate call: one sort key over the input rows. */
typedef struct AggOrderKey {
	Expr *e;
	bool desc;
	bool nulls_first;
} AggOrderKey;

/* One aggregate call of a GROUP BY. */
typedef struct AggCall {
	const struct AggFunc *fn;
	Expr *arg;                 /* NULL for count(*) */
	Expr *arg2;                /* second argument (string_agg) or NULL */
	bool distinct;
	Expr *filter;              /* FILTER (WHERE ...) or NULL */
	SqlType type;              /* result type */
	/* agg(x ORDER BY ...): the rows are fed to the state in this order
	 * (hash_agg.c buffers and sorts them per group); 0 = any order */
	int norder;
	AggOrderKey *order;
} AggCall;

/* A column reference at or above EXPR_PARAM_BASE is a parameter: the
 * value ExecCtx.params[col - EXPR_PARAM_BASE] (LATERAL's outer columns). */
#define EXPR_PARAM_BASE (1 << 22)

Expr *expr_new(Arena *a, ExprKind kind, SqlType type, int nargs);
Expr *expr_const(Arena *a, const Value *v);
Expr *expr_colref(Arena *a, int col, SqlType type);
Expr *expr_cast(Arena *a, Expr *arg, SqlType to, int flags);
bool expr_equal(const Expr *a, const Expr *b);
bool expr_has_colref(const Expr *e);
/* true when e calls a volatile function (nextval): evaluated per row, never folded */
bool expr_is_volatile(const Expr *e);

int expr_eval(struct ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel,
	      uint32_t n, Arena *scratch, Vector *out);
/* inset.c: an OR of x = c1 ... x = cn (an AND of x <> ci) over constants,
 * n >= INSET_MIN, evaluated through a hash set of the ci built on first
 * use and kept by ctx (ExecCtx.insets); *done = false when e does not
 * have that shape (the caller evaluates it as it is) */
#define INSET_MIN 9
int inset_eval(struct ExecCtx *ctx, const Expr *e, const Batch *in, const uint32_t *sel,
	       uint32_t n, Arena *scratch, Vector *out, bool *done);
struct SessionEnv;
/* e over no input row, with the statement's session state (func/session_env.h:
 * the kernels' FuncCtx.env; NULL only where no session exists, e.g. unit
 * tests: nextval and the privilege functions then fail or answer "all") */
int expr_eval_const(const Expr *e, const struct SessionEnv *env, Arena *arena, Value *out,
		    floe_error *err);

#endif
