/*
 * snapshot_pin.c — floe.snapshot_mode (see snapshot_pin.h for the modes
 * and invariants).
 *
 * The session's pins: (ns, name) -> the Table as loaded, in an arena of its
 * own, with the time it was loaded and the insert buffer's flush count
 * then.  A pin is used while younger than floe.snapshot_pin_ttl and the
 * flush count is unchanged; else the table is loaded again (the catalog
 * round trip) and the pin replaced.  The arena is counted (Held): the pin
 * holds it, and so does every arena a statement got the Table into (an
 * arena_on_reset callback lets go), so a replaced or dropped pin's arena
 * lives while any plan, cursor or portal may read it (invariant 4).
 */
#include <stdatomic.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "ingest/ingest.h"
#include "sql/engine.h"
#include "sql/snapshot_pin.h"
#include "sql/txn.h"
#include "table/table.h"

typedef struct Held {
	Arena *a;
	atomic_int refs;
} Held;

typedef struct Pin {
	char *ns, *name;
	Held *h;
	Table *t;
	int64_t at_ms;
	uint64_t gen;
} Pin;

struct PinCache {
	Pin *v;
	int n, cap;
};

#define DEFAULT_TTL "15s"
#define DEFAULT_MAX "64"

/* ---- settings --------------------------------------------------------------- */

bool
snapshot_pin_is_setting(const char *name)
{
	return !strcmp(name, "floe.snapshot_mode") || !strcmp(name, "floe.snapshot_pin_ttl") ||
	       !strcmp(name, "floe.snapshot_pin_max_tables");
}

const char *
snapshot_pin_setting_default(const char *name)
{
	if (!strcmp(name, "floe.snapshot_mode"))
		return "latest";
	if (!strcmp(name, "floe.snapshot_pin_ttl"))
		return DEFAULT_TTL;
	if (!strcmp(name, "floe.snapshot_pin_max_tables"))
		return DEFAULT_MAX;
	return NULL;
}

/* "250ms", "15s", "2min", "1h" or a bare number of ms -> ms; -1 when bad */
static int64_t
parse_ms(const char *v)
{
	int64_t n = 0;
	const char *p = v;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > INT64_C(1000000000000))
			return -1;
		n = n * 10 + (*p - '0');
	}
	while (isspace((unsigned char)*p))
		p++;
	if (!*p || !strcmp(p, "ms"))
		return n;
	if (!strcmp(p, "s"))
		return n * 1000;
	if (!strcmp(p, "min"))
		return n * 60000;
	if (!strcmp(p, "h"))
		return n * 3600000;
	return -1;
}

/* "explicit:<id>" -> id; false when v is not that form */
static bool
explicit_id(const char *v, int64_t *id)
{
	const char *p;
	char *end;
	long long x;

	if (strncasecmp(v, "explicit:", 9))
		return false;
	p = v + 9;
	if (!isdigit((unsigned char)*p) && *p != '-')
		return false;
	x = strtoll(p, &end, 10);
	if (*end || end == p)
		return false;
	*id = x;
	return true;
}

int
snapshot_pin_canon_setting(const char *name, const char *value, char *out, size_t cap,
			   floe_error *err)
{
	int64_t id;

	snprintf(out, cap, "%s", value);
	if (!strcmp(name, "floe.snapshot_mode")) {
		if (!strcasecmp(value, "latest") || !strcasecmp(value, "pinned")) {
			snprintf(out, cap, "%s", tolower((unsigned char)value[0]) == 'l' ? "latest" : "pinned");
			return FLOE_OK;
		}
		if (explicit_id(value, &id)) {
			snprintf(out, cap, "explicit:%" PRId64, id);
			return FLOE_OK;
		}
		floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
			    "invalid value for parameter \"%s\": \"%s\"", name, value);
		return floe_error_hint(err, "Available values: latest, pinned, explicit:<snapshot id>.");
	}
	if (!strcmp(name, "floe.snapshot_pin_ttl")) {
		if (parse_ms(value) < 0) {
			floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				    "invalid value for parameter \"%s\": \"%s\"", name, value);
			return floe_error_hint(err, "A duration: a number with ms, s, min or h (a bare number is milliseconds).");
		}
		return FLOE_OK;
	}
	{
		/* floe.snapshot_pin_max_tables: 1 .. 100000 */
		const char *p = value;
		long long x = 0;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			x = -1;
		for (; *p && x >= 0; p++)
			x = isdigit((unsigned char)*p) && x <= 100000 ? x * 10 + (*p - '0') : -1;
		if (x < 1 || x > 100000)
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "invalid value for parameter \"%s\": \"%s\" (1 .. 100000)", name, value);
		snprintf(out, cap, "%lld", x);
		return FLOE_OK;
	}
}

static const char *
setting(Session *s, const char *name)
{
	const char *v = session_setting(s, name);
	return v && *v ? v : snapshot_pin_setting_default(name);
}

/* ---- the session's pins -------------------------------------------------------- */

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
unref(void *arg)
{
	Held *h = arg;

	if (atomic_fetch_sub(&h->refs, 1) == 1) {
		arena_free(h->a);
		free(h);
	}
}

