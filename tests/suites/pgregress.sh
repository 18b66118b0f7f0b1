#!/usr/bin/env bash
# PostgreSQL's own regression scripts (tests/pgregress/sql/: create_view,
# matview, create_index, temp) run statement by statement on floe and on a
# throwaway PostgreSQL 15 by tests/tools/pgregress.py; each script on a
# fresh floe warehouse and a fresh database.  A script passes when its
# share of identically answered statements is at least the one recorded
# in docs/pgregress.md (the table's "identical" column), so the share can
# only rise; the line printed gives the new count to record.
# Prints "PASS pgregress: script (n/m)" / "FAIL pgregress: script: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
PY=/usr/bin/python3
if ! $PY -c 'import psycopg2' 2>/dev/null; then
	echo "FAIL pgregress: /usr/bin/python3 has no psycopg2"
	exit 1
fi
tmp=$(mktemp -d /tmp/floe-pgregress.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-pgregress-pg.XXXXXX)
floe_pid=
cleanup() {
	[ -n "$floe_pid" ] && kill "$floe_pid" 2>/dev/null && wait "$floe_pid" 2>/dev/null
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
if ! envout=$(scripts/pg-test-server.sh start 2>&1); then
	echo "FAIL pgregress: cannot start PostgreSQL 15"
	exit 1
fi
pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
rc=0
for f in tests/pgregress/sql/*.sql; do
	name=$(basename "$f")
	want=$(sed -n "s/^| \`$name\` | \([0-9]*\) | .*/\1/p" docs/pgregress.md)
	port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	rm -rf "$tmp/wh"
	"$FLOE_BIN" serve -D "$tmp/wh" --port "$port" >"$tmp/floe.log" 2>&1 &
	floe_pid=$!
	for _ in $(seq 50); do
		$PY -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
		sleep 0.2
	done
	out=$(timeout 600 $PY tests/tools/pgregress.py --pg "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" \
		--floe "host=127.0.0.1 port=$port user=postgres dbname=postgres" "$f" 2>&1)
	kill "$floe_pid" 2>/dev/null
	wait "$floe_pid" 2>/dev/null
	floe_pid=
	got=$(printf '%s\n' "$out" | sed -n "s/^$name: \([0-9]*\)\/.*/\1/p")
	if [ -z "$got" ]; then
		echo "FAIL pgregress: $name: no result"
		printf '%s\n' "$out" | tail -5 | sed 's/^/    /'
		rc=1
	elif [ -z "$want" ]; then
		echo "FAIL pgregress: $name: no recorded share in docs/pgregress.md ($out)"
		rc=1
	elif [ "$got" -lt "$want" ]; then
		echo "FAIL pgregress: $name: $got identical, docs/pgregress.md records $want ($out)"
		rc=1
	else
		echo "PASS pgregress: $out"
	fi
	if grep -qE "AddressSanitizer|runtime error" "$tmp/floe.log"; then
		echo "FAIL pgregress: $name: sanitizer report"
		grep -E "AddressSanitizer|runtime error" "$tmp/floe.log" | head -3 | sed 's/^/    /'
		rc=1
	fi
done
exit $rc
