/*
 * data_writer.c — Iceberg data-file writer (see data_writer.h).
 *
 * Spec: apache/iceberg format/spec.md: "Manifests" (data_file metrics),
 * "Appendix D: Single-value serialization"; Iceberg's metrics mode
 * truncate(16) (UnicodeUtil.truncateStringMin/Max, BinaryUtil.truncateBinaryMin/Max
 * in Iceberg Java define the behaviour: strings truncate on code points,
 * binary on bytes; an upper bound increments the last code point / byte that
 * can be incremented and drops what follows; no upper bound if none can).
 *
 * State per writer:
 *
 *     (no file) --write--> OPEN(pw) --estimated size >= target--> close_file
 *         ^                    |                                      |
 *         +--------------------+------------- next write -------------+
 *     finish: close_file on a non-empty OPEN file, return DataFiles
 *     abort:  remove every file close_file wrote
 *
 * Partitioned (data_writer_set_spec): the same machine per partition
 * tuple.  Each batch's spec fields are evaluated over their source
 * columns (partition_transform_vector), each row's tuple is looked up by
 * its key bytes in an open-addressing table of Parts, and each Part
 * touched gets its rows: half a vector or more are written at once (the
 * batch's own vectors with a selection), fewer are copied into the Part's
 * buffer, written when it is full (DATA_WRITER_BUFFER_ROWS), when all
 * buffers use DATA_WRITER_BUFFER_BYTES, or at finish.  At most
 * DATA_WRITER_MAX_OPEN files are open at once; the smallest open one is
 * finished to make room.  Every DataFile carries the
 * spec id and its Part's tuple (Values of the transforms' result types).
 *
 * Metrics modes (write.metadata.metrics.default / .column.<name>): none
 * (column_size only), counts, truncate(N) (the default, N = 16), full; as
 * Iceberg Java, columns past the first 100 default to none.
 *
 * INTERFACE ROUTINES
 *   data_writer_new, data_writer_set_options, data_writer_set_property,
 *   data_writer_set_spec, data_writer_write, data_writer_finish,
 *   data_writer_abort, data_writer_free, data_writer_bound
 *
 * Invariants:
 *   1. A file is written (fileio_write, create-only) in one piece when it is
 *      closed; files[] lists exactly the files that exist because of us.
 *   2. The Parquet file carries every field id and an "iceberg.schema"
 *      key-value entry (as Iceberg Java writes), so name-based readers map
 *      columns too.
 *   3. After an error the writer refuses further writes (w->failed);
 *      abort still removes what was written.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "format/parquet/parquet_format.h"
#include "table/data_writer.h"
#include "table/metadata.h"
#include "table/partition.h"
#include "types/array.h"

/* Iceberg metrics modes (write.metadata.metrics.*). */
enum MetricsMode { M_NONE, M_COUNTS, M_TRUNCATE, M_FULL };

/* Iceberg Java: columns past this index default to "none". */
#define METRICS_MAX_INFERRED 100

struct DataWriter {
	Arena *arena;
	FileIO *io;
	char *dir;
	IcebergSchema schema;
	int64_t target;
	ParquetWriteOptions opts;
	bool has_opts;
	char uuid[37];
	char *schema_json;
	ParquetWriteColumn *cols;
	int *mode;                 /* per column: enum MetricsMode */
	int *trunc;                /* per column: truncate length (M_TRUNCATE) */
	bool *mode_set;            /* set by a column property */
	ParquetWriter *pw;
	DataFile *files;
	int nfiles, capfiles;
	int seq;
	bool failed;
	/* partitioned writes (data_writer_set_spec); nspec == 0: one stream */
	int32_t spec_id;
	int nspec;
	int *src_col;              /* per spec field: schema column index */
	PartitionTransform *tr;
	SqlType *rtype;            /* per spec field: result type */
	struct Part *parts;
	int nparts, capparts;
	int *slots;                /* open-addressing table of part indexes, -1 empty */
	int nslots;
	int nopen;                 /* parts with an open Parquet writer */
	Arena *scratch;            /* per-batch vectors, reset every write */
	Arena *bufarena;           /* every Part's buffered rows; reset when all
				      buffers are flushed */
};

/* One partition tuple seen by a partitioned writer. */
typedef struct Part {
	uint8_t *key;              /* the tuple's key bytes (see part_key) */
	uint32_t keylen;
	uint32_t hash;
	Value *tuple;              /* nspec Values in w->arena */
	ParquetWriter *pw;         /* open file of this partition, or NULL */
	uint32_t *rows;            /* this batch's rows (scratch) */
	uint32_t nrows;
	Batch *buf;                /* rows not yet given to pw (in bufarena), or NULL */
	uint32_t bufcap;
} Part;

/*
 * Bound on the Parquet files a partitioned writer keeps open at once (each
 * buffers its whole file in memory until it is closed): when a row needs
 * one more, the open file with the smallest estimated size is finished
 * first (its partition gets another file if more rows come).
 */
#define DATA_WRITER_MAX_OPEN 128

/*
 * Rows of a partition that gets fewer than a vector's worth from a batch
 * are copied into that partition's buffer first and written when it holds
 * DATA_WRITER_BUFFER_ROWS rows, at finish, or when all buffers together
 * have used DATA_WRITER_BUFFER_BYTES of bufarena (then every buffer is
 * written and the arena reset).  So unsorted input over many partitions
 * writes whole batches, and a partition's file is rarely finished early.
 */
#define DATA_WRITER_BUFFER_ROWS VECTOR_SIZE
#define DATA_WRITER_BUFFER_BYTES ((size_t)64 << 20)