static void
drop_pin(struct PinCache *c, int i)
{
	unref(c->v[i].h);
	free(c->v[i].ns);
	free(c->v[i].name);
	c->v[i] = c->v[--c->n];
}

/* x (in h's arena) into a, which holds h until its reset */
static Table *
use_table(Held *h, const Table *x, Arena *a)
{
	Table *t = ARENA_NEW(a, Table);

	*t = *x;
	atomic_fetch_add(&h->refs, 1);
	arena_on_reset(a, unref, h);
	return t;
}

int
snapshot_pin_load(Session *s, const char *ns, const char *name, Arena *a, Table **t,
		  int64_t *snap, const IcebergSchema **schema, floe_error *err)
{
	const char *mode = setting(s, "floe.snapshot_mode");
	struct PinCache *c;
	int64_t id, ttl, now;
	uint64_t gen;
	int i, max;
	Held *h;
	Table *x;

	*snap = -1;
	*schema = NULL;
	if (explicit_id(mode, &id)) {
		const Snapshot *sn;
		TRY(txn_table_load(s, ns, name, a, t, err));
		if (!(sn = metadata_snapshot_by_id((*t)->md, id))) {
			floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				    "table \"%s\" has no snapshot %" PRId64, name, id);
			return floe_error_hint(err, "floe.snapshot_mode is '%s'; SET floe.snapshot_mode = 'latest' "
					       "reads the current snapshots.", mode);
		}
		*snap = id;
		*schema = sn->has_schema_id ? metadata_schema_by_id((*t)->md, sn->schema_id) : NULL;
		if (!*schema)
			*schema = metadata_current_schema((*t)->md);
		return FLOE_OK;
	}
	if (strcmp(mode, "pinned") || session_txn_status(s) != 'I' ||
	    !ingest_pin_generation(s->engine, &gen))
		return txn_table_load(s, ns, name, a, t, err);
	if (!s->pins)
		s->pins = xcalloc(1, sizeof *s->pins);
	c = s->pins;
	ttl = parse_ms(setting(s, "floe.snapshot_pin_ttl"));
	max = atoi(setting(s, "floe.snapshot_pin_max_tables"));
	now = now_ms();
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].ns, ns) && !strcmp(c->v[i].name, name))
			break;
	if (i < c->n && now - c->v[i].at_ms < ttl && c->v[i].gen == gen) {
		*t = use_table(c->v[i].h, c->v[i].t, a);     /* no catalog round trip */
		return FLOE_OK;
	}
	if (i < c->n)
		drop_pin(c, i);                /* expired */
	h = xcalloc(1, sizeof *h);
	h->a = arena_new(64 * 1024);
	atomic_init(&h->refs, 1);
	if (txn_table_load(s, ns, name, h->a, &x, err) != FLOE_OK) {
		unref(h);
		return FLOE_ERR;
	}
	*t = use_table(h, x, a);
	if (c->n >= max || ttl <= 0) {
		unref(h);                  /* not pinned: read latest */
		return FLOE_OK;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->v = xrealloc(c->v, sizeof *c->v * (size_t)c->cap);
	}
	c->v[c->n].ns = xstrdup(ns);
	c->v[c->n].name = xstrdup(name);
	c->v[c->n].h = h;
	c->v[c->n].t = x;
	c->v[c->n].at_ms = now;
	c->v[c->n].gen = gen;
	c->n++;
	return FLOE_OK;
}

void
snapshot_pin_forget(Session *s, const char *ns, const char *name)
{
	struct PinCache *c = s->pins;
	int i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].ns, ns) && !strcmp(c->v[i].name, name)) {
			drop_pin(c, i);
			return;
		}
}

void
snapshot_pin_after_stmt(Session *s, const Node *n)
{
	struct PinCache *c = s->pins;

	if (!c)
		return;
	/* invariant 1: only a query, SHOW or SET keeps the pins */
	if (!n || (n->node_case != PG_QUERY__NODE__NODE_SELECT_STMT &&
		   n->node_case != PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT &&
		   n->node_case != PG_QUERY__NODE__NODE_VARIABLE_SET_STMT))
		while (c->n > 0)
			drop_pin(c, c->n - 1);
}

int
snapshot_pin_check_write(Session *s, floe_error *err)
{
	int64_t id;
	const char *mode = setting(s, "floe.snapshot_mode");

	if (!explicit_id(mode, &id))
		return FLOE_OK;
	floe_errorf(err, ERRCODE_READ_ONLY_SQL_TRANSACTION,
		    "cannot write while floe.snapshot_mode is '%s'", mode);
	return floe_error_hint(err, "SET floe.snapshot_mode = 'latest' first.");
}

void
snapshot_pin_session_free(Session *s)
{
	struct PinCache *c = s->pins;

	if (!c)
		return;
	while (c->n > 0)
		drop_pin(c, c->n - 1);
	free(c->v);
	free(c);
	s->pins = NULL;
}
