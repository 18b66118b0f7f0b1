/*
 * func_registry.c — PostgreSQL's operator and function type resolution over
 * floe's signature tables.
 *
 * Implements the algorithm of PostgreSQL 15's documentation chapter 10
 * ("Type Conversion", sections 10.2 Operators and 10.3 Functions) and of
 * parse_func.c func_select_candidate / parse_oper.c oper_select_candidate,
 * for the types floe has:
 *
 *   1. candidates with the name and a matching number of arguments;
 *   2. an exact match wins (for a binary operator with one unknown side, the
 *      unknown side is assumed to be the other side's type);
 *   3. keep candidates every argument can be implicitly coerced to
 *      (pg_cast context 'i'; unknown coerces to anything, "any" accepts all);
 *   4. keep those with the most exact matches, then those accepting the
 *      most preferred types of the inputs' categories;
 *   5. resolve unknown arguments by category (string wins; else one
 *      category; prefer the category's preferred type);
 *   6. unknowns take the type of the known arguments when all agree;
 *   7. otherwise 42883 "does not exist" or 42725 "is not unique", with
 *      PostgreSQL's message and hint text.
 *
 * Aggregates resolve the same way over agg_basic.c's signature table.
 *
 * INTERFACE ROUTINES
 *   func_resolve_scalar(), func_resolve_agg(), func_refine_return(),
 *   func_type_name()
 *
 * Invariants: the returned ScalarFunc/AggFunc pointers are static; cast_to[i]
 * is the exact type the kernel reads argument i as (decimal arguments of
 * additive operators and comparisons are aligned to one scale).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "func/func_internal.h"
#include "types/udt.h"
#include "types/decimal.h"

/* agg_basic.c, agg_stats.c */
extern const ScalarFunc func_agg_sigs[];
extern const AggFunc *const func_agg_impls[];
extern const int func_agg_count;
extern const ScalarFunc func_agg_stats_sigs[];
extern const AggFunc *const func_agg_stats_impls[];
extern const int func_agg_stats_count;
/* func_json.c */
extern const ScalarFunc func_agg_json_sigs[];
extern const AggFunc *const func_agg_json_impls[];
extern const int func_agg_json_count;
/* agg_array.c */
extern const ScalarFunc func_agg_array_sigs[];
extern const AggFunc *const func_agg_array_impls[];
extern const int func_agg_array_count;


static const struct {
	const ScalarFunc *sigs;
	const AggFunc *const *impls;
	const int *n;
} agg_families[] = {
	{ func_agg_sigs, func_agg_impls, &func_agg_count },
	{ func_agg_stats_sigs, func_agg_stats_impls, &func_agg_stats_count },
	{ func_agg_array_sigs, func_agg_array_impls, &func_agg_array_count },
	{ func_agg_json_sigs, func_agg_json_impls, &func_agg_json_count },
};

/* func_pgcatalog.c */
extern const ScalarFunc func_pgcatalog_table[];
extern const int func_pgcatalog_count;

#define MAX_CANDS 64
#define MAX_ARGS 100

static const struct {
	const ScalarFunc *t;
	const int *n;
} families[] = {
	{ func_arith_table, &func_arith_count },
	{ func_compare_table, &func_compare_count },
	{ func_string_table, &func_string_count },
	{ func_like_table, &func_like_count },
	{ func_math_table, &func_math_count },
	{ func_datetime_table, &func_datetime_count },
	{ func_regex_table, &func_regex_count },
	{ func_pgcatalog_table, &func_pgcatalog_count },   /* func_pgcatalog.c */
};

const char *
func_type_name(SqlType t, char *buf, size_t n)
{
	if (t.udt && t.id != TYPE_ARRAY)
		return type_name(t, buf, n);   /* an enum's, a domain's name */
	switch (t.id) {
	case TYPE_ARRAY: {
		char eb[64];
		SqlType e = t;
		if (t.vector)
			return type_name(t, buf, n);   /* int2vector, oidvector */
		e.id = (TypeId)t.elem;
		e.elem = 0;
		snprintf(buf, n, "%s[]", func_type_name(e, eb, sizeof eb));
		return buf;
	}
	case TYPE_DECIMAL:
		snprintf(buf, n, "numeric");
		return buf;
	case TYPE_TEXT:
		snprintf(buf, n, "%s", t.text_kind == TEXT_VARCHAR ? "character varying" :
			 t.text_kind == TEXT_CHAR ? "character" : t.text_kind == TEXT_JSON ? "json" :
			 t.text_kind == TEXT_JSONB ? "jsonb" : t.text_kind == TEXT_JSONPATH ? "jsonpath" :
			 "text");
		return buf;
	default:
		return type_name(t, buf, n);
	}
}

