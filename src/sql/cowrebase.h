/*
 * cowrebase.h — re-base a copy-on-write change of a PRIMARY KEY table
 * over a concurrent commit that rewrote (or deleted rows of) the same data
 * files, key by key (txn.c's COMMIT re-base, rule 3).
 *
 * A copy-on-write UPDATE / DELETE removes data file F and adds F' (F's
 * rows, the deleted ones left out, the updated ones changed).  When
 * another commit replaced F meanwhile (by G: its own rewrite) or deleted
 * rows of F, the change cannot be staged as it is (F is gone, or F' would
 * bring the deleted rows back).  cowrebase_apply turns it into the same
 * change on the new head:
 *
 *   prev rows  the live rows of the files the change removes that the new
 *              head no longer has as they were (by key: PRIMARY KEY)
 *   kept       the keys whose row the change's added files hold unchanged
 *              (copied by the rewrite); their copies are dropped from the
 *              added files (the new head's version stands)
 *   mine       the other keys of the prev rows: deleted or updated by the
 *              change.  Each must be live in the new head with the very row
 *              prev had (else both commits changed that key: 40001); the
 *              new head's files holding them are rewritten without them
 *              (those rewrites are "carried": rows of the other commit,
 *              not checked as the change's own keys by keycheck)
 *
 * Nothing comes back (kept copies are dropped), nothing vanishes (the
 * other commit's rows are copied, only the change's keys left out).
 * Rows are compared by their text (keydiff.h).  Changes that also add
 * delete files, remove every file, tables without a PRIMARY KEY, or a
 * changed schema are left alone (*done false): table_rebase_check's and
 * table_stage's 40001 stand.
 *
 * INTERFACE ROUTINES
 *   cowrebase_apply(io, prev, head, ch, a, &written, &nwritten,
 *                   &carried, &ncarried, &done, err)
 *        ch (arrays replaced in a) re-based from prev onto head; written:
 *        the data files it wrote (the caller owns them: delete them unless
 *        published); carried: in/out, the added files that hold rows of
 *        other commits.
 */
#ifndef FLOE_COWREBASE_H
#define FLOE_COWREBASE_H

#include <stdbool.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"
#include "table/table.h"

int cowrebase_apply(FileIO *io, const Table *prev, const Table *head, TableChange *ch, Arena *a,
		    char ***written, int *nwritten, char ***carried, int *ncarried, bool *done,
		    floe_error *err);

#endif
