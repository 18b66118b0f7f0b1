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
 * A Batch is a set of equally long Vectors, plus an optional selection
 * vector: when sel != NULL, the batch's rows are rows sel[0..count) of its
 * vectors (a filter's output).  batch_compact() materialises the selection.
 *
 * INTERFACE ROUTINES
 *   vector_init(v, type, arena, capacity)     flat, all valid, zeroed data
 *   vector_init_const(v, value, arena)        a CONST vector from a Value
 *   vector_is_valid(v, i) / vector_set_null(v, i) / vector_set_valid(v, i)
 *   vector_set_string(v, i, p, len)           copies long strings into v->arena
 *   vector_get_value(v, i, out) / vector_set_value(v, i, value)   (slow path)
 *   vector_view(v, out)                       unified read view
 *   vector_flatten(v, count)                  make FLAT in place
 *   vector_copy_rows(dst, dst_off, src, sel, count)   append/gather rows
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
void vector_init_const(Vector *v, const Value *value, Arena *arena);
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

Batch *batch_new(Arena *arena, int ncols, const SqlType *types, uint32_t capacity);
void batch_reset(Batch *b);
void batch_compact(Batch *b);

#endif
