#!/usr/bin/env bash
# Builds the Debian packages (Debian 12): preflight-probe, preflight-report, preflight-layer,
# preflight-dashboard and preflight-docs, into OUT_DIR (default packages/).
# Usage: scripts/package.sh [--arch amd64|arm64] [OUT_DIR]
#   --arch arm64  cross-builds them for arm64 (cmake/aarch64-linux-gnu.cmake; scripts/setup-arm64.sh
#                 installs the cross toolchain); the default is this machine's architecture.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
native=$(dpkg --print-architecture)
arch=$native
if [ "${1:-}" = "--arch" ]; then
    arch=${2:?"usage: scripts/package.sh [--arch amd64|arm64] [OUT_DIR]"}
    shift 2
fi
out=$(realpath -m "${1:-$root/packages}")
cross=()
build="$root/build-package"
if [ "$arch" != "$native" ]; then
    case "$arch" in
        arm64) toolchain="$root/cmake/aarch64-linux-gnu.cmake" ;;
        *) echo "package.sh: no cross build for '$arch' (arm64 is the one there is)" >&2; exit 2 ;;
    esac
    if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
        echo "package.sh: the arm64 cross toolchain is missing: run scripts/setup-arm64.sh as root" >&2
        exit 2
    fi
    cross=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")
    build="$root/build-package-$arch"
    # dpkg-shlibdeps (run by cpack) then looks up the arm64 libraries' dependencies
    export DEB_HOST_ARCH=$arch
fi
# /usr: the layer's manifest names its library by absolute path, so the prefix is fixed at configure time
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
      -DBUILD_TESTING=OFF -DPREFLIGHT_WERROR=ON "${cross[@]}" >/dev/null
ninja -C "$build" >/dev/null
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
rm -rf "$out/_CPack_Packages"
ls "$out"/*_"$arch".deb "$out"/*_all.deb
