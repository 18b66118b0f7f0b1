#!/usr/bin/env bash
# ACL suite (issue 3, security): roles, privileges and server-side files
# through `floe serve` and psql.
#
#   - `floe user add admin` makes the first user a superuser; SCRAM logins
#   - the superuser creates roles with CREATE ROLE / CREATE USER ... PASSWORD
#     (stored as SCRAM verifiers), a read-only role and a writer role; each
#     allowed and refused statement through psql, refusals with SQLSTATE
#     42501 and PostgreSQL's messages; logins with right and wrong passwords
#   - role and privilege changes are seen at once by other sessions
#   - COPY ... TO / FROM 'file' and read_parquet: inside the warehouse and
#     --allow-dir; refused (42501) outside, through "..", through a
#     symbolic link leaving the allowed folder, and for roles without
#     pg_read_server_files / pg_write_server_files
#   - the check-then-open race: a folder swapped for a link outside after
#     the check (debug hook FLOE_TEST_CONFINE_SWAP) is 42501 for COPY FROM /
#     TO, read_parquet, read_csv, read_json and COPY FROM (FORMAT parquet)
#   - the clear passwords are in no file of the warehouse and not in the
#     server's output
#   - the same role/privilege script run by psql against floe serve and a
#     throwaway PostgreSQL 15 (scripts/pg-test-server.sh): every ERROR /
#     DETAIL / HINT line (SQLSTATE and message) identical
#
# Servers run on free ports (--port 0) and are stopped by PID.
# Prints "PASS acl: name" / "FAIL acl: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED=${FLOE_SHARED:-../shared}

