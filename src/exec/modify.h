/*
 * modify.h — the file-level machinery of the row-level writes (UPDATE,
 * DELETE, MERGE, INSERT ... ON CONFLICT) that sql/dml.c and sql/merge.c
 * share: the pieces of the one ModifyTable path that issue 14's target
 * puts in exec/ (docs/ARCHITECTURE.md, "Folder rules").  Each routine has
 * its own file; they use exec/ operators and table/ writers, never sql/.
 *
 * INTERFACE ROUTINES
 *   write_sorted(ctx, rs, nkeys, keys, w)   write_sorted.c: rs's rows
 *       sorted by keys into the data writer w, rs emptied (the table's
 *       sort order on a rewrite or an update's new rows)
 *   cow_rewrite_init(&rw, ctx, schema, md, file, lineage, scratch)
 *   cow_rewrite(&rw)                        cow_rewrite.c: a data file's
 *       rows read again for its copy-on-write rewrite, batch by batch, each
 *       batch split into the rows the statement changed and the others
 *   cow_split_bits(bits, first, count, hit, &nhit, keep, &nkeep)
 *       cow_rewrite.c: that split by a bitmap over row ordinals
 *   key_text(a, schema, pk, npk, b, cols, r) / key_error(err, table, key)
 *       key_check.c: PRIMARY KEY's 23505, DETAIL "Key (a, b)=(1, x) already
 *       exists."
 *   key_check_twice(&kc, keys)              key_check.c: 23505 for a key
 *       the rows written hold twice
 *   key_check_files(&kc, keys, files, nfiles, idx)   key_check.c: the data
 *       files whose column bounds may hold one of the keys
 *   key_range_type(t) / key_range_add(&r, v, n, copy) /
 *   key_range_outside(&r, file)             key_check.c: one key column's
 *       smallest and largest value against a file's bounds (also MERGE's
 *       target pruning)
 */
#ifndef FLOE_EXEC_MODIFY_H
#define FLOE_EXEC_MODIFY_H

#include "exec/exec.h"
#include "table/data_writer.h"

/* Every row of rs, sorted by keys (a sort operator over rs: it spills past
 * work_mem), written into w in that order; rs is cleared whether or not
 * the write succeeded.  No rows: nothing happens.  Errors in ctx->err. */
int write_sorted(ExecCtx *ctx, RowStore *rs, int nkeys, const SortKey *keys, DataWriter *w);

/*
 * The copy-on-write rewrite of one data file (cow_rewrite.c).  The scan
 * reads the table's columns 0..nfields-1, then, by_pos, each row's file
 * position (column nfields), then, lineage, _row_id and
 * _last_updated_sequence_number; the caller's rows() gets each batch with
 * rows (compacted; scratch reset before it), the indexes of the changed
 * rows (hit) and of the others (keep), both ascending, and writes what it
 * keeps.  The changed rows are, by_pos, those at the sorted file
 * positions pos[0..npos); else those set in bits, a bitmap over the
 * scan's row ordinals (NULL: every row), the scan then having to give
 * exactly nrows rows (XX001 otherwise: the file changed).  The scan's
 * state lives in scan_arena (NULL: an arena of cow_rewrite's own).
 */
typedef struct CowRewrite {
	ExecCtx *ctx;
	const struct IcebergSchema *schema;
	const struct TableMetadata *md;
	struct DataFile *file;
	bool by_pos;
	bool lineage;
	const int64_t *pos;
	int64_t npos;
	const uint64_t *bits;
	int64_t nrows;
	Arena *scan_arena;
	Arena *scratch;
	int (*rows)(void *arg, Batch *b, uint32_t *hit, uint32_t nhit, uint32_t *keep,
		    uint32_t nkeep, Arena *scratch);
	void *arg;
} CowRewrite;

/* rw for a rewrite of file f of the table (schema, md), batches in scratch;
 * every other field cleared (the caller sets the marks, rows and arg). */
void cow_rewrite_init(CowRewrite *rw, ExecCtx *ctx, const struct IcebergSchema *schema,
		      const struct TableMetadata *md, struct DataFile *f, bool lineage,
		      Arena *scratch);
int cow_rewrite(const CowRewrite *rw);
/* Rows 0..count-1 of a batch whose first row is ordinal `first`: those set
 * in bits (NULL: all) into hit, the others into keep. */
void cow_split_bits(const uint64_t *bits, int64_t first, uint32_t count, uint32_t *hit,
		    uint32_t *nhit, uint32_t *keep, uint32_t *nkeep);

/*
 * PRIMARY KEY checks (key_check.c).  key_text: row r of b's key, key
 * column k at b->cols[cols[k]] (cols NULL: column k) named by
 * schema->fields[pk[k]], values cut at 200 bytes, in a.  key_error: 23505
 * "duplicate key value violates unique constraint "<table>_pkey"" with
 * DETAIL "<key> already exists."; returns FLOE_ERR.
 */
const char *key_text(Arena *a, const struct IcebergSchema *schema, const int *pk, int npk,
		     const Batch *b, const int *cols, uint32_t r);
int key_error(floe_error *err, const char *table, const char *key);

/* A table's key: npk schema columns pk[], for the messages of `table`. */
typedef struct KeyCheck {
	ExecCtx *ctx;
	const struct IcebergSchema *schema;
	const char *table;
	int npk;
	const int *pk;
} KeyCheck;

/* keys: rows of the key's npk columns (in pk's order); 23505 naming the
 * first key found twice (row_number() over the key > 1). */
int key_check_twice(const KeyCheck *kc, RowStore *keys);
/* The files[i] whose bounds may hold one of keys' rows (a file outside
 * the range of any key column of a key_range_type is left out): their
 * indexes into idx (nfiles of room), in order; returns how many. */
int key_check_files(const KeyCheck *kc, RowStore *keys, const struct DataFile *files, int nfiles,
		    int *idx);

/* One column's smallest and largest non-NULL value (any: one was seen),
 * of Iceberg field field_id, type id. */
typedef struct KeyRange {
	int32_t field_id;
	TypeId id;
	bool any;
	Value lo, hi;
} KeyRange;

/* Do t's bounds order as its values (integers, date/time, timestamps,
 * text but bpchar)? */
bool key_range_type(SqlType t);
/* v's first n values into r; long strings copied into copy (NULL: they
 * outlive r where they are). */
void key_range_add(KeyRange *r, const Vector *v, uint32_t n, Arena *copy);
/* Do f's bounds of r's column exclude every value of r (true when r has
 * none; false without metrics or with a bound that does not decode)? */
bool key_range_outside(const KeyRange *r, const struct DataFile *f);

#endif
