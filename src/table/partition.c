/*
 * partition.c — Iceberg partition transforms (see partition.h).
 *
 * Spec: apache/iceberg format/spec.md, "Partition Transforms", "Bucket
 * Transform Details" (bucket_N(x) = (murmur3_x86_32_hash(x) & Integer.MAX_VALUE) % N),
 * "Truncate Transform Details" (int/long/decimal: v - (((v % W) + W) % W)
 * on the unscaled value; string: first W code points; binary: first W
 * bytes) and "Appendix B: 32-bit Hash Requirements" (int and long both
 * hash the 8 little-endian bytes of the long; decimal the minimal
 * big-endian two's-complement bytes of the unscaled value; date the days
 * as a long; time/timestamp(tz) the microseconds; string its UTF-8 bytes;
 * uuid its 16 big-endian bytes; binary its bytes).
 *
 * INTERFACE ROUTINES
 *   partition_transform_parse, partition_transform_string,
 *   partition_transform_type, partition_transform_vector,
 *   partition_transform_value, partition_murmur3_32, partition_hash_value,
 *   partition_parse_term, partition_default_name
 *
 * Invariants:
 *   1. partition_transform_vector and partition_transform_value agree row
 *      for row (the value path calls the vector path on a one-row vector).
 *   2. Results never depend on the source's vector kind (flat/const/dict):
 *      every read goes through vector_view.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "table/partition.h"
#include "types/datetime.h"

#define USECS_PER_HOUR INT64_C(3600000000)
#define USECS_PER_DAY INT64_C(86400000000)

/* ---------------------------------------------------------------- names */

static const struct {
	const char *name;
	PartitionTransformKind kind;
} simple[] = {
	{"identity", PT_IDENTITY}, {"year", PT_YEAR}, {"month", PT_MONTH},
	{"day", PT_DAY}, {"hour", PT_HOUR}, {"void", PT_VOID},
};

int
partition_transform_parse(const char *s, PartitionTransform *tr, floe_error *err)
{
	size_t i, n;
	const char *p;
	char *end;
	long x;

	memset(tr, 0, sizeof *tr);
	if (!s)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "missing partition transform");
	for (i = 0; i < sizeof simple / sizeof simple[0]; i++)
		if (strcasecmp(s, simple[i].name) == 0) {
			tr->kind = simple[i].kind;
			return FLOE_OK;
		}
	if (strncasecmp(s, "bucket", 6) == 0) {
		tr->kind = PT_BUCKET;
		n = 6;
	} else if (strncasecmp(s, "truncate", 8) == 0) {
		tr->kind = PT_TRUNCATE;
		n = 8;
	} else {
		goto bad;
	}
	p = s + n;
	while (*p == ' ')
		p++;
	if (*p++ != '[')
		goto bad;
	x = strtol(p, &end, 10);
	if (end == p || x <= 0 || x > INT32_MAX)
		goto bad;
	while (*end == ' ')
		end++;
	if (end[0] != ']' || end[1])
		goto bad;
	tr->param = (int32_t)x;
	return FLOE_OK;
bad:
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "partition transform \"%s\" is not supported", s);
}

char *
partition_transform_string(const PartitionTransform *tr, Arena *a)
{
	size_t i;

	if (tr->kind == PT_BUCKET)
		return arena_sprintf(a, "bucket[%d]", (int)tr->param);
	if (tr->kind == PT_TRUNCATE)
		return arena_sprintf(a, "truncate[%d]", (int)tr->param);
	for (i = 0; i < sizeof simple / sizeof simple[0]; i++)
		if (simple[i].kind == tr->kind)
			return arena_strdup(a, simple[i].name);
	return arena_strdup(a, "void");
}

/* ---------------------------------------------------------------- types */

