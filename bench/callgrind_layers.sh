#!/usr/bin/env bash
# Instructions two builds of the layer spend in the calls named, counted by callgrind (repeatable
# whatever else the machine runs): layer_bench through each layer (and through none, for the
# driver's own share), one shape per line of SHAPES. Prints a table: shape, no layer, A, B, B - A.
# Usage: [CALLS='vkCmd*'] [SHAPES_FILE=F] bench/callgrind_layers.sh LAYER_DIR_A LAYER_DIR_B
#   SHAPES_FILE: one layer_bench argument list per line (default: the recording shapes of
#   docs/benchmarks.md: --record-only with 1 and 8 sets, the engine shape with 1 and 64 sets)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: $0 LAYER_DIR_A LAYER_DIR_B" >&2; exit 2; }
a=$(realpath "$1") b=$(realpath "$2")
for d in "$a" "$b"; do
    [ -f "$d/VkLayer_preflight_validation.json" ] || { echo "callgrind_layers: no layer manifest in $d" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "callgrind_layers: valgrind is not installed" >&2; exit 2; }
bench=${LAYER_BENCH:-$root/build/bench/layer_bench}
[ -x "$bench" ] || { echo "callgrind_layers: $bench not built (scripts/build.sh)" >&2; exit 2; }
calls=${CALLS:-vkCmd*}
shapes=$(mktemp) work=$(mktemp -d)
trap 'rm -rf "$shapes" "$work"' EXIT
if [ -n "${SHAPES_FILE:-}" ]; then cp "$SHAPES_FILE" "$shapes"; else
    cat >"$shapes" <<'SHAPES'
--record-only --sets 1 --buffers 20
--record-only --sets 8 --buffers 20
--record-only --engine --buffers 20 --dispatches 2000 --bindings 2 --sets 1
--record-only --engine --buffers 20 --dispatches 2000 --bindings 2 --sets 64
SHAPES
fi
count() { # count LAYER_DIR|none ARGS...: instructions in $calls
    local layer=$1
    shift
    local env=(LP_NUM_THREADS=0 VK_INSTANCE_LAYERS=)
    [ "$layer" = none ] || env=(LP_NUM_THREADS=0 VK_ADD_LAYER_PATH="$layer" VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation)
    env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file="$work/out" --toggle-collect="$calls" \
        "$bench" "$@" >/dev/null 2>&1
    callgrind_annotate "$work/out" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,
}
printf '| shape | no layer | A | B | B - A |\n|---|---|---|---|---|\n'
while read -r line; do
    [ -n "$line" ] || continue
    # shellcheck disable=SC2086
    n=$(count none $line) x=$(count "$a" $line) y=$(count "$b" $line)
    python3 -c 'import sys; n,x,y=map(int,sys.argv[2:5]); print(f"| `{sys.argv[1]}` | {n/1e6:.2f} M | {x/1e6:.2f} M | {y/1e6:.2f} M | {(y-x)/1e6:+.2f} M ({(y-x)/x*100:+.2f} %) |")' "$line" "$n" "$x" "$y"
done <"$shapes"
