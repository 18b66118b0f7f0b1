#!/usr/bin/env bash
# Transactions suite (issue 6): transaction blocks through a real driver,
# the PostgreSQL catalog, and concurrent writers on several floe nodes.
#
#   - tests/txn/test_psycopg_txn.py: psycopg 3 (non-autocommit by default)
#     against `floe serve` on a SQLite-catalog warehouse; the checks
#     PostgreSQL shares also run against PostgreSQL 15 (--pg)
#   - tests/txn/psql_txn.sql through psql: floe serve's output equals
#     PostgreSQL 15's (command tags, warnings, 25P02, savepoints)
#   - build-san/tests/unit/catalog/test_catalog_pg against the throwaway
#     PostgreSQL 15 (FLOE_TEST_PG)
#   - tests/txn/concurrency.py lost_update / append_storm / bank /
#     unique_keys (PRIMARY KEY writers: one node, then both) / cow_keys
#     (copy-on-write PRIMARY KEY writers) / copy_keys (COPY FROM into a
#     PRIMARY KEY table; each one node, then both) / buffer_keys /
#     buffer_key_race (buffered INSERTs of a PRIMARY KEY table racing each
#     other and the direct path in pairs: one node, then both) with TWO
#     `floe serve` processes sharing one warehouse folder and one
#     PostgreSQL catalog (<warehouse>/catalog-uri); each table is then
#     checked with ../shared/tools/interop/bin/iceberg-validate
#   - tests/txn/crash.py: kill -9 of floe serve in the middle of commits
#     (4 rounds), then every acknowledged commit present exactly once and no
#     transaction half applied; tables valid (iceberg-validate); with the
#     SQLite catalog, then with the PostgreSQL one (3 rounds)
#   - a catalog wait (ACCESS EXCLUSIVE on iceberg_tables held in PostgreSQL)
#     ends with 57014 under statement_timeout, as does a wait for the SQLite
#     catalog's write lock; statements work after it
#   - a PostgreSQL catalog address that never answers: floe serve gives up
#     after the URI's connect_timeout
#   - floe serve's start removes stale .tmp files of killed writes (those of
#     a live process, fresh ones and other names stay)
#
# Servers run on free ports (--port 0) and are stopped by PID; PostgreSQL
# by scripts/pg-test-server.sh with a private FLOE_PG_DIR.
# Prints "PASS txn: name" / "FAIL txn: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED=${FLOE_SHARED:-../shared}
VALIDATE=$PWD/tests/tools/iceberg-validate.sh   # the interop tool minus its v3 lineage-column report
export FLOE_INTEROP_BIN=$(cd "$SHARED/tools/interop/bin" && pwd)
PY=/usr/bin/python3

