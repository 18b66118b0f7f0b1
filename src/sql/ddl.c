/*
 * ddl.c — DDL on schemas and Iceberg tables: CREATE / DROP SCHEMA,
 * CREATE TABLE [WITH (props)] with NOT NULL / DEFAULT / PRIMARY KEY
 * (identifier-field-ids), DROP TABLE, ALTER TABLE SET / RESET of table
 * properties (checked when set: ddl_create_options / check_property).
 *
 * Spec: apache/iceberg format/spec.md ("Table Metadata", "Identifier
 * Field IDs", reserved table properties); PostgreSQL 15 docs "CREATE
 * TABLE", "ALTER TABLE", "DROP TABLE", "CREATE SCHEMA".
 *
 * Partitioning (Spark SQL's syntax; parse.c blanks the clauses and
 * sql_partition_clause gives their original text back):
 *   CREATE TABLE ... PARTITIONED BY (col, bucket(16, id), truncate(4, s),
 *     years(ts), months(ts), days(ts), hours(ts), identity(c), void(c))
 *     (Trino's bucket(id, 16) order too, and Trino's
 *     WITH (partitioning = ARRAY['bucket(id, 16)', 'day(ts)']), or one string) ->
 *     spec 0 of the new table (ddl_create_partitioning / ddl_set_partitioning)
 *   ALTER TABLE t ADD PARTITION FIELD term [AS name]
 *                 DROP PARTITION FIELD term|name
 *                 REPLACE PARTITION FIELD term|name WITH term [AS name]
 *     -> a new spec (spec "Partition Evolution": new field ids above
 *     last-partition-id, field ids of kept fields unchanged), made the
 *     default; an identical earlier spec is reused.  Files keep their spec.
 *     v1 tables: ADD only (dropping needs v1's void-field rewrite; 0A000).
 *   ALTER TABLE t SET PARTITION SPEC (term, ...)   (Gnok's form) -> the
 *     whole new spec; earlier (source, transform) pairs keep their ids
 *
 * Sort orders: CREATE TABLE ... WRITE [LOCALLY] ORDERED BY term [ASC |
 * DESC] [NULLS FIRST | LAST], ... (Spark's ALTER form at CREATE; parse.c
 * blanks it, sql_create_write_clause gives it back) or WITH (sort_order =
 * 'c DESC, d') (also sort-order, sorted_by) -> the new table's default sort
 * order (alter.c's parser; ddl_create_sort_order / ddl_set_partitioning).
 *
 * Every CREATE TABLE is one catalog create of a first metadata file
 * (table_create, at the format version asked for) (plus a metadata
 * commit for partitioning and a sort order); ALTER TABLE is one
 * metadata-only commit.
 *
 * INTERFACE ROUTINES (bind.h)
 *   ddl_rv_ns, ddl_create_ns, ddl_check_namespace, ddl_create_schema, ddl_create_table,
 *   ddl_drop, ddl_alter_table, ddl_create_options,
 *   ddl_partition_spec, ddl_create_partitioning, ddl_create_sort_order,
 *   ddl_set_partitioning (declared here:
 *   insert.c's CREATE TABLE AS uses them)
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "func/func.h"
#include "sql/views.h"
#include "sql/acl.h"
#include "sql/automaint.h"
#include "sql/bind.h"
#include "sql/check.h"
#include "sql/refs.h"
#include "sql/sequence.h"
#include "sql/serial.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "table/data_writer.h"
#include "table/maintenance.h"
#include "table/metadata.h"
#include "table/partition.h"
#include "table/table.h"
#include "types/cast.h"
#include "types/datetime.h"
#include "types/text.h"

/* ---- DDL --------------------------------------------------------------- */

const char *
ddl_rv_ns(Session *s, PgQuery__RangeVar *rv)
{
	const char *tns = temp_resolve(s, rv->schemaname, rv->relname);   /* pg_temp first */
	if (tns)
		return tns;
	return rv->schemaname && rv->schemaname[0] ? rv->schemaname : search_path_lookup(s, rv->relname);
}

const char *
ddl_create_ns(Session *s, PgQuery__RangeVar *rv, floe_error *err)
{
	return rv->schemaname && rv->schemaname[0] ? rv->schemaname : search_path_creation(s, err);
}

int
ddl_create_schema(Session *s, PgQuery__CreateSchemaStmt *cs, ResultSink *sink, floe_error *err)
{
	bool exists;
	Catalog *cat = s->engine->catalog;

	if (cs->n_schema_elts)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "CREATE SCHEMA with elements is not supported yet");
	TRY(catalog_namespace_exists(cat, cs->schemaname, &exists, err));
	if (exists) {
		if (cs->if_not_exists) {
			engine_notice(sink, "schema \"%s\" already exists, skipping", cs->schemaname);
			return engine_complete(sink, "CREATE SCHEMA");
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists",
				   cs->schemaname);
	}
	TRY(acl_schema_authorization(s, cs, false, err));   /* its role exists */
	TRY(catalog_create_namespace(cat, cs->schemaname, err));
	TRY(acl_schema_authorization(s, cs, true, err));    /* ... and may use it */
	return engine_complete(sink, "CREATE SCHEMA");
}

int
ddl_check_namespace(Session *s, const char *ns, floe_error *err)
{
	bool exists;
	TRY(catalog_namespace_exists(s->engine->catalog, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	return FLOE_OK;
}

/* A constant DEFAULT kept as SQL text: 'text'::type; *val (if not NULL)
 * gets its value. */
char *
ddl_default_text(BindCtx *b, Node *raw, SqlType type, const char *col, Value *val)
{
	Expr *e = bind_expr(b, raw);
	Value v;
	const char *txt;
	size_t len, i;
	char tb[64];
	char *q, *p;

	if (!e)
		return NULL;
	if (!(e = bind_coerce(b, e, type, 1 /* assignment */, col)))
		return NULL;
	if (expr_has_colref(e)) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "cannot use column reference in DEFAULT expression");
		return NULL;
	}
	if (!val && e->kind == EXPR_CONST && serial_has_call(raw))
		return serial_default_text(b, raw, col);   /* now(): per row, not folded */
	if (e->kind != EXPR_CONST && val) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "only constant DEFAULT values are supported in ALTER TABLE yet (column \"%s\")",
			    col);
		return NULL;
	}
	if (e->kind != EXPR_CONST)   /* now(), nextval('s'): kept as written (serial.c) */
		return serial_default_text(b, raw, col);
	v = e->value;
	if (val)
		*val = v;
	if (v.is_null)
		return arena_strdup(b->arena, "NULL");
	txt = value_to_text_canonical(&v, b->arena, &len);   /* not the session's DateStyle / efd */
	q = arena_alloc(b->arena, len * 2 + 3);
	p = q;
	*p++ = '\'';
	for (i = 0; i < len; i++) {
		if (txt[i] == '\'')
			*p++ = '\'';
		*p++ = txt[i];
	}
	*p++ = '\'';
	*p = 0;
	type_name(type, tb, sizeof tb);
	return arena_sprintf(b->arena, "%s::%s", q, tb);
}

/* PRIMARY KEY: column i joins the key (NOT NULL as PostgreSQL makes it). */
static int
add_key_column(IcebergSchema *schema, int i, const char *table, floe_error *err)
{
	IcebergField *f = &schema->fields[i];
	int k;

	for (k = 0; k < schema->nidentifier; k++)
		if (schema->identifier_field_ids[k] == i + 1)
			return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
					   "column \"%s\" appears twice in primary key constraint",
					   f->name);
	if (f->type.id == TYPE_FLOAT32 || f->type.id == TYPE_FLOAT64)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "column \"%s\" of type %s cannot be part of the primary key of \"%s\" "
				   "(Iceberg identifier fields cannot be floating point)",
				   f->name, f->type.id == TYPE_FLOAT32 ? "real" : "double precision",
				   table);
	if (f->type.id == TYPE_ARRAY)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "array column \"%s\" cannot be part of the primary key of \"%s\" "
				   "(Iceberg identifier fields are primitive)", f->name, table);
	f->required = true;
	schema->identifier_field_ids[schema->nidentifier++] = i + 1;   /* table_create's ids */
	return FLOE_OK;
}

