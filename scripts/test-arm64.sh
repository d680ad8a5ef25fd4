#!/usr/bin/env bash
# preflight on arm64, tested under emulation on an x86-64 Debian 12 (scripts/test.sh calls it):
#  1. cross-builds the five Debian packages for arm64 (scripts/package.sh --arch arm64) and the
#     arm64 test programs (the layer's test program, the fault-injecting probe, the VkFFT program),
#     and checks that every binary in the packages is aarch64;
#  2. runs the arm64 unit tests, the report reader's fuzz test and the dashboard's SQLite suite on
#     this machine, through qemu-user (binfmt_misc) and the arm64 libraries of multiarch;
#  3. builds, or reuses, a Debian 12 arm64 root at a fixed place outside the clone
#     ($PREFLIGHT_ARM64_ROOT, default /var/cache/preflight/arm64-bookworm) with arm64 lavapipe
#     (Mesa 25 from bookworm-backports), installs the arm64 packages in it and runs there, through
#     qemu: the probe's full run (declared capabilities equal to arm64 `vulkaninfo --json` on every
#     shared value, every smoke verdict as the x86-64 probe's on this machine's lavapipe, the PNG
#     artifacts), crash/hang isolation and signals, the layer's whole test suite (every scenario,
#     every route of enabling it, stacked with Vulkan-ValidationLayers, vkcube), a sample of its
#     real-program acceptance, the report tool on the report it produced, and the dashboard's ingest
#     of it.
# The root is rebuilt when absent, when its recipe (below) changed, or when older than
# $PREFLIGHT_ARM64_ROOT_MAX_AGE_DAYS (default 30: Mesa and security updates arrive). What runs
# under emulation, and its cost cold and warm, is in docs/farm.md#arm64-under-emulation-in-ci. Needs root (debootstrap,
# chroot, mounts). Usage: scripts/test-arm64.sh
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root_dir=${PREFLIGHT_ARM64_ROOT:-/var/cache/preflight/arm64-bookworm}
max_age_days=${PREFLIGHT_ARM64_ROOT_MAX_AGE_DAYS:-30}
mirror=http://deb.debian.org/debian
# The recipe of the root: a change here rebuilds it.
root_version=1
backports_packages=(mesa-vulkan-drivers libgl1-mesa-dri libglx-mesa0 libegl-mesa0 libgbm1)
root_packages=(libvulkan1 vulkan-tools vulkan-validationlayers mesa-utils mesa-utils-bin xvfb xauth python3 procps
               # what the preflight packages depend on, so that a warm run needs no download
               adduser libcjson1 libcurl4 libgnutls30 libpng16-16 libmicrohttpd12 libpq5 libsqlite3-0 zlib1g libstdc++6)
# and the host's lavapipe: the arm64 verdicts are held to the x86-64 ones of the same Mesa release,
# so a Mesa update on the host rebuilds the root (which takes the release bookworm-backports has then)
host_mesa=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null)
recipe="preflight arm64 root $root_version: bookworm minbase; backports: ${backports_packages[*]}; ${root_packages[*]}; host mesa $host_mesa"
# The real programs of the layer's acceptance that run here (tests/real-programs; docs/farm.md says why these)
programs=vkcube,vkcubepp,zink-glxgears,zink-es2gears,vkfft
tests_in_root=/opt/preflight-tests
py=/usr/bin/python3 # Debian's, with python3-jsonschema (a pyenv shim earlier on PATH may lack it)

if [ "$(id -u)" -ne 0 ]; then echo "test-arm64: needs root (debootstrap, chroot, mounts)" >&2; exit 2; fi
if [ "$(dpkg --print-architecture)" != amd64 ]; then # on arm64 the rest of test.sh tested it natively
    echo "test-arm64: skipped: it emulates arm64 on an x86-64 (amd64) Debian, and this is $(dpkg --print-architecture)"
    exit 0
fi
"$repo/scripts/setup-arm64.sh" >/dev/null || exit 1

