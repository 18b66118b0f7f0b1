/*
 * admission.h — admission control for direct-path DML (docs/ingest.md,
 * "Admission control"): at most floe.max_concurrent_dml statements of this
 * process that write tables directly (INSERT the insert buffer does not
 * take, UPDATE, DELETE, MERGE, COPY ... FROM) run at once; the others wait
 * in arrival order, at most floe.dml_queue_timeout, then 53400.  A cancel
 * (or statement_timeout) ends the wait with 57014.  0 (the default): no cap.
 *
 * INTERFACE ROUTINES
 *   admission_set_cap(n) / admission_cap()          floe.max_concurrent_dml
 *   admission_set_timeout(ms)                       floe.dml_queue_timeout
 *   admission_enter(cancel, err)                    take a place (waits)
 *   admission_leave()                               give it back
 *   admission_running()                             places taken now
 */
#ifndef FLOE_INGEST_ADMISSION_H
#define FLOE_INGEST_ADMISSION_H

#include <stdint.h>
#include "common/error.h"

void admission_set_cap(int64_t n);
int64_t admission_cap(void);
void admission_set_timeout(int64_t ms);
int admission_enter(volatile int *cancel, floe_error *err);
void admission_leave(void);
int admission_running(void);

#endif
