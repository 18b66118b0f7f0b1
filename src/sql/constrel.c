/*
 * constrel.c — relations of constant rows (see constrel.h).  The rows are
 * kept as Values and copied into batches of VECTOR_SIZE rows when read.
 *
 * INTERFACE ROUTINES: see constrel.h.
 */
#include <string.h>
#include "sql/constrel.h"
#include "types/array.h"

void
constrel_init(ConstRel *r, Arena *a, const char *spec)
{
	const char *p;
	int n = 0, i = 0;

	for (p = spec; *p; p++)
		n += *p == ':';
	memset(r, 0, sizeof *r);
	r->a = a;
	r->ncols = n;
	r->names = ARENA_ARRAY(a, char *, n + 1);
	r->types = ARENA_ARRAY(a, SqlType, n + 1);
	p = spec;
	while (*p) {
		const char *colon = strchr(p, ':');
		TypeId id;
		r->names[i] = arena_strndup(a, p, (size_t)(colon - p));
		if (colon[1] == 'v' || colon[1] == 'w' || colon[1] == 'a') {
			/* int2vector, oidvector (int4 elements), int2[] */
			r->types[i++] = colon[1] == 'v' ? type_int2vector() :
					colon[1] == 'w' ? type_oidvector() :
					array_of(type_make(TYPE_INT16));
			p = colon + 2;
			while (*p == ' ')
				p++;
			continue;
		}
		switch (colon[1]) {
		case 'o': case 'i': id = TYPE_INT32; break;
		case 's': id = TYPE_INT16; break;
		case 'l': id = TYPE_INT64; break;
		case 'b': id = TYPE_BOOL; break;
		case 'f': id = TYPE_FLOAT32; break;
		case 'd': id = TYPE_FLOAT64; break;
		case 'z': id = TYPE_TIMESTAMPTZ; break;
		default: id = TYPE_TEXT; break;
		}
		r->types[i++] = type_make(id);
		p = colon + 2;
		while (*p == ' ')
			p++;
	}
}

Value *
constrel_row(ConstRel *r)
{
	Value *row;
	int c;

	if (r->nrows == r->cap) {
		int nc = r->cap ? r->cap * 2 : 16;
		r->vals = arena_realloc(r->a, r->vals, sizeof(Value) * (size_t)r->cap * (size_t)r->ncols,
					sizeof(Value) * (size_t)nc * (size_t)r->ncols);
		r->cap = nc;
	}
	row = &r->vals[(size_t)r->nrows++ * (size_t)r->ncols];
	for (c = 0; c < r->ncols; c++)
		row[c] = value_null(r->types[c]);
	return row;
}

typedef struct RowsOp {
	Operator op;
	int nrows;
	const Value *vals;
	int pos;
} RowsOp;

static int
rows_open(Operator *op)
{
	((RowsOp *)op)->pos = 0;
	return FLOE_OK;
}

static int
rows_next(Operator *op, Batch **out)
{
	RowsOp *r = (RowsOp *)op;
	int n, i, c;
	Batch *b;

	arena_reset(op->scratch);
	TRY(exec_check_cancel(op->ctx));
	if (r->pos >= r->nrows) {
		*out = NULL;
		return FLOE_OK;
	}
	n = r->nrows - r->pos;
	if (n > VECTOR_SIZE)
		n = VECTOR_SIZE;
	b = batch_new(op->scratch, op->ncols, op->types, (uint32_t)n);
	for (i = 0; i < n; i++)
		for (c = 0; c < op->ncols; c++)
			vector_set_value(&b->cols[c], (uint32_t)i,
					 &r->vals[(size_t)(r->pos + i) * (size_t)op->ncols + (size_t)c]);
	b->count = (uint32_t)n;
	r->pos += n;
	op->rows_out += n;
	*out = b;
	return FLOE_OK;
}

static void
rows_close(Operator *op)
{
	(void)op;   /* scratch is freed with the statement arena */
}

Operator *
constrel_op(ExecCtx *ctx, const ConstRel *r, const char *label)
{
	static const OperatorVT vt = { "Values", rows_open, rows_next, rows_close };
	RowsOp *o = ARENA_NEW(ctx->arena, RowsOp);

	op_init(&o->op, &vt, ctx, r->ncols, r->types, NULL);
	o->op.label = label;
	o->nrows = r->nrows;
	o->vals = r->vals;
	return &o->op;
}
