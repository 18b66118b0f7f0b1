/*
 * analyze.c — ANALYZE t [(cols)]: per-column NDV theta sketches written to
 * a Puffin statistics file and registered with the table (see analyze.h).
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <string.h>
#include "exec/exec.h"
#include "sql/analyze.h"
#include "sql/txn.h"
#include "table/partition_stats.h"
#include "table/table.h"
#include "table/table_stats.h"
#include "types/vector.h"

#define ANALYZE_COMMIT_TRIES 8

/* Which schema columns to analyze: *idx[0..*n). */
static int
pick_columns(const IcebergSchema *sc, const char *name, PgQuery__VacuumRelation *vr, Arena *a,
	     int **idx, int *n, floe_error *err)
{
	size_t i;
	int k, j;

	*idx = ARENA_ARRAY(a, int, (size_t)sc->nfields + vr->n_va_cols + 1);
	*n = 0;
	if (vr->n_va_cols == 0) {
		for (k = 0; k < sc->nfields; k++)
			if (!sc->fields[k].nested && theta_type_ok(sc->fields[k].type))
				(*idx)[(*n)++] = k;
		return FLOE_OK;
	}
	for (i = 0; i < vr->n_va_cols; i++) {
		const char *c = vr->va_cols[i]->string->sval;
		for (k = 0; k < sc->nfields && strcmp(sc->fields[k].name, c); k++)
			;
		if (k == sc->nfields)
			return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
					   "column \"%s\" of relation \"%s\" does not exist", c, name);
		for (j = 0; j < *n; j++)
			if ((*idx)[j] == k)
				return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
						   "column \"%s\" of relation \"%s\" appears more than once",
						   c, name);
		if (sc->fields[k].nested || !theta_type_ok(sc->fields[k].type))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "ANALYZE of column \"%s\": %s columns have no NDV statistics",
					   c, sc->fields[k].iceberg_type ? sc->fields[k].iceberg_type : "nested");
		(*idx)[(*n)++] = k;
	}
	return FLOE_OK;
}

/* Feed column c of b (compacted) into sk; ns: an Iceberg timestamp_ns /
 * timestamptz_ns column (read as microseconds), hashed in nanoseconds as
 * its single-value serialization is. */
static void
feed(ThetaSketch *sk, const Vector *v, uint32_t count, bool ns)
{
	VectorView vv;
	uint8_t buf[32];
	const uint8_t *p;
	size_t len;
	uint32_t i;

	vector_view(v, &vv);
	for (i = 0; i < count; i++) {
		uint32_t k = vv.sel ? vv.sel[i] : i;
		if (!validity_get(vv.validity, k))
			continue;
		if (ns) {
			int64_t x = ((const int64_t *)vv.data)[k] * 1000;
			int j;
			for (j = 0; j < 8; j++)
				buf[j] = (uint8_t)((uint64_t)x >> (8 * j));
			theta_update(sk, buf, 8);
			continue;
		}
		if (theta_value_bytes(v->type, vv.data, k, buf, &p, &len))
			theta_update(sk, p, len);
	}
}

/* Sketch the columns idx[0..n) of snapshot sn of t. */
static int
sketch_columns(Session *s, ExecCtx *ctx, const Table *t, const IcebergSchema *sc,
	       const Snapshot *sn, const int *idx, int n, StatsColumn *cols, int64_t *rows)
{
	DataFile *files;
	Operator *op;
	Batch *b;
	int nf, c, rc;

	for (c = 0; c < n; c++) {
		cols[c].field_id = sc->fields[idx[c]].id;
		cols[c].sketch = ARENA_NEW(ctx->arena, ThetaSketch);
		theta_init(cols[c].sketch, THETA_DEFAULT_LG_K, ctx->arena);
	}
	*rows = 0;
	TRY(table_scan_files(s->engine->io, t, sn->snapshot_id, ctx->arena, &files, &nf, ctx->err));
	if (nf == 0 || n == 0)
		return FLOE_OK;
	op = scan_new(ctx, sc, n, idx, files, nf, false, t->md);
	if ((rc = op_open(op)) == FLOE_OK)
		while ((rc = op_next(op, &b)) == FLOE_OK && b) {
			if (!b->count)
				continue;
			batch_compact(b);
			*rows += b->count;
			for (c = 0; c < n; c++) {
				const char *it = sc->fields[idx[c]].iceberg_type;
				size_t il = it ? strlen(it) : 0;
				feed(cols[c].sketch, &b->cols[c], b->count,
				     il > 3 && !strcmp(it + il - 3, "_ns"));
			}
			if ((rc = exec_check_cancel(ctx)) != FLOE_OK)
				break;
		}
	op_close(op);
	return rc;
}

/* Is path still named by md's statistics (or partition statistics)? */
static bool
still_named(const TableMetadata *md, const char *path)
{
	json_t *ps = md->extra ? json_object_get(md->extra, "partition-statistics") : NULL, *e;
	size_t j;
	int i;

	for (i = 0; i < md->nstatistics; i++)
		if (!strcmp(md->statistics[i].statistics_path, path))
			return true;
	json_array_foreach(ps, j, e) {
		const char *p = json_string_value(json_object_get(e, "statistics-path"));
		if (p && !strcmp(p, path))
			return true;
	}
	return false;
}

/* Delete a statistics file the commit replaced, when no entry names it
 * any more and it lies under the table's location. */
