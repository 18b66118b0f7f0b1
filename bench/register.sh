#!/usr/bin/env bash
# bench/register.sh — REGISTER FILES of many small Parquet objects on S3
# (s3rver on loopback): the footers read one at a time
# (floe.register_parallel_reads = 1) against the default parallel reads.
# Not a test.
#   [LATENCY_MS=20] bench/register.sh [NFILES] [ROUNDS]   (default 200 files, 3 rounds)
# DuckDB writes NFILES files of 100 rows (bigint, text, double: the double
# chunk is read for its NaN count, a second request per file); each round
# registers them into a fresh table once with each setting, in one
# `floe` process each; prints the REGISTER statement's own time (the
# shell's \timing) and the object-store requests (fileio counters).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
rounds=${2:-3}
make -s -j2 B=build all tools
SHARED=$(cd ../shared && pwd)
TOOLS=$SHARED/tools/interop/bin
tmp=$(mktemp -d /tmp/floe-bench-register.XXXXXX)
export S3_SERVER_STATE_DIR=$tmp/s3state
trap '"$TOOLS/s3-server" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/objects" "$tmp/files"
out=$(NODE_OPTIONS=--openssl-legacy-provider "$TOOLS/s3-server" start "$tmp/objects" 0 --bucket wh)
export AWS_ENDPOINT_URL=$(echo "$out" | sed -n 's/.*endpoint=\([^ ]*\).*/\1/p')
# LATENCY_MS > 0: requests go through a proxy that holds each chunk the
# client sends for that long (a round trip like S3's from EC2, ~20 ms);
# s3rver on loopback answers in about 2 ms
if [ "${LATENCY_MS:-0}" -gt 0 ]; then
	python3 - "${AWS_ENDPOINT_URL##*:}" "$LATENCY_MS" >"$tmp/proxy.port" <<'PY' &
import asyncio, sys
up, delay = int(sys.argv[1]), int(sys.argv[2]) / 1000.0
async def pipe(r, w, hold):
    try:
        while True:
            b = await r.read(65536)
            if not b:
                break
            if hold:
                await asyncio.sleep(delay)
            w.write(b)
            await w.drain()
    except Exception:
        pass
    finally:
        w.close()
async def client(cr, cw):
    sr, sw = await asyncio.open_connection("127.0.0.1", up)
    await asyncio.gather(pipe(cr, sw, True), pipe(sr, cw, False))
async def main():
    srv = await asyncio.start_server(client, "127.0.0.1", 0)
    print(srv.sockets[0].getsockname()[1], flush=True)
    await srv.serve_forever()
asyncio.run(main())
PY
	proxy=$!
	trap 'kill $proxy 2>/dev/null; "$TOOLS/s3-server" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$tmp/proxy.port" ] && break; sleep 0.3; done
	export AWS_ENDPOINT_URL=http://127.0.0.1:$(cat "$tmp/proxy.port")
fi
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
export FLOE_STATE_DIR=$tmp/state
"$TOOLS/duckdb-sql" --no-header "
	CREATE TABLE src AS SELECT i::BIGINT AS id, 'name ' || i AS name, i / 7.0 AS f FROM range(0, $((n * 100))) t(i);
	COPY (SELECT *, id // 100 AS part FROM src) TO '$tmp/files' (FORMAT parquet, PARTITION_BY (part));
	SELECT 1" >/dev/null
k=0
for f in "$tmp"/files/part=*/*.parquet; do
	build/tests/tools/fileio_cli put "s3://wh/in/f$(printf %05d $k).parquet" "$f" >/dev/null 2>&1
	k=$((k + 1))
done
echo "files: $k objects of $(stat -c %s "$f") bytes (the last); rounds: $rounds" >&2
printf '%-8s %-10s %10s %10s\n' round reads ms rows
for r in $(seq 1 "$rounds"); do
	for p in 1 16; do
		t=t${r}_$p
		res=$(build/floe -D "s3://wh/wh" -q -c "CREATE TABLE $t (id bigint, name text, f double precision)" \
			-c "SET floe.register_parallel_reads = $p" -c '\timing on' \
			-c "REGISTER FILES INTO $t FROM 's3://wh/in/'" 2>&1)
		ms=$(printf '%s\n' "$res" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
		rows=$(printf '%s\n' "$res" | grep -Eo '^ *[0-9]+ \| *[0-9]+ \|' | awk -F'|' '{ print $2 + 0 }' | tail -1)
		printf '%-8s %-10s %10s %10s\n' "$r" "$p" "$ms" "$rows"
	done
done
