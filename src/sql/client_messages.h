/*
 * client_messages.h — client_min_messages (PostgreSQL's setting) acted on:
 * which of a session's notices reach its client.
 *
 * PostgreSQL's rule (elog.c): a message goes to the client when its level
 * is at least the setting's, and INFO always does; ERROR is never
 * filtered (the highest value, `error`, still lets errors through).  The
 * levels, lowest first: debug5 .. debug1, log, notice, warning, error
 * (`debug` is debug2; `info` is accepted and means: NOTICE and up).
 * floe sends only NOTICEs and WARNINGs (common/error.h
 * floe_notice_severity), so `warning` drops its NOTICEs and `error` drops
 * both.
 *
 * INTERFACE ROUTINES
 *   client_messages_canon(value, out, cap, err)
 *                        a SET's value checked and canonical ("DEBUG" ->
 *                        "debug2"); 22023 with PostgreSQL's message and
 *                        HINT for anything else
 *   client_messages_wrap(&cm, session, inner)
 *                        a sink that forwards every callback of `inner`
 *                        (NULL ones stay NULL) and drops the notices below
 *                        the session's client_min_messages, read as each
 *                        is sent (a SET earlier in the same string, or a
 *                        set_config() in the same statement, counts);
 *                        &cm.sink is the wrapped sink, valid while cm is
 */
#ifndef FLOE_CLIENT_MESSAGES_H
#define FLOE_CLIENT_MESSAGES_H

#include <stddef.h>
#include "common/error.h"
#include "sql/engine.h"

typedef struct ClientMessages {
	ResultSink sink;       /* the wrapped sink */
	ResultSink *inner;
	Session *session;
} ClientMessages;

int client_messages_canon(const char *value, char *out, size_t cap, floe_error *err);
void client_messages_wrap(ClientMessages *cm, Session *session, ResultSink *inner);

#endif