static void
remove_replaced(FileIO *io, const TableMetadata *md, const char *replaced)
{
	floe_error ignore;
	size_t ll = strlen(md->location);

	if (replaced && !still_named(md, replaced) && !strncmp(replaced, md->location, ll) &&
	    replaced[ll] == '/')
		(void)fileio_remove(io, replaced, &ignore);
}

/* set-statistics sf (and set-partition-statistics ps, when written) on
 * the newest metadata (base first), one metadata-only commit, retried
 * when another commit lands first. */
static int
commit_stats(Session *s, ExecCtx *ctx, Table *base, const StatisticsFile *sf,
	     const PartitionStatsFile *ps, const char **replaced, const char **preplaced,
	     Table **out)
{
	Engine *e = s->engine;
	int attempt;

	for (attempt = 0;; attempt++) {
		TableMetadata *md;
		floe_error e2;
		if (!metadata_snapshot_by_id(base->md, sf->snapshot_id))
			return floe_errorf(ctx->err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					   "snapshot %" PRId64 " of table \"%s\" was expired while ANALYZE ran",
					   sf->snapshot_id, base->name);
		md = metadata_copy(base->md, ctx->arena);
		*replaced = table_stats_set(md, sf, ctx->arena);
		if (ps->path)
			*preplaced = partition_stats_set(md, ps, ctx->arena);
		memset(&e2, 0, sizeof e2);
		if (txn_commit_metadata(s, base, md, ctx->arena, out, &e2) == FLOE_OK)
			return FLOE_OK;
		if (!floe_error_is(&e2, ERRCODE_T_R_SERIALIZATION_FAILURE) ||
		    attempt + 1 >= ANALYZE_COMMIT_TRIES) {
			*ctx->err = e2;
			return FLOE_ERR;
		}
		txn_backoff(10, attempt);
		TRY(table_load(e->catalog, e->io, base->ns, base->name, ctx->arena, &base, ctx->err));
	}
}

int
analyze_table(Session *s, ExecCtx *ctx, const char *ns, const char *name,
	      PgQuery__VacuumRelation *vr, bool verbose, ResultSink *sink)
{
	Engine *e = s->engine;
	const IcebergSchema *sc;
	const Snapshot *sn;
	StatsColumn *cols;
	StatisticsFile sf;
	const char *replaced = NULL, *preplaced = NULL;
	PartitionStatsFile ps;
	Table *t, *after;
	int64_t rows;
	int *idx, n, c;

	if (txn_table_load(s, ns, name, ctx->arena, &t, ctx->err) != FLOE_OK) {
		/* PostgreSQL's message names the relation as written */
		if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(ctx->err, ERRCODE_UNDEFINED_TABLE, "relation \"%s%s%s\" does not exist",
				    vr && vr->relation && !(vr->relation->schemaname && vr->relation->schemaname[0]) ?
				    "" : ns,
				    vr && vr->relation && !(vr->relation->schemaname && vr->relation->schemaname[0]) ?
				    "" : ".", name);
		return FLOE_ERR;
	}
	sc = metadata_current_schema(t->md);
	TRY(pick_columns(sc, name, vr, ctx->arena, &idx, &n, ctx->err));
	sn = metadata_current_snapshot(t->md);
	if (!sn || n == 0)
		return FLOE_OK;          /* no rows (or no primitive column): nothing to sketch */
	cols = ARENA_ARRAY(ctx->arena, StatsColumn, n + 1);
	TRY(sketch_columns(s, ctx, t, sc, sn, idx, n, cols, &rows));
	TRY(table_stats_write(e->io, t->md, sn->snapshot_id, sn->sequence_number, cols, n,
			      ctx->arena, &sf, ctx->err));
	{
		/* a partitioned table: its partition statistics file too */
		DataFile *files;
		int nf;
		if (table_scan_files(e->io, t, sn->snapshot_id, ctx->arena, &files, &nf, ctx->err) != FLOE_OK ||
		    partition_stats_write(e->io, t->md, sn->snapshot_id, files, nf, ctx->arena, &ps,
					  ctx->err) != FLOE_OK) {
			floe_error ignore;
			(void)fileio_remove(e->io, sf.statistics_path, &ignore);
			return FLOE_ERR;
		}
	}
	if (commit_stats(s, ctx, t, &sf, &ps, &replaced, &preplaced, &after) != FLOE_OK) {
		floe_error ignore;
		if (!floe_error_is(ctx->err, "08006")) {   /* outcome unknown: keep the files */
			(void)fileio_remove(e->io, sf.statistics_path, &ignore);
			if (ps.path)
				(void)fileio_remove(e->io, ps.path, &ignore);
		}
		return FLOE_ERR;
	}
	remove_replaced(e->io, after->md, replaced);
	remove_replaced(e->io, after->md, preplaced);
	if (verbose && sink && sink->notice) {
		floe_error note;
		char *msg = arena_sprintf(ctx->arena, "\"%s.%s\": %" PRId64 " rows of snapshot %" PRId64,
					  ns, name, rows, sn->snapshot_id);
		for (c = 0; c < n; c++)
			msg = arena_sprintf(ctx->arena, "%s%s %s ndv %.0f", msg, c ? "," : ";",
					    sc->fields[idx[c]].name, theta_estimate(cols[c].sketch));
		floe_errorf(&note, "00000", "analyzing %s", msg);
		sink->notice(sink->ctx, &note);
	}
	return FLOE_OK;
}
