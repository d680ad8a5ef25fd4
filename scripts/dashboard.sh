#!/usr/bin/env bash
# A local preflight-dashboard in one command: builds, probes this machine once (unless a report
# from scripts/run.sh is there), loads that report and the examples of docs/examples (the H200's
# with its PNG artifacts) into dashboard-data/dashboard.db, and serves it, readable without a
# token, on 127.0.0.1:8470 (or $PORT). Prints the URL; Ctrl-C stops it. Needs what
# scripts/setup.sh installs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$root/build/reports/dashboard/preflight-dashboard" ] || "$root/scripts/build.sh" "$root/build"
dashboard="$root/build/reports/dashboard/preflight-dashboard"
mkdir -p "$root/reports-out" "$root/dashboard-data"
report="$root/reports-out/preflight-report-$(hostname).json"
if [ ! -s "$report" ]; then
    "$root/build/probes/preflight-probe" --all --out "$report" || echo "dashboard.sh: the probe failed; showing the examples only" >&2
fi
db="$root/dashboard-data/dashboard.db"
reports=("$root"/docs/examples/*.report.json)
[ -s "$report" ] && reports+=("$report")
"$dashboard" import --db "$db" --artifacts "$root/docs/examples/nvidia-h200-artifacts" "${reports[@]}" >/dev/null
echo "dashboard.sh: $(ls "${reports[@]}" | wc -l) reports loaded into $db (uploads: 'preflight-dashboard token add NAME --db $db')"
exec "$dashboard" serve --db "$db" --listen "127.0.0.1:${PORT:-8470}" --public-read
