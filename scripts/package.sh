#!/usr/bin/env bash
# Builds the Debian packages for this machine (Debian 12): preflight-probe, preflight-report,
# preflight-layer, preflight-dashboard and preflight-docs, into OUT_DIR (default packages/).
# Usage: scripts/package.sh [OUT_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$root/packages}")
build="$root/build-package"
# /usr: the layer's manifest names its library by absolute path, so the prefix is fixed at configure time
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
      -DBUILD_TESTING=OFF -DPREFLIGHT_WERROR=ON >/dev/null
ninja -C "$build" >/dev/null
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
rm -rf "$out/_CPack_Packages"
ls "$out"/*.deb
