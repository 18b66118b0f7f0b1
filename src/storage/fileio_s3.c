/*
 * fileio_s3.c — the S3 client (see storage/s3.h): GET (ranges, parallel
 * chunks), PUT (single or multipart), HEAD, DELETE, ListObjectsV2, over
 * libcurl, which also signs every request (CURLOPT_AWS_SIGV4).
 *
 * Spec: the Amazon S3 API reference (GetObject with Range, PutObject,
 * CreateMultipartUpload / UploadPart / CompleteMultipartUpload,
 * ListObjectsV2, HeadObject, DeleteObject), path-style
 * (http://host/bucket/key) and virtual-host (http://bucket.host/key)
 * addressing; every request carries x-amz-content-sha256: UNSIGNED-PAYLOAD
 * (s3rver refuses SigV4 requests without it).
 *
 * Requests (run_reqs): a batch of Req runs on one curl multi handle, at
 * most FLOE_S3_PARALLEL (8) at once; each easy handle comes from the
 * client's pool, so connections stay open between statements.  A request
 * that fails with a connection error, a timeout, a short body, 429 or 5xx
 * is sent again after an exponential backoff with full jitter
 * (base FLOE_S3_RETRY_BASE_MS 50 ms doubled per attempt, capped at 5 s),
 * up to FLOE_S3_MAX_ATTEMPTS (10) attempts; every request and retry is
 * counted (s3_stats).  Timeouts: FLOE_S3_TIMEOUT_MS (60 s) per request,
 * 10 s to connect, and a transfer slower than 1 KB/s for 15 s is aborted.
 *
 * Reads: a whole-object read asks for the first FLOE_S3_CHUNK_BYTES (8 MiB)
 * as a range; when Content-Range says the object is larger, the rest goes
 * as parallel range GETs into one buffer.  s3_get_ranges merges ranges less
 * than 1 MiB apart into one request and runs the merged ones in parallel.
 *
 * Writes: a PUT that must not replace carries If-None-Match: * (58P02 on
 * 412; a 412 on a retry, whose first attempt may have landed, is checked
 * with HEAD: the same size is our own object).  Bodies past
 * FLOE_S3_MULTIPART_BYTES (64 MiB) go as a multipart upload of 16 MiB parts
 * uploaded in parallel; a failed upload is aborted (best effort).
 *
 * Cache: reads of immutable objects (every Iceberg file: floe never
 * overwrites one) are kept in a process-wide LRU of FLOE_S3_CACHE_BYTES
 * (256 MiB; 0 turns it off), objects up to FLOE_S3_CACHE_MAX_OBJECT
 * (64 MiB), keyed by URI, range and a generation that s3_put with replace
 * and s3_delete bump, so an object replaced through this process is never
 * served stale.
 *
 * INTERFACE ROUTINES: see s3.h.
 */
#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "common/interrupt.h"
#include "common/lru.h"
#include "storage/s3.h"

#define MERGE_GAP ((uint64_t)1 << 20)

/* ---- configuration ------------------------------------------------------ */

static long
env_long(const char *name, long dflt)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return dflt;
	n = strtol(v, &end, 10);
	return *end || n < 0 ? dflt : n;
}

static void
copy_env(char *dst, size_t cap, const char *a, const char *b)
{
	const char *v = getenv(a);
	if ((!v || !*v) && b)
		v = getenv(b);
	if (v && *v)
		snprintf(dst, cap, "%s", v);
}

bool
s3_is_uri(const char *path)
{
	return path && (strncmp(path, "s3://", 5) == 0 || strncmp(path, "s3a://", 6) == 0);
}

void
s3_config_init(S3Config *cfg)
{
	const char *ps = getenv("FLOE_S3_PATH_STYLE");

	memset(cfg, 0, sizeof *cfg);
	copy_env(cfg->endpoint, sizeof cfg->endpoint, "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
	copy_env(cfg->region, sizeof cfg->region, "AWS_REGION", "AWS_DEFAULT_REGION");
	copy_env(cfg->access_key, sizeof cfg->access_key, "AWS_ACCESS_KEY_ID", NULL);
	copy_env(cfg->secret_key, sizeof cfg->secret_key, "AWS_SECRET_ACCESS_KEY", NULL);
	copy_env(cfg->token, sizeof cfg->token, "AWS_SESSION_TOKEN", NULL);
	cfg->path_style = ps && *ps ? (strcmp(ps, "0") != 0 && strcasecmp(ps, "false") != 0) : -1;
}

static int
set_str(char *dst, size_t cap, const char *key, const char *value, floe_error *err)
{
	if (strlen(value) >= cap)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "value of \"%s\" is too long", key);
	snprintf(dst, cap, "%s", value);
	return FLOE_OK;
}

int
s3_config_set(S3Config *cfg, const char *key, const char *value, floe_error *err)
{
	if (!strcmp(key, "s3.endpoint"))
		return set_str(cfg->endpoint, sizeof cfg->endpoint, key, value, err);
	if (!strcmp(key, "s3.access-key-id"))
		return set_str(cfg->access_key, sizeof cfg->access_key, key, value, err);
	if (!strcmp(key, "s3.secret-access-key"))
		return set_str(cfg->secret_key, sizeof cfg->secret_key, key, value, err);
	if (!strcmp(key, "s3.session-token"))
		return set_str(cfg->token, sizeof cfg->token, key, value, err);
	if (!strcmp(key, "client.region") || !strcmp(key, "s3.region"))
		return set_str(cfg->region, sizeof cfg->region, key, value, err);
	if (!strcmp(key, "s3.path-style-access")) {
		if (!strcasecmp(value, "true") || !strcmp(value, "1"))
			cfg->path_style = 1;
		else if (!strcasecmp(value, "false") || !strcmp(value, "0"))
			cfg->path_style = 0;
		else
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for \"s3.path-style-access\": \"%s\"", value);
		return FLOE_OK;
	}
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "file-io property \"%s\" is not supported", key);
	return floe_error_hint(err, "Supported: s3.endpoint, s3.access-key-id, s3.secret-access-key, "
			       "s3.session-token, s3.path-style-access, client.region.");
}