/* TYPCATEGORY of pg_type. */
static char
category(int id)
{
	switch (id) {
	case TYPE_BOOL: return 'B';
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64:
	case TYPE_FLOAT32: case TYPE_FLOAT64: case TYPE_DECIMAL: return 'N';
	case TYPE_TEXT: return 'S';
	case TYPE_DATE: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: return 'D';
	case TYPE_INTERVAL: return 'T';
	case TYPE_NULL: return 'X';
	case FARG_ANY: case FARG_ANY_ASIS: return 'P';
	default: return 'U';
	}
}

static bool
preferred(int id)
{
	return id == TYPE_BOOL || id == TYPE_FLOAT64 || id == TYPE_TEXT ||
	       id == TYPE_TIMESTAMPTZ || id == TYPE_INTERVAL;
}

/* pg_cast entries with castcontext 'i' among floe's types. */
static bool
implicit_cast(int from, int to)
{
	if (from == to || from == TYPE_NULL || to == FARG_ANY || to == FARG_ANY_ASIS)
		return true;
	switch (from) {
	case TYPE_INT16:
		return to == TYPE_INT32 || to == TYPE_INT64 || to == TYPE_FLOAT32 ||
		       to == TYPE_FLOAT64 || to == TYPE_DECIMAL;
	case TYPE_INT32:
		return to == TYPE_INT64 || to == TYPE_FLOAT32 || to == TYPE_FLOAT64 ||
		       to == TYPE_DECIMAL;
	case TYPE_INT64:
		return to == TYPE_FLOAT32 || to == TYPE_FLOAT64 || to == TYPE_DECIMAL;
	case TYPE_FLOAT32:
		return to == TYPE_FLOAT64;
	case TYPE_DECIMAL:
		return to == TYPE_FLOAT32 || to == TYPE_FLOAT64;
	case TYPE_DATE:
		return to == TYPE_TIMESTAMP || to == TYPE_TIMESTAMPTZ;
	case TYPE_TIMESTAMP:
		return to == TYPE_TIMESTAMPTZ;
	case TYPE_TIME:
		return to == TYPE_INTERVAL;
	default:
		return false;
	}
}

bool
func_implicit_cast(int from, int to)
{
	return implicit_cast(from, to);
}

static int
argt(const ScalarFunc *f, int i)
{
	return i < f->nargs ? f->args[i] : f->nargs > 0 ? f->args[f->nargs - 1] : TYPE_NULL;
}

static bool
arity_ok(const ScalarFunc *f, int nargs)
{
	return f->variadic ? nargs >= f->nargs : nargs == f->nargs;
}

static bool
is_operator_name(const char *name)
{
	if (name[0] == 'u' && (name[1] == '-' || name[1] == '+'))   /* prefix operators */
		return true;
	return !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') ||
		 name[0] == '_');
}

static void
signature_text(char *buf, size_t n, const char *name, const SqlType *in, int nargs)
{
	char tb[64];
	size_t len;
	int i;

	if (is_operator_name(name)) {
		const char *op = name;
		if ((name[0] == 'u') && name[1])
			op = name + 1;
		if (nargs == 1)
			snprintf(buf, n, "%s %s", op, func_type_name(in[0], tb, sizeof tb));
		else {
			char tb2[64];
			snprintf(buf, n, "%s %s %s", func_type_name(in[0], tb, sizeof tb), op,
				 func_type_name(in[1], tb2, sizeof tb2));
		}
		return;
	}
	snprintf(buf, n, "%s(", name);
	for (i = 0; i < nargs; i++) {
		len = strlen(buf);
		snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
			 func_type_name(in[i], tb, sizeof tb));
	}
	len = strlen(buf);
	snprintf(buf + len, n - len, ")");
}

