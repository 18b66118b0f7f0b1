/*
 * alter.c — ALTER TABLE's column forms and the table's name: schema
 * evolution as Iceberg defines it, one metadata commit per statement.
 *
 * Spec: apache/iceberg format/spec.md "Schema Evolution", "Column
 * Projection", "Default values" (v3 initial-default / write-default),
 * "Reserved Field IDs"; PostgreSQL 15 docs "ALTER TABLE", "COMMENT".
 *
 *   ALTER TABLE t ADD [COLUMN] [IF NOT EXISTS] c type [NOT NULL] [DEFAULT x], ...
 *                 DROP [COLUMN] [IF EXISTS] c
 *                 ALTER [COLUMN] c [SET DATA] TYPE t
 *                 ALTER [COLUMN] c SET | DROP NOT NULL
 *                 ALTER [COLUMN] c SET DEFAULT x | DROP DEFAULT
 *   ALTER TABLE t RENAME [COLUMN] c TO d        (RenameStmt)
 *   ALTER TABLE t RENAME TO u                   (catalog rename)
 *   ALTER TABLE t SET SCHEMA s                  (catalog rename)
 *   COMMENT ON TABLE t IS '...'                 ("comment" table property)
 *   COMMENT ON COLUMN t.c IS '...'              (the field's "doc")
 *
 * Rules (invariants a test asserts):
 *   A1 every schema change is one new schema with a new schema-id (max id
 *      + 1), made current; old schemas stay (time travel reads a snapshot
 *      in its own schema); a statement that changes nothing commits nothing.
 *   A2 a new column gets the id last-column-id + 1: ids are never reused,
 *      and last-column-id only grows (metadata_add_schema).
 *   A3 files are read by field id (exec/scan.c): a renamed column keeps its
 *      id, a dropped one is gone from the schema (its data stays in old
 *      files, unread), an added one reads NULL or its initial-default, a
 *      promoted one is cast by the scan.
 *   A4 type changes are the spec's promotions only: int -> long, float ->
 *      double, decimal(P,S) -> decimal(P2,S) with P2 > P, and (format
 *      version 3) date -> timestamp; floe's PostgreSQL spellings of one
 *      Iceberg type (smallint -> integer, varchar(n) -> varchar(m >= n) ->
 *      text) too.  Anything else is 0A000 naming the rule.
 *   A5 a non-NULL DEFAULT on ADD COLUMN of a table with rows needs format
 *      version 3 (initial-default: old rows read it); v1/v2 refuse it with
 *      a hint.  SET DEFAULT only affects new rows and works everywhere
 *      (v3 also writes write-default).
 *   A6 SET NOT NULL (and ADD COLUMN ... NOT NULL without a default on a
 *      table with rows) first looks for a NULL (rowscan.h): 23502 if one.
 *   A7 a partition source (of the default spec), an identifier field or a
 *      sort-order source cannot be dropped (2BP01), nor a partition source
 *      of any spec retyped (0A000).
 * Concurrency: the metadata commit is a CAS from the loaded metadata, so a
 * change that raced another commit fails with 40001; a data commit that
 * re-bases over a schema change fails the same way (table.c
 * schema_unchanged: the spec's assert-current-schema-id).
 *
 * INTERFACE ROUTINES (bind.h)
 *   alter_is_column_cmd(cmd)              a column form of ALTER TABLE?
 *   alter_columns(s, ctx, sql, t, md, cmd, sink, &changed)
 *                                         apply one to md (a metadata_copy)
 *   alter_rename(s, ctx, sql, rs, sink)   RENAME [COLUMN] ... TO
 *   alter_set_schema(s, ctx, st, sink)    ALTER TABLE ... SET SCHEMA
 *   alter_comment(s, ctx, cs, sink)       COMMENT ON TABLE / COLUMN
 *   alter_ext(s, ctx, t, md, clause, len, &changed)
 *                                         Spark's forms (parse.c's floe$x):
 *     ALTER [COLUMN] c COMMENT '...'      the field's doc (new schema)
 *     ALTER [COLUMN] c FIRST | AFTER d    column order (new schema; ids kept)
 *     WRITE [LOCALLY] ORDERED BY term [ASC|DESC] [NULLS FIRST|LAST], ...
 *     WRITE DISTRIBUTED BY PARTITION [LOCALLY ORDERED BY ...]
 *     WRITE UNORDERED                     the default sort order (an equal
 *                                         one is reused; unsorted is id 0),
 *                                         write.distribution-mode as Spark
 *                                         sets it (range / none / hash)
 *   alter_create_sort_order(md, text, len, a, err)
 *                                         CREATE TABLE's WRITE ORDERED BY /
 *                                         WITH (sort_order = '...')
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sql/views.h"
#include "sql/bind.h"
#include "sql/check.h"
#include "sql/engine.h"
#include "sql/rowscan.h"
#include "sql/txn.h"
#include "table/metadata.h"
#include "table/partition.h"
#include "table/table.h"
#include "types/udt.h"
#include "types/cast.h"
#include "types/text.h"

/* ---- the working schema ---------------------------------------------- */

/* md's current schema as a new, editable schema (fields copied), unless
 * one was made already by an earlier command of the statement. */