/* ---- the client and its handle pool ------------------------------------ */

struct S3Client {
	S3Config cfg;
	char base[600];             /* endpoint with scheme, no trailing '/' */
	char sigv4[128];
	bool path_style;
	pthread_mutex_t mu;
	CURL **pool;
	int npool, cappool;
	struct S3Client *next;
};

static pthread_mutex_t clients_mu = PTHREAD_MUTEX_INITIALIZER;
static S3Client *clients;
static Lru *obj_cache;
static atomic_ullong generation;
static struct {
	atomic_ullong requests, gets, puts, heads, deletes, lists, retries, bytes_in, bytes_out, hits;
} st;

static void
global_init(void)
{
	long cap = env_long("FLOE_S3_CACHE_BYTES", 256L << 20);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	obj_cache = cap > 0 ? lru_new((size_t)cap) : NULL;
}

static bool
is_loopback(const char *host)
{
	return !strncmp(host, "127.", 4) || !strncmp(host, "localhost", 9) || !strncmp(host, "[::1]", 5);
}

S3Client *
s3_client_get(const S3Config *cfg)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	S3Client *c;
	size_t n;

	pthread_once(&once, global_init);
	pthread_mutex_lock(&clients_mu);
	for (c = clients; c; c = c->next)
		if (!memcmp(&c->cfg, cfg, sizeof *cfg))
			break;
	if (!c) {
		c = xcalloc(1, sizeof *c);
		c->cfg = *cfg;
		pthread_mutex_init(&c->mu, NULL);
		if (!cfg->region[0])
			snprintf(c->cfg.region, sizeof c->cfg.region, "us-east-1");
		if (!cfg->endpoint[0]) {
			snprintf(c->base, sizeof c->base, "https://s3.%s.amazonaws.com", c->cfg.region);
			c->path_style = cfg->path_style == 1;
		} else {
			if (strstr(cfg->endpoint, "://"))
				snprintf(c->base, sizeof c->base, "%s", cfg->endpoint);
			else
				snprintf(c->base, sizeof c->base, "%s://%s",
					 is_loopback(cfg->endpoint) ? "http" : "https", cfg->endpoint);
			/* a custom endpoint (MinIO, s3rver) is path-style unless told */
			c->path_style = cfg->path_style != 0;
		}
		n = strlen(c->base);
		while (n > 0 && c->base[n - 1] == '/')
			c->base[--n] = 0;
		snprintf(c->sigv4, sizeof c->sigv4, "aws:amz:%s:s3", c->cfg.region);
		c->next = clients;
		clients = c;
		/* the memcmp key is the caller's config, region default or not */
		c->cfg = *cfg;
	}
	pthread_mutex_unlock(&clients_mu);
	return c;
}

static CURL *
take_handle(S3Client *c)
{
	CURL *h = NULL;

	pthread_mutex_lock(&c->mu);
	if (c->npool > 0)
		h = c->pool[--c->npool];
	pthread_mutex_unlock(&c->mu);
	if (h)
		curl_easy_reset(h);
	else if (!(h = curl_easy_init()))
		abort();
	return h;
}

static void
give_handle(S3Client *c, CURL *h)
{
	pthread_mutex_lock(&c->mu);
	if (c->npool == c->cappool) {
		c->cappool = c->cappool ? c->cappool * 2 : 8;
		c->pool = xrealloc(c->pool, sizeof(CURL *) * (size_t)c->cappool);
	}
	c->pool[c->npool++] = h;
	pthread_mutex_unlock(&c->mu);
}

void
s3_stats(S3Stats *out)
{
	out->requests = st.requests;
	out->gets = st.gets;
	out->puts = st.puts;
	out->heads = st.heads;
	out->deletes = st.deletes;
	out->lists = st.lists;
	out->retries = st.retries;
	out->bytes_in = st.bytes_in;
	out->bytes_out = st.bytes_out;
	out->cache_hits = st.hits;
}

/* ---- URIs and URLs ------------------------------------------------------ */

/* "s3://bucket/key" -> bucket, key (no leading '/'); false when no bucket. */
static bool
split_uri(const char *uri, Arena *a, char **bucket, char **key)
{
	const char *p = uri + (strncmp(uri, "s3a://", 6) == 0 ? 6 : 5), *slash = strchr(p, '/');

	if (!slash)
		slash = p + strlen(p);
	if (slash == p)
		return false;
	*bucket = arena_strndup(a, p, (size_t)(slash - p));
	while (*slash == '/')
		slash++;
	*key = arena_strdup(a, slash);
	return true;
}

/* RFC 3986 percent-encoding of everything but unreserved characters (and
 * '/' when keep_slash), as SigV4's canonical URI and query want it. */
static char *
uri_encode(Arena *a, const char *s, bool keep_slash)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = arena_alloc(a, strlen(s) * 3 + 1), *o = out;

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    ch == '-' || ch == '.' || ch == '_' || ch == '~' || (keep_slash && ch == '/')) {
			*o++ = (char)ch;
		} else {
			*o++ = '%';
			*o++ = hex[ch >> 4];
			*o++ = hex[ch & 15];
		}
	}
	*o = 0;
	return out;
}

