/*
 * usertype.c — enums and domains: CREATE TYPE ... AS ENUM, ALTER TYPE ...
 * ADD VALUE / RENAME VALUE, CREATE DOMAIN, ALTER DOMAIN, DROP TYPE / DROP
 * DOMAIN, and the names of these types where a type is written (usertype.h).
 *
 * Spec: PostgreSQL 15 CREATE TYPE (enum), ALTER TYPE, CREATE DOMAIN,
 * ALTER DOMAIN, DROP TYPE, DROP DOMAIN; "Enumerated Types"; messages and
 * SQLSTATEs as PostgreSQL 15's (commands/typecmds.c, catalog/pg_enum.c,
 * catalog/dependency.c).
 *
 * Stored: one floe_objects row per type (catalog.h obj_put), kind "type",
 * key its name, definition a JSON object:
 *   enum    {"oid": N, "kind": "e", "labels": [...], "orders": [...]}
 *   domain  {"oid": N, "kind": "d", "base": {"id", "p", "s", "k", "m", "u"},
 *            "notnull": b, "nn_name": s, "default": s|null,
 *            "checks": [{"name", "expr", "valid"}]}
 * The OID is chosen at CREATE (a hash of the schema and name, even, the
 * next one the array type's; moved on past one taken) and never changes,
 * so table columns name the type by it (the floe.column.<id>.pg-type
 * property, table.c).  Every statement makes sure the process's registry
 * (types/udt.h) is the catalog's: reloaded after a change here or after
 * UT_RELOAD_MS (another floe node on the same catalog).
 *
 * Invariants:
 *   U1. A label stored in a table is the label text, so a label a column
 *       may hold is never renamed: RENAME VALUE of an enum some column
 *       uses is 0A000 (PostgreSQL stores OIDs and renames freely).
 *   U2. DROP of a type a column uses is 2BP01 (CASCADE: 0A000; floe does
 *       not drop the columns for it).
 * ALTER TYPE / DOMAIN ... RENAME TO keeps the OID (rename_type).
 * Not yet (0A000 naming them): composite, range and base types, domains
 * over an enum, a domain or an array, COLLATE, ALTER TYPE ... OWNER / SET
 * SCHEMA, ALTER DOMAIN ... VALIDATE.
 */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sql/search_path.h"
#include "sql/txn.h"
#include "sql/usertype.h"
#include "table/metadata.h"
#include "types/udt.h"

#define UT_KIND "type"
#define UT_RELOAD_MS 1000
#define LABEL_MAX 63

static pthread_mutex_t load_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t changed_gen = 1, loaded_gen;   /* under load_mu */
static int64_t loaded_ms;
static uint64_t loaded_hash;
static const Catalog *loaded_cat;   /* the registry is one catalog's: another
				       engine's (a test opening several) reloads */

