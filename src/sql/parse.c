/*
 * parse.c — libpg_query front (see parse.h).
 *
 * pg_query_parse_protobuf parses the whole string (PostgreSQL parses a
 * simple-query message completely before running any of it); the protobuf
 * result is unpacked with protobuf-c into the caller's arena (an allocator
 * over arena_alloc: the tree lives until the arena's reset, and no part of
 * it may be freed on its own).
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
 *   COPY INTO t [(cols)] FROM 'loc' <options>  ->  COPY      t [(cols)]
 *        FROM 'loc' (options blanked; ingest/copyinto.c reads them)
 *   REGISTER FILES INTO t FROM 'uri' <options>  ->  COPY t FROM 'uri'
 *        (the words and the options blanked; ingest/register.c reads them)
 *   OPTIMIZE t [REWRITE DELETES]  ->  VACUUM   t                 (first
 *        statement word; the caller checks sql_is_optimize: optimize.c)
 *   MERGE's WHEN NOT MATCHED BY SOURCE / BY TARGET (PostgreSQL 17): see
 *     merge_rewrite below
 *   ROLLBACK TABLE t TO SNAPSHOT n, RESTORE [TABLE] t [TO] VERSION|TIMESTAMP
 *     AS OF x  ->  CALL floe$rb|rv|rt(t,x); SHOW SNAPSHOTS FROM t  ->  TABLE
 *     "t$snapshots" (restore.c): see restore_rewrite below
 *   CALL p(table => 't')  ->  CALL p(tabl$ => 't')   (named "table" again
 *     after the parse: call_table_rewrite)
 *   branches and tags (Spark's syntax; refs.c reads the original text
 *   through sql_ref_clause):
 *     ALTER TABLE t CREATE [OR REPLACE] | REPLACE | DROP  BRANCH | TAG ...
 *                      ->  ALTER TABLE t RESET(f$r)   (rest blanked)
 *   time travel: t FOR VERSION|TIMESTAMP AS OF x, t AT|BEFORE(kind => x)
 *     ->  t TABLESAMPLE "floe$tt"(mode, x)  (select.c, metatables.c):
 *     see timetravel_rewrite below
 *   partitioning (Spark's syntax; ddl.c reads the original text through
 *   sql_partition_clause):
 *     CREATE TABLE ... PARTITIONED BY (...)  ->  the clause blanked
 *     ALTER TABLE t ADD|DROP|REPLACE PARTITION FIELD ... | SET PARTITION SPEC (...)
 *                      ->  ALTER TABLE t RESET(floe$pf)   (rest blanked)
 *   Spark's ALTER TABLE forms (alter.c reads the original text through
 *   sql_alter_ext_clause):
 *     ALTER TABLE t ALTER [COLUMN] c COMMENT '...' | FIRST | AFTER d,
 *     ALTER TABLE t WRITE [LOCALLY] ORDERED BY ... | UNORDERED | DISTRIBUTED BY ...
 *                      ->  ALTER TABLE t RESET(floe$x)    (rest blanked)
 *     CREATE TABLE t (...) WRITE [LOCALLY] ORDERED BY ...  ->  the clause
 *                      blanked (ddl.c reads it: sql_create_write_clause)
 *     Trino's WITH (partitioning = ARRAY['a', 'b'])  ->  ... = 'a    b'
 *                      (one string; see trino_partitioning_at)
 *
 * Parsed-statement cache.  A parse is a pure function of the text (the
 * rewrites above and libpg_query's grammar depend on nothing else), and
 * clients send the same text again and again (the simple protocol every
 * time, the extended protocol at every Bind/Execute of a prepared
 * statement).  So the packed protobuf of every successful parse is kept,
 * keyed by the exact text, with the MERGE clause offsets merge_mark needs:
 * a repeat skips the rewrites, the parser and the pack, and only unpacks.
 * Every call still gets its own freshly unpacked tree in its own arena
 * (callers may edit their tree; nothing of a tree is shared), and binding
 * and planning still happen per execution (the catalog can change).
 * Shared by all threads, a reader-writer lock per set (a hit takes it
 * shared: hits never wait for each other), held only to find an entry and
 * copy its bytes; bounded: PC_SLOTS entries, texts up to PC_MAX_TEXT bytes
 * and trees up to PC_MAX_TREE packed bytes (others are parsed each time),
 * a full set evicts its least recently used entry.  Errors are not cached.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common/stack.h"
#include "sql/parse.h"

/* protobuf-c allocations of an unpacked tree come from the statement's
 * arena: unpacking is a run of bump allocations and the whole tree goes
 * at the arena's reset (no per-node free).  Nobody frees a part of a tree
 * (txn.c detaches a locking clause instead). */
static void *
pb_alloc(void *data, size_t size)
{
	return arena_alloc(data, size ? size : 1);
}

static void
pb_free(void *data, void *p)
{
	(void)data;
	(void)p;
}

static PgQuery__ParseResult *
unpack_in(Arena *a, size_t len, const uint8_t *data)
{
	ProtobufCAllocator al = { pb_alloc, pb_free, a };

	return pg_query__parse_result__unpack(&al, len, data);
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

static bool from_literal_at(const char *p, const char **tail, const char **end);

/* COPY INTO t ... FROM 'location' <options> at p (ingest/copyinto.c):
 * *into at INTO, [*tail, *end) the options after the location's literal
 * up to the statement's end (';' outside quotes, or the text's end). */
static bool
copy_into_at(const char *p, const char **into, const char **tail, const char **end)
{
	p = skip_space(p);
	if (word_len(p) != 4 || strncasecmp(p, "copy", 4) != 0)
		return false;
	p = skip_space(p + 4);
	if (word_len(p) != 4 || strncasecmp(p, "into", 4) != 0)
		return false;
	*into = p;
	return from_literal_at(p + 4, tail, end);
}

/* [*tail, *end) the text after the first FROM '<literal>' at or after p
 * (skipping double-quoted names) up to the statement's end (';' outside
 * quotes, or the text's end); false when there is none */
static bool
from_literal_at(const char *p, const char **tail, const char **end)
{
	for (; *p && *p != ';'; ) {
		size_t w = word_len(p);
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p += *p == '"' ? 2 : 1)
				;
			if (*p)
				p++;
			continue;
		}
		if (w == 4 && !strncasecmp(p, "from", 4) && *skip_space(p + 4) == '\'') {
			p = skip_space(p + 4) + 1;
			for (; *p && !(*p == '\'' && p[1] != '\''); p += *p == '\'' ? 2 : 1)
				;
			if (!*p)
				return false;
			*tail = ++p;
			while (*p && *p != ';') {
				if (*p == '\'' || *p == '"') {
					char q = *p;
					for (p++; *p && !(*p == q && p[1] != q); p += *p == q ? 2 : 1)
						;
					if (*p)
						p++;
				} else {
					p++;
				}
			}
			*end = p;
			return true;
		}
		p += w ? w : 1;
	}
	return false;
}

/* REGISTER FILES INTO t FROM 'uri' <options> at p (ingest/register.c):
 * [*kw, *kw_end) REGISTER FILES INTO, [*tail, *end) the options after the
 * literal as copy_into_at gives them. */
static bool
register_files_at(const char *p, const char **kw, const char **kw_end, const char **tail,
		  const char **end)
{
	p = skip_space(p);
	if (word_len(p) != 8 || strncasecmp(p, "register", 8) != 0)
		return false;
	*kw = p;
	p = skip_space(p + 8);
	if (word_len(p) != 5 || strncasecmp(p, "files", 5) != 0)
		return false;
	p = skip_space(p + 5);
	if (word_len(p) != 4 || strncasecmp(p, "into", 4) != 0)
		return false;
	*kw_end = p + 4;
	return from_literal_at(p + 4, tail, end);
}

/* OPTIMIZE name [REWRITE DELETES] at p (optimize.c): *kw at OPTIMIZE,
 * *rw / *rw_end around REWRITE DELETES (both NULL when absent).  The name
 * is one or two identifiers (plain or double-quoted) joined by a dot. */
static bool
optimize_at(const char *p, const char **kw, const char **rw, const char **rw_end)
{
	int part;

	p = skip_space(p);
	if (word_len(p) != 8 || strncasecmp(p, "optimize", 8) != 0)
		return false;
	*kw = p;
	*rw = *rw_end = NULL;
	p = skip_space(p + 8);
	for (part = 0; part < 2; part++) {
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
				if (*p == '"')
					p++;
			if (*p)
				p++;
		} else {
			p += word_len(p);
		}
		if (*p != '.')
			break;
		p++;
	}
	p = skip_space(p);
	if (word_len(p) == 7 && !strncasecmp(p, "rewrite", 7)) {
		const char *q = skip_space(p + 7);
		if (word_len(q) == 7 && !strncasecmp(q, "deletes", 7)) {
			*rw = p;
			*rw_end = q + 7;
		}
	}
	return true;
}

