#!/usr/bin/env bash
# Manifests checked against their manifest list (table/manifest.h
# manifest_check_listed, issue 13 item 12).  An Avro file cut at a block
# boundary decodes cleanly without its last blocks, so a manifest that lost
# entries reads as valid unless the list's record of it is checked:
#   lost_entries   a manifest of two data files replaced by a valid
#                  manifest of one (the same table layout): XX001 naming the
#                  manifest ("1 added entries, its manifest list records
#                  2"), where the read returned one row of two before
#   cut_manifest   the manifest cut short (its first bytes only): XX001
#   intact         untouched tables read their rows; iceberg-validate
#                  --deep (a reader nobody here wrote) agrees they are valid
# Prints "PASS manifests: name" / "FAIL manifests: name: why".
cd "${FLOE_ROOT:-$(dirname "$0")/../..}" || exit 1
FLOE_BIN=${FLOE_BIN:-$PWD/build-san/floe}
SHARED=${FLOE_SHARED:-$(cd ../shared && pwd)}
TOOLS=$SHARED/tools/interop/bin
tmp=$(mktemp -d /tmp/floe-manifests.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
W=$tmp/wh
rc=0
pass() { echo "PASS manifests: $1"; }
fail() { echo "FAIL manifests: $1: $2"; rc=1; }
q() { "$FLOE_BIN" -D "$W" -q -A -t -F, -c "$1" 2>&1; }

# the manifest (not the manifest list) of table $1's only snapshot
manifest_of() {
	find "$W" -path "*$1*" -name '*.avro' ! -name 'snap-*' | head -1
}

for t in two one cut; do
	q "CREATE TABLE $t (a int) PARTITIONED BY (a)" >/dev/null
done
q "INSERT INTO two VALUES (1), (2)" >/dev/null     # two data files, one manifest
q "INSERT INTO one VALUES (1)" >/dev/null
q "INSERT INTO cut VALUES (1), (2)" >/dev/null
if [ "$(q 'SELECT count(*) FROM two')" = 2 ] && [ "$(q 'SELECT count(*) FROM cut')" = 2 ]; then
	pass intact
else
	fail intact "$(q 'SELECT count(*) FROM two')"
fi
if [ -x "$TOOLS/iceberg-validate" ]; then
	for t in two one; do
		d=$(dirname "$(dirname "$(manifest_of /$t)")")
		if out=$("$TOOLS/iceberg-validate" --deep "$d" 2>&1); then
			pass "validate_$t"
		else
			fail "validate_$t" "$(echo "$out" | tail -3)"
		fi
	done
fi

m2=$(manifest_of /two); m1=$(manifest_of /one)
if [ -z "$m2" ] || [ -z "$m1" ]; then
	fail lost_entries "no manifests found under $W"
else
	cp "$m1" "$m2"
	out=$(q 'SELECT count(*) FROM two')
	if echo "$out" | grep -q 'ERROR:  corrupt manifest ".*'"$(basename "$m2")"'": .*its manifest list records'; then
		pass lost_entries
	else
		fail lost_entries "want XX001 naming $(basename "$m2"), got: $out"
	fi
fi
mc=$(manifest_of /cut)
if [ -n "$mc" ]; then
	head -c $(($(stat -c %s "$mc") - 40)) "$mc" >"$tmp/cut.avro" && cp "$tmp/cut.avro" "$mc"
	out=$(q 'SELECT count(*) FROM cut')
	if echo "$out" | grep -q 'ERROR:  .*corrupt\|ERROR:  .*Avro file'; then
		pass cut_manifest
	else
		fail cut_manifest "want an XX001, got: $out"
	fi
fi
exit $rc