/* ---------------------------------------------------------------- helpers */

static void
random_uuid(char out[37])
{
	uint8_t b[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC), i;
	size_t got = 0;

	if (fd >= 0) {
		while (got < sizeof b) {
			ssize_t r = read(fd, b + got, sizeof b - got);
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		close(fd);
	}
	if (got < sizeof b) {   /* no /dev/urandom: still unique enough per process */
		uint64_t x = (uint64_t)getpid() * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)out;
		for (i = 0; i < 16; i++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			b[i] = (uint8_t)x;
		}
	}
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}

static void
json_str(char **out, size_t *len, size_t *cap, const char *s)
{
	char tmp[8];
	const unsigned char *p;

#define PUT(str, n) do { \
		size_t n_ = (n); \
		if (*len + n_ + 1 > *cap) { \
			while (*len + n_ + 1 > *cap) *cap *= 2; \
			*out = xrealloc(*out, *cap); \
		} \
		memcpy(*out + *len, (str), n_); *len += n_; (*out)[*len] = 0; \
	} while (0)
	PUT("\"", 1);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			tmp[0] = '\\'; tmp[1] = (char)*p;
			PUT(tmp, 2);
		} else if (*p < 0x20) {
			snprintf(tmp, sizeof tmp, "\\u%04x", *p);
			PUT(tmp, 6);
		} else {
			PUT((const char *)p, 1);
		}
	}
	PUT("\"", 1);
}

static void
json_raw(char **out, size_t *len, size_t *cap, const char *s)
{
	PUT(s, strlen(s));
#undef PUT
}

/* {"type":"struct","schema-id":N,"fields":[{"id":..,"name":..,"required":..,"type":..}]} */
static char *
schema_json(const IcebergSchema *s, Arena *arena)
{
	size_t len = 0, cap = 256;
	char *out = xmalloc(cap), num[64], *res;
	int i;

	out[0] = 0;
	snprintf(num, sizeof num, "{\"type\":\"struct\",\"schema-id\":%d,\"fields\":[", s->schema_id);
	json_raw(&out, &len, &cap, num);
	for (i = 0; i < s->nfields; i++) {
		const IcebergField *f = &s->fields[i];
		snprintf(num, sizeof num, "%s{\"id\":%d,\"name\":", i ? "," : "", f->id);
		json_raw(&out, &len, &cap, num);
		json_str(&out, &len, &cap, f->name ? f->name : "");
		json_raw(&out, &len, &cap, f->required ? ",\"required\":true,\"type\":"
			 : ",\"required\":false,\"type\":");
		if (f->type.id == TYPE_ARRAY && !f->nested) {
			/* a list of a primitive (spec "Nested Types") */
			floe_error ignore;
			char *et = metadata_type_to_iceberg(array_elem_type(f->type), arena, &ignore);
			snprintf(num, sizeof num, "{\"type\":\"list\",\"element-id\":%d,\"element\":",
				 (int)f->element_id);
			json_raw(&out, &len, &cap, num);
			json_str(&out, &len, &cap, et ? et : "string");
			json_raw(&out, &len, &cap, f->element_required ? ",\"element-required\":true}"
				 : ",\"element-required\":false}");
		} else {
			json_str(&out, &len, &cap, f->iceberg_type ? f->iceberg_type : "");
		}
		json_raw(&out, &len, &cap, "}");
	}
	json_raw(&out, &len, &cap, "]}");
	res = arena_strdup(arena, out);
	free(out);
	return res;
}

/* ---------------------------------------------------------------- bounds */

static uint8_t *
le_bytes(Arena *a, uint64_t v, int n)
{
	uint8_t *p = arena_alloc(a, (size_t)n);
	int i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return p;
}

/* Length of the UTF-8 sequence starting with byte c (1 for invalid bytes). */
static int
utf8_len(uint8_t c)
{
	return c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
}

