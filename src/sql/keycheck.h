/*
 * keycheck.h — PRIMARY KEY uniqueness across concurrent commits.
 *
 * A statement checks the keys it writes against the snapshot it read
 * (insert.c, merge.c, dml.c: 23505).  A commit that is re-based on a newer
 * head (table_commit's retry after a lost compare-and-swap, a block's
 * COMMIT) must check them again against what committed in between:
 * keycheck_rebase does, for tables with identifier fields.
 *
 * INTERFACE ROUTINES
 *   keycheck_rebase(io, from, to, add, nadd, remove, nremove, retry, a, err)
 *        from: the head the keys were last checked on; to: the new head;
 *        add: the change's added files (data files are read with the
 *        deletes attached to them, delete files are skipped); remove: the
 *        paths the change removes (a file of `to` it removes is not
 *        checked against: a copy-on-write re-base, cowrebase.h).
 *        23505 when a live row of a data file that is in `to` but not in
 *        `from` has the key of a live row of add; 40001 instead when that
 *        key was live in `from` too (both commits rewrote the same row),
 *        or when retry (ON CONFLICT: the statement re-runs and decides
 *        again).  No identifier fields, no new data files: FLOE_OK.
 */
#ifndef FLOE_KEYCHECK_H
#define FLOE_KEYCHECK_H

#include <stdbool.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/table.h"

int keycheck_rebase(FileIO *io, const Table *from, const Table *to, const DataFile *add, int nadd,
		    const char *const *remove, int nremove, bool retry, Arena *a, floe_error *err);

#endif
