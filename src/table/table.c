/*
 * table.c — Iceberg table operations: create, load, register, drop, the
 * append commit and scan planning (see table/table.h).
 *
 * Spec: apache/iceberg format/spec.md — "Table Metadata", "Snapshots",
 * "Manifests" (sequence-number inheritance: ADDED entries are written with
 * null sequence numbers and inherit the manifest's), "Manifest Lists",
 * "Commit Conflict Resolution and Retry", "Scan Planning".
 *
 * Append commit (table_commit_append), one attempt per pass:
 *
 *   base ──(1) write manifest──> M ──(2) write manifest list──> L
 *        ──(3) write metadata <NNNNN>-<uuid>.metadata.json──> J
 *        ──(4) catalog_swap_table(base location -> J)──┬── ok ──> committed
 *                                                      │
 *                                 40001 (lost the race)┴──> delete M, L, J,
 *                 back off, reload the head (table_load), re-apply (1..4)
 *
 *   Invariants:
 *   1. Nothing is visible before (4); a file written by a failed attempt is
 *      deleted (best effort) before the next attempt or the error return.
 *   2. The new snapshot's manifest list holds the new manifest first, then
 *      every manifest of the head's current snapshot unchanged; so an
 *      append is always re-basable and re-application is exact.
 *   3. sequence-number = head last-sequence-number + 1 (v2+; v1 keeps 0),
 *      last-updated-ms never goes backwards, snapshot-log/metadata-log grow
 *      by one entry, refs.main = the new snapshot.
 *   4. Files are never overwritten (fileio_write fails with 58P02).
 *   5. A failed swap's files are deleted only when the commit did not land
 *      (table_commit_outcome: the table re-read does not hold its metadata
 *      file or its job id, and the catalog refused it).  When it landed
 *      after all (a connection lost after the swap) the commit succeeded;
 *      when nobody can tell (08006: the catalog is unreachable, or a swap
 *      in flight may still land) every file stays, listed in
 *      <warehouse>/orphan-candidates (table_record_orphans), and the error
 *      is 08006.  Every commit carries a job id (table_new_job_id).
 *
 * table_commit_replace runs the same protocol for copy-on-write DML: the
 * head's manifests that hold a removed file are rewritten (removed entries
 * DELETED, the others EXISTING, with explicit sequence numbers), the rest
 * carried forward; operation "delete" (only removals), "overwrite" (both)
 * or "append".  A re-base succeeds only while every file to remove is still
 * live and got no new delete since the head the change was computed on
 * (removed_files_unchanged: a rewrite would bring deleted rows back), and
 * while no position delete it adds names a row another commit deleted
 * since (pos_deletes_disjoint: that row was changed twice);
 * otherwise 40001 without further tries.  TableChange.rebase_check, when
 * set, runs too (the SQL layer's PRIMARY KEY re-check).  remove_all (TRUNCATE,
 * INSERT OVERWRITE) removes whatever is live in the head it commits on.
 *
 * Delete files in a commit (TableChange.add with content POSITION_DELETES
 * or EQUALITY_DELETES, Parquet or Puffin DVs): written as ADDED entries of
 * delete manifests (manifest content 1, one per partition spec), after
 * check_delete_adds (format version, DV fields, every named data file still
 * live, no second DV for a file).  TableChange.remove may name delete files
 * (a replaced DV).  When data files are removed (copy-on-write), position
 * deletes and DVs whose one named data file goes are retired with it
 * (DELETED entries); equality deletes and position deletes naming several
 * files are carried forward (EXISTING).  remove_all retires every delete
 * file.  Operation: "append" (data only), "delete" (no data added),
 * "overwrite" (data added and something removed or deletes added), unless
 * TableChange.operation names it ("replace": OPTIMIZE's compaction).
 *
 * Row lineage (format version 3; spec "Row Lineage"): every commit sets
 * the snapshot's first-row-id to the head's next-row-id; ADDED data files
 * are written with a null first_row_id; table_assign_row_ids gives each
 * data manifest of the new list that has none a first_row_id (the running
 * id, growing by its added + existing rows), and the sum is the snapshot's
 * added-rows and what next-row-id grows by.  Rewritten manifests carry each
 * entry's inherited first_row_id explicitly (read_entries inherits them:
 * inherit_first_row_ids).  Re-based attempts recompute all of it.
 *
 * Scan planning (table_scan_files): snapshot -> manifest list -> manifests
 * -> entries whose status is not DELETED (a v1 snapshot that lists
 * "manifests" instead of a manifest list is read through synth_manifest_list).
 * Data files get data_sequence_number and the delete files that apply to
 * them (plan_deletes: the spec's "Scan Planning" rules).
 *
 * INTERFACE ROUTINES: see table.h.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "common/lru.h"
#include "table/data_writer.h"
#include "table/deletes.h"
#include "table/manifest.h"
#include "table/table.h"
#include "table/branch.h"
#include "table/table_private.h"
#include "types/udt.h"
#include "types/array.h"

/* ---- small helpers ---------------------------------------------------- */

static void
random_bytes(uint8_t *b, size_t n)
{
	static unsigned seed;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd >= 0) {
		ssize_t r = read(fd, b, n);
		got = r > 0 ? (size_t)r : 0;
		close(fd);
	}
	if (got < n) {
		struct timeval tv;
		gettimeofday(&tv, NULL);
		seed ^= (unsigned)tv.tv_usec ^ (unsigned)getpid() << 16;
		for (; got < n; got++)
			b[got] = (uint8_t)(rand_r(&seed) >> 7);
	}
}

char *
table__new_uuid(Arena *a)
{
	uint8_t b[16];

	random_bytes(b, sizeof b);
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);   /* version 4 */
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);   /* RFC 4122 variant */
	return arena_sprintf(a,
		"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		b[12], b[13], b[14], b[15]);
}

void
table_job_id(char *buf, size_t n)
{
	uint8_t b[8];

	random_bytes(b, sizeof b);     /* /dev/urandom: unique across nodes */
	snprintf(buf, n, "floe-%lx-%02x%02x%02x%02x%02x%02x%02x%02x", (long)time(NULL), b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7]);
}

const char *
table_new_job_id(Arena *a)
{
	char buf[64];

	table_job_id(buf, sizeof buf);
	return arena_strdup(a, buf);
}

