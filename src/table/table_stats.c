/*
 * table_stats.c — statistics files: list, write, set-statistics (see
 * table_stats.h).  Spec: apache/iceberg format/spec.md "Table
 * Statistics" and format/puffin-spec.md "apache-datasketches-theta-v1".
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "format/puffin/puffin.h"
#include "table/table_private.h"
#include "table/table_stats.h"

#define THETA_BLOB "apache-datasketches-theta-v1"

static void
decref_cb(void *j)
{
	json_decref(j);
}

static int64_t
ndv_of(json_t *props, bool *has)
{
	json_t *v = json_object_get(props, "ndv");
	char *end;
	long long x;

	*has = false;
	if (!json_is_string(v))
		return 0;
	x = strtoll(json_string_value(v), &end, 10);
	if (end == json_string_value(v) || *end || x < 0)
		return 0;
	*has = true;
	return x;
}

/* The Puffin blob of f matching (type, snapshot, first field), else the
 * only one of that type and field (some writers' metadata JSON holds the
 * snapshot ids rounded to a double's precision), or -1. */
static int
find_blob(const PuffinFile *f, const char *type, int64_t snap, int32_t field)
{
	int i, only = -1, nonly = 0;

	for (i = 0; i < f->nblobs; i++) {
		if (strcmp(f->blobs[i].type, type) || f->blobs[i].nfields < 1 ||
		    f->blobs[i].fields[0] != field)
			continue;
		if (f->blobs[i].snapshot_id == snap)
			return i;
		only = i;
		nonly++;
	}
	return nonly == 1 ? only : -1;
}

int
table_stats_list(FileIO *io, const TableMetadata *md, Arena *a, StatsRow **rows, int *n,
		 floe_error *err)
{
	int i, cap = 0, k = 0;
	StatsRow *out = NULL;

	for (i = 0; i < md->nstatistics; i++) {
		json_t *bm = md->statistics[i].raw ?
			json_object_get(md->statistics[i].raw, "blob-metadata") : NULL;
		cap += (int)json_array_size(bm);
	}
	out = ARENA_ARRAY(a, StatsRow, cap + 1);
	for (i = 0; i < md->nstatistics; i++) {
		const StatisticsFile *sf = &md->statistics[i];
		json_t *bm = sf->raw ? json_object_get(sf->raw, "blob-metadata") : NULL, *b;
		PuffinFile *pf = NULL;
		size_t j;

		json_array_foreach(bm, j, b) {
			StatsRow *r = &out[k++];
			json_t *fields = json_object_get(b, "fields"), *sid;
			const char *type = json_string_value(json_object_get(b, "type"));

			memset(r, 0, sizeof *r);
			r->statistics_path = sf->statistics_path;
			r->blob_type = type ? type : "";
			sid = json_object_get(b, "snapshot-id");
			r->snapshot_id = json_is_integer(sid) ? json_integer_value(sid) : sf->snapshot_id;
			r->field_id = json_is_integer(json_array_get(fields, 0)) ?
				(int32_t)json_integer_value(json_array_get(fields, 0)) : -1;
			r->ndv = ndv_of(json_object_get(b, "properties"), &r->has_ndv);
			if (!type || strcmp(type, THETA_BLOB))
				continue;
			if (!pf) {
				const uint8_t *data;
				size_t len;
				TRY(fileio_read(io, sf->statistics_path, a, &data, &len, err));
				TRY(puffin_read(data, len, sf->statistics_path, a, &pf, err));
			}
			{
				int x = find_blob(pf, type, r->snapshot_id, r->field_id);
				const uint8_t *bd;
				size_t bl;
				ThetaSketch sk;
				if (x < 0)
					return floe_errorf(err, ERRCODE_DATA_CORRUPTED,
							   "statistics file \"%s\" has no %s blob for field %d of snapshot %" PRId64,
							   sf->statistics_path, type, (int)r->field_id,
							   r->snapshot_id);
				TRY(puffin_blob_data(pf, x, a, &bd, &bl, err));
				TRY(theta_deserialize(bd, bl, sf->statistics_path, a, &sk, err));
				r->has_estimate = true;
				r->estimate = theta_estimate(&sk);
			}
		}
	}
	*rows = out;
	*n = k;
	return FLOE_OK;
}