static char *
make_url(S3Client *c, Arena *a, const char *bucket, const char *key, const char *query)
{
	const char *k = uri_encode(a, key, true), *q = query ? query : "";
	const char *sep = query ? "?" : "";

	if (c->path_style)
		return arena_sprintf(a, "%s/%s/%s%s%s", c->base, bucket, k, sep, q);
	{
		const char *host = strstr(c->base, "://") + 3;
		return arena_sprintf(a, "%.*s%s.%s/%s%s%s", (int)(host - c->base), c->base, bucket, host, k,
				     sep, q);
	}
}

/* ---- one request -------------------------------------------------------- */

typedef struct Req {
	/* in */
	const char *method;
	char *url;
	const uint8_t *body;
	size_t body_len;
	uint64_t range_off;
	int64_t range_len;          /* 0: no Range; < 0: to the end */
	bool if_none_match;
	atomic_ullong *counter;     /* st.gets, ... */
	/* out */
	long status;
	CURLcode cc;
	uint8_t *buf;               /* body (malloc'd, growing) */
	size_t n, cap;
	uint8_t *fixed;             /* when set: the body goes here (cap fixed_cap) */
	size_t fixed_cap;
	char etag[256];
	uint64_t total;             /* Content-Range total, else Content-Length */
	bool have_total;
	int attempts;
	/* running */
	CURL *h;
	struct curl_slist *hdrs;
	size_t sent;
} Req;

static size_t
on_body(char *p, size_t sz, size_t nm, void *arg)
{
	Req *r = arg;
	size_t len = sz * nm;
	long status = 0;

	curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &status);
	if (r->fixed && status / 100 == 2) {
		if (r->n + len > r->fixed_cap)
			return 0;               /* more than asked for: a failed write */
		memcpy(r->fixed + r->n, p, len);
		r->n += len;
		return len;
	}
	if (r->n + len > r->cap) {
		size_t cap = r->cap ? r->cap : 16384;
		while (cap < r->n + len)
			cap *= 2;
		r->buf = xrealloc(r->buf, cap);
		r->cap = cap;
	}
	memcpy(r->buf + r->n, p, len);
	r->n += len;
	return len;
}

static size_t
on_header(char *p, size_t sz, size_t nm, void *arg)
{
	Req *r = arg;
	size_t len = sz * nm;
	char line[512];
	char *v;

	if (len >= sizeof line)
		return len;
	memcpy(line, p, len);
	line[len] = 0;
	line[strcspn(line, "\r\n")] = 0;
	if (!strncmp(line, "HTTP/", 5)) {
		r->have_total = false;  /* a new response (after 100 Continue) */
		r->etag[0] = 0;
		return len;
	}
	if (!(v = strchr(line, ':')))
		return len;
	*v++ = 0;
	while (*v == ' ')
		v++;
	if (!strcasecmp(line, "ETag")) {
		snprintf(r->etag, sizeof r->etag, "%s", v);
	} else if (!strcasecmp(line, "Content-Range")) {
		char *slash = strchr(v, '/');
		if (slash && slash[1] != '*') {
			r->total = strtoull(slash + 1, NULL, 10);
			r->have_total = true;
		}
	} else if (!strcasecmp(line, "Content-Length") && !r->have_total) {
		r->total = strtoull(v, NULL, 10);
		r->have_total = true;
	}
	return len;
}

static size_t
on_upload(char *p, size_t sz, size_t nm, void *arg)
{
	Req *r = arg;
	size_t len = sz * nm, left = r->body_len - r->sent;

	if (len > left)
		len = left;
	memcpy(p, r->body + r->sent, len);
	r->sent += len;
	return len;
}

/* curl rewinds an upload to send it again (a reused connection that was
 * closed under it) */
static int
on_seek(void *arg, curl_off_t off, int origin)
{
	Req *r = arg;

	if (origin != SEEK_SET || off < 0 || (size_t)off > r->body_len)
		return CURL_SEEKFUNC_CANTSEEK;
	r->sent = (size_t)off;
	return CURL_SEEKFUNC_OK;
}

/* libcurl calls it while a transfer runs (at least once a second when
 * nothing moves): a raised cancel flag (CancelRequest, statement_timeout,
 * shutdown) aborts the transfer with CURLE_ABORTED_BY_CALLBACK. */
