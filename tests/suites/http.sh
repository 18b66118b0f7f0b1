#!/usr/bin/env bash
# HTTP suite: `floe serve --http-port` (src/server/http*.c, docs/http.md),
# driven by curl and tests/clients/http_client.py.
#
#   - the banner names the HTTP port; --port 0 makes it a free port too; a
#     busy default port falls back to a free one, a busy explicit one fails
#   - values: a row of every type through POST /v1/query, printed as psql
#     -A prints it, equals PostgreSQL 15's psql output for the same SELECT
#     (JSON numbers and booleans where exact, text forms otherwise)
#   - Accept: text/csv equals PostgreSQL 15's COPY (...) TO STDOUT CSV HEADER
#   - errors: SQLSTATEs equal PostgreSQL 15's for the same statements, with
#     the documented HTTP statuses; malformed JSON, unknown members, wrong
#     types, Arrow/unknown Accept (406), GET (405), bodies over 16 MB (413)
#   - sessions: BEGIN in one request, INSERT in a second (invisible to
#     others), COMMIT in a third; SET persists; an expired session
#     (--http-session-idle 3) is 08003 and its open block was rolled back;
#     another user's session is 42501
#   - watermark: a write answers one (a buffered INSERT none); a read passing it succeeds, one
#     naming a later sequence number fails 55000
#   - statement_timeout (57014, 408) and POST /v1/sessions/ID/cancel
#   - TLS: with --tls-cert the port is HTTPS only (curl verifies the
#     certificate made by openssl req; plain HTTP gets no answer)
#   - auth: no credentials 401 + WWW-Authenticate, wrong password 28P01,
#     the users file's SCRAM verifier accepted, privileges of the user
#     (GRANT-less table 42501)
#   - the Iceberg REST catalog: config, ErrorModel errors, auth, privileges
#     (a SELECT-only user cannot commit), a multi-table commit that is all or
#     none; 12 REST commits racing 12 SQL INSERTs on one table all land;
#     then iceberg-js (npm, tests/clients/iceberg_js: a client nobody
#     here wrote) gets an OAuth2 token, creates a namespace and a table that
#     SQL then writes and reads, loads a table SQL made, commits a snapshot
#     (add-snapshot + set-snapshot-ref) that SQL reads back and writes on,
#     gets 409 for a stale requirement after a SQL commit, 406 for an
#     unsupported update, drops with purge, and drops the namespace
#   - views through the REST catalog (rest_view_*): CreateViewRequest, load,
#     HEAD, list, a commit (assert-view-uuid, add-schema, add-view-version,
#     set-current-view-version -1, remove-properties) that SQL then reads,
#     stale uuid 409, unknown version 400, unknown update 406, a version
#     without a postgresql representation 406, a table's name 409 (both
#     ways), NoSuchViewException 404, rename (onto a table 409), drop.
#     iceberg-js 1.0.0 (the newest on npm) has no view calls, so curl only
#   - every curl example of docs/http.md (tests/tools/http_doccheck.py)
#   - 600 random and malformed requests (http_client.py fuzz): all 4xx
#     JSON errors, the server still answers, no sanitizer report
#
# Servers run on free ports (--port 0) in a temporary warehouse, by PID,
# stopped by the EXIT trap.  Prints "PASS http: name" / "FAIL http: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
tmp=$(mktemp -d /tmp/floe-http.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-httppg.XXXXXX)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS

nfail=0
pass() { echo "PASS http: $1"; }
fail() {
	echo "FAIL http: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -30 "$3" | sed 's/^/    /'; fi
}
if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL http: binary $FLOE_BIN not built"
	exit 1
fi

