#!/usr/bin/env bash
# Nested suite (issue 20): Parquet LIST columns of a primitive type read by
# floe as arrays exactly as DuckDB 1.5.6 (../shared/tools/interop) reads
# them, and the nested columns floe does not read refused by name.
#
# Files: every ../shared/testdata/parquet/data/*.parquet, plus files DuckDB
# writes here (every primitive element type, NULL lists, empty lists, NULL
# elements, strings that need quoting; data page v1 and v2, several row
# groups, dictionary / delta / byte-stream-split encodings, and one list of
# 300 000 elements spanning pages).  For each file DuckDB describes
# (DESCRIBE) and reads, tests/tools/nested_helper.py writes one sqltest file:
#   - a column DuckDB types T[] (T primitive): floe's col::text of every row
#     equals DuckDB's list printed as PostgreSQL's array_out would
#     ({1,2,NULL}, elements quoted as PostgreSQL quotes them), rows compared
#     sorted; the 300 000-element list by length and md5 of its text;
#   - a STRUCT, MAP, T[][] (or a list of those) column: SELECT of it fails
#     with 0A000 'column "c" has the nested type ...';
#   - count(*) equals DuckDB's (a file with refused columns still counts).
# A file DuckDB cannot read is listed as skipped, not failed.
# And floe's own array columns written as Iceberg lists: a table of every
# element type (NULL list, empty list, NULL elements; small pages and row
# groups; UPDATE and ADD COLUMN): each data file passes parquet-check
# (DuckDB = hyparquet) and is compared as above (DuckDB = floe), icebird
# reads the table's rows as floe does, iceberg-validate --deep passes.
#
# Prints "PASS nested: name" / "FAIL nested: name: why".
# Env: FLOE_ROOT, FLOE_SHARED, SQLTEST_BIN (default: the sqltest next to
# $FLOE_BIN, build-san's if unset); NESTED_KEEP=1 keeps the scratch folder.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
if [ -z "${SQLTEST_BIN:-}" ]; then
	if [ -n "${FLOE_BIN:-}" ]; then
		SQLTEST_BIN=$(dirname "$FLOE_BIN")/tests/tools/sqltest
	else
		SQLTEST_BIN=build-san/tests/tools/sqltest
	fi
fi
if [ ! -x "$TOOLS/duckdb-sql" ]; then
	echo "FAIL nested: interop tools missing in $TOOLS"
	exit 1
fi
if [ ! -x "$SQLTEST_BIN" ]; then
	echo "FAIL nested: $SQLTEST_BIN is not built"
	exit 1
fi
tmp=$(mktemp -d /tmp/floe-nested.XXXXXX)
[ "${NESTED_KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT

# DuckDB's own files with lists of every primitive type floe has.
cat >"$tmp/gen.sql" <<EOF
CREATE TABLE t AS SELECT i AS id,
  CASE WHEN i % 7 = 0 THEN NULL WHEN i % 7 = 1 THEN []::INTEGER[] ELSE [i, NULL, -i]::INTEGER[] END AS ints,
  CASE WHEN i % 5 = 0 THEN NULL ELSE list_transform(range(i % 4), x -> CASE WHEN x = 2 THEN NULL ELSE 'v' || (x * i % 13)::VARCHAR END) END AS strs,
  [i::BIGINT * 1000000000000, NULL, -9223372036854775808]::BIGINT[] AS bigs,
  CASE WHEN i % 3 = 0 THEN [] ELSE [i % 2 = 0, NULL] END::BOOLEAN[] AS bools,
  [i / 4.0 + 0.5, 0.1, -2.5e-7, 1.5e300]::DOUBLE[] AS dbls,
  [(i / 8.0 + 0.25)::FLOAT, NULL]::FLOAT[] AS flts,
  [DATE '2024-01-01' + i::INTEGER, NULL, DATE '1900-03-01']::DATE[] AS dates,
  [TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) SECOND + INTERVAL 123 MILLISECOND]::TIMESTAMP[] AS tss,
  [(i / 100.0)::DECIMAL(10,2), NULL, 12345678.9::DECIMAL(10,2), -0.01::DECIMAL(10,2)]::DECIMAL(10,2)[] AS decs,
  [(i / 1000.0)::DECIMAL(20,3)]::DECIMAL(20,3)[] AS decs2,
  [(i * 1.5)::DECIMAL(38,10)]::DECIMAL(38,10)[] AS decs3,
  [i::SMALLINT, (-i)::SMALLINT]::SMALLINT[] AS smalls,
  [(i % 100)::TINYINT]::TINYINT[] AS tinys,
  [(i % 200)::UTINYINT, NULL]::UTINYINT[] AS utinys,
  [i::UINTEGER * 800000]::UINTEGER[] AS uints,
  ['\\x01\\x02'::BLOB, ''::BLOB, NULL]::BLOB[] AS blobs,
  ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::UUID, NULL]::UUID[] AS uuids,
  [TIME '12:34:56.789', NULL]::TIME[] AS times,
  ['', 'NULL', 'null', 'a b', 'q"u\\o{t}e,', 'é ü 日本', 'a longer string than twelve bytes ' || i::VARCHAR, NULL] AS tricky,
  CASE WHEN i % 11 = 0 THEN NULL ELSE list_transform(range(i % 40), x -> 'w' || (x % 3)::VARCHAR) END AS dictstrs
