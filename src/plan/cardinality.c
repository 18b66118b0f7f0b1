/*
 * cardinality.c — distinct-value and group estimates over a logical plan
 * (see cardinality.h).
 */
#include "plan/cardinality.h"

#define MAX_DEPTH 200

static double
rows_at(const LogicalOp *op, int depth)
{
	double r;

	if (!op || depth > MAX_DEPTH)
		return -1;
	if (op->est_rows >= 0)
		return op->est_rows;
	switch (op->kind) {
	case LOP_FILTER:
		r = rows_at(op->children[0], depth + 1);
		return r < 0 ? r : r / 3 < 1 ? 1 : r / 3;
	case LOP_PROJECT: case LOP_SORT: case LOP_WINDOW:
		return rows_at(op->children[0], depth + 1);
	default:
		return -1;
	}
}

double
lcard_rows(const LogicalOp *op)
{
	return rows_at(op, 0);
}

static double
ndv_at(const LogicalOp *op, ColumnId id, int depth)
{
	int i = lop_find_column(op, id), c;
	double d = -1, r;

	if (i < 0 || depth > MAX_DEPTH)
		return -1;
	switch (op->kind) {
	case LOP_GET:
		d = op->col_ndv ? op->col_ndv[i] : -1;
		break;
	case LOP_FILTER: case LOP_SORT: case LOP_LIMIT: case LOP_DISTINCT: case LOP_WINDOW:
	case LOP_JOIN:
		for (c = 0; c < op->nchildren && d < 0; c++)
			if (lop_find_column(op->children[c], id) >= 0)
				d = ndv_at(op->children[c], id, depth + 1);
		break;
	case LOP_PROJECT:
		if (i < op->nexprs && op->exprs[i]->kind == EXPR_COLREF)
			d = ndv_at(op->children[0], (ColumnId)op->exprs[i]->col, depth + 1);
		break;
	case LOP_AGGREGATE:
		if (op->nsets == 0 && i < op->nexprs && op->exprs[i]->kind == EXPR_COLREF)
			d = ndv_at(op->children[0], (ColumnId)op->exprs[i]->col, depth + 1);
		break;
	default:
		break;
	}
	r = rows_at(op, depth);
	if (d >= 0 && r >= 0 && d > r)
		d = r;
	return d;
}

double
lcard_column_ndv(const LogicalOp *op, ColumnId id)
{
	return ndv_at(op, id, 0);
}

double
lcard_groups(const LogicalOp *op)
{
	const LogicalOp *in;
	double g = 1, rows;
	int i, n;

	if ((op->kind != LOP_AGGREGATE && op->kind != LOP_DISTINCT) || op->nchildren != 1 ||
	    op->nsets)
		return -1;
	in = op->children[0];
	rows = lcard_rows(in);
	n = op->kind == LOP_DISTINCT ? in->ncols : op->nexprs;
	if (n == 0 || (op->kind == LOP_DISTINCT && op->nexprs))
		return -1;
	for (i = 0; i < n; i++) {
		double d;
		if (op->kind == LOP_DISTINCT)
			d = lcard_column_ndv(in, in->cols[i].id);
		else if (op->exprs[i]->kind == EXPR_COLREF)
			d = lcard_column_ndv(in, (ColumnId)op->exprs[i]->col);
		else
			d = -1;
		if (d < 0)
			return -1;
		g *= d < 1 ? 1 : d;
	}
	if (rows >= 0 && g > rows)
		g = rows;
	return g;
}

const LogicalOp *
lcard_unfiltered(const LogicalOp *op)
{
	int depth = 0;

	while (op->kind == LOP_FILTER && op->nchildren == 1 && depth++ < MAX_DEPTH)
		op = op->children[0];
	return op;
}

double
lcard_join_rows(double l, double r, double r_raw, bool r_key, double key_ndv, int nkeys)
{
	double e;

	if (l < 0 || r < 0)
		return -1;
	if (nkeys && r_key && r_raw > 0)
		e = l * (r / r_raw);
	else if (nkeys && key_ndv > 0)
		e = l * r / key_ndv;
	else if (nkeys)
		e = l > r ? l : r;
	else
		e = l * r;
	return e < 1 ? 1 : e;      /* never below one row, as PostgreSQL's clamp_row_est */
}
