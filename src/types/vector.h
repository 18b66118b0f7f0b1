/*
 * vector.h — Vector (one column of up to VECTOR_SIZE values) and Batch.
 *
 * A Vector is flat, constant or dictionary (DuckDB's layout, in C):
 *   FLAT   data[i] is row i; validity bit i (1 = valid); validity NULL = no NULLs
 *   CONST  data[0] / validity bit 0 stand for every row
 *   DICT   row i is child row dict_sel[i] (child is flat)
 * Kernels that do not want to care call vector_view(), which gives
 * (data, sel, validity) with one indexing rule:  k = sel ? sel[i] : i,
 * value data[k], valid iff validity == NULL or bit k set.
 *
 * String-typed vectors (TYPE_TEXT, TYPE_BYTEA) hold strviews whose long
 * bytes live in `arena` (or in memory the producer guarantees outlives the
 * batch, e.g. a mapped Parquet file or a dictionary page).
 *
 * Display scale (numeric).  PostgreSQL's unconstrained numeric carries a
 * display scale per value (1.50 prints 1.50, 10/3 prints 16 decimals,
 * 1000000/3 prints 12).  floe stores every row of a TYPE_DECIMAL vector at
 * type.scale (the physical scale, fixed per expression by the binder); a
 * vector of unconstrained numeric (precision 0) may also carry `dscale`,
 * one byte per row indexed like data (k), giving the scale the row prints
 * at.  NULL means "every row prints at type.scale", with one exception:
 * an unconstrained vector at scale NUMERIC_DEFAULT_SCALE without dscale is
 * a stored Iceberg column (decimal(38,10)), whose rows print with their
 * trailing fractional zeros dropped (PostgreSQL would print the scale the
 * value was inserted with, which Iceberg does not keep; 1.50 reads back
 * as 1.5).  Invariants: dscale[k] <= type.scale and the value is exact at
 * dscale[k] (the stored digits past it are zero).  Copies (vector_copy_rows,
 * vector_flatten, batch_compact) carry dscale; vector_get_value returns
 * the value at type.scale (callers rely on that) with Value.dzeros saying
 * how many of its fraction digits are not displayed (value.h), which
 * vector_set_value / vector_init_const turn back into a dscale; text
 * output (value_to_text, vector_value_text) prints at the display scale.
 *
 * A Batch is a set of equally long Vectors, plus an optional selection
 * vector: when sel != NULL, the batch's rows are rows sel[0..count) of its
 * vectors (a filter's output).  batch_compact() materialises the selection.
 *
 * INTERFACE ROUTINES
 *   vector_init(v, type, arena, capacity)     flat, all valid, zeroed data
 *   vector_init_raw(v, type, arena, capacity) the same, data not zeroed
 *   vector_dense_under(v, sel, n)             v's rows sel[0..n) = its child's 0..n
 *   vector_init_const(v, value, arena)        a CONST vector from a Value
 *   vector_is_valid(v, i) / vector_set_null(v, i) / vector_set_valid(v, i)
 *   vector_set_string(v, i, p, len)           copies long strings into v->arena
 *   vector_get_value(v, i, out) / vector_set_value(v, i, value)   (slow path)
 *   vector_view(v, out)                       unified read view
 *   vector_flatten(v, count)                  make FLAT in place
 *   vector_copy_rows(dst, dst_off, src, sel, count)   append/gather rows
 *   vector_dscale_of(v) / vector_varies(v) / vector_dscale_at(v, ds, k, x)
 *   vector_row_dscale(v, i) / vector_ensure_dscale(v)
 *   vector_copy_dscale(dst, i, src, k)       for hand-written gathers
 *   vector_display_value(v, i, out)           Value at the row's display scale
 *   numeric_trim_scale(x, scale)              smallest exact scale of x
 *   batch_new(arena, ncols, types, capacity) / batch_reset(b)
 *   batch_compact(b)                          apply sel, making every vector flat
 */
#ifndef FLOE_VECTOR_H
#define FLOE_VECTOR_H

#include "common/arena.h"
#include "types/strview.h"
#include "types/types.h"
#include "types/value.h"

#define VECTOR_SIZE 2048
#if (VECTOR_SIZE & (VECTOR_SIZE - 1)) != 0
#error "VECTOR_SIZE must be a power of two"
#endif

typedef enum VectorKind { VECTOR_FLAT = 0, VECTOR_CONST, VECTOR_DICT } VectorKind;

typedef struct Vector {
	SqlType type;
	VectorKind kind;
	uint32_t capacity;
	uint64_t *validity;      /* NULL: all valid */
	void *data;
	struct Vector *child;    /* DICT */
	uint32_t *dict_sel;      /* DICT */
	Arena *arena;            /* buffers and long strings */
	uint8_t *dscale;         /* unconstrained numeric: per-row display scale
				  * (indexed like data), NULL = see above */
} Vector;

typedef struct VectorView {
	const void *data;
	const uint32_t *sel;     /* NULL: identity */
	const uint64_t *validity;/* NULL: all valid */
} VectorView;

