/*
 * delete_writer.c — merge-on-read deletes (see delete_writer.h).
 *
 * This slice writes none: delete_writer_add is 0A000, so DML falls back to
 * copy-on-write.
 *
 * INTERFACE ROUTINES: see delete_writer.h.
 */
#include "table/delete_writer.h"

struct DeleteWriter {
	FileIO *io;
	const Table *t;
	Arena *a;
};

DeleteWriter *
delete_writer_new(FileIO *io, const Table *t, Arena *a)
{
	DeleteWriter *w = ARENA_NEW(a, DeleteWriter);
	w->io = io;
	w->t = t;
	w->a = a;
	return w;
}

int
delete_writer_add(DeleteWriter *w, const DataFile *f, const int64_t *pos, int64_t n,
		  floe_error *err)
{
	(void)w;
	(void)pos;
	(void)n;
	return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
			   "merge-on-read deletes are not supported yet (file \"%s\")", f->file_path);
}

int
delete_writer_finish(DeleteWriter *w, DataFile **add, int *nadd, char ***remove, int *nremove,
		     floe_error *err)
{
	(void)w;
	(void)err;
	*add = NULL;
	*nadd = 0;
	*remove = NULL;
	*nremove = 0;
	return FLOE_OK;
}

void
delete_writer_abort(DeleteWriter *w)
{
	(void)w;
}
