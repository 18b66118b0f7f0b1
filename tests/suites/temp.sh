#!/usr/bin/env bash
# Temporary tables across sessions of `floe serve` (src/sql/temp.c, issue 17):
#   - tests/clients/temp_sessions.py (psycopg 3): two sessions with a temp
#     table of the same name see only their own rows, one shadows a
#     permanent table for itself only, neither reaches the other's pg_temp;
#     after one session closes and the other's socket is cut, a new session
#     sees neither table;
#   - the warehouse never holds a temporary table's file (no file under it
#     mentions the temp tables' folder, the catalog has no pg_temp row), and
#     the scratch folders under the server's TMPDIR are gone once the
#     sessions ended;
#   - the server's log has no sanitizer report.
# Prints "PASS temp: name" / "FAIL temp: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
. tests/tools/floe_server.sh
PY=/usr/bin/python3
tmp=$(mktemp -d /tmp/floe-tempsuite.XXXXXX)
srv_pid=
cleanup() {
	floe_stop "$srv_pid"
	rm -rf "$tmp"
}
trap cleanup EXIT
rc=0
pass() { echo "PASS temp: $1"; }
fail() { echo "FAIL temp: $1: $2"; rc=1; }

if ! $PY -c 'import psycopg' 2>/dev/null; then
	echo "FAIL temp: /usr/bin/python3 has no psycopg (scripts/install-deps.sh --test)"
	exit 1
fi
mkdir -p "$tmp/scratch"
# the server's TMPDIR is where sessions put their temporary tables' folders
if ! TMPDIR=$tmp/scratch floe_serve "$tmp/serve" -D "$tmp/wh" --port 0; then
	fail start "floe serve did not start: $(tail -3 "$tmp/serve.err")"
	exit 1
fi
ci="host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10"

out=$(timeout 120 $PY tests/clients/temp_sessions.py "$ci" "$tmp/scratch" 2>&1)
if [ "$(printf '%s\n' "$out" | tail -1)" = done ]; then
	pass "two_sessions ($(printf '%s\n' "$out" | grep -c '^ok ') checks)"
else
	fail two_sessions "$(printf '%s\n' "$out" | grep -v '^ok ' | head -10 | tr '\n' ' ')"
fi

# nothing of a temporary table in the warehouse
if grep -rlq --binary-files=text -e "floe-temp-" -e "pg_temp" "$tmp/wh" 2>/dev/null; then
	fail warehouse_clean "$(grep -rl --binary-files=text -e floe-temp- -e pg_temp "$tmp/wh" | head -3 | tr '\n' ' ')"
else
	pass "warehouse_clean ($(find "$tmp/wh" -type f | wc -l) files, none of a temp table)"
fi
left=$(find "$tmp/scratch" -mindepth 1 -maxdepth 1 -name 'floe-temp-*' | wc -l)
if [ "$left" -eq 0 ]; then pass scratch_removed_at_session_end
else fail scratch_removed_at_session_end "$left folders left: $(ls "$tmp/scratch" | head -3 | tr '\n' ' ')"; fi

floe_stop "$srv_pid"
srv_pid=
if grep -qE "AddressSanitizer|runtime error|LeakSanitizer" "$tmp/serve.err"; then
	fail sanitizer "$(grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$tmp/serve.err" | head -3 | tr '\n' ' ')"
else
	pass no_sanitizer_report
fi
exit $rc