failures=0
check() { # check NAME COMMAND...: false when it failed, so that `check ... || show-why` works
    local name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); return 1; fi
}
started=$(date +%s)
step_started=$started
step() { # prints the time the previous step took: the cost of each part
    local now; now=$(date +%s)
    [ -z "${step_name:-}" ] || echo "   ($step_name: $((now - step_started)) s)"
    step_name=$1; step_started=$now
    echo "== arm64: $1"
}

# Mounts under a root, innermost first (and lazily: a process of a killed run may still hold one).
unmount_under() {
    awk -v r="$1/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
}
mount_root() {
    mount -t proc proc "$1/proc" && mount -t sysfs sysfs "$1/sys" && mount --rbind /dev "$1/dev" &&
        mount --make-rslave "$1/dev"
}
# The emulated CPU: a Neoverse N1 (Ampere Altra, AWS Graviton2), an ARMv8.2 server core like the
# farms', rather than qemu's default "max": every optional feature, pointer authentication among
# them, about a third slower here, and under it lavapipe's float atomicAdd lost updates in 5 of 80
# runs (0 of 80 as a Neoverse N1 or a Cortex-A57; docs/farm.md#arm64-under-emulation-in-ci).
export QEMU_CPU=${QEMU_CPU:-neoverse-n1}
# A command in the root, in a clean environment: nothing of this shell's (sanitizer options,
# VK_* variables) reaches the arm64 programs unless named.
in_root() {
    local user=() # as_user=NAME: as that user of the root (by number: names are the root's)
    [ -z "$as_user" ] || user=(--userspec="$(awk -F: -v u="$as_user" '$1 == u {print $3 ":" $4}' "$root_dir/etc/passwd")")
    $exec_in_root chroot "${user[@]}" "$root_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 QEMU_CPU="$QEMU_CPU" LP_NUM_THREADS="${LP_NUM_THREADS:-2}" "$@"
}
as_user= exec_in_root=