bool
sql_is_optimize(const char *sql, const SqlStmt *st, bool *deletes_only)
{
	const char *kw, *rw, *rw_end;

	if (!optimize_at(sql + st->location, &kw, &rw, &rw_end))
		return false;
	*deletes_only = rw != NULL;
	return true;
}


/* ---- partition clauses (Spark SQL) ------------------------------------ */

/* Skip a quoted string or identifier at p (p at the quote). */
static const char *
skip_quote_at(const char *sql, const char *p)
{
	char quote = *p;
	bool esc = quote == '\'' && p > sql && (p[-1] == 'E' || p[-1] == 'e');

	for (p++; *p; p++) {
		if (esc && *p == '\\' && p[1])
			p++;
		else if (*p == quote) {
			if (p[1] != quote)
				break;
			p++;
		}
	}
	return *p ? p + 1 : p;
}

/* At p: PARTITIONED BY ( ... ) -> *end past the ")"; or ADD|DROP|REPLACE
 * PARTITION FIELD ... -> *end at the statement's end (";" or NUL).
 * *alter tells which. */
static bool
partition_clause_at(const char *sql, const char *p, const char **end, bool *alter)
{
	size_t w = word_len(p);
	const char *q;
	int depth = 0;

	if (w == 11 && !strncasecmp(p, "partitioned", 11)) {
		q = skip_space(p + 11);
		if (word_len(q) != 2 || strncasecmp(q, "by", 2))
			return false;
		q = skip_space(q + 2);
		if (*q != '(')
			return false;
		*alter = false;
	} else if ((w == 3 && !strncasecmp(p, "add", 3)) || (w == 4 && !strncasecmp(p, "drop", 4)) ||
		   (w == 7 && !strncasecmp(p, "replace", 7)) || (w == 3 && !strncasecmp(p, "set", 3))) {
		bool set = w == 3 && !strncasecmp(p, "set", 3);
		q = skip_space(p + w);
		if (word_len(q) != 9 || strncasecmp(q, "partition", 9))
			return false;
		q = skip_space(q + 9);
		if (set ? word_len(q) != 4 || strncasecmp(q, "spec", 4) :
			  word_len(q) != 5 || strncasecmp(q, "field", 5))
			return false;
		q += set ? 4 : 5;
		*alter = true;
	} else {
		return false;
	}
	while (*q) {
		const char *r = skip_space(q);
		if (r != q) {
			q = r;
			continue;
		}
		if (*q == '\'' || *q == '"') {
			q = skip_quote_at(sql, q);
			continue;
		}
		if (*q == '(') {
			depth++;
		} else if (*q == ')') {
			if (--depth == 0 && !*alter) {
				*end = q + 1;
				return true;
			}
			if (depth < 0)
				break;
		} else if (*q == ';' && depth <= 0) {
			break;
		}
		q++;
	}
	if (!*alter)
		return false;
	*end = q;
	return true;
}


/* Trino's WITH (partitioning = ARRAY['bucket(id, 16)', 'day(ts)']) at p
 * (the word partitioning): in copy, ARRAY[ and ] are blanked and the
 * quotes between the elements too, leaving one string literal
 * 'bucket(id, 16)    day(ts)' with the elements comma-separated
 * (ddl.c splits it).  Returns where to go on, or NULL if not that form. */
static const char *
trino_partitioning_at(const char *sql, const char *p, char **copy)
{
	const char *q = skip_space(p + 12), *open, *r;
	int nq = 0;

	if (*q != '=')
		return NULL;
	q = skip_space(q + 1);
	if (word_len(q) != 5 || strncasecmp(q, "array", 5))
		return NULL;
	open = skip_space(q + 5);
	if (*open != '[')
		return NULL;
	/* elements: 'text' separated by commas, no quote inside */
	for (r = skip_space(open + 1); *r == '\''; r = skip_space(r + 1)) {
		const char *end = strchr(r + 1, '\'');
		if (!end || end[1] == '\'')
			return NULL;
		nq++;
		r = skip_space(end + 1);
		if (*r != ',')
			break;
	}
	if (!nq || *r != ']')
		return NULL;
	if (!*copy)
		*copy = strdup(sql);
	memset(*copy + (q - sql), ' ', (size_t)(open - q) + 1);
	(*copy)[r - sql] = ' ';
	{
		/* quotes between the first and the last become blanks */
		const char *first = strchr(open, '\''), *last = r;
		while (*last != '\'')
			last--;
		for (q = first + 1; q < last; q++)
			if (*q == '\'')
				(*copy)[q - sql] = ' ';
	}
	return r + 1;
}

/* The end of the statement p is in (";" outside quotes, or NUL). */
static const char *
statement_end(const char *sql, const char *p)
{
	while (*p && *p != ';') {
		if (*p == '\'' || *p == '"')
			p = skip_quote_at(sql, p);
		else
			p++;
	}
	return p;
}

/* Is the statement that p is in an ALTER TABLE (its first word ALTER,
 * then TABLE)? */
static bool
in_alter_table(const char *sql, const char *p)
{
	const char *st = p;

	while (st > sql && st[-1] != ';')
		st--;
	st = skip_space(st);
	if (word_len(st) != 5 || strncasecmp(st, "alter", 5))
		return false;
	st = skip_space(st + 5);
	return word_len(st) == 5 && !strncasecmp(st, "table", 5) && st < p;
}

/* At p (not the statement's first word, inside an ALTER TABLE): Spark's
 *   ALTER [COLUMN] c COMMENT '...' | FIRST | AFTER d
 *   WRITE [LOCALLY] ORDERED BY ... | WRITE UNORDERED | WRITE DISTRIBUTED BY ...
 * -> *end at the statement's end. */
static bool
alter_ext_at(const char *sql, const char *p, const char **end)
{
	size_t w = word_len(p);
	const char *q;

	if (w == 5 && !strncasecmp(p, "write", 5)) {
		q = skip_space(p + 5);
		w = word_len(q);
		if (!((w == 7 && !strncasecmp(q, "ordered", 7)) || (w == 7 && !strncasecmp(q, "locally", 7)) ||
		      (w == 9 && !strncasecmp(q, "unordered", 9)) ||
		      (w == 11 && !strncasecmp(q, "distributed", 11))))
			return false;
	} else if (w == 5 && !strncasecmp(p, "alter", 5)) {
		q = skip_space(p + 5);
		if (word_len(q) == 6 && !strncasecmp(q, "column", 6))
			q = skip_space(q + 6);
		if (*q == '"')
			q = skip_quote_at(sql, q);
		else if ((w = word_len(q)) > 0)
			q += w;
		else
			return false;
		q = skip_space(q);
		w = word_len(q);
		if (!((w == 7 && !strncasecmp(q, "comment", 7)) || (w == 5 && !strncasecmp(q, "first", 5)) ||
		      (w == 5 && !strncasecmp(q, "after", 5))))
			return false;
	} else {
		return false;
	}
	if (!in_alter_table(sql, p))
		return false;
	*end = statement_end(sql, p);
	return *end - p >= 13;
}

/* Is the statement that p is in a CREATE [...] TABLE, and p outside its
 * parentheses? */
static bool
in_create_table_top(const char *sql, const char *p)
{
	const char *st = p, *q;
	int depth = 0, words;

	while (st > sql && st[-1] != ';')
		st--;
	st = skip_space(st);
	if (word_len(st) != 6 || strncasecmp(st, "create", 6))
		return false;
	for (q = skip_space(st + 6), words = 0; words < 4 && q < p; q = skip_space(q), words++) {
		size_t w = word_len(q);
		if (w == 5 && !strncasecmp(q, "table", 5))
			break;
		if (!w)
			return false;
		q += w;
	}
	if (q >= p || word_len(q) != 5 || strncasecmp(q, "table", 5))
		return false;
	for (; q < p; q++) {
		if (*q == '\'' || *q == '"')
			q = skip_quote_at(sql, q) - 1;
		else if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
	}
	return depth == 0;
}

/* At p, in a CREATE TABLE outside its parentheses: WRITE [LOCALLY]
 * ORDERED BY ... -> *end at the next clause word (WITH, USING,
 * PARTITIONED, PARTITION, TABLESPACE, ON, AS) outside parentheses or the
 * statement's end. */
static bool
create_write_at(const char *sql, const char *p, const char **end)
{
	static const char *const stop[] = { "with", "using", "partitioned", "partition",
					    "tablespace", "on", "as" };
	const char *q;
	size_t w, i;
	int depth = 0;

	if (word_len(p) != 5 || strncasecmp(p, "write", 5))
		return false;
	q = skip_space(p + 5);
	if (word_len(q) == 7 && !strncasecmp(q, "locally", 7))
		q = skip_space(q + 7);
	if (word_len(q) != 7 || strncasecmp(q, "ordered", 7))
		return false;
	q = skip_space(q + 7);
	if (word_len(q) != 2 || strncasecmp(q, "by", 2) || !in_create_table_top(sql, p))
		return false;
	q += 2;
	while (*q && *q != ';') {
		const char *r = skip_space(q);
		if (r != q) {
			q = r;
			continue;
		}
		if (*q == '\'' || *q == '"') {
			q = skip_quote_at(sql, q);
			continue;
		}
		if (*q == '(') {
			depth++;
		} else if (*q == ')') {
			if (depth == 0)
				break;
			depth--;
		}
		w = word_len(q);
		if (w && depth == 0)
			for (i = 0; i < sizeof stop / sizeof stop[0]; i++)
				if (w == strlen(stop[i]) && !strncasecmp(q, stop[i], w))
					goto out;
		q += w ? w : 1;
	}
out:
	while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\r'))
		q--;
	*end = q;
	return true;
}

