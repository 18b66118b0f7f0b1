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

files=("$SHARED"/testdata/parquet/data/*.parquet "$tmp"/duck_*.parquet)
if ! python3 tests/tools/nested_helper.py "$TOOLS/duckdb-sql" "$tmp" "${files[@]}" >"$tmp/helper.out" 2>&1; then
	echo "FAIL nested: helper: $(tail -3 "$tmp/helper.out")"
	exit 1
fi
grep '^SKIP ' "$tmp/helper.out" | sed 's/^SKIP /note nested: skipped /'

rc=0
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