/* A positive 63-bit id, as Iceberg Java makes snapshot ids. */
int64_t
table__new_snapshot_id(void)
{
	uint64_t v;

	do {
		random_bytes((uint8_t *)&v, sizeof v);
		v &= (uint64_t)INT64_MAX;
	} while (v == 0);
	return (int64_t)v;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *
strip_slashes(Arena *a, const char *s)
{
	char *c = arena_strdup(a, s);
	size_t n = strlen(c);

	while (n > 1 && c[n - 1] == '/')
		c[--n] = 0;
	return c;
}

/* Folder new metadata files go to: write.metadata.path or <location>/metadata. */
char *
table__metadata_dir(const TableMetadata *md, Arena *a)
{
	const char *p = metadata_property(md, "write.metadata.path");

	if (p && *p)
		return strip_slashes(a, p);
	return arena_sprintf(a, "%s/metadata", md->location);
}

char *
table_data_dir(const Table *t, Arena *a)
{
	const char *p = metadata_property(t->md, "write.data.path");

	if (p && *p)
		return strip_slashes(a, p);
	return arena_sprintf(a, "%s/data", t->md->location);
}

/* ---- floe column properties ------------------------------------------- */

/* *t holds the Iceberg type's SqlType on entry (a domain over it keeps it) */
static bool
pg_type_from_name(const char *s, SqlType *t)
{
	int n, len = -1;

	if (strncmp(s, "enum:", 5) == 0 || strncmp(s, "domain:", 7) == 0) {
		/* enum:<oid>:<schema>.<name>, domain:<oid>:<base pg-type>:<schema>.<name> */
		bool dom = s[0] == 'd';
		char *end;
		unsigned long oid = strtoul(s + (dom ? 7 : 5), &end, 10);
		if (*end != ':' || oid == 0 || oid > 0x7fffffffUL)
			return false;
		if (!dom) {
			*t = type_enum((uint32_t)oid);
			return true;
		}
		const char *base = end + 1, *colon = strchr(base, ':');
		if (!colon || colon - base >= 64)
			return false;
		if (colon > base) {
			char bn[64];
			memcpy(bn, base, (size_t)(colon - base));
			bn[colon - base] = 0;
			if (!pg_type_from_name(bn, t))
				return false;
		}
		t->udt = (uint32_t)oid;
		return true;
	}

	if (strcmp(s, "smallint") == 0) {
		*t = type_make(TYPE_INT16);
		return true;
	}
	if (strcmp(s, "numeric") == 0) {
		*t = type_decimal(0, NUMERIC_DEFAULT_SCALE);
		return true;
	}
	if (strcmp(s, "json") == 0 || strcmp(s, "jsonb") == 0) {
		*t = type_json(s[4] == 'b');
		return true;
	}
	if (strcmp(s, "jsonpath") == 0) {
		*t = type_jsonpath();
		return true;
	}
	if (strcmp(s, "character varying") == 0) {
		*t = type_varchar(-1);
		return true;
	}
	if (sscanf(s, "character varying(%d)%n", &n, &len) == 1 && len == (int)strlen(s) && n > 0) {
		*t = type_varchar(n);
		return true;
	}
	if (strcmp(s, "bpchar") == 0) {   /* no length: unbounded */
		*t = type_make(TYPE_TEXT);
		t->text_kind = TEXT_CHAR;
		return true;
	}
	len = -1;
	if (sscanf(s, "character(%d)%n", &n, &len) == 1 && len == (int)strlen(s) && n > 0) {
		*t = type_make(TYPE_TEXT);
		t->text_kind = TEXT_CHAR;
		t->typmod = n;
		return true;
	}
	n = (int)strlen(s);
	if (n > 2 && strcmp(s + n - 2, "[]") == 0 && n < 64) {   /* an array column's element */
		char el[64];
		memcpy(el, s, (size_t)n - 2);
		el[n - 2] = 0;
		*t = t->id == TYPE_ARRAY ? array_elem_type(*t) : *t;
		if (!pg_type_from_name(el, t))
			return false;
		*t = array_of(*t);
		return true;
	}
	return false;
}

void
table_apply_floe_properties(TableMetadata *md)
{
	static const char prefix[] = "floe.column.";
	int i, s, f;

	for (i = 0; i < md->nproperties; i++) {
		const char *k = md->properties[i].key, *v = md->properties[i].value;
		char *end;
		long id;

		if (strncmp(k, prefix, sizeof prefix - 1) != 0)
			continue;
		id = strtol(k + sizeof prefix - 1, &end, 10);
		if (end == k + sizeof prefix - 1 || *end != '.')
			continue;
		for (s = 0; s < md->nschemas; s++) {
			IcebergSchema *sc = &md->schemas[s];
			for (f = 0; f < sc->nfields; f++) {
				IcebergField *fl = &sc->fields[f];
				SqlType t;
				if (fl->id != id || fl->nested)
					continue;
				if (strcmp(end, ".default") == 0)
					fl->default_sql = (char *)v;
				else if (strcmp(end, ".identity") == 0 && (v[0] == 'a' || v[0] == 'd'))
					fl->identity = v[0];
				else if (strcmp(end, ".pg-type") == 0 && ((t = fl->type), true) &&
					 pg_type_from_name(v, &t))
					fl->type = t;
			}
		}
	}
}

/* The pg-type property value for a column type, or NULL when the Iceberg
 * type's default PostgreSQL type is the same. */
const char *
table_pg_type_prop(SqlType t, Arena *a)
{
	char buf[64];

	if (t.udt && t.id != TYPE_ARRAY) {   /* an enum, a domain (types/udt.h) */
		const Udt *u = udt_get(t.udt);
		const char *qual = u ? arena_sprintf(a, "%s.%s", u->ns, u->name) : "?";
		const char *bp;
		if (type_is_enum(t))
			return arena_sprintf(a, "enum:%u:%s", t.udt, qual);
		bp = table_pg_type_prop(type_domain_base(t), a);
		return arena_sprintf(a, "domain:%u:%s:%s", t.udt, bp ? bp : "", qual);
	}
	if (t.id == TYPE_ARRAY) {     /* the element's, as "smallint[]" */
		const char *e = table_pg_type_prop(array_elem_type(t), a);
		return e ? arena_sprintf(a, "%s[]", e) : NULL;
	}
	if (t.id == TYPE_INT16 || (t.id == TYPE_DECIMAL && t.precision == 0) ||
	    (t.id == TYPE_TEXT && t.text_kind != TEXT_PLAIN))
		return arena_strdup(a, type_name(t, buf, sizeof buf));
	return NULL;
}

/* ---- loading ---------------------------------------------------------- */

/*
 * Metadata cache.  Metadata files are immutable, so a parse keyed by the
 * local path a location resolves to never goes stale.  An entry (common/lru)
 * owns an arena holding one parsed TableMetadata (floe properties applied);
 * every caller that receives it holds a reference until the caller's arena
 * is reset.  Only unreferenced entries are evicted (least recently used
 * first) to keep the parses under MD_CACHE_MAX_BYTES; when there is no room,
 * the parse is handed to the caller uncached.  Callers treat Table.md as
 * read-only (commits copy).
 */
#define MD_CACHE_MAX_BYTES ((size_t)64 << 20)

static pthread_once_t caches_once = PTHREAD_ONCE_INIT;
static Lru *md_cache, *sf_cache;

static void caches_init(void);

static int
read_metadata(FileIO *io, const char *location, Arena *a, TableMetadata **md, floe_error *err)
{
	char *key = fileio_resolve(io, location, a);
	const uint8_t *data;
	size_t len;
	Arena *own;

	pthread_once(&caches_once, caches_init);
	if ((*md = lru_get(md_cache, key, a)) != NULL)
		return FLOE_OK;

	/* the file's bytes (a mapping) live in a scratch arena; the model,
	 * which copies what it keeps, in `own` */
	own = arena_new(0);
	{
		Arena *scratch = arena_new(0);
		int rc = fileio_read(io, location, scratch, &data, &len, err);
		if (rc == FLOE_OK)
			rc = metadata_parse((const char *)data, len, location, own, md, err);
		arena_free(scratch);
		if (rc != FLOE_OK) {
			arena_free(own);
			return FLOE_ERR;
		}
	}
	table_apply_floe_properties(*md);
	lru_put(md_cache, key, own, *md, a);
	return FLOE_OK;
}

void
table_metadata_cache_stats(uint64_t *hits, uint64_t *misses)
{
	LruStats s;

	pthread_once(&caches_once, caches_init);
	lru_stats(md_cache, &s);
	*hits = s.hits;
	*misses = s.misses;
}

static Table *
make_table(Arena *a, const char *ns, const char *name, const char *loc, TableMetadata *md)
{
	Table *t = ARENA_NEW(a, Table);

	t->ns = arena_strdup(a, ns);
	t->name = arena_strdup(a, name);
	t->metadata_location = arena_strdup(a, loc);
	t->md = md;
	return t;
}

/* The Table that the metadata JSON just written (or staged) at path
 * describes, parsed into a as a later load would see it. */
static int
table_from_json(const char *json, const char *path, const char *ns, const char *name, Arena *a,
		Table **out, floe_error *err)
{
	TableMetadata *md;

	TRY(metadata_parse(json, strlen(json), path, a, &md, err));
	table_apply_floe_properties(md);
	*out = make_table(a, ns, name, path, md);
	return FLOE_OK;
}

/* ---- the outcome of a failed swap ------------------------------------- */

/* job is v or one of v's comma-separated ids (a group commit's,
 * ingest/groupcommit.h) */
static bool
job_listed(const char *v, const char *job)
{
	size_t n = strlen(job);

	for (const char *p = v; (p = strstr(p, job)); p++)
		if ((p == v || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
			return true;
	return false;
}

bool
table_holds_commit(const Table *t, const char *loc, const char *job)
{
	int i, k;

	if (loc && !strcmp(t->metadata_location, loc))
		return true;
	for (i = 0; loc && i < t->md->nmetadata_log; i++)
		if (!strcmp(t->md->metadata_log[i].metadata_file, loc))
			return true;
	for (i = 0; job && i < t->md->nsnapshots; i++) {
		const Snapshot *sn = &t->md->snapshots[i];
		for (k = 0; k < sn->nsummary; k++)
			if (!strcmp(sn->summary[k].key, "floe.job-id") &&
			    job_listed(sn->summary[k].value, job))
				return true;
	}
	return false;
}

CommitOutcome
table_commit_outcome(Catalog *cat, FileIO *io, const char *ns, const char *name, const char *loc,
		     const char *job, const floe_error *swap_err, Arena *a, Table **head)
{
	floe_error e;
	Table *h = NULL;
	bool read = table_load(cat, io, ns, name, a, &h, &e) == FLOE_OK;

	if (head)
		*head = read ? h : NULL;
	if (read && table_holds_commit(h, loc, job))
		return COMMIT_LANDED;
	if (floe_error_is(swap_err, ERRCODE_CONNECTION_FAILURE))
		return COMMIT_UNKNOWN;      /* a swap in flight may still land */
	if (!read && !floe_error_is(&e, ERRCODE_UNDEFINED_TABLE) &&
	    floe_error_is(swap_err, ERRCODE_T_R_SERIALIZATION_FAILURE))
		return COMMIT_UNKNOWN;      /* a re-run swap lost: to what? */
	return COMMIT_NOT_LANDED;
}

void
table_record_orphans(FileIO *io, const char *job, const char *const *paths, int n)
{
	Arena *a;
	FILE *f;
	int i;

	if (n <= 0)
		return;
	a = arena_new(0);
	if ((f = fopen(io->local_dir ? arena_sprintf(a, "%s/orphan-candidates", io->local_dir)
		       : fileio_resolve(io, "orphan-candidates", a), "a")) != NULL) {
		for (i = 0; i < n; i++)
			fprintf(f, "%s\t%s\n", job ? job : "", paths[i]);
		fclose(f);
	}
	arena_free(a);
}

int
table_unknown_outcome(FileIO *io, const char *job, const char *const *paths, int n,
		      floe_error *err)
{
	table_record_orphans(io, job, paths, n);
	if (!floe_error_is(err, ERRCODE_CONNECTION_FAILURE))
		floe_errorf(err, ERRCODE_CONNECTION_FAILURE,
			    "catalog: connection lost during a commit; its outcome is unknown");
	return floe_error_detail(err, "The files it wrote are kept, listed in "
				 "<warehouse>/orphan-candidates (job %s); it may have committed.",
				 job && job[0] ? job : "-");
}

/* json (about to be written as path) parses and validates as a load would
 * see it: a commit never publishes metadata that would be refused. */
static int
check_metadata_json(const char *json, const char *path, floe_error *err)
{
	Arena *tmp = arena_new(0);
	TableMetadata *md;
	int rc = metadata_parse(json, strlen(json), path, tmp, &md, err);

	arena_free(tmp);
	return rc;
}

/*
 * Write md as the metadata file `path` and make it the catalog's entry of
 * ns.name: created (from == NULL) or swapped from `from`; the file is
 * removed when the catalog refuses, kept and listed when the outcome is
 * unknown (table_commit_outcome).  *out is the new Table, in a.
 */
static int
publish_metadata(Catalog *cat, FileIO *io, const TableMetadata *md, const char *path,
		 const char *ns, const char *name, const char *from, Arena *tmp, Arena *a,
		 Table **out, floe_error *err)
{
	char *json = metadata_serialize(md, tmp);
	floe_error ignore;
	int rc;

	/* parsed (validated) before anything is written: never publish a
	 * metadata file that a later load would refuse */
	TRY(table_from_json(json, path, ns, name, a, out, err));
	TRY(fileio_write(io, path, json, strlen(json), err));
	rc = from ? catalog_swap_table(cat, ns, name, from, path, err)
		  : catalog_create_table(cat, ns, name, path, err);
	if (rc != FLOE_OK) {
		switch (table_commit_outcome(cat, io, ns, name, path, NULL, err, tmp, NULL)) {
		case COMMIT_LANDED:
			floe_error_clear(err);
			break;
		case COMMIT_UNKNOWN:
			return table_unknown_outcome(io, NULL, (const char *const *)&path, 1, err);
		case COMMIT_NOT_LANDED:
			(void)fileio_remove(io, path, &ignore);
			return FLOE_ERR;
		}
	}
	return FLOE_OK;
}

int
table_load(Catalog *cat, FileIO *io, const char *ns, const char *name, Arena *a,
	   Table **out, floe_error *err)
{
	char *loc;
	TableMetadata *md;

	TRY(catalog_load_table(cat, ns, name, a, &loc, err));
	TRY(read_metadata(io, loc, a, &md, err));
	*out = make_table(a, ns, name, loc, md);
	return FLOE_OK;
}

int
table_register(Catalog *cat, FileIO *io, const char *ns, const char *name,
	       const char *metadata_location, floe_error *err)
{
	Arena *a = arena_new(0);
	TableMetadata *md;
	int rc = read_metadata(io, metadata_location, a, &md, err);

	if (rc == FLOE_OK)
		rc = catalog_create_table(cat, ns, name, metadata_location, err);
	arena_free(a);
	return rc;
}

/* ---- create ----------------------------------------------------------- */

/* A schema or table name as one folder name of the table's default
 * location: '/', '\\', '%' and control characters percent-encoded, and the
 * names "." and ".." too, so no name leaves <warehouse>/<ns>/ (a plain
 * name is itself: the folders of existing tables keep their names). */
static bool
escaped(unsigned char c, bool dots)
{
	return c == '/' || c == '\\' || c == '%' || c < 0x20 || c == 0x7f || (dots && c == '.');
}

static const char *
folder_name(Arena *a, const char *name)
{
	static const char hex[] = "0123456789ABCDEF";
	bool dots = !strcmp(name, ".") || !strcmp(name, "..");
	size_t n = 0, i;
	char *out;

	for (i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		if (escaped(c, dots))
			n++;
	}
	if (!n)
		return name;
	out = arena_alloc(a, i + 2 * n + 1);
	for (n = 0, i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		if (escaped(c, dots)) {
			out[n++] = '%';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		} else {
			out[n++] = (char)c;
		}
	}
	out[n] = 0;
	return out;
}

int
table_create(Catalog *cat, FileIO *io, const char *location, const char *ns,
	     const char *name, const IcebergSchema *schema, const char *const *prop_keys,
	     const char *const *prop_values, int nprops, Arena *a, Table **out,
	     floe_error *err)
{
	Arena *tmp = arena_new(0);
	TableMetadata *md = ARENA_NEW(tmp, TableMetadata);
	IcebergSchema *s;
	int32_t last_id;
	char *path, *existing;
	floe_error ignore;
	int i, np = 0, rc = FLOE_ERR;

	/* fail early when the name is taken (the catalog insert re-checks) */
	if (catalog_load_table(cat, ns, name, tmp, &existing, &ignore) == FLOE_OK) {
		floe_errorf(err, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
		goto out;
	}
	if (!location) {
		/* <root>/<ns>/<name>, not through fileio_resolve: a prefix map
		 * or a "file:" schema name must not move it */
		const char *dir = arena_sprintf(tmp, "%s/%s", folder_name(tmp, ns), folder_name(tmp, name));
		char *p = io->root && io->root[0] ? arena_sprintf(tmp, "%s/%s", io->root, dir)
						  : arena_strdup(tmp, dir);
		char cwd[4096];
		if (p[0] != '/' && !fileio_is_remote(p) && getcwd(cwd, sizeof cwd))
			p = arena_sprintf(tmp, "%s/%s", cwd, p);
		location = p;
	}
	md->format_version = 2;
	md->table_uuid = table__new_uuid(tmp);
	md->location = strip_slashes(tmp, location);
	md->last_sequence_number = 0;
	md->last_updated_ms = now_ms();

	s = ARENA_NEW(tmp, IcebergSchema);
	s->schema_id = 0;
	s->nfields = schema->nfields;
	s->fields = ARENA_ARRAY(tmp, IcebergField, schema->nfields + 1);
	md->properties = ARENA_ARRAY(tmp, MdProp, nprops + 3 * schema->nfields + 1);
	for (i = 0; i < nprops; i++) {
		if (!strcmp(prop_keys[i], "format-version")) {
			/* reserved: the first metadata file's version, not stored */
			const char *v = prop_values[i];
			if (strlen(v) != 1 || v[0] < '1' || v[0] > '3') {
				floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					    "invalid value for table property \"format-version\": \"%s\"", v);
				goto out;
			}
			md->format_version = v[0] - '0';
			continue;
		}
		md->properties[np].key = arena_strdup(tmp, prop_keys[i]);
		md->properties[np++].value = arena_strdup(tmp, prop_values[i]);
	}
	last_id = schema->nfields;   /* list element ids follow the columns' */
	for (i = 0; i < schema->nfields; i++) {
		IcebergField *f = &s->fields[i];
		const char *pg;
		*f = schema->fields[i];
		f->id = i + 1;
		if (metadata_column_type(f, &last_id, tmp, err) != FLOE_OK) {
			floe_error_prefix(err, "column \"%s\": ", f->name);
			goto out;
		}
		if ((pg = table_pg_type_prop(f->type, tmp)) != NULL) {
			md->properties[np].key = arena_sprintf(tmp, "floe.column.%d.pg-type", f->id);
			md->properties[np++].value = (char *)pg;
		}
		if (f->default_sql) {
			md->properties[np].key = arena_sprintf(tmp, "floe.column.%d.default", f->id);
			md->properties[np++].value = f->default_sql;
		}
		if (f->identity) {
			md->properties[np].key = arena_sprintf(tmp, "floe.column.%d.identity", f->id);
			md->properties[np++].value = f->identity == 'a' ? "a" : "d";
		}
	}
	if (schema->nidentifier > 0) {
		s->nidentifier = schema->nidentifier;
		s->identifier_field_ids = schema->identifier_field_ids;
	}
	md->nproperties = np;
	if (md->format_version >= 3) {
		md->has_next_row_id = true;        /* row lineage starts at 0 */
		md->next_row_id = 0;
	}
	md->nschemas = 1;
	md->schemas = s;
	md->current_schema_id = 0;
	md->last_column_id = last_id;
	md->nspecs = 1;
	md->specs = ARENA_NEW(tmp, PartitionSpec);
	md->default_spec_id = 0;
	md->last_partition_id = 999;
	md->nsort_orders = 1;
	md->sort_orders = ARENA_NEW(tmp, SortOrder);
	md->default_sort_order_id = 0;

	path = arena_sprintf(tmp, "%s/00000-%s.metadata.json", table__metadata_dir(md, tmp),
			     table__new_uuid(tmp));
	rc = publish_metadata(cat, io, md, path, ns, name, NULL, tmp, a, out, err);
out:
	arena_free(tmp);
	return rc;
}

/* ---- scan planning ---------------------------------------------------- */

/*
 * A v1 snapshot may list its manifests directly ("manifests") instead of a
 * manifest list: build the manifest-list entries from the manifests
 * themselves (spec id and content from the header, counts from entries).
 */
static int
synth_manifest_list(FileIO *io, const Snapshot *snap, Arena *a, ManifestFile **mf, int *n,
		    floe_error *err)
{
	ManifestFile *out = ARENA_ARRAY(a, ManifestFile, snap->nmanifests_v1 + 1);
	int i, j;

	for (i = 0; i < snap->nmanifests_v1; i++) {
		ManifestFile *m = &out[i];
		ManifestHeader *h;
		ManifestEntry *e;
		const uint8_t *data;
		size_t len;
		int ne;

		TRY(fileio_read(io, snap->manifests_v1[i], a, &data, &len, err));
		TRY(manifest_read_info(data, len, snap->manifests_v1[i], a, &h, &e, &ne, err));
		m->manifest_path = snap->manifests_v1[i];
		m->manifest_length = (int64_t)len;
		m->partition_spec_id = h->spec_id;
		m->content = h->content;
		m->added_snapshot_id = snap->snapshot_id;
		for (j = 0; j < ne; j++) {
			int64_t rows = e[j].file.record_count;
			if (e[j].status == ENTRY_ADDED) {
				m->added_files_count++;
				m->added_rows_count += rows;
			} else if (e[j].status == ENTRY_EXISTING) {
				m->existing_files_count++;
				m->existing_rows_count += rows;
			} else {
				m->deleted_files_count++;
				m->deleted_rows_count += rows;
			}
		}
	}
	*mf = out;
	*n = snap->nmanifests_v1;
	return FLOE_OK;
}

int
table__read_manifest_list(FileIO *io, const Snapshot *snap, Arena *a, ManifestFile **mf, int *n,
		   floe_error *err)
{
	const uint8_t *data;
	size_t len;

	if (!snap->manifest_list)
		return synth_manifest_list(io, snap, a, mf, n, err);
	TRY(fileio_read(io, snap->manifest_list, a, &data, &len, err));
	TRY(manifest_list_read(data, len, snap->manifest_list, a, mf, n, err));
	return manifest_list_check_summary(snap, *mf, *n, err);
}

/*
 * First row ID inheritance (spec "First Row ID Inheritance"; as Iceberg
 * Java's ManifestReader): in a data manifest with a first_row_id, each live
 * (not DELETED) data file whose first_row_id is null gets the manifest's
 * first_row_id plus the record counts of the earlier such files.  A
 * manifest without one (written before a v3 upgrade) has no row ids: its
 * files' first_row_id are null whatever the entries say.
 */
static void
inherit_first_row_ids(const ManifestFile *m, ManifestEntry *e, int n)
{
	int64_t next = m->first_row_id;
	int i;

	for (i = 0; i < n; i++) {
		DataFile *f = &e[i].file;
		if (f->content != CONTENT_DATA || m->content != 0 || !m->has_first_row_id) {
			f->has_first_row_id = false;
			f->first_row_id = 0;
			continue;
		}
		if (e[i].status == ENTRY_DELETED || f->has_first_row_id)
			continue;
		f->has_first_row_id = true;
		f->first_row_id = next;
		next += f->record_count;
	}
}

/* Entries of one manifest, with inherited snapshot ids / sequence numbers
 * and first row ids. */
int
table__read_entries(FileIO *io, const ManifestFile *m, Arena *a, ManifestEntry **e, int *n,
	     floe_error *err)
{
	const uint8_t *data;
	size_t len;
	int i;

	TRY(fileio_read(io, m->manifest_path, a, &data, &len, err));
	TRY(manifest_read(data, len, m->manifest_path, a, e, n, err));
	TRY(manifest_check_listed(m, len, *e, *n, err));
	for (i = 0; i < *n; i++) {
		ManifestEntry *x = &(*e)[i];
		if (!x->has_snapshot_id) {
			x->has_snapshot_id = true;
			x->snapshot_id = m->added_snapshot_id;
		}
		if (!x->has_sequence_number && (x->status == ENTRY_ADDED || m->sequence_number == 0)) {
			x->has_sequence_number = true;
			x->sequence_number = m->sequence_number;
		}
		if (!x->has_file_sequence_number && (x->status == ENTRY_ADDED || m->sequence_number == 0)) {
			x->has_file_sequence_number = true;
			x->file_sequence_number = m->sequence_number;
		}
		x->file.spec_id = m->partition_spec_id;
	}
	inherit_first_row_ids(m, *e, *n);
	return FLOE_OK;
}

static int
resolve_snapshot(const Table *t, int64_t snapshot_id, const Snapshot **snap, floe_error *err)
{
	if (snapshot_id == -1) {
		*snap = metadata_current_snapshot(t->md);
		return FLOE_OK;
	}
	*snap = metadata_snapshot_by_id(t->md, snapshot_id);
	if (!*snap)
		return floe_errorf(err, ERRCODE_UNDEFINED_OBJECT,
				   "snapshot %lld of table \"%s\" does not exist",
				   (long long)snapshot_id, t->name ? t->name : "");
	return FLOE_OK;
}

static int storage_class(TypeId id);

/* Two partition tuples hold the same values (same storage, same bytes). */
static bool
part_value_eq(const Value *x, const Value *y)
{
	if (x->is_null || y->is_null || x->type.id == TYPE_NULL || y->type.id == TYPE_NULL)
		return (x->is_null || x->type.id == TYPE_NULL) == (y->is_null || y->type.id == TYPE_NULL);
	if (storage_class(x->type.id) != storage_class(y->type.id))
		return false;
	switch (storage_class(x->type.id)) {
	case 1: return x->u.b == y->u.b;
	case 2: return x->u.i == y->u.i;
	case 3: return x->u.f == y->u.f || (x->u.f != x->u.f && y->u.f != y->u.f);
	case 4: return x->u.d == y->u.d;
	case 5: return strview_cmp(&x->u.s, &y->u.s) == 0;
	case 6: return memcmp(x->u.uuid.b, y->u.uuid.b, 16) == 0;
	default: return false;
	}
}

static bool
same_partition(const DataFile *x, const DataFile *y)
{
	int i;

	if (x->spec_id != y->spec_id || x->npartition != y->npartition)
		return false;
	for (i = 0; i < x->npartition; i++)
		if (!part_value_eq(&x->partition[i], &y->partition[i]))
			return false;
	return true;
}

/* The one data file a position delete file names: referenced_data_file,
 * else equal lower/upper bounds of its file_path column; NULL: several. */
static char *
pos_delete_target(const DataFile *d, Arena *a)
{
	int i;

	if (d->referenced_data_file)
		return d->referenced_data_file;
	for (i = 0; i < d->ncolumns; i++) {
		const ColumnStat *c = &d->columns[i];
		if (c->field_id == 2147483546 && c->lower && c->upper && c->lower_len == c->upper_len &&
		    memcmp(c->lower, c->upper, c->lower_len) == 0)
			return arena_strndup(a, (const char *)c->lower, c->lower_len);
	}
	return NULL;
}

typedef struct PlanDelete {
	DataFile *f;
	int64_t seq;             /* data sequence number */
	char *target;            /* resolved path of the one data file it names, or NULL */
	bool global;             /* its spec is unpartitioned */
	bool dv;
} PlanDelete;

/*
 * Attach to every data file the live delete files that apply to it
 * (spec "Scan Planning"):
 *   position deletes / DVs: data seq <= delete seq, the named data file
 *     (when one is named, compared after the FileIO mapping) and the same
 *     partition (spec and values) unless the delete's spec is unpartitioned;
 *     a file with a DV takes no position delete files (the DV holds them);
 *   equality deletes: data seq < delete seq, same partition or global.
 */
static void
plan_deletes(FileIO *io, const TableMetadata *md, DataFile *files, const int64_t *seqs, int n,
	     PlanDelete *dels, int nd, Arena *a)
{
	const DataFile **tmp = ARENA_ARRAY(a, const DataFile *, nd + 1);
	int i, j;

	for (j = 0; j < nd; j++) {
		const PartitionSpec *sp = metadata_spec_by_id(md, dels[j].f->spec_id);
		char *t = dels[j].f->content == CONTENT_POSITION_DELETES ?
			pos_delete_target(dels[j].f, a) : NULL;
		dels[j].target = t ? fileio_resolve(io, t, a) : NULL;
		dels[j].global = !sp || sp->nfields == 0;
		dels[j].dv = dels[j].f->content == CONTENT_POSITION_DELETES && dels[j].f->file_format &&
			     strcasecmp(dels[j].f->file_format, "PUFFIN") == 0;
	}
	for (i = 0; i < n; i++) {
		DataFile *f = &files[i];
		const PlanDelete *dv = NULL;
		char *res = NULL;
		int k = 0, m;

		f->data_sequence_number = seqs[i];
		for (j = 0; j < nd; j++) {
			const PlanDelete *d = &dels[j];
			if (d->f->content == CONTENT_EQUALITY_DELETES) {
				if (seqs[i] < d->seq && (d->global || same_partition(f, d->f)))
					tmp[k++] = d->f;
				continue;
			}
			if (seqs[i] > d->seq)
				continue;
			if (d->target) {
				if (!res)
					res = fileio_resolve(io, f->file_path, a);
				if (strcmp(res, d->target) != 0)
					continue;
			} else if (d->dv) {
				continue;        /* a DV without its data file names nothing */
			} else if (!d->global && !same_partition(f, d->f)) {
				continue;
			}
			if (d->dv) {
				if (!dv || d->seq > dv->seq)
					dv = d;
				continue;
			}
			tmp[k++] = d->f;
		}
		if (dv) {
			for (m = 0, j = 0; j < k; j++)
				if (tmp[j]->content == CONTENT_EQUALITY_DELETES)
					tmp[m++] = tmp[j];
			k = m;
			tmp[k++] = dv->f;
		}
		f->ndeletes = k;
		f->deletes = NULL;
		if (k > 0) {
			f->deletes = ARENA_ARRAY(a, DataFile *, k);
			memcpy(f->deletes, tmp, sizeof(DataFile *) * (size_t)k);
		}
	}
}

static int
scan_files(FileIO *io, const Table *t, const Snapshot *snap, Arena *a, DataFile **files, int *n,
	   floe_error *err)
{
	ManifestFile *mf;
	DataFile *out = NULL;
	int64_t *seqs = NULL;
	PlanDelete *dels = NULL;
	int nmf, i, j, cnt = 0, cap = 0, nd = 0, dcap = 0;

	*files = NULL;
	*n = 0;
	TRY(table__read_manifest_list(io, snap, a, &mf, &nmf, err));
	for (i = 0; i < nmf; i++) {
		ManifestEntry *e;
		int ne;

		TRY(table__read_entries(io, &mf[i], a, &e, &ne, err));
		for (j = 0; j < ne; j++) {
			int64_t seq;
			if (e[j].status == ENTRY_DELETED)
				continue;
			seq = e[j].has_sequence_number ? e[j].sequence_number : mf[i].sequence_number;
			if (e[j].file.content != CONTENT_DATA) {
				if (mf[i].content == 0)
					return FLOE_CORRUPT(err, "data manifest \"%s\" lists delete file \"%s\"",
							    mf[i].manifest_path, e[j].file.file_path);
				if (nd == dcap) {
					int ncap = dcap ? dcap * 2 : 16;
					dels = arena_realloc(a, dels, sizeof(PlanDelete) * (size_t)dcap,
							     sizeof(PlanDelete) * (size_t)ncap);
					dcap = ncap;
				}
				memset(&dels[nd], 0, sizeof dels[nd]);
				dels[nd].f = ARENA_NEW(a, DataFile);
				*dels[nd].f = e[j].file;
				dels[nd++].seq = seq;
				continue;
			}
			if (mf[i].content != 0)
				return FLOE_CORRUPT(err, "delete manifest \"%s\" lists data file \"%s\"",
						    mf[i].manifest_path, e[j].file.file_path);
			if (cnt == cap) {
				int ncap = cap ? cap * 2 : 16;
				out = arena_realloc(a, out, sizeof(DataFile) * (size_t)cap,
						    sizeof(DataFile) * (size_t)ncap);
				seqs = arena_realloc(a, seqs, sizeof(int64_t) * (size_t)cap,
						     sizeof(int64_t) * (size_t)ncap);
				cap = ncap;
			}
			seqs[cnt] = seq;
			out[cnt++] = e[j].file;
		}
	}
	if (cnt > 0)
		plan_deletes(io, t->md, out, seqs, cnt, dels, nd, a);
	*files = out;
	*n = cnt;
	return FLOE_OK;
}

/*
 * Scan-plan cache.  A snapshot's live files are a function of its manifest
 * list and the manifests it names, all immutable files (a new commit writes
 * new ones), plus the partition specs (ids never change meaning) and, for
 * delete files naming a data file, the FileIO's path maps.  So a plan is
 * kept keyed by the FileIO and the resolved manifest-list path; a repeat
 * (every point SELECT of a table that did not change) reads no manifest.
 * Like the metadata cache (common/lru): an entry owns an arena with the
 * plan, callers hold a reference until their arena is reset and get their
 * own copy of the DataFile array (the structs; what they point to is shared
 * and read-only); only unreferenced entries are evicted, least recently used
 * first, to keep the plans under SF_CACHE_MAX_BYTES (a larger plan is not
 * kept).  Snapshots without a manifest list (v1 "manifests") are planned
 * every time.
 */
#define SF_CACHE_MAX_BYTES ((size_t)64 << 20)

typedef struct ScanPlan {
	DataFile *files;
	int n;
} ScanPlan;

static void
caches_init(void)
{
	md_cache = lru_new(MD_CACHE_MAX_BYTES);
	sf_cache = lru_new(SF_CACHE_MAX_BYTES);
}

int
table_scan_files(FileIO *io, const Table *t, int64_t snapshot_id, Arena *a,
		 DataFile **files, int *n, floe_error *err)
{
	const Snapshot *snap;
	const ScanPlan *p;
	ScanPlan *np;
	char *key;
	Arena *own;

	*files = NULL;
	*n = 0;
	TRY(resolve_snapshot(t, snapshot_id, &snap, err));
	if (!snap)
		return FLOE_OK;
	if (!snap->manifest_list)
		return scan_files(io, t, snap, a, files, n, err);
	pthread_once(&caches_once, caches_init);
	key = arena_sprintf(a, "%p %s", (void *)io, fileio_resolve(io, snap->manifest_list, a));
	if ((p = lru_get(sf_cache, key, a)) == NULL) {
		own = arena_new(0);
		np = ARENA_NEW(own, ScanPlan);
		if (scan_files(io, t, snap, own, &np->files, &np->n, err) != FLOE_OK) {
			arena_free(own);
			return FLOE_ERR;
		}
		p = lru_put(sf_cache, key, own, np, a);
	}
	/* the caller's copy of the array */
	*n = p->n;
	if (p->n > 0)
		*files = arena_memdup(a, p->files, sizeof(DataFile) * (size_t)p->n);
	return FLOE_OK;
}

/* A deletion vector is one blob of a Puffin file: the same path and
 * content offset is the same delete file, whichever data file carries it. */
static bool
same_delete_file(const DataFile *x, const DataFile *y)
{
	return x == y ||
	       (!strcmp(x->file_path, y->file_path) && x->has_content_offset == y->has_content_offset &&
		x->content_offset == y->content_offset);
}

int
table_scan_delete_files(const DataFile *files, int n, Arena *a, const DataFile ***out)
{
	const DataFile **seen;
	int total = 0, nseen = 0, i, k, j;

	for (i = 0; i < n; i++)
		total += files[i].ndeletes;
	seen = ARENA_ARRAY(a, const DataFile *, total + 1);
	for (i = 0; i < n; i++)
		for (k = 0; k < files[i].ndeletes; k++) {
			const DataFile *d = files[i].deletes[k];
			for (j = 0; j < nseen && !same_delete_file(seen[j], d); j++)
				;
			if (j == nseen)
				seen[nseen++] = d;
		}
	*out = seen;
	return nseen;
}

void
table_scan_cache_stats(uint64_t *hits, uint64_t *misses)
{
	LruStats s;

	pthread_once(&caches_once, caches_init);
	lru_stats(sf_cache, &s);
	*hits = s.hits;
	*misses = s.misses;
}

/* ---- append commit ---------------------------------------------------- */

typedef struct Totals {
	int64_t records, data_files, delete_files, files_size, pos_deletes, eq_deletes;
} Totals;

static bool
summary_i64(const Snapshot *s, const char *key, int64_t *v)
{
	const char *x = s ? metadata_summary_get(s, key) : NULL;
	char *end;

	if (!x || !*x)
		return false;
	*v = strtoll(x, &end, 10);
	return *end == 0;
}

/* Totals of the head snapshot: from its summary, else from its manifests. */
static int
head_totals(FileIO *io, const Snapshot *snap, const ManifestFile *mf, int nmf, Arena *a,
	    Totals *t, floe_error *err)
{
	int i, j;

	memset(t, 0, sizeof *t);
	if (!snap)
		return FLOE_OK;
	if (summary_i64(snap, "total-records", &t->records) &&
	    summary_i64(snap, "total-data-files", &t->data_files) &&
	    summary_i64(snap, "total-delete-files", &t->delete_files) &&
	    summary_i64(snap, "total-files-size", &t->files_size) &&
	    summary_i64(snap, "total-position-deletes", &t->pos_deletes) &&
	    summary_i64(snap, "total-equality-deletes", &t->eq_deletes))
		return FLOE_OK;
	memset(t, 0, sizeof *t);
	for (i = 0; i < nmf; i++) {
		ManifestEntry *e;
		int ne;
		TRY(table__read_entries(io, &mf[i], a, &e, &ne, err));
		for (j = 0; j < ne; j++) {
			const DataFile *f = &e[j].file;
			if (e[j].status == ENTRY_DELETED)
				continue;
			t->files_size += f->file_size_in_bytes;
			if (f->content == CONTENT_DATA) {
				t->data_files++;
				t->records += f->record_count;
			} else {
				t->delete_files++;
				if (f->content == CONTENT_POSITION_DELETES)
					t->pos_deletes += f->record_count;
				else
					t->eq_deletes += f->record_count;
			}
		}
	}
	return FLOE_OK;
}

/* Next metadata file number: NNNNN of the head's file name + 1. */
static int
next_version(const char *loc, const TableMetadata *md)
{
	const char *base = strrchr(loc, '/');
	char *end;
	long v;

	base = base ? base + 1 : loc;
	v = strtol(base, &end, 10);
	if (end != base && *end == '-' && v >= 0 && v < 99999)
		return (int)v + 1;
	return md->nmetadata_log + 1;
}

static void
set_summary(Snapshot *s, Arena *a, int *k, const char *key, int64_t v)
{
	s->summary[*k].key = arena_strdup(a, key);
	s->summary[(*k)++].value = arena_sprintf(a, "%lld", (long long)v);
}

typedef struct Written {
	char **paths;
	int n, cap;
	Arena *a;
	bool final;                /* the failure cannot go away on a re-base */
} Written;

static void
written_add(Written *w, char *path)
{
	if (w->n == w->cap) {
		int ncap = w->cap ? w->cap * 2 : 8;
		w->paths = arena_realloc(w->a, w->paths, sizeof(char *) * (size_t)w->cap,
					 sizeof(char *) * (size_t)ncap);
		w->cap = ncap;
	}
	w->paths[w->n++] = path;
}

static void
remove_written(FileIO *io, Written *w)
{
	floe_error ignore;
	int i;

	for (i = 0; i < w->n; i++)
		(void)fileio_remove(io, w->paths[i], &ignore);
	w->n = 0;
}

/* A TableChange normalized for one commit: remove sorted with strcmp and
 * distinct. */
typedef struct CommitSpec {
	const DataFile *add;
	int nadd;
	const char **remove;       /* sorted with strcmp */
	int nremove;
	bool remove_all;
	const char *job_id;
	uint64_t ingest_seq;       /* "floe.ingest-seq", 0: none */
	const char *operation;     /* NULL: derived */
	int (*rebase_check)(void *, const Table *, const Table *, Arena *, floe_error *);
	void *rebase_arg;
	const MdProp *summary;     /* extra summary entries */
	int nsummary;
	const MdProp *init_props;  /* properties set where the head has none */
	int ninit_props;
} CommitSpec;

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool
removing(const CommitSpec *cs, const char *path)
{
	return cs->remove_all ||
	       (cs->nremove > 0 && bsearch(&path, cs->remove, (size_t)cs->nremove,
					   sizeof(char *), cmp_str) != NULL);
}

/* ManifestWriteInfo for data manifests of a spec. */
int
table__write_info(const TableMetadata *md, const PartitionSpec *spec, ManifestWriteInfo *info,
	   Arena *a, floe_error *err)
{
	const IcebergSchema *schema = metadata_current_schema(md);
	const char **pnames = ARENA_ARRAY(a, const char *, spec->nfields + 1);
	int32_t *pids = ARENA_ARRAY(a, int32_t, spec->nfields + 1);
	SqlType *ptypes = ARENA_ARRAY(a, SqlType, spec->nfields + 1);
	int i;

	for (i = 0; i < spec->nfields; i++) {
		pnames[i] = spec->fields[i].name;
		pids[i] = spec->fields[i].field_id;
		TRY(metadata_partition_type(md, spec, i, &ptypes[i], err));
	}
	memset(info, 0, sizeof *info);
	info->format_version = md->format_version;
	info->schema_json = schema_to_json(schema, a);
	info->schema_id = schema->schema_id;
	info->partition_spec_json = partition_spec_fields_json(spec, a);
	info->spec_id = spec->spec_id;
	info->npartition_fields = spec->nfields;
	info->partition_names = pnames;
	info->partition_field_ids = pids;
	info->partition_types = ptypes;
	info->content = 0;
	return FLOE_OK;
}

/* Which Value member holds a type (see types/value.h). */
static int
storage_class(TypeId id)
{
	switch (id) {
	case TYPE_BOOL: return 1;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: case TYPE_DATE: case TYPE_TIME:
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: return 2;
	case TYPE_FLOAT32: case TYPE_FLOAT64: return 3;
	case TYPE_DECIMAL: return 4;
	case TYPE_TEXT: case TYPE_BYTEA: return 5;
	case TYPE_UUID: return 6;
	default: return 0;
	}
}

/* Order of two non-null partition values of one type; false if the type
 * has no order we bound (then the summary carries no bounds). */
static bool
value_less(const Value *x, const Value *y, bool *ok)
{
	*ok = true;
	switch (x->type.id) {
	case TYPE_BOOL: return x->u.b < y->u.b;
	case TYPE_INT16: case TYPE_INT32: case TYPE_INT64: case TYPE_DATE: case TYPE_TIME:
	case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ:
		return x->u.i < y->u.i;
	case TYPE_FLOAT32: case TYPE_FLOAT64: return x->u.f < y->u.f;
	case TYPE_DECIMAL: return x->u.d < y->u.d;
	case TYPE_TEXT: case TYPE_BYTEA: return strview_cmp(&x->u.s, &y->u.s) < 0;
	case TYPE_UUID: return memcmp(x->u.uuid.b, y->u.uuid.b, 16) < 0;
	default:
		*ok = false;
		return false;
	}
}

/* Manifest-list partition summaries (spec "Manifest Lists", field_summary):
 * contains_null, contains_nan (floating types), lower/upper bounds in the
 * single-value serialization, over the given files' partition tuples. */
static int
summarize(const TableMetadata *md, const PartitionSpec *spec, const DataFile *const *files,
	  int n, Arena *a, FieldSummary **out, floe_error *err)
{
	FieldSummary *fs = ARENA_ARRAY(a, FieldSummary, spec->nfields + 1);
	int i, j;

	for (i = 0; i < spec->nfields; i++) {
		const Value *lo = NULL, *hi = NULL;
		SqlType t;
		bool ok = true, fl;

		TRY(metadata_partition_type(md, spec, i, &t, err));
		fl = t.id == TYPE_FLOAT32 || t.id == TYPE_FLOAT64;
		fs[i].has_contains_nan = fl;
		for (j = 0; j < n; j++) {
			const Value *v;
			if (i >= files[j]->npartition)
				continue;
			v = &files[j]->partition[i];
			if (v->is_null) {
				fs[i].contains_null = true;
				continue;
			}
			if (fl && v->u.f != v->u.f) {
				fs[i].contains_nan = true;
				continue;
			}
			if (storage_class(v->type.id) != storage_class(t.id) ||
			    (lo && storage_class(lo->type.id) != storage_class(v->type.id))) {
				ok = false;
				continue;
			}
			if (!lo || value_less(v, lo, &ok))
				lo = v;
			if (!hi || value_less(hi, v, &ok))
				hi = v;
		}
		if (ok && lo) {
			Value l = *lo, h = *hi;
			l.type = h.type = t;
			if (!data_writer_bound(t, &l, false, a, &fs[i].lower, &fs[i].lower_len))
				fs[i].lower = NULL;
			if (!data_writer_bound(t, &h, true, a, &fs[i].upper, &fs[i].upper_len))
				fs[i].upper = NULL;
		}
	}
	*out = fs;
	return FLOE_OK;
}

typedef struct Removed {
	int64_t files, records, size;          /* data files */
	int64_t del_files, del_pos_files, del_dvs, del_pos, del_eq, del_size;   /* delete files */
	bool *mark;                /* per cs->remove[i]: found live */
	const char **dvt;          /* data files that get a new DV (sorted) */
	int ndvt;
} Removed;

static bool
is_dv_file(const DataFile *f)
{
	return f->content == CONTENT_POSITION_DELETES && f->file_format &&
	       strcasecmp(f->file_format, "PUFFIN") == 0;
}

/* Does this commit retire live entry x: it is named (or remove_all), or it
 * is a position delete / DV whose one data file is removed (such entries
 * are dropped with their data file; equality deletes and position deletes
 * naming several files are carried forward). */
static bool
entry_removed(const CommitSpec *cs, Removed *rm, const ManifestEntry *x, Arena *a, bool *named)
{
	const char *p = x->file.file_path, **hit;
	char *t;

	*named = false;
	if (cs->remove_all)
		return *named = true;
	if (cs->nremove == 0)
		return false;
	hit = bsearch(&p, cs->remove, (size_t)cs->nremove, sizeof(char *), cmp_str);
	/* one Puffin file holds the DVs of many data files: a DV named by its
	 * path is retired only when its data file gets a new one here (or is
	 * itself removed) */
	if (hit && is_dv_file(&x->file) &&
	    !(x->file.referenced_data_file &&
	      ((rm->ndvt > 0 && bsearch(&x->file.referenced_data_file, rm->dvt, (size_t)rm->ndvt,
					sizeof(char *), cmp_str)) ||
	       removing(cs, x->file.referenced_data_file))))
		hit = NULL;
	if (hit) {
		rm->mark[hit - cs->remove] = true;
		return *named = true;
	}
	if (x->file.content != CONTENT_POSITION_DELETES)
		return false;
	t = pos_delete_target(&x->file, a);
	return t && removing(cs, t);
}

/*
 * Rewrite manifest m of the head without the removed files: removed live
 * entries become DELETED (this snapshot's id), kept live entries EXISTING,
 * both with explicit sequence numbers; earlier DELETED entries are dropped.
 * *out is m itself when nothing in it is removed.
 */
static int
rewrite_manifest(FileIO *io, const TableMetadata *hmd, const ManifestFile *m,
		 const CommitSpec *cs, int64_t snapshot_id, int64_t seq, const char *path,
		 Arena *a, Written *w, ManifestFile *out, Removed *rm, floe_error *err)
{
	ManifestEntry *e, *ne;
	ManifestWriteInfo info;
	const PartitionSpec *spec;
	const uint8_t *data;
	size_t len;
	int n, i, k = 0, hits = 0;
	int64_t minseq = INT64_MAX;

	bool named;

	*out = *m;
	TRY(table__read_entries(io, m, a, &e, &n, err));
	for (i = 0; i < n; i++)
		if (e[i].status != ENTRY_DELETED && entry_removed(cs, rm, &e[i], a, &named))
			hits++;
	if (hits == 0)
		return FLOE_OK;
	spec = metadata_spec_by_id(hmd, m->partition_spec_id);
	if (!spec)
		return FLOE_CORRUPT(err, "manifest \"%s\" has unknown partition spec %d",
				    m->manifest_path, (int)m->partition_spec_id);
	TRY(table__write_info(hmd, spec, &info, a, err));
	info.content = m->content;
	ne = ARENA_ARRAY(a, ManifestEntry, n + 1);
	memset(out, 0, sizeof *out);
	for (i = 0; i < n; i++) {
		if (e[i].status == ENTRY_DELETED)
			continue;
		ne[k] = e[i];
		ne[k].has_sequence_number = true;
		ne[k].has_file_sequence_number = true;
		if (entry_removed(cs, rm, &e[i], a, &named)) {
			const DataFile *f = &e[i].file;
			ne[k].status = ENTRY_DELETED;
			ne[k].snapshot_id = snapshot_id;
			out->deleted_files_count++;
			out->deleted_rows_count += f->record_count;
			if (f->content == CONTENT_DATA) {
				rm->files++;
				rm->records += f->record_count;
				rm->size += f->file_size_in_bytes;
			} else {
				rm->del_files++;
				rm->del_size += f->file_size_in_bytes;
				if (f->content == CONTENT_EQUALITY_DELETES) {
					rm->del_eq += f->record_count;
				} else {
					rm->del_pos += f->record_count;
					if (is_dv_file(f))
						rm->del_dvs++;
					else
						rm->del_pos_files++;
				}
			}
		} else {
			ne[k].status = ENTRY_EXISTING;
			out->existing_files_count++;
			out->existing_rows_count += e[i].file.record_count;
		}
		if (ne[k].sequence_number < minseq)
			minseq = ne[k].sequence_number;
		k++;
	}
	TRY(manifest_write(&info, ne, k, a, &data, &len, err));
	TRY(fileio_write(io, path, data, len, err));
	written_add(w, (char *)path);
	out->manifest_path = (char *)path;
	out->manifest_length = (int64_t)len;
	out->partition_spec_id = spec->spec_id;
	out->content = m->content;
	out->sequence_number = seq;
	out->min_sequence_number = minseq == INT64_MAX ? seq : minseq;
	out->added_snapshot_id = snapshot_id;
	out->npartitions = spec->nfields;
	{
		const DataFile **fp = ARENA_ARRAY(a, const DataFile *, k + 1);
		for (i = 0; i < k; i++)
			fp[i] = &ne[i].file;
		TRY(summarize(hmd, spec, fp, k, a, &out->partitions, err));
	}
	/* the entries carry their (inherited) first_row_id explicitly; the new
	 * manifest gets a first_row_id of its own when the list is written
	 * (assign_row_ids), as every new data manifest does */
	return FLOE_OK;
}

/*
 * table__merge_live: the live (not DELETED) entries of mf[idx[0..nidx)],
 * all of one spec and content, written at path as one manifest of
 * EXISTING entries with their sequence numbers kept (explicit) and, on v3
 * data manifests whose every entry has one, their first_row_ids (the
 * manifest takes the lowest, so it gets no new row-id range and
 * next-row-id stays dense).  *nlive 0: nothing is written and out is
 * untouched.  *nread (may be NULL) grows by the entries read.
 */
int
table__merge_live(FileIO *io, const TableMetadata *md, const PartitionSpec *spec,
		  const ManifestFile *mf, const int *idx, int nidx, int64_t snapshot_id, int64_t seq,
		  const char *path, Arena *a, ManifestFile *out, int *nlive, int64_t *nread,
		  floe_error *err)
{
	ManifestEntry *all = NULL, *e;
	ManifestWriteInfo info;
	const DataFile **fp;
	const uint8_t *data;
	size_t len;
	int n = 0, cap = 0, ne, i, j, content = nidx > 0 ? mf[idx[0]].content : 0;
	int64_t minseq = INT64_MAX, lo = INT64_MAX;
	bool all_ids = true;

	*nlive = 0;
	for (i = 0; i < nidx; i++) {
		TRY(table__read_entries(io, &mf[idx[i]], a, &e, &ne, err));
		if (nread)
			*nread += ne;
		for (j = 0; j < ne; j++) {
			if (e[j].status == ENTRY_DELETED)
				continue;
			if (n == cap) {
				int nc = cap ? cap * 2 : 256;
				all = arena_realloc(a, all, sizeof(ManifestEntry) * (size_t)cap,
						    sizeof(ManifestEntry) * (size_t)nc);
				cap = nc;
			}
			all[n] = e[j];
			all[n].status = ENTRY_EXISTING;
			all[n].has_sequence_number = true;
			all[n].has_file_sequence_number = true;
			if (all[n].sequence_number < minseq)
				minseq = all[n].sequence_number;
			all_ids = all_ids && all[n].file.has_first_row_id;
			if (all[n].file.has_first_row_id && all[n].file.first_row_id < lo)
				lo = all[n].file.first_row_id;
			n++;
		}
	}
	if (n == 0)
		return FLOE_OK;
	TRY(table__write_info(md, spec, &info, a, err));
	info.content = content;
	TRY(manifest_write(&info, all, n, a, &data, &len, err));
	TRY(fileio_write(io, path, data, len, err));
	memset(out, 0, sizeof *out);
	out->manifest_path = (char *)path;
	out->manifest_length = (int64_t)len;
	out->partition_spec_id = spec->spec_id;
	out->content = content;
	out->sequence_number = seq;
	out->min_sequence_number = minseq;
	out->added_snapshot_id = snapshot_id;
	out->existing_files_count = n;
	for (i = 0; i < n; i++)
		out->existing_rows_count += all[i].file.record_count;
	out->npartitions = spec->nfields;
	if (md->format_version >= 3 && content == 0 && all_ids) {
		out->has_first_row_id = true;
		out->first_row_id = lo;
	}
	fp = ARENA_ARRAY(a, const DataFile *, n + 1);
	for (i = 0; i < n; i++)
		fp[i] = &all[i].file;
	TRY(summarize(md, spec, fp, n, a, &out->partitions, err));
	*nlive = n;
	return FLOE_OK;
}

/*
 * Manifest merging (Iceberg's MergeAppend: commit.manifest-merge.enabled,
 * default true; commit.manifest.min-count-to-merge, default 100): when an
 * append's head lists at least that many data manifests of the default
 * spec, their live entries go into one new manifest (table__merge_live),
 * so the manifest list of a table that takes many small commits stays
 * short and a commit's cost does not grow with its history.  *merged: the
 * number of manifests of prev it replaced (0: none); *wrote: out holds the
 * new manifest (false when none of their entries is live).
 */
static int
merge_manifests(FileIO *io, const TableMetadata *hmd, const ManifestFile *prev, int nprev,
		bool *take, int64_t snapshot_id, int64_t seq, const char *path, Arena *a, Written *w,
		ManifestFile *out, int *merged, bool *wrote, floe_error *err)
{
	const PartitionSpec *spec = metadata_default_spec(hmd);
	const char *en = metadata_property(hmd, "commit.manifest-merge.enabled");
	const char *mc = metadata_property(hmd, "commit.manifest.min-count-to-merge");
	long min = mc ? strtol(mc, NULL, 10) : 100;
	int *idx, i, count = 0, nlive;

	*merged = 0;
	*wrote = false;
	if ((en && !strcasecmp(en, "false")) || min < 2 || !spec)
		return FLOE_OK;
	idx = ARENA_ARRAY(a, int, nprev + 1);
	for (i = 0; i < nprev; i++) {
		take[i] = prev[i].content == 0 && prev[i].partition_spec_id == spec->spec_id;
		if (take[i])
			idx[count++] = i;
	}
	if (count < min)
		return FLOE_OK;
	TRY(table__merge_live(io, hmd, spec, prev, idx, count, snapshot_id, seq, path, a, out,
			      &nlive, NULL, err));
	if (nlive > 0)
		written_add(w, (char *)path);
	*wrote = nlive > 0;
	*merged = count;
	return FLOE_OK;
}

/*
 * Checks of the delete files a commit adds, against the head it commits on:
 * well-formed (content, DV fields, equality ids; format version >= 2), every
 * data file a delete names is still live, and no other live DV exists for a
 * data file that gets a new one (unless this commit removes it).  A
 * concurrent change that breaks this is 40001 (not retried).
 */
static int
check_delete_adds(FileIO *io, const TableMetadata *hmd, const ManifestFile *prev, int nprev,
		  const CommitSpec *cs, const DataFile *dels, int ndel, Arena *a, Written *w,
		  floe_error *err)
{
	const char **targets = ARENA_ARRAY(a, const char *, ndel + 1);
	const char **dvt = ARENA_ARRAY(a, const char *, ndel + 1);
	bool *live;
	int nt = 0, ndv = 0, i, j, k;

	for (i = 0; i < ndel; i++) {
		const DataFile *f = &dels[i];
		char *t;
		if (hmd->format_version < 2)
			return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
					   "delete files need Iceberg format version 2 or later (table is "
					   "version %d): upgrade with ALTER TABLE ... SET TBLPROPERTIES "
					   "('format-version' = '2')", hmd->format_version);
		if (f->content != CONTENT_POSITION_DELETES && f->content != CONTENT_EQUALITY_DELETES)
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR, "file \"%s\" is not a delete file",
					   f->file_path);
		if (f->content == CONTENT_EQUALITY_DELETES && f->nequality_ids <= 0)
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
					   "equality delete file \"%s\" has no equality ids", f->file_path);
		if (is_dv_file(f)) {
			if (hmd->format_version < 3)
				return floe_errorf(err, ERRCODE_FEATURE_NOT_SUPPORTED,
						   "deletion vectors need Iceberg format version 3 (table is "
						   "version %d)", hmd->format_version);
			if (!f->referenced_data_file || !f->has_content_offset)
				return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
						   "deletion vector \"%s\" lacks referenced_data_file or "
						   "content_offset", f->file_path);
			dvt[ndv++] = f->referenced_data_file;
		}
		if (f->content == CONTENT_POSITION_DELETES && (t = pos_delete_target(f, a)) != NULL)
			targets[nt++] = t;
	}
	if (nt == 0)
		return FLOE_OK;
	qsort(targets, (size_t)nt, sizeof(char *), cmp_str);
	qsort(dvt, (size_t)ndv, sizeof(char *), cmp_str);
	live = ARENA_ARRAY(a, bool, nt);
	for (i = 0; i < nprev; i++) {
		ManifestEntry *e;
		int ne;
		TRY(table__read_entries(io, &prev[i], a, &e, &ne, err));
		for (j = 0; j < ne; j++) {
			const DataFile *f = &e[j].file;
			const char *p = f->file_path;
			const char **hit;
			if (e[j].status == ENTRY_DELETED)
				continue;
			if (f->content == CONTENT_DATA) {
				hit = bsearch(&p, targets, (size_t)nt, sizeof(char *), cmp_str);
				if (hit)
					for (k = (int)(hit - targets); k >= 0 && strcmp(targets[k], p) == 0; k--)
						live[k] = true;
				if (hit)
					for (k = (int)(hit - targets); k < nt && strcmp(targets[k], p) == 0; k++)
						live[k] = true;
			} else if (is_dv_file(f) && f->referenced_data_file && ndv > 0 &&
				   bsearch(&f->referenced_data_file, dvt, (size_t)ndv, sizeof(char *),
					   cmp_str) && !removing(cs, p)) {
				w->final = true;
				return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
						   "could not serialize access due to concurrent update: data "
						   "file \"%s\" already has deletion vector \"%s\"",
						   f->referenced_data_file, p);
			}
		}
	}
	for (k = 0; k < nt; k++)
		if (!live[k]) {
			w->final = true;
			return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					   "could not serialize access due to concurrent update: data file "
					   "\"%s\" named by a delete is no longer live", targets[k]);
		}
	return FLOE_OK;
}

