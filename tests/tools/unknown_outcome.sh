# tests/tools/unknown_outcome.sh — sourced by suites (dml, merge, partition)
# that check an autocommit statement whose catalog swap has an unknown
# outcome (08006): the statement keeps the files it wrote and lists them in
# <warehouse>/orphan-candidates (docs/transactions.md).
#
#   catalog_db_new DB WH        a PostgreSQL database DB as warehouse WH's
#                               catalog (WH/catalog-uri); false on failure
#   expect_unknown_outcome NAME DB WH SQL
#       Table t of WH exists.  Runs SQL with t's catalog swap stalled (a
#       trigger sleeping in UPDATE of iceberg_tables), cuts the catalog off
#       while it waits (no new connections, its backend terminated), then
#       checks: the error says the outcome is unknown, the catalog still
#       names the old metadata, no file of t/data or t/metadata was
#       removed, at least one data file (none with UO_METADATA_ONLY=1) and
#       a metadata file were written and every new one is listed in
#       orphan-candidates, and t's rows are unchanged.  One pass or fail
#       line.
#
# The caller defines pg (psql on the test server, -qAt, ON_ERROR_STOP),
# rows WH TABLE (floe's rows, sorted), pass, fail, $tmp, $pgport and
# $FLOE_BIN.

catalog_db_new() {
	pg -d postgres -c "CREATE DATABASE $1" || return 1
	mkdir -p "$2"
	echo "host=127.0.0.1 port=$pgport user=postgres dbname=$1" >"$2/catalog-uri"
}

expect_unknown_outcome() {
	local name=$1 db=$2 wh=$3 sql=$4 pid bpid i loc_before loc_after new newmd f
	rows "$wh" t >"$tmp/uo_before.csv"
	ls "$wh/public/t/data" | LC_ALL=C sort >"$tmp/uo_data_before"
	ls "$wh/public/t/metadata" | LC_ALL=C sort >"$tmp/uo_md_before"
	loc_before=$(pg -d "$db" -c "SELECT metadata_location FROM iceberg_tables WHERE table_name = 't'")
	pg -d "$db" <<'EOF'
CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.table_name = 't' THEN PERFORM pg_sleep(30); END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER stall BEFORE UPDATE ON iceberg_tables FOR EACH ROW EXECUTE FUNCTION stall();
EOF
	"$FLOE_BIN" -D "$wh" -c "$sql" >"$tmp/uo.out" 2>&1 &
	pid=$!
	bpid=
	for i in $(seq 300); do
		bpid=$(pg -d postgres -c "SELECT pid FROM pg_stat_activity WHERE datname = '$db' AND wait_event = 'PgSleep'")
		[ -n "$bpid" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$bpid" ]; then
		wait "$pid"
		fail "$name 08006" "the swap never stalled: $(tail -2 "$tmp/uo.out" | tr '\n' ' ')"
		return
	fi
	pg -d postgres -c "ALTER DATABASE $db ALLOW_CONNECTIONS false" -c "SELECT pg_terminate_backend($bpid)" >/dev/null
	wait "$pid"
	pg -d postgres -c "ALTER DATABASE $db ALLOW_CONNECTIONS true"
	pg -d "$db" -c "DROP TRIGGER stall ON iceberg_tables"
	loc_after=$(pg -d "$db" -c "SELECT metadata_location FROM iceberg_tables WHERE table_name = 't'")
	if ! grep -q "outcome is unknown" "$tmp/uo.out"; then
		fail "$name 08006" "expected an unknown outcome, got: $(tail -2 "$tmp/uo.out" | tr '\n' ' ')"
		return
	fi
	if [ "$loc_after" != "$loc_before" ]; then
		fail "$name 08006" "the catalog moved"
		return
	fi
	ls "$wh/public/t/data" | LC_ALL=C sort >"$tmp/uo_data_after"
	if [ -n "$(comm -23 "$tmp/uo_data_before" "$tmp/uo_data_after")" ]; then
		fail "$name 08006" "a data file of the table was removed"
		return
	fi
	new=$(comm -13 "$tmp/uo_data_before" "$tmp/uo_data_after")
	if [ -z "$new" ] && [ -z "$UO_METADATA_ONLY" ]; then
		fail "$name 08006" "no data / delete file was written (or the written ones were deleted)"
		return
	fi
	for f in $new; do
		if ! grep -q "/public/t/data/$f\$" "$wh/orphan-candidates" 2>/dev/null; then
			fail "$name 08006" "$f is not listed in orphan-candidates"
			return
		fi
	done
	# the commit's own files (metadata file, manifest list, manifests)
	# are kept and listed as well
	ls "$wh/public/t/metadata" | LC_ALL=C sort >"$tmp/uo_md_after"
	if [ -n "$(comm -23 "$tmp/uo_md_before" "$tmp/uo_md_after")" ]; then
		fail "$name 08006" "a metadata file of the table was removed"
		return
	fi
	newmd=$(comm -13 "$tmp/uo_md_before" "$tmp/uo_md_after")
	if ! echo "$newmd" | grep -q '\.metadata\.json$'; then
		fail "$name 08006" "the commit's metadata file was not kept"
		return
	fi
	for f in $newmd; do
		if ! grep -q "/public/t/metadata/$f\$" "$wh/orphan-candidates" 2>/dev/null; then
			fail "$name 08006" "metadata/$f is not listed in orphan-candidates"
			return
		fi
	done
	new="$new $newmd"
	rows "$wh" t >"$tmp/uo_after.csv"
	if ! cmp -s "$tmp/uo_before.csv" "$tmp/uo_after.csv"; then
		fail "$name 08006" "rows changed"
		return
	fi
	pass "$name 08006 keeps its $(echo "$new" | wc -w) new file(s) and lists them"
}
