/*
 * spill.c — bounded memory for sort, hash aggregation and hash join: the
 * work_mem limit of a statement (exec_mem_limit), temp files of Batches
 * (spill.h), and the accounting helpers the operators share.
 *
 * work_mem follows PostgreSQL's GUC_UNIT_KB parsing (guc.c
 * parse_int/convert_to_base_unit): a number, optionally fractional, then
 * optional spaces and a unit B, kB, MB, GB or TB (case-sensitive, as
 * PostgreSQL's); no unit means kB; the result is rounded to whole kB and
 * clamped to PostgreSQL's range 64 kB .. 2147483647 kB.  Unset (NULL) or
 * unparsable: floe's default, $FLOE_DEFAULT_WORK_MEM if set (a test hook
 * that makes whole suites spill), else 1/32 of physical memory clamped to
 * 64 MB .. 1 GB.  PostgreSQL's 4 MB default is sized for many backends
 * each running many operators; floe is one analytical process whose
 * operators are few, and scanning Parquet row groups of tens of MB would
 * otherwise spill on ordinary queries.
 *
 * File format (one record per spill_write; native byte order, the file
 * never outlives the process):
 *   u32 magic 'FSPB', u32 count, u32 ncols, u32 reserved
 *   per column: u8 type id, u8 flags (1: validity follows, 2: dscale follows)
 *     [validity: ceil(count/64) u64 words]
 *     data: strings as count u32 lengths then the bytes, others
 *           count * type_width bytes
 *     [dscale: count bytes]
 * NULL rows are written as zeros (length 0).
 *
 * Invariants:
 *   1. every file of a SpillSet is closed and the folder removed by
 *      spill_set_close, which runs at the latest when the statement arena
 *      is freed (success, error or cancel alike).
 *   2. a file is written, then rewound, then read; reads never trust a
 *      count or length beyond what was written (XX001 otherwise).
 *
 * floe.query_memory_limit (exec_query_mem_limit) is parsed the same way;
 * -1 or 0 means no limit, values below 1 MB count as 1 MB, and unset
 * (or unparsable) is a quarter of physical memory, at least 256 MB: room
 * for a few statements at that limit at once, each failed with 53200
 * rather than the whole process killed by the OS.
 *
 * INTERFACE ROUTINES (spill.h, exec.h)
 *   exec_mem_limit(work_mem)    bytes, 0 = unlimited
 *   exec_query_mem_limit(s)     bytes, 0 = unlimited
 *   spill_set_new / spill_set_close / spill_file_new / spill_file_close
 *   spill_write / spill_rewind / spill_read / spill_file_rows / spill_file_park
 *   spill_scan_new
 *   spill_set_held / spill_over / spill_guard / spill_stats
 *
 * spill_guard's limit is SPILL_HARD_FACTOR x work_mem, but never below
 * the default work_mem (so 64kB does not make a window over 1 MB fail).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "exec/spill.h"

#define MAGIC 0x42505346u      /* "FSPB" */
#define KB 1024LL

/* Physical memory in bytes, 0 if unknown; read once (sysconf reads /proc
 * through sysinfo: one system call per statement otherwise). */
static int64_t
phys_mem(void)
{
	static _Atomic int64_t cached = -1;
	int64_t m = cached;
	long pages, psz;

	if (m >= 0)
		return m;
	pages = sysconf(_SC_PHYS_PAGES);
	psz = sysconf(_SC_PAGESIZE);
	m = pages > 0 && psz > 0 ? (int64_t)pages * psz : 0;
	cached = m;
	return m;
}

/* work_mem's default: 1/32 of physical memory, 64MB..1GB */
static int64_t
default_limit(void)
{
	int64_t l = phys_mem() / 32;
	if (l < 64 * KB * KB)
		l = 64 * KB * KB;
	if (l > KB * KB * KB)
		l = KB * KB * KB;
	return l;
}

/* A memory setting in PostgreSQL's GUC_UNIT_KB syntax, in kB (rounded);
 * -1 when it does not parse. */
