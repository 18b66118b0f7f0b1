#!/usr/bin/env bash
# Ingest suite: the insert buffer (src/ingest/, docs/ingest.md) through
# `floe serve` and the shell.
#
#   - crash: tests/clients/ingest_crash.py streams acknowledged INSERTs from
#     two clients while floe serve is killed with SIGKILL 20 times at random
#     moments (its flush thread committing every 100 ms); after the restarts
#     every acknowledged row is present exactly once, and the table passes
#     iceberg-validate --deep and icebird (iceberg-read) reads the same rows
#   - crash_keyed: the same with a PRIMARY KEY table (buffered, keyindex.c):
#     every fourth INSERT re-sends an acknowledged id and must get 23505,
#     across the restarts too; every acknowledged row once; iceberg-validate
#   - read_your_writes: rows one psql session inserted (not yet flushed:
#     staleness 1h) are seen by another session, and by a shell process
#     beside the server (a RocksDB secondary reader); read_consistency =
#     'committed' sees none of them; the shell's DML on that table asks the
#     server to flush it (a flush request), waits, and runs
#   - primary_key_table_buffered: a table with a PRIMARY KEY is buffered
#     (its INSERT is not committed at once); a duplicate of a buffered key,
#     of a committed key and within one INSERT is 23505; INSERT ... SELECT
#     and COPY of a buffered key are 23505 (the direct path's commit checks
#     the buffered keys); after the flush every row is there once
#   - read_cache_follows_appends_and_flushes: the owner's decoded copy of
#     a table's buffered rows (built at its first read) sees later appends
#     and drops what a flush committed
#   - group_commit: tests/clients/ingest_groupcommit.py (12 sessions x 3
#     concurrent INSERT ... SELECT: all acknowledged, rows exactly once,
#     fewer snapshots than statements; iceberg-validate on the table)
#   - txn_blocks_over_flushes: tests/clients/ingest_txn.py (REPEATABLE READ
#     pinned over buffered rows, SERIALIZABLE and FOR UPDATE blocks commit
#     over a flush, as PostgreSQL would let them)
#   - status_view: SHOW INSERT BUFFER STATUS's columns and values (objects,
#     bytes, age, failures, status idle/backoff/dead_lettered, backend)
#   - dead_letter: a buffered table dropped behind floe's back (its catalog
#     row deleted) fails its flushes; after floe.insert_buffer_max_retries
#     failures its rows are dead letters, other tables still flush; DISCARD
#     INSERT BUFFER DEAD LETTERS removes them
#   - backpressure: above floe.insert_buffer_max_bytes an INSERT waits
#     floe.insert_buffer_wait_timeout, then 53400; after a flush it succeeds
#   - manifest_merge_v2/_v3: 26 commits with commit.manifest.min-count-to-merge
#     = 5 leave at most 6 manifests; iceberg-validate --deep and icebird agree
#   - shell_flush_at_exit: a shell's buffered rows are committed when it exits
#   - prepared_params: tests/clients/ingest_params.py, prepared INSERT ...
#     VALUES ($1, ...) (the fast path's bind parameters) on floe and on a
#     PostgreSQL 15 of this run: the same rows, the same errors (42804 /
#     42P08 at Parse, 22P02 / 22003 / 22001 at Bind) for declared int2/4/8,
#     text, varchar, bpchar (not char(1)), numeric, float8 and unspecified
#     parameters; the rows were buffered (SHOW INSERT BUFFER STATUS)
#   - compaction: tests/clients/ingest_compact.py, 10 s of single-row INSERTs
#     (flushes every 400 ms, compaction every 3 small files) beside
#     REPEATABLE READ blocks with an UPDATE and autocommit DELETE/UPDATE:
#     no statement fails (40001 included), rows exactly once, compactions
#     committed; iceberg-validate --deep and icebird on the table
#   - admission_*: tests/clients/ingest_admission.py, floe.max_concurrent_dml
#     (default 0: no cap) and floe.dml_queue_timeout: with a cap of 1 and an
#     open COPY FROM STDIN holding the place, an UPDATE and a keyed INSERT ... SELECT
#     wait, then 53400; a SELECT and a buffered INSERT are not held; a
#     queued DELETE runs once the COPY ends; a waiting UPDATE is cancelled
# Prints "PASS ingest: name" / "FAIL ingest: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
PY=/usr/bin/python3
TOOLS=../shared/tools/interop/bin
tmp=$(mktemp -d /tmp/floe-ingest.XXXXXX)
. tests/tools/floe_server.sh
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-ingestpg.XXXXXX)
srv_pid=
stop_server() {
	if [ -n "$srv_pid" ] && kill -0 "$srv_pid" 2>/dev/null; then
		kill -TERM "$srv_pid" 2>/dev/null
		for _ in $(seq 100); do kill -0 "$srv_pid" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$srv_pid" 2>/dev/null && kill -KILL "$srv_pid" 2>/dev/null
	fi
	wait "$srv_pid" 2>/dev/null
	srv_pid=
}
trap 'stop_server; pg_stop; rm -rf "$tmp"' EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS FLOE_INSERT_BUFFER_ROWS