static IcebergSchema *
working_schema(TableMetadata *md, Arena *a, bool *changed)
{
	const IcebergSchema *cur = metadata_current_schema(md);
	IcebergSchema *w;
	int32_t id = 0;
	int i;

	if (*changed)
		return (IcebergSchema *)cur;
	for (i = 0; i < md->nschemas; i++)
		if (md->schemas[i].schema_id >= id)
			id = md->schemas[i].schema_id + 1;
	w = ARENA_NEW(a, IcebergSchema);
	*w = *cur;
	w->schema_id = id;
	w->fields = ARENA_ARRAY(a, IcebergField, cur->nfields + 1);
	if (cur->nfields)
		memcpy(w->fields, cur->fields, sizeof(IcebergField) * (size_t)cur->nfields);
	w->identifier_field_ids = ARENA_ARRAY(a, int32_t, cur->nidentifier + 1);
	if (cur->nidentifier)
		memcpy(w->identifier_field_ids, cur->identifier_field_ids,
		       sizeof(int32_t) * (size_t)cur->nidentifier);
	metadata_add_schema(md, w, a);
	*changed = true;
	return (IcebergSchema *)metadata_current_schema(md);
}

static int
find_column(const IcebergSchema *sc, const char *name)
{
	int i;
	for (i = 0; i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].name, name))
			return i;
	return -1;
}

/* PostgreSQL's system column names (42701 for a user column). */
static int
check_system_name(const char *name, floe_error *err)
{
	static const char *const sys[] = { "tableoid", "cmax", "xmax", "cmin", "xmin", "ctid", NULL };
	int i;

	for (i = 0; sys[i]; i++)
		if (!strcmp(name, sys[i]))
			return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
					   "column name \"%s\" conflicts with a system column name", name);
	return FLOE_OK;
}

/* Has t a current row [whose column null_col IS NULL]? */
static int
any_row(Session *s, const Table *t, const char *null_col, Arena *a, bool *found, floe_error *err)
{
	return rowscan_first(s, t, "1",
			     null_col ? arena_sprintf(a, "WHERE %s IS NULL", rowscan_qident(a, null_col)) :
					NULL,
			     a, NULL, found, err);
}

static int
contains_nulls(const char *col, const char *table, floe_error *err)
{
	return floe_errorf(err, ERRCODE_NOT_NULL_VIOLATION,
			   "column \"%s\" of relation \"%s\" contains null values", col, table);
}

/* ---- type promotion (A4) ---------------------------------------------- */

static const char PROMOTION_RULE[] =
	"Iceberg allows only int -> bigint, real -> double precision, numeric(P,S) -> numeric(P2,S) "
	"with P2 > P, and (format version 3) date -> timestamp";

/* May a column of type from become type to (both floe SqlTypes)? */
static bool
promotion_ok(SqlType from, SqlType to, int format_version)
{
	TypeId f = from.id, t = to.id;

	if (type_equal(from, to))
		return true;
	if ((f == TYPE_INT16 || f == TYPE_INT32) && (t == TYPE_INT32 || t == TYPE_INT64))
		return !(f == TYPE_INT32 && t == TYPE_INT32);
	if (f == TYPE_FLOAT32 && t == TYPE_FLOAT64)
		return true;
	if (f == TYPE_DECIMAL && t == TYPE_DECIMAL)
		return to.scale == from.scale && to.precision >= from.precision && from.precision != 0 &&
		       to.precision != 0;
	if (f == TYPE_DATE && t == TYPE_TIMESTAMP)
		return format_version >= 3;
	if (f == TYPE_TEXT && t == TYPE_TEXT) {
		/* one Iceberg string: text, varchar(n), char(n) are floe's spellings */
		if (to.text_kind == TEXT_PLAIN)
			return from.text_kind != TEXT_CHAR;
		if (to.text_kind == TEXT_VARCHAR && from.text_kind == TEXT_VARCHAR)
			return to.typmod < 0 || (from.typmod >= 0 && to.typmod >= from.typmod);
		return false;
	}
	return false;
}

static bool
is_partition_source(const TableMetadata *md, int32_t id, bool default_only, const char **pname)
{
	int i, k;

	for (i = 0; i < md->nspecs; i++) {
		const PartitionSpec *sp = &md->specs[i];
		if (default_only && sp->spec_id != md->default_spec_id)
			continue;
		for (k = 0; k < sp->nfields; k++)
			if (sp->fields[k].source_id == id) {
				*pname = sp->fields[k].name;
				return true;
			}
	}
	return false;
}

static bool
is_sort_source(const TableMetadata *md, int32_t id)
{
	int i, k;

	for (i = 0; i < md->nsort_orders; i++) {
		const SortOrder *so = &md->sort_orders[i];
		if (so->order_id != md->default_sort_order_id)
			continue;
		for (k = 0; k < so->nfields; k++)
			if (so->fields[k].source_id == id)
				return true;
	}
	return false;
}

static bool
is_identifier(const IcebergSchema *sc, int32_t id)
{
	int k;
	for (k = 0; k < sc->nidentifier; k++)
		if (sc->identifier_field_ids[k] == id)
			return true;
	return false;
}

/* ---- one command ------------------------------------------------------ */

bool
alter_is_column_cmd(const PgQuery__AlterTableCmd *c)
{
	switch (c->subtype) {
	case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn:
	case PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn:
	case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnType:
	case PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull:
	case PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull:
	case PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault:
		return true;
	default:
		return false;
	}
}

static void
bind_init(BindCtx *b, Session *s, ExecCtx *ctx, const char *sql)
{
	memset(b, 0, sizeof *b);
	b->session = s;
	b->arena = ctx->arena;
	b->err = ctx->err;
	b->sql = sql;
	b->where = "DEFAULT expressions";
}

