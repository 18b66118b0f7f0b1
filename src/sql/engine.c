/*
 * engine.c — the Engine (a warehouse: FileIO + Catalog) and Sessions;
 * statement dispatch; DDL; INSERT and CREATE TABLE AS.
 *
 * Warehouse layout (embedded default):
 *   <warehouse>/catalog.db                 SQLite catalog (Iceberg JDBC schema)
 *   <warehouse>/path-maps                  prefix maps of registered tables
 *   <warehouse>/<schema>/<table>/metadata  metadata JSON, manifests
 *   <warehouse>/<schema>/<table>/data      Parquet data files
 *
 * Every INSERT / CREATE TABLE AS is one Iceberg commit (txn_commit):
 * data files are written first, then the commit swaps the metadata
 * location in the catalog; a statement that fails before the swap removes
 * the files it wrote and leaves the table as it was.  INSERT OVERWRITE
 * (parse.c recognises it) is the same commit removing every live file.
 * INSERT ... RETURNING evaluates its list on each written batch and sends
 * the rows after the commit (dml.c's Returning).
 *
 * DDL: CREATE TABLE [WITH (props)] with NOT NULL / DEFAULT / PRIMARY KEY
 * (identifier-field-ids), CREATE TABLE AS, ALTER TABLE SET / RESET of
 * table properties (checked when set: create_options / check_property),
 * DROP, CREATE / DROP SCHEMA.
 *
 * INTERFACE ROUTINES (engine.h)
 *   engine_open, engine_close, session_new, session_free, session_exec,
 *   engine_list_tables, engine_describe_table
 * (bind.h)
 *   insert_source(s, ctx, sql, insert_stmt, t, &root)   INSERT's rows, coerced
 *   insert_describe(s, ctx, sql, insert_stmt, &returning)
 *   bind_coerce_column, bind_default_expr, engine_write_rows
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "func/func.h"
#include "sql/bind.h"
#include "sql/txn.h"
#include "table/data_writer.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/cast.h"
#include "types/datetime.h"
#include "types/text.h"

/* ---- engine ------------------------------------------------------------ */

static int
mkdir_p(const char *path, floe_error *err)
{
	char buf[4096];
	size_t i, n = strlen(path);

	if (n >= sizeof buf)
		return floe_errorf(err, ERRCODE_IO_ERROR, "path too long: %s", path);
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] == '/' || buf[i] == 0) {
			char c = buf[i];
			buf[i] = 0;
			if (mkdir(buf, 0755) != 0 && errno != EEXIST)
				return floe_errorf(err, ERRCODE_IO_ERROR,
						   "could not create directory \"%s\": %s", buf, strerror(errno));
			buf[i] = c;
		}
	}
	return FLOE_OK;
}

static void
load_path_maps(Engine *e)
{
	char *p = NULL;
	FILE *f;
	char line[8192];

	if (asprintf(&p, "%s/path-maps", e->warehouse) < 0)
		return;
	f = fopen(p, "r");
	free(p);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (!tab)
			continue;
		*tab = 0;
		fileio_map_prefix(e->io, line, tab + 1);
	}
	fclose(f);
}

static int
add_path_map(Engine *e, const char *from, const char *to, floe_error *err)
{
	char *p = NULL;
	FILE *f;

	if (strchr(from, '\t') || strchr(from, '\n') || strchr(to, '\t') || strchr(to, '\n'))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "path maps cannot contain tabs or newlines");
	if (asprintf(&p, "%s/path-maps", e->warehouse) < 0)
		return floe_errorf(err, ERRCODE_OUT_OF_MEMORY, "out of memory");
	f = fopen(p, "a");
	free(p);
	if (!f)
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not write path maps: %s", strerror(errno));
	fprintf(f, "%s\t%s\n", from, to);
	if (fclose(f) != 0)
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not write path maps: %s", strerror(errno));
	fileio_map_prefix(e->io, from, to);
	return FLOE_OK;
}

int
engine_open(Engine **out, const EngineConfig *config, floe_error *err)
{
	Engine *e;
	char *db = NULL;
	char real[4096];
	char uri_line[2048] = "";      /* catalog choice (txn engineer) */
	const char *uri;
	bool exists;

	TRY(mkdir_p(config->warehouse, err));
	if (!realpath(config->warehouse, real))
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not resolve \"%s\": %s",
				   config->warehouse, strerror(errno));
	e = xcalloc(1, sizeof *e);
	e->warehouse = xstrdup(real);
	e->io = fileio_local_new(e->warehouse);
	/* ---- catalog choice (txn engineer): see EngineConfig.catalog_uri */
	uri = config->catalog_uri;
	if (!uri || !*uri)
		uri = getenv("FLOE_CATALOG");
	if ((!uri || !*uri) && asprintf(&db, "%s/catalog-uri", e->warehouse) >= 0) {
		FILE *f = fopen(db, "r");
		free(db);
		db = NULL;
		if (f) {
			if (fgets(uri_line, sizeof uri_line, f))
				uri_line[strcspn(uri_line, "\r\n")] = 0;
			fclose(f);
			uri = uri_line;
		}
	}
	if (asprintf(&db, "%s/catalog.db", e->warehouse) < 0)
		abort();
	if ((uri && *uri ? catalog_pg_open(&e->catalog, uri, config->catalog_name, err)
	     : catalog_sqlite_open(&e->catalog, db, config->catalog_name ? config->catalog_name : "floe",
				   err)) != FLOE_OK) {
		/* ---- end of catalog choice */
		free(db);
		fileio_free(e->io);
		free(e->warehouse);
		free(e);
		return FLOE_ERR;
	}
	free(db);
	if (catalog_namespace_exists(e->catalog, "public", &exists, err) != FLOE_OK ||
	    (!exists && catalog_create_namespace(e->catalog, "public", err) != FLOE_OK)) {
		engine_close(e);
		return FLOE_ERR;
	}
	load_path_maps(e);
	*out = e;
	return FLOE_OK;
}

void
engine_close(Engine *e)
{
	if (!e)
		return;
	catalog_close(e->catalog);
	fileio_free(e->io);
	free(e->warehouse);
	free(e);
}

Session *
session_new(Engine *e)
{
	Session *s = xcalloc(1, sizeof *s);
	s->engine = e;
	s->search_path = xstrdup("public");
	s->cancel_flag = &s->cancel;
	return s;
}

void
session_set_identity(Session *s, const char *user, const char *database)
{
	free(s->user);
	free(s->database);
	s->user = user && user[0] ? xstrdup(user) : NULL;
	s->database = database && database[0] ? xstrdup(database) : NULL;
}

void
session_set_cancel_flag(Session *s, volatile int *flag)
{
	s->cancel_flag = flag ? flag : &s->cancel;
}

void
session_free(Session *s)
{
	int i;
	if (!s)
		return;
	txn_session_free(s);
	free(s->user);
	free(s->database);
	for (i = 0; i < s->nsettings; i++) {
		free(s->settings_keys[i]);
		free(s->settings_values[i]);
	}
	free(s->search_path);
	free(s);
}

/* ---- results ----------------------------------------------------------- */

static int
run_plan(Session *s, ExecCtx *ctx, SelectPlan *p, ResultSink *sink, int64_t *rows)
{
	Batch *b;
	int rc = FLOE_OK;

	*rows = 0;
	if (sink && sink->columns &&
	    sink->columns(sink->ctx, p->ncols, (const char *const *)p->names, p->types) != 0)
		return floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	if (op_open(p->root) != FLOE_OK) {
		op_close(p->root);
		return FLOE_ERR;
	}
	for (;;) {
		if (op_next(p->root, &b) != FLOE_OK) {
			rc = FLOE_ERR;
			break;
		}
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		*rows += b->count;
		if (sink && sink->batch && sink->batch(sink->ctx, b) != 0) {
			rc = floe_errorf(ctx->err, ERRCODE_QUERY_CANCELED,
					 "canceling statement due to user request");
			break;
		}
	}
	op_close(p->root);
	(void)s;
	return rc;
}

