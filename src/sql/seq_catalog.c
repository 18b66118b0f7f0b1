/*
 * seq_catalog.c — sequences in pg_catalog and information_schema: rows
 * of pg_class (relkind 'S'), pg_attribute (last_value, log_cnt,
 * is_called), pg_sequence, pg_sequences, pg_depend (OWNED BY: deptype
 * 'a', relacl: acl.c's grants), information_schema.sequences and
 * usage_privileges (USAGE grants) (and pg_prepared_statements and
 * pg_cursors, from
 * prepare.c and cursor.c); and the oids pg_table_is_visible
 * sees (psql \ds, \d seq).
 *
 * Spec: PostgreSQL 15 documentation chapters 53.48 pg_sequence, 54.24
 * pg_sequences, 37.45 sequences.  Oids are pgcatalog_table_oid(ns, name),
 * as for tables (a name is one relation of its schema).
 *
 * INTERFACE ROUTINES (sequence.h)
 *   seq_catalog_rows(s, r, pg, relname, a, err)
 *   seq_visible_oids(s, a, &oids, &n, err)
 */
#include <stdio.h>
#include <string.h>
#include "sql/acl.h"
#include "sql/cursor.h"
#include "sql/pgcatalog.h"
#include "sql/prepare.h"
#include "sql/sequence.h"
#include "sql/temp.h"
#include "table/metadata.h"
#include "table/table.h"
#include "sql/txn.h"

typedef struct SeqRow {
	const char *ns, *name;
	CatalogSeq q;
} SeqRow;

/* Every sequence of every schema (ns NULL) or of ns. */
static int
all_seqs(Session *s, const char *only_ns, Arena *a, SeqRow **out, int *n, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	char **nss, **names;
	int nns, nn, i, k, cap = 0;

	*out = NULL;
	*n = 0;
	if (!c->vt->seq_list)
		return FLOE_OK;
	if (only_ns) {
		bool exists;
		TRY(catalog_namespace_exists(c, only_ns, &exists, err));
		if (!exists)
			return FLOE_OK;
		nss = ARENA_ARRAY(a, char *, 1);
		nss[0] = (char *)only_ns;
		nns = 1;
	} else {
		TRY(catalog_list_namespaces(c, a, &nss, &nns, err));
	}
	for (i = 0; i < nns; i++) {
		TRY(c->vt->seq_list(c, nss[i], a, &names, &nn, err));
		for (k = 0; k < nn; k++) {
			bool found;
			if (*n == cap) {
				int nc = cap ? cap * 2 : 8;
				*out = arena_realloc(a, *out, sizeof(SeqRow) * (size_t)cap,
						     sizeof(SeqRow) * (size_t)nc);
				cap = nc;
			}
			(*out)[*n].ns = nss[i];
			(*out)[*n].name = names[k];
			TRY(seq_lookup(s, nss[i], names[k], a, &(*out)[*n].q, &found, err));
			if (found)
				(*n)++;
		}
	}
	return FLOE_OK;
}

int
seq_visible_oids(Session *s, const char *ns, Arena *a, char ***names, int64_t **oids, int *n,
		 floe_error *err)
{
	Catalog *c = s->engine->catalog;
	int nn = 0, i;
	bool exists;

	*oids = NULL;
	*names = NULL;
	*n = 0;
	if (!c->vt->seq_list)
		return FLOE_OK;
	TRY(catalog_namespace_exists(c, ns, &exists, err));
	if (!exists)
		return FLOE_OK;
	TRY(c->vt->seq_list(c, ns, a, names, &nn, err));
	*oids = ARENA_ARRAY(a, int64_t, nn + 1);
	for (i = 0; i < nn; i++)
		(*oids)[i] = pgcatalog_table_oid(ns, (*names)[i]);
	*n = nn;
	return FLOE_OK;
}

/* ---- cells by column name ------------------------------------------------- */

