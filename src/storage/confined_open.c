/*
 * confined_open.c — open beneath a folder without following symbolic
 * links (see confined_open.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif
#include "storage/confined_open.h"

static _Atomic bool force_fallback;

void
confined_force_fallback(bool on)
{
	atomic_store(&force_fallback, on);
}

/* openat2 beneath dirfd; -2 when the kernel (or the headers) have none */
static int
try_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
#if defined(SYS_openat2) && defined(RESOLVE_BENEATH)
	struct open_how how;
	long fd;

	if (atomic_load(&force_fallback))
		return -2;
	memset(&how, 0, sizeof how);
	how.flags = (unsigned long long)flags;
	how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))   /* EPERM: a seccomp filter */
		return -2;
	return (int)fd;
#else
	(void)dirfd;
	(void)rel;
	(void)flags;
	(void)mode;
	return -2;
#endif
}

/* after a failed openat(O_NOFOLLOW | O_DIRECTORY): ENOTDIR for a link
 * where a folder was becomes ELOOP, as openat2 reports it */
static void
link_errno(int fd, int dirfd, const char *comp)
{
	struct stat sb;

	if (fd < 0 && errno == ENOTDIR) {
		if (fstatat(dirfd, comp, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode))
			errno = ELOOP;
		else
			errno = ENOTDIR;
	}
}

/* the walk: each folder with O_NOFOLLOW | O_DIRECTORY, the last component
 * with O_NOFOLLOW; "." and ".." are refused (the caller's path has none) */
static int
walk_open(int dirfd, const char *rel, int flags, mode_t mode)
{
	int cur = dirfd, fd;
	const char *c = rel;

	for (;;) {
		const char *e = strchr(c, '/');
		char comp[NAME_MAX + 1];
		size_t n = e ? (size_t)(e - c) : strlen(c);
		if (n == 0 || n > NAME_MAX || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) {
			if (cur != dirfd)
				close(cur);
			errno = n > NAME_MAX ? ENAMETOOLONG : EXDEV;
			return -1;
		}
		memcpy(comp, c, n);
		comp[n] = '\0';
		if (!e) {
			fd = openat(cur, comp, flags | O_NOFOLLOW, mode);
			link_errno(fd, cur, comp);
			break;
		}
		fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		link_errno(fd, cur, comp);
		if (cur != dirfd) {
			int saved = errno;
			close(cur);
			errno = saved;
		}
		if (fd < 0)
			return -1;
		cur = fd;
		c = e + 1;
	}
	{
		int saved = errno;
		if (cur != dirfd)
			close(cur);
		errno = saved;
	}
	return fd;
}

/* is the file open as fd still root/...? (/proc/self/fd/N's link) */
static bool
fd_under(int fd, const char *root)
{
	char link[64], real[PATH_MAX];
	size_t n = strlen(root);
	ssize_t len;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	len = readlink(link, real, sizeof real - 1);
	if (len < 0)
		return errno == ENOENT;    /* no /proc: the open itself was confined */
	real[len] = '\0';
	while (n > 1 && root[n - 1] == '/')
		n--;
	return !strncmp(real, root, n) && (real[n] == '/' || real[n] == '\0' || n == 1);
}

