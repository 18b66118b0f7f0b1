/*
 * fileio_cli.c — the FileIO from the command line, for tests (tests/suites/s3.sh).
 *
 *   fileio_cli put URI FILE           fileio_write (58P02 if it exists)
 *   fileio_cli replace URI FILE       fileio_replace
 *   fileio_cli get URI                fileio_read, bytes to stdout
 *   fileio_cli ranges URI OFF:LEN...  fileio_read_ranges, each range's bytes
 *                                     to stdout in the order given
 *   fileio_cli head URI               fileio_size: the size
 *   fileio_cli exists URI             exit 0 / 1
 *   fileio_cli rm URI                 fileio_remove
 *   fileio_cli ls PREFIX              fileio_list: "path<TAB>size" lines
 * After the command: "requests=N gets=N puts=N heads=N lists=N deletes=N
 * retries=N" on stderr.  Errors: "ERROR SQLSTATE message" on stderr, exit 2.
 * S3 settings come from the environment (storage/s3.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "storage/fileio.h"

static int
slurp(const char *file, char **data, size_t *len)
{
	FILE *f = fopen(file, "rb");
	size_t cap = 65536;

	if (!f)
		return -1;
	*data = xmalloc(cap);
	*len = 0;
	for (;;) {
		size_t n = fread(*data + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
		if (*len == cap)
			*data = xrealloc(*data, cap *= 2);
	}
	fclose(f);
	return 0;
}

int
main(int argc, char **argv)
{
	FileIO *io = fileio_local_new(".");
	Arena *a = arena_new(0);
	floe_error err;
	FileIOStats st;
	int rc = 0, i;

	floe_error_clear(&err);
	if (argc < 3) {
		fprintf(stderr, "usage: fileio_cli put|replace|get|ranges|head|exists|rm|ls URI [...]\n");
		return 2;
	}
	if (!strcmp(argv[1], "put") || !strcmp(argv[1], "replace")) {
		char *data;
		size_t len;
		if (argc < 4 || slurp(argv[3], &data, &len) != 0) {
			fprintf(stderr, "cannot read %s\n", argc < 4 ? "(none)" : argv[3]);
			return 2;
		}
		rc = !strcmp(argv[1], "put") ? fileio_write(io, argv[2], data, len, &err)
					     : fileio_replace(io, argv[2], data, len, &err);
		free(data);
	} else if (!strcmp(argv[1], "get")) {
		const uint8_t *d;
		size_t n;
		if ((rc = fileio_read(io, argv[2], a, &d, &n, &err)) == FLOE_OK)
			fwrite(d, 1, n, stdout);
	} else if (!strcmp(argv[1], "ranges")) {
		int n = argc - 3;
		FileIORange *r = arena_calloc(a, sizeof(FileIORange) * (size_t)(n + 1));
		for (i = 0; i < n; i++)
			if (sscanf(argv[3 + i], "%lu:%lu", &r[i].off, &r[i].len) != 2) {
				fprintf(stderr, "bad range %s\n", argv[3 + i]);
				return 2;
			}
		if ((rc = fileio_read_ranges(io, argv[2], r, n, a, &err)) == FLOE_OK)
			for (i = 0; i < n; i++)
				fwrite(r[i].data, 1, r[i].len, stdout);
	} else if (!strcmp(argv[1], "head")) {
		uint64_t size;
		if ((rc = fileio_size(io, argv[2], &size, &err)) == FLOE_OK)
			printf("%llu\n", (unsigned long long)size);
	} else if (!strcmp(argv[1], "exists")) {
		rc = fileio_exists(io, argv[2]) ? 0 : 1;
	} else if (!strcmp(argv[1], "rm")) {
		rc = fileio_remove(io, argv[2], &err);
	} else if (!strcmp(argv[1], "ls")) {
		FileInfo *fi;
		int n;
		if ((rc = fileio_list(io, argv[2], a, &fi, &n, &err)) == FLOE_OK)
			for (i = 0; i < n; i++)
				printf("%s\t%llu\n", fi[i].path, (unsigned long long)fi[i].size);
	} else {
		fprintf(stderr, "unknown command %s\n", argv[1]);
		return 2;
	}
	fileio_stats(&st);
	fprintf(stderr, "requests=%llu gets=%llu puts=%llu heads=%llu lists=%llu deletes=%llu retries=%llu\n",
		(unsigned long long)st.requests, (unsigned long long)st.gets, (unsigned long long)st.puts,
		(unsigned long long)st.heads, (unsigned long long)st.lists, (unsigned long long)st.deletes,
		(unsigned long long)st.retries);
	if (rc == FLOE_ERR) {
		fprintf(stderr, "ERROR %s %s\n", err.sqlstate, err.message);
		rc = 2;
	}
	arena_free(a);
	fileio_free(io);
	return rc;
}
