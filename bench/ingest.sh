#!/usr/bin/env bash
# bench/ingest.sh — issue 16's question: how fast do small durable INSERTs
# go, floe serve (insert buffer on: floe.insert_buffer_rows = 5000; and
# off: one Iceberg commit per INSERT) versus PostgreSQL 15 started in the
# same run, durable (fsync = on, synchronous_commit = on) and not (both
# off), with the same client: pgbench, custom scripts, simple protocol.
#
#   single c=1    INSERT INTO t VALUES (:id, 'row :id')          1 connection
#   single c=16   the same on 16 connections (pgbench -j 2)
#   prep   c=1    INSERT INTO t VALUES (:id, :id), pgbench -M prepared: Parse once,
#                 then Bind/Execute of $1, $2 (untyped: bigint and text from
#                 the columns), the fast path's bind parameters
#   prep   c=16   the same on 16 connections
#   v500   c=8    INSERT INTO t VALUES (:id, 'row 1'), ... 500 literal rows, 8 connections
#   v500   c=16   the same on 16 connections
#   keyed  c=1    single's INSERT into t (id bigint PRIMARY KEY, v text), ids from
#                 1..9e18 (no 23505 in practice): buffered with the key checks
#                 of src/ingest/keyindex.c (before them: the direct path)
#   keyed  c=16   the same on 16 connections
#
#   floe_pgbuf: floe serve with a PostgreSQL catalog and the postgres insert
#   buffer backend (FLOE_INSERT_BUFFER_BACKEND=postgres) in the same
#   PostgreSQL, durable (fsync, synchronous_commit on)
#
# Prints rows per second of each (pgbench tps x rows per INSERT) and the
# ratios floe / PostgreSQL (above 1: floe was faster).  Every warehouse and
# PostgreSQL data folder is on the same disk (/tmp).  Not a test: run on
# demand,  bench/ingest.sh [SECONDS]  (default 5 per case), and record the
# numbers in bench/RESULTS.md.  A subset: BENCH_CASES="prep:1 prep:16",
# BENCH_FLOE="floe_pgbuf" (floe systems), BENCH_PG="pg_durable"; BENCH_BIN:
# the floe binary (default: build/floe, built first).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
[ -n "${BENCH_BIN:-}" ] || make -s -j2 B=build all
tmp=$(mktemp -d /tmp/floe-ingbench.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-ingbench-pg.XXXXXX)
srv_pids=
cleanup() {
	for p in $srv_pids; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	scripts/pg-test-server.sh stop >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
unset PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS FLOE_INSERT_BUFFER_ROWS
cp "${BENCH_BIN:-build/floe}" "$tmp/floe"

# floe serve on DIR with insert buffer rows ROWS; sets port
start_floe() {
	FLOE_INSERT_BUFFER_ROWS=$2 "$tmp/floe" serve -D "$1" --port 0 >"$1.out" 2>"$1.err" &
	srv_pids="$srv_pids $!"
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$1.out" 2>/dev/null)
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || { echo "floe serve did not start"; cat "$1.err"; exit 1; }
}

# the scripts
echo "\\set id random(1, 2000000000)" >"$tmp/single.sql"
echo "INSERT INTO t VALUES (:id, 'row :id');" >>"$tmp/single.sql"
{
	echo "\\set id random(1, 2000000000)"
	printf "INSERT INTO t VALUES "
	for i in $(seq 1 500); do
		[ "$i" -gt 1 ] && printf ", "
		printf "(:id, 'row %d')" "$i"
	done
	echo ";"
} >"$tmp/v500.sql"
echo "\\set id random(1, 9000000000000000000)" >"$tmp/keyed.sql"
echo "INSERT INTO t VALUES (:id, 'row :id');" >>"$tmp/keyed.sql"
# -M prepared: no :var inside a quoted string (it would be a $n there too)
echo "\\set id random(1, 2000000000)" >"$tmp/prep.sql"
echo "INSERT INTO t VALUES (:id, :id);" >>"$tmp/prep.sql"

# run NAME HOST PORT USER DB SCRIPT CONNS ROWS_PER: prints rows/s
run() {
	local out mode=simple
	case $6 in *prep.sql) mode=prepared ;; esac
	out=$(pgbench -n -M "$mode" -h "$2" -p "$3" -U "$4" -f "$6" -c "$7" -j 2 -T "$secs" "$5" 2>&1) || {
		echo "pgbench failed on $1: $out" >&2
		echo 0
		return
	}
	echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1 |
		awk -v r="$8" '{ printf "%.0f", $1 * r }'
}

