/*
 * replay.c — plain driver that feeds corpus files to one fuzz target.
 *
 * Linked (by fuzz/fuzz.mk, with gcc + ASan + UBSan, no libFuzzer) with one
 * fuzz/fuzz_<target>.c into build-san/fuzz/replay_<target>, so every test run
 * replays the corpora under the sanitizers, the way zstd's
 * tests/fuzz/regression_driver.c and libgit2's fuzzers/standalone_driver.c do.
 *
 * Usage: replay_<target> PATH...   (a PATH that is a folder is read
 * recursively; hidden files are skipped).  Prints "replayed N files" and
 * exits 0; a crash or sanitizer report ends the process non-zero, after the
 * line "replay: FILE" naming the input being run.
 *
 * INTERFACE ROUTINES
 *   main()   calls LLVMFuzzerInitialize (if the target has one) once, then
 *            LLVMFuzzerTestOneInput(data, size) for each file, with the
 *            bytes in an exactly-sized heap buffer so ASan sees overreads.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static long nfiles;

static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	fclose(f);
	/* exact-size copy: one byte past the end is an ASan error */
	uint8_t *data = malloc(n ? n : 1);
	memcpy(data, buf, n);
	free(buf);
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput(data, n);
	free(data);
	nfiles++;
	return 0;
}

static int
run_path(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
			char *child = malloc(len);
			snprintf(child, len, "%s/%s", path, names[i]->d_name);
			if (run_path(child) != 0)
				rc = -1;
			free(child);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	int rc = 0;
	for (int i = 1; i < argc; i++)
		if (run_path(argv[i]) != 0)
			rc = 1;
	printf("replayed %ld files\n", nfiles);
	return rc;
}
