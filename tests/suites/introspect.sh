#!/usr/bin/env bash
# Introspection suite: what clients ask at connect and to describe tables
# (pg_catalog, information_schema, catalog functions), against `floe serve`
# and a throwaway PostgreSQL 15 (scripts/pg-test-server.sh); each client's
# output on floe must equal its output on PostgreSQL:
#
#   - psql: \dt, \dn, \l, \d table (with its "Indexes:" primary key), \di,
#     \d index, \du, \dT, \df, \dx (unaligned; role and database names
#     masked), over the same schema and tables in both
#   - JDBC (pgjdbc, tests/server/IntrospectJdbc.java): DatabaseMetaData
#     getSchemas / getTables / getColumns / getIndexInfo, ResultSetMetaData
#   - psycopg 3 (tests/server/introspect_psycopg.py): cursor.description and
#     loaded Python values of every type, text and binary; TypeInfo.fetch
#   - SQLAlchemy 1.4's PostgreSQL dialect (tests/server/introspect_sqlalchemy.py):
#     connect, Inspector reflection of tables (columns, primary keys in key
#     order through pg_index.indkey, an int2vector; indexes, unique and
#     check constraints, foreign keys), Table(autoload_with=), Core
#     insert/select/update/delete through the autoloaded Table
#
# Without PostgreSQL the outputs are compared with tests/server/expected/.
# The server runs on a free port in a temporary warehouse, by PID, stopped
# by the EXIT trap.  Prints "PASS introspect: name" / "FAIL introspect: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
capture=0   # --capture: store PostgreSQL's outputs as tests/server/expected/
[ "${1:-}" = "--capture" ] && capture=1

tmp=$(mktemp -d /tmp/floe-introspect.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-introspectpg.XXXXXX)
. tests/tools/floe_server.sh
srv_pid=
cleanup() {
	floe_stop "$srv_pid"
	pg_stop
	rm -rf "$tmp"
}
trap cleanup EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS

nfail=0
pass() { echo "PASS introspect: $1"; }
fail() {
	echo "FAIL introspect: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -30 "$3" | sed 's/^/    /'; fi
}

if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL introspect: binary $FLOE_BIN not built"
	exit 1
fi

if ! floe_serve "$tmp/serve" -D "$tmp/wh" --port 0; then
	fail start "floe serve did not start" "$tmp/serve.err"
	exit 1
fi

pg_start

# compare NAME FLOE_OUT PG_OUT_OR_EMPTY: against PostgreSQL's output, or
# the expected file when there is no server
compare() {
	local name=$1 got=$2 want=$3
	if [ $capture = 1 ] && [ -n "$want" ]; then
		mkdir -p tests/server/expected
		cp "$want" "tests/server/expected/introspect_$name.out"
	fi
	if [ -z "$want" ]; then
		want=tests/server/expected/introspect_$name.out
		[ -f "$want" ] || { fail "$name" "no PostgreSQL and no $want"; return; }
	fi
	if diff -u "$want" "$got" >"$tmp/$name.diff"; then
		pass "$name"
	else
		fail "$name" "output differs from PostgreSQL's (- PostgreSQL, + floe)" "$tmp/$name.diff"
	fi
}

