/*
 * deletes.c — loading the delete files of a data file into a DeleteSet
 * (see deletes.h).
 *
 * Spec: apache/iceberg format/spec.md — "Position Delete Files" (file_path
 * 2147483546, pos 2147483545), "Deletion Vectors" (Puffin blob at
 * content_offset / content_size_in_bytes), "Equality Delete Files"
 * (columns equality_ids, by field id; extra columns ignored).
 *
 * Caching: a position delete file is parsed once per loader into groups
 * (resolved data-file path -> sorted distinct positions); an equality
 * delete file once into a hash set of serialized keys.  Deletion vectors are
 * decoded per data file (one vector serves one file).
 *
 * Invariants:
 *   - DeleteSet.pos is sorted and distinct;
 *   - keys serialize each value of a column type the same way whatever the
 *     file's physical type (values are cast to the schema type first);
 *     -0.0 and 0.0, and all NaNs, serialize alike; NULL has its own tag;
 *   - nothing read from a file is trusted: negative positions, missing
 *     columns, a blob outside its file, a deletion vector that is not a
 *     deletion-vector-v1 blob listed by a valid Puffin footer, or whose
 *     cardinality disagrees with it, a vector with more positions than
 *     its data file has rows, a delete file with far more rows than its
 *     manifest entry's record_count are XX001 naming the delete file.
 *
 * INTERFACE ROUTINES: see deletes.h.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "format/parquet/parquet.h"
#include "format/puffin/puffin.h"
#include "table/deletes.h"
#include "types/cast.h"

#define POS_FIELD_PATH 2147483546
#define POS_FIELD_POS 2147483545

/* ---- equality key sets ------------------------------------------------- */

struct EqKeySet {
	uint64_t *hash;
	uint8_t **key;
	uint32_t *len;
	size_t cap, n;
	Arena *a;
};

typedef struct KeyBuf {
	uint8_t *p;
	size_t len, cap;
	uint8_t stack[256];
} KeyBuf;

static void
kb_put(KeyBuf *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		size_t ncap = b->cap * 2 + n;
		uint8_t *np = xmalloc(ncap);
		memcpy(np, b->p, b->len);
		if (b->p != b->stack)
			free(b->p);
		b->p = np;
		b->cap = ncap;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void
kb_init(KeyBuf *b)
{
	b->p = b->stack;
	b->len = 0;
	b->cap = sizeof b->stack;
}

static void
kb_free(KeyBuf *b)
{
	if (b->p != b->stack)
		free(b->p);
}

static void
key_serialize(KeyBuf *b, const Value *vals, const SqlType *types, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const Value *v = &vals[i];
		uint8_t tag = v->is_null ? 0 : 1;
		kb_put(b, &tag, 1);
		if (v->is_null)
			continue;
		switch (types[i].id) {
		case TYPE_BOOL: {
			uint8_t x = v->u.b ? 1 : 0;
			kb_put(b, &x, 1);
			break;
		}
		case TYPE_FLOAT32: case TYPE_FLOAT64: {
			double d = v->u.f;
			if (d == 0)
				d = 0;          /* -0.0 -> 0.0 */
			if (d != d)
				d = __builtin_nan("");
			kb_put(b, &d, sizeof d);
			break;
		}
		case TYPE_DECIMAL:
			kb_put(b, &v->u.d, sizeof v->u.d);
			break;
		case TYPE_TEXT: case TYPE_BYTEA: {
			uint32_t l = v->u.s.len;
			kb_put(b, &l, sizeof l);
			kb_put(b, strview_data(&v->u.s), l);
			break;
		}
		case TYPE_UUID:
			kb_put(b, v->u.uuid.b, 16);
			break;
		case TYPE_INTERVAL:
			kb_put(b, &v->u.iv, sizeof v->u.iv);
			break;
		default:
			kb_put(b, &v->u.i, sizeof v->u.i);
			break;
		}
	}
}

