/*
 * indexes.c — CREATE INDEX / DROP INDEX as records on the table
 * (indexes.h).  Spec: PostgreSQL 15 CREATE INDEX, DROP INDEX.
 *
 * An index is the table property "floe.index.<name>" (committed as a
 * metadata change, like ALTER TABLE SET): "<field ids>|<tail>", the key
 * columns' Iceberg field ids (0 for an expression) and the definition
 * after the table name as libpg_query deparses it, "USING btree (a, b)".
 * Names are unique per schema among indexes (42P07); an index name equal
 * to a table's is not checked.  DROP INDEX looks through the schema's
 * tables.  CONCURRENTLY is accepted (there is nothing to build); UNIQUE is
 * 0A000 until uniqueness beyond the PRIMARY KEY is enforced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sql/acl.h"
#include "sql/indexes.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "table/table.h"

#define PREFIX "floe.index."

static const char *
index_property(const TableMetadata *md, const char *name, Arena *a)
{
	return metadata_property(md, arena_sprintf(a, PREFIX "%s", name));
}

int
indexes_of(const TableMetadata *md, Arena *a, IndexInfo **out)
{
	int i, n = 0;
	*out = ARENA_ARRAY(a, IndexInfo, md->nproperties + 1);
	for (i = 0; i < md->nproperties; i++) {
		const char *k = md->properties[i].key, *v = md->properties[i].value, *bar, *p;
		IndexInfo *x;
		int c = 1;
		if (strncmp(k, PREFIX, sizeof PREFIX - 1) != 0 || !(bar = strchr(v, '|')))
			continue;
		x = &(*out)[n++];
		x->name = k + sizeof PREFIX - 1;
		x->tail = bar + 1;
		for (p = v; p < bar; p++)
			c += *p == ' ';
		x->field_ids = ARENA_ARRAY(a, int32_t, c + 1);
		x->ncols = 0;
		for (p = v; p < bar && x->ncols < c;) {
			char *end;
			long id = strtol(p, &end, 10);
			if (end == p)
				break;
			x->field_ids[x->ncols++] = (int32_t)id;
			p = end;
			while (*p == ' ')
				p++;
		}
	}
	return n;
}

/* libpg_query's text of st, from " USING " on */
static char *
def_tail(Arena *a, PgQuery__IndexStmt *st, floe_error *err)
{
	PgQuery__Node n = PG_QUERY__NODE__INIT;
	PgQuery__IndexStmt copy = *st;
	char *q, *u;

	copy.concurrent = false;
	copy.if_not_exists = false;
	copy.unique = false;
	n.node_case = PG_QUERY__NODE__NODE_INDEX_STMT;
	n.index_stmt = &copy;
	if ((q = sql_deparse(&n, a, NULL)) != NULL && (u = strstr(q, " USING ")) != NULL)
		return u + 1;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "cannot record this index definition");
	return NULL;
}

/* does an index of this name exist on a table of ns?  (*table: which) */
static int
find_index(Session *s, const char *ns, const char *name, Arena *a, Table **table, floe_error *err)
{
	char **names;
	int n, i;
	*table = NULL;
	TRY(catalog_list_tables(s->engine->catalog, ns, a, &names, &n, err));
	for (i = 0; i < n; i++) {
		Table *t;
		TRY(txn_table_load(s, ns, names[i], a, &t, err));
		if (index_property(t->md, name, a)) {
			*table = t;
			return FLOE_OK;
		}
	}
	return FLOE_OK;
}

static bool
known_method(const char *m)
{
	static const char *const am[] = { "btree", "hash", "gist", "gin", "spgist", "brin" };
	size_t i;
	for (i = 0; i < sizeof am / sizeof am[0]; i++)
		if (!strcmp(am[i], m))
			return true;
	return false;
}

