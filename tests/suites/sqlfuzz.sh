#!/usr/bin/env bash
# SQL mutation fuzzing (tests/tools/mutsql.py): statements of tests/sql/
# mutated (literals, set operators, zero-column select lists, empty and
# NULL-only inputs, unrelated queries under UNION/INTERSECT/EXCEPT) must
# never crash floe, trip ASan/UBSan or outlive statement_timeout.
#
# make test runs a bounded slice (FLOE_SQLFUZZ_SEEDS, default "1 2 3", of
# FLOE_SQLFUZZ_N = 2000 statements each); `make sqlfuzz` runs a long one.
# Prints "PASS name" / "FAIL name: why" with the reproducer.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL mutsql: binary $FLOE_BIN not built"
	exit 1
fi
rc=0
for seed in ${FLOE_SQLFUZZ_SEEDS:-1 2 3}; do
	python3 tests/tools/mutsql.py "$FLOE_BIN" "$seed" "${FLOE_SQLFUZZ_N:-2000}" --timeout 600 || rc=1
done
exit $rc
