#!/usr/bin/env bash
# Runs on a farm machine with a bundle from bundle.sh: lists the devices, writes a report per
# run, the matching vulkaninfo --json and its comparison, and a run under Vulkan-ValidationLayers
# with synchronization validation. Usage: run-on-device.sh BUNDLE_DIR OUT_DIR NAME [probe args...]
set -u
bundle=$(realpath "${1:?bundle}")
out=${2:?out dir}
name=${3:?name}
shift 3
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
"$bundle/preflight-probe" --list
start=$(date +%s%N)
"$bundle/preflight-probe" --pretty --out "$out/$name.report.json" "$@" 2>"$out/$name.probe.log"
echo "probe exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
cat "$out/$name.probe.log"
"$bundle/vulkaninfo" --json=0 -o "$out/$name.vulkaninfo.json" >/dev/null 2>&1
python3 "$bundle/compare_vulkaninfo.py" "$out/$name.report.json" "$out/$name.vulkaninfo.json" >"$out/$name.vulkaninfo-compare.txt"
echo "vulkaninfo comparison exit $?:"; tail -3 "$out/$name.vulkaninfo-compare.txt"
VK_ADD_LAYER_PATH="$bundle/layers" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT VK_LOADER_DEBUG=layer \
    "$bundle/preflight-probe" --out "$out/$name.vvl.report.json" "$@" >"$out/$name.vvl.log" 2>&1
echo "under VVL: exit $?, layer loaded $(grep -c -i 'insert instance layer.*khronos_validation' "$out/$name.vvl.log") times," \
     "$(grep -c -E 'Validation (Error|Warning)|VUID-|SYNC-HAZARD' "$out/$name.vvl.log") validation messages"
grep -E 'Validation (Error|Warning)|VUID-|SYNC-HAZARD' "$out/$name.vvl.log" | head -5