static const char *
fprop(Arena *a, int32_t id, const char *what)
{
	return arena_sprintf(a, "floe.column.%d.%s", (int)id, what);
}

/* The default's value as the field's type, for initial-/write-default. */
static Value *
default_value(Arena *a, const Value *v, SqlType type)
{
	Value *d = ARENA_NEW(a, Value);
	*d = *v;
	d->type = type;
	return d;
}

static int
add_column(Session *s, ExecCtx *ctx, const char *sql, const Table *t, TableMetadata *md,
	   const PgQuery__AlterTableCmd *c, ResultSink *sink, bool *changed)
{
	PgQuery__ColumnDef *cd = c->def && c->def->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF ?
		c->def->column_def : NULL;
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	IcebergSchema *sc;
	IcebergField f;
	Value dv;
	bool has_default = false;
	const char *pg;
	size_t j;
	int32_t last_id;

	if (!cd)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "ADD COLUMN without a column definition");
	if (find_column(metadata_current_schema(md), cd->colname) >= 0) {
		if (c->missing_ok) {
			engine_notice(sink, "%s", arena_sprintf(a, "column \"%s\" of relation \"%s\" already exists, skipping",
								cd->colname, t->name));
			return FLOE_OK;
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
				   "column \"%s\" of relation \"%s\" already exists", cd->colname, t->name);
	}
	TRY(check_system_name(cd->colname, err));
	if (metadata_current_schema(md)->nfields >= BIND_MAX_TABLE_COLUMNS)
		return floe_errorf(err, ERRCODE_TOO_MANY_COLUMNS, "tables can have at most %d columns",
				   BIND_MAX_TABLE_COLUMNS);
	memset(&f, 0, sizeof f);
	memset(&dv, 0, sizeof dv);
	f.name = arena_strdup(a, cd->colname);
	{
		BindCtx b;
		bind_init(&b, s, ctx, sql);
		TRY(bind_type_name(&b, cd->type_name, &f.type));
		if (f.type.id == TYPE_DECIMAL && f.type.precision == 0)
			f.type.scale = NUMERIC_DEFAULT_SCALE;
		f.required = cd->is_not_null;
		TRY(ddl_check_column_collation(cd, err));
		if (cd->compression && cd->compression[0])
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "COMPRESSION of column \"%s\" is not supported", cd->colname);
		for (j = 0; j < cd->n_constraints; j++) {
			PgQuery__Constraint *k = cd->constraints[j]->constraint;
			switch (k->contype) {
			case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
				f.required = true;
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
				if (!(f.default_sql = ddl_default_text(&b, k->raw_expr, f.type, f.name, &dv)))
					return FLOE_ERR;
				has_default = !dv.is_null;
				if (!has_default)
					f.default_sql = NULL;    /* DEFAULT NULL: none */
				break;
			default:
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "ADD COLUMN supports only NOT NULL and DEFAULT constraints");
			}
		}
	}
	last_id = md->last_column_id + 1;     /* the column's; a list element's next */
	TRY(metadata_column_type(&f, &last_id, a, err));
	if (!has_default && type_is_domain(f.type)) {
		/* the existing rows get the domain's DEFAULT, or NULL, which
		 * its NOT NULL refuses (PostgreSQL's CoerceToDomain) */
		const Udt *chain[16], *u = udt_get(f.type.udt);
		int nc = udt_domain_chain(f.type.udt, chain, 16), k;
		bool rows, nn = false, def = false;
		for (k = 0; k < nc; k++) {
			nn |= chain[k]->notnull;
			def |= chain[k]->default_sql != NULL;
		}
		if (u && (nn || def)) {
			TRY(any_row(s, t, NULL, a, &rows, err));
			if (rows && def)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "cannot add column \"%s\" of domain %s, which has a DEFAULT, to table "
						   "\"%s\", which has rows: floe cannot give the existing rows the domain's default yet",
						   f.name, u->name, t->name);
			if (rows)
				return floe_errorf(err, ERRCODE_NOT_NULL_VIOLATION,
						   "domain %s does not allow null values", u->name);
		}
	}
	if (f.required || has_default) {
		bool rows;
		TRY(any_row(s, t, NULL, a, &rows, err));
		if (rows && has_default && md->format_version < 3) {
			floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "cannot add column \"%s\" with a non-NULL default to table \"%s\", which has rows: "
				    "format version %d tables cannot give existing rows a default",
				    f.name, t->name, md->format_version);
			return floe_error_hint(err, arena_sprintf(a,
				"Upgrade the table first (ALTER TABLE %s SET ('format-version' = '3'): v3 stores initial-default), "
				"or add the column without DEFAULT and then ALTER COLUMN %s SET DEFAULT for new rows.",
				t->name, f.name));
		}
		if (rows && f.required && !has_default)
			return contains_nulls(f.name, t->name, err);
	}
	if (has_default && md->format_version >= 3) {
		f.initial_default = default_value(a, &dv, f.type);
		f.write_default = f.initial_default;
	}
	sc = working_schema(md, a, changed);
	f.id = md->last_column_id + 1;
	{
		IcebergField *grown = ARENA_ARRAY(a, IcebergField, sc->nfields + 2);
		if (sc->nfields)
			memcpy(grown, sc->fields, sizeof(IcebergField) * (size_t)sc->nfields);
		sc->fields = grown;
	}
	sc->fields[sc->nfields++] = f;
	md->last_column_id = last_id;
	if ((pg = table_pg_type_prop(f.type, a)) != NULL)
		metadata_set_property(md, fprop(a, f.id, "pg-type"), pg, a);
	if (f.default_sql)
		metadata_set_property(md, fprop(a, f.id, "default"), f.default_sql, a);
	return FLOE_OK;
}

