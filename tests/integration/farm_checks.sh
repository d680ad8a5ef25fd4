#!/usr/bin/env bash
# preflight-farm-run proves it checked (issue 43 item 5), with the real probe on lavapipe and the
# real layer: --machine fails a run whose devices are not the configured ones (lavapipe standing in
# for an NVIDIA GPU, a CPU device where any GPU is expected, a Mesa other than pinned) and passes
# the configuration that names lavapipe; a malformed configuration is bad usage with its line.
# --layer-control: the positive control with the layer loaded, not loaded and with disable=* (from
# the environment and from vk_layer_settings.txt): green, red, red, red. run.json and
# junit-run.xml record the checks, the versions and the layer's settings.
# Usage: farm_checks.sh PREFLIGHT_PROBE PREFLIGHT_REPORT PREFLIGHT_LAYER_CONTROL LAYER_DIR
set -u
runner=$(realpath "$(dirname "$0")/../../scripts/preflight-farm-run")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin # the tools in one folder, as installed (PREFLIGHT_BIN)
mkdir "$bin" && ln -s "$(realpath "$1")" "$(realpath "$2")" "$(realpath "$3")" "$bin/"
export PREFLIGHT_BIN=$bin VK_ADD_LAYER_PATH
VK_ADD_LAYER_PATH=$(realpath "$4")
unset VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE VK_LAYER_SETTINGS_PATH
failures=0
check() {
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else
        echo "FAIL $name"; failures=$((failures + 1)); sed 's/^/     | /' "$work/out" | tail -12
    fi
}
# a quick run: the declared capabilities only
farm() { (cd "$work" && "$runner" --out "$work/runs" --host-label farm-check-01 --no-artifacts --probe-arg --no-smoke "$@") >"$work/out" 2>&1; echo $?; }
says() { grep -q -- "$1" "$work/out"; }
latest=$work/runs/latest
json() { python3 -c "import json, sys; r = json.load(open('$latest/run.json')); sys.exit(0 if ($1) else 1)"; }

# --machine: lavapipe standing in for the configured GPU
printf '# farm-check-01: one H200, the pinned driver\ndevice vendor=nvidia device="NVIDIA H200" driver=580.159.04\n' >"$work/h200.txt"
rc=$(farm --machine "$work/h200.txt")
check "lavapipe where an NVIDIA H200 is configured: the run fails, 128 ($rc)" [ "$rc" = 128 ]
check "... saying the GPU is missing" says 'line 2 (device vendor=nvidia device="NVIDIA H200" driver=580.159.04): missing'
check "... and that llvmpipe is not a device of this machine" says 'device 0 "llvmpipe (LLVM [^"]*)" (cpu, llvmpipe Mesa [0-9.]*, vendor 0x10005 device 0x0000) is not one this machine is configured to have'
check "... the report is still written, checked in machine.txt" grep -q "DIFFERENT DEVICES" "$latest/machine.txt"
check "... junit-run.xml holds the failing test case machine.devices" python3 -c "
import sys, xml.etree.ElementTree as ET
case = ET.parse('$latest/junit-run.xml').getroot().find('.//testcase[@name=\"machine.devices\"]')
sys.exit(0 if case is not None and 'missing' in case.find('failure').get('message') else 1)"
check "... run.json records the failed check, the probe's version and the exit" \
    json "r['exit'] == 128 and r['probe'].startswith('preflight-probe ') and r['checks'][0]['name'] == 'machine.devices' and r['checks'][0]['status'] == 'fail'"
printf 'device\n' >"$work/any-gpu.txt"
rc=$(farm --machine "$work/any-gpu.txt")
check "a GPU expected (no type given), lavapipe found: 128 ($rc)" [ "$rc" = 128 ]
check "... lavapipe is not of the type expected" says 'line 1 (device): device 0 "llvmpipe.*is not of the type expected (a GPU, not cpu)'
printf 'device type=cpu driver_name=llvmpipe driver="Mesa 1.0"\n' >"$work/pinned.txt"
rc=$(farm --machine "$work/pinned.txt")
check "lavapipe with a Mesa other than pinned: 128 ($rc)" [ "$rc" = 128 ]
check "... says the driver differs" says 'has another driver than pinned'
printf 'device type=cpu vendor=mesa driver_name=llvmpipe driver="Mesa 20.0.."\noptional type=discrete\n' >"$work/lavapipe.txt"
rc=$(farm --machine "$work/lavapipe.txt")
check "a configuration that names lavapipe passes: 0 ($rc)" [ "$rc" = 0 ]
check "... machine.txt lists the device found" grep -q 'found:     line 1: device 0 "llvmpipe' "$latest/machine.txt"
printf 'device vendor=nvidia\ndevice colour=green\n' >"$work/malformed.txt"
rc=$(farm --machine "$work/malformed.txt")
check "a malformed configuration: bad usage before the probe, 64 ($rc)" [ "$rc" = 64 ]
check "... with its line" says "line 2: 'colour=green' is not KEY=VALUE"
rc=$(farm --machine "$work/no-such-file.txt")
check "a missing configuration: 64 ($rc)" [ "$rc" = 64 ]

# --layer-control: green with the layer loaded, red not loaded or with disable=*
rc=$(VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation farm --layer-control)
check "the positive control with the layer loaded: 0 ($rc)" [ "$rc" = 0 ]
check "... the layer reported the known hazard" grep -q "^message: PREFLIGHT-hazard-read-after-write" "$latest/layer-control.txt"
check "... run.json records the passed control and the layer's environment" \
    json "r['checks'][0] == dict(r['checks'][0], name='layer.control', status='pass') and r['layerEnvironment']['VK_INSTANCE_LAYERS'] == 'VK_LAYER_PREFLIGHT_validation' and 'known to the loader: implementation' in r['checks'][0]['output']"
rc=$(farm --layer-control)
check "the positive control with the layer not loaded: 128 ($rc)" [ "$rc" = 128 ]
check "... says the hazard was not reported" says "layer control: FAILED: the known hazard was not reported"
rc=$(VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation VK_PREFLIGHT_VALIDATION_DISABLE='*' farm --layer-control)
check "the positive control with disable=* in the environment: 128 ($rc)" [ "$rc" = 128 ]
check "... run.json records the setting" json "r['layerEnvironment'].get('VK_PREFLIGHT_VALIDATION_DISABLE') == '*' and r['checks'][0]['status'] == 'fail'"
check "... junit-run.xml holds the failing test case layer.control" grep -q '<testcase classname="farm" name="layer.control">' "$latest/junit-run.xml"
printf 'preflight_validation.disable = *\n' >"$work/vk_layer_settings.txt"
rc=$(VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation farm --layer-control)
check "the positive control with disable = * in vk_layer_settings.txt: 128 ($rc)" [ "$rc" = 128 ]
check "... run.json records the settings file's lines" json "r['layerSettingsFile']['lines'] == ['preflight_validation.disable = *']"
rm "$work/vk_layer_settings.txt"
rc=$(VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation farm --layer-control --machine "$work/h200.txt")
check "both checks: the control passes, the devices differ: 128 ($rc)" [ "$rc" = 128 ]
check "... junit-run.xml: 2 test cases, 1 failure" grep -q 'tests="2" failures="1"' "$latest/junit-run.xml"
[ "$failures" -eq 0 ]
