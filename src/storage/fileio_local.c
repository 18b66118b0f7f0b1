/*
 * fileio_local.c — the FileIO (see storage/fileio.h): path resolution, the
 * local-disk backend, and the dispatch of s3:// / s3a:// paths to the S3
 * client (storage/fileio_s3.c, storage/s3.h) after the prefix maps.
 *
 * Paths arrive as Iceberg metadata holds them: "file:///abs", "file:/abs",
 * "file://rel" (duckdb-iceberg writes relative URIs that way), "/abs", or a
 * path relative to the FileIO root.  Prefix maps (fileio_map_prefix) are
 * tried on the path as given and again after the file: scheme is stripped;
 * the longest matching prefix wins.
 *
 * Reads mmap the whole file; the mapping is released by an arena reset
 * callback, so the bytes live exactly as long as the caller's arena.
 *
 * Writes never replace an object (Iceberg files are immutable):
 *   1. create missing parent folders
 *   2. write the bytes to "<dir>/.<name>.<pid>.<n>.tmp", fsync it
 *   3. link(tmp, target): EEXIST -> 58P02, the target is untouched
 *   4. unlink tmp, fsync the folder
 * A crash leaves at worst a stray ".tmp" file, never a partial target;
 * fileio_sweep_tmp (at `floe serve` start) removes the stale ones.
 *
 * Confined (fileio_confine, floe serve): a local path's real path
 * (confined_resolve) must be under one of the io's folders, and the file is
 * reached through descriptors opened beneath that folder without following
 * a symbolic link (confined_open_dir, then openat / linkat / renameat /
 * unlinkat / fstatat with O_NOFOLLOW / AT_SYMLINK_NOFOLLOW): a folder
 * swapped for a link leads nowhere, 42501.  Unconfined (the embedded shell):
 * paths are opened as given.
 *
 * INTERFACE ROUTINES
 *   fileio_local_new(root) / fileio_free(io)
 *   fileio_confine(io, dir, err) / fileio_confine_prefix(io, dir, prefix, err)
 *   fileio_map_prefix(io, from, to)
 *   fileio_resolve(io, path, arena)
 *   fileio_sweep_tmp(root, now)
 *   fileio_map_fd(fd, path, arena, &data, &len, err)
 *   vtable: read, write, size, exists, remove, free
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <pthread.h>
#include <time.h>
#include <dirent.h>
#include <unistd.h>
#include "storage/confined_open.h"
#include "storage/fileio.h"
#include "storage/s3.h"

static atomic_uint tmp_counter;

/* ---- path resolution -------------------------------------------------- */

/* Longest map whose `from` prefixes p, or NULL. */
static const FileIOMap *
find_map(FileIO *io, const char *p)
{
	const FileIOMap *best = NULL;
	size_t bestlen = 0;
	int i;

	for (i = 0; i < io->nmaps; i++) {
		size_t n = strlen(io->maps[i].from);
		if (n >= bestlen && strncmp(p, io->maps[i].from, n) == 0) {
			best = &io->maps[i];
			bestlen = n;
		}
	}
	return best;
}

static char *
apply_map(FileIO *io, const char *p, Arena *a)
{
	const FileIOMap *m = find_map(io, p);
	const char *rest;

	if (!m)
		return NULL;
	rest = p + strlen(m->from);
	if (*m->to && m->to[strlen(m->to) - 1] != '/' && *rest && *rest != '/')
		return arena_sprintf(a, "%s/%s", m->to, rest);
	if (*m->to && m->to[strlen(m->to) - 1] == '/' && *rest == '/')
		rest++;
	return arena_sprintf(a, "%s%s", m->to, rest);
}

static const char *
strip_scheme(const char *p)
{
	if (strncmp(p, "file://", 7) == 0)
		return p + 7;          /* "file:///abs" -> "/abs"; "file://rel" -> "rel" */
	if (strncmp(p, "file:", 5) == 0)
		return p + 5;          /* "file:/abs" */
	return p;
}