int
partition_transform_type(const PartitionTransform *tr, SqlType src, SqlType *result,
			 floe_error *err)
{
	TypeId t = src.id;
	bool ok;

	switch (tr->kind) {
	case PT_IDENTITY:
	case PT_VOID:
		ok = t != TYPE_INTERVAL && t != TYPE_NULL;
		*result = src;
		break;
	case PT_BUCKET:
		ok = t == TYPE_INT16 || t == TYPE_INT32 || t == TYPE_INT64 || t == TYPE_DECIMAL ||
		     t == TYPE_DATE || t == TYPE_TIME || t == TYPE_TIMESTAMP ||
		     t == TYPE_TIMESTAMPTZ || t == TYPE_TEXT || t == TYPE_UUID || t == TYPE_BYTEA;
		*result = type_make(TYPE_INT32);
		break;
	case PT_TRUNCATE:
		ok = t == TYPE_INT16 || t == TYPE_INT32 || t == TYPE_INT64 || t == TYPE_DECIMAL ||
		     t == TYPE_TEXT || t == TYPE_BYTEA;
		*result = src;
		break;
	case PT_YEAR:
	case PT_MONTH:
		ok = t == TYPE_DATE || t == TYPE_TIMESTAMP || t == TYPE_TIMESTAMPTZ;
		*result = type_make(TYPE_INT32);
		break;
	case PT_DAY:
		ok = t == TYPE_DATE || t == TYPE_TIMESTAMP || t == TYPE_TIMESTAMPTZ;
		*result = type_make(TYPE_DATE);
		break;
	case PT_HOUR:
		ok = t == TYPE_TIMESTAMP || t == TYPE_TIMESTAMPTZ;
		*result = type_make(TYPE_INT32);
		break;
	default:
		ok = false;
		break;
	}
	if (!ok) {
		char tn[64];
		char tb[32];
		PartitionTransform c = *tr;
		if (c.kind == PT_BUCKET)
			snprintf(tb, sizeof tb, "bucket[%d]", (int)c.param);
		else if (c.kind == PT_TRUNCATE)
			snprintf(tb, sizeof tb, "truncate[%d]", (int)c.param);
		else
			snprintf(tb, sizeof tb, "%s", c.kind == PT_YEAR ? "year" : c.kind == PT_MONTH ?
				 "month" : c.kind == PT_DAY ? "day" : c.kind == PT_HOUR ? "hour" :
				 c.kind == PT_IDENTITY ? "identity" : "void");
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "partition transform %s cannot be applied to type %s", tb,
				   type_name(src, tn, sizeof tn));
	}
	return FLOE_OK;
}

/* ---------------------------------------------------------------- hashing */