static uint32_t
utf8_decode(const uint8_t *p, int n)
{
	switch (n) {
	case 2: return ((uint32_t)(p[0] & 0x1f) << 6) | (p[1] & 0x3f);
	case 3: return ((uint32_t)(p[0] & 0x0f) << 12) | ((uint32_t)(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
	case 4: return ((uint32_t)(p[0] & 0x07) << 18) | ((uint32_t)(p[1] & 0x3f) << 12) |
			((uint32_t)(p[2] & 0x3f) << 6) | (p[3] & 0x3f);
	default: return p[0];
	}
}

static int
utf8_encode(uint32_t cp, uint8_t *o)
{
	if (cp < 0x80) { o[0] = (uint8_t)cp; return 1; }
	if (cp < 0x800) { o[0] = (uint8_t)(0xc0 | (cp >> 6)); o[1] = (uint8_t)(0x80 | (cp & 0x3f)); return 2; }
	if (cp < 0x10000) {
		o[0] = (uint8_t)(0xe0 | (cp >> 12)); o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (uint8_t)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (uint8_t)(0xf0 | (cp >> 18)); o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (uint8_t)(0x80 | (cp & 0x3f));
	return 4;
}

static bool
string_bound(const uint8_t *s, uint32_t n, bool upper, int tr, Arena *a, uint8_t **out,
	     uint32_t *outlen)
{
	uint32_t *starts;
	uint32_t pos = 0;
	int ncp = 0, i;

	if (tr <= 0 || (uint32_t)tr >= n) {    /* full, or cannot need truncation */
		*out = arena_memdup(a, n ? (const void *)s : "", n);
		*outlen = n;
		return true;
	}
	starts = arena_alloc(a, sizeof(uint32_t) * ((size_t)tr + 1));
	while (pos < n && ncp < tr) {
		int l = utf8_len(s[pos]);
		if (pos + (uint32_t)l > n)
			l = (int)(n - pos);
		starts[ncp++] = pos;
		pos += (uint32_t)l;
	}
	if (pos >= n) {                        /* short enough: exact */
		*out = arena_memdup(a, n ? (const void *)s : "", n);
		*outlen = n;
		return true;
	}
	if (!upper) {
		*out = arena_memdup(a, s, pos);
		*outlen = pos;
		return true;
	}
	for (i = ncp - 1; i >= 0; i--) {
		uint32_t end = i + 1 < ncp ? starts[i + 1] : pos;
		uint32_t cp = utf8_decode(s + starts[i], (int)(end - starts[i])) + 1;
		uint8_t enc[4];
		int el;
		uint8_t *o;
		if (cp >= 0xD800 && cp <= 0xDFFF)
			cp = 0xE000;
		if (cp > 0x10FFFF)
			continue;
		el = utf8_encode(cp, enc);
		o = arena_alloc(a, starts[i] + (size_t)el);
		memcpy(o, s, starts[i]);
		memcpy(o + starts[i], enc, (size_t)el);
		*out = o;
		*outlen = starts[i] + (uint32_t)el;
		return true;
	}
	return false;
}

static bool
binary_bound(const uint8_t *s, uint32_t n, bool upper, int tr, Arena *a, uint8_t **out,
	     uint32_t *outlen)
{
	int i;

	if (tr <= 0 || n <= (uint32_t)tr) {
		*out = arena_memdup(a, n ? (const void *)s : "", n);
		*outlen = n;
		return true;
	}
	if (!upper) {
		*out = arena_memdup(a, s, (size_t)tr);
		*outlen = (uint32_t)tr;
		return true;
	}
	for (i = tr - 1; i >= 0; i--) {
		if (s[i] != 0xff) {
			uint8_t *o = arena_memdup(a, s, (size_t)i + 1);
			o[i]++;
			*out = o;
			*outlen = (uint32_t)i + 1;
			return true;
		}
	}
	return false;
}

/* Bound with truncation length tr for strings/binary (<= 0: full value). */
static bool
bound(SqlType type, const Value *v, bool upper, int tr, Arena *a, uint8_t **bytes, uint32_t *len)
{
	if (v->is_null)
		return false;
	switch (type.id) {
	case TYPE_BOOL:
		*bytes = le_bytes(a, v->u.b ? 1 : 0, 1);
		*len = 1;
		return true;
	case TYPE_INT16: case TYPE_INT32: case TYPE_DATE:
		*bytes = le_bytes(a, (uint64_t)v->u.i, 4);
		*len = 4;
		return true;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		*bytes = le_bytes(a, (uint64_t)v->u.i, 8);
		*len = 8;
		return true;
	case TYPE_FLOAT32: {
		float f = (float)v->u.f;
		uint32_t u;
		if (f == 0)             /* a zero bound covers both zeros (-0.0 == 0.0 in SQL) */
			f = upper ? 0.0f : -0.0f;
		memcpy(&u, &f, 4);
		*bytes = le_bytes(a, u, 4);
		*len = 4;
		return true;
	}
	case TYPE_FLOAT64: {
		double d = v->u.f;
		uint64_t u;
		if (d == 0)
			d = upper ? 0.0 : -0.0;
		memcpy(&u, &d, 8);
		*bytes = le_bytes(a, u, 8);
		*len = 8;
		return true;
	}
	case TYPE_DECIMAL: {
		/* minimal big-endian two's complement (BigInteger.toByteArray) */
		uint8_t be[16];
		int i, start = 0;
		for (i = 0; i < 16; i++)
			be[15 - i] = (uint8_t)((uint128)v->u.d >> (8 * i));
		while (start < 15 &&
		       ((be[start] == 0x00 && !(be[start + 1] & 0x80)) ||
			(be[start] == 0xff && (be[start + 1] & 0x80))))
			start++;
		*bytes = arena_memdup(a, be + start, (size_t)(16 - start));
		*len = (uint32_t)(16 - start);
		return true;
	}
	case TYPE_TEXT:
		return string_bound((const uint8_t *)strview_data(&v->u.s), v->u.s.len, upper, tr, a,
				    bytes, len);
	case TYPE_BYTEA:
		return binary_bound((const uint8_t *)strview_data(&v->u.s), v->u.s.len, upper, tr, a,
				    bytes, len);
	case TYPE_UUID:
		*bytes = arena_memdup(a, v->u.uuid.b, 16);
		*len = 16;
		return true;
	default:
		return false;
	}
}

bool
data_writer_bound(SqlType type, const Value *v, bool upper, Arena *a,
		  uint8_t **bytes, uint32_t *len)
{
	return bound(type, v, upper, DATA_WRITER_TRUNCATE, a, bytes, len);
}

/* ---------------------------------------------------------------- writer */

static int write_partitioned(DataWriter *w, const Batch *b, floe_error *err);

DataWriter *
data_writer_new(FileIO *io, const char *data_dir, const IcebergSchema *schema,
		int64_t target_file_size, Arena *arena)
{
	DataWriter *w = ARENA_NEW(arena, DataWriter);
	size_t dl;
	int i;

	w->arena = arena;
	w->io = io;
	w->dir = arena_strdup(arena, data_dir ? data_dir : "");
	dl = strlen(w->dir);
	while (dl > 1 && w->dir[dl - 1] == '/')
		w->dir[--dl] = 0;
	w->schema = *schema;
	w->schema.fields = ARENA_ARRAY(arena, IcebergField, schema->nfields ? schema->nfields : 1);
	memcpy(w->schema.fields, schema->fields, sizeof(IcebergField) * (size_t)schema->nfields);
	for (i = 0; i < schema->nfields; i++) {
		IcebergField *f = &w->schema.fields[i];
		f->name = arena_strdup(arena, f->name ? f->name : "");
		f->iceberg_type = f->iceberg_type ? arena_strdup(arena, f->iceberg_type) : NULL;
		f->doc = NULL;
		f->default_sql = NULL;
	}
	w->schema.identifier_field_ids = NULL;
	w->schema.nidentifier = 0;
	w->target = target_file_size > 0 ? target_file_size : DATA_WRITER_DEFAULT_TARGET;
	parquet_write_options_init(&w->opts);
	random_uuid(w->uuid);
	w->cols = ARENA_ARRAY(arena, ParquetWriteColumn, schema->nfields ? schema->nfields : 1);
	for (i = 0; i < schema->nfields; i++) {
		const IcebergField *f = &schema->fields[i];
		w->cols[i].name = arena_strdup(arena, f->name ? f->name : "");
		w->cols[i].field_id = f->id;
		w->cols[i].type = f->type;
		w->cols[i].required = f->required;
		w->cols[i].elem_field_id = f->type.id == TYPE_ARRAY ? f->element_id : -1;
		w->cols[i].elem_required = f->element_required;
	}
	w->mode = ARENA_ARRAY(arena, int, schema->nfields ? schema->nfields : 1);
	w->trunc = ARENA_ARRAY(arena, int, schema->nfields ? schema->nfields : 1);
	w->mode_set = ARENA_ARRAY(arena, bool, schema->nfields ? schema->nfields : 1);
	for (i = 0; i < schema->nfields; i++) {
		w->mode[i] = i < METRICS_MAX_INFERRED ? M_TRUNCATE : M_NONE;
		w->trunc[i] = DATA_WRITER_TRUNCATE;
	}
	w->schema_json = schema_json(schema, arena);
	return w;
}

void
data_writer_set_options(DataWriter *w, const ParquetWriteOptions *opts)
{
	w->opts = *opts;
	w->opts.kv_keys = NULL;
	w->opts.kv_values = NULL;
	w->opts.nkv = 0;
}

static int
parse_i64(const char *key, const char *v, int64_t min, int64_t *out, floe_error *err)
{
	char *end;
	long long x = strtoll(v, &end, 10);

	if (end == v || *end || x < min)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid value for table property \"%s\": \"%s\"", key, v);
	*out = x;
	return FLOE_OK;
}

static int
parse_mode(const char *key, const char *v, int *mode, int *trunc, floe_error *err)
{
	int n;
	char tail;

	if (strcasecmp(v, "none") == 0) {
		*mode = M_NONE;
	} else if (strcasecmp(v, "counts") == 0) {
		*mode = M_COUNTS;
	} else if (strcasecmp(v, "full") == 0) {
		*mode = M_FULL;
	} else if (sscanf(v, "truncate(%d%c", &n, &tail) == 2 && tail == ')' && n > 0 &&
		   v[strlen(v) - 1] == ')') {
		*mode = M_TRUNCATE;
		*trunc = n;
	} else {
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "invalid metrics mode for table property \"%s\": \"%s\"", key, v);
	}
	return FLOE_OK;
}

bool
data_writer_property_known(const char *key)
{
	static const char *const keys[] = {
		"write.target-file-size-bytes", "write.parquet.row-group-size-bytes",
		"write.parquet.page-size-bytes", "write.parquet.dict-size-bytes",
		"write.parquet.compression-level", "write.parquet.compression-codec",
		"write.metadata.metrics.default",
	};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return !strncmp(key, "write.metadata.metrics.column.", 30);
}

int
data_writer_set_property(DataWriter *w, const char *key, const char *value, floe_error *err)
{
	static const char colpfx[] = "write.metadata.metrics.column.";
	int64_t x = 0;
	int i;

	if (!key || !value)
		return FLOE_OK;
	if (strcmp(key, "write.target-file-size-bytes") == 0) {
		TRY(parse_i64(key, value, 1, &x, err));
		w->target = x;
	} else if (strcmp(key, "write.parquet.row-group-size-bytes") == 0) {
		TRY(parse_i64(key, value, 1, &x, err));
		w->opts.row_group_bytes = x;
	} else if (strcmp(key, "write.parquet.page-size-bytes") == 0) {
		TRY(parse_i64(key, value, 1, &x, err));
		w->opts.page_size = x;
	} else if (strcmp(key, "write.parquet.dict-size-bytes") == 0) {
		TRY(parse_i64(key, value, 1, &x, err));
		w->opts.dict_max_bytes = x;
	} else if (strcmp(key, "write.parquet.compression-level") == 0) {
		TRY(parse_i64(key, value, 1, &x, err));
		w->opts.zstd_level = (int)(x > 22 ? 22 : x);
	} else if (strcmp(key, "write.parquet.compression-codec") == 0) {
		static const struct { const char *name; int codec; } codecs[] = {
			{"zstd", PQ_CODEC_ZSTD}, {"snappy", PQ_CODEC_SNAPPY}, {"gzip", PQ_CODEC_GZIP},
			{"brotli", PQ_CODEC_BROTLI}, {"lz4", PQ_CODEC_LZ4_RAW}, {"lz4_raw", PQ_CODEC_LZ4_RAW},
			{"uncompressed", PQ_CODEC_UNCOMPRESSED}, {"none", PQ_CODEC_UNCOMPRESSED},
		};
		size_t k;
		for (k = 0; k < sizeof codecs / sizeof codecs[0]; k++)
			if (strcasecmp(value, codecs[k].name) == 0)
				break;
		if (k == sizeof codecs / sizeof codecs[0])
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "unsupported Parquet compression codec \"%s\"", value);
		w->opts.codec = codecs[k].codec;
	} else if (strcmp(key, "write.metadata.metrics.default") == 0) {
		int mode = M_TRUNCATE, tr = DATA_WRITER_TRUNCATE;
		TRY(parse_mode(key, value, &mode, &tr, err));
		for (i = 0; i < w->schema.nfields; i++)
			if (!w->mode_set[i]) {
				w->mode[i] = mode;
				w->trunc[i] = tr;
			}
	} else if (strncmp(key, colpfx, sizeof colpfx - 1) == 0) {
		const char *name = key + sizeof colpfx - 1;
		int mode = M_TRUNCATE, tr = DATA_WRITER_TRUNCATE;
		TRY(parse_mode(key, value, &mode, &tr, err));
		for (i = 0; i < w->schema.nfields; i++)
			if (strcmp(w->schema.fields[i].name, name) == 0) {
				w->mode[i] = mode;
				w->trunc[i] = tr;
				w->mode_set[i] = true;
			}
	}
	return FLOE_OK;
}