static int
complete(ResultSink *sink, const char *tag)
{
	if (sink && sink->complete)
		sink->complete(sink->ctx, tag);
	return FLOE_OK;
}

static void
notice(ResultSink *sink, const char *fmt, const char *arg)
{
	floe_error n;
	if (!sink || !sink->notice)
		return;
	floe_errorf(&n, "00000", fmt, arg);
	sink->notice(sink->ctx, &n);
}

/* ---- DDL --------------------------------------------------------------- */

static const char *
rv_ns(Session *s, PgQuery__RangeVar *rv)
{
	return rv->schemaname && rv->schemaname[0] ? rv->schemaname : s->search_path;
}

static int
exec_create_schema(Session *s, PgQuery__CreateSchemaStmt *cs, ResultSink *sink, floe_error *err)
{
	bool exists;
	Catalog *cat = s->engine->catalog;

	if (cs->n_schema_elts)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "CREATE SCHEMA with elements is not supported yet");
	TRY(catalog_namespace_exists(cat, cs->schemaname, &exists, err));
	if (exists) {
		if (cs->if_not_exists) {
			notice(sink, "schema \"%s\" already exists, skipping", cs->schemaname);
			return complete(sink, "CREATE SCHEMA");
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_SCHEMA, "schema \"%s\" already exists",
				   cs->schemaname);
	}
	TRY(catalog_create_namespace(cat, cs->schemaname, err));
	return complete(sink, "CREATE SCHEMA");
}

static int
check_namespace(Session *s, const char *ns, floe_error *err)
{
	bool exists;
	TRY(catalog_namespace_exists(s->engine->catalog, ns, &exists, err));
	if (!exists)
		return floe_errorf(err, ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", ns);
	return FLOE_OK;
}

/* A constant DEFAULT kept as SQL text: 'text'::type. */
static char *
default_text(BindCtx *b, Node *raw, SqlType type, const char *col)
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
	if (expr_has_colref(e) || e->kind != EXPR_CONST) {
		floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "only constant DEFAULT values are supported yet (column \"%s\")", col);
		return NULL;
	}
	v = e->value;
	if (v.is_null)
		return arena_strdup(b->arena, "NULL");
	txt = value_to_text(&v, b->arena, &len);
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

static int create_options(Session *s, const IcebergSchema *schema, Node **opts, size_t n, Arena *a,
			  const char ***keys, const char ***values, int *nprops,
			  int *format_version, floe_error *err);
static int set_format_version(Session *s, Table **t, int version, Arena *a, floe_error *err);

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
static int
exec_create_table(Session *s, const char *sql, PgQuery__CreateStmt *cs, Arena *a, ResultSink *sink,
		  floe_error *err)
{
	const char *ns = rv_ns(s, cs->relation), *name = cs->relation->relname;
	IcebergSchema schema;
	BindCtx b;
	Table *t;
	size_t i, j;
	int nf = 0, nprops, fv;
	Engine *e = s->engine;
	const char **keys, **values;
	bool has_pk = false;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = a;
	b.err = err;
	b.sql = sql;
	b.where = "DEFAULT expressions";
	if (cs->n_inh_relations || cs->partbound || cs->partspec || cs->of_typename)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "INHERITS / PARTITION BY / OF type are not supported yet");
	if (cs->relation->relpersistence && cs->relation->relpersistence[0] == 't')
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "temporary tables are not supported yet");
	TRY(check_namespace(s, ns, err));
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
		TRY(bind_type_name(&b, cd->type_name, &f->type));
		if (f->type.id == TYPE_DECIMAL && f->type.precision == 0)
			f->type.scale = NUMERIC_DEFAULT_SCALE;   /* stored as decimal(38,10) */
		f->required = cd->is_not_null;
		for (j = 0; j < cd->n_constraints; j++) {
			PgQuery__Constraint *c = cd->constraints[j]->constraint;
			switch (c->contype) {
			case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL:
				f->required = true;
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_NULL:
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
				if (!(f->default_sql = default_text(&b, c->raw_expr, f->type, f->name)))
					return FLOE_ERR;
				break;
			case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY:
				if (has_pk)
					goto multiple_pk;
				schema.nfields = nf;
				TRY(add_key_column(&schema, nf - 1, name, err));
				has_pk = true;
				break;
			default:
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "column constraints other than NOT NULL, DEFAULT and PRIMARY KEY are not supported yet");
			}
		}
	}
	schema.nfields = nf;
	for (i = 0; i < cs->n_table_elts; i++) {
		PgQuery__Constraint *c;
		if (cs->table_elts[i]->node_case != PG_QUERY__NODE__NODE_CONSTRAINT)
			continue;
		c = cs->table_elts[i]->constraint;
		if (c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "table constraints other than PRIMARY KEY (UNIQUE, CHECK, FOREIGN KEY) are not supported yet");
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
	TRY(create_options(s, &schema, cs->options, cs->n_options, a, &keys, &values, &nprops, &fv,
			   err));
	if (table_load(e->catalog, e->io, ns, name, a, &t, err) == FLOE_OK) {
		if (cs->if_not_exists) {
			notice(sink, "relation \"%s\" already exists, skipping", name);
			return complete(sink, "CREATE TABLE");
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	}
	floe_error_clear(err);
	TRY(table_create(e->catalog, e->io, NULL, ns, name, &schema, keys, values, nprops, a, &t,
			 err));
	if (set_format_version(s, &t, fv, a, err) != FLOE_OK) {
		floe_error keep = *err, ignore;
		table_drop(e->catalog, e->io, ns, name, true, &ignore);
		*err = keep;
		return FLOE_ERR;
	}
	return complete(sink, "CREATE TABLE");
multiple_pk:
	return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
			   "multiple primary keys for table \"%s\" are not allowed", name);
}

static int
exec_drop(Session *s, PgQuery__DropStmt *ds, Arena *a, ResultSink *sink, floe_error *err)
{
	Engine *e = s->engine;
	size_t i;

	if (ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) {
		for (i = 0; i < ds->n_objects; i++) {
			PgQuery__List *l = ds->objects[i]->list;
			const char *ns = l->n_items == 2 ? l->items[0]->string->sval : s->search_path;
			const char *name = l->items[l->n_items - 1]->string->sval;
			Table *t;
			if (l->n_items > 2)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "cross-database references are not implemented");
			if (table_load(e->catalog, e->io, ns, name, a, &t, err) != FLOE_OK) {
				if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
					return FLOE_ERR;
				if (ds->missing_ok) {
					floe_error_clear(err);
					notice(sink, "table \"%s\" does not exist, skipping", name);
					continue;
				}
				return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "table \"%s\" does not exist", name);
			}
			TRY(table_drop(e->catalog, e->io, ns, name, true, err));
		}
		return complete(sink, "DROP TABLE");
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
					notice(sink, "schema \"%s\" does not exist, skipping", ns);
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
			for (k = 0; k < n; k++)
				TRY(table_drop(e->catalog, e->io, ns, names[k], true, err));
			TRY(catalog_drop_namespace(e->catalog, ns, err));
		}
		return complete(sink, "DROP SCHEMA");
	}
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this DROP is not supported yet");
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