static int64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint32_t
fnv(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static int
refuse(floe_error *err, const char *what)
{
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", what);
}

static const char *
sval(const Node *n)
{
	return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval : NULL;
}

/* ---- definitions -------------------------------------------------------- */

static const char *
dup(UdtSet *set, const char *s)
{
	return s ? arena_strdup(set->a, s) : NULL;
}

static bool
parse_def(UdtSet *set, const char *ns, const char *name, const char *def)
{
	json_error_t je;
	json_t *j = json_loads(def, 0, &je), *x;
	Udt *u;
	size_t i;
	bool ok = false;

	if (!j)
		return false;
	x = json_object_get(j, "kind");
	if (!json_is_string(x) || !json_is_integer(json_object_get(j, "oid")))
		goto out;
	u = udt_add(set);
	u->oid = (uint32_t)json_integer_value(json_object_get(j, "oid"));
	u->kind = json_string_value(x)[0];
	u->ns = dup(set, ns);
	u->name = dup(set, name);
	if (u->kind == 'e') {
		json_t *l = json_object_get(j, "labels"), *o = json_object_get(j, "orders");
		size_t n = json_array_size(l);
		u->labels = ARENA_ARRAY(set->a, const char *, n + 1);
		u->orders = ARENA_ARRAY(set->a, double, n + 1);
		for (i = 0; i < n; i++) {
			u->labels[i] = dup(set, json_string_value(json_array_get(l, i)));
			u->orders[i] = json_number_value(json_array_get(o, i));
			if (!u->labels[i])
				u->labels[i] = "";
		}
		u->nlabels = (int)n;
	} else {
		json_t *b = json_object_get(j, "base"), *c = json_object_get(j, "checks");
		size_t n = json_array_size(c);
		u->base = type_make((TypeId)json_integer_value(json_object_get(b, "id")));
		u->base.precision = (uint8_t)json_integer_value(json_object_get(b, "p"));
		u->base.scale = (uint8_t)json_integer_value(json_object_get(b, "s"));
		u->base.text_kind = (uint8_t)json_integer_value(json_object_get(b, "k"));
		u->base.typmod = (int32_t)json_integer_value(json_object_get(b, "m"));
		u->base.udt = (uint32_t)json_integer_value(json_object_get(b, "u"));
		u->notnull = json_is_true(json_object_get(j, "notnull"));
		u->notnull_name = dup(set, json_string_value(json_object_get(j, "nn_name")));
		u->default_sql = dup(set, json_string_value(json_object_get(j, "default")));
		u->check_names = ARENA_ARRAY(set->a, const char *, n + 1);
		u->check_exprs = ARENA_ARRAY(set->a, const char *, n + 1);
		u->check_valid = ARENA_ARRAY(set->a, bool, n + 1);
		for (i = 0; i < n; i++) {
			json_t *e = json_array_get(c, i);
			u->check_names[i] = dup(set, json_string_value(json_object_get(e, "name")));
			u->check_exprs[i] = dup(set, json_string_value(json_object_get(e, "expr")));
			u->check_valid[i] = !json_is_false(json_object_get(e, "valid"));
			if (!u->check_names[i] || !u->check_exprs[i])
				goto out;
		}
		u->nchecks = (int)n;
	}
	ok = true;
out:
	json_decref(j);
	return ok;
}

static char *
def_text(const Udt *u)
{
	json_t *j = json_object();
	char *s;
	int i;

	json_object_set_new(j, "oid", json_integer(u->oid));
	json_object_set_new(j, "kind", json_string(u->kind == 'e' ? "e" : "d"));
	if (u->kind == 'e') {
		json_t *l = json_array(), *o = json_array();
		for (i = 0; i < u->nlabels; i++) {
			json_array_append_new(l, json_string(u->labels[i]));
			json_array_append_new(o, json_real(u->orders[i]));
		}
		json_object_set_new(j, "labels", l);
		json_object_set_new(j, "orders", o);
	} else {
		json_t *b = json_object(), *c = json_array();
		json_object_set_new(b, "id", json_integer(u->base.id));
		json_object_set_new(b, "p", json_integer(u->base.precision));
		json_object_set_new(b, "s", json_integer(u->base.scale));
		json_object_set_new(b, "k", json_integer(u->base.text_kind));
		json_object_set_new(b, "m", json_integer(u->base.typmod));
		json_object_set_new(b, "u", json_integer(u->base.udt));   /* a domain's, an enum's */
		json_object_set_new(j, "base", b);
		json_object_set_new(j, "notnull", json_boolean(u->notnull));
		if (u->notnull_name)
			json_object_set_new(j, "nn_name", json_string(u->notnull_name));
		json_object_set_new(j, "default", u->default_sql ? json_string(u->default_sql) : json_null());
		for (i = 0; i < u->nchecks; i++) {
			json_t *e = json_object();
			json_object_set_new(e, "name", json_string(u->check_names[i]));
			json_object_set_new(e, "expr", json_string(u->check_exprs[i]));
			json_object_set_new(e, "valid", json_boolean(u->check_valid[i]));
			json_array_append_new(c, e);
		}
		json_object_set_new(j, "checks", c);
	}
	s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(j);
	if (!s)
		abort();
	return s;
}

static int
store(Session *s, const Udt *u, bool replace, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	char *d = def_text(u);
	int rc = c->vt->obj_put(c, u->ns, UT_KIND, u->name, d, replace, err);
	free(d);
	pthread_mutex_lock(&load_mu);
	changed_gen++;
	pthread_mutex_unlock(&load_mu);
	return rc;
}

/* ---- the registry ------------------------------------------------------- */

int
usertype_refresh(Session *s, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	char **nss, **keys, **defs;
	int n, i, rc = FLOE_OK;
	uint32_t h = 2166136261u;
	Arena *a;
	UdtSet *set;

	if (!c->vt->obj_list) {
		if (udt_count() > 0 && loaded_cat != c) {   /* another catalog's types */
			pthread_mutex_lock(&load_mu);
			udt_publish(udt_set_new());
			loaded_cat = c;
			loaded_gen = 0;
			pthread_mutex_unlock(&load_mu);
		}
		return FLOE_OK;
	}
	pthread_mutex_lock(&load_mu);
	if (loaded_gen == changed_gen && loaded_cat == c && now_ms() - loaded_ms < UT_RELOAD_MS) {
		pthread_mutex_unlock(&load_mu);
		return FLOE_OK;
	}
	a = arena_new(0);
	if (c->vt->obj_list(c, UT_KIND, a, &nss, &keys, &defs, &n, err) != FLOE_OK) {
		rc = FLOE_ERR;
		goto out;
	}
	for (i = 0; i < n; i++)
		h = fnv(fnv(fnv(h, nss[i]), keys[i]), defs[i]) * 31u + 7u;
	if (!(loaded_gen && h == loaded_hash && loaded_cat == c)) {
		set = udt_set_new();
		for (i = 0; i < n; i++)
			(void)parse_def(set, nss[i], keys[i], defs[i]);   /* a bad row is skipped */
		udt_publish(set);
		loaded_hash = h;
	}
	loaded_gen = changed_gen;
	loaded_ms = now_ms();
	loaded_cat = c;
out:
	arena_free(a);
	pthread_mutex_unlock(&load_mu);
	return rc;
}

void
usertype_catalog_closed(const Catalog *c)
{
	pthread_mutex_lock(&load_mu);
	if (loaded_cat == c) {
		udt_publish(udt_set_new());
		loaded_cat = NULL;
		loaded_gen = 0;
	}
	pthread_mutex_unlock(&load_mu);
}

static void
changed(void)
{
	pthread_mutex_lock(&load_mu);
	changed_gen++;
	pthread_mutex_unlock(&load_mu);
}

/* A type by its name as written (schema-qualified or on the path). */
static const Udt *
lookup(Session *s, const char *schema, const char *name)
{
	const char *const *path;
	int n, i;

	if (schema)
		return udt_find(schema, name);
	path = search_path_list(s, &n);
	for (i = 0; i < n; i++) {
		const Udt *u = udt_find(path[i], name);
		if (u)
			return u;
	}
	return NULL;
}

bool
usertype_resolve(Session *s, const char *schema, const char *name, SqlType *out)
{
	const Udt *u;

	if (!s)
		return false;
	u = lookup(s, schema, name);
	if (!u)
		return false;
	if (u->kind == 'e') {
		*out = type_enum(u->oid);
	} else {
		*out = type_domain_base(u->base);   /* under every domain */
		out->udt = u->oid;
	}
	return true;
}

/* names of a qualified type: names[n-1] the name, names[n-2] the schema */
static int
split_name(Session *s, Node **names, size_t n, const char **schema, const char **name,
	   floe_error *err)
{
	if (n > 2)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cross-database references are not implemented: %s",
				   sval(names[n - 1]));
	*name = sval(names[n - 1]);
	*schema = n == 2 ? sval(names[0]) : NULL;
	if (!*name)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid type name");
	return FLOE_OK;
}

