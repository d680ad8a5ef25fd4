#!/usr/bin/env bash
# The test command: installs what is missing, checks the C style, builds with warnings as errors, runs every test
# (cmocka unit tests and integration tests against the real loader and lavapipe), builds the Debian
# packages, installs them, runs the installed probe and layer and removes them, then does the
# same in an AddressSanitizer/UndefinedBehaviorSanitizer build, then runs the layer's tests
# (4 threads recording 4000 command buffers among them) and the dashboard's (a thread per
# connection, 50 concurrent uploads, import on every core) in a ThreadSanitizer build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" --tests

# Tests talk to lavapipe unless the caller chose a driver: CI has no GPU.
export LP_NUM_THREADS=${LP_NUM_THREADS:-2}

echo "== C style (.clang-format)"
"$root/scripts/format.sh" --check

echo "== build (warnings as errors) and test"
"$root/scripts/build.sh" "$root/build" -DPREFLIGHT_WERROR=ON
# the Debian unstable chroot of layer.real_programs.unstable (Godot 4, ggml, VVL 1.4.363): reused
# from /var/cache/preflight when current (a fraction of a second), built otherwise (7-9 minutes)
"$root/scripts/unstable-chroot.sh" ensure
(cd "$root/build" && ctest --output-on-failure --timeout 600)

echo "== Debian packages: build, install, run the installed tools and layer, purge"
"$root/scripts/package-test.sh" "$root/build/tests/layer_app"

echo "== build with ASan/UBSan and test"
"$root/scripts/build.sh" "$root/build-asan" -DPREFLIGHT_WERROR=ON -DPREFLIGHT_SANITIZE=ON
# Mesa and LLVM keep process-lifetime allocations that LeakSanitizer would call leaks.
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
# (the layer's scenarios one by one are left to the first build: layer.integration runs them all here)
(cd "$root/build-asan" && ctest --output-on-failure --timeout 900 -LE scenario)

echo "== fuzz: every target coverage-guided with libFuzzer, ASan and UBSan, 30 s each"
"$root/scripts/fuzz.sh" 30

echo "== build with ThreadSanitizer and test the layer's and the dashboard's threading"
"$root/scripts/build.sh" "$root/build-tsan" -DPREFLIGHT_WERROR=ON -DPREFLIGHT_TSAN=ON
unset LSAN_OPTIONS ASAN_OPTIONS
export TSAN_OPTIONS="halt_on_error=1 suppressions=$root/tests/layer/tsan-driver.supp"
(cd "$root/build-tsan" && ctest --output-on-failure --timeout 900 -LE scenario -R 'layer\.|unit\.handle_map|dashboard\.(sqlite|postgres)')

echo "== arm64: cross-built packages, and the probe, layer, report tool and dashboard under emulation"
# (scripts/test-arm64.sh; its cost cold and warm, and what runs under emulation: docs/farm.md#arm64-under-emulation-in-ci)
"$root/scripts/test-arm64.sh"
