/*
 * vector.c — Vector and Batch basics (see vector.h, which also describes
 * the per-row display scale of unconstrained numeric vectors, `dscale`).
 *
 * INTERFACE ROUTINES: those of vector.h.
 * Invariants: every copy of rows (vector_copy_rows and what is built on it)
 * carries dscale: a destination without one gets one as soon as a source
 * row has a display scale other than the one the destination would give it.
 */
#include <string.h>
#include "types/vector.h"

const uint32_t vector_zero_sel[VECTOR_SIZE];

static size_t
validity_bytes(uint32_t capacity)
{
	return ((capacity + 63) / 64) * sizeof(uint64_t);
}

void
vector_init(Vector *v, SqlType type, Arena *arena, uint32_t capacity)
{
	memset(v, 0, sizeof *v);
	v->type = type;
	v->kind = VECTOR_FLAT;
	v->capacity = capacity;
	v->arena = arena;
	v->data = arena_calloc(arena, type_width(type.id) * (capacity ? capacity : 1));
}

/* vector_init without zeroing data: for producers that write every row
 * (gathers, scatters whose unwritten rows are never read). */
void
vector_init_raw(Vector *v, SqlType type, Arena *arena, uint32_t capacity)
{
	memset(v, 0, sizeof *v);
	v->type = type;
	v->kind = VECTOR_FLAT;
	v->capacity = capacity;
	v->arena = arena;
	v->data = arena_alloc(arena, type_width(type.id) * (capacity ? capacity : 1));
}

bool
vector_dense_under(const Vector *v, const uint32_t *sel, uint32_t n)
{
	const uint32_t *ds;
	uint32_t j, bad = 0;

	if (v->kind != VECTOR_DICT || !sel || v->child->kind != VECTOR_FLAT)
		return false;
	ds = v->dict_sel;
	for (j = 0; j < n; j++)
		bad |= ds[sel[j]] ^ j;
	return bad == 0;
}

void
vector_init_const(Vector *v, const Value *value, Arena *arena)
{
	vector_init(v, value->type, arena, 1);
	vector_set_value(v, 0, value);
	v->kind = VECTOR_CONST;
}

void
vector_ensure_dscale(Vector *v)
{
	uint32_t cap = v->capacity ? v->capacity : 1, k;
	const int128 *d = v->data;

	if (v->dscale || v->type.id != TYPE_DECIMAL)
		return;
	v->dscale = arena_alloc(v->arena, cap);
	for (k = 0; k < cap; k++)
		v->dscale[k] = (uint8_t)vector_dscale_at(v, NULL, k, d[k]);
}

int
vector_row_dscale(const Vector *v, uint32_t i)
{
	VectorView view;
	uint32_t k;

	if (v->type.id != TYPE_DECIMAL || !vector_varies(v))
		return v->type.scale;
	vector_view(v, &view);
	k = view.sel ? view.sel[i] : i;
	return vector_dscale_at(v, vector_dscale_of(v), k, ((const int128 *)view.data)[k]);
}

void
vector_display_value(const Vector *v, uint32_t i, Value *out)
{
	vector_get_value(v, i, out);
	value_to_display_scale(out);
}

void
value_to_display_scale(Value *v)
{
	if (v->is_null || v->type.id != TYPE_DECIMAL || !v->dzeros)
		return;
	for (int j = 0; j < v->dzeros; j++)
		v->u.d /= 10;
	v->type.scale = (uint8_t)(v->type.scale - v->dzeros);
	v->dzeros = 0;
}

void
vector_ensure_validity(Vector *v)
{
	if (!v->validity) {
		size_t n = validity_bytes(v->capacity ? v->capacity : 1);
		v->validity = arena_alloc(v->arena, n);
		memset(v->validity, 0xff, n);
	}
}

void
vector_set_null(Vector *v, uint32_t i)
{
	vector_ensure_validity(v);
	validity_clear(v->validity, i);
}

void
vector_set_valid(Vector *v, uint32_t i)
{
	if (v->validity)
		validity_set(v->validity, i);
}

bool
vector_is_valid(const Vector *v, uint32_t i)
{
	switch (v->kind) {
	case VECTOR_CONST:
		return validity_get(v->validity, 0);
	case VECTOR_DICT:
		return vector_is_valid(v->child, v->dict_sel[i]);
	case VECTOR_FLAT:
		break;
	}
	return validity_get(v->validity, i);
}

void
vector_set_string(Vector *v, uint32_t i, const char *p, uint32_t len)
{
	const char *q = p;

	if (len > STRVIEW_INLINE)
		q = arena_memdup(v->arena, p, len);
	((strview *)v->data)[i] = strview_make(q, len);
	vector_set_valid(v, i);
}