# ---- psql ------------------------------------------------------------------
run_psql() {   # conninfo out
	local p=(psql -X -A -v ON_ERROR_STOP=0 "$1")
	"${p[@]}" -q -c "DROP SCHEMA IF EXISTS intro_psql CASCADE" >/dev/null 2>&1
	"${p[@]}" -q -c "CREATE SCHEMA intro_psql" \
		-c "CREATE TABLE intro_psql.b (x integer NOT NULL, y varchar(5), z numeric(9,3), w timestamptz, v text, u boolean, d date, f double precision, c char(3), i bigint)" \
		-c "CREATE TABLE intro_psql.a (t text)" \
		-c "CREATE TABLE intro_psql.k (id bigint PRIMARY KEY, name text NOT NULL, n integer)" \
		-c "CREATE TABLE intro_psql.k2 (a integer, b integer, c text, PRIMARY KEY (b, a))" >/dev/null 2>&1
	for c in '\dt intro_psql.*' '\dt intro_psql.a' '\dn intro_psql' '\l :DBNAME' '\dt intro_psql.nothing' \
		'\d intro_psql.b' '\d intro_psql.k' '\d intro_psql.k2' '\di intro_psql.*' '\d intro_psql.k2_pkey' \
		'\d intro_psql.*' '\du' '\dT' '\df intro_psql.*' '\dx intro_none'; do
		echo "=== $c"
		"${p[@]}" -c "$c" 2>&1
	done | sed -E 's/\b(floe|postgres|tester|pg_database_owner)\b/X/g' >"$2"
	"${p[@]}" -q -c "DROP SCHEMA intro_psql CASCADE" >/dev/null 2>&1
}
if command -v psql >/dev/null 2>&1; then
	run_psql "host=127.0.0.1 port=$port user=tester dbname=floe" "$tmp/psql.floe"
	want=
	if [ -n "$pgport" ]; then
		run_psql "host=127.0.0.1 port=$pgport user=postgres dbname=postgres" "$tmp/psql.pg"
		want=$tmp/psql.pg
	fi
	compare psql "$tmp/psql.floe" "$want"
else
	fail psql "psql missing"
fi

# ---- JDBC ------------------------------------------------------------------
jar=/usr/share/java/postgresql.jar
if command -v java >/dev/null 2>&1 && [ -f "$jar" ]; then
	timeout 180 java -cp "$jar" tests/server/IntrospectJdbc.java "jdbc:postgresql://127.0.0.1:$port/floe" tester \
		>"$tmp/jdbc.floe" 2>&1
	want=
	if [ -n "$pgport" ]; then
		timeout 180 java -cp "$jar" tests/server/IntrospectJdbc.java \
			"jdbc:postgresql://127.0.0.1:$pgport/postgres" postgres >"$tmp/jdbc.pg" 2>&1
		want=$tmp/jdbc.pg
	fi
	compare jdbc "$tmp/jdbc.floe" "$want"
else
	fail jdbc "java or $jar missing (scripts/install-deps.sh --test)"
fi

# ---- psycopg 3 -------------------------------------------------------------
if /usr/bin/python3 -c 'import psycopg' 2>/dev/null; then
	timeout 120 /usr/bin/python3 tests/server/introspect_psycopg.py \
		"host=127.0.0.1 port=$port user=tester dbname=floe" >"$tmp/psycopg.floe" 2>&1
	want=
	if [ -n "$pgport" ]; then
		timeout 120 /usr/bin/python3 tests/server/introspect_psycopg.py \
			"host=127.0.0.1 port=$pgport user=postgres dbname=postgres" >"$tmp/psycopg.pg" 2>&1
		want=$tmp/psycopg.pg
	fi
	compare psycopg "$tmp/psycopg.floe" "$want"
else
	fail psycopg "python3-psycopg missing"
fi

# ---- SQLAlchemy (1.4, psycopg2 driver) ---------------------------------------
if /usr/bin/python3 -c 'import sqlalchemy, psycopg2' 2>/dev/null; then
	timeout 120 /usr/bin/python3 tests/server/introspect_sqlalchemy.py \
		"host=127.0.0.1 port=$port user=tester dbname=floe" >"$tmp/sqlalchemy.floe" 2>&1
	want=
	if [ -n "$pgport" ]; then
		timeout 120 /usr/bin/python3 tests/server/introspect_sqlalchemy.py \
			"host=127.0.0.1 port=$pgport user=postgres dbname=postgres" >"$tmp/sqlalchemy.pg" 2>&1
		want=$tmp/sqlalchemy.pg
	fi
	compare sqlalchemy "$tmp/sqlalchemy.floe" "$want"
else
	fail sqlalchemy "python3-sqlalchemy or python3-psycopg2 missing (scripts/install-deps.sh --test)"
fi

if grep -q "ERROR: AddressSanitizer\|runtime error:" "$tmp/serve.err"; then
	fail sanitizer "floe serve reported" "$tmp/serve.err"
fi
exit $((nfail > 0))
