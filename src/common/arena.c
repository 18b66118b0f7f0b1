/*
 * arena.c — chunked bump allocator with reset callbacks (see arena.h).
 *
 * Invariants:
 *   1. chunks form a list from head; only head's free space is used.
 *   2. a reset runs callbacks newest first, frees every chunk but `first`
 *      (the one made with the arena), and leaves the arena as fresh.
 *   3. allocations larger than a quarter of the chunk size get a chunk of
 *      their own, so big vectors do not waste the rest of a chunk.
 *   4. a reset keeps up to ARENA_SPARE_MAX bytes of freed chunks on a spare
 *      list that later chunk requests reuse: an operator's scratch arena,
 *      reset every batch, stops paying malloc/mmap and page faults for the
 *      same buffers each time (measured: page faults were 10% of TPC-H Q1).
 *   5. `held` is the malloc'd size of every chunk the arena owns (first,
 *      list and spare); exactly that much is charged to `acct` while it
 *      is attached (and the arena holds one reference to it).
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define ALIGN 16
#define ROUND(n) (((n) + (ALIGN - 1)) & ~(size_t)(ALIGN - 1))

typedef struct Chunk {
	struct Chunk *next;
	size_t size;   /* usable bytes after the header */
	size_t used;
	_Alignas(16) unsigned char data[];
} Chunk;

typedef struct Callback {
	struct Callback *next;
	void (*fn)(void *);
	void *arg;
} Callback;

#define ARENA_SPARE_MAX ((size_t)16 << 20)

struct Arena {
	Chunk *head;
	Chunk *first;
	Chunk *spare;          /* freed chunks kept for reuse (invariant 4) */
	size_t spare_bytes;
	Callback *callbacks;
	size_t chunk_size;
	size_t bytes;
	size_t held;           /* invariant 5 */
	MemAccount *acct;
};

/* ---- memory accounts ---------------------------------------------------- */

struct MemAccount {
	_Atomic int64_t used, peak;
	_Atomic int refs;
	_Atomic bool exceeded;
	int64_t limit;         /* <= 0: none */
};

/* after an account that held this much is gone, free heap goes back to
 * the OS (glibc keeps it otherwise: a failed 2 GB array_agg would leave
 * the process at 2 GB) */
#define TRIM_AFTER ((int64_t)64 << 20)

static _Thread_local MemAccount *current_acct;

MemAccount *
memacct_new(int64_t limit)
{
	MemAccount *m = calloc(1, sizeof *m);

	if (!m) {
		fprintf(stderr, "floe: out of memory allocating a memory account\n");
		abort();
	}
	m->limit = limit;
	atomic_init(&m->refs, 1);
	return m;
}

void
memacct_ref(MemAccount *m)
{
	if (m)
		atomic_fetch_add_explicit(&m->refs, 1, memory_order_relaxed);
}

void
memacct_unref(MemAccount *m)
{
	if (!m || atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) != 1)
		return;
#ifdef __GLIBC__
	if (atomic_load(&m->peak) >= TRIM_AFTER)
		malloc_trim(0);
#endif
	free(m);
}

void
memacct_charge(MemAccount *m, int64_t delta)
{
	int64_t now, peak;

	if (!m || !delta)
		return;
	now = atomic_fetch_add_explicit(&m->used, delta, memory_order_relaxed) + delta;
	if (delta < 0)
		return;
	peak = atomic_load_explicit(&m->peak, memory_order_relaxed);
	while (now > peak &&
	       !atomic_compare_exchange_weak_explicit(&m->peak, &peak, now, memory_order_relaxed,
						      memory_order_relaxed))
		;
	if (m->limit > 0 && now > m->limit)
		atomic_store_explicit(&m->exceeded, true, memory_order_relaxed);
}

bool
memacct_exceeded(const MemAccount *m)
{
	return m && atomic_load_explicit(&m->exceeded, memory_order_relaxed);
}

int64_t
memacct_used(const MemAccount *m)
{
	return m ? atomic_load_explicit(&m->used, memory_order_relaxed) : 0;
}

int64_t
memacct_peak(const MemAccount *m)
{
	return m ? atomic_load_explicit(&m->peak, memory_order_relaxed) : 0;
}

int64_t
memacct_limit(const MemAccount *m)
{
	return m ? m->limit : 0;
}

int
memacct_error(const MemAccount *m, floe_error *err)
{
	floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	floe_error_detail(err, "The statement needed more than floe.query_memory_limit (%lld kB) "
			  "of memory that cannot be spilled to disk.",
			  (long long)(memacct_limit(m) / 1024));
	return floe_error_hint(err, "Raise floe.query_memory_limit (SET floe.query_memory_limit = "
			       "'4GB'), or make the statement hold less at once (fewer groups, "
			       "smaller arrays or strings).");
}

MemAccount *
memacct_current(void)
{
	return current_acct;
}

void
memacct_set_current(MemAccount *m)
{
	current_acct = m;
}

#define CHUNK_BYTES(c) ((int64_t)(sizeof(Chunk) + (c)->size))