void
vector_view(const Vector *v, VectorView *out)
{
	switch (v->kind) {
	case VECTOR_FLAT:
		out->data = v->data;
		out->sel = NULL;
		out->validity = v->validity;
		return;
	case VECTOR_CONST:
		out->data = v->data;
		out->sel = vector_zero_sel;
		out->validity = v->validity;
		return;
	case VECTOR_DICT:
		out->data = v->child->data;
		out->sel = v->dict_sel;
		out->validity = v->child->validity;
		return;
	}
}

void
vector_get_value(const Vector *v, uint32_t i, Value *out)
{
	VectorView view;
	uint32_t k;
	const char *d;

	vector_view(v, &view);
	k = view.sel ? view.sel[i] : i;
	memset(out, 0, sizeof *out);
	out->type = v->type;
	if (!validity_get(view.validity, k)) {
		out->is_null = true;
		return;
	}
	d = view.data;
	switch (v->type.id) {
	case TYPE_NULL: out->is_null = true; break;
	case TYPE_BOOL: out->u.b = ((const uint8_t *)d)[k] != 0; break;
	case TYPE_INT16: out->u.i = ((const int16_t *)d)[k]; break;
	case TYPE_INT32: case TYPE_DATE: out->u.i = ((const int32_t *)d)[k]; break;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		out->u.i = ((const int64_t *)d)[k]; break;
	case TYPE_FLOAT32: out->u.f = ((const float *)d)[k]; break;
	case TYPE_FLOAT64: out->u.f = ((const double *)d)[k]; break;
	case TYPE_DECIMAL:
		out->u.d = ((const int128 *)d)[k];
		if (vector_varies(v))
			out->dzeros = (uint8_t)(v->type.scale -
						vector_dscale_at(v, vector_dscale_of(v), k, out->u.d));
		break;
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY: out->u.s = ((const strview *)d)[k]; break;
	case TYPE_INTERVAL: out->u.iv = ((const Interval *)d)[k]; break;
	case TYPE_UUID: out->u.uuid = ((const Uuid *)d)[k]; break;
	case TYPE__COUNT: break;
	}
}

void
vector_set_value(Vector *v, uint32_t i, const Value *value)
{
	void *d = v->data;

	if (value->is_null || value->type.id == TYPE_NULL) {
		vector_set_null(v, i);
		return;
	}
	vector_set_valid(v, i);
	switch (v->type.id) {
	case TYPE_NULL: break;
	case TYPE_BOOL: ((uint8_t *)d)[i] = value->u.b; break;
	case TYPE_INT16: ((int16_t *)d)[i] = (int16_t)value->u.i; break;
	case TYPE_INT32: case TYPE_DATE: ((int32_t *)d)[i] = (int32_t)value->u.i; break;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		((int64_t *)d)[i] = value->u.i; break;
	case TYPE_FLOAT32: ((float *)d)[i] = (float)value->u.f; break;
	case TYPE_FLOAT64: ((double *)d)[i] = value->u.f; break;
	case TYPE_DECIMAL:
		/* value->u.d is at v's scale (callers rescale); the row prints
		 * at type.scale - dzeros */
		((int128 *)d)[i] = value->u.d;
		/* (at NUMERIC_DEFAULT_SCALE too: without a dscale such a vector
		 * reads as a stored column, printed without trailing zeros) */
		if ((value->dzeros || v->type.scale == NUMERIC_DEFAULT_SCALE) &&
		    v->type.precision == 0 && value->dzeros <= v->type.scale)
			vector_ensure_dscale(v);
		if (v->dscale)
			v->dscale[i] = (uint8_t)(value->dzeros <= v->type.scale ?
						 v->type.scale - value->dzeros : v->type.scale);
		break;
	case TYPE_TEXT: case TYPE_BYTEA: case TYPE_ARRAY:
		vector_set_string(v, i, strview_data(&value->u.s), value->u.s.len);
		break;
	case TYPE_INTERVAL: ((Interval *)d)[i] = value->u.iv; break;
	case TYPE_UUID: ((Uuid *)d)[i] = value->u.uuid; break;
	case TYPE__COUNT: break;
	}
}

/* vector_copy_rows' dscale part: dst rows get src rows' display scales. */
static void
copy_dscale(Vector *dst, uint32_t dst_off, const Vector *src, const VectorView *view,
	    const uint32_t *sel, uint32_t count)
{
	const uint8_t *sds = vector_dscale_of(src);
	const int128 *sd = view->data;
	uint32_t j;

	vector_ensure_dscale(dst);
	for (j = 0; j < count; j++) {
		uint32_t r = sel ? sel[j] : j;
		uint32_t k = view->sel ? view->sel[r] : r;
		dst->dscale[dst_off + j] = (uint8_t)vector_dscale_at(src, sds, k, sd[k]);
	}
}