static int
missing_column(ExecCtx *ctx, const PgQuery__AlterTableCmd *c, const Table *t, ResultSink *sink)
{
	if (c->missing_ok) {
		engine_notice(sink, "%s", arena_sprintf(ctx->arena, "column \"%s\" of relation \"%s\" does not exist, skipping",
							c->name, t->name));
		return FLOE_OK;
	}
	return floe_errorf(ctx->err, ERRCODE_UNDEFINED_COLUMN,
			   "column \"%s\" of relation \"%s\" does not exist", c->name, t->name);
}

static int
drop_column(ExecCtx *ctx, const Table *t, TableMetadata *md, const PgQuery__AlterTableCmd *c,
	    ResultSink *sink, bool *changed)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	IcebergSchema *sc;
	const IcebergField *f;
	const char *pname;
	int i = find_column(metadata_current_schema(md), c->name), k, n;

	if (i < 0)
		return missing_column(ctx, c, t, sink);
	f = &metadata_current_schema(md)->fields[i];
	if (is_partition_source(md, f->id, true, &pname)) {
		floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
			    "cannot drop column \"%s\" of table \"%s\": partition field \"%s\" is derived from it",
			    f->name, t->name, pname);
		return floe_error_hint(err, arena_sprintf(a, "Drop the partition field first: ALTER TABLE %s DROP PARTITION FIELD %s.",
							   t->name, pname));
	}
	if (is_identifier(metadata_current_schema(md), f->id))
		return floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				   "cannot drop column \"%s\" of table \"%s\": it is part of the table's primary key (identifier-field-ids)",
				   f->name, t->name);
	if (is_sort_source(md, f->id))
		return floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				   "cannot drop column \"%s\" of table \"%s\": the table's sort order uses it",
				   f->name, t->name);
	sc = working_schema(md, a, changed);
	i = find_column(sc, c->name);
	for (k = i, n = sc->nfields - 1; k < n; k++)
		sc->fields[k] = sc->fields[k + 1];
	sc->nfields--;
	return check_drop_column(md, c->name, a, err);   /* its CHECKs go with it (check.h) */
}

static int
alter_type(Session *s, ExecCtx *ctx, const char *sql, const Table *t, TableMetadata *md,
	   const PgQuery__AlterTableCmd *c, bool *changed)
{
	PgQuery__ColumnDef *cd = c->def && c->def->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF ?
		c->def->column_def : NULL;
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	IcebergSchema *sc;
	IcebergField *f;
	SqlType to;
	const char *pname, *pg, *ice;
	char fb[64], tb[64];
	BindCtx b;
	int i = find_column(metadata_current_schema(md), c->name);

	if (i < 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" of relation \"%s\" does not exist", c->name, t->name);
	if (!cd || !cd->type_name)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "ALTER COLUMN TYPE without a type");
	if (cd->raw_default)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "ALTER COLUMN TYPE ... USING is not supported: Iceberg type changes rewrite no data (%s)",
				   PROMOTION_RULE);
	TRY(ddl_check_column_collation(cd, err));
	bind_init(&b, s, ctx, sql);
	TRY(bind_type_name(&b, cd->type_name, &to));
	if (to.id == TYPE_DECIMAL && to.precision == 0)
		to.scale = NUMERIC_DEFAULT_SCALE;
	f = &metadata_current_schema(md)->fields[i];
	if (f->nested)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot change the type of nested column \"%s\"", f->name);
	if (type_equal(f->type, to))
		return FLOE_OK;
	type_name(f->type, fb, sizeof fb);
	type_name(to, tb, sizeof tb);
	if (!promotion_ok(f->type, to, md->format_version)) {
		floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "cannot change column \"%s\" of table \"%s\" from %s to %s", f->name, t->name, fb, tb);
		return floe_error_hint(err, arena_sprintf(a, "%s%s.", PROMOTION_RULE,
			f->type.id == TYPE_DATE && to.id == TYPE_TIMESTAMP ?
			" (upgrade with ALTER TABLE ... SET ('format-version' = '3'))" : ""));
	}
	if (is_partition_source(md, f->id, false, &pname))
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cannot change the type of column \"%s\" of table \"%s\": partition field \"%s\" is derived from it",
				   f->name, t->name, pname);
	if (!(ice = metadata_type_to_iceberg(to, a, err)))
		return FLOE_ERR;
	/* the rows, converted, must pass the column's CHECKs (check.h) */
	TRY(check_alter_type(s, t, md, f->name, cd->type_name, a, err));
	sc = working_schema(md, a, changed);
	f = &sc->fields[find_column(sc, c->name)];
	f->type = to;
	f->iceberg_type = (char *)ice;
	if (f->initial_default) {
		Value *v = ARENA_NEW(a, Value);
		TRY(cast_value(v, f->initial_default, to, a, err));
		f->initial_default = v;
	}
	if (f->write_default) {
		Value *v = ARENA_NEW(a, Value);
		TRY(cast_value(v, f->write_default, to, a, err));
		f->write_default = v;
	}
	pg = table_pg_type_prop(to, a);
	metadata_set_property(md, fprop(a, f->id, "pg-type"), pg, a);
	if (f->default_sql) {
		/* the DEFAULT's text names the old type: cast once more */
		char *d = arena_sprintf(a, "(%s)::%s", f->default_sql, tb);
		f->default_sql = d;
		metadata_set_property(md, fprop(a, f->id, "default"), d, a);
	}
	return FLOE_OK;
}

