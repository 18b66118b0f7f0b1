/*
 * temp_catalog.c — the engine's Catalog, wrapped so that the namespace of
 * a session's temporary tables never reaches the shared catalog (temp.h).
 *
 * Every call naming a namespace "pg_temp..." is answered from the TempState
 * of the session running on the calling thread (temp__set_session, set at
 * each statement's start): its map of temporary tables (name -> metadata
 * location), with the shared catalog's semantics (42P07 exists, 42P01
 * missing, 40001 when a swap finds another location).  A "pg_temp..."
 * namespace that is not that session's does not exist (3F000 / 42P01).
 * Every other call goes to the wrapped catalog unchanged.  swap_tables of a
 * transaction touching both kinds commits the permanent tables first (all
 * or none, in the shared catalog), then the session's own entries, which
 * nobody else can move.
 *
 * Sequences and views in the temporary namespace are entries of the same
 * map (TempSeq, versioned as the catalog's; TempView, a metadata location
 * swapped as the catalog's).
 *
 * Threads: the map belongs to one session, used by one thread at a time.
 *
 * INTERFACE ROUTINES (temp.h)
 *   temp_catalog_wrap(inner), temp__set_session(s), temp__current()
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/arena.h"
#include "sql/temp.h"
#include "sql/txn.h"

typedef struct TempCatalog {
	Catalog base;
	CatalogVT vt;            /* the entries the wrapped catalog has */
	Catalog *inner;
} TempCatalog;

/* every entry of CatalogVT is wrapped below: a new one must be added there */
_Static_assert(sizeof(CatalogVT) == 26 * sizeof(void (*)(void)), "wrap the new CatalogVT entry");

#define IN(c) (((TempCatalog *)(c))->inner)

static _Thread_local Session *cur_session;

void
temp__set_session(Session *s)
{
	cur_session = s;
}

TempState *
temp__current(void)
{
	return cur_session ? cur_session->temp : NULL;
}

bool
temp_is_temp_ns(const char *ns)
{
	return ns && !strncmp(ns, "pg_temp", 7);
}

/* The session's state when ns is its temp namespace, else NULL. */
static TempState *
own(const char *ns)
{
	TempState *t = temp__current();
	return t && !strcmp(ns, t->ns) ? t : NULL;
}

static TempTable *
find(TempState *t, const char *name)
{
	int i;
	for (i = 0; t && i < t->ntabs; i++)
		if (!strcmp(t->tabs[i].name, name))
			return &t->tabs[i];
	return NULL;
}

static int
no_ns(const char *ns, floe_error *err)
{
	return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
}

static int
no_table(const char *ns, const char *name, floe_error *err)
{
	return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist", ns, name);
}

/* ---- namespaces ------------------------------------------------------- */

static int
c_create_namespace(Catalog *c, const char *ns, floe_error *err)
{
	if (!strncmp(ns, "pg_", 3)) {
		floe_errorf(err, ERRCODE_RESERVED_NAME, "unacceptable schema name \"%s\"", ns);
		return floe_error_detail(err, "The prefix \"pg_\" is reserved for system schemas.");
	}
	return IN(c)->vt->create_namespace(IN(c), ns, err);
}

static int
c_drop_namespace(Catalog *c, const char *ns, floe_error *err)
{
	if (temp_is_temp_ns(ns))
		return own(ns) ? floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					     "cannot drop temporary schema \"%s\"", ns)
			       : no_ns(ns, err);
	return IN(c)->vt->drop_namespace(IN(c), ns, err);
}

static int
c_namespace_exists(Catalog *c, const char *ns, bool *exists, floe_error *err)
{
	if (temp_is_temp_ns(ns)) {
		*exists = own(ns) != NULL;
		return FLOE_OK;
	}
	return IN(c)->vt->namespace_exists(IN(c), ns, exists, err);
}

/* The shared catalog's namespaces, then the session's temp namespace when
 * it holds a table (pg_namespace, information_schema). */
static int
c_list_namespaces(Catalog *c, Arena *a, char ***names, int *n, floe_error *err)
{
	TempState *t = temp__current();
	char **in, **out;
	int nin;

	TRY(IN(c)->vt->list_namespaces(IN(c), a, &in, &nin, err));
	if (!t || (t->ntabs == 0 && t->nseqs == 0 && t->nviews == 0)) {
		*names = in;
		*n = nin;
		return FLOE_OK;
	}
	out = ARENA_ARRAY(a, char *, nin + 1);
	if (nin)
		memcpy(out, in, sizeof *out * (size_t)nin);
	out[nin] = arena_strdup(a, t->ns);
	*names = out;
	*n = nin + 1;
	return FLOE_OK;
}

/* ---- tables ----------------------------------------------------------- */