/* One attempt up to the swap: write manifests, manifest list, metadata.
 * On return w lists the files written (the caller removes them on
 * failure). */
static int
stage_attempt(FileIO *io, const Table *head, const CommitSpec *cs, int attempt,
	      Arena *a, Written *w, char **new_loc, char **new_json, floe_error *err)
{
	const TableMetadata *hmd = head->md;
	const Snapshot *hsnap = metadata_current_snapshot(hmd);
	const IcebergSchema *schema = metadata_current_schema(hmd);
	const PartitionSpec *spec = metadata_default_spec(hmd);
	const DataFile *files;
	DataFile *dels;
	int n = 0, ndel = 0;
	int64_t add_pos = 0, add_eq = 0, add_pos_files = 0, add_dvs = 0, add_eq_files = 0;
	ManifestWriteInfo info;
	ManifestEntry *entries;
	ManifestFile *list, *prev = NULL;
	TableMetadata *md;
	Snapshot *snap;
	Totals tot;
	Removed rm;
	const uint8_t *data;
	size_t len;
	char *commit_uuid = table__new_uuid(a), *mdir = table__metadata_dir(hmd, a), *lpath, *json, *jpath;
	const char *op;
	int64_t snapshot_id = table__new_snapshot_id(), seq, added_rows = 0, added_size = 0, ts;
	int64_t next_row_id = hmd->next_row_id;
	int nprev = 0, nlist = 0, i, k, nrest;

	memset(&rm, 0, sizeof rm);
	seq = hmd->format_version >= 2 ? hmd->last_sequence_number + 1 : 0;
	if (hsnap)
		TRY(table__read_manifest_list(io, hsnap, a, &prev, &nprev, err));

	/* (0) split the added files: data, then delete files (by spec) */
	{
		DataFile *df = ARENA_ARRAY(a, DataFile, cs->nadd + 1);
		dels = ARENA_ARRAY(a, DataFile, cs->nadd + 1);
		for (i = 0; i < cs->nadd; i++) {
			if (cs->add[i].content == CONTENT_DATA)
				df[n++] = cs->add[i];
			else
				dels[ndel++] = cs->add[i];
		}
		files = df;
	}
	if (ndel > 0)
		TRY(check_delete_adds(io, hmd, prev, nprev, cs, dels, ndel, a, w, err));
	rm.mark = ARENA_ARRAY(a, bool, cs->nremove + 1);
	rm.dvt = ARENA_ARRAY(a, const char *, ndel + 1);
	for (i = 0; i < ndel; i++)
		if (is_dv_file(&dels[i]) && dels[i].referenced_data_file)
			rm.dvt[rm.ndvt++] = dels[i].referenced_data_file;
	qsort(rm.dvt, (size_t)rm.ndvt, sizeof(char *), cmp_str);
	list = ARENA_ARRAY(a, ManifestFile, nprev + 2 + ndel);

	/* (1) the manifest of ADDED entries; sequence numbers inherited (null) */
	if (n > 0) {
		entries = ARENA_ARRAY(a, ManifestEntry, n);
		for (i = 0; i < n; i++) {
			if (files[i].npartition != spec->nfields)
				return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
						   "data file \"%s\" has %d partition values, spec %d has %d",
						   files[i].file_path, files[i].npartition,
						   (int)spec->spec_id, spec->nfields);
			entries[i].status = ENTRY_ADDED;
			entries[i].has_snapshot_id = true;
			entries[i].snapshot_id = snapshot_id;
			entries[i].file = files[i];
			entries[i].file.spec_id = spec->spec_id;
			/* row lineage: inherited from the manifest's first_row_id */
			entries[i].file.has_first_row_id = false;
			entries[i].file.first_row_id = 0;
			added_rows += files[i].record_count;
			added_size += files[i].file_size_in_bytes;
		}
		TRY(table__write_info(hmd, spec, &info, a, err));
		TRY(manifest_write(&info, entries, n, a, &data, &len, err));
		list[0].manifest_path = arena_sprintf(a, "%s/%s-m0.avro", mdir, commit_uuid);
		TRY(fileio_write(io, list[0].manifest_path, data, len, err));
		written_add(w, list[0].manifest_path);
		list[0].manifest_length = (int64_t)len;
		list[0].partition_spec_id = spec->spec_id;
		list[0].content = 0;
		list[0].sequence_number = seq;
		list[0].min_sequence_number = seq;
		list[0].added_snapshot_id = snapshot_id;
		list[0].added_files_count = n;
		list[0].added_rows_count = added_rows;
		list[0].npartitions = spec->nfields;
		{
			const DataFile **fp = ARENA_ARRAY(a, const DataFile *, n + 1);
			for (i = 0; i < n; i++)
				fp[i] = &files[i];
			TRY(summarize(hmd, spec, fp, n, a, &list[0].partitions, err));
		}
		nlist = 1;
	}

	/* (1b) delete manifests (content 1) of ADDED delete files, one per spec */
	{
		bool *done = ARENA_ARRAY(a, bool, ndel + 1);
		int d, j, nd;
		for (d = 0; d < ndel; d++) {
			const PartitionSpec *ds;
			ManifestFile *lf = &list[nlist];
			const DataFile **fp;
			if (done[d])
				continue;
			ds = metadata_spec_by_id(hmd, dels[d].spec_id);
			if (!ds)
				return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
						   "delete file \"%s\" names unknown partition spec %d",
						   dels[d].file_path, (int)dels[d].spec_id);
			entries = ARENA_ARRAY(a, ManifestEntry, ndel);
			fp = ARENA_ARRAY(a, const DataFile *, ndel);
			memset(lf, 0, sizeof *lf);
			nd = 0;
			for (j = d; j < ndel; j++) {
				const DataFile *f = &dels[j];
				if (done[j] || f->spec_id != dels[d].spec_id)
					continue;
				done[j] = true;
				if (f->npartition != ds->nfields)
					return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
							   "delete file \"%s\" has %d partition values, spec %d has %d",
							   f->file_path, f->npartition, (int)ds->spec_id, ds->nfields);
				entries[nd].status = ENTRY_ADDED;
				entries[nd].has_snapshot_id = true;
				entries[nd].snapshot_id = snapshot_id;
				entries[nd].file = *f;
				entries[nd].file.ndeletes = 0;
				entries[nd].file.deletes = NULL;
				fp[nd++] = f;
				lf->added_rows_count += f->record_count;
				added_size += f->file_size_in_bytes;
				if (f->content == CONTENT_EQUALITY_DELETES) {
					add_eq_files++;
					add_eq += f->record_count;
				} else {
					add_pos += f->record_count;
					if (is_dv_file(f))
						add_dvs++;
					else
						add_pos_files++;
				}
			}
			TRY(table__write_info(hmd, ds, &info, a, err));
			info.content = 1;
			TRY(manifest_write(&info, entries, nd, a, &data, &len, err));
			lf->manifest_path = arena_sprintf(a, "%s/%s-d%d.avro", mdir, commit_uuid, (int)ds->spec_id);
			TRY(fileio_write(io, lf->manifest_path, data, len, err));
			written_add(w, lf->manifest_path);
			lf->manifest_length = (int64_t)len;
			lf->partition_spec_id = ds->spec_id;
			lf->content = 1;
			lf->sequence_number = seq;
			lf->min_sequence_number = seq;
			lf->added_snapshot_id = snapshot_id;
			lf->added_files_count = nd;
			lf->npartitions = ds->nfields;
			TRY(summarize(hmd, ds, fp, nd, a, &lf->partitions, err));
			nlist++;
		}
	}

	/* (2) the head's manifests: unchanged, or rewritten without removed files
	 * (delete files named in remove, or whose one data file is removed, go
	 * with it; remove_all retires every delete file too) */
	nrest = nprev;
	if (!cs->remove_all && cs->nremove == 0 && n > 0 && ndel == 0 && nprev > 0) {
		/* a plain append: merge the head's small data manifests */
		bool *take = ARENA_ARRAY(a, bool, nprev + 1);
		int merged;
		bool wrote;
		TRY(merge_manifests(io, hmd, prev, nprev, take, snapshot_id, seq,
				    arena_sprintf(a, "%s/%s-m%d.avro", mdir, commit_uuid, nprev + 1), a, w,
				    &list[nlist], &merged, &wrote, err));
		if (merged > 0) {
			nlist += wrote;
			for (i = 0; i < nprev; i++)
				if (!take[i])
					list[nlist++] = prev[i];
			nrest = 0;        /* all placed */
		}
	}
	for (i = 0; i < nrest; i++) {
		if (cs->remove_all || cs->nremove > 0) {
			TRY(rewrite_manifest(io, hmd, &prev[i], cs, snapshot_id, seq,
					     arena_sprintf(a, "%s/%s-m%d.avro", mdir, commit_uuid, i + 1),
					     a, w, &list[nlist], &rm, err));
			nlist++;
		} else {
			list[nlist++] = prev[i];
		}
	}
	for (i = 0, k = 0; i < cs->nremove; i++)
		k += rm.mark[i];
	if (!cs->remove_all && k != cs->nremove) {
		w->final = true;
		return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				   "could not serialize access due to concurrent update: %d of %d "
				   "files to replace are no longer live", cs->nremove - k, cs->nremove);
	}
	if (hmd->format_version >= 3)
		next_row_id = table_assign_row_ids(hmd->next_row_id, list, nlist);
	TRY(manifest_list_write(hmd->format_version, snapshot_id, hsnap != NULL,
				hsnap ? hsnap->snapshot_id : 0, seq, list, nlist, a, &data,
				&len, err));
	lpath = arena_sprintf(a, "%s/snap-%lld-%d-%s.avro", mdir, (long long)snapshot_id,
			      attempt + 1, commit_uuid);
	TRY(fileio_write(io, lpath, data, len, err));
	written_add(w, lpath);

	/* (3) the new metadata */
	TRY(head_totals(io, hsnap, prev, nprev, a, &tot, err));
	md = metadata_copy(hmd, a);
	for (i = 0; i < cs->ninit_props; i++)
		if (!metadata_property(md, cs->init_props[i].key))
			metadata_set_property(md, cs->init_props[i].key, cs->init_props[i].value, a);
	ts = now_ms();
	if (ts < hmd->last_updated_ms)
		ts = hmd->last_updated_ms;
	md->last_updated_ms = ts;
	md->last_sequence_number = hmd->format_version >= 2 ? seq : hmd->last_sequence_number;

	md->snapshots = arena_realloc(a, md->snapshots, sizeof(Snapshot) * (size_t)hmd->nsnapshots,
				      sizeof(Snapshot) * (size_t)(hmd->nsnapshots + 1));
	snap = &md->snapshots[md->nsnapshots++];
	memset(snap, 0, sizeof *snap);
	if (ndel == 0 && rm.files == 0 && rm.del_files == 0 && !cs->remove_all)
		op = "append";
	else if (n == 0)
		op = "delete";
	else
		op = "overwrite";
	if (cs->operation)
		op = cs->operation;
	snap->snapshot_id = snapshot_id;
	snap->has_parent = hsnap != NULL;
	snap->parent_snapshot_id = hsnap ? hsnap->snapshot_id : 0;
	snap->sequence_number = seq;
	snap->timestamp_ms = ts;
	snap->manifest_list = lpath;
	snap->operation = (char *)op;
	snap->has_schema_id = true;
	snap->schema_id = schema->schema_id;
	snap->summary = ARENA_ARRAY(a, MdProp, 40);
	k = 0;
	if (n > 0) {
		set_summary(snap, a, &k, "added-data-files", n);
		set_summary(snap, a, &k, "added-records", added_rows);
	}
	if (ndel > 0) {
		set_summary(snap, a, &k, "added-delete-files", ndel);
		if (add_pos_files + add_dvs > 0) {
			set_summary(snap, a, &k, "added-position-deletes", add_pos);
			if (add_pos_files > 0)
				set_summary(snap, a, &k, "added-position-delete-files", add_pos_files);
			if (add_dvs > 0)
				set_summary(snap, a, &k, "added-dvs", add_dvs);
		}
		if (add_eq_files > 0) {
			set_summary(snap, a, &k, "added-equality-delete-files", add_eq_files);
			set_summary(snap, a, &k, "added-equality-deletes", add_eq);
		}
	}
	if (n > 0 || ndel > 0)
		set_summary(snap, a, &k, "added-files-size", added_size);
	if (rm.files > 0) {
		set_summary(snap, a, &k, "deleted-data-files", rm.files);
		set_summary(snap, a, &k, "deleted-records", rm.records);
	}
	if (rm.del_files > 0) {
		set_summary(snap, a, &k, "removed-delete-files", rm.del_files);
		if (rm.del_pos_files + rm.del_dvs > 0)
			set_summary(snap, a, &k, "removed-position-deletes", rm.del_pos);
		if (rm.del_pos_files > 0)
			set_summary(snap, a, &k, "removed-position-delete-files", rm.del_pos_files);
		if (rm.del_dvs > 0)
			set_summary(snap, a, &k, "removed-dvs", rm.del_dvs);
		if (rm.del_eq > 0)
			set_summary(snap, a, &k, "removed-equality-deletes", rm.del_eq);
	}
	if (rm.files > 0 || rm.del_files > 0)
		set_summary(snap, a, &k, "removed-files-size", rm.size + rm.del_size);
	set_summary(snap, a, &k, "changed-partition-count", spec->nfields ? n + ndel + rm.files : 1);
	set_summary(snap, a, &k, "total-records", tot.records + added_rows - rm.records);
	set_summary(snap, a, &k, "total-files-size",
		    tot.files_size + added_size - rm.size - rm.del_size);
	set_summary(snap, a, &k, "total-data-files", tot.data_files + n - rm.files);
	set_summary(snap, a, &k, "total-delete-files", tot.delete_files + ndel - rm.del_files);
	set_summary(snap, a, &k, "total-position-deletes", tot.pos_deletes + add_pos - rm.del_pos);
	set_summary(snap, a, &k, "total-equality-deletes", tot.eq_deletes + add_eq - rm.del_eq);
	if (cs->job_id) {
		snap->summary[k].key = "floe.job-id";
		snap->summary[k++].value = arena_strdup(a, cs->job_id);
	}
	if (cs->ingest_seq) {
		snap->summary[k].key = "floe.ingest-seq";
		snap->summary[k++].value = arena_sprintf(a, "%llu", (unsigned long long)cs->ingest_seq);
	}
	if (head->wap_id) {
		snap->summary[k].key = "wap.id";
		snap->summary[k++].value = arena_strdup(a, head->wap_id);
	}
	for (i = 0; i < cs->nsummary; i++) {
		snap->summary[k].key = arena_strdup(a, cs->summary[i].key);
		snap->summary[k++].value = arena_strdup(a, cs->summary[i].value);
	}
	snap->nsummary = k;
	if (hmd->format_version >= 3) {
		snap->has_first_row_id = true;
		snap->first_row_id = hmd->next_row_id;
		snap->has_added_rows = true;
		snap->added_rows = next_row_id - hmd->next_row_id;
		md->has_next_row_id = true;
		md->next_row_id = next_row_id;
	}
	if (head->branch || head->wap_id) {
		/* a write view (branch.h): main's head and its log stay */
		md->has_current_snapshot = head->main_has_snapshot;
		md->current_snapshot_id = head->main_snapshot_id;
	} else {
		md->has_current_snapshot = true;
		md->current_snapshot_id = snapshot_id;
		md->snapshot_log = arena_realloc(a, md->snapshot_log,
						 sizeof(SnapshotLogEntry) * (size_t)hmd->nsnapshot_log,
						 sizeof(SnapshotLogEntry) * (size_t)(hmd->nsnapshot_log + 1));
		md->snapshot_log[md->nsnapshot_log].timestamp_ms = ts;
		md->snapshot_log[md->nsnapshot_log++].snapshot_id = snapshot_id;
	}
	md->metadata_log = arena_realloc(a, md->metadata_log,
					 sizeof(MetadataLogEntry) * (size_t)hmd->nmetadata_log,
					 sizeof(MetadataLogEntry) * (size_t)(hmd->nmetadata_log + 1));
	md->metadata_log[md->nmetadata_log].timestamp_ms = hmd->last_updated_ms;
	md->metadata_log[md->nmetadata_log++].metadata_file = head->metadata_location;

	{
		const char *ref = head->branch ? head->branch : "main";
		for (i = 0; i < md->nrefs; i++)
			if (strcmp(md->refs[i].name, ref) == 0)
				break;
		if (i == md->nrefs && !head->wap_id) {
			md->refs = arena_realloc(a, md->refs, sizeof(SnapshotRef) * (size_t)md->nrefs,
						 sizeof(SnapshotRef) * (size_t)(md->nrefs + 1));
			memset(&md->refs[i], 0, sizeof md->refs[i]);
			md->refs[i].name = (char *)ref;
			md->nrefs++;
		}
		if (!head->wap_id) {
			md->refs[i].snapshot_id = snapshot_id;
			md->refs[i].type = "branch";
		}
	}

	json = metadata_serialize(md, a);
	jpath = arena_sprintf(a, "%s/%05d-%s.metadata.json", mdir,
			      next_version(head->metadata_location, hmd), commit_uuid);
	TRY(check_metadata_json(json, jpath, err));
	TRY(fileio_write(io, jpath, json, strlen(json), err));
	written_add(w, jpath);
	*new_loc = jpath;
	*new_json = json;
	return FLOE_OK;
}

