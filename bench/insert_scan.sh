#!/usr/bin/env bash
# bench/insert_scan.sh — issue 2's speed question: write N rows (bigint,
# double, ~20-char text with ~1000 distinct values, date) with
# INSERT ... SELECT from a generator, then run a filtered aggregate over
# them; the same with DuckDB (npm @duckdb/node-api via the interop tools)
# writing and reading the same data as zstd Parquet, in the same run.
# Prints each time and the ratio floe/DuckDB.  floe's times are whole
# processes (start-up included); DuckDB's are measured inside one process
# (bench/duck_time.mjs), so the comparison does not favour floe.  Not a test: run on demand,
#   bench/insert_scan.sh [ROWS]            (default 10000000)
# and record the numbers in bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
scripts/install-deps.sh
make -s -j"$(nproc)" B=build all
tmp=$(mktemp -d /tmp/floe-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

gen="SELECT g AS id, g * 0.25 AS amount, 'customer-' || (g % 1000) || '-abcdefgh' AS name, DATE '2020-01-01' + (g % 3650)::integer AS day FROM generate_series(1, $rows) AS s(g)"
agg_floe="SELECT count(*), sum(amount), avg(id), min(name), max(day) FROM t WHERE day >= DATE '2024-01-01' AND name LIKE 'customer-1%'"
agg_duck="SELECT count(*), sum(amount), avg(id), min(name), max(day) FROM read_parquet('$tmp/duck.parquet') WHERE day >= DATE '2024-01-01' AND name LIKE 'customer-1%'"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

t0=$(now)
build/floe -D "$tmp/wh" -q -c "CREATE TABLE t (id bigint, amount double precision, name text, day date)" \
  -c "INSERT INTO t $gen" >/dev/null
t1=$(now)
floe_write=$(secs "$t0" "$t1")
t0=$(now)
floe_out=$(build/floe -D "$tmp/wh" -A -t -c "$agg_floe")
t1=$(now)
floe_read=$(secs "$t0" "$t1")

times=$(node bench/duck_time.mjs "COPY ($gen) TO '$tmp/duck.parquet' (FORMAT parquet, COMPRESSION zstd)" "$agg_duck")
duck_write=$(echo "$times" | sed -n '1s/^time //p')
duck_read=$(echo "$times" | sed -n '2s/^time //p')
duck_out=$(echo "$times" | sed -n 's/^result //p')

floe_bytes=$(du -sb "$tmp/wh/public/t/data" | cut -f1)
duck_bytes=$(stat -c %s "$tmp/duck.parquet")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "rows: $rows   cores: $(nproc)"
echo "write  floe ${floe_write}s  duckdb ${duck_write}s  ratio $(ratio "$floe_write" "$duck_write")"
echo "scan   floe ${floe_read}s  duckdb ${duck_read}s  ratio $(ratio "$floe_read" "$duck_read")"
echo "bytes  floe $floe_bytes  duckdb $duck_bytes  ratio $(ratio "$floe_bytes" "$duck_bytes")"
echo "floe   answer: $floe_out"
echo "duckdb answer: $duck_out"
