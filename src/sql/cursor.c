/*
 * cursor.c — SQL cursors: DECLARE name [ASENSITIVE | INSENSITIVE]
 * [[NO] SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query, FETCH / MOVE
 * [direction] [FROM | IN] name, CLOSE name | ALL, and the rows of
 * pg_cursors (cursor.h).
 *
 * Spec: PostgreSQL 15 docs "DECLARE", "FETCH", "MOVE", "CLOSE", 54.6
 * pg_cursors; the position rules are those of PostgreSQL's portals
 * (DoPortalRunFetch / PortalRunSelect in tcop/pquery.c, restated here, no
 * code taken).
 *
 * A cursor is planned once at DECLARE into its own arena (the statement is
 * parsed again there, so nothing of the DECLARE's statement arena is
 * referenced later) with its own ExecCtx (one thread: no workers left
 * running between FETCHes); its tables are the ones the DECLARE loaded
 * (txn.c), so it reads the snapshot of its DECLARE as PostgreSQL's cursors
 * do (insensitive).  The plan is opened at the first FETCH and read a batch
 * at a time:
 *
 *   stream mode (neither SCROLL nor WITH HOLD): the current batch and the
 *       next row in it are all that is kept, so a cursor over a table of
 *       any size holds one batch (bounded memory).  A backward movement,
 *       when allowed, runs the plan again from its start over the same
 *       snapshot and reads up to the row it needs (only the rows one FETCH
 *       returns backward are held, to send them last to first);
 *   store mode (SCROLL or WITH HOLD): each batch read is appended to a
 *       RowStore (exec/buffer.c, in memory), so rows read once can be
 *       fetched again in either direction; FETCH LAST / ABSOLUTE -n read to
 *       the end.  A WITH HOLD cursor reads its remaining rows into the store
 *       at its block's COMMIT (or at once when declared outside a block), as
 *       PostgreSQL materialises a holdable portal at commit.
 *
 * Backward movement: allowed for SCROLL, refused (55000) for NO SCROLL;
 * for a cursor with neither, PostgreSQL allows it when the plan can run
 * backward (a sort on top, or plain scans: backward_shape) and so does
 * floe, from the query's shape; pg_cursors.is_scrollable says which.
 *
 * Position (PostgreSQL's portal state): at_start, at_end and pos (the row
 * the cursor is on, 1-based; 0 before the first).  Under it, the "executor"
 * position epos: 0 before the first row, k on row k, n+1 past the last of
 * n; in stream mode `consumed` is where the plan's output physically is.
 *
 * Lifetime: a cursor declared in a block closes at its COMMIT (unless WITH
 * HOLD) and at its ROLLBACK (held ones too); a held cursor of an earlier
 * transaction survives both.  CLOSE is immediate (not undone by a
 * ROLLBACK), and ROLLBACK TO SAVEPOINT closes nothing.
 *
 * Errors: 25P01 DECLARE without HOLD outside a block, 42P03 a name taken,
 * 34000 an unknown name, 55000 a backward movement of a NO SCROLL cursor,
 * 0A000 BINARY and FOR UPDATE/SHARE (refused by name).
 *
 * INTERFACE ROUTINES (cursor.h)
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sql/acl.h"
#include "sql/cursor.h"
#include "sql/txn.h"

/* DeclareCursorStmt.options (PostgreSQL's CURSOR_OPT_*) */
#define OPT_BINARY      0x0001
#define OPT_SCROLL      0x0002
#define OPT_NO_SCROLL   0x0004
#define OPT_INSENSITIVE 0x0008
#define OPT_ASENSITIVE  0x0010
#define OPT_HOLD        0x0020

#define FETCH_ALL LONG_MAX

