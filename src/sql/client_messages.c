/*
 * client_messages.c — client_min_messages: the session's notices filtered
 * by level (see client_messages.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "sql/client_messages.h"

/* PostgreSQL's elog levels (utils/elog.h) and client_message_level_options
 * (guc.c): name, level; hidden names map to the first visible one */
static const struct {
	const char *name;
	int level;
} levels[] = {
	{ "debug5", 10 }, { "debug4", 11 }, { "debug3", 12 }, { "debug2", 13 }, { "debug1", 14 },
	{ "debug", 13 },  { "log", 15 },    { "info", 17 },   { "notice", 18 }, { "warning", 19 },
	{ "error", 21 },
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))
#define LEVEL_INFO 17
#define LEVEL_NOTICE 18
#define LEVEL_WARNING 19

static int
find_level(const char *value)
{
	int i;
	for (i = 0; i < NLEVELS; i++)
		if (!strcasecmp(levels[i].name, value))
			return i;
	return -1;
}

int
client_messages_canon(const char *value, char *out, size_t cap, floe_error *err)
{
	int i = find_level(value), k;

	if (i < 0) {
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for parameter \"client_min_messages\": \"%s\"", value);
		return floe_error_hint(err, "Available values: debug5, debug4, debug3, debug2, debug1, "
				       "log, notice, warning, error.");
	}
	/* SHOW prints the first name with that level (guc.c
	 * config_enum_lookup_by_value): "debug" -> "debug2" */
	for (k = 0; levels[k].level != levels[i].level; k++)
		;
	snprintf(out, cap, "%s", levels[k].name);
	return FLOE_OK;
}

/* the level a notice is sent at */
static int
notice_level(const floe_error *n)
{
	return !strcmp(floe_notice_severity(n), "WARNING") ? LEVEL_WARNING : LEVEL_NOTICE;
}

static int
session_level(Session *s)
{
	const char *v = session_setting(s, "client_min_messages");
	int i = v && *v ? find_level(v) : -1;
	return i < 0 ? LEVEL_NOTICE : levels[i].level;
}

static void
cm_notice(void *ctx, const floe_error *n)
{
	ClientMessages *cm = ctx;
	int level = notice_level(n);

	if (level == LEVEL_INFO || level >= session_level(cm->session))
		cm->inner->notice(cm->inner->ctx, n);
}

static int
cm_columns(void *ctx, int ncols, const char *const *names, const SqlType *types)
{
	ClientMessages *cm = ctx;
	return cm->inner->columns(cm->inner->ctx, ncols, names, types);
}

static int
cm_batch(void *ctx, const Batch *b)
{
	ClientMessages *cm = ctx;
	return cm->inner->batch(cm->inner->ctx, b);
}

static int
cm_complete(void *ctx, const char *tag)
{
	ClientMessages *cm = ctx;
	return cm->inner->complete(cm->inner->ctx, tag);
}

static int
cm_copy_out_begin(void *ctx, int ncols)
{
	ClientMessages *cm = ctx;
	return cm->inner->copy_out_begin(cm->inner->ctx, ncols);
}

static int
cm_copy_out_data(void *ctx, const char *data, size_t len)
{
	ClientMessages *cm = ctx;
	return cm->inner->copy_out_data(cm->inner->ctx, data, len);
}

static int
cm_copy_out_end(void *ctx)
{
	ClientMessages *cm = ctx;
	return cm->inner->copy_out_end(cm->inner->ctx);
}

static int
cm_copy_in_begin(void *ctx, int ncols)
{
	ClientMessages *cm = ctx;
	return cm->inner->copy_in_begin(cm->inner->ctx, ncols);
}

static int
cm_copy_in_read(void *ctx, char *buf, size_t cap, size_t *len, floe_error *err)
{
	ClientMessages *cm = ctx;
	return cm->inner->copy_in_read(cm->inner->ctx, buf, cap, len, err);
}

void
client_messages_wrap(ClientMessages *cm, Session *session, ResultSink *inner)
{
	memset(cm, 0, sizeof *cm);
	cm->inner = inner;
	cm->session = session;
	cm->sink.ctx = cm;
	cm->sink.columns = inner->columns ? cm_columns : NULL;
	cm->sink.batch = inner->batch ? cm_batch : NULL;
	cm->sink.complete = inner->complete ? cm_complete : NULL;
	cm->sink.notice = inner->notice ? cm_notice : NULL;
	cm->sink.copy_out_begin = inner->copy_out_begin ? cm_copy_out_begin : NULL;
	cm->sink.copy_out_data = inner->copy_out_data ? cm_copy_out_data : NULL;
	cm->sink.copy_out_end = inner->copy_out_end ? cm_copy_out_end : NULL;
	cm->sink.copy_in_begin = inner->copy_in_begin ? cm_copy_in_begin : NULL;
	cm->sink.copy_in_read = inner->copy_in_read ? cm_copy_in_read : NULL;
}
