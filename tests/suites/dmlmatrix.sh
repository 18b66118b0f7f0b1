#!/usr/bin/env bash
# The DML differential matrix: the DML, MERGE and upsert files of
# tests/sql/pgdiff (dml_*, dmlx_*, merge_*, upsert_*) run on floe and on a
# throwaway PostgreSQL 15 (scripts/pg-test-server.sh) in every write
# configuration: {copy-on-write, merge-on-read} x {format-version 2, 3}, set
# for every CREATE TABLE through FLOE_TABLE_DEFAULTS (a file's own WITH (...)
# still wins).  sqltest --pg compares command tags, returned rows and the
# target table after every DML; --validate checks every committed state with
# iceberg-validate and an independent reader (icebird, or DuckDB minus the
# delete files for deletion vectors).  See tests/sql/README.md.
#
# One line per file and configuration: "PASS [v3 merge-on-read] FILE (...)".
# The default configuration (v2 copy-on-write) is what tests/suites/pgdiff.sh
# runs already (with the same checks), so here it runs only files validated.
# A file with "foreach fv" loops over the versions and write modes itself
# (its CREATE TABLEs say WITH (...), which wins over FLOE_TABLE_DEFAULTS): it
# runs once, in the default configuration, validated.
# DMLMATRIX_VALIDATE: "all" (default: every file in every configuration, so
# after each DML of the corpus, in both write modes and both format
# versions, the table passes iceberg-validate and the independent readers
# see floe's rows; about 3 minutes on 2 idle cores), "rotate" (file i is
# validated in configuration i mod 4 only: quicker), "0" (none).  DMLMATRIX_CONFIGS="v3-cow v3-mor" runs only those;
# DMLMATRIX_JOBS (default 2) configurations run at once.
cd "$FLOE_ROOT" || exit 1
mapfile -t files < <(find tests/sql/pgdiff -maxdepth 1 -type f \
	\( -name 'dml_*.test' -o -name 'dmlx_*.test' -o -name 'merge_*.test' -o -name 'upsert_*.test' \) | sort)
selfloop=()
if [ ${#files[@]} -gt 0 ]; then
	mapfile -t selfloop < <(grep -l '^foreach fv' "${files[@]}")
	mapfile -t files < <(grep -L '^foreach fv' "${files[@]}")
fi
if [ ${#files[@]} -eq 0 ]; then
	echo "dmlmatrix: no DML files under tests/sql/pgdiff"
	exit 0
fi
# Warehouses and the server in memory when possible: floe fsyncs every file
# it writes, and PostgreSQL's CREATE DATABASE per file writes a lot.
shm=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && shm=/dev/shm
export TMPDIR=$shm
export FLOE_PG_DIR
FLOE_PG_DIR=$(mktemp -u "$shm/floe-dmlmatrix.XXXXXX")
out=$(mktemp -d "$shm/floe-dmlmatrix-out.XXXXXX")
trap 'scripts/pg-test-server.sh stop >/dev/null 2>&1; rm -rf "$out"' EXIT
if ! envout=$(scripts/pg-test-server.sh start 2>&1); then
	echo "FAIL dmlmatrix: cannot start PostgreSQL 15"
	printf '%s\n' "$envout" | tail -20 | sed 's/^/    /'
	exit 1
fi
port=$(printf '%s\n' "$envout" | sed -n 's/^PGPORT=//p')
conn="host=127.0.0.1 port=$port user=postgres dbname=postgres"
vmode=${DMLMATRIX_VALIDATE:-all}

mor="write.delete.mode=merge-on-read,write.update.mode=merge-on-read,write.merge.mode=merge-on-read"
cow="write.delete.mode=copy-on-write,write.update.mode=copy-on-write,write.merge.mode=copy-on-write"
declare -A defaults=(
	[v2-cow]="format-version=2,$cow"
	[v3-cow]="format-version=3,$cow"
	[v2-mor]="format-version=2,$mor"
	[v3-mor]="format-version=3,$mor"
)
declare -A label=([v2-cow]="v2 copy-on-write" [v3-cow]="v3 copy-on-write"
	[v2-mor]="v2 merge-on-read" [v3-mor]="v3 merge-on-read")
configs=(${DMLMATRIX_CONFIGS:-v2-cow v3-cow v2-mor v3-mor})

order=(v2-cow v3-cow v2-mor v3-mor)

# run_config NAME: the files in that configuration; output in $out/NAME
run_config() {
	local c=$1 ci=0 start=$SECONDS i v=() n=()
	for i in "${!order[@]}"; do [ "${order[$i]}" = "$c" ] && ci=$i; done
	for i in "${!files[@]}"; do
		if [ "$vmode" = all ] || { [ "$vmode" = rotate ] && [ $((i % 4)) -eq "$ci" ]; }; then
			v+=("${files[$i]}")
		else
			n+=("${files[$i]}")
		fi
	done
	if [ "$c" = v2-cow ]; then
		n=()   # pgdiff.sh runs them
		[ "$vmode" = 0 ] || v+=("${selfloop[@]}")
	fi
	{
		if [ ${#v[@]} -gt 0 ]; then
			FLOE_TABLE_DEFAULTS=${defaults[$c]} bash tests/tools/sqltest-each.sh --validate \
				--pg "$conn" -- "${v[@]}"
		fi
		if [ ${#n[@]} -gt 0 ]; then
			FLOE_TABLE_DEFAULTS=${defaults[$c]} bash tests/tools/sqltest-each.sh \
				--pg "$conn" -- "${n[@]}"
		fi
	} 2>&1 | sed -E "s/^(PASS|FAIL) /\1 [${label[$c]}] /" >"$out/$c"
	echo "    [${label[$c]}] $((${#v[@]} + ${#n[@]})) files (${#v[@]} validated): $((SECONDS - start))s" >"$out/$c.time"
}

jobs=${DMLMATRIX_JOBS:-2}
running=0
for c in "${configs[@]}"; do
	if [ -z "${defaults[$c]:-}" ]; then
		echo "FAIL dmlmatrix: unknown configuration $c (v2-cow v3-cow v2-mor v3-mor)"
		continue
	fi
	run_config "$c" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
rc=0
for c in "${configs[@]}"; do
	[ -f "$out/$c" ] || continue
	cat "$out/$c"
	grep -q '^FAIL ' "$out/$c" && rc=1
done
echo "dmlmatrix: ${#files[@]} files x ${#configs[@]} configurations + ${#selfloop[@]} looping over them, wall time per configuration:"
cat "$out"/*.time 2>/dev/null
exit $rc
