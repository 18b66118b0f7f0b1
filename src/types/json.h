/*
 * json.h — PostgreSQL 15's json and jsonb values: the parser (json_in /
 * jsonb_in, with their SQLSTATEs, messages and DETAIL lines), jsonb's
 * normal form and its output text, and the tree the json functions walk.
 *
 * Both types are TYPE_TEXT (text_kind TEXT_JSON / TEXT_JSONB, types.h) and
 * stored as text: json keeps its input exactly; jsonb keeps the text
 * PostgreSQL's jsonb_out prints for it (keys ordered by length, then bytes;
 * the last of duplicate keys kept; ", " and ": " separators; numbers as
 * numeric_out prints them: 1e2 -> 100, 1.50 -> 1.50).  So a stored jsonb
 * text parses back to the same tree, and its bytes are its output.
 *
 * Errors (PostgreSQL 15 jsonapi.c / jsonfuncs.c json_ereport_error):
 *   22P02 "invalid input syntax for type json" (for jsonb too), DETAIL
 *         'Token "x" is invalid.', 'Expected ":", but found "1".',
 *         'The input string ended unexpectedly.', ...
 *   22P05 "unsupported Unicode escape sequence": \u0000 when strings are
 *         decoded (jsonb, and json's field operators)
 *   22P02 'invalid input syntax for type numeric: "1e1001"' (jsonb: an
 *         exponent beyond +-1000, as numeric_in)
 *
 * INTERFACE ROUTINES
 *   pgjson_parse(s, n, flags, a, &root, err)   parse (JSONP_* flags); root
 *                                            NULL unless JSONP_TREE
 *   pgjson_validate(s, n, err)                 json_in: syntax only
 *   pgjsonb_normalize(s, n, a, &out, &len, err) jsonb_in then jsonb_out
 *   pgjsonb_text(node, a, &len)                jsonb_out of a (normalised) tree
 *   pgjson_node_text(node, jsonb, a, &len)     a node as json/jsonb text (json:
 *                                            its source text)
 *   pgjson_escape(buf, s, n)                   escape_json: "..." with escapes
 *   pgjson_numeric_text(s, n, a, &out, &len, err)  a JSON number as numeric_out
 *   pgjson_object_get(obj, key, klen)          a key's value (jsonb: binary search)
 *   pgjsonb_compare(a, b)                      PostgreSQL's jsonb btree order
 *   pgjsonb_cmp_text(a, an, b, bn)             the same for two stored jsonb texts
 *
 * JsonBuf is a growable byte buffer in an arena (jbuf_*).
 */
#ifndef FLOE_JSON_H
#define FLOE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/error.h"

/* In PostgreSQL's jsonb type order, lowest first (null < string < number
 * < boolean < array < object). */
typedef enum JsonKind {
	JV_NULL = 0,
	JV_STRING,
	JV_NUMBER,
	JV_FALSE,
	JV_TRUE,
	JV_ARRAY,
	JV_OBJECT
} JsonKind;

typedef struct JsonNode {
	uint8_t kind;            /* JsonKind */
	bool raw;                /* the document's top-level scalar */
	uint32_t n;              /* ARRAY: elements, OBJECT: pairs */
	const char *s;           /* STRING: decoded UTF-8; NUMBER: its text
				    (numeric_out's under JSONP_JSONB) */
	size_t len;
	const char *src;         /* the value's text in the input */
	size_t srclen;
	struct JsonNode *kids;   /* ARRAY: n elements; OBJECT: 2n, key, value, ... */
} JsonNode;

#define JSONP_DECODE 0x1    /* decode strings (escapes checked: surrogates, \u0000) */
#define JSONP_TREE   0x2    /* build the tree */
#define JSONP_JSONB  0x4    /* jsonb: sort keys, drop duplicates, numbers normalised */

int pgjson_parse(const char *s, size_t n, int flags, Arena *a, JsonNode **root, floe_error *err);
int pgjson_validate(const char *s, size_t n, floe_error *err);
int pgjsonb_normalize(const char *s, size_t n, Arena *a, const char **out, size_t *len,
		    floe_error *err);

typedef struct JsonBuf {
	Arena *a;
	char *p;
	size_t len, cap;
} JsonBuf;
void jbuf_init(JsonBuf *b, Arena *a);
void jbuf_add(JsonBuf *b, const char *s, size_t n);
void jbuf_addc(JsonBuf *b, char c);
void jbuf_adds(JsonBuf *b, const char *s);
const char *jbuf_finish(JsonBuf *b, size_t *len);   /* NUL-terminated */

void pgjson_escape(JsonBuf *b, const char *s, size_t n);
void pgjsonb_write(JsonBuf *b, const JsonNode *node);
const char *pgjsonb_text(const JsonNode *node, Arena *a, size_t *len);
const char *pgjson_node_text(const JsonNode *node, bool jsonb, Arena *a, size_t *len);
int pgjson_numeric_text(const char *s, size_t n, Arena *a, const char **out, size_t *len,
		      floe_error *err);
const JsonNode *pgjson_object_get(const JsonNode *obj, const char *key, size_t klen,
				bool sorted);
int pgjsonb_compare(const JsonNode *a, const JsonNode *b);
/* the same for two stored jsonb texts (sort keys) */
int pgjsonb_cmp_text(const char *a, size_t an, const char *b, size_t bn);
/* numeric comparison of two JSON number texts (any length) */
int pgjson_number_cmp(const char *a, size_t an, const char *b, size_t bn);

#endif
