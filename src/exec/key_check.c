/*
 * key_check.c — the PRIMARY KEY checks of the row-level writes
 * (modify.h): PostgreSQL's 23505 and its DETAIL, a key held twice by the
 * rows a statement writes, and the data files whose column bounds can
 * hold one of those keys (so a check, or a MERGE's target scan, reads
 * only those).
 *
 * Iceberg has no unique index: UPDATE (sql/dml.c), MERGE and
 * INSERT ... ON CONFLICT (sql/merge.c) and INSERT into a keyed table
 * (sql/insert.c) check the keys they write against each other and against
 * the live rows, each with its own rule for which live rows stay; what
 * they share is here.
 *
 * Bounds (apache/iceberg format/spec.md "Manifests", "Appendix D:
 * Single-value serialization") order as the values for integers, date,
 * time, timestamp[tz] and text but bpchar (trailing blanks do not
 * count): key_range_type.  Truncated text bounds still enclose the values
 * (the lower a prefix, the upper incremented).  A bound that cannot be
 * decoded, or a file without metrics for the column, keeps the file.
 *
 * INTERFACE ROUTINES (modify.h)
 *   key_text(a, schema, pk, npk, b, cols, r)    "Key (a, b)=(1, x)"
 *   key_error(err, table, key)                  23505 with that DETAIL
 *   key_check_twice(&kc, keys)                  23505: a key twice
 *   key_check_files(&kc, keys, files, nfiles, idx)   files that may hold a key
 *   key_range_type(type) / key_range_add(&r, v, n, copy) /
 *   key_range_outside(&r, file)                 one key column's range
 */
#include <stdio.h>
#include <string.h>
#include "exec/modify.h"
#include "table/iceberg.h"
#include "types/text.h"

const char *
key_text(Arena *a, const IcebergSchema *schema, const int *pk, int npk, const Batch *b,
	 const int *cols, uint32_t r)
{
	char names[600], vals[600];
	size_t un = 0, uv = 0;
	int k;

	names[0] = vals[0] = '\0';
	for (k = 0; k < npk && un < sizeof names - 8 && uv < sizeof vals - 8; k++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[cols ? cols[k] : k], r, a, &len);
		un += (size_t)snprintf(names + un, sizeof names - un, "%s%s", k ? ", " : "",
				       schema->fields[pk[k]].name);
		uv += (size_t)snprintf(vals + uv, sizeof vals - uv, "%s%.*s", k ? ", " : "",
				       t ? (int)(len > 200 ? 200 : len) : 4, t ? t : "null");
	}
	return arena_sprintf(a, "Key (%s)=(%s)", names, vals);
}

int
key_error(floe_error *err, const char *table, const char *key)
{
	floe_errorf(err, ERRCODE_UNIQUE_VIOLATION,
		    "duplicate key value violates unique constraint \"%s_pkey\"", table);
	return floe_error_detail(err, "%s already exists.", key);
}

int
key_check_twice(const KeyCheck *kc, RowStore *keys)
{
	ExecCtx *ctx = kc->ctx;
	Arena *a = ctx->arena;
	WindowSpec *spec = ARENA_ARRAY(a, WindowSpec, 1);
	WindowCall *call = ARENA_ARRAY(a, WindowCall, 1);
	Operator *op;
	Batch *b;
	int c, rc;

	/* row_number() over (partition by the key) > 1 */
	spec->npart = kc->npk;
	spec->part = ARENA_ARRAY(a, Expr *, kc->npk + 1);
	for (c = 0; c < kc->npk; c++)
		spec->part[c] = expr_colref(a, c, kc->schema->fields[kc->pk[c]].type);
	call->kind = WIN_ROW_NUMBER;
	call->type = type_make(TYPE_INT64);
	call->frame.start = WB_UNBOUNDED_PRECEDING;
	call->frame.end = WB_CURRENT;
	op = window_new(ctx, rowstore_scan_new(ctx, keys), 1, spec, 1, call);
	if ((rc = op_open(op)) == FLOE_OK)
		for (;;) {
			uint32_t j;
			if ((rc = exec_check_cancel(ctx)) != FLOE_OK ||
			    (rc = op_next(op, &b)) != FLOE_OK || !b)
				break;
			batch_compact(b);
			for (j = 0; j < b->count; j++) {
				Value rn;
				vector_get_value(&b->cols[kc->npk], j, &rn);
				if (!rn.is_null && rn.u.i > 1)
					break;
			}
			if (j < b->count) {
				rc = key_error(ctx->err, kc->table,
					       key_text(a, kc->schema, kc->pk, kc->npk, b, NULL, j));
				break;
			}
		}
	op_close(op);
	return rc;
}

