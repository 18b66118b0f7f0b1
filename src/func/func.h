/*
 * func.h — scalar operator/function kernels and aggregate functions, with
 * PostgreSQL's operator and function type resolution.
 *
 * The binder resolves a call by name and argument types:
 *
 *   func_resolve_scalar("+", {INT32, INT64}, 2, &f, &ret, cast_to, err)
 *     -> f = the int8 + int8 kernel, ret = bigint, cast_to = {bigint, bigint}
 *
 * It must cast argument i to cast_to[i] (when it differs from the argument's
 * type; for `||` with a non-text side that is an explicit ::text conversion
 * (f->args[i] == FARG_ANY), and TYPE_NULL = unknown literals get their
 * resolved type) and then call f->kernel on vectors of those types.
 * (Kernels of numeric + - % comparisons re-align decimal scales themselves,
 * so a literal left at its own scale is still exact.)  Resolution follows
 * PostgreSQL 15's rules (parser/parse_func.c func_select_candidate,
 * parse_oper.c oper_select_candidate): exact match, binary operator with
 * one unknown side, implicit coercions, most exact matches, preferred types
 * of the category, unknown-literal category resolution.
 *
 * Operators are named as PostgreSQL spells them: "+", "-", "*", "/", "%",
 * "^", "=", "<>", "<", "<=", ">", ">=", "||", "~~" (LIKE), "!~~", "~~*"
 * (ILIKE), "!~~*", "~" "!~" "~*" "!~*" (regex), "&" "|" "#" "<<" ">>",
 * prefix "u-", "u+", "~", "|/", "||/", "@"; functions by their lower-case
 * names (x LIKE p ESCAPE e -> x ~~ like_escape(p, e); x SIMILAR TO p ->
 * x ~ similar_to_escape(p); GREATEST/LEAST -> "greatest"/"least").
 *
 * Numeric (TYPE_DECIMAL) results of arithmetic are typed numeric with
 * precision 0 (= unconstrained, PostgreSQL's "numeric") and a fixed scale:
 * a+b, a-b: max(s1,s2); a*b: s1+s2; a/b: max(16, s1, s2) (PostgreSQL's
 * select_div_scale for quotients of magnitude >= 1); avg: max(16, s).
 *
 * Aggregates keep one state block per group: update() gets one argument
 * vector and an array of state pointers (states[i] = row i's group), so a
 * hash aggregate calls it once per batch; two-argument aggregates
 * (string_agg) have update2 instead.  combine() merges partial states
 * (parallel workers), finalize() writes one result row.
 *
 * INTERFACE ROUTINES
 *   func_resolve_scalar(name, argtypes, nargs, &func, &ret, cast_to, err)
 *   func_resolve_agg(name, argtypes, nargs, star, &agg, &ret, cast_to, err)
 *   func_is_aggregate(name)
 *   func_refine_return(f, consts, nargs, &ret)   result type from constant args
 *   func_set_statement_time(us)   what now()/current_timestamp return
 *   func_type_name(t, buf, n)     a type as PostgreSQL names it in errors
 *   func_like_match(s, slen, p, plen, esc, icase, &match, err)   LIKE on bytes
 */
#ifndef FLOE_FUNC_H
#define FLOE_FUNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "types/types.h"
#include "types/vector.h"

typedef struct FuncCtx {
	Arena *arena;      /* result strings and agg state allocations; lives as long as the results */
	floe_error *err;
	/* the statement's session state (session_env.h), or NULL: none */
	const struct SessionEnv *env;
} FuncCtx;

/*
 * args[i] has `count` rows and may be flat, const or dict; out is a flat
 * vector of the result type with capacity >= count, initialised by the
 * caller (vector_init; long result strings go to out->arena).  The kernel
 * writes rows 0..count and their validity.  Returns FLOE_OK or FLOE_ERR
 * with ctx->err filled (22003, 22012, ...).
 */
typedef int (*ScalarKernel)(FuncCtx *ctx, const Vector *args, int nargs,
			    uint32_t count, Vector *out);

/* Argument type codes of a signature: a TypeId, or one of these. */
#define FARG_ANY 100        /* PostgreSQL's "any"/anynonarray: cast_to text */
#define FARG_ANY_ASIS 101   /* "any", read as it is (pg_typeof): cast_to = the argument */

/* How a signature's result type is derived (ScalarFunc.ret_rule). */
enum {
	FRET_FIXED = 0,     /* ScalarFunc.ret */
	FRET_ARG0,          /* the (resolved) type of argument 0 */
	FRET_DEC_ADD,       /* numeric, scale max(s1, s2) */
	FRET_DEC_MUL,       /* numeric, scale s1 + s2 */
	FRET_DEC_DIV,       /* numeric, scale max(16, s1, s2) */
	FRET_DEC_ROUND,     /* numeric, scale = the constant 2nd arg (binder) or 0 */
	FRET_DEC_INT,       /* numeric scale 0, arguments aligned to one scale (div) */
	FRET_DEC_SQRT,      /* numeric, scale max(15, s) (sqrt_var's rscale for 1..9999) */
	FRET_DEC_FN,        /* numeric, scale max(the arguments' scales, ScalarFunc.ret),
			       rows at PostgreSQL's result scale (exp, ln, power...) */
};