static int
c_create_table(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	TempState *t;
	TempTable *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->create_table(IN(c), ns, name, loc, err);
	if (!(t = own(ns)))
		return no_ns(ns, err);
	if (find(t, name) || temp__find_seq(t, name) || temp__find_view(t, name))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s.%s\" already exists", ns, name);
	if (t->ntabs == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->tabs = xrealloc(t->tabs, sizeof *t->tabs * (size_t)t->cap);
	}
	x = &t->tabs[t->ntabs++];
	memset(x, 0, sizeof *x);
	x->name = xstrdup(name);
	x->loc = xstrdup(loc);
	return FLOE_OK;
}

static int
c_load_table(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	TempTable *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->load_table(IN(c), ns, name, a, loc, err);
	if (!(x = find(own(ns), name)))
		return no_table(ns, name, err);
	*loc = arena_strdup(a, x->loc);
	return FLOE_OK;
}

static int
temp_swap(const char *ns, const char *name, const char *expected, const char *loc, floe_error *err)
{
	TempTable *x = find(own(ns), name);

	if (!x)
		return no_table(ns, name, err);
	if (strcmp(x->loc, expected))
		return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				   "could not commit table \"%s.%s\": concurrent update", ns, name);
	free(x->loc);
	x->loc = xstrdup(loc);
	return FLOE_OK;
}

static int
c_swap_table(Catalog *c, const char *ns, const char *name, const char *expected, const char *loc,
	     floe_error *err)
{
	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->swap_table(IN(c), ns, name, expected, loc, err);
	return temp_swap(ns, name, expected, loc, err);
}

static int
c_drop_table(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	TempState *t;
	TempTable *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->drop_table(IN(c), ns, name, err);
	t = own(ns);
	if (!(x = find(t, name)))
		return no_table(ns, name, err);
	free(x->name);
	free(x->dropped);
	free(x->loc);
	memmove(x, x + 1, sizeof *x * (size_t)(t->tabs + t->ntabs - x - 1));
	t->ntabs--;
	return FLOE_OK;
}

static int
c_swap_tables(Catalog *c, int n, const char *const *ns, const char *const *names,
	      const char *const *expected, const char *const *locs, floe_error *err)
{
	const char **pns, **pnames, **pexp, **plocs;
	int i, np = 0, rc = FLOE_OK;

	for (i = 0; i < n; i++) {   /* the temp swaps cannot fail after the others */
		TempTable *x;
		if (!temp_is_temp_ns(ns[i]))
			continue;
		if (!(x = find(own(ns[i]), names[i])))
			return no_table(ns[i], names[i], err);
		if (strcmp(x->loc, expected[i]))
			return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					   "could not commit table \"%s.%s\": concurrent update", ns[i],
					   names[i]);
	}
	pns = xcalloc((size_t)n + 1, sizeof *pns);
	pnames = xcalloc((size_t)n + 1, sizeof *pnames);
	pexp = xcalloc((size_t)n + 1, sizeof *pexp);
	plocs = xcalloc((size_t)n + 1, sizeof *plocs);
	for (i = 0; i < n; i++)
		if (!temp_is_temp_ns(ns[i])) {
			pns[np] = ns[i];
			pnames[np] = names[i];
			pexp[np] = expected[i];
			plocs[np++] = locs[i];
		}
	if (np == 1)
		rc = IN(c)->vt->swap_table(IN(c), pns[0], pnames[0], pexp[0], plocs[0], err);
	else if (np > 1)
		rc = IN(c)->vt->swap_tables(IN(c), np, pns, pnames, pexp, plocs, err);
	free(pns);
	free(pnames);
	free(pexp);
	free(plocs);
	TRY(rc);
	for (i = 0; i < n; i++)   /* checked above: only this session moves them */
		if (temp_is_temp_ns(ns[i]))
			TRY(temp_swap(ns[i], names[i], expected[i], locs[i], err));
	return FLOE_OK;
}

static int
c_list_tables(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	TempState *t;
	int i;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->list_tables(IN(c), ns, a, names, n, err);
	if (!(t = own(ns)))
		return no_ns(ns, err);
	*names = ARENA_ARRAY(a, char *, t->ntabs + 1);
	*n = 0;
	for (i = 0; i < t->ntabs; i++)
		if (!t->tabs[i].dropped)   /* dropped in the open block (temp.h) */
			(*names)[(*n)++] = arena_strdup(a, t->tabs[i].name);
	return FLOE_OK;
}

static void
c_close(Catalog *c)
{
	catalog_close(IN(c));
	free(c);
}

