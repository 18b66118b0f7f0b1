#!/usr/bin/env bash
# S3 suite (issue 18, object storage): floe with an s3:// warehouse against
# s3rver (../shared/tools/interop/bin/s3-server, on 127.0.0.1, started and
# stopped here by its own state folder), checked with readers nobody here
# wrote (iceberg-validate --deep, iceberg-read --s3rver-dir).
#
#   fileio-*     the S3 client through tests/tools/fileio_cli: put / get of a
#                large object as parallel ranges (the bytes compared), ranges
#                coalesced (request count), multipart upload, head, exists,
#                rm, paginated LIST (max-keys 2), 58P01 for a missing object
#   dml          CREATE / INSERT / UPDATE / DELETE / MERGE on s3://wh/a: rows;
#                nothing of the table on local disk (the state folder holds
#                only catalog.db)
#   validate     iceberg-validate --deep on the table's objects: no errors;
#   read         iceberg-read (icebird) rows == floe's rows
#   time-travel  FOR VERSION AS OF the first snapshot: its rows
#   metadata     t$snapshots / t$files counts
#   optimize     OPTIMIZE: one data file, same rows, validate again
#   orphans-by-last-modified  remove_orphan_files ages objects by their
#                LastModified: an old stray object goes, a fresh one and
#                every reachable (old) object stay; validate again
#   copy         COPY TO / FROM s3:// (CSV), read_parquet('s3://...') of a
#                data file, a large COPY TO through a multipart upload and
#                back; COPY of a missing object: 58P01; outside the
#                warehouse prefix for a non-superuser: 42501 (serve)
#   column-chunk-ranges  a "large" object (FLOE_S3_SPARSE_BYTES=1000) is read
#                by footer and column chunk: fewer bytes than the file, the
#                same answers as a whole read
#   explain      EXPLAIN ANALYZE names the object-store requests: > 0 cold,
#                0 warm (cached)
#   addressing-signing  through the proxy's request log: virtual-host
#                (FLOE_S3_PATH_STYLE=0: bucket.host/key, key percent-encoded)
#                and path-style (host/bucket/key) URLs, SigV4 Authorization
#                with the region's scope, x-amz-security-token from
#                AWS_SESSION_TOKEN, x-amz-content-sha256
#   serve        floe serve -D s3://wh/srv with psycopg: writes and reads
#   faults       through tests/tools/s3_fault_proxy.py (500/503/429, dropped
#                connections before and after the request, delays): every
#                acknowledged INSERT is present exactly once afterwards, the
#                result of UPDATE / DELETE exact, and iceberg-validate --deep
#                finds every referenced object (none missing)
#   nodes        three `floe serve` nodes over one bucket prefix and one
#                PostgreSQL catalog (a throwaway PostgreSQL 15), clients
#                spread over all three (tests/txn/concurrency.py): bank
#                (SERIALIZABLE transfers: the total and the ledger exact),
#                lost_update (autocommit UPDATE v = v + 1: none lost),
#                unique_keys (no PRIMARY KEY twice, every acknowledged row
#                once), append_storm (every acknowledged INSERT once); then
#                iceberg-validate --deep of each table's objects
#
# s3rver needs NODE_OPTIONS=--openssl-legacy-provider for LIST continuation
# tokens (its token cipher is not in OpenSSL 3's default provider).
# Prints "PASS s3: name" / "FAIL s3: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
B=${B:-build-san}
CLI=$PWD/$B/tests/tools/fileio_cli
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-s3.XXXXXX)
export S3_SERVER_STATE_DIR=$tmp/s3state
srv_pid=; proxy_pid=
. tests/tools/floe_server.sh
node_pids=()
cleanup() {
	floe_stop "$srv_pid"
	for p in "${node_pids[@]}"; do floe_stop "$p"; done
	pg_stop
	[ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null && wait "$proxy_pid" 2>/dev/null
	"$TOOLS/s3-server" stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

pass() { echo "PASS s3: $1"; }
fail() { echo "FAIL s3: $1: $2"; }
check() { # name expected actual
	if [ "$2" == "$3" ]; then pass "$1"; else fail "$1" "expected [$(echo "$2" | tr '\n' ' ')] got [$(echo "$3" | tr '\n' ' ' | head -c 600)]"; fi
}

mkdir -p "$tmp/objects"
out=$(NODE_OPTIONS=--openssl-legacy-provider "$TOOLS/s3-server" start "$tmp/objects" 0 --bucket wh 2>&1)
endpoint=$(echo "$out" | sed -n 's/.*endpoint=\([^ ]*\).*/\1/p')
if [ -z "$endpoint" ]; then
	fail "s3rver" "did not start: $out"
	exit 1
fi
unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL_S3 FLOE_S3_PATH_STYLE
export AWS_ENDPOINT_URL=$endpoint AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
export FLOE_STATE_DIR=$tmp/state

# ---- fileio: the client itself ----
head -c 3000000 /dev/urandom >"$tmp/big.bin"
"$CLI" put s3://wh/io/big.bin "$tmp/big.bin" 2>/dev/null
st=$(FLOE_S3_CHUNK_BYTES=1000000 "$CLI" get s3://wh/io/big.bin 2>"$tmp/err" >"$tmp/got.bin"; cat "$tmp/err")
if cmp -s "$tmp/big.bin" "$tmp/got.bin" && [[ $st == *"gets=3 "* ]]; then pass "fileio-parallel-get"
else fail "fileio-parallel-get" "bytes differ or not 3 GETs: $st"; fi
want=$( (dd if="$tmp/big.bin" bs=1 skip=10 count=5; dd if="$tmp/big.bin" bs=1 skip=100 count=10; dd if="$tmp/big.bin" bs=1 skip=2500000 count=3) 2>/dev/null | od -An -tx1)
got=$("$CLI" ranges s3://wh/io/big.bin 10:5 100:10 2500000:3 2>"$tmp/err" | od -An -tx1)
if [ "$want" == "$got" ] && grep -q "gets=2 " "$tmp/err"; then pass "fileio-ranges-coalesced"
else fail "fileio-ranges-coalesced" "$(cat "$tmp/err")"; fi
head -c 11000000 /dev/urandom >"$tmp/mp.bin"
FLOE_S3_MULTIPART_BYTES=5000000 FLOE_S3_PART_BYTES=5242880 "$CLI" put s3://wh/io/mp.bin "$tmp/mp.bin" 2>"$tmp/err"
if "$CLI" get s3://wh/io/mp.bin 2>/dev/null | cmp -s - "$tmp/mp.bin" && grep -q "puts=5 " "$tmp/err"; then
	pass "fileio-multipart"
else fail "fileio-multipart" "$(cat "$tmp/err")"; fi
check "fileio-head" "11000000" "$("$CLI" head s3://wh/io/mp.bin 2>/dev/null)"
for i in 1 2 3 4 5; do echo "$i" >"$tmp/f$i"; "$CLI" put "s3://wh/io/l/f$i" "$tmp/f$i" 2>/dev/null; done
"$CLI" rm s3://wh/io/l/f1 2>/dev/null
"$CLI" exists s3://wh/io/l/f1 2>/dev/null; e1=$?
"$CLI" exists s3a://wh/io/l/f2 2>/dev/null; e2=$?
check "fileio-rm-exists" "1 0" "$e1 $e2"
got=$(FLOE_S3_LIST_MAX_KEYS=2 "$CLI" ls s3://wh/io/l/ 2>"$tmp/err" | cut -f1 | tr '\n' ' ')
if [ "$got" == "s3://wh/io/l/f2 s3://wh/io/l/f3 s3://wh/io/l/f4 s3://wh/io/l/f5 " ] && grep -q "lists=2 " "$tmp/err"; then
	pass "fileio-list-paginated"
else fail "fileio-list-paginated" "$got $(cat "$tmp/err")"; fi
got=$("$CLI" get s3://wh/io/none 2>&1 >/dev/null | grep ERROR)
check "fileio-missing" "ERROR 58P01 could not read object \"s3://wh/io/none\": no such object" "$got"

# ---- SQL on s3://wh/a ----
q() { "$FLOE_BIN" -D s3://wh/a -At -F, "$@" 2>&1; }
# one commit per statement (the insert buffer off: the snapshot counts and
# time travel below are per INSERT, and nothing is kept locally)
got=$(q -c "SET floe.insert_buffer_rows = 0" -c "CREATE TABLE t (id int, s text)" -c "INSERT INTO t VALUES (1,'a'),(2,'b'),(3,'c')" \
	-c "INSERT INTO t VALUES (4,'d')" -c "UPDATE t SET s = 'B' WHERE id = 2" -c "DELETE FROM t WHERE id = 3" \
	-c "MERGE INTO t USING (VALUES (4,'D'),(5,'e')) v(id,s) ON t.id = v.id WHEN MATCHED THEN UPDATE SET s = v.s WHEN NOT MATCHED THEN INSERT VALUES (v.id, v.s)" \
	-c "SELECT * FROM t ORDER BY id")
check "dml" "INSERT 0 3
INSERT 0 1
UPDATE 1
DELETE 1
MERGE 2
1,a
2,B
4,D
5,e" "$(echo "$got" | grep -v '^CREATE' | grep -v '^SET$')"
local_files=$(cd "$tmp/state" && find . -type f | sort | tr '\n' ' ')
check "dml-nothing-local" "./catalog.db " "$local_files"

meta_of() { # table -> local s3rver file of its current metadata
	local m
	m=$($PY -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select metadata_location from iceberg_tables where table_name=?", (sys.argv[2],)).fetchone()[0])' "$1" "$2")
	echo "$tmp/objects/${m#s3://}._S3rver_object"
}
validate() { # name table statedir
	local m out
	m=$(meta_of "$3/catalog.db" "$2")
	if out=$("$TOOLS/iceberg-validate" "$m" --deep --s3rver-dir "$tmp/objects" 2>&1); then pass "$1"
	else fail "$1" "$(echo "$out" | grep -E 'ERROR|FAIL' | head -3 | tr '\n' ' ')"; fi
}
validate validate t "$tmp/state"
m=$(meta_of "$tmp/state/catalog.db" t)
ice=$("$TOOLS/iceberg-read" "$m" --s3rver-dir "$tmp/objects" --csv 2>&1 | tail -n +3 | tr -d '"')
check "read" "$(q -c "SELECT * FROM t ORDER BY id")" "$ice"

first=$(q -c "SELECT snapshot_id FROM t\$snapshots ORDER BY committed_at, snapshot_id LIMIT 1")
check "time-travel" "1,a
2,b
3,c" "$(q -c "SELECT * FROM t FOR VERSION AS OF $first ORDER BY id")"
check "metadata" "5" "$(q -c "SELECT count(*) FROM t\$snapshots")"

got=$(q -c "OPTIMIZE t" >/dev/null; q -c "SELECT count(*) FROM t\$files" -c "SELECT * FROM t ORDER BY id")
check "optimize" "1
1,a
2,B
4,D
5,e" "$got"
validate optimize-validate t "$tmp/state"

# remove_orphan_files on S3 ages objects by their LastModified (s3rver: the
# mtime of its object file): a stray object made 4 days old goes, a fresh one
# stays, every object the metadata reaches stays (also when old)
m=$($PY -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select metadata_location from iceberg_tables where table_name=?", (sys.argv[2],)).fetchone()[0])' "$tmp/state/catalog.db" t)
tloc=${m%/metadata/*}
echo junk >"$tmp/junk"
"$CLI" put "$tloc/data/old-orphan.parquet" "$tmp/junk" 2>/dev/null
"$CLI" put "$tloc/data/fresh-orphan.parquet" "$tmp/junk" 2>/dev/null
find "$tmp/objects/${tloc#s3://}" -name '*._S3rver_object' ! -name 'fresh-orphan*' -exec touch -d '4 days ago' {} +
before=$(q -c "SELECT * FROM t ORDER BY id")
dry=$(q -c "CALL remove_orphan_files(table => 't', dry_run => true)")
real=$(q -c "CALL remove_orphan_files('t')")
"$CLI" exists "$tloc/data/old-orphan.parquet" 2>/dev/null; e_old=$?
"$CLI" exists "$tloc/data/fresh-orphan.parquet" 2>/dev/null; e_fresh=$?
check "orphans-by-last-modified" "$tloc/data/old-orphan.parquet
$tloc/data/old-orphan.parquet
1 0
$before" "$dry
$real
$e_old $e_fresh
$(q -c "SELECT * FROM t ORDER BY id")"
validate orphans-validate t "$tmp/state"

# ---- COPY and read_parquet ----
got=$(q -c "COPY t TO 's3://wh/a/out/t.csv' WITH (FORMAT csv)" -c "CREATE TABLE t2 (id int, s text)" \
	-c "COPY t2 FROM 's3://wh/a/out/t.csv' WITH (FORMAT csv)" -c "SELECT * FROM t2 ORDER BY id")
check "copy" "COPY 4
CREATE TABLE
COPY 4
1,a
2,B
4,D
5,e" "$got"
dfile=$(q -c "SELECT file_path FROM t\$files LIMIT 1")
check "read-parquet" "4,12" "$(q -c "SELECT count(*), sum(id) FROM read_parquet('$dfile')")"
got=$(FLOE_S3_MULTIPART_BYTES=5000000 FLOE_S3_PART_BYTES=5242880 q \
	-c "COPY (SELECT g, repeat('x', 90) FROM generate_series(1, 70000) g) TO 's3://wh/a/out/big.csv'" \
	-c "CREATE TABLE big (g int, s text)" -c "COPY big FROM 's3://wh/a/out/big.csv'" -c "SELECT count(*), sum(g) FROM big")
check "copy-multipart" "COPY 70000
CREATE TABLE
COPY 70000
70000,2450035000" "$got"
# a large object read by column chunk (FLOE_S3_SPARSE_BYTES=1000: every
# data file counts as large): fewer bytes than a whole read, same answers
q -c "CREATE TABLE w AS SELECT g, md5(CAST(g AS text)) || md5(CAST(g + 1 AS text)) AS s FROM generate_series(1, 50000) g" >/dev/null
rd() { "$FLOE_BIN" -D s3://wh/a -At -c "EXPLAIN ANALYZE SELECT sum(g) FROM w" 2>&1 | sed -n 's/^Object Store:.* read=\([0-9]*\) bytes$/\1/p'; }
sparse=$(FLOE_S3_SPARSE_BYTES=1000 rd)
whole=$(FLOE_S3_SPARSE_BYTES=100000000000 rd)
ans=$(FLOE_S3_SPARSE_BYTES=1000 q -c "SELECT sum(g), count(*), max(s), min(g) FROM w WHERE g % 7 = 3")
want=$(FLOE_S3_SPARSE_BYTES=100000000000 q -c "SELECT sum(g), count(*), max(s), min(g) FROM w WHERE g % 7 = 3")
if [ -n "$sparse" ] && [ -n "$whole" ] && [ "$sparse" -gt 0 ] && [ $((sparse * 3)) -lt "$whole" ] && [ "$ans" == "$want" ] && [ -n "$want" ]; then
	pass "column-chunk-ranges (read $sparse bytes, whole $whole)"
else fail "column-chunk-ranges" "sparse=[$sparse] whole=[$whole] ans=[$ans] want=[$want]"; fi
got=$(q -c "COPY t2 FROM 's3://wh/a/out/none.csv'" | head -1)
check "copy-missing" "ERROR:  could not read object \"s3://wh/a/out/none.csv\": no such object" "$got"

# ---- EXPLAIN ANALYZE counts requests ----
got=$(q -c "EXPLAIN ANALYZE SELECT * FROM t WHERE id = 2" -c "EXPLAIN ANALYZE SELECT * FROM t WHERE id = 2" | grep '^Object Store' | sed 's/ (.*//' | tr '\n' ' ')
if [[ $got =~ ^Object\ Store:\ requests=([1-9][0-9]*)\ Object\ Store:\ requests=0\ $ ]]; then pass "explain"
else fail "explain" "$got"; fi

# ---- floe serve over s3:// ----
if ! floe_serve "$tmp/serve" -D s3://wh/srv --catalog "$tmp/srvstate" --port 0; then
	fail "serve" "floe serve did not start: $(head -3 "$tmp/serve.err")"
else
	got=$($PY - "$port" <<'EOF' 2>&1
import sys, psycopg
c = psycopg.connect(host="127.0.0.1", port=int(sys.argv[1]), user="floe", dbname="floe", autocommit=True)
c.execute("CREATE TABLE s (id int, v text)")
c.execute("INSERT INTO s SELECT g, 'v' || g FROM generate_series(1, 100) g")
c.execute("UPDATE s SET v = 'u' WHERE id <= 10")
with c.transaction():
    c.execute("INSERT INTO s VALUES (101, 'tx')")
    c.execute("DELETE FROM s WHERE id = 100")
print(c.execute("SELECT count(*), sum(id), count(*) FILTER (WHERE v = 'u') FROM s").fetchone())
EOF
)
	check "serve" "(100, 5051, 10)" "$got"
	grep -q "local state folder $tmp/srvstate" "$tmp/serve.out" && pass "serve-banner" || fail "serve-banner" "$(head -2 "$tmp/serve.out")"
	floe_stop "$srv_pid"; srv_pid=
	validate serve-validate s "$tmp/srvstate"
fi

# ---- addressing and signing, seen by a logging proxy (no faults) ----
$PY tests/tools/s3_fault_proxy.py "${endpoint##*:}" --port-file "$tmp/log.port" --log "$tmp/req.log" \
	>/dev/null 2>&1 &
proxy_pid=$!
for _ in $(seq 1 50); do [ -s "$tmp/log.port" ] && break; sleep 0.1; done
lport=$(cat "$tmp/log.port" 2>/dev/null)
AWS_ENDPOINT_URL=http://localhost:$lport FLOE_S3_PATH_STYLE=0 AWS_SESSION_TOKEN=tok AWS_REGION=eu-west-3 \
	"$CLI" head "s3://wh/io/l/f%2.txt" >/dev/null 2>&1
AWS_ENDPOINT_URL=127.0.0.1:$lport "$CLI" head s3a://wh/io/l/f2 >/dev/null 2>&1
kill "$proxy_pid"; wait "$proxy_pid" 2>/dev/null; proxy_pid=
d=$(date -u +%Y%m%d)
check "addressing-signing" "HEAD /io/l/f%252.txt wh.localhost:$lport AWS4-HMAC-SHA256:S3RVER/$d/eu-west-3/s3/aws4_request token UNSIGNED-PAYLOAD
HEAD /wh/io/l/f2 127.0.0.1:$lport AWS4-HMAC-SHA256:S3RVER/$d/us-east-1/s3/aws4_request - UNSIGNED-PAYLOAD" "$(cat "$tmp/req.log" 2>&1)"

# ---- faults: a proxy that fails, drops and delays requests ----
$PY tests/tools/s3_fault_proxy.py "${endpoint##*:}" --seed 11 --fail 0.1 --drop 0.05 --drop-after 0.05 \
	--delay 0.08 --delay-ms 300 --port-file "$tmp/proxy.port" >/dev/null 2>"$tmp/proxy.err" &
proxy_pid=$!
for _ in $(seq 1 50); do [ -s "$tmp/proxy.port" ] && break; sleep 0.1; done
pport=$(cat "$tmp/proxy.port" 2>/dev/null)
args=(-c "CREATE TABLE f (id int)")
for i in $(seq 1 20); do args+=(-c "INSERT INTO f VALUES ($i)"); done
args+=(-c "UPDATE f SET id = id + 100 WHERE id <= 5" -c "DELETE FROM f WHERE id = 20")
AWS_ENDPOINT_URL=http://127.0.0.1:$pport FLOE_STATE_DIR=$tmp/fstate FLOE_S3_RETRY_BASE_MS=10 FLOE_S3_TIMEOUT_MS=5000 \
	"$FLOE_BIN" -D s3://wh/faults -At "${args[@]}" >"$tmp/faults.out" 2>&1
kill "$proxy_pid"; wait "$proxy_pid" 2>/dev/null; proxy_pid=
nfaults=$(sed -n 's/.*requests=\([0-9]*\) fail=\([0-9]*\) drop=\([0-9]*\) drop_after=\([0-9]*\).*/\2 \3 \4/p' "$tmp/proxy.err")
acked=$(grep -c '^INSERT 0 1$' "$tmp/faults.out")
# what each acknowledged statement promises (the rows read without the proxy)
rows=$(FLOE_STATE_DIR=$tmp/fstate "$FLOE_BIN" -D s3://wh/faults -At -c "SELECT id FROM f ORDER BY id" 2>&1 | tr '\n' ' ')
want=""
if grep -q '^UPDATE 5$' "$tmp/faults.out" && grep -q '^DELETE 1$' "$tmp/faults.out" && [ "$acked" == 20 ]; then
	want="$(seq 6 19 | tr '\n' ' ')$(seq 101 105 | tr '\n' ' ')"
fi
if [ -n "$want" ] && [ "$rows" == "$want" ]; then
	pass "faults-commits ($nfaults fail/drop/drop-after injected, all statements acknowledged)"
else
	fail "faults-commits" "acked=$acked rows=[$rows] faults=[$nfaults] $(grep ERROR "$tmp/faults.out" | head -2)"
fi
case "$nfaults" in "0 0 0"|"") fail "faults-injected" "the proxy injected nothing: $(cat "$tmp/proxy.err")" ;; *) pass "faults-injected" ;; esac
validate faults-validate f "$tmp/fstate"

# ---- nodes: three floe serve over one bucket and one PostgreSQL catalog ----
# its own folder beside $tmp (mode 700: the server's user could not enter it)
export FLOE_PG_DIR=$(mktemp -u /tmp/floe-s3pg.XXXXXX) FLOE_PG_MAX_CONNECTIONS=100
if ! pg_start; then
	fail nodes "cannot start PostgreSQL 15"
else
	pgci="host=127.0.0.1 port=$pgport user=postgres"
	for t in bank lost_update unique_keys append_storm; do
		psql -X -q "$pgci dbname=postgres" -c "CREATE DATABASE s3_$t" >/dev/null 2>&1
		cis=(); node_pids=()
		for n in 1 2 3; do
			if FLOE_STATE_DIR=$tmp/nstate_${t}_$n floe_serve "$tmp/node_${t}_$n" -D "s3://wh/nodes_$t" \
				--catalog "$pgci dbname=s3_$t" --port 0; then
				node_pids+=("$srv_pid")
				cis+=("host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10")
			else
				fail "nodes_$t" "floe serve $n did not start: $(tail -2 "$tmp/node_${t}_$n.err")"
			fi
		done
		if [ ${#cis[@]} -eq 3 ]; then
			if timeout 300 $PY tests/txn/concurrency.py "$t" "${cis[@]}" >"$tmp/nodes_$t.out" 2>&1; then
				pass "nodes_$t ($(grep '^ok ' "$tmp/nodes_$t.out" | head -1 | cut -d' ' -f2-); 3 nodes)"
			else
				fail "nodes_$t" "$(grep -v '^ok ' "$tmp/nodes_$t.out" | head -3 | tr '\n' ' ')"
			fi
			for loc in $(psql -X -At "$pgci dbname=s3_$t" -c "SELECT metadata_location FROM iceberg_tables ORDER BY table_name"); do
				if out=$("$TOOLS/iceberg-validate" "$tmp/objects/${loc#s3://}._S3rver_object" --deep --s3rver-dir "$tmp/objects" 2>&1); then
					pass "nodes_${t}_valid ($(basename "$(dirname "$(dirname "$loc")")"))"
				else
					fail "nodes_${t}_valid" "$loc: $(echo "$out" | grep -E 'ERROR|FAIL' | head -3 | tr '\n' ' ')"
				fi
			done
		fi
		for p in "${node_pids[@]}"; do floe_stop "$p"; done
		node_pids=()
		for n in 1 2 3; do
			if grep -q "ERROR: \(Address\|Undefined\|Leak\)Sanitizer\|runtime error" "$tmp/node_${t}_$n.err" 2>/dev/null; then
				fail "nodes_${t}_sanitizers" "node $n: $(grep -m1 -A3 Sanitizer "$tmp/node_${t}_$n.err" | tr '\n' ' ')"
			fi
		done
	done
fi