static EqKeySet *
keyset_new(Arena *a)
{
	EqKeySet *s = ARENA_NEW(a, EqKeySet);
	s->a = a;
	s->cap = 64;
	s->hash = ARENA_ARRAY(a, uint64_t, s->cap);
	s->key = ARENA_ARRAY(a, uint8_t *, s->cap);
	s->len = ARENA_ARRAY(a, uint32_t, s->cap);
	return s;
}

static bool
keyset_find(const EqKeySet *s, uint64_t h, const uint8_t *k, size_t len, size_t *slot)
{
	size_t i = (size_t)h & (s->cap - 1);

	while (s->key[i]) {
		if (s->hash[i] == h && s->len[i] == len && memcmp(s->key[i], k, len) == 0) {
			*slot = i;
			return true;
		}
		i = (i + 1) & (s->cap - 1);
	}
	*slot = i;
	return false;
}

static void
keyset_add(EqKeySet *s, const uint8_t *k, size_t len)
{
	uint64_t h = XXH3_64bits(k, len);
	size_t slot, i;

	if (keyset_find(s, h, k, len, &slot))
		return;
	if ((s->n + 1) * 2 > s->cap) {
		EqKeySet old = *s;
		s->cap *= 2;
		s->hash = ARENA_ARRAY(s->a, uint64_t, s->cap);
		s->key = ARENA_ARRAY(s->a, uint8_t *, s->cap);
		s->len = ARENA_ARRAY(s->a, uint32_t, s->cap);
		for (i = 0; i < old.cap; i++)
			if (old.key[i]) {
				(void)keyset_find(s, old.hash[i], old.key[i], old.len[i], &slot);
				s->hash[slot] = old.hash[i];
				s->key[slot] = old.key[i];
				s->len[slot] = old.len[i];
			}
		(void)keyset_find(s, h, k, len, &slot);
	}
	s->hash[slot] = h;
	s->key[slot] = arena_memdup(s->a, k, len ? len : 1);
	s->len[slot] = (uint32_t)len;
	s->n++;
}

bool
deletes_eq_match(const EqDelete *eq, const Value *vals)
{
	KeyBuf b;
	size_t slot;
	bool hit;

	if (eq->keys->n == 0)
		return false;
	kb_init(&b);
	key_serialize(&b, vals, eq->types, eq->nids);
	hit = keyset_find(eq->keys, XXH3_64bits(b.p, b.len), b.p, b.len, &slot);
	kb_free(&b);
	return hit;
}

/* ---- reading delete-file columns ----------------------------------------- */

typedef int (*RowFn)(void *arg, const Value *vals, floe_error *err);

/* Convert a value read from a file column to the wanted type. */
static int
to_type(const Value *in, SqlType want, Value *out, Arena *a, const char *path, floe_error *err)
{
	if (want.id == TYPE_NULL || in->is_null || type_equal(in->type, want) ||
	    (in->type.id == want.id && want.id != TYPE_DECIMAL)) {
		*out = *in;
		if (want.id != TYPE_NULL)
			out->type = want;
		return FLOE_OK;
	}
	if (in->type.id == TYPE_BYTEA && want.id == TYPE_UUID) {
		if (in->u.s.len != 16)
			return FLOE_CORRUPT(err, "uuid column of delete file \"%s\" holds %u bytes", path,
					    in->u.s.len);
		memset(out, 0, sizeof *out);
		out->type = want;
		memcpy(out->u.uuid.b, strview_data(&in->u.s), 16);
		return FLOE_OK;
	}
	if (cast_value(out, in, want, a, err) != FLOE_OK) {
		floe_error_prefix(err, "delete file \"%s\": ", path);
		return FLOE_ERR;
	}
	return FLOE_OK;
}

/*
 * Call fn for every row of Parquet file `path` with the values of the
 * columns of field ids ids[0..n) (by name names[i] when the file has no
 * field ids), converted to want[i] (TYPE_NULL: as stored).
 */