/* "scheme://..." with a URI scheme of letters, digits, + - . */
static bool
has_scheme(const char *p)
{
	const char *c = strstr(p, "://"), *q;

	if (!c || c == p)
		return false;
	for (q = p; q < c; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		      (*q >= '0' && *q <= '9') || *q == '+' || *q == '-' || *q == '.'))
			return false;
	return true;
}

char *
fileio_resolve(FileIO *io, const char *path, Arena *a)
{
	char *m;
	const char *p;

	if ((m = apply_map(io, path, a)) != NULL)
		path = m;
	p = strip_scheme(path);
	if (!m && p != path && (m = apply_map(io, p, a)) != NULL)
		p = strip_scheme(m);
	if (p[0] == '/' || !io->root || !io->root[0] || has_scheme(p))
		return arena_strdup(a, p);
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return arena_sprintf(a, "%s/%s", io->root, p);
}

/* ---- helpers ---------------------------------------------------------- */

/* A resolved path that still has a scheme ("s3://b/k", "hdfs://h/p") cannot
 * be served from local disk: 0A000 naming the way out. */
static int
check_local(const char *orig, const char *resolved, floe_error *err)
{
	const char *c = strstr(resolved, "://");

	if (!has_scheme(resolved))
		return FLOE_OK;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
		    "cannot access \"%s\": storage scheme \"%.*s\" is not supported by the "
		    "local file-io", orig, (int)(c - resolved), resolved);
	return floe_error_hint(err, "Map the path prefix to a local folder.");
}

static int
io_err(floe_error *err, const char *what, const char *path, int e)
{
	return floe_errorf(err, e == ENOENT ? ERRCODE_UNDEFINED_FILE : ERRCODE_IO_ERROR,
			   "could not %s file \"%s\": %s", what, path, strerror(e));
}

/* mkdir -p of the folder holding `path`. */
static int
make_parents(const char *path, floe_error *err)
{
	char buf[4096];
	size_t n = strlen(path);
	char *s;

	if (n >= sizeof buf)
		return floe_errorf(err, ERRCODE_IO_ERROR, "path too long: \"%s\"", path);
	memcpy(buf, path, n + 1);
	s = strrchr(buf, '/');
	if (!s || s == buf)
		return FLOE_OK;
	*s = 0;
	for (s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return io_err(err, "create folder for", path, errno);
		*s = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return io_err(err, "create folder for", path, errno);
	return FLOE_OK;
}

static void
fsync_dir(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);
	char *s;
	int fd;

	if (n >= sizeof buf)
		return;
	memcpy(buf, path, n + 1);
	s = strrchr(buf, '/');
	if (!s)
		return;
	if (s == buf)
		s[1] = 0;
	else
		*s = 0;
	fd = open(buf, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* ---- confinement (floe serve: fileio_confine) ------------------------- */

int
fileio_confine_prefix(FileIO *io, const char *dir, const char *prefix, floe_error *err)
{
	char real[PATH_MAX];

	if (!realpath(dir, real))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "could not resolve folder \"%s\": %s",
				   dir, strerror(errno));
	io->confine = xrealloc(io->confine, sizeof *io->confine * (size_t)(io->nconfine + 1));
	io->confine_prefix = xrealloc(io->confine_prefix, sizeof *io->confine_prefix * (size_t)(io->nconfine + 1));
	io->confine[io->nconfine] = xstrdup(real);
	io->confine_prefix[io->nconfine++] = prefix ? xstrdup(prefix) : NULL;
	return FLOE_OK;
}

int
fileio_confine(FileIO *io, const char *dir, floe_error *err)
{
	return fileio_confine_prefix(io, dir, NULL, err);
}

static int
outside(const char *path, floe_error *err)
{
	floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE,
		    "could not access file \"%s\": outside the warehouse and the allowed directories", path);
	return floe_error_hint(err, "Server-side files must resolve (after symbolic links) inside the "
			       "warehouse or a directory given with floe serve --allow-dir.");
}