# start NAME ARGS...: floe serve in the background; sets port/hport
start() {
	local name=$1
	shift
	"$FLOE_BIN" serve "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pids+=($!)
	port= hport=
	for _ in $(seq 150); do
		hport=$(sed -n 's|^HTTP: https*://[0-9.]*:\([0-9][0-9]*\) .*|\1|p' "$tmp/$name.out" 2>/dev/null)
		port=$(sed -n 's/.*listening on [0-9.]* port \([0-9][0-9]*\)$/\1/p' "$tmp/$name.out" 2>/dev/null)
		[ -n "$hport" ] && return 0
		kill -0 "${pids[-1]}" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

# users: alice (superuser, the first), bob
mkdir -p "$tmp/wh"
printf 'alicepw\n' >"$tmp/pa"
printf 'bobpw\n' >"$tmp/pb"
"$FLOE_BIN" user add alice -D "$tmp/wh" --password-file "$tmp/pa" >/dev/null 2>&1
"$FLOE_BIN" user add bob -D "$tmp/wh" --password-file "$tmp/pb" >/dev/null 2>&1
if ! start main -D "$tmp/wh" --port 0 --http-session-idle 3; then
	fail start "floe serve did not start" "$tmp/main.err"
	exit 1
fi
url=http://127.0.0.1:$hport
A=alice:alicepw
# q [curl args...]: POST /v1/query as alice; body, then " [status]"
q() { curl -s -S -w ' [%{http_code}]' -X POST "$url/v1/query" -u "$A" "$@"; }
sqlstate() { { tr -d '\n'; echo; } | sed -n 's/.*"sqlstate": "\([0-9A-Z]*\)".*\[\([0-9]*\)\]$/\1 \2/p'; }

grep -q "^floe serve: warehouse .*, listening on 127.0.0.1 port $port\$" "$tmp/main.out" &&
	grep -q "^HTTP: http://127.0.0.1:$hport (query API /v1/query, Iceberg REST catalog /iceberg)\$" "$tmp/main.out" &&
	pass banner || fail banner "unexpected banner" "$tmp/main.out"

# ---- ports ---------------------------------------------------------------
# a busy default port (pgwire + 1) falls back; a busy explicit one fails
p1=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
python3 -c 'import socket,sys,time
s=socket.socket(); s.bind(("127.0.0.1",int(sys.argv[1])+1)); s.listen(); open(sys.argv[2],"w").close(); time.sleep(60)' "$p1" "$tmp/blocker.ready" &
blocker=$!
pids+=($blocker)
for _ in $(seq 100); do [ -f "$tmp/blocker.ready" ] && break; sleep 0.1; done
if start fb -D "$tmp/whfb" --port "$p1" && [ "$port" = "$p1" ] && [ "$hport" != "$((p1 + 1))" ] &&
	grep -q 'the default port was busy' "$tmp/fb.out"; then
	pass port_fallback
else
	fail port_fallback "busy default HTTP port: no fallback" "$tmp/fb.out"
fi
kill "${pids[-1]}" 2>/dev/null
out=$("$FLOE_BIN" serve -D "$tmp/whfb2" --port 0 --http-port "$((p1 + 1))" 2>&1 </dev/null)
rc=$?
[ $rc = 2 ] && [[ $out == *"could not start the HTTP server on 127.0.0.1 port $((p1 + 1))"* ]] &&
	pass port_explicit_busy || fail port_explicit_busy "rc=$rc: $out"
kill "$blocker" 2>/dev/null
out=$("$FLOE_BIN" serve -D "$tmp/whfb2" --port 0 --http-port 70000 2>&1)
[ $? = 2 ] && [[ $out == *'invalid --http-port "70000"'* ]] && pass port_invalid || fail port_invalid "$out"

# ---- PostgreSQL 15, the truth for values, CSV and SQLSTATEs -------------
pgport=
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
fi
pgq() { psql -X -A -t -q -h 127.0.0.1 -p "$pgport" -U postgres postgres "$@" 2>&1; }

types_sql="SELECT 1::smallint, '-2147483648'::integer, 9223372036854775807::bigint, 1.5::real, \
0.1::double precision, 1e300::float8, 'NaN'::float8, '-Infinity'::float4, 12345.678::numeric(10,3), \
0.000001::numeric, true, false, NULL::text, 'a|b \"q\" é'::text, 'x'::varchar(3), 'ab'::char(4), \
'\\x00ff'::bytea, '2024-02-29'::date, '23:59:59.5'::time, '2024-01-02 03:04:05.123456'::timestamp, \
'2024-01-02 03:04:05+00'::timestamptz, '1 year 2 mons 3 days 04:05:06'::interval, \
'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, ARRAY[1,NULL,3]::int[], ARRAY['a b','c']::text[]"
python3 tests/clients/http_client.py text "$url" "$A" "$types_sql" >"$tmp/types.floe" 2>&1
if [ -n "$pgport" ]; then
	pgq -c "SET TimeZone='UTC'" -c "$types_sql" >"$tmp/types.pg"
	diff -u "$tmp/types.pg" "$tmp/types.floe" >"$tmp/types.diff" && pass values_vs_pg ||
		fail values_vs_pg "differs from PostgreSQL 15 (- PostgreSQL, + floe HTTP)" "$tmp/types.diff"
else
	echo "SKIP http: values_vs_pg (no PostgreSQL 15)"
fi
# the JSON forms: numbers and booleans bare, NaN and numeric strings
r=$(q -d '{"sql": "SELECT 1 AS a, 2.5::float8 AS b, true AS c, NULL AS d, 1.50::numeric(4,2) AS e, '"'"'NaN'"'"'::float8 AS f, 9223372036854775807 AS g"}')
[[ $r == *'"rows": [[1, 2.5, true, null, "1.50", "NaN", 9223372036854775807]]'* &&
   $r == *'{"name": "e", "type": "numeric(4,2)"}'* && $r == *'"command": "SELECT 1"'* && $r == *'[200]' ]] &&
	pass json_forms || fail json_forms "$r"

# ---- CSV -------------------------------------------------------------------
csv_sql="SELECT x, x::text || ',\"' AS s, CASE WHEN x = 2 THEN NULL ELSE '' END AS e, x * 1.5 AS f FROM generate_series(1, 3) AS x"
curl -s -X POST "$url/v1/query" -u "$A" -H 'Accept: text/csv' -d "{\"sql\": $(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$csv_sql")}" >"$tmp/csv.floe"
if [ -n "$pgport" ]; then
	pgq -c "COPY ($csv_sql) TO STDOUT WITH (FORMAT csv, HEADER)" >"$tmp/csv.pg"
	diff -u "$tmp/csv.pg" "$tmp/csv.floe" >"$tmp/csv.diff" && pass csv_vs_pg ||
		fail csv_vs_pg "differs from PostgreSQL 15's COPY CSV HEADER" "$tmp/csv.diff"
else
	echo "SKIP http: csv_vs_pg (no PostgreSQL 15)"
fi

# ---- errors: SQLSTATEs as PostgreSQL's ----------------------------------
q -d '{"sql": "CREATE TABLE t (a integer PRIMARY KEY, b text)"}' >/dev/null
errs=("SELECT * FROM nope" "SELEC 1" "SELECT 1/0" "SELECT 'x'::integer" "SELECT nofunc(1)"
	"INSERT INTO t VALUES (1, 'a'), (1, 'b')" "SELECT 2147483647::integer + 1" "SELECT nocol FROM t")
