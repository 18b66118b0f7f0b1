/*
 * warehouse.h — where a warehouse's files and the engine's own state go.
 *
 * A warehouse is a local folder or an object-store prefix
 * ("s3://bucket/prefix", "s3a://..."): its tables live under it, and the
 * engine's local state (the SQLite catalog.db, path-maps, users, roles,
 * orphan-candidates) lives in a local folder: the warehouse itself when it
 * is a folder, else the state folder: EngineConfig.state_dir (floe
 * --catalog DIR), else $FLOE_STATE_DIR, else
 * $XDG_STATE_HOME/floe/s3/<bucket>/<prefix> (XDG_STATE_HOME defaults to
 * ~/.local/state).
 *
 * INTERFACE ROUTINES
 *   warehouse_is_remote(warehouse)          an s3:// or s3a:// prefix
 *   warehouse_local_dir(buf, n, warehouse, state_dir)
 *                                           the local folder (not created)
 *   warehouse_fileio(&io, root, local_dir, props, nprops, err)
 *                                           a FileIO over root, with the
 *                                           "key=value" file-io properties
 *   warehouse_explain_requests(&before, remote, arena, &lines, &n)
 *                                           EXPLAIN ANALYZE's "Object Store:"
 *                                           line: requests since `before`
 *                                           (process-wide counters), added
 *                                           when remote or any were made
 */
#ifndef FLOE_WAREHOUSE_H
#define FLOE_WAREHOUSE_H

#include <stdbool.h>
#include <stddef.h>
#include "common/error.h"
#include "storage/fileio.h"

bool warehouse_is_remote(const char *warehouse);
void warehouse_local_dir(char *buf, size_t n, const char *warehouse, const char *state_dir);
int warehouse_fileio(FileIO **out, const char *root, const char *local_dir, char *const *props,
		     int nprops, floe_error *err);

void warehouse_explain_requests(const FileIOStats *before, bool remote, Arena *a, char ***lines,
				int *n);

#endif