/* A confined io's local path p: a descriptor of its folder, opened beneath
 * the confining folder its real path is in (confined_open_dir: no
 * symbolic link followed, missing folders made when create), and its last
 * component in name.  -1 with err set: 42501 when p's real path is outside
 * every confining folder or a component became a symbolic link since it
 * was resolved, else the I/O error (`what` names the operation). */
static int
confined_dir(FileIO *io, const char *orig, const char *p, bool create, const char *what, char *name,
	     floe_error *err)
{
	char real[PATH_MAX], dir[PATH_MAX];
	const char *root = NULL, *rel = NULL, *slash;
	size_t best = 0;
	int i, fd;

	if (!confined_resolve(p, real))
		return io_err(err, what, orig, errno ? errno : ENAMETOOLONG), -1;
	for (i = 0; i < io->nconfine; i++) {
		const char *r = io->confine[i];
		size_t n = strlen(r);
		if (n == 1 && r[0] == '/')
			n = 0;
		const char *pre = io->confine_prefix[i];
		if (n >= best && !strncmp(real, r, n) && real[n] == '/' && real[n + 1] &&
		    (!pre || !strncmp(real + n + 1, pre, strlen(pre)))) {
			root = r;
			rel = real + n + 1;
			best = n;
		}
	}
	if (!root)
		return outside(orig, err), -1;
	slash = strrchr(rel, '/');
	snprintf(name, NAME_MAX + 1, "%s", slash ? slash + 1 : rel);
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - rel) : 0, rel);
	fd = confined_open_dir(root, dir, create);
	if (fd < 0) {
		if (errno == ELOOP || errno == EXDEV)
			outside(orig, err);
		else
			io_err(err, what, orig, errno);
	}
	return fd;
}

/* openat beneath a confined_dir descriptor, the last component not
 * followed either; -1 with err set */
static int
confined_file(FileIO *io, const char *orig, const char *p, int flags, mode_t mode, const char *what,
	      floe_error *err)
{
	char name[NAME_MAX + 1];
	int dfd = confined_dir(io, orig, p, false, what, name, err), fd, e;

	if (dfd < 0)
		return -1;
	fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	e = errno;
	close(dfd);
	if (fd < 0) {
		if (e == ELOOP)
			outside(orig, err);
		else
			io_err(err, what, orig, e);
	}
	return fd;
}

/* ---- object storage ------------------------------------------------- */

static pthread_mutex_t s3_mu = PTHREAD_MUTEX_INITIALIZER;

/* The S3 client of this FileIO's configuration, made on first use. */
static S3Client *
s3_of(FileIO *io)
{
	S3Client *c = atomic_load(&io->s3);
	S3Config cfg;

	if (c)
		return c;
	pthread_mutex_lock(&s3_mu);
	if (io->s3cfg)
		cfg = *io->s3cfg;
	else
		s3_config_init(&cfg);
	c = s3_client_get(&cfg);
	atomic_store(&io->s3, c);
	pthread_mutex_unlock(&s3_mu);
	return c;
}

bool
fileio_is_remote(const char *path)
{
	return s3_is_uri(path);
}

int
fileio_set_property(FileIO *io, const char *key, const char *value, floe_error *err)
{
	pthread_mutex_lock(&s3_mu);
	if (!io->s3cfg) {
		io->s3cfg = xmalloc(sizeof *io->s3cfg);
		s3_config_init(io->s3cfg);
	}
	if (s3_config_set(io->s3cfg, key, value, err) != FLOE_OK) {
		pthread_mutex_unlock(&s3_mu);
		return FLOE_ERR;
	}
	atomic_store(&io->s3, NULL);
	pthread_mutex_unlock(&s3_mu);
	return FLOE_OK;
}

void
fileio_stats(FileIOStats *out)
{
	S3Stats s;

	s3_stats(&s);
	out->requests = s.requests;
	out->gets = s.gets;
	out->puts = s.puts;
	out->heads = s.heads;
	out->deletes = s.deletes;
	out->lists = s.lists;
	out->retries = s.retries;
	out->bytes_in = s.bytes_in;
	out->bytes_out = s.bytes_out;
	out->cache_hits = s.cache_hits;
}