: >"$tmp/err.floe"
: >"$tmp/err.pg"
for e in "${errs[@]}"; do
	body=$(python3 -c 'import json,sys; print(json.dumps({"sql": sys.argv[1]}))' "$e")
	q -d "$body" | sqlstate >>"$tmp/err.floe"
	if [ -n "$pgport" ]; then
		pgq -c "CREATE TABLE IF NOT EXISTS t (a integer PRIMARY KEY, b text)" -c '\set VERBOSITY sqlstate' -c "$e" |
			sed -n 's/^ERROR:  \([0-9A-Z]*\)$/\1/p' >>"$tmp/err.pg"
	fi
done
if [ -n "$pgport" ]; then
	cut -d' ' -f1 "$tmp/err.floe" | diff -u "$tmp/err.pg" - >"$tmp/err.diff" && pass sqlstates_vs_pg ||
		fail sqlstates_vs_pg "(- PostgreSQL, + floe HTTP)" "$tmp/err.diff"
fi
# statuses: undefined/syntax/data 400, unique violation 409
want=$'42P01 400\n42601 400\n22012 400\n22P02 400\n42883 400\n23505 409\n22003 400\n42703 400'
[ "$(cat "$tmp/err.floe")" = "$want" ] && pass error_statuses || fail error_statuses "$(cat "$tmp/err.floe")"
r=$(q -d '{"sql": "SELECT * FROM nope"}')
[[ $r == '{"error": {"sqlstate": "42P01", "message": "relation \"nope\" does not exist", "position": 15}}'* ]] &&
	pass error_form || fail error_form "$r"

# malformed requests
check() {  # name want_sqlstate want_status curl-args...
	local name=$1 ws=$2 wc=$3 got
	shift 3
	got=$(q "$@" | sqlstate)
	[ "$got" = "$ws $wc" ] && pass "$name" || fail "$name" "got '$got', want '$ws $wc'"
}
check bad_json 08P01 400 -d '{"sql": '
check not_object 08P01 400 -d '[1]'
check no_sql 22023 400 -d '{}'
check sql_not_string 22023 400 -d '{"sql": 1}'
check unknown_member 22023 400 -d '{"sql": "SELECT 1", "limit": 1}'
check params_object 22023 400 -d '{"sql": "SELECT $1", "params": [{"a": 1}]}'
check params_not_array 22023 400 -d '{"sql": "SELECT $1", "params": 1}'
check nul_in_sql 08P01 400 -d '{"sql": "SELECT 1\u0000"}'
check arrow_406 0A000 406 -H 'Accept: application/vnd.apache.arrow.stream' -d '{"sql": "SELECT 1"}'
check accept_406 0A000 406 -H 'Accept: image/png' -d '{"sql": "SELECT 1"}'
check get_405 0A000 405 -X GET
check unknown_path 0A000 404 --url "$url/v1/nothing"
head -c $((17 << 20)) /dev/zero | tr '\0' ' ' >"$tmp/big"
check body_413 54000 413 --data-binary @"$tmp/big"
r=$(q -d '{"sql": "SELECT $1::integer + $2, $3::text IS NULL, $4", "params": [41, 1, null, true]}')
[[ $r == *'"rows": [[42, true, "true"]]'* ]] && pass params || fail params "$r"
r=$(q -d '{"sql": "SELECT $1::float8", "params": [0.1]}')
[[ $r == *'"rows": [[0.1]]'* ]] && pass params_float || fail params_float "$r"
r=$(q -d '{"sql": "CREATE TABLE m (a int); INSERT INTO m VALUES (1); SELECT a FROM m; DROP TABLE m"}')
[[ $r == *'"columns": [],'*'"command": "DROP TABLE", "commands": ["CREATE TABLE", "INSERT 0 1", "SELECT 1", "DROP TABLE"]'* ]] &&
	pass multi_statement || fail multi_statement "$r"
check open_block_oneshot 25000 409 -d '{"sql": "BEGIN; INSERT INTO t VALUES (50, '"'"'x'"'"')"}'
r=$(q -d '{"sql": "SELECT count(*) FROM t WHERE a = 50"}')
[[ $r == *'"rows": [[0]]'* ]] && pass open_block_rolled_back || fail open_block_rolled_back "$r"

# ---- sessions and watermarks ---------------------------------------------
newsess() { curl -s -X POST "$url/v1/sessions" -u "$1" | sed -n 's/.*"session_id": "\([0-9a-f]*\)".*/\1/p'; }
S=$(newsess "$A")
r1=$(q -H "x-floe-session-id: $S" -d '{"sql": "BEGIN"}')
r2=$(q -H "x-floe-session-id: $S" -d '{"sql": "INSERT INTO t VALUES (10, $1)", "params": ["in block"]}')
r3=$(q -d '{"sql": "SELECT count(*) FROM t WHERE a = 10"}')
r4=$(q -H "x-floe-session-id: $S" -d '{"sql": "SELECT b FROM t WHERE a = 10"}')
r5=$(q -H "x-floe-session-id: $S" -d '{"sql": "COMMIT"}')
r6=$(q -d '{"sql": "SELECT count(*) FROM t WHERE a = 10"}')
if [ -n "$S" ] && [[ $r1 == *'"BEGIN"'*'[200]' && $r2 == *'"INSERT 0 1"'* && $r2 != *watermark* &&
	$r3 == *'"rows": [[0]]'* && $r4 == *'"rows": [["in block"]]'* &&
	$r5 == *'"command": "COMMIT", "watermark": "public.t:'[0-9]*'"'* && $r6 == *'"rows": [[1]]'* ]]; then
	pass session_block
