/*
 * writer.c — the Parquet file writer (see parquet_write.h).
 *
 * Spec: apache/parquet-format — parquet.thrift (FileMetaData, RowGroup,
 * ColumnChunk, ColumnMetaData, Statistics, PageHeader), Encodings.md (PLAIN,
 * RLE/bit-packing hybrid, RLE_DICTIONARY), LogicalTypes.md, README.md (file
 * layout "PAR1" chunks footer len "PAR1").
 *
 * How a row travels:
 *   parquet_writer_write splits a Batch into slices of at most VECTOR_SIZE
 *   rows (and never across a row-group boundary).  For each column, gather()
 *   reads the slice through vector_view (flat/const/dict, batch sel) into a
 *   dense staging array of physical values plus one definition level per row;
 *   append() then updates statistics and either inserts the values into the
 *   column's dictionary (hash table over the dictionary's own plain bytes,
 *   storing uint32 indices) or appends their PLAIN encoding.  When the
 *   dictionary stops paying (too big, or too many distinct values) the chunk
 *   so far is re-encoded PLAIN and the column stays PLAIN for the row group:
 *   when the dictionary page passes opts.dict_max_bytes, or at the end of the
 *   row group when dictionary + indices are not clearly smaller than PLAIN.
 *   Page boundaries ("cuts") are recorded at slice boundaries once a page's
 *   worth of bytes is buffered.  flush_row_group() encodes each column chunk:
 *   dictionary page, then data pages v1 (RLE def levels with a 4-byte length,
 *   then values), each compressed, preceded by its Thrift PageHeader, into the
 *   file buffer.  Every PageHeader carries crc (field 4): the CRC-32 (zlib's
 *   crc32, the polynomial parquet.thrift names) of the page bytes as stored,
 *   i.e. after compression.  parquet_writer_finish writes the footer, whose
 *   last key-value entry is PARQUET_FOOTER_CRC_KEY (parquet.h): the CRC-32 of
 *   the footer itself, written with "00000000" in its place.
 *
 * INTERFACE ROUTINES
 *   parquet_write_options_init, parquet_writer_new, parquet_writer_write,
 *   parquet_writer_estimated_size, parquet_writer_finish,
 *   parquet_writer_column_result, parquet_writer_num_rows,
 *   parquet_writer_num_row_groups, parquet_writer_row_group_offset,
 *   parquet_writer_free, parquet_decimal_bytes
 *
 * Invariants:
 *   1. Buffers are heap PqBufs reused across row groups; no per-value malloc.
 *   2. Within a buffered chunk, cuts[] is increasing in row, value and byte
 *      offset; cut offsets are only meaningful in PLAIN mode (recomputed on
 *      dictionary fallback).
 *   3. Statistics: floats ignore NaN (counted apart), and -0.0 < +0.0 for the
 *      results; the footer follows the spec's zero rule (min -0.0, max +0.0).
 *      Strings compare as unsigned bytes.  Legacy min/max (fields 1/2) are
 *      written only for BOOLEAN/INT32/INT64/FLOAT/DOUBLE, whose legacy signed
 *      order agrees.  column_orders says TypeDefinedOrder for every column.
 *   4. After an error in write/finish the writer is unusable (w->failed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <zlib.h>
#include "format/parquet/parquet.h"
#include "format/parquet/parquet_format.h"
#include "format/parquet/parquet_write.h"
#include "format/parquet/parquet_write_int.h"
#include "types/array.h"

enum Phys { PH_BOOL, PH_I32, PH_I64, PH_FLOAT, PH_DOUBLE, PH_BA, PH_FLBA };

#define DICT_MAX_BYTES (1 << 20)
/* "<application> version <semver>", the form parquet-mr's VersionParser
 * accepts (an unparsable created_by makes it distrust binary statistics). */
#define CREATED_BY "floe version 0.1.0"
#define STATS_MAX_FOOTER 4096   /* longer BYTE_ARRAY bounds are left out of the footer */

typedef struct Cut {
	int64_t row, lev, val;     /* lev: level entries before the cut (flat: = row) */
	size_t off;
} Cut;

/* Running min/max/null/NaN over a chunk or the whole file. */
typedef struct Stat {
	bool has;
	union { int32_t i32; int64_t i64; float f; double d; int128 dec; } min, max;
	PqBuf smin, smax;          /* PH_BA, and PH_FLBA uuid: bytes */
	int64_t nulls, nans;
} Stat;

typedef struct ChunkMeta {
	int64_t num_values;
	int64_t total_uncompressed, total_compressed;
	int64_t data_page_offset, dict_page_offset;   /* dict -1: none */
	bool dict;
	bool has_minmax;
	uint8_t *minb, *maxb;
	uint32_t minlen, maxlen;
	int64_t nulls;
} ChunkMeta;

typedef struct RowGroupMeta {
	int64_t num_rows, total_byte_size, total_compressed, file_offset;
	ChunkMeta *chunks;
} RowGroupMeta;

typedef struct Col {
	ParquetWriteColumn def;
	int ptype;                 /* enum ParquetType */
	int phys;                  /* enum Phys */
	int width;                 /* bytes per fixed value (FLBA: type_length) */
	bool is_dec;               /* decimal (stats as int128 when FLBA) */
	bool optional;             /* the column (a list: the list itself) is OPTIONAL */
	bool list;                 /* a 3-level LIST; def.type is its element's type */
	bool has_defs;             /* definition levels are written */
	uint8_t vdef;              /* the definition level of a present value */

	PqBuf defs;                /* one definition level per level entry */
	PqBuf reps;                /* list: one repetition level per level entry */
	int64_t rows, nlev, nvals; /* nlev: level entries (flat: = rows) */
	int64_t value_bytes;       /* PLAIN size of the chunk's values */
	bool dict_mode;
	PqBuf plain;               /* PLAIN bytes (BOOLEAN: one byte per value) */
	PqBuf idx;                 /* uint32 dictionary indices */
	PqBuf dict;                /* dictionary entries, PLAIN encoded */
	PqBuf dict_off;            /* BYTE_ARRAY: uint32 offset of each entry in dict */
	PqBuf dict_hash;           /* uint32 hash of each entry */
	uint32_t ndict;
	uint32_t *table;           /* open addressing: entry + 1, 0 empty */
	uint32_t tmask;            /* capacity - 1 */
	Cut *cuts;
	int ncuts, cutcap;
	Cut last;                  /* start of the page being filled */

	Stat chunk, file;
	int64_t file_values, file_size;
	ParquetColumnResult res;
} Col;

struct ParquetWriter {
	Arena *arena;
	ParquetWriteOptions opts;
	int ncols;
	Col *cols;
	PqBuf out;                 /* the file */
	PqBuf page, cpage, hdr;    /* scratch */
	int64_t rg_rows, num_rows;
	int64_t flushed_raw, flushed_out;  /* buffered bytes flushed -> bytes written */
	RowGroupMeta *rgs;
	int nrg, rgcap;
	bool finished, failed;

	/* staging for one slice: scap level entries (at least VECTOR_SIZE;
	 * a slice of lists may need more) */
	uint32_t scap;
	uint8_t *sdef, *srep;
	void *sval;                /* scap * 16 bytes */
	int128 *sdec;              /* FLBA decimals */
	uint32_t *sidx;
	Arena *scratch;            /* a slice's decoded array elements */
};

/* ---------------------------------------------------------------- helpers */

int
parquet_decimal_bytes(int precision)
{
	/* smallest n with 2^(8n-1) - 1 >= 10^p - 1 */
	uint128 pow10 = 1;
	int n, i;

	for (i = 0; i < precision && i < DECIMAL_MAX_PRECISION; i++)
		pow10 *= 10;
	for (n = 1; n < 16; n++)
		if ((((uint128)1 << (8 * n - 1)) - 1) >= pow10 - 1)
			return n;
	return 16;
}

void
parquet_write_options_init(ParquetWriteOptions *o)
{
	memset(o, 0, sizeof *o);
	o->codec = PQ_CODEC_ZSTD;
	o->zstd_level = 3;
	o->row_group_rows = 1 << 20;
	o->row_group_bytes = (int64_t)128 << 20;
	o->page_size = 1 << 20;
	o->dictionary = true;
	o->dict_max_bytes = DICT_MAX_BYTES;
}