static int
not_found(floe_error *err, const char *name, const SqlType *in, int nargs, bool is_op)
{
	char sig[512];

	signature_text(sig, sizeof sig, name, in, nargs);
	if (is_op && nargs == 1) {
		floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "operator does not exist: %s", sig);
		return floe_error_hint(err, "No operator matches the given name and argument type. "
				       "You might need to add an explicit type cast.");
	}
	if (is_op) {
		floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "operator does not exist: %s", sig);
		return floe_error_hint(err, "No operator matches the given name and argument types. "
				       "You might need to add explicit type casts.");
	}
	floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist", sig);
	return floe_error_hint(err, "No function matches the given name and argument types. "
			       "You might need to add explicit type casts.");
}

static int
not_unique(floe_error *err, const char *name, const SqlType *in, int nargs, bool is_op)
{
	char sig[512];

	signature_text(sig, sizeof sig, name, in, nargs);
	if (is_op) {
		floe_errorf(err, ERRCODE_AMBIGUOUS_FUNCTION, "operator is not unique: %s", sig);
		return floe_error_hint(err, "Could not choose a best candidate operator. "
				       "You might need to add explicit type casts.");
	}
	floe_errorf(err, ERRCODE_AMBIGUOUS_FUNCTION, "function %s is not unique", sig);
	return floe_error_hint(err, "Could not choose a best candidate function. "
			       "You might need to add explicit type casts.");
}

/*
 * Choose one of cands[0..nc) for input types in[0..nargs).  Returns the
 * index, -1 when none applies, -2 when ambiguous.
 */
static int
select_candidate(const ScalarFunc **cands, int nc, const SqlType *in, int nargs, bool is_op)
{
	int keep[MAX_CANDS], nk = 0, i, j, c, best, nunknown = 0;

	/* exact match */
	for (c = 0; c < nc; c++) {
		for (i = 0; i < nargs; i++)
			if ((int)in[i].id != argt(cands[c], i))
				break;
		if (i == nargs)
			return c;
	}
	for (i = 0; i < nargs; i++)
		nunknown += in[i].id == TYPE_NULL;
	/* binary operator with one unknown side: assume it is the other's type */
	if (is_op && nargs == 2 && nunknown == 1) {
		int known = in[0].id == TYPE_NULL ? in[1].id : in[0].id;
		for (c = 0; c < nc; c++)
			if (argt(cands[c], 0) == known && argt(cands[c], 1) == known)
				return c;
	}
	/* implicitly coercible */
	for (c = 0; c < nc; c++) {
		for (i = 0; i < nargs; i++)
			if (!implicit_cast(in[i].id, argt(cands[c], i)))
				break;
		if (i == nargs)
			keep[nk++] = c;
	}
	if (nk == 0)
		return -1;
	if (nk == 1)
		return keep[0];
	/* most exact matches */
	{
		int score[MAX_CANDS], max = -1, n2 = 0;
		for (j = 0; j < nk; j++) {
			score[j] = 0;
			for (i = 0; i < nargs; i++)
				score[j] += (int)in[i].id == argt(cands[keep[j]], i);
			if (score[j] > max)
				max = score[j];
		}
		for (j = 0; j < nk; j++)
			if (score[j] == max)
				keep[n2++] = keep[j];
		nk = n2;
		if (nk == 1)
			return keep[0];
	}
	/* most exact-or-preferred matches among known inputs */
	{
		int score[MAX_CANDS], max = -1, n2 = 0;
		for (j = 0; j < nk; j++) {
			score[j] = 0;
			for (i = 0; i < nargs; i++) {
				int t = argt(cands[keep[j]], i);
				if (in[i].id == TYPE_NULL)
					continue;
				if ((int)in[i].id == t ||
				    (preferred(t) && category(t) == category(in[i].id)))
					score[j]++;
			}
			if (score[j] > max)
				max = score[j];
		}
		for (j = 0; j < nk; j++)
			if (score[j] == max)
				keep[n2++] = keep[j];
		nk = n2;
		if (nk == 1)
			return keep[0];
	}
	if (nunknown == 0)
		return -2;
	/* resolve unknown arguments by type category */
	{
		char slot_cat[MAX_ARGS];
		bool slot_pref[MAX_ARGS], resolved = true;
		for (i = 0; i < nargs && resolved; i++) {
			bool conflict = false;
			slot_cat[i] = 0;
			slot_pref[i] = false;
			if (in[i].id != TYPE_NULL)
				continue;
			for (j = 0; j < nk; j++) {
				int t = argt(cands[keep[j]], i);
				char cat = category(t);
				if (!slot_cat[i]) {
					slot_cat[i] = cat;
					slot_pref[i] = preferred(t);
				} else if (cat == slot_cat[i]) {
					slot_pref[i] |= preferred(t);
				} else if (cat == 'S') {
					slot_cat[i] = cat;
					slot_pref[i] = preferred(t);
				} else {
					conflict = true;
				}
			}
			if (conflict && slot_cat[i] != 'S')
				resolved = false;
		}
		if (resolved) {
			int n2 = 0;
			for (j = 0; j < nk; j++) {
				bool ok = true;
				for (i = 0; i < nargs && ok; i++) {
					int t = argt(cands[keep[j]], i);
					if (in[i].id != TYPE_NULL)
						continue;
					if (category(t) != slot_cat[i] || (slot_pref[i] && !preferred(t)))
						ok = false;
				}
				if (ok)
					keep[n2++] = keep[j];
			}
			if (n2 == 1)
				return keep[0];
			if (n2 > 0)
				nk = n2;
		}
	}
	/* unknowns take the type of the known arguments when those agree */
	if (nunknown < nargs) {
		int known = -1, n2 = 0;
		best = -1;
		for (i = 0; i < nargs; i++) {
			if (in[i].id == TYPE_NULL)
				continue;
			if (known >= 0 && known != (int)in[i].id)
				return -2;
			known = in[i].id;
		}
		for (j = 0; j < nk; j++) {
			for (i = 0; i < nargs; i++)
				if (in[i].id == TYPE_NULL && !implicit_cast(known, argt(cands[keep[j]], i)))
					break;
			if (i == nargs) {
				best = keep[j];
				n2++;
			}
		}
		if (n2 == 1)
			return best;
	}
	return -2;
}