/* Check one property (not format-version) before it is stored. */
static int
check_property(Session *s, const IcebergSchema *schema, const char *k, const char *v,
	       Arena *a, floe_error *err)
{
	if (is_mode_key(k)) {
		if (!strcmp(v, "copy-on-write") || !strcmp(v, "merge-on-read"))
			return FLOE_OK;
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for table property \"%s\": \"%s\"", k, v);
		return floe_error_hint(err, "Valid values are \"copy-on-write\" and \"merge-on-read\".");
	}
	if (!strncmp(k, "floe.column.", 12))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "table property \"%s\" is reserved", k);
	if (!strncmp(k, "write.", 6)) {
		/* the data writer's own check (it ignores keys it does not use) */
		DataWriter *w = data_writer_new(s->engine->io, "/nonexistent", schema, 0, a);
		int rc = data_writer_set_property(w, k, v, err);
		data_writer_free(w);
		return rc;
	}
	return FLOE_OK;
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

/* CREATE TABLE's WITH list: checked properties and the format version
 * (2 when not given). */
static int
create_options(Session *s, const IcebergSchema *schema, Node **opts, size_t n, Arena *a,
	       const char ***keys, const char ***values, int *nprops, int *format_version,
	       floe_error *err)
{
	size_t i;
	int j;

	*keys = ARENA_ARRAY(a, const char *, n + 1);
	*values = ARENA_ARRAY(a, const char *, n + 1);
	*nprops = 0;
	*format_version = 2;
	for (i = 0; i < n; i++) {
		PgQuery__DefElem *de = opts[i]->def_elem;
		const char *k, *v;

		if (de->defnamespace && de->defnamespace[0])
			k = arena_sprintf(a, "%s.%s", de->defnamespace, de->defname);
		else
			k = de->defname;
		TRY(option_text(de, a, &v, err));
		if (!strcmp(k, "format-version")) {
			TRY(parse_format_version(v, format_version, err));
			continue;
		}
		TRY(check_property(s, schema, k, v, a, err));
		for (j = 0; j < *nprops; j++)
			if (!strcmp((*keys)[j], k))
				break;
		(*keys)[j] = k;
		(*values)[j] = v;
		if (j == *nprops)
			(*nprops)++;
	}
	return FLOE_OK;
}

/* A freshly created table moved to another format version (table_create
 * makes version 2): a metadata-only commit before anything is written. */
static int
set_format_version(Session *s, Table **t, int version, Arena *a, floe_error *err)
{
	TableMetadata *md;

	if ((*t)->md->format_version == version)
		return FLOE_OK;
	md = metadata_copy((*t)->md, a);
	md->format_version = version;
	if (version >= 3 && !md->has_next_row_id) {
		md->has_next_row_id = true;
		md->next_row_id = 0;
	}
	return table_commit_metadata(s->engine->catalog, s->engine->io, *t, md, a, t, err);
}

/*
 * ALTER TABLE [IF EXISTS] t SET (k = v, ...) | RESET (k, ...) — also
 * SET TBLPROPERTIES / UNSET TBLPROPERTIES — one metadata commit
 * (txn_commit_metadata).  'format-version' may be raised (1 -> 2 -> 3),
 * never lowered or reset.  Other ALTER TABLE forms are 0A000.
 */
static int
exec_alter_table(Session *s, ExecCtx *ctx, const char *sql, PgQuery__AlterTableStmt *as,
		 ResultSink *sink)
{
	const char *ns = rv_ns(s, as->relation), *name = as->relation->relname;
	floe_error *err = ctx->err;
	Arena *a = ctx->arena;
	TableMetadata *md;
	Table *t, *out;
	size_t i, k;

	if (as->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this ALTER is not supported yet");
	for (i = 0; i < as->n_cmds; i++) {
		PgQuery__AlterTableCmd *c = as->cmds[i]->alter_table_cmd;
		if (c->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_SetRelOptions &&
		    c->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "ALTER TABLE supports only SET (...) / RESET (...) of table properties yet");
	}
	if (txn_table_load(s, ns, name, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE)) {
			BindCtx b;
			if (as->missing_ok) {
				floe_error_clear(err);
				notice(sink, "relation \"%s\" does not exist, skipping", name);
				return complete(sink, "ALTER TABLE");
			}
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
			memset(&b, 0, sizeof b);
			b.sql = sql;
			floe_error_position(err, bind_location(&b, as->relation->location));
		}
		return FLOE_ERR;
	}
	md = metadata_copy(t->md, a);
	for (i = 0; i < as->n_cmds; i++) {
		PgQuery__AlterTableCmd *c = as->cmds[i]->alter_table_cmd;
		bool reset = c->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ResetRelOptions;
		PgQuery__List *l = c->def && c->def->node_case == PG_QUERY__NODE__NODE_LIST ?
			c->def->list : NULL;

		for (k = 0; l && k < l->n_items; k++) {
			PgQuery__DefElem *de = l->items[k]->def_elem;
			const char *key = de->defnamespace && de->defnamespace[0] ?
				arena_sprintf(a, "%s.%s", de->defnamespace, de->defname) : de->defname;
			const char *v;
			int fv;

			if (!strcmp(key, "format-version")) {
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
				if (!strncmp(key, "floe.column.", 12))
					return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
							   "table property \"%s\" is reserved", key);
				metadata_set_property(md, key, NULL, a);
				continue;
			}
			TRY(option_text(de, a, &v, err));
			TRY(check_property(s, metadata_current_schema(md), key, v, a, err));
			metadata_set_property(md, key, v, a);
		}
	}
	TRY(txn_commit_metadata(s, t, md, a, &out, err));
	return complete(sink, "ALTER TABLE");
}

/* ---- INSERT ------------------------------------------------------------ */

/* Assignment coercion of e to a column; integers going to floats must be
 * exact (floe's rule: a BIGINT above 2^53 is rejected, not rounded). */
Expr *
bind_coerce_column(BindCtx *b, Expr *e, const IcebergField *f)
{
	if (type_is_integer(e->type.id) && !e->unknown_literal &&
	    (f->type.id == TYPE_FLOAT32 || f->type.id == TYPE_FLOAT64)) {
		Expr *c = expr_cast(b->arena, e, f->type, CAST_EXACT_FLOAT);
		if (bind_fold(b, &c) != FLOE_OK)
			return NULL;
		return c;
	}
	return bind_coerce(b, e, f->type, 1 /* COERCE_ASSIGNMENT */, f->name);
}

Expr *
bind_default_expr(BindCtx *b, const IcebergField *f)
{
	Node *n;
	Expr *e;
	Value nv;

	if (!f->default_sql) {
		nv = value_null(f->type);
		return expr_const(b->arena, &nv);
	}
	if (sql_parse_expr(f->default_sql, b->arena, &n, b->err) != FLOE_OK)
		return NULL;
	{
		const char *saved = b->sql;
		Scope *sc = b->scope;
		b->sql = NULL;
		b->scope = NULL;
		e = bind_expr(b, n);
		b->sql = saved;
		b->scope = sc;
	}
	if (!e)
		return NULL;
	return bind_coerce_column(b, e, f);
}

static void
row_detail(floe_error *err, const Batch *b, uint32_t row, Arena *a)
{
	char buf[900];
	size_t used = 0;
	int c;

	used += (size_t)snprintf(buf + used, sizeof buf - used, "Failing row contains (");
	for (c = 0; c < b->ncols && used < sizeof buf - 8; c++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[c], row, a, &len);
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%.*s", c ? ", " : "",
					 t ? (int)(len > 200 ? 200 : len) : 4, t ? t : "null");
	}
	if (used < sizeof buf - 2)
		snprintf(buf + used, sizeof buf - used, ").");
	floe_error_detail(err, "%s", buf);
}

/* Write the rows of `root` (one column per schema field, in order) into
 * table t as one append commit (overwrite: one commit that also removes
 * every live data file, INSERT OVERWRITE; hook (may be NULL) sees each batch once
 * its NOT NULL checks passed, before it is written. */
