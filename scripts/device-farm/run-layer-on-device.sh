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
         robust-ignored-pointers alias-clean alias-buffer alias-rotating-sets alias-memory alias-indirect alias-array alias-array-unreached alias-image \
         alias-image-mips alias-attachment attachment-clean binding-missing-set binding-unwritten binding-type \
         binding-usage hazard-raw hazard-raw-fixed hazard-war hazard-war-execution-only hazard-waw hazard-copy2 \
         hazard-insufficient hazard-disjoint hazard-event hazard-event2 hazard-event2-raw hazard-sync2 \
         hazard-waw-read-barrier hazard-waw-exec-barrier \
         hazard-image-raw hazard-image-fixed hazard-mipchain hazard-mipchain-raw hazard-depth-passes \
         hazard-depth-passes-waw hazard-rendering-memory-access \
         hazard-transition-war hazard-transition-fixed hazard-copy-image2 hazard-readback-waw hazard-readback-disjoint \
         hazard-rendering-raw hazard-rendering-fixed hazard-renderpass-raw hazard-renderpass-fixed \
         hazard-subpass-raw hazard-subpass-fixed hazard-input-attachment hazard-input-attachment-raw \
         hazard-secondary-raw hazard-secondary-fixed \
         hazard-submit-raw hazard-submit-fixed hazard-submit-separate hazard-submit-semaphore hazard-submit-timeline \
         hazard-submit-fence hazard-cross-queue hazard-cross-queue-semaphore hazard-cross-queue-stage host-invalidate-early \
         host-invalidate-after-wait host-read-no-barrier host-flush-pending host-flush-before-submit \
         host-map-early host-map-after-wait host-ring-whole-range \
         alias-in-place hazard-runtime-index hazard-runtime-index-fixed hazard-transitions-ordered hazard-3d-slices \
         hazard-3d-slices-overlap hazard-top-of-pipe-wait hazard-top-of-pipe-wait-fixed hazard-sampled-after-pass \
         hazard-sampled-after-pass-fixed hazard-vertex-scope hazard-vertex-scope-fixed hazard-load-without-read \
         hazard-load-without-read-fixed hazard-clear-blit-waw hazard-clear-blit-fixed hazard-timeline-reach \
         host-readback-persistent host-readback-persistent-fixed swapchain-present-war swapchain-present-fixed \
         host-wait-through-semaphore host-wait-through-semaphore-no-barrier lifetime-counter-read-fixed; do
    with_layer timeout 120 "$bundle/layer_app" "$s" >"$out/layer-$s.txt" 2>&1
    echo "$s: exit $?, $(grep -c '^FINDING' "$out/layer-$s.txt") findings: $(grep -o '^FINDING [^ ]*' "$out/layer-$s.txt" | sort | uniq -c | tr '\n' ' ')"
done
# its bug would make the driver write a destroyed buffer: the layer stops the program at the finding
VK_PREFLIGHT_VALIDATION_ACTION=abort with_layer timeout 120 "$bundle/layer_app" lifetime-counter-read-early \
    >"$out/layer-lifetime-counter-read-early.txt" 2>&1
echo "lifetime-counter-read-early (action = abort): exit $?, $(grep -o '^FINDING [^ ]*' "$out/layer-lifetime-counter-read-early.txt" | sort | uniq -c | tr '\n' ' ')"
with_layer timeout 300 "$bundle/layer_app" soak >"$out/layer-soak.txt" 2>&1
echo "soak: exit $?, $(grep '^soak:' "$out/layer-soak.txt"), $(grep -c '^FINDING' "$out/layer-soak.txt") findings"
with_layer timeout 120 "$bundle/layer_app" stress --threads 8 >"$out/layer-stress.txt" 2>&1
echo "stress: exit $?, $(grep 'recorded' "$out/layer-stress.txt"), $(grep -c '^FINDING' "$out/layer-stress.txt") findings"
VK_PREFLIGHT_VALIDATION_LOG_FILE="$out/probe-findings.jsonl" with_layer \
    "$bundle/preflight-probe" --out "$out/probe-under-layer.report.json" >"$out/probe-under-layer.log" 2>&1
echo "probe through the layer: exit $?, $(cat "$out/probe-findings.jsonl" 2>/dev/null | wc -l) findings"
head -c 2000 "$out/probe-findings.jsonl" 2>/dev/null
# the engine-shaped workload (pipeline and push constants once per command buffer, 20 x 2000 set
# binds, dispatches and barriers; 1 and 64 sets), no layer and preflight in turn, seven times
for sets in 1 64; do
    for _ in 1 2 3 4 5 6 7; do
        "$bundle/layer_bench" --engine --buffers 20 --dispatches 2000 --bindings 2 --sets $sets | sed "s/^/engine layer=off: /"
        with_layer "$bundle/layer_bench" --engine --buffers 20 --dispatches 2000 --bindings 2 --sets $sets |
            sed "s/^/engine layer=on: /"
    done
done
# the benchmark: no layer, preflight, Vulkan-ValidationLayers core and core + synchronization,
# in turn five times (a shared machine's load then shifts all of them alike)
export VK_ADD_LAYER_PATH="$bundle/preflight-layer:$bundle/layers"
for sets in 1 8; do
    for _ in 1 2 3 4 5; do
        for layer in off on vvl vvl-sync; do
            case $layer in
                off) "$bundle/layer_bench" --sets $sets ;;
                on) with_layer "$bundle/layer_bench" --sets $sets ;;
                vvl) VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$bundle/layer_bench" --sets $sets ;;
                vvl-sync) VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
                    VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
                    "$bundle/layer_bench" --sets $sets ;;
            esac | sed "s/^/bench layer=$layer: /"
        done
    done
done
