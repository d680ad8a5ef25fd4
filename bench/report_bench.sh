#!/usr/bin/env bash
# preflight-report over fleets: matrix (JSON), gate and fleet-limits over N reports, N from
# $SIZES (default "1000 10000"), each report the lavapipe fixture (311 KB, linked N times, so the
# disk holds one copy); prints wall seconds and peak resident memory (GNU time) per command and N,
# and the cost per report, to show both grow linearly.
# Usage: [SIZES="1000 10000"] bench/report_bench.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$root/build}")
tool="$build/reports/preflight-report"
[ -x "$tool" ] || { echo "report_bench: $tool not built (scripts/build.sh $build)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "report_bench: needs GNU time (apt-get install time)" >&2; exit 2; }
report="$root/tests/fixtures/probe-lavapipe.report.json"
gate="$root/tests/fixtures/release-gate.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-13s %7s %9s %10s %12s %13s\n' command reports seconds "peak MiB" "ms/report" "KiB/report"
for n in ${SIZES:-1000 10000}; do
    mkdir -p "$work/$n"
    for i in $(seq 1 "$n"); do ln -s "$report" "$work/$n/r$i.json"; done
    for command in matrix gate fleet-limits; do
        case $command in
        matrix) args=(matrix --format json --out /dev/null) ;;
        gate) args=(gate "$gate") ;;
        fleet-limits) args=(fleet-limits --out /dev/null) ;;
        esac
        /usr/bin/time -f "%e %M" -o "$work/time" "$tool" "${args[@]}" "$work/$n"/r*.json >/dev/null 2>&1 || true
        read -r seconds kib <"$work/time"
        awk -v c="$command" -v n="$n" -v s="$seconds" -v k="$kib" \
            'BEGIN { printf "%-13s %7d %9.2f %10.0f %12.2f %13.0f\n", c, n, s, k / 1024, s * 1000 / n, k / n }'
    done
    rm -rf "$work/$n"
done
