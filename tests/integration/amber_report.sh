#!/usr/bin/env bash
# AmberScript verdicts go everywhere a smoke test goes, with no special case: the matrix (group
# amber), the diff between two drivers ("passed on the old driver, fails on the new one"), the gate
# (amber.* must pass), JUnit, and the dashboard's device history (a regression) and coverage. One
# file passes on lavapipe; the same file, its expectation changed, fails in a second report made
# to look like the same device on a newer driver.
# Usage: amber_report.sh PREFLIGHT_PROBE PREFLIGHT_REPORT PREFLIGHT_DASHBOARD
set -u
probe="$1"
report_tool="$2"
dashboard="$3"
work=$(mktemp -d)
server=
trap '[ -z "$server" ] || kill $server 2>/dev/null; rm -rf "$work"' EXIT
failures=0
check() {
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

mkdir -p "$work/old/kernels" "$work/new/kernels"
cat >"$work/old/kernels/saxpy.amber" <<'EOF'
#!amber
SHADER compute saxpy GLSL
#version 450
layout(local_size_x = 16) in;
layout(binding = 0) readonly buffer X { float x[]; };
layout(binding = 1) buffer Y { float y[]; };
void main() { uint i = gl_GlobalInvocationID.x; y[i] = 2.0 * x[i] + y[i]; }
END
BUFFER x DATA_TYPE float SIZE 64 SERIES_FROM 0 INC_BY 1
BUFFER y DATA_TYPE float SIZE 64 FILL 1
PIPELINE compute p
  ATTACH saxpy
  BIND BUFFER x AS storage DESCRIPTOR_SET 0 BINDING 0
  BIND BUFFER y AS storage DESCRIPTOR_SET 0 BINDING 1
END
RUN p 4 1 1
EXPECT y IDX 0 EQ 1 3 5 7
EOF
sed 's/^EXPECT y IDX 0 EQ 1 3 5 7/EXPECT y IDX 0 EQ 1 3 5 8/' "$work/old/kernels/saxpy.amber" >"$work/new/kernels/saxpy.amber"
"$probe" --amber "$work/old" --tests 'amber.*,compute.1x1' --out "$work/old.json" 2>"$work/log" || echo "probe failed"
"$probe" --amber "$work/new" --tests 'amber.*,compute.1x1' --out "$work/new.json" 2>>"$work/log" || echo "probe failed"
# the second report as the same device on a newer driver (a Mesa driver is its Mesa version in
# driverInfo: lavapipe's driverVersion is the same for every Mesa)
python3 - "$work/new.json" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
newer = lambda info: re.sub(r"Mesa (\d+)\.(\d+)\.(\d+)", lambda m: "Mesa %s.%s.%d" % (m[1], m[2], int(m[3]) + 1), info)
for device in report["devices"]:
    identity = device["identity"]
    identity["driverVersionRaw"] = identity["driverVersionRaw"] + 1
    major, minor, patch = (int(p) for p in identity["driverVersion"].split("."))
    identity["driverVersion"] = "%d.%d.%d" % (major, minor, patch + 1)
    identity["driverInfo"] = newer(identity.get("driverInfo", ""))
    driver = device["declared"]["properties"].get("VkPhysicalDeviceDriverProperties")
    if driver:
        driver["driverInfo"] = newer(driver.get("driverInfo", ""))
json.dump(report, open(sys.argv[1], "w"))
PY

"$report_tool" matrix "$work/old.json" >"$work/matrix.txt"
check "the matrix has the file as a row of group amber" grep -q -E "amber\.kernels\.saxpy .*pass" "$work/matrix.txt"
"$report_tool" matrix --format json "$work/old.json" >"$work/matrix.json"
check "... in its JSON too" python3 - "$work/matrix.json" <<'PY'
import json, sys
text = json.dumps(json.load(open(sys.argv[1])))
assert '"amber.kernels.saxpy"' in text and '"amber"' in text
PY

"$report_tool" diff "$work/old.json" "$work/new.json" >"$work/diff.txt"
rc=$?
check "diff: worse on the new driver, exit 1 ($rc)" [ "$rc" = 1 ]
check "... a regression of the file: pass -> fail" grep -q -E "REGRESSION +smoke +amber\.kernels\.saxpy: pass -> fail" "$work/diff.txt"

printf 'amber.* must pass\n' >"$work/req.txt"
"$report_tool" gate --out "$work/gate-old.txt" "$work/req.txt" "$work/old.json"
check "gate amber.* must pass: the old driver passes ($?)" [ $? = 0 ]
"$report_tool" gate --out "$work/gate-new.txt" "$work/req.txt" "$work/new.json"
rc=$?
check "... the new driver fails it ($rc)" [ "$rc" = 1 ]
check "... naming the file's test" grep -q "amber.kernels.saxpy" "$work/gate-new.txt"

"$report_tool" junit --out "$work/junit.xml" "$work/new.json"
check "JUnit: the file is a failed test case" python3 - "$work/junit.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET
cases = {c.get("name"): c for c in ET.parse(sys.argv[1]).iter("testcase")}
case = cases.get("amber.kernels.saxpy")
assert case is not None, cases.keys()
assert case.find("failure") is not None
PY

# the dashboard: both reports imported, then its JSON API
"$dashboard" import --db "$work/dash.sqlite" "$work/old.json" "$work/new.json" >/dev/null 2>"$work/import.err"
check "the dashboard imports both reports ($?)" [ $? = 0 ]
"$dashboard" serve --db "$work/dash.sqlite" --listen 127.0.0.1:0 --public-read --quiet >"$work/serve.out" 2>"$work/serve.err" &
server=$!
for _ in $(seq 100); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.05; done
url=$(sed -n -E 's/.*listening on (http:\/\/127\.0\.0\.1:[0-9]+\/).*/\1/p' "$work/serve.out")
key=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['devices'][0]['identity']['deviceKey'])" "$work/old.json")
check "the device's history: a regression of amber.kernels.saxpy on the newer driver" python3 - "${url}api/v1/devices/$key" <<'PY'
import json, sys, urllib.request
page = json.load(urllib.request.urlopen(sys.argv[1], timeout=10))
changes = [c for d in page["drivers"] for c in d["changes"]]
saxpy = [c for c in changes if c["test"] == "amber.kernels.saxpy"]
assert saxpy and saxpy[0]["change"] == "regression" and saxpy[0]["before"] == "pass" and saxpy[0]["after"] == "fail", changes
PY
check "coverage: the file's capability, declared and failing on the device's newest driver" python3 - "${url}api/v1/capabilities/capability:amber.kernels.saxpy" <<'PY'
import json, sys, urllib.request
page = json.load(urllib.request.urlopen(sys.argv[1], timeout=10))
text = json.dumps(page)
assert "amber.kernels.saxpy" in text and "fail" in text, text[:2000]
PY

echo "$failures failed"
[ "$failures" -eq 0 ]
