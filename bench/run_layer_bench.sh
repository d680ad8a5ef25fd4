#!/usr/bin/env bash
# The layer's recording overhead: layer_bench without and with VK_LAYER_PREFLIGHT_validation, on
# the first Vulkan device (lavapipe here), each configuration run 3 times; prints each run's JSON
# and the median ns per bind+bind+dispatch with the ratio.
# Usage: bench/run_layer_bench.sh [BUILD_DIR] [layer_bench args]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$root/build}")
shift || true
bench="$build/bench/layer_bench"
[ -x "$bench" ] || { echo "run_layer_bench: $bench not built (scripts/build.sh $build)" >&2; exit 2; }
export VK_ADD_LAYER_PATH="$build/layer"
median() { sort -n | sed -n 2p; }
measure() {
    for _ in 1 2 3; do "$@" | tee /dev/stderr | python3 -c 'import json,sys; print(json.load(sys.stdin)["ns_per_bind_bind_dispatch"])'; done | median
}
for bindings in 3 2; do
    off=$(measure "$bench" --bindings "$bindings" "$@")
    on=$(VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation measure "$bench" --bindings "$bindings" "$@")
    python3 -c "print(f'bindings=$bindings: without layer {$off:.1f} ns, with layer {$on:.1f} ns per bind+bind+dispatch (x{$on/$off:.2f}, +{$on-$off:.1f} ns)')"
done
