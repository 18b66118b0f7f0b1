#!/usr/bin/env bash
# SQL logic tests: every tests/sql/**/*.test (except tests/sql/pgdiff/, which
# pgdiff.sh runs against PostgreSQL) through the embedded engine, one
# PASS/FAIL line per file (tests/tools/sqltest-each.sh).  *.test_slow files
# run too when FLOE_SLOW=1.
cd "$FLOE_ROOT" || exit 1
pattern=(-name '*.test')
[ "${FLOE_SLOW:-0}" = 1 ] && pattern=(\( -name '*.test' -o -name '*.test_slow' \))
mapfile -t files < <(find tests/sql -path tests/sql/pgdiff -prune -o -type f "${pattern[@]}" -print | sort)
if [ ${#files[@]} -eq 0 ]; then
	echo "sql: no .test files under tests/sql"
	exit 0
fi
exec bash tests/tools/sqltest-each.sh -- "${files[@]}"
