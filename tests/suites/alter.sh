#!/usr/bin/env bash
# Schema evolution (ALTER TABLE's column forms, src/sql/alter.c) checked
# with readers nobody here wrote, and the spec's metadata rules asserted on
# the metadata JSON itself.
#
# A. For format versions 1, 2 and 3: a table goes through ADD COLUMN (v3:
#    with a DEFAULT), RENAME COLUMN, DROP COLUMN then ADD COLUMN of the same
#    name, ALTER COLUMN TYPE int -> bigint, SET NOT NULL, UPDATE and DELETE,
#    with an INSERT after each step (v1: INSERT OVERWRITE for the UPDATE).  After every step:
#      - iceberg-validate passes (--deep until a column was promoted: the
#        tool decodes an old file's 4-byte int bound with the promoted
#        type's 8-byte reader and aborts; Iceberg's Java reader widens it)
#      - icebird reads the same rows as floe (icebird resolves by field id
#        and applies initial-default); on v1 not after the INSERT OVERWRITE
#        (icebird 0.3 needs sequence numbers v1 manifests do not have)
#    and at the end, on the metadata JSON: schema ids are distinct and the
#    current one is the newest; every ALTER statement added exactly one
#    schema; last-column-id is the largest field id of any schema; the
#    re-added column got a new id; a v3 column added with DEFAULT 7 has
#    initial-default 7 and write-default 7; time travel to the first
#    snapshot reads it in its own schema (the original column names).
# C. WRITE ORDERED BY s DESC NULLS LAST, id on a partitioned table, then
#    SET PARTITION SPEC: every Parquet file (parquet-dump) is sorted by the
#    order, every manifest entry (avro-dump) records sort_order_id 1, and
#    iceberg-validate --deep and icebird agree.  The same for the order
#    given at CREATE TABLE (WRITE ORDERED BY, WITH (sort_order = ...)),
#    and for the files OPTIMIZE and copy-on-write UPDATE / DELETE / MERGE
#    write.
# B. Two sessions on `floe serve`: a transaction's INSERT whose COMMIT comes
#    after another session's data commit re-bases and succeeds; after
#    another session's ALTER TABLE it fails with 40001 naming the schema
#    change (the commit asserts the schema id it was written for).
#
# Prints "PASS alter: name" / "FAIL alter: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-alter.XXXXXX)
srv_pid=
. tests/tools/floe_server.sh
cleanup() {
	floe_stop "$srv_pid"
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE FLOE_CATALOG PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS FLOE_TABLE_DEFAULTS
status=0

pass() { echo "PASS alter: $1"; }
fail() { echo "FAIL alter: $1: $2"; status=1; }

current_meta() {
	$PY -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT metadata_location FROM iceberg_tables WHERE table_name = ?", (sys.argv[2],)).fetchone()[0])' "$1/catalog.db" "$2"
}

floe() { "$FLOE_BIN" -D "$1" -q -c "$2"; }

# floe's rows and icebird's, as sorted CSV (NULL and '' both empty)
floe_rows() { floe "$1" "COPY (SELECT * FROM $2) TO STDOUT WITH (FORMAT csv)" | LC_ALL=C sort; }
icebird_rows() { "$TOOLS/iceberg-read" "$1" --csv | tail -n +3 | LC_ALL=C sort; }

# ---- A. every step, every format version -----------------------------------
for fv in 1 2 3; do
	wh=$tmp/a$fv
	mkdir -p "$wh"
	def=""
	[ $fv = 3 ] && def=" DEFAULT 7"
	steps=(
		"INSERT INTO t VALUES (1, 'a', 1.5), (2, NULL, 2.5), (3, 'c', NULL)"
		"ALTER TABLE t ADD COLUMN n integer$def|INSERT INTO t VALUES (4, 'd', 4.5, 40)"
		"ALTER TABLE t RENAME COLUMN s TO name|INSERT INTO t VALUES (5, 'e', 5.5, 50)"
		"ALTER TABLE t DROP COLUMN f|INSERT INTO t VALUES (6, 'f', 60)"
		"ALTER TABLE t ADD COLUMN f text|INSERT INTO t VALUES (7, 'g', 70, 'new f')"
		"ALTER TABLE t ALTER COLUMN id TYPE bigint|INSERT INTO t VALUES (8000000000, 'h', 80, 'big')"
		"UPDATE t SET name = 'B' WHERE id = 2|DELETE FROM t WHERE id = 3"
		"ALTER TABLE t ALTER COLUMN name SET NOT NULL|INSERT INTO t VALUES (9, 'i', 90, NULL)"
	)
	# v1 has no row-level UPDATE / DELETE: fill the NULL instead
	[ $fv = 1 ] && steps[6]="INSERT OVERWRITE t SELECT id, coalesce(name, 'B'), n, f FROM t"
	if ! floe "$wh" "CREATE TABLE t (id integer, s text, f real) WITH ('format-version' = '$fv')" >/dev/null; then
		fail "v$fv create" "CREATE TABLE failed"
		continue
	fi
	ok=1 deep=--deep nalter=0 first_snap= icebird=1
	for st in "${steps[@]}"; do
		IFS='|' read -r -a parts <<<"$st"
		for q in "${parts[@]}"; do
			case $q in ALTER*) nalter=$((nalter + 1)) ;; esac
			case $q in *"TYPE bigint"*) deep= ;; esac
			# icebird 0.3 cannot read a v1 table after an overwrite ("iceberg
			# manifest entry missing sequence number"): not a schema matter
			case $fv$q in "1INSERT OVERWRITE"*) icebird=0 ;; esac
			if ! out=$(floe "$wh" "$q" 2>&1); then
				fail "v$fv step" "$q: $out"
				ok=0
				break 2
			fi
		done
		[ -z "$first_snap" ] && first_snap=$(floe "$wh" "COPY (SELECT snapshot_id FROM t\$snapshots) TO STDOUT")
		m=$(current_meta "$wh" t)
		if ! v=$("$TOOLS/iceberg-validate" "$m" $deep 2>&1); then
			fail "v$fv validate after '$st'" "$(echo "$v" | grep -m3 -i 'error\|fail' | tr '\n' ' ')"
			ok=0
		fi
		a=$(floe_rows "$wh" t)
		b=$a
		[ $icebird = 1 ] && b=$(icebird_rows "$m")
		if [ "$a" != "$b" ]; then
			fail "v$fv icebird after '$st'" "floe: $(echo $a) / icebird: $(echo $b)"
			ok=0
		fi
	done
	[ $ok = 1 ] && pass "v$fv: iceberg-validate and icebird agree after every step"
	m=$(current_meta "$wh" t)
	if r=$($PY - "$m" "$nalter" "$fv" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); nalter = int(sys.argv[2]); fv = int(sys.argv[3])