FROM range(0, 5000) r(i);
COPY t TO '$tmp/duck_v1.parquet' (FORMAT parquet, ROW_GROUP_SIZE 2048);
COPY t TO '$tmp/duck_v2.parquet' (FORMAT parquet, PARQUET_VERSION V2, COMPRESSION zstd, ROW_GROUP_SIZE 2048);
COPY t TO '$tmp/duck_snappy_one_rg.parquet' (FORMAT parquet, COMPRESSION snappy);
COPY (SELECT i AS id, CASE WHEN i = 1 THEN list_transform(range(300000), x -> x::INTEGER) WHEN i = 2 THEN NULL ELSE [i::INTEGER] END AS big FROM range(0, 4) r(i))
  TO '$tmp/duck_big_list.parquet' (FORMAT parquet);
COPY (SELECT i AS id, CASE WHEN i = 1 THEN list_transform(range(300000), x -> x::INTEGER) WHEN i = 2 THEN NULL ELSE [i::INTEGER] END AS big FROM range(0, 4) r(i))
  TO '$tmp/duck_big_list_v2.parquet' (FORMAT parquet, PARQUET_VERSION V2);
COPY (SELECT i AS id, {'a': i, 'b': [i]} AS s, MAP {'k': i} AS m, [[i]] AS ll, [{'x': i}] AS ls, [i] AS l FROM range(0, 3) r(i))
  TO '$tmp/duck_nested.parquet' (FORMAT parquet);
SELECT count(*) FROM t;
EOF
if ! "$TOOLS/duckdb-sql" -f "$tmp/gen.sql" >"$tmp/gen.out" 2>&1; then
	echo "FAIL nested: DuckDB could not write the test files: $(tail -1 "$tmp/gen.out")"
	exit 1
fi

# floe's own array columns (Iceberg lists, Parquet 3-level LIST), read by
# the independent readers: every data file DuckDB and hyparquet agree on
# (parquet-check) and DuckDB's reading of it equals floe's (the cases the
# helper writes below, floe_*.parquet); icebird reads the table with the
# rows floe reads (to_json of each list); iceberg-validate --deep.
# (time[] is left out: hyparquet 1.33 reads TIME(MICROS) list elements as
# micros where DuckDB and floe read them as times: parquet-check differs.)
FLOE=${FLOE_BIN:-$(dirname "$SQLTEST_BIN")/../../floe}
rc=0
cat >"$tmp/floe_gen.sql" <<'EOF2'
CREATE TABLE fw (id int, i int[], b bigint[], s smallint[], t text[], v varchar(4)[], bo bool[], f8 float8[], f4 real[], n numeric(10,2)[], nn numeric(30,4)[], d date[], ts timestamp[], tz timestamptz[], u uuid[], by bytea[]) WITH ('write.parquet.page-size-bytes' = '700', 'write.parquet.row-group-size-bytes' = '40000', 'write.parquet.dict-size-bytes' = '300');
INSERT INTO fw VALUES (1, ARRAY[1,NULL,-2147483648], '{9223372036854775807,NULL}', '{-32768,7}', ARRAY['', 'NULL', 'a b', 'q"u\o{t}e,', 'é ü 日本', NULL], '{abcd,NULL}', '{t,f,NULL}', '{1.5,-0,1e300,-Infinity,NULL}', '{0.1,NULL}', '{1.50,-0.01,NULL,12345678.90}', '{12345678901234567890.1234,NULL}', '{2024-01-02,NULL,1900-03-01}', '{"2024-01-02 03:04:05.123456",NULL}', '{"2024-01-02 03:04:05+00",NULL}', '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,NULL}', ARRAY['\x0102'::bytea, ''::bytea, NULL]);
INSERT INTO fw (id) VALUES (2);
INSERT INTO fw VALUES (3, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}');
INSERT INTO fw (id, i, t, n) VALUES (4, '{NULL}', '{NULL}', '{NULL}');
INSERT INTO fw (id, i, t, f8) SELECT g, CASE WHEN g % 7 = 0 THEN NULL WHEN g % 7 = 1 THEN '{}' ELSE (SELECT array_agg(CASE WHEN x = 3 THEN NULL ELSE g * 100 + x END) FROM generate_series(1, g % 40) x) END, CASE WHEN g % 5 = 0 THEN NULL ELSE ARRAY['w' || (g % 3), NULL, repeat('x', g % 30)] END, ARRAY[g / 3.0] FROM generate_series(10, 6000) g;
UPDATE fw SET i = i || 42 WHERE id = 3;
ALTER TABLE fw ADD COLUMN extra text[];
INSERT INTO fw (id, extra) VALUES (5, '{x,NULL,""}');
EOF2
if ! "$FLOE" shell -D "$tmp/fwh" <"$tmp/floe_gen.sql" >"$tmp/floe_gen.out" 2>&1 || grep -q ERROR "$tmp/floe_gen.out"; then
	echo "FAIL nested: floe could not write the array table: $(grep ERROR "$tmp/floe_gen.out" | head -2)"
	rc=1