static Value *
cell(ConstRel *r, Value *row, const char *col)
{
	int c;

	for (c = 0; c < r->ncols; c++)
		if (!strcmp(r->names[c], col))
			return &row[c];
	return NULL;   /* a column this relation does not have: left NULL */
}

static void
put_i(ConstRel *r, Value *row, const char *col, int64_t v)
{
	Value *x = cell(r, row, col);

	if (!x)
		return;
	x->is_null = false;
	if (x->type.id == TYPE_FLOAT32 || x->type.id == TYPE_FLOAT64)
		x->u.f = (double)v;
	else if (x->type.id == TYPE_BOOL)
		x->u.b = v != 0;
	else
		x->u.i = v;
}

static void
put_s(ConstRel *r, Value *row, const char *col, const char *s)
{
	Value *x = cell(r, row, col);

	if (!x || !s)
		return;
	x->is_null = false;
	x->u.s = strview_make(s, (uint32_t)strlen(s));
}

static int64_t
type_oid(const char *t)
{
	return !strcmp(t, "smallint") ? 21 : !strcmp(t, "integer") ? 23 : 20;
}

static int
type_bits(const char *t)
{
	return !strcmp(t, "smallint") ? 16 : !strcmp(t, "integer") ? 32 : 64;
}

static const char *
num(Arena *a, int64_t v)
{
	return arena_sprintf(a, "%lld", (long long)v);
}

/* the column number of owned_by's column in its table, 0 when unknown */
static int
owner_attnum(Session *s, const SeqRow *q, Arena *a, const char **table)
{
	const char *dot = strrchr(q->q.owned_by, '.');
	const IcebergSchema *sc;
	floe_error ignore;
	Table *t;
	int i;

	if (!dot)
		return 0;
	*table = arena_strndup(a, q->q.owned_by, (size_t)(dot - q->q.owned_by));
	memset(&ignore, 0, sizeof ignore);
	if (txn_table_load(s, q->ns, *table, a, &t, &ignore) != FLOE_OK)
		return 0;
	sc = metadata_current_schema(t->md);
	for (i = 0; i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].name, dot + 1))
			return i + 1;
	return 0;
}

/* does the current role hold any of `any` on the sequence (acl.c)? */
static bool
may_use(Session *s, const SeqRow *v, unsigned any)
{
	floe_error e;

	floe_error_clear(&e);
	return acl_check_sequence(s, v->ns, v->name, any, &e) == FLOE_OK;
}

