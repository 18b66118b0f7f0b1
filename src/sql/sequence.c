/*
 * sequence.c — sequences: CREATE / ALTER / DROP SEQUENCE and nextval,
 * currval, setval, lastval (sequence.h for the model).
 *
 * Spec: PostgreSQL 15 docs "CREATE SEQUENCE", "ALTER SEQUENCE", "Sequence
 * Manipulation Functions"; the option rules and messages are those of
 * PostgreSQL's commands/sequence.c init_params / nextval_internal /
 * do_setval (read, not copied).
 *
 * Reservation (seq_next): the catalog row holds last_value, the last
 * value any node reserved, and is_called.  A node without cached values
 * reads the row, computes the next up to CACHE values (stopping at a
 * bound; CYCLE wraps on the next reservation), and swaps the row to
 * last_value = the range's end with a version compare-and-swap; a lost
 * race reads again.  So two nodes never hold overlapping ranges.  The
 * per-node cache (Engine.seq_cache) is dropped for a sequence when this
 * node ALTERs, setvals or DROPs it; other nodes finish their cached range
 * first, as other sessions do in PostgreSQL.
 *
 * Session state (Session.seq): currval per sequence and the last one used
 * (lastval).
 *
 * INTERFACE ROUTINES (sequence.h)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "func/func.h"
#include "sql/acl.h"
#include "sql/pgcatalog.h"
#include "sql/sequence.h"
#include "sql/temp.h"
#include "sql/serial.h"
#include "sql/txn.h"
#include "table/metadata.h"
#include "table/table.h"
#include "types/cast.h"
#include "types/text.h"

/* ---- per-node cache and per-session values ------------------------------ */

typedef struct SeqCacheEnt {
	char *ns, *name;
	int64_t next, inc, left;     /* left values next, next+inc, ... */
	struct SeqCacheEnt *nx;
} SeqCacheEnt;

typedef struct SeqCache {
	pthread_mutex_t mu;
	SeqCacheEnt *head;
} SeqCache;

typedef struct SeqVal {
	char *ns, *name;
	int64_t last;
	struct SeqVal *nx;
} SeqVal;

typedef struct SeqSession {
	SeqVal *vals;
	SeqVal *last_used;    /* lastval's sequence, or NULL */
} SeqSession;

static pthread_mutex_t cache_init_mu = PTHREAD_MUTEX_INITIALIZER;

static SeqCache *
engine_cache(Engine *e)
{
	SeqCache *c;

	pthread_mutex_lock(&cache_init_mu);
	if (!e->seq_cache) {
		c = xcalloc(1, sizeof *c);
		pthread_mutex_init(&c->mu, NULL);
		e->seq_cache = c;
	}
	c = e->seq_cache;
	pthread_mutex_unlock(&cache_init_mu);
	return c;
}

/* c->mu held */
static SeqCacheEnt *
cache_find(SeqCache *c, const char *ns, const char *name, bool make)
{
	SeqCacheEnt *x;

	for (x = c->head; x; x = x->nx)
		if (!strcmp(x->ns, ns) && !strcmp(x->name, name))
			return x;
	if (!make)
		return NULL;
	x = xcalloc(1, sizeof *x);
	x->ns = xstrdup(ns);
	x->name = xstrdup(name);
	x->nx = c->head;
	c->head = x;
	return x;
}

static void
cache_forget(Engine *e, const char *ns, const char *name)
{
	SeqCache *c = engine_cache(e);
	SeqCacheEnt *x;

	pthread_mutex_lock(&c->mu);
	if ((x = cache_find(c, ns, name, false)))
		x->left = 0;
	pthread_mutex_unlock(&c->mu);
}

void
seq_engine_free(Engine *e)
{
	SeqCache *c = e->seq_cache;
	SeqCacheEnt *x, *nx;

	if (!c)
		return;
	for (x = c->head; x; x = nx) {
		nx = x->nx;
		free(x->ns);
		free(x->name);
		free(x);
	}
	pthread_mutex_destroy(&c->mu);
	free(c);
	e->seq_cache = NULL;
}

static SeqSession *
sess(Session *s)
{
	if (!s->seq)
		s->seq = xcalloc(1, sizeof(SeqSession));
	return s->seq;
}

static SeqVal *
sess_val(Session *s, const char *ns, const char *name, bool make)
{
	SeqSession *ss = sess(s);
	SeqVal *v;

	for (v = ss->vals; v; v = v->nx)
		if (!strcmp(v->ns, ns) && !strcmp(v->name, name))
			return v;
	if (!make)
		return NULL;
	v = xcalloc(1, sizeof *v);
	v->ns = xstrdup(ns);
	v->name = xstrdup(name);
	v->nx = ss->vals;
	ss->vals = v;
	return v;
}

static void
sess_forget(Session *s, const char *ns, const char *name)
{
	SeqSession *ss = sess(s);
	SeqVal **p, *v;

	for (p = &ss->vals; (v = *p); p = &v->nx)
		if (!strcmp(v->ns, ns) && !strcmp(v->name, name)) {
			*p = v->nx;
			if (ss->last_used == v)
				ss->last_used = NULL;
			free(v->ns);
			free(v->name);
			free(v);
			return;
		}
}

void
seq_session_free(Session *s)
{
	SeqSession *ss = s->seq;
	SeqVal *v, *nx;

	if (!ss)
		return;
	for (v = ss->vals; v; v = nx) {
		nx = v->nx;
		free(v->ns);
		free(v->name);
		free(v);
	}
	free(ss);
	s->seq = NULL;
}

/* ---- the catalog ------------------------------------------------------------ */

static int
no_seqs(floe_error *err)
{
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "this catalog does not support sequences");
}

int
seq_lookup(Session *s, const char *ns, const char *name, Arena *a, CatalogSeq *out,
	   bool *found, floe_error *err)
{
	Catalog *c = s->engine->catalog;

	*found = false;
	if (!c->vt->seq_load)
		return FLOE_OK;
	if (c->vt->seq_load(c, ns, name, a, out, err) != FLOE_OK) {
		if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			return FLOE_ERR;
		floe_error_clear(err);
		return FLOE_OK;
	}
	*found = true;
	return FLOE_OK;
}

static bool
table_exists(Session *s, const char *ns, const char *name, Arena *a, floe_error *err, int *rc)
{
	char *loc;

	*rc = FLOE_OK;
	if (catalog_load_table(s->engine->catalog, ns, name, a, &loc, err) == FLOE_OK)
		return true;
	if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE) &&
	    !floe_error_is(err, ERRCODE_INVALID_SCHEMA_NAME))
		*rc = FLOE_ERR;
	else
		floe_error_clear(err);
	return false;
}

/* An identifier of regclass text: "Quoted" kept, plain folded to lower case. */
static char *
ident(Arena *a, const char *p, size_t n)
{
	char *o = arena_alloc(a, n + 1), *q = o;
	size_t i;

	if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
		for (i = 1; i + 1 < n; i++) {
			*q++ = p[i];
			if (p[i] == '"' && i + 2 < n && p[i + 1] == '"')
				i++;
		}
	} else {
		for (i = 0; i < n; i++)
			*q++ = (p[i] >= 'A' && p[i] <= 'Z') ? (char)(p[i] + 32) : p[i];
	}
	*q = 0;
	return o;
}

