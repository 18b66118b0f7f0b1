/*
 * metacols.c — per-file metadata column values (see metacols.h).
 */
#include <stdio.h>
#include <string.h>
#include "table/metacols.h"
#include "types/cast.h"

/* s as a JSON string (quotes, backslashes and control characters escaped) */
static char *
json_quote(Arena *a, const char *s, size_t n)
{
	char *out = arena_alloc(a, n * 6 + 3), *q = out;
	size_t i;

	*q++ = '"';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			*q++ = '\\';
			*q++ = (char)c;
		} else if (c < 0x20) {
			q += sprintf(q, "\\u%04x", c);
		} else {
			*q++ = (char)c;
		}
	}
	*q++ = '"';
	*q = 0;
	return out;
}

int
metacol_partition_text(const TableMetadata *md, const DataFile *f, Arena *a, char **out,
		       floe_error *err)
{
	const PartitionSpec *spec = md ? metadata_spec_by_id(md, f->spec_id) : NULL;
	char *k = arena_strdup(a, "{");
	int c;

	for (c = 0; c < f->npartition; c++) {
		const char *fname = spec && c < spec->nfields ? spec->fields[c].name : "?";
		const Value *pv = &f->partition[c];
		const char *txt = "null";
		if (!pv->is_null && pv->type.id != TYPE_NULL) {
			Value tv;
			TRY(cast_value(&tv, pv, type_make(TYPE_TEXT), a, err));
			switch (pv->type.id) {
			case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: case TYPE_BOOL:
			case TYPE_DECIMAL: case TYPE_FLOAT32: case TYPE_FLOAT64:
				txt = arena_strndup(a, strview_data(&tv.u.s), tv.u.s.len);
				break;
			default:
				txt = json_quote(a, strview_data(&tv.u.s), tv.u.s.len);
			}
		}
		k = arena_sprintf(a, "%s%s%s:%s", k, c ? "," : "", json_quote(a, fname, strlen(fname)),
				  txt);
	}
	*out = arena_sprintf(a, "%s}", k);
	return FLOE_OK;
}