else
	fail session_block "S=$S | $r1 | $r2 | $r3 | $r4 | $r5 | $r6"
fi
wm=$(printf '%s' "$r5" | sed -n 's/.*"watermark": "\([^"]*\)".*/\1/p')
r=$(q -d "{\"sql\": \"SELECT count(*) FROM t\", \"watermark\": \"$wm\"}")
[[ $r == *'"rows": [[1]]'*'[200]' ]] && pass watermark_read || fail watermark_read "$wm: $r"
# t has a PRIMARY KEY: a plain INSERT into it is buffered and answers no
# watermark (docs/http.md); with the buffer off for the request it commits
r=$(q -d '{"sql": "SET floe.insert_buffer_rows = 0; INSERT INTO t VALUES (11, NULL)"}')
seq=$(printf '%s' "$r" | sed -n 's/.*"watermark": "public\.t:\([0-9]*\)".*/\1/p')
[ -n "$seq" ] && [ "$seq" -gt "${wm##*:}" ] && pass watermark_grows || fail watermark_grows "$wm then $r"
check watermark_future 55000 409 -d "{\"sql\": \"SELECT 1\", \"watermark\": \"public.t:$((seq + 100))\", \"watermark_wait_ms\": 300}"
check watermark_bad 22023 400 -d '{"sql": "SELECT 1", "watermark": "garbage"}'
# a buffered INSERT commits nothing: no watermark,
# its row visible at once through the buffer; with the buffer off for the
# request it commits and answers one (docs/http.md "Watermarks")
q -d '{"sql": "CREATE TABLE nb (a int)"}' >/dev/null
r1=$(q -d '{"sql": "INSERT INTO nb VALUES (1)"}')
r2=$(q -d '{"sql": "SELECT count(*) FROM nb"}')
r3=$(q -d '{"sql": "SET floe.insert_buffer_rows = 0; INSERT INTO nb VALUES (2)"}')
if [[ $r1 == *'"INSERT 0 1"'* && $r1 != *watermark* && $r2 == *'"rows": [[1]]'* &&
	$r3 == *'"watermark": "public.nb:'[0-9]*'"'* ]]; then
	pass watermark_buffered_insert
else
	fail watermark_buffered_insert "$r1 | $r2 | $r3"
fi
# floe's own statements inside a multi-statement request: split as
# PostgreSQL's scanner splits, one implicit block (txn.c rule 11), an
# error's position counted in the whole string, the INSERT rolled back
r1=$(q -d '{"sql": "INSERT INTO nb VALUES (3); FLUSH INSERT BUFFER nb"}')
r2=$(q -d '{"sql": "INSERT INTO nb VALUES (5); FLUSH INSERT BUFFER nb; SELECT nosuch FROM nb"}')
r3=$(q -d '{"sql": "SELECT count(*) FROM nb"}')
if [[ $r1 == *'"commands": ["INSERT 0 1", "FLUSH INSERT BUFFER"]'* &&
	$r2 == *'"sqlstate": "42703"'*'"position": 59'* && $r3 == *'"rows": [[3]]'* ]]; then
	pass multi_statement_floe_extension
else
	fail multi_statement_floe_extension "$r1 | $r2 | $r3"
fi
S=$(newsess "$A")
r=$(q -H "x-floe-session-id: $S" -d '{"sql": "SET statement_timeout = 300"}')
r=$(q -H "x-floe-session-id: $S" -d '{"sql": "SELECT count(*) FROM generate_series(1, 2000000000)"}')
[[ $r == *'"sqlstate": "57014", "message": "canceling statement due to statement timeout"'*'[408]' ]] &&
	pass statement_timeout || fail statement_timeout "$r"
S2=$(newsess "$A")
(sleep 1; curl -s -o /dev/null -X POST "$url/v1/sessions/$S2/cancel" -u "$A") &
r=$(q -H "x-floe-session-id: $S2" -d '{"sql": "SELECT count(*) FROM generate_series(1, 2000000000)"}' --max-time 60)
wait $!
[[ $r == *'"sqlstate": "57014", "message": "canceling statement due to user request"'*'[408]' ]] &&
	pass cancel || fail cancel "$r"
check other_users_session 42501 403 -u bob:bobpw -H "x-floe-session-id: $S2" -d '{"sql": "SELECT 1"}'
r=$(curl -s -w '[%{http_code}]' -X DELETE "$url/v1/sessions/$S2" -u "$A")
[ "$r" = "[204]" ] && pass session_close || fail session_close "$r"
check closed_session 08003 404 -H "x-floe-session-id: $S2" -d '{"sql": "SELECT 1"}'
# expiry (--http-session-idle 3): the open block is rolled back
S3=$(newsess "$A")
q -H "x-floe-session-id: $S3" -d '{"sql": "BEGIN; INSERT INTO t VALUES (77, NULL)"}' >/dev/null
sleep 6
check expired_session 08003 404 -H "x-floe-session-id: $S3" -d '{"sql": "COMMIT"}'
r=$(q -d '{"sql": "SELECT count(*) FROM t WHERE a = 77"}')
[[ $r == *'"rows": [[0]]'* ]] && pass expired_rolled_back || fail expired_rolled_back "$r"

