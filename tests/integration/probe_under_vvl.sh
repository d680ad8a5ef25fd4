#!/usr/bin/env bash
# Runs the probe and every smoke test under Vulkan-ValidationLayers with synchronization
# validation, and fails on any validation message. Also proves the layer was really loaded in
# the test processes (the loader's own log), so a silent run cannot pass by accident.
set -u
probe="$1"
out="$2"
log="$out.log"
VK_LOADER_DEBUG=layer \
VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
    "$probe" --out "$out" >"$log" 2>&1
status=$?
loaded=$(grep -c -i "insert instance layer.*VK_LAYER_KHRONOS_validation" "$log")
ran=$(grep -E "^  GPU[0-9]+ " "$log" | grep -v -c -E " (unsupported|skipped) ")
messages=$(grep -c -E "Validation (Error|Warning)|VUID-|SYNC-HAZARD" "$log")
grep -E "Validation (Error|Warning)|VUID-|SYNC-HAZARD" "$log" | head -20
echo "probe exit $status; validation layer loaded in $loaded processes; $ran smoke tests ran; $messages validation messages"
[ "$status" -eq 0 ] && [ "$loaded" -gt "$ran" ] && [ "$ran" -gt 0 ] && [ "$messages" -eq 0 ]