static int
open_file(DataWriter *w, ParquetWriter **pwp, floe_error *err)
{
	static const char *keys[] = {"iceberg.schema"};
	const char *vals[1];
	ParquetWriteOptions o = w->opts;
	int i;

	for (i = 0; i < w->schema.nfields; i++) {
		const IcebergField *f = &w->schema.fields[i];
		if (f->nested || (f->type.id == TYPE_ARRAY &&
				  (f->type.vector || !array_elem_supported(array_elem_type(f->type)) ||
				   array_elem_type(f->type).id == TYPE_INTERVAL)))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "writing nested column \"%s\" (%s) is not supported",
					   f->name, f->iceberg_type ? f->iceberg_type : "nested");
		if (f->type.id == TYPE_INTERVAL || f->type.id == TYPE_NULL) {
			char tn[64];
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "column \"%s\" of type %s cannot be stored in an Iceberg table",
					   f->name, type_name(f->type, tn, sizeof tn));
		}
	}
	vals[0] = w->schema_json;
	o.kv_keys = keys;
	o.kv_values = vals;
	o.nkv = 1;
	*pwp = parquet_writer_new(w->cols, w->schema.nfields, &o);
	if (!*pwp)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot write this table schema to Parquet (unsupported column type)");
	return FLOE_OK;
}