typedef struct Cursor {
	struct Cursor *nx;
	char *name;
	char *statement;          /* the query string as sent (pg_cursors) */
	bool holdable, scroll;
	bool in_block;            /* declared in the open block */
	bool failed;              /* a FETCH failed: the cursor cannot run */
	int64_t created;          /* microseconds since 1970 */
	Arena *arena;             /* parse, plan, store */
	ExecCtx ctx;
	floe_error idle_err;      /* ctx.err between statements */
	SelectPlan plan;
	bool open, src_done;
	/* stream mode: the current batch and its next row; the rows read
	 * since the plan was (re)opened; the row count once known (-1) */
	Batch *cur;
	uint32_t cur_next;
	int64_t consumed, nrows;
	/* store mode: every row read so far; starts[i] the first row (0-based)
	 * of the store's batch i */
	RowStore *store;
	int64_t *starts;
	int nstarts, capstarts;
	int64_t epos;
	/* PostgreSQL's portal position */
	bool at_start, at_end;
	int64_t pos;
} Cursor;

struct CursorState {
	Cursor *head;
};

static Cursor **
find(Session *s, const char *name)
{
	Cursor **p;

	if (!s->cursors)
		s->cursors = xcalloc(1, sizeof(struct CursorState));
	for (p = &s->cursors->head; *p; p = &(*p)->nx)
		if (!strcmp((*p)->name, name))
			return p;
	return p;
}

static void
cursor_free(Cursor *c)
{
	c->ctx.err = &c->idle_err;
	if (c->open)
		op_close(c->plan.root);
	c->open = false;
	free(c->starts);
	free(c->name);
	free(c->statement);
	arena_free(c->arena);
	free(c);
}

static void
unlink_free(Session *s, Cursor *c)
{
	Cursor **p;

	for (p = &s->cursors->head; *p; p = &(*p)->nx)
		if (*p == c) {
			*p = c->nx;
			break;
		}
	cursor_free(c);
}

void
cursor_session_free(Session *s)
{
	Cursor *c, *nx;

	if (!s->cursors)
		return;
	for (c = s->cursors->head; c; c = nx) {
		nx = c->nx;
		cursor_free(c);
	}
	free(s->cursors);
	s->cursors = NULL;
}

/* ---- the source: the plan, read forward a batch at a time ---------------- */

/* The next non-empty batch of the plan, into the store (store mode) or as
 * the current batch; *got false at the end (the plan is then closed). */
static int
pull(Cursor *c, bool *got)
{
	Batch *b;

	*got = false;
	if (c->src_done)
		return FLOE_OK;
	if (!c->open) {
		if (op_open(c->plan.root) != FLOE_OK) {
			op_close(c->plan.root);
			return FLOE_ERR;
		}
		c->open = true;
	}
	for (;;) {
		if (op_next(c->plan.root, &b) != FLOE_OK)
			return FLOE_ERR;
		if (!b) {
			op_close(c->plan.root);
			c->open = false;
			c->src_done = true;
			c->cur = NULL;
			return FLOE_OK;
		}
		if (b->count)
			break;
	}
	batch_compact(b);
	if (c->store) {
		if (c->nstarts == c->capstarts) {
			c->capstarts = c->capstarts ? c->capstarts * 2 : 16;
			c->starts = xrealloc(c->starts, sizeof(int64_t) * (size_t)c->capstarts);
		}
		c->starts[c->nstarts++] = rowstore_rows(c->store);
		rowstore_append(c->store, b);
	} else {
		c->cur = b;
		c->cur_next = 0;
	}
	*got = true;
	return FLOE_OK;
}

/* ---- emitting rows ------------------------------------------------------- */

typedef struct Emit {
	Cursor *c;
	ResultSink *sink;         /* NULL: MOVE (rows counted, not sent) */
	RowStore *into;           /* rows collected here instead (backward, stream mode) */
	Arena *scratch;
	floe_error *err;
	Batch *src;
	uint32_t n;
	uint32_t sel[VECTOR_SIZE];
} Emit;

static int
emit_flush(Emit *e)
{
	Cursor *c = e->c;
	Batch *out;
	int k;

	if (!e->n)
		return FLOE_OK;
	if (e->into) {
		Batch v = *e->src;
		v.sel = e->sel;
		v.count = e->n;
		rowstore_append(e->into, &v);
	} else if (e->sink && e->sink->batch) {
		out = batch_new(e->scratch, c->plan.ncols, c->plan.types, e->n);
		for (k = 0; k < c->plan.ncols; k++)
			vector_copy_rows(&out->cols[k], 0, &e->src->cols[k], e->sel, e->n);
		out->count = e->n;
		if (e->sink->batch(e->sink->ctx, out) != 0) {
			e->n = 0;
			return floe_errorf(e->err, ERRCODE_QUERY_CANCELED,
					   "canceling statement due to user request");
		}
		arena_reset(e->scratch);
	}
	e->n = 0;
	return FLOE_OK;
}