/* The columns of every table that use the type. */
int
usertype_uses(Session *s, Arena *a, uint32_t oid, UtUse **out, int *nout, floe_error *err)
{
	Catalog *cat = s->engine->catalog;
	char **nss;
	int nns, i, k, f, cap = 8;

	*nout = 0;
	*out = ARENA_ARRAY(a, UtUse, cap);
	TRY(catalog_list_namespaces(cat, a, &nss, &nns, err));
	for (i = 0; i < nns; i++) {
		char **names;
		int nt;
		TRY(catalog_list_tables(cat, nss[i], a, &names, &nt, err));
		for (k = 0; k < nt; k++) {
			Table *t;
			const IcebergSchema *sc;
			TRY(txn_table_load(s, nss[i], names[k], a, &t, err));
			sc = metadata_current_schema(t->md);
			for (f = 0; f < sc->nfields; f++) {
				SqlType ft = sc->fields[f].type;
				if (!ft.udt || !udt_chain_has(ft.udt, oid))   /* or a domain over it */
					continue;
				if (*nout + 1 >= cap) {
					UtUse *m = ARENA_ARRAY(a, UtUse, cap * 2);
					memcpy(m, *out, sizeof *m * (size_t)*nout);
					*out = m;
					cap *= 2;
				}
				(*out)[*nout].t = t;
				(*out)[*nout].table = names[k];
				(*out)[*nout].col = sc->fields[f].name;
				(*nout)++;
			}
		}
	}
	return FLOE_OK;
}