static inline uint32_t
hash64(uint64_t x)
{
	x *= 0x9E3779B97F4A7C15ull;
	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

static inline uint32_t
hashbytes(const void *p, size_t n)
{
	return (uint32_t)XXH3_64bits(p, n);
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void
dec_to_be(int128 v, uint8_t *dst, int n)
{
	int j;
	for (j = 0; j < n; j++)
		dst[n - 1 - j] = (uint8_t)((uint128)v >> (8 * j));
}

static bool
flt_lt(double a, double b)
{
	return a < b || (a == b && signbit(a) && !signbit(b));
}

static int
bytes_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	size_t n = an < bn ? an : bn;
	int c = n ? memcmp(a, b, n) : 0;
	if (c)
		return c;
	return an < bn ? -1 : an > bn;
}

static void
set_bytes(PqBuf *b, const void *p, size_t n)
{
	b->len = 0;
	pqbuf_put(b, p, n);
}

/* Room for n level entries (and as many values) in the staging area. */
static void
stage_reserve(ParquetWriter *w, uint32_t n)
{
	uint32_t c = w->scap ? w->scap : VECTOR_SIZE;

	if (n <= w->scap)
		return;
	while (c < n)
		c *= 2;
	w->sdef = xrealloc(w->sdef, c);
	w->srep = xrealloc(w->srep, c);
	w->sval = xrealloc(w->sval, (size_t)c * 16);
	w->sdec = xrealloc(w->sdec, (size_t)c * sizeof(int128));
	w->sidx = xrealloc(w->sidx, (size_t)c * sizeof(uint32_t));
	w->scap = c;
}

static bool in_group(const ParquetWriter *w, int i);

/* ---------------------------------------------------------------- new */

static bool
map_type(Col *c)
{
	SqlType t = c->def.type;

	c->width = 0;
	switch (t.id) {
	case TYPE_BOOL: c->ptype = PQ_BOOLEAN; c->phys = PH_BOOL; c->width = 1; return true;
	case TYPE_INT16: case TYPE_INT32: case TYPE_DATE:
		c->ptype = PQ_INT32; c->phys = PH_I32; c->width = 4; return true;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		c->ptype = PQ_INT64; c->phys = PH_I64; c->width = 8; return true;
	case TYPE_FLOAT32: c->ptype = PQ_FLOAT; c->phys = PH_FLOAT; c->width = 4; return true;
	case TYPE_FLOAT64: c->ptype = PQ_DOUBLE; c->phys = PH_DOUBLE; c->width = 8; return true;
	case TYPE_DECIMAL:
		c->is_dec = true;
		if (t.precision == 0) {
			c->def.type.precision = DECIMAL_MAX_PRECISION;
			c->def.type.scale = NUMERIC_DEFAULT_SCALE;
		}
		if (c->def.type.precision <= 9) {
			c->ptype = PQ_INT32; c->phys = PH_I32; c->width = 4;
		} else if (c->def.type.precision <= 18) {
			c->ptype = PQ_INT64; c->phys = PH_I64; c->width = 8;
		} else {
			c->ptype = PQ_FIXED_LEN_BYTE_ARRAY; c->phys = PH_FLBA;
			c->width = parquet_decimal_bytes(c->def.type.precision);
		}
		return true;
	case TYPE_TEXT: case TYPE_BYTEA:
		c->ptype = PQ_BYTE_ARRAY; c->phys = PH_BA; return true;
	case TYPE_UUID:
		c->ptype = PQ_FIXED_LEN_BYTE_ARRAY; c->phys = PH_FLBA; c->width = 16; return true;
	default:
		return false;
	}
}

ParquetWriter *
parquet_writer_new(const ParquetWriteColumn *cols, int ncols,
		   const ParquetWriteOptions *opts)
{
	ParquetWriter *w;
	int i;

	if (ncols <= 0)
		return NULL;
	w = xcalloc(1, sizeof *w);
	w->arena = arena_new(0);
	if (opts)
		w->opts = *opts;
	else
		parquet_write_options_init(&w->opts);
	if (w->opts.row_group_rows <= 0)
		w->opts.row_group_rows = 1 << 20;
	if (w->opts.row_group_bytes <= 0)
		w->opts.row_group_bytes = (int64_t)128 << 20;
	if (w->opts.page_size <= 0)
		w->opts.page_size = 1 << 20;
	if (w->opts.dict_max_bytes <= 0)
		w->opts.dict_max_bytes = DICT_MAX_BYTES;
	if (w->opts.group_count > 0) {
		if (!w->opts.group || w->opts.group_first < 0 ||
		    w->opts.group_first + w->opts.group_count > ncols) {
			arena_free(w->arena);
			free(w);
			return NULL;
		}
		w->opts.group = arena_strdup(w->arena, w->opts.group);
	} else
		w->opts.group_count = 0;
	if (w->opts.nkv > 0) {
		const char **k = ARENA_ARRAY(w->arena, const char *, w->opts.nkv);
		const char **v = ARENA_ARRAY(w->arena, const char *, w->opts.nkv);
		for (i = 0; i < w->opts.nkv; i++) {
			k[i] = arena_strdup(w->arena, opts->kv_keys[i]);
			v[i] = opts->kv_values && opts->kv_values[i]
				? arena_strdup(w->arena, opts->kv_values[i]) : NULL;
		}
		w->opts.kv_keys = k;
		w->opts.kv_values = v;
	}
	w->ncols = ncols;
	w->cols = xcalloc((size_t)ncols, sizeof(Col));
	for (i = 0; i < ncols; i++) {
		Col *c = &w->cols[i];
		c->def = cols[i];
		c->def.name = arena_strdup(w->arena, cols[i].name ? cols[i].name : "");
		c->optional = !cols[i].required;
		if (cols[i].type.id == TYPE_ARRAY) {
			/* a list of a primitive; never a field of the group */
			if (in_group(w, i))
				goto bad;
			c->list = true;
			c->def.type = array_elem_type(cols[i].type);
			if (c->def.type.id == TYPE_ARRAY)
				goto bad;
		}
		/* definition levels: an OPTIONAL list +1, the repeated level
		 * +1, an OPTIONAL element +1 (LogicalTypes.md "Lists") */
		c->has_defs = c->optional || c->list;
		c->vdef = !c->list ? 1 : (uint8_t)((c->optional ? 1 : 0) + 1 + (cols[i].elem_required ? 0 : 1));
		if (!map_type(c)) {
bad:
			parquet_writer_free(w);
			return NULL;
		}
		c->dict_mode = w->opts.dictionary && c->phys != PH_BOOL;
	}
	stage_reserve(w, VECTOR_SIZE);
	w->scratch = arena_new(0);
	pqbuf_put(&w->out, "PAR1", 4);
	return w;
}

static void
stat_dispose(Stat *s)
{
	pqbuf_free(&s->smin);
	pqbuf_free(&s->smax);
}

void
parquet_writer_free(ParquetWriter *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->ncols; i++) {
		Col *c = &w->cols[i];
		pqbuf_free(&c->defs);
		pqbuf_free(&c->reps);
		pqbuf_free(&c->plain);
		pqbuf_free(&c->idx);
		pqbuf_free(&c->dict);
		pqbuf_free(&c->dict_off);
		pqbuf_free(&c->dict_hash);
		free(c->table);
		free(c->cuts);
		stat_dispose(&c->chunk);
		stat_dispose(&c->file);
	}
	free(w->cols);
	free(w->rgs);
	pqbuf_free(&w->out);
	pqbuf_free(&w->page);
	pqbuf_free(&w->cpage);
	pqbuf_free(&w->hdr);
	free(w->sdef);
	free(w->srep);
	free(w->sval);
	free(w->sdec);
	free(w->sidx);
	if (w->scratch)
		arena_free(w->scratch);
	arena_free(w->arena);
	free(w);
}

/* ---------------------------------------------------------------- gather */

/*
 * Read rows [start, start+n) of the batch for column ci into the staging
 * area: sdef[j] = 1 if row j is valid, dense values in sval (physical
 * representation), sdec for FLBA decimals.  Returns the number of values.
 */
#define GATHER_LOOP(STMT) \
	for (j = 0; j < n; j++) { \
		uint32_t r = bsel ? bsel[start + j] : start + j; \
		uint32_t k = vsel ? vsel[r] : r; \
		uint8_t ok = validity_get(vv.validity, k); \
		sdef[j] = ok; \
		if (ok) { STMT; nv++; } \
	}