int
seq_resolve(Session *s, const char *text, Arena *a, const char **ns, const char **name,
	    floe_error *err)
{
	const char *p, *dot = NULL;
	bool q = false, found;
	CatalogSeq cs;
	int rc;

	for (p = text; *p; p++) {
		if (*p == '"')
			q = !q;
		else if (*p == '.' && !q && !dot)
			dot = p;
	}
	if (dot) {
		*ns = ident(a, text, (size_t)(dot - text));
		*name = ident(a, dot + 1, strlen(dot + 1));
		if (!strcmp(*ns, "pg_temp"))
			*ns = temp_resolve(s, *ns, *name);   /* the session's (temp.h) */
	} else {
		*name = ident(a, text, strlen(text));
		*ns = search_path_lookup(s, *name);
	}
	TRY(seq_lookup(s, *ns, *name, a, &cs, &found, err));
	if (found)
		return FLOE_OK;
	if (table_exists(s, *ns, *name, a, err, &rc))
		return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", *name);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", text);
}

/* ---- options (init_params) ---------------------------------------------------- */

static bool
type_bounds(const char *t, int64_t *lo, int64_t *hi)
{
	if (!strcmp(t, "smallint")) {
		*lo = INT16_MIN;
		*hi = INT16_MAX;
	} else if (!strcmp(t, "integer")) {
		*lo = INT32_MIN;
		*hi = INT32_MAX;
	} else if (!strcmp(t, "bigint")) {
		*lo = INT64_MIN;
		*hi = INT64_MAX;
	} else {
		return false;
	}
	return true;
}

static int
opt_int(PgQuery__DefElem *d, int64_t *v, floe_error *err)
{
	Node *n = d->arg;
	const char *txt = NULL;
	char *end;

	if (!n)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s requires a numeric value", d->defname);
	if (n->node_case == PG_QUERY__NODE__NODE_INTEGER) {
		*v = n->integer->ival;
		return FLOE_OK;
	}
	if (n->node_case == PG_QUERY__NODE__NODE_FLOAT)
		txt = n->float_->fval;
	if (!txt)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s requires a numeric value", d->defname);
	errno = 0;
	*v = strtoll(txt, &end, 10);
	if (errno || *end)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "value \"%s\" is out of range for type bigint", txt);
	return FLOE_OK;
}

/* a type name of AS: the last name component, mapped to floe's spelling */
static const char *
opt_type(PgQuery__DefElem *d)
{
	PgQuery__TypeName *tn;
	const char *t;

	if (!d->arg || d->arg->node_case != PG_QUERY__NODE__NODE_TYPE_NAME)
		return "?";
	tn = d->arg->type_name;
	if (tn->n_names == 0 || tn->names[tn->n_names - 1]->node_case != PG_QUERY__NODE__NODE_STRING)
		return "?";
	t = tn->names[tn->n_names - 1]->string->sval;
	if (!strcmp(t, "int2") || !strcmp(t, "smallint"))
		return "smallint";
	if (!strcmp(t, "int4") || !strcmp(t, "integer") || !strcmp(t, "int"))
		return "integer";
	if (!strcmp(t, "int8") || !strcmp(t, "bigint"))
		return "bigint";
	return t;
}

/* The owner text "table.column" of OWNED BY's name list (NONE: ""). */
static int
owned_by_text(Session *s, const char *seq_ns, PgQuery__DefElem *d, Arena *a, char **out,
	      floe_error *err)
{
	PgQuery__List *l;
	const char *tns, *tname, *col;
	Table *t;
	const IcebergSchema *sc;
	int i;

	if (!d->arg || d->arg->node_case != PG_QUERY__NODE__NODE_LIST)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid OWNED BY option");
	l = d->arg->list;
	if (l->n_items == 1 && l->items[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
	    !strcmp(l->items[0]->string->sval, "none")) {
		*out = arena_strdup(a, "");
		return FLOE_OK;
	}
	if (l->n_items < 2) {
		floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid OWNED BY option");
		floe_error_hint(err, "Specify OWNED BY table.column or OWNED BY NONE.");
		return FLOE_ERR;
	}
	if (l->n_items > 3)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cross-database references are not implemented");
	for (i = 0; i < (int)l->n_items; i++)
		if (l->items[i]->node_case != PG_QUERY__NODE__NODE_STRING)
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid OWNED BY option");
	tname = l->items[l->n_items - 2]->string->sval;
	tns = l->n_items == 3 ? l->items[0]->string->sval : search_path_lookup(s, tname);
	col = l->items[l->n_items - 1]->string->sval;
	if (txn_table_load(s, tns, tname, a, &t, err) != FLOE_OK) {
		bool found;
		CatalogSeq cs;
		if (!floe_error_is(err, ERRCODE_UNDEFINED_TABLE))
			return FLOE_ERR;
		floe_error_clear(err);
		TRY(seq_lookup(s, tns, tname, a, &cs, &found, err));
		if (found)
			return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE,
					   "sequence cannot be owned by relation \"%s\"", tname);
		return floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", tname);
	}
	if (strcmp(tns, seq_ns) != 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "sequence must be in same schema as table it is linked to");
	sc = metadata_current_schema(t->md);
	for (i = 0; i < sc->nfields; i++)
		if (!strcmp(sc->fields[i].name, col))
			break;
	if (i == sc->nfields)
		return floe_errorf(err, ERRCODE_UNDEFINED_COLUMN,
				   "column \"%s\" of relation \"%s\" does not exist", col, tname);
	*out = arena_sprintf(a, "%s.%s", tname, col);
	return FLOE_OK;
}

/*
 * Apply options opts to q (init: a new sequence, q zeroed but for
 * data_type "bigint").  PostgreSQL's init_params: defaults from the
 * increment's sign and the type, then the range checks, in its order.
 */
