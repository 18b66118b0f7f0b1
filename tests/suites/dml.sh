#!/usr/bin/env bash
# UPDATE / DELETE suite (issue 5): what tests/sql/dml/failures.test cannot
# see — the files a statement leaves in the table's folder.
#
# A. A failed UPDATE / DELETE commits nothing and leaves no file: on tables
#    in copy-on-write and merge-on-read mode, format versions 2 and 3
#    (position delete files / deletion vectors), with a small target file
#    size so the writers have finished files when the error comes,
#    statements failing late in a 100,000-row table — 22012 in SET at row
#    99,999, 22012 in RETURNING (UPDATE and DELETE: after rows were
#    written), 21000 (a correlated scalar subquery with two rows for row
#    99,999), 23502 (NOT NULL at row 99,999), 23505 (PRIMARY KEY, checked
#    after every row was written) — must leave the table folder's file list
#    (data, delete and metadata files), the catalog's metadata location and
#    the rows exactly as they were, and no orphan-candidates list.
# B. Unknown commit outcome (08006): with a PostgreSQL catalog whose
#    iceberg_tables UPDATE is stalled by a trigger, the test refuses new
#    connections to the catalog database and terminates floe's catalog
#    backend in the middle of the swap; UPDATE (copy-on-write, merge-on-read
#    v2) and DELETE (merge-on-read v3) then fail with 08006, must keep every
#    data / delete file they wrote (the swap may have landed) and list them
#    in <warehouse>/orphan-candidates; the table is unchanged once the
#    catalog is back.
# C. UPDATE of a partition source column: every live data file's rows
#    (DuckDB) hold the partition value of its manifest entry (avro-dump),
#    copy-on-write v2 and merge-on-read v3 (runs before B).
#
# Prints "PASS dml: name" / "FAIL dml: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED_TOOLS=${FLOE_SHARED:-../shared}/tools/interop/bin
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-dmlsuite.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-dmlpg.XXXXXX)
cleanup() {
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE FLOE_CATALOG PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS FLOE_TABLE_DEFAULTS

pass() { echo "PASS dml: $1"; }
fail() { echo "FAIL dml: $1: $2"; }

# Every file of a table folder with its size, sorted.
files() { (cd "$1" && find . -type f -printf '%p %s\n' | LC_ALL=C sort); }

rows() {   # floe's rows, CSV, sorted
	"$FLOE_BIN" -D "$1" -c "COPY (SELECT * FROM $2) TO STDOUT WITH (FORMAT csv)" | LC_ALL=C sort
}

current_meta() {   # SQLite catalog of warehouse $1, table $2
	$PY -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT metadata_location FROM iceberg_tables WHERE table_name = ?", (sys.argv[2],)).fetchone()[0])' "$1/catalog.db" "$2"
}

# ---- A. failed statements leave nothing --------------------------------
for variant in cow2 cow3 mor2 mor3; do
	case $variant in
	cow2) with="'format-version' = '2'" ;;
	cow3) with="'format-version' = '3'" ;;
	mor2) with="'format-version' = '2', 'write.update.mode' = 'merge-on-read', 'write.delete.mode' = 'merge-on-read'" ;;
	mor3) with="'format-version' = '3', 'write.update.mode' = 'merge-on-read', 'write.delete.mode' = 'merge-on-read'" ;;
	esac
	wh=$tmp/a_$variant
	if ! "$FLOE_BIN" -D "$wh" -c "CREATE TABLE t (id bigint PRIMARY KEY, x integer, v text) WITH ($with, 'write.target-file-size-bytes' = '131072');
