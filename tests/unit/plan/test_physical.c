/*
 * test_physical.c — plan/physical.h: logical plans built by hand over
 * VALUES are lowered to exec/ operators and run; their rows are what the
 * SQL they stand for gives in PostgreSQL 15 (written next to each case).
 * Kinds not lowered yet fail with 0A000 naming them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "func/func.h"
#include "plan/physical.h"
#include "plan_test.h"
#include "types/text.h"

static volatile int Cancel;
static ExecCtx Ctx;

static int
setup(void **state)
{
	(void)state;
	A = arena_new(1 << 16);
	floe_error_clear(&E);
	Cancel = 0;
	memset(&Ctx, 0, sizeof Ctx);
	Ctx.arena = A;
	Ctx.err = &E;
	Ctx.cancel = &Cancel;
	Ctx.threads = 1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	arena_free(A);
	return 0;
}



static Expr *
str(const char *s)
{
	Value v;
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_TEXT);
	v.u.s = strview_make(arena_strdup(A, s), (uint32_t)strlen(s));
	return expr_const(A, &v);
}


/* VALUES (1, 'a', 10), (2, 'b', 20), (3, 'a', 30), (4, 'c', 40) AS t(id, v, x) */
static LogicalOp *
values_t(LogicalPlan *p)
{
	static const char *const vs[] = { "a", "b", "a", "c" };
	LogicalOp *op = lop_new(p, LOP_VALUES, 0);
	lop_add_column(p, op, type_make(TYPE_INT32), "id");
	lop_add_column(p, op, type_make(TYPE_TEXT), "v");
	lop_add_column(p, op, type_make(TYPE_INT32), "x");
	op->nrows = 4;
	op->rows = arena_alloc(A, sizeof *op->rows * 4);
	for (int r = 0; r < 4; r++) {
		op->rows[r] = arena_alloc(A, sizeof **op->rows * 3);
		op->rows[r][0] = num(r + 1);
		op->rows[r][1] = str(vs[r]);
		op->rows[r][2] = num(10 * (r + 1));
	}
	return op;
}

/* lower, run, and return the rows as "c1|c2\n" lines */
static const char *
run(LogicalPlan *p, LogicalOp *root)
{
	Operator *op;
	Batch *b;
	char *out = arena_strdup(A, "");

	if (lplan_verify(p, root, &E) != FLOE_OK)
		fail_msg("verify: %s", E.message);
	op = physical_lower(&Ctx, p, root);
	if (!op)
		fail_msg("lowering failed: %s", E.message);
	assert_int_equal(op->ncols, root->ncols);
	assert_int_equal(op_open(op), FLOE_OK);
	for (;;) {
		assert_int_equal(op_next(op, &b), FLOE_OK);
		if (!b)
			break;
		for (uint32_t i = 0; i < b->count; i++) {
			uint32_t k = b->sel ? b->sel[i] : i;
			for (int c = 0; c < b->ncols; c++) {
				Value v;
				size_t len;
				const char *t;
				vector_display_value(&b->cols[c], k, &v);
				t = value_to_text(&v, A, &len);
				out = arena_sprintf(A, "%s%s%s", out, c ? "|" : "", t ? t : "NULL");
			}
			out = arena_sprintf(A, "%s\n", out);
		}
	}
	op_close(op);
	return out;
}

/* SELECT v, sum(x) FROM t WHERE id > 1 GROUP BY v ORDER BY 2 DESC LIMIT 2
 *   -> c|40, a|30 */
static void
test_physical__filter_aggregate_sort_limit(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *t = values_t(p), *f, *agg, *s, *l;
	Expr *pred, *key;

	(void)state;
	f = lop_new(p, LOP_FILTER, 1, t);
	pred = binop(">", col(t, 0), num(1));
	lop_set_exprs(p, f, 1, &pred);
	lop_pass_columns(p, f, t);
	agg = lop_new(p, LOP_AGGREGATE, 1, f);
	key = col(f, 1);
	lop_set_exprs(p, agg, 1, &key);
	lop_add_column(p, agg, key->type, "v");
	add_sum(p, agg, col(f, 2));
	s = sort_by(p, agg, 1, true);
	l = lop_new(p, LOP_LIMIT, 1, s);
	l->limit = num(2);
	lop_pass_columns(p, l, s);
	assert_string_equal(run(p, l), "c|40\na|30\n");
}

