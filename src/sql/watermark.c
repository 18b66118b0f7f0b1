/*
 * watermark.c — the commits a session made visible, and waiting for a
 * watermark to be visible (see watermark.h for the text form).
 *
 * Notes are kept per session in a small array (one entry per table; a
 * later commit of the same table raises its sequence number), taken and
 * cleared by session_take_watermark; only for sessions whose embedder
 * asked (session_track_watermark: the HTTP query API), so pgwire sessions
 * and the engine's own (the insert buffer's flush sessions) record nothing.
 *
 * session_await_watermark loads each named table from the catalog (not
 * through the session's transaction block, so a block's own snapshot does
 * not hide a newer commit) and compares its last-sequence-number; it polls
 * until every entry is reached or the timeout ends (55000, naming the table
 * and both numbers).  One catalog serves every node, so on a single catalog
 * a landed commit is seen at once; the wait covers what is not synchronous
 * (a catalog replica).  A buffered INSERT commits nothing and notes nothing
 * (docs/http.md, "Watermarks").
 *
 * INTERFACE ROUTINES: see watermark.h and engine.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/hex.h"
#include "sql/engine.h"
#include "sql/watermark.h"
#include "table/table.h"

#define WM_MAX 64        /* tables remembered per session between takes */

typedef struct WmNote {
	char *ns, *name;
	int64_t seq;
} WmNote;

struct WatermarkNotes {
	int n;
	WmNote e[WM_MAX];
};

void
watermark_note(Session *s, const char *ns, const char *name, int64_t seq)
{
	struct WatermarkNotes *w = s->wm;
	int i;
	if (!w)
		return;          /* the embedder never asked (session_track_watermark) */
	for (i = 0; i < w->n; i++)
		if (!strcmp(w->e[i].ns, ns) && !strcmp(w->e[i].name, name)) {
			if (seq > w->e[i].seq)
				w->e[i].seq = seq;
			return;
		}
	if (w->n == WM_MAX)
		return;          /* more tables than a watermark names: the oldest stay */
	w->e[w->n].ns = xstrdup(ns);
	w->e[w->n].name = xstrdup(name);
	w->e[w->n].seq = seq;
	w->n++;
}

static void
clear(struct WatermarkNotes *w)
{
	int i;
	for (i = 0; i < w->n; i++) {
		free(w->e[i].ns);
		free(w->e[i].name);
	}
	w->n = 0;
}

void
watermark_free(Session *s)
{
	if (s->wm)
		clear(s->wm);
	free(s->wm);
	s->wm = NULL;
}

static size_t
put_escaped(char *buf, size_t cap, size_t at, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9') || c == '_' || c == '-';
		if (plain) {
			if (at + 1 < cap)
				buf[at] = (char)c;
			at++;
		} else {
			if (at + 3 < cap) {
				buf[at] = '%';
				buf[at + 1] = hex[c >> 4];
				buf[at + 2] = hex[c & 15];
			}
			at += 3;
		}
	}
	return at;
}

void
session_track_watermark(Session *s)
{
	if (!s->wm)
		s->wm = xcalloc(1, sizeof *s->wm);
}

int
session_take_watermark(Session *s, char *buf, size_t cap)
{
	struct WatermarkNotes *w = s->wm;
	size_t at = 0;
	int i;
	if (cap)
		buf[0] = 0;
	if (!w || !w->n)
		return 0;
	for (i = 0; i < w->n; i++) {
		char num[32];
		int k;
		if (i) {
			if (at + 1 < cap)
				buf[at] = ',';
			at++;
		}
		at = put_escaped(buf, cap, at, w->e[i].ns);
		if (at + 1 < cap)
			buf[at] = '.';
		at++;
		at = put_escaped(buf, cap, at, w->e[i].name);
		snprintf(num, sizeof num, ":%lld", (long long)w->e[i].seq);
		for (k = 0; num[k]; k++, at++)
			if (at + 1 < cap)
				buf[at] = num[k];
	}
	if (cap)
		buf[at < cap ? at : cap - 1] = 0;
	clear(w);
	return at < cap ? (int)at : -1;
}

/* s[0..n) %-unescaped into out (cap bytes); -1 if malformed or empty. */
static int
unescape(const char *s, size_t n, char *out, size_t cap)
{
	size_t i, o = 0;
	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];
		if (c == '%') {
			int h, l;
			if (i + 2 >= n || (h = hex_value(s[i + 1])) < 0 || (l = hex_value(s[i + 2])) < 0)
				return -1;
			c = h * 16 + l;
			i += 2;
		} else if (c == '.' || c == ':' || c == ',') {
			return -1;
		}
		if (c == 0 || o + 1 >= cap)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = 0;
	return o ? 0 : -1;
}

static int64_t
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One entry "ns.name:seq" of len n: parsed, or 22023. */
static int
parse_entry(const char *p, size_t n, char *ns, char *name, size_t cap, int64_t *seq,
	    floe_error *err)
{
	const char *dot = memchr(p, '.', n), *colon = memchr(p, ':', n);
	char *end;
	if (!dot || !colon || colon < dot || unescape(p, (size_t)(dot - p), ns, cap) ||
	    unescape(dot + 1, (size_t)(colon - dot - 1), name, cap))
		goto bad;
	{
		char num[24];
		size_t m = n - (size_t)(colon + 1 - p);
		if (!m || m >= sizeof num)
			goto bad;
		memcpy(num, colon + 1, m);
		num[m] = 0;
		*seq = strtoll(num, &end, 10);
		if (*end || *seq < 0)
			goto bad;
	}
	return FLOE_OK;
bad:
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "invalid watermark entry \"%.*s\" (expected schema.table:sequence-number)",
			   (int)(n > 200 ? 200 : n), p);
}

int
session_await_watermark(Session *s, const char *wm, int timeout_ms, floe_error *err)
{
	int64_t deadline = mono_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	const char *p = wm;
	Arena *a;
	int rc = FLOE_OK;

	if (!*wm)
		return FLOE_OK;
	a = arena_new(0);
	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char ns[256], name[256];
		int64_t seq;
		if (parse_entry(p, n, ns, name, sizeof ns, &seq, err) != FLOE_OK) {
			rc = FLOE_ERR;
			break;
		}
		for (;;) {
			Table *t;
			if (*s->cancel_flag) {
				rc = floe_errorf(err, ERRCODE_QUERY_CANCELED,
						 "canceling statement due to user request");
				goto out;
			}
			if (table_load(s->engine->catalog, s->engine->io, ns, name, a, &t, err) != FLOE_OK) {
				rc = FLOE_ERR;
				goto out;
			}
			if (t->md->last_sequence_number >= seq)
				break;
			if (mono_ms() >= deadline) {
				rc = floe_errorf(err, "55000" /* object_not_in_prerequisite_state */,
						 "the watermark is not visible: table \"%s.%s\" is at sequence number %lld, the watermark names %lld",
						 ns, name, (long long)t->md->last_sequence_number,
						 (long long)seq);
				goto out;
			}
			arena_reset(a);
			usleep(20000);
		}
		arena_reset(a);
		p = end ? end + 1 : p + n;
	}
out:
	arena_free(a);
	return rc;
}