static int
on_progress(void *p, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	(void)p; (void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
	return interrupt_pending() ? 1 : 0;
}

static void
req_setup(S3Client *c, Req *r)
{
	CURL *h = take_handle(c);
	char tmp[2200];

	r->h = h;
	r->n = 0;
	r->sent = 0;
	r->status = 0;
	r->have_total = false;
	r->etag[0] = 0;
	r->hdrs = curl_slist_append(NULL, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
	r->hdrs = curl_slist_append(r->hdrs, "Expect:");
	if (c->cfg.token[0]) {
		snprintf(tmp, sizeof tmp, "x-amz-security-token: %s", c->cfg.token);
		r->hdrs = curl_slist_append(r->hdrs, tmp);
	}
	if (r->if_none_match)
		r->hdrs = curl_slist_append(r->hdrs, "If-None-Match: *");
	if (r->range_len != 0) {
		if (r->range_len < 0)
			snprintf(tmp, sizeof tmp, "Range: bytes=%llu-", (unsigned long long)r->range_off);
		else
			snprintf(tmp, sizeof tmp, "Range: bytes=%llu-%llu", (unsigned long long)r->range_off,
				 (unsigned long long)(r->range_off + (uint64_t)r->range_len - 1));
		r->hdrs = curl_slist_append(r->hdrs, tmp);
	}
	curl_easy_setopt(h, CURLOPT_URL, r->url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, r->hdrs);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);        /* keys are literal */
	curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, env_long("FLOE_S3_TIMEOUT_MS", 60000));
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 15L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
	curl_easy_setopt(h, CURLOPT_PRIVATE, r);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	if (c->cfg.access_key[0]) {
		curl_easy_setopt(h, CURLOPT_AWS_SIGV4, c->sigv4);
		curl_easy_setopt(h, CURLOPT_USERNAME, c->cfg.access_key);
		curl_easy_setopt(h, CURLOPT_PASSWORD, c->cfg.secret_key);
	}
	if (!strcmp(r->method, "HEAD")) {
		curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
	} else if (!strcmp(r->method, "PUT")) {
		curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(h, CURLOPT_READFUNCTION, on_upload);
		curl_easy_setopt(h, CURLOPT_READDATA, r);
		curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, on_seek);
		curl_easy_setopt(h, CURLOPT_SEEKDATA, r);
		curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)r->body_len);
	} else if (!strcmp(r->method, "POST")) {
		curl_easy_setopt(h, CURLOPT_POST, 1L);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, r->body ? (const char *)r->body : "");
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
	} else if (strcmp(r->method, "GET") != 0) {
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, r->method);
	}
}

static void
req_finish(S3Client *c, Req *r, CURLcode cc)
{
	r->cc = cc;
	curl_easy_getinfo(r->h, CURLINFO_RESPONSE_CODE, &r->status);
	curl_slist_free_all(r->hdrs);
	r->hdrs = NULL;
	/* a handle whose transfer broke may hold a dead connection: drop it */
	if (cc == CURLE_OK)
		give_handle(c, r->h);
	else
		curl_easy_cleanup(r->h);
	r->h = NULL;
	/* a 2xx GET shorter than its Content-Length is a dropped connection */
	if (cc == CURLE_OK && r->status / 100 == 2 && !strcmp(r->method, "GET") && r->range_len >= 0 &&
	    r->range_len > 0 && r->n != (size_t)r->range_len && r->have_total &&
	    r->total >= r->range_off + (uint64_t)r->range_len)
		r->cc = CURLE_PARTIAL_FILE;
}

static bool
retryable(const Req *r)
{
	switch (r->cc) {
	case CURLE_OK:
		return r->status == 429 || r->status >= 500 || r->status == 0;
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_WRITE_ERROR:
	case CURLE_SEND_FAIL_REWIND:
		return true;
	default:
		return false;
	}
}

static void
backoff(int attempt)
{
	long base = env_long("FLOE_S3_RETRY_BASE_MS", 50), cap = 5000, ms;
	unsigned int seed = (unsigned int)(time(NULL) ^ (long)pthread_self() ^ attempt);

	ms = base << (attempt < 16 ? attempt : 16);
	if (ms > cap || ms <= 0)
		ms = cap;
	ms = ms / 2 + (long)(rand_r(&seed) % (unsigned)(ms / 2 + 1));     /* jitter */
	for (; ms > 0 && !interrupt_pending(); ms -= 20)      /* a cancel ends the wait */
		usleep((useconds_t)(ms < 20 ? ms : 20) * 1000);
}

/* Run every request to a final answer (success, a non-retryable status,
 * or out of attempts).  Statuses are left in the Reqs for the caller. */
static void
run_reqs(S3Client *c, Req **reqs, int n)
{
	int max_attempts = (int)env_long("FLOE_S3_MAX_ATTEMPTS", 10);
	int par = (int)env_long("FLOE_S3_PARALLEL", 8);
	Req **todo = xmalloc(sizeof(Req *) * (size_t)(n + 1));
	int ntodo = n, round = 0;
	CURLM *m = curl_multi_init();

	if (par < 1)
		par = 1;
	memcpy(todo, reqs, sizeof(Req *) * (size_t)n);
	while (ntodo > 0) {
		int next = 0, running = 0, active = 0, nretry = 0;
		CURLMsg *msg;
		int left;

		if (round > 0)
			backoff(round - 1);
		if (interrupt_pending()) {
			for (next = 0; next < ntodo; next++)
				todo[next]->cc = CURLE_ABORTED_BY_CALLBACK;
			break;
		}
		while (next < ntodo || active > 0) {
			while (next < ntodo && active < par) {
				Req *r = todo[next++];
				req_setup(c, r);
				r->attempts++;
				atomic_fetch_add(&st.requests, 1);
				atomic_fetch_add(r->counter, 1);
				atomic_fetch_add(&st.bytes_out, r->body_len);
				if (r->attempts > 1)
					atomic_fetch_add(&st.retries, 1);
				curl_multi_add_handle(m, r->h);
				active++;
			}
			curl_multi_perform(m, &running);
			while ((msg = curl_multi_info_read(m, &left)) != NULL) {
				Req *r;
				if (msg->msg != CURLMSG_DONE)
					continue;
				curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
				curl_multi_remove_handle(m, msg->easy_handle);
				req_finish(c, r, msg->data.result);
				atomic_fetch_add(&st.bytes_in, r->n);
				active--;
				if (retryable(r) && r->attempts < max_attempts)
					todo[nretry++] = r;          /* nretry <= finished ones */
			}
			if (running > 0)
				curl_multi_poll(m, NULL, 0, 100, NULL);
		}
		ntodo = nretry;
		round++;
	}
	curl_multi_cleanup(m);
	free(todo);
}

/* ---- answers ------------------------------------------------------------ */

/* The text of the first <tag>...</tag> at or after *from (XML entities
 * decoded), or NULL; *from moves past it. */
