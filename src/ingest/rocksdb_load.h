/*
 * rocksdb_load.h — librocksdb loaded when the insert buffer is first
 * opened, not at every process start.
 *
 * floe is not linked against librocksdb: rocksdb_load.c defines the RocksDB
 * C functions buffer.c calls, each forwarding to the library that
 * rdb_load() opens with dlopen.  Linked, the library's ~22,000 symbol
 * relocations (and libstdc++'s, and its static constructors) ran in every
 * floe process, about 35M instructions at start-up, while most processes
 * (a query of a warehouse without an insert buffer) never open one.
 *
 * INTERFACE ROUTINES
 *   rdb_load(err)   open the library once (thread-safe); FLOE_OK, or an
 *                   error naming the library (58000) if it cannot be loaded
 */
#ifndef FLOE_ROCKSDB_LOAD_H
#define FLOE_ROCKSDB_LOAD_H

#include "common/error.h"

int rdb_load(floe_error *err);

#endif