static int
read_rows(FileIO *io, const char *path, int64_t max_rows, int n, const int32_t *ids,
	  const char *const *names, const SqlType *want, RowFn fn, void *arg, floe_error *err)
{
	Arena *fa = arena_new(64 * 1024), *rga = arena_new(256 * 1024);
	const uint8_t *data;
	size_t len;
	ParquetFile *pf;
	int *col = ARENA_ARRAY(fa, int, n + 1);
	ParquetColumnReader **rd = ARENA_ARRAY(fa, ParquetColumnReader *, n + 1);
	Vector *vec = ARENA_ARRAY(fa, Vector, n + 1);
	Value *vals = ARENA_ARRAY(fa, Value, n + 1);
	int i, c, rg, rc = FLOE_ERR;

	if (fileio_read(io, path, fa, &data, &len, err) != FLOE_OK ||
	    parquet_open(&pf, data, len, path, fa, err) != FLOE_OK)
		goto out;
	/* rows are materialised: not far beyond what the manifest entry
	 * promises (some writers, e.g. Impala, under-count: slack of 4x or 1M) */
	if (max_rows >= 0 && max_rows < (INT64_MAX >> 3))
		max_rows = max_rows * 4 > (1 << 20) ? max_rows * 4 : (1 << 20);
	if (max_rows >= 0 && parquet_num_rows(pf) > max_rows) {
		FLOE_CORRUPT(err, "delete file \"%s\" holds %lld rows, its manifest entry allows %lld",
			     path, (long long)parquet_num_rows(pf), (long long)max_rows);
		goto out;
	}
	for (i = 0; i < n; i++) {
		col[i] = -1;
		for (c = 0; c < parquet_num_columns(pf); c++) {
			const ParquetColumn *pc = parquet_column(pf, c);
			if (pc->nested)
				continue;
			if (pc->field_id >= 0 ? pc->field_id == ids[i]
					      : (names && names[i] && strcmp(pc->name, names[i]) == 0)) {
				col[i] = c;
				break;
			}
		}
		if (col[i] < 0) {
			FLOE_CORRUPT(err, "delete file \"%s\" has no column with field id %d", path,
				     (int)ids[i]);
			goto out;
		}
		if (parquet_column(pf, col[i])->type.id == TYPE_NULL) {
			floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "delete file \"%s\": column %s has an unsupported type", path,
				    parquet_column(pf, col[i])->name);
			goto out;
		}
	}
	for (rg = 0; rg < parquet_num_row_groups(pf); rg++) {
		int64_t left = parquet_row_group_num_rows(pf, rg);
		arena_reset(rga);
		for (i = 0; i < n; i++)
			if (parquet_column_reader_open(&rd[i], pf, rg, col[i], rga, err) != FLOE_OK)
				goto out;
		while (left > 0) {
			uint32_t want_n = left < VECTOR_SIZE ? (uint32_t)left : VECTOR_SIZE, got, r;
			for (i = 0; i < n; i++) {
				const ParquetColumn *pc = parquet_column(pf, col[i]);
				vector_init(&vec[i], pc->type, rga, want_n);
				if (parquet_column_read(rd[i], &vec[i], want_n, &got, err) != FLOE_OK)
					goto out;
				if (got != want_n) {
					FLOE_CORRUPT(err, "delete file \"%s\": column %s has %u values where "
						     "the row group promises %u", path, pc->name, got, want_n);
					goto out;
				}
			}
			for (r = 0; r < want_n; r++) {
				for (i = 0; i < n; i++) {
					Value raw;
					vector_get_value(&vec[i], r, &raw);
					if (to_type(&raw, want[i], &vals[i], rga, path, err) != FLOE_OK)
						goto out;
				}
				if (fn(arg, vals, err) != FLOE_OK)
					goto out;
			}
			left -= want_n;
		}
	}
	rc = FLOE_OK;
out:
	arena_free(rga);
	arena_free(fa);
	return rc;
}

/* ---- the loader ------------------------------------------------------------ */

typedef struct PosGroup {
	char *path;               /* resolved data-file path */
	int64_t n, cap;
	int64_t *pos;
} PosGroup;

typedef struct Cached {
	char *path;               /* the delete file */
	int ngroups;              /* position deletes */
	PosGroup *groups;
	EqDelete *eq;             /* equality deletes */
} Cached;

struct DeleteLoader {
	FileIO *io;
	const IcebergSchema *schema;
	Arena *a;
	int n, cap;
	Cached *c;
};

