/*
 * rowcodec.c — insert-buffer entry bytes (rowcodec.h): encode the rows of a
 * buffered INSERT column by column, decode them back into batches.
 *
 * Decoding trusts nothing: every length is checked against the bytes left
 * (XX001 "corrupt insert buffer entry"), so a damaged entry is a clean
 * error of the flush that reads it (and, repeated, a dead letter).
 */
#include <stdlib.h>
#include <string.h>
#include "ingest/rowcodec.h"

#define MAGIC 0x31424946u      /* "FIB1" */

static void
grow(uint8_t **p, size_t *cap, size_t need)
{
	size_t nc;

	if (need <= *cap)
		return;
	nc = *cap ? *cap * 2 : 256;
	while (nc < need)
		nc *= 2;
	*p = xrealloc(*p, nc);
	*cap = nc;
}

static void
put(uint8_t **p, size_t *len, size_t *cap, const void *src, size_t n)
{
	grow(p, cap, *len + n);
	memcpy(*p + *len, src, n);
	*len += n;
}

void
rowcodec_init(RowEncoder *enc, const char *ns, const char *name, int32_t schema_id, int ncols,
	      const int32_t *field_ids, const SqlType *types)
{
	memset(enc, 0, sizeof *enc);
	enc->ncols = ncols;
	enc->ns = xstrdup(ns);
	enc->name = xstrdup(name);
	enc->schema_id = schema_id;
	enc->types = xmalloc(sizeof(SqlType) * (size_t)(ncols + 1));
	enc->field_ids = xmalloc(sizeof(int32_t) * (size_t)(ncols + 1));
	memcpy(enc->types, types, sizeof(SqlType) * (size_t)ncols);
	memcpy(enc->field_ids, field_ids, sizeof(int32_t) * (size_t)ncols);
	enc->col = xcalloc((size_t)ncols + 1, sizeof(uint8_t *));
	enc->col_len = xcalloc((size_t)ncols + 1, sizeof(size_t));
	enc->col_cap = xcalloc((size_t)ncols + 1, sizeof(size_t));
	enc->valid = xcalloc((size_t)ncols + 1, sizeof(uint8_t *));
	enc->has_nulls = xcalloc((size_t)ncols + 1, sizeof(bool));
}

void
rowcodec_add(RowEncoder *enc, const Batch *b)
{
	int c;
	uint32_t i, base = enc->nrows, nbytes = (base + b->count + 7) / 8;

	for (c = 0; c < enc->ncols; c++) {
		const Vector *v = &b->cols[c];
		VectorView vv;
		TypeId id = enc->types[c].id;
		size_t w = type_width(id);
		static const uint8_t zero[32];

		vector_view(v, &vv);
		enc->valid[c] = xrealloc(enc->valid[c], nbytes + 1);
		for (i = 0; i < b->count; i++) {
			uint32_t k = vv.sel ? vv.sel[i] : i, r = base + i;
			bool ok = validity_get(vv.validity, k);
			if (r % 8 == 0)
				enc->valid[c][r / 8] = 0;
			if (ok)
				enc->valid[c][r / 8] |= (uint8_t)(1u << (r % 8));
			else
				enc->has_nulls[c] = true;
			if (type_is_string(id)) {
				if (ok) {
					const strview *sv = &((const strview *)vv.data)[k];
					uint32_t n = sv->len;
					put(&enc->col[c], &enc->col_len[c], &enc->col_cap[c], &n, 4);
					put(&enc->col[c], &enc->col_len[c], &enc->col_cap[c], strview_data(sv), n);
				}
			} else if (w > 0) {
				put(&enc->col[c], &enc->col_len[c], &enc->col_cap[c],
				    ok ? (const uint8_t *)vv.data + (size_t)k * w : zero, w);
			}
		}
	}
	enc->nrows += b->count;
}