/* ... as "column c of table t" */
static int
users(Session *s, Arena *a, uint32_t oid, const char ***out, int *nout, floe_error *err)
{
	UtUse *u;
	int i;

	TRY(usertype_uses(s, a, oid, &u, nout, err));
	*out = ARENA_ARRAY(a, const char *, *nout + 1);
	for (i = 0; i < *nout; i++)
		(*out)[i] = arena_sprintf(a, "column %s of table %s", u[i].col, u[i].table);
	return FLOE_OK;
}

/* A copy of u the caller may change (arrays in a). */
static Udt
copy_udt(const Udt *u, Arena *a, int extra)
{
	Udt c = *u;
	c.labels = ARENA_ARRAY(a, const char *, u->nlabels + extra + 1);
	c.orders = ARENA_ARRAY(a, double, u->nlabels + extra + 1);
	if (u->nlabels) {
		memcpy(c.labels, u->labels, sizeof *c.labels * (size_t)u->nlabels);
		memcpy(c.orders, u->orders, sizeof *c.orders * (size_t)u->nlabels);
	}
	c.check_names = ARENA_ARRAY(a, const char *, u->nchecks + extra + 1);
	c.check_exprs = ARENA_ARRAY(a, const char *, u->nchecks + extra + 1);
	c.check_valid = ARENA_ARRAY(a, bool, u->nchecks + extra + 1);
	if (u->nchecks) {
		memcpy(c.check_names, u->check_names, sizeof *c.check_names * (size_t)u->nchecks);
		memcpy(c.check_exprs, u->check_exprs, sizeof *c.check_exprs * (size_t)u->nchecks);
		memcpy(c.check_valid, u->check_valid, sizeof *c.check_valid * (size_t)u->nchecks);
	}
	return c;
}

/* ---- CREATE ------------------------------------------------------------- */

static int
new_type(Session *s, ExecCtx *ctx, Node **names, size_t nnames, Udt *u)
{
	const char *schema, *name;
	int i;

	TRY(split_name(s, names, nnames, &schema, &name, ctx->err));
	if (!s->engine->catalog->vt->obj_put)
		return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "user-defined types need a SQL catalog (SQLite or PostgreSQL), not this one");
	if (!schema && !(schema = search_path_creation(s, ctx->err)))
		return FLOE_ERR;
	TRY(usertype_refresh(s, ctx->err));
	if (udt_find(schema, name))
		return floe_errorf(ctx->err, ERRCODE_DUPLICATE_OBJECT, "type \"%s\" already exists", name);
	memset(u, 0, sizeof *u);
	u->ns = schema;
	u->name = name;
	u->oid = 16384 + ((fnv(fnv(2166136261u, schema), name) % 0x3ffff000u) & ~1u);
	for (i = 0; i < 1000 && (udt_get(u->oid) || udt_get(u->oid + 1)); i++)
		u->oid += 2;
	return FLOE_OK;
}

