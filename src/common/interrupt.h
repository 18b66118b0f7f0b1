/*
 * interrupt.h — the running statement's cancel flag, per thread, for code
 * below the engine that waits (S3 requests and their retry back-off) and
 * has no ExecCtx to ask.  session_exec sets it for its thread; parallel
 * workers set their statement's flag when they start.  The flag is the
 * one CancelRequest, statement_timeout and floe serve's SIGTERM raise.
 *
 * INTERFACE ROUTINES
 *   interrupt_set(flag)    this thread's flag (NULL: none); returns the
 *                          previous one, to restore
 *   interrupt_pending()    true when this thread's flag is raised
 */
#ifndef FLOE_INTERRUPT_H
#define FLOE_INTERRUPT_H

#include <stdbool.h>

volatile int *interrupt_set(volatile int *flag);
bool interrupt_pending(void);

#endif
