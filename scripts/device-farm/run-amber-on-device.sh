#!/usr/bin/env bash
# Runs on a farm machine with a bundle from bundle.sh, in a copy of this repository: the AmberScript
# examples (docs/examples/amber) through the probe on the machine's driver, with their PNG
# artifacts; the same files under Vulkan-ValidationLayers; the test corpus (tests/amber, whose
# folders say the verdicts lavapipe gives: a device with more features differs where a file
# needs what lavapipe lacks); and the faults (a crash and a lost device injected by the test build,
# a real hang) with the files around them; the files of docs/examples/amber-driver-bugs (bugs of
# other drivers: this one's verdicts, unchecked); and bench/amber_bench.py. Writes three files:
#   OUT/NAME.amber.report.json  the examples' report (keep it as docs/examples/NAME.amber.report.json)
#   OUT/NAME.amber.junit.xml    its JUnit
#   OUT/NAME.amber.console.txt  every step's output and checks
# Usage: run-amber-on-device.sh BUNDLE_DIR OUT_DIR NAME
# A bundle travels compressed (with the validation layers and spirv-opt it is ~60 MiB unpacked):
#   here:  scripts/device-farm/bundle.sh build /tmp/preflight-bundle probe && tar -C /tmp -czf .bundle.tgz preflight-bundle
#   there: tar -xzf .bundle.tgz -C /tmp && scripts/device-farm/run-amber-on-device.sh /tmp/preflight-bundle OUT NAME
set -u
bundle=$(realpath "${1:?bundle}")
out=${2:?out dir}
name=${3:?name}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
console="$out/$name.amber.console.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { echo "$*" | tee -a "$console"; }
: >"$console"

say "# the AmberScript examples on $name, code of $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
"$bundle/preflight-probe" --list | tee -a "$console"
start=$(date +%s%N)
"$bundle/preflight-probe" --amber "$root/docs/examples/amber" --tests 'amber.*' --artifacts "$work/artifacts" \
    --host-label "$name" --pretty --out "$out/$name.amber.report.json" 2>>"$console"
say "probe exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
python3 "$root/tests/integration/check_smoke.py" "$out/$name.amber.report.json" --group amber --others pass --evidence \
    >>"$console" 2>&1
say "every example passes: exit $?"
"$bundle/preflight-report" junit --out "$out/$name.amber.junit.xml" "$out/$name.amber.report.json" 2>>"$console"
"$bundle/preflight-report" matrix "$out/$name.amber.report.json" >>"$console" 2>&1
ls "$work/artifacts" 2>/dev/null | sed 's/^/artifact: /' | tee -a "$console"

say "# the examples under Vulkan-ValidationLayers (synchronization validation)"
VK_ADD_LAYER_PATH="$bundle/layers" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT VK_LOADER_DEBUG=layer \
    "$bundle/preflight-probe" --amber "$root/docs/examples/amber" "$root/tests/amber/pass" --tests 'amber.*' \
    --out "$work/vvl.json" >"$work/vvl.log" 2>&1
say "under VVL: exit $?, layer loaded $(grep -c -i 'insert instance layer.*khronos_validation' "$work/vvl.log") times," \
    "$(grep -c -E 'Validation (Error|Warning)|VUID-|SYNC-HAZARD' "$work/vvl.log") validation messages"
grep -E 'Validation (Error|Warning)|VUID-|SYNC-HAZARD' "$work/vvl.log" | head -5 | tee -a "$console"

say "# the test corpus (verdicts as on lavapipe; differences are where this device has more)"
start=$(date +%s%N)
"$bundle/preflight-probe" --amber "$root/tests/amber" --tests 'amber.*' --out "$work/corpus.json" 2>>"$console"
say "corpus probe exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
python3 "$root/tests/integration/check_amber.py" "$work/corpus.json" "$root/tests/amber" >>"$console" 2>&1
say "corpus check exit $?"

say "# faults: an injected crash and lost device, a real hang (--timeout 10), and the files around them"
if [ -x "$bundle/preflight-probe-faulty" ]; then
    PREFLIGHT_FAULT=amber.crash=crash,amber.lost=lost "$bundle/preflight-probe-faulty" --amber "$root/tests/amber-faults" \
        --tests 'amber.*' --timeout 10 --out "$work/faults.json" 2>>"$console"
    say "faulty probe exit $?"
    python3 "$root/tests/integration/check_smoke.py" "$work/faults.json" --expect amber.crash=crashed \
        --expect amber.lost=device_lost --expect amber.hang=timeout --group amber --others pass >>"$console" 2>&1
    say "fault verdicts: exit $?"
else
    say "no preflight-probe-faulty in the bundle (a build without tests): faults not run"
fi

say "# driver bugs found on other drivers (docs/examples/amber-driver-bugs): this driver's verdicts"
"$bundle/preflight-probe" --amber "$root/docs/examples/amber-driver-bugs" --tests 'amber.*' --out "$work/bugs.json" \
    2>&1 | grep -E '^  GPU[0-9]+ amber\.' | tee -a "$console"

say "# the cost per file: 200 small compute files beside the built-in tests (bench/amber_bench.py)"
python3 "$root/bench/amber_bench.py" "$bundle/preflight-probe" --runs 3 2>&1 | tee -a "$console"
