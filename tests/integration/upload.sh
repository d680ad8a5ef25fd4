#!/usr/bin/env bash
# preflight-report upload against a real HTTP server on loopback: success, 5xx with retries,
# a server that stays down (spool, then --flush), client timeouts, connection refused, a wrong
# token (not retried, never printed), exactly-once delivery when a response is lost, and the PNG
# artifacts a report names (sent after it, spooled with it, refused when changed).
set -u
tool=$(realpath "$1")
report=$(realpath "$2")
python=${3:-python3}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
server_pid=
trap 'kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
failures=0
checks=0

start_server() { # start_server ARGS... -> sets url
    kill $server_pid 2>/dev/null; wait $server_pid 2>/dev/null
    rm -f "$work/port" "$work/state.json"
    "$python" "$here/upload_server.py" --port-file "$work/port" --state "$work/state.json" --lifetime 60 "$@" &
    server_pid=$!
    for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
    url="http://127.0.0.1:$(cat "$work/port")/reports"
}
state() { "$python" -c "import json,sys; s=json.load(open('$work/state.json')); print(eval(sys.argv[1]))" "$1"; }
check() { # check NAME CONDITION-COMMAND...
    checks=$((checks + 1))
    local name="$1"; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
upload() { "$tool" upload --spool "$work/spool" --backoff-ms 50 "$@" >"$work/out" 2>&1; echo $? >"$work/rc"; }
rc() { cat "$work/rc"; }
spooled() { ls "$work/spool"/*.json 2>/dev/null | wc -l; }
absent() { ! grep -q -- "$1" "$2"; }

start_server
upload --url "$url" "$report"
check "delivered: exit 0" [ "$(rc)" = 0 ]
check "delivered: stored once" [ "$(state 'len(s["stored"])')" = 1 ]
check "delivered: nothing spooled" [ "$(spooled)" = 0 ]
upload --url "$url" "$report"
check "second upload of the same report: exit 0 (409 is success)" [ "$(rc)" = 0 ]
check "second upload: still stored once" [ "$(state 'len(s["stored"])')" = 1 ]
check "second upload: the server saw the duplicate key" [ "$(state 's["duplicates"]')" = 1 ]

start_server --fail-first 2
upload --url "$url" --retries 3 "$report"
check "flaky 503 twice: delivered after retries" [ "$(rc)" = 0 ]
check "flaky: three requests, one stored" [ "$(state 's["requests"]')" = 3 ] && [ "$(state 'len(s["stored"])')" = 1 ]

start_server --fail-first 100
upload --url "$url" --retries 2 "$report"
check "server down: exit 1" [ "$(rc)" = 1 ]
check "server down: 1 + 2 retries" [ "$(state 's["requests"]')" = 3 ]
check "server down: the report is in the spool" [ "$(spooled)" = 1 ]
start_server
upload --url "$url" --flush
check "flush: exit 0" [ "$(rc)" = 0 ]
check "flush: delivered once" [ "$(state 'len(s["stored"])')" = 1 ]
check "flush: the spool is empty" [ "$(spooled)" = 0 ]
upload --url "$url" --flush
check "flush again: nothing sent" [ "$(state 's["requests"]')" = 1 ]

start_server --delay 3
upload --url "$url" --timeout 1 --retries 1 "$report"
check "timeouts: exit 1 and spooled" [ "$(rc)" = 1 ] && [ "$(spooled)" = 1 ]
check "timeouts: the message says so" grep -qi "timeout\|timed out" "$work/out"
rm -f "$work/spool"/*.json

kill $server_pid 2>/dev/null; wait $server_pid 2>/dev/null
upload --url "http://127.0.0.1:$(cat "$work/port")/reports" --retries 1 "$report"
check "connection refused: exit 1 and spooled" [ "$(rc)" = 1 ] && [ "$(spooled)" = 1 ]
rm -f "$work/spool"/*.json

start_server --token right-token
echo "wrong-token-value" >"$work/token"
upload --url "$url" --token-file "$work/token" --retries 3 "$report"
check "wrong token: exit 1, not retried" [ "$(rc)" = 1 ] && [ "$(state 's["requests"]')" = 1 ]
check "wrong token: the message names the refusal" grep -q "refused the token (HTTP 401)" "$work/out"
check "wrong token: the token is never printed" absent "wrong-token-value" "$work/out"
check "wrong token: spooled" [ "$(spooled)" = 1 ]
echo "right-token" >"$work/token"
upload --url "$url" --token-file "$work/token" --flush
check "right token: the spooled report delivered" [ "$(rc)" = 0 ] && [ "$(state 'len(s["stored"])')" = 1 ]
PREFLIGHT_UPLOAD_TOKEN=right-token "$tool" upload --spool "$work/spool" --url "$url" "$report" >/dev/null 2>&1
check "token from the environment: accepted (409: already stored)" [ "$(state 's["duplicates"]')" = 1 ]

start_server --store-then-drop
upload --url "$url" --retries 2 "$report"
check "response lost: the retry is answered 409, exit 0" [ "$(rc)" = 0 ]
check "response lost: stored exactly once" [ "$(state 'len(s["stored"])')" = 1 ] && [ "$(state 's["duplicates"]')" = 1 ]

echo '{"schema": "preflight.report/1", "devices": [' >"$work/broken.json"
upload --url "$url" "$work/broken.json"
check "malformed report: exit 3, nothing sent" [ "$(rc)" = 3 ]
upload --url "ftp://127.0.0.1/x" --retries 0 "$report"
check "a non-HTTP URL: a usage error (exit 2), nothing spooled" sh -c "[ \$(cat '$work/rc') = 2 ] && [ \$(ls '$work/spool'/*.json 2>/dev/null | wc -l) = 0 ]"
rm -f "$work/spool"/*.json

# --- every number, URL, file and token checked before anything is sent --------------------------
for bad in "--retries 2147483648" "--retries 1.5" "--backoff-ms 1e300" "--backoff-ms -1" "--timeout inf" "--timeout 0" \
           "--deadline 1e300" "--url http://" "--url not-a-url" "--ca-file $work/no-such-ca.pem"; do
    upload --url "$url" $bad "$report"
    check "upload $bad: a usage error (exit 2), nothing sent or spooled" sh -c "[ \$(cat '$work/rc') = 2 ] && [ \$(ls '$work/spool'/*.json 2>/dev/null | wc -l) = 0 ]"
done
upload --url "$url" --format json "$report"
check "upload --format: not an option of upload (exit 2)" sh -c "[ \$(cat '$work/rc') = 2 ] && grep -q \"'--format' is not an option of upload\" '$work/out'"
start_server --token right-token
PREFLIGHT_UPLOAD_TOKEN=$(printf 'right-token\r\nX-Injected: yes') "$tool" upload --spool "$work/spool" --url "$url" "$report" >"$work/out" 2>&1
echo $? >"$work/rc"
check "a token with CR/LF: refused (exit 2), nothing sent, the token not printed" sh -c "[ \$(cat '$work/rc') = 2 ] && [ \$(cat '$work/state.json' 2>/dev/null | $python -c 'import json,sys; print(json.load(sys.stdin)[\"requests\"])' 2>/dev/null || echo 0) = 0 ] && ! grep -q 'right-token' '$work/out' && grep -q 'control character' '$work/out'"
PREFLIGHT_UPLOAD_TOKEN= "$tool" upload --spool "$work/spool" --url "$url" "$report" >"$work/out" 2>&1
check "an empty token: refused (exit 2)" [ "$?" = 2 ]
printf 'right-token  \n\n' >"$work/token"
upload --url "$url" --token-file "$work/token" "$report"
check "a token file's trailing whitespace is trimmed: accepted" sh -c "[ \$(cat '$work/rc') = 0 ] && [ \$($python -c \"import json; print(len(json.load(open('$work/state.json'))['stored']))\") = 1 ]"

# --- the spool: checked before sending, listed, dropped ------------------------------------------
mkdir -p "$work/spool"
printf 'not json at all' >"$work/notjson"
key=$(sha256sum "$work/notjson" | cut -c1-64)
cp "$work/notjson" "$work/spool/$key.json"
cp "$report" "$work/spool/0000000000000000000000000000000000000000000000000000000000000000.json"
start_server
upload --url "$url" --flush
check "flush: an invalid spooled file and one not matching its name are not sent, both left" sh -c "[ \$(cat '$work/rc') = 1 ] && [ \$($python -c \"import json; print(json.load(open('$work/state.json'))['requests'])\") = 0 ] && grep -q 'not sent (upload --spool-drop $key)' '$work/out' && grep -q 'does not match its name' '$work/out' && [ \$(ls '$work/spool'/*.json | wc -l) = 2 ]"
"$tool" upload --spool "$work/spool" --spool-list >"$work/out" 2>"$work/err"; echo $? >"$work/rc"
check "--spool-list: each spooled report with its key, size and what it holds" sh -c "[ \$(cat '$work/rc') = 0 ] && grep -q '^$key  *15 bytes .*(not a valid report)' '$work/out' && [ \$(wc -l <'$work/out') = 2 ]"
"$tool" upload --spool "$work/spool" --spool-drop "$key" >"$work/out" 2>&1; echo $? >"$work/rc"
check "--spool-drop KEY: that one gone, the other kept" sh -c "[ \$(cat '$work/rc') = 0 ] && [ ! -e '$work/spool/$key.json' ] && [ \$(ls '$work/spool'/*.json | wc -l) = 1 ]"
"$tool" upload --spool "$work/spool" --spool-drop 1234 >"$work/out" 2>&1
check "--spool-drop with a bad key: exit 3" [ "$?" = 3 ]
"$tool" upload --spool "$work/spool" --spool-drop all >"$work/out" 2>&1; echo $? >"$work/rc"
check "--spool-drop all: the spool is empty" sh -c "[ \$(cat '$work/rc') = 0 ] && [ \$(ls '$work/spool'/*.json 2>/dev/null | wc -l) = 0 ]"

# --- a hanging server: the deadline bounds the run, progress is printed, the backoff is capped ---
start_server --delay 30
started=$(date +%s)
upload --url "$url" --timeout 1 --retries 100 --backoff-ms 200 --deadline 4 "$report"
took=$(( $(date +%s) - started ))
check "a hanging server with 100 retries: the --deadline of 4 s ends it (took ${took} s), spooled, exit 1" sh -c "[ \$(cat '$work/rc') = 1 ] && [ $took -le 8 ] && [ \$(ls '$work/spool'/*.json | wc -l) = 1 ] && grep -q 'the --deadline passed' '$work/out'"
check "retries print their progress" grep -q "attempt 1 of 101: .*; retrying in 0.2 s" "$work/out"
rm -f "$work/spool"/*.json

# --- the artifacts a report names: sent after it, spooled with it, never when changed -----------
example="$here/../../docs/examples/nvidia-h200.report.json"
images="$here/../../docs/examples/nvidia-h200-artifacts"
named=$("$python" -c "import json,sys; r=json.load(open(sys.argv[1])); print(len({a['sha256'] for t in r['devices'][0]['smoke'] for a in (t.get('evidence') or {}).get('artifacts', [])}))" "$example")
start_server
upload --url "$url" --artifacts "$images" "$example"
check "artifacts: the report and its $named PNG files delivered, exit 0" sh -c "[ \$(cat '$work/rc') = 0 ] && grep -q '$named of $named artifacts sent' '$work/out'"
check "artifacts: each stored under its SHA-256" [ "$(state 'len(s["artifacts"])')" = "$named" ]
mkdir -p "$work/run"
cp "$example" "$work/run/report.json"
cp -r "$images" "$work/run/artifacts"
start_server --fail-artifacts 1000
upload --url "$url" --retries 1 "$work/run/report.json"
check "artifacts found beside the report (run/artifacts); the server refusing them: exit 1, spooled with them" sh -c "[ \$(cat '$work/rc') = 1 ] && [ \$(ls '$work/spool'/*.json | wc -l) = 1 ] && [ \$(ls '$work/spool'/*.artifacts | wc -l) = $named ]"
start_server
upload --url "$url" --flush
check "flush: the report, then its spooled artifacts; the spool empty" sh -c "[ \$(cat '$work/rc') = 0 ] && [ \$(ls '$work/spool' | wc -l) = 0 ]"
check "flush: every artifact stored" [ "$(state 'len(s["artifacts"])')" = "$named" ]
printf 'x' >>"$work/run/artifacts/gpu0-10de-2335-nvidia_proprietary.vrs.attachment.rates.png"
start_server
upload --url "$url" "$work/run/report.json"
check "an artifact changed since the probe wrote it: not sent, said so, the rest delivered" sh -c "[ \$(cat '$work/rc') = 0 ] && grep -q 'not the one the report names' '$work/out' && [ \$($python -c \"import json; print(len(json.load(open('$work/state.json'))['artifacts']))\") = $((named - 1)) ]"
rm -rf "$work/spool"/*

# --- a report that can be neither delivered nor spooled has its own exit code -------------------
kill $server_pid 2>/dev/null; wait $server_pid 2>/dev/null
"$tool" upload --spool /proc/preflight-no-spool --retries 0 --url "http://127.0.0.1:9/reports" "$report" >"$work/out" 2>&1; echo $? >"$work/rc"
check "not delivered and not spoolable: exit 5, said plainly" sh -c "[ \$(cat '$work/rc') = 5 ] && grep -q 'NOT DELIVERED AND NOT SPOOLED' '$work/out'"

echo "$((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