static int
write_rows(Session *s, ExecCtx *ctx, Table *t, Operator *root, bool overwrite,
	   int (*hook)(void *, const Batch *), void *hook_arg, int64_t *rows)
{
	Engine *e = s->engine;
	const IcebergSchema *schema = metadata_current_schema(t->md);
	char *data_dir = table_data_dir(t, ctx->arena);
	DataWriter *w = data_writer_new(e->io, data_dir, schema, 0, ctx->arena);
	DataFile *files;
	int nfiles, c, rc = FLOE_ERR;
	const TableMetadata *md = t->md;
	Batch *b;
	Table *out;
	char job[64];

	*rows = 0;
	for (c = 0; c < md->nproperties; c++)   /* write.* table properties */
		if (!strncmp(md->properties[c].key, "write.", 6) &&
		    data_writer_set_property(w, md->properties[c].key, md->properties[c].value,
					     ctx->err) != FLOE_OK)
			goto fail;
	if (op_open(root) != FLOE_OK)
		goto fail;
	for (;;) {
		if (op_next(root, &b) != FLOE_OK)
			goto fail;
		if (!b)
			break;
		if (!b->count)
			continue;
		batch_compact(b);
		for (c = 0; c < schema->nfields; c++) {
			uint32_t i;
			if (!schema->fields[c].required)
				continue;
			for (i = 0; i < b->count; i++)
				if (!vector_is_valid(&b->cols[c], i)) {
					floe_errorf(ctx->err, ERRCODE_NOT_NULL_VIOLATION,
						    "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
						    schema->fields[c].name, t->name);
					row_detail(ctx->err, b, i, ctx->arena);
					goto fail;
				}
		}
		if (hook && hook(hook_arg, b) != FLOE_OK)
			goto fail;
		if (data_writer_write(w, b, ctx->err) != FLOE_OK)
			goto fail;
		*rows += b->count;
	}
	op_close(root);
	root = NULL;
	if (data_writer_finish(w, &files, &nfiles, ctx->err) != FLOE_OK)
		goto fail;
	if (*rows > 0 || (overwrite && t->md->has_current_snapshot)) {
		snprintf(job, sizeof job, "floe-%lx-%lx", (long)time(NULL), (long)random());
		TableChange ch;
		memset(&ch, 0, sizeof ch);
		ch.add = files;
		ch.nadd = *rows > 0 ? nfiles : 0;
		ch.remove_all = overwrite;
		ch.job_id = job;
		if (txn_commit(s, t, &ch, ctx->arena, &out, ctx->err) != FLOE_OK) {
			/* the commit removed nothing it wrote; our data files are ours */
			int k;
			floe_error ignore;
			for (k = 0; k < nfiles; k++)
				fileio_remove(e->io, files[k].file_path, &ignore);
			data_writer_free(w);
			return FLOE_ERR;
		}
		if (*rows == 0)
			goto no_rows;
	} else {
		int k;
		floe_error ignore;
no_rows:
		for (k = 0; k < nfiles; k++)
			fileio_remove(e->io, files[k].file_path, &ignore);
	}
	rc = FLOE_OK;
	data_writer_free(w);
	return rc;
fail:
	if (root)
		op_close(root);
	data_writer_abort(w);
	data_writer_free(w);
	return FLOE_ERR;
}

/* Target k of a plain SELECT when it is an untyped literal (NULL or a
 * quoted string), else NULL. */
static Node *
select_literal(PgQuery__SelectStmt *sel, int k)
{
	Node *v;

	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sel->n_values_lists ||
	    k >= (int)sel->n_target_list ||
	    sel->target_list[k]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
		return NULL;
	v = sel->target_list[k]->res_target->val;
	if (!v || v->node_case != PG_QUERY__NODE__NODE_A_CONST)
		return NULL;
	if (v->a_const->isnull || v->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL)
		return v;
	return NULL;
}

/*
 * The rows an INSERT adds, as an operator producing one column per field of
 * t's current schema, in order: the VALUES lists / SELECT / DEFAULT VALUES
 * of `is`, coerced to the target columns (assignment casts), the columns
 * not listed filled with their DEFAULT (or NULL).  NOT NULL is not checked
 * here (write_rows does it as rows are written).  is->on_conflict_clause,
 * RETURNING and WITH are ignored: the caller handles them.
 */
int
insert_source(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, Table *t,
	      Operator **root)
{
	floe_error *err = ctx->err;
	const IcebergSchema *schema;
	int *target;              /* schema field -> source column, or -1 */
	int ntarget, i, k;
	int *tcols;
	BindCtx b;

	schema = metadata_current_schema(t->md);
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = err;
	b.sql = sql;
	b.where = "VALUES";

	/* target column list */
	target = ARENA_ARRAY(ctx->arena, int, schema->nfields + 1);
	tcols = ARENA_ARRAY(ctx->arena, int, schema->nfields + is->n_cols + 1);
	for (i = 0; i < schema->nfields; i++)
		target[i] = -1;
	if (is->n_cols) {
		ntarget = (int)is->n_cols;
		for (k = 0; k < ntarget; k++) {
			PgQuery__ResTarget *rt = is->cols[k]->res_target;
			int found = -1;
			if (rt->n_indirection)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "INSERT into subfields is not supported");
			for (i = 0; i < schema->nfields; i++)
				if (!strcmp(schema->fields[i].name, rt->name))
					found = i;
			if (found < 0) {
				floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
					    "column \"%s\" of relation \"%s\" does not exist", rt->name, t->name);
				floe_error_position(err, bind_location(&b, rt->location));
				return FLOE_ERR;
			}
			if (target[found] >= 0) {
				floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
					    "column \"%s\" specified more than once", rt->name);
				floe_error_position(err, bind_location(&b, rt->location));
				return FLOE_ERR;
			}
			target[found] = k;
			tcols[k] = found;
		}
	} else {
		ntarget = schema->nfields;
		for (i = 0; i < schema->nfields; i++) {
			target[i] = i;
			tcols[i] = i;
		}
	}

	if (!is->select_stmt) {
		/* INSERT ... DEFAULT VALUES */
		Expr ***rows1 = ARENA_ARRAY(ctx->arena, Expr **, 1);
		SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, schema->nfields + 1);
		rows1[0] = ARENA_ARRAY(ctx->arena, Expr *, schema->nfields + 1);
		for (i = 0; i < schema->nfields; i++) {
			types[i] = schema->fields[i].type;
			if (!(rows1[0][i] = bind_default_expr(&b, &schema->fields[i])))
				return FLOE_ERR;
		}
		*root = values_new(ctx, schema->nfields, types, 1, rows1);
	} else {
		PgQuery__SelectStmt *sel = is->select_stmt->select_stmt;
		bool plain_values = sel->n_values_lists && !sel->n_sort_clause && !sel->limit_count &&
			!sel->limit_offset && !sel->with_clause && !is->with_clause;

		if (plain_values) {
			int nrows = (int)sel->n_values_lists, r;
			Expr ***rows2 = ARENA_ARRAY(ctx->arena, Expr **, nrows);
			SqlType *types = ARENA_ARRAY(ctx->arena, SqlType, schema->nfields + 1);
			Expr **defaults = ARENA_ARRAY(ctx->arena, Expr *, schema->nfields + 1);

			for (i = 0; i < schema->nfields; i++) {
				types[i] = schema->fields[i].type;
				if (!(defaults[i] = bind_default_expr(&b, &schema->fields[i])))
					return FLOE_ERR;
			}
			for (r = 0; r < nrows; r++) {
				PgQuery__List *l = sel->values_lists[r]->list;
				if ((int)l->n_items > ntarget) {
					floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						    "INSERT has more expressions than target columns");
					return FLOE_ERR;
				}
				if (r > 0 && l->n_items != sel->values_lists[0]->list->n_items) {
					floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						    "VALUES lists must all be the same length");
					return FLOE_ERR;
				}
				rows2[r] = ARENA_ARRAY(ctx->arena, Expr *, schema->nfields + 1);
				for (i = 0; i < schema->nfields; i++)
					rows2[r][i] = defaults[i];
				for (k = 0; k < (int)l->n_items; k++) {
					const IcebergField *f = &schema->fields[tcols[k]];
					Expr *x;
					if (l->items[k]->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
						continue;
					if (!(x = bind_expr(&b, l->items[k])) ||
					    !(x = bind_coerce_column(&b, x, f)))
						return FLOE_ERR;
					rows2[r][tcols[k]] = x;
				}
			}
			*root = values_new(ctx, schema->nfields, types, nrows, rows2);
		} else {
			SelectPlan p;
			Expr **proj = ARENA_ARRAY(ctx->arena, Expr *, schema->nfields + 1);

			if (is->with_clause) {
				/* WITH ... INSERT: the CTEs are the source query's (the
				 * parse tree is restored: its free walks it) */
				size_t k2;
				int rc;
				for (k2 = 0; k2 < is->with_clause->n_ctes; k2++) {
					Node *q = is->with_clause->ctes[k2]->common_table_expr->ctequery;
					if (!q || q->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
						return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
								   "data-modifying statements in WITH are not supported yet");
				}
				if (sel->with_clause)
					return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
							   "WITH on both INSERT and its SELECT is not supported yet");
				sel->with_clause = is->with_clause;
				rc = select_plan(s, ctx, sql, is->select_stmt, &p);
				sel->with_clause = NULL;
				TRY(rc);
			} else {
				TRY(select_plan(s, ctx, sql, is->select_stmt, &p));
			}
			if (p.ncols > ntarget)
				return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						   "INSERT has more expressions than target columns");
			for (i = 0; i < schema->nfields; i++) {
				const IcebergField *f = &schema->fields[i];
				Node *lit;
				if (target[i] >= 0 && target[i] < p.ncols &&
				    (lit = select_literal(sel, target[i]))) {
					/* an untyped literal (NULL, 'text') takes the
					 * column's type, as in PostgreSQL */
					Expr *x = bind_expr(&b, lit);
					if (!x || !(proj[i] = bind_coerce_column(&b, x, f)))
						return FLOE_ERR;
				} else if (target[i] >= 0 && target[i] < p.ncols) {
					Expr *x = expr_colref(ctx->arena, target[i], p.types[target[i]]);
					if (!(proj[i] = bind_coerce_column(&b, x, f)))
						return FLOE_ERR;
				} else if (!(proj[i] = bind_default_expr(&b, f))) {
					return FLOE_ERR;
				}
			}
			*root = project_new(ctx, p.root, schema->nfields, proj);
		}
	}
	return FLOE_OK;
}