# ---- authentication and privileges ----------------------------------------
r=$(curl -s -i -X POST "$url/v1/query" -d '{"sql": "SELECT 1"}')
[[ $r == *'HTTP/1.1 401'* && $r == *'WWW-Authenticate: Basic realm="floe"'* && $r == *'"sqlstate": "28000"'* ]] &&
	pass auth_required || fail auth_required "$r"
check auth_wrong 28P01 401 -u alice:nope -d '{"sql": "SELECT 1"}'
check auth_unknown 28P01 401 -u mallory:x -d '{"sql": "SELECT 1"}'
r=$(curl -s -w ' [%{http_code}]' -X POST "$url/v1/query" -H 'Authorization: Bearer 0123' -d '{"sql": "SELECT 1"}' | sqlstate)
[ "$r" = "28000 401" ] && pass auth_bad_token || fail auth_bad_token "$r"
r=$(curl -s -X POST "$url/v1/query" -u bob:bobpw -d '{"sql": "SELECT current_user"}')
[[ $r == *'"rows": [["bob"]]'* ]] && pass auth_user || fail auth_user "$r"
check privileges 42501 403 -u bob:bobpw -d '{"sql": "SELECT * FROM t"}'
q -d '{"sql": "GRANT SELECT ON t TO bob"}' >/dev/null
r=$(curl -s -X POST "$url/v1/query" -u bob:bobpw -d '{"sql": "SELECT count(*) FROM t"}')
[[ $r == *'"rows": [[2]]'* ]] && pass privileges_granted || fail privileges_granted "$r"

# ---- never crash on any bytes ---------------------------------------------
r=$(python3 tests/clients/http_client.py fuzz "$url" "$A" 600 7 2>&1)
[ "$r" = ok ] && pass fuzz || fail fuzz "$r"

# ---- the Iceberg REST catalog (/iceberg) -----------------------------------
ice=$url/iceberg/v1
# ic METHOD PATH [curl args]: body then " [status]"
ic() { local m=$1 p=$2; shift 2; curl -s -S -w ' [%{http_code}]' -X "$m" "$ice$p" -u "$A" "$@"; }
r=$(ic GET /config)
[[ $r == '{"defaults":{},"overrides":{},"endpoints":['*'"POST /v1/{prefix}/tables/rename",'*'"GET /v1/{prefix}/namespaces/{namespace}/views/{view}",'*'"POST /v1/{prefix}/views/rename"]}'*'[200]' ]] &&
	pass rest_config || fail rest_config "$r"
r=$(ic GET /namespaces/public/tables/nope)
[[ $r == '{"error":{"message":"'*'","type":"NoSuchTableException","code":404}}'*'[404]' ]] &&
	pass rest_error_model || fail rest_error_model "$r"
r=$(curl -s -w ' [%{http_code}]' "$ice/namespaces")
[[ $r == *'"type":"NotAuthorizedException","code":401'*'[401]' ]] && pass rest_auth || fail rest_auth "$r"
r=$(ic GET /namespaces/public/tables/t -u bob:bobpw)    # bob may SELECT t (granted above)
r2=$(ic POST /namespaces/public/tables/t -u bob:bobpw -d '{"requirements": [], "updates": []}')
[[ $r == *'"metadata-location":"'*'[200]' && $r2 == *'"type":"ForbiddenException","code":403'*'[403]' ]] &&
	pass rest_privileges || fail rest_privileges "$r2"
# a multi-table commit is all or none: the second change's requirement fails
q -d '{"sql": "CREATE TABLE u1 (a int); CREATE TABLE u2 (a int)"}' >/dev/null
r=$(ic POST /transactions/commit -d '{"table-changes": [
  {"identifier": {"namespace": ["public"], "name": "u1"}, "requirements": [], "updates": [{"action": "set-properties", "updates": {"x": "1"}}]},
  {"identifier": {"namespace": ["public"], "name": "u2"}, "requirements": [{"type": "assert-current-schema-id", "current-schema-id": 7}], "updates": []}]}')
p1=$(ic GET /namespaces/public/tables/u1)
r3=$(ic POST /transactions/commit -d '{"table-changes": [
  {"identifier": {"namespace": ["public"], "name": "u1"}, "requirements": [], "updates": [{"action": "set-properties", "updates": {"x": "1"}}]},
  {"identifier": {"namespace": ["public"], "name": "u2"}, "requirements": [{"type": "assert-current-schema-id", "current-schema-id": 0}], "updates": [{"action": "set-properties", "updates": {"y": "2"}}]}]}')
p2=$(ic GET /namespaces/public/tables/u1)
p3=$(ic GET /namespaces/public/tables/u2)
[[ $r == *'"type":"CommitFailedException","code":409'* && $p1 != *'"x":"1"'* && $r3 == ' [204]' &&
   $p2 == *'"x":"1"'* && $p3 == *'"y":"2"'* ]] && pass rest_multi_table_commit ||
	fail rest_multi_table_commit "$r | $r3"