static int
check_label(const char *l, floe_error *err)
{
	if (strlen(l) > LABEL_MAX) {
		floe_errorf(err, ERRCODE_INVALID_NAME, "invalid enum label \"%s\"", l);
		floe_error_detail(err, "Labels must be %d bytes or less.", LABEL_MAX);
		return FLOE_ERR;
	}
	return FLOE_OK;
}

static int
create_enum(Session *s, ExecCtx *ctx, PgQuery__CreateEnumStmt *cs, ResultSink *sink)
{
	Udt u;
	size_t i, k;

	TRY(new_type(s, ctx, cs->type_name, cs->n_type_name, &u));
	u.kind = 'e';
	u.labels = ARENA_ARRAY(ctx->arena, const char *, cs->n_vals + 1);
	u.orders = ARENA_ARRAY(ctx->arena, double, cs->n_vals + 1);
	for (i = 0; i < cs->n_vals; i++) {
		const char *l = sval(cs->vals[i]);
		if (!l)
			return floe_errorf(ctx->err, ERRCODE_SYNTAX_ERROR, "invalid enum label");
		TRY(check_label(l, ctx->err));
		for (k = 0; k < i; k++)
			if (!strcmp(u.labels[k], l))
			{   /* PostgreSQL 15 says it through its catalog's index */
				floe_errorf(ctx->err, ERRCODE_UNIQUE_VIOLATION,
					    "duplicate key value violates unique constraint "
					    "\"pg_enum_typid_label_index\"");
				floe_error_detail(ctx->err, "Key (enumtypid, enumlabel)=(%u, %s) already exists.",
						  u.oid, l);
				return FLOE_ERR;
			}
		u.labels[i] = l;
		u.orders[i] = (double)(i + 1);
	}
	u.nlabels = (int)cs->n_vals;
	TRY(store(s, &u, false, ctx->err));
	return engine_complete(sink, "CREATE TYPE");
}

/* ---- ALTER TYPE (enum) -------------------------------------------------- */

static int
find_type(Session *s, ExecCtx *ctx, Node **names, size_t n, const Udt **out)
{
	const char *schema, *name;

	TRY(split_name(s, names, n, &schema, &name, ctx->err));
	TRY(usertype_refresh(s, ctx->err));
	*out = lookup(s, schema, name);
	if (!*out)
		return floe_errorf(ctx->err, ERRCODE_UNDEFINED_OBJECT, "type \"%s\" does not exist", name);
	return FLOE_OK;
}

