#!/usr/bin/env bash
# Maintenance suite (issue 15: VACUUM, expire_snapshots, remove_orphan_files),
# checked with readers nobody here wrote.
#
# A. v1, v2 and v3 tables (v2 merge-on-read: position deletes), seven
#    commits, history.expire.max-snapshot-age-ms = 1 and
#    min-snapshots-to-keep = 3, then VACUUM.  Independently of floe (the
#    metadata JSON and avro-dump's reading of every manifest list and
#    manifest), the files reachable from the kept snapshots and those
#    reachable only from the expired ones are computed; then:
#      - the table folder after = before - the expired-only files + the
#        new metadata file (nothing reachable deleted, nothing unreachable
#        left), and every metadata-log file exists
#      - spec rules: 3 snapshots kept (the head and its ancestors), every
#        snapshot-log entry names a kept snapshot, refs.main = current,
#        metadata-log grew by the previous file
#      - iceberg-validate --deep passes on every kept snapshot
#      - icebird reads the same rows as floe, now and at each kept snapshot
#        (iceberg-read --snapshot vs FOR VERSION AS OF)
# B. remove_orphan_files: a stray file older than 3 days and a fresh one;
#    dry_run lists only the old one and deletes nothing; the real run
#    deletes it, keeps the fresh one and every reachable file.
# C. CALL expire_snapshots(older_than, retain_last) reports the files it
#    deleted (its counts = the files gone from the folder).
# D. write.metadata.delete-after-commit.enabled + previous-versions-max:
#    the metadata log is cut, the cut files deleted, the others kept.
# E. refs (v1/v2/v3): a tag with RETAIN, a branch WITH SNAPSHOT RETENTION,
#    a branch past its max-ref-age; after VACUUM the metadata JSON holds
#    the spec's ref fields, the expired ref is gone, the snapshots the refs
#    retain stay, iceberg-validate --deep passes and icebird (DuckDB for
#    v1) reads each ref's snapshot as floe's FOR VERSION AS OF 'ref' does.
# F. floe serve's automatic pass (floe.maintenance.*, sql/automaint.h):
#    see the section's comment.
#
# Prints "PASS maintenance: name" / "FAIL maintenance: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-maint.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS maintenance: $1"; }
fail() { echo "FAIL maintenance: $1: $2"; }

current_meta() {
	$PY -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT metadata_location FROM iceberg_tables WHERE table_name = ?", (sys.argv[2],)).fetchone()[0])' "$1/catalog.db" "$2"
}

# reach.py META OUT: for each snapshot of metadata file META, the files it
# reaches, read with avro-dump: "<snapshot-id> <live|dead> <path>" lines
# (manifest lists and manifests count as live).
cat >"$tmp/reach.py" <<'EOF'
import json, subprocess, sys
tools, meta = sys.argv[1], sys.argv[2]
m = json.load(open(meta))
def dump(path):
    out = subprocess.run([tools + "/avro-dump", path], capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines()[1:] if l.strip()]
cache = {}
for s in m.get("snapshots", []):
    sid = s["snapshot-id"]
    mans = []
    if "manifest-list" in s:
        print(sid, "live", s["manifest-list"])
        mans = [r["manifest_path"] for r in dump(s["manifest-list"])]
    else:
        mans = s.get("manifests", [])
    for mp in mans:
        print(sid, "live", mp)
        if mp not in cache:
            cache[mp] = dump(mp)
        for e in cache[mp]:
            print(sid, "dead" if e["status"] == 2 else "live", e["data_file"]["file_path"])
EOF

# the folder's files, sorted
listing() { find "$1" -type f | LC_ALL=C sort; }
rows() { "$FLOE_BIN" -D "$1" -c "COPY (SELECT * FROM $2) TO STDOUT WITH (FORMAT csv)" | LC_ALL=C sort; }
icebird() { "$TOOLS/iceberg-read" "$@" --csv | tail -n +3 | LC_ALL=C sort; }
# icebird cannot read v1 manifests (no sequence numbers): for the v1 table
# (copy-on-write, no delete files) the rows of snapshot $2 are DuckDB's
# reading of the live files iceberg-validate lists
duckrows() {
	local files
	files=$("$TOOLS/iceberg-validate" "$1" --snapshot "$2" --files 2>/dev/null |
		awk '$1 == "FILE" && $3 == "data" { printf "%s\x27%s\x27", (n++ ? "," : ""), $4 }')
	"$TOOLS/duckdb-sql" "SELECT * FROM read_parquet([$files])" --no-header | LC_ALL=C sort
}

