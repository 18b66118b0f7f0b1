/*
 * rowscan.c — a table's current rows through a nested statement
 * (rowscan.h).
 *
 * The statement goes through session_exec, so the plan, the snapshot and
 * the insert buffer's rows are the ones a user's SELECT would see; a sink
 * keeps the first row's values as text in the caller's arena.
 */
#include <string.h>
#include "sql/rowscan.h"
#include "types/text.h"

typedef struct FirstRow {
	Arena *a;
	bool found;
	const char **vals;
} FirstRow;

static int
first_batch(void *ctx, const Batch *b)
{
	FirstRow *f = ctx;
	uint32_t r;
	int c;

	if (f->found || b->count == 0)
		return FLOE_OK;
	r = b->sel ? b->sel[0] : 0;
	f->vals = ARENA_ARRAY(f->a, const char *, b->ncols + 1);
	for (c = 0; c < b->ncols; c++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[c], r, f->a, &len);
		f->vals[c] = t ? arena_strndup(f->a, t, len) : NULL;
	}
	f->found = true;
	return FLOE_OK;
}

static int
first_complete(void *ctx, const char *tag)
{
	(void)ctx;
	(void)tag;
	return FLOE_OK;
}

char *
rowscan_qident(Arena *a, const char *s)
{
	size_t n = strlen(s), i;
	char *q = arena_alloc(a, n * 2 + 3), *p = q;

	*p++ = '"';
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = s[i];
	}
	*p++ = '"';
	*p = 0;
	return q;
}

int
rowscan_first(Session *s, const Table *t, const char *select, const char *tail, Arena *a,
	      const char ***vals, bool *found, floe_error *err)
{
	FirstRow f = { a, false, NULL };
	ResultSink sink;
	char *sql;

	*found = false;
	if (vals)
		*vals = NULL;
	if (!t->md->has_current_snapshot)
		return FLOE_OK;
	memset(&sink, 0, sizeof sink);
	sink.ctx = &f;
	sink.batch = first_batch;
	sink.complete = first_complete;
	sql = arena_sprintf(a, "SELECT %s FROM %s.%s %s LIMIT 1", select, rowscan_qident(a, t->ns),
			    rowscan_qident(a, t->name), tail ? tail : "");
	TRY(session_exec(s, sql, &sink, err));
	*found = f.found;
	if (vals)
		*vals = f.vals;
	return FLOE_OK;
}
