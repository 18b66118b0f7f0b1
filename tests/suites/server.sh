#!/usr/bin/env bash
# Server suite: `floe serve` (src/server/) driven by real PostgreSQL clients.
#
#   - psql runs tests/clients/psql_compare.sql against floe serve and against
#     a throwaway PostgreSQL 15 (scripts/pg-test-server.sh); the outputs
#     (aligned, \x, errors with LINE/caret, NULL display) must be identical;
#     without a server, against tests/clients/expected/psql_compare.out
#   - tests/clients/pq_client.c (libpq): prepared statements, parameters of
#     every type in text and binary, binary results, single-row mode, errors
#     with SQLSTATEs and positions, CancelRequest (57014), COPY FROM STDIN /
#     TO STDOUT (bad row 22P02, CopyFail 57014, nothing committed); its
#     params/binary/copy expectations also run against PostgreSQL 15; SCRAM
#     login right and wrong (28P01) against the --auth-file server
#   - tests/clients/psycopg_client.py (psycopg 3): parameters of every type
#     in text and binary, loaders, prepared statements, errors by SQLSTATE,
#     conn.cancel() from another thread and statement_timeout (57014)
#   - tests/clients/copy_client.py (psycopg 3 cursor.copy) and psql's \copy:
#     COPY FROM STDIN / TO STDOUT in text and CSV, output byte for byte equal
#     to PostgreSQL 15's, bad rows (line number, nothing committed), CopyFail
#   - tests/clients/JdbcClient.java (pgjdbc 42.5, prepareThreshold=1: named
#     statements, binary transfer; and a text-only connection): parameters
#     and getters of every floe type, batches, metadata, SQLSTATEs,
#     CopyManager COPY in/out (text, CSV, bad row), Statement.cancel() and
#     setQueryTimeout (57014); logged in with SCRAM, wrong password; also
#     run against PostgreSQL 15, which proves its expectations
#   - tests/clients/many_clients.py: 100 connections at once inserting into
#     and reading one table; every acknowledged row present exactly once
#   - tests/clients/wire.py: raw protocol (SSL/GSSENC 'N', PortalSuspended,
#     discard until Sync, Describe, Close, FATAL 08P01 on unknown types and
#     bad lengths, protocol negotiation) and 10,000 malformed packets, after
#     which a normal client must still work
#   - SCRAM-SHA-256 with --auth-file: a verifier made by PostgreSQL 15 and
#     one made by floe, right and wrong passwords, unknown users (psql and
#     psycopg 3, whose libpq checks the server's signature)
#   - floe user add|remove|list (<warehouse>/users, mode 0600, verifiers
#     only); the methods scram-sha-256 (default with users; users added and
#     removed live), md5 (exchange computed by tests/clients/auth_client.py;
#     a PostgreSQL-made md5 secret; SCRAM fallback) and cleartext password;
#     passwords never in the server's output; non-loopback with users
#   - tests/clients/psycopg2_client.py (psycopg2) and tests/clients/node/
#     client.js (node-postgres, npm ci from its package-lock.json when
#     node_modules is missing) logged in with SCRAM-SHA-256: parameters of
#     every type, errors, COPY, cancel, wrong password; both also run
#     against PostgreSQL 15, which proves their expectations
#   - TLS with a self-signed certificate made by `openssl req`: psql
#     sslmode=verify-full, psycopg 3 sslmode=require, SCRAM-SHA-256-PLUS
#     (psql channel_binding=require; tests/clients/scram_bind.py: tampered
#     binding and "y" downgrade refused), 'N' without a
#     certificate, data after SSLRequest refused, bad certificate
#   - idle_session_timeout / idle_in_transaction_session_timeout
#     (tests/clients/idle_client.py, same output as PostgreSQL 15) and
#     --idle-timeout
#   - tests/clients/copy_stall.py: a COPY FROM STDIN client silent for 4 s
#     under statement_timeout 1s fails with 57014 and does not hold other
#     sessions (same output as PostgreSQL 15)
#   - --max-connections 2: a third login refused with 53300, a CancelRequest
#     still served
#   - connections that do not finish logging in are closed (--auth-timeout)
#   - tests/clients/preauth_flood.py: 700 connections that never log in
#     (silent, half a startup packet, SSLRequest then nothing, password
#     request unanswered) do not keep psql from logging in; nor do 150
#     silent sockets on a server out of file descriptors (ulimit -n 100),
#     nor a client that never reads its results
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
xpid=
stop_server() {
	if [ -n "$srv2_pid" ] && kill -0 "$srv2_pid" 2>/dev/null; then
		kill -KILL "$srv2_pid" 2>/dev/null
	fi
	if [ -n "$xpid" ] && kill -0 "$xpid" 2>/dev/null; then
		kill -KILL "$xpid" 2>/dev/null
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

# ---- the README's quick start: `floe serve` with no options, in an empty
# folder, makes ./floe-data and listens on 127.0.0.1:5433 (only when that
# port is free: a developer's own server may hold it)
if (exec 3<>/dev/tcp/127.0.0.1/5433) 2>/dev/null; then
	echo "server: default_port not run: 127.0.0.1:5433 is in use"
else
	mkdir -p "$tmp/dflt"
	(cd "$tmp/dflt" && exec "$FLOE_BIN" serve) >"$tmp/dflt.out" 2>"$tmp/dflt.err" &
	dflt_pid=$!
	for _ in $(seq 100); do
		grep -q 'listening on 127.0.0.1 port 5433$' "$tmp/dflt.out" 2>/dev/null && break
		kill -0 "$dflt_pid" 2>/dev/null || break
		sleep 0.1
	done
	out=$(psql -X -At "host=127.0.0.1 port=5433 user=me dbname=floe connect_timeout=10" \
		-c 'CREATE TABLE quick (a int)' -c 'INSERT INTO quick VALUES (7)' -c 'SELECT a * 6 FROM quick' 2>&1)
	kill "$dflt_pid" 2>/dev/null
	wait "$dflt_pid" 2>/dev/null
	if grep -q '^floe serve: warehouse floe-data, listening on 127.0.0.1 port 5433$' "$tmp/dflt.out" &&
	   grep -q '^connect with: psql -h 127.0.0.1 -p 5433 -U <user> floe$' "$tmp/dflt.out" &&
	   [ "$(printf '%s\n' "$out" | tail -1)" = "42" ] && [ -d "$tmp/dflt/floe-data" ]; then
		pass default_port
	else
		fail default_port "banner: $(tr '\n' '|' <"$tmp/dflt.out") psql: $out" "$tmp/dflt.err"
	fi
fi

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
	for t in params binary errors singlerow cancel copy; do
		if timeout 60 "$tmp/pq_client" "$conninfo" "$t" >"$tmp/pq_$t.out" 2>&1; then
			pass "libpq_$t ($(grep -c '^ok ' "$tmp/pq_$t.out") checks)"
		else
			fail "libpq_$t" "exit $?" "$tmp/pq_$t.out"
		fi
	done
	# the same expectations hold on PostgreSQL 15
	if [ $have_pg -eq 1 ]; then
		for t in params binary copy; do
			if timeout 60 "$tmp/pq_client" "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" "$t" \
				>"$tmp/pq_pg_$t.out" 2>&1; then
				pass "libpq_${t}_expectations_hold_on_postgres"
			else
				fail "libpq_${t}_expectations_hold_on_postgres" "exit $?" "$tmp/pq_pg_$t.out"
			fi
		done
	fi
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
	if [ $have_pg -eq 1 ]; then
		if timeout 120 "$pyexe" tests/clients/psycopg_client.py "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" \
			>"$tmp/psycopg_pg.out" 2>&1; then
			pass psycopg3_expectations_hold_on_postgres
		else
			fail psycopg3_expectations_hold_on_postgres "exit $?" "$tmp/psycopg_pg.out"
		fi
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
# ---- parameter type inference: ParameterDescription equal to PostgreSQL 15's ----
if [ -n "$pgconn" ] && "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	if timeout 60 "$pyexe" tests/clients/param_types.py "$conninfo" "$pgconn" >"$tmp/param_types.out" 2>&1; then
		pass "param_types ($(grep -c '^ok ' "$tmp/param_types.out") checks, equal to PostgreSQL 15)"
	else
		fail param_types "exit $?" "$tmp/param_types.out"
	fi
fi
# ---- arrays (psycopg 3): text and binary results as Python lists, list
# parameters in text and binary; answers and type OIDs equal to PostgreSQL 15's
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	if timeout 60 "$pyexe" tests/clients/array_client.py "$conninfo" ${pgconn:+"$pgconn"} >"$tmp/array.out" 2>&1; then
		pass "arrays_psycopg3 ($(grep -c '^ok ' "$tmp/array.out") checks$([ -n "$pgconn" ] && echo ', equal to PostgreSQL 15'))"
	else
		fail arrays_psycopg3 "exit $?" "$tmp/array.out"
	fi
fi
# ---- caches never show a stale table: prepared statements re-run after other
# sessions / another floe process commit, DROP/CREATE; transcript equal to PG 15's
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	if timeout 120 "$pyexe" tests/clients/cache_client.py "$conninfo" "$FLOE_BIN -D $tmp/wh -c" \
		>"$tmp/cache.out" 2>&1; then
		if [ -n "$pgconn" ]; then
			if timeout 120 "$pyexe" tests/clients/cache_client.py "$pgconn" pg >"$tmp/cache_pg.out" 2>&1 &&
				diff "$tmp/cache_pg.out" "$tmp/cache.out" >"$tmp/cache.diff"; then
				pass "cache_freshness ($(wc -l <"$tmp/cache.out") steps, equal to PostgreSQL 15)"
			else
				fail cache_freshness "differs from PostgreSQL 15" "$tmp/cache.diff"
			fi
		else
			pass "cache_freshness ($(wc -l <"$tmp/cache.out") steps)"
		fi
	else
		fail cache_freshness "exit $?" "$tmp/cache.out"
	fi
fi
# ---- startup-packet settings (options -c, DateStyle, extra_float_digits,
# search_path, statement_timeout ...) as SET, ParameterStatus as PostgreSQL 15's
if timeout 120 python3 tests/clients/startup_client.py 127.0.0.1 "$port" tester floe >"$tmp/startup.out" 2>&1; then
	if [ $have_pg -eq 1 ]; then
		if timeout 120 python3 tests/clients/startup_client.py 127.0.0.1 "$pgport" postgres postgres \
			>"$tmp/startup_pg.out" 2>&1 && diff "$tmp/startup_pg.out" "$tmp/startup.out" >"$tmp/startup.diff"; then
			pass "startup_settings ($(wc -l <"$tmp/startup.out") checks, equal to PostgreSQL 15)"
		else
			fail startup_settings "differs from PostgreSQL 15" "$tmp/startup.diff"
		fi
	else
		pass "startup_settings ($(wc -l <"$tmp/startup.out") checks)"
	fi
else
	fail startup_settings "exit $?" "$tmp/startup.out"
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
DROP TABLE copy_psql;
SQL
sed 's/WHO/floe/' "$tmp/copy_psql.sql" >"$tmp/copy_psql_floe.sql"
psql -X "$conninfo" -f "$tmp/copy_psql_floe.sql" >"$tmp/copy_psql_floe.out" 2>&1
if [ $have_pg -eq 1 ]; then
	sed 's/WHO/pg/' "$tmp/copy_psql.sql" >"$tmp/copy_psql_pg.sql"
	psql -X "$pgconn" -f "$tmp/copy_psql_pg.sql" 2>&1 | sed -e 's/_pg\.sql/_floe.sql/' >"$tmp/copy_psql_pg.out"
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

# A server-side COPY of a path outside the warehouse and --allow-dir folders
# is refused by floe's confinement (42501) even when the path does not exist
# (PostgreSQL, with no confinement, answers 58P01 there: not compared).
out=$(psql -X "$conninfo" -v VERBOSITY=verbose -c "CREATE TABLE copy_conf (a int)" \
	-c "COPY copy_conf FROM '/nonexistent/floe-copy.csv'" -c "DROP TABLE copy_conf" 2>&1)
if printf '%s\n' "$out" | grep -q 'ERROR:  42501: could not access file "/nonexistent/floe-copy.csv": outside the warehouse'; then
	pass "copy_outside_warehouse_refused (42501)"
else
	fail copy_outside_warehouse_refused "unexpected output: $out"
fi

# ---- 100 concurrent connections inserting into and reading one table -------------
# (a long connect timeout: under load, logins queue behind other sessions' commits
# on the engine mutex; what is checked is that no acknowledged row is lost)
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	if timeout 300 "$pyexe" tests/clients/many_clients.py "$conninfo connect_timeout=120" 100 1 >"$tmp/many.out" 2>&1; then
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
	# libpq: alice (PostgreSQL-made verifier) right, then wrong (28P01); one
	# failed login only, so the rate limit below is still reached as before
	if [ -x "$tmp/pq_client" ] && grep -q '^authentication: scram-sha-256' "$tmp/serve2.out"; then
		if timeout 60 "$tmp/pq_client" "$ci2 user=alice password='Al1ce pw'" scram "$ci2 user=alice password=wrong" \
			>"$tmp/pq_scram.out" 2>&1; then
			pass "libpq_scram ($(grep -c '^ok ' "$tmp/pq_scram.out") checks)"
		else
			fail libpq_scram "exit $?" "$tmp/pq_scram.out"
		fi
	else
		fail libpq_scram "no pq_client or the --auth-file server is not scram-sha-256" "$tmp/serve2.out"
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
printf '# ok\nbob:%s\ncarol:md5nothex\n' "$vb" >"$tmp/auth_bad"
out=$("$FLOE_BIN" serve -D "$tmp/wh3" --auth-file "$tmp/auth_bad" --port 0 2>&1); rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "auth file \"$tmp/auth_bad\" line 3: expected"; then
	pass bad_auth_file_line; else fail bad_auth_file_line "rc=$rc $out"; fi

# ---- users in the warehouse (floe user add|remove|list) and auth methods --------
# x_start ARGS...: start another floe serve (xpid, xport, $tmp/x.out, $tmp/x.err)
x_start() {
	: >"$tmp/x.out"   # not the previous server's port (the child truncates it late)
	"$FLOE_BIN" serve --port 0 "$@" >"$tmp/x.out" 2>>"$tmp/x.err" &
	xpid=$!
	xport=
	for _ in $(seq 100); do
		xport=$(sed -n 's/.*listening on [0-9.:]* port \([0-9][0-9]*\)$/\1/p' "$tmp/x.out" 2>/dev/null)
		[ -n "$xport" ] && break
		kill -0 "$xpid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$xport" ]
}
x_stop() {
	kill -TERM "$xpid" 2>/dev/null
	wait "$xpid"
	local rc=$?
	xpid=
	[ $rc -eq 0 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/x.err"
}
xci() { echo "host=127.0.0.1 port=$xport dbname=floe connect_timeout=10 sslmode=disable user=$1"; }
uw=$tmp/uw
printf 'Al1ce pw\n' | "$FLOE_BIN" user add alice -D "$uw" 2>"$tmp/user.err"; rc1=$?
printf 'b0b secret\n' >"$tmp/bobpw"
"$FLOE_BIN" user add bob -D "$uw" --password-file "$tmp/bobpw" --md5 2>>"$tmp/user.err"; rc2=$?
printf 'd4ve\n' | "$FLOE_BIN" user add dave -D "$uw" 2>>"$tmp/user.err"
"$FLOE_BIN" user remove dave -D "$uw"; rc3=$?
"$FLOE_BIN" user remove dave -D "$uw" 2>"$tmp/user2.err"; rc4=$?
list=$("$FLOE_BIN" user list -D "$uw")
if [ $rc1$rc2$rc3$rc4 = 0001 ] && [ "$list" = "$(printf 'alice\tscram-sha-256\nbob\tscram-sha-256,md5')" ] &&
	grep -q 'user "dave" does not exist' "$tmp/user2.err" &&
	[ "$(stat -c %a "$uw/users")" = 600 ] && ! grep -q 'Al1ce pw\|b0b secret' "$uw/users" &&
	grep -q '^alice:SCRAM-SHA-256\$4096:' "$uw/users"; then
	pass "floe_user_add_remove_list (mode 0600, verifiers only)"
else
	fail floe_user_add_remove_list "rc=$rc1$rc2$rc3$rc4 list=$list mode=$(stat -c %a "$uw/users" 2>&1)" "$tmp/user.err"
fi
out=$(printf '\n' | "$FLOE_BIN" user add eve -D "$uw" 2>&1); rc=$?
out2=$(printf 'x\n' | "$FLOE_BIN" user add 'a:b' -D "$uw" 2>&1); rc2=$?
if [ $rc -eq 2 ] && [ $rc2 -eq 2 ] && printf '%s' "$out" | grep -q 'empty passwords' &&
	printf '%s' "$out2" | grep -q 'invalid user name'; then
	pass floe_user_refuses_empty_password_and_bad_name
else
	fail floe_user_refuses_empty_password_and_bad_name "$out / $out2"
fi

# the warehouse has users: SCRAM-SHA-256 by default; users added or removed
# while the server runs take effect at the next login
if x_start -D "$uw"; then
	ok=1; why=
	grep -q '^authentication: scram-sha-256, TLS off$' "$tmp/x.out" || { ok=0; why="banner $(cat "$tmp/x.out")"; }
	out=$(python3 tests/clients/auth_client.py 127.0.0.1 "$xport" alice)
	[ "$out" = "sasl SCRAM-SHA-256" ] || { ok=0; why="$why; auth request: $out"; }
	out=$(PGPASSWORD='Al1ce pw' psql -X -At "$(xci alice)" -c "SELECT 'in'" 2>&1)
	[ "$out" = in ] || { ok=0; why="$why; alice: $out"; }
	out=$(PGPASSWORD='b0b secretX' psql -X -At "$(xci bob)" -c "SELECT 1" 2>&1)
	printf '%s' "$out" | grep -q 'password authentication failed for user "bob"' || { ok=0; why="$why; bob wrong: $out"; }
	printf 'd4ve 2\n' | "$FLOE_BIN" user add dave -D "$uw"
	out=$(PGPASSWORD='d4ve 2' psql -X -At "$(xci dave)" -c "SELECT 'dave in'" 2>&1)
	[ "$out" = "dave in" ] || { ok=0; why="$why; dave added live: $out"; }
	"$FLOE_BIN" user remove dave -D "$uw"
	out=$(PGPASSWORD='d4ve 2' psql -X -At "$(xci dave)" -c "SELECT 1" 2>&1)
	printf '%s' "$out" | grep -q 'password authentication failed for user "dave"' || { ok=0; why="$why; dave removed: $out"; }
	if [ $ok -eq 1 ]; then pass "warehouse_users_scram (default with users; live add/remove)"; else fail warehouse_users_scram "$why"; fi
	x_stop || fail warehouse_users_clean_exit "exit" "$tmp/x.err"
else
	fail warehouse_users_scram "floe serve -D $uw did not start" "$tmp/x.err"
fi

# md5: a user with an md5 secret gets AuthenticationMD5Password, one with
# only a SCRAM verifier gets SCRAM (PostgreSQL's fallback)
if x_start -D "$uw" --auth md5; then
	ok=1; why=
	out=$(python3 tests/clients/auth_client.py 127.0.0.1 "$xport" bob 'b0b secret' | tr '\n' ' ')
	[ "$out" = "md5 ok " ] || { ok=0; why="bob by hand: $out"; }
	out=$(python3 tests/clients/auth_client.py 127.0.0.1 "$xport" bob 'wrong' | tr '\n' ' ')
	[ "$out" = "md5 error 28P01 " ] || { ok=0; why="$why; bob wrong by hand: $out"; }
	out=$(python3 tests/clients/auth_client.py 127.0.0.1 "$xport" alice)
	[ "$out" = "sasl SCRAM-SHA-256" ] || { ok=0; why="$why; alice: $out"; }
	out=$(PGPASSWORD='b0b secret' psql -X -At "$(xci bob)" -c "SELECT 'md5 in'" 2>&1)
	[ "$out" = "md5 in" ] || { ok=0; why="$why; psql bob: $out"; }
	out=$(PGPASSWORD='Al1ce pw' psql -X -At "$(xci alice)" -c "SELECT 'scram in'" 2>&1)
	[ "$out" = "scram in" ] || { ok=0; why="$why; psql alice: $out"; }
	if [ $ok -eq 1 ]; then pass "auth_md5 (md5 exchange computed by the test; SCRAM fallback)"; else fail auth_md5 "$why"; fi
	x_stop || fail auth_md5_clean_exit "exit" "$tmp/x.err"
else
	fail auth_md5 "floe serve --auth md5 did not start" "$tmp/x.err"
fi
# an md5 secret made by PostgreSQL 15 itself (pg_authid), in an auth file
if [ $have_pg -eq 1 ]; then
	vc=$(psql -X -At "$pgconn" -c "SET password_encryption = 'md5'; CREATE ROLE srv_carol LOGIN PASSWORD 'C4rol pw';
		 SELECT rolpassword FROM pg_authid WHERE rolname = 'srv_carol'" 2>&1 | tail -1)
else
	vc=md5$(printf '%s' 'C4rol pwsrv_carol' | md5sum | cut -d' ' -f1)
fi
printf 'srv_carol:%s\n' "$vc" >"$tmp/auth_md5"
if x_start -D "$uw" --auth-file "$tmp/auth_md5" --auth md5; then
	out=$(PGPASSWORD='C4rol pw' psql -X -At "$(xci srv_carol)" -c "SELECT 'carol in'" 2>&1)
	if [ "$out" = "carol in" ]; then pass "auth_md5_postgres_secret$([ $have_pg -eq 1 ] && echo ' (made by PostgreSQL 15)')"
	else fail auth_md5_postgres_secret "$out"; fi
	x_stop
else
	fail auth_md5_postgres_secret "did not start" "$tmp/x.err"
fi

# password: cleartext, checked against the SCRAM verifier or the md5 secret
if x_start -D "$uw" --auth password; then
	ok=1; why=
	out=$(python3 tests/clients/auth_client.py 127.0.0.1 "$xport" alice 'Al1ce pw' | tr '\n' ' ')
	[ "$out" = "cleartext ok " ] || { ok=0; why="alice by hand: $out"; }
	out=$(python3 tests/clients/auth_client.py 127.0.0.1 "$xport" alice 'Al1ce' | tr '\n' ' ')
	[ "$out" = "cleartext error 28P01 " ] || { ok=0; why="$why; alice wrong: $out"; }
	out=$(python3 tests/clients/auth_client.py 127.0.0.1 "$xport" nobody 'x' | tr '\n' ' ')
	[ "$out" = "cleartext error 28P01 " ] || { ok=0; why="$why; unknown user: $out"; }
	out=$(PGPASSWORD='b0b secret' psql -X -At "$(xci bob)" -c "SELECT 'pw in'" 2>&1)
	[ "$out" = "pw in" ] || { ok=0; why="$why; psql bob: $out"; }
	if [ $ok -eq 1 ]; then pass auth_cleartext_password; else fail auth_cleartext_password "$why"; fi
	x_stop || fail auth_password_clean_exit "exit" "$tmp/x.err"
else
	fail auth_cleartext_password "floe serve --auth password did not start" "$tmp/x.err"
fi
if grep -q 'Al1ce\|b0b secret\|d4ve\|C4rol' "$tmp/x.err" "$tmp/x.out"; then
	fail passwords_never_logged "a password is in the server's output"
elif grep -q 'password authentication failed for user "alice" from 127.0.0.1' "$tmp/x.err"; then
	pass "passwords_never_logged (failed logins logged without them)"
else
	fail passwords_never_logged "failed logins not logged" "$tmp/x.err"
fi

# listening beyond loopback: allowed with users (password auth), never with trust
if x_start -D "$uw" --host 0.0.0.0; then
	pass "non_loopback_with_users ($(sed -n 's/^authentication: //p' "$tmp/x.out"))"
	x_stop
else
	fail non_loopback_with_users "did not start" "$tmp/x.err"
fi
out=$("$FLOE_BIN" serve -D "$uw" --host 0.0.0.0 --auth trust --port 0 2>&1); rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'only on a loopback address'; then
	pass refuse_non_loopback_trust_even_with_users
else
	fail refuse_non_loopback_trust_even_with_users "rc=$rc $out"
fi

# ---- psycopg2, JDBC, libpq and node-postgres, logged in with SCRAM-SHA-256 ----------
# (a self-signed certificate for this server and the TLS section below;
# psycopg2 runs over TLS: COPY and cancel through OpenSSL too)
have_cert=0
tls_args=()
if command -v openssl >/dev/null 2>&1 &&
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 \
		-subj "/CN=localhost" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" >"$tmp/openssl.out" 2>&1; then
	have_cert=1
	tls_args=(--tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem")
fi
# psycopg2 and node-postgres also run against PostgreSQL 15, which proves
# their expectations
if x_start -D "$uw" "${tls_args[@]}"; then
	if "$pyexe" -c 'import psycopg2' >/dev/null 2>&1; then
		p2ci="$(xci alice) password='Al1ce pw'"
		[ $have_cert -eq 1 ] && p2ci="$p2ci sslmode=require"
		if timeout 120 "$pyexe" tests/clients/psycopg2_client.py "$p2ci" 'Al1ce pw' \
			>"$tmp/psycopg2.out" 2>&1; then
			pass "psycopg2 ($(grep -c '^ok ' "$tmp/psycopg2.out") checks, SCRAM login$([ $have_cert -eq 1 ] && echo ', over TLS'))"
		else
			fail psycopg2 "exit $?" "$tmp/psycopg2.out"
		fi
		if [ $have_pg -eq 1 ]; then
			if timeout 120 "$pyexe" tests/clients/psycopg2_client.py "$pgconn" >"$tmp/psycopg2_pg.out" 2>&1; then
				pass "psycopg2_expectations_hold_on_postgres"
			else
				fail psycopg2_expectations_hold_on_postgres "exit $?" "$tmp/psycopg2_pg.out"
			fi
		fi
	else
		fail psycopg2 "python3-psycopg2 is not installed (scripts/install-deps.sh --test)"
	fi
	# JDBC (Debian libpostgresql-jdbc-java, Java 17 single-file launch)
	jar=/usr/share/java/postgresql.jar
	if command -v java >/dev/null 2>&1 && [ -f "$jar" ]; then
		if timeout 180 java -cp "$jar" tests/clients/JdbcClient.java "jdbc:postgresql://127.0.0.1:$xport/floe" alice \
			'Al1ce pw' --password-check >"$tmp/jdbc.out" 2>&1; then
			pass "jdbc ($(grep -c '^ok ' "$tmp/jdbc.out") checks, SCRAM login)"
		else
			fail jdbc "exit $?" "$tmp/jdbc.out"
		fi
		if [ $have_pg -eq 1 ]; then
			if timeout 180 java -cp "$jar" tests/clients/JdbcClient.java \
				"jdbc:postgresql://127.0.0.1:$pgport/postgres" postgres >"$tmp/jdbc_pg.out" 2>&1; then
				pass "jdbc_expectations_hold_on_postgres"
			else
				fail jdbc_expectations_hold_on_postgres "exit $?" "$tmp/jdbc_pg.out"
			fi
		fi
	else
		fail jdbc "java or $jar missing (scripts/install-deps.sh --test)"
	fi
	if [ -x "$tmp/pq_client" ]; then
		if timeout 60 "$tmp/pq_client" "$(xci alice) password='Al1ce pw'" password >"$tmp/pq_password.out" 2>&1; then
			pass "libpq_password ($(grep -c '^ok ' "$tmp/pq_password.out") checks, SCRAM login)"
		else
			fail libpq_password "exit $?" "$tmp/pq_password.out"
		fi
	fi
	nodedir=tests/clients/node
	if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
		if [ ! -d "$nodedir/node_modules/pg" ] || [ ! -d "$nodedir/node_modules/pg-copy-streams" ]; then
			(cd "$nodedir" && timeout 300 npm ci --no-audit --no-fund) >"$tmp/npm.out" 2>&1
		fi
		if [ -d "$nodedir/node_modules/pg-copy-streams" ]; then
			if (cd "$nodedir" && timeout 120 node client.js 127.0.0.1 "$xport" alice floe 'Al1ce pw' --password-check) \
				>"$tmp/node.out" 2>&1; then
				pass "node_postgres ($(grep -c '^ok ' "$tmp/node.out") checks, SCRAM login)"
			else
				fail node_postgres "exit $?" "$tmp/node.out"
			fi
			if [ $have_pg -eq 1 ]; then
				if (cd "$nodedir" && timeout 120 node client.js 127.0.0.1 "$pgport" postgres postgres) >"$tmp/node_pg.out" 2>&1; then
					pass "node_postgres_expectations_hold_on_postgres"
				else
					fail node_postgres_expectations_hold_on_postgres "exit $?" "$tmp/node_pg.out"
				fi
			fi
		else
			fail node_postgres "npm ci in $nodedir failed (registry unreachable?)" "$tmp/npm.out"
		fi
	else
		fail node_postgres "node/npm missing (Debian nodejs npm; scripts/install-deps.sh --test)"
	fi
	x_stop || fail clients_server_clean_exit "exit" "$tmp/x.err"
else
	fail psycopg2_node "floe serve -D $uw did not start" "$tmp/x.err"
fi

# ---- TLS (--tls-cert/--tls-key): SSLRequest answered 'S', then OpenSSL ---------
if [ $have_cert -eq 1 ]; then
	if x_start -D "$uw" --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" --auth-timeout 2; then
		ok=1; why=
		grep -q '^authentication: scram-sha-256, TLS on$' "$tmp/x.out" || { ok=0; why="banner"; }
		tci="host=127.0.0.1 port=$xport dbname=floe connect_timeout=10 user=alice"
		out=$(PGPASSWORD='Al1ce pw' psql -X -At "$tci sslmode=verify-full sslrootcert=$tmp/cert.pem" \
			-c '\conninfo' -c "SELECT 'tls in'" 2>&1)
		printf '%s' "$out" | grep -q '^SSL connection (protocol: TLSv1\.[23]' &&
			printf '%s' "$out" | grep -q '^tls in$' || { ok=0; why="$why; psql verify-full: $out"; }
		# SCRAM-SHA-256-PLUS: libpq checks the binding to the certificate
		out=$(PGPASSWORD='Al1ce pw' psql -X -At "$tci sslmode=require channel_binding=require" -c "SELECT 'bound'" 2>&1)
		[ "$out" = "bound" ] || { ok=0; why="$why; channel_binding=require: $out"; }
		out=$(PGPASSWORD='Al1ce pw' psql -X -At "$tci sslmode=require channel_binding=disable" -c "SELECT 'unbound'" 2>&1)
		[ "$out" = "unbound" ] || { ok=0; why="$why; channel_binding=disable: $out"; }
		# the same by hand: right binding, another certificate's, a "y" downgrade
		out=$(for m in good tampered downgrade; do
			python3 tests/clients/scram_bind.py 127.0.0.1 "$xport" alice 'Al1ce pw' $m 2>&1 | tail -1; done | tr '\n' ' ')
		[ "$out" = "ok error 08P01 error 08P01 " ] || { ok=0; why="$why; scram_bind.py: $out"; }
		out=$(PGPASSWORD='Al1ce pw' psql -X -At "$tci sslmode=disable" -c "SELECT 'clear in'" 2>&1)
		[ "$out" = "clear in" ] || { ok=0; why="$why; sslmode=disable: $out"; }
		if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
			out=$("$pyexe" -c "
import sys, psycopg
with psycopg.connect(sys.argv[1] + \" password='Al1ce pw' sslmode=require\", autocommit=True) as c:
    print(c.pgconn.ssl_in_use, c.execute('SELECT %s::int * 2', (21,)).fetchone()[0])" "$tci" 2>&1)
			[ "$out" = "True 42" ] || { ok=0; why="$why; psycopg3: $out"; }
		fi
		# bytes sent after an SSLRequest, before the handshake: refused (CVE-2021-23214)
		out=$(python3 - 127.0.0.1 "$xport" <<'PY' 2>&1
import socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10)
s.sendall(struct.pack("!II", 8, 80877103) + b"Q\0\0\0\x0dSELECT 1\0")
d = b""
while True:
    x = s.recv(4096)
    if not x:
        break
    d += x
print("08P01" if d[:1] == b"E" and b"C08P01\0" in d and b"unencrypted data" in d else repr(d[:80]))
PY
)
		[ "$out" = 08P01 ] || { ok=0; why="$why; data after SSLRequest: $out"; }
		if [ $ok -eq 1 ]; then pass "tls (psql verify-full, psycopg3 sslmode=require, SCRAM-SHA-256-PLUS channel binding)"; else fail tls "$why"; fi
		# garbage instead of a TLS handshake, handshakes cut short, a client
		# that stops after 'S' (closed by --auth-timeout 2), then a TLS login
		out=$(python3 - 127.0.0.1 "$xport" <<'PY' 2>&1
import os, random, socket, ssl, struct, sys, time
host, port = sys.argv[1], int(sys.argv[2])
rnd = random.Random(3)
sent = 0
for i in range(300):
    s = socket.create_connection((host, port), timeout=10)
    s.sendall(struct.pack("!II", 8, 80877103))
    if s.recv(1) != b"S":
        print("no S"); sys.exit(1)
    kind = i % 3
    if kind == 0:      # random bytes
        s.sendall(rnd.randbytes(rnd.randint(1, 2000)))
    elif kind == 1:    # a TLS record header announcing more than is sent
        s.sendall(b"\x16\x03\x01" + struct.pack("!H", rnd.randint(1, 16384)) + rnd.randbytes(rnd.randint(0, 50)))
    else:              # a real ClientHello cut off by closing
        ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
        inb, outb = ssl.MemoryBIO(), ssl.MemoryBIO()
        obj = ctx.wrap_bio(inb, outb)
        try:
            obj.do_handshake()
        except ssl.SSLWantReadError:
            pass
        hello = outb.read()
        s.sendall(hello[: rnd.randint(1, len(hello))])
    sent += 1
    s.close()
t0 = time.time()
idle = socket.create_connection((host, port), timeout=10)
idle.sendall(struct.pack("!II", 8, 80877103))
idle.recv(1)
try:
    closed = idle.recv(1) == b""
except (ConnectionResetError, socket.timeout):
    closed = True
print("sent %d, idle handshake %s" % (sent, "closed" if closed and time.time() - t0 < 8 else "kept"))
PY
)
		out2=$(PGPASSWORD='Al1ce pw' psql -X -At "$tci sslmode=require" -c "SELECT 'still in'" 2>&1)
		if [ "$out" = "sent 300, idle handshake closed" ] && [ "$out2" = "still in" ] && kill -0 "$xpid" 2>/dev/null; then
			pass "tls_garbage_handshakes (300, then a TLS login works)"
		else
			fail tls_garbage_handshakes "$out / $out2"
		fi
		x_stop || fail tls_clean_exit "exit" "$tmp/x.err"
	else
		fail tls "floe serve with TLS did not start" "$tmp/x.err"
	fi
	out=$(psql -X -At "$conninfo sslmode=require" -c 'SELECT 1' 2>&1)
	if printf '%s' "$out" | grep -q 'server does not support SSL'; then pass tls_off_answers_N; else fail tls_off_answers_N "$out"; fi
	if x_start -D "$uw" --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key.pem" --tls-required; then
		tci="host=127.0.0.1 port=$xport dbname=floe connect_timeout=10 user=alice"
		out=$(PGPASSWORD='Al1ce pw' psql -X -At "$tci sslmode=disable" -c "SELECT 1" 2>&1)
		out2=$(PGPASSWORD='Al1ce pw' psql -X -At "$tci sslmode=require" -c "SELECT 'tls only'" 2>&1)
		if grep -q '^authentication: scram-sha-256, TLS required$' "$tmp/x.out" &&
			printf '%s' "$out" | grep -q 'FATAL:  connection without TLS refused' && [ "$out2" = "tls only" ]; then
			pass tls_required
		else
			fail tls_required "$out / $out2"
		fi
		x_stop
	else
		fail tls_required "did not start" "$tmp/x.err"
	fi
	out=$("$FLOE_BIN" serve -D "$uw" --port 0 --tls-cert "$tmp/nonexistent.pem" --tls-key "$tmp/key.pem" 2>&1); rc=$?
	if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'could not load TLS certificate'; then pass tls_bad_certificate
	else fail tls_bad_certificate "rc=$rc $out"; fi
	cp -p "$tmp/key.pem" "$tmp/key644.pem"; chmod 644 "$tmp/key644.pem"
	out=$("$FLOE_BIN" serve -D "$uw" --port 0 --tls-cert "$tmp/cert.pem" --tls-key "$tmp/key644.pem" 2>&1); rc=$?
	if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q 'has group or world access'; then pass tls_key_readable_by_others_refused
	else fail tls_key_readable_by_others_refused "rc=$rc $out"; fi
else
	fail tls "openssl CLI missing or failed (scripts/install-deps.sh --test)" "$tmp/openssl.out"
fi

# ---- idle sessions: idle_session_timeout, idle_in_transaction_session_timeout -----
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	out=$(timeout 60 "$pyexe" tests/clients/idle_client.py "$conninfo" 2>&1)
	ref="closed:msg closed:msg busy-alive"
	[ $have_pg -eq 1 ] && ref=$(timeout 60 "$pyexe" tests/clients/idle_client.py "$pgconn" 2>&1)
	if [ "$out" = "closed:msg closed:msg busy-alive" ] && [ "$out" = "$ref" ]; then
		pass "idle_session_timeouts$([ $have_pg -eq 1 ] && echo ' (as PostgreSQL 15)')"
	else
		fail idle_session_timeouts "floe: $out; PostgreSQL: $ref"
	fi
	if x_start -D "$tmp/wi" --idle-timeout 1; then
		out=$(timeout 60 "$pyexe" tests/clients/idle_client.py "$(xci someone)" --server 2>&1)
		if [ "$out" = "closed:msg alive" ]; then pass "idle_timeout_server_default (--idle-timeout 1)"
		else fail idle_timeout_server_default "$out"; fi
		x_stop || fail idle_timeout_clean_exit "exit" "$tmp/x.err"
	else
		fail idle_timeout_server_default "did not start" "$tmp/x.err"
	fi
fi

# ---- a COPY FROM STDIN whose client goes silent: statement_timeout stops it --------
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	out=$(timeout 60 "$pyexe" tests/clients/copy_stall.py "$conninfo" 2>&1)
	ref="copy_canceled:statement timeout rows:0 other:fast after:ok"
	[ $have_pg -eq 1 ] && ref=$(timeout 60 "$pyexe" tests/clients/copy_stall.py "$pgconn" 2>&1)
	if [ "$out" = "copy_canceled:statement timeout rows:0 other:fast after:ok" ] && [ "$out" = "$ref" ]; then
		pass "copy_stalled_client_timeout$([ $have_pg -eq 1 ] && echo ' (as PostgreSQL 15)')"
	else
		fail copy_stalled_client_timeout "floe: $out; PostgreSQL: $ref"
	fi
fi

# ---- max connections: a third login refused (53300), cancel still gets through ----
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1 && x_start -D "$tmp/wi" --max-connections 2; then
	out=$(timeout 60 "$pyexe" - "$(xci someone)" <<'PY' 2>&1
import sys, threading, time, psycopg
ci = sys.argv[1]
c1 = psycopg.connect(ci, autocommit=True)
c2 = psycopg.connect(ci, autocommit=True)
res = []
try:
    psycopg.connect(ci)
    res.append("third accepted")
except psycopg.OperationalError as e:
    res.append("refused" if "too many clients" in str(e) else str(e))
threading.Timer(0.5, c1.cancel).start()
try:
    c1.execute("SELECT count(*) FROM generate_series(1, 2000000000)")
    res.append("not cancelled")
except psycopg.errors.QueryCanceled:
    res.append("cancelled")
c2.close()
time.sleep(0.3)
c3 = psycopg.connect(ci)
res.append("then %d" % c3.execute("SELECT 3").fetchone()[0])
print(" ".join(res))
PY
)
	if [ "$out" = "refused cancelled then 3" ]; then pass "max_connections (53300; CancelRequest still served)"
	else fail max_connections "$out"; fi
	x_stop || fail max_connections_clean_exit "exit" "$tmp/x.err"
fi

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

# ---- 700 connections that never log in do not lock a login out ---------------
# (tests/clients/preauth_flood.py: silent, half a startup packet, SSLRequest
# then nothing, a password request never answered; a 2 GB length word), then
# a client that never reads its results: psql still logs in each time
if x_start -D "$uw"; then
	out=$(PGPASSWORD='Al1ce pw' timeout 120 python3 tests/clients/preauth_flood.py 127.0.0.1 "$xport" alice 2>&1)
	if [ "$out" = "login:ok huge:08P01" ]; then pass "preauth_flood_login (700 sockets not logged in)"
	else fail preauth_flood_login "$out"; fi
	x_stop || fail preauth_flood_clean_exit "exit" "$tmp/x.err"
fi
# out of file descriptors (ulimit -n 100, 150 silent sockets): accept(2)
# fails with EMFILE; the oldest silent socket is closed for the login
xpid=
: >"$tmp/x.out"
(ulimit -n 100 && exec "$FLOE_BIN" serve --port 0 -D "$tmp/wfd" >"$tmp/x.out" 2>>"$tmp/x.err") &
xpid=$!
xport=
for _ in $(seq 100); do
	xport=$(sed -n 's/.*listening on [0-9.:]* port \([0-9][0-9]*\)$/\1/p' "$tmp/x.out" 2>/dev/null)
	[ -n "$xport" ] && break
	sleep 0.1
done
if [ -n "$xport" ]; then
	out=$(timeout 120 python3 tests/clients/preauth_flood.py 127.0.0.1 "$xport" tester silent 150 2>&1)
	if [ "$out" = "silent login:ok" ]; then pass "emfile_login (ulimit -n 100, 150 silent sockets)"
	else fail emfile_login "$out"; fi
	x_stop || fail emfile_clean_exit "exit" "$tmp/x.err"
else
	fail emfile_login "server under ulimit -n 100 did not start" "$tmp/x.err"
fi
out=$(timeout 120 python3 tests/clients/preauth_flood.py 127.0.0.1 "$port" tester unread 2>&1)
if [ "$out" = "unread login:ok" ]; then pass unread_results_no_lockout; else fail unread_results_no_lockout "$out"; fi

# ---- settings that change text output on the wire (FMT): extra_float_digits,
# DateStyle, IntervalStyle in simple and extended (text) protocol, binary
# results unaffected, startup `options`; transcript equal to PostgreSQL 15's
if "$pyexe" -c 'import psycopg' >/dev/null 2>&1; then
	cat >"$tmp/outset.py" <<'PY'
import sys, psycopg
conninfo = sys.argv[1]
q = "SELECT 1/3.0::float8, 3.14159274::float4, '2024-07-08 13:04:05+00'::timestamptz, '2024-07-08'::date, interval '1 year 2 days 03:04:05'"
with psycopg.connect(conninfo + " options='-c extra_float_digits=-5 -c DateStyle=SQL,DMY -c TimeZone=Europe/Paris'", autocommit=True) as c:
    c.adapters.register_loader("float8", psycopg.types.string.TextLoader)
    for t in ("float4", "float8", "date", "timestamptz", "interval"):
        c.adapters.register_loader(t, psycopg.types.string.TextLoader)
    cur = c.cursor()
    print("startup", cur.execute(q).fetchone())
    for efd, ds, ivs in ((0, "ISO, MDY", "postgres"), (-10, "Postgres, DMY", "iso_8601"), (3, "German", "sql_standard")):
        cur.execute(f"SET extra_float_digits = {efd}")
        cur.execute(f"SET DateStyle = '{ds}'")
        cur.execute(f"SET IntervalStyle = {ivs}")
        print("simple", efd, cur.execute(q, prepare=False).fetchone())
        print("extended", efd, cur.execute(q + ", %s::float8, %s::text", (0.1, "x"), prepare=True).fetchone())
    cur.execute("SELECT current_setting('DateStyle'), current_setting('extra_float_digits')")
    print("current_setting", cur.fetchall())
    print("status", c.info.parameter_status("DateStyle"), c.info.parameter_status("IntervalStyle"))
    bc = c.cursor(binary=True)
    print("binary", bc.execute("SELECT 1/3.0::float8, 3.14159274::float4").fetchone())
    # binary parameters are read back exactly whatever the output settings
    import datetime
    for ds, ivs in (("Postgres, DMY", "sql_standard"), ("German", "postgres_verbose"), ("SQL, YMD", "iso_8601")):
        cur.execute(f"SET DateStyle = '{ds}'"); cur.execute(f"SET IntervalStyle = {ivs}"); cur.execute("SET extra_float_digits = -12")
        print("binparam", ds, cur.execute("SELECT %b::date::text, %b::timestamp::text, %b::timestamptz = '2024-02-03 04:05:06.5+00', %b::interval = interval '-1 day +02:00:00', %b::float8 = 0.123456789012",
            (datetime.date(2024, 2, 3), datetime.datetime(2024, 2, 3, 4, 5, 6, 500000), datetime.datetime(2024, 2, 3, 4, 5, 6, 500000, tzinfo=datetime.timezone.utc), datetime.timedelta(days=-1, hours=2), 0.123456789012)).fetchone())
PY
	if timeout 60 "$pyexe" "$tmp/outset.py" "$conninfo" >"$tmp/outset.out" 2>&1; then
		if [ -n "$pgconn" ]; then
			if timeout 60 "$pyexe" "$tmp/outset.py" "$pgconn" >"$tmp/outset_pg.out" 2>&1 &&
				diff "$tmp/outset_pg.out" "$tmp/outset.out" >"$tmp/outset.diff"; then
				pass "output_settings_wire ($(wc -l <"$tmp/outset.out") lines, equal to PostgreSQL 15)"
			else
				fail output_settings_wire "differs from PostgreSQL 15" "$tmp/outset.diff"
			fi
		else
			pass "output_settings_wire ($(wc -l <"$tmp/outset.out") lines)"
		fi
	else
		fail output_settings_wire "exit $?" "$tmp/outset.out"
	fi
fi

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