static int
apply_opts(Session *s, const char *ns, CatalogSeq *q, Node **opts, int nopts, bool init,
	   bool for_identity, const char *def_type, Arena *a, bool *restarted, floe_error *err)
{
	PgQuery__DefElem *as = NULL, *inc = NULL, *mn = NULL, *mx = NULL, *start = NULL,
			 *restart = NULL, *cache = NULL, *cycle = NULL, *owned = NULL, *sname = NULL;
	bool reset_max = false, reset_min = false;
	int64_t lo, hi, v;
	int i;

	*restarted = false;
	for (i = 0; i < nopts; i++) {
		PgQuery__DefElem *d, **slot;
		if (opts[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
			continue;
		d = opts[i]->def_elem;
		if (!strcmp(d->defname, "as"))
			slot = &as;
		else if (!strcmp(d->defname, "increment"))
			slot = &inc;
		else if (!strcmp(d->defname, "minvalue"))
			slot = &mn;
		else if (!strcmp(d->defname, "maxvalue"))
			slot = &mx;
		else if (!strcmp(d->defname, "start"))
			slot = &start;
		else if (!strcmp(d->defname, "restart"))
			slot = &restart;
		else if (!strcmp(d->defname, "cache"))
			slot = &cache;
		else if (!strcmp(d->defname, "cycle"))
			slot = &cycle;
		else if (!strcmp(d->defname, "owned_by"))
			slot = &owned;
		else if (!strcmp(d->defname, "sequence_name") && for_identity)
			slot = &sname;
		else if (!strcmp(d->defname, "log"))
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "sequence option \"%s\" is not supported", d->defname);
		else
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "option \"%s\" not recognized",
					   d->defname);
		if (*slot)
			return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "conflicting or redundant options");
		*slot = d;
	}
	if (as) {
		const char *t = opt_type(as);
		if (!type_bounds(t, &lo, &hi))
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "sequence type must be smallint, integer, or bigint");
		if (!init) {
			int64_t olo, ohi;
			type_bounds(q->data_type, &olo, &ohi);
			reset_max = q->max == ohi;
			reset_min = q->min == olo;
		}
		snprintf(q->data_type, sizeof q->data_type, "%s", t);
	} else if (init) {
		snprintf(q->data_type, sizeof q->data_type, "%s", def_type ? def_type : "bigint");
	}
	type_bounds(q->data_type, &lo, &hi);
	if (inc) {
		TRY(opt_int(inc, &q->increment, err));
		if (q->increment == 0)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "INCREMENT must not be zero");
	} else if (init) {
		q->increment = 1;
	}
	if (cycle)
		q->cycle = cycle->arg && cycle->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN &&
			   cycle->arg->boolean->boolval;
	else if (init)
		q->cycle = false;
	if (mx && mx->arg) {
		TRY(opt_int(mx, &q->max, err));
	} else if (init || mx || reset_max) {
		q->max = q->increment > 0 ? hi : -1;
	}
	if (q->max < lo || q->max > hi)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "MAXVALUE (%lld) is out of range for sequence data type %s",
				   (long long)q->max, q->data_type);
	if (mn && mn->arg) {
		TRY(opt_int(mn, &q->min, err));
	} else if (init || mn || reset_min) {
		q->min = q->increment > 0 ? 1 : lo;
	}
	if (q->min < lo || q->min > hi)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "MINVALUE (%lld) is out of range for sequence data type %s",
				   (long long)q->min, q->data_type);
	if (q->min >= q->max)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "MINVALUE (%lld) must be less than MAXVALUE (%lld)",
				   (long long)q->min, (long long)q->max);
	if (start) {
		TRY(opt_int(start, &q->start, err));
	} else if (init) {
		q->start = q->increment > 0 ? q->min : q->max;
	}
	if (q->start < q->min)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "START value (%lld) cannot be less than MINVALUE (%lld)",
				   (long long)q->start, (long long)q->min);
	if (q->start > q->max)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "START value (%lld) cannot be greater than MAXVALUE (%lld)",
				   (long long)q->start, (long long)q->max);
	if (restart) {
		if (restart->arg)
			TRY(opt_int(restart, &v, err));
		else
			v = q->start;
		q->last_value = v;
		q->is_called = false;
		*restarted = true;
	} else if (init) {
		q->last_value = q->start;
		q->is_called = false;
	}
	if (q->last_value < q->min)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "RESTART value (%lld) cannot be less than MINVALUE (%lld)",
				   (long long)q->last_value, (long long)q->min);
	if (q->last_value > q->max)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "RESTART value (%lld) cannot be greater than MAXVALUE (%lld)",
				   (long long)q->last_value, (long long)q->max);
	if (cache) {
		TRY(opt_int(cache, &q->cache, err));
		if (q->cache <= 0)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "CACHE (%lld) must be greater than zero", (long long)q->cache);
	} else if (init) {
		q->cache = 1;
	}
	if (owned) {
		char *o;
		TRY(owned_by_text(s, ns, owned, a, &o, err));
		q->owned_by = *o ? o : NULL;
	}
	return FLOE_OK;
}

/* ---- statements ------------------------------------------------------------- */

static int
create_row(Session *s, const char *ns, const char *name, const char *def_type, Node **opts,
	   int nopts, const char *owned_by, bool for_identity, Arena *a, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	CatalogSeq q;
	bool restarted;
	int rc;

	if (!c->vt->seq_create)
		return no_seqs(err);
	memset(&q, 0, sizeof q);
	TRY(apply_opts(s, ns, &q, opts, nopts, true, for_identity, def_type, a, &restarted, err));
	if (owned_by)
		q.owned_by = (char *)owned_by;
	if (table_exists(s, ns, name, a, err, &rc))
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	if (rc != FLOE_OK)
		return FLOE_ERR;
	TRY(c->vt->seq_create(c, ns, name, &q, err));
	cache_forget(s->engine, ns, name);
	sess_forget(s, ns, name);
	return FLOE_OK;
}

int
seq_create(Session *s, const char *ns, const char *name, const char *def_type, Node **opts,
	   int nopts, const char *owned_by, floe_error *err)
{
	Arena *a = arena_new(0);
	int rc = create_row(s, ns, name, def_type, opts, nopts, owned_by, true, a, err);

	arena_free(a);
	return rc;
}

int
seq_create_stmt(Session *s, PgQuery__CreateSeqStmt *st, ResultSink *sink, floe_error *err)
{
	PgQuery__RangeVar *rv = st->sequence;
	const char *ns, *name = rv->relname, *sch = rv->schemaname && rv->schemaname[0] ? rv->schemaname : NULL;
	bool temp = rv->relpersistence && rv->relpersistence[0] == 't';
	Arena *a;
	int rc;

	/* temporary: in the session's temp namespace (temp.h) */
	if (sch && (!strcmp(sch, "pg_temp") || (s->temp && !strcmp(sch, s->temp->ns))))
		temp = true;
	else if (sch && temp)
		return floe_errorf(err, ERRCODE_INVALID_TABLE_DEFINITION,
				   "cannot create temporary relation in non-temporary schema");
	ns = temp ? temp_namespace(s, err) : ddl_create_ns(s, rv, err);
	if (!ns)
		return FLOE_ERR;
	if (rv->relpersistence && rv->relpersistence[0] == 'u')
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "unlogged sequences are not supported: sequences are always durable");
	if (rv->catalogname && rv->catalogname[0])
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "cross-database references are not implemented");
	a = arena_new(0);
	rc = create_row(s, ns, name, NULL, st->options, (int)st->n_options, NULL, false, a, err);
	arena_free(a);
	if (rc != FLOE_OK) {
		if (st->if_not_exists && floe_error_is(err, ERRCODE_DUPLICATE_TABLE)) {
			floe_error_clear(err);
			engine_notice(sink, "relation \"%s\" already exists, skipping", name);
			return engine_complete(sink, "CREATE SEQUENCE");
		}
		return FLOE_ERR;
	}
	return engine_complete(sink, "CREATE SEQUENCE");
}

/* Read-modify-swap of a sequence's row until the swap lands. */
typedef int (*SeqEdit)(Session *s, const char *ns, CatalogSeq *q, void *arg, Arena *a,
		       floe_error *err);

