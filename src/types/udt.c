/*
 * udt.c — the process-wide registry of enums and domains (udt.h).
 *
 * The current set is one atomic pointer.  udt_publish installs a new set
 * and keeps the old ones on a list (a reader may still hold a Udt of an
 * old set); the list is freed when the process exits.  Sets are small
 * (one entry per CREATE TYPE / CREATE DOMAIN) and are replaced only when
 * one changed, so the list stays short.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "types/udt.h"

static _Atomic(UdtSet *) current;
static _Atomic uint64_t generation = 1;
static pthread_mutex_t publish_mu = PTHREAD_MUTEX_INITIALIZER;

UdtSet *
udt_set_new(void)
{
	UdtSet *s = calloc(1, sizeof *s);
	if (!s)
		abort();
	s->a = arena_new(0);
	arena_set_account(s->a, NULL);
	return s;
}

Udt *
udt_add(UdtSet *set)
{
	if (set->n == set->cap) {
		int cap = set->cap ? set->cap * 2 : 16;
		Udt *u = ARENA_ARRAY(set->a, Udt, cap);
		if (set->n)
			memcpy(u, set->u, sizeof *u * (size_t)set->n);
		set->u = u;
		set->cap = cap;
	}
	memset(&set->u[set->n], 0, sizeof set->u[0]);
	return &set->u[set->n++];
}

void
udt_publish(UdtSet *set)
{
	pthread_mutex_lock(&publish_mu);
	set->prev = atomic_load(&current);
	atomic_store(&current, set);
	atomic_fetch_add(&generation, 1);
	pthread_mutex_unlock(&publish_mu);
}

__attribute__((destructor)) static void
udt_free_all(void)
{
	UdtSet *s = atomic_exchange(&current, NULL);
	while (s) {
		UdtSet *p = s->prev;
		arena_free(s->a);
		free(s);
		s = p;
	}
}

uint64_t
udt_generation(void)
{
	return atomic_load(&generation);
}

const Udt *
udt_get(uint32_t oid)
{
	UdtSet *s = atomic_load(&current);
	int i;

	for (i = 0; s && i < s->n; i++)
		if (s->u[i].oid == oid)
			return &s->u[i];
	return NULL;
}

const Udt *
udt_find(const char *ns, const char *name)
{
	UdtSet *s = atomic_load(&current);
	int i;

	for (i = 0; s && i < s->n; i++)
		if (!strcmp(s->u[i].name, name) && (!ns || !strcmp(s->u[i].ns, ns)))
			return &s->u[i];
	return NULL;
}

int
udt_count(void)
{
	UdtSet *s = atomic_load(&current);
	return s ? s->n : 0;
}

const Udt *
udt_at(int i)
{
	UdtSet *s = atomic_load(&current);
	return s && i >= 0 && i < s->n ? &s->u[i] : NULL;
}

int
udt_enum_pos(const Udt *u, const char *s, size_t n)
{
	int i;

	for (i = 0; u && i < u->nlabels; i++)
		if (strlen(u->labels[i]) == n && !memcmp(u->labels[i], s, n))
			return i;
	return -1;
}

int
udt_domain_chain(uint32_t oid, const Udt **out, int max)
{
	const Udt *c[64];
	int n = 0, i;

	while (oid && n < 64) {
		const Udt *u = udt_get(oid);
		if (!u || u->kind != 'd')
			break;
		c[n++] = u;
		oid = u->base.udt;
	}
	for (i = 0; i < n && i < max; i++)   /* innermost first */
		out[i] = c[n - 1 - i];
	return n < max ? n : max;
}

bool
udt_chain_has(uint32_t oid, uint32_t want)
{
	int guard = 0;

	while (oid && guard++ < 64) {
		const Udt *u = udt_get(oid);
		if (oid == want)
			return true;
		if (!u || u->kind != 'd')
			return false;
		oid = u->base.udt;
	}
	return false;
}

const Udt *
udt_enum(uint32_t oid)
{
	const Udt *u = udt_get(oid);
	int guard = 0;

	while (u && u->kind == 'd' && guard++ < 64)   /* a domain over the enum */
		u = u->base.udt ? udt_get(u->base.udt) : NULL;
	return u && u->kind == 'e' ? u : NULL;
}

/* Labels the enum does not have (a value written by another engine, or a
 * label renamed since) sort after every label, by their bytes. */
int
udt_enum_cmp(uint32_t oid, const strview *a, const strview *b)
{
	const Udt *u = udt_enum(oid);
	int x = udt_enum_pos(u, strview_data(a), a->len);
	int y = udt_enum_pos(u, strview_data(b), b->len);

	if (x >= 0 && y >= 0)
		return x < y ? -1 : x > y;
	if (x >= 0 || y >= 0)
		return x >= 0 ? -1 : 1;
	x = strview_cmp(a, b);
	return x < 0 ? -1 : x > 0;
}

SqlType
type_enum(uint32_t oid)
{
	SqlType t = type_make(TYPE_TEXT);
	t.text_kind = TEXT_ENUM;
	t.udt = oid;
	return t;
}

bool
type_is_domain(SqlType t)
{
	const Udt *u = t.udt && t.id != TYPE_ARRAY ? udt_get(t.udt) : NULL;
	return u && u->kind == 'd';
}

/* the physical type under every domain: a domain's base, its base's ...
 * (an enum under a domain keeps its OID) */
SqlType
type_domain_base(SqlType t)
{
	int guard = 0;

	while (t.udt && t.id != TYPE_ARRAY && guard++ < 64) {
		const Udt *u = udt_get(t.udt);
		if (!u || u->kind != 'd') {
			if (!u && !type_is_enum(t))
				t.udt = 0;
			break;
		}
		t = u->base;
	}
	return t;
}