void
rowcodec_finish(RowEncoder *enc, uint8_t **bytes, size_t *len)
{
	uint8_t *p = NULL;
	size_t n = 0, cap = 0;
	uint32_t u32 = MAGIC;
	uint16_t u16;
	int c;

	put(&p, &n, &cap, &u32, 4);
	put(&p, &n, &cap, &enc->schema_id, 4);
	u16 = (uint16_t)strlen(enc->ns);
	put(&p, &n, &cap, &u16, 2);
	put(&p, &n, &cap, enc->ns, u16);
	u16 = (uint16_t)strlen(enc->name);
	put(&p, &n, &cap, &u16, 2);
	put(&p, &n, &cap, enc->name, u16);
	put(&p, &n, &cap, &enc->nrows, 4);
	u16 = (uint16_t)enc->ncols;
	put(&p, &n, &cap, &u16, 2);
	for (c = 0; c < enc->ncols; c++) {
		const SqlType *t = &enc->types[c];
		uint8_t tb[5] = { (uint8_t)t->id, t->precision, t->scale, t->text_kind, t->elem };
		put(&p, &n, &cap, &enc->field_ids[c], 4);
		put(&p, &n, &cap, tb, 5);
		put(&p, &n, &cap, &t->typmod, 4);
		put(&p, &n, &cap, &t->vector, 1);
	}
	for (c = 0; c < enc->ncols; c++) {
		uint32_t vb = enc->has_nulls[c] ? (enc->nrows + 7) / 8 : 0;
		uint32_t total = 1 + vb + (uint32_t)enc->col_len[c];
		uint8_t hn = enc->has_nulls[c];
		put(&p, &n, &cap, &total, 4);
		put(&p, &n, &cap, &hn, 1);
		if (vb)
			put(&p, &n, &cap, enc->valid[c], vb);
		if (enc->col_len[c])
			put(&p, &n, &cap, enc->col[c], enc->col_len[c]);
	}
	*bytes = p;
	*len = n;
}

void
rowcodec_dispose(RowEncoder *enc)
{
	int c;

	for (c = 0; c < enc->ncols; c++) {
		free(enc->col[c]);
		free(enc->valid[c]);
	}
	free(enc->col);
	free(enc->col_len);
	free(enc->col_cap);
	free(enc->valid);
	free(enc->has_nulls);
	free(enc->types);
	free(enc->field_ids);
	free(enc->ns);
	free(enc->name);
	memset(enc, 0, sizeof *enc);
}

/* ---- decoding ---------------------------------------------------------- */

typedef struct Rd {
	const uint8_t *p;
	size_t left;
	bool bad;
} Rd;

