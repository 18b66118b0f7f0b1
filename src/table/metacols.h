/*
 * metacols.h — the values of Iceberg's per-file metadata columns for a data
 * file (spec "Reserved Field IDs": _file 2147483646, _pos 2147483645,
 * _deleted 2147483644, _spec_id 2147483643, _partition 2147483642), as the
 * scan (exec/scan.c) produces them and t$partitions shows the partition.
 *
 * _partition is a struct in the spec; floe has no record type yet, so it
 * is text: a JSON object {"field":value,...} in the spec's field order
 * (numbers and booleans bare, everything else as a JSON string, NULL as
 * null; {} for an unpartitioned file).
 *
 * INTERFACE ROUTINES
 *   metacol_partition_text(md, f, a, &text, err)   the file's _partition
 */
#ifndef FLOE_TABLE_METACOLS_H
#define FLOE_TABLE_METACOLS_H

#include "common/arena.h"
#include "common/error.h"
#include "table/iceberg.h"
#include "table/metadata.h"

int metacol_partition_text(const TableMetadata *md, const DataFile *f, Arena *a, char **out,
			   floe_error *err);

#endif
