/*
 * error.c — filling floe_error (see error.h).  Never allocates.
 *
 * Spec: the fields of PostgreSQL's ErrorResponse (protocol-error-fields):
 * message (M), detail (D), hint (H), position (P), context "Where" (W).
 *
 * INTERFACE ROUTINES: see error.h.  Invariant: every text field is always
 * NUL-terminated; a too-long text is cut, never overflows.
 */
#include <stdio.h>
#include <string.h>
#include "common/error.h"

void
floe_error_clear(floe_error *err)
{
	err->sqlstate[0] = 0;
	err->position = 0;
	err->message[0] = 0;
	err->detail[0] = 0;
	err->hint[0] = 0;
	err->context[0] = 0;
}

int
floe_errorf(floe_error *err, const char *sqlstate, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return FLOE_ERR;
	floe_error_clear(err);
	snprintf(err->sqlstate, sizeof err->sqlstate, "%s", sqlstate);
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	va_end(ap);
	return FLOE_ERR;
}

int
floe_error_detail(floe_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return FLOE_ERR;
	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof err->detail, fmt, ap);
	va_end(ap);
	return FLOE_ERR;
}

int
floe_error_hint(floe_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return FLOE_ERR;
	va_start(ap, fmt);
	vsnprintf(err->hint, sizeof err->hint, fmt, ap);
	va_end(ap);
	return FLOE_ERR;
}

int
floe_error_context(floe_error *err, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (!err)
		return FLOE_ERR;
	n = strlen(err->context);
	if (n > 0 && n + 1 < sizeof err->context)
		err->context[n++] = '\n';
	if (n + 1 >= sizeof err->context)
		return FLOE_ERR;
	va_start(ap, fmt);
	vsnprintf(err->context + n, sizeof err->context - n, fmt, ap);
	va_end(ap);
	return FLOE_ERR;
}

int
floe_error_prefix(floe_error *err, const char *fmt, ...)
{
	char pre[512], old[sizeof err->message];
	va_list ap;

	if (!err)
		return FLOE_ERR;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof pre, fmt, ap);
	va_end(ap);
	size_t np;

	memcpy(old, err->message, sizeof old);
	np = strlen(pre);
	memcpy(err->message, pre, np);
	memcpy(err->message + np, old, sizeof err->message - np - 1);
	err->message[sizeof err->message - 1] = 0;
	return FLOE_ERR;
}

int
floe_error_position(floe_error *err, int position)
{
	if (err)
		err->position = position;
	return FLOE_ERR;
}

int
floe_error_is(const floe_error *err, const char *sqlstate)
{
	return strcmp(err->sqlstate, sqlstate) == 0;
}

const char *
floe_notice_severity(const floe_error *notice)
{
	const char *c = notice->sqlstate;
	if ((c[0] == '0' && c[1] == '1') || (c[0] == '2' && c[1] == '5'))
		return "WARNING";
	if (!strcmp(c, "0LP01"))   /* GRANT ON TABLE of a sequence: PostgreSQL's WARNING */
		return "WARNING";
	return "NOTICE";
}
