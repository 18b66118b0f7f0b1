#!/usr/bin/env bash
# Statistics suite (issue 15: ANALYZE and the metadata's "statistics"),
# checked with readers floe's code does not share.
#
# A. ANALYZE of a 1e5-row table (no new snapshot):
#    - the metadata JSON: one statistics entry for the current snapshot,
#      file-size-in-bytes = the file's size, blob-metadata per column;
#    - the Puffin footer read by ../shared/tools/interop's puffin.mjs:
#      file-footer-size-in-bytes, each blob's type, fields, snapshot-id,
#      sequence-number and ndv equal the metadata's, offsets in the file;
#    - each blob decoded here (Python, from DataSketches' compact layout:
#      serial version 3, family 3, seed hash 0x93cc, ascending entries
#      below theta): its estimate rounds to ndv and is within 3 standard
#      errors (1/sqrt(4095)) of DuckDB's count(DISTINCT) over the data files
#      (exact below 4096 distinct values);
#    - iceberg-validate --deep passes.
# B. ANALYZE again: the replaced statistics file is deleted; after a new
#    snapshot and VACUUM (min-snapshots-to-keep 1) the expired snapshot's
#    file is deleted, the current one's kept; remove_orphan_files keeps it
#    even when old.
# D. Expiry drops the partition-statistics entries of expired snapshots
#    and deletes their files (entries added to a floe table's metadata JSON
#    here, registered as a table): the kept snapshot's entry and file stay,
#    expire_snapshots counts the deleted files, orphan removal keeps the
#    kept one.
# C. Commits keep other engines' statistics: a copy of Impala/Trino's
#    iceberg_with_puffin_stats (testdata) after floe's INSERT and ALTER
#    TABLE SET has the same "statistics" and "partition-statistics" JSON.
#
# E. ANALYZE with no table goes on past the tables it cannot analyze, as
#    PostgreSQL 15 does: a table whose data file is gone is skipped with a
#    WARNING naming the error and the tables after it get their statistics;
#    a role that owns no table (floe's owner is the superuser) gets
#    PostgreSQL's 'skipping "t" --- only table or database owner can
#    analyze it' (VACUUM: "vacuum it") per table and writes nothing.
# F. ANALYZE of a partitioned table (v2 with position delete files, v3 with
#    deletion vectors; partitioned by identity(cat) and day(ts)) writes a
#    partition statistics file registered in "partition-statistics" for the
#    current snapshot (file-size-in-bytes = its size); DuckDB and hyparquet
#    read it alike (parquet-check); DuckDB's parquet_schema shows the spec's
#    field ids and a REQUIRED partition struct of the partition fields' ids;
#    its rows, in file order, equal the counts computed here from the
#    manifests (decoded by the toolkit's avro-dump, live entries): one row
#    per partition tuple sorted NULLs first, data/delete records and files,
#    dv_count (v3), total_record_count (data - DV records, NULL with v2
#    position delete files); iceberg-validate --deep passes; ANALYZE again
#    replaces the entry and deletes the old file; an unpartitioned table
#    gets no partition-statistics.
# G. The planner's NDV under time travel: the current snapshot uses its
#    ANALYZE count (GROUP BY estimate 2), the older snapshot (not a
#    descendant of the statistics' one) keeps the bounds' guess (1000).
#
# Prints "PASS statistics: name" / "FAIL statistics: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-stats.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS statistics: $1"; }
fail() { echo "FAIL statistics: $1: $2"; }

current_meta() {
	$PY -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT metadata_location FROM iceberg_tables WHERE table_name = ?", (sys.argv[2],)).fetchone()[0])' "$1/catalog.db" "$2"
}

# footer.mjs FILE: the Puffin footer as the interop toolkit reads it
cat >"$tmp/footer.mjs" <<EOF
import { readPuffinFooter } from '$SHARED/tools/interop/src/lib/puffin.mjs'
const f = readPuffinFooter(process.argv[2])
console.log(JSON.stringify({ size: f.size, footerSize: f.footerSize, blobs: f.blobs, properties: f.properties }))
EOF