static int
emit_row(Emit *e, Batch *src, uint32_t row)
{
	if (e->n && (e->src != src || e->n == VECTOR_SIZE))
		TRY(emit_flush(e));
	e->src = src;
	e->sel[e->n++] = row;
	return FLOE_OK;
}

/* Row k (1-based) of the store. */
static void
store_row(Cursor *c, int64_t k, Batch **b, uint32_t *row)
{
	int lo = 0, hi = c->nstarts - 1;

	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (c->starts[mid] <= k - 1)
			lo = mid;
		else
			hi = mid - 1;
	}
	*b = rowstore_batch(c->store, lo);
	*row = (uint32_t)(k - 1 - c->starts[lo]);
}

/* Stream mode: the plan from its start again (a backward movement of an
 * implicitly scrollable cursor re-reads its snapshot). */
static void
restart(Cursor *c)
{
	if (c->open)
		op_close(c->plan.root);
	c->open = false;
	c->src_done = false;
	c->cur = NULL;
	c->consumed = 0;
}

/* Stream mode: the next row (*got false at the end); e's rows go out
 * before the current batch is replaced. */
static int
stream_next(Cursor *c, Emit *e, Batch **b, uint32_t *row, bool *got)
{
	for (;;) {
		if (c->cur && c->cur_next < c->cur->count) {
			*b = c->cur;
			*row = c->cur_next++;
			c->consumed++;
			*got = true;
			return FLOE_OK;
		}
		if (e)
			TRY(emit_flush(e));
		TRY(pull(c, got));
		if (!*got) {
			c->nrows = c->consumed;
			return FLOE_OK;
		}
	}
}

/* Stream mode: k rows read since the plan's start. */
static int
stream_seek(Cursor *c, int64_t k)
{
	Batch *b;
	uint32_t row;
	bool got = true;

	if (c->consumed > k)
		restart(c);
	while (c->consumed < k && got)
		TRY(stream_next(c, NULL, &b, &row, &got));
	return FLOE_OK;
}

/* Stream mode, backward: rows epos-1 down to lo read again from the start
 * into a store of their own, then emitted last to first. */
static int
stream_backward(Cursor *c, int64_t count, Emit *e, int64_t *n)
{
	int64_t from = c->nrows >= 0 && c->epos > c->nrows ? c->nrows + 1 : c->epos;
	int64_t hi = from - 1, lo, i;
	Arena *tmp;
	ExecCtx tctx;
	Emit *col;
	RowStore *rs;
	int rc = FLOE_OK, k;

	*n = 0;
	if (hi < 1) {
		c->epos = 0;
		return FLOE_OK;
	}
	lo = count == 0 || count >= hi ? 1 : from - count;
	TRY(stream_seek(c, lo - 1));
	tmp = arena_new(64 * 1024);
	tctx = c->ctx;
	tctx.arena = tmp;
	rs = rowstore_new(&tctx, c->plan.ncols, c->plan.types, NULL);
	col = ARENA_NEW(tmp, Emit);
	col->c = c;
	col->into = rs;
	col->err = e->err;
	for (i = lo; i <= hi && rc == FLOE_OK; i++) {
		Batch *b;
		uint32_t row;
		bool got;
		rc = stream_next(c, col, &b, &row, &got);
		if (rc == FLOE_OK && !got)
			break;       /* the snapshot gave fewer rows this time */
		if (rc == FLOE_OK)
			rc = emit_row(col, b, row);
	}
	if (rc == FLOE_OK)
		rc = emit_flush(col);
	for (k = rowstore_nbatches(rs) - 1; k >= 0 && rc == FLOE_OK; k--) {
		Batch *b = rowstore_batch(rs, k);
		uint32_t r;
		for (r = b->count; r-- > 0 && rc == FLOE_OK;) {
			rc = emit_row(e, b, r);
			(*n)++;
		}
	}
	if (rc == FLOE_OK)
		rc = emit_flush(e);
	arena_free(tmp);
	TRY(rc);
	c->epos = count == 0 || *n < count ? 0 : lo;
	return FLOE_OK;
}