static int
gather(ParquetWriter *w, Col *c, const Vector *v, const uint32_t *bsel,
       uint32_t start, uint32_t n, floe_error *err)
{
	VectorView vv;
	const uint32_t *vsel;
	uint8_t *sdef = w->sdef;
	uint32_t j, nv = 0;

	if (v->type.id == TYPE_NULL) {          /* an untyped NULL column */
		memset(sdef, 0, n);
		return 0;
	}
	if (v->type.id != c->def.type.id ||
	    (v->type.id == TYPE_DECIMAL && v->type.scale != c->def.type.scale))
		return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
				   "parquet writer: column \"%s\" got a vector of another type",
				   c->def.name);
	vector_view(v, &vv);
	vsel = vv.sel;
	switch (v->type.id) {
	case TYPE_BOOL: {
		const uint8_t *d = vv.data;
		uint8_t *o = w->sval;
		GATHER_LOOP(o[nv] = d[k] != 0);
		break;
	}
	case TYPE_INT16: {
		const int16_t *d = vv.data;
		int32_t *o = w->sval;
		GATHER_LOOP(o[nv] = d[k]);
		break;
	}
	case TYPE_INT32: case TYPE_DATE: case TYPE_FLOAT32: {
		const uint32_t *d = vv.data;
		uint32_t *o = w->sval;
		if (!bsel && !vsel && !vv.validity) {
			memcpy(o, d + start, (size_t)n * 4);
			memset(sdef, 1, n);
			nv = n;
		} else {
			GATHER_LOOP(o[nv] = d[k]);
		}
		break;
	}
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
	case TYPE_FLOAT64: {
		const uint64_t *d = vv.data;
		uint64_t *o = w->sval;
		if (!bsel && !vsel && !vv.validity) {
			memcpy(o, d + start, (size_t)n * 8);
			memset(sdef, 1, n);
			nv = n;
		} else {
			GATHER_LOOP(o[nv] = d[k]);
		}
		break;
	}
	case TYPE_DECIMAL: {
		const int128 *d = vv.data;
		if (c->phys == PH_I32) {
			int32_t *o = w->sval;
			GATHER_LOOP(if (d[k] > INT32_MAX || d[k] < INT32_MIN) goto overflow;
				    o[nv] = (int32_t)d[k]);
		} else if (c->phys == PH_I64) {
			int64_t *o = w->sval;
			GATHER_LOOP(if (d[k] > INT64_MAX || d[k] < INT64_MIN) goto overflow;
				    o[nv] = (int64_t)d[k]);
		} else {
			uint8_t *o = w->sval;
			int128 *sd = w->sdec;
			int wd = c->width;
			int128 lim = wd >= 16 ? 0 : ((int128)1 << (8 * wd - 1));
			GATHER_LOOP(if (lim && (d[k] >= lim || d[k] < -lim)) goto overflow;
				    sd[nv] = d[k];
				    dec_to_be(d[k], o + (size_t)nv * wd, wd));
		}
		break;
	}
	case TYPE_TEXT: case TYPE_BYTEA: {
		const strview *d = vv.data;
		strview *o = w->sval;
		GATHER_LOOP(o[nv] = d[k]);
		break;
	}
	case TYPE_UUID: {
		const Uuid *d = vv.data;
		Uuid *o = w->sval;
		GATHER_LOOP(o[nv] = d[k]);
		break;
	}
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "parquet: cannot write a column of type id %d", v->type.id);
	}
	return (int)nv;
overflow:
	return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
			   "numeric value out of range for column \"%s\" (precision %d)",
			   c->def.name, c->def.type.precision);
}

/* Element e (of the element type, non-NULL) as value i of the staging
 * area, in the physical representation gather() gives flat columns. */
static int
put_elem(ParquetWriter *w, Col *c, const Value *e, uint32_t i, floe_error *err)
{
	switch (c->def.type.id) {
	case TYPE_BOOL: ((uint8_t *)w->sval)[i] = e->u.b; break;
	case TYPE_INT16: case TYPE_INT32: case TYPE_DATE:
		((int32_t *)w->sval)[i] = (int32_t)e->u.i;
		break;
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		((int64_t *)w->sval)[i] = e->u.i;
		break;
	case TYPE_FLOAT32: ((float *)w->sval)[i] = (float)e->u.f; break;
	case TYPE_FLOAT64: ((double *)w->sval)[i] = e->u.f; break;
	case TYPE_DECIMAL: {
		int128 d = e->u.d;
		if (c->phys == PH_I32) {
			if (d > INT32_MAX || d < INT32_MIN)
				goto overflow;
			((int32_t *)w->sval)[i] = (int32_t)d;
		} else if (c->phys == PH_I64) {
			if (d > INT64_MAX || d < INT64_MIN)
				goto overflow;
			((int64_t *)w->sval)[i] = (int64_t)d;
		} else {
			int wd = c->width;
			int128 lim = wd >= 16 ? 0 : ((int128)1 << (8 * wd - 1));
			if (lim && (d >= lim || d < -lim))
				goto overflow;
			w->sdec[i] = d;
			dec_to_be(d, (uint8_t *)w->sval + (size_t)i * (size_t)wd, wd);
		}
		break;
	}
	case TYPE_TEXT: case TYPE_BYTEA: ((strview *)w->sval)[i] = e->u.s; break;
	case TYPE_UUID: ((Uuid *)w->sval)[i] = e->u.uuid; break;
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "parquet: cannot write a list of type id %d", c->def.type.id);
	}
	return FLOE_OK;
overflow:
	return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
			   "numeric value out of range for column \"%s\" (precision %d)",
			   c->def.name, c->def.type.precision);
}

/*
 * A list column's rows [start, start+n): the level entries of the 3-level
 * LIST (LogicalTypes.md "Lists"; Dremel levels) in sdef/srep, the
 * present elements dense in sval.  Definition levels, for an OPTIONAL
 * list and OPTIONAL elements (REQUIRED ones take one off each below):
 * 0 a NULL list, 1 an empty list, 2 a NULL element, 3 an element; the
 * repetition level is 0 for a row's first entry, 1 for the next elements.
 * *nlevp = the level entries; returns the number of values.
 */
static int
gather_list(ParquetWriter *w, Col *c, const Vector *v, const uint32_t *bsel,
	    uint32_t start, uint32_t n, uint32_t *nlevp, floe_error *err)
{
	VectorView vv;
	uint8_t dempty = c->optional ? 1 : 0;
	uint32_t j, L = 0, nv = 0;
	bool untyped = v->type.id == TYPE_NULL;

	if (!untyped && (v->type.id != TYPE_ARRAY || v->type.elem != c->def.type.id))
		return floe_errorf(err, ERRCODE_DATATYPE_MISMATCH,
				   "parquet writer: column \"%s\" got a vector of another type",
				   c->def.name);
	arena_reset(w->scratch);
	if (!untyped)
		vector_view(v, &vv);
	for (j = 0; j < n; j++) {
		uint32_t r = bsel ? bsel[start + j] : start + j, k = 0, ne, e;
		Value *vals;

		if (!untyped)
			k = vv.sel ? vv.sel[r] : r;
		if (untyped || !validity_get(vv.validity, k)) {
			if (!c->optional)
				return floe_errorf(err, ERRCODE_NOT_NULL_VIOLATION,
						   "null value in column \"%s\" violates not-null constraint",
						   c->def.name);
			stage_reserve(w, L + 1);
			w->sdef[L] = 0;
			w->srep[L++] = 0;
			continue;
		}
		TRY(array_decode(&((const strview *)vv.data)[k], v->type, w->scratch, &vals, &ne, err));
		if ((uint64_t)L + ne + 1 > INT32_MAX)
			return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
					   "parquet: too many list elements in one slice of column \"%s\"",
					   c->def.name);
		stage_reserve(w, L + (ne ? ne : 1));
		if (ne == 0) {
			w->sdef[L] = dempty;
			w->srep[L++] = 0;
			continue;
		}
		for (e = 0; e < ne; e++) {
			w->srep[L] = e ? 1 : 0;
			if (vals[e].is_null) {
				if (c->vdef == dempty + 1)      /* element-required */
					return floe_errorf(err, ERRCODE_NOT_NULL_VIOLATION,
							   "null element in column \"%s\", whose elements are required",
							   c->def.name);
				w->sdef[L++] = (uint8_t)(dempty + 1);
				continue;
			}
			{
				Value ev;
				TRY(array_elem_value(&vals[e], c->def.type, &ev, err));
				TRY(put_elem(w, c, &ev, nv, err));
			}
			w->sdef[L++] = c->vdef;
			nv++;
		}
	}
	*nlevp = L;
	return (int)nv;
}

/* ---------------------------------------------------------------- stats */

static void
stats_update(Col *c, Stat *s, const void *vals, uint32_t nv, const int128 *dec)
{
	uint32_t i;

	if (!nv)
		return;
	switch (c->phys) {
	case PH_BOOL: {
		const uint8_t *v = vals;
		int32_t mn = s->has ? s->min.i32 : 1, mx = s->has ? s->max.i32 : 0;
		for (i = 0; i < nv; i++) {
			if (v[i] < mn) mn = v[i];
			if (v[i] > mx) mx = v[i];
		}
		s->min.i32 = mn; s->max.i32 = mx; s->has = true;
		break;
	}
	case PH_I32: {
		const int32_t *v = vals;
		int32_t mn = s->has ? s->min.i32 : v[0], mx = s->has ? s->max.i32 : v[0];
		for (i = 0; i < nv; i++) {
			mn = v[i] < mn ? v[i] : mn;
			mx = v[i] > mx ? v[i] : mx;
		}
		s->min.i32 = mn; s->max.i32 = mx; s->has = true;
		break;
	}
	case PH_I64: {
		const int64_t *v = vals;
		int64_t mn = s->has ? s->min.i64 : v[0], mx = s->has ? s->max.i64 : v[0];
		for (i = 0; i < nv; i++) {
			mn = v[i] < mn ? v[i] : mn;
			mx = v[i] > mx ? v[i] : mx;
		}
		s->min.i64 = mn; s->max.i64 = mx; s->has = true;
		break;
	}
	case PH_FLOAT: {
		const float *v = vals;
		for (i = 0; i < nv; i++) {
			float x = v[i];
			if (isnan(x)) { s->nans++; continue; }
			if (!s->has) { s->min.f = s->max.f = x; s->has = true; continue; }
			if (flt_lt(x, s->min.f)) s->min.f = x;
			if (flt_lt(s->max.f, x)) s->max.f = x;
		}
		break;
	}
	case PH_DOUBLE: {
		const double *v = vals;
		for (i = 0; i < nv; i++) {
			double x = v[i];
			if (isnan(x)) { s->nans++; continue; }
			if (!s->has) { s->min.d = s->max.d = x; s->has = true; continue; }
			if (flt_lt(x, s->min.d)) s->min.d = x;
			if (flt_lt(s->max.d, x)) s->max.d = x;
		}
		break;
	}
	case PH_FLBA:
		if (c->is_dec) {
			int128 mn = s->has ? s->min.dec : dec[0], mx = s->has ? s->max.dec : dec[0];
			for (i = 0; i < nv; i++) {
				mn = dec[i] < mn ? dec[i] : mn;
				mx = dec[i] > mx ? dec[i] : mx;
			}
			s->min.dec = mn; s->max.dec = mx; s->has = true;
		} else {
			const uint8_t *v = vals;
			const uint8_t *mn = v, *mx = v;
			size_t wd = (size_t)c->width;
			for (i = 1; i < nv; i++) {
				if (memcmp(v + i * wd, mn, wd) < 0) mn = v + i * wd;
				if (memcmp(v + i * wd, mx, wd) > 0) mx = v + i * wd;
			}
			if (!s->has || memcmp(mn, s->smin.p, wd) < 0)
				set_bytes(&s->smin, mn, wd);
			if (!s->has || memcmp(mx, s->smax.p, wd) > 0)
				set_bytes(&s->smax, mx, wd);
			s->has = true;
		}
		break;
	case PH_BA: {
		const strview *v = vals;
		const strview *mn = &v[0], *mx = &v[0];
		for (i = 1; i < nv; i++) {
			if (strview_cmp(&v[i], mn) < 0) mn = &v[i];
			else if (strview_cmp(&v[i], mx) > 0) mx = &v[i];
		}
		if (!s->has || bytes_cmp((const uint8_t *)strview_data(mn), mn->len,
					 s->smin.p, s->smin.len) < 0)
			set_bytes(&s->smin, strview_data(mn), mn->len);
		if (!s->has || bytes_cmp((const uint8_t *)strview_data(mx), mx->len,
					 s->smax.p, s->smax.len) > 0)
			set_bytes(&s->smax, strview_data(mx), mx->len);
		s->has = true;
		break;
	}
	}
}

