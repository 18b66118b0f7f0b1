/*
 * keydiff.h — which PRIMARY KEY values of a table changed between two of
 * its heads, and sets of key values (txn.c: key-granular SELECT ... FOR
 * UPDATE / SHARE; copy-on-write re-base).
 *
 * A key value is text: each key column's display text, length-prefixed,
 * NULL marked apart ("N" / "V<len>:<text>"), so the same key read by a
 * query and by a scan of the table gives the same string.  A row's text
 * is the same over every top-level column.
 *
 * INTERFACE ROUTINES
 *   keyset_new(a) / keyset_add(set, key) (false: there already) /
 *   keyset_has(set, key) / keyset_count(set)
 *   keydiff_key(cols, ncols, row, a)     the key text of row `row` of
 *        vectors cols[0..ncols) (a compacted batch's key columns)
 *   keydiff_changed(io, from, to, a, &changed, err)
 *        the keys whose live row differs between heads `from` and `to`
 *        (updated, deleted, inserted or re-inserted: any column's value),
 *        compared by full row text over the data files that differ (a
 *        file in both heads with the same deletes is skipped, so a
 *        copy-on-write rewrite that copies a row unchanged does not
 *        change its key).  *changed NULL: the table has no (top-level)
 *        PRIMARY KEY.
 */
#ifndef FLOE_KEYDIFF_H
#define FLOE_KEYDIFF_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/table.h"
#include "table/iceberg.h"
#include "types/vector.h"

typedef struct KeySet KeySet;

KeySet *keyset_new(Arena *a);
bool keyset_add(KeySet *s, const char *key);
bool keyset_has(const KeySet *s, const char *key);
int64_t keyset_count(const KeySet *s);
/* A set used as a map: key -> val (copied); false when key was there. */
bool keyset_put(KeySet *s, const char *key, const char *val);
const char *keyset_get(const KeySet *s, const char *key, bool *found);
/* Visit every key (and value) of s. */
void keyset_each(const KeySet *s, void (*fn)(void *arg, const char *key, const char *val),
		 void *arg);
/* The text of columns which[0..n) (which NULL: 0..n) of row `row`. */
char *keydiff_cols_text(const Vector *cols, const int *which, int n, uint32_t row, Arena *a);
/* The schema field index of each key column (*npk of them); false when
 * the schema has no PRIMARY KEY of top-level columns. */
bool keydiff_key_columns(const IcebergSchema *sc, Arena *a, int **pk, int *npk);
/* Some key in both sets (NULL: none); set a is iterated. */
const char *keyset_common(const KeySet *a, const KeySet *b);

char *keydiff_key(const Vector *cols, int ncols, uint32_t row, Arena *a);
int keydiff_changed(FileIO *io, const Table *from, const Table *to, Arena *a, KeySet **changed,
		    floe_error *err);
/* "(1, x)": a key text made readable for an error's DETAIL. */
const char *keydiff_key_display(const char *key, Arena *a);

#endif