/* ---- vtable ----------------------------------------------------------- */

typedef struct Mapping {
	void *addr;
	size_t len;
} Mapping;

static void
unmap(void *arg)
{
	Mapping *m = arg;
	munmap(m->addr, m->len);
}

int
fileio_map_fd(int fd, const char *path, Arena *arena, const uint8_t **data, size_t *len,
	      floe_error *err)
{
	static const uint8_t empty[1];
	struct stat st;
	void *addr;
	Mapping *m;

	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return io_err(err, "stat", path, e);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return floe_errorf(err, ERRCODE_IO_ERROR, "\"%s\" is not a regular file", path);
	}
	if (st.st_size == 0) {
		close(fd);
		*data = empty;
		*len = 0;
		return FLOE_OK;
	}
	addr = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (addr == MAP_FAILED)
		return io_err(err, "map", path, errno);
	m = ARENA_NEW(arena, Mapping);
	m->addr = addr;
	m->len = (size_t)st.st_size;
	arena_on_reset(arena, unmap, m);
	*data = addr;
	*len = m->len;
	return FLOE_OK;
}

static int
local_read(FileIO *io, const char *path, Arena *arena, const uint8_t **data,
	   size_t *len, floe_error *err)
{
	char *p = fileio_resolve(io, path, arena);
	int fd;

	if (s3_is_uri(p))
		return s3_get(s3_of(io), p, 0, -1, arena, data, len, err);
	TRY(check_local(path, p, err));
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer
	 * forever; it opens at once, and fileio_map_fd refuses it (as a
	 * device or a folder); regular files ignore the flag */
	if (io->nconfine) {
		if ((fd = confined_file(io, path, p, O_RDONLY | O_NONBLOCK, 0, "open", err)) < 0)
			return FLOE_ERR;
		return fileio_map_fd(fd, path, arena, data, len, err);
	}
	fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return io_err(err, "open", path, errno);
	return fileio_map_fd(fd, path, arena, data, len, err);
}

/* local_write beneath a confining folder: the folders made and the file
 * created, linked and unlinked through descriptors, no link followed */
static int
confined_write(FileIO *io, const char *path, const char *p, const void *data, size_t len,
	       floe_error *err)
{
	char name[NAME_MAX + 1], tmp[NAME_MAX + 64];
	const uint8_t *b = data;
	struct stat st;
	size_t off = 0;
	int dfd = confined_dir(io, path, p, true, "create", name, err), fd, rc = FLOE_ERR;

	if (dfd < 0)
		return FLOE_ERR;
	snprintf(tmp, sizeof tmp, ".%s.%d.%u.tmp", name, (int)getpid(), atomic_fetch_add(&tmp_counter, 1));
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		floe_errorf(err, ERRCODE_DUPLICATE_FILE, "file \"%s\" already exists", path);
		goto out;
	}
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
	if (fd < 0) {
		io_err(err, "create", path, errno);
		goto out;
	}
	while (off < len) {
		ssize_t w = write(fd, b + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			io_err(err, "write", path, errno);
			close(fd);
			unlinkat(dfd, tmp, 0);
			goto out;
		}
		off += (size_t)w;
	}
	if (fsync(fd) != 0) {
		io_err(err, "fsync", path, errno);
		close(fd);
		unlinkat(dfd, tmp, 0);
		goto out;
	}
	close(fd);
	if (linkat(dfd, tmp, dfd, name, 0) != 0) {
		int e = errno;
		unlinkat(dfd, tmp, 0);
		if (e == EEXIST)
			floe_errorf(err, ERRCODE_DUPLICATE_FILE, "file \"%s\" already exists", path);
		else
			io_err(err, "link", path, e);
		goto out;
	}
	unlinkat(dfd, tmp, 0);
	(void)fsync(dfd);
	rc = FLOE_OK;
