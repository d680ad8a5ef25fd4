#!/usr/bin/env bash
# Every dashboard page in a real headless Chromium: pages_in_browser.py drives it (the DevTools
# protocol over a pipe, cdp_browser.py). Fails when Chromium is missing: scripts/setup.sh --tests installs it.
# Usage: pages_in_browser.sh DASHBOARD REPORT_TOOL FIXTURES SYNTH EXAMPLES [--screenshots DIR]
set -u
here=$(dirname "$(realpath "$0")")
command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
    { echo "FAIL chromium is not installed (scripts/setup.sh --tests installs it)"; exit 1; }
exec python3 "$here/pages_in_browser.py" --dashboard "$1" --report-tool "$2" --fixtures "$3" --synth "$4" \
    --examples "$5" "${@:6}"