/* Fold chunk statistics src into dst. */
static void
stats_merge(Col *c, Stat *dst, const Stat *src)
{
	dst->nulls += src->nulls;
	dst->nans += src->nans;
	if (!src->has)
		return;
	if (!dst->has) {
		dst->min = src->min;
		dst->max = src->max;
		set_bytes(&dst->smin, src->smin.p, src->smin.len);
		set_bytes(&dst->smax, src->smax.p, src->smax.len);
		dst->has = true;
		return;
	}
	switch (c->phys) {
	case PH_BOOL: case PH_I32:
		if (src->min.i32 < dst->min.i32) dst->min.i32 = src->min.i32;
		if (src->max.i32 > dst->max.i32) dst->max.i32 = src->max.i32;
		break;
	case PH_I64:
		if (src->min.i64 < dst->min.i64) dst->min.i64 = src->min.i64;
		if (src->max.i64 > dst->max.i64) dst->max.i64 = src->max.i64;
		break;
	case PH_FLOAT:
		if (flt_lt(src->min.f, dst->min.f)) dst->min.f = src->min.f;
		if (flt_lt(dst->max.f, src->max.f)) dst->max.f = src->max.f;
		break;
	case PH_DOUBLE:
		if (flt_lt(src->min.d, dst->min.d)) dst->min.d = src->min.d;
		if (flt_lt(dst->max.d, src->max.d)) dst->max.d = src->max.d;
		break;
	case PH_FLBA:
		if (c->is_dec) {
			if (src->min.dec < dst->min.dec) dst->min.dec = src->min.dec;
			if (src->max.dec > dst->max.dec) dst->max.dec = src->max.dec;
			break;
		}
		/* fall through */
	case PH_BA:
		if (bytes_cmp(src->smin.p, src->smin.len, dst->smin.p, dst->smin.len) < 0)
			set_bytes(&dst->smin, src->smin.p, src->smin.len);
		if (bytes_cmp(src->smax.p, src->smax.len, dst->smax.p, dst->smax.len) > 0)
			set_bytes(&dst->smax, src->smax.p, src->smax.len);
		break;
	}
}

/* ---------------------------------------------------------------- dictionary */

static void
table_grow(Col *c)
{
	uint32_t cap = c->table ? (c->tmask + 1) * 2 : 1024, i;
	const uint32_t *hs = (const uint32_t *)c->dict_hash.p;

	free(c->table);
	c->table = xcalloc(cap, sizeof(uint32_t));
	c->tmask = cap - 1;
	for (i = 0; i < c->ndict; i++) {
		uint32_t s = hs[i] & c->tmask;
		while (c->table[s])
			s = (s + 1) & c->tmask;
		c->table[s] = i + 1;
	}
}

static inline void
new_entry(Col *c, uint32_t h, uint32_t slot)
{
	pqbuf_put(&c->dict_hash, &h, 4);
	c->table[slot] = ++c->ndict;
}

static inline void
maybe_grow(Col *c)
{
	if (!c->table || (c->ndict + 1) * 2 > c->tmask + 1)
		table_grow(c);
}

/* Insert nv fixed-width values; write their indices to w->sidx.  Widths 4
 * and 8 compare as integers (bit patterns: -0.0 and each NaN are their own
 * entries), other widths (FIXED_LEN_BYTE_ARRAY) with memcmp. */
#define DICT_INSERT_INT(NAME, T) \
static void \
NAME(ParquetWriter *w, Col *c, uint32_t nv) \
{ \
	uint32_t i, *out = w->sidx; \
	const T *vals = w->sval; \
	for (i = 0; i < nv; i++) { \
		T key = vals[i]; \
		uint32_t h = hash64((uint64_t)key), s, e; \
		const T *ents; \
		maybe_grow(c); \
		ents = (const T *)c->dict.p; \
		s = h & c->tmask; \
		while ((e = c->table[s]) != 0 && ents[e - 1] != key) \
			s = (s + 1) & c->tmask; \
		if (!e) { \
			pqbuf_put(&c->dict, &key, sizeof key); \
			new_entry(c, h, s); \
			e = c->ndict; \
		} \
		out[i] = e - 1; \
	} \
}

DICT_INSERT_INT(dict_insert_u32, uint32_t)
DICT_INSERT_INT(dict_insert_u64, uint64_t)

static void
dict_insert_fixed(ParquetWriter *w, Col *c, uint32_t nv)
{
	uint32_t i, *out = w->sidx;
	size_t wd = (size_t)c->width;
	const uint8_t *vals = w->sval;

	if (wd == 4) {
		dict_insert_u32(w, c, nv);
		return;
	}
	if (wd == 8) {
		dict_insert_u64(w, c, nv);
		return;
	}
	for (i = 0; i < nv; i++) {
		const uint8_t *key = vals + i * wd;
		uint32_t h, s, e;

		maybe_grow(c);
		h = hashbytes(key, wd);
		s = h & c->tmask;
		while ((e = c->table[s]) != 0) {
			if (((const uint32_t *)c->dict_hash.p)[e - 1] == h &&
			    memcmp(c->dict.p + (size_t)(e - 1) * wd, key, wd) == 0)
				break;
			s = (s + 1) & c->tmask;
		}
		if (!e) {
			pqbuf_put(&c->dict, key, wd);
			new_entry(c, h, s);
			e = c->ndict;
		}
		out[i] = e - 1;
	}
}

static void
dict_insert_ba(ParquetWriter *w, Col *c, uint32_t nv)
{
	uint32_t i, *out = w->sidx;
	const strview *vals = w->sval;

	for (i = 0; i < nv; i++) {
		const char *p = strview_data(&vals[i]);
		uint32_t len = vals[i].len, h, s, e;

		maybe_grow(c);
		h = hashbytes(p, len);
		s = h & c->tmask;
		while ((e = c->table[s]) != 0) {
			if (((const uint32_t *)c->dict_hash.p)[e - 1] == h) {
				uint32_t off = ((const uint32_t *)c->dict_off.p)[e - 1], elen;
				memcpy(&elen, c->dict.p + off, 4);
				if (elen == len && (len == 0 || memcmp(c->dict.p + off + 4, p, len) == 0))
					break;
			}
			s = (s + 1) & c->tmask;
		}
		if (!e) {
			uint32_t off = (uint32_t)c->dict.len;
			pqbuf_put(&c->dict_off, &off, 4);
			pqbuf_reserve(&c->dict, 4 + (size_t)len);
			put_le32(c->dict.p + c->dict.len, len);
			if (len)
				memcpy(c->dict.p + c->dict.len + 4, p, len);
			c->dict.len += 4 + (size_t)len;
			new_entry(c, h, s);
			e = c->ndict;
		}
		out[i] = e - 1;
	}
}

static void
dict_clear(Col *c)
{
	c->dict.len = c->dict_off.len = c->dict_hash.len = c->idx.len = 0;
	c->ndict = 0;
	if (c->table)
		memset(c->table, 0, (size_t)(c->tmask + 1) * sizeof(uint32_t));
}

/* Re-encode the buffered chunk PLAIN, leave dictionary mode, and recompute
 * the page cuts from the PLAIN sizes. */
