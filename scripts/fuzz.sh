#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Fuzzes the library with libFuzzer and AddressSanitizer (leaks included).
# Usage: scripts/fuzz.sh [SECONDS per target, default 60] [TARGET...]
# Targets: decode downsample processor exif disk-cache, and one per format with a decoder of
# its own: decode-apng decode-heic decode-avif decode-jxl decode-tiff decode-bmp decode-ico
# decode-svg (default: all).
# Exits non-zero when any target crashes, leaks, times out (10 s per input) or exceeds 3 GB;
# the input that did it is saved as Fuzz/findings/TARGET-crash-... (or leak-, timeout-, oom-).
# The growing corpus is kept in .build/fuzz-corpus/TARGET; seeds come from the test fixtures.
# A finding, once fixed, goes into Tests/Fixtures/fuzz/TARGET/ so the test suite
# replays it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(decode downsample processor exif disk-cache
             decode-apng decode-heic decode-avif decode-jxl decode-tiff decode-bmp decode-ico decode-svg)
fi

scripts/install-deps.sh python3
scratch=.build/fuzz
echo "Building kf-fuzz with -sanitize=fuzzer,address (first build takes several minutes)..."
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld --scratch-path "$scratch")
scripts/logged-build.sh .build/fuzz-logs/build.log --product kf-fuzz "${flags[@]}"
binary="$(swift build "${flags[@]}" --show-bin-path)/kf-fuzz"

seeds=.build/fuzz-seeds
python3 scripts/make_fuzz_seeds.py Tests/Fixtures Fuzz/processor-seeds.txt "$seeds"
mkdir -p Fuzz/findings

failed=()
summary=()
for target in "${targets[@]}"; do
    corpus=".build/fuzz-corpus/$target"
    log=".build/fuzz-logs/$target.log"
    mkdir -p "$corpus"
    regressions="Tests/Fixtures/fuzz/$target"
    extra=()
    if [ -d "$regressions" ]; then extra+=("$regressions"); fi
    echo "Fuzzing $target for $seconds s (log: $log)"
    status=0
    # Swift's own crash backtracer is off: it reads the crashed process's memory, which
    # AddressSanitizer then reports in place of the real failure. Fuzz/lsan-suppressions.txt says
    # which leak reports are false (libdispatch's continuation cache).
    KF_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" \
        LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt:${LSAN_OPTIONS:-}" "$binary" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="Fuzz/findings/$target-" "$corpus" "$seeds/$target" "${extra[@]}" >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1 || echo "cov: ?")
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        summary+=("$target: FAILED (exit $status) after $runs runs, $coverage; see $log and Fuzz/findings/")
        grep -E "^==[0-9]+==ERROR|SUMMARY|Test unit written|Fatal error|Assertion" "$log" | head -n 8 || true
    else
        summary+=("$target: $runs runs, $coverage, corpus $(find "$corpus" -type f | wc -l) inputs, no finding")
    fi
done

echo
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz: findings in ${failed[*]}" >&2
    exit 1
fi