static char *
xml_tag(Arena *a, const char *body, size_t n, const char *tag, const char **from)
{
	char open[64], close[64];
	const char *p = from && *from ? *from : body, *s, *e;
	char *out, *o;

	snprintf(open, sizeof open, "<%s>", tag);
	snprintf(close, sizeof close, "</%s>", tag);
	if (!(s = memmem(p, n - (size_t)(p - body), open, strlen(open))))
		return NULL;
	s += strlen(open);
	if (!(e = memmem(s, n - (size_t)(s - body), close, strlen(close))))
		return NULL;
	if (from)
		*from = e + strlen(close);
	out = o = arena_alloc(a, (size_t)(e - s) + 1);
	while (s < e) {
		static const struct { const char *ent; char ch; } ents[] = {
			{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''},
		};
		size_t k;
		bool done = false;
		for (k = 0; k < sizeof ents / sizeof ents[0] && *s == '&'; k++) {
			size_t l = strlen(ents[k].ent);
			if ((size_t)(e - s) >= l && !memcmp(s, ents[k].ent, l)) {
				*o++ = ents[k].ch;
				s += l;
				done = true;
				break;
			}
		}
		if (!done)
			*o++ = *s++;
	}
	*o = 0;
	return out;
}

/* The error of a finished request that did not succeed. */
static int
req_error(const Req *r, const char *what, const char *uri, floe_error *err)
{
	Arena *a;
	char *code, *msg;

	if (r->cc == CURLE_ABORTED_BY_CALLBACK)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (r->cc != CURLE_OK)
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not %s \"%s\": %s (after %d attempts)", what,
				   uri, curl_easy_strerror(r->cc), r->attempts);
	if (r->status == 404)
		return floe_errorf(err, ERRCODE_UNDEFINED_FILE, "could not %s \"%s\": no such object", what, uri);
	a = arena_new(0);
	code = r->buf ? xml_tag(a, (const char *)r->buf, r->n, "Code", NULL) : NULL;
	msg = r->buf ? xml_tag(a, (const char *)r->buf, r->n, "Message", NULL) : NULL;
	floe_errorf(err, r->status == 403 ? ERRCODE_INSUFFICIENT_PRIVILEGE : ERRCODE_IO_ERROR,
		    "could not %s \"%s\": HTTP %ld%s%s%s%s", what, uri, r->status, code ? " " : "",
		    code ? code : "", msg ? ": " : "", msg ? msg : "");
	arena_free(a);
	return FLOE_ERR;
}

static bool
ok(const Req *r)
{
	return r->cc == CURLE_OK && r->status / 100 == 2;
}

static void
req_dispose(Req *r)
{
	free(r->buf);
	r->buf = NULL;
}

/* ---- cache -------------------------------------------------------------- */

typedef struct Cached {
	const uint8_t *data;
	size_t n;
} Cached;

static char *
cache_key(Arena *a, const char *uri, uint64_t off, int64_t len)
{
	const char *u = strncmp(uri, "s3a://", 6) == 0 ? uri + 6 : uri + 5;
	return arena_sprintf(a, "%llu %llu %lld %s", (unsigned long long)generation,
			     (unsigned long long)off, (long long)len, u);
}

static void
cache_put(const char *key, const uint8_t *data, size_t n, Arena *hold)
{
	Arena *own;
	Cached *cv;

	if (!obj_cache || n > (size_t)env_long("FLOE_S3_CACHE_MAX_OBJECT", 64L << 20))
		return;
	own = arena_new(n + 256);
	cv = ARENA_NEW(own, Cached);
	cv->data = arena_memdup(own, data, n ? n : 1);
	cv->n = n;
	(void)lru_put(obj_cache, key, own, cv, hold);
}

/* ---- operations --------------------------------------------------------- */

static int
bad_uri(const char *uri, floe_error *err)
{
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "invalid S3 location \"%s\": no bucket", uri);
}