/* The first clause at or after sql + from that `at` recognises (at a word
 * start, outside quotes, before a ';'). */
static bool
find_clause(const char *sql, int from, bool (*at)(const char *, const char *, const char **),
	    const char **clause, int *len)
{
	const char *p = sql + from, *end;

	while (*p && *p != ';') {
		const char *q = skip_space(p);
		size_t w;
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			p = skip_quote_at(sql, p);
			continue;
		}
		w = word_len(p);
		if (w && p > sql + from && !word_len(p - 1) && at(sql, p, &end)) {
			*clause = p;
			*len = (int)(end - p);
			return true;
		}
		p += w ? w : 1;
	}
	return false;
}

bool
sql_create_write_clause(const char *sql, int from, const char **clause, int *len)
{
	return find_clause(sql, from, create_write_at, clause, len);
}

bool
sql_alter_ext_clause(const char *sql, int from, const char **clause, int *len)
{
	return find_clause(sql, from, alter_ext_at, clause, len);
}

bool
sql_partition_clause(const char *sql, int from, const char **clause, int *len)
{
	const char *p = sql + from, *end;
	bool alter;

	while (*p && *p != ';') {
		const char *q = skip_space(p);
		size_t w;
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			p = skip_quote_at(sql, p);
			continue;
		}
		w = word_len(p);
		if (w && (p == sql || !word_len(p - 1)) && partition_clause_at(sql, p, &end, &alter)) {
			*clause = p;
			*len = (int)(end - p);
			return true;
		}
		p += w ? w : 1;
	}
	return false;
}

/* ---- branches and tags (Spark SQL; refs.c reads the clause) ----------- */

/* At p: CREATE [OR REPLACE] BRANCH|TAG, REPLACE BRANCH|TAG or DROP
 * BRANCH|TAG -> *end at the statement's end (";" outside quotes, or NUL). */
static bool
ref_clause_at(const char *sql, const char *p, const char **end)
{
	size_t w = word_len(p);
	const char *q;

	if (w == 6 && !strncasecmp(p, "create", 6)) {
		q = skip_space(p + 6);
		if (word_len(q) == 2 && !strncasecmp(q, "or", 2)) {
			q = skip_space(q + 2);
			if (word_len(q) != 7 || strncasecmp(q, "replace", 7))
				return false;
			q = skip_space(q + 7);
		}
	} else if ((w == 7 && !strncasecmp(p, "replace", 7)) || (w == 4 && !strncasecmp(p, "drop", 4))) {
		q = skip_space(p + w);
	} else {
		return false;
	}
	w = word_len(q);
	if (!(w == 6 && !strncasecmp(q, "branch", 6)) && !(w == 3 && !strncasecmp(q, "tag", 3)))
		return false;
	/* a name must follow: ALTER TABLE t DROP tag [CASCADE] drops a column */
	{
		const char *n = skip_space(q + w);
		size_t nl = word_len(n);
		if (!(*n == '"' || (nl && !(nl == 7 && !strncasecmp(n, "cascade", 7)) &&
				     !(nl == 8 && !strncasecmp(n, "restrict", 8)))))
			return false;
	}
	for (q += w; *q && *q != ';';) {
		const char *r = skip_space(q);
		if (r != q)
			q = r;
		else if (*q == '\'' || *q == '"')
			q = skip_quote_at(sql, q);
		else
			q++;
	}
	*end = q;
	return true;
}

bool
sql_ref_clause(const char *sql, int from, const char **clause, int *len)
{
	const char *p = sql + from, *end;

	while (*p && *p != ';') {
		const char *q = skip_space(p);
		size_t w;
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			p = skip_quote_at(sql, p);
			continue;
		}
		w = word_len(p);
		if (w && (p == sql || !word_len(p - 1)) && ref_clause_at(sql, p, &end)) {
			*clause = p;
			*len = (int)(end - p);
			return true;
		}
		p += w ? w : 1;
	}
	return false;
}

/* A copy of sql with each INSERT OVERWRITE's OVERWRITE made INTO (padded:
 * same length), or NULL when there is none.  Quotes, dollar quotes and
 * comments are skipped so their contents are never rewritten. */
static char *
rewrite_extensions(const char *sql)
{
	const char *p = sql, *kw, *rw, *rw_end, *next_end;
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
		if (*p == ';') {          /* a new statement: no previous word */
			prev = NULL;
			prev_len = 0;
			p++;
			continue;
		}
		w = word_len(p);
		if (w == 4 && !prev_len && copy_into_at(p, &kw, &rw, &rw_end)) {
			/* COPY INTO t FROM 'x' <options> -> COPY t FROM 'x' (the
			 * options blanked; copyinto.c reads the original text) */
			if (!copy)
				copy = strdup(sql);
			memset(copy + (kw - sql), ' ', 4);
			memset(copy + (rw - sql), ' ', (size_t)(rw_end - rw));
			p = rw_end;
			continue;
		}
		if (w == 8 && !prev_len && register_files_at(p, &kw, &rw_end, &rw, &next_end)) {
			/* REGISTER FILES INTO t FROM 'x' <options> -> COPY t FROM
			 * 'x' (the options blanked; register.c reads the original
			 * text and dispatches on the words before t) */
			if (!copy)
				copy = strdup(sql);
			memset(copy + (kw - sql), ' ', (size_t)(rw_end - kw));
			memcpy(copy + (kw - sql), "COPY", 4);
			memset(copy + (rw - sql), ' ', (size_t)(next_end - rw));
			p = next_end;
			continue;
		}
		if (w == 8 && !prev_len && optimize_at(p, &kw, &rw, &rw_end)) {
			/* OPTIMIZE t [REWRITE DELETES] -> VACUUM t (first word only) */
			if (!copy)
				copy = strdup(sql);
			memcpy(copy + (kw - sql), "VACUUM  ", 8);
			if (rw)
				memset(copy + (rw - sql), ' ', (size_t)(rw_end - rw));
			p = kw + 8;
			prev = kw;
			prev_len = 8;
			continue;
		}
		if (w == 12 && depth == 1 && !strncasecmp(p, "partitioning", 12)) {
			const char *next = trino_partitioning_at(sql, p, &copy);
			if (next) {
				p = next;
				continue;
			}
		}
		if (w == 5 && prev_len && !word_len(p - 1)) {
			const char *end;
			if (create_write_at(sql, p, &end)) {
				/* CREATE TABLE ... WRITE ORDERED BY (ddl.c) */
				if (!copy)
					copy = strdup(sql);
				memset(copy + (p - sql), ' ', (size_t)(end - p));
				p = end;
				continue;
			}
			if (alter_ext_at(sql, p, &end)) {
				if (!copy)
					copy = strdup(sql);
				memset(copy + (p - sql), ' ', (size_t)(end - p));
				memcpy(copy + (p - sql), "RESET(floe$x)", 13);
				p = end;
				continue;
			}
		}
		if (w >= 3 && w <= 11 && (p == sql || !word_len(p - 1))) {
			const char *end;
			bool alter;
			if (partition_clause_at(sql, p, &end, &alter) &&
			    (!alter || end - p >= 14)) {
				if (!copy)
					copy = strdup(sql);
				memset(copy + (p - sql), ' ', (size_t)(end - p));
				if (alter)
					memcpy(copy + (p - sql), "RESET(floe$pf)", 14);
				p = end;
				continue;
			}
		}
		if (w >= 4 && w <= 7 && prev_len && (p == sql || !word_len(p - 1))) {
			const char *end;   /* ALTER TABLE t CREATE BRANCH ... (refs.c) */
			if (ref_clause_at(sql, p, &end) && end - p >= 10) {
				if (!copy)
					copy = strdup(sql);
				memset(copy + (p - sql), ' ', (size_t)(end - p));
				memcpy(copy + (p - sql), "RESET(f$r)", 10);
				p = end;
				continue;
			}
		}
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

/* ---- MERGE: WHEN NOT MATCHED BY SOURCE / BY TARGET (PostgreSQL 17) ------
 *
 * PostgreSQL 15's grammar has neither.  merge_rewrite finds every
 * "WHEN [NOT] MATCHED" outside quotes and comments (their offsets, in
 * order) and blanks, in the copy libpg_query parses, "NOT" and "BY SOURCE"
 * of WHEN NOT MATCHED BY SOURCE (leaving WHEN MATCHED) and "BY TARGET" of
 * WHEN NOT MATCHED BY TARGET (leaving WHEN NOT MATCHED): offsets are kept.
 * merge_mark then gives each BY SOURCE clause of a MERGE the override
 * OVERRIDING_SYSTEM_VALUE, which the grammar never gives a MATCHED clause:
 * merge.c reads it as the clause kind.  A MERGE whose clauses cannot be
 * paired with the offsets found (a column named "matched" after a CASE
 * WHEN) is 0A000 when it used BY SOURCE.
 */
typedef struct MergeWhen {
	int offset;
	bool by_source;
} MergeWhen;

static const char *
skip_quoted(const char *sql, const char *p)
{
	char quote = *p;
	bool esc = quote == '\'' && p > sql && (p[-1] == 'E' || p[-1] == 'e');

	for (p++; *p; p++) {
		if (esc && *p == '\\' && p[1])
			p++;
		else if (*p == quote) {
			if (p[1] != quote)
				break;
			p++;
		}
	}
	return *p ? p + 1 : p;
}

static bool
word_is(const char *p, size_t w, const char *kw)
{
	return w == strlen(kw) && !strncasecmp(p, kw, w);
}

/* The next word at or after p (quotes and comments skipped), or NULL. */
static const char *
next_word(const char *p, size_t *w)
{
	p = skip_space(p);
	*w = word_len(p);
	return *w ? p : NULL;
}

static int
merge_rewrite(const char *sql, char **copy, Arena *a, MergeWhen **out, int *n)
{
	const char *p = sql;
	int cap = 0;

	*out = NULL;
	*n = 0;
	if (!strcasestr(sql, "matched"))
		return FLOE_OK;
	while (*p) {
		const char *q = skip_space(p), *w1, *w2, *w3, *w4;
		size_t w, l1, l2, l3, l4;
		bool not_ = false;
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			p = skip_quoted(sql, p);
			continue;
		}
		w = word_len(p);
		if (!w) {
			p++;
			continue;
		}
		if (!((p == sql || !word_len(p - 1)) && word_is(p, w, "when"))) {
			p += w;
			continue;
		}
		w1 = next_word(p + w, &l1);
		if (w1 && word_is(w1, l1, "not")) {
			not_ = true;
			w2 = next_word(w1 + l1, &l2);
		} else {
			w2 = w1, l2 = l1;
		}
		if (!w2 || !word_is(w2, l2, "matched")) {
			p += w;
			continue;
		}
		if (*n == cap) {
			int nc = cap ? cap * 2 : 8;
			*out = arena_realloc(a, *out, sizeof(MergeWhen) * (size_t)cap,
					     sizeof(MergeWhen) * (size_t)nc);
			cap = nc;
		}
		(*out)[*n].offset = (int)(p - sql);
		(*out)[*n].by_source = false;
		w3 = next_word(w2 + l2, &l3);
		w4 = w3 && word_is(w3, l3, "by") ? next_word(w3 + l3, &l4) : NULL;
		if (not_ && w4 && (word_is(w4, l4, "source") || word_is(w4, l4, "target"))) {
			if (!*copy)
				*copy = strdup(sql);
			memset(*copy + (w3 - sql), ' ', l3);
			memset(*copy + (w4 - sql), ' ', l4);
			if (word_is(w4, l4, "source")) {
				memset(*copy + (w1 - sql), ' ', l1);
				(*out)[*n].by_source = true;
			}
			p = w4 + l4;
		} else {
			p = w2 + l2;
		}
		(*n)++;
	}
	return FLOE_OK;
}