static void normalize(const TableChange *ch, Arena *a, CommitSpec *cs);

/* The same delete file (a deletion vector: also its data file and offset)? */
static bool
same_delete(const DataFile *x, const DataFile *y)
{
	return strcmp(x->file_path, y->file_path) == 0 &&
	       !strcmp(x->referenced_data_file ? x->referenced_data_file : "",
		       y->referenced_data_file ? y->referenced_data_file : "") &&
	       x->has_content_offset == y->has_content_offset &&
	       (!x->has_content_offset || x->content_offset == y->content_offset);
}

static int
cmp_file_path(const void *x, const void *y)
{
	return strcmp((*(const DataFile *const *)x)->file_path,
		      (*(const DataFile *const *)y)->file_path);
}

/*
 * A re-base from head `from` to head `to` of a change that removes data
 * files (copy-on-write: their rows are written again without the deleted
 * or updated ones) is only right while no delete reached a removed file in
 * between: the rewrite would bring those rows back.  40001 when `to`
 * attaches a delete to a removed file that `from` did not.  (A removed
 * file gone from `to` is stage_attempt's 40001.)
 */
static int
removed_files_unchanged(FileIO *io, const Table *from, const Table *to, const CommitSpec *cs,
			Arena *a, floe_error *err)
{
	DataFile *ff, *tf, **sorted;
	int nf, nt, i, j, k;

	if (cs->remove_all || cs->nremove == 0 ||
	    strcmp(from->metadata_location, to->metadata_location) == 0)
		return FLOE_OK;
	TRY(table_scan_files(io, from, -1, a, &ff, &nf, err));
	TRY(table_scan_files(io, to, -1, a, &tf, &nt, err));
	sorted = ARENA_ARRAY(a, DataFile *, nt + 1);
	for (i = 0; i < nt; i++)
		sorted[i] = &tf[i];
	qsort(sorted, (size_t)nt, sizeof(DataFile *), cmp_file_path);
	for (i = 0; i < nf; i++) {
		DataFile key, *kp = &key, **hit;
		const DataFile *g;
		if (!removing(cs, ff[i].file_path))
			continue;
		key.file_path = ff[i].file_path;
		hit = nt > 0 ? bsearch(&kp, sorted, (size_t)nt, sizeof(DataFile *), cmp_file_path)
			     : NULL;
		if (!hit)
			continue;
		g = *hit;
		for (j = 0; j < g->ndeletes; j++) {
			for (k = 0; k < ff[i].ndeletes && !same_delete(g->deletes[j], ff[i].deletes[k]);
			     k++)
				;
			if (k == ff[i].ndeletes) {
				floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					    "could not serialize access due to concurrent delete");
				floe_error_detail(err, "Rows of data file \"%s\" that this commit "
						  "rewrites were deleted by a concurrent transaction.",
						  ff[i].file_path);
				return floe_error_hint(err, "The transaction might succeed if retried.");
			}
		}
	}
	return FLOE_OK;
}