out:
	close(dfd);
	return rc;
}

static int
local_write(FileIO *io, const char *path, const void *data, size_t len,
	    floe_error *err)
{
	Arena *a = arena_new(0);
	char *p = fileio_resolve(io, path, a);
	char *slash, *tmp;
	const uint8_t *b = data;
	size_t off = 0;
	int fd, rc = FLOE_ERR;

	if (s3_is_uri(p)) {
		rc = s3_put(s3_of(io), p, data, len, false, err);
		goto out;
	}
	if (check_local(path, p, err) != FLOE_OK)
		goto out;
	if (io->nconfine) {
		rc = confined_write(io, path, p, data, len, err);
		goto out;
	}
	if (make_parents(p, err) != FLOE_OK)
		goto out;
	slash = strrchr(p, '/');
	tmp = slash
		? arena_sprintf(a, "%.*s/.%s.%d.%u.tmp", (int)(slash - p), p, slash + 1,
				(int)getpid(), atomic_fetch_add(&tmp_counter, 1))
		: arena_sprintf(a, ".%s.%d.%u.tmp", p, (int)getpid(),
				atomic_fetch_add(&tmp_counter, 1));
	if (access(p, F_OK) == 0) {
		floe_errorf(err, ERRCODE_DUPLICATE_FILE, "file \"%s\" already exists", path);
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		io_err(err, "create", path, errno);
		goto out;
	}
	while (off < len) {
		ssize_t w = write(fd, b + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			io_err(err, "write", path, errno);
			close(fd);
			unlink(tmp);
			goto out;
		}
		off += (size_t)w;
	}
	if (fsync(fd) != 0) {
		io_err(err, "fsync", path, errno);
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(fd);
	if (link(tmp, p) != 0) {
		int e = errno;
		unlink(tmp);
		if (e == EEXIST)
			floe_errorf(err, ERRCODE_DUPLICATE_FILE, "file \"%s\" already exists", path);
		else
			io_err(err, "link", path, e);
		goto out;
	}
	unlink(tmp);
	fsync_dir(p);
	rc = FLOE_OK;
out:
	arena_free(a);
	return rc;
}

static int
local_size(FileIO *io, const char *path, uint64_t *size, floe_error *err)
{
	Arena *a = arena_new(0);
	struct stat st;
	int rc = FLOE_OK;
	char *p = fileio_resolve(io, path, a);

	if (s3_is_uri(p)) {
		rc = s3_head(s3_of(io), p, size, err);
	} else if (io->nconfine) {
		char name[NAME_MAX + 1];
		int dfd = confined_dir(io, path, p, false, "stat", name, err);
		if (dfd < 0)
			rc = FLOE_ERR;
		else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			rc = io_err(err, "stat", path, errno);
		else if (S_ISLNK(st.st_mode))
			rc = outside(path, err);
		else
			*size = (uint64_t)st.st_size;
		if (dfd >= 0)
			close(dfd);
	} else if (stat(p, &st) != 0)
		rc = io_err(err, "stat", path, errno);
	else
		*size = (uint64_t)st.st_size;
	arena_free(a);
	return rc;
}

static bool
local_exists(FileIO *io, const char *path)
{
	Arena *a = arena_new(0);
	char *p = fileio_resolve(io, path, a);
	floe_error ignore;
	bool ok;

	if (s3_is_uri(p)) {
		ok = s3_head(s3_of(io), p, NULL, &ignore) == FLOE_OK;
	} else if (io->nconfine) {
		char name[NAME_MAX + 1];
		struct stat st;
		int dfd = confined_dir(io, path, p, false, "stat", name, &ignore);
		ok = dfd >= 0 && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode);
		if (dfd >= 0)
			close(dfd);
	} else {
		ok = access(p, F_OK) == 0;
	}
	arena_free(a);
	return ok;
}