# set-statistics / remove-statistics (issue 15): ANALYZE's entry for the
# snapshot is replaced by a REST client's, then removed; a snapshot that
# does not exist is refused
q -d '{"sql": "CREATE TABLE st (a int); INSERT INTO st VALUES (1), (2), (2); ANALYZE st"}' >/dev/null
r=$(q -d '{"sql": "SELECT snapshot_id, ndv FROM st$statistics"}')
sid=$(ic GET /namespaces/public/tables/st | sed 's/ \[[0-9]*\]$//' |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["current-snapshot-id"])')
r1=$(ic POST /namespaces/public/tables/st -d "{\"requirements\": [], \"updates\": [{\"action\": \"set-statistics\", \"statistics\": {\"snapshot-id\": $sid, \"statistics-path\": \"/x/other.stats\", \"file-size-in-bytes\": 9, \"file-footer-size-in-bytes\": 5, \"blob-metadata\": [{\"type\": \"other-engine-v1\", \"snapshot-id\": $sid, \"sequence-number\": 1, \"fields\": [1], \"properties\": {\"ndv\": \"7\"}}]}}]}")
r2=$(q -d '{"sql": "SELECT count(*), max(ndv), max(statistics_path), max(blob_type) FROM st$statistics"}')
r3=$(ic POST /namespaces/public/tables/st -d "{\"requirements\": [], \"updates\": [{\"action\": \"remove-statistics\", \"snapshot-id\": $sid}]}")
r4=$(q -d '{"sql": "SELECT count(*) FROM st$statistics"}')
r5=$(ic POST /namespaces/public/tables/st -d '{"requirements": [], "updates": [{"action": "set-statistics", "statistics": {"snapshot-id": 1, "statistics-path": "/x", "file-size-in-bytes": 1, "blob-metadata": []}}]}')
[[ $r == *"[[$sid, 2]]"* && $r1 == *'[200]' && $r2 == *'[[1, 7, "/x/other.stats", "other-engine-v1"]]'* &&
   $r3 == *'[200]' && $r4 == *'[[0]]'* && $r5 == *'there is no snapshot 1'* ]] && pass rest_statistics ||
	fail rest_statistics "$r | $r1 | $r2 | $r3 | $r4 | $r5"
# set-partition-statistics / remove-partition-statistics: the spec's
# PartitionStatisticsFile list; a second set for the snapshot replaces the
# first, remove drops it, a snapshot that does not exist is refused
pstats() {
	ic GET /namespaces/public/tables/st | sed 's/ \[[0-9]*\]$//' | python3 -c 'import json,sys
m = json.load(sys.stdin)["metadata"]
print(json.dumps(m.get("partition-statistics", []), sort_keys=True))'
}
ps_set() {
	ic POST /namespaces/public/tables/st -d "{\"requirements\": [], \"updates\": [{\"action\": \"set-partition-statistics\", \"partition-statistics\": {\"snapshot-id\": $1, \"statistics-path\": \"$2\", \"file-size-in-bytes\": $3}}]}"
}
r1=$(ps_set "$sid" /x/p1.parquet 10)
p1=$(pstats)
r2=$(ps_set "$sid" /x/p2.parquet 20)
p2=$(pstats)
r3=$(ic POST /namespaces/public/tables/st -d "{\"requirements\": [], \"updates\": [{\"action\": \"remove-partition-statistics\", \"snapshot-id\": $sid}]}")
p3=$(pstats)
r4=$(ps_set 1 /x/p3.parquet 5)
r5=$(ic POST /namespaces/public/tables/st -d '{"requirements": [], "updates": [{"action": "set-partition-statistics", "partition-statistics": {"snapshot-id": 1}}]}')
[[ $r1 == *'[200]' && $p1 == "[{\"file-size-in-bytes\": 10, \"snapshot-id\": $sid, \"statistics-path\": \"/x/p1.parquet\"}]" &&
   $r2 == *'[200]' && $p2 == "[{\"file-size-in-bytes\": 20, \"snapshot-id\": $sid, \"statistics-path\": \"/x/p2.parquet\"}]" &&
   $r3 == *'[200]' && $p3 == '[]' && $r4 == *'there is no snapshot 1'* && $r5 == *'[400]' ]] &&
	pass rest_partition_statistics ||
	fail rest_partition_statistics "$r1 | $p1 | $r2 | $p2 | $r3 | $p3 | $r4 | $r5"
# REST commits racing SQL commits on one table: every one lands (the loser
# of each catalog swap re-applies on the new head), none is lost
q -d '{"sql": "CREATE TABLE race (i int)"}' >/dev/null
racers=()
for i in $(seq 12); do
	q -d "{\"sql\": \"INSERT INTO race VALUES ($i)\"}" >"$tmp/race_sql.$i" &
	racers+=($!)
	ic POST /namespaces/public/tables/race -d "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", \"updates\": {\"p$i\": \"$i\"}}]}" >"$tmp/race_rest.$i" &
	racers+=($!)
done
wait "${racers[@]}"
r=$(q -d '{"sql": "SELECT count(*), count(DISTINCT i) FROM race"}')
props=$(ic GET /namespaces/public/tables/race | grep -o '"p[0-9]*":"[0-9]*"' | sort -u | wc -l)
okc=$(cat "$tmp"/race_rest.* | grep -c '"metadata-location"')
[[ $r == *'"rows": [[12, 12]]'* ]] && [ "$props" = 12 ] && [ "$okc" = 12 ] && pass rest_sql_race ||
	fail rest_sql_race "rows $r, properties $props, REST commits $okc" \
		"$(cat "$(grep -L '"metadata-location"' "$tmp"/race_rest.* | head -1)" 2>/dev/null)"
