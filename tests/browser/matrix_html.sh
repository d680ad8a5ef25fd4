#!/usr/bin/env bash
# The HTML matrix in a real headless Chromium: the page's own script filters (differing rows,
# vendor, text) and sorts, and the counts are read back from the DOM. Exit 77 (ctest: skipped)
# where Chromium is not installed; CI does not install it (the page is plain HTML and script,
# and report.cli checks its structure there). `apt-get install chromium` to run it.
set -u
tool=$(realpath "$1")
fixtures=$(realpath "$2")
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "chromium not installed: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" matrix --format html --out "$work/matrix.html" "$fixtures/probe-lavapipe.report.json" "$fixtures/probe-nvidia-h200.report.json" || exit 1
driver='<script>
$("differs").checked=true; $("vendor").value="NVIDIA"; draw();
const byId=document.querySelector("th[data-key=id]"); byId.click(); byId.click();
document.body.dataset.rows=document.querySelectorAll("#matrix tbody tr").length;
document.body.dataset.cols=document.querySelectorAll("#matrix thead th").length;
document.body.dataset.first=document.querySelector("#matrix tbody td.id").textContent;
$("differs").checked=false; $("vendor").value=""; $("text").value="vrs.pipeline"; draw();
document.body.dataset.textRows=document.querySelectorAll("#matrix tbody tr").length;
</script></body></html>'
python3 - "$work/matrix.html" "$driver" <<'PY'
import sys
page = open(sys.argv[1]).read().replace("</body></html>", sys.argv[2])
open(sys.argv[1].replace("matrix.html", "driven.html"), "w").write(page)
PY
body=$(timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/profile" --dump-dom "file://$work/driven.html" 2>/dev/null |
    grep -o '<body[^>]*>')
echo "$body"
expected='<body data-rows="25" data-cols="3" data-first="vrs.rates_list" data-text-rows="9">'
[ "$body" = "$expected" ] && echo "1 passed, 0 failed" || { echo "expected $expected"; echo "0 passed, 1 failed"; exit 1; }
