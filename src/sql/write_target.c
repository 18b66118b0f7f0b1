/*
 * write_target.c — the table view a write commits through: a branch named
 * as Spark spells it (t.branch_b), or the session's write-audit-publish
 * settings (see write_target.h for the rules and SQLSTATEs).
 */
#include <string.h>
#include <strings.h>
#include "sql/txn.h"
#include "sql/write_target.h"
#include "table/branch.h"

static const char *
setting(Session *s, const char *name)
{
	const char *v = session_setting(s, name);

	return v && v[0] ? v : NULL;
}

static bool
wap_enabled(const TableMetadata *md)
{
	const char *v = metadata_property(md, "write.wap.enabled");

	return v && !strcasecmp(v, "true");
}

static int
not_in_block(Session *s, const char *what, floe_error *err)
{
	if (session_txn_status(s) == 'I')
		return FLOE_OK;
	floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
		    "%s inside a transaction block is not supported yet", what);
	return floe_error_hint(err, "Run it outside BEGIN ... COMMIT (each statement commits alone).");
}

int
write_target_branch(Session *s, ExecCtx *ctx, PgQuery__RangeVar *rv, Table **t, bool *found)
{
	floe_error *err = ctx->err;
	PgQuery__RangeVar tv;
	const char *ref, *ns, *name, *wb;
	const TableMetadata *md;
	floe_error e2;
	Table *base;
	bool branch;
	int k;

	*found = false;
	if (!rv->schemaname || !rv->schemaname[0] || !rv->relname)
		return FLOE_OK;
	branch = !strncmp(rv->relname, "branch_", 7);
	if (!branch && strncmp(rv->relname, "tag_", 4))
		return FLOE_OK;
	ref = rv->relname + (branch ? 7 : 4);
	tv = *rv;
	tv.schemaname = rv->catalogname;
	tv.catalogname = NULL;
	tv.relname = rv->schemaname;
	session_resolve_name(s, &tv, &ns, &name);
	memset(&e2, 0, sizeof e2);
	if (txn_table_load(s, ns, name, ctx->arena, &base, &e2) != FLOE_OK)
		return FLOE_OK;            /* no table t either: the caller's 42P01 */
	*found = true;
	floe_error_clear(err);
	md = base->md;
	for (k = 0; k < md->nrefs && strcmp(md->refs[k].name, ref); k++)
		;
	if (!branch) {
		if (k == md->nrefs || strcmp(md->refs[k].type, "tag"))
			return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "table \"%s\" has no tag \"%s\"",
					   name, ref);
		floe_errorf(err, ERRCODE_WRONG_OBJECT_TYPE, "cannot write to tag \"%s\" of table \"%s\"",
			    ref, name);
		return floe_error_hint(err, "Tags are read-only; write to a branch (%s.branch_b).", name);
	}
	if (k == md->nrefs && strcmp(ref, "main"))
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT, "table \"%s\" has no branch \"%s\"",
				   name, ref);
	TRY(not_in_block(s, "a write to a branch", err));
	if (wap_enabled(md) && (wb = setting(s, "floe.wap_branch")) && strcmp(wb, ref))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "cannot write to branch \"%s\" while floe.wap_branch is \"%s\"", ref,
				   wb);
	if (wap_enabled(md) && setting(s, "floe.wap_id"))
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "cannot write to branch \"%s\" while floe.wap_id is set", ref);
	return table_on_branch(base, ref, false, ctx->arena, t, err);
}

bool
write_target_redirected(Session *s, const Table *t)
{
	return t->branch || t->wap_id || setting(s, "floe.wap_id") || setting(s, "floe.wap_branch");
}

int
write_target_wap(Session *s, Table **t, Arena *a, floe_error *err)
{
	const char *id = setting(s, "floe.wap_id"), *br = setting(s, "floe.wap_branch");

	if ((!id && !br) || (*t)->branch || (*t)->wap_id)
		return FLOE_OK;
	if (!wap_enabled((*t)->md)) {
		floe_errorf(err, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
			    "%s is set, but table \"%s\" does not have write.wap.enabled = true",
			    id ? "floe.wap_id" : "floe.wap_branch", (*t)->name);
		return floe_error_hint(err, "ALTER TABLE %s SET TBLPROPERTIES ('write.wap.enabled' = 'true'), "
				       "or RESET %s to write to the table's main branch.",
				       (*t)->name, id ? "floe.wap_id" : "floe.wap_branch");
	}
	if (id && br)
		return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
				   "cannot set both floe.wap_id and floe.wap_branch");
	TRY(not_in_block(s, id ? "a write staged by floe.wap_id" : "a write to floe.wap_branch", err));
	if (br)
		return table_on_branch(*t, br, true, a, t, err);
	*t = table_staging(*t, id, a);
	return FLOE_OK;
}