static int
seq_update(Session *s, const char *ns, const char *name, SeqEdit edit, void *arg,
	   CatalogSeq *out, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	int attempt;

	if (!c->vt->seq_swap)
		return no_seqs(err);
	for (attempt = 0; attempt < 1000; attempt++) {
		Arena *a = arena_new(0);
		CatalogSeq q;
		bool found, swapped = false;
		int64_t ver;
		if (seq_lookup(s, ns, name, a, &q, &found, err) != FLOE_OK)
			goto fail;
		if (!found) {
			floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
			goto fail;
		}
		ver = q.version;
		if (edit(s, ns, &q, arg, a, err) != FLOE_OK)
			goto fail;
		if (c->vt->seq_swap(c, ns, name, ver, &q, &swapped, err) != FLOE_OK)
			goto fail;
		if (swapped) {
			if (out) {
				*out = q;
				out->owned_by = NULL;
			}
			arena_free(a);
			return FLOE_OK;
		}
		arena_free(a);
		continue;
fail:
		arena_free(a);
		return FLOE_ERR;
	}
	return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
			   "could not update sequence \"%s\": too many concurrent updates", name);
}

typedef struct AlterArg {
	PgQuery__AlterSeqStmt *st;
} AlterArg;

static int
alter_edit(Session *s, const char *ns, CatalogSeq *q, void *arg, Arena *a, floe_error *err)
{
	AlterArg *x = arg;
	bool restarted;

	return apply_opts(s, ns, q, x->st->options, (int)x->st->n_options, false,
			  x->st->for_identity, NULL, a, &restarted, err);
}

int
seq_alter_stmt(Session *s, PgQuery__AlterSeqStmt *st, ResultSink *sink, floe_error *err)
{
	const char *ns = ddl_rv_ns(s, st->sequence), *name = st->sequence->relname;
	AlterArg x = { st };
	Arena *a = arena_new(0);
	CatalogSeq q;
	bool found;
	int rc = FLOE_OK;

	if (seq_lookup(s, ns, name, a, &q, &found, err) != FLOE_OK) {
		rc = FLOE_ERR;
	} else if (!found) {
		if (table_exists(s, ns, name, a, err, &rc)) {
			rc = floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
		} else if (rc == FLOE_OK && st->missing_ok) {
			engine_notice(sink, "relation \"%s\" does not exist, skipping", name);
			arena_free(a);
			return engine_complete(sink, "ALTER SEQUENCE");
		} else if (rc == FLOE_OK) {
			rc = floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist",
					 name);
		}
	}
	arena_free(a);
	TRY(rc);
	TRY(seq_update(s, ns, name, alter_edit, &x, NULL, err));
	cache_forget(s->engine, ns, name);
	return engine_complete(sink, "ALTER SEQUENCE");
}

int
seq_drop(Session *s, const char *ns, const char *name, floe_error *err)
{
	Catalog *c = s->engine->catalog;

	if (!c->vt->seq_drop)
		return no_seqs(err);
	TRY(c->vt->seq_drop(c, ns, name, err));
	cache_forget(s->engine, ns, name);
	sess_forget(s, ns, name);
	/* its grants go with it (a sequence created again starts without) */
	return acl_forget_relation(s, ns, name, err);
}

/* ---- DROP SEQUENCE's dependents: column DEFAULTs calling nextval ---------- */

/*
 * PostgreSQL records a dependency of a column DEFAULT on each sequence its
 * expression names as a regclass constant (nextval('s'), serial's
 * nextval('s'::regclass)); an identity column's sequence is internal to the
 * column.  floe keeps a DEFAULT as its source text (the table property
 * floe.column.<id>.default), so DROP SEQUENCE finds the dependents by
 * reading every table's defaults and resolving their nextval arguments as
 * an INSERT would (seq_resolve).  PostgreSQL's messages are those of
 * dependency.c's reportDependentObjects / findDependentObjects.
 */

typedef struct SeqTarget {
	const char *ns, *name;
} SeqTarget;

typedef struct SeqDep {
	const char *ns, *table, *column;   /* the column whose DEFAULT ... */
	int32_t field_id;
	int target;                        /* ... calls nextval of targets[target] */
	bool identity;                     /* the target is its identity sequence */
} SeqDep;

typedef struct DepWalk {
	Session *s;
	Arena *a;
	const SeqTarget *targets;
	int ntargets;
	int hit;                           /* the first target named, or -1 */
} DepWalk;

static const char *
nextval_arg(const PgQuery__FuncCall *f)
{
	const Node *n;
	const char *fn;

	if (f->n_funcname < 1 || f->n_funcname > 2 || f->n_args < 1 ||
	    f->funcname[f->n_funcname - 1]->node_case != PG_QUERY__NODE__NODE_STRING)
		return NULL;
	fn = f->funcname[f->n_funcname - 1]->string->sval;
	if (strcmp(fn, "nextval") != 0)
		return NULL;
	n = f->args[0];
	if (n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && n->type_cast->arg)
		n = n->type_cast->arg;
	if (n->node_case != PG_QUERY__NODE__NODE_A_CONST ||
	    n->a_const->val_case != PG_QUERY__A__CONST__VAL_SVAL)
		return NULL;
	return n->a_const->sval->sval;
}

static int
dep_walk(const ProtobufCMessage *m, void *arg)
{
	DepWalk *w = arg;
	const char *txt, *ns, *name;
	floe_error ignore;
	int i;

	if (m->descriptor == &pg_query__func_call__descriptor &&
	    (txt = nextval_arg((const PgQuery__FuncCall *)m))) {
		memset(&ignore, 0, sizeof ignore);
		if (seq_resolve(w->s, txt, w->a, &ns, &name, &ignore) == FLOE_OK)
			for (i = 0; i < w->ntargets; i++)
				if (!strcmp(w->targets[i].ns, ns) && !strcmp(w->targets[i].name, name)) {
					w->hit = i;
					return 1;
				}
	}
	return sql_children(m, dep_walk, arg);
}

/* The target a DEFAULT's text calls nextval of, or -1. */
static int
default_target(Session *s, const char *text, const SeqTarget *targets, int ntargets, Arena *a)
{
	DepWalk w = { s, a, targets, ntargets, -1 };
	floe_error ignore;
	Node *n;

	if (!strcasestr(text, "nextval"))
		return -1;
	memset(&ignore, 0, sizeof ignore);
	if (sql_parse_expr(text, a, &n, &ignore) != FLOE_OK)
		return -1;
	(void)dep_walk(&n->base, &w);
	return w.hit;
}

/* Every column DEFAULT of every table this session sees that calls nextval
 * of one of the targets, in schema, table and column order. */