work=$(mktemp -d)
server=
results="$repo/build-arm64/test-arm64" # the logs and reports of the last run, kept for a look (CI artifacts)
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null
    rm -rf "$results" && mkdir -p "$results" &&
        cp "$work"/*.log "$work"/*.json "$work"/*.txt "$root_dir"/tmp/*.json "$root_dir"/tmp/*.xml "$results/" 2>/dev/null
    if [ -d "$root_dir/usr" ]; then
        in_root sh -c 'dpkg -l "preflight-*" 2>/dev/null | grep -q ^ii && apt-get purge -y -q "preflight-*"' \
            >/dev/null 2>&1
    fi
    unmount_under "$root_dir"
    unmount_under "$root_dir.new"
    rm -rf "$work"
}
trap cleanup EXIT

# One run at a time uses the root (CI and a developer, or two worktrees, on one machine).
mkdir -p "$(dirname "$root_dir")"
exec 9>"$root_dir.lock"
flock -w 3600 9 || { echo "test-arm64: $root_dir is in use by another run (waited an hour)" >&2; exit 1; }

step "cross-build the packages and the test programs"
"$repo/scripts/package.sh" --arch arm64 "$work/debs" >"$work/package.log" 2>&1
check "scripts/package.sh --arch arm64 builds the packages" [ $? -eq 0 ] || { tail -20 "$work/package.log"; exit 1; }
check "five packages: four arm64, the docs for all" \
    sh -c "[ \$(ls '$work'/debs/*_arm64.deb | wc -l) = 4 ] && [ \$(ls '$work'/debs/*_all.deb | wc -l) = 1 ]"
for deb in "$work"/debs/*_arm64.deb; do
    name=$(basename "$deb")
    check "$name: Architecture arm64, no amd64 dependency" \
        sh -c "[ \"\$(dpkg-deb -f '$deb' Architecture)\" = arm64 ] && ! dpkg-deb -f '$deb' Depends | grep -q amd64"
    mkdir -p "$work/unpacked/$name" && dpkg-deb -x "$deb" "$work/unpacked/$name"
    elves=$(find "$work/unpacked/$name" -type f -exec sh -c 'head -c4 "$1" | grep -q ELF && echo "$1"' _ {} \;)
    # the paths as arguments (one word each: the work folder has no spaces), not pasted into the script
    # shellcheck disable=SC2086
    check "$name: its $(echo "$elves" | wc -w) ELF files are all aarch64" \
        sh -c '[ $# -gt 0 ] && for f in "$@"; do readelf -h "$f" | grep -q "Machine: *AArch64" || exit 1; done' _ $elves
done
check "the layer's manifest names the arm64 multiarch library" \
    grep -q '"library_path": "/usr/lib/aarch64-linux-gnu/libVkLayer_preflight_validation.so"' \
    "$work/unpacked/preflight-layer_0.1.0_arm64.deb/usr/share/vulkan/explicit_layer.d/VkLayer_preflight_validation.json"
build="$repo/build-arm64"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPREFLIGHT_WERROR=ON \
      -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/aarch64-linux-gnu.cmake" >"$work/build.log" 2>&1 &&
    nice ninja -C "$build" >>"$work/build.log" 2>&1
check "every target, tests included, cross-builds with -Wall -Wextra -Werror" [ $? -eq 0 ] || { tail -20 "$work/build.log"; exit 1; }

step "arm64 unit, fuzz and dashboard tests on this machine through qemu-user"
(cd "$build" && ctest --timeout 600 -R '^unit\.|^fuzz\.|^dashboard\.sqlite$' >"$work/ctest.log" 2>&1)
status=$? # (taken before the check's name, whose $(...) would set $?)
check "$(grep -o '[0-9]* tests failed out of [0-9]*' "$work/ctest.log" || echo 'ctest')" [ $status -eq 0 ] ||
    grep -E 'Failed|\*\*\*' "$work/ctest.log"

step "the arm64 Debian 12 root"
stamp="$root_dir/.preflight-root"
if [ "$(cat "$stamp" 2>/dev/null)" = "$recipe" ] && [ -z "$(find "$stamp" -mtime +"$max_age_days")" ]; then
    echo "   reused: $root_dir ($(stat -c %y "$stamp" | cut -d. -f1))"
else
    echo "   building $root_dir ($([ -e "$stamp" ] && echo "stale" || echo "absent"))"
    new="$root_dir.new"
    unmount_under "$new"
    rm -rf --one-file-system "$new"
    # debootstrap runs the arm64 maintainer scripts through qemu (binfmt_misc, registered by setup-arm64.sh)
    if ! debootstrap --arch=arm64 --variant=minbase bookworm "$new" "$mirror" >"$work/debootstrap.log" 2>&1; then
        tail -20 "$work/debootstrap.log"; echo "FAIL debootstrap of the arm64 root"; exit 1
    fi
    cat >"$new/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
deb $mirror bookworm-backports main
SOURCES
    printf '#!/bin/sh\nexit 101\n' >"$new/usr/sbin/policy-rc.d" # no service starts in the root
    chmod +x "$new/usr/sbin/policy-rc.d"
    mount_root "$new"
    chroot "$new" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive sh -c "
        apt-get update -q &&
        apt-get install -y -q --no-install-recommends -t bookworm-backports ${backports_packages[*]} &&
        apt-get install -y -q --no-install-recommends ${root_packages[*]} && apt-get clean" >"$work/root-apt.log" 2>&1
    apt_status=$?
    unmount_under "$new"
    if [ $apt_status -ne 0 ]; then tail -20 "$work/root-apt.log"; echo "FAIL installing lavapipe in the arm64 root"; exit 1; fi
    echo "$recipe" >"$new/.preflight-root"
    unmount_under "$root_dir"
    rm -rf --one-file-system "$root_dir"
    mv "$new" "$root_dir"
fi
mount_root "$root_dir" || { echo "FAIL mounting /proc, /sys and /dev in $root_dir"; exit 1; }
root_mesa=$(in_root dpkg-query -W -f='${Version}' mesa-vulkan-drivers)
echo "   lavapipe: mesa-vulkan-drivers $root_mesa in the root, $host_mesa on this machine"
[ "$root_mesa" = "$host_mesa" ] ||
    echo "   (not one release: bookworm-backports has moved on since this machine's Mesa; a difference in verdicts may come from it)"

step "install the arm64 packages in the root"
# what an earlier run left: its files, tests and dashboard database
rm -rf "${root_dir:?}/tmp/"* "$root_dir$tests_in_root" "$root_dir/var/lib/preflight"
mkdir -p "$root_dir/tmp/debs" "$root_dir$tests_in_root/bin"
cp "$work"/debs/*.deb "$root_dir/tmp/debs/"
in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/debs/*.deb' \
    >"$work/install.log" 2>&1
check "apt installs the arm64 packages in the arm64 root" [ $? -eq 0 ] || tail -20 "$work/install.log"
cp -r "$repo/tests/layer" "$repo/tests/real-programs" "$repo/tests/integration" "$repo/tests/fixtures" "$root_dir$tests_in_root/"
cp "$build/tests/layer_app" "$build/probes/preflight-probe-faulty" "$build/tests/real-programs/vkfft_inplace" \
   "$root_dir$tests_in_root/bin/"

step "the probe's full run, against arm64 vulkaninfo and the x86-64 probe"
native_probe="$repo/build/probes/preflight-probe"
if [ ! -x "$native_probe" ]; then
    "$repo/scripts/build.sh" "$repo/build" -DPREFLIGHT_WERROR=ON >"$work/native-build.log" 2>&1 ||
        { tail -20 "$work/native-build.log"; echo "FAIL the x86-64 build"; exit 1; }
fi
LP_NUM_THREADS=${LP_NUM_THREADS:-2} "$native_probe" --out "$work/x86-64.json" --host-label x86-64 >/dev/null 2>&1
check "the x86-64 probe's reference run on this machine's lavapipe" [ -s "$work/x86-64.json" ]
# The probe's runs with one lavapipe thread: with two, float atomicAdd under qemu lost updates on a
# loaded host (docs/farm.md, "One finding of the emulation"); the verdicts compared are then ours.
LP_NUM_THREADS=1 in_root preflight-probe --out /tmp/arm64.json --host-label arm64-qemu --artifacts /tmp/artifacts >"$work/probe.log" 2>&1
check "the installed arm64 probe's full run writes a report" [ $? -eq 0 ] || tail -20 "$work/probe.log"
grep -E '^GPU0: ' "$work/probe.log" | sed 's/^/   /'
cp "$root_dir/tmp/arm64.json" "$work/arm64.json"
in_root vulkaninfo --json=0 -o /tmp/vulkaninfo.json >/dev/null 2>&1
cp "$root_dir/tmp/vulkaninfo.json" "$work/vulkaninfo-arm64.json"
check "the report says the machine is aarch64" \
    "$py" -c "import json,sys; sys.exit(not json.load(open('$work/arm64.json'))['devices'][0]['identity']['kernel'].endswith(' aarch64'))"
"$py" "$repo/tests/integration/validate_report.py" "$repo/docs/report.schema.json" "$work/arm64.json" >"$work/schema.log" 2>&1
check "the report validates against docs/report.schema.json" [ $? -eq 0 ] || cat "$work/schema.log"
"$py" "$repo/tests/integration/compare_vulkaninfo.py" "$work/arm64.json" "$work/vulkaninfo-arm64.json" >"$work/compare.log"
status=$?
check "declared capabilities equal arm64 vulkaninfo --json on every shared value: $(grep -o 'compared [0-9]* values' "$work/compare.log")" \
    [ $status -eq 0 ] || grep DIFFERENCE "$work/compare.log" | head -20
"$py" "$repo/tests/integration/compare_smoke.py" "$work/x86-64.json" "$work/arm64.json" >"$work/verdicts.log"
status=$?
check "every smoke verdict as on x86-64: $(tail -1 "$work/verdicts.log")" [ $status -eq 0 ] || grep FAIL "$work/verdicts.log"
"$py" "$repo/tests/integration/check_artifacts.py" "$work/arm64.json" "$root_dir/tmp/artifacts" --at-least 6 >"$work/artifacts.log" 2>&1
status=$?
check "the exported PNG artifacts are the ones the evidence names: $(tail -1 "$work/artifacts.log")" [ $status -eq 0 ] ||
    cat "$work/artifacts.log"

step "crash and hang isolation"
LP_NUM_THREADS=1 in_root env PREFLIGHT_FAULT=compute.buffer=crash,compute.barrier=hang,compute.1x1=wrong,ray_query.aabb=crash,mesh_shader.draw=wrong \
    "$tests_in_root/bin/preflight-probe-faulty" --tests "compute.*,ray_query.*,mesh_shader.*" --timeout 20 \
    --out /tmp/faults.json >"$work/faults.log" 2>&1
"$py" "$repo/tests/integration/check_smoke.py" "$root_dir/tmp/faults.json" --expect compute.buffer=crashed \
    --expect compute.barrier=timeout --expect compute.1x1=fail --expect ray_query.aabb=crashed \
    --expect mesh_shader.draw=fail --expect mesh_shader.task=pass --group compute --others pass >"$work/faults-check.log"
check "a crashing, a hanging and two wrong tests: every verdict, the rest pass" [ $? -eq 0 ] || grep FAIL "$work/faults-check.log"
in_root bash "$tests_in_root/integration/probe_signals.sh" "$tests_in_root/bin/preflight-probe-faulty" >"$work/signals.log" 2>&1
check "no test process outlives the probe (SIGTERM, SIGKILL)" [ $? -eq 0 ] || cat "$work/signals.log"

step "the layer's test suite with the installed layer"
in_root bash "$tests_in_root/layer/layer_tests.sh" "$tests_in_root/bin/layer_app" /usr/share/vulkan/explicit_layer.d \
    "$tests_in_root/fixtures" /usr/bin/preflight-report >"$work/layer.log" 2>&1
status=$?
check "every scenario, route, stacking and vkcube check: $(tail -1 "$work/layer.log")" [ $status -eq 0 ] ||
    grep -A8 '^FAIL' "$work/layer.log" | head -60

step "the layer on real programs: $programs"
in_root python3 "$tests_in_root/real-programs/run_programs.py" --layer-dir /usr/share/vulkan/explicit_layer.d \
    --vkfft "$tests_in_root/bin/vkfft_inplace" --only "$programs" >"$work/programs.log" 2>&1
status=$?
check "each program's findings are its expectations, its outcome the same with the layer: $(tail -1 "$work/programs.log")" \
    [ $status -eq 0 ] || cat "$work/programs.log"
grep -E '^(ok|FAIL) ' "$work/programs.log" | sed 's/^/   /'

step "the report tool on the arm64 report"
cp "$work/x86-64.json" "$root_dir/tmp/x86-64.json"
cp "$repo/tests/fixtures/release-gate.txt" "$root_dir/tmp/"
report() { in_root preflight-report "$@"; }
report matrix --format json --out /tmp/matrix.json /tmp/x86-64.json /tmp/arm64.json 2>"$work/report.log"
check "matrix: x86-64 and arm64 side by side, every capability declared and verified alike" "$py" -c "
import json, sys
m = json.load(open('$root_dir/tmp/matrix.json'))
rows = [r for r in m['rows'] if 'verified' in r['cells'][0]]
same = all((r['cells'][0]['declared'], r['cells'][0]['verified']) == (r['cells'][1]['declared'], r['cells'][1]['verified'])
           for r in rows)
sys.exit(not ([c['host'] for c in m['columns']] == ['x86-64', 'arm64-qemu'] and rows and same))"
# lavapipe's JIT is as wide as the CPU's vectors: 256 bits (AVX2) here, 128 bits (NEON) on arm64, so
# its name and subgroup sizes differ; the diff calls the smaller subgroups a regression (exit 1)
report diff --format json --out /tmp/diff.json /tmp/x86-64.json /tmp/arm64.json 2>>"$work/report.log"
check "diff from x86-64: only the vector width (device name, subgroup sizes) and the kernel differ" "$py" -c "
import json, sys
changes = json.load(open('$root_dir/tmp/diff.json'))['devices'][0]['changes']
width = lambda c: c['what'] in ('kernel', 'VkPhysicalDeviceProperties.deviceName') or c['what'].endswith('ubgroupSize')
for c in changes:
    print('     %s %s: %s -> %s' % ('ok  ' if width(c) else 'FAIL', c['what'], c['before'], c['after']))
sys.exit(not changes or not all(width(c) for c in changes))"
report gate /tmp/release-gate.txt /tmp/arm64.json >"$work/gate.txt" 2>&1
check "gate: lavapipe on arm64 meets the release gate lavapipe meets on x86-64" [ $? -eq 0 ] || cat "$work/gate.txt"
report profile --out /tmp/profile.json /tmp/arm64.json 2>>"$work/report.log" &&
    "$py" "$repo/tests/integration/compare_vulkaninfo.py" "$root_dir/tmp/profile.json" "$work/vulkaninfo-arm64.json" >"$work/profile.log"
check "profile: the Vulkan Profiles export equals arm64 vulkaninfo" [ $? -eq 0 ] || tail -5 "$work/profile.log"
report junit --out /tmp/junit.xml /tmp/arm64.json 2>>"$work/report.log"
check "junit: one test case per smoke test, none failed" "$py" -c "
import json, sys, xml.etree.ElementTree as ET
cases = ET.parse('$root_dir/tmp/junit.xml').getroot().iter('testcase')
n = sum(1 for _ in cases)
failed = sum(1 for _ in ET.parse('$root_dir/tmp/junit.xml').getroot().iter('failure'))
sys.exit(not (n == len(json.load(open('$work/arm64.json'))['devices'][0]['smoke']) and failed == 0))"
report fleet-limits --out /tmp/fleet.json /tmp/x86-64.json /tmp/arm64.json 2>>"$work/report.log"
check "fleet-limits over both reports" [ -s "$root_dir/tmp/fleet.json" ]

step "the dashboard's ingest of the arm64 report"
db=/var/lib/preflight/dashboard.db
as_user=preflight in_root preflight-dashboard token add farm --db "$db" >"$root_dir/tmp/token" 2>"$work/dashboard.log"
check "the installed dashboard adds a token as its service user" [ -s "$root_dir/tmp/token" ]
# exec: $! is then the server itself (chroot and env exec it), which cleanup can stop; 9>&-: it
# does not hold the root's lock
(as_user=preflight exec_in_root=exec in_root preflight-dashboard serve --db "$db" --listen 127.0.0.1:0 --quiet \
    >"$work/serve.out" 2>>"$work/dashboard.log" 9>&-) &
server=$!
for _ in $(seq 300); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n -E 's/.*listening on (http:\/\/127\.0\.0\.1:[0-9]+\/).*/\1/p' "$work/serve.out")
report upload --url "${url}api/v1/reports" --token-file /tmp/token /tmp/x86-64.json /tmp/arm64.json >"$work/upload.log" 2>&1
check "the arm64 report tool uploads both reports to the arm64 dashboard" [ $? -eq 0 ] || cat "$work/upload.log" "$work/dashboard.log"
check "the dashboard lists the two machines under one device, kernels, verdicts and bytes as uploaded" "$py" -c "
import json, sys, urllib.request
url, token = '$url', open('$root_dir/tmp/token').read().strip()
def get(path):
    request = urllib.request.Request(url + path, headers={'Authorization': 'Bearer ' + token})
    return urllib.request.urlopen(request, timeout=60).read()
report = json.load(open('$work/arm64.json'))
key = report['devices'][0]['identity']['deviceKey']
device = json.loads(get('api/v1/devices/' + key))
arm = [e for e in device['entries'] if e['host'] == 'arm64-qemu']
assert len(device['entries']) == 2 and len(arm) == 1, device['entries']
assert arm[0]['kernel'].endswith(' aarch64'), arm[0]
passed = sum(t['status'] == 'pass' for t in report['devices'][0]['smoke'])
assert arm[0]['testsPassed'] == passed and arm[0]['testsFailed'] == 0, arm[0]
stored = json.loads(get('api/v1/reports/%d' % arm[0]['report']))
assert [(t['id'], t['status']) for t in stored['devices'][0]['smoke']] == \
       [(t['id'], t['status']) for t in report['devices'][0]['smoke']]
assert get('reports/%d/report.json' % arm[0]['report']) == open('$work/arm64.json', 'rb').read()
"
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; server=

step "done"
echo "test-arm64: $failures failed, $(($(date +%s) - started)) s in all (logs and reports: ${results#"$repo/"})"
[ "$failures" -eq 0 ]
