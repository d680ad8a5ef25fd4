#!/usr/bin/env bash
# preflight-report on real reports (the probe's own, from this machine, and the lavapipe and H200
# fixtures): every command's output checked, injected regressions flagged, failing gates failing,
# and bad input refused with the documented exit codes.
set -u
tool=$(realpath "$1")
live=$(realpath "$2")      # the probe's report from this test run
fixtures=$(realpath "$3")
python=${4:-python3}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lavapipe="$fixtures/probe-lavapipe.report.json"
h200="$fixtures/probe-nvidia-h200.report.json"
failures=0
checks=0
check() {
    checks=$((checks + 1))
    local name="$1"; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
run() { "$tool" "$@" >"$work/out" 2>"$work/err"; echo $? >"$work/rc"; }
rc() { cat "$work/rc"; }
py() { "$python" -c "$1"; }

run matrix --no-color "$live" "$h200"
check "matrix text: exit 0" [ "$(rc)" = 0 ]
check "matrix text: ray query differs (marked *)" grep -q '^\* ray_query.triangle .*yes pass .*no unsupported' "$work/out"
check "matrix text: VRS 2x2 differs" grep -q '^\* vrs.pipeline.2x2 .*no unsupported .*yes pass' "$work/out"
run matrix --format markdown --only-differences "$lavapipe" "$h200"
check "matrix markdown: only differing rows, bold" sh -c "grep -q '| \*\*ray_query.flow\*\* |' '$work/out' && ! grep -q 'compute.1x1' '$work/out'"
run matrix --format json --out "$work/matrix.json" "$lavapipe" "$h200" "$fixtures/vulkaninfo-nvidia-h200.json"
check "matrix json: three columns, the vulkaninfo one declared-only" py "
import json; m=json.load(open('$work/matrix.json'))
assert [c['source'] for c in m['columns']]==['probe','probe','vulkaninfo'], m['columns']
row=[r for r in m['rows'] if r['id']=='compute.1x1'][0]
assert row['cells'][0]['declared'] is True and row['cells'][0]['verified']=='pass' and row['cells'][2]=={}, row"
run matrix --format html --out "$work/matrix.html" "$lavapipe" "$h200"
check "matrix html: one self-contained page with the data inline" py "
import json,re; page=open('$work/matrix.html').read()
data=json.loads(re.search(r'<script id=\"data\" type=\"application/json\">(.*?)</script>', page, re.S).group(1))
assert len(data['columns'])==2 and any(r['differs'] for r in data['rows'])
assert 'http://' not in page and 'https://' not in page and '<link' not in page"

"$python" - "$h200" "$work/h200-new-driver.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["devices"][0]
d["declared"]["properties"]["VkPhysicalDeviceProperties"]["limits"]["maxComputeSharedMemorySize"] = 32768
d["declared"]["features"]["VkPhysicalDeviceFeatures"]["shaderInt64"] = False
for s in d["smoke"]:
    if s["id"] == "vrs.pipeline.2x2":
        s["status"] = "not_applied"
for c in d["capabilities"]:  # the matrix row says the same as the smoke result
    if c["id"] == "vrs.pipeline.2x2":
        c["verified"] = "not_applied"
d["identity"]["driverVersion"] = "590.1.0.0"
json.dump(r, open(sys.argv[2], "w"))
PY
run diff "$h200" "$work/h200-new-driver.json"
check "diff: an injected regression gives exit 1" [ "$(rc)" = 1 ]
check "diff: the limit that shrank" grep -q "REGRESSION limit .*VkPhysicalDeviceLimits.maxComputeSharedMemorySize: 49152 -> 32768" "$work/out"
check "diff: the lost feature" grep -q "REGRESSION feature .*shaderInt64: true -> false" "$work/out"
check "diff: the verified test that no longer applies" grep -q "REGRESSION smoke .*vrs.pipeline.2x2: pass -> not_applied" "$work/out"
check "diff: the driver change is reported" grep -q "changed .*identity .*driverVersion: 580.159.4.0 -> 590.1.0.0" "$work/out"
run diff "$h200" "$h200"
check "diff: the same report, exit 0" [ "$(rc)" = 0 ]
run diff "$lavapipe" "$h200"
check "diff: different devices are refused (exit 3)" [ "$(rc)" = 3 ]

run gate "$fixtures/release-gate.txt" "$lavapipe" "$h200"
check "gate: a device misses a requirement, exit 1" [ "$(rc)" = 1 ]
check "gate: lavapipe passes" grep -q "^PASS llvmpipe" "$work/out"
check "gate: the H200 fails on ray query, with the reason" grep -q "line 4: ray_query.triangle is unsupported: VK_KHR_ray_query not exposed" "$work/out"
run gate "$fixtures/release-gate.txt" "$lavapipe"
check "gate: all devices pass, exit 0" [ "$(rc)" = 0 ]
run gate --out "$work/gate.txt" "$fixtures/release-gate.txt" "$lavapipe" "$h200"
check "gate --out: nothing on standard output, exit still 1" [ "$(rc)" = 1 -a ! -s "$work/out" ]
check "gate --out: the text lands in the file" grep -q "^1 of 2 devices meet" "$work/gate.txt"

run junit --out "$work/junit.xml" "$lavapipe" "$h200"
check "junit: well-formed, one suite per device, verdicts mapped" py "
import xml.etree.ElementTree as E; t=E.parse('$work/junit.xml').getroot()
suites=t.findall('testsuite'); assert len(suites)==2
h=suites[1]; cases=h.findall('testcase')
assert len(cases)==int(h.get('tests')) and int(h.get('skipped'))==5 and int(h.get('failures'))==0
assert [c for c in cases if c.get('name')=='ray_query.triangle'][0].find('skipped') is not None"

run profile --out "$work/profile.json" "$live"
check "profile: a Vulkan Profiles document with one capability block and one profile" py "
import json; p=json.load(open('$work/profile.json'))
assert p['\$schema'].startswith('https://schema.khronos.org/vulkan/profiles-')
(name, prof), = p['profiles'].items(); assert name.startswith('VP_PREFLIGHT_') and prof['capabilities']==['device']
assert set(p['capabilities']['device'])=={'extensions','features','properties','formats','queueFamiliesProperties'}
assert '0x' not in json.dumps(p['capabilities'])"
if [ -n "${VULKANINFO_JSON:-}" ]; then
    check "profile: its capabilities equal vulkaninfo's for this device" \
        "$python" "$here/compare_vulkaninfo.py" "$work/profile.json" "$VULKANINFO_JSON"
fi

run fleet-limits --out "$work/fleet.json" "$lavapipe" "$h200"
check "fleet-limits: most restrictive shared memory is lavapipe's" py "
import json; f=json.load(open('$work/fleet.json'))
e=f['limits']['VkPhysicalDeviceLimits.maxComputeSharedMemorySize']
assert f['schema']=='preflight.fleet-limits/1' and e['value']==32768 and e['set_by']==['10005-0000-mesa_llvmpipe']"

# a fleet bigger than any fixed table: 1000 reports (999 links to the lavapipe fixture and one whose
# device has the smallest shared memory), every command sees every one of them
mkdir -p "$work/fleet"
for i in $(seq 1 999); do ln -s "$lavapipe" "$work/fleet/r$i.json"; done
py "
import json; r=json.load(open('$lavapipe'))
d=r['devices'][0]; d['identity']['deviceKey']='fleet-last'; d['identity']['deviceName']='The Last Device'
def shrink(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == 'maxComputeSharedMemorySize': o[k] = 16384
            else: shrink(v)
    elif isinstance(o, list):
        for v in o: shrink(v)
shrink(d['declared'])
json.dump(r, open('$work/fleet/r1000.json', 'w'))"
fleet=$(for i in $(seq 1 1000); do printf '%s ' "$work/fleet/r$i.json"; done)
run fleet-limits --out "$work/fleet1000.json" $fleet
check "fleet-limits over 1000 reports: the 1000th device's smaller shared memory decides" py "
import json; f=json.load(open('$work/fleet1000.json'))
e=f['limits']['VkPhysicalDeviceLimits.maxComputeSharedMemorySize']
assert len(f['devices'])==1000 and e['value']==16384 and e['set_by']==['fleet-last'], (len(f['devices']), e['value'])"
run matrix --format json --out "$work/matrix1000.json" $fleet
check "matrix over 1000 reports: 1000 columns" py "
import json; m=json.load(open('$work/matrix1000.json')); assert len(m['columns'])==1000, len(m['columns'])"
run gate "$fixtures/release-gate.txt" $fleet
check "gate over 1000 reports: every device counted" grep -q "^[0-9]* of 1000 devices meet" "$work/out"
run junit --out "$work/junit1000.xml" $fleet
check "junit over 1000 reports: 1000 suites" py "
import xml.etree.ElementTree as E; t=E.parse('$work/junit1000.xml').getroot()
assert len(t.findall('testsuite'))==1000, len(t.findall('testsuite'))"

echo '{"schema": "preflight.report/1", "devices": [' >"$work/broken.json"
run matrix "$work/broken.json"
check "malformed JSON: exit 3 with the file named" sh -c "[ \$(cat $work/rc) = 3 ] && grep -q 'broken.json: malformed JSON' $work/err"
echo '{"schema": "something/else", "devices": []}' >"$work/foreign.json"
run diff "$work/foreign.json" "$h200"
check "wrong schema: exit 3" [ "$(rc)" = 3 ]
run matrix /nonexistent/report.json
check "missing file: exit 3" [ "$(rc)" = 3 ]
run frobnicate
check "unknown command: exit 2" [ "$(rc)" = 2 ]
run matrix --colour "$h200"
check "unknown option: exit 2" [ "$(rc)" = 2 ]
run matrix --format pdf "$h200"
check "unknown format: exit 2" [ "$(rc)" = 2 ]
run gate "$work/broken.json" "$h200"
check "malformed requirements: exit 3 with the line" sh -c "[ \$(cat $work/rc) = 3 ] && grep -q 'line 1' $work/err"
run matrix --out /nonexistent-dir/m.txt "$h200"
check "unwritable output: exit 4" [ "$(rc)" = 4 ]


# --- outputs that must not destroy what is there --------------------------------------------------
if [ "$(id -u)" = 0 ]; then
    run matrix --format json --out /dev/null "$lavapipe"
    check "--out /dev/null (as root): written into, still a character device" sh -c "[ \$(cat '$work/rc') = 0 ] && [ -c /dev/null ]"
else
    echo "skip --out /dev/null: not root (a user cannot replace /dev/null anyway)"
fi
mkfifo "$work/fifo"
(cat "$work/fifo" >"$work/from-fifo") &
reader=$!
run matrix --format json --out "$work/fifo" "$lavapipe"
wait $reader
check "--out FIFO: written through the pipe, the FIFO stays a FIFO" sh -c "[ \$(cat '$work/rc') = 0 ] && [ -p '$work/fifo' ] && $python -c 'import json; json.load(open(\"$work/from-fifo\"))'"
echo old >"$work/target.json"
ln -s target.json "$work/link.json"
run matrix --format json --out "$work/link.json" "$lavapipe"
check "--out SYMLINK: the target replaced, the link kept" sh -c "[ \$(cat '$work/rc') = 0 ] && [ -L '$work/link.json' ] && $python -c 'import json; json.load(open(\"$work/target.json\"))'"
chmod 640 "$work/target.json"
run matrix --format json --out "$work/target.json" "$lavapipe"
check "--out FILE: a replaced file keeps its permissions" [ "$(stat -c %a "$work/target.json")" = 640 ]
run matrix --format json --out "$work" "$lavapipe"
check "--out DIRECTORY: refused (exit 4), the directory untouched" sh -c "[ \$(cat '$work/rc') = 4 ] && grep -q 'it is a directory' '$work/err' && [ -d '$work' ]"
# two writers of one file at once: each writes its own temporary, the result is one whole document
for i in 1 2 3 4 5 6 7 8; do
    "$tool" matrix --format json --out "$work/shared.json" $fleet >/dev/null 2>&1 &
done
wait
check "--out by 8 writers at once: valid JSON, no temporary left behind" sh -c "$python -c 'import json; json.load(open(\"$work/shared.json\"))' && ! ls '$work' | grep -q 'shared.json.partial'"

# --- strict input ---------------------------------------------------------------------------------
printf '{"schema": "preflight.report/1", "devices": []} junk' >"$work/trailing.json"
run matrix "$work/trailing.json"
check "input with trailing garbage: refused (exit 3) with the byte" sh -c "[ \$(cat '$work/rc') = 3 ] && grep -q 'trailing.json: malformed JSON: byte 48: more after the JSON value' '$work/err'"
$python -c "
import json; r=json.load(open('$lavapipe')); t=json.dumps(r)
open('$work/dupkey.json','w').write(t.replace('\"schema\": \"preflight.report/1\"', '\"schema\": \"preflight.report/1\", \"schema\": \"other\"', 1))
r['devices'][0]['identity']['deviceName']='GPU \udcff'
open('$work/badutf8.json','wb').write(json.dumps(r, ensure_ascii=False).encode('utf-8','surrogateescape'))
open('$work/huge.json','w').write(t.replace('\"vendorID\": ', '\"vendorID\": 1e999, \"x\": ', 1))"
run matrix "$work/dupkey.json"
check "a duplicate key: refused (exit 3), the key named" sh -c "[ \$(cat '$work/rc') = 3 ] && grep -q 'the key \"schema\" appears twice' '$work/err'"
run matrix "$work/badutf8.json"
check "non-UTF-8 bytes: refused (exit 3)" sh -c "[ \$(cat '$work/rc') = 3 ] && grep -q 'not UTF-8' '$work/err'"
run matrix "$work/huge.json"
check "1e999: refused as out of range (exit 3)" sh -c "[ \$(cat '$work/rc') = 3 ] && grep -q 'out of range' '$work/err'"
"$tool" matrix --format json - <"$lavapipe" >"$work/out" 2>"$work/err"
check "'-' reads a report from standard input" $python -c "import json; m=json.load(open('$work/out')); assert len(m['columns'])==1"

# --- gate: a misspelt name is an error in the requirements (exit 3), not a failing device ---------
for rule in "maxComputeSharedMemorySise >= 16384|is not a limit or property Vulkan defines" \
            "feature shaderInt46|is not a feature Vulkan defines" \
            "extension VK_KHR_dynamic_rendring|is not an extension Vulkan defines" \
            "compute.1x1x1 must pass|matches no smoke test of any report"; do
    printf 'compute.1x1 must pass\n%s\n' "${rule%%|*}" >"$work/req.txt"
    run gate "$work/req.txt" "$lavapipe"
    check "gate: '${rule%%|*}': exit 3, line 2 named" sh -c "[ \$(cat '$work/rc') = 3 ] && grep -q 'req.txt: line 2: .*${rule#*|}' '$work/err'"
done
printf 'VkPhysicalDeviceVulkan11Properties.maxMultiviewViewCount >= 6\nfeature VkPhysicalDeviceVulkan12Features.timelineSemaphore\nlimits.maxComputeSharedMemorySize >= 16384\n' >"$work/req.txt"
run gate "$work/req.txt" "$lavapipe"
check "gate: struct-qualified names Vulkan defines are accepted" [ "$(rc)" = 0 ]
run gate --format json "$fixtures/release-gate.txt" "$lavapipe" "$h200"
check "gate --format json: per device pass and failures, totals, exit 1" sh -c "[ \$(cat '$work/rc') = 1 ] && $python -c \"
import json; g=json.load(open('$work/out'))
assert g['total']==2 and g['passed']==1, g
h=[d for d in g['devices'] if not d['pass']][0]
assert any('ray_query.triangle is unsupported' in f for f in h['failures']), h\""
$python -c "
import json; r=json.load(open('$lavapipe'))
r['devices'][0]['identity']['deviceName']='evil \u001b]0;owned\u0007 \u001b[2J gpu'
for t in r['devices'][0]['smoke']:
    if t['id']=='compute.1x1': t['status']='fail'; t['reason']='bad \u001b[31mred\u001b[0m'
for c in r['devices'][0]['capabilities']:
    if c['id']=='compute.1x1': c['verified']='fail'
json.dump(r, open('$work/escapes.json','w'))"
printf 'compute.1x1 must pass\n' >"$work/req.txt"
run gate "$work/req.txt" "$work/escapes.json"
check "gate: terminal escapes in a device name or reason are shown as '?'" sh -c "[ \$(cat '$work/rc') = 1 ] && ! grep -q \$(printf '\033') '$work/out' && grep -q 'FAIL evil ?\]0;owned? ?\[2J gpu' '$work/out' && grep -q 'bad ?\[31mred?\[0m' '$work/out'"

# --- one source of truth: a matrix row and its smoke result must agree ----------------------------
$python -c "
import json; r=json.load(open('$lavapipe'))
for c in r['devices'][0]['capabilities']:
    if c['id']=='compute.1x1': c['verified']='pass'
for t in r['devices'][0]['smoke']:
    if t['id']=='compute.1x1': t['status']='not_applied'
json.dump(r, open('$work/split.json','w'))"
run matrix "$work/split.json"
check "a report whose matrix row and smoke result disagree: refused (exit 3), the place named" sh -c "[ \$(cat '$work/rc') = 3 ] && grep -q \"split.json: devices\[0\].capabilities\[[0-9]*\].verified: 'pass', but the smoke result of compute.1x1 is 'not_applied' (an inconsistent report)\" '$work/err'"

# --- diff: flag sets by the bits lost and gained, in full; the reason of a new verdict; json -------
$python -c "
import json; r=json.load(open('$h200')); d=r['devices'][0]
f=d['declared']['formats']['VK_FORMAT_B8G8R8A8_UNORM']['VkFormatProperties']
f['optimalTilingFeatures']=[b for b in f['optimalTilingFeatures'] if b!='VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT']+['VK_FORMAT_FEATURE_VIDEO_DECODE_OUTPUT_BIT_KHR']
for t in d['smoke']:
    if t['id']=='vrs.pipeline.2x2': t['status']='not_applied'; t['reason']='the histogram shows 1x1 shading everywhere'
for c in d['capabilities']:
    if c['id']=='vrs.pipeline.2x2': c['verified']='not_applied'
json.dump(r, open('$work/h200-bits.json','w'))"
run diff "$h200" "$work/h200-bits.json"
check "diff: a lost format feature bit named in full beside the bit gained" grep -q "REGRESSION format .*VK_FORMAT_B8G8R8A8_UNORM.VkFormatProperties.optimalTilingFeatures: lost VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT; gained VK_FORMAT_FEATURE_VIDEO_DECODE_OUTPUT_BIT_KHR$" "$work/out"
check "diff: a verdict change with the new verdict's reason" grep -q "REGRESSION smoke .*vrs.pipeline.2x2: pass -> not_applied (the histogram shows 1x1 shading everywhere)" "$work/out"
run diff --format json "$h200" "$work/h200-bits.json"
check "diff --format json: changes with lost/gained arrays and reasons, exit 1" sh -c "[ \$(cat '$work/rc') = 1 ] && $python -c \"
import json; d=json.load(open('$work/out'))['devices'][0]
f=[c for c in d['changes'] if c['kind']=='format'][0]
assert f['lost']==['VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT'] and f['gained']==['VK_FORMAT_FEATURE_VIDEO_DECODE_OUTPUT_BIT_KHR'] and f['regression'], f
s=[c for c in d['changes'] if c['kind']=='smoke'][0]
assert s['reason']=='the histogram shows 1x1 shading everywhere' and d['regressions']==2, d\""
run diff --format yaml "$h200" "$h200"
check "diff --format yaml: a usage error (exit 2)" [ "$(rc)" = 2 ]

# --- the text matrix: device names in full above numbered columns ---------------------------------
$python -c "
import json
for n,name in ((1,'NVIDIA GeForce RTX 4090 Laptop GPU'),(2,'NVIDIA GeForce RTX 4080 Laptop GPU')):
    r=json.load(open('$h200')); r['devices'][0]['identity']['deviceName']=name
    r['devices'][0]['identity']['deviceKey']='10de-%04d-nvidia' % n
    json.dump(r, open('$work/rtx%d.json' % n,'w'))"
run matrix --no-color "$work/rtx1.json" "$work/rtx2.json"
check "matrix text: names that differ past the cell width are printed in full, columns numbered" sh -c "grep -q '^\[1\] NVIDIA GeForce RTX 4090 Laptop GPU, ' '$work/out' && grep -q '^\[2\] NVIDIA GeForce RTX 4080 Laptop GPU, ' '$work/out' && grep -q '^  capability  *\[1\] NVIDIA' '$work/out'"
echo "$((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
