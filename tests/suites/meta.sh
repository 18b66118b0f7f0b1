#!/usr/bin/env bash
# Iceberg metadata tables and time travel (src/sql/metatables.c) with real
# snapshot ids, which the .test files in tests/sql/meta/ cannot print:
#   - after each of INSERT, INSERT, UPDATE, DELETE, TRUNCATE, the current
#     snapshot id (t$refs) and the rows; then for every snapshot
#     FOR VERSION AS OF id, Spark's VERSION AS OF id and FOR TIMESTAMP AS OF
#     its committed_at give that snapshot's rows, and icebird
#     (iceberg-read --snapshot, a reader nobody here wrote) agrees;
#   - t$snapshots ids/parents/operations equal the metadata.json file's;
#   - t$files (a merge-on-read table with a position delete) lists the
#     live files iceberg-validate --files lists, with the same record counts;
#   - CALL rollback_to_snapshot / set_current_snapshot: the rows of the
#     target snapshot, refs main moved, a later INSERT's parent is the
#     target, iceberg-validate finds no error; icebird reads the rows.
# Prints "PASS meta: name" / "FAIL meta: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-meta.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
W=$tmp/wh
rc=0

pass() { echo "PASS meta: $1"; }
fail() { echo "FAIL meta: $1: $2"; rc=1; }
q() { "$FLOE_BIN" -D "$W" -q -A -t -F, -c "$1" 2>&1; }

# A. time travel by id and timestamp, every snapshot
q "CREATE TABLE t (a integer, b text)" >/dev/null
steps=("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')"
       "INSERT INTO t VALUES (4, 'four')"
       "UPDATE t SET b = 'TWO' WHERE a = 2"
       "DELETE FROM t WHERE a = 1"
       "TRUNCATE t")
ids=()
for i in "${!steps[@]}"; do
	q "${steps[$i]}" >/dev/null
	ids[$i]=$(q "SELECT snapshot_id FROM t\$refs WHERE name = 'main'")
	q "SELECT a, b FROM t ORDER BY a" > "$tmp/rows.$i"
done
ok=1
for i in "${!steps[@]}"; do
	id=${ids[$i]}
	q "SELECT a, b FROM t FOR VERSION AS OF $id ORDER BY a" > "$tmp/v.$i"
	cmp -s "$tmp/rows.$i" "$tmp/v.$i" || { ok=0; fail "version-as-of" "snapshot $i ($id): $(head -c 300 "$tmp/v.$i")"; }
	q "SELECT a, b FROM t VERSION AS OF $id ORDER BY a" > "$tmp/s.$i"
	cmp -s "$tmp/rows.$i" "$tmp/s.$i" || { ok=0; fail "spark-version-as-of" "snapshot $i ($id)"; }
	# by time: skipped when another snapshot shares its millisecond
	ts=$(q "SELECT committed_at FROM t\$snapshots WHERE snapshot_id = $id")
	same=$(q "SELECT count(*) FROM t\$snapshots WHERE committed_at = '$ts'")
	if [ "$same" = 1 ]; then
		q "SELECT a, b FROM t FOR TIMESTAMP AS OF '$ts' ORDER BY a" > "$tmp/t.$i"
		cmp -s "$tmp/rows.$i" "$tmp/t.$i" || { ok=0; fail "timestamp-as-of" "snapshot $i at $ts: $(head -c 300 "$tmp/t.$i")"; }
	fi
done
[ $ok = 1 ] && pass "time travel to each of ${#steps[@]} snapshots by id and timestamp"

# icebird reads the same rows of two old snapshots
ok=1
for i in 0 2; do
	$TOOLS/iceberg-read "$W/public/t" --snapshot "${ids[$i]}" --csv 2>/dev/null | tail -n +3 |
		"$PY" -c 'import sys,csv; r=[x for x in csv.reader(sys.stdin)]; r.sort(key=lambda x:int(x[0])); [print(",".join(x)) for x in r]' > "$tmp/ice.$i"
	cmp -s "$tmp/rows.$i" "$tmp/ice.$i" || { ok=0; fail "icebird" "snapshot $i: floe $(tr '\n' ' ' < "$tmp/rows.$i") icebird $(tr '\n' ' ' < "$tmp/ice.$i")"; }
done
[ $ok = 1 ] && pass "icebird reads the rows of old snapshots floe's time travel gives"