static const uint8_t *
take(Rd *r, size_t n)
{
	const uint8_t *q = r->p;

	if (r->bad || n > r->left) {
		r->bad = true;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	return q;
}

static uint32_t
rd_u32(Rd *r)
{
	uint32_t v = 0;
	const uint8_t *q = take(r, 4);
	if (q)
		memcpy(&v, q, 4);
	return v;
}

static uint16_t
rd_u16(Rd *r)
{
	uint16_t v = 0;
	const uint8_t *q = take(r, 2);
	if (q)
		memcpy(&v, q, 2);
	return v;
}

static char *
rd_str(Rd *r, Arena *a)
{
	uint16_t n = rd_u16(r);
	const uint8_t *q = take(r, n);
	return q ? arena_strndup(a, (const char *)q, n) : NULL;
}

static int
corrupt(floe_error *err)
{
	return floe_errorf(err, ERRCODE_DATA_CORRUPTED, "corrupt insert buffer entry");
}

int
rowcodec_decode(const uint8_t *bytes, size_t len, Arena *a, RowEntry *out, floe_error *err)
{
	Rd r = { bytes, len, false };
	int c;

	memset(out, 0, sizeof *out);
	if (rd_u32(&r) != MAGIC)
		return corrupt(err);
	out->schema_id = (int32_t)rd_u32(&r);
	out->ns = rd_str(&r, a);
	out->name = rd_str(&r, a);
	out->nrows = rd_u32(&r);
	out->ncols = rd_u16(&r);
	if (r.bad)
		return corrupt(err);
	out->field_ids = ARENA_ARRAY(a, int32_t, out->ncols + 1);
	out->types = ARENA_ARRAY(a, SqlType, out->ncols + 1);
	out->col = ARENA_ARRAY(a, const uint8_t *, out->ncols + 1);
	out->col_len = ARENA_ARRAY(a, size_t, out->ncols + 1);
	for (c = 0; c < out->ncols; c++) {
		const uint8_t *tb;
		SqlType *t = &out->types[c];
		memset(t, 0, sizeof *t);
		out->field_ids[c] = (int32_t)rd_u32(&r);
		tb = take(&r, 5);
		if (!tb)
			return corrupt(err);
		t->id = (TypeId)tb[0];
		t->precision = tb[1];
		t->scale = tb[2];
		t->text_kind = tb[3];
		t->elem = tb[4];
		t->typmod = (int32_t)rd_u32(&r);
		tb = take(&r, 1);
		if (!tb)
			return corrupt(err);
		t->vector = tb[0];
		if (t->id > TYPE_ARRAY)
			return corrupt(err);
	}
	if (out->ncols == 0 && out->nrows > 0)
		return corrupt(err);
	for (c = 0; c < out->ncols; c++) {
		uint32_t n = rd_u32(&r);
		size_t need;
		out->col[c] = take(&r, n);
		out->col_len[c] = n;
		if (!out->col[c] || n < 1)
			return corrupt(err);
		/* the rows must fit the column's bytes: a damaged count never
		 * makes the batches bigger than the entry */
		need = 1 + (out->col[c][0] ? ((size_t)out->nrows + 7) / 8 : 0) +
		       (type_is_string(out->types[c].id) ? 0 : (size_t)out->nrows * type_width(out->types[c].id));
		if (need > n || (type_is_string(out->types[c].id) && !out->col[c][0] &&
				 (size_t)out->nrows * 4 > n))
			return corrupt(err);
	}
	if (r.bad)
		return corrupt(err);
	return FLOE_OK;
}

/* Fill column `dst` of batches from entry column c (rows split into
 * batches of VECTOR_SIZE). */
static int
fill_column(const RowEntry *e, int c, Batch **bs, int nb, int dst, floe_error *err)
{
	Rd r = { e->col[c], e->col_len[c], false };
	const uint8_t *hn = take(&r, 1), *valid = NULL;
	TypeId id = e->types[c].id;
	size_t w = type_width(id);
	uint32_t i;

	if (hn && *hn)
		valid = take(&r, (e->nrows + 7) / 8);
	if (r.bad)
		return corrupt(err);
	for (i = 0; i < e->nrows; i++) {
		Vector *v = &bs[i / VECTOR_SIZE]->cols[dst];
		uint32_t k = i % VECTOR_SIZE;
		bool ok = !valid || (valid[i / 8] >> (i % 8)) & 1;
		(void)nb;
		if (type_is_string(id)) {
			if (ok) {
				uint32_t n = rd_u32(&r);
				const uint8_t *q = take(&r, n);
				if (!q)
					return corrupt(err);
				vector_set_string(v, k, (const char *)q, n);
			} else {
				vector_set_null(v, k);
			}
		} else if (w > 0) {
			const uint8_t *q = take(&r, w);
			if (!q)
				return corrupt(err);
			if (ok)
				memcpy((uint8_t *)v->data + (size_t)k * w, q, w);
			else
				vector_set_null(v, k);
		}
	}
	return FLOE_OK;
}

int
rowcodec_batches(const RowEntry *e, Arena *a, int ncols, const int32_t *field_ids,
		 const SqlType *types, Batch ***batches, int *nbatches, floe_error *err)
{
	int nb = (int)((e->nrows + VECTOR_SIZE - 1) / VECTOR_SIZE), i, c, k;
	Batch **bs = ARENA_ARRAY(a, Batch *, nb + 1);

	for (i = 0; i < nb; i++) {
		/* as wide as its rows: a one-row entry zeroes one row, not 2048 */
		uint32_t cnt = i + 1 < nb ? VECTOR_SIZE : e->nrows - (uint32_t)i * VECTOR_SIZE;
		bs[i] = batch_new(a, ncols, types, cnt);
		bs[i]->count = cnt;
	}
	for (c = 0; c < ncols; c++) {
		int src = -1;
		for (k = 0; k < e->ncols; k++)
			if (e->field_ids[k] == field_ids[c])
				src = k;
		if (src < 0) {
			for (i = 0; i < nb; i++) {
				uint32_t r;
				for (r = 0; r < bs[i]->count; r++)
					vector_set_null(&bs[i]->cols[c], r);
			}
			continue;
		}
		if (!type_equal_stored(e->types[src], types[c]))
			return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
					   "buffered rows of \"%s\" have another type in column %d than the table",
					   e->name, c + 1);
		TRY(fill_column(e, src, bs, nb, c, err));
	}
	*batches = bs;
	*nbatches = nb;
	return FLOE_OK;
}