static int
set_not_null(Session *s, ExecCtx *ctx, const Table *t, TableMetadata *md,
	     const PgQuery__AlterTableCmd *c, bool set, bool *changed)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	IcebergSchema *sc;
	const IcebergField *f;
	int i = find_column(metadata_current_schema(md), c->name);

	if (i < 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" of relation \"%s\" does not exist", c->name, t->name);
	f = &metadata_current_schema(md)->fields[i];
	if (f->required == set)
		return FLOE_OK;
	if (!set && is_identifier(metadata_current_schema(md), f->id))
		return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
				   "column \"%s\" is in a primary key", f->name);
	if (set) {
		bool nulls;
		TRY(any_row(s, t, f->name, a, &nulls, err));
		if (nulls)
			return contains_nulls(f->name, t->name, err);
	}
	sc = working_schema(md, a, changed);
	sc->fields[find_column(sc, c->name)].required = set;
	return FLOE_OK;
}

static int
set_default(Session *s, ExecCtx *ctx, const char *sql, const Table *t, TableMetadata *md,
	    const PgQuery__AlterTableCmd *c, bool *changed)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	IcebergSchema *sc;
	IcebergField *f;
	Value dv;
	char *txt = NULL;
	int i = find_column(metadata_current_schema(md), c->name);

	if (i < 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" of relation \"%s\" does not exist", c->name, t->name);
	memset(&dv, 0, sizeof dv);
	dv.is_null = true;
	if (c->def) {
		BindCtx b;
		bind_init(&b, s, ctx, sql);
		if (!(txt = ddl_default_text(&b, c->def, metadata_current_schema(md)->fields[i].type,
					     c->name, &dv)))
			return FLOE_ERR;
		if (dv.is_null)
			txt = NULL;
	}
	metadata_set_property(md, fprop(a, metadata_current_schema(md)->fields[i].id, "default"), txt, a);
	if (md->format_version < 3) {
		/* floe's property only: the schema does not change */
		return FLOE_OK;
	}
	f = &metadata_current_schema(md)->fields[i];
	if (!f->write_default && dv.is_null)
		return FLOE_OK;
	sc = working_schema(md, a, changed);
	f = &sc->fields[find_column(sc, c->name)];
	f->write_default = dv.is_null ? NULL : default_value(a, &dv, f->type);
	f->default_sql = txt;
	return FLOE_OK;
}

int
alter_columns(Session *s, ExecCtx *ctx, const char *sql, const Table *t, TableMetadata *md,
	      const PgQuery__AlterTableCmd *c, ResultSink *sink, bool *changed)
{
	const IcebergSchema *cur = metadata_current_schema(md);
	int i;

	for (i = 0; i < cur->nfields; i++)
		if (cur->fields[i].nested && !cur->fields[i].nested_type)
			return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "cannot change the schema of table \"%s\": its nested column \"%s\" was not read whole",
					   t->name, cur->fields[i].name);
	switch (c->subtype) {
	case PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn:
		return add_column(s, ctx, sql, t, md, c, sink, changed);
	case PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn:
		return drop_column(ctx, t, md, c, sink, changed);
	case PG_QUERY__ALTER_TABLE_TYPE__AT_AlterColumnType:
		return alter_type(s, ctx, sql, t, md, c, changed);
	case PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull:
		return set_not_null(s, ctx, t, md, c, true, changed);
	case PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull:
		return set_not_null(s, ctx, t, md, c, false, changed);
	case PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault:
		return set_default(s, ctx, sql, t, md, c, changed);
	default:
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED, "this ALTER TABLE form is not supported yet");
	}
}

/* ---- RENAME, SET SCHEMA, COMMENT -------------------------------------- */

static int
load_or_skip(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, bool missing_ok, ResultSink *sink,
	     const char *tag, Table **t, bool *skipped)
{
	*skipped = false;
	if (txn_table_load(s, ddl_rv_ns(s, rv), rv->relname, ctx->arena, t, ctx->err) == FLOE_OK)
		return FLOE_OK;
	if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE)) {
		if (missing_ok) {
			floe_error_clear(ctx->err);
			engine_notice(sink, "relation \"%s\" does not exist, skipping", rv->relname);
			*skipped = true;
			return engine_complete(sink, tag);
		}
		floe_errorf(ctx->err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", rv->relname);
	}
	return FLOE_ERR;
}

