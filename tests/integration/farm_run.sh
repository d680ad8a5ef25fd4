#!/usr/bin/env bash
# scripts/preflight-farm-run end to end on this machine: the real probe (lavapipe), the report
# tool's gate and JUnit, and uploads to a real preflight-dashboard (SQLite) on loopback, with the
# exit code of each outcome: all good, a failed gate, a dashboard that is down (spooled, then
# delivered by the next run), a probe that fails, bad usage; artifacts and pruning of old runs.
# Usage: farm_run.sh PREFLIGHT_PROBE PREFLIGHT_REPORT PREFLIGHT_DASHBOARD [PREFLIGHT_PROBE_FAULTY]
# (with the test build of the probe, --rerun is checked on a test that always fails)
set -u
runner=$(realpath "$(dirname "$0")/../../scripts/preflight-farm-run")
work=$(mktemp -d)
bin=$work/bin # the tools as an installed system has them: one folder (PREFLIGHT_BIN)
mkdir "$bin" && ln -s "$(realpath "$1")" "$(realpath "$2")" "$(realpath "$3")" "$bin/"
server=
trap '[ -z "$server" ] || kill $server 2>/dev/null; rm -rf "$work"' EXIT
export PREFLIGHT_BIN=$bin
failures=0
check() {
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
farm() { "$runner" --out "$work/runs" --spool "$work/spool" --host-label farm-test-01 "$@" >"$work/out" 2>&1; echo $?; }
reports_on_dashboard() { # how many reports the dashboard stores
    python3 - "${url}api/v1/devices" "$token" <<'PY'
import json, sys, urllib.request
request = urllib.request.Request(sys.argv[1], headers={"Authorization": "Bearer " + sys.argv[2]})
devices = json.load(urllib.request.urlopen(request, timeout=10)).get("devices", [])
print(sum(d.get("reports", 0) for d in devices))
PY
}
start_dashboard() {
    "$bin/preflight-dashboard" serve --db "$work/dash.sqlite" --listen "127.0.0.1:${1:-0}" --quiet >"$work/serve.out" 2>>"$work/serve.log" &
    server=$!
    for _ in $(seq 100); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.05; done
    url=$(sed -n -E 's/.*listening on (http:\/\/127\.0\.0\.1:[0-9]+\/).*/\1/p' "$work/serve.out")
}

token=$("$bin/preflight-dashboard" token add farm --db "$work/dash.sqlite")
printf '%s\n' "$token" >"$work/token"
start_dashboard
port=${url##*:}; port=${port%/}
printf 'compute.1x1 must pass\ncompute.* pass\n' >"$work/pass.req"
printf 'vrs.pipeline.2x2 must pass\n' >"$work/fail.req"   # lavapipe has no VRS

rc=$(farm --requirements "$work/pass.req" --url "${url}api/v1/reports" --token-file "$work/token")
check "a good run exits 0 ($rc)" [ "$rc" = 0 ]
latest="$work/runs/latest"
check "the run folder holds the report, gate, JUnit and log" test -s "$latest/report.json" -a -s "$latest/gate.txt" -a -s "$latest/junit.xml" -a -s "$latest/log.txt"
check "the report carries the host label" python3 -c "import json,sys; sys.exit(json.load(open('$latest/report.json'))['host'] != 'farm-test-01')"
check "the tests' images are exported beside the report" test -n "$(ls "$latest/artifacts"/*.png 2>/dev/null)"
check "the dashboard stored the report" [ "$(reports_on_dashboard)" = 1 ]

# a team's AmberScript files, passed through to the probe: gated, in JUnit, in the report
mkdir -p "$work/amber/kernels"
cat >"$work/amber/kernels/fill.amber" <<'EOF'
#!amber
SHADER compute fill GLSL
#version 450
layout(binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = 7u; }
END
BUFFER b DATA_TYPE uint32 SIZE 4 FILL 0
PIPELINE compute p
  ATTACH fill
  BIND BUFFER b AS storage DESCRIPTOR_SET 0 BINDING 0
END
RUN p 4 1 1
EXPECT b IDX 0 EQ 7 7 7 7
EOF
printf 'amber.* must pass\n' >"$work/amber.req"
rc=$(farm --amber "$work/amber" --requirements "$work/amber.req" --no-artifacts --probe-arg --tests --probe-arg 'amber.*')
check "--amber: the files run, the gate on amber.* passes ($rc)" [ "$rc" = 0 ]
check "... the file is a test of the report and of JUnit" grep -q 'amber.kernels.fill' "$work/runs/latest/junit.xml"
rc=$(farm --amber "$work/no-such-folder")
check "--amber of a missing path: bad usage, exit 64 ($rc)" [ "$rc" = 64 ]

rc=$(farm --requirements "$work/fail.req" --no-artifacts)
check "a failed gate exits 2 ($rc)" [ "$rc" = 2 ]
check "... and says so" grep -q "gate: FAILED" "$work/out"
check "--no-artifacts exports nothing" test ! -e "$work/runs/latest/artifacts"
printf 'skip vrs.* driver_name=llvmpipe reason="lavapipe has no VRS"\n' >"$work/expected.txt"
rc=$(farm --requirements "$work/fail.req" --expectations "$work/expected.txt" --no-artifacts)
check "the same gate with expectations that skip VRS on lavapipe passes ($rc)" [ "$rc" = 0 ]
check "... the gate lists what was expected" grep -q "expected: vrs.pipeline.2x2 is unsupported" "$work/runs/latest/gate.txt"
printf 'skip vrs.* driver=1..x reason=r\n' >"$work/broken.txt"
rc=$(farm --requirements "$work/fail.req" --expectations "$work/broken.txt" --no-artifacts)
check "a malformed expectations file: the gate could not be evaluated, 4 ($rc)" [ "$rc" = 4 ]
rc=$(farm --expectations "$work/expected.txt")
check "--expectations without --requirements: bad usage, 64 ($rc)" [ "$rc" = 64 ]

kill $server; wait $server 2>/dev/null; server=
rc=$(farm --url "http://127.0.0.1:$port/api/v1/reports" --token-file "$work/token" --probe-arg --tests --probe-arg "compute.1x1")
check "a dashboard that is down: exit 16, the report spooled ($rc)" [ "$rc" = 16 -a "$(ls "$work/spool"/*.json 2>/dev/null | wc -l)" = 1 ]
start_dashboard "$port"
rc=$(farm --url "${url}api/v1/reports" --token-file "$work/token" --probe-arg --tests --probe-arg "compute.1x1")
check "the next run delivers its report and the spooled one: exit 0 ($rc)" [ "$rc" = 0 -a "$(reports_on_dashboard)" = 3 ]
check "... and the spool is empty" [ "$(ls "$work/spool"/*.json 2>/dev/null | wc -l)" = 0 ]

rc=$(farm --probe-arg --device --probe-arg 99)
check "a probe that fails (no such device): exit 1 ($rc)" [ "$rc" = 1 ]
rc=$(farm --bogus)
check "an unknown option: exit 64 ($rc)" [ "$rc" = 64 ]
rc=$(farm --token-file "$work/token")
check "--token-file without --url: exit 64 ($rc)" [ "$rc" = 64 ]
rc=$(farm --requirements "$work/missing.req")
check "an unreadable requirements file: exit 64 ($rc)" [ "$rc" = 64 ]
printf 'no such thing\n' >"$work/bad.req"
rc=$(farm --requirements "$work/bad.req" --no-artifacts --probe-arg --no-smoke)
check "a malformed requirements file: exit 4 ($rc)" [ "$rc" = 4 ]

# --rerun N: the probe's --repeat N; a test that fails every time reruns until its fail is
# confident (4 runs), the report keeps every run, the gate judges the first
if [ -n "${4:-}" ]; then
    fbin=$work/fbin
    mkdir "$fbin" && ln -s "$(realpath "$4")" "$fbin/preflight-probe" && ln -s "$(realpath "$2")" "$(realpath "$3")" "$fbin/"
    printf 'compute.1x1 must pass\n' >"$work/rerun.req"
    rc=$(PREFLIGHT_BIN=$fbin PREFLIGHT_FAULT=compute.1x1=wrong farm --rerun 5 --requirements "$work/rerun.req" \
         --no-artifacts --probe-arg --tests --probe-arg compute.1x1)
    latest=$work/runs/latest
    check "--rerun 5: the gate fails on the first run's fail (exit 2: $rc)" [ "$rc" = 2 ]
    check "--rerun 5: compute.1x1 reran 3 times, a confident fail over 4 runs; run.json records --rerun" python3 -c '
import json, sys
t = {t["id"]: t for t in json.load(open(sys.argv[1]))["devices"][0]["smoke"]}["compute.1x1"]
run = json.load(open(sys.argv[2]))
sys.exit(0 if len(t.get("reruns", [])) == 3 and t.get("measured") == {"verdict": "fail", "runs": 4, "failures": 4}
         and run.get("rerun") == 5 else 1)' "$latest/report.json" "$latest/run.json"
fi
for value in -1 101 x ""; do
    rc=$(farm --rerun "$value")
    check "--rerun '$value': exit 64 ($rc)" [ "$rc" = 64 ]
done

rc=$(farm --keep 2 --no-artifacts --probe-arg --no-smoke)
check "--keep 2 leaves the two newest runs ($rc)" [ "$(find "$work/runs" -mindepth 1 -maxdepth 1 -type d | wc -l)" = 2 ]
[ "$failures" -eq 0 ]
