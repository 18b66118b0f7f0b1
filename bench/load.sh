#!/usr/bin/env bash
# bench/load.sh — issue 19's question: how fast does floe load and unload
# files, against DuckDB and PostgreSQL 15 in the same run on the same files.
#
#   input: TPC-H lineitem (../shared/testdata/tpch-sf0.1, 600,572 rows)
#   written by DuckDB as CSV, newline-delimited JSON and Parquet, the CSV
#   repeated REPEAT times (default 2: ~150 MB) into one file
#
#   load csv      floe COPY lineitem FROM 'big.csv' (FORMAT csv)
#                 floe COPY INTO lineitem FROM '@bench/' (stage, TYPE = CSV)
#                 DuckDB COPY (SELECT * FROM read_csv(...)) TO 'x.parquet'
#                 PostgreSQL COPY lineitem FROM 'big.csv' (FORMAT csv)
#   load json / parquet   floe COPY ... (FORMAT json|parquet) vs DuckDB's
#                 read_json / read_parquet into a Parquet file
#   unload        floe COPY lineitem TO 'x' (FORMAT csv|parquet) vs DuckDB
#                 COPY (SELECT * FROM read_parquet(...)) TO 'x'
#
# floe times are whole `floe -c` processes (start-up and commit included),
# release build; DuckDB's are measured inside its process (duckdb-sql
# --time), PostgreSQL's by psql's \timing.  Prints seconds, MB/s of the
# CSV input and the ratio floe / DuckDB (below 1: floe was faster).  Not a
# test: run on demand and record the figures in bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${1:-2}
make -s -j2 B=build all
INTEROP=$PWD/../shared/tools/interop/bin
src=$PWD/../shared/testdata/tpch-sf0.1/data/lineitem.parquet
tmp=$(mktemp -d /tmp/floe-loadbench.XXXXXX)
chmod 755 "$tmp"
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-loadbench-pg.XXXXXX)
trap 'scripts/pg-test-server.sh stop >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
unset PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS
F=$PWD/build/floe
W=$tmp/wh

COLS="l_orderkey bigint, l_partkey bigint, l_suppkey bigint, l_linenumber int, l_quantity numeric(15,2), l_extendedprice numeric(15,2), l_discount numeric(15,2), l_tax numeric(15,2), l_returnflag text, l_linestatus text, l_shipdate date, l_commitdate date, l_receiptdate date, l_shipinstruct text, l_shipmode text, l_comment text"
DCOLS="{l_orderkey: 'BIGINT', l_partkey: 'BIGINT', l_suppkey: 'BIGINT', l_linenumber: 'INTEGER', l_quantity: 'DECIMAL(15,2)', l_extendedprice: 'DECIMAL(15,2)', l_discount: 'DECIMAL(15,2)', l_tax: 'DECIMAL(15,2)', l_returnflag: 'VARCHAR', l_linestatus: 'VARCHAR', l_shipdate: 'DATE', l_commitdate: 'DATE', l_receiptdate: 'DATE', l_shipinstruct: 'VARCHAR', l_shipmode: 'VARCHAR', l_comment: 'VARCHAR'}"
SEL="SELECT l_orderkey, l_partkey, l_suppkey, l_linenumber::INTEGER AS l_linenumber, l_quantity::DECIMAL(15,2) AS l_quantity, l_extendedprice::DECIMAL(15,2) AS l_extendedprice, l_discount::DECIMAL(15,2) AS l_discount, l_tax::DECIMAL(15,2) AS l_tax, l_returnflag, l_linestatus, l_shipdate, l_commitdate, l_receiptdate, l_shipinstruct, l_shipmode, l_comment FROM read_parquet('$src')"