static SqlType
decimal_of_int(TypeId id)
{
	switch (id) {
	case TYPE_INT16: return type_decimal(5, 0);
	case TYPE_INT32: return type_decimal(10, 0);
	case TYPE_INT64: return type_decimal(19, 0);
	default: return type_decimal(0, NUMERIC_DEFAULT_SCALE);
	}
}

static int
widen_group(int id)
{
	switch (id) {
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: return 1;
	case TYPE_FLOAT32: case TYPE_FLOAT64: return 2;
	case TYPE_DATE: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: return 3;
	default: return 0;
	}
}

static bool
is_comparison(const char *name)
{
	return !strcmp(name, "=") || !strcmp(name, "<>") || !strcmp(name, "<") ||
	       !strcmp(name, "<=") || !strcmp(name, ">") || !strcmp(name, ">=");
}

/* Fill cast_to[] and *ret for the chosen signature f. */
static void
finish(const ScalarFunc *f, const SqlType *in, int nargs, SqlType *ret, SqlType *cast_to)
{
	int i, smax = 0, ndec = 0;

	for (i = 0; i < nargs; i++) {
		int t = argt(f, i);
		if (t == FARG_ANY_ASIS) {
			/* unknown literals are text (pg_typeof reports them as unknown) */
			cast_to[i] = in[i].id == TYPE_NULL && strcmp(f->name, "pg_typeof") ?
				     type_make(TYPE_TEXT) : in[i];
		} else if (t == FARG_ANY) {
			cast_to[i] = in[i].id == TYPE_TEXT ? in[i] : type_make(TYPE_TEXT);
		} else if ((int)in[i].id == t) {
			cast_to[i] = in[i];
		} else if (t == TYPE_DECIMAL && in[i].id == TYPE_NULL) {
			/* an unknown literal as numeric: the scale of a known numeric
			 * argument (PostgreSQL keeps the literal's own; a fixed-scale
			 * column type cannot) */
			int j, sc = -1;
			for (j = 0; j < nargs; j++)
				if (in[j].id == TYPE_DECIMAL && in[j].scale > sc)
					sc = in[j].scale;
			cast_to[i] = sc >= 0 ? type_decimal(0, sc) : decimal_of_int(TYPE_NULL);
		} else if (t == TYPE_DECIMAL) {
			cast_to[i] = decimal_of_int(in[i].id);
		} else {
			cast_to[i] = type_make((TypeId)t);
		}
		if (cast_to[i].id == TYPE_DECIMAL) {
			ndec++;
			if (cast_to[i].scale > smax)
				smax = cast_to[i].scale;
		}
	}
	/* mixed-width signatures (int2 + int4, date < timestamp) run on the wider */
	if (nargs == 2 && f->args[0] != f->args[1] &&
	    widen_group(f->args[0]) && widen_group(f->args[0]) == widen_group(f->args[1])) {
		TypeId w = (TypeId)(f->args[0] > f->args[1] ? f->args[0] : f->args[1]);
		/* only where the kernel is homogeneous: comparisons and wider results
		 * (int2 << int4 stays int2 << int4) */
		if (f->ret == TYPE_BOOL || f->ret == w)
			cast_to[0] = cast_to[1] = type_make(w);
	}
	/* additive operators, mod and comparisons work on one common scale */
	if (ndec == nargs && nargs >= 2 &&
	    (f->ret_rule == FRET_DEC_ADD || f->ret_rule == FRET_DEC_INT || is_comparison(f->name))) {
		for (i = 0; i < nargs; i++)
			if (cast_to[i].scale != smax)
				cast_to[i] = type_decimal(0, smax);
	}
	switch (f->ret_rule) {
	case FRET_ARG0:
		*ret = cast_to[0];
		if (ret->id == TYPE_DECIMAL)
			*ret = type_decimal(0, ret->scale);
		else if (ret->id == TYPE_TEXT)
			*ret = type_make(TYPE_TEXT);
		break;
	case FRET_DEC_ADD:
		*ret = type_decimal(0, smax);
		break;
	case FRET_DEC_MUL:
		*ret = type_decimal(0, decimal_product_scale(cast_to[0].scale, cast_to[1].scale));
		break;
	case FRET_DEC_DIV:
		/* rows display at PostgreSQL's select_div_scale (decimal.h) */
		*ret = type_decimal(0, decimal_quotient_scale(cast_to[0].scale, cast_to[1].scale,
			decimal_type_int_digits(cast_to[0]), -(int)cast_to[1].scale));
		break;
	case FRET_DEC_ROUND:
		*ret = type_decimal(0, nargs == 1 ? 0 : cast_to[0].scale);
		break;
	case FRET_DEC_INT:
		*ret = type_decimal(0, 0);
		break;
	case FRET_DEC_SQRT:
		*ret = type_decimal(0, cast_to[0].scale > 15 ? cast_to[0].scale : 15);
		break;
	case FRET_DEC_FN:
		*ret = type_decimal(0, smax > f->ret ? smax : f->ret);
		break;
	default:
		*ret = type_make((TypeId)f->ret);
		break;
	}
}

