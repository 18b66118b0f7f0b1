#!/usr/bin/env bash
# Docs suite: every shell session shown in README.md and docs/*.md (a code
# block with `floe=> ` prompts) runs in a fresh warehouse and must print what
# the doc shows (tests/tools/doccheck.py).  A self-check first proves the
# checker fails on a doc whose shown output is wrong.
#
# Prints "PASS name" / "FAIL name: why".  $FLOE_BIN is the binary.
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
if [ ! -x "$FLOE_BIN" ]; then
	echo "FAIL doc: binary $FLOE_BIN not built"
	exit 1
fi
tmp=$(mktemp -d /tmp/floe-docs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# Self-check: a wrong shown output must FAIL, a right one PASS.
cat >"$tmp/wrong.md" <<'MD'
A session whose output is wrong:

    floe=> select 1 as one;
     one
    -----
       2
    (1 row)

MD
cat >"$tmp/right.md" <<'MD'
A session whose output is right, with a skipped one before it:

<!-- doccheck: skip (checks the skip marker) -->

    floe=> select 'not run';
    nothing

Then:

    floe=> select 1 as one;
     one
    -----
       1
    (1 row)

    floe=> commit;
    WARNING:  there is no transaction in progress
    COMMIT

MD
out=$(python3 tests/tools/doccheck.py "$FLOE_BIN" "$tmp/wrong.md" 2>&1)
if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q '^FAIL doc: .*wrong.md'; then
	echo "PASS doc: checker refuses a wrong shown output"
else
	echo "FAIL doc: checker accepted a wrong shown output"
fi
out=$(python3 tests/tools/doccheck.py "$FLOE_BIN" "$tmp/right.md" 2>&1)
if [ $? -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^PASS doc:')" = 1 ]; then
	echo "PASS doc: checker accepts a right shown output and skips a marked block"
else
	echo "FAIL doc: checker on a right doc: $out"
fi

python3 tests/tools/doccheck.py "$FLOE_BIN" README.md docs/*.md
