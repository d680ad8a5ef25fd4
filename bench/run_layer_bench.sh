#!/usr/bin/env bash
# The layer's host overhead: layer_bench (record + submit, 100 command buffers x 1000 dispatches)
# with no layer, with VK_LAYER_PREFLIGHT_validation, and with Vulkan-ValidationLayers (core, and
# core + synchronization validation) when installed, on the first Vulkan device (lavapipe here).
# Two workloads: the same descriptor set bound again before each dispatch (--sets 1) and 8 sets
# rotating so the bound state changes at every dispatch (--sets 8). The configurations run in turn,
# RUNS times (default 5), so that a machine getting busier or quieter shifts all of them alike; the
# median host ns per bind+bind+dispatch+barrier of each is printed with its ratio to no layer.
# Usage: [RUNS=N] [SETS="1 8"] bench/run_layer_bench.sh [BUILD_DIR] [layer_bench args]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$root/build}")
shift || true
bench="$build/bench/layer_bench"
[ -x "$bench" ] || { echo "run_layer_bench: $bench not built (scripts/build.sh $build)" >&2; exit 2; }
runs=${RUNS:-5}
case "$runs" in '' | *[!0-9]* | 0) echo "run_layer_bench: RUNS must be a positive integer" >&2; exit 2 ;; esac
export VK_ADD_LAYER_PATH="$build/layer"
sync_feature=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
# name|VK_INSTANCE_LAYERS|VK_LAYER_ENABLES
configs=("none||" "preflight|VK_LAYER_PREFLIGHT_validation|")
if [ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]; then
    configs+=("VVL core|VK_LAYER_KHRONOS_validation|" "VVL core+sync|VK_LAYER_KHRONOS_validation|$sync_feature")
fi
for sets in ${SETS:-1 8}; do
    results=$(mktemp)
    for _ in $(seq "$runs"); do
        for config in "${configs[@]}"; do
            IFS='|' read -r name layers enables <<<"$config"
            ns=$(VK_INSTANCE_LAYERS="$layers" VK_LAYER_ENABLES="$enables" "$bench" --sets "$sets" "$@" |
                python3 -c 'import json,sys; print(json.load(sys.stdin)["ns_per_bind_bind_dispatch_barrier"])')
            echo "$name|$ns" >>"$results"
        done
    done
    python3 - "$results" "$sets" "$runs" <<'PY'
import statistics, sys
path, sets, runs = sys.argv[1], sys.argv[2], sys.argv[3]
values = {}
for line in open(path):
    name, ns = line.rstrip("\n").split("|")
    values.setdefault(name, []).append(float(ns))
median = {name: statistics.median(v) for name, v in values.items()}
none = median["none"]
parts = [f"none {none:.1f}"]
for name in values:
    if name != "none":
        parts.append(f"{name} {median[name]:.1f} (x{median[name] / none:.2f})")
line = f"sets={sets}, median of {runs} runs, host ns per bind+bind+dispatch+barrier (ratio to no layer): " + "; ".join(parts)
if "VVL core+sync" in median:
    line += f"; VVL core+sync / preflight = {median['VVL core+sync'] / median['preflight']:.1f}"
print(line)
PY
    rm -f "$results"
done