tmp=$(mktemp -d /tmp/floe-acl.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-aclpg.XXXXXX)
spid=
cleanup() {
	if [ -n "$spid" ] && kill -0 "$spid" 2>/dev/null; then
		kill -TERM "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
	fi
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	[ -n "${ACL_KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS PGPASSWORD

nfail=0
pass() { echo "PASS acl: $1"; }
fail() {
	echo "FAIL acl: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -30 "$3" | sed 's/^/    /'; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL acl: binary $FLOE_BIN not built"
	exit 1
fi

# start_server ARGS...: floe serve on a free port (spid, port)
start_server() {
	: >"$tmp/serve.out"   # not the previous server's port (the child truncates it late)
	"$FLOE_BIN" serve --port 0 "$@" >"$tmp/serve.out" 2>>"$tmp/serve.err" &
	spid=$!
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on [0-9.]* port \([0-9][0-9]*\)$/\1/p' "$tmp/serve.out" 2>/dev/null)
		[ -n "$port" ] && break
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$port" ]
}
stop_server() {
	kill -TERM "$spid" 2>/dev/null
	wait "$spid"
	local rc=$?
	spid=
	[ $rc -eq 0 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/serve.err"
}

wh=$tmp/wh
allowed=$tmp/allowed
outside=$tmp/outside
mkdir -p "$wh" "$allowed" "$outside"
allowed=$(cd "$allowed" && pwd -P)
outside=$(cd "$outside" && pwd -P)

# ---- the first user is a superuser ---------------------------------------------
printf 'Adm1n pw\n' >"$tmp/adminpw"
"$FLOE_BIN" user add admin -D "$wh" --password-file "$tmp/adminpw" 2>"$tmp/user.err"
if grep -q '^role:admin:SL$' "$wh/roles" && [ "$(stat -c %a "$wh/roles")" = 600 ]; then
	pass "first_user_is_superuser (<warehouse>/roles, mode 0600)"
else
	fail first_user_is_superuser "$(cat "$wh/roles" 2>&1)" "$tmp/user.err"
fi

if ! start_server -D "$wh" --allow-dir "$allowed"; then
	fail start "floe serve did not start" "$tmp/serve.err"
	exit 1
fi
ci() { echo "host=127.0.0.1 port=$port dbname=floe connect_timeout=10 sslmode=disable user=$1"; }
# q USER PASSWORD SQL...: psql, errors as "ERROR:  SQLSTATE: message"
q() {
	local u=$1 pw=$2
	shift 2
	local args=()
	for s in "$@"; do args+=(-c "$s"); done
	PGPASSWORD=$pw psql -X -At -v VERBOSITY=verbose "$(ci "$u")" "${args[@]}" 2>&1 | grep -v '^LOCATION:'
}
ok=1; why=
out=$(q admin 'Adm1n pw' "CREATE TABLE t (a int, b text)" "INSERT INTO t VALUES (1, 'one'), (2, 'two')" \
	"CREATE TABLE u (a int)" "INSERT INTO u VALUES (1)" \
	"CREATE ROLE reader LOGIN PASSWORD 'R3ader pw'" \
	"CREATE USER writer PASSWORD 'Wr1ter pw'" \
	"CREATE ROLE loader LOGIN PASSWORD 'L0ader pw'" \
	"CREATE ROLE nologin PASSWORD 'N0login pw'" \
	"GRANT SELECT ON t TO reader" \
	"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO writer" \
	"GRANT pg_read_server_files, pg_write_server_files TO loader" \
	"GRANT SELECT, INSERT ON t TO loader" \
	"GRANT USAGE ON SCHEMA public TO reader")
exp='CREATE TABLE
INSERT 0 2
CREATE TABLE
INSERT 0 1
CREATE ROLE
CREATE ROLE
CREATE ROLE
CREATE ROLE
GRANT
GRANT
GRANT ROLE
GRANT
GRANT'
if [ "$out" = "$exp" ]; then pass "superuser_creates_roles_and_grants"; else fail superuser_creates_roles_and_grants "$out"; fi

# expect NAME USER PASSWORD EXPECTED SQL...: the output must equal EXPECTED
expect() {
	local name=$1 u=$2 pw=$3 want=$4
	shift 4
	local got
	got=$(q "$u" "$pw" "$@")
	if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "got: $got | want: $want"; fi
}
denied='ERROR:  42501: permission denied for table t'
expect reader_select reader 'R3ader pw' $'1|one\n2|two' "SELECT a, b FROM t ORDER BY a"
expect reader_insert_refused reader 'R3ader pw' "$denied" "INSERT INTO t VALUES (3, 'x')"
expect reader_update_refused reader 'R3ader pw' "$denied" "UPDATE t SET b = 'y'"
expect reader_delete_refused reader 'R3ader pw' "$denied" "DELETE FROM t"
expect reader_truncate_refused reader 'R3ader pw' "$denied" "TRUNCATE t"
expect reader_merge_refused reader 'R3ader pw' "$denied" \
	"MERGE INTO t USING (SELECT 1 AS a) s ON t.a = s.a WHEN MATCHED THEN DELETE"
expect reader_copy_from_stdin_refused reader 'R3ader pw' "$denied" "COPY t FROM STDIN"
expect reader_other_table_refused reader 'R3ader pw' 'ERROR:  42501: permission denied for table u' \
	"SELECT * FROM t JOIN u ON t.a = u.a"
expect reader_subquery_refused reader 'R3ader pw' 'ERROR:  42501: permission denied for table u' \
	"SELECT * FROM t WHERE a IN (SELECT a FROM u)"
expect reader_cte_refused reader 'R3ader pw' 'ERROR:  42501: permission denied for table u' \
	"WITH x AS (SELECT * FROM u) SELECT * FROM x"
expect reader_cte_name_ok reader 'R3ader pw' '2' "WITH u AS (SELECT * FROM t) SELECT count(*) FROM u"
# Iceberg metadata tables and time travel read the table: its SELECT
expect reader_metatable_refused reader 'R3ader pw' $'ERROR:  42501: permission denied for table u\nERROR:  42501: permission denied for table u' \
	'SELECT count(*) FROM "u$snapshots"' 'COPY (SELECT * FROM t JOIN "u$history" ON true) TO STDOUT'
expect reader_metatable_ok reader 'R3ader pw' '1' 'SELECT count(*) FROM "t$snapshots"'
expect reader_ddl_refused reader 'R3ader pw' $'ERROR:  42501: permission denied for schema public\nERROR:  42501: must be owner of table t\nERROR:  42501: must be owner of table t' \
	"CREATE TABLE r (a int)" "DROP TABLE t" "ALTER TABLE t ADD COLUMN c int"
# CREATE ON SCHEMA is recorded (has_schema_privilege), but a role that
# holds it is refused by name: floe's relations are owned by the superuser
q admin 'Adm1n pw' "CREATE SCHEMA cs" "GRANT USAGE, CREATE ON SCHEMA cs TO reader" >/dev/null
expect reader_create_privilege_refused_by_name reader 'R3ader pw' $'t\nERROR:  0A000: creating a relation as a role that is not a superuser is not supported (floe\'s relations are owned by the superuser)\nERROR:  42501: permission denied for schema public' \
	"SELECT has_schema_privilege('cs', 'CREATE')" "CREATE TABLE cs.r (a int)" "CREATE TABLE public.r (a int)"
q admin 'Adm1n pw' "REVOKE ALL ON SCHEMA cs FROM reader" "DROP SCHEMA cs" >/dev/null
expect reader_role_mgmt_refused reader 'R3ader pw' $'ERROR:  42501: permission denied to create role\nERROR:  42501: permission denied to drop role\nERROR:  42501: permission denied to set role "admin"' \
	"CREATE ROLE x" "DROP ROLE writer" "SET ROLE admin"
expect reader_explain_insert_refused reader 'R3ader pw' "$denied" "EXPLAIN ANALYZE INSERT INTO t VALUES (9, 'x')"
out=$(PGOPTIONS='-c role=admin' PGPASSWORD='R3ader pw' psql -X -At "$(ci reader)" -c "SELECT current_user" 2>&1)
if printf '%s' "$out" | grep -q 'permission denied to set role "admin"'; then pass "startup_options_role_refused"
else fail startup_options_role_refused "$out"; fi
expect reader_session_authorization_refused reader 'R3ader pw' 'ERROR:  42501: permission denied to set session authorization' \
	"SET SESSION AUTHORIZATION admin"
expect reader_catalog_ok reader 'R3ader pw' 't' "SELECT count(*) > 0 FROM pg_catalog.pg_class"
expect reader_copy_to_stdout reader 'R3ader pw' $'1\tone\n2\ttwo' "COPY t TO STDOUT"
expect reader_copy_file_refused reader 'R3ader pw' $'ERROR:  42501: must be superuser or have privileges of the pg_read_server_files role to COPY from a file\nHINT:  Anyone can COPY to stdout or from stdin. psql\'s \\copy command also works for anyone.' \
	"COPY t FROM '$allowed/x.csv'"
expect reader_own_password reader 'R3ader pw' 'ALTER ROLE' "ALTER ROLE reader PASSWORD 'R3ader pw2'"
expect reader_new_password reader 'R3ader pw2' '1' "SELECT 1"
out=$(PGPASSWORD='R3ader pw' psql -X -At "$(ci reader)" -c "SELECT 1" 2>&1)
if printf '%s' "$out" | grep -q 'password authentication failed for user "reader"'; then
	pass "wrong_password_refused"; else fail wrong_password_refused "$out"; fi
# NOLOGIN: refused when connecting, after authentication (PostgreSQL's FATAL)
expect nologin_refused nologin 'N0login pw' "psql: error: connection to server at \"127.0.0.1\", port $port failed: FATAL:  role \"nologin\" is not permitted to log in" "SELECT 1"
# a session that was open when its role lost LOGIN goes on (PostgreSQL)
out=$( (printf 'SELECT 1;\n'; sleep 1; printf 'SELECT 2;\n') |
	PGPASSWORD='R3ader pw2' psql -X -At -v ON_ERROR_STOP=1 "$(ci reader)" 2>&1 &
	sleep 0.5; q admin 'Adm1n pw' "ALTER ROLE reader NOLOGIN" >/dev/null; wait)
got=$(q reader 'R3ader pw2' "SELECT 3" 2>&1)
q admin 'Adm1n pw' "ALTER ROLE reader LOGIN" >/dev/null
if [ "$out" = $'1\n2' ] && printf '%s' "$got" | grep -q 'FATAL:  role "reader" is not permitted to log in'; then
	pass "nologin_checked_at_connect_only (open session goes on, next login refused)"
else
	fail nologin_checked_at_connect_only "open session: $out | new login: $got"
fi

expect writer_dml writer 'Wr1ter pw' $'INSERT 0 1\nUPDATE 1\nDELETE 1\n2' \
	"INSERT INTO t VALUES (3, 'three')" "UPDATE t SET b = 'drei' WHERE a = 3" "DELETE FROM t WHERE a = 3" \
	"SELECT count(*) FROM t"
expect writer_truncate_refused writer 'Wr1ter pw' "$denied" "TRUNCATE t"
# a table created after GRANT ... ALL TABLES IN SCHEMA is not covered (PostgreSQL)
q admin 'Adm1n pw' "CREATE TABLE later (a int)" >/dev/null
expect writer_later_table_refused writer 'Wr1ter pw' 'ERROR:  42501: permission denied for table later' \
	"SELECT * FROM later"

# changes are seen by other sessions at once (roles file re-read)
q admin 'Adm1n pw' "REVOKE SELECT ON t FROM reader" >/dev/null
expect revoke_takes_effect reader 'R3ader pw2' "$denied" "SELECT * FROM t"
q admin 'Adm1n pw' "GRANT SELECT ON t TO PUBLIC" >/dev/null
expect grant_public reader 'R3ader pw2' '2' "SELECT count(*) FROM t"

# ---- server-side files ---------------------------------------------------------
expect loader_copy_to_allowed loader 'L0ader pw' 'COPY 2' "COPY t TO '$allowed/t.csv' (FORMAT csv)"
if [ "$(cat "$allowed/t.csv" 2>&1)" = $'1,one\n2,two' ]; then pass copy_to_file_content
else fail copy_to_file_content "$(cat "$allowed/t.csv" 2>&1)"; fi
expect loader_copy_from_allowed loader 'L0ader pw' $'COPY 2\n4' "COPY t FROM '$allowed/t.csv' (FORMAT csv)" \
	"SELECT count(*) FROM t"
# COPY INTO needs INSERT on its table as COPY FROM does (loader has none on u)
expect loader_copy_into_needs_insert loader 'L0ader pw' 'ERROR:  42501: permission denied for table u' \
	"COPY INTO u FROM '$allowed/t.csv' FILE_FORMAT = (TYPE = CSV)"
expect loader_copy_into_loaded_nothing admin 'Adm1n pw' '1' "SELECT count(*) FROM u"
expect loader_copy_query_to_warehouse loader 'L0ader pw' 'COPY 1' \
	"COPY (SELECT max(a) FROM t) TO '$wh/max.txt'"
outside_msg() {
	echo "ERROR:  42501: could not access file \"$1\": outside the warehouse and the allowed directories"
	echo "HINT:  Server-side files must resolve (after symbolic links) inside the warehouse or a directory given with floe serve --allow-dir."
}
printf '9,secret\n' >"$outside/secret.csv"
ln -s "$outside/secret.csv" "$allowed/link.csv"
ln -s "$outside" "$allowed/linkdir"
expect copy_outside_refused loader 'L0ader pw' "$(outside_msg "$outside/secret.csv")" \
	"COPY t FROM '$outside/secret.csv' (FORMAT csv)"
expect copy_dotdot_refused loader 'L0ader pw' "$(outside_msg "$allowed/../outside/secret.csv")" \
	"COPY t FROM '$allowed/../outside/secret.csv' (FORMAT csv)"
expect copy_symlink_refused loader 'L0ader pw' "$(outside_msg "$allowed/link.csv")" \
	"COPY t FROM '$allowed/link.csv' (FORMAT csv)"
expect copy_to_symlink_dir_refused loader 'L0ader pw' "$(outside_msg "$allowed/linkdir/new.csv")" \
	"COPY t TO '$allowed/linkdir/new.csv'"
expect copy_to_symlink_file_refused loader 'L0ader pw' "$(outside_msg "$allowed/link.csv")" \
	"COPY t TO '$allowed/link.csv'"
if [ "$(cat "$outside/secret.csv")" = "9,secret" ] && [ ! -e "$outside/new.csv" ]; then
	pass outside_files_untouched; else fail outside_files_untouched "$(ls "$outside")"; fi
pq=$SHARED/testdata/parquet/data/alltypes_plain.parquet
if [ -f "$pq" ]; then
	cp "$pq" "$allowed/a.parquet"
	cp "$pq" "$outside/a.parquet"
	expect read_parquet_allowed loader 'L0ader pw' '8' "SELECT count(*) FROM read_parquet('$allowed/a.parquet')"
	expect read_parquet_outside_refused loader 'L0ader pw' "$(outside_msg "$outside/a.parquet")" \
		"SELECT count(*) FROM read_parquet('$outside/a.parquet')"
	expect read_parquet_needs_role reader 'R3ader pw2' 'ERROR:  42501: must be superuser or have privileges of the pg_read_server_files role to read server files' \
		"SELECT count(*) FROM read_parquet('$allowed/a.parquet')"
	# a file: URI is checked as the local path it reads
	expect read_parquet_file_uri_allowed loader 'L0ader pw' '8' \
		"SELECT count(*) FROM read_parquet('file://$allowed/a.parquet')"
	expect read_parquet_file_uri_outside_refused loader 'L0ader pw' "$(outside_msg "$outside/a.parquet")" \
		"SELECT count(*) FROM read_parquet('file://$outside/a.parquet')"
	expect read_parquet_file_colon_outside_refused loader 'L0ader pw' "$(outside_msg "$outside/a.parquet")" \
		"SELECT count(*) FROM read_parquet('file:$outside/a.parquet')"
	expect read_parquet_file_uri_dotdot_refused loader 'L0ader pw' "$(outside_msg "$allowed/../outside/a.parquet")" \
		"SELECT count(*) FROM read_parquet('file://$allowed/../outside/a.parquet')"
fi
# a path is checked through its longest existing folder: missing folders
# cannot hide "..", and a missing folder outside is refused
expect copy_missing_folder_outside_refused admin 'Adm1n pw' "$(outside_msg /nonexistent/floe-acl.csv)" \
	"COPY t TO '/nonexistent/floe-acl.csv'"
expect copy_missing_folder_dotdot_refused loader 'L0ader pw' "$(outside_msg "$allowed/nosuch/../../outside/secret.csv")" \
	"COPY t FROM '$allowed/nosuch/../../outside/secret.csv' (FORMAT csv)"
expect copy_missing_folder_inside admin 'Adm1n pw' "ERROR:  58P01: could not open file \"$wh/nosuch/x.csv\" for reading: No such file or directory
HINT:  COPY FROM instructs the PostgreSQL server process to read a file. You may want a client-side facility such as psql's \\copy." \
	"COPY t FROM '$wh/nosuch/x.csv'"

# ---- names never become raw path components ----------------------------------
# "/", "\\", "%", control characters and the names "." and ".." are
# percent-encoded in the table's folder: nothing is created outside the
# warehouse; plain names keep their folders
expect dotdot_names admin 'Adm1n pw' $'CREATE SCHEMA\nCREATE TABLE\nINSERT 0 1\nCREATE SCHEMA\nCREATE TABLE\nINSERT 0 1\nCREATE TABLE\nINSERT 0 1\n3' \
	'CREATE SCHEMA "../esc"' 'CREATE TABLE "../esc".t2 (a int)' 'INSERT INTO "../esc".t2 VALUES (1)' \
	'CREATE SCHEMA ".."' 'CREATE TABLE "..".y (a int)' 'INSERT INTO "..".y VALUES (2)' \
	'CREATE TABLE "../../x" (a int)' 'INSERT INTO "../../x" VALUES (3)' \
	'SELECT (SELECT count(*) FROM "../esc".t2) + (SELECT count(*) FROM "..".y) + (SELECT count(*) FROM "../../x")'
# a schema named "file:" (a URI scheme the FileIO strips) stays a folder
# of the warehouse (it once made the table folder /<table>)
probe=floe-acl-probe-$$
expect scheme_schema_name admin 'Adm1n pw' $'CREATE SCHEMA\nCREATE TABLE\nINSERT 0 1' \
	'CREATE SCHEMA "file:"' "CREATE TABLE \"file:\".\"$probe\" (a int)" "INSERT INTO \"file:\".\"$probe\" VALUES (1)"
# the INSERTs above were buffered (floe.insert_buffer_rows): commit them so
# their data folders exist
q admin 'Adm1n pw' 'FLUSH INSERT BUFFER' >/dev/null
if [ ! -e "/$probe" ] && [ -d "$wh/file:/$probe/data" ]; then
	pass "scheme_schema_name_inside (the table folder is <warehouse>/file:/<table>)"
else
	fail scheme_schema_name_inside "$(ls -d "/$probe" "$wh/file:"/* 2>&1 | tr '\n' ' ')"
fi
rm -rf "/${probe:?}"
if [ ! -e "$tmp/esc" ] && [ ! -e "$tmp/y" ] && [ ! -e "$tmp/x" ] && [ -d "$wh/..%2Fesc/t2/data" ] &&
	[ -d "$wh/%2E%2E/y/data" ] && [ -d "$wh/public/..%2F..%2Fx/data" ] && [ -d "$wh/public/t/data" ]; then
	pass "names_encoded_in_folders (../esc -> ..%2Fesc, .. -> %2E%2E; plain names unchanged)"
else
	fail names_encoded_in_folders "$(ls -A "$tmp" "$wh" 2>&1 | tr '\n' ' ')"
fi

# ---- CALL register_table and write paths stay inside ---------------------------
"$FLOE_BIN" -D "$outside/wh" -q -c "CREATE TABLE x (a int); INSERT INTO x VALUES (1)" >/dev/null 2>&1
"$FLOE_BIN" -D "$allowed/wh" -q -c "CREATE TABLE x (a int); INSERT INTO x VALUES (1)" >/dev/null 2>&1
om=$(ls "$outside"/wh/public/x/metadata/*.metadata.json 2>/dev/null | sort | tail -1)
am=$(ls "$allowed"/wh/public/x/metadata/*.metadata.json 2>/dev/null | sort | tail -1)
cp "$om" "$wh/outside.metadata.json"
expect register_outside_metadata_refused admin 'Adm1n pw' "$(outside_msg "$om")" \
	"CALL register_table('adopt', '$om')"
expect register_outside_location_refused admin 'Adm1n pw' "$(outside_msg "$outside/wh/public/x")" \
	"CALL register_table('adopt', '$wh/outside.metadata.json')"
expect register_outside_map_refused admin 'Adm1n pw' "$(outside_msg "$outside")" \
	"CALL register_table('adopt', '$wh/outside.metadata.json', map_from => '/nowhere', map_to => '$outside')"
expect register_refused_adopts_nothing admin 'Adm1n pw' '0' \
	"SELECT count(*) FROM information_schema.tables WHERE table_name = 'adopt'"
expect register_allowed admin 'Adm1n pw' $'CALL\nINSERT 0 1\n2' \
	"CALL register_table('adopt', '$am')" "INSERT INTO adopt VALUES (2)" "SELECT count(*) FROM adopt"
expect write_path_outside_refused admin 'Adm1n pw' "$(outside_msg "$outside/d")
$(outside_msg "$outside/m")" \
	"ALTER TABLE u SET TBLPROPERTIES ('write.data.path' = '$outside/d')" \
	"CREATE TABLE wp (a int) WITH ('write.metadata.path' = '$outside/m')"
if [ ! -e "$outside/d" ] && [ ! -e "$outside/m" ] && [ "$(ls "$outside/wh/public/x/data" | wc -l)" = 1 ]; then
	pass outside_tables_untouched; else fail outside_tables_untouched "$(ls -R "$outside" | head -20)"; fi
expect superuser_confined_too admin 'Adm1n pw' "$(outside_msg "$outside/secret.csv")" \
	"COPY t FROM '$outside/secret.csv' (FORMAT csv)"

# ---- passwords never stored or logged --------------------------------------------
if grep -rq 'Adm1n pw\|R3ader pw\|Wr1ter pw\|L0ader pw\|N0login pw' "$wh" "$tmp/serve.out" "$tmp/serve.err"; then
	fail passwords_never_stored "$(grep -rl 'Adm1n pw\|R3ader pw\|Wr1ter pw\|L0ader pw\|N0login pw' "$wh" "$tmp/serve.out" "$tmp/serve.err")"
elif grep -q '^reader:SCRAM-SHA-256\$4096:' "$wh/users" && grep -q '^writer:SCRAM-SHA-256\$4096:' "$wh/users"; then
	pass "passwords_never_stored (SCRAM verifiers only; not in the server's output)"
else
	fail passwords_never_stored "no verifiers" "$wh/users"
fi

# a table dropped and created again starts without the old one's grants
q admin 'Adm1n pw' "GRANT SELECT ON later TO reader" "DROP TABLE later" "CREATE TABLE later (a int)" >/dev/null
expect recreated_table_no_old_grants reader 'R3ader pw2' 'ERROR:  42501: permission denied for table later' \
	"SELECT * FROM later"

# DROP ROLE: refused while it holds privileges (PostgreSQL), then removed
# from the roles and users files
expect drop_role_with_privileges admin 'Adm1n pw' $'ERROR:  2BP01: role "loader" cannot be dropped because some objects depend on it\nDETAIL:  privileges for table t' \
	"DROP ROLE loader"
expect drop_role admin 'Adm1n pw' $'REVOKE\nDROP ROLE' "REVOKE ALL ON t FROM loader" "DROP ROLE loader"
if ! grep -q '^loader:\|^role:loader:' "$wh/users" "$wh/roles"; then pass drop_role_removes_secrets
else fail drop_role_removes_secrets "still there"; fi

"$FLOE_BIN" user remove writer -D "$wh" 2>"$tmp/user.err"
out=$(PGPASSWORD='Wr1ter pw' psql -X -At "$(ci writer)" -c "SELECT 1" 2>&1)
if ! grep -q 'writer' "$wh/users" "$wh/roles" && printf '%s' "$out" | grep -q 'password authentication failed'; then
	pass "floe_user_remove (secrets, role and grants gone)"
else
	fail floe_user_remove "$out" "$wh/roles"
fi

# psql's cancel (issue 3: every client cancels): SIGINT makes psql send a
# CancelRequest, the running statement stops with 57014 as on PostgreSQL
PGPASSWORD='R3ader pw2' psql -X -v VERBOSITY=verbose "$(ci reader)" \
	-c "SELECT count(*) FROM generate_series(1, 2000000000)" >"$tmp/cancel.out" 2>&1 &
cpid=$!
sleep 3
for _ in $(seq 30); do
	kill -0 "$cpid" 2>/dev/null || break
	kill -INT "$cpid" 2>/dev/null
	sleep 1
done
kill -0 "$cpid" 2>/dev/null && kill -KILL "$cpid" 2>/dev/null
wait "$cpid"
if [ "$(grep -v '^LOCATION:' "$tmp/cancel.out")" = $'Cancel request sent\nERROR:  57014: canceling statement due to user request' ]; then
	pass "psql_cancel (SIGINT: CancelRequest, 57014)"
else
	fail psql_cancel "unexpected output" "$tmp/cancel.out"
fi

# failed logins are rate-limited per source address: wrong passwords from
# 127.0.0.1 until refused; then 127.0.0.1 is refused at once, while
# 127.0.0.2 is still asked for its password (AuthenticationSASL, R 10)
limited=0
for _ in $(seq 12); do
	out=$(PGPASSWORD=wrong psql -X -At "$(ci reader)" -c "SELECT 1" 2>&1)
	if printf '%s' "$out" | grep -q 'too many failed login attempts from 127.0.0.1'; then limited=1; break; fi
done
p1=$(/usr/bin/python3 tests/clients/startup_probe.py 127.0.0.1 "$port" reader 127.0.0.1 2>&1)
p2=$(/usr/bin/python3 tests/clients/startup_probe.py 127.0.0.1 "$port" reader 127.0.0.2 2>&1)
if [ $limited -eq 1 ] && [ "$p1" = "E 28000 too many failed login attempts from 127.0.0.1" ] && [ "$p2" = "R 10" ]; then
	pass "failed_logins_rate_limited_per_address (127.0.0.1 refused, 127.0.0.2 still asked)"
else
	fail failed_logins_rate_limited_per_address "limited=$limited 127.0.0.1: $p1 | 127.0.0.2: $p2"
fi

stop_server || fail clean_exit "exit" "$tmp/serve.err"

# ---- the same script on floe serve and on PostgreSQL 15 -------------------------
# (a fresh warehouse served with trust to "postgres", and a throwaway
# PostgreSQL 15 cluster with a database "floe"): every output line equal,
# errors included (SQLSTATE and message), LOCATION / LINE lines aside
cat >"$tmp/cmp.sql" <<'SQL'
\set VERBOSITY verbose
CREATE TABLE t (a int, b text);
INSERT INTO t VALUES (1, 'one');
CREATE TABLE u (a int);
CREATE ROLE ro LOGIN PASSWORD 'Pr0be pw';
CREATE USER rw;
CREATE ROLE grp;
CREATE ROLE ro;
CREATE ROLE pg_x;
CREATE ROLE nolog NOLOGIN;
GRANT SELECT ON t TO ro;
GRANT ALL ON ALL TABLES IN SCHEMA public TO rw;
GRANT SELECT ON nosuch TO ro;
GRANT SELECT ON t TO nosuch;
GRANT USAGE ON t TO ro;
GRANT SELECT ON u TO grp;
GRANT grp TO ro;
GRANT nosuch TO ro;
CREATE TABLE hidden (h int);
\du
SELECT rolname, rolsuper, rolcanlogin FROM pg_roles WHERE rolname !~ '^pg_' ORDER BY 1;
SELECT grantor, grantee, table_name, privilege_type, is_grantable, with_hierarchy FROM information_schema.table_privileges WHERE table_schema = 'public' ORDER BY 2, 3, 4;
SELECT has_table_privilege('ro', 't', 'SELECT'), has_table_privilege('ro', 't', 'INSERT'), has_table_privilege('ro', 'u', 'select'), has_table_privilege('rw', 'public.t', 'UPDATE, DELETE');
SELECT has_schema_privilege('ro', 'public', 'USAGE'), has_table_privilege('nosuch', 't', 'SELECT');
SELECT has_table_privilege('ro', 'nosuch', 'SELECT');
SET ROLE ro;
SELECT current_user;
SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1;
SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2;
SELECT grantor, grantee, table_name, privilege_type, is_grantable, with_hierarchy FROM information_schema.table_privileges WHERE table_schema = 'public' ORDER BY 2, 3, 4;
SELECT * FROM t;
SELECT * FROM u;
SELECT * FROM t JOIN u USING (a);
INSERT INTO t VALUES (2, 'two');
UPDATE t SET b = 'x';
UPDATE t SET b = 'x' WHERE a = 1;
DELETE FROM t;
TRUNCATE t;
DROP TABLE t;
ALTER TABLE t ADD COLUMN c int;
CREATE SCHEMA s;
CREATE ROLE x;
CREATE ROLE x SUPERUSER;
DROP ROLE rw;
DROP ROLE IF EXISTS nosuch;
ALTER ROLE rw LOGIN;
ALTER ROLE ro PASSWORD 'Pr0be pw2';
GRANT pg_read_server_files TO rw;
COPY t FROM '/tmp/x.csv';
COPY t TO '/tmp/x.csv';
COPY t FROM STDIN;
SELECT has_table_privilege('t', 'SELECT'), has_table_privilege('t', 'INSERT');
RESET ROLE;
SET ROLE nosuch;
SET ROLE rw;
SELECT count(*) FROM t;
INSERT INTO t VALUES (3, 'three');
UPDATE t SET b = 'tres' WHERE a = 3;
DELETE FROM t WHERE a = 3;
TRUNCATE t;
RESET ROLE;
REVOKE SELECT ON t FROM ro;
SET ROLE ro;
SELECT * FROM t;
RESET ROLE;
GRANT SELECT ON t TO PUBLIC;
SET ROLE ro;
SELECT * FROM t;
RESET ROLE;
CREATE TABLE g (a int);
GRANT SELECT, INSERT ON g TO ro;
GRANT SELECT ON g TO PUBLIC;
DROP TABLE g;
CREATE TABLE g (a int);
SELECT grantee, privilege_type FROM information_schema.table_privileges WHERE table_name = 'g' ORDER BY 1, 2;
SELECT has_table_privilege('ro', 'g', 'SELECT'), has_table_privilege('ro', 'g', 'INSERT');
SET ROLE ro;
SELECT * FROM g;
INSERT INTO g VALUES (1);
RESET ROLE;
GRANT SELECT ON g TO ro;
SET ROLE ro;
SELECT * FROM g;
RESET ROLE;
CREATE TABLE g2 (a int);
GRANT SELECT ON g2 TO ro;
BEGIN;
DROP TABLE g2;
CREATE TABLE g2 (a int);
COMMIT;
SELECT has_table_privilege('ro', 'g2', 'SELECT');
SELECT grantee, privilege_type FROM information_schema.table_privileges WHERE table_name = 'g2' ORDER BY 1, 2;
SET ROLE ro;
SELECT * FROM g2;
RESET ROLE;
DROP TABLE g, g2;
CREATE TABLE big AS SELECT g AS a FROM generate_series(1, 200000) g;
GRANT SELECT ON big TO ro;
SET ROLE ro;
SELECT count(*) FILTER (WHERE has_table_privilege('u', 'INSERT')), count(*) FILTER (WHERE has_table_privilege('big', 'SELECT')), count(*) FROM big;
RESET ROLE;
DROP TABLE big;
CREATE ROLE gone;
CREATE TABLE d (a int);
GRANT SELECT ON d TO gone;
DROP ROLE gone;
DROP TABLE d, hidden;
DROP ROLE gone;
DROP ROLE ro;
DROP ROLE nosuch;
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM rw;
REVOKE SELECT ON u FROM grp;
DROP ROLE ro, rw, grp, nolog;
\du
COPY t TO 'relative.csv';
-- issue 13: every relation a statement reads needs SELECT, in any clause
CREATE TABLE w (a int);
INSERT INTO w VALUES (1), (2);
CREATE TABLE wk (k int PRIMARY KEY, v text);
INSERT INTO wk VALUES (1, 'one');
CREATE TABLE secret (s text);
INSERT INTO secret VALUES ('x'), ('yy');
CREATE ROLE dml;
GRANT SELECT, INSERT, UPDATE, DELETE ON w, wk TO dml;
CREATE ROLE upd;
GRANT UPDATE, DELETE, INSERT ON w TO upd;
SET ROLE dml;
INSERT INTO w VALUES (1) RETURNING (SELECT string_agg(s, ',') FROM secret);
INSERT INTO w VALUES (1) RETURNING a, (SELECT count(*) FROM secret WHERE length(s) = w.a);
INSERT INTO w SELECT length(s) FROM secret;
WITH x AS (SELECT s FROM secret) INSERT INTO w SELECT length(s) FROM x;
UPDATE w SET a = (SELECT count(*) FROM secret);
UPDATE w SET a = (SELECT count(*) FROM secret WHERE length(s) = w.a);
UPDATE w SET a = 1 WHERE EXISTS (SELECT 1 FROM secret);
UPDATE w SET a = 1 WHERE EXISTS (SELECT 1 FROM secret WHERE length(s) = w.a);
UPDATE w SET a = 1 FROM secret WHERE length(secret.s) = w.a;
UPDATE w SET a = 2 WHERE a = 1 RETURNING (SELECT max(s) FROM secret);
WITH x AS (SELECT s FROM secret) UPDATE w SET a = (SELECT count(*) FROM x);
DELETE FROM w WHERE a IN (SELECT length(s) FROM secret);
DELETE FROM w USING secret WHERE length(secret.s) = w.a;
DELETE FROM w WHERE a = 1 RETURNING (SELECT max(s) FROM secret);
DELETE FROM w WHERE EXISTS (SELECT 1 FROM secret WHERE length(s) = w.a);
INSERT INTO wk VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = (SELECT max(s) FROM secret);
INSERT INTO wk VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = 'y' WHERE EXISTS (SELECT 1 FROM secret);
INSERT INTO wk VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = excluded.v RETURNING (SELECT max(s) FROM secret);
MERGE INTO w USING secret ON w.a = length(secret.s) WHEN MATCHED THEN DELETE;
MERGE INTO w USING (SELECT 1 AS a) x ON w.a = x.a WHEN MATCHED THEN UPDATE SET a = (SELECT count(*) FROM secret);
MERGE INTO w USING (SELECT 1 AS a) x ON w.a = x.a WHEN MATCHED AND EXISTS (SELECT 1 FROM secret) THEN DELETE;
MERGE INTO w USING (SELECT 9 AS a) x ON w.a = x.a WHEN NOT MATCHED THEN INSERT VALUES ((SELECT count(*) FROM secret));
MERGE INTO w USING (SELECT 1 AS a) x ON w.a = x.a AND EXISTS (SELECT 1 FROM secret) WHEN MATCHED THEN DELETE;
SELECT a, (SELECT max(s) FROM secret WHERE length(s) > a) FROM w;
SELECT * FROM w WHERE EXISTS (SELECT FROM secret WHERE length(s) = a);
SELECT * FROM w ORDER BY (SELECT max(s) FROM secret);
SELECT count(*) FROM w GROUP BY a HAVING count(*) > (SELECT count(*) FROM secret);
SELECT * FROM w, LATERAL (SELECT s FROM secret WHERE length(s) = w.a) x;
SELECT * FROM w WHERE a IN (WITH c AS (SELECT length(s) AS n FROM secret) SELECT n FROM c);
SELECT (SELECT (SELECT max(s) FROM secret));
COPY (SELECT * FROM secret) TO STDOUT;
WITH x AS (SELECT * FROM secret) SELECT 1;
EXPLAIN (COSTS OFF) SELECT * FROM secret;
SELECT a FROM w ORDER BY a;
INSERT INTO w VALUES (5) RETURNING a;
UPDATE w SET a = a + 1 WHERE a = 5 RETURNING a;
DELETE FROM w WHERE a = 6 RETURNING a;
INSERT INTO wk VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = excluded.v RETURNING k, v;
RESET ROLE;
CREATE ROLE sel;
GRANT SELECT ON w, wk TO sel;
GRANT UPDATE ON wk TO sel;
SET ROLE sel;
SELECT a FROM w ORDER BY a FOR UPDATE;
SELECT a FROM w FOR SHARE;
SELECT k FROM wk FOR UPDATE;
SELECT w.a FROM w JOIN wk ON w.a = wk.k FOR UPDATE OF wk;
SELECT w.a FROM w JOIN wk ON w.a = wk.k FOR UPDATE OF w;
SELECT x.a FROM w AS x FOR NO KEY UPDATE OF x;
RESET ROLE;
SET ROLE upd;
UPDATE w SET a = 3 WHERE false;
UPDATE w SET a = a + 1;
UPDATE w SET a = 1 RETURNING a;
DELETE FROM w WHERE a = 99;
INSERT INTO w VALUES (7);
INSERT INTO w VALUES (7) RETURNING a;
INSERT INTO w SELECT a FROM w;
RESET ROLE;
-- what a write target needs besides the write: SELECT only when the bound
-- statement reads one of its columns (not when a subquery, FROM / USING or
-- RETURNING reads other columns; an alias of the target still counts)
CREATE TABLE wk2 (k int PRIMARY KEY, v text);
CREATE ROLE wo;
GRANT INSERT, UPDATE, DELETE ON w, wk2 TO wo;
GRANT SELECT ON wk TO wo;
SET ROLE wo;
INSERT INTO w VALUES (8) RETURNING 1;
INSERT INTO w VALUES (8) RETURNING (SELECT max(k) FROM wk);
INSERT INTO w AS z VALUES (8) RETURNING z.a;
UPDATE w SET a = (SELECT max(k) FROM wk) WHERE false;
UPDATE w SET a = a WHERE false;
UPDATE w SET a = 1 FROM wk WHERE wk.k = 99;
UPDATE w SET a = 1 WHERE EXISTS (SELECT 1 FROM wk WHERE wk.k = 99);
UPDATE w SET a = 1 WHERE EXISTS (SELECT 1 FROM wk WHERE wk.k = w.a);
UPDATE w SET a = (SELECT max(k) FROM wk WHERE wk.k = w.a);
UPDATE w SET a = 1 WHERE false RETURNING 2;
UPDATE w AS z SET a = 1 WHERE false RETURNING z.a;
DELETE FROM w USING wk WHERE wk.k = 99;
DELETE FROM w WHERE (SELECT count(*) FROM wk) > 99;
DELETE FROM w AS z WHERE z.a = 99;
DELETE FROM w WHERE false RETURNING a;
INSERT INTO wk2 VALUES (1, 'x') ON CONFLICT DO NOTHING;
INSERT INTO wk2 VALUES (1, 'x') ON CONFLICT (k) DO NOTHING;
INSERT INTO wk2 VALUES (1, 'x') ON CONFLICT (k) DO UPDATE SET v = excluded.v;
INSERT INTO wk2 VALUES (2, 'y') RETURNING 1;
INSERT INTO wk2 VALUES (3, 'z') RETURNING v;
MERGE INTO w USING wk ON wk.k = 99 WHEN MATCHED THEN DELETE;
MERGE INTO w USING wk ON wk.k = 99 WHEN NOT MATCHED THEN INSERT VALUES (wk.k + 10);
MERGE INTO w USING wk ON w.a = wk.k WHEN MATCHED THEN DELETE;
MERGE INTO w USING wk ON wk.k = 99 WHEN MATCHED THEN UPDATE SET a = w.a + 1;
MERGE INTO w USING wk ON wk.k = 99 WHEN MATCHED AND w.a > 0 THEN DELETE;
RESET ROLE;
-- FOR UPDATE / SHARE: UPDATE on what the binder resolves each locked FROM
-- item to (FROM subqueries pushed down, not CTEs; views by their name;
-- search_path as for any name), and PostgreSQL's errors for a bad OF list
CREATE VIEW wv AS SELECT k FROM wk;
GRANT SELECT ON wv TO sel;
CREATE SCHEMA sp;
CREATE TABLE sp.w (a int);
GRANT USAGE ON SCHEMA sp TO sel;
GRANT SELECT, UPDATE ON sp.w TO sel;
SET ROLE sel;
SELECT * FROM (SELECT a FROM w) z FOR UPDATE;
SELECT * FROM (SELECT k FROM wk) z FOR UPDATE OF z;
SELECT * FROM (SELECT a FROM w) z, wk ORDER BY a FOR UPDATE OF wk;
SELECT * FROM wk, (SELECT a FROM w) z FOR UPDATE OF z;
WITH c AS (SELECT a FROM w) SELECT * FROM c ORDER BY a FOR UPDATE;
WITH c AS (SELECT a FROM w) SELECT * FROM c, wk FOR SHARE OF c;
SELECT a FROM w AS x FOR UPDATE OF w;
SELECT a FROM public.w FOR UPDATE OF public.w;
SELECT 1 FROM (wk JOIN w ON true) AS j FOR UPDATE OF j;
SELECT * FROM wk, generate_series(1, 1) g FOR UPDATE OF g;
SELECT k FROM wk AS w FOR UPDATE OF w;
SELECT k FROM w AS wk, wk AS w FOR UPDATE OF w;
SELECT k FROM w AS wk, wk AS w FOR UPDATE OF wk;
SELECT * FROM wv FOR UPDATE;
SELECT * FROM (SELECT a FROM w UNION SELECT k FROM wk) z FOR UPDATE;
SET search_path = sp, public;
SELECT a FROM w FOR UPDATE;
SELECT a FROM public.w FOR UPDATE;
SELECT z.a FROM (SELECT a FROM w) z, public.wk FOR UPDATE OF z;
RESET search_path;
SELECT a FROM w FOR UPDATE;
RESET ROLE;
SELECT a FROM w ORDER BY a;
SELECT * FROM wk;
SELECT * FROM wk2 ORDER BY k;
DROP VIEW wv;
DROP TABLE w, wk, wk2, secret, sp.w;
DROP SCHEMA sp;
DROP ROLE dml, upd, sel, wo;
-- schema USAGE: a qualified name in a schema without it is 42501 (even a
-- missing one), search_path skips it (current_schema() too), CREATE in a
-- schema needs CREATE; grants through PUBLIC and groups; DROP ROLE and a
-- schema dropped and created again
CREATE SCHEMA sa;
CREATE TABLE sa.t (a int);
INSERT INTO sa.t VALUES (1);
CREATE TABLE t2 (a int);
INSERT INTO t2 VALUES (2);
CREATE ROLE su1;
GRANT SELECT, INSERT, UPDATE, DELETE ON sa.t, t2 TO su1;
SELECT has_schema_privilege('su1', 'sa', 'USAGE'), has_schema_privilege('su1', 'sa', 'CREATE'), has_schema_privilege('su1', 'public', 'USAGE'), has_schema_privilege('su1', 'public', 'CREATE');
SET ROLE su1;
SELECT * FROM sa.t;
SELECT * FROM sa.nosuch;
INSERT INTO sa.t VALUES (3);
UPDATE sa.t SET a = 1 WHERE false;
DELETE FROM sa.t WHERE false;
SET search_path = sa, public;
SELECT current_schema();
SELECT * FROM t2;
SELECT * FROM t;
CREATE TABLE sa.x (a int);
CREATE TABLE x (a int);
RESET search_path;
RESET ROLE;
GRANT USAGE ON SCHEMA sa TO su1;
SELECT has_schema_privilege('su1', 'sa', 'USAGE'), has_schema_privilege('su1', 'sa', 'CREATE'), has_schema_privilege('su1', 'sa', 'USAGE, CREATE');
SET ROLE su1;
SELECT * FROM sa.t;
SET search_path = sa, public;
SELECT current_schema();
SELECT * FROM t;
CREATE TABLE sa.x (a int);
RESET search_path;
SELECT has_schema_privilege('sa', 'USAGE');
RESET ROLE;
REVOKE USAGE ON SCHEMA sa FROM su1;
GRANT USAGE ON SCHEMA sa TO PUBLIC;
SET ROLE su1;
SELECT * FROM sa.t;
RESET ROLE;
REVOKE ALL ON SCHEMA sa FROM PUBLIC;
GRANT SELECT ON SCHEMA sa TO su1;
GRANT TEMPORARY ON SCHEMA sa TO su1;
GRANT USAGE ON SCHEMA nosuch TO su1;
SET ROLE su1;
SELECT * FROM sa.t;
GRANT USAGE ON SCHEMA sa TO su1;
RESET ROLE;
CREATE ROLE grp1;
GRANT USAGE ON SCHEMA sa TO grp1;
GRANT grp1 TO su1;
SET ROLE su1;
SELECT * FROM sa.t;
RESET ROLE;
DROP ROLE grp1;
REVOKE grp1 FROM su1;
REVOKE USAGE ON SCHEMA sa FROM grp1;
DROP ROLE grp1;
CREATE SCHEMA so AUTHORIZATION nosuch;
CREATE SCHEMA so AUTHORIZATION su1;
SELECT has_schema_privilege('su1', 'so', 'USAGE'), has_schema_privilege('su1', 'so', 'CREATE');
DROP SCHEMA so;
REVOKE ALL ON sa.t, t2 FROM su1;
GRANT ALL ON SCHEMA sa TO su1;
SELECT has_schema_privilege('su1', 'sa', 'CREATE');
DROP ROLE su1;
DROP TABLE sa.t;
DROP SCHEMA sa;
CREATE SCHEMA sa;
SELECT has_schema_privilege('su1', 'sa', 'USAGE');
DROP ROLE su1;
DROP SCHEMA sa;
DROP TABLE t2;
SQL
# a NOLOGIN role's login (trust): refused at connection time, FATAL 28000
nologin_login() {
	psql -X -q "host=127.0.0.1 port=$1 user=postgres dbname=floe ${2:-}" -c "CREATE ROLE nolog2 NOLOGIN" 2>&1
	psql -X "host=127.0.0.1 port=$1 user=nolog2 dbname=floe ${2:-}" -c "SELECT 1" 2>&1 | sed "s/port $1 /port P /"
	psql -X "host=127.0.0.1 port=$1 user=postgres dbname=floe ${2:-}" -c "DROP ROLE nolog2" 2>&1
}
cmp_filter() { grep -v '^LOCATION:\|^LINE [0-9]*:\|^ *^$' | sed 's/^psql:[^:]*:[0-9]*: //'; }
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	psql -X -q "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" -c "CREATE DATABASE floe" >/dev/null 2>&1
	psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=floe" -f "$tmp/cmp.sql" 2>&1 | cmp_filter >"$tmp/cmp.pg"
	nologin_login "$pgport" >>"$tmp/cmp.pg"
	mkdir -p "$tmp/wh2"
	if start_server -D "$tmp/wh2"; then
		psql -X "host=127.0.0.1 port=$port user=postgres dbname=floe sslmode=disable" -f "$tmp/cmp.sql" 2>&1 |
			cmp_filter >"$tmp/cmp.floe"
		nologin_login "$port" sslmode=disable >>"$tmp/cmp.floe"
		stop_server || fail clean_exit_2 "exit" "$tmp/serve.err"
		if diff -u "$tmp/cmp.pg" "$tmp/cmp.floe" >"$tmp/cmp.diff" && [ "$(grep -c ERROR "$tmp/cmp.pg")" -gt 25 ]; then
			pass "same_as_postgresql ($(grep -c ERROR "$tmp/cmp.pg") errors, \\du, has_table_privilege, SET ROLE)"
		else
			fail same_as_postgresql "differs from PostgreSQL 15" "$tmp/cmp.diff"
		fi
	else
		fail same_as_postgresql "floe serve did not start" "$tmp/serve.err"
	fi
else
	echo "SKIP acl: same_as_postgresql (PostgreSQL 15 did not start)"
fi

# ---- database privileges (CONNECT, CREATE, TEMPORARY) as PostgreSQL 15 ---------
# GRANT / REVOKE ON DATABASE, has_database_privilege, CREATE SCHEMA needing
# CREATE, temporary relations needing TEMPORARY (PUBLIC's by default), a
# login without CONNECT refused at startup (FATAL 42501 with its DETAIL),
# DROP ROLE of a role holding a database privilege.  The temporary schema's
# number differs (pg_temp_N).
cat >"$tmp/cmpdb.sql" <<'SQL'
\set VERBOSITY verbose
CREATE ROLE dbr LOGIN;
CREATE ROLE dbg;
SELECT has_database_privilege('dbr', 'floe', 'CONNECT'), has_database_privilege('dbr', 'floe', 'TEMP'), has_database_privilege('dbr', 'floe', 'TEMPORARY'), has_database_privilege('dbr', 'floe', 'CREATE');
SELECT has_database_privilege('floe', 'CONNECT, CREATE'), has_database_privilege('public', 'floe', 'connect');
SELECT has_database_privilege('dbr', 'nosuch', 'CONNECT');
SELECT has_database_privilege('dbr', 'floe', 'USAGE');
SELECT has_database_privilege('nosuch', 'floe', 'CONNECT');
SELECT has_database_privilege('dbr', 'floe', 'CONNECT WITH GRANT OPTION');
GRANT CONNECT ON DATABASE nosuch TO dbr;
GRANT SELECT ON DATABASE floe TO dbr;
GRANT USAGE ON DATABASE floe TO dbr;
GRANT CONNECT ON DATABASE floe TO nosuch;
SET ROLE dbr;
CREATE SCHEMA dbs;
CREATE SCHEMA IF NOT EXISTS public;
SELECT has_database_privilege('floe', 'CREATE'), has_database_privilege('floe', 'TEMP');
CREATE TEMP TABLE tt (a int);
GRANT CONNECT ON DATABASE floe TO dbg;
REVOKE CONNECT ON DATABASE floe FROM dbg;
RESET ROLE;
GRANT CREATE ON DATABASE floe TO dbr;
SELECT has_database_privilege('dbr', 'floe', 'CREATE');
SET ROLE dbr;
CREATE SCHEMA dbs;
CREATE SCHEMA dbs2 AUTHORIZATION dbg;
CREATE SCHEMA dbs3 AUTHORIZATION nosuch;
SELECT has_schema_privilege('dbr', 'dbs', 'USAGE'), has_schema_privilege('dbr', 'dbs', 'CREATE');
RESET ROLE;
CREATE ROLE dbx;
GRANT CONNECT ON DATABASE floe TO dbx;
DROP ROLE dbx;
REVOKE CONNECT ON DATABASE floe FROM dbx;
DROP ROLE dbx;
REVOKE CREATE ON DATABASE floe FROM dbr;
REVOKE TEMPORARY ON DATABASE floe FROM PUBLIC;
SELECT has_database_privilege('dbr', 'floe', 'TEMP'), has_database_privilege('dbr', 'floe', 'CONNECT');
SET ROLE dbr;
CREATE TEMP TABLE tt (a int);
CREATE TABLE pg_temp.tt (a int);
CREATE TEMP SEQUENCE tsq;
RESET ROLE;
GRANT TEMP ON DATABASE floe TO dbg;
GRANT dbg TO dbr;
SELECT has_database_privilege('dbr', 'floe', 'TEMP');
SET ROLE dbr;
CREATE TEMP TABLE tt (a int);
INSERT INTO tt VALUES (1);
SELECT * FROM tt;
RESET ROLE;
REVOKE ALL ON DATABASE floe FROM dbg;
REVOKE CONNECT ON DATABASE floe FROM PUBLIC;
SELECT has_database_privilege('dbr', 'floe', 'CONNECT'), has_database_privilege('public', 'floe', 'CONNECT');
DROP ROLE dbg;
SQL
# ANALYZE / VACUUM of a named table the role does not own: PostgreSQL 15's
# WARNING 'skipping "t" --- only table or database owner can analyze it'
# (vacuum_is_relation_owner) and the statement completes; a missing table
# (42P01) or a schema without USAGE (42501) is still an error
cat >"$tmp/cmpmaint.sql" <<'SQL'
\set VERBOSITY verbose
CREATE TABLE vt (a int);
INSERT INTO vt VALUES (1);
CREATE TABLE vt2 (a int);
CREATE ROLE van;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON vt TO van;
CREATE SCHEMA vs;
CREATE TABLE vs.x (a int);
CREATE SEQUENCE vsq;
SET ROLE van;
ALTER SEQUENCE vsq RESTART 5;
CREATE INDEX ON vt (a);
CREATE INDEX ON nosuch (a);
COMMENT ON TABLE vt IS 'x';
ANALYZE vt;
VACUUM vt;
VACUUM ANALYZE vt;
ANALYZE vt, vt2;
ANALYZE vt (a);
ANALYZE vt (nosuch);
ANALYZE nosuch;
ANALYZE vs.x;
ANALYZE vs.nosuch;
VACUUM (ANALYZE) vt;
ANALYZE public.vt;
ANALYZE VERBOSE vt;
BEGIN;
ANALYZE vt;
VACUUM vt;
ROLLBACK;
RESET ROLE;
ANALYZE nosuch;
ANALYZE vt;
ANALYZE vt (nosuch);
DROP SEQUENCE vsq;
DROP TABLE vs.x;
DROP SCHEMA vs;
DROP TABLE vt;
DROP TABLE vt2;
DROP ROLE van;
SQL
# DDL by a role that owns nothing (floe's objects are the superuser's): as
# PostgreSQL 15, the object is looked up first -- a schema without USAGE
# is 42501 "permission denied for schema", a missing object the
# statement's own 42P01 / 3F000 / 42704 / 42883 (a NOTICE under IF
# EXISTS), another kind's 42809 -- and only then 42501 "must be owner of
# <its kind> x" (COMMENT ON COLUMN of a missing column: 42703 first);
# CREATE FUNCTION needs CREATE on its schema; a call or DROP INDEX
# qualified by a schema without USAGE is 42501 (before:
# every ALTER / RENAME / COMMENT / DROP was "must be owner of table
# <name>" first, DROP FUNCTION "must be owner of table ?", and any role
# could CREATE (OR REPLACE) FUNCTION, in any schema)
cat >"$tmp/cmpddl.sql" <<'SQL'
\set VERBOSITY verbose
CREATE ROLE ddr;
CREATE TABLE dt (a int);
CREATE VIEW dv AS SELECT 1 AS x;
CREATE SEQUENCE ds;
CREATE INDEX di ON dt (a);
CREATE SCHEMA dh;
CREATE TABLE dh.x (a int);
CREATE FUNCTION df(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
CREATE FUNCTION dh.dfx(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
SET ROLE ddr;
ALTER TABLE nosuch ADD COLUMN b int;
ALTER TABLE IF EXISTS nosuch ADD COLUMN b int;
ALTER TABLE dt ADD COLUMN b int;
ALTER TABLE dv ADD COLUMN b int;
ALTER TABLE nosuch RENAME TO n2;
ALTER TABLE IF EXISTS nosuch RENAME TO n2;
ALTER TABLE dt RENAME TO t2;
ALTER TABLE dv RENAME TO v2;
ALTER VIEW dv RENAME TO v2;
ALTER VIEW nosuch RENAME TO v2;
ALTER TABLE dt RENAME a TO b;
ALTER TABLE nosuch RENAME a TO b;
ALTER TABLE dt SET SCHEMA dh;
ALTER TABLE nosuch SET SCHEMA dh;
ALTER TABLE IF EXISTS nosuch SET SCHEMA dh;
ALTER TABLE dh.x RENAME TO y;
ALTER TABLE dh.nosuch RENAME TO y;
ALTER SEQUENCE nosuch RESTART;
ALTER SEQUENCE IF EXISTS nosuch RESTART;
ALTER SEQUENCE ds RESTART;
ALTER SEQUENCE dt RESTART;
ALTER SEQUENCE ds RENAME TO s2;
COMMENT ON TABLE nosuch IS 'x';
COMMENT ON TABLE dt IS 'x';
COMMENT ON SCHEMA dh IS 'x';
COMMENT ON COLUMN dt.a IS 'x';
COMMENT ON COLUMN nosuch.a IS 'x';
COMMENT ON COLUMN dt.nosuch IS 'x';
SELECT dh.dfx(1);
SELECT dh.nosuchfn(1);
DROP TABLE nosuch;
DROP TABLE IF EXISTS nosuch;
DROP TABLE dt;
DROP TABLE dv;
DROP VIEW nosuch;
DROP VIEW dv;
DROP VIEW dt;
DROP SEQUENCE nosuch;
DROP SEQUENCE ds;
DROP SEQUENCE IF EXISTS nosuch;
DROP SCHEMA nosuch;
DROP SCHEMA IF EXISTS nosuch;
DROP SCHEMA dh;
DROP TABLE dh.x;
DROP TABLE dh.nosuch;
DROP TABLE IF EXISTS dh.nosuch;
DROP TABLE dt, nosuch;
DROP TABLE nosuch, dt;
CREATE INDEX ON nosuch (a);
CREATE INDEX ON dt (a);
CREATE INDEX ON dh.x (a);
DROP INDEX nosuch;
DROP INDEX di;
DROP INDEX dh.nosuch;
CREATE TABLE nosch.x (a int);
CREATE VIEW nosch.v AS SELECT 1;
DROP FUNCTION nosuch(int);
DROP FUNCTION df(int);
DROP FUNCTION df;
DROP FUNCTION df(text);
DROP FUNCTION dh.df(int);
DROP FUNCTION IF EXISTS dh.df(int);
CREATE FUNCTION dg(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
CREATE FUNCTION dh.dg(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
CREATE OR REPLACE FUNCTION df(int) RETURNS int LANGUAGE sql AS 'SELECT $1 + 1';
CREATE FUNCTION nosch.dg(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
SELECT df(1);
TRUNCATE nosuch;
CREATE TEMP TABLE dtt (a int);
ALTER TABLE dtt ADD COLUMN b int;
DROP TABLE dtt;
RESET ROLE;
DROP FUNCTION df(int);
DROP FUNCTION dh.dfx(int);
DROP INDEX di;
DROP TABLE dh.x;
DROP SCHEMA dh;
DROP SEQUENCE ds;
DROP VIEW dv;
DROP TABLE dt;
DROP ROLE ddr;
SQL
# has_column_privilege (its table's privileges: floe has no column grants;
# 42703 for a column by name that does not exist, NULL for an attnum or a
# relation oid that names nothing) and has_schema_privilege by schema oid
# (NULL for no schema) answer as PostgreSQL 15 (before: both always true);
# WITH GRANT OPTION only for superusers, the words' case kept in 22023
cat >"$tmp/cmpfn.sql" <<'SQL'
\set VERBOSITY verbose
CREATE ROLE cr;
CREATE TABLE ct (a int, b text);
CREATE TABLE cu (a int);
CREATE SCHEMA cs;
GRANT SELECT ON ct TO cr;
GRANT USAGE ON SCHEMA cs TO cr;
SELECT has_column_privilege('cr', 'ct', 'a', 'SELECT'), has_column_privilege('cr', 'ct', 'a', 'INSERT'), has_column_privilege('cr', 'cu', 'a', 'SELECT');
SELECT has_column_privilege('cr', 'ct', 'a', 'SELECT, UPDATE'), has_column_privilege('cr', 'ct', 'b', 'update, select');
SELECT has_column_privilege('cr', 'ct', 'nosuch', 'SELECT');
SELECT has_column_privilege('cr', 'nosuch', 'a', 'SELECT');
SELECT has_column_privilege('cr', 'ct', 'a', 'DELETE');
SELECT has_column_privilege('cr', 'ct', 'a', 'REFERENCES'), has_column_privilege('cr', 'ct', 'a', 'SELECT WITH GRANT OPTION');
SELECT has_column_privilege('nosuch', 'ct', 'a', 'SELECT');
SELECT has_column_privilege('cr', 'ct'::regclass, 'a', 'SELECT'), has_column_privilege('cr', 'ct'::regclass, 1::int2, 'SELECT'), has_column_privilege('cr', 'ct'::regclass, 9::int2, 'SELECT');
SELECT has_column_privilege('ct', 'a', 'SELECT'), has_column_privilege('ct'::regclass, 'a', 'SELECT'), has_column_privilege('ct'::regclass, 2::int2, 'INSERT');
SELECT has_column_privilege((SELECT oid FROM pg_roles WHERE rolname = 'cr'), 'ct', 'a', 'SELECT');
SELECT has_column_privilege((SELECT oid FROM pg_roles WHERE rolname = 'cr'), 'cu'::regclass, 'a', 'SELECT');
SELECT has_column_privilege('cr', 'pg_class', 'relname', 'SELECT');
SELECT has_column_privilege('public', 'ct', 'a', 'SELECT');
SELECT has_column_privilege(999999::regclass, 'a', 'SELECT');
SELECT has_column_privilege(999999::oid, 1::int2, 'SELECT');
CREATE VIEW cv AS SELECT a FROM ct;
GRANT SELECT ON cv TO cr;
SELECT has_table_privilege('cr', 'ct', 'SELECT WITH GRANT OPTION'), has_table_privilege('cr', 999999::oid, 'SELECT'), has_table_privilege('cr', 'ct', ' select , insert ');
SELECT has_table_privilege('cr', 'ct', 'Bogus');
SELECT has_table_privilege('cr', 999999::oid, 'Bogus');
SELECT has_schema_privilege('cr', 'cs', 'usage with grant option'), has_schema_privilege('cr', 'cs', 'usage, create with grant option');
SELECT has_table_privilege('cr', 'pg_class', 'SELECT'), has_table_privilege('cr', 'pg_class', 'INSERT'), has_table_privilege('cr', 'pg_class'::regclass, 'SELECT');
SELECT has_table_privilege('cr', 'cv', 'SELECT'), has_table_privilege('cr', 'cv'::regclass, 'SELECT'), has_table_privilege('cr', 'cv', 'INSERT'), has_column_privilege('cr', 'cv', 'a', 'SELECT');
SELECT has_column_privilege('postgres', 'cu', 'a', 'SELECT WITH GRANT OPTION'), has_table_privilege('postgres', 'cu', 'DELETE');
SET ROLE cr;
SELECT has_column_privilege('ct', 'a', 'SELECT'), has_column_privilege('cu', 'a', 'SELECT'), has_column_privilege('ct', 'b', 'INSERT');
RESET ROLE;
SELECT has_schema_privilege('cr', (SELECT oid FROM pg_namespace WHERE nspname = 'cs'), 'USAGE'), has_schema_privilege('cr', (SELECT oid FROM pg_namespace WHERE nspname = 'cs'), 'CREATE');
SELECT has_schema_privilege('cr', (SELECT oid FROM pg_namespace WHERE nspname = 'public'), 'CREATE'), has_schema_privilege('cr', (SELECT oid FROM pg_namespace WHERE nspname = 'public'), 'USAGE');
SELECT has_schema_privilege('cr', (SELECT oid FROM pg_namespace WHERE nspname = 'pg_catalog'), 'USAGE');
SELECT has_schema_privilege((SELECT oid FROM pg_namespace WHERE nspname = 'cs'), 'CREATE');
SELECT has_schema_privilege('cr', 999999::oid, 'USAGE');
SELECT has_schema_privilege(999999::oid, 'USAGE');
SELECT has_schema_privilege('cr', (SELECT oid FROM pg_namespace WHERE nspname = 'cs'), 'SELECT');
SELECT has_schema_privilege((SELECT oid FROM pg_roles WHERE rolname = 'cr'), 'cs', 'USAGE');
SELECT has_schema_privilege((SELECT oid FROM pg_roles WHERE rolname = 'cr'), (SELECT oid FROM pg_namespace WHERE nspname = 'cs'), 'USAGE');
SET ROLE cr;
SELECT has_schema_privilege((SELECT oid FROM pg_namespace WHERE nspname = 'cs'), 'USAGE'), has_schema_privilege((SELECT oid FROM pg_namespace WHERE nspname = 'cs'), 'CREATE');
RESET ROLE;
REVOKE ALL ON ct FROM cr;
REVOKE ALL ON cv FROM cr;
REVOKE ALL ON SCHEMA cs FROM cr;
DROP SCHEMA cs;
DROP VIEW cv;
DROP TABLE ct;
DROP TABLE cu;
DROP ROLE cr;
SQL
# Sequence privileges as PostgreSQL 15: nextval needs USAGE or UPDATE,
# currval / lastval USAGE or SELECT, setval UPDATE, SELECT FROM a sequence
# SELECT (42501 "permission denied for sequence s"); a serial column's
# DEFAULT nextval needs USAGE on its sequence, an identity column's not;
# GRANT / REVOKE ON SEQUENCE and ON ALL SEQUENCES IN SCHEMA (0LP01 for a
# table's words, 42809 for a table), ON TABLE of a sequence (ALL = its
# three, others dropped with PostgreSQL's WARNING), has_sequence_privilege,
# information_schema.usage_privileges and pg_class.relacl (psql's \dp),
# pg_sequences.last_value (NULL without SELECT or USAGE) and
# information_schema.sequences (those the role holds a privilege on);
# a dropped sequence's grants go with it.  Before: every role could call
# every sequence function, GRANT ON SEQUENCE was 0A000.
cat >"$tmp/cmpseq.sql" <<'SQL'
\set VERBOSITY verbose
CREATE ROLE sr;
CREATE ROLE sg;
CREATE SEQUENCE sq;
CREATE SEQUENCE sq2;
CREATE TABLE st (id serial, v text);
CREATE TABLE si (id int GENERATED BY DEFAULT AS IDENTITY, v text);
CREATE TABLE sa (id int GENERATED ALWAYS AS IDENTITY, v text);
CREATE TABLE sd (id bigint DEFAULT nextval('sq2'), v text);
GRANT INSERT, SELECT ON st, si, sa, sd TO sr;
SET ROLE sr;
SELECT nextval('sq');
SELECT currval('sq');
SELECT setval('sq', 5);
SELECT lastval();
SELECT * FROM sq;
SELECT last_value FROM sq;
SELECT has_sequence_privilege('sq', 'USAGE'), has_sequence_privilege('sq', 'SELECT'), has_sequence_privilege('sq', 'UPDATE');
SELECT has_sequence_privilege('st', 'USAGE');
SELECT has_sequence_privilege('sq', 'INSERT');
SELECT has_sequence_privilege('nosuch', 'USAGE');
INSERT INTO st (v) VALUES ('a');
INSERT INTO si (v) VALUES ('a');
INSERT INTO sa (v) VALUES ('a');
INSERT INTO sd (v) VALUES ('a');
INSERT INTO st VALUES (10, 'b');
INSERT INTO sd VALUES (10, 'b');
RESET ROLE;
GRANT USAGE ON SEQUENCE sq TO sr;
GRANT SELECT ON SEQUENCE st_id_seq TO sr;
GRANT UPDATE ON SEQUENCE sq2 TO sr;
GRANT INSERT ON SEQUENCE sq TO sr;
GRANT USAGE ON TABLE st TO sr;
GRANT USAGE ON SEQUENCE st TO sr;
GRANT USAGE ON SEQUENCE nosuch TO sr;
GRANT SELECT, INSERT ON TABLE sq TO sr;
GRANT ALL ON TABLE sq2 TO sg;
GRANT ALL ON SEQUENCE st_id_seq TO sg;
SELECT has_sequence_privilege('sr', 'sq', 'USAGE'), has_sequence_privilege('sr', 'sq', 'SELECT'), has_sequence_privilege('sr', 'sq', 'UPDATE');
SELECT has_sequence_privilege('sg', 'sq2', 'USAGE'), has_sequence_privilege('sg', 'sq2', 'SELECT'), has_sequence_privilege('sg', 'sq2', 'UPDATE'), has_sequence_privilege('sg', 'st_id_seq', 'usage, update');
SELECT has_table_privilege('sr', 'sq', 'SELECT'), has_table_privilege('sr', 'sq', 'UPDATE'), has_table_privilege('sr', 'sq', 'INSERT');
SET ROLE sr;
SELECT nextval('sq');
SELECT currval('sq');
SELECT lastval();
SELECT setval('sq', 5);
SELECT last_value FROM sq;
SELECT nextval('sq2');
SELECT setval('sq2', 7);
SELECT currval('sq2');
SELECT lastval();
SELECT last_value FROM sq2;
INSERT INTO st (v) VALUES ('a');
INSERT INTO sd (v) VALUES ('a');
SELECT currval('st_id_seq');
SELECT nextval('st_id_seq');
SELECT nextval('nosuch');
SELECT has_sequence_privilege('sq'::regclass, 'USAGE'), has_sequence_privilege(999999::oid, 'USAGE'), has_sequence_privilege('sr', 'sq'::regclass, 'SELECT');
SELECT has_sequence_privilege('st'::regclass, 'USAGE');
SELECT sequencename, last_value FROM pg_sequences WHERE sequencename IN ('sq', 'sq2', 'st_id_seq', 'si_id_seq') ORDER BY 1;
SELECT sequence_name FROM information_schema.sequences WHERE sequence_name IN ('sq', 'sq2', 'st_id_seq', 'si_id_seq') ORDER BY 1;
CREATE TEMP SEQUENCE tsq;
SELECT nextval('tsq'), currval('tsq'), setval('tsq', 4), lastval(), has_sequence_privilege('tsq', 'UPDATE');
DROP SEQUENCE tsq;
RESET ROLE;
REVOKE USAGE ON SEQUENCE sq FROM sr;
REVOKE ALL ON SEQUENCE sq2 FROM sr;
SELECT has_sequence_privilege('sr', 'sq', 'USAGE'), has_sequence_privilege('sr', 'sq', 'SELECT'), has_sequence_privilege('sr', 'sq2', 'UPDATE');
SELECT grantee, table_name, privilege_type FROM information_schema.table_privileges WHERE table_name IN ('sq', 'sq2', 'st_id_seq') ORDER BY 1, 2, 3;
SELECT grantee, object_name, object_type, privilege_type FROM information_schema.usage_privileges WHERE object_name IN ('sq', 'sq2', 'st_id_seq') ORDER BY 1, 2;
SELECT relname, relacl FROM pg_class WHERE relname IN ('sq', 'sq2', 'st_id_seq') ORDER BY 1;
CREATE SCHEMA ss;
CREATE SEQUENCE ss.a;
CREATE SEQUENCE ss.b;
CREATE TABLE ss.t (a int);
GRANT USAGE ON SCHEMA ss TO sr;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA ss TO sr;
SELECT has_sequence_privilege('sr', 'ss.a', 'USAGE'), has_sequence_privilege('sr', 'ss.b', 'USAGE'), has_table_privilege('sr', 'ss.t', 'SELECT');
GRANT SELECT ON ALL TABLES IN SCHEMA ss TO sr;
SELECT has_sequence_privilege('sr', 'ss.a', 'SELECT'), has_table_privilege('sr', 'ss.t', 'SELECT');
REVOKE ALL ON ALL SEQUENCES IN SCHEMA ss FROM sr;
SELECT has_sequence_privilege('sr', 'ss.a', 'USAGE');
REVOKE ALL ON ALL TABLES IN SCHEMA ss FROM sr;
REVOKE ALL ON SCHEMA ss FROM sr;
REVOKE ALL ON st, si, sa, sd FROM sr;
REVOKE ALL ON SEQUENCE st_id_seq, sq, sq2 FROM sr;
REVOKE ALL ON SEQUENCE st_id_seq, sq2 FROM sg;
DROP SEQUENCE ss.a;
DROP SEQUENCE ss.b;
DROP TABLE ss.t;
DROP SCHEMA ss;
CREATE SEQUENCE sq3;
GRANT USAGE ON SEQUENCE sq3 TO sg;
DROP SEQUENCE sq3;
CREATE SEQUENCE sq3;
SELECT has_sequence_privilege('sg', 'sq3', 'USAGE');
DROP ROLE sg;
DROP SEQUENCE sq3;
DROP TABLE st, si, sa, sd;
DROP SEQUENCE sq, sq2;
DROP ROLE sr;
SQL
# EXPLAIN of a write checks what running it checks (PostgreSQL's EXPLAIN
# runs ExecCheckRTPerms): SELECT on MERGE's source and on the target
# columns ON / WHEN / SET read, INSERT's source, CTEs and RETURNING,
# UPDATE / DELETE subqueries, INSERT ... ON CONFLICT's arbiter, DO UPDATE
# SET / WHERE subqueries (not checked before) and RETURNING.  explain_privs PORT [conn extra]: each
# statement as role ex, its ERROR line or "ok" (a plan on PostgreSQL;
# floe's 0A000 for EXPLAIN of a write, which comes after the checks)
explain_privs() {
	local p=$1 extra=${2:-} st out
	psql -X -q "host=127.0.0.1 port=$p user=postgres dbname=floe $extra" \
		-c "CREATE TABLE et (a int, b text)" -c "CREATE TABLE esrc (a int, b text)" -c "CREATE TABLE esecret (s text)" \
		-c "CREATE TABLE ek (a int PRIMARY KEY, b text)" -c "CREATE TABLE ek2 (a int PRIMARY KEY, b text)" \
		-c "CREATE TABLE ek3 (a int PRIMARY KEY, b text)" \
		-c "CREATE ROLE ex" -c "GRANT INSERT, UPDATE, DELETE ON et TO ex" -c "GRANT SELECT ON esrc TO ex" \
		-c "GRANT SELECT, INSERT, UPDATE ON ek TO ex" -c "GRANT INSERT, UPDATE ON ek2 TO ex" -c "GRANT SELECT, INSERT ON ek3 TO ex" 2>&1
	while IFS= read -r st; do
		out=$(psql -X -v VERBOSITY=verbose "host=127.0.0.1 port=$p user=postgres dbname=floe $extra" -c "SET ROLE ex" -c "$st" 2>&1)
		case $out in
		*"EXPLAIN of a statement other than SELECT/VALUES is not supported"*) echo "ok: $st" ;;
		*ERROR:*) echo "$(printf '%s\n' "$out" | grep -m1 'ERROR:'): $st" ;;
		*) echo "ok: $st" ;;
		esac
	done <<'SQL'
EXPLAIN MERGE INTO et USING esrc ON et.a = esrc.a WHEN MATCHED THEN DELETE
EXPLAIN MERGE INTO et USING esrc ON true WHEN MATCHED THEN DELETE
EXPLAIN MERGE INTO et USING esecret ON true WHEN MATCHED THEN DELETE
EXPLAIN MERGE INTO et USING (SELECT * FROM esecret) s ON true WHEN NOT MATCHED THEN INSERT VALUES (1, s.s)
EXPLAIN MERGE INTO et USING esrc ON true WHEN MATCHED AND (SELECT count(*) FROM esecret) > 0 THEN DELETE
EXPLAIN MERGE INTO et USING esrc ON true WHEN MATCHED THEN UPDATE SET b = (SELECT s FROM esecret)
EXPLAIN MERGE INTO et USING esrc ON true WHEN MATCHED THEN UPDATE SET b = et.b
EXPLAIN MERGE INTO et USING esrc ON true WHEN NOT MATCHED THEN INSERT VALUES (esrc.a, esrc.b)
EXPLAIN ANALYZE MERGE INTO et USING esecret ON true WHEN MATCHED THEN DELETE
EXPLAIN MERGE INTO esecret USING esrc ON true WHEN MATCHED THEN DELETE
EXPLAIN INSERT INTO et SELECT a, b FROM esrc
EXPLAIN INSERT INTO et SELECT 1, s FROM esecret
EXPLAIN INSERT INTO et (b) SELECT (SELECT s FROM esecret)
EXPLAIN WITH x AS (SELECT s FROM esecret) INSERT INTO et SELECT 1, s FROM x
EXPLAIN INSERT INTO et SELECT * FROM et
EXPLAIN INSERT INTO et VALUES (1, 'x') RETURNING (SELECT s FROM esecret LIMIT 1)
EXPLAIN INSERT INTO esecret VALUES ('x')
EXPLAIN ANALYZE INSERT INTO et SELECT 1, s FROM esecret
EXPLAIN UPDATE et SET b = (SELECT s FROM esecret)
EXPLAIN UPDATE et SET b = 'x' WHERE a = 1
EXPLAIN UPDATE et SET b = esrc.b FROM esrc
EXPLAIN DELETE FROM et WHERE EXISTS (SELECT 1 FROM esecret)
EXPLAIN DELETE FROM et USING esrc WHERE esrc.a = 1
EXPLAIN INSERT INTO ek VALUES (1, 'x') ON CONFLICT (a) DO UPDATE SET b = (SELECT s FROM esecret)
EXPLAIN INSERT INTO ek VALUES (1, 'x') ON CONFLICT (a) DO UPDATE SET b = 'y' WHERE EXISTS (SELECT 1 FROM esecret)
EXPLAIN INSERT INTO ek VALUES (1, 'x') ON CONFLICT (a) DO UPDATE SET b = (SELECT max(b) FROM esrc) WHERE ek.b <> excluded.b
EXPLAIN INSERT INTO ek SELECT 1, s FROM esecret ON CONFLICT DO NOTHING
EXPLAIN INSERT INTO ek VALUES (1, 'x') ON CONFLICT DO NOTHING RETURNING (SELECT s FROM esecret LIMIT 1)
EXPLAIN WITH x AS (SELECT s FROM esecret) INSERT INTO ek VALUES (1, 'x') ON CONFLICT (a) DO UPDATE SET b = (SELECT s FROM x)
EXPLAIN INSERT INTO ek2 VALUES (1, 'x') ON CONFLICT (a) DO UPDATE SET b = excluded.b
EXPLAIN INSERT INTO ek2 VALUES (1, 'x') ON CONFLICT DO NOTHING
EXPLAIN INSERT INTO ek3 VALUES (1, 'x') ON CONFLICT (a) DO UPDATE SET b = excluded.b
EXPLAIN INSERT INTO ek3 VALUES (1, 'x') ON CONFLICT (a) DO NOTHING
EXPLAIN ANALYZE INSERT INTO ek VALUES (1, 'x') ON CONFLICT (a) DO UPDATE SET b = (SELECT s FROM esecret)
SQL
	psql -X -q "host=127.0.0.1 port=$p user=postgres dbname=floe $extra" \
		-c "DROP TABLE et" -c "DROP TABLE esrc" -c "DROP TABLE esecret" -c "DROP TABLE ek" -c "DROP TABLE ek2" \
		-c "DROP TABLE ek3" -c "DROP ROLE ex" 2>&1
}
# logins against CONNECT: dbr refused, then granted CONNECT; PUBLIC's back
db_logins() {
	psql -X "host=127.0.0.1 port=$1 user=dbr dbname=floe ${2:-}" -c "SELECT 1" 2>&1 | sed "s/port $1 /port P /"
	psql -X -q "host=127.0.0.1 port=$1 user=postgres dbname=floe ${2:-}" -c "SELECT 'superuser connects'" -c "GRANT CONNECT ON DATABASE floe TO dbr" 2>&1
	psql -X "host=127.0.0.1 port=$1 user=dbr dbname=floe ${2:-}" -c "SELECT current_user" 2>&1
	psql -X -q "host=127.0.0.1 port=$1 user=postgres dbname=floe ${2:-}" -c "REVOKE CONNECT ON DATABASE floe FROM dbr" -c "DROP SCHEMA dbs" -c "DROP ROLE dbr" -c "GRANT ALL ON DATABASE floe TO PUBLIC" 2>&1
}
if [ -n "${pgport:-}" ]; then
	psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=floe" -f "$tmp/cmpdb.sql" 2>&1 | cmp_filter |
		sed 's/pg_temp_[0-9]*/pg_temp_N/' >"$tmp/cmpdb.pg"
	db_logins "$pgport" >>"$tmp/cmpdb.pg"
	psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=floe" -f "$tmp/cmpmaint.sql" 2>&1 | cmp_filter >"$tmp/cmpmaint.pg"
	explain_privs "$pgport" >"$tmp/cmpexplain.pg"
	psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=floe" -f "$tmp/cmpddl.sql" 2>&1 | cmp_filter >"$tmp/cmpddl.pg"
	psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=floe" -f "$tmp/cmpfn.sql" 2>&1 | cmp_filter >"$tmp/cmpfn.pg"
	psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=floe" -f "$tmp/cmpseq.sql" 2>&1 | cmp_filter >"$tmp/cmpseq.pg"
	mkdir -p "$tmp/wh5"
	if start_server -D "$tmp/wh5"; then
		psql -X "host=127.0.0.1 port=$port user=postgres dbname=floe sslmode=disable" -f "$tmp/cmpdb.sql" 2>&1 |
			cmp_filter | sed 's/pg_temp_[0-9]*/pg_temp_N/' >"$tmp/cmpdb.floe"
		db_logins "$port" sslmode=disable >>"$tmp/cmpdb.floe"
		psql -X "host=127.0.0.1 port=$port user=postgres dbname=floe sslmode=disable" -f "$tmp/cmpmaint.sql" 2>&1 |
			cmp_filter >"$tmp/cmpmaint.floe"
		explain_privs "$port" sslmode=disable >"$tmp/cmpexplain.floe"
		psql -X "host=127.0.0.1 port=$port user=postgres dbname=floe sslmode=disable" -f "$tmp/cmpddl.sql" 2>&1 |
			cmp_filter >"$tmp/cmpddl.floe"
		psql -X "host=127.0.0.1 port=$port user=postgres dbname=floe sslmode=disable" -f "$tmp/cmpfn.sql" 2>&1 |
			cmp_filter >"$tmp/cmpfn.floe"
		psql -X "host=127.0.0.1 port=$port user=postgres dbname=floe sslmode=disable" -f "$tmp/cmpseq.sql" 2>&1 |
			cmp_filter >"$tmp/cmpseq.floe"
		stop_server || fail clean_exit_db "exit" "$tmp/serve.err"
		if diff -u "$tmp/cmpexplain.pg" "$tmp/cmpexplain.floe" >"$tmp/cmpexplain.diff" && [ "$(grep -c '42501' "$tmp/cmpexplain.pg")" -ge 24 ]; then
			pass "explain_write_privileges_same_as_postgresql ($(grep -c 42501 "$tmp/cmpexplain.pg") refused, $(grep -c '^ok' "$tmp/cmpexplain.pg") allowed)"
		else
			fail explain_write_privileges_same_as_postgresql "differs from PostgreSQL 15" "$tmp/cmpexplain.diff"
		fi
		if diff -u "$tmp/cmpseq.pg" "$tmp/cmpseq.floe" >"$tmp/cmpseq.diff" && [ "$(grep -c 'permission denied for sequence' "$tmp/cmpseq.pg")" -ge 12 ]; then
			pass "sequence_privileges_same_as_postgresql ($(grep -c ERROR "$tmp/cmpseq.pg") errors, $(grep -c 'permission denied for sequence' "$tmp/cmpseq.pg") refused)"
		else
			fail sequence_privileges_same_as_postgresql "differs from PostgreSQL 15" "$tmp/cmpseq.diff"
		fi
		if diff -u "$tmp/cmpfn.pg" "$tmp/cmpfn.floe" >"$tmp/cmpfn.diff" && [ "$(grep -c '^ [tf ] *|\|^ [tf]$\|^ *$' "$tmp/cmpfn.pg")" -ge 20 ]; then
			pass "privilege_functions_same_as_postgresql ($(grep -c 'rows\?)$' "$tmp/cmpfn.pg") results, $(grep -c ERROR "$tmp/cmpfn.pg") errors)"
		else
			fail privilege_functions_same_as_postgresql "differs from PostgreSQL 15" "$tmp/cmpfn.diff"
		fi
		if diff -u "$tmp/cmpddl.pg" "$tmp/cmpddl.floe" >"$tmp/cmpddl.diff" && [ "$(grep -c 'must be owner of' "$tmp/cmpddl.pg")" -ge 20 ]; then
			pass "ddl_not_owner_same_as_postgresql ($(grep -c ERROR "$tmp/cmpddl.pg") errors, $(grep -c 'must be owner of' "$tmp/cmpddl.pg") not owner)"
		else
			fail ddl_not_owner_same_as_postgresql "differs from PostgreSQL 15" "$tmp/cmpddl.diff"
		fi
		if diff -u "$tmp/cmpmaint.pg" "$tmp/cmpmaint.floe" >"$tmp/cmpmaint.diff" && [ "$(grep -c 'only table or database owner' "$tmp/cmpmaint.pg")" -ge 10 ]; then
			pass "analyze_vacuum_not_owner_same_as_postgresql ($(grep -c WARNING "$tmp/cmpmaint.pg") warnings)"
		else
			fail analyze_vacuum_not_owner_same_as_postgresql "differs from PostgreSQL 15" "$tmp/cmpmaint.diff"
		fi
		if diff -u "$tmp/cmpdb.pg" "$tmp/cmpdb.floe" >"$tmp/cmpdb.diff" && grep -q 'User does not have CONNECT' "$tmp/cmpdb.pg"; then
			pass "database_privileges_same_as_postgresql ($(grep -c ERROR "$tmp/cmpdb.pg") errors, CONNECT at login)"
		else
			fail database_privileges_same_as_postgresql "differs from PostgreSQL 15" "$tmp/cmpdb.diff"
		fi
	else
		fail database_privileges_same_as_postgresql "floe serve did not start" "$tmp/serve.err"
	fi
else
	echo "SKIP acl: database_privileges_same_as_postgresql (PostgreSQL 15 did not start)"
fi

# a damaged roles file fails every login cleanly (F0000 naming the file
# and line), it is never read as "no roles"
mkdir -p "$tmp/wh3"
printf 'role:boss:SL\nrole:bad:XYZ\n' >"$tmp/wh3/roles"
if start_server -D "$tmp/wh3"; then
	expect damaged_roles_file boss x "psql: error: connection to server at \"127.0.0.1\", port $port failed: FATAL:  roles file \"$tmp/wh3/roles\" line 2: malformed" "SELECT 1"
	stop_server || fail clean_exit_3 "exit" "$tmp/serve.err"
else
	fail damaged_roles_file "floe serve did not start" "$tmp/serve.err"
fi

# ---- table folders: no symbolic link out (storage/fileio.h fileio_confine) ------
# A table's data folder swapped for a symbolic link to a folder outside
# (holding a copy of its files) while floe serve is down: reads and writes
# of the table through the link are 42501 (before: SELECT read the copy
# outside, INSERT wrote its new file there); put back, the table reads.
wh6=$tmp/wh6
mkdir -p "$wh6" "$outside/tsdata"
p6() { psql -X -At "host=127.0.0.1 port=$port user=postgres dbname=floe sslmode=disable" "$@" 2>&1; }
if start_server -D "$wh6"; then
	p6 -c "CREATE TABLE ts (a int)" -c "INSERT INTO ts SELECT 1" >/dev/null
	stop_server || fail clean_exit_6 "exit" "$tmp/serve.err"
	mv "$wh6/public/ts/data" "$wh6/public/ts/data.real"
	cp "$wh6/public/ts/data.real/"* "$outside/tsdata/"
	ln -s "$outside/tsdata" "$wh6/public/ts/data"
	nout=$(ls "$outside/tsdata" | wc -l)
	if start_server -D "$wh6"; then
		out=$(p6 -c "SELECT count(*) FROM ts")
		case $out in
		*"outside the warehouse and the allowed directories"*) pass "table_folder_link_read_refused" ;;
		*) fail table_folder_link_read_refused "got: $out" ;;
		esac
		out=$(p6 -c "INSERT INTO ts SELECT 2")
		if [[ $out == *"outside the warehouse and the allowed directories"* ]] && [ "$(ls "$outside/tsdata" | wc -l)" = "$nout" ]; then
			pass "table_folder_link_write_refused"
		else
			fail table_folder_link_write_refused "got: $out; outside: $(ls "$outside/tsdata")"
		fi
		stop_server || fail clean_exit_6b "exit" "$tmp/serve.err"
	fi
	rm -f "$wh6/public/ts/data"
	mv "$wh6/public/ts/data.real" "$wh6/public/ts/data"
	if start_server -D "$wh6"; then
		out=$(p6 -c "SELECT count(*) FROM ts" -c "CREATE TEMP TABLE tt (a int)" -c "INSERT INTO tt SELECT 5" -c "SELECT a FROM tt")
		if [ "$out" = $'1\nCREATE TABLE\nINSERT 0 1\n5' ]; then pass "table_folder_back_reads"; else fail table_folder_back_reads "got: $out"; fi
		# grant options are not recorded: refused by name, not accepted and ignored
		out=$(p6 -c "GRANT SELECT ON ts TO PUBLIC WITH GRANT OPTION" -c "REVOKE GRANT OPTION FOR SELECT ON ts FROM PUBLIC")
		if [ "$out" = $'ERROR:  GRANT ... WITH GRANT OPTION is not supported\nERROR:  REVOKE GRANT OPTION FOR is not supported' ]; then
			pass "grant_option_refused_by_name"
		else
			fail grant_option_refused_by_name "got: $out"
		fi
		stop_server || fail clean_exit_6c "exit" "$tmp/serve.err"
	fi
else
	fail table_folder_link "floe serve did not start" "$tmp/serve.err"
fi

# ---- the check-then-open race (storage/confined_open.h) -------------------------
# A folder of an allowed path swapped for a symbolic link to a folder
# outside between acl_check_file and the open: the debug build's
# FLOE_TEST_CONFINE_SWAP="DIR=TARGET" does the swap right after the check
# (sql/acl.c), so the open must refuse (42501) rather than follow the link;
# COPY FROM (openat2 and, with FLOE_TEST_CONFINE_NO_OPENAT2, the openat
# walk) and COPY TO (its folder).  An untouched path still opens.
race=$tmp/race
mkdir -p "$race/sub" "$outside/target" "$tmp/wh4"
race=$(cd "$race" && pwd -P)
printf '1,inside\n' >"$race/sub/f.csv"
printf '1,inside\n' >"$race/f2.csv"
printf '9,secret\n' >"$outside/target/f.csv"
"$FLOE_BIN" user add admin -D "$tmp/wh4" --password-file "$tmp/adminpw" 2>>"$tmp/user.err"
unswap() {
	if [ -L "$race/sub" ]; then rm -f "$race/sub" && mv "$race/sub.swapped" "$race/sub"; fi
}
for mode in openat2 walk; do
	if [ $mode = walk ]; then export FLOE_TEST_CONFINE_NO_OPENAT2=1; fi
	if FLOE_TEST_CONFINE_SWAP="$race/sub=$outside/target" start_server -D "$tmp/wh4" --allow-dir "$race"; then
		q admin 'Adm1n pw' "CREATE TABLE IF NOT EXISTS r (a int, b text)" >/dev/null
		expect "swap_copy_from_refused_$mode" admin 'Adm1n pw' "$(outside_msg "$race/sub/f.csv")" \
			"COPY r FROM '$race/sub/f.csv' (FORMAT csv)"
		if [ -L "$race/sub" ]; then pass "swap_happened_$mode"; else fail "swap_happened_$mode" "$(ls -l "$race")"; fi
		unswap
		expect "swap_copy_to_refused_$mode" admin 'Adm1n pw' "$(outside_msg "$race/sub/new.csv")" \
			"COPY r TO '$race/sub/new.csv'"
		unswap
		if [ ! -e "$outside/target/new.csv" ] && [ "$(cat "$outside/target/f.csv")" = "9,secret" ]; then
			pass "swap_outside_untouched_$mode"
		else
			fail "swap_outside_untouched_$mode" "$(ls "$outside/target")"
		fi
		# a path with no folder swapped (the hook still moves sub) opens
		expect "unswapped_copy_from_$mode" admin 'Adm1n pw' $'TRUNCATE TABLE\nCOPY 1\n1,inside' \
			"TRUNCATE r" "COPY r FROM '$race/f2.csv' (FORMAT csv)" "SELECT a || ',' || b FROM r"
		unswap
		stop_server || fail "clean_exit_swap_$mode" "exit" "$tmp/serve.err"
	else
		fail "swap_$mode" "floe serve did not start" "$tmp/serve.err"
	fi
	unset FLOE_TEST_CONFINE_NO_OPENAT2
done

# read_parquet, read_csv, read_json and COPY FROM (FORMAT parquet) read the
# file they checked through acl_read_file (sql/acl.c: opened confined, then
# scanned from those bytes): a folder swapped for a link outside right
# after acl_check_file (FLOE_TEST_CONFINE_SWAP_AT=check: a reader that opens
# by path follows it; before, they read the outside file) or between the
# open's own resolution and the open (the default: confined_open refuses)
# is 42501 either way.  Files beside the swapped folder still read.
cp "$pq" "$race/sub/a.parquet"
cp "$pq" "$race/a.parquet"
cp "$SHARED/testdata/parquet/data/alltypes_dictionary.parquet" "$outside/target/a.parquet"
printf '{"a": 1}\n' >"$race/sub/f.json"
printf '{"a": 9}\n' >"$outside/target/f.json"
for at in open check; do
	export FLOE_TEST_CONFINE_SWAP_AT=$at
	if FLOE_TEST_CONFINE_SWAP="$race/sub=$outside/target" start_server -D "$tmp/wh4" --allow-dir "$race"; then
		q admin 'Adm1n pw' "CREATE TABLE IF NOT EXISTS rp (id int)" >/dev/null
		expect "swap_read_parquet_refused_$at" admin 'Adm1n pw' "$(outside_msg "$race/sub/a.parquet")" \
			"SELECT count(*) FROM read_parquet('$race/sub/a.parquet')"
		if [ -L "$race/sub" ]; then pass "swap_happened_read_parquet_$at"; else fail "swap_happened_read_parquet_$at" "$(ls -l "$race")"; fi
		unswap
		expect "swap_read_csv_refused_$at" admin 'Adm1n pw' "$(outside_msg "$race/sub/f.csv")" \
			"SELECT * FROM read_csv('$race/sub/f.csv')"
		if [ -L "$race/sub" ]; then pass "swap_happened_read_csv_$at"; else fail "swap_happened_read_csv_$at" "$(ls -l "$race")"; fi
		unswap
		expect "swap_read_json_refused_$at" admin 'Adm1n pw' "$(outside_msg "$race/sub/f.json")" \
			"SELECT * FROM read_json('$race/sub/f.json')"
		unswap
		expect "swap_copy_from_parquet_refused_$at" admin 'Adm1n pw' "$(outside_msg "$race/sub/a.parquet")" \
			"COPY rp FROM '$race/sub/a.parquet' (FORMAT parquet)"
		unswap
		expect "unswapped_table_functions_$at" admin 'Adm1n pw' $'8\n1|inside\nTRUNCATE TABLE\nCOPY 8\n8' \
			"SELECT count(*) FROM read_parquet('$race/a.parquet')" \
			"SELECT * FROM read_csv('$race/f2.csv', header => false)" \
			"TRUNCATE rp" "COPY rp FROM '$race/a.parquet' (FORMAT parquet)" "SELECT count(*) FROM rp"
		unswap
		stop_server || fail "clean_exit_swap_read_$at" "exit" "$tmp/serve.err"
	else
		fail "swap_read_$at" "floe serve did not start" "$tmp/serve.err"
	fi
	unset FLOE_TEST_CONFINE_SWAP_AT
done

exit $((nfail > 0))