DeleteLoader *
deletes_loader_new(FileIO *io, const IcebergSchema *schema, Arena *a)
{
	DeleteLoader *l = ARENA_NEW(a, DeleteLoader);
	l->io = io;
	l->schema = schema;
	l->a = a;
	return l;
}

static Cached *
cache_find(DeleteLoader *l, const char *path)
{
	int i;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->c[i].path, path) == 0)
			return &l->c[i];
	return NULL;
}

static Cached *
cache_add(DeleteLoader *l, const char *path)
{
	Cached *c;
	if (l->n == l->cap) {
		int ncap = l->cap ? l->cap * 2 : 8;
		l->c = arena_realloc(l->a, l->c, sizeof(Cached) * (size_t)l->cap,
				     sizeof(Cached) * (size_t)ncap);
		l->cap = ncap;
	}
	c = &l->c[l->n++];
	memset(c, 0, sizeof *c);
	c->path = arena_strdup(l->a, path);
	return c;
}

typedef struct PosBuild {
	DeleteLoader *l;
	Cached *c;
	const char *file;
	char *last_raw;
	uint32_t last_len;
	PosGroup *cur;
	int gcap;
} PosBuild;

static int
pos_row(void *arg, const Value *vals, floe_error *err)
{
	PosBuild *b = arg;
	const Value *p = &vals[0], *pos = &vals[1];
	PosGroup *g;

	if (p->is_null)
		return FLOE_OK;          /* malformed (spec: required): skipped as Impala does */
	if (pos->is_null || pos->u.i < 0)
		return FLOE_CORRUPT(err, "position delete file \"%s\" holds a %s position", b->file,
				    pos->is_null ? "NULL" : "negative");
	if (!b->cur || p->u.s.len != b->last_len ||
	    memcmp(strview_data(&p->u.s), b->last_raw, p->u.s.len) != 0) {
		Arena *tmp = arena_new(0);
		char *raw = arena_strndup(tmp, strview_data(&p->u.s), p->u.s.len);
		char *res = fileio_resolve(b->l->io, raw, tmp);
		int i;
		b->cur = NULL;
		for (i = 0; i < b->c->ngroups; i++)
			if (strcmp(b->c->groups[i].path, res) == 0)
				b->cur = &b->c->groups[i];
		if (!b->cur) {
			if (b->c->ngroups == b->gcap) {
				int ncap = b->gcap ? b->gcap * 2 : 4;
				b->c->groups = arena_realloc(b->l->a, b->c->groups,
							     sizeof(PosGroup) * (size_t)b->gcap,
							     sizeof(PosGroup) * (size_t)ncap);
				b->gcap = ncap;
			}
			b->cur = &b->c->groups[b->c->ngroups++];
			memset(b->cur, 0, sizeof *b->cur);
			b->cur->path = arena_strdup(b->l->a, res);
		}
		b->last_raw = arena_strdup(b->l->a, raw);
		b->last_len = p->u.s.len;
		arena_free(tmp);
	}
	g = b->cur;
	if (g->n == g->cap) {
		int64_t ncap = g->cap ? g->cap * 2 : 64;
		g->pos = arena_realloc(b->l->a, g->pos, sizeof(int64_t) * (size_t)g->cap,
				       sizeof(int64_t) * (size_t)ncap);
		g->cap = ncap;
	}
	g->pos[g->n++] = pos->u.i;
	return FLOE_OK;
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

/* Sort and drop duplicates in place; returns the new length. */
static int64_t
sort_distinct(int64_t *p, int64_t n)
{
	int64_t i, k = 0;
	bool sorted = true;

	for (i = 1; i < n && sorted; i++)
		sorted = p[i - 1] < p[i];
	if (sorted)
		return n;
	qsort(p, (size_t)n, sizeof(int64_t), cmp_i64);
	for (i = 0; i < n; i++)
		if (k == 0 || p[k - 1] != p[i])
			p[k++] = p[i];
	return k;
}

static int
load_pos_file(DeleteLoader *l, const DataFile *d, Cached **out, floe_error *err)
{
	static const int32_t ids[2] = { POS_FIELD_PATH, POS_FIELD_POS };
	static const char *const names[2] = { "file_path", "pos" };
	SqlType want[2];
	PosBuild b;
	Cached *c = cache_find(l, d->file_path);
	int i;

	if (c) {
		*out = c;
		return FLOE_OK;
	}
	if (d->file_format && strcasecmp(d->file_format, "PARQUET") != 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "position delete files in format %s are not supported: %s",
				   d->file_format, d->file_path);
	c = cache_add(l, d->file_path);
	memset(&b, 0, sizeof b);
	b.l = l;
	b.c = c;
	b.file = d->file_path;
	want[0] = type_make(TYPE_NULL);
	want[1] = type_make(TYPE_INT64);
	if (read_rows(l->io, d->file_path, d->record_count, 2, ids, names, want, pos_row, &b,
		      err) != FLOE_OK) {
		l->n--;                  /* not cached */
		return FLOE_ERR;
	}
	for (i = 0; i < c->ngroups; i++)
		c->groups[i].n = sort_distinct(c->groups[i].pos, c->groups[i].n);
	*out = c;
	return FLOE_OK;
}

typedef struct EqBuild {
	EqDelete *eq;
	KeyBuf kb;
} EqBuild;

static int
eq_row(void *arg, const Value *vals, floe_error *err)
{
	EqBuild *b = arg;
	b->kb.len = 0;
	key_serialize(&b->kb, vals, b->eq->types, b->eq->nids);
	keyset_add(b->eq->keys, b->kb.p, b->kb.len);
	return FLOE_OK;
}

static int
load_eq_file(DeleteLoader *l, const DataFile *d, EqDelete **out, floe_error *err)
{
	Cached *c = cache_find(l, d->file_path);
	EqDelete *eq;
	EqBuild b;
	const char **names;
	int i, k, rc;

	if (c) {
		*out = c->eq;
		return FLOE_OK;
	}
	if (d->file_format && strcasecmp(d->file_format, "PARQUET") != 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "equality delete files in format %s are not supported: %s",
				   d->file_format, d->file_path);
	if (d->nequality_ids <= 0)
		return FLOE_CORRUPT(err, "equality delete file \"%s\" has no equality_ids",
				    d->file_path);
	eq = ARENA_NEW(l->a, EqDelete);
	eq->nids = d->nequality_ids;
	eq->ids = arena_memdup(l->a, d->equality_ids, sizeof(int32_t) * (size_t)eq->nids);
	eq->cols = ARENA_ARRAY(l->a, int, eq->nids);
	eq->types = ARENA_ARRAY(l->a, SqlType, eq->nids);
	names = ARENA_ARRAY(l->a, const char *, eq->nids);
	for (i = 0; i < eq->nids; i++) {
		for (k = 0; l->schema && k < l->schema->nfields; k++)
			if (l->schema->fields[k].id == eq->ids[i])
				break;
		if (!l->schema || k == l->schema->nfields)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "equality delete file \"%s\" deletes by field id %d, which is "
					   "not a column of the table schema", d->file_path, (int)eq->ids[i]);
		if (l->schema->fields[k].nested)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "equality deletes on nested column \"%s\" are not supported",
					   l->schema->fields[k].name);
		eq->cols[i] = k;
		eq->types[i] = l->schema->fields[k].type;
		names[i] = l->schema->fields[k].name;
	}
	eq->keys = keyset_new(l->a);
	b.eq = eq;
	kb_init(&b.kb);
	rc = read_rows(l->io, d->file_path, d->record_count, eq->nids, eq->ids, names, eq->types,
		       eq_row, &b, err);
	kb_free(&b.kb);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	c = cache_add(l, d->file_path);
	c->eq = eq;
	*out = eq;
	return FLOE_OK;
}

