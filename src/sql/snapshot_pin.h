/*
 * snapshot_pin.h — snapshot pinning (Gnok's floe.snapshot_mode;
 * snapshot_pin.c; docs/transactions.md "Snapshot pinning"): which snapshot
 * a statement outside a transaction block reads of each table it names.
 *
 *   floe.snapshot_mode = 'latest'   (default) every statement asks the
 *                        catalog for the table's current metadata
 *   floe.snapshot_mode = 'pinned'   the session keeps the table as its
 *                        first read found it for floe.snapshot_pin_ttl
 *                        (default 15s) and reads that snapshot without a
 *                        catalog round trip; at most
 *                        floe.snapshot_pin_max_tables (default 64) tables
 *                        are pinned (others are read latest until a pin
 *                        expires)
 *   floe.snapshot_mode = 'explicit:<id>'   every table read is snapshot
 *                        <id> (FOR VERSION AS OF <id> on each; 22023 for a
 *                        table without it); a statement that writes is
 *                        25006, as in a read-only transaction
 *
 * Invariants (pinned):
 *   1. A session reads its own writes: a commit of the session (autocommit
 *      or COMMIT, txn.c) ends its pin of that table, and any statement but
 *      a query, SHOW or SET ends all its pins (DDL, COPY, CALL, ...).
 *   2. Rows seen are never lost: a pin ends when the insert buffer of this
 *      process flushes (rows the pin's snapshot lacks left the buffer), and
 *      with a buffer owned by another process or shared by nodes
 *      (postgres backend) nothing is pinned.  While a table has buffered
 *      rows its reads take the latest snapshot anyway (ingest.h overlay).
 *   3. Only reads are pinned: a write statement's target is loaded latest
 *      (dml.c, merge.c, insert.c); transaction blocks keep their own rules
 *      (txn.h).
 *   4. A pin's Table lives in its own arena, counted: it is freed when the
 *      pin is gone and every statement arena (plan, cursor, portal) that
 *      got the Table was reset.
 *
 * INTERFACE ROUTINES
 *   snapshot_pin_load(s, ns, name, a, &t, &snap, &schema, err)   select.c:
 *        the table to read; *snap >= 0 (and *schema) for explicit mode
 *   snapshot_pin_forget(s, ns, name)       a commit of the session (txn.c)
 *   snapshot_pin_after_stmt(s, node)       engine.c, after each statement
 *   snapshot_pin_check_write(s, err)       25006 in explicit mode
 *   snapshot_pin_session_free(s)
 *   snapshot_pin_is_setting / _canon_setting / _setting_default   engine.c
 */
#ifndef FLOE_SQL_SNAPSHOT_PIN_H
#define FLOE_SQL_SNAPSHOT_PIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sql/bind.h"

struct Table;

int snapshot_pin_load(Session *s, const char *ns, const char *name, Arena *a, struct Table **t,
		      int64_t *snap, const IcebergSchema **schema, floe_error *err);
void snapshot_pin_forget(Session *s, const char *ns, const char *name);
void snapshot_pin_after_stmt(Session *s, const Node *n);
int snapshot_pin_check_write(Session *s, floe_error *err);
void snapshot_pin_session_free(Session *s);

bool snapshot_pin_is_setting(const char *name);
int snapshot_pin_canon_setting(const char *name, const char *value, char *out, size_t cap,
			       floe_error *err);
const char *snapshot_pin_setting_default(const char *name);

#endif