# ---- A. ANALYZE, checked ------------------------------------------------------
wh=$tmp/a
name="analyze 1e5 rows"
if ! out=$("$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0;
CREATE TABLE t (id bigint, g int, s text, d numeric(12,2), ts timestamp) WITH ('history.expire.min-snapshots-to-keep' = '1', 'history.expire.max-snapshot-age-ms' = '1');
INSERT INTO t SELECT i, i % 100, 'v' || (i % 3000), (i % 50000) / 8.0, timestamp '2024-01-01' + i * interval '1 second' FROM generate_series(1, 100000) i" 2>&1); then
	fail "$name" "setup: $out"
else
	m0=$(current_meta "$wh" t)
	if ! out=$("$FLOE_BIN" -D "$wh" -c "ANALYZE t" 2>&1) || [ "$out" != ANALYZE ]; then
		fail "$name" "ANALYZE: $out"
	else
		m1=$(current_meta "$wh" t)
		files=$("$TOOLS/iceberg-validate" "$m1" --files 2>/dev/null |
			awk '$1 == "FILE" && $3 == "data" { printf "%s\x27%s\x27", (n++ ? "," : ""), $4 }')
		exact=$("$TOOLS/duckdb-sql" "SELECT count(DISTINCT id), count(DISTINCT g), count(DISTINCT s), count(DISTINCT d), count(DISTINCT ts) FROM read_parquet([$files])" --no-header)
		stats=$($PY -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["statistics"][0]["statistics-path"])' "$m1" 2>/dev/null)
		footer=$(node "$tmp/footer.mjs" "$stats" 2>&1)
		if ! why=$($PY - "$m0" "$m1" "$exact" "$footer" <<'EOF'
import json, math, os, struct, sys
m0, m1 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
exact = [int(x) for x in sys.argv[3].strip().split(",")]
errs = []
try:
    footer = json.loads(sys.argv[4])
except ValueError:
    print("puffin.mjs: " + sys.argv[4]); sys.exit(1)
if m1["snapshots"] != m0["snapshots"] or m1["current-snapshot-id"] != m0["current-snapshot-id"]:
    errs.append("ANALYZE changed the snapshots")
st = m1.get("statistics", [])
if len(st) != 1:
    print("%d statistics entries, want 1" % len(st)); sys.exit(1)
st = st[0]
cur = m1["current-snapshot-id"]
seq = [s for s in m1["snapshots"] if s["snapshot-id"] == cur][0].get("sequence-number", 0)
path = st["statistics-path"]
data = open(path, "rb").read()
if st["snapshot-id"] != cur: errs.append("entry for snapshot %s, current %s" % (st["snapshot-id"], cur))
if st["file-size-in-bytes"] != len(data) or footer["size"] != len(data):
    errs.append("file-size-in-bytes %s, file %d" % (st["file-size-in-bytes"], len(data)))
if st.get("file-footer-size-in-bytes") != footer["footerSize"]:
    errs.append("file-footer-size-in-bytes %s, footer %s" % (st.get("file-footer-size-in-bytes"), footer["footerSize"]))
bm = st["blob-metadata"]
fb = footer["blobs"]
if [b["fields"] for b in bm] != [[1], [2], [3], [4], [5]] or len(fb) != 5:
    errs.append("blob fields %s / footer %d blobs" % ([b["fields"] for b in bm], len(fb)))
for i, (b, f) in enumerate(zip(bm, fb)):
    # (JavaScript's JSON.parse reads the 63-bit ids as doubles)
    for k in ("type", "fields", "snapshot-id", "sequence-number"):
        same = float(b.get(k)) == float(f.get(k)) if k.endswith("id") else b.get(k) == f.get(k)
        if not same: errs.append("blob %d %s: metadata %s, footer %s" % (i, k, b.get(k), f.get(k)))
    if b["type"] != "apache-datasketches-theta-v1": errs.append("blob %d type %s" % (i, b["type"]))
    if b["snapshot-id"] != cur or float(f["snapshot-id"]) != float(cur) or f["sequence-number"] != seq:
        errs.append("blob %d snapshot/sequence" % i)
    if b["properties"].get("ndv") != f.get("properties", {}).get("ndv"): errs.append("blob %d ndv differs" % i)
    if f.get("compression-codec") not in (None,): errs.append("blob %d compressed" % i)
    off, ln = f["offset"], f["length"]
    if off < 4 or off + ln > len(data) - footer["footerSize"]: errs.append("blob %d outside the file" % i); continue
    sk = data[off:off + ln]
    # DataSketches compact theta sketch, serial version 3
    pre, ver, fam, flags = sk[0] & 0x3f, sk[1], sk[2], sk[5]
    seed = struct.unpack_from("<H", sk, 6)[0]
    if ver != 3 or fam != 3 or seed != 0x93cc or (flags & 0x1a) != 0x1a or flags & 1:
        errs.append("blob %d preamble ver %d fam %d seed %x flags %x" % (i, ver, fam, seed, flags)); continue
    if pre == 1:
        n, theta = (1 if flags & 32 else 0), (1 << 63) - 1
    else:
        n = struct.unpack_from("<i", sk, 8)[0]
        if struct.unpack_from("<f", sk, 12)[0] != 1.0: errs.append("blob %d p != 1" % i)
        theta = struct.unpack_from("<q", sk, 16)[0] if pre == 3 else (1 << 63) - 1
    if len(sk) != 8 * pre + 8 * n: errs.append("blob %d: %d bytes for %d entries" % (i, len(sk), n)); continue
    ent = struct.unpack_from("<%dq" % n, sk, 8 * pre)
    if any(not (0 < e < theta) for e in ent) or any(ent[j] >= ent[j + 1] for j in range(n - 1)):
        errs.append("blob %d entries not ascending below theta" % i)
    est = n / (theta / 2.0 ** 63)
    if str(round(est)) != b["properties"]["ndv"]: errs.append("blob %d ndv %s, sketch %f" % (i, b["properties"]["ndv"], est))
    x = exact[i]
    if x < 4096:
        if est != x or pre == 3: errs.append("column %d: estimate %f, exact %d" % (i + 1, est, x))
    elif abs(est - x) > 3 * x / math.sqrt(4095) or pre != 3:
        errs.append("column %d: estimate %f, exact %d, beyond 3 standard errors" % (i + 1, est, x))
if exact[0] != 100000 or exact[2] != 3000: errs.append("DuckDB's counts %s" % exact)
print("; ".join(errs)); sys.exit(1 if errs else 0)
EOF
		); then
			fail "$name" "$why"
		elif ! o=$("$TOOLS/iceberg-validate" "$m1" --deep 2>&1); then
			fail "$name" "iceberg-validate: $(echo "$o" | grep -m2 ERROR)"
		else
			pass "$name"
		fi
	fi
fi

# ---- B. replaced and expired statistics files go, referenced ones stay -------
name="statistics files: replace, expire, orphans"
old=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["statistics"][0]["statistics-path"])' "$(current_meta "$wh" t)" 2>/dev/null)
"$FLOE_BIN" -D "$wh" -q -c "ANALYZE t (g)" >/dev/null 2>&1
m=$(current_meta "$wh" t)
second=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["statistics"][0]["statistics-path"])' "$m" 2>/dev/null)
if [ -z "$old" ] || [ -e "$old" ] || [ ! -e "$second" ] || [ "$old" = "$second" ]; then
	fail "$name" "re-ANALYZE: old '$old' (exists: $([ -e "$old" ] && echo yes)), new '$second'"
