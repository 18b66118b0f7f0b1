#!/usr/bin/env bash
# bench/spill.sh — issue 4's bounded memory: a sort, an aggregation with
# many groups and a join whose working sets are about 10x a work_mem limit,
# run by floe with that limit (spilling to disk), by floe without a limit
# (in memory), and by DuckDB with SET memory_limit to the same size, over
# the same generated data (a floe table; Parquet files DuckDB writes from
# the same expressions and reads through views, so that its tables do not
# count against its memory limit).  Queries end in an aggregate or an OFFSET so that
# printing is not measured.  Prints times and the ratios
# floe-limited / floe-unlimited and floe-limited / DuckDB.  floe's times
# are whole `floe -c` processes (start-up and the table scan included);
# DuckDB's are measured inside one process (bench/duck_time.mjs).  Not a
# test: run on demand,
#   bench/spill.sh [ROWS] [LIMIT]          (default 2000000 rows, 16MB)
# (FLOE_BIN=path uses that floe instead of building build/floe) and record
# the numbers in bench/RESULTS.md, section "spill".
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-2000000}
limit=${2:-16MB}
if [ -z "${FLOE_BIN:-}" ]; then
	make -s -j2 B=build all
	FLOE_BIN=build/floe
fi
tmp=$(mktemp -d /tmp/floe-bench-spill.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export FLOE_SPILL_DIR=$tmp

gen1="SELECT g AS id, (g::bigint * 7919) % $rows AS k, 'name-' || ((g::bigint * 31) % 100003) || '-abcdefghij' AS s FROM generate_series(1, $rows) AS q(g)"
gen2="SELECT g AS id, (g::bigint * 104729) % $rows AS k FROM generate_series(1, $((rows / 2))) AS q(g)"
q_sort="SELECT * FROM t ORDER BY s, k OFFSET $rows - 3"
q_agg="SELECT count(*), sum(c), max(m) FROM (SELECT k % $((rows / 4)) AS g, count(*) AS c, max(s) AS m FROM t GROUP BY 1) x"
q_join="SELECT count(*), sum(t.id), sum(u.id) FROM t JOIN u ON t.k = u.k"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

"$FLOE_BIN" -D "$tmp/wh" -q -c "CREATE TABLE t (id bigint, k bigint, s text)" -c "INSERT INTO t $gen1" \
	-c "CREATE TABLE u (id bigint, k bigint)" -c "INSERT INTO u $gen2" >/dev/null

run_floe() {   # $1 = SET statement or "", $2 = query; prints "secs|answer"
	local t0 t1 out
	t0=$(now)
	if [ -n "$1" ]; then
		out=$("$FLOE_BIN" -D "$tmp/wh" -A -t -q -c "$1" -c "$2" 2>&1 | tail -1)
	else
		out=$("$FLOE_BIN" -D "$tmp/wh" -A -t -q -c "$2" 2>&1 | tail -1)
	fi
	t1=$(now)
	echo "$(secs "$t0" "$t1")|$out"
}

node bench/duck_time.mjs "COPY ($gen1) TO '$tmp/t.parquet' (FORMAT parquet)" \
	"COPY ($gen2) TO '$tmp/u.parquet' (FORMAT parquet)" >/dev/null
duck_run() {   # $1 = query; prints its seconds inside DuckDB, or "fail"
	local out
	# tables as Parquet views: DuckDB's in-memory tables would count against its limit
	out=$(node bench/duck_time.mjs "SET threads = 2" \
		"CREATE VIEW t AS SELECT * FROM read_parquet('$tmp/t.parquet')" \
		"CREATE VIEW u AS SELECT * FROM read_parquet('$tmp/u.parquet')" \
		"SET temp_directory = '$tmp/duck.tmp'" "SET memory_limit = '$limit'" "$1" 2>&1) || true
	echo "$out" | sed -n '6s/^time //p' | grep . || echo fail
	echo "$out" | grep -m1 'Error' | sed 's/^/  duckdb: /' >&2 || true
}

echo "rows: $rows   limit: $limit   cores: $(nproc)"
printf '%-6s %12s %12s %10s %8s %8s\n' query floe_limit_s floe_nolim_s duck_s vs_nolim vs_duck
for q in sort agg join; do
	eval "sql=\$q_$q"
	lim=$(run_floe "SET work_mem = '$limit'" "$sql")
	nol=$(run_floe "" "$sql")
	if [ $q = sort ]; then d=$(duck_run "SELECT count(*) FROM ($sql)"); else d=$(duck_run "$sql"); fi
	printf '%-6s %12s %12s %10s %8s %8s\n' "$q" "${lim%%|*}" "${nol%%|*}" "${d:--}" \
		"$(ratio "${lim%%|*}" "${nol%%|*}")" "$( [ "$d" = fail ] && echo - || ratio "${lim%%|*}" "$d")"
	[ "${lim#*|}" = "${nol#*|}" ] || echo "  ANSWERS DIFFER: limited '${lim#*|}' unlimited '${nol#*|}'"
done
left=$(find "$tmp" -maxdepth 1 -name 'floe-spill-*' | wc -l)
echo "spill folders left behind: $left"
