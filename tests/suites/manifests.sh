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
#   cut_list       a manifest list cut at its Avro block boundary (the
#                  header only: a valid Avro file naming no manifest) read
#                  as an empty table before; now XX001 naming the list
#                  (its snapshot's summary records total-data-files and
#                  total-records: manifest_list_check_summary), and an
#                  INSERT does not commit on top of it
#   list_no_totals a snapshot summary without the (optional) totals: an
#                  intact list is not checked and reads its rows
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

for t in two one cut lstcut nototals; do
	q "CREATE TABLE $t (a int) PARTITIONED BY (a)" >/dev/null
done
q "INSERT INTO two VALUES (1), (2)" >/dev/null     # two data files, one manifest
q "INSERT INTO one VALUES (1)" >/dev/null
q "INSERT INTO cut VALUES (1), (2)" >/dev/null
for t in lstcut nototals; do
	q "INSERT INTO $t VALUES (1), (2)" >/dev/null
	q "INSERT INTO $t VALUES (3)" >/dev/null
done
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
# table $1's newest metadata file (by its sequence number) and the
# manifest list of its current snapshot
newest_md() {
	find "$W" -path "*/$1/metadata/*" -name '*.metadata.json' | sort | tail -1
}
current_list() {
	python3 -c 'import json, sys
md = json.load(open(sys.argv[1]))
print(next(s["manifest-list"] for s in md["snapshots"] if s["snapshot-id"] == md["current-snapshot-id"]))' "$(newest_md "$1")" | sed 's|^file://||'
}
lc=$(current_list lstcut)
if [ -n "$lc" ] && [ "$(q 'SELECT count(*) FROM lstcut')" = 3 ]; then
	# the header ends at the first copy of the sync marker (the file's last
	# 16 bytes); the file cut there is a valid Avro file of no records
	python3 - "$lc" <<'PY'
import sys
p = sys.argv[1]
d = open(p, 'rb').read()
open(p, 'wb').write(d[:d.find(d[-16:]) + 16])
PY
	out=$(q 'SELECT count(*) FROM lstcut')
	ins=$(q 'SET floe.insert_buffer_rows = 0; INSERT INTO lstcut VALUES (4)')
	if echo "$out" | grep -q "ERROR:  corrupt manifest list \".*$(basename "$lc")\": it lists 0 live data files, its snapshot's summary records 3" &&
	   echo "$ins" | grep -q 'ERROR:  corrupt manifest list'; then
		pass cut_list
	else
		fail cut_list "want XX001 naming $(basename "$lc"), got: $out / $ins"
	fi
else
	fail cut_list "no manifest list for lstcut under $W"
fi
mj=$(newest_md nototals)
if [ -n "$mj" ]; then
	python3 - "$mj" <<'PY'
import json, sys
p = sys.argv[1]
md = json.load(open(p))
for s in md['snapshots']:
    for k in list(s['summary']):
        if k.startswith('total-'):
            del s['summary'][k]
json.dump(md, open(p, 'w'))
PY
	out=$(q 'SELECT count(*) FROM nototals')
	if [ "$out" = 3 ] && ! grep -q '"total-' "$mj"; then
		pass list_no_totals
	else
		fail list_no_totals "want 3, got: $out"
	fi
fi
exit $rc