s = m["schemas"]; ids = [x["schema-id"] for x in s]
assert m["format-version"] == fv, "format-version"
assert len(set(ids)) == len(ids), "duplicate schema ids %s" % ids
assert m["current-schema-id"] == max(ids), "current schema is not the newest"
assert len(s) == 1 + nalter, "%d schemas for %d ALTER statements" % (len(s), nalter)
allids = [f["id"] for x in s for f in x["fields"]]
assert m["last-column-id"] == max(allids), "last-column-id %d, max field id %d" % (m["last-column-id"], max(allids))
cur = {f["name"]: f for f in s[-1]["fields"]}
first = {f["name"]: f for f in s[0]["fields"]}
assert cur["f"]["id"] not in [f["id"] for f in s[0]["fields"]], "re-added column f reuses a field id"
assert cur["name"]["id"] == first["s"]["id"], "renamed column changed its id"
assert cur["id"]["type"] == "long" and cur["name"]["required"], "promotion / NOT NULL"
if fv == 3:
    assert cur["n"].get("initial-default") == 7 and cur["n"].get("write-default") == 7, "v3 defaults %s" % cur["n"]
else:
    assert "initial-default" not in cur["n"], "initial-default on v%d" % fv
print("ok")
PY
	); then
		pass "v$fv: schema ids, last-column-id, field ids never reused, defaults"
	else
		fail "v$fv metadata rules" "$r"
	fi
	tt=$(floe "$wh" "COPY (SELECT * FROM t FOR VERSION AS OF $first_snap) TO STDOUT WITH (FORMAT csv, HEADER)" 2>&1 | head -1)
	if [ "$tt" = "id,s,f" ]; then
		pass "v$fv: time travel reads the first snapshot in its own schema"
	else
		fail "v$fv time travel" "header '$tt', expected id,s,f"
	fi
