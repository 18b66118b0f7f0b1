/*
 * branch.h — write views of a table (branch.c): a commit through one
 * moves a branch other than main, or is staged (write-audit-publish).
 *
 * Spec: apache/iceberg format/spec.md "Snapshot References" (a branch is a
 * named head; main is current-snapshot-id); the staging follows Iceberg
 * Java's SnapshotProducer.stageOnly() and the "wap.id" summary key.
 *
 * A view is a Table (table.h) whose md is a shallow copy with the branch's
 * head as current snapshot, so every scan of "-1 = current" (DML scans,
 * key checks, re-base checks) reads the branch; table_commit / table_stage
 * see Table.branch and write the new snapshot to that ref only, keeping
 * current-snapshot-id and the snapshot-log as they were (the log records
 * main's history).  A staged view (Table.wap_id) adds the snapshot with
 * "wap.id" in its summary and moves no ref.  The sequence number and v3
 * row ids are the table's (shared by every branch).
 *
 * INTERFACE ROUTINES
 *   table_on_branch(t, branch, create, a, &view, err)  42704 missing (create:
 *                                     a new branch from main's head), 42809 a tag
 *   table_staging(t, wap_id, a, &view)                 commits stage only
 *   table_view_like(fresh, like, a, &view, err)        a re-loaded head seen as like
 */
#ifndef FLOE_TABLE_BRANCH_H
#define FLOE_TABLE_BRANCH_H

#include "table/table.h"

/* "main" (or NULL) gives t itself. */
int table_on_branch(const Table *t, const char *branch, bool create, Arena *a, Table **out,
		    floe_error *err);
Table *table_staging(const Table *t, const char *wap_id, Arena *a);
/* fresh (a table_load) with like's view (branch, wap id): a commit's
 * re-base; a branch dropped meanwhile is 42704. */
int table_view_like(const Table *fresh, const Table *like, Arena *a, Table **out,
		    floe_error *err);

#endif
