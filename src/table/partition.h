/*
 * partition.h — Iceberg partition transforms: parse the spec's transform
 * strings, give their result types, evaluate them over a Vector (or one
 * Value), and the 32-bit hash of bucket[N].
 *
 * Spec: apache/iceberg format/spec.md — "Partition Transforms" (identity,
 * bucket[N], truncate[W], year, month, day, hour, void), "Bucket Transform
 * Details", "Truncate Transform Details", "Appendix B: 32-bit Hash
 * Requirements" (murmur3_x86_32, seed 0, over the spec's byte forms).
 *
 * Result types (they agree with metadata_partition_type): bucket, year,
 * month, hour -> int (TYPE_INT32); day -> date; identity, truncate, void
 * -> the source type.  Time transforms count from 1970-01-01 00:00 UTC
 * with floor division (a date or timestamp before 1970 gives a negative
 * value).  A NULL source value gives NULL for every transform; void gives
 * NULL for every value.
 *
 * INTERFACE ROUTINES
 *   partition_transform_parse(str, &tr, err)        "bucket[16]" -> PartitionTransform
 *   partition_transform_string(tr, arena)           PartitionTransform -> "bucket[16]"
 *   partition_transform_type(tr, src, &result, err)  result type; 0A000 if src cannot be
 *   partition_transform_vector(tr, in, count, out, err)   vectorized evaluation
 *   partition_transform_value(tr, in, out, arena, err)    one Value
 *   partition_murmur3_32(data, len)                 murmur3_x86_32, seed 0
 *   partition_hash_value(v, &hash, err)             Appendix B hash of one Value
 *   partition_parse_term(text, len, arena, &tr, &column, err)
 *                                                   Spark/Trino syntax: "bucket(16, id)",
 *                                                   "id", "days(ts)", "truncate(s, 4)"
 *   partition_default_name(tr, column, arena)       Iceberg Java's field name
 */
#ifndef FLOE_PARTITION_H
#define FLOE_PARTITION_H

#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "types/types.h"
#include "types/value.h"
#include "types/vector.h"

typedef enum PartitionTransformKind {
	PT_IDENTITY = 0,
	PT_BUCKET,          /* param = N (number of buckets, > 0) */
	PT_TRUNCATE,        /* param = W (width, > 0) */
	PT_YEAR,
	PT_MONTH,
	PT_DAY,
	PT_HOUR,
	PT_VOID
} PartitionTransformKind;

typedef struct PartitionTransform {
	PartitionTransformKind kind;
	int32_t param;
} PartitionTransform;

/* The spec's transform string (case-insensitive; spaces allowed inside
 * brackets).  0A000 for a transform floe does not know. */
int partition_transform_parse(const char *s, PartitionTransform *tr, floe_error *err);
char *partition_transform_string(const PartitionTransform *tr, Arena *a);

/* The result type of tr over a source column of type src; 0A000 when the
 * spec does not define tr for src (bucket of a float, hour of a date...). */
int partition_transform_type(const PartitionTransform *tr, SqlType src, SqlType *result,
			     floe_error *err);

/* Rows 0..count of `in` (any vector kind) transformed into `out`, which
 * the caller made flat with vector_init(out, result type, arena, >= count).
 * Long strings of a truncate point into `in`'s bytes (they live as long as
 * it does).  Errors: 0A000 (type), none for data. */
int partition_transform_vector(const PartitionTransform *tr, const Vector *in, uint32_t count,
			       Vector *out, floe_error *err);

/* One value (the slow path: tests, partition pruning); strings are copied
 * into a. */
int partition_transform_value(const PartitionTransform *tr, const Value *in, Value *out,
			      Arena *a, floe_error *err);

uint32_t partition_murmur3_32(const void *data, size_t len);
/* Appendix B hash of a non-NULL value (int, long, decimal, date, time,
 * timestamp(tz), string, uuid, binary); 0A000 for other types. */
int partition_hash_value(const Value *v, int32_t *hash, floe_error *err);

/*
 * One partition term as Spark and Trino write it: a column, or
 * identity(c) / bucket(N, c) / bucket(c, N) / truncate(W, c) /
 * truncate(c, W) / year(c) / years(c) / month(s)(c) / day(s)(c) / date(c)
 * / hour(s)(c) / void(c).  Column names may be double-quoted.  *column is
 * the (unquoted, lower-cased unless quoted) name.  42601 on bad syntax.
 */
int partition_parse_term(const char *text, size_t len, Arena *a, PartitionTransform *tr,
			 char **column, floe_error *err);

/* Field name Iceberg Java gives a new partition field: the column for
 * identity, else column_bucket, column_trunc, column_year, column_month,
 * column_day, column_hour, column_null (void). */
char *partition_default_name(const PartitionTransform *tr, const char *column, Arena *a);

#endif
