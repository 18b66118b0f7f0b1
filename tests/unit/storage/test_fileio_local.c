/*
 * test_fileio_local.c — the local FileIO: create-only atomic writes (58P02
 * when the target exists), mmap reads released with the arena, missing
 * files (58P01), parent folders, URI forms and prefix maps; confinement
 * (fileio_confine: no symbolic link out).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/arena.h"
#include "common/error.h"
#include "storage/fileio.h"

static char root[256];

static int
setup(void **state)
{
	snprintf(root, sizeof root, "/tmp/floe-test-fileio-XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int
teardown(void **state)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_fileio_local__write_read(void **state)
{
	FileIO *io = fileio_local_new(root);
	Arena *a = arena_new(0);
	floe_error err;
	const uint8_t *data;
	size_t len;
	uint64_t size;
	char path[512];
	struct stat st;

	/* relative path, parent folders created */
	assert_int_equal(fileio_write(io, "x/y/z/a.bin", "hello", 5, &err), FLOE_OK);
	snprintf(path, sizeof path, "%s/x/y/z/a.bin", root);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 5);
	assert_true(fileio_exists(io, "x/y/z/a.bin"));
	assert_true(fileio_exists(io, path));
	assert_int_equal(fileio_read(io, "x/y/z/a.bin", a, &data, &len, &err), FLOE_OK);
	assert_int_equal(len, 5);
	assert_memory_equal(data, "hello", 5);

	/* file:/// URI and absolute path name the same file */
	snprintf(path, sizeof path, "file://%s/x/y/z/a.bin", root);
	assert_int_equal(fileio_size(io, path, &size, &err), FLOE_OK);
	assert_int_equal(size, 5);
	snprintf(path, sizeof path, "file:%s/x/y/z/a.bin", root);
	assert_true(fileio_exists(io, path));

	/* create-only: a second write fails 58P02 and keeps the first bytes */
	assert_int_equal(fileio_write(io, "x/y/z/a.bin", "other!", 6, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "58P02");
	assert_int_equal(fileio_read(io, "x/y/z/a.bin", a, &data, &len, &err), FLOE_OK);
	assert_int_equal(len, 5);

	/* no temp files left behind */
	{
		DIR *d;
		struct dirent *e;
		int n = 0;
		snprintf(path, sizeof path, "%s/x/y/z", root);
		d = opendir(path);
		while ((e = readdir(d)) != NULL)
			if (e->d_name[0] != '.' || strstr(e->d_name, ".tmp"))
				n++;
		closedir(d);
		assert_int_equal(n, 1);
	}

	/* empty file */
	assert_int_equal(fileio_write(io, "empty", "", 0, &err), FLOE_OK);
	assert_int_equal(fileio_read(io, "empty", a, &data, &len, &err), FLOE_OK);
	assert_int_equal(len, 0);

	/* missing file */
	assert_int_equal(fileio_read(io, "nope/missing.bin", a, &data, &len, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "58P01");
	assert_non_null(strstr(err.message, "nope/missing.bin"));
	assert_false(fileio_exists(io, "nope/missing.bin"));
	assert_int_equal(fileio_size(io, "nope/missing.bin", &size, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "58P01");

	/* remove */
	assert_int_equal(fileio_remove(io, "x/y/z/a.bin", &err), FLOE_OK);
	assert_false(fileio_exists(io, "x/y/z/a.bin"));
	assert_int_equal(fileio_remove(io, "x/y/z/a.bin", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "58P01");

	arena_free(a);   /* unmaps */
	fileio_free(io);
}

static void
test_fileio_local__big_mmap(void **state)
{
	FileIO *io = fileio_local_new(root);
	Arena *a = arena_new(0);
	floe_error err;
	const uint8_t *data;
	size_t len, i, n = 3u << 20;
	uint8_t *buf = malloc(n);

	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)(i * 7);
	assert_int_equal(fileio_write(io, "big.bin", buf, n, &err), FLOE_OK);
	assert_int_equal(fileio_read(io, "big.bin", a, &data, &len, &err), FLOE_OK);
	assert_int_equal(len, n);
	assert_memory_equal(data, buf, n);
	arena_reset(a);
	assert_int_equal(fileio_read(io, "big.bin", a, &data, &len, &err), FLOE_OK);
	assert_int_equal(data[n - 1], buf[n - 1]);
	free(buf);
	arena_free(a);
	fileio_free(io);
}

static void
test_fileio_local__map_prefix(void **state)
{
	FileIO *io = fileio_local_new(root);
	Arena *a = arena_new(0);
	floe_error err;
	const uint8_t *data;
	size_t len;
	char to[512];

	snprintf(to, sizeof to, "%s/local/t", root);
	fileio_map_prefix(io, "s3://bucket/wh/t", to);
	fileio_map_prefix(io, "/home/spark/wh", "rel/wh");
	fileio_map_prefix(io, "data/persistent/", "dp");
	assert_int_equal(fileio_write(io, "s3://bucket/wh/t/metadata/v1.json", "{}", 2, &err), FLOE_OK);
	snprintf(to, sizeof to, "%s/local/t/metadata/v1.json", root);
	assert_true(access(to, F_OK) == 0);
	assert_string_equal(fileio_resolve(io, "s3://bucket/wh/t/metadata/v1.json", a), to);
	assert_int_equal(fileio_read(io, to, a, &data, &len, &err), FLOE_OK);
	assert_int_equal(len, 2);

	/* relative map target resolves against root; file:// forms map too */
	snprintf(to, sizeof to, "%s/rel/wh/x/f.parquet", root);
	assert_string_equal(fileio_resolve(io, "/home/spark/wh/x/f.parquet", a), to);
	assert_string_equal(fileio_resolve(io, "file:///home/spark/wh/x/f.parquet", a), to);
	snprintf(to, sizeof to, "%s/dp/tbl/data/a.parquet", root);
	assert_string_equal(fileio_resolve(io, "file://data/persistent/tbl/data/a.parquet", a), to);
	assert_string_equal(fileio_resolve(io, "data/persistent/tbl/data/a.parquet", a), to);
	/* an unmapped s3:// path goes to the S3 client (here an endpoint
	 * nobody listens on: 58030 after one attempt); another remote scheme
	 * is a clean 0A000 */
	setenv("AWS_ENDPOINT_URL", "127.0.0.1:1", 1);
	setenv("FLOE_S3_MAX_ATTEMPTS", "1", 1);
	assert_int_equal(fileio_read(io, "s3://other/x.json", a, &data, &len, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "58030");
	unsetenv("AWS_ENDPOINT_URL");
	unsetenv("FLOE_S3_MAX_ATTEMPTS");
	assert_int_equal(fileio_write(io, "hdfs://nn:8020/x.json", "{}", 2, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "0A000");
	/* unmapped absolute path stays as is; relative goes under root */
	assert_string_equal(fileio_resolve(io, "/etc/hostname", a), "/etc/hostname");
	snprintf(to, sizeof to, "%s/a/b", root);
	assert_string_equal(fileio_resolve(io, "./a/b", a), to);
	arena_free(a);
	fileio_free(io);
}

/* A confined io (floe serve): files beneath its folder are written (missing
 * folders made), read, sized, replaced, listed and removed; a folder swapped
 * for a symbolic link to a folder outside is 42501 for each of them and
 * nothing outside is read, written or removed. */
static void
test_fileio_local__confined(void **state)
{
	FileIO *io = fileio_local_new(root);
	Arena *a = arena_new(0);
	floe_error err;
	const uint8_t *data;
	size_t len;
	uint64_t size;
	FileInfo *files;
	int n;
	char in[300], out[300], link[1024], path[1024];
	struct stat st;

	(void)state;
	snprintf(in, sizeof in, "%s/in", root);
	snprintf(out, sizeof out, "%s/out", root);
	assert_int_equal(mkdir(in, 0777), 0);
	assert_int_equal(mkdir(out, 0777), 0);
	assert_int_equal(fileio_confine(io, in, &err), FLOE_OK);
	assert_int_equal(fileio_write(io, "in/t/data/a.bin", "hello", 5, &err), FLOE_OK);
	assert_int_equal(fileio_read(io, "in/t/data/a.bin", a, &data, &len, &err), FLOE_OK);
	assert_int_equal(len, 5);
	assert_int_equal(fileio_size(io, "in/t/data/a.bin", &size, &err), FLOE_OK);
	assert_int_equal(size, 5);
	assert_int_equal(fileio_replace(io, "in/t/data/a.bin", "bye", 3, &err), FLOE_OK);
	assert_int_equal(fileio_read(io, "in/t/data/a.bin", a, &data, &len, &err), FLOE_OK);
	assert_memory_equal(data, "bye", 3);
	assert_int_equal(fileio_list(io, "in/t", a, &files, &n, &err), FLOE_OK);
	assert_int_equal(n, 1);
	assert_true(fileio_exists(io, "in/t/data/a.bin"));
	/* outside the folder at all */
	assert_int_equal(fileio_write(io, "out/b.bin", "x", 1, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42501");

	/* in/t/data swapped for a link to out/, which holds a copy */
	snprintf(path, sizeof path, "%s/t/data", in);
	snprintf(link, sizeof link, "%s/t/data.real", in);
	assert_int_equal(rename(path, link), 0);
	assert_int_equal(symlink(out, path), 0);
	assert_int_equal(fileio_write(io, "out/a.bin", "x", 1, &err), FLOE_ERR);   /* (unconfined: the copy) */
	{
		FILE *f;
		snprintf(path, sizeof path, "%s/a.bin", out);
		assert_non_null(f = fopen(path, "w"));
		fputs("secret", f);
		fclose(f);
	}
	assert_int_equal(fileio_read(io, "in/t/data/a.bin", a, &data, &len, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42501");
	assert_int_equal(fileio_size(io, "in/t/data/a.bin", &size, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42501");
	assert_false(fileio_exists(io, "in/t/data/a.bin"));
	assert_int_equal(fileio_write(io, "in/t/data/new.bin", "x", 1, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42501");
	assert_int_equal(fileio_replace(io, "in/t/data/a.bin", "y", 1, &err), FLOE_ERR);
	assert_int_equal(fileio_remove(io, "in/t/data/a.bin", &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42501");
	assert_int_equal(fileio_list(io, "in/t/data", a, &files, &n, &err), FLOE_ERR);
	assert_string_equal(err.sqlstate, "42501");
	assert_int_equal(fileio_list(io, "in/t", a, &files, &n, &err), FLOE_OK);   /* the link skipped */
	assert_int_equal(n, 1);
	snprintf(path, sizeof path, "%s/new.bin", out);
	assert_int_not_equal(stat(path, &st), 0);
	snprintf(path, sizeof path, "%s/a.bin", out);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 6);          /* not replaced, not removed */
	arena_free(a);
	fileio_free(io);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fileio_local__write_read),
		cmocka_unit_test(test_fileio_local__big_mmap),
		cmocka_unit_test(test_fileio_local__map_prefix),
		cmocka_unit_test(test_fileio_local__confined),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