static int
local_remove(FileIO *io, const char *path, floe_error *err)
{
	Arena *a = arena_new(0);
	int rc = FLOE_OK;
	char *p = fileio_resolve(io, path, a);

	if (s3_is_uri(p)) {
		rc = s3_delete(s3_of(io), p, err);
	} else if (io->nconfine) {
		char name[NAME_MAX + 1];
		int dfd = confined_dir(io, path, p, false, "remove", name, err);
		if (dfd < 0)
			rc = FLOE_ERR;
		else if (unlinkat(dfd, name, 0) != 0)
			rc = io_err(err, "remove", path, errno);
		if (dfd >= 0)
			close(dfd);
	} else if (unlink(p) != 0) {
		rc = io_err(err, "remove", path, errno);
	}
	arena_free(a);
	return rc;
}

/* ---- listing (remove_orphan_files) ------------------------------------ */

typedef struct ListOut {
	Arena *a;
	FileInfo *v;
	int n, cap;
} ListOut;

static int
list_dir(const char *dir, int depth, ListOut *o, floe_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = FLOE_OK;

	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? FLOE_OK : io_err(err, "list", dir, errno);
	if (depth > 64) {
		closedir(d);
		return floe_errorf(err, ERRCODE_IO_ERROR, "folder \"%s\" is nested too deeply", dir);
	}
	while (rc == FLOE_OK && (de = readdir(d)) != NULL) {
		struct stat st;
		char *p;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = arena_sprintf(o->a, "%s/%s", dir, de->d_name);
		if (lstat(p, &st) != 0)
			continue;                    /* gone meanwhile */
		if (S_ISDIR(st.st_mode)) {
			rc = list_dir(p, depth + 1, o, err);
		} else if (S_ISREG(st.st_mode)) {
			if (o->n == o->cap) {
				int cap = o->cap ? o->cap * 2 : 64;
				o->v = arena_realloc(o->a, o->v, sizeof *o->v * (size_t)o->cap,
						     sizeof *o->v * (size_t)cap);
				o->cap = cap;
			}
			o->v[o->n].path = p;
			o->v[o->n].size = (uint64_t)st.st_size;
			o->v[o->n].mtime_ms = (int64_t)st.st_mtim.tv_sec * 1000 +
					      st.st_mtim.tv_nsec / 1000000;
			o->n++;
		}
	}
	closedir(d);
	return rc;
}

static int
local_list(FileIO *io, const char *folder, Arena *arena, FileInfo **files, int *n, floe_error *err)
{
	ListOut o = { arena, NULL, 0, 0 };
	char *dir = fileio_resolve(io, folder, arena);
	size_t l = strlen(dir);

	if (s3_is_uri(dir)) {
		/* objects under "<folder>/", aged by their LastModified; an
		 * object listed without one counts as new (never an old orphan) */
		char **keys;
		uint64_t *sizes;
		int64_t *mtimes = NULL;
		int i, k;
		struct timespec now;
		while (l > 1 && dir[l - 1] == '/')
			dir[--l] = 0;
		TRY(s3_list(s3_of(io), arena_sprintf(arena, "%s/", dir), arena, &keys, &sizes, &mtimes, &k,
			    err));
		clock_gettime(CLOCK_REALTIME, &now);
		o.v = arena_alloc(arena, sizeof *o.v * (size_t)(k + 1));
		for (i = 0; i < k; i++) {
			o.v[i].path = keys[i];
			o.v[i].size = sizes[i];
			o.v[i].mtime_ms = mtimes[i] >= 0 ? mtimes[i] : (int64_t)now.tv_sec * 1000;
		}
		*files = o.v;
		*n = k;
		return FLOE_OK;
	}
	TRY(check_local(folder, dir, err));
	while (l > 1 && dir[l - 1] == '/')
		dir[--l] = 0;
	if (io->nconfine) {
		/* the folder itself reached beneath a confining folder without
		 * a link (list_dir skips the links inside: lstat) */
		char name[NAME_MAX + 1];
		floe_error e;
		int dfd;
		floe_error_clear(&e);
		dfd = confined_dir(io, folder, arena_sprintf(arena, "%s/.list", dir), false, "list", name, &e);
		if (dfd >= 0) {
			close(dfd);
		} else if (!floe_error_is(&e, ERRCODE_UNDEFINED_FILE)) {
			*err = e;
			return FLOE_ERR;
		} else {
			*files = NULL;     /* no such folder: nothing in it */
			*n = 0;
			return FLOE_OK;
		}
	}
	TRY(list_dir(dir, 0, &o, err));
	*files = o.v;
	*n = o.n;
	return FLOE_OK;
}