static int
alter_enum(Session *s, ExecCtx *ctx, PgQuery__AlterEnumStmt *as, ResultSink *sink)
{
	const Udt *old;
	Udt u;
	const char *nv = as->new_val, *ov = as->old_val;
	int i, at;

	TRY(find_type(s, ctx, as->type_name, as->n_type_name, &old));
	if (old->kind != 'e')
		return floe_errorf(ctx->err, ERRCODE_WRONG_OBJECT_TYPE, "%s is not an enum", old->name);
	u = copy_udt(old, ctx->arena, 1);
	if (ov && ov[0]) {   /* RENAME VALUE ov TO nv */
		const char **cols;
		int ncols;
		if ((at = udt_enum_pos(old, ov, strlen(ov))) < 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "\"%s\" is not an existing enum label", ov);
		if (udt_enum_pos(old, nv, strlen(nv)) >= 0)
			return floe_errorf(ctx->err, ERRCODE_DUPLICATE_OBJECT,
					   "enum label \"%s\" already exists", nv);
		TRY(check_label(nv, ctx->err));
		TRY(users(s, ctx->arena, old->oid, &cols, &ncols, ctx->err));
		if (ncols > 0) {   /* U1 */
			floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "ALTER TYPE ... RENAME VALUE of an enum a column uses is not supported: "
				    "tables store the labels' text");
			floe_error_detail(ctx->err, "%s uses type %s", cols[0], old->name);
			return FLOE_ERR;
		}
		u.labels[at] = nv;
		TRY(store(s, &u, true, ctx->err));
		return engine_complete(sink, "ALTER TYPE");
	}
	if (udt_enum_pos(old, nv, strlen(nv)) >= 0) {
		if (as->skip_if_new_val_exists) {
			engine_notice(sink, "enum label \"%s\" already exists, skipping", nv);
			return engine_complete(sink, "ALTER TYPE");
		}
		return floe_errorf(ctx->err, ERRCODE_DUPLICATE_OBJECT, "enum label \"%s\" already exists",
				   nv);
	}
	TRY(check_label(nv, ctx->err));
	if (as->new_val_neighbor && as->new_val_neighbor[0]) {
		int nb = udt_enum_pos(old, as->new_val_neighbor, strlen(as->new_val_neighbor));
		if (nb < 0)
			return floe_errorf(ctx->err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "\"%s\" is not an existing enum label", as->new_val_neighbor);
		at = as->new_val_is_after ? nb + 1 : nb;
		for (i = old->nlabels; i > at; i--) {
			u.labels[i] = u.labels[i - 1];
			u.orders[i] = u.orders[i - 1];
		}
		u.labels[at] = nv;
		/* PostgreSQL's float4 sort orders (pg_enum.c AddEnumLabel): the
		 * neighbours' midpoint, or one past / before the end; when float4
		 * cannot split them, every label renumbered 1, 2, ... first */
		for (;;) {
			float lo = at > 0 ? (float)u.orders[at - 1] : 0, hi, mid;
			if (at == old->nlabels) {
				mid = lo + 1;
			} else {
				hi = (float)u.orders[at + 1];
				mid = at > 0 ? (float)((lo + hi) / 2) : hi - 1;
				if (at > 0 && (mid == lo || mid == hi)) {
					for (i = 0; i <= old->nlabels; i++)
						if (i != at)
							u.orders[i] = i < at ? i + 1 : i;
					continue;
				}
			}
			u.orders[at] = mid;
			break;
		}
	} else {
		at = old->nlabels;
		u.labels[at] = nv;
		u.orders[at] = at ? (float)(old->orders[at - 1] + 1) : 1;
	}
	u.nlabels = old->nlabels + 1;
	TRY(store(s, &u, true, ctx->err));
	return engine_complete(sink, "ALTER TYPE");
}

/* ---- DROP --------------------------------------------------------------- */

