#!/usr/bin/env bash
# Differential SQL tests: tests/sql/pgdiff/**/*.test run on floe AND on a
# throwaway PostgreSQL 15 (scripts/pg-test-server.sh), results compared by
# `sqltest --pg`.  The server is private to this run and stopped on exit.
cd "$FLOE_ROOT" || exit 1
mapfile -t files < <(find tests/sql/pgdiff -type f -name '*.test' 2>/dev/null | sort)
if [ ${#files[@]} -eq 0 ]; then
	echo "pgdiff: no .test files under tests/sql/pgdiff"
	exit 0
fi
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-pgdiff.XXXXXX)
trap 'scripts/pg-test-server.sh stop >/dev/null 2>&1' EXIT
if ! envout=$(scripts/pg-test-server.sh start 2>&1); then
	echo "FAIL pgdiff: cannot start PostgreSQL 15"
	printf '%s\n' "$envout" | tail -20 | sed 's/^/    /'
	exit 1
fi
port=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
bash tests/tools/sqltest-each.sh --pg "host=127.0.0.1 port=$port user=postgres dbname=postgres" \
	-- "${files[@]}"
