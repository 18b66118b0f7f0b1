/*
 * udt.h — user-defined types: enums (CREATE TYPE ... AS ENUM) and domains
 * (CREATE DOMAIN), as the types layer sees them.
 *
 * A value of an enum is stored as its label: SqlType TYPE_TEXT, text_kind
 * TEXT_ENUM, udt the enum's OID.  A value of a domain is a value of its
 * base type: the physical base SqlType (under every domain) with udt the
 * domain's OID; a domain over an enum is TEXT_ENUM with the domain's OID
 * (udt_enum finds the enum).  Udt.base is the type as declared (another
 * domain's or an enum's OID in its udt).  What the OID
 * names (labels and their order, a domain's constraints) lives in one
 * process-wide registry that the SQL layer fills from the catalog
 * (sql/usertype.c) and replaces whole (udt_publish): readers take the
 * current set without a lock; a published set is never changed and stays
 * allocated until the process ends, so a pointer from udt_get stays valid.
 *
 * INTERFACE ROUTINES
 *   udt_set_new() / udt_add(set) / udt_publish(set)   build and install a set
 *   udt_generation()                 bumped by every udt_publish
 *   udt_get(oid)                     the type, NULL when unknown
 *   udt_find(ns, name)               by schema and name, NULL when none
 *   udt_count() / udt_at(i)          every type of the current set
 *   udt_chain_has(oid, want)         oid is want or a domain over it (over ...)
 *   udt_enum(oid)                    the enum of an enum's or a domain over it's OID
 *   udt_enum_pos(u, s, n)            a label's rank (0-based, by sort order), -1 none
 *   udt_enum_cmp(oid, a, b)          three-way compare of two labels by rank
 *   type_enum(oid) / type_is_enum(t) / type_domain_base(t)
 */
#ifndef FLOE_TYPES_UDT_H
#define FLOE_TYPES_UDT_H

#include "common/arena.h"
#include "types/strview.h"
#include "types/types.h"

typedef struct Udt {
	uint32_t oid;
	char kind;                  /* 'e' enum, 'd' domain */
	const char *ns, *name;
	/* enum: labels sorted by their sort order (ascending) */
	int nlabels;
	const char **labels;
	double *orders;
	/* domain */
	SqlType base;
	bool notnull;
	const char *default_sql;    /* NULL: none */
	const char *notnull_name;   /* the NOT NULL constraint's name */
	int nchecks;
	const char **check_names;   /* by name */
	const char **check_exprs;   /* SQL text over VALUE */
	bool *check_valid;          /* false: NOT VALID */
} Udt;

typedef struct UdtSet {
	Arena *a;
	int n, cap;
	Udt *u;
	struct UdtSet *prev;        /* every set published, freed at exit */
} UdtSet;

UdtSet *udt_set_new(void);
Udt *udt_add(UdtSet *set);
void udt_publish(UdtSet *set);
uint64_t udt_generation(void);
const Udt *udt_get(uint32_t oid);
const Udt *udt_find(const char *ns, const char *name);
int udt_count(void);
const Udt *udt_at(int i);
const Udt *udt_enum(uint32_t oid);
/* the domains of oid, innermost (the one over a built-in type) first */
int udt_domain_chain(uint32_t oid, const Udt **out, int max);
/* oid is want, or a domain whose base (its base ...) is want */
bool udt_chain_has(uint32_t oid, uint32_t want);
int udt_enum_pos(const Udt *u, const char *s, size_t n);
int udt_enum_cmp(uint32_t oid, const strview *a, const strview *b);

SqlType type_enum(uint32_t oid);
#define type_is_enum(t) ((t).id == TYPE_TEXT && (t).text_kind == TEXT_ENUM)
/* a domain's type as its base type (udt 0); any other type as it is */
SqlType type_domain_base(SqlType t);
bool type_is_domain(SqlType t);

#endif
