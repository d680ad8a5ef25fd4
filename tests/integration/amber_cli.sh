#!/usr/bin/env bash
# preflight-probe --amber on the command line: paths (files, folders, several after one --amber,
# --amber repeated), the test ids, --list-tests and --tests with AmberScript files, and the usage
# errors (a missing path, a folder without .amber files, two files with one id, --no-smoke).
# Usage: amber_cli.sh PREFLIGHT_PROBE CORPUS (tests/amber)
set -u
probe="$1"
corpus="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
run() { "$probe" "$@" >"$work/out" 2>"$work/err"; echo $?; }

rc=$(run --list-tests --amber "$corpus/pass" "$corpus/broken/spirv_hex_partial_word.amber")
check "--list-tests lists the files as amber.* tests in group amber ($rc)" \
    grep -q -E "^amber\.compute_fill +amber +$corpus/pass/compute_fill.amber" "$work/out"
check "... a file named alone is amber.<its name>" \
    grep -q -E "^amber\.spirv_hex_partial_word +amber +$corpus/broken/spirv_hex_partial_word.amber" "$work/out"
check "... the built-in tests are still there" grep -q "^compute.1x1 " "$work/out"

rc=$(run --list-tests --amber "$corpus/fail/compute_fill.amber" --amber "$corpus/pass")
check "two files with one id: exit 2 ($rc)" [ "$rc" = 2 ]
check "... naming both files and the id" grep -q "would both be the test amber.compute_fill" "$work/err"

rc=$(run --list-tests --amber "$corpus")
check "a folder below --amber: its path in the id" grep -q "^amber.pass.draw_array " "$work/out"

rc=$(run --amber "$work/missing")
check "a missing path: exit 2 ($rc)" [ "$rc" = 2 ]
check "... saying so" grep -q "missing: No such file or directory" "$work/err"
mkdir "$work/empty" && touch "$work/empty/notes.txt"
rc=$(run --amber "$work/empty")
check "a folder without .amber files: exit 2 ($rc)" [ "$rc" = 2 ]
rc=$(run --amber "$corpus/pass" --no-smoke)
check "--amber with --no-smoke: exit 2 ($rc)" [ "$rc" = 2 ]
rc=$(run --amber)
check "--amber without a path: exit 2 ($rc)" [ "$rc" = 2 ]
rc=$(run --amber "$corpus/pass" --tests 'amber.no_such_*')
check "--tests matching no file: exit 2 ($rc)" [ "$rc" = 2 ]

# a run of two files only, by --tests; the rest of the table is skipped
rc=$(run --amber "$corpus/pass" --tests 'amber.compute_fill,amber.tolerance' --out "$work/two.json")
check "a run of two selected files exits 0 ($rc)" [ "$rc" = 0 ]
check "... both pass, the built-in tests are not selected" python3 - "$work/two.json" <<'PY'
import json, sys
smoke = {e["id"]: e["status"] for e in json.load(open(sys.argv[1]))["devices"][0]["smoke"]}
assert smoke["amber.compute_fill"] == "pass" and smoke["amber.tolerance"] == "pass", smoke
assert smoke["compute.1x1"] == "skipped" and smoke["amber.draw_array"] == "skipped", smoke
PY
# folder links are not followed (no loops); a link to a file is a file
mkdir -p "$work/linked/sub" && cp "$corpus/pass/compute_fill.amber" "$work/linked/sub/"
ln -s "$work/linked" "$work/linked/sub/loop"
rc=$(run --list-tests --amber "$work/linked")
check "a folder link is not followed ($rc)" [ "$rc" = 0 -a "$(grep -c '^amber\.' "$work/out")" = 1 ]

echo "$failures failed"
[ "$failures" -eq 0 ]
