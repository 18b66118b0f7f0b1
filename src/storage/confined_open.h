/*
 * confined_open.h — open a file so that it cannot escape a folder between
 * a path check and the open (issue 13 item 14: a component swapped for a
 * symbolic link after acl.c resolved and checked the path).
 *
 * The caller passes the folder (root: an absolute path with no symbolic
 * links, e.g. a realpath()) and the path below it as the check resolved
 * it (rel: relative, no ".", ".." or empty components, no symbolic links
 * in it).  Every component is opened without following a symbolic link,
 * so a link that appeared since the check fails the open instead of
 * leading elsewhere: openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS) through syscall(SYS_openat2) where the kernel
 * has it (Linux 5.6), else a walk of openat(O_NOFOLLOW | O_DIRECTORY)
 * per folder and openat(O_NOFOLLOW) for the last component.  Then the
 * opened file's real path (/proc/self/fd/N) must still be under root.
 *
 * INTERFACE ROUTINES
 *   confined_open(root, rel, flags, mode)
 *        a descriptor (O_CLOEXEC added), or -1 with errno: ELOOP or EXDEV
 *        for a symbolic link on the way or a file that is not under root,
 *        else what open() sets (ENOENT, EACCES, EEXIST ...)
 *   confined_open_parent(root, rel, &name)
 *        a descriptor of rel's folder (O_DIRECTORY | O_PATH is not used:
 *        the descriptor can be given to openat / renameat), *name pointing
 *        into rel at its last component; -1 with errno as above
 *   confined_open_dir(root, rel, create)
 *        a descriptor of the folder rel ("" : root itself), each component
 *        opened without following a link, the missing ones made (mkdirat)
 *        when create; -1 with errno as above
 *   confined_resolve(path, out)
 *        the real path of path (absolute, or relative to the working
 *        folder): realpath() of its longest existing prefix, then the
 *        components that do not exist yet with "." and ".." applied by
 *        name; false when too long or a prefix cannot be resolved
 *   confined_force_fallback(on)
 *        tests: use the openat walk even where openat2 exists
 */
#ifndef FLOE_CONFINED_OPEN_H
#define FLOE_CONFINED_OPEN_H

#include <stdbool.h>
#include <sys/types.h>

int confined_open(const char *root, const char *rel, int flags, mode_t mode);
int confined_open_parent(const char *root, const char *rel, const char **name);
int confined_open_dir(const char *root, const char *rel, bool create);
bool confined_resolve(const char *path, char *out);
void confined_force_fallback(bool on);

#endif
