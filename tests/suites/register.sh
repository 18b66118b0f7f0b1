#!/usr/bin/env bash
# Register suite: REGISTER FILES INTO t FROM 'uri' (docs/loading.md) on
# Parquet files nobody here wrote, checked against readers nobody here
# wrote (../shared/tools/interop).
#
#   - files_*: DuckDB writes Parquet files (several row groups, NULLs,
#     NaNs, decimals, timestamps; most WITHOUT field ids, one with them);
#     floe registers them (a folder, a glob) and its SELECT of the table
#     equals DuckDB's reading of the same files (EXCEPT ALL both ways over
#     floe's COPY TO of the table);
#   - prune: a filter on the registered files' bounds prunes files and row
#     groups (EXPLAIN ANALYZE's "Pruned: files=N row groups=M");
#   - validate / icebird: iceberg-validate --deep passes (the manifests'
#     counts and bounds against the data) and icebird, an independent
#     Iceberg reader, reads the same rows (through the name mapping for the
#     files without field ids);
#   - part_*: a partitioned table gets each file's partition value from
#     its bounds (p$partitions), prunes on it, and a file spanning
#     partitions is refused naming it;
#   - dup_race: two sessions registering the same file at once: exactly
#     one commits it;
#   - s3_objects (s3rver): objects registered from s3:// read their footers
#     and only the chunks they must (NaN counts), and give the same rows and
#     the same manifest entries as the local files;
#   - infer_schema_s3: INFER_SCHEMA of those objects (and of a CSV object)
#     equals INFER_SCHEMA of the local files;
#   - parallel_*: footers read by 16 readers give the entries of one
#     reader, and the error of the first bad file in name order;
#   - privileges (floe serve, psql): COPY FROM's file role, then INSERT on
#     the table, are needed.
#
# Prints "PASS register: name" / "FAIL register: name: why".  $FLOE_BIN is the binary.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
INTEROP=${FLOE_INTEROP:-${FLOE_SHARED:-$PWD/../shared}/tools/interop/bin}