/*
 * CREATE TABLE [IF NOT EXISTS] t (col type [NOT NULL] [DEFAULT c]
 * [PRIMARY KEY], ... [, PRIMARY KEY (cols)]) [WITH (props)]: the key's
 * columns become the schema's identifier-field-ids (Iceberg's row
 * identity) and NOT NULL; nothing else enforces it here (merge.c's INSERT
 * does).  WITH: table properties (create_options).
 */
/* COLLATE of a column: floe compares text bytewise (locale C), so only the
 * collations that mean that are accepted; any other is 0A000, never
 * ignored. */
int
ddl_check_column_collation(const PgQuery__ColumnDef *cd, floe_error *err)
{
	const PgQuery__CollateClause *cc = cd->coll_clause;
	const char *cn;

	if (!cc || !cc->n_collname)
		return FLOE_OK;
	cn = cc->collname[cc->n_collname - 1]->node_case == PG_QUERY__NODE__NODE_STRING ?
		cc->collname[cc->n_collname - 1]->string->sval : "";
	if (!strcmp(cn, "default") || !strcmp(cn, "C") || !strcmp(cn, "POSIX") ||
	    !strcmp(cn, "ucs_basic"))
		return FLOE_OK;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
		    "collation \"%s\" of column \"%s\" is not supported", cn, cd->colname);
	return floe_error_hint(err, "floe compares text bytewise: COLLATE \"C\" (or none).");
}

int
ddl_check_access_method(const char *am, floe_error *err)
{
	if (!am || !am[0] || !strcmp(am, "iceberg"))
		return FLOE_OK;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
		    "table access method \"%s\" is not supported", am);
	return floe_error_hint(err, "floe tables are Apache Iceberg tables: omit USING or write USING iceberg.");
}

/* CREATE [TEMP | UNLOGGED] TABLE [AS]: permanent and temporary tables
 * (temp.h) exist, no UNLOGGED ones (an Iceberg table is durable; making an
 * UNLOGGED one durable would be doing something else than asked, however
 * safe).  ON COMMIT only for a temporary table (42P16). */
int
ddl_check_persistence(const PgQuery__RangeVar *rv, int oncommit, floe_error *err)
{
	const char *p = rv ? rv->relpersistence : NULL;
	bool temp = (p && p[0] == 't') ||
		    (rv && rv->schemaname && temp_is_temp_ns(rv->schemaname));
	if (oncommit > PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_NOOP && !temp)
		return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
				   "ON COMMIT can only be used on temporary tables");
	if (!p || p[0] == 'p' || p[0] == 't' || p[0] == 0)
		return FLOE_OK;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "UNLOGGED tables are not supported");
	return floe_error_hint(err, "floe tables are Iceberg tables, always durable: omit UNLOGGED.");
}

static int option_text(PgQuery__DefElem *de, Arena *a, const char **out, floe_error *err);

/*
 * WITH (identifier_field_ids = 'id, k') (also 'identifier-field-ids'):
 * the schema's identifier-field-ids, as PRIMARY KEY (id, k) makes them
 * (NOT NULL, no floating point); each item a column name or a field id
 * (table_create's: the column's position).  Taken out of the option list
 * (not a property: the ids live in the schema).  With a PRIMARY KEY too:
 * 42P16, as two primary keys.
 */
static int
identifier_option(IcebergSchema *schema, Node ***opts, size_t *nopts, bool has_pk,
		  const char *table, Arena *a, floe_error *err)
{
	Node **keep = ARENA_ARRAY(a, Node *, *nopts + 1);
	size_t i, nkeep = 0;
	bool seen = false;

	for (i = 0; i < *nopts; i++) {
		PgQuery__DefElem *de = (*opts)[i]->def_elem;
		const char *v, *p;
		if ((de->defnamespace && de->defnamespace[0]) ||
		    (strcmp(de->defname, "identifier_field_ids") &&
		     strcmp(de->defname, "identifier-field-ids"))) {
			keep[nkeep++] = (*opts)[i];
			continue;
		}
		if (has_pk || seen)
			return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
					   "multiple primary keys for table \"%s\" are not allowed", table);
		seen = true;
		TRY(option_text(de, a, &v, err));
		for (p = v; *p;) {
			const char *q;
			char *item;
			int c, k;
			while (*p == ' ' || *p == '\t' || *p == ',')
				p++;
			if (!*p)
				break;
			for (q = p; *q && *q != ','; q++)
				;
			item = arena_strndup(a, p, (size_t)(q - p));
			for (k = (int)strlen(item); k > 0 && (item[k - 1] == ' ' || item[k - 1] == '\t'); k--)
				item[k - 1] = 0;
			p = q;
			for (c = 0; c < schema->nfields; c++)
				if (!strcmp(schema->fields[c].name, item))
					break;
			if (c == schema->nfields && item[strspn(item, "0123456789")] == 0 &&
			    atoi(item) >= 1 && atoi(item) <= schema->nfields)
				c = atoi(item) - 1;
			if (c == schema->nfields)
				return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
						   "column \"%s\" named in identifier_field_ids does not exist",
						   item);
			if (schema->fields[c].nested || schema->fields[c].type.id == TYPE_ARRAY)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "column \"%s\" of a nested type cannot be an identifier field",
						   schema->fields[c].name);
			TRY(add_key_column(schema, c, table, err));
		}
		if (schema->nidentifier == 0)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "table property \"%s\" names no column", de->defname);
	}
	*opts = keep;
	*nopts = nkeep;
	return FLOE_OK;
}

