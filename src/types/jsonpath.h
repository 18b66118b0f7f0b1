/*
 * jsonpath.h — PostgreSQL 15's jsonpath type: the SQL/JSON path language's
 * parser (jsonpath_in, with its SQLSTATEs and messages) and printer
 * (jsonpath_out), and the tree func/func_jsonpath.c evaluates.
 *
 * A jsonpath value is TYPE_TEXT with text_kind TEXT_JSONPATH (types.h),
 * stored as the text jsonpath_out prints for it ("$."a"[*]?(@ > 1)"), so a
 * stored value parses back to the same tree and its bytes are its output.
 *
 * Grammar (PostgreSQL 15 documentation 9.16.2, "The SQL/JSON Path
 * Language"): [strict | lax] then an expression or a predicate; primaries
 * $ @ $var last, string / numeric / true / false / null literals;
 * accessors .key ."key" .* [subscripts] [*] .** .**{n} .**{n to m}
 * (m may be last), ?(predicate), item methods .type() .size() .double()
 * .ceiling() .floor() .abs() .keyvalue() .datetime([template]); unary + -,
 * binary * / % + -; comparisons == != <> < <= > >=; && || !; (p) is
 * unknown; exists(expr); expr starts with "s" | $var; expr like_regex "re"
 * [flag "imsqx"].  Keywords are case-insensitive.
 *
 * Errors (PostgreSQL 15):
 *   42601 "syntax error at or near "x" of jsonpath input" / "... at end of
 *         jsonpath input"; "trailing junk after numeric literal at or near
 *         "1a" of jsonpath input"; "@ is not allowed in root expressions";
 *         "LAST is allowed only in array subscripts"; "invalid input syntax
 *         for type jsonpath" DETAIL 'Unrecognized flag character "a" in
 *         LIKE_REGEX predicate.'
 *   22P02 'invalid input syntax for type jsonpath: ""' (no tokens at all);
 *         lone surrogates in \u escapes
 *   22P05 "unsupported Unicode escape sequence" (\u0000, \x00)
 *         "memory exhausted at or near "(" of jsonpath input" past 4000
 *         nested parentheses / unary operators / filters (PostgreSQL: its
 *         parser's stack)
 *   0A000 'XQuery "x" flag (expanded regular expressions) is not implemented'
 *   2201B "invalid regular expression: ..." (like_regex patterns are
 *         compiled when the path is read; func_jsonpath.c's checker)
 *
 * INTERFACE ROUTINES
 *   jsonpath_parse(s, n, a, &path, err)        jsonpath_in
 *   jsonpath_print(path, a, &len)              jsonpath_out
 *   jsonpath_normalize(s, n, a, &out, &len, err)   in, then out (text.c)
 *   jsonpath_regex_compile(re, pat, n, flags, err)  a like_regex pattern as
 *                                              a POSIX regex (PostgreSQL's flag
 *                                              meanings); jsonpath_regex_match
 */
#ifndef FLOE_JSONPATH_H
#define FLOE_JSONPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"

typedef enum JpType {
	JPI_NULL = 0, JPI_STRING, JPI_NUMERIC, JPI_BOOL,
	JPI_AND, JPI_OR, JPI_NOT, JPI_ISUNKNOWN,
	JPI_EQ, JPI_NE, JPI_LT, JPI_GT, JPI_LE, JPI_GE, JPI_STARTSWITH, JPI_LIKEREGEX,
	JPI_ADD, JPI_SUB, JPI_MUL, JPI_DIV, JPI_MOD, JPI_PLUS, JPI_MINUS,
	JPI_ANYARRAY, JPI_ANYKEY, JPI_INDEX, JPI_ANY, JPI_KEY,
	JPI_CURRENT, JPI_ROOT, JPI_VAR, JPI_LAST, JPI_FILTER, JPI_EXISTS,
	JPI_TYPE, JPI_SIZE, JPI_ABS, JPI_FLOOR, JPI_CEILING, JPI_DOUBLE, JPI_DATETIME,
	JPI_KEYVALUE
} JpType;

/* like_regex flags */
#define JP_RE_ICASE  0x01   /* i */
#define JP_RE_DOTALL 0x02   /* s */
#define JP_RE_MLINE  0x04   /* m */
#define JP_RE_WSPACE 0x08   /* x */
#define JP_RE_QUOTE  0x10   /* q */

#define JP_LAST_LEVEL UINT32_MAX   /* .**{last} */

typedef struct JpItem {
	uint8_t type;              /* JpType */
	bool b;                    /* JPI_BOOL */
	struct JpItem *next;       /* the accessor applied to this item's result */
	struct JpItem *left;       /* binary: left; unary, NOT, ISUNKNOWN, EXISTS,
				      FILTER: the argument; LIKEREGEX, STARTSWITH:
				      the expression; DATETIME: template or NULL */
	struct JpItem *right;      /* binary: right; STARTSWITH: the prefix */
	const char *s;             /* STRING, KEY, VAR (decoded), NUMERIC (numeric_out
				      text), LIKEREGEX pattern */
	size_t len;
	uint32_t flags;            /* LIKEREGEX: JP_RE_* */
	uint32_t first, last;      /* ANY levels */
	int nsubs;                 /* INDEX: subscripts */
	struct JpItem **from, **to;   /* INDEX: to[i] NULL unless a range */
} JpItem;

typedef struct JsonPath {
	bool lax;
	JpItem *root;
} JsonPath;

int jsonpath_parse(const char *s, size_t n, Arena *a, JsonPath **out, floe_error *err);
const char *jsonpath_print(const JsonPath *p, Arena *a, size_t *len);
int jsonpath_normalize(const char *s, size_t n, Arena *a, const char **out, size_t *len,
		       floe_error *err);

/*
 * like_regex: PostgreSQL's defaults ('.' and [^x] stop at a newline, ^ and
 * $ only at the ends), s (dot matches newline), m (^ $ at newlines), i, q
 * (a literal string); x is refused when the path is read.  The pattern is
 * turned into a POSIX extended regex (ARE's \d \D, (?:) rewritten) and
 * compiled under a UTF-8 LC_CTYPE; FLOE_ERR 2201B if it is not valid.
 * jsonpath_regex_match runs it on s (any bytes; NUL-terminated copy made).
 */
struct re_pattern_buffer;
int jsonpath_regex_compile(struct re_pattern_buffer *re, const char *pat, size_t n,
			   uint32_t flags, floe_error *err);
bool jsonpath_regex_match(const struct re_pattern_buffer *re, const char *s, size_t n);

#endif