static int
merge_mark(SqlStmt *stmts, int nstmts, const MergeWhen *mw, int n, floe_error *err)
{
	int i, k;

	for (i = 0; i < nstmts && n; i++) {
		Node *s = stmts[i].node;
		PgQuery__MergeStmt *m;
		int lo = stmts[i].location, hi = stmts[i].len ? lo + stmts[i].len : -1;
		int first = -1, cnt = 0;
		bool any = false;
		if (!s || s->node_case != PG_QUERY__NODE__NODE_MERGE_STMT)
			continue;
		m = s->merge_stmt;
		for (k = 0; k < n; k++)
			if (mw[k].offset >= lo && (hi < 0 || mw[k].offset < hi)) {
				if (first < 0)
					first = k;
				cnt++;
				any |= mw[k].by_source;
			}
		if (!any)
			continue;
		if (cnt != (int)m->n_merge_when_clauses)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "WHEN NOT MATCHED BY SOURCE could not be recognised in this MERGE");
		for (k = 0; k < cnt; k++)
			if (mw[first + k].by_source)
				m->merge_when_clauses[k]->merge_when_clause->override =
					PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE;
	}
	return FLOE_OK;
}

/* ---- time travel: t FOR VERSION AS OF x / AT(...) / BEFORE(...) ----------
 *
 * After a relation name (and its alias, which moves before TABLESAMPLE as
 * the grammar wants it), these become TABLESAMPLE "floe$tt"(mode, x), which
 * select.c reads as the table at a snapshot (metatables.c), x bound as a
 * constant expression (literals, casts, functions, $n, subqueries):
 *   FOR VERSION | SYSTEM_VERSION AS OF x     (Trino, SQL:2011)    mode 1
 *   VERSION AS OF x  (Spark; after FROM / JOIN / ",")              mode 1
 *   FOR TIMESTAMP | SYSTEM_TIME AS OF x, TIMESTAMP AS OF x          mode 2
 *   AT(SNAPSHOT | VERSION => x)   (Snowflake's form)                mode 1
 *   AT(TIMESTAMP => x)                                              mode 2
 *   AT(OFFSET => seconds)         (from now; negative: the past)    mode 3
 *   BEFORE(TIMESTAMP => x)        (the snapshot current just before) mode 4
 *   BEFORE(SNAPSHOT | VERSION => x)  (x's parent)                   mode 5
 *   AT | BEFORE(STATEMENT | STREAM => x)                            mode 0
 * (mode 0: 0A000 naming the form).  x of FOR/VERSION AS OF runs to the
 * end of its expression: a word after a complete operand that is no
 * operator ends it (an alias or the next clause), as do ",", ")" and ";"
 * outside brackets.  Positions after a rewrite move (the text grows).
 */
typedef struct Tok {
	const char *p;
	size_t len;               /* 0: no token */
	char kind;                /* 'w' word, 'q' quoted name, 'c' other character */
} Tok;

static bool
tok_is(const Tok *t, const char *kw)
{
	return t->kind == 'w' && word_is(t->p, t->len, kw);
}

static bool word_in(const char *p, size_t w, const char *const *list);

static const char *const tt_infix_words[] = {
	"and", "or", "is", "not", "at", "time", "zone", "like", "ilike", "between", "in",
	"similar", "isnull", "notnull", "collate", "escape", "overlaps", "null", "true",
	"false", "distinct", "from", "unknown", "interval", NULL
};

/* The end of the expression starting at p (see above). */
static const char *
tt_expr_end(const char *sql, const char *p)
{
	bool operand = false;     /* the last token completed an operand */
	bool prev_word = false;   /* ... and was a word (a type name before '...') */

	for (;;) {
		const char *q = skip_space(p);
		size_t w;
		if (!*q || *q == ',' || *q == ')' || *q == ';')
			return operand ? p : NULL;
		if (*q == '\'') {
			if (operand && !prev_word)
				return p;
			p = skip_quoted(sql, q);
			operand = true, prev_word = false;
			continue;
		}
		if (*q == '(' ) {
			int depth = 0;
			for (p = q; *p; ) {
				if (*p == '\'' || *p == '"') {
					p = skip_quoted(sql, p);
					continue;
				}
				if (*p == '(')
					depth++;
				else if (*p == ')' && --depth == 0) {
					p++;
					break;
				}
				p++;
			}
			if (depth)
				return NULL;
			operand = true, prev_word = false;
			continue;
		}
		if ((w = word_len(q)) > 0 || *q == '"') {
			bool infix = *q != '"' && word_in(q, w, tt_infix_words);
			if (operand && !infix)
				return p;                 /* an alias or the next clause */
			p = *q == '"' ? skip_quoted(sql, q) : q + w;
			operand = !infix || word_is(q, w, "null") || word_is(q, w, "true") ||
				  word_is(q, w, "false") || word_is(q, w, "unknown");
			prev_word = operand && *q != '"';
			if (word_is(q, w, "interval"))
				operand = false, prev_word = true;
			continue;
		}
		/* an operator character: '::' '+' '-' '*' '/' '||' '<' '=' ... */
		if (*q == '.' || *q == '[' || *q == ']')
			;                         /* part of the operand */
		else
			operand = false;
		prev_word = false;
		p = q + 1;
	}
}

static const char *const tt_clause_words[] = {
	"where", "join", "inner", "left", "right", "full", "cross", "natural", "on", "using",
	"group", "order", "limit", "offset", "having", "window", "union", "intersect", "except",
	"fetch", "for", "returning", "set", "when", "then", "into", "values", "lateral",
	"tablesample", "select", "from", "with", "qualify", "as", "and", "or", "not", NULL
};

