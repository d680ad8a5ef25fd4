#!/usr/bin/env bash
# Runs the probe and every smoke test under Vulkan-ValidationLayers with synchronization
# validation, and fails on any validation message. Also proves the layer was really loaded in
# every test process (the loader's own log), so a silent run cannot pass by accident. One worker
# at a time (--jobs 1): the loader's log lines of concurrent processes can interleave mid-line in
# the one log file, which would make the count unreliable. Arguments after OUT go to the probe.
set -u
probe="$1"
out="$2"
shift 2
log="$out.log"
VK_LOADER_DEBUG=layer \
VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
    "$probe" --jobs 1 --out "$out" "$@" >"$log" 2>&1
status=$?
loaded=$(grep -c -i "insert instance layer.*VK_LAYER_KHRONOS_validation" "$log")
ran=$(grep -E "^  GPU[0-9]+ " "$log" | grep -v -c -E " (unsupported|skipped) ")
# the tests run in worker processes (a batch each): the probe's summary line says how many
workers=$(sed -n -E 's/^GPU[0-9]+: [0-9]+ smoke tests in ([0-9]+) worker processes.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
messages=$(grep -c -E "Validation (Error|Warning)|VUID-|SYNC-HAZARD" "$log")
grep -E "Validation (Error|Warning)|VUID-|SYNC-HAZARD" "$log" | head -20
echo "probe exit $status; validation layer loaded in $loaded processes (the probe and $workers workers);" \
     "$ran smoke tests ran; $messages validation messages"
[ "$status" -eq 0 ] && [ "$workers" -gt 0 ] && [ "$loaded" -eq $((workers + 1)) ] && [ "$ran" -gt 0 ] && [ "$messages" -eq 0 ]