/* json, jsonb and jsonpath have no implicit cast to text (PostgreSQL's category U):
 * a text signature does not take them, only "any" does (concat, format,
 * count, pg_typeof); their own operators and functions are func_json.c's */
static bool
json_args_ok(const ScalarFunc *f, const SqlType *in, int nargs)
{
	/* enums likewise (PostgreSQL: no implicit cast to text; func_enum.c) */
	for (int i = 0; i < nargs; i++)
		if ((type_is_json(in[i]) || type_is_jsonpath(in[i]) || type_is_enum(in[i])) &&
		    argt(f, i) != FARG_ANY &&
		    argt(f, i) != FARG_ANY_ASIS)
			return false;
	return true;
}

static bool
is_char(SqlType t)
{
	return t.id == TYPE_TEXT && t.text_kind == TEXT_CHAR;
}

/*
 * char(n) arguments, as PostgreSQL's bpchar: comparisons between char(n)
 * (or char(n) and an unknown literal) ignore trailing spaces (bpchareq...);
 * LIKE and octet_length see the padded value (bpcharlike, bpcharoctetlen),
 * pg_typeof the type;
 * everything else takes text,
 * whose cast from char(n) strips the padding (rtrim), so cast_to says text.
 */
static void
char_rules(const ScalarFunc **f, const SqlType *in, int nargs, SqlType *cast_to)
{
	const char *nm = (*f)->name;
	bool any = false, all = true;
	int i;

	for (i = 0; i < nargs; i++) {
		any |= is_char(in[i]);
		all &= is_char(in[i]) || in[i].id == TYPE_NULL;
	}
	if (!any)
		return;
	if (!strcmp(nm, "~~") || !strcmp(nm, "!~~") || !strcmp(nm, "~~*") || !strcmp(nm, "!~~*"))
		return;
	if ((!strcmp(nm, "octet_length") || !strcmp(nm, "pg_typeof")) && nargs == 1)
		return;           /* bpcharoctetlen: the padding counts; the type's name */
	if (is_comparison(nm) && nargs == 2 && all && (*f)->args[0] == TYPE_TEXT) {
		const ScalarFunc *bp = func_compare_bpchar(nm);
		if (bp)
			*f = bp;
		return;
	}
	for (i = 0; i < nargs; i++)
		if (is_char(cast_to[i]))
			cast_to[i] = type_make(TYPE_TEXT);
}