static bool
sorted_overlap(const int64_t *x, int64_t nx, const int64_t *y, int64_t ny, int64_t *at)
{
	int64_t i = 0, j = 0;

	while (i < nx && j < ny) {
		if (x[i] == y[j]) {
			*at = x[i];
			return true;
		}
		if (x[i] < y[j])
			i++;
		else
			j++;
	}
	return false;
}

/* The positions of data file f that the n deletes d[] name. */
static int
positions_of(FileIO *io, const DataFile *f, DataFile **d, int n, Arena *a, int64_t **pos,
	     int64_t *npos, floe_error *err)
{
	DataFile g = *f;

	g.deletes = d;
	g.ndeletes = n;
	return deletes_file_positions(io, &g, a, pos, npos, err);
}

/*
 * Position delete files (v2) the change adds, against those attached since
 * `from` to the same data file: a position both delete is a row both
 * changed (an UPDATE writes it again: it would be there twice), 40001.
 * Disjoint positions are both applied, as they are.  (Deletion vectors:
 * check_delete_adds allows one per data file.)
 */
static int
pos_deletes_disjoint(FileIO *io, const Table *from, const Table *to, const CommitSpec *cs,
		     Arena *a, floe_error *err)
{
	DataFile *ff, *tf, **sorted;
	bool posdel = false;
	int nf, nt, i, j, k, q;

	for (i = 0; i < cs->nadd; i++)
		posdel = posdel || (cs->add[i].content == CONTENT_POSITION_DELETES &&
				    !is_dv_file(&cs->add[i]));
	if (!posdel || strcmp(from->metadata_location, to->metadata_location) == 0)
		return FLOE_OK;
	TRY(table_scan_files(io, from, -1, a, &ff, &nf, err));
	TRY(table_scan_files(io, to, -1, a, &tf, &nt, err));
	sorted = ARENA_ARRAY(a, DataFile *, nf + 1);
	for (i = 0; i < nf; i++)
		sorted[i] = &ff[i];
	qsort(sorted, (size_t)nf, sizeof(DataFile *), cmp_file_path);
	for (j = 0; j < nt; j++) {
		DataFile key, *kp = &key, **hit, **newd;
		const DataFile *pfile;
		int nnew = 0;
		int64_t *theirs, nth;
		if (tf[j].ndeletes == 0 || nf == 0)
			continue;
		key.file_path = tf[j].file_path;
		if (!(hit = bsearch(&kp, sorted, (size_t)nf, sizeof(DataFile *), cmp_file_path)))
			continue;
		pfile = *hit;
		newd = ARENA_ARRAY(a, DataFile *, tf[j].ndeletes + 1);
		for (k = 0; k < tf[j].ndeletes; k++) {
			DataFile *d = tf[j].deletes[k];
			if (d->content != CONTENT_POSITION_DELETES || is_dv_file(d))
				continue;
			for (q = 0; q < pfile->ndeletes && !same_delete(d, pfile->deletes[q]); q++)
				;
			if (q == pfile->ndeletes)
				newd[nnew++] = d;
		}
		if (nnew == 0)
			continue;
		TRY(positions_of(io, &tf[j], newd, nnew, a, &theirs, &nth, err));
		for (i = 0; i < cs->nadd; i++) {
			DataFile *d = (DataFile *)&cs->add[i];
			int64_t *ours, no, at;
			if (d->content != CONTENT_POSITION_DELETES || is_dv_file(d) ||
			    (d->referenced_data_file &&
			     strcmp(d->referenced_data_file, tf[j].file_path) != 0))
				continue;
			TRY(positions_of(io, &tf[j], &d, 1, a, &ours, &no, err));
			if (sorted_overlap(ours, no, theirs, nth, &at)) {
				floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
					    "could not serialize access due to concurrent update");
				floe_error_detail(err, "Row %lld of data file \"%s\" was changed by a "
						  "concurrent transaction.", (long long)at, tf[j].file_path);
				return floe_error_hint(err, "The transaction might succeed if retried.");
			}
		}
	}
	return FLOE_OK;
}

