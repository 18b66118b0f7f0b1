#!/usr/bin/env bash
# Settings floe accepts but does not act on (sql/settings_noeffect.h,
# docs/settings.md): a SET of one to anything but its default is a WARNING
# naming it, never silent; SHOW prints the value set; a SET to the default,
# and every SET of a setting floe acts on, is quiet.  pg_dump 15's preamble
# runs without a WARNING (client_min_messages is acted on:
# sql/client_messages.h; set_config: sql/set_config.h).
# PostgreSQL 15 accepts every statement here (checked when the test server
# starts: the same SETs run there without an error), and a script of
# client_min_messages levels, set_config() and notices prints the same
# lines (NOTICE / WARNING / ERROR included) through psql on PostgreSQL and
# through floe's shell.
# Prints "PASS settings: name" / "FAIL settings: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
tmp=$(mktemp -d /tmp/floe-settings.XXXXXX)
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-settings-pg.XXXXXX)
trap 'scripts/pg-test-server.sh stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
unset FLOE_WAREHOUSE PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS
rc=0
pass() { echo "PASS settings: $1"; }
fail() { echo "FAIL settings: $1: $2"; rc=1; }
run() { "$FLOE_BIN" -D "$tmp/wh" -At -v ON_ERROR_STOP=off -f "$1" 2>&1; }

# no effect: name=value (not the default)
noeffect="enable_hashjoin=off enable_nestloop=off enable_seqscan=off enable_sort=off jit=off geqo=off
geqo_threshold=2 join_collapse_limit=1 from_collapse_limit=1 random_page_cost=1.1 cpu_tuple_cost=0.5
effective_cache_size=1GB default_statistics_target=500 force_parallel_mode=on synchronous_commit=off
log_statement=all temp_buffers=16MB plan_cache_mode=force_generic_plan
enable_partition_pruning=off hash_mem_multiplier=4 maintenance_work_mem=1GB"
# acted on, or set to floe's behaviour: quiet
quiet="work_mem=8MB statement_timeout=0 lock_timeout=0 idle_in_transaction_session_timeout=0
extra_float_digits=3 application_name=x search_path=public datestyle=ISO intervalstyle=postgres
max_parallel_workers_per_gather=0 ignore_checksum_failure=off enable_hashjoin=on jit=on
row_security=off check_function_bodies=false default_tablespace='' xmloption=content
standard_conforming_strings=on client_encoding=UTF8 default_transaction_read_only=off
client_min_messages=warning"

: >"$tmp/pg.sql"
for kv in $noeffect; do
	n=${kv%%=*}; v=${kv#*=}
	printf "SET %s = '%s';\nSHOW %s;\n" "$n" "$v" "$n" >"$tmp/q.sql"
	printf "SET %s = '%s';\n" "$n" "$v" >>"$tmp/pg.sql"
	out=$(run "$tmp/q.sql")
	if echo "$out" | grep -q "WARNING:  floe does not act on setting \"$n\"" &&
	   [ "$(echo "$out" | grep -v '^WARNING\|^HINT' | tail -1)" != "" ]; then
		pass "warns_$n"
	else
		fail "warns_$n" "$out"
	fi
done
for kv in $quiet; do
	n=${kv%%=*}; v=${kv#*=}; v=${v#\'}; v=${v%\'}
	printf "SET %s = '%s';\n" "$n" "$v" >"$tmp/q.sql"
	printf "SET %s = '%s';\n" "$n" "$v" >>"$tmp/pg.sql"
	out=$(run "$tmp/q.sql")
	if [ "$out" = SET ]; then
		pass "quiet_$n"
	else
		fail "quiet_$n" "$out"
	fi
done
# pg_dump 15's preamble (plain format)
cat >"$tmp/q.sql" <<'SQL'
SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;
SELECT pg_catalog.set_config('search_path', '', false);
SET default_tablespace = '';
SET default_table_access_method = heap;
SQL
cat "$tmp/q.sql" >>"$tmp/pg.sql"
out=$(run "$tmp/q.sql")
if ! echo "$out" | grep -q "WARNING:\|ERROR"; then
	pass pg_dump_preamble
else
	fail pg_dump_preamble "$out"
fi
# client_min_messages acted on: which NOTICEs (DROP ... IF EXISTS of a
# missing table) and WARNINGs (COMMIT outside a block, SET LOCAL outside
# one) a session sends at each level, set by SET, set_config() and
# set_config(..., true) in a block, ERROR always sent; compared line by line
# with PostgreSQL 15 below.  (floe has no DEBUG or LOG messages: at the
# debug levels PostgreSQL sends DEBUG lines floe has none of.)
cat >"$tmp/msgs.sql" <<'SQL'
DROP TABLE IF EXISTS nope;
COMMIT;
SET client_min_messages = warning;
DROP TABLE IF EXISTS nope;
COMMIT;
SET client_min_messages = error;
DROP TABLE IF EXISTS nope;
COMMIT;
SELECT 1/0;
SET client_min_messages = log;
DROP TABLE IF EXISTS nope;
COMMIT;
SET client_min_messages = info;
DROP TABLE IF EXISTS nope;
SET client_min_messages = 'WARNING';
DROP TABLE IF EXISTS nope;
COMMIT;
SELECT set_config('client_min_messages', 'notice', false);
DROP TABLE IF EXISTS nope;
BEGIN;
SELECT set_config('client_min_messages', 'error', true);
DROP TABLE IF EXISTS nope;
SET LOCAL work_mem = '1MB';
BEGIN;
COMMIT;
COMMIT;
SET LOCAL work_mem = '1MB';
SELECT set_config('client_min_messages', 'error', true);
COMMIT;
SET client_min_messages = bogus;
SET client_min_messages = error;
RESET client_min_messages;
DROP TABLE IF EXISTS nope;
SET client_min_messages = 'Debug';
SHOW client_min_messages;
SET client_min_messages TO DEFAULT;
SHOW client_min_messages;
SQL
"$FLOE_BIN" -D "$tmp/wh" -At -v ON_ERROR_STOP=off <"$tmp/msgs.sql" >"$tmp/msgs.floe" 2>&1
# PostgreSQL 15 accepts all of them
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	port=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	out=$(psql -X -At "host=127.0.0.1 port=$port user=postgres dbname=postgres" -v ON_ERROR_STOP=1 -f "$tmp/pg.sql" 2>&1)
	if [ $? -eq 0 ]; then
		pass postgres_accepts
	else
		fail postgres_accepts "$(echo "$out" | grep ERROR | head -3)"
	fi
	psql -X -At "host=127.0.0.1 port=$port user=postgres dbname=postgres" <"$tmp/msgs.sql" >"$tmp/msgs.pg" 2>&1
	if [ "$(grep -c 'NOTICE:' "$tmp/msgs.pg")" -ge 4 ] && [ "$(grep -c 'WARNING:' "$tmp/msgs.pg")" -ge 4 ] &&
	   diff "$tmp/msgs.pg" "$tmp/msgs.floe" >"$tmp/msgs.diff"; then
		pass client_min_messages_as_postgres
	else
		fail client_min_messages_as_postgres "< PostgreSQL 15, > floe: $(head -20 "$tmp/msgs.diff")"
	fi
else
	fail postgres_accepts "cannot start PostgreSQL 15: $(echo "$envout" | tail -2)"
fi
exit $rc
