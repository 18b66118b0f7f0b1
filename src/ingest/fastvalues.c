/*
 * fastvalues.c — a hand-written scanner for INSERT ... VALUES of literals
 * (fastvalues.h).  It never reports an error: whatever it does not know,
 * it leaves to libpg_query (false), so the full path gives PostgreSQL's
 * message and position.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "ingest/fastvalues.h"

typedef struct Sc {
	const char *p;
	Arena *a;
} Sc;

static void
skip(Sc *s)
{
	for (;;) {
		while (isspace((unsigned char)*s->p))
			s->p++;
		if (s->p[0] == '-' && s->p[1] == '-') {
			while (*s->p && *s->p != '\n')
				s->p++;
			continue;
		}
		return;
	}
}

/* The keyword kw (case-insensitive, not followed by a name character). */
static bool
kw(Sc *s, const char *k)
{
	size_t n = strlen(k);

	skip(s);
	if (strncasecmp(s->p, k, n) || isalnum((unsigned char)s->p[n]) || s->p[n] == '_' || s->p[n] == '$')
		return false;
	s->p += n;
	return true;
}

static bool
punct(Sc *s, char c)
{
	skip(s);
	if (*s->p != c)
		return false;
	s->p++;
	return true;
}

/* PostgreSQL's reserved words: unquoted, they are not names (the full
 * parser says 42601 where this scanner would take them as one). */
static const char *const reserved[] = {
	"all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "both", "case",
	"cast", "check", "collate", "column", "constraint", "create", "current_catalog", "current_date",
	"current_role", "current_time", "current_timestamp", "current_user", "default", "deferrable",
	"desc", "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign", "from",
	"grant", "group", "having", "in", "initially", "intersect", "into", "lateral", "leading", "limit",
	"localtime", "localtimestamp", "not", "null", "offset", "on", "only", "or", "order", "placing",
	"primary", "references", "returning", "select", "session_user", "some", "symmetric", "table",
	"then", "to", "trailing", "true", "union", "unique", "user", "using", "values", "variadic", "when",
	"where", "window", "with",
};

static bool
is_reserved(const char *w)
{
	size_t i;

	for (i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (!strcmp(w, reserved[i]))
			return true;
	return false;
}

/* A name: unquoted (lower-cased; not a reserved word) or "quoted". */
static char *
name(Sc *s)
{
	const char *q;
	char *out;
	size_t n = 0, i;

	skip(s);
	q = s->p;
	if (*q == '"') {
		const char *e = q + 1;
		while (*e && !(*e == '"' && e[1] != '"')) {
			e += *e == '"' ? 2 : 1;
			n++;
		}
		if (*e != '"' || n == 0 || n > 63)
			return NULL;
		out = arena_alloc(s->a, n + 1);
		for (i = 0, q++; q < e; q++) {
			out[i++] = *q;
			if (*q == '"')
				q++;
		}
		out[i] = 0;
		s->p = e + 1;
		return out;
	}
	if (!(isalpha((unsigned char)*q) || *q == '_'))
		return NULL;
	while (isalnum((unsigned char)q[n]) || q[n] == '_')
		n++;
	if (n > 63 || (unsigned char)q[n] >= 0x80 || q[n] == '$')
		return NULL;
	out = arena_alloc(s->a, n + 1);
	for (i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)q[i]);
	out[n] = 0;
	if (is_reserved(out))
		return NULL;
	s->p += n;
	return out;
}