# the inputs, written by DuckDB
"$INTEROP/duckdb-sql" "COPY ($SEL) TO '$tmp/one.csv' (FORMAT csv, HEADER false); COPY ($SEL) TO '$tmp/li.json' (FORMAT json); COPY ($SEL) TO '$tmp/li.parquet' (FORMAT parquet); SELECT 1" >/dev/null
for _ in $(seq "$repeat"); do cat "$tmp/one.csv"; done >"$tmp/big.csv"
chmod 644 "$tmp"/*
mb=$(( $(stat -c %s "$tmp/big.csv") / 1000000 ))
rows=$(( 600572 * repeat ))
mkdir -p "$W/stages/bench"
ln "$tmp/big.csv" "$W/stages/bench/big.csv" 2>/dev/null || cp "$tmp/big.csv" "$W/stages/bench/big.csv"
echo "input: big.csv ${mb} MB, $rows rows; cores: $(nproc)"

# secs CMD...: wall seconds of a command
secs() {
	local s e
	s=$(date +%s.%N)
	"$@" >"$tmp/last.out" 2>&1 || { cat "$tmp/last.out"; exit 1; }
	e=$(date +%s.%N)
	echo "$e - $s" | bc
}
dsecs() {   # DuckDB's own timing of the statement (inside its process)
	local ms
	ms=$("$INTEROP/duckdb-sql" --time "$1" 2>&1 | sed -n 's/^duckdb-sql: .* in \([0-9.]*\) ms$/\1/p' | tail -1)
	[ -n "$ms" ] || { echo "duckdb failed: $1" >&2; exit 1; }
	echo "$ms / 1000" | bc -l
}
fl() {   # each argument one -c statement
	local a=()
	for x in "$@"; do a+=(-c "$x"); done
	"$F" -D "$W" "${a[@]}"
}
report() {   # name floe duck
	printf '%-14s floe %7.2fs  %6.0f MB/s   duckdb %7.2fs   ratio %.2f\n' "$1" "$2" "$(echo "$mb / $2" | bc -l)" "$3" \
		"$(echo "$2 / $3" | bc -l)"
}

fl "CREATE TABLE lineitem ($COLS)" >/dev/null
t_copy=$(secs fl "COPY lineitem FROM '$tmp/big.csv' (FORMAT csv)")
fl "DROP TABLE lineitem" "CREATE TABLE lineitem ($COLS)" >/dev/null
t_into=$(secs fl "COPY INTO lineitem FROM '@bench/' FILE_FORMAT = (TYPE = CSV)")
d_csv=$(dsecs "COPY (SELECT * FROM read_csv('$tmp/big.csv', header = false, columns = $DCOLS)) TO '$tmp/d.parquet' (FORMAT parquet)")
report "COPY FROM csv" "$t_copy" "$d_csv"
report "COPY INTO csv" "$t_into" "$d_csv"

# JSON and Parquet inputs (one SF0.1 copy each)
fl "CREATE TABLE lj ($COLS)" >/dev/null
t_json=$(secs fl "COPY lj FROM '$tmp/li.json' (FORMAT json)")
d_json=$(dsecs "COPY (SELECT * FROM read_json('$tmp/li.json', columns = $DCOLS)) TO '$tmp/dj.parquet' (FORMAT parquet)")
printf '%-14s floe %7.2fs   duckdb %7.2fs   ratio %.2f\n' "COPY FROM json" "$t_json" "$d_json" "$(echo "$t_json / $d_json" | bc -l)"
fl "CREATE TABLE lp ($COLS)" >/dev/null
t_pq=$(secs fl "COPY lp FROM '$tmp/li.parquet' (FORMAT parquet)")
d_pq=$(dsecs "COPY (SELECT * FROM read_parquet('$tmp/li.parquet')) TO '$tmp/dp.parquet' (FORMAT parquet)")
printf '%-14s floe %7.2fs   duckdb %7.2fs   ratio %.2f\n' "COPY FROM pq" "$t_pq" "$d_pq" "$(echo "$t_pq / $d_pq" | bc -l)"

# unload the big table
t_tocsv=$(secs fl "COPY lineitem TO '$tmp/out.csv' (FORMAT csv)")
t_topq=$(secs fl "COPY lineitem TO '$tmp/out.parquet' (FORMAT parquet)")
d_tocsv=$(dsecs "COPY (SELECT * FROM read_parquet('$tmp/d.parquet')) TO '$tmp/dout.csv' (FORMAT csv)")
d_topq=$(dsecs "COPY (SELECT * FROM read_parquet('$tmp/d.parquet')) TO '$tmp/dout.parquet' (FORMAT parquet)")
report "COPY TO csv" "$t_tocsv" "$d_tocsv"
report "COPY TO pq" "$t_topq" "$d_topq"

# PostgreSQL 15 COPY of the same file (server-side, unlogged off: a plain table)
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	PG="host=127.0.0.1 port=$pgport user=postgres dbname=postgres"
	psql -X -q "$PG" -c "CREATE TABLE lineitem ($COLS)"
	t_pg=$(secs psql -X -q "$PG" -c "COPY lineitem FROM '$tmp/big.csv' (FORMAT csv)")
	printf '%-14s PostgreSQL %7.2fs  %6.0f MB/s   floe / PostgreSQL %.2f\n' "COPY FROM csv" "$t_pg" \
		"$(echo "$mb / $t_pg" | bc -l)" "$(echo "$t_copy / $t_pg" | bc -l)"
fi
# same rows
fl "SELECT count(*), sum(l_extendedprice) FROM lineitem" | sed -n 3p
"$INTEROP/duckdb-sql" --no-header "SELECT count(*), sum(l_extendedprice) FROM read_parquet('$tmp/d.parquet')"
