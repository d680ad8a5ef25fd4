#!/usr/bin/env bash
# Two builds of the layer against each other and against no layer, on the first Vulkan device:
# layer_bench runs in turn (none, A, B) ROUNDS times, so that a machine getting busier or quieter
# moves all three alike; prints the medians of ns per bind+bind+dispatch+barrier and the median of
# each round's own ratio to no layer (adjacent runs, which a drifting machine moves less).
# Usage: [ROUNDS=N] bench/compare_layers.sh LAYER_DIR_A LAYER_DIR_B [layer_bench args]
#   e.g. bench/compare_layers.sh /tmp/base/build/layer build/layer --engine --buffers 20 \
#        --dispatches 2000 --bindings 2 --sets 64
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: [ROUNDS=N] $0 LAYER_DIR_A LAYER_DIR_B [layer_bench args]" >&2; exit 2; }
a=$(realpath "$1") b=$(realpath "$2")
shift 2
for d in "$a" "$b"; do
    [ -f "$d/VkLayer_preflight_validation.json" ] || { echo "compare_layers: no layer manifest in $d" >&2; exit 2; }
done
bench=${LAYER_BENCH:-$root/build/bench/layer_bench}
[ -x "$bench" ] || { echo "compare_layers: $bench not built (scripts/build.sh)" >&2; exit 2; }
rounds=${ROUNDS:-9}
case "$rounds" in '' | *[!0-9]* | 0) echo "compare_layers: ROUNDS must be a positive integer" >&2; exit 2 ;; esac
results=$(mktemp)
trap 'rm -f "$results"' EXIT
ns_of() { python3 -c 'import json,sys; print(json.load(sys.stdin)["ns_per_bind_bind_dispatch_barrier"])'; }
for round in $(seq "$rounds"); do
    echo "$round none $(VK_INSTANCE_LAYERS= "$bench" "$@" | ns_of)" >>"$results"
    echo "$round A $(VK_ADD_LAYER_PATH="$a" VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation "$bench" "$@" | ns_of)" >>"$results"
    echo "$round B $(VK_ADD_LAYER_PATH="$b" VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation "$bench" "$@" | ns_of)" >>"$results"
done
python3 - "$results" "$a" "$b" "$*" <<'PY'
import statistics, sys
path, a, b, args = sys.argv[1:5]
values, rounds = {}, {}
for line in open(path):
    r, name, ns = line.split()
    values.setdefault(name, []).append(float(ns))
    rounds.setdefault(r, {})[name] = float(ns)
none = statistics.median(values["none"])
print(f"layer_bench {args} ({len(rounds)} rounds): no layer {none:.1f} ns "
      f"(runs {min(values['none']):.1f}-{max(values['none']):.1f})")
for name, where in (("A", a), ("B", b)):
    median = statistics.median(values[name])
    per_round = statistics.median(d[name] / d["none"] for d in rounds.values())
    print(f"  {name} {where}: {median:.1f} ns, x{median / none:.2f} of the medians, x{per_round:.2f} per round")
PY
