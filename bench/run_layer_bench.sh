#!/usr/bin/env bash
# The layer's host overhead: layer_bench (record + submit, 100 command buffers x 1000 dispatches)
# with no layer, with VK_LAYER_PREFLIGHT_validation, and with Vulkan-ValidationLayers (core, and
# core + synchronization validation) when installed, on the first Vulkan device (lavapipe here).
# Two workloads: the same descriptor set bound again before each dispatch (--sets 1) and 8 sets
# rotating so the bound state changes at every dispatch (--sets 8). Each configuration runs 3
# times; the median host ns per bind+bind+dispatch+barrier is printed with its ratio to no layer.
# Usage: bench/run_layer_bench.sh [BUILD_DIR] [layer_bench args]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$root/build}")
shift || true
bench="$build/bench/layer_bench"
[ -x "$bench" ] || { echo "run_layer_bench: $bench not built (scripts/build.sh $build)" >&2; exit 2; }
export VK_ADD_LAYER_PATH="$build/layer"
median() { sort -n | sed -n 2p; }
measure() { # measure LAYERS ENABLES args...
    local layers="$1" enables="$2"; shift 2
    for _ in 1 2 3; do
        VK_INSTANCE_LAYERS="$layers" VK_LAYER_ENABLES="$enables" "$bench" "$@" |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["ns_per_bind_bind_dispatch_barrier"])'
    done | median
}
have_vvl=false
[ -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] && have_vvl=true
for sets in 1 8; do
    none=$(measure "" "" --sets "$sets" "$@")
    line="sets=$sets, host ns per bind+bind+dispatch+barrier (ratio to no layer): none $none"
    ours=$(measure VK_LAYER_PREFLIGHT_validation "" --sets "$sets" "$@")
    line="$line; preflight $ours (x$(python3 -c "print(f'{$ours/$none:.2f}')"))"
    if $have_vvl; then
        core=$(measure VK_LAYER_KHRONOS_validation "" --sets "$sets" "$@")
        sync=$(measure VK_LAYER_KHRONOS_validation VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
            --sets "$sets" "$@")
        line="$line; VVL core $core (x$(python3 -c "print(f'{$core/$none:.2f}')")); VVL core+sync $sync (x$(python3 -c "print(f'{$sync/$none:.2f}')"))"
    fi
    echo "$line"
done
