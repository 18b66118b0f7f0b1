/*
 * explain.c — EXPLAIN [ANALYZE] [VERBOSE] text of an Operator tree.
 *
 * Layout as PostgreSQL's text format (explain.c there): the root on the
 * first line, each input on its own line indented "->  " below its parent
 * (2 + 6 * (depth - 1) spaces before the arrow), detail lines ("Output:")
 * indented under their node.  A node shows its name (op->label, else the
 * operator's vt name), the estimated rows "(rows=N)" when costs are on,
 * and after a run with explain_instrument "(actual time=S..T rows=R
 * loops=L)" (times in ms, per loop, inclusive of the inputs; rows per
 * loop, rounded as PostgreSQL does) or "(never executed)"; a scan that
 * skipped data files or row groups by statistics adds "Pruned: files=F
 * row groups=G"; a spilling operator (sort, hash aggregation, hash join,
 * window) adds "Peak Memory: N kB" (the most it held at once, as malloc'd:
 * op_note_mem) unless SUMMARY is off, so plans compared as text stay
 * stable under SUMMARY OFF.
 *
 * Estimates: the planner's op->est_rows when set (scans from manifest
 * record counts, VALUES, generate_series, LIMIT), else derived from the
 * inputs: Filter 1/3 of its input, grouped HashAggregate 1/10, plain
 * aggregation 1, joins the larger input, Append the sum, others their
 * input; 1000 when nothing is known.
 *
 * Inputs of a node: op->inputs when set (joins, Append, Recursive Union,
 * the first Materialize over a shared source), else op->child.
 *
 * INTERFACE ROUTINES
 *   explain_instrument(root, arena)    attach ANALYZE counters to every node
 *   explain_text(root, opts, arena, &lines, &n)
 */
#include <stdio.h>
#include <string.h>
#include "exec/exec.h"
#include "func/func.h"

static int
inputs_of(Operator *op, Operator ***out)
{
	if (op->ninputs) {
		*out = op->inputs;
		return op->ninputs;
	}
	if (op->child) {
		*out = &op->child;
		return 1;
	}
	*out = NULL;
	return 0;
}

static void
instrument(Operator *op, Arena *a, int depth)
{
	Operator **in;
	int n, i;

	if (!op || depth > 1000)
		return;
	if (!op->instr)
		op->instr = ARENA_NEW(a, OpInstr);
	n = inputs_of(op, &in);
	for (i = 0; i < n; i++)
		instrument(in[i], a, depth + 1);
}

void
explain_instrument(Operator *root, Arena *a)
{
	instrument(root, a, 0);
}

static const char *
op_name(const Operator *op)
{
	return op->label ? op->label : op->vt->name;
}

static double
estimate(Operator *op, int depth)
{
	Operator **in;
	int n = inputs_of(op, &in), i;
	const char *name = op->vt->name;
	double e = 0;

	if (op->est_rows >= 0)
		return op->est_rows;
	if (depth > 1000)
		return 1000;
	if (n == 0)
		return 1000;
	if (!strcmp(name, "Append")) {
		for (i = 0; i < n; i++)
			e += estimate(in[i], depth + 1);
		return e;
	}
	for (i = 0; i < n; i++) {
		double x = estimate(in[i], depth + 1);
		if (x > e)
			e = x;
	}
	if (!strcmp(name, "Filter"))
		e = e / 3;
	else if (!strcmp(name, "HashAggregate"))
		e = e / 10;
	return e < 1 ? 1 : e;
}

typedef struct Out {
	Arena *a;
	char **lines;
	int n, cap;
} Out;

static void
emit(Out *o, char *line)
{
	if (o->n == o->cap) {
		int nc = o->cap ? o->cap * 2 : 16;
		o->lines = arena_realloc(o->a, o->lines, sizeof(char *) * (size_t)o->cap,
					 sizeof(char *) * (size_t)nc);
		o->cap = nc;
	}
	o->lines[o->n++] = line;
}

static void
walk(Operator *op, const ExplainOpts *x, Out *o, int depth)
{
	Operator **in;
	int n = inputs_of(op, &in), i;
	char head[512], tail[256];
	int ind = depth == 0 ? 0 : 2 + 6 * (depth - 1);
	int dind = depth == 0 ? 2 : ind + 6;

	if (depth > 200) {
		emit(o, arena_sprintf(o->a, "%*s->  ...", ind, ""));
		return;
	}
	snprintf(head, sizeof head, "%*s%s%s", ind, "", depth ? "->  " : "", op_name(op));
	tail[0] = '\0';
	if (x->costs)
		snprintf(tail, sizeof tail, "  (rows=%.0f)", estimate(op, 0));
	if (x->analyze) {
		size_t l = strlen(tail);
		const OpInstr *s = op->instr;
		if (!s || s->loops == 0) {
			snprintf(tail + l, sizeof tail - l, " (never executed)");
		} else {
			double loops = (double)s->loops;
			double rows = (double)s->rows / loops;
			if (x->timing)
				snprintf(tail + l, sizeof tail - l,
					 " (actual time=%.3f..%.3f rows=%.0f loops=%lld)", (double)s->first_ns / 1e6 / loops, (double)s->total_ns / 1e6 / loops,
					 rows, (long long)s->loops);
			else
				snprintf(tail + l, sizeof tail - l, " (actual rows=%.0f loops=%lld)", rows,
					 (long long)s->loops);
		}
	}
	emit(o, arena_sprintf(o->a, "%s%s", head, tail));
	if (x->analyze && op->instr && (op->instr->files_pruned || op->instr->row_groups_pruned))
		emit(o, arena_sprintf(o->a, "%*sPruned: files=%lld row groups=%lld", dind, "",
				      (long long)op->instr->files_pruned,
				      (long long)op->instr->row_groups_pruned));
	if (x->analyze && x->summary && op->instr && op->instr->mem_noted)
		emit(o, arena_sprintf(o->a, "%*sPeak Memory: %lld kB", dind, "",
				      (long long)((op->instr->peak_mem + 1023) / 1024)));
	if (x->verbose) {
		char *line = arena_sprintf(o->a, "%*sOutput: %d column%s", dind, "", op->ncols,
					   op->ncols == 1 ? "" : "s");
		for (i = 0; i < op->ncols; i++) {
			char buf[64];
			line = arena_sprintf(o->a, "%s%s%s", line, i ? ", " : " (",
					     func_type_name(op->types[i], buf, sizeof buf));
		}
		if (op->ncols)
			line = arena_sprintf(o->a, "%s)", line);
		emit(o, line);
	}
	for (i = 0; i < n; i++)
		if (in[i])
			walk(in[i], x, o, depth + 1);
}

int
explain_text(Operator *root, const ExplainOpts *opts, Arena *a, char ***lines, int *nlines)
{
	Out o;

	memset(&o, 0, sizeof o);
	o.a = a;
	walk(root, opts, &o, 0);
	*lines = o.lines;
	*nlines = o.n;
	return FLOE_OK;
}