/* An alias at p ([AS] name [(cols)]): its end, or p when there is none. */
static const char *
tt_alias_end(const char *sql, const char *p)
{
	const char *q = skip_space(p), *r;
	size_t w = word_len(q);
	bool as = word_is(q, w, "as");

	if (as) {
		q = skip_space(q + w);
		w = word_len(q);
	}
	if (*q == '"')
		r = skip_quoted(sql, q);
	else if (w && !word_in(q, w, tt_clause_words) && !(q[0] >= '0' && q[0] <= '9'))
		r = q + w;
	else
		return p;
	q = skip_space(r);
	if (*q == '(') {
		int depth = 0;
		for (; *q; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 0)
				return q + 1;
		}
		return p;
	}
	return r;
}

typedef struct TtEdit {
	size_t from, to;          /* the text replaced: [from, to) */
	char *with;
} TtEdit;

static void
timetravel_rewrite(const char *sql, char **copy)
{
	const char *p = sql;
	Tok h[4];                 /* h[0]: the last token, h[1] the one before... */
	TtEdit *ed = NULL;
	int ned = 0, cap = 0, i;

	if (!(strcasestr(sql, "as") && strcasestr(sql, "of")) && !strcasestr(sql, "at") &&
	    !strcasestr(sql, "before"))
		return;
	memset(h, 0, sizeof h);
	while (*p) {
		const char *q = skip_space(p), *w1, *w2, *w3, *arg, *arg_end, *clause, *al_end;
		size_t w, l1, l2, l3;
		int mode = 1;
		bool spark, snow, after_from;
		Tok t;
		if (q != p) {
			p = q;
			continue;
		}
		t.p = p;
		if (*p == '\'' || *p == '"') {
			p = skip_quoted(sql, p);
			t.kind = *t.p == '"' ? 'q' : 'c';
		} else if ((w = word_len(p)) > 0) {
			t.kind = 'w';
			p += w;
		} else {
			t.kind = 'c';
			p++;
		}
		t.len = (size_t)(p - t.p);
		if (t.kind != 'w' || !(h[0].kind == 'w' || h[0].kind == 'q'))
			goto push;
		w = t.len;
		/* the relation name follows FROM / JOIN / "," [schema.] */
		after_from = tok_is(&h[1], "from") || tok_is(&h[1], "join") ||
			     (h[1].kind == 'c' && *h[1].p == ',') ||
			     (h[1].kind == 'c' && *h[1].p == '.' &&
			      (tok_is(&h[3], "from") || tok_is(&h[3], "join") ||
			       (h[3].kind == 'c' && *h[3].p == ',')));
		spark = word_is(t.p, w, "version") || word_is(t.p, w, "timestamp");
		snow = (word_is(t.p, w, "at") || word_is(t.p, w, "before")) && *skip_space(p) == '(';
		if (!spark && !snow && !word_is(t.p, w, "for"))
			goto push;
		if ((spark || snow) && !after_from)
			goto push;
		clause = t.p;
		if (snow) {
			/* AT | BEFORE ( kind => x ) */
			bool before = word_is(t.p, w, "before");
			const char *open = skip_space(p), *kind, *close;
			size_t lk;
			kind = next_word(open + 1, &lk);
			if (!kind)
				goto push;
			arg = skip_space(kind + lk);
			if (arg[0] != '=' || arg[1] != '>')
				goto push;
			arg = skip_space(arg + 2);
			if (!(arg_end = tt_expr_end(sql, arg)) || *(close = skip_space(arg_end)) != ')')
				goto push;
			if (word_is(kind, lk, "snapshot") || word_is(kind, lk, "version"))
				mode = before ? 5 : 1;
			else if (word_is(kind, lk, "timestamp"))
				mode = before ? 4 : 2;
			else if (word_is(kind, lk, "offset") && !before)
				mode = 3;
			else if (word_is(kind, lk, "statement") || word_is(kind, lk, "stream") ||
				 word_is(kind, lk, "offset"))
				mode = 0;
			else
				goto push;
			if (mode == 0)
				arg = kind, arg_end = kind + lk;
			p = close + 1;
		} else {
			bool version;
			w1 = t.p, l1 = w;
			if (!spark) {
				w1 = next_word(t.p + w, &l1);
				if (!w1)
					goto push;
				version = word_is(w1, l1, "version") || word_is(w1, l1, "system_version");
				if (!version && !word_is(w1, l1, "timestamp") && !word_is(w1, l1, "system_time"))
					goto push;
			} else {
				version = word_is(t.p, w, "version");
			}
			mode = version ? 1 : 2;
			w2 = next_word(w1 + l1, &l2);
			if (!w2 || !word_is(w2, l2, "as"))
				goto push;
			w3 = next_word(w2 + l2, &l3);
			if (!w3 || !word_is(w3, l3, "of"))
				goto push;
			arg = skip_space(w3 + l3);
			if (!(arg_end = tt_expr_end(sql, arg)))
				goto push;
			p = arg_end;
		}
		al_end = tt_alias_end(sql, p);
		if (ned == cap) {
			cap = cap ? cap * 2 : 4;
			ed = realloc(ed, sizeof *ed * (size_t)cap);
		}
		{
			/* " [alias] TABLESAMPLE "floe$tt"(mode, x)" */
			size_t la = (size_t)(al_end - p), lx = (size_t)(arg_end - arg);
			char *with = malloc(la + lx + 48);
			if (mode == 0)
				sprintf(with, " %.*s TABLESAMPLE \"floe$tt\"(0,'%.*s')", (int)la, p, (int)lx,
					arg);
			else
				sprintf(with, " %.*s TABLESAMPLE \"floe$tt\"(%d,%.*s)", (int)la, p, mode,
					(int)lx, arg);
			ed[ned].from = (size_t)(clause - sql);
			ed[ned].to = (size_t)(al_end - sql);
			ed[ned].with = with;
			ned++;
		}
		p = al_end;
		memset(h, 0, sizeof h);
		continue;
push:
		memmove(&h[1], &h[0], sizeof h[0] * 3);
		h[0] = t;
	}
	if (ned) {
		size_t len = strlen(sql), extra = 0, k = 0, at = 0;
		char *out;
		for (i = 0; i < ned; i++)
			extra += strlen(ed[i].with);
		out = malloc(len + extra + 1);
		for (i = 0; i < ned; i++) {
			memcpy(out + k, sql + at, ed[i].from - at);
			k += ed[i].from - at;
			memcpy(out + k, ed[i].with, strlen(ed[i].with));
			k += strlen(ed[i].with);
			at = ed[i].to;
			free(ed[i].with);
		}
		memcpy(out + k, sql + at, len - at + 1);
		free(*copy);
		*copy = out;
	}
	free(ed);
}

/* ---- ROLLBACK TABLE / RESTORE TABLE / SHOW SNAPSHOTS (restore.c) -------
 *
 * At the start of a statement, in place (the result is never longer):
 *   ROLLBACK TABLE t TO SNAPSHOT x          ->  CALL floe$rb(t,x)
 *   RESTORE [TABLE] t [TO] VERSION AS OF x  ->  CALL floe$rv(t,x)
 *   RESTORE [TABLE] t [TO] TIMESTAMP AS OF x->  CALL floe$rt(t,x)
 *   SHOW SNAPSHOTS FROM|IN t                ->  TABLE "t$snapshots"
 * t is one or two names (plain or double-quoted) joined by a dot; x runs
 * to the statement's end.  Positions after t move left (error positions
 * inside x are off by the difference).
 */

/* At p: [schema.]name -> *end past it, or NULL if there is none. */
static const char *
skip_rel_name(const char *sql, const char *p)
{
	int part;

	for (part = 0; part < 2; part++) {
		if (*p == '"') {
			p = skip_quoted(sql, p);
			if (p[-1] != '"')
				return NULL;
		} else if (word_len(p)) {
			p += word_len(p);
		} else {
			return NULL;
		}
		if (*p != '.')
			break;
		p++;
	}
	return p;
}

static const char *
stmt_end(const char *sql, const char *p)
{
	while (*p && *p != ';') {
		const char *q = skip_space(p);
		if (q != p)
			p = q;
		else if (*p == '\'' || *p == '"')
			p = skip_quoted(sql, p);
		else
			p++;
	}
	return p;
}

static bool
word_at(const char **p, const char *kw)
{
	const char *q = skip_space(*p);
	size_t w = word_len(q);

	if (!word_is(q, w, kw))
		return false;
	*p = q + w;
	return true;
}

/* One statement at p (its first word): rewritten in copy when it is one
 * of the forms above. */