int
ddl_create_table(Session *s, const char *sql, PgQuery__CreateStmt *cs, Arena *a, ResultSink *sink,
		  floe_error *err)
{
	const char *ns = NULL, *name = cs->relation->relname, *tloc;
	bool is_temp;
	int on_commit;
	IcebergSchema schema;
	BindCtx b;
	Table *t;
	size_t i, j;
	int nf = 0, nprops;
	Engine *e = s->engine;
	const char **keys, **values;
	bool has_pk = false, is_serial;
	PartitionSpec *pspec = NULL;
	const char *sort = NULL;
	SerialList serials = { 0 };
	CheckList checks = { 0 };

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	b.sql = sql;
	b.where = "DEFAULT expressions";
	if (cs->n_inh_relations || cs->partbound || cs->partspec || cs->of_typename)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "INHERITS / PARTITION BY / OF type are not supported yet");
	TRY(ddl_check_persistence(cs->relation, cs->oncommit, err));
	TRY(ddl_check_access_method(cs->access_method, err));
	TRY(temp_create_target(s, cs->relation, &ns, &is_temp, &tloc, a, err));   /* temp.h */
	TRY(temp_on_commit(cs->oncommit, &on_commit, err));
	{
		CatalogSeq sq;   /* a sequence of that name (sequence.c) */
		bool is_seq;
		TRY(seq_lookup(s, ns, name, a, &sq, &is_seq, err));
		if (is_seq && cs->if_not_exists) {
			engine_notice(sink, "relation \"%s\" already exists, skipping", name);
			return engine_complete(sink, "CREATE TABLE");
		}
		if (is_seq)
			return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists",
					   name);
	}
	if (cs->tablespacename && cs->tablespacename[0])
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "TABLESPACE \"%s\" is not supported: Iceberg tables live in the warehouse",
				   cs->tablespacename);
	TRY(ddl_check_namespace(s, ns, err));
	memset(&schema, 0, sizeof schema);
	schema.fields = ARENA_ARRAY(a, IcebergField, cs->n_table_elts + 1);
	schema.identifier_field_ids = ARENA_ARRAY(a, int32_t, cs->n_table_elts + 1);
	for (i = 0; i < cs->n_table_elts; i++) {
		Node *el = cs->table_elts[i];
		PgQuery__ColumnDef *cd;
		IcebergField *f;

		if (el->node_case == PG_QUERY__NODE__NODE_CONSTRAINT)
			continue;             /* table constraints: below */
		if (el->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "LIKE in CREATE TABLE is not supported yet");
		cd = el->column_def;
		for (j = 0; j < (size_t)nf; j++)
			if (!strcmp(schema.fields[j].name, cd->colname))
				return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
						   "column \"%s\" specified more than once", cd->colname);
		f = &schema.fields[nf++];
		f->name = arena_strdup(a, cd->colname);
		TRY(serial_column(&b, ns, name, cd, f, &serials, &is_serial));   /* serial.c */
		if (!is_serial)
			TRY(bind_type_name(&b, cd->type_name, &f->type));
		if (f->type.id == TYPE_DECIMAL && f->type.precision == 0)
			f->type.scale = NUMERIC_DEFAULT_SCALE;   /* stored as decimal(38,10) */
		f->required = cd->is_not_null || is_serial;
		TRY(ddl_check_column_collation(cd, err));
		if (cd->compression && cd->compression[0]) {
			floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "COMPRESSION of column \"%s\" is not supported", cd->colname);
			return floe_error_hint(err, "The table property write.parquet.compression-codec sets the codec of every column.");
		}
		for (j = 0; j < cd->n_constraints; j++) {
			PgQuery__Constraint *c = cd->constraints[j]->constraint;
			switch (c->contype) {
			case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
				f->required = true;
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
				if (f->identity)
					return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
							   "both default and identity specified for column \"%s\" of table \"%s\"",
							   f->name, name);
				if (f->default_sql)
					return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
							   "multiple default values specified for column \"%s\" of table \"%s\"",
							   f->name, name);
				if (!(f->default_sql = ddl_default_text(&b, c->raw_expr, f->type, f->name, NULL)))
					return FLOE_ERR;
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY:
				TRY(serial_identity(&b, ns, name, c, f, &serials));
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK:
				break;        /* below, once every column is known (check.c) */
			case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
				if (has_pk)
					goto multiple_pk;
				schema.nfields = nf;
				TRY(add_key_column(&schema, nf - 1, name, err));
				has_pk = true;
				break;
			default:
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "column constraints other than NOT NULL, DEFAULT, CHECK and PRIMARY KEY are not supported yet");
			}
		}
	}
	schema.nfields = nf;
	if (nf > BIND_MAX_TABLE_COLUMNS)
		return floe_errorf(err, ERRCODE_TOO_MANY_COLUMNS, "tables can have at most %d columns",
				   BIND_MAX_TABLE_COLUMNS);
	for (i = 0; i < cs->n_table_elts; i++) {
		PgQuery__Constraint *c;
		if (cs->table_elts[i]->node_case != PG_QUERY__NODE__NODE_CONSTRAINT)
			continue;
		c = cs->table_elts[i]->constraint;
		if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK)
			continue;
		if (c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "table constraints other than PRIMARY KEY and CHECK (UNIQUE, FOREIGN KEY, EXCLUDE) are not supported yet");
		if (has_pk)
			goto multiple_pk;
		has_pk = true;
		for (j = 0; j < c->n_keys; j++) {
			const char *col = c->keys[j]->string->sval;
			int k, found = -1;
			for (k = 0; k < nf; k++)
				if (!strcmp(schema.fields[k].name, col))
					found = k;
			if (found < 0) {
				floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
					    "column \"%s\" named in key does not exist", col);
				floe_error_position(err, bind_location(&b, c->location));
				return FLOE_ERR;
			}
			TRY(add_key_column(&schema, found, name, err));
		}
	}
	TRY(identifier_option(&schema, &cs->options, &cs->n_options, has_pk, name, a, err));
	/* CHECK constraints, in the order they appear (PostgreSQL's naming order) */
	for (i = 0; i < cs->n_table_elts; i++) {
		Node *el = cs->table_elts[i];
		if (el->node_case == PG_QUERY__NODE__NODE_CONSTRAINT &&
		    el->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK)
			TRY(check_create(s, sql, &schema, ns, name, schema.nidentifier > 0, el->constraint,
					 &checks, a, err));
		for (j = 0; el->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF && j < el->column_def->n_constraints; j++) {
			PgQuery__Constraint *c = el->column_def->constraints[j]->constraint;
			if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK)
				TRY(check_create(s, sql, &schema, ns, name, schema.nidentifier > 0, c, &checks, a,
						 err));
		}
	}
	TRY(ddl_create_options(s, sink, &schema, cs->options, cs->n_options, a, &keys, &values,
			   &nprops, err));
	check_add_props(&checks, a, &keys, &values, &nprops);
	TRY(ddl_create_partitioning(&schema, sql, cs->relation->location, cs->options, cs->n_options, a,
				&pspec, err));
	TRY(ddl_create_sort_order(sql, cs->relation->location, cs->options, cs->n_options, a, &sort,
				  err));
	if (table_load(e->catalog, e->io, ns, name, a, &t, err) == FLOE_OK) {
		if (cs->if_not_exists) {
			engine_notice(sink, "relation \"%s\" already exists, skipping", name);
			return engine_complete(sink, "CREATE TABLE");
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	}
	floe_error_clear(err);
	TRY(serial_create_all(s, ns, name, &serials, err));   /* serial / identity sequences */
	if (table_create(e->catalog, e->io, tloc, ns, name, &schema, keys, values, nprops, a, &t,
			 err) != FLOE_OK) {
		serial_drop_all(s, ns, &serials);
		return FLOE_ERR;
	}
	if (ddl_set_partitioning(s, &t, pspec, sort, a, err) != FLOE_OK) {
		floe_error keep = *err, ignore;
		table_drop(e->catalog, e->io, ns, name, true, &ignore);
		serial_drop_all(s, ns, &serials);
		*err = keep;
		return FLOE_ERR;
	}
	if (is_temp)
		TRY(temp_created(s, name, on_commit, err));
	return engine_complete(sink, "CREATE TABLE");
multiple_pk:
	return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
			   "multiple primary keys for table \"%s\" are not allowed", name);
}