static inline uint32_t
rotl32(uint32_t x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* MurmurHash3 x86_32 (Austin Appleby's public-domain algorithm), seed 0. */
uint32_t
partition_murmur3_32(const void *data, size_t len)
{
	const uint8_t *p = data;
	const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
	uint32_t h = 0, k;
	size_t i, nblocks = len / 4;

	for (i = 0; i < nblocks; i++) {
		k = (uint32_t)p[4 * i] | ((uint32_t)p[4 * i + 1] << 8) |
		    ((uint32_t)p[4 * i + 2] << 16) | ((uint32_t)p[4 * i + 3] << 24);
		k *= c1;
		k = rotl32(k, 15);
		k *= c2;
		h ^= k;
		h = rotl32(h, 13);
		h = h * 5 + 0xe6546b64u;
	}
	k = 0;
	p += nblocks * 4;
	switch (len & 3) {
	case 3:
		k ^= (uint32_t)p[2] << 16;
		/* fallthrough */
	case 2:
		k ^= (uint32_t)p[1] << 8;
		/* fallthrough */
	case 1:
		k ^= p[0];
		k *= c1;
		k = rotl32(k, 15);
		k *= c2;
		h ^= k;
		break;
	default:
		break;
	}
	h ^= (uint32_t)len;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static uint32_t
hash_long(int64_t v)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)((uint64_t)v >> (8 * i));
	return partition_murmur3_32(b, 8);
}

/* Minimal big-endian two's complement (Java's BigInteger.toByteArray). */
static uint32_t
hash_decimal(int128 v)
{
	uint8_t be[16];
	int i, start = 0;

	for (i = 0; i < 16; i++)
		be[15 - i] = (uint8_t)((uint128)v >> (8 * i));
	while (start < 15 && ((be[start] == 0x00 && !(be[start + 1] & 0x80)) ||
			      (be[start] == 0xff && (be[start + 1] & 0x80))))
		start++;
	return partition_murmur3_32(be + start, (size_t)(16 - start));
}

/* The hash of view index k of a vector of type t (valid row). */
static uint32_t
hash_at(TypeId t, const void *data, uint32_t k)
{
	switch (t) {
	case TYPE_INT16:
		return hash_long(((const int16_t *)data)[k]);
	case TYPE_INT32:
	case TYPE_DATE:
		return hash_long(((const int32_t *)data)[k]);
	case TYPE_INT64:
	case TYPE_TIME:
	case TYPE_TIMESTAMP:
	case TYPE_TIMESTAMPTZ:
		return hash_long(((const int64_t *)data)[k]);
	case TYPE_DECIMAL:
		return hash_decimal(((const int128 *)data)[k]);
	case TYPE_TEXT:
	case TYPE_BYTEA: {
		const strview *s = &((const strview *)data)[k];
		return partition_murmur3_32(strview_data(s), s->len);
	}
	case TYPE_UUID:
		return partition_murmur3_32(((const Uuid *)data)[k].b, 16);
	default:
		return 0;
	}
}

int
partition_hash_value(const Value *v, int32_t *hash, floe_error *err)
{
	PartitionTransform tr = {PT_BUCKET, 1};
	SqlType rt;
	Vector in;
	Arena *a;

	TRY(partition_transform_type(&tr, v->type, &rt, err));
	a = arena_new(1024);
	vector_init(&in, v->type, a, 1);
	vector_set_value(&in, 0, v);
	*hash = (int32_t)hash_at(v->type.id, in.data, 0);
	arena_free(a);
	return FLOE_OK;
}

/* ---------------------------------------------------------------- evaluation */

static inline int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static inline int64_t
floor_mod(int64_t a, int64_t b)
{
	int64_t m = a % b;
	return m < 0 ? m + b : m;
}

/* Micros (timestamp) or days (date) -> days since the epoch. */
static inline int64_t
to_days(TypeId t, const void *data, uint32_t k)
{
	if (t == TYPE_DATE)
		return ((const int32_t *)data)[k];
	return floor_div(((const int64_t *)data)[k], USECS_PER_DAY);
}

/* Byte length of the first w UTF-8 code points of s[0..n). */
static uint32_t
utf8_prefix(const uint8_t *s, uint32_t n, int32_t w)
{
	uint32_t pos = 0;
	int32_t cps = 0;

	while (pos < n && cps < w) {
		uint8_t c = s[pos];
		uint32_t l = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 :
			(c >> 3) == 30 ? 4 : 1;
		pos += l;
		cps++;
		/* continuation bytes of a malformed sequence count with it */
	}
	return pos > n ? n : pos;
}

int
partition_transform_vector(const PartitionTransform *tr, const Vector *in, uint32_t count,
			   Vector *out, floe_error *err)
{
	SqlType rt;
	VectorView v;
	TypeId t = in->type.id;
	uint32_t i;

	TRY(partition_transform_type(tr, in->type, &rt, err));
	vector_view(in, &v);
	if (tr->kind == PT_VOID) {
		vector_ensure_validity(out);
		for (i = 0; i < count; i++)
			vector_set_null(out, i);
		return FLOE_OK;
	}
	if (tr->kind == PT_IDENTITY) {
		vector_copy_rows(out, 0, in, NULL, count);
		return FLOE_OK;
	}
	for (i = 0; i < count; i++) {
		uint32_t k = v.sel ? v.sel[i] : i;
		if (!validity_get(v.validity, k)) {
			vector_set_null(out, i);
			continue;
		}
		switch (tr->kind) {
		case PT_BUCKET:
			((int32_t *)out->data)[i] = (int32_t)((hash_at(t, v.data, k) & 0x7fffffffu) %
							      (uint32_t)tr->param);
			break;
		case PT_TRUNCATE:
			switch (t) {
			case TYPE_INT16: {
				int64_t x = ((const int16_t *)v.data)[k];
				((int16_t *)out->data)[i] = (int16_t)(x - floor_mod(x, tr->param));
				break;
			}
			case TYPE_INT32: {
				int64_t x = ((const int32_t *)v.data)[k];
				int64_t r = x - floor_mod(x, tr->param);
				((int32_t *)out->data)[i] = (int32_t)r;   /* wraps as Java's int */
				break;
			}
			case TYPE_INT64: {
				int64_t x = ((const int64_t *)v.data)[k];
				int64_t m = floor_mod(x, tr->param);
				((int64_t *)out->data)[i] = (int64_t)((uint64_t)x - (uint64_t)m);
				break;
			}
			case TYPE_DECIMAL: {
				int128 x = ((const int128 *)v.data)[k], m = x % tr->param;
				if (m < 0)
					m += tr->param;
				((int128 *)out->data)[i] = x - m;
				break;
			}
			case TYPE_TEXT: {
				const strview *s = &((const strview *)v.data)[k];
				uint32_t n = utf8_prefix((const uint8_t *)strview_data(s), s->len, tr->param);
				((strview *)out->data)[i] = strview_make(strview_data(s), n);
				break;
			}
			case TYPE_BYTEA: {
				const strview *s = &((const strview *)v.data)[k];
				uint32_t n = s->len < (uint32_t)tr->param ? s->len : (uint32_t)tr->param;
				((strview *)out->data)[i] = strview_make(strview_data(s), n);
				break;
			}
			default:
				break;
			}
			break;
		case PT_YEAR:
		case PT_MONTH: {
			int64_t y;
			int m, d;
			datetime_civil_from_days(to_days(t, v.data, k), &y, &m, &d);
			((int32_t *)out->data)[i] = tr->kind == PT_YEAR ? (int32_t)(y - 1970) :
				(int32_t)((y - 1970) * 12 + (m - 1));
			break;
		}
		case PT_DAY:
			((int32_t *)out->data)[i] = (int32_t)to_days(t, v.data, k);
			break;
		case PT_HOUR:
			((int32_t *)out->data)[i] =
				(int32_t)floor_div(((const int64_t *)v.data)[k], USECS_PER_HOUR);
			break;
		default:
			break;
		}
		if (out->validity)
			vector_set_valid(out, i);
	}
	return FLOE_OK;
}

int
partition_transform_value(const PartitionTransform *tr, const Value *in, Value *out, Arena *a,
			  floe_error *err)
{
	SqlType rt;
	Vector vi, vo;
	Arena *tmp;
	int rc;

	TRY(partition_transform_type(tr, in->type, &rt, err));
	if (in->is_null || tr->kind == PT_VOID) {
		*out = value_null(rt);
		return FLOE_OK;
	}
	tmp = arena_new(1024);
	vector_init(&vi, in->type, tmp, 1);
	vector_set_value(&vi, 0, in);
	vector_init(&vo, rt, tmp, 1);
	rc = partition_transform_vector(tr, &vi, 1, &vo, err);
	if (rc == FLOE_OK) {
		vector_get_value(&vo, 0, out);
		if ((rt.id == TYPE_TEXT || rt.id == TYPE_BYTEA) && !out->is_null) {
			char *p = arena_memdup(a, out->u.s.len ? strview_data(&out->u.s) : "",
					       out->u.s.len ? out->u.s.len : 1);
			out->u.s = strview_make(p, out->u.s.len);
		}
	}
	arena_free(tmp);
	return rc;
}

/* ---------------------------------------------------------------- Spark / Trino terms */

typedef struct Lex {
	const char *p, *end;
	Arena *a;
} Lex;

static void
lex_space(Lex *l)
{
	while (l->p < l->end && isspace((unsigned char)*l->p))
		l->p++;
}

/* An identifier (lower-cased) or a "quoted" one; NULL if none. */
static char *
lex_ident(Lex *l)
{
	const char *s;
	char *o;
	size_t i, n;

	lex_space(l);
	if (l->p < l->end && *l->p == '"') {
		char *buf = arena_alloc(l->a, (size_t)(l->end - l->p) + 1);
		n = 0;
		for (l->p++; l->p < l->end; l->p++) {
			if (*l->p == '"') {
				if (l->p + 1 < l->end && l->p[1] == '"') {
					buf[n++] = '"';
					l->p++;
					continue;
				}
				l->p++;
				buf[n] = 0;
				return n ? buf : NULL;
			}
			buf[n++] = *l->p;
		}
		return NULL;
	}
	s = l->p;
	while (l->p < l->end && (isalnum((unsigned char)*l->p) || *l->p == '_' ||
				 (unsigned char)*l->p >= 0x80))
		l->p++;
	n = (size_t)(l->p - s);
	if (!n || isdigit((unsigned char)*s))
		return NULL;
	o = arena_strndup(l->a, s, n);
	for (i = 0; i < n; i++)
		o[i] = (char)tolower((unsigned char)o[i]);
	return o;
}

static bool
lex_int(Lex *l, int32_t *out)
{
	long x = 0;
	const char *s;

	lex_space(l);
	s = l->p;
	while (l->p < l->end && isdigit((unsigned char)*l->p)) {
		x = x * 10 + (*l->p - '0');
		if (x > INT32_MAX)
			return false;
		l->p++;
	}
	*out = (int32_t)x;
	return l->p > s;
}

static bool
lex_char(Lex *l, char c)
{
	lex_space(l);
	if (l->p < l->end && *l->p == c) {
		l->p++;
		return true;
	}
	return false;
}

int
partition_parse_term(const char *text, size_t len, Arena *a, PartitionTransform *tr,
		     char **column, floe_error *err)
{
	static const struct {
		const char *name;
		PartitionTransformKind kind;
	} fns[] = {
		{"identity", PT_IDENTITY}, {"bucket", PT_BUCKET}, {"truncate", PT_TRUNCATE},
		{"year", PT_YEAR}, {"years", PT_YEAR}, {"month", PT_MONTH}, {"months", PT_MONTH},
		{"day", PT_DAY}, {"days", PT_DAY}, {"date", PT_DAY}, {"hour", PT_HOUR},
		{"hours", PT_HOUR}, {"date_hour", PT_HOUR}, {"void", PT_VOID},
	};
	Lex l = {text, text + len, a};
	bool quoted;
	char *w;
	size_t i;

	memset(tr, 0, sizeof *tr);
	lex_space(&l);
	quoted = l.p < l.end && *l.p == '"';
	if (!(w = lex_ident(&l)))
		goto bad;
	if (quoted || !lex_char(&l, '(')) {
		tr->kind = PT_IDENTITY;
		*column = w;
		goto end;
	}
	for (i = 0; i < sizeof fns / sizeof fns[0]; i++)
		if (!strcmp(w, fns[i].name))
			break;
	if (i == sizeof fns / sizeof fns[0])
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "partition transform \"%s\" is not supported", w);
	tr->kind = fns[i].kind;
	if (tr->kind == PT_BUCKET || tr->kind == PT_TRUNCATE) {
		/* Spark: bucket(N, col); Trino: bucket(col, N) */
		if (lex_int(&l, &tr->param)) {
			if (!lex_char(&l, ',') || !(*column = lex_ident(&l)))
				goto bad;
		} else {
			if (!(*column = lex_ident(&l)) || !lex_char(&l, ',') ||
			    !lex_int(&l, &tr->param))
				goto bad;
		}
		if (tr->param <= 0)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "the %s of partition transform %s must be positive",
					   tr->kind == PT_BUCKET ? "number of buckets" : "width", w);
	} else if (!(*column = lex_ident(&l))) {
		goto bad;
	}
	if (!lex_char(&l, ')'))
		goto bad;
end:
	lex_space(&l);
	if (l.p != l.end)
		goto bad;
	return FLOE_OK;
bad:
	return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid partition field \"%.*s\"",
			   (int)(len > 200 ? 200 : len), text);
}

char *
partition_default_name(const PartitionTransform *tr, const char *column, Arena *a)
{
	static const char *const suffix[] = {
		[PT_IDENTITY] = "", [PT_BUCKET] = "_bucket", [PT_TRUNCATE] = "_trunc",
		[PT_YEAR] = "_year", [PT_MONTH] = "_month", [PT_DAY] = "_day",
		[PT_HOUR] = "_hour", [PT_VOID] = "_null",
	};
	return arena_sprintf(a, "%s%s", column, suffix[tr->kind]);
}