static int
move_table(Session *s, ExecCtx *ctx, const Table *t, const char *ns, const char *name)
{
	Table *other;

	TRY(ddl_check_namespace(s, ns, ctx->err));
	TRY(views_check_rename(s, t->ns, t->name, ctx->arena, ctx->err));   /* views.c */
	if (table_load(s->engine->catalog, s->engine->io, ns, name, ctx->arena, &other, ctx->err) == FLOE_OK)
		return floe_errorf(ctx->err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	floe_error_clear(ctx->err);
	return catalog_rename_table(s->engine->catalog, t->ns, t->name, ns, name, ctx->err);
}

int
alter_rename(Session *s, ExecCtx *ctx, const char *sql, PgQuery__RenameStmt *rs, ResultSink *sink)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	Table *t, *out;
	TableMetadata *md;
	IcebergSchema *sc;
	bool skipped, changed = false;
	int i;

	(void)sql;
	if (rs->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) {
		TRY(load_or_skip(s, ctx, rs->relation, rs->missing_ok, sink, "ALTER TABLE", &t, &skipped));
		if (skipped)
			return FLOE_OK;
		TRY(move_table(s, ctx, t, t->ns, rs->newname));
		return engine_complete(sink, "ALTER TABLE");
	}
	if (rs->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN ||
	    rs->relation_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this RENAME is not supported yet");
	TRY(load_or_skip(s, ctx, rs->relation, rs->missing_ok, sink, "ALTER TABLE", &t, &skipped));
	if (skipped)
		return FLOE_OK;
	md = metadata_copy(t->md, a);
	if ((i = find_column(metadata_current_schema(md), rs->subname)) < 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", rs->subname);
	TRY(check_system_name(rs->newname, err));
	if (find_column(metadata_current_schema(md), rs->newname) >= 0)
		return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
				   "column \"%s\" of relation \"%s\" already exists", rs->newname, t->name);
	if (!strcmp(rs->subname, rs->newname))
		return engine_complete(sink, "ALTER TABLE");
	sc = working_schema(md, a, &changed);
	sc->fields[i].name = arena_strdup(a, rs->newname);
	TRY(check_rename_column(md, rs->subname, rs->newname, a, err));   /* check.h */
	TRY(txn_commit_metadata(s, t, md, a, &out, err));
	return engine_complete(sink, "ALTER TABLE");
}

int
alter_set_schema(Session *s, ExecCtx *ctx, PgQuery__AlterObjectSchemaStmt *st, ResultSink *sink)
{
	Table *t;
	bool skipped;

	if (st->object_type != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE || !st->relation)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "this ALTER ... SET SCHEMA is not supported yet");
	TRY(load_or_skip(s, ctx, st->relation, st->missing_ok, sink, "ALTER TABLE", &t, &skipped));
	if (skipped)
		return FLOE_OK;
	if (!strcmp(t->ns, st->newschema))
		return engine_complete(sink, "ALTER TABLE");
	TRY(move_table(s, ctx, t, st->newschema, t->name));
	return engine_complete(sink, "ALTER TABLE");
}

/* The names of a COMMENT ON's object list: [[schema,] table [, column]]. */
static int
object_names(const PgQuery__CommentStmt *cs, const char **names, int max)
{
	PgQuery__List *l = cs->object && cs->object->node_case == PG_QUERY__NODE__NODE_LIST ?
		cs->object->list : NULL;
	size_t i;

	if (!l || (int)l->n_items > max)
		return -1;
	for (i = 0; i < l->n_items; i++) {
		if (l->items[i]->node_case != PG_QUERY__NODE__NODE_STRING)
			return -1;
		names[i] = l->items[i]->string->sval;
	}
	return (int)l->n_items;
}

int
alter_comment(Session *s, ExecCtx *ctx, PgQuery__CommentStmt *cs, ResultSink *sink)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	const char *names[3];
	PgQuery__RangeVar rv;
	Table *t, *out;
	TableMetadata *md;
	bool column = cs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN, changed = false;
	int n, i;

	if (cs->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_VIEW && (n = object_names(cs, names, 2)) >= 1) {
		/* a missing view is 42P01 first, as PostgreSQL; an existing one
		 * cannot keep a comment yet */
		pg_query__range_var__init(&rv);
		rv.relname = (char *)names[n - 1];
		rv.schemaname = n == 2 ? (char *)names[0] : (char *)"";
		if (!views_exists(s, ddl_rv_ns(s, &rv), rv.relname))
			return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist",
					   rv.relname);
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "COMMENT ON VIEW is not supported yet");
	}
	if (cs->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE && !column)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this COMMENT ON is not supported yet");
	n = object_names(cs, names, column ? 3 : 2);
	if (n < (column ? 2 : 1))
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "COMMENT ON: bad object name");
	pg_query__range_var__init(&rv);
	rv.relname = (char *)names[n - (column ? 2 : 1)];
	rv.schemaname = n == (column ? 3 : 2) ? (char *)names[0] : (char *)"";
	if (txn_table_load(s, ddl_rv_ns(s, &rv), rv.relname, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", rv.relname);
		return FLOE_ERR;
	}
	md = metadata_copy(t->md, a);
	if (!column) {
		metadata_set_property(md, "comment", cs->comment && cs->comment[0] ? cs->comment : NULL, a);
	} else {
		IcebergSchema *sc;
		const char *col = names[n - 1];
		if (find_column(metadata_current_schema(md), col) < 0)
			return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
					   "column \"%s\" of relation \"%s\" does not exist", col, t->name);
		sc = working_schema(md, a, &changed);
		i = find_column(sc, col);
		sc->fields[i].doc = cs->comment && cs->comment[0] ? arena_strdup(a, cs->comment) : NULL;
	}
	TRY(txn_commit_metadata(s, t, md, a, &out, err));
	return engine_complete(sink, "COMMENT");
}

/* ---- Spark's forms: ALTER COLUMN c COMMENT / FIRST / AFTER, WRITE ... --- */

/* A tiny tokenizer over the clause's original text. */
typedef struct Tok {
	const char *p, *end;
	char kind;          /* 'w' word, 'i' quoted identifier, 's' string, else the char; 0 end */
	const char *t;      /* token start */
	int len;
} Tok;