int
s3_get(S3Client *c, const char *uri, uint64_t off, int64_t len, Arena *arena, const uint8_t **data,
       size_t *n, floe_error *err)
{
	Arena *a = arena_new(0);
	char *bucket, *key, *ck;
	uint64_t chunk = (uint64_t)env_long("FLOE_S3_CHUNK_BYTES", 8L << 20);
	Req r;
	Cached *cv;
	int rc = FLOE_ERR;

	if (!split_uri(uri, a, &bucket, &key)) {
		arena_free(a);
		return bad_uri(uri, err);
	}
	ck = cache_key(a, uri, off, len);
	if (obj_cache && (cv = lru_get(obj_cache, ck, arena)) != NULL) {
		atomic_fetch_add(&st.hits, 1);
		*data = cv->data;
		*n = cv->n;
		arena_free(a);
		return FLOE_OK;
	}
	if (chunk < 65536)
		chunk = 65536;
	memset(&r, 0, sizeof r);
	r.method = "GET";
	r.url = make_url(c, a, bucket, key, NULL);
	r.counter = &st.gets;
	r.range_off = off;
	r.range_len = len < 0 ? (int64_t)chunk : len;
	{
		Req *rs[1] = {&r};
		run_reqs(c, rs, 1);
	}
	if (r.status == 416 && off == 0 && len < 0) {
		/* an empty object has no byte 0 */
		*data = arena_alloc(arena, 1);
		*n = 0;
		rc = FLOE_OK;
		goto out;
	}
	if (!ok(&r)) {
		req_error(&r, "read object", uri, err);
		goto out;
	}
	if (len < 0 && r.status == 206 && r.have_total && r.total > off + r.n) {
		/* the rest of a large object: parallel ranges into one buffer */
		uint64_t total = r.total - off, pos = r.n;
		int nparts = (int)((total - pos + chunk - 1) / chunk), i;
		uint8_t *buf = arena_alloc(arena, (size_t)total);
		Req *parts = arena_calloc(a, sizeof(Req) * (size_t)nparts);
		Req **ps = arena_alloc(a, sizeof(Req *) * (size_t)nparts);

		memcpy(buf, r.buf, r.n);
		for (i = 0; i < nparts; i++, pos += chunk) {
			Req *p = &parts[i];
			p->method = "GET";
			p->url = r.url;
			p->counter = &st.gets;
			p->range_off = off + pos;
			p->range_len = (int64_t)(total - pos < chunk ? total - pos : chunk);
			p->fixed = buf + pos;
			p->fixed_cap = (size_t)p->range_len;
			ps[i] = p;
		}
		run_reqs(c, ps, nparts);
		for (i = 0; i < nparts; i++)
			if (!ok(&parts[i]) || parts[i].n != (size_t)parts[i].range_len) {
				if (ok(&parts[i]))
					parts[i].cc = CURLE_PARTIAL_FILE;
				req_error(&parts[i], "read object", uri, err);
				for (i = 0; i < nparts; i++)
					req_dispose(&parts[i]);
				goto out;
			}
		for (i = 0; i < nparts; i++)
			req_dispose(&parts[i]);
		*data = buf;
		*n = (size_t)total;
	} else {
		*data = arena_memdup(arena, r.buf ? r.buf : (const uint8_t *)"", r.n ? r.n : 1);
		*n = r.n;
	}
	cache_put(ck, *data, *n, arena);
	rc = FLOE_OK;
out:
	req_dispose(&r);
	arena_free(a);
	return rc;
}

int
s3_get_ranges(S3Client *c, const char *uri, S3Range *ranges, int n, Arena *arena, floe_error *err)
{
	Arena *a = arena_new(0);
	char *bucket, *key, *url;
	int *order = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	Req *reqs = arena_calloc(a, sizeof(Req) * (size_t)(n + 1));
	Req **rs = arena_alloc(a, sizeof(Req *) * (size_t)(n + 1));
	uint8_t **bufs = arena_alloc(a, sizeof(uint8_t *) * (size_t)(n + 1));
	char **keys = arena_alloc(a, sizeof(char *) * (size_t)(n + 1));
	int nreq = 0, i, j, rc = FLOE_ERR;

	if (!split_uri(uri, a, &bucket, &key)) {
		arena_free(a);
		return bad_uri(uri, err);
	}
	url = make_url(c, a, bucket, key, NULL);
	/* sort by offset (insertion sort: a few dozen ranges at most) */
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && ranges[order[j - 1]].off > ranges[i].off; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < n;) {
		uint64_t lo = ranges[order[i]].off, hi = lo + ranges[order[i]].len;
		for (j = i + 1; j < n && ranges[order[j]].off <= hi + MERGE_GAP; j++)
			if (ranges[order[j]].off + ranges[order[j]].len > hi)
				hi = ranges[order[j]].off + ranges[order[j]].len;
		Cached *cv;
		char *ck = cache_key(a, uri, lo, (int64_t)(hi - lo));
		const uint8_t *base;

		if (hi == lo) {
			base = (const uint8_t *)"";           /* empty ranges: no request */
		} else if (obj_cache && (cv = lru_get(obj_cache, ck, arena)) != NULL && cv->n == hi - lo) {
			atomic_fetch_add(&st.hits, 1);
			base = cv->data;
		} else {
			reqs[nreq].method = "GET";
			reqs[nreq].url = url;
			reqs[nreq].counter = &st.gets;
			reqs[nreq].range_off = lo;
			reqs[nreq].range_len = (int64_t)(hi - lo);
			bufs[nreq] = arena_alloc(arena, (size_t)(hi - lo) + 1);
			reqs[nreq].fixed = bufs[nreq];
			reqs[nreq].fixed_cap = (size_t)(hi - lo);
			keys[nreq] = ck;
			rs[nreq] = &reqs[nreq];
			base = bufs[nreq];
			nreq++;
		}
		for (; i < j; i++)
			ranges[order[i]].data = base + (ranges[order[i]].off - lo);
	}
	run_reqs(c, rs, nreq);
	for (i = 0; i < nreq; i++)
		if (ok(&reqs[i]) && reqs[i].n == (size_t)reqs[i].range_len)
			cache_put(keys[i], bufs[i], reqs[i].n, arena);
	for (i = 0; i < nreq; i++)
		if (!ok(&reqs[i]) || reqs[i].n != (size_t)reqs[i].range_len) {
			if (ok(&reqs[i]))
				floe_errorf(err, ERRCODE_IO_ERROR, "could not read object \"%s\": range past its end",
					    uri);
			else
				req_error(&reqs[i], "read object", uri, err);
			goto out;
		}
	rc = FLOE_OK;
out:
	for (i = 0; i < nreq; i++)
		req_dispose(&reqs[i]);
	arena_free(a);
	return rc;
}

int
s3_head(S3Client *c, const char *uri, uint64_t *size, floe_error *err)
{
	Arena *a = arena_new(0);
	char *bucket, *key;
	Req r, *rs[1] = {&r};
	int rc = FLOE_OK;

	if (!split_uri(uri, a, &bucket, &key)) {
		arena_free(a);
		return bad_uri(uri, err);
	}
	memset(&r, 0, sizeof r);
	r.method = "HEAD";
	r.url = make_url(c, a, bucket, key, NULL);
	r.counter = &st.heads;
	run_reqs(c, rs, 1);
	if (!ok(&r))
		rc = req_error(&r, "stat object", uri, err);
	else if (size)
		*size = r.total;
	req_dispose(&r);
	arena_free(a);
	return rc;
}

