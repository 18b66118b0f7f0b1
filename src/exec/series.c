/*
 * series.c — generate_series(start, stop [, step]) as PostgreSQL has it for
 * integers, numerics (start, stop and step already cast by the binder to
 * one decimal type) and timestamps (step an interval).  Step 0 is 22023.
 * An empty range yields no rows; NULL arguments yield no rows.
 *
 * Arguments given as expressions (series_set_args: a LATERAL call whose
 * arguments use the outer row's columns, ExecCtx params) are evaluated at
 * each open.
 *
 * INTERFACE ROUTINES
 *   series_new(ctx, type, start, stop, step)
 *   series_set_args(op, start, stop, step)
 */
#include "exec/exec.h"
#include "types/datetime.h"

typedef struct SeriesOp {
	Operator op;
	Value start, stop, step;
	Expr *args[3];             /* NULL: the Value above is fixed */
	bool done;
	int64_t cur_i;
	int128 cur_d;
} SeriesOp;

static int
series_open(Operator *op)
{
	SeriesOp *s = (SeriesOp *)op;
	Value *dst[3] = { &s->start, &s->stop, &s->step };
	int k;

	for (k = 0; k < 3; k++) {
		Batch *one;
		Vector v;
		if (!s->args[k])
			continue;
		arena_reset(op->scratch);
		one = batch_new(op->scratch, 0, NULL, 1);
		one->count = 1;
		TRY(expr_eval(op->ctx, s->args[k], one, NULL, 1, op->scratch, &v));
		vector_get_value(&v, 0, dst[k]);
		dst[k]->type = s->args[k]->type;
	}
	s->done = s->start.is_null || s->stop.is_null || s->step.is_null;
	if (s->done)
		return FLOE_OK;
	switch (op->types[0].id) {
	case TYPE_DECIMAL:
		if (s->step.u.d == 0)
			goto zero;
		s->cur_d = s->start.u.d;
		break;
	case TYPE_TIMESTAMP:
	case TYPE_TIMESTAMPTZ:
		if (s->step.u.iv.months == 0 && s->step.u.iv.days == 0 && s->step.u.iv.micros == 0)
			goto zero;
		s->cur_i = s->start.u.i;
		break;
	default:
		if (s->step.u.i == 0)
			goto zero;
		s->cur_i = s->start.u.i;
		break;
	}
	return FLOE_OK;
zero:
	return floe_errorf(op->ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "step size cannot equal zero");
}

static int
series_next(Operator *op, Batch **out)
{
	SeriesOp *s = (SeriesOp *)op;
	Batch *b;
	uint32_t n = 0;
	TypeId id = op->types[0].id;

	arena_reset(op->scratch);
	TRY(exec_check_cancel(op->ctx));
	if (s->done) {
		*out = NULL;
		return FLOE_OK;
	}
	b = batch_new(op->scratch, 1, op->types, VECTOR_SIZE);
	if (id == TYPE_DECIMAL) {
		int128 *d = b->cols[0].data;
		int128 step = s->step.u.d, stop = s->stop.u.d;
		while (n < VECTOR_SIZE) {
			if (step > 0 ? s->cur_d > stop : s->cur_d < stop) {
				s->done = true;
				break;
			}
			d[n++] = s->cur_d;
			s->cur_d += step;
		}
	} else if (id == TYPE_TIMESTAMP || id == TYPE_TIMESTAMPTZ) {
		int64_t *d = b->cols[0].data;
		/* direction from the step's sign at the start point */
		int64_t probe;
		bool up;
		TRY(datetime_add_interval(s->start.u.i, s->step.u.iv, id == TYPE_TIMESTAMPTZ, &probe,
					  op->ctx->err));
		up = probe > s->start.u.i;
		while (n < VECTOR_SIZE) {
			if (up ? s->cur_i > s->stop.u.i : s->cur_i < s->stop.u.i) {
				s->done = true;
				break;
			}
			d[n++] = s->cur_i;
			TRY(datetime_add_interval(s->cur_i, s->step.u.iv, id == TYPE_TIMESTAMPTZ,
						  &s->cur_i, op->ctx->err));
		}
	} else {
		int64_t step = s->step.u.i, stop = s->stop.u.i;
		while (n < VECTOR_SIZE) {
			int64_t v = s->cur_i;
			if (step > 0 ? v > stop : v < stop) {
				s->done = true;
				break;
			}
			switch (id) {
			case TYPE_INT16: ((int16_t *)b->cols[0].data)[n++] = (int16_t)v; break;
			case TYPE_INT32: ((int32_t *)b->cols[0].data)[n++] = (int32_t)v; break;
			default: ((int64_t *)b->cols[0].data)[n++] = v; break;
			}
			if (__builtin_add_overflow(v, step, &s->cur_i)) {
				s->done = true;
				break;
			}
		}
	}
	if (n == 0) {
		*out = NULL;
		return FLOE_OK;
	}
	b->count = n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
series_close(Operator *op)
{
	(void)op;
}

static const OperatorVT series_vt = { "FunctionScan", series_open, series_next, series_close };

Operator *
series_new(ExecCtx *ctx, SqlType type, const Value *start, const Value *stop, const Value *step)
{
	SeriesOp *s = ARENA_NEW(ctx->arena, SeriesOp);
	op_init(&s->op, &series_vt, ctx, 1, &type, NULL);
	s->start = *start;
	s->stop = *stop;
	s->step = *step;
	return &s->op;
}

void
series_set_args(Operator *op, Expr *start, Expr *stop, Expr *step)
{
	SeriesOp *s = (SeriesOp *)op;

	s->args[0] = start;
	s->args[1] = stop;
	s->args[2] = step;
}
