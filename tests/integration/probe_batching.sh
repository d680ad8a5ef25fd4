#!/usr/bin/env bash
# The probe's worker batching (probes/worker.c, runner.c): tests share worker processes, yet a
# crash, a lost device or a wrong result still costs only its own test, with one worker or many;
# the report is the same whatever --jobs says, in the tests' own order; --jobs rejects bad values;
# --artifacts writes PNG files whose SHA-256 is the one the evidence names.
# Usage: probe_batching.sh PREFLIGHT_PROBE PREFLIGHT_PROBE_FAULTY
set -u
probe=$(realpath "$1")
faulty=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME COMMAND...: one line per assertion
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

for value in 0 65 -1 two ""; do
    "$probe" --jobs "$value" --no-smoke --out "$work/x.json" 2>"$work/err"
    check "--jobs '$value' is a usage error (exit 2, says why)" \
        test $? -eq 2 -a -n "$(grep -- '--jobs needs a number of workers from 1 to 64' "$work/err")"
done

faults="compute.buffer=crash,compute.atomics=lost,compute.1x1=wrong,compute.storage_image.r32f=crash"
for jobs in 1 3; do
    PREFLIGHT_FAULT=$faults "$faulty" --jobs "$jobs" --tests "compute.*" --out "$work/faults$jobs.json" 2>"$work/log$jobs"
    check "--jobs $jobs: the faulty run writes its report" test $? -eq 0
    check "--jobs $jobs: crash, lost device and wrong result each cost only their own test" \
        python3 "$(dirname "$0")/check_smoke.py" "$work/faults$jobs.json" --group compute --others pass \
            --expect compute.buffer=crashed --expect compute.atomics=device_lost --expect compute.1x1=fail \
            --expect compute.storage_image.r32f=crashed
    # every crash and every lost device retires its worker: at least 3 more workers than --jobs 1 needs
    workers=$(sed -n -E 's/^GPU0: [0-9]+ smoke tests in ([0-9]+) worker processes.*/\1/p' "$work/log$jobs")
    check "--jobs $jobs: a fresh worker after each crash and lost device ($workers workers)" \
        test "${workers:-0}" -ge 4
done
check "--jobs 1 and --jobs 3 give the same verdicts in the same order" python3 - "$work/faults1.json" "$work/faults3.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["devices"][0]["smoke"] for p in sys.argv[1:])
sys.exit(0 if [(t["id"], t["status"]) for t in a] == [(t["id"], t["status"]) for t in b] else 1)
PY
"$probe" --list-tests | awk '{print $1}' >"$work/order"
check "the report lists the tests in the table order, whatever ran first" python3 - "$work/faults3.json" "$work/order" <<'PY'
import json, sys
ids = [t["id"] for t in json.load(open(sys.argv[1]))["devices"][0]["smoke"]]
sys.exit(0 if ids == open(sys.argv[2]).read().split() else 1)
PY

# artifacts: the mesh and ray tests export what they read back
"$probe" --tests "mesh_shader.*,ray_*" --artifacts "$work/art/nested" --out "$work/art.json" 2>"$work/art.log"
check "--artifacts DIR: the run succeeds and creates DIR" test $? -eq 0 -a -d "$work/art/nested"
check "every artifact in the evidence exists with the SHA-256 it names (and there are some)" \
    python3 "$(dirname "$0")/check_artifacts.py" "$work/art.json" "$work/art/nested" --at-least 4
check "mesh, ray query and ray tracing collect at least four signals, with GPU timing and counters" python3 - "$work/art.json" <<'PY'
import json, sys
tests = [t for t in json.load(open(sys.argv[1]))["devices"][0]["smoke"] if t["status"] == "pass"]
ok = len(tests) == 6  # lavapipe: 2 mesh, 3 ray query, 1 ray tracing pipeline
for t in tests:
    e = t["evidence"]
    timing = e.get("gpu_timing", {})
    ok &= e.get("signals_collected", 0) >= 4 and e["signals"]["timing"] and e["signals"]["artifacts"]
    ok &= timing.get("baseline_ns", 0) > 0 and timing.get("feature_ns", 0) > 0 and timing.get("samples") == 5
    ok &= e["signals"]["power"]["measured"] is False and bool(e["signals"]["power"]["reason"])
    if t["id"].startswith("mesh_shader."):
        ok &= e.get("mesh_primitives_generated") == 1 and e["signals"]["counters"]
    if not ok:
        print("     wrong evidence:", t["id"], json.dumps(e)[:400])
        break
sys.exit(0 if ok else 1)
PY
# two devices (lavapipe's ICD listed twice: the loader makes two physical devices) run side by side
icd=$(ls /usr/share/vulkan/icd.d/lvp_icd*.json 2>/dev/null | head -1)
if [ -n "$icd" ]; then
    cp "$icd" "$work/second_icd.json"
    VK_DRIVER_FILES="$icd:$work/second_icd.json" PREFLIGHT_FAULT=compute.buffer=crash \
        "$faulty" --tests "compute.*" --out "$work/two.json" 2>"$work/two.log"
    check "two devices: one report with both, every verdict as on one device (the crash on each)" python3 - "$work/two.json" <<'PY'
import json, sys
devices = json.load(open(sys.argv[1]))["devices"]
ok = len(devices) == 2 and [d["index"] for d in devices] == [0, 1]
for d in devices:
    for t in d["smoke"]:
        want = "crashed" if t["id"] == "compute.buffer" else "pass" if t["id"].startswith("compute.") else "skipped"
        ok &= t["status"] == want
sys.exit(0 if ok else 1)
PY
    # side by side: GPU1's first answer comes before GPU0's last
    first1=$(grep -n "^  GPU1 " "$work/two.log" | head -1 | cut -d: -f1)
    last0=$(grep -n "^  GPU0 " "$work/two.log" | tail -1 | cut -d: -f1)
    check "two devices run side by side, not one after the other" test -n "$first1" -a -n "$last0" -a "${first1:-0}" -lt "${last0:-0}"
else
    echo "FAIL lavapipe's ICD file not found in /usr/share/vulkan/icd.d"; failures=$((failures + 1))
fi

touch "$work/not-a-dir"
"$probe" --tests compute.1x1 --artifacts "$work/not-a-dir/x" --out "$work/y.json" 2>"$work/err"
check "--artifacts under a file is refused (exit 1) before any test runs" test $? -eq 1 -a ! -e "$work/y.json"
[ "$failures" -eq 0 ]