static double
parse_kb(const char *p)
{
	char *end;
	double v, mult = 1;      /* in kB */

	while (*p == ' ' || *p == '\t')
		p++;
	errno = 0;
	v = strtod(p, &end);
	if (end == p || errno || v != v)
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end) {
		size_t n = strcspn(end, " \t");
		if (n == 1 && end[0] == 'B')
			mult = 1.0 / 1024;
		else if (n == 2 && !strncmp(end, "kB", 2))
			mult = 1;
		else if (n == 2 && !strncmp(end, "MB", 2))
			mult = 1024;
		else if (n == 2 && !strncmp(end, "GB", 2))
			mult = 1024.0 * 1024;
		else if (n == 2 && !strncmp(end, "TB", 2))
			mult = 1024.0 * 1024 * 1024;
		else
			return -1;
		end += n;
		while (*end == ' ' || *end == '\t')
			end++;
		if (*end)
			return -1;
	}
	return v < 0 ? v * mult - 0.5 : v * mult + 0.5;   /* PostgreSQL rounds to the base unit */
}

int64_t
exec_mem_limit(const char *work_mem)
{
	const char *p = work_mem;
	double v;

	if (!p) {
		/* tests run whole suites with spilling forced this way */
		p = getenv("FLOE_DEFAULT_WORK_MEM");
		if (!p || !*p)
			return default_limit();
	}
	v = parse_kb(p);
	if (v < 0)
		return default_limit();
	if (v < 64)
		v = 64;
	if (v > 2147483647.0)
		v = 2147483647.0;
	return (int64_t)v * KB;
}

/* A quarter of physical memory, at least 256 MB. */
static int64_t
default_query_limit(void)
{
	int64_t l = phys_mem() / 4;
	return l < 256 * KB * KB ? 256 * KB * KB : l;
}

int64_t
exec_query_mem_limit(const char *setting)
{
	double v;

	if (!setting || !*setting)
		return default_query_limit();
	v = parse_kb(setting);
	if (v < -1.5)
		return default_query_limit();
	if (v < 0.5)
		return 0;            /* -1 and 0: no limit */
	if (v < 1024)
		v = 1024;            /* 1 MB at least */
	if (v > 2147483647.0)
		v = 2147483647.0;
	return (int64_t)v * KB;
}

/* ---- accounting ----------------------------------------------------------- */

static int64_t stat_files, stat_bytes;

void
spill_stats(int64_t *files, int64_t *bytes)
{
	if (files)
		*files = __atomic_load_n(&stat_files, __ATOMIC_RELAXED);
	if (bytes)
		*bytes = __atomic_load_n(&stat_bytes, __ATOMIC_RELAXED);
}

bool
spill_over(const ExecCtx *ctx, int64_t bytes)
{
	return ctx->mem_limit > 0 && bytes > ctx->mem_limit;
}

/* The hard limit never drops below the default work_mem (or
 * $FLOE_SPILL_HARD_MIN bytes, a test hook): a small work_mem makes
 * operators spill sooner, not fail sooner (engine-internal plans such as
 * PRIMARY KEY checks use windows and joins too). */
static int64_t
hard_min(void)
{
	const char *e = getenv("FLOE_SPILL_HARD_MIN");

	if (e && *e)
		return strtoll(e, NULL, 10);
	return default_limit();
}

int
spill_guard(ExecCtx *ctx, int64_t bytes, const char *what)
{
	int64_t hard;

	if (ctx->mem_limit <= 0)
		return FLOE_OK;
	hard = ctx->mem_limit * SPILL_HARD_FACTOR;
	if (bytes <= hard)
		return FLOE_OK;
	if (bytes <= hard_min())
		return FLOE_OK;
	floe_errorf(ctx->err, ERRCODE_OUT_OF_MEMORY,
		    "out of memory: work_mem exceeded by %s (%lld kB held, work_mem is %lld kB)",
		    what, (long long)(bytes / KB), (long long)(ctx->mem_limit / KB));
	return floe_error_hint(ctx->err, "Raise work_mem: these rows of the %s cannot be spilled to disk "
			       "(rows it must hold together, such as one key's or one window's).", what);
}

/* ---- files ---------------------------------------------------------------- */

