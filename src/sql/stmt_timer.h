/*
 * stmt_timer.h — statement_timeout for every embedding of the engine.
 *
 * session_exec arms a StmtTimer for its top-level call when the session's
 * statement_timeout is set; a process-wide watchdog thread raises the
 * statement's cancel flag at the deadline, so every phase that polls the
 * flag (binder, planner, operators, I/O waits) stops with 57014, whether
 * the caller is floe serve, the embedded shell, the HTTP API or a test
 * runner linking the engine (tests/tools/sqltest).  The caller then
 * rewrites the 57014's text to PostgreSQL's "canceling statement due to
 * statement timeout".
 *
 * INTERFACE ROUTINES
 *   stmt_timer_arm(t, flag, us)   start: *flag = 1 once us microseconds pass
 *   stmt_timer_disarm(t)          stop; true if it fired
 *
 * Invariants
 *   1. A StmtTimer lives on its caller's stack between arm and disarm; the
 *      watchdog touches it only under the list's mutex, and disarm unlinks
 *      it under that mutex, so the watchdog never sees a dead timer.
 *   2. The watchdog is started once (pthread_once) and never stops; it
 *      holds no memory of its own.
 */
#ifndef FLOE_STMT_TIMER_H
#define FLOE_STMT_TIMER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct StmtTimer {
	int64_t deadline_us;            /* CLOCK_MONOTONIC */
	volatile int *flag;
	bool fired;
	struct StmtTimer *next;
} StmtTimer;

void stmt_timer_arm(StmtTimer *t, volatile int *flag, int64_t us);
bool stmt_timer_disarm(StmtTimer *t);

#endif
