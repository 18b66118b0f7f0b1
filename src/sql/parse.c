/*
 * parse.c — libpg_query front (see parse.h).
 *
 * pg_query_parse_protobuf parses the whole string (PostgreSQL parses a
 * simple-query message completely before running any of it); the protobuf
 * result is unpacked with protobuf-c and freed by an arena reset callback.
 * libpg_query's cursorpos (1-based character offset) becomes the error
 * position.
 */
#include <string.h>
#include "sql/parse.h"

static void
free_unpacked(void *p)
{
	pg_query__parse_result__free_unpacked(p, NULL);
}

int
sql_parse(const char *sql, Arena *arena, SqlStmt **stmts, int *n, floe_error *err)
{
	PgQueryProtobufParseResult r = pg_query_parse_protobuf(sql);
	PgQuery__ParseResult *tree;
	size_t i;

	if (r.error) {
		floe_errorf(err, ERRCODE_SYNTAX_ERROR, "%s", r.error->message);
		if (r.error->cursorpos > 0)
			floe_error_position(err, r.error->cursorpos);   /* already in characters */
		pg_query_free_protobuf_parse_result(r);
		return FLOE_ERR;
	}
	tree = pg_query__parse_result__unpack(NULL, r.parse_tree.len,
					      (const uint8_t *)r.parse_tree.data);
	pg_query_free_protobuf_parse_result(r);
	if (!tree)
		return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "could not decode the parse tree");
	arena_on_reset(arena, free_unpacked, tree);
	*n = (int)tree->n_stmts;
	*stmts = ARENA_ARRAY(arena, SqlStmt, tree->n_stmts ? tree->n_stmts : 1);
	for (i = 0; i < tree->n_stmts; i++) {
		(*stmts)[i].node = tree->stmts[i]->stmt;
		(*stmts)[i].location = tree->stmts[i]->stmt_location;
		(*stmts)[i].len = tree->stmts[i]->stmt_len;
	}
	return FLOE_OK;
}

int
sql_parse_expr(const char *text, Arena *arena, Node **out, floe_error *err)
{
	char *sql = arena_sprintf(arena, "SELECT %s", text);
	SqlStmt *stmts;
	int n;
	Node *s;

	TRY(sql_parse(sql, arena, &stmts, &n, err));
	if (n != 1 || !(s = stmts[0].node) || s->node_case != PG_QUERY__NODE__NODE_SELECT_STMT ||
	    s->select_stmt->n_target_list != 1)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "invalid expression: %s", text);
	*out = s->select_stmt->target_list[0]->res_target->val;
	return FLOE_OK;
}
