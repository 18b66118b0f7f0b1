/*
 * prune.c — skip data files and Parquet row groups that cannot hold a row
 * satisfying a scan's filter, from column statistics: a data file's
 * Iceberg bounds and counts (manifest lower_bounds / upper_bounds /
 * null_value_counts / value_counts) and a row group's Parquet chunk
 * statistics (min / max / null_count).
 *
 * Spec: apache/iceberg format/spec.md "Manifests" (bounds are inclusive;
 * string and binary bounds may be truncated: a truncated lower bound is
 * still a lower bound, an upper bound is incremented), "Appendix D:
 * Single-value serialization"; apache/parquet-format "Statistics".
 *
 * A predicate over the scan's output columns (the Expr a filter right
 * above the scan evaluates; EXPR_COLREF col = the scan's i-th projected
 * column) is proven FALSE-or-NULL for every row of a file / row group
 * from the conjuncts and disjuncts this module understands:
 *   col op const, const op col   (op: = < <= > >=; col may be an integer
 *                                 widening cast of a column)
 *   col IS NULL, col IS NOT NULL
 *   AND (any conjunct proven), OR (every disjunct proven)
 * Anything else proves nothing.  Types: integers, date, time, timestamp,
 * timestamptz, numeric and text (byte-wise, floe's C collation).  Floats
 * are never pruned (NaN sorts above every number in PostgreSQL and is not
 * in the bounds); bpchar neither (trailing blanks do not count).
 *
 * Invariant: prune_* returns true only when no row of the unit can make
 * pred TRUE; false is always safe.
 *
 * INTERFACE ROUTINES (exec.h)
 *   prune_file(pred, nproj, proj, schema, file)       skip a data file?
 *                    (proj NULL: COLREF col i is schema field i, as in DML)
 *   prune_row_group(pred, nproj, pq_col, pf, rg)     skip a row group?
 */
#include <string.h>
#include "exec/exec.h"
#include "exec/expr.h"
#include "format/parquet/parquet.h"
#include "func/func.h"
#include "table/iceberg.h"
#include "types/decimal.h"

/* What is known of one column over one unit (file or row group). */
typedef struct ColStats {
	bool known;              /* anything at all */
	bool has_nulls_info;     /* null_count / value_count */
	int64_t null_count;
	int64_t value_count;     /* -1 unknown */
	bool has_min, has_max;
	Value min, max;          /* of the column's type */
} ColStats;

typedef bool (*StatsFn)(void *arg, int col, ColStats *out);

static bool
prunable(SqlType t)
{
	if (type_is_integer(t.id))
		return true;
	switch (t.id) {
	case TYPE_DATE:
	case TYPE_TIME:
	case TYPE_TIMESTAMP:
	case TYPE_TIMESTAMPTZ:
	case TYPE_DECIMAL:
		return true;
	case TYPE_TEXT:   /* an enum's order is not its labels' (the bounds') */
		return t.text_kind != TEXT_CHAR && t.text_kind != TEXT_ENUM;
	default:
		return false;
	}
}

/* Three-way compare of two non-NULL values of comparable types. */
static bool
cmp_values(const Value *a, const Value *b, int *out)
{
	TypeId x = a->type.id, y = b->type.id;

	if (type_is_integer(x) && type_is_integer(y)) {
		*out = a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
		return true;
	}
	if (x != y)
		return false;
	switch (x) {
	case TYPE_DATE:
	case TYPE_TIME:
	case TYPE_TIMESTAMP:
	case TYPE_TIMESTAMPTZ:
		*out = a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
		return true;
	case TYPE_DECIMAL:
		*out = decimal_cmp(a->u.d, a->type.scale, b->u.d, b->type.scale);
		return true;
	case TYPE_TEXT:
		*out = strview_cmp(&a->u.s, &b->u.s);
		*out = *out < 0 ? -1 : *out > 0;
		return true;
	default:
		return false;
	}
}

/* The column a comparison side names: a COLREF, or an integer widening
 * cast of one (int4 col = int8 const binds as CAST(col) = const). */