static int
c_rename_table(Catalog *c, const char *ns, const char *name, const char *new_ns,
	       const char *new_name, floe_error *err)
{
	TempTable *x;

	if (!temp_is_temp_ns(ns) && !temp_is_temp_ns(new_ns))
		return IN(c)->vt->rename_table(IN(c), ns, name, new_ns, new_name, err);
	if (strcmp(ns, new_ns))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot move objects into or out of temporary schemas");
	if (!(x = find(own(ns), name)))
		return no_table(ns, name, err);
	if (find(own(ns), new_name))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", new_name);
	free(x->name);
	x->name = xstrdup(new_name);
	return FLOE_OK;
}

/* ---- sequences and views: the session's map ---------------------------- */

/* A new entry made in the open block of this thread's session (temp.h). */
void
temp__mark_made(TempBlockMark *m)
{
	memset(m, 0, sizeof *m);
	if (cur_session && session_txn_status(cur_session) != 'I') {
		m->in_block = true;
		m->sp_depth = txn_savepoint_depth(cur_session);
	}
}

/* DROP in an open block: the entry is hidden under a name no SQL
 * identifier has (a control character) until the block ends; false
 * outside a block (the caller frees it). */
bool
temp__mark_drop(TempBlockMark *m, char **name)
{
	static atomic_int hidden = 0;
	char buf[48];

	if (!cur_session || session_txn_status(cur_session) == 'I')
		return false;
	snprintf(buf, sizeof buf, "\x01dropped-obj-%d", atomic_fetch_add(&hidden, 1));
	m->dropped = *name;
	m->drop_depth = txn_savepoint_depth(cur_session);
	*name = xstrdup(buf);
	return true;
}

static int
c_seq_create(Catalog *c, const char *ns, const char *name, const CatalogSeq *seq, floe_error *err)
{
	TempState *t;
	TempSeq *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->seq_create(IN(c), ns, name, seq, err);
	if (!(t = own(ns)))
		return no_ns(ns, err);
	if (find(t, name) || temp__find_seq(t, name))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	t->seqs = xrealloc(t->seqs, sizeof(TempSeq) * (size_t)(t->nseqs + 1));
	x = &t->seqs[t->nseqs++];
	memset(x, 0, sizeof *x);
	temp__mark_made(&x->mark);
	x->name = xstrdup(name);
	x->q = *seq;
	x->q.owned_by = seq->owned_by ? xstrdup(seq->owned_by) : NULL;
	x->q.version = 1;
	return FLOE_OK;
}

static int
c_seq_load(Catalog *c, const char *ns, const char *name, Arena *a, CatalogSeq *out, floe_error *err)
{
	TempSeq *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->seq_load(IN(c), ns, name, a, out, err);
	if (!(x = temp__find_seq(own(ns), name)))
		return no_table(ns, name, err);
	*out = x->q;
	out->owned_by = x->q.owned_by ? arena_strdup(a, x->q.owned_by) : NULL;
	return FLOE_OK;
}

static int
c_seq_swap(Catalog *c, const char *ns, const char *name, int64_t version, const CatalogSeq *seq,
	   bool *swapped, floe_error *err)
{
	TempSeq *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->seq_swap(IN(c), ns, name, version, seq, swapped, err);
	*swapped = false;
	if (!(x = temp__find_seq(own(ns), name)) || x->q.version != version)
		return FLOE_OK;
	free(x->q.owned_by);
	x->q = *seq;
	x->q.owned_by = seq->owned_by ? xstrdup(seq->owned_by) : NULL;
	x->q.version = version + 1;
	*swapped = true;
	return FLOE_OK;
}

static int
c_seq_drop(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	TempState *t;
	TempSeq *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->seq_drop(IN(c), ns, name, err);
	t = own(ns);
	if (!(x = temp__find_seq(t, name)))
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "sequence \"%s\" does not exist", name);
	if (temp__mark_drop(&x->mark, &x->name))
		return FLOE_OK;   /* in a block: hidden until it commits */
	free(x->name);
	free(x->q.owned_by);
	memmove(x, x + 1, sizeof *x * (size_t)(t->seqs + t->nseqs - x - 1));
	t->nseqs--;
	return FLOE_OK;
}

static int
c_seq_list(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	TempState *t;
	int i;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->seq_list(IN(c), ns, a, names, n, err);
	if (!(t = own(ns)))
		return no_ns(ns, err);
	*names = ARENA_ARRAY(a, char *, t->nseqs + 1);
	*n = 0;
	for (i = 0; i < t->nseqs; i++)
		if (!t->seqs[i].mark.dropped)
			(*names)[(*n)++] = arena_strdup(a, t->seqs[i].name);
	return FLOE_OK;
}

static int
c_create_view(Catalog *c, const char *ns, const char *name, const char *loc, floe_error *err)
{
	TempState *t;
	TempView *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->create_view(IN(c), ns, name, loc, err);
	if (!(t = own(ns)))
		return no_ns(ns, err);
	if (find(t, name) || temp__find_seq(t, name) || temp__find_view(t, name))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	t->views = xrealloc(t->views, sizeof(TempView) * (size_t)(t->nviews + 1));
	x = &t->views[t->nviews++];
	memset(x, 0, sizeof *x);
	temp__mark_made(&x->mark);
	x->name = xstrdup(name);
	x->loc = xstrdup(loc);
	return FLOE_OK;
}