/* The highest "floe.ingest-seq" of md's snapshots, or of its table property
 * of that name, which snapshot expiry sets when it removes the snapshot
 * that carried the highest (expire.c): so a flush's rows left in the
 * buffer's log by a crash are never committed twice, however much history
 * is expired (0: none). */
uint64_t
table_ingest_seq(const TableMetadata *md)
{
	const char *prop = metadata_property(md, "floe.ingest-seq");
	uint64_t top = prop ? strtoull(prop, NULL, 10) : 0;
	int i, k;

	for (i = 0; i < md->nsnapshots; i++)
		for (k = 0; k < md->snapshots[i].nsummary; k++)
			if (!strcmp(md->snapshots[i].summary[k].key, "floe.ingest-seq")) {
				uint64_t v = strtoull(md->snapshots[i].summary[k].value, NULL, 10);
				if (v > top)
					top = v;
			}
	return top;
}

/* An insert buffer flush (cs->ingest_seq) never re-bases over another
 * flush of the same table: its rows were chosen against the head's
 * recorded sequence, and the other may have committed some of them (two
 * floe nodes flushing one table, ingest/buffer_pg.c): 40001, the flush is
 * retried and then drops what is recorded. */
static int
ingest_seq_unchanged(const Table *from, const Table *to, floe_error *err)
{
	if (table_ingest_seq(to->md) != table_ingest_seq(from->md))
		return floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
				   "could not serialize the insert buffer flush of table \"%s\": another flush committed first",
				   to->name);
	return FLOE_OK;
}

