#!/usr/bin/env bash
# txn.sh — commits per second (issue 6): single-row autocommit INSERTs and
# 2-statement transactions (INSERT + UPDATE of the client's own row), with
# 1 and 16 psycopg clients, against `floe serve` with the SQLite catalog,
# with the PostgreSQL catalog (one node, and two nodes sharing the
# warehouse), and against PostgreSQL 15 itself as the reference.  Prints
# one line per run (bench/txn_bench.py) with floe's conflict-retry counts.
#
#   bench/txn.sh [SECONDS]        default 5 s per run; release build (build/)
#
# Servers: free ports, stopped by PID; PostgreSQL by scripts/pg-test-server.sh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
FLOE=${FLOE_BIN:-$PWD/build/floe}
SECS=${1:-5}
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-bench-txn.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-benchpg.XXXXXX)
pids=()
stop_servers() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=()
}
trap 'stop_servers; scripts/pg-test-server.sh stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
unset FLOE_CATALOG FLOE_WAREHOUSE

[ -x "$FLOE" ] || make -s -j2 B=build all || exit 1
envout=$(scripts/pg-test-server.sh start) || exit 1
pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
pg="host=127.0.0.1 port=$pgport user=postgres"

start_server() {   # WAREHOUSE NAME -> $port
	"$FLOE" serve -D "$1" --port 0 >"$tmp/$2.out" 2>"$tmp/$2.err" &
	pids+=("$!")
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$tmp/$2.out")
		[ -n "$port" ] && return 0
		sleep 0.1
	done
	echo "floe serve did not start: $(cat "$tmp/$2.err")" >&2
	exit 1
}

# run SETUP_CONNINFO CONNINFO...: a fresh bench_t, then each mode x clients
run() {
	local setup=$1
	shift
	for mode in insert txn2; do
		for c in 1 16; do
			psql -X -q "$setup" -c 'DROP TABLE IF EXISTS bench_t' >/dev/null 2>&1
			psql -X -q "$setup" -c 'CREATE TABLE bench_t (id int, v int)' >/dev/null || exit 1
			$PY bench/txn_bench.py "$mode" "$c" "$SECS" "$@"
		done
	done
}

echo "== floe, SQLite catalog, 1 node"
start_server "$tmp/wh_sqlite" s1
ci="host=127.0.0.1 port=$port user=bench dbname=floe"
run "$ci" "$ci"
stop_servers

echo "== floe, PostgreSQL catalog, 1 node"
psql -X -q "$pg dbname=postgres" -c 'CREATE DATABASE bench_cat1' >/dev/null
mkdir -p "$tmp/wh_pg1"
echo "$pg dbname=bench_cat1" >"$tmp/wh_pg1/catalog-uri"
start_server "$tmp/wh_pg1" p1
ci="host=127.0.0.1 port=$port user=bench dbname=floe"
run "$ci" "$ci"
stop_servers

echo "== floe, PostgreSQL catalog, 2 nodes sharing the warehouse"
psql -X -q "$pg dbname=postgres" -c 'CREATE DATABASE bench_cat2' >/dev/null
mkdir -p "$tmp/wh_pg2"
echo "$pg dbname=bench_cat2" >"$tmp/wh_pg2/catalog-uri"
start_server "$tmp/wh_pg2" n1
ci1="host=127.0.0.1 port=$port user=bench dbname=floe"
start_server "$tmp/wh_pg2" n2
ci2="host=127.0.0.1 port=$port user=bench dbname=floe"
run "$ci1" "$ci1" "$ci2"
stop_servers

echo "== PostgreSQL 15 (reference; fsync off)"
psql -X -q "$pg dbname=postgres" -c 'CREATE DATABASE bench_ref' >/dev/null
run "$pg dbname=bench_ref" "$pg dbname=bench_ref"
