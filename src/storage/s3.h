/*
 * s3.h — the S3 client behind the FileIO (storage/ only; everything above
 * storage/ reaches it through fileio.h).
 *
 * Objects are named by URI, "s3://bucket/key" or "s3a://bucket/key".
 * libcurl does the HTTP and signs with AWS SigV4 (CURLOPT_AWS_SIGV4); this
 * file builds URLs, retries, parses the few XML answers S3 gives, keeps a
 * pool of curl handles (keep-alive) and a bounded cache of immutable
 * objects.  See fileio_s3.c for the protocol details.
 *
 * Configuration (S3Config), in order: the Iceberg S3FileIO property names
 * given with s3_config_set (s3.endpoint, s3.access-key-id,
 * s3.secret-access-key, s3.session-token, s3.path-style-access,
 * client.region), else the environment (AWS_ENDPOINT_URL,
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION /
 * AWS_DEFAULT_REGION, FLOE_S3_PATH_STYLE=1).  No endpoint: AWS,
 * https://s3.<region>.amazonaws.com, virtual-host addressing.
 *
 * INTERFACE ROUTINES
 *   s3_is_uri(path)                     "s3://" or "s3a://"
 *   s3_config_set(cfg, key, value, err) one Iceberg property (0A000 for a
 *                                       property name floe does not know)
 *   s3_client_get(cfg)                  the process's client for that
 *                                       configuration (shared, never freed)
 *   s3_get(c, uri, off, len, arena, &data, &n, err)
 *                                       bytes [off, off+len) (len < 0: to
 *                                       the end); whole reads of large
 *                                       objects go as parallel ranges
 *   s3_get_ranges(c, uri, ranges, n, arena, err)
 *                                       several ranges of one object: near
 *                                       ones coalesced, run in parallel
 *   s3_put(c, uri, data, len, replace, err)
 *                                       one PUT, or a multipart upload past
 *                                       FLOE_S3_MULTIPART_BYTES; !replace:
 *                                       If-None-Match: * (58P02 if it exists)
 *   s3_head(c, uri, &size, err)         58P01 when missing
 *   s3_delete(c, uri, err)
 *   s3_list(c, uri_prefix, arena, &keys, &sizes, &mtimes_ms, &n, err)
 *                                       ListObjectsV2, every page; each
 *                                       object's LastModified in ms since
 *                                       the epoch (-1 when the listing has
 *                                       none); mtimes_ms may be NULL
 *   s3_stats(&st)                       process-wide request counters
 */
#ifndef FLOE_S3_H
#define FLOE_S3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"

typedef struct S3Config {
	char endpoint[512];
	char region[64];
	char access_key[256];
	char secret_key[256];
	char token[2048];
	int path_style;             /* -1: not set */
} S3Config;

typedef struct S3Client S3Client;

typedef struct S3Range {
	uint64_t off, len;          /* in */
	const uint8_t *data;        /* out: len bytes */
} S3Range;

typedef struct S3Stats {
	uint64_t requests;          /* every HTTP request sent, retries included */
	uint64_t gets, puts, heads, deletes, lists, retries;
	uint64_t bytes_in, bytes_out;
	uint64_t cache_hits;
} S3Stats;

bool s3_is_uri(const char *path);
void s3_config_init(S3Config *cfg);
int s3_config_set(S3Config *cfg, const char *key, const char *value, floe_error *err);
S3Client *s3_client_get(const S3Config *cfg);
int s3_get(S3Client *c, const char *uri, uint64_t off, int64_t len, Arena *arena,
	   const uint8_t **data, size_t *n, floe_error *err);
int s3_get_ranges(S3Client *c, const char *uri, S3Range *ranges, int n, Arena *arena,
		  floe_error *err);
int s3_put(S3Client *c, const char *uri, const void *data, size_t len, bool replace,
	   floe_error *err);
int s3_head(S3Client *c, const char *uri, uint64_t *size, floe_error *err);
int s3_delete(S3Client *c, const char *uri, floe_error *err);
int s3_list(S3Client *c, const char *uri_prefix, Arena *arena, char ***keys, uint64_t **sizes,
	    int64_t **mtimes_ms, int *n, floe_error *err);
void s3_stats(S3Stats *st);

#endif