tmp=$(mktemp -d /tmp/floe-register.XXXXXX)
fix=$tmp/fix
mkdir -p "$fix/dir" "$fix/part"
srv_pid=
endpoint=
s3st=$tmp/s3state
cleanup() {
	[ -n "$srv_pid" ] && floe_stop "$srv_pid"
	[ -n "$endpoint" ] && S3_SERVER_STATE_DIR=$s3st "$INTEROP/s3-server" stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

nfail=0
pass() { echo "PASS register: $1"; }
fail() {
	echo "FAIL register: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -40 "$3" | sed 's/^/    /'; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL register: binary $FLOE_BIN not built"
	exit 1
fi
if [ ! -x "$INTEROP/duckdb-sql" ]; then
	echo "register: DuckDB (../shared/tools/interop) not available: suite not run"
	exit 0
fi

wh=$tmp/wh
# fl SQL...: floe's shell on the suite's warehouse, CSV rows only
fl() {
	local a=()
	for s in "$@"; do a+=(-c "$s"); done
	"$FLOE_BIN" -D "$wh" --csv -t -q "${a[@]}" 2>&1
}
duck() { "$INTEROP/duckdb-sql" --no-header "$@" 2>&1; }

# ---- DuckDB's files ------------------------------------------------------------
rows="SELECT i::BIGINT AS id, CASE WHEN i % 11 = 0 THEN NULL ELSE 'n' || i END AS name,
	(i * 0.25)::DECIMAL(10,2) AS amount, TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 37) AS ts,
	CASE WHEN i % 13 = 0 THEN 'NaN'::DOUBLE WHEN i % 17 = 0 THEN NULL ELSE i / 7.0 END AS f,
	DATE '2020-01-01' + CAST(i AS INTEGER) AS d"
if ! duck "COPY ($rows FROM range(1, 3001) t(i)) TO '$fix/dir/d1.parquet' (FORMAT parquet, ROW_GROUP_SIZE 1000);
	COPY ($rows FROM range(3001, 6001) t(i)) TO '$fix/dir/d2.parquet' (FORMAT parquet, ROW_GROUP_SIZE 1000);
	COPY ($rows, i % 5 AS extra FROM range(6001, 9001) t(i)) TO '$fix/ids-d3.parquet'
		(FORMAT parquet, ROW_GROUP_SIZE 1000, FIELD_IDS {id: 1, name: 2, amount: 3, ts: 4, f: 5, d: 6, extra: 99});
	COPY ($rows FROM range(6001, 9001) t(i)) TO '$fix/d3.parquet'
		(FORMAT parquet, ROW_GROUP_SIZE 1000, FIELD_IDS {id: 1, name: 2, amount: 3, ts: 4, f: 5, d: 6});
	SELECT 1" >"$tmp/duck_write.out"; then
	fail duckdb_write "DuckDB could not write the files" "$tmp/duck_write.out"
	exit 1
fi

# ---- registering and reading back ------------------------------------------------
ddl="CREATE TABLE t (id bigint NOT NULL, name text, amount numeric(10,2), ts timestamp, f double precision, d date)"
out=$(fl "$ddl" "REGISTER FILES INTO t FROM '$fix/dir/'" "REGISTER FILES INTO t FROM '$fix/d[0-9].parquet' FILE_FORMAT PARQUET")
if [ "$out" = "$(printf '2,6000,%s\n1,3000,%s' "$(($(stat -c %s "$fix/dir/d1.parquet") + $(stat -c %s "$fix/dir/d2.parquet")))" "$(stat -c %s "$fix/d3.parquet")")" ]; then
	pass files_result_rows
else
	fail files_result_rows "$out"
fi
# a file column with a field id the table lacks is refused (a later column
# with that id would read it)
out=$(fl "REGISTER FILES INTO t FROM '$fix/ids-d3.parquet'")
if printf '%s' "$out" | grep -q 'ids-d3.parquet" has column "extra" with field id 99'; then
	pass files_foreign_field_id
else
	fail files_foreign_field_id "$out"
fi

# values other Iceberg readers would read differently are refused by name
duck "COPY (SELECT TIMESTAMP_NS '2024-01-01 00:00:00.123456789' AS ts, 5::UINTEGER AS u FROM range(0, 3)) TO '$fix/odd.parquet' (FORMAT parquet); SELECT 1" >/dev/null
o1=$(fl "CREATE TABLE ons (ts timestamp)" "REGISTER FILES INTO ons FROM '$fix/odd.parquet'")
o2=$(fl "CREATE TABLE ou (u bigint)" "REGISTER FILES INTO ou FROM '$fix/odd.parquet'")
if printf '%s' "$o1" | grep -q 'column "ts" of Parquet file ".*odd.parquet": its nanosecond values' &&
   printf '%s' "$o2" | grep -q 'column "u" of Parquet file ".*odd.parquet": its unsigned values'; then
	pass files_other_readers_values
else
	fail files_other_readers_values "$o1 / $o2"
fi

out=$(fl "COPY (SELECT * FROM t) TO '$tmp/floe_t.parquet' (FORMAT parquet)" "SELECT count(*), count(DISTINCT id) FROM t")
files="['$fix/dir/d1.parquet', '$fix/dir/d2.parquet', '$fix/d3.parquet']"
got=$(duck "SELECT (SELECT count(*) FROM read_parquet('$tmp/floe_t.parquet')),
	(SELECT count(*) FROM (SELECT * FROM read_parquet('$tmp/floe_t.parquet') EXCEPT ALL SELECT * FROM read_parquet($files))),
	(SELECT count(*) FROM (SELECT * FROM read_parquet($files) EXCEPT ALL SELECT * FROM read_parquet('$tmp/floe_t.parquet')))")
if [ "$out" = "9000,9000" ] && [ "$got" = "9000,0,0" ]; then
	pass files_equal_duckdb
else
	fail files_equal_duckdb "floe: $out; DuckDB rows, floe-only, DuckDB-only: $got"
fi
# aggregates floe computes over the registered files = DuckDB's over them
mine=$(fl "SELECT count(*), count(name), sum(amount), count(f), sum(CASE WHEN f = 'NaN' THEN 1 ELSE 0 END), min(ts)::text, max(d)::text FROM t")
theirs=$(duck "SELECT count(*), count(name), sum(amount), count(f), sum(CASE WHEN isnan(f) THEN 1 ELSE 0 END), strftime(min(ts), '%Y-%m-%d %H:%M:%S'), max(d)::VARCHAR FROM read_parquet($files)")
if [ -n "$mine" ] && [ "$mine" = "$theirs" ]; then
	pass files_aggregates_equal_duckdb
else
	fail files_aggregates_equal_duckdb "floe: $mine, DuckDB: $theirs"
fi

# ---- statistics: pruning, counts -------------------------------------------------
out=$("$FLOE_BIN" -D "$wh" -q -c "EXPLAIN ANALYZE SELECT count(*) FROM t WHERE id > 8500" 2>&1)
if printf '%s' "$out" | grep -q 'Pruned: files=2 row groups=1'; then
	pass prune_on_bounds
else
	fail prune_on_bounds "expected files=2 row groups=1 pruned: $(printf '%s' "$out" | tr '\n' ' ')"
fi
out=$("$FLOE_BIN" -D "$wh" -q -c "EXPLAIN ANALYZE SELECT count(*) FROM t WHERE d < DATE '2020-03-01'" 2>&1)
if printf '%s' "$out" | grep -q 'Pruned: files=2 row groups=1'; then
	pass prune_on_date_bounds
else
	fail prune_on_date_bounds "$(printf '%s' "$out" | tr '\n' ' ')"
fi

# ---- independent readers ----------------------------------------------------------
tdir=$wh/public/t
if "$INTEROP/iceberg-validate" "$tdir" --deep --map "$fix=$fix" >"$tmp/validate.out" 2>&1 &&
   grep -q ' 3 data file(s), 9000 record(s)' "$tmp/validate.out"; then
	pass validate_deep
else
	fail validate_deep "iceberg-validate --deep failed" "$tmp/validate.out"
fi
# icebird: the same rows (id, name: text both tools print alike)
"$INTEROP/iceberg-read" "$tdir" --map "$fix=$fix" --csv >"$tmp/icebird.csv" 2>"$tmp/icebird.err"
ice=$(tail -n +3 "$tmp/icebird.csv" | cut -d, -f1,2 | sort | md5sum)
mine=$(fl "SELECT id, name FROM t" | sort | md5sum)
n=$(tail -n +3 "$tmp/icebird.csv" | wc -l)
if [ "$n" = 9000 ] && [ "$ice" = "$mine" ]; then
	pass icebird_reads_same_rows
else
	fail icebird_reads_same_rows "icebird: $n rows ($(head -c 300 "$tmp/icebird.err"))" "$tmp/icebird.csv"
fi

# ---- a partitioned table ------------------------------------------------------------
if duck "COPY (SELECT 'eu' AS region, DATE '2024-01-01' + CAST(i % 31 AS INTEGER) AS d, i::BIGINT AS x FROM range(0, 500) t(i)) TO '$fix/part/eu-jan.parquet' (FORMAT parquet);
	COPY (SELECT 'eu' AS region, DATE '2024-02-01' + CAST(i % 29 AS INTEGER) AS d, i::BIGINT AS x FROM range(500, 800) t(i)) TO '$fix/part/eu-feb.parquet' (FORMAT parquet);
	COPY (SELECT 'us' AS region, DATE '2024-02-01' + CAST(i % 29 AS INTEGER) AS d, i::BIGINT AS x FROM range(800, 1000) t(i)) TO '$fix/part/us-feb.parquet' (FORMAT parquet);
	COPY (SELECT NULL::VARCHAR AS region, DATE '2024-03-05' AS d, i::BIGINT AS x FROM range(1000, 1010) t(i)) TO '$fix/part/none-mar.parquet' (FORMAT parquet);
	COPY (SELECT CASE WHEN i < 5 THEN 'eu' ELSE 'us' END AS region, DATE '2024-01-02' AS d, i::BIGINT AS x FROM range(0, 10) t(i)) TO '$fix/mixed.parquet' (FORMAT parquet);
	COPY (SELECT 'us' AS region, DATE '2024-01-31' + CAST(i AS INTEGER) AS d, i::BIGINT AS x FROM range(0, 3) t(i)) TO '$fix/spans-month.parquet' (FORMAT parquet);
	SELECT 1" >"$tmp/duck_part.out"; then
	out=$(fl "CREATE TABLE p (region text, d date, x bigint) PARTITIONED BY (region, month(d))" \
		"REGISTER FILES INTO p FROM '$fix/part/*.parquet'" \
		"SELECT partition, record_count, file_count FROM p\$partitions ORDER BY 1")
	want='4,1010,'"$(cat "$fix"/part/*.parquet | wc -c)"'
"{""region"":""eu"",""d_month"":648}",500,1
"{""region"":""eu"",""d_month"":649}",300,1
"{""region"":""us"",""d_month"":649}",200,1
"{""region"":null,""d_month"":650}",10,1'
	if [ "$out" = "$want" ]; then
		pass part_values_from_bounds
	else
		fail part_values_from_bounds "$(printf '%s' "$out" | tr '\n' ' ')"
	fi
	out=$("$FLOE_BIN" -D "$wh" -q -c "EXPLAIN ANALYZE SELECT count(*) FROM p WHERE region = 'us'" 2>&1)
	cnt=$(fl "SELECT count(*) FROM p WHERE region = 'us'")
	if printf '%s' "$out" | grep -q 'Pruned: files=3' && [ "$cnt" = 200 ]; then
		pass part_prunes
	else
		fail part_prunes "count $cnt; $(printf '%s' "$out" | tr '\n' ' ')"
	fi
	o1=$(fl "REGISTER FILES INTO p FROM '$fix/mixed.parquet'")
	o2=$(fl "REGISTER FILES INTO p FROM '$fix/spans-month.parquet'")
	if printf '%s' "$o1" | grep -q 'mixed.parquet" spans partitions of field "region"' &&
	   printf '%s' "$o2" | grep -q 'spans-month.parquet" spans partitions of field "d_month"' &&
	   [ "$(fl "SELECT count(*) FROM p")" = 1010 ]; then
		pass part_spanning_refused
	else
		fail part_spanning_refused "$o1 / $o2"
	fi
	"$INTEROP/iceberg-read" "$wh/public/p" --map "$fix=$fix" --csv >"$tmp/icebird_p.csv" 2>"$tmp/icebird_p.err"
	ice=$(tail -n +3 "$tmp/icebird_p.csv" | awk -F, '{print $1 "," $3}' | sort | md5sum)
	mine=$(fl "SELECT coalesce(region, ''), x FROM p" | sort | md5sum)
	if [ "$(tail -n +3 "$tmp/icebird_p.csv" | wc -l)" = 1010 ] && [ "$ice" = "$mine" ] &&
	   "$INTEROP/iceberg-validate" "$wh/public/p" --deep --map "$fix=$fix" >"$tmp/validate_p.out" 2>&1; then
		pass part_icebird_and_validate
	else
		fail part_icebird_and_validate "$(head -c 300 "$tmp/icebird_p.err")" "$tmp/validate_p.out"
	fi
else
	fail part_files "DuckDB could not write the files" "$tmp/duck_part.out"
fi

# ---- two sessions, one file -------------------------------------------------------------
ok=0
for i in 1 2 3; do
	fl "CREATE TABLE r$i (id bigint NOT NULL, name text, amount numeric(10,2), ts timestamp, f double precision, d date)" >/dev/null
	fl "REGISTER FILES INTO r$i FROM '$fix/dir/d1.parquet'" >"$tmp/race1.$i" &
	p1=$!
	fl "REGISTER FILES INTO r$i FROM '$fix/dir/d1.parquet'" >"$tmp/race2.$i" &
	p2=$!
	wait "$p1" "$p2"
	n=$(fl "SELECT count(*) FROM r$i\$files WHERE file_path LIKE '%/d1.parquet'")
	if [ "$n" = 1 ] && cat "$tmp/race1.$i" "$tmp/race2.$i" | grep -q "is already a data file of table \"r$i\""; then
		ok=$((ok + 1))
	else
		fail dup_race "round $i: $n entries; $(cat "$tmp/race1.$i" "$tmp/race2.$i" | tr '\n' ' ')"
		break
	fi
done
[ $ok = 3 ] && pass dup_race

# ---- object storage (s3rver): footers and only the chunks needed are fetched -----------
if [ -x "$FLOE_ROOT/build/tests/tools/fileio_cli" ] || [ -x "$PWD/build/tests/tools/fileio_cli" ]; then
	CLI=$PWD/build/tests/tools/fileio_cli
	mkdir -p "$tmp/objects"
	s3out=$(S3_SERVER_STATE_DIR=$s3st NODE_OPTIONS=--openssl-legacy-provider "$INTEROP/s3-server" start "$tmp/objects" 0 --bucket wh 2>&1)
	endpoint=$(printf '%s' "$s3out" | sed -n 's/.*endpoint=\([^ ]*\).*/\1/p')
fi
# same_entries DIR1 DIR2 NAME...: the manifest entries (all but the path) of
# files NAME.parquet in the manifests of the two metadata folders are equal
same_entries() {
	local d d1=$1 d2=$2
	shift 2
	for d in "$d1" "$d2"; do
		for m in "$d"/*-m[0-9]*.avro*; do
			case $m in *.md5|*_S3rver_metadata.json) continue ;; esac
			"$INTEROP/avro-dump" "$m" | tail -n +2
		done >"$tmp/entries.$(basename "$d")"
	done
	python3 - "$tmp/entries.$(basename "$d1")" "$tmp/entries.$(basename "$d2")" "$@" <<'PY'
import json, os, sys
def load(f):
    out = {}
    for line in open(f):
        df = json.loads(line)["data_file"]
        out[os.path.basename(df.pop("file_path"))] = df
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
names = [n + ".parquet" for n in sys.argv[3:]]
ok = all(k in a and k in b and a[k] == b[k] and a[k]["nan_value_counts"] for k in names)
print("equal" if ok else "differ: %s / %s" % (a.get(names[0]), b.get(names[0])))
sys.exit(0 if ok else 1)
PY
}
if [ -n "${endpoint:-}" ]; then
	(
		unset AWS_SESSION_TOKEN AWS_PROFILE AWS_ENDPOINT_URL_S3 FLOE_S3_PATH_STYLE
		export AWS_ENDPOINT_URL=$endpoint AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
		export FLOE_STATE_DIR=$tmp/s3floe
		"$CLI" put s3://wh/in/d1.parquet "$fix/dir/d1.parquet" 2>/dev/null
		"$CLI" put s3://wh/in/d2.parquet "$fix/dir/d2.parquet" 2>/dev/null
		s3fl() { "$FLOE_BIN" -D s3://wh/a --csv -t -q "$@" 2>&1; }
		# an object larger than the footer read: its float chunk is fetched
		# for the NaN count, its other chunks never
		duck "COPY (SELECT CASE WHEN i % 9 = 0 THEN 'NaN'::DOUBLE WHEN i % 10 = 0 THEN NULL ELSE i / 3.0 END AS f, i::BIGINT AS id FROM range(0, 400000) t(i)) TO '$fix/big.parquet' (FORMAT parquet); SELECT 1" >/dev/null
		"$CLI" put s3://wh/other/big.parquet "$fix/big.parquet" 2>/dev/null
		fl "CREATE TABLE big (f double precision, id bigint)" "REGISTER FILES INTO big FROM '$fix/big.parquet'" >/dev/null
		s3fl -c "CREATE TABLE big (f double precision, id bigint)" -c "REGISTER FILES INTO big FROM 's3://wh/other/big.parquet'" >/dev/null
		out=$(s3fl -c "$ddl" -c "REGISTER FILES INTO t FROM 's3://wh/in/*.parquet'" \
			-c "SELECT count(*), count(name), sum(amount), count(f), sum(CASE WHEN f = 'NaN' THEN 1 ELSE 0 END), min(ts)::text, max(d)::text FROM t")
		theirs=$(duck "SELECT count(*), count(name), sum(amount), count(f), sum(CASE WHEN isnan(f) THEN 1 ELSE 0 END), strftime(min(ts), '%Y-%m-%d %H:%M:%S'), max(d)::VARCHAR FROM read_parquet(['$fix/dir/d1.parquet', '$fix/dir/d2.parquet'])")
		m=$(s3fl -c "SELECT file FROM t\$metadata_log_entries ORDER BY timestamp DESC LIMIT 1")
		if [ "$out" = "$(printf '2,6000,%s\n%s' "$(($(stat -c %s "$fix/dir/d1.parquet") + $(stat -c %s "$fix/dir/d2.parquet")))" "$theirs")" ] &&
		   "$INTEROP/iceberg-validate" "$tmp/objects/${m#s3://}._S3rver_object" --deep --s3rver-dir "$tmp/objects" >"$tmp/validate_s3.out" 2>&1 &&
		   grep -q ' 2 data file(s), 6000 record(s)' "$tmp/validate_s3.out" &&
		   same_entries "$wh/public/t/metadata" "$tmp/objects/wh/a/public/t/metadata" d1 d2 >"$tmp/entries_s3.out" 2>&1 &&
		   same_entries "$wh/public/big/metadata" "$tmp/objects/wh/a/public/big/metadata" big >>"$tmp/entries_s3.out" 2>&1; then
			pass s3_objects
		else
			fail s3_objects "$(printf '%s' "$out" | tr '\n' ' ') vs DuckDB $theirs; $(head -c 600 "$tmp/entries_s3.out")" "$tmp/validate_s3.out"
		fi
		# INFER_SCHEMA of the objects (footers read sparsely) says what it
		# says of the same local files; a CSV object is sampled as a local one
		printf 'id,name,amount\n1,a,1.5\n2,,2.5\n' >"$fix/small.csv"
		"$CLI" put s3://wh/csv/small.csv "$fix/small.csv" 2>/dev/null
		q="SELECT column_name, inferred_type, nullable, order_id, field_id, filenames FROM infer_schema(location =>"
		il=$(fl "$q '$fix/dir/')" "$q '$fix/small.csv')")
		is=$(s3fl -c "$q 's3://wh/in/')" -c "$q 's3://wh/csv/small.csv')")
		if [ -n "$il" ] && [ "$il" = "$is" ] && printf '%s\n' "$is" | grep -q '^id,bigint,t,0,,"d1.parquet, d2.parquet"$' &&
		   printf '%s\n' "$is" | grep -q '^amount,double precision,f,2,,small.csv$'; then
			pass infer_schema_s3
		else
			fail infer_schema_s3 "local: $(printf '%s' "$il" | tr '\n' ' ') s3: $(printf '%s' "$is" | tr '\n' ' ')"
		fi
		exit $nfail
	)
	[ $? -eq 0 ] || nfail=$((nfail + 1))
	S3_SERVER_STATE_DIR=$s3st "$INTEROP/s3-server" stop >/dev/null 2>&1
else
	echo "register: s3rver or fileio_cli not available: s3_objects not run"
fi

# ---- footers read in parallel: the same entries and the serial loop's error -----------
mkdir -p "$fix/many/files"
duck "COPY (SELECT i::BIGINT AS id, CASE WHEN i % 7 = 0 THEN 'NaN'::DOUBLE ELSE i / 3.0 END AS f, i // 50 AS part
	FROM range(0, 2000) t(i)) TO '$fix/many/files' (FORMAT parquet, PARTITION_BY (part)); SELECT 1" >/dev/null
k=0
for f in "$fix"/many/files/part=*/*.parquet; do
	mv "$f" "$fix/many/f$(printf %02d $k).parquet"
	k=$((k + 1))
done
rm -rf "$fix/many/files"
out=$(fl "CREATE TABLE p1 (id bigint, f double precision)" "CREATE TABLE p16 (id bigint, f double precision)" \
	"SET floe.register_parallel_reads = 1" "REGISTER FILES INTO p1 FROM '$fix/many/'" \
	"SET floe.register_parallel_reads = 16" "REGISTER FILES INTO p16 FROM '$fix/many/'")
names=$(cd "$fix/many" && ls | sed 's/\.parquet$//')
# shellcheck disable=SC2086
if [ "$k" = 40 ] && [ "$out" = "$(printf '40,2000,%s\n40,2000,%s' "$(cat "$fix"/many/*.parquet | wc -c)" "$(cat "$fix"/many/*.parquet | wc -c)")" ] &&
   same_entries "$wh/public/p1/metadata" "$wh/public/p16/metadata" $names >"$tmp/entries_par.out" 2>&1 &&
   [ "$(fl "SELECT file_path FROM p1\$files" | sed 's|.*/||' | tr '\n' ' ')" = "$(fl "SELECT file_path FROM p16\$files" | sed 's|.*/||' | tr '\n' ' ')" ]; then
	pass parallel_same_entries
else
	fail parallel_same_entries "$k files; $out; $(head -c 400 "$tmp/entries_par.out")"
fi
# bad files from the 4th on (not Parquet, a cut footer, ...): every run
# names f03, the first of them, as the serial loop does
printf 'id,f\n1,2\n' >"$fix/many/f03.parquet"
for b in 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20; do
	head -c 900 "$fix/many/f$b.parquet" >"$tmp/cut" && mv "$tmp/cut" "$fix/many/f$b.parquet"
	printf 'PAR1' >>"$fix/many/f$b.parquet"
done
ok=0
for r in 1 2 3 4 5; do
	o16=$(fl "CREATE TABLE e$r (id bigint, f double precision)" "REGISTER FILES INTO e$r FROM '$fix/many/'")
	o1=$(fl "SET floe.register_parallel_reads = 1" "REGISTER FILES INTO e$r FROM '$fix/many/'")
	if [ "$o16" = "$o1" ] && printf '%s' "$o16" | grep -q 'ERROR:  file ".*/many/f03.parquet" is not a Parquet file' &&
	   [ "$(fl "SELECT count(*) FROM e$r")" = 0 ]; then
		ok=$((ok + 1))
	else
		fail parallel_first_error "run $r: $o16 / serial: $o1"
		break
	fi
done
o=$(fl "SET floe.register_parallel_reads = 0" "REGISTER FILES INTO e1 FROM '$fix/many/'")
if [ $ok = 5 ] && printf '%s' "$o" | grep -q 'floe.register_parallel_reads must be an integer from 1 to 64'; then
	pass parallel_first_error
fi
rm "$fix/many/f03.parquet"
o=$(fl "REGISTER FILES INTO e1 FROM '$fix/many/'")
o1=$(fl "SET floe.register_parallel_reads = 1" "REGISTER FILES INTO e1 FROM '$fix/many/'")
if [ "$o" = "$o1" ] && printf '%s' "$o" | grep -q 'many/f04.parquet'; then
	pass parallel_cut_footer_error
else
	fail parallel_cut_footer_error "$o / serial: $o1"
fi

# ---- privileges (floe serve): COPY FROM's file role and INSERT on the table ------------
. tests/tools/floe_server.sh
if command -v psql >/dev/null && floe_serve "$tmp/serve" -D "$tmp/whs" --port 0 --http-port off --allow-dir "$fix"; then
	FL="host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10"
	reg="REGISTER FILES INTO public.g FROM '$fix/dir/d1.parquet'"
	out=$(psql -X -q -t -A "$FL" -c "CREATE TABLE g (id bigint NOT NULL, name text, amount numeric(10,2), ts timestamp, f double precision, d date)" \
		-c "CREATE ROLE alice" -c "GRANT USAGE ON SCHEMA public TO alice" -c "GRANT SELECT ON g TO alice" \
		-c "SET ROLE alice" -c "$reg" -c "RESET ROLE" -c "GRANT pg_read_server_files TO alice" \
		-c "SET ROLE alice" -c "$reg" -c "RESET ROLE" -c "GRANT INSERT ON g TO alice" \
		-c "SET ROLE alice" -c "$reg" -c "SELECT count(*) FROM g" 2>&1)
	want="ERROR:  must be superuser or have privileges of the pg_read_server_files role to COPY from a file
ERROR:  permission denied for table g
1|3000|$(stat -c %s "$fix/dir/d1.parquet")
3000"
	if [ "$(printf '%s\n' "$out" | grep -v '^DETAIL\|^HINT')" = "$want" ]; then
		pass privileges
	else
		fail privileges "$(printf '%s' "$out" | tr '\n' '|')"
	fi
else
	echo "register: psql or floe serve not available: privileges not run"
fi

[ $nfail -eq 0 ]
