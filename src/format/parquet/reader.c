/*
 * reader.c — the Parquet reader: footer, schema, statistics, and column
 * chunks decoded page by page into floe Vectors.
 *
 * Spec: apache/parquet-format (parquet.thrift for FileMetaData and
 * PageHeader, Encodings.md, LogicalTypes.md, README "File format"):
 *
 *   "PAR1" <column chunks: [page header][page]...> <FileMetaData> <u32 len> "PAR1"
 *
 * Decoded: flat leaves (directly under the root, not repeated) and
 * top-level lists of a primitive type (walk_top/top_kind: the 3-level LIST
 * layout and LogicalTypes.md's backward-compatibility rules; list_read
 * assembles each row's array from the repetition and definition levels).
 * Other nested leaves are listed (nested = true, nested_type) but reading
 * them is 0A000.  Pages: DATA_PAGE (v1), DATA_PAGE_V2, DICTIONARY_PAGE (index pages
 * are skipped); value encodings PLAIN, PLAIN_DICTIONARY/RLE_DICTIONARY, RLE
 * (booleans), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT; definition levels RLE or (deprecated) BIT_PACKED.
 * TEXT values (dictionary entries, other pages' values) must be valid UTF-8
 * without NUL, as PostgreSQL's text: XX001 otherwise.
 * Footer CRC: a footer with the key-value entry PARQUET_FOOTER_CRC_KEY
 * (floe's writer adds it) is checked against it in parquet_open
 * (check_footer_crc).
 * Page CRCs (PageHeader.crc: CRC-32 of the page bytes as stored, after the
 * header; for DATA_PAGE_V2 levels included) are verified when a page is
 * loaded, unless the reader was told not to (parquet_column_reader_set_verify);
 * a page without a crc is read unchecked.  Pages skipped whole are not read,
 * so not checked.
 *
 * INTERFACE ROUTINES (parquet.h)
 *   parquet_open, parquet_num_columns, parquet_column, parquet_num_rows,
 *   parquet_num_row_groups, parquet_row_group_num_rows, parquet_column_stats,
 *   parquet_kv_metadata, parquet_column_reader_open, parquet_column_read,
 *   parquet_column_skip
 *
 * Column reader state: a cursor over the chunk's bytes.  next_page() parses
 * one page header and either loads a dictionary or records a data page
 * (page_left = its value count, loaded = false).  A recorded page is
 * decompressed by load_page() only when values are read from it, so skipping
 * whole pages costs one header parse.
 *
 * Invariants:
 *  1. Every offset and length from the file is checked against the buffer it
 *     points into before use; failures are XX001 naming the file.
 *  2. A flat column chunk yields exactly the row group's num_rows values:
 *     a page claiming more values than remain, or a chunk that ends early,
 *     is corrupt.  A list chunk yields exactly num_rows rows from its
 *     num_values level entries (a row starts at repetition level 0).
 *  3. Allocation is bounded by the file: page buffers by the page sizes
 *     (capped at PAGE_MAX), dictionaries by their page, scratch buffers by
 *     the caller's max.
 *  4. Dictionary indexes are checked against the dictionary size, levels
 *     against the maximum definition level.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include "format/parquet/parquet.h"
#include "format/parquet/codec.h"
#include "format/parquet/decode.h"
#include "format/parquet/thrift.h"
#include "types/array.h"
#include "types/text.h"

#define PAGE_MAX ((size_t)1 << 28)      /* largest (un)compressed page accepted */
#define PATH_MAX_LEN 4096               /* longest dotted column path */
#define SCHEMA_MAX_DEPTH 100
#define LIST_CHUNK 1024                 /* level entries a list reader decodes at once */
#define LIST_MAX_BYTES ((size_t)1 << 28) /* largest array value assembled */

#define CORRUPT(pf, err, ...) \
	(FLOE_CORRUPT((err), __VA_ARGS__), \
	 floe_error_prefix((err), "corrupt Parquet file \"%s\": ", (pf)->name))

/* ---------- footer structures ---------- */

typedef struct SElem {
	const char *name;
	int type, type_length, rep, num_children, converted, scale, precision;
	int32_t field_id;
	int lt;                 /* PQ_LT_* */
	int lt_unit;            /* PQ_UNIT_* for TIME/TIMESTAMP */
	bool lt_utc;
	int lt_bits;
	bool lt_signed;
	int lt_scale, lt_precision;
} SElem;

typedef struct ChunkMeta {
	bool has_meta;
	bool encrypted;
	bool external;          /* file_path set: data in another file */
	int type;
	int codec;
	int64_t num_values;
	int64_t total_compressed;
	int64_t data_off;
	int64_t dict_off;       /* -1 if absent */
	/* statistics */
	bool has_null_count;
	int64_t null_count;
	const uint8_t *min, *max, *lmin, *lmax;   /* new / legacy; NULL if absent */
	uint32_t min_len, max_len, lmin_len, lmax_len;
} ChunkMeta;

typedef struct RowGroup {
	int64_t num_rows;
	ChunkMeta *chunks;
} RowGroup;

typedef struct ColInfo {
	int max_def, max_rep;
	/* list columns: the definition level at which the list is present
	 * (not NULL) and at which an element (maybe NULL) is */
	int def_list, def_elem;
	SqlType etype;          /* the values' type: the element's for a list */
	PqConv conv;
	size_t pw;              /* physical width in the decode layout */
	const char *unsupported;/* why type is TYPE_NULL, or NULL */
	bool is_unsigned;       /* unsigned INTEGER: legacy min/max are unusable */
} ColInfo;

struct ParquetFile {
	const uint8_t *data;
	size_t len;
	const char *name;
	Arena *arena;
	int ncols;
	ParquetColumn *cols;
	ColInfo *ci;
	int64_t num_rows;
	int nrg;
	RowGroup *rgs;
	int nkv;
	const char **keys, **vals;
};

/* ---------- footer parsing ---------- */

static const char *
tstr(ThriftIn *t, Arena *a)
{
	uint32_t n;
	const uint8_t *p = thrift_binary(t, &n);
	return arena_strndup(a, (const char *)p, n);
}

/* TimeUnit union: field id is the unit. */
static int
parse_unit(ThriftIn *t)
{
	ThriftField f;
	int unit = 0;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		if (f.type == TC_STRUCT && f.id >= 1 && f.id <= 3)
			unit = f.id;
		thrift_skip(t, f.type);
	}
	return unit;
}

static void
parse_logical(ThriftIn *t, SElem *e)
{
	ThriftField f, g;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		if (f.type != TC_STRUCT) {
			thrift_skip(t, f.type);
			continue;
		}
		e->lt = f.id;
		thrift_struct_begin(t, &g);
		while (thrift_field_next(t, &g)) {
			if (f.id == PQ_LT_DECIMAL && g.id == 1 && g.type == TC_I32)
				e->lt_scale = thrift_i32(t);
			else if (f.id == PQ_LT_DECIMAL && g.id == 2 && g.type == TC_I32)
				e->lt_precision = thrift_i32(t);
			else if ((f.id == PQ_LT_TIME || f.id == PQ_LT_TIMESTAMP) && g.id == 1 &&
				 (g.type == TC_TRUE || g.type == TC_FALSE))
				e->lt_utc = thrift_bool(t, &g);
			else if ((f.id == PQ_LT_TIME || f.id == PQ_LT_TIMESTAMP) && g.id == 2 &&
				 g.type == TC_STRUCT)
				e->lt_unit = parse_unit(t);
			else if (f.id == PQ_LT_INTEGER && g.id == 1 && g.type == TC_BYTE)
				e->lt_bits = thrift_byte(t);
			else if (f.id == PQ_LT_INTEGER && g.id == 2 &&
				 (g.type == TC_TRUE || g.type == TC_FALSE))
				e->lt_signed = thrift_bool(t, &g);
			else
				thrift_skip(t, g.type);
		}
	}
}

static void
parse_selem(ThriftIn *t, SElem *e, Arena *a)
{
	ThriftField f;
	memset(e, 0, sizeof *e);
	e->type = -1;
	e->rep = -1;
	e->converted = PQ_CT_NONE;
	e->field_id = -1;
	e->name = "";
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		switch (f.id) {
		case 1: if (f.type == TC_I32) { e->type = thrift_i32(t); continue; } break;
		case 2: if (f.type == TC_I32) { e->type_length = thrift_i32(t); continue; } break;
		case 3: if (f.type == TC_I32) { e->rep = thrift_i32(t); continue; } break;
		case 4: if (f.type == TC_BINARY) { e->name = tstr(t, a); continue; } break;
		case 5: if (f.type == TC_I32) { e->num_children = thrift_i32(t); continue; } break;
		case 6: if (f.type == TC_I32) { e->converted = thrift_i32(t); continue; } break;
		case 7: if (f.type == TC_I32) { e->scale = thrift_i32(t); continue; } break;
		case 8: if (f.type == TC_I32) { e->precision = thrift_i32(t); continue; } break;
		case 9: if (f.type == TC_I32) { e->field_id = thrift_i32(t); continue; } break;
		case 10: if (f.type == TC_STRUCT) { parse_logical(t, e); continue; } break;
		}
		thrift_skip(t, f.type);
	}
}

static void
parse_stats(ThriftIn *t, ChunkMeta *c)
{
	ThriftField f;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		if (f.type == TC_BINARY && f.id == 1)
			c->lmax = thrift_binary(t, &c->lmax_len);
		else if (f.type == TC_BINARY && f.id == 2)
			c->lmin = thrift_binary(t, &c->lmin_len);
		else if (f.type == TC_BINARY && f.id == 5)
			c->max = thrift_binary(t, &c->max_len);
		else if (f.type == TC_BINARY && f.id == 6)
			c->min = thrift_binary(t, &c->min_len);
		else if (f.type == TC_I64 && f.id == 3) {
			c->null_count = thrift_i64(t);
			c->has_null_count = c->null_count >= 0;
		} else
			thrift_skip(t, f.type);
	}
}

static void
parse_colmeta(ThriftIn *t, ChunkMeta *c)
{
	ThriftField f;
	c->has_meta = true;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		switch (f.id) {
		case 1: if (f.type == TC_I32) { c->type = thrift_i32(t); continue; } break;
		case 4: if (f.type == TC_I32) { c->codec = thrift_i32(t); continue; } break;
		case 5: if (f.type == TC_I64) { c->num_values = thrift_i64(t); continue; } break;
		case 7: if (f.type == TC_I64) { c->total_compressed = thrift_i64(t); continue; } break;
		case 9: if (f.type == TC_I64) { c->data_off = thrift_i64(t); continue; } break;
		case 11: if (f.type == TC_I64) { c->dict_off = thrift_i64(t); continue; } break;
		case 12: if (f.type == TC_STRUCT) { parse_stats(t, c); continue; } break;
		}
		thrift_skip(t, f.type);
	}
}

static void
parse_chunk(ThriftIn *t, ChunkMeta *c)
{
	ThriftField f;
	memset(c, 0, sizeof *c);
	c->dict_off = -1;
	c->type = -1;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		if (f.id == 1 && f.type == TC_BINARY) {
			uint32_t n;
			(void)thrift_binary(t, &n);
			c->external = n > 0;
		} else if (f.id == 3 && f.type == TC_STRUCT)
			parse_colmeta(t, c);
		else if ((f.id == 8 || f.id == 9) && f.type != TC_STOP) {
			c->encrypted = true;
			thrift_skip(t, f.type);
		} else
			thrift_skip(t, f.type);
	}
}

