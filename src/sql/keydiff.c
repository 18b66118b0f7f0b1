/*
 * keydiff.c — PRIMARY KEY values that changed between two heads of a
 * table, and sets of key values (keydiff.h).
 *
 *   old  = live rows (from's deletes) of the data files of `from` that
 *          `to` no longer has, or has with other deletes attached
 *   new  = live rows (to's deletes) of the data files of `to` that `from`
 *          does not have, or has with other deletes attached
 *   changed = keys whose row text differs between old and new (absent on
 *          one side counts as different)
 *
 * Files in both heads with the same deletes hold the same live rows and
 * are not read.  A copy-on-write rewrite of a file copies its untouched
 * rows into a new file: they are in old and new with the same text, so
 * their keys did not change.  Keys are unique in each head (the table's
 * PRIMARY KEY), so a key is in at most one row of each side.
 *
 * Memory: everything in the caller's arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"
#include "sql/keydiff.h"
#include "table/metadata.h"
#include "types/text.h"

/* ---- sets and maps of strings (open addressing) ------------------------ */

struct KeySet {
	Arena *a;
	char **keys;
	char **vals;               /* a map's values (NULL for a set) */
	int64_t cap, n;
};

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

KeySet *
keyset_new(Arena *a)
{
	KeySet *s = ARENA_NEW(a, KeySet);
	s->a = a;
	s->cap = 64;
	s->keys = ARENA_ARRAY(a, char *, s->cap);
	s->vals = ARENA_ARRAY(a, char *, s->cap);
	return s;
}

