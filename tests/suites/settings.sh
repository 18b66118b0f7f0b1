#!/usr/bin/env bash
# Settings floe accepts but does not act on (sql/settings_noeffect.h,
# docs/settings.md): a SET of one to anything but its default is a WARNING
# naming it, never silent; SHOW prints the value set; a SET to the default,
# and every SET of a setting floe acts on, is quiet.  pg_dump 15's preamble
# warns only where floe does not do what it asks (client_min_messages).
# PostgreSQL 15 accepts every statement here (checked when the test server
# starts: the same SETs run there without an error).
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
client_min_messages=warning log_statement=all temp_buffers=16MB plan_cache_mode=force_generic_plan
enable_partition_pruning=off hash_mem_multiplier=4 maintenance_work_mem=1GB"
# acted on, or set to floe's behaviour: quiet
quiet="work_mem=8MB statement_timeout=0 lock_timeout=0 idle_in_transaction_session_timeout=0
extra_float_digits=3 application_name=x search_path=public datestyle=ISO intervalstyle=postgres
max_parallel_workers_per_gather=0 ignore_checksum_failure=off enable_hashjoin=on jit=on
row_security=off check_function_bodies=false default_tablespace='' xmloption=content
standard_conforming_strings=on client_encoding=UTF8 default_transaction_read_only=off"

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
# pg_dump 15's preamble (plain format; its set_config('search_path', ...) line
# is left out: floe has no set_config yet)
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
SET default_tablespace = '';
SET default_table_access_method = heap;
SQL
cat "$tmp/q.sql" >>"$tmp/pg.sql"
out=$(run "$tmp/q.sql")
if [ "$(echo "$out" | grep -c "WARNING:")" = 1 ] && echo "$out" | grep -q 'WARNING:  floe does not act on setting "client_min_messages"' &&
   ! echo "$out" | grep -q ERROR; then
	pass pg_dump_preamble
else
	fail pg_dump_preamble "$out"
fi
# PostgreSQL 15 accepts all of them
if envout=$(scripts/pg-test-server.sh start 2>&1); then
	port=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
	out=$(psql -X -At "host=127.0.0.1 port=$port user=postgres dbname=postgres" -v ON_ERROR_STOP=1 -f "$tmp/pg.sql" 2>&1)
	if [ $? -eq 0 ]; then
		pass postgres_accepts
	else
		fail postgres_accepts "$(echo "$out" | grep ERROR | head -3)"
	fi
else
	fail postgres_accepts "cannot start PostgreSQL 15: $(echo "$envout" | tail -2)"
fi
exit $rc