/* The "executor": up to count rows (0: all) forward or backward from the
 * current position, emitted; *n the rows processed. */
static int
run(Cursor *c, bool forward, int64_t count, Emit *e, int64_t *n)
{
	bool got;

	*n = 0;
	if (!c->store && !forward)
		return stream_backward(c, count, e, n);
	if (!c->store) {
		if (c->nrows >= 0 && c->epos > c->nrows)
			return FLOE_OK;
		TRY(stream_seek(c, c->epos));
		while (count == 0 || *n < count) {
			Batch *b;
			uint32_t row;
			TRY(stream_next(c, e, &b, &row, &got));
			if (!got) {
				c->epos = c->nrows + 1;
				break;
			}
			c->epos++;
			TRY(emit_row(e, b, row));
			(*n)++;
		}
		return emit_flush(e);
	}
	if (forward) {
		while (count == 0 || *n < count) {
			Batch *b;
			uint32_t row;
			if (c->epos >= rowstore_rows(c->store)) {
				if (c->epos > rowstore_rows(c->store))
					break;
				TRY(emit_flush(e));
				TRY(pull(c, &got));
				if (!got) {
					c->epos = rowstore_rows(c->store) + 1;
					break;
				}
				continue;
			}
			c->epos++;
			store_row(c, c->epos, &b, &row);
			TRY(emit_row(e, b, row));
			(*n)++;
		}
	} else {
		while (count == 0 || *n < count) {
			Batch *b;
			uint32_t row;
			if (c->epos <= 1) {
				c->epos = 0;
				break;
			}
			c->epos--;
			store_row(c, c->epos, &b, &row);
			TRY(emit_row(e, b, row));
			(*n)++;
		}
	}
	return emit_flush(e);
}

static int
scan_forward_error(floe_error *err)
{
	floe_errorf(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "cursor can only scan forward");
	floe_error_hint(err, "Declare it with SCROLL option to enable backward scan.");
	return FLOE_ERR;
}

/* PortalRunSelect: count FETCH_ALL for all, <= 0 for no movement */
static int
run_select(Cursor *c, bool forward, int64_t count, Emit *e, int64_t *n)
{
	bool move;

	*n = 0;
	if (forward) {
		move = !(c->at_end || count <= 0);
		if (!move)
			count = 0;
		if (count == FETCH_ALL)
			count = 0;
		if (move) {
			TRY(run(c, true, count, e, n));
			if (*n > 0)
				c->at_start = false;
			if (count == 0 || *n < count)
				c->at_end = true;
			c->pos += *n;
		}
		return FLOE_OK;
	}
	if (!c->scroll)
		return scan_forward_error(e->err);
	move = !(c->at_start || count <= 0);
	if (!move)
		count = 0;
	if (count == FETCH_ALL)
		count = 0;
	if (move) {
		TRY(run(c, false, count, e, n));
		if (*n > 0 && c->at_end) {
			c->at_end = false;
			c->pos++;
		}
		if (count == 0 || *n < count) {
			c->at_start = true;
			c->pos = 0;
		} else {
			c->pos -= *n;
		}
	}
	return FLOE_OK;
}

static int
rewind_cursor(Cursor *c, floe_error *err)
{
	if (c->at_start && !c->at_end)
		return FLOE_OK;
	if (!c->scroll)
		return scan_forward_error(err);
	c->epos = 0;
	c->at_start = true;
	c->at_end = false;
	c->pos = 0;
	return FLOE_OK;
}

