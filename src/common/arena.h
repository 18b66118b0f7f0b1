/*
 * arena.h — region allocation (PostgreSQL's memory contexts, simplified).
 *
 * Every statement allocates from an arena freed at once at its end; an
 * operator resets a scratch arena at the top of next().  Objects in an arena
 * have no free of their own.  Reset callbacks release non-memory resources
 * (file handles, mappings) when the arena is reset or freed.
 *
 * Allocations are 16-byte aligned (int128 decimals live in arenas).  Built
 * with -DFLOE_DEBUG_ARENA every allocation is its own malloc, so ASan sees
 * overruns (libgit2's GIT_DEBUG_POOL).
 *
 * Out of memory is not bad input: arena_alloc aborts the process with a
 * message rather than returning NULL (callers never check).  Memory limits
 * that must turn into SQLSTATE 53200 are enforced before large allocations
 * by the operators that make them.
 *
 * INTERFACE ROUTINES
 *   arena_new(chunk_hint) / arena_free(a)
 *   arena_alloc(a, n)  arena_calloc(a, n)  arena_realloc(a, p, old, new)
 *   arena_strdup(a, s) arena_strndup(a, s, n) arena_memdup(a, p, n)
 *   arena_sprintf(a, fmt, ...)
 *   arena_reset(a)                 free everything, keep the first chunk
 *   arena_on_reset(a, fn, arg)     call fn(arg) at the next reset/free
 *   arena_bytes(a)                 bytes handed out since the last reset
 */
#ifndef FLOE_ARENA_H
#define FLOE_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct Arena Arena;

Arena *arena_new(size_t chunk_hint);
void arena_free(Arena *a);
void arena_reset(Arena *a);
void *arena_alloc(Arena *a, size_t n);
void *arena_calloc(Arena *a, size_t n);
void *arena_realloc(Arena *a, void *p, size_t old_n, size_t new_n);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
void *arena_memdup(Arena *a, const void *p, size_t n);
char *arena_sprintf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_on_reset(Arena *a, void (*fn)(void *), void *arg);
size_t arena_bytes(const Arena *a);

/* Plain heap allocation that aborts on OOM (for long-lived objects). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#define ARENA_NEW(a, T) ((T *)arena_calloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_calloc((a), sizeof(T) * (size_t)(n)))

#endif