/* An operator's batches, passed to a hook as write_rows writes them. */
typedef struct InsertReturning {
	Returning ret;
	ExecCtx *ctx;
	Arena *scratch;
} InsertReturning;

static int
insert_returning_hook(void *arg, const Batch *b)
{
	InsertReturning *ir = arg;

	arena_reset(ir->scratch);
	return dml_returning_rows(&ir->ret, ir->ctx, b, NULL, b->count, ir->scratch);
}

/* The table an INSERT names, with PostgreSQL's 42P01 message. */
static int
insert_table(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, Table **t)
{
	const char *ns = rv_ns(s, is->relation), *name = is->relation->relname;
	BindCtx b;

	if (txn_table_load(s, ns, name, ctx->arena, t, ctx->err) == FLOE_OK)
		return FLOE_OK;
	if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE)) {
		floe_errorf(ctx->err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
		memset(&b, 0, sizeof b);
		b.sql = sql;
		floe_error_position(ctx->err, bind_location(&b, is->relation->location));
	}
	return FLOE_ERR;
}

/* Bind INSERT's RETURNING list over t's columns (alias or table name). */
static int
insert_bind_returning(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is,
		      Table *t, Returning *r)
{
	BindCtx b;

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = ctx->err;
	b.sql = sql;
	b.exec = ctx;
	return dml_returning_bind(r, &b, metadata_current_schema(t->md),
			      is->relation->alias ? is->relation->alias->aliasname :
			      is->relation->relname,
			      is->returning_list, (int)is->n_returning_list);
}

/* RETURNING columns of an INSERT for Describe (dml_describe). */
int
insert_describe(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, Returning *r)
{
	Table *t;

	memset(r, 0, sizeof *r);
	if (!is->n_returning_list)
		return FLOE_OK;
	TRY(insert_table(s, ctx, sql, is, &t));
	return insert_bind_returning(s, ctx, sql, is, t, r);
}

/*
 * INSERT [OVERWRITE] ... [RETURNING]: one commit; OVERWRITE (floe's, as
 * Spark's / Hive's INSERT OVERWRITE TABLE) replaces every row of the table
 * with the source's in one snapshot (operation "overwrite"; "delete" when
 * the source is empty).
 */
static int
exec_insert(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, bool overwrite,
	    ResultSink *sink)
{
	floe_error *err = ctx->err;
	Table *t;
	Operator *root;
	int64_t rows;
	char tag[64];
	InsertReturning ir;
	int rc;

	if (is->on_conflict_clause && overwrite)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "INSERT OVERWRITE cannot have ON CONFLICT");
	if (is->on_conflict_clause)
		return merge_insert(s, ctx, sql, is, sink);
	TRY(insert_table(s, ctx, sql, is, &t));
	if (!overwrite && metadata_current_schema(t->md)->nidentifier > 0)
		return merge_insert(s, ctx, sql, is, sink);   /* PRIMARY KEY: 23505 (merge.c) */
	memset(&ir, 0, sizeof ir);
	if (is->n_returning_list)
		TRY(insert_bind_returning(s, ctx, sql, is, t, &ir.ret));
	TRY(insert_source(s, ctx, sql, is, t, &root));
	if (!is->n_returning_list) {
		TRY(write_rows(s, ctx, t, root, overwrite, NULL, NULL, &rows));
	} else {
		ir.ctx = ctx;
		ir.scratch = arena_new(64 * 1024);
		rc = write_rows(s, ctx, t, root, overwrite, insert_returning_hook, &ir, &rows);
		arena_free(ir.scratch);
		TRY(rc);
		TRY(dml_returning_send(&ir.ret, ctx, sink));   /* only after the commit */
	}
	snprintf(tag, sizeof tag, "INSERT 0 %lld", (long long)rows);
	return complete(sink, tag);
}