int
ddl_drop(Session *s, PgQuery__DropStmt *ds, Arena *a, ResultSink *sink, floe_error *err)
{
	Engine *e = s->engine;
	size_t i;
	bool done;

	/* DROP VIEW; the views depending on dropped tables / schemas (views.c) */
	TRY(views_drop(s, ds, a, sink, err, &done));
	if (done)
		return FLOE_OK;
	if (ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) {
		const char **dns = ARENA_ARRAY(a, const char *, ds->n_objects + 1);
		const char **dnames = ARENA_ARRAY(a, const char *, ds->n_objects + 1);
		for (i = 0; i < ds->n_objects; i++) {   /* the tables it drops */
			PgQuery__List *l = ds->objects[i]->list;
			dnames[i] = l->items[l->n_items - 1]->string->sval;
			dns[i] = temp_resolve(s, l->n_items == 2 ? l->items[0]->string->sval : NULL, dnames[i]);
			if (!dns[i])
				dns[i] = l->n_items == 2 ? l->items[0]->string->sval : search_path_lookup(s, dnames[i]);
		}
		for (i = 0; i < ds->n_objects; i++) {
			PgQuery__List *l = ds->objects[i]->list;
			const char *name = l->items[l->n_items - 1]->string->sval;
			const char *ns = temp_resolve(s, l->n_items == 2 ? l->items[0]->string->sval : NULL, name);
			Table *t;
			if (!ns)
				ns = l->n_items == 2 ? l->items[0]->string->sval : search_path_lookup(s, name);
			if (l->n_items > 2)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "cross-database references are not implemented");
			if (table_load(e->catalog, e->io, ns, name, a, &t, err) != FLOE_OK) {
				if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
					return FLOE_ERR;
				if (ds->missing_ok) {
					floe_error_clear(err);
					engine_notice(sink, "table \"%s\" does not exist, skipping", name);
					continue;
				}
				return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "table \"%s\" does not exist", name);
			}
			/* other tables' DEFAULTs on its serial sequences (sequence.c) */
			TRY(seq_drop_table_deps(s, ns, name, dns, dnames, (int)ds->n_objects,
						ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE, sink, err));
			if (temp_is_temp_ns(ns) && session_txn_status(s) != 'I') {
				/* undone by ROLLBACK (temp.h) */
				TRY(temp_drop(s, name, err));
				txn_forget_table(s, ns, name);
				continue;
			}
			TRY(table_drop(e->catalog, e->io, ns, name, true, err));
			TRY(seq_drop_owned(s, ns, name, err));   /* its serial columns' sequences */
		}
		return engine_complete(sink, "DROP TABLE");
	}
	if (ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA) {
		for (i = 0; i < ds->n_objects; i++) {
			const char *ns = ds->objects[i]->string->sval;
			bool exists;
			char **names;
			int n, k;

			TRY(catalog_namespace_exists(e->catalog, ns, &exists, err));
			if (!exists) {
				if (ds->missing_ok) {
					engine_notice(sink, "schema \"%s\" does not exist, skipping", ns);
					continue;
				}
				return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
			}
			TRY(catalog_list_tables(e->catalog, ns, a, &names, &n, err));
			if (n > 0 && ds->behavior != PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE) {
				floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
					    "cannot drop schema %s because other objects depend on it", ns);
				floe_error_detail(err, "table %s.%s depends on schema %s", ns, names[0], ns);
				floe_error_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
				return FLOE_ERR;
			}
			/* its sequences: 2BP01 alone; CASCADE drops other schemas'
			 * DEFAULTs calling them (sequence.c) */
			TRY(seq_drop_schema_deps(s, ns, ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE,
						 sink, err));
			for (k = 0; k < n; k++)
				TRY(table_drop(e->catalog, e->io, ns, names[k], true, err));
			TRY(seq_drop_owned(s, ns, NULL, err));   /* every sequence of ns */
			TRY(catalog_drop_namespace(e->catalog, ns, err));
		}
		return engine_complete(sink, "DROP SCHEMA");
	}
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this DROP is not supported yet");
}


/* ---- partitioning ------------------------------------------------------ */

/* Split text[0..len) at top-level commas (outside parentheses and quotes). */
static int
split_terms(const char *text, int len, Arena *a, const char ***terms, int **lens)
{
	int n = 1, i, depth = 0, start = 0, k = 0;
	char q = 0;

	for (i = 0; i < len; i++)
		n += text[i] == ',';
	*terms = ARENA_ARRAY(a, const char *, n);
	*lens = ARENA_ARRAY(a, int, n);
	for (i = 0; i <= len; i++) {
		char c = i < len ? text[i] : ',';
		if (q) {
			if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || c == '\'')
			q = c;
		else if (c == '(')
			depth++;
		else if (c == ')')
			depth--;
		else if (c == ',' && depth == 0) {
			(*terms)[k] = text + start;
			(*lens)[k++] = i - start;
			start = i + 1;
		}
	}
	return k;
}

/* Offset of the first top-level word kw in text[0..len), or -1. */
static int
find_word(const char *text, int len, const char *kw)
{
	int i, depth = 0, kl = (int)strlen(kw);
	char q = 0;

	for (i = 0; i < len; i++) {
		char c = text[i];
		if (q) {
			if (c == q)
				q = 0;
			continue;
		}
		if (c == '"' || c == '\'')
			q = c;
		else if (c == '(')
			depth++;
		else if (c == ')')
			depth--;
		else if (depth == 0 && i + kl <= len && !strncasecmp(text + i, kw, (size_t)kl) &&
			 (i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')) &&
			 (i + kl == len || !(isalnum((unsigned char)text[i + kl]) || text[i + kl] == '_')))
			return i;
	}
	return -1;
}

/* Index of column `name` in schema, or -1. */
static int
schema_column(const IcebergSchema *schema, const char *name)
{
	int i;

	for (i = 0; i < schema->nfields; i++)
		if (!strcmp(schema->fields[i].name, name))
			return i;
	return -1;
}

/* One term ("bucket(16, id)", optionally "... AS name") as a field of a
 * spec over schema: source id (ids_by_index: i + 1, table_create's), the
 * spec's transform string, the given or default name. */
static int
term_field(const IcebergSchema *schema, bool ids_by_index, const char *text, int len, bool allow_as,
	   Arena *a, PartitionField *pf, PartitionTransform *tr, floe_error *err)
{
	int as = allow_as ? find_word(text, len, "as") : -1, c;
	char *col, *name = NULL;
	SqlType rt;

	if (as >= 0) {
		PartitionTransform dummy;
		char *n2;
		/* AS name: an identifier */
		if (partition_parse_term(text + as + 2, (size_t)(len - as - 2), a, &dummy, &n2, err) !=
		    FLOE_OK || dummy.kind != PT_IDENTITY)
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid partition field name after AS");
		name = n2;
		len = as;
	}
	TRY(partition_parse_term(text, (size_t)len, a, tr, &col, err));
	if ((c = schema_column(schema, col)) < 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" named in partition field does not exist", col);
	if (schema->fields[c].nested || schema->fields[c].type.id == TYPE_ARRAY)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "column \"%s\" of a nested type cannot be a partition source", col);
	TRY(partition_transform_type(tr, schema->fields[c].type, &rt, err));
	pf->source_id = ids_by_index ? c + 1 : schema->fields[c].id;
	pf->transform = partition_transform_string(tr, a);
	pf->name = name ? name : partition_default_name(tr, col, a);
	return FLOE_OK;
}

/* Names must be unique, and only an identity field may take the name of
 * a schema column (its own source's). */
static int
check_field_name(const IcebergSchema *schema, bool ids_by_index, const PartitionField *fields,
		 int n, const PartitionField *pf, floe_error *err)
{
	int i, c;

	for (i = 0; i < n; i++) {
		if (!strcmp(fields[i].name, pf->name))
			return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT,
					   "partition field \"%s\" already exists", pf->name);
		if (fields[i].source_id == pf->source_id && !strcmp(fields[i].transform, pf->transform))
			return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT,
					   "partition field \"%s\" duplicates partition field \"%s\" (same column and transform)",
					   pf->name, fields[i].name);
	}
	c = schema_column(schema, pf->name);
	if (c >= 0 && (strcmp(pf->transform, "identity") ||
		       pf->source_id != (ids_by_index ? c + 1 : schema->fields[c].id)))
		return floe_errorf(err, ERRCODE_DUPLICATE_OBJECT,
				   "partition field name \"%s\" conflicts with a column of the table",
				   pf->name);
	return FLOE_OK;
}

/* A spec (id 0, field ids 1000...) from a comma-separated term list. */
int
ddl_partition_spec(const IcebergSchema *schema, bool ids_by_index, const char *text, int len,
		   Arena *a, PartitionSpec **out, floe_error *err)
{
	PartitionSpec *spec = ARENA_NEW(a, PartitionSpec);
	const char **terms;
	int *lens, n, i;

	n = split_terms(text, len, a, &terms, &lens);
	spec->fields = ARENA_ARRAY(a, PartitionField, n);
	for (i = 0; i < n; i++) {
		PartitionField pf;
		PartitionTransform tr;
		memset(&pf, 0, sizeof pf);
		TRY(term_field(schema, ids_by_index, terms[i], lens[i], false, a, &pf, &tr, err));
		TRY(check_field_name(schema, ids_by_index, spec->fields, spec->nfields, &pf, err));
		pf.field_id = 1000 + spec->nfields;
		spec->fields[spec->nfields++] = pf;
	}
	*out = spec;
	return FLOE_OK;
}