nfail=0
pass() { echo "PASS ingest: $1"; }
fail() {
	echo "FAIL ingest: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -30 "$3" | sed 's/^/    /'; fi
}
if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL ingest: binary $FLOE_BIN not built"
	exit 1
fi
if ! $PY -c 'import psycopg' 2>/dev/null; then
	echo "FAIL ingest: python3-psycopg missing"
	exit 1
fi

# ---- crash ------------------------------------------------------------------
if timeout 120 $PY tests/clients/ingest_crash.py "$FLOE_BIN" "$tmp/crash" 20 >"$tmp/crash.out" 2>&1; then
	pass "crash_exactly_once ($(grep -m1 '^ok killed' "$tmp/crash.out" | cut -c4-))"
else
	fail crash_exactly_once "exit $?" "$tmp/crash.out"
fi
acked=$(sed -n 's/^ACKED //p' "$tmp/crash.out")
if [ -n "$acked" ] && $TOOLS/iceberg-validate "$tmp/crash/public/crash" --deep >"$tmp/val.out" 2>&1; then
	pass crash_iceberg_validate
else
	fail crash_iceberg_validate "iceberg-validate failed" "$tmp/val.out"
fi
"$FLOE_BIN" -D "$tmp/crash" -c "COPY (SELECT id, v FROM crash ORDER BY id::text || ',' || v) TO STDOUT WITH (FORMAT csv)" >"$tmp/floe.csv" 2>"$tmp/floe.err"
$TOOLS/iceberg-read "$tmp/crash/public/crash" --csv 2>"$tmp/icebird.err" | tail -n +3 >"$tmp/icebird.csv"
if [ -s "$tmp/floe.csv" ] && cmp -s <(sort "$tmp/floe.csv") <(sort "$tmp/icebird.csv"); then
	pass "crash_icebird_same_rows ($(wc -l <"$tmp/floe.csv") rows)"
else
	fail crash_icebird_same_rows "floe $(wc -l <"$tmp/floe.csv") rows, icebird $(wc -l <"$tmp/icebird.csv")" "$tmp/icebird.err"
fi
if timeout 120 $PY tests/clients/ingest_crash.py "$FLOE_BIN" "$tmp/crashk" 20 keyed >"$tmp/crashk.out" 2>&1; then
	pass "crash_keyed_exactly_once ($(grep -m1 '^ok killed' "$tmp/crashk.out" | cut -c4-); $(grep -m1 '^ok acknowledged_key' "$tmp/crashk.out" | cut -c4-))"
else
	fail crash_keyed_exactly_once "exit $?" "$tmp/crashk.out"
fi
if grep -q '^ACKED ' "$tmp/crashk.out" && $TOOLS/iceberg-validate "$tmp/crashk/public/crash" --deep >"$tmp/valk.out" 2>&1; then
	pass crash_keyed_iceberg_validate
else
	fail crash_keyed_iceberg_validate "iceberg-validate failed" "$tmp/valk.out"
fi

# ---- a server for the rest ------------------------------------------------------
wh=$tmp/wh
"$FLOE_BIN" serve -D "$wh" --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
srv_pid=$!
port=
for _ in $(seq 100); do
	port=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$tmp/serve.out" 2>/dev/null)
	[ -n "$port" ] && break
	sleep 0.1