static void
oom(size_t n)
{
	fprintf(stderr, "floe: out of memory allocating %zu bytes\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *
xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p)
		oom(n * m);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

static Chunk *
chunk_new(Arena *a, size_t size)
{
	Chunk *c = xmalloc(sizeof(Chunk) + size);
	c->next = NULL;
	c->size = size;
	c->used = 0;
	a->held += (size_t)CHUNK_BYTES(c);
	memacct_charge(a->acct, CHUNK_BYTES(c));
	return c;
}

static void
chunk_free(Arena *a, Chunk *c)
{
	a->held -= (size_t)CHUNK_BYTES(c);
	memacct_charge(a->acct, -CHUNK_BYTES(c));
	free(c);
}

/* A chunk of at least `size` usable bytes: a spare one if it fits. */
static Chunk *
chunk_get(Arena *a, size_t size)
{
	Chunk **pp, *c;

	for (pp = &a->spare; (c = *pp); pp = &c->next)
		if (c->size >= size) {
			*pp = c->next;
			a->spare_bytes -= c->size;
			c->next = NULL;
			c->used = 0;
			return c;
		}
	return chunk_new(a, size);
}

Arena *
arena_new(size_t chunk_hint)
{
	Arena *a = xcalloc(1, sizeof *a);
	a->chunk_size = chunk_hint < 4096 ? 4096 : ROUND(chunk_hint);
	a->acct = current_acct;
	memacct_ref(a->acct);
#ifndef FLOE_DEBUG_ARENA
	a->first = a->head = chunk_new(a, a->chunk_size);
#endif
	return a;
}

static void
run_callbacks(Arena *a)
{
	while (a->callbacks) {
		Callback cb = *a->callbacks;
		a->callbacks = cb.next;
		cb.fn(cb.arg);
	}
}

void
arena_reset(Arena *a)
{
	Chunk *c, *next;

	run_callbacks(a);
	for (c = a->head; c; c = next) {
		next = c->next;
		if (c == a->first)
			continue;
#ifndef FLOE_DEBUG_ARENA
		if (a->spare_bytes + c->size <= ARENA_SPARE_MAX) {
			c->next = a->spare;
			a->spare = c;
			a->spare_bytes += c->size;
			continue;
		}
#endif
		chunk_free(a, c);
	}
	a->head = a->first;
	if (a->first) {
		a->first->used = 0;
		a->first->next = NULL;
	}
	a->bytes = 0;
}

void
arena_release(Arena *a)
{
	arena_reset(a);
	while (a->spare) {
		Chunk *c = a->spare;
		a->spare = c->next;
		chunk_free(a, c);
	}
	a->spare_bytes = 0;
}

void
arena_free(Arena *a)
{
	if (!a)
		return;
	arena_release(a);
	if (a->first)
		chunk_free(a, a->first);
	memacct_unref(a->acct);
	free(a);
}

void *
arena_alloc(Arena *a, size_t n)
{
	Chunk *c;

	n = ROUND(n ? n : 1);
	a->bytes += n;
#ifdef FLOE_DEBUG_ARENA
	c = chunk_new(a, n);
	c->used = n;
	c->next = a->head;
	a->head = c;
	if (!a->first) {
		/* keep a permanent empty first chunk so reset logic is uniform */
		a->first = chunk_new(a, 0);
		c->next = a->first;
	}
	return c->data;
#else
	c = a->head;
	if (c->size - c->used >= n) {
		void *p = c->data + c->used;
		c->used += n;
		return p;
	}
	if (n > a->chunk_size / 4) {
		/* a big allocation gets its own chunk, linked behind the head */
		Chunk *big = chunk_get(a, n);
		big->used = n;
		big->next = c->next;   /* behind the head: head keeps its free space */
		c->next = big;
		return big->data;
	}
	c = chunk_get(a, a->chunk_size);
	c->next = a->head;
	a->head = c;
	c->used = n;
	return c->data;
#endif
}

void *
arena_calloc(Arena *a, size_t n)
{
	return memset(arena_alloc(a, n), 0, n);
}

void *
arena_realloc(Arena *a, void *p, size_t old_n, size_t new_n)
{
	void *q;

	if (new_n <= old_n)
		return p;
	q = arena_alloc(a, new_n);
	if (p && old_n)
		memcpy(q, p, old_n);
	return q;
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
arena_strdup(Arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

void *
arena_memdup(Arena *a, const void *p, size_t n)
{
	void *q = arena_alloc(a, n);
	if (n)
		memcpy(q, p, n);
	return q;
}

char *
arena_sprintf(Arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	int n;
	char *p;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

void
arena_on_reset(Arena *a, void (*fn)(void *), void *arg)
{
	Callback *cb = arena_alloc(a, sizeof *cb);
	cb->fn = fn;
	cb->arg = arg;
	cb->next = a->callbacks;
	a->callbacks = cb;
}

size_t
arena_bytes(const Arena *a)
{
	return a->bytes;
}

size_t
arena_held(const Arena *a)
{
	return a ? a->held : 0;
}

void
arena_set_account(Arena *a, MemAccount *m)
{
	if (a->acct == m)
		return;
	memacct_charge(a->acct, -(int64_t)a->held);
	memacct_unref(a->acct);
	a->acct = m;
	memacct_ref(m);
	memacct_charge(m, (int64_t)a->held);
}

MemAccount *
arena_account(const Arena *a)
{
	return a->acct;
}

bool
arena_over_limit(const Arena *a)
{
	return memacct_exceeded(a->acct);
}
