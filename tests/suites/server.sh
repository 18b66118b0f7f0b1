#!/usr/bin/env bash
# Server suite: `floe serve` (src/server/) driven by real PostgreSQL clients.
#
#   - psql runs tests/clients/psql_compare.sql against floe serve and against
#     a throwaway PostgreSQL 15 (scripts/pg-test-server.sh); the outputs
#     (aligned, \x, errors with LINE/caret, NULL display) must be identical;
#     without a server, against tests/clients/expected/psql_compare.out
#   - tests/clients/pq_client.c (libpq): prepared statements with text and
#     binary parameters, binary results, single-row mode, errors with
#     SQLSTATEs and positions, CancelRequest (57014)
#   - tests/clients/psycopg_client.py (psycopg 3): parameters of every type
#     in text and binary, loaders, prepared statements, errors by SQLSTATE
#   - tests/clients/copy_client.py (psycopg 3 cursor.copy) and psql's \copy:
#     COPY FROM STDIN / TO STDOUT in text and CSV, output byte for byte equal
#     to PostgreSQL 15's, bad rows (line number, nothing committed), CopyFail
#   - tests/clients/JdbcClient.java (pgjdbc 42.5, prepareThreshold=1: named
#     statements, binary transfer): parameters and getters of common types,
#     batches, metadata, SQLSTATEs
#   - tests/clients/many_clients.py: 100 connections at once inserting into
#     and reading one table; every acknowledged row present exactly once
#   - tests/clients/wire.py: raw protocol (SSL/GSSENC 'N', PortalSuspended,
#     discard until Sync, Describe, Close, FATAL 08P01 on unknown types and
#     bad lengths, protocol negotiation) and 10,000 malformed packets, after
#     which a normal client must still work
#   - SCRAM-SHA-256 with --auth-file: a verifier made by PostgreSQL 15 and
#     one made by floe, right and wrong passwords, unknown users (psql and
#     psycopg 3, whose libpq checks the server's signature)
#   - connections that do not finish logging in are closed (--auth-timeout)
#   - refusal of non-loopback addresses without --auth-file; a clean exit on SIGTERM with no
#     sanitizer report in the server's stderr
#
# The server runs on a free port (--port 0) in a temporary warehouse, by PID,
# and is always stopped by the EXIT trap.
# Prints "PASS server: name" / "FAIL server: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
capture=0
[ "${1:-}" = "--capture" ] && capture=1