done
[ -z "$port" ] && { fail start "floe serve did not start" "$tmp/serve.err"; exit 1; }
q() { psql -X -q -A -t -F '|' -h 127.0.0.1 -p "$port" -U tester floe -v ON_ERROR_STOP=1 "$@" 2>&1; }
# Each buffered INSERT goes in a -c of its own: a string of several statements
# is one implicit transaction block (docs/transactions.md), whose INSERTs take
# the direct path.
pre="SET floe.insert_buffer_rows = 100; SET floe.insert_buffer_max_staleness = '1h';"

# ---- read-your-writes across sessions and processes ---------------------------------
q -c "CREATE TABLE ryw (id int, v text)" >/dev/null
q -c "$pre" -c "INSERT INTO ryw VALUES (1, 'a')" -c "INSERT INTO ryw VALUES (2, 'b'), (3, 'c')" >/dev/null
got=$(q -c "SELECT count(*), sum(id) FROM ryw")
committed=$(q -c "SET read_consistency = 'committed'; SELECT count(*) FROM ryw")
shell=$("$FLOE_BIN" -D "$wh" -A -t -c "SELECT count(*) FROM ryw" 2>&1)
shell_c=$("$FLOE_BIN" -D "$wh" -A -t -c "SET read_consistency = 'committed'" -c "SELECT count(*) FROM ryw" 2>&1 | tail -1)
shell_dml=$("$FLOE_BIN" -D "$wh" -c "UPDATE ryw SET v = 'x' WHERE id = 1" 2>&1)
after_dml=$(q -c "SET read_consistency = 'committed'; SELECT count(*), string_agg(v, ',' ORDER BY id) FROM ryw")
if [ "$got" = "3|6" ] && [ "$committed" = 0 ] && [ "$shell" = 3 ] && [ "$shell_c" = 0 ] &&
	[ "$shell_dml" = "UPDATE 1" ] && [ "$after_dml" = "3|x,b,c" ]; then
	pass read_your_writes
else
	fail read_your_writes "session: $got, committed: $committed, shell: $shell / $shell_c, shell DML: $shell_dml, then committed $after_dml"
fi
# the owner's read cache: built at the first read, kept by appends and flushes
q -c "CREATE TABLE rc (id int, v text)" -c "$pre" -c "INSERT INTO rc VALUES (10, 'x')" -c "SELECT count(*) FROM rc" -c "INSERT INTO rc VALUES (11, 'y'), (12, 'z')" >/dev/null
c1=$(q -c "SELECT count(*), sum(id) FROM rc")
q -c "FLUSH INSERT BUFFER rc" -c "$pre" -c "INSERT INTO rc VALUES (13, 'w')" >/dev/null
c2=$(q -c "SELECT count(*), sum(id) FROM rc")
c3=$(q -c "SET read_consistency = 'committed'; SELECT count(*) FROM rc")
if [ "$c1" = "3|33" ] && [ "$c2" = "4|46" ] && [ "$c3" = 3 ]; then
	pass read_cache_follows_appends_and_flushes
else
	fail read_cache_follows_appends_and_flushes "after appends $c1, after a flush and one more $c2, committed $c3"
fi
q -c "FLUSH INSERT BUFFER rc" >/dev/null
q -c "CREATE TABLE ryk (id int PRIMARY KEY, v text)" -c "$pre" -c "INSERT INTO ryk VALUES (1, 'a')" -c "FLUSH INSERT BUFFER ryk" -c "INSERT INTO ryk VALUES (2, 'b')" >/dev/null
kc=$(q -c "SET read_consistency = 'committed'; SELECT count(*) FROM ryk")
kb=$(q -c "SHOW INSERT BUFFER STATUS" | grep -c '^public.ryk|')
dups=""
for sql in "INSERT INTO ryk VALUES (2, 'again')" "INSERT INTO ryk VALUES (1, 'again')" \
	"INSERT INTO ryk VALUES (3, 'x'), (3, 'y')" "INSERT INTO ryk SELECT 2, 'select'"; do
	dups="$dups$(q -c "$pre" -c "$sql" 2>&1 | grep -c 'duplicate key value violates unique constraint "ryk_pkey"')"
done
dups="$dups$(printf '2\tcopy\n' | q -c "COPY ryk FROM STDIN" 2>&1 | grep -c 'Key (id)=(2) already exists')"
q -c "FLUSH INSERT BUFFER ryk" >/dev/null
kr=$(q -c "SELECT string_agg(id || v, ',' ORDER BY id) FROM ryk")
if [ "$kc" = 1 ] && [ "$kb" = 1 ] && [ "$dups" = 11111 ] && [ "$kr" = "1a,2b" ]; then
	pass primary_key_table_buffered
