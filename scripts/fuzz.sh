#!/usr/bin/env bash
# Runs every fuzz target in tests/fuzz coverage-guided, with clang's libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer, each for a bounded time. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]
# (default 45). Starts from tests/fuzz/corpus/<target> (and, for the reflection, the shaders the build
# compiles); the corpus grown here stays in build-fuzz/, not in the repository. A crash, a leak, a
# sanitizer report or an input that runs over 10 s fails the run: the input is copied to
# tests/fuzz/corpus/<target>/regression-<sha256> so that ctest's plain drivers replay it from then on
# (commit it with the fix).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-45}
build="$root/build-fuzz"
# Mesa and LLVM are not in these targets, so leaks are leaks.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
CC=clang cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPREFLIGHT_LIBFUZZER=ON \
    -DPREFLIGHT_SANITIZE=ON >/dev/null
targets=(fuzz_spirv_reflect fuzz_descriptor_writes fuzz_layer_settings fuzz_fleet_limits_read fuzz_report_reader fuzz_amber_parse)
ninja -C "$build" "${targets[@]}" >/dev/null

failed=0
for target in "${targets[@]}"; do
    name=${target#fuzz_}
    seeds="$root/tests/fuzz/corpus/$name"
    work="$build/fuzz-work/$name"
    mkdir -p "$work/corpus" "$work/crashes"
    extra=()
    [ "$name" = spirv_reflect ] && extra=("$build/smoke/spv" "$build/tests/layer_spv")
    echo "== $target: ${seconds}s from $(find "$seeds" "${extra[@]}" -type f | wc -l) seeds"
    if ! "$build/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
        -artifact_prefix="$work/crashes/" "$work/corpus" "$seeds" "${extra[@]}" >"$work/log" 2>&1; then
        failed=1
        tail -n 40 "$work/log"
        for crash in "$work"/crashes/*; do
            [ -f "$crash" ] || continue
            kept="$seeds/regression-$(sha256sum "$crash" | cut -c1-16)"
            cp "$crash" "$kept"
            echo "fuzz: $target failed; the input is kept as ${kept#"$root"/}"
        done
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/log" | tr '\n' ' '
    echo
done
exit $failed