/* The PARTITIONED BY (...) list of a CREATE TABLE (statement text from
 * `from`): the text inside the parentheses; false if none. */
static bool
partitioned_by(const char *sql, int from, const char **text, int *len)
{
	const char *c, *open;
	int cl;

	if (!sql || from < 0 || !sql_partition_clause(sql, from, &c, &cl) ||
	    strncasecmp(c, "partitioned", 11))
		return false;
	open = memchr(c, '(', (size_t)cl);
	if (!open || c[cl - 1] != ')')
		return false;
	*text = open + 1;
	*len = (int)(c + cl - 1 - open - 1);
	return true;
}

/* A new table's partitioning: PARTITIONED BY, or WITH (partitioning =
 * '...') (Trino); NULL spec when neither.  Before the table exists:
 * source ids are the field indexes + 1 table_create assigns. */
int
ddl_create_partitioning(const IcebergSchema *schema, const char *sql, int from, Node **opts,
		    size_t nopts, Arena *a, PartitionSpec **spec, floe_error *err)
{
	const char *text = NULL;
	int len = 0;
	size_t i;

	*spec = NULL;
	if (!partitioned_by(sql, from, &text, &len)) {
		for (i = 0; i < nopts; i++) {
			PgQuery__DefElem *de = opts[i]->def_elem;
			if ((!de->defnamespace || !de->defnamespace[0]) &&
			    !strcmp(de->defname, "partitioning") && de->arg &&
			    de->arg->node_case == PG_QUERY__NODE__NODE_STRING) {
				text = de->arg->string->sval;
				len = (int)strlen(text);
			}
		}
	}
	if (!text)
		return FLOE_OK;
	return ddl_partition_spec(schema, true, text, len, a, spec, err);
}

/* The WITH keys that give a new table's sort order (ddl_create_sort_order;
 * never stored as properties). */
static bool
is_sort_order_key(const char *k)
{
	return !strcmp(k, "sort_order") || !strcmp(k, "sort-order") || !strcmp(k, "sorted_by");
}

int
ddl_create_sort_order(const char *sql, int from, Node **opts, size_t nopts, Arena *a,
		      const char **sort, floe_error *err)
{
	const char *clause = NULL, *v;
	int len = 0;
	size_t i;

	*sort = NULL;
	if (sql && from >= 0 && sql_create_write_clause(sql, from, &clause, &len))
		*sort = arena_strndup(a, clause, (size_t)len);
	for (i = 0; i < nopts; i++) {
		PgQuery__DefElem *de = opts[i]->def_elem;
		if ((de->defnamespace && de->defnamespace[0]) || !is_sort_order_key(de->defname))
			continue;
		if (*sort)
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
					   "conflicting or redundant options: the sort order is given twice");
		TRY(option_text(de, a, &v, err));
		*sort = v;
	}
	return FLOE_OK;
}

/* Make spec the only (and default) spec of a table with no data yet, and
 * sort (ddl_create_sort_order's text) its default sort order: one
 * metadata commit, none when there is neither. */
int
ddl_set_partitioning(Session *s, Table **t, const PartitionSpec *spec, const char *sort, Arena *a,
		     floe_error *err)
{
	TableMetadata *md;
	PartitionSpec *sp;

	if ((!spec || spec->nfields == 0) && !sort)
		return FLOE_OK;
	md = metadata_copy((*t)->md, a);
	if (spec && spec->nfields) {
		sp = ARENA_NEW(a, PartitionSpec);
		*sp = *spec;
		sp->spec_id = 0;
		md->specs = sp;
		md->nspecs = 1;
		md->default_spec_id = 0;
		md->last_partition_id = 999 + spec->nfields;
	}
	if (sort)
		TRY(alter_create_sort_order(md, sort, (int)strlen(sort), a, err));
	return table_commit_metadata(s->engine->catalog, s->engine->io, *t, md, a, t, err);
}

/* Two specs with the same fields (ids, sources, transforms, names). */
static bool
same_fields(const PartitionSpec *x, const PartitionSpec *y)
{
	int i;

	if (x->nfields != y->nfields)
		return false;
	for (i = 0; i < x->nfields; i++)
		if (x->fields[i].field_id != y->fields[i].field_id ||
		    x->fields[i].source_id != y->fields[i].source_id ||
		    strcmp(x->fields[i].transform, y->fields[i].transform) ||
		    strcmp(x->fields[i].name, y->fields[i].name))
			return false;
	return true;
}

/* The field of spec that `text` names: a field name, else a term
 * (same source and transform); -1 with 42704. */
static int
find_field(const IcebergSchema *schema, const PartitionSpec *spec, const char *text, int len,
	   Arena *a, floe_error *err)
{
	PartitionTransform tr;
	PartitionField pf;
	char *col;
	int i;
	floe_error ignore;

	bool bare;

	while (len > 0 && isspace((unsigned char)text[len - 1]))
		len--;
	bare = partition_parse_term(text, (size_t)len, a, &tr, &col, &ignore) == FLOE_OK &&
		tr.kind == PT_IDENTITY && !memchr(text, '(', (size_t)len);

	if (bare)
		for (i = 0; i < spec->nfields; i++)
			if (!strcmp(spec->fields[i].name, col))
				return i;
	memset(&pf, 0, sizeof pf);
	if (term_field(schema, false, text, len, false, a, &pf, &tr, err) != FLOE_OK) {
		if (bare)
			goto missing;
		return -1;
	}
	for (i = 0; i < spec->nfields; i++)
		if (spec->fields[i].source_id == pf.source_id &&
		    !strcmp(spec->fields[i].transform, pf.transform))
			return i;
missing:
	floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "partition field \"%.*s\" does not exist",
		    len > 200 ? 200 : len, text);
	return -1;
}

/* Make spec ns (field ids set) md's default: an identical earlier spec is
 * reused, else it is added with the next spec id. */
static void
use_spec(TableMetadata *md, PartitionSpec *ns, Arena *a)
{
	int i, maxid = -1;

	for (i = 0; i < md->nspecs; i++) {
		if (same_fields(&md->specs[i], ns)) {
			md->default_spec_id = md->specs[i].spec_id;
			return;
		}
		if (md->specs[i].spec_id > maxid)
			maxid = md->specs[i].spec_id;
	}
	ns->spec_id = maxid + 1;
	{
		PartitionSpec *specs = ARENA_ARRAY(a, PartitionSpec, md->nspecs + 1);
		memcpy(specs, md->specs, sizeof(PartitionSpec) * (size_t)md->nspecs);
		specs[md->nspecs] = *ns;
		md->specs = specs;
		md->nspecs++;
	}
	md->default_spec_id = ns->spec_id;
}

/*
 * ALTER TABLE t SET PARTITION SPEC (term, ...) (Gnok's form; () or an
 * empty list: unpartitioned): the whole new spec at once.  A field with
 * the source and transform of a field of any earlier spec keeps that
 * field's id (spec "Partition Evolution"), others get ids above
 * last-partition-id.  v1 tables may only add fields (as with DROP).
 */