typedef struct ScalarFunc {
	const char *name;
	ScalarKernel kernel;
	int8_t nargs;       /* fixed arguments */
	int8_t variadic;    /* 1: the last argument type repeats (0 or more extra) */
	uint8_t args[8];    /* TypeId or FARG_* per argument */
	uint8_t ret;        /* TypeId of the result (FRET_FIXED) */
	uint8_t ret_rule;   /* FRET_* */
	bool strict;        /* NULL in any argument -> NULL out */
	bool is_operator;   /* for error messages */
} ScalarFunc;

int func_resolve_scalar(const char *name, const SqlType *argtypes, int nargs,
			const ScalarFunc **out, SqlType *ret, SqlType *cast_to,
			floe_error *err);

/*
 * Optional, after func_resolve_scalar: narrow the result type when some
 * arguments are constants (consts[i] = the constant, or NULL).  Today:
 * round/trunc(numeric, n) get scale n (PostgreSQL prints n digits), so
 * round(avg(x), 2) shows "1.50" rather than 16 digits; extract('year' ...)
 * becomes numeric scale 0 (PostgreSQL 15's extract returns numeric; scale 6
 * for second/epoch, 3 for milliseconds) instead of double precision.  The
 * kernel honours whatever type *ret ends up with.
 */
void func_refine_return(const ScalarFunc *f, const Value *const *consts, int nargs,
			SqlType *ret);

typedef struct AggFunc {
	const char *name;
	size_t state_size;
	void (*init)(void *state);
	/* arg is NULL for count(*); states[i] is row i's group state */
	int (*update)(FuncCtx *ctx, const Vector *arg, uint32_t count, void **states);
	int (*combine)(FuncCtx *ctx, void *dst, const void *src);
	/* out has the resolved result type; writes row `row` (value or NULL) */
	int (*finalize)(FuncCtx *ctx, void *state, Vector *out, uint32_t row);
	/* two-argument aggregates (string_agg(value, delimiter)): called instead
	 * of update when non-NULL; arg2 is the second argument */
	int (*update2)(FuncCtx *ctx, const Vector *arg, const Vector *arg2, uint32_t count,
		       void **states);
} AggFunc;

int func_resolve_agg(const char *name, const SqlType *argtypes, int nargs, bool star,
		     const AggFunc **out, SqlType *ret, SqlType *cast_to, floe_error *err);

/* Is f volatile (PostgreSQL's provolatile 'v': nextval, setval, currval,
 * lastval, random, clock_timestamp, ...)?  Such a call is evaluated for
 * every row and never folded to a constant. */
bool func_is_volatile(const ScalarFunc *f);

/* Does PostgreSQL cast TypeId from to TypeId to implicitly (pg_cast
 * castcontext 'i' among floe's types; sql/function.c's overloading)? */
bool func_implicit_cast(int from, int to);

/* Is name an aggregate func/ knows (count, sum, ..., string_agg, bit_or)? */
bool func_is_aggregate(const char *name);

/*
 * The current statement's start time (microseconds since 1970-01-01 UTC),
 * which now(), current_timestamp, current_date, localtimestamp, localtime,
 * transaction_timestamp() and statement_timestamp() return for every row
 * (PostgreSQL: the transaction's start; stable within a statement).  The
 * engine sets it when a statement starts; 0 = unset, and those functions
 * read the clock once per call.  clock_timestamp() always reads the clock.
 * Per thread: the engine sets it on the thread that runs the statement.
 */
void func_set_statement_time(int64_t micros_utc);
int64_t func_statement_time(void);   /* the value set (parallel workers copy it) */

/* PostgreSQL's format_type_be spelling (no typmods): "integer", "numeric". */
const char *func_type_name(SqlType t, char *buf, size_t n);

/*
 * LIKE/ILIKE on raw UTF-8 bytes with PostgreSQL's rules: % any sequence,
 * _ one character, esc (default '\\', -1 = none) quotes the next character;
 * a pattern ending in the escape is 22025.
 */
int func_like_match(const char *s, size_t slen, const char *p, size_t plen,
		    int esc, bool icase, bool *match, floe_error *err);

/* Every match of pattern in s as a text[] value of type arrtype, one row
 * each (func_regex.c; regexp_matches in FROM, exec/srf.c). */
int func_regexp_matches_rows(const strview *s, const strview *pat, const strview *flags,
			     SqlType arrtype, Arena *a, strview **rows, uint32_t *n,
			     floe_error *err);
/* PostgreSQL's format_type(oid, typmod) for the types floe knows, in buf
 * (func_pgcatalog.c; sql/pgcatalog.c's catalog columns). */
const char *func_pgcatalog_format_type(int64_t oid, int32_t typmod, char *buf, size_t n);

#endif