typedef struct Footer {
	SElem *schema;
	uint32_t nschema;
	int64_t num_rows;
	RowGroup *rgs;
	uint32_t nrg;
	uint32_t *rg_ncols;
	const char **keys, **vals;
	uint32_t nkv;
	bool encrypted;
	const uint8_t *crc_val;  /* FOOTER_CRC_KEY's value bytes in the footer, or NULL */
	uint32_t crc_len;
} Footer;

static void
parse_rowgroup(ThriftIn *t, RowGroup *rg, uint32_t *ncols, Arena *a)
{
	ThriftField f;
	int et;
	rg->num_rows = -1;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		if (f.id == 1 && f.type == TC_LIST) {
			uint32_t n = thrift_list(t, &et);
			if (et != TC_STRUCT && n) {
				t->bad = true;
				return;
			}
			rg->chunks = ARENA_ARRAY(a, ChunkMeta, n ? n : 1);
			for (uint32_t i = 0; i < n && !t->bad; i++)
				parse_chunk(t, &rg->chunks[i]);
			*ncols = n;
		} else if (f.id == 3 && f.type == TC_I64)
			rg->num_rows = thrift_i64(t);
		else
			thrift_skip(t, f.type);
	}
}

static void
parse_footer(ThriftIn *t, Footer *ft, Arena *a)
{
	ThriftField f, g;
	int et;
	memset(ft, 0, sizeof *ft);
	ft->num_rows = -1;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		if (f.id == 2 && f.type == TC_LIST) {
			uint32_t n = thrift_list(t, &et);
			if (et != TC_STRUCT && n) {
				t->bad = true;
				return;
			}
			ft->schema = ARENA_ARRAY(a, SElem, n ? n : 1);
			for (uint32_t i = 0; i < n && !t->bad; i++)
				parse_selem(t, &ft->schema[i], a);
			ft->nschema = n;
		} else if (f.id == 3 && f.type == TC_I64)
			ft->num_rows = thrift_i64(t);
		else if (f.id == 4 && f.type == TC_LIST) {
			uint32_t n = thrift_list(t, &et);
			if (et != TC_STRUCT && n) {
				t->bad = true;
				return;
			}
			ft->rgs = ARENA_ARRAY(a, RowGroup, n ? n : 1);
			ft->rg_ncols = ARENA_ARRAY(a, uint32_t, n ? n : 1);
			for (uint32_t i = 0; i < n && !t->bad; i++)
				parse_rowgroup(t, &ft->rgs[i], &ft->rg_ncols[i], a);
			ft->nrg = n;
		} else if (f.id == 5 && f.type == TC_LIST) {
			uint32_t n = thrift_list(t, &et);
			if (et != TC_STRUCT && n) {
				t->bad = true;
				return;
			}
			ft->keys = ARENA_ARRAY(a, const char *, n ? n : 1);
			ft->vals = ARENA_ARRAY(a, const char *, n ? n : 1);
			for (uint32_t i = 0; i < n && !t->bad; i++) {
				ft->keys[i] = "";
				ft->vals[i] = NULL;
				thrift_struct_begin(t, &g);
				while (thrift_field_next(t, &g)) {
					if (g.id == 1 && g.type == TC_BINARY)
						ft->keys[i] = tstr(t, a);
					else if (g.id == 2 && g.type == TC_BINARY) {
						uint32_t vl;
						const uint8_t *vp = thrift_binary(t, &vl);
						ft->vals[i] = arena_strndup(a, (const char *)vp, vl);
						if (strcmp(ft->keys[i], PARQUET_FOOTER_CRC_KEY) == 0) {
							ft->crc_val = vp;
							ft->crc_len = vl;
						}
					} else
						thrift_skip(t, g.type);
				}
			}
			ft->nkv = n;
		} else if (f.id == 8 && f.type == TC_STRUCT) {
			ft->encrypted = true;
			thrift_skip(t, f.type);
		} else
			thrift_skip(t, f.type);
	}
}

/* ---------- schema → columns ---------- */

typedef struct Walk {
	ParquetFile *pf;
	const SElem *el;
	uint32_t n, i;
	floe_error *err;
} Walk;

static void
unsupported(ColInfo *ci, ParquetColumn *c, const char *why)
{
	c->type = type_make(TYPE_NULL);
	ci->unsupported = why;
}

/* Map a leaf's Parquet types to a floe SqlType and a conversion. */
static void
map_type(const SElem *e, ParquetColumn *c, ColInfo *ci)
{
	int lt = e->lt, ct = e->converted, pt = e->type;
	int unit = 0, bits = 0, prec = 0, scale = 0;
	bool utc = false, is_signed = true, dec = false;

	ci->conv = CV_NONE;
	ci->pw = pq_phys_width(pt);
	c->type = type_make(TYPE_NULL);

	/* Normalise the logical type and the legacy converted type. */
	if (lt == PQ_LT_DECIMAL) {
		dec = true;
		prec = e->lt_precision;
		scale = e->lt_scale;
	} else if (lt == PQ_LT_NONE && ct == PQ_CT_DECIMAL) {
		dec = true;
		prec = e->precision;
		scale = e->scale;
	}
	if (lt == PQ_LT_TIME || lt == PQ_LT_TIMESTAMP) {
		unit = e->lt_unit;
		utc = e->lt_utc;
	} else if (lt == PQ_LT_NONE) {
		switch (ct) {
		case PQ_CT_TIME_MILLIS: lt = PQ_LT_TIME; unit = PQ_UNIT_MILLIS; utc = true; break;
		case PQ_CT_TIME_MICROS: lt = PQ_LT_TIME; unit = PQ_UNIT_MICROS; utc = true; break;
		case PQ_CT_TIMESTAMP_MILLIS: lt = PQ_LT_TIMESTAMP; unit = PQ_UNIT_MILLIS; utc = true; break;
		case PQ_CT_TIMESTAMP_MICROS: lt = PQ_LT_TIMESTAMP; unit = PQ_UNIT_MICROS; utc = true; break;
		case PQ_CT_DATE: lt = PQ_LT_DATE; break;
		case PQ_CT_UTF8: lt = PQ_LT_STRING; break;
		case PQ_CT_ENUM: lt = PQ_LT_ENUM; break;
		case PQ_CT_JSON: lt = PQ_LT_JSON; break;
		case PQ_CT_INT_8: lt = PQ_LT_INTEGER; bits = 8; is_signed = true; break;
		case PQ_CT_INT_16: lt = PQ_LT_INTEGER; bits = 16; is_signed = true; break;
		case PQ_CT_INT_32: lt = PQ_LT_INTEGER; bits = 32; is_signed = true; break;
		case PQ_CT_INT_64: lt = PQ_LT_INTEGER; bits = 64; is_signed = true; break;
		case PQ_CT_UINT_8: lt = PQ_LT_INTEGER; bits = 8; is_signed = false; break;
		case PQ_CT_UINT_16: lt = PQ_LT_INTEGER; bits = 16; is_signed = false; break;
		case PQ_CT_UINT_32: lt = PQ_LT_INTEGER; bits = 32; is_signed = false; break;
		case PQ_CT_UINT_64: lt = PQ_LT_INTEGER; bits = 64; is_signed = false; break;
		default: break;
		}
	} else if (lt == PQ_LT_INTEGER) {
		bits = e->lt_bits;
		is_signed = e->lt_signed;
	}
	ci->is_unsigned = lt == PQ_LT_INTEGER && !is_signed;
	c->is_unsigned = ci->is_unsigned;
	c->time_unit = lt == PQ_LT_TIME || lt == PQ_LT_TIMESTAMP ? unit : 0;
	if (dec) {
		if (prec < 1 || scale < 0 || scale > prec) {
			unsupported(ci, c, "invalid DECIMAL precision/scale");
			return;
		}
		if (prec > DECIMAL_MAX_PRECISION) {
			unsupported(ci, c, "DECIMAL precision above 38");
			return;
		}
	}

	switch (pt) {
	case PQ_BOOLEAN:
		c->type = type_make(TYPE_BOOL);
		return;
	case PQ_INT32:
		if (dec) {
			c->type = type_decimal(prec, scale);
			ci->conv = CV_I32_DEC;
		} else if (lt == PQ_LT_INTEGER && is_signed && (bits == 8 || bits == 16)) {
			c->type = type_make(TYPE_INT16);
			ci->conv = CV_I32_I16;
		} else if (lt == PQ_LT_INTEGER && !is_signed && bits == 32) {
			c->type = type_make(TYPE_INT64);
			ci->conv = CV_U32_I64;
		} else if (lt == PQ_LT_DATE) {
			c->type = type_make(TYPE_DATE);
		} else if (lt == PQ_LT_TIME) {
			if (unit != PQ_UNIT_MILLIS) {
				unsupported(ci, c, "TIME on INT32 must be MILLIS");
				return;
			}
			c->type = type_make(TYPE_TIME);
			ci->conv = CV_I32_MS_US;
		} else
			c->type = type_make(TYPE_INT32);
		return;
	case PQ_INT64:
		if (dec) {
			c->type = type_decimal(prec, scale);
			ci->conv = CV_I64_DEC;
		} else if (lt == PQ_LT_INTEGER && !is_signed && bits == 64) {
			c->type = type_decimal(20, 0);
			ci->conv = CV_U64_DEC;
		} else if (lt == PQ_LT_TIME) {
			c->type = type_make(TYPE_TIME);
			if (unit == PQ_UNIT_NANOS)
				ci->conv = CV_I64_NS_US;
			else if (unit == PQ_UNIT_MILLIS)
				ci->conv = CV_I64_MS_US;
		} else if (lt == PQ_LT_TIMESTAMP) {
			c->type = type_make(utc ? TYPE_TIMESTAMPTZ : TYPE_TIMESTAMP);
			if (unit == PQ_UNIT_NANOS)
				ci->conv = CV_I64_NS_US;
			else if (unit == PQ_UNIT_MILLIS)
				ci->conv = CV_I64_MS_US;
		} else
			c->type = type_make(TYPE_INT64);
		return;
	case PQ_INT96:
		c->type = type_make(TYPE_TIMESTAMP);
		ci->conv = CV_INT96_TS;
		return;
	case PQ_FLOAT:
		c->type = type_make(TYPE_FLOAT32);
		return;
	case PQ_DOUBLE:
		c->type = type_make(TYPE_FLOAT64);
		return;
	case PQ_BYTE_ARRAY:
		if (dec) {
			c->type = type_decimal(prec, scale);
			ci->conv = CV_BYTES_DEC;
		} else if (lt == PQ_LT_STRING || lt == PQ_LT_ENUM || lt == PQ_LT_JSON)
			c->type = type_make(TYPE_TEXT);
		else
			c->type = type_make(TYPE_BYTEA);
		return;
	case PQ_FIXED_LEN_BYTE_ARRAY:
		if (e->type_length < 0) {
			unsupported(ci, c, "negative FIXED_LEN_BYTE_ARRAY length");
			return;
		}
		if (dec) {
			c->type = type_decimal(prec, scale);
			ci->conv = CV_BYTES_DEC;
		} else if (lt == PQ_LT_UUID && e->type_length == 16) {
			c->type = type_make(TYPE_UUID);
			ci->conv = CV_BYTES_UUID;
		} else if (lt == PQ_LT_FLOAT16 && e->type_length == 2) {
			c->type = type_make(TYPE_FLOAT32);
			ci->conv = CV_F16;
		} else
			c->type = type_make(TYPE_BYTEA);
		return;
	default:
		unsupported(ci, c, "unknown physical type");
		return;
	}
}

static bool
is_group(const SElem *e)
{
	return e->num_children > 0 || e->type < 0;
}