static const Expr *
colref_of(const Expr *e)
{
	if (e->kind == EXPR_COLREF)
		return e;
	if (e->kind == EXPR_CAST && e->nargs == 1 && e->args[0]->kind == EXPR_COLREF &&
	    type_is_integer(e->type.id) && type_is_integer(e->args[0]->type.id) &&
	    type_width(e->type.id) >= type_width(e->args[0]->type.id))
		return e->args[0];
	return NULL;
}

static bool
prove_cmp(const Expr *e, StatsFn fn, void *arg)
{
	const char *op = e->fn->name;
	const Expr *col, *k;
	ColStats st;
	bool flip;
	int c;

	if (e->nargs != 2 || !e->args[0] || !e->args[1])
		return false;
	flip = e->args[0]->kind == EXPR_CONST;
	col = colref_of(e->args[flip ? 1 : 0]);
	k = e->args[flip ? 0 : 1];
	if (!col || k->kind != EXPR_CONST || !prunable(col->type) || !prunable(k->type))
		return false;
	memset(&st, 0, sizeof st);
	if (!fn(arg, col->col, &st) || !st.known)
		return false;
	if (k->value.is_null)
		return true;                       /* strict operator: NULL */
	if (st.has_nulls_info && st.value_count >= 0 && st.null_count == st.value_count)
		return true;                       /* every value NULL */
	if (flip) {                                /* c op col -> col op' c */
		if (!strcmp(op, "<"))
			op = ">";
		else if (!strcmp(op, "<="))
			op = ">=";
		else if (!strcmp(op, ">"))
			op = "<";
		else if (!strcmp(op, ">="))
			op = "<=";
	}
	/* col = k, col < k, col <= k are impossible when min is above k */
	if (st.has_min && (!strcmp(op, "=") || !strcmp(op, "<") || !strcmp(op, "<=")) &&
	    cmp_values(&st.min, &k->value, &c)) {
		if (!strcmp(op, "<") ? c >= 0 : c > 0)
			return true;
	}
	/* col = k, col > k, col >= k are impossible when max is below k */
	if (st.has_max && (!strcmp(op, "=") || !strcmp(op, ">") || !strcmp(op, ">=")) &&
	    cmp_values(&st.max, &k->value, &c)) {
		if (!strcmp(op, ">") ? c <= 0 : c < 0)
			return true;
	}
	return false;
}

/* True when pred is FALSE or NULL on every row the stats describe. */
static bool
prove(const Expr *e, StatsFn fn, void *arg)
{
	ColStats st;
	int i;

	if (!e)
		return false;
	switch (e->kind) {
	case EXPR_AND:
		for (i = 0; i < e->nargs; i++)
			if (prove(e->args[i], fn, arg))
				return true;
		return false;
	case EXPR_OR:
		for (i = 0; i < e->nargs; i++)
			if (!prove(e->args[i], fn, arg))
				return false;
		return e->nargs > 0;
	case EXPR_IS_NULL:
	case EXPR_IS_NOT_NULL:
		if (e->nargs != 1 || e->args[0]->kind != EXPR_COLREF)
			return false;
		memset(&st, 0, sizeof st);
		if (!fn(arg, e->args[0]->col, &st) || !st.known || !st.has_nulls_info ||
		    st.null_count < 0)
			return false;
		if (e->kind == EXPR_IS_NULL)
			return st.null_count == 0;
		return st.value_count >= 0 && st.null_count == st.value_count;
	case EXPR_FUNC:
		if (e->fn && e->fn->is_operator &&
		    (!strcmp(e->fn->name, "=") || !strcmp(e->fn->name, "<") ||
		     !strcmp(e->fn->name, "<=") || !strcmp(e->fn->name, ">") ||
		     !strcmp(e->fn->name, ">=")))
			return prove_cmp(e, fn, arg);
		return false;
	default:
		return false;
	}
}

/* ---- data files: Iceberg bounds ---------------------------------------- */

typedef struct FileArg {
	int nproj;
	const int *proj;
	const IcebergSchema *schema;
	const DataFile *file;
} FileArg;

static uint64_t
le_uint(const uint8_t *b, uint32_t n)
{
	uint64_t u = 0;
	while (n--)
		u = u << 8 | b[n];
	return u;
}

