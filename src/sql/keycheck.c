/*
 * keycheck.c — PRIMARY KEY uniqueness across concurrent commits
 * (keycheck.h).
 *
 * Iceberg commits are optimistic: a statement checks its keys against the
 * snapshot it read, and when the compare-and-swap finds another head the
 * commit is re-based on it.  Two commits that each add key K to one table
 * would both pass their statement's check; the one re-based second must
 * see the first one's K.  So on every re-base from head F to head T:
 *
 *   theirs = the live data files of T that F does not have (by path),
 *            read with the deletes T attaches to them
 *   mine   = the data files the commit adds, read with their own
 *            attached deletes (a block's rows it deleted again)
 *   clash  = keys of live rows of theirs  SEMI JOIN  keys of mine
 *
 * A clash is 23505 ("already exists", as the statement would have said had
 * it run after the other commit), unless the key was live in F as well:
 * then both commits rewrote that row (an UPDATE of a non-key column writes
 * the row again under its key; copy-on-write copies it), which is a
 * write-write conflict, 40001.  ON CONFLICT statements get 40001 too: they
 * decide per row against the current rows, so the statement (an autocommit
 * READ COMMITTED one is re-run at once, txn_retry_statement) or the client's
 * transaction must run again to decide right.
 *
 * Files in both heads are skipped: their rows were there when the keys were
 * checked (deletes added since only remove keys); so are files of T the
 * change itself removes (a copy-on-write re-base rewrote them without its
 * keys: cowrebase.h).  Only top-level key
 * columns are checked (as the statements' checks).
 *
 * Memory: everything in the caller's arena.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec.h"
#include "exec/expr.h"
#include "sql/keycheck.h"
#include "table/metadata.h"
#include "types/text.h"

typedef struct KeyCheck {
	ExecCtx ctx;
	const IcebergSchema *schema;
	const TableMetadata *md;
	const char *table;
	int npk;
	int *pk;                  /* schema field index of each key column */
	SqlType *types;
} KeyCheck;

/* The key columns of the schema; false when none (or a nested one). */
static bool
key_columns(KeyCheck *k, Arena *a)
{
	const IcebergSchema *sc = k->schema;
	int i, c;

	if (sc->nidentifier == 0)
		return false;
	k->pk = ARENA_ARRAY(a, int, sc->nidentifier + 1);
	k->types = ARENA_ARRAY(a, SqlType, sc->nidentifier + 1);
	for (i = 0; i < sc->nidentifier; i++)
		for (c = 0; c < sc->nfields; c++)
			if (sc->fields[c].id == sc->identifier_field_ids[i]) {
				k->types[k->npk] = sc->fields[c].type;
				k->pk[k->npk++] = c;
			}
	return k->npk == sc->nidentifier;
}

static int
cmp_path(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The data files of files[] whose path is not among old[]'s. */
static DataFile *
new_files(const DataFile *old, int nold, const DataFile *files, int n, Arena *a, int *nout)
{
	char **paths = ARENA_ARRAY(a, char *, nold + 1);
	DataFile *out = ARENA_ARRAY(a, DataFile, n + 1);
	int i, k = 0;

	for (i = 0; i < nold; i++)
		paths[i] = old[i].file_path;
	qsort(paths, (size_t)nold, sizeof(char *), cmp_path);
	for (i = 0; i < n; i++) {
		const char *p = files[i].file_path;
		if (files[i].content == CONTENT_DATA &&
		    !(nold > 0 && bsearch(&p, paths, (size_t)nold, sizeof(char *), cmp_path)))
			out[k++] = files[i];
	}
	*nout = k;
	return out;
}

static Operator *
key_scan(KeyCheck *k, DataFile *files, int n)
{
	return scan_new(&k->ctx, k->schema, k->npk, k->pk, files, n, false, k->md);
}

/* Run left SEMI JOIN right on the key columns; its rows into *out. */
static int
semi_join_keys(KeyCheck *k, Operator *left, Operator *right, RowStore **out)
{
	Arena *a = k->ctx.arena;
	Expr **lk = ARENA_ARRAY(a, Expr *, k->npk), **rk = ARENA_ARRAY(a, Expr *, k->npk);
	RowStore *rs = rowstore_new(&k->ctx, k->npk, k->types, NULL);
	Operator *op;
	Batch *b;
	int c, rc;

	for (c = 0; c < k->npk; c++) {
		lk[c] = expr_colref(a, c, k->types[c]);
		rk[c] = expr_colref(a, c, k->types[c]);
	}
	op = hash_join_new(&k->ctx, left, right, JOIN_SEMI, k->npk, lk, rk, NULL, false);
	if ((rc = op_open(op)) == FLOE_OK)
		while ((rc = op_next(op, &b)) == FLOE_OK && b) {
			if (!b->count)
				continue;
			batch_compact(b);
			rowstore_append(rs, b);
		}
	op_close(op);
	*out = rs;
	return rc;
}

/* "(a, b)=(1, x)" of the first clashing key, into names / vals. */
static void
key_text(KeyCheck *k, RowStore *rs, char *names, size_t nn, char *vals, size_t nv)
{
	const Batch *b = rowstore_batch(rs, 0);
	size_t un = 0, uv = 0;
	int c;

	names[0] = vals[0] = '\0';
	for (c = 0; c < k->npk && un < nn - 8 && uv < nv - 8; c++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[c], 0, k->ctx.arena, &len);
		un += (size_t)snprintf(names + un, nn - un, "%s%s", c ? ", " : "",
				       k->schema->fields[k->pk[c]].name);
		uv += (size_t)snprintf(vals + uv, nv - uv, "%s%.*s", c ? ", " : "",
				       t ? (int)(len > 200 ? 200 : len) : 4, t ? t : "null");
	}
}

