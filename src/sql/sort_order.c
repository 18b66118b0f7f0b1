/*
 * sort_order.c — writers honour the table's default sort order (Iceberg
 * spec "Sorting"): the rows an INSERT / COPY FROM / CREATE TABLE AS / an
 * insert-buffer flush writes are sorted by it before they reach the data
 * writer, so every file it rolls (and every partition's file) is sorted,
 * and the files record the order's sort_order_id.
 *
 * Only orders whose every field the sort can honour are applied: identity,
 * and the monotone transforms year / month / day / hour / truncate (rows
 * ordered by the source column are ordered by them).  A bucket or void
 * field cannot be ordered by the source: such an order is left alone (no
 * sort, and no sort_order_id claimed for the files).
 *
 * INTERFACE ROUTINES (bind.h)
 *   sort_order_input(ctx, md, root, &order_id)   root, sorted when it can be
 *   sort_order_keys(a, md, &keys, &nkeys, &order_id)  its sort keys (over the
 *                                                schema's columns), if any
 */
#include <string.h>
#include "sql/bind.h"
#include "table/metadata.h"

bool
sort_order_keys(Arena *a, const TableMetadata *md, SortKey **keys, int *nkeys, int32_t *order_id)
{
	const IcebergSchema *schema = metadata_current_schema(md);
	const SortOrder *so = NULL;
	int i, f;

	*order_id = -1;
	*keys = NULL;
	*nkeys = 0;
	for (i = 0; i < md->nsort_orders; i++)
		if (md->sort_orders[i].order_id == md->default_sort_order_id)
			so = &md->sort_orders[i];
	if (!so || so->nfields == 0)
		return false;
	*keys = ARENA_ARRAY(a, SortKey, so->nfields);
	for (i = 0; i < so->nfields; i++) {
		const SortField *sf = &so->fields[i];
		const char *tr = sf->transform;
		if (strcmp(tr, "identity") && strcmp(tr, "year") && strcmp(tr, "month") &&
		    strcmp(tr, "day") && strcmp(tr, "hour") && strncmp(tr, "truncate[", 9))
			return false;
		for (f = 0; f < schema->nfields; f++)
			if (schema->fields[f].id == sf->source_id)
				break;
		if (f == schema->nfields || schema->fields[f].nested)
			return false;
		(*keys)[i].col = f;
		(*keys)[i].desc = !strcmp(sf->direction, "desc");
		(*keys)[i].nulls_first = !strcmp(sf->null_order, "nulls-first");
	}
	*nkeys = so->nfields;
	*order_id = so->order_id;
	return true;
}

Operator *
sort_order_input(ExecCtx *ctx, const TableMetadata *md, Operator *root, int32_t *order_id)
{
	SortKey *keys;
	int nkeys;

	if (!sort_order_keys(ctx->arena, md, &keys, &nkeys, order_id)) {
		*order_id = -1;
		return root;
	}
	return sort_new(ctx, root, nkeys, keys);
}
