#!/usr/bin/env bash
# bench/tpch.sh — TPC-H-shaped data: the 22 queries in floe (tables loaded
# from Parquet files into a floe warehouse) and in DuckDB (views over the
# same Parquet files), in the same run.  Prints per query: floe seconds
# (whole `floe -f` process), DuckDB seconds (inside one process,
# bench/duck_time.mjs), ratio floe/DuckDB, whether floe's answer equals
# DuckDB's (bench/tpch_compare.py: values, numbers within 1e-6), and the
# geometric mean of the ratios.  Not a test.
#   [SF=1] [REPS=3] bench/tpch.sh [FIRST LAST]
# SF=0.1 (default) is ../shared/testdata/tpch-sf0.1 itself.  SF=N (N >= 0.2,
# a multiple of 0.1) is those files scaled up by DuckDB: K = N*10 copies of
# every table but nation/region, copy i adding i * (SF0.1 row count) to each
# key (orderkey, custkey, partkey, suppkey), so joins, group sizes and
# selectivities stay TPC-H's; names and comments repeat.  The queries'
# constants are unchanged, so answers differ from official SF-N answers.
# Copy i also adds i cents to l_extendedprice, o_totalprice and
# ps_supplycost, so ORDER BY ... LIMIT has no ties between copies.
set -euo pipefail
cd "$(dirname "$0")/.."
first=${1:-1}; last=${2:-22}
scripts/install-deps.sh
make -s -j"$(nproc)" B=build all
T=../shared/testdata/tpch-sf0.1
SF=${SF:-0.1}
# TPCH_DIR=dir keeps the generated files and the loaded warehouse there and
# reuses them on the next run with the same SF (for profiling one query).
if [ -n "${TPCH_DIR:-}" ]; then
	tmp=$TPCH_DIR/sf$SF
	mkdir -p "$tmp"
else
	tmp=$(mktemp -d /tmp/floe-tpch.XXXXXX)
	trap 'rm -rf "$tmp"' EXIT
fi
tables="nation region part supplier partsupp customer orders lineitem"
D=$PWD/$T/data
if [ "$SF" != 0.1 ] && [ -f "$tmp/data/lineitem.parquet" ]; then
	D=$tmp/data
elif [ "$SF" != 0.1 ]; then
	k=$(awk -v s="$SF" 'BEGIN { printf "%d", s * 10 + 0.5 }')
	D=$tmp/data
	mkdir -p "$D"
	o=150000 c=15000 p=20000 s=1000    # SF0.1 key ranges
	src=$PWD/$T/data
	gen=()
	rep() {   # table, REPLACE list with i = copy number
		gen+=("COPY (SELECT * EXCLUDE (i) REPLACE ($2) FROM read_parquet('$src/$1.parquet'), range($k) r(i)) TO '$D/$1.parquet' (FORMAT parquet)")
	}
	gen+=("COPY (SELECT * FROM read_parquet('$src/nation.parquet')) TO '$D/nation.parquet' (FORMAT parquet)")
	gen+=("COPY (SELECT * FROM read_parquet('$src/region.parquet')) TO '$D/region.parquet' (FORMAT parquet)")
	rep part "p_partkey + i * $p AS p_partkey"
	rep supplier "s_suppkey + i * $s AS s_suppkey"
	rep partsupp "ps_partkey + i * $p AS ps_partkey, ps_suppkey + i * $s AS ps_suppkey, ps_supplycost + i * 0.01 AS ps_supplycost"
	rep customer "c_custkey + i * $c AS c_custkey"
	rep orders "o_orderkey + i * ($o * 4) AS o_orderkey, o_custkey + i * $c AS o_custkey, o_totalprice + i * 0.01 AS o_totalprice"
	rep lineitem "l_orderkey + i * ($o * 4) AS l_orderkey, l_partkey + i * $p AS l_partkey, l_suppkey + i * $s AS l_suppkey, l_extendedprice + i * 0.01 AS l_extendedprice"
	echo "generating SF$SF (x$k) with DuckDB ..." >&2
	node bench/duck_time.mjs "${gen[@]}" >/dev/null
fi
load=()
views=()
for t in $tables; do
	load+=(-c "CREATE TABLE $t AS SELECT * FROM read_parquet('$D/$t.parquet')")
	views+=("CREATE VIEW $t AS SELECT * FROM read_parquet('$D/$t.parquet')")
done
t0=$(date +%s.%N)
[ -d "$tmp/wh" ] && [ -n "${TPCH_DIR:-}" ] || build/floe -D "$tmp/wh" -q "${load[@]}" >/dev/null
echo "floe load: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (SF$SF)" >&2
# REPS=N: each query N times, floe and DuckDB in turn; the medians shown,
# an answer `ok` only when all N were
reps=${REPS:-1}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-4s %9s %9s %7s %s\n' query floe_s duck_s ratio answer
logsum=0 nq=0
for q in $(seq "$first" "$last"); do
	f=$(printf '%s/queries/q%02d.sql' "$T" "$q")
	[ -f "$f" ] || f=$(printf '%s/queries/q%d.sql' "$T" "$q")
	fts=() dts=() ok=ok
	for _ in $(seq "$reps"); do
		t0=$(date +%s.%N)
		build/floe -D "$tmp/wh" --csv -t -f "$f" >"$tmp/floe.csv" 2>"$tmp/err" || echo error >"$tmp/floe.csv"
		t1=$(date +%s.%N)
		fts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
		node bench/duck_time.mjs "${views[@]}" "$(cat "$f")" >"$tmp/duck.out"
		dts+=("$(grep '^time' "$tmp/duck.out" | tail -1 | cut -d' ' -f2)")
		a=$(python3 bench/tpch_compare.py "$tmp/floe.csv" "$tmp/duck.out")
		[ "$a" = ok ] || ok=$a
	done
	fs=$(median "${fts[@]}")
	ds=$(median "${dts[@]}")
	r=$(awk -v a="$fs" -v b="$ds" 'BEGIN { printf "%.2f", a / b }')
	printf 'q%-3s %9s %9s %7s %s\n' "$q" "$fs" "$ds" "$r" "$ok"
	logsum=$(awk -v s="$logsum" -v r="$r" 'BEGIN { printf "%.6f", s + log(r) }')
	nq=$((nq + 1))
done
awk -v s="$logsum" -v n="$nq" 'BEGIN { printf "geomean ratio %.2f over %d queries\n", exp(s / n), n }'