done

# ---- C. sort orders and SET PARTITION SPEC, read by the toolkit ------------
# sort_check NAME WH TABLE: every Parquet file of WH sorted by (s DESC NULLS
# LAST, id) (parquet-dump), every manifest entry of a data file records
# sort_order_id 1 (avro-dump), iceberg-validate --deep, icebird = floe.
sort_check() {
	local name=$1 wh=$2 tb=$3 m bad= f ids v vs a b
	m=$(current_meta "$wh" "$tb")
	for f in $(find "$wh" -name '*.parquet' ! -name '*-deletes*'); do
		"$TOOLS/parquet-dump" "$f" --no-header >"$tmp/rows.csv"
		# s descending with NULLs last, then id ascending
		$PY - "$tmp/rows.csv" <<'PY' || bad="$bad $f"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
key = lambda r: (r[1] == '', [-ord(c) for c in r[1]], int(r[0]))
sys.exit(0 if rows == sorted(rows, key=key) else 1)
PY
	done
	# data files' entries only (content 0; delete files claim no order)
	ids=$(for mf in $(find "$wh" -name '*-m[0-9]*.avro'); do "$TOOLS/avro-dump" "$mf" | tail -n +2; done |
		grep '"content":0' | grep -o '"sort_order_id":[^,}]*' | sort -u | tr '\n' ' ')
	v=$("$TOOLS/iceberg-validate" "$m" --deep 2>&1)
	vs=$?
	# id and s (icebird prints timestamps its own way)
	a=$(floe_rows "$wh" "$tb" | cut -d, -f1,2 | LC_ALL=C sort)
	b=$(icebird_rows "$m" | cut -d, -f1,2 | LC_ALL=C sort)
	if [ -n "$bad" ]; then
		fail "$name" "files not sorted by (s DESC NULLS LAST, id):$bad"
	elif [ "$ids" != '"sort_order_id":1 ' ]; then
		fail "$name" "manifest sort_order_id values: $ids"
	elif [ $vs != 0 ]; then
		fail "$name validate" "$(echo "$v" | grep -m3 -i 'error\|fail' | tr '\n' ' ')"
	elif [ "$a" != "$b" ]; then
		fail "$name icebird" "floe and icebird rows differ"
	else
		return 0
	fi
	return 1
}
wh=$tmp/c
mkdir -p "$wh"
if out=$(floe "$wh" "CREATE TABLE so (id int, s text, ts timestamp) PARTITIONED BY (days(ts));
ALTER TABLE so WRITE ORDERED BY s DESC NULLS LAST, id;
INSERT INTO so SELECT g, (g % 7)::text, timestamp '2024-01-01' + (g % 2) * interval '1 day' FROM generate_series(1, 300) g;
INSERT INTO so VALUES (1000, NULL, '2024-01-01');
ALTER TABLE so SET PARTITION SPEC (hour(ts), bucket(4, id));
INSERT INTO so VALUES (2000, 'x', '2024-01-05 10:00')" 2>&1); then
	sort_check "sort order" "$wh" so &&
		pass "sort order: every file sorted, sort_order_id 1 recorded; SET PARTITION SPEC; iceberg-validate --deep and icebird agree"
else
	fail "sort order" "$out"
fi
# the order given at CREATE TABLE (Spark's clause; WITH (sort_order = ...))
for form in "WRITE ORDERED BY s DESC NULLS LAST, id" "WITH (sort_order = 's DESC NULLS LAST, id')"; do
	wh=$tmp/c-$(echo "$form" | cut -c1-4)
	mkdir -p "$wh"
	if out=$(floe "$wh" "CREATE TABLE so (id int, s text, ts timestamp) PARTITIONED BY (days(ts)) $form;
INSERT INTO so SELECT g, (g % 7)::text, timestamp '2024-01-01' + (g % 2) * interval '1 day' FROM generate_series(1, 300) g;
INSERT INTO so VALUES (1000, NULL, '2024-01-01');
INSERT INTO so VALUES (1001, '3', '2024-01-02'), (1002, NULL, '2024-01-02');
OPTIMIZE so;
UPDATE so SET s = '9' WHERE id % 50 = 0;
DELETE FROM so WHERE id % 31 = 0;
MERGE INTO so USING (SELECT g AS id, (g % 5)::text AS s FROM generate_series(290, 320) g) v ON so.id = v.id WHEN MATCHED THEN UPDATE SET s = v.s WHEN NOT MATCHED THEN INSERT VALUES (v.id, v.s, '2024-01-01')" 2>&1); then
		sort_check "CREATE TABLE ... $form" "$wh" so &&
			pass "CREATE TABLE ... $form, INSERTs, OPTIMIZE, copy-on-write UPDATE / DELETE / MERGE: every file sorted, sort_order_id 1; iceberg-validate --deep and icebird agree"
	else
		fail "CREATE TABLE ... $form" "$out"
	fi
done

# ---- B. two sessions: a commit asserts the schema id -----------------------
if ! $PY -c 'import psycopg' 2>/dev/null; then
	fail "race" "psycopg 3 missing for $PY"
	exit 1
fi
wh=$tmp/b
mkdir -p "$wh"
if ! floe_serve "$tmp/serve" -D "$wh" --port 0; then
	fail "race" "floe serve did not start: $(head -5 "$tmp/serve.err")"
	exit 1
fi
if r=$($PY - "host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=20" <<'PY'
import sys, psycopg
a = psycopg.connect(sys.argv[1], autocommit=True)
b = psycopg.connect(sys.argv[1], autocommit=True)
a.execute("CREATE TABLE r (id int, s text)")
a.execute("INSERT INTO r VALUES (1, 'x')")
# a data commit in between: the transaction re-bases and commits
a.execute("BEGIN"); a.execute("INSERT INTO r VALUES (2, 'y')")
b.execute("INSERT INTO r VALUES (3, 'z')")
a.execute("COMMIT")
n = a.execute("SELECT count(*) FROM r").fetchone()[0]
assert n == 3, "re-based commit: %d rows" % n
# a schema change in between: 40001
a.execute("BEGIN"); a.execute("INSERT INTO r VALUES (NULL, NULL)")
b.execute("ALTER TABLE r ALTER COLUMN s SET NOT NULL")
try:
    a.execute("COMMIT")
    raise SystemExit("COMMIT after a concurrent ALTER TABLE succeeded")
except psycopg.Error as e:
    assert e.sqlstate == "40001", "sqlstate %s: %s" % (e.sqlstate, e)
    assert "schema changed" in str(e), str(e)
n = a.execute("SELECT count(*) FROM r WHERE s IS NULL").fetchone()[0]
assert n == 0, "the NULL row landed under NOT NULL"
# the other way round: an ALTER whose base moved fails (its CAS), nothing half-done
print("ok")
PY
); then
	pass "race: a re-based commit asserts the schema id (40001 after a concurrent ALTER)"
else
	fail "race" "$r"
fi
if ! floe_stop_clean "$srv_pid" "$tmp/serve.err"; then
	fail "server" "exit ${stop_rc:-still running}: $(grep -m2 'AddressSanitizer\|LeakSanitizer\|runtime error' "$tmp/serve.err")"
fi
srv_pid=
exit $status