/* Appendix D single-value serialization -> Value of type t. */
static bool
decode_bound(SqlType t, const uint8_t *b, uint32_t len, Value *out)
{
	memset(out, 0, sizeof *out);
	out->type = t;
	if (!b)
		return false;
	if (type_is_integer(t.id) || t.id == TYPE_DATE) {
		if (len == 4)
			out->u.i = (int32_t)(uint32_t)le_uint(b, 4);
		else if (len == 8)
			out->u.i = (int64_t)le_uint(b, 8);
		else
			return false;
		return true;
	}
	switch (t.id) {
	case TYPE_TIME:
	case TYPE_TIMESTAMP:
	case TYPE_TIMESTAMPTZ:
		if (len == 4 && t.id == TYPE_TIMESTAMP) {
			/* a date column promoted to timestamp (v3): days */
			out->u.i = (int64_t)(int32_t)(uint32_t)le_uint(b, 4) * INT64_C(86400000000);
			return true;
		}
		if (len != 8)
			return false;
		out->u.i = (int64_t)le_uint(b, 8);
		return true;
	case TYPE_DECIMAL: {
		/* big-endian two's complement unscaled value, minimal bytes */
		uint32_t i;
		unsigned __int128 u;
		if (len == 0 || len > 16)
			return false;
		u = (b[0] & 0x80) ? ~(unsigned __int128)0 : 0;
		for (i = 0; i < len; i++)
			u = u << 8 | b[i];
		out->u.d = (int128)u;
		return true;
	}
	case TYPE_TEXT:
		out->u.s = strview_make((const char *)b, len);
		return true;
	default:
		return false;
	}
}

static bool
file_stats(void *arg, int col, ColStats *out)
{
	FileArg *fa = arg;
	const IcebergField *fld;
	int i, p;

	if (col < 0 || col >= fa->nproj)
		return false;
	p = fa->proj ? fa->proj[col] : col;
	if (p < 0 || p >= fa->schema->nfields)
		return false;
	fld = &fa->schema->fields[p];
	for (i = 0; i < fa->file->ncolumns; i++) {
		const ColumnStat *cs = &fa->file->columns[i];
		if (cs->field_id != fld->id)
			continue;
		out->known = true;
		out->has_nulls_info = cs->null_count >= 0 && cs->value_count >= 0;
		out->null_count = cs->null_count;
		out->value_count = cs->value_count;
		out->has_min = decode_bound(fld->type, cs->lower, cs->lower_len, &out->min);
		out->has_max = decode_bound(fld->type, cs->upper, cs->upper_len, &out->max);
		return true;
	}
	return false;
}

bool
prune_file(const Expr *pred, int nproj, const int *proj, const IcebergSchema *schema,
	   const DataFile *file)
{
	FileArg fa = { nproj, proj, schema, file };

	if (!pred || !file || file->ncolumns == 0)
		return false;
	return prove(pred, file_stats, &fa);
}

/* ---- row groups: Parquet statistics ------------------------------------ */

typedef struct RgArg {
	int nproj;
	const int *pq_col;
	ParquetFile *pf;
	int rg;
} RgArg;

static bool
rg_stats(void *arg, int col, ColStats *out)
{
	RgArg *ra = arg;
	ParquetStats ps;
	floe_error err;
	int pc;

	if (col < 0 || col >= ra->nproj || (pc = ra->pq_col[col]) < 0)
		return false;
	if (parquet_column_stats(ra->pf, ra->rg, pc, &ps, &err) != FLOE_OK)
		return false;
	out->known = true;
	out->has_nulls_info = ps.has_null_count;
	out->null_count = ps.has_null_count ? ps.null_count : -1;
	out->value_count = ps.has_null_count ? parquet_row_group_num_rows(ra->pf, ra->rg) : -1;
	out->has_min = out->has_max = ps.has_min_max;
	out->min = ps.min;
	out->max = ps.max;
	return true;
}

bool
prune_row_group(const Expr *pred, int nproj, const int *pq_col, ParquetFile *pf, int rg)
{
	RgArg ra = { nproj, pq_col, pf, rg };

	if (!pred || !pf)
		return false;
	return prove(pred, rg_stats, &ra);
}
