/*
 * insert.c — INSERT [OVERWRITE] ... VALUES / SELECT / DEFAULT VALUES
 * [RETURNING] and CREATE TABLE AS on Iceberg tables.
 *
 * Every INSERT / CREATE TABLE AS is one Iceberg commit (txn_commit):
 * data files are written first, then the commit swaps the metadata
 * location in the catalog; a statement that fails before the swap removes
 * the files it wrote and leaves the table as it was (after 08006, outcome
 * unknown, it keeps them and lists them: txn_commit_failed).  INSERT
 * OVERWRITE (parse.c recognises it) is the same commit removing every
 * live file, or on a partitioned table those of the partitions the new
 * rows touch (Spark's dynamic overwrite).  Partitioned tables are written
 * through data_writer_set_spec with the table's default spec.  PRIMARY
 * KEY: plain INSERT goes through merge.c; COPY FROM and INSERT OVERWRITE
 * check the key here (KeySet: keys of the rows written, then the rows
 * that stay), 23505 as PostgreSQL.
 * INSERT ... RETURNING evaluates its list on each written batch and sends
 * the rows after the commit (dml.c's Returning).  COPY FROM (copy.c)
 * writes through the same path (engine_write_rows).
 *
 * INTERFACE ROUTINES (bind.h)
 *   insert_exec, insert_ctas, insert_write_rows, engine_write_rows
 *   insert_source(s, ctx, sql, insert_stmt, t, &root)   INSERT's rows, coerced
 *   insert_describe(s, ctx, sql, insert_stmt, &returning)
 *   bind_coerce_column, bind_default_expr, insert_check_width
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "types/udt.h"
#include "func/func.h"
#include "ingest/ingest.h"
#include "exec/modify.h"
#include "sql/acl.h"
#include "sql/bind.h"
#include "sql/check.h"
#include "sql/serial.h"
#include "sql/temp.h"
#include "sql/txn.h"
#include "sql/write_target.h"
#include "table/data_writer.h"
#include "table/metadata.h"
#include "table/table.h"

#include "types/cast.h"
#include "types/datetime.h"
#include "types/text.h"

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

	const char *def = f->default_sql;

	if (!def && type_is_domain(f->type)) {   /* the domain's, or its base domain's */
		const Udt *chain[16];
		int nc = udt_domain_chain(f->type.udt, chain, 16);
		while (!def && nc > 0)
			def = chain[--nc]->default_sql;
	}
	if (!def) {
		nv = value_null(f->type);
		return expr_const(b->arena, &nv);
	}
	if (sql_parse_expr(def, b->arena, &n, b->err) != FLOE_OK)
		return NULL;
	{
		const char *saved = b->sql;
		Scope *sc = b->scope;
		bool was = b->identity_default;
		b->sql = NULL;
		b->scope = NULL;
		/* an identity column's sequence is the column's: INSERT on the
		 * table is enough (PostgreSQL); serial's is a plain DEFAULT */
		b->identity_default = f->identity != 0;
		e = bind_expr(b, n);
		b->identity_default = was;
		b->sql = saved;
		b->scope = sc;
	}
	if (!e)
		return NULL;
	return bind_coerce_column(b, e, f);
}

void
insert_row_detail(floe_error *err, const Batch *b, int ncols, uint32_t row, Arena *a)
{
	char buf[900];
	size_t used = 0;
	int c;

	if (ncols < 0 || ncols > b->ncols)
		ncols = b->ncols;
	used += (size_t)snprintf(buf + used, sizeof buf - used, "Failing row contains (");
	for (c = 0; c < ncols && used < sizeof buf - 8; c++) {
		size_t len;
		const char *t = vector_value_text(&b->cols[c], row, a, &len);
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%.*s", c ? ", " : "",
					 t ? (int)(len > 200 ? 200 : len) : 4, t ? t : "null");
	}
	if (used < sizeof buf - 2)
		snprintf(buf + used, sizeof buf - used, ").");
	floe_error_detail(err, "%s", buf);
}