static int
exec_ctas(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CreateTableAsStmt *cs, ResultSink *sink)
{
	Engine *e = s->engine;
	PgQuery__IntoClause *into = cs->into;
	const char *ns = rv_ns(s, into->rel), *name = into->rel->relname;
	floe_error *err = ctx->err;
	SelectPlan p;
	IcebergSchema schema;
	Table *t;
	int i;
	int64_t rows;
	char tag[64];
	Expr **proj;

	if (cs->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "materialized views are not supported yet");
	TRY(check_namespace(s, ns, err));
	if (txn_table_load(s, ns, name, ctx->arena, &t, err) == FLOE_OK) {
		if (cs->if_not_exists) {
			notice(sink, "relation \"%s\" already exists, skipping", name);
			return complete(sink, "CREATE TABLE AS");
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	}
	floe_error_clear(err);
	TRY(select_plan(s, ctx, sql, cs->query, &p));
	memset(&schema, 0, sizeof schema);
	schema.nfields = p.ncols;
	schema.fields = ARENA_ARRAY(ctx->arena, IcebergField, p.ncols + 1);
	proj = ARENA_ARRAY(ctx->arena, Expr *, p.ncols + 1);
	for (i = 0; i < p.ncols; i++) {
		schema.fields[i].name = (size_t)i < into->n_col_names ?
			into->col_names[i]->string->sval : p.names[i];
		schema.fields[i].type = p.types[i];
		if (p.types[i].id == TYPE_NULL)
			schema.fields[i].type = type_make(TYPE_TEXT);
		if (p.types[i].id == TYPE_DECIMAL && p.types[i].precision == 0)
			schema.fields[i].type = type_decimal(0, NUMERIC_DEFAULT_SCALE);
		proj[i] = expr_cast(ctx->arena, expr_colref(ctx->arena, i, p.types[i]),
				    schema.fields[i].type, 0);
	}
	for (i = 0; i < p.ncols; i++) {
		int j;
		for (j = 0; j < i; j++)
			if (!strcmp(schema.fields[i].name, schema.fields[j].name))
				return floe_errorf(err, ERRCODE_DUPLICATE_COLUMN,
						   "column \"%s\" specified more than once", schema.fields[i].name);
	}
	{
		const char **keys, **values;
		int nprops, fv;
		TRY(create_options(s, &schema, into->options, into->n_options, ctx->arena, &keys,
				   &values, &nprops, &fv, err));
		TRY(table_create(e->catalog, e->io, NULL, ns, name, &schema, keys, values, nprops,
				 ctx->arena, &t, err));
		if (set_format_version(s, &t, fv, ctx->arena, err) != FLOE_OK) {
			floe_error keep = *err, ignore;
			table_drop(e->catalog, e->io, ns, name, true, &ignore);
			*err = keep;
			return FLOE_ERR;
		}
	}
	if (into->skip_data) {
		rows = 0;
	} else if (write_rows(s, ctx, t, project_new(ctx, p.root, p.ncols, proj), false, NULL, NULL,
			      &rows) != FLOE_OK) {
		floe_error keep = *err;
		floe_error ignore;
		table_drop(e->catalog, e->io, ns, name, true, &ignore);
		*err = keep;
		return FLOE_ERR;
	}
	snprintf(tag, sizeof tag, "SELECT %lld", (long long)rows);
	return complete(sink, tag);
}

/* ---- CALL, SET, SHOW --------------------------------------------------- */


static int
exec_call(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CallStmt *cs, ResultSink *sink)
{
	PgQuery__FuncCall *f = cs->funccall;
	const char *name = f->funcname[f->n_funcname - 1]->string->sval;
	floe_error *err = ctx->err;
	char *args[4] = { NULL, NULL, NULL, NULL };
	static const char *const argnames[4] = { "table", "metadata_file", "map_from", "map_to" };
	BindCtx b;
	size_t i;
	Engine *e = s->engine;
	char *ns, *tbl, *dot;

	if (!strcmp(name, "rewrite_data_files") || !strcmp(name, "rewrite_position_delete_files"))
		return optimize_call(s, ctx, sql, cs, sink);
	if (!strcmp(name, "rollback_to_snapshot") || !strcmp(name, "set_current_snapshot") ||
	    !strcmp(name, "rollback_to_timestamp"))
		return metatable_call(s, ctx, sql, cs, sink);
	if (strcmp(name, "register_table") != 0)
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION, "procedure %s does not exist", name);
	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = err;
	b.sql = sql;
	b.where = "CALL";
	for (i = 0; i < f->n_args; i++) {
		Node *n = f->args[i];
		int slot = (int)i;
		Expr *x;
		Value v;
		if (n->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
			int k;
			slot = -1;
			for (k = 0; k < 4; k++)
				if (!strcmp(n->named_arg_expr->name, argnames[k]))
					slot = k;
			if (slot < 0)
				return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
						   "register_table has no argument named \"%s\"",
						   n->named_arg_expr->name);
			n = n->named_arg_expr->arg;
		}
		if (slot >= 4)
			return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
					   "register_table takes at most 4 arguments");
		if (!(x = bind_expr(&b, n)) || !(x = bind_coerce(&b, x, type_make(TYPE_TEXT), 1, NULL)))
			return FLOE_ERR;
		TRY(expr_eval_const(x, ctx->arena, &v, err));
		if (v.is_null)
			return floe_errorf(err, ERRCODE_NULL_VALUE_NOT_ALLOWED, "register_table arguments must not be NULL");
		args[slot] = arena_strndup(ctx->arena, strview_data(&v.u.s), v.u.s.len);
	}
	if (!args[0] || !args[1])
		return floe_errorf(err, ERRCODE_UNDEFINED_FUNCTION,
				   "register_table(table, metadata_file [, map_from, map_to]) needs a table name and a metadata file");
	if (!args[2] != !args[3])
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "map_from and map_to go together");
	ns = s->search_path;
	tbl = args[0];
	if ((dot = strchr(args[0], '.'))) {
		*dot = 0;
		ns = args[0];
		tbl = dot + 1;
	}
	TRY(check_namespace(s, ns, err));
	if (args[2])
		TRY(add_path_map(e, args[2], args[3], err));
	TRY(table_register(e->catalog, e->io, ns, tbl, args[1], err));
	return complete(sink, "CALL");
}

static const char *
setting_get(Session *s, const char *name)
{
	int i;
	if (!strcmp(name, "search_path"))
		return s->search_path;
	if (!strcmp(name, "timezone"))
		return datetime_timezone_name();
	for (i = 0; i < s->nsettings; i++)
		if (!strcmp(s->settings_keys[i], name))
			return s->settings_values[i];
	if (!strcmp(name, "datestyle"))
		return "ISO, MDY";
	if (!strcmp(name, "server_version"))
		return "15.0";
	if (!strcmp(name, "client_encoding") || !strcmp(name, "server_encoding"))
		return "UTF8";
	if (!strcmp(name, "standard_conforming_strings"))
		return "on";
	if (!strcmp(name, "transaction_isolation"))
		return "read committed";
	if (!strcmp(name, "extra_float_digits"))
		return "1";
	return NULL;
}