struct SpillFile {
	SpillSet *set;
	FILE *fp;
	int ncols;
	SqlType *types;
	bool reading;
	int parked;              /* fp closed, this descriptor kept; -1: none */
	int64_t rows, bytes;     /* written */
	int64_t read_bytes;
	SpillFile *next;
};

struct SpillSet {
	ExecCtx *ctx;
	char *dir;               /* NULL until the first file */
	unsigned seq;
	SpillFile *files;
	int nfiles;              /* open */
	Arena *scratch;          /* gathers of one write (any file's); NULL
				    until the first file */
};

static unsigned set_seq;

static void
set_cleanup(void *p)
{
	spill_set_close(p);
}

SpillSet *
spill_set_new(ExecCtx *ctx)
{
	SpillSet *ss = ARENA_NEW(ctx->arena, SpillSet);

	ss->ctx = ctx;
	arena_on_reset(ctx->arena, set_cleanup, ss);
	return ss;
}

static void
file_release(SpillFile *f)
{
	if (f->fp) {
		fclose(f->fp);
		f->set->nfiles--;
	}
	f->fp = NULL;
	if (f->parked >= 0)
		close(f->parked);
	f->parked = -1;
}

void
spill_file_park(SpillFile *f)
{
	int fd;

	if (!f || !f->fp || fflush(f->fp) != 0)
		return;
	fd = dup(fileno(f->fp));
	if (fd < 0)
		return;
	fclose(f->fp);
	f->fp = NULL;
	f->parked = fd;
	f->set->nfiles--;
}

/* a parked file's stream again, at its end */
static int
unpark(SpillFile *f)
{
	if (f->fp || f->parked < 0)
		return FLOE_OK;
	f->fp = fdopen(f->parked, "r+b");
	if (!f->fp || fseek(f->fp, 0, SEEK_END) != 0)
		return floe_errorf(f->set->ctx->err, ERRCODE_IO_ERROR, "could not reopen spill file: %s",
				   strerror(errno));
	f->parked = -1;
	f->set->nfiles++;
	return FLOE_OK;
}

void
spill_set_close(SpillSet *ss)
{
	SpillFile *f;

	if (!ss)
		return;
	for (f = ss->files; f; f = f->next)
		file_release(f);
	ss->files = NULL;
	arena_free(ss->scratch);
	ss->scratch = NULL;
	if (ss->dir) {
		rmdir(ss->dir);
		free(ss->dir);
		ss->dir = NULL;
	}
}

static const char *
spill_base(void)
{
	const char *d = getenv("FLOE_SPILL_DIR");

	if (!d || !*d)
		d = getenv("TMPDIR");
	if (!d || !*d)
		d = "/tmp";
	return d;
}

int
spill_file_new(SpillSet *ss, int ncols, const SqlType *types, SpillFile **out)
{
	floe_error *err = ss->ctx->err;
	SpillFile *f;
	char path[4096];
	int fd;

	if (!ss->dir) {
		unsigned n = __atomic_add_fetch(&set_seq, 1, __ATOMIC_RELAXED);
		snprintf(path, sizeof path, "%s/floe-spill-%d-%u", spill_base(), (int)getpid(), n);
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			return floe_errorf(err, ERRCODE_IO_ERROR,
					   "could not create spill folder \"%s\": %s", path,
					   strerror(errno));
		ss->dir = xstrdup(path);
	}
	snprintf(path, sizeof path, "%s/f%u", ss->dir, ss->seq++);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not create spill file \"%s\": %s",
				   path, strerror(errno));
	unlink(path);
	f = ARENA_NEW(ss->ctx->arena, SpillFile);
	f->fp = fdopen(fd, "w+b");
	if (!f->fp) {
		close(fd);
		return floe_errorf(err, ERRCODE_IO_ERROR, "could not open spill file: %s",
				   strerror(errno));
	}
	f->set = ss;
	f->parked = -1;
	f->ncols = ncols;
	f->types = arena_memdup(ss->ctx->arena, types, sizeof(SqlType) * (size_t)(ncols ? ncols : 1));
	if (!ss->scratch)
		ss->scratch = arena_new(64 * 1024);
	f->next = ss->files;
	ss->files = f;
	ss->nfiles++;
	__atomic_add_fetch(&stat_files, 1, __ATOMIC_RELAXED);
	*out = f;
	return FLOE_OK;
}

