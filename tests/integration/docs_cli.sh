#!/usr/bin/env bash
# The man pages and the bash completion say what the programs do: each page renders without a
# groff warning, every option a program's --help lists is in its man page and in the completion
# (per command for preflight-report), and the completion offers what it should where it should.
set -u
probe=$(realpath "$1")
report=$(realpath "$2")
dashboard=$(realpath "$3")
root=$(cd "$(dirname "$0")/../.." && pwd)
failures=0
checks=0
check() {
    checks=$((checks + 1))
    local name="$1"; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
for page in "$root"/docs/man/*.[17]; do
    check "man page $(basename "$page") renders without warnings" sh -c "[ -z \"\$(groff -man -ww -z '$page' 2>&1)\" ]"
done
options_of() { grep -o -- '--[a-z][a-z-]*' | sort -u; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for page in preflight-probe.1 preflight-report.1 preflight-dashboard.1; do # the pages as a reader sees them
    groff -man -Tascii "$root/docs/man/$page" 2>/dev/null | sed 's/.\x08//g' >"$work/$page.txt"
done
probe_options=$("$probe" --help | options_of)
missing=""
for o in $probe_options; do grep -q -- "$o" "$work/preflight-probe.1.txt" || missing="$missing $o"; done
check "every preflight-probe --help option is in preflight-probe.1${missing:+ (missing:$missing)}" [ -z "$missing" ]
source "$root/scripts/completion/preflight.bash"
complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); "$completer"; echo "${COMPREPLY[*]}"; }
completer=_preflight_probe
check "completion: preflight-probe --ti offers --timeout" [ "$(complete_words preflight-probe --ti)" = "--timeout" ]
for o in $probe_options; do
    [ "$o" = "--help" ] && continue
    check "completion of preflight-probe knows $o" sh -c "echo ' $(complete_words preflight-probe --) ' | grep -q -- ' $o '"
done
completer=_preflight_report
check "completion: preflight-report mat offers matrix" [ "$(complete_words preflight-report mat)" = "matrix" ]
check "completion: preflight-report ma offers matrix and machine-check" [ "$(complete_words preflight-report ma)" = "matrix machine-check" ]
for command in matrix diff gate expectations machine-check fleet-limits profile junit upload; do
    help_options=$("$report" "$command" --help | options_of)
    offered=" $(complete_words preflight-report "$command" --) "
    for o in $help_options; do
        check "$command: $o in its --help is in preflight-report.1 and in the completion" sh -c "grep -q -- '$o' '$work/preflight-report.1.txt' && echo '$offered' | grep -q -- ' $o '"
    done
done
check "completion: upload does not offer --format" sh -c "! echo ' $(complete_words preflight-report upload --) ' | grep -q -- ' --format '"
check "completion: matrix --format offers the four formats" [ "$(complete_words preflight-report matrix --format '')" = "text markdown json html" ]
check "per-command help: preflight-report matrix --help (exit 0, its own usage)" sh -c "'$report' matrix --help | grep -q '^usage: preflight-report matrix'"
dashboard_options=$("$dashboard" --help | options_of)
missing=""
for o in $dashboard_options; do grep -q -- "$o" "$work/preflight-dashboard.1.txt" || missing="$missing $o"; done
check "every preflight-dashboard --help option is in preflight-dashboard.1${missing:+ (missing:$missing)}" [ -z "$missing" ]
completer=_preflight_dashboard
check "completion: preflight-dashboard se offers serve" [ "$(complete_words preflight-dashboard se)" = "serve" ]
check "completion: preflight-dashboard token offers add list revoke" [ "$(complete_words preflight-dashboard token '')" = "add list revoke" ]
for o in --db --listen --public-read --tls-cert --tls-key --quiet --max-connections --max-per-address \
    --header-deadline --request-deadline --token-artifact-quota --behind-tls --public-url; do
    check "completion of preflight-dashboard serve knows $o" sh -c "echo ' $(complete_words preflight-dashboard serve --) ' | grep -q -- ' $o '"
done
check "completion of preflight-dashboard import knows --jobs" sh -c "echo ' $(complete_words preflight-dashboard import --) ' | grep -q -- ' --jobs '"
check "docs/probe.md no longer calls preflight-report 'to come'" sh -c "! grep -qi 'to come' '$root/docs/probe.md'"
echo "$((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