static bool
is_list_group(const SElem *e)
{
	return e->lt == PQ_LT_LIST || e->converted == PQ_CT_LIST;
}

static bool
is_map_group(const SElem *e)
{
	return e->lt == PQ_LT_MAP || e->converted == PQ_CT_MAP || e->converted == PQ_CT_MAP_KEY_VALUE;
}

/* What nested type holds a group element, as its kind is named in 0A000
 * errors. */
static const char *
group_kind(const SElem *e)
{
	if (e->lt == PQ_LT_VARIANT)
		return "variant";
	if (is_map_group(e))
		return "map";
	if (is_list_group(e))
		return "list";
	return "struct";
}

/*
 * The top-level field el[i] (LogicalTypes.md "Nested Types"): NULL when it
 * is a primitive, with *elem set to its element when it is a list of one
 * (a primitive is flat otherwise); else the kind of nested type it is,
 * which floe does not read.  The LIST backward-compatibility rules decide
 * what the element is: the repeated field itself when it is a primitive
 * (rule 1), a group of several fields (rule 2: list of struct), a group
 * whose one field is repeated (rule 3: list of list) or named "array" or
 * <list>_tuple (rule 4: list of a one-field struct); else its one field
 * (rule 5, the 3-level layout).  An unannotated repeated primitive is a
 * required list of required elements; an unannotated repeated group a
 * list of struct.  Indexes past n are left to walk() to report.
 */
static const char *
top_kind(const SElem *el, uint32_t n, uint32_t i, const SElem **elem)
{
	const SElem *e = &el[i], *r, *c;

	*elem = NULL;
	if (!is_group(e)) {
		if (e->rep == PQ_REPEATED)
			*elem = e;
		return NULL;
	}
	if (e->rep == PQ_REPEATED)
		return is_list_group(e) || is_map_group(e) ? "list of list" : "list of struct";
	if (!is_list_group(e))
		return group_kind(e);
	if (e->num_children != 1 || i + 1 >= n)
		return "list (a LIST group must have one field)";
	r = &el[i + 1];
	if (r->rep != PQ_REPEATED)
		return "list (the field of a LIST group must be repeated)";
	if (!is_group(r)) {
		*elem = r;                              /* rule 1 */
		return NULL;
	}
	if (r->num_children != 1 || i + 2 >= n)
		return "list of struct";                /* rule 2 */
	c = &el[i + 2];
	if (c->rep == PQ_REPEATED)
		return "list of list";                  /* rule 3 */
	if (strcmp(r->name, "array") == 0 ||
	    (strncmp(r->name, e->name, strlen(e->name)) == 0 &&
	     strcmp(r->name + strlen(e->name), "_tuple") == 0))
		return "list of struct";                /* rule 4 */
	if (is_group(c))
		return strcmp(group_kind(c), "struct") == 0 ? "list of struct" :
		       strcmp(group_kind(c), "map") == 0 ? "list of map" :
		       strcmp(group_kind(c), "variant") == 0 ? "list of variant" : "list of list";
	*elem = c;                                      /* rule 5 */
	return NULL;
}

static int walk(Walk *w, int depth, const char *path, int def, int rep, const char *top,
		int32_t top_id);

/* A top-level field: its leaves, then what they are (top_kind). */
static int
walk_top(Walk *w)
{
	ParquetFile *pf = w->pf;
	const SElem *e, *elem;
	const char *kind;
	int first = pf->ncols;

	if (w->i >= w->n)
		return CORRUPT(pf, w->err, "schema tree is malformed");
	e = &w->el[w->i];
	kind = top_kind(w->el, w->n, w->i, &elem);
	TRY(walk(w, 1, NULL, 0, 0, NULL, -1));
	if (kind) {
		for (int k = first; k < pf->ncols; k++) {
			pf->cols[k].nested = true;
			pf->cols[k].nested_type = kind;
		}
		return FLOE_OK;
	}
	if (!elem)
		return FLOE_OK;
	if (pf->ncols != first + 1)
		return CORRUPT(pf, w->err, "list \"%s\" has %d leaf columns", e->name, pf->ncols - first);
	ParquetColumn *c = &pf->cols[first];
	ColInfo *ci = &pf->ci[first];
	if (ci->max_rep != 1)
		return CORRUPT(pf, w->err, "list \"%s\" has %d repetition levels", e->name, ci->max_rep);
	c->list = true;
	c->nested = false;
	c->name = e->name;
	c->field_id = e->field_id;
	c->elem_field_id = elem->field_id;
	c->optional = e->rep == PQ_OPTIONAL;
	ci->def_elem = elem->rep == PQ_OPTIONAL ? ci->max_def - 1 : ci->max_def;
	ci->def_list = ci->def_elem - 1;
	ci->etype = c->type;
	if (c->type.id != TYPE_NULL && !array_elem_supported(c->type))
		unsupported(ci, c, "arrays of this element type are not supported");
	else if (c->type.id != TYPE_NULL)
		c->type = array_of(c->type);
	return FLOE_OK;
}

static int
walk(Walk *w, int depth, const char *path, int def, int rep, const char *top, int32_t top_id)
{
	ParquetFile *pf = w->pf;
	if (w->i >= w->n || depth > SCHEMA_MAX_DEPTH)
		return CORRUPT(pf, w->err, "schema tree is malformed");
	const SElem *e = &w->el[w->i++];
	if (e->rep < -1 || e->rep > PQ_REPEATED)
		return CORRUPT(pf, w->err, "bad repetition type %d in schema", e->rep);
	if (e->num_children < 0)
		return CORRUPT(pf, w->err, "negative num_children in schema");
	if (e->rep == PQ_OPTIONAL || e->rep == PQ_REPEATED)
		def++;
	if (e->rep == PQ_REPEATED)
		rep++;
	if ((path ? strlen(path) : 0) + strlen(e->name) > PATH_MAX_LEN)
		return CORRUPT(pf, w->err, "column path longer than %d bytes", PATH_MAX_LEN);
	const char *name = path ? arena_sprintf(pf->arena, "%s.%s", path, e->name) : e->name;
	if (!top) {
		top = e->name;
		top_id = e->field_id;
	}
	if (e->num_children > 0 || e->type < 0) {
		for (int k = 0; k < e->num_children; k++)
			TRY(walk(w, depth + 1, name, def, rep, top, top_id));
		return FLOE_OK;
	}
	if (e->type > PQ_FIXED_LEN_BYTE_ARRAY)
		return CORRUPT(pf, w->err, "bad physical type %d in schema", e->type);
	ParquetColumn *c = &pf->cols[pf->ncols];
	ColInfo *ci = &pf->ci[pf->ncols];
	pf->ncols++;
	c->name = name;
	c->field_id = e->field_id;
	c->nested = depth > 1 || rep > 0;
	c->optional = e->rep == PQ_OPTIONAL;
	c->physical_type = e->type;
	c->type_length = e->type == PQ_FIXED_LEN_BYTE_ARRAY ? e->type_length : 0;
	c->converted_type = e->converted;
	c->logical_type = e->lt;
	c->top_name = top;
	c->top_field_id = top_id;
	c->elem_field_id = -1;
	ci->max_def = def;
	ci->max_rep = rep;
	map_type(e, c, ci);
	ci->etype = c->type;
	return FLOE_OK;
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A footer carrying PARQUET_FOOTER_CRC_KEY (floe writes it) must match it:
 * the CRC-32 of the footer bytes with the key's 8-digit value read as
 * "00000000".  Parquet has no footer checksum of its own, and a flipped bit
 * in a field id, a type or a row count would otherwise read as other rows.
 * A footer without the key (other writers) is not checked. */
static int
check_footer_crc(ParquetFile *pf, const Footer *ft, const uint8_t *fp, uint32_t flen,
		 floe_error *err)
{
	static const uint8_t zeros[8] = "00000000";
	char want[9];
	uint32_t crc;
	size_t off;

	if (!ft->crc_val)
		return FLOE_OK;
	if (ft->crc_len != 8)
		return CORRUPT(pf, err, "footer checksum value is not 8 hex digits");
	off = (size_t)(ft->crc_val - fp);
	crc = (uint32_t)crc32(0L, fp, (uInt)off);
	crc = (uint32_t)crc32(crc, zeros, 8);
	crc = (uint32_t)crc32(crc, fp + off + 8, (uInt)(flen - off - 8));
	snprintf(want, sizeof want, "%08x", crc);
	if (memcmp(want, ft->crc_val, 8) != 0)
		return CORRUPT(pf, err, "footer checksum mismatch (CRC-32 %s, footer says %.8s)", want,
			       (const char *)ft->crc_val);
	return FLOE_OK;
}

int
parquet_open(ParquetFile **out, const uint8_t *data, size_t len, const char *name, Arena *arena,
	     floe_error *err)
{
	ParquetFile *pf = ARENA_NEW(arena, ParquetFile);
	Footer ft;
	ThriftIn t;

	*out = NULL;
	pf->data = data;
	pf->len = len;
	pf->name = arena_strdup(arena, name ? name : "?");
	pf->arena = arena;
	if (len < 12 || (memcmp(data, "PAR1", 4) != 0 && memcmp(data, "PARE", 4) != 0))
		return CORRUPT(pf, err, "not a Parquet file (no PAR1 magic)");
	if (memcmp(data + len - 4, "PARE", 4) == 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet file \"%s\" is encrypted: encrypted files are not supported",
				   pf->name);
	if (memcmp(data + len - 4, "PAR1", 4) != 0)
		return CORRUPT(pf, err, "not a Parquet file (no PAR1 magic at the end)");
	uint32_t flen = le32(data + len - 8);
	if (flen == 0 || flen > len - 12)
		return CORRUPT(pf, err, "footer length %u out of bounds", flen);
	const uint8_t *fp = data + len - 8 - flen;
	thrift_init(&t, fp, flen);
	parse_footer(&t, &ft, arena);
	if (t.bad)
		return CORRUPT(pf, err, "malformed footer (FileMetaData)");
	TRY(check_footer_crc(pf, &ft, fp, flen, err));
	if (ft.nschema < 1)
		return CORRUPT(pf, err, "empty schema");
	if (ft.num_rows < 0)
		return CORRUPT(pf, err, "missing or negative num_rows");

	pf->cols = ARENA_ARRAY(arena, ParquetColumn, ft.nschema);
	pf->ci = ARENA_ARRAY(arena, ColInfo, ft.nschema);
	Walk w = { pf, ft.schema, ft.nschema, 1, err };
	for (int k = 0; k < ft.schema[0].num_children; k++)
		TRY(walk_top(&w));
	if (ft.schema[0].num_children < 0 || w.i != ft.nschema)
		return CORRUPT(pf, err, "schema tree does not match its element count");

	int64_t total = 0;
	for (uint32_t i = 0; i < ft.nrg; i++) {
		RowGroup *rg = &ft.rgs[i];
		if (rg->num_rows < 0)
			return CORRUPT(pf, err, "row group %u has no valid num_rows", i);
		if (ft.rg_ncols[i] != (uint32_t)pf->ncols)
			return CORRUPT(pf, err, "row group %u has %u column chunks, schema has %d leaves",
				       i, ft.rg_ncols[i], pf->ncols);
		if (__builtin_add_overflow(total, rg->num_rows, &total))
			return CORRUPT(pf, err, "row counts overflow");
		for (int c = 0; c < pf->ncols; c++) {
			ChunkMeta *cm = &rg->chunks[c];
			if (!cm->has_meta)
				continue;       /* encrypted or external: reported on read */
			if (cm->type != pf->cols[c].physical_type)
				return CORRUPT(pf, err, "column \"%s\": chunk type %d differs from schema type %d",
					       pf->cols[c].name, cm->type, pf->cols[c].physical_type);
		}
	}
	/* Some writers leave FileMetaData.num_rows 0 (repeated_no_annotation):
	 * the row groups describe the data, so they win. */
	pf->num_rows = ft.nrg > 0 ? total : ft.num_rows;
	pf->nrg = (int)ft.nrg;
	pf->rgs = ft.rgs;
	pf->nkv = (int)ft.nkv;
	pf->keys = ft.keys;
	pf->vals = ft.vals;
	*out = pf;
	return FLOE_OK;
}

int
parquet_num_columns(const ParquetFile *pf)
{
	return pf->ncols;
}

const ParquetColumn *
parquet_column(const ParquetFile *pf, int i)
{
	return i >= 0 && i < pf->ncols ? &pf->cols[i] : NULL;
}

int64_t
parquet_num_rows(const ParquetFile *pf)
{
	return pf->num_rows;
}

int
parquet_num_row_groups(const ParquetFile *pf)
{
	return pf->nrg;
}

int64_t
parquet_row_group_num_rows(const ParquetFile *pf, int rg)
{
	return rg >= 0 && rg < pf->nrg ? pf->rgs[rg].num_rows : 0;
}

const char *
parquet_kv_metadata(const ParquetFile *pf, const char *key)
{
	for (int i = 0; i < pf->nkv; i++)
		if (strcmp(pf->keys[i], key) == 0)
			return pf->vals[i];
	return NULL;
}

/* ---------- statistics ---------- */

/* Decode one PLAIN-encoded statistics value into a Value of the column type. */
static bool
stat_value(const ParquetColumn *c, const ColInfo *ci, const uint8_t *p, uint32_t n, Value *v)
{
	uint8_t phys[16], dst[16];
	size_t pw = ci->pw;

	memset(v, 0, sizeof *v);
	v->type = c->type;
	if (c->physical_type == PQ_BYTE_ARRAY || c->physical_type == PQ_FIXED_LEN_BYTE_ARRAY) {
		if (c->physical_type == PQ_FIXED_LEN_BYTE_ARRAY && n != (uint32_t)c->type_length)
			return false;
		strview s = strview_make((const char *)p, n);
		memcpy(phys, &s, sizeof s);
	} else if (c->physical_type == PQ_BOOLEAN) {
		if (n < 1)
			return false;
		phys[0] = p[0] & 1;
	} else {
		if (n != pw)
			return false;
		memcpy(phys, p, pw);
	}
	const void *src = phys;
	if (ci->conv != CV_NONE) {
		if (pq_convert(ci->conv, phys, dst, 1) != 0)
			return false;
		src = dst;
	}
	switch (c->type.id) {
	case TYPE_BOOL: v->u.b = *(const uint8_t *)src != 0; break;
	case TYPE_INT16: { int16_t x; memcpy(&x, src, 2); v->u.i = x; break; }
	case TYPE_INT32: case TYPE_DATE: { int32_t x; memcpy(&x, src, 4); v->u.i = x; break; }
	case TYPE_INT64: case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		memcpy(&v->u.i, src, 8); break;
	case TYPE_FLOAT32: { float x; memcpy(&x, src, 4); v->u.f = x; break; }
	case TYPE_FLOAT64: memcpy(&v->u.f, src, 8); break;
	case TYPE_DECIMAL: memcpy(&v->u.d, src, 16); break;
	case TYPE_TEXT: case TYPE_BYTEA: memcpy(&v->u.s, src, 16); break;
	case TYPE_UUID: memcpy(v->u.uuid.b, src, 16); break;
	default: return false;
	}
	return true;
}

/* Legacy min/max are written in signed order: trust them only where that
 * is the type's order. */
static bool
legacy_ok(const ParquetColumn *c, const ColInfo *ci)
{
	switch (c->physical_type) {
	case PQ_BOOLEAN: case PQ_FLOAT: case PQ_DOUBLE:
		return true;
	case PQ_INT32: case PQ_INT64:
		return !ci->is_unsigned;
	default:
		return false;
	}
}

int
parquet_column_stats(const ParquetFile *pf, int rg, int col, ParquetStats *out, floe_error *err)
{
	memset(out, 0, sizeof *out);
	if (rg < 0 || rg >= pf->nrg || col < 0 || col >= pf->ncols)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "Parquet row group/column out of range");
	const ChunkMeta *cm = &pf->rgs[rg].chunks[col];
	const ParquetColumn *c = &pf->cols[col];
	const ColInfo *ci = &pf->ci[col];
	out->min = value_null(c->type);
	out->max = value_null(c->type);
	if (!cm->has_meta)
		return FLOE_OK;
	out->has_null_count = cm->has_null_count;
	out->null_count = cm->null_count;
	if (c->list) {
		out->has_null_count = false;    /* counts elements, not rows */
		return FLOE_OK;
	}
	if (c->type.id == TYPE_NULL || c->physical_type == PQ_INT96 || c->nested)
		return FLOE_OK;
	const uint8_t *mn = cm->min, *mx = cm->max;
	uint32_t nmn = cm->min_len, nmx = cm->max_len;
	if ((!mn || !mx) && legacy_ok(c, ci)) {
		mn = cm->lmin;
		mx = cm->lmax;
		nmn = cm->lmin_len;
		nmx = cm->lmax_len;
	}
	if (!mn || !mx)
		return FLOE_OK;
	if (!stat_value(c, ci, mn, nmn, &out->min) || !stat_value(c, ci, mx, nmx, &out->max)) {
		out->min = value_null(c->type);
		out->max = value_null(c->type);
		return FLOE_OK;
	}
	if (c->type.id == TYPE_FLOAT32 || c->type.id == TYPE_FLOAT64) {
		if (isnan(out->min.u.f) || isnan(out->max.u.f)) {
			out->min = value_null(c->type);
			out->max = value_null(c->type);
			return FLOE_OK;
		}
		/* Zeros may be written with either sign (parquet.thrift ColumnOrder). */
		if (out->min.u.f == 0)
			out->min.u.f = -0.0;
		if (out->max.u.f == 0)
			out->max.u.f = 0.0;
	}
	out->has_min_max = true;
	return FLOE_OK;
}