# views (issue 18): create / load / exists / list / commit / rename / drop
# through the REST endpoints, read by SQL; ErrorModel errors for each
vver() {   # vver ID SQL [DIALECT [SCHEMA-ID]]: a ViewVersion
	printf '{"version-id": %s, "schema-id": %s, "timestamp-ms": 1700000000000, "summary": {"engine-name": "curl"}, "representations": [{"type": "sql", "sql": "%s", "dialect": "%s"}], "default-namespace": ["public"]}' \
		"$1" "${4:--1}" "$2" "${3:-postgresql}"
}
qq() { q "$@" | tr -d '\n'; }
vschema='{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "i", "required": false, "type": "int"}]}'
q -d '{"sql": "CREATE TABLE vt (i int); INSERT INTO vt VALUES (1), (2), (3)"}' >/dev/null
r1=$(ic POST /namespaces/public/views -d "{\"name\": \"rv\", \"schema\": $vschema, \"view-version\": $(vver 1 'SELECT i FROM vt WHERE i > 1'), \"properties\": {\"k\": \"1\"}}")
r2=$(qq -d '{"sql": "SELECT i FROM rv ORDER BY i"}')
r3=$(ic GET /namespaces/public/views/rv)
r4=$(ic HEAD /namespaces/public/views/rv -o /dev/null)
r5=$(ic GET /namespaces/public/views)
[[ $r1 == '{"metadata-location":"'*'"view-uuid":"'*'"properties":{"k":"1"}'*'"config":{}}'*'[200]' &&
   $r2 == *'"rows": [[2],[3]]'* && $r3 == *'"current-version-id":1'*'[200]' && $r4 == ' [204]' &&
   $r5 == '{"identifiers":[{"namespace":["public"],"name":"rv"}]}'*'[200]' ]] && pass rest_view_create_load ||
	fail rest_view_create_load "$r1 | $r2 | $r3 | $r4 | $r5"
uuid=$(printf '%s' "$r3" | sed 's/ \[[0-9]*\]$//' | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["view-uuid"])')
vschema2='{"type": "struct", "schema-id": 1, "fields": [{"id": 1, "name": "i", "required": false, "type": "int"}, {"id": 2, "name": "j", "required": false, "type": "int"}]}'
r1=$(ic POST /namespaces/public/views/rv -d "{\"requirements\": [{\"type\": \"assert-view-uuid\", \"uuid\": \"$uuid\"}], \"updates\": [{\"action\": \"add-schema\", \"schema\": $vschema2}, {\"action\": \"add-view-version\", \"view-version\": $(vver 2 'SELECT i, i * 10 AS j FROM vt')}, {\"action\": \"set-current-view-version\", \"view-version-id\": -1}, {\"action\": \"remove-properties\", \"removals\": [\"k\"]}]}")
r2=$(qq -d '{"sql": "SELECT i, j FROM rv ORDER BY i"}')
r3=$(ic POST /namespaces/public/views/rv -d '{"requirements": [{"type": "assert-view-uuid", "uuid": "00000000-0000-4000-8000-000000000000"}], "updates": []}')
r4=$(ic POST /namespaces/public/views/rv -d '{"requirements": [], "updates": [{"action": "set-current-view-version", "view-version-id": 9}]}')
r5=$(ic POST /namespaces/public/views/rv -d '{"requirements": [], "updates": [{"action": "frobnicate"}]}')
r6=$(ic POST /namespaces/public/views/rv -d "{\"requirements\": [], \"updates\": [{\"action\": \"add-view-version\", \"view-version\": $(vver 3 'SELECT 1' spark 1)}, {\"action\": \"set-current-view-version\", \"view-version-id\": -1}]}")
[[ $r1 == *'"current-version-id":2'*'[200]' && $r1 != *'"k":"1"'* && $r2 == *'"rows": [[1, 10],[2, 20],[3, 30]]'* &&
   $r3 == *'"type":"CommitFailedException","code":409'* && $r4 == *'there is no version 9'*'[400]' &&
   $r5 == *'"type":"UnsupportedOperationException","code":406'* && $r6 == *'postgresql'*'[406]' ]] &&
	pass rest_view_commit || fail rest_view_commit "$r1 | $r2 | $r3 | $r4 | $r5 | $r6"
r1=$(ic POST /namespaces/public/views -d "{\"name\": \"vt\", \"schema\": $vschema, \"view-version\": $(vver 1 'SELECT 1 AS i'), \"properties\": {}}")
r2=$(ic POST /namespaces/public/views -d "{\"name\": \"rv\", \"schema\": $vschema, \"view-version\": $(vver 1 'SELECT 1 AS i'), \"properties\": {}}")
r3=$(ic GET /namespaces/public/views/nope)
r4=$(ic GET /namespaces/public/views/vt)
r5=$(q -d '{"sql": "CREATE TABLE rv (a int)"}')
r6=$(ic POST /namespaces/public/views -d "{\"name\": \"sv\", \"schema\": $vschema, \"view-version\": $(vver 1 'SELECT 1' spark), \"properties\": {}}")
[[ $r1 == *'"type":"AlreadyExistsException","code":409'* && $r2 == *'"type":"AlreadyExistsException","code":409'* &&
   $r3 == *'"type":"NoSuchViewException","code":404'* && $r4 == *'"type":"NoSuchViewException","code":404'* &&
   $r5 == *42P07* && $r6 == *'[406]' ]] && pass rest_view_errors || fail rest_view_errors "$r1 | $r2 | $r3 | $r4 | $r5 | $r6"