/* Finish the Parquet file *pwp (the single stream's, or a partition's
 * whose tuple is `tuple`), write it and describe it in files[]. */
static int
close_file(DataWriter *w, ParquetWriter **pwp, const Value *tuple, floe_error *err)
{
	const uint8_t *data;
	size_t len;
	DataFile *df;
	char *path;
	int i, nrg;
	ParquetWriter *pw = *pwp;

	TRY(parquet_writer_finish(pw, &data, &len, err));
	path = arena_sprintf(w->arena, "%s/%s-%d.parquet", w->dir, w->uuid, w->seq++);
	TRY(fileio_write(w->io, path, data, len, err));
	if (w->nfiles == w->capfiles) {
		int nc = w->capfiles ? w->capfiles * 2 : 4;
		w->files = arena_realloc(w->arena, w->files, sizeof(DataFile) * (size_t)w->capfiles,
					 sizeof(DataFile) * (size_t)nc);
		w->capfiles = nc;
	}
	df = &w->files[w->nfiles++];
	memset(df, 0, sizeof *df);
	df->content = CONTENT_DATA;
	df->file_path = path;
	df->file_format = arena_strdup(w->arena, "PARQUET");
	df->record_count = parquet_writer_num_rows(pw);
	df->file_size_in_bytes = (int64_t)len;
	df->ncolumns = w->schema.nfields;
	df->columns = ARENA_ARRAY(w->arena, ColumnStat, w->schema.nfields ? w->schema.nfields : 1);
	for (i = 0; i < w->schema.nfields; i++) {
		const ParquetColumnResult *r = parquet_writer_column_result(pw, i);
		ColumnStat *cs = &df->columns[i];
		SqlType t = w->schema.fields[i].type;
		int mode = w->mode[i];
		int tr = mode == M_FULL ? 0 : w->trunc[i];
		cs->field_id = w->schema.fields[i].id;
		cs->column_size = r->total_compressed_size;
		cs->value_count = cs->null_count = cs->nan_count = -1;
		if (t.id == TYPE_ARRAY) {
			/* the element is the leaf (as Iceberg Java's footer
			 * metrics): its level entries and the entries below the
			 * element (NULL / empty lists, NULL elements); no bounds,
			 * which Iceberg Java keeps for top-level fields only */
			cs->field_id = w->schema.fields[i].element_id;
			if (mode != M_NONE) {
				cs->value_count = r->value_count;
				cs->null_count = r->null_count;
			}
			continue;
		}
		if (mode == M_NONE)
			continue;
		cs->value_count = r->value_count;
		cs->null_count = r->null_count;
		cs->nan_count = (t.id == TYPE_FLOAT32 || t.id == TYPE_FLOAT64) ? r->nan_count : -1;
		if (mode == M_COUNTS || !r->has_min_max)
			continue;
		if (!bound(t, &r->min, false, tr, w->arena, &cs->lower, &cs->lower_len))
			cs->lower = NULL;
		if (!bound(t, &r->max, true, tr, w->arena, &cs->upper, &cs->upper_len))
			cs->upper = NULL;
	}
	nrg = parquet_writer_num_row_groups(pw);
	df->nsplit_offsets = nrg;
	df->split_offsets = ARENA_ARRAY(w->arena, int64_t, nrg ? nrg : 1);
	for (i = 0; i < nrg; i++)
		df->split_offsets[i] = parquet_writer_row_group_offset(pw, i);
	df->spec_id = w->spec_id;
	df->npartition = w->nspec;
	df->partition = w->nspec ? (Value *)tuple : NULL;
	parquet_writer_free(pw);
	*pwp = NULL;
	return FLOE_OK;
}