/* The footer blob of Puffin file pf that dv's manifest entry points at: a
 * deletion-vector-v1 blob at exactly content_offset / content_size_in_bytes
 * (puffin-spec.md; a bare blob without its container is not a DV). */
static const PuffinBlob *
dv_blob(const PuffinFile *pf, const DataFile *dv, floe_error *err)
{
	const PuffinBlob *b = NULL;
	int i;

	for (i = 0; i < pf->nblobs; i++)
		if (pf->blobs[i].offset == dv->content_offset &&
		    pf->blobs[i].length == dv->content_size_in_bytes)
			b = &pf->blobs[i];
	if (!b) {
		FLOE_CORRUPT(err, "deletion vector \"%s\": the Puffin footer lists no blob at offset "
			     "%lld (%lld bytes)", dv->file_path, (long long)dv->content_offset,
			     (long long)dv->content_size_in_bytes);
		return NULL;
	}
	if (strcmp(b->type, PUFFIN_DV_TYPE) != 0 || b->compression) {
		FLOE_CORRUPT(err, "deletion vector \"%s\": the blob at offset %lld is a %s%s blob, not "
			     "an uncompressed %s", dv->file_path, (long long)dv->content_offset,
			     b->compression ? "compressed " : "", b->type, PUFFIN_DV_TYPE);
		return NULL;
	}
	return b;
}