int
fileio_list(FileIO *io, const char *folder, Arena *arena, FileInfo **files, int *n, floe_error *err)
{
	if (!io->vt->list)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "this storage cannot list folder \"%s\"", folder);
	return io->vt->list(io, folder, arena, files, n, err);
}

static void
local_free(FileIO *io)
{
	int i;

	for (i = 0; i < io->nmaps; i++) {
		free(io->maps[i].from);
		free(io->maps[i].to);
	}
	free(io->maps);
	free(io->root);
	free(io->s3cfg);
	free(io->local_dir);
	for (i = 0; i < io->nconfine; i++) {
		free(io->confine[i]);
		free(io->confine_prefix[i]);
	}
	free(io->confine);
	free(io->confine_prefix);
	free(io);
}

static const FileIOVT local_vt = {
	.read = local_read,
	.write = local_write,
	.size = local_size,
	.exists = local_exists,
	.remove = local_remove,
	.free = local_free,
	.list = local_list,
};

FileIO *
fileio_local_new(const char *root)
{
	FileIO *io = xcalloc(1, sizeof *io);
	size_t n;

	io->vt = &local_vt;
	io->root = xstrdup(root && *root ? root : ".");
	n = strlen(io->root);
	while (n > 1 && io->root[n - 1] == '/')
		io->root[--n] = 0;
	return io;
}

void
fileio_free(FileIO *io)
{
	if (io)
		io->vt->free(io);
}

void
fileio_map_prefix(FileIO *io, const char *from, const char *to)
{
	io->maps = xrealloc(io->maps, sizeof(FileIOMap) * (size_t)(io->nmaps + 1));
	io->maps[io->nmaps].from = xstrdup(from);
	io->maps[io->nmaps].to = xstrdup(to);
	io->nmaps++;
}

/* ---- replace, ranges, list ------------------------------------------ */

int
fileio_replace(FileIO *io, const char *path, const void *data, size_t len, floe_error *err)
{
	Arena *a = arena_new(0);
	char *p = fileio_resolve(io, path, a), *tmp;
	int rc = FLOE_ERR;

	if (s3_is_uri(p)) {
		rc = s3_put(s3_of(io), p, data, len, true, err);
		arena_free(a);
		return rc;
	}
	/* local: a new temporary file, renamed over the target */
	tmp = arena_sprintf(a, "%s.%d.%u.replace", p, (int)getpid(), atomic_fetch_add(&tmp_counter, 1));
	if (local_write(io, tmp, data, len, err) == FLOE_OK) {
		if (io->nconfine) {
			/* renamed within its folder, opened beneath the
			 * confining one (the name part of tmp: name + suffix) */
			char name[NAME_MAX + 1];
			const char *tname = strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp;
			int dfd = confined_dir(io, path, p, false, "rename", name, err);
			if (dfd >= 0) {
				if (renameat(dfd, tname, dfd, name) == 0)
					rc = FLOE_OK;
				else
					io_err(err, "rename", path, errno);
				unlinkat(dfd, tname, 0);
				close(dfd);
			}
		} else {
			if (rename(tmp, p) == 0)
				rc = FLOE_OK;
			else
				io_err(err, "rename", path, errno);
			unlink(tmp);
		}
	}
	arena_free(a);
	return rc;
}

