/*
 * func_datetime.c — date/time operators and functions (in progress).
 *
 * INTERFACE ROUTINES
 *   func_datetime_table[] / func_datetime_count   (searched by func_registry.c)
 */
#include "func/func_internal.h"

const ScalarFunc func_datetime_table[] = {
	{ "", NULL, 0, 0, { 0 }, 0, FRET_FIXED, true, false },
};
const int func_datetime_count = 0;