int
data_writer_set_table_properties(DataWriter *w, const TableMetadata *md, floe_error *err)
{
	int i;

	for (i = 0; i < md->nproperties; i++)
		if (!strncmp(md->properties[i].key, "write.", 6) &&
		    data_writer_set_property(w, md->properties[i].key, md->properties[i].value,
					     err) != FLOE_OK)
			return FLOE_ERR;
	return FLOE_OK;
}

int
data_writer_write(DataWriter *w, const Batch *b, floe_error *err)
{
	if (w->failed)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "data writer is in a failed state");
	if (b->count == 0)
		return FLOE_OK;
	if (b->ncols != w->schema.nfields)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
				   "data writer: batch has %d columns, schema has %d",
				   b->ncols, w->schema.nfields);
	if (w->nspec)
		return write_partitioned(w, b, err);
	if (!w->pw && open_file(w, &w->pw, err) != FLOE_OK)
		goto fail;
	if (parquet_writer_write(w->pw, b, err) != FLOE_OK)
		goto fail;
	if (parquet_writer_estimated_size(w->pw) >= w->target &&
	    close_file(w, &w->pw, NULL, err) != FLOE_OK)
		goto fail;
	return FLOE_OK;
fail:
	w->failed = true;
	return FLOE_ERR;
}

/* ---------------------------------------------------------------- partitions */

static void
free_scratch(void *arg)
{
	arena_free(arg);
}

/* Byte width of a partition value of type t in a key (strings: 0). */
static size_t
key_width(TypeId t)
{
	return type_is_string(t) ? 0 : type_width(t);
}

/* The key bytes of view row k of transformed vectors pv (one per spec
 * field): per field a null flag, then the value's bytes (strings: 4-byte
 * length + bytes).  Appended to buf (capacity grown as needed). */
static uint32_t
part_key(DataWriter *w, const Vector *pv, uint32_t k, uint8_t **buf, size_t *cap)
{
	size_t len = 0;
	int f;

	for (f = 0; f < w->nspec; f++) {
		const Vector *v = &pv[f];
		TypeId t = v->type.id;
		size_t need = 1 + (type_is_string(t) ? 4 + ((const strview *)v->data)[k].len :
				   key_width(t));
		if (len + need > *cap) {
			size_t nc = *cap * 2 + need;
			*buf = arena_realloc(w->scratch, *buf, *cap, nc);
			*cap = nc;
		}
		if (!validity_get(v->validity, k)) {
			(*buf)[len++] = 0;
			continue;
		}
		(*buf)[len++] = 1;
		if (type_is_string(t)) {
			const strview *sv = &((const strview *)v->data)[k];
			memcpy(*buf + len, &sv->len, 4);
			if (sv->len)
				memcpy(*buf + len + 4, strview_data(sv), sv->len);
			len += 4 + sv->len;
		} else {
			memcpy(*buf + len, (const char *)v->data + (size_t)k * key_width(t), key_width(t));
			len += key_width(t);
		}
	}
	return (uint32_t)len;
}

static void
slots_grow(DataWriter *w)
{
	int n = w->nslots ? w->nslots * 2 : 64, i;
	int *s = ARENA_ARRAY(w->arena, int, n);

	for (i = 0; i < n; i++)
		s[i] = -1;
	for (i = 0; i < w->nparts; i++) {
		uint32_t h = w->parts[i].hash & (uint32_t)(n - 1);
		while (s[h] >= 0)
			h = (h + 1) & (uint32_t)(n - 1);
		s[h] = i;
	}
	w->slots = s;
	w->nslots = n;
}

/* The part of key (new parts get their tuple from pv row k). */
static int
part_find(DataWriter *w, const uint8_t *key, uint32_t keylen, const Vector *pv, uint32_t k)
{
	uint32_t hash = partition_murmur3_32(key, keylen), h;
	Part *p;
	int f, i;

	if ((w->nparts + 1) * 2 > w->nslots)
		slots_grow(w);
	for (h = hash & (uint32_t)(w->nslots - 1); (i = w->slots[h]) >= 0;
	     h = (h + 1) & (uint32_t)(w->nslots - 1))
		if (w->parts[i].hash == hash && w->parts[i].keylen == keylen &&
		    memcmp(w->parts[i].key, key, keylen) == 0)
			return i;
	if (w->nparts == w->capparts) {
		int nc = w->capparts ? w->capparts * 2 : 16;
		w->parts = arena_realloc(w->arena, w->parts, sizeof(Part) * (size_t)w->capparts,
					 sizeof(Part) * (size_t)nc);
		w->capparts = nc;
	}
	i = w->nparts++;
	w->slots[h] = i;
	p = &w->parts[i];
	memset(p, 0, sizeof *p);
	p->key = arena_memdup(w->arena, key, keylen ? keylen : 1);
	p->keylen = keylen;
	p->hash = hash;
	p->tuple = ARENA_ARRAY(w->arena, Value, w->nspec);
	for (f = 0; f < w->nspec; f++) {
		Value *v = &p->tuple[f];
		vector_get_value(&pv[f], k, v);
		v->type = w->rtype[f];
		if (!v->is_null && type_is_string(v->type.id)) {
			char *c = arena_memdup(w->arena, v->u.s.len ? strview_data(&v->u.s) : "",
					       v->u.s.len ? v->u.s.len : 1);
			v->u.s = strview_make(c, v->u.s.len);
		}
		v->dzeros = 0;
	}
	return i;
}

