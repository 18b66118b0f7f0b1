#!/usr/bin/env bash
# sqltest-each.sh [sqltest options] -- FILE...
# Runs build-san/tests/tools/sqltest once per file (so a crash or a hang in
# one file cannot hide the others) and prints exactly one PASS/FAIL line per
# file, with sqltest's indented detail lines.  A file whose run ends with a
# non-zero status after printing PASS (a leak, a sanitizer report at exit) is
# a FAIL; a crash or timeout is reported at the line of the record that was
# running.  Timeout per file: $SQLTEST_TIMEOUT seconds (default 300).
# Exit status 1 if any file failed.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
bin=${SQLTEST_BIN:-build-san/tests/tools/sqltest}
opts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
if [ ! -x "$bin" ]; then
	echo "FAIL sqltest: $bin is not built (make B=build-san tools)"
	exit 1
fi
rc=0
for f in "$@"; do
	out=$(mktemp) err=$(mktemp)
	# -v: sqltest names each record on stderr before running it, so a crash
	# or a hang can be pinned to its line
	{ timeout -k 10 "${SQLTEST_TIMEOUT:-300}" "$bin" -v "${opts[@]}" "$f" >"$out" 2>"$err"; } 2>/dev/null
	st=$?
	where=$(grep -E "^$f:[0-9]+\$" "$err" | tail -1)
	[ -n "$where" ] || where=$f
	if [ $st -eq 0 ] && grep -q "^PASS " "$out"; then
		grep -v '^FAIL ' "$out"
	else
		rc=1
		if grep -q "^FAIL " "$out"; then
			cat "$out"
		else
			why="exit status $st"
			[ $st -eq 124 ] && why="timed out after ${SQLTEST_TIMEOUT:-300}s"
			grep -q "^PASS " "$out" && why="$why after its last record (sanitizer report or leak at exit)"
			echo "FAIL $where: $why"
			grep -v '^PASS ' "$out" | sed 's/^/    /'
		fi
		grep -v -E "^$f:[0-9]+\$" "$err" | tail -30 | sed 's/^/    /'
	fi
	rm -f "$out" "$err"
done
exit $rc