static void
dict_fallback(ParquetWriter *w, Col *c)
{
	const uint32_t *ix = (const uint32_t *)c->idx.p;
	int64_t n = (int64_t)(c->idx.len / 4), v, l, rows;
	size_t off = 0;

	c->plain.len = 0;
	for (v = 0; v < n; v++) {
		if (c->phys == PH_BA) {
			uint32_t eo = ((const uint32_t *)c->dict_off.p)[ix[v]], len;
			memcpy(&len, c->dict.p + eo, 4);
			pqbuf_put(&c->plain, c->dict.p + eo, 4 + (size_t)len);
		} else {
			pqbuf_put(&c->plain, c->dict.p + (size_t)ix[v] * (size_t)c->width,
				  (size_t)c->width);
		}
	}
	c->ncuts = 0;
	memset(&c->last, 0, sizeof c->last);
	/* l: level entry; rows: rows started in [0, l] (a cut falls only
	 * before an entry that starts a row) */
	for (l = 0, v = 0, rows = 0; l < c->nlev; l++) {
		if (!c->list || c->reps.p[l] == 0)
			rows++;
		if (c->has_defs && c->defs.p[l] != c->vdef)
			continue;
		if (c->phys == PH_BA) {
			uint32_t len;
			memcpy(&len, c->plain.p + off, 4);
			off += 4 + (size_t)len;
		} else {
			off += (size_t)c->width;
		}
		v++;
		if ((int64_t)(off - c->last.off) >= w->opts.page_size && l + 1 < c->nlev &&
		    (!c->list || c->reps.p[l + 1] == 0)) {
			if (c->ncuts == c->cutcap) {
				c->cutcap = c->cutcap ? c->cutcap * 2 : 16;
				c->cuts = xrealloc(c->cuts, (size_t)c->cutcap * sizeof(Cut));
			}
			c->last.row = rows;
			c->last.lev = l + 1;
			c->last.val = v;
			c->last.off = off;
			c->cuts[c->ncuts++] = c->last;
		}
	}
	dict_clear(c);
	c->dict_mode = false;
}

/* ---------------------------------------------------------------- append */

static void
cut_at(Col *c, int64_t row, int64_t lev, int64_t val, size_t off)
{
	if (c->ncuts == c->cutcap) {
		c->cutcap = c->cutcap ? c->cutcap * 2 : 16;
		c->cuts = xrealloc(c->cuts, (size_t)c->cutcap * sizeof(Cut));
	}
	c->last.row = row;
	c->last.lev = lev;
	c->last.val = val;
	c->last.off = off;
	c->cuts[c->ncuts++] = c->last;
}

static void
add_cut(Col *c)
{
	cut_at(c, c->rows, c->nlev, c->nvals, c->plain.len);
}

/*
 * Append the slice's values PLAIN.  BYTE_ARRAY values may be large, so a
 * page may end inside the slice (at a row boundary) once it holds
 * page_size bytes; n is the slice's level entries (flat: rows), sdef
 * their definition levels (srep: repetition levels of a list).
 */
static void
plain_append(ParquetWriter *w, Col *c, uint32_t n, uint32_t nv)
{
	if (c->phys == PH_BA) {
		const strview *v = w->sval;
		const uint8_t *def = w->sdef;
		uint32_t i, j, rows = 0;
		size_t total = 0;
		uint8_t *o;
		for (i = 0; i < nv; i++)
			total += 4 + (size_t)v[i].len;
		pqbuf_reserve(&c->plain, total);
		o = c->plain.p + c->plain.len;
		for (i = 0, j = 0; j < n; j++) {
			if (!c->list || w->srep[j] == 0)
				rows++;
			if (def[j] != c->vdef)
				continue;
			put_le32(o, v[i].len);
			if (v[i].len)
				memcpy(o + 4, strview_data(&v[i]), v[i].len);
			o += 4 + (size_t)v[i].len;
			i++;
			if (j + 1 < n && (!c->list || w->srep[j + 1] == 0) &&
			    (int64_t)((size_t)(o - c->plain.p) - c->last.off) >= w->opts.page_size)
				cut_at(c, c->rows + rows, c->nlev + j + 1, c->nvals + i,
				       (size_t)(o - c->plain.p));
		}
		c->plain.len += total;
	} else {
		pqbuf_put(&c->plain, w->sval, (size_t)nv * (size_t)c->width);
	}
}

static int
append(ParquetWriter *w, Col *c, const Vector *v, const uint32_t *bsel,
       uint32_t start, uint32_t n, floe_error *err)
{
	uint32_t nv, nulls, nlev = n;
	int r = c->list ? gather_list(w, c, v, bsel, start, n, &nlev, err)
			: gather(w, c, v, bsel, start, n, err);

	if (r < 0)
		return FLOE_ERR;
	nv = (uint32_t)r;
	nulls = nlev - nv;      /* a list: entries below the element's level */
	if (nulls && !c->has_defs)
		return floe_errorf(err, ERRCODE_NOT_NULL_VIOLATION,
				   "null value in column \"%s\" violates not-null constraint",
				   c->def.name);
	if (c->has_defs)
		pqbuf_put(&c->defs, w->sdef, nlev);
	if (c->list)
		pqbuf_put(&c->reps, w->srep, nlev);
	c->chunk.nulls += nulls;
	stats_update(c, &c->chunk, w->sval, nv, w->sdec);
	if (c->dict_mode) {
		if (c->phys == PH_BA)
			dict_insert_ba(w, c, nv);
		else
			dict_insert_fixed(w, c, nv);
		pqbuf_put(&c->idx, w->sidx, (size_t)nv * 4);
	} else {
		plain_append(w, c, nlev, nv);
	}
	if (c->phys == PH_BA) {
		const strview *sv = w->sval;
		uint32_t k;
		for (k = 0; k < nv; k++)
			c->value_bytes += 4 + (int64_t)sv[k].len;
	} else {
		c->value_bytes += (int64_t)nv * c->width;
	}
	c->rows += n;
	c->nlev += nlev;
	c->nvals += nv;
	if (c->dict_mode && (int64_t)c->dict.len > w->opts.dict_max_bytes)
		dict_fallback(w, c);
	if (c->dict_mode ? (c->nvals - c->last.val) * 4 >= w->opts.page_size
	    : (int64_t)(c->plain.len - c->last.off) >= w->opts.page_size)
		add_cut(c);
	return FLOE_OK;
}

/* ---------------------------------------------------------------- encode */