static int64_t
slot_of(const KeySet *s, const char *key)
{
	int64_t i = (int64_t)(hash_str(key) & (uint64_t)(s->cap - 1));
	while (s->keys[i] && strcmp(s->keys[i], key) != 0)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void
grow(KeySet *s)
{
	char **ok = s->keys, **ov = s->vals;
	int64_t ocap = s->cap, i;

	s->cap *= 2;
	s->keys = ARENA_ARRAY(s->a, char *, s->cap);
	s->vals = ARENA_ARRAY(s->a, char *, s->cap);
	for (i = 0; i < ocap; i++)
		if (ok[i]) {
			int64_t j = slot_of(s, ok[i]);
			s->keys[j] = ok[i];
			s->vals[j] = ov[i];
		}
}

/* key -> val; false when key was there (its value is kept) */
bool
keyset_put(KeySet *s, const char *key, const char *val)
{
	int64_t i;

	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	i = slot_of(s, key);
	if (s->keys[i])
		return false;
	s->keys[i] = arena_strdup(s->a, key);
	s->vals[i] = val ? arena_strdup(s->a, val) : NULL;
	s->n++;
	return true;
}

const char *
keyset_get(const KeySet *s, const char *key, bool *found)
{
	int64_t i = slot_of(s, key);
	*found = s->keys[i] != NULL;
	return *found ? s->vals[i] : NULL;
}

bool
keyset_add(KeySet *s, const char *key)
{
	return keyset_put(s, key, NULL);
}

bool
keyset_has(const KeySet *s, const char *key)
{
	bool found;
	(void)keyset_get(s, key, &found);
	return found;
}

int64_t
keyset_count(const KeySet *s)
{
	return s ? s->n : 0;
}

void
keyset_each(const KeySet *s, void (*fn)(void *arg, const char *key, const char *val), void *arg)
{
	int64_t i;

	for (i = 0; s && i < s->cap; i++)
		if (s->keys[i])
			fn(arg, s->keys[i], s->vals[i]);
}

bool
keydiff_key_columns(const IcebergSchema *sc, Arena *a, int **pk, int *npk)
{
	int i, c, n = 0;
	int *k;

	*pk = NULL;
	*npk = 0;
	if (!sc || sc->nidentifier == 0)
		return false;
	k = ARENA_ARRAY(a, int, sc->nidentifier + 1);
	for (i = 0; i < sc->nidentifier; i++)
		for (c = 0; c < sc->nfields; c++)
			if (sc->fields[c].id == sc->identifier_field_ids[i])
				k[n++] = c;
	if (n != sc->nidentifier)
		return false;
	*pk = k;
	*npk = n;
	return true;
}

const char *
keyset_common(const KeySet *a, const KeySet *b)
{
	int64_t i;

	if (!a || !b)
		return NULL;
	for (i = 0; i < a->cap; i++)
		if (a->keys[i] && keyset_has(b, a->keys[i]))
			return a->keys[i];
	return NULL;
}

/* ---- key and row text -------------------------------------------------- */

char *
keydiff_cols_text(const Vector *cols, const int *which, int n, uint32_t row, Arena *a)
{
	size_t cap = 64, len = 0;
	char *out = arena_alloc(a, cap);
	int c;

	out[0] = '\0';
	for (c = 0; c < n; c++) {
		size_t tl = 0;
		const char *t = vector_value_text(&cols[which ? which[c] : c], row, a, &tl);
		size_t need = len + (t ? tl : 0) + 32;
		if (need > cap) {
			char *bigger = arena_alloc(a, need * 2);
			memcpy(bigger, out, len + 1);
			out = bigger;
			cap = need * 2;
		}
		if (!t)
			len += (size_t)snprintf(out + len, cap - len, "N");
		else {
			len += (size_t)snprintf(out + len, cap - len, "V%zu:", tl);
			memcpy(out + len, t, tl);
			len += tl;
			out[len] = '\0';
		}
	}
	return out;
}

char *
keydiff_key(const Vector *cols, int ncols, uint32_t row, Arena *a)
{
	return keydiff_cols_text(cols, NULL, ncols, row, a);
}

const char *
keydiff_key_display(const char *key, Arena *a)
{
	size_t cap = strlen(key) + 16, len = 0;
	char *out = arena_alloc(a, cap);
	const char *p = key;

	out[len++] = '(';
	while (*p) {
		if (len > 1) {
			out[len++] = ',';
			out[len++] = ' ';
		}
		if (*p == 'N') {
			memcpy(out + len, "null", 4);
			len += 4;
			p++;
		} else {
			size_t n = strtoul(p + 1, (char **)&p, 10);
			p++;           /* ':' */
			memcpy(out + len, p, n > 200 ? 200 : n);
			len += n > 200 ? 200 : n;
			p += n;
		}
		if (len + 8 > cap)
			break;
	}
	out[len++] = ')';
	out[len] = '\0';
	return out;
}

/* ---- the diff ---------------------------------------------------------- */

static int
cmp_path(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The attached deletes of f as one sorted string (their identity). */
static char *
deletes_sig(const DataFile *f, Arena *a)
{
	char **k = ARENA_ARRAY(a, char *, f->ndeletes + 1);
	size_t total = 1;
	char *out;
	int i;

	for (i = 0; i < f->ndeletes; i++) {
		k[i] = arena_sprintf(a, "%s@%lld;", f->deletes[i]->file_path,
				     f->deletes[i]->has_content_offset
				     ? (long long)f->deletes[i]->content_offset : -1LL);
		total += strlen(k[i]);
	}
	qsort(k, (size_t)f->ndeletes, sizeof(char *), cmp_path);
	out = arena_alloc(a, total);
	out[0] = '\0';
	for (i = 0; i < f->ndeletes; i++)
		strcat(out, k[i]);
	return out;
}

/* The data files of xs that ys lacks or holds with other deletes. */
static DataFile *
differing(const DataFile *xs, int nx, const DataFile *ys, int ny, Arena *a, int *nout)
{
	KeySet *m = keyset_new(a);
	DataFile *out = ARENA_ARRAY(a, DataFile, nx + 1);
	int i, k = 0;

	for (i = 0; i < ny; i++)
		if (ys[i].content == CONTENT_DATA)
			(void)keyset_put(m, ys[i].file_path, deletes_sig(&ys[i], a));
	for (i = 0; i < nx; i++) {
		bool found;
		const char *sig;
		if (xs[i].content != CONTENT_DATA)
			continue;
		sig = keyset_get(m, xs[i].file_path, &found);
		if (!found || strcmp(sig, deletes_sig(&xs[i], a)) != 0)
			out[k++] = xs[i];
	}
	*nout = k;
	return out;
}

/* key text -> row text of every live row of files[]. */
static int
read_rows(FileIO *io, const IcebergSchema *sc, const int *pk, int npk, const TableMetadata *md,
	  DataFile *files, int n, Arena *a, KeySet *rows, floe_error *err)
{
	ExecCtx ctx;
	Operator *op;
	Batch *b;
	int *all = ARENA_ARRAY(a, int, sc->nfields + 1), c, rc;

	if (n == 0)
		return FLOE_OK;
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = a;
	ctx.io = io;
	ctx.err = err;
	ctx.threads = 1;
	for (c = 0; c < sc->nfields; c++)
		all[c] = c;
	op = scan_new(&ctx, sc, sc->nfields, all, files, n, false, md);
	if ((rc = op_open(op)) == FLOE_OK)
		while ((rc = op_next(op, &b)) == FLOE_OK && b) {
			uint32_t r;
			if (!b->count)
				continue;
			batch_compact(b);
			for (r = 0; r < b->count; r++)
				(void)keyset_put(rows, keydiff_cols_text(b->cols, pk, npk, r, a),
					      keydiff_cols_text(b->cols, NULL, sc->nfields, r, a));
		}
	op_close(op);
	return rc;
}

int
keydiff_changed(FileIO *io, const Table *from, const Table *to, Arena *a, KeySet **changed,
		floe_error *err)
{
	const IcebergSchema *sc = metadata_current_schema(to->md);
	DataFile *ff, *tf, *oldf, *newf;
	int nf, nt, nold, nnew, npk = 0;
	int *pk;
	KeySet *oldr, *newr, *out;
	int64_t j;

	*changed = NULL;
	if (!keydiff_key_columns(sc, a, &pk, &npk))
		return FLOE_OK;
	out = keyset_new(a);
	*changed = out;
	if (!strcmp(from->metadata_location, to->metadata_location))
		return FLOE_OK;
	TRY(table_scan_files(io, from, -1, a, &ff, &nf, err));
	TRY(table_scan_files(io, to, -1, a, &tf, &nt, err));
	oldf = differing(ff, nf, tf, nt, a, &nold);
	newf = differing(tf, nt, ff, nf, a, &nnew);
	oldr = keyset_new(a);
	newr = keyset_new(a);
	TRY(read_rows(io, sc, pk, npk, from->md, oldf, nold, a, oldr, err));
	TRY(read_rows(io, sc, pk, npk, to->md, newf, nnew, a, newr, err));
	for (j = 0; j < oldr->cap; j++)
		if (oldr->keys[j]) {
			bool found;
			const char *v = keyset_get(newr, oldr->keys[j], &found);
			if (!found || strcmp(v, oldr->vals[j]) != 0)
				(void)keyset_add(out, oldr->keys[j]);
		}
	for (j = 0; j < newr->cap; j++)
		if (newr->keys[j] && !keyset_has(oldr, newr->keys[j]))
			(void)keyset_add(out, newr->keys[j]);
	return FLOE_OK;
}