else
	sleep 0.05
	"$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0; INSERT INTO t (id) VALUES (0); ANALYZE t (id)" >/dev/null 2>&1
	m=$(current_meta "$wh" t)
	third=$($PY -c 'import json,sys; m=json.load(open(sys.argv[1])); print(" ".join(s["statistics-path"] for s in m["statistics"] if s["snapshot-id"] == m["current-snapshot-id"]))' "$m")
	n=$($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["statistics"]))' "$m")
	sleep 0.05
	out=$("$FLOE_BIN" -D "$wh" -c "VACUUM t" 2>&1)
	m=$(current_meta "$wh" t)
	left=$($PY -c 'import json,sys; print(" ".join(s["statistics-path"] for s in json.load(open(sys.argv[1]))["statistics"]))' "$m")
	touch -d '5 days ago' "$third"
	orph=$("$FLOE_BIN" -D "$wh" -A -t -c "CALL remove_orphan_files(table => 't')" 2>&1)
	if [ "$n" != 2 ] || [ "$out" != VACUUM ] || [ -e "$second" ] || [ "$left" != "$third" ] || [ ! -e "$third" ]; then
		fail "$name" "before VACUUM $n entries; VACUUM: $out; expired file left: $([ -e "$second" ] && echo yes); kept '$left' want '$third'"
	elif [ -n "$orph" ] || [ ! -e "$third" ]; then
		fail "$name" "remove_orphan_files: '$orph'"
	elif ! o=$("$TOOLS/iceberg-validate" "$m" 2>&1); then
		fail "$name" "iceberg-validate: $(echo "$o" | grep -m2 ERROR)"
	else
		pass "$name"
	fi