# ---- A. VACUUM on v1 / v2 / v3 ---------------------------------------------
for v in 1 2 3; do
	name="vacuum v$v"
	wh=$tmp/a$v
	mode=copy-on-write
	[ "$v" = 2 ] && mode=merge-on-read
	sql="CREATE TABLE t (id int, v text) WITH ('format-version' = '$v', 'write.delete.mode' = '$mode', 'write.update.mode' = '$mode', 'history.expire.max-snapshot-age-ms' = '1', 'history.expire.min-snapshots-to-keep' = '3');
INSERT INTO t SELECT g, 'a' || g FROM generate_series(1, 50) g;
INSERT INTO t SELECT g, 'b' || g FROM generate_series(51, 60) g;
DELETE FROM t WHERE id % 7 = 0;
INSERT INTO t VALUES (100, 'c');
UPDATE t SET v = 'u' WHERE id < 5;
INSERT INTO t VALUES (101, 'd');
DELETE FROM t WHERE id = 51"
	# v1 has no row-level DELETE / UPDATE: INSERT OVERWRITE instead
	[ "$v" = 1 ] && sql=${sql//DELETE FROM t WHERE /INSERT OVERWRITE t SELECT * FROM t WHERE NOT } &&
		sql=${sql//UPDATE t SET v = \'u\' WHERE id < 5/INSERT OVERWRITE t SELECT id, CASE WHEN id < 5 THEN \'u\' ELSE v END FROM t}
	if ! out=$("$FLOE_BIN" -D "$wh" -q -c "$sql" 2>&1); then fail "$name" "setup: $out"; continue; fi
	m0=$(current_meta "$wh" t)
	tdir=$wh/public/t
	listing "$tdir" >"$tmp/before"
	$PY "$tmp/reach.py" "$TOOLS" "$m0" >"$tmp/reach0" || { fail "$name" "reach.py failed"; continue; }
	sleep 0.05
	if ! out=$("$FLOE_BIN" -D "$wh" -c "VACUUM t" 2>&1) || [ "$out" != VACUUM ]; then
		fail "$name" "VACUUM: $out"; continue
	fi
	m1=$(current_meta "$wh" t)
	listing "$tdir" >"$tmp/after"
	# the expected folder, computed from the two metadata files alone
	if ! why=$($PY - "$m0" "$m1" "$tmp/reach0" "$tmp/before" "$tmp/after" <<'EOF'
import json, os, sys
m0, m1 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
kept = {s["snapshot-id"] for s in m1["snapshots"]}
reach = [l.split(" ", 2) for l in open(sys.argv[3]).read().splitlines()]
live_kept = {p for sid, st, p in reach if int(sid) in kept and st == "live"}
every = {p for sid, st, p in reach}
gone = every - live_kept
before = set(open(sys.argv[4]).read().splitlines())
after = set(open(sys.argv[5]).read().splitlines())
want = (before - gone) | {sys.argv[2]}
errs = []
if after != want:
    errs.append("left over: %s; deleted too: %s" % (sorted(after - want)[:3], sorted(want - after)[:3]))
if not gone:
    errs.append("nothing was unreachable: the test proves nothing")
# spec rules
cur = m1["current-snapshot-id"]
chain, s = [], cur
byid = {x["snapshot-id"]: x for x in m1["snapshots"]}
while s in byid:
    chain.append(s); s = byid[s].get("parent-snapshot-id")
if len(m1["snapshots"]) != 3 or len(chain) != 3:
    errs.append("kept %d snapshots, chain %d (want 3)" % (len(m1["snapshots"]), len(chain)))
if len(m0["snapshots"]) != 7:
    errs.append("setup made %d snapshots" % len(m0["snapshots"]))
if any(e["snapshot-id"] not in kept for e in m1.get("snapshot-log", [])):
    errs.append("snapshot-log names an expired snapshot")
if m1.get("refs", {}).get("main", {}).get("snapshot-id", cur) != cur:
    errs.append("refs.main is not the current snapshot")
ml = [e["metadata-file"] for e in m1.get("metadata-log", [])]
if not ml or ml[-1] != sys.argv[1]:
    errs.append("metadata-log does not end with the previous file")
if any(not os.path.exists(f) for f in ml):
    errs.append("a metadata-log file is gone")
if m1["last-updated-ms"] < m0["last-updated-ms"]:
    errs.append("last-updated-ms went back")
print("; ".join(errs))
sys.exit(1 if errs else 0)
EOF
	); then fail "$name" "$why"; continue; fi
	ok=1
	for sid in $($PY -c 'import json,sys; print(" ".join(str(s["snapshot-id"]) for s in json.load(open(sys.argv[1]))["snapshots"]))' "$m1"); do
		if ! o=$("$TOOLS/iceberg-validate" "$m1" --snapshot "$sid" --deep 2>&1); then
			fail "$name" "iceberg-validate snapshot $sid: $(echo "$o" | grep -m2 ERROR)"; ok=0; break
		fi
		f=$("$FLOE_BIN" -D "$wh" -c "COPY (SELECT * FROM t FOR VERSION AS OF $sid) TO STDOUT WITH (FORMAT csv)" | LC_ALL=C sort)
		if [ "$v" = 1 ]; then i=$(duckrows "$m1" "$sid"); else i=$(icebird "$m1" --snapshot "$sid"); fi
		if [ "$f" != "$i" ] || [ -z "$f" ]; then
			fail "$name" "snapshot $sid: floe and icebird differ ($(echo "$f" | wc -l) / $(echo "$i" | wc -l) rows)"; ok=0; break
		fi
	done
	[ $ok = 1 ] || continue
	if [ "$v" != 1 ] && [ "$(rows "$wh" t)" != "$(icebird "$m1")" ]; then
		fail "$name" "current rows differ from icebird"; continue
	fi
	# a second VACUUM finds nothing more to do: no commit
	"$FLOE_BIN" -D "$wh" -q -c "VACUUM t" >/dev/null 2>&1
	if [ "$(current_meta "$wh" t)" != "$m1" ]; then fail "$name" "a second VACUUM committed"; continue; fi
	pass "$name"
done

# ---- B. remove_orphan_files --------------------------------------------------
wh=$tmp/b
"$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0; CREATE TABLE t (id int); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)" >/dev/null 2>&1
tdir=$wh/public/t
echo junk >"$tdir/data/old-orphan.parquet"
echo junk >"$tdir/metadata/old-orphan.avro"
touch -d '4 days ago' "$tdir/data/old-orphan.parquet" "$tdir/metadata/old-orphan.avro"
echo junk >"$tdir/data/fresh.parquet"
# reachable files, old too: never orphans
for f in "$tdir"/data/*-0.parquet "$tdir"/metadata/*.avro "$tdir"/metadata/*.json; do
	case "$f" in *orphan*) ;; *) touch -d '5 days ago' "$f" ;; esac
done
listing "$tdir" >"$tmp/b0"
dry=$("$FLOE_BIN" -D "$wh" -A -t -c "CALL remove_orphan_files(table => 't', dry_run => true)" 2>&1)
want=$(printf '%s\n%s' "$tdir/data/old-orphan.parquet" "$tdir/metadata/old-orphan.avro")
if [ "$dry" != "$want" ]; then
	fail "orphans dry_run" "listed: $dry"
elif [ "$(listing "$tdir")" != "$(cat "$tmp/b0")" ]; then
	fail "orphans dry_run" "dry_run deleted files"
else
	real=$("$FLOE_BIN" -D "$wh" -A -t -c "CALL remove_orphan_files('t')" 2>&1)
	left=$(LC_ALL=C comm -23 "$tmp/b0" <(listing "$tdir"))
	if [ "$real" != "$want" ] || [ "$left" != "$want" ]; then
		fail "orphans" "reported: $real; gone: $left"
	elif ! o=$("$TOOLS/iceberg-validate" "$tdir" --deep 2>&1); then
		fail "orphans" "iceberg-validate: $o"
	elif [ "$(rows "$wh" t)" != "$(printf '1\n2')" ]; then
		fail "orphans" "rows changed"
	else
		# older_than now: the fresh one goes too
		o=$("$FLOE_BIN" -D "$wh" -A -t -c "CALL remove_orphan_files('t', now() + interval '1 minute')" 2>&1)
		if [ "$o" != "$tdir/data/fresh.parquet" ] || [ -e "$tdir/data/fresh.parquet" ]; then
			fail "orphans older_than" "$o"
		else
			pass "orphans"
		fi
	fi
fi

# ---- C. CALL expire_snapshots ------------------------------------------------
# (setups here take the direct path, floe.insert_buffer_rows = 0: one
# snapshot and one data file per statement)
wh=$tmp/c
"$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0; CREATE TABLE t (id int) WITH ('write.delete.mode' = 'merge-on-read');
INSERT INTO t VALUES (1), (2); INSERT INTO t VALUES (3); DELETE FROM t WHERE id = 2;
INSERT OVERWRITE t SELECT id FROM t; INSERT INTO t VALUES (9)" >/dev/null 2>&1
tdir=$wh/public/t
listing "$tdir" >"$tmp/c0"
out=$("$FLOE_BIN" -D "$wh" -A -t -F ' ' -c "CALL system.expire_snapshots(table => 'public.t', older_than => now() + interval '1 minute', retain_last => 2)" 2>&1)
gone=$(LC_ALL=C comm -23 "$tmp/c0" <(listing "$tdir"))
nf=$(echo "$gone" | grep -c '/data/')
nl=$(echo "$gone" | grep -c '/snap-')
nm=$(echo "$gone" | grep '/metadata/' | grep -v '/snap-' | grep -c '\.avro$')
nsnap=$("$FLOE_BIN" -D "$wh" -A -t -c "SELECT count(*) FROM t\$snapshots")
if [ "$nsnap" != 2 ]; then
	fail "expire_snapshots" "$nsnap snapshots kept, want 2 ($out)"
elif ! read -r od op oe om ol os <<<"$out" || [ $((od + op + oe)) != "$nf" ] || [ "$op" -lt 1 ] ||
     [ "$om $ol $os" != "$nm $nl 0" ] || [ "$nl" != 3 ]; then
	fail "expire_snapshots" "reported '$out', folder lost $nf data/delete files, $nm manifests, $nl lists"
elif [ "$("$FLOE_BIN" -D "$wh" -A -t -c "SELECT string_agg(id::text, ',' ORDER BY id) FROM t")" != "1,3,9" ]; then
	fail "expire_snapshots" "rows changed"
elif ! o=$("$TOOLS/iceberg-validate" "$tdir" --deep 2>&1); then
	fail "expire_snapshots" "iceberg-validate: $o"
else
	pass "expire_snapshots"
fi

# ---- D. metadata files --------------------------------------------------------
wh=$tmp/d
"$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0; CREATE TABLE t (id int) WITH ('write.metadata.delete-after-commit.enabled' = 'true', 'write.metadata.previous-versions-max' = '3', 'history.expire.max-snapshot-age-ms' = '1', 'history.expire.min-snapshots-to-keep' = '1');
INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); INSERT INTO t VALUES (3); INSERT INTO t VALUES (4)" >/dev/null 2>&1
tdir=$wh/public/t
sleep 0.05
"$FLOE_BIN" -D "$wh" -q -c "VACUUM t" >/dev/null 2>&1
m=$(current_meta "$wh" t)
why=$($PY - "$m" "$tdir/metadata" <<'EOF'
import json, os, sys
m = json.load(open(sys.argv[1]))
log = [e["metadata-file"] for e in m["metadata-log"]]
files = sorted(os.path.join(sys.argv[2], f) for f in os.listdir(sys.argv[2]) if f.endswith(".metadata.json"))
errs = []
if len(log) != 3: errs.append("metadata-log has %d entries, want 3" % len(log))
if sorted(log + [sys.argv[1]]) != files: errs.append("metadata files %s, log %s" % (len(files), len(log)))
print("; ".join(errs)); sys.exit(1 if errs else 0)
EOF
)
if [ $? != 0 ]; then fail "metadata files" "$why"
elif ! o=$("$TOOLS/iceberg-validate" "$tdir" --deep 2>&1); then fail "metadata files" "iceberg-validate: $o"
else pass "metadata files"; fi

# ---- E. refs: retention fields, expiry keeps what refs reach ------------------
for v in 1 2 3; do
	name="refs v$v"
	wh=$tmp/e$v
	if ! out=$("$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0; CREATE TABLE t (id int) WITH ('format-version' = '$v', 'history.expire.max-snapshot-age-ms' = '1', 'history.expire.min-snapshots-to-keep' = '1');
INSERT INTO t VALUES (1); ALTER TABLE t CREATE TAG v1 RETAIN 30 DAYS;
INSERT INTO t VALUES (2); ALTER TABLE t CREATE BRANCH b WITH SNAPSHOT RETENTION 2 SNAPSHOTS 1 HOURS;
INSERT INTO t VALUES (3); ALTER TABLE t CREATE BRANCH gone RETAIN 0 MINUTES;
INSERT INTO t VALUES (4); INSERT INTO t VALUES (5)" 2>&1); then fail "$name" "setup: $out"; continue; fi
	sleep 0.05
	"$FLOE_BIN" -D "$wh" -q -c "VACUUM t" >/dev/null 2>&1
	m=$(current_meta "$wh" t)
	if ! why=$($PY - "$m" <<'EOF2'
import json, sys
m = json.load(open(sys.argv[1]))
refs, snaps = m.get("refs", {}), {s["snapshot-id"]: s for s in m["snapshots"]}
errs = []
if sorted(refs) != ["b", "main", "v1"]: errs.append("refs %s (want b, main, v1: gone is past its max-ref-age)" % sorted(refs))
v1, b = refs.get("v1", {}), refs.get("b", {})
if v1 != {"snapshot-id": v1.get("snapshot-id"), "type": "tag", "max-ref-age-ms": 30 * 86400000}: errs.append("v1 is %s" % v1)
if b != {"snapshot-id": b.get("snapshot-id"), "type": "branch", "min-snapshots-to-keep": 2, "max-snapshot-age-ms": 3600000}: errs.append("b is %s" % b)
if refs.get("main", {}).get("snapshot-id") != m["current-snapshot-id"]: errs.append("main != current")
for r in refs.values():
    if r.get("snapshot-id") not in snaps: errs.append("a ref names an expired snapshot")
# kept: main's head, v1's snapshot, b's head and its parent (v1's); b is
# within 1 hour, so all of b's ancestors stay: S1, S2
want = 3
if len(snaps) != want: errs.append("%d snapshots kept, want %d" % (len(snaps), want))
for e in m.get("snapshot-log", []):
    if e["snapshot-id"] not in snaps: errs.append("snapshot-log names an expired snapshot")
print("; ".join(errs)); sys.exit(1 if errs else 0)
EOF2
	); then fail "$name" "$why"; continue; fi
	if ! o=$("$TOOLS/iceberg-validate" "$m" --deep 2>&1); then fail "$name" "iceberg-validate: $(echo "$o" | grep -m2 ERROR)"; continue; fi
	ok=1
	for ref in v1 b main; do
		sid=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["refs"][sys.argv[2]]["snapshot-id"])' "$m" "$ref")
		f=$("$FLOE_BIN" -D "$wh" -c "COPY (SELECT * FROM t FOR VERSION AS OF '$ref') TO STDOUT WITH (FORMAT csv)" | LC_ALL=C sort)
		if [ "$v" = 1 ]; then i=$(duckrows "$m" "$sid"); else i=$(icebird "$m" --snapshot "$sid"); fi
		if [ "$f" != "$i" ] || [ -z "$f" ]; then fail "$name" "ref $ref: floe '$f', reader '$i'"; ok=0; break; fi
	done
	[ $ok = 1 ] && pass "$name"
done

# ---- F. the automatic pass in floe serve --------------------------------------
# Tables with floe.maintenance.enabled = 'true' (v2 merge-on-read, v3), one
# without it (the default) and one with it 'false', each with a short
# retention, 6 commits, many small files and manifests, and old and fresh
# stray files.  The pass is switched on (floe.maintenance_interval 300ms)
# while a client keeps writing; then: the enabled tables keep 2 snapshots,
# their old strays are gone and the fresh ones stay, small files are
# compacted and manifests merged, every client statement succeeded,
# iceberg-validate --deep passes and icebird reads the rows floe reads; the
# two others are untouched (same folder, same snapshots); SHOW MAINTENANCE
# STATUS lists only the enabled tables and the server log names them; with
# floe.maintenance_interval = 0 no pass runs.
. tests/tools/floe_server.sh
srv_pid=
trap 'floe_stop "$srv_pid"; rm -rf "$tmp"' EXIT
fwh=$tmp/f
name="auto pass"
psqlf() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U floe -d floe "$@"; }
status_of() { psqlf -A -t -F '|' -c "SHOW MAINTENANCE STATUS" 2>&1; }
# wait_passes N: every enabled table has had N more passes than now
wait_passes() {
	local want=$1 base st _
	base=$(status_of | awk -F'|' '{ printf "%s %s\n", $1, $2 }')
	for _ in $(seq 300); do
		st=$(status_of | awk -F'|' '{ printf "%s %s\n", $1, $2 }')
		if [ -n "$st" ] && $PY -c 'import sys
b = dict(l.split() for l in sys.argv[1].splitlines() if l.strip())
s = dict(l.split() for l in sys.argv[2].splitlines() if l.strip())
sys.exit(0 if sorted(s) == ["public.on2", "public.on3"] and all(int(s[k]) >= int(b.get(k, 0)) + int(sys.argv[3]) for k in s) else 1)' "$base" "$st" "$want"; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}
props="'history.expire.max-snapshot-age-ms' = '1', 'history.expire.min-snapshots-to-keep' = '2', 'commit.manifest-merge.enabled' = 'false'"
onprops="'floe.maintenance.enabled' = 'true', 'floe.maintenance.rewrite-manifests.min-count' = '3', 'floe.maintenance.compaction.min-files' = '4'"
if ! FLOE_INSERT_BUFFER_ROWS=0 floe_serve "$tmp/fsrv" -D "$fwh" --port 0 --http-port off; then
	fail "$name" "floe serve did not start: $(head -3 "$tmp/fsrv.err")"
elif ! out=$(psqlf -c "CREATE TABLE on2 (id int, v text) WITH ('format-version' = '2', 'write.delete.mode' = 'merge-on-read', $props, $onprops);
CREATE TABLE on3 (id int, v text) WITH ('format-version' = '3', $props, $onprops);
CREATE TABLE off1 (id int, v text) WITH ($props);
CREATE TABLE off2 (id int, v text) WITH ($props, 'floe.maintenance.enabled' = 'false')" 2>&1); then
	fail "$name" "setup: $out"
else
	for i in 1 2 3 4 5 6; do
		for t in on2 on3 off1 off2; do echo "INSERT INTO $t VALUES ($i, 'r$i');"; done
	done >"$tmp/f-setup.sql"
	echo "DELETE FROM on2 WHERE id = 3;" >>"$tmp/f-setup.sql"
	psqlf -f "$tmp/f-setup.sql" >/dev/null 2>&1
	for t in on2 on3 off1 off2; do
		echo junk >"$fwh/public/$t/data/old-stray.parquet"
		echo junk >"$fwh/public/$t/metadata/old-stray.avro"
		touch -d '4 days ago' "$fwh/public/$t/data/old-stray.parquet" "$fwh/public/$t/metadata/old-stray.avro"
		echo junk >"$fwh/public/$t/data/fresh-stray.parquet"
	done
	listing "$fwh/public/off1" >"$tmp/f-off1"
	listing "$fwh/public/off2" >"$tmp/f-off2"
	# the default interval (5min) has not come: no table looked at yet
	st0=$(status_of)
	psqlf -c "SET floe.maintenance_interval = '300ms'"
	# a client writing meanwhile: every statement must succeed
	for i in $(seq 11 30); do
		echo "INSERT INTO on2 VALUES ($i, 'w$i'); INSERT INTO on3 VALUES ($i, 'w$i');"
		[ $((i % 5)) = 0 ] && echo "DELETE FROM on2 WHERE id = $((i - 1)); UPDATE on3 SET v = 'u' WHERE id = $((i - 2));"
		sleep 0.05
	done | psqlf >"$tmp/f-writer.out" 2>&1
	wrc=$?
	if [ -n "$st0" ]; then
		fail "$name" "SHOW MAINTENANCE STATUS before any pass: $st0"
	elif [ "$wrc" != 0 ]; then
		fail "$name" "a client statement failed beside the pass: $(head -3 "$tmp/f-writer.out")"
	elif ! wait_passes 2; then
		fail "$name" "no two passes within 30 s: $(status_of)"
	else
		why=
		for t in on2 on3; do
			td=$fwh/public/$t
			n=$(psqlf -A -t -c "SELECT count(*) FROM $t\$snapshots")
			[ "$n" = 2 ] || why="$why; $t keeps $n snapshots (want 2)"
			[ -e "$td/data/old-stray.parquet" ] && why="$why; $t: old data stray left"
			[ -e "$td/metadata/old-stray.avro" ] && why="$why; $t: old metadata stray left"
			[ -e "$td/data/fresh-stray.parquet" ] || why="$why; $t: the fresh stray was deleted"
			if ! o=$("$TOOLS/iceberg-validate" "$td" --deep 2>&1); then
				why="$why; $t: iceberg-validate: $(echo "$o" | grep -m2 ERROR)"
			fi
			f=$(psqlf -c "COPY (SELECT * FROM $t) TO STDOUT WITH (FORMAT csv)" | LC_ALL=C sort)
			i=$(icebird "$td")
			[ -n "$f" ] && [ "$f" = "$i" ] || why="$why; $t: floe and icebird differ ($(echo "$f" | wc -l) / $(echo "$i" | wc -l) rows)"
			# the rows the client wrote, all of them
			[ "$(echo "$f" | wc -l)" = "$(psqlf -A -t -c "SELECT count(*) FROM $t")" ] || why="$why; $t: row counts"
			grep -q "maintenance of public.$t: " "$tmp/fsrv.err" || why="$why; no log line for $t"
		done
		nrows=$(psqlf -A -t -c "SELECT count(*) FROM on3")
		[ "$nrows" = 26 ] || why="$why; on3 has $nrows rows (want 26)"
		nrows=$(psqlf -A -t -c "SELECT count(*) FROM on2")
		[ "$nrows" = 21 ] || why="$why; on2 has $nrows rows (want 21)"
		# compaction and manifest merging happened (the status' totals; the
		# current snapshot's manifests, read by iceberg-validate)
		st=$(status_of)
		echo "$st" | awk -F'|' '$1 == "public.on3" && !($9 > 0 && $10 > 0 && $6 > 0 && $7 > 0 && $8 == 2) { exit 1 }' ||
			why="$why; on3's totals: $st"
		nm=$("$TOOLS/iceberg-validate" "$fwh/public/on3" 2>&1 | sed -n 's/^snapshot [0-9]* seq=[0-9]*: \([0-9]*\) manifest.*/\1/p' | tail -1)
		[ -n "$nm" ] && [ "$nm" -le 2 ] || why="$why; on3's current snapshot has $nm manifests"
		for t in off1 off2; do
			n=$(psqlf -A -t -c "SELECT count(*) FROM $t\$snapshots")
			[ "$n" = 6 ] || why="$why; $t (pass off) keeps $n snapshots (want 6)"
			[ "$(listing "$fwh/public/$t")" = "$(cat "$tmp/f-$t")" ] || why="$why; $t's folder changed"
		done
		echo "$st" | grep -q off && why="$why; SHOW MAINTENANCE STATUS lists a table without the pass"
		# floe.maintenance_interval = 0: no more passes
		psqlf -c "SET floe.maintenance_interval = 0"
		sleep 0.5
		p0=$(status_of | cut -d'|' -f2 | tr '\n' ' ')
		psqlf -c "INSERT INTO on3 VALUES (99, 'x')" -c "INSERT INTO on3 VALUES (98, 'y')"
		sleep 1
		p1=$(status_of | cut -d'|' -f2 | tr '\n' ' ')
		[ "$p0" = "$p1" ] || why="$why; passes ran with floe.maintenance_interval = 0 ($p0 -> $p1)"
		n=$(psqlf -A -t -c "SELECT count(*) FROM on3\$snapshots")
		[ "$n" = 4 ] || why="$why; on3 keeps $n snapshots after two commits with the pass off (want 4)"
		# the thread stops with the server: a clean exit, no sanitizer report
		floe_stop_clean "$srv_pid" "$tmp/fsrv.err" || why="$why; floe serve exit $stop_rc: $(grep -m3 -E 'Sanitizer|runtime error' "$tmp/fsrv.err")"
		srv_pid=
		if [ -n "$why" ]; then fail "$name" "${why#; }"; else pass "$name ($(echo "$st" | cut -d'|' -f1,2,6-10 | tr '\n' ' '))"; fi
	fi
fi
floe_stop "$srv_pid"
srv_pid=
