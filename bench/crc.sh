#!/usr/bin/env bash
# bench/crc.sh — what verifying Parquet page CRCs costs a scan (issue 13
# item 12): one table of N rows (bigint, double, ~20-char text, date),
# then the same full scan with the checks on (the default) and off
# (SET ignore_checksum_failure = on), best of R runs each, timed inside the
# shell (\timing: the statement alone, not process start-up).
# Usage: bench/crc.sh [rows, default 5000000] [runs, default 5]
# Needs the release build (make B=build).  Prints one line per setting and
# the ratio on/off.
cd "$(dirname "$0")/.." || exit 1
FLOE=${FLOE_BIN:-$PWD/build/floe}
N=${1:-5000000}
R=${2:-5}
tmp=$(mktemp -d /tmp/floe-bench-crc.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$FLOE" -D "$tmp/wh" -q -c "CREATE TABLE t (id bigint, x double precision, s text, d date)" \
	-c "INSERT INTO t SELECT g, g * 0.5, 'customer-' || (g % 1000) || '-abcdefgh', DATE '2020-01-01' + (g % 3000)::int FROM generate_series(1, $N) g" >/dev/null
q="SELECT count(*), sum(id), sum(x), max(s), max(d) FROM t"
one() {
	"$FLOE" -D "$tmp/wh" -At -c "SET ignore_checksum_failure = $1" -c '\timing on' -c "$q" 2>&1 |
		sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1
}
min() { if [ -z "$1" ] || awk "BEGIN{exit !($2 < $1)}"; then echo "$2"; else echo "$1"; fi; }
on= off=
for _ in $(seq "$R"); do       # alternate, so load changes hit both alike
	on=$(min "$on" "$(one off)")      # ignore_checksum_failure = off: CRCs verified
	off=$(min "$off" "$(one on)")
done
pages=$(find "$tmp/wh" -name '*.parquet' -exec stat -c %s {} + | awk '{s+=$1} END {print s}')
echo "rows: $N   data bytes: $pages   runs: $R (best)"
echo "scan, page CRCs verified   ${on} ms"
echo "scan, page CRCs skipped    ${off} ms"
awk "BEGIN{printf \"ratio verified/skipped %.3f\n\", $on / $off}"