/* ---------- column reader ---------- */

typedef struct PageHdr {
	int type;
	int32_t usize, csize;
	bool has_v1, has_v2, has_dict;
	int32_t nvals;
	int enc, def_enc, rep_enc;
	int32_t def_len, rep_len;
	bool is_compressed;
	bool has_crc;
	uint32_t crc;           /* CRC-32 of the csize bytes after the header */
} PageHdr;

struct ParquetColumnReader {
	ParquetFile *pf;
	Arena *arena;
	const ParquetColumn *c;
	const ColInfo *ci;
	const ChunkMeta *cm;
	size_t w;                       /* floe width of one value */
	const uint8_t *pos, *end;       /* chunk cursor */
	int64_t rows_left;
	bool strings;                   /* values are views into page bytes */
	bool fresh;                     /* page buffers must not be reused */
	bool no_verify;                 /* skip page CRC checks */
	/* dictionary, in the floe layout */
	void *dict;
	uint32_t dict_n;
	bool has_dict;
	/* current data page */
	PageHdr ph;
	const uint8_t *body;
	uint32_t page_left;
	bool loaded;
	bool has_def;
	RleDec def;
	bool def_bp;                    /* deprecated BIT_PACKED levels (MSB first) */
	const uint8_t *bp, *bp_end;
	uint64_t bp_bit;
	uint64_t dba_bytes;             /* DELTA_BYTE_ARRAY bytes materialised in this page */
	int enc;
	const uint8_t *vp, *vend;       /* values; PLAIN cursor */
	uint32_t bit;                   /* PLAIN BOOLEAN bit offset from vp */
	RleDec idx;                     /* dictionary indexes / RLE booleans */
	DbpDec dbp, dbp2;
	const uint8_t *dp;              /* delta byte array data cursor */
	const char *prev;
	uint32_t prev_len;
	uint64_t bss_n, bss_i;
	/* scratch, sized to the largest max seen */
	uint32_t cap;
	uint32_t *lv, *ix;
	uint8_t *phys;
	int64_t *lens, *lens2;
	uint8_t *pagebuf;
	size_t pagebuf_cap;
	Vector skipvec;
	bool skipvec_init;
	/* list columns (list_read): repetition levels, the level entries
	 * left in the chunk, one chunk of decoded entries (levels and the
	 * dense non-NULL values) and the row being assembled */
	bool list;
	SqlType vt;                     /* the values' type (the element's) */
	RleDec rep;
	bool rep_bp;
	const uint8_t *rbp, *rbp_end;
	uint64_t rbp_bit;
	int64_t values_left;
	uint32_t *lrep, *ldef;
	uint8_t *lvals;
	uint32_t lb_n, lb_i, vb_i;
	bool row_open, row_null, row_any_null;
	uint8_t *pv, *pnull;            /* the row's elements (floe layout), NULL flags */
	uint32_t pn, pcap;
	size_t row_bytes;               /* the row's encoded size so far */
};

#define RCORRUPT(r, err, ...) \
	(FLOE_CORRUPT((err), __VA_ARGS__), \
	 floe_error_prefix((err), "corrupt Parquet file \"%s\", column \"%s\": ", \
			   (r)->pf->name, (r)->c->name))

static void
parse_page_header(ThriftIn *t, PageHdr *h)
{
	ThriftField f, g;
	memset(h, 0, sizeof *h);
	h->type = -1;
	h->usize = h->csize = -1;
	h->nvals = -1;
	h->enc = h->def_enc = h->rep_enc = -1;
	h->is_compressed = true;
	thrift_struct_begin(t, &f);
	while (thrift_field_next(t, &f)) {
		if (f.id == 1 && f.type == TC_I32)
			h->type = thrift_i32(t);
		else if (f.id == 2 && f.type == TC_I32)
			h->usize = thrift_i32(t);
		else if (f.id == 3 && f.type == TC_I32)
			h->csize = thrift_i32(t);
		else if (f.id == 4 && f.type == TC_I32) {
			h->has_crc = true;
			h->crc = (uint32_t)thrift_i32(t);
		}
		else if ((f.id == 5 || f.id == 7 || f.id == 8) && f.type == TC_STRUCT) {
			int which = f.id;
			if (which == 5)
				h->has_v1 = true;
			else if (which == 7)
				h->has_dict = true;
			else
				h->has_v2 = true;
			thrift_struct_begin(t, &g);
			while (thrift_field_next(t, &g)) {
				if (g.id == 1 && g.type == TC_I32)
					h->nvals = thrift_i32(t);
				else if (which == 5 && g.id == 2 && g.type == TC_I32)
					h->enc = thrift_i32(t);
				else if (which == 5 && g.id == 3 && g.type == TC_I32)
					h->def_enc = thrift_i32(t);
				else if (which == 5 && g.id == 4 && g.type == TC_I32)
					h->rep_enc = thrift_i32(t);
				else if (which == 7 && g.id == 2 && g.type == TC_I32)
					h->enc = thrift_i32(t);
				else if (which == 8 && g.id == 4 && g.type == TC_I32)
					h->enc = thrift_i32(t);
				else if (which == 8 && g.id == 5 && g.type == TC_I32)
					h->def_len = thrift_i32(t);
				else if (which == 8 && g.id == 6 && g.type == TC_I32)
					h->rep_len = thrift_i32(t);
				else if (which == 8 && g.id == 7 && (g.type == TC_TRUE || g.type == TC_FALSE))
					h->is_compressed = thrift_bool(t, &g);
				else
					thrift_skip(t, g.type);
			}
		} else
			thrift_skip(t, f.type);
	}
}