/* DoPortalRunFetch: *n the rows fetched (or, for MOVE, passed over) */
static int
run_fetch(Cursor *c, PgQuery__FetchDirection dir, int64_t count, Emit *e, int64_t *n)
{
	Emit none = *e;
	bool forward;

	none.sink = NULL;
	*n = 0;
	switch (dir) {
	case PG_QUERY__FETCH_DIRECTION__FETCH_BACKWARD:
		if (count < 0) {
			dir = PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD;
			count = -count;
		}
		break;
	case PG_QUERY__FETCH_DIRECTION__FETCH_ABSOLUTE:
		if (count > 0) {
			if (count - 1 < c->pos - count) {
				TRY(rewind_cursor(c, e->err));
				if (count > 1)
					TRY(run_select(c, true, count - 1, &none, n));
			} else {
				int64_t p = c->pos;
				if (c->at_end)
					p++;
				if (count <= p)
					TRY(run_select(c, false, p - count + 1, &none, n));
				else if (count > p + 1)
					TRY(run_select(c, true, count - p - 1, &none, n));
			}
			return run_select(c, true, 1, e, n);
		}
		if (count < 0) {
			TRY(run_select(c, true, FETCH_ALL, &none, n));
			if (count < -1)
				TRY(run_select(c, false, -count - 1, &none, n));
			return run_select(c, false, 1, e, n);
		}
		TRY(rewind_cursor(c, e->err));
		return run_select(c, true, 0, e, n);
	case PG_QUERY__FETCH_DIRECTION__FETCH_RELATIVE:
		if (count > 0) {
			if (count > 1)
				TRY(run_select(c, true, count - 1, &none, n));
			return run_select(c, true, 1, e, n);
		}
		if (count < 0) {
			if (count < -1)
				TRY(run_select(c, false, -count - 1, &none, n));
			return run_select(c, false, 1, e, n);
		}
		dir = PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD;
		break;
	default:   /* FORWARD */
		if (count < 0) {
			dir = PG_QUERY__FETCH_DIRECTION__FETCH_BACKWARD;
			count = -count;
		}
		break;
	}
	forward = dir == PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD;
	if (count == 0) {
		/* re-fetch the current row, if any */
		bool on_row = !c->at_start && !c->at_end;
		if (!e->sink) {
			*n = on_row ? 1 : 0;
			return FLOE_OK;
		}
		if (on_row) {
			TRY(run_select(c, false, 1, &none, n));
			count = 1;
			forward = true;
		}
	}
	if (!forward && count == FETCH_ALL && !e->sink) {
		/* MOVE BACKWARD ALL: a rewind */
		int64_t r = c->pos;
		if (r > 0 && !c->at_end)
			r--;
		TRY(rewind_cursor(c, e->err));
		*n = r;
		return FLOE_OK;
	}
	return run_select(c, forward, count, e, n);
}

/* A WITH HOLD cursor at its transaction's end: every row into the store,
 * the plan closed. */
static int
hold(Cursor *c, floe_error *err)
{
	bool got;
	int rc = FLOE_OK;

	c->ctx.err = err;
	do
		rc = pull(c, &got);
	while (rc == FLOE_OK && got);
	c->ctx.err = &c->idle_err;
	return rc;
}

/* ---- implicit scrolling -------------------------------------------------- */

/* What an expression does at this query level (not inside a subquery):
 * bit 1 aggregates, bit 2 windows, bit 4 returns a set. */
static const char *const srf_names[] = {
	"generate_series", "generate_subscripts", "unnest", "regexp_matches",
	"regexp_split_to_table", "string_to_table", "json_each", "jsonb_each",
	"json_each_text", "jsonb_each_text", "json_array_elements", "jsonb_array_elements",
	"json_array_elements_text", "jsonb_array_elements_text", "json_object_keys",
	"jsonb_object_keys", NULL
};

