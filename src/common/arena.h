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
 * that must turn into SQLSTATE 53200 go through a MemAccount (below).
 *
 * Memory accounts (one per top-level statement: floe.query_memory_limit):
 * a MemAccount sums the bytes charged to it by every thread (atomically)
 * and records when the sum passed its limit; it never refuses memory
 * itself.  An arena is charged the malloc'd size of its chunks (spare ones
 * included) to the account it was made under — the calling thread's
 * current account at arena_new, or one given with arena_set_account —
 * and gives them back as it frees them; operators charge the state they
 * malloc (hash tables, row arrays) with memacct_charge.  Whoever can
 * return an error checks memacct_exceeded at its check points (each batch
 * in exec_check_cancel, an aggregate state's growth, a hash table resize)
 * and fails the statement with memacct_error (53200).  Accounts are
 * reference counted: every attached arena holds one, so an arena that
 * outlives its statement stays safe; the last unref frees the account
 * (and, after a statement that held much, returns free heap to the OS).
 * A limit <= 0 never passes.
 *
 * INTERFACE ROUTINES
 *   arena_new(chunk_hint) / arena_free(a)
 *   arena_alloc(a, n)  arena_calloc(a, n)  arena_realloc(a, p, old, new)
 *   arena_strdup(a, s) arena_strndup(a, s, n) arena_memdup(a, p, n)
 *   arena_sprintf(a, fmt, ...)
 *   arena_reset(a)                 free everything, keep the first chunk
 *   arena_release(a)               arena_reset, and the spare chunks go back to
 *                                  malloc (what it holds drops to one chunk)
 *   arena_on_reset(a, fn, arg)     call fn(arg) at the next reset/free
 *   arena_bytes(a)                 bytes handed out since the last reset
 *   arena_held(a)                  bytes malloc'd for the arena's chunks (spare
 *                                  ones included): what it really holds
 *   arena_set_account(a, m) / arena_account(a) / arena_over_limit(a)
 *   memacct_new(limit) / memacct_ref(m) / memacct_unref(m)
 *   memacct_charge(m, delta)       delta < 0 gives back; m may be NULL
 *   memacct_exceeded(m) / memacct_used(m) / memacct_peak(m) / memacct_limit(m)
 *   memacct_error(m, err)          53200 naming the limit (always FLOE_ERR)
 *   memacct_current() / memacct_set_current(m)   the calling thread's
 */
#ifndef FLOE_ARENA_H
#define FLOE_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Arena Arena;
typedef struct MemAccount MemAccount;
struct floe_error;

Arena *arena_new(size_t chunk_hint);
void arena_free(Arena *a);
void arena_reset(Arena *a);
void arena_release(Arena *a);
void *arena_alloc(Arena *a, size_t n);
void *arena_calloc(Arena *a, size_t n);
void *arena_realloc(Arena *a, void *p, size_t old_n, size_t new_n);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
void *arena_memdup(Arena *a, const void *p, size_t n);
char *arena_sprintf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_on_reset(Arena *a, void (*fn)(void *), void *arg);
size_t arena_bytes(const Arena *a);
size_t arena_held(const Arena *a);
/* attach to m (NULL: detach), charging the chunks held now and giving
 * them back to the previous account */
void arena_set_account(Arena *a, MemAccount *m);
MemAccount *arena_account(const Arena *a);
/* is a charged to an account that has passed its limit? */
bool arena_over_limit(const Arena *a);

MemAccount *memacct_new(int64_t limit);
void memacct_ref(MemAccount *m);
void memacct_unref(MemAccount *m);
void memacct_charge(MemAccount *m, int64_t delta);
bool memacct_exceeded(const MemAccount *m);
int64_t memacct_used(const MemAccount *m);
int64_t memacct_peak(const MemAccount *m);
int64_t memacct_limit(const MemAccount *m);
int memacct_error(const MemAccount *m, struct floe_error *err);
MemAccount *memacct_current(void);
void memacct_set_current(MemAccount *m);

/* Plain heap allocation that aborts on OOM (for long-lived objects). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#define ARENA_NEW(a, T) ((T *)arena_calloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_calloc((a), sizeof(T) * (size_t)(n)))

#endif