static void
restore_at(const char *sql, const char *p, char **copy)
{
	const char *q = p, *name, *name_end, *arg, *end;
	const char *proc;
	char *buf;
	size_t len;
	int n;

	if (word_at(&q, "show")) {
		if (!word_at(&q, "snapshots") || !(word_at(&q, "from") || word_at(&q, "in")))
			return;
		name = skip_space(q);
		if (!(name_end = skip_rel_name(sql, name)))
			return;
		end = stmt_end(sql, name_end);
		if (skip_space(name_end) != end)
			return;
		len = (size_t)(end - p);
		buf = malloc(len + 32);
		{
			/* the last part gets $snapshots inside its quotes */
			const char *last = name, *d;
			size_t k = 0, i;
			for (d = name; d < name_end; d = d + 1) {
				if (*d == '"') {
					d = skip_quoted(sql, d) - 1;
					continue;
				}
				if (*d == '.')
					last = d + 1;
			}
			k += (size_t)sprintf(buf, "TABLE ");
			memcpy(buf + k, name, (size_t)(last - name));
			k += (size_t)(last - name);
			if (*last == '"') {
				memcpy(buf + k, last, (size_t)(name_end - last) - 1);
				k += (size_t)(name_end - last) - 1;
			} else {
				buf[k++] = '"';
				for (i = 0; i < (size_t)(name_end - last); i++)
					buf[k++] = (char)((last[i] >= 'A' && last[i] <= 'Z') ? last[i] + 32 : last[i]);
			}
			k += (size_t)sprintf(buf + k, "$snapshots\"");
			n = (int)k;
		}
	} else {
		bool rollback = word_at(&q, "rollback");
		if (!rollback && !word_at(&q, "restore"))
			return;
		if (!word_at(&q, "table") && rollback)
			return;
		name = skip_space(q);
		if (!(name_end = skip_rel_name(sql, name)))
			return;
		q = name_end;
		if (rollback) {
			if (!word_at(&q, "to") || !word_at(&q, "snapshot"))
				return;
			proc = "floe$rb";
		} else {
			(void)word_at(&q, "to");
			if (word_at(&q, "version"))
				proc = "floe$rv";
			else if (word_at(&q, "timestamp"))
				proc = "floe$rt";
			else
				return;
			if (!word_at(&q, "as") || !word_at(&q, "of"))
				return;
		}
		arg = skip_space(q);
		end = stmt_end(sql, arg);
		while (end > arg && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
			end--;
		if (end == arg)
			return;
		len = (size_t)(end - p);
		buf = malloc(len + 32);
		n = sprintf(buf, "CALL %s(%.*s,%.*s)", proc, (int)(name_end - name), name,
			    (int)(end - arg), arg);
	}
	if (n > 0 && (size_t)n <= len) {
		if (!*copy)
			*copy = strdup(sql);
		memset(*copy + (p - sql), ' ', len);
		memcpy(*copy + (p - sql), buf, (size_t)n);
	}
	free(buf);
}

static void
restore_rewrite(const char *sql, char **copy)
{
	const char *p = sql;
	bool start = true;

	if (!strcasestr(sql, "rollback") && !strcasestr(sql, "restore") && !strcasestr(sql, "snapshots"))
		return;
	while (*p) {
		const char *q = skip_space(p);
		size_t w;
		if (q != p) {
			p = q;
			continue;
		}
		if (start && word_len(p))
			restore_at(sql, p, copy);
		start = false;
		if (*p == '\'' || *p == '"') {
			p = skip_quoted(sql, p);
			continue;
		}
		if (*p == ';') {
			start = true;
			p++;
			continue;
		}
		w = word_len(p);
		p += w ? w : 1;
	}
}

/* ---- CALL p(table => 't'): Spark's argument name ----------------------
 *
 * "table" is a reserved word in PostgreSQL's grammar, so Spark's
 * procedure calls CALL p(table => 't') are a syntax error: the word table
 * right before "=>" becomes tabl$ (same length), and sql_parse names such
 * an argument of a CALL "table" again (call_table_args).
 */
static void
call_table_rewrite(const char *sql, char **copy)
{
	const char *p = sql;

	if (!strstr(sql, "=>"))
		return;
	while (*p) {
		const char *q = skip_space(p);
		size_t w;
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			p = skip_quoted(sql, p);
			continue;
		}
		if (*p == '$' && (p == sql || !word_len(p - 1))) {
			const char *end = p + 1, *close;
			while (word_len(end) && *end != '$')
				end++;
			if (*end == '$' && !(p[1] >= '0' && p[1] <= '9')) {
				size_t tl = (size_t)(end - p) + 1;
				for (close = end + 1; *close && strncmp(close, p, tl); close++)
					;
				p = *close ? close + tl : close;
				continue;
			}
		}
		w = word_len(p);
		if (w == 5 && !strncasecmp(p, "table", 5) && (p == sql || !word_len(p - 1)) &&
		    !strncmp(skip_space(p + 5), "=>", 2)) {
			if (!*copy)
				*copy = strdup(sql);
			memcpy(*copy + (p - sql), "tabl$", 5);
		}
		p += w ? w : 1;
	}
}

static void
call_table_args(Node *n)
{
	PgQuery__FuncCall *f;
	size_t i;

	if (!n || n->node_case != PG_QUERY__NODE__NODE_CALL_STMT || !(f = n->call_stmt->funccall))
		return;
	for (i = 0; i < f->n_args; i++)
		if (f->args[i]->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR &&
		    !strcmp(f->args[i]->named_arg_expr->name, "tabl$"))
			f->args[i]->named_arg_expr->name = "table";
}

/* ---- parsed-statement cache (see the header comment) ------------------ */

#define PC_SLOTS 512          /* entries, in sets of PC_WAYS */
#define PC_WAYS 8
#define PC_MAX_TEXT 8192
#define PC_MAX_TREE 65536

typedef struct PcEntry {
	uint64_t hash;
	char *sql;                /* NULL: empty slot */
	size_t sql_len;
	uint8_t *tree;            /* packed PgQuery__ParseResult */
	size_t tree_len;
	MergeWhen *mw;
	int nmw;
	uint64_t used;
} PcEntry;

/* One reader-writer lock per set: a hit (the common case, and the same
 * text on every connection hits the same set) takes it shared, so hits of
 * concurrent sessions never wait for each other; only a miss's insertion
 * takes it exclusively.  `used`, pc_tick and the counters are atomics. */
#define PC_SETS (PC_SLOTS / PC_WAYS)
static pthread_rwlock_t pc_rw[PC_SETS] = { [0 ... PC_SETS - 1] = PTHREAD_RWLOCK_INITIALIZER };
static PcEntry pc[PC_SLOTS];
static uint64_t pc_tick, pc_hits, pc_misses;

static uint64_t
text_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;       /* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* The cached parse of sql (len bytes), copied into arena a: *tree, *mw. */
static bool
pc_get(const char *sql, size_t len, uint64_t h, Arena *a, uint8_t **tree, size_t *tree_len,
       MergeWhen **mw, int *nmw)
{
	size_t set_no = h % PC_SETS;
	PcEntry *set = &pc[set_no * PC_WAYS];
	bool found = false;
	int i;

	pthread_rwlock_rdlock(&pc_rw[set_no]);
	for (i = 0; i < PC_WAYS; i++) {
		PcEntry *e = &set[i];
		if (e->sql && e->hash == h && e->sql_len == len && !memcmp(e->sql, sql, len)) {
			__atomic_store_n(&e->used, __atomic_add_fetch(&pc_tick, 1, __ATOMIC_RELAXED),
					 __ATOMIC_RELAXED);
			*tree_len = e->tree_len;
			*tree = arena_alloc(a, e->tree_len ? e->tree_len : 1);
			memcpy(*tree, e->tree, e->tree_len);
			*nmw = e->nmw;
			*mw = NULL;
			if (e->nmw) {
				*mw = ARENA_ARRAY(a, MergeWhen, e->nmw);
				memcpy(*mw, e->mw, sizeof(MergeWhen) * (size_t)e->nmw);
			}
			found = true;
			break;
		}
	}
	pthread_rwlock_unlock(&pc_rw[set_no]);
	__atomic_add_fetch(found ? &pc_hits : &pc_misses, 1, __ATOMIC_RELAXED);
	return found;
}

