#!/usr/bin/env bash
# The whole test suite: what `make test` and .ci/run run.
#
#   1. installs the Debian packages it needs (scripts/install-deps.sh --test)
#      and the interop readers (../shared/tools/interop/setup)
#   2. builds floe and the tests under ASan+UBSan (build-san/)
#   3. runs every suite in tests/suites/*.sh; each prints lines
#      "PASS name" / "FAIL name: why" and exits non-zero on failure
#   4. prints "N passed, N failed" and exits non-zero if anything failed
#
# Environment: FLOE_TEST_ONLY=regex runs only the suites whose file name
# matches; JOBS=n sets build parallelism.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

scripts/install-deps.sh --test || { echo "FAIL install-deps"; echo "0 passed, 1 failed"; exit 1; }
if [ -d ../shared/tools/interop ]; then
  ../shared/tools/interop/setup >/dev/null || { echo "FAIL interop setup"; echo "0 passed, 1 failed"; exit 1; }
fi

export B=build-san
export FLOE_ROOT=$root
export FLOE_BIN=$root/build-san/floe
export FLOE_SHARED=$(cd ../shared 2>/dev/null && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
JOBS=${JOBS:-$(nproc)}

if ! make -s -j"$JOBS" B=build-san all unit tools >build-san.log 2>&1; then
  tail -40 build-san.log
  echo "FAIL build"
  echo "0 passed, 1 failed"
  exit 1
fi

# The optimised build (what `make run` and bench/ use) must build too: -O2
# finds warnings -O1 does not.
if ! make -s -j"$JOBS" B=build all >build.log 2>&1; then
  tail -40 build.log
  echo "FAIL build (optimised)"
  echo "0 passed, 1 failed"
  exit 1
fi

pass=0; fail=0; failed=()
for suite in tests/suites/*.sh; do
  name=$(basename "$suite" .sh)
  if [ -n "${FLOE_TEST_ONLY:-}" ] && ! [[ $name =~ $FLOE_TEST_ONLY ]]; then continue; fi
  echo "== suite $name"
  out=$(mktemp)
  bash "$suite" 2>&1 | tee "$out"
  p=$(grep -c '^PASS ' "$out"); f=$(grep -c '^FAIL ' "$out")
  pass=$((pass + p)); fail=$((fail + f))
  while IFS= read -r l; do failed+=("$l"); done < <(grep '^FAIL ' "$out")
  rm -f "$out"
done

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failures:"; printf '  %s\n' "${failed[@]}"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