tmp=$(mktemp -d /tmp/floe-server.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-serverpg.XXXXXX)
srv_pid=
srv2_pid=
stop_server() {
	if [ -n "$srv2_pid" ] && kill -0 "$srv2_pid" 2>/dev/null; then
		kill -KILL "$srv2_pid" 2>/dev/null
	fi
	if [ -n "$srv_pid" ] && kill -0 "$srv_pid" 2>/dev/null; then
		kill -TERM "$srv_pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$srv_pid" 2>/dev/null || break; sleep 0.2; done
		kill -0 "$srv_pid" 2>/dev/null && kill -KILL "$srv_pid" 2>/dev/null
		wait "$srv_pid" 2>/dev/null
	fi
}
cleanup() {
	stop_server
	scripts/pg-test-server.sh stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS

nfail=0
pass() { echo "PASS server: $1"; }
fail() {
	echo "FAIL server: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then grep -v '^ok ' "$3" | head -30 | sed 's/^/    /'; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL server: binary $FLOE_BIN not built"
	exit 1
fi

# ---- start floe serve ---------------------------------------------------------
"$FLOE_BIN" serve -D "$tmp/wh" --port 0 --auth-timeout 2 >"$tmp/serve.out" 2>"$tmp/serve.err" &
srv_pid=$!
port=
for _ in $(seq 100); do
	port=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$tmp/serve.out" 2>/dev/null)
	[ -n "$port" ] && break
	kill -0 "$srv_pid" 2>/dev/null || break
	sleep 0.1
done
if [ -z "$port" ]; then
	fail start "floe serve did not start" "$tmp/serve.err"
	exit 1
fi
if grep -q "^connect with: psql -h 127.0.0.1 -p $port -U <user> floe$" "$tmp/serve.out"; then
	pass start_banner
else
	fail start_banner "$(cat "$tmp/serve.out")"
fi
conninfo="host=127.0.0.1 port=$port user=tester dbname=floe connect_timeout=10"

out=$(psql -X -At "$conninfo" -c 'SELECT 40 + 2' 2>&1)
if [ "$out" = "42" ]; then pass psql_connect; else fail psql_connect "$out"; fi

# ---- psql output compared with PostgreSQL 15 ---------------------------------
have_pg=0
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	pgport=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	psql -X -q "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" -c 'select 1' >/dev/null 2>&1 && have_pg=1
fi
exp=tests/clients/expected/psql_compare.out
(cd tests/clients && psql -X "$conninfo" -f psql_compare.sql) >"$tmp/floe_psql.out" 2>&1
if [ $have_pg -eq 1 ]; then
	(cd tests/clients && psql -X "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" \
		-f psql_compare.sql) >"$tmp/pg_psql.out" 2>&1
	if [ $capture -eq 1 ]; then
		mkdir -p tests/clients/expected
		cp "$tmp/pg_psql.out" "$exp"
	fi
	ref="$tmp/pg_psql.out"
	what="live PostgreSQL 15"
else
	ref=$exp
	what="captured PostgreSQL output ($exp)"
fi
if diff -u "$ref" "$tmp/floe_psql.out" >"$tmp/psql.diff"; then
	pass "psql_same_as_postgres ($what)"
else
	fail psql_same_as_postgres "output differs from $what" "$tmp/psql.diff"
fi

# ---- libpq --------------------------------------------------------------------
pqinc=$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
if cc -std=gnu11 -Wall -Wextra -Werror -O1 -g -fsanitize=address,undefined -I"$pqinc" \
	-o "$tmp/pq_client" tests/clients/pq_client.c -lpq >"$tmp/cc.out" 2>&1; then
	for t in params binary errors singlerow cancel; do
		if timeout 60 "$tmp/pq_client" "$conninfo" "$t" >"$tmp/pq_$t.out" 2>&1; then
			pass "libpq_$t ($(grep -c '^ok ' "$tmp/pq_$t.out") checks)"
		else
			fail "libpq_$t" "exit $?" "$tmp/pq_$t.out"
		fi
	done
else
	fail libpq_build "cc failed" "$tmp/cc.out"
fi

# ---- psycopg 3 (Debian python3-psycopg, for the system python) -----------------
pyexe=/usr/bin/python3
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	if timeout 120 "$pyexe" tests/clients/psycopg_client.py "$conninfo" >"$tmp/psycopg.out" 2>&1; then
		pass "psycopg3 ($(grep -c '^ok ' "$tmp/psycopg.out") checks)"
	else
		fail psycopg3 "exit $?" "$tmp/psycopg.out"
	fi
else
	fail psycopg3 "python3-psycopg is not installed (scripts/install-deps.sh --test)"
fi

# ---- COPY: psycopg 3 cursor.copy and psql \copy, compared with PostgreSQL 15 ----
pgconn=
[ $have_pg -eq 1 ] && pgconn="host=127.0.0.1 port=$pgport user=postgres dbname=postgres"
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	if timeout 120 "$pyexe" tests/clients/copy_client.py "$conninfo" ${pgconn:+"$pgconn"} >"$tmp/copy_py.out" 2>&1; then
		pass "psycopg3_copy ($(grep -c '^ok ' "$tmp/copy_py.out") checks$([ -n "$pgconn" ] && echo ', bytes equal to PostgreSQL 15'))"
	else
		fail psycopg3_copy "exit $?" "$tmp/copy_py.out"
	fi
fi
printf 'a,b,c\n1,hello,2024-01-02\n2,"comma, ""quoted""",\n3,,1999-12-31\n4,"two\nlines",2000-02-29\n' >"$tmp/copy_in.csv"
cat >"$tmp/copy_psql.sql" <<SQL
DROP TABLE IF EXISTS copy_psql;
CREATE TABLE copy_psql (a int NOT NULL, b text, c date);
\copy copy_psql FROM '$tmp/copy_in.csv' CSV HEADER
\copy (SELECT * FROM copy_psql ORDER BY a) TO '$tmp/copy_out.WHO.csv' CSV
\copy (SELECT a, b FROM copy_psql ORDER BY a) TO '$tmp/copy_out.WHO.txt'
\set ON_ERROR_STOP 0
COPY copy_psql FROM STDIN;
10	ok	2001-01-01
11	ok	not a date
\.
SELECT count(*) FROM copy_psql;
COPY copy_psql FROM '/nonexistent/floe-copy.csv';
DROP TABLE copy_psql;
SQL
sed 's/WHO/floe/' "$tmp/copy_psql.sql" >"$tmp/copy_psql_floe.sql"
psql -X "$conninfo" -f "$tmp/copy_psql_floe.sql" >"$tmp/copy_psql_floe.out" 2>&1
if [ $have_pg -eq 1 ]; then
	sed 's/WHO/pg/' "$tmp/copy_psql.sql" >"$tmp/copy_psql_pg.sql"
	psql -X "$pgconn" -f "$tmp/copy_psql_pg.sql" 2>&1 | sed -e 's/_pg\.sql/_floe.sql/' -e 's/^CONTEXT: /DETAIL: /' \
		-e '/^HINT:  COPY FROM instructs/d' \
		-e 's/^\(psql:.*: ERROR:  \)could not open file "\/nonexistent\/floe-copy.csv".*/\1COPY to or from a file or program is not supported yet; use COPY ... FROM STDIN (psql: \\copy)/' \
		>"$tmp/copy_psql_pg.out"
	if cmp -s "$tmp/copy_out.floe.csv" "$tmp/copy_out.pg.csv" && cmp -s "$tmp/copy_out.floe.txt" "$tmp/copy_out.pg.txt" &&
		diff -u "$tmp/copy_psql_pg.out" "$tmp/copy_psql_floe.out" >"$tmp/copy_psql.diff"; then
		pass "psql_copy (\\copy files and output equal to PostgreSQL 15's)"
	else
		diff "$tmp/copy_out.pg.csv" "$tmp/copy_out.floe.csv" >>"$tmp/copy_psql.diff" 2>&1
		fail psql_copy "differs from PostgreSQL 15" "$tmp/copy_psql.diff"
	fi
elif cmp -s "$tmp/copy_out.floe.csv" <(printf '1,hello,2024-01-02\n2,"comma, ""quoted""",\n3,,1999-12-31\n4,"two\nlines",2000-02-29\n') &&
	grep -q 'COPY copy_psql, line 2, column c: "not a date"' "$tmp/copy_psql_floe.out"; then
	pass "psql_copy"
else
	fail psql_copy "unexpected output" "$tmp/copy_psql_floe.out"
fi

# ---- JDBC (Debian libpostgresql-jdbc-java, Java 17 single-file launch) ----------
jar=/usr/share/java/postgresql.jar
if command -v java >/dev/null 2>&1 && [ -f "$jar" ]; then
	if timeout 180 java -cp "$jar" tests/clients/JdbcClient.java "jdbc:postgresql://127.0.0.1:$port/floe" tester \
		>"$tmp/jdbc.out" 2>&1; then
		pass "jdbc ($(grep -c '^ok ' "$tmp/jdbc.out") checks)"
	else
		fail jdbc "exit $?" "$tmp/jdbc.out"
	fi
else
	fail jdbc "java or $jar missing (scripts/install-deps.sh --test)"
fi

# ---- 100 concurrent connections inserting into and reading one table -------------
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	if timeout 300 "$pyexe" tests/clients/many_clients.py "$conninfo" 100 1 >"$tmp/many.out" 2>&1; then
		pass "$(sed -n 's/^ok //p' "$tmp/many.out" | cut -d: -f1) (every acknowledged row present once)"
	else
		fail concurrent_clients "exit $?" "$tmp/many.out"
	fi
fi

# ---- raw protocol and garbage ------------------------------------------------
if timeout 120 python3 tests/clients/wire.py 127.0.0.1 "$port" proto >"$tmp/wire.out" 2>&1; then
	pass "wire_protocol ($(grep -c '^ok ' "$tmp/wire.out") checks)"
else
	fail wire_protocol "exit $?" "$tmp/wire.out"
fi
if timeout 300 python3 tests/clients/wire.py 127.0.0.1 "$port" garbage 10000 >"$tmp/garbage.out" 2>&1; then
	pass "garbage_then_normal_client ($(sed -n 's/^# //p' "$tmp/garbage.out"))"
else
	fail garbage_then_normal_client "exit $?" "$tmp/garbage.out"
fi
out=$(psql -X -At "$conninfo" -c 'SELECT 1' 2>&1)
if [ "$out" = "1" ] && kill -0 "$srv_pid" 2>/dev/null; then pass alive_after_all; else fail alive_after_all "$out"; fi

# ---- SCRAM-SHA-256 (--auth-file) -------------------------------------------------
# alice's verifier is made by PostgreSQL itself (pg_authid) when a server is
# available, else by Python's hashlib; bob's by `floe serve --make-verifier`
if [ $have_pg -eq 1 ]; then
	va=$(psql -X -At "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" -c \
		"SET password_encryption = 'scram-sha-256'; CREATE ROLE srv_alice LOGIN PASSWORD 'Al1ce pw';
		 SELECT rolpassword FROM pg_authid WHERE rolname = 'srv_alice'" 2>&1 | tail -1)
else
	va=$(python3 -c "
import base64, hashlib, hmac, os
salt = os.urandom(16); sp = hashlib.pbkdf2_hmac('sha256', b'Al1ce pw', salt, 4096)
ck = hmac.new(sp, b'Client Key', 'sha256').digest(); sk = hmac.new(sp, b'Server Key', 'sha256').digest()
b = lambda x: base64.b64encode(x).decode()
print('SCRAM-SHA-256\$4096:%s\$%s:%s' % (b(salt), b(hashlib.sha256(ck).digest()), b(sk)))")
fi
vb=$(printf 'b0b secret\n' | "$FLOE_BIN" serve --make-verifier)
printf '# users\nalice:%s\nbob:%s\n' "$va" "$vb" >"$tmp/auth"
LSAN_OPTIONS="suppressions=$tmp/lsan.supp:print_suppressions=0" \
	"$FLOE_BIN" serve -D "$tmp/wh" --port 0 --auth-file "$tmp/auth" >"$tmp/serve2.out" 2>"$tmp/serve2.err" &
srv2_pid=$!
port2=
for _ in $(seq 100); do
	port2=$(sed -n 's/.*listening on 127\.0\.0\.1 port \([0-9][0-9]*\)$/\1/p' "$tmp/serve2.out" 2>/dev/null)
	[ -n "$port2" ] && break
	sleep 0.1
done
if [ -z "$port2" ]; then
	fail scram_start "floe serve --auth-file did not start" "$tmp/serve2.err"
else
	ci2="host=127.0.0.1 port=$port2 dbname=floe connect_timeout=10"
	out=$(PGPASSWORD='Al1ce pw' psql -X -At "$ci2 user=alice" -c "SELECT 'in'" 2>&1)
	if [ "$out" = "in" ]; then pass scram_login_postgres_verifier; else fail scram_login_postgres_verifier "$out"; fi
	out=$(PGPASSWORD='b0b secret' psql -X -At "$ci2 user=bob" -c "SELECT 'in'" 2>&1)
	if [ "$out" = "in" ]; then pass scram_login_floe_verifier; else fail scram_login_floe_verifier "$out"; fi
	out=$(PGPASSWORD='wrong' psql -X -At "$ci2 user=alice" -c "SELECT 1" 2>&1)
	if printf '%s' "$out" | grep -q 'FATAL:  password authentication failed for user "alice"'; then
		pass scram_wrong_password; else fail scram_wrong_password "$out"; fi
	out=$(PGPASSWORD='x' psql -X -At "$ci2 user=nobody" -c "SELECT 1" 2>&1)
	if printf '%s' "$out" | grep -q 'password authentication failed for user "nobody"'; then
		pass scram_unknown_user; else fail scram_unknown_user "$out"; fi
	out=$(psql -X -w -At "$ci2 user=alice" -c "SELECT 1" 2>&1)
	if printf '%s' "$out" | grep -q 'no password supplied'; then pass scram_requires_password; else fail scram_requires_password "$out"; fi
	if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
		out=$("$pyexe" - "$ci2" <<'PY' 2>&1
import sys, psycopg
from psycopg import errors
with psycopg.connect(sys.argv[1] + " user=bob password='b0b secret'", autocommit=True) as c:
    print(c.execute("SELECT %s::int + 1", (41,)).fetchone()[0])
try:
    psycopg.connect(sys.argv[1] + " user=bob password=nope")
    print("wrong password accepted")
except psycopg.OperationalError as e:
    print("refused" if "password authentication failed" in str(e) else str(e))
PY
)
		if [ "$out" = "42
refused" ]; then pass scram_psycopg3; else fail scram_psycopg3 "$out"; fi
	fi
	# rate limiting: wrong passwords from 127.0.0.1 until refused; then even
	# the right password is refused for the rest of the minute
	limited=0
	for _ in $(seq 8); do
		out=$(PGPASSWORD='wrong' psql -X -At "$ci2 user=bob" -c "SELECT 1" 2>&1)
		if printf '%s' "$out" | grep -q 'too many failed login attempts from 127.0.0.1'; then limited=1; break; fi
	done
	out=$(PGPASSWORD='b0b secret' psql -X -At "$ci2 user=bob" -c "SELECT 1" 2>&1)
	if [ $limited -eq 1 ] && printf '%s' "$out" | grep -q 'too many failed login attempts'; then
		pass scram_failed_logins_rate_limited
	else
		fail scram_failed_logins_rate_limited "limited=$limited out=$out"
	fi
	if printf '%s\n' "$va" "$vb" | grep -q -F -f - "$tmp/serve2.err" "$tmp/serve2.out"; then
		fail scram_no_secrets_logged "verifier in server output"
	else
		pass scram_no_secrets_logged
	fi
	kill -TERM "$srv2_pid"; wait "$srv2_pid"; rc=$?
	if [ $rc -eq 0 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/serve2.err"; then
		pass scram_server_clean_exit; else fail scram_server_clean_exit "exit $rc" "$tmp/serve2.err"; fi
fi
out=$("$FLOE_BIN" serve -D "$tmp/wh3" --auth-file /nonexistent/auth --port 0 2>&1); rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'could not open auth file'; then pass bad_auth_file; else fail bad_auth_file "rc=$rc $out"; fi

# ---- a client that never finishes logging in is dropped (--auth-timeout 2) -------
out=$(python3 - 127.0.0.1 "$port" <<'PY' 2>&1
import socket, struct, sys, time
t0 = time.time()
silent = socket.create_connection((sys.argv[1], int(sys.argv[2])))
partial = socket.create_connection((sys.argv[1], int(sys.argv[2])))
partial.sendall(struct.pack("!II", 40, 196608) + b"user\0")   # a startup packet cut short
res = []
for s in (silent, partial):
    s.settimeout(10)
    try:
        res.append("closed" if s.recv(1) == b"" else "data")
    except (socket.timeout, ConnectionResetError) as e:
        res.append(type(e).__name__)
print(" ".join(res), "fast" if time.time() - t0 < 8 else "slow")
PY
)
if [ "$out" = "closed closed fast" ]; then pass auth_timeout_drops_idle_logins; else fail auth_timeout_drops_idle_logins "$out"; fi

# ---- refusals -------------------------------------------------------------------
out=$("$FLOE_BIN" serve -D "$tmp/wh2" --host 0.0.0.0 --port 0 2>&1); rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'only on a loopback address'; then
	pass refuse_non_loopback
else
	fail refuse_non_loopback "rc=$rc out=$out"
fi
out=$("$FLOE_BIN" serve --port 70000 2>&1); rc=$?
if [ $rc -eq 2 ]; then pass bad_port; else fail bad_port "rc=$rc out=$out"; fi

# ---- clean shutdown -------------------------------------------------------------
kill -TERM "$srv_pid"
for _ in $(seq 100); do kill -0 "$srv_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$srv_pid" 2>/dev/null; then
	fail sigterm_exit "server still running 10 s after SIGTERM"
else
	wait "$srv_pid"; rc=$?
	srv_pid=
	if [ $rc -eq 0 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/serve.err"; then
		pass clean_exit_no_sanitizer_reports
	else
		fail clean_exit_no_sanitizer_reports "exit $rc" "$tmp/serve.err"
	fi
fi

[ $nfail -eq 0 ]
