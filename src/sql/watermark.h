/*
 * watermark.h — the commits a session made visible, as a watermark a later
 * read may pass to be sure it observes them (the HTTP query API's
 * "watermark", docs/http.md).
 *
 * A watermark is text: entries "<schema>.<table>:<sequence number>" joined
 * by ',', schema and table %-escaped (every byte outside [A-Za-z0-9_-] as
 * %XX).  The sequence number is the table's last-sequence-number once the
 * commit landed (the new snapshot's sequence-number): Iceberg numbers a
 * table's snapshots in commit order, so a reader that sees the table at a
 * sequence number >= it sees that commit (or a later state built on it).
 *
 * txn.c calls watermark_note after each commit it publishes (an autocommit
 * statement's table_commit, every table of a block's COMMIT); the notes
 * accumulate until session_take_watermark (engine.h) takes them.
 *
 * INTERFACE ROUTINES
 *   watermark_note(s, ns, name, seq)      record a landed commit
 *   watermark_free(s)                     (session_free)
 *   session_take_watermark / session_await_watermark: engine.h
 */
#ifndef FLOE_WATERMARK_H
#define FLOE_WATERMARK_H

#include <stdint.h>
#include "sql/bind.h"

void watermark_note(Session *s, const char *ns, const char *name, int64_t seq);
void watermark_free(Session *s);

#endif