static int
expr_walk(const ProtobufCMessage *m, void *arg)
{
	int *found = arg;

	if (m->descriptor == &pg_query__node__descriptor) {
		const Node *n = (const Node *)m;
		if (n->node_case == PG_QUERY__NODE__NODE_SELECT_STMT)
			return 0;
		if (n->node_case == PG_QUERY__NODE__NODE_FUNC_CALL) {
			PgQuery__FuncCall *fc = n->func_call;
			const Node *last = fc->n_funcname ? fc->funcname[fc->n_funcname - 1] : NULL;
			const char *name = last && last->node_case == PG_QUERY__NODE__NODE_STRING
					   ? last->string->sval : "";
			int k;
			if (fc->over)
				*found |= 2;
			else if (fc->agg_star || fc->agg_distinct || fc->agg_filter || fc->n_agg_order ||
				 fc->agg_within_group || bind_is_aggregate_name(name))
				*found |= 1;
			for (k = 0; srf_names[k]; k++)
				if (!strcmp(name, srf_names[k]))
					*found |= 4;
		}
	}
	return sql_children(m, expr_walk, arg);
}

/* PostgreSQL makes a cursor declared without SCROLL / NO SCROLL
 * scrollable when its plan can run backward (ExecSupportsBackwardScan):
 * a sort on top (ORDER BY over a FROM), or scans of a table, VALUES or a
 * function through filters, projections, limits and UNION ALL — not
 * joins, aggregation, grouping, DISTINCT, windows, set-returning select
 * lists, other set operations, or a query without FROM.  The same shape
 * here, from the query's text (PostgreSQL decides on its plan, so a plan
 * choice can differ: docs/cursors.md). */
static bool
backward_shape(const PgQuery__SelectStmt *q)
{
	int found = 0;
	size_t i;

	if (!q)
		return false;
	if (q->op == PG_QUERY__SET_OPERATION__SETOP_UNION && q->all && !q->n_sort_clause)
		return backward_shape(q->larg) && backward_shape(q->rarg);
	if (q->op != PG_QUERY__SET_OPERATION__SETOP_NONE)
		return q->n_sort_clause > 0;
	if (q->n_values_lists)
		return true;
	if (q->n_from_clause == 0 || q->n_locking_clause)
		return false;
	for (i = 0; i < q->n_target_list; i++)
		expr_walk(&q->target_list[i]->base, &found);
	for (i = 0; i < q->n_sort_clause; i++)
		expr_walk(&q->sort_clause[i]->base, &found);
	if (q->having_clause)
		found |= 1;
	if (q->n_sort_clause)
		return !(found & 2);
	if (q->n_from_clause != 1 || q->n_group_clause || q->n_distinct_clause ||
	    q->n_window_clause || found)
		return false;
	switch (q->from_clause[0]->node_case) {
	case PG_QUERY__NODE__NODE_RANGE_VAR:
	case PG_QUERY__NODE__NODE_RANGE_FUNCTION:
		return true;
	case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: {
		const Node *sub = q->from_clause[0]->range_subselect->subquery;
		return sub && sub->node_case == PG_QUERY__NODE__NODE_SELECT_STMT &&
		       backward_shape(sub->select_stmt);
	}
	default:
		return false;
	}
}

/* ---- statements ---------------------------------------------------------- */

/* the statement of sql at byte offset loc, parsed again into a */
static PgQuery__DeclareCursorStmt *
reparse(const char *sql, int loc, Arena *a, floe_error *err)
{
	SqlStmt *stmts;
	int n, i;

	if (sql_parse(sql, a, &stmts, &n, err) != FLOE_OK)
		return NULL;
	for (i = 0; i < n; i++)
		if (stmts[i].location == loc &&
		    stmts[i].node->node_case == PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT)
			return stmts[i].node->declare_cursor_stmt;
	floe_errorf(err, ERRCODE_INTERNAL_ERROR, "DECLARE: statement not found again");
	return NULL;
}

