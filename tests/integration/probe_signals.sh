#!/usr/bin/env bash
# No test process outlives the probe: the fault-injecting probe runs one test that hangs; the probe
# is stopped with SIGTERM (and, in a second run, SIGKILL) while the test runs, and the test's
# process must be gone a moment later. Also: a timeout of 0.5 s is reported as 0.5 s.
set -u
probe=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
for sig in TERM KILL; do
    PREFLIGHT_FAULT=compute.barrier=hang "$probe" --tests compute.barrier --timeout 120 --out "$work/r.json" \
        >"$work/out" 2>"$work/err" &
    probe_pid=$!
    child=""
    for _ in $(seq 100); do # the test process: the probe's child
        child=$(pgrep -P "$probe_pid" | head -1)
        [ -n "$child" ] && break
        sleep 0.1
    done
    if [ -z "$child" ]; then
        echo "FAIL SIG$sig: the hanging test never started"; failures=$((failures + 1)); kill -9 "$probe_pid"; continue
    fi
    sleep 0.5
    kill -"$sig" "$probe_pid"
    wait "$probe_pid" 2>/dev/null
    gone=no
    for _ in $(seq 50); do
        if ! kill -0 "$child" 2>/dev/null; then gone=yes; break; fi
        sleep 0.1
    done
    if [ "$gone" = yes ]; then echo "ok   SIG$sig to the probe: its hung test process $child is gone too"; else
        echo "FAIL SIG$sig to the probe: test process $child still runs"; failures=$((failures + 1)); kill -9 "$child"
    fi
done
PREFLIGHT_FAULT=compute.barrier=hang "$probe" --tests compute.barrier --timeout 0.5 --out "$work/r.json" >"$work/out" 2>"$work/err"
if python3 -c "
import json; r=json.load(open('$work/r.json'))
t=[s for s in r['devices'][0]['smoke'] if s['id']=='compute.barrier'][0]
assert t['status']=='timeout' and 'within 0.5 s' in t['reason'], t"; then echo "ok   --timeout 0.5: the hung test times out 'within 0.5 s'"; else
    echo "FAIL --timeout 0.5"; failures=$((failures + 1)); fi
[ "$failures" -eq 0 ]