void
spill_file_close(SpillFile *f)
{
	SpillFile **pp;

	if (!f)
		return;
	for (pp = &f->set->files; *pp; pp = &(*pp)->next)
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	file_release(f);
}

int64_t
spill_file_rows(const SpillFile *f)
{
	return f->rows;
}

int64_t
spill_set_held(const SpillSet *ss)
{
	if (!ss)
		return 0;
	return (int64_t)arena_held(ss->scratch) + (int64_t)ss->nfiles * BUFSIZ;
}

static int
put(SpillFile *f, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, f->fp) != n)
		return floe_errorf(f->set->ctx->err, ERRCODE_IO_ERROR,
				   "could not write spill file: %s", strerror(errno));
	f->bytes += (int64_t)n;
	return FLOE_OK;
}

int
spill_write(SpillFile *f, const Batch *b, const uint32_t *rows, uint32_t n)
{
	uint32_t hdr[4] = { MAGIC, n, (uint32_t)f->ncols, 0 };
	uint32_t *phys, i;
	int64_t before = f->bytes;
	int c;

	if (!n)
		return FLOE_OK;
	TRY(unpark(f));
	if (f->reading || !f->fp)
		return floe_errorf(f->set->ctx->err, ERRCODE_INTERNAL_ERROR,
				   "spill file written after it was rewound");
	arena_reset(f->set->scratch);
	phys = arena_alloc(f->set->scratch, sizeof(uint32_t) * n);
	for (i = 0; i < n; i++) {
		uint32_t r = rows ? rows[i] : i;
		phys[i] = b->sel ? b->sel[r] : r;
	}
	TRY(put(f, hdr, sizeof hdr));
	for (c = 0; c < f->ncols; c++) {
		Vector v;
		uint8_t meta[2];
		TypeId id = f->types[c].id;
		size_t w = type_width(id);

		vector_init(&v, f->types[c], f->set->scratch, n);
		vector_copy_rows(&v, 0, &b->cols[c], phys, n);
		meta[0] = (uint8_t)id;
		meta[1] = (uint8_t)((v.validity ? 1 : 0) | (v.dscale ? 2 : 0));
		TRY(put(f, meta, 2));
		if (v.validity)
			TRY(put(f, v.validity, sizeof(uint64_t) * ((n + 63) / 64)));
		if (type_is_string(id)) {
			uint32_t *lens = arena_alloc(f->set->scratch, sizeof(uint32_t) * n);
			const strview *sv = v.data;
			for (i = 0; i < n; i++)
				lens[i] = validity_get(v.validity, i) ? sv[i].len : 0;
			TRY(put(f, lens, sizeof(uint32_t) * n));
			for (i = 0; i < n; i++)
				if (lens[i])
					TRY(put(f, strview_data(&sv[i]), lens[i]));
		} else {
			if (v.validity)
				for (i = 0; i < n; i++)
					if (!validity_get(v.validity, i))
						memset((char *)v.data + w * i, 0, w);
			TRY(put(f, v.data, w * n));
		}
		if (v.dscale)
			TRY(put(f, v.dscale, n));
	}
	f->rows += n;
	__atomic_add_fetch(&stat_bytes, f->bytes - before, __ATOMIC_RELAXED);
	return FLOE_OK;
}

int
spill_rewind(SpillFile *f)
{
	TRY(unpark(f));
	if (!f->fp)
		return floe_errorf(f->set->ctx->err, ERRCODE_INTERNAL_ERROR, "spill file is closed");
	if (fflush(f->fp) != 0 || fseek(f->fp, 0, SEEK_SET) != 0)
		return floe_errorf(f->set->ctx->err, ERRCODE_IO_ERROR,
				   "could not rewind spill file: %s", strerror(errno));
	f->reading = true;
	f->read_bytes = 0;
	return FLOE_OK;
}

static int
get(SpillFile *f, void *p, size_t n)
{
	if ((int64_t)n > f->bytes - f->read_bytes || (n && fread(p, 1, n, f->fp) != n))
		return FLOE_CORRUPT(f->set->ctx->err, "spill file in \"%s\" is truncated",
				    f->set->dir ? f->set->dir : "?");
	f->read_bytes += (int64_t)n;
	return FLOE_OK;
}

