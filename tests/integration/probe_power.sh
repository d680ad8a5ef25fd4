#!/usr/bin/env bash
# The power signal on the real driver (lavapipe) through the real probe. Without a sensor (lavapipe
# has no PCI address and CI no NVIDIA driver) every test that times passes says why power was not
# measured. With the fake NVML library (tests/unit/fake_nvml.c, loaded through the probe's own
# dlopen path, matching lavapipe by UUID) the mesh and ray tests repeat their passes on the device
# and report energy for baseline and feature; the report still validates; --no-power, a stalled
# counter, a lost GPU and a spent budget each give a reason and no number; bad values are usage
# errors. Under Vulkan-ValidationLayers the repeated batches raise no message.
# Usage: probe_power.sh PREFLIGHT_PROBE FAKE_NVML_LIBRARY SCHEMA [PYTHON3 (with jsonschema)]
set -u
probe=$(realpath "$1")
fake=$(realpath "$2")
schema=$(realpath "$3")
python=${4:-python3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME COMMAND...: one line per assertion
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
# power_of REPORT: one line per test that records signals: id, measured, source or reason
power_of() {
    python3 - "$1" <<'PY'
import json, sys
for d in json.load(open(sys.argv[1]))["devices"]:
    for t in d["smoke"]:
        s = t["evidence"].get("signals")
        if s:
            p = s["power"]
            print(t["id"], p["measured"], p.get("source") or p.get("reason"))
PY
}
tests="mesh_shader.*,ray_*"

"$probe" --tests "$tests" --out "$work/none.json" 2>"$work/none.log"
check "without a sensor: the probe writes its report" test $? -eq 0
power_of "$work/none.json" >"$work/none.txt"
cat "$work/none.txt"
check "without a sensor: six tests, none measured, each says NVML and hwmon found nothing for lavapipe" python3 - "$work/none.json" <<'PY'
import json, sys
tests = [t for t in json.load(open(sys.argv[1]))["devices"][0]["smoke"] if "signals" in t["evidence"]]
ok = len(tests) == 6
for t in tests:
    e = t["evidence"]
    p = e["signals"]["power"]
    ok &= p["measured"] is False and "power" not in e and "source" not in p
    ok &= p["reason"].startswith("no power sensor for this device: NVML")
    ok &= "hwmon: the device has no PCI address (VK_EXT_pci_bus_info not exposed" in p["reason"]
    ok &= e["signals_collected"] == 1 + sum(e["signals"][k] is True for k in ("readback", "artifacts", "counters", "timing"))
sys.exit(0 if ok else 1)
PY

export PREFLIGHT_NVML_LIBRARY="$fake" FAKE_NVML_UUID=any FAKE_NVML_PERIOD_MS=20 FAKE_NVML_WATTS=250
# lavapipe's "GPU" is the CPU: one thread of it leaves a core of a small machine to the sampler
export LP_NUM_THREADS=1
start=$(date +%s%N)
"$probe" --tests "$tests" --out "$work/fake.json" 2>"$work/fake.log"
status=$?
echo "with the fake NVML: $(( ($(date +%s%N) - start) / 1000000 )) ms"
check "with the fake NVML: the probe writes its report" test "$status" -eq 0
power_of "$work/fake.json"
check "with the fake NVML: the report validates against the schema" \
    "$python" "$here/validate_report.py" "$schema" "$work/fake.json"
check "with the fake NVML: baseline and feature energy per test, from the counter, matched by UUID" python3 - "$work/fake.json" <<'PY'
import json, sys
tests = {t["id"]: t for t in json.load(open(sys.argv[1]))["devices"][0]["smoke"] if "signals" in t["evidence"]}
measured = 0
ok = len(tests) == 6
for id, t in tests.items():
    e = t["evidence"]
    p = e["signals"]["power"]
    counted = 1 + sum(e["signals"][k] is True for k in ("readback", "artifacts", "counters", "timing"))
    if not p["measured"]:
        # the one failure a loaded machine may cause: the probe was not scheduled often enough to time samples
        ok &= "not scheduled often enough" in p["reason"] and "power" not in e and e["signals_collected"] == counted
        print(f"  {id}: not measured here: {p['reason']}")
        continue
    measured += 1
    w = e["power"]
    ok &= p["source"] == "nvml" and w["source"] == "nvml" and w["device_match"].startswith("UUID GPU-")
    ok &= e["signals_collected"] == counted + 1
    ok &= 18 <= w["update_period_ms"] <= 22
    for phase in ("baseline", "feature"):
        f = w[phase]
        ok &= f["joules_per_pass"] > 0 and 225 <= f["mean_watts"] <= 275 and f["samples"] >= 2
        ok &= isinstance(f["settled"], bool) and f["spread_pct"] >= 0 and f["passes"] > 0
        # joules per pass is the mean power over each pass's share of the time under load
        ok &= abs(f["joules_per_pass"] - f["mean_watts"] * f["seconds"] / f["passes"]) <= 0.01 * f["joules_per_pass"]
    ok &= abs(w["ratio"] - w["feature"]["joules_per_pass"] / w["baseline"]["joules_per_pass"]) <= 0.01 * w["ratio"]
    ok &= w["settled"] == (w["baseline"]["settled"] and w["feature"]["settled"])
task = tests["mesh_shader.task"]["evidence"].get("power")
if task is not None and "power" in tests["mesh_shader.draw"]["evidence"]:
    # both mesh tests' baseline is the same empty scope: measured once, by the first
    ok &= task["baseline"].get("measured_in") == "mesh_shader.draw"
print(f"  {measured} of {len(tests)} measured")
sys.exit(0 if ok and measured >= 3 else 1)
PY

# the schema can say no: each of these breaks the shape of the power signal or its evidence
for mutation in "signals.power.source=None" "power.feature.samples=1" "power.ratio=0" "signals_collected=7" \
                "power.baseline.joules_per_pass=None"; do
    python3 - "$work/fake.json" "$work/bad.json" "$mutation" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
path, value = sys.argv[3].split("=")
t = next(t for t in r["devices"][0]["smoke"] if "power" in t["evidence"])
*parents, key = path.split(".")
node = t["evidence"]
for p in parents:
    node = node[p]
if value == "None":
    del node[key]
else:
    node[key] = int(value)
json.dump(r, open(sys.argv[2], "w"))
PY
    "$python" "$here/validate_report.py" "$schema" "$work/bad.json" >/dev/null 2>&1
    check "the schema rejects a report whose $mutation" test $? -ne 0
done

# the fast source: the fake's sample buffer (20 ms, stamped on the wall clock) checked against its counter
FAKE_NVML_SAMPLES=on "$probe" --tests "$tests" --out "$work/fast.json" 2>"$work/fast.log"
check "with the fake NVML's sample buffer: the probe writes its report" test $? -eq 0
check "with the fake NVML's sample buffer: the report validates against the schema" \
    "$python" "$here/validate_report.py" "$schema" "$work/fast.json"
check "with the fake NVML's sample buffer: checked against the counter, used, each phase from samples" \
    python3 - "$work/fast.json" <<'PY'
import json, sys
tests = [t for t in json.load(open(sys.argv[1]))["devices"][0]["smoke"] if "power" in t["evidence"]]
ok = len(tests) >= 3
for t in tests:
    w = t["evidence"]["power"]
    check = w["fast_source"]
    ok &= w["quantity"] == "power samples" and "nvmlDeviceGetSamples" in w["sensor"]
    ok &= check["used"] is True and abs(check["error_pct"]) <= check["tolerance_pct"] == 10
    ok &= 19 <= check["sample_period_ms"] <= 21 and check["check_seconds"] > 0.5
    for phase in ("baseline", "feature"):
        f = w[phase]
        ok &= f["from"] == "samples" and 225 <= f["mean_watts"] <= 275 and f["uncertainty_pct"] >= 0
    print(f"  {t['id']}: check {check['error_pct']} %, baseline {w['baseline']['seconds']} s, feature {w['feature']['seconds']} s")
sys.exit(0 if ok else 1)
PY
FAKE_NVML_SAMPLES=disagree "$probe" --tests "mesh_shader.draw" --out "$work/disagree.json" 2>/dev/null
check "samples that disagree with the counter: the counter measures, the evidence says why" python3 -c "
import json; t=[t for t in json.load(open('$work/disagree.json'))['devices'][0]['smoke'] if t['id']=='mesh_shader.draw'][0]
w=t['evidence']['power']; c=w['fast_source']
assert w['quantity']=='energy counter' and c['used'] is False and 'the counter is used' in c['reason'] and c['error_pct']>40, w"

FAKE_NVML_SAMPLES=on "$probe" --tests "mesh_shader.draw" --power-counter-only --out "$work/counter.json" 2>/dev/null
check "--power-counter-only: the counter measures though the buffer is there, and the evidence says so" python3 -c "
import json; t=[t for t in json.load(open('$work/counter.json'))['devices'][0]['smoke'] if t['id']=='mesh_shader.draw'][0]
w=t['evidence']['power']; c=w['fast_source']
assert w['quantity']=='energy counter' and c['used'] is False and c['reason']=='not checked: --power-counter-only', w"

"$probe" --tests "mesh_shader.draw" --no-power --out "$work/off.json" 2>/dev/null
check "--no-power: not sampled, and says so" python3 -c "
import json; t=[t for t in json.load(open('$work/off.json'))['devices'][0]['smoke'] if t['id']=='mesh_shader.draw'][0]
p=t['evidence']['signals']['power']; assert p=={'measured': False, 'reason': 'not sampled: --no-power'} and 'power' not in t['evidence'], p"

reason_of() { # reason_of REPORT TEST
    python3 -c "
import json, sys; t=[t for t in json.load(open('$1'))['devices'][0]['smoke'] if t['id']=='$2'][0]
p=t['evidence']['signals']['power']; sys.exit(1) if p['measured'] or 'power' in t['evidence'] else print(p['reason'])"
}
FAKE_NVML_MODE=stall "$probe" --tests "mesh_shader.draw" --power-phase-ms 100 --out "$work/stall.json" 2>/dev/null
reason=$(reason_of "$work/stall.json" mesh_shader.draw)
check "a stalled counter: no number, the reason says it did not change ($reason)" \
    grep -q "the baseline pass: the energy counter did not change in 1[0-9][0-9] ms under load" <<<"$reason"
FAKE_NVML_MODE=lost-after:400 "$probe" --tests "mesh_shader.draw" --out "$work/lost.json" 2>/dev/null
reason=$(reason_of "$work/lost.json" mesh_shader.draw)
check "a GPU lost to NVML mid-run: no number, the reason names the failed read ($reason)" \
    grep -q "nvmlDeviceGetTotalEnergyConsumption failed: GPU is lost" <<<"$reason"
"$probe" --tests "ray_query.*" --power-budget 0.15 --out "$work/budget.json" 2>/dev/null
reason=$(reason_of "$work/budget.json" ray_query.aabb)
check "a spent budget: the last tests say so ($reason)" grep -q "spent this run's power budget (0.15 s, --power-budget)" <<<"$reason"

for bad in "--power-budget x" "--power-budget -1" "--power-budget 4000" "--power-phase-ms 5" "--power-phase-ms 1e9" \
           "--power-phase-ms"; do
    # shellcheck disable=SC2086
    "$probe" $bad --no-smoke --out "$work/x.json" 2>"$work/err"
    check "'$bad' is a usage error (exit 2, says why)" \
        test $? -eq 2 -a -n "$(grep -E -- '--power-(budget|phase-ms) needs|missing value for' "$work/err")"
done

# the repeated batches (a command buffer submitted again and again) under synchronization validation
VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT \
    "$probe" --tests "mesh_shader.draw,ray_tracing_pipeline.trace" --out "$work/vvl.json" >"$work/vvl.log" 2>&1
messages=$(grep -c -E "Validation (Error|Warning)|VUID-|SYNC-HAZARD" "$work/vvl.log")
grep -E "Validation (Error|Warning)|VUID-|SYNC-HAZARD" "$work/vvl.log" | head -5
check "under Vulkan-ValidationLayers with sync validation: the batches ran, no validation message ($messages)" \
    sh -c "[ $messages -eq 0 ] && python3 -c \"
import json; r=json.load(open('$work/vvl.json'))
powers = [t['evidence']['signals']['power'] for t in r['devices'][0]['smoke'] if 'signals' in t['evidence']]
# measured, or the samples were too late to time (slower under the layer): either way the batches ran
assert len(powers) == 2 and all(p['measured'] or 'not scheduled often enough' in p['reason'] for p in powers), powers\""
[ "$failures" -eq 0 ]