static int
set_partition_spec(TableMetadata *md, const char *body, int blen, const char *table, Arena *a,
		   floe_error *err)
{
	const IcebergSchema *schema = metadata_current_schema(md);
	const PartitionSpec *cur = metadata_default_spec(md);
	PartitionSpec *ns;
	int i, j, k;

	if (blen < 2 || body[0] != '(' || body[blen - 1] != ')')
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "SET PARTITION SPEC needs a parenthesized list of partition terms");
	body++;
	blen -= 2;
	while (blen > 0 && isspace((unsigned char)*body)) {
		body++;
		blen--;
	}
	if (blen == 0) {
		ns = ARENA_NEW(a, PartitionSpec);
		ns->fields = ARENA_ARRAY(a, PartitionField, 1);
	} else {
		TRY(ddl_partition_spec(schema, false, body, blen, a, &ns, err));
	}
	for (i = 0; i < ns->nfields; i++) {
		PartitionField *pf = &ns->fields[i];
		pf->field_id = -1;
		for (j = 0; j < md->nspecs && pf->field_id < 0; j++)
			for (k = 0; k < md->specs[j].nfields; k++)
				if (md->specs[j].fields[k].source_id == pf->source_id &&
				    !strcmp(md->specs[j].fields[k].transform, pf->transform)) {
					pf->field_id = md->specs[j].fields[k].field_id;
					break;
				}
	}
	for (i = 0; i < ns->nfields; i++)
		if (ns->fields[i].field_id < 0)
			ns->fields[i].field_id = ++md->last_partition_id;
	if (md->format_version < 2 && cur) {
		for (j = 0; j < cur->nfields; j++) {
			bool kept = false;
			for (i = 0; i < ns->nfields; i++)
				kept |= ns->fields[i].field_id == cur->fields[j].field_id && i == j;
			if (!kept)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "dropping a partition field of format version 1 table \"%s\" is not supported; upgrade it first (ALTER TABLE %s SET ('format-version' = '2'))",
						   table, table);
		}
	}
	use_spec(md, ns, a);
	return FLOE_OK;
}

/*
 * ALTER TABLE t ADD|DROP|REPLACE PARTITION FIELD ... (clause: the text
 * sql_partition_clause found) applied to md: a new default spec.
 */
static int
alter_partition(TableMetadata *md, const char *clause, int len, const char *table, Arena *a,
		floe_error *err)
{
	const IcebergSchema *schema = metadata_current_schema(md);
	const PartitionSpec *cur = metadata_default_spec(md);
	PartitionSpec *ns = ARENA_NEW(a, PartitionSpec);
	const char *body;
	int blen, i, drop = -1, maxid = -1;
	bool add = false;
	PartitionField pf;
	PartitionTransform tr;

	/* skip "<verb> PARTITION FIELD" */
	body = clause;
	for (i = 0; i < 3; i++) {
		while (body < clause + len && isspace((unsigned char)*body))
			body++;
		while (body < clause + len && (isalnum((unsigned char)*body) || *body == '_'))
			body++;
	}
	while (body < clause + len && isspace((unsigned char)*body))
		body++;
	blen = (int)(clause + len - body);
	while (blen > 0 && isspace((unsigned char)body[blen - 1]))
		blen--;
	memset(&pf, 0, sizeof pf);
	if (!strncasecmp(clause, "set", 3))
		return set_partition_spec(md, body, blen, table, a, err);
	if (!strncasecmp(clause, "add", 3)) {
		TRY(term_field(schema, false, body, blen, true, a, &pf, &tr, err));
		add = true;
	} else if (!strncasecmp(clause, "drop", 4)) {
		if ((drop = find_field(schema, cur, body, blen, a, err)) < 0)
			return FLOE_ERR;
	} else {
		int w = find_word(body, blen, "with");
		if (w < 0)
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
					   "REPLACE PARTITION FIELD needs WITH <new field>");
		if ((drop = find_field(schema, cur, body, w, a, err)) < 0)
			return FLOE_ERR;
		TRY(term_field(schema, false, body + w + 4, blen - w - 4, true, a, &pf, &tr, err));
		add = true;
	}
	if (drop >= 0 && md->format_version < 2)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "dropping a partition field of format version 1 table \"%s\" is not supported; upgrade it first (ALTER TABLE %s SET ('format-version' = '2'))",
				   table, table);
	ns->fields = ARENA_ARRAY(a, PartitionField, cur->nfields + 1);
	for (i = 0; i < cur->nfields; i++)
		if (i != drop)
			ns->fields[ns->nfields++] = cur->fields[i];
	if (add) {
		TRY(check_field_name(schema, false, ns->fields, ns->nfields, &pf, err));
		/* a field dropped earlier with the same source and transform
		 * gets its old id back (spec: reuse), else a new one */
		pf.field_id = -1;
		for (i = 0; i < md->nspecs && pf.field_id < 0; i++) {
			int j;
			for (j = 0; j < md->specs[i].nfields; j++)
				if (md->specs[i].fields[j].source_id == pf.source_id &&
				    !strcmp(md->specs[i].fields[j].transform, pf.transform) &&
				    (drop < 0 || md->specs[i].fields[j].field_id != cur->fields[drop].field_id)) {
					pf.field_id = md->specs[i].fields[j].field_id;
					break;
				}
		}
		if (pf.field_id < 0)
			pf.field_id = ++md->last_partition_id;
		if (drop >= 0) {
			/* REPLACE keeps the position of the replaced field */
			memmove(&ns->fields[drop + 1], &ns->fields[drop],
				sizeof(PartitionField) * (size_t)(ns->nfields - drop));
			ns->fields[drop] = pf;
			ns->nfields++;
		} else {
			ns->fields[ns->nfields++] = pf;
		}
	}
	for (i = 0; i < md->nspecs; i++) {
		if (same_fields(&md->specs[i], ns)) {
			md->default_spec_id = md->specs[i].spec_id;
			return FLOE_OK;
		}
		if (md->specs[i].spec_id > maxid)
			maxid = md->specs[i].spec_id;
	}
	ns->spec_id = maxid + 1;
	{
		PartitionSpec *specs = ARENA_ARRAY(a, PartitionSpec, md->nspecs + 1);
		memcpy(specs, md->specs, sizeof(PartitionSpec) * (size_t)md->nspecs);
		specs[md->nspecs] = *ns;
		md->specs = specs;
		md->nspecs++;
	}
	md->default_spec_id = ns->spec_id;
	return FLOE_OK;
}

/* ---- table properties ------------------------------------------------ */

/*
 * Iceberg table properties set by CREATE TABLE ... WITH (...) and ALTER
 * TABLE ... SET (...) / RESET (...) (also Spark's TBLPROPERTIES spelling,
 * rewritten by parse.c).  Checked when they are set:
 *   format-version            1, 2 or 3 (Iceberg's reserved key: it sets the
 *                             table's format version, it is not stored;
 *                             ALTER may only upgrade)
 *   write.delete.mode, write.update.mode, write.merge.mode
 *                             copy-on-write or merge-on-read
 *   other write.*             as the data writer reads them (data_writer.h)
 *   floe.column.*             reserved (floe's column facts)
 * Any other key is stored as given.  A bad value is 22023.
 */
static int
option_text(PgQuery__DefElem *de, Arena *a, const char **out, floe_error *err)
{
	Node *v = de->arg;

	if (!v) {
		*out = "true";
		return FLOE_OK;
	}
	switch (v->node_case) {
	case PG_QUERY__NODE__NODE_STRING:
		*out = v->string->sval;
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_INTEGER:
		*out = arena_sprintf(a, "%d", (int)v->integer->ival);
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_FLOAT:
		*out = v->float_->fval;
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_BOOLEAN:
		*out = v->boolean->boolval ? "true" : "false";
		return FLOE_OK;
	case PG_QUERY__NODE__NODE_TYPE_NAME:
		if (v->type_name->n_names >= 1 && !v->type_name->n_typmods &&
		    v->type_name->names[v->type_name->n_names - 1]->node_case ==
		    PG_QUERY__NODE__NODE_STRING) {
			*out = v->type_name->names[v->type_name->n_names - 1]->string->sval;
			return FLOE_OK;
		}
		break;
	default:
		break;
	}
	return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			   "invalid value for table property \"%s\"", de->defname);
}

static bool
is_mode_key(const char *k)
{
	return !strcmp(k, "write.delete.mode") || !strcmp(k, "write.update.mode") ||
	       !strcmp(k, "write.merge.mode");
}