/* Decompressed bytes of a page section (or the file bytes when stored
 * uncompressed). */
static int
page_bytes(ParquetColumnReader *r, const uint8_t *src, size_t n, size_t ulen,
	   const uint8_t **out, floe_error *err)
{
	int codec = r->cm->codec;
	if (codec == PQ_CODEC_UNCOMPRESSED) {
		if (n != ulen)
			return RCORRUPT(r, err, "uncompressed page size %zu differs from stored size %zu",
					ulen, n);
		*out = src;
		return FLOE_OK;
	}
	if (ulen == 0) {
		*out = src;
		return FLOE_OK;
	}
	if (ulen > PAGE_MAX)
		return RCORRUPT(r, err, "page of %zu bytes is too large", ulen);
	/* Reject sizes no codec could produce from n bytes before allocating. */
	switch (codec) {
	case PQ_CODEC_SNAPPY: {
		size_t sl;
		/* A snappy element of k bytes yields at most ~32k bytes. */
		if (snappy_uncompressed_length((const char *)src, n, &sl) != SNAPPY_OK || sl != ulen ||
		    ulen / 32 > n + 64)
			return RCORRUPT(r, err, "SNAPPY page size mismatch");
		break;
	}
	case PQ_CODEC_GZIP:
		if (ulen / 1032 > n + 64)
			return RCORRUPT(r, err, "GZIP page size implausible");
		break;
	case PQ_CODEC_LZ4:
	case PQ_CODEC_LZ4_RAW:
		if (ulen / 255 > n + 64)
			return RCORRUPT(r, err, "LZ4 page size implausible");
		break;
	case PQ_CODEC_ZSTD: {
		unsigned long long fs = ZSTD_getFrameContentSize(src, n);
		if (fs == ZSTD_CONTENTSIZE_ERROR || (fs != ZSTD_CONTENTSIZE_UNKNOWN && fs != ulen))
			return RCORRUPT(r, err, "ZSTD page size mismatch");
		break;
	}
	default:
		break;
	}
	uint8_t *buf;
	if (r->fresh) {
		buf = arena_alloc(r->arena, ulen);
	} else {
		if (ulen > r->pagebuf_cap) {
			size_t cap = r->pagebuf_cap * 2 > ulen ? r->pagebuf_cap * 2 : ulen;
			r->pagebuf = arena_alloc(r->arena, cap);
			r->pagebuf_cap = cap;
		}
		buf = r->pagebuf;
	}
	if (parquet_decompress(codec, src, n, buf, ulen, err) != FLOE_OK)
		return floe_error_prefix(err, "Parquet file \"%s\", column \"%s\": ", r->pf->name,
					 r->c->name);
	*out = buf;
	return FLOE_OK;
}

/* PLAIN: n values from [*pp, end) into the physical layout. */
static int
plain_decode(ParquetColumnReader *r, const uint8_t **pp, const uint8_t *end, uint32_t *bit,
	     void *phys, uint32_t n, floe_error *err)
{
	const uint8_t *p = *pp;
	size_t avail = (size_t)(end - p);

	switch (r->c->physical_type) {
	case PQ_BOOLEAN: {
		uint64_t b = *bit;
		if ((b + n + 7) / 8 > avail)
			return RCORRUPT(r, err, "PLAIN BOOLEAN values end early");
		uint8_t *d = phys;
		for (uint32_t i = 0; i < n; i++, b++)
			d[i] = (p[b >> 3] >> (b & 7)) & 1;
		*bit = (uint32_t)b;
		return FLOE_OK;
	}
	case PQ_BYTE_ARRAY: {
		strview *d = phys;
		uint32_t i = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* Fast path: the 4-byte LE length and the bytes after it are
		 * already a strview's first 16 bytes (len, inline data or prefix);
		 * mask the bytes past an inline string, or store the pointer. */
		for (; i < n && end - p >= 16; i++) {
			uint64_t lo, hi;
			uint32_t len = le32(p);
			if (len > (size_t)(end - p - 4))
				return RCORRUPT(r, err, "PLAIN BYTE_ARRAY length %u out of bounds", len);
			memcpy(&lo, p, 8);
			memcpy(&hi, p + 8, 8);
			if (len <= 4) {
				lo &= len == 4 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * (4 + len))) - 1;
				hi = 0;
			} else if (len < 12) {
				hi &= ((uint64_t)1 << (8 * (len - 4))) - 1;
			} else if (len > 12) {
				const uint8_t *q = p + 4;
				memcpy(&hi, &q, 8);
			}
			memcpy(&d[i], &lo, 8);
			memcpy((char *)&d[i] + 8, &hi, 8);
			p += 4 + (size_t)len;
		}
#endif
		for (; i < n; i++) {
			if (end - p < 4)
				return RCORRUPT(r, err, "PLAIN BYTE_ARRAY values end early");
			uint32_t len = le32(p);
			p += 4;
			if (len > (size_t)(end - p))
				return RCORRUPT(r, err, "PLAIN BYTE_ARRAY length %u out of bounds", len);
			d[i] = strview_make((const char *)p, len);
			p += len;
		}
		*pp = p;
		return FLOE_OK;
	}
	case PQ_FIXED_LEN_BYTE_ARRAY: {
		size_t L = (size_t)r->c->type_length;
		strview *d = phys;
		if (L * n > avail)
			return RCORRUPT(r, err, "PLAIN FIXED_LEN_BYTE_ARRAY values end early");
		for (uint32_t i = 0; i < n; i++, p += L)
			d[i] = strview_make((const char *)p, (uint32_t)L);
		*pp = p;
		return FLOE_OK;
	}
	default: {
		size_t bytes = r->ci->pw * n;
		if (bytes > avail)
			return RCORRUPT(r, err, "PLAIN values end early");
		memcpy(phys, p, bytes);
		*pp = p + bytes;
		return FLOE_OK;
	}
	}
}

/* TEXT values must be UTF-8 (no NUL): invalid bytes from a file are
 * corruption, not text to hand to a client. */
static int
check_utf8(ParquetColumnReader *r, const strview *v, uint32_t n, floe_error *err)
{
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = (const uint8_t *)strview_data(&v[i]);
		uint32_t len = v[i].len, k = 0;
		/* 8 bytes at a time while they are ASCII and not NUL */
		for (; k + 8 <= len; k += 8) {
			uint64_t w;
			memcpy(&w, p + k, 8);
			if ((w | ((w - 0x0101010101010101ULL) & ~w)) & 0x8080808080808080ULL)
				break;
		}
		while (k < len && p[k] && p[k] < 0x80)
			k++;
		if (k < len && text_validate_utf8((const char *)p + k, len - k, err) != FLOE_OK) {
			char why[128];
			snprintf(why, sizeof why, "%.100s", err->message);
			return RCORRUPT(r, err, "text value: %s", why);
		}
	}
	return FLOE_OK;
}

/* The page's stored bytes against its header's crc, if it has one. */
static int
check_crc(ParquetColumnReader *r, const PageHdr *h, const uint8_t *body, floe_error *err)
{
	if (!h->has_crc || r->no_verify)
		return FLOE_OK;
	uint32_t got = (uint32_t)crc32(0L, body, (uInt)h->csize);
	if (got != h->crc)
		return RCORRUPT(r, err, "page checksum mismatch (CRC-32 %08x, header says %08x)",
				got, h->crc);
	return FLOE_OK;
}

static int
load_dict(ParquetColumnReader *r, const PageHdr *h, const uint8_t *body, floe_error *err)
{
	const uint8_t *bytes;
	int64_t nd = h->nvals;
	int pt = r->c->physical_type;

	if (h->enc != PQ_ENC_PLAIN && h->enc != PQ_ENC_PLAIN_DICTIONARY)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet file \"%s\", column \"%s\": dictionary encoding %d is not supported",
				   r->pf->name, r->c->name, h->enc);
	if (nd < 0 || h->usize < 0)
		return RCORRUPT(r, err, "bad dictionary page header");
	TRY(check_crc(r, h, body, err));
	r->fresh = true;        /* the dictionary's strings keep pointing here */
	int rc = page_bytes(r, body, (size_t)h->csize, (size_t)h->usize, &bytes, err);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	size_t ulen = (size_t)h->usize;
	/* Each entry takes space in the page: bounds the allocation. */
	size_t min_entry = pt == PQ_BYTE_ARRAY ? 4 : pt == PQ_FIXED_LEN_BYTE_ARRAY ?
			   (size_t)r->c->type_length : pt == PQ_BOOLEAN ? 0 : r->ci->pw;
	if ((min_entry && (uint64_t)nd * min_entry > ulen) ||
	    (!min_entry && (uint64_t)nd > (uint64_t)ulen * 8 + 1))
		return RCORRUPT(r, err, "dictionary of %lld entries does not fit its page",
				(long long)nd);
	void *phys = arena_alloc(r->arena, (size_t)(nd ? nd : 1) * r->ci->pw);
	const uint8_t *p = bytes;
	uint32_t bit = 0;
	TRY(plain_decode(r, &p, bytes + ulen, &bit, phys, (uint32_t)nd, err));
	if (r->ci->conv != CV_NONE) {
		void *d = arena_alloc(r->arena, (size_t)(nd ? nd : 1) * r->w);
		if (pq_convert(r->ci->conv, phys, d, (uint32_t)nd) != 0)
			return RCORRUPT(r, err, "dictionary value cannot be converted to %s",
					"the column type");
		phys = d;
	}
	if (r->vt.id == TYPE_TEXT && r->ci->conv == CV_NONE)
		TRY(check_utf8(r, phys, (uint32_t)nd, err));
	r->dict = phys;
	r->dict_n = (uint32_t)nd;
	r->has_dict = true;
	return FLOE_OK;
}

static int
next_page(ParquetColumnReader *r, floe_error *err)
{
	for (;;) {
		if (r->pos >= r->end)
			return RCORRUPT(r, err, "column chunk ends %lld values early",
					(long long)(r->list ? r->values_left : r->rows_left));
		ThriftIn t;
		PageHdr h;
		thrift_init(&t, r->pos, (size_t)(r->end - r->pos));
		parse_page_header(&t, &h);
		if (t.bad)
			return RCORRUPT(r, err, "malformed page header");
		if (h.csize < 0 || h.usize < 0 || (size_t)h.csize > (size_t)(r->end - t.p))
			return RCORRUPT(r, err, "page size out of bounds");
		const uint8_t *body = t.p;
		r->pos = body + h.csize;
		if (h.type == PQ_PAGE_DICTIONARY) {
			if (!h.has_dict)
				return RCORRUPT(r, err, "dictionary page without its header");
			TRY(load_dict(r, &h, body, err));
			continue;
		}
		if (h.type == PQ_PAGE_DATA && !h.has_v1)
			return RCORRUPT(r, err, "data page without its header");
		if (h.type == PQ_PAGE_DATA_V2 && !h.has_v2)
			return RCORRUPT(r, err, "data page v2 without its header");
		if (h.type != PQ_PAGE_DATA && h.type != PQ_PAGE_DATA_V2)
			continue;       /* index pages and unknown pages */
		if (r->list && (h.nvals < 0 || h.nvals > r->values_left))
			return RCORRUPT(r, err, "page has %d values but only %lld remain in the chunk",
					h.nvals, (long long)r->values_left);
		if (!r->list && (h.nvals < 0 || h.nvals > r->rows_left))
			return RCORRUPT(r, err, "page has %d values but only %lld rows remain",
					h.nvals, (long long)r->rows_left);
		r->ph = h;
		r->body = body;
		r->page_left = (uint32_t)h.nvals;
		r->loaded = false;
		return FLOE_OK;
	}
}