static int
find_deps(Session *s, const SeqTarget *targets, int ntargets, Arena *a, SeqDep **out, int *nout,
	  floe_error *err)
{
	Catalog *c = s->engine->catalog;
	char **nss, **names;
	int nns, n, k, j, i, cap = 0;

	*out = NULL;
	*nout = 0;
	TRY(catalog_list_namespaces(c, a, &nss, &nns, err));
	if (s->temp) {
		char **more = ARENA_ARRAY(a, char *, nns + 1);
		memcpy(more, nss, sizeof(char *) * (size_t)nns);
		more[nns++] = s->temp->ns;
		nss = more;
	}
	for (k = 0; k < nns; k++) {
		TRY(catalog_list_tables(c, nss[k], a, &names, &n, err));
		for (j = 0; j < n; j++) {
			const IcebergSchema *sc;
			Table *t;
			if (txn_table_load(s, nss[k], names[j], a, &t, err) != FLOE_OK) {
				/* dropped meanwhile, or unreadable (its files gone):
				 * no DEFAULT of it can be used, so none blocks the DROP */
				floe_error_clear(err);
				continue;
			}
			sc = metadata_current_schema(t->md);
			for (i = 0; i < sc->nfields; i++) {
				const IcebergField *f = &sc->fields[i];
				int tg;
				if (!f->default_sql ||
				    (tg = default_target(s, f->default_sql, targets, ntargets, a)) < 0)
					continue;
				if (*nout == cap) {
					int nc = cap ? cap * 2 : 8;
					*out = arena_realloc(a, *out, sizeof(SeqDep) * (size_t)cap,
							     sizeof(SeqDep) * (size_t)nc);
					cap = nc;
				}
				(*out)[*nout] = (SeqDep){ nss[k], names[j], f->name, f->id, tg,
							  f->identity != 0 };
				(*nout)++;
			}
		}
	}
	return FLOE_OK;
}

/* A relation as PostgreSQL's getObjectDescription names it: qualified
 * when the search path does not find it by its bare name. */
static const char *
rel_text(Session *s, const char *ns, const char *name, Arena *a)
{
	const char *vis = temp_resolve(s, NULL, name);

	if (!vis)
		vis = search_path_lookup(s, name);
	return vis && !strcmp(vis, ns) ? name : arena_sprintf(a, "%s.%s", ns, name);
}

/* 2BP01 for dependents that block the DROP of `what` ("sequence s",
 * "table t"; NULL: the DROP names several objects), leaving out the
 * tables the DROP drops (skip); with CASCADE the DEFAULTs are dropped (one
 * metadata commit per table) after the NOTICE. */
static int
drop_deps(Session *s, const SeqTarget *targets, int ntargets, const char *what,
	  const SeqTarget *skip, int nskip, bool cascade, ResultSink *sink, Arena *a,
	  floe_error *err)
{
	SeqDep *d;
	char buf[sizeof err->detail];
	size_t o = 0;
	int n, i, j, k;

	TRY(find_deps(s, targets, ntargets, a, &d, &n, err));
	for (i = k = 0; i < n; i++) {
		for (j = 0; j < nskip; j++)
			if (!strcmp(skip[j].ns, d[i].ns) && !strcmp(skip[j].name, d[i].table))
				break;
		if (j == nskip)
			d[k++] = d[i];
	}
	n = k;
	if (n == 0)
		return FLOE_OK;
	for (i = 0; i < n; i++)
		if (d[i].identity) {
			floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				    "cannot drop sequence %s because column %s of table %s requires it",
				    rel_text(s, targets[d[i].target].ns, targets[d[i].target].name, a),
				    d[i].column, rel_text(s, d[i].ns, d[i].table, a));
			return floe_error_hint(err, "You can drop column %s of table %s instead.",
					       d[i].column, rel_text(s, d[i].ns, d[i].table, a));
		}
	buf[0] = 0;
	for (i = 0; i < n; i++) {
		const SeqTarget *q = &targets[d[i].target];
		int w = cascade ? snprintf(buf + o, sizeof buf - o,
					   "%sdrop cascades to default value for column %s of table %s",
					   i ? "\n" : "", d[i].column, rel_text(s, d[i].ns, d[i].table, a))
				: snprintf(buf + o, sizeof buf - o,
					   "%sdefault value for column %s of table %s depends on sequence %s",
					   i ? "\n" : "", d[i].column, rel_text(s, d[i].ns, d[i].table, a),
					   rel_text(s, q->ns, q->name, a));
		if (w < 0 || (size_t)w >= sizeof buf - o)
			break;
		o += (size_t)w;
	}
	if (!cascade) {
		if (what)
			floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				    "cannot drop %s because other objects depend on it", what);
		else
			floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
				    "cannot drop desired object(s) because other objects depend on them");
		floe_error_detail(err, "%s", buf);
		return floe_error_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
	}
	if (sink && sink->notice) {
		floe_error nt;
		if (n == 1) {
			floe_errorf(&nt, "00000", "%s", buf);
		} else {
			floe_errorf(&nt, "00000", "drop cascades to %d other objects", n);
			floe_error_detail(&nt, "%s", buf);
		}
		sink->notice(sink->ctx, &nt);
	}
	for (i = 0; i < n; i++) {
		TableMetadata *md;
		Table *t, *after;
		if (!d[i].column)
			continue;   /* done with an earlier column of its table */
		TRY(txn_table_load(s, d[i].ns, d[i].table, a, &t, err));
		md = metadata_copy(t->md, a);
		for (j = i; j < n; j++)
			if (d[j].column && !strcmp(d[j].ns, d[i].ns) && !strcmp(d[j].table, d[i].table)) {
				metadata_set_property(md, arena_sprintf(a, "floe.column.%d.default",
									 (int)d[j].field_id),
						      NULL, a);
				if (j > i)
					d[j].column = NULL;
			}
		TRY(txn_commit_metadata(s, t, md, a, &after, err));
	}
	return FLOE_OK;
}

int
seq_drop_stmt(Session *s, PgQuery__DropStmt *ds, ResultSink *sink, floe_error *err)
{
	size_t i;
	Arena *a = arena_new(0);
	SeqTarget *targets = ARENA_ARRAY(a, SeqTarget, ds->n_objects ? ds->n_objects : 1);
	int rc = FLOE_OK, ntargets = 0;

	/* every name first (PostgreSQL resolves them all before dropping) */
	for (i = 0; i < ds->n_objects && rc == FLOE_OK; i++) {
		PgQuery__List *l = ds->objects[i]->list;
		const char *ns = l->n_items == 2 ? l->items[0]->string->sval
			: search_path_lookup(s, l->items[l->n_items - 1]->string->sval);
		const char *name = l->items[l->n_items - 1]->string->sval;
		CatalogSeq q;
		bool found;
		if (l->n_items > 2) {
			rc = floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					 "cross-database references are not implemented");
			break;
		}
		if ((rc = seq_lookup(s, ns, name, a, &q, &found, err)) != FLOE_OK)
			break;
		if (found) {
			targets[ntargets].ns = ns;
			targets[ntargets++].name = name;
			continue;
		}
		if (table_exists(s, ns, name, a, err, &rc)) {
			rc = floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
			floe_error_hint(err, "Use DROP TABLE to remove a table.");
		} else if (rc == FLOE_OK && !ds->missing_ok) {
			rc = floe_errorf(err, ERRCODE_UNDEFINED_TABLE, "sequence \"%s\" does not exist",
					 name);
		}
	}
	/* the DEFAULTs calling nextval of them: 2BP01, or dropped by CASCADE */
	if (rc == FLOE_OK && ntargets > 0)
		rc = drop_deps(s, targets, ntargets,
			       ds->n_objects == 1 ? arena_sprintf(a, "sequence %s",
					rel_text(s, targets[0].ns, targets[0].name, a)) : NULL,
			       NULL, 0, ds->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE, sink,
			       a, err);
	for (i = 0; i < ds->n_objects && rc == FLOE_OK; i++) {
		PgQuery__List *l = ds->objects[i]->list;
		const char *ns = l->n_items == 2 ? l->items[0]->string->sval
			: search_path_lookup(s, l->items[l->n_items - 1]->string->sval);
		const char *name = l->items[l->n_items - 1]->string->sval;
		CatalogSeq q;
		bool found;
		if ((rc = seq_lookup(s, ns, name, a, &q, &found, err)) != FLOE_OK)
			break;
		if (!found) {
			engine_notice(sink, "sequence \"%s\" does not exist, skipping", name);
			continue;
		}
		rc = seq_drop(s, ns, name, err);
	}
	arena_free(a);
	TRY(rc);
	return engine_complete(sink, "DROP SEQUENCE");
}