int
cursor_declare(Session *s, ExecCtx *ctx, const char *sql, const SqlStmt *st,
	       PgQuery__DeclareCursorStmt *ds, ResultSink *sink)
{
	floe_error *err = ctx->err;
	Cursor **slot, *c;
	PgQuery__DeclareCursorStmt *again;
	char status = session_txn_status(s);
	struct timespec ts;

	if ((ds->options & OPT_SCROLL) && (ds->options & OPT_NO_SCROLL))
		return floe_errorf(err, ERRCODE_INVALID_CURSOR_DEFINITION,
				   "cannot specify both SCROLL and NO SCROLL");
	if ((ds->options & OPT_INSENSITIVE) && (ds->options & OPT_ASENSITIVE))
		return floe_errorf(err, ERRCODE_INVALID_CURSOR_DEFINITION,
				   "cannot specify both INSENSITIVE and ASENSITIVE");
	if (!(ds->options & OPT_HOLD) && status == 'I')
		return floe_errorf(err, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
				   "DECLARE CURSOR can only be used in transaction blocks");
	if (!ds->query || ds->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "DECLARE CURSOR supports only SELECT and VALUES yet");
	if (ds->query->select_stmt->n_locking_clause > 0)
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "DECLARE CURSOR ... FOR UPDATE/SHARE is not supported yet");
	slot = find(s, ds->portalname);
	if (*slot)
		return floe_errorf(err, ERRCODE_DUPLICATE_CURSOR, "cursor \"%s\" already exists",
				   ds->portalname);

	c = xcalloc(1, sizeof *c);
	c->arena = arena_new(64 * 1024);
	c->ctx = *ctx;
	c->ctx.arena = c->arena;
	c->ctx.threads = 1;        /* no workers left running between FETCHes */
	c->ctx.env = acl_statement_env(s, c->arena);
	c->ctx.params = NULL;
	c->ctx.nparams = 0;
	c->name = xstrdup(ds->portalname);
	c->statement = xstrdup(sql);
	c->holdable = (ds->options & OPT_HOLD) != 0;
	c->scroll = (ds->options & OPT_SCROLL) ||
		    (!(ds->options & OPT_NO_SCROLL) && backward_shape(ds->query->select_stmt));
	c->nrows = -1;
	c->in_block = status != 'I';
	c->at_start = true;
	clock_gettime(CLOCK_REALTIME, &ts);
	c->created = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	{
		const char *copy = arena_strdup(c->arena, sql);
		if (!(again = reparse(copy, st->location, c->arena, err)) ||
		    select_plan(s, &c->ctx, copy, again->query, &c->plan) != FLOE_OK) {
			c->ctx.acl = NULL;
			cursor_free(c);
			return FLOE_ERR;
		}
	}
	c->ctx.acl = NULL;        /* the DECLARE's (its statement arena) */
	c->ctx.err = &c->idle_err;
	if (ds->options & OPT_BINARY) {   /* after the query's own errors, as PostgreSQL */
		cursor_free(c);
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "DECLARE BINARY CURSOR is not supported yet");
	}
	if ((ds->options & OPT_SCROLL) || c->holdable)
		c->store = rowstore_new(&c->ctx, c->plan.ncols, c->plan.types, NULL);
	if (c->holdable && status == 'I' && hold(c, err) != FLOE_OK) {
		cursor_free(c);
		return FLOE_ERR;
	}
	*slot = c;
	return engine_complete(sink, "DECLARE CURSOR");
}