fi

# ---- C. floe's commits keep another engine's statistics -----------------------
name="commits keep statistics and partition-statistics"
src=$SHARED/testdata/iceberg-tables/impala/iceberg_with_puffin_stats
wh=$tmp/c
mkdir -p "$tmp/ps"
cp -r "$src/." "$tmp/ps/"
chmod -R u+w "$tmp/ps"
if ! out=$("$FLOE_BIN" -D "$wh" -q -c "CALL register_table('ps', '$tmp/ps/metadata/v3.metadata.json', map_from => '/test-warehouse/iceberg_with_puffin_stats/', map_to => '$tmp/ps/')" 2>&1); then
	fail "$name" "register: $out"
elif ! out=$("$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0; INSERT INTO ps VALUES (3, 3); ALTER TABLE ps SET ('floe.test' = 'x')" 2>&1); then
	fail "$name" "commits: $out"
else
	m=$(current_meta "$wh" ps)
	m=$tmp/ps/${m#/test-warehouse/iceberg_with_puffin_stats/}
	ndv=$("$FLOE_BIN" -D "$wh" -A -t -c "SELECT string_agg(column_name || '=' || ndv, ',' ORDER BY field_id) FROM ps\$statistics" 2>&1)
	if ! why=$($PY - "$src/metadata/v3.metadata.json" "$m" <<'EOF'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
errs = []
if len(b["snapshots"]) != 2 or b.get("properties", {}).get("floe.test") != "x":
    errs.append("the commits did not land (%d snapshots)" % len(b["snapshots"]))
for k in ("statistics", "partition-statistics"):
    if a.get(k) != b.get(k): errs.append("%s: %s became %s" % (k, a.get(k), b.get(k)))
print("; ".join(errs)); sys.exit(1 if errs else 0)
EOF
	); then
		fail "$name" "$why"
	elif [ "$ndv" != "i=2,d=2" ]; then
		fail "$name" "ps\$statistics after the commits: $ndv"
	else
		pass "$name"
	fi
fi

# ---- D. expiry and partition statistics ---------------------------------------
name="expiry drops partition statistics of expired snapshots"
wh=$tmp/d
if ! out=$("$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0;
CREATE TABLE p (id int) WITH ('history.expire.min-snapshots-to-keep' = '1', 'history.expire.max-snapshot-age-ms' = '1');
INSERT INTO p VALUES (1); INSERT INTO p VALUES (2); INSERT INTO p VALUES (3)" 2>&1); then
	fail "$name" "setup: $out"
else
	m=$(current_meta "$wh" p)
	inj=$($PY - "$m" <<'EOF'
import json, os, sys
m = json.load(open(sys.argv[1]))
d = os.path.dirname(sys.argv[1])
ps = []
for s in m["snapshots"]:
    f = os.path.join(d, "partition-stats-%d.parquet" % s["snapshot-id"])
    open(f, "w").write("x")
    os.utime(f, (0, 0))          # old: orphan removal would take it if unreferenced
    ps.append({"snapshot-id": s["snapshot-id"], "statistics-path": f, "file-size-in-bytes": 1})
m["partition-statistics"] = ps
out = os.path.join(d, "99999-injected.metadata.json")
json.dump(m, open(out, "w"))
print(out)
EOF
)
	"$FLOE_BIN" -D "$wh" -q -c "CALL register_table('p2', '$inj')" >/dev/null 2>&1
	sleep 0.05
	cnt=$("$FLOE_BIN" -D "$wh" -A -t -F , -c "CALL expire_snapshots(table => 'p2')" 2>&1)
	m2=$(current_meta "$wh" p2)
	orph=$("$FLOE_BIN" -D "$wh" -A -t -c "CALL remove_orphan_files(table => 'p2', dry_run => true)" 2>&1)
	if ! why=$($PY - "$inj" "$m2" "$cnt" "$orph" <<'EOF'
import json, os, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
errs = []
kept = {s["snapshot-id"] for s in b["snapshots"]}
if len(kept) != 1: errs.append("%d snapshots kept, want 1" % len(kept))
ps = b.get("partition-statistics")
if [e["snapshot-id"] for e in ps or []] != sorted(kept): errs.append("partition-statistics %s" % ps)
for e in a["partition-statistics"]:
    there = os.path.exists(e["statistics-path"])
    if there != (e["snapshot-id"] in kept): errs.append("%s exists: %s" % (e["statistics-path"], there))
cols = sys.argv[3].strip().split(",")
if len(cols) != 6 or cols[5] != "2": errs.append("expire_snapshots said %s (deleted statistics files: want 2)" % sys.argv[3])
if "partition-stats" in sys.argv[4]: errs.append("orphan removal lists %s" % sys.argv[4])
print("; ".join(errs)); sys.exit(1 if errs else 0)
EOF
	); then
		fail "$name" "$why"
	else
		pass "$name"
	fi
fi

# ---- E. ANALYZE of every table skips what it cannot analyze --------------------
name="bare ANALYZE skips tables with a WARNING"
wh=$tmp/e
if ! out=$("$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0;
CREATE TABLE a (x int); INSERT INTO a VALUES (1), (2);
CREATE TABLE b (x int); INSERT INTO b VALUES (3);
CREATE TABLE c (x int); INSERT INTO c VALUES (4), (5), (6);
CREATE ROLE alice" 2>&1); then
	fail "$name" "setup: $out"
else
	rm -f "$wh"/public/b/data/*.parquet
	out=$("$FLOE_BIN" -D "$wh" -A -t -c "ANALYZE" 2>&1)
	got=$("$FLOE_BIN" -D "$wh" -A -t -F , -c "SELECT (SELECT string_agg(ndv::text, ',') FROM a\$statistics), (SELECT count(*) FROM b\$statistics), (SELECT string_agg(ndv::text, ',') FROM c\$statistics)" 2>&1)
	role=$("$FLOE_BIN" -D "$wh" -A -t -c "SET ROLE alice; ANALYZE; VACUUM" 2>&1)
	after=$("$FLOE_BIN" -D "$wh" -A -t -c "SELECT count(*) FROM a\$statistics" 2>&1)
	want_role='WARNING:  skipping "a" --- only table or database owner can analyze it
WARNING:  skipping "b" --- only table or database owner can analyze it
WARNING:  skipping "c" --- only table or database owner can analyze it
WARNING:  skipping "a" --- only table or database owner can vacuum it
WARNING:  skipping "b" --- only table or database owner can vacuum it
WARNING:  skipping "c" --- only table or database owner can vacuum it'
	if ! printf '%s\n' "$out" | grep -q '^WARNING:  skipping "b" --- could not open file ".*\.parquet"' ||
	   [ "$(printf '%s\n' "$out" | grep -c WARNING)" != 1 ]; then
		fail "$name" "ANALYZE said: $out"
	elif [ "$got" != "2,0,3" ]; then
		fail "$name" "statistics after ANALYZE (a ndv, b blobs, c ndv): $got, want 2,0,3"
	elif [ "$(printf '%s\n' "$role" | grep WARNING)" != "$want_role" ] || [ "$after" != 1 ]; then
		fail "$name" "as alice: $role; a's blobs after: $after"
	else
		pass "$name"
	fi
fi

# ---- F. partition statistics files --------------------------------------------
for v in 2 3; do
name="partition statistics file (v$v)"
wh=$tmp/f$v
if ! out=$("$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0;
CREATE TABLE p (id int, cat text, ts timestamp) PARTITIONED BY (cat, day(ts)) WITH ('format-version' = '$v', 'write.delete.mode' = 'merge-on-read');
INSERT INTO p SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE 'c' || (i % 3) END, timestamp '2024-01-01' + (i % 4) * interval '1 day' FROM generate_series(1, 300) i;
INSERT INTO p VALUES (1000, 'c1', '2024-01-01 05:00'), (1001, 'zz', '2024-02-01');
DELETE FROM p WHERE id % 7 = 0;
CREATE TABLE flat (id int); INSERT INTO flat VALUES (1);
ANALYZE p; ANALYZE flat" 2>&1); then
	fail "$name" "setup: $out"
	continue
fi
m=$(current_meta "$wh" p)
first=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["partition-statistics"][0]["statistics-path"])' "$m" 2>/dev/null)
"$FLOE_BIN" -D "$wh" -q -c "ANALYZE p" >/dev/null 2>&1
m=$(current_meta "$wh" p)
mflat=$(current_meta "$wh" flat)
f=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["partition-statistics"][0]["statistics-path"])' "$m" 2>/dev/null)
rows=$("$TOOLS/duckdb-sql" "SELECT partition.cat, partition.ts_day, spec_id, data_record_count, data_file_count, total_data_file_size_in_bytes, position_delete_record_count, position_delete_file_count, $([ $v = 3 ] && echo 'dv_count,') equality_delete_record_count, equality_delete_file_count, total_record_count FROM read_parquet('$f')" --no-header --threads 1 2>&1)
schema=$("$TOOLS/duckdb-sql" "SELECT name, field_id, repetition_type, num_children FROM parquet_schema('$f')" --no-header 2>&1)
if ! why=$($PY - "$m" "$f" "$first" "$rows" "$schema" "$v" "$mflat" "$TOOLS/avro-dump" <<'EOF'
import datetime, json, os, subprocess, sys
mpath, f, first, rows, schema, v, mflat, avro = sys.argv[1:9]
v = int(v)
m = json.load(open(mpath))
errs = []
ps = m.get("partition-statistics") or []
if len(ps) != 1 or ps[0]["snapshot-id"] != m["current-snapshot-id"]:
    errs.append("partition-statistics %s, current snapshot %s" % (ps, m["current-snapshot-id"]))
elif ps[0]["file-size-in-bytes"] != os.path.getsize(f):
    errs.append("file-size-in-bytes %s, file %d" % (ps[0]["file-size-in-bytes"], os.path.getsize(f)))
if first == f or os.path.exists(first):
    errs.append("the first ANALYZE's file %s was not replaced and deleted" % first)
if json.load(open(mflat)).get("partition-statistics"):
    errs.append("an unpartitioned table got partition-statistics")
def dump(p):
    out = subprocess.run([avro, p], capture_output=True, text=True, check=True).stdout.splitlines()
    return [json.loads(l) for l in out[1:] if l.strip()]
snap = [s for s in m["snapshots"] if s["snapshot-id"] == m["current-snapshot-id"]][0]
spec = m["partition-specs"][0]["fields"]
agg = {}
for mf in dump(snap["manifest-list"]):
    for e in dump(mf["manifest_path"]):
        if e["status"] == 2: continue
        d = e["data_file"]
        part = d["partition"]
        key = (part[spec[0]["name"]], part[spec[1]["name"]])
        r = agg.setdefault(key, dict(drec=0, dfiles=0, dbytes=0, prec=0, pfiles=0, dvs=0, dvrec=0, erec=0, efiles=0))
        if d["content"] == 0:
            r["drec"] += d["record_count"]; r["dfiles"] += 1; r["dbytes"] += d["file_size_in_bytes"]
        elif d["content"] == 1 and d["file_format"].upper() == "PUFFIN":
            r["prec"] += d["record_count"]; r["dvs"] += 1; r["dvrec"] += d["record_count"]
        elif d["content"] == 1:
            r["prec"] += d["record_count"]; r["pfiles"] += 1
        else:
            r["erec"] += d["record_count"]; r["efiles"] += 1
def daytext(x):
    if x is None: return ""
    if isinstance(x, int): return str(datetime.date(1970, 1, 1) + datetime.timedelta(days=x))
    return str(x)
keys = sorted(agg, key=lambda k: ((k[0] is not None, k[0] or ""), (k[1] is not None, k[1] or 0)))
want = []
for k in keys:
    r = agg[k]
    total = "" if r["pfiles"] or r["efiles"] else str(r["drec"] - r["dvrec"])
    cols = [k[0] or "", daytext(k[1]), "0", r["drec"], r["dfiles"], r["dbytes"], r["prec"], r["pfiles"]]
    if v == 3: cols.append(r["dvs"])
    cols += [r["erec"], r["efiles"], total]
    want.append(",".join(str(c) for c in cols))
got = rows.strip().splitlines()
if got != want:
    errs.append("rows (DuckDB):\n%s\nwant (manifests):\n%s" % ("\n".join(got), "\n".join(want)))
if len(keys) < 8 or not any(agg[k]["prec"] for k in keys):
    errs.append("the workload made %d partitions, deletes %s" % (len(keys), [agg[k]["prec"] for k in keys]))
opt = "REQUIRED" if v == 3 else "OPTIONAL"
want_schema = ["schema,,,%d" % (13 if v == 3 else 12), "partition,1,REQUIRED,2",
               "cat,%d,OPTIONAL," % spec[0]["field-id"], "ts_day,%d,OPTIONAL," % spec[1]["field-id"],
               "spec_id,2,REQUIRED,", "data_record_count,3,REQUIRED,", "data_file_count,4,REQUIRED,",
               "total_data_file_size_in_bytes,5,REQUIRED,",
               "position_delete_record_count,6,%s," % opt, "position_delete_file_count,7,%s," % opt]
if v == 3: want_schema.append("dv_count,13,REQUIRED,")
want_schema += ["equality_delete_record_count,8,%s," % opt, "equality_delete_file_count,9,%s," % opt,
                "total_record_count,10,OPTIONAL,", "last_updated_at,11,OPTIONAL,",
                "last_updated_snapshot_id,12,OPTIONAL,"]
if schema.strip().splitlines() != want_schema:
    errs.append("parquet_schema:\n%s\nwant:\n%s" % (schema, "\n".join(want_schema)))
print("; ".join(errs)); sys.exit(1 if errs else 0)
EOF
); then
	fail "$name" "$why"
elif ! o=$("$TOOLS/parquet-check" "$f" --quiet 2>&1); then
	fail "$name" "parquet-check: $o"
elif ! o=$("$TOOLS/iceberg-validate" --deep "$m" 2>&1); then
	fail "$name" "iceberg-validate: $(echo "$o" | grep -m2 ERROR)"
else
	pass "$name"
fi
done

# ---- G. the planner's use of statistics under time travel -----------------------
name="planner NDV: an older snapshot does not use a later snapshot's statistics"
wh=$tmp/g
if ! out=$("$FLOE_BIN" -D "$wh" -q -c "SET floe.insert_buffer_rows = 0;
CREATE TABLE t (k int);
INSERT INTO t SELECT CASE WHEN i % 2 = 0 THEN 0 ELSE 999 END FROM generate_series(1, 1000) i;
INSERT INTO t SELECT 0 FROM generate_series(1, 1000) i;
ANALYZE t" 2>&1); then
	fail "$name" "setup: $out"
else
	s1=$("$FLOE_BIN" -D "$wh" -A -t -c "SELECT snapshot_id FROM t\$snapshots ORDER BY committed_at LIMIT 1" 2>&1)
	now=$("$FLOE_BIN" -D "$wh" -A -t -c "EXPLAIN SELECT k, count(*) FROM t GROUP BY k" 2>&1 | grep HashAggregate)
	old=$("$FLOE_BIN" -D "$wh" -A -t -c "EXPLAIN SELECT k, count(*) FROM t FOR SYSTEM_VERSION AS OF $s1 GROUP BY k" 2>&1 | grep HashAggregate)
	res=$("$FLOE_BIN" -D "$wh" -A -t -F , -c "SELECT k, count(*) FROM t FOR SYSTEM_VERSION AS OF $s1 GROUP BY k ORDER BY k" 2>&1 | tr '\n' ' ')
	case "$now|$old|$res" in
	*"HashAggregate  (rows=2)"*"|"*"HashAggregate  (rows=1000)"*"|0,500 999,500 ")
		pass "$name" ;;
	*)
		fail "$name" "current: '$now'; at $s1: '$old'; rows: '$res'" ;;
	esac
fi
