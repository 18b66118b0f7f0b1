/*
 * automaint.h — floe serve's automatic maintenance pass (automaint.c;
 * docs/maintenance.md "Automatic maintenance").
 *
 * A thread of its own (beside the insert buffer's flush thread) wakes up
 * every floe.maintenance_interval (a process setting, default 5min; 0: no
 * pass) and looks at every table of every schema.  A table whose property
 * floe.maintenance.enabled is true (default false: nothing happens to it)
 * gets, in this order, each step its properties leave on:
 *
 *   compaction        compact_table (ingest/compact.h, the insert buffer's
 *                     policy): a partition's small data files (< 3/4 of
 *                     write.target-file-size-bytes, no deletes), once it
 *                     has floe.maintenance.compaction.min-files (16) of
 *                     them, bin-packed into one "replace" snapshot
 *   rewrite manifests table_rewrite_manifests (CALL rewrite_manifests) when
 *                     the current snapshot has at least
 *                     floe.maintenance.rewrite-manifests.min-count (16)
 *                     manifests smaller than commit.manifest.target-size-bytes
 *                     (8 MB, Iceberg's default); under the table's write turn
 *   expire snapshots  table_expire_snapshots (VACUUM's expiry): the table's
 *                     history.expire.* and each ref's retention
 *   orphan files      table_remove_orphans (VACUUM's) of the files older
 *                     than floe.maintenance.remove-orphan-files.older-than-ms
 *                     (3 days; at least 1 hour, so that writes in flight are
 *                     safe), at most every
 *                     floe.maintenance.remove-orphan-files.interval-ms (1 hour;
 *                     the scan reads every manifest and lists the folders)
 *
 * Each step is switched off by its floe.maintenance.<step>.enabled = false.
 * Values are checked when set (automaint_check_property: 22023 naming the
 * property; an unknown floe.maintenance.* key is 22023 too).
 *
 * Invariants:
 *   1. A pass never fails a user's statement: the steps commit with the
 *      compare-and-swap and its retries, as the statements do; a commit
 *      conflict that outlasts them (40001), or a compaction that gave up (an
 *      open transaction block), is status "retry" and done again next pass.
 *   2. What it did is visible: a line on floe serve's stderr per table that
 *      changed (or failed, once per distinct error), and SHOW MAINTENANCE
 *      STATUS (automaint_utility): one row per enabled table, totals since
 *      the process started, the last pass's status and message.
 *   3. Stopping (engine_close) waits for the table in hand; a compaction in
 *      flight is cancelled (57014, given up quietly).
 *
 * INTERFACE ROUTINES
 *   automaint_start(e, err) / automaint_stop(e)        (engine.c)
 *   automaint_check_property(k, v, err)  a floe.maintenance.* table
 *                                        property's value (ddl.c)
 *   automaint_is_setting(name), automaint_canon_setting(name, v, out, cap,
 *   err), automaint_setting_default(name)   floe.maintenance_interval
 *   automaint_utility(s, sql, sink, err, &rc)   SHOW MAINTENANCE STATUS
 */
#ifndef FLOE_SQL_AUTOMAINT_H
#define FLOE_SQL_AUTOMAINT_H

#include <stdbool.h>
#include <stddef.h>
#include "sql/bind.h"

int automaint_start(Engine *e, floe_error *err);
void automaint_stop(Engine *e);

/* k starts with "floe.maintenance.": FLOE_OK for a known key with a
 * valid value, else 22023 naming it */
int automaint_check_property(const char *k, const char *v, floe_error *err);

bool automaint_is_setting(const char *name);
int automaint_canon_setting(const char *name, const char *value, char *out, size_t cap,
			    floe_error *err);
const char *automaint_setting_default(const char *name);

bool automaint_utility(Session *s, const char *sql, ResultSink *sink, floe_error *err, int *rc);

#endif
