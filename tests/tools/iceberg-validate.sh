#!/usr/bin/env bash
# tests/tools/iceberg-validate.sh META [ARGS...] — ../shared/tools/interop's
# iceberg-validate, minus one report that contradicts the spec: format v3
# data files may hold the row-lineage columns _row_id (field id 2147483540)
# and _last_updated_sequence_number (2147483539) (spec "Row Lineage",
# "Reserved Field IDs"), which the validator reports as "not in the table
# schema" (it does so for Spark's own lineage table in testdata too).
# Same output; exit status 0 when the validator passed or every ERROR line
# it printed is that report, else its status (1 at least).
tools=${FLOE_INTEROP_BIN:-"$(cd "$(dirname "$0")/../.." && pwd)/../shared/tools/interop/bin"}
out=$("$tools/iceberg-validate" "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] && exit 0
lineage='column (_row_id|_last_updated_sequence_number) has field_id (2147483540|2147483539), which is not in the table schema'
errors=$(printf '%s\n' "$out" | grep -E '^ *ERROR' | grep -Ev "$lineage" | wc -l)
all=$(printf '%s\n' "$out" | grep -cE '^ *ERROR')
if [ "$all" -gt 0 ] && [ "$errors" -eq 0 ]; then
	echo "note: only the v3 row-lineage column report; passed (tests/tools/iceberg-validate.sh)"
	exit 0
fi
exit $rc
