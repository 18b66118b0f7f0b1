#!/usr/bin/env bash
# Fuzz suite: builds the fuzz targets (make fuzz, fuzz/fuzz.mk), then for each
# fuzz/fuzz_<target>.c:
#   1. replays fuzz/corpus/<target>/ through build-san/fuzz/replay_<target>
#      (gcc + ASan + UBSan, no libFuzzer)          -> PASS/FAIL fuzz-replay <target>
#   2. runs build-fuzz/fuzz_<target> (libFuzzer) for $FUZZ_SECONDS (20) seconds
#      from that corpus                             -> PASS/FAIL fuzz <target>
# A crash, leak, timeout (>10 s per input) or OOM (>2 GB) is a FAIL naming the
# reproducer, kept under build-fuzz/artifacts/<target>/; replay it with
#   build-san/fuzz/replay_<target> FILE
# New inputs found during the run go to a scratch folder, not to the corpus.
# Targets expected but not written yet are noted and skipped, not failed.
cd "$FLOE_ROOT" || exit 1
SECONDS_PER_TARGET=${FUZZ_SECONDS:-20}
EXPECTED_TARGETS="parquet_read avro_read metadata_json"

log=$(mktemp)
if ! make -s -j"${JOBS:-2}" fuzz >"$log" 2>&1; then
	echo "FAIL fuzz-build: make fuzz failed"
	tail -30 "$log" | sed 's/^/    /'
	rm -f "$log"
	exit 1
fi
rm -f "$log"

for t in $EXPECTED_TARGETS; do
	[ -f "fuzz/fuzz_$t.c" ] || echo "fuzz: skipping $t (fuzz/fuzz_$t.c not written yet)"
done

rc=0
for src in fuzz/fuzz_*.c; do
	[ -f "$src" ] || continue
	t=$(basename "$src" .c)
	t=${t#fuzz_}
	corpus=fuzz/corpus/$t
	[ -d "$corpus" ] || corpus=""

	# 1. replay the seed corpus under gcc's sanitizers
	if [ -n "$corpus" ]; then
		out=$(mktemp)
		{ timeout -k 5 300 "build-san/fuzz/replay_$t" "$corpus" >"$out" 2>&1; } 2>/dev/null
		st=$?
		if [ $st -eq 0 ]; then
			echo "PASS fuzz-replay $t ($(sed -n 's/^replayed //p' "$out"))"
		else
			last=$(grep '^replay: ' "$out" | tail -1 | sed 's/^replay: //')
			echo "FAIL fuzz-replay $t: exit status $st on $last"
			grep -v '^replay: ' "$out" | grep -m1 -A12 'ERROR\|runtime error' | sed 's/^/    /'
			rc=1
		fi
		rm -f "$out"
	else
		echo "fuzz: $t has no seed corpus (fuzz/corpus/$t/)"
	fi

	# 2. libFuzzer for a short while
	art=build-fuzz/artifacts/$t
	mkdir -p "$art"
	work=$(mktemp -d)
	out=$(mktemp)
	timeout -k 10 $((SECONDS_PER_TARGET + 120)) "build-fuzz/fuzz_$t" \
		-max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$art/" "$work" ${corpus:+"$corpus"} >"$out" 2>&1
	st=$?
	if [ $st -eq 0 ]; then
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out")
		echo "PASS fuzz $t (${SECONDS_PER_TARGET}s, ${execs:-?} runs)"
	else
		repro=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$out" | tail -1)
		kind=$(grep -o -m1 'ERROR: libFuzzer: [a-z-]*\|ERROR: AddressSanitizer: [a-z-]*\|runtime error\|ERROR: LeakSanitizer' "$out")
		echo "FAIL fuzz $t: ${kind:-exit status $st}; reproducer ${repro:-none} (build-san/fuzz/replay_$t ${repro:-FILE})"
		grep -m1 -A15 '^==[0-9]*==ERROR\|runtime error\|ERROR: libFuzzer' "$out" | sed 's/^/    /'
		rc=1
	fi
	rm -rf "$work" "$out"
done
exit $rc
