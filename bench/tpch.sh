#!/usr/bin/env bash
# bench/tpch.sh — TPC-H SF0.1 (../shared/testdata/tpch-sf0.1): the 22
# queries in floe (tables loaded from the Parquet files into a floe
# warehouse) and in DuckDB (views over the same Parquet files), in the same
# run.  Prints per query: floe seconds (whole `floe -f` process), DuckDB
# seconds (inside one process, bench/duck_time.mjs), ratio floe/DuckDB, and
# whether floe's row count matches answers/qN.csv.  Not a test.
#   bench/tpch.sh [FIRST LAST]
set -euo pipefail
cd "$(dirname "$0")/.."
first=${1:-1}; last=${2:-22}
scripts/install-deps.sh
make -s -j"$(nproc)" B=build all
T=../shared/testdata/tpch-sf0.1
tmp=$(mktemp -d /tmp/floe-tpch.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
tables="nation region part supplier partsupp customer orders lineitem"
load=()
views=()
for t in $tables; do
	load+=(-c "CREATE TABLE $t AS SELECT * FROM read_parquet('$PWD/$T/data/$t.parquet')")
	views+=("CREATE VIEW $t AS SELECT * FROM read_parquet('$PWD/$T/data/$t.parquet')")
done
build/floe -D "$tmp/wh" -q "${load[@]}" >/dev/null
printf '%-4s %9s %9s %7s %s\n' query floe_s duck_s ratio rows
for q in $(seq "$first" "$last"); do
	f=$(printf '%s/queries/q%02d.sql' "$T" "$q")
	[ -f "$f" ] || f=$(printf '%s/queries/q%d.sql' "$T" "$q")
	want=$(($(wc -l < "$(printf '%s/answers/q%02d.csv' "$T" "$q")") - 1))
	t0=$(date +%s.%N)
	got=$(build/floe -D "$tmp/wh" -A -t -f "$f" 2>"$tmp/err" | wc -l) || got=error
	t1=$(date +%s.%N)
	fs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	ds=$(node bench/duck_time.mjs "${views[@]}" "$(cat "$f")" | grep '^time' | tail -1 | cut -d' ' -f2)
	ok=$([ "$got" = "$want" ] && echo ok || echo "MISMATCH($got/$want)")
	printf 'q%-3s %9s %9s %7s %s\n' "$q" "$fs" "$ds" "$(awk -v a="$fs" -v b="$ds" 'BEGIN { printf "%.2f", a / b }')" "$ok"
done