static bool
literal(Sc *s, FvLit *l)
{
	const char *q;

	skip(s);
	q = s->p;
	if (*q == '\'') {
		const char *e = q + 1;
		size_t n = 0, i;
		char *out;
		while (*e && !(*e == '\'' && e[1] != '\'')) {
			e += *e == '\'' ? 2 : 1;
			n++;
		}
		if (*e != '\'')
			return false;
		out = arena_alloc(s->a, n + 1);
		for (i = 0, q++; q < e; q++) {
			out[i++] = *q;
			if (*q == '\'')
				q++;
		}
		out[i] = 0;
		s->p = e + 1;
		/* 'a' 'b' on two lines is one string in SQL; '...'::type a cast */
		skip(s);
		if (*s->p == '\'' || *s->p == ':')
			return false;
		l->kind = FV_STRING;
		l->p = out;
		l->len = (uint32_t)n;
		return true;
	}
	if (*q == '-' || *q == '+' || isdigit((unsigned char)*q) || *q == '.') {
		const char *e = q;
		bool dot = false, digits = false;
		if (*e == '-' || *e == '+')
			e++;
		for (; isdigit((unsigned char)*e) || (*e == '.' && !dot); e++) {
			if (*e == '.')
				dot = true;
			else
				digits = true;
		}
		if (!digits || isalnum((unsigned char)*e) || *e == '_' || *e == '.' || e - q > 60)
			return false;
		s->p = e;
		skip(s);
		if (*s->p != ',' && *s->p != ')')
			return false;     /* 1 + 2, 1::int, ... */
		l->kind = dot ? FV_NUM : FV_INT;
		l->p = arena_strndup(s->a, q, (size_t)(e - q));
		l->len = (uint32_t)(e - q);
		return true;
	}
	if (*q == '$') {
		/* $n: n without a sign, at most 5 digits, not $1x or $1.5 */
		const char *e = q + 1;
		uint32_t n = 0;
		while (isdigit((unsigned char)*e) && e - q <= 5)
			n = n * 10 + (uint32_t)(*e++ - '0');
		if (e == q + 1 || n == 0 || n > 65535 || isalnum((unsigned char)*e) || *e == '_' ||
		    *e == '$' || *e == '.')
			return false;
		s->p = e;
		skip(s);
		if (*s->p != ',' && *s->p != ')')
			return false;     /* $1::int, $1 + 1, ... */
		l->kind = FV_PARAM;
		l->p = NULL;
		l->len = n;
		return true;
	}
	if (kw(s, "null"))
		l->kind = FV_NULL;
	else if (kw(s, "default"))
		l->kind = FV_DEFAULT;
	else if (kw(s, "true"))
		l->kind = FV_TRUE;
	else if (kw(s, "false"))
		l->kind = FV_FALSE;
	else
		return false;
	skip(s);
	return *s->p == ',' || *s->p == ')';
}

bool
fastvalues_parse(const char *sql, Arena *a, int max_rows, FastValues *out)
{
	Sc s = { sql, a };
	char *n1, *n2 = NULL;
	int cap = 0;

	memset(out, 0, sizeof *out);
	if (!kw(&s, "insert") || !kw(&s, "into") || !(n1 = name(&s)))
		return false;
	if (punct(&s, '.') && !(n2 = name(&s)))
		return false;
	out->schema = n2 ? n1 : NULL;
	out->table = n2 ? n2 : n1;
	if (punct(&s, '(')) {
		int capc = 0;
		do {
			char *c = name(&s);
			if (!c)
				return false;
			if (out->ncols == capc) {
				int nc = capc ? capc * 2 : 8;
				out->cols = arena_realloc(a, out->cols, sizeof(char *) * (size_t)capc,
							  sizeof(char *) * (size_t)nc);
				capc = nc;
			}
			out->cols[out->ncols++] = c;
		} while (punct(&s, ','));
		if (!punct(&s, ')'))
			return false;
	}
	if (!kw(&s, "values"))
		return false;
	do {
		int w = 0;
		if (out->nrows >= max_rows || !punct(&s, '('))
			return false;
		do {
			FvLit l;
			if (!literal(&s, &l))
				return false;
			if (l.kind == FV_PARAM && (int)l.len > out->maxparam)
				out->maxparam = (int)l.len;
			if (out->nrows > 0 && w >= out->width)
				return false;
			{
				int k = out->nrows * (out->nrows ? out->width : 0) + w;
				if (k >= cap) {
					int nc = cap ? cap * 2 : 64;
					out->lits = arena_realloc(a, out->lits, sizeof(FvLit) * (size_t)cap,
								  sizeof(FvLit) * (size_t)nc);
					cap = nc;
				}
				out->lits[k] = l;
			}
			w++;
		} while (punct(&s, ','));
		if (!punct(&s, ')'))
			return false;
		if (out->nrows == 0)
			out->width = w;
		else if (w != out->width)
			return false;
		out->nrows++;
	} while (punct(&s, ','));
	punct(&s, ';');
	skip(&s);
	return *s.p == 0 && out->width > 0;
}