r1=$(ic POST /views/rename -d '{"source": {"namespace": ["public"], "name": "rv"}, "destination": {"namespace": ["public"], "name": "rv2"}}')
r2=$(qq -d '{"sql": "SELECT count(*) FROM rv2"}')
r3=$(ic GET /namespaces/public/views/rv)
r4=$(ic POST /views/rename -d '{"source": {"namespace": ["public"], "name": "rv2"}, "destination": {"namespace": ["public"], "name": "vt"}}')
r5=$(ic POST /views/rename -d '{"source": {"namespace": ["public"], "name": "nope"}, "destination": {"namespace": ["public"], "name": "x"}}')
r6=$(ic DELETE /namespaces/public/views/rv2)
r7=$(ic GET /namespaces/public/views/rv2)
r8=$(ic DELETE /namespaces/public/views/rv2)
[[ $r1 == ' [204]' && $r2 == *'"rows": [[3]]'* && $r3 == *'[404]' && $r4 == *'"code":409'* &&
   $r5 == *'"type":"NoSuchViewException","code":404'* && $r6 == ' [204]' && $r7 == *'[404]' &&
   $r8 == *'"type":"NoSuchViewException","code":404'* ]] && pass rest_view_rename_drop ||
	fail rest_view_rename_drop "$r1 | $r2 | $r3 | $r4 | $r5 | $r6 | $r7 | $r8"
if ijs=$(tests/clients/iceberg_js/setup.sh 2>"$tmp/ijs.err"); then
	ICEBERG_JS_HOME=$ijs node tests/clients/iceberg_js/client.mjs "$url" alice alicepw >"$tmp/ijs.out" 2>&1
	sed 's/^PASS /PASS http: iceberg_js_/; s/^FAIL /FAIL http: iceberg_js_/' "$tmp/ijs.out"
	nfail=$((nfail + $(grep -c '^FAIL' "$tmp/ijs.out")))
	grep -q '^PASS drop_namespace' "$tmp/ijs.out" || { fail iceberg_js "the client did not finish" "$tmp/ijs.out"; }
else
	echo "SKIP http: iceberg_js (npm install failed: $(tail -1 "$tmp/ijs.err"))"
fi

# ---- TLS: with a certificate the HTTP port speaks HTTPS only ---------------
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
	-subj /CN=localhost -addext subjectAltName=DNS:localhost >/dev/null 2>&1 && chmod 600 "$tmp/key.pem" &&
	start tls -D "$tmp/whtls" --port 0 --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem"; then
	r=$(curl -s --cacert "$tmp/cert.pem" "https://localhost:$hport/v1/query" -d '{"sql": "SELECT 1 AS one"}')
	plain=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/v1/query" -d '{"sql": "SELECT 1"}')
	grep -q "^HTTP: https://127.0.0.1:$hport " "$tmp/tls.out" && [[ $r == *'"rows": [[1]]'* ]] && [ "$plain" = 000 ] &&
		pass tls || fail tls "https: $r; plain http: $plain" "$tmp/tls.out"
	kill "${pids[-1]}" 2>/dev/null
else
	fail tls "no certificate or the TLS server did not start" "$tmp/tls.err"
fi

# ---- failed logins: after 10 wrong passwords from one address the right one
# is refused too (28000) until the window ends (server/authfail.c, shared with
# pgwire, whose limit is 5)
mkdir -p "$tmp/whthr"
printf 'secret\n' >"$tmp/pthr"
"$FLOE_BIN" user add alice -D "$tmp/whthr" --password-file "$tmp/pthr" >/dev/null 2>&1
if start thr -D "$tmp/whthr" --port 0; then
	turl="http://127.0.0.1:$hport/v1/query"
	first=$(curl -s -X POST "$turl" -u alice:secret -d '{"sql": "SELECT 1"}')
	for _ in $(seq 10); do curl -s -o /dev/null -X POST "$turl" -u alice:nope -d '{"sql": "SELECT 1"}'; done
	after=$(curl -s -X POST "$turl" -u alice:secret -d '{"sql": "SELECT 1"}')
	[[ $first == *'"rows": [[1]]'* && $after == *'"sqlstate": "28000"'*'too many failed login attempts'* ]] &&
		pass failed_logins_limited || fail failed_logins_limited "before: $first; after: $after"
	kill "${pids[-1]}" 2>/dev/null
else
	fail failed_logins_limited "the server did not start" "$tmp/thr.err"
fi

# ---- docs/http.md: every curl example runs and prints what it shows -------
mkdir -p "$tmp/whdoc"
printf 'secret\n' >"$tmp/pdoc"
"$FLOE_BIN" user add alice -D "$tmp/whdoc" --password-file "$tmp/pdoc" >/dev/null 2>&1
if start doc -D "$tmp/whdoc" --port 0; then
	python3 tests/tools/http_doccheck.py docs/http.md "http://127.0.0.1:$hport" >"$tmp/doc.out" 2>&1 &&
		pass docs_examples || fail docs_examples "docs/http.md differs" "$tmp/doc.out"
else
	fail docs_examples "the docs server did not start" "$tmp/doc.err"
fi

kill "${pids[0]}" 2>/dev/null
wait "${pids[0]}" 2>/dev/null
if grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer' "$tmp/main.err"; then
	fail sanitizer "the server's stderr has a sanitizer report" "$tmp/main.err"
else
	pass sanitizer
fi
exit $((nfail > 0))