else
	n=0
	for f in "$tmp"/fwh/public/fw/data/*.parquet; do
		n=$((n + 1))
		cp "$f" "$tmp/floe_$n.parquet"
		if out=$("$TOOLS/parquet-check" "$f" --quiet 2>&1); then
			echo "PASS nested: parquet-check floe_$n.parquet ($out)" | cut -c1-160
		else
			rc=1
			echo "FAIL nested: parquet-check floe_$n.parquet: $(tail -2 <<<"$out")"
		fi
	done
	echo "SELECT id, to_json(i)::text, to_json(t)::text, to_json(b)::text FROM fw ORDER BY id;" >"$tmp/floe_rows.sql"
	"$FLOE" shell -D "$tmp/fwh" -A -t -F '|' <"$tmp/floe_rows.sql" >"$tmp/floe_rows.txt" 2>&1
	if ! "$TOOLS/iceberg-read" "$tmp/fwh/public/fw" --csv >"$tmp/icebird.out" 2>&1; then
		rc=1
		echo "FAIL nested: icebird: $(tail -2 "$tmp/icebird.out")"
	elif python3 - "$tmp/icebird.out" "$tmp/floe_rows.txt" <<'EOF2'
import csv, json, sys
lines = open(sys.argv[1]).read().splitlines()
rows = list(csv.DictReader(lines[1:]))
def norm(x):
    return "" if x == "" else json.dumps(json.loads(x), separators=(",", ":"), ensure_ascii=False)
ice = sorted((int(r["id"]), norm(r["i"]), norm(r["t"]), norm(r["b"])) for r in rows)
fl = []
for ln in open(sys.argv[2]).read().splitlines():
    if not ln.strip():
        continue
    p = ln.split("|")
    fl.append((int(p[0]), norm(p[1]), norm(p[2]), norm(p[3])))
fl.sort()
if ice != fl:
    bad = next((a, b) for a, b in zip(ice + [None] * len(fl), fl + [None] * len(ice)) if a != b)
    print(f"icebird {len(ice)} rows, floe {len(fl)}; first difference: {bad}")
    sys.exit(1)
print(f"{len(ice)} rows")
EOF2
	then
		echo "PASS nested: icebird reads floe's array table as floe does"
	else
		rc=1
		echo "FAIL nested: icebird and floe disagree on the array table"
	fi
	if out=$("$TOOLS/iceberg-validate" "$tmp/fwh/public/fw" --deep 2>&1); then
		echo "PASS nested: iceberg-validate --deep of floe's array table"
	else
		rc=1
		echo "FAIL nested: iceberg-validate: $(grep -i error <<<"$out" | head -3)"
	fi
fi

files=("$SHARED"/testdata/parquet/data/*.parquet "$tmp"/duck_*.parquet "$tmp"/floe_*.parquet)
if ! python3 tests/tools/nested_helper.py "$TOOLS/duckdb-sql" "$tmp" "${files[@]}" >"$tmp/helper.out" 2>&1; then
	echo "FAIL nested: helper: $(tail -3 "$tmp/helper.out")"
	exit 1
fi
grep '^SKIP ' "$tmp/helper.out" | sed 's/^SKIP /note nested: skipped /'

for t in "$tmp"/cases/*.test; do
	name=$(basename "$t" .test)
	if out=$("$SQLTEST_BIN" "$t" 2>&1) && grep -q '^PASS ' <<<"$out"; then
		echo "PASS nested: $name $(grep -o "([0-9]* statements, [0-9]* queries)" <<<"$out")"
	else
		rc=1
		echo "FAIL nested: $name: $(grep -v '^PASS' <<<"$out" | head -8 | cut -c1-400)"
	fi
done
exit $rc