/* PostgreSQL reports the first bad row, and in it the first bad column:
 * scan each required column up to the best row so far (columns in order,
 * so a tie keeps the earlier column). */
int
insert_check_not_null(const IcebergSchema *schema, const char *table, const Batch *b, Arena *a,
		      floe_error *err)
{
	uint32_t bad = b->count, i;
	int badc = -1, c;

	for (c = 0; c < schema->nfields; c++) {
		if (!schema->fields[c].required)
			continue;
		for (i = 0; i < bad; i++)
			if (!vector_is_valid(&b->cols[c], i)) {
				bad = i;
				badc = c;
				break;
			}
	}
	if (badc < 0)
		return FLOE_OK;
	floe_errorf(err, ERRCODE_NOT_NULL_VIOLATION,
		    "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
		    schema->fields[badc].name, table);
	insert_row_detail(err, b, -1, bad, a);
	return FLOE_ERR;
}

/* ---- PRIMARY KEY of written rows (COPY FROM, INSERT OVERWRITE) ------- */

/* The set of key values (serialized) of the rows a statement writes. */
typedef struct KeySet {
	Arena *a;
	int npk;
	int *pk;                   /* schema column indexes of the key */
	const IcebergSchema *schema;
	const char *table;
	uint8_t **keys;
	uint32_t *lens, *hashes;
	int *slots;                /* open addressing, -1 empty */
	int nkeys, cap, nslots;
	uint8_t *buf;
	size_t bufcap;
} KeySet;

/* Key bytes of row i of b's key columns (cols[k] = column of key k). */
static uint32_t
key_bytes(KeySet *ks, const Batch *b, const int *cols, uint32_t i)
{
	size_t len = 0;
	int k;

	for (k = 0; k < ks->npk; k++) {
		const Vector *v = &b->cols[cols[k]];
		VectorView vv;
		uint32_t x;
		size_t w = type_width(v->type.id), need;
		vector_view(v, &vv);
		x = vv.sel ? vv.sel[i] : i;
		need = 1 + (type_is_string(v->type.id) ? 4 + ((const strview *)vv.data)[x].len : w);
		if (len + need > ks->bufcap) {
			size_t nc = ks->bufcap * 2 + need + 64;
			ks->buf = arena_realloc(ks->a, ks->buf, ks->bufcap, nc);
			ks->bufcap = nc;
		}
		if (!validity_get(vv.validity, x)) {
			ks->buf[len++] = 0;
			continue;
		}
		ks->buf[len++] = 1;
		if (type_is_string(v->type.id)) {
			const strview *sv = &((const strview *)vv.data)[x];
			memcpy(ks->buf + len, &sv->len, 4);
			if (sv->len)
				memcpy(ks->buf + len + 4, strview_data(sv), sv->len);
			len += 4 + sv->len;
		} else {
			memcpy(ks->buf + len, (const char *)vv.data + (size_t)x * w, w);
			len += w;
		}
	}
	return (uint32_t)len;
}

