#!/usr/bin/env bash
# The HTML matrix in a real headless Chromium: the page's own script filters (differing rows,
# vendor, text), sorts (numbers as numbers) and shows each cell's reason and evidence as a
# tooltip and each column's date, OS and kernel; what it drew is read back from the DOM and
# compared with what the matrix data says. Exit 77 (ctest: skipped) only where Chromium is not
# installed; scripts/setup.sh --tests installs it, so CI runs it.
set -u
tool=$(realpath "$1")
fixtures=$(realpath "$2")
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "chromium not installed: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" matrix --format html --out "$work/matrix.html" "$fixtures/probe-lavapipe.report.json" "$fixtures/probe-nvidia-h200.report.json" || exit 1
driver='<script>
const out={};
$("differs").checked=true; draw();
out.differing=document.querySelectorAll("#matrix tbody tr").length;
$("vendor").value="NVIDIA"; draw();
out.differingOneVendor=document.querySelectorAll("#matrix tbody tr").length;
$("differs").checked=false; draw();
out.markedOneVendor=document.querySelectorAll("#matrix tbody tr.differs").length;
out.colsOneVendor=document.querySelectorAll("#matrix thead th").length;
$("vendor").value=""; $("group").value="limits"; draw();
const col=document.querySelector("th[data-key=\"0\"]"); col.click();
out.sortedLimits=[...document.querySelectorAll("#matrix tbody tr")].map(tr=>tr.children[2].textContent);
$("group").value=""; $("text").value="ray_query.triangle"; draw();
out.tooltip=document.querySelector("#matrix tbody tr").children[3].getAttribute("title")||"";
out.header=document.querySelector("#matrix thead").textContent;
$("text").value="vrs.pipeline"; draw();
out.textRows=document.querySelectorAll("#matrix tbody tr").length;
document.body.dataset.out=JSON.stringify(out);
</script></body></html>'
python3 - "$work/matrix.html" "$driver" <<'PY'
import sys
page = open(sys.argv[1]).read().replace("</body></html>", sys.argv[2])
open(sys.argv[1].replace("matrix.html", "driven.html"), "w").write(page)
PY
timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/profile" --dump-dom "file://$work/driven.html" \
    >"$work/dom.html" 2>/dev/null
python3 - "$work/matrix.html" "$work/dom.html" <<'PY'
import html, json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S).group(1))
dom = open(sys.argv[2]).read()
found = re.search(r'<body data-out="([^"]*)"', dom)
if not found:
    print("FAIL the page's script did not run (no data-out on <body>)"); print("0 passed, 1 failed"); sys.exit(1)
out = json.loads(html.unescape(found.group(1)))
def text(c):
    if "value" in c: return c["value"] or "-"
    if "declared" not in c: return "-"
    return ("yes" if c["declared"] else "no") + (" " + c["verified"] if c.get("verified") else "")
differing = sum(1 for r in data["rows"] if len({text(c) for c in r["cells"]}) > 1)
limits = [r for r in data["rows"] if r["group"] == "limits"]
numbers = sorted((text(r["cells"][0]) for r in limits), key=lambda s: float(s) if re.fullmatch(r"-?[0-9.]+", s) else float("inf"))
checks = [
    ("rows that differ between the two devices", out["differing"] == differing and differing > 0, (out["differing"], differing)),
    ("with a vendor filter, only the shown column counts: nothing differs", out["differingOneVendor"] == 0, out["differingOneVendor"]),
    ("with a vendor filter, no row is marked as differing", out["markedOneVendor"] == 0, out["markedOneVendor"]),
    ("with a vendor filter, one device column", out["colsOneVendor"] == 3, out["colsOneVendor"]),
    ("a limits column sorts as numbers", out["sortedLimits"] == numbers and len(numbers) > 3, (out["sortedLimits"], numbers)),
    ("a cell's tooltip holds the smoke result's reason", "VK_KHR_ray_query not exposed" in out["tooltip"], out["tooltip"]),
    ("a column heading names the report date, OS and kernel", "2026-" in out["header"] and "Debian" in out["header"] and "Linux" in out["header"], out["header"][:300]),
    ("text filter", out["textRows"] == sum(1 for r in data["rows"] if "vrs.pipeline" in r["id"]), out["textRows"]),
]
failed = 0
for name, ok, detail in checks:
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": %r" % (detail,)))
    failed += not ok
print("%d passed, %d failed" % (len(checks) - failed, failed))
sys.exit(1 if failed else 0)
PY