/* A re-based data commit asserts the schema it was written for (the
 * REST spec's assert-current-schema-id): rows shaped by one schema must
 * not land under another (a column made NOT NULL, a type changed, ...). */
static int
schema_unchanged(const Table *from, const Table *to, floe_error *err)
{
	if (from->md->current_schema_id == to->md->current_schema_id)
		return FLOE_OK;
	floe_errorf(err, ERRCODE_T_R_SERIALIZATION_FAILURE,
		    "could not commit table \"%s\": its schema changed (schema id %d -> %d) in a concurrent commit",
		    to->name, (int)from->md->current_schema_id, (int)to->md->current_schema_id);
	return floe_error_hint(err, "The transaction might succeed if retried.");
}

int
table_rebase_check(FileIO *io, const Table *from, const Table *to, const TableChange *ch,
		   Arena *a, floe_error *err)
{
	CommitSpec cs;

	TRY(schema_unchanged(from, to, err));
	normalize(ch, a, &cs);
	TRY(removed_files_unchanged(io, from, to, &cs, a, err));
	return pos_deletes_disjoint(io, from, to, &cs, a, err);
}

/* The retry loop shared by every data commit. */
static int
commit_loop(Catalog *cat, FileIO *io, Table *base, const CommitSpec *cs, Arena *a, Table **out,
	    floe_error *err)
{
	Arena *tmp = arena_new(0);
	Table *head = base;
	int attempt, rc = FLOE_ERR;

	for (attempt = 0; attempt < TABLE_COMMIT_MAX_TRIES; attempt++) {
		Written w = { NULL, 0, 0, tmp, false };
		char *loc = NULL, *json = NULL;
		Table *next = NULL;

		if (attempt > 0) {
			/* back off 5ms, 10ms, 20ms, ... plus jitter, then re-base */
			uint8_t j;
			random_bytes(&j, 1);
			usleep((useconds_t)(5000u << (attempt - 1)) + j * 20u);
		}
		rc = stage_attempt(io, head, cs, attempt, tmp, &w, &loc, &json, err);
		/* (4) the catalog compare-and-swap */
		if (rc == FLOE_OK &&
		    catalog_swap_table(cat, head->ns, head->name, head->metadata_location, loc,
				       err) == FLOE_OK) {
			rc = table_from_json(json, loc, base->ns, base->name, a, out, err);
			break;
		}
		if (rc == FLOE_OK) {
			/* the swap failed: its files are deleted only when it
			 * did not land (invariant 5) */
			rc = FLOE_ERR;
			switch (table_commit_outcome(cat, io, head->ns, head->name, loc, cs->job_id, err,
						     tmp, &next)) {
			case COMMIT_LANDED:
				floe_error_clear(err);
				rc = table_from_json(json, loc, base->ns, base->name, a, out, err);
				goto out;
			case COMMIT_UNKNOWN:
				table_unknown_outcome(io, cs->job_id, (const char *const *)w.paths, w.n,
						      err);
				goto out;
			case COMMIT_NOT_LANDED:
				break;
			}
		}
		remove_written(io, &w);
		if (w.final || !floe_error_is(err, ERRCODE_T_R_SERIALIZATION_FAILURE))
			break;
		if (!next && table_load(cat, io, base->ns, base->name, tmp, &next, err) != FLOE_OK)
			break;
		if ((rc = table_view_like(next, base, tmp, &next, err)) != FLOE_OK)
			break;
		if ((rc = schema_unchanged(head, next, err)) != FLOE_OK ||
		    (cs->ingest_seq && (rc = ingest_seq_unchanged(head, next, err)) != FLOE_OK) ||
		    (rc = removed_files_unchanged(io, head, next, cs, tmp, err)) != FLOE_OK ||
		    (rc = pos_deletes_disjoint(io, head, next, cs, tmp, err)) != FLOE_OK ||
		    (cs->rebase_check &&
		     (rc = cs->rebase_check(cs->rebase_arg, head, next, tmp, err)) != FLOE_OK))
			break;
		rc = FLOE_ERR;
		head = next;
	}
out:
	arena_free(tmp);
	return rc;
}