/* Every scalar signature sorted by name (ties in table order, the order
 * candidates were found in when the tables were scanned whole), built
 * once: a lookup is a binary search instead of a strcmp per signature
 * (binding a 1,000,000-element IN list resolves "=" a million times). */
typedef struct ByName {
	const ScalarFunc *f;
	int seq;                  /* position in the tables' scan order */
} ByName;
static ByName *by_name;
static int nby_name;
static pthread_once_t by_name_once = PTHREAD_ONCE_INIT;

static int
by_name_cmp(const void *a, const void *b)
{
	const ByName *x = a, *y = b;
	int c = strcmp(x->f->name, y->f->name);
	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static void
by_name_init(void)
{
	int fam, k, n = 0;
	for (fam = 0; fam < (int)(sizeof families / sizeof families[0]); fam++)
		n += *families[fam].n;
	by_name = malloc(sizeof *by_name * (size_t)(n ? n : 1));
	if (!by_name)
		abort();
	for (fam = 0; fam < (int)(sizeof families / sizeof families[0]); fam++)
		for (k = 0; k < *families[fam].n; k++) {
			by_name[nby_name].f = &families[fam].t[k];
			by_name[nby_name].seq = nby_name;
			nby_name++;
		}
	qsort(by_name, (size_t)nby_name, sizeof *by_name, by_name_cmp);
}

/* The index of the first signature named name (nby_name when none). */
static int
by_name_first(const char *name)
{
	int lo = 0, hi;
	pthread_once(&by_name_once, by_name_init);
	hi = nby_name;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(by_name[mid].f->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
func_resolve_scalar(const char *name, const SqlType *argtypes, int nargs,
		    const ScalarFunc **out, SqlType *ret, SqlType *cast_to, floe_error *err)
{
	const ScalarFunc *cands[MAX_CANDS];
	int nc = 0, k, pick;
	bool is_op = is_operator_name(name), handled;

	if (nargs < 0 || nargs > MAX_ARGS)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "cannot pass more than %d arguments to a function", MAX_ARGS);
	/* arrays: polymorphic signatures (func_array.c) */
	TRY(func_array_resolve(name, argtypes, nargs, out, ret, cast_to, &handled, err));
	if (handled)
		return FLOE_OK;
	/* json, jsonb (func_json.c) */
	TRY(func_json_resolve(name, argtypes, nargs, out, ret, cast_to, &handled, err));
	if (handled)
		return FLOE_OK;
	/* enums (func_enum.c) */
	TRY(func_enum_resolve(name, argtypes, nargs, out, ret, cast_to, &handled, err));
	if (handled)
		return FLOE_OK;
	for (k = by_name_first(name); k < nby_name && !strcmp(by_name[k].f->name, name); k++) {
		const ScalarFunc *f = by_name[k].f;
		if (arity_ok(f, nargs)) {
			if (nc == MAX_CANDS)
				return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
						   "too many candidates for %s", name);
			cands[nc++] = f;
		}
	}
	pick = nc ? select_candidate(cands, nc, argtypes, nargs, is_op) : -1;
	if (pick == -1)
		return not_found(err, name, argtypes, nargs, is_op);
	if (pick == -2)
		return not_unique(err, name, argtypes, nargs, is_op);
	if (!json_args_ok(cands[pick], argtypes, nargs))
		return not_found(err, name, argtypes, nargs, is_op);
	*out = cands[pick];
	finish(cands[pick], argtypes, nargs, ret, cast_to);
	char_rules(out, argtypes, nargs, cast_to);
	return FLOE_OK;
}

int
func_resolve_agg(const char *name, const SqlType *argtypes, int nargs, bool star,
		 const AggFunc **out, SqlType *ret, SqlType *cast_to, floe_error *err)
{
	const ScalarFunc *cands[MAX_CANDS];
	const AggFunc *impl[MAX_CANDS];
	int nc = 0, k, fam, pick;

	if (star) {
		if (strcmp(name, "count") || nargs != 0) {
			char sig[256];
			snprintf(sig, sizeof sig, "%s(*)", name);
			floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE,
				    "%s specified, but %s is not an aggregate function", sig, name);
			return FLOE_ERR;
		}
	}
	if (nargs == 1 && type_is_enum(argtypes[0]) && (!strcmp(name, "min") || !strcmp(name, "max"))) {
		*out = func_agg_enum_minmax(name);   /* by the labels' order */
		*ret = cast_to[0] = argtypes[0];
		return FLOE_OK;
	}
	for (fam = 0; fam < (int)(sizeof agg_families / sizeof agg_families[0]); fam++)
		for (k = 0; k < *agg_families[fam].n; k++) {
			const ScalarFunc *f = &agg_families[fam].sigs[k];
			if (strcmp(f->name, name) || star != (f->nargs == 0))
				continue;
			if (arity_ok(f, nargs) && nc < MAX_CANDS) {
				impl[nc] = agg_families[fam].impls[k];
				cands[nc++] = f;
			}
		}
	pick = nc ? select_candidate(cands, nc, argtypes, nargs, false) : -1;
	if (pick == -1)
		return not_found(err, name, argtypes, nargs, false);
	if (pick == -2)
		return not_unique(err, name, argtypes, nargs, false);
	if (strcmp(name, "array_agg") && !json_args_ok(cands[pick], argtypes, nargs))
		return not_found(err, name, argtypes, nargs, false);
	*out = impl[pick];
	finish(cands[pick], argtypes, nargs, ret, cast_to);
	for (k = 0; k < nargs; k++)         /* count(any) reads its argument as is */
		if (argt(cands[pick], k) == FARG_ANY)
			cast_to[k] = argtypes[k];
	/* numeric results of aggregates: sum keeps the scale, avg divides */
	if (!strcmp(name, "sum") && ret->id == TYPE_DECIMAL)
		*ret = type_decimal(0, cast_to[0].id == TYPE_DECIMAL ? cast_to[0].scale : 0);
	if (!strcmp(name, "avg") && ret->id == TYPE_DECIMAL) {
		int s = cast_to[0].id == TYPE_DECIMAL ? cast_to[0].scale : 0;
		*ret = type_decimal(0, decimal_quotient_scale(s, 0, decimal_type_int_digits(cast_to[0]), 0));
	}
	/* variance/stddev of integers and numeric: scale 20 (2s when larger),
	 * which holds PostgreSQL's select_div_scale for results down to 1e-4
	 * (16 significant digits: 0.5 prints 0.50000000000000000000); each
	 * row's own scale is its display scale (agg_stats.c) */
	if (ret->id == TYPE_DECIMAL && (strstr(name, "var") || strstr(name, "stddev"))) {
		int s2 = cast_to[0].id == TYPE_DECIMAL ? 2 * cast_to[0].scale : 0;
		*ret = type_decimal(0, s2 > 20 ? (s2 > 30 ? 30 : s2) : 20);
	}
	/* array_agg(x): an array of x's type (arrays of arrays: 0A000) */
	if (!strcmp(name, "array_agg")) {
		SqlType e = cast_to[0];
		if (e.id == TYPE_ARRAY)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "array_agg of arrays (multidimensional arrays) is not supported");
		if (e.id == TYPE_NULL)
			e = cast_to[0] = type_make(TYPE_TEXT);
		*ret = e;
		ret->elem = (uint8_t)e.id;
		ret->id = TYPE_ARRAY;
	}
	if (!strcmp(name, "json_agg") || !strcmp(name, "jsonb_agg") ||
	    !strcmp(name, "json_object_agg") || !strcmp(name, "jsonb_object_agg"))
		*ret = type_json(name[4] == 'b');
	/* min/max(varchar) is text; min/max(char(n)) stays character */
	if ((!strcmp(name, "min") || !strcmp(name, "max")) && ret->id == TYPE_TEXT)
		*ret = cast_to[0].text_kind == TEXT_CHAR ? cast_to[0] : type_make(TYPE_TEXT);
	return FLOE_OK;
}