/* SELECT id * 100 + x FROM t ORDER BY x % 20, id DESC: a sort key that is
 * an expression (computed below the sort, dropped above it)
 *   -> x % 20 = 0 for 20, 40 (ids 4, 2), 10 for 10, 30 (ids 3, 1) */
static void
test_physical__project_and_expression_sort(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *t = values_t(p), *s, *pr;
	Expr *e;

	(void)state;
	s = lop_new(p, LOP_SORT, 1, t);
	s->nkeys = 2;
	s->keys = arena_calloc(A, sizeof *s->keys * 2);
	s->keys[0].e = binop("%", col(t, 2), num(20));
	s->keys[1].e = col(t, 0);
	s->keys[1].desc = true;
	s->keys[1].nulls_first = true;
	lop_pass_columns(p, s, t);
	pr = lop_new(p, LOP_PROJECT, 1, s);
	e = binop("+", binop("*", col(s, 0), num(100)), col(s, 2));
	lop_set_exprs(p, pr, 1, &e);
	lop_add_column(p, pr, e->type, "y");
	assert_string_equal(run(p, pr), "440\n220\n330\n110\n");
}

/* SELECT a.id, b.id FROM t a JOIN t b ON a.v = b.v AND a.id < b.id
 *   -> 1|3 (the two 'a' rows): a hash key plus a residual */
static void
test_physical__join_keys_and_residual(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *a = values_t(p), *b = values_t(p), *j, *pr;
	Expr *cond[2], *out[2];

	(void)state;
	j = lop_new(p, LOP_JOIN, 2, a, b);
	j->join = LJ_INNER;
	cond[0] = binop("=", col(b, 1), col(a, 1));   /* sides swapped: still a key */
	cond[1] = binop("<", col(a, 0), col(b, 0));
	lop_set_exprs(p, j, 2, cond);
	lop_pass_columns(p, j, a);
	lop_pass_columns(p, j, b);
	pr = lop_new(p, LOP_PROJECT, 1, j);
	out[0] = col(a, 0);
	out[1] = col(b, 0);
	lop_set_exprs(p, pr, 2, out);
	lop_add_column(p, pr, out[0]->type, "id");
	lop_add_column(p, pr, out[1]->type, "id");
	assert_string_equal(run(p, pr), "1|3\n");
}

/* t a JOIN t b (kind, ON a.v = b.v if keyed) with the inputs' estimates */
static LogicalOp *
est_join(LogicalPlan *p, LogicalJoinKind kind, bool keyed, double la, double lb)
{
	LogicalOp *a = values_t(p), *b = values_t(p), *j;
	Expr *cond = binop("=", col(a, 1), col(b, 1));

	a->est_rows = la;
	b->est_rows = lb;
	j = lop_new(p, LOP_JOIN, 2, a, b);
	j->join = kind;
	if (keyed)
		lop_set_exprs(p, j, 1, &cond);
	lop_pass_columns(p, j, a);
	if (kind != LJ_SEMI && kind != LJ_ANTI)
		lop_pass_columns(p, j, b);
	return j;
}

/* physical.c picks the build side from the inputs' estimates (the smaller
 * one when both are known, else the right; SEMI/ANTI always the right) and
 * gives INNER/outer joins the estimate the binder's make_join gave them
 * (the larger input with keys, the product without); the rows are the
 * same whichever side is built: the 'a' rows pair up 2 x 2, b and c once
 * each -> 6 rows; a semi join keeps all 4 left rows */
