#!/usr/bin/env bash
# preflight-probe's command line against the real loader and lavapipe: documented exit codes and
# messages for bad usage, no loader, no driver, a device index out of range and an unwritable
# output; a report on stdout with --out -.
set -u
probe=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
passes=0

expect() { # expect NAME WANTED_EXIT PATTERN_ON_STDERR -- COMMAND...
    local name="$1" wanted="$2" pattern="$3"
    shift 4
    "$@" >"$work/out" 2>"$work/err"
    local got=$?
    if [ "$got" -ne "$wanted" ] || ! grep -q -- "$pattern" "$work/err" "$work/out"; then
        echo "FAIL $name: exit $got (wanted $wanted), output:"; cat "$work/err" "$work/out" | head -5
        failures=$((failures + 1))
    else
        echo "ok   $name (exit $got)"
        passes=$((passes + 1))
    fi
}

expect "help" 0 "usage: preflight-probe" -- "$probe" --help
expect "version" 0 "preflight-probe 0" -- "$probe" --version
expect "unknown option" 2 "unknown option '--frobnicate'" -- "$probe" --frobnicate
expect "missing value" 2 "missing value for '--out'" -- "$probe" --out
expect "bad device index" 2 "needs a device index" -- "$probe" --device first
expect "--tests matching nothing" 2 "matches no smoke test" -- "$probe" --tests "no.such.*" --out "$work/x.json"
expect "--timeout inf" 2 "number of seconds from" -- "$probe" --timeout inf
expect "--timeout 1e300" 2 "number of seconds from" -- "$probe" --timeout 1e300
expect "--timeout 0" 2 "number of seconds from" -- "$probe" --timeout 0
expect "--all with --device" 2 "exclude each other" -- "$probe" --all --device 0
expect "no loader" 3 "no Vulkan loader found" -- env PREFLIGHT_VULKAN_LOADER=/nonexistent/libvulkan.so.1 "$probe"
expect "no driver" 4 "found no driver" -- env VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json "$probe"
expect "device out of range" 4 "out of range" -- "$probe" --device 99 --out "$work/r.json"
expect "unwritable output" 1 "cannot write /nonexistent-dir/report.json" -- "$probe" --out /nonexistent-dir/report.json
expect "empty --host-label" 2 "host-label needs 1 to 255" -- "$probe" --host-label "" --no-smoke --out "$work/h.json"
expect "--host-label in the report" 0 "" -- "$probe" --no-smoke --host-label "farm-07" --out "$work/h.json"
if grep -q '"host":"farm-07"' "$work/h.json"; then echo "ok   --host-label is the report's host"; passes=$((passes + 1)); else
    echo "FAIL --host-label is not the report's host"; failures=$((failures + 1)); fi
expect "default host" 0 "" -- "$probe" --no-smoke --out "$work/h2.json"
if grep -q "\"host\":\"$(hostname)\"" "$work/h2.json"; then echo "ok   the host name is the report's host by default"; passes=$((passes + 1)); else
    echo "FAIL the report's host is not the host name"; failures=$((failures + 1)); fi
expect "list" 0 "^0: " -- "$probe" --list
expect "list tests" 0 "compute.1x1" -- "$probe" --list-tests
if [ "$(id -u)" = 0 ]; then
    expect "--out /dev/null as root" 0 "" -- "$probe" --no-smoke --out /dev/null
    if [ ! -c /dev/null ]; then echo "FAIL --out /dev/null replaced the device node"; failures=$((failures + 1)); fi
fi
expect "bad timeout" 2 "number of seconds from 0.1 to 86400" -- "$probe" --timeout -3
expect "stdout report" 0 '"schema":"preflight.report/1"' -- "$probe" --out -
[ ! -e /nonexistent-dir/report.json ] || { echo "FAIL a partial report was left behind"; failures=$((failures + 1)); }

(cd "$work" && "$probe" >/dev/null 2>&1)
if ls "$work"/preflight-report-*.json >/dev/null 2>&1; then
    echo "ok   default output file: $(basename "$work"/preflight-report-*.json)"; passes=$((passes + 1))
else
    echo "FAIL default output file was not written"; failures=$((failures + 1))
fi
echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