static void
tok_next(Tok *k)
{
	const char *p = k->p;

	while (p < k->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	k->t = p;
	if (p >= k->end) {
		k->kind = 0;
		k->len = 0;
		k->p = p;
		return;
	}
	if (*p == '\'' || *p == '"') {
		char q = *p;
		k->kind = q == '\'' ? 's' : 'i';
		for (p++; p < k->end; p++)
			if (*p == q) {
				if (p + 1 < k->end && p[1] == q) {
					p++;
					continue;
				}
				break;
			}
		p = p < k->end ? p + 1 : p;
	} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
		   (*p >= '0' && *p <= '9')) {
		k->kind = 'w';
		while (p < k->end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
				      (*p >= '0' && *p <= '9') || *p == '$'))
			p++;
	} else {
		k->kind = *p++;
	}
	k->len = (int)(p - k->t);
	k->p = p;
}

static bool
tok_is(const Tok *k, const char *word)
{
	return k->kind == 'w' && (int)strlen(word) == k->len && !strncasecmp(k->t, word, (size_t)k->len);
}

/* The token as a name / string value (quotes removed, doubled ones undone;
 * a bare word folded to lower case, as PostgreSQL folds identifiers). */
static char *
tok_text(const Tok *k, Arena *a)
{
	char *out = arena_alloc(a, (size_t)k->len + 1), *o = out;
	int i;

	if (k->kind == 'w') {
		for (i = 0; i < k->len; i++)
			*o++ = (char)(k->t[i] >= 'A' && k->t[i] <= 'Z' ? k->t[i] + 32 : k->t[i]);
	} else {
		for (i = 1; i < k->len - 1; i++) {
			*o++ = k->t[i];
			if (k->t[i] == k->t[0] && i + 1 < k->len - 1)
				i++;
		}
	}
	*o = 0;
	return out;
}

static int
ext_syntax(floe_error *err, const Tok *k)
{
	return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "syntax error at or near \"%.*s\"",
			   k->kind ? k->len : 3, k->kind ? k->t : "end");
}

static int
ext_column(ExecCtx *ctx, const Table *t, TableMetadata *md, Tok *k, bool *changed)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	IcebergSchema *sc;
	IcebergField f;
	char *col;
	int i, to;

	tok_next(k);
	if (tok_is(k, "column"))
		tok_next(k);
	if (k->kind != 'w' && k->kind != 'i')
		return ext_syntax(err, k);
	col = tok_text(k, a);
	if ((i = find_column(metadata_current_schema(md), col)) < 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" of relation \"%s\" does not exist", col, t->name);
	tok_next(k);
	if (tok_is(k, "comment")) {
		char *doc;
		tok_next(k);
		if (k->kind != 's' && !tok_is(k, "null"))
			return ext_syntax(err, k);
		doc = k->kind == 's' ? tok_text(k, a) : NULL;
		tok_next(k);
		if (k->kind)
			return ext_syntax(err, k);
		sc = working_schema(md, a, changed);
		sc->fields[i].doc = doc && doc[0] ? doc : NULL;
		return FLOE_OK;
	}
	if (tok_is(k, "first")) {
		to = 0;
		tok_next(k);
	} else if (tok_is(k, "after")) {
		int j;
		tok_next(k);
		if (k->kind != 'w' && k->kind != 'i')
			return ext_syntax(err, k);
		if ((j = find_column(metadata_current_schema(md), tok_text(k, a))) < 0)
			return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
					   "column \"%s\" of relation \"%s\" does not exist", tok_text(k, a), t->name);
		if (j == i)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "cannot move column \"%s\" after itself", col);
		to = j < i ? j + 1 : j;
		tok_next(k);
	} else {
		return ext_syntax(err, k);
	}
	if (k->kind)
		return ext_syntax(err, k);
	if (to == i)
		return FLOE_OK;
	sc = working_schema(md, a, changed);
	f = sc->fields[i];
	if (to < i)
		memmove(&sc->fields[to + 1], &sc->fields[to], sizeof(IcebergField) * (size_t)(i - to));
	else
		memmove(&sc->fields[i], &sc->fields[i + 1], sizeof(IcebergField) * (size_t)(to - i));
	sc->fields[to] = f;
	return FLOE_OK;
}

static bool
same_order(const SortOrder *x, const SortOrder *y)
{
	int i;
	if (x->nfields != y->nfields)
		return false;
	for (i = 0; i < x->nfields; i++)
		if (x->fields[i].source_id != y->fields[i].source_id ||
		    strcmp(x->fields[i].transform, y->fields[i].transform) ||
		    strcmp(x->fields[i].direction, y->fields[i].direction) ||
		    strcmp(x->fields[i].null_order, y->fields[i].null_order))
			return false;
	return true;
}

/* Make order so md's default sort order: an identical one is reused, an
 * unsorted one is id 0 (spec: order id 0 is reserved for unsorted). */
static void
alter_use_sort_order(TableMetadata *md, SortOrder *so, Arena *a)
{
	int i, maxid = 0;
	SortOrder *orders;

	for (i = 0; i < md->nsort_orders; i++) {
		if (same_order(&md->sort_orders[i], so)) {
			md->default_sort_order_id = md->sort_orders[i].order_id;
			return;
		}
		if (md->sort_orders[i].order_id > maxid)
			maxid = md->sort_orders[i].order_id;
	}
	so->order_id = so->nfields == 0 ? 0 : maxid + 1;
	orders = ARENA_ARRAY(a, SortOrder, md->nsort_orders + 1);
	if (md->nsort_orders)
		memcpy(orders, md->sort_orders, sizeof(SortOrder) * (size_t)md->nsort_orders);
	orders[md->nsort_orders++] = *so;
	md->sort_orders = orders;
	md->default_sort_order_id = so->order_id;
}

