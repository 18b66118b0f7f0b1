/*
 * warehouse.c — a warehouse's FileIO and its local state folder (see
 * sql/warehouse.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sql/warehouse.h"

bool
warehouse_is_remote(const char *warehouse)
{
	return warehouse && fileio_is_remote(warehouse);
}

void
warehouse_local_dir(char *buf, size_t n, const char *warehouse, const char *state_dir)
{
	const char *env = getenv("FLOE_STATE_DIR"), *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME"), *p;
	size_t len;

	if (!warehouse_is_remote(warehouse)) {
		snprintf(buf, n, "%s", warehouse);
		return;
	}
	if (state_dir && *state_dir) {
		snprintf(buf, n, "%s", state_dir);
		return;
	}
	if (env && *env) {
		snprintf(buf, n, "%s", env);
		return;
	}
	p = warehouse + (strncmp(warehouse, "s3a://", 6) == 0 ? 6 : 5);
	if (xdg && *xdg)
		snprintf(buf, n, "%s/floe/s3/%s", xdg, p);
	else if (home && *home)
		snprintf(buf, n, "%s/.local/state/floe/s3/%s", home, p);
	else
		snprintf(buf, n, "floe-state/s3/%s", p);
	/* no ".." out of the state folder, no trailing '/' */
	for (char *c = buf; (c = strstr(c, "/..")) != NULL;)
		memcpy(c + 1, "__", 2);
	len = strlen(buf);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = 0;
}

int
warehouse_fileio(FileIO **out, const char *root, const char *local_dir, char *const *props,
		 int nprops, floe_error *err)
{
	FileIO *io = fileio_local_new(root);
	int i;

	if (warehouse_is_remote(root) && local_dir)
		io->local_dir = xstrdup(local_dir);
	for (i = 0; i < nprops; i++) {
		const char *eq = strchr(props[i], '=');
		char key[256];
		if (!eq || (size_t)(eq - props[i]) >= sizeof key) {
			fileio_free(io);
			return floe_errorf(err, ERRCODE_INVALID_PARAMETER_VALUE,
					   "file-io property \"%s\" is not KEY=VALUE", props[i]);
		}
		memcpy(key, props[i], (size_t)(eq - props[i]));
		key[eq - props[i]] = 0;
		if (fileio_set_property(io, key, eq + 1, err) != FLOE_OK) {
			fileio_free(io);
			return FLOE_ERR;
		}
	}
	*out = io;
	return FLOE_OK;
}

void
warehouse_explain_requests(const FileIOStats *b, bool remote, Arena *a, char ***lines, int *n)
{
	FileIOStats s;
	char **nl;

	fileio_stats(&s);
	if (!remote && s.requests == b->requests && s.cache_hits == b->cache_hits)
		return;
	nl = arena_alloc(a, sizeof(char *) * (size_t)(*n + 1));
	if (*n)
		memcpy(nl, *lines, sizeof(char *) * (size_t)*n);
	nl[(*n)++] = arena_sprintf(a,
		"Object Store: requests=%llu (GET %llu, PUT %llu, HEAD %llu, LIST %llu, DELETE %llu, "
		"retried %llu) cache hits=%llu read=%llu bytes",
		(unsigned long long)(s.requests - b->requests), (unsigned long long)(s.gets - b->gets),
		(unsigned long long)(s.puts - b->puts), (unsigned long long)(s.heads - b->heads),
		(unsigned long long)(s.lists - b->lists), (unsigned long long)(s.deletes - b->deletes),
		(unsigned long long)(s.retries - b->retries),
		(unsigned long long)(s.cache_hits - b->cache_hits),
		(unsigned long long)(s.bytes_in - b->bytes_in));
	*lines = nl;
}
