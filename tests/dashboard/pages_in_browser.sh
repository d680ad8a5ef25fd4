#!/usr/bin/env bash
# Every dashboard page in a real headless Chromium, as a person sees it: the DOM after the page
# loaded (its own script ran under the Content-Security-Policy: it marks <body data-ready>), the
# texts a reader looks for, hostile report strings shown as text with no element of their own,
# no CSP violation in the browser's log, and a screenshot that is a real PNG. Fails when Chromium
# is missing: scripts/setup.sh installs it.
set -u
dashboard=$(realpath "$1")
fixtures=$(realpath "$2")
synth=$(realpath "$3")
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "FAIL chromium is not installed (scripts/setup.sh installs it)"; exit 1; }
work=$(mktemp -d)
server_pid=
trap 'kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
python3 "$synth" --from "$fixtures/probe-nvidia-h200.report.json" --from "$fixtures/probe-lavapipe.report.json" \
    --count 48 --devices 6 --versions 4 --hosts 2 --out "$work/synth" || exit 1
python3 - "$fixtures/probe-lavapipe.report.json" "$work/hostile.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["devices"][0]["identity"]["deviceName"] = "<script>alert(1)</script><img src=x onerror=alert(4)>"
r["devices"][0]["identity"]["deviceKey"] = "10005-0bad-mesa_llvmpipe"
r["devices"][0]["smoke"][0]["reason"] = "</td><script>alert(3)</script>"
json.dump(r, open(sys.argv[2], "w"))
PY
"$dashboard" import --db "$work/db" "$fixtures"/probe-*.report.json "$work"/synth/*.json "$work/hostile.json" >/dev/null 2>&1 || { echo "FAIL import"; exit 1; }
"$dashboard" serve --db "$work/db" --listen 127.0.0.1:0 --public-read --quiet >"$work/serve.out" 2>"$work/serve.err" &
server_pid=$!
for _ in $(seq 100); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.05; done
url=$(sed -n 's/.*listening on //p' "$work/serve.out")
[ -n "$url" ] || { echo "FAIL the dashboard did not start"; cat "$work/serve.err"; exit 1; }
hostile_id=$(sqlite3 "$work/db" "SELECT MAX(id) FROM reports")
regressed=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['devices'][0]['identity']['deviceKey'])" "$work/synth/report-0000000.json")
browse() { # browse NAME PATH -> $work/NAME.html, $work/NAME.log
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --enable-logging=stderr --v=0 --user-data-dir="$work/profile" \
        --dump-dom "$url${2#/}" >"$work/$1.html" 2>"$work/$1.log"
}
browse devices /
browse grouped "/?group=1"
browse report "/reports/1"
browse hostile "/reports/$hostile_id"
browse history "/devices/$regressed"
browse compare "/compare?r=1&r=2&r=3&differ=1"
browse coverage "/capabilities?kind=extension"
browse limit "/capabilities/limit:maxComputeSharedMemorySize"
browse failing "/capabilities/capability:compute.1x1"
browse fleet "/fleet?exclude_cpu=1&requirements=compute.*%20pass"
timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/profile" --window-size=1280,800 \
    --screenshot="$work/devices.png" "$url" >/dev/null 2>&1
python3 - "$work" <<'PY'
import html, os, re, sys
work = sys.argv[1]
checks = failures = 0
def check(name, ok, detail=""):
    global checks, failures
    checks += 1
    if ok: print("ok   " + name)
    else:
        failures += 1; print("FAIL %s %s" % (name, detail))
def dom(name): return open(os.path.join(work, name + ".html")).read()
def text(name): return html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", "", dom(name), flags=re.S)))
pages = ["devices", "grouped", "report", "hostile", "history", "compare", "coverage", "limit", "failing", "fleet"]
for p in pages:
    check("%s: the page's script ran under its CSP" % p, 'data-ready="1"' in dom(p))
    log = open(os.path.join(work, p + ".log")).read()
    check("%s: no Content-Security-Policy violation" % p, "Content Security Policy" not in log and "Refused to" not in log,
          [l for l in log.splitlines() if "Refused" in l][:2])
    check("%s: one inline script, the page's own" % p, len(re.findall(r"<script", dom(p))) == 1)
check("devices: NVIDIA H200 and llvmpipe rows", "NVIDIA H200 #0" in text("devices") and "llvmpipe" in text("devices"))
check("devices: the filters are there", 'name="exclude_cpu"' in dom("devices") and 'name="since"' in dom("devices"))
check("grouped: vendor, then driver", text("grouped").find("NVIDIA") >= 0 and 'class="driver"' in dom("grouped"))
check("report: identity, smoke tests and declared values", all(w in text("report") for w in ("deviceKey", "compute.1x1", "VkPhysicalDeviceProperties")))
check("hostile: the device name is shown as text", "<script>alert(1)</script><img src=x onerror=alert(4)>" in text("hostile"))
check("hostile: no element made of report text", "<img" not in dom("hostile") and dom("hostile").count("<script") == 1)
check("hostile: the reason is text", "</td><script>alert(3)</script>" in text("hostile"))
check("history: regressions first and highlighted", 'transition regression' in dom("history") and "regressions" in text("history"))
check("compare: three device columns", dom("compare").count("<th>") >= 4 and "only rows that differ" in text("compare"))
check("coverage: share bars drawn", dom("coverage").count('<svg class="bar"') > 10 and "VK_KHR_swapchain" in text("coverage"))
check("limit: the distribution drawn", '<svg class="distribution"' in dom("limit") and "32768" in text("limit"))
check("failing: devices that declare it but fail it", "Declare it but fail it" in text("failing") and 'class="sortable failing"' in dom("failing"))
check("fleet: the gate per device", "devices meet the" in text("fleet") and 'class="fail"' in dom("fleet"))
png = open(os.path.join(work, "devices.png"), "rb").read() if os.path.exists(os.path.join(work, "devices.png")) else b""
check("a screenshot of the devices page (a PNG)", png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000, len(png))
print("%d passed, %d failed" % (checks - failures, failures))
sys.exit(1 if failures else 0)
PY