INSERT INTO t SELECT g, 0, 'v' || g FROM generate_series(1, 100000) AS s(g);
CREATE TABLE o (id bigint, n integer);
INSERT INTO o VALUES (99999, 1), (99999, 2), (7, 7);" >"$tmp/setup.out" 2>&1; then
		fail "$variant setup" "$(tail -2 "$tmp/setup.out" | tr '\n' ' ')"
		continue
	fi
	before_files=$(files "$wh/public/t")
	before_meta=$(current_meta "$wh" t)
	rows "$wh" t >"$tmp/before.csv"
	while IFS='|' read -r name state sql; do
		out=$("$FLOE_BIN" -D "$wh" -c "$sql" 2>&1)
		got=$(echo "$out" | grep -o 'ERROR:.*' | head -1)
		if ! echo "$out" | grep -q "ERROR"; then
			fail "$variant $name" "no error: $(echo "$out" | tail -1)"
			continue
		fi
		if ! echo "$out" | grep -q "$state"; then
			fail "$variant $name" "expected $state, got $got"
			continue
		fi
		if [ "$(files "$wh/public/t")" != "$before_files" ]; then
			fail "$variant $name" "files changed: $(diff <(echo "$before_files") <(files "$wh/public/t") | grep '^[<>]' | head -3 | tr '\n' ' ')"
			continue
		fi
		if [ "$(current_meta "$wh" t)" != "$before_meta" ]; then
			fail "$variant $name" "the catalog moved"
			continue
		fi
		if [ -e "$wh/orphan-candidates" ]; then
			fail "$variant $name" "orphan-candidates written"
			continue
		fi
		pass "$variant $name leaves no file"
	done <<'EOF'
UPDATE 22012 in SET at row 99999|division by zero|UPDATE t SET x = 1 / (id - 99999)
UPDATE 22012 in RETURNING|division by zero|UPDATE t SET v = 'new' WHERE id % 3 = 0 RETURNING 1 / (id - 99999)
DELETE 22012 in RETURNING|division by zero|DELETE FROM t WHERE id % 2 = 0 RETURNING 1 / (id - 99998)
UPDATE 21000|more than one row|UPDATE t SET x = (SELECT o.n FROM o WHERE o.id = t.id)
UPDATE 23502|violates not-null|UPDATE t SET id = NULLIF(id, 99999)
UPDATE 23505|duplicate key value|UPDATE t SET id = id - 1 WHERE id >= 99990
EOF
	rows "$wh" t >"$tmp/after.csv"
	if cmp -s "$tmp/before.csv" "$tmp/after.csv"; then
		pass "$variant rows unchanged after the failed statements"
	else
		fail "$variant rows" "changed by a failed statement"
	fi
done

# ---- C. UPDATE moving rows across partitions: rows in their files' partitions
# Identity partition on c; UPDATEs set c (rows move) and other columns
# (rows stay); then every live data file's rows, read by DuckDB, hold
# exactly the partition value its manifest entry (avro-dump) gives.
cat >"$tmp/partcheck.py" <<'PYEOF'
import csv, io, json, subprocess, sys
tools, meta = sys.argv[1], sys.argv[2]
m = json.load(open(meta))
cur = m["current-snapshot-id"]
snap = next(s for s in m["snapshots"] if s["snapshot-id"] == cur)
def dump(path):
    return [json.loads(l) for l in subprocess.run([tools + "/avro-dump", path], check=True,
            capture_output=True, text=True).stdout.splitlines()[1:]]
want = {}
for mf in dump(snap["manifest-list"]):
    if mf["content"] != 0:
        continue
    for e in dump(mf["manifest_path"]):
        if e["status"] != 2 and e["data_file"]["content"] == 0:
            want[e["data_file"]["file_path"]] = e["data_file"]["partition"]["c"]
if not want:
    print("no live data files"); sys.exit(1)
sql = " UNION ALL ".join("SELECT '%s' AS f, c FROM read_parquet('%s') GROUP BY c" % (f, f) for f in want)
out = subprocess.run([tools + "/duckdb-sql", sql, "--no-header"], check=True, capture_output=True,
                     text=True).stdout
got = {}
for f, c in csv.reader(io.StringIO(out)):
    got.setdefault(f, set()).add(c)
bad = [(f, want[f], sorted(got.get(f, []))) for f in want if got.get(f, set()) != {want[f]}]
if bad:
    print("file %s: partition c=%s, rows hold %s" % bad[0]); sys.exit(1)