void
func_refine_return(const ScalarFunc *f, const Value *const *consts, int nargs, SqlType *ret)
{
	/* exp, ln, power... of constants: exactly PostgreSQL's scale (func_math.c) */
	if (f->ret_rule == FRET_DEC_FN && ret->precision == 0) {
		int sc = func_math_const_scale(f, consts, nargs);
		if (sc >= 0)
			ret->scale = (uint8_t)sc;
	}
	/* a quotient of two constants: exactly PostgreSQL's scale (1e-10 / 3) */
	if (f->ret_rule == FRET_DEC_DIV && nargs == 2 && ret->precision == 0 && consts &&
	    consts[0] && consts[1] && !consts[0]->is_null && !consts[1]->is_null &&
	    consts[0]->type.id == TYPE_DECIMAL && consts[1]->type.id == TYPE_DECIMAL &&
	    consts[1]->u.d != 0) {
		int128 q;
		int sq;
		floe_error e;
		int z0 = consts[0]->dzeros, z1 = consts[1]->dzeros;
		if (decimal_div(consts[0]->u.d / decimal_pow10(z0), consts[0]->type.scale - z0,
				consts[1]->u.d / decimal_pow10(z1), consts[1]->type.scale - z1,
				&q, &sq, &e) == FLOE_OK)
			ret->scale = (uint8_t)sq;
	}
	/* a product of two constants: exactly the sum of their scales */
	if (f->ret_rule == FRET_DEC_MUL && nargs == 2 && ret->precision == 0 && consts &&
	    consts[0] && consts[1] && !consts[0]->is_null && !consts[1]->is_null &&
	    consts[0]->type.id == TYPE_DECIMAL && consts[1]->type.id == TYPE_DECIMAL) {
		int s = consts[0]->type.scale + consts[1]->type.scale;
		ret->scale = (uint8_t)(s > DECIMAL_MAX_SCALE ? DECIMAL_MAX_SCALE : s);
	}
	if (f->ret_rule == FRET_DEC_ROUND && nargs == 2 && ret->id == TYPE_DECIMAL && consts &&
	    consts[1] && !consts[1]->is_null && type_is_integer(consts[1]->type.id)) {
		int64_t n = consts[1]->u.i;
		ret->scale = (uint8_t)(n < 0 ? 0 : n > DECIMAL_MAX_PRECISION ? DECIMAL_MAX_PRECISION : n);
	}
	/* to_number(s, template): the fraction digits it reads (func_math.c) */
	if (!strcmp(f->name, "to_number") && nargs == 2 && ret->id == TYPE_DECIMAL)
		ret->scale = (uint8_t)func_to_number_scale(consts);
	/* extract(field from x) is numeric with a scale fixed by the field */
	if (!strcmp(f->name, "extract") && nargs == 2 && consts && consts[0] &&
	    !consts[0]->is_null && consts[0]->type.id == TYPE_TEXT) {
		char fld[32];
		const strview *s = &consts[0]->u.s;
		uint32_t i, n = s->len < sizeof fld - 1 ? s->len : (uint32_t)sizeof fld - 1;
		int scale = 0;
		for (i = 0; i < n; i++) {
			char c = strview_data(s)[i];
			fld[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
		}
		fld[n] = 0;
		if (f->args[1] != TYPE_DATE) {
			if (!strcmp(fld, "second") || !strcmp(fld, "seconds") || !strcmp(fld, "epoch"))
				scale = 6;
			else if (!strcmp(fld, "milliseconds") || !strcmp(fld, "millisecond"))
				scale = 3;
			else if (!strcmp(fld, "julian"))
				return;         /* fractional days: keep double precision */
		}
		*ret = type_decimal(0, scale);
	}
}

bool
func_is_aggregate(const char *name)
{
	int fam, k;

	for (fam = 0; fam < (int)(sizeof agg_families / sizeof agg_families[0]); fam++)
		for (k = 0; k < *agg_families[fam].n; k++)
			if (!strcmp(agg_families[fam].sigs[k].name, name))
				return true;
	return false;
}

bool
func_is_volatile(const ScalarFunc *f)
{
	static const char *const names[] = { "nextval", "currval", "setval", "lastval", "random",
					     "clock_timestamp", "timeofday", "gen_random_uuid",
					     "setseed", "set_config" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(f->name, names[i]))
			return true;
	return false;
}
