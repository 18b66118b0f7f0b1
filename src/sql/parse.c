/*
 * parse.c — libpg_query front (see parse.h).
 *
 * pg_query_parse_protobuf parses the whole string (PostgreSQL parses a
 * simple-query message completely before running any of it); the protobuf
 * result is unpacked with protobuf-c and freed by an arena reset callback.
 * libpg_query's cursorpos (1-based character offset) becomes the error
 * position.
 *
 * floe extensions outside PostgreSQL 15's grammar are rewritten, keeping
 * every byte offset, before libpg_query sees the text:
 *   INSERT OVERWRITE t ...  ->  INSERT INTO      t ...   (the caller finds
 *        OVERWRITE in its own, unchanged text: sql_is_insert_overwrite)
 *   Iceberg table properties, as Spark writes them:
 *     ... SET TBLPROPERTIES (...)     ->  ... SET               (...)
 *     ... UNSET TBLPROPERTIES (...)   ->  ... RESET             (...)
 *     CREATE TABLE ... TBLPROPERTIES (...)  ->  ... WITH          (...)
 *     and in an option list after WITH / SET / RESET, a quoted key
 *     'format-version' = ...  ->  "format-version" = ...   (a quoted name)
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sql/parse.h"

static void
free_unpacked(void *p)
{
	pg_query__parse_result__free_unpacked(p, NULL);
}

/* Length of the identifier/keyword at p (letters, digits, _, $). */
static size_t
word_len(const char *p)
{
	size_t n = 0;

	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
	       (p[n] >= '0' && p[n] <= '9') || p[n] == '_' || p[n] == '$' ||
	       (unsigned char)p[n] >= 0x80)
		n++;
	return n;
}

/* Skip whitespace and comments from p. */
static const char *
skip_space(const char *p)
{
	for (;;) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') {
			p++;
		} else if (p[0] == '-' && p[1] == '-') {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			int depth = 1;
			p += 2;
			while (*p && depth) {
				if (p[0] == '/' && p[1] == '*')
					depth++, p++;
				else if (p[0] == '*' && p[1] == '/')
					depth--, p++;
				p++;
			}
		} else {
			return p;
		}
	}
}

/* Does the text at p start with INSERT OVERWRITE (after blanks and
 * comments)?  *kw: where OVERWRITE is. */
static bool
insert_overwrite_at(const char *p, const char **kw)
{
	p = skip_space(p);
	if (word_len(p) != 6 || strncasecmp(p, "insert", 6) != 0)
		return false;
	p = skip_space(p + 6);
	if (word_len(p) != 9 || strncasecmp(p, "overwrite", 9) != 0)
		return false;
	*kw = p;
	return true;
}

bool
sql_is_insert_overwrite(const char *sql, const SqlStmt *st)
{
	const char *kw;

	return insert_overwrite_at(sql + st->location, &kw);
}

/* A copy of sql with each INSERT OVERWRITE's OVERWRITE made INTO (padded:
 * same length), or NULL when there is none.  Quotes, dollar quotes and
 * comments are skipped so their contents are never rewritten. */
