#!/usr/bin/env bash
# Lint suite: source rules a compiler does not enforce.
#   prototypes  no .c file declares an extern function prototype
#               (tests/tools/check_prototypes.sh); a self-check first proves
#               the checker fails on a .c file that does, one- and multi-line.
#
# Prints "PASS name" / "FAIL name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
tmp=$(mktemp -d /tmp/floe-lint.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rc=0

cat >"$tmp/bad.c" <<'C'
#include "x.h"
static int helper(int a);
int other_file_fn(int a);
const char *other_multi(const char *s,
			int n);
int
defined_here(int a)
{
	return helper(a) + other_file_fn(a);
}
C
out=$(tests/tools/check_prototypes.sh "$tmp")
if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q 'bad.c:3: int other_file_fn' &&
   printf '%s\n' "$out" | grep -q 'bad.c:4: const char \*other_multi' &&
   ! printf '%s\n' "$out" | grep -q 'helper\|defined_here'; then
	echo "PASS prototypes-selfcheck"
else
	echo "FAIL prototypes-selfcheck: checker did not flag exactly the two prototypes: $out"
	rc=1
fi

tests/tools/check_prototypes.sh || rc=1
exit $rc