/* Make room for one more open file: finish the smallest open one. */
static int
close_smallest(DataWriter *w, floe_error *err)
{
	int i, best = -1;
	int64_t bsz = 0;

	for (i = 0; i < w->nparts; i++) {
		int64_t sz;
		if (!w->parts[i].pw)
			continue;
		sz = parquet_writer_estimated_size(w->parts[i].pw);
		if (best < 0 || sz < bsz) {
			best = i;
			bsz = sz;
		}
	}
	if (best < 0)
		return FLOE_OK;
	TRY(close_file(w, &w->parts[best].pw, w->parts[best].tuple, err));
	w->nopen--;
	return FLOE_OK;
}

/* Give rows (b's vectors with selection sel, n rows) to p's file,
 * opening one (finishing the smallest open file if too many are open)
 * and finishing it at the target size. */
static int
part_write(DataWriter *w, Part *p, const Batch *b, uint32_t *sel, uint32_t n, floe_error *err)
{
	Batch sub = *b;

	sub.sel = sel;
	sub.count = n;
	if (!p->pw) {
		if (w->nopen >= DATA_WRITER_MAX_OPEN)
			TRY(close_smallest(w, err));
		TRY(open_file(w, &p->pw, err));
		w->nopen++;
	}
	TRY(parquet_writer_write(p->pw, &sub, err));
	if (parquet_writer_estimated_size(p->pw) >= w->target) {
		TRY(close_file(w, &p->pw, p->tuple, err));
		w->nopen--;
	}
	return FLOE_OK;
}

/* Write p's buffered rows. */
static int
part_flush(DataWriter *w, Part *p, floe_error *err)
{
	Batch *buf = p->buf;

	if (!buf || buf->count == 0)
		return FLOE_OK;
	p->buf = NULL;
	p->bufcap = 0;
	return part_write(w, p, buf, NULL, buf->count, err);
}

/* Write every buffer; the buffer arena starts over. */
static int
flush_all(DataWriter *w, floe_error *err)
{
	int i;

	for (i = 0; i < w->nparts; i++)
		TRY(part_flush(w, &w->parts[i], err));
	arena_reset(w->bufarena);
	return FLOE_OK;
}

/* Copy rows sel[0..n) of b into p's buffer (long strings too). */
static void
part_buffer(DataWriter *w, Part *p, const Batch *b, const uint32_t *sel, uint32_t n)
{
	uint32_t have = p->buf ? p->buf->count : 0, i;
	int c;

	if (have + n > p->bufcap) {
		uint32_t cap = p->bufcap ? p->bufcap : 64;
		SqlType *types = ARENA_ARRAY(w->scratch, SqlType, b->ncols);
		Batch *nb;
		while (cap < have + n)
			cap *= 2;
		for (c = 0; c < b->ncols; c++)
			types[c] = b->cols[c].type;
		nb = batch_new(w->bufarena, b->ncols, types, cap);
		for (c = 0; c < b->ncols && have; c++)
			vector_copy_rows(&nb->cols[c], 0, &p->buf->cols[c], NULL, have);
		nb->count = have;
		p->buf = nb;
		p->bufcap = cap;
	}
	for (c = 0; c < b->ncols; c++) {
		Vector *v = &p->buf->cols[c];
		vector_copy_rows(v, have, &b->cols[c], sel, n);
		if (type_is_string(v->type.id))
			for (i = have; i < have + n; i++) {
				strview *sv = &((strview *)v->data)[i];
				if (sv->len > STRVIEW_INLINE)
					sv->u.ptr = arena_memdup(w->bufarena, sv->u.ptr, sv->len);
			}
	}
	p->buf->count = have + n;
}

/* Route the rows of b to their partitions' files. */
static int
write_partitioned(DataWriter *w, const Batch *b, floe_error *err)
{
	Vector *pv;
	uint32_t nphys = b->count, r, *touched, ntouched = 0;
	uint8_t *key = NULL;
	size_t cap = 0;
	int f, *rowpart;

	arena_reset(w->scratch);
	pv = ARENA_ARRAY(w->scratch, Vector, w->nspec);
	if (b->sel)
		for (r = 0, nphys = 0; r < b->count; r++)
			if (b->sel[r] + 1 > nphys)
				nphys = b->sel[r] + 1;
	for (f = 0; f < w->nspec; f++) {
		vector_init(&pv[f], w->rtype[f], w->scratch, nphys);
		if (partition_transform_vector(&w->tr[f], &b->cols[w->src_col[f]], nphys, &pv[f],
					       err) != FLOE_OK)
			goto fail;
	}
	/* rows -> parts */
	rowpart = ARENA_ARRAY(w->scratch, int, b->count);
	touched = ARENA_ARRAY(w->scratch, uint32_t, b->count);
	for (r = 0; r < b->count; r++) {
		uint32_t k = b->sel ? b->sel[r] : r, kl = part_key(w, pv, k, &key, &cap);
		int pi = part_find(w, key, kl, pv, k);
		Part *p = &w->parts[pi];
		if (p->nrows == 0)
			touched[ntouched++] = (uint32_t)pi;
		p->nrows++;
		rowpart[r] = pi;
	}
	for (r = 0; r < ntouched; r++) {
		Part *p = &w->parts[touched[r]];
		p->rows = ARENA_ARRAY(w->scratch, uint32_t, p->nrows);
		p->nrows = 0;
	}
	for (r = 0; r < b->count; r++) {
		Part *p = &w->parts[rowpart[r]];
		p->rows[p->nrows++] = b->sel ? b->sel[r] : r;
	}
	/* each touched part: a large share is written as it is (b's vectors
	 * with a selection), a small one is buffered */
	for (r = 0; r < ntouched; r++) {
		Part *p = &w->parts[touched[r]];
		uint32_t *rows = p->rows, n = p->nrows;
		p->rows = NULL;
		p->nrows = 0;
		if (n >= DATA_WRITER_BUFFER_ROWS / 2 && !p->buf) {
			if (part_write(w, p, b, rows, n, err) != FLOE_OK)
				goto fail;
			continue;
		}
		part_buffer(w, p, b, rows, n);
		if (p->buf->count >= DATA_WRITER_BUFFER_ROWS && part_flush(w, p, err) != FLOE_OK)
			goto fail;
	}
	if (arena_bytes(w->bufarena) >= DATA_WRITER_BUFFER_BYTES && flush_all(w, err) != FLOE_OK)
		goto fail;
	return FLOE_OK;
fail:
	w->failed = true;
	return FLOE_ERR;
}