else
	fail primary_key_table_buffered "committed $kc, buffered $kb, 23505 of 5: $dups, rows $kr"
fi
# buffered again for the status view
q -c "$pre" -c "INSERT INTO ryw VALUES (4, 'd')" -c "INSERT INTO ryw VALUES (5, 'e')" >/dev/null

# ---- the status view -----------------------------------------------------------
sleep 0.3
st=$(q -c "SHOW INSERT BUFFER STATUS")
row=$(echo "$st" | grep '^public.ryw|')
IFS='|' read -r name objs bytes age fails status backend <<<"$row"
if [ "$objs" = 2 ] && [ "$bytes" -gt 60 ] && [ "$age" -ge 300 ] && [ "$fails" = 0 ] &&
	[ "$status" = idle ] && [ "$backend" = rocksdb ]; then
	pass "status_view ($row)"
else
	fail status_view "$st"
fi
cols=$(psql -X -h 127.0.0.1 -p "$port" -U tester floe -c "SHOW INSERT BUFFER STATUS" 2>&1 | head -1 | tr -d ' ')
[ "$cols" = "table_name|pending_objects|pending_bytes|oldest_staged_ms|flush_failures|status|backend" ] &&
	pass status_columns || fail status_columns "$cols"
q -c "FLUSH INSERT BUFFER ryw" >/dev/null
after=$(q -c "SET read_consistency = 'committed'; SELECT count(*) FROM ryw")
row=$(q -c "SHOW INSERT BUFFER STATUS" | grep '^public.ryw|')
[ "$after" = 5 ] && case "$row" in "public.ryw|0|0||0|idle|rocksdb"|"") true ;; *) false ;; esac &&
	pass flush_now || fail flush_now "committed $after, status $row"
# group commit: concurrent INSERT ... SELECT into one table share commits
if timeout 180 $PY tests/clients/ingest_groupcommit.py "$port" >"$tmp/gc.out" 2>&1 &&
	$TOOLS/iceberg-validate "$wh/public/gc" --deep >"$tmp/gc.validate" 2>&1; then
	pass "group_commit ($(grep -o 'fewer_snapshots_than_statements ([^)]*)' "$tmp/gc.out"))"
else
	fail group_commit "$(grep -v '^ok ' "$tmp/gc.out" | head -5 | tr '\n' ' ') $(tail -3 "$tmp/gc.validate" 2>/dev/null | tr '\n' ' ')" "$tmp/gc.out"
fi
# transaction blocks beside buffered rows and flushes (what PostgreSQL commits, commits)
if timeout 120 $PY tests/clients/ingest_txn.py "$port" >"$tmp/txn.out" 2>&1; then
	pass "txn_blocks_over_flushes ($(grep -c '^ok ' "$tmp/txn.out") checks)"
else
	fail txn_blocks_over_flushes "$(grep -v '^ok ' "$tmp/txn.out" | head -5 | tr '\n' ' ')" "$tmp/txn.out"
fi

# ---- dead letter ---------------------------------------------------------------
q -c "CREATE TABLE dl (x int); CREATE TABLE ok2 (x int)" >/dev/null
q -c "$pre SET floe.insert_buffer_max_retries = 3;" -c "INSERT INTO dl VALUES (1)" -c "INSERT INTO ok2 VALUES (1)" >/dev/null
sqlite3 "$wh/catalog.db" "DELETE FROM iceberg_tables WHERE table_name = 'dl'"
for i in 1 2; do q -c "FLUSH INSERT BUFFER" >"$tmp/dl$i.out"; done
mid=$(q -c "SHOW INSERT BUFFER STATUS" | grep '^public.dl|')
q -c "FLUSH INSERT BUFFER" >"$tmp/dl3.out"
dead=$(q -c "SHOW INSERT BUFFER STATUS" | grep '^public.dl|')
ok2=$(q -c "SET read_consistency = 'committed'; SELECT count(*) FROM ok2")
q -c "DISCARD INSERT BUFFER DEAD LETTERS" >/dev/null
gone=$(q -c "SHOW INSERT BUFFER STATUS" | grep '^public.dl|')
IFS='|' read -r _ _ _ _ midf mids _ <<<"$mid"
IFS='|' read -r _ deado _ _ deadf deads _ <<<"$dead"
if grep -q 'does not exist' "$tmp/dl1.out" && [ "$midf" = 2 ] && [ "$mids" = backoff ] &&
	[ "$deado" = 1 ] && [ "$deadf" = 3 ] && [ "$deads" = dead_lettered ] && [ "$ok2" = 1 ] &&
	{ [ -z "$gone" ] || echo "$gone" | grep -q '^public.dl|0|'; }; then
	pass "dead_letter (after 2: $mid; after 3: $dead)"