bool
key_range_type(SqlType t)
{
	switch (t.id) {
	case TYPE_INT16:
	case TYPE_INT32:
	case TYPE_INT64:
	case TYPE_DATE:
	case TYPE_TIME:
	case TYPE_TIMESTAMP:
	case TYPE_TIMESTAMPTZ:
		return true;
	case TYPE_TEXT:
		return t.text_kind != TEXT_CHAR;
	default:
		return false;
	}
}

static int
value_cmp(TypeId id, const Value *a, const Value *b)
{
	if (id == TYPE_TEXT)
		return strview_cmp(&a->u.s, &b->u.s);
	return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
}

void
key_range_add(KeyRange *r, const Vector *v, uint32_t n, Arena *copy)
{
	uint32_t j;

	for (j = 0; j < n; j++) {
		Value x;
		vector_get_value(v, j, &x);
		if (x.is_null)
			continue;
		if (copy && r->id == TYPE_TEXT && x.u.s.len > STRVIEW_INLINE)
			x.u.s = strview_make(arena_memdup(copy, x.u.s.u.ptr, x.u.s.len), x.u.s.len);
		if (!r->any || value_cmp(r->id, &x, &r->lo) < 0)
			r->lo = x;
		if (!r->any || value_cmp(r->id, &x, &r->hi) > 0)
			r->hi = x;
		r->any = true;
	}
}

/* A column bound (single-value serialization) against v; false when the
 * bound cannot be decoded. */
static bool
bound_cmp(TypeId id, const uint8_t *p, uint32_t len, const Value *v, int *out)
{
	Value bv;
	int k;

	memset(&bv, 0, sizeof bv);
	if (id == TYPE_TEXT) {
		bv.u.s = strview_make((const char *)p, len);
	} else if (len == 4 && (id == TYPE_INT16 || id == TYPE_INT32 || id == TYPE_DATE)) {
		uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			     (uint32_t)p[3] << 24;
		bv.u.i = (int32_t)u;
	} else if (len == 8 && id != TYPE_INT16 && id != TYPE_INT32 && id != TYPE_DATE) {
		uint64_t u = 0;
		for (k = 7; k >= 0; k--)
			u = u << 8 | p[k];
		bv.u.i = (int64_t)u;
	} else {
		return false;
	}
	*out = value_cmp(id, &bv, v);
	return true;
}

bool
key_range_outside(const KeyRange *r, const DataFile *f)
{
	int i, c;

	if (!r->any)
		return true;
	for (i = 0; i < f->ncolumns; i++) {
		const ColumnStat *st = &f->columns[i];
		if (st->field_id != r->field_id)
			continue;
		if (st->upper && bound_cmp(r->id, st->upper, st->upper_len, &r->lo, &c) && c < 0)
			return true;
		if (st->lower && bound_cmp(r->id, st->lower, st->lower_len, &r->hi, &c) && c > 0)
			return true;
		return false;
	}
	return false;
}

int
key_check_files(const KeyCheck *kc, RowStore *keys, const DataFile *files, int nfiles, int *idx)
{
	KeyRange *kr = ARENA_ARRAY(kc->ctx->arena, KeyRange, kc->npk + 1);
	int c, i, n = 0;

	for (c = 0; c < kc->npk; c++) {
		const IcebergField *fd = &kc->schema->fields[kc->pk[c]];
		kr[c].field_id = fd->id;
		kr[c].id = fd->type.id;
		if (!key_range_type(fd->type))
			continue;
		for (i = 0; i < rowstore_nbatches(keys); i++) {
			const Batch *kb = rowstore_batch(keys, i);
			/* strings live in the store */
			key_range_add(&kr[c], &kb->cols[c], kb->count, NULL);
		}
	}
	for (i = 0; i < nfiles; i++) {
		bool out = false;
		for (c = 0; c < kc->npk && !out; c++)
			if (key_range_type(kc->schema->fields[kc->pk[c]].type))
				out = key_range_outside(&kr[c], &files[i]);
		if (!out)
			idx[n++] = i;
	}
	return n;
}
