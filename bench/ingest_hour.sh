#!/usr/bin/env bash
# bench/ingest_hour.sh — issue 16's "hour check": after many small
# durable INSERTs, is the table made of few, well-sized files, and is a
# scan as fast as over the same rows loaded at once?
#
#   1. floe serve (release build), insert buffer on, flushes every
#      FLUSH (default 1s: an hour's worth of 5 s flushes in a few minutes);
#      pgbench -M prepared streams N single-row INSERTs (default 300000) on
#      4 connections into t (id bigint, v text), then FLUSH INSERT BUFFER
#      and a wait for the flush thread's last compaction;
#   2. the same rows loaded at once: CREATE TABLE once AS SELECT * FROM t;
#   3. SELECT count(*) and SELECT sum(id), count(DISTINCT v) over each,
#      REPS times (default 20): the server's CPU seconds for them (utime +
#      stime of the floe serve process, /proc; repeatable on a shared
#      machine, unlike wall time) and the median wall time.
#
# Run twice: compaction on (floe.insert_buffer_compact_files = 16, the
# default) and off (0).  Prints data files, CPU seconds and the ratio
# t / once per query (1.00: as fast as loaded at once).  Not a test:
#   bench/ingest_hour.sh [N] [REPS] [FLUSH]
# and record the numbers in bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300000}
reps=${2:-20}
flush=${3:-1s}
make -s -j2 B=build all
tmp=$(mktemp -d /tmp/floe-inghour.XXXXXX)
srv=
cleanup() {
	[ -n "$srv" ] && { kill -TERM "$srv" 2>/dev/null || true; wait "$srv" 2>/dev/null || true; }
	rm -rf "$tmp"
}
trap cleanup EXIT
unset PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS FLOE_INSERT_BUFFER_ROWS
cp build/floe "$tmp/floe"
echo "\\set id random(1, 2000000000)" >"$tmp/prep.sql"
echo "INSERT INTO t VALUES (:id, :id);" >>"$tmp/prep.sql"
ticks=$(getconf CLK_TCK)

cpu_of() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# time_query SQL: "cpu_seconds median_ms" of REPS runs
time_query() {
	local c0 c1 f
	f="$tmp/q.sql"
	{ echo '\timing on'; for _ in $(seq "$reps"); do echo "$1;"; done; } >"$f"
	c0=$(cpu_of "$srv")
	psql -X -q -h 127.0.0.1 -p "$port" -U bench floe -f "$f" >"$tmp/q.out" 2>&1
	c1=$(cpu_of "$srv")
	med=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$tmp/q.out" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	awk -v a="$c0" -v b="$c1" -v t="$ticks" -v m="$med" 'BEGIN { printf "%.2f %s", (b - a) / t, m }'
}

printf "%-12s %8s %8s %10s %10s %8s %10s %10s %8s\n" compaction files once_f "cnt_cpu_t" "cnt_cpu_o" ratio "agg_cpu_t" "agg_cpu_o" ratio
for cf in 16 0; do
	wh=$tmp/wh-$cf
	"$tmp/floe" serve -D "$wh" --port 0 >"$wh.out" 2>"$wh.err" &
	srv=$!
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$wh.out" 2>/dev/null)
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || { echo "floe serve did not start"; cat "$wh.err"; exit 1; }
	q() { psql -X -q -A -t -h 127.0.0.1 -p "$port" -U bench floe -c "$1"; }
	q "CREATE TABLE t (id bigint, v text)"
	q "SET floe.insert_buffer_max_staleness = '$flush'"
	q "SET floe.insert_buffer_compact_files = $cf"
	pgbench -n -M prepared -h 127.0.0.1 -p "$port" -U bench -f "$tmp/prep.sql" -c 4 -j 2 \
		-t $((n / 4)) floe >"$tmp/pgbench.out" 2>&1 || { cat "$tmp/pgbench.out"; exit 1; }
	q "FLUSH INSERT BUFFER t"
	sleep 5                     # the flush thread's compaction of the last flushes
	q "CREATE TABLE once AS SELECT * FROM t"
	files=$(q 'SELECT count(*) FROM t$files')
	ofiles=$(q 'SELECT count(*) FROM once$files')
	read -r ct cmt <<<"$(time_query 'SELECT count(*) FROM t')"
	read -r co cmo <<<"$(time_query 'SELECT count(*) FROM once')"
	read -r at amt <<<"$(time_query 'SELECT sum(id), count(DISTINCT v) FROM t')"
	read -r ao amo <<<"$(time_query 'SELECT sum(id), count(DISTINCT v) FROM once')"
	printf "%-12s %8s %8s %10s %10s %8s %10s %10s %8s\n" "$([ "$cf" = 0 ] && echo off || echo "on ($cf)")" \
		"$files" "$ofiles" "$ct" "$co" "$(awk -v a="$ct" -v b="$co" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
		"$at" "$ao" "$(awk -v a="$at" -v b="$ao" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
	echo "    (median wall ms: count t $cmt, once $cmo; aggregate t $amt, once $amo; rows $(q 'SELECT count(*) FROM t'))"
	kill -TERM "$srv"
	wait "$srv" 2>/dev/null || true
	srv=
done
echo "($n single-row INSERTs, pgbench -M prepared -c 4, flushes every $flush; CPU seconds of floe serve for $reps runs of each query; $(nproc) cores)"