/* Bit-pack n values (uint32 source or uint8 source) at bit width bw. */
static void
bitpack(PqBuf *out, const uint8_t *v8, const uint32_t *v32, size_t from, size_t count,
	size_t n, int bw)
{
	uint64_t acc = 0;
	int bits = 0;
	size_t i;

	pqbuf_reserve(out, (count * (size_t)bw + 7) / 8 + 8);
	for (i = from; i < from + count; i++) {
		uint64_t x = i < n ? (v8 ? v8[i] : v32[i]) : 0;
		acc |= x << bits;
		bits += bw;
		while (bits >= 8) {
			out->p[out->len++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
	if (bits > 0)
		out->p[out->len++] = (uint8_t)acc;
}

/*
 * RLE / bit-packing hybrid (Encodings.md): runs of >= 8 equal values become
 * RLE runs, everything else bit-packed groups of 8 (at most 63 groups per
 * run; the last group is padded with zeros).
 */
static void
rle_hybrid(PqBuf *out, const uint8_t *v8, const uint32_t *v32, size_t n, int bw)
{
	size_t i = 0, gstart = 0, ngroups = 0;
	int vbytes = (bw + 7) / 8;

#define AT(x) (v8 ? (uint32_t)v8[x] : v32[x])
	while (i < n) {
		uint32_t x = AT(i);
		size_t j = i + 1;
		while (j < n && AT(j) == x)
			j++;
		if (j - i >= 8) {
			int b;
			if (ngroups) {
				thrift_write_varint(out, (ngroups << 1) | 1);
				bitpack(out, v8, v32, gstart, ngroups * 8, n, bw);
				ngroups = 0;
			}
			thrift_write_varint(out, (uint64_t)(j - i) << 1);
			for (b = 0; b < vbytes; b++)
				pqbuf_byte(out, (uint8_t)(x >> (8 * b)));
			i = j;
		} else {
			if (!ngroups)
				gstart = i;
			ngroups++;
			i += 8;
			if (ngroups == 63) {
				thrift_write_varint(out, (ngroups << 1) | 1);
				bitpack(out, v8, v32, gstart, ngroups * 8, n, bw);
				ngroups = 0;
			}
		}
	}
	if (ngroups) {
		thrift_write_varint(out, (ngroups << 1) | 1);
		bitpack(out, v8, v32, gstart, ngroups * 8, n, bw);
	}
#undef AT
}

static int
bit_width(uint32_t maxv)
{
	int b = 0;
	while (maxv) {
		b++;
		maxv >>= 1;
	}
	return b ? b : 1;
}

/* Write one page: header + compressed body from w->page. */
static int
emit_page(ParquetWriter *w, int type, int32_t num_values, int encoding,
	  int64_t *unc, int64_t *comp, floe_error *err)
{
	ThriftWriter t;
	size_t ulen = w->page.len;

	if (ulen > INT32_MAX)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "parquet: page of %zu bytes is too large", ulen);
	w->cpage.len = 0;
	TRY(codec_compress_append(w->opts.codec, w->opts.zstd_level, w->page.p, ulen,
				  &w->cpage, err));
	w->hdr.len = 0;
	thrift_write_init(&t, &w->hdr);
	thrift_write_struct_begin(&t);
	thrift_write_field_i32(&t, 1, type);
	thrift_write_field_i32(&t, 2, (int32_t)ulen);
	thrift_write_field_i32(&t, 3, (int32_t)w->cpage.len);
	thrift_write_field_i32(&t, 4, (int32_t)crc32(0L, w->cpage.p, (uInt)w->cpage.len));
	if (type == PQ_PAGE_DATA) {
		thrift_write_field_struct(&t, 5);
		thrift_write_field_i32(&t, 1, num_values);
		thrift_write_field_i32(&t, 2, encoding);
		thrift_write_field_i32(&t, 3, PQ_ENC_RLE);
		thrift_write_field_i32(&t, 4, PQ_ENC_RLE);
		thrift_write_struct_end(&t);
	} else {
		thrift_write_field_struct(&t, 7);
		thrift_write_field_i32(&t, 1, num_values);
		thrift_write_field_i32(&t, 2, PQ_ENC_PLAIN);
		thrift_write_struct_end(&t);
	}
	thrift_write_struct_end(&t);
	pqbuf_put(&w->out, w->hdr.p, w->hdr.len);
	pqbuf_put(&w->out, w->cpage.p, w->cpage.len);
	*unc += (int64_t)(w->hdr.len + ulen);
	*comp += (int64_t)(w->hdr.len + w->cpage.len);
	return FLOE_OK;
}

/* Plain bytes of a statistic (for the footer). */
static uint32_t
stat_bytes(Col *c, const Stat *s, bool is_max, uint8_t *buf16, const uint8_t **p)
{
	switch (c->phys) {
	case PH_BOOL:
		buf16[0] = (uint8_t)(is_max ? s->max.i32 : s->min.i32);
		*p = buf16;
		return 1;
	case PH_I32:
		memcpy(buf16, is_max ? &s->max.i32 : &s->min.i32, 4);
		*p = buf16;
		return 4;
	case PH_I64:
		memcpy(buf16, is_max ? &s->max.i64 : &s->min.i64, 8);
		*p = buf16;
		return 8;
	case PH_FLOAT: {
		float f = is_max ? s->max.f : s->min.f;
		if (f == 0)
			f = is_max ? 0.0f : -0.0f;
		memcpy(buf16, &f, 4);
		*p = buf16;
		return 4;
	}
	case PH_DOUBLE: {
		double d = is_max ? s->max.d : s->min.d;
		if (d == 0)
			d = is_max ? 0.0 : -0.0;
		memcpy(buf16, &d, 8);
		*p = buf16;
		return 8;
	}
	case PH_FLBA:
		if (c->is_dec) {
			dec_to_be(is_max ? s->max.dec : s->min.dec, buf16, c->width);
			*p = buf16;
			return (uint32_t)c->width;
		}
		/* fall through */
	case PH_BA: {
		const PqBuf *b = is_max ? &s->smax : &s->smin;
		*p = b->p;
		return (uint32_t)b->len;
	}
	}
	return 0;
}

static int
flush_column(ParquetWriter *w, Col *c, ChunkMeta *m, floe_error *err)
{
	bool use_dict = c->dict_mode && c->ndict > 0;
	int64_t unc = 0, comp = 0;
	int ci;
	int bw = use_dict ? bit_width(c->ndict - 1) : 0;
	Cut end;

	if (use_dict) {
		/* keep the dictionary only if it pays: dictionary + indices must
		 * be clearly smaller than PLAIN */
		int64_t dict_size = (int64_t)c->dict.len + (c->nvals * bw + 7) / 8;
		if (dict_size * 10 > c->value_bytes * 9) {
			dict_fallback(w, c);
			use_dict = false;
		}
	}
	m->dict_page_offset = -1;
	m->num_values = c->nlev;
	m->dict = use_dict;
	if (c->dict_mode && !use_dict) {
		/* every value NULL: nothing in the dictionary, write PLAIN */
		c->dict_mode = false;
		c->plain.len = 0;
		for (ci = 0; ci < c->ncuts; ci++)
			c->cuts[ci].off = 0;
	}
	if (use_dict) {
		m->dict_page_offset = (int64_t)w->out.len;
		w->page.len = 0;
		pqbuf_put(&w->page, c->dict.p, c->dict.len);
		TRY(emit_page(w, PQ_PAGE_DICTIONARY, (int32_t)c->ndict, PQ_ENC_PLAIN, &unc, &comp, err));
	}
	m->data_page_offset = (int64_t)w->out.len;
	end.row = c->rows;
	end.lev = c->nlev;
	end.val = c->nvals;
	end.off = c->plain.len;
	for (ci = 0; ci <= c->ncuts; ci++) {
		Cut a = ci == 0 ? (Cut){0, 0, 0, 0} : c->cuts[ci - 1];
		Cut b = ci == c->ncuts ? end : c->cuts[ci];
		int64_t nrows = b.row - a.row, nlevs = b.lev - a.lev;

		if (nrows == 0 && !(ci == 0 && c->rows == 0))
			continue;
		w->page.len = 0;
		if (c->list) {          /* repetition levels, then definition levels */
			size_t at = w->page.len;
			pqbuf_reserve(&w->page, 4);
			w->page.len += 4;
			rle_hybrid(&w->page, c->reps.p + a.lev, NULL, (size_t)nlevs, 1);
			put_le32(w->page.p + at, (uint32_t)(w->page.len - at - 4));
		}
		if (c->has_defs) {
			size_t at = w->page.len;
			pqbuf_reserve(&w->page, 4);
			w->page.len += 4;
			if (!c->list && c->chunk.nulls == 0 && nrows > 0) {
				thrift_write_varint(&w->page, (uint64_t)nrows << 1);
				pqbuf_byte(&w->page, 1);
			} else {
				rle_hybrid(&w->page, c->defs.p + a.lev, NULL, (size_t)nlevs,
					   bit_width(c->vdef));
			}
			put_le32(w->page.p + at, (uint32_t)(w->page.len - at - 4));
		}
		if (use_dict) {
			pqbuf_byte(&w->page, (uint8_t)bw);
			rle_hybrid(&w->page, NULL, (const uint32_t *)c->idx.p + a.val,
				   (size_t)(b.val - a.val), bw);
		} else if (c->phys == PH_BOOL) {
			bitpack(&w->page, c->plain.p + a.val, NULL, 0, (size_t)(b.val - a.val),
				(size_t)(b.val - a.val), 1);
		} else {
			pqbuf_put(&w->page, c->plain.p + a.off, b.off - a.off);
		}
		if (nlevs > INT32_MAX)
			return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "parquet: page too large");
		TRY(emit_page(w, PQ_PAGE_DATA, (int32_t)nlevs,
			      use_dict ? PQ_ENC_RLE_DICTIONARY : PQ_ENC_PLAIN, &unc, &comp, err));
	}
	m->total_uncompressed = unc;
	m->total_compressed = comp;
	m->nulls = c->chunk.nulls;
	m->has_minmax = c->chunk.has;
	if (c->chunk.has) {
		uint8_t b1[16], b2[16];
		const uint8_t *p1 = NULL, *p2 = NULL;
		m->minlen = stat_bytes(c, &c->chunk, false, b1, &p1);
		m->maxlen = stat_bytes(c, &c->chunk, true, b2, &p2);
		if (m->minlen > STATS_MAX_FOOTER || m->maxlen > STATS_MAX_FOOTER) {
			m->has_minmax = false;
		} else {
			m->minb = arena_memdup(w->arena, p1 ? p1 : b1, m->minlen);
			m->maxb = arena_memdup(w->arena, p2 ? p2 : b2, m->maxlen);
		}
	}
	/* fold into the file totals and reset the chunk */
	stats_merge(c, &c->file, &c->chunk);
	c->file_values += c->nlev;
	c->file_size += comp;
	c->chunk.has = false;
	c->chunk.nulls = c->chunk.nans = 0;
	c->chunk.smin.len = c->chunk.smax.len = 0;
	c->defs.len = c->reps.len = c->plain.len = 0;
	dict_clear(c);
	c->dict_mode = w->opts.dictionary && c->phys != PH_BOOL;
	c->rows = c->nlev = c->nvals = c->value_bytes = 0;
	c->ncuts = 0;
	memset(&c->last, 0, sizeof c->last);
	return FLOE_OK;
}

static int64_t
buffered_bytes(const ParquetWriter *w)
{
	int64_t t = 0;
	int i;

	for (i = 0; i < w->ncols; i++) {
		const Col *c = &w->cols[i];
		t += (int64_t)(c->defs.len / 8 + c->plain.len + c->dict.len + c->idx.len / 4);
	}
	return t;
}

static int
flush_row_group(ParquetWriter *w, floe_error *err)
{
	RowGroupMeta *rg;
	int i;

	if (w->rg_rows == 0)
		return FLOE_OK;
	if (w->nrg == w->rgcap) {
		w->rgcap = w->rgcap ? w->rgcap * 2 : 8;
		w->rgs = xrealloc(w->rgs, (size_t)w->rgcap * sizeof(RowGroupMeta));
	}
	rg = &w->rgs[w->nrg];
	memset(rg, 0, sizeof *rg);
	rg->num_rows = w->rg_rows;
	rg->file_offset = (int64_t)w->out.len;
	rg->chunks = ARENA_ARRAY(w->arena, ChunkMeta, w->ncols);
	w->flushed_raw += buffered_bytes(w);
	for (i = 0; i < w->ncols; i++) {
		TRY(flush_column(w, &w->cols[i], &rg->chunks[i], err));
		rg->total_byte_size += rg->chunks[i].total_uncompressed;
		rg->total_compressed += rg->chunks[i].total_compressed;
	}
	w->flushed_out += rg->total_compressed;
	w->nrg++;
	w->rg_rows = 0;
	return FLOE_OK;
}

/* ---------------------------------------------------------------- API */

int
parquet_writer_write(ParquetWriter *w, const Batch *b, floe_error *err)
{
	uint32_t done = 0;
	int i;

	if (w->failed || w->finished)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "parquet writer is %s",
				   w->failed ? "in a failed state" : "finished");
	if (b->ncols != w->ncols)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
				   "parquet writer: batch has %d columns, file has %d",
				   b->ncols, w->ncols);
	while (done < b->count) {
		uint32_t n = b->count - done;
		if (n > VECTOR_SIZE)
			n = VECTOR_SIZE;
		if ((int64_t)n > w->opts.row_group_rows - w->rg_rows)
			n = (uint32_t)(w->opts.row_group_rows - w->rg_rows);
		for (i = 0; i < w->ncols; i++) {
			if (append(w, &w->cols[i], &b->cols[i], b->sel, done, n, err) != FLOE_OK) {
				w->failed = true;
				return FLOE_ERR;
			}
		}
		w->rg_rows += n;
		w->num_rows += n;
		done += n;
		if (w->rg_rows >= w->opts.row_group_rows ||
		    buffered_bytes(w) >= w->opts.row_group_bytes) {
			if (flush_row_group(w, err) != FLOE_OK) {
				w->failed = true;
				return FLOE_ERR;
			}
		}
	}
	return FLOE_OK;
}