int
keycheck_rebase(FileIO *io, const Table *from, const Table *to, const DataFile *add, int nadd,
		const char *const *remove, int nremove, bool retry, Arena *a, floe_error *err)
{
	KeyCheck k;
	DataFile *fromf, *tof, *theirs, *mine;
	RowStore *clash, *was;
	int nfrom, nto, ntheirs, nmine, i;
	char names[600], vals[600];

	memset(&k, 0, sizeof k);
	k.ctx.arena = a;
	k.ctx.io = io;
	k.ctx.err = err;
	k.ctx.threads = 1;
	/* k.ctx.env stays NULL: the check scans key columns and compares
	 * values, it evaluates no expression that reads the session */
	k.md = to->md;
	k.schema = metadata_current_schema(to->md);
	k.table = to->name;
	if (!k.schema || !key_columns(&k, a) || nadd == 0 ||
	    strcmp(from->metadata_location, to->metadata_location) == 0)
		return FLOE_OK;
	mine = ARENA_ARRAY(a, DataFile, nadd);
	for (i = nmine = 0; i < nadd; i++)
		if (add[i].content == CONTENT_DATA)
			mine[nmine++] = add[i];
	if (nmine == 0)
		return FLOE_OK;
	TRY(table_scan_files(io, from, -1, a, &fromf, &nfrom, err));
	TRY(table_scan_files(io, to, -1, a, &tof, &nto, err));
	theirs = new_files(fromf, nfrom, tof, nto, a, &ntheirs);
	if (nremove > 0) {
		int kept = 0, j;
		for (i = 0; i < ntheirs; i++) {
			for (j = 0; j < nremove && strcmp(remove[j], theirs[i].file_path) != 0; j++)
				;
			if (j == nremove)
				theirs[kept++] = theirs[i];
		}
		ntheirs = kept;
	}
	if (ntheirs == 0)
		return FLOE_OK;
	TRY(semi_join_keys(&k, key_scan(&k, theirs, ntheirs), key_scan(&k, mine, nmine), &clash));
	if (rowstore_rows(clash) == 0)
		return FLOE_OK;
	key_text(&k, clash, names, sizeof names, vals, sizeof vals);
	if (!retry) {
		/* a clash on a key that F had is the same row written twice */
		if (nfrom > 0)
			TRY(semi_join_keys(&k, key_scan(&k, fromf, nfrom),
					   rowstore_scan_new(&k.ctx, clash), &was));
		if (nfrom == 0 || rowstore_rows(was) == 0) {
			floe_errorf(err, ERRCODE_UNIQUE_VIOLATION,
				    "duplicate key value violates unique constraint \"%s_pkey\"",
				    k.table);
			return floe_error_detail(err, "Key (%s)=(%s) already exists.", names, vals);
		}
	}
	floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
		    "could not serialize access due to concurrent update");
	floe_error_detail(err, "Key (%s)=(%s) of table \"%s\" was written by a concurrent "
			  "transaction.", names, vals, k.table);
	return floe_error_hint(err, "The transaction might succeed if retried.");
}