int
indexes_create(Session *s, ExecCtx *ctx, const char *sql, PgQuery__IndexStmt *st, ResultSink *sink)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	const char *ns, *name, *method = st->access_method && st->access_method[0] ? st->access_method : "btree";
	const IcebergSchema *sc;
	Table *t, *other, *out;
	TableMetadata *md;
	char *ids, *tail, *p;
	size_t i;
	int k;

	(void)sql;
	if (!known_method(method))
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "access method \"%s\" does not exist", method);
	if (st->table_space && st->table_space[0])
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "TABLESPACE is not supported");
	ns = ddl_rv_ns(s, st->relation);
	if (txn_table_load(s, ns, st->relation->relname, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist",
				    st->relation->relname);
		return FLOE_ERR;
	}
	if (st->unique) {   /* after the table's lookup: PostgreSQL's 42P01 comes first */
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "CREATE UNIQUE INDEX is not supported yet");
		return floe_error_hint(err, "A PRIMARY KEY is enforced (23505); declare the key columns as the "
				       "table's PRIMARY KEY instead.");
	}
	sc = metadata_current_schema(t->md);
	/* the key columns: names must exist; expressions are recorded */
	ids = arena_alloc(a, 12 * (st->n_index_params + 1) + 1);
	p = ids;
	*p = 0;
	for (i = 0; i < st->n_index_params; i++) {
		PgQuery__IndexElem *el = st->index_params[i]->index_elem;
		int32_t id = 0;
		if (el->name && el->name[0]) {
			for (k = 0; k < sc->nfields; k++)
				if (!strcmp(sc->fields[k].name, el->name))
					id = sc->fields[k].id;
			if (!id)
				return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist",
						   el->name);
		}
		p += sprintf(p, "%s%d", i ? " " : "", (int)id);
	}
	name = st->idxname && st->idxname[0] ? st->idxname : NULL;
	if (!name) {
		/* PostgreSQL's choice: <table>_<col>[_<col>...]_idx, then 1, 2, ... */
		char *base = arena_strdup(a, st->relation->relname);
		for (i = 0; i < st->n_index_params; i++) {
			PgQuery__IndexElem *el = st->index_params[i]->index_elem;
			base = arena_sprintf(a, "%s_%s", base, el->name && el->name[0] ? el->name : "expr");
		}
		name = arena_sprintf(a, "%s_idx", base);
		for (k = 1;; k++) {
			TRY(find_index(s, ns, name, a, &other, err));
			if (!other)
				break;
			name = arena_sprintf(a, "%s_idx%d", base, k);
		}
	} else {
		TRY(find_index(s, ns, name, a, &other, err));
		if (other) {
			if (st->if_not_exists) {
				engine_notice(sink, "relation \"%s\" already exists, skipping", name);
				return engine_complete(sink, "CREATE INDEX");
			}
			return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
		}
	}
	{
		PgQuery__IndexStmt named = *st;
		named.idxname = (char *)name;
		named.access_method = (char *)method;
		if (!(tail = def_tail(a, &named, err)))
			return FLOE_ERR;
	}
	md = metadata_copy(t->md, a);
	metadata_set_property(md, arena_sprintf(a, PREFIX "%s", name), arena_sprintf(a, "%s|%s", ids, tail),
			      a);
	TRY(txn_commit_metadata(s, t, md, a, &out, err));
	return engine_complete(sink, "CREATE INDEX");
}

int
indexes_drop(Session *s, PgQuery__DropStmt *ds, Arena *a, ResultSink *sink, floe_error *err)
{
	size_t i;
	for (i = 0; i < ds->n_objects; i++) {
		PgQuery__List *l = ds->objects[i]->list;
		const char *ns, *name;
		Table *t, *out;
		TableMetadata *md;
		bool temp;
		if (ds->objects[i]->node_case != PG_QUERY__NODE__NODE_LIST || l->n_items > 2)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "cross-database references are not implemented");
		ns = l->n_items == 2 ? l->items[0]->string->sval : session_schema(s);
		name = l->items[l->n_items - 1]->string->sval;
		if (l->n_items == 2 && !acl_schema_usage(s, ns)) {
			/* a schema the role may not use: 42501 before the lookup */
			floe_error e;
			floe_error_clear(&e);
			if (!(ddl_check_namespace(s, ns, &e) != FLOE_OK && floe_error_is(&e, ERRCODE_INVALID_SCHEMA_NAME)))
				return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s", ns);
		}
		t = NULL;
		if (l->n_items == 1 && s->temp)   /* pg_temp is searched first (temp.h) */
			TRY(find_index(s, temp_resolve(s, "pg_temp", name), name, a, &t, err));
		temp = t != NULL;
		if (!t)
			TRY(find_index(s, ns, name, a, &t, err));
		if (!t) {
			if (ds->missing_ok) {
				engine_notice(sink, "index \"%s\" does not exist, skipping", name);
				continue;
			}
			return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "index \"%s\" does not exist", name);
		}
		/* found: its owner is its table's, the superuser (a temporary
		 * table's: the session) */
		if (!temp && !acl_is_superuser(s))
			return floe_errorf(err, ERRCODE_INSUFFICIENT_PRIVILEGE, "must be owner of index %s", name);
		md = metadata_copy(t->md, a);
		metadata_set_property(md, arena_sprintf(a, PREFIX "%s", name), NULL, a);
		TRY(txn_commit_metadata(s, t, md, a, &out, err));
	}
	return engine_complete(sink, "DROP INDEX");
}