static char *
rewrite_extensions(const char *sql)
{
	const char *p = sql, *kw;
	char *copy = NULL;

	/* option lists: pending after WITH/SET/RESET before "(", depth of
	 * parentheses inside one, elem at the start of an element */
	bool pending = false, elem = false;
	int depth = 0;
	const char *prev = NULL;     /* the previous word */
	size_t prev_len = 0;

	while (*p) {
		const char *q = skip_space(p);
		size_t w;
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '(' || *p == ')' || *p == ',') {
			if (*p == '(' && pending)
				depth = 1, elem = true;
			else if (*p == '(' && depth)
				depth++, elem = false;
			else if (*p == ')' && depth)
				depth--, elem = false;
			else
				elem = depth == 1 && *p == ',';
			pending = false;
			p++;
			continue;
		}
		if (*p == '\'' && depth == 1 && elem) {
			/* a quoted key: 'k' -> "k" unless it holds quotes */
			const char *end = strchr(p + 1, '\'');
			if (end && end[1] != '\'' && !memchr(p + 1, '"', (size_t)(end - p - 1))) {
				if (!copy)
					copy = strdup(sql);
				copy[p - sql] = '"';
				copy[end - sql] = '"';
			}
		}
		pending = elem = false;
		if (*p == '\'' || *p == '"') {
			char quote = *p;
			bool esc = quote == '\'' && p > sql && (p[-1] == 'E' || p[-1] == 'e');
			for (p++; *p; p++) {
				if (esc && *p == '\\' && p[1]) {
					p++;
				} else if (*p == quote) {
					if (p[1] != quote)
						break;
					p++;
				}
			}
			if (*p)
				p++;
			continue;
		}
		if (*p == '$' && (p == sql || !word_len(p - 1))) {
			const char *end = p + 1;
			while ((*end >= 'a' && *end <= 'z') || (*end >= 'A' && *end <= 'Z') ||
			       (*end >= '0' && *end <= '9') || *end == '_')
				end++;
			if (*end == '$' && !(p[1] >= '0' && p[1] <= '9')) {
				size_t tl = (size_t)(end - p) + 1;
				const char *close = p + tl;
				while ((close = strstr(close, "$")) && strncmp(close, p, tl) != 0)
					close++;
				p = close ? close + tl : p + strlen(p);
				continue;
			}
		}
		w = word_len(p);
		if (w == 6 && (p == sql || !word_len(p - 1)) && insert_overwrite_at(p, &kw)) {
			if (!copy)
				copy = strdup(sql);
			memcpy(copy + (kw - sql), "INTO     ", 9);
			p = kw + 9;
			continue;
		}
		if (w && *skip_space(p + w) == '(') {
			if (w == 13 && !strncasecmp(p, "tblproperties", 13)) {
				if (!copy)
					copy = strdup(sql);
				if (prev_len == 3 && !strncasecmp(prev, "set", 3)) {
					memset(copy + (p - sql), ' ', 13);
				} else if (prev_len == 5 && !strncasecmp(prev, "unset", 5)) {
					memcpy(copy + (prev - sql), "RESET", 5);
					memset(copy + (p - sql), ' ', 13);
				} else {
					memcpy(copy + (p - sql), "WITH         ", 13);
				}
				pending = true;
			} else if ((w == 4 && !strncasecmp(p, "with", 4)) ||
				   (w == 3 && !strncasecmp(p, "set", 3)) ||
				   (w == 5 && !strncasecmp(p, "reset", 5))) {
				pending = true;
			}
		}
		if (w) {
			prev = p;
			prev_len = w;
		}
		p += w ? w : 1;
	}
	return copy;
}

int
sql_parse(const char *sql, Arena *arena, SqlStmt **stmts, int *n, floe_error *err)
{
	char *rewritten = rewrite_extensions(sql);
	PgQueryProtobufParseResult r = pg_query_parse_protobuf(rewritten ? rewritten : sql);
	PgQuery__ParseResult *tree;
	size_t i;

	free(rewritten);

	if (r.error) {
		floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s", r.error->message);
		if (r.error->cursorpos > 0)
			floe_error_position(err, r.error->cursorpos);   /* already in characters */
		pg_query_free_protobuf_parse_result(r);
		return FLOE_ERR;
	}
	tree = pg_query__parse_result__unpack(NULL, r.parse_tree.len,
					      (const uint8_t *)r.parse_tree.data);
	pg_query_free_protobuf_parse_result(r);
	if (!tree)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "could not decode the parse tree");
	arena_on_reset(arena, free_unpacked, tree);
	*n = (int)tree->n_stmts;
	*stmts = ARENA_ARRAY(arena, SqlStmt, tree->n_stmts ? tree->n_stmts : 1);
	for (i = 0; i < tree->n_stmts; i++) {
		(*stmts)[i].node = tree->stmts[i]->stmt;
		(*stmts)[i].location = tree->stmts[i]->stmt_location;
		(*stmts)[i].len = tree->stmts[i]->stmt_len;
	}
	return FLOE_OK;
}

int
sql_parse_expr(const char *text, Arena *arena, Node **out, floe_error *err)
{
	char *sql = arena_sprintf(arena, "SELECT %s", text);
	SqlStmt *stmts;
	int n;
	Node *s;

	TRY(sql_parse(sql, arena, &stmts, &n, err));
	if (n != 1 || !(s = stmts[0].node) || s->node_case != PG_QUERY__NODE__NODE_SELECT_STMT ||
	    s->select_stmt->n_target_list != 1)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid expression: %s", text);
	*out = s->select_stmt->target_list[0]->res_target->val;
	return FLOE_OK;
}
