/*
 * groupcommit.h — group commit: autocommit appends to one table that
 * arrive together (INSERT ... SELECT, INSERT ... VALUES the insert buffer
 * does not take, COPY FROM) from concurrent sessions of this process become
 * ONE Iceberg commit (docs/ingest.md, "Group commit").
 *
 * A statement's change is eligible when it only adds data files (no file
 * removed, no delete files, not an insert-buffer flush) to a table without
 * a PRIMARY KEY (a key re-check is per statement).  The first statement to
 * arrive at an idle table leads: it commits every change queued for the
 * table by then (its own first) as one snapshot whose "floe.job-id" lists
 * every statement's job id (comma-separated; table_holds_commit matches one
 * of them), then wakes the others.  Statements that arrive while a commit
 * is in flight queue for the next one, led by the first of them.  No
 * statement waits for anything but the commit that carries its files.
 * Each statement stays atomic (all of its files are in the one commit) and
 * is acknowledged only after that commit landed; a failed commit fails every
 * statement in it with its error (each caller then decides about its own
 * files: txn_commit_failed).
 *
 * INTERFACE ROUTINES
 *   groupcommit_eligible(base, ch)
 *   groupcommit_commit(s, base, ch, a, &out, err)   txn_commit's autocommit path
 */
#ifndef FLOE_INGEST_GROUPCOMMIT_H
#define FLOE_INGEST_GROUPCOMMIT_H

#include "sql/bind.h"
#include "table/table.h"

bool groupcommit_eligible(const Table *base, const TableChange *ch);
int groupcommit_commit(Session *s, Table *base, const TableChange *ch, Arena *a, Table **out,
		       floe_error *err);

#endif