static int
c_load_view(Catalog *c, const char *ns, const char *name, Arena *a, char **loc, floe_error *err)
{
	TempView *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->load_view(IN(c), ns, name, a, loc, err);
	if (!(x = temp__find_view(own(ns), name)))
		return no_table(ns, name, err);
	*loc = arena_strdup(a, x->loc);
	return FLOE_OK;
}

static int
c_swap_view(Catalog *c, const char *ns, const char *name, const char *expected, const char *loc,
	    floe_error *err)
{
	TempView *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->swap_view(IN(c), ns, name, expected, loc, err);
	if (!(x = temp__find_view(own(ns), name)))
		return no_table(ns, name, err);
	if (strcmp(x->loc, expected))
		return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				   "view \"%s\" was changed concurrently", name);
	free(x->loc);
	x->loc = xstrdup(loc);
	return FLOE_OK;
}

static int
c_drop_view(Catalog *c, const char *ns, const char *name, floe_error *err)
{
	TempState *t;
	TempView *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->drop_view(IN(c), ns, name, err);
	t = own(ns);
	if (!(x = temp__find_view(t, name)))
		return no_table(ns, name, err);
	if (temp__mark_drop(&x->mark, &x->name))
		return FLOE_OK;   /* in a block: hidden until it commits */
	free(x->name);
	free(x->loc);
	memmove(x, x + 1, sizeof *x * (size_t)(t->views + t->nviews - x - 1));
	t->nviews--;
	return FLOE_OK;
}

static int
c_rename_view(Catalog *c, const char *ns, const char *name, const char *new_name, floe_error *err)
{
	TempState *t;
	TempView *x;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->rename_view(IN(c), ns, name, new_name, err);
	t = own(ns);
	if (!(x = temp__find_view(t, name)))
		return no_table(ns, name, err);
	if (find(t, new_name) || temp__find_seq(t, new_name) || temp__find_view(t, new_name))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", new_name);
	free(x->name);
	x->name = xstrdup(new_name);
	return FLOE_OK;
}

static int
c_list_views(Catalog *c, const char *ns, Arena *a, char ***names, int *n, floe_error *err)
{
	TempState *t;
	int i;

	if (!temp_is_temp_ns(ns))
		return IN(c)->vt->list_views(IN(c), ns, a, names, n, err);
	if (!(t = own(ns)))
		return no_ns(ns, err);
	*names = ARENA_ARRAY(a, char *, t->nviews + 1);
	*n = 0;
	for (i = 0; i < t->nviews; i++)
		if (!t->views[i].mark.dropped)
			(*names)[(*n)++] = arena_strdup(a, t->views[i].name);
	return FLOE_OK;
}

/* floe_objects rows (function.c): none in the temporary namespace */
static int
c_obj_put(Catalog *c, const char *ns, const char *kind, const char *key, const char *def,
	  bool replace, floe_error *err)
{
	if (temp_is_temp_ns(ns))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "functions in the temporary schema are not supported yet");
	return IN(c)->vt->obj_put(IN(c), ns, kind, key, def, replace, err);
}

static int
c_obj_delete(Catalog *c, const char *ns, const char *kind, const char *key, bool *found,
	     floe_error *err)
{
	return IN(c)->vt->obj_delete(IN(c), ns, kind, key, found, err);
}

static int
c_obj_list(Catalog *c, const char *kind, Arena *a, char ***nss, char ***keys, char ***defs,
	   int *n, floe_error *err)
{
	return IN(c)->vt->obj_list(IN(c), kind, a, nss, keys, defs, n, err);
}

Catalog *
temp_catalog_wrap(Catalog *inner)
{
	TempCatalog *c = xcalloc(1, sizeof *c);
	const CatalogVT *v = inner->vt;

	c->inner = inner;
	c->base.vt = &c->vt;
#define W(f) c->vt.f = v->f ? c_##f : NULL
	W(create_namespace);
	W(drop_namespace);
	W(namespace_exists);
	W(list_namespaces);
	W(create_table);
	W(load_table);
	W(swap_table);
	W(drop_table);
	W(swap_tables);
	W(list_tables);
	W(close);
	W(rename_table);
	W(seq_create);
	W(seq_load);
	W(seq_swap);
	W(seq_drop);
	W(seq_list);
	W(create_view);
	W(load_view);
	W(swap_view);
	W(drop_view);
	W(rename_view);
	W(list_views);
	W(obj_put);
	W(obj_delete);
	W(obj_list);
#undef W
	return &c->base;
}