static int
bit_width(uint32_t v)
{
	return v ? 32 - __builtin_clz(v) : 0;
}

static int
load_page(ParquetColumnReader *r, floe_error *err)
{
	const PageHdr *h = &r->ph;
	const uint8_t *vals;
	size_t vn;
	int max_def = r->ci->max_def;
	int pt = r->c->physical_type;

	/* String values point into the page unless it holds dictionary
	 * indexes: only then must its buffer outlive the page. */
	r->fresh = r->strings && h->enc != PQ_ENC_PLAIN_DICTIONARY && h->enc != PQ_ENC_RLE_DICTIONARY;
	TRY(check_crc(r, h, r->body, err));
	if (h->type == PQ_PAGE_DATA) {
		const uint8_t *bytes;
		TRY(page_bytes(r, r->body, (size_t)h->csize, (size_t)h->usize, &bytes, err));
		const uint8_t *p = bytes, *pend = bytes + h->usize;
		if (r->ci->max_rep > 0) {
			/* repetition levels come first (v1: RLE with a length
			 * prefix, or deprecated BIT_PACKED) */
			int rbw = bit_width((uint32_t)r->ci->max_rep);
			r->rep_bp = h->rep_enc == PQ_ENC_BIT_PACKED;
			if (r->rep_bp) {
				uint64_t nb = ((uint64_t)h->nvals * (uint64_t)rbw + 7) / 8;
				if (nb > (uint64_t)(pend - p))
					return RCORRUPT(r, err, "repetition levels out of bounds");
				r->rbp = p;
				r->rbp_end = p + nb;
				r->rbp_bit = 0;
				p += nb;
			} else {
				if (h->rep_enc != PQ_ENC_RLE)
					return RCORRUPT(r, err, "bad repetition level encoding %d", h->rep_enc);
				if (pend - p < 4)
					return RCORRUPT(r, err, "repetition levels out of bounds");
				uint32_t len = le32(p);
				if (len > (size_t)(pend - p - 4))
					return RCORRUPT(r, err, "repetition levels out of bounds");
				rle_init(&r->rep, p + 4, len, rbw);
				p += 4 + len;
			}
		}
		if (max_def > 0) {
			r->def_bp = h->def_enc == PQ_ENC_BIT_PACKED;
			if (r->def_bp) {
				/* Deprecated: nvals levels, bw bits each, MSB first,
				 * no length prefix (Encodings.md, BIT_PACKED = 4). */
				uint64_t nb = ((uint64_t)h->nvals * (uint64_t)bit_width((uint32_t)max_def) + 7) / 8;
				if (nb > (uint64_t)(pend - p))
					return RCORRUPT(r, err, "definition levels out of bounds");
				r->bp = p;
				r->bp_end = p + nb;
				r->bp_bit = 0;
				p += nb;
			}
		}
		if (max_def > 0 && !r->def_bp) {
			if (h->def_enc != PQ_ENC_RLE)
				return RCORRUPT(r, err, "bad definition level encoding %d", h->def_enc);
			if (pend - p < 4)
				return RCORRUPT(r, err, "definition levels out of bounds");
			uint32_t len = le32(p);
			if (len > (size_t)(pend - p - 4))
				return RCORRUPT(r, err, "definition levels out of bounds");
			rle_init(&r->def, p + 4, len, bit_width((uint32_t)max_def));
			p += 4 + len;
		}
		vals = p;
		vn = (size_t)(pend - p);
		r->enc = h->enc;
	} else {
		r->def_bp = false;
		if (h->def_len < 0 || h->rep_len < 0 ||
		    (int64_t)h->def_len + h->rep_len > h->csize ||
		    (int64_t)h->def_len + h->rep_len > h->usize)
			return RCORRUPT(r, err, "level sizes out of bounds");
		if (max_def > 0)
			rle_init(&r->def, r->body + h->rep_len, (size_t)h->def_len,
				 bit_width((uint32_t)max_def));
		r->rep_bp = false;
		if (r->ci->max_rep > 0)
			rle_init(&r->rep, r->body, (size_t)h->rep_len, bit_width((uint32_t)r->ci->max_rep));
		const uint8_t *src = r->body + h->rep_len + h->def_len;
		size_t cn = (size_t)h->csize - (size_t)h->rep_len - (size_t)h->def_len;
		size_t un = (size_t)h->usize - (size_t)h->rep_len - (size_t)h->def_len;
		if (h->is_compressed && r->cm->codec != PQ_CODEC_UNCOMPRESSED) {
			TRY(page_bytes(r, src, cn, un, &vals, err));
			vn = un;
		} else {
			vals = src;
			vn = cn;
		}
		r->enc = h->enc;
	}
	r->has_def = max_def > 0;
	r->dba_bytes = 0;
	r->vp = vals;
	r->vend = vals + vn;
	r->bit = 0;
	switch (r->enc) {
	case PQ_ENC_PLAIN:
		break;
	case PQ_ENC_PLAIN_DICTIONARY:
	case PQ_ENC_RLE_DICTIONARY:
		if (!r->has_dict)
			return RCORRUPT(r, err, "dictionary-encoded page without a dictionary");
		if (vn == 0) {
			rle_init(&r->idx, vals, 0, 0);
			break;
		}
		if (vals[0] > 32)
			return RCORRUPT(r, err, "dictionary index bit width %d", vals[0]);
		rle_init(&r->idx, vals + 1, vn - 1, vals[0]);
		break;
	case PQ_ENC_RLE: {
		if (pt != PQ_BOOLEAN)
			goto unsupported;
		if (vn < 4 || le32(vals) > vn - 4)
			return RCORRUPT(r, err, "RLE boolean values out of bounds");
		rle_init(&r->idx, vals + 4, le32(vals), 1);
		break;
	}
	case PQ_ENC_DELTA_BINARY_PACKED:
		if (pt != PQ_INT32 && pt != PQ_INT64)
			goto unsupported;
		if (dbp_init(&r->dbp, vals, vn) != 0)
			return RCORRUPT(r, err, "bad DELTA_BINARY_PACKED header");
		break;
	case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: {
		if (pt != PQ_BYTE_ARRAY)
			goto unsupported;
		const uint8_t *e = dbp_section_end(vals, vn);
		if (!e || dbp_init(&r->dbp, vals, vn) != 0)
			return RCORRUPT(r, err, "bad DELTA_LENGTH_BYTE_ARRAY lengths");
		r->dp = e;
		break;
	}
	case PQ_ENC_DELTA_BYTE_ARRAY: {
		if (pt != PQ_BYTE_ARRAY && pt != PQ_FIXED_LEN_BYTE_ARRAY)
			goto unsupported;
		const uint8_t *e1 = dbp_section_end(vals, vn);
		const uint8_t *e2 = e1 ? dbp_section_end(e1, (size_t)(r->vend - e1)) : NULL;
		if (!e2 || dbp_init(&r->dbp, vals, vn) != 0 ||
		    dbp_init(&r->dbp2, e1, (size_t)(r->vend - e1)) != 0)
			return RCORRUPT(r, err, "bad DELTA_BYTE_ARRAY lengths");
		r->dp = e2;
		r->prev = NULL;
		r->prev_len = 0;
		break;
	}
	case PQ_ENC_BYTE_STREAM_SPLIT: {
		size_t w = pt == PQ_FIXED_LEN_BYTE_ARRAY ? (size_t)r->c->type_length : r->ci->pw;
		if (pt == PQ_BOOLEAN || pt == PQ_BYTE_ARRAY || pt == PQ_INT96 || w == 0)
			goto unsupported;
		if (vn % w != 0)
			return RCORRUPT(r, err, "BYTE_STREAM_SPLIT data is not a multiple of %zu bytes", w);
		r->bss_n = vn / w;
		r->bss_i = 0;
		break;
	}
	default:
	unsupported:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet file \"%s\", column \"%s\": encoding %d is not supported for this type",
				   r->pf->name, r->c->name, r->enc);
	}
	r->loaded = true;
	return FLOE_OK;
}

/* n non-null values of a non-dictionary page, in the physical layout. */
static int
decode_values(ParquetColumnReader *r, void *phys, uint32_t n, floe_error *err)
{
	int pt = r->c->physical_type;

	switch (r->enc) {
	case PQ_ENC_PLAIN:
		return plain_decode(r, &r->vp, r->vend, &r->bit, phys, n, err);
	case PQ_ENC_RLE: {
		if (rle_get(&r->idx, r->ix, n) != 0)
			return RCORRUPT(r, err, "RLE boolean values end early");
		uint8_t *d = phys;
		for (uint32_t i = 0; i < n; i++)
			d[i] = (uint8_t)(r->ix[i] & 1);
		return FLOE_OK;
	}
	case PQ_ENC_DELTA_BINARY_PACKED: {
		int rc = pt == PQ_INT32 ? dbp_get32(&r->dbp, phys, n) : dbp_get64(&r->dbp, phys, n);
		if (rc != 0)
			return RCORRUPT(r, err, "DELTA_BINARY_PACKED values end early or are malformed");
		return FLOE_OK;
	}
	case PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: {
		strview *d = phys;
		if (dbp_get64(&r->dbp, r->lens, n) != 0)
			return RCORRUPT(r, err, "DELTA_LENGTH_BYTE_ARRAY lengths end early");
		const uint8_t *p = r->dp;
		for (uint32_t i = 0; i < n; i++) {
			int64_t len = r->lens[i];
			if (len < 0 || len > r->vend - p)
				return RCORRUPT(r, err, "DELTA_LENGTH_BYTE_ARRAY length out of bounds");
			d[i] = strview_make((const char *)p, (uint32_t)len);
			p += len;
		}
		r->dp = p;
		return FLOE_OK;
	}
	case PQ_ENC_DELTA_BYTE_ARRAY: {
		strview *d = phys;
		if (dbp_get64(&r->dbp, r->lens, n) != 0 || dbp_get64(&r->dbp2, r->lens2, n) != 0)
			return RCORRUPT(r, err, "DELTA_BYTE_ARRAY lengths end early");
		const uint8_t *p = r->dp;
		for (uint32_t i = 0; i < n; i++) {
			int64_t pre = r->lens[i], suf = r->lens2[i];
			if (pre < 0 || pre > r->prev_len || suf < 0 || suf > r->vend - p ||
			    pre + suf > UINT32_MAX)
				return RCORRUPT(r, err, "DELTA_BYTE_ARRAY lengths out of bounds");
			const char *v = (const char *)p;
			uint32_t len = (uint32_t)(pre + suf);
			if (pt == PQ_FIXED_LEN_BYTE_ARRAY && len != (uint32_t)r->c->type_length)
				return RCORRUPT(r, err, "DELTA_BYTE_ARRAY value has the wrong length");
			if (pre > 0 && suf == 0 && pre == r->prev_len) {
				v = r->prev;    /* the same value again: share it */
			} else if (pre > 0) {
				r->dba_bytes += len;
				if (r->dba_bytes > PAGE_MAX)
					return RCORRUPT(r, err, "DELTA_BYTE_ARRAY page expands beyond %zu bytes",
							PAGE_MAX);
				char *b = arena_alloc(r->arena, len);
				memcpy(b, r->prev, (size_t)pre);
				memcpy(b + pre, p, (size_t)suf);
				v = b;
			}
			d[i] = strview_make(v, len);
			r->prev = v;
			r->prev_len = len;
			p += suf;
		}
		r->dp = p;
		return FLOE_OK;
	}
	case PQ_ENC_BYTE_STREAM_SPLIT: {
		size_t w = pt == PQ_FIXED_LEN_BYTE_ARRAY ? (size_t)r->c->type_length : r->ci->pw;
		if (n > r->bss_n - r->bss_i)
			return RCORRUPT(r, err, "BYTE_STREAM_SPLIT values end early");
		uint8_t *out = pt == PQ_FIXED_LEN_BYTE_ARRAY ? arena_alloc(r->arena, n * w) : phys;
		const uint8_t *s = r->vp + r->bss_i;
		for (size_t k = 0; k < w; k++, s += r->bss_n) {
			uint8_t *o = out + k;
			for (uint32_t i = 0; i < n; i++, o += w)
				*o = s[i];
		}
		r->bss_i += n;
		if (pt == PQ_FIXED_LEN_BYTE_ARRAY) {
			strview *d = phys;
			for (uint32_t i = 0; i < n; i++)
				d[i] = strview_make((const char *)out + i * w, (uint32_t)w);
		}
		return FLOE_OK;
	}
	}
	return RCORRUPT(r, err, "unexpected encoding %d", r->enc);
}