else
	fail dead_letter "after 2: $mid; after 3: $dead; ok2 committed $ok2; after discard: $gone; $(head -2 "$tmp/dl1.out")"
fi

# ---- backpressure --------------------------------------------------------------
q -c "CREATE TABLE bp (x int, pad text)" >/dev/null
bp=$(q -c "$pre SET floe.insert_buffer_max_bytes = '200B'; SET floe.insert_buffer_wait_timeout = '300ms';" \
	-c "INSERT INTO bp VALUES (1, repeat('x', 100))" -c "INSERT INTO bp VALUES (2, repeat('x', 100))" \
	-c "INSERT INTO bp VALUES (3, repeat('x', 100))" 2>&1)
code=$(psql -X -q -h 127.0.0.1 -p "$port" -U tester floe -c "$pre" -c "INSERT INTO bp VALUES (4, 'y')" -v VERBOSITY=verbose 2>&1 | grep -o '53400')
rel=$(q -c "FLUSH INSERT BUFFER" -c "$pre" -c "INSERT INTO bp VALUES (5, 'z')" -c "SELECT count(*) FROM bp")
q -c "SET floe.insert_buffer_max_bytes = '4GB'" >/dev/null
if echo "$bp" | grep -q 'insert buffer is full' && [ "$code" = 53400 ] && [ "$(echo "$rel" | tail -1)" -ge 2 ]; then
	pass "backpressure (53400, released after a flush: $(echo "$rel" | tail -1) rows)"
else
	fail backpressure "inserts: $bp; code: $code; after flush: $rel"
fi

# ---- manifest merging: after many commits the list is short and valid ----------
for fv in 2 3; do
	q -c "CREATE TABLE mm$fv (x int, y text) WITH ('format-version' = '$fv', 'commit.manifest.min-count-to-merge' = '5')" >/dev/null
	for i in $(seq 1 24); do q -c "INSERT INTO mm$fv VALUES ($i, 'v$i')" >/dev/null; done
	q -c "DELETE FROM mm$fv WHERE x % 7 = 0" -c "INSERT INTO mm$fv VALUES (100, 'last')" >/dev/null
	nm=$(q -c "SELECT count(*) FROM mm$fv\$manifests")
	rows=$(q -c "SELECT count(*) FROM mm$fv")
	ib=$($TOOLS/iceberg-read "$wh/public/mm$fv" 2>&1 | head -1 | sed -n 's/.*"rows":\([0-9]*\).*/\1/p')
	if [ "$nm" -le 6 ] && [ "$rows" = 22 ] && [ "$ib" = 22 ] &&
		$TOOLS/iceberg-validate "$wh/public/mm$fv" --deep >"$tmp/mm$fv.out" 2>&1; then
		pass "manifest_merge_v$fv ($nm manifests after 26 commits, iceberg-validate, icebird $ib rows)"
	else
		fail "manifest_merge_v$fv" "$nm manifests, $rows rows, icebird $ib" "$tmp/mm$fv.out"
	fi
done

# ---- prepared INSERTs with bind parameters, typed as PostgreSQL 15 types them ----
if pg_start; then
	if timeout 120 $PY tests/clients/ingest_params.py "host=127.0.0.1 port=$port user=tester dbname=floe" \
		"host=127.0.0.1 port=$pgport user=postgres dbname=postgres" >"$tmp/params.out" 2>&1; then
		objs=$(q -c "SHOW INSERT BUFFER STATUS" | sed -n 's/^public\.ip|\([0-9]*\)|.*/\1/p')
		if [ "${objs:-0}" -ge 30 ]; then
			pass "prepared_params ($(grep -c '^ok ' "$tmp/params.out") checks equal to PostgreSQL 15; $objs buffered INSERTs)"
		else
			fail prepared_params "the INSERTs were not buffered: $objs" "$tmp/params.out"
		fi
	else
		fail prepared_params "exit $?" <(grep -v '^ok ' "$tmp/params.out")
	fi
