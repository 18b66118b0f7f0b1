#!/usr/bin/env bash
# Unit tests: every cmocka binary built from tests/unit/**/test_*.c.
# One PASS/FAIL line per test case (cmocka's own "[       OK ]" lines).
cd "$FLOE_ROOT"
rc=0
for bin in $(find build-san/tests/unit -type f -name 'test_*' -perm -u+x | sort); do
  name=${bin#build-san/tests/unit/}
  log=$(mktemp)
  ( cd "$FLOE_ROOT" && timeout 300 "$bin" ) >"$log" 2>&1
  status=$?
  sed -n 's/^\[       OK \] \(.*\)/PASS '"${name//\//\\/}"': \1/p' "$log"
  sed -n 's/^\[  FAILED  \] \([^ ]*\)$/FAIL '"${name//\//\\/}"': \1/p' "$log"
  if [ $status -ne 0 ]; then
    grep -q '^\[  FAILED  \] [^ ]*$' "$log" || echo "FAIL $name: exit status $status"
    tail -30 "$log" | sed 's/^/    /'
    rc=1
  fi
  rm -f "$log"
done
exit $rc