/* n dense non-null values into dst (floe layout). */
static int
decode_into(ParquetColumnReader *r, void *dst, uint32_t n, floe_error *err)
{
	if (r->enc == PQ_ENC_PLAIN_DICTIONARY || r->enc == PQ_ENC_RLE_DICTIONARY) {
		if (rle_get(&r->idx, r->ix, n) != 0)
			return RCORRUPT(r, err, "dictionary indexes end early");
		/* range check without a dependency chain: four running ORs of
		 * "index >= dict_n" (the max is only found for the message) */
		uint32_t b0 = 0, b1 = 0, b2 = 0, b3 = 0, dn = r->dict_n, i = 0;
		const uint32_t *ix = r->ix;
		for (; i + 4 <= n; i += 4) {
			b0 |= ix[i] >= dn;
			b1 |= ix[i + 1] >= dn;
			b2 |= ix[i + 2] >= dn;
			b3 |= ix[i + 3] >= dn;
		}
		for (; i < n; i++)
			b0 |= ix[i] >= dn;
		if (b0 | b1 | b2 | b3) {
			uint32_t mx = 0;
			for (i = 0; i < n; i++)
				mx = ix[i] > mx ? ix[i] : mx;
			return RCORRUPT(r, err, "dictionary index %u out of range (dictionary has %u entries)",
					mx, r->dict_n);
		}
		pq_gather(dst, r->dict, r->ix, n, r->w);
		return FLOE_OK;
	}
	if (r->enc == PQ_ENC_PLAIN && r->c->physical_type == PQ_FIXED_LEN_BYTE_ARRAY &&
	    (r->ci->conv == CV_BYTES_DEC || r->ci->conv == CV_BYTES_UUID)) {
		/* Fast path: straight from the page bytes, no strviews. */
		size_t L = (size_t)r->c->type_length;
		if (L * n > (size_t)(r->vend - r->vp))
			return RCORRUPT(r, err, "PLAIN FIXED_LEN_BYTE_ARRAY values end early");
		if (r->ci->conv == CV_BYTES_UUID)
			memcpy(dst, r->vp, L * n);      /* L == 16: Uuid is 16 bytes */
		else if (pq_flba_decimal(r->vp, (uint32_t)L, dst, n) != 0)
			return RCORRUPT(r, err, "decimal value wider than 128 bits");
		r->vp += L * n;
		return FLOE_OK;
	}
	void *phys = r->ci->conv == CV_NONE ? dst : r->phys;
	TRY(decode_values(r, phys, n, err));
	if (r->ci->conv != CV_NONE && pq_convert(r->ci->conv, phys, dst, n) != 0)
		return RCORRUPT(r, err, "value cannot be converted to the column type");
	if (r->vt.id == TYPE_TEXT && r->ci->conv == CV_NONE)
		TRY(check_utf8(r, dst, n, err));
	return FLOE_OK;
}

static void
ensure_scratch(ParquetColumnReader *r, uint32_t max)
{
	if (max <= r->cap)
		return;
	uint32_t cap = max;
	r->lv = arena_alloc(r->arena, cap * sizeof(uint32_t));
	r->ix = arena_alloc(r->arena, cap * sizeof(uint32_t));
	r->phys = arena_alloc(r->arena, (size_t)cap * 16);
	r->lens = arena_alloc(r->arena, cap * sizeof(int64_t));
	r->lens2 = arena_alloc(r->arena, cap * sizeof(int64_t));
	r->cap = cap;
}

int
parquet_column_reader_open(ParquetColumnReader **out, ParquetFile *pf, int rg, int col,
			   Arena *arena, floe_error *err)
{
	*out = NULL;
	if (rg < 0 || rg >= pf->nrg || col < 0 || col >= pf->ncols)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
				   "Parquet row group %d / column %d out of range", rg, col);
	const ParquetColumn *c = &pf->cols[col];
	const ColInfo *ci = &pf->ci[col];
	const ChunkMeta *cm = &pf->rgs[rg].chunks[col];
	if (c->nested)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet file \"%s\", column \"%s\" has the nested type %s, which floe cannot read yet",
				   pf->name, c->top_name, c->nested_type ? c->nested_type : "struct");
	if (c->type.id == TYPE_NULL)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet file \"%s\", column \"%s\": %s", pf->name, c->name,
				   ci->unsupported ? ci->unsupported : "unsupported type");
	if (cm->encrypted || !cm->has_meta)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet file \"%s\", column \"%s\": encrypted columns are not supported",
				   pf->name, c->name);
	if (cm->external)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "Parquet file \"%s\", column \"%s\": column data in another file is not supported",
				   pf->name, c->name);
	int64_t rows = pf->rgs[rg].num_rows;
	if (c->list ? cm->num_values < rows : cm->num_values != rows)
		return CORRUPT(pf, err, "column \"%s\" has %lld values in a row group of %lld rows",
			       c->name, (long long)cm->num_values, (long long)rows);
	ParquetColumnReader *r = ARENA_NEW(arena, ParquetColumnReader);
	r->pf = pf;
	r->arena = arena;
	r->c = c;
	r->ci = ci;
	r->cm = cm;
	r->vt = ci->etype;
	r->w = type_width(r->vt.id);
	r->rows_left = rows;
	if (c->list) {
		r->list = true;
		r->values_left = cm->num_values;
		r->lrep = ARENA_ARRAY(arena, uint32_t, LIST_CHUNK);
		r->ldef = ARENA_ARRAY(arena, uint32_t, LIST_CHUNK);
		r->lvals = arena_alloc(arena, LIST_CHUNK * r->w);
	}
	r->strings = (c->physical_type == PQ_BYTE_ARRAY || c->physical_type == PQ_FIXED_LEN_BYTE_ARRAY) &&
		     ci->conv == CV_NONE;
	if (rows == 0) {
		/* Nothing to read: empty chunks may carry no offsets at all. */
		r->pos = r->end = pf->data;
		*out = r;
		return FLOE_OK;
	}
	int64_t start = cm->data_off;
	if (cm->dict_off > 0 && cm->dict_off < start)
		start = cm->dict_off;
	int64_t limit = (int64_t)pf->len - 8;
	if (start < 4 || start >= limit || cm->total_compressed < 0)
		return CORRUPT(pf, err, "column \"%s\": chunk offset %lld out of bounds", c->name,
			       (long long)start);
	int64_t end = cm->total_compressed > limit - start ? limit : start + cm->total_compressed;

	r->pos = pf->data + start;
	r->end = pf->data + end;
	*out = r;
	return FLOE_OK;
}

bool
parquet_chunk_range(const ParquetFile *pf, int rg, int col, uint64_t *off, uint64_t *len)
{
	const ChunkMeta *cm;
	int64_t start, limit, end;

	if (rg < 0 || rg >= pf->nrg || col < 0 || col >= pf->ncols)
		return false;
	cm = &pf->rgs[rg].chunks[col];
	if (!cm->has_meta || pf->rgs[rg].num_rows == 0)
		return false;
	/* the bytes parquet_column_reader_open reads (its bounds checks) */
	start = cm->data_off;
	if (cm->dict_off > 0 && cm->dict_off < start)
		start = cm->dict_off;
	limit = (int64_t)pf->len - 8;
	if (start < 4 || start >= limit || cm->total_compressed < 0)
		return false;
	end = cm->total_compressed > limit - start ? limit : start + cm->total_compressed;
	*off = (uint64_t)start;
	*len = (uint64_t)(end - start);
	return true;
}

void
parquet_column_reader_set_verify(ParquetColumnReader *r, bool verify)
{
	r->no_verify = !verify;
}

static void
set_validity(Vector *out, uint32_t off, const uint32_t *lv, uint32_t k, uint32_t maxdef, int mode)
{
	/* mode: 1 all valid, 0 all null, -1 per level */
	if (mode == 1 && !out->validity)
		return;
	vector_ensure_validity(out);
	uint64_t *v = out->validity;
	if (mode != -1) {
		for (uint32_t i = 0; i < k; i++) {
			if (mode)
				validity_set(v, off + i);
			else
				validity_clear(v, off + i);
		}
		return;
	}
	for (uint32_t i = 0; i < k; i++) {
		uint32_t b = off + i;
		uint64_t m = (uint64_t)1 << (b & 63), ok = lv[i] == maxdef;
		v[b >> 6] = (v[b >> 6] & ~m) | (m & (0 - ok));
	}
}

/* ---------- list columns ----------
 *
 * A list column's chunk is a sequence of level entries (repetition level,
 * definition level, and a value when the definition level is the
 * maximum), Dremel-style with one repeated level: repetition 0 starts a
 * row, 1 adds an element to the row's list; a row's first entry with
 * definition < def_list is a NULL list, < def_elem an empty list, else an
 * element, NULL when < max_def.  list_fill decodes up to LIST_CHUNK
 * entries of the current page; list_read assembles rows from them, a row
 * staying open across chunks and pages until the entry starting the next
 * row (or the chunk's end) is seen.  String elements point into page
 * buffers that stay in the arena (load_page keeps a string column's pages
 * fresh) until the row is encoded.
 */

/* k levels (bw bits, MSB first) of a deprecated BIT_PACKED run. */
static int
bp_levels(ParquetColumnReader *r, const uint8_t *bp, const uint8_t *end, uint64_t *bit, int bw,
	  uint32_t *out, uint32_t k, floe_error *err)
{
	if (*bit + (uint64_t)k * (uint64_t)bw > (uint64_t)(end - bp) * 8)
		return RCORRUPT(r, err, "levels end early");
	for (uint32_t i = 0; i < k; i++) {
		uint32_t lv = 0;
		for (int b = 0; b < bw; b++, (*bit)++)
			lv = lv << 1 | ((bp[*bit >> 3] >> (7 - (*bit & 7))) & 1);
		out[i] = lv;
	}
	return FLOE_OK;
}