int
seq_catalog_rows(Session *s, ConstRel *r, bool pg, const char *rel, Arena *a, floe_error *err)
{
	SeqRow *v;
	int n, i, k;
	bool want = pg ? (!strcmp(rel, "pg_class") || !strcmp(rel, "pg_sequence") ||
			  !strcmp(rel, "pg_sequences") || !strcmp(rel, "pg_attribute") ||
			  !strcmp(rel, "pg_depend"))
		       : !strcmp(rel, "sequences") || !strcmp(rel, "usage_privileges");

	if (pg && !strcmp(rel, "pg_prepared_statements"))
		return prepare_catalog_rows(s, r, a);   /* prepare.c */
	if (pg && !strcmp(rel, "pg_cursors"))
		return cursor_catalog_rows(s, r, a);    /* cursor.c */
	if (!want)
		return FLOE_OK;
	TRY(all_seqs(s, NULL, a, &v, &n, err));
	for (i = 0; i < n; i++) {
		const CatalogSeq *q = &v[i].q;
		int64_t oid = pgcatalog_table_oid(v[i].ns, v[i].name);
		Value *row;

		if (!strcmp(rel, "usage_privileges")) {
			/* a sequence's USAGE: its owner's (grantable) and each
			 * grant of it the role may see (acl.c, as table_privileges) */
			AclGrantRow *g;
			int ng;
			TRY(acl_table_grants(s, a, v[i].ns, v[i].name, &g, &ng, err));
			for (k = 0; k < ng; k++) {
				if (!g[k].owner && !(g[k].privs & ROLE_PRIV_USAGE))
					continue;
				row = constrel_row(r);
				put_s(r, row, "grantor", g[k].grantor);
				put_s(r, row, "grantee", g[k].grantee);
				put_s(r, row, "object_catalog", pgcatalog_database(s));
				put_s(r, row, "object_schema", v[i].ns);
				put_s(r, row, "object_name", v[i].name);
				put_s(r, row, "object_type", "SEQUENCE");
				put_s(r, row, "privilege_type", "USAGE");
				put_s(r, row, "is_grantable", g[k].owner ? "YES" : "NO");
			}
		} else if (!strcmp(rel, "pg_attribute")) {
			static const char *const cols[] = { "last_value", "log_cnt", "is_called" };
			for (k = 0; k < 3; k++) {
				row = constrel_row(r);
				put_i(r, row, "attrelid", oid);
				put_s(r, row, "attname", cols[k]);
				put_i(r, row, "atttypid", k == 2 ? 16 : 20);
				put_i(r, row, "attstattarget", -1);
				put_i(r, row, "attlen", k == 2 ? 1 : 8);
				put_i(r, row, "attnum", k + 1);
				put_i(r, row, "attndims", 0);
				put_i(r, row, "attcacheoff", -1);
				put_i(r, row, "atttypmod", -1);
				put_i(r, row, "attbyval", 1);
				put_s(r, row, "attalign", k == 2 ? "c" : "d");
				put_s(r, row, "attstorage", "p");
				put_s(r, row, "attcompression", "");
				put_i(r, row, "attnotnull", 1);
				put_i(r, row, "atthasdef", 0);
				put_i(r, row, "atthasmissing", 0);
				put_s(r, row, "attidentity", "");
				put_s(r, row, "attgenerated", "");
				put_i(r, row, "attisdropped", 0);
				put_i(r, row, "attislocal", 1);
				put_i(r, row, "attinhcount", 0);
				put_i(r, row, "attcollation", 0);
			}
		} else if (!strcmp(rel, "pg_depend")) {
			const char *table = NULL;
			int64_t classid;
			int att;
			if (!q->owned_by || !(att = owner_attnum(s, &v[i], a, &table)))
				continue;
			/* classid: 'pg_class'::regclass as floe numbers it */
			TRY(pgcatalog_regclass(s, a, "pg_catalog.pg_class", &classid, err));
			row = constrel_row(r);
			put_i(r, row, "classid", classid);
			put_i(r, row, "objid", oid);
			put_i(r, row, "objsubid", 0);
			put_i(r, row, "refclassid", classid);
			put_i(r, row, "refobjid", pgcatalog_table_oid(v[i].ns, table));
			put_i(r, row, "refobjsubid", att);
			put_s(r, row, "deptype", "a");
		} else if (!strcmp(rel, "pg_class")) {
			row = constrel_row(r);
			put_i(r, row, "oid", oid);
			put_s(r, row, "relname", v[i].name);
			put_i(r, row, "relnamespace", pgcatalog_ns_oid(v[i].ns));
			put_i(r, row, "reltype", 0);
			put_i(r, row, "reloftype", 0);
			put_i(r, row, "relowner", 10);
			put_i(r, row, "relam", 0);
			put_i(r, row, "relfilenode", oid);
			put_i(r, row, "reltablespace", 0);
			put_i(r, row, "relpages", 1);
			put_i(r, row, "reltuples", 1);
			put_i(r, row, "relallvisible", 0);
			put_i(r, row, "reltoastrelid", 0);
			put_i(r, row, "relhasindex", 0);
			put_i(r, row, "relisshared", 0);
			put_s(r, row, "relpersistence", temp_is_temp_ns(v[i].ns) ? "t" : "p");
			put_s(r, row, "relkind", "S");
			{
				floe_error e;
				const char *acl;
				floe_error_clear(&e);
				if ((acl = acl_relacl(s, a, v[i].ns, v[i].name, true, &e)))
					put_s(r, row, "relacl", acl);
			}
			put_i(r, row, "relnatts", 3);
			put_i(r, row, "relchecks", 0);
			put_i(r, row, "relhasrules", 0);
			put_i(r, row, "relhastriggers", 0);
			put_i(r, row, "relhassubclass", 0);
			put_i(r, row, "relrowsecurity", 0);
			put_i(r, row, "relforcerowsecurity", 0);
			put_i(r, row, "relispopulated", 1);
			put_s(r, row, "relreplident", "n");
			put_i(r, row, "relispartition", 0);
			put_i(r, row, "relrewrite", 0);
			put_s(r, row, "relfrozenxid", "0");
			put_s(r, row, "relminmxid", "0");
		} else if (!strcmp(rel, "pg_sequence")) {
			row = constrel_row(r);
			put_i(r, row, "seqrelid", oid);
			put_i(r, row, "seqtypid", type_oid(q->data_type));
			put_i(r, row, "seqstart", q->start);
			put_i(r, row, "seqincrement", q->increment);
			put_i(r, row, "seqmax", q->max);
			put_i(r, row, "seqmin", q->min);
			put_i(r, row, "seqcache", q->cache);
			put_i(r, row, "seqcycle", q->cycle);
		} else if (!strcmp(rel, "pg_sequences")) {
			row = constrel_row(r);
			put_s(r, row, "schemaname", v[i].ns);
			put_s(r, row, "sequencename", v[i].name);
			put_s(r, row, "sequenceowner", pgcatalog_user(s));
			put_s(r, row, "data_type", q->data_type);
			put_i(r, row, "start_value", q->start);
			put_i(r, row, "min_value", q->min);
			put_i(r, row, "max_value", q->max);
			put_i(r, row, "increment_by", q->increment);
			put_i(r, row, "cycle", q->cycle);
			put_i(r, row, "cache_size", q->cache);
			/* PostgreSQL: NULL without SELECT or USAGE on it */
			if (q->is_called && may_use(s, &v[i], ROLE_PRIV_SELECT | ROLE_PRIV_USAGE))
				put_i(r, row, "last_value", q->last_value);
		} else {
			/* PostgreSQL shows the sequences the role holds a privilege on */
			if (!may_use(s, &v[i], ROLE_PRIV_SELECT | ROLE_PRIV_UPDATE | ROLE_PRIV_USAGE))
				continue;
			row = constrel_row(r);
			put_s(r, row, "sequence_catalog", pgcatalog_database(s));
			put_s(r, row, "sequence_schema", v[i].ns);
			put_s(r, row, "sequence_name", v[i].name);
			put_s(r, row, "data_type", q->data_type);
			put_i(r, row, "numeric_precision", type_bits(q->data_type));
			put_i(r, row, "numeric_precision_radix", 2);
			put_i(r, row, "numeric_scale", 0);
			put_s(r, row, "start_value", num(a, q->start));
			put_s(r, row, "minimum_value", num(a, q->min));
			put_s(r, row, "maximum_value", num(a, q->max));
			put_s(r, row, "increment", num(a, q->increment));
			put_s(r, row, "cycle_option", q->cycle ? "YES" : "NO");
		}
	}
	return FLOE_OK;
}

int
seq_relation(Session *s, ExecCtx *ctx, const char *ns, const char *name, Arena *a, bool *found,
	     int *ncols, char ***names, SqlType **types, Operator **op, floe_error *err)
{
	CatalogSeq q;
	ConstRel r;
	Value *row;

	TRY(seq_lookup(s, ns, name, a, &q, found, err));
	if (!*found)
		return FLOE_OK;
	constrel_init(&r, a, "last_value:l log_cnt:l is_called:b");
	row = constrel_row(&r);
	put_i(&r, row, "last_value", q.last_value);
	put_i(&r, row, "log_cnt", 0);
	put_i(&r, row, "is_called", q.is_called);
	*ncols = r.ncols;
	*names = r.names;
	*types = r.types;
	*op = constrel_op(ctx, &r, "Sequence");
	return FLOE_OK;
}
