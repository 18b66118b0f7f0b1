/*
 * http_buf.c — the HTTP server's byte buffer and JSON text helpers, and
 * the mapping of SQLSTATEs to HTTP statuses with the query API's error
 * form {"error": {"sqlstate", "message", "detail", "hint", "position"}}.
 *
 * Statuses (docs/http.md): class 28 (authentication) 401; 42501
 * insufficient privilege 403; 08003 unknown session 404; classes 23
 * (integrity), 25 (transaction state), 40 (serialization), 55 (object
 * state) 409; 57014 canceled / statement timeout 408; 54000 (a result too
 * large) 413; classes 53 (resources), 57 (shutdown), 08 (connection) 503;
 * XX and 58 500; everything else (syntax, undefined objects, data
 * exceptions, 0A000) 400.
 *
 * INTERFACE ROUTINES: see http_internal.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "server/http_internal.h"

void
hbuf_put(HttpBuf *b, const char *s, size_t n)
{
	if (b->overflow)
		return;
	if (b->limit && b->len + n > b->limit) {
		b->overflow = true;
		return;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void
hbuf_puts(HttpBuf *b, const char *s)
{
	hbuf_put(b, s, strlen(s));
}

void
hbuf_printf(HttpBuf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		hbuf_put(b, small, (size_t)n);
	} else {
		char *big = xmalloc((size_t)n + 1);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		hbuf_put(b, big, (size_t)n);
		free(big);
	}
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xE0) == 0xC0)
		len = 2, cp = s[0] & 0x1F;
	else if ((s[0] & 0xF0) == 0xE0)
		len = 3, cp = s[0] & 0x0F;
	else if ((s[0] & 0xF8) == 0xF0)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

void
hbuf_json_str(HttpBuf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;
	hbuf_put(b, "\"", 1);
	while (i < n) {
		unsigned char c = p[i];
		size_t k;
		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
			i++;
			run++;
			continue;
		}
		if (c >= 0x80 && (k = utf8_len(p + i, n - i)) > 0) {
			i += k;
			run += k;
			continue;
		}
		hbuf_put(b, (const char *)p + i - run, run);
		run = 0;
		if (c == '"')
			hbuf_put(b, "\\\"", 2);
		else if (c == '\\')
			hbuf_put(b, "\\\\", 2);
		else if (c == '\n')
			hbuf_put(b, "\\n", 2);
		else if (c == '\r')
			hbuf_put(b, "\\r", 2);
		else if (c == '\t')
			hbuf_put(b, "\\t", 2);
		else if (c < 0x20)
			hbuf_printf(b, "\\u%04x", c);
		else
			hbuf_put(b, "\\ufffd", 6);   /* an invalid UTF-8 byte */
		i++;
	}
	hbuf_put(b, (const char *)p + i - run, run);
	hbuf_put(b, "\"", 1);
}

void
hbuf_free(HttpBuf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

void
http_resp_header(HttpResp *resp, const char *name, const char *value)
{
	if (resp->nheaders == HTTP_MAX_RESP_HEADERS)
		return;
	resp->hname[resp->nheaders] = xstrdup(name);
	resp->hvalue[resp->nheaders] = xstrdup(value);
	resp->nheaders++;
}

int
http_sql_status(const char *st)
{
	if (!strncmp(st, "28", 2))
		return 401;
	if (!strcmp(st, "42501"))
		return 403;
	if (!strcmp(st, "08003"))
		return 404;
	if (!strcmp(st, "57014"))
		return 408;
	if (!strcmp(st, "54000"))
		return 413;
	if (!strncmp(st, "23", 2) || !strncmp(st, "25", 2) || !strncmp(st, "40", 2) ||
	    !strncmp(st, "55", 2))
		return 409;
	if (!strncmp(st, "53", 2) || !strncmp(st, "57", 2) || !strncmp(st, "08", 2))
		return 503;
	if (!strncmp(st, "XX", 2) || !strncmp(st, "58", 2) || !st[0])
		return 500;
	return 400;
}

void
http_sql_error(HttpResp *resp, const floe_error *err)
{
	const char *st = err->sqlstate[0] ? err->sqlstate : "XX000";
	resp->status = http_sql_status(st);
	resp->content_type = "application/json";
	resp->body.len = 0;
	resp->body.overflow = false;
	resp->body.limit = 0;
	hbuf_puts(&resp->body, "{\"error\": {\"sqlstate\": ");
	hbuf_json_str(&resp->body, st, strlen(st));
	hbuf_puts(&resp->body, ", \"message\": ");
	hbuf_json_str(&resp->body, err->message, strlen(err->message));
	if (err->detail[0]) {
		hbuf_puts(&resp->body, ", \"detail\": ");
		hbuf_json_str(&resp->body, err->detail, strlen(err->detail));
	}
	if (err->hint[0]) {
		hbuf_puts(&resp->body, ", \"hint\": ");
		hbuf_json_str(&resp->body, err->hint, strlen(err->hint));
	}
	if (err->position > 0)
		hbuf_printf(&resp->body, ", \"position\": %d", err->position);
	hbuf_puts(&resp->body, "}}\n");
}