static int
list_levels(ParquetColumnReader *r, bool is_rep, uint32_t *out, uint32_t k, floe_error *err)
{
	uint32_t maxlv = (uint32_t)(is_rep ? r->ci->max_rep : r->ci->max_def), bad = 0;

	if (maxlv == 0) {
		memset(out, 0, k * sizeof *out);
		return FLOE_OK;
	}
	if (is_rep ? r->rep_bp : r->def_bp) {
		if (is_rep)
			TRY(bp_levels(r, r->rbp, r->rbp_end, &r->rbp_bit, bit_width(maxlv), out, k, err));
		else
			TRY(bp_levels(r, r->bp, r->bp_end, &r->bp_bit, bit_width(maxlv), out, k, err));
	} else if (rle_get(is_rep ? &r->rep : &r->def, out, k) != 0) {
		return RCORRUPT(r, err, "%s levels end early", is_rep ? "repetition" : "definition");
	}
	for (uint32_t i = 0; i < k; i++)
		bad |= out[i] > maxlv;
	if (bad)
		return RCORRUPT(r, err, "%s level above maximum %u", is_rep ? "repetition" : "definition",
				maxlv);
	return FLOE_OK;
}

/* The next chunk of level entries and their values; r->lb_n == 0 at the
 * end of the column chunk. */
static int
list_fill(ParquetColumnReader *r, floe_error *err)
{
	uint32_t maxdef = (uint32_t)r->ci->max_def, k, nn = 0;

	r->lb_n = r->lb_i = r->vb_i = 0;
	while (r->page_left == 0) {
		if (r->values_left == 0)
			return FLOE_OK;
		TRY(next_page(r, err));
	}
	if (!r->loaded)
		TRY(load_page(r, err));
	k = r->page_left < LIST_CHUNK ? r->page_left : LIST_CHUNK;
	TRY(list_levels(r, true, r->lrep, k, err));
	TRY(list_levels(r, false, r->ldef, k, err));
	for (uint32_t i = 0; i < k; i++)
		nn += r->ldef[i] == maxdef;
	if (nn > 0)
		TRY(decode_into(r, r->lvals, nn, err));
	r->page_left -= k;
	r->values_left -= k;
	r->lb_n = k;
	return FLOE_OK;
}

/* Add an element to the open row: NULL, or the next decoded value. */
static int
list_append(ParquetColumnReader *r, bool isnull, floe_error *err)
{
	size_t w = r->w;

	if (r->pn == r->pcap) {
		uint32_t ncap = r->pcap ? r->pcap * 2 : 16;
		uint8_t *pv = arena_alloc(r->arena, (size_t)ncap * w);
		uint8_t *pnull = arena_alloc(r->arena, ncap);
		if (r->pn) {
			memcpy(pv, r->pv, (size_t)r->pn * w);
			memcpy(pnull, r->pnull, r->pn);
		}
		r->pv = pv;
		r->pnull = pnull;
		r->pcap = ncap;
	}
	uint8_t *slot = r->pv + (size_t)r->pn * w;
	size_t bytes = r->vt.id == TYPE_DECIMAL ? 17 : w;
	if (isnull) {
		memset(slot, 0, w);
		r->row_any_null = true;
		if (r->vt.id == TYPE_TEXT || r->vt.id == TYPE_BYTEA)
			bytes = 4;
	} else {
		memcpy(slot, r->lvals + (size_t)r->vb_i * w, w);
		r->vb_i++;
		if (r->vt.id == TYPE_TEXT || r->vt.id == TYPE_BYTEA)
			bytes = 4 + (size_t)((const strview *)slot)->len;
	}
	r->pnull[r->pn] = isnull;
	r->pn++;
	r->row_bytes += bytes + 1;      /* + 1: the NULL bitmap, at most */
	if (r->row_bytes > LIST_MAX_BYTES)
		return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED,
				   "Parquet file \"%s\", column \"%s\": a list of more than %zu bytes",
				   r->pf->name, r->c->name, LIST_MAX_BYTES);
	return FLOE_OK;
}

/* The open row as out's row'th value (array.h's encoding); out == NULL
 * (skipping) drops it. */
static void
list_emit(ParquetColumnReader *r, Vector *out, uint32_t row)
{
	strview *d;
	size_t w = r->w, size, nb;
	uint8_t *buf, *p;
	TypeId et = r->vt.id;

	if (!out)
		return;
	d = (strview *)out->data + row;
	if (r->row_null) {
		memset(d, 0, sizeof *d);
		vector_ensure_validity(out);
		validity_clear(out->validity, row);
		return;
	}
	if (out->validity)
		validity_set(out->validity, row);
	nb = r->row_any_null ? ((size_t)r->pn + 7) / 8 : 0;
	size = 5 + nb;
	for (uint32_t i = 0; i < r->pn; i++) {
		const uint8_t *v = r->pv + (size_t)i * w;
		if (et == TYPE_TEXT || et == TYPE_BYTEA)
			size += 4 + (r->pnull[i] ? 0 : ((const strview *)v)->len);
		else if (et == TYPE_DECIMAL)
			size += 17;
		else
			size += w;
	}
	buf = p = arena_alloc(r->arena, size);
	*p++ = r->row_any_null ? 1 : 0;
	memcpy(p, &r->pn, 4);
	p += 4;
	if (nb) {
		memset(p, 0, nb);
		for (uint32_t i = 0; i < r->pn; i++)
			if (r->pnull[i])
				p[i / 8] |= (uint8_t)(1 << (i & 7));
		p += nb;
	}
	for (uint32_t i = 0; i < r->pn; i++) {
		const uint8_t *v = r->pv + (size_t)i * w;
		if (et == TYPE_TEXT || et == TYPE_BYTEA) {
			const strview *sv = (const strview *)v;
			uint32_t len = r->pnull[i] ? 0 : sv->len;
			memcpy(p, &len, 4);
			p += 4;
			if (len)
				memcpy(p, strview_data(sv), len);
			p += len;
		} else if (et == TYPE_DECIMAL) {
			memcpy(p, v, 16);
			p[16] = r->pnull[i] ? 0 : r->vt.scale;
			p += 17;
		} else {
			memcpy(p, v, w);
			p += w;
		}
	}
	*d = strview_make((const char *)buf, (uint32_t)size);
}

static int
list_read(ParquetColumnReader *r, Vector *out, uint32_t max, uint32_t *nread, floe_error *err)
{
	uint32_t done = 0;
	uint32_t maxdef = (uint32_t)r->ci->max_def;
	uint32_t def_list = (uint32_t)r->ci->def_list, def_elem = (uint32_t)r->ci->def_elem;

	*nread = 0;
	ensure_scratch(r, LIST_CHUNK);
	for (;;) {
		if (r->lb_i == r->lb_n) {
			TRY(list_fill(r, err));
			if (r->lb_n == 0) {
				/* the chunk's end closes the last row */
				if (r->row_open) {
					if (done == max)
						break;
					list_emit(r, out, done++);
					r->row_open = false;
				}
				if (r->rows_left != 0)
					return RCORRUPT(r, err, "column chunk ends %lld rows early",
							(long long)r->rows_left);
				break;
			}
		}
		uint32_t rl = r->lrep[r->lb_i], dl = r->ldef[r->lb_i];
		if (rl == 0) {
			if (r->row_open) {
				if (done == max)
					break;
				list_emit(r, out, done++);
				r->row_open = false;
			}
			if (r->rows_left == 0)
				return RCORRUPT(r, err, "column chunk holds more rows than its row group");
			r->rows_left--;
			r->row_open = true;
			r->row_null = dl < def_list;
			r->row_any_null = false;
			r->pn = 0;
			r->row_bytes = 5;
			if (dl >= def_elem)
				TRY(list_append(r, dl < maxdef, err));
		} else {
			if (!r->row_open || r->row_null || dl < def_elem)
				return RCORRUPT(r, err, "repetition level %u continues no list", rl);
			TRY(list_append(r, dl < maxdef, err));
		}
		r->lb_i++;
	}
	*nread = done;
	return FLOE_OK;
}

int
parquet_column_read(ParquetColumnReader *r, Vector *out, uint32_t max, uint32_t *nread,
		    floe_error *err)
{
	uint32_t done = 0;
	uint32_t maxdef = (uint32_t)r->ci->max_def;

	if (r->list)
		return list_read(r, out, max, nread, err);

	*nread = 0;
	ensure_scratch(r, max);
	while (done < max) {
		if (r->page_left == 0) {
			if (r->rows_left == 0)
				break;
			TRY(next_page(r, err));
			continue;
		}
		if (!r->loaded)
			TRY(load_page(r, err));
		uint32_t k = max - done < r->page_left ? max - done : r->page_left;
		uint8_t *dst = (uint8_t *)out->data + (size_t)done * r->w;
		uint32_t nn = k;
		int mode = 1;
		if (r->has_def && r->def_bp) {
			int bw = bit_width(maxdef);
			if (r->bp_bit + (uint64_t)k * (uint64_t)bw > (uint64_t)(r->bp_end - r->bp) * 8)
				return RCORRUPT(r, err, "definition levels end early");
			nn = 0;
			for (uint32_t i = 0; i < k; i++) {
				uint32_t lv = 0;
				for (int b = 0; b < bw; b++, r->bp_bit++)
					lv = lv << 1 | ((r->bp[r->bp_bit >> 3] >> (7 - (r->bp_bit & 7))) & 1);
				if (lv > maxdef)
					return RCORRUPT(r, err, "definition level above maximum %u", maxdef);
				r->lv[i] = lv;
				nn += lv == maxdef;
			}
			if (nn < k)
				mode = -1;
		} else if (r->has_def) {
			uint32_t v;
			if (rle_take_run(&r->def, k, &v)) {
				if (v > maxdef)
					return RCORRUPT(r, err, "definition level %u above maximum %u", v, maxdef);
				if (v < maxdef) {
					nn = 0;
					mode = 0;
				}
			} else {
				if (rle_get(&r->def, r->lv, k) != 0)
					return RCORRUPT(r, err, "definition levels end early");
				uint32_t bad = 0;
				nn = 0;
				for (uint32_t i = 0; i < k; i++) {
					bad |= r->lv[i] > maxdef;
					nn += r->lv[i] == maxdef;
				}
				if (bad)
					return RCORRUPT(r, err, "definition level above maximum %u", maxdef);
				if (nn < k)
					mode = -1;
			}
		}
		if (nn > 0)
			TRY(decode_into(r, dst, nn, err));
		if (nn == 0)
			memset(dst, 0, (size_t)k * r->w);
		else if (nn < k)
			pq_scatter(dst, r->w, r->lv, k, maxdef);
		set_validity(out, done, r->lv, k, maxdef, mode);
		done += k;
		r->page_left -= k;
		r->rows_left -= k;
	}
	*nread = done;
	return FLOE_OK;
}

int
parquet_column_skip(ParquetColumnReader *r, uint64_t n, floe_error *err)
{
	while (r->list && n > 0) {
		/* rows are found by their levels: read them, encoding none */
		uint32_t k = n < VECTOR_SIZE ? (uint32_t)n : VECTOR_SIZE, got;
		TRY(list_read(r, NULL, k, &got, err));
		if (got == 0)
			return FLOE_OK;
		n -= got;
	}
	while (n > 0) {
		if (r->page_left == 0) {
			if (r->rows_left == 0)
				return FLOE_OK;
			TRY(next_page(r, err));
			continue;
		}
		if (n >= r->page_left) {
			/* Drop the whole page without decoding it. */
			n -= r->page_left;
			r->rows_left -= r->page_left;
			r->page_left = 0;
			continue;
		}
		if (!r->skipvec_init) {
			vector_init(&r->skipvec, r->c->type, r->arena, VECTOR_SIZE);
			r->skipvec_init = true;
		}
		uint32_t k = n < VECTOR_SIZE ? (uint32_t)n : VECTOR_SIZE, got;
		TRY(parquet_column_read(r, &r->skipvec, k, &got, err));
		if (got == 0)
			return FLOE_OK;
		n -= got;
	}
	return FLOE_OK;
}
