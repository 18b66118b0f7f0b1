/*
 * stage.c — stage locations, their file lists, and LIST @stage (stage.h
 * has the rules).
 *
 * LIST '@stage[/path]' | @stage[/path] [PATTERN = 'regex'] returns name
 * (relative to the location's folder) | size | last_modified, one row per
 * file, sorted by name: a query string of its own (like SHOW INSERT
 * BUFFER STATUS), read with the server-file rights of COPY FROM.
 */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ingest/stage.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "storage/fileio.h"

static bool
name_ok(const char *s, size_t n)
{
	size_t i;
	if (n == 0 || s[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

int
stage_resolve(Session *s, const char *loc, Arena *a, char **path, floe_error *err)
{
	const char *name, *slash, *rest;
	const char *wh = s->engine->warehouse;
	size_t wl = strlen(wh);

	if (loc[0] != '@') {
		*path = arena_strdup(a, loc);
		return FLOE_OK;
	}
	name = loc + 1;
	slash = strchr(name, '/');
	if (!name_ok(name, slash ? (size_t)(slash - name) : strlen(name)))
		return floe_errorf(err, ERRCODE_INVALID_NAME,
				   "invalid stage name in \"%s\": letters, digits, \"_\", \"-\" and \".\"", loc);
	rest = slash ? slash : "";
	{
		const char *p = rest;
		while ((p = strstr(p, "..")) != NULL) {
			if ((p == rest || p[-1] == '/') && (p[2] == 0 || p[2] == '/'))
				return floe_errorf(err, ERRCODE_INVALID_NAME,
						   "a stage path must not contain \"..\": \"%s\"", loc);
			p += 2;
		}
	}
	while (wl > 1 && wh[wl - 1] == '/')
		wl--;
	if (wh[0] != '/' && !fileio_is_remote(wh)) {
		/* a relative warehouse: the stage's absolute path (what the
		 * server-file rules and stat see) */
		char cwd[4096];
		if (getcwd(cwd, sizeof cwd))
			wh = arena_sprintf(a, "%s/%.*s", cwd, (int)wl, wh), wl = strlen(wh);
	}
	*path = arena_sprintf(a, "%.*s/stages/%.*s%s", (int)wl, wh,
			      (int)(slash ? (size_t)(slash - name) : strlen(name)), name, rest);
	return FLOE_OK;
}

static bool
hidden(const char *rel)
{
	const char *p = rel;
	for (;;) {
		if (*p == '.' || *p == '_')
			return true;
		p = strchr(p, '/');
		if (!p)
			return false;
		p++;
	}
}

static int
by_path(const void *x, const void *y)
{
	return strcmp(((const StageFile *)x)->path, ((const StageFile *)y)->path);
}

int
stage_list(Session *s, const char *path, Arena *a, StageFile **files, int *n, floe_error *err)
{
	FileIO *io = s->engine->io;
	FileInfo *fi;
	int nf, i, k = 0;
	char *folder, *prefix;
	size_t plen = strlen(path), fl;
	struct stat sb;
	bool remote = fileio_is_remote(path);

	*files = NULL;
	*n = 0;
	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	if (!remote && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
		const char *b = strrchr(path, '/');
		*files = ARENA_ARRAY(a, StageFile, 1);
		(*files)[0].path = arena_strdup(a, path);
		(*files)[0].rel = arena_strdup(a, b ? b + 1 : path);
		(*files)[0].size = (uint64_t)sb.st_size;
		(*files)[0].mtime_ms = (int64_t)sb.st_mtim.tv_sec * 1000 + sb.st_mtim.tv_nsec / 1000000;
		*n = 1;
		return FLOE_OK;
	}
	if (!remote && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		folder = arena_strndup(a, path, plen);
		prefix = "";
	} else if (remote && path[strlen(path) - 1] == '/') {
		folder = arena_strndup(a, path, plen);
		prefix = "";
	} else {
		/* a prefix of names (or a single object) in its folder */
		const char *b = strrchr(path, '/');
		if (!b)
			return floe_errorf(err, ERRCODE_UNDEFINED_FILE, "no files at \"%s\"", path);
		folder = arena_strndup(a, path, (size_t)(b - path));
		prefix = arena_strdup(a, b + 1);
		if (!remote && !(stat(folder, &sb) == 0 && S_ISDIR(sb.st_mode))) {
			*n = 0;
			return FLOE_OK;
		}
	}
	if (fileio_list(io, folder, a, &fi, &nf, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_FILE)) {
			floe_error_clear(err);
			return FLOE_OK;
		}
		return FLOE_ERR;
	}
	fl = strlen(folder);
	*files = ARENA_ARRAY(a, StageFile, nf + 1);
	for (i = 0; i < nf; i++) {
		const char *rel = fi[i].path;
		if (!strncmp(rel, folder, fl) && rel[fl] == '/')
			rel += fl + 1;
		if (hidden(rel) || strncmp(rel, prefix, strlen(prefix)))
			continue;
		(*files)[k].path = fi[i].path;
		(*files)[k].rel = (char *)rel;
		(*files)[k].size = fi[i].size;
		(*files)[k].mtime_ms = fi[i].mtime_ms;
		k++;
	}
	qsort(*files, (size_t)k, sizeof **files, by_path);
	*n = k;
	return FLOE_OK;
}

static bool
ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcasecmp(s + n - m, suf);
}

int
stage_compression(const char *name, const char *option)
{
	if (option && !strcasecmp(option, "gzip"))
		return STAGE_GZIP;
	if (option && !strcasecmp(option, "zstd"))
		return STAGE_ZSTD;
	if (option && !strcasecmp(option, "none"))
		return STAGE_NONE;
	if (ends_with(name, ".gz") || ends_with(name, ".gzip"))
		return STAGE_GZIP;
	if (ends_with(name, ".zst") || ends_with(name, ".zstd"))
		return STAGE_ZSTD;
	return STAGE_NONE;
}

/* ---- LIST @stage ---------------------------------------------------------- */

static const char *
skip_ws(const char *p)
{
	while (*p && isspace((unsigned char)*p))
		p++;
	return p;
}

/* a quoted '...' ('' inside) or bare token up to a blank or ';' */
static const char *
token(const char *p, Arena *a, char **out)
{
	const char *q;
	if (*p == '\'') {
		char *o = arena_alloc(a, strlen(p) + 1), *w = o;
		for (q = p + 1; *q; q++) {
			if (*q == '\'') {
				if (q[1] != '\'')
					break;
				q++;
			}
			*w++ = *q;
		}
		if (!*q)
			return NULL;
		*w = 0;
		*out = o;
		return q + 1;
	}
	for (q = p; *q && !isspace((unsigned char)*q) && *q != ';'; q++)
		;
	if (q == p)
		return NULL;
	*out = arena_strndup(a, p, (size_t)(q - p));
	return q;
}

bool
stage_utility(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc)
{
	static const char *const names[3] = { "name", "size", "last_modified" };
	const char *p = skip_ws(sql);
	char *loc = NULL, *path, *pat = NULL;
	Arena *a;
	StageFile *f;
	SqlType types[3];
	regex_t re;
	bool have_re = false;
	int n, i, k;
	Batch *b;

	if (strncasecmp(p, "list", 4) || !isspace((unsigned char)p[4]))
		return false;
	p = skip_ws(p + 4);
	if (*p != '@' && !(p[0] == '\'' && p[1] == '@'))
		return false;
	a = arena_new(64 * 1024);
	floe_error_clear(err);
	if (!(p = token(p, a, &loc)))
		goto syntax;
	p = skip_ws(p);
	if (!strncasecmp(p, "pattern", 7)) {
		p = skip_ws(p + 7);
		if (*p != '=')
			goto syntax;
		p = skip_ws(p + 1);
		if (*p != '\'' || !(p = token(p, a, &pat)))
			goto syntax;
		p = skip_ws(p);
	}
	if (*p == ';')
		p = skip_ws(p + 1);
	if (*p)
		goto syntax;
	if ((*rc = stage_resolve(s, loc, a, &path, err)) != FLOE_OK ||
	    (*rc = acl_check_file(s, path, false, err)) != FLOE_OK)
		goto done;
	if (pat) {
		char *anch = arena_sprintf(a, "^(%s)$", pat);
		if (regcomp(&re, anch, REG_EXTENDED | REG_NOSUB) != 0) {
			*rc = floe_errorf(err, ERRCODE_INVALID_REGULAR_EXPRESSION,
					  "invalid regular expression in PATTERN: %s", pat);
			goto done;
		}
		have_re = true;
	}
	if ((*rc = stage_list(s, path, a, &f, &n, err)) != FLOE_OK)
		goto done;
	types[0] = type_make(TYPE_TEXT);
	types[1] = type_make(TYPE_INT64);
	types[2] = type_make(TYPE_TIMESTAMPTZ);
	b = batch_new(a, 3, types, (uint32_t)(n > 0 ? n : 1));
	for (i = 0, k = 0; i < n; i++) {
		if (have_re && regexec(&re, f[i].rel, 0, NULL, 0) != 0)
			continue;
		vector_set_string(&b->cols[0], (uint32_t)k, f[i].rel, (uint32_t)strlen(f[i].rel));
		((int64_t *)b->cols[1].data)[k] = (int64_t)f[i].size;
		((int64_t *)b->cols[2].data)[k] = f[i].mtime_ms * 1000;
		k++;
	}
	b->count = (uint32_t)k;
	*rc = FLOE_OK;
	if (sink && sink->columns && sink->columns(sink->ctx, 3, names, types) != 0)
		*rc = floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (*rc == FLOE_OK && k > 0 && sink && sink->batch && sink->batch(sink->ctx, b) != 0)
		*rc = floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (*rc == FLOE_OK) {
		char tag[32];
		snprintf(tag, sizeof tag, "LIST %d", k);
		*rc = engine_complete(sink, tag);
	}
	goto done;
syntax:
	*rc = floe_errorf(err, ERRCODE_SYNTAX_ERROR,
			  "LIST takes a stage location and an optional PATTERN = 'regex': LIST @stage/path");
done:
	if (have_re)
		regfree(&re);
	arena_free(a);
	return true;
}

/* ---- an object's footer ---------------------------------------------------- */

typedef struct Unmap {
	void *p;
	size_t n;
} Unmap;

static void
unmap_buf(void *arg)
{
	Unmap *u = arg;
	munmap(u->p, u->n);
}

/* A zeroed buffer of the object's size (anonymous pages: nothing is
 * touched until copied in) holding its first 4 bytes and its footer, as
 * exec/scan.c reads a large object; *whole when that is all of it. */
int
stage_read_sparse(FileIO *io, const char *path, uint64_t size, Arena *a, const uint8_t **data, bool *whole,
		  floe_error *err)
{
	uint64_t tail = size - 4 < 65536 ? size - 4 : 65536;
	FileIORange r[2] = {{0, 4, NULL}, {size - tail, tail, NULL}};
	uint8_t *buf;
	uint32_t flen;
	Unmap *um;

	if (size < 12)
		return floe_errorf(err, ERRCODE_BAD_COPY_FILE_FORMAT,
				   "file \"%s\" is not a Parquet file (%llu bytes)", path, (unsigned long long)size);
	buf = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (buf == MAP_FAILED)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory reading \"%s\"", path);
	um = ARENA_NEW(a, Unmap);
	um->p = buf;
	um->n = (size_t)size;
	arena_on_reset(a, unmap_buf, um);
	*whole = tail + 4 >= size;     /* a small object: all of it is read now */
	TRY(fileio_read_ranges(io, path, r, 2, a, err));
	memcpy(buf, r[0].data, 4);
	memcpy(buf + size - tail, r[1].data, (size_t)tail);
	flen = (uint32_t)buf[size - 8] | (uint32_t)buf[size - 7] << 8 | (uint32_t)buf[size - 6] << 16 |
	       (uint32_t)buf[size - 5] << 24;
	if ((uint64_t)flen + 8 > tail && (uint64_t)flen + 12 <= size) {
		FileIORange fr = {size - 8 - flen, flen, NULL};
		TRY(fileio_read_ranges(io, path, &fr, 1, a, err));
		memcpy(buf + fr.off, fr.data, flen);
	}
	*data = buf;
	return FLOE_OK;
}
