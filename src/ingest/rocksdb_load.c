/*
 * rocksdb_load.c — the RocksDB C functions buffer.c calls, forwarding to
 * librocksdb opened by rdb_load (rocksdb_load.h).
 *
 * FLOE_ROCKSDB_SONAME (the Makefile passes the name the linker would have
 * recorded, e.g. librocksdb.so.7.8) is the library opened.  A function
 * called before rdb_load succeeded aborts with a message: ibuf_open calls
 * rdb_load first, and nothing else reaches RocksDB.
 *
 * Invariants:
 *   1. the library is opened at most once per process (pthread_once) and
 *      never closed; each function's address is looked up once (an
 *      atomic pointer per function, so concurrent first calls agree).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <rocksdb/c.h>
#include "ingest/rocksdb_load.h"

#ifndef FLOE_ROCKSDB_SONAME
#define FLOE_ROCKSDB_SONAME "librocksdb.so"   /* the development link */
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *lib;
static char load_error[512];

static void
load(void)
{
	lib = dlopen(FLOE_ROCKSDB_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(load_error, sizeof load_error, "%s", e ? e : FLOE_ROCKSDB_SONAME);
	}
}

int
rdb_load(floe_error *err)
{
	pthread_once(&once, load);
	if (!lib)
		return floe_errorf(err, ERRCODE_SYSTEM_ERROR,
				   "the insert buffer needs RocksDB, which cannot be loaded: %s", load_error);
	return FLOE_OK;
}

/* The library's function name (looked up once into *slot). */
static void *
sym(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (f)
		return f;
	pthread_once(&once, load);
	if (!lib || !(f = dlsym(lib, name))) {
		fprintf(stderr, "floe: RocksDB function %s is not available: %s\n", name,
			lib ? "not in " FLOE_ROCKSDB_SONAME : load_error);
		abort();
	}
	__atomic_store_n(slot, f, __ATOMIC_RELEASE);
	return f;
}

/* R: a function returning ret; V: returning void.  params and args in
 * parentheses. */
#define R(ret, name, params, args)                  \
	ret name params                             \
	{                                           \
		static void *fp;                    \
		ret (*fn) params = sym(&fp, #name); \
		return fn args;                     \
	}
#define V(name, params, args)                        \
	void name params                             \
	{                                            \
		static void *fp;                     \
		void (*fn) params = sym(&fp, #name); \
		fn args;                             \
	}

typedef unsigned char uchar;

R(rocksdb_t *, rocksdb_open, (const rocksdb_options_t *o, const char *name, char **errptr),
  (o, name, errptr))
R(rocksdb_t *, rocksdb_open_as_secondary,
  (const rocksdb_options_t *o, const char *name, const char *secondary, char **errptr),
  (o, name, secondary, errptr))
V(rocksdb_close, (rocksdb_t *db), (db))
V(rocksdb_try_catch_up_with_primary, (rocksdb_t *db, char **errptr), (db, errptr))
V(rocksdb_free, (void *p), (p))
R(char *, rocksdb_get,
  (rocksdb_t *db, const rocksdb_readoptions_t *o, const char *k, size_t kl, size_t *vl,
   char **errptr),
  (db, o, k, kl, vl, errptr))
V(rocksdb_put,
  (rocksdb_t *db, const rocksdb_writeoptions_t *o, const char *k, size_t kl, const char *v,
   size_t vl, char **errptr),
  (db, o, k, kl, v, vl, errptr))
V(rocksdb_write,
  (rocksdb_t *db, const rocksdb_writeoptions_t *o, rocksdb_writebatch_t *b, char **errptr),
  (db, o, b, errptr))

R(rocksdb_options_t *, rocksdb_options_create, (void), ())
V(rocksdb_options_destroy, (rocksdb_options_t *o), (o))
V(rocksdb_options_set_create_if_missing, (rocksdb_options_t *o, uchar v), (o, v))
V(rocksdb_options_set_info_log_level, (rocksdb_options_t *o, int v), (o, v))
V(rocksdb_options_set_keep_log_file_num, (rocksdb_options_t *o, size_t v), (o, v))
V(rocksdb_options_set_max_open_files, (rocksdb_options_t *o, int v), (o, v))
V(rocksdb_options_set_write_buffer_size, (rocksdb_options_t *o, size_t v), (o, v))
R(rocksdb_readoptions_t *, rocksdb_readoptions_create, (void), ())
V(rocksdb_readoptions_destroy, (rocksdb_readoptions_t *o), (o))
R(rocksdb_writeoptions_t *, rocksdb_writeoptions_create, (void), ())
V(rocksdb_writeoptions_destroy, (rocksdb_writeoptions_t *o), (o))
V(rocksdb_writeoptions_set_sync, (rocksdb_writeoptions_t *o, uchar v), (o, v))

R(rocksdb_iterator_t *, rocksdb_create_iterator,
  (rocksdb_t *db, const rocksdb_readoptions_t *o), (db, o))
V(rocksdb_iter_destroy, (rocksdb_iterator_t *it), (it))
V(rocksdb_iter_get_error, (const rocksdb_iterator_t *it, char **errptr), (it, errptr))
R(const char *, rocksdb_iter_key, (const rocksdb_iterator_t *it, size_t *kl), (it, kl))
R(const char *, rocksdb_iter_value, (const rocksdb_iterator_t *it, size_t *vl), (it, vl))
V(rocksdb_iter_next, (rocksdb_iterator_t *it), (it))
V(rocksdb_iter_seek, (rocksdb_iterator_t *it, const char *k, size_t kl), (it, k, kl))
V(rocksdb_iter_seek_to_first, (rocksdb_iterator_t *it), (it))
R(uchar, rocksdb_iter_valid, (const rocksdb_iterator_t *it), (it))

R(rocksdb_writebatch_t *, rocksdb_writebatch_create, (void), ())
V(rocksdb_writebatch_destroy, (rocksdb_writebatch_t *b), (b))
V(rocksdb_writebatch_put, (rocksdb_writebatch_t *b, const char *k, size_t kl, const char *v, size_t vl),
  (b, k, kl, v, vl))
V(rocksdb_writebatch_delete, (rocksdb_writebatch_t *b, const char *k, size_t kl), (b, k, kl))
V(rocksdb_writebatch_delete_range,
  (rocksdb_writebatch_t *b, const char *k0, size_t k0l, const char *k1, size_t k1l),
  (b, k0, k0l, k1, k1l))