else
	fail prepared_params "no PostgreSQL 15 to compare with (scripts/pg-test-server.sh)"
fi

# ---- compaction of the flushed small files beside DML and blocks ----------------
if timeout 120 $PY tests/clients/ingest_compact.py "host=127.0.0.1 port=$port user=tester dbname=floe" 10 \
	>"$tmp/compact.out" 2>&1; then
	q -c "SET floe.insert_buffer_compact_files = 16" -c "SET floe.insert_buffer_max_staleness = '1h'" >/dev/null
	crows=$(q -c "SELECT count(*) FROM ct")
	irows=$($TOOLS/iceberg-read "$wh/public/ct" 2>&1 | head -1 | sed -n 's/.*"rows":\([0-9]*\).*/\1/p')
	if $TOOLS/iceberg-validate "$wh/public/ct" --deep >"$tmp/ctval.out" 2>&1 && [ "$crows" = "$irows" ]; then
		pass "compaction ($(grep '^ok' "$tmp/compact.out" | tr '\n' ';' | sed 's/ok //g'); iceberg-validate, icebird $irows rows)"
	else
		fail compaction "floe $crows rows, icebird $irows" "$tmp/ctval.out"
	fi
else
	fail compaction "exit $?" "$tmp/compact.out"
fi

stop_server
if grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$tmp/serve.err"; then
	fail server_sanitizers "report in stderr" "$tmp/serve.err"
else
	pass server_clean_exit
fi

# ---- the shell flushes at exit ---------------------------------------------------
"$FLOE_BIN" -D "$tmp/sh" -c "CREATE TABLE s (x int)" -c "SET floe.insert_buffer_rows = 10" \
	-c "INSERT INTO s VALUES (1)" -c "INSERT INTO s VALUES (2)" >/dev/null 2>"$tmp/sh.err"
n=$("$FLOE_BIN" -D "$tmp/sh" -A -t -c "SET read_consistency = 'committed'" -c "SELECT count(*) FROM s" 2>&1 | tail -1)
snaps=$("$FLOE_BIN" -D "$tmp/sh" -A -t -c 'SELECT count(*) FROM s$snapshots' 2>&1)
[ "$n" = 2 ] && [ "$snaps" = 1 ] && pass "shell_flush_at_exit (one commit)" || fail shell_flush_at_exit "committed $n, snapshots $snaps" "$tmp/sh.err"
# a later process on the emptied buffer hands out no sequence already committed
# (its rows would be dropped as flushed: the buffer's high-water key)
"$FLOE_BIN" -D "$tmp/sh" -c "INSERT INTO s VALUES (3)" >/dev/null 2>>"$tmp/sh.err"
"$FLOE_BIN" -D "$tmp/sh" -c "INSERT INTO s VALUES (4)" >/dev/null 2>>"$tmp/sh.err"
n=$("$FLOE_BIN" -D "$tmp/sh" -A -t -c "SET read_consistency = 'committed'" -c "SELECT string_agg(x::text, ',' ORDER BY x) FROM s" 2>&1 | tail -1)
[ "$n" = "1,2,3,4" ] && pass "sequences_not_reused_after_flush" || fail sequences_not_reused_after_flush "committed rows $n" "$tmp/sh.err"

# ---- admission control for direct-path DML (its own server) ----------------------
mkdir -p "$tmp/adm"
if timeout 120 $PY tests/clients/ingest_admission.py "$FLOE_BIN" "$tmp/adm" >"$tmp/adm.out" 2>&1; then
	:
else
	fail ingest_admission "exit $?" "$tmp/adm.out"
fi
for name in admission_setting admission_no_cap_by_default admission_queue_timeout \
	admission_queued_then_runs admission_cancel_while_waiting; do
	if grep -q "^ok $name\$" "$tmp/adm.out"; then
		pass "$name"
	else
		fail "$name" "$(grep "^not ok $name" "$tmp/adm.out" || echo 'not run')"
	fi
done

[ "$nfail" -eq 0 ]
