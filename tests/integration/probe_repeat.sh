#!/usr/bin/env bash
# The probe's reruns (--repeat N, probes/runner.c): a test that failed runs again until its verdict
# over its runs is known at 95 % confidence or N reruns are spent, each rerun kept in the report;
# a test that fails once and then passes is flaky after one rerun, one that always fails is a
# confident fail after 4 runs (3 reruns, though N allows more), one that fails every time with
# N = 2 stays unknown; passing tests never rerun; the report stays valid against the schema;
# --repeat rejects bad values.
# Usage: probe_repeat.sh PREFLIGHT_PROBE PREFLIGHT_PROBE_FAULTY SCHEMA
set -u
probe=$(realpath "$1")
faulty=$(realpath "$2")
schema=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # check NAME COMMAND...: one line per assertion
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

for value in -1 101 two ""; do
    "$probe" --repeat "$value" --no-smoke --out "$work/x.json" 2>"$work/err"
    check "--repeat '$value' is a usage error (exit 2, says why)" \
        test $? -eq 2 -a -n "$(grep -- '--repeat needs a number of reruns from 0 to 100' "$work/err")"
done

for budget in 5 2; do
    mkdir "$work/once$budget"
    PREFLIGHT_FAULT_ONCE_DIR="$work/once$budget" PREFLIGHT_FAULT="compute.1x1=wrong-once,compute.buffer=wrong" \
        "$faulty" --tests "compute.*" --repeat "$budget" --out "$work/repeat$budget.json" 2>"$work/log$budget"
    check "--repeat $budget: the report is written" test $? -eq 0
    check "--repeat $budget: the report is valid against the schema" \
        python3 "$(dirname "$0")/validate_report.py" "$schema" "$work/repeat$budget.json"
done
check "--repeat 5: wrong once, then a pass: flaky after one rerun; always wrong: a fail after 4 runs; no other test reran" \
    python3 - "$work/repeat5.json" <<'PY'
import json, sys
smoke = json.load(open(sys.argv[1]))["devices"][0]["smoke"]
tests = {t["id"]: t for t in smoke}
one, buffer = tests["compute.1x1"], tests["compute.buffer"]
ok = (one["status"] == "fail" and [r["status"] for r in one["reruns"]] == ["pass"] and
      one["measured"] == {"verdict": "flaky", "runs": 2, "failures": 1} and
      buffer["status"] == "fail" and [r["status"] for r in buffer["reruns"]] == ["fail"] * 3 and
      buffer["measured"] == {"verdict": "fail", "runs": 4, "failures": 4} and
      all("duration_ms" in r and "evidence" in r for r in buffer["reruns"]) and
      [t["id"] for t in smoke if "reruns" in t] == ["compute.1x1", "compute.buffer"])
print(json.dumps({k: (t["status"], t.get("measured")) for k, t in tests.items() if "reruns" in t}))
sys.exit(0 if ok else 1)
PY
check "--repeat 2: always wrong stays unknown after its 2 reruns" \
    python3 -c 'import json,sys; t={t["id"]: t for t in json.load(open(sys.argv[1]))["devices"][0]["smoke"]}["compute.buffer"]; sys.exit(0 if t["measured"] == {"verdict": "unknown", "runs": 3, "failures": 3} else 1)' "$work/repeat2.json"
check "the progress lines mark the reruns" grep -q "compute.buffer .*(rerun)" "$work/log5"
[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures checks failed"
[ "$failures" -eq 0 ]