int
data_writer_set_spec(DataWriter *w, const struct PartitionSpec *spec, floe_error *err)
{
	int f, c;

	if (spec && spec->nfields == 0 && !w->nspec)
		w->spec_id = spec->spec_id;    /* an unpartitioned spec: one stream */
	if (!spec || spec->nfields == 0)
		return FLOE_OK;
	if (w->nfiles || w->pw || w->nspec)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
				   "data_writer_set_spec after the first write");
	w->src_col = ARENA_ARRAY(w->arena, int, spec->nfields);
	w->tr = ARENA_ARRAY(w->arena, PartitionTransform, spec->nfields);
	w->rtype = ARENA_ARRAY(w->arena, SqlType, spec->nfields);
	for (f = 0; f < spec->nfields; f++) {
		const PartitionField *pf = &spec->fields[f];
		for (c = 0; c < w->schema.nfields; c++)
			if (w->schema.fields[c].id == pf->source_id)
				break;
		if (c == w->schema.nfields)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "partition field \"%s\" has source column id %d, which is not in the schema written",
					   pf->name ? pf->name : "", (int)pf->source_id);
		w->src_col[f] = c;
		TRY(partition_transform_parse(pf->transform, &w->tr[f], err));
		TRY(partition_transform_type(&w->tr[f], w->schema.fields[c].type, &w->rtype[f], err));
	}
	w->spec_id = spec->spec_id;
	w->nspec = spec->nfields;
	w->scratch = arena_new(64 * 1024);
	arena_on_reset(w->arena, free_scratch, w->scratch);
	w->bufarena = arena_new(256 * 1024);
	arena_on_reset(w->arena, free_scratch, w->bufarena);
	return FLOE_OK;
}

int
data_writer_finish(DataWriter *w, DataFile **files, int *nfiles, floe_error *err)
{
	int i;

	if (w->failed)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "data writer is in a failed state");
	if (w->nspec && flush_all(w, err) != FLOE_OK) {
		w->failed = true;
		return FLOE_ERR;
	}
	for (i = 0; i < w->nparts; i++)
		if (w->parts[i].pw) {
			if (close_file(w, &w->parts[i].pw, w->parts[i].tuple, err) != FLOE_OK) {
				w->failed = true;
				return FLOE_ERR;
			}
			w->nopen--;
		}
	if (w->pw) {
		if (parquet_writer_num_rows(w->pw) > 0) {
			if (close_file(w, &w->pw, NULL, err) != FLOE_OK) {
				w->failed = true;
				return FLOE_ERR;
			}
		} else {
			parquet_writer_free(w->pw);
			w->pw = NULL;
		}
	}
	*files = w->files;
	*nfiles = w->nfiles;
	return FLOE_OK;
}

int
data_writer_finish_append(DataWriter *w, Arena *arena, DataFile **all, int *n, floe_error *err)
{
	DataFile *files, *both;
	int nfiles;

	TRY(data_writer_finish(w, &files, &nfiles, err));
	both = ARENA_ARRAY(arena, DataFile, *n + nfiles + 1);
	if (*n)
		memcpy(both, *all, sizeof(DataFile) * (size_t)*n);
	if (nfiles)
		memcpy(both + *n, files, sizeof(DataFile) * (size_t)nfiles);
	*all = both;
	*n += nfiles;
	return FLOE_OK;
}

void
data_writer_abort(DataWriter *w)
{
	floe_error e;
	int i;

	for (i = 0; i < w->nfiles; i++)
		(void)fileio_remove(w->io, w->files[i].file_path, &e);
	w->nfiles = 0;
	if (w->pw) {
		parquet_writer_free(w->pw);
		w->pw = NULL;
	}
	for (i = 0; i < w->nparts; i++)
		if (w->parts[i].pw) {
			parquet_writer_free(w->parts[i].pw);
			w->parts[i].pw = NULL;
		}
	w->nopen = 0;
	w->failed = true;
}

void
data_writer_free(DataWriter *w)
{
	int i;

	if (!w)
		return;
	if (w->pw) {
		parquet_writer_free(w->pw);
		w->pw = NULL;
	}
	for (i = 0; i < w->nparts; i++)
		if (w->parts[i].pw) {
			parquet_writer_free(w->parts[i].pw);
			w->parts[i].pw = NULL;
		}
	w->nopen = 0;
}