static void
pc_put(const char *sql, size_t len, uint64_t h, const void *tree, size_t tree_len,
       const MergeWhen *mw, int nmw)
{
	size_t set_no = h % PC_SETS;
	PcEntry *set = &pc[set_no * PC_WAYS], *victim = NULL, ne;
	int i;

	if (len > PC_MAX_TEXT || tree_len > PC_MAX_TREE)
		return;
	memset(&ne, 0, sizeof ne);
	ne.hash = h;
	ne.sql_len = len;
	ne.tree_len = tree_len;
	ne.nmw = nmw;
	ne.sql = malloc(len + 1);
	ne.tree = malloc(tree_len ? tree_len : 1);
	ne.mw = nmw ? malloc(sizeof(MergeWhen) * (size_t)nmw) : NULL;
	if (!ne.sql || !ne.tree || (nmw && !ne.mw)) {
		free(ne.sql);
		free(ne.tree);
		free(ne.mw);
		return;          /* no memory: just not cached */
	}
	memcpy(ne.sql, sql, len);
	ne.sql[len] = 0;
	memcpy(ne.tree, tree, tree_len);
	if (nmw)
		memcpy(ne.mw, mw, sizeof(MergeWhen) * (size_t)nmw);
	pthread_rwlock_wrlock(&pc_rw[set_no]);
	for (i = 0; i < PC_WAYS; i++) {
		PcEntry *e = &set[i];
		if (e->sql && e->hash == h && e->sql_len == len && !memcmp(e->sql, sql, len)) {
			victim = NULL;      /* another thread put it meanwhile */
			break;
		}
		if (!victim || !e->sql ||
		    (victim->sql && __atomic_load_n(&e->used, __ATOMIC_RELAXED) <
					    __atomic_load_n(&victim->used, __ATOMIC_RELAXED)))
			victim = e;
	}
	if (victim) {
		PcEntry old = *victim;
		ne.used = __atomic_add_fetch(&pc_tick, 1, __ATOMIC_RELAXED);
		*victim = ne;
		ne = old;        /* the evicted entry: freed below, unlocked */
	}
	pthread_rwlock_unlock(&pc_rw[set_no]);
	free(ne.sql);
	free(ne.tree);
	free(ne.mw);
}

void
sql_parse_cache_stats(uint64_t *hits, uint64_t *misses)
{
	*hits = __atomic_load_n(&pc_hits, __ATOMIC_RELAXED);
	*misses = __atomic_load_n(&pc_misses, __ATOMIC_RELAXED);
}

/* ---- nesting depth ------------------------------------------------------
 * libpg_query builds, packs and (protobuf-c) unpacks the tree recursively,
 * one or more C frames per tree level, with no depth check of its own: a
 * 10 kB chain 1+1+...+1 overflowed a session's stack.  So:
 *   before parsing, nesting_estimate bounds the tree's depth from the
 *     tokens (below); a statement whose bound does not fit this thread's
 *     stack is parsed on a helper thread with a stack that does (flat
 *     lists, however long, stay small: they never need one);
 *   before unpacking, packed_depth measures the packed tree's message
 *     nesting exactly (iteratively, from the descriptors), and a tree too
 *     deep for this thread's stack is refused with 54001 (stack.h), as
 *     PostgreSQL refuses what exceeds max_stack_depth. */

/* stack bytes per unit of nesting_estimate for libpg_query's parse and
 * pack (measured: 180-530; the slack covers other builds), and per
 * message level for protobuf-c's unpack (measured: ~970) */
#define PARSE_STACK_PER_UNIT 1024
#define UNPACK_STACK_PER_LEVEL 1280
#define PARSE_STACK_SLACK ((size_t)256 << 10)
#define PARSE_STACK_MAX ((size_t)64 << 20)

/* A dollar quote's tag at p ($$ or $name$), its length; 0 when none. */
static size_t
dollar_tag(const char *sql, const char *p)
{
	size_t n = 1;

	if (*p != '$' || (p > sql && word_len(p - 1)))
		return 0;
	if (p[1] >= '0' && p[1] <= '9')
		return 0;
	while (p[n] && p[n] != '$' && word_len(p + n))
		n++;
	return p[n] == '$' ? n + 1 : 0;
}

typedef struct NestGroup {
	size_t base, sticky, operand;
	bool is_case;
} NestGroup;

static bool
word_in(const char *p, size_t w, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == w && !strncasecmp(p, *list, w))
			return true;
	return false;
}

/* An upper bound (up to a constant factor) of the parse tree's depth:
 * the tree nests only through brackets and CASE ... END (groups), chains
 * of operators (left-deep: a+b+c is ((a+b)+c)) and chains of statement
 * keywords (UNION, JOIN, SELECT).  Within a group, AND, OR and commas
 * separate flat siblings (libpg_query flattens AND/OR chains; lists are
 * flat), so they restart the operator count of the current operand; the
 * statement keywords count across them.  The bound is the largest, over
 * the text, of the counts of the enclosing groups plus their nesting.
 * Literals, names, quoted text and comments add nothing.  Linear. */
static size_t
nesting_estimate(const char *sql)
{
	static const char *const sticky_words[] = {
		"select", "union", "intersect", "except", "join", "values", NULL
	};
	static const char *const operand_words[] = {
		"not", "is", "isnull", "notnull", "at", "collate", "like", "ilike", "similar",
		"between", "overlaps", "in", "any", "all", "some", "array", "row", "exists",
		"distinct", "escape", NULL
	};
	NestGroup *st = NULL, cur = { 0, 0, 0, false };
	size_t nst = 0, cap = 0, best = 0, now;
	const char *p = sql;

	while (*p) {
		const char *q = skip_space(p);
		size_t w, tag;
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			p = skip_quote_at(sql, p);
			continue;
		}
		if ((tag = dollar_tag(sql, p)) != 0) {
			const char *end;
			for (end = p + tag; *end && strncmp(end, p, tag); end++)
				;
			p = *end ? end + tag : end;
			continue;
		}
		if ((w = word_len(p)) != 0) {
			if (word_is(p, w, "and") || word_is(p, w, "or")) {
				cur.operand = 0;
			} else if (word_is(p, w, "case") || (word_is(p, w, "end") && cur.is_case && nst)) {
				goto bracket;
			} else if (word_in(p, w, sticky_words)) {
				cur.sticky++;
			} else if (word_in(p, w, operand_words)) {
				cur.operand++;
			}
			p += w;
		} else if (*p == '(' || *p == '[' || *p == ')' || *p == ']') {
			w = 1;
bracket:
			if (*p == '(' || *p == '[' || *p == 'c' || *p == 'C') {
				if (nst == cap) {
					cap = cap ? cap * 2 : 64;
					st = realloc(st, cap * sizeof(*st));
					if (!st)
						return SIZE_MAX;
				}
				st[nst++] = cur;
				cur.base += cur.sticky + cur.operand + 1;
				cur.sticky = cur.operand = 0;
				cur.is_case = *p == 'c' || *p == 'C';
			} else if (nst) {
				cur = st[--nst];
			}
			p += w;
		} else if (*p == ',') {
			cur.operand = 0;
			p++;
		} else if (*p == ';') {
			nst = 0;
			memset(&cur, 0, sizeof(cur));
			p++;
		} else {
			if (strchr("+-*/<>=~!@#%^&|`?:", *p))
				cur.operand++;
			p++;
		}
		now = cur.base + cur.sticky + cur.operand;
		if (now > best)
			best = now;
	}
	free(st);
	return best;
}

/* One varint at *pos (before end); false when malformed. */
static bool
pb_varint(const uint8_t *data, size_t end, size_t *pos, uint64_t *out)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64 && *pos < end; shift += 7) {
		uint8_t byte = data[(*pos)++];
		v |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*out = v;
			return true;
		}
	}
	return false;
}

typedef struct PbLevel {
	const ProtobufCMessageDescriptor *d;
	size_t end;
} PbLevel;

/* The message nesting depth of a packed ParseResult (1: no message
 * fields), found without recursion; counting stops past `limit`
 * (returns limit + 1).  A malformed tree returns 0 (unpack refuses it). */
static size_t
packed_depth(const uint8_t *data, size_t len, size_t limit)
{
	PbLevel *st;
	size_t nst = 1, cap = 64, pos = 0, best = 1;

	if (!(st = malloc(cap * sizeof(*st))))
		return 0;
	st[0].d = &pg_query__parse_result__descriptor;
	st[0].end = len;
	while (nst && best <= limit) {
		PbLevel *top = &st[nst - 1];
		uint64_t key, v;
		const ProtobufCFieldDescriptor *f;
		if (pos >= top->end) {
			nst--;
			continue;
		}
		if (!pb_varint(data, top->end, &pos, &key))
			goto bad;
		switch (key & 7) {
		case 0:
			if (!pb_varint(data, top->end, &pos, &v))
				goto bad;
			break;
		case 1:
		case 5:
			if (top->end - pos < ((key & 7) == 1 ? 8u : 4u))
				goto bad;
			pos += (key & 7) == 1 ? 8 : 4;
			break;
		case 2:
			if (!pb_varint(data, top->end, &pos, &v) || v > top->end - pos)
				goto bad;
			f = protobuf_c_message_descriptor_get_field(top->d, (unsigned)(key >> 3));
			if (!f || f->type != PROTOBUF_C_TYPE_MESSAGE) {
				pos += v;
				break;
			}
			if (nst == cap) {
				PbLevel *more = realloc(st, 2 * cap * sizeof(*st));
				if (!more)
					goto bad;
				st = more;
				cap *= 2;
			}
			st[nst].d = f->descriptor;
			st[nst].end = pos + v;
			if (++nst > best)
				best = nst;
			break;
		default:
			goto bad;
		}
	}
	free(st);
	return best;
bad:
	free(st);
	return 0;
}

