/*
 * branch.c — write views of a table: a branch's head as the current
 * snapshot, or staged commits (see branch.h for what a commit through a
 * view writes; table.c's stage_attempt does it).
 */
#include <inttypes.h>
#include <string.h>
#include "table/branch.h"

static Table *
view_of(const Table *t, Arena *a)
{
	Table *v = ARENA_NEW(a, Table);
	TableMetadata *md = ARENA_NEW(a, TableMetadata);

	*v = *t;
	*md = *t->md;              /* shallow: md is read-only, only the head changes */
	v->md = md;
	if (!t->branch) {
		v->main_has_snapshot = t->md->has_current_snapshot;
		v->main_snapshot_id = t->md->current_snapshot_id;
	}
	return v;
}

int
table_on_branch(const Table *t, const char *branch, bool create, Arena *a, Table **out,
		floe_error *err)
{
	const TableMetadata *md = t->md;
	Table *v;
	int k;

	if (!branch || !strcmp(branch, "main")) {
		*out = (Table *)t;
		return FLOE_OK;
	}
	for (k = 0; k < md->nrefs && strcmp(md->refs[k].name, branch); k++)
		;
	if (k < md->nrefs && strcmp(md->refs[k].type, "branch") != 0) {
		floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" of table \"%s\" is a %s, not a branch",
			    branch, t->name, md->refs[k].type);
		return floe_error_hint(err, "Tags cannot be written; create a branch from it: "
				       "ALTER TABLE %s CREATE BRANCH b AS OF VERSION %" PRId64 ".",
				       t->name, md->refs[k].snapshot_id);
	}
	if (k == md->nrefs && !create)
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "table \"%s\" has no branch \"%s\"",
				   t->name, branch);
	if (k < md->nrefs && !metadata_snapshot_by_id(md, md->refs[k].snapshot_id))
		return floe_errorf(err, ERRCODE_DATA_CORRUPTED,
				   "branch \"%s\" of table \"%s\" names missing snapshot %" PRId64,
				   branch, t->name, md->refs[k].snapshot_id);
	v = view_of(t, a);
	v->branch = arena_strdup(a, branch);
	if (k < md->nrefs) {
		v->md->has_current_snapshot = true;
		v->md->current_snapshot_id = md->refs[k].snapshot_id;
	}                          /* else a new branch starts at main's head */
	*out = v;
	return FLOE_OK;
}

Table *
table_staging(const Table *t, const char *wap_id, Arena *a)
{
	Table *v = view_of(t, a);

	v->wap_id = arena_strdup(a, wap_id);
	return v;
}

int
table_view_like(const Table *fresh, const Table *like, Arena *a, Table **out, floe_error *err)
{
	int k;

	*out = (Table *)fresh;
	if (like->branch) {
		/* a branch the commit creates (it was not in like) may still be missing */
		for (k = 0; k < like->md->nrefs && strcmp(like->md->refs[k].name, like->branch); k++)
			;
		TRY(table_on_branch(fresh, like->branch, k == like->md->nrefs, a, out, err));
	}
	if (like->wap_id)
		*out = table_staging(*out, like->wap_id, a);
	return FLOE_OK;
}
