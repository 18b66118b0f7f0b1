#!/usr/bin/env bash
# bench/dml.sh — issue 5's speed question: row-level DML on a 10-million-row
# table (10 INSERTs of 1M rows from generate_series: 10 data files of
# bigint id, int k, text name, double amount), in each configuration
#   cow      copy-on-write, format version 2
#   mor-v2   merge-on-read, format version 2 (position delete files)
#   mor-v3   merge-on-read, format version 3 (deletion vectors)
# runs, each a whole `floe -c` process (start-up, catalog, commit included;
# counts and scans are run twice and the faster run is kept):
#   UPDATE of 1,000 rows   WHERE id BETWEEN 4000001 AND 4001000
#   DELETE of 1% of rows   WHERE id % 100 = 42
#   MERGE of a 100,000-row source, half of it matching (ids 9950001..10050000)
#   a full scan (count(*), sum(amount)) after each, then OPTIMIZE and a scan.
# Prints each DML's time as a ratio to a plain SELECT count(*) with the same
# predicate (MERGE: the same join) on the same table just before it, and
# each scan's slowdown against the scan of the fresh table.  For
# copy-on-write it also times rewriting as many rows as the touched files
# held (the data files the DML removed, from iceberg-validate --files:
# CREATE TABLE AS SELECT * FROM t LIMIT that many), the issue's yardstick
# for copy-on-write.
# Wall times on a shared machine swing; each DML and its yardstick also
# print their CPU time (user+sys of the floe process, "cpu"), steadier.
# Not a test: run on demand,
#   bench/dml.sh [ROWS] [CONFIGS...]      (default 10000000 cow mor-v2 mor-v3)
#   FLOE_BENCH_BIN=path/to/floe bench/dml.sh ...   another binary (no make)
# and record the numbers in bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-10000000}
shift || true
configs=("$@")
[ ${#configs[@]} -eq 0 ] && configs=(cow mor-v2 mor-v3)
F=${FLOE_BENCH_BIN:-build/floe}
[ -n "${FLOE_BENCH_BIN:-}" ] || make -s -j2 B=build build/floe
tmp=$(mktemp -d /tmp/floe-bench-dml.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

files=10
per=$((rows / files))
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# run SQL in the warehouse; sets $t (seconds), $cpu (user+sys seconds)
# and $out (the output)
run() {
	local t0 t1
	t0=$(now)
	out=$(/usr/bin/time -f '%U %S' -o "$tmp/cpu" "$F" -D "$wh" -q -A -t -c "$1")
	t1=$(now)
	t=$(secs "$t0" "$t1")
	cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$tmp/cpu")
}

run2() {   # the faster of two runs
	local t1
	run "$1"; t1=$t
	run "$1"
	t=$(awk -v a="$t" -v b="$t1" 'BEGIN { printf "%.3f", (a < b ? a : b) }')
}
# "path record_count" of every live data file of the current snapshot
live_files() {
	local m cur
	m=$(ls -t "$wh"/public/t/metadata/*.metadata.json | head -1)
	cur=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["current-snapshot-id"])' "$m")
	../shared/tools/interop/bin/iceberg-validate "$m" --snapshot "$cur" --files 2>/dev/null |
		awk -v s="$cur" '$1 == "FILE" && $2 == s && $3 == "data" { print $4, $NF }' | sort
}

lo_u=$((rows * 4 / 10 + 1)); hi_u=$((lo_u + 999))
u_pred="id BETWEEN $lo_u AND $hi_u"
d_pred="id % 100 = 42"
m_lo=$((rows - 49999)); m_hi=$((rows + 50000))
m_src="SELECT g AS id, g * 2.0 AS amount FROM generate_series($m_lo, $m_hi) AS s(g)"
scan="SELECT count(*), sum(amount) FROM t"

echo "rows: $rows in $files files   cores: $(nproc)   floe: $F"
for cfg in "${configs[@]}"; do
	case $cfg in
	cow) mode=copy-on-write; fv=2 ;;
	mor-v2) mode=merge-on-read; fv=2 ;;
	mor-v3) mode=merge-on-read; fv=3 ;;
	*) echo "unknown configuration $cfg" >&2; exit 2 ;;
	esac
	wh=$tmp/$cfg
	run "CREATE TABLE t (id bigint, k integer, name text, amount double precision) WITH ('format-version' = '$fv', 'write.delete.mode' = '$mode', 'write.update.mode' = '$mode', 'write.merge.mode' = '$mode')"
	load=0
	for i in $(seq 0 $((files - 1))); do
		run "INSERT INTO t SELECT g, (g % 1000)::integer, 'name-' || (g % 1000), g * 0.5 FROM generate_series($((i * per + 1)), $(((i + 1) * per))) AS s(g)"
		load=$(awk -v a="$load" -v b="$t" 'BEGIN { printf "%.3f", a + b }')
	done
	echo
	echo "== $cfg ($mode, format version $fv): load ${load}s"
	run2 "$scan"; scan0=$t
	printf '%-34s %8ss   %s\n' "scan (fresh)" "$scan0" "$out"

	one() {   # label, DML, count query
		local label=$1 dml=$2 cnt=$3 c d w="" n tag touched=0 dc wc
		run2 "$cnt"; c=$t; n=$out
		[ "$mode" = copy-on-write ] && live_files >"$tmp/before"
		run "$dml"; d=$t; tag=$out; dc=$cpu
		if [ "$mode" = copy-on-write ]; then
			live_files >"$tmp/after"
			touched=$(comm -23 "$tmp/before" "$tmp/after" | awk '{ s += $2 } END { print s + 0 }')
			run "CREATE TABLE rw AS SELECT * FROM t LIMIT $touched"; w=$t; wc=$cpu
			run "DROP TABLE rw"
		fi
		printf '%-34s %8ss   count(*) %ss (%s rows)   ratio %s' "$label" "$d" "$c" "$n" "$(ratio "$d" "$c")"
		[ -n "$w" ] && printf '   rewrite %s rows %ss   ratio %s   cpu %s/%s ratio %s' "$touched" "$w" \
			"$(ratio "$d" "$w")" "$dc" "$wc" "$(ratio "$dc" "$wc")"
		echo
		run2 "$scan"
		printf '%-34s %8ss   slowdown %s   %s\n' "  scan after" "$t" "$(ratio "$t" "$scan0")" "$out"
	}
	one "UPDATE 1000 rows" "UPDATE t SET amount = amount + 1 WHERE $u_pred" \
		"SELECT count(*) FROM t WHERE $u_pred"
	one "DELETE 1% of rows" "DELETE FROM t WHERE $d_pred" \
		"SELECT count(*) FROM t WHERE $d_pred"
	one "MERGE 100k source (half match)" \
		"MERGE INTO t USING ($m_src) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET amount = s.amount WHEN NOT MATCHED THEN INSERT VALUES (s.id, 0, 'new', s.amount)" \
		"SELECT count(*) FROM t JOIN ($m_src) AS s ON t.id = s.id"
	run "OPTIMIZE t"; o=$t
	printf '%-34s %8ss   %s\n' "OPTIMIZE" "$o" "$(echo "$out" | tr '|' ' ')"
	run2 "$scan"
	printf '%-34s %8ss   slowdown %s   %s\n' "  scan after" "$t" "$(ratio "$t" "$scan0")" "$out"
done