static int
exec_set(Session *s, ExecCtx *ctx, PgQuery__VariableSetStmt *vs, ResultSink *sink)
{
	floe_error *err = ctx->err;
	char value[512] = "";
	size_t i, used = 0;
	int k;

	if (vs->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE &&
	    vs->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT &&
	    vs->kind != PG_QUERY__VARIABLE_SET_KIND__VAR_RESET)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "this form of SET is not supported yet");
	for (i = 0; i < vs->n_args; i++) {
		Node *n = vs->args[i];
		const char *part = "";
		char num[64];
		if (n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
			PgQuery__AConst *c = n->a_const;
			if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL)
				part = c->sval->sval;
			else if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
				snprintf(num, sizeof num, "%d", c->ival->ival);
				part = num;
			} else if (c->val_case == PG_QUERY__A__CONST__VAL_FVAL)
				part = c->fval->fval;
		} else if (n->node_case == PG_QUERY__NODE__NODE_STRING) {
			part = n->string->sval;
		}
		used += (size_t)snprintf(value + used, sizeof value - used, "%s%s", i ? ", " : "", part);
		if (used >= sizeof value)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE, "setting value too long");
	}
	if (!strcmp(vs->name, "timezone")) {
		TRY(datetime_set_timezone(vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ? value : "UTC", err));
		return complete(sink, vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET" : "SET");
	}
	if (!strcmp(vs->name, "search_path")) {
		char *first = vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ? value : "public";
		char *comma = strchr(first, ',');
		if (comma)
			*comma = 0;
		free(s->search_path);
		s->search_path = xstrdup(first);
		return complete(sink, vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET" : "SET");
	}
	for (k = 0; k < s->nsettings; k++)
		if (!strcmp(s->settings_keys[k], vs->name))
			break;
	if (k == s->nsettings) {
		if (k == 32)
			return floe_errorf(err, ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many settings");
		s->settings_keys[k] = xstrdup(vs->name);
		s->settings_values[k] = NULL;
		s->nsettings++;
	}
	free(s->settings_values[k]);
	s->settings_values[k] = xstrdup(vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_VALUE ? value : "");
	return complete(sink, vs->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET" : "SET");
}

static int
exec_show(Session *s, ExecCtx *ctx, PgQuery__VariableShowStmt *vs, ResultSink *sink)
{
	const char *v = setting_get(s, vs->name);
	const char *names[1];
	SqlType t = type_make(TYPE_TEXT);
	Batch *b;

	if (!v)
		return floe_errorf(ctx->err, ERRCODE_UNDEFINED_OBJECT,
				   "unrecognized configuration parameter \"%s\"", vs->name);
	names[0] = !strcmp(vs->name, "timezone") ? "TimeZone" :
		!strcmp(vs->name, "datestyle") ? "DateStyle" : vs->name;
	b = batch_new(ctx->arena, 1, &t, 1);
	vector_set_string(&b->cols[0], 0, v, (uint32_t)strlen(v));
	b->count = 1;
	if (sink && sink->columns)
		sink->columns(sink->ctx, 1, names, &t);
	if (sink && sink->batch)
		sink->batch(sink->ctx, b);
	return complete(sink, "SHOW");
}

/* ---- dispatch ---------------------------------------------------------- */

static int
exec_stmt(Session *s, const char *sql, SqlStmt *st, Arena *a, ResultSink *sink, floe_error *err)
{
	ExecCtx ctx;
	Node *n = st->node;

	{
		/* now() / current_timestamp are the statement's start time */
		struct timespec ts;
		int64_t us;
		clock_gettime(CLOCK_REALTIME, &ts);
		us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
		func_set_statement_time(us);
		datetime_set_statement_now(us);
	}
	memset(&ctx, 0, sizeof ctx);
	ctx.arena = a;
	ctx.io = s->engine->io;
	ctx.err = err;
	ctx.cancel = s->cancel_flag;

	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_SELECT_STMT: {
		SelectPlan p;
		int64_t rows;
		char tag[64];
		TRY(select_plan(s, &ctx, sql, n, &p));
		TRY(run_plan(s, &ctx, &p, sink, &rows));
		snprintf(tag, sizeof tag, "SELECT %lld", (long long)rows);
		return complete(sink, tag);
	}
	case PG_QUERY__NODE__NODE_INSERT_STMT:
		return exec_insert(s, &ctx, sql, n->insert_stmt, sql_is_insert_overwrite(sql, st),
				   sink);
	case PG_QUERY__NODE__NODE_CREATE_STMT:
		return exec_create_table(s, sql, n->create_stmt, a, sink, err);
	case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
		return exec_ctas(s, &ctx, sql, n->create_table_as_stmt, sink);
	case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
		return exec_alter_table(s, &ctx, sql, n->alter_table_stmt, sink);
	case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
		return exec_create_schema(s, n->create_schema_stmt, sink, err);
	case PG_QUERY__NODE__NODE_DROP_STMT:
		return exec_drop(s, n->drop_stmt, a, sink, err);
	case PG_QUERY__NODE__NODE_CALL_STMT:
		return exec_call(s, &ctx, sql, n->call_stmt, sink);
	case PG_QUERY__NODE__NODE_VACUUM_STMT:   /* OPTIMIZE (optimize.c) */
		return optimize_stmt(s, &ctx, sql, st, n->vacuum_stmt, sink);
	case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
		return exec_set(s, &ctx, n->variable_set_stmt, sink);
	case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
		return exec_show(s, &ctx, n->variable_show_stmt, sink);
	case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
		return txn_exec(s, &ctx, n->transaction_stmt, sink);
	case PG_QUERY__NODE__NODE_UPDATE_STMT:
		return dml_update(s, &ctx, sql, n->update_stmt, sink);
	case PG_QUERY__NODE__NODE_DELETE_STMT:
		return dml_delete(s, &ctx, sql, n->delete_stmt, sink);
	case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
		return dml_truncate(s, &ctx, sql, n->truncate_stmt, sink);
	case PG_QUERY__NODE__NODE_MERGE_STMT:
		return merge_exec(s, &ctx, sql, n->merge_stmt, sink);
	case PG_QUERY__NODE__NODE_COPY_STMT:
		return copy_exec(s, &ctx, sql, n->copy_stmt, sink);
	case PG_QUERY__NODE__NODE_EXPLAIN_STMT: {
		/* select_plan plans EXPLAIN [ANALYZE] into one text column */
		SelectPlan p;
		int64_t rows;
		TRY(select_plan(s, &ctx, sql, n, &p));
		TRY(run_plan(s, &ctx, &p, sink, &rows));
		return complete(sink, "EXPLAIN");
	}
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "this statement is not supported yet");
	}
}

int
session_exec(Session *s, const char *sql, ResultSink *sink, floe_error *err)
{
	Arena *parse_arena = arena_new(64 * 1024);
	SqlStmt *stmts;
	int n, i, rc = FLOE_OK;

	floe_error_clear(err);
	s->cancel = 0;
	if (sql_parse(sql, parse_arena, &stmts, &n, err) != FLOE_OK) {
		arena_free(parse_arena);
		txn_after_statement(s, false);     /* a syntax error fails a block too */
		return FLOE_ERR;
	}
	if (n == 0 && sink && sink->complete)
		sink->complete(sink->ctx, "");
	for (i = 0; i < n && rc == FLOE_OK; i++) {
		Arena *a = arena_new(256 * 1024);
		int attempt;
		for (attempt = 0;; attempt++) {
			rc = txn_before_statement(s, stmts[i].node, sink, err);
			if (rc == FLOE_OK)
				rc = exec_stmt(s, sql, &stmts[i], a, sink, err);
			/* READ COMMITTED re-runs an autocommit statement that lost
			 * a write conflict (nothing of it was sent or committed) */
			if (rc == FLOE_OK || !txn_retry_statement(s, err, attempt))
				break;
			arena_reset(a);
			floe_error_clear(err);
		}
		txn_after_statement(s, rc == FLOE_OK);
		arena_free(a);
	}
	arena_free(parse_arena);
	return rc;
}

/* ---- introspection for the shell -------------------------------------- */

int
engine_list_tables(Session *s, Arena *a, TableInfo **tables, int *n, floe_error *err)
{
	Catalog *cat = s->engine->catalog;
	char **nss;
	int nns, i, k, cap = 16;

	*n = 0;
	*tables = ARENA_ARRAY(a, TableInfo, cap);
	TRY(catalog_list_namespaces(cat, a, &nss, &nns, err));
	for (i = 0; i < nns; i++) {
		char **names;
		int nt;
		TRY(catalog_list_tables(cat, nss[i], a, &names, &nt, err));
		for (k = 0; k < nt; k++) {
			if (*n == cap) {
				*tables = arena_realloc(a, *tables, sizeof(TableInfo) * (size_t)cap,
							sizeof(TableInfo) * (size_t)cap * 2);
				cap *= 2;
			}
			(*tables)[*n].schema = nss[i];
			(*tables)[*n].name = names[k];
			(*n)++;
		}
	}
	return FLOE_OK;
}

int
engine_describe_table(Session *s, const char *qname, Arena *a, ColumnInfo **cols, int *n,
		      floe_error *err)
{
	Engine *e = s->engine;
	const char *ns = s->search_path, *name = qname, *dot = strchr(qname, '.');
	Table *t;
	const IcebergSchema *schema;
	int i;

	if (dot) {
		ns = arena_strndup(a, qname, (size_t)(dot - qname));
		name = dot + 1;
	}
	if (table_load(e->catalog, e->io, ns, name, a, &t, err) != FLOE_OK) {
		if (floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "Did not find any relation named \"%s\".", qname);
		return FLOE_ERR;
	}
	schema = metadata_current_schema(t->md);
	*n = schema->nfields;
	*cols = ARENA_ARRAY(a, ColumnInfo, schema->nfields + 1);
	for (i = 0; i < schema->nfields; i++) {
		(*cols)[i].name = schema->fields[i].name;
		(*cols)[i].type = schema->fields[i].type;
		(*cols)[i].not_null = schema->fields[i].required;
		(*cols)[i].default_sql = schema->fields[i].default_sql;
	}
	return FLOE_OK;
}

/* ==== pgwire support (server/): parameters and Describe ===================
 * session_exec_params, session_describe, engine_type_from_pg_oid,
 * session_setting.  The
 * parameters live in the Session only for the duration of the call;
 * bind_expr.c's ParamRef case reads them (Session.nparams ...). */

int
engine_type_from_pg_oid(uint32_t oid, SqlType *out, floe_error *err)
{
	switch (oid) {
	case 16: *out = type_make(TYPE_BOOL); return FLOE_OK;
	case 21: *out = type_make(TYPE_INT16); return FLOE_OK;
	case 23: *out = type_make(TYPE_INT32); return FLOE_OK;
	case 20: *out = type_make(TYPE_INT64); return FLOE_OK;
	case 700: *out = type_make(TYPE_FLOAT32); return FLOE_OK;
	case 701: *out = type_make(TYPE_FLOAT64); return FLOE_OK;
	case 1700: *out = type_decimal(0, 0); return FLOE_OK;
	case 19:   /* name */
	case 25: *out = type_make(TYPE_TEXT); return FLOE_OK;
	case 1043:
		*out = type_make(TYPE_TEXT);
		out->text_kind = TEXT_VARCHAR;
		return FLOE_OK;
	case 1042:
		*out = type_make(TYPE_TEXT);
		out->text_kind = TEXT_CHAR;
		return FLOE_OK;
	case 17: *out = type_make(TYPE_BYTEA); return FLOE_OK;
	case 1082: *out = type_make(TYPE_DATE); return FLOE_OK;
	case 1083: *out = type_make(TYPE_TIME); return FLOE_OK;
	case 1114: *out = type_make(TYPE_TIMESTAMP); return FLOE_OK;
	case 1184: *out = type_make(TYPE_TIMESTAMPTZ); return FLOE_OK;
	case 1186: *out = type_make(TYPE_INTERVAL); return FLOE_OK;
	case 2950: *out = type_make(TYPE_UUID); return FLOE_OK;
	default:
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "parameters of type OID %u are not supported yet", oid);
	}
}