/* The normalized form of a change: remove paths sorted and distinct. */
static void
normalize(const TableChange *ch, Arena *a, CommitSpec *cs)
{
	int i, k = 0;

	memset(cs, 0, sizeof *cs);
	cs->add = ch->add;
	cs->nadd = ch->nadd;
	cs->remove_all = ch->remove_all;
	cs->job_id = ch->job_id ? ch->job_id : table_new_job_id(a);
	cs->ingest_seq = ch->ingest_seq;
	cs->operation = ch->operation;
	cs->rebase_check = ch->rebase_check;
	cs->rebase_arg = ch->rebase_arg;
	cs->summary = ch->summary;
	cs->nsummary = ch->nsummary < 8 ? ch->nsummary : 8;
	cs->init_props = ch->init_props;
	cs->ninit_props = ch->ninit_props;
	if (!ch->remove_all && ch->nremove > 0) {
		cs->remove = ARENA_ARRAY(a, const char *, ch->nremove);
		memcpy(cs->remove, ch->remove, sizeof(char *) * (size_t)ch->nremove);
		qsort(cs->remove, (size_t)ch->nremove, sizeof(char *), cmp_str);
		for (i = 0; i < ch->nremove; i++)          /* distinct paths */
			if (k == 0 || strcmp(cs->remove[k - 1], cs->remove[i]) != 0)
				cs->remove[k++] = cs->remove[i];
		cs->nremove = k;
	}
}

static bool
change_empty(const TableChange *ch)
{
	return ch->nadd == 0 && ch->nremove == 0 && !ch->remove_all;
}

int
table_commit(Catalog *cat, FileIO *io, Table *base, const TableChange *ch, Arena *a, Table **out,
	     floe_error *err)
{
	CommitSpec cs;

	if (change_empty(ch)) {
		*out = base;
		return FLOE_OK;
	}
	normalize(ch, a, &cs);
	return commit_loop(cat, io, base, &cs, a, out, err);
}

int
table_publish_staged(Catalog *cat, FileIO *io, const Table *head, const Table *staged,
		     char **written, int nwritten, const char *job, Arena *a, floe_error *err)
{
	Written w = { written, nwritten, nwritten, a, false };

	if (catalog_swap_table(cat, head->ns, head->name, head->metadata_location,
			       staged->metadata_location, err) == FLOE_OK)
		return FLOE_OK;
	switch (table_commit_outcome(cat, io, head->ns, head->name, staged->metadata_location, job,
				     err, a, NULL)) {
	case COMMIT_LANDED:
		floe_error_clear(err);
		return FLOE_OK;
	case COMMIT_UNKNOWN:
		return table_unknown_outcome(io, job, (const char *const *)written, nwritten, err);
	case COMMIT_NOT_LANDED:
		break;
	}
	remove_written(io, &w);
	return FLOE_ERR;
}

int
table_stage(FileIO *io, const Table *head, const TableChange *ch, Arena *a, Table **staged,
	    char ***written, int *nwritten, floe_error *err)
{
	Written w = { NULL, 0, 0, a, false };
	CommitSpec cs;
	char *loc = NULL, *json = NULL;

	*written = NULL;
	*nwritten = 0;
	if (change_empty(ch)) {
		*staged = (Table *)head;
		return FLOE_OK;
	}
	normalize(ch, a, &cs);
	if (stage_attempt(io, head, &cs, 0, a, &w, &loc, &json, err) != FLOE_OK ||
	    table_from_json(json, loc, head->ns, head->name, a, staged, err) != FLOE_OK) {
		remove_written(io, &w);
		return FLOE_ERR;
	}
	*written = w.paths;
	*nwritten = w.n;
	return FLOE_OK;
}

int
table_commit_append(Catalog *cat, FileIO *io, Table *base, const DataFile *files, int n,
		    const char *job_id, Arena *a, Table **out, floe_error *err)
{
	TableChange ch;
	int i;

	for (i = 0; i < n; i++)
		if (files[i].content != CONTENT_DATA)
			return floe_errorf(err, ERRCODE_INTERNAL_ERROR,
					   "append commit given a delete file \"%s\"", files[i].file_path);
	memset(&ch, 0, sizeof ch);
	ch.add = files;
	ch.nadd = n;
	ch.job_id = job_id;
	return table_commit(cat, io, base, &ch, a, out, err);
}

int
table_commit_replace(Catalog *cat, FileIO *io, Table *base, const char *const *remove_paths,
		     int nremove, bool remove_all, const DataFile *add, int nadd,
		     const char *job_id, Arena *a, Table **out, floe_error *err)
{
	TableChange ch;

	memset(&ch, 0, sizeof ch);
	ch.add = add;
	ch.nadd = nadd;
	ch.remove = remove_paths;
	ch.nremove = nremove;
	ch.remove_all = remove_all;
	ch.job_id = job_id;
	return table_commit(cat, io, base, &ch, a, out, err);
}

int
table_commit_metadata(Catalog *cat, FileIO *io, const Table *base, TableMetadata *md, Arena *a,
		      Table **out, floe_error *err)
{
	Arena *tmp = arena_new(0);
	MetadataLogEntry *log;
	char *path;
	int64_t ts = now_ms();
	int rc;

	if (ts < base->md->last_updated_ms)
		ts = base->md->last_updated_ms;
	md->last_updated_ms = ts;
	log = ARENA_ARRAY(tmp, MetadataLogEntry, md->nmetadata_log + 2);
	if (md->nmetadata_log > 0)
		memcpy(log, md->metadata_log, sizeof(MetadataLogEntry) * (size_t)md->nmetadata_log);
	log[md->nmetadata_log].timestamp_ms = base->md->last_updated_ms;
	log[md->nmetadata_log].metadata_file = base->metadata_location;
	md->metadata_log = log;
	md->nmetadata_log++;
	path = arena_sprintf(tmp, "%s/%05d-%s.metadata.json", table__metadata_dir(md, tmp),
			     next_version(base->metadata_location, base->md), table__new_uuid(tmp));
	rc = publish_metadata(cat, io, md, path, base->ns, base->name, base->metadata_location,
			      tmp, a, out, err);
	arena_free(tmp);
	return rc;
}

/* ---- drop ------------------------------------------------------------- */

static bool
under(const char *path, const char *loc)
{
	size_t n = strlen(loc);
	return strncmp(path, loc, n) == 0 && path[n] == '/';
}

static void
purge_files(FileIO *io, const char *loc, const TableMetadata *md, Arena *a)
{
	floe_error ignore;
	int s, i, j;

	for (s = 0; s < md->nsnapshots; s++) {
		const Snapshot *snap = &md->snapshots[s];
		ManifestFile *mf;
		int nmf;

		if (table__read_manifest_list(io, snap, a, &mf, &nmf, &ignore) != FLOE_OK)
			continue;
		for (i = 0; i < nmf; i++) {
			ManifestEntry *e;
			int ne;
			if (table__read_entries(io, &mf[i], a, &e, &ne, &ignore) == FLOE_OK)
				for (j = 0; j < ne; j++)
					if (under(e[j].file.file_path, md->location) &&
					    fileio_exists(io, e[j].file.file_path))
						(void)fileio_remove(io, e[j].file.file_path, &ignore);
			if (under(mf[i].manifest_path, md->location) &&
			    fileio_exists(io, mf[i].manifest_path))
				(void)fileio_remove(io, mf[i].manifest_path, &ignore);
		}
		if (under(snap->manifest_list, md->location))
			(void)fileio_remove(io, snap->manifest_list, &ignore);
	}
	for (i = 0; i < md->nmetadata_log; i++)
		if (under(md->metadata_log[i].metadata_file, md->location))
			(void)fileio_remove(io, md->metadata_log[i].metadata_file, &ignore);
	if (under(loc, md->location))
		(void)fileio_remove(io, loc, &ignore);
}

int
table_drop(Catalog *cat, FileIO *io, const char *ns, const char *name, bool purge,
	   floe_error *err)
{
	Arena *a = arena_new(0);
	TableMetadata *md = NULL;
	floe_error ignore;
	char *loc;
	int rc;

	rc = catalog_load_table(cat, ns, name, a, &loc, err);
	if (rc == FLOE_OK && purge && read_metadata(io, loc, a, &md, &ignore) != FLOE_OK)
		md = NULL;
	if (rc == FLOE_OK)
		rc = catalog_drop_table(cat, ns, name, err);
	if (rc == FLOE_OK && md)
		purge_files(io, loc, md, a);
	arena_free(a);
	return rc;
}

/* ---- row lineage ------------------------------------------------------- */

/*
 * First Row ID Assignment (spec; as Iceberg Java's ManifestListWriter):
 * every data manifest of the new list without a first_row_id gets the
 * running next id, which then grows by the manifest's added and existing
 * row counts (room for every file that inherits one, including existing
 * files of manifests written before a v3 upgrade).  Manifests that have one
 * keep it; delete manifests have none.  Returns the table's new
 * next-row-id; the snapshot's first-row-id is `next`, its added-rows the
 * difference.
 */
int64_t
table_assign_row_ids(int64_t next, ManifestFile *list, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ManifestFile *m = &list[i];
		if (m->content != 0) {
			m->has_first_row_id = false;
			continue;
		}
		if (m->has_first_row_id)
			continue;
		m->has_first_row_id = true;
		m->first_row_id = next;
		next += (m->added_rows_count > 0 ? m->added_rows_count : 0) +
			(m->existing_rows_count > 0 ? m->existing_rows_count : 0);
	}
	return next;
}

IcebergSchema *
table_lineage_schema(const IcebergSchema *s, Arena *a)
{
	IcebergSchema *o = arena_alloc(a, sizeof *o);
	static const struct { int32_t id; const char *name; } res[2] = {
		{ICEBERG_FIELD_ROW_ID, TABLE_LINEAGE_ROW_ID_NAME},
		{ICEBERG_FIELD_LAST_UPDATED_SEQ, TABLE_LINEAGE_SEQ_NAME},
	};

	*o = *s;
	o->nfields = s->nfields + 2;
	o->fields = arena_alloc(a, sizeof *o->fields * (size_t)o->nfields);
	if (s->nfields)
		memcpy(o->fields, s->fields, sizeof *o->fields * (size_t)s->nfields);
	for (int i = 0; i < 2; i++) {
		IcebergField *f = &o->fields[s->nfields + i];
		memset(f, 0, sizeof *f);
		f->id = res[i].id;
		f->name = arena_strdup(a, res[i].name);
		f->required = false;
		f->type = type_make(TYPE_INT64);
		f->iceberg_type = arena_strdup(a, "long");
	}
	return o;
}