static int
drop_types(Session *s, ExecCtx *ctx, PgQuery__DropStmt *ds, ResultSink *sink)
{
	bool domain = ds->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
	const char *what = domain ? "domain" : "type";
	Catalog *c = s->engine->catalog;
	size_t i;

	if (!c->vt->obj_delete)
		return refuse(ctx->err, "DROP TYPE on this catalog");
	TRY(usertype_refresh(s, ctx->err));
	for (i = 0; i < ds->n_objects; i++) {
		const Node *o = ds->objects[i];
		PgQuery__TypeName *tn = o->node_case == PG_QUERY__NODE__NODE_TYPE_NAME ? o->type_name : NULL;
		const char *schema, *name, **cols;
		const Udt *u;
		int ncols, k;
		bool found;
		if (!tn)
			return refuse(ctx->err, "this DROP TYPE");
		TRY(split_name(s, tn->names, tn->n_names, &schema, &name, ctx->err));
		u = lookup(s, schema, name);
		if (!u) {
			if (ds->missing_ok) {
				engine_notice(sink, "type \"%s\" does not exist, skipping", name);
				continue;
			}
			return floe_errorf(ctx->err, ERRCODE_UNDEFINED_OBJECT, "type \"%s\" does not exist",
					   name);
		}
		if (domain && u->kind != 'd')
			return floe_errorf(ctx->err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a domain", name);
		TRY(users(s, ctx->arena, u->oid, &cols, &ncols, ctx->err));
		{   /* the domains over it (over them ...): 2BP01, or dropped by CASCADE */
			int nt = udt_count(), j, nd = 0;
			const char *detail = "";
			bool cascade = ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
			for (j = 0; j < nt; j++) {
				const Udt *d = udt_at(j);
				if (d->oid == u->oid || !udt_chain_has(d->oid, u->oid))
					continue;
				if (!cascade && d->base.udt != u->oid)
					continue;
				detail = cascade ? arena_sprintf(ctx->arena, "%s%sdrop cascades to type %s", detail,
								 nd ? "\n" : "", d->name) :
					 arena_sprintf(ctx->arena, "%s%stype %s depends on %s %s", detail,
						       nd ? "\n" : "", d->name, what, u->name);
				nd++;
			}
			if (nd > 0 && !cascade && ncols == 0) {
				floe_errorf(ctx->err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
					    "cannot drop %s %s because other objects depend on it", what, u->name);
				floe_error_detail(ctx->err, "%s", detail);
				floe_error_hint(ctx->err, "Use DROP ... CASCADE to drop the dependent objects too.");
				return FLOE_ERR;
			}
			if (nd > 0 && ncols == 0) {
				for (j = nt - 1; j >= 0; j--) {
					const Udt *d = udt_at(j);
					if (d->oid != u->oid && udt_chain_has(d->oid, u->oid))
						TRY(c->vt->obj_delete(c, d->ns, UT_KIND, d->name, &found, ctx->err));
				}
				engine_notice(sink, "%s", nd == 1 ? detail :
					      arena_sprintf(ctx->arena, "drop cascades to %d other objects", nd));
			}
		}
		if (ncols > 0) {   /* U2 */
			char *detail = arena_strdup(ctx->arena, "");
			if (ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
				return floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "DROP %s ... CASCADE of a %s a column uses is not supported "
						   "yet: drop the column first", domain ? "DOMAIN" : "TYPE", what);
			for (k = 0; k < ncols; k++)
				detail = arena_sprintf(ctx->arena, "%s%s%s depends on %s %s", detail,
						       k ? "\n" : "", cols[k], what, u->name);
			floe_errorf(ctx->err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				    "cannot drop %s %s because other objects depend on it", what, u->name);
			floe_error_detail(ctx->err, "%s", detail);
			floe_error_hint(ctx->err, "Use DROP ... CASCADE to drop the dependent objects too.");
			return FLOE_ERR;
		}
		TRY(c->vt->obj_delete(c, u->ns, UT_KIND, u->name, &found, ctx->err));
		changed();
		TRY(usertype_refresh(s, ctx->err));
	}
	return engine_complete(sink, domain ? "DROP DOMAIN" : "DROP TYPE");
}

/* ---- RENAME ------------------------------------------------------------- */

/* ALTER TYPE / DOMAIN t RENAME TO n; ALTER DOMAIN d RENAME CONSTRAINT a TO b.
 * The OID stays, so the columns using the type keep it (their pg-type
 * property's name is only for people). */
static int
rename_type(Session *s, ExecCtx *ctx, PgQuery__RenameStmt *rs, ResultSink *sink)
{
	Catalog *c = s->engine->catalog;
	PgQuery__List *l = rs->object && rs->object->node_case == PG_QUERY__NODE__NODE_LIST ?
			   rs->object->list : NULL;
	bool dom = rs->rename_type != PG_QUERY__OBJECT_TYPE__OBJECT_TYPE;
	const Udt *old;
	Udt u;
	bool found;
	int i;

	if (!l)
		return refuse(ctx->err, "this RENAME");
	TRY(find_type(s, ctx, l->items, l->n_items, &old));
	if (dom && old->kind != 'd')
		return floe_errorf(ctx->err, ERRCODE_WRONG_OBJECT_TYPE, "%s is not a domain", old->name);
	u = copy_udt(old, ctx->arena, 0);
	if (rs->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMCONSTRAINT) {
		int at = -1;
		for (i = 0; i < u.nchecks; i++) {
			if (!strcmp(u.check_names[i], rs->newname))
				return floe_errorf(ctx->err, ERRCODE_DUPLICATE_OBJECT,
						   "constraint \"%s\" for domain \"%s\" already exists",
						   rs->newname, u.name);
			if (!strcmp(u.check_names[i], rs->subname))
				at = i;
		}
		if (at < 0)
			return floe_errorf(ctx->err, ERRCODE_UNDEFINED_OBJECT,
					   "constraint \"%s\" for domain \"%s\" does not exist", rs->subname,
					   u.name);
		u.check_names[at] = rs->newname;
		TRY(store(s, &u, true, ctx->err));
		TRY(usertype_refresh(s, ctx->err));
		return engine_complete(sink, "ALTER DOMAIN");
	}
	if (udt_find(old->ns, rs->newname))
		return floe_errorf(ctx->err, ERRCODE_DUPLICATE_OBJECT, "type \"%s\" already exists",
				   rs->newname);
	u.name = rs->newname;
	TRY(store(s, &u, false, ctx->err));
	TRY(c->vt->obj_delete(c, old->ns, UT_KIND, old->name, &found, ctx->err));
	changed();
	TRY(usertype_refresh(s, ctx->err));
	return engine_complete(sink, dom ? "ALTER DOMAIN" : "ALTER TYPE");
}

/* ---- dispatch ----------------------------------------------------------- */

bool
usertype_owns(const Node *n)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
	case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT:
	case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
	case PG_QUERY__NODE__NODE_ALTER_DOMAIN_STMT:
		return true;
	case PG_QUERY__NODE__NODE_DROP_STMT:
		return n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TYPE ||
		       n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN;
	case PG_QUERY__NODE__NODE_RENAME_STMT:
		return n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TYPE ||
		       n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN ||
		       n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMCONSTRAINT;
	default:
		return false;
	}
}