static uint32_t
key_hash(const uint8_t *p, uint32_t n)
{
	uint32_t h = 2166136261u, i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* Slot of key (buf, len, h): its index, or the empty slot where it goes. */
static int
key_slot(const KeySet *ks, uint32_t len, uint32_t h)
{
	uint32_t m = (uint32_t)ks->nslots - 1, j = h & m;
	int i;

	while ((i = ks->slots[j]) >= 0) {
		if (ks->hashes[i] == h && ks->lens[i] == len && !memcmp(ks->keys[i], ks->buf, len))
			break;
		j = (j + 1) & m;
	}
	return (int)j;
}

static void
keys_grow(KeySet *ks)
{
	int n = ks->nslots ? ks->nslots * 2 : 1024, i;
	int *sl = xmalloc(sizeof(int) * (size_t)n);

	for (i = 0; i < n; i++)
		sl[i] = -1;
	for (i = 0; i < ks->nkeys; i++) {
		uint32_t j = ks->hashes[i] & (uint32_t)(n - 1);
		while (sl[j] >= 0)
			j = (j + 1) & (uint32_t)(n - 1);
		sl[j] = i;
	}
	free(ks->slots);
	ks->slots = sl;
	ks->nslots = n;
}

static int
key_violation(KeySet *ks, const Batch *b, const int *cols, uint32_t i, floe_error *err)
{
	return key_error(err, ks->table, key_text(ks->a, ks->schema, ks->pk, ks->npk, b, cols, i));
}

/* Add the keys of b's rows (columns: the schema's); 23505 on a repeat. */
static int
keys_add(KeySet *ks, const Batch *b, floe_error *err)
{
	uint32_t i;

	for (i = 0; i < b->count; i++) {
		uint32_t len = key_bytes(ks, b, ks->pk, i), h = key_hash(ks->buf, len);
		int j;
		if ((ks->nkeys + 1) * 2 > ks->nslots)
			keys_grow(ks);
		j = key_slot(ks, len, h);
		if (ks->slots[j] >= 0)
			return key_violation(ks, b, ks->pk, i, err);
		if (ks->nkeys == ks->cap) {
			int nc = ks->cap ? ks->cap * 2 : 1024;
			ks->keys = arena_realloc(ks->a, ks->keys, sizeof(uint8_t *) * (size_t)ks->cap,
						 sizeof(uint8_t *) * (size_t)nc);
			ks->lens = arena_realloc(ks->a, ks->lens, sizeof(uint32_t) * (size_t)ks->cap,
						 sizeof(uint32_t) * (size_t)nc);
			ks->hashes = arena_realloc(ks->a, ks->hashes, sizeof(uint32_t) * (size_t)ks->cap,
						   sizeof(uint32_t) * (size_t)nc);
			ks->cap = nc;
		}
		ks->keys[ks->nkeys] = arena_memdup(ks->a, ks->buf, len ? len : 1);
		ks->lens[ks->nkeys] = len;
		ks->hashes[ks->nkeys] = h;
		ks->slots[j] = ks->nkeys++;
	}
	return FLOE_OK;
}

/* 23505 when a row of the files that stay (files[i] with keep[i]) has a
 * key of the rows written. */
static int
keys_probe(KeySet *ks, ExecCtx *ctx, const TableMetadata *md, DataFile *files, int n,
	   const bool *keep, floe_error *err)
{
	DataFile *kf = ARENA_ARRAY(ctx->arena, DataFile, n + 1);
	int *proj = ARENA_ARRAY(ctx->arena, int, ks->npk), *cols = ARENA_ARRAY(ctx->arena, int, ks->npk);
	int nk = 0, i, rc = FLOE_OK;
	Operator *op;
	Batch *b;

	if (ks->nkeys == 0)
		return FLOE_OK;
	for (i = 0; i < n; i++)
		if (keep[i])
			kf[nk++] = files[i];
	if (nk == 0)
		return FLOE_OK;
	for (i = 0; i < ks->npk; i++) {
		proj[i] = ks->pk[i];
		cols[i] = i;
	}
	op = scan_new(ctx, ks->schema, ks->npk, proj, kf, nk, false, md);
	if (op_open(op) != FLOE_OK) {
		op_close(op);
		return FLOE_ERR;
	}
	while (rc == FLOE_OK) {
		uint32_t r;
		if ((rc = exec_check_cancel(ctx)) != FLOE_OK || (rc = op_next(op, &b)) != FLOE_OK || !b)
			break;
		batch_compact(b);
		for (r = 0; r < b->count && rc == FLOE_OK; r++) {
			uint32_t len = key_bytes(ks, b, cols, r), h = key_hash(ks->buf, len);
			if (ks->slots[key_slot(ks, len, h)] >= 0)
				rc = key_violation(ks, b, cols, r, err);
		}
	}
	op_close(op);
	return rc;
}

/* ---- writing rows ------------------------------------------------------ */

/* Two partition values are equal (both NULL, or same value). */
static bool
part_value_eq(const Value *x, const Value *y)
{
	if (x->is_null || y->is_null)
		return x->is_null && y->is_null;
	switch (x->type.id) {
	case TYPE_BOOL:
		return x->u.b == y->u.b;
	case TYPE_FLOAT32:
	case TYPE_FLOAT64:
		return x->u.f == y->u.f;
	case TYPE_DECIMAL:
		return x->u.d == y->u.d && x->type.scale == y->type.scale;
	case TYPE_TEXT:
	case TYPE_BYTEA:
		return x->u.s.len == y->u.s.len &&
		       !memcmp(strview_data(&x->u.s), strview_data(&y->u.s), x->u.s.len);
	case TYPE_UUID:
		return !memcmp(x->u.uuid.b, y->u.uuid.b, 16);
	case TYPE_INTERVAL:
		return false;
	default:
		return x->u.i == y->u.i;
	}
}

static bool
same_tuple(const DataFile *a, const DataFile *b)
{
	int i;

	if (a->spec_id != b->spec_id || a->npartition != b->npartition)
		return false;
	for (i = 0; i < a->npartition; i++)
		if (!part_value_eq(&a->partition[i], &b->partition[i]))
			return false;
	return true;
}

/*
 * Write the rows of `root` (one column per schema field, in order) into
 * table t as one append commit; hook (may be NULL) sees each batch once
 * its NOT NULL checks passed, before it is written.
 *
 * overwrite (INSERT OVERWRITE): an unpartitioned table loses every live
 * data file in the same commit; a partitioned one loses only the live
 * files of the default spec whose partition tuple a new file has (Spark's
 * dynamic overwrite: the partitions the new rows touch), and no rows is no
 * change.  PRIMARY KEY (identifier fields): no key twice among the rows
 * written nor equal to the key of a row that stays (23505).  A commit
 * whose outcome is unknown (08006) keeps the files written and lists them
 * as orphan candidates (txn_commit_failed).
 */
static int
write_rows(Session *s, ExecCtx *ctx, Table *t, Operator *root, bool overwrite,
	   int (*hook)(void *, const Batch *), void *hook_arg, uint64_t ingest_seq,
	   const char *job_id, int64_t *rows)
{
	Engine *e = s->engine;
	const IcebergSchema *schema = metadata_current_schema(t->md);
	const PartitionSpec *spec = metadata_default_spec(t->md);
	bool partitioned = spec && spec->nfields > 0;
	char *data_dir = table_data_dir(t, ctx->arena);
	DataWriter *w = data_writer_new(e->io, data_dir, schema, 0, ctx->arena);
	DataFile *files, *live = NULL;
	int nfiles, c, nlive = 0, rc = FLOE_ERR;
	const TableMetadata *md = t->md;
	Batch *b;
	Table *out;
	char job[64];
	KeySet ks;
	int32_t order_id;
	CheckBound *checks = NULL;

	*rows = 0;
	root = sort_order_input(ctx, md, root, &order_id);   /* the table's sort order */
	memset(&ks, 0, sizeof ks);
	if (schema->nidentifier > 0) {
		ks.a = arena_new(64 * 1024);
		ks.schema = schema;
		ks.table = t->name;
		ks.pk = ARENA_ARRAY(ctx->arena, int, schema->nidentifier);
		for (c = 0; c < schema->nidentifier; c++) {
			int f;
			for (f = 0; f < schema->nfields; f++)
				if (schema->fields[f].id == schema->identifier_field_ids[c])
					ks.pk[ks.npk++] = f;
		}
	}
	/* CHECK constraints (check.h); an insert-buffer flush's rows were
	 * checked when they were acknowledged */
	if (ingest_seq == 0 && check_constraints_bind(s, ctx, t, &checks) != FLOE_OK)
		goto fail;
	/* partitioned tables: one file (or more) per partition of the default spec */
	if (data_writer_set_spec(w, spec, ctx->err) != FLOE_OK)
		goto fail;
	if (data_writer_set_table_properties(w, md, ctx->err) != FLOE_OK)
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
		if (check_domain_rows(checks, ctx, b, NULL, b->count) != FLOE_OK ||
		    insert_check_not_null(schema, t->name, b, ctx->arena, ctx->err) != FLOE_OK ||
		    check_constraints_rows(checks, ctx, b, NULL, b->count) != FLOE_OK)
			goto fail;
		if (ks.npk && keys_add(&ks, b, ctx->err) != FLOE_OK)
			goto fail;
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
	for (c = 0; order_id >= 0 && c < nfiles; c++) {
		files[c].has_sort_order_id = true;
		files[c].sort_order_id = order_id;
	}
	if ((ks.npk && *rows > 0) || (overwrite && partitioned && *rows > 0)) {
		if (table_scan_files(e->io, t, -1, ctx->arena, &live, &nlive, ctx->err) != FLOE_OK)
			goto fail_files;
	}
	if (*rows > 0 || (overwrite && !partitioned && t->md->has_current_snapshot)) {
		const char **remove = NULL;
		bool *keep = ARENA_ARRAY(ctx->arena, bool, nlive + 1);
		int nremove = 0, i, k;
		TableChange ch;

		/* what stays: every live file (append), none (overwrite), or
		 * those of partitions no new file has (dynamic overwrite) */
		for (i = 0; i < nlive; i++) {
			keep[i] = !overwrite;
			if (overwrite && partitioned) {
				keep[i] = true;
				if (live[i].content == CONTENT_DATA && live[i].spec_id == spec->spec_id)
					for (k = 0; k < nfiles && keep[i]; k++)
						if (same_tuple(&live[i], &files[k]))
							keep[i] = false;
				if (!keep[i]) {
					if (!remove)
						remove = ARENA_ARRAY(ctx->arena, const char *, nlive);
					remove[nremove++] = live[i].file_path;
				}
			}
		}
		if (ks.npk && keys_probe(&ks, ctx, md, live, nlive, keep, ctx->err) != FLOE_OK)
			goto fail_files;
		if (job_id)
			snprintf(job, sizeof job, "%s", job_id);
		else
			table_job_id(job, sizeof job);
		memset(&ch, 0, sizeof ch);
		ch.ingest_seq = ingest_seq;
		ch.add = files;
		ch.nadd = *rows > 0 ? nfiles : 0;
		ch.remove_all = overwrite && !partitioned;
		ch.remove = remove;
		ch.nremove = nremove;
		ch.job_id = job;
		if (txn_commit(s, t, &ch, ctx->arena, &out, ctx->err) != FLOE_OK) {
			if (txn_commit_failed(s, &ch, ctx->err))
				goto done_err;      /* the swap may have landed: keep them */
			goto fail_files;
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
	goto done;
fail_files:
	{
		/* the commit (or the check before it) failed: nothing
		 * references our data files */
		int k;
		floe_error ignore;
		for (k = 0; k < nfiles; k++)
			fileio_remove(e->io, files[k].file_path, &ignore);
	}
done_err:
	rc = FLOE_ERR;
done:
	data_writer_free(w);
	if (ks.a)
		arena_free(ks.a);
	free(ks.slots);
	return rc;
fail:
	if (root)
		op_close(root);
	data_writer_abort(w);
	data_writer_free(w);
	if (ks.a)
		arena_free(ks.a);
	free(ks.slots);
	return FLOE_ERR;
}

int
insert_write_rows(Session *s, ExecCtx *ctx, Table *t, Operator *root, bool overwrite,
		  int (*hook)(void *, const Batch *), void *hook_arg, int64_t *rows)
{
	return write_rows(s, ctx, t, root, overwrite, hook, hook_arg, 0, NULL, rows);
}

int
insert_write_rows_seq(Session *s, ExecCtx *ctx, Table *t, Operator *root, uint64_t ingest_seq,
		      const char *job_id, int64_t *rows)
{
	return write_rows(s, ctx, t, root, false, NULL, NULL, ingest_seq, job_id, rows);
}

/* PostgreSQL's width check of one INSERT row (transformInsertRow): nexpr
 * expressions for ntarget target columns, 42601 either way, except that
 * without a column list (ncols 0) missing trailing values take their
 * defaults.  exprs: the row's parse nodes (the error positions), or NULL. */
int
insert_check_width(BindCtx *b, int nexpr, int ntarget, Node **cols, size_t ncols, Node **exprs)
{
	if (nexpr > ntarget) {
		floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "INSERT has more expressions than target columns");
		if (exprs && sql_location(&exprs[ntarget]->base) >= 0)
			floe_error_position(b->err, bind_location(b, sql_location(&exprs[ntarget]->base)));
		return FLOE_ERR;
	}
	if (ncols && nexpr < ntarget) {
		floe_errorf(b->err, ERRCODE_SYNTAX_ERROR, "INSERT has more target columns than expressions");
		if (nexpr == 1 && exprs && exprs[0]->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
		    (int)exprs[0]->row_expr->n_args == ntarget)
			floe_error_hint(b->err, "The insertion source is a row expression containing the same "
					"number of columns expected by the INSERT. Did you accidentally use extra "
					"parentheses?");
		floe_error_position(b->err, bind_location(b, cols[nexpr]->res_target->location));
		return FLOE_ERR;
	}
	return FLOE_OK;
}

static bool
is_star(const Node *v)
{
	const PgQuery__ColumnRef *cr = v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF ? v->column_ref : NULL;
	return cr && cr->n_fields && cr->fields[cr->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

/* The parse nodes of a plain SELECT's n output columns, for error
 * positions (the columns of a `*` all point at it, as in PostgreSQL); NULL
 * for a set operation, VALUES, or more than one `*`. */
static Node **
select_exprs(Arena *a, PgQuery__SelectStmt *sel, int n)
{
	Node **ex;
	int k, j = 0, nstar = 0, wide;

	if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sel->n_values_lists)
		return NULL;
	for (k = 0; k < (int)sel->n_target_list; k++) {
		PgQuery__ResTarget *rt = sel->target_list[k]->res_target;
		if (!rt || !rt->val)
			return NULL;
		nstar += is_star(rt->val);
	}
	wide = n - ((int)sel->n_target_list - nstar);      /* the `*`'s width */
	if (nstar > 1 || (nstar == 0 && wide != 0) || wide < 0)
		return NULL;
	ex = ARENA_ARRAY(a, Node *, n + 1);
	for (k = 0; k < (int)sel->n_target_list; k++) {
		Node *v = sel->target_list[k]->res_target->val;
		int w = is_star(v) ? wide : 1;
		while (w-- > 0)
			ex[j++] = v;
	}
	return ex;
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
	bool user_value;

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
	/* identity columns: 428C9 / OVERRIDING (serial.c) */
	TRY(identity_insert_check(&b, schema, is, tcols, ntarget, &user_value));
	for (i = 0; i < schema->nfields; i++)
		if (identity_ignores(&schema->fields[i], user_value))
			target[i] = -1;

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

		if (plain_values || sel->n_target_list == 1) {
			/* one ROW(...) for several columns: PostgreSQL's width
			 * error (with its hint) comes before anything binds it */
			Node **one = plain_values ? sel->values_lists[0]->list->items :
				     sel->op == PG_QUERY__SET_OPERATION__SETOP_NONE ? &sel->target_list[0]->res_target->val : NULL;
			size_t nitems = plain_values ? sel->values_lists[0]->list->n_items : 1;
			if (one && nitems == 1 && one[0] && one[0]->node_case == PG_QUERY__NODE__NODE_ROW_EXPR)
				TRY(insert_check_width(&b, 1, ntarget, is->cols, is->n_cols, one));
		}
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
			/* as PostgreSQL: bind a row, check its width, then coerce */
			for (r = 0; r < nrows; r++) {
				PgQuery__List *l = sel->values_lists[r]->list;
				Expr **bound = ARENA_ARRAY(ctx->arena, Expr *, l->n_items + 1);
				for (k = 0; k < (int)l->n_items; k++)
					if (l->items[k]->node_case != PG_QUERY__NODE__NODE_SET_TO_DEFAULT &&
					    !(bound[k] = bind_expr(&b, l->items[k])))
						return FLOE_ERR;
				if (r > 0 && l->n_items != sel->values_lists[0]->list->n_items) {
					floe_errorf(err, ERRCODE_SYNTAX_ERROR,
						    "VALUES lists must all be the same length");
					if (sql_location(&sel->values_lists[r]->base) >= 0)
						floe_error_position(err, bind_location(&b,
							sql_location(&sel->values_lists[r]->base)));
					return FLOE_ERR;
				}
				TRY(insert_check_width(&b, (int)l->n_items, ntarget, is->cols, is->n_cols, l->items));
				rows2[r] = ARENA_ARRAY(ctx->arena, Expr *, schema->nfields + 1);
				for (i = 0; i < schema->nfields; i++)
					rows2[r][i] = defaults[i];
				for (k = 0; k < (int)l->n_items; k++) {
					const IcebergField *f = &schema->fields[tcols[k]];
					Expr *x;
					if (!bound[k] || identity_ignores(f, user_value))
						continue;
					if (!(x = bind_coerce_column(&b, bound[k], f)))
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
			TRY(insert_check_width(&b, p.ncols, ntarget, is->cols, is->n_cols,
					    select_exprs(ctx->arena, sel, p.ncols)));
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
	const char *ns = ddl_rv_ns(s, is->relation), *name = is->relation->relname;
	BindCtx b;
	bool found;

	if (is->relation->schemaname && is->relation->schemaname[0])   /* USAGE, before the lookup */
		TRY(acl_check_schema_usage(s, ctx, ns, ctx->err));
	if (txn_table_load(s, ns, name, ctx->arena, t, ctx->err) == FLOE_OK) {
		TRY(acl_note_target(s, ctx, *t, ROLE_PRIV_INSERT, ctx->err));
		return write_target_wap(s, t, ctx->arena, ctx->err);
	}
	if (floe_error_is(ctx->err, ERRCODE_UNDEFINED_TABLE)) {
		TRY(write_target_branch(s, ctx, is->relation, t, &found));   /* t.branch_b */
		if (found)
			return acl_note_target(s, ctx, *t, ROLE_PRIV_INSERT, ctx->err);
	}
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
	const IcebergSchema *sc = metadata_current_schema(t->md);

	memset(&b, 0, sizeof b);
	b.session = s;
	b.arena = ctx->arena;
	b.err = ctx->err;
	b.sql = sql;
	b.exec = ctx;
	TRY(dml_returning_bind(r, &b, sc,
			       is->relation->alias ? is->relation->alias->aliasname :
			       is->relation->relname,
			       is->returning_list, (int)is->n_returning_list));
	/* RETURNING a column of t needs SELECT on it (RETURNING 1 does not) */
	return acl_note_target_read(s, ctx, t, acl_exprs_read_target(r->exprs, r->n, sc->nfields),
				    ctx->err);
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
int
insert_exec(Session *s, ExecCtx *ctx, const char *sql, PgQuery__InsertStmt *is, bool overwrite,
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
	if (!overwrite) {
		/* an autocommit INSERT ... VALUES goes to the insert buffer */
		bool done;
		TRY(ingest_try_insert(s, ctx, sql, is, t, sink, &done));
		if (done)
			return FLOE_OK;
	}
	if (!overwrite && metadata_current_schema(t->md)->nidentifier > 0)
		return merge_insert(s, ctx, sql, is, sink);   /* PRIMARY KEY: 23505 (merge.c) */
	memset(&ir, 0, sizeof ir);
	if (is->n_returning_list)
		TRY(insert_bind_returning(s, ctx, sql, is, t, &ir.ret));
	TRY(insert_source(s, ctx, sql, is, t, &root));
	if (!is->n_returning_list) {
		TRY(insert_write_rows(s, ctx, t, root, overwrite, NULL, NULL, &rows));
	} else {
		ir.ctx = ctx;
		ir.scratch = arena_new(64 * 1024);
		rc = insert_write_rows(s, ctx, t, root, overwrite, insert_returning_hook, &ir, &rows);
		arena_free(ir.scratch);
		TRY(rc);
		TRY(dml_returning_send(&ir.ret, ctx, sink));   /* only after the commit */
	}
	snprintf(tag, sizeof tag, "INSERT 0 %lld", (long long)rows);
	return engine_complete(sink, tag);
}

int
insert_ctas(Session *s, ExecCtx *ctx, const char *sql, PgQuery__CreateTableAsStmt *cs, ResultSink *sink)
{
	Engine *e = s->engine;
	PgQuery__IntoClause *into = cs->into;
	const char *ns = NULL, *name = into->rel->relname, *tloc;
	bool is_temp;
	int on_commit;
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
	TRY(ddl_check_access_method(into->access_method, err));
	TRY(ddl_check_persistence(into->rel, into->on_commit, err));
	TRY(temp_create_target(s, into->rel, &ns, &is_temp, &tloc, ctx->arena, err));   /* temp.h */
	TRY(temp_on_commit(into->on_commit, &on_commit, err));
	if (into->table_space_name && into->table_space_name[0])
		return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
				   "TABLESPACE \"%s\" is not supported: Iceberg tables live in the warehouse",
				   into->table_space_name);
	TRY(ddl_check_namespace(s, ns, err));
	if (txn_table_load(s, ns, name, ctx->arena, &t, err) == FLOE_OK) {
		if (cs->if_not_exists) {
			engine_notice(sink, "relation \"%s\" already exists, skipping", name);
			return engine_complete(sink, "CREATE TABLE AS");
		}
		return floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
	}
	floe_error_clear(err);
	TRY(select_plan(s, ctx, sql, cs->query, &p));
	if (into->n_col_names > (size_t)p.ncols)
		return floe_errorf(err, ERRCODE_SYNTAX_ERROR, "too many column names were specified");
	if (p.ncols > BIND_MAX_TABLE_COLUMNS)
		return floe_errorf(err, ERRCODE_TOO_MANY_COLUMNS, "tables can have at most %d columns",
				   BIND_MAX_TABLE_COLUMNS);
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
		int nprops;
		PartitionSpec *pspec;
		const char *sort;
		TRY(ddl_create_options(s, sink, &schema, into->options, into->n_options, ctx->arena, &keys,
				   &values, &nprops, err));
		TRY(ddl_create_partitioning(&schema, sql, into->rel->location, into->options,
					    into->n_options, ctx->arena, &pspec, err));
		TRY(ddl_create_sort_order(sql, into->rel->location, into->options, into->n_options,
					  ctx->arena, &sort, err));
		TRY(table_create(e->catalog, e->io, tloc, ns, name, &schema, keys, values, nprops,
				 ctx->arena, &t, err));
		if (ddl_set_partitioning(s, &t, pspec, sort, ctx->arena, err) != FLOE_OK) {
			floe_error keep = *err, ignore;
			table_drop(e->catalog, e->io, ns, name, true, &ignore);
			*err = keep;
			return FLOE_ERR;
		}
	}
	if (into->skip_data) {
		rows = 0;
	} else if (insert_write_rows(s, ctx, t, project_new(ctx, p.root, p.ncols, proj), false, NULL, NULL,
			      &rows) != FLOE_OK) {
		floe_error keep = *err;
		floe_error ignore;
		table_drop(e->catalog, e->io, ns, name, true, &ignore);
		*err = keep;
		return FLOE_ERR;
	}
	if (is_temp)
		TRY(temp_created(s, name, on_commit, err));
	snprintf(tag, sizeof tag, "SELECT %lld", (long long)rows);
	return engine_complete(sink, tag);
}


/* COPY FROM (copy.c) writes through the INSERT path. */
int
engine_write_rows(Session *s, ExecCtx *ctx, struct Table *t, Operator *root, int64_t *rows)
{
	return insert_write_rows(s, ctx, t, root, false, NULL, NULL, rows);
}
