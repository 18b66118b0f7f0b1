/*
 * keyform.h — how hashing operators (GROUP BY / DISTINCT, hash joins, set
 * operations, recursive UNION) hash and compare a string key so that the
 * values SQL calls equal land together.
 *
 * Most string types are equal exactly when their bytes are.  Two are not:
 *   bpchar (TEXT_CHAR)  trailing blanks do not count ('a' = 'a  ': PostgreSQL's
 *                       bpchareq / hashbpchar);
 *   jsonb (TEXT_JSONB)  numbers compare by value: a stored jsonb text is
 *                       jsonb_out's (types/json.h), whose numbers are
 *                       numeric_out's, so 1 and 1.0 differ only in the
 *                       fraction's trailing zeros (and then its point):
 *                       those bytes do not count ('{"a": 1.50}' =
 *                       '{"a": 1.5}', as jsonb_eq / jsonb_hash).
 * The key form is the value's bytes without the ones that do not count;
 * equal values have the same key form, so hashing it is consistent with
 * equality.  Nothing is allocated.
 *
 * INTERFACE ROUTINES
 *   keyform_special(t)               t is bpchar or jsonb (else: bytes compare)
 *   keyform_hash(t, p, n)            XXH3_64bits of the key form of p[0..n)
 *   keyform_eq(t, a, an, b, bn)      the key forms are equal
 */
#ifndef FLOE_KEYFORM_H
#define FLOE_KEYFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "types/types.h"

static inline bool
keyform_special(SqlType t)
{
	return t.id == TYPE_TEXT && (t.text_kind == TEXT_CHAR || t.text_kind == TEXT_JSONB);
}

uint64_t keyform_hash(SqlType t, const char *p, size_t n);
bool keyform_eq(SqlType t, const char *a, size_t an, const char *b, size_t bn);

#endif