/* The positions of deletion vector dv (a blob of a Puffin file).  The file
 * must be a valid Puffin container listing that blob; the blob's CRC, its
 * cardinality property and the manifest's record_count must agree with the
 * positions decoded. */
static int
load_dv(FileIO *io, const DataFile *data, const DataFile *dv, Arena *a, int64_t **pos,
	int64_t *n, floe_error *err)
{
	Arena *tmp = arena_new(0);
	const uint8_t *bytes;
	size_t len;
	PuffinFile *pf;
	const PuffinBlob *b;
	const char *card;
	int rc = FLOE_ERR;

	if (!dv->has_content_offset || dv->content_offset < 0 || dv->content_size_in_bytes < 0) {
		FLOE_CORRUPT(err, "deletion vector \"%s\" has no content_offset/content_size_in_bytes",
			     dv->file_path);
		goto out;
	}
	if (fileio_read(io, dv->file_path, tmp, &bytes, &len, err) != FLOE_OK)
		goto out;
	if ((uint64_t)dv->content_offset > len ||
	    (uint64_t)dv->content_size_in_bytes > len - (uint64_t)dv->content_offset) {
		FLOE_CORRUPT(err, "deletion vector \"%s\": blob (offset %lld, %lld bytes) lies outside "
			     "the file (%zu bytes)", dv->file_path, (long long)dv->content_offset,
			     (long long)dv->content_size_in_bytes, len);
		goto out;
	}
	if (puffin_read(bytes, len, dv->file_path, tmp, &pf, err) != FLOE_OK ||
	    !(b = dv_blob(pf, dv, err)))
		goto out;
	rc = puffin_dv_decode(bytes + dv->content_offset, (size_t)dv->content_size_in_bytes,
			      dv->file_path, data->record_count >= 0 ? data->record_count : 0, a, pos,
			      n, err);
	if (rc != FLOE_OK)
		goto out;
	card = puffin_blob_prop(b, "cardinality");
	if ((card && strtoll(card, NULL, 10) != *n) || (dv->record_count >= 0 && dv->record_count != *n)) {
		rc = FLOE_CORRUPT(err, "deletion vector \"%s\" holds %lld positions, but its cardinality "
				  "says %s and its manifest entry %lld", dv->file_path, (long long)*n,
				  card ? card : "nothing", (long long)dv->record_count);
		goto out;
	}
out:
	arena_free(tmp);
	return rc;
}

static bool
is_dv(const DataFile *d)
{
	return d->content == CONTENT_POSITION_DELETES && d->file_format &&
	       strcasecmp(d->file_format, "PUFFIN") == 0;
}