int
table_stats_write(FileIO *io, const TableMetadata *md, int64_t snapshot_id, int64_t seq,
		  const StatsColumn *cols, int ncols, Arena *a, StatisticsFile *out,
		  floe_error *err)
{
	PuffinBlob *blobs = ARENA_ARRAY(a, PuffinBlob, ncols + 1);
	PuffinProp fprop = { "created-by", "floe" };
	const uint8_t *data;
	size_t len, flen;
	json_t *raw, *bm;
	char *path;
	int i;

	for (i = 0; i < ncols; i++) {
		PuffinBlob *b = &blobs[i];
		uint8_t *d;
		size_t dl;
		char *ndv;
		theta_serialize(cols[i].sketch, a, &d, &dl);
		ndv = arena_sprintf(a, "%" PRId64, (int64_t)llround(theta_estimate(cols[i].sketch)));
		memset(b, 0, sizeof *b);
		b->type = THETA_BLOB;
		b->nfields = 1;
		b->fields = ARENA_NEW(a, int32_t);
		b->fields[0] = cols[i].field_id;
		b->snapshot_id = snapshot_id;
		b->sequence_number = seq;
		b->nprops = 1;
		b->props = ARENA_NEW(a, PuffinProp);
		b->props[0].key = "ndv";
		b->props[0].value = ndv;
		b->data = d;
		b->data_len = dl;
	}
	TRY(puffin_write(blobs, ncols, &fprop, 1, a, &data, &len, err));
	path = arena_sprintf(a, "%s/%" PRId64 "-%s.stats", table__metadata_dir(md, a), snapshot_id,
			     table__new_uuid(a));
	TRY(fileio_write(io, path, data, len, err));
	/* footer: Magic FooterPayload PayloadSize Flags Magic */
	flen = (size_t)((uint32_t)data[len - 12] | (uint32_t)data[len - 11] << 8 |
			(uint32_t)data[len - 10] << 16 | (uint32_t)data[len - 9] << 24) + 16;
	raw = json_object();
	json_object_set_new(raw, "snapshot-id", json_integer(snapshot_id));
	json_object_set_new(raw, "statistics-path", json_string(path));
	json_object_set_new(raw, "file-size-in-bytes", json_integer((json_int_t)len));
	json_object_set_new(raw, "file-footer-size-in-bytes", json_integer((json_int_t)flen));
	bm = json_array();
	for (i = 0; i < ncols; i++) {
		json_t *o = json_object(), *f = json_array(), *p = json_object();
		json_object_set_new(o, "type", json_string(THETA_BLOB));
		json_object_set_new(o, "snapshot-id", json_integer(snapshot_id));
		json_object_set_new(o, "sequence-number", json_integer(seq));
		json_array_append_new(f, json_integer(cols[i].field_id));
		json_object_set_new(o, "fields", f);
		json_object_set_new(p, "ndv", json_string(blobs[i].props[0].value));
		json_object_set_new(o, "properties", p);
		json_array_append_new(bm, o);
	}
	json_object_set_new(raw, "blob-metadata", bm);
	arena_on_reset(a, decref_cb, raw);
	memset(out, 0, sizeof *out);
	out->snapshot_id = snapshot_id;
	out->statistics_path = path;
	out->file_size_in_bytes = (int64_t)len;
	out->raw = raw;
	return FLOE_OK;
}

const char *
table_stats_set(TableMetadata *md, const StatisticsFile *sf, Arena *a)
{
	StatisticsFile *st = ARENA_ARRAY(a, StatisticsFile, md->nstatistics + 2);
	const char *replaced = NULL;
	int i, k = 0;

	for (i = 0; i < md->nstatistics; i++) {
		if (md->statistics[i].snapshot_id == sf->snapshot_id) {
			if (strcmp(md->statistics[i].statistics_path, sf->statistics_path))
				replaced = md->statistics[i].statistics_path;
			continue;
		}
		st[k++] = md->statistics[i];
	}
	st[k++] = *sf;
	md->statistics = st;
	md->nstatistics = k;
	return replaced;
}

bool
table_stats_ndv(const TableMetadata *md, int64_t snapshot_id, int32_t field_id, int64_t *ndv)
{
	int i;

	for (i = 0; i < md->nstatistics; i++) {
		json_t *bm, *b;
		size_t j;
		if (md->statistics[i].snapshot_id != snapshot_id || !md->statistics[i].raw)
			continue;
		bm = json_object_get(md->statistics[i].raw, "blob-metadata");
		json_array_foreach(bm, j, b) {
			json_t *f = json_array_get(json_object_get(b, "fields"), 0);
			const char *type = json_string_value(json_object_get(b, "type"));
			bool has;
			int64_t v;
			if (!type || strcmp(type, THETA_BLOB) || !json_is_integer(f) ||
			    json_integer_value(f) != field_id)
				continue;
			v = ndv_of(json_object_get(b, "properties"), &has);
			if (has) {
				*ndv = v;
				return true;
			}
		}
	}
	return false;
}

/* total-records of a snapshot's summary, or -1 */
static double
total_records(const Snapshot *s)
{
	const char *v = s ? metadata_summary_get(s, "total-records") : NULL;
	char *end;
	double x;

	if (!v)
		return -1;
	x = strtod(v, &end);
	return end == v || *end || x < 0 ? -1 : x;
}

bool
table_stats_planner_ndv(const TableMetadata *md, int64_t snapshot_id, int32_t field_id,
			double rows, double *ndv)
{
	const Snapshot *s = snapshot_id >= 0 ? metadata_snapshot_by_id(md, snapshot_id) :
			    metadata_current_snapshot(md);
	const Snapshot *read = s;
	int64_t v;
	double d;
	int depth;

	if (md->nstatistics == 0)
		return false;
	for (depth = 0; s && depth < 100000; depth++) {
		if (table_stats_ndv(md, s->snapshot_id, field_id, &v))
			break;
		s = s->has_parent ? metadata_snapshot_by_id(md, s->parent_snapshot_id) : NULL;
	}
	if (!s || depth == 100000)
		return false;
	d = (double)v;
	if (s != read) {
		double then = total_records(s), now = rows >= 0 ? rows : total_records(read);
		if (then > 0 && now >= 0 && d > 0.1 * then)
			d = d * now / then;
	}
	if (rows >= 0 && d > rows)
		d = rows;
	if (d < 1 && rows >= 1)
		d = 1;
	*ndv = d;
	return true;
}