int
spill_read(SpillFile *f, Arena *a, Batch **out)
{
	floe_error *err = f->set->ctx->err;
	uint32_t hdr[4], n, i;
	Batch *b;
	int c;

	*out = NULL;
	if (!f->reading)
		TRY(spill_rewind(f));
	if (f->read_bytes >= f->bytes)
		return FLOE_OK;
	TRY(get(f, hdr, sizeof hdr));
	n = hdr[1];
	if (hdr[0] != MAGIC || hdr[2] != (uint32_t)f->ncols || n == 0 ||
	    (int64_t)n > f->bytes - f->read_bytes)
		return FLOE_CORRUPT(err, "spill file in \"%s\" has a bad record header",
				    f->set->dir ? f->set->dir : "?");
	b = batch_new(a, f->ncols, f->types, n);
	for (c = 0; c < f->ncols; c++) {
		Vector *v = &b->cols[c];
		TypeId id = f->types[c].id;
		size_t w = type_width(id);
		uint8_t meta[2];

		TRY(get(f, meta, 2));
		if (meta[0] != (uint8_t)id || (meta[1] & ~3))
			return FLOE_CORRUPT(err, "spill file in \"%s\" has a bad column header",
					    f->set->dir ? f->set->dir : "?");
		if (meta[1] & 1) {
			vector_ensure_validity(v);
			TRY(get(f, v->validity, sizeof(uint64_t) * ((n + 63) / 64)));
		}
		if (type_is_string(id)) {
			uint32_t *lens = arena_alloc(a, sizeof(uint32_t) * n);
			strview *sv = v->data;
			int64_t total = 0;
			char *bytes;
			TRY(get(f, lens, sizeof(uint32_t) * n));
			for (i = 0; i < n; i++)
				total += lens[i];
			if (total > f->bytes - f->read_bytes)
				return FLOE_CORRUPT(err, "spill file in \"%s\" has a bad string length",
						    f->set->dir ? f->set->dir : "?");
			bytes = arena_alloc(a, (size_t)total + 1);
			TRY(get(f, bytes, (size_t)total));
			for (i = 0; i < n; i++) {
				sv[i] = strview_make(bytes, lens[i]);
				bytes += lens[i];
			}
		} else {
			TRY(get(f, v->data, w * n));
		}
		if (meta[1] & 2) {
			if (id != TYPE_DECIMAL)
				return FLOE_CORRUPT(err, "spill file in \"%s\" has a bad column header",
						    f->set->dir ? f->set->dir : "?");
			vector_ensure_dscale(v);
			TRY(get(f, v->dscale, n));
		}
	}
	b->count = n;
	*out = b;
	return FLOE_OK;
}

/* ---- an operator reading a file ------------------------------------------- */

typedef struct SpillScanOp {
	Operator op;
	SpillFile *f;
} SpillScanOp;

static int
scan_open(Operator *op)
{
	SpillScanOp *s = (SpillScanOp *)op;

	return s->f ? spill_rewind(s->f) : FLOE_OK;
}

static int
scan_next(Operator *op, Batch **out)
{
	SpillScanOp *s = (SpillScanOp *)op;

	arena_reset(op->scratch);
	TRY(exec_check_cancel(op->ctx));
	*out = NULL;
	if (!s->f)
		return FLOE_OK;
	TRY(spill_read(s->f, op->scratch, out));
	if (*out)
		op->rows_out += (*out)->count;
	return FLOE_OK;
}

static void
scan_close(Operator *op)
{
	(void)op;
}

static const OperatorVT spill_scan_vt = { "Spill Scan", scan_open, scan_next, scan_close };

Operator *
spill_scan_new(ExecCtx *ctx, int ncols, const SqlType *types, SpillFile *f)
{
	SpillScanOp *s = ARENA_NEW(ctx->arena, SpillScanOp);

	op_init(&s->op, &spill_scan_vt, ctx, ncols, types, NULL);
	s->f = f;
	return &s->op;
}

void
spill_scan_set(Operator *op, SpillFile *f)
{
	((SpillScanOp *)op)->f = f;
}