/* items: term [ASC|DESC] [NULLS FIRST|LAST], ... up to the end of k. */
static int
alter_sort_items(const IcebergSchema *schema, Tok *k, Arena *a, SortOrder *so, floe_error *err)
{
	so->nfields = 0;
	so->fields = ARENA_ARRAY(a, SortField, 64);
	while (k->kind) {
		const char *start = k->t, *stop;
		PartitionTransform tr;
		SortField *sf;
		SqlType rt;
		char *col;
		int depth = 0, c;

		while (k->kind && (depth > 0 || (k->kind != ',' && !tok_is(k, "asc") && !tok_is(k, "desc") &&
						 !tok_is(k, "nulls")))) {
			depth += k->kind == '(' ? 1 : k->kind == ')' ? -1 : 0;
			tok_next(k);
		}
		stop = k->kind ? k->t : k->end;
		if (stop == start || so->nfields == 64)
			return ext_syntax(err, k);
		TRY(partition_parse_term(start, (size_t)(stop - start), a, &tr, &col, err));
		if ((c = find_column(schema, col)) < 0)
			return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
					   "column \"%s\" named in sort order does not exist", col);
		if (schema->fields[c].nested)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "column \"%s\" of a nested type cannot be a sort key", col);
		TRY(partition_transform_type(&tr, schema->fields[c].type, &rt, err));
		sf = &so->fields[so->nfields++];
		sf->source_id = schema->fields[c].id;
		sf->transform = partition_transform_string(&tr, a);
		sf->direction = "asc";
		if (tok_is(k, "asc") || tok_is(k, "desc")) {
			sf->direction = tok_is(k, "desc") ? "desc" : "asc";
			tok_next(k);
		}
		sf->null_order = strcmp(sf->direction, "asc") ? "nulls-last" : "nulls-first";
		if (tok_is(k, "nulls")) {
			tok_next(k);
			if (tok_is(k, "first"))
				sf->null_order = "nulls-first";
			else if (tok_is(k, "last"))
				sf->null_order = "nulls-last";
			else
				return ext_syntax(err, k);
			tok_next(k);
		}
		if (k->kind == ',')
			tok_next(k);
		else if (k->kind)
			return ext_syntax(err, k);
	}
	if (so->nfields == 0)
		return ext_syntax(err, k);
	return FLOE_OK;
}

static int
ext_write(ExecCtx *ctx, TableMetadata *md, Tok *k)
{
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	SortOrder *so = ARENA_NEW(a, SortOrder);
	const char *mode = NULL;

	tok_next(k);
	if (tok_is(k, "unordered")) {
		tok_next(k);
		if (k->kind)
			return ext_syntax(err, k);
		so->fields = ARENA_ARRAY(a, SortField, 1);
		alter_use_sort_order(md, so, a);
		return FLOE_OK;
	}
	if (tok_is(k, "distributed")) {
		tok_next(k);
		if (!tok_is(k, "by"))
			return ext_syntax(err, k);
		tok_next(k);
		if (!tok_is(k, "partition"))
			return ext_syntax(err, k);
		tok_next(k);
		mode = "hash";
		if (!k->kind) {
			metadata_set_property(md, "write.distribution-mode", mode, a);
			return FLOE_OK;
		}
		if (!tok_is(k, "locally"))
			return ext_syntax(err, k);
	}
	if (tok_is(k, "locally")) {
		tok_next(k);
		if (!mode)
			mode = "none";
	}
	if (!tok_is(k, "ordered"))
		return ext_syntax(err, k);
	tok_next(k);
	if (!tok_is(k, "by"))
		return ext_syntax(err, k);
	tok_next(k);
	TRY(alter_sort_items(metadata_current_schema(md), k, a, so, err));
	alter_use_sort_order(md, so, a);
	metadata_set_property(md, "write.distribution-mode", mode ? mode : "range", a);
	return FLOE_OK;
}

/* CREATE TABLE's sort order (ddl.c): text is Spark's clause WRITE
 * [LOCALLY] ORDERED BY ... (write.distribution-mode as ALTER sets it) or
 * the items alone (WITH (sort_order = 'c DESC, d')), made md's default
 * sort order. */
int
alter_create_sort_order(TableMetadata *md, const char *text, int len, Arena *a, floe_error *err)
{
	SortOrder *so = ARENA_NEW(a, SortOrder);
	ExecCtx ctx;
	Tok k;

	k.p = text;
	k.end = text + len;
	tok_next(&k);
	if (tok_is(&k, "write")) {
		memset(&ctx, 0, sizeof ctx);
		ctx.arena = a;
		ctx.err = err;
		return ext_write(&ctx, md, &k);
	}
	TRY(alter_sort_items(metadata_current_schema(md), &k, a, so, err));
	alter_use_sort_order(md, so, a);
	return FLOE_OK;
}

int
alter_ext(Session *s, ExecCtx *ctx, const Table *t, TableMetadata *md, const char *clause, int len,
	  bool *changed)
{
	Tok k;

	(void)s;
	k.p = clause;
	k.end = clause + len;
	tok_next(&k);
	if (tok_is(&k, "alter"))
		return ext_column(ctx, t, md, &k, changed);
	if (tok_is(&k, "write"))
		return ext_write(ctx, md, &k);
	return ext_syntax(ctx->err, &k);
}