typedef struct Batch {
	int ncols;
	Vector *cols;
	uint32_t count;
	uint32_t *sel;           /* NULL: rows 0..count */
	Arena *arena;
} Batch;

/* A selection of all zeros: the sel of a CONST vector's view. */
extern const uint32_t vector_zero_sel[VECTOR_SIZE];

void vector_init(Vector *v, SqlType type, Arena *arena, uint32_t capacity);
void vector_init_raw(Vector *v, SqlType type, Arena *arena, uint32_t capacity);
void vector_init_const(Vector *v, const Value *value, Arena *arena);
/* true when v is a DICT whose row sel[j] is its flat child's row j for
 * every j < n (expr_eval's result under a selection): the child is then
 * the dense copy of those rows, to use as is. */
bool vector_dense_under(const Vector *v, const uint32_t *sel, uint32_t n);
void vector_ensure_validity(Vector *v);
void vector_set_null(Vector *v, uint32_t i);
void vector_set_valid(Vector *v, uint32_t i);
bool vector_is_valid(const Vector *v, uint32_t i);
void vector_set_string(Vector *v, uint32_t i, const char *p, uint32_t len);
void vector_get_value(const Vector *v, uint32_t i, Value *out);
void vector_set_value(Vector *v, uint32_t i, const Value *value);
void vector_view(const Vector *v, VectorView *out);
void vector_flatten(Vector *v, uint32_t count);
void vector_copy_rows(Vector *dst, uint32_t dst_off, const Vector *src,
		      const uint32_t *sel, uint32_t count);

static inline bool
validity_get(const uint64_t *validity, uint32_t k)
{
	return !validity || ((validity[k >> 6] >> (k & 63)) & 1);
}

static inline void
validity_clear(uint64_t *validity, uint32_t k)
{
	validity[k >> 6] &= ~((uint64_t)1 << (k & 63));
}

static inline void
validity_set(uint64_t *validity, uint32_t k)
{
	validity[k >> 6] |= (uint64_t)1 << (k & 63);
}

/* Smallest scale <= `scale` at which x (at `scale`) is exact: 1.500 -> 1. */
static inline int
numeric_trim_scale(int128 x, int scale)
{
	if (x == 0)
		return 0;
	while (scale > 0 && x % 10 == 0) {
		x /= 10;
		scale--;
	}
	return scale;
}

/* The dscale array indexed like v's view data (a DICT's child's), or NULL. */
static inline const uint8_t *
vector_dscale_of(const Vector *v)
{
	return v->kind == VECTOR_DICT ? v->child->dscale : v->dscale;
}

/* true when v's rows may print at less than type.scale (a dscale array, or
 * a stored unconstrained column): kernels then compute result dscales. */
static inline bool
vector_varies(const Vector *v)
{
	return v->type.id == TYPE_DECIMAL && v->type.precision == 0 &&
	       (vector_dscale_of(v) || v->type.scale == NUMERIC_DEFAULT_SCALE);
}

/* Display scale of view index k whose value is x; ds = vector_dscale_of(v). */
static inline int
vector_dscale_at(const Vector *v, const uint8_t *ds, uint32_t k, int128 x)
{
	if (ds)
		return ds[k];
	if (v->type.id == TYPE_DECIMAL && v->type.precision == 0 &&
	    v->type.scale == NUMERIC_DEFAULT_SCALE)
		return numeric_trim_scale(x, v->type.scale);
	return v->type.scale;
}

/* Display scale of row i (any kind); type.scale for non-numeric vectors. */
int vector_row_dscale(const Vector *v, uint32_t i);
/* Give a flat unconstrained vector a dscale array (all type.scale) if it has none. */
void vector_ensure_dscale(Vector *v);
/* vector_get_value, then the decimal brought down to its display scale. */
void vector_display_value(const Vector *v, uint32_t i, Value *out);
/* A decimal Value with dzeros: divided down to scale type.scale - dzeros. */
void value_to_display_scale(Value *v);

/*
 * For gathers that copy data[k] of src into row i of a flat dst themselves
 * (memcpy of type_width bytes, as sort's emit or hash-aggregate key
 * columns do): carry the display scale too.  A no-op unless dst is numeric
 * and src has one to carry (or dst already has a dscale array).
 */
static inline void
vector_copy_dscale(Vector *dst, uint32_t i, const Vector *src, uint32_t k)
{
	const uint8_t *ds;

	if (dst->type.id != TYPE_DECIMAL)
		return;
	ds = vector_dscale_of(src);
	if (!ds && !dst->dscale)
		return;
	vector_ensure_dscale(dst);
	dst->dscale[i] = (uint8_t)vector_dscale_at(src, ds, k,
		((const int128 *)(src->kind == VECTOR_DICT ? src->child->data : src->data))[k]);
}

Batch *batch_new(Arena *arena, int ncols, const SqlType *types, uint32_t capacity);
void batch_reset(Batch *b);
void batch_compact(Batch *b);

#endif