static void
test_physical__join_build_side_and_estimate(void **state)
{
	static const struct {
		LogicalJoinKind kind;
		bool keyed;
		double la, lb;
		bool build_left;
		double est;
		const char *label;
		int rows;
	} cases[] = {
		{ LJ_INNER, true, 10, 1000, true, 1000, "Hash Join", 6 },
		{ LJ_INNER, true, 1000, 10, false, 1000, "Hash Join", 6 },
		{ LJ_INNER, true, 10, 10, false, 10, "Hash Join", 6 },
		{ LJ_INNER, true, -1, 1000, false, -1, "Hash Join", 6 },
		{ LJ_INNER, true, 10, -1, false, -1, "Hash Join", 6 },
		{ LJ_LEFT, true, 5, 50, true, 50, "Hash Left Join", 6 },
		{ LJ_CROSS, false, 3, 7, true, 21, "Nested Loop", 16 },
		{ LJ_CROSS, false, 7, 3, false, 21, "Nested Loop", 16 },
		{ LJ_SEMI, true, 1, 1000, false, -1, "Hash Semi Join", 4 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		LogicalPlan *p = lplan_new(A);
		LogicalOp *j = est_join(p, cases[i].kind, cases[i].keyed, cases[i].la, cases[i].lb);
		Operator *op;
		const char *rows;
		int n = 0;

		assert_int_equal(lplan_verify(p, j, &E), FLOE_OK);
		op = physical_lower(&Ctx, p, j);
		assert_non_null(op);
		assert_string_equal(op->label, cases[i].label);
		assert_int_equal(op->ninputs, 2);
		/* the probe input is the one not built */
		assert_ptr_equal(hash_join_probe_input(op), op->inputs[cases[i].build_left ? 1 : 0]);
		assert_true(op->est_rows == cases[i].est);
		rows = run(p, j);
		for (const char *c = rows; *c; c++)
			n += *c == '\n';
		assert_int_equal(n, cases[i].rows);
	}
}

/* VALUES of one int4 column k: n values, 0 standing for NULL */
static LogicalOp *
values_k(LogicalPlan *p, int n, const int *ks)
{
	LogicalOp *op = lop_new(p, LOP_VALUES, 0);
	lop_add_column(p, op, type_make(TYPE_INT32), "k");
	op->nrows = n;
	op->rows = arena_alloc(A, sizeof *op->rows * (size_t)(n + 1));
	for (int r = 0; r < n; r++) {
		Value nv = value_null(type_make(TYPE_INT32));
		op->rows[r] = arena_alloc(A, sizeof **op->rows);
		op->rows[r][0] = ks[r] ? num(ks[r]) : expr_const(A, &nv);
	}
	return op;
}

/* SELECT id FROM t WHERE id [NOT] IN / NOT EXISTS (the right rows): ANTI
 * null_aware lowers to exec's NOT IN join (a NULL on the right removes
 * every row, PostgreSQL's NOT IN), plain ANTI to NOT EXISTS (NULL never
 * matches), SEMI to IN */
static void
test_physical__semi_anti_null_aware(void **state)
{
	static const int two_null[] = { 2, 0 }, two[] = { 2 }, nine[] = { 9 };
	static const struct {
		LogicalJoinKind kind;
		bool null_aware;
		int n;
		const int *ks;
		const char *rows;
	} cases[] = {
		{ LJ_ANTI, true, 2, two_null, "" },
		{ LJ_ANTI, true, 1, two, "1\n3\n4\n" },
		{ LJ_ANTI, true, 1, nine, "1\n2\n3\n4\n" },
		{ LJ_ANTI, false, 2, two_null, "1\n3\n4\n" },
		{ LJ_SEMI, false, 2, two_null, "2\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		LogicalPlan *p = lplan_new(A);
		LogicalOp *a = values_t(p), *b = values_k(p, cases[i].n, cases[i].ks), *j, *pr;
		Expr *cond = binop("=", col(a, 0), col(b, 0)), *out;

		j = lop_new(p, LOP_JOIN, 2, a, b);
		j->join = cases[i].kind;
		j->null_aware = cases[i].null_aware;
		lop_set_exprs(p, j, 1, &cond);
		lop_pass_columns(p, j, a);
		pr = lop_new(p, LOP_PROJECT, 1, j);
		out = col(a, 0);
		lop_set_exprs(p, pr, 1, &out);
		lop_add_column(p, pr, out->type, "id");
		assert_string_equal(run(p, pr), cases[i].rows);
	}
}

/* SELECT id, id IN (SELECT k ...) / EXISTS (SELECT 1 ... WHERE k = id)
 * FROM t: a MARK join keeps every left row and adds the mark, three-valued
 * for IN (null_aware: NULL when no k matches and a k is NULL, or, tested
 * on the pairs the key lets through, when IN's comparison is NULL) and
 * never NULL for EXISTS; the right side empty: false for both */
static void
test_physical__mark(void **state)
{
	static const int two_null[] = { 2, 0 }, two[] = { 2 }, nine[] = { 9 };
	static const struct {
		bool null_aware;
		bool cmp_null;      /* a second conjunct: id = k AND (v = NULL), IN's the last */
		int n;
		const int *ks;
		const char *rows;
	} cases[] = {
		{ true, false, 2, two_null, "1|NULL\n2|t\n3|NULL\n4|NULL\n" },
		{ true, false, 1, two, "1|f\n2|t\n3|f\n4|f\n" },
		{ true, false, 1, nine, "1|f\n2|f\n3|f\n4|f\n" },
		{ true, false, -1, nine, "1|f\n2|f\n3|f\n4|f\n" },      /* -1: Filter k > 100 over it */
		{ false, false, 2, two_null, "1|f\n2|t\n3|f\n4|f\n" },
		{ true, true, 2, two_null, "1|f\n2|NULL\n3|f\n4|f\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		LogicalPlan *p = lplan_new(A);
		LogicalOp *a = values_t(p), *b = values_k(p, cases[i].n < 0 ? 1 : cases[i].n, cases[i].ks), *j, *pr;
		Expr *cond[2] = { binop("=", col(a, 0), col(b, 0)), NULL }, *out[2];
		Operator *op;

		if (cases[i].n < 0) {
			Expr *f = binop(">", col(b, 0), num(100));
			LogicalOp *fl = lop_new(p, LOP_FILTER, 1, b);
			lop_set_exprs(p, fl, 1, &f);
			lop_pass_columns(p, fl, b);
			b = fl;
		}

		if (cases[i].cmp_null) {
			Value nv = value_null(type_make(TYPE_TEXT));
			cond[1] = binop("=", col(a, 1), expr_const(A, &nv));
		}
		j = lop_new(p, LOP_JOIN, 2, a, b);
		j->join = LJ_MARK;
		j->null_aware = cases[i].null_aware;
		lop_set_exprs(p, j, cond[1] ? 2 : 1, cond);
		lop_pass_columns(p, j, a);
		lop_add_column(p, j, type_make(TYPE_BOOL), "mark");
		pr = lop_new(p, LOP_PROJECT, 1, j);
		out[0] = col(a, 0);
		out[1] = col(j, a->ncols);
		lop_set_exprs(p, pr, 2, out);
		lop_add_column(p, pr, out[0]->type, "id");
		lop_add_column(p, pr, out[1]->type, "m");
		assert_string_equal(run(p, pr), cases[i].rows);
		op = physical_lower(&Ctx, p, j);
		assert_non_null(op);
		assert_string_equal(op->label, "Hash Mark Join");
	}
}

/* a = b over intervals is no hash key (equal intervals may differ in their
 * bytes: '1 day' and '24 hours'): a nested loop with the residual */
static void
test_physical__join_unhashable_key(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *a = lop_new(p, LOP_VALUES, 0), *b = lop_new(p, LOP_VALUES, 0), *j;
	Value v;
	Expr *cond;
	Operator *op;

	(void)state;
	memset(&v, 0, sizeof v);
	v.type = type_make(TYPE_INTERVAL);
	v.u.iv.days = 1;
	for (int s = 0; s < 2; s++) {
		LogicalOp *side = s ? b : a;
		lop_add_column(p, side, v.type, "i");
		side->nrows = 1;
		side->rows = arena_alloc(A, sizeof *side->rows);
		side->rows[0] = arena_alloc(A, sizeof **side->rows);
		side->rows[0][0] = expr_const(A, &v);
	}
	cond = binop("=", col(a, 0), col(b, 0));
	j = lop_new(p, LOP_JOIN, 2, a, b);
	j->join = LJ_INNER;
	lop_set_exprs(p, j, 1, &cond);
	lop_pass_columns(p, j, a);
	lop_pass_columns(p, j, b);
	assert_int_equal(lplan_verify(p, j, &E), FLOE_OK);
	op = physical_lower(&Ctx, p, j);
	assert_non_null(op);
	assert_string_equal(op->label, "Nested Loop");
}

/* SELECT v FROM t UNION SELECT v FROM t ORDER BY 1 -> a, b, c; with ALL: 8 rows */
static void
test_physical__union(void **state)
{
	LogicalPlan *p;
	LogicalOp *pa, *pb, *u, *s, *t1, *t2;
	Expr *e;

	(void)state;
	for (int all = 0; all <= 1; all++) {
		p = lplan_new(A);
		t1 = values_t(p);
		t2 = values_t(p);
		pa = lop_new(p, LOP_PROJECT, 1, t1);
		e = col(t1, 1);
		lop_set_exprs(p, pa, 1, &e);
		lop_add_column(p, pa, e->type, "v");
		pb = lop_new(p, LOP_PROJECT, 1, t2);
		e = col(t2, 1);
		lop_set_exprs(p, pb, 1, &e);
		lop_add_column(p, pb, e->type, "v");
		u = lop_new(p, LOP_SETOP, 2, pa, pb);
		u->setop = LSET_UNION;
		u->all = all;
		lop_add_column(p, u, type_make(TYPE_TEXT), "v");
		s = lop_new(p, LOP_SORT, 1, u);
		s->nkeys = 1;
		s->keys = arena_calloc(A, sizeof *s->keys);
		s->keys[0].e = col(u, 0);
		lop_pass_columns(p, s, u);
		assert_string_equal(run(p, s), all ? "a\na\na\na\nb\nb\nc\nc\n" : "a\nb\nc\n");
	}
}

/* SELECT v, sum(x), grouping(v) FROM t GROUP BY ROLLUP (v) ORDER BY 3, 1
 *   -> a|40|0, b|20|0, c|40|0, NULL|100|1 */
static void
test_physical__grouping_sets(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *t = values_t(p), *agg, *s;
	Expr *key = col(t, 1);
	static int gkey[1] = { 0 };

	(void)state;
	agg = lop_new(p, LOP_AGGREGATE, 1, t);
	lop_set_exprs(p, agg, 1, &key);
	lop_add_column(p, agg, key->type, "v");
	add_sum(p, agg, col(t, 2));
	agg->nsets = 2;
	agg->sets = arena_alloc(A, sizeof *agg->sets * 2);
	agg->sets[0] = 1;
	agg->sets[1] = 0;
	agg->ngroupings = 1;
	agg->groupings = arena_calloc(A, sizeof *agg->groupings);
	agg->groupings[0].nargs = 1;
	agg->groupings[0].keys = gkey;
	lop_add_column(p, agg, type_make(TYPE_INT32), "grouping");
	s = sort_by(p, agg, 2, false);
	s->nkeys = 2;
	s->keys = arena_realloc(A, s->keys, sizeof *s->keys, sizeof *s->keys * 2);
	s->keys[1].e = col(agg, 0);
	s->keys[1].desc = false;
	s->keys[1].nulls_first = false;
	assert_string_equal(run(p, s), "a|40|0\nb|20|0\nc|40|0\nNULL|100|1\n");
}

/* SELECT DISTINCT ON (v) v, id FROM t ORDER BY v, id DESC -> a|3, b|2, c|4 */
static void
test_physical__distinct_on(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *t = values_t(p), *d, *s;

	(void)state;
	d = lop_new(p, LOP_DISTINCT, 1, t);
	lop_pass_columns(p, d, t);
	d->nexprs = 1;
	d->exprs = arena_alloc(A, sizeof *d->exprs);
	d->exprs[0] = col(t, 1);
	d->nkeys = 2;
	d->keys = arena_calloc(A, sizeof *d->keys * 2);
	d->keys[0].e = col(t, 1);
	d->keys[1].e = col(t, 0);
	d->keys[1].desc = d->keys[1].nulls_first = true;
	s = sort_by(p, d, 1, false);
	assert_string_equal(run(p, s), "3|a|30\n2|b|20\n4|c|40\n");
}

/* SELECT v FROM t ORDER BY v FETCH FIRST 1 ROW WITH TIES -> a, a; with
 * OFFSET 2 -> b (the row after the two a's, no peers) */
static void
test_physical__with_ties(void **state)
{
	(void)state;
	for (int off = 0; off <= 2; off += 2) {
		LogicalPlan *p = lplan_new(A);
		LogicalOp *t = values_t(p), *s, *l, *pr;
		Expr *e;
		s = sort_by(p, t, 1, false);
		l = lop_new(p, LOP_LIMIT, 1, s);
		l->limit = num(1);
		l->offset = off ? num(off) : NULL;
		l->with_ties = true;
		lop_pass_columns(p, l, s);
		pr = lop_new(p, LOP_PROJECT, 1, l);
		e = col(l, 1);
		lop_set_exprs(p, pr, 1, &e);
		lop_add_column(p, pr, e->type, "v");
		assert_string_equal(run(p, pr), off ? "b\n" : "a\na\n");
	}
}

/* SELECT v FROM t INTERSECT [ALL] SELECT v FROM t WHERE id > 2 ORDER BY 1
 *   -> a, c (ALL: a once, as the right side has one 'a'); EXCEPT -> b */
static void
test_physical__intersect_except(void **state)
{
	static const struct { LogicalSetOpKind k; bool all; const char *want; } cases[] = {
		{ LSET_INTERSECT, false, "a\nc\n" }, { LSET_INTERSECT, true, "a\nc\n" },
		{ LSET_EXCEPT, false, "b\n" }, { LSET_EXCEPT, true, "a\nb\n" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		LogicalPlan *p = lplan_new(A);
		LogicalOp *t1 = values_t(p), *t2 = values_t(p), *f, *pa, *pb, *op, *s;
		Expr *e, *pred;
		pa = lop_new(p, LOP_PROJECT, 1, t1);
		e = col(t1, 1);
		lop_set_exprs(p, pa, 1, &e);
		lop_add_column(p, pa, e->type, "v");
		f = lop_new(p, LOP_FILTER, 1, t2);
		pred = binop(">", col(t2, 0), num(2));
		lop_set_exprs(p, f, 1, &pred);
		lop_pass_columns(p, f, t2);
		pb = lop_new(p, LOP_PROJECT, 1, f);
		e = col(f, 1);
		lop_set_exprs(p, pb, 1, &e);
		lop_add_column(p, pb, e->type, "v");
		op = lop_new(p, LOP_SETOP, 2, pa, pb);
		op->setop = cases[i].k;
		op->all = cases[i].all;
		lop_add_column(p, op, type_make(TYPE_TEXT), "v");
		s = sort_by(p, op, 0, false);
		assert_string_equal(run(p, s), cases[i].want);
	}
}

/* An OPERATOR leaf lowers to the operator it holds; parameters pass
 * through (EXPR_PARAM_BASE + 0 = 7 here) */
static void
test_physical__operator_leaf(void **state)
{
	LogicalPlan *p = lplan_new(A), *q = lplan_new(A);
	LogicalOp *t = values_t(q), *leaf, *pr;
	Operator *built = physical_lower(&Ctx, q, t);
	Expr *e;
	Value seven = value_int(TYPE_INT32, 7);

	(void)state;
	assert_non_null(built);
	leaf = lop_operator(p, built, NULL);
	assert_int_equal(leaf->ncols, 3);
	Ctx.nparams = 1;
	Ctx.params = &seven;
	pr = lop_new(p, LOP_PROJECT, 1, leaf);
	e = binop("+", col(leaf, 0), expr_colref(A, EXPR_PARAM_BASE, type_make(TYPE_INT32)));
	lop_set_exprs(p, pr, 1, &e);
	lop_add_column(p, pr, e->type, "y");
	assert_string_equal(run(p, pr), "8\n9\n10\n11\n");
	Ctx.nparams = 0;
	Ctx.params = NULL;
}

/* A GET lowers through its table source's scan callback (here: the rows of
 * values_t, lowered from a plan of their own); the callback sees the node.
 * A scan of another width than the Get's columns is XX000. */
static int scan_calls;

static Operator *
test_scan(ExecCtx *ctx, const LogicalOp *get, const void *arg)
{
	LogicalPlan *q = lplan_new(A);

	assert_ptr_equal(arg, &scan_calls);
	assert_string_equal(get->name, "t");
	scan_calls++;
	return physical_lower(ctx, q, values_t(q));
}

static void
test_physical__get_scan(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *g = lop_new(p, LOP_GET, 0), *f;
	Expr *pred;

	(void)state;
	g->schema = "public";
	g->name = "t";
	lop_add_column(p, g, type_make(TYPE_INT32), "id");
	lop_add_column(p, g, type_make(TYPE_TEXT), "v");
	lop_add_column(p, g, type_make(TYPE_INT32), "x");
	g->scan = test_scan;
	g->scan_arg = &scan_calls;
	f = lop_new(p, LOP_FILTER, 1, g);
	pred = binop(">=", col(g, 2), num(30));
	lop_set_exprs(p, f, 1, &pred);
	lop_pass_columns(p, f, g);
	scan_calls = 0;
	assert_string_equal(run(p, f), "3|a|30\n4|c|40\n");
	/* P2: the plan can be lowered again */
	assert_string_equal(run(p, f), "3|a|30\n4|c|40\n");
	assert_int_equal(scan_calls, 2);

	p = lplan_new(A);
	g = lop_new(p, LOP_GET, 0);
	g->name = "t";
	lop_add_column(p, g, type_make(TYPE_INT32), "id");
	g->scan = test_scan;
	g->scan_arg = &scan_calls;
	floe_error_clear(&E);
	assert_null(physical_lower(&Ctx, p, g));
	assert_string_equal(E.sqlstate, "XX000");
}

/* Kinds with no lowering yet are 0A000 naming the kind; a negative LIMIT is
 * 2201W as in PostgreSQL */
static void
test_physical__refusals(void **state)
{
	LogicalPlan *p = lplan_new(A);
	LogicalOp *g = lop_new(p, LOP_GET, 0), *l;

	(void)state;
	g->schema = "public";
	g->name = "t";
	lop_add_column(p, g, type_make(TYPE_INT32), "id");
	assert_null(physical_lower(&Ctx, p, g));
	assert_string_equal(E.sqlstate, "0A000");
	assert_non_null(strstr(E.message, "Get without a table source"));

	p = lplan_new(A);
	l = lop_new(p, LOP_LIMIT, 1, values_t(p));
	l->limit = num(-1);
	lop_pass_columns(p, l, l->children[0]);
	floe_error_clear(&E);
	assert_null(physical_lower(&Ctx, p, l));
	assert_string_equal(E.sqlstate, "2201W");
	assert_string_equal(E.message, "LIMIT must not be negative");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_physical__filter_aggregate_sort_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__project_and_expression_sort, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__join_keys_and_residual, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__semi_anti_null_aware, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__mark, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__join_build_side_and_estimate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__join_unhashable_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__union, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__grouping_sets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__distinct_on, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__with_ties, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__intersect_except, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__operator_leaf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__get_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical__refusals, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