static int
open_beneath(const char *root, const char *rel, int flags, mode_t mode)
{
	int dirfd, fd;

	if (!rel[0] || rel[0] == '/') {
		errno = EXDEV;
		return -1;
	}
	dirfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -1;
	fd = try_openat2(dirfd, rel, flags | O_CLOEXEC, mode);
	if (fd == -2)
		fd = walk_open(dirfd, rel, flags | O_CLOEXEC, mode);
	{
		int saved = errno;
		close(dirfd);
		errno = saved;
	}
	if (fd >= 0 && !fd_under(fd, root)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

int
confined_open(const char *root, const char *rel, int flags, mode_t mode)
{
	return open_beneath(root, rel, flags, mode);
}

int
confined_open_parent(const char *root, const char *rel, const char **name)
{
	const char *slash = strrchr(rel, '/');
	char dir[PATH_MAX];
	size_t n;

	*name = slash ? slash + 1 : rel;
	if (!slash)
		return open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	n = (size_t)(slash - rel);
	if (n >= sizeof dir) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, rel, n);
	dir[n] = '\0';
	return open_beneath(root, dir, O_RDONLY | O_DIRECTORY, 0);
}

/* Append component c (n bytes) to the absolute path out, "." and ".."
 * applied by name.  false: too long. */
static bool
append_component(char *out, const char *c, size_t n)
{
	size_t len = strlen(out);
	if (n == 0 || (n == 1 && c[0] == '.'))
		return true;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		char *slash = strrchr(out, '/');
		if (slash == out)
			out[1] = 0;           /* "/.." is "/" */
		else if (slash)
			*slash = 0;
		return true;
	}
	if (len + n + 2 > PATH_MAX)
		return false;
	if (len > 1)
		out[len++] = '/';
	else
		len = 1;
	memcpy(out + len, c, n);
	out[len + n] = 0;
	return true;
}

/* The real path of path (absolute, or relative to the working folder):
 * realpath() of its longest existing prefix (every symbolic link and ".."
 * there resolved), then the components that do not exist yet, "." and ".."
 * applied by name (none of them is a link: they do not exist).  false: too
 * long, or a prefix that exists but cannot be resolved (EACCES, ELOOP). */
bool
confined_resolve(const char *path, char *out)
{
	char buf[PATH_MAX];
	size_t n = strlen(path), cut;
	const char *rest, *c;

	if (path[0] != '/') {
		if (!getcwd(buf, sizeof buf) || strlen(buf) + n + 2 > sizeof buf)
			return false;
		strcat(buf, "/");
		strcat(buf, path);
	} else {
		if (n >= sizeof buf)
			return false;
		memcpy(buf, path, n + 1);
	}
	n = strlen(buf);
	cut = n;
	for (;;) {
		char save = buf[cut];
		bool found;
		buf[cut] = 0;
		found = realpath(cut ? buf : "/", out) != NULL;
		buf[cut] = save;
		if (found)
			break;
		if ((errno != ENOENT && errno != ENOTDIR) || cut == 0)
			return false;
		while (cut > 0 && buf[cut - 1] != '/')
			cut--;
		while (cut > 0 && buf[cut - 1] == '/')
			cut--;        /* the prefix ends before its slashes */
	}
	rest = buf + cut;
	for (c = rest; *c;) {
		const char *e;
		while (*c == '/')
			c++;
		for (e = c; *e && *e != '/'; e++)
			;
		if (e > c && !append_component(out, c, (size_t)(e - c)))
			return false;
		c = e;
	}
	return true;
}

/* the folder rel beneath root, each component opened without following a
 * link and made (mkdirat) when it is missing */
int
confined_open_dir(const char *root, const char *rel, bool create)
{
	int cur, fd;
	const char *c = rel;

	cur = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0)
		return -1;
	while (*c) {
		const char *e = strchr(c, '/');
		char comp[NAME_MAX + 1];
		size_t n = e ? (size_t)(e - c) : strlen(c);
		if (n == 0 || n > NAME_MAX || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) {
			close(cur);
			errno = n > NAME_MAX ? ENAMETOOLONG : EXDEV;
			return -1;
		}
		memcpy(comp, c, n);
		comp[n] = '\0';
		fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT && create && (mkdirat(cur, comp, 0777) == 0 || errno == EEXIST))
			fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		link_errno(fd, cur, comp);
		{
			int saved = errno;
			close(cur);
			errno = saved;
		}
		if (fd < 0)
			return -1;
		cur = fd;
		c = e ? e + 1 : c + n;
	}
	if (!fd_under(cur, root)) {
		close(cur);
		errno = EXDEV;
		return -1;
	}
	return cur;
}