int
seq_drop_table_deps(Session *s, const char *ns, const char *table, const char *const *drop_ns,
		    const char *const *drop_names, int ndrop, bool cascade, ResultSink *sink,
		    floe_error *err)
{
	Catalog *c = s->engine->catalog;
	SeqTarget *targets, *skip;
	Arena *a;
	char **names;
	int n, i, nt = 0, rc = FLOE_OK;
	size_t tl = strlen(table);

	if (!c->vt->seq_list)
		return FLOE_OK;
	a = arena_new(0);
	if (c->vt->seq_list(c, ns, a, &names, &n, err) != FLOE_OK) {
		arena_free(a);
		return FLOE_ERR;
	}
	targets = ARENA_ARRAY(a, SeqTarget, n ? n : 1);
	for (i = 0; i < n && rc == FLOE_OK; i++) {
		CatalogSeq q;
		bool found;
		if ((rc = seq_lookup(s, ns, names[i], a, &q, &found, err)) != FLOE_OK || !found)
			continue;
		if (q.owned_by && !strncmp(q.owned_by, table, tl) && q.owned_by[tl] == '.') {
			targets[nt].ns = ns;
			targets[nt++].name = names[i];
		}
	}
	if (rc == FLOE_OK && nt > 0) {
		skip = ARENA_ARRAY(a, SeqTarget, ndrop ? ndrop : 1);
		for (i = 0; i < ndrop; i++) {
			skip[i].ns = drop_ns[i];
			skip[i].name = drop_names[i];
		}
		rc = drop_deps(s, targets, nt,
			       ndrop == 1 ? arena_sprintf(a, "table %s", rel_text(s, ns, table, a)) : NULL,
			       skip, ndrop, cascade, sink, a, err);
	}
	arena_free(a);
	return rc;
}

int
seq_drop_schema_deps(Session *s, const char *ns, bool cascade, ResultSink *sink, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	SeqTarget *targets, *skip;
	Arena *a;
	char **names, **tables;
	int n, nt, i, rc = FLOE_OK;

	if (!c->vt->seq_list)
		return FLOE_OK;
	a = arena_new(0);
	if (c->vt->seq_list(c, ns, a, &names, &n, err) != FLOE_OK ||
	    catalog_list_tables(c, ns, a, &tables, &nt, err) != FLOE_OK) {
		arena_free(a);
		return FLOE_ERR;
	}
	if (n > 0 && !cascade) {
		floe_errorf(err, ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
			    "cannot drop schema %s because other objects depend on it", ns);
		floe_error_detail(err, "sequence %s.%s depends on schema %s", ns, names[0], ns);
		rc = floe_error_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
	} else if (n > 0) {
		targets = ARENA_ARRAY(a, SeqTarget, n);
		skip = ARENA_ARRAY(a, SeqTarget, nt ? nt : 1);
		for (i = 0; i < n; i++) {
			targets[i].ns = ns;
			targets[i].name = names[i];
		}
		for (i = 0; i < nt; i++) {
			skip[i].ns = ns;
			skip[i].name = tables[i];
		}
		rc = drop_deps(s, targets, n, NULL, skip, nt, true, sink, a, err);
	}
	arena_free(a);
	return rc;
}

int
seq_drop_owned(Session *s, const char *ns, const char *table, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	Arena *a;
	char **names;
	int n, i, rc = FLOE_OK;
	size_t tl = table ? strlen(table) : 0;

	if (!c->vt->seq_list)
		return FLOE_OK;
	a = arena_new(0);
	if (c->vt->seq_list(c, ns, a, &names, &n, err) != FLOE_OK) {
		arena_free(a);
		return FLOE_ERR;
	}
	for (i = 0; i < n && rc == FLOE_OK; i++) {
		CatalogSeq q;
		bool found;
		if ((rc = seq_lookup(s, ns, names[i], a, &q, &found, err)) != FLOE_OK || !found)
			continue;
		if (!table || (q.owned_by && !strncmp(q.owned_by, table, tl) && q.owned_by[tl] == '.'))
			rc = seq_drop(s, ns, names[i], err);
	}
	arena_free(a);
	return rc;
}

/* ---- nextval, currval, setval, lastval -------------------------------------- */

typedef struct NextArg {
	int64_t first, n;
	const char *name;
} NextArg;

static int
reserve_edit(Session *s, const char *ns, CatalogSeq *q, void *arg, Arena *a, floe_error *err)
{
	NextArg *x = arg;
	int64_t v, nx;

	(void)s;
	(void)ns;
	(void)a;
	if (!q->is_called) {
		v = q->last_value;
	} else if (__builtin_add_overflow(q->last_value, q->increment, &v) ||
		   (q->increment > 0 && v > q->max) || (q->increment < 0 && v < q->min)) {
		if (!q->cycle) {
			if (q->increment > 0)
				return floe_errorf(err, ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
						   "nextval: reached maximum value of sequence \"%s\" (%lld)",
						   x->name, (long long)q->max);
			return floe_errorf(err, ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
					   "nextval: reached minimum value of sequence \"%s\" (%lld)",
					   x->name, (long long)q->min);
		}
		v = q->increment > 0 ? q->min : q->max;
	}
	x->first = v;
	x->n = 1;
	while (x->n < q->cache && !__builtin_add_overflow(v, q->increment, &nx) &&
	       nx <= q->max && nx >= q->min) {
		v = nx;
		x->n++;
	}
	q->last_value = v;
	q->is_called = true;
	return FLOE_OK;
}

static void
note_value(Session *s, const char *ns, const char *name, int64_t v)
{
	SeqVal *sv = sess_val(s, ns, name, true);

	sv->last = v;
	sess(s)->last_used = sv;
}