/* Positions of data file f named by its position deletes and DVs. */
static int
collect_positions(DeleteLoader *l, const DataFile *f, Arena *a, int64_t **pos, int64_t *npos,
		  floe_error *err)
{
	const int64_t **src = ARENA_ARRAY(a, const int64_t *, 1);
	int64_t *srcn = NULL, total = 0, k = 0;
	int nsrc = 0, cap = 0, i, g;
	char *res = NULL;

	*pos = NULL;
	*npos = 0;
	for (i = 0; i < f->ndeletes; i++) {
		const DataFile *d = f->deletes[i];
		int64_t *p = NULL, n = 0;
		if (d->content != CONTENT_POSITION_DELETES)
			continue;
		if (is_dv(d)) {
			TRY(load_dv(l->io, f, d, a, &p, &n, err));
			if (n) {
				if (nsrc == cap) {
					int ncap = cap ? cap * 2 : 4;
					src = arena_realloc(a, src, sizeof(*src) * (size_t)cap, sizeof(*src) * (size_t)ncap);
					srcn = arena_realloc(a, srcn, sizeof(*srcn) * (size_t)cap, sizeof(*srcn) * (size_t)ncap);
					cap = ncap;
				}
				src[nsrc] = p;
				srcn[nsrc++] = n;
				total += n;
			}
			continue;
		}
		{
			Cached *c;
			TRY(load_pos_file(l, d, &c, err));
			if (!res)
				res = fileio_resolve(l->io, f->file_path, a);
			for (g = 0; g < c->ngroups; g++) {
				if (strcmp(c->groups[g].path, res) != 0 || c->groups[g].n == 0)
					continue;
				if (nsrc == cap) {
					int ncap = cap ? cap * 2 : 4;
					src = arena_realloc(a, src, sizeof(*src) * (size_t)cap, sizeof(*src) * (size_t)ncap);
					srcn = arena_realloc(a, srcn, sizeof(*srcn) * (size_t)cap, sizeof(*srcn) * (size_t)ncap);
					cap = ncap;
				}
				src[nsrc] = c->groups[g].pos;
				srcn[nsrc++] = c->groups[g].n;
				total += c->groups[g].n;
			}
		}
	}
	if (nsrc == 0)
		return FLOE_OK;
	if (nsrc == 1) {
		*pos = (int64_t *)src[0];
		*npos = srcn[0];
		return FLOE_OK;
	}
	*pos = arena_alloc(a, sizeof(int64_t) * (size_t)total);
	for (i = 0; i < nsrc; i++) {
		memcpy(*pos + k, src[i], sizeof(int64_t) * (size_t)srcn[i]);
		k += srcn[i];
	}
	*npos = sort_distinct(*pos, total);
	return FLOE_OK;
}

int
deletes_load(DeleteLoader *l, const DataFile *f, Arena *a, DeleteSet **out, floe_error *err)
{
	DeleteSet *s;
	int64_t *pos;
	int i;

	*out = NULL;
	if (f->ndeletes == 0)
		return FLOE_OK;
	s = ARENA_NEW(a, DeleteSet);
	s->eq = ARENA_ARRAY(a, EqDelete *, f->ndeletes);
	TRY(collect_positions(l, f, a, &pos, &s->npos, err));
	s->pos = pos;
	for (i = 0; i < f->ndeletes; i++) {
		const DataFile *d = f->deletes[i];
		EqDelete *eq;
		if (d->content != CONTENT_EQUALITY_DELETES)
			continue;
		TRY(load_eq_file(l, d, &eq, err));
		if (eq->keys->n > 0)
			s->eq[s->neq++] = eq;
	}
	if (s->npos == 0 && s->neq == 0)
		return FLOE_OK;
	*out = s;
	return FLOE_OK;
}

bool
deletes_pos_deleted(const DeleteSet *s, int64_t pos)
{
	int64_t lo = 0, hi;

	if (!s || s->npos == 0)
		return false;
	hi = s->npos;
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (s->pos[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->npos && s->pos[lo] == pos;
}

int
deletes_file_positions(FileIO *io, const DataFile *f, Arena *a, int64_t **pos, int64_t *n,
		       floe_error *err)
{
	DeleteLoader *l = deletes_loader_new(io, NULL, a);
	int64_t *p;

	TRY(collect_positions(l, f, a, &p, n, err));
	if (*n > 0 && p) {
		/* a private copy: the caller may extend it */
		*pos = arena_memdup(a, p, sizeof(int64_t) * (size_t)*n);
	} else {
		*pos = NULL;
	}
	return FLOE_OK;
}
