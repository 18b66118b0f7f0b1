#!/usr/bin/env bash
# bench/s3.sh — a warehouse on S3 (s3rver on loopback) against the same
# tables in a local warehouse.  Not a test.
#   [SF=0.1|1] bench/s3.sh [FIRST LAST]
# Loads the TPC-H tables (SF0.1 from ../shared/testdata/tpch-sf0.1; SF=1 as
# bench/tpch.sh scales them: TPCH_DIR=dir reuses its generated files) into
# both warehouses, then for a point query (orders by o_orderkey) and each of
# the 22 queries runs, in ONE fresh `floe` process per warehouse,
# EXPLAIN ANALYZE of the query twice: the first run is cold (every process
# cache empty), the second warm.  Prints the object-store requests of each
# run (EXPLAIN ANALYZE's "Object Store:" line) and the warm planning +
# execution time on S3 and locally, with the ratio S3 / local.
set -euo pipefail
cd "$(dirname "$0")/.."
first=${1:-1}; last=${2:-22}
SF=${SF:-0.1}
make -s -j"$(nproc)" B=build all
SHARED=$(cd ../shared && pwd)
TOOLS=$SHARED/tools/interop/bin
T=$SHARED/testdata/tpch-sf0.1
tmp=$(mktemp -d /tmp/floe-bench-s3.XXXXXX)
export S3_SERVER_STATE_DIR=$tmp/s3state
trap '"$TOOLS/s3-server" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/objects"
out=$(NODE_OPTIONS=--openssl-legacy-provider "$TOOLS/s3-server" start "$tmp/objects" 0 --bucket wh)
export AWS_ENDPOINT_URL=$(echo "$out" | sed -n 's/.*endpoint=\([^ ]*\).*/\1/p')
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
export FLOE_STATE_DIR=$tmp/state
export FLOE_S3_CACHE_BYTES=${FLOE_S3_CACHE_BYTES:-4294967296}
D=$T/data
if [ "$SF" != 0.1 ]; then
	D=${TPCH_DIR:?SF=$SF needs TPCH_DIR from a bench/tpch.sh run}/sf$SF/data
fi
load=()
for t in nation region part supplier partsupp customer orders lineitem; do
	load+=(-c "CREATE TABLE $t AS SELECT * FROM read_parquet('$D/$t.parquet')")
done
for wh in "$tmp/local" s3://wh/tpch; do
	t0=$(date +%s.%N)
	build/floe -D "$wh" -q "${load[@]}" >/dev/null
	echo "load $wh: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (SF$SF)" >&2
done
echo "objects: $(find "$tmp/objects" -name '*._S3rver_object' | wc -l), $(du -sh "$tmp/objects" | cut -f1)" >&2

# run WH SQL: "cold_requests warm_requests warm_ms"
run() {
	local f=$tmp/q.sql
	{ echo "EXPLAIN ANALYZE $2;"; echo "EXPLAIN ANALYZE $2;"; } >"$f"
	build/floe -D "$1" -At -f "$f" 2>&1 | awk '
		/^Object Store: requests=/ { sub(/^Object Store: requests=/, ""); sub(/ .*/, ""); req[++nr] = $0 }
		/^Planning Time:/ { p[++np] = $3 }
		/^Execution Time:/ { e[++ne] = $3 }
		END { printf "%s %s %.1f\n", (nr ? req[1] : "-"), (nr ? req[2] : "-"), p[2] + e[2] }'
}
printf '%-6s %8s %8s %10s %10s %6s\n' query cold_req warm_req s3_warm_ms local_ms ratio
report() { # name sql
	local s l
	s=$(run s3://wh/tpch "$2")
	l=$(run "$tmp/local" "$2")
	set -- "$1" $s $l
	printf '%-6s %8s %8s %10s %10s %6s\n' "$1" "$2" "$3" "$4" "$7" \
		"$(awk -v a="$4" -v b="$7" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
}
report point "SELECT * FROM orders WHERE o_orderkey = 4242"
for q in $(seq "$first" "$last"); do
	f=$(printf '%s/queries/q%02d.sql' "$T" "$q")
	sql=$(grep -v '^--' "$f" | tr '\n' ' ' | sed 's/;[[:space:]]*$//')
	report "q$q" "$sql"
done