/* Validity of dst rows dst_off.. from src view rows (row sel[j] or j). */
static void
copy_validity(Vector *dst, uint32_t dst_off, const VectorView *view, const uint32_t *sel,
	      uint32_t count)
{
	const uint64_t *sv = view->validity;
	uint64_t *dv;
	uint32_t j;

	if (!sv) {
		/* all valid: only an existing dst bitmap needs bits set */
		if (!dst->validity)
			return;
		dv = dst->validity;
		for (j = 0; j < count; j++)
			validity_set(dv, dst_off + j);
		return;
	}
	vector_ensure_validity(dst);
	dv = dst->validity;
	for (j = 0; j < count; j++) {
		uint32_t r = sel ? sel[j] : j;
		uint32_t k = view->sel ? view->sel[r] : r;
		uint32_t d = dst_off + j;
		uint64_t bit = (sv[k >> 6] >> (k & 63)) & 1;
		dv[d >> 6] = (dv[d >> 6] & ~((uint64_t)1 << (d & 63))) | (bit << (d & 63));
	}
}

/* dd[j] = sd[idx[j]] for the common widths (idx: a selection or a map). */
static void
gather_width(char *dd, const char *sd, size_t w, const uint32_t *idx, uint32_t count)
{
	uint32_t j;

	switch (w) {
	case 1: for (j = 0; j < count; j++) ((uint8_t *)dd)[j] = ((const uint8_t *)sd)[idx[j]]; break;
	case 2: for (j = 0; j < count; j++) ((uint16_t *)dd)[j] = ((const uint16_t *)sd)[idx[j]]; break;
	case 4: for (j = 0; j < count; j++) ((uint32_t *)dd)[j] = ((const uint32_t *)sd)[idx[j]]; break;
	case 8: for (j = 0; j < count; j++) ((uint64_t *)dd)[j] = ((const uint64_t *)sd)[idx[j]]; break;
	case 16:
		for (j = 0; j < count; j++)
			memcpy(dd + 16 * (size_t)j, sd + 16 * (size_t)idx[j], 16);
		break;
	default:
		for (j = 0; j < count; j++)
			memcpy(dd + (size_t)j * w, sd + (size_t)idx[j] * w, w);
		break;
	}
}

/*
 * Gather count rows of src (row sel[j], or j when sel is NULL) into dst at
 * dst_off...  dst must be flat with room.  Long strings are not copied: dst
 * points at src's bytes, so src's memory must outlive dst (callers that
 * need ownership copy with vector_set_string).  A DICT src that is dense
 * under sel (vector_dense_under: an expression result) is copied as its
 * child's rows 0..count.
 */
void
vector_copy_rows(Vector *dst, uint32_t dst_off, const Vector *src,
		 const uint32_t *sel, uint32_t count)
{
	VectorView view;
	size_t w = type_width(dst->type.id);
	const char *sd;
	char *dd = (char *)dst->data + (size_t)dst_off * w;
	uint32_t j;

	if (vector_dense_under(src, sel, count)) {
		src = src->child;
		sel = NULL;
	}
	vector_view(src, &view);
	sd = view.data;
	if (!view.sel && !sel) {
		memcpy(dd, sd, (size_t)count * w);
	} else if (!view.sel) {
		gather_width(dd, sd, w, sel, count);
	} else if (!sel) {
		gather_width(dd, sd, w, view.sel, count);
	} else {
		for (j = 0; j < count; j++) {
			uint32_t k = view.sel[sel[j]];
			memcpy(dd + (size_t)j * w, sd + (size_t)k * w, w);
		}
	}
	if (dst->type.id == TYPE_DECIMAL && (dst->dscale || vector_dscale_of(src)))
		copy_dscale(dst, dst_off, src, &view, sel, count);
	if (view.validity || dst->validity)
		copy_validity(dst, dst_off, &view, sel, count);
}

void
vector_flatten(Vector *v, uint32_t count)
{
	Vector flat;

	if (v->kind == VECTOR_FLAT)
		return;
	vector_init(&flat, v->type, v->arena, count > v->capacity ? count : v->capacity);
	if (flat.capacity < count)
		flat.capacity = count;
	vector_copy_rows(&flat, 0, v, NULL, count);
	*v = flat;
}

Batch *
batch_new(Arena *arena, int ncols, const SqlType *types, uint32_t capacity)
{
	Batch *b = ARENA_NEW(arena, Batch);
	int i;

	b->ncols = ncols;
	b->cols = ARENA_ARRAY(arena, Vector, ncols ? ncols : 1);
	b->arena = arena;
	for (i = 0; i < ncols; i++)
		vector_init(&b->cols[i], types[i], arena, capacity);
	return b;
}

void
batch_reset(Batch *b)
{
	b->count = 0;
	b->sel = NULL;
}

void
batch_compact(Batch *b)
{
	int i;

	if (!b->sel) {
		for (i = 0; i < b->ncols; i++)
			vector_flatten(&b->cols[i], b->count);
		return;
	}
	for (i = 0; i < b->ncols; i++) {
		Vector flat;
		vector_init(&flat, b->cols[i].type, b->cols[i].arena, b->count);
		vector_copy_rows(&flat, 0, &b->cols[i], b->sel, b->count);
		b->cols[i] = flat;
	}
	b->sel = NULL;
}
