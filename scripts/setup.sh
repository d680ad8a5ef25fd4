#!/usr/bin/env bash
# Installs what preflight needs on Debian 12 (bookworm), as root, idempotently. Usage:
#   scripts/setup.sh           what building and probing need (scripts/run.sh): build tools and
#                              libraries from bookworm, and lavapipe (mesa-vulkan-drivers 25.x)
#                              from bookworm-backports, the software Vulkan driver without a GPU
#   scripts/setup.sh --tests   also what the tests need (scripts/test.sh): the third-party programs
#                              of the layer's acceptance, Vulkan-ValidationLayers, Chromium, the
#                              PostgreSQL server, clang for fuzzing, debootstrap for the unstable
#                              chroot, and the arm64 cross toolchain (scripts/setup-arm64.sh)
set -euo pipefail

tests=0
case ${1:-} in
'') ;;
--tests) tests=1 ;;
*) echo "scripts/setup.sh: unknown option '$1' (usage: scripts/setup.sh [--tests])" >&2; exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/setup.sh installs packages: run it as root (or with sudo)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
backports=/etc/apt/sources.list.d/preflight-bookworm-backports.sources
if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
    cat >"$backports" <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
fi

# building (every target: the tools, the layer, the dashboard, the tests' programs) and probing
packages=(
    build-essential cmake ninja-build pkg-config python3
    libvulkan-dev libvulkan-volk-dev vulkan-tools
    glslc spirv-tools spirv-headers
    libcjson-dev libcmocka-dev libcurl4-openssl-dev
    # the probe's exported images (--artifacts)
    libpng-dev
    # AmberScript files (amber/): GLSL compiled at run time through glslang's C interface and static
    # libraries (Debian's libshaderc.so.1 leaves glslang and SPIRV-Tools symbols undefined)
    glslang-dev
    # preflight-dashboard: HTTP(S), the embedded SQLite database, PostgreSQL's client library
    libmicrohttpd-dev libgnutls28-dev libsqlite3-dev libpq-dev zlib1g-dev
    # tests/real-programs builds VkFFT's benchmark against the layer (a header-only library)
    libvkfft-dev
)
# running the tests
test_packages=(
    python3-jsonschema clang-format vulkan-validationlayers xvfb xauth
    # the layer's real-program acceptance (tests/real-programs): OpenGL programs for zink, vkd3d
    # demos, ffmpeg, mpv and GStreamer with their Vulkan paths
    piglit glmark2-x11 glmark2-es2-x11 mesa-utils mesa-utils-bin vkd3d-demos
    ffmpeg mpv gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-bad
    # the HTML matrix and the dashboard's pages are checked in a real headless browser
    chromium
    # the dashboard's tests start a PostgreSQL server; sqlite3 inspects the SQLite file
    postgresql sqlite3
    # coverage-guided fuzzing of the layer's input paths (scripts/fuzz.sh): clang with libFuzzer
    clang libclang-rt-14-dev
    # the Debian unstable chroot for the real programs bookworm lacks (scripts/unstable-chroot.sh)
    debootstrap
)
[ "$tests" -eq 0 ] || packages+=("${test_packages[@]}")
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# lavapipe and, for zink, Mesa's OpenGL stack: all of Mesa from bookworm-backports (25.x), so that
# zink and lavapipe are one release
mesa_packages=(mesa-vulkan-drivers libgl1-mesa-dri libglx-mesa0 libegl-mesa0 libgbm1)
need_mesa=0
for p in "${mesa_packages[@]}"; do
    case "$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)" in 2[5-9].*|[3-9][0-9].*) ;; *) need_mesa=1 ;; esac
done

if [ ${#missing[@]} -gt 0 ] || [ "$need_mesa" -eq 1 ]; then
    apt-get update -q
    # Mesa first: the packages below then find its 25.x libraries installed and keep them. Named
    # package/release, not -t: with -t every dependency would come from backports too, and
    # backports' elfutils (libelf1 0.192) then leaves bookworm's libdw1, which GStreamer and
    # others need, uninstallable ("libdw1 : Depends: libelf1 (= 0.188-2.1)")
    [ "$need_mesa" -eq 0 ] || apt-get install -y -q --no-install-recommends "${mesa_packages[@]/%//bookworm-backports}"
    [ ${#missing[@]} -eq 0 ] || apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "setup: packages present$([ "$tests" -eq 0 ] || echo " (with the tests')"); lavapipe and zink $(dpkg-query -W -f='${Version}' mesa-vulkan-drivers)"
# the arm64 cross toolchain, arm64 -dev packages and qemu for scripts/test-arm64.sh
[ "$tests" -eq 0 ] || "$(dirname "$0")/setup-arm64.sh"
