#!/usr/bin/env bash
# bench/pgwire.sh — issue 3's speed question: round trips through the wire
# protocol, floe serve versus PostgreSQL 15 started in the same run
# (scripts/pg-test-server.sh), with the same client program: pgbench
# (postgresql-client), custom scripts, no vacuum.
#
#   select1  c=1   "SELECT 1" in the simple protocol, 1 connection
#   select1  c=16  the same on 16 connections (pgbench -j 2)
#   point    c=1   prepared (-M prepared: Parse once, then Bind/Execute)
#                  "SELECT v FROM pgw WHERE id = :id" on a 1000-row table,
#                  id random, 1 connection
#   point    c=16  the same on 16 connections
#
# Prints transactions (round trips) per second of each and the ratio
# floe/PostgreSQL (above 1: floe was faster), and each server's CPU time
# per round trip (/proc/PID/stat; PostgreSQL's backends counted when the
# postmaster reaps them) with its ratio: on a shared machine the tps
# depend on the other load, the CPU per round trip much less.  Statements of different
# connections run concurrently in floe serve (no engine lock since the
# concurrency work, docs/server.md), so c=16 can use both cores.  The PostgreSQL table has no
# index either (an Iceberg table has none), so both scan 1000 rows per point
# SELECT.  Not a test: run on demand,
#   bench/pgwire.sh [SECONDS]              (default 5 per case)
# and record the numbers in bench/RESULTS.md.
#   FLOE_BASE=/path/to/an/older/floe bench/pgwire.sh [SECONDS]
# also runs that binary (e.g. a build of the commit before a change) in the
# same run: columns base_tps and base_ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
make -s -j2 B=build all
tmp=$(mktemp -d /tmp/floe-pgwbench.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-pgwbench-pg.XXXXXX)
srv_pids=
cleanup() {
	for p in $srv_pids; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
	scripts/pg-test-server.sh stop >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
unset PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS

# a copy: another build of build/ meanwhile cannot pull the binary away
cp build/floe "$tmp/floe"
# start BIN DIR: floe serve on DIR/wh; sets srv_port
start() {
	"$1" serve -D "$2/wh" --port 0 >"$2/serve.out" 2>"$2/serve.err" &
	srv_pids="$srv_pids $!"
	srv_pid=$!
	srv_port=
	for _ in $(seq 100); do
		srv_port=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$2/serve.out")
		[ -n "$srv_port" ] && break
		sleep 0.1
	done
	[ -n "$srv_port" ] || { echo "floe serve did not start"; cat "$2/serve.err"; exit 1; }
}
srv_pids=
start "$tmp/floe" "$tmp"
fport=$srv_port
fpid=$srv_pid
bport=
if [ -n "${FLOE_BASE:-}" ]; then
	mkdir -p "$tmp/base"
	cp "$FLOE_BASE" "$tmp/base/floe"
	start "$tmp/base/floe" "$tmp/base"
	bport=$srv_port
	bpid=$srv_pid
fi
pgport=$(scripts/pg-test-server.sh start | sed -n 's/^PGPORT=//p')
pgpid=$(head -1 "$FLOE_PG_DIR/data/postmaster.pid")

setup="CREATE TABLE pgw (id int, v text); INSERT INTO pgw SELECT g, 'value ' || g FROM generate_series(1, 1000) AS s(g)"
psql -X -q "host=127.0.0.1 port=$fport user=bench dbname=floe" -c "$setup"
[ -z "$bport" ] || psql -X -q "host=127.0.0.1 port=$bport user=bench dbname=floe" -c "$setup"
psql -X -q "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" -c "$setup"
printf 'SELECT 1;\n' >"$tmp/select1.sql"
printf '\\set id random(1, 1000)\nSELECT v FROM pgw WHERE id = :id;\n' >"$tmp/point.sql"

# cpu PID: CPU time (clock ticks) of a server so far: floe's threads, and
# for PostgreSQL the postmaster with its reaped children (the backends,
# which exit when pgbench disconnects)
cpu() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"; }
# tps FILE MODE CLIENTS PORT USER DB PID: prints "tps us", us = the server's
# CPU microseconds per round trip (robust on a shared machine, where tps
# depends on what else runs)
tps() {
	local jobs=1 c0 c1 out n t
	[ "$3" -gt 1 ] && jobs=2
	c0=$(cpu "$7")
	out=$(pgbench -n -T "$secs" -c "$3" -j "$jobs" -M "$2" -f "$1" -h 127.0.0.1 -p "$4" -U "$5" "$6" 2>"$tmp/pgbench.err")
	sleep 0.5     # PostgreSQL's backends exit and are reaped
	c1=$(cpu "$7")
	t=$(printf '%s\n' "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | head -1)
	n=$(printf '%s\n' "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
	awk -v t="${t:-fail}" -v n="${n:-0}" -v c="$((c1 - c0))" -v hz="$(getconf CLK_TCK)" \
		'BEGIN { if (n > 0) printf "%s %.1f\n", t, c * 1e6 / hz / n; else print t, "-" }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "fail" && b != "fail" && b > 0) printf "%.2f", a / b; else print "-" }'; }
echo "pgbench ${secs}s per case, cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg), floe $(git rev-parse --short HEAD)"
echo "tps: round trips per second; us: the server's CPU microseconds per round trip;"
echo "ratio: floe_tps / pg_tps; cpu_ratio: pg_us / floe_us (both above 1: floe better)"
hdr='%-8s %-9s %4s %10s %10s %6s %8s %8s %9s'
if [ -n "$bport" ]; then
	printf "$hdr %10s %10s %8s %9s\n" case mode conns floe_tps pg_tps ratio floe_us pg_us cpu_ratio \
		base_tps base_ratio base_us cpu_ratio
else
	printf "$hdr\n" case mode conns floe_tps pg_tps ratio floe_us pg_us cpu_ratio
fi
for c in "select1 simple 1" "select1 simple 16" "point prepared 1" "point prepared 16"; do
	set -- $c
	read -r f fu <<<"$(tps "$tmp/$1.sql" "$2" "$3" "$fport" bench floe "$fpid")"
	read -r p pu <<<"$(tps "$tmp/$1.sql" "$2" "$3" "$pgport" postgres postgres "$pgpid")"
	line=$(printf "$hdr" "$1" "$2" "$3" "$f" "$p" "$(ratio "$f" "$p")" "$fu" "$pu" "$(ratio "$pu" "$fu")")
	if [ -n "$bport" ]; then
		read -r b bu <<<"$(tps "$tmp/$1.sql" "$2" "$3" "$bport" bench floe "$bpid")"
		line="$line $(printf '%10s %10s %8s %9s' "$b" "$(ratio "$b" "$p")" "$bu" "$(ratio "$pu" "$bu")")"
	fi
	printf '%s\n' "$line"
done