/* Keys Iceberg reserves for facts of the metadata itself (spec "Reserved
 * table properties"): never stored. */
static bool
is_reserved_key(const char *k)
{
	static const char *const keys[] = {
		"uuid", "snapshot-count", "current-snapshot-summary", "current-snapshot-id",
		"current-snapshot-timestamp-ms", "current-schema", "default-partition-spec",
		"default-sort-order",
	};
	size_t i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(k, keys[i]))
			return true;
	return !strncmp(k, "floe.column.", 12) || !strncmp(k, "floe.check.", 11);
}

/* Iceberg's (and Trino's) keys for features floe does not implement, whose
 * neglect would change what the table holds or who can read it: 0A000. */
static int
check_unsupported(const char *k, const char *v, floe_error *err)
{
	const char *what = NULL, *hint = NULL;

	if (!strncmp(k, "encryption.", 11)) {
		what = "table encryption";
	} else if (!strcmp(k, "sort-order") || !strcmp(k, "sort_order") || !strcmp(k, "sorted_by") ||
		   !strcmp(k, "write.sort-order")) {
		what = "a sort order as a table property";
		hint = "Set it after CREATE TABLE with ALTER TABLE t WRITE ORDERED BY c [ASC | DESC] [NULLS FIRST | LAST], ...";
	} else if (!strcmp(k, "identifier-field-ids") || !strcmp(k, "identifier_field_ids")) {
		what = "identifier fields as a table property after CREATE TABLE (or in CREATE TABLE AS)";
		hint = "Give them at CREATE TABLE: PRIMARY KEY (...) or WITH (identifier_field_ids = 'c, ...').";
	} else if (!strcmp(k, "location") || !strcmp(k, "data_location")) {
		what = "a table location as a table property";
	} else if ((!strcmp(k, "write.format.default") || !strcmp(k, "write.delete.format.default") ||
		    !strcmp(k, "format")) && strcasecmp(v, "parquet") != 0) {
		what = "data files other than Parquet";
	} else if (!strcmp(k, "write.wap.enabled") && strcasecmp(v, "false") && strcasecmp(v, "true")) {
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "table property \"%s\" must be true or false, not \"%s\"", k, v);
	}                          /* (write-audit-publish: sql/write_target.h) */
	if (!what)
		return FLOE_OK;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
		    "table property \"%s\" is not supported: floe does not implement %s", k, what);
	return hint ? floe_error_hint(err, "%s", hint) : FLOE_ERR;
}

/* Keys in the namespaces Iceberg gives meaning to (write., read., commit.,
 * history., gc., schema., snapshot.): floe acts on those it knows and
 * stores the others for other engines with a WARNING.  Keys outside them
 * are the user's own (stored silently). */
static bool
is_iceberg_key(const char *k)
{
	static const char *const pfx[] = {
		"write.", "read.", "commit.", "history.", "gc.", "schema.", "snapshot.",
	};
	size_t i;

	for (i = 0; i < sizeof pfx / sizeof pfx[0]; i++)
		if (!strncmp(k, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

static bool
floe_acts_on(const char *k)
{
	return is_mode_key(k) || data_writer_property_known(k) || !strcmp(k, "write.data.path") ||
	       !strcmp(k, "write.metadata.path") || !strcmp(k, "write.format.default") ||
	       !strcmp(k, "write.delete.format.default") || !strcmp(k, "write.wap.enabled") ||
	       !strcmp(k, "commit.manifest.min-count-to-merge") ||    /* table.c's merging */
	       !strcmp(k, "commit.manifest-merge.enabled") ||
	       table_maintenance_property_known(k);   /* history.expire.* ... (expire.c) */
}

static void
warn_not_acted_on(ResultSink *sink, const char *k)
{
	floe_error n;

	if (!sink || !sink->notice)
		return;
	floe_errorf(&n, ERRCODE_WARNING,
		    "table property \"%s\" is stored, but floe does not act on it", k);
	floe_error_detail(&n, "Other engines reading the table may; floe's writes and reads ignore it.");
	sink->notice(sink->ctx, &n);
}

/* Check one property (not format-version) before it is stored: 22023 for
 * a bad value or a reserved key, 0A000 for a feature floe lacks, a
 * WARNING for an Iceberg key floe stores but ignores. */
static int
check_property(Session *s, ResultSink *sink, const IcebergSchema *schema, const char *k,
	       const char *v, Arena *a, floe_error *err)
{
	if (is_reserved_key(k))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "table property \"%s\" is reserved", k);
	TRY(check_unsupported(k, v, err));
	if (!strncmp(k, "floe.maintenance.", 17))     /* floe serve's pass (automaint.h) */
		return automaint_check_property(k, v, err);
	/* folders the table's files go to: confined as server files */
	if (!strcmp(k, "write.data.path") || !strcmp(k, "write.metadata.path"))
		TRY(acl_check_location(s, v, err));
	if (is_mode_key(k)) {
		if (!strcmp(v, "copy-on-write") || !strcmp(v, "merge-on-read"))
			return FLOE_OK;
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for table property \"%s\": \"%s\"", k, v);
		return floe_error_hint(err, "Valid values are \"copy-on-write\" and \"merge-on-read\".");
	}
	if (data_writer_property_known(k)) {
		/* the data writer's own check */
		DataWriter *w = data_writer_new(s->engine->io, "/nonexistent", schema, 0, a);
		int rc = data_writer_set_property(w, k, v, err);
		data_writer_free(w);
		return rc;
	}
	if (is_iceberg_key(k) && !floe_acts_on(k))
		warn_not_acted_on(sink, k);
	return FLOE_OK;
}

/* Iceberg's reserved key, or Trino's spelling of it */
static bool
is_format_version_key(const char *k)
{
	return !strcmp(k, "format-version") || !strcmp(k, "format_version");
}

static int
parse_format_version(const char *v, int *out, floe_error *err)
{
	if (!strcmp(v, "1") || !strcmp(v, "2") || !strcmp(v, "3")) {
		*out = v[0] - '0';
		return FLOE_OK;
	}
	floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
		    "invalid value for table property \"format-version\": \"%s\"", v);
	return floe_error_hint(err, "Supported format versions are 1, 2 and 3.");
}

/* CREATE TABLE's WITH list: checked properties, the last one the format
 * version ("format-version", 2 when not given: table_create makes its
 * first metadata file at that version). */
int
ddl_create_options(Session *s, ResultSink *sink, const IcebergSchema *schema, Node **opts,
		   size_t n, Arena *a, const char ***keys, const char ***values, int *nprops,
		   floe_error *err)
{
	size_t i, ndef = 0;
	int j, fv = 2;
	const char *defaults = getenv("FLOE_TABLE_DEFAULTS");
	char *dcopy = NULL, *tok, *save = NULL;

	if (defaults)
		for (i = 0; defaults[i]; i++)
			ndef += defaults[i] == ',';
	*keys = ARENA_ARRAY(a, const char *, n + ndef + 2);
	*values = ARENA_ARRAY(a, const char *, n + ndef + 2);
	*nprops = 0;
	/* FLOE_TABLE_DEFAULTS="k=v,k=v": defaults for every CREATE TABLE
	 * (as Iceberg catalogs' table-default.* properties); WITH wins */
	if (defaults && defaults[0]) {
		dcopy = arena_strdup(a, defaults);
		for (tok = strtok_r(dcopy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			if (!eq)
				return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						   "FLOE_TABLE_DEFAULTS entry \"%s\" is not key=value", tok);
			*eq = 0;
			if (is_format_version_key(tok)) {
				TRY(parse_format_version(eq + 1, &fv, err));
				continue;
			}
			TRY(check_property(s, sink, schema, tok, eq + 1, a, err));
			(*keys)[*nprops] = tok;
			(*values)[*nprops] = eq + 1;
			(*nprops)++;
		}
	}
	for (i = 0; i < n; i++) {
		PgQuery__DefElem *de = opts[i]->def_elem;
		const char *k, *v;

		if (de->defnamespace && de->defnamespace[0])
			k = arena_sprintf(a, "%s.%s", de->defnamespace, de->defname);
		else
			k = de->defname;
		TRY(option_text(de, a, &v, err));
		if (is_format_version_key(k)) {
			TRY(parse_format_version(v, &fv, err));
			continue;
		}
		if (!strcmp(k, "partitioning") || is_sort_order_key(k))
			continue;     /* Trino's: the table's spec (create_partitioning);
					 the sort order (ddl_create_sort_order) */
		TRY(check_property(s, sink, schema, k, v, a, err));
		for (j = 0; j < *nprops; j++)
			if (!strcmp((*keys)[j], k))
				break;
		(*keys)[j] = k;
		(*values)[j] = v;
		if (j == *nprops)
			(*nprops)++;
	}
	(*keys)[*nprops] = "format-version";
	(*values)[*nprops] = arena_sprintf(a, "%d", fv);
	(*nprops)++;
	return FLOE_OK;
}