static int
seq_next(Session *s, const char *ns, const char *name, int64_t *out, floe_error *err)
{
	SeqCache *c = engine_cache(s->engine);
	SeqCacheEnt *x;
	CatalogSeq q;
	NextArg na = { 0, 0, name };
	int rc;

	pthread_mutex_lock(&c->mu);
	x = cache_find(c, ns, name, true);
	if (x->left > 0) {
		*out = x->next;
		if (--x->left > 0)
			x->next += x->inc;
		pthread_mutex_unlock(&c->mu);
		note_value(s, ns, name, *out);
		return FLOE_OK;
	}
	/* the lock is held across the reservation so one node reserves once */
	rc = seq_update(s, ns, name, reserve_edit, &na, &q, err);
	if (rc == FLOE_OK) {
		x->inc = q.increment;
		x->left = na.n - 1;
		x->next = na.first + (na.n > 1 ? q.increment : 0);
		*out = na.first;
	}
	pthread_mutex_unlock(&c->mu);
	if (rc == FLOE_OK)
		note_value(s, ns, name, *out);
	return rc;
}

typedef struct SetArg {
	int64_t v;
	bool called;
	const char *name;
} SetArg;

static int
set_edit(Session *s, const char *ns, CatalogSeq *q, void *arg, Arena *a, floe_error *err)
{
	SetArg *x = arg;

	(void)s;
	(void)ns;
	(void)a;
	if (x->v < q->min || x->v > q->max)
		return floe_errorf(err, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
				   "setval: value %lld is out of bounds for sequence \"%s\" (%lld..%lld)",
				   (long long)x->v, x->name, (long long)q->min, (long long)q->max);
	q->last_value = x->v;
	q->is_called = x->called;
	return FLOE_OK;
}

static int
seq_set(Session *s, const char *ns, const char *name, int64_t v, bool called, floe_error *err)
{
	SeqCache *c = engine_cache(s->engine);
	SetArg sa = { v, called, name };
	int rc;

	pthread_mutex_lock(&c->mu);
	rc = seq_update(s, ns, name, set_edit, &sa, NULL, err);
	if (rc == FLOE_OK) {
		SeqCacheEnt *x = cache_find(c, ns, name, false);
		if (x)
			x->left = 0;
	}
	pthread_mutex_unlock(&c->mu);
	if (rc == FLOE_OK && called)
		sess_val(s, ns, name, true)->last = v;
	return rc;
}

/* The binder's resolved form of a sequence argument: "ns\x1fname". */
#define SEQ_SEP '\x1f'

static int
arg_names(Session *s, const Vector *v, uint32_t i, Arena *a, const char **ns, const char **name,
	  bool *null, floe_error *err)
{
	Value x;
	const char *t, *sep;
	size_t len;

	vector_get_value(v, i, &x);
	*null = x.is_null;
	if (x.is_null)
		return FLOE_OK;
	len = x.u.s.len;
	t = arena_strndup(a, strview_data(&x.u.s), len);
	if ((sep = memchr(t, SEQ_SEP, len))) {
		*ns = arena_strndup(a, t, (size_t)(sep - t));
		*name = sep + 1;
		return FLOE_OK;
	}
	return seq_resolve(s, t, a, ns, name, err);
}

static Session *
kernel_session(FuncCtx *ctx)
{
	Session *s = ctx->env ? ctx->env->session : NULL;   /* func/session_env.h */

	if (!s)
		floe_errorf(ctx->err, ERRCODE_FEATURE_NOT_SUPPORTED,
			    "sequence functions cannot run here (no session)");
	return s;
}

static void
put_int(Vector *out, uint32_t i, int64_t v)
{
	Value x = { 0 };

	x.type = out->type;
	x.u.i = v;
	vector_set_value(out, i, &x);
}

/* The privilege check of a sequence function (PostgreSQL's, at the call:
 * nextval USAGE or UPDATE, currval / lastval USAGE or SELECT, setval
 * UPDATE), once per sequence per batch: *seen remembers the last one
 * checked. */
typedef struct SeqSeen {
	const char *ns, *name;
} SeqSeen;

static int
check_privilege(Session *s, SeqSeen *seen, const char *ns, const char *name, unsigned any, floe_error *err)
{
	if (seen->name && !strcmp(seen->ns, ns) && !strcmp(seen->name, name))
		return FLOE_OK;
	TRY(acl_check_sequence(s, ns, name, any, err));
	seen->ns = ns;
	seen->name = name;
	return FLOE_OK;
}

static int
nextval_run(FuncCtx *ctx, const Vector *args, uint32_t count, Vector *out, bool checked)
{
	Session *s = kernel_session(ctx);
	SeqSeen seen = { NULL, NULL };
	uint32_t i;

	if (!s)
		return FLOE_ERR;
	for (i = 0; i < count; i++) {
		const char *ns, *name;
		bool null;
		int64_t v;
		TRY(arg_names(s, &args[0], i, ctx->arena, &ns, &name, &null, ctx->err));
		if (null) {
			vector_set_null(out, i);
			continue;
		}
		if (checked)
			TRY(check_privilege(s, &seen, ns, name, ROLE_PRIV_USAGE | ROLE_PRIV_UPDATE, ctx->err));
		TRY(seq_next(s, ns, name, &v, ctx->err));
		put_int(out, i, v);
	}
	return FLOE_OK;
}

static int
nextval_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return nextval_run(ctx, args, count, out, true);
}

/* an identity column's own nextval: PostgreSQL checks no privilege on its
 * internal sequence (INSERT on the table is enough); serial's and any
 * other DEFAULT's nextval is nextval_k */
static int
nextval_identity_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	(void)nargs;
	return nextval_run(ctx, args, count, out, false);
}

static int
currval_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Session *s = kernel_session(ctx);
	SeqSeen seen = { NULL, NULL };
	uint32_t i;

	(void)nargs;
	if (!s)
		return FLOE_ERR;
	for (i = 0; i < count; i++) {
		const char *ns, *name;
		bool null;
		SeqVal *sv;
		TRY(arg_names(s, &args[0], i, ctx->arena, &ns, &name, &null, ctx->err));
		if (null) {
			vector_set_null(out, i);
			continue;
		}
		TRY(check_privilege(s, &seen, ns, name, ROLE_PRIV_USAGE | ROLE_PRIV_SELECT, ctx->err));
		if (!(sv = sess_val(s, ns, name, false)))
			return floe_errorf(ctx->err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
					   "currval of sequence \"%s\" is not yet defined in this session",
					   name);
		put_int(out, i, sv->last);
	}
	return FLOE_OK;
}

static int
lastval_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Session *s = kernel_session(ctx);
	SeqVal *sv;
	uint32_t i;

	(void)args;
	(void)nargs;
	if (!s)
		return FLOE_ERR;
	sv = sess(s)->last_used;
	if (!sv)
		return floe_errorf(ctx->err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
				   "lastval is not yet defined in this session");
	TRY(acl_check_sequence(s, sv->ns, sv->name, ROLE_PRIV_USAGE | ROLE_PRIV_SELECT, ctx->err));
	for (i = 0; i < count; i++)
		put_int(out, i, sv->last);
	return FLOE_OK;
}