# t$snapshots against the metadata file
m=$(ls "$W"/public/t/metadata/*.metadata.json | sort | tail -1)
"$PY" - "$m" > "$tmp/md_snaps" <<'PYEOF'
import json, sys
md = json.load(open(sys.argv[1]))
for s in sorted(md["snapshots"], key=lambda s: s["snapshot-id"]):
    p = s.get("parent-snapshot-id")
    print("%d,%s,%s,%s" % (s["snapshot-id"], "" if p is None else p, s["summary"]["operation"], s["manifest-list"]))
PYEOF
q "SELECT snapshot_id, parent_id, operation, manifest_list FROM t\$snapshots" > "$tmp/fl_snaps"
sort "$tmp/fl_snaps" -o "$tmp/fl_snaps"; sort "$tmp/md_snaps" -o "$tmp/md_snaps"
if cmp -s "$tmp/fl_snaps" "$tmp/md_snaps" && [ "$(wc -l < "$tmp/md_snaps")" = 5 ]; then
	pass "t\$snapshots equals the metadata file's snapshots"
else
	fail "snapshots" "floe $(tr '\n' ' ' < "$tmp/fl_snaps") file $(tr '\n' ' ' < "$tmp/md_snaps")"
fi

# B. t$files of a merge-on-read table against iceberg-validate --files
q "CREATE TABLE m (a integer) WITH ('write.delete.mode' = 'merge-on-read')" >/dev/null
q "INSERT INTO m SELECT g FROM generate_series(1, 10) AS s(g)" >/dev/null
q "INSERT INTO m SELECT g FROM generate_series(11, 20) AS s(g)" >/dev/null
q "DELETE FROM m WHERE a % 3 = 0" >/dev/null
q "SELECT CASE content WHEN 0 THEN 'data' WHEN 1 THEN 'pos-delete' ELSE 'eq-delete' END, file_path, record_count FROM m\$files" | sort > "$tmp/fl_files"
cur=$(q "SELECT snapshot_id FROM m\$refs WHERE name = 'main'")
$TOOLS/iceberg-validate "$W/public/m" --files --snapshot "$cur" 2>/dev/null |
	awk '$1 == "FILE" { print $3 "," $4 "," $5 }' | sort > "$tmp/iv_files"
if cmp -s "$tmp/fl_files" "$tmp/iv_files" && [ "$(wc -l < "$tmp/iv_files")" = 3 ]; then
	pass "t\$files equals iceberg-validate's live files (with a position delete)"
else
	fail "files" "floe $(tr '\n' ' ' < "$tmp/fl_files") iceberg-validate $(tr '\n' ' ' < "$tmp/iv_files")"
fi

# C. rollback
q "CALL rollback_to_snapshot('t', ${ids[1]})" >/dev/null
r1=$(q "SELECT a, b FROM t ORDER BY a")
main=$(q "SELECT snapshot_id FROM t\$refs WHERE name = 'main'")
q "INSERT INTO t VALUES (9, 'nine')" >/dev/null
parent=$(q "SELECT parent_id FROM t\$snapshots WHERE snapshot_id = (SELECT snapshot_id FROM t\$refs WHERE name = 'main')")
anc=$(q "SELECT count(*) FILTER (WHERE is_current_ancestor) FROM t\$history")
ice=$($TOOLS/iceberg-read "$W/public/t" --csv 2>/dev/null | tail -n +3 | sort -n | tr '\n' ' ')
if [ "$r1" = "$(cat "$tmp/rows.1")" ] && [ "$main" = "${ids[1]}" ] && [ "$parent" = "${ids[1]}" ] &&
   [ "$ice" = "1,one 2,two 3,three 4,four 9,nine " ] &&
   $TOOLS/iceberg-validate "$W/public/t" >/dev/null 2>&1; then
	pass "rollback_to_snapshot: old rows, refs, parent of the next commit, icebird, iceberg-validate"
else
	fail "rollback" "rows '$r1' main $main parent $parent (want ${ids[1]}) ancestors $anc icebird '$ice'"
fi
out=$(q "CALL rollback_to_snapshot('t', ${ids[3]})")
q "CALL set_current_snapshot('t', ${ids[3]})" >/dev/null
r3=$(q "SELECT a, b FROM t ORDER BY a")
if echo "$out" | grep -q "not an ancestor" && [ "$r3" = "$(cat "$tmp/rows.3")" ]; then
	pass "rollback_to_snapshot refuses a non-ancestor; set_current_snapshot takes it"
else
	fail "set_current_snapshot" "rollback said '$out'; rows '$r3'"
fi
exit $rc