static int
check_param_oids(int nparams, const uint32_t *oids, floe_error *err)
{
	int i;
	SqlType t;
	for (i = 0; oids && i < nparams; i++)
		if (oids[i] != 0 && oids[i] != 705 && engine_type_from_pg_oid(oids[i], &t, err) != FLOE_OK)
			return FLOE_ERR;
	return FLOE_OK;
}

int
session_exec_params(Session *s, const char *sql, int nparams, const char *const *values,
		    const uint32_t *param_oids, ResultSink *sink, floe_error *err)
{
	int rc;

	floe_error_clear(err);
	if (nparams < 0 || check_param_oids(nparams, param_oids, err) != FLOE_OK)
		return nparams < 0 ? floe_errorf(err, ERRCODE_PROTOCOL_VIOLATION, "negative parameter count")
				   : FLOE_ERR;
	s->nparams = nparams;
	s->param_values = values;
	s->param_oids = param_oids;
	s->params_describe = false;
	rc = session_exec(s, sql, sink, err);
	s->nparams = 0;
	s->param_values = NULL;
	s->param_oids = NULL;
	return rc;
}

int
session_describe(Session *s, const char *sql, int nparams, const uint32_t *param_oids,
		 Arena *out_arena, SqlDescription *out, floe_error *err)
{
	Arena *a;
	SqlStmt *stmts;
	int n, rc = FLOE_OK, i;

	memset(out, 0, sizeof *out);
	out->ncols = -1;
	floe_error_clear(err);
	TRY(check_param_oids(nparams, param_oids, err));
	a = arena_new(64 * 1024);
	if (sql_parse(sql, a, &stmts, &n, err) != FLOE_OK) {
		arena_free(a);
		return FLOE_ERR;
	}
	out->nstmts = n;
	if (n > 1) {
		arena_free(a);
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR,
				   "cannot insert multiple commands into a prepared statement");
	}
	if (n == 1 && stmts[0].node->node_case == PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT) {
		/* one text column named as exec_show names it */
		const char *name = stmts[0].node->variable_show_stmt->name;
		if (!setting_get(s, name)) {
			floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
			arena_free(a);
			return FLOE_ERR;
		}
		out->ncols = 1;
		out->names = ARENA_ARRAY(out_arena, char *, 1);
		out->types = ARENA_ARRAY(out_arena, SqlType, 1);
		out->names[0] = arena_strdup(out_arena, !strcmp(name, "timezone") ? "TimeZone" :
					     !strcmp(name, "datestyle") ? "DateStyle" : name);
		out->types[0] = type_make(TYPE_TEXT);
	}
	if (n == 1)   /* OPTIMIZE / CALL rewrite_*: one metrics row (optimize.c) */
		optimize_describe(sql, &stmts[0], out_arena, &out->ncols, &out->names, &out->types);
	if (n == 1 && (stmts[0].node->node_case == PG_QUERY__NODE__NODE_SELECT_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_EXPLAIN_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_DELETE_STMT ||
		       stmts[0].node->node_case == PG_QUERY__NODE__NODE_INSERT_STMT)) {
		ExecCtx ctx;
		SelectPlan p;
		PgQuery__Node__NodeCase nc = stmts[0].node->node_case;
		bool dml = nc != PG_QUERY__NODE__NODE_SELECT_STMT && nc != PG_QUERY__NODE__NODE_EXPLAIN_STMT;
		/* FOR UPDATE/SHARE are optimistic table locks txn.c takes when the
		 * statement runs; they do not change the result's shape */
		PgQuery__SelectStmt *sel = nc == PG_QUERY__NODE__NODE_SELECT_STMT
					   ? stmts[0].node->select_stmt : NULL;
		size_t nlock = sel ? sel->n_locking_clause : 0;

		memset(&ctx, 0, sizeof ctx);
		ctx.arena = a;
		ctx.io = s->engine->io;
		ctx.err = err;
		ctx.cancel = s->cancel_flag;
		s->nparams = nparams;
		s->param_values = NULL;
		s->param_oids = param_oids;
		s->params_describe = true;
		if (dml)
			rc = dml_describe(s, &ctx, sql, stmts[0].node, &p.ncols, &p.names, &p.types);
		else {
			if (sel)
				sel->n_locking_clause = 0;
			rc = select_plan(s, &ctx, sql, stmts[0].node, &p);
			if (sel)
				sel->n_locking_clause = nlock;
		}
		s->nparams = 0;
		s->param_oids = NULL;
		s->params_describe = false;
		if (rc == FLOE_OK && p.ncols >= 0) {
			out->ncols = p.ncols;
			out->names = ARENA_ARRAY(out_arena, char *, p.ncols + 1);
			out->types = ARENA_ARRAY(out_arena, SqlType, p.ncols + 1);
			for (i = 0; i < p.ncols; i++) {
				out->names[i] = arena_strdup(out_arena, p.names[i]);
				out->types[i] = p.types[i];
			}
		}
	}
	arena_free(a);
	return rc;
}

const char *
session_setting(Session *s, const char *name)
{
	return setting_get(s, name);
}

/* COPY FROM (copy.c) writes through the INSERT path. */
int
engine_write_rows(Session *s, ExecCtx *ctx, struct Table *t, Operator *root, int64_t *rows)
{
	return write_rows(s, ctx, t, root, false, NULL, NULL, rows);
}