static int
setval_k(FuncCtx *ctx, const Vector *args, int nargs, uint32_t count, Vector *out)
{
	Session *s = kernel_session(ctx);
	SeqSeen seen = { NULL, NULL };
	uint32_t i;

	if (!s)
		return FLOE_ERR;
	for (i = 0; i < count; i++) {
		const char *ns, *name;
		bool null;
		Value v, c;
		TRY(arg_names(s, &args[0], i, ctx->arena, &ns, &name, &null, ctx->err));
		vector_get_value(&args[1], i, &v);
		c.is_null = false;
		c.u.b = true;
		if (nargs == 3)
			vector_get_value(&args[2], i, &c);
		if (null || v.is_null || c.is_null) {
			vector_set_null(out, i);   /* strict */
			continue;
		}
		TRY(check_privilege(s, &seen, ns, name, ROLE_PRIV_UPDATE, ctx->err));
		TRY(seq_set(s, ns, name, v.u.i, c.u.b, ctx->err));
		put_int(out, i, v.u.i);
	}
	return FLOE_OK;
}

#define I8 TYPE_INT64
#define TX TYPE_TEXT
static const ScalarFunc fn_nextval = { "nextval", nextval_k, 1, 0, { TX }, I8, FRET_FIXED,
				       true, false };
static const ScalarFunc fn_nextval_identity = { "nextval", nextval_identity_k, 1, 0, { TX }, I8,
						FRET_FIXED, true, false };
static const ScalarFunc fn_currval = { "currval", currval_k, 1, 0, { TX }, I8, FRET_FIXED,
				       true, false };
static const ScalarFunc fn_lastval = { "lastval", lastval_k, 0, 0, { 0 }, I8, FRET_FIXED,
				       false, false };
static const ScalarFunc fn_setval2 = { "setval", setval_k, 2, 0, { TX, I8 }, I8, FRET_FIXED,
				       true, false };
static const ScalarFunc fn_setval3 = { "setval", setval_k, 3, 0, { TX, I8, TYPE_BOOL }, I8,
				       FRET_FIXED, true, false };

bool
seq_is_func(const char *name)
{
	return !strcmp(name, "nextval") || !strcmp(name, "currval") || !strcmp(name, "setval") ||
	       !strcmp(name, "lastval") || !strcmp(name, "pg_get_serial_sequence");
}

/* The oid of a sequence (regclass) back to its names: 42809 when none. */
static int
oid_names(Session *s, int64_t oid, Arena *a, const char **ns, const char **name, floe_error *err)
{
	Catalog *c = s->engine->catalog;
	char **nss, **names;
	int nns, n, i, k;

	TRY(catalog_list_namespaces(c, a, &nss, &nns, err));
	for (i = 0; i < nns; i++) {
		if (!c->vt->seq_list)
			break;
		TRY(c->vt->seq_list(c, nss[i], a, &names, &n, err));
		for (k = 0; k < n; k++)
			if (pgcatalog_table_oid(nss[i], names[k]) == oid) {
				*ns = nss[i];
				*name = names[k];
				return FLOE_OK;
			}
	}
	return floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "relation with OID %lld is not a sequence",
			   (long long)oid);
}

/* the error at the argument (as PostgreSQL's regclass input points), else
 * at the call */
static Expr *
fail_loc(BindCtx *b, Expr *arg, int location)
{
	if (b->err->position == 0) {
		if (arg && arg->location > 0)
			floe_error_position(b->err, arg->location);
		else if (location >= 0)
			floe_error_position(b->err, bind_location(b, location));
	}
	return NULL;
}

Expr *
seq_bind_call(BindCtx *b, const char *name, Expr **args, int nargs, int location)
{
	const ScalarFunc *fn;
	Expr *e, *a0 = NULL;
	int i;

	if (!strcmp(name, "pg_get_serial_sequence"))
		return serial_get_sequence(b, args, nargs, location);   /* serial.c */
	if (!strcmp(name, "lastval") && nargs == 0)
		fn = &fn_lastval;
	else if (!strcmp(name, "nextval") && nargs == 1)
		fn = b->identity_default ? &fn_nextval_identity : &fn_nextval;
	else if (!strcmp(name, "currval") && nargs == 1)
		fn = &fn_currval;
	else if (!strcmp(name, "setval") && nargs == 2)
		fn = &fn_setval2;
	else if (!strcmp(name, "setval") && nargs == 3)
		fn = &fn_setval3;
	else {
		floe_errorf(b->err, ERRCODE_UNDEFINED_FUNCTION, "function %s with %d arguments does not exist",
			    name, nargs);
		floe_error_hint(b->err, "No function matches the given name and argument types. "
				"You might need to add explicit type casts.");
		return fail_loc(b, NULL, location);
	}
	if (nargs > 0) {
		Expr *x = args[0];
		const char *ns, *nm;
		if (x->kind == EXPR_CONST && !x->value.is_null && type_is_string(x->type.id)) {
			const char *t = arena_strndup(b->arena, strview_data(&x->value.u.s), x->value.u.s.len);
			if (seq_resolve(b->session, t, b->arena, &ns, &nm, b->err) != FLOE_OK)
				return fail_loc(b, x, location);
		} else if (x->kind == EXPR_CONST && !x->value.is_null && type_is_integer(x->type.id)) {
			if (oid_names(b->session, x->value.u.i, b->arena, &ns, &nm, b->err) != FLOE_OK)
				return fail_loc(b, x, location);
		} else if (x->kind == EXPR_CONST && x->value.is_null) {
			ns = nm = NULL;
		} else if (type_is_string(x->type.id) || x->unknown_literal) {
			ns = NULL;
			nm = "";
			a0 = bind_coerce(b, x, type_make(TYPE_TEXT), COERCE_IMPLICIT, NULL);
			if (!a0)
				return NULL;
		} else {
			floe_errorf(b->err, ERRCODE_FEATURE_NOT_SUPPORTED,
				    "%s of a computed regclass is not supported: pass the sequence name as text",
				    name);
			return fail_loc(b, x, location);
		}
		if (!a0) {
			Value v;
			if (nm) {
				char *t = arena_sprintf(b->arena, "%s%c%s", ns, SEQ_SEP, nm);
				v.is_null = false;
				v.type = type_make(TYPE_TEXT);
				v.u.s = strview_make(t, (uint32_t)strlen(t));
			} else {
				v = value_null(type_make(TYPE_TEXT));
			}
			a0 = expr_const(b->arena, &v);
		}
	}
	e = expr_new(b->arena, EXPR_FUNC, type_make(TYPE_INT64), nargs);
	e->fn = fn;
	e->location = bind_location(b, location);
	if (nargs > 0)
		e->args[0] = a0;
	for (i = 1; i < nargs; i++) {
		SqlType t = type_make(i == 1 ? TYPE_INT64 : TYPE_BOOL);
		if (!(e->args[i] = bind_coerce(b, args[i], t, COERCE_IMPLICIT, NULL)))
			return NULL;
	}
	return e;
}