int
s3_delete(S3Client *c, const char *uri, floe_error *err)
{
	Arena *a = arena_new(0);
	char *bucket, *key;
	Req r, *rs[1] = {&r};
	int rc = FLOE_OK;

	if (!split_uri(uri, a, &bucket, &key)) {
		arena_free(a);
		return bad_uri(uri, err);
	}
	atomic_fetch_add(&generation, 1);
	memset(&r, 0, sizeof r);
	r.method = "DELETE";
	r.url = make_url(c, a, bucket, key, NULL);
	r.counter = &st.deletes;
	run_reqs(c, rs, 1);
	if (!ok(&r))
		rc = req_error(&r, "remove object", uri, err);
	req_dispose(&r);
	arena_free(a);
	return rc;
}

static int
multipart(S3Client *c, const char *uri, Arena *a, const char *bucket, const char *key,
	  const uint8_t *data, size_t len, floe_error *err)
{
	size_t part = (size_t)env_long("FLOE_S3_PART_BYTES", 16L << 20);
	int nparts, i, rc = FLOE_ERR;
	Req r, *rs[1] = {&r}, *parts, **ps;
	char *upload = NULL, *xml;
	size_t xl;

	if (part < ((size_t)5 << 20))
		part = (size_t)5 << 20;          /* S3's minimum part size */
	nparts = (int)((len + part - 1) / part);
	memset(&r, 0, sizeof r);
	r.method = "POST";
	r.url = make_url(c, a, bucket, key, "uploads=");
	r.counter = &st.puts;
	run_reqs(c, rs, 1);
	if (!ok(&r) || !(upload = xml_tag(a, (const char *)r.buf, r.n, "UploadId", NULL))) {
		if (ok(&r))
			floe_errorf(err, ERRCODE_IO_ERROR, "could not write object \"%s\": no UploadId", uri);
		else
			req_error(&r, "start multipart upload of", uri, err);
		req_dispose(&r);
		return FLOE_ERR;
	}
	req_dispose(&r);
	parts = arena_calloc(a, sizeof(Req) * (size_t)nparts);
	ps = arena_alloc(a, sizeof(Req *) * (size_t)nparts);
	for (i = 0; i < nparts; i++) {
		size_t o = (size_t)i * part;
		parts[i].method = "PUT";
		parts[i].url = make_url(c, a, bucket, key,
					arena_sprintf(a, "partNumber=%d&uploadId=%s", i + 1,
						      uri_encode(a, upload, false)));
		parts[i].counter = &st.puts;
		parts[i].body = data + o;
		parts[i].body_len = len - o < part ? len - o : part;
		ps[i] = &parts[i];
	}
	run_reqs(c, ps, nparts);
	xml = arena_sprintf(a, "<CompleteMultipartUpload>");
	for (i = 0; i < nparts; i++) {
		if (!ok(&parts[i]) || !parts[i].etag[0]) {
			if (ok(&parts[i]))
				floe_errorf(err, ERRCODE_IO_ERROR, "could not write object \"%s\": part %d has no ETag",
					    uri, i + 1);
			else
				req_error(&parts[i], "upload part of", uri, err);
			goto abort_upload;
		}
		xml = arena_sprintf(a, "%s<Part><PartNumber>%d</PartNumber><ETag>%s</ETag></Part>", xml, i + 1,
				    parts[i].etag);
	}
	xml = arena_sprintf(a, "%s</CompleteMultipartUpload>", xml);
	xl = strlen(xml);
	memset(&r, 0, sizeof r);
	r.method = "POST";
	r.url = make_url(c, a, bucket, key, arena_sprintf(a, "uploadId=%s", uri_encode(a, upload, false)));
	r.counter = &st.puts;
	r.body = (const uint8_t *)xml;
	r.body_len = xl;
	run_reqs(c, rs, 1);
	/* CompleteMultipartUpload may answer 200 with an <Error> body */
	if (!ok(&r) || (r.buf && memmem(r.buf, r.n, "<Error>", 7))) {
		if (ok(&r))
			r.status = 500;
		req_error(&r, "complete multipart upload of", uri, err);
		req_dispose(&r);
		goto abort_upload;
	}
	req_dispose(&r);
	rc = FLOE_OK;
	goto out;
abort_upload:
	memset(&r, 0, sizeof r);
	r.method = "DELETE";
	r.url = make_url(c, a, bucket, key, arena_sprintf(a, "uploadId=%s", uri_encode(a, upload, false)));
	r.counter = &st.deletes;
	run_reqs(c, rs, 1);                       /* best effort (s3rver: 405) */
	req_dispose(&r);
out:
	for (i = 0; i < nparts; i++)
		req_dispose(&parts[i]);
	return rc;
}