/* Bytes written so far plus the buffered row group, scaled by the
 * compression ratio seen on the row groups already flushed. */
int64_t
parquet_writer_estimated_size(const ParquetWriter *w)
{
	int64_t b = buffered_bytes(w);

	if (w->flushed_raw > 0 && w->flushed_out < w->flushed_raw)
		b = (int64_t)((double)b * (double)w->flushed_out / (double)w->flushed_raw);
	return (int64_t)w->out.len + b;
}

/* A list's outer elements (LogicalTypes.md "Lists", the 3-level layout
 * Iceberg Java writes):
 *   <optional|required> group <name> (LIST)  field_id = the list's
 *     repeated group list
 *       <optional|required> <element type> element  field_id = element's */
static void
write_list_groups(ThriftWriter *t, const Col *c)
{
	thrift_write_struct_begin(t);
	thrift_write_field_i32(t, 3, c->optional ? PQ_OPTIONAL : PQ_REQUIRED);
	thrift_write_field_binary(t, 4, c->def.name, strlen(c->def.name));
	thrift_write_field_i32(t, 5, 1);
	thrift_write_field_i32(t, 6, PQ_CT_LIST);
	if (c->def.field_id >= 0)
		thrift_write_field_i32(t, 9, c->def.field_id);
	thrift_write_field_struct(t, 10);
	thrift_write_field_struct(t, PQ_LT_LIST);
	thrift_write_struct_end(t);
	thrift_write_struct_end(t);
	thrift_write_struct_end(t);
	thrift_write_struct_begin(t);
	thrift_write_field_i32(t, 3, PQ_REPEATED);
	thrift_write_field_binary(t, 4, "list", 4);
	thrift_write_field_i32(t, 5, 1);
	thrift_write_struct_end(t);
}

static void
write_schema_element(ThriftWriter *t, const Col *c)
{
	SqlType ty = c->def.type;
	const char *name = c->list ? "element" : c->def.name;
	bool optional = c->list ? c->vdef == (c->optional ? 3 : 2) : c->optional;
	int32_t field_id = c->list ? c->def.elem_field_id : c->def.field_id;

	if (c->list)
		write_list_groups(t, c);
	thrift_write_struct_begin(t);
	thrift_write_field_i32(t, 1, c->ptype);
	if (c->ptype == PQ_FIXED_LEN_BYTE_ARRAY)
		thrift_write_field_i32(t, 2, c->width);
	thrift_write_field_i32(t, 3, optional ? PQ_OPTIONAL : PQ_REQUIRED);
	thrift_write_field_binary(t, 4, name, strlen(name));
	switch (ty.id) {
	case TYPE_INT16: thrift_write_field_i32(t, 6, PQ_CT_INT_16); break;
	case TYPE_TEXT: thrift_write_field_i32(t, 6, PQ_CT_UTF8); break;
	case TYPE_DATE: thrift_write_field_i32(t, 6, PQ_CT_DATE); break;
	case TYPE_TIME: thrift_write_field_i32(t, 6, PQ_CT_TIME_MICROS); break;
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		thrift_write_field_i32(t, 6, PQ_CT_TIMESTAMP_MICROS);
		break;
	case TYPE_DECIMAL:
		thrift_write_field_i32(t, 6, PQ_CT_DECIMAL);
		thrift_write_field_i32(t, 7, ty.scale);
		thrift_write_field_i32(t, 8, ty.precision);
		break;
	default: break;
	}
	if (field_id >= 0)
		thrift_write_field_i32(t, 9, field_id);
	switch (ty.id) {
	case TYPE_INT16:
		thrift_write_field_struct(t, 10);
		thrift_write_field_struct(t, PQ_LT_INTEGER);
		thrift_write_field_i8(t, 1, 16);
		thrift_write_field_bool(t, 2, true);
		thrift_write_struct_end(t);
		thrift_write_struct_end(t);
		break;
	case TYPE_TEXT: case TYPE_DATE: case TYPE_UUID:
		thrift_write_field_struct(t, 10);
		thrift_write_field_struct(t, ty.id == TYPE_TEXT ? PQ_LT_STRING
					  : ty.id == TYPE_DATE ? PQ_LT_DATE : PQ_LT_UUID);
		thrift_write_struct_end(t);
		thrift_write_struct_end(t);
		break;
	case TYPE_DECIMAL:
		thrift_write_field_struct(t, 10);
		thrift_write_field_struct(t, PQ_LT_DECIMAL);
		thrift_write_field_i32(t, 1, ty.scale);
		thrift_write_field_i32(t, 2, ty.precision);
		thrift_write_struct_end(t);
		thrift_write_struct_end(t);
		break;
	case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		thrift_write_field_struct(t, 10);
		thrift_write_field_struct(t, ty.id == TYPE_TIME ? PQ_LT_TIME : PQ_LT_TIMESTAMP);
		thrift_write_field_bool(t, 1, ty.id == TYPE_TIMESTAMPTZ);
		thrift_write_field_struct(t, 2);            /* TimeUnit */
		thrift_write_field_struct(t, PQ_UNIT_MICROS);
		thrift_write_struct_end(t);
		thrift_write_struct_end(t);
		thrift_write_struct_end(t);
		thrift_write_struct_end(t);
		break;
	default:
		break;
	}
	thrift_write_struct_end(t);
}

/* Is column i a field of the group (ParquetWriteOptions.group)? */
static bool
in_group(const ParquetWriter *w, int i)
{
	return w->opts.group_count > 0 && i >= w->opts.group_first &&
	       i < w->opts.group_first + w->opts.group_count;
}

static bool
legacy_stats_ok(const Col *c)
{
	return c->phys == PH_BOOL || c->phys == PH_I32 || c->phys == PH_I64 ||
		c->phys == PH_FLOAT || c->phys == PH_DOUBLE;
}