int
cursor_fetch(Session *s, ExecCtx *ctx, PgQuery__FetchStmt *fs, ResultSink *sink)
{
	floe_error *err = ctx->err;
	Cursor *c = *find(s, fs->portalname);
	Emit *e;
	int64_t n = 0;
	int rc;
	char tag[64];

	if (!c)
		return floe_errorf(err, ERRCODE_INVALID_CURSOR_NAME, "cursor \"%s\" does not exist",
				   fs->portalname);
	if (c->failed)
		return floe_errorf(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
				   "portal \"%s\" cannot be run", c->name);
	if (!fs->ismove && sink && sink->columns &&
	    sink->columns(sink->ctx, c->plan.ncols, (const char *const *)c->plan.names,
			  c->plan.types) != 0)
		return floe_errorf(err, ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
	e = ARENA_NEW(ctx->arena, Emit);
	e->c = c;
	e->sink = fs->ismove ? NULL : sink;
	e->err = err;
	e->scratch = arena_new(64 * 1024);
	c->ctx.err = err;
	c->ctx.cancel = ctx->cancel;
	rc = run_fetch(c, fs->direction, fs->how_many, e, &n);
	c->ctx.err = &c->idle_err;
	arena_free(e->scratch);
	if (rc != FLOE_OK) {
		/* a failed read leaves the plan in an unknown state (55000 is
		 * a refused movement: nothing moved) */
		if (!floe_error_is(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE))
			c->failed = true;
		return FLOE_ERR;
	}
	snprintf(tag, sizeof tag, "%s %lld", fs->ismove ? "MOVE" : "FETCH", (long long)n);
	return engine_complete(sink, tag);
}

int
cursor_close(Session *s, PgQuery__ClosePortalStmt *cs, ResultSink *sink, floe_error *err)
{
	Cursor **slot, *c;

	if (!cs->portalname || !cs->portalname[0]) {
		cursor_session_free(s);
		return engine_complete(sink, "CLOSE CURSOR ALL");
	}
	slot = find(s, cs->portalname);
	if (!(c = *slot))
		return floe_errorf(err, ERRCODE_INVALID_CURSOR_NAME, "cursor \"%s\" does not exist",
				   cs->portalname);
	*slot = c->nx;
	cursor_free(c);
	return engine_complete(sink, "CLOSE CURSOR");
}

bool
cursor_describe(Session *s, const SqlStmt *st, Arena *a, int *ncols, char ***names,
		SqlType **types)
{
	PgQuery__FetchStmt *fs;
	Cursor *c;
	int i;

	if (st->node->node_case != PG_QUERY__NODE__NODE_FETCH_STMT)
		return false;
	fs = st->node->fetch_stmt;
	if (fs->ismove || !(c = *find(s, fs->portalname)))
		return false;
	*ncols = c->plan.ncols;
	*names = ARENA_ARRAY(a, char *, c->plan.ncols + 1);
	*types = ARENA_ARRAY(a, SqlType, c->plan.ncols + 1);
	for (i = 0; i < c->plan.ncols; i++) {
		(*names)[i] = arena_strdup(a, c->plan.names[i]);
		(*types)[i] = c->plan.types[i];
	}
	return true;
}

/* ---- transactions -------------------------------------------------------- */

int
cursor_txn_commit(Session *s, floe_error *err)
{
	Cursor *c;

	for (c = s->cursors ? s->cursors->head : NULL; c; c = c->nx)
		if (c->in_block && c->holdable && !c->failed)
			TRY(hold(c, err));
	return FLOE_OK;
}

void
cursor_txn_end(Session *s, bool committed)
{
	Cursor *c, *nx;

	for (c = s->cursors ? s->cursors->head : NULL; c; c = nx) {
		nx = c->nx;
		if (!c->in_block)
			continue;
		if (committed && c->holdable && !c->failed)
			c->in_block = false;
		else
			unlink_free(s, c);
	}
}

/* ---- pg_cursors ---------------------------------------------------------- */

static Value *
cell(ConstRel *r, Value *row, const char *col)
{
	int k;

	for (k = 0; k < r->ncols; k++)
		if (!strcmp(r->names[k], col))
			return &row[k];
	return NULL;
}

static void
put_text(ConstRel *r, Value *row, const char *col, const char *v)
{
	Value *x = cell(r, row, col);
	if (x) {
		x->is_null = false;
		x->u.s = strview_make(v, (uint32_t)strlen(v));
	}
}

static void
put_bool(ConstRel *r, Value *row, const char *col, bool v)
{
	Value *x = cell(r, row, col);
	if (x) {
		x->is_null = false;
		x->u.b = v;
	}
}

int
cursor_catalog_rows(Session *s, ConstRel *r, Arena *a)
{
	Cursor *c;

	for (c = s->cursors ? s->cursors->head : NULL; c; c = c->nx) {
		Value *row = constrel_row(r), *x;
		put_text(r, row, "name", arena_strdup(a, c->name));
		put_text(r, row, "statement", arena_strdup(a, c->statement));
		put_bool(r, row, "is_holdable", c->holdable);
		put_bool(r, row, "is_binary", false);
		put_bool(r, row, "is_scrollable", c->scroll);
		if ((x = cell(r, row, "creation_time"))) {
			x->is_null = false;
			x->u.i = c->created;
		}
	}
	return FLOE_OK;
}