int
s3_put(S3Client *c, const char *uri, const void *data, size_t len, bool replace, floe_error *err)
{
	Arena *a = arena_new(0);
	char *bucket, *key;
	Req r, *rs[1] = {&r};
	int rc = FLOE_OK;

	if (!split_uri(uri, a, &bucket, &key) || !*key) {
		arena_free(a);
		return bad_uri(uri, err);
	}
	if (replace)
		atomic_fetch_add(&generation, 1);
	if (len > (size_t)env_long("FLOE_S3_MULTIPART_BYTES", 64L << 20)) {
		if (!replace && s3_head(c, uri, NULL, err) == FLOE_OK) {
			arena_free(a);
			return floe_errorf(err, ERRCODE_DUPLICATE_FILE, "file \"%s\" already exists", uri);
		}
		rc = multipart(c, uri, a, bucket, key, data, len, err);
		arena_free(a);
		return rc;
	}
	memset(&r, 0, sizeof r);
	r.method = "PUT";
	r.url = make_url(c, a, bucket, key, NULL);
	r.counter = &st.puts;
	r.body = data;
	r.body_len = len;
	r.if_none_match = !replace;
	run_reqs(c, rs, 1);
	if (r.cc == CURLE_OK && r.status == 412) {
		uint64_t size;
		floe_error ignore;
		/* a retry of a PUT whose first attempt landed meets its own object */
		if (!(r.attempts > 1 && s3_head(c, uri, &size, &ignore) == FLOE_OK && size == len))
			rc = floe_errorf(err, ERRCODE_DUPLICATE_FILE, "file \"%s\" already exists", uri);
	} else if (!ok(&r)) {
		rc = req_error(&r, "write object", uri, err);
	}
	req_dispose(&r);
	arena_free(a);
	return rc;
}

/* ListObjectsV2's LastModified, ISO 8601 in UTC ("2026-12-04T18:00:00.000Z",
 * fractional seconds optional): ms since the epoch, or -1 when it is not
 * that form */
static int64_t
iso8601_ms(const char *s)
{
	struct tm tm;
	int y, mo, d, h, mi, sec, used = 0;
	long ms = 0;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &used) != 6 ||
	    mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	s += used;
	if (*s == '.') {
		int digits = 0;
		for (s++; *s >= '0' && *s <= '9'; s++, digits++)
			if (digits < 3)
				ms = ms * 10 + (*s - '0');
		for (; digits < 3; digits++)
			ms *= 10;
	}
	if (strcmp(s, "Z") && strcmp(s, "+00:00"))
		return -1;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	return (int64_t)timegm(&tm) * 1000 + ms;
}

int
s3_list(S3Client *c, const char *uri_prefix, Arena *arena, char ***keys, uint64_t **sizes,
	int64_t **mtimes_ms, int *n, floe_error *err)
{
	int64_t *mt = NULL;
	Arena *a = arena_new(0);
	char *bucket, *prefix, *token = NULL;
	const char *scheme = strncmp(uri_prefix, "s3a://", 6) == 0 ? "s3a" : "s3";
	int cap = 0, rc = FLOE_ERR;

	*keys = NULL;
	*sizes = NULL;
	if (mtimes_ms)
		*mtimes_ms = NULL;
	*n = 0;
	if (!split_uri(uri_prefix, a, &bucket, &prefix)) {
		arena_free(a);
		return bad_uri(uri_prefix, err);
	}
	for (;;) {
		Req r, *rs[1] = {&r};
		const char *from = NULL, *body;
		char *k, *q, *more;

		/* query parameters in SigV4's canonical (sorted) order;
		 * FLOE_S3_LIST_MAX_KEYS: smaller pages (tests) */
		long maxk = env_long("FLOE_S3_LIST_MAX_KEYS", 0);
		char *mk = maxk > 0 ? arena_sprintf(a, "&max-keys=%ld", maxk) : "";
		q = token ? arena_sprintf(a, "continuation-token=%s&list-type=2%s&prefix=%s",
					  uri_encode(a, token, false), mk, uri_encode(a, prefix, false))
			  : arena_sprintf(a, "list-type=2%s&prefix=%s", mk, uri_encode(a, prefix, false));
		memset(&r, 0, sizeof r);
		r.method = "GET";
		r.url = make_url(c, a, bucket, "", q);
		r.counter = &st.lists;
		run_reqs(c, rs, 1);
		if (!ok(&r)) {
			req_error(&r, "list objects under", uri_prefix, err);
			req_dispose(&r);
			goto out;
		}
		body = (const char *)r.buf;
		while (body && (k = xml_tag(a, body, r.n, "Contents", &from)) != NULL) {
			char *key = xml_tag(a, k, strlen(k), "Key", NULL);
			char *size = xml_tag(a, k, strlen(k), "Size", NULL);
			char *mod = xml_tag(a, k, strlen(k), "LastModified", NULL);
			if (!key)
				continue;
			if (*n == cap) {
				int nc = cap ? cap * 2 : 64;
				char **nk = arena_alloc(arena, sizeof(char *) * (size_t)nc);
				uint64_t *ns = arena_alloc(arena, sizeof(uint64_t) * (size_t)nc);
				int64_t *nm = arena_alloc(arena, sizeof(int64_t) * (size_t)nc);
				if (*n) {
					memcpy(nk, *keys, sizeof(char *) * (size_t)*n);
					memcpy(ns, *sizes, sizeof(uint64_t) * (size_t)*n);
					memcpy(nm, mt, sizeof(int64_t) * (size_t)*n);
				}
				*keys = nk;
				*sizes = ns;
				mt = nm;
				cap = nc;
			}
			(*keys)[*n] = arena_sprintf(arena, "%s://%s/%s", scheme, bucket, key);
			(*sizes)[*n] = size ? strtoull(size, NULL, 10) : 0;
			mt[*n] = iso8601_ms(mod);
			(*n)++;
		}
		more = body ? xml_tag(a, body, r.n, "IsTruncated", NULL) : NULL;
		token = more && !strcmp(more, "true")
			? xml_tag(a, body, r.n, "NextContinuationToken", NULL) : NULL;
		req_dispose(&r);
		if (!token)
			break;
	}
	rc = FLOE_OK;
	if (mtimes_ms)
		*mtimes_ms = mt;
out:
	arena_free(a);
	return rc;
}
