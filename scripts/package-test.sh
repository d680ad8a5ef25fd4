#!/usr/bin/env bash
# The Debian packages, as a farm machine gets them: builds them (scripts/package.sh), installs them
# with apt (dependencies from Debian), runs the installed probe on this machine's GPUs and the
# installed layer on Vulkan programs (enabled by VK_INSTANCE_LAYERS alone, found through its
# manifest in /usr/share/vulkan/explicit_layer.d), starts the installed dashboard as its service
# user and uploads to it, then purges the packages and checks nothing of them is left.
# Needs root. Usage: scripts/package-test.sh [LAYER_APP] (the layer's test program, to show the
# installed layer reporting a known hazard; default build/tests/layer_app)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
layer_app=${1:-$root/build/tests/layer_app}
work=$(mktemp -d)
packages=(preflight-probe preflight-report preflight-layer preflight-dashboard preflight-docs)
server=
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null
    apt-get purge -y -q "${packages[@]}" >/dev/null 2>&1
    rm -rf "$work" /var/lib/preflight
}
trap cleanup EXIT
failures=0
check() {
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
if [ "$(id -u)" -ne 0 ]; then echo "package-test: needs root (it installs packages)" >&2; exit 2; fi
if dpkg-query -W -f='${Status}' preflight-probe 2>/dev/null | grep -q "install ok installed"; then
    echo "package-test: preflight packages are installed already; this test would remove them" >&2; exit 2
fi
libdir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH) # the packages' multiarch directory
# nothing from the build tree may stand in for the installed files
unset VK_ADD_LAYER_PATH VK_LAYER_PATH PREFLIGHT_BIN
export DEBIAN_FRONTEND=noninteractive

"$root/scripts/package.sh" "$work/debs" >/dev/null || { echo "FAIL the packages build"; exit 1; }
check "five packages built" [ "$(ls "$work"/debs/*.deb | wc -l)" = 5 ]
apt-get install -y -q --no-install-recommends "$work"/debs/*.deb >"$work/apt.log" 2>&1
check "apt installs them with their dependencies" [ $? -eq 0 ]
for p in "${packages[@]}"; do
    check "$p is installed" sh -c "dpkg-query -W -f='\${Status}' $p | grep -q 'install ok installed'"
done
check "the layer manifest is in /usr/share/vulkan/explicit_layer.d and names the installed library" \
    grep -q "\"library_path\": \"$libdir/libVkLayer_preflight_validation.so\"" \
    /usr/share/vulkan/explicit_layer.d/VkLayer_preflight_validation.json

cd "$work" || exit 1
/usr/bin/preflight-probe --tests "compute.1x1,mesh_shader.*" --artifacts art --out probe.json 2>probe.log
check "the installed probe writes a report" [ $? -eq 0 -a -s probe.json ]
check "... whose tests pass on this machine" python3 -c "
import json, sys
tests = [t for t in json.load(open('probe.json'))['devices'][0]['smoke'] if t['status'] != 'skipped']
sys.exit(not tests or any(t['status'] not in ('pass', 'unsupported') for t in tests))"
check "... and the installed farm runner answers" sh -c "/usr/bin/preflight-farm-run --help | grep -q 'Exit code'"

VK_LOADER_DEBUG=layer VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation \
    /usr/bin/preflight-probe --tests "compute.*" --out layered.json >layered.log 2>&1
check "VK_INSTANCE_LAYERS alone loads the installed layer into the probe" \
    grep -q "libVkLayer_preflight_validation.so" layered.log
check "... which stays silent on the probe's correct programs" sh -c "! grep -q 'PREFLIGHT-' layered.log"
if [ -x "$layer_app" ]; then
    VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation "$layer_app" hazard-raw >app.log 2>&1
    check "the installed layer reports the known read-after-write hazard of a test program" \
        grep -q "FINDING PREFLIGHT-hazard-read-after-write" app.log
fi
VK_INSTANCE_LAYERS=VK_LAYER_PREFLIGHT_validation vulkaninfo --summary >vulkaninfo.log 2>&1
check "vulkaninfo runs with the installed layer" [ $? -eq 0 ]

check "the dashboard's service user and data directory exist" sh -c "id preflight >/dev/null && [ -d /var/lib/preflight ]"
check "the systemd unit and its defaults are installed" \
    test -s /usr/lib/systemd/system/preflight-dashboard.service -a -s /etc/default/preflight-dashboard
db=/var/lib/preflight/dashboard.db
token=$(runuser -u preflight -- /usr/bin/preflight-dashboard token add farm --db "$db")
printf '%s\n' "$token" >token
runuser -u preflight -- /usr/bin/preflight-dashboard serve --db "$db" --listen 127.0.0.1:0 --quiet >serve.out 2>serve.log &
server=$!
for _ in $(seq 100); do grep -q "listening on" serve.out 2>/dev/null && break; sleep 0.05; done
url=$(sed -n -E 's/.*listening on (http:\/\/127\.0\.0\.1:[0-9]+\/).*/\1/p' serve.out)
/usr/bin/preflight-report upload --url "${url}api/v1/reports" --token-file token --spool spool probe.json >upload.log 2>&1
check "the installed report tool uploads to the installed dashboard, run as its service user" [ $? -eq 0 ]
kill "$server"; wait "$server" 2>/dev/null; server=
check "man pages are installed" test -s /usr/share/man/man1/preflight-probe.1 -a -s /usr/share/man/man7/VK_LAYER_PREFLIGHT_validation.7

apt-get purge -y -q "${packages[@]}" >"$work/purge.log" 2>&1
check "apt purges them" [ $? -eq 0 ]
check "nothing of them is left: binaries, library, manifest, unit, defaults" env libdir="$libdir" sh -c '
    for f in /usr/bin/preflight-probe /usr/bin/preflight-report /usr/bin/preflight-dashboard /usr/bin/preflight-farm-run \
             $libdir/libVkLayer_preflight_validation.so \
             /usr/share/vulkan/explicit_layer.d/VkLayer_preflight_validation.json \
             /usr/lib/systemd/system/preflight-dashboard.service /etc/default/preflight-dashboard; do
        [ ! -e "$f" ] || { echo "left: $f"; exit 1; }
    done'
[ "$failures" -eq 0 ]