tmp=$(mktemp -d /tmp/floe-txn.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-txnpg.XXXXXX)
pids=()
stop_servers() {
	local p
	for p in "${pids[@]}"; do
		if kill -0 "$p" 2>/dev/null; then
			kill -TERM "$p" 2>/dev/null
			for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
			kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
			wait "$p" 2>/dev/null
		fi
	done
	pids=()
}
cleanup() {
	stop_servers
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE FLOE_CATALOG PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS

nfail=0
pass() { echo "PASS txn: $1"; }
fail() {
	echo "FAIL txn: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then grep -v '^ok ' "$3" | head -30 | sed 's/^/    /'; fi
}

# start_server WAREHOUSE LOG -> sets $port, appends the PID to pids
. tests/tools/floe_server.sh
start_server() {
	local rc=0
	floe_serve "$2" -D "$1" --port 0 || rc=1
	pids+=("$srv_pid")
	return $rc
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL txn: binary $FLOE_BIN not built"
	exit 1
fi
# servers are started and killed many times: run a private copy, so a
# rebuild of build-san/ in the meantime cannot pull the binary away
cp "$FLOE_BIN" "$tmp/floe" && FLOE_BIN=$tmp/floe
if ! $PY -c 'import psycopg' >/dev/null 2>&1; then
	echo "FAIL txn: python3-psycopg is not installed (scripts/install-deps.sh --test)"
	exit 1
fi

have_pg=0
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	pgci="host=127.0.0.1 port=$pgport user=postgres dbname=postgres"
	psql -X -q "$pgci" -c 'select 1' >/dev/null 2>&1 && have_pg=1
fi
[ $have_pg -eq 1 ] || fail postgres "cannot start PostgreSQL 15" 

# ---- psycopg 3 against floe serve (SQLite catalog) ---------------------------
if start_server "$tmp/wh1" "$tmp/s1"; then
	ci="host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10"
	extra=()
	if [ $have_pg -eq 1 ]; then
		psql -X -q "$pgci" -c 'CREATE DATABASE txn_psycopg' >/dev/null 2>&1
		extra=(--pg "host=127.0.0.1 port=$pgport user=postgres dbname=txn_psycopg")
	fi
	if timeout 120 $PY tests/txn/test_psycopg_txn.py "$ci" "$tmp/wh1" "${extra[@]}" \
		>"$tmp/psycopg.out" 2>&1; then
		pass "psycopg_txn ($(grep -c '^ok ' "$tmp/psycopg.out") checks)"
	else
		fail psycopg_txn "exit $?" "$tmp/psycopg.out"
	fi
	for tbl in "$tmp/wh1"/public/*/; do
		ls "$tbl"metadata/*.metadata.json >/dev/null 2>&1 || continue   # dropped
		if ! "$VALIDATE" "$tbl" >"$tmp/validate.out" 2>&1; then
			fail psycopg_txn_iceberg_valid "$(basename "$tbl")" "$tmp/validate.out"
			continue
		fi
		pass "psycopg_txn_iceberg_valid ($(basename "$tbl"))"
	done
	# psql through floe serve vs PostgreSQL 15: same output.  Known gap:
	# pgwire sends the 25001/25P01 warnings with severity NOTICE (it uses
	# WARNING for class 01 only), so that word is normalized.
	if [ $have_pg -eq 1 ]; then
		psql -X -q "$pgci" -c 'CREATE DATABASE txn_psql' >/dev/null 2>&1
		(cd tests/txn && psql -X "$ci" -f psql_txn.sql) 2>&1 |
			sed 's/: WARNING:  /: NOTICE:  /' >"$tmp/floe_psql.out"
		(cd tests/txn && psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=txn_psql" \
			-f psql_txn.sql) 2>&1 | sed 's/: WARNING:  /: NOTICE:  /' >"$tmp/pg_psql.out"
		if diff -u "$tmp/pg_psql.out" "$tmp/floe_psql.out" >"$tmp/psql.diff"; then
			pass "psql_txn_same_as_postgres ($(wc -l <"$tmp/pg_psql.out") lines)"
		else
			fail psql_txn_same_as_postgres "output differs" "$tmp/psql.diff"
		fi
	fi
	stop_servers
	if grep -q "ERROR: \(Address\|Undefined\|Leak\)Sanitizer\|runtime error" "$tmp/s1.err"; then
		fail psycopg_txn_sanitizers "sanitizer report in the server's stderr" "$tmp/s1.err"
	fi
else
	fail psycopg_txn "floe serve did not start" "$tmp/s1.err"
fi

# ---- crash: kill -9 the server mid-commit, 4 times, then check ---------------
mkdir -p "$tmp/crash"
if timeout 120 $PY tests/txn/crash.py "$FLOE_BIN" "$tmp/crash/wh" 4 >"$tmp/crash.out" 2>&1; then
	pass "crash ($(grep -c '^ok ' "$tmp/crash.out") checks; $(grep -o 'acked=[0-9]* rows=[0-9]*' "$tmp/crash.out" | tr '\n' ' '))"
else
	fail crash "exit $?" "$tmp/crash.out"
fi
for tbl in "$tmp/crash/wh"/public/*/; do
	if "$VALIDATE" "$tbl" >"$tmp/validate.out" 2>&1; then
		pass "crash_iceberg_valid ($(basename "$tbl"))"
	else
		fail crash_iceberg_valid "$(basename "$tbl")" "$tmp/validate.out"
	fi
done

# ---- stale temporary files of killed writes: removed when floe serve starts --
# (src/storage/fileio_local.c fileio_sweep_tmp): older than an hour, or
# older than a minute with the writer's process gone; a live writer's, a
# fresh one and other names stay.
sweep=$tmp/crash/wh
sleep 0 & dead=$!; wait $dead
sleep 300 & live=$!
d=$(ls -d "$sweep"/public/*/metadata | head -1)
gone=("$d/.00009-x.metadata.json.$dead.0.tmp" "$d/.old-live.avro.$live.2.tmp" "$sweep/users.tmp$dead")
stay=("$d/.keep-live.avro.$live.1.tmp" "$d/.fresh-dead.avro.$dead.3.tmp" "$d/.not-ours.tmp" "$d/x.$dead.4.tmp")
touch -d '2 minutes ago' "${gone[0]}" "${stay[0]}"
touch -d '2 hours ago' "${gone[1]}" "${gone[2]}" "${stay[2]}" "${stay[3]}"
touch "${stay[1]}"
if start_server "$sweep" "$tmp/sweep"; then
	stop_servers
	bad=
	for f in "${gone[@]}"; do [ -e "$f" ] && bad="$bad kept:${f##*/}"; done
	for f in "${stay[@]}"; do [ -e "$f" ] || bad="$bad removed:${f##*/}"; done
	grep -q "removed [0-9]* stale temporary file" "$tmp/sweep.out" || bad="$bad no-report"
	if [ -z "$bad" ]; then
		pass "stale_tmp_swept ($(sed -n 's/.*removed \([0-9]*\) stale.*/\1/p' "$tmp/sweep.out") removed)"
	else
		fail stale_tmp_swept "$bad"
	fi
else
	fail stale_tmp_swept "floe serve did not start" "$tmp/sweep.err"
fi
kill "$live" 2>/dev/null; wait "$live" 2>/dev/null

[ $have_pg -eq 1 ] || exit 1

# ---- the PostgreSQL catalog's unit test ---------------------------------------
unit=build-san/tests/unit/catalog/test_catalog_pg
psql -X -q "$pgci" -c 'CREATE DATABASE txn_unit' >/dev/null 2>&1
if [ -x "$unit" ]; then
	if FLOE_TEST_PG="host=127.0.0.1 port=$pgport user=postgres dbname=txn_unit" \
		timeout 60 "$unit" >"$tmp/unit.out" 2>&1; then
		pass "catalog_pg unit ($(grep -c 'OK \]' "$tmp/unit.out") tests)"
	else
		fail catalog_pg_unit "exit $?" "$tmp/unit.out"
	fi
else
	fail catalog_pg_unit "$unit not built"
fi

# ---- crash with the PostgreSQL catalog: a killed node's catalog transaction --
psql -X -q "$pgci" -c 'CREATE DATABASE txn_crash' >/dev/null 2>&1
mkdir -p "$tmp/crashpg/wh"
echo "host=127.0.0.1 port=$pgport user=postgres dbname=txn_crash" >"$tmp/crashpg/wh/catalog-uri"
if timeout 120 $PY tests/txn/crash.py "$FLOE_BIN" "$tmp/crashpg/wh" 3 >"$tmp/crashpg.out" 2>&1; then
	pass "crash_pg_catalog ($(grep -c '^ok ' "$tmp/crashpg.out") checks)"
else
	fail crash_pg_catalog "exit $?" "$tmp/crashpg.out"
fi
for tbl in "$tmp/crashpg/wh"/public/*/; do
	if "$VALIDATE" "$tbl" >"$tmp/validate.out" 2>&1; then
		pass "crash_pg_catalog_iceberg_valid ($(basename "$tbl"))"
	else
		fail crash_pg_catalog_iceberg_valid "$(basename "$tbl")" "$tmp/validate.out"
	fi
done

# ---- a catalog wait is cancellable: a lock held in the catalog database ------
# Another client holds the catalog's lock; a floe statement under
# statement_timeout=500ms that needs the catalog must fail with 57014 within
# seconds, and once the lock is gone the same statements work and the
# canceled one left nothing.
#   PostgreSQL catalog: a transaction holds ACCESS EXCLUSIVE on iceberg_tables
#   (an INSERT waited in PQexecParams for the whole 8 s hold, then landed).
#   SQLite catalog: another process holds catalog.db's write lock (BEGIN
#   EXCLUSIVE; a DELETE's or CREATE's commit waited out the 10 s busy timeout).
# hold_pg / hold_sqlite DIR: start the holder in the background (pid in
# $holder) and return once it holds the lock.
hold_pg() {
	psql -X -q "$lockci" -c "BEGIN; LOCK TABLE iceberg_tables IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(8); COMMIT" \
		>/dev/null 2>&1 &
	holder=$!
	for _ in $(seq 50); do
		[ "$(psql -X -At "$lockci" -c "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
			WHERE c.relname = 'iceberg_tables' AND l.mode = 'AccessExclusiveLock' AND l.granted")" = 1 ] && break
		sleep 0.1
	done
}
hold_sqlite() {
	$PY -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=20)
c.execute("BEGIN EXCLUSIVE"); print("locked", flush=True); time.sleep(6); c.execute("COMMIT")' \
		"$1/wh/catalog.db" >"$1/holder.out" 2>&1 &
	holder=$!
	for _ in $(seq 50); do grep -q locked "$1/holder.out" && break; sleep 0.1; done
}
# catalog_lock_case NAME DIR HOLD STATEMENT...: floe serve on DIR/wh (its
# catalog-uri already written, if any), table lk holding 1; under HOLD each
# STATEMENT must fail 57014 in < 4 s (NAME_timeout), and after it both an
# INSERT of 3 and CREATE TABLE lk2 work, lk holding 1,3 (NAME_released)
catalog_lock_case() {
	local name=$1 dir=$2 hold=$3 stmt t0 ms out
	shift 3
	if ! start_server "$dir/wh" "$dir/serve"; then
		fail "${name}_timeout" "floe serve did not start" "$dir/serve.err"
		return
	fi
	fci="host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10"
	psql -X -q "$fci" -c 'CREATE TABLE lk (a int)' -c 'INSERT INTO lk VALUES (1)' >"$dir/setup.out" 2>&1
	"$hold" "$dir"
	for stmt in "$@"; do
		t0=$(date +%s%N)
		out=$(timeout 20 psql -X -q "$fci" -c '\set VERBOSITY verbose' -c 'SET statement_timeout = 500' \
			-c "$stmt" 2>&1)
		ms=$((($(date +%s%N) - t0) / 1000000))
		if printf '%s' "$out" | grep -q 'ERROR:  57014: canceling statement due to statement timeout' && [ $ms -lt 4000 ]; then
			pass "${name}_timeout (${stmt%% [(W]*}: 57014 in $ms ms)"
		else
			fail "${name}_timeout" "$stmt: $ms ms: $(printf '%s' "$out" | tr '\n' '|')" "$dir/serve.err"
		fi
	done
	wait "$holder"
	out=$(psql -X -At "$fci" -c 'SET statement_timeout = 5000' -c 'INSERT INTO lk VALUES (3)' \
		-c 'CREATE TABLE lk2 (b int)' -c "SELECT string_agg(a::text, ',' ORDER BY a) FROM lk" 2>&1)
	if [ "$out" = "$(printf 'SET\nINSERT 0 1\nCREATE TABLE\n1,3')" ]; then
		pass "${name}_released (INSERT and CREATE work, the canceled statements left nothing)"
	else
		fail "${name}_released" "$(printf '%s' "$out" | tr '\n' '|') (setup: $(tr '\n' '|' <"$dir/setup.out"))"
	fi
	stop_servers
}
psql -X -q "$pgci" -c 'CREATE DATABASE txn_lock' >/dev/null 2>&1
mkdir -p "$tmp/lock/wh" "$tmp/slock/wh"
lockci="host=127.0.0.1 port=$pgport user=postgres dbname=txn_lock"
echo "$lockci" >"$tmp/lock/wh/catalog-uri"
catalog_lock_case catalog_lock "$tmp/lock" hold_pg "INSERT INTO lk VALUES (2)" "CREATE TABLE lk2 (b int)"
catalog_lock_case sqlite_catalog_lock "$tmp/slock" hold_sqlite "DELETE FROM lk WHERE a = 1" "CREATE TABLE lk2 (b int)"

# ---- connecting to the catalog is bounded by connect_timeout ----------------
# A catalog address that accepts the TCP connection and never answers:
# floe serve's catalog open gives up after the URI's connect_timeout (the
# connection is polled, PQconnectPoll, which ignores connect_timeout:
# catalog_pg.c applies it) instead of waiting for the startup reply.
mkdir -p "$tmp/silent/wh"
$PY -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(60)' >"$tmp/silent/port" &
silent=$!
for _ in $(seq 50); do [ -s "$tmp/silent/port" ] && break; sleep 0.1; done
echo "host=127.0.0.1 port=$(cat "$tmp/silent/port") user=postgres dbname=x connect_timeout=2" \
	>"$tmp/silent/wh/catalog-uri"
t0=$(date +%s%N)
timeout 30 "$FLOE_BIN" serve -D "$tmp/silent/wh" --port 0 >"$tmp/silent/out" 2>&1
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $ms -lt 10000 ] &&
	grep -q 'could not connect to the PostgreSQL catalog: .*timeout expired' "$tmp/silent/out"; then
	pass "catalog_connect_timeout (gave up in $ms ms)"
else
	fail catalog_connect_timeout "exit $rc after $ms ms" "$tmp/silent/out"
fi
kill "$silent" 2>/dev/null
wait "$silent" 2>/dev/null

# ---- concurrency: two floe nodes, one warehouse, one PostgreSQL catalog -------
for t in lost_update append_storm bank unique_keys cow_keys copy_keys buffer_keys buffer_key_race; do
	psql -X -q "$pgci" -c "CREATE DATABASE txn_$t" >/dev/null 2>&1
	wh="$tmp/wh_$t"
	mkdir -p "$wh"
	echo "host=127.0.0.1 port=$pgport user=postgres dbname=txn_$t" >"$wh/catalog-uri"
	cis=()
	for n in 1 2; do
		if start_server "$wh" "$tmp/${t}_$n"; then
			cis+=("host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10")
		else
			fail "$t" "floe serve $n did not start" "$tmp/${t}_$n.err"
		fi
	done
	if [ ${#cis[@]} -eq 2 ]; then
		if timeout 300 $PY tests/txn/concurrency.py "$t" "${cis[@]}" >"$tmp/$t.out" 2>&1; then
			pass "$t ($(grep '^ok '"$t"' ' "$tmp/$t.out" | head -1 | cut -d' ' -f3-); $(grep '^# ' "$tmp/$t.out" | cut -d: -f2-))"
		else
			fail "$t" "exit $?" "$tmp/$t.out"
		fi
		for tbl in "$wh"/public/*/; do
			if "$VALIDATE" "$tbl" >"$tmp/validate.out" 2>&1; then
				pass "${t}_iceberg_valid ($(basename "$tbl"))"
			else
				fail "${t}_iceberg_valid" "$(basename "$tbl")" "$tmp/validate.out"
			fi
		done
	fi
	stop_servers
	for n in 1 2; do
		if grep -q "ERROR: \(Address\|Undefined\|Leak\)Sanitizer\|runtime error" "$tmp/${t}_$n.err" 2>/dev/null; then
			fail "${t}_sanitizers" "server $n" "$tmp/${t}_$n.err"
		fi
	done
done

[ $nfail -eq 0 ]
