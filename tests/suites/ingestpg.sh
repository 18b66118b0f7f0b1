#!/usr/bin/env bash
# Ingestpg suite: the insert buffer's postgres backend (src/ingest/buffer_pg.c,
# docs/ingest.md "Shared deployments"): FLOE_INSERT_BUFFER_BACKEND=postgres
# with a PostgreSQL catalog, two `floe serve` nodes on one warehouse.
#
#   - tests/clients/ingest_pgnodes.py (see its header): read-your-writes
#     across nodes before any flush, SHOW INSERT BUFFER STATUS backend
#     postgres on both, FLUSH on the other node commits the rows exactly
#     once, concurrent INSERTs and flushes on both nodes exactly once, kill -9
#     of a node mid-stream (5 times) loses and duplicates no acknowledged row
#   - the streamed table passes iceberg-validate --deep
#   - tests/clients/ingest_pggroup.py (see its header): group commit, one
#     node; 16 concurrent appends share statements (count(DISTINCT xmin) of
#     their entries), a batch whose sender was cancelled goes out again
#   - refusals: the postgres backend with the SQLite catalog is 0A000 (the
#     shell and floe serve do not start), an unknown backend name 22023
# The PostgreSQL 15 is scripts/pg-test-server.sh's, with a private FLOE_PG_DIR.
# Prints "PASS ingestpg: name" / "FAIL ingestpg: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
PY=/usr/bin/python3
TOOLS=../shared/tools/interop/bin
tmp=$(mktemp -d /tmp/floe-ingestpg.XXXXXX)
. tests/tools/floe_server.sh
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u /tmp/floe-ingestpgdb.XXXXXX)
trap 'pg_stop; rm -rf "$tmp"' EXIT
unset FLOE_WAREHOUSE FLOE_CATALOG PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS FLOE_INSERT_BUFFER_ROWS \
	FLOE_INSERT_BUFFER_BACKEND

nfail=0
pass() { echo "PASS ingestpg: $1"; }
fail() {
	echo "FAIL ingestpg: $1: $2"
	nfail=$((nfail + 1))
	if [ -n "${3:-}" ]; then head -30 "$3" | sed 's/^/    /'; fi
}
if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL ingestpg: binary $FLOE_BIN not built"
	exit 1
fi
if ! $PY -c 'import psycopg' 2>/dev/null; then
	echo "FAIL ingestpg: python3-psycopg missing"
	exit 1
fi

# ---- refusals ---------------------------------------------------------------
out=$(FLOE_INSERT_BUFFER_BACKEND=postgres "$FLOE_BIN" -D "$tmp/sqlite" -c "SELECT 1" 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q '0A000\|needs a PostgreSQL catalog'; then
	pass "postgres_backend_needs_pg_catalog (exit $rc)"
else
	fail postgres_backend_needs_pg_catalog "exit $rc: $out"
fi
out=$(FLOE_INSERT_BUFFER_BACKEND=redis "$FLOE_BIN" -D "$tmp/sqlite" -c "SELECT 1" 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'invalid insert buffer backend "redis"'; then
	pass "unknown_backend_refused (exit $rc)"
else
	fail unknown_backend_refused "exit $rc: $out"
fi

# ---- two nodes on one PostgreSQL catalog ------------------------------------
if ! FLOE_PG_MAX_CONNECTIONS=100 pg_start; then
	fail pg_start "no PostgreSQL test server"
	exit 1
fi
pgci="host=127.0.0.1 port=$pgport user=postgres dbname=postgres"
psql -X -q "$pgci" -c 'CREATE DATABASE ingest_nodes' >/dev/null 2>&1
mkdir -p "$tmp/wh"
nodeci="host=127.0.0.1 port=$pgport user=postgres dbname=ingest_nodes"
echo "$nodeci" >"$tmp/wh/catalog-uri"
if timeout 240 $PY tests/clients/ingest_pgnodes.py "$FLOE_BIN" "$tmp/wh" "$nodeci" 5 >"$tmp/nodes.out" 2>&1; then
	:
else
	fail ingest_pgnodes "exit $?" "$tmp/nodes.out"
fi
for name in read_your_writes_across_nodes status_backend_postgres flush_on_other_node \
	concurrent_nodes_exactly_once kill9_node_no_loss; do
	if grep -q "^ok $name\$" "$tmp/nodes.out"; then
		case $name in
		concurrent*) pass "$name ($(sed -n 's/^concurrent acked //p' "$tmp/nodes.out"))" ;;
		kill9*) pass "$name ($(sed -n 's/^kill9 acked //p' "$tmp/nodes.out"))" ;;
		*) pass "$name" ;;
		esac
	else
		fail "$name" "$(grep "^not ok $name" "$tmp/nodes.out" || echo 'not run')"
	fi
done
tbl=$(tail -1 "$tmp/nodes.out")
if [ -d "$tbl" ] && $TOOLS/iceberg-validate "$tbl" --deep >"$tmp/val.out" 2>&1; then
	pass concurrent_iceberg_validate
else
	fail concurrent_iceberg_validate "iceberg-validate failed on $tbl" "$tmp/val.out"
fi

# ---- group commit (one node) --------------------------------------------------
psql -X -q "$pgci" -c 'CREATE DATABASE ingest_group' >/dev/null 2>&1
mkdir -p "$tmp/gwh"
groupci="host=127.0.0.1 port=$pgport user=postgres dbname=ingest_group"
echo "$groupci" >"$tmp/gwh/catalog-uri"
if timeout 240 $PY tests/clients/ingest_pggroup.py "$FLOE_BIN" "$tmp/gwh" "$groupci" >"$tmp/group.out" 2>&1; then
	:
else
	fail ingest_pggroup "exit $?" "$tmp/group.out"
fi
for name in group_commit_shares_statements cancelled_batch_requeued; do
	if grep -q "^ok $name\$" "$tmp/group.out"; then
		pass "$name"
	else
		fail "$name" "$(grep "^not ok $name" "$tmp/group.out" || echo 'not run')"
	fi
done
[ $nfail -eq 0 ]