int
fileio_read_ranges(FileIO *io, const char *path, FileIORange *ranges, int n, Arena *arena,
		   floe_error *err)
{
	Arena *a = arena_new(0);
	char *p = fileio_resolve(io, path, a);
	const uint8_t *data;
	size_t len;
	int i, rc = FLOE_OK;

	if (s3_is_uri(p)) {
		S3Range *r = arena_alloc(a, sizeof(S3Range) * (size_t)(n + 1));
		for (i = 0; i < n; i++) {
			r[i].off = ranges[i].off;
			r[i].len = ranges[i].len;
		}
		rc = s3_get_ranges(s3_of(io), p, r, n, arena, err);
		for (i = 0; i < n && rc == FLOE_OK; i++)
			ranges[i].data = r[i].data;
	} else if ((rc = local_read(io, path, arena, &data, &len, err)) == FLOE_OK) {
		for (i = 0; i < n; i++) {
			if (ranges[i].off > len || ranges[i].len > len - ranges[i].off) {
				rc = floe_errorf(err, ERRCODE_IO_ERROR,
						 "could not read file \"%s\": range past its end", path);
				break;
			}
			ranges[i].data = data + ranges[i].off;
		}
	}
	arena_free(a);
	return rc;
}

/* ---- stale temporary files ------------------------------------------ */

/*
 * A temporary file of a write that never finished: "." name "." pid "."
 * n ".tmp" (local_write), or users.tmp<pid> / roles.tmp<pid> at the root
 * (server/users.c).  It is stale when it is older than
 * FILEIO_TMP_STALE_SECONDS, or older than FILEIO_TMP_DEAD_SECONDS and its
 * process is gone on this host (a write runs for seconds; another host's
 * process, on a shared folder, only meets the first rule).
 */
static time_t sweep_now;
static const char *sweep_root;
static int sweep_removed;

static bool
digits(const char *p, const char *end)
{
	if (p >= end)
		return false;
	for (; p < end; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* The pid of a temporary file's name, or -1 when it is not one. */
static long
tmp_pid(const char *dir, size_t dirlen, const char *base)
{
	size_t n = strlen(base);
	const char *end, *dot2, *dot1;

	if (base[0] == '.' && n > 4 && !strcmp(base + n - 4, ".tmp")) {
		end = base + n - 4;                     /* ".<name>.<pid>.<n>" */
		for (dot2 = end - 1; dot2 > base && *dot2 != '.'; dot2--)
			;
		for (dot1 = dot2 - 1; dot1 > base && *dot1 != '.'; dot1--)
			;
		if (dot1 > base && digits(dot2 + 1, end) && digits(dot1 + 1, dot2))
			return strtol(dot1 + 1, NULL, 10);
		return -1;
	}
	if (dirlen == strlen(sweep_root) && !strncmp(dir, sweep_root, dirlen) &&
	    (!strncmp(base, "users.tmp", 9) || !strncmp(base, "roles.tmp", 9)) &&
	    digits(base + 9, base + n))
		return strtol(base + 9, NULL, 10);
	return -1;
}

static int
sweep_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	long pid;
	double age;
	bool gone;

	if (flag != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	pid = tmp_pid(path, (size_t)(ftw->base > 0 ? ftw->base - 1 : 0), path + ftw->base);
	if (pid < 0 || pid == (long)getpid())
		return 0;
	age = difftime(sweep_now, st->st_mtime);
	gone = pid > 0 && pid <= 0x7fffffff && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
	if (age > FILEIO_TMP_STALE_SECONDS || (gone && age > FILEIO_TMP_DEAD_SECONDS))
		if (unlink(path) == 0)
			sweep_removed++;
	return 0;
}

int
fileio_sweep_tmp(const char *root, time_t now)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	int n;

	pthread_mutex_lock(&mu);              /* nftw's callback has no argument */
	sweep_now = now;
	sweep_root = root;
	sweep_removed = 0;
	(void)nftw(root, sweep_one, 16, FTW_PHYS | FTW_MOUNT);
	n = sweep_removed;
	pthread_mutex_unlock(&mu);
	return n;
}