declare -A R
cases=${BENCH_CASES:-"single:1 single:16 prep:1 prep:16 v500:8 v500:16"}
# PostgreSQL first: floe_pgbuf's catalog and insert buffer (the postgres
# backend, durable: fsync and synchronous_commit on, as pg_durable)
# 16 clients of floe_pgbuf: floe serve's catalog and buffer connections
# come on top of pgbench's, above the test server's usual 20
export FLOE_PG_MAX_CONNECTIONS=100
eval "$(scripts/pg-test-server.sh start | grep '^PG\|^FLOE')"
pgp=$PGPORT
unset PGHOST PGPORT PGUSER PGDATABASE
psql -X -q -h 127.0.0.1 -p "$pgp" -U postgres -c "ALTER SYSTEM SET fsync = on" \
	-c "ALTER SYSTEM SET synchronous_commit = on" -c "ALTER SYSTEM SET full_page_writes = on" \
	-c "SELECT pg_reload_conf()" >/dev/null
for sys in ${BENCH_FLOE:-floe_buffer floe_direct floe_pgbuf}; do
	rows=5000
	[ "$sys" = floe_direct ] && rows=0
	for c in $cases; do
		s=${c%%:*}; n=${c##*:}
		wh="$tmp/$sys-$s-$n"
		if [ "$sys" = floe_pgbuf ]; then
			db="pgbuf_${s}_$n"
			psql -X -q -h 127.0.0.1 -p "$pgp" -U postgres -c "CREATE DATABASE $db" >/dev/null
			mkdir -p "$wh"
			echo "host=127.0.0.1 port=$pgp user=postgres dbname=$db" >"$wh/catalog-uri"
			FLOE_INSERT_BUFFER_BACKEND=postgres start_floe "$wh" "$rows"
		else
			start_floe "$wh" "$rows"
		fi
		key=; [ "$s" = keyed ] && key=" PRIMARY KEY"
		psql -X -q -h 127.0.0.1 -p "$port" -U bench floe -c "CREATE TABLE t (id bigint$key, v text)" >/dev/null
		per=1; [ "$s" = v500 ] && per=500
		R[$sys,$c]=$(run "$sys $c" 127.0.0.1 "$port" bench floe "$tmp/$s.sql" "$n" "$per")
		if [ "$sys" != floe_direct ]; then
			# every acknowledged row must be there once flushed
			psql -X -q -h 127.0.0.1 -p "$port" -U bench floe -c "FLUSH INSERT BUFFER" >/dev/null
		fi
		kill -TERM "${srv_pids##* }"; wait "${srv_pids##* }" 2>/dev/null || true
	done
done

for sys in ${BENCH_PG:-pg_durable pg_nosync}; do
	if [ "$sys" = pg_durable ]; then
		psql -X -q -h 127.0.0.1 -p "$pgp" -U postgres -c "ALTER SYSTEM SET fsync = on" \
			-c "ALTER SYSTEM SET synchronous_commit = on" -c "ALTER SYSTEM SET full_page_writes = on" \
			-c "SELECT pg_reload_conf()" >/dev/null
	else
		psql -X -q -h 127.0.0.1 -p "$pgp" -U postgres -c "ALTER SYSTEM SET fsync = off" \
			-c "ALTER SYSTEM SET synchronous_commit = off" -c "SELECT pg_reload_conf()" >/dev/null
	fi
	sleep 0.5
	for c in $cases; do
		s=${c%%:*}; n=${c##*:}
		key=; [ "$s" = keyed ] && key=" PRIMARY KEY"
		psql -X -q -h 127.0.0.1 -p "$pgp" -U postgres -c "DROP TABLE IF EXISTS t" -c "CREATE TABLE t (id bigint$key, v text)" >/dev/null
		per=1; [ "$s" = v500 ] && per=500
		R[$sys,$c]=$(run "$sys $c" 127.0.0.1 "$pgp" postgres postgres "$tmp/$s.sql" "$n" "$per")
	done
done

printf "%-10s %12s %12s %12s %12s %12s %10s %10s %10s\n" case floe_buffer floe_direct floe_pgbuf pg_durable \
	pg_nosync vs_durable vs_nosync pgbuf_vs_d
for c in $cases; do
	fb=${R[floe_buffer,$c]:-}; fd=${R[floe_direct,$c]:-}; fp=${R[floe_pgbuf,$c]:-}; pd=${R[pg_durable,$c]:-}
	pn=${R[pg_nosync,$c]:-}
	printf "%-10s %12s %12s %12s %12s %12s %10s %10s %10s\n" "$c" "$fb" "$fd" "$fp" "$pd" "$pn" \
		"$(awk -v a="$fb" -v b="$pd" 'BEGIN { printf "%.2f", b ? a / b : 0 }')" \
		"$(awk -v a="$fb" -v b="$pn" 'BEGIN { printf "%.2f", b ? a / b : 0 }')" \
		"$(awk -v a="$fp" -v b="$pd" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
done
echo "(rows/s; ratios: floe with the insert buffer / PostgreSQL 15; $secs s per case, $(nproc) cores)"