int
usertype_exec(Session *s, ExecCtx *ctx, const char *sql, Node *n, ResultSink *sink)
{
	switch (n->node_case) {
	case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
		return create_enum(s, ctx, n->create_enum_stmt, sink);
	case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT:
		return alter_enum(s, ctx, n->alter_enum_stmt, sink);
	case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT:
		return usertype_create_domain(s, ctx, sql, n->create_domain_stmt, sink);
	case PG_QUERY__NODE__NODE_ALTER_DOMAIN_STMT:
		return usertype_alter_domain(s, ctx, sql, n->alter_domain_stmt, sink);
	case PG_QUERY__NODE__NODE_DROP_STMT:
		return drop_types(s, ctx, n->drop_stmt, sink);
	case PG_QUERY__NODE__NODE_RENAME_STMT:
		return rename_type(s, ctx, n->rename_stmt, sink);
	default:
		return refuse(ctx->err, "this statement");
	}
}

/* ---- for domain.c and the catalog --------------------------------------- */

int
usertype_new(Session *s, ExecCtx *ctx, Node **names, size_t nnames, Udt *u)
{
	return new_type(s, ctx, names, nnames, u);
}

int
usertype_find(Session *s, ExecCtx *ctx, Node **names, size_t nnames, const Udt **out)
{
	return find_type(s, ctx, names, nnames, out);
}

Udt
usertype_copy(const Udt *u, Arena *a, int extra)
{
	return copy_udt(u, a, extra);
}

int
usertype_store(Session *s, const Udt *u, bool replace, floe_error *err)
{
	TRY(store(s, u, replace, err));
	return usertype_refresh(s, err);
}

int
usertype_users(Session *s, Arena *a, uint32_t oid, const char ***cols, int *n, floe_error *err)
{
	return users(s, a, oid, cols, n, err);
}