/* Is c parse.c's stand-in RESET(marker) for an extension clause:
 * floe$pf (PARTITION FIELD / SET PARTITION SPEC), floe$x (alter.c's)? */
static bool
is_marker_cmd(PgQuery__AlterTableCmd *c, const char *marker)
{
	PgQuery__List *l = c->def && c->def->node_case == PG_QUERY__NODE__NODE_LIST ?
		c->def->list : NULL;

	return c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions && l &&
	       l->n_items == 1 && l->items[0]->node_case == PG_QUERY__NODE__NODE_DEF_ELEM &&
	       !strcmp(l->items[0]->def_elem->defname, marker);
}

static bool
is_partition_cmd(PgQuery__AlterTableCmd *c)
{
	return is_marker_cmd(c, "floe$pf");
}

static bool
props_equal(const TableMetadata *x, const TableMetadata *y)
{
	int i;
	for (i = 0; i < x->nproperties; i++) {
		const char *v = metadata_property(y, x->properties[i].key);
		if (!v || strcmp(v, x->properties[i].value))
			return false;
	}
	return true;
}

/*
 * ALTER TABLE [IF EXISTS] t SET (k = v, ...) | RESET (k, ...) — also
 * SET TBLPROPERTIES / UNSET TBLPROPERTIES — one metadata commit
 * (txn_commit_metadata).  'format-version' may be raised (1 -> 2 -> 3),
 * never lowered or reset.  The column forms (ADD / DROP / ALTER COLUMN)
 * are alter.c's, applied in order to one new schema, and may be mixed with
 * SET / RESET in one statement (one commit).  Other forms are 0A000.
 */
int
ddl_alter_table(Session *s, ExecCtx *ctx, const char *sql, PgQuery__AlterTableStmt *as,
		 ResultSink *sink)
{
	const char *ns = ddl_rv_ns(s, as->relation), *name = as->relation->relname;
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	TableMetadata *md;
	Table *t, *out;
	size_t i, k;
	const char *pclause = NULL;
	int pclen = 0;
	bool schema_changed = false;
	const char *xclause = NULL;
	int xlen = 0;

	if (as->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this ALTER is not supported yet");
	for (i = 0; i < as->n_cmds; i++) {
		PgQuery__AlterTableCmd *c = as->cmds[i]->alter_table_cmd;
		if (refs_is_cmd(c))      /* CREATE / REPLACE / DROP BRANCH | TAG (refs.c) */
			return refs_alter(s, ctx, sql, as, sink);
		if (is_partition_cmd(c)) {
			if (as->n_cmds != 1 ||
			    !sql_partition_clause(sql, as->relation->location, &pclause, &pclen))
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "syntax error in ALTER TABLE ... PARTITION FIELD");
			continue;
		}
		if (is_marker_cmd(c, "floe$x")) {
			if (as->n_cmds != 1 ||
			    !sql_alter_ext_clause(sql, as->relation->location, &xclause, &xlen))
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "syntax error in ALTER TABLE ... ALTER COLUMN / WRITE");
			continue;
		}
		if (c->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions &&
		    c->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions &&
		    !alter_is_column_cmd(c) && !check_is_alter_cmd(c))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "this ALTER TABLE form is not supported yet (floe has ADD / DROP / ALTER / RENAME COLUMN, SET / RESET (...), RENAME TO, SET SCHEMA and the PARTITION FIELD forms)");
	}
	if (txn_table_load(s, ns, name, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE)) {
			BindCtx b;
			if (as->missing_ok) {
				floe_error_clear(err);
				engine_notice(sink, "relation \"%s\" does not exist, skipping", name);
				return engine_complete(sink, "ALTER TABLE");
			}
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
			memset(&b, 0, sizeof b);
			b.sql = sql;
			floe_error_position(err, bind_location(&b, as->relation->location));
		}
		return FLOE_ERR;
	}
	md = metadata_copy(t->md, a);
	if (xclause) {
		TRY(alter_ext(s, ctx, t, md, xclause, xlen, &schema_changed));
		TRY(txn_commit_metadata(s, t, md, a, &out, err));
		return engine_complete(sink, "ALTER TABLE");
	}
	if (pclause) {
		TRY(alter_partition(md, pclause, pclen, name, a, err));
		TRY(txn_commit_metadata(s, t, md, a, &out, err));
		return engine_complete(sink, "ALTER TABLE");
	}
	for (i = 0; i < as->n_cmds; i++) {
		PgQuery__AlterTableCmd *c = as->cmds[i]->alter_table_cmd;
		bool reset = c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions;
		PgQuery__List *l = c->def && c->def->node_case == PG_QUERY__NODE__NODE_LIST ?
			c->def->list : NULL;

		if (alter_is_column_cmd(c)) {
			TRY(alter_columns(s, ctx, sql, t, md, c, sink, &schema_changed));
			continue;
		}
		if (check_is_alter_cmd(c)) {   /* ADD / DROP / VALIDATE CONSTRAINT (check.c) */
			TRY(check_alter(s, ctx, sql, t, md, c, sink, &schema_changed));
			continue;
		}
		for (k = 0; l && k < l->n_items; k++) {
			PgQuery__DefElem *de = l->items[k]->def_elem;
			const char *key = de->defnamespace && de->defnamespace[0] ?
				arena_sprintf(a, "%s.%s", de->defnamespace, de->defname) : de->defname;
			const char *v;
			int fv;

			if (is_format_version_key(key)) {
				if (reset)
					return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "table property \"format-version\" cannot be reset");
				TRY(option_text(de, a, &v, err));
				TRY(parse_format_version(v, &fv, err));
				if (fv < md->format_version) {
					floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
						    "cannot downgrade table \"%s\" from format version %d to %d",
						    name, md->format_version, fv);
					return FLOE_ERR;
				}
				md->format_version = fv;
				if (fv >= 3 && !md->has_next_row_id) {
					md->has_next_row_id = true;
					md->next_row_id = 0;
				}
				continue;
			}
			if (reset) {
				if (!strncmp(key, "floe.column.", 12) || !strncmp(key, "floe.check.", 11))
					return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "table property \"%s\" is reserved", key);
				metadata_set_property(md, key, NULL, a);
				continue;
			}
			TRY(option_text(de, a, &v, err));
			TRY(check_property(s, sink, metadata_current_schema(md), key, v, a, err));
			metadata_set_property(md, key, v, a);
		}
	}
	if (!schema_changed && md->nproperties == t->md->nproperties && props_equal(md, t->md) &&
	    md->format_version == t->md->format_version)
		return engine_complete(sink, "ALTER TABLE");     /* nothing changed: no commit */
	TRY(txn_commit_metadata(s, t, md, a, &out, err));
	return engine_complete(sink, "ALTER TABLE");
}

