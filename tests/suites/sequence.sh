#!/usr/bin/env bash
# Sequence suite: sequence values come from the catalog database
# (src/sql/sequence.c), so several floe processes on one catalog never
# hand out a value twice.
#
#   - nodes_<catalog>_<cache>: for the SQLite catalog and the PostgreSQL
#     one (a private throwaway PostgreSQL 15), and CACHE 1 and CACHE 7:
#     four `floe shell` processes on one warehouse run 100 nextval
#     statements each at the same time; the 400 values must be distinct
#     and (CACHE 1) exactly 1..400; with CACHE 7 every value is at most
#     400 + 4 * 7 (each process wastes at most its last cached range)
#
# Prints "PASS sequence: name" / "FAIL sequence: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
tmp=$(mktemp -d /tmp/floe-seq.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-seqpg.XXXXXX)
cleanup() {
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE FLOE_CATALOG PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS

nfail=0
pass() { echo "PASS sequence: $1"; }
fail() {
	echo "FAIL sequence: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -20 "$3" | sed 's/^/    /'; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL sequence: binary $FLOE_BIN not built"
	exit 1
fi

# run_nodes NAME WAREHOUSE CACHE
run_nodes() {
	local name=$1 wh=$2 cache=$3 i pids=()
	if ! "$FLOE_BIN" -q -D "$wh" -c "CREATE SEQUENCE c$cache CACHE $cache" >"$tmp/$name.create" 2>&1; then
		fail "$name" "CREATE SEQUENCE failed" "$tmp/$name.create"
		return
	fi
	for i in 1 2 3 4; do
		for _ in $(seq 100); do echo "SELECT nextval('c$cache');"; done >"$tmp/$name.$i.sql"
		"$FLOE_BIN" -q -A -t -D "$wh" -f "$tmp/$name.$i.sql" >"$tmp/$name.$i.out" 2>"$tmp/$name.$i.err" &
		pids+=($!)
	done
	for i in 0 1 2 3; do
		if ! wait "${pids[$i]}"; then
			fail "$name" "node $((i + 1)) failed" "$tmp/$name.$((i + 1)).err"
			return
		fi
	done
	cat "$tmp/$name".[1-4].out | grep -v '^$' >"$tmp/$name.all"
	local n distinct max
	n=$(wc -l <"$tmp/$name.all")
	distinct=$(sort -n "$tmp/$name.all" | uniq | wc -l)
	max=$(sort -n "$tmp/$name.all" | tail -1)
	if [ "$n" -ne 400 ] || [ "$distinct" -ne 400 ]; then
		fail "$name" "$n values, $distinct distinct (want 400 distinct)"
	elif [ "$cache" -eq 1 ] && [ "$max" -ne 400 ]; then
		fail "$name" "largest value $max, want 400 (no cache, no gaps)"
	elif [ "$max" -gt $((400 + 4 * cache)) ]; then
		fail "$name" "largest value $max beyond 400 + 4 * $cache"
	else
		pass "$name (400 distinct values, largest $max)"
	fi
}

mkdir -p "$tmp/sqlite"
run_nodes nodes_sqlite_cache1 "$tmp/sqlite" 1
run_nodes nodes_sqlite_cache7 "$tmp/sqlite" 7

if envout=$(scripts/pg-test-server.sh start 2>&1); then
	pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	pgci="host=127.0.0.1 port=$pgport user=postgres dbname=postgres"
	if psql -X -q "$pgci" -c 'CREATE DATABASE seqcat' >"$tmp/createdb.out" 2>&1; then
		mkdir -p "$tmp/pgwh"
		echo "host=127.0.0.1 port=$pgport user=postgres dbname=seqcat" >"$tmp/pgwh/catalog-uri"
		run_nodes nodes_pg_cache1 "$tmp/pgwh" 1
		run_nodes nodes_pg_cache7 "$tmp/pgwh" 7
		# the state lives in the catalog database, beside Iceberg's tables
		rows=$(psql -X -q -A -t "host=127.0.0.1 port=$pgport user=postgres dbname=seqcat" \
			-c "SELECT seq_name || ':' || last_value FROM floe_sequences ORDER BY 1" 2>&1 | tr '\n' ' ')
		case "$rows" in
		"c1:400 c7:"*) pass "pg_catalog_rows ($rows)" ;;
		*) fail pg_catalog_rows "floe_sequences holds: $rows" ;;
		esac
	else
		fail postgres "CREATE DATABASE failed" "$tmp/createdb.out"
	fi
else
	fail postgres "cannot start PostgreSQL 15: $envout"
fi
exit $((nfail > 0))