print(len(want))
PYEOF
for variant in cow2 mor3; do
	case $variant in
	cow2) with="'format-version' = '2'" ;;
	mor3) with="'format-version' = '3', 'write.update.mode' = 'merge-on-read'" ;;
	esac
	wh=$tmp/c_$variant
	if ! out=$("$FLOE_BIN" -D "$wh" -c "CREATE TABLE p (id int, c text, n int) PARTITIONED BY (c) WITH ($with);
INSERT INTO p SELECT g, 'p' || (g % 4), g FROM generate_series(1, 2000) AS s(g);
UPDATE p SET c = 'p' || ((id + 1) % 4) WHERE id % 10 = 0;
UPDATE p SET n = -n WHERE id % 7 = 0;
UPDATE p SET c = 'new' FROM (VALUES (3), (4)) AS s(x) WHERE p.id = s.x;" 2>&1); then
		fail "$variant partition move" "$(echo "$out" | tail -2 | tr '\n' ' ')"
		continue
	fi
	meta=$(ls "$wh"/public/p/metadata/*.metadata.json | LC_ALL=C sort | tail -1)
	if ! res=$($PY "$tmp/partcheck.py" "$SHARED_TOOLS" "$meta" 2>&1); then
		fail "$variant partition move" "$res"
		continue
	fi
	pass "$variant UPDATE of the partition column: the rows of all $res live data files lie in their partitions (DuckDB, avro-dump)"
done

# ---- B. 08006: files kept and listed ----------------------------------------
if ! envout=$(scripts/pg-test-server.sh start 2>&1); then
	fail "pg catalog" "could not start PostgreSQL: $(echo "$envout" | tail -1)"
	exit 0
fi
pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
pg() { psql -h 127.0.0.1 -p "$pgport" -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

# unknown_outcome NAME WITH SQL: run SQL on a table created WITH (...)
# with the swap of table t stalled, cut the catalog off in the middle of
# it, check what is left (tests/tools/unknown_outcome.sh).
. tests/tools/unknown_outcome.sh
unknown_outcome() {
	local name=$1 with=$2 sql=$3 db=d_$1 wh=$tmp/b_$1
	catalog_db_new "$db" "$wh" || { fail "$name 08006" "CREATE DATABASE"; return; }
	if ! "$FLOE_BIN" -D "$wh" -c "CREATE TABLE t (id int, v text) WITH ($with);
INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 1000) AS s(g);
INSERT INTO t VALUES (2000, 'x');" >"$tmp/setup.out" 2>&1; then
		fail "$name 08006 setup" "$(tail -2 "$tmp/setup.out" | tr '\n' ' ')"
		return
	fi
	expect_unknown_outcome "$name" "$db" "$wh" "$sql"
}

unknown_outcome update_cow "'format-version' = '2'" "UPDATE t SET v = v || '!' WHERE id % 10 = 0"
unknown_outcome update_mor2 "'format-version' = '2', 'write.update.mode' = 'merge-on-read'" \
	"UPDATE t SET v = 'u' WHERE id > 990"
unknown_outcome delete_mor3 "'format-version' = '3', 'write.delete.mode' = 'merge-on-read'" \
	"DELETE FROM t WHERE id % 7 = 0"

# ---- the table's write.* properties reach every writer of rows ------------
# (data_writer_set_table_properties: INSERT, merge-on-read and copy-on-write
# UPDATE, MERGE, partitioned or not): every live data file is snappy
wh=$tmp/props
if "$FLOE_BIN" -D "$wh" -q -c "CREATE TABLE t (id int, v text) PARTITIONED BY (bucket(2, id))
  WITH ('write.parquet.compression-codec' = 'snappy', 'write.update.mode' = 'merge-on-read')" \
	-c "INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 100) g" \
	-c "UPDATE t SET v = 'c' WHERE id < 10" \
	-c "MERGE INTO t USING (VALUES (5, 'm'), (500, 'n')) s(id, v) ON t.id = s.id
  WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)" \
	-c "ALTER TABLE t SET ('write.update.mode' = 'copy-on-write')" \
	-c "UPDATE t SET v = 'd' WHERE id = 50" >"$tmp/props.out" 2>&1; then
	files=$("$FLOE_BIN" -D "$wh" -A -t -c 'SELECT file_path FROM t$files' | sed "s/.*/'&'/" | paste -sd,)
	codecs=$("$SHARED_TOOLS/duckdb-sql" "SELECT DISTINCT compression FROM parquet_metadata([$files])" \
		--no-header 2>&1 | paste -sd,)
	if [ "$codecs" = SNAPPY ]; then
		pass "write.* properties in every writer ($(echo "$files" | tr ',' '\n' | wc -l) live files snappy)"
	else
		fail "write.* properties" "codecs of the live files: $codecs"
	fi
else
	fail "write.* properties" "$(tail -2 "$tmp/props.out" | tr '\n' ' ')"
fi
exit 0
