#!/usr/bin/env bash
# Runs on a farm machine with a bundle from bundle.sh: VK_LAYER_PREFLIGHT_validation on the real
# driver. Every layer_app scenario (the buggy ones must report, the correct ones stay silent), the
# probe's whole run through the layer (every smoke test is a correct program: no finding) and the
# recording benchmark without and with the layer.
# Usage: run-layer-on-device.sh BUNDLE_DIR OUT_DIR
set -u
bundle=$(realpath "${1:?bundle}")
out=${2:?out dir}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export VK_ADD_LAYER_PATH="$bundle/preflight-layer"
with_layer() { VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation "$@"; }
for s in clean group-count dispatch-base zero workgroup-size invocations shared-memory indirect indirect-gpu-written \
         alias-clean alias-buffer alias-memory alias-indirect alias-array alias-array-unreached alias-image \
         alias-image-mips alias-attachment attachment-clean binding-missing-set binding-unwritten binding-type \
         binding-usage hazard-raw hazard-raw-fixed hazard-war hazard-war-execution-only hazard-waw \
         hazard-insufficient hazard-disjoint hazard-event hazard-sync2 hazard-image-raw hazard-image-fixed \
         hazard-transition-war hazard-transition-fixed host-invalidate-early host-invalidate-after-wait; do
    with_layer timeout 120 "$bundle/layer_app" "$s" >"$out/layer-$s.txt" 2>&1
    echo "$s: exit $?, $(grep -c '^FINDING' "$out/layer-$s.txt") findings: $(grep -o '^FINDING [^ ]*' "$out/layer-$s.txt" | sort | uniq -c | tr '\n' ' ')"
done
with_layer timeout 120 "$bundle/layer_app" stress --threads 8 >"$out/layer-stress.txt" 2>&1
echo "stress: exit $?, $(grep 'recorded' "$out/layer-stress.txt"), $(grep -c '^FINDING' "$out/layer-stress.txt") findings"
VK_PREFLIGHT_VALIDATION_LOG_FILE="$out/probe-findings.jsonl" with_layer \
    "$bundle/preflight-probe" --out "$out/probe-under-layer.report.json" >"$out/probe-under-layer.log" 2>&1
echo "probe through the layer: exit $?, $(cat "$out/probe-findings.jsonl" 2>/dev/null | wc -l) findings"
head -c 2000 "$out/probe-findings.jsonl" 2>/dev/null
for bindings in 3 2; do
    for layer in off on; do
        for _ in 1 2 3; do
            if [ $layer = on ]; then with_layer "$bundle/layer_bench" --bindings $bindings; else "$bundle/layer_bench" --bindings $bindings; fi
        done | sed "s/^/bench layer=$layer: /"
    done
done