static void
write_chunk(ParquetWriter *w, ThriftWriter *t, const Col *c, const ChunkMeta *m)
{
	int nenc = 1 + (m->dict ? 1 : 0) + (c->has_defs ? 1 : 0);

	thrift_write_struct_begin(t);                              /* ColumnChunk */
	thrift_write_field_i64(t, 2, m->dict_page_offset >= 0 ? m->dict_page_offset
			       : m->data_page_offset);
	thrift_write_field_struct(t, 3);                           /* ColumnMetaData */
	thrift_write_field_i32(t, 1, c->ptype);
	thrift_write_field_list(t, 2, TW_I32, nenc);
	thrift_write_i32(t, PQ_ENC_PLAIN);
	if (c->has_defs)
		thrift_write_i32(t, PQ_ENC_RLE);
	if (m->dict)
		thrift_write_i32(t, PQ_ENC_RLE_DICTIONARY);
	thrift_write_field_list(t, 3, TW_BINARY, in_group(w, (int)(c - w->cols)) ? 2 : c->list ? 3 : 1);   /* path_in_schema */
	if (in_group(w, (int)(c - w->cols)))
		thrift_write_binary(t, w->opts.group, strlen(w->opts.group));
	thrift_write_binary(t, c->def.name, strlen(c->def.name));
	if (c->list) {
		thrift_write_binary(t, "list", 4);
		thrift_write_binary(t, "element", 7);
	}
	thrift_write_field_i32(t, 4, w->opts.codec);
	thrift_write_field_i64(t, 5, m->num_values);
	thrift_write_field_i64(t, 6, m->total_uncompressed);
	thrift_write_field_i64(t, 7, m->total_compressed);
	thrift_write_field_i64(t, 9, m->data_page_offset);
	if (m->dict_page_offset >= 0)
		thrift_write_field_i64(t, 11, m->dict_page_offset);
	thrift_write_field_struct(t, 12);                          /* Statistics */
	if (m->has_minmax && legacy_stats_ok(c)) {
		thrift_write_field_binary(t, 1, m->maxb, m->maxlen);
		thrift_write_field_binary(t, 2, m->minb, m->minlen);
	}
	thrift_write_field_i64(t, 3, m->nulls);
	if (m->has_minmax) {
		thrift_write_field_binary(t, 5, m->maxb, m->maxlen);
		thrift_write_field_binary(t, 6, m->minb, m->minlen);
	}
	thrift_write_struct_end(t);
	thrift_write_struct_end(t);                                /* ColumnMetaData */
	thrift_write_struct_end(t);                                /* ColumnChunk */
}

static void
write_footer(ParquetWriter *w)
{
	PqBuf f = {0};
	ThriftWriter t;
	int i, g;
	uint32_t flen;
	size_t crc_at;
	char hex[9];

	thrift_write_init(&t, &f);
	thrift_write_struct_begin(&t);
	thrift_write_field_i32(&t, 1, 1);                          /* version */
	/* the schema, depth first: a group's element (REQUIRED, num_children)
	 * before the columns it holds */
	{
		int ng = w->opts.group_count > 0 ? 1 : 0, nl = 0;
		for (i = 0; i < w->ncols; i++)
			nl += w->cols[i].list ? 2 : 0;
		thrift_write_field_list(&t, 2, TW_STRUCT, w->ncols + ng + nl + 1);
		thrift_write_struct_begin(&t);                     /* root */
		thrift_write_field_binary(&t, 4, "schema", 6);
		thrift_write_field_i32(&t, 5, w->ncols - w->opts.group_count + ng);
		thrift_write_struct_end(&t);
		for (i = 0; i < w->ncols; i++) {
			if (ng && i == w->opts.group_first) {
				const char *gn = w->opts.group;
				thrift_write_struct_begin(&t);
				thrift_write_field_i32(&t, 3, PQ_REQUIRED);
				thrift_write_field_binary(&t, 4, gn, strlen(gn));
				thrift_write_field_i32(&t, 5, w->opts.group_count);
				if (w->opts.group_field_id >= 0)
					thrift_write_field_i32(&t, 9, w->opts.group_field_id);
				thrift_write_struct_end(&t);
			}
			write_schema_element(&t, &w->cols[i]);
		}
	}
	thrift_write_field_i64(&t, 3, w->num_rows);
	thrift_write_field_list(&t, 4, TW_STRUCT, w->nrg);
	for (g = 0; g < w->nrg; g++) {
		RowGroupMeta *rg = &w->rgs[g];
		thrift_write_struct_begin(&t);
		thrift_write_field_list(&t, 1, TW_STRUCT, w->ncols);
		for (i = 0; i < w->ncols; i++)
			write_chunk(w, &t, &w->cols[i], &rg->chunks[i]);
		thrift_write_field_i64(&t, 2, rg->total_byte_size);
		thrift_write_field_i64(&t, 3, rg->num_rows);
		thrift_write_field_i64(&t, 5, rg->file_offset);
		thrift_write_field_i64(&t, 6, rg->total_compressed);
		thrift_write_struct_end(&t);
	}
	thrift_write_field_list(&t, 5, TW_STRUCT, w->opts.nkv + 1);
	for (i = 0; i < w->opts.nkv; i++) {
		thrift_write_struct_begin(&t);
		thrift_write_field_binary(&t, 1, w->opts.kv_keys[i], strlen(w->opts.kv_keys[i]));
		if (w->opts.kv_values[i])
			thrift_write_field_binary(&t, 2, w->opts.kv_values[i],
						  strlen(w->opts.kv_values[i]));
		thrift_write_struct_end(&t);
	}
	/* the footer checksum, patched in below (parquet.h) */
	thrift_write_struct_begin(&t);
	thrift_write_field_binary(&t, 1, PARQUET_FOOTER_CRC_KEY, strlen(PARQUET_FOOTER_CRC_KEY));
	thrift_write_field_binary(&t, 2, "00000000", 8);
	crc_at = f.len - 8;
	thrift_write_struct_end(&t);
	thrift_write_field_binary(&t, 6, CREATED_BY, strlen(CREATED_BY));
	thrift_write_field_list(&t, 7, TW_STRUCT, w->ncols);
	for (i = 0; i < w->ncols; i++) {
		thrift_write_struct_begin(&t);                     /* ColumnOrder */
		thrift_write_field_struct(&t, 1);                  /* TypeDefinedOrder */
		thrift_write_struct_end(&t);
		thrift_write_struct_end(&t);
	}
	thrift_write_struct_end(&t);
	snprintf(hex, sizeof hex, "%08x", (uint32_t)crc32(0L, f.p, (uInt)f.len));
	memcpy(f.p + crc_at, hex, 8);
	pqbuf_put(&w->out, f.p, f.len);
	flen = (uint32_t)f.len;
	pqbuf_reserve(&w->out, 8);
	put_le32(w->out.p + w->out.len, flen);
	memcpy(w->out.p + w->out.len + 4, "PAR1", 4);
	w->out.len += 8;
	pqbuf_free(&f);
}

static void
make_result(ParquetWriter *w, Col *c)
{
	ParquetColumnResult *r = &c->res;
	Stat *s = &c->file;
	SqlType ty = c->def.type;

	memset(r, 0, sizeof *r);
	r->value_count = c->file_values;
	r->null_count = s->nulls;
	r->total_compressed_size = c->file_size;
	r->has_nan = s->nans > 0;
	r->nan_count = s->nans;
	r->min = value_null(ty);
	r->max = value_null(ty);
	if (!s->has)
		return;
	r->has_min_max = true;
	r->min.is_null = r->max.is_null = false;
	switch (c->phys) {
	case PH_BOOL:
		r->min.u.b = s->min.i32 != 0;
		r->max.u.b = s->max.i32 != 0;
		break;
	case PH_I32:
		if (c->is_dec) { r->min.u.d = s->min.i32; r->max.u.d = s->max.i32; }
		else { r->min.u.i = s->min.i32; r->max.u.i = s->max.i32; }
		break;
	case PH_I64:
		if (c->is_dec) { r->min.u.d = s->min.i64; r->max.u.d = s->max.i64; }
		else { r->min.u.i = s->min.i64; r->max.u.i = s->max.i64; }
		break;
	case PH_FLOAT: r->min.u.f = s->min.f; r->max.u.f = s->max.f; break;
	case PH_DOUBLE: r->min.u.f = s->min.d; r->max.u.f = s->max.d; break;
	case PH_FLBA:
		if (c->is_dec) {
			r->min.u.d = s->min.dec;
			r->max.u.d = s->max.dec;
		} else {
			memcpy(r->min.u.uuid.b, s->smin.p, 16);
			memcpy(r->max.u.uuid.b, s->smax.p, 16);
		}
		break;
	case PH_BA: {
		char *a = arena_memdup(w->arena, s->smin.p ? (const void *)s->smin.p : "", s->smin.len);
		char *b = arena_memdup(w->arena, s->smax.p ? (const void *)s->smax.p : "", s->smax.len);
		r->min.u.s = strview_make(a, (uint32_t)s->smin.len);
		r->max.u.s = strview_make(b, (uint32_t)s->smax.len);
		break;
	}
	}
}

int
parquet_writer_finish(ParquetWriter *w, const uint8_t **data, size_t *len, floe_error *err)
{
	int i;

	if (w->failed)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "parquet writer is in a failed state");
	if (!w->finished) {
		if (flush_row_group(w, err) != FLOE_OK) {
			w->failed = true;
			return FLOE_ERR;
		}
		write_footer(w);
		for (i = 0; i < w->ncols; i++)
			make_result(w, &w->cols[i]);
		w->finished = true;
	}
	*data = w->out.p;
	*len = w->out.len;
	return FLOE_OK;
}

const ParquetColumnResult *
parquet_writer_column_result(const ParquetWriter *w, int col)
{
	if (!w->finished || col < 0 || col >= w->ncols)
		return NULL;
	return &w->cols[col].res;
}

int64_t
parquet_writer_num_rows(const ParquetWriter *w)
{
	return w->num_rows;
}

int
parquet_writer_num_row_groups(const ParquetWriter *w)
{
	return w->nrg;
}

int64_t
parquet_writer_row_group_offset(const ParquetWriter *w, int i)
{
	if (i < 0 || i >= w->nrg)
		return -1;
	return w->rgs[i].file_offset;
}
