#!/usr/bin/env bash
# The main job: set up, build, probe every Vulkan device of this machine (lavapipe where there
# is no GPU) and print the feature matrix. Reports land in ./reports-out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
mkdir -p "$root/reports-out"
report="$root/reports-out/preflight-report-$(hostname).json"
"$root/build/probes/preflight-probe" --all --out "$report" --pretty
# This machine's devices, beside the H200 example for contrast.
"$root/build/reports/preflight-report" matrix "$report" "$root/docs/examples/nvidia-h200.report.json"
