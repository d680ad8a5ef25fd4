#!/usr/bin/env bash
# preflight-report gate --expectations and expectations import/check (docs/expectations.md) on the
# lavapipe fixture with failures injected: the gate's exit codes with and without expectations,
# unexpected passes and expired entries listed, Mesa CI's lists imported, malformed files refused
# with their line and exit 3.
set -u
tool=$(realpath "$1")
fixtures=$(realpath "$2")
python=${3:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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

# lavapipe (Mesa 25.0.7) with compute.atomics failing and compute.barrier crashing
"$python" - "$fixtures/probe-lavapipe.report.json" "$work/failing.report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for entry in report["devices"][0]["smoke"]:
    if entry["id"] == "compute.atomics":
        entry["status"], entry["reason"] = "fail", "atomicAdd lost updates"
    if entry["id"] == "compute.barrier":
        entry["status"], entry["reason"] = "crashed", "signal 11"
broken = {e["id"]: e["status"] for e in report["devices"][0]["smoke"]}
for row in report["devices"][0]["capabilities"]:  # a capability's verdict is its tests'
    for test in row.get("tests") or []:
        if broken.get(test) not in ("pass", None):
            row["verified"] = broken[test]
json.dump(report, open(sys.argv[2], "w"))
PY
report="$work/failing.report.json"
printf 'compute.* must pass\n' >"$work/requirements.txt"

run gate "$work/requirements.txt" "$report"
check "no expectations: the failures fail the gate, exit 1" [ "$(rc)" = 1 ]

cat >"$work/expected.txt" <<'TXT'
# lavapipe's known problems
fail  compute.atomics vendor=mesa driver=25.0..25.1 reason="PF-12: atomics on llvmpipe"
flake compute.barrier driver_name=llvmpipe reason="PF-13" until=2099-12-31
TXT
run gate --expectations "$work/expected.txt" "$work/requirements.txt" "$report"
check "both expected: exit 0" [ "$(rc)" = 0 ]
check "the expected failures are listed with their entry" grep -q "expected: compute.atomics is fail (expectations line 2, fail: PF-12" "$work/out"

cat >"$work/older.txt" <<'TXT'
fail  compute.atomics vendor=mesa driver=..24.3 reason="fixed in Mesa 25"
flake compute.barrier reason="PF-13"
TXT
run gate --expectations "$work/older.txt" "$work/requirements.txt" "$report"
check "a driver range that excludes Mesa 25.0.7 excuses nothing: exit 1" [ "$(rc)" = 1 ]
check "the unexcused failure is named" grep -q "compute.atomics is fail: atomicAdd lost updates" "$work/out"

cat >"$work/stale.txt" <<'TXT'
fail  compute.atomics reason=PF-12
flake compute.barrier reason=PF-13
fail  compute.1x1 reason="PF-9: was broken on 24.x"
fail  compute.buffer reason=PF-4 until=2020-01-31
TXT
run gate --format json --expectations "$work/stale.txt" "$work/requirements.txt" "$report"
check "unexpected pass and an expired entry do not fail the gate: exit 0" [ "$(rc)" = 0 ]
check "json: the unexpected pass, the expired entry, the expected" py "
import json; r=json.load(open('$work/out'))
d=r['devices'][0]
assert d['pass'] is True and r['passed']==1 and r['total']==1, r
assert [u['test'] for u in d['unexpectedPasses']]==['compute.1x1'] and d['unexpectedPasses'][0]['line']==3, d
assert sorted(e['test'] for e in d['expected'])==['compute.atomics','compute.barrier'], d
assert [(e['line'], e['until']) for e in r['expired']]==[(4,'2020-01-31')], r
assert r['expectations'].endswith('stale.txt'), r"
run gate --expectations "$work/stale.txt" "$work/requirements.txt" "$report"
check "text: unexpected pass listed" grep -q "unexpected pass: compute.1x1 passed, expectations line 3 expects it to fail" "$work/out"
check "text: expired entry listed" grep -q "expired: expectations line 4 (fail compute.buffer) ended 2020-01-31" "$work/out"

printf 'fail compute.atomics reason=PF-12 until=2020-01-01\nflake compute.barrier reason=x\n' >"$work/expired.txt"
run gate --expectations "$work/expired.txt" "$work/requirements.txt" "$report"
check "an expired entry excuses nothing: exit 1" [ "$(rc)" = 1 ]

printf '# ok\nfail compute.atomics reason=x\nfail compute.barrier driver=25..x reason=y\n' >"$work/bad.txt"
run gate --expectations "$work/bad.txt" "$work/requirements.txt" "$report"
check "malformed expectations: exit 3" [ "$(rc)" = 3 ]
check "malformed expectations: the file and line named" grep -q "bad.txt: line 3: driver='25..x' is not a driver range" "$work/err"
run expectations check "$work/bad.txt"
check "expectations check: exit 3 on the same file" [ "$(rc)" = 3 ]
printf 'fail compute.atomics reason="unterminated\n' >"$work/quote.txt"
run gate --expectations "$work/quote.txt" "$work/requirements.txt" "$report"
check "an unterminated quote: exit 3 with its line" sh -c "[ \"\$(cat '$work/rc')\" = 3 ] && grep -q 'line 1: an unterminated quote' '$work/err'"
head -c 100 /dev/urandom >"$work/binary.txt"; printf '\0' >>"$work/binary.txt"
run gate --expectations "$work/binary.txt" "$work/requirements.txt" "$report"
check "a binary file: exit 3" [ "$(rc)" = 3 ]
run gate --expectations "$work/missing.txt" "$work/requirements.txt" "$report"
check "a missing file: exit 3" [ "$(rc)" = 3 ]
run expectations check "$work/stale.txt"
check "expectations check: a good file, counted" sh -c "[ \"\$(cat '$work/rc')\" = 0 ] && grep -q '^4 expectations, 1 expired' '$work/out'"

# Mesa CI's lists
printf '# lavapipe\ncompute.atomics,Fail\n' >"$work/lvp-fails.txt"
printf 'compute\\.barrier$\n' >"$work/lvp-flakes.txt"
printf '^ray_query\\..*\n' >"$work/lvp-skips.txt"
run expectations import --fails "$work/lvp-fails.txt" --flakes "$work/lvp-flakes.txt" --skips "$work/lvp-skips.txt" \
    --device 'vendor=mesa driver=25.0..' --reason "from Mesa CI" --until 2099-01-01 --out "$work/imported.txt"
check "import: exit 0" [ "$(rc)" = 0 ]
check "import: one entry per line, the device pattern and where each came from" sh -c "
grep -q '^fail \"compute.atomics\" vendor=mesa driver=25.0.. reason=\"from Mesa CI (lvp-fails.txt line 2: Fail)\" until=2099-01-01\$' '$work/imported.txt' &&
grep -q '^flake \"compute.barrier\" vendor=mesa' '$work/imported.txt' && grep -q '^skip \"ray_query.\\*\" vendor=mesa' '$work/imported.txt'"
run gate --expectations "$work/imported.txt" "$work/requirements.txt" "$report"
check "the imported file excuses both failures: exit 0" [ "$(rc)" = 0 ]
run expectations import --skips "$work/lvp-skips.txt" --device 'vendor=matrox'
check "import: a bad --device is a usage error, exit 2" [ "$(rc)" = 2 ]
printf 'a.*\n(b|c).d\n' >"$work/regex-skips.txt"
run expectations import --skips "$work/regex-skips.txt" --out "$work/never.txt"
check "import: a regex no glob can say: exit 3 with file and line, nothing written" sh -c "
[ \"\$(cat '$work/rc')\" = 3 ] && grep -q 'regex-skips.txt line 2' '$work/err' && [ ! -e '$work/never.txt' ]"
run expectations import --until 2027-02-30x --fails "$work/lvp-fails.txt"
check "import: a bad --until is a usage error" [ "$(rc)" = 2 ]
run expectations import
check "import with no list: usage error" [ "$(rc)" = 2 ]

echo "$((checks - failures)) of $checks checks passed"
[ "$failures" = 0 ]