/* Can this thread's stack unpack the packed tree?  54001 when not. */
static int
check_unpack_depth(const uint8_t *data, size_t len, floe_error *err)
{
	size_t room = stack_remaining(), limit, depth;

	limit = room > PARSE_STACK_SLACK ? (room - PARSE_STACK_SLACK) / UNPACK_STACK_PER_LEVEL : 0;
	depth = packed_depth(data, len, limit);
	if (depth > limit)
		return stack_depth_error(err);
	return FLOE_OK;
}

typedef struct ParseJob {
	const char *sql;
	PgQueryProtobufParseResult r;
} ParseJob;

static void *
parse_main(void *arg)
{
	ParseJob *j = arg;

	j->r = pg_query_parse_protobuf(j->sql);   /* libpg_query frees its
						     * thread's memory at exit */
	return NULL;
}

/* pg_query_parse_protobuf(sql) on a stack deep enough for the tree
 * nesting_estimate bounds: this thread's when it has room, else a helper
 * thread's (this one waits).  54001 when no stack is big enough. */
static int
parse_on_stack(const char *sql, PgQueryProtobufParseResult *r, floe_error *err)
{
	size_t units = nesting_estimate(sql), need;
	pthread_attr_t at;
	pthread_t th;
	ParseJob job;
	int rc;

	if (units > (PARSE_STACK_MAX - 2 * PARSE_STACK_SLACK) / PARSE_STACK_PER_UNIT)
		return stack_depth_error(err);
	need = units * PARSE_STACK_PER_UNIT + PARSE_STACK_SLACK;
	if (need <= stack_remaining()) {
		*r = pg_query_parse_protobuf(sql);
		return FLOE_OK;
	}
	job.sql = sql;
	if (pthread_attr_init(&at) != 0)
		return stack_depth_error(err);
	rc = pthread_attr_setstacksize(&at, need + PARSE_STACK_SLACK);
	if (rc == 0)
		rc = pthread_create(&th, &at, parse_main, &job);
	pthread_attr_destroy(&at);
	if (rc != 0)
		return stack_depth_error(err);
	pthread_join(th, NULL);
	*r = job.r;
	return FLOE_OK;
}

int
sql_parse(const char *sql, Arena *arena, SqlStmt **stmts, int *n, floe_error *err)
{
	size_t len = strlen(sql), tree_len;
	uint64_t h = text_hash(sql, len);
	uint8_t *packed;
	MergeWhen *mw;
	int nmw;
	PgQuery__ParseResult *tree;
	size_t i;
	int rc;

	if (!pc_get(sql, len, h, arena, &packed, &tree_len, &mw, &nmw)) {
		char *rewritten = rewrite_extensions(sql);
		PgQueryProtobufParseResult r;

		merge_rewrite(rewritten ? rewritten : sql, &rewritten, arena, &mw, &nmw);
		timetravel_rewrite(rewritten ? rewritten : sql, &rewritten);
		call_table_rewrite(rewritten ? rewritten : sql, &rewritten);
		restore_rewrite(rewritten ? rewritten : sql, &rewritten);
		rc = parse_on_stack(rewritten ? rewritten : sql, &r, err);
		free(rewritten);
		if (rc != FLOE_OK)
			return rc;

		if (r.error) {
			floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s", r.error->message);
			if (r.error->cursorpos > 0)
				floe_error_position(err, r.error->cursorpos);   /* already in characters */
			pg_query_free_protobuf_parse_result(r);
			return FLOE_ERR;
		}
		if (check_unpack_depth((const uint8_t *)r.parse_tree.data, r.parse_tree.len, err) != FLOE_OK) {
			pg_query_free_protobuf_parse_result(r);
			return FLOE_ERR;
		}
		tree = unpack_in(arena, r.parse_tree.len, (const uint8_t *)r.parse_tree.data);
		if (tree)
			pc_put(sql, len, h, r.parse_tree.data, r.parse_tree.len, mw, nmw);
		pg_query_free_protobuf_parse_result(r);
	} else {
		TRY(check_unpack_depth(packed, tree_len, err));
		tree = unpack_in(arena, tree_len, packed);
	}
	if (!tree)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "could not decode the parse tree");
	*n = (int)tree->n_stmts;
	*stmts = ARENA_ARRAY(arena, SqlStmt, tree->n_stmts ? tree->n_stmts : 1);
	for (i = 0; i < tree->n_stmts; i++) {
		(*stmts)[i].node = tree->stmts[i]->stmt;
		(*stmts)[i].location = tree->stmts[i]->stmt_location;
		(*stmts)[i].len = tree->stmts[i]->stmt_len;
		call_table_args((*stmts)[i].node);
	}
	return merge_mark(*stmts, *n, mw, nmw, err);
}

int
sql_split(const char *sql, int **loc, int **len)
{
	PgQuerySplitResult r = pg_query_split_with_scanner(sql);
	int i, n = 0;

	*loc = *len = NULL;
	if (r.error) {
		pg_query_free_split_result(r);
		return -1;
	}
	*loc = xmalloc(sizeof(int) * (size_t)(r.n_stmts + 1));
	*len = xmalloc(sizeof(int) * (size_t)(r.n_stmts + 1));
	for (i = 0; i < r.n_stmts; i++)
		if (r.stmts[i]->stmt_len > 0) {
			(*loc)[n] = r.stmts[i]->stmt_location;
			(*len)[n] = r.stmts[i]->stmt_len;
			n++;
		}
	pg_query_free_split_result(r);
	return n;
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

/* ---- tree walking ------------------------------------------------------ */

int
sql_children(const ProtobufCMessage *m, int (*fn)(const ProtobufCMessage *child, void *arg),
	     void *arg)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const char *base = (const char *)m;
	unsigned i;
	int r;

	/* Node is a oneof of ~250 message members, one set (node_case): go
	 * straight to it (testing each member was a visible share of a short
	 * statement's time; the fields are numbered 1.. in order). */
	if (d == &pg_query__node__descriptor) {
		const Node *nd = (const Node *)m;
		const ProtobufCMessageDescriptor *dd = d;
		const ProtobufCFieldDescriptor *f;
		const ProtobufCMessage *sub;
		unsigned id = (unsigned)nd->node_case;
		if (id == 0)
			return 0;
		f = id <= dd->n_fields && dd->fields[id - 1].id == id ? &dd->fields[id - 1] :
		    protobuf_c_message_descriptor_get_field(dd, id);
		if (!f || f->type != PROTOBUF_C_TYPE_MESSAGE || f->label == PROTOBUF_C_LABEL_REPEATED)
			return 0;
		sub = *(const ProtobufCMessage *const *)(base + f->offset);
		return sub ? fn(sub, arg) : 0;
	}
	for (i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
		    *(const uint32_t *)(base + f->quantifier_offset) != f->id)
			continue;
		if (f->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)(base + f->quantifier_offset), k;
			ProtobufCMessage *const *arr = *(ProtobufCMessage *const *const *)(base + f->offset);
			for (k = 0; k < n; k++)
				if (arr[k] && (r = fn(arr[k], arg)) != 0)
					return r;
		} else {
			const ProtobufCMessage *sub = *(const ProtobufCMessage *const *)(base + f->offset);
			if (sub && (r = fn(sub, arg)) != 0)
				return r;
		}
	}
	return 0;
}

static int
min_location(const ProtobufCMessage *m, void *arg)
{
	int *best = arg;
	int own = sql_location(m);

	if (own >= 0 && (*best < 0 || own < *best))
		*best = own;
	return 0;
}

int
sql_location(const ProtobufCMessage *m)
{
	const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field_by_name(m->descriptor,
											 "location");
	int best = -1;

	if (f && f->type == PROTOBUF_C_TYPE_INT32 && f->label != PROTOBUF_C_LABEL_REPEATED)
		best = *(const int32_t *)((const char *)m + f->offset);
	if (best < -1)
		best = -1;
	sql_children(m, min_location, &best);
	return best;
}

char *
sql_deparse(PgQuery__Node *stmt, Arena *arena, const char **why)
{
	PgQuery__RawStmt raw = PG_QUERY__RAW_STMT__INIT, *rp = &raw;
	PgQuery__ParseResult pr = PG_QUERY__PARSE_RESULT__INIT;
	PgQueryProtobuf pb;
	PgQueryDeparseResult r;
	uint8_t *buf;
	char *out = NULL;
	size_t len;

	raw.stmt = stmt;
	pr.version = PG_VERSION_NUM;
	pr.n_stmts = 1;
	pr.stmts = &rp;
	len = pg_query__parse_result__get_packed_size(&pr);
	buf = arena_alloc(arena, len + 1);
	pg_query__parse_result__pack(&pr, buf);
	pb.len = (unsigned int)len;
	pb.data = (char *)buf;
	r = pg_query_deparse_protobuf(pb);
	if (!r.error && r.query)
		out = arena_strdup(arena, r.query);
	else if (why)
		*why = r.error && r.error->message ? arena_strdup(arena, r.error->message) : "deparse failed";
	pg_query_free_deparse_result(r);
	return out;
}
